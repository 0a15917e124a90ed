/* CPU skinning, SSE2 kernels (see sinew/skin.h and skin_internal.h): the
   x86-64 baseline, for CPUs without AVX2 and FMA.

   The same plan as skin_avx2.c, four lanes wide and without FMA, HADDPS,
   BLENDPS or masked loads, so every step is spelled with SSE2's shuffles:

   1. per vertex, the blended 3×4 rows (r0, r1, r2), multiply-then-add in
      influence order exactly as the scalar kernel does; for DQS, the
      stretch (when given);
   2. per vertex, the rows' elementwise products with p (w = 1), n and t;
      for four vertices, a transpose-and-add gives one vertex per lane
      (structure of arrays);
   3. DQS: the blended dual quaternions, also one vertex per lane, rotate
      and translate the lanes;
   4. normals and tangents normalised four at a time; stores of 8 + 4
      bytes per vertex, or 48 bytes per block for packed float3 streams.

   Blocks of four whose lanes never mix, and a tail that runs the same code
   on a copy: a vertex's bits do not depend on the range. Specialised loops
   cover f32 weights, blended normals, 1, 2, 3, 4 or 8 influences and
   normals (and tangents), on packed streams or on packed copies of strided
   ones (sw__skin_run_staged); they skip the per-index range check for
   blocks whose indices a saturating subtraction shows in range. The
   generic loop runs the rest with the same steps. */
#include "skin_internal.h"

#if SW__SKIN_X86

#include <emmintrin.h>
#include <string.h>

#define SW__SSE2_INLINE static inline __attribute__((always_inline))
#if defined(__clang__)
#define SW__SSE2_UNROLL /* Clang unrolls these at -O2 already */
#else
#define SW__SSE2_UNROLL _Pragma("GCC unroll 8")
#endif

enum { SSE2_BLOCK = 4 };

typedef struct sse2_cfg {
    int n;
    sw_joint_format jf;
    sw_weight_format wf;
    bool normals, tangents, dqs, cofactor, stretch;
    bool packed;    /* every stream at its packed stride */
    bool unchecked; /* the block's joint indices are known to be in range */
} sse2_cfg;

typedef struct sse2_strides {
    size_t j, w, ip, in, it, op, on, ot;
} sse2_strides;

typedef struct sse2_ptrs {
    const unsigned char *jp, *wp, *ip, *in, *it;
    unsigned char *op, *on, *ot;
} sse2_ptrs;

typedef struct sse2_job {
    const unsigned char* linear;     /* LBS matrices, DQS stretch or NULL */
    const unsigned char* dual_quats;
    uint32_t joint_count;
    uint32_t scale_mat, scale_dq;    /* 48 and 32, opaque to the compiler so it emits one IMUL */
} sse2_job;

/* ---- small helpers ------------------------------------------------------------------ */

SW__SSE2_INLINE const float* sse2_f(const unsigned char* p) { return (const float*)(const void*)p; }

SW__SSE2_INLINE uint32_t sse2_u16(const unsigned char* p) {
    uint16_t v;
    memcpy(&v, p, 2);
    return v;
}

SW__SSE2_INLINE float sse2_weight(const unsigned char* wp, int k, sw_weight_format wf) {
    if (wf == SW_WEIGHT_F32) {
        float w;
        memcpy(&w, wp + 4 * k, 4);
        return w;
    }
    if (wf == SW_WEIGHT_U8_NORM) return (float)wp[k] / 255.0f;
    return (float)sse2_u16(wp + 2 * k) / 65535.0f;
}

/* x, y, z with w = 0, reading exactly 12 bytes. */
SW__SSE2_INLINE __m128 sse2_load3(const unsigned char* p) {
    __m128 xy = _mm_loadl_pi(_mm_setzero_ps(), (const __m64*)(const void*)p);
    return _mm_movelh_ps(xy, _mm_load_ss(sse2_f(p + 8)));
}

/* a×b over x, y, z (w: whatever the products give). */
SW__SSE2_INLINE __m128 sse2_cross(__m128 a, __m128 b) {
    __m128 a_yzx = _mm_shuffle_ps(a, a, _MM_SHUFFLE(3, 0, 2, 1)), b_yzx = _mm_shuffle_ps(b, b, _MM_SHUFFLE(3, 0, 2, 1));
    __m128 c = _mm_sub_ps(_mm_mul_ps(a, b_yzx), _mm_mul_ps(a_yzx, b));
    return _mm_shuffle_ps(c, c, _MM_SHUFFLE(3, 0, 2, 1));
}

