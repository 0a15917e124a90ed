/* The quantised compact layout (sinew/skin.h): octahedral normals, INT_2_10_10_10 words, the dequantised
   palette, and its error against the float compact layout stated in skin.h (positions: Σ_c |A_rc|·h_c/2;
   normals: 2.2/32767 rad under a rotation; packed normals: 0.5/511 a component), on the scalar kernel and
   on every columns kernel this CPU runs (within 1e-6 of scalar, packed words within one code); the
   reorder round trip; what is refused. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "test_random.h"
#include "sinew/skin.h"

enum { NJ = 7, NV = 203 }; /* 203: blocks of four and a tail of three */

static double angle_between(sw_vec3 a, sw_vec3 b) {
    const double la = sqrt((double)a.x * a.x + (double)a.y * a.y + (double)a.z * a.z);
    const double lb = sqrt((double)b.x * b.x + (double)b.y * b.y + (double)b.z * b.z);
    const double c = ((double)a.x * b.x + (double)a.y * b.y + (double)a.z * b.z) / (la * lb);
    const double cx = ((double)a.y * b.z - (double)a.z * b.y), cy = ((double)a.z * b.x - (double)a.x * b.z),
                 cz = ((double)a.x * b.y - (double)a.y * b.x);
    return atan2(sqrt(cx * cx + cy * cy + cz * cz) / (la * lb), c);
}

/* Octahedral codes: hand-checked axes and the fold, and the angle bound
   2.2/32767 rad over many directions (the L1-normalised vector has length
   ≥ 1/√3; a code's rounding moves it by ≤ √1.5 · 0.5 · 2/32767... see skin.h). */
static void test_octahedral(void) {
    int16_t q[2];
    sw_octahedral_encode(q, sw_vec3_make(0, 0, 1));
    SW_CHECK(q[0] == 0 && q[1] == 0);
    sw_octahedral_encode(q, sw_vec3_make(0, 0, 0)); /* zero: (0, 0), decoding to +z */
    SW_CHECK(q[0] == 0 && q[1] == 0);
    sw_octahedral_encode(q, sw_vec3_make(2, 0, 0));
    SW_CHECK(q[0] == 32767 && q[1] == 0);
    sw_octahedral_encode(q, sw_vec3_make(0, 0, -1)); /* folded: the corner (±1, ±1) */
    SW_CHECK(abs(q[0]) == 32767 && abs(q[1]) == 32767);
    sw_vec3 d = sw_octahedral_decode(q);
    SW_CHECK(d.x == 0 && d.y == 0 && d.z == -32767);
    const int16_t half[2] = {16384, -16383}; /* z = 32767 − 16384 − 16383 = 0 */
    d = sw_octahedral_decode(half);
    SW_CHECK(d.x == 16384 && d.y == -16383 && d.z == 0);

    rng r = {0x0c7a11ull};
    double worst = 0.0;
    for (int i = 0; i < 200000; i++) {
        sw_vec3 v = rng_vec3(&r, -1.0, 1.0);
        if (i % 3 == 0) v.z = -fabsf(v.z) - 0.5f; /* the folded half more often */
        sw_octahedral_encode(q, v);
        worst = fmax(worst, angle_between(v, sw_octahedral_decode(q)));
    }
    fprintf(stderr, "  octahedral 16-bit: worst %.3g rad (bound %.3g)\n", worst, 2.2 / 32767.0);
    SW_CHECK(worst <= 2.2 / 32767.0);
    SW_CHECK(worst > 0.5 / 32767.0); /* the bound is not loose by orders of magnitude */
}

