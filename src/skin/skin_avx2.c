/* CPU skinning, AVX2 + FMA kernels (see sinew/skin.h and skin_internal.h).

   Compiled into every x86-64 build with per-function target attributes, so
   the library still runs on any x86-64 CPU; sw_skin_job_run calls it only
   where sw_skin_kernel_best() found AVX2 and FMA (and the OS saves YMM).

   Vertices go through in blocks of four, each in its own lane of every SIMD
   step, so a vertex's bits depend neither on its neighbours nor on where a
   range starts (the last count % 4 vertices run the same code on a copy):

   1. offsets: the block's joint indices widened 8 at a time, checked (an
      index ≥ joint_count reads joint 0, as in the scalar kernel) and scaled
      to byte offsets into the caller's palette; the skipping LBS loops
      instead check the block's indices with one saturating subtraction
      and scale each index as its influence is reached, on the integer
      units (the vector units are what bound this kernel);
   2. per vertex, the blended rows as [r0 | r1] and [r1 | r2]: two 8-wide
      FMAs per influence, reading the caller's 48-byte matrices in place
      (a stateless job has nowhere to keep an aligned copy); specialised
      loops stop at the block's last non-zero weight (importers pad every
      vertex to 4 or 8 influences), as the SSE2 kernel does, and every
      output gets + 0 so the bits do not depend on the block;
   3. per vertex, elementwise products of [r0 | n1], [r1 | n2], [r2 | n0]
      (n: the same rows, or the cofactor's) with V = [p, 1 | n, 0]; for the
      block, two levels of HADDPS leave one vertex per lane:
      [x | ny], [y | nz], [z | nx];
   4. DQS: the dual quaternions blended with their signs, as structure of
      arrays (one vertex per lane), then the rotation and translation of
      the lanes (after the stretch, which is step 2–3 with the stretch
      palette); no square root: |real|² divides instead;
   5. normals and tangents normalised four or eight at a time (one SQRT and
      one DIV a block; with tangents the factors are computed in stage 1),
      scaled and given their + 0 in one FMA, then stored: 48 bytes a block
      for packed float3 streams, else 8 + 4 bytes a vertex; nothing is
      written past a vertex, so threads can own neighbouring vertices.

   No DPPS and no masked stores (several cycles each on Zen 4). The loop is
   software pipelined by one block (steps 1–4a of block b before steps 4b–5
   of block b−1) so the out-of-order core overlaps the long dependency
   chains of one block with the loads of the next.

   Specialised loops (influence count, streams and packed strides known at
   compile time) cover blended normals, 1, 2, 3, 4 or 8 influences and the
   stream sets positions, positions + normals and positions + normals +
   tangents; positions alone take the same steps without the normal half
   ([r0·p | r1·p], [r1·p | r2·p]), so their bits are those of the job with
   normals. Weights other than n f32 per vertex (integer, or the last
   implied as in the compact layout) are decoded a block at a time into
   f32 (sw__decode_weights4), the same floats the scalar kernel decodes.
   Strided streams reach the loops through packed copies
   (sw__skin_run_staged). Everything else runs the generic loop, made of the
   same inline steps in the same order, so all give the same bits.

   SW_SKIN_KERNEL_AVX2 also runs a third shape on the importer's layout
   (packed, 4 influences, f32 weights, a finite palette): blocks of eight
   vertices that share their joint indices, with each palette entry
   broadcast and no horizontal adds ("the broadcast shape" below); the
   others take the row loops in runs. SW_SKIN_KERNEL_AVX2_ROWS is the row
   shape alone. */
#include "skin_internal.h"

#if SW__SKIN_X86

#include <immintrin.h>
#include <string.h>

#define SW__AVX2 __attribute__((target("avx2,fma")))
/* Forced inlining and unrolling make the specialised copies; without
   optimisation (debug, sanitizers) they only multiply the code to compile
   and instrument, so there the helpers stay functions (skin_sse2.c). */
#if defined(__OPTIMIZE__)
#define SW__INLINE static inline __attribute__((always_inline)) SW__AVX2
#else
#define SW__INLINE static inline SW__AVX2
#endif
/* Loops over influences, lanes and the block's vertices unrolled in
   optimised builds (at -O2 GCC keeps some, and their arrays of vectors
   then live in memory). */
#if defined(__clang__) || !defined(__OPTIMIZE__)
#define SW__UNROLL /* Clang unrolls these at -O2 already */
#else
#define SW__UNROLL _Pragma("GCC unroll 8")
#endif
/* One shared copy: no inlining, and no clones specialised per caller. */
#if defined(__clang__)
#define SW__SHARED __attribute__((noinline)) SW__AVX2 static
#else
#define SW__SHARED __attribute__((noinline, noclone)) SW__AVX2 static
#endif

enum { AVX2_BLOCK = 4 };

/* What a loop knows about a job. The specialised loops pass literals, so
   after inlining every branch on these fields disappears. */
typedef struct avx2_cfg {
    int n;                  /* influences */
    sw_joint_format jf;
    sw_weight_format wf;
    bool normals, tangents, dqs, cofactor;
    bool stretch;           /* DQS with a stretch palette */
    bool packed;            /* every stream at its packed stride */
    bool unnorm;            /* normals and tangents left unnormalised (run time) */
} avx2_cfg;

/* What stays the same over a run. */
typedef struct avx2_job {
    const unsigned char* linear;     /* LBS matrices, DQS stretch or NULL */
    const unsigned char* dual_quats;
    __m256i joint_count;             /* in every lane */
    __m256i scale_mat, scale_dq;     /* 48 and 32, opaque to the compiler so it emits VPMULLD */
    uint32_t row_scale, dq_scale;    /* 48 and 32 again, for scalar offsets (one IMUL rather than LEA + SHL) */
    __m256i joint_limit;             /* joint_count − 1 in every 8- and 16-bit lane, saturated */
    /* Weights other than n f32 per vertex are decoded a block at a time
       (sw__decode_weights4): the blend then reads f32 weights. */
    bool decode, implied;
    sw_weight_format wf;
} avx2_job;

/* ---- small helpers --------------------------------------------------------------- */

SW__INLINE uint32_t avx2_u16(const unsigned char* p) {
    uint16_t v;
    memcpy(&v, p, 2);
    return v;
}

