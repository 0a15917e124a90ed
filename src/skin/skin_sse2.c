/* CPU skinning, SSE2 kernels (see sinew/skin.h and skin_internal.h): the
   x86-64 baseline, for CPUs without AVX2 and FMA.

   Blocks of four vertices, one vertex per lane of the arithmetic that
   follows the blend, and no lane ever mixing with another:

   1. per vertex, the blended 3×4 rows (r0, r1, r2): multiply then add in
      influence order, as the scalar kernel does (for DQS: the stretch, when
      given);
   2. for the block, the twelve rows transposed (three 4×4 transposes), so
      each matrix entry has one vertex per lane, and the inputs read as x,
      y, z across lanes (three 16-byte loads and seven shuffles per packed
      float3 stream);
   3. the transforms as the scalar kernel writes them,
      x = ((m00·px + m01·py) + m02·pz) + m03, four vertices per instruction:
      the same operations in the same order, so the same values as the
      scalar kernel (bit for bit but for the sign of a zero);
   4. DQS: the blended dual quaternions, also one vertex per lane, rotate
      and translate the lanes;
   5. normals and tangents normalised four at a time (one SQRT, one DIV),
      every output plus +0 (see below), stores of 48 bytes per block for
      packed float3 streams, else 8 + 4 bytes per vertex.

   Without FMA, three-operand forms or HADDPS, this order costs fewer
   instructions in SSE2 than AVX2's (per vertex products, then horizontal
   sums): the transposes are shared by positions, normals and tangents.

   Specialised loops cover blended normals, 1, 2, 3, 4 or 8 influences and
   positions, positions + normals or positions + normals + tangents, on
   packed streams or on packed copies of strided ones
   (sw__skin_run_staged); weights other than n f32 per vertex are decoded a
   block at a time (sw__decode_weights4). They also skip work the data does
   not need, block by block:
   - influences whose weight is zero in all four vertices at the end of
     the list (the importers pad every vertex to 4 or 8 influences): a
     block blends only up to its last non-zero weight (LBS: one copy of
     the block per count; DQS: a bound on the blending loop);
   - LBS: a block whose only weights are exactly 1 reads the palette rows
     as they are (1·x = x).
   Adding w·M with w = 0 changes a finite sum at most from −0 to +0, and
   only the sign of a zero output can follow, so every path adds +0 to
   every output (−0 becomes +0, nothing else changes) and gives the same
   bits whatever the block a vertex falls in, as long as the palette is
   finite (0·∞ is NaN): the skips run only after a scan found the palette
   (matrices or dual quaternions) finite, on ranges with at least SSE2_SCAN_RATIO vertices per
   joint (so the scan stays cheap). The blocks' joint indices are
   range-checked 256 vertices at a time; a chunk with an index ≥
   joint_count anywhere (even under a zero weight) runs the checked generic
   block (the same bits). The generic loop runs everything else with the
   same steps. */
#include "skin_internal.h"

#if SW__SKIN_SSE2

#include <emmintrin.h>
#include <string.h>

/* Forced inlining and unrolling make the specialised copies; in builds
   without optimisation (debug, sanitizers) they only multiply the code
   the compiler and the sanitizers process (minutes per file), so there the
   helpers stay functions and the loops loops: the same arithmetic. */
#if defined(__OPTIMIZE__)
#define SW__SSE2_INLINE static inline __attribute__((always_inline))
#else
#define SW__SSE2_INLINE static inline
#endif
#if defined(__clang__) || !defined(__OPTIMIZE__)
#define SW__SSE2_UNROLL /* Clang unrolls these at -O2 already */
#define SW__SSE2_SHARED __attribute__((noinline)) static
#else
#define SW__SSE2_UNROLL _Pragma("GCC unroll 8")
#define SW__SSE2_SHARED __attribute__((noinline, noclone)) static
#endif

/* The specialised LBS loops hold several copies of the block (one per
   influence count); GCC's code hoisting would load the inputs, the same
   in every copy, once before choosing the copy, and then spill the six
   registers they take. */
#if defined(__GNUC__) && !defined(__clang__)
#define SW__SSE2_NO_HOIST __attribute__((optimize("no-code-hoisting")))
#else
#define SW__SSE2_NO_HOIST
#endif

enum {
    SSE2_BLOCK = 4,
    SSE2_CHUNK_BLOCKS = 64 /* blocks whose joint indices are range-checked at once */
};

typedef struct sse2_cfg {
    int n;          /* influences per vertex in the streams */
    int blend;      /* influences blended: n, or fewer when the block's later weights are all zero */
    bool rigid;     /* blend == 1 and every weight of the block is exactly 1 */
    sw_joint_format jf;
    sw_weight_format wf;
    bool normals, tangents, dqs, cofactor, stretch;
    bool packed;    /* every stream at its packed stride */
    bool unchecked; /* the block's joint indices are known to be in range */
    bool unnorm;    /* normals and tangents left unnormalised (run time) */
} sse2_cfg;

