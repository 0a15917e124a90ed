/* The positions-only and positions + tangents stream sets, implied weights
   (last_weight_implied), unnormalised outputs and the compact layout
   (sw_skin_compact_build), on every kernel against the scalar reference:
   - positions-only jobs give the positions of the same job with normals, bit
     for bit (the same kernel), and the scalar kernel's within 1e-6 relative
     (bit for bit with SSE2 LBS, whose arithmetic is the scalar kernel's);
   - an implied last weight gives the bits of the same weights written out,
     decoded here independently (c / 65535, the last 1 − the others' sum);
   - unnormalised outputs are the normalised ones times their length;
   - the compact layout of every asset in SINEW_ASSETS gives the bits of the
     default layout carrying the decoded compact weights (each kernel), and
     the source layout's normals within 0.05°. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "test_random.h"
#include "sinew/gltf.h"
#include "sinew/pose.h"
#include "sinew/skin.h"

enum { NJ = 9, NV = 71 }; /* 71: blocks of four plus a tail of three */

static const sw_skin_kernel kernels[] = {SW_SKIN_KERNEL_SCALAR, SW_SKIN_KERNEL_SSE2, SW_SKIN_KERNEL_AVX2};

static bool kernel_runs(sw_skin_kernel kernel) {
    sw_mat34 m = sw_mat34_identity();
    float io[3] = {0}, w = 1;
    uint16_t j = 0;
    sw_skin_job job = {.kernel = kernel, .influence_count = 1, .joint_count = 1, .matrices = &m, .joints = &j,
                       .weights = &w, .in_positions = io, .out_positions = io};
    return sw_skin_job_validate(&job, NULL) == SW_OK;
}

/* A rig-like palette (rotations near a common one, mild scale), its dual quaternions. */
static void make_palette(rng* r, sw_mat34* m, sw_dualquat* dq) {
    const sw_quat base = sw_quat_from_axis_angle(sw_vec3_make(0.2f, 1.0f, -0.4f), 0.7f);
    for (int j = 0; j < NJ; j++) {
        sw_quat local = sw_quat_from_axis_angle(rng_vec3(r, -1.0, 1.0), rng_range(r, -0.6, 0.6));
        sw_transform t = {rng_vec3(r, -4.0, 4.0), sw_quat_mul(base, local), rng_vec3(r, 0.7, 1.5)};
        m[j] = sw_transform_to_mat34(&t);
    }
    sw_skin_dual_quats(dq, NULL, m, NJ);
}

/* Streams of NV vertices with n influences: u8 and u16 joints (some out of
   range under non-zero weights: they read joint 0), u16 codes summing to
   65535, some vertices padded with zero weights. */
typedef struct streams {
    float pos[NV * 3], nrm[NV * 3], tan[NV * 4];
    uint8_t j8[NV * SW_MAX_INFLUENCES];
    uint16_t j16[NV * SW_MAX_INFLUENCES];
    uint16_t codes[NV * SW_MAX_INFLUENCES];      /* n per vertex */
    uint16_t codes_implied[NV * SW_MAX_INFLUENCES]; /* the first n − 1 per vertex */
    uint8_t codes8_implied[NV * SW_MAX_INFLUENCES];
    float w_full[NV * SW_MAX_INFLUENCES];         /* the u16 codes decoded, n per vertex */
    float w8_full[NV * SW_MAX_INFLUENCES];        /* the u8 codes decoded */
} streams;

/* What last_weight_implied decodes: c / scale, the last 1 − the sum in order. */
static void decode_implied(float* out, const void* codes, int n, bool u8) {
    float sum = 0.0f;
    for (int k = 0; k < n - 1; k++) {
        out[k] = u8 ? (float)((const uint8_t*)codes)[k] / 255.0f : (float)((const uint16_t*)codes)[k] / 65535.0f;
        sum = k == 0 ? out[0] : sum + out[k];
    }
    out[n - 1] = n == 1 ? 1.0f : 1.0f - sum;
}

