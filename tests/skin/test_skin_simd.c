/* SIMD skinning kernels (sw_skin_job.kernel) against the scalar reference: every available kernel, 1–8
   influences, joint and weight formats, LBS and DQS (rigid and with stretch), blended and cofactor normals,
   optional normals and tangents, packed and strided streams, in place; bit-exact whatever the range split;
   specialised loops against the generic one; kernel selection and validation. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "test_random.h"
#include "sinew/skin.h"

enum { NJ = 9, NV = 67 }; /* 67: blocks of four plus a tail of three */

/* ---- inputs ------------------------------------------------------------------------------ */

typedef struct palette {
    sw_mat34 matrices[NJ];
    sw_dualquat dual_quats[NJ];
    sw_mat34 stretch[NJ];
} palette;

/* A rig-like palette: rotations within ~70° of a common one (blends stay
   far from singular, where no float kernel can promise 1e-6 normals),
   scale in [0.6, 1.8] and shear, translations up to 5. Mirrored: every
   joint reflected (det < 0), as on the mirrored side of a rig. */
static void make_palette(rng* r, palette* p, bool mirrored) {
    const sw_quat base = sw_quat_from_axis_angle(sw_vec3_make(0.3f, 1.0f, -0.5f), 0.8f);
    for (int j = 0; j < NJ; j++) {
        sw_quat local = sw_quat_from_axis_angle(rng_vec3(r, -1.0, 1.0), rng_range(r, -0.6, 0.6));
        sw_transform t = {rng_vec3(r, -5.0, 5.0), sw_quat_mul(base, local), rng_vec3(r, 0.6, 1.8)};
        if (mirrored) t.scale.x = -t.scale.x;
        sw_mat34 m = sw_transform_to_mat34(&t);
        sw_mat34 shear = sw_mat34_identity();
        shear.m[0][1] = rng_range(r, -0.2, 0.2);
        p->matrices[j] = sw_mat34_mul(&m, &shear);
    }
    sw_skin_dual_quats(p->dual_quats, p->stretch, p->matrices, NJ);
    /* −q is the same transform as q: the kernels' sign fix must see through it. */
    for (int j = 1; j < NJ; j += 3) {
        sw_dualquat* q = &p->dual_quats[j];
        q->real = (sw_quat){-q->real.x, -q->real.y, -q->real.z, -q->real.w};
        q->dual = (sw_quat){-q->dual.x, -q->dual.y, -q->dual.z, -q->dual.w};
    }
}

typedef struct vertices {
    float pos[NV * 3], nrm[NV * 3], tan[NV * 4];
    uint8_t joints_u8[NV * SW_MAX_INFLUENCES];
    uint16_t joints_u16[NV * SW_MAX_INFLUENCES];
    float weights_f32[NV * SW_MAX_INFLUENCES];
    uint8_t weights_u8[NV * SW_MAX_INFLUENCES];
    uint16_t weights_u16[NV * SW_MAX_INFLUENCES];
} vertices;

/* n influences per vertex: weights summing to 1 (exactly 255 / 65535 for the
   integer formats), some joints out of range (they read joint 0), some zero
   normals and tangents. */
static void make_vertices(rng* r, vertices* v, int n) {
    memset(v, 0, sizeof *v);
    for (int i = 0; i < NV; i++) {
        sw_vec3 p = rng_vec3(r, -2.0, 2.0), nv = rng_vec3(r, -1.0, 1.0), tv = rng_vec3(r, -1.0, 1.0);
        if (i % 17 == 5) nv = sw_vec3_make(0, 0, 0);
        if (i % 19 == 7) tv = sw_vec3_make(0, 0, 0);
        memcpy(v->pos + 3 * i, &p, 12);
        memcpy(v->nrm + 3 * i, &nv, 12);
        memcpy(v->tan + 4 * i, &tv, 12);
        v->tan[4 * i + 3] = i % 2 ? 1.0f : -1.0f;
        double w[SW_MAX_INFLUENCES], sum = 0.0;
        for (int k = 0; k < n; k++) sum += (w[k] = 0.05 + rng_unit(r));
        int left8 = 255, left16 = 65535;
        float left_f = 1.0f;
        for (int k = 0; k < n; k++) {
            int e = i * SW_MAX_INFLUENCES + k;
            uint32_t j = rng_below(r, NJ);
            if (i % 23 == 3 && k == n - 1) j = NJ + rng_below(r, 200); /* out of range */
            v->joints_u8[e] = (uint8_t)j;
            v->joints_u16[e] = (uint16_t)(j < NJ ? j : j + 1000);
            int c8 = k == n - 1 ? left8 : (int)(w[k] / sum * 255.0);
            int c16 = k == n - 1 ? left16 : (int)(w[k] / sum * 65535.0);
            left8 -= c8;
            left16 -= c16;
            v->weights_u8[e] = (uint8_t)c8;
            v->weights_u16[e] = (uint16_t)c16;
            v->weights_f32[e] = k == n - 1 ? left_f : (float)(w[k] / sum);
            left_f -= v->weights_f32[e];
        }
    }
}

/* ---- one configuration ----------------------------------------------------------------------- */

typedef struct config {
    int n;
    sw_joint_format jf;
    sw_weight_format wf;
    sw_skin_method method;
    bool stretch, cofactor, normals, tangents;
    bool strided; /* every stream in one interleaved 64-byte vertex, influences in their own 40-byte records */
} config;

/* Streams laid out for one configuration; outputs zeroed. */
typedef struct layout {
    unsigned char in[NV * 64], out[NV * 64];
    unsigned char joints[NV * 40], weights[NV * 40];
    sw_skin_job job;
} layout;