typedef struct sse2_job {
    const unsigned char* linear;     /* LBS matrices, DQS stretch or NULL */
    const unsigned char* dual_quats;
    uint32_t joint_count;
    uint32_t scale_mat, scale_dq;    /* 48 and 32, opaque to the compiler so it emits one IMUL */
    /* Weights other than n f32 per vertex are decoded a block at a time
       (sw__decode_weights4): the blocks then read f32 weights. */
    bool decode, implied;
    sw_weight_format wf;
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

SW__SSE2_INLINE void sse2_transpose4(__m128* v) {
    __m128 t0 = _mm_unpacklo_ps(v[0], v[1]), t1 = _mm_unpackhi_ps(v[0], v[1]);
    __m128 t2 = _mm_unpacklo_ps(v[2], v[3]), t3 = _mm_unpackhi_ps(v[2], v[3]);
    v[0] = _mm_movelh_ps(t0, t2);
    v[1] = _mm_movehl_ps(t2, t0);
    v[2] = _mm_movelh_ps(t1, t3);
    v[3] = _mm_movehl_ps(t3, t1);
}

/* 1/|v| from |v|², 0 where |v|² is not > 0 (zero vectors stay zero). */
SW__SSE2_INLINE __m128 sse2_inv_length(__m128 len2) {
    __m128 inv = _mm_div_ps(_mm_set1_ps(1.0f), _mm_sqrt_ps(len2));
    return _mm_and_ps(inv, _mm_cmpgt_ps(len2, _mm_setzero_ps()));
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

/* f32 weights k..k+3 of one vertex (as many as there are), reading no byte
   past them unless `spare` (the vertex is not its block's last, so the
   bytes after it belong to the next vertex of the same block). */
SW__SSE2_INLINE __m128 sse2_weights4(const unsigned char* wp, int count, bool spare) {
    if (count >= 4 || (count == 3 && spare)) return _mm_loadu_ps(sse2_f(wp));
    if (count == 3) return _mm_movelh_ps(_mm_loadl_pi(_mm_setzero_ps(), (const __m64*)(const void*)wp),
                                         _mm_load_ss(sse2_f(wp + 8)));
    if (count == 2) return _mm_loadl_pi(_mm_setzero_ps(), (const __m64*)(const void*)wp);
    return _mm_load_ss(sse2_f(wp));
}

/* ---- range checks and palette scan -------------------------------------------------- */

/* The largest byte in each lane of the aligned 16-byte groups g[0..groups). */
static __m128i sse2_max_bytes(const __m128i* g, size_t groups) {
    __m128i a = _mm_setzero_si128();
    size_t i = 0;
    for (; i + 4 <= groups; i += 4) {
        a = _mm_max_epu8(a, _mm_load_si128(g + i));
        a = _mm_max_epu8(a, _mm_load_si128(g + i + 1));
        a = _mm_max_epu8(a, _mm_load_si128(g + i + 2));
        a = _mm_max_epu8(a, _mm_load_si128(g + i + 3));
    }
    for (; i < groups; i++) a = _mm_max_epu8(a, _mm_load_si128(g + i));
    return a;
}

/* Are all `count` packed indices at jp below joint_count? The aligned
   16-byte groups go through one PMAXUB each (a memory operand): for u8
   joints that gives the largest index; for u16 joints, when every high
   byte is zero, the largest low byte is the largest index, else the
   indices are checked one by one, as the unaligned ends always are. */
bool sw__skin_joints_in_range(const unsigned char* jp, size_t count, sw_joint_format jf, uint32_t joint_count) {
    const size_t size = jf == SW_JOINT_U8 ? 1 : 2, bytes = count * size;
    size_t head = (size_t)(-(uintptr_t)jp & 15);
    if (head > bytes || head % size) head = bytes; /* u16 at an odd address: no aligned groups */
    const size_t groups = (bytes - head) / 16, tail = head + groups * 16;
#define SW__SSE2_CHECK(from, to)                                             \
    for (size_t k = (from); k < (to); k += size)                             \
        if ((size == 1 ? jp[k] : sse2_u16(jp + k)) >= joint_count) return false
    SW__SSE2_CHECK(0, head);
    SW__SSE2_CHECK(tail, bytes);
    if (groups == 0) return true;
    uint8_t most[16];
    _mm_storeu_si128((__m128i*)(void*)most, sse2_max_bytes((const __m128i*)(const void*)(jp + head), groups));
    uint32_t largest = 0, high = 0;
    for (size_t i = 0; i < 16; i += size) {
        largest = most[i] > largest ? most[i] : largest;
        if (size == 2) high |= most[i + 1];
    }
    if (high == 0) return largest < joint_count;
    SW__SSE2_CHECK(head, tail);
#undef SW__SSE2_CHECK
    return true;
}

/* Are the `rows` 16-byte rows of floats at p all finite (exponent not all ones)? */
bool sw__skin_rows_finite(const unsigned char* p, size_t rows) {
    const __m128i exponent = _mm_set1_epi32(0x7F800000);
    __m128i bad = _mm_setzero_si128();
    for (size_t i = 0; i < rows; i++) {
        __m128i row = _mm_loadu_si128((const __m128i*)(const void*)(p + 16 * i));
        bad = _mm_or_si128(bad, _mm_cmpeq_epi32(_mm_and_si128(row, exponent), exponent));
    }
    return _mm_movemask_epi8(bad) == 0;
}

/* ---- per vertex ------------------------------------------------------------------------ */

/* Byte offsets of one vertex's first `n` palette entries of `scale` bytes;
   indices ≥ joint_count read entry 0. */
SW__SSE2_INLINE void sse2_offsets(uint32_t* out, const unsigned char* jp, int n, sw_joint_format jf,
                                  uint32_t joint_count, uint32_t scale, bool unchecked) {
    for (int k = 0; k < n; k++) {
        uint32_t j = jf == SW_JOINT_U8 ? jp[k] : sse2_u16(jp + 2 * k);
        out[k] = unchecked || j < joint_count ? j * scale : 0;
    }
}

/* Σ wₖ·palette[jₖ] over the first c->blend influences, multiply then add
   in influence order (the scalar kernel's arithmetic): rows r0, r1, r2 of
   vertex i of the block. */
SW__SSE2_INLINE void sse2_blend_rows(const sse2_job* job, const sse2_cfg* c, const sw__block_ptrs* p,
                                     const sw__block_strides* s, int i, __m128* r) {
    const unsigned char* jp = p->jp + i * s->j;
    const unsigned char* wp = p->wp + i * s->w;
    uint32_t off[SW_MAX_INFLUENCES] = {0};
    sse2_offsets(off, jp, c->blend, c->jf, job->joint_count, job->scale_mat, c->unchecked);
    const float* m = sse2_f(job->linear + off[0]);
    if (c->rigid) { /* every weight 1: the rows as they are */
        r[0] = _mm_loadu_ps(m);
        r[1] = _mm_loadu_ps(m + 4);
        r[2] = _mm_loadu_ps(m + 8);
        return;
    }
    /* f32 weights four at a time, each spread by one PSHUFD. */
    const bool f32 = c->wf == SW_WEIGHT_F32;
    const bool spare = c->packed && i < SSE2_BLOCK - 1;
    __m128 w4 = f32 ? sse2_weights4(wp, c->n, spare) : _mm_setzero_ps();
    __m128 w = f32 ? sse2_spread(w4, 0) : _mm_set1_ps(sse2_weight(wp, 0, c->wf));
    r[0] = _mm_mul_ps(w, _mm_loadu_ps(m));
    r[1] = _mm_mul_ps(w, _mm_loadu_ps(m + 4));
    r[2] = _mm_mul_ps(w, _mm_loadu_ps(m + 8));
    for (int k = 1; k < c->blend; k++) {
        if (f32 && k % 4 == 0) w4 = sse2_weights4(wp + 4 * k, c->n - k, spare);
        w = f32 ? sse2_spread(w4, k % 4) : _mm_set1_ps(sse2_weight(wp, k, c->wf));
        m = sse2_f(job->linear + off[k]);
        r[0] = _mm_add_ps(r[0], _mm_mul_ps(w, _mm_loadu_ps(m)));
        r[1] = _mm_add_ps(r[1], _mm_mul_ps(w, _mm_loadu_ps(m + 4)));
        r[2] = _mm_add_ps(r[2], _mm_mul_ps(w, _mm_loadu_ps(m + 8)));
    }
}

/* ---- four vertices as x, y, z across lanes ------------------------------------------------ */

/* Four float3 at p (stride apart, or packed: 48 bytes). */
SW__SSE2_INLINE void sse2_load_soa(const unsigned char* p, size_t stride, bool packed, __m128* x, __m128* y,
                                   __m128* z) {
    if (packed) {
        /* a = [x0 y0 z0 x1], b = [y1 z1 x2 y2], c = [z2 x3 y3 z3] */
        const __m128 a = _mm_loadu_ps(sse2_f(p)), b = _mm_loadu_ps(sse2_f(p + 16)), c = _mm_loadu_ps(sse2_f(p + 32));
        const __m128 a2b1 = _mm_shuffle_ps(a, b, _MM_SHUFFLE(0, 1, 0, 2)); /* a2 a0 b1 b0 */
        const __m128 b2c1 = _mm_shuffle_ps(b, c, _MM_SHUFFLE(0, 1, 0, 2)); /* b2 b0 c1 c0 */
        const __m128 a1b0 = _mm_shuffle_ps(a, b, _MM_SHUFFLE(0, 0, 0, 1)); /* a1 a0 b0 b0 */
        const __m128 b3c2 = _mm_shuffle_ps(b, c, _MM_SHUFFLE(0, 2, 0, 3)); /* b3 b0 c2 c0 */
        *x = _mm_shuffle_ps(a, b2c1, _MM_SHUFFLE(2, 0, 3, 0));            /* a0 a3 b2 c1 */
        *y = _mm_shuffle_ps(a1b0, b3c2, _MM_SHUFFLE(2, 0, 2, 0));         /* a1 b0 b3 c2 */
        *z = _mm_shuffle_ps(a2b1, c, _MM_SHUFFLE(3, 0, 2, 0));            /* a2 b1 c0 c3 */
        return;
    }
    __m128 v[SSE2_BLOCK];
    SW__SSE2_UNROLL
    for (int i = 0; i < SSE2_BLOCK; i++) v[i] = sse2_load3(p + i * stride);
    sse2_transpose4(v);
    *x = v[0], *y = v[1], *z = v[2];
}

/* x, y, z of four float3 (normals, tangents) scaled to unit length in
   place (unnorm: only the cofactor's sign). */
SW__SSE2_INLINE void sse2_normalize(__m128* x, __m128* y, __m128* z, __m128 flip, bool unnorm) {
    __m128 inv = unnorm ? _mm_set1_ps(1.0f)
                        : sse2_inv_length(_mm_add_ps(_mm_add_ps(_mm_mul_ps(*x, *x), _mm_mul_ps(*y, *y)),
                                                     _mm_mul_ps(*z, *z)));
    inv = _mm_xor_ps(inv, flip);
    *x = _mm_mul_ps(*x, inv);
    *y = _mm_mul_ps(*y, inv);
    *z = _mm_mul_ps(*z, inv);
}

/* ((a·x + b·y) + c·z), the scalar kernel's order. */
SW__SSE2_INLINE __m128 sse2_dot3(__m128 a, __m128 b, __m128 c, __m128 x, __m128 y, __m128 z) {
    return _mm_add_ps(_mm_add_ps(_mm_mul_ps(a, x), _mm_mul_ps(b, y)), _mm_mul_ps(c, z));
}

/* ---- DQS -------------------------------------------------------------------------------- */

/* The block's Σ ±wₖ·dqₖ in influence order, one vertex per lane: real
   x, y, z, w in q[0..3], dual in d[0..3]; each sign makes the real part's
   dot with the first influence's non-negative (Kavan's antipodality fix). */
SW__SSE2_INLINE void sse2_blend_dual_quats(const sse2_job* job, const sse2_cfg* c, const sw__block_ptrs* p,
                                           const sw__block_strides* s, __m128* q, __m128* d) {
    const int n = c->n;
    uint32_t off[SSE2_BLOCK * SW_MAX_INFLUENCES];
    SW__SSE2_UNROLL
    for (int i = 0; i < SSE2_BLOCK; i++)
        sse2_offsets(off + i * SW_MAX_INFLUENCES, p->jp + i * s->j, n, c->jf, job->joint_count, job->scale_dq,
                     c->unchecked);
    __m128 pivot[4];
    for (int k = 0; k < n; k++) {
        if (k >= c->blend) break; /* the block's weights from k on are all zero (see sse2_loop) */
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

/* Moves [p, n, t] (x, y, z across lanes) by the block's blended dual quaternions. */
SW__SSE2_INLINE void sse2_dqs(const sse2_job* job, const sse2_cfg* c, const sw__block_ptrs* p,
                              const sw__block_strides* s, __m128* px, __m128* py, __m128* pz, __m128* nx, __m128* ny,
                              __m128* nz, __m128* tx, __m128* ty, __m128* tz) {
    const __m128 zero = _mm_setzero_ps();
    __m128 q[4] = {zero, zero, zero, zero}, d[4] = {zero, zero, zero, zero};
    sse2_blend_dual_quats(job, c, p, s, q, d);
    __m128 len2 = _mm_add_ps(_mm_add_ps(_mm_mul_ps(q[0], q[0]), _mm_mul_ps(q[1], q[1])),
                             _mm_add_ps(_mm_mul_ps(q[2], q[2]), _mm_mul_ps(q[3], q[3])));
    const __m128 ok = _mm_cmpgt_ps(len2, zero);
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
    sse2_rotate(q, sc, px, py, pz);
    *px = _mm_add_ps(*px, mx);
    *py = _mm_add_ps(*py, my);
    *pz = _mm_add_ps(*pz, mz);
    if (c->normals) sse2_rotate(q, sc, nx, ny, nz);
    if (c->tangents) sse2_rotate(q, sc, tx, ty, tz);
}

/* ---- one block ----------------------------------------------------------------------------- */

SW__SSE2_INLINE void sse2_block(const sse2_job* job, const sse2_cfg* c, const sw__block_ptrs* p,
                                const sw__block_strides* s) {
    const bool linear = !c->dqs || c->stretch;
    const __m128 zero = _mm_setzero_ps();

    /* Linear part first: its rows are the longest-lived values, and inputs
       are read only after (they are all read before any store of the
       block, so outputs may be the inputs). */
    __m128 m[3][4];
    if (linear) {
        __m128 r[SSE2_BLOCK][3];
        SW__SSE2_UNROLL
        for (int i = 0; i < SSE2_BLOCK; i++) sse2_blend_rows(job, c, p, s, i, r[i]);
        SW__SSE2_UNROLL
        for (int j = 0; j < 3; j++) {
            /* Row j of the four vertices: m[j][k] is entry (j, k), one vertex per lane. */
            m[j][0] = r[0][j], m[j][1] = r[1][j], m[j][2] = r[2][j], m[j][3] = r[3][j];
            sse2_transpose4(m[j]);
        }
    }

    __m128 px, py, pz, nx = zero, ny = zero, nz = zero, tx = zero, ty = zero, tz = zero, flip = zero;
    __m128 t_in[SSE2_BLOCK] = {zero, zero, zero, zero};
    sse2_load_soa(p->ip, s->ip, c->packed, &px, &py, &pz);
    if (c->normals) sse2_load_soa(p->in, s->in, c->packed, &nx, &ny, &nz);
    if (c->tangents) {
        __m128 t[SSE2_BLOCK];
        SW__SSE2_UNROLL
        for (int i = 0; i < SSE2_BLOCK; i++) t[i] = t_in[i] = _mm_loadu_ps(sse2_f(p->it + i * s->it));
        sse2_transpose4(t);
        tx = t[0], ty = t[1], tz = t[2];
    }

    if (linear) {
        /* x = ((m00·px + m01·py) + m02·pz) + m03, as sw_mat34_apply_point. */
        const __m128 ox = _mm_add_ps(sse2_dot3(m[0][0], m[0][1], m[0][2], px, py, pz), m[0][3]);
        const __m128 oy = _mm_add_ps(sse2_dot3(m[1][0], m[1][1], m[1][2], px, py, pz), m[1][3]);
        const __m128 oz = _mm_add_ps(sse2_dot3(m[2][0], m[2][1], m[2][2], px, py, pz), m[2][3]);
        if (c->normals && c->cofactor) {
            /* cof(A) rows c0 = r1×r2, c1 = r2×r0, c2 = r0×r1; a negative det
               (a mirroring map) flips the normal back outward. */
            __m128 c00, c01, c02, c10, c11, c12, c20, c21, c22;
            SW__SSE2_CROSS(m[1][0], m[1][1], m[1][2], m[2][0], m[2][1], m[2][2], c00, c01, c02);
            SW__SSE2_CROSS(m[2][0], m[2][1], m[2][2], m[0][0], m[0][1], m[0][2], c10, c11, c12);
            SW__SSE2_CROSS(m[0][0], m[0][1], m[0][2], m[1][0], m[1][1], m[1][2], c20, c21, c22);
            const __m128 det = sse2_dot3(m[0][0], m[0][1], m[0][2], c00, c01, c02);
            flip = _mm_and_ps(_mm_cmplt_ps(det, zero), _mm_set1_ps(-0.0f));
            const __m128 onx = sse2_dot3(c00, c01, c02, nx, ny, nz);
            const __m128 ony = sse2_dot3(c10, c11, c12, nx, ny, nz);
            nz = sse2_dot3(c20, c21, c22, nx, ny, nz);
            nx = onx, ny = ony;
        } else if (c->normals) {
            const __m128 onx = sse2_dot3(m[0][0], m[0][1], m[0][2], nx, ny, nz);
            const __m128 ony = sse2_dot3(m[1][0], m[1][1], m[1][2], nx, ny, nz);
            nz = sse2_dot3(m[2][0], m[2][1], m[2][2], nx, ny, nz);
            nx = onx, ny = ony;
        }
        if (c->tangents) {
            const __m128 otx = sse2_dot3(m[0][0], m[0][1], m[0][2], tx, ty, tz);
            const __m128 oty = sse2_dot3(m[1][0], m[1][1], m[1][2], tx, ty, tz);
            tz = sse2_dot3(m[2][0], m[2][1], m[2][2], tx, ty, tz);
            tx = otx, ty = oty;
        }
        px = ox, py = oy, pz = oz;
    }

    if (c->dqs) sse2_dqs(job, c, p, s, &px, &py, &pz, &nx, &ny, &nz, &tx, &ty, &tz);

    /* + 0: a −0 becomes +0, nothing else changes (see the top of the file). */
    sw__store_float3x4(p->op, s->op, c->packed, _mm_add_ps(px, zero), _mm_add_ps(py, zero), _mm_add_ps(pz, zero));
    if (c->normals) {
        sse2_normalize(&nx, &ny, &nz, flip, c->unnorm);
        sw__store_float3x4(p->on, s->on, c->packed, _mm_add_ps(nx, zero), _mm_add_ps(ny, zero), _mm_add_ps(nz, zero));
    }
    if (c->tangents) {
        sse2_normalize(&tx, &ty, &tz, zero, c->unnorm);
        __m128 t[SSE2_BLOCK] = {_mm_add_ps(tx, zero), _mm_add_ps(ty, zero), _mm_add_ps(tz, zero), zero};
        sse2_transpose4(t);
        SW__SSE2_UNROLL
        for (int i = 0; i < SSE2_BLOCK; i++) {
            /* xyz from the lanes, w (the bitangent sign) from the input */
            __m128 hi = _mm_shuffle_ps(t[i], t_in[i], _MM_SHUFFLE(3, 3, 2, 2));
            _mm_storeu_ps((float*)(void*)(p->ot + i * s->ot), _mm_shuffle_ps(t[i], hi, _MM_SHUFFLE(2, 0, 1, 0)));
        }
    }
}

/* The influences a block of packed f32 weights needs: one past the last
   influence whose weight is not zero in some vertex (at least 1). *rigid:
   that is 1 and the four weights are exactly 1. */
SW__SSE2_INLINE int sse2_block_influences(const unsigned char* wp, int n, bool* rigid) {
    __m128i any = _mm_setzero_si128(), any_hi = _mm_setzero_si128();
    SW__SSE2_UNROLL
    for (int i = 0; i < SSE2_BLOCK; i++) {
        const unsigned char* w = wp + (size_t)(i * n * 4);
        any = _mm_or_si128(any, _mm_castps_si128(sse2_weights4(w, n, i < SSE2_BLOCK - 1)));
        if (n > 4) any_hi = _mm_or_si128(any_hi, _mm_castps_si128(sse2_weights4(w + 16, n - 4, i < SSE2_BLOCK - 1)));
    }
    const __m128i zero = _mm_setzero_si128();
    unsigned used = (unsigned)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(any, zero))) ^ 0xFu;
    if (n > 4) used |= ((unsigned)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(any_hi, zero))) ^ 0xFu) << 4;
    used &= (1u << n) - 1u; /* lanes past n (n = 3: the next vertex's first weight) */
    const int count = used ? 32 - __builtin_clz(used) : 1;
    *rigid = false;
    if (count == 1) {
        /* Every first weight exactly 1: compared as bits (1.0f is 0x3F800000). */
        uint32_t w[SSE2_BLOCK];
        SW__SSE2_UNROLL
        for (int i = 0; i < SSE2_BLOCK; i++) memcpy(&w[i], wp + (size_t)(i * n * 4), 4);
        *rigid = w[0] == 0x3F800000u && w[1] == 0x3F800000u && w[2] == 0x3F800000u && w[3] == 0x3F800000u;
    }
    return count;
}