static void make_streams(rng* r, streams* s, int n) {
    memset(s, 0, sizeof *s);
    for (int i = 0; i < NV; i++) {
        sw_vec3 p = rng_vec3(r, -2.0, 2.0), nv = rng_vec3(r, -1.0, 1.0), tv = rng_vec3(r, -1.0, 1.0);
        memcpy(s->pos + 3 * i, &p, 12);
        memcpy(s->nrm + 3 * i, &nv, 12);
        memcpy(s->tan + 4 * i, &tv, 12);
        s->tan[4 * i + 3] = i % 3 ? 1.0f : -1.0f;
        const int used = i % 5 == 2 ? 1 : 1 + (int)rng_below(r, (uint32_t)n); /* the rest zero-padded */
        uint32_t left = 65535, left8 = 255;
        for (int k = 0; k < n; k++) {
            uint32_t j = rng_below(r, NJ);
            if (i % 13 == 6 && k == 0) j = NJ + 3; /* out of range: joint 0 */
            s->j8[i * n + k] = (uint8_t)j;
            s->j16[i * n + k] = (uint16_t)(j < NJ ? j : j + 500);
            uint32_t c = 0, c8 = 0;
            if (k < used) {
                c = k == used - 1 ? left : 1 + rng_below(r, left / 2 + 1);
                c8 = k == used - 1 ? left8 : rng_below(r, left8 / 2 + 1);
            }
            left -= c, left8 -= c8;
            s->codes[i * n + k] = (uint16_t)c;
            if (k < n - 1) {
                s->codes_implied[i * (n - 1) + k] = (uint16_t)c;
                s->codes8_implied[i * (n - 1) + k] = (uint8_t)c8;
            }
        }
        decode_implied(s->w_full + i * n, s->codes_implied + i * (n - 1), n, false);
        decode_implied(s->w8_full + i * n, s->codes8_implied + i * (n - 1), n, true);
    }
}

typedef struct outputs {
    float pos[NV * 3], nrm[NV * 3], tan[NV * 4];
} outputs;

/* Weights: 0 f32 (full), 1 u16 implied, 2 u8 implied, 3 the f32 of 2 written out, 4 u16 (full). */
static sw_skin_job make_job(const streams* s, int n, bool u8, int weights, sw_skin_method method, bool normals,
                            bool tangents, bool unnormalized, sw_skin_kernel kernel, const sw_mat34* m,
                            const sw_dualquat* dq, outputs* o) {
    memset(o, 0, sizeof *o);
    sw_skin_job job = {.method = method, .kernel = kernel, .vertex_count = NV, .influence_count = n,
                       .joint_count = NJ, .matrices = m, .dual_quats = dq,
                       .joints = u8 ? (const void*)s->j8 : (const void*)s->j16,
                       .joint_format = u8 ? SW_JOINT_U8 : SW_JOINT_U16, .in_positions = s->pos,
                       .out_positions = o->pos, .unnormalized = unnormalized};
    switch (weights) {
    case 0: job.weights = s->w_full, job.weight_format = SW_WEIGHT_F32; break;
    case 1:
        job.weights = n > 1 ? s->codes_implied : NULL;
        job.weight_format = SW_WEIGHT_U16_NORM;
        job.last_weight_implied = true;
        break;
    case 2:
        job.weights = n > 1 ? s->codes8_implied : NULL;
        job.weight_format = SW_WEIGHT_U8_NORM;
        job.last_weight_implied = true;
        break;
    case 3: job.weights = s->w8_full, job.weight_format = SW_WEIGHT_F32; break;
    default: job.weights = s->codes, job.weight_format = SW_WEIGHT_U16_NORM; break;
    }
    if (normals) job.in_normals = s->nrm, job.out_normals = o->nrm;
    if (tangents) job.in_tangents = s->tan, job.out_tangents = o->tan;
    return job;
}

static double rel_diff(const float* a, const float* b, int count) {
    double worst = 0.0;
    for (int i = 0; i < count; i++) worst = fmax(worst, fabs((double)a[i] - b[i]) / fmax(1.0, fabs((double)b[i])));
    return worst;
}

