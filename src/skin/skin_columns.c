/* CPU skinning in a second shape, "columns" (sinew/skin.h:
   SW_SKIN_KERNEL_SSE2_COLUMNS and SW_SKIN_KERNEL_AVX2_COLUMNS), the shape of
   ozz-animation's SkinningJob:

   1. once per run, the palette as columns: each joint's 3×4 rows
      transposed into four 4-wide columns c0, c1, c2 (the 3×3) and c3 (the
      translation), w = 0, 64 bytes a joint on the stack (palettes of up to
      256 joints, padded to 256 with joint 0 so an 8-bit index needs no
      check; larger palettes transpose each influence as it is read, the
      same floats);
   2. one vertex at a time, the blended matrix as weighted sums of columns:
      SSE2 four 4-wide multiply-adds per influence, AVX2 two 8-wide FMAs on
      [c0 | c1] and [c2 | c3]; no per-vertex branch, no zero-weight skip;
   3. the position as c0·x + c1·y + c2·z + c3 (AVX2: [c0 | c1]·[x | y] +
      [c2 | c3]·[z | 1], then the two halves added), the normal and tangent
      likewise without c3: coordinates are broadcast, never summed across
      lanes;
   4. normals and tangents of a block of four vertices transposed once,
      normalised with one square root and one division, stored as float3 or
      as INT_2_10_10_10 words (four words in one 16-byte store);
   5. positions stored as they come: 16 bytes at a time inside a packed
      block (the extra 4 bytes are the next vertex's, rewritten next), the
      block's last vertex and strided or in-place streams 8 + 4 bytes.

   Quantised streams: S16 positions are converted to float and multiplied
   by the caller's dequantised palette; OCT16 normals are decoded four at a
   time in integer-valued floats (exact) and normalised after the transform.
   A vertex's bits do not depend on its block or range (tails run through a
   packed copy of four vertices). DQS, cofactor normals and tangents
   without normals go to the SSE2 / AVX2 kernel. */
#include "skin_internal.h"

#if SW__SKIN_X86

#include <immintrin.h>
#include <string.h>

#define COLS_AVX2 __attribute__((target("avx2,fma")))
/* Forced inlining makes the specialised copies; without optimisation
   (debug, sanitizers) it only multiplies the code to compile and
   instrument (40 s for this file under ASan), as in skin_avx2.c. */
#if defined(__OPTIMIZE__)
#define COLS_INLINE static inline __attribute__((always_inline))
#else
#define COLS_INLINE static inline
#endif

/* Loops over a block's vertices and a vertex's influences unrolled (GCC
   keeps them at -O2, and the block's directions then live in memory). */
#if defined(__clang__) || !defined(__OPTIMIZE__)
#define COLS_UNROLL
#else
#define COLS_UNROLL _Pragma("GCC unroll 8")
#endif

enum { COLS_BLOCK = 4, COLS_STACK_JOINTS = 256 };

/* What a loop knows about a job; the specialised loops pass literals. */
typedef struct cols_cfg {
    int n;                 /* influences */
    sw_joint_format jf;
    bool f32w;             /* n f32 weights per vertex, read in place (else decoded a block at a time) */
    bool normals, tangents;
    bool qpos, qnrm, pack; /* S16 positions, OCT16 normals, INT_2_10_10_10 output normals */
    bool packed;           /* every stream at its packed stride (constant strides), outputs not over the inputs */
    bool stack;            /* the palette's columns on the stack (≤ 256 joints) */
    sw_weight_format wf;   /* the weights as stored, and the last implied: constants for the decode */
    bool implied;
} cols_cfg;

/* What stays the same over a run. */
typedef struct cols_run {
    const float* columns;      /* 16 floats per joint, COLS_STACK_JOINTS joints, or NULL: transpose per influence */
    const unsigned char* rows; /* the caller's sw_mat34 palette */
    uint32_t joint_count;
    sw_weight_format wf;
    bool implied, unnorm;
    bool wpacked;              /* the weight stream is packed (block decode loads it at once) */
    bool overlap_ok;           /* 16-byte position stores inside a block (packed, not in place) */
    bool out_nrm_packed;       /* float3 normals at stride 12 */
    sw__block_strides s;
} cols_run;

/* ---- shared 128-bit steps (inlined into both instruction sets) ------------------ */

COLS_INLINE uint32_t cols_u16(const unsigned char* p) {
    uint16_t v;
    memcpy(&v, p, 2);
    return v;
}

COLS_INLINE float cols_f32(const unsigned char* p) {
    float v;
    memcpy(&v, p, 4);
    return v;
}