static void make_layout(layout* l, const config* c, const vertices* v, const palette* p, sw_skin_kernel kernel) {
    memset(l, 0, sizeof *l);
    size_t jsize = c->jf == SW_JOINT_U8 ? 1 : 2;
    size_t wsize = c->wf == SW_WEIGHT_F32 ? 4 : c->wf == SW_WEIGHT_U16_NORM ? 2 : 1;
    size_t js = c->strided ? 40 : (size_t)c->n * jsize, ws = c->strided ? 40 : (size_t)c->n * wsize;
    size_t fs = c->strided ? 64 : 12, ts = c->strided ? 64 : 16;
    size_t pos_at = 0, nrm_at = c->strided ? 16 : NV * 12, tan_at = c->strided ? 32 : NV * 24;
    for (int i = 0; i < NV; i++) {
        for (int k = 0; k < c->n; k++) {
            int e = i * SW_MAX_INFLUENCES + k;
            const void* j = c->jf == SW_JOINT_U8 ? (const void*)&v->joints_u8[e] : (const void*)&v->joints_u16[e];
            const void* w = c->wf == SW_WEIGHT_F32       ? (const void*)&v->weights_f32[e]
                            : c->wf == SW_WEIGHT_U16_NORM ? (const void*)&v->weights_u16[e]
                                                          : (const void*)&v->weights_u8[e];
            memcpy(l->joints + (size_t)i * js + (size_t)k * jsize, j, jsize);
            memcpy(l->weights + (size_t)i * ws + (size_t)k * wsize, w, wsize);
        }
        memcpy(l->in + pos_at + (size_t)i * fs, v->pos + 3 * i, 12);
        memcpy(l->in + nrm_at + (size_t)i * fs, v->nrm + 3 * i, 12);
        memcpy(l->in + tan_at + (size_t)i * ts, v->tan + 4 * i, 16);
    }
    sw_skin_job* job = &l->job;
    job->method = c->method;
    job->normal_mode = c->cofactor ? SW_NORMALS_COFACTOR : SW_NORMALS_BLENDED;
    job->kernel = kernel;
    job->vertex_count = NV;
    job->influence_count = c->n;
    job->joint_count = NJ;
    job->matrices = p->matrices;
    job->dual_quats = p->dual_quats;
    job->stretch = c->stretch ? p->stretch : NULL;
    job->joints = l->joints;
    job->joints_stride = c->strided ? js : 0;
    job->joint_format = c->jf;
    job->weights = l->weights;
    job->weights_stride = c->strided ? ws : 0;
    job->weight_format = c->wf;
    job->in_positions = (const float*)(const void*)(l->in + pos_at);
    job->out_positions = (float*)(void*)(l->out + pos_at);
    job->in_positions_stride = job->out_positions_stride = c->strided ? fs : 0;
    if (c->normals) {
        job->in_normals = (const float*)(const void*)(l->in + nrm_at);
        job->out_normals = (float*)(void*)(l->out + nrm_at);
        job->in_normals_stride = job->out_normals_stride = c->strided ? fs : 0;
    }
    if (c->tangents) {
        job->in_tangents = (const float*)(const void*)(l->in + tan_at);
        job->out_tangents = (float*)(void*)(l->out + tan_at);
        job->in_tangents_stride = job->out_tangents_stride = c->strided ? ts : 0;
    }
}

static const float* at(const float* base, size_t stride, size_t fallback, int i) {
    return (const float*)(const void*)((const unsigned char*)base + (size_t)i * (stride ? stride : fallback));
}

/* SIMD output against scalar output: positions within 1e-6 of the size of
   the input position and the translations, normals and tangents within
   1e-6 (absolute); tangent w copied exactly. */
static int compare(const sw_skin_job* simd, const sw_skin_job* ref, const palette* p, const char* what) {
    double tmax = 0.0;
    for (int j = 0; j < NJ; j++)
        for (int r = 0; r < 3; r++) tmax = fmax(tmax, fabs(p->matrices[j].m[r][3]));
    int bad = 0;
    for (int i = 0; i < NV && bad < 3; i++) {
        const float* pi = at(ref->in_positions, ref->in_positions_stride, 12, i);
        double size = 1.0 + 2.0 * sqrt(pi[0] * pi[0] + pi[1] * pi[1] + pi[2] * pi[2]) + tmax;
        const float* a = at(simd->out_positions, simd->out_positions_stride, 12, i);
        const float* b = at(ref->out_positions, ref->out_positions_stride, 12, i);
        for (int k = 0; k < 3; k++)
            if (!(fabs(a[k] - b[k]) <= 1e-6 * size)) {
                fprintf(stderr, "  %s: vertex %d position[%d] %.9g vs scalar %.9g\n", what, i, k, a[k], b[k]);
                bad++;
            }
        if (simd->out_normals) {
            a = at(simd->out_normals, simd->out_normals_stride, 12, i);
            b = at(ref->out_normals, ref->out_normals_stride, 12, i);
            for (int k = 0; k < 3; k++)
                if (!(fabs(a[k] - b[k]) <= 1e-6)) {
                    fprintf(stderr, "  %s: vertex %d normal[%d] %.9g vs scalar %.9g\n", what, i, k, a[k], b[k]);
                    bad++;
                }
        }
        if (simd->out_tangents) {
            a = at(simd->out_tangents, simd->out_tangents_stride, 16, i);
            b = at(ref->out_tangents, ref->out_tangents_stride, 16, i);
            for (int k = 0; k < 4; k++)
                if (!(fabs(a[k] - b[k]) <= (k == 3 ? 0.0 : 1e-6))) {
                    fprintf(stderr, "  %s: vertex %d tangent[%d] %.9g vs scalar %.9g\n", what, i, k, a[k], b[k]);
                    bad++;
                }
        }
    }
    return bad == 0;
}

