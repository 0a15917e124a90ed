/* Where the character stands for the environment feedback, every frame
   (docs/feedback.md): her shape (feet below the joint that carries her,
   height, radius) is measured once from her skinned bounds; each frame
   the joint's position at this frame's pose, moved by the frame's
   placement, places it. The pose's world matrices are on the CPU already:
   nothing is read back after the first measurement. */
#include "renderer_internal.h"

void sw__feedback_measure(sw_renderer* r, const sw_pose* pose, const float lo[3], const float hi[3]) {
    r->feedback_joint = sw__feedback_joint(r->asset);
    float at[3] = {0.0f, 0.0f, 0.0f}; /* no skin: the model's origin carries her */
    if (r->feedback_joint >= 0)
        for (int k = 0; k < 3; k++) at[k] = pose->world[r->feedback_joint].m[k][3];
    r->feedback_shaped = sw__feedback_shape_of(lo, hi, at, &r->feedback_shape);
}

/* A crowd's (its copies have no one place): the scene box, feet at its
   bottom centre. */
static bool sw__feedback_box_body(const sw_renderer* r, sw__feedback_body* body) {
    if (!r->have_bounds) return false;
    const float* lo = r->scene_min;
    const float* hi = r->scene_max;
    sw__feedback_shape shape;
    const float origin[3] = {0.0f, 0.0f, 0.0f};
    if (!sw__feedback_shape_of(lo, hi, origin, &shape)) return false;
    sw__feedback_body_at(&shape, origin, NULL, body);
    return true;
}

sw_result sw__feedback_follow(sw_renderer* r, const sw_render_frame* f, sw_diag* diag) {
    r->feedback_have_body = false;
    if (!f->shading.env_feedback) return SW_OK;
    if (f->crowd.count || !f->pose || !f->pose->world) {
        r->feedback_have_body = sw__feedback_box_body(r, &r->feedback_body);
        return SW_OK;
    }
    if (!r->feedback_shaped) { /* once per scene: one read-back */
        float lo[3], hi[3];
        sw_result res = sw_renderer_scene_bounds(r, f->pose, lo, hi, diag);
        if (res != SW_OK) return res;
        sw__feedback_measure(r, f->pose, lo, hi);
        if (!r->feedback_shaped) return SW_OK;
    }
    float at[3] = {0.0f, 0.0f, 0.0f};
    if (r->feedback_joint >= 0)
        for (int k = 0; k < 3; k++) at[k] = f->pose->world[r->feedback_joint].m[k][3];
    sw__feedback_body_at(&r->feedback_shape, at, f->placement, &r->feedback_body);
    r->feedback_have_body = true;
    return SW_OK;
}

bool sw__feedback_body_of(const sw_renderer* r, sw__feedback_body* body) {
    *body = r->feedback_have_body ? r->feedback_body : (sw__feedback_body){{0.0f, 0.0f, 0.0f}, 0.0f, 0.0f};
    return r->feedback_have_body;
}