/* Joint j's columns c0..c3 into out (16 floats). */
COLS_INLINE void cols_transpose(float* out, const unsigned char* rows, uint32_t j) {
    const float* m = (const float*)(const void*)(rows + (size_t)j * sizeof(sw_mat34));
    __m128 r0 = _mm_loadu_ps(m), r1 = _mm_loadu_ps(m + 4), r2 = _mm_loadu_ps(m + 8), r3 = _mm_setzero_ps();
    _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
    _mm_store_ps(out, r0);
    _mm_store_ps(out + 4, r1);
    _mm_store_ps(out + 8, r2);
    _mm_store_ps(out + 12, r3);
}

/* Influence k's joint (an index ≥ joint_count reads joint 0, as the scalar kernel). */
COLS_INLINE uint32_t cols_joint(const cols_cfg* c, const cols_run* r, const unsigned char* jp, int k) {
    if (c->jf == SW_JOINT_U8) return jp[k]; /* < 256: padded stack palette, or a palette > 256 joints */
    const uint32_t j = cols_u16(jp + 2 * k);
    return j & ((uint32_t)0 - (uint32_t)(j < r->joint_count)); /* a mask, not a branch */
}

/* Influence k's columns: in the stack copy, or transposed into tmp. */
COLS_INLINE const float* cols_entry(const cols_cfg* c, const cols_run* r, uint32_t j, float* tmp) {
    if (c->stack) return r->columns + 16 * (size_t)j;
    cols_transpose(tmp, r->rows, j);
    return tmp;
}

/* Weight k of block vertex i: in place (f32) or from the decoded block. */
COLS_INLINE const float* cols_weight(const cols_cfg* c, const sw__block_ptrs* p, const cols_run* r,
                                     const sw__weights4* d, int i, int k) {
    if (c->f32w) return (const float*)(const void*)(p->wp + (size_t)i * r->s.w + 4 * (size_t)k);
    return &d->aos[i * c->n + k];
}

/* 1/|v| from |v|², 0 where |v|² is not > 0 (the scalar sw_vec3_normalize). */
COLS_INLINE __m128 cols_inv_length(__m128 len2) {
    const __m128 inv = _mm_div_ps(_mm_set1_ps(1.0f), _mm_sqrt_ps(len2));
    return _mm_and_ps(inv, _mm_cmpgt_ps(len2, _mm_setzero_ps()));
}

/* Four directions (x, y, z, 0 each) transposed to x, y, z across lanes and
   normalised (or left as they are). */
COLS_INLINE void cols_soa(__m128* d, bool normalize, __m128* x, __m128* y, __m128* z) {
    __m128 a = d[0], b = d[1], e = d[2], f = d[3];
    _MM_TRANSPOSE4_PS(a, b, e, f);
    if (normalize) {
        const __m128 inv = cols_inv_length(_mm_add_ps(_mm_add_ps(_mm_mul_ps(a, a), _mm_mul_ps(b, b)), _mm_mul_ps(e, e)));
        a = _mm_mul_ps(a, inv), b = _mm_mul_ps(b, inv), e = _mm_mul_ps(e, inv);
    }
    *x = a, *y = b, *z = e;
}

/* x, y, z across lanes as four INT_2_10_10_10 words (sw_pack_int_2_10_10_10). */
COLS_INLINE __m128i cols_pack_2_10_10_10(__m128 x, __m128 y, __m128 z) {
    const __m128 lo = _mm_set1_ps(-1.0f), hi = _mm_set1_ps(1.0f), s = _mm_set1_ps(511.0f);
    const __m128i mask = _mm_set1_epi32(1023);
#define SW__Q(v) _mm_and_si128(_mm_cvtps_epi32(_mm_mul_ps(_mm_min_ps(_mm_max_ps((v), lo), hi), s)), mask)
    return _mm_or_si128(SW__Q(x), _mm_or_si128(_mm_slli_epi32(SW__Q(y), 10), _mm_slli_epi32(SW__Q(z), 20)));
#undef SW__Q
}

/* The block's normals: stored as float3 or packed words. */
COLS_INLINE void cols_store_normals(const cols_cfg* c, const cols_run* r, unsigned char* on, __m128* d) {
    __m128 x, y, z;
    cols_soa(d, !r->unnorm, &x, &y, &z);
    if (c->pack) {
        const __m128i words = cols_pack_2_10_10_10(x, y, z);
        if (r->s.on == 4) {
            _mm_storeu_si128((__m128i*)(void*)on, words);
        } else {
            uint32_t w[4];
            _mm_storeu_si128((__m128i*)(void*)w, words);
            for (int i = 0; i < COLS_BLOCK; i++) memcpy(on + (size_t)i * r->s.on, &w[i], 4);
        }
        return;
    }
    sw__store_float3x4(on, r->s.on, c->packed || r->out_nrm_packed, x, y, z);
}