/* The outputs of two jobs over the same layout, bit for bit. */
static bool same_bits(const sw_skin_job* a, const sw_skin_job* b) {
    for (int i = 0; i < NV; i++) {
        if (memcmp(at(a->out_positions, a->out_positions_stride, 12, i),
                   at(b->out_positions, b->out_positions_stride, 12, i), 12) != 0)
            return false;
        if (a->out_normals && memcmp(at(a->out_normals, a->out_normals_stride, 12, i),
                                     at(b->out_normals, b->out_normals_stride, 12, i), 12) != 0)
            return false;
        if (a->out_tangents && memcmp(at(a->out_tangents, a->out_tangents_stride, 16, i),
                                      at(b->out_tangents, b->out_tangents_stride, 16, i), 16) != 0)
            return false;
    }
    return true;
}

static const char* describe(const config* c, sw_skin_kernel kernel) {
    static char text[200];
    snprintf(text, sizeof text, "%s n=%d %s %s %s%s%s%s%s %s", sw_skin_kernel_name(kernel), c->n,
             c->jf == SW_JOINT_U8 ? "u8" : "u16",
             c->wf == SW_WEIGHT_F32 ? "f32" : c->wf == SW_WEIGHT_U8_NORM ? "unorm8" : "unorm16",
             c->method == SW_SKIN_DQS ? "dqs" : "lbs", c->stretch ? "+stretch" : "", c->cofactor ? " cofactor" : "",
             c->normals ? " normals" : "", c->tangents ? " tangents" : "", c->strided ? "strided" : "packed");
    return text;
}

static bool kernel_runs(sw_skin_kernel kernel) {
    sw_skin_job job;
    memset(&job, 0, sizeof job);
    job.kernel = kernel;
    job.influence_count = 1;
    job.joint_count = 1;
    sw_mat34 m = sw_mat34_identity();
    float io[3] = {0};
    uint16_t j = 0;
    float w = 1;
    job.matrices = &m;
    job.joints = &j;
    job.weights = &w;
    job.in_positions = io;
    job.out_positions = io;
    return sw_skin_job_validate(&job, NULL) == SW_OK;
}

static layout la, lb, lc; /* large: kept off the stack */

/* Runs configuration c (f32 weights, packed: la, run already) again through
   the generic loop (the same weights as unorm16, into lb) and the staged one
   (the streams interleaved, into lc); the first vertex whose outputs differ
   from la's in any bit, or -1. */
static int first_generic_difference(const config* c, const vertices* v, const palette* p, sw_skin_kernel kernel) {
    config g = *c;
    g.wf = SW_WEIGHT_U16_NORM;
    make_layout(&lb, &g, v, p, kernel);
    sw_skin_job_run(&lb.job, 0, NV);
    g = *c;
    g.strided = true;
    make_layout(&lc, &g, v, p, kernel);
    sw_skin_job_run(&lc.job, 0, NV);
    const sw_skin_job* a = &la.job;
    for (int i = 0; i < NV; i++) {
        bool same = memcmp(at(a->out_positions, 0, 12, i), at(lb.job.out_positions, 0, 12, i), 12) == 0 &&
                    memcmp(at(a->out_positions, 0, 12, i), at(lc.job.out_positions, 64, 12, i), 12) == 0;
        if (c->normals)
            same = same && memcmp(at(a->out_normals, 0, 12, i), at(lb.job.out_normals, 0, 12, i), 12) == 0 &&
                   memcmp(at(a->out_normals, 0, 12, i), at(lc.job.out_normals, 64, 12, i), 12) == 0;
        if (c->tangents)
            same = same && memcmp(at(a->out_tangents, 0, 16, i), at(lb.job.out_tangents, 0, 16, i), 16) == 0 &&
                   memcmp(at(a->out_tangents, 0, 16, i), at(lc.job.out_tangents, 64, 16, i), 16) == 0;
        if (!same) return i;
    }
    return -1;
}

/* Every configuration on one kernel: against scalar, then split, in place. */
static void check_kernel(sw_skin_kernel kernel) {
    if (!kernel_runs(kernel)) {
        char why[96];
        snprintf(why, sizeof why, "the %s kernel does not run here", sw_skin_kernel_name(kernel));
        SW_SKIP(why);
    }
    rng r = {0x5eed5eedull + (uint64_t)kernel};
    palette palettes[2];
    make_palette(&r, &palettes[0], false);
    make_palette(&r, &palettes[1], true);
    static vertices v;
    int configs = 0;
    for (int n = 1; n <= SW_MAX_INFLUENCES; n++) {
        make_vertices(&r, &v, n);
        for (int variant = 0; variant < 2 * 3 * 3 * 2 * 4 * 2; variant++) {
            int x = variant;
            config c;
            c.n = n;
            c.jf = x % 2 ? SW_JOINT_U8 : SW_JOINT_U16, x /= 2;
            c.wf = x % 3 == 0 ? SW_WEIGHT_F32 : x % 3 == 1 ? SW_WEIGHT_U8_NORM : SW_WEIGHT_U16_NORM, x /= 3;
            c.method = x % 3 ? SW_SKIN_DQS : SW_SKIN_LBS;
            c.stretch = x % 3 == 2, x /= 3;
            c.cofactor = x % 2, x /= 2;
            c.normals = (x % 4) & 1;
            c.tangents = (x % 4) & 2, x /= 4;
            c.strided = x % 2;
            const char* what = describe(&c, kernel);
            const palette* pal = &palettes[c.cofactor && n % 2];
            make_layout(&la, &c, &v, pal, kernel);
            make_layout(&lb, &c, &v, pal, SW_SKIN_KERNEL_SCALAR);
            sw_diag diag;
            if (sw_skin_job_validate(&la.job, &diag) != SW_OK) {
                fprintf(stderr, "  %s: %s\n", what, diag.message);
                SW_CHECK(!"valid job");
                return;
            }
            sw_skin_job_run(&la.job, 0, NV);
            sw_skin_job_run(&lb.job, 0, NV);
            if (!compare(&la.job, &lb.job, pal, what)) {
                SW_CHECK(!"SIMD within tolerance of scalar");
                return;
            }

            /* The same bits whatever the split. */
            make_layout(&lc, &c, &v, pal, kernel);
            for (size_t first = 0; first < NV;) {
                size_t count = 1 + rng_below(&r, 9);
                if (count > NV - first) count = NV - first;
                sw_skin_job_run(&lc.job, first, count);
                first += count;
            }
            if (!same_bits(&la.job, &lc.job)) {
                fprintf(stderr, "  %s: split run differs\n", what);
                SW_CHECK(!"bit-exact under range splits");
                return;
            }

            /* In place: outputs over the inputs (same strides), same bits. */
            make_layout(&lc, &c, &v, pal, kernel);
            sw_skin_job* job = &lc.job;
            job->out_positions = (float*)(uintptr_t)job->in_positions;
            job->out_normals = (float*)(uintptr_t)job->in_normals;
            job->out_tangents = (float*)(uintptr_t)job->in_tangents;
            SW_CHECK(sw_skin_job_validate(job, NULL) == SW_OK);
            sw_skin_job_run(job, 0, 5);
            sw_skin_job_run(job, 5, NV - 5);
            if (!same_bits(&la.job, job)) {
                fprintf(stderr, "  %s: in place differs\n", what);
                SW_CHECK(!"in place gives the same bits");
                return;
            }
            configs++;
        }
    }
    SW_CHECK_EQ_INT(configs, 8 * 288);
}