/* Bits equal, +0 and −0 counted equal (the SIMD kernels end with + 0). */
static bool same_values(const float* a, const float* b, int count) {
    for (int i = 0; i < count; i++)
        if (!(a[i] == b[i]) && !(isnan(a[i]) && isnan(b[i]))) return false;
    return true;
}

static outputs oa, ob, oc;
static streams st;

/* Every stream set (p, pn, pt, pnt), LBS and DQS, u8 and u16 joints, every
   weight form, 1–8 influences, normalised or not, on every kernel. */
static void test_stream_sets_and_weights(void) {
    rng r = {0xC0FFEE};
    sw_mat34 m[NJ];
    sw_dualquat dq[NJ];
    make_palette(&r, m, dq);
    int runs = 0;
    for (int n = 1; n <= SW_MAX_INFLUENCES; n++) {
        make_streams(&r, &st, n);
        for (size_t ki = 0; ki < sizeof kernels / sizeof kernels[0]; ki++) {
            const sw_skin_kernel k = kernels[ki];
            if (!kernel_runs(k)) continue;
            for (int variant = 0; variant < 2 * 2 * 4 * 5 * 2; variant++) {
                int x = variant;
                const bool u8 = x % 2;
                x /= 2;
                const sw_skin_method method = x % 2 ? SW_SKIN_DQS : SW_SKIN_LBS;
                x /= 2;
                const bool normals = x % 4 & 1, tangents = x % 4 & 2;
                x /= 4;
                const int weights = x % 5;
                x /= 5;
                const bool unnorm = x % 2;
                char what[160];
                snprintf(what, sizeof what, "%s n=%d %s %s%s%s weights=%d%s", sw_skin_kernel_name(k), n,
                         u8 ? "u8" : "u16", method == SW_SKIN_DQS ? "dqs" : "lbs", normals ? " +n" : "",
                         tangents ? " +t" : "", weights, unnorm ? " unnormalised" : "");
                /* The job, the scalar kernel on it, and the same kernel with every stream. */
                sw_skin_job a = make_job(&st, n, u8, weights, method, normals, tangents, unnorm, k, m, dq, &oa);
                sw_skin_job ref = make_job(&st, n, u8, weights, method, normals, tangents, unnorm,
                                           SW_SKIN_KERNEL_SCALAR, m, dq, &ob);
                sw_skin_job all = make_job(&st, n, u8, weights, method, true, true, unnorm, k, m, dq, &oc);
                sw_diag diag;
                if (sw_skin_job_validate(&a, &diag) != SW_OK) {
                    fprintf(stderr, "  %s: %s\n", what, diag.message);
                    SW_CHECK(!"valid job");
                    return;
                }
                sw_skin_job_run(&a, 0, 5); /* a split: the same bits whatever the range */
                sw_skin_job_run(&a, 5, NV - 5);
                sw_skin_job_run(&ref, 0, NV);
                sw_skin_job_run(&all, 0, NV);
                bool ok = rel_diff(oa.pos, ob.pos, 3 * NV) <= 1e-6;
                /* Positions do not depend on the other streams (bit for bit). */
                ok = ok && memcmp(oa.pos, oc.pos, sizeof oa.pos) == 0;
                /* SSE2 LBS runs the scalar kernel's operations in its order. */
                if (k == SW_SKIN_KERNEL_SSE2 && method == SW_SKIN_LBS) ok = ok && same_values(oa.pos, ob.pos, 3 * NV);
                if (normals) ok = ok && rel_diff(oa.nrm, ob.nrm, 3 * NV) <= 1e-6 && memcmp(oa.nrm, oc.nrm, sizeof oa.nrm) == 0;
                if (tangents) ok = ok && rel_diff(oa.tan, ob.tan, 4 * NV) <= 1e-6 && memcmp(oa.tan, oc.tan, sizeof oa.tan) == 0;
                if (!ok) {
                    fprintf(stderr, "  %s: differs (pos %.3g, nrm %.3g vs scalar)\n", what,
                            rel_diff(oa.pos, ob.pos, 3 * NV), normals ? rel_diff(oa.nrm, ob.nrm, 3 * NV) : 0.0);
                    SW_CHECK(!"kernel within 1e-6 of scalar, positions independent of the other streams");
                    return;
                }
                /* Implied weights (1, 2) give the bits of the same weights written out (0, 3). */
                if (weights == 1 || weights == 2) {
                    sw_skin_job full = make_job(&st, n, u8, weights == 1 ? 0 : 3, method, normals, tangents, unnorm,
                                                k, m, dq, &ob);
                    sw_skin_job_run(&full, 0, NV);
                    if (memcmp(oa.pos, ob.pos, sizeof oa.pos) != 0 || memcmp(oa.nrm, ob.nrm, sizeof oa.nrm) != 0 ||
                        memcmp(oa.tan, ob.tan, sizeof oa.tan) != 0) {
                        fprintf(stderr, "  %s: implied weights differ from the same weights in full\n", what);
                        SW_CHECK(!"implied == full");
                        return;
                    }
                }
                /* Unnormalised: the normalised output times its length; positions the same bits. */
                if (unnorm && (normals || tangents)) {
                    sw_skin_job unit = make_job(&st, n, u8, weights, method, normals, tangents, false, k, m, dq, &ob);
                    sw_skin_job_run(&unit, 0, NV);
                    ok = memcmp(oa.pos, ob.pos, sizeof oa.pos) == 0;
                    for (int i = 0; i < NV && ok; i++) {
                        const float* u = normals ? oa.nrm + 3 * i : oa.tan + 4 * i;
                        const float* v = normals ? ob.nrm + 3 * i : ob.tan + 4 * i;
                        const double len = sqrt((double)u[0] * u[0] + (double)u[1] * u[1] + (double)u[2] * u[2]);
                        for (int c = 0; c < 3; c++) ok = ok && fabs(u[c] - len * v[c]) <= 2e-6 * fmax(1.0, len);
                        if (!normals && tangents) ok = ok && u[3] == v[3];
                    }
                    if (!ok) {
                        fprintf(stderr, "  %s: unnormalised output is not the normalised one times its length\n", what);
                        SW_CHECK(!"unnormalised == length × normalised");
                        return;
                    }
                }
                runs++;
            }
        }
    }
    fprintf(stderr, "  %d configurations\n", runs);
    SW_CHECK(runs >= 8 * 160);
}

