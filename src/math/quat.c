/* Quaternions (x, y, z, w), Hamilton convention (see sinew/math.h). */
#include "sinew/math.h"

sw_quat sw_quat_identity(void) { return (sw_quat){0.0f, 0.0f, 0.0f, 1.0f}; }

sw_quat sw_quat_from_axis_angle(sw_vec3 axis, float angle) {
    sw_vec3 unit = sw_vec3_normalize(axis);
    if (unit.x == 0.0f && unit.y == 0.0f && unit.z == 0.0f) return sw_quat_identity();
    float s = sinf(0.5f * angle), c = cosf(0.5f * angle);
    return (sw_quat){unit.x * s, unit.y * s, unit.z * s, c};
}

float sw_quat_dot(sw_quat a, sw_quat b) { return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; }

sw_quat sw_quat_normalize(sw_quat q) {
    float len2 = sw_quat_dot(q, q);
    if (!(len2 > 0.0f)) return sw_quat_identity();
    float inv = 1.0f / sqrtf(len2);
    return (sw_quat){q.x * inv, q.y * inv, q.z * inv, q.w * inv};
}

sw_quat sw_quat_conjugate(sw_quat q) { return (sw_quat){-q.x, -q.y, -q.z, q.w}; }

sw_quat sw_quat_mul(sw_quat a, sw_quat b) {
    return (sw_quat){
        a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
        a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
        a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
        a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
    };
}

sw_vec3 sw_quat_rotate(sw_quat q, sw_vec3 v) {
    /* v' = v + 2w(u×v) + 2u×(u×v): two cross products instead of two
       quaternion products. */
    sw_vec3 u = {q.x, q.y, q.z};
    sw_vec3 t = sw_vec3_scale(sw_vec3_cross(u, v), 2.0f);
    return sw_vec3_add(sw_vec3_add(v, sw_vec3_scale(t, q.w)), sw_vec3_cross(u, t));
}

sw_quat sw_quat_nlerp(sw_quat a, sw_quat b, float t) {
    float sign = sw_quat_dot(a, b) < 0.0f ? -1.0f : 1.0f;
    float s = 1.0f - t, u = t * sign;
    return sw_quat_normalize((sw_quat){s * a.x + u * b.x, s * a.y + u * b.y, s * a.z + u * b.z, s * a.w + u * b.w});
}

sw_quat sw_quat_slerp(sw_quat a, sw_quat b, float t) {
    float cos_theta = sw_quat_dot(a, b);
    if (cos_theta < 0.0f) { /* the shorter of the two arcs between ±b */
        b = (sw_quat){-b.x, -b.y, -b.z, -b.w};
        cos_theta = -cos_theta;
    }
    /* Nearly parallel: sin θ → 0 makes the weights ill-conditioned, and the
       chord and the arc agree to float precision. */
    if (cos_theta > 0.9995f) return sw_quat_nlerp(a, b, t);
    float theta = acosf(cos_theta);
    float inv_sin = 1.0f / sinf(theta);
    float wa = sinf((1.0f - t) * theta) * inv_sin;
    float wb = sinf(t * theta) * inv_sin;
    return sw_quat_normalize(
        (sw_quat){wa * a.x + wb * b.x, wa * a.y + wb * b.y, wa * a.z + wb * b.z, wa * a.w + wb * b.w});
}

/* The series of sw_quat_slerp_fast (see sinew/math.h): f(τ, y) = τ·r₁ with
   rᵢ = 1 + d·(τ² − i²)·uᵢ·rᵢ₊₁, r₆ = 1, d = y − 1, uᵢ = 1/(i(2i + 1)) and
   u₅ carrying the tail correction 1 + μ. src/anim/clip.c evaluates the same
   expression four tracks at a time and must keep this operation order. */
