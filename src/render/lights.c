/* The lights the lighting pass and the transparent pass's forward path
   share (shaders/lighting_common.glsl): the sun's uniforms, and the
   punctual lights of sw_renderer_set_lights in a uniform block, with
   their C reference (sw_render_light_incident); the C reference of the
   transmission blend (sw_render_transmit, gbuffer.frag). */
#include "renderer_internal.h"

#include <string.h>

#include "../base/base_internal.h"

_Static_assert(SW_RENDER_LIGHT_MAX == SW_LIGHT_MAX, "SW_RENDER_LIGHT_MAX (sinew/render.h) must be SW_LIGHT_MAX");
_Static_assert((int)SW_RENDER_LIGHT_DIRECTIONAL == SW_LIGHT_TYPE_DIRECTIONAL &&
                   (int)SW_RENDER_LIGHT_POINT == SW_LIGHT_TYPE_POINT && (int)SW_RENDER_LIGHT_SPOT == SW_LIGHT_TYPE_SPOT,
               "sw_render_light_type must be the SW_LIGHT_TYPE_* of render_interface.h");
_Static_assert(SW_LIGHTING_UNIT_SHADOW >= SW_MATERIAL_SLOT_COUNT,
               "the G-buffer program binds the shadow map beside the material slots");

/* The block as lighting_common.glsl declares it (std140). */
typedef struct sw__lights_block {
    int32_t count[4];
    float lights[SW_LIGHT_MAX * SW_LIGHT_VEC4S][4];
} sw__lights_block;

static float sw__dot3(const float a[3], const float b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

static void sw__unit3(const float v[3], float out[3]) {
    const float length = sqrtf(sw__dot3(v, v));
    for (int k = 0; k < 3; k++) out[k] = length > 0.0f ? v[k] / length : 0.0f;
}

/* glTF's spot cone as a scale and an offset of cos θ (KHR_lights_punctual). */
static void sw__cone(const sw_render_light* l, float* scale, float* offset) {
    const float cos_outer = cosf(l->outer_cone), cos_inner = cosf(l->inner_cone);
    *scale = 1.0f / fmaxf(0.001f, cos_inner - cos_outer);
    *offset = -cos_outer * *scale;
}

void sw_render_light_incident(const sw_render_light* l, const float p[3], float out_direction[3], float out_light[3]) {
    float direction[3];
    sw__unit3(l->direction, direction);
    float attenuation = 1.0f;
    if (l->type == SW_RENDER_LIGHT_DIRECTIONAL) {
        for (int k = 0; k < 3; k++) out_direction[k] = -direction[k];
    } else {
        float to_light[3];
        for (int k = 0; k < 3; k++) to_light[k] = l->position[k] - p[k];
        const float d2 = fmaxf(sw__dot3(to_light, to_light), 1e-8f);
        for (int k = 0; k < 3; k++) out_direction[k] = to_light[k] / sqrtf(d2);
        attenuation = 1.0f / d2;
        if (l->range > 0.0f) { /* max(min(1 − (d/range)⁴, 1), 0) */
            const float q = d2 / (l->range * l->range);
            attenuation *= fminf(fmaxf(1.0f - q * q, 0.0f), 1.0f);
        }
        if (l->type == SW_RENDER_LIGHT_SPOT) {
            float scale, offset;
            sw__cone(l, &scale, &offset);
            const float c = -sw__dot3(direction, out_direction) * scale + offset;
            const float cone = fminf(fmaxf(c, 0.0f), 1.0f);
            attenuation *= cone * cone;
        }
    }
    for (int k = 0; k < 3; k++) out_light[k] = l->color[k] * l->intensity * attenuation;
}

_Static_assert((int)SW_MODEL_LIGHT_DIRECTIONAL == (int)SW_RENDER_LIGHT_DIRECTIONAL &&
                   (int)SW_MODEL_LIGHT_POINT == (int)SW_RENDER_LIGHT_POINT &&
                   (int)SW_MODEL_LIGHT_SPOT == (int)SW_RENDER_LIGHT_SPOT,
               "sw_model_light_type and sw_render_light_type must agree");

void sw_render_light_from_model(const sw_model_light* light, const sw_mat34* world, sw_render_light* out) {
    *out = (sw_render_light){.type = (sw_render_light_type)light->type, .intensity = light->intensity,
                             .range = light->range, .inner_cone = light->inner_cone_angle,
                             .outer_cone = light->outer_cone_angle};
    float direction[3];
    for (int k = 0; k < 3; k++) {
        out->position[k] = world->m[k][3];
        direction[k] = -world->m[k][2];
        out->color[k] = light->color[k];
    }
    sw__unit3(direction, out->direction);
}

static bool sw__finite3(const float v[3]) { return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]); }

