/* Skinning job validity (ozz JobValidity style), influence checks, skin matrices vs hand products, and run-range/in-place invariance (bit-exact). */
#include <string.h>

#include "harness.h"
#include "test_random.h"
#include "sinew/anim.h"
#include "sinew/skin.h"

/* ---- a small valid job to break field by field ------------------------------ */

enum { NV = 4, NI = 2, NJ = 3 };

typedef struct fixture {
    sw_mat34 mats[NJ];
    sw_dualquat dqs[NJ];
    sw_mat34 stretch[NJ];
    uint16_t joints[NV * NI];
    float weights[NV * NI];
    /* Room for 4 floats per vertex everywhere, so stride changes stay in bounds. */
    float in_pos[NV * 4], out_pos[NV * 4];
    float in_nrm[NV * 4], out_nrm[NV * 4];
    float in_tan[NV * 4], out_tan[NV * 4];
} fixture;

static void fixture_init(fixture* f) {
    memset(f, 0, sizeof *f);
    for (int j = 0; j < NJ; j++) {
        f->mats[j] = sw_mat34_translation(sw_vec3_make((float)j, 0, 0));
        f->dqs[j] = sw_dualquat_from_mat34(&f->mats[j]);
        f->stretch[j] = sw_mat34_identity();
    }
    for (int v = 0; v < NV; v++) {
        f->joints[v * NI] = (uint16_t)(v % NJ);
        f->joints[v * NI + 1] = (uint16_t)((v + 1) % NJ);
        f->weights[v * NI] = 0.25f;
        f->weights[v * NI + 1] = 0.75f;
        f->in_pos[v * 3] = (float)v;
        f->in_nrm[v * 3 + 1] = 1.0f;
        f->in_tan[v * 4] = 1.0f;
        f->in_tan[v * 4 + 3] = -1.0f;
    }
}

static sw_skin_job fixture_job(fixture* f) {
    sw_skin_job job;
    memset(&job, 0, sizeof job);
    job.method = SW_SKIN_LBS;
    job.normal_mode = SW_NORMALS_BLENDED;
    job.vertex_count = NV;
    job.influence_count = NI;
    job.joint_count = NJ;
    job.matrices = f->mats;
    job.joints = f->joints;
    job.joint_format = SW_JOINT_U16;
    job.weights = f->weights;
    job.weight_format = SW_WEIGHT_F32;
    job.in_positions = f->in_pos;
    job.out_positions = f->out_pos;
    job.in_normals = f->in_nrm;
    job.out_normals = f->out_nrm;
    job.in_tangents = f->in_tan;
    job.out_tangents = f->out_tan;
    return job;
}

static int expect_invalid(const sw_skin_job* job, const char* what) {
    sw_diag diag;
    memset(&diag, 0, sizeof diag);
    sw_result res = sw_skin_job_validate(job, &diag);
    int ok = res != SW_OK && diag.result == res && diag.message[0] != '\0';
    if (!ok) fprintf(stderr, "  expected invalid: %s (got %s)\n", what, sw_result_str(res));
    return ok;
}

static int expect_valid(const sw_skin_job* job, const char* what) {
    sw_diag diag;
    memset(&diag, 0, sizeof diag);
    sw_result res = sw_skin_job_validate(job, &diag);
    if (res != SW_OK) fprintf(stderr, "  expected valid: %s (got %s: %s)\n", what, sw_result_str(res), diag.message);
    return res == SW_OK;
}