SW__SSE2_INLINE void sse2_transpose4(__m128* v) {
    __m128 t0 = _mm_unpacklo_ps(v[0], v[1]), t1 = _mm_unpackhi_ps(v[0], v[1]);
    __m128 t2 = _mm_unpacklo_ps(v[2], v[3]), t3 = _mm_unpackhi_ps(v[2], v[3]);
    v[0] = _mm_movelh_ps(t0, t2);
    v[1] = _mm_movehl_ps(t2, t0);
    v[2] = _mm_movelh_ps(t1, t3);
    v[3] = _mm_movehl_ps(t3, t1);
}

/* x/|x| factor from |x|²: 0 where |x|² is not > 0. */
SW__SSE2_INLINE __m128 sse2_inv_length(__m128 len2) {
    __m128 inv = _mm_div_ps(_mm_set1_ps(1.0f), _mm_sqrt_ps(len2));
    return _mm_and_ps(inv, _mm_cmpgt_ps(len2, _mm_setzero_ps()));
}

/* ---- per vertex ------------------------------------------------------------------------ */

/* Byte offsets of one vertex's n palette entries of `scale` bytes;
   indices ≥ joint_count read entry 0. */
SW__SSE2_INLINE void sse2_offsets(uint32_t* out, const unsigned char* jp, int n, sw_joint_format jf,
                                  uint32_t joint_count, uint32_t scale, bool unchecked) {
    for (int k = 0; k < n; k++) {
        uint32_t j = jf == SW_JOINT_U8 ? jp[k] : sse2_u16(jp + 2 * k);
        out[k] = unchecked || j < joint_count ? j * scale : 0;
    }
}

/* Are all `count` packed indices at jp below joint_count? Saturating
   subtraction of joint_count − 1 leaves zero exactly for those. */
SW__SSE2_INLINE bool sse2_joints_in_range(const unsigned char* jp, int count, sw_joint_format jf, uint32_t joint_count) {
    const bool u8 = jf == SW_JOINT_U8;
    const int bytes = count * (u8 ? 1 : 2);
    const uint32_t top = joint_count - 1;
    const __m128i limit = u8 ? _mm_set1_epi8((char)(top > 255 ? 255 : top)) : _mm_set1_epi16((short)(uint16_t)top);
    __m128i over = _mm_setzero_si128();
    int k = 0;
    for (; k + 16 <= bytes; k += 16) {
        __m128i v = _mm_loadu_si128((const __m128i*)(const void*)(jp + k));
        over = _mm_or_si128(over, u8 ? _mm_subs_epu8(v, limit) : _mm_subs_epu16(v, limit));
    }
    if (k + 8 <= bytes) {
        __m128i v = _mm_loadl_epi64((const __m128i*)(const void*)(jp + k));
        over = _mm_or_si128(over, u8 ? _mm_subs_epu8(v, limit) : _mm_subs_epu16(v, limit));
        k += 8;
    }
    if (k < bytes) { /* 4 bytes: u8 joints, 1 or 3 influences */
        uint32_t v;
        memcpy(&v, jp + k, 4);
        over = _mm_or_si128(over, _mm_subs_epu8(_mm_cvtsi32_si128((int)v), limit));
    }
    return _mm_movemask_epi8(_mm_cmpeq_epi8(over, _mm_setzero_si128())) == 0xFFFF;
}

/* Lane j of v in all four lanes. */
SW__SSE2_INLINE __m128 sse2_spread(__m128 v, int j) {
    switch (j) {
    case 0: return _mm_castsi128_ps(_mm_shuffle_epi32(_mm_castps_si128(v), 0x00));
    case 1: return _mm_castsi128_ps(_mm_shuffle_epi32(_mm_castps_si128(v), 0x55));
    case 2: return _mm_castsi128_ps(_mm_shuffle_epi32(_mm_castps_si128(v), 0xAA));
    default: return _mm_castsi128_ps(_mm_shuffle_epi32(_mm_castps_si128(v), 0xFF));
    }
}

/* Σ wₖ·palette[jₖ], multiply then add in influence order (the scalar
   kernel's arithmetic, so the rows are the scalar kernel's bits). */