/* The block's tangents, w copied from the inputs (tw). */
COLS_INLINE void cols_store_tangents(const cols_run* r, unsigned char* ot, __m128* d, __m128 tw) {
    __m128 x, y, z;
    cols_soa(d, !r->unnorm, &x, &y, &z);
    _MM_TRANSPOSE4_PS(x, y, z, tw);
    _mm_storeu_ps((float*)(void*)ot, x);
    _mm_storeu_ps((float*)(void*)(ot + r->s.ot), y);
    _mm_storeu_ps((float*)(void*)(ot + 2 * r->s.ot), z);
    _mm_storeu_ps((float*)(void*)(ot + 3 * r->s.ot), tw);
}

/* One position [x y z 0]: 16 bytes where the block's next vertex follows
   (and will rewrite the extra 4), else exactly 12. */
COLS_INLINE void cols_store_position(const cols_cfg* c, const cols_run* r, unsigned char* op, int i, __m128 v) {
    if ((c->packed || r->overlap_ok) && i < COLS_BLOCK - 1) {
        _mm_storeu_ps((float*)(void*)op, v);
        return;
    }
    _mm_storel_pi((__m64*)(void*)op, v);
    _mm_store_ss((float*)(void*)(op + 8), _mm_movehl_ps(v, v));
}

/* Four OCT16 normals decoded (sw_octahedral_decode: integer-valued floats,
   exact), as x, y, z across lanes. */
/* The block's tangent signs: the w of each input tangent. */
COLS_INLINE __m128 cols_tangent_w4(const sw__block_ptrs* p, const cols_run* r) {
    float w[COLS_BLOCK];
    for (int i = 0; i < COLS_BLOCK; i++) w[i] = cols_f32(p->it + (size_t)i * r->s.it + 12);
    return _mm_loadu_ps(w);
}

COLS_INLINE void cols_decode_oct4(const sw__block_ptrs* p, const cols_run* r, __m128* x, __m128* y, __m128* z) {
    __m128i raw;
    if (r->s.in == 4) {
        raw = _mm_loadu_si128((const __m128i*)(const void*)p->in);
    } else {
        int32_t w[4];
        for (int i = 0; i < COLS_BLOCK; i++) memcpy(&w[i], p->in + (size_t)i * r->s.in, 4);
        raw = _mm_loadu_si128((const __m128i*)(const void*)w);
    }
    /* u in the low 16 bits of each word, v in the high: sign-extended. */
    const __m128 u = _mm_cvtepi32_ps(_mm_srai_epi32(_mm_slli_epi32(raw, 16), 16));
    const __m128 v = _mm_cvtepi32_ps(_mm_srai_epi32(raw, 16));
    const __m128 sign = _mm_set1_ps(-0.0f);
    const __m128 zz = _mm_sub_ps(_mm_sub_ps(_mm_set1_ps(32767.0f), _mm_andnot_ps(sign, u)), _mm_andnot_ps(sign, v));
    const __m128 t = _mm_max_ps(_mm_sub_ps(_mm_setzero_ps(), zz), _mm_setzero_ps()); /* −z where z < 0, else 0 */
    /* u − t where u ≥ 0, u + t where u < 0: t takes u's sign bit, then is subtracted. */
    *x = _mm_sub_ps(u, _mm_or_ps(t, _mm_and_ps(_mm_cmplt_ps(u, _mm_setzero_ps()), sign)));
    *y = _mm_sub_ps(v, _mm_or_ps(t, _mm_and_ps(_mm_cmplt_ps(v, _mm_setzero_ps()), sign)));
    *z = zz;
}

/* S16 position (x, y, z, w) as floats. */
COLS_INLINE __m128 cols_load_s16(const unsigned char* p) {
    const __m128i q = _mm_loadl_epi64((const __m128i*)(const void*)p);
    return _mm_cvtepi32_ps(_mm_srai_epi32(_mm_unpacklo_epi16(q, q), 16));
}

/* ---- SSE2: four 4-wide columns ----------------------------------------------------- */

typedef struct cols_m4 {
    __m128 c0, c1, c2, c3;
} cols_m4;

COLS_INLINE cols_m4 sse2_blend(const cols_cfg* c, const cols_run* r, const sw__block_ptrs* p, const sw__weights4* d,
                               int i, int n) {
    float tmp[16] __attribute__((aligned(16)));
    const unsigned char* jp = p->jp + (size_t)i * r->s.j;
    cols_m4 m;
    COLS_UNROLL
    for (int k = 0; k < n; k++) {
        const __m128 w = _mm_set1_ps(*cols_weight(c, p, r, d, i, k));
        const float* e = cols_entry(c, r, cols_joint(c, r, jp, k), tmp);
        const __m128 e0 = _mm_mul_ps(w, _mm_load_ps(e)), e1 = _mm_mul_ps(w, _mm_load_ps(e + 4));
        const __m128 e2 = _mm_mul_ps(w, _mm_load_ps(e + 8)), e3 = _mm_mul_ps(w, _mm_load_ps(e + 12));
        if (k == 0) {
            m.c0 = e0, m.c1 = e1, m.c2 = e2, m.c3 = e3;
        } else {
            m.c0 = _mm_add_ps(m.c0, e0), m.c1 = _mm_add_ps(m.c1, e1);
            m.c2 = _mm_add_ps(m.c2, e2), m.c3 = _mm_add_ps(m.c3, e3);
        }
    }
    return m;
}

