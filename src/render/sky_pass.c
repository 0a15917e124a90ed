/* The sky pass (docs/sky.md): after the deferred lighting, before the
   transparent draws, on background pixels only, three full-screen draws of
   shaders/sky.frag into the HDR target with the frame analysis's blends.
   The numbers are sky.c's; this file makes the GL objects and draws. */
#include "renderer_internal.h"

#include <string.h>

#include "../base/base_internal.h"
#include "sky.h"

struct sw__sky_state {
    GLuint program, fbo;
    GLuint gradient, noise, palette;
    /* The hours the gradient holds (NaN: the default look); valid once drawn. */
    bool have_gradient;
    float gradient_hours;
    sw__sky_tables* tables; /* the gradient uploaded from here; the rest at creation */
};

sw_result sw__sky_pass_create(GLuint hdr, GLuint motion, sw__sky_state** out, sw_diag* diag) {
    *out = NULL;
    sw__sky_state* s = (sw__sky_state*)sw__calloc(1, sizeof *s);
    if (!s) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for the sky");
    s->tables = (sw__sky_tables*)sw__calloc(1, sizeof *s->tables);
    if (!s->tables) {
        sw__free(s);
        return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for the sky's tables");
    }
    sw_result res = sw__program(sw_shader_fullscreen_vert, sw_shader_sky_frag, "sky", &s->program, diag);
    sw__sky_noise(s->tables->noise);
    sw__sky_star_palette(s->tables->palette);
    s->gradient = sw__texture2d(GL_RGBA32F, SW_SKY_GRADIENT_WIDTH, 2, GL_LINEAR);
    s->noise = sw__texture2d(GL_R8, SW_SKY_NOISE_SIZE, SW_SKY_NOISE_SIZE, GL_NEAREST);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, SW_SKY_NOISE_SIZE, SW_SKY_NOISE_SIZE, GL_RED, GL_UNSIGNED_BYTE,
                    s->tables->noise);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    s->palette = sw__texture2d(GL_RGBA32F, SW_SKY_PALETTE_SIZE, 1, GL_NEAREST);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, SW_SKY_PALETTE_SIZE, 1, GL_RGBA, GL_FLOAT, s->tables->palette);
    /* Colour and motion: layer 1 writes both, layers 2 and 3 the colour only. */
    glGenFramebuffers(1, &s->fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, s->fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0 + SW_OUT_COLOR, GL_TEXTURE_2D, hdr, 0);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0 + SW_SKY_OUT_MOTION, GL_TEXTURE_2D, motion, 0);
    const GLenum buffers[2] = {GL_COLOR_ATTACHMENT0 + SW_OUT_COLOR, GL_COLOR_ATTACHMENT0 + SW_SKY_OUT_MOTION};
    glDrawBuffers(2, buffers);
    if (res == SW_OK) res = sw__framebuffer_complete("sky", diag);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    if (res != SW_OK) {
        sw__sky_pass_destroy(s);
        return res;
    }
    *out = s;
    return SW_OK;
}

void sw__sky_pass_destroy(sw__sky_state* s) {
    if (!s) return;
    glDeleteProgram(s->program);
    glDeleteFramebuffers(1, &s->fbo);
    const GLuint textures[3] = {s->gradient, s->noise, s->palette};
    glDeleteTextures(3, textures);
    sw__free(s->tables);
    sw__free(s);
}

/* The frame's hours, NaN when it gives none. */
static float sw__frame_hours(const sw_render_frame* f) {
    return f->shading.time_of_day_given && f->shading.time_of_day >= 0.0f ? f->shading.time_of_day : NAN;
}

void sw__frame_light_towards(const sw_render_frame* f, float out[3]) {
    memcpy(out, f->shading.light_direction, sizeof f->shading.light_direction);
    const float* l = f->shading.light_direction;
    const float hours = sw__frame_hours(f);
    if (l[0] * l[0] + l[1] * l[1] + l[2] * l[2] <= 1e-12f && !isnan(hours)) sw__sky_light_direction(hours, out);
}

void sw__frame_light_scale(const sw_render_frame* f, float light[3], float ambient[3]) {
    sw__sky_light_scale(sw__frame_hours(f), light, ambient);
}

static bool sw__same_camera(const sw_camera* a, const sw_camera* b) { return memcmp(a, b, sizeof *a) == 0; }