static void test_sse2_vs_scalar(void) { check_kernel(SW_SKIN_KERNEL_SSE2); }
static void test_avx2_vs_scalar(void) { check_kernel(SW_SKIN_KERNEL_AVX2); }
static void test_default_vs_scalar(void) { check_kernel(SW_SKIN_KERNEL_DEFAULT); }
static void test_sse2_columns_vs_scalar(void) { check_kernel(SW_SKIN_KERNEL_SSE2_COLUMNS); }
static void test_avx2_columns_vs_scalar(void) { check_kernel(SW_SKIN_KERNEL_AVX2_COLUMNS); }
static void test_avx2_rows_vs_scalar(void) { check_kernel(SW_SKIN_KERNEL_AVX2_ROWS); }

/* The loops specialised for f32 weights and packed streams give the bits of
   the generic loop: the same weights as unorm16 (decoded to the same
   floats), and the same streams interleaved. */
static void test_specialised_equals_generic(void) {
    static const sw_skin_kernel kernels[] = {SW_SKIN_KERNEL_SSE2, SW_SKIN_KERNEL_AVX2};
    rng r = {77};
    palette p;
    make_palette(&r, &p, false);
    static vertices v;
    int runs = 0;
    for (size_t ki = 0; ki < sizeof kernels / sizeof kernels[0]; ki++) {
        if (!kernel_runs(kernels[ki])) continue;
        for (int n = 1; n <= SW_MAX_INFLUENCES; n++) {
            make_vertices(&r, &v, n);
            for (int i = 0; i < NV * SW_MAX_INFLUENCES; i++) v.weights_f32[i] = sw_unorm16_to_float(v.weights_u16[i]);
            for (int variant = 0; variant < 2 * 3 * 3; variant++) {
                config c = {n, variant % 2 ? SW_JOINT_U8 : SW_JOINT_U16, SW_WEIGHT_F32,
                            variant / 2 % 3 ? SW_SKIN_DQS : SW_SKIN_LBS, variant / 2 % 3 == 2, false,
                            variant / 6 != 1, variant / 6 == 2, false};
                make_layout(&la, &c, &v, &p, kernels[ki]);
                sw_skin_job_run(&la.job, 0, NV);
                const int i = first_generic_difference(&c, &v, &p, kernels[ki]);
                if (i >= 0) {
                    fprintf(stderr, "  %s vertex %d: specialised and generic differ\n", describe(&c, kernels[ki]), i);
                    SW_CHECK(!"specialised == generic");
                    return;
                }
                runs++;
            }
        }
    }
    if (runs == 0) SW_SKIP("no SIMD kernel runs here");
}

/* Degenerate inputs: zero normals stay zero, out-of-range joints read joint 0. */
static void test_degenerate_inputs(void) {
    sw_mat34 m[2] = {sw_mat34_translation(sw_vec3_make(1, 2, 3)), sw_mat34_translation(sw_vec3_make(9, 9, 9))};
    m[0].m[0][0] = 2.0f;
    uint16_t joints[8] = {0, 1, 7, 7, 300, 0, 0, 0};
    float weights[8] = {0.5f, 0.5f, 1.0f, 0.0f, 1.0f, 0.0f, 1.0f, 0.0f};
    float pos[12] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, nrm[12] = {0}, out_pos[12], out_nrm[12];
    nrm[3] = 1.0f; /* vertex 1: +x */
    for (sw_skin_kernel k = SW_SKIN_KERNEL_DEFAULT; k <= SW_SKIN_KERNEL_AVX2; k++) {
        if (!kernel_runs(k)) continue;
        sw_skin_job job = {.kernel = k, .vertex_count = 4, .influence_count = 2, .joint_count = 2, .matrices = m,
                           .joints = joints, .weights = weights, .in_positions = pos, .out_positions = out_pos,
                           .in_normals = nrm, .out_normals = out_nrm};
        SW_CHECK(sw_skin_job_validate(&job, NULL) == SW_OK);
        memset(out_nrm, 0xff, sizeof out_nrm);
        sw_skin_job_run(&job, 0, 4);
        SW_CHECK(out_nrm[0] == 0.0f && out_nrm[1] == 0.0f && out_nrm[2] == 0.0f); /* zero stays zero */
        SW_CHECK_NEAR(out_nrm[3], 1.0, 1e-6);
        SW_CHECK_NEAR(out_pos[3], 3.0, 1e-6); /* joint 7 → joint 0: 2·1 + 1 */
        SW_CHECK_NEAR(out_pos[6], 3.0, 1e-6); /* joint 300 → joint 0 */
        SW_CHECK_NEAR(out_pos[5], 4.0, 1e-6);
    }
}

