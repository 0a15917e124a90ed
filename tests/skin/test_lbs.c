/* Linear blend skinning (sw_skin_job, LBS) against a double-precision reference for 1–8 influences, every joint/weight format, and cofactor normals. */
#include <string.h>

#include "harness.h"
#include "test_random.h"
#include "sinew/skin.h"

static void rot_from_axis_angle_d(const double axis_in[3], double angle, double m[3][3]) {
    double n = sqrt(axis_in[0] * axis_in[0] + axis_in[1] * axis_in[1] + axis_in[2] * axis_in[2]);
    double x = axis_in[0] / n, y = axis_in[1] / n, z = axis_in[2] / n;
    double c = cos(angle), s = sin(angle), t = 1.0 - c;
    m[0][0] = t * x * x + c;     m[0][1] = t * x * y - s * z; m[0][2] = t * x * z + s * y;
    m[1][0] = t * x * y + s * z; m[1][1] = t * y * y + c;     m[1][2] = t * y * z - s * x;
    m[2][0] = t * x * z - s * y; m[2][1] = t * y * z + s * x; m[2][2] = t * z * z + c;
}

static void mat3_mul_d(const double a[3][3], const double b[3][3], double out[3][3]) {
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) out[i][j] = a[i][0] * b[0][j] + a[i][1] * b[1][j] + a[i][2] * b[2][j];
    }
}

/* A palette of skin matrices like a real rig's: rotations within ~70° of a
   common one (so blends stay far from singular), non-uniform scale, shear,
   translations up to 5. */
static void make_palette(rng* r, sw_mat34* out, int count) {
    double base[3][3];
    const double base_axis[3] = {0.3, 1.0, -0.5};
    rot_from_axis_angle_d(base_axis, 0.8, base);
    for (int j = 0; j < count; j++) {
        double axis[3] = {2 * rng_unit(r) - 1, 2 * rng_unit(r) - 1, 2 * rng_unit(r) - 1};
        if (fabs(axis[0]) + fabs(axis[1]) + fabs(axis[2]) < 0.1) axis[0] = 1.0;
        double local[3][3], rot[3][3];
        rot_from_axis_angle_d(axis, (2 * rng_unit(r) - 1) * 1.2, local);
        mat3_mul_d(base, local, rot);
        const double s[3] = {0.6 + 1.2 * rng_unit(r), 0.6 + 1.2 * rng_unit(r), 0.6 + 1.2 * rng_unit(r)};
        const double shear = 0.4 * rng_unit(r) - 0.2;
        for (int a = 0; a < 3; a++) {
            /* rot·diag(s)·(I + shear·e0e1ᵀ) */
            out[j].m[a][0] = (float)(rot[a][0] * s[0]);
            out[j].m[a][1] = (float)(rot[a][1] * s[1] + rot[a][0] * s[0] * shear);
            out[j].m[a][2] = (float)(rot[a][2] * s[2]);
            out[j].m[a][3] = rng_range(r, -5, 5);
        }
    }
}

/* ---- the double-precision reference ------------------------------------------ */

typedef struct ref_vertex {
    double pos[3], nrm[3], tan[3];
    double pos_scale; /* Σ wᵢ·(|Aᵢ|·|p| + |tᵢ|): the size float rounding is relative to */
    double nrm_cond;  /* how much rounding in A is amplified in the normalised normal */
} ref_vertex;

static void normalize_d(double v[3]) {
    double n = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    for (int k = 0; k < 3; k++) v[k] /= n;
}

/* A = Σ wᵢ·Sᵢ in double; p' = A·p; n' = normalize(A·n) or normalize(cof(A)·n)
   with cof(A) = [a₁×a₂ | a₂×a₀ | a₀×a₁] (columns aₖ of A); t' ∥ A·t. */
