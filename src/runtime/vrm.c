/* VRM expressions at run time (sinew/vrm.h): names, lookup and the
   expression rules (clamp, isBinary, overrides, binds) over an sw_vrm that
   sinew-import's sw_vrm_read made or the caller built. Writes only into
   the caller's arrays; thread-safe. */
#include "sinew/vrm.h"

#include "vrm_internal.h"

#include <math.h>
#include <string.h>

static const char* const sw__preset_names[SW_VRM_PRESET_COUNT] = {
    "happy", "angry",  "sad",       "relaxed",    "surprised", "aa",       "ih",        "ou",         "ee",
    "oh",    "blink", "blinkLeft", "blinkRight", "lookUp",    "lookDown", "lookLeft", "lookRight", "neutral"};

const char* sw_vrm_preset_name(sw_vrm_preset preset) {
    return (int)preset >= 0 && preset < SW_VRM_PRESET_COUNT ? sw__preset_names[preset] : NULL;
}

static const char* const sw__color_names[SW_VRM_COLOR_TYPE_COUNT] = {"color",     "emissionColor", "shadeColor",
                                                                     "matcapColor", "rimColor",    "outlineColor"};

const char* sw_vrm_color_type_name(sw_vrm_color_type type) {
    return (int)type >= 0 && type < SW_VRM_COLOR_TYPE_COUNT ? sw__color_names[type] : NULL;
}

int sw__vrm_kind(sw_vrm_preset p) {
    if (p >= SW_VRM_PRESET_AA && p <= SW_VRM_PRESET_OH) return 0;
    if (p >= SW_VRM_PRESET_BLINK && p <= SW_VRM_PRESET_BLINK_RIGHT) return 1;
    if (p >= SW_VRM_PRESET_LOOK_UP && p <= SW_VRM_PRESET_LOOK_RIGHT) return 2;
    return -1;
}

static sw_vrm_override sw__override_of(const sw_vrm_expression* e, int kind) {
    return kind == 0 ? e->override_mouth : kind == 1 ? e->override_blink : e->override_look_at;
}

int32_t sw_vrm_find_expression(const sw_vrm* vrm, const char* name) {
    if (!vrm || !name) return -1;
    for (size_t i = 0; i < vrm->expression_count; i++)
        if (strcmp(vrm->expressions[i].name, name) == 0) return (int32_t)i;
    return -1;
}

/* w ← the weights clamped to [0, 1] (NaN → 0), isBinary rounded, then
   scaled by the override factor of their kind. */
static void sw__final_weights(const sw_vrm* vrm, const float* weights, float* w) {
    size_t n = vrm->expression_count;
    for (size_t i = 0; i < n; i++) {
        float x = weights[i];
        x = x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f; /* NaN → 0 */
        if (vrm->expressions[i].is_binary) x = x > 0.5f ? 1.0f : 0.0f;
        w[i] = x;
    }
    /* every kind's factor from the weights before any override */
    float factor[3];
    for (int kind = 0; kind < 3; kind++) {
        bool blocked = false;
        float blend = 0.0f;
        for (size_t i = 0; i < n; i++) {
            const sw_vrm_expression* e = &vrm->expressions[i];
            if (w[i] <= 0.0f || sw__vrm_kind(e->preset) == kind) continue;
            sw_vrm_override o = sw__override_of(e, kind);
            if (o == SW_VRM_OVERRIDE_BLOCK) blocked = true;
            if (o == SW_VRM_OVERRIDE_BLEND) blend += w[i];
        }
        factor[kind] = blocked ? 0.0f : 1.0f - (blend < 1.0f ? blend : 1.0f);
    }
    for (size_t i = 0; i < n; i++) {
        int kind = sw__vrm_kind(vrm->expressions[i].preset);
        if (kind < 0) continue;
        w[i] *= factor[kind];
        if (vrm->expressions[i].is_binary && factor[kind] < 1.0f) w[i] = 0.0f;
    }
}

