/* mat3d_internal.h — the library's maths in double: 3-vectors, quaternions
   and 3×3 matrices (mat3d.c). Not a public header.

   Who uses it: sw_mat34's inverse, cofactor and polar decomposition
   (mat.c); the asset checks (src/check/check.c: scale ratios, the
   rotation angle between two joints); per-vertex LBS retention
   (src/skin/retention.c); two-bone and aim IK (src/runtime/ik.c); root
   motion (src/runtime/root_motion.c); retargeting (src/runtime/retarget.c).

   Why double: the checks compare singular values to 1e-3 and tell
   rotations apart near 180°; inversion and polar decomposition of
   near-singular joints lose too much in float; IK's law of cosines and
   frame changes, root motion's differences of nearby samples and loop
   powers, and retargeting's chains of rotation products must stay well
   inside the float precision of the pose they write.

   Bit for bit: exported poses, check reports and test figures were
   measured with these functions. Where two callers computed the same
   thing in different orders (an inverse by cof/det or by cof·(1/det), two
   Newton iterations for the polar factor), both are kept, each saying who
   uses it; do not merge them without re-measuring.

   Everything is pure and thread-safe. Matrices are row-major, m[row][col];
   quaternions are (x, y, z) vector part, w scalar, and rotate vectors as
   q·v·q⁻¹ (the float sw_quat's convention). */
#ifndef SINEW_MATH_MAT3D_INTERNAL_H
#define SINEW_MATH_MAT3D_INTERNAL_H

#include "sinew/math.h"

typedef struct sw__vec3d {
    double x, y, z;
} sw__vec3d;

typedef struct sw__quatd {
    double x, y, z, w;
} sw__quatd;

typedef struct sw__mat3d {
    double m[3][3];
} sw__mat3d;

/* ---- 3-vectors ----------------------------------------------------------------- */

