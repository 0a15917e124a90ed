/* Unit dual quaternions for rigid transforms (see sinew/math.h). */
#include "sinew/math.h"

sw_dualquat sw_dualquat_identity(void) {
    return (sw_dualquat){{0.0f, 0.0f, 0.0f, 1.0f}, {0.0f, 0.0f, 0.0f, 0.0f}};
}

sw_dualquat sw_dualquat_from_rigid(sw_quat r, sw_vec3 t) {
    /* dual = ½·(t, 0)·r */
    sw_quat d = sw_quat_mul((sw_quat){t.x, t.y, t.z, 0.0f}, r);
    return (sw_dualquat){r, {0.5f * d.x, 0.5f * d.y, 0.5f * d.z, 0.5f * d.w}};
}

sw_dualquat sw_dualquat_from_mat34(const sw_mat34* m) {
    return sw_dualquat_from_rigid(sw_quat_from_mat34(m), (sw_vec3){m->m[0][3], m->m[1][3], m->m[2][3]});
}

sw_dualquat sw_dualquat_normalize(sw_dualquat dq) {
    float len2 = sw_quat_dot(dq.real, dq.real);
    if (!(len2 > 0.0f)) return sw_dualquat_identity();
    float inv = 1.0f / sqrtf(len2);
    sw_quat r = {dq.real.x * inv, dq.real.y * inv, dq.real.z * inv, dq.real.w * inv};
    sw_quat d = {dq.dual.x * inv, dq.dual.y * inv, dq.dual.z * inv, dq.dual.w * inv};
    /* A unit dual quaternion also needs real·dual = 0. */
    float along = sw_quat_dot(r, d);
    d = (sw_quat){d.x - along * r.x, d.y - along * r.y, d.z - along * r.z, d.w - along * r.w};
    return (sw_dualquat){r, d};
}

sw_dualquat sw_dualquat_blend(const sw_dualquat* dqs, const float* weights, int count) {
    sw_quat pivot = dqs[0].real;
    sw_dualquat sum = {{0.0f, 0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f, 0.0f}};
    for (int i = 0; i < count; i++) {
        /* q and −q are the same rotation; blending across hemispheres would
           take the long way round (or cancel to zero). */
        float w = sw_quat_dot(dqs[i].real, pivot) < 0.0f ? -weights[i] : weights[i];
        const sw_quat r = dqs[i].real, d = dqs[i].dual;
        sum.real = (sw_quat){sum.real.x + w * r.x, sum.real.y + w * r.y, sum.real.z + w * r.z, sum.real.w + w * r.w};
        sum.dual = (sw_quat){sum.dual.x + w * d.x, sum.dual.y + w * d.y, sum.dual.z + w * d.z, sum.dual.w + w * d.w};
    }
    return sw_dualquat_normalize(sum);
}

/* Translation of a unit dual quaternion: 2·dual·conj(real), vector part. */
static sw_vec3 sw__dualquat_translation(sw_dualquat dq) {
    sw_quat t = sw_quat_mul(dq.dual, sw_quat_conjugate(dq.real));
    return (sw_vec3){2.0f * t.x, 2.0f * t.y, 2.0f * t.z};
}

sw_vec3 sw_dualquat_apply_point(sw_dualquat dq, sw_vec3 p) {
    return sw_vec3_add(sw_quat_rotate(dq.real, p), sw__dualquat_translation(dq));
}

sw_vec3 sw_dualquat_apply_dir(sw_dualquat dq, sw_vec3 d) { return sw_quat_rotate(dq.real, d); }

sw_mat34 sw_dualquat_to_mat34(sw_dualquat dq) {
    sw_transform t = {sw__dualquat_translation(dq), dq.real, {1.0f, 1.0f, 1.0f}};
    return sw_transform_to_mat34(&t);
}
