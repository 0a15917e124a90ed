/* Inertialised transitions; see sinew/inertialize.h for the manual. */
#include "sinew/inertialize.h"

#include <math.h>
#include <string.h>

/* ω·T of the spring option: e^(−12)·13 ≈ 8e-5 of the offset is left at T. */
#define SW__SPRING_RATE 12.0f

sw_inertial_curve sw_inertial_quintic(float x0, float v0, float blend_time, bool keep_outward_velocity) {
    sw_inertial_curve c = {0};
    /* Work with x ≥ 0; the sign comes back at the end. */
    const double s = x0 < 0.0f ? -1.0 : 1.0;
    double x = s * x0, v = s * v0, T = blend_time;
    if (!keep_outward_velocity && (v > 0.0 || x == 0.0)) v = 0.0; /* moving away from 0 (at 0: any motion) */
    if (x > 0.0 && v < 0.0 && -5.0 * x / v < T) T = -5.0 * x / v; /* no crossing of 0 */
    double a = (-8.0 * v * T - 20.0 * x) / (T * T);
    if (a < 0.0) a = 0.0;
    const double T2 = T * T, T3 = T2 * T;
    c.x0 = (float)(s * x), c.v0 = (float)(s * v), c.a0 = (float)(s * a);
    c.c5 = (float)(s * -(a * T2 + 6.0 * v * T + 12.0 * x) / (2.0 * T3 * T2));
    c.c4 = (float)(s * (3.0 * a * T2 + 16.0 * v * T + 30.0 * x) / (2.0 * T2 * T2));
    c.c3 = (float)(s * -(3.0 * a * T2 + 12.0 * v * T + 20.0 * x) / (2.0 * T3));
    c.duration = (float)T;
    return c;
}

sw_inertial_curve sw_inertial_spring(float x0, float v0, float blend_time) {
    sw_inertial_curve c = {0};
    c.x0 = x0, c.v0 = v0, c.duration = blend_time;
    return c;
}

float sw_inertial_quintic_eval(const sw_inertial_curve* c, float t) {
    if (!(t < c->duration)) return 0.0f;
    if (t < 0.0f) t = 0.0f;
    /* Horner */
    return ((((c->c5 * t + c->c4) * t + c->c3) * t + 0.5f * c->a0) * t + c->v0) * t + c->x0;
}

float sw_inertial_spring_eval(const sw_inertial_curve* c, float t) {
    if (!(t < c->duration)) return 0.0f;
    if (t < 0.0f) t = 0.0f;
    const float w = SW__SPRING_RATE / c->duration;
    return (c->x0 + (c->v0 + w * c->x0) * t) * expf(-w * t);
}

/* ---- rotation vectors --------------------------------------------------------- */

/* axis × angle of q as it is (no hemisphere flip): angle = 2·atan2(|v|, w). */
static sw_vec3 sw__log_as_is(sw_quat q) {
    double x = q.x, y = q.y, z = q.z, s = sqrt(x * x + y * y + z * z);
    double k = s > 1e-12 ? 2.0 * atan2(s, (double)q.w) / s : 2.0; /* angle / sin(angle/2), → 2 as angle → 0 */
    return sw_vec3_make((float)(x * k), (float)(y * k), (float)(z * k));
}

sw_vec3 sw_quat_log_vector(sw_quat q) {
    if (q.w < 0.0f) q.x = -q.x, q.y = -q.y, q.z = -q.z, q.w = -q.w; /* shorter arc */
    return sw__log_as_is(q);
}

sw_quat sw_quat_exp_vector(sw_vec3 v) {
    double x = v.x, y = v.y, z = v.z, angle = sqrt(x * x + y * y + z * z);
    double k = angle > 1e-12 ? sin(0.5 * angle) / angle : 0.5;
    sw_quat q = {(float)(x * k), (float)(y * k), (float)(z * k), (float)cos(0.5 * angle)};
    return q;
}

/* log(a · b⁻¹) on the branch nearest `near` (so that the previous frame's
   offset is measured continuously with the current one, even past π). */
static sw_vec3 sw__rotation_offset(sw_quat a, sw_quat b, sw_quat near) {
    sw_quat q = sw_quat_normalize(sw_quat_mul(a, sw_quat_conjugate(b)));
    if (sw_quat_dot(q, near) < 0.0f) q.x = -q.x, q.y = -q.y, q.z = -q.z, q.w = -q.w;
    return sw__log_as_is(q);
}

static bool sw__transform_finite(const sw_transform* t) {
    const sw_vec3 *p = &t->translation, *k = &t->scale;
    const sw_quat* q = &t->rotation;
    return isfinite(p->x) && isfinite(p->y) && isfinite(p->z) && isfinite(k->x) && isfinite(k->y) &&
           isfinite(k->z) && isfinite(q->x) && isfinite(q->y) && isfinite(q->z) && isfinite(q->w);
}