void sw_vrm_expression_weights(const sw_vrm* vrm, const float* weights, sw_vrm_expression_result* out) {
    SW_ASSERT(vrm && out && out->expression_weights);
    SW_ASSERT(weights || vrm->expression_count == 0);
    size_t n = vrm->expression_count;
    float* w = out->expression_weights;
    sw__final_weights(vrm, weights, w);
    if (out->morph_weights)
        for (size_t s = 0; s < vrm->morph_slot_count; s++) out->morph_weights[s] = 0.0f;
    if (out->colors)
        for (size_t s = 0; s < vrm->color_slot_count; s++) out->colors[s] = (sw_vrm_color_value){0};
    if (out->textures)
        for (size_t s = 0; s < vrm->texture_slot_count; s++)
            out->textures[s] = (sw_vrm_texture_value){.scale = {1.0f, 1.0f}};
    for (size_t i = 0; i < n; i++) {
        const sw_vrm_expression* e = &vrm->expressions[i];
        float x = w[i];
        if (x <= 0.0f) continue;
        if (out->morph_weights)
            for (size_t k = 0; k < e->morph_bind_count; k++)
                out->morph_weights[e->morph_binds[k].slot] += e->morph_binds[k].weight * x;
        if (out->colors)
            for (size_t k = 0; k < e->color_bind_count; k++) {
                sw_vrm_color_value* c = &out->colors[e->color_binds[k].slot];
                c->weight += x;
                for (int j = 0; j < 4; j++) c->sum[j] += x * e->color_binds[k].target[j];
            }
        if (out->textures)
            for (size_t k = 0; k < e->texture_bind_count; k++) {
                const sw_vrm_texture_bind* b = &e->texture_binds[k];
                sw_vrm_texture_value* t = &out->textures[b->slot];
                for (int j = 0; j < 2; j++) {
                    t->scale[j] += (b->scale[j] - 1.0f) * x;
                    t->offset[j] += b->offset[j] * x;
                }
            }
    }
}

void sw_vrm_color_apply(const sw_vrm_color_value* value, const float base[4], float out[4]) {
    for (int j = 0; j < 4; j++) out[j] = base[j] * (1.0f - value->weight) + value->sum[j];
}

/* ---- look-at ------------------------------------------------------------- */

/* The rotation of a world matrix, its columns' scale removed (three.js's
   Matrix4.decompose, which getWorldQuaternionLite uses). */
static sw_quat sw__world_rotation(const sw_mat34* m) { return sw_quat_from_scaled_mat34(m); }

/* The rest world rotation of `node` (−1: identity), from the model's rest
   locals up the parent chain (depth steps; the chain is the file's). */
static sw_quat sw__rest_world_rotation(const sw_model* model, int32_t node) {
    sw_mat34 world = sw_mat34_identity();
    for (int32_t n = node; n >= 0; n = model->nodes[n].parent) {
        sw_mat34 local = sw_transform_to_mat34(&model->rest_local[n]);
        world = sw_mat34_mul(&local, &world);
    }
    return sw__world_rotation(&world);
}

/* three-vrm's sanitizeAngle: into [−π, π], a half turn rounded as Math.round. */
static double sw__sanitize_angle(double a) {
    const double two_pi = 6.283185307179586;
    return a - two_pi * floor(a / two_pi + 0.5);
}

bool sw_vrm_look_at_angles(const sw_vrm* vrm, const sw_model* model, const sw_pose* pose, const float target[3],
                           float* out_yaw, float* out_pitch) {
    SW_ASSERT(vrm && model && pose && target && out_yaw && out_pitch);
    *out_yaw = 0.0f, *out_pitch = 0.0f;
    int32_t head = vrm->humanoid.node[SW_HUMANOID_HEAD];
    if (head < 0 || (size_t)head >= model->node_count) return false;
    const sw_mat34* world = &pose->world[head];
    const float* o = vrm->look_at.offset_from_head_bone;
    sw_vec3 origin = sw_mat34_apply_point(world, (sw_vec3){o[0], o[1], o[2]});
    sw_quat to_rest = sw_quat_mul(sw__rest_world_rotation(model, head), sw_quat_conjugate(sw__world_rotation(world)));
    sw_vec3 d = sw_quat_rotate(to_rest, (sw_vec3){target[0] - origin.x, target[1] - origin.y, target[2] - origin.z});
    double x = d.x, y = d.y, z = d.z;
    double len = sqrt(x * x + y * y + z * z);
    if (!(len > 0.0)) return true; /* the point is the origin: straight ahead */
    x /= len, y /= len, z /= len;
    /* azimuth atan2(−z, x) and altitude against faceFront +Z (azimuth −90°, altitude 0) */
    const double rad_to_deg = 57.29577951308232;
    double yaw = sw__sanitize_angle(atan2(-z, x) - atan2(-1.0, 0.0));
    double pitch = sw__sanitize_angle(0.0 - atan2(y, sqrt(x * x + z * z)));
    *out_yaw = (float)(yaw * rad_to_deg);
    *out_pitch = (float)(pitch * rad_to_deg);
    return true;
}