SW__SSE2_INLINE void sse2_blend_rows(const unsigned char* palette, const uint32_t* off, const unsigned char* wp,
                                     const sse2_cfg* c, __m128* r) {
    /* f32 weights four at a time, each spread by one PSHUFD. */
    const bool groups = c->wf == SW_WEIGHT_F32 && c->n % 4 == 0;
    __m128 w4 = groups ? _mm_loadu_ps(sse2_f(wp)) : _mm_setzero_ps();
    __m128 w = groups ? sse2_spread(w4, 0) : _mm_set1_ps(sse2_weight(wp, 0, c->wf));
    const float* m = sse2_f(palette + off[0]);
    r[0] = _mm_mul_ps(w, _mm_loadu_ps(m));
    r[1] = _mm_mul_ps(w, _mm_loadu_ps(m + 4));
    r[2] = _mm_mul_ps(w, _mm_loadu_ps(m + 8));
    for (int k = 1; k < c->n; k++) {
        if (groups && k % 4 == 0) w4 = _mm_loadu_ps(sse2_f(wp + 4 * k));
        w = groups ? sse2_spread(w4, k % 4) : _mm_set1_ps(sse2_weight(wp, k, c->wf));
        m = sse2_f(palette + off[k]);
        r[0] = _mm_add_ps(r[0], _mm_mul_ps(w, _mm_loadu_ps(m)));
        r[1] = _mm_add_ps(r[1], _mm_mul_ps(w, _mm_loadu_ps(m + 4)));
        r[2] = _mm_add_ps(r[2], _mm_mul_ps(w, _mm_loadu_ps(m + 8)));
    }
}

/* Vertex i's products: its rows (r) times p (w = 1) in mp, the normal's rows
   (the matrix or its cofactor) times n in mn, the rows times t in mt; flip
   has the sign bit where the cofactor's det < 0. */
SW__SSE2_INLINE void sse2_vertex_products(const sse2_job* job, const sse2_cfg* c, const sse2_ptrs* p,
                                          const sse2_strides* s, const uint32_t* off, int i, __m128* mp, __m128* mn,
                                          __m128* mt, __m128* flip) {
    const __m128 one_w = _mm_setr_ps(0.0f, 0.0f, 0.0f, 1.0f);
    const __m128 xyz = _mm_castsi128_ps(_mm_setr_epi32(-1, -1, -1, 0));
    __m128 r[3];
    sse2_blend_rows(job->linear, off, p->wp + i * s->w, c, r);
    /* Inputs are read before any store of the block (in place is allowed).
       Packed streams load 16 bytes but for the block's last vertex. */
    const bool wide = c->packed && i < SSE2_BLOCK - 1;
    __m128 pos = wide ? _mm_and_ps(_mm_loadu_ps(sse2_f(p->ip + i * s->ip)), xyz) : sse2_load3(p->ip + i * s->ip);
    pos = _mm_or_ps(pos, one_w);
    mp[0] = _mm_mul_ps(r[0], pos);
    mp[1] = _mm_mul_ps(r[1], pos);
    mp[2] = _mm_mul_ps(r[2], pos);
    *flip = _mm_setzero_ps();
    if (c->normals) {
        __m128 nrm = wide ? _mm_and_ps(_mm_loadu_ps(sse2_f(p->in + i * s->in)), xyz) : sse2_load3(p->in + i * s->in);
        if (c->cofactor) {
            /* cof(A) rows r1×r2, r2×r0, r0×r1 (w cleared: translations stay out). */
            __m128 c0 = _mm_and_ps(sse2_cross(r[1], r[2]), xyz), c1 = _mm_and_ps(sse2_cross(r[2], r[0]), xyz);
            __m128 c2 = _mm_and_ps(sse2_cross(r[0], r[1]), xyz);
            __m128 det = _mm_mul_ps(r[0], c0);
            det = _mm_add_ps(_mm_add_ps(det, _mm_shuffle_ps(det, det, 0x55)), _mm_shuffle_ps(det, det, 0xAA));
            det = _mm_shuffle_ps(det, det, 0x00);
            *flip = _mm_and_ps(_mm_cmplt_ps(det, _mm_setzero_ps()), _mm_set1_ps(-0.0f));
            mn[0] = _mm_mul_ps(c0, nrm);
            mn[1] = _mm_mul_ps(c1, nrm);
            mn[2] = _mm_mul_ps(c2, nrm);
        } else {
            mn[0] = _mm_mul_ps(r[0], nrm);
            mn[1] = _mm_mul_ps(r[1], nrm);
            mn[2] = _mm_mul_ps(r[2], nrm);
        }
    }
    if (c->tangents) {
        __m128 t = _mm_and_ps(_mm_loadu_ps(sse2_f(p->it + i * s->it)), xyz);
        mt[0] = _mm_mul_ps(r[0], t);
        mt[1] = _mm_mul_ps(r[1], t);
        mt[2] = _mm_mul_ps(r[2], t);
    }
}

