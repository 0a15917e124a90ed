/* sinew/math.h — vectors, quaternions, TRS transforms, 3×4 affine rows,
   4×4 matrices and dual quaternions.

   Conventions (glTF's, see docs/DESIGN.md):
   - right-handed, +Y up, metres, radians, column vectors: p' = M·p;
   - quaternions are (x, y, z, w), w the scalar part; sw_quat_mul(a, b) is the
     Hamilton product a·b, which rotates by b first, then by a;
   - a TRS transform means the matrix T·R·S (scale first, then rotation, then
     translation);
   - sw_mat34 holds the top three rows of an affine 4×4 (the bottom row is
     always 0 0 0 1): m[r][0..2] is row r of the 3×3 part and m[r][3] is
     component r of the translation. This is the packing every engine in seed
     000 uploads (3 × vec4 per joint) and the layout the skinning kernels read;
   - sw_mat4 is column-major (m[c*4 + r]), as glTF files and OpenGL store it.

   Everything here is pure: no state, no allocation, thread-safe. Functions
   that can fail on singular input return bool and write a defined value. */
#ifndef SINEW_MATH_H
#define SINEW_MATH_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "sinew/base.h"

SW_EXTERN_C_BEGIN

typedef struct sw_vec3 { float x, y, z; } sw_vec3;
typedef struct sw_vec4 { float x, y, z, w; } sw_vec4;
typedef struct sw_quat { float x, y, z, w; } sw_quat;
typedef struct sw_transform { sw_vec3 translation; sw_quat rotation; sw_vec3 scale; } sw_transform;
typedef struct sw_mat34 { float m[3][4]; } sw_mat34;
typedef struct sw_mat4 { float m[16]; } sw_mat4;
/* Unit dual quaternion real + ε·dual for a rigid transform: real is the
   rotation, dual = ½·(t, 0)·real. */
typedef struct sw_dualquat { sw_quat real, dual; } sw_dualquat;

SW_STATIC_ASSERT(sizeof(sw_mat34) == 48, "sw_mat34 is 3 rows of 4 floats, as uploaded to GPUs");
SW_STATIC_ASSERT(sizeof(sw_dualquat) == 32, "sw_dualquat is 2 vec4");

#define SW_PI 3.14159265358979323846