SW__INLINE uint32_t avx2_u32(const unsigned char* p) {
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

SW__INLINE const float* avx2_f(const unsigned char* p) { return (const float*)(const void*)p; }

/* x, y, z of a float3 with w = 0, reading exactly 12 bytes (a load never
   faults or races on the next vertex). */
SW__INLINE __m128 avx2_load3(const unsigned char* p) {
    return _mm_maskload_ps(avx2_f(p), _mm_setr_epi32(-1, -1, -1, 0));
}

/* ---- 1. offsets ------------------------------------------------------------------ */

/* Checked, scaled offsets of `count` indices (count a multiple of 4). */
SW__INLINE void avx2_offsets_flat(uint32_t* out, const unsigned char* jp, int count, sw_joint_format jf,
                                  __m256i joint_count, __m256i scale) {
    int k = 0;
    SW__UNROLL
    for (; k + 8 <= count; k += 8) {
        __m128i raw = jf == SW_JOINT_U8 ? _mm_loadl_epi64((const __m128i*)(const void*)(jp + k))
                                        : _mm_loadu_si128((const __m128i*)(const void*)(jp + 2 * k));
        __m256i idx = jf == SW_JOINT_U8 ? _mm256_cvtepu8_epi32(raw) : _mm256_cvtepu16_epi32(raw);
        idx = _mm256_and_si256(idx, _mm256_cmpgt_epi32(joint_count, idx));
        _mm256_storeu_si256((__m256i*)(void*)(out + k), _mm256_mullo_epi32(idx, scale));
    }
    if (k < count) {
        __m128i idx = jf == SW_JOINT_U8 ? _mm_cvtepu8_epi32(_mm_cvtsi32_si128((int)avx2_u32(jp + k)))
                                        : _mm_cvtepu16_epi32(_mm_loadl_epi64((const __m128i*)(const void*)(jp + 2 * k)));
        idx = _mm_and_si128(idx, _mm_cmpgt_epi32(_mm256_castsi256_si128(joint_count), idx));
        _mm_storeu_si128((__m128i*)(void*)(out + k), _mm_mullo_epi32(idx, _mm256_castsi256_si128(scale)));
    }
}

/* One vertex's offsets, for strided joint streams. */
SW__INLINE void avx2_offsets_vertex(uint32_t* out, const unsigned char* jp, int n, sw_joint_format jf,
                                    uint32_t joint_count, uint32_t scale) {
    for (int k = 0; k < n; k++) {
        uint32_t j = jf == SW_JOINT_U8 ? jp[k] : avx2_u16(jp + 2 * k);
        out[k] = j < joint_count ? j * scale : 0;
    }
}

/* Weight k, decoded exactly as the scalar kernel does. */
SW__INLINE float avx2_weight1(const unsigned char* wp, int k, sw_weight_format wf) {
    if (wf == SW_WEIGHT_F32) {
        float w;
        memcpy(&w, wp + 4 * k, 4);
        return w;
    }
    if (wf == SW_WEIGHT_U8_NORM) return (float)wp[k] / 255.0f;
    return (float)avx2_u16(wp + 2 * k) / 65535.0f;
}

/* Weight k in every lane, decoded exactly as the scalar kernel does. */
SW__INLINE __m256 avx2_weight(const unsigned char* wp, int k, sw_weight_format wf) {
    if (wf == SW_WEIGHT_F32) return _mm256_broadcast_ss(avx2_f(wp + 4 * k));
    if (wf == SW_WEIGHT_U8_NORM) return _mm256_set1_ps((float)wp[k] / 255.0f);
    return _mm256_set1_ps((float)avx2_u16(wp + 2 * k) / 65535.0f);
}

/* ---- 2. rows per vertex ------------------------------------------------------------ */

/* The rows one vertex is multiplied by: a01 = [r0 | r1] and a12 = [r1 | r2]
   are the affine map for positions and tangents. x01, x12, x20 pair its
   rows with the normal's so that V = [p, 1 | n, 0] gives [x | ny],
   [y | nz], [z | nx]: x01 = [r0 | n1], x12 = [r1 | n2], x20 = [r2 | n0],
   where n is the matrix itself (blended normals) or its cofactor; flip has
   the sign bit where det < 0 (cofactor: mirrored joints keep outward
   normals). */
typedef struct avx2_rows {
    __m256 x01, x12, x20;
    __m128 flip;
} avx2_rows;

/* a×b in each 128-bit lane; w is left as the products make it. */
#define SW__YZX _MM_SHUFFLE(3, 0, 2, 1)
SW__INLINE __m256 avx2_cross8(__m256 a, __m256 b) {
    __m256 c = _mm256_fmsub_ps(a, _mm256_permute_ps(b, SW__YZX), _mm256_mul_ps(_mm256_permute_ps(a, SW__YZX), b));
    return _mm256_permute_ps(c, SW__YZX);
}

SW__INLINE avx2_rows avx2_rows_make(__m256 a01, __m256 a12, bool cofactor) {
    avx2_rows r;
    __m256 a20 = _mm256_permute2f128_ps(a12, a01, 0x21);
    r.x01 = a01;
    r.x12 = a12;
    r.x20 = a20;
    r.flip = _mm_setzero_ps();
    if (cofactor) {
        /* cof(A) rows c0 = r1×r2, c1 = r2×r0, c2 = r0×r1; w cleared so
           translations stay out of the normal. */
        __m256 c01 = _mm256_blend_ps(avx2_cross8(a12, a20), _mm256_setzero_ps(), 0x88); /* [c0 | c1] */
        __m256 c20 = _mm256_blend_ps(avx2_cross8(a01, a12), _mm256_setzero_ps(), 0x88); /* [c2 | c0] */
        r.x01 = _mm256_blend_ps(a01, c01, 0xF0);
        r.x12 = _mm256_permute2f128_ps(a12, c20, 0x20);
        r.x20 = _mm256_blend_ps(a20, c20, 0xF0);
        __m128 det = _mm_mul_ps(_mm256_castps256_ps128(a01), _mm256_castps256_ps128(c01));
        det = _mm_add_ps(_mm_add_ps(det, _mm_permute_ps(det, 0x55)), _mm_permute_ps(det, 0xAA));
        r.flip = _mm_and_ps(_mm_cmplt_ps(_mm_permute_ps(det, 0x00), _mm_setzero_ps()), _mm_set1_ps(-0.0f));
    }
    return r;
}

/* Σ wₖ·palette[jₖ] in influence order for a pair of vertices (weights `ws`
   bytes apart), as [r0 | r1] and [r1 | r2]: two 8-wide FMAs per influence
   and vertex, reading the caller's palette. The palette offsets are
   off[h·n + k] (checked, see avx2_offsets_flat), or with from_joints
   jₖ · row_scale from jp (the pair's packed joints, known to be in
   range), computed as each influence is reached: on the integer units,
   not the vector ones, which bound this kernel. Influences past the highest of the first n bits of
   `used` are not blended (their weights are zero, see avx2_stage1);
   influences outermost, so that is one test per pair. */
SW__INLINE void avx2_blend_pair(const unsigned char* palette, const uint32_t* off, bool from_joints,
                                const unsigned char* jp, uint32_t row_scale, int n, const unsigned char* wp,
                                size_t ws, const avx2_cfg* c, uint32_t used, __m256* a01, __m256* a12) {
#define SW__OFFSET(h, k)                                                                                     \
    (from_joints                                                                                             \
         ? (c->jf == SW_JOINT_U8 ? (uint32_t)jp[(h) * n + (k)] : avx2_u16(jp + 2 * ((h) * n + (k)))) * row_scale \
         : off[(h) * n + (k)])
    /* Two bases, so each address is one add the compiler folds into the
       FMA's memory operand. */
    const unsigned char* row1 = palette + 16;
    SW__UNROLL
    for (int h = 0; h < 2; h++) {
        const __m256 w = avx2_weight(wp + h * ws, 0, c->wf);
        const uint32_t o = SW__OFFSET(h, 0);
        a01[h] = _mm256_mul_ps(w, _mm256_loadu_ps(avx2_f(palette + o)));
        a12[h] = _mm256_mul_ps(w, _mm256_loadu_ps(avx2_f(row1 + o)));
    }
    for (int k = 1; k < c->n; k++) {
        if ((used & ((1u << c->n) - 1u) & (~0u << k)) == 0) break; /* no weight k or later */
        SW__UNROLL
        for (int h = 0; h < 2; h++) {
            const __m256 w = avx2_weight(wp + h * ws, k, c->wf);
            const uint32_t o = SW__OFFSET(h, k);
            a01[h] = _mm256_fmadd_ps(w, _mm256_loadu_ps(avx2_f(palette + o)), a01[h]);
            a12[h] = _mm256_fmadd_ps(w, _mm256_loadu_ps(avx2_f(row1 + o)), a12[h]);
        }
    }
#undef SW__OFFSET
}

/* ---- DQS ------------------------------------------------------------------------------ */

/* 4×4 transpose in each 128-bit half. */
SW__INLINE void avx2_transpose4(__m256* v) {
    __m256 t0 = _mm256_unpacklo_ps(v[0], v[1]), t1 = _mm256_unpackhi_ps(v[0], v[1]);
    __m256 t2 = _mm256_unpacklo_ps(v[2], v[3]), t3 = _mm256_unpackhi_ps(v[2], v[3]);
    v[0] = _mm256_shuffle_ps(t0, t2, 0x44);
    v[1] = _mm256_shuffle_ps(t0, t2, 0xEE);
    v[2] = _mm256_shuffle_ps(t1, t3, 0x44);
    v[3] = _mm256_shuffle_ps(t1, t3, 0xEE);
}

/* Weight k of the block's four vertices, one per lane, in both halves. */
SW__INLINE __m256 avx2_weights_soa(const avx2_cfg* c, const sw__block_ptrs* p, const sw__block_strides* s,
                                   const __m256* w4, int k) {
    if (c->wf == SW_WEIGHT_F32 && c->packed && c->n % 4 == 0) return w4[k % 4 + 4 * (k / 4)];
    __m128 w = _mm_setr_ps(avx2_weight1(p->wp, k, c->wf), avx2_weight1(p->wp + s->w, k, c->wf),
                           avx2_weight1(p->wp + 2 * s->w, k, c->wf), avx2_weight1(p->wp + 3 * s->w, k, c->wf));
    return _mm256_insertf128_ps(_mm256_castps128_ps256(w), w, 1);
}

/* The block's Σ ±wₖ·dqₖ in influence order, as structure of arrays: one
   vertex per lane, real parts in the low halves and dual parts in the high
   halves of x, y, z, w. Each sign makes the real part's dot with the first
   influence's non-negative (Kavan's antipodality fix). */
SW__INLINE void avx2_blend_dual_quats(const avx2_job* job, const avx2_cfg* c, const sw__block_ptrs* p,
                                      const sw__block_strides* s, const uint32_t* off, bool from_joints,
                                      const unsigned char* jp, uint32_t used, __m256* acc) {
    const int n = c->n;
    /* The offsets as in avx2_blend_pair: from the table, or from the joints. */
#define SW__OFFSET(e) \
    (from_joints ? (c->jf == SW_JOINT_U8 ? (uint32_t)jp[e] : avx2_u16(jp + 2 * (e))) * job->dq_scale : off[e])
    __m256 w4[SW_MAX_INFLUENCES] = {_mm256_setzero_ps()};
    if (c->wf == SW_WEIGHT_F32 && c->packed && n % 4 == 0) {
        /* Packed f32 weights: four vertices' weights, transposed four at a time. */
        for (int g = 0; g < n; g += 4) {
            SW__UNROLL
            for (int i = 0; i < AVX2_BLOCK; i++)
                w4[g + i] = _mm256_broadcast_ps((const __m128*)(const void*)(p->wp + i * s->w + 4 * g));
            avx2_transpose4(w4 + g);
        }
    }
    __m256 pivot[4];
    SW__UNROLL
    for (int i = 0; i < AVX2_BLOCK; i++) pivot[i] = _mm256_loadu_ps(avx2_f(job->dual_quats + SW__OFFSET(i * n)));
    avx2_transpose4(pivot); /* [real x | dual x], ... over the four vertices */
    __m256 w0 = avx2_weights_soa(c, p, s, w4, 0);
    SW__UNROLL
    for (int j = 0; j < 4; j++) acc[j] = _mm256_mul_ps(w0, pivot[j]);
    for (int k = 1; k < n; k++) {
        if ((used & ((1u << n) - 1u) & (~0u << k)) == 0) break; /* no weight k or later (see avx2_blend_pair) */
        __m256 q[AVX2_BLOCK];
        SW__UNROLL
        for (int i = 0; i < AVX2_BLOCK; i++) q[i] = _mm256_loadu_ps(avx2_f(job->dual_quats + SW__OFFSET(i * n + k)));
        avx2_transpose4(q);
        __m256 w = avx2_weights_soa(c, p, s, w4, k);
        __m256 dot = _mm256_fmadd_ps(q[3], pivot[3], _mm256_fmadd_ps(q[2], pivot[2],
                                     _mm256_fmadd_ps(q[1], pivot[1], _mm256_mul_ps(q[0], pivot[0]))));
        __m256 neg = _mm256_cmp_ps(dot, _mm256_setzero_ps(), _CMP_LT_OQ);
        w = _mm256_xor_ps(w, _mm256_and_ps(_mm256_permute2f128_ps(neg, neg, 0x00), _mm256_set1_ps(-0.0f)));
        SW__UNROLL
        for (int j = 0; j < 4; j++) acc[j] = _mm256_fmadd_ps(w, q[j], acc[j]);
    }
#undef SW__OFFSET
}

/* a×b, a and b given as x, y, z across lanes. */
#define SW__CROSS(ax, ay, az, bx, by, bz, cx, cy, cz)                      \
    do {                                                                   \
        cx = _mm256_fmsub_ps(ay, bz, _mm256_mul_ps(az, by));               \
        cy = _mm256_fmsub_ps(az, bx, _mm256_mul_ps(ax, bz));               \
        cz = _mm256_fmsub_ps(ax, by, _mm256_mul_ps(ay, bx));               \
    } while (0)

/* Four blended dual quaternions as structure of arrays: u (real vector
   part), w (real scalar), d (dual vector part), dw (dual scalar), and
   s = 2/|real|². A zero real part gives the identity, as
   sw_dualquat_normalize does. */
typedef struct avx2_dq4 {
    __m256 ux, uy, uz, uw, dx, dy, dz, dw, s;
} avx2_dq4;

SW__INLINE avx2_dq4 avx2_dq_soa(const __m256* acc) {
    avx2_dq4 q;
    /* u and w in both halves; d and d_w in the low half only, so the
       translation below is zero in the normals' half. */
    q.ux = _mm256_permute2f128_ps(acc[0], acc[0], 0x00);
    q.uy = _mm256_permute2f128_ps(acc[1], acc[1], 0x00);
    q.uz = _mm256_permute2f128_ps(acc[2], acc[2], 0x00);
    q.uw = _mm256_permute2f128_ps(acc[3], acc[3], 0x00);
    q.dx = _mm256_permute2f128_ps(acc[0], acc[0], 0x81);
    q.dy = _mm256_permute2f128_ps(acc[1], acc[1], 0x81);
    q.dz = _mm256_permute2f128_ps(acc[2], acc[2], 0x81);
    q.dw = _mm256_permute2f128_ps(acc[3], acc[3], 0x81);
    __m256 len2 = _mm256_add_ps(_mm256_fmadd_ps(q.uy, q.uy, _mm256_mul_ps(q.ux, q.ux)),
                                _mm256_fmadd_ps(q.uw, q.uw, _mm256_mul_ps(q.uz, q.uz)));
    const __m256 ok = _mm256_cmp_ps(len2, _mm256_setzero_ps(), _CMP_GT_OQ);
    if (_mm256_movemask_ps(ok) != 0xFF) {
        /* Rare: the identity where the real part is zero. */
        q.ux = _mm256_and_ps(q.ux, ok);
        q.uy = _mm256_and_ps(q.uy, ok);
        q.uz = _mm256_and_ps(q.uz, ok);
        q.uw = _mm256_blendv_ps(_mm256_set1_ps(1.0f), q.uw, ok);
        q.dx = _mm256_and_ps(q.dx, ok);
        q.dy = _mm256_and_ps(q.dy, ok);
        q.dz = _mm256_and_ps(q.dz, ok);
        q.dw = _mm256_and_ps(q.dw, ok);
        len2 = _mm256_blendv_ps(_mm256_set1_ps(1.0f), len2, ok);
    }
    q.s = _mm256_div_ps(_mm256_set1_ps(2.0f), len2);
    return q;
}

/* Moves [p | n] (x, y, z across lanes, four vertices a half) by the blended
   dual quaternions: v + s·(w·(u×v) + u×(u×v)) rotates by real/|real|
   (sw_quat_rotate's formula for a unit quaternion), and positions also move
   by s·(w·d − d_w·u + u×d), the translation 2·(dual·conj(real)) of the
   normalised dual quaternion. The component of dual along real, which
   sw_dualquat_normalize removes, changes neither. */
SW__INLINE void avx2_dq_apply(const avx2_dq4* q, __m256* x, __m256* y, __m256* z, __m256* tx, __m256* ty, __m256* tz,
                              bool tangents) {
    /* The translation: zero in the normals' half, where d is zero. */
    __m256 cx, cy, cz;
    SW__CROSS(q->ux, q->uy, q->uz, q->dx, q->dy, q->dz, cx, cy, cz);
    __m256 mx = _mm256_mul_ps(q->s, _mm256_fmadd_ps(q->uw, q->dx, _mm256_fnmadd_ps(q->dw, q->ux, cx)));
    __m256 my = _mm256_mul_ps(q->s, _mm256_fmadd_ps(q->uw, q->dy, _mm256_fnmadd_ps(q->dw, q->uy, cy)));
    __m256 mz = _mm256_mul_ps(q->s, _mm256_fmadd_ps(q->uw, q->dz, _mm256_fnmadd_ps(q->dw, q->uz, cz)));

    __m256 ex, ey, ez;
    SW__CROSS(q->ux, q->uy, q->uz, *x, *y, *z, cx, cy, cz);
    SW__CROSS(q->ux, q->uy, q->uz, cx, cy, cz, ex, ey, ez);
    *x = _mm256_add_ps(_mm256_fmadd_ps(q->s, _mm256_fmadd_ps(q->uw, cx, ex), *x), mx);
    *y = _mm256_add_ps(_mm256_fmadd_ps(q->s, _mm256_fmadd_ps(q->uw, cy, ey), *y), my);
    *z = _mm256_add_ps(_mm256_fmadd_ps(q->s, _mm256_fmadd_ps(q->uw, cz, ez), *z), mz);
    if (tangents) {
        SW__CROSS(q->ux, q->uy, q->uz, *tx, *ty, *tz, cx, cy, cz);
        SW__CROSS(q->ux, q->uy, q->uz, cx, cy, cz, ex, ey, ez);
        *tx = _mm256_fmadd_ps(q->s, _mm256_fmadd_ps(q->uw, cx, ex), *tx);
        *ty = _mm256_fmadd_ps(q->s, _mm256_fmadd_ps(q->uw, cy, ey), *ty);
        *tz = _mm256_fmadd_ps(q->s, _mm256_fmadd_ps(q->uw, cz, ez), *tz);
    }
}

/* ---- 3.–5. one block of four vertices ---------------------------------------------------- */

/* Two sets of four float3 at once: the low lanes to p0, the high lanes to p1. */
/* x, y, z across lanes as packed float3, per 128-bit half (four vertices):
   o0 = [x0 y0 z0 x1], o1 = [y1 z1 x2 y2], o2 = [z2 x3 y3 z3]. */
SW__INLINE void avx2_interleave3(__m256 x, __m256 y, __m256 z, __m256* o0, __m256* o1, __m256* o2) {
    const __m256 xy01 = _mm256_unpacklo_ps(x, y), xy23 = _mm256_unpackhi_ps(x, y);
    *o0 = _mm256_shuffle_ps(xy01, _mm256_shuffle_ps(z, x, _MM_SHUFFLE(1, 1, 0, 0)), _MM_SHUFFLE(2, 0, 1, 0));
    *o1 = _mm256_shuffle_ps(_mm256_shuffle_ps(xy01, z, _MM_SHUFFLE(1, 1, 3, 3)), xy23, _MM_SHUFFLE(1, 0, 2, 0));
    *o2 = _mm256_shuffle_ps(_mm256_shuffle_ps(z, xy23, _MM_SHUFFLE(2, 2, 2, 2)),
                            _mm256_shuffle_ps(xy23, z, _MM_SHUFFLE(3, 3, 3, 3)), _MM_SHUFFLE(2, 0, 2, 0));
}

SW__INLINE void avx2_store_soa2(unsigned char* p0, size_t stride0, unsigned char* p1, size_t stride1, bool packed,
                                __m256 x, __m256 y, __m256 z) {
    if (packed) {
        __m256 o0, o1, o2;
        avx2_interleave3(x, y, z, &o0, &o1, &o2);
        _mm_storeu_ps((float*)(void*)p0, _mm256_castps256_ps128(o0));
        _mm_storeu_ps((float*)(void*)(p0 + 16), _mm256_castps256_ps128(o1));
        _mm_storeu_ps((float*)(void*)(p0 + 32), _mm256_castps256_ps128(o2));
        _mm_storeu_ps((float*)(void*)p1, _mm256_extractf128_ps(o0, 1));
        _mm_storeu_ps((float*)(void*)(p1 + 16), _mm256_extractf128_ps(o1, 1));
        _mm_storeu_ps((float*)(void*)(p1 + 32), _mm256_extractf128_ps(o2, 1));
        return;
    }
    sw__store_float3x4(p0, stride0, false, _mm256_castps256_ps128(x), _mm256_castps256_ps128(y),
                       _mm256_castps256_ps128(z));
    sw__store_float3x4(p1, stride1, false, _mm256_extractf128_ps(x, 1), _mm256_extractf128_ps(y, 1),
                       _mm256_extractf128_ps(z, 1));
}

/* 1/|v| from |v|², 0 where |v|² is not > 0 (zero-length vectors stay zero). */
SW__INLINE __m256 avx2_inv_length(__m256 len2) {
    __m256 inv = _mm256_div_ps(_mm256_set1_ps(1.0f), _mm256_sqrt_ps(len2));
    return _mm256_and_ps(inv, _mm256_cmp_ps(len2, _mm256_setzero_ps(), _CMP_GT_OQ));
}

/* 1/|v| of v = (x, y, z) across lanes, |v|² summed as z·z + (y·y + x·x). */
SW__INLINE __m256 avx2_inv_length3(__m256 x, __m256 y, __m256 z) {
    return avx2_inv_length(_mm256_fmadd_ps(z, z, _mm256_fmadd_ps(y, y, _mm256_mul_ps(x, x))));
}

/* Vertex i of a block: the rows its position, normal and tangent are
   multiplied by (LBS: the blended palette; DQS: the blended stretch), and
   their elementwise products with V = [p, 1 | n, 0] (ma, mb, mc) and with
   the tangent (mt, mt2). */
SW__INLINE void avx2_vertex_products(const avx2_cfg* c, const sw__block_ptrs* p, const sw__block_strides* s, int i,
                                     __m256 a01, __m256 a12, __m256* ma, __m256* mb, __m256* mc, __m256* mt,
                                     __m256* mt2, __m128* flip) {
    /* w of the position and the normal: 1 and 0. */
    const __m256 w10 = _mm256_setr_ps(0, 0, 0, 1, 0, 0, 0, 0);
    /* Every input of the block is read before the first store: outputs may
       be the inputs. In packed streams all but the block's last vertex load
       16 bytes, the extra 4 from the next vertex of the same block. */
    const bool wide = c->packed && i < AVX2_BLOCK - 1;
    __m128 pos = wide ? _mm_loadu_ps(avx2_f(p->ip + i * s->ip)) : avx2_load3(p->ip + i * s->ip);
    if (c->normals) {
        avx2_rows r = avx2_rows_make(a01, a12, c->cofactor);
        __m256 v = _mm256_castps128_ps256(pos);
        if (wide) {
            v = _mm256_blend_ps(_mm256_insertf128_ps(v, _mm_loadu_ps(avx2_f(p->in + i * s->in)), 1), w10, 0x88);
        } else {
            v = _mm256_or_ps(_mm256_insertf128_ps(v, avx2_load3(p->in + i * s->in), 1), w10);
        }
        *ma = _mm256_mul_ps(r.x01, v); /* [r0·p | n1·n] */
        *mb = _mm256_mul_ps(r.x12, v); /* [r1·p | n2·n] */
        *mc = _mm256_mul_ps(r.x20, v); /* [r2·p | n0·n] */
        *flip = r.flip;
    } else {
        /* [p, 1 | p, 1]: one load into both halves where 16 bytes may be
           read (1–3 % faster than a blend and a lane insert). */
        const __m256 w11 = _mm256_setr_ps(0, 0, 0, 1, 0, 0, 0, 1);
        __m256 pp;
        if (wide) {
            pp = _mm256_blend_ps(_mm256_broadcast_ps((const __m128*)(const void*)(p->ip + i * s->ip)), w11, 0x88);
        } else {
            pos = _mm_blend_ps(pos, _mm256_castps256_ps128(w11), 0x8);
            pp = _mm256_insertf128_ps(_mm256_castps128_ps256(pos), pos, 1);
        }
        *ma = _mm256_mul_ps(a01, pp); /* [r0·p | r1·p] */
        *mb = _mm256_mul_ps(a12, pp); /* [r1·p | r2·p] */
    }
    if (c->tangents) {
        __m128 t = _mm_blend_ps(_mm_loadu_ps(avx2_f(p->it + i * s->it)), _mm_setzero_ps(), 0x8);
        __m256 tt = _mm256_insertf128_ps(_mm256_castps128_ps256(t), t, 1);
        *mt = _mm256_mul_ps(a01, tt);  /* [r0·t | r1·t] */
        *mt2 = _mm256_mul_ps(a12, tt); /* [r1·t | r2·t] */
    }
}

/* The block's positions (low halves) and normals (high halves) as x, y, z
   across lanes, tangents as tx, ty, tz (low halves): normalise, store. */
/* The factors that normalise the normals and tangents: [1 | 1/|n|] for
   x, y, z = [p | n], or [1/|n| | 1/|t|] with tangents. */
SW__INLINE __m256 avx2_unit_scale(const avx2_cfg* c, __m256 x, __m256 y, __m256 z, __m256 tx, __m256 ty, __m256 tz) {
    if (!c->tangents) {
        return _mm256_blend_ps(avx2_inv_length3(x, y, z), _mm256_set1_ps(1.0f), 0x0F);
    }
    __m256 nx = _mm256_permute2f128_ps(x, tx, 0x21), ny = _mm256_permute2f128_ps(y, ty, 0x21);
    __m256 nz = _mm256_permute2f128_ps(z, tz, 0x21);
    return avx2_inv_length3(nx, ny, nz);
}

/* Every output gets + 0 (a −0 becomes +0, nothing else changes), so a
   block that skipped zero weights gives the same bits as one that blended
   them (see avx2_stage1): the skipped terms are zeros, and through sums
   and products a zero's sign can only reach the sign of a zero. */
SW__INLINE __m256 avx2_plus_zero(__m256 v) { return _mm256_add_ps(v, _mm256_setzero_ps()); }

/* v·f + 0 in one rounding, the bits of avx2_plus_zero(v·f): the exact
   product rounds as the multiply would, and + 0 changes only a −0. One
   FMA instead of a multiply and an add, and three cycles off the end of
   the normals' chain (3–4 % on positions + normals). */
SW__INLINE __m256 avx2_scale_plus_zero(__m256 v, __m256 f) { return _mm256_fmadd_ps(v, f, _mm256_setzero_ps()); }

/* The outputs' scale: unnormalised outputs only get + 0 (or their flipped
   sign, cofactor normals). */
SW__INLINE __m256 avx2_scale_output(const avx2_cfg* c, __m256 v, __m256 f) {
    return c->unnorm && !c->cofactor ? avx2_plus_zero(v) : avx2_scale_plus_zero(v, f);
}

/* unit: the normalising factors, or zero to compute them here. A rotation
   keeps lengths, so rigid DQS computes them from the inputs (in stage 1,
   off the chain of the rotation). */
SW__INLINE void avx2_finish(const avx2_cfg* c, const sw__block_ptrs* p, const sw__block_strides* s, __m256 x, __m256 y,
                            __m256 z, __m128 flip, __m256 tx, __m256 ty, __m256 tz, __m256 unit, bool have_unit) {
    if (c->normals && !c->tangents) {
        /* Normalise the high halves (the low halves scale by 1), then store both. */
        __m256 inv = c->unnorm ? _mm256_set1_ps(1.0f) : have_unit ? unit : avx2_unit_scale(c, x, y, z, tx, ty, tz);
        if (c->cofactor) inv = _mm256_xor_ps(inv, _mm256_insertf128_ps(_mm256_setzero_ps(), flip, 1));
        avx2_store_soa2(p->op, s->op, p->on, s->on, c->packed, avx2_scale_output(c, x, inv),
                        avx2_scale_output(c, y, inv), avx2_scale_output(c, z, inv));
        return;
    }
    x = avx2_plus_zero(x);
    y = avx2_plus_zero(y);
    z = avx2_plus_zero(z);
    sw__store_float3x4(p->op, s->op, c->packed, _mm256_castps256_ps128(x), _mm256_castps256_ps128(y),
                       _mm256_castps256_ps128(z));
    if (!c->tangents) return;
    /* Normals (low halves) and tangents (high halves) normalised together. */
    __m256 nx = _mm256_permute2f128_ps(x, tx, 0x21), ny = _mm256_permute2f128_ps(y, ty, 0x21);
    __m256 nz = _mm256_permute2f128_ps(z, tz, 0x21);
    __m256 inv = c->unnorm ? _mm256_set1_ps(1.0f) : have_unit ? unit : avx2_unit_scale(c, x, y, z, tx, ty, tz);
    if (c->cofactor) inv = _mm256_xor_ps(inv, _mm256_insertf128_ps(_mm256_setzero_ps(), flip, 0));
    nx = avx2_scale_output(c, nx, inv);
    ny = avx2_scale_output(c, ny, inv);
    nz = avx2_scale_output(c, nz, inv);
    if (c->normals)
        sw__store_float3x4(p->on, s->on, c->packed, _mm256_castps256_ps128(nx), _mm256_castps256_ps128(ny),
                           _mm256_castps256_ps128(nz));
    /* Tangents: xyz from the lanes, w copied from the input. */
    __m128 tx4 = _mm256_extractf128_ps(nx, 1), ty4 = _mm256_extractf128_ps(ny, 1), tz4 = _mm256_extractf128_ps(nz, 1);
    __m128 xy01 = _mm_unpacklo_ps(tx4, ty4), xy23 = _mm_unpackhi_ps(tx4, ty4);
    __m128 zz01 = _mm_unpacklo_ps(tz4, tz4), zz23 = _mm_unpackhi_ps(tz4, tz4);
    __m128 t[AVX2_BLOCK] = {_mm_movelh_ps(xy01, zz01), _mm_movehl_ps(zz01, xy01), _mm_movelh_ps(xy23, zz23),
                            _mm_movehl_ps(zz23, xy23)};
    SW__UNROLL
    for (int i = 0; i < AVX2_BLOCK; i++) {
        __m128 in = _mm_loadu_ps(avx2_f(p->it + i * s->it));
        _mm_storeu_ps((float*)(void*)(p->ot + i * s->ot), _mm_blend_ps(t[i], in, 0x8));
    }
}

/* Four vertices as [p | n] across lanes: x = [px | nx], y, z, straight
   from the streams (DQS without stretch). */
SW__INLINE void avx2_load_soa(const avx2_cfg* c, const sw__block_ptrs* p, const sw__block_strides* s, __m256* x,
                              __m256* y, __m256* z, __m256* tx, __m256* ty, __m256* tz) {
    __m256 v[AVX2_BLOCK], t[AVX2_BLOCK];
    SW__UNROLL
    for (int i = 0; i < AVX2_BLOCK; i++) {
        /* As in avx2_vertex_products: 16-byte loads but for the block's last
           vertex; w is never used. */
        const bool wide = c->packed && i < AVX2_BLOCK - 1;
        __m128 pos = wide ? _mm_loadu_ps(avx2_f(p->ip + i * s->ip)) : avx2_load3(p->ip + i * s->ip);
        if (c->normals && wide) {
            v[i] = _mm256_insertf128_ps(_mm256_castps128_ps256(pos), _mm_loadu_ps(avx2_f(p->in + i * s->in)), 1);
        } else {
            __m128 nrm = c->normals ? avx2_load3(p->in + i * s->in) : _mm_setzero_ps();
            v[i] = _mm256_insertf128_ps(_mm256_castps128_ps256(pos), nrm, 1);
        }
        t[i] = _mm256_setzero_ps();
        if (c->tangents) {
            __m128 tan = _mm_loadu_ps(avx2_f(p->it + i * s->it));
            t[i] = _mm256_insertf128_ps(_mm256_castps128_ps256(tan), tan, 1);
        }
    }
    __m256 t0 = _mm256_unpacklo_ps(v[0], v[1]), t1 = _mm256_unpackhi_ps(v[0], v[1]);
    __m256 t2 = _mm256_unpacklo_ps(v[2], v[3]), t3 = _mm256_unpackhi_ps(v[2], v[3]);
    *x = _mm256_shuffle_ps(t0, t2, 0x44);
    *y = _mm256_shuffle_ps(t0, t2, 0xEE);
    *z = _mm256_shuffle_ps(t1, t3, 0x44);
    if (c->tangents) {
        t0 = _mm256_unpacklo_ps(t[0], t[1]), t1 = _mm256_unpackhi_ps(t[0], t[1]);
        t2 = _mm256_unpacklo_ps(t[2], t[3]), t3 = _mm256_unpackhi_ps(t[2], t[3]);
        *tx = _mm256_shuffle_ps(t0, t2, 0x44);
        *ty = _mm256_shuffle_ps(t0, t2, 0xEE);
        *tz = _mm256_shuffle_ps(t1, t3, 0x44);
    }
}

/* A block between its two stages: [p | n] after the linear part (x, y, z),
   tangents, cofactor signs, and (DQS) the blended dual quaternions. */
typedef struct avx2_state {
    __m256 x, y, z, tx, ty, tz;
    __m256 unit;   /* rigid DQS: the normalising factors (avx2_unit_scale) */
    __m256 dq[4];  /* DQS: the blended dual quaternions (avx2_blend_dual_quats) */
    __m128 flip;
} avx2_state;

/* The influences a block of packed f32 weights uses: bit k (k < n) is set
   where weight k is not zero (its bits) in some vertex of the block; bits
   from n up mean nothing. Lane i·n + k of the block's weights is weight k
   of vertex i. */
SW__INLINE uint32_t avx2_block_influences(const unsigned char* wp, int n) {
    const __m256i zero = _mm256_setzero_si256();
#define SW__W8(at) _mm256_loadu_si256((const __m256i*)(const void*)(wp + (at)))
    uint32_t used; /* bit k: weight k is not zero in some vertex */
    if (n == 8 || n == 4 || n == 2) {
        /* OR the vertices' weights together: one vertex a ymm (8), two (4), four (2). */
        __m256i any = SW__W8(0);
        if (n != 2) any = _mm256_or_si256(any, SW__W8(32));
        if (n == 8) any = _mm256_or_si256(_mm256_or_si256(any, SW__W8(64)), SW__W8(96));
        if (n != 8) any = _mm256_or_si256(any, _mm256_permute2x128_si256(any, any, 0x01)); /* lanes k and k + 4 */
        if (n == 2) any = _mm256_or_si256(any, _mm256_shuffle_epi32(any, 0x4E));           /* lanes k and k + 2 */
        used = ~(uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(any, zero)));
    } else {
        /* n = 3 (n = 1 never asks): lane bits, then folded vertex by vertex. */
        uint32_t lanes = (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(SW__W8(0), zero)));
        lanes |= (uint32_t)_mm_movemask_ps(_mm_castsi128_ps(
                     _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i*)(const void*)(wp + 32)), _mm_setzero_si128())))
                 << 8;
        lanes = ~lanes;
        used = lanes | lanes >> 3 | lanes >> 6 | lanes >> 9;
    }
