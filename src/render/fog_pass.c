/* The volumetric fog pass (docs/fog.md): after the sky, before the
   transparent draws. Three compute dispatches over the 160×68 froxel
   columns (shaders/fog.comp): each froxel's source (medium × light,
   blended with its reprojected history), the 27-neighbour repair where
   the history was invalid, the near→far integration into (in-scatter,
   transmittance); then one full-screen draw (shaders/fog.frag) reads
   it at each pixel's depth and blends it onto the HDR target:
   colour·T + S. The numbers are fog.c's; this file makes the GL objects
   and draws. */
#include "renderer_internal.h"

#include "../base/base_internal.h"
#include "fog.h"
#include "post_math.h"

_Static_assert(SW_FOG_WIDTH == SW__FOG_WIDTH && SW_FOG_HEIGHT == SW__FOG_HEIGHT && SW_FOG_SLICES == SW__FOG_SLICES &&
                   SW_FOG_LINEAR_SLICES == SW__FOG_LINEAR_SLICES,
               "the shaders' volume is fog.h's");

struct sw__fog_state {
    GLuint volume_program, composite_program, fbo;
    GLuint volume; /* RGBA16F, SW_FOG_WIDTH × SW_FOG_HEIGHT × SW_FOG_SLICES */
    /* The per-froxel sources (scatter, extinction) of this frame and the
       previous, swapped each frame: `current` is written, the other read. */
    GLuint sources[2];
    GLuint raw, invalid; /* before the repair; 1 where the history was invalid (R8) */
    int current;
    bool have_history; /* the previous frame drew fog: sources[1 − current] holds it */
};

/* A froxel volume, RGBA16F, linear, clamped. */
static GLuint sw__fog_volume_texture(void) {
    GLuint t;
    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_3D, t);
    glTexStorage3D(GL_TEXTURE_3D, 1, GL_RGBA16F, SW_FOG_WIDTH, SW_FOG_HEIGHT, SW_FOG_SLICES);
    glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_WRAP_R, GL_CLAMP_TO_EDGE);
    return t;
}

sw_result sw__fog_pass_create(GLuint hdr, sw__fog_state** out, sw_diag* diag) {
    *out = NULL;
    sw__fog_state* s = (sw__fog_state*)sw__calloc(1, sizeof *s);
    if (!s) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for the fog");
    sw_result res = sw__compute_program(sw_shader_fog_comp, "fog volume", &s->volume_program, diag);
    if (res == SW_OK) res = sw__program(sw_shader_fullscreen_vert, sw_shader_fog_frag, "fog", &s->composite_program, diag);
    s->volume = sw__fog_volume_texture();
    s->sources[0] = sw__fog_volume_texture();
    s->sources[1] = sw__fog_volume_texture();
    s->raw = sw__fog_volume_texture();
    glGenTextures(1, &s->invalid);
    glBindTexture(GL_TEXTURE_3D, s->invalid);
    glTexStorage3D(GL_TEXTURE_3D, 1, GL_R8, SW_FOG_WIDTH, SW_FOG_HEIGHT, SW_FOG_SLICES);
    glGenFramebuffers(1, &s->fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, s->fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0 + SW_OUT_COLOR, GL_TEXTURE_2D, hdr, 0);
    const GLenum buffer = GL_COLOR_ATTACHMENT0 + SW_OUT_COLOR;
    glDrawBuffers(1, &buffer);
    if (res == SW_OK) res = sw__framebuffer_complete("fog", diag);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    if (res != SW_OK) {
        sw__fog_pass_destroy(s);
        return res;
    }
    *out = s;
    return SW_OK;
}

void sw__fog_pass_destroy(sw__fog_state* s) {
    if (!s) return;
    glDeleteProgram(s->volume_program);
    glDeleteProgram(s->composite_program);
    glDeleteFramebuffers(1, &s->fbo);
    glDeleteTextures(1, &s->volume);
    glDeleteTextures(2, s->sources);
    glDeleteTextures(1, &s->raw);
    glDeleteTextures(1, &s->invalid);
    sw__free(s);
}

