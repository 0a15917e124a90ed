/* The character's environment feedback in C (feedback.h); shaders/feedback.comp
   and the character shaders' sw_feedback_* mirror it. */
#include "feedback.h"

#include <math.h>

static float sw__sat(float v) { return v < 0.0f ? 0.0f : v > 1.0f ? 1.0f : v; }

void sw__feedback_direction(int d, float out[3]) {
    float phi = 6.2831853f * (float)d / (float)SW_FEEDBACK_DIRECTIONS;
    out[0] = sinf(phi), out[1] = 0.0f, out[2] = cosf(phi);
}

void sw__feedback_sample_point(const sw__feedback_body* body, int column, int sample, float out[3]) {
    float dir[3];
    if (column < SW_FEEDBACK_COLOUR_COLUMNS) {
        sw__feedback_direction(column, dir);
        float reach = body->height * (0.5f + 0.5f * (float)sample);
        out[0] = body->feet[0] + dir[0] * reach;
        out[1] = body->feet[1] + 0.4f * body->height;
        out[2] = body->feet[2] + dir[2] * reach;
        return;
    }
    int s = column - SW_FEEDBACK_COLOUR_COLUMNS;
    int ring = s / SW_FEEDBACK_DIRECTIONS, d = s % SW_FEEDBACK_DIRECTIONS;
    sw__feedback_direction(d, dir);
    /* The tangent (dir rotated a quarter turn about +Y) and the offsets. */
    float tangent[3] = {dir[2], 0.0f, -dir[0]};
    static const float side[SW_FEEDBACK_SAMPLES] = {0.0f, -0.25f, 0.25f, 0.0f, 0.0f};
    static const float up[SW_FEEDBACK_SAMPLES] = {0.0f, 0.0f, 0.0f, 1.0f / 24.0f, -1.0f / 24.0f};
    float h = ((float)ring + 0.5f) / (float)SW_FEEDBACK_SHADOW_RINGS + up[sample];
    float t = side[sample] * body->radius;
    out[0] = body->feet[0] + dir[0] * body->radius + tangent[0] * t;
    out[1] = body->feet[1] + h * body->height;
    out[2] = body->feet[2] + dir[2] * body->radius + tangent[2] * t;
}

bool sw__feedback_colour_mean(const float rgb[SW_FEEDBACK_SAMPLES][3], const float valid[SW_FEEDBACK_SAMPLES],
                              float mean[3]) {
    float sum[3] = {0.0f, 0.0f, 0.0f};
    int n = 0;
    for (int k = 0; k < SW_FEEDBACK_SAMPLES; k++) {
        if (!(valid[k] > 0.5f)) continue;
        for (int i = 0; i < 3; i++) sum[i] += rgb[k][i];
        n++;
    }
    if (n == 0) return false;
    for (int i = 0; i < 3; i++) mean[i] = sum[i] / (float)n;
    return true;
}

void sw__feedback_colour_update(float colour[4], const float mean[3], bool any_valid) {
    if (!any_valid) return;
    const float rate = (float)SW_FEEDBACK_UPDATE_PERCENT / 100.0f;
    for (int i = 0; i < 3; i++) colour[i] += rate * (mean[i] - colour[i]);
    colour[3] += rate * (1.0f - colour[3]); /* the confidence, mean 1 */
}

bool sw__feedback_shadow_mean(const float pass[SW_FEEDBACK_SAMPLES], const float valid[SW_FEEDBACK_SAMPLES],
                              const float control[SW_FEEDBACK_SAMPLES], float* sbar, float* c) {
    float sum = 0.0f;
    int n = 0;
    for (int k = 0; k < SW_FEEDBACK_SAMPLES; k++) {
        if (!(valid[k] > 0.001f)) continue;
        sum += pass[k];
        *c = control[k];
        n++;
    }
    if (n == 0) return false;
    *sbar = sum / (float)n;
    return true;
}

void sw__feedback_shadow_update(float state[2], float sbar, float c, bool any_valid) {
    /* The drive is the occlusion relative to the current x (the notes'
       Recon takes it relative to 0.5, the same at the worked example's
       x = 0.5, but then a state at (1, 1) can never leave: from v = 1 no
       drive ≥ −0.5 turns the deviation negative). */
    float drive = any_valid ? c * (1.0f - sbar) - state[0] : 0.0f;
    if (any_valid && c > 999.0f) {
        state[0] = state[1] = sw__sat(drive);
        return;
    }
    /* The deviation is pushed by the drive first, with a gain that grows
       with the old deviation (momentum), and then advances x. */
    float v = 2.0f * state[1] - 1.0f;
    float gain = 1.0f + 2.0f * v * v;
    float v_new = gain * (v + drive);
    state[0] = sw__sat(state[0] + 0.5f * v_new);
    state[1] = sw__sat(0.5f + 0.5f * v_new);
}

void sw__feedback_reset(sw__feedback_state* state) {
    for (int i = 0; i < SW_FEEDBACK_COLUMNS; i++) {
        bool colour = i < SW_FEEDBACK_COLOUR_COLUMNS;
        state->column[i][0] = 0.0f;
        state->column[i][1] = colour ? 0.0f : 0.5f;
        state->column[i][2] = 0.0f;
        state->column[i][3] = colour ? 0.0f : 1.0f;
    }
}