static inline sw__vec3d sw__vec3d_make(double x, double y, double z) {
    sw__vec3d r = {x, y, z};
    return r;
}
static inline sw__vec3d sw__vec3d_of(sw_vec3 v) { return sw__vec3d_make(v.x, v.y, v.z); }
static inline sw__vec3d sw__vec3d_add(sw__vec3d a, sw__vec3d b) {
    return sw__vec3d_make(a.x + b.x, a.y + b.y, a.z + b.z);
}
static inline sw__vec3d sw__vec3d_sub(sw__vec3d a, sw__vec3d b) {
    return sw__vec3d_make(a.x - b.x, a.y - b.y, a.z - b.z);
}
static inline sw__vec3d sw__vec3d_scale(sw__vec3d a, double s) { return sw__vec3d_make(a.x * s, a.y * s, a.z * s); }
static inline double sw__vec3d_dot(sw__vec3d a, sw__vec3d b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline sw__vec3d sw__vec3d_cross(sw__vec3d a, sw__vec3d b) {
    return sw__vec3d_make(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
static inline double sw__vec3d_length(sw__vec3d a) { return sqrt(sw__vec3d_dot(a, a)); }

/* a without its part along unit u. */
sw__vec3d sw__vec3d_reject(sw__vec3d a, sw__vec3d u);

/* *a made unit when |a| > min_len (then true); else *a unchanged and false. */
bool sw__vec3d_unit(sw__vec3d* a, double min_len);

/* A unit vector perpendicular to unit u: u × the world axis least along u. */
sw__vec3d sw__vec3d_any_perpendicular(sw__vec3d u);

/* The angle between a and b in [0, π], atan2(|a × b|, a·b): accurate near
   0 and π, where acos is not. */
double sw__vec3d_angle(sw__vec3d a, sw__vec3d b);

/* ---- quaternions ------------------------------------------------------------------ */

static inline sw__quatd sw__quatd_identity(void) {
    sw__quatd q = {0.0, 0.0, 0.0, 1.0};
    return q;
}
static inline sw__quatd sw__quatd_of(sw_quat q) {
    sw__quatd r = {q.x, q.y, q.z, q.w};
    return r;
}
static inline sw__quatd sw__quatd_conj(sw__quatd q) {
    sw__quatd r = {-q.x, -q.y, -q.z, q.w};
    return r;
}
/* a·b: b's rotation first. */
static inline sw__quatd sw__quatd_mul(sw__quatd a, sw__quatd b) {
    sw__quatd r = {a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                   a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
    return r;
}

/* q / |q|; the identity for a zero (or NaN) quaternion. */
sw__quatd sw__quatd_normalize(sw__quatd q);

/* Rotation by `angle` radians about unit `axis`. */
sw__quatd sw__quatd_axis_angle(sw__vec3d axis, double angle);

/* slerp(identity, q, t) along the shorter arc: q's angle times t. */
sw__quatd sw__quatd_pow(sw__quatd q, double t);

/* v rotated by q: v + 2w(u × v) + 2u × (u × v), u the vector part. Exact
   for the identity, so axes it leaves alone come back bit for bit. */
sw__vec3d sw__quatd_rotate(sw__quatd q, sw__vec3d v);

/* The smallest rotation taking unit a to unit b: normalize(a × b, 1 + a·b).
   Not defined for opposite vectors (the result is then a zero or tiny
   quaternion): callers choose the half turn, and how close to opposite
   counts, themselves. */
sw__quatd sw__quatd_arc(sw__vec3d a, sw__vec3d b);

/* The rotation matrix of unit q. */
sw__mat3d sw__mat3d_from_quatd(sw__quatd q);

/* The unit quaternion of a rotation matrix (Shepperd: the largest of four
   square roots). */
sw__quatd sw__quatd_from_mat3d(const sw__mat3d* r);

/* ---- 3×3 matrices ----------------------------------------------------------------- */

static inline sw__mat3d sw__mat3d_identity(void) {
    sw__mat3d r = {{{1.0, 0.0, 0.0}, {0.0, 1.0, 0.0}, {0.0, 0.0, 1.0}}};
    return r;
}

/* The 3×3 part of `a` (the translation dropped). */
sw__mat3d sw__mat3d_from_mat34(const sw_mat34* a);

/* a·b. */
sw__mat3d sw__mat3d_mul(const sw__mat3d* a, const sw__mat3d* b);

/* a·v. */
sw__vec3d sw__mat3d_apply(const sw__mat3d* a, sw__vec3d v);

double sw__mat3d_det(const sw__mat3d* a);

/* The largest |entry|, for thresholds relative to a matrix's scale. */
double sw__mat3d_max_abs(const sw__mat3d* a);

/* cof(A)[r][c] = (−1)^(r+c) · minor(r, c) = det(A)·(A⁻ᵀ)[r][c]: defined
   for singular A too. */
sw__mat3d sw__mat3d_cofactor(const sw__mat3d* a);

/* A⁻¹ = cof(A)ᵀ · (1/det A); false (and *out untouched) when
   |det A| ≤ 1e-12·max_abs(A)³. IK's inverse. sw_mat34_inverse divides by
   det instead and measures singularity against the Frobenius norm (mat.c):
   the two differ in the last bits. */
bool sw__mat3d_inverse(sw__mat3d* out, const sw__mat3d* a);

/* How far AᵀA is from the identity: its largest |entry − δ|. */
double sw__mat3d_orthogonality_defect(const sw__mat3d* a);

/* Eigenvalues of a symmetric matrix, largest first (the closed-form
   trigonometric method; only the upper triangle is read). */
void sw__mat3d_sym_eigenvalues(const sw__mat3d* a, double out[3]);

/* Singular values, largest first (square roots of the eigenvalues of AᵀA,
   negative round-off clamped to 0). */
void sw__mat3d_singular_values(const sw__mat3d* a, double out[3]);

/* One step of Newton's iteration for the orthogonal polar factor, scaled
   by γ (Higham): Q ← ½(γ·Q + cof(Q)/(det·γ)), det = det Q. γ = 1 is the
   plain step, bit for bit. Returns the largest change of an entry;
   *out_sum gets the sum of the changes. sw_mat34_polar and
   sw__mat3d_orthogonal iterate it. */
double sw__mat3d_polar_step(sw__mat3d* q, double det, double gamma, double* out_sum);

/* The orthogonal factor Q of the polar decomposition A = Q·K (K symmetric
   positive semi-definite) by the unscaled step (γ = 1), stopped when the
   largest change is below 1e-14: the rotation nearest to A, a reflection
   when det A < 0. The identity when A is zero or singular relative to its
   largest entry (|det| ≤ 1e-12·max³). The checks' reported numbers and
   sw_skin_rotations were measured with this one; sw_mat34_polar's scaled
   iteration differs in the last bits. */
sw__mat3d sw__mat3d_orthogonal(const sw__mat3d* a);

/* The rotation nearest to a (det a > 0) by IK's iteration:
   X ← ½(γX + X⁻ᵀ/γ), γ = (det X)^(−1/3), X⁻ᵀ from sw__mat3d_inverse, up
   to 40 steps until no entry moves by 1e-15; it stops early (returning
   the last X) when det X ≤ 0 or X is singular. Same limit as
   sw__mat3d_orthogonal's, other last bits. */
sw__mat3d sw__mat3d_nearest_rotation(sw__mat3d a);

/* The angle of the rotation that takes orthogonal `a` to orthogonal `b`,
   radians in [0, π]: acos((tr(aᵀ·b) − 1)/2), clamped. */
double sw__mat3d_angle_between(const sw__mat3d* a, const sw__mat3d* b);

#endif
