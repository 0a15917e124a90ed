/* TRS transforms: matrix T·R·S (see sinew/math.h). */
#include "sinew/math.h"

#include <math.h>

sw_transform sw_transform_identity(void) {
    return (sw_transform){{0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f, 1.0f}, {1.0f, 1.0f, 1.0f}};
}

sw_mat34 sw_transform_to_mat34(const sw_transform* t) {
    const sw_quat q = t->rotation;
    float xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z;
    float xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z;
    float wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z;
    /* Columns of R are scaled by S (S is applied first). */
    const sw_vec3 s = t->scale;
    return (sw_mat34){{
        {(1.0f - 2.0f * (yy + zz)) * s.x, 2.0f * (xy - wz) * s.y, 2.0f * (xz + wy) * s.z, t->translation.x},
        {2.0f * (xy + wz) * s.x, (1.0f - 2.0f * (xx + zz)) * s.y, 2.0f * (yz - wx) * s.z, t->translation.y},
        {2.0f * (xz - wy) * s.x, 2.0f * (yz + wx) * s.y, (1.0f - 2.0f * (xx + yy)) * s.z, t->translation.z},
    }};
}

sw_transform sw_transform_from_mat34(const sw_mat34* m, bool* out_exact) {
    sw_transform t = sw_transform_identity();
    t.translation = sw_vec3_make(m->m[0][3], m->m[1][3], m->m[2][3]);
    sw_mat34 a = *m, rigid, stretch;
    /* A reflection has no rotation factor: split −A instead and give the
       sign to the scale. */
    const float sign = sw_mat34_determinant(m) < 0.0f ? -1.0f : 1.0f;
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) a.m[r][c] *= sign;
    if (!sw_mat34_polar(&a, &rigid, &stretch)) {
        *out_exact = false;
        float s[3];
        for (int c = 0; c < 3; c++)
            s[c] = sqrtf(m->m[0][c] * m->m[0][c] + m->m[1][c] * m->m[1][c] + m->m[2][c] * m->m[2][c]);
        t.scale = sw_vec3_make(s[0], s[1], s[2]);
        return t;
    }
    t.rotation = sw_quat_from_mat34(&rigid);
    t.scale = sw_vec3_make(sign * stretch.m[0][0], sign * stretch.m[1][1], sign * stretch.m[2][2]);
    const float largest = fmaxf(fabsf(stretch.m[0][0]), fmaxf(fabsf(stretch.m[1][1]), fabsf(stretch.m[2][2])));
    const float off = fmaxf(fabsf(stretch.m[0][1]), fmaxf(fabsf(stretch.m[0][2]), fabsf(stretch.m[1][2])));
    *out_exact = off <= 1e-4f * largest;
    return t;
}

sw_transform sw_transform_mul(const sw_transform* parent, const sw_transform* child) {
    sw_transform out;
    out.translation = sw_vec3_add(parent->translation,
                                  sw_quat_rotate(parent->rotation, sw_vec3_mul(parent->scale, child->translation)));
    out.rotation = sw_quat_normalize(sw_quat_mul(parent->rotation, child->rotation));
    out.scale = sw_vec3_mul(parent->scale, child->scale);
    return out;
}

sw_vec3 sw_transform_apply_point(const sw_transform* t, sw_vec3 p) {
    return sw_vec3_add(t->translation, sw_quat_rotate(t->rotation, sw_vec3_mul(t->scale, p)));
}