static ref_vertex reference_vertex(const sw_mat34* palette, const int* joints, const double* weights, int count,
                                   const float* p, const float* n, const float* t, sw_normal_mode mode) {
    double a[3][4] = {{0}};
    double scale_rows[3] = {0, 0, 0}, mag = 0.0;
    for (int i = 0; i < count; i++) {
        const sw_mat34* s = &palette[joints[i]];
        double frob = 0.0;
        for (int r = 0; r < 3; r++) {
            for (int c = 0; c < 4; c++) a[r][c] += weights[i] * s->m[r][c];
            scale_rows[r] += weights[i] * (fabs(s->m[r][0] * p[0]) + fabs(s->m[r][1] * p[1]) + fabs(s->m[r][2] * p[2]) +
                                           fabs(s->m[r][3]));
            for (int c = 0; c < 3; c++) frob += (double)s->m[r][c] * s->m[r][c];
        }
        mag += weights[i] * sqrt(frob);
    }
    ref_vertex out;
    out.pos_scale = fmax(scale_rows[0], fmax(scale_rows[1], scale_rows[2]));
    for (int r = 0; r < 3; r++) {
        out.pos[r] = a[r][0] * p[0] + a[r][1] * p[1] + a[r][2] * p[2] + a[r][3];
        out.tan[r] = a[r][0] * t[0] + a[r][1] * t[1] + a[r][2] * t[2];
    }
    if (mode == SW_NORMALS_COFACTOR) {
        double col[3][3], cof[3][3];
        for (int c = 0; c < 3; c++) {
            for (int r = 0; r < 3; r++) col[c][r] = a[r][c];
        }
        for (int c = 0; c < 3; c++) {
            const double* u = col[(c + 1) % 3];
            const double* v = col[(c + 2) % 3];
            cof[0][c] = u[1] * v[2] - u[2] * v[1];
            cof[1][c] = u[2] * v[0] - u[0] * v[2];
            cof[2][c] = u[0] * v[1] - u[1] * v[0];
        }
        /* The job's contract: det(A)·A⁻ᵀ with the sign of det removed. */
        double det = a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
                     a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
        double sign = det < 0 ? -1.0 : 1.0;
        for (int r = 0; r < 3; r++) out.nrm[r] = sign * (cof[r][0] * n[0] + cof[r][1] * n[1] + cof[r][2] * n[2]);
        double len = sqrt(out.nrm[0] * out.nrm[0] + out.nrm[1] * out.nrm[1] + out.nrm[2] * out.nrm[2]);
        out.nrm_cond = mag * mag / len;
    } else {
        for (int r = 0; r < 3; r++) out.nrm[r] = a[r][0] * n[0] + a[r][1] * n[1] + a[r][2] * n[2];
        double len = sqrt(out.nrm[0] * out.nrm[0] + out.nrm[1] * out.nrm[1] + out.nrm[2] * out.nrm[2]);
        out.nrm_cond = mag / len;
    }
    normalize_d(out.nrm);
    normalize_d(out.tan);
    return out;
}

/* ---- one randomised configuration ---------------------------------------------- */

enum { V = 96, J = 20 };

typedef struct lbs_case {
    int influences;
    sw_joint_format joint_format;
    sw_weight_format weight_format;
    sw_normal_mode normal_mode;
} lbs_case;

typedef struct lbs_errors {
    double pos, nrm, nrm_len, tan_dir;
    int tan_w_wrong;
} lbs_errors;

/* Decoded weight of slot i as a glTF reader would: c/255, c/65535 or the float. */
static double decode_weight_d(const void* weights, sw_weight_format format, size_t index) {
    switch (format) {
    case SW_WEIGHT_U8_NORM: return ((const uint8_t*)weights)[index] / 255.0;
    case SW_WEIGHT_U16_NORM: return ((const uint16_t*)weights)[index] / 65535.0;
    default: return ((const float*)weights)[index];
    }
}

/* Splits `total` into `count` positive integer parts (weights that sum to 1 after decoding). */
static void split_integer(rng* r, uint32_t total, int count, uint32_t* parts) {
    uint32_t left = total - (uint32_t)count;
    for (int i = 0; i < count; i++) parts[i] = 1;
    for (int i = 0; i < count - 1; i++) {
        uint32_t take = rng_below(r, left + 1);
        parts[i] += take;
        left -= take;
    }
    parts[count - 1] += left;
}