/* Every stream in its own heap block of exactly the bytes it needs, for
   1..9 vertices: under ASan any read or write past a stream (a 16-byte load
   of a float3, a block of four past the end) is caught. */
static void test_memory_safe(void) {
    rng r = {99};
    palette p;
    make_palette(&r, &p, false);
    static vertices v;
    for (sw_skin_kernel k = SW_SKIN_KERNEL_SCALAR; k <= SW_SKIN_KERNEL_AVX2; k++) {
        if (!kernel_runs(k)) continue;
        for (int n = 1; n <= SW_MAX_INFLUENCES; n++) {
            make_vertices(&r, &v, n);
            for (int variant = 0; variant < 12; variant++) {
                const bool u8 = variant % 2, dqs = variant / 2 % 3 != 0, stretch = variant / 2 % 3 == 2;
                const bool f32 = variant / 6 == 0;
                for (size_t count = 1; count <= 9; count++) {
                    size_t jsize = u8 ? 1 : 2, wsize = f32 ? 4 : 2;
                    unsigned char* joints = malloc(count * (size_t)n * jsize);
                    unsigned char* weights = malloc(count * (size_t)n * wsize);
                    float *in_pos = malloc(count * 12), *out_pos = malloc(count * 12);
                    float *in_nrm = malloc(count * 12), *out_nrm = malloc(count * 12);
                    float *in_tan = malloc(count * 16), *out_tan = malloc(count * 16);
                    sw_mat34* matrices = malloc(sizeof p.matrices);
                    sw_dualquat* dual_quats = malloc(sizeof p.dual_quats);
                    sw_mat34* stretches = malloc(sizeof p.stretch);
                    if (!joints || !weights || !in_pos || !out_pos || !in_nrm || !out_nrm || !in_tan || !out_tan ||
                        !matrices || !dual_quats || !stretches) {
                        SW_CHECK(!"allocation");
                        return;
                    }
                    memcpy(matrices, p.matrices, sizeof p.matrices);
                    memcpy(dual_quats, p.dual_quats, sizeof p.dual_quats);
                    memcpy(stretches, p.stretch, sizeof p.stretch);
                    for (size_t i = 0; i < count; i++) {
                        for (int e = 0; e < n; e++) {
                            size_t at_in = i * SW_MAX_INFLUENCES + (size_t)e, at_out = i * (size_t)n + (size_t)e;
                            if (u8) joints[at_out] = v.joints_u8[at_in];
                            else memcpy(joints + 2 * at_out, &v.joints_u16[at_in], 2);
                            if (f32) memcpy(weights + 4 * at_out, &v.weights_f32[at_in], 4);
                            else memcpy(weights + 2 * at_out, &v.weights_u16[at_in], 2);
                        }
                        memcpy(in_pos + 3 * i, v.pos + 3 * i, 12);
                        memcpy(in_nrm + 3 * i, v.nrm + 3 * i, 12);
                        memcpy(in_tan + 4 * i, v.tan + 4 * i, 16);
                    }
                    sw_skin_job job = {.method = dqs ? SW_SKIN_DQS : SW_SKIN_LBS, .kernel = k, .vertex_count = count,
                                       .influence_count = n, .joint_count = NJ, .matrices = matrices,
                                       .dual_quats = dual_quats, .stretch = stretch ? stretches : NULL,
                                       .joints = joints, .joint_format = u8 ? SW_JOINT_U8 : SW_JOINT_U16,
                                       .weights = weights,
                                       .weight_format = f32 ? SW_WEIGHT_F32 : SW_WEIGHT_U16_NORM,
                                       .in_positions = in_pos, .out_positions = out_pos, .in_normals = in_nrm,
                                       .out_normals = out_nrm, .in_tangents = in_tan, .out_tangents = out_tan};
                    SW_CHECK(sw_skin_job_validate(&job, NULL) == SW_OK);
                    sw_skin_job_run(&job, 0, count);
                    for (size_t i = 0; i < 3 * count; i++) SW_CHECK(isfinite(out_pos[i]) && isfinite(out_nrm[i]));
                    /* in place, over the same exact blocks */
                    job.out_positions = in_pos;
                    job.out_normals = in_nrm;
                    job.out_tangents = in_tan;
                    sw_skin_job_run(&job, 0, count);
                    SW_CHECK(memcmp(in_pos, out_pos, count * 12) == 0 && memcmp(in_nrm, out_nrm, count * 12) == 0 &&
                             memcmp(in_tan, out_tan, count * 16) == 0);
                    free(joints), free(weights), free(in_pos), free(out_pos), free(in_nrm), free(out_nrm);
                    free(in_tan), free(out_tan), free(matrices), free(dual_quats), free(stretches);
                }
            }
        }
    }
}

/* DQS where the blended real part is zero (all weights zero): the identity,
   as sw_dualquat_normalize gives it, in a full block and in the tail. */