/* sse2_block_influences for decoded weights: from their lanes. */
SW__SSE2_INLINE int sse2_decoded_influences(const sw__weights4* d, bool* rigid) {
    const int count = d->used ? 32 - __builtin_clz(d->used) : 1;
    *rigid = count == 1 && d->ones;
    return count;
}

/* A block's weights decoded (when the job's are not n f32 per vertex):
   *p then points at them, read with stride 4·n (the loops' `s.w`). */
SW__SSE2_INLINE void sse2_decode(const sse2_job* job, int n, bool packed, const sw__block_strides* s,
                                 sw__block_ptrs* p, sw__weights4* d) {
    sw__decode_weights4(d, p->wp, s->wsrc, packed, n, job->wf, job->implied);
    p->wp = (const unsigned char*)d->aos;
}

/* ---- loops --------------------------------------------------------------------------------- */

/* The block with the configuration read at run time: one shared copy
   (the generic loop, the tails and checked chunks), the same steps as the
   specialised loops, so the same bits. */
SW__SSE2_SHARED void sse2_block_any(const sse2_job* job, const sse2_cfg* c, const sw__block_ptrs* p,
                                    const sw__block_strides* s) {
    sse2_block(job, c, p, s);
}

/* The last count % 4 vertices, through a packed copy (sw__tail_block). */
static void sse2_tail(const sse2_job* job, const sse2_cfg* c, const sw__block_ptrs* p, const sw__block_strides* s,
                      size_t count) {
    sw__tail_block t;
    sw__tail_gather(&t, p, s, count, c->n, c->jf, job->wf, job->implied, c->normals, c->tangents);
    sse2_cfg packed = *c;
    packed.packed = true;
    packed.unchecked = false;
    sw__weights4 d;
    if (job->decode) {
        sse2_decode(job, c->n, true, &t.strides, &t.ptrs, &d);
        t.strides.w = (size_t)c->n * 4;
    }
    sse2_block_any(job, &packed, &t.ptrs, &t.strides);
    sw__tail_scatter(&t, p, s, count);
}

