/* VRM expressions at run time (sinew/vrm.h): names, lookup and the
   expression rules (clamp, isBinary, overrides, binds) over an sw_vrm that
   sinew-import's sw_vrm_read made or the caller built. Writes only into
   the caller's arrays; thread-safe. */
#include "sinew/vrm.h"

#include "vrm_internal.h"

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
