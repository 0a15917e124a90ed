/* skin_internal.h — internals shared by the skinning job's sources
   (skin_job.c: validation, dispatch and the scalar reference; skin_sse2.c
   and skin_avx2.c: the SIMD kernels). Not a public header.

   A SIMD kernel receives a validated job as an sw__skin_streams (defaults
   resolved, pointers as bytes, moved to the range's first vertex). Kernels
   process blocks of vertices, one vertex per SIMD lane with no lane
   crossing, so a vertex's arithmetic never depends on the range it is run
   in: any split of a job gives the same bits. */
#ifndef SINEW_SKIN_INTERNAL_H
#define SINEW_SKIN_INTERNAL_H

#include "sinew/skin.h"

#include <string.h>

/* The SIMD kernels exist on x86-64 with GCC or Clang (per-function target
   attributes), unless the build asks for scalar only. */
#if !defined(SW_NO_SIMD) && defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define SW__SKIN_X86 1
#else
#define SW__SKIN_X86 0
#endif
/* The SSE2 kernel also builds for WebAssembly SIMD128: emscripten maps the
   SSE2 intrinsics onto it (-msimd128 -msse2; web/CMakeLists.txt). AVX2 and
   the CPU check stay x86's. */
#if SW__SKIN_X86 || (!defined(SW_NO_SIMD) && defined(__EMSCRIPTEN__) && defined(__wasm_simd128__) && defined(__SSE2__))
#define SW__SKIN_SSE2 1
#else
#define SW__SKIN_SSE2 0
#endif

static inline size_t sw__joint_size(sw_joint_format f) { return f == SW_JOINT_U8 ? 1 : 2; }

static inline size_t sw__weight_size(sw_weight_format f) {
    return f == SW_WEIGHT_U8_NORM ? 1 : f == SW_WEIGHT_U16_NORM ? 2 : 4;
}

static inline sw_joint_format sw__joint_format(const sw_skin_job* job) {
    return job->joint_format == SW_JOINT_FORMAT_DEFAULT ? SW_JOINT_U16 : job->joint_format;
}

static inline sw_weight_format sw__weight_format(const sw_skin_job* job) {
    return job->weight_format == SW_WEIGHT_FORMAT_DEFAULT ? SW_WEIGHT_F32 : job->weight_format;
}

static inline size_t sw__or(size_t stride, size_t fallback) { return stride ? stride : fallback; }

static inline sw_vertex_format sw__vertex_format(sw_vertex_format f) {
    return f == SW_VERTEX_FORMAT_DEFAULT ? SW_VERTEX_F32 : f;
}
/* Bytes per vertex of the position, normal and output normal streams. */
static inline size_t sw__in_pos_size(const sw_skin_job* job) {
    return sw__vertex_format(job->position_format) == SW_VERTEX_S16 ? 8 : 12;
}
static inline size_t sw__in_nrm_size(const sw_skin_job* job) {
    return sw__vertex_format(job->normal_format) == SW_VERTEX_OCT16 ? 4 : 12;
}
static inline size_t sw__out_nrm_size(const sw_skin_job* job) {
    return sw__vertex_format(job->out_normal_format) == SW_VERTEX_INT_2_10_10_10 ? 4 : 12;
}
/* Does a job read or write a quantised stream? */
static inline bool sw__job_quantized(const sw_skin_job* job) {
    return sw__vertex_format(job->position_format) != SW_VERTEX_F32 ||
           sw__vertex_format(job->normal_format) != SW_VERTEX_F32 ||
           sw__vertex_format(job->out_normal_format) != SW_VERTEX_F32;
}

/* Weights stored per vertex: influence_count, or one fewer when the last is implied. */
static inline int sw__stored_weights(const sw_skin_job* job) {
    return job->influence_count - (job->last_weight_implied ? 1 : 0);
}

/* Every stride of a job with its default resolved. */
typedef struct sw__strides {
    size_t joints, weights, in_pos, out_pos, in_nrm, out_nrm, in_tan, out_tan;
} sw__strides;

static inline sw__strides sw__resolve_strides(const sw_skin_job* job) {
    size_t n = (size_t)job->influence_count;
    sw__strides s;
    s.joints = sw__or(job->joints_stride, n * sw__joint_size(sw__joint_format(job)));
    s.weights = sw__or(job->weights_stride, (size_t)sw__stored_weights(job) * sw__weight_size(sw__weight_format(job)));
    s.in_pos = sw__or(job->in_positions_stride, sw__in_pos_size(job));
    s.out_pos = sw__or(job->out_positions_stride, 12);
    s.in_nrm = sw__or(job->in_normals_stride, sw__in_nrm_size(job));
    s.out_nrm = sw__or(job->out_normals_stride, sw__out_nrm_size(job));
    s.in_tan = sw__or(job->in_tangents_stride, 16);
    s.out_tan = sw__or(job->out_tangents_stride, 16);
    return s;
}