/* One block of a specialised LBS loop with its joints in range: blends
   only the influences the block uses (skip: the palette is finite). Each
   case has its own constant configuration, so each is a copy of the block
   with its count known. */
SW__SSE2_INLINE void sse2_block_lbs(const sse2_job* job, const sse2_cfg* c, const sw__block_ptrs* p,
                                    const sw__block_strides* s, bool skip, const sw__weights4* decoded) {
#define SW__SSE2_RUN(count, is_rigid)                                                                      \
    do {                                                                                                   \
        const sse2_cfg k = {c->n, (count) < c->n ? (count) : c->n, is_rigid, c->jf, c->wf, c->normals,     \
                            c->tangents, false, false, false, true, true, c->unnorm};                      \
        sse2_block(job, &k, p, s);                                                                         \
    } while (0)
    bool rigid = false;
    const int used = !skip ? c->n : decoded ? sse2_decoded_influences(decoded, &rigid)
                                            : sse2_block_influences(p->wp, c->n, &rigid);
    if (rigid)
        SW__SSE2_RUN(1, true);
    else if (used == 1)
        SW__SSE2_RUN(1, false);
    else if (used == 2)
        SW__SSE2_RUN(2, false);
    else if (used == 3)
        SW__SSE2_RUN(3, false);
    else if (used == 4 || c->n == 4)
        SW__SSE2_RUN(4, false);
    else
        SW__SSE2_RUN(SW_MAX_INFLUENCES, false);
#undef SW__SSE2_RUN
}