/* The camera's unit forward axis. */
static void sw__fog_forward(const sw_camera* c, float out[3]) {
    float len2 = 0.0f;
    for (int i = 0; i < 3; i++) {
        out[i] = c->target[i] - c->eye[i];
        len2 += out[i] * out[i];
    }
    const float inv = len2 > 0.0f ? 1.0f / sqrtf(len2) : 0.0f;
    for (int i = 0; i < 3; i++) out[i] *= inv;
}

/* The camera's uniforms (the volume's program reads the eye from
   lighting_common.glsl's u_eye instead: `eye` false). */
static void sw__fog_camera_uniforms(const sw_renderer* r, const sw_camera* c, bool eye) {
    const sw_mat4 inverse_vp = sw__inverse_view_projection(c, (float)r->width / (float)r->height, r->reverse_z);
    float forward[3];
    sw__fog_forward(c, forward);
    glUniformMatrix4fv(SW_FOG_LOC_INVERSE_VIEW_PROJECTION, 1, GL_FALSE, inverse_vp.m);
    if (eye) glUniform3fv(SW_FOG_LOC_EYE, 1, c->eye);
    glUniform3fv(SW_FOG_LOC_FORWARD, 1, forward);
}

/* The frame's medium (sw__fog_extinction's terms); false: no fog (no
   term above 0; a negative or NaN density counts as 0). */
static bool sw__fog_frame_medium(const sw_render_frame* f, sw__fog_medium* m) {
    const sw_render_frame_shading* s = &f->shading;
    *m = (sw__fog_medium){.density = s->fog_density > 0.0f ? s->fog_density : 0.0f,
                          .height_density = s->fog_height_density > 0.0f ? s->fog_height_density : 0.0f,
                          .height_base = isfinite(s->fog_height_base) ? s->fog_height_base : 0.0f,
                          .height_falloff = s->fog_height_falloff > 0.0f ? s->fog_height_falloff : 0.0f};
    return m->density > 0.0f || m->height_density > 0.0f;
}