static void test_int_2_10_10_10(void) {
    SW_CHECK(sw_pack_int_2_10_10_10(sw_vec3_make(1, 0, 0)) == 0x1FFu);
    SW_CHECK(sw_pack_int_2_10_10_10(sw_vec3_make(-1, 0, 0)) == 0x201u); /* −511 in 10 bits */
    SW_CHECK(sw_pack_int_2_10_10_10(sw_vec3_make(0, 1, 0)) == 0x1FFu << 10);
    SW_CHECK(sw_pack_int_2_10_10_10(sw_vec3_make(0, 0, -1)) == 0x201u << 20);
    SW_CHECK(sw_pack_int_2_10_10_10(sw_vec3_make(2, -3, 0)) == (0x1FFu | 0x201u << 10)); /* clamped */
    sw_vec3 u = sw_unpack_int_2_10_10_10(0x201u);
    SW_CHECK(u.x == -1.0f && u.y == 0.0f && u.z == 0.0f);
    rng r = {0x21010ull};
    for (int i = 0; i < 10000; i++) {
        const sw_vec3 v = sw_vec3_normalize(rng_vec3(&r, -1.0, 1.0));
        const sw_vec3 w = sw_unpack_int_2_10_10_10(sw_pack_int_2_10_10_10(v));
        SW_CHECK(fabsf(v.x - w.x) <= 0.5f / 511.0f + 1e-6f && fabsf(v.y - w.y) <= 0.5f / 511.0f + 1e-6f &&
                 fabsf(v.z - w.z) <= 0.5f / 511.0f + 1e-6f);
    }
}

/* S·D by hand: S = [R | t], D = [diag(h) | c] gives [R·diag(h) | R·c + t]. */
static void test_dequantize(void) {
    sw_mat34 s = {{{0, -1, 0, 5}, {1, 0, 0, 6}, {0, 0, 2, 7}}};
    sw_mat34 out;
    sw_skin_matrices_dequantize(&out, &s, 1, sw_vec3_make(1, 2, 3), sw_vec3_make(0.5f, 0.25f, 0.125f));
    const sw_mat34 want = {{{0, -0.25f, 0, 5 - 2}, {0.5f, 0, 0, 6 + 1}, {0, 0, 0.25f, 7 + 6}}};
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 4; c++) SW_CHECK_NEAR(out.m[r][c], want.m[r][c], 0.0);
}

/* A mesh of NV vertices in a box [-3, 5] × [0, 2] × [-1, 1], 1–4 non-zero
   weights in 4 slots, and a palette of one rotation with different
   translations (so every blend is that rotation: the bound is exact). */
typedef struct mesh {
    float pos[NV * 3], nrm[NV * 3];
    uint16_t joints[NV * 4];
    float weights[NV * 4];
    sw_mat34 palette[NJ], deq[NJ];
} mesh;

static void make_mesh(rng* r, mesh* m, bool rigid) {
    for (int i = 0; i < NV; i++) {
        m->pos[3 * i] = rng_range(r, -3, 5), m->pos[3 * i + 1] = rng_range(r, 0, 2), m->pos[3 * i + 2] = rng_range(r, -1, 1);
        if (i < 2) m->pos[3 * i] = i ? 5.0f : -3.0f, m->pos[3 * i + 1] = i ? 2.0f : 0.0f, m->pos[3 * i + 2] = i ? 1.0f : -1.0f;
        const sw_vec3 n = sw_vec3_normalize(rng_vec3(r, -1, 1));
        memcpy(m->nrm + 3 * i, &n, 12);
        const int k = 1 + i % 4;
        float sum = 0;
        for (int s = 0; s < 4; s++) {
            m->joints[4 * i + s] = (uint16_t)rng_below(r, NJ);
            m->weights[4 * i + s] = s < k ? 0.1f + rng_range(r, 0, 1) : 0.0f;
            sum += m->weights[4 * i + s];
        }
        for (int s = 0; s < 4; s++) m->weights[4 * i + s] /= sum;
    }
    const sw_quat base = sw_quat_from_axis_angle(sw_vec3_make(0.3f, 1.0f, -0.5f), 0.8f);
    for (int j = 0; j < NJ; j++) {
        sw_quat q = base;
        if (!rigid) q = sw_quat_mul(base, sw_quat_from_axis_angle(rng_vec3(r, -1, 1), rng_range(r, -0.5, 0.5)));
        const sw_transform t = {rng_vec3(r, -4, 4), q, rigid ? sw_vec3_make(1, 1, 1) : rng_vec3(r, 0.8, 1.3)};
        m->palette[j] = sw_transform_to_mat34(&t);
    }
}

/* The compact layout of the mesh, float or quantised (8-bit weights both,
   so they blend the same weights). */
typedef struct built {
    sw_skin_compact c;
    void* memory;
} built;