SW__SSE2_INLINE void sse2_loop(const sw__skin_streams* ss, const sse2_cfg* c, bool specialised) {
    /* The shared functions get a copy: were c's address to escape, the
       compiler could no longer fold its fields here. */
    const sse2_cfg shared = *c;
    const bool decode = sw__weights_decoded(ss->weight_format, ss->implied);
    const sse2_job job = {ss->linear,
                          ss->dual_quats,
                          ss->joint_count,
                          ss->palette_strides[0],
                          ss->palette_strides[1],
                          decode,
                          ss->implied,
                          ss->weight_format};
    /* Packed: the same values, as constants the compiler folds into
       addresses. Const, so that passing its address to the shared block
       does not make the loop reload it. The blocks read n f32 weights per
       vertex (decoded or not); wsrc steps through the weight stream. */
    const size_t js = (size_t)c->n * (c->jf == SW_JOINT_U8 ? 1 : 2);
    const sw__block_strides s =
        c->packed || decode
            ? (sw__block_strides){c->packed ? js : ss->joints_stride,
                                  (size_t)c->n * 4,
                                  c->packed ? 12 : ss->in_pos_stride,
                                  c->packed ? 12 : ss->in_nrm_stride,
                                  c->packed ? 16 : ss->in_tan_stride,
                                  c->packed ? 12 : ss->out_pos_stride,
                                  c->packed ? 12 : ss->out_nrm_stride,
                                  c->packed ? 16 : ss->out_tan_stride,
                                  ss->weights_stride}
            : (sw__block_strides){ss->joints_stride, ss->weights_stride, ss->in_pos_stride, ss->in_nrm_stride,
                                  ss->in_tan_stride, ss->out_pos_stride, ss->out_nrm_stride, ss->out_tan_stride,
                                  ss->weights_stride};
    /* Local copies of the streams: stores through the outputs could
       otherwise alias *ss and make the loop reload them. */
    const sw__block_ptrs base = {ss->joints, ss->weights, ss->in_pos, c->normals ? ss->in_nrm : NULL,
                                 c->tangents ? ss->in_tan : NULL, ss->out_pos, c->normals ? ss->out_nrm : NULL,
                                 c->tangents ? ss->out_tan : NULL};
    const uint32_t joint_count = ss->joint_count;
    const size_t count = ss->count, blocks = count / SSE2_BLOCK;
    /* Skipping zero weights needs a finite palette; the scan is paid for
       only by ranges with several vertices per joint. */
    const bool lbs = specialised && !c->dqs;
    const bool skip = specialised && !c->stretch &&
                      (ss->finite >= 0 ? ss->finite == 1
                                       : count >= (size_t)SW__SKIN_SCAN_RATIO * joint_count &&
                                             (c->dqs ? sw__skin_rows_finite(job.dual_quats, (size_t)joint_count * 2)
                                                     : sw__skin_rows_finite(job.linear, (size_t)joint_count * 3)));
#define SW__SSE2_PTRS(v)                                                                                          \
    {base.jp + (v) * s.j, base.wp + (v) * s.wsrc, base.ip + (v) * s.ip, c->normals ? base.in + (v) * s.in : NULL,  \
     c->tangents ? base.it + (v) * s.it : NULL, base.op + (v) * s.op, c->normals ? base.on + (v) * s.on : NULL,    \
     c->tangents ? base.ot + (v) * s.ot : NULL}
    for (size_t b0 = 0; b0 < blocks; b0 += SSE2_CHUNK_BLOCKS) {
        const size_t b1 = blocks - b0 < SSE2_CHUNK_BLOCKS ? blocks : b0 + SSE2_CHUNK_BLOCKS;
        const bool in_range = specialised && c->packed &&
                              sw__skin_joints_in_range(base.jp + b0 * SSE2_BLOCK * s.j,
                                                       (b1 - b0) * SSE2_BLOCK * (size_t)c->n, c->jf, joint_count);
        if (!in_range) {
            /* The generic loop, or an index out of range in this chunk. */
            for (size_t b = b0; b < b1; b++) {
                sw__block_ptrs p = SW__SSE2_PTRS(b * SSE2_BLOCK);
                sw__weights4 d;
                if (decode) sse2_decode(&job, c->n, c->packed, &s, &p, &d);
                sse2_block_any(&job, &shared, &p, &s);
            }
            continue;
        }
        /* Weights that need decoding are decoded a block ahead (alternate
           buffers): the division and shuffles then stay off the chain
           that feeds the blend. */
        sw__weights4 ahead_a, ahead_b;
        sw__weights4 *d = &ahead_a, *next = &ahead_b;
        const unsigned char* wnext = base.wp + b0 * SSE2_BLOCK * s.wsrc;
        if (decode) sw__decode_weights4(d, wnext, s.wsrc, true, c->n, job.wf, job.implied);
        for (size_t b = b0; b < b1; b++) {
            sw__block_ptrs p = SW__SSE2_PTRS(b * SSE2_BLOCK);
            if (decode) {
                wnext += SSE2_BLOCK * s.wsrc;
                if (b + 1 < b1) sw__decode_weights4(next, wnext, s.wsrc, true, c->n, job.wf, job.implied);
                p.wp = (const unsigned char*)d->aos;
            }
            if (lbs) {
                sse2_block_lbs(&job, c, &p, &s, skip, decode ? d : NULL);
            } else {
                sse2_cfg unchecked = *c;
                unchecked.unchecked = true;
                bool rigid;
                if (skip) /* DQS: a loop bound */
                    unchecked.blend =
                        decode ? sse2_decoded_influences(d, &rigid) : sse2_block_influences(p.wp, c->n, &rigid);
                sse2_block(&job, &unchecked, &p, &s);
            }
            sw__weights4* t = d;
            d = next;
            next = t;
        }
    }
    if (count % SSE2_BLOCK) {
        const sw__block_ptrs p = SW__SSE2_PTRS(blocks * SSE2_BLOCK);
        sse2_tail(&job, &shared, &p, &s, count % SSE2_BLOCK);
    }
#undef SW__SSE2_PTRS
}