static lbs_errors run_lbs_case(const lbs_case* c, uint64_t seed) {
    rng r = {seed};
    static sw_mat34 palette[J];
    make_palette(&r, palette, J);
    static uint8_t joints8[V * 8];
    static uint16_t joints16[V * 8];
    static uint8_t weights8[V * 8];
    static uint16_t weights16[V * 8];
    static float weightsf[V * 8];
    static float pos[V * 3], nrm[V * 3], tan[V * 4];
    static float out_pos[V * 3], out_nrm[V * 3], out_tan[V * 4];
    const int n = c->influences;
    for (int v = 0; v < V; v++) {
        for (int i = 0; i < n; i++) {
            uint32_t j = rng_below(&r, J);
            joints8[v * n + i] = (uint8_t)j;
            joints16[v * n + i] = (uint16_t)j;
        }
        uint32_t parts[8];
        if (c->weight_format == SW_WEIGHT_U8_NORM) {
            split_integer(&r, 255, n, parts);
            for (int i = 0; i < n; i++) weights8[v * n + i] = (uint8_t)parts[i];
        } else if (c->weight_format == SW_WEIGHT_U16_NORM) {
            split_integer(&r, 65535, n, parts);
            for (int i = 0; i < n; i++) weights16[v * n + i] = (uint16_t)parts[i];
        } else {
            float sum = 0.0f;
            for (int i = 0; i < n; i++) sum += weightsf[v * n + i] = rng_range(&r, 0.01, 1.0);
            for (int i = 0; i < n; i++) weightsf[v * n + i] /= sum;
        }
        sw_vec3 p = rng_vec3(&r, -2, 2), nn = sw_vec3_normalize(rng_vec3(&r, -1, 1)),
                t = sw_vec3_normalize(rng_vec3(&r, -1, 1));
        memcpy(&pos[v * 3], &p, sizeof p);
        memcpy(&nrm[v * 3], &nn, sizeof nn);
        memcpy(&tan[v * 4], &t, sizeof t);
        tan[v * 4 + 3] = v % 2 ? 1.0f : -1.0f;
    }
    const void* weights = c->weight_format == SW_WEIGHT_U8_NORM    ? (const void*)weights8
                          : c->weight_format == SW_WEIGHT_U16_NORM ? (const void*)weights16
                                                                    : (const void*)weightsf;
    sw_skin_job job;
    memset(&job, 0, sizeof job);
    job.method = SW_SKIN_LBS;
    job.normal_mode = c->normal_mode;
    job.vertex_count = V;
    job.influence_count = n;
    job.joint_count = J;
    job.matrices = palette;
    job.joints = c->joint_format == SW_JOINT_U8 ? (const void*)joints8 : (const void*)joints16;
    job.joint_format = c->joint_format;
    job.weights = weights;
    job.weight_format = c->weight_format;
    job.in_positions = pos;
    job.out_positions = out_pos;
    job.in_normals = nrm;
    job.out_normals = out_nrm;
    job.in_tangents = tan;
    job.out_tangents = out_tan;
    sw_diag diag;
    lbs_errors e = {0, 0, 0, 0, 0};
    if (sw_skin_job_validate(&job, &diag) != SW_OK) {
        fprintf(stderr, "  validate failed: %s\n", diag.message);
        e.pos = e.nrm = INFINITY;
        return e;
    }
    sw_skin_job_run(&job, 0, V);
    for (int v = 0; v < V; v++) {
        int js[8];
        double ws[8];
        for (int i = 0; i < n; i++) {
            js[i] = joints16[v * n + i];
            ws[i] = decode_weight_d(weights, c->weight_format, (size_t)(v * n + i));
        }
        ref_vertex ref = reference_vertex(palette, js, ws, n, &pos[v * 3], &nrm[v * 3], &tan[v * 4], c->normal_mode);
        double nlen = 0.0, tlen = 0.0, tdot = 0.0;
        for (int k = 0; k < 3; k++) {
            e.pos = fmax(e.pos, fabs(out_pos[v * 3 + k] - ref.pos[k]) / ref.pos_scale);
            /* Normal error relative to its conditioning (about 1 for tame blends). */
            e.nrm = fmax(e.nrm, fabs(out_nrm[v * 3 + k] - ref.nrm[k]) / fmax(1.0, ref.nrm_cond));
            nlen += (double)out_nrm[v * 3 + k] * out_nrm[v * 3 + k];
            tlen += (double)out_tan[v * 4 + k] * out_tan[v * 4 + k];
            tdot += out_tan[v * 4 + k] * ref.tan[k];
        }
        e.nrm_len = fmax(e.nrm_len, fabs(sqrt(nlen) - 1.0));
        /* The tangent's direction; the header does not say whether xyz is renormalised. */
        e.tan_dir = fmax(e.tan_dir, fabs(tdot / sqrt(tlen) - 1.0));
        e.tan_w_wrong += out_tan[v * 4 + 3] != tan[v * 4 + 3];
    }
    return e;
}