static bool build(const mesh* m, bool quantize, built* out) {
    const sw_skin_compact_desc desc = {.vertex_count = NV, .influence_count = 4, .joint_count = NJ,
                                       .joints = m->joints, .weights = m->weights, .positions = m->pos,
                                       .normals = m->nrm, .compact_weights = SW_WEIGHT_U8_NORM, .quantize = quantize};
    const size_t size = sw_skin_compact_memory_size(&desc);
    out->memory = aligned_alloc(16, (size + 15) / 16 * 16);
    sw_diag diag;
    if (sw_skin_compact_build(&desc, out->memory, size, &out->c, &diag) != SW_OK) {
        fprintf(stderr, "  %s\n", diag.message);
        return false;
    }
    return true;
}

static void run(const sw_skin_compact* c, const sw_mat34* palette, sw_skin_kernel kernel, float* pos, void* nrm,
                bool packed) {
    sw_skin_job base = {.kernel = kernel, .joint_count = NJ, .matrices = palette, .out_positions = pos,
                        .out_normals = nrm, .out_normal_format = packed ? SW_VERTEX_INT_2_10_10_10 : SW_VERTEX_F32};
    sw_skin_job jobs[SW_MAX_INFLUENCES];
    const size_t n = sw_skin_compact_jobs(c, &base, jobs);
    for (size_t i = 0; i < n; i++) {
        sw_diag diag;
        if (sw_skin_job_validate(&jobs[i], &diag) != SW_OK) {
            fprintf(stderr, "  job %zu: %s\n", i, diag.message);
            SW_CHECK(!"valid job");
            return;
        }
        /* In two ranges: a split gives the same bits. */
        sw_skin_job_run(&jobs[i], 0, jobs[i].vertex_count / 2);
        sw_skin_job_run(&jobs[i], jobs[i].vertex_count / 2, jobs[i].vertex_count - jobs[i].vertex_count / 2);
    }
}

static bool kernel_runs(sw_skin_kernel k) {
    sw_mat34 m = sw_mat34_identity();
    float io[3] = {0}, w = 1;
    uint16_t j = 0;
    sw_skin_job job = {.kernel = k, .influence_count = 1, .joint_count = 1, .matrices = &m, .joints = &j,
                       .weights = &w, .in_positions = io, .out_positions = io};
    return sw_skin_job_validate(&job, NULL) == SW_OK;
}

static float fpos[NV * 3], qpos[NV * 3], spos[NV * 3], fnrm[NV * 3], qnrm[NV * 3], snrm[NV * 3];
static uint32_t qpk[NV], spk[NV];

/* Quantised against float, with the bound of skin.h, on every kernel; each
   SIMD kernel against scalar on the quantised streams. */