#define SW__SPLAT(v, k) _mm_shuffle_ps((v), (v), _MM_SHUFFLE(k, k, k, k))

/* ((c0·x + c1·y) + c2·z) (+ c3 for points). */
COLS_INLINE __m128 sse2_apply(const cols_m4* m, __m128 x, __m128 y, __m128 z, bool point) {
    __m128 t = _mm_add_ps(_mm_add_ps(_mm_mul_ps(m->c0, x), _mm_mul_ps(m->c1, y)), _mm_mul_ps(m->c2, z));
    return point ? _mm_add_ps(t, m->c3) : t;
}

COLS_INLINE void sse2_block(const cols_cfg* c, const cols_run* r, const sw__block_ptrs* p, const sw__weights4* d,
                            int n) {
    __m128 nrm[COLS_BLOCK], tan[COLS_BLOCK];
    __m128 ox = _mm_setzero_ps(), oy = ox, oz = ox, tw = ox;
    float dx[4] __attribute__((aligned(16))), dy[4] __attribute__((aligned(16))), dz[4] __attribute__((aligned(16)));
    if (c->qnrm) {
        cols_decode_oct4(p, r, &ox, &oy, &oz);
        _mm_store_ps(dx, ox), _mm_store_ps(dy, oy), _mm_store_ps(dz, oz);
    }
    if (c->tangents) tw = cols_tangent_w4(p, r);
    COLS_UNROLL
    for (int i = 0; i < COLS_BLOCK; i++) {
        const cols_m4 m = sse2_blend(c, r, p, d, i, n);
        /* Inputs before the position store: in place, it rewrites them. */
        const unsigned char* ip = p->ip + (size_t)i * r->s.ip;
        __m128 px, py, pz;
        if (c->qpos) {
            const __m128 q = cols_load_s16(ip);
            px = SW__SPLAT(q, 0), py = SW__SPLAT(q, 1), pz = SW__SPLAT(q, 2);
        } else {
            px = _mm_set1_ps(cols_f32(ip)), py = _mm_set1_ps(cols_f32(ip + 4)), pz = _mm_set1_ps(cols_f32(ip + 8));
        }
        if (c->normals) {
            __m128 nx, ny, nz;
            if (c->qnrm) {
                nx = _mm_set1_ps(dx[i]), ny = _mm_set1_ps(dy[i]), nz = _mm_set1_ps(dz[i]);
            } else {
                const unsigned char* q = p->in + (size_t)i * r->s.in;
                nx = _mm_set1_ps(cols_f32(q)), ny = _mm_set1_ps(cols_f32(q + 4)), nz = _mm_set1_ps(cols_f32(q + 8));
            }
            nrm[i] = sse2_apply(&m, nx, ny, nz, false);
        }
        if (c->tangents) {
            const unsigned char* q = p->it + (size_t)i * r->s.it;
            tan[i] = sse2_apply(&m, _mm_set1_ps(cols_f32(q)), _mm_set1_ps(cols_f32(q + 4)),
                                _mm_set1_ps(cols_f32(q + 8)), false);
        }
        cols_store_position(c, r, p->op + (size_t)i * r->s.op, i, sse2_apply(&m, px, py, pz, true));
    }
    if (c->normals) cols_store_normals(c, r, p->on, nrm);
    if (c->tangents) cols_store_tangents(r, p->ot, tan, tw);
}

/* ---- AVX2: two 8-wide FMAs per influence ------------------------------------------------ */

typedef struct cols_m8 {
    __m256 a01, a23; /* [c0 | c1], [c2 | c3] */
} cols_m8;