/* The requirement: every vertex, up to 8 influences, within 1e-6 of the
   double reference (relative to the magnitudes being blended). */
static void test_lbs_vs_double_reference(void) {
    const sw_joint_format jfs[2] = {SW_JOINT_U8, SW_JOINT_U16};
    const sw_weight_format wfs[3] = {SW_WEIGHT_F32, SW_WEIGHT_U8_NORM, SW_WEIGHT_U16_NORM};
    uint64_t seed = 0x1B5;
    for (int n = 1; n <= SW_MAX_INFLUENCES; n++) {
        for (int j = 0; j < 2; j++) {
            for (int w = 0; w < 3; w++) {
                lbs_case c = {n, jfs[j], wfs[w], SW_NORMALS_BLENDED};
                lbs_errors e = run_lbs_case(&c, seed++);
                int ok = e.pos < 1e-6 && e.nrm < 1e-5 && e.nrm_len < 1e-6 && e.tan_dir < 1e-10 && e.tan_w_wrong == 0;
                if (!ok)
                    fprintf(stderr, "  %d influences, joints %d, weights %d: pos %.3g nrm %.3g |n|-1 %.3g tan %.3g w %d\n", n,
                            (int)jfs[j], (int)wfs[w], e.pos, e.nrm, e.nrm_len, e.tan_dir, e.tan_w_wrong);
                SW_CHECK(ok);
            }
        }
    }
}

static void test_lbs_cofactor_normals_vs_double_reference(void) {
    uint64_t seed = 0x2C6;
    for (int n = 1; n <= SW_MAX_INFLUENCES; n++) {
        lbs_case c = {n, SW_JOINT_U16, SW_WEIGHT_F32, SW_NORMALS_COFACTOR};
        lbs_errors e = run_lbs_case(&c, seed++);
        int ok = e.pos < 1e-6 && e.nrm < 1e-5 && e.nrm_len < 1e-6 && e.tan_w_wrong == 0;
        if (!ok)
            fprintf(stderr, "  %d influences: pos %.3g nrm %.3g |n|-1 %.3g w %d\n", n, e.pos, e.nrm, e.nrm_len, e.tan_w_wrong);
        SW_CHECK(ok);
    }
}

/* Zero fields mean LBS, U16 joints, F32 weights, BLENDED normals, packed strides. */
static void test_lbs_defaults_equal_explicit(void) {
    rng r = {0xDEF};
    enum { DV = 17, DI = 3, DJ = 6 };
    sw_mat34 palette[DJ];
    make_palette(&r, palette, DJ);
    uint16_t joints[DV * DI];
    float weights[DV * DI], pos[DV * 3], nrm[DV * 3];
    for (int k = 0; k < DV * DI; k++) {
        joints[k] = (uint16_t)rng_below(&r, DJ);
        weights[k] = 1.0f / 3.0f;
    }
    for (int k = 0; k < DV * 3; k++) {
        pos[k] = rng_range(&r, -2, 2);
        nrm[k] = rng_range(&r, -1, 1);
    }
    float out_a[DV * 3], out_b[DV * 3], nrm_a[DV * 3], nrm_b[DV * 3];
    sw_skin_job job;
    memset(&job, 0, sizeof job);
    job.vertex_count = DV;
    job.influence_count = DI;
    job.joint_count = DJ;
    job.matrices = palette;
    job.joints = joints;
    job.weights = weights;
    job.in_positions = pos;
    job.out_positions = out_a;
    job.in_normals = nrm;
    job.out_normals = nrm_a;
    SW_CHECK_EQ_INT(sw_skin_job_validate(&job, NULL), SW_OK);
    sw_skin_job_run(&job, 0, DV);
    job.method = SW_SKIN_LBS;
    job.joint_format = SW_JOINT_U16;
    job.weight_format = SW_WEIGHT_F32;
    job.normal_mode = SW_NORMALS_BLENDED;
    job.in_positions_stride = 12;
    job.out_positions_stride = 12;
    job.in_normals_stride = 12;
    job.out_normals_stride = 12;
    job.joints_stride = DI * 2;
    job.weights_stride = DI * 4;
    job.out_positions = out_b;
    job.out_normals = nrm_b;
    SW_CHECK_EQ_INT(sw_skin_job_validate(&job, NULL), SW_OK);
    sw_skin_job_run(&job, 0, DV);
    SW_CHECK(memcmp(out_a, out_b, sizeof out_a) == 0);
    SW_CHECK(memcmp(nrm_a, nrm_b, sizeof nrm_a) == 0);
}

