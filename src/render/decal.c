/* Deferred box decals (sinew/render.h, sw_renderer_set_decals;
   docs/decals.md): the decals' GPU state and their pass, between the
   G-buffer's opaque draws and the lighting. The pass draws into a
   framebuffer of its own that holds only the G-buffer's normal and albedo
   targets, so the class byte, material, motion and emission targets keep
   their values and the depth it reads is not attached. The shading is
   decal_math.c's (shaders/decal.frag mirrors it). */
#include "renderer_internal.h"

#include <math.h>
#include <string.h>

#include "../base/base_internal.h"
#include "decal_math.h"

typedef struct sw__decal_gpu {
    sw_render_decal values;  /* as given, images cleared */
    sw_mat34 world_to_box;
    GLuint base_texture;     /* 0: white */
    GLuint normal_texture;   /* 0: none (the normal target is not written) */
} sw__decal_gpu;

struct sw__decals {
    GLuint program, fbo, white;
    size_t count;
    sw__decal_gpu items[SW_RENDER_DECAL_MAX];
};

static void sw__clear_decal_textures(sw__decals* d) {
    for (size_t i = 0; i < d->count; i++) {
        glDeleteTextures(1, &d->items[i].base_texture);
        glDeleteTextures(1, &d->items[i].normal_texture);
    }
    d->count = 0;
}

void sw__decals_destroy(sw_renderer* r) {
    sw__decals* d = r->decals;
    if (!d) return;
    sw__clear_decal_textures(d);
    glDeleteProgram(d->program);
    glDeleteFramebuffers(1, &d->fbo);
    glDeleteTextures(1, &d->white);
    sw__free(d);
    r->decals = NULL;
}

/* The program and the framebuffer of the normal and albedo targets
   (attachment i is output location i, as in the G-buffer's). */
static sw_result sw__decals_create(sw_renderer* r, sw_diag* diag) {
    sw__decals* d = sw__calloc(1, sizeof *d);
    if (!d) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for the decals");
    r->decals = d;
    sw_result res = sw__program(sw_shader_fullscreen_vert, sw_shader_decal_frag, "decal", &d->program, diag);
    if (res != SW_OK) return res;
    d->white = sw__solid_texture((const uint8_t[4]){255, 255, 255, 255});
    glGenFramebuffers(1, &d->fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, d->fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0 + SW_GBUFFER_NORMAL, GL_TEXTURE_2D, r->t_normal, 0);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0 + SW_GBUFFER_ALBEDO, GL_TEXTURE_2D, r->t_albedo, 0);
    const GLenum buffers[2] = {GL_COLOR_ATTACHMENT0 + SW_GBUFFER_NORMAL, GL_COLOR_ATTACHMENT0 + SW_GBUFFER_ALBEDO};
    glDrawBuffers(2, buffers);
    res = sw__framebuffer_complete("decal", diag);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    return res;
}

static GLuint sw__decal_texture(const sw_material_image* image, GLenum internal) {
    if (!image || !image->pixels || image->width < 1 || image->height < 1) return 0;
    GLuint t;
    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_2D, t);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, (GLint)internal, image->width, image->height, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                 image->pixels);
    glGenerateMipmap(GL_TEXTURE_2D);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    return t;
}

static bool sw__finite(const float* v, int n) {
    for (int i = 0; i < n; i++)
        if (!isfinite(v[i])) return false;
    return true;
}

/* A decal's values checked; *world_to_box its box's inverse. */
static sw_result sw__check_decal(const sw_render_decal* decal, size_t i, sw_mat34* world_to_box, sw_diag* diag) {
    if (!sw__finite(&decal->box.m[0][0], 12) || !sw__finite(decal->base_color, 4) ||
        !sw__finite(&decal->opacity, 1) || !sw__finite(&decal->normal_strength, 1))
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, (int64_t)i, "decal %zu: a value is not finite", i);
    if (!sw__decal_world_to_box(&decal->box, world_to_box))
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, (int64_t)i, "decal %zu: its box is flat (no inverse)", i);
    if (decal->opacity < 0.0f || decal->opacity > 1.0f || decal->normal_strength < 0.0f ||
        decal->normal_strength > 1.0f)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, (int64_t)i,
                           "decal %zu: opacity %g and normal strength %g must be within 0..1", i,
                           (double)decal->opacity, (double)decal->normal_strength);
    return SW_OK;
}