COLS_INLINE COLS_AVX2 cols_m8 avx2c_blend(const cols_cfg* c, const cols_run* r, const sw__block_ptrs* p,
                                          const sw__weights4* d, int i, int n) {
    float tmp[16] __attribute__((aligned(32)));
    const unsigned char* jp = p->jp + (size_t)i * r->s.j;
    cols_m8 m;
    COLS_UNROLL
    for (int k = 0; k < n; k++) {
        const __m256 w = _mm256_broadcast_ss(cols_weight(c, p, r, d, i, k));
        const float* e = cols_entry(c, r, cols_joint(c, r, jp, k), tmp);
        if (k == 0) {
            m.a01 = _mm256_mul_ps(w, _mm256_load_ps(e));
            m.a23 = _mm256_mul_ps(w, _mm256_load_ps(e + 8));
        } else {
            m.a01 = _mm256_fmadd_ps(w, _mm256_load_ps(e), m.a01);
            m.a23 = _mm256_fmadd_ps(w, _mm256_load_ps(e + 8), m.a23);
        }
    }
    return m;
}

/* [c0 | c1]·v01 + [c2 | c3]·v23, halves added: (c0·x + c2·z) + (c1·y + c3·w). */
COLS_INLINE COLS_AVX2 __m128 avx2c_apply(__m256 a01, __m256 a23, __m256 v01, __m256 v23) {
    const __m256 t = _mm256_fmadd_ps(a23, v23, _mm256_mul_ps(a01, v01));
    return _mm_add_ps(_mm256_castps256_ps128(t), _mm256_extractf128_ps(t, 1));
}

COLS_INLINE COLS_AVX2 void avx2c_block(const cols_cfg* c, const cols_run* r, const sw__block_ptrs* p,
                                       const sw__weights4* d, int n) {
    __m128 nrm[COLS_BLOCK], tan[COLS_BLOCK];
    __m256 oxy = _mm256_setzero_ps(), oz = oxy;
    __m128 tw = _mm_setzero_ps();
    const __m256 w01 = _mm256_setr_ps(0, 0, 0, 0, 1, 1, 1, 1);
    if (c->qnrm) {
        __m128 x, y, z;
        cols_decode_oct4(p, r, &x, &y, &z);
        oxy = _mm256_insertf128_ps(_mm256_castps128_ps256(x), y, 1);
        oz = _mm256_insertf128_ps(_mm256_castps128_ps256(z), z, 1);
    }
    if (c->tangents) tw = cols_tangent_w4(p, r);
    COLS_UNROLL
    for (int i = 0; i < COLS_BLOCK; i++) {
        const cols_m8 m = avx2c_blend(c, r, p, d, i, n);
        const unsigned char* ip = p->ip + (size_t)i * r->s.ip;
        __m256 p01, p23;
        if (c->qpos) {
            const __m256 q = _mm256_castps128_ps256(cols_load_s16(ip));
            p01 = _mm256_permutevar8x32_ps(q, _mm256_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1));
            p23 = _mm256_blend_ps(_mm256_permutevar8x32_ps(q, _mm256_set1_epi32(2)), w01, 0xF0);
        } else {
            const float* f = (const float*)(const void*)ip;
            p01 = _mm256_blend_ps(_mm256_broadcast_ss(f), _mm256_broadcast_ss(f + 1), 0xF0);
            p23 = _mm256_blend_ps(_mm256_broadcast_ss(f + 2), w01, 0xF0);
        }
        if (c->normals || c->tangents) {
            /* Directions: [c2 | 0], so the translation stays out. */
            const __m256 a2 = _mm256_blend_ps(m.a23, _mm256_setzero_ps(), 0xF0);
            if (c->normals) {
                __m256 n01, n2;
                if (c->qnrm) {
                    n01 = _mm256_permutevar8x32_ps(oxy, _mm256_setr_epi32(i, i, i, i, 4 + i, 4 + i, 4 + i, 4 + i));
                    n2 = _mm256_permutevar8x32_ps(oz, _mm256_set1_epi32(i));
                } else {
                    const float* f = (const float*)(const void*)(p->in + (size_t)i * r->s.in);
                    n01 = _mm256_blend_ps(_mm256_broadcast_ss(f), _mm256_broadcast_ss(f + 1), 0xF0);
                    n2 = _mm256_broadcast_ss(f + 2);
                }
                nrm[i] = avx2c_apply(m.a01, a2, n01, n2);
            }
            if (c->tangents) {
                const float* f = (const float*)(const void*)(p->it + (size_t)i * r->s.it);
                const __m256 t01 = _mm256_blend_ps(_mm256_broadcast_ss(f), _mm256_broadcast_ss(f + 1), 0xF0);
                tan[i] = avx2c_apply(m.a01, a2, t01, _mm256_broadcast_ss(f + 2));
            }
        }
        cols_store_position(c, r, p->op + (size_t)i * r->s.op, i, avx2c_apply(m.a01, m.a23, p01, p23));
    }
    if (c->normals) cols_store_normals(c, r, p->on, nrm);
    if (c->tangents) cols_store_tangents(r, p->ot, tan, tw);
}

/* ---- loops ------------------------------------------------------------------------------- */