/* One joint: 45° about Z times S(2, 1, ½). Cofactor normals stay perpendicular
   to the skinned tangents; blended normals do not (by 3/5 for the hand vertex). */
static void test_lbs_cofactor_vs_blended_nonuniform_scale(void) {
    enum { CV = 33 };
    const double c = sqrt(0.5);
    const sw_mat34 palette[1] = {{{{(float)(2 * c), (float)-c, 0, 1}, {(float)(2 * c), (float)c, 0, -2}, {0, 0, 0.5f, 3}}}};
    uint16_t joints[CV];
    float weights[CV], pos[CV * 3], nrm[CV * 3], tan[CV * 4];
    rng r = {0xC0FAC};
    for (int v = 0; v < CV; v++) {
        joints[v] = 0;
        weights[v] = 1.0f;
        sw_vec3 n, t;
        if (v == 0) {
            n = sw_vec3_normalize(sw_vec3_make(1, 1, 0));
            t = sw_vec3_normalize(sw_vec3_make(1, -1, 0));
        } else {
            n = sw_vec3_normalize(rng_vec3(&r, -1, 1));
            t = sw_vec3_normalize(sw_vec3_cross(n, rng_vec3(&r, -1, 1)));
        }
        sw_vec3 p = rng_vec3(&r, -1, 1);
        memcpy(&pos[v * 3], &p, sizeof p);
        memcpy(&nrm[v * 3], &n, sizeof n);
        memcpy(&tan[v * 4], &t, sizeof t);
        tan[v * 4 + 3] = 1.0f;
    }
    float out_pos[CV * 3], out_nrm[CV * 3], out_tan[CV * 4];
    sw_skin_job job;
    memset(&job, 0, sizeof job);
    job.method = SW_SKIN_LBS;
    job.vertex_count = CV;
    job.influence_count = 1;
    job.joint_count = 1;
    job.matrices = palette;
    job.joints = joints;
    job.weights = weights;
    job.in_positions = pos;
    job.out_positions = out_pos;
    job.in_normals = nrm;
    job.out_normals = out_nrm;
    job.in_tangents = tan;
    job.out_tangents = out_tan;
    double max_dot[2] = {0, 0}, hand_dot[2] = {0, 0};
    const sw_normal_mode modes[2] = {SW_NORMALS_COFACTOR, SW_NORMALS_BLENDED};
    for (int m = 0; m < 2; m++) {
        job.normal_mode = modes[m];
        SW_CHECK_EQ_INT(sw_skin_job_validate(&job, NULL), SW_OK);
        sw_skin_job_run(&job, 0, CV);
        for (int v = 0; v < CV; v++) {
            sw_vec3 n2 = {out_nrm[v * 3], out_nrm[v * 3 + 1], out_nrm[v * 3 + 2]};
            sw_vec3 t2 = sw_vec3_normalize(sw_vec3_make(out_tan[v * 4], out_tan[v * 4 + 1], out_tan[v * 4 + 2]));
            SW_CHECK_NEAR(sw_vec3_length(n2), 1.0, 1e-6);
            double d = fabs(sw_vec3_dot(n2, t2));
            max_dot[m] = fmax(max_dot[m], d);
            if (v == 0) hand_dot[m] = d;
        }
    }
    SW_CHECK(max_dot[0] < 1e-5);
    SW_CHECK_NEAR(hand_dot[0], 0.0, 1e-6);
    SW_CHECK(max_dot[1] > 0.3);
    SW_CHECK_NEAR(hand_dot[1], 0.6, 1e-6);
}