/* Implied and integer weights, every stream in its own heap block of
   exactly the bytes it needs, 1..9 vertices: under AddressSanitizer a
   read past a stream (the exact-size weight loads, a block of four past
   the end) is caught. */
static void test_memory_safe(void) {
    rng r = {0xA5A5};
    sw_mat34 m[NJ];
    sw_dualquat dq[NJ];
    make_palette(&r, m, dq);
    for (size_t ki = 0; ki < sizeof kernels / sizeof kernels[0]; ki++) {
        if (!kernel_runs(kernels[ki])) continue;
        for (int n = 1; n <= SW_MAX_INFLUENCES; n++) {
            make_streams(&r, &st, n);
            for (int variant = 0; variant < 8; variant++) {
                const bool u8w = variant & 1, u8j = variant & 2, dqs = variant & 4;
                for (size_t count = 1; count <= 9; count++) {
                    const size_t wsize = u8w ? 1 : 2, jsize = u8j ? 1 : 2, m1 = (size_t)(n - 1);
                    unsigned char* joints = malloc(count * (size_t)n * jsize);
                    unsigned char* weights = m1 ? malloc(count * m1 * wsize) : NULL;
                    float* in_pos = malloc(count * 12);
                    float* out_pos = malloc(count * 12);
                    float* in_nrm = malloc(count * 12);
                    float* out_nrm = malloc(count * 12);
                    memcpy(joints, u8j ? (const void*)st.j8 : (const void*)st.j16, count * (size_t)n * jsize);
                    if (m1)
                        memcpy(weights, u8w ? (const void*)st.codes8_implied : (const void*)st.codes_implied,
                               count * m1 * wsize);
                    memcpy(in_pos, st.pos, count * 12);
                    memcpy(in_nrm, st.nrm, count * 12);
                    for (int with_normals = 0; with_normals < 2; with_normals++) {
                        sw_skin_job job = {.method = dqs ? SW_SKIN_DQS : SW_SKIN_LBS, .kernel = kernels[ki],
                                           .vertex_count = count, .influence_count = n, .joint_count = NJ,
                                           .matrices = m, .dual_quats = dq, .joints = joints,
                                           .joint_format = u8j ? SW_JOINT_U8 : SW_JOINT_U16, .weights = weights,
                                           .weight_format = u8w ? SW_WEIGHT_U8_NORM : SW_WEIGHT_U16_NORM,
                                           .last_weight_implied = true, .in_positions = in_pos,
                                           .out_positions = out_pos, .in_normals = with_normals ? in_nrm : NULL,
                                           .out_normals = with_normals ? out_nrm : NULL};
                        SW_CHECK(sw_skin_job_validate(&job, NULL) == SW_OK);
                        sw_skin_job_run(&job, 0, count);
                        for (size_t i = 0; i < 3 * count; i++) SW_CHECK(isfinite(out_pos[i]));
                    }
                    free(joints), free(weights), free(in_pos), free(out_pos), free(in_nrm), free(out_nrm);
                }
            }
        }
    }
}