/* ---- vec3 (inline: used inside kernels; no compound literals, so C++ can include this) */
static inline sw_vec3 sw_vec3_make(float x, float y, float z) { sw_vec3 r = {x, y, z}; return r; }
static inline sw_vec3 sw_vec3_add(sw_vec3 a, sw_vec3 b) { return sw_vec3_make(a.x + b.x, a.y + b.y, a.z + b.z); }
static inline sw_vec3 sw_vec3_sub(sw_vec3 a, sw_vec3 b) { return sw_vec3_make(a.x - b.x, a.y - b.y, a.z - b.z); }
static inline sw_vec3 sw_vec3_scale(sw_vec3 a, float s) { return sw_vec3_make(a.x * s, a.y * s, a.z * s); }
static inline sw_vec3 sw_vec3_mul(sw_vec3 a, sw_vec3 b) { return sw_vec3_make(a.x * b.x, a.y * b.y, a.z * b.z); }
static inline float sw_vec3_dot(sw_vec3 a, sw_vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline sw_vec3 sw_vec3_cross(sw_vec3 a, sw_vec3 b) {
    return sw_vec3_make(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
static inline float sw_vec3_length(sw_vec3 a) { return sqrtf(sw_vec3_dot(a, a)); }
/* Zero-length input gives the zero vector (no NaN). */
static inline sw_vec3 sw_vec3_normalize(sw_vec3 a) {
    float len2 = sw_vec3_dot(a, a);
    return len2 > 0.0f ? sw_vec3_scale(a, 1.0f / sqrtf(len2)) : sw_vec3_make(0.0f, 0.0f, 0.0f);
}
static inline sw_vec3 sw_vec3_lerp(sw_vec3 a, sw_vec3 b, float t) {
    return sw_vec3_make(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, a.z + (b.z - a.z) * t);
}

/* ---- normalised integers (glTF 2.0 §3.11 formulas, exact) ---------------- */
static inline float sw_unorm8_to_float(uint8_t c) { return (float)c / 255.0f; }
static inline float sw_unorm16_to_float(uint16_t c) { return (float)c / 65535.0f; }
static inline float sw_snorm8_to_float(int8_t c) { float f = (float)c / 127.0f; return f < -1.0f ? -1.0f : f; }
static inline float sw_snorm16_to_float(int16_t c) { float f = (float)c / 32767.0f; return f < -1.0f ? -1.0f : f; }

/* ---- quaternions ---------------------------------------------------------- */
sw_quat sw_quat_identity(void);
/* Rotation by `angle` radians about `axis` (need not be unit; zero axis gives identity). */
sw_quat sw_quat_from_axis_angle(sw_vec3 axis, float angle);
float sw_quat_dot(sw_quat a, sw_quat b);
/* Unit quaternion in the same direction; a zero quaternion gives identity. */
sw_quat sw_quat_normalize(sw_quat q);
sw_quat sw_quat_conjugate(sw_quat q);
sw_quat sw_quat_mul(sw_quat a, sw_quat b);
/* Rotates v by unit quaternion q. */
sw_vec3 sw_quat_rotate(sw_quat q, sw_vec3 v);
/* Spherical interpolation along the shorter arc (b is negated when a·b < 0);
   t = 0 gives a, t = 1 gives ±b. Falls back to nlerp when a ≈ ±b. Inputs unit. */
sw_quat sw_quat_slerp(sw_quat a, sw_quat b, float t);
/* sw_quat_slerp without acos or sin, for hot loops (the clip sampler uses
   it for LINEAR rotations): the same shorter arc, t = 0 gives a and t = 1
   gives ±b (to round-off), and no nearly-parallel special case is needed.
   For unit inputs and t in [0, 1] each component is within 2.5e-7 of the
   exact slerp (1.95e-7 measured over 10⁶ random pairs, where sw_quat_slerp,
   with float acos and sin, is 5.0e-7 away), and the result is unit to
   float precision.

   How: with x = cos θ = a·b ≥ 0, the slerp weights are sin((1−t)θ)/sin θ
   and sin(tθ)/sin θ. Write θ = 2φ: sin(τφ)/sin θ = f(τ, y) / (2y) with
   y = cos φ = √((1 + x)/2) and f(τ, y) = sin(τφ)/sin φ, which has the power
   series (Eberly, "A fast and accurate algorithm for computing SLERP", 2011)
     f(τ, y) = Σ bᵢ(τ) (y − 1)ⁱ,  b₀ = τ,  bᵢ = bᵢ₋₁ (τ² − i²) / (i (2i + 1)).
   On the half angle (φ ≤ 45°, |y − 1| ≤ 0.293) 6 terms suffice, the last
   one scaled by 1 + μ, μ = 0.14434643, fitted so the largest error over
   θ ∈ [0°, 90°], t ∈ [0, 1] is smallest (6.5e-8; 1.3e-6 without μ). The
   result is then normalised by one Newton step of 1/√(q·q) from 1. Inputs
   must be unit (to float precision). */
sw_quat sw_quat_slerp_fast(sw_quat a, sw_quat b, float t);
/* Normalised linear interpolation along the shorter arc. */
sw_quat sw_quat_nlerp(sw_quat a, sw_quat b, float t);
/* Rotation of an orthonormal, right-handed 3×3 (the 3×3 part of m; the
   translation is ignored). Result is unit with w ≥ 0. */
sw_quat sw_quat_from_mat34(const sw_mat34* m);
/* The same for a 3×3 whose columns may carry scale (a world matrix under a
   scaled armature): each non-zero column is normalised first. */
sw_quat sw_quat_from_scaled_mat34(const sw_mat34* m);

/* ---- TRS transforms -------------------------------------------------------- */
sw_transform sw_transform_identity(void);
/* The affine matrix T·R·S. Rotation must be unit. */
sw_mat34 sw_transform_to_mat34(const sw_transform* t);
/* The TRS nearest an affine matrix, by polar decomposition: a reflection
   (det < 0) goes to the scale's sign; shear, which TRS cannot hold, is
   dropped and *out_exact is false (off-diagonal stretch above 1e-4 of the
   largest scale); a singular matrix keeps its column lengths as scale and
   no rotation. */
sw_transform sw_transform_from_mat34(const sw_mat34* m, bool* out_exact);
/* TRS of parent·child. Exact when the parent's scale is uniform; with
   non-uniform parent scale and a rotated child the true product has shear,
   which TRS cannot hold; the matrix path (sw_mat34_mul) stays exact. */
sw_transform sw_transform_mul(const sw_transform* parent, const sw_transform* child);
sw_vec3 sw_transform_apply_point(const sw_transform* t, sw_vec3 p);

/* ---- 3×4 affine rows --------------------------------------------------------- */
sw_mat34 sw_mat34_identity(void);
sw_mat34 sw_mat34_translation(sw_vec3 t);
/* a·b: apply b first, then a. */
sw_mat34 sw_mat34_mul(const sw_mat34* a, const sw_mat34* b);
sw_vec3 sw_mat34_apply_point(const sw_mat34* m, sw_vec3 p);
/* The 3×3 part only (directions, tangents). */
sw_vec3 sw_mat34_apply_dir(const sw_mat34* m, sw_vec3 d);
float sw_mat34_determinant(const sw_mat34* m);
/* Cofactor matrix of the 3×3 part, det(A)·A⁻ᵀ (translation set to 0): maps
   normals exactly under any invertible linear map, up to length, and stays
   defined when A is singular. */
sw_mat34 sw_mat34_cofactor(const sw_mat34* m);
/* General affine inverse. Returns false and writes identity when the 3×3
   part is singular (|det| below 1e-12 relative to its scale). */
bool sw_mat34_inverse(sw_mat34* out, const sw_mat34* m);
/* Splits the 3×3 part A into A = R·K, R a rotation (det +1) and K symmetric
   (the stretch: scale and shear in the space before R), by Higham's
   iteration. The translation goes with R; K's translation is 0. Returns false
   (R's 3×3 = identity, K = A) when A is singular or a reflection. */
bool sw_mat34_polar(const sw_mat34* m, sw_mat34* out_rigid, sw_mat34* out_stretch);
/* Column-major 4×4 ↔ 3×4 rows (the bottom row of `m` is dropped). */
sw_mat34 sw_mat34_from_mat4(const sw_mat4* m);
sw_mat4 sw_mat4_from_mat34(const sw_mat34* m);

/* ---- 4×4 (column-major) ------------------------------------------------------- */
sw_mat4 sw_mat4_identity(void);
sw_mat4 sw_mat4_mul(const sw_mat4* a, const sw_mat4* b);
sw_mat4 sw_mat4_transpose(const sw_mat4* m);
sw_vec4 sw_mat4_apply(const sw_mat4* m, sw_vec4 v);
/* General inverse; false and identity when singular. */
bool sw_mat4_inverse(sw_mat4* out, const sw_mat4* m);

/* ---- dual quaternions --------------------------------------------------------- */
sw_dualquat sw_dualquat_identity(void);
/* Rigid transform "rotate by r, then translate by t". r must be unit. */
sw_dualquat sw_dualquat_from_rigid(sw_quat r, sw_vec3 t);
/* From the rigid part of m (rotation by sw_quat_from_mat34, so m's 3×3 must be
   orthonormal: use sw_mat34_polar first if it carries scale). */
sw_dualquat sw_dualquat_from_mat34(const sw_mat34* m);
/* Divides both parts by |real| and removes the dual part's component along
   real, so the result is a unit dual quaternion (a rigid transform). A zero
   real part gives identity. */
sw_dualquat sw_dualquat_normalize(sw_dualquat dq);
/* Σ wᵢ·sᵢ·dqᵢ with sᵢ = ±1 chosen so every real part lies in the hemisphere of
   dqs[0]'s (the antipodality fix of Kavan et al. 2008), then normalised.
   count ≥ 1. */
sw_dualquat sw_dualquat_blend(const sw_dualquat* dqs, const float* weights, int count);
sw_vec3 sw_dualquat_apply_point(sw_dualquat dq, sw_vec3 p);
sw_vec3 sw_dualquat_apply_dir(sw_dualquat dq, sw_vec3 d);
/* The rigid 3×4 matrix of a unit dual quaternion. */
sw_mat34 sw_dualquat_to_mat34(sw_dualquat dq);

SW_EXTERN_C_END

#endif
