/* pose_internal.h — the inline kernels of the local→model pass, shared by
   src/anim/local_to_model.c, src/model/pose.c and src/anim/spring.c (world and skin
   matrices). Not a public header.

   sw__pose_trs_to_mat34 and sw__pose_mat34_mul compute exactly what
   sw_transform_to_mat34 and sw_mat34_mul compute (math.h), the same
   operations in the same order, only inline and, with SSE2, a row of four
   floats per instruction: results are equal bit for bit except that a −0
   may come out as +0 (the translation column adds a literal 0 to the other
   three). */
#ifndef SINEW_ANIM_POSE_INTERNAL_H
#define SINEW_ANIM_POSE_INTERNAL_H

#include "sinew/math.h"

#if !defined(SW_NO_SIMD) && defined(__SSE2__)
#define SW__POSE_SSE2 1
#include <emmintrin.h>
#else
#define SW__POSE_SSE2 0
#endif

/* out = a·b (apply b first). Everything is read before anything is
   written, so out may be a or b. */
static inline void sw__pose_mat34_mul(sw_mat34* out, const sw_mat34* a, const sw_mat34* b) {
#if SW__POSE_SSE2
    const __m128 b0 = _mm_loadu_ps(b->m[0]), b1 = _mm_loadu_ps(b->m[1]), b2 = _mm_loadu_ps(b->m[2]);
    const __m128 a0 = _mm_loadu_ps(a->m[0]), a1 = _mm_loadu_ps(a->m[1]), a2 = _mm_loadu_ps(a->m[2]);
    /* Lane 3 of each row: b's implicit bottom row (0 0 0 1) adds a[r][3]. */
    const __m128 last = _mm_castsi128_ps(_mm_set_epi32(-1, 0, 0, 0));
#define SW__ROW(ar)                                                                                               \
    _mm_add_ps(_mm_add_ps(_mm_add_ps(_mm_mul_ps(_mm_shuffle_ps(ar, ar, 0x00), b0),                              \
                                     _mm_mul_ps(_mm_shuffle_ps(ar, ar, 0x55), b1)),                             \
                          _mm_mul_ps(_mm_shuffle_ps(ar, ar, 0xAA), b2)),                                        \
               _mm_and_ps(ar, last))
    const __m128 r0 = SW__ROW(a0), r1 = SW__ROW(a1), r2 = SW__ROW(a2);
#undef SW__ROW
    _mm_storeu_ps(out->m[0], r0);
    _mm_storeu_ps(out->m[1], r1);
    _mm_storeu_ps(out->m[2], r2);
#else
    sw_mat34 m;
    for (int r = 0; r < 3; r++) {
        for (int c = 0; c < 4; c++) {
            float v = a->m[r][0] * b->m[0][c] + a->m[r][1] * b->m[1][c] + a->m[r][2] * b->m[2][c];
            m.m[r][c] = c == 3 ? v + a->m[r][3] : v;
        }
    }
    *out = m;
#endif
}

/* The affine matrix T·R·S of a transform with a unit rotation. The SSE2
   form doubles q first (exact) so that each entry is the scalar formula's
   2·(xy − wz) as 2x·y − 2w·z, the same float. */