static float sw__slerp_weight(float tau, float d) {
    const float tau2 = tau * tau;
    float r = 1.0f + d * ((tau2 - 25.0f) * (1.14434643f / 55.0f));
    r = 1.0f + d * ((tau2 - 16.0f) * (1.0f / 36.0f)) * r;
    r = 1.0f + d * ((tau2 - 9.0f) * (1.0f / 21.0f)) * r;
    r = 1.0f + d * ((tau2 - 4.0f) * (1.0f / 10.0f)) * r;
    r = 1.0f + d * ((tau2 - 1.0f) * (1.0f / 3.0f)) * r;
    return tau * r;
}

sw_quat sw_quat_slerp_fast(sw_quat a, sw_quat b, float t) {
    float cos_theta = sw_quat_dot(a, b);
    if (cos_theta < 0.0f) {
        b = (sw_quat){-b.x, -b.y, -b.z, -b.w};
        cos_theta = -cos_theta;
    }
    /* y = cos φ of the half angle, in [√½, 1] (a hair above 1 when rounding
       puts a·b above 1, which the series takes in its stride). */
    const float y = sqrtf(0.5f + 0.5f * cos_theta);
    const float d = y - 1.0f;
    const float k = 0.5f / y;
    const float wa = sw__slerp_weight(2.0f - 2.0f * t, d) * k;
    const float wb = sw__slerp_weight(2.0f * t, d) * k;
    const sw_quat q = {wa * a.x + wb * b.x, wa * a.y + wb * b.y, wa * a.z + wb * b.z, wa * a.w + wb * b.w};
    /* |q| is 1 to within 1e-6 here, where one Newton step of 1/√(q·q)
       from 1, (3 − q·q)/2, normalises to float precision. */
    const float inv = 1.5f - 0.5f * (q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    return (sw_quat){q.x * inv, q.y * inv, q.z * inv, q.w * inv};
}

sw_quat sw_quat_from_mat34(const sw_mat34* m) {
    /* Shepperd: take the square root of the largest of 1+trace and the
       three diagonal variants, so the divisor never approaches zero. */
    float m00 = m->m[0][0], m11 = m->m[1][1], m22 = m->m[2][2];
    float trace = m00 + m11 + m22;
    sw_quat q;
    if (trace > 0.0f) {
        float s = 2.0f * sqrtf(1.0f + trace);
        q = (sw_quat){(m->m[2][1] - m->m[1][2]) / s, (m->m[0][2] - m->m[2][0]) / s,
                      (m->m[1][0] - m->m[0][1]) / s, 0.25f * s};
    } else if (m00 > m11 && m00 > m22) {
        float s = 2.0f * sqrtf(1.0f + m00 - m11 - m22);
        q = (sw_quat){0.25f * s, (m->m[0][1] + m->m[1][0]) / s, (m->m[0][2] + m->m[2][0]) / s,
                      (m->m[2][1] - m->m[1][2]) / s};
    } else if (m11 > m22) {
        float s = 2.0f * sqrtf(1.0f + m11 - m00 - m22);
        q = (sw_quat){(m->m[0][1] + m->m[1][0]) / s, 0.25f * s, (m->m[1][2] + m->m[2][1]) / s,
                      (m->m[0][2] - m->m[2][0]) / s};
    } else {
        float s = 2.0f * sqrtf(1.0f + m22 - m00 - m11);
        q = (sw_quat){(m->m[0][2] + m->m[2][0]) / s, (m->m[1][2] + m->m[2][1]) / s, 0.25f * s,
                      (m->m[1][0] - m->m[0][1]) / s};
    }
    if (q.w < 0.0f) q = (sw_quat){-q.x, -q.y, -q.z, -q.w};
    return sw_quat_normalize(q);
}

sw_quat sw_quat_from_scaled_mat34(const sw_mat34* m) {
    sw_mat34 r = *m;
    for (int c = 0; c < 3; c++) {
        float len = sqrtf(r.m[0][c] * r.m[0][c] + r.m[1][c] * r.m[1][c] + r.m[2][c] * r.m[2][c]);
        if (len > 0.0f)
            for (int row = 0; row < 3; row++) r.m[row][c] /= len;
    }
    return sw_quat_from_mat34(&r);
}