/* The first vertex of block b in every stream. */
COLS_INLINE sw__block_ptrs cols_ptrs(const cols_cfg* c, const sw__block_ptrs* base, const sw__block_strides* s,
                                     size_t b) {
    const size_t v = b * COLS_BLOCK;
    sw__block_ptrs p = {base->jp + v * s->j, base->wp + v * s->wsrc, base->ip + v * s->ip,
                        c->normals ? base->in + v * s->in : NULL, c->tangents ? base->it + v * s->it : NULL,
                        base->op + v * s->op, c->normals ? base->on + v * s->on : NULL,
                        c->tangents ? base->ot + v * s->ot : NULL};
    return p;
}

/* The last count % 4 vertices, through a packed copy of a whole block
   (spare lanes repeat the last vertex): the same bits as in a block. */
typedef struct cols_tail {
    unsigned char joints[4 * 2 * SW_MAX_INFLUENCES], weights[4 * 4 * SW_MAX_INFLUENCES];
    unsigned char ip[4 * 12], in[4 * 12], it[4 * 16], op[4 * 12], on[4 * 12], ot[4 * 16];
} cols_tail;

/* Runs blocks [0, count / 4) and the tail of one range; one copy per
   instruction set (BLOCK: sse2_block or avx2c_block). */
#define SW__COLS_LOOP(NAME, ATTR, BLOCK)                                                                         \
    COLS_INLINE ATTR void NAME(const cols_cfg* c, const cols_run* r, const sw__block_ptrs* base, size_t count) { \
        sw__weights4 d;                                                                                          \
        const size_t blocks = count / COLS_BLOCK;                                                                \
        /* A local copy (outputs cannot alias it), its strides constants when packed. */                        \
        cols_run rl = *r;                                                                                        \
        if (c->packed) rl.s = cols_packed_strides(c, r);                                                         \
        for (size_t b = 0; b < blocks; b++) {                                                                    \
            const sw__block_ptrs p = cols_ptrs(c, base, &rl.s, b);                                                  \
            if (!c->f32w) sw__decode_weights4(&d, p.wp, rl.s.wsrc, c->packed || rl.wpacked, c->n, c->wf, c->implied); \
            BLOCK(c, &rl, &p, &d, c->n);                                                                         \
        }                                                                                                        \
        const size_t rest = count % COLS_BLOCK;                                                                  \
        if (rest == 0) return;                                                                                   \
        const sw__block_ptrs p = cols_ptrs(c, base, &r->s, blocks);                                                 \
        cols_tail t;                                                                                             \
        cols_run tr;                                                                                             \
        sw__block_ptrs q;                                                                                        \
        cols_tail_gather(c, r, &p, rest, &t, &tr, &q);                                                           \
        if (!c->f32w) sw__decode_weights4(&d, q.wp, tr.s.wsrc, true, c->n, c->wf, c->implied);                 \
        BLOCK(c, &tr, &q, &d, c->n);                                                                             \
        cols_tail_scatter(c, r, &p, rest, &t);                                                                   \
    }

/* Packed strides (floats, or quantised per cfg). */
COLS_INLINE sw__block_strides cols_packed_strides(const cols_cfg* c, const cols_run* r) {
    const size_t js = (size_t)c->n * sw__joint_size(c->jf);
    (void)r;
    const size_t ws = c->f32w ? (size_t)c->n * 4 : sw__weights_bytes(c->n, c->wf, c->implied);
    const sw__block_strides s = {js, ws, c->qpos ? 8u : 12u, c->qnrm ? 4u : 12u, 16, 12, c->pack ? 4u : 12u, 16, ws};
    return s;
}

/* The tail's packed copy (spare vertices repeat the last), its run and pointers. */
static void cols_tail_gather(const cols_cfg* c, const cols_run* r, const sw__block_ptrs* p, size_t rest,
                             cols_tail* t, cols_run* tr, sw__block_ptrs* q) {
    const size_t js = (size_t)c->n * sw__joint_size(c->jf), ws = sw__weights_bytes(c->n, c->wf, c->implied);
    const size_t ips = c->qpos ? 8 : 12, ins = c->qnrm ? 4 : 12, ons = c->pack ? 4 : 12;
    for (size_t i = 0; i < COLS_BLOCK; i++) {
        const size_t v = i < rest ? i : rest - 1;
        memcpy(t->joints + i * js, p->jp + v * r->s.j, js);
        memcpy(t->weights + i * ws, p->wp + v * r->s.wsrc, ws);
        memcpy(t->ip + i * ips, p->ip + v * r->s.ip, ips);
        if (c->normals) memcpy(t->in + i * ins, p->in + v * r->s.in, ins);
        if (c->tangents) memcpy(t->it + i * 16, p->it + v * r->s.it, 16);
    }
    *tr = *r;
    const sw__block_strides packed = {js, ws, ips, ins, 16, 12, ons, 16, ws};
    tr->s = packed;
    tr->wpacked = true;
    tr->overlap_ok = true; /* the copy's outputs are not its inputs */
    tr->out_nrm_packed = true;
    const sw__block_ptrs ptrs = {t->joints, t->weights, t->ip, t->in, t->it, t->op, t->on, t->ot};
    *q = ptrs;
}