static inline void sw__pose_trs_to_mat34(sw_mat34* SW_RESTRICT out, const sw_transform* t) {
#if SW__POSE_SSE2
    /* sw_transform is 10 floats: translation 0..2, rotation 3..6, scale 7..9;
       three loads inside it. */
    SW_STATIC_ASSERT(sizeof(sw_transform) == 10 * sizeof(float), "sw_transform is 10 packed floats");
    const float* f = (const float*)(const void*)t;
    const __m128 tq = _mm_loadu_ps(f);     /* tx ty tz qx */
    const __m128 q = _mm_loadu_ps(f + 3);  /* qx qy qz qw */
    const __m128 ws = _mm_loadu_ps(f + 6); /* qw sx sy sz */
    const __m128 q2 = _mm_add_ps(q, q);
    /* 2xx 2yy 2zz, then the diagonal 1 − 2(yy + zz), 1 − 2(xx + zz), 1 − 2(xx + yy). */
    const __m128 sq = _mm_mul_ps(q2, q);
    const __m128 diag = _mm_sub_ps(_mm_set1_ps(1.0f), _mm_add_ps(_mm_shuffle_ps(sq, sq, _MM_SHUFFLE(3, 0, 0, 1)),
                                                                 _mm_shuffle_ps(sq, sq, _MM_SHUFFLE(3, 1, 2, 2))));
    /* 2xy 2xz 2yz and 2wz 2wy 2wx: their sums p and differences m. */
    const __m128 o = _mm_mul_ps(_mm_shuffle_ps(q2, q2, _MM_SHUFFLE(3, 1, 0, 0)), _mm_shuffle_ps(q, q, _MM_SHUFFLE(3, 2, 2, 1)));
    const __m128 w = _mm_mul_ps(_mm_shuffle_ps(q2, q2, _MM_SHUFFLE(3, 3, 3, 3)), _mm_shuffle_ps(q, q, _MM_SHUFFLE(3, 0, 1, 2)));
    const __m128 p = _mm_add_ps(o, w); /* 2(xy + wz) 2(xz + wy) 2(yz + wx) */
    const __m128 m = _mm_sub_ps(o, w); /* 2(xy − wz) 2(xz − wy) 2(yz − wx) */
    /* sx sy sz 1: the translation lane is multiplied by 1, exactly. */
    const __m128 s1 = _mm_shuffle_ps(ws, _mm_unpackhi_ps(ws, _mm_set1_ps(1.0f)), _MM_SHUFFLE(3, 2, 2, 1));
    /* row 0: diag0 m0 p1 tx; row 1: p0 diag1 m2 ty; row 2: m1 p2 diag2 tz. */
    const __m128 d0m0 = _mm_unpacklo_ps(diag, m);                                   /* diag0 m0 diag1 m1 */
    const __m128 p1tx = _mm_shuffle_ps(p, tq, _MM_SHUFFLE(0, 0, 1, 1));             /* p1 p1 tx tx */
    const __m128 row0 = _mm_shuffle_ps(d0m0, p1tx, _MM_SHUFFLE(2, 0, 1, 0));
    const __m128 p0d1 = _mm_shuffle_ps(p, diag, _MM_SHUFFLE(1, 1, 0, 0));           /* p0 p0 diag1 diag1 */
    const __m128 m2ty = _mm_shuffle_ps(m, tq, _MM_SHUFFLE(1, 1, 2, 2));             /* m2 m2 ty ty */
    const __m128 row1 = _mm_shuffle_ps(p0d1, m2ty, _MM_SHUFFLE(2, 0, 2, 0));
    const __m128 m1p2 = _mm_shuffle_ps(m, p, _MM_SHUFFLE(2, 2, 1, 1));             /* m1 m1 p2 p2 */
    const __m128 d2tz = _mm_shuffle_ps(diag, tq, _MM_SHUFFLE(2, 2, 2, 2));          /* diag2 diag2 tz tz */
    const __m128 row2 = _mm_shuffle_ps(m1p2, d2tz, _MM_SHUFFLE(2, 0, 2, 0));
    _mm_storeu_ps(out->m[0], _mm_mul_ps(row0, s1));
    _mm_storeu_ps(out->m[1], _mm_mul_ps(row1, s1));
    _mm_storeu_ps(out->m[2], _mm_mul_ps(row2, s1));
#else
    const sw_quat q = t->rotation;
    const float xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z;
    const float xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z;
    const float wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z;
    const sw_vec3 s = t->scale;
    /* Columns of R are scaled by S (S is applied first). */
    out->m[0][0] = (1.0f - 2.0f * (yy + zz)) * s.x;
    out->m[0][1] = 2.0f * (xy - wz) * s.y;
    out->m[0][2] = 2.0f * (xz + wy) * s.z;
    out->m[0][3] = t->translation.x;
    out->m[1][0] = 2.0f * (xy + wz) * s.x;
    out->m[1][1] = (1.0f - 2.0f * (xx + zz)) * s.y;
    out->m[1][2] = 2.0f * (yz - wx) * s.z;
    out->m[1][3] = t->translation.y;
    out->m[2][0] = 2.0f * (xz - wy) * s.x;
    out->m[2][1] = 2.0f * (yz + wx) * s.y;
    out->m[2][2] = (1.0f - 2.0f * (xx + yy)) * s.z;
    out->m[2][3] = t->translation.z;
#endif
}

/* out = parent·(T·R·S of local); out may be parent. */
static inline void sw__pose_mul_trs(sw_mat34* out, const sw_mat34* parent, const sw_transform* local) {
    sw_mat34 m;
    sw__pose_trs_to_mat34(&m, local);
    sw__pose_mat34_mul(out, parent, &m);
}

#endif