static void check_layout(bool rigid) {
    rng r = {rigid ? 0x9a17ull : 0x9a18ull};
    static mesh m;
    make_mesh(&r, &m, rigid);
    built f, q;
    if (!build(&m, false, &f) || !build(&m, true, &q)) {
        SW_CHECK(!"layouts build");
        return;
    }
    SW_CHECK(q.c.quantized && q.c.quantized_positions && q.c.quantized_normals && !q.c.positions);
    /* The box is 8 × 2 × 2: one step, 8/65534, for every axis. */
    SW_CHECK(q.c.dequantize_step.x <= 8.0f / 65534.0f * 1.00001f && q.c.dequantize_step.x >= 8.0f / 65534.0f * 0.99999f);
    SW_CHECK(q.c.dequantize_step.y == q.c.dequantize_step.x && q.c.dequantize_step.z == q.c.dequantize_step.x);
    /* The reorder is the same and a permutation. */
    for (int v = 0; v < NV; v++) {
        SW_CHECK(q.c.old_to_new[v] == f.c.old_to_new[v]);
        SW_CHECK(q.c.new_to_old[q.c.old_to_new[v]] == (uint32_t)v);
    }
    sw_skin_matrices_dequantize(m.deq, m.palette, NJ, q.c.dequantize_offset, q.c.dequantize_step);
    const double h[3] = {q.c.dequantize_step.x, q.c.dequantize_step.y, q.c.dequantize_step.z};
    double bound[3] = {0, 0, 0}; /* Σ_c max_j |S_rc| · h_c / 2 */
    double size = 0;
    for (int row = 0; row < 3; row++)
        for (int col = 0; col < 3; col++) {
            double most = 0;
            for (int j = 0; j < NJ; j++) most = fmax(most, fabs(m.palette[j].m[row][col]));
            bound[row] += most * h[col] / 2;
        }
    for (int j = 0; j < NJ; j++)
        for (int row = 0; row < 3; row++) size = fmax(size, fabs(m.palette[j].m[row][3]) + 10.0);
    run(&f.c, m.palette, SW_SKIN_KERNEL_SCALAR, fpos, fnrm, false);
    run(&q.c, m.deq, SW_SKIN_KERNEL_SCALAR, spos, snrm, false);
    run(&q.c, m.deq, SW_SKIN_KERNEL_SCALAR, qpos, spk, true);
    const sw_skin_kernel kernels[] = {SW_SKIN_KERNEL_SCALAR,         SW_SKIN_KERNEL_SSE2,
                                      SW_SKIN_KERNEL_AVX2,           SW_SKIN_KERNEL_SSE2_COLUMNS,
                                      SW_SKIN_KERNEL_AVX2_COLUMNS,   SW_SKIN_KERNEL_AVX2_ROWS};
    double worst_p = 0, worst_n = 0;
    for (size_t ki = 0; ki < sizeof kernels / sizeof kernels[0]; ki++) {
        if (!kernel_runs(kernels[ki])) continue;
        run(&q.c, m.deq, kernels[ki], qpos, qnrm, false);
        for (int i = 0; i < NV; i++) {
            for (int a = 0; a < 3; a++) {
                const double d = fabs((double)qpos[3 * i + a] - fpos[3 * i + a]);
                worst_p = fmax(worst_p, d / bound[a]);
                /* The bound, plus float rounding of a few ulp of the size. */
                if (!(d <= bound[a] + 4e-7 * size)) {
                    fprintf(stderr, "  %s vertex %d position[%d] off by %.3g (bound %.3g)\n",
                            sw_skin_kernel_name(kernels[ki]), i, a, d, bound[a]);
                    SW_CHECK(!"quantised positions within the bound");
                    return;
                }
                SW_CHECK(fabs((double)qpos[3 * i + a] - spos[3 * i + a]) <= 1e-6 * size);
                SW_CHECK(fabs((double)qnrm[3 * i + a] - snrm[3 * i + a]) <= 1e-6);
            }
            const sw_vec3 a = {qnrm[3 * i], qnrm[3 * i + 1], qnrm[3 * i + 2]};
            const sw_vec3 b = {fnrm[3 * i], fnrm[3 * i + 1], fnrm[3 * i + 2]};
            const double angle = angle_between(a, b);
            worst_n = fmax(worst_n, angle);
            if (rigid && !(angle <= 2.2 / 32767.0 + 1e-6)) {
                fprintf(stderr, "  %s vertex %d normal off by %.3g rad\n", sw_skin_kernel_name(kernels[ki]), i, angle);
                SW_CHECK(!"quantised normals within the octahedral bound");
                return;
            }
            if (!rigid) SW_CHECK(angle <= 4.0 * 2.2 / 32767.0); /* cond(A) < 4 with this palette */
        }
        /* Positions only over the same layout (a shadow pass): the same positions. */
        static float ppos[NV * 3];
        run(&q.c, m.deq, kernels[ki], ppos, NULL, true);
        SW_CHECK(memcmp(ppos, qpos, sizeof ppos) == 0);
        run(&q.c, m.deq, kernels[ki], qpos, qpk, true);
        for (int i = 0; i < NV; i++) {
            for (int a = 0; a < 3; a++) {
                const int sa = (int)((qpk[i] >> (10 * a)) & 1023u), sb = (int)((spk[i] >> (10 * a)) & 1023u);
                SW_CHECK(abs(sa - sb) <= 1 || abs(sa - sb) == 1023); /* one code (−1 and 0 are 1023 and 0) */
            }
            const sw_vec3 u = sw_unpack_int_2_10_10_10(qpk[i]);
            SW_CHECK(fabsf(u.x - snrm[3 * i]) <= 0.5f / 511.0f + 2e-6f && fabsf(u.y - snrm[3 * i + 1]) <= 0.5f / 511.0f + 2e-6f &&
                     fabsf(u.z - snrm[3 * i + 2]) <= 0.5f / 511.0f + 2e-6f);
            SW_CHECK((qpk[i] >> 30) == 0);
        }
    }
    fprintf(stderr, "  %s palette: positions at most %.2f of the bound, normals %.3g rad\n", rigid ? "rigid" : "scaled",
            worst_p, worst_n);
    free(f.memory), free(q.memory);
}

