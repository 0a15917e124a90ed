/* mat3d_internal.h — 3×3 matrices in double, for the library's measuring
   code: sw_mat34's inverse, cofactor and polar decomposition (mat.c) and
   the asset checks (src/check/check.c: scale ratios, LBS volume loss).
   Not a public header.

   Why double: the checks compare singular values to 1e-3 and tell
   rotations apart near 180°, and inversion and polar decomposition of
   near-singular joints lose too much in float. Everything is pure and
   thread-safe; matrices are row-major, m[row][column]. */
#ifndef SINEW_MATH_MAT3D_INTERNAL_H
#define SINEW_MATH_MAT3D_INTERNAL_H

#include "sinew/math.h"

typedef struct sw__mat3d {
    double m[3][3];
} sw__mat3d;

/* The 3×3 part of `a` (the translation dropped). */
sw__mat3d sw__mat3d_from_mat34(const sw_mat34* a);

double sw__mat3d_det(const sw__mat3d* a);

/* cof(A)[r][c] = (−1)^(r+c) · minor(r, c) = det(A)·(A⁻ᵀ)[r][c]: defined
   for singular A too. */
sw__mat3d sw__mat3d_cofactor(const sw__mat3d* a);

/* Eigenvalues of a symmetric matrix, largest first (the closed-form
   trigonometric method; only the upper triangle is read). */
void sw__mat3d_sym_eigenvalues(const sw__mat3d* a, double out[3]);

/* Singular values, largest first (square roots of the eigenvalues of AᵀA,
   negative round-off clamped to 0). */
void sw__mat3d_singular_values(const sw__mat3d* a, double out[3]);

/* The orthogonal factor Q of the polar decomposition A = Q·K (K symmetric
   positive semi-definite) by Newton's iteration Q ← (Q + Q⁻ᵀ)/2: the
   rotation nearest to A, a reflection when det A < 0. The identity when A
   is zero or singular relative to its largest entry (|det| ≤ 1e-12·max³).
   The same Newton step as sw_mat34_polar's, but unscaled (γ = 1) and
   stopped on the largest change: the checks' reported numbers were
   measured with this one, the scaled one differs in the last bits. */
sw__mat3d sw__mat3d_orthogonal(const sw__mat3d* a);

/* The angle of the rotation that takes orthogonal `a` to orthogonal `b`,
   radians in [0, π]: acos((tr(aᵀ·b) − 1)/2), clamped. */
double sw__mat3d_angle_between(const sw__mat3d* a, const sw__mat3d* b);

#endif