#undef SW__W8
    return used;
}

/* Are a block's `count` packed joint indices all ≤ limit (joint_count − 1
   in each lane)? Saturating subtraction leaves zero exactly there. */
SW__INLINE bool avx2_block_joints_in_range(const unsigned char* jp, int count, sw_joint_format jf, __m256i limit) {
    const int bytes = count * (jf == SW_JOINT_U8 ? 1 : 2);
#define SW__OVER(v, lim) (jf == SW_JOINT_U8 ? _mm256_subs_epu8((v), (lim)) : _mm256_subs_epu16((v), (lim)))
    if (bytes % 32 == 0) {
        __m256i over = _mm256_setzero_si256();
        for (int at = 0; at < bytes; at += 32)
            over = _mm256_or_si256(over, SW__OVER(_mm256_loadu_si256((const __m256i*)(const void*)(jp + at)), limit));
        return _mm256_testz_si256(over, over);
    }
    if (bytes == 16 || bytes == 8) {
        const __m128i v = bytes == 16 ? _mm_loadu_si128((const __m128i*)(const void*)jp)
                                      : _mm_loadl_epi64((const __m128i*)(const void*)jp);
        const __m128i lim = _mm256_castsi256_si128(limit);
        const __m128i over = jf == SW_JOINT_U8 ? _mm_subs_epu8(v, lim) : _mm_subs_epu16(v, lim);
        return _mm_testz_si128(over, over);
    }
#undef SW__OVER
    const uint32_t most = jf == SW_JOINT_U8 ? (uint32_t)(uint8_t)_mm256_extract_epi8(limit, 0)
                                            : (uint32_t)(uint16_t)_mm256_extract_epi16(limit, 0);
    for (int k = 0; k < count; k++)
        if ((jf == SW_JOINT_U8 ? jp[k] : avx2_u16(jp + 2 * k)) > most) return false;
    return true;
}