static void test_quantized_rigid(void) { check_layout(true); }
static void test_quantized_scaled(void) { check_layout(false); }

static void test_refused(void) {
    static mesh m;
    rng r = {3};
    make_mesh(&r, &m, true);
    float tangents[NV * 4] = {0};
    sw_skin_compact_desc desc = {.vertex_count = NV, .influence_count = 4, .joint_count = NJ, .joints = m.joints,
                                 .weights = m.weights, .positions = m.pos, .normals = m.nrm, .tangents = tangents,
                                 .quantize = true};
    sw_skin_compact c;
    sw_diag diag;
    static unsigned char memory[NV * 64] __attribute__((aligned(16)));
    SW_CHECK(sw_skin_compact_build(&desc, memory, sizeof memory, &c, &diag) == SW_ERR_UNSUPPORTED);
    SW_CHECK(strstr(diag.message, "tangents") != NULL);
    desc.tangents = NULL;
    SW_CHECK(sw_skin_compact_build(&desc, memory, sizeof memory, &c, &diag) == SW_OK);
    sw_skin_job base = {.joint_count = NJ, .matrices = m.palette, .out_positions = qpos, .out_normals = qnrm};
    sw_skin_job jobs[SW_MAX_INFLUENCES];
    sw_skin_compact_jobs(&c, &base, jobs);
    SW_CHECK(sw_skin_job_validate(&jobs[0], NULL) == SW_OK);
    sw_skin_job j = jobs[0];
    j.unnormalized = true;
    SW_CHECK(sw_skin_job_validate(&j, &diag) == SW_ERR_UNSUPPORTED);
    j = jobs[0];
    j.method = SW_SKIN_DQS;
    j.dual_quats = (const sw_dualquat*)(const void*)m.deq;
    SW_CHECK(sw_skin_job_validate(&j, &diag) == SW_ERR_UNSUPPORTED);
    j = jobs[0];
    j.normal_format = (sw_vertex_format)9;
    SW_CHECK(sw_skin_job_validate(&j, &diag) == SW_ERR_INVALID_ARGUMENT);
}

/* DEFAULT on a compact layout's jobs runs the columns shape of the best
   instruction set: the same bits as asking for it. */
static void test_default_compact_runs_columns(void) {
    const sw_skin_kernel best = sw_skin_kernel_best();
    const sw_skin_kernel cols = best == SW_SKIN_KERNEL_AVX2   ? SW_SKIN_KERNEL_AVX2_COLUMNS
                                : best == SW_SKIN_KERNEL_SSE2 ? SW_SKIN_KERNEL_SSE2_COLUMNS
                                                              : SW_SKIN_KERNEL_SCALAR;
    rng r = {0xc01ull};
    static mesh m;
    make_mesh(&r, &m, false);
    built f;
    if (!build(&m, false, &f)) {
        SW_CHECK(!"layout builds");
        return;
    }
    run(&f.c, m.palette, SW_SKIN_KERNEL_DEFAULT, fpos, fnrm, false);
    run(&f.c, m.palette, cols, spos, snrm, false);
    SW_CHECK(memcmp(fpos, spos, sizeof fpos) == 0 && memcmp(fnrm, snrm, sizeof fnrm) == 0);
    free(f.memory);
}

int main(void) {
    SW_RUN(test_octahedral);
    SW_RUN(test_int_2_10_10_10);
    SW_RUN(test_dequantize);
    SW_RUN(test_quantized_rigid);
    SW_RUN(test_quantized_scaled);
    SW_RUN(test_refused);
    SW_RUN(test_default_compact_runs_columns);
    return sw_test_finish();
}