/* A hand-made source: segments, codes, maps, joint width. */
static void test_compact_build(void) {
    /* Vertex 0: one influence (padded); 1: two; 2: 0.5/0.3/0.2 over slots
       0, 2, 3; 3: a weight too small for a code (dropped); 4: two. */
    const uint16_t joints[5 * 4] = {3, 0, 0, 0, 1, 2, 0, 0, 4, 7, 5, 6, 2, 1, 0, 0, 0, 299, 0, 0};
    const float weights[5 * 4] = {1, 0, 0, 0, 0.25f, 0.75f, 0, 0, 0.5f, 0, 0.3f, 0.2f,
                                  1.0f - 1e-7f, 1e-7f, 0, 0, 0.5f, 0.5f, 0, 0};
    float pos[5 * 3];
    for (int i = 0; i < 15; i++) pos[i] = (float)i;
    for (int joints_count = 300; joints_count >= 256; joints_count -= 44) {
        sw_skin_compact_desc d = {.vertex_count = 5, .influence_count = 4, .joint_count = (size_t)joints_count,
                                  .joints = joints, .weights = weights, .positions = pos};
        uint16_t j4[20];
        memcpy(j4, joints, sizeof j4);
        if (joints_count == 256) j4[17] = 255, d.joints = j4; /* fits 8 bits */
        const size_t size = sw_skin_compact_memory_size(&d);
        SW_CHECK(size > 0);
        void* memory = aligned_alloc(16, (size + 15) / 16 * 16);
        sw_skin_compact c;
        sw_diag diag;
        SW_CHECK(sw_skin_compact_build(&d, memory, size - 1, &c, &diag) == SW_ERR_BUFFER_TOO_SMALL);
        SW_CHECK_EQ_INT(sw_skin_compact_build(&d, memory, size, &c, &diag), SW_OK);
        SW_CHECK_EQ_INT((int)c.joint_format, joints_count <= 256 ? SW_JOINT_U8 : SW_JOINT_U16);
        SW_CHECK_EQ_INT((int)c.segment_count, 3);
        SW_CHECK_EQ_INT(c.segments[0].influence_count, 1); /* vertices 0 and 3 */
        SW_CHECK_EQ_INT((int)c.segments[0].vertex_count, 2);
        SW_CHECK_EQ_INT(c.segments[1].influence_count, 2); /* 1 and 4 */
        SW_CHECK_EQ_INT(c.segments[2].influence_count, 3); /* 2 */
        static const uint32_t order[5] = {0, 3, 1, 4, 2};
        for (int i = 0; i < 5; i++) {
            SW_CHECK_EQ_INT((int)c.new_to_old[i], (int)order[i]);
            SW_CHECK_EQ_INT((int)c.old_to_new[order[i]], i);
            SW_CHECK(memcmp(c.positions + 3 * i, pos + 3 * order[i], 12) == 0);
        }
        /* Codes, by largest remainder: 0.25 → 16384 (16383.75), 0.75 → 49151. As floats 0.3f and 0.2f
           are slightly above 0.3 and 0.2, so 0.5f, 0.3f, 0.2f scale (over their sum) to 32767.4995,
           19660.4998 and 13106.9998: floors 32767 + 19660 + 13106 = 65533, and the 2 codes left go to
           the largest fractions, 0.2f's then 0.3f's: 32767, 19661 (13107 implied). */
        uint32_t jj[3], ww[2];
        for (int e = 0; e < 3; e++)
            jj[e] = c.joint_format == SW_JOINT_U8 ? ((const uint8_t*)c.segments[2].joints)[e]
                                                  : ((const uint16_t*)c.segments[2].joints)[e];
        for (int e = 0; e < 2; e++) ww[e] = ((const uint16_t*)c.segments[2].weights)[e];
        SW_CHECK(jj[0] == 4 && jj[1] == 5 && jj[2] == 6);
        SW_CHECK_EQ_INT((int)ww[0], 32767);
        SW_CHECK_EQ_INT((int)ww[1], 19661);
        SW_CHECK_EQ_INT(((const uint16_t*)c.segments[1].weights)[0], 16384);
        SW_CHECK_EQ_INT(((const uint16_t*)c.segments[1].weights)[1], 32768);
        SW_CHECK_EQ_INT((int)c.influence_bytes,
                        (int)((2 * 1 + 2 * 2 + 3) * (c.joint_format == SW_JOINT_U8 ? 1 : 2) + (2 * 1 + 2) * 2));
        free(memory);
    }
    /* Bad data is refused, naming the vertex. */
    const float zero[4] = {0, 0, 0, 0};
    sw_skin_compact_desc d = {.vertex_count = 1, .influence_count = 4, .joint_count = 8, .joints = joints,
                              .weights = zero, .positions = pos};
    char memory[256] __attribute__((aligned(16)));
    sw_skin_compact c;
    sw_diag diag;
    SW_CHECK_EQ_INT(sw_skin_compact_build(&d, memory, sizeof memory, &c, &diag), SW_ERR_INVALID_DATA);
    SW_CHECK(strstr(diag.message, "vertex 0") != NULL);
}