float sw_vrm_range_map_apply(const sw_vrm_range_map* map, float degrees) {
    float input = map->input_max_value < 0.01f ? 0.01f : map->input_max_value;
    float t = degrees / input;
    t = t > 0.0f ? (t < 1.0f ? t : 1.0f) : 0.0f; /* NaN → 0 */
    return map->output_scale * t;
}

/* Euler YXZ (degrees; z = 0) as three.js builds it: Ry · Rx. */
static sw_quat sw__euler_yx(float x_degrees, float y_degrees) {
    const float deg_to_rad = 0.017453292519943295f;
    sw_quat qx = sw_quat_from_axis_angle((sw_vec3){1.0f, 0.0f, 0.0f}, x_degrees * deg_to_rad);
    sw_quat qy = sw_quat_from_axis_angle((sw_vec3){0.0f, 1.0f, 0.0f}, y_degrees * deg_to_rad);
    return sw_quat_mul(qy, qx);
}

void sw_vrm_look_at_apply_bones(const sw_vrm* vrm, const sw_model* model, float yaw, float pitch,
                                sw_transform* local) {
    SW_ASSERT(vrm && model && local);
    const sw_vrm_look_at* l = &vrm->look_at;
    /* three-vrm: an upward gaze (pitch < 0) through vertical_down, a downward one through vertical_up */
    float x = pitch < 0.0f ? -sw_vrm_range_map_apply(&l->vertical_down, -pitch)
                           : sw_vrm_range_map_apply(&l->vertical_up, pitch);
    for (int side = 0; side < 2; side++) {
        int32_t eye = vrm->humanoid.node[side == 0 ? SW_HUMANOID_LEFT_EYE : SW_HUMANOID_RIGHT_EYE];
        if (eye < 0 || (size_t)eye >= model->node_count) continue;
        /* the left eye turns outwards to +yaw, the right eye inwards */
        const sw_vrm_range_map* towards_left = side == 0 ? &l->horizontal_outer : &l->horizontal_inner;
        const sw_vrm_range_map* towards_right = side == 0 ? &l->horizontal_inner : &l->horizontal_outer;
        float y = yaw < 0.0f ? -sw_vrm_range_map_apply(towards_right, -yaw) : sw_vrm_range_map_apply(towards_left, yaw);
        sw_quat e = sw__euler_yx(x, y);
        sw_quat p = sw__rest_world_rotation(model, model->nodes[eye].parent);
        sw_quat q = sw_quat_mul(sw_quat_mul(sw_quat_conjugate(p), e), p);
        local[eye].rotation = sw_quat_normalize(sw_quat_mul(q, model->rest_local[eye].rotation));
    }
}

void sw_vrm_look_at_apply_expressions(const sw_vrm* vrm, float yaw, float pitch, float* weights) {
    SW_ASSERT(vrm && weights);
    const sw_vrm_look_at* l = &vrm->look_at;
    float up = 0.0f, down = 0.0f, left = 0.0f, right = 0.0f;
    if (pitch < 0.0f) up = sw_vrm_range_map_apply(&l->vertical_up, -pitch);
    else down = sw_vrm_range_map_apply(&l->vertical_down, pitch);
    if (yaw < 0.0f) right = sw_vrm_range_map_apply(&l->horizontal_outer, -yaw);
    else left = sw_vrm_range_map_apply(&l->horizontal_outer, yaw);
    const float values[4] = {up, down, left, right};
    const sw_vrm_preset presets[4] = {SW_VRM_PRESET_LOOK_UP, SW_VRM_PRESET_LOOK_DOWN, SW_VRM_PRESET_LOOK_LEFT,
                                      SW_VRM_PRESET_LOOK_RIGHT};
    for (int k = 0; k < 4; k++)
        if (vrm->preset[presets[k]] >= 0) weights[vrm->preset[presets[k]]] = values[k];
}