sw_result sw_renderer_set_decals(sw_renderer* r, const sw_render_decal* decals, size_t count, sw_diag* diag) {
    if (!r || (count && !decals)) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "NULL renderer or decals");
    if (count > SW_RENDER_DECAL_MAX)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "%zu decals: at most %d", count, SW_RENDER_DECAL_MAX);
    sw_mat34 inverses[SW_RENDER_DECAL_MAX];
    for (size_t i = 0; i < count; i++) {
        sw_result res = sw__check_decal(&decals[i], i, &inverses[i], diag);
        if (res != SW_OK) return res;
    }
    if (!r->decals) {
        sw_result res = sw__decals_create(r, diag);
        if (res != SW_OK) {
            sw__decals_destroy(r);
            return res;
        }
    }
    sw__decals* d = r->decals;
    sw__clear_decal_textures(d);
    for (size_t i = 0; i < count; i++) {
        sw__decal_gpu* g = &d->items[i];
        g->values = decals[i];
        g->values.base_color_image = g->values.normal_image = NULL;
        g->world_to_box = inverses[i];
        g->base_texture = sw__decal_texture(decals[i].base_color_image, GL_SRGB8_ALPHA8);
        g->normal_texture = sw__decal_texture(decals[i].normal_image, GL_RGBA8);
        d->count = i + 1;
    }
    return sw_gl_check("setting the decals", diag);
}

/* sw_mat34 (rows) as a column-major mat4 with the bottom row 0 0 0 1. */
static void sw__mat34_columns(const sw_mat34* m, float out[16]) {
    for (int c = 0; c < 4; c++) {
        for (int row = 0; row < 3; row++) out[c * 4 + row] = m->m[row][c];
        out[c * 4 + 3] = c == 3 ? 1.0f : 0.0f;
    }
}

/* One decal, drawn only over its box's pixels within `scissor` (the
   half being drawn: x, y, width, height). */
static void sw__draw_decal(const sw__decals* d, const sw__decal_gpu* g, const float vp[16], int width, int height,
                           const GLint scissor[4]) {
    int rect[4];
    if (!sw__decal_screen_rect(&g->values.box, vp, width, height, rect)) return;
    const int x0 = rect[0] > scissor[0] ? rect[0] : scissor[0];
    const int x1 = rect[2] < scissor[0] + scissor[2] ? rect[2] : scissor[0] + scissor[2];
    if (x1 <= x0) return;
    glScissor(x0, rect[1], x1 - x0, rect[3] - rect[1]);
    float world_to_box[16];
    sw__mat34_columns(&g->world_to_box, world_to_box);
    const sw_mat34* box = &g->values.box;
    sw_vec3 up = sw_vec3_normalize(sw_vec3_make(box->m[0][1], box->m[1][1], box->m[2][1]));
    glUniformMatrix4fv(SW_DECAL_LOC_WORLD_TO_BOX, 1, GL_FALSE, world_to_box);
    glUniform3f(SW_DECAL_LOC_BOX_X, box->m[0][0], box->m[1][0], box->m[2][0]);
    glUniform3f(SW_DECAL_LOC_BOX_UP, up.x, up.y, up.z);
    glUniform4fv(SW_DECAL_LOC_BASE_COLOR, 1, g->values.base_color);
    const bool normal = g->normal_texture != 0;
    glUniform2f(SW_DECAL_LOC_WEIGHTS, g->values.opacity, normal ? g->values.normal_strength : 0.0f);
    const uint32_t receivers = g->values.receivers
                                   ? g->values.receivers
                                   : (1u << SW_CLASS_GROUND) | (1u << SW_CLASS_STAGE);
    glUniform1ui(SW_DECAL_LOC_RECEIVERS, receivers);
    glActiveTexture(GL_TEXTURE0 + SW_DECAL_UNIT_BASE_COLOR);
    glBindTexture(GL_TEXTURE_2D, g->base_texture ? g->base_texture : d->white);
    glActiveTexture(GL_TEXTURE0 + SW_DECAL_UNIT_NORMAL);
    glBindTexture(GL_TEXTURE_2D, normal ? g->normal_texture : d->white);
    /* Without a normal map the normal target is not even written. */
    glColorMaski(SW_GBUFFER_NORMAL, normal, normal, normal, GL_FALSE);
    glDrawArrays(GL_TRIANGLES, 0, 3);
}