/* A validated job as the SIMD kernels read it: byte pointers already moved
   to the first vertex of the range, strides resolved. */
typedef struct sw__skin_streams {
    size_t count;                       /* vertices in the range */
    int influence_count;
    sw_joint_format joint_format;       /* resolved: U8 or U16 */
    sw_weight_format weight_format;     /* resolved: F32, U8_NORM or U16_NORM */
    bool dqs, cofactor;
    bool implied;                       /* last_weight_implied */
    bool unnormalized;                  /* normals and tangents left unnormalised */
    bool qpos, qnrm, pack_nrm;          /* S16 positions, OCT16 normals, INT_2_10_10_10 output normals */
    int finite;                         /* skipping zero weights allowed (1), not (0), or the kernel decides (-1) */
    uint32_t joint_count;               /* indices ≥ this read joint 0 */
    uint32_t palette_strides[2];        /* sizeof(sw_mat34), sizeof(sw_dualquat) */
    bool packed;                        /* every stream at its packed stride */
    const unsigned char* linear;        /* LBS: matrices; DQS: stretch or NULL */
    const unsigned char* dual_quats;    /* DQS only */
    const unsigned char* joints;        size_t joints_stride;
    const unsigned char* weights;       size_t weights_stride;
    const unsigned char* in_pos;        size_t in_pos_stride;
    unsigned char* out_pos;             size_t out_pos_stride;
    const unsigned char* in_nrm;        size_t in_nrm_stride;   /* NULL = no normals */
    unsigned char* out_nrm;             size_t out_nrm_stride;
    const unsigned char* in_tan;        size_t in_tan_stride;   /* NULL = no tangents */
    unsigned char* out_tan;             size_t out_tan_stride;
} sw__skin_streams;

static inline sw__skin_streams sw__skin_streams_make(const sw_skin_job* job, size_t first, size_t count) {
    const sw__strides st = sw__resolve_strides(job);
    sw__skin_streams s;
    s.count = count;
    s.influence_count = job->influence_count;
    s.joint_format = sw__joint_format(job);
    s.weight_format = sw__weight_format(job);
    s.dqs = job->method == SW_SKIN_DQS;
    s.cofactor = job->normal_mode == SW_NORMALS_COFACTOR;
    s.implied = job->last_weight_implied;
    s.unnormalized = job->unnormalized;
    s.qpos = sw__vertex_format(job->position_format) == SW_VERTEX_S16;
    /* The normal formats matter only with normals (a positions-only pass over a quantised layout keeps them). */
    s.qnrm = job->in_normals && sw__vertex_format(job->normal_format) == SW_VERTEX_OCT16;
    s.pack_nrm = job->out_normals && sw__vertex_format(job->out_normal_format) == SW_VERTEX_INT_2_10_10_10;
    s.finite = -1;
    s.joint_count = (uint32_t)job->joint_count;
    s.linear = (const unsigned char*)(s.dqs ? job->stretch : job->matrices);
    s.dual_quats = (const unsigned char*)job->dual_quats;
    s.joints = (const unsigned char*)job->joints + first * st.joints;
    s.joints_stride = st.joints;
    /* No stored weights (one influence, implied): a valid pointer all the
       same, so the kernels' offsets and zero-length copies stay defined. */
    static const unsigned char no_weights[4];
    s.weights = job->weights ? (const unsigned char*)job->weights + first * st.weights : no_weights;
    s.weights_stride = st.weights;
    s.in_pos = (const unsigned char*)job->in_positions + first * st.in_pos;
    s.in_pos_stride = st.in_pos;
    s.out_pos = (unsigned char*)job->out_positions + first * st.out_pos;
    s.out_pos_stride = st.out_pos;
    s.in_nrm = job->in_normals ? (const unsigned char*)job->in_normals + first * st.in_nrm : NULL;
    s.in_nrm_stride = st.in_nrm;
    s.out_nrm = job->out_normals ? (unsigned char*)job->out_normals + first * st.out_nrm : NULL;
    s.out_nrm_stride = st.out_nrm;
    s.in_tan = job->in_tangents ? (const unsigned char*)job->in_tangents + first * st.in_tan : NULL;
    s.in_tan_stride = st.in_tan;
    s.out_tan = job->out_tangents ? (unsigned char*)job->out_tangents + first * st.out_tan : NULL;
    s.out_tan_stride = st.out_tan;
    s.palette_strides[0] = (uint32_t)sizeof(sw_mat34);
    s.palette_strides[1] = (uint32_t)sizeof(sw_dualquat);
    s.packed = st.joints == (size_t)s.influence_count * sw__joint_size(s.joint_format) &&
               st.weights == (size_t)sw__stored_weights(job) * sw__weight_size(s.weight_format) && st.in_pos == 12 &&
               st.out_pos == 12 && (!s.in_nrm || (st.in_nrm == 12 && st.out_nrm == 12)) &&
               (!s.in_tan || (st.in_tan == 16 && st.out_tan == 16));
    return s;
}