void sw__sky_pass(sw_renderer* r, const sw_render_frame* f, int x0, int x1) {
    sw__sky_state* s = r->sky;
    const float hours = sw__frame_hours(f);
    sw__sky_params p;
    sw__sky_params_at(hours, &p);
    glActiveTexture(GL_TEXTURE0 + SW_SKY_UNIT_GRADIENT);
    glBindTexture(GL_TEXTURE_2D, s->gradient);
    const bool same = s->have_gradient && (isnan(hours) ? isnan(s->gradient_hours) : hours == s->gradient_hours);
    if (!same) { /* 32 KiB, only when the time changes */
        sw__sky_gradient(&p, s->tables->gradient);
        glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, SW_SKY_GRADIENT_WIDTH, 2, GL_RGBA, GL_FLOAT, s->tables->gradient);
        s->have_gradient = true;
        s->gradient_hours = hours;
    }
    const GLuint inputs[3] = {r->t_class, s->noise, s->palette};
    const GLenum units[3] = {SW_SKY_UNIT_CLASS, SW_SKY_UNIT_NOISE, SW_SKY_UNIT_STARS};
    for (int i = 0; i < 3; i++) {
        glActiveTexture(GL_TEXTURE0 + units[i]);
        glBindTexture(GL_TEXTURE_2D, inputs[i]);
    }
    glBindFramebuffer(GL_FRAMEBUFFER, s->fbo);
    glViewport(0, 0, r->width, r->height);
    glEnable(GL_SCISSOR_TEST);
    glScissor(x0, 0, x1 - x0, r->height);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_CULL_FACE);
    glUseProgram(s->program);
    const float aspect = (float)r->width / (float)r->height;
    /* The sky reads no depth: directions through the ordinary convention. */
    const sw_mat4 inverse_vp = sw__inverse_view_projection(&f->camera.current, aspect, false);
    sw_mat4 previous_vp;
    sw_camera_view_projection(&f->camera.previous, aspect, previous_vp.m);
    /* The jitter the scene was drawn with: its NDC shift, read off an identity. */
    sw_mat4 jitter = sw_mat4_identity(), unused = sw_mat4_identity();
    sw__post_chain_jitter(r->post, f, jitter.m, unused.m);
    glUniformMatrix4fv(SW_SKY_LOC_INVERSE_VIEW_PROJECTION, 1, GL_FALSE, inverse_vp.m);
    glUniformMatrix4fv(SW_SKY_LOC_PREVIOUS_VIEW_PROJECTION, 1, GL_FALSE, previous_vp.m);
    glUniform2f(SW_SKY_LOC_JITTER, jitter.m[12], jitter.m[13]);
    const bool turned = !f->first_frame && !sw__same_camera(&f->camera.current, &f->camera.previous);
    glUniform1i(SW_SKY_LOC_MOTION, turned ? 1 : 0);
    glUniform3fv(SW_SKY_LOC_SUN, 1, p.sun);
    glUniform1f(SW_SKY_LOC_STARS, p.stars);
    glUniform3fv(SW_SKY_LOC_NEBULA, 1, p.nebula);
    glUniform4fv(SW_SKY_LOC_TINT, 1, p.tint);
    glBindVertexArray(r->empty_vao);
    /* 1: the atmosphere background, overwriting colour and motion. */
    glDisable(GL_BLEND);
    glUniform1i(SW_SKY_LOC_LAYER, SW_SKY_LAYER_BACKGROUND);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    if (p.timed) {
        glColorMaski(SW_SKY_OUT_MOTION, GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE);
        glEnablei(GL_BLEND, SW_OUT_COLOR);
        /* 2: the nebula, C = C_dst + C_src·C_dst. */
        glBlendFuncSeparatei(SW_OUT_COLOR, GL_DST_COLOR, GL_ONE, GL_ZERO, GL_ONE);
        glUniform1i(SW_SKY_LOC_LAYER, SW_SKY_LAYER_NEBULA);
        glDrawArrays(GL_TRIANGLES, 0, 3);
        /* 3: the tint, C = C_src·α + C_dst·(1 − α); the target's alpha kept. */
        glBlendFuncSeparatei(SW_OUT_COLOR, GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ZERO, GL_ONE);
        glUniform1i(SW_SKY_LOC_LAYER, SW_SKY_LAYER_TINT);
        glDrawArrays(GL_TRIANGLES, 0, 3);
        glDisablei(GL_BLEND, SW_OUT_COLOR);
        glColorMaski(SW_SKY_OUT_MOTION, GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    }
    glDisable(GL_SCISSOR_TEST);
}