void sw__feedback_read_colour(const sw__feedback_state* state, const float normal[3], float out[4]) {
    float sum[4] = {0.0f, 0.0f, 0.0f, 0.0f}, weight = 0.0f;
    for (int d = 0; d < SW_FEEDBACK_DIRECTIONS; d++) {
        float dir[3];
        sw__feedback_direction(d, dir);
        float w = normal[0] * dir[0] + normal[2] * dir[2];
        if (w <= 0.0f) continue;
        w *= w; /* squared: a side takes its own colour, not the front's */
        for (int i = 0; i < 4; i++) sum[i] += w * state->column[d][i];
        weight += w;
    }
    for (int i = 0; i < 4; i++) out[i] = weight > 0.0f ? sum[i] / weight : 0.0f;
}

float sw__feedback_read_shadow(const sw__feedback_state* state, const sw__feedback_body* body,
                               const float point[3]) {
    float h = (point[1] - body->feet[1]) / body->height;
    int ring = (int)floorf(h * (float)SW_FEEDBACK_SHADOW_RINGS);
    ring = ring < 0 ? 0 : ring >= SW_FEEDBACK_SHADOW_RINGS ? SW_FEEDBACK_SHADOW_RINGS - 1 : ring;
    float phi = atan2f(point[0] - body->feet[0], point[2] - body->feet[2]);
    if (phi < 0.0f) phi += 6.2831853f;
    int d = (int)floorf(phi / 6.2831853f * (float)SW_FEEDBACK_DIRECTIONS + 0.5f) % SW_FEEDBACK_DIRECTIONS;
    return state->column[SW_FEEDBACK_COLOUR_COLUMNS + ring * SW_FEEDBACK_DIRECTIONS + d][0];
}

void sw__feedback_apply(float colour[3], const float surroundings[4], float shadow) {
    const float luma = 0.2126f * surroundings[0] + 0.7152f * surroundings[1] + 0.0722f * surroundings[2];
    const float strength = (float)SW_FEEDBACK_TINT_PERCENT / 100.0f * surroundings[3];
    const float keep = 1.0f - (float)SW_FEEDBACK_SHADOW_PERCENT / 100.0f * shadow;
    for (int i = 0; i < 3; i++) {
        float tint = luma > 1e-4f ? surroundings[i] / luma : 1.0f;
        tint = tint > 4.0f ? 4.0f : tint;
        colour[i] *= keep * (1.0f - strength + strength * tint);
    }
}

bool sw__feedback_shape_of(const float lo[3], const float hi[3], const float joint[3], sw__feedback_shape* out) {
    out->feet_offset[0] = 0.5f * (lo[0] + hi[0]) - joint[0];
    out->feet_offset[1] = lo[1] - joint[1];
    out->feet_offset[2] = 0.5f * (lo[2] + hi[2]) - joint[2];
    out->height = hi[1] - lo[1];
    out->radius = 0.5f * fminf(hi[0] - lo[0], hi[2] - lo[2]);
    return out->height > 0.0f && out->radius > 0.0f; /* also false for NaN */
}

void sw__feedback_body_at(const sw__feedback_shape* shape, const float joint[3], const sw_mat34* placement,
                          sw__feedback_body* out) {
    float p[3];
    for (int k = 0; k < 3; k++) p[k] = joint[k] + shape->feet_offset[k];
    float up = 1.0f, across = 1.0f;
    if (placement) {
        const float(*m)[4] = placement->m;
        for (int k = 0; k < 3; k++) out->feet[k] = m[k][0] * p[0] + m[k][1] * p[1] + m[k][2] * p[2] + m[k][3];
        up = sqrtf(m[0][1] * m[0][1] + m[1][1] * m[1][1] + m[2][1] * m[2][1]);
        across = sqrtf(m[0][0] * m[0][0] + m[1][0] * m[1][0] + m[2][0] * m[2][0]);
    } else {
        for (int k = 0; k < 3; k++) out->feet[k] = p[k];
    }
    out->height = shape->height * up;
    out->radius = shape->radius * across;
}

static bool sw__skin_has_joint(const sw_model_skin* skin, uint32_t node) {
    for (size_t j = 0; j < skin->joint_count; j++)
        if (skin->joints[j] == node) return true;
    return false;
}

int32_t sw__feedback_joint(const sw_model* model) {
    if (!model || model->skin_count == 0 || model->skins[0].joint_count == 0) return -1;
    const sw_model_skin* skin = &model->skins[0];
    uint32_t joint = skin->joints[0];
    for (size_t i = 1; i < skin->joint_count; i++)
        if (skin->joints[i] < joint) joint = skin->joints[i]; /* parents come before their children */
    /* Down a chain of single joint children (Root → Hips), at most the
       node count deep. */
    for (size_t depth = 0; depth < model->node_count && joint < model->node_count; depth++) {
        const sw_model_node* node = &model->nodes[joint];
        uint32_t only = 0;
        size_t joint_children = 0;
        for (size_t c = 0; c < node->child_count; c++)
            if (sw__skin_has_joint(skin, node->children[c])) only = node->children[c], joint_children++;
        if (joint_children != 1) break;
        joint = only;
    }
    return joint < model->node_count ? (int32_t)joint : -1;
}