/* ---- every asset ------------------------------------------------------------------------ */

static void* aligned_zero(size_t bytes) {
    void* p = aligned_alloc(64, (bytes + 63) / 64 * 64 + 64);
    if (p) memset(p, 0, (bytes + 63) / 64 * 64 + 64);
    return p;
}

/* Largest angle in degrees between normals a and b (unit or zero). */
static double worst_angle(const float* a, const float* b, size_t count) {
    double worst = 0.0;
    for (size_t i = 0; i < count; i++) {
        const float* x = a + 3 * i;
        const float* y = b + 3 * i;
        const double lx = sqrt((double)x[0] * x[0] + (double)x[1] * x[1] + (double)x[2] * x[2]);
        const double ly = sqrt((double)y[0] * y[0] + (double)y[1] * y[1] + (double)y[2] * y[2]);
        if (lx < 0.5 || ly < 0.5) continue;
        const double c = ((double)x[0] * y[0] + (double)x[1] * y[1] + (double)x[2] * y[2]) / (lx * ly);
        worst = fmax(worst, acos(fmin(1.0, c)) * 180.0 / SW_PI);
    }
    return worst;
}

/* One skinned primitive: the compact layout against the default layout
   with the decoded compact weights (same kernel: the same bits), and
   against the source (normals within 0.05°, positions within the
   quantisation's bound). */
