/* sinew/inertialize.h — inertialised transitions (Bollo, "Inertialization:
   High-Performance Animation Transitions in Gears of War", GDC 2018; the
   Inertialization node of Unreal Engine 5): switch to the destination at
   once and hide the jump under an offset that decays to zero.

       sw_inertialize_joint joints[JOINTS];                 // caller memory
       sw_inertialize_state state = {.joints = joints};
       // at the switch: the source's last two poses, the destination's first
       sw_inertialize_begin(&state, JOINTS, source_prev, source_now, dest_now, dt, 0.3f, NULL, &diag);
       // every frame t seconds after the switch, from the destination alone:
       sw_inertialize_apply(&state, t, dest_local, out_local);

   AT THE SWITCH, per joint (local transforms), the offset from the
   destination to the source: the translation and scale differences
   source − destination, and the rotation q = source · destination⁻¹ as a
   rotation vector log(q) (axis × angle, the shorter arc). Its velocity is
   the offset's change over the source's last frame, (offset_now −
   offset_prev) / dt, where offset_prev is taken against the destination's
   previous pose when options->dest_prev is given and against dest_now
   otherwise (Bollo's choice: the destination held still). Only with
   dest_prev is the output's velocity at the switch the source's (C1).

   EACH FRAME the output is the destination with the decayed offset on top:
   translation dest + d(t), scale dest + s(t), rotation exp(r(t)) · dest.
   At t = 0 it is the source pose (to float rounding), at t ≥ T it is the
   destination exactly (copied).

   THE QUINTIC (default). Bollo decays the offset's length along its
   direction; sinew decays each component of the three vectors with its
   own quintic, so velocity across the offset is kept too. For one
   component with offset x₀ > 0 (the sign is flipped for x₀ < 0), velocity
   v₀ and blend time T:
     - overshoot rule: v₀ > 0 moves away from 0; it is set to 0 (unless
       options->keep_outward_velocity, which keeps C1 but may overshoot);
     - T = min(T, −5·x₀ / v₀) when v₀ < 0, so the curve never crosses 0;
     - a₀ = max(0, (−8·v₀·T − 20·x₀) / T²);
     - x(t) = A t⁵ + B t⁴ + C t³ + a₀/2 t² + v₀ t + x₀ with
         A = −(a₀T² + 6v₀T + 12x₀) / (2T⁵),
         B =  (3a₀T² + 16v₀T + 30x₀) / (2T⁴),
         C = −(3a₀T² + 12v₀T + 20x₀) / (2T³),
       the quintic with x, x′, x″ = x₀, v₀, a₀ at 0 and 0, 0, 0 at T, and
       x(t) = 0 after T.
   SW_INERTIALIZE_SPRING instead decays each component by a critically
   damped spring, x(t) = (x₀ + (v₀ + ωx₀)·t)·e^(−ωt), ω = 12 / T (what is
   left at T, about 8e-5 of x₀ when v₀ = 0, is dropped there); it keeps v₀
   (no overshoot rule) and may overshoot when v₀ points strongly to 0.

   No allocation, no state outside the caller's: thread-safe,
   deterministic. */
#ifndef SINEW_INERTIALIZE_H
#define SINEW_INERTIALIZE_H

#include "sinew/base.h"
#include "sinew/math.h"

SW_EXTERN_C_BEGIN

typedef enum sw_inertialize_method {
    SW_INERTIALIZE_DEFAULT = 0, /* QUINTIC */
    SW_INERTIALIZE_QUINTIC,
    SW_INERTIALIZE_SPRING,
} sw_inertialize_method;

/* The decay of one scalar offset. */
typedef struct sw_inertial_curve {
    float x0, v0, a0;  /* offset, velocity (after the overshoot rule), acceleration at t = 0 */
    float c3, c4, c5;  /* quintic: the t³, t⁴, t⁵ coefficients (spring: unused) */
    float duration;    /* T after the clamp (spring: the blend time) */
} sw_inertial_curve;

/* The quintic of the manual for offset x0, velocity v0 and blend time T > 0. */
sw_inertial_curve sw_inertial_quintic(float x0, float v0, float blend_time, bool keep_outward_velocity);
/* The critically damped spring of the manual. */
sw_inertial_curve sw_inertial_spring(float x0, float v0, float blend_time);
/* The offset at t ≥ 0 (0 from the duration on). */
float sw_inertial_quintic_eval(const sw_inertial_curve* curve, float t);
float sw_inertial_spring_eval(const sw_inertial_curve* curve, float t);

/* One joint's offsets: x, y, z of the translation, rotation vector and scale. */
typedef struct sw_inertialize_joint {
    sw_inertial_curve translation[3];
    sw_inertial_curve rotation[3];
    sw_inertial_curve scale[3];
} sw_inertialize_joint;

typedef struct sw_inertialize_state {
    sw_inertialize_joint* joints; /* set by the caller: joint_count entries */
    size_t joint_count;           /* written by begin */
    float blend_time;             /* written by begin */
    sw_inertialize_method method; /* written by begin */
} sw_inertialize_state;

typedef struct sw_inertialize_options {
    sw_inertialize_method method;
    const sw_transform* dest_prev; /* the destination one dt before the switch, or NULL (held still) */
    bool keep_outward_velocity;    /* quintic: skip the overshoot rule (C1 always, may overshoot) */
} sw_inertialize_options;

/* Starts a transition (see the manual). Poses are joint_count local
   transforms with unit rotations. options may be NULL (quintic, Bollo's
   rule, destination held still). Fails with SW_ERR_INVALID_DATA on
   dt or blend_time not finite and > 0 or a non-finite value in a pose
   (naming the joint); the state is then left as it was. */
sw_result sw_inertialize_begin(sw_inertialize_state* state, size_t joint_count, const sw_transform* source_prev,
                               const sw_transform* source_now, const sw_transform* dest_now, float dt,
                               float blend_time, const sw_inertialize_options* options, sw_diag* diag);

/* out = the destination pose `dest` (joint_count locals, sampled t seconds
   after the switch) with the offsets at t on top; from t ≥ blend_time on, a
   copy of dest. out may be dest. */
void sw_inertialize_apply(const sw_inertialize_state* state, float t, const sw_transform* dest,
                          sw_transform* out);

/* Rotation vector (axis × angle, the shorter arc) of a unit quaternion, and back. */
sw_vec3 sw_quat_log_vector(sw_quat q);
sw_quat sw_quat_exp_vector(sw_vec3 v);

SW_EXTERN_C_END

#endif