static void cols_tail_scatter(const cols_cfg* c, const cols_run* r, const sw__block_ptrs* p, size_t rest,
                              const cols_tail* t) {
    const size_t ons = c->pack ? 4 : 12;
    for (size_t i = 0; i < rest; i++) {
        memcpy(p->op + i * r->s.op, t->op + i * 12, 12);
        if (c->normals) memcpy(p->on + i * r->s.on, t->on + i * ons, ons);
        if (c->tangents) memcpy(p->ot + i * r->s.ot, t->ot + i * 16, 16);
    }
}

SW__COLS_LOOP(sse2c_loop, , sse2_block)
SW__COLS_LOOP(avx2c_loop, COLS_AVX2, avx2c_block)

/* The run's constant part, the palette's columns in `stack` (when it fits). */
static cols_run cols_run_make(const sw__skin_streams* ss, float* stack) {
    cols_run r;
    r.rows = ss->linear;
    r.joint_count = ss->joint_count;
    r.wf = ss->weight_format;
    r.implied = ss->implied;
    r.unnorm = ss->unnormalized;
    const size_t wsize = sw__weight_size(ss->weight_format);
    r.wpacked = ss->weights_stride == (size_t)sw__stored_count(ss->influence_count, ss->implied) * wsize;
    r.out_nrm_packed = ss->out_nrm_stride == 12;
    const sw__block_strides s = {ss->joints_stride, ss->weights_stride, ss->in_pos_stride, ss->in_nrm_stride,
                                 ss->in_tan_stride, ss->out_pos_stride, ss->out_nrm_stride, ss->out_tan_stride,
                                 ss->weights_stride};
    r.s = s;
    r.overlap_ok = ss->out_pos_stride == 12 && ss->out_pos != ss->in_pos;
    r.columns = NULL;
    if (ss->joint_count <= COLS_STACK_JOINTS) {
        for (uint32_t j = 0; j < ss->joint_count; j++) cols_transpose(stack + 16 * (size_t)j, ss->linear, j);
        for (uint32_t j = ss->joint_count; j < COLS_STACK_JOINTS; j++) memcpy(stack + 16 * (size_t)j, stack, 64);
        r.columns = stack;
    }
    return r;
}

static sw__block_ptrs cols_base(const sw__skin_streams* ss) {
    const sw__block_ptrs base = {ss->joints, ss->weights, ss->in_pos, ss->in_nrm,
                                 ss->in_tan, ss->out_pos, ss->out_nrm, ss->out_tan};
    return base;
}

/* Jobs the columns shape covers: LBS, blended normals, normals with tangents. */
static bool cols_covers(const sw__skin_streams* ss) { return !ss->dqs && !ss->cofactor && !(ss->in_tan && !ss->in_nrm); }

static cols_cfg cols_cfg_of(const sw__skin_streams* ss, const cols_run* r) {
    cols_cfg c = {ss->influence_count, ss->joint_format, ss->weight_format == SW_WEIGHT_F32 && !ss->implied,
                  ss->in_nrm != NULL, ss->in_tan != NULL, ss->qpos, ss->qnrm, ss->pack_nrm, false,
                  r->columns != NULL, ss->weight_format, ss->implied};
    const sw__block_strides k = cols_packed_strides(&c, r);
    c.packed = r->overlap_ok && r->s.j == k.j && r->s.wsrc == k.wsrc && r->s.ip == k.ip && r->s.op == 12 &&
               (!c.normals || (r->s.in == k.in && r->s.on == k.on)) && (!c.tangents || (r->s.it == 16 && r->s.ot == 16));
    return c;
}

/* Specialised loops: influence count, joint format, weights and streams as
   constants; the rest runs one copy with them read at run time. */
/* u16f: the importer's layout (u16 joints, n f32 weights); u8d: the compact
   layout (u8 joints, u16 weights, the last implied); u8q: the quantised one
   (u8 weights). */