static sw_result sw__check_light(const sw_render_light* l, size_t i, sw_diag* diag) {
    if (l->type != SW_RENDER_LIGHT_DIRECTIONAL && l->type != SW_RENDER_LIGHT_POINT && l->type != SW_RENDER_LIGHT_SPOT)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, (int64_t)i, "light %zu: unknown type %d", i, (int)l->type);
    if (!sw__finite3(l->position) || !sw__finite3(l->direction) || !sw__finite3(l->color) || !isfinite(l->intensity) ||
        !isfinite(l->range) || !isfinite(l->inner_cone) || !isfinite(l->outer_cone))
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, (int64_t)i, "light %zu: a value is not finite", i);
    if (l->intensity < 0.0f || l->range < 0.0f || l->color[0] < 0.0f || l->color[1] < 0.0f || l->color[2] < 0.0f)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, (int64_t)i, "light %zu: negative intensity, range or colour", i);
    if (l->type != SW_RENDER_LIGHT_POINT && sw__dot3(l->direction, l->direction) <= 0.0f)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, (int64_t)i, "light %zu: zero direction", i);
    if (l->type == SW_RENDER_LIGHT_SPOT &&
        !(l->inner_cone >= 0.0f && l->inner_cone < l->outer_cone && l->outer_cone <= 0.5f * SW__PI + 1e-6f))
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, (int64_t)i,
                           "light %zu: spot cones must hold 0 <= inner < outer <= pi/2 (inner %g, outer %g)", i,
                           (double)l->inner_cone, (double)l->outer_cone);
    return SW_OK;
}

sw_result sw_renderer_set_lights(sw_renderer* r, const sw_render_light* lights, size_t count, sw_diag* diag) {
    if (!r || (count && !lights)) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "NULL renderer or lights");
    for (size_t i = 0; i < count; i++) {
        const sw_result res = sw__check_light(&lights[i], i, diag);
        if (res != SW_OK) return res;
    }
    if (count > SW_LIGHT_MAX)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, (int64_t)count,
                           "%zu lights given: the renderer draws at most %d (SW_RENDER_LIGHT_MAX)", count, SW_LIGHT_MAX);
    sw__lights_block block;
    memset(&block, 0, sizeof block);
    block.count[0] = (int32_t)count;
    for (size_t i = 0; i < count; i++) {
        const sw_render_light* l = &lights[i];
        float(*v)[4] = &block.lights[i * SW_LIGHT_VEC4S];
        float direction[3], scale = 0.0f, offset = 0.0f;
        sw__unit3(l->direction, direction);
        if (l->type == SW_RENDER_LIGHT_SPOT) sw__cone(l, &scale, &offset);
        memcpy(v[0], l->position, sizeof l->position);
        v[0][3] = (float)l->type;
        memcpy(v[1], direction, sizeof direction);
        v[1][3] = l->range;
        for (int k = 0; k < 3; k++) v[2][k] = l->color[k] * l->intensity;
        v[3][0] = scale, v[3][1] = offset;
    }
    if (!r->lights_block) glGenBuffers(1, &r->lights_block);
    glBindBuffer(GL_UNIFORM_BUFFER, r->lights_block);
    glBufferData(GL_UNIFORM_BUFFER, sizeof block, &block, GL_STATIC_DRAW);
    glBindBuffer(GL_UNIFORM_BUFFER, 0);
    r->light_count = count;
    return sw_gl_check("setting the lights", diag);
}

void sw_render_transmit(const float surface[3], float alpha, float transmission, const float base[3], float thickness,
                        float attenuation_distance, const float attenuation_color[3], const float behind[3],
                        float out[3]) {
    for (int k = 0; k < 3; k++) {
        float through = base[k];
        if (attenuation_distance > 0.0f) through *= powf(fmaxf(attenuation_color[k], 1e-6f), thickness / attenuation_distance);
        out[k] = alpha * (1.0f - transmission) * surface[k] + ((1.0f - alpha) + alpha * transmission * through) * behind[k];
    }
}

void sw__shade_uniforms(sw_renderer* r, const sw_render_frame* f, sw_vec3 light_direction, const sw_mat4* light_vp) {
    if (!r->lights_block) (void)sw_renderer_set_lights(r, NULL, 0, NULL); /* the empty block */
    (void)light_vp; /* the cascades' (shadow_cache.h) */
    sw__shadow_cascade_uniforms(r->shadow_cache, SW_SHADE_LOC_CASCADE_COUNT, SW_SHADE_LOC_CASCADE_VIEW_PROJECTION,
                                SW_SHADE_LOC_CASCADE_RECT);
    glUniform3f(SW_SHADE_LOC_LIGHT_DIRECTION, light_direction.x, light_direction.y, light_direction.z);
    float light[3], ambient[3]; /* the time of day's (sky_pass.c), else 1 */
    sw__frame_light_scale(f, light, ambient);
    glUniform3f(SW_SHADE_LOC_LIGHT_COLOR, 2.6f * light[0], 2.5f * light[1], 2.35f * light[2]);
    glUniform3f(SW_SHADE_LOC_SKY_COLOR, 0.55f * ambient[0], 0.62f * ambient[1], 0.75f * ambient[2]);
    glUniform3f(SW_SHADE_LOC_GROUND_COLOR, 0.22f * ambient[0], 0.2f * ambient[1], 0.18f * ambient[2]);
    glUniform3fv(SW_SHADE_LOC_EYE, 1, f->camera.current.eye);
    glUniform1f(SW_SHADE_LOC_SHADOW_TEXEL, 1.0f / (float)r->shadow_size);
    glBindBufferBase(GL_UNIFORM_BUFFER, SW_LIGHTS_BLOCK, r->lights_block);
    glActiveTexture(GL_TEXTURE0 + SW_LIGHTING_UNIT_SHADOW);
    glBindTexture(GL_TEXTURE_2D, r->t_shadow);
    sw__probes_bind_shading(r); /* the probes' masks and cubes (probes.c) */
}
