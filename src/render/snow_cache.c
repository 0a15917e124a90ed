/* snow_cache.c — the surface-height cache on the GPU (snow_cache.h,
   docs/snow.md). */
#include "snow_cache.h"

#include <string.h>

#include "../base/base_internal.h"

_Static_assert(SW_SNOW_CACHE_FINE_SIZE == SW_SNOW_FINE_SIZE, "render_interface.h and snow.h: the fine size");
_Static_assert((SW_SNOW_CACHE_FINE_SIZE >> SW_SNOW_CACHE_COARSE_SHIFT) == SW_SNOW_COARSE_SIZE,
               "render_interface.h and snow.h: one coarse cell per 8 × 8 fine texels");

#define SW__FINE_TEXELS ((size_t)SW_SNOW_FINE_SIZE * SW_SNOW_FINE_SIZE)
#define SW__COARSE_TEXELS ((size_t)SW_SNOW_COARSE_SIZE * SW_SNOW_COARSE_SIZE)

static float sw__cache_per_unit(void) { return (float)SW_SNOW_FINE_SIZE / SW_SNOW_CACHE_EXTENT; }

void sw__snow_cache_invalidate(sw__snow_cache* c) {
    if (c) c->built = false;
}

void sw__snow_cache_destroy(sw__snow_cache* c) {
    if (!c) return;
    const GLuint textures[3] = {c->fine, c->coarse, c->dirty};
    glDeleteTextures(3, textures);
    glDeleteRenderbuffers(1, &c->depth);
    glDeleteFramebuffers(1, &c->framebuffer);
    glDeleteProgram(c->program);
    sw__free(c->fine_copy);
    sw__free(c);
}

static GLuint sw__cache_image(int size) {
    GLuint t;
    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_2D, t);
    glTexStorage2D(GL_TEXTURE_2D, 1, GL_R32UI, size, size);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    return t;
}

static sw_result sw__cache_create(sw__snow_cache** out, sw_diag* diag) {
    sw__snow_cache* c = (sw__snow_cache*)sw__calloc(1, sizeof *c);
    if (!c) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for the snow height cache");
    c->fine_copy = (uint32_t*)sw__malloc(SW__FINE_TEXELS * sizeof(uint32_t));
    if (!c->fine_copy) {
        sw__free(c);
        return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for the snow height cache");
    }
    sw_result res = sw__program(sw_shader_snow_cache_vert, sw_shader_snow_cache_frag, "snow_cache", &c->program, diag);
    if (res == SW_OK) {
        c->fine = sw__cache_image(SW_SNOW_FINE_SIZE);
        c->coarse = sw__cache_image(SW_SNOW_COARSE_SIZE);
        c->dirty = sw__cache_image(SW_SNOW_COARSE_SIZE);
        glGenRenderbuffers(1, &c->depth);
        glBindRenderbuffer(GL_RENDERBUFFER, c->depth);
        glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT32F, SW_SNOW_FINE_SIZE, SW_SNOW_FINE_SIZE);
        glGenFramebuffers(1, &c->framebuffer);
        glBindFramebuffer(GL_FRAMEBUFFER, c->framebuffer);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, c->depth);
        glDrawBuffer(GL_NONE);
        glReadBuffer(GL_NONE);
        res = sw__framebuffer_complete("snow height cache", diag);
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
    }
    if (res != SW_OK) {
        sw__snow_cache_destroy(c);
        return res;
    }
    *out = c;
    return SW_OK;
}

/* Zeroes the three images: glClearTexImage where the context has it (GL
   4.4), else an upload of zeros (the fine copy is the zero source: the
   readback after the draw overwrites it). */
static void sw__cache_clear(sw__snow_cache* c) {
    if (epoxy_gl_version() >= 44 || epoxy_has_gl_extension("GL_ARB_clear_texture")) {
        const GLuint zero = 0, textures[3] = {c->fine, c->coarse, c->dirty};
        for (int k = 0; k < 3; k++) glClearTexImage(textures[k], 0, GL_RED_INTEGER, GL_UNSIGNED_INT, &zero);
        return;
    }
    memset(c->fine_copy, 0, SW__FINE_TEXELS * sizeof(uint32_t));
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glBindTexture(GL_TEXTURE_2D, c->fine);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, SW_SNOW_FINE_SIZE, SW_SNOW_FINE_SIZE, GL_RED_INTEGER, GL_UNSIGNED_INT,
                    c->fine_copy);
    const GLuint small[2] = {c->coarse, c->dirty};
    for (int k = 0; k < 2; k++) {
        glBindTexture(GL_TEXTURE_2D, small[k]);
        glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, SW_SNOW_COARSE_SIZE, SW_SNOW_COARSE_SIZE, GL_RED_INTEGER,
                        GL_UNSIGNED_INT, c->fine_copy);
    }
}