/* A block's joints with every index above limit (joint_count − 1) made 0. */
__attribute__((noinline, cold)) SW__AVX2 static void avx2_clamp_joints(unsigned char* out, const unsigned char* jp,
                                                                       int count, sw_joint_format jf, __m256i limit) {
    const uint32_t most = jf == SW_JOINT_U8 ? (uint32_t)(uint8_t)_mm256_extract_epi8(limit, 0)
                                            : (uint32_t)(uint16_t)_mm256_extract_epi16(limit, 0);
    for (int k = 0; k < count; k++) {
        if (jf == SW_JOINT_U8) {
            out[k] = jp[k] > most ? 0 : jp[k];
        } else {
            uint16_t j = (uint16_t)avx2_u16(jp + 2 * k);
            if (j > most) j = 0;
            memcpy(out + 2 * k, &j, 2);
        }
    }
}

/* Stage 1: everything that reads the block's inputs. */
SW__INLINE void avx2_stage1(const avx2_job* job, const avx2_cfg* c, const sw__block_ptrs* p_in,
                            const sw__block_strides* s_in, avx2_state* st, bool skip, const sw__weights4* pre) {
    /* Copies, always (a pointer to either the caller's or a local copy
       would hide the packed loops' constant strides from the compiler). */
    sw__block_ptrs pd = *p_in;
    sw__block_strides sd = *s_in;
    sw__weights4 local;
    const sw__weights4* dec = pre;
    if (job->decode) {
        /* The blend reads the decoded weights: n floats per vertex, decoded
           here or, in the pipelined loops, a block ahead (pre). */
        if (!pre) {
            sw__decode_weights4(&local, p_in->wp, s_in->wsrc, c->packed, c->n, job->wf, job->implied);
            dec = &local;
        }
        pd.wp = (const unsigned char*)dec->aos;
        sd.w = (size_t)c->n * 4;
    }
    const sw__block_ptrs* p = &pd;
    const sw__block_strides* s = &sd;
    uint32_t off[AVX2_BLOCK * SW_MAX_INFLUENCES];
    uint32_t off_dq[AVX2_BLOCK * SW_MAX_INFLUENCES];
    const int n = c->n;
    const bool linear = !c->dqs || c->stretch; /* rows to blend: LBS matrices or DQS stretch */
    /* The skipping loops take the palette offsets straight from the joints
       (avx2_blend_pair, avx2_blend_dual_quats: the integer units, not the
       vector ones): a block with an index ≥ joint_count gets a copy of its
       joints with those indices 0, read in their place (the scalar kernel
       reads joint 0 for them). Elsewhere vector offsets, only where n is a
       constant: their lanes then go to registers; read back from memory
       one by one (n at run time) they would stall on store forwarding. */
    const bool scalar_offsets = skip && c->packed;
    const unsigned char* jp = p->jp;
    unsigned char clamped[AVX2_BLOCK * 2 * SW_MAX_INFLUENCES];
    if (scalar_offsets &&
        __builtin_expect(!avx2_block_joints_in_range(jp, AVX2_BLOCK * n, c->jf, job->joint_limit), 0)) {
        avx2_clamp_joints(clamped, jp, AVX2_BLOCK * n, c->jf, job->joint_limit);
        jp = clamped;
    }
    if (c->packed) {
        if (linear && !scalar_offsets)
            avx2_offsets_flat(off, p->jp, AVX2_BLOCK * n, c->jf, job->joint_count, job->scale_mat);
        if (c->dqs && !scalar_offsets)
            avx2_offsets_flat(off_dq, p->jp, AVX2_BLOCK * n, c->jf, job->joint_count, job->scale_dq);
    } else {
        uint32_t joint_count = (uint32_t)_mm_cvtsi128_si32(_mm256_castsi256_si128(job->joint_count));
        for (int i = 0; i < AVX2_BLOCK; i++) {
            if (linear) avx2_offsets_vertex(off + i * n, p->jp + i * s->j, n, c->jf, joint_count, 48u);
            if (c->dqs) avx2_offsets_vertex(off_dq + i * n, p->jp + i * s->j, n, c->jf, joint_count, 32u);
        }
    }

    /* With a finite palette, a block blends up to its last non-zero
       weight: each w·M (or w·dq) skipped is a zero, and adding it would
       change at most the sign of a zero, which avx2_plus_zero evens out. */
    const uint32_t used = !(skip && c->n > 1 && c->wf == SW_WEIGHT_F32 && c->packed) ? ~0u
                          : job->decode                                             ? dec->used
                                                                                    : avx2_block_influences(p->wp, n);

    st->unit = _mm256_setzero_ps();
    /* [p | n] of the block as x, y, z across lanes, after the linear part. */
    __m256 x, y, z, tx = _mm256_setzero_ps(), ty = _mm256_setzero_ps(), tz = _mm256_setzero_ps();
    __m128 flip = _mm_setzero_ps();
    if (linear) {
        /* Vertices in pairs, each pair's products summed pairwise at once
           (fewer live registers), then the two pairs' sums: one lane per vertex. */
        const __m256 zero = _mm256_setzero_ps();
        __m256 ha[2], hb[2], hc[2] = {zero, zero}, ht[2] = {zero, zero}, ht2[2] = {zero, zero};
        __m128 f[AVX2_BLOCK] = {_mm_setzero_ps(), _mm_setzero_ps(), _mm_setzero_ps(), _mm_setzero_ps()};
#define SW__PAIR(pair)                                                                                        \
    do {                                                                                                      \
        __m256 ma[2], mb[2], mc[2] = {zero, zero}, mt[2] = {zero, zero}, mt2[2] = {zero, zero};               \
        __m256 a01[2], a12[2];                                                                                \
        avx2_blend_pair(job->linear, off + 2 * (pair) * n, scalar_offsets, jp + 2 * (pair) * s->j,            \
                        job->row_scale, n, p->wp + 2 * (pair) * s->w, s->w, c, used, a01, a12);               \
        SW__UNROLL                                                                                            \
        for (int h = 0; h < 2; h++) {                                                                         \
            const int i = 2 * (pair) + h;                                                                     \
            avx2_vertex_products(c, p, s, i, a01[h], a12[h], &ma[h], &mb[h], &mc[h], &mt[h], &mt2[h], &f[i]); \
        }                                                                                                     \
        ha[pair] = _mm256_hadd_ps(ma[0], ma[1]);                                                              \
        hb[pair] = _mm256_hadd_ps(mb[0], mb[1]);                                                              \
        if (c->normals) hc[pair] = _mm256_hadd_ps(mc[0], mc[1]);                                              \
        if (c->tangents) {                                                                                    \
            ht[pair] = _mm256_hadd_ps(mt[0], mt[1]);                                                          \
            ht2[pair] = _mm256_hadd_ps(mt2[0], mt2[1]);                                                       \
        }                                                                                                     \
    } while (0)
        if (c->packed) {
            /* Specialised loops: written out, whatever the optimisation level. */
            SW__PAIR(0);
            SW__PAIR(1);
        } else {
            /* The shared copy stays a loop (smaller). */
            for (int pair = 0; pair < 2; pair++) SW__PAIR(pair);
        }
#undef SW__PAIR
        __m256 sa = _mm256_hadd_ps(ha[0], ha[1]); /* [x | ny] (no normals: [x | y]) */
        __m256 sb = _mm256_hadd_ps(hb[0], hb[1]); /* [y | nz] (no normals: [y | z]) */
        if (c->normals) {
            __m256 sc = _mm256_hadd_ps(hc[0], hc[1]); /* [z | nx] */
            x = _mm256_blend_ps(sa, sc, 0xF0);
            y = _mm256_blend_ps(sb, sa, 0xF0);
            z = _mm256_blend_ps(sc, sb, 0xF0);
        } else {
            x = sa;
            y = _mm256_permute2f128_ps(sa, sa, 0x11);
            z = _mm256_permute2f128_ps(sb, sb, 0x11);
        }
        if (c->tangents) {
            __m256 t01 = _mm256_hadd_ps(ht[0], ht[1]);   /* [tx | ty] */
            __m256 t12 = _mm256_hadd_ps(ht2[0], ht2[1]); /* [ty | tz] */
            tx = t01;
            ty = _mm256_permute2f128_ps(t01, t01, 0x11);
            tz = _mm256_permute2f128_ps(t12, t12, 0x11);
        }
        if (c->cofactor) flip = _mm_blend_ps(_mm_blend_ps(f[0], f[1], 0x2), _mm_blend_ps(f[2], f[3], 0x8), 0xC);
        /* With tangents, the lengths here rather than in stage 2: the
           square root and division then overlap the next block's blend
           (4 % faster; without tangents the extra live register costs
           more than it saves). */
        if (!c->dqs && c->tangents && !c->unnorm) st->unit = avx2_unit_scale(c, x, y, z, tx, ty, tz);
    } else {
        avx2_load_soa(c, p, s, &x, &y, &z, &tx, &ty, &tz);
        if ((c->normals || c->tangents) && !c->unnorm) st->unit = avx2_unit_scale(c, x, y, z, tx, ty, tz);
    }
    if (c->dqs) {
        avx2_blend_dual_quats(job, c, p, s, off_dq, scalar_offsets, jp, used, st->dq);
    } else {
        st->dq[0] = st->dq[1] = st->dq[2] = st->dq[3] = _mm256_setzero_ps();
    }
    st->x = x;
    st->y = y;
    st->z = z;
    st->tx = tx;
    st->ty = ty;
    st->tz = tz;
    st->flip = flip;
}