static void test_dqs_zero_blend(void) {
    rng r = {5};
    palette p;
    make_palette(&r, &p, false);
    static vertices v;
    make_vertices(&r, &v, 4);
    for (int i = 0; i < NV; i += 3)
        for (int k = 0; k < 4; k++) v.weights_f32[i * SW_MAX_INFLUENCES + k] = 0.0f;
    for (sw_skin_kernel k = SW_SKIN_KERNEL_SSE2; k <= SW_SKIN_KERNEL_AVX2; k++) {
        if (!kernel_runs(k)) continue;
        for (int stretch = 0; stretch < 2; stretch++) {
            config c = {4, SW_JOINT_U16, SW_WEIGHT_F32, SW_SKIN_DQS, stretch, false, true, true, false};
            make_layout(&la, &c, &v, &p, k);
            make_layout(&lb, &c, &v, &p, SW_SKIN_KERNEL_SCALAR);
            sw_skin_job_run(&la.job, 0, NV);
            sw_skin_job_run(&lb.job, 0, NV);
            SW_CHECK(compare(&la.job, &lb.job, &p, describe(&c, k)));
        }
    }
}

/* Weights as importers leave them: vertices padded to n influences with
   zero weights (in runs, as neighbouring vertices are), rigid vertices
   (one weight of exactly 1), unused slots naming any joint (out of range
   ones too, if asked: an index out of range turns the SSE2 loops' skips
   off for its chunk of vertices); a palette with −0 entries and vertices at the origin, so that
   the sign of a zero output depends on which terms were summed. Each
   vertex's weights are representable in unorm16, so the f32 (specialised)
   and unorm16 (generic) layouts carry the same numbers. */
static void make_padded_vertices(rng* r, vertices* v, int n, bool avoid_last_joint, bool out_of_range) {
    make_vertices(r, v, n);
    int used = 1 + (int)rng_below(r, (uint32_t)n);
    for (int i = 0; i < NV; i++) {
        if (rng_below(r, 5) == 0) used = 1 + (int)rng_below(r, (uint32_t)n); /* runs of the same count */
        /* Every third block of four rigid, its second vertex at the origin
           on joint 2 (x = −0 from its terms) with joint 3 in the unused
           slots (whose +0 would turn that −0 into +0). */
        const bool rigid_block = (i / 4) % 3 == 1, origin = rigid_block && i % 4 == 1;
        const bool rigid = rigid_block || (used == 1 && rng_below(r, 4) != 0);
        const int count = rigid ? 1 : used;
        uint32_t left = 65535;
        for (int k = 0; k < n; k++) {
            const int e = i * SW_MAX_INFLUENCES + k;
            uint32_t j = origin ? 2 : rng_below(r, avoid_last_joint ? NJ - 1 : NJ);
            uint16_t w16 = 0;
            if (k < count) {
                w16 = (uint16_t)(k == count - 1 ? left : 1 + rng_below(r, left / 2 + 1));
                if (rigid) w16 = 65535;
                left -= w16;
            } else {
                j = origin ? 3 : rng_below(r, out_of_range ? NJ + 40 : NJ); /* any joint */
            }
            v->joints_u8[e] = (uint8_t)j;
            v->joints_u16[e] = (uint16_t)(j < NJ ? j : j + 1000);
            v->weights_u16[e] = w16;
            v->weights_u8[e] = (uint8_t)(w16 >> 8);
            v->weights_f32[e] = sw_unorm16_to_float(w16);
        }
        if (origin || i % 11 == 4) {
            memset(v->pos + 3 * i, 0, 12);
            memset(v->nrm + 3 * i, 0, 12);
        }
    }
}

static void test_zero_and_unit_weights(void) {
    static const sw_skin_kernel kernels[] = {SW_SKIN_KERNEL_SSE2, SW_SKIN_KERNEL_AVX2, SW_SKIN_KERNEL_DEFAULT};
    rng r = {0x2E60};
    int runs = 0;
    for (int nan_pass = 0; nan_pass < 2; nan_pass++) {
        palette p;
        make_palette(&r, &p, false);
        /* Joint 2: row 0 all negative with a −0 translation, so a vertex at
           the origin that uses only joint 2 gets x = −0 from the terms. */
        for (int c = 0; c < 3; c++) p.matrices[2].m[0][c] = -fabsf(p.matrices[2].m[0][c]) - 0.01f;
        p.matrices[2].m[0][3] = -0.0f;
        p.matrices[3].m[0][3] = 0.5f + fabsf(p.matrices[3].m[0][3]);
        p.matrices[5].m[1][3] = -0.0f;
        /* Second pass: a NaN in the last joint, which only zero weights name. */
        if (nan_pass) {
            p.matrices[NJ - 1].m[1][2] = NAN;
            p.dual_quats[NJ - 1].dual.y = NAN;
        }
        static vertices v;
        for (size_t ki = 0; ki < sizeof kernels / sizeof kernels[0]; ki++) {
            if (!kernel_runs(kernels[ki])) continue;
            for (int n = 1; n <= SW_MAX_INFLUENCES; n++) {
                for (int variant = 0; variant < 16; variant++) {
                    const bool u8 = variant & 1, tangents = variant & 2, dqs = variant & 8;
                    if (variant % 4 == 0) make_padded_vertices(&r, &v, n, nan_pass, variant & 4);
                    config c = {n, u8 ? SW_JOINT_U8 : SW_JOINT_U16, SW_WEIGHT_F32, dqs ? SW_SKIN_DQS : SW_SKIN_LBS,
                                false, false, true, tangents, false};
                    const char* what = describe(&c, kernels[ki]);
                    make_layout(&la, &c, &v, &p, kernels[ki]);
                    sw_skin_job_run(&la.job, 0, NV);
                    make_layout(&lb, &c, &v, &p, SW_SKIN_KERNEL_SCALAR);
                    sw_skin_job_run(&lb.job, 0, NV);
                    if (!nan_pass && !compare(&la.job, &lb.job, &p, what)) {
                        SW_CHECK(!"within tolerance of scalar");
                        return;
                    }
                    if (nan_pass) {
                        /* NaN exactly where the scalar kernel has one (0·NaN is NaN). */
                        int differ = 0;
                        for (int i = 0; i < 3 * NV; i++) {
                            const float* a = la.job.out_positions;
                            const float* b = lb.job.out_positions;
                            differ += isnan(a[i]) != isnan(b[i]);
                        }
                        SW_CHECK_EQ_INT(differ, 0);
                    }
                    /* Splits: short ranges do not skip, the whole range does. */
                    make_layout(&lc, &c, &v, &p, kernels[ki]);
                    for (size_t first = 0; first < NV;) {
                        size_t count = 1 + rng_below(&r, 13);
                        if (count > NV - first) count = NV - first;
                        sw_skin_job_run(&lc.job, first, count);
                        first += count;
                    }
                    if (!same_bits(&la.job, &lc.job)) {
                        fprintf(stderr, "  %s%s: split run differs\n", what, nan_pass ? " (NaN joint)" : "");
                        SW_CHECK(!"bit-exact under range splits");
                        return;
                    }
                    /* The generic loop (unorm16 weights) and the staged one (strided streams). */
                    if (kernels[ki] != SW_SKIN_KERNEL_DEFAULT) {
                        const int i = first_generic_difference(&c, &v, &p, kernels[ki]);
                        if (i >= 0) {
                            fprintf(stderr, "  %s vertex %d: specialised and generic differ\n", what, i);
                            SW_CHECK(!"specialised == generic");
                            return;
                        }
                    }
                    runs++;
                }
            }
        }
    }
    if (runs == 0) SW_SKIP("no SIMD kernel runs here");
}