/* Whether stage draw d is a walkable candidate: an opaque triangle mesh
   (glass, water and cut-out leaves are not stood on). */
static bool sw__cache_draws(const sw_renderer* r, const sw__draw* d) {
    const sw_model_mode mode = d->prim->mode;
    if (mode != SW_MODEL_TRIANGLES && mode != SW_MODEL_TRIANGLE_STRIP && mode != SW_MODEL_TRIANGLE_FAN) return false;
    return r->materials[d->material].core->alpha_mode == SW_MODEL_ALPHA_OPAQUE && !sw__transmissive(r, d, SW_RENDER_STYLE_PBR);
}

/* Both draws of the stage from above: depth, then candidates. */
static void sw__cache_draw(sw_renderer* r, sw__snow_cache* c) {
    const float per = sw__cache_per_unit();
    glBindFramebuffer(GL_FRAMEBUFFER, c->framebuffer);
    glViewport(0, 0, SW_SNOW_FINE_SIZE, SW_SNOW_FINE_SIZE);
    glDisable(GL_SCISSOR_TEST);
    glDisable(GL_CULL_FACE);
    glDisable(GL_BLEND);
    glEnable(GL_DEPTH_TEST);
    glDepthMask(GL_TRUE);
    glClearDepth(1.0);
    glClear(GL_DEPTH_BUFFER_BIT);
    glUseProgram(c->program);
    glUniform4f(SW_SNOW_CACHE_LOC_WINDOW, (float)c->corner[0] / per, (float)c->corner[1] / per, per, 0.0f);
    glUniform2i(SW_SNOW_CACHE_LOC_RING, c->corner[0], c->corner[1]);
    glBindImageTexture(SW_SNOW_CACHE_IMAGE_FINE, c->fine, 0, GL_FALSE, 0, GL_READ_WRITE, GL_R32UI);
    glBindImageTexture(SW_SNOW_CACHE_IMAGE_COARSE, c->coarse, 0, GL_FALSE, 0, GL_READ_WRITE, GL_R32UI);
    glBindImageTexture(SW_SNOW_CACHE_IMAGE_DIRTY, c->dirty, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_R32UI);
    for (int candidates = 0; candidates < 2; candidates++) {
        glDepthFunc(candidates ? GL_LEQUAL : GL_LESS);
        glDepthMask(candidates ? GL_FALSE : GL_TRUE);
        for (size_t i = r->character_draw_count; i < r->draw_count; i++) {
            const sw__draw* d = &r->draws[i];
            if (!d->gpu || !sw__cache_draws(r, d)) continue;
            sw_gpu_instance_buffers b;
            sw_gpu_instance_get_buffers(sw_gpu_model_primitive_instance(d->gpu), &b);
            glUniform4f(SW_SNOW_CACHE_LOC_HEIGHTS, c->lowest, 1.0f / c->span, b.normals_offset != SIZE_MAX ? 1.0f : 0.0f,
                        (float)candidates);
            sw__draw_copies(d, d->gpu, false);
        }
    }
    glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_TEXTURE_UPDATE_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
    for (GLuint unit = SW_SNOW_CACHE_IMAGE_FINE; unit <= SW_SNOW_CACHE_IMAGE_DIRTY; unit++)
        glBindImageTexture(unit, 0, 0, GL_FALSE, 0, GL_READ_ONLY, GL_R32UI);
    glDepthMask(GL_TRUE);
    glDepthFunc(GL_LESS);
    glBindVertexArray(0);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

sw_result sw__snow_cache_frame(sw_renderer* r, const float centre[3], sw_diag* diag) {
    if (!r->stage_count) return SW_OK;
    const float per = sw__cache_per_unit();
    sw__snow_cache* c = r->snow_cache;
    if (c && c->built) {
        /* The window's centre, against the character: a quarter of the extent is far. */
        const float half = 0.5f * (float)SW_SNOW_FINE_SIZE;
        const float dx = centre[0] - ((float)c->corner[0] + half) / per, dz = centre[2] - ((float)c->corner[1] + half) / per;
        if (fabsf(dx) <= 0.25f * SW_SNOW_CACHE_EXTENT && fabsf(dz) <= 0.25f * SW_SNOW_CACHE_EXTENT) return SW_OK;
    }
    if (!c) {
        sw_result res = sw__cache_create(&r->snow_cache, diag);
        if (res != SW_OK) return res;
        c = r->snow_cache;
    }
    /* The corner: half the window from the centre, on a whole coarse cell. */
    const int32_t cell = 1 << SW_SNOW_CACHE_COARSE_SHIFT;
    for (int k = 0; k < 2; k++) {
        const int32_t middle = (int32_t)floorf(centre[k * 2] * per);
        c->corner[k] = (middle - SW_SNOW_FINE_SIZE / 2) & ~(cell - 1); /* two's complement: rounds down */
    }
    c->lowest = r->stage_min[1] - 0.5f;
    c->span = fmaxf(r->stage_max[1] - r->stage_min[1], 0.0f) + 1.0f;
    sw__cache_clear(c);
    sw__cache_draw(r, c);
    glBindTexture(GL_TEXTURE_2D, c->fine);
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    glGetTexImage(GL_TEXTURE_2D, 0, GL_RED_INTEGER, GL_UNSIGNED_INT, c->fine_copy);
    c->built = true;
    c->builds++;
    return sw_gl_check("the snow height cache", diag);
}

bool sw__snow_cache_ground(const sw__snow_cache* c, float x, float z, float* out_y) {
    if (!c || !c->built) return false;
    const float per = sw__cache_per_unit();
    const int32_t ix = (int32_t)floorf(x * per), iz = (int32_t)floorf(z * per);
    if (ix < c->corner[0] || ix >= c->corner[0] + SW_SNOW_FINE_SIZE || iz < c->corner[1] ||
        iz >= c->corner[1] + SW_SNOW_FINE_SIZE)
        return false;
    int32_t t[2];
    sw__snow_fine_texel(x, z, SW_SNOW_CACHE_EXTENT, t);
    const uint32_t packed = c->fine_copy[(size_t)t[1] * SW_SNOW_FINE_SIZE + (size_t)t[0]];
    if (!packed) return false;
    float h;
    uint32_t diff;
    sw__snow_height_unpack(packed, &h, &diff);
    *out_y = c->lowest + h * c->span;
    return true;
}

sw_result sw__snow_cache_read(const sw__snow_cache* c, uint32_t* fine, uint32_t* coarse, uint32_t* dirty,
                              sw_diag* diag) {
    if (!c || !c->built) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "the snow height cache is not drawn");
    const GLuint textures[3] = {c->fine, c->coarse, c->dirty};
    uint32_t* const outs[3] = {fine, coarse, dirty};
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    for (int k = 0; k < 3; k++) {
        if (!outs[k]) continue;
        glBindTexture(GL_TEXTURE_2D, textures[k]);
        glGetTexImage(GL_TEXTURE_2D, 0, GL_RED_INTEGER, GL_UNSIGNED_INT, outs[k]);
    }
    return sw_gl_check("reading the snow height cache", diag);
}

void sw__snow_cache_bind(const sw__snow_cache* c) {
    const bool on = c && c->built;
    glActiveTexture(GL_TEXTURE0 + SW_GBUFFER_UNIT_SNOW_HEIGHT);
    glBindTexture(GL_TEXTURE_2D, on ? c->fine : 0);
    if (!on) {
        glUniform4f(SW_GBUFFER_LOC_SNOW_HEIGHT_WINDOW, 0.0f, 0.0f, 0.0f, 0.0f);
        return;
    }
    const float per = sw__cache_per_unit();
    glUniform4f(SW_GBUFFER_LOC_SNOW_HEIGHT_WINDOW, (float)c->corner[0] / per, (float)c->corner[1] / per, per, 1.0f);
    glUniform4f(SW_GBUFFER_LOC_SNOW_HEIGHT_RANGE, c->lowest, c->span, 0.0f, 0.0f);
}