/* Weights matter: swapping the weights of a two-joint vertex moves it. */
static void test_lbs_weights_are_used(void) {
    const sw_mat34 palette[2] = {{{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}}}, {{{1, 0, 0, 4}, {0, 1, 0, 0}, {0, 0, 1, 0}}}};
    const uint16_t joints[4] = {0, 1, 0, 1};
    const float weights[4] = {0.75f, 0.25f, 0.25f, 0.75f};
    const float pos[6] = {0, 1, 0, 0, 1, 0};
    float out[6];
    sw_skin_job job;
    memset(&job, 0, sizeof job);
    job.vertex_count = 2;
    job.influence_count = 2;
    job.joint_count = 2;
    job.matrices = palette;
    job.joints = joints;
    job.weights = weights;
    job.in_positions = pos;
    job.out_positions = out;
    SW_CHECK_EQ_INT(sw_skin_job_validate(&job, NULL), SW_OK);
    sw_skin_job_run(&job, 0, 2);
    SW_CHECK_NEAR(out[0], 1.0, 1e-6);
    SW_CHECK_NEAR(out[3], 3.0, 1e-6);
    SW_CHECK_NEAR(out[1], 1.0, 1e-6);
    SW_CHECK_NEAR(out[4], 1.0, 1e-6);
}

/* A mirrored joint (scale −1 in x): the face normal (1,0,0) of a surface
   must come out as (−1,0,0), still pointing away from the mirrored surface.
   The blended 3×3 gives that directly; the cofactor det·A⁻ᵀ = diag(1,−1,−1)
   would give (1,0,0), so the job removes the sign of det. */
static void test_lbs_mirrored_joint_normals(void) {
    sw_transform mirror = sw_transform_identity();
    mirror.scale = sw_vec3_make(-1.0f, 1.0f, 1.0f);
    sw_mat34 palette[1] = {sw_transform_to_mat34(&mirror)};
    const uint16_t joints[1] = {0};
    const float weights[1] = {1.0f};
    const float pos[3] = {1, 0, 0}, nrm[3] = {1, 0, 0};
    const sw_normal_mode modes[2] = {SW_NORMALS_BLENDED, SW_NORMALS_COFACTOR};
    for (int m = 0; m < 2; m++) {
        float out_pos[3], out_nrm[3];
        sw_skin_job job = {.normal_mode = modes[m], .vertex_count = 1, .influence_count = 1, .joint_count = 1,
                           .matrices = palette, .joints = joints, .weights = weights, .in_positions = pos,
                           .out_positions = out_pos, .in_normals = nrm, .out_normals = out_nrm};
        SW_CHECK_EQ_INT(sw_skin_job_validate(&job, NULL), SW_OK);
        sw_skin_job_run(&job, 0, 1);
        SW_CHECK_NEAR(out_pos[0], -1.0, 1e-7);
        SW_CHECK_NEAR(out_nrm[0], -1.0, 1e-7);
        SW_CHECK_NEAR(out_nrm[1], 0.0, 1e-7);
        SW_CHECK_NEAR(out_nrm[2], 0.0, 1e-7);
    }
}

int main(void) {
    SW_RUN(test_lbs_vs_double_reference);
    SW_RUN(test_lbs_mirrored_joint_normals);
    SW_RUN(test_lbs_cofactor_normals_vs_double_reference);
    SW_RUN(test_lbs_defaults_equal_explicit);
    SW_RUN(test_lbs_cofactor_vs_blended_nonuniform_scale);
    SW_RUN(test_lbs_weights_are_used);
    return sw_test_finish();
}