static void sw__curves(sw_inertial_curve* out, sw_vec3 now, sw_vec3 prev, float dt, float T,
                       const sw_inertialize_options* o) {
    const float x[3] = {now.x, now.y, now.z}, p[3] = {prev.x, prev.y, prev.z};
    for (int k = 0; k < 3; k++) {
        float v = (x[k] - p[k]) / dt;
        out[k] = o->method == SW_INERTIALIZE_SPRING ? sw_inertial_spring(x[k], v, T)
                                                    : sw_inertial_quintic(x[k], v, T, o->keep_outward_velocity);
    }
}

sw_result sw_inertialize_begin(sw_inertialize_state* state, size_t joint_count, const sw_transform* source_prev,
                               const sw_transform* source_now, const sw_transform* dest_now, float dt,
                               float blend_time, const sw_inertialize_options* options, sw_diag* diag) {
    SW_ASSERT(state && (joint_count == 0 || (state->joints && source_prev && source_now && dest_now)));
    const sw_inertialize_options defaults = {0};
    const sw_inertialize_options* o = options ? options : &defaults;
    if (!(dt > 0.0f) || !isfinite(dt))
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "inertialization: dt %g is not > 0", (double)dt);
    if (!(blend_time > 0.0f) || !isfinite(blend_time))
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "inertialization: blend time %g is not > 0",
                           (double)blend_time);
    for (size_t j = 0; j < joint_count; j++)
        if (!sw__transform_finite(&source_prev[j]) || !sw__transform_finite(&source_now[j]) ||
            !sw__transform_finite(&dest_now[j]) || (o->dest_prev && !sw__transform_finite(&o->dest_prev[j])))
            return sw_diag_set(diag, SW_ERR_INVALID_DATA, (int64_t)j, "inertialization: joint %zu is not finite", j);
    for (size_t j = 0; j < joint_count; j++) {
        const sw_transform* d0 = o->dest_prev ? &o->dest_prev[j] : &dest_now[j];
        const sw_transform *sn = &source_now[j], *sp = &source_prev[j], *dn = &dest_now[j];
        sw_inertialize_joint* out = &state->joints[j];
        sw_vec3 t_now = sw_vec3_sub(sn->translation, dn->translation);
        sw_vec3 t_prev = sw_vec3_sub(sp->translation, d0->translation);
        sw_vec3 s_now = sw_vec3_sub(sn->scale, dn->scale);
        sw_vec3 s_prev = sw_vec3_sub(sp->scale, d0->scale);
        sw_quat q_now = sw_quat_normalize(sw_quat_mul(sn->rotation, sw_quat_conjugate(dn->rotation)));
        if (q_now.w < 0.0f) q_now.x = -q_now.x, q_now.y = -q_now.y, q_now.z = -q_now.z, q_now.w = -q_now.w;
        sw_vec3 r_now = sw__log_as_is(q_now);
        sw_vec3 r_prev = sw__rotation_offset(sp->rotation, d0->rotation, q_now);
        sw__curves(out->translation, t_now, t_prev, dt, blend_time, o);
        sw__curves(out->rotation, r_now, r_prev, dt, blend_time, o);
        sw__curves(out->scale, s_now, s_prev, dt, blend_time, o);
    }
    state->joint_count = joint_count;
    state->blend_time = blend_time;
    state->method = o->method == SW_INERTIALIZE_SPRING ? SW_INERTIALIZE_SPRING : SW_INERTIALIZE_QUINTIC;
    return SW_OK;
}

static sw_vec3 sw__eval3(const sw_inertial_curve* c, bool spring, float t) {
    if (spring)
        return sw_vec3_make(sw_inertial_spring_eval(&c[0], t), sw_inertial_spring_eval(&c[1], t),
                            sw_inertial_spring_eval(&c[2], t));
    return sw_vec3_make(sw_inertial_quintic_eval(&c[0], t), sw_inertial_quintic_eval(&c[1], t),
                        sw_inertial_quintic_eval(&c[2], t));
}

void sw_inertialize_apply(const sw_inertialize_state* state, float t, const sw_transform* dest,
                          sw_transform* out) {
    SW_ASSERT(state && (state->joint_count == 0 || (dest && out)));
    const size_t n = state->joint_count;
    if (!(t < state->blend_time)) {
        if (out != dest) memcpy(out, dest, n * sizeof *out);
        return;
    }
    const bool spring = state->method == SW_INERTIALIZE_SPRING;
    for (size_t j = 0; j < n; j++) {
        const sw_inertialize_joint* c = &state->joints[j];
        sw_transform d = dest[j];
        out[j].translation = sw_vec3_add(d.translation, sw__eval3(c->translation, spring, t));
        out[j].scale = sw_vec3_add(d.scale, sw__eval3(c->scale, spring, t));
        sw_quat r = sw_quat_exp_vector(sw__eval3(c->rotation, spring, t));
        out[j].rotation = sw_quat_normalize(sw_quat_mul(r, d.rotation));
    }
}