/* Vertices in patches, as meshes come: runs of 1–24 neighbours carry the
   same four joint indices (now and then one out of range, read as joint 0)
   with their own weights, some of them zero (in any slot, or the last ones
   of a whole run, so blocks blend fewer influences). */
static void make_patch_vertices(rng* r, vertices* v) {
    make_vertices(r, v, 4);
    for (int i = 0; i < NV;) {
        int run = 1 + (int)rng_below(r, 24), used = 1 + (int)rng_below(r, 4);
        uint16_t joints[4];
        for (int k = 0; k < 4; k++) joints[k] = (uint16_t)rng_below(r, NJ);
        if (rng_below(r, 5) == 0) joints[rng_below(r, 4)] = (uint16_t)(NJ + rng_below(r, 200));
        for (int end = i + run < NV ? i + run : NV; i < end; i++)
            for (int k = 0; k < 4; k++) {
                const int e = i * SW_MAX_INFLUENCES + k;
                v->joints_u16[e] = joints[k];
                v->joints_u8[e] = (uint8_t)joints[k];
                float w = (float)(0.05 + rng_unit(r));
                if (k >= used || rng_below(r, 6) == 0) w = 0.0f;
                v->weights_f32[e] = w;
            }
    }
}

/* The AVX2 kernel runs blocks of eight vertices that share their joints in
   the broadcast shape and the others in the row shape: the same bits as
   the row shape alone (AVX2_ROWS) on every vertex, whatever the range
   split, in place too, and within tolerance of the scalar kernel. The blocks this data
   makes shared are counted here, so the test knows the shape ran. */
static void test_broadcast_shape(void) {
    if (!kernel_runs(SW_SKIN_KERNEL_AVX2)) {
        SW_SKIP("AVX2 does not run here");
        return;
    }
    rng r = {0xB40C};
    int shared_blocks = 0, broadcast_rounds = 0, runs = 0;
    for (int round = 0; round < 24; round++) {
        const bool nan_palette = round == 23; /* not finite: the rows alone, the same bits */
        palette p;
        make_palette(&r, &p, false);
        p.matrices[2].m[0][3] = -0.0f;
        p.matrices[4].m[1][3] = -0.0f;
        if (nan_palette) p.matrices[NJ - 1].m[2][1] = NAN;
        static vertices v;
        make_patch_vertices(&r, &v);
        int shared = 0;
        for (int b = 0; b + 8 <= NV; b += 8) {
            bool same = true;
            for (int i = 1; i < 8; i++)
                same = same && memcmp(v.joints_u16 + b * SW_MAX_INFLUENCES, v.joints_u16 + (b + i) * SW_MAX_INFLUENCES,
                                      4 * sizeof(uint16_t)) == 0;
            shared += same;
        }
        /* The kernel takes the broadcast loop where half the blocks share. */
        if (!nan_palette && 2 * shared >= NV / 8) shared_blocks += shared, broadcast_rounds++;
        for (int variant = 0; variant < 12; variant++) {
            config c = {4, variant & 1 ? SW_JOINT_U8 : SW_JOINT_U16, SW_WEIGHT_F32, SW_SKIN_LBS, false, false,
                        (variant >> 1) % 3 > 0, (variant >> 1) % 3 > 1, false};
            const bool unnormalized = variant >= 6;
            const char* what = describe(&c, SW_SKIN_KERNEL_AVX2);
            make_layout(&la, &c, &v, &p, SW_SKIN_KERNEL_AVX2);
            make_layout(&lb, &c, &v, &p, SW_SKIN_KERNEL_AVX2_ROWS);
            make_layout(&lc, &c, &v, &p, SW_SKIN_KERNEL_AVX2);
            la.job.unnormalized = lb.job.unnormalized = lc.job.unnormalized = unnormalized;
            sw_skin_job_run(&la.job, 0, NV);
            sw_skin_job_run(&lb.job, 0, NV);
            if (!same_bits(&la.job, &lb.job)) {
                fprintf(stderr, "  %s%s: broadcast and row shapes differ\n", what, unnormalized ? " unnormalized" : "");
                SW_CHECK(!"broadcast == rows, bit for bit");
                return;
            }
            /* A split at every vertex of the first two blocks: blocks shift. */
            for (size_t split = 1; split <= 16; split++) {
                memset(lc.out, 0, sizeof lc.out);
                sw_skin_job_run(&lc.job, 0, split);
                sw_skin_job_run(&lc.job, split, NV - split);
                if (!same_bits(&la.job, &lc.job)) {
                    fprintf(stderr, "  %s: split at %zu differs\n", what, split);
                    SW_CHECK(!"bit-exact under range splits");
                    return;
                }
            }
            /* In place: outputs over the inputs, the same bits. */
            make_layout(&lc, &c, &v, &p, SW_SKIN_KERNEL_AVX2);
            lc.job.unnormalized = unnormalized;
            lc.job.out_positions = (float*)(uintptr_t)lc.job.in_positions;
            lc.job.out_normals = (float*)(uintptr_t)lc.job.in_normals;
            lc.job.out_tangents = (float*)(uintptr_t)lc.job.in_tangents;
            sw_skin_job_run(&lc.job, 0, NV);
            if (!same_bits(&la.job, &lc.job)) {
                fprintf(stderr, "  %s: in place differs\n", what);
                SW_CHECK(!"in place gives the same bits");
                return;
            }
            if (!nan_palette && !unnormalized) {
                make_layout(&lb, &c, &v, &p, SW_SKIN_KERNEL_SCALAR);
                sw_skin_job_run(&lb.job, 0, NV);
                if (!compare(&la.job, &lb.job, &p, what)) {
                    SW_CHECK(!"within tolerance of scalar");
                    return;
                }
            }
            runs++;
        }
    }
    fprintf(stderr, "  %d configurations; %d of 23 finite rounds in the broadcast loop, with %d shared blocks\n", runs,
            broadcast_rounds, shared_blocks);
    SW_CHECK(broadcast_rounds >= 8 && shared_blocks >= 40);
}