#define SW__COLS_VARIANTS(X, N)                                                           \
    X(N, SW_JOINT_U16, true, false, false, false, false, false, SW_WEIGHT_F32, false, u16f_p)          \
    X(N, SW_JOINT_U16, true, true, false, false, false, false, SW_WEIGHT_F32, false, u16f_pn)          \
    X(N, SW_JOINT_U16, true, true, true, false, false, false, SW_WEIGHT_F32, false, u16f_pnt)          \
    X(N, SW_JOINT_U8, false, false, false, false, false, false, SW_WEIGHT_U16_NORM, true, u8d_p)           \
    X(N, SW_JOINT_U8, false, true, false, false, false, false, SW_WEIGHT_U16_NORM, true, u8d_pn)           \
    X(N, SW_JOINT_U8, false, true, true, false, false, false, SW_WEIGHT_U16_NORM, true, u8d_pnt)           \
    X(N, SW_JOINT_U8, false, false, false, true, false, false, SW_WEIGHT_U8_NORM, true, u8q_p)              \
    X(N, SW_JOINT_U8, false, true, false, true, true, false, SW_WEIGHT_U8_NORM, true, u8q_pn)              \
    X(N, SW_JOINT_U8, false, true, false, true, true, true, SW_WEIGHT_U8_NORM, true, u8q_pk)
#define SW__COLS_ALL(X) \
    SW__COLS_VARIANTS(X, 1) SW__COLS_VARIANTS(X, 2) SW__COLS_VARIANTS(X, 3) SW__COLS_VARIANTS(X, 4) SW__COLS_VARIANTS(X, 8)

typedef void (*cols_fn)(const cols_run* r, const sw__block_ptrs* base, size_t count);

typedef struct cols_entry_t {
    cols_cfg cfg;
    cols_fn sse2, avx2;
} cols_entry_t;

#define SW__COLS_DEFINE(N, JF, F32W, NRM, TAN, QP, QN, PK, WF, IMP, tag)                                   \
    static void sse2c_##N##_##tag(const cols_run* r, const sw__block_ptrs* base, size_t count) {           \
        const cols_cfg c = {N, JF, F32W, NRM, TAN, QP, QN, PK, true, true, WF, IMP};                       \
        sse2c_loop(&c, r, base, count);                                                              \
    }                                                                                                      \
    COLS_AVX2 static void avx2c_##N##_##tag(const cols_run* r, const sw__block_ptrs* base, size_t count) { \
        const cols_cfg c = {N, JF, F32W, NRM, TAN, QP, QN, PK, true, true, WF, IMP};                       \
        avx2c_loop(&c, r, base, count);                                                               \
    }
SW__COLS_ALL(SW__COLS_DEFINE)
#define SW__COLS_ENTRY(N, JF, F32W, NRM, TAN, QP, QN, PK, WF, IMP, tag) \
    {{N, JF, F32W, NRM, TAN, QP, QN, PK, true, true, WF, IMP}, sse2c_##N##_##tag, avx2c_##N##_##tag},
static const cols_entry_t cols_table[] = {SW__COLS_ALL(SW__COLS_ENTRY)};

static void sse2c_generic(const cols_run* r, const sw__block_ptrs* base, size_t count, cols_cfg c) {
    sse2c_loop(&c, r, base, count);
}

COLS_AVX2 static void avx2c_generic(const cols_run* r, const sw__block_ptrs* base, size_t count, cols_cfg c) {
    avx2c_loop(&c, r, base, count);
}

static void cols_run_any(const sw_skin_job* job, size_t first, size_t count, bool avx2) {
    const sw__skin_streams ss = sw__skin_streams_make(job, first, count);
    if (!cols_covers(&ss)) {
        if (avx2) sw__skin_run_avx2(job, first, count);
        else sw__skin_run_sse2(job, first, count);
        return;
    }
    float stack[COLS_STACK_JOINTS * 16] __attribute__((aligned(64)));
    const cols_run r = cols_run_make(&ss, stack);
    const sw__block_ptrs base = cols_base(&ss);
    const cols_cfg c = cols_cfg_of(&ss, &r);
    for (size_t i = 0; c.packed && c.stack && i < sizeof cols_table / sizeof cols_table[0]; i++) {
        const cols_cfg* e = &cols_table[i].cfg;
        if (e->n == c.n && e->jf == c.jf && e->f32w == c.f32w && e->normals == c.normals &&
            e->tangents == c.tangents && e->qpos == c.qpos && e->qnrm == c.qnrm && e->pack == c.pack &&
            (c.f32w || (e->wf == c.wf && e->implied == c.implied))) {
            (avx2 ? cols_table[i].avx2 : cols_table[i].sse2)(&r, &base, count);
            return;
        }
    }
    if (avx2) avx2c_generic(&r, &base, count, c);
    else sse2c_generic(&r, &base, count, c);
}

void sw__skin_run_sse2_columns(const sw_skin_job* job, size_t first, size_t count) {
    cols_run_any(job, first, count, false);
}

void sw__skin_run_avx2_columns(const sw_skin_job* job, size_t first, size_t count) {
    cols_run_any(job, first, count, true);
}

#endif