/* A SIMD kernel's view of a run: byte strides (joints, weights, input
   position, normal, tangent, output position, normal, tangent; constants
   in packed loops), and the first vertex of a block in every stream. */
typedef struct sw__block_strides {
    size_t j, w, ip, in, it, op, on, ot;
    size_t wsrc; /* the weight stream's own stride (w is what the blend reads: 4·n floats once decoded) */
} sw__block_strides;

typedef struct sw__block_ptrs {
    const unsigned char *jp, *wp, *ip, *in, *it;
    unsigned char *op, *on, *ot;
} sw__block_ptrs;

/* Stored weights per vertex (n, or n − 1 with the last implied), and their bytes. */
static inline int sw__stored_count(int n, bool implied) { return n - (implied ? 1 : 0); }
static inline size_t sw__weights_bytes(int n, sw_weight_format wf, bool implied) {
    return (size_t)sw__stored_count(n, implied) * sw__weight_size(wf);
}

/* Does a kernel decode the weights before blending (anything but f32 weights, all stored)? */
static inline bool sw__weights_decoded(sw_weight_format wf, bool implied) { return wf != SW_WEIGHT_F32 || implied; }

/* A SIMD kernel's last count % 4 vertices, copied into one packed block
   (spare lanes repeat the last vertex), run there by the kernel's block
   code, then copied back: the same bits as in a whole block. */
typedef struct sw__tail_block {
    unsigned char joints[4 * 2 * SW_MAX_INFLUENCES], weights[4 * 4 * SW_MAX_INFLUENCES];
    unsigned char pos[4 * 12], nrm[4 * 12], tan[4 * 16];
    sw__block_ptrs ptrs;       /* into the arrays above (normals, tangents NULL when unused) */
    sw__block_strides strides; /* packed */
} sw__tail_block;

static inline void sw__tail_gather(sw__tail_block* t, const sw__block_ptrs* p, const sw__block_strides* s,
                                   size_t count, int n, sw_joint_format jf, sw_weight_format wf, bool implied,
                                   bool normals, bool tangents) {
    const size_t js = (size_t)n * sw__joint_size(jf), ws = sw__weights_bytes(n, wf, implied);
    for (size_t i = 0; i < 4; i++) {
        const size_t v = i < count ? i : count - 1;
        memcpy(t->joints + i * js, p->jp + v * s->j, js);
        memcpy(t->weights + i * ws, p->wp + v * s->wsrc, ws);
        memcpy(t->pos + i * 12, p->ip + v * s->ip, 12);
        if (normals) memcpy(t->nrm + i * 12, p->in + v * s->in, 12);
        if (tangents) memcpy(t->tan + i * 16, p->it + v * s->it, 16);
    }
    const sw__block_ptrs q = {t->joints, t->weights, t->pos, normals ? t->nrm : NULL, tangents ? t->tan : NULL,
                              t->pos, normals ? t->nrm : NULL, tangents ? t->tan : NULL};
    const sw__block_strides packed = {js, ws, 12, 12, 16, 12, 12, 16, ws};
    t->ptrs = q;
    t->strides = packed;
}

static inline void sw__tail_scatter(const sw__tail_block* t, const sw__block_ptrs* p, const sw__block_strides* s,
                                    size_t count) {
    for (size_t i = 0; i < count; i++) {
        memcpy(p->op + i * s->op, t->pos + i * 12, 12);
        if (t->ptrs.on) memcpy(p->on + i * s->on, t->nrm + i * 12, 12);
        if (t->ptrs.ot) memcpy(p->ot + i * s->ot, t->tan + i * 16, 16);
    }
}