/* ---- DQS -------------------------------------------------------------------------------- */

/* The block's Σ ±wₖ·dqₖ in influence order, one vertex per lane: real
   x, y, z, w in q[0..3], dual in d[0..3]; each sign makes the real part's
   dot with the first influence's non-negative (Kavan's antipodality fix). */
SW__SSE2_INLINE void sse2_blend_dual_quats(const sse2_job* job, const sse2_cfg* c, const sse2_ptrs* p,
                                           const sse2_strides* s, const uint32_t* off, __m128* q, __m128* d) {
    const int n = c->n;
    __m128 pivot[4];
    for (int k = 0; k < n; k++) {
        __m128 real[4], dual[4];
        SW__SSE2_UNROLL
        for (int i = 0; i < SSE2_BLOCK; i++) {
            const float* dq = sse2_f(job->dual_quats + off[i * SW_MAX_INFLUENCES + k]);
            real[i] = _mm_loadu_ps(dq);
            dual[i] = _mm_loadu_ps(dq + 4);
        }
        sse2_transpose4(real);
        sse2_transpose4(dual);
        __m128 w = _mm_setr_ps(sse2_weight(p->wp, k, c->wf), sse2_weight(p->wp + s->w, k, c->wf),
                               sse2_weight(p->wp + 2 * s->w, k, c->wf), sse2_weight(p->wp + 3 * s->w, k, c->wf));
        if (k == 0) {
            for (int j = 0; j < 4; j++) pivot[j] = real[j];
        } else {
            __m128 dot = _mm_add_ps(_mm_add_ps(_mm_mul_ps(real[0], pivot[0]), _mm_mul_ps(real[1], pivot[1])),
                                    _mm_add_ps(_mm_mul_ps(real[2], pivot[2]), _mm_mul_ps(real[3], pivot[3])));
            w = _mm_xor_ps(w, _mm_and_ps(_mm_cmplt_ps(dot, _mm_setzero_ps()), _mm_set1_ps(-0.0f)));
        }
        SW__SSE2_UNROLL
        for (int j = 0; j < 4; j++) {
            __m128 wq = _mm_mul_ps(w, real[j]), wd = _mm_mul_ps(w, dual[j]);
            q[j] = k == 0 ? wq : _mm_add_ps(q[j], wq);
            d[j] = k == 0 ? wd : _mm_add_ps(d[j], wd);
        }
    }
}

/* u×v over lanes of x, y, z. */
#define SW__SSE2_CROSS(ax, ay, az, bx, by, bz, cx, cy, cz)                     \
    do {                                                                       \
        cx = _mm_sub_ps(_mm_mul_ps(ay, bz), _mm_mul_ps(az, by));               \
        cy = _mm_sub_ps(_mm_mul_ps(az, bx), _mm_mul_ps(ax, bz));               \
        cz = _mm_sub_ps(_mm_mul_ps(ax, by), _mm_mul_ps(ay, bx));               \
    } while (0)

/* v + s·(w·(u×v) + u×(u×v)), s = 2/|q|²: rotation by q/|q| (sw_quat_rotate's
   formula for a unit quaternion). */
SW__SSE2_INLINE void sse2_rotate(const __m128* q, __m128 s, __m128* x, __m128* y, __m128* z) {
    __m128 cx, cy, cz, ex, ey, ez;
    SW__SSE2_CROSS(q[0], q[1], q[2], *x, *y, *z, cx, cy, cz);
    SW__SSE2_CROSS(q[0], q[1], q[2], cx, cy, cz, ex, ey, ez);
    *x = _mm_add_ps(*x, _mm_mul_ps(s, _mm_add_ps(_mm_mul_ps(q[3], cx), ex)));
    *y = _mm_add_ps(*y, _mm_mul_ps(s, _mm_add_ps(_mm_mul_ps(q[3], cy), ey)));
    *z = _mm_add_ps(*z, _mm_mul_ps(s, _mm_add_ps(_mm_mul_ps(q[3], cz), ez)));
}