/* Stage 2: the long dependency chains (rotation, normalisation) and the stores. */
SW__INLINE void avx2_stage2(const avx2_cfg* c, const sw__block_ptrs* p, const sw__block_strides* s, avx2_state* st) {
    if (c->dqs) {
        const avx2_dq4 q = avx2_dq_soa(st->dq);
        avx2_dq_apply(&q, &st->x, &st->y, &st->z, &st->tx, &st->ty, &st->tz, c->tangents);
    }
    avx2_finish(c, p, s, st->x, st->y, st->z, st->flip, st->tx, st->ty, st->tz, st->unit,
                c->dqs ? !c->stretch : c->tangents);
}

/* The stages with the configuration read at run time: one copy, shared by
   the generic loop, the tails and the first and last blocks of the
   specialised loops (the same steps in the same order, so the same bits). */
SW__SHARED void avx2_stage1_any(const avx2_job* job, const avx2_cfg* c, const sw__block_ptrs* p,
                                const sw__block_strides* s, avx2_state* st) {
    avx2_stage1(job, c, p, s, st, false, NULL);
}

/* st by value: a caller's state copied into an escaping variable would be
   kept in memory all through its loop. */
SW__SHARED void avx2_stage2_any(const avx2_cfg* c, const sw__block_ptrs* p, const sw__block_strides* s, avx2_state st) {
    avx2_stage2(c, p, s, &st);
}