static void check_primitive(const char* name, const sw_model_primitive* prim, const sw_mat34* palette,
                            size_t joint_count, double* worst_deg) {
    const size_t v = prim->vertex_count;
    const int n = prim->influence_count;
    const sw_skin_compact_desc d = {.vertex_count = v, .influence_count = n, .joint_count = joint_count,
                                    .joints = prim->joints, .weights = prim->weights, .positions = prim->positions,
                                    .normals = prim->normals};
    const size_t size = sw_skin_compact_memory_size(&d);
    void* memory = aligned_zero(size);
    uint16_t* ref_joints = aligned_zero(v * (size_t)n * 2);
    float* ref_weights = aligned_zero(v * (size_t)n * 4);
    float* out[4];
    for (int i = 0; i < 4; i++) out[i] = aligned_zero(v * 12);
    sw_skin_compact c;
    sw_diag diag;
    sw_result r = sw_skin_compact_build(&d, memory, size, &c, &diag);
    if (r != SW_OK) fprintf(stderr, "  %s: %s\n", name, diag.message);
    SW_CHECK_EQ_INT(r, SW_OK);
    if (r != SW_OK) goto done;
    SW_CHECK_EQ_INT((int)c.joint_format, joint_count <= 256 ? SW_JOINT_U8 : SW_JOINT_U16);
    /* The reference: n slots per vertex in the grouped order, the compact
       weights decoded independently, zero padded. */
    for (size_t s = 0; s < c.segment_count; s++) {
        const sw_skin_compact_segment* g = &c.segments[s];
        const int k = g->influence_count;
        for (size_t i = 0; i < g->vertex_count; i++) {
            const size_t at = (g->first_vertex + i) * (size_t)n;
            for (int e = 0; e < k; e++)
                ref_joints[at + (size_t)e] = c.joint_format == SW_JOINT_U8
                                                 ? ((const uint8_t*)g->joints)[i * (size_t)k + (size_t)e]
                                                 : ((const uint16_t*)g->joints)[i * (size_t)k + (size_t)e];
            decode_implied(ref_weights + at, k > 1 ? (const uint16_t*)g->weights + i * (size_t)(k - 1) : NULL, k,
                           false);
        }
    }
    for (size_t ki = 0; ki < sizeof kernels / sizeof kernels[0]; ki++) {
        if (!kernel_runs(kernels[ki])) continue;
        /* The scalar kernel on the big crowd mesh would take most of this
           test's time in debug builds; every other asset checks it. */
        if (kernels[ki] == SW_SKIN_KERNEL_SCALAR && v > 100000) continue;
        for (int normals = 0; normals < 2; normals++) {
            if (normals && !prim->normals) continue;
            const sw_skin_job base = {.kernel = kernels[ki], .joint_count = joint_count, .matrices = palette,
                                      .out_positions = out[0], .out_normals = normals ? out[1] : NULL};
            sw_skin_job jobs[SW_MAX_INFLUENCES];
            const size_t count = sw_skin_compact_jobs(&c, &base, jobs);
            for (size_t s = 0; s < count; s++) {
                SW_CHECK(sw_skin_job_validate(&jobs[s], &diag) == SW_OK);
                sw_skin_job_run(&jobs[s], 0, jobs[s].vertex_count);
            }
            sw_skin_job ref = {.kernel = kernels[ki], .vertex_count = v, .influence_count = n,
                               .joint_count = joint_count, .matrices = palette, .joints = ref_joints,
                               .weights = ref_weights, .in_positions = c.positions, .out_positions = out[2],
                               .in_normals = normals ? c.normals : NULL, .out_normals = normals ? out[3] : NULL};
            SW_CHECK(sw_skin_job_validate(&ref, &diag) == SW_OK);
            sw_skin_job_run(&ref, 0, v);
            if (memcmp(out[0], out[2], v * 12) != 0 || (normals && memcmp(out[1], out[3], v * 12) != 0)) {
                fprintf(stderr, "  %s %s%s: compact differs from its decoded weights in the default layout\n", name,
                        sw_skin_kernel_name(kernels[ki]), normals ? " +n" : "");
                SW_CHECK(!"compact == default with the same weights");
            }
            if (!normals) continue;
            /* Against the source weights, vertex by vertex through the maps. */
            sw_skin_job src = {.kernel = kernels[ki], .vertex_count = v, .influence_count = n,
                               .joint_count = joint_count, .matrices = palette, .joints = prim->joints,
                               .weights = prim->weights, .in_positions = prim->positions, .out_positions = out[2],
                               .in_normals = prim->normals, .out_normals = out[3]};
            sw_skin_job_run(&src, 0, v);
            for (size_t i = 0; i < v; i++) { /* back to source order, in out[0], out[1] (reused) */
                memcpy(out[0] + 3 * i, out[2] + 3 * c.new_to_old[i], 12);
                memcpy(out[1] + 3 * i, out[3] + 3 * c.new_to_old[i], 12);
            }
            /* out[0/1] now hold the source outputs in grouped order; rerun compact into out[2/3]. */
            sw_skin_job again = base;
            again.out_positions = out[2];
            again.out_normals = out[3];
            sw_skin_compact_jobs(&c, &again, jobs);
            for (size_t s = 0; s < count; s++) sw_skin_job_run(&jobs[s], 0, jobs[s].vertex_count);
            const double deg = worst_angle(out[1], out[3], v);
            *worst_deg = fmax(*worst_deg, deg);
            if (!(deg <= 0.05)) {
                fprintf(stderr, "  %s %s: compact normals %.4f° from the source's\n", name,
                        sw_skin_kernel_name(kernels[ki]), deg);
                SW_CHECK(!"compact normals within 0.05°");
            }
        }
    }
done:
    free(memory), free(ref_joints), free(ref_weights);
    for (int i = 0; i < 4; i++) free(out[i]);
}