static void test_kernel_selection(void) {
    sw_skin_kernel best = sw_skin_kernel_best();
    SW_CHECK(best >= SW_SKIN_KERNEL_SCALAR && best <= SW_SKIN_KERNEL_AVX2);
    SW_CHECK(strcmp(sw_skin_kernel_name(SW_SKIN_KERNEL_DEFAULT), "default") == 0);
    SW_CHECK(strcmp(sw_skin_kernel_name(SW_SKIN_KERNEL_SCALAR), "scalar") == 0);
    SW_CHECK(strcmp(sw_skin_kernel_name(SW_SKIN_KERNEL_SSE2), "sse2") == 0);
    SW_CHECK(strcmp(sw_skin_kernel_name(SW_SKIN_KERNEL_AVX2), "avx2") == 0);
    SW_CHECK(strcmp(sw_skin_kernel_name(SW_SKIN_KERNEL_AVX2_ROWS), "avx2-rows") == 0);
    SW_CHECK(strcmp(sw_skin_kernel_name((sw_skin_kernel)99), "unknown") == 0);
    fprintf(stderr, "  best kernel here: %s\n", sw_skin_kernel_name(best));
    SW_CHECK(kernel_runs(SW_SKIN_KERNEL_DEFAULT));
    SW_CHECK(kernel_runs(SW_SKIN_KERNEL_SCALAR));
    SW_CHECK(kernel_runs(best));
#if defined(SW_NO_SIMD)
    SW_CHECK(best == SW_SKIN_KERNEL_SCALAR);
#endif
    /* Everything up to the best kernel runs; everything above it is refused as unsupported. */
    for (sw_skin_kernel k = SW_SKIN_KERNEL_SCALAR; k <= SW_SKIN_KERNEL_AVX2; k++) {
        bool runs = kernel_runs(k);
        SW_CHECK(runs == (k <= best));
        if (!runs) {
            sw_skin_job job;
            memset(&job, 0, sizeof job);
            sw_mat34 m = sw_mat34_identity();
            float io[3] = {0}, w = 1;
            uint16_t j = 0;
            job.kernel = k;
            job.influence_count = 1;
            job.joint_count = 1;
            job.matrices = &m;
            job.joints = &j;
            job.weights = &w;
            job.in_positions = io;
            job.out_positions = io;
            sw_diag diag;
            SW_CHECK(sw_skin_job_validate(&job, &diag) == SW_ERR_UNSUPPORTED);
            SW_CHECK(diag.result == SW_ERR_UNSUPPORTED && strstr(diag.message, sw_skin_kernel_name(k)) != NULL);
            fprintf(stderr, "  %s\n", diag.message);
        }
    }
    /* Values outside the enum are invalid arguments, not unsupported kernels. */
    sw_skin_job job;
    memset(&job, 0, sizeof job);
    job.kernel = (sw_skin_kernel)7;
    SW_CHECK(sw_skin_job_validate(&job, NULL) == SW_ERR_INVALID_ARGUMENT);
}

int main(void) {
    SW_RUN(test_kernel_selection);
    SW_RUN(test_degenerate_inputs);
    SW_RUN(test_sse2_vs_scalar);
    SW_RUN(test_avx2_vs_scalar);
    SW_RUN(test_default_vs_scalar);
    SW_RUN(test_sse2_columns_vs_scalar);
    SW_RUN(test_avx2_columns_vs_scalar);
    SW_RUN(test_avx2_rows_vs_scalar);
    SW_RUN(test_specialised_equals_generic);
    SW_RUN(test_memory_safe);
    SW_RUN(test_dqs_zero_blend);
    SW_RUN(test_zero_and_unit_weights);
    SW_RUN(test_broadcast_shape);
    return sw_test_finish();
}