void sw__decal_pass(sw_renderer* r, const sw_render_frame* f) {
    const sw__decals* d = r->decals;
    const sw_render_view view = f->debug.view;
    if (!d || !d->count || (view != SW_RENDER_VIEW_SHADED && view != SW_RENDER_VIEW_NORMALS &&
                            view != SW_RENDER_VIEW_MOTION))
        return;
    glBindFramebuffer(GL_FRAMEBUFFER, d->fbo); /* within the G-buffer pass's scissor (a split's half) */
    glViewport(0, 0, r->width, r->height);
    const GLboolean depth_test = glIsEnabled(GL_DEPTH_TEST);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_CULL_FACE);
    glEnable(GL_FRAMEBUFFER_SRGB); /* the albedo blends in linear colour */
    const GLuint buffers[2] = {SW_GBUFFER_NORMAL, SW_GBUFFER_ALBEDO};
    for (int i = 0; i < 2; i++) {
        glEnablei(GL_BLEND, buffers[i]);
        /* "over" on colour; the targets' alpha (the normal's outline tag) kept */
        glBlendFuncSeparatei(buffers[i], GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ZERO, GL_ONE);
        glColorMaski(buffers[i], GL_TRUE, GL_TRUE, GL_TRUE, GL_FALSE);
    }
    glUseProgram(d->program);
    const sw_mat4 inverse_vp = sw__inverse_view_projection(&f->camera.current, (float)r->width / (float)r->height, r->reverse_z);
    glUniformMatrix4fv(SW_DECAL_LOC_INVERSE_VIEW_PROJECTION, 1, GL_FALSE, inverse_vp.m);
    glUniform3fv(SW_DECAL_LOC_EYE, 1, f->camera.current.eye);
    glActiveTexture(GL_TEXTURE0 + SW_DECAL_UNIT_DEPTH);
    glBindTexture(GL_TEXTURE_2D, r->t_depth);
    glActiveTexture(GL_TEXTURE0 + SW_DECAL_UNIT_CLASS);
    glBindTexture(GL_TEXTURE_2D, r->t_class);
    glBindVertexArray(r->empty_vao);
    sw_mat4 vp;
    sw_camera_view_projection(&f->camera.current, (float)r->width / (float)r->height, vp.m);
    GLint scissor[4] = {0, 0, r->width, r->height};
    const GLboolean scissored = glIsEnabled(GL_SCISSOR_TEST);
    if (scissored) glGetIntegerv(GL_SCISSOR_BOX, scissor);
    glEnable(GL_SCISSOR_TEST);
    for (size_t i = 0; i < d->count; i++) sw__draw_decal(d, &d->items[i], vp.m, r->width, r->height, scissor);
    glScissor(scissor[0], scissor[1], scissor[2], scissor[3]);
    if (!scissored) glDisable(GL_SCISSOR_TEST);
    for (int i = 0; i < 2; i++) {
        glDisablei(GL_BLEND, buffers[i]);
        glColorMaski(buffers[i], GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    }
    glBlendFunc(GL_ONE, GL_ZERO);
    glDisable(GL_FRAMEBUFFER_SRGB);
    if (depth_test) glEnable(GL_DEPTH_TEST);
}
