/* TRS transforms: matrix T·R·S (see sinew/math.h). */
#include "sinew/math.h"

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