static void sse2_generic(const sw__skin_streams* s) {
    /* Weights reach the blocks as f32 (decoded a block at a time otherwise). */
    const sse2_cfg c = {s->influence_count, s->influence_count, false, s->joint_format, SW_WEIGHT_F32,
                        s->in_nrm != NULL, s->in_tan != NULL, s->dqs, s->cofactor, s->dqs && s->linear != NULL,
                        false, false, s->unnormalized};
    sse2_loop(s, &c, false);
}

/* Specialised loops: blended normals, packed streams of positions (and
   normals, and tangents), no DQS stretch; LBS per joint format (its
   stride is then a constant), DQS reading the joint format at run time.
   Weights other than f32 are decoded a block at a time. */
#define SW__SSE2_LBS(N, JF, NRM, TAN, name)                                                                        \
    SW__SSE2_NO_HOIST static void name(const sw__skin_streams* s) {                                                \
        const sse2_cfg c = {N, N, false, JF, SW_WEIGHT_F32, NRM, TAN, false, false, false, true, false, s->unnormalized}; \
        sse2_loop(s, &c, true);                                                                                    \
    }
#define SW__SSE2_DQS(N, NRM, TAN, name)                                                                            \
    static void name(const sw__skin_streams* s) {                                                                  \
        const sse2_cfg c = {N, N, false, s->joint_format, SW_WEIGHT_F32, NRM, TAN, true, false, false, true, false, \
                            s->unnormalized};                                                                      \
        sse2_loop(s, &c, true);                                                                                    \
    }
SW__SKIN_KERNEL_SET(sse2, SW__SSE2_LBS, SW__SSE2_DQS)

void sw__skin_run_sse2(const sw_skin_job* job, size_t first, size_t count) {
    sw__skin_dispatch(job, first, count, sse2_kernels, sse2_generic);
}

#endif