/* ---- the broadcast shape: eight vertices sharing their joints ------------------------- */

/* Meshes are built from patches: neighbouring vertices in a buffer mostly
   carry the same joint indices with different weights (crowd_stress: 77 %
   of blocks of eight, arnaud 29 %). In such a block each palette entry is
   one value for all eight vertices, so it is broadcast, and everything
   after is vertical arithmetic, one vertex per lane, in structure of
   arrays: no horizontal add, and no lane crossing but the transposes of
   the loads and stores. Each lane does the row shape's operations in its
   order (w₀·M₀, then FMAs in influence order; products with [p, 1 | n, 0]
   summed pairwise, (a·x + b·y) + (c·z + d·w); the normalisation; + 0), so
   a vertex gets the same bits in either shape and a range mixes them
   block by block. Zero weights of some lanes are blended (0·M), which the
   row shape skips: the same bits with a finite palette, which the caller
   has checked. */

/* Do the eight vertices at jp (packed, 4 u16 joints each) share their joint indices? */
SW__INLINE bool avx2_bc_shared(const unsigned char* jp) {
    long long first;
    memcpy(&first, jp, 8);
    const __m256i q = _mm256_set1_epi64x(first);
    const __m256i a = _mm256_cmpeq_epi64(_mm256_loadu_si256((const __m256i*)(const void*)jp), q);
    const __m256i b = _mm256_cmpeq_epi64(_mm256_loadu_si256((const __m256i*)(const void*)(jp + 32)), q);
    return _mm256_movemask_epi8(_mm256_and_si256(a, b)) == -1;
}

/* Eight packed float3 at p as x, y, z across lanes, vertex i in lane i;
   the last vertex reads exactly its 12 bytes. */
SW__INLINE void avx2_bc_load_float3(const unsigned char* p, __m256* x, __m256* y, __m256* z) {
    __m256 v[4]; /* [v_i | v_{i+4}] */
    SW__UNROLL
    for (int i = 0; i < 3; i++) v[i] = _mm256_loadu2_m128(avx2_f(p + 12 * (i + 4)), avx2_f(p + 12 * i));
    v[3] = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(avx2_f(p + 36))), avx2_load3(p + 84), 1);
    avx2_transpose4(v);
    *x = v[0], *y = v[1], *z = v[2];
}

/* x, y, z of eight vertices stored as packed float3 at p (96 bytes). */
SW__INLINE void avx2_bc_store_float3(unsigned char* p, __m256 x, __m256 y, __m256 z) {
    __m256 o0, o1, o2;
    avx2_interleave3(x, y, z, &o0, &o1, &o2);
    _mm256_storeu_ps((float*)(void*)p, _mm256_permute2f128_ps(o0, o1, 0x20));        /* o0 lo, o1 lo */
    _mm256_storeu_ps((float*)(void*)(p + 32), _mm256_permute2f128_ps(o2, o0, 0x30)); /* o2 lo, o0 hi */
    _mm256_storeu_ps((float*)(void*)(p + 64), _mm256_permute2f128_ps(o1, o2, 0x31)); /* o1 hi, o2 hi */
}

/* A row (a, b, c, d) of the blended matrices applied to a point and to a
   direction, rounded as the row shape's two HADDPS sum the products:
   (a·x + b·y) + (c·z + d), and (a·x + b·y) + c·z, where the row shape adds
   d·0: with a finite palette that is a zero, which changes at most the
   sign of a zero (evened out by the outputs' + 0). */
SW__INLINE __m256 avx2_bc_point(const __m256* a, __m256 x, __m256 y, __m256 z) {
    return _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(a[0], x), _mm256_mul_ps(a[1], y)),
                         _mm256_add_ps(_mm256_mul_ps(a[2], z), a[3]));
}
SW__INLINE __m256 avx2_bc_dir(const __m256* a, __m256 x, __m256 y, __m256 z) {
    return _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(a[0], x), _mm256_mul_ps(a[1], y)), _mm256_mul_ps(a[2], z));
}

/* A block of eight vertices that share their joints (packed streams, 4
   influences, u16 joints, f32 weights; an index ≥ joint_count reads joint 0) runs in
   two stages, pipelined by the loop as the row shape's blocks are. In
   between: normals and tangents before normalisation, tangent w, and
   where they go. */
typedef struct avx2_bc_state {
    __m256 n[3], t[4];
    unsigned char *on, *ot;
} avx2_bc_state;