void sw__fog_pass(sw_renderer* r, const sw_render_frame* f, int x0, int x1, sw_vec3 light_direction,
                  const sw_mat4* light_vp) {
    sw__fog_medium medium;
    sw__fog_state* s = r->fog;
    if (!sw__fog_frame_medium(f, &medium)) {
        s->have_history = false;
        return;
    }
    const sw_camera* camera = &f->camera.current;
    /* The light the medium scatters: its colour × the light's scale of
       the time of day (1 without one), the phase function folded in: a
       thick white medium glows at the light's level. The ambient factor is
       the same as the light's by day (sw__sky_light_scale); not added. */
    const float* c = f->shading.fog_colour;
    const bool white = c[0] == 0.0f && c[1] == 0.0f && c[2] == 0.0f;
    float light[3], ambient[3], scattered[3];
    sw__frame_light_scale(f, light, ambient);
    for (int i = 0; i < 3; i++) scattered[i] = (white ? 1.0f : c[i]) * light[i];

    /* The volume, once per frame (both halves of a split frame share it). */
    if (x0 == 0) {
        glUseProgram(s->volume_program);
        sw__fog_camera_uniforms(r, camera, false);
        sw__shade_uniforms(r, f, light_direction, light_vp); /* the shadow cascades and u_eye */
        glUniform4f(SW_FOG_LOC_MEDIUM, medium.density, medium.height_density, medium.height_base, medium.height_falloff);
        glUniform3fv(SW_FOG_LOC_LIGHT, 1, scattered);
        glBindImageTexture(SW_FOG_IMAGE_VOLUME, s->volume, 0, GL_TRUE, 0, GL_WRITE_ONLY, GL_RGBA16F);
        /* The history: last frame's sources, unless this is a first frame. */
        s->current = 1 - s->current;
        const bool history = s->have_history && !f->first_frame;
        const sw_camera* previous = &f->camera.previous;
        sw_mat4 previous_vp;
        sw_camera_view_projection(previous, (float)r->width / (float)r->height, previous_vp.m);
        float previous_forward[3];
        sw__fog_forward(previous, previous_forward);
        glUniformMatrix4fv(SW_FOG_LOC_PREVIOUS_VIEW_PROJECTION, 1, GL_FALSE, previous_vp.m);
        glUniform3fv(SW_FOG_LOC_PREVIOUS_EYE, 1, previous->eye);
        glUniform3fv(SW_FOG_LOC_PREVIOUS_FORWARD, 1, previous_forward);
        glUniform1i(SW_FOG_LOC_HISTORY, history ? 1 : 0);
        /* Without history the slices' midpoints; with it a different point
           of each slice every frame (base-2 radical inverse of the frame),
           which the history averages. */
        glUniform1f(SW_FOG_LOC_JITTER, history ? sw__radical_inverse(f->post.frame_index % 16u + 1u, 2) : 0.5f);
        glActiveTexture(GL_TEXTURE0 + SW_FOG_UNIT_HISTORY);
        glBindTexture(GL_TEXTURE_3D, s->sources[1 - s->current]);
        glBindImageTexture(SW_FOG_IMAGE_RAW, s->raw, 0, GL_TRUE, 0, GL_READ_WRITE, GL_RGBA16F);
        glBindImageTexture(SW_FOG_IMAGE_INVALID, s->invalid, 0, GL_TRUE, 0, GL_READ_WRITE, GL_R8);
        glBindImageTexture(SW_FOG_IMAGE_SOURCE, s->sources[s->current], 0, GL_TRUE, 0, GL_READ_WRITE, GL_RGBA16F);
        /* Sources, the repair of invalid history (only with history), the
           integration: each stage reads what the one before wrote. */
        const int stages[3] = {SW_FOG_STAGE_SOURCE, SW_FOG_STAGE_REPAIR, SW_FOG_STAGE_INTEGRATE};
        for (int k = 0; k < 3; k++) {
            glUniform1i(SW_FOG_LOC_STAGE, stages[k]);
            glDispatchCompute((SW_FOG_WIDTH + SW_FOG_GROUP - 1) / SW_FOG_GROUP,
                              (SW_FOG_HEIGHT + SW_FOG_GROUP - 1) / SW_FOG_GROUP, 1);
            glMemoryBarrier(GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
        }
        glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT);
        s->have_history = true;
    }

    /* The composite: colour·T + S, the target's alpha kept. */
    glBindFramebuffer(GL_FRAMEBUFFER, s->fbo);
    glViewport(0, 0, r->width, r->height);
    glEnable(GL_SCISSOR_TEST);
    glScissor(x0, 0, x1 - x0, r->height);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_CULL_FACE);
    glUseProgram(s->composite_program);
    sw__fog_camera_uniforms(r, camera, true);
    glActiveTexture(GL_TEXTURE0 + SW_FOG_UNIT_DEPTH);
    glBindTexture(GL_TEXTURE_2D, r->t_depth);
    glActiveTexture(GL_TEXTURE0 + SW_FOG_UNIT_VOLUME);
    glBindTexture(GL_TEXTURE_3D, s->volume);
    glEnable(GL_BLEND);
    glBlendFuncSeparate(GL_ONE, GL_SRC_ALPHA, GL_ZERO, GL_ONE);
    glBindVertexArray(r->empty_vao);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glDisable(GL_BLEND);
    glDisable(GL_SCISSOR_TEST);
    glBindTexture(GL_TEXTURE_3D, 0);
}

void sw__fog_air_uniforms(sw_renderer* r, const sw_render_frame* f) {
    sw__fog_medium medium;
    const bool on = sw__fog_frame_medium(f, &medium);
    glUniform1i(SW_SHADE_LOC_FOG, on ? 1 : 0);
    if (!on) return;
    const sw_camera* camera = &f->camera.current;
    float forward[3];
    sw__fog_forward(camera, forward);
    sw_mat4 vp;
    sw_camera_view_projection(camera, (float)r->width / (float)r->height, vp.m);
    glUniform3fv(SW_SHADE_LOC_FOG_FORWARD, 1, forward);
    glUniformMatrix4fv(SW_SHADE_LOC_FOG_VIEW_PROJECTION, 1, GL_FALSE, vp.m);
    glActiveTexture(GL_TEXTURE0 + SW_SHADE_UNIT_FOG);
    glBindTexture(GL_TEXTURE_3D, r->fog->volume);
}