static void test_compact_every_asset(void) {
    const char* assets = getenv("SINEW_ASSETS");
    if (!assets || !*assets) SW_SKIP("SINEW_ASSETS is not set: the compact layout on every asset needs it");
    static const char* const files[] = {
        "gltf/pab/crowd_stress.glb",      "gltf/pab/arnaud_locomotion.glb",   "gltf/synthetic/cubic_spline.glb",
        "gltf/synthetic/morph_skin.glb",  "gltf/synthetic/scaled_joint.glb",  "gltf/synthetic/eight_influences.glb",
        "gltf/synthetic/twist_tube.glb",  "gltf/assimp/simple_skin/simple_skin.gltf",
        "gltf/khronos/rigged_simple.gltf", "gltf/khronos/cesium_man.gltf",    "gltf/cc0/greenman.glb",
        "gltf/cc0/robot.glb"};
    int primitives = 0;
    double worst = 0.0;
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", assets, files[f]);
        sw_model* model = NULL;
        sw_diag diag;
        if (sw_gltf_load_file(path, NULL, &model, &diag) != SW_OK) {
            fprintf(stderr, "  %s: %s\n", path, diag.message);
            SW_CHECK(!"asset loads");
            continue;
        }
        const sw_pose_sizes sizes = sw_pose_sizes_of(model);
        void* pose_memory = aligned_zero(sw_pose_memory_size(&sizes));
        sw_pose pose;
        sw_pose_bind(&pose, &sizes, pose_memory);
        const sw_clip* clip = model->animation_count ? &model->animations[0] : NULL;
        SW_CHECK(sw_pose_evaluate(model, clip, clip ? 0.5f * clip->duration : 0.0f, false, &pose, &diag) == SW_OK);
        for (size_t nd = 0; nd < model->node_count; nd++) {
            const sw_model_node* node = &model->nodes[nd];
            if (node->mesh < 0 || node->skin < 0) continue;
            for (size_t p = 0; p < model->meshes[node->mesh].primitive_count; p++) {
                const sw_model_primitive* prim = &model->meshes[node->mesh].primitives[p];
                if (prim->influence_count == 0) continue;
                const sw_model_skin* skin = &model->skins[node->skin];
                check_primitive(files[f], prim, pose.skin_matrices + skin->palette_offset, skin->joint_count, &worst);
                primitives++;
            }
        }
        free(pose_memory);
        sw_model_free(model);
    }
    fprintf(stderr, "  %d skinned primitives; compact normals at most %.5f° from the source's\n", primitives, worst);
    SW_CHECK(primitives >= 12);
}

int main(void) {
    SW_RUN(test_stream_sets_and_weights);
    SW_RUN(test_memory_safe);
    SW_RUN(test_compact_build);
    SW_RUN(test_compact_every_asset);
    return sw_test_finish();
}