/* Stage 1 reads the block, blends, moves and stores the positions. */
SW__INLINE void avx2_bc_stage1(const avx2_job* job, uint32_t joint_count, const avx2_cfg* c, const sw__block_ptrs* p,
                               avx2_bc_state* st) {
    /* Weights as [w(v_i) | w(v_{i+4})]; blended up to the block's last
       influence that is not zero (its bits) in some vertex. */
    __m256 w[4];
    SW__UNROLL
    for (int i = 0; i < 4; i++) w[i] = _mm256_loadu2_m128(avx2_f(p->wp + 16 * (i + 4)), avx2_f(p->wp + 16 * i));
    __m256i any = _mm256_castps_si256(_mm256_or_ps(_mm256_or_ps(w[0], w[1]), _mm256_or_ps(w[2], w[3])));
    any = _mm256_or_si256(any, _mm256_permute2x128_si256(any, any, 0x01));
    const uint32_t used =
        ~(uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(any, _mm256_setzero_si256()))) & 0xFu;
    const int blend = used > 1u ? 32 - __builtin_clz(used) : 1;
    avx2_transpose4(w); /* w[k]: weight k of vertices 0..7 */
    const float* m[4];
    for (int k = 0; k < blend; k++) {
        const uint32_t j = avx2_u16(p->jp + 2 * k);
        m[k] = avx2_f(job->linear + (j < joint_count ? j : 0) * job->row_scale);
    }
    /* Every input before the first store: outputs may be the inputs. */
    __m256 px, py, pz, nx, ny, nz, t[4];
    avx2_bc_load_float3(p->ip, &px, &py, &pz);
    if (c->normals) avx2_bc_load_float3(p->in, &nx, &ny, &nz);
    if (c->tangents) {
        SW__UNROLL
        for (int i = 0; i < 4; i++) t[i] = _mm256_loadu2_m128(avx2_f(p->it + 16 * (i + 4)), avx2_f(p->it + 16 * i));
        avx2_transpose4(t);
    }
    /* Row by row: the row's four blended entries, then what they move. */
    __m256 op[3], on[3], ot[4];
    SW__UNROLL
    for (int r = 0; r < 3; r++) {
        __m256 a[4];
        SW__UNROLL
        for (int e = 0; e < 4; e++) a[e] = _mm256_mul_ps(w[0], _mm256_broadcast_ss(m[0] + 4 * r + e));
        for (int k = 1; k < blend; k++) {
            SW__UNROLL
            for (int e = 0; e < 4; e++) a[e] = _mm256_fmadd_ps(w[k], _mm256_broadcast_ss(m[k] + 4 * r + e), a[e]);
        }
        op[r] = avx2_plus_zero(avx2_bc_point(a, px, py, pz));
        if (c->normals) on[r] = avx2_bc_dir(a, nx, ny, nz);
        if (c->tangents) ot[r] = avx2_bc_dir(a, t[0], t[1], t[2]);
    }
    avx2_bc_store_float3(p->op, op[0], op[1], op[2]);
    SW__UNROLL
    for (int r = 0; r < 3; r++) {
        if (c->normals) st->n[r] = on[r];
        if (c->tangents) st->t[r] = ot[r];
    }
    if (c->tangents) st->t[3] = t[3];
    st->on = p->on;
    st->ot = p->ot;
}

/* Stage 2 normalises the normals and tangents and stores them (the long
   chain: square root and division). */
SW__INLINE void avx2_bc_stage2(const avx2_cfg* c, const avx2_bc_state* st) {
    __m256 on[3], ot[4];
    SW__UNROLL
    for (int r = 0; r < 3; r++) {
        if (c->normals) on[r] = st->n[r];
        if (c->tangents) ot[r] = st->t[r];
    }
    if (c->normals) {
        const __m256 inv = c->unnorm ? _mm256_set1_ps(1.0f) : avx2_inv_length3(on[0], on[1], on[2]);
        SW__UNROLL
        for (int r = 0; r < 3; r++) on[r] = avx2_scale_output(c, on[r], inv);
        avx2_bc_store_float3(st->on, on[0], on[1], on[2]);
    }
    if (c->tangents) {
        const __m256 inv = c->unnorm ? _mm256_set1_ps(1.0f) : avx2_inv_length3(ot[0], ot[1], ot[2]);
        SW__UNROLL
        for (int r = 0; r < 3; r++) ot[r] = avx2_scale_output(c, ot[r], inv);
        ot[3] = st->t[3]; /* w copied */
        avx2_transpose4(ot); /* back to [v_i | v_{i+4}], x y z w each */
        SW__UNROLL
        for (int i = 0; i < 4; i++) {
            _mm_storeu_ps((float*)(void*)(st->ot + 16 * i), _mm256_castps256_ps128(ot[i]));
            _mm_storeu_ps((float*)(void*)(st->ot + 16 * (i + 4)), _mm256_extractf128_ps(ot[i], 1));
        }
    }
}

/* ---- loops ---------------------------------------------------------------------------- */

/* The last count % 4 vertices, through a packed copy (sw__tail_block). */
SW__AVX2 static void avx2_tail(const avx2_job* job, const avx2_cfg* c, const sw__block_ptrs* p,
                               const sw__block_strides* s, size_t count) {
    sw__tail_block t;
    sw__tail_gather(&t, p, s, count, c->n, c->jf, job->wf, job->implied, c->normals, c->tangents);
    avx2_cfg packed = *c;
    packed.packed = true;
    avx2_state st;
    avx2_stage1_any(job, &packed, &t.ptrs, &t.strides, &st);
    avx2_stage2_any(&packed, &t.ptrs, &t.strides, st);
    sw__tail_scatter(&t, p, s, count);
}

/* The first vertex of block b in every stream. Packed streams are
   addressed from the input positions (float3 streams), the input tangents
   and the joints (weights at a constant multiple), so the loop moves three
   indices instead of eight pointers. */
SW__INLINE sw__block_ptrs avx2_block_ptrs(const avx2_cfg* c, const sw__block_strides* s, const sw__block_ptrs* base,
                                          size_t b) {
    sw__block_ptrs p;
    if (c->packed) {
        const size_t jv = b * AVX2_BLOCK * s->j;
        const uintptr_t fv = (uintptr_t)(base->ip + b * AVX2_BLOCK * s->ip);
        const uintptr_t tv = c->tangents ? (uintptr_t)(base->it + b * AVX2_BLOCK * s->it) : 0;
        p.jp = base->jp + jv;
        p.wp = base->wp + b * AVX2_BLOCK * s->wsrc;
        p.ip = (const unsigned char*)fv;
        p.op = (unsigned char*)(fv + ((uintptr_t)base->op - (uintptr_t)base->ip));
        p.in = c->normals ? (const unsigned char*)(fv + ((uintptr_t)base->in - (uintptr_t)base->ip)) : NULL;
        p.on = c->normals ? (unsigned char*)(fv + ((uintptr_t)base->on - (uintptr_t)base->ip)) : NULL;
        p.it = c->tangents ? (const unsigned char*)tv : NULL;
        p.ot = c->tangents ? (unsigned char*)(tv + ((uintptr_t)base->ot - (uintptr_t)base->it)) : NULL;
    } else {
        const size_t v = b * AVX2_BLOCK;
        p.jp = base->jp + v * s->j;
        p.wp = base->wp + v * s->wsrc;
        p.ip = base->ip + v * s->ip;
        p.op = base->op + v * s->op;
        p.in = c->normals ? base->in + v * s->in : NULL;
        p.on = c->normals ? base->on + v * s->on : NULL;
        p.it = c->tangents ? base->it + v * s->it : NULL;
        p.ot = c->tangents ? base->ot + v * s->ot : NULL;
    }
    return p;
}

/* The specialised loops' blocks, software pipelined: block b's inputs are
   read (stage 1) before block b−1 is finished (stage 2), so the
   out-of-order core overlaps one block's long dependency chains with the
   next block's loads and blends. Outputs of b−1 never overlap inputs of b.
   The state never reaches a function that is not inlined (it would then be
   kept in memory all through the loop): the first block's stage 1 fills a
   copy, and the last block's stage 2 follows the loop. Weights that need
   decoding are decoded a block ahead (into alternate buffers), so the
   division and shuffles are off the chain that feeds the blend. */
SW__INLINE void avx2_pipeline(const avx2_job* job, const avx2_cfg* c, const avx2_cfg* shared,
                              const sw__block_strides* s, const sw__block_ptrs* base, size_t b0, size_t b1,
                              bool skip, bool inline_first) {
    avx2_state state, io;
    const sw__block_ptrs first = avx2_block_ptrs(c, s, base, b0);
    if (inline_first) /* short runs (the broadcast loop's): the shared copy would cost more than it saves */
        avx2_stage1(job, c, &first, s, &io, skip, NULL);
    else
        avx2_stage1_any(job, shared, &first, s, &io);
    state = io;
    sw__weights4 ahead_a, ahead_b;
    sw__weights4 *cur = &ahead_a, *nxt = &ahead_b;
    const unsigned char* wnext = base->wp + (b0 + 1) * AVX2_BLOCK * s->wsrc;
    if (job->decode && b0 + 1 < b1) sw__decode_weights4(cur, wnext, s->wsrc, c->packed, c->n, job->wf, job->implied);
    for (size_t b = b0 + 1; b < b1; b++) {
        /* Both from b, so packed streams address block b−1 by displacement. */
        const sw__block_ptrs p = avx2_block_ptrs(c, s, base, b), prev = avx2_block_ptrs(c, s, base, b - 1);
        if (job->decode) {
            wnext += AVX2_BLOCK * s->wsrc;
            if (b + 1 < b1) sw__decode_weights4(nxt, wnext, s->wsrc, c->packed, c->n, job->wf, job->implied);
        }
        avx2_state next = state;
        avx2_stage1(job, c, &p, s, &next, skip, job->decode ? cur : NULL);
        sw__weights4* t = cur;
        cur = nxt;
        nxt = t;
        avx2_stage2(c, &prev, s, &state);
        state = next;
    }
    const sw__block_ptrs last = avx2_block_ptrs(c, s, base, b1 - 1);
    avx2_stage2(c, &last, s, &state);
}

/* What a run of the job's streams needs: the job's constants, the block
   strides (constants for packed streams) and the first vertex's pointers. */
SW__INLINE void avx2_setup(const sw__skin_streams* ss, const avx2_cfg* c, avx2_job* job, sw__block_strides* s,
                           sw__block_ptrs* base) {
    job->linear = ss->linear;
    job->dual_quats = ss->dual_quats;
    job->joint_count = _mm256_set1_epi32((int)ss->joint_count);
    job->scale_mat = _mm256_set1_epi32((int)ss->palette_strides[0]);
    job->scale_dq = _mm256_set1_epi32((int)ss->palette_strides[1]);
    job->row_scale = ss->palette_strides[0];
    job->dq_scale = ss->palette_strides[1];
    job->joint_limit = c->jf == SW_JOINT_U8 ? _mm256_set1_epi8((char)(ss->joint_count > 256 ? 255 : ss->joint_count - 1))
                                            : _mm256_set1_epi16((short)(ss->joint_count - 1));
    job->decode = sw__weights_decoded(ss->weight_format, ss->implied);
    job->implied = ss->implied;
    job->wf = ss->weight_format;
    const sw__block_strides given = {ss->joints_stride, ss->weights_stride, ss->in_pos_stride, ss->in_nrm_stride,
                                     ss->in_tan_stride, ss->out_pos_stride, ss->out_nrm_stride, ss->out_tan_stride,
                                     ss->weights_stride};
    /* Packed: the same values, as constants the compiler can fold into
       addresses (the blend reads n floats per vertex, decoded or not). */
    const sw__block_strides packed = {(size_t)c->n * (c->jf == SW_JOINT_U8 ? 1 : 2),
                                      (size_t)c->n * 4,
                                      12,
                                      12,
                                      16,
                                      12,
                                      12,
                                      16,
                                      ss->weights_stride};
    *s = c->packed ? packed : given;
    const sw__block_ptrs b = {ss->joints, ss->weights, ss->in_pos, ss->in_nrm,
                              ss->in_tan, ss->out_pos, ss->out_nrm, ss->out_tan};
    *base = b;
}