/* ---- one block ----------------------------------------------------------------------------- */

/* Four float3 given as x, y, z across lanes. */
SW__SSE2_INLINE void sse2_store_soa(unsigned char* p, size_t stride, bool packed, __m128 x, __m128 y, __m128 z) {
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

/* x, y, z of four float3 (normals, tangents) scaled to unit length in place. */
SW__SSE2_INLINE void sse2_normalize(__m128* x, __m128* y, __m128* z, __m128 flip) {
    __m128 inv = sse2_inv_length(_mm_add_ps(_mm_add_ps(_mm_mul_ps(*x, *x), _mm_mul_ps(*y, *y)), _mm_mul_ps(*z, *z)));
    inv = _mm_xor_ps(inv, flip);
    *x = _mm_mul_ps(*x, inv);
    *y = _mm_mul_ps(*y, inv);
    *z = _mm_mul_ps(*z, inv);
}

SW__SSE2_INLINE void sse2_block(const sse2_job* job, const sse2_cfg* c, const sse2_ptrs* p, const sse2_strides* s) {
    const int n = c->n;
    const bool linear = !c->dqs || c->stretch;
    uint32_t off[SSE2_BLOCK * SW_MAX_INFLUENCES], off_dq[SSE2_BLOCK * SW_MAX_INFLUENCES];
    SW__SSE2_UNROLL
    for (int i = 0; i < SSE2_BLOCK; i++) {
        if (linear)
            sse2_offsets(off + i * SW_MAX_INFLUENCES, p->jp + i * s->j, n, c->jf, job->joint_count, job->scale_mat,
                         c->unchecked);
        if (c->dqs)
            sse2_offsets(off_dq + i * SW_MAX_INFLUENCES, p->jp + i * s->j, n, c->jf, job->joint_count, job->scale_dq,
                         c->unchecked);
    }

    /* Positions, normals, tangents after the linear part, one vertex per lane. */
    __m128 px, py, pz, nx = _mm_setzero_ps(), ny = nx, nz = nx, tx = nx, ty = nx, tz = nx, flip = nx;
    __m128 t_in[SSE2_BLOCK] = {nx, nx, nx, nx};
    if (c->tangents) {
        SW__SSE2_UNROLL
        for (int i = 0; i < SSE2_BLOCK; i++) t_in[i] = _mm_loadu_ps(sse2_f(p->it + i * s->it));
    }
    if (linear) {
        /* Products of two vertices at a time, summed pairwise at once (fewer
           live registers): h[pair][type] = [a0+a2, b0+b2, a1+a3, b1+b3];
           then the two pairs' sums, one vertex per lane. Types: position
           x y z, normal x y z, tangent x y z. */
        const __m128 zero = _mm_setzero_ps();
        __m128 h[2][9], f[SSE2_BLOCK];
#define SW__SSE2_PAIR(pair)                                                                                     \
    do {                                                                                                        \
        __m128 m[2][9];                                                                                         \
        for (int v = 0; v < 2; v++) {                                                                           \
            for (int t = 3; t < 9; t++) m[v][t] = zero;                                                         \
            sse2_vertex_products(job, c, p, s, off + (2 * (pair) + v) * SW_MAX_INFLUENCES, 2 * (pair) + v,      \
                                 m[v], m[v] + 3, m[v] + 6, &f[2 * (pair) + v]);                                 \
        }                                                                                                       \
        for (int t = 0; t < 9; t++)                                                                             \
            h[pair][t] = _mm_add_ps(_mm_unpacklo_ps(m[0][t], m[1][t]), _mm_unpackhi_ps(m[0][t], m[1][t]));      \
    } while (0)
        if (c->packed) {
            /* Specialised loops: written out, whatever the optimisation level. */
            SW__SSE2_PAIR(0);
            SW__SSE2_PAIR(1);
        } else {
            /* The shared copy stays a loop (smaller). */
            for (int pair = 0; pair < 2; pair++) SW__SSE2_PAIR(pair);
        }
#undef SW__SSE2_PAIR
#define SW__SSE2_SUM(t) _mm_add_ps(_mm_movelh_ps(h[0][t], h[1][t]), _mm_movehl_ps(h[1][t], h[0][t]))
        px = SW__SSE2_SUM(0);
        py = SW__SSE2_SUM(1);
        pz = SW__SSE2_SUM(2);
        if (c->normals) {
            nx = SW__SSE2_SUM(3);
            ny = SW__SSE2_SUM(4);
            nz = SW__SSE2_SUM(5);
        }
        if (c->tangents) {
            tx = SW__SSE2_SUM(6);
            ty = SW__SSE2_SUM(7);
            tz = SW__SSE2_SUM(8);
        }
#undef SW__SSE2_SUM
        if (c->cofactor) flip = _mm_movelh_ps(_mm_unpacklo_ps(f[0], f[1]), _mm_unpacklo_ps(f[2], f[3]));
    } else {
        /* DQS without stretch: the inputs, transposed. */
        __m128 v[SSE2_BLOCK];
        SW__SSE2_UNROLL
        for (int i = 0; i < SSE2_BLOCK; i++) v[i] = sse2_load3(p->ip + i * s->ip);
        sse2_transpose4(v);
        px = v[0], py = v[1], pz = v[2];
        if (c->normals) {
            SW__SSE2_UNROLL
            for (int i = 0; i < SSE2_BLOCK; i++) v[i] = sse2_load3(p->in + i * s->in);
            sse2_transpose4(v);
            nx = v[0], ny = v[1], nz = v[2];
        }
        if (c->tangents) {
            SW__SSE2_UNROLL
            for (int i = 0; i < SSE2_BLOCK; i++) v[i] = t_in[i];
            sse2_transpose4(v);
            tx = v[0], ty = v[1], tz = v[2];
        }
    }

    if (c->dqs) {
        __m128 q[4] = {nx, nx, nx, nx}, d[4] = {nx, nx, nx, nx};
        sse2_blend_dual_quats(job, c, p, s, off_dq, q, d);
        __m128 len2 = _mm_add_ps(_mm_add_ps(_mm_mul_ps(q[0], q[0]), _mm_mul_ps(q[1], q[1])),
                                 _mm_add_ps(_mm_mul_ps(q[2], q[2]), _mm_mul_ps(q[3], q[3])));
        const __m128 ok = _mm_cmpgt_ps(len2, _mm_setzero_ps());
        if (_mm_movemask_ps(ok) != 0xF) {
            /* Rare: the identity where the real part is zero (sw_dualquat_normalize). */
            const __m128 one = _mm_set1_ps(1.0f);
            for (int j = 0; j < 3; j++) q[j] = _mm_and_ps(q[j], ok);
            q[3] = _mm_or_ps(_mm_and_ps(ok, q[3]), _mm_andnot_ps(ok, one));
            for (int j = 0; j < 4; j++) d[j] = _mm_and_ps(d[j], ok);
            len2 = _mm_or_ps(_mm_and_ps(ok, len2), _mm_andnot_ps(ok, one));
        }
        const __m128 sc = _mm_div_ps(_mm_set1_ps(2.0f), len2);
        /* Translation s·(w·d − d_w·u + u×d), the normalised dual quaternion's
           2·(dual·conj(real)); the component of dual along real, which
           sw_dualquat_normalize removes, does not change it. */
        __m128 cx, cy, cz;
        SW__SSE2_CROSS(q[0], q[1], q[2], d[0], d[1], d[2], cx, cy, cz);
        __m128 mx = _mm_mul_ps(sc, _mm_add_ps(_mm_sub_ps(_mm_mul_ps(q[3], d[0]), _mm_mul_ps(d[3], q[0])), cx));
        __m128 my = _mm_mul_ps(sc, _mm_add_ps(_mm_sub_ps(_mm_mul_ps(q[3], d[1]), _mm_mul_ps(d[3], q[1])), cy));
        __m128 mz = _mm_mul_ps(sc, _mm_add_ps(_mm_sub_ps(_mm_mul_ps(q[3], d[2]), _mm_mul_ps(d[3], q[2])), cz));
        sse2_rotate(q, sc, &px, &py, &pz);
        px = _mm_add_ps(px, mx);
        py = _mm_add_ps(py, my);
        pz = _mm_add_ps(pz, mz);
        if (c->normals) sse2_rotate(q, sc, &nx, &ny, &nz);
        if (c->tangents) sse2_rotate(q, sc, &tx, &ty, &tz);
    }

    sse2_store_soa(p->op, s->op, c->packed, px, py, pz);
    if (c->normals) {
        sse2_normalize(&nx, &ny, &nz, flip);
        sse2_store_soa(p->on, s->on, c->packed, nx, ny, nz);
    }
    if (c->tangents) {
        sse2_normalize(&tx, &ty, &tz, _mm_setzero_ps());
        __m128 t[SSE2_BLOCK] = {tx, ty, tz, _mm_setzero_ps()};
        sse2_transpose4(t);
        SW__SSE2_UNROLL
        for (int i = 0; i < SSE2_BLOCK; i++) {
            /* xyz from the lanes, w (the bitangent sign) from the input */
            __m128 hi = _mm_shuffle_ps(t[i], t_in[i], _MM_SHUFFLE(3, 3, 2, 2));
            _mm_storeu_ps((float*)(void*)(p->ot + i * s->ot), _mm_shuffle_ps(t[i], hi, _MM_SHUFFLE(2, 0, 1, 0)));
        }
    }
}

/* ---- loops --------------------------------------------------------------------------------- */

/* The block with the configuration read at run time: one shared copy
   (the generic loop and the tails), the same steps as the specialised
   loops, so the same bits. */
#if defined(__clang__)
__attribute__((noinline))
#else
__attribute__((noinline, noclone))
#endif
static void sse2_block_any(const sse2_job* job, const sse2_cfg* c, const sse2_ptrs* p, const sse2_strides* s) {
    sse2_block(job, c, p, s);
}

/* The last count % 4 vertices: copied into a packed block, run, copied back. */
static void sse2_tail(const sse2_job* job, const sse2_cfg* c, const sse2_ptrs* p, const sse2_strides* s,
                      size_t count) {
    unsigned char joints[SSE2_BLOCK * 2 * SW_MAX_INFLUENCES], weights[SSE2_BLOCK * 4 * SW_MAX_INFLUENCES];
    unsigned char pos[SSE2_BLOCK * 12], nrm[SSE2_BLOCK * 12], tan[SSE2_BLOCK * 16];
    const size_t js = (size_t)c->n * (c->jf == SW_JOINT_U8 ? 1 : 2);
    const size_t ws = (size_t)c->n * (c->wf == SW_WEIGHT_U8_NORM ? 1 : c->wf == SW_WEIGHT_U16_NORM ? 2 : 4);
    for (size_t i = 0; i < SSE2_BLOCK; i++) {
        size_t v = i < count ? i : count - 1; /* spare lanes repeat the last vertex */
        memcpy(joints + i * js, p->jp + v * s->j, js);
        memcpy(weights + i * ws, p->wp + v * s->w, ws);
        memcpy(pos + i * 12, p->ip + v * s->ip, 12);
        if (c->normals) memcpy(nrm + i * 12, p->in + v * s->in, 12);
        if (c->tangents) memcpy(tan + i * 16, p->it + v * s->it, 16);
    }
    const sse2_ptrs q = {joints, weights, pos, c->normals ? nrm : NULL, c->tangents ? tan : NULL,
                         pos, c->normals ? nrm : NULL, c->tangents ? tan : NULL};
    const sse2_strides t = {js, ws, 12, 12, 16, 12, 12, 16};
    sse2_cfg packed = *c;
    packed.packed = true;
    sse2_block_any(job, &packed, &q, &t);
    for (size_t i = 0; i < count; i++) {
        memcpy(p->op + i * s->op, pos + i * 12, 12);
        if (c->normals) memcpy(p->on + i * s->on, nrm + i * 12, 12);
        if (c->tangents) memcpy(p->ot + i * s->ot, tan + i * 16, 16);
    }
}

SW__SSE2_INLINE void sse2_loop(const sw__skin_streams* ss, const sse2_cfg* c, bool inline_block) {
    /* The shared functions get a copy: were c's address to escape, the
       compiler could no longer fold its fields here. */
    const sse2_cfg shared = *c;
    const sse2_job job = {ss->linear, ss->dual_quats, ss->joint_count, ss->palette_strides[0], ss->palette_strides[1]};
    sse2_strides s = {ss->joints_stride, ss->weights_stride, ss->in_pos_stride, ss->in_nrm_stride, ss->in_tan_stride,
                      ss->out_pos_stride, ss->out_nrm_stride, ss->out_tan_stride};
    if (c->packed) {
        /* The same values, as constants the compiler folds into addresses. */
        const size_t js = (size_t)c->n * (c->jf == SW_JOINT_U8 ? 1 : 2);
        const sse2_strides k = {js, (size_t)c->n * 4, 12, 12, 16, 12, 12, 16};
        s = k;
    }
    const size_t blocks = ss->count / SSE2_BLOCK;
    for (size_t b = 0; b <= blocks; b++) {
        const size_t v = b * SSE2_BLOCK;
        const sse2_ptrs p = {ss->joints + v * s.j, ss->weights + v * s.w, ss->in_pos + v * s.ip,
                             c->normals ? ss->in_nrm + v * s.in : NULL, c->tangents ? ss->in_tan + v * s.it : NULL,
                             ss->out_pos + v * s.op, c->normals ? ss->out_nrm + v * s.on : NULL,
                             c->tangents ? ss->out_tan + v * s.ot : NULL};
        if (b == blocks) {
            if (ss->count % SSE2_BLOCK) sse2_tail(&job, &shared, &p, &s, ss->count % SSE2_BLOCK);
        } else if (inline_block && sse2_joints_in_range(p.jp, SSE2_BLOCK * c->n, c->jf, job.joint_count)) {
            /* The common case: no per-index range check. A block with a bad
               index runs the checked shared copy (same bits for the rest). */
            sse2_cfg unchecked = *c;
            unchecked.unchecked = true;
            sse2_block(&job, &unchecked, &p, &s);
        } else {
            sse2_block_any(&job, &shared, &p, &s);
        }
    }
}

static void sse2_generic(const sw__skin_streams* s) {
    const sse2_cfg c = {s->influence_count, s->joint_format, s->weight_format, s->in_nrm != NULL, s->in_tan != NULL,
                        s->dqs, s->cofactor, s->dqs && s->linear != NULL, false, false};
    sse2_loop(s, &c, false);
}

/* Specialised loops: f32 weights, blended normals, packed streams with
   normals (and tangents), no DQS stretch; the joint format is read at run
   time. */
#define SW__SSE2_KERNEL(N, DQS, TAN, name)                                                          \
    static void name(const sw__skin_streams* s) {                                                   \
        const sse2_cfg c = {N, s->joint_format, SW_WEIGHT_F32, true, TAN, DQS, false, false, true, false}; \
        sse2_loop(s, &c, true);                                                                     \
    }
#define SW__SSE2_COUNT(N)                             \
    SW__SSE2_KERNEL(N, false, false, sse2_lbs_##N##_pn)  \
    SW__SSE2_KERNEL(N, false, true, sse2_lbs_##N##_pnt)  \
    SW__SSE2_KERNEL(N, true, false, sse2_dqs_##N##_pn)   \
    SW__SSE2_KERNEL(N, true, true, sse2_dqs_##N##_pnt)
SW__SSE2_COUNT(1)
SW__SSE2_COUNT(2)
SW__SSE2_COUNT(3)
SW__SSE2_COUNT(4)
SW__SSE2_COUNT(8)


#define SW__SSE2_ROW(N) \
    {{sse2_lbs_##N##_pn, sse2_lbs_##N##_pnt}, {sse2_dqs_##N##_pn, sse2_dqs_##N##_pnt}}

/* [count: 1, 2, 3, 4, 8][LBS, DQS][tangents] */
static const sw__skin_kernel_fn sse2_kernels[5][2][2] = {SW__SSE2_ROW(1), SW__SSE2_ROW(2), SW__SSE2_ROW(3), SW__SSE2_ROW(4),
                                                  SW__SSE2_ROW(8)};

void sw__skin_run_sse2(const sw_skin_job* job, size_t first, size_t count) {
    const sw__skin_streams s = sw__skin_streams_make(job, first, count);
    static const int count_slot[SW_MAX_INFLUENCES + 1] = {-1, 0, 1, 2, 3, -1, -1, -1, 4};
    const int slot = count_slot[s.influence_count];
    if (slot >= 0 && s.weight_format == SW_WEIGHT_F32 && !s.cofactor && !(s.dqs && s.linear)) {
        const sw__skin_kernel_fn kernel = sse2_kernels[slot][s.dqs][s.in_tan != NULL];
        if (s.packed && s.in_nrm)
            kernel(&s);
        else
            sw__skin_run_staged(&s, kernel); /* strided, or no normals: zeros in their place */
    } else {
        sse2_generic(&s);
    }
}

#endif