/* A kernel over a run of streams (one of the specialised SIMD loops). */
typedef void (*sw__skin_kernel_fn)(const sw__skin_streams* s);

/* Copies `count` elements of `size` bytes between strided streams; the
   common sizes are constants so each copy is one or two moves. */
static inline void sw__skin_copy(unsigned char* dst, size_t dst_stride, const unsigned char* src, size_t src_stride,
                                 size_t count, size_t size) {
#define SW__COPY(bytes) \
    for (size_t i = 0; i < count; i++) memcpy(dst + i * dst_stride, src + i * src_stride, bytes)
    switch (size) {
    case 4: SW__COPY(4); break;
    case 8: SW__COPY(8); break;
    case 12: SW__COPY(12); break;
    case 16: SW__COPY(16); break;
    case 32: SW__COPY(32); break;
    default: SW__COPY(size); break;
    }
#undef SW__COPY
}

/* Runs a packed-streams kernel on strided streams (interleaved vertex
   buffers): chunks of vertices are copied into packed buffers on the
   stack, skinned in place there and copied out. The kernel's arithmetic
   does not depend on the layout, so this gives the same bits as running it
   on the job directly. The caller decides for the whole range whether zero
   weights may be skipped (s->finite), so a chunk shorter than the scan
   threshold still skips. */
static inline void sw__skin_run_staged(const sw__skin_streams* s, sw__skin_kernel_fn kernel) {
    enum { CHUNK = 64 };
    unsigned char joints[CHUNK * 2 * SW_MAX_INFLUENCES], weights[CHUNK * 4 * SW_MAX_INFLUENCES];
    unsigned char pos[CHUNK * 12], nrm[CHUNK * 12], tan[CHUNK * 16];
    const size_t js = (size_t)s->influence_count * sw__joint_size(s->joint_format);
    const size_t ws = sw__weights_bytes(s->influence_count, s->weight_format, s->implied);
    for (size_t first = 0; first < s->count; first += CHUNK) {
        const size_t count = s->count - first < CHUNK ? s->count - first : CHUNK;
        sw__skin_copy(joints, js, s->joints + first * s->joints_stride, s->joints_stride, count, js);
        sw__skin_copy(weights, ws, s->weights + first * s->weights_stride, s->weights_stride, count, ws);
        sw__skin_copy(pos, 12, s->in_pos + first * s->in_pos_stride, s->in_pos_stride, count, 12);
        if (s->in_nrm) sw__skin_copy(nrm, 12, s->in_nrm + first * s->in_nrm_stride, s->in_nrm_stride, count, 12);
        if (s->in_tan) sw__skin_copy(tan, 16, s->in_tan + first * s->in_tan_stride, s->in_tan_stride, count, 16);
        sw__skin_streams t = *s;
        t.count = count;
        t.joints = joints;
        t.joints_stride = js;
        t.weights = weights;
        t.weights_stride = ws;
        t.in_pos = t.out_pos = pos;
        t.in_pos_stride = t.out_pos_stride = 12;
        t.in_nrm = t.out_nrm = s->in_nrm ? nrm : NULL;
        t.in_nrm_stride = t.out_nrm_stride = 12;
        t.in_tan = t.out_tan = s->in_tan ? tan : NULL;
        t.in_tan_stride = t.out_tan_stride = 16;
        t.packed = true;
        kernel(&t);
        sw__skin_copy(s->out_pos + first * s->out_pos_stride, s->out_pos_stride, pos, 12, count, 12);
        if (s->out_nrm) sw__skin_copy(s->out_nrm + first * s->out_nrm_stride, s->out_nrm_stride, nrm, 12, count, 12);
        if (s->out_tan) sw__skin_copy(s->out_tan + first * s->out_tan_stride, s->out_tan_stride, tan, 16, count, 16);
    }
}

/* The specialised kernels of one instruction set:
   [influence count 1, 2, 3, 4, 8][LBS u8 joints, LBS u16 joints, DQS]
   [streams: positions, + normals, + normals + tangents]. */
typedef sw__skin_kernel_fn sw__skin_kernel_table[5][3][3];

/* Defines the specialised kernels of one instruction set and their table,
   PREFIX_kernels: LBS(N, JOINT_FORMAT, NORMALS, TANGENTS, name) and
   DQS(N, NORMALS, TANGENTS, name) each define one kernel, named
   PREFIX_lbs_N_u8_p(n)(t), PREFIX_lbs_N_u16_p(n)(t) and PREFIX_dqs_N_p(n)(t). */