/* inline_stages: the specialised loops inline both stages (constants
   folded); the generic loop calls the shared copies. */
SW__INLINE void avx2_loop(const sw__skin_streams* ss, const avx2_cfg* c, bool inline_stages) {
    /* The shared functions get a copy: were c's address to escape, the
       compiler could no longer fold its fields here. */
    const avx2_cfg shared = *c;
    avx2_job job;
    sw__block_strides s;
    sw__block_ptrs base;
    avx2_setup(ss, c, &job, &s, &base);
    const size_t blocks = ss->count / AVX2_BLOCK;
    /* Skipping zero weights needs a finite palette; the scan is paid for
       only by ranges with several vertices per joint. */
    const bool skip = inline_stages && !c->stretch &&
                      (ss->finite >= 0 ? ss->finite == 1
                                       : ss->count >= (size_t)SW__SKIN_SCAN_RATIO * ss->joint_count &&
                                             (c->dqs ? sw__skin_rows_finite(ss->dual_quats, (size_t)ss->joint_count * 2)
                                                     : sw__skin_rows_finite(ss->linear, (size_t)ss->joint_count * 3)));
    if (!inline_stages) {
        /* The generic loop: one block at a time through the shared stages. */
        for (size_t b = 0; b < blocks; b++) {
            const sw__block_ptrs p = avx2_block_ptrs(c, &s, &base, b);
            avx2_state st;
            avx2_stage1_any(&job, &shared, &p, &s, &st);
            avx2_stage2_any(&shared, &p, &s, st);
        }
    } else if (blocks > 0 && skip) {
        avx2_pipeline(&job, c, &shared, &s, &base, 0, blocks, true, false); /* two copies: skip is a constant in each */
    } else if (blocks > 0) {
        avx2_pipeline(&job, c, &shared, &s, &base, 0, blocks, false, false);
    }
    if (ss->count % AVX2_BLOCK) {
        const sw__block_ptrs p = avx2_block_ptrs(c, &s, &base, blocks);
        avx2_tail(&job, &shared, &p, &s, ss->count % AVX2_BLOCK);
    }
}

/* The broadcast shape's loop (packed streams, 4 influences, u16 joints,
   f32 weights, a finite palette): blocks of eight sharing their joints in that shape,
   runs of the others through the row shape's pipelined loop, the last
   count % 8 vertices in rows. */
SW__INLINE void avx2_bc_loop(const sw__skin_streams* ss, const avx2_cfg* c) {
    const avx2_cfg shared_cfg = *c;
    avx2_job job;
    sw__block_strides s;
    sw__block_ptrs base;
    avx2_setup(ss, c, &job, &s, &base);
    const size_t pairs = ss->count / (2 * AVX2_BLOCK), pair_bytes = 2 * AVX2_BLOCK * s.j;
    /* Shared blocks are pipelined as the row loop is: block b's stage 1
       before block b − 1's stage 2 (its outputs never overlap b's inputs). */
    avx2_bc_state pending;
    bool have = false;
    for (size_t b = 0; b < pairs;) {
        if (avx2_bc_shared(base.jp + b * pair_bytes)) {
            const sw__block_ptrs p = avx2_block_ptrs(c, &s, &base, 2 * b);
            avx2_bc_state next;
            avx2_bc_stage1(&job, ss->joint_count, c, &p, &next);
            if (have) avx2_bc_stage2(c, &pending);
            pending = next;
            have = true;
            b++;
            continue;
        }
        if (have) avx2_bc_stage2(c, &pending);
        have = false;
        size_t e = b + 1;
        while (e < pairs && !avx2_bc_shared(base.jp + e * pair_bytes)) e++;
        avx2_pipeline(&job, c, &shared_cfg, &s, &base, 2 * b, 2 * e, true, true);
        b = e;
    }
    if (have) avx2_bc_stage2(c, &pending);
    const size_t done = 2 * AVX2_BLOCK * pairs;
    if (done < ss->count) {
        sw__skin_streams rest = *ss;
        rest.count = ss->count - done;
        rest.joints += done * s.j, rest.weights += done * s.wsrc;
        rest.in_pos += done * 12, rest.out_pos += done * 12;
        if (c->normals) rest.in_nrm += done * 12, rest.out_nrm += done * 12;
        if (c->tangents) rest.in_tan += done * 16, rest.out_tan += done * 16;
        avx2_loop(&rest, c, true);
    }
}

#define SW__AVX2_BC(JF, NRM, TAN, name)                                                                 \
    SW__AVX2 static void name(const sw__skin_streams* s) {                                             \
        const avx2_cfg c = {4, JF, SW_WEIGHT_F32, NRM, TAN, false, false, false, true, s->unnormalized}; \
        avx2_bc_loop(s, &c);                                                                           \
    }
/* How many of `sample` blocks of eight spread evenly over the range's
   `pairs` share their joints (u16). */
SW__AVX2 static size_t avx2_bc_count_shared(const unsigned char* jp, size_t pairs, size_t sample) {
    size_t shared = 0;
    for (size_t i = 0; i < sample; i++) shared += avx2_bc_shared(jp + (i * pairs / sample) * 2 * AVX2_BLOCK * 8);
    return shared;
}
/* u16 joints only, the importer's: each loop costs seconds of compile time. */
SW__AVX2_BC(SW_JOINT_U16, false, false, avx2_bc_u16_p)
SW__AVX2_BC(SW_JOINT_U16, true, false, avx2_bc_u16_pn)
SW__AVX2_BC(SW_JOINT_U16, true, true, avx2_bc_u16_pnt)
#undef SW__AVX2_BC

/* Everything at run time: any count, format, stride, stream set and normal mode. */
SW__AVX2 static void avx2_generic(const sw__skin_streams* s) {
    /* Weights reach the blend as f32 (decoded a block at a time otherwise). */
    const avx2_cfg c = {s->influence_count, s->joint_format, SW_WEIGHT_F32, s->in_nrm != NULL, s->in_tan != NULL,
                        s->dqs, s->cofactor, s->dqs && s->linear != NULL, false, s->unnormalized};
    avx2_loop(s, &c, false);
}


/* Specialised loops: blended normals, packed streams of positions (and
   normals, and tangents); LBS per joint format, DQS (no stretch) reading
   the joint format at run time (its cost hides in the longer DQS block).
   Weights other than f32 are decoded a block at a time (a branch per
   block), and unnormalised outputs are a branch per block too: either as
   a constant would double the number of loops. */
#define SW__AVX2_LBS(N, JF, NRM, TAN, name)                                                          \
    SW__AVX2 static void name(const sw__skin_streams* s) {                                           \
        const avx2_cfg c = {N, JF, SW_WEIGHT_F32, NRM, TAN, false, false, false, true, s->unnormalized}; \
        avx2_loop(s, &c, true);                                                                      \
    }
#define SW__AVX2_DQS(N, NRM, TAN, name)                                                                        \
    SW__AVX2 static void name(const sw__skin_streams* s) {                                                     \
        const avx2_cfg c = {N, s->joint_format, SW_WEIGHT_F32, NRM, TAN, true, false, false, true, s->unnormalized}; \
        avx2_loop(s, &c, true);                                                                                \
    }
SW__SKIN_KERNEL_SET(avx2, SW__AVX2_LBS, SW__AVX2_DQS)

/* The row shape alone (SW_SKIN_KERNEL_AVX2_ROWS). */
void sw__skin_run_avx2_rows(const sw_skin_job* job, size_t first, size_t count) {
    sw__skin_dispatch(job, first, count, avx2_kernels, avx2_generic);
}

/* SW_SKIN_KERNEL_AVX2: the broadcast shape's loop where the job fits it
   (LBS, blended normals, 4 influences, u16 joints, f32 weights, packed
   float streams)
   and the palette is finite; the row shape's otherwise. */
void sw__skin_run_avx2(const sw_skin_job* job, size_t first, size_t count) {
    sw__skin_streams s = sw__skin_streams_make(job, first, count);
    const bool fits = !s.dqs && !s.cofactor && s.influence_count == 4 && s.joint_format == SW_JOINT_U16 &&
                      s.weight_format == SW_WEIGHT_F32 && !s.implied && !s.qpos && !s.qnrm && !s.pack_nrm &&
                      s.packed && (!s.in_tan || s.in_nrm);
    if (fits && count >= (size_t)SW__SKIN_SCAN_RATIO * s.joint_count &&
        sw__skin_rows_finite(s.linear, (size_t)s.joint_count * 3)) {
        static const sw__skin_kernel_fn loops[3] = {avx2_bc_u16_p, avx2_bc_u16_pn, avx2_bc_u16_pnt};
        const int streams = s.in_tan ? 2 : s.in_nrm ? 1 : 0;
        s.finite = 1;
        /* A range where fewer than half of 16 blocks of eight spread over
           it share their joints runs the row loop (table slot 3: 4
           influences) as it is: switching shapes costs more than so few
           shared blocks save. Spread, since a mesh's first vertices are
           no sample of the rest; 16, since each is a cold cache line
           (docs/performance.md). */
        const size_t pairs = count / (2 * AVX2_BLOCK), sample = pairs < 16 ? pairs : 16;
        if (2 * avx2_bc_count_shared(s.joints, pairs, sample) >= sample)
            loops[streams](&s);
        else
            avx2_kernels[3][1][streams](&s); /* 4 influences, u16 joints */
        return;
    }
    sw__skin_run_avx2_rows(job, first, count);
}

#endif