#define EXPECT_INVALID(mutation)                 \
    do {                                         \
        sw_skin_job job = good;                  \
        mutation;                                \
        SW_CHECK(expect_invalid(&job, #mutation)); \
    } while (0)

#define EXPECT_VALID(mutation)                 \
    do {                                       \
        sw_skin_job job = good;                \
        mutation;                              \
        SW_CHECK(expect_valid(&job, #mutation)); \
    } while (0)

static void test_skin_job_validity_rejects(void) {
    fixture f;
    fixture_init(&f);
    const sw_skin_job good = fixture_job(&f);
    SW_CHECK(expect_valid(&good, "the fixture"));

    /* Streams: positions required, each input needs its output and vice versa. */
    EXPECT_INVALID(job.in_positions = NULL);
    EXPECT_INVALID(job.out_positions = NULL);
    EXPECT_INVALID(job.out_normals = NULL);
    EXPECT_INVALID(job.in_normals = NULL);
    EXPECT_INVALID(job.out_tangents = NULL);
    EXPECT_INVALID(job.in_tangents = NULL);
    EXPECT_INVALID(job.joints = NULL);
    EXPECT_INVALID(job.weights = NULL);

    /* Counts. */
    EXPECT_INVALID(job.influence_count = 0);
    EXPECT_INVALID(job.influence_count = SW_MAX_INFLUENCES + 1);
    EXPECT_INVALID(job.influence_count = -1);
    EXPECT_INVALID(job.joint_count = 0); /* no joint index can be valid */

    /* Formats and modes outside their enums. */
    EXPECT_INVALID(job.method = (sw_skin_method)7);
    EXPECT_INVALID(job.joint_format = (sw_joint_format)7);
    EXPECT_INVALID(job.weight_format = (sw_weight_format)7);
    EXPECT_INVALID(job.normal_mode = (sw_normal_mode)7);
    EXPECT_INVALID(job.method = (sw_skin_method)-1);

    /* Palette for the method. */
    EXPECT_INVALID(job.matrices = NULL);
    EXPECT_INVALID(job.method = SW_SKIN_METHOD_DEFAULT; job.matrices = NULL);
    EXPECT_INVALID(job.method = SW_SKIN_DQS; job.dual_quats = NULL);
    EXPECT_INVALID(job.method = SW_SKIN_DQS; job.matrices = f.mats; job.dual_quats = NULL);

    /* Strides smaller than the element, or not a multiple of 4 for floats. */
    EXPECT_INVALID(job.in_positions_stride = 8);
    EXPECT_INVALID(job.out_positions_stride = 8);
    EXPECT_INVALID(job.in_normals_stride = 4);
    EXPECT_INVALID(job.out_normals_stride = 11);
    EXPECT_INVALID(job.in_tangents_stride = 12);
    EXPECT_INVALID(job.out_tangents_stride = 12);
    EXPECT_INVALID(job.in_positions_stride = 14);
    EXPECT_INVALID(job.out_tangents_stride = 18);
    EXPECT_INVALID(job.joints_stride = 2);  /* 2 × u16 need 4 */
    EXPECT_INVALID(job.weights_stride = 4); /* 2 × f32 need 8 */
    EXPECT_INVALID(job.joint_format = SW_JOINT_U8; job.joints_stride = 1);
    EXPECT_INVALID(job.weight_format = SW_WEIGHT_U16_NORM; job.weights_stride = 2);
    EXPECT_INVALID(job.weight_format = SW_WEIGHT_U8_NORM; job.weights_stride = 1);

    /* Float streams must be 4-byte aligned. */
    EXPECT_INVALID(job.in_positions = (const float*)(const void*)((const char*)f.in_pos + 2));
    EXPECT_INVALID(job.out_normals = (float*)(void*)((char*)f.out_nrm + 1));

    /* Aliasing: outputs may only alias their own input, exactly. */
    EXPECT_INVALID(job.out_normals = f.out_pos);
    EXPECT_INVALID(job.out_tangents = f.out_pos);
    EXPECT_INVALID(job.out_normals = f.in_pos);
    EXPECT_INVALID(job.out_positions = f.in_nrm);
    EXPECT_INVALID(job.out_positions = f.in_pos + 3);      /* shifted by one vertex */
    EXPECT_INVALID(job.out_positions = f.in_pos; job.out_positions_stride = 16); /* in place, other stride */
    EXPECT_INVALID(job.out_positions = f.weights);
    EXPECT_INVALID(job.out_tangents = (float*)(void*)f.joints);
    EXPECT_INVALID(job.out_positions = (float*)(void*)f.mats);

    /* Counts whose streams would run past the end of the address space. */
    EXPECT_INVALID(job.vertex_count = SIZE_MAX);
    EXPECT_INVALID(job.vertex_count = SIZE_MAX / 12 + 2);
}

static void test_skin_job_validity_accepts(void) {
    fixture f;
    fixture_init(&f);
    const sw_skin_job good = fixture_job(&f);
    SW_CHECK(expect_valid(&good, "the fixture"));

    /* Zero fields are defaults (LBS, U16, F32, BLENDED, packed strides). */
    EXPECT_VALID(job.method = SW_SKIN_METHOD_DEFAULT; job.joint_format = SW_JOINT_FORMAT_DEFAULT;
                 job.weight_format = SW_WEIGHT_FORMAT_DEFAULT; job.normal_mode = SW_NORMAL_MODE_DEFAULT);
    EXPECT_VALID(job.in_normals = NULL; job.out_normals = NULL; job.in_tangents = NULL; job.out_tangents = NULL);
    EXPECT_VALID(job.normal_mode = SW_NORMALS_COFACTOR);
    EXPECT_VALID(job.method = SW_SKIN_DQS; job.matrices = NULL; job.dual_quats = f.dqs);
    EXPECT_VALID(job.method = SW_SKIN_DQS; job.dual_quats = f.dqs; job.stretch = f.stretch);
    EXPECT_VALID(job.influence_count = 1);
    EXPECT_VALID(job.influence_count = 1; job.joint_format = SW_JOINT_U8; job.weight_format = SW_WEIGHT_U8_NORM);
    EXPECT_VALID(job.influence_count = 1; job.weight_format = SW_WEIGHT_U16_NORM);
    EXPECT_VALID(job.vertex_count = 2; job.influence_count = 4);
    EXPECT_VALID(job.vertex_count = 1; job.influence_count = SW_MAX_INFLUENCES);
    /* Explicit strides, equal to or larger than the element. */
    EXPECT_VALID(job.in_positions_stride = 12; job.out_positions_stride = 12; job.in_tangents_stride = 16;
                 job.joints_stride = 4; job.weights_stride = 8);
    EXPECT_VALID(job.in_positions_stride = 16; job.out_positions_stride = 16; job.in_normals_stride = 16;
                 job.out_normals_stride = 16);
    /* In place, same stride, all three streams. */
    EXPECT_VALID(job.out_positions = f.in_pos; job.out_normals = f.in_nrm; job.out_tangents = f.in_tan);
    EXPECT_VALID(job.out_positions = f.in_pos; job.in_positions_stride = 16; job.out_positions_stride = 16);
    /* Interleaved inputs may share one buffer (inputs are read-only). */
    float interleaved[NV * 10];
    memset(interleaved, 0, sizeof interleaved);
    EXPECT_VALID(job.in_positions = interleaved; job.in_positions_stride = 40; job.in_normals = interleaved + 3;
                 job.in_normals_stride = 40; job.in_tangents = interleaved + 6; job.in_tangents_stride = 40);

    /* vertex_count 0: the header sets no range; if accepted, running it writes nothing. */
    sw_skin_job empty = good;
    empty.vertex_count = 0;
    sw_result res = sw_skin_job_validate(&empty, NULL);
    fprintf(stderr, "  note: vertex_count 0 validates as %s\n", sw_result_str(res));
    if (res == SW_OK) {
        fixture before = f;
        sw_skin_job_run(&empty, 0, 0);
        SW_CHECK(memcmp(&before, &f, sizeof f) == 0);
    }
}

/* ---- sw_skin_check_influences ------------------------------------------------ */

static void test_check_influences(void) {
    enum { V = 12, I = 4, J = 5 };
    uint16_t joints[V * I];
    float weights[V * I];
    rng r = {0xC4EC};
    for (int v = 0; v < V; v++) {
        float sum = 0.0f;
        for (int i = 0; i < I; i++) {
            joints[v * I + i] = (uint16_t)rng_below(&r, J);
            weights[v * I + i] = i < 3 ? rng_range(&r, 0, 0.33) : 0.0f;
            sum += weights[v * I + i];
        }
        weights[v * I + 3] = 1.0f - sum;
    }
    sw_skin_job job;
    memset(&job, 0, sizeof job);
    job.vertex_count = V;
    job.influence_count = I;
    job.joint_count = J;
    job.joints = joints;
    job.weights = weights;
    sw_diag diag;
    SW_CHECK_EQ_INT(sw_skin_check_influences(&job, 1e-4f, &diag), SW_OK);

    uint16_t bad_joints[V * I];
    float bad_weights[V * I];
    sw_result res;

    /* Index out of range (in a used slot, then in an unused zero-weight slot). */
    memcpy(bad_joints, joints, sizeof joints);
    bad_joints[5 * I + 1] = J;
    job.joints = bad_joints;
    memset(&diag, 0, sizeof diag);
    res = sw_skin_check_influences(&job, 1e-4f, &diag);
    SW_CHECK_EQ_INT(res, SW_ERR_INDEX_OUT_OF_RANGE);
    SW_CHECK_EQ_INT(diag.index, 5);
    SW_CHECK(diag.message[0] != '\0');
    memcpy(bad_joints, joints, sizeof joints);
    bad_joints[8 * I + 3] = 60000;
    weights[8 * I + 3] = 0.0f;
    weights[8 * I + 0] += 1.0f - (weights[8 * I + 0] + weights[8 * I + 1] + weights[8 * I + 2]);
    memset(&diag, 0, sizeof diag);
    res = sw_skin_check_influences(&job, 1e-4f, &diag);
    SW_CHECK_EQ_INT(res, SW_ERR_INDEX_OUT_OF_RANGE);
    SW_CHECK_EQ_INT(diag.index, 8);
    job.joints = joints;
    SW_CHECK_EQ_INT(sw_skin_check_influences(&job, 1e-4f, NULL), SW_OK);

    /* Weight sum off by 0.1, reported at that vertex; and the first of two. */
    memcpy(bad_weights, weights, sizeof weights);
    bad_weights[3 * I + 0] += 0.1f;
    bad_weights[9 * I + 0] += 0.1f;
    job.weights = bad_weights;
    memset(&diag, 0, sizeof diag);
    res = sw_skin_check_influences(&job, 1e-4f, &diag);
    SW_CHECK(res != SW_OK);
    SW_CHECK_EQ_INT(diag.index, 3);
    SW_CHECK(diag.message[0] != '\0');
    /* A loose tolerance lets it through. */
    SW_CHECK_EQ_INT(sw_skin_check_influences(&job, 0.2f, NULL), SW_OK);

    /* NaN, infinity and negative weights. */
    const float poison[3] = {NAN, INFINITY, -0.25f};
    for (int k = 0; k < 3; k++) {
        memcpy(bad_weights, weights, sizeof weights);
        bad_weights[7 * I + 2] = poison[k];
        memset(&diag, 0, sizeof diag);
        res = sw_skin_check_influences(&job, 1e-4f, &diag);
        SW_CHECK(res != SW_OK);
        SW_CHECK_EQ_INT(diag.index, 7);
    }
    /* A negative weight balanced by another still sums to 1: still wrong. */
    memcpy(bad_weights, weights, sizeof weights);
    bad_weights[2 * I + 0] -= 0.5f;
    bad_weights[2 * I + 1] += 0.5f;
    if (bad_weights[2 * I + 0] < 0.0f) {
        memset(&diag, 0, sizeof diag);
        SW_CHECK(sw_skin_check_influences(&job, 1e-4f, &diag) != SW_OK);
        SW_CHECK_EQ_INT(diag.index, 2);
    }

    /* u8 joints and u8 weights that sum to 255 pass. */
    uint8_t j8[V * 2], w8[V * 2];
    for (int v = 0; v < V; v++) {
        j8[v * 2] = (uint8_t)(v % J);
        j8[v * 2 + 1] = (uint8_t)((v + 2) % J);
        w8[v * 2] = (uint8_t)(v * 20);
        w8[v * 2 + 1] = (uint8_t)(255 - v * 20);
    }
    sw_skin_job job8;
    memset(&job8, 0, sizeof job8);
    job8.vertex_count = V;
    job8.influence_count = 2;
    job8.joint_count = J;
    job8.joints = j8;
    job8.joint_format = SW_JOINT_U8;
    job8.weights = w8;
    job8.weight_format = SW_WEIGHT_U8_NORM;
    SW_CHECK_EQ_INT(sw_skin_check_influences(&job8, 1e-5f, NULL), SW_OK);
    w8[6 * 2] = (uint8_t)(w8[6 * 2] + 10);
    memset(&diag, 0, sizeof diag);
    SW_CHECK(sw_skin_check_influences(&job8, 1e-3f, &diag) != SW_OK);
    SW_CHECK_EQ_INT(diag.index, 6);
}

/* ---- skin matrices ------------------------------------------------------------- */

typedef struct d34 { double m[3][4]; } d34;

static d34 d34_mul_f(const sw_mat34* a, const sw_mat34* b) {
    d34 out;
    for (int r = 0; r < 3; r++) {
        for (int c = 0; c < 4; c++) {
            double s = c == 3 ? a->m[r][3] : 0.0;
            for (int k = 0; k < 3; k++) s += (double)a->m[r][k] * b->m[k][c];
            out.m[r][c] = s;
        }
    }
    return out;
}

static sw_mat34 rng_affine(rng* r) {
    sw_transform t = rng_transform(r, 3, 0.5, 2.0);
    sw_mat34 m = sw_transform_to_mat34(&t);
    /* Add some shear so the palette is not just TRS. */
    m.m[0][1] += rng_range(r, -0.3, 0.3);
    m.m[2][0] += rng_range(r, -0.3, 0.3);
    return m;
}

static void test_skin_matrices_remap_and_inverse_bind(void) {
    enum { SJ = 6, KJ = 4 };
    rng r = {0x5A1};
    sw_mat34 model[SJ], ib[KJ], out[KJ];
    for (int i = 0; i < SJ; i++) model[i] = rng_affine(&r);
    for (int i = 0; i < KJ; i++) ib[i] = rng_affine(&r);
    const uint16_t remap[KJ] = {5, 0, 3, 3};
    sw_skin skin = {KJ, remap, ib};
    SW_CHECK_EQ_INT(sw_skin_validate(&skin, SJ, NULL), SW_OK);
    sw_skin_matrices(out, &skin, model);
    for (int i = 0; i < KJ; i++) {
        d34 e = d34_mul_f(&model[remap[i]], &ib[i]);
        for (int rr = 0; rr < 3; rr++) {
            for (int c = 0; c < 4; c++) SW_CHECK_NEAR(out[i].m[rr][c], e.m[rr][c], 1e-5 * fmax(1.0, fabs(e.m[rr][c])));
        }
    }
    /* NULL joints = identity remap; NULL inverse binds = identity. */
    sw_skin plain = {KJ, NULL, NULL};
    sw_skin_matrices(out, &plain, model);
    for (int i = 0; i < KJ; i++) SW_CHECK(memcmp(&out[i], &model[i], sizeof out[i]) == 0);
    sw_skin no_ib = {KJ, remap, NULL};
    sw_skin_matrices(out, &no_ib, model);
    for (int i = 0; i < KJ; i++) SW_CHECK(memcmp(&out[i], &model[remap[i]], sizeof out[i]) == 0);
}

/* With inverse binds = inverse of the rest model transforms, the rest pose skins to identity. */
static void test_skin_matrices_rest_pose_identity(void) {
    enum { N = 12 };
    rng r = {0x5A2};
    int16_t parents[N];
    sw_transform rest[N];
    for (int i = 0; i < N; i++) {
        parents[i] = i == 0 ? SW_NO_PARENT : (int16_t)rng_below(&r, (uint32_t)i);
        rest[i] = rng_transform(&r, 3, 0.7, 1.4);
    }
    sw_mat34 model[N], ib[N], out[N];
    sw_local_to_model_job l2m = {parents, N, rest, NULL, 0, model};
    SW_CHECK_EQ_INT(sw_local_to_model_job_validate(&l2m, NULL), SW_OK);
    sw_local_to_model_job_run(&l2m);
    /* Inverse binds by Gauss–Jordan in double, not by the library. */
    for (int i = 0; i < N; i++) {
        double w[3][7];
        for (int rr = 0; rr < 3; rr++) {
            for (int c = 0; c < 3; c++) w[rr][c] = model[i].m[rr][c];
            for (int c = 0; c < 3; c++) w[rr][3 + c] = rr == c;
            w[rr][6] = 0;
        }
        for (int c = 0; c < 3; c++) {
            int p = c;
            for (int rr = c + 1; rr < 3; rr++) {
                if (fabs(w[rr][c]) > fabs(w[p][c])) p = rr;
            }
            for (int k = 0; k < 6; k++) {
                double tmp = w[c][k];
                w[c][k] = w[p][k];
                w[p][k] = tmp;
            }
            double inv = 1.0 / w[c][c];
            for (int k = 0; k < 6; k++) w[c][k] *= inv;
            for (int rr = 0; rr < 3; rr++) {
                if (rr == c) continue;
                double f = w[rr][c];
                for (int k = 0; k < 6; k++) w[rr][k] -= f * w[c][k];
            }
        }
        for (int rr = 0; rr < 3; rr++) {
            double t = 0.0;
            for (int c = 0; c < 3; c++) {
                ib[i].m[rr][c] = (float)w[rr][3 + c];
                t -= w[rr][3 + c] * model[i].m[c][3];
            }
            ib[i].m[rr][3] = (float)t;
        }
    }
    sw_skin skin = {N, NULL, ib};
    SW_CHECK_EQ_INT(sw_skin_validate(&skin, N, NULL), SW_OK);
    sw_skin_matrices(out, &skin, model);
    for (int i = 0; i < N; i++) {
        for (int rr = 0; rr < 3; rr++) {
            for (int c = 0; c < 4; c++) SW_CHECK_NEAR(out[i].m[rr][c], rr == c ? 1.0 : 0.0, 1e-5);
        }
    }
}

static void test_skin_validate(void) {
    sw_mat34 ib[3] = {sw_mat34_identity(), sw_mat34_identity(), sw_mat34_identity()};
    const uint16_t joints[3] = {0, 2, 1};
    sw_skin skin = {3, joints, ib};
    sw_diag diag;
    SW_CHECK_EQ_INT(sw_skin_validate(&skin, 3, &diag), SW_OK);
    /* Joint reference past the skeleton. */
    memset(&diag, 0, sizeof diag);
    SW_CHECK(sw_skin_validate(&skin, 2, &diag) != SW_OK);
    SW_CHECK_EQ_INT(diag.index, 1);
    SW_CHECK(diag.message[0] != '\0');
    /* NULL joints: skin joint i is skeleton joint i, so 3 skin joints need 3 skeleton joints. */
    sw_skin identity_map = {3, NULL, ib};
    SW_CHECK_EQ_INT(sw_skin_validate(&identity_map, 3, NULL), SW_OK);
    SW_CHECK(sw_skin_validate(&identity_map, 2, NULL) != SW_OK);
    /* Non-finite and singular inverse binds. */
    ib[2].m[1][3] = NAN;
    memset(&diag, 0, sizeof diag);
    SW_CHECK(sw_skin_validate(&skin, 3, &diag) != SW_OK);
    SW_CHECK_EQ_INT(diag.index, 2);
    ib[2] = sw_mat34_identity();
    ib[1].m[2][2] = 0.0f;
    memset(&diag, 0, sizeof diag);
    SW_CHECK(sw_skin_validate(&skin, 3, &diag) != SW_OK);
    SW_CHECK_EQ_INT(diag.index, 1);
}

/* ---- run ranges and in place ----------------------------------------------------- */

enum { RV = 103, RI = 4, RJ = 9 };

typedef struct range_data {
    sw_mat34 mats[RJ];
    sw_dualquat dqs[RJ];
    sw_mat34 stretch[RJ];
    uint16_t joints[RV * RI];
    float weights[RV * RI];
    float pos[RV * 3], nrm[RV * 3], tan[RV * 4];
} range_data;

static void range_data_init(range_data* d) {
    rng r = {0x4A9E};
    for (int j = 0; j < RJ; j++) d->mats[j] = rng_affine(&r);
    SW_CHECK(sw_skin_dual_quats(d->dqs, d->stretch, d->mats, RJ) > 0);
    for (int v = 0; v < RV; v++) {
        float sum = 0.0f;
        for (int i = 0; i < RI; i++) {
            d->joints[v * RI + i] = (uint16_t)rng_below(&r, RJ);
            d->weights[v * RI + i] = rng_range(&r, 0.05, 1.0);
            sum += d->weights[v * RI + i];
        }
        for (int i = 0; i < RI; i++) d->weights[v * RI + i] /= sum;
        sw_vec3 p = rng_vec3(&r, -2, 2), n = sw_vec3_normalize(rng_vec3(&r, -1, 1)), t = sw_vec3_normalize(rng_vec3(&r, -1, 1));
        memcpy(&d->pos[v * 3], &p, sizeof p);
        memcpy(&d->nrm[v * 3], &n, sizeof n);
        memcpy(&d->tan[v * 4], &t, sizeof t);
        d->tan[v * 4 + 3] = v % 2 ? 1.0f : -1.0f;
    }
}

static sw_skin_job range_job(const range_data* d, sw_skin_method method, sw_normal_mode mode, float* out_pos,
                             float* out_nrm, float* out_tan) {
    sw_skin_job job;
    memset(&job, 0, sizeof job);
    job.method = method;
    job.normal_mode = mode;
    job.vertex_count = RV;
    job.influence_count = RI;
    job.joint_count = RJ;
    job.matrices = d->mats;
    job.dual_quats = d->dqs;
    job.stretch = d->stretch;
    job.joints = d->joints;
    job.weights = d->weights;
    job.in_positions = d->pos;
    job.out_positions = out_pos;
    job.in_normals = d->nrm;
    job.out_normals = out_nrm;
    job.in_tangents = d->tan;
    job.out_tangents = out_tan;
    return job;
}

static void test_skin_job_ranges_bit_exact(void) {
    static range_data d;
    range_data_init(&d);
    static float ref_pos[RV * 3], ref_nrm[RV * 3], ref_tan[RV * 4];
    static float pos[RV * 3], nrm[RV * 3], tan[RV * 4];
    const sw_skin_method methods[2] = {SW_SKIN_LBS, SW_SKIN_DQS};
    const sw_normal_mode modes[2] = {SW_NORMALS_BLENDED, SW_NORMALS_COFACTOR};
    const size_t splits[][3] = {{1, 102, 0}, {3, 100, 0}, {4, 99, 0}, {8, 95, 0}, {50, 53, 0}, {102, 1, 0}, {5, 33, 65}, {1, 1, 101}};
    for (int m = 0; m < 2; m++) {
        for (int n = 0; n < 2; n++) {
            sw_skin_job whole = range_job(&d, methods[m], modes[n], ref_pos, ref_nrm, ref_tan);
            SW_CHECK_EQ_INT(sw_skin_job_validate(&whole, NULL), SW_OK);
            sw_skin_job_run(&whole, 0, RV);
            for (size_t s = 0; s < sizeof splits / sizeof splits[0]; s++) {
                memset(pos, 0xEE, sizeof pos);
                memset(nrm, 0xEE, sizeof nrm);
                memset(tan, 0xEE, sizeof tan);
                sw_skin_job job = range_job(&d, methods[m], modes[n], pos, nrm, tan);
                size_t first = 0;
                for (int k = 0; k < 3; k++) {
                    size_t count = splits[s][k] ? splits[s][k] : RV - first;
                    if (first + count > RV) count = RV - first;
                    sw_skin_job_run(&job, first, count);
                    first += count;
                    if (first == RV) break;
                }
                int same = memcmp(pos, ref_pos, sizeof pos) == 0 && memcmp(nrm, ref_nrm, sizeof nrm) == 0 &&
                           memcmp(tan, ref_tan, sizeof tan) == 0;
                if (!same) fprintf(stderr, "  method %d, normals %d, split %zu differs\n", (int)methods[m], (int)modes[n], s);
                SW_CHECK(same);
            }
            /* A sub-range writes only its own vertices. */
            memset(pos, 0xEE, sizeof pos);
            sw_skin_job job = range_job(&d, methods[m], modes[n], pos, nrm, tan);
            sw_skin_job_run(&job, 10, 7);
            int outside = 0;
            const uint8_t* bytes = (const uint8_t*)pos;
            for (size_t b = 0; b < sizeof pos; b++) {
                if (b < 10 * 12 || b >= 17 * 12) outside += bytes[b] != 0xEE;
            }
            SW_CHECK_EQ_INT(outside, 0);
            SW_CHECK(memcmp(pos + 30, ref_pos + 30, 7 * 12) == 0);
        }
    }
}

static void test_skin_job_in_place(void) {
    static range_data d;
    range_data_init(&d);
    static float ref_pos[RV * 3], ref_nrm[RV * 3], ref_tan[RV * 4];
    const sw_skin_method methods[2] = {SW_SKIN_LBS, SW_SKIN_DQS};
    for (int m = 0; m < 2; m++) {
        sw_skin_job out_of_place = range_job(&d, methods[m], SW_NORMALS_COFACTOR, ref_pos, ref_nrm, ref_tan);
        SW_CHECK_EQ_INT(sw_skin_job_validate(&out_of_place, NULL), SW_OK);
        sw_skin_job_run(&out_of_place, 0, RV);
        static range_data work;
        work = d;
        sw_skin_job job = range_job(&work, methods[m], SW_NORMALS_COFACTOR, work.pos, work.nrm, work.tan);
        SW_CHECK_EQ_INT(sw_skin_job_validate(&job, NULL), SW_OK);
        sw_skin_job_run(&job, 0, 40);
        sw_skin_job_run(&job, 40, RV - 40);
        SW_CHECK(memcmp(work.pos, ref_pos, sizeof ref_pos) == 0);
        SW_CHECK(memcmp(work.nrm, ref_nrm, sizeof ref_nrm) == 0);
        SW_CHECK(memcmp(work.tan, ref_tan, sizeof ref_tan) == 0);
    }
}

/* Strided (interleaved, padded) streams give the same bits as packed ones. */
static void test_skin_job_strides(void) {
    static range_data d;
    range_data_init(&d);
    static float ref_pos[RV * 3], ref_nrm[RV * 3], ref_tan[RV * 4];
    sw_skin_job packed = range_job(&d, SW_SKIN_LBS, SW_NORMALS_BLENDED, ref_pos, ref_nrm, ref_tan);
    sw_skin_job_run(&packed, 0, RV);

    /* Interleaved input: pos(3) pad(1) nrm(3) tan(4) pad(1) = 12 floats; joints and
       weights interleaved in one record per vertex. */
    enum { IN = 12 };
    static float in[RV * IN];
    typedef struct influence_record { uint16_t joints[RI]; float weights[RI]; float pad; } influence_record;
    static influence_record infl[RV];
    for (int v = 0; v < RV; v++) {
        memcpy(&in[v * IN + 0], &d.pos[v * 3], 12);
        memcpy(&in[v * IN + 4], &d.nrm[v * 3], 12);
        memcpy(&in[v * IN + 7], &d.tan[v * 4], 16);
        memcpy(infl[v].joints, &d.joints[v * RI], sizeof infl[v].joints);
        memcpy(infl[v].weights, &d.weights[v * RI], sizeof infl[v].weights);
    }
    static float out_pos[RV * 5], out_nrm[RV * 4], out_tan[RV * 6];
    sw_skin_job job = range_job(&d, SW_SKIN_LBS, SW_NORMALS_BLENDED, out_pos, out_nrm, out_tan);
    job.in_positions = in;
    job.in_positions_stride = IN * 4;
    job.in_normals = in + 4;
    job.in_normals_stride = IN * 4;
    job.in_tangents = in + 7;
    job.in_tangents_stride = IN * 4;
    job.joints = infl[0].joints;
    job.joints_stride = sizeof(influence_record);
    job.weights = infl[0].weights;
    job.weights_stride = sizeof(influence_record);
    job.out_positions_stride = 20;
    job.out_normals_stride = 16;
    job.out_tangents_stride = 24;
    sw_diag diag;
    SW_CHECK_EQ_INT(sw_skin_job_validate(&job, &diag), SW_OK);
    sw_skin_job_run(&job, 0, RV);
    int diff = 0;
    for (int v = 0; v < RV; v++) {
        diff += memcmp(&out_pos[v * 5], &ref_pos[v * 3], 12) != 0;
        diff += memcmp(&out_nrm[v * 4], &ref_nrm[v * 3], 12) != 0;
        diff += memcmp(&out_tan[v * 6], &ref_tan[v * 4], 16) != 0;
    }
    SW_CHECK_EQ_INT(diff, 0);
}

int main(void) {
    SW_RUN(test_skin_job_validity_rejects);
    SW_RUN(test_skin_job_validity_accepts);
    SW_RUN(test_check_influences);
    SW_RUN(test_skin_matrices_remap_and_inverse_bind);
    SW_RUN(test_skin_matrices_rest_pose_identity);
    SW_RUN(test_skin_validate);
    SW_RUN(test_skin_job_ranges_bit_exact);
    SW_RUN(test_skin_job_in_place);
    SW_RUN(test_skin_job_strides);
    return sw_test_finish();
}