#define SW__SKIN_KERNEL_COUNT(P, LBS, DQS, N)                \
    LBS(N, SW_JOINT_U8, false, false, P##_lbs_##N##_u8_p)    \
    LBS(N, SW_JOINT_U8, true, false, P##_lbs_##N##_u8_pn)    \
    LBS(N, SW_JOINT_U8, true, true, P##_lbs_##N##_u8_pnt)    \
    LBS(N, SW_JOINT_U16, false, false, P##_lbs_##N##_u16_p)  \
    LBS(N, SW_JOINT_U16, true, false, P##_lbs_##N##_u16_pn)  \
    LBS(N, SW_JOINT_U16, true, true, P##_lbs_##N##_u16_pnt)  \
    DQS(N, false, false, P##_dqs_##N##_p)                    \
    DQS(N, true, false, P##_dqs_##N##_pn)                    \
    DQS(N, true, true, P##_dqs_##N##_pnt)
#define SW__SKIN_KERNEL_ROW(P, N)                                                     \
    {{P##_lbs_##N##_u8_p, P##_lbs_##N##_u8_pn, P##_lbs_##N##_u8_pnt},                 \
     {P##_lbs_##N##_u16_p, P##_lbs_##N##_u16_pn, P##_lbs_##N##_u16_pnt},              \
     {P##_dqs_##N##_p, P##_dqs_##N##_pn, P##_dqs_##N##_pnt}}
#define SW__SKIN_KERNEL_SET(P, LBS, DQS)                                                                  \
    SW__SKIN_KERNEL_COUNT(P, LBS, DQS, 1)                                                                 \
    SW__SKIN_KERNEL_COUNT(P, LBS, DQS, 2)                                                                 \
    SW__SKIN_KERNEL_COUNT(P, LBS, DQS, 3)                                                                 \
    SW__SKIN_KERNEL_COUNT(P, LBS, DQS, 4)                                                                 \
    SW__SKIN_KERNEL_COUNT(P, LBS, DQS, 8)                                                                 \
    static const sw__skin_kernel_table P##_kernels = {SW__SKIN_KERNEL_ROW(P, 1), SW__SKIN_KERNEL_ROW(P, 2), \
                                                      SW__SKIN_KERNEL_ROW(P, 3), SW__SKIN_KERNEL_ROW(P, 4), \
                                                      SW__SKIN_KERNEL_ROW(P, 8)};

enum { SW__SKIN_SCAN_RATIO = 4 /* the palette scan runs when the range has ≥ this many vertices per joint */ };

bool sw__skin_rows_finite(const unsigned char* p, size_t rows);

/* Runs a job's vertex range with the specialised kernel that fits it
   (blended normals, 1–4 or 8 influences, DQS without stretch; positions,
   + normals, + normals + tangents; any weight format), through packed
   copies when its streams are strided; anything else with `generic`. */
static inline void sw__skin_dispatch(const sw_skin_job* job, size_t first, size_t count,
                                     const sw__skin_kernel_table kernels, sw__skin_kernel_fn generic) {
    sw__skin_streams s = sw__skin_streams_make(job, first, count);
    static const int count_slot[SW_MAX_INFLUENCES + 1] = {-1, 0, 1, 2, 3, -1, -1, -1, 4};
    const int slot = count_slot[s.influence_count];
    if (slot < 0 || s.cofactor || (s.dqs && s.linear) || (s.in_tan && !s.in_nrm)) {
        generic(&s);
        return;
    }
    const int method = s.dqs ? 2 : s.joint_format == SW_JOINT_U16;
    const sw__skin_kernel_fn kernel = kernels[slot][method][s.in_tan ? 2 : s.in_nrm ? 1 : 0];
    if (s.packed) {
        kernel(&s);
        return;
    }
    /* Staged: may zero weights be skipped? Decided once for the range. */
    s.finite = count >= (size_t)SW__SKIN_SCAN_RATIO * s.joint_count &&
               (s.dqs ? sw__skin_rows_finite(s.dual_quats, (size_t)s.joint_count * 2)
                      : sw__skin_rows_finite(s.linear, (size_t)s.joint_count * 3));
    sw__skin_run_staged(&s, kernel);
}

#if SW__SKIN_SSE2
#include <emmintrin.h>

/* Four float3 given as x, y, z across the lanes of SSE registers (one
   vertex per lane), stored at p: 48 bytes when packed, else 12 bytes
   `stride` apart. Shared by the SSE2 and AVX2 kernels: inlined into each,
   it takes each one's instruction encoding. */
static inline __attribute__((always_inline)) void sw__store_float3x4(unsigned char* p, size_t stride, bool packed,
                                                                    __m128 x, __m128 y, __m128 z) {
    __m128 xy01 = _mm_unpacklo_ps(x, y), xy23 = _mm_unpackhi_ps(x, y);
    if (packed) {
        /* [x0 y0 z0 x1] [y1 z1 x2 y2] [z2 x3 y3 z3] */
        __m128 o0 = _mm_shuffle_ps(xy01, _mm_shuffle_ps(z, x, _MM_SHUFFLE(1, 1, 0, 0)), _MM_SHUFFLE(2, 0, 1, 0));
        __m128 o1 = _mm_shuffle_ps(_mm_shuffle_ps(xy01, z, _MM_SHUFFLE(1, 1, 3, 3)), xy23, _MM_SHUFFLE(1, 0, 2, 0));
        __m128 o2 = _mm_shuffle_ps(_mm_shuffle_ps(z, xy23, _MM_SHUFFLE(2, 2, 2, 2)),
                                   _mm_shuffle_ps(xy23, z, _MM_SHUFFLE(3, 3, 3, 3)), _MM_SHUFFLE(2, 0, 2, 0));
        _mm_storeu_ps((float*)(void*)p, o0);
        _mm_storeu_ps((float*)(void*)(p + 16), o1);
        _mm_storeu_ps((float*)(void*)(p + 32), o2);
        return;
    }
    _mm_storel_pi((__m64*)(void*)p, xy01);
    _mm_storeh_pi((__m64*)(void*)(p + stride), xy01);
    _mm_storel_pi((__m64*)(void*)(p + 2 * stride), xy23);
    _mm_storeh_pi((__m64*)(void*)(p + 3 * stride), xy23);
    _mm_store_ss((float*)(void*)(p + 8), z);
    _mm_store_ss((float*)(void*)(p + stride + 8), _mm_shuffle_ps(z, z, 0x55));
    _mm_store_ss((float*)(void*)(p + 2 * stride + 8), _mm_shuffle_ps(z, z, 0xAA));
    _mm_store_ss((float*)(void*)(p + 3 * stride + 8), _mm_shuffle_ps(z, z, 0xFF));
}

/* The weights of a block of four vertices, decoded (any format; the last
   implied or not) exactly as the scalar kernel decodes them: c / 255 or
   c / 65535 (a vector division, correctly rounded like the scalar one), an
   implied last weight 1 − (((w₀ + w₁) + …) + w_{n−2}) in that order.
   aos: the weights as packed floats, n per vertex (aos[i·n + k]), for the
   kernels' f32 code; used: bit k set where weight k is not zero (its bits)
   in some vertex; ones: weight 0 exactly 1 in all four. */
typedef struct sw__weights4 {
    float aos[4 * SW_MAX_INFLUENCES] __attribute__((aligned(16)));
    uint32_t used;
    bool ones; /* weight 0 is exactly 1 in all four vertices */
} sw__weights4;

/* Exactly `bytes` (4, 8, 12, 16 or 24) from p, in lo (first 16) and hi. */
static inline __attribute__((always_inline)) void sw__load_exact(const unsigned char* p, int bytes, __m128i* lo,
                                                                 __m128i* hi) {
    int32_t a;
    memcpy(&a, p + (bytes >= 12 && bytes < 16 ? 8 : 0), 4);
    *hi = _mm_setzero_si128();
    if (bytes == 4) *lo = _mm_cvtsi32_si128(a);
    else if (bytes == 8) *lo = _mm_loadl_epi64((const __m128i*)(const void*)p);
    else if (bytes == 12) *lo = _mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i*)(const void*)p), _mm_cvtsi32_si128(a));
    else *lo = _mm_loadu_si128((const __m128i*)(const void*)p);
    if (bytes == 24) *hi = _mm_loadl_epi64((const __m128i*)(const void*)(p + 16));
}

static inline __attribute__((always_inline)) void sw__decode_weights4(sw__weights4* SW_RESTRICT d,
                                                                      const unsigned char* wp, size_t stride,
                                                                      bool packed, int n, sw_weight_format wf,
                                                                      bool implied) {
    const int m = sw__stored_count(n, implied);
    const __m128 zero = _mm_setzero_ps();
    __m128 w[SW_MAX_INFLUENCES]; /* weight k of the four vertices, one per lane */
    for (int k = 0; k < n; k++) w[k] = zero;
    if (packed && implied && wf != SW_WEIGHT_F32 && n <= 4) {
        /* The compact layout: the block's 4·m codes are contiguous, loaded
           exactly, widened, converted, divided, then split by influence. */
        __m128 f[3] = {zero, zero, zero};
        if (m > 0) {
            __m128i lo, hi;
            const __m128i z = _mm_setzero_si128();
            sw__load_exact(wp, 4 * m * (wf == SW_WEIGHT_U8_NORM ? 1 : 2), &lo, &hi);
            if (wf == SW_WEIGHT_U8_NORM) hi = _mm_unpackhi_epi8(lo, z), lo = _mm_unpacklo_epi8(lo, z);
            const __m128i c[3] = {_mm_unpacklo_epi16(lo, z), _mm_unpackhi_epi16(lo, z), _mm_unpacklo_epi16(hi, z)};
            const __m128 scale = _mm_set1_ps(wf == SW_WEIGHT_U8_NORM ? 255.0f : 65535.0f);
            for (int v = 0; v < m; v++) f[v] = _mm_div_ps(_mm_cvtepi32_ps(c[v]), scale);
        }
        if (m == 1) {
            w[0] = f[0];
        } else if (m == 2) { /* [a0 a1 b0 b1] [c0 c1 d0 d1] */
            w[0] = _mm_shuffle_ps(f[0], f[1], _MM_SHUFFLE(2, 0, 2, 0));
            w[1] = _mm_shuffle_ps(f[0], f[1], _MM_SHUFFLE(3, 1, 3, 1));
        } else if (m == 3) { /* [a0 a1 a2 b0] [b1 b2 c0 c1] [c2 d0 d1 d2] */
            const __m128 a = f[0], b = f[1], c = f[2];
            const __m128 b2c1 = _mm_shuffle_ps(b, c, _MM_SHUFFLE(0, 1, 0, 2));
            const __m128 a1b0 = _mm_shuffle_ps(a, b, _MM_SHUFFLE(0, 0, 0, 1));
            const __m128 b3c2 = _mm_shuffle_ps(b, c, _MM_SHUFFLE(0, 2, 0, 3));
            const __m128 a2b1 = _mm_shuffle_ps(a, b, _MM_SHUFFLE(0, 1, 0, 2));
            w[0] = _mm_shuffle_ps(a, b2c1, _MM_SHUFFLE(2, 0, 3, 0));
            w[1] = _mm_shuffle_ps(a1b0, b3c2, _MM_SHUFFLE(2, 0, 2, 0));
            w[2] = _mm_shuffle_ps(a2b1, c, _MM_SHUFFLE(3, 0, 2, 0));
        }
    } else {
        /* Anything else, a weight at a time (the generic loop, 5–8 influences). */
        float f[4][SW_MAX_INFLUENCES];
        for (int i = 0; i < 4; i++)
            for (int k = 0; k < m; k++) {
                const unsigned char* c = wp + (size_t)i * stride;
                if (wf == SW_WEIGHT_F32) {
                    memcpy(&f[i][k], c + 4 * k, 4);
                } else if (wf == SW_WEIGHT_U8_NORM) {
                    f[i][k] = sw_unorm8_to_float(c[k]);
                } else {
                    uint16_t v;
                    memcpy(&v, c + 2 * k, 2);
                    f[i][k] = sw_unorm16_to_float(v);
                }
            }
        for (int k = 0; k < m; k++) w[k] = _mm_setr_ps(f[0][k], f[1][k], f[2][k], f[3][k]);
    }
    if (implied) {
        __m128 sum = m > 0 ? w[0] : zero;
        for (int k = 1; k < m; k++) sum = _mm_add_ps(sum, w[k]);
        w[n - 1] = m > 0 ? _mm_sub_ps(_mm_set1_ps(1.0f), sum) : _mm_set1_ps(1.0f);
    }
    /* used: the weights' bits ORed over the four vertices, one influence per
       lane, then compared with zero once (n = 1 never skips: not needed).
       With the last weight implied every influence counts as used: the
       compact layout stores no zero weight, so there is nothing to skip. */
    const __m128i zi = _mm_setzero_si128();
#define SW__USED(any, lanes)                                                                                      \
    (implied ? (1u << (lanes)) - 1u                                                                               \
             : (~(uint32_t)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(_mm_castps_si128(any), zi)))) &      \
                   ((1u << (lanes)) - 1u))
    if (n == 1) {
        d->used = 1u;
        _mm_store_ps(d->aos, w[0]);
    } else if (n == 2) {
        const __m128 lo = _mm_unpacklo_ps(w[0], w[1]), hi = _mm_unpackhi_ps(w[0], w[1]);
        _mm_store_ps(d->aos, lo);
        _mm_store_ps(d->aos + 4, hi);
        const __m128 any = _mm_or_ps(lo, hi);
        d->used = SW__USED(_mm_or_ps(any, _mm_movehl_ps(any, any)), 2);
    } else if (n == 3) {
        sw__store_float3x4((unsigned char*)d->aos, 12, true, w[0], w[1], w[2]);
        const __m128 x = _mm_or_ps(_mm_unpacklo_ps(w[0], w[1]), _mm_unpackhi_ps(w[0], w[1]));
        __m128 y = _mm_or_ps(w[2], _mm_movehl_ps(w[2], w[2]));
        y = _mm_or_ps(y, _mm_shuffle_ps(y, y, _MM_SHUFFLE(1, 1, 1, 1)));
        d->used = SW__USED(_mm_movelh_ps(_mm_or_ps(x, _mm_movehl_ps(x, x)), y), 3);
    } else if (n % 4 == 0) {
        uint32_t used = 0;
        for (int g = 0; g < n; g += 4) {
            __m128 t0 = _mm_unpacklo_ps(w[g], w[g + 1]), t1 = _mm_unpackhi_ps(w[g], w[g + 1]);
            __m128 t2 = _mm_unpacklo_ps(w[g + 2], w[g + 3]), t3 = _mm_unpackhi_ps(w[g + 2], w[g + 3]);
            const __m128 r0 = _mm_movelh_ps(t0, t2), r1 = _mm_movehl_ps(t2, t0);
            const __m128 r2 = _mm_movelh_ps(t1, t3), r3 = _mm_movehl_ps(t3, t1);
            _mm_storeu_ps(d->aos + g, r0);
            _mm_storeu_ps(d->aos + n + g, r1);
            _mm_storeu_ps(d->aos + 2 * n + g, r2);
            _mm_storeu_ps(d->aos + 3 * n + g, r3);
            used |= SW__USED(_mm_or_ps(_mm_or_ps(r0, r1), _mm_or_ps(r2, r3)), 4) << g;
        }
        d->used = used;
    } else {
        float soa[SW_MAX_INFLUENCES][4];
        uint32_t used = 0;
        for (int k = 0; k < n; k++) {
            _mm_storeu_ps(soa[k], w[k]);
            __m128 any = _mm_or_ps(w[k], _mm_movehl_ps(w[k], w[k]));
            used |= SW__USED(_mm_or_ps(any, _mm_shuffle_ps(any, any, _MM_SHUFFLE(1, 1, 1, 1))), 1) << k;
        }
        for (int i = 0; i < 4; i++)
            for (int k = 0; k < n; k++) d->aos[i * n + k] = soa[k][i];
        d->used = used;
    }
#undef SW__USED
    d->ones = _mm_movemask_ps(_mm_castsi128_ps(
                  _mm_cmpeq_epi32(_mm_castps_si128(w[0]), _mm_set1_epi32(0x3F800000)))) == 0xF;
}

/* Vertices first .. first+count-1 of a validated job; the caller has checked
   that the CPU runs the kernel. */
void sw__skin_run_sse2(const sw_skin_job* job, size_t first, size_t count);
void sw__skin_run_avx2(const sw_skin_job* job, size_t first, size_t count);
void sw__skin_run_avx2_rows(const sw_skin_job* job, size_t first, size_t count);
/* The columns shape (skin_columns.c); jobs it does not cover go to the above. */
void sw__skin_run_sse2_columns(const sw_skin_job* job, size_t first, size_t count);
void sw__skin_run_avx2_columns(const sw_skin_job* job, size_t first, size_t count);

/* Helpers of both SIMD kernels (SSE2, in skin_sse2.c). Are all `count`
   packed joint indices at jp below joint_count? */
bool sw__skin_joints_in_range(const unsigned char* jp, size_t count, sw_joint_format jf, uint32_t joint_count);
/* sw__skin_rows_finite (above): are the `rows` 16-byte rows of floats at p
   (3 per sw_mat34, 2 per sw_dualquat) all finite? Skipping a zero weight
   is exact only then (0·∞ is NaN). */
#endif

#endif
