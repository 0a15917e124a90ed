/* The post chain (post_chain.h, docs/post.md): motion blur, bloom,
   display mapping, edge AA and TAA after the lighting pass, each a
   fullscreen pass over the renderer's targets. Every location, unit and
   output the shaders share with this file is a name from
   render_interface.h; the pure maths lives in post_math.c. */
#include "post_chain.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "depth_view.h"
#include "post_math.h"
#include "render_interface.h"
#include "../base/base_internal.h"


_Static_assert(SW_RENDER_AA_NONE == 0 && (SW_RENDER_AA_EDGE_TAA & SW_RENDER_AA_EDGE) &&
                   (SW_RENDER_AA_EDGE_TAA & SW_RENDER_AA_TAA) && !(SW_RENDER_AA_EDGE & SW_RENDER_AA_TAA),
               "sw_render_aa is a set of two bits: edge AA and TAA");

struct sw__post_chain {
    int width, height;
    GLuint p_display, p_velocity, p_blur, p_bloom, p_edges, p_weights, p_blend, p_taa;
    GLuint fbo, taa_fbo;
    GLuint linear_sampler;    /* bilinear reads of textures the others read by texelFetch */
    /* motion blur */
    int tiles_w, tiles_h;
    GLuint t_tiles, t_neighbours, t_blurred;
    /* bloom: level k is (width, height) >> (k + 1) */
    int bloom_levels, bloom_w[SW_BLOOM_LEVELS], bloom_h[SW_BLOOM_LEVELS];
    GLuint t_bloom[SW_BLOOM_LEVELS];
    /* display-referred colour, edge AA */
    GLuint t_display, t_edges, t_weights, t_antialiased, t_area, t_search;
    /* TAA: history colour and state, ping-pong; `latest` was written last */
    GLuint t_history[2], t_state[2];
    int latest;
    bool history_valid;
};

/* The generated lookup tables (post_math.c) as textures. */
static void sw__post_tables(sw__post_chain* c) {
    float* area = (float*)sw__malloc(sizeof(float) * 2 * SW_EDGE_AREA_SIZE * SW_EDGE_AREA_SIZE);
    uint8_t search[SW_EDGE_SEARCH_CODES];
    sw__edge_search_table(search);
    c->t_area = sw__texture2d(GL_RG32F, SW_EDGE_AREA_SIZE, SW_EDGE_AREA_SIZE, GL_NEAREST);
    if (area) {
        sw__edge_area_table(area);
        glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
        glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, SW_EDGE_AREA_SIZE, SW_EDGE_AREA_SIZE, GL_RG, GL_FLOAT, area);
        sw__free(area);
    }
    c->t_search = sw__texture2d(GL_R8UI, SW_EDGE_SEARCH_CODES, 1, GL_NEAREST);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, SW_EDGE_SEARCH_CODES, 1, GL_RED_INTEGER, GL_UNSIGNED_BYTE, search);
}

sw_result sw__post_chain_create(int width, int height, sw__post_chain** out_chain, sw_diag* diag) {
    *out_chain = NULL;
    sw__post_chain* c = (sw__post_chain*)sw__calloc(1, sizeof *c);
    if (!c) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for the post chain");
    c->width = width, c->height = height;
    static const struct { const char* body; const char* name; size_t offset; } programs[] = {
        {sw_shader_post_frag, "post", offsetof(sw__post_chain, p_display)},
        {sw_shader_post_velocity_frag, "post_velocity", offsetof(sw__post_chain, p_velocity)},
        {sw_shader_post_motion_blur_frag, "post_motion_blur", offsetof(sw__post_chain, p_blur)},
        {sw_shader_post_bloom_frag, "post_bloom", offsetof(sw__post_chain, p_bloom)},
        {sw_shader_post_edges_frag, "post_edges", offsetof(sw__post_chain, p_edges)},
        {sw_shader_post_edge_weights_frag, "post_edge_weights", offsetof(sw__post_chain, p_weights)},
        {sw_shader_post_edge_blend_frag, "post_edge_blend", offsetof(sw__post_chain, p_blend)},
        {sw_shader_post_taa_frag, "post_taa", offsetof(sw__post_chain, p_taa)},
    };
    for (size_t i = 0; i < sizeof programs / sizeof programs[0]; i++) {
        GLuint* program = (GLuint*)((char*)c + programs[i].offset);
        sw_result res = sw__program(sw_shader_fullscreen_vert, programs[i].body, programs[i].name, program, diag);
        if (res != SW_OK) {
            sw__post_chain_destroy(c);
            return res;
        }
    }
    c->tiles_w = (width + SW_BLUR_TILE - 1) / SW_BLUR_TILE;
    c->tiles_h = (height + SW_BLUR_TILE - 1) / SW_BLUR_TILE;
    c->t_tiles = sw__texture2d(GL_RG16F, c->tiles_w, c->tiles_h, GL_NEAREST);
    c->t_neighbours = sw__texture2d(GL_RG16F, c->tiles_w, c->tiles_h, GL_NEAREST);
    c->t_blurred = sw__texture2d(GL_RGBA16F, width, height, GL_NEAREST);
    for (int k = 0; k < SW_BLOOM_LEVELS; k++) {
        int w = width >> (k + 1), h = height >> (k + 1);
        if (w < 4 || h < 4) break; /* a smaller level adds nothing but cost */
        c->bloom_w[k] = w, c->bloom_h[k] = h;
        c->t_bloom[k] = sw__texture2d(GL_RGBA16F, w, h, GL_LINEAR);
        c->bloom_levels = k + 1;
    }
    c->t_display = sw__texture2d(GL_RGBA8, width, height, GL_NEAREST);
    /* Bilinear: the line search reads two flags per fetch. */
    c->t_edges = sw__texture2d(GL_RG8, width, height, GL_LINEAR);
    c->t_weights = sw__texture2d(GL_RGBA8, width, height, GL_NEAREST);
    c->t_antialiased = sw__texture2d(GL_RGBA8, width, height, GL_NEAREST);
    for (int i = 0; i < 2; i++) {
        c->t_history[i] = sw__texture2d(GL_RGBA16F, width, height, GL_LINEAR);
        c->t_state[i] = sw__texture2d(GL_RG16F, width, height, GL_NEAREST);
    }
    sw__post_tables(c);
    glGenFramebuffers(1, &c->fbo);
    glGenFramebuffers(1, &c->taa_fbo);
    glGenSamplers(1, &c->linear_sampler);
    glSamplerParameteri(c->linear_sampler, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glSamplerParameteri(c->linear_sampler, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glSamplerParameteri(c->linear_sampler, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glSamplerParameteri(c->linear_sampler, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glBindTexture(GL_TEXTURE_2D, 0);
    sw_result res = sw_gl_check("creating the post chain", diag);
    if (res != SW_OK) {
        sw__post_chain_destroy(c);
        return res;
    }
    *out_chain = c;
    return SW_OK;
}

void sw__post_chain_destroy(sw__post_chain* c) {
    if (!c) return;
    GLuint programs[8] = {c->p_display, c->p_velocity, c->p_blur,    c->p_bloom,
                          c->p_edges,   c->p_weights,  c->p_blend, c->p_taa};
    for (int i = 0; i < 8; i++) glDeleteProgram(programs[i]);
    GLuint textures[] = {c->t_tiles,   c->t_neighbours, c->t_blurred,    c->t_display,  c->t_edges,
                         c->t_weights, c->t_antialiased, c->t_area,      c->t_search,   c->t_history[0],
                         c->t_history[1], c->t_state[0], c->t_state[1]};
    glDeleteTextures((GLsizei)(sizeof textures / sizeof textures[0]), textures);
    glDeleteTextures(SW_BLOOM_LEVELS, c->t_bloom);
    GLuint fbos[2] = {c->fbo, c->taa_fbo};
    glDeleteFramebuffers(2, fbos);
    glDeleteSamplers(1, &c->linear_sampler);
    sw__free(c);
}

static bool sw__post_taa_on(const sw_render_frame* f) {
    return f->debug.view == SW_RENDER_VIEW_SHADED && (f->post.aa & SW_RENDER_AA_TAA);
}

void sw__post_chain_jitter(const sw__post_chain* c, const sw_render_frame* f, float vp[16], float previous_vp[16]) {
    if (!c || !sw__post_taa_on(f)) return;
    float j[2];
    sw__taa_jitter(f->post.frame_index, SW_POST_TAA_PHASES, j);
    /* clip.xy += (2j / size)·clip.w: an NDC shift of j pixels, whatever the projection. */
    const float tx = 2.0f * j[0] / (float)c->width, ty = 2.0f * j[1] / (float)c->height;
    float* matrices[2] = {vp, previous_vp};
    for (int m = 0; m < 2; m++)
        for (int col = 0; col < 4; col++) {
            float* column = matrices[m] + 4 * col;
            column[0] += tx * column[3];
            column[1] += ty * column[3];
        }
}

static void sw__bind(GLenum unit, GLuint texture) {
    glActiveTexture(GL_TEXTURE0 + unit);
    glBindTexture(GL_TEXTURE_2D, texture);
}

/* Makes `texture` (w × h) the one target of the next pass; 0 = the renderer's image. */
static void sw__target(const sw__post_chain* c, const sw__post_inputs* in, GLuint texture, int w, int h) {
    if (texture) {
        glBindFramebuffer(GL_FRAMEBUFFER, c->fbo);
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0 + SW_OUT_COLOR, GL_TEXTURE_2D, texture, 0);
    } else {
        glBindFramebuffer(GL_FRAMEBUFFER, in->image_fbo);
    }
    glViewport(0, 0, w, h);
}

static void sw__fullscreen(const sw__post_inputs* in) {
    glBindVertexArray(in->empty_vao);
    glDrawArrays(GL_TRIANGLES, 0, 3);
}

/* Motion blur of `hdr` into t_blurred. */
static void sw__motion_blur(sw__post_chain* c, const sw__post_inputs* in) {
    glUseProgram(c->p_velocity);
    glUniform1f(SW_BLUR_LOC_SHUTTER, SW_POST_BLUR_SHUTTER);
    sw__bind(SW_BLUR_UNIT_MOTION, in->motion);
    glUniform1i(SW_BLUR_LOC_MODE, SW_BLUR_MODE_TILE_MAX);
    sw__target(c, in, c->t_tiles, c->tiles_w, c->tiles_h);
    sw__fullscreen(in);
    glUniform1i(SW_BLUR_LOC_MODE, SW_BLUR_MODE_NEIGHBOUR_MAX);
    sw__bind(SW_BLUR_UNIT_TILES, c->t_tiles);
    sw__target(c, in, c->t_neighbours, c->tiles_w, c->tiles_h);
    sw__fullscreen(in);
    glUseProgram(c->p_blur);
    glUniform1f(SW_BLUR_LOC_SHUTTER, SW_POST_BLUR_SHUTTER);
    sw__bind(SW_BLUR_UNIT_HDR, in->hdr);
    sw__bind(SW_BLUR_UNIT_MOTION, in->motion);
    sw__bind(SW_BLUR_UNIT_DEPTH, in->depth);
    sw__bind(SW_BLUR_UNIT_TILES, c->t_neighbours);
    sw__target(c, in, c->t_blurred, c->width, c->height);
    sw__fullscreen(in);
}

/* Bloom of `hdr` into t_bloom[0]. */
static void sw__bloom(sw__post_chain* c, const sw__post_inputs* in, GLuint hdr) {
    glUseProgram(c->p_bloom);
    glUniform2f(SW_BLOOM_LOC_THRESHOLD, SW_POST_BLOOM_THRESHOLD, SW_POST_BLOOM_KNEE);
    glUniform1i(SW_BLOOM_LOC_MODE, SW_BLOOM_MODE_BRIGHT);
    sw__bind(SW_BLOOM_UNIT_SOURCE, hdr);
    /* The HDR target is read by texelFetch elsewhere: bilinear only here. */
    glBindSampler(SW_BLOOM_UNIT_SOURCE, c->linear_sampler);
    sw__target(c, in, c->t_bloom[0], c->bloom_w[0], c->bloom_h[0]);
    sw__fullscreen(in);
    glBindSampler(SW_BLOOM_UNIT_SOURCE, 0);
    glUniform1i(SW_BLOOM_LOC_MODE, SW_BLOOM_MODE_DOWN);
    for (int k = 1; k < c->bloom_levels; k++) {
        sw__bind(SW_BLOOM_UNIT_SOURCE, c->t_bloom[k - 1]);
        sw__target(c, in, c->t_bloom[k], c->bloom_w[k], c->bloom_h[k]);
        sw__fullscreen(in);
    }
    glUniform1i(SW_BLOOM_LOC_MODE, SW_BLOOM_MODE_UP);
    glEnable(GL_BLEND);
    glBlendFunc(GL_ONE, GL_ONE);
    for (int k = c->bloom_levels - 2; k >= 0; k--) {
        sw__bind(SW_BLOOM_UNIT_SOURCE, c->t_bloom[k + 1]);
        sw__target(c, in, c->t_bloom[k], c->bloom_w[k], c->bloom_h[k]);
        sw__fullscreen(in);
    }
    glDisable(GL_BLEND);
}

/* Edge AA of t_display into `target` (0 = the image). */
static void sw__edge_aa(sw__post_chain* c, const sw__post_inputs* in, GLuint target) {
    glUseProgram(c->p_edges);
    glUniform1f(SW_EDGE_LOC_THRESHOLD, SW_POST_EDGE_THRESHOLD);
    sw__bind(SW_EDGE_UNIT_COLOR, c->t_display);
    sw__bind(SW_EDGE_UNIT_CLASS, in->classes);
    sw__target(c, in, c->t_edges, c->width, c->height);
    sw__fullscreen(in);
    glUseProgram(c->p_weights);
    sw__bind(SW_EDGE_UNIT_EDGES, c->t_edges);
    sw__bind(SW_EDGE_UNIT_AREA, c->t_area);
    sw__bind(SW_EDGE_UNIT_SEARCH, c->t_search);
    sw__target(c, in, c->t_weights, c->width, c->height);
    sw__fullscreen(in);
    glUseProgram(c->p_blend);
    sw__bind(SW_EDGE_UNIT_COLOR, c->t_display);
    sw__bind(SW_EDGE_UNIT_WEIGHTS, c->t_weights);
    sw__target(c, in, target, c->width, c->height);
    sw__fullscreen(in);
}

/* TAA of `current` into the next history pair and the image. */
static sw_result sw__taa(sw__post_chain* c, const sw_render_frame* f, const sw__post_inputs* in, GLuint current,
                         sw_diag* diag) {
    const int next = 1 - c->latest;
    glBindFramebuffer(GL_FRAMEBUFFER, c->taa_fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0 + SW_TAA_OUT_HISTORY, GL_TEXTURE_2D,
                           c->t_history[next], 0);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0 + SW_TAA_OUT_STATE, GL_TEXTURE_2D, c->t_state[next], 0);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0 + SW_TAA_OUT_IMAGE, GL_TEXTURE_2D, in->image, 0);
    const GLenum buffers[3] = {GL_COLOR_ATTACHMENT0 + SW_TAA_OUT_HISTORY, GL_COLOR_ATTACHMENT0 + SW_TAA_OUT_STATE,
                               GL_COLOR_ATTACHMENT0 + SW_TAA_OUT_IMAGE};
    glDrawBuffers(3, buffers);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
        return sw_diag_set(diag, SW_ERR_UNSUPPORTED, -1, "the TAA framebuffer is incomplete");
    glViewport(0, 0, c->width, c->height);
    glUseProgram(c->p_taa);
    float j[2];
    sw__taa_jitter(f->post.frame_index, SW_POST_TAA_PHASES, j);
    glUniform2f(SW_TAA_LOC_JITTER, j[0], j[1]);
    glUniform1f(SW_TAA_LOC_SHARPNESS, SW_POST_TAA_SHARPNESS);
    glUniform3f(SW_TAA_LOC_ACCUMULATION, SW_POST_TAA_CAP_STILL, SW_POST_TAA_CAP_MOVING, SW_POST_TAA_MOVING_PIXELS);
    glUniform1f(SW_TAA_LOC_RETENTION_STEP, SW_POST_TAA_RETENTION_STEP);
    glUniform1i(SW_TAA_LOC_RESET, f->first_frame || !c->history_valid ? 1 : 0);
    sw__bind(SW_TAA_UNIT_COLOR, current);
    sw__bind(SW_TAA_UNIT_MOTION, in->motion);
    sw__bind(SW_TAA_UNIT_DEPTH, in->depth);
    sw__bind(SW_TAA_UNIT_CLASS, in->classes);
    sw__bind(SW_TAA_UNIT_HISTORY, c->t_history[c->latest]);
    sw__bind(SW_TAA_UNIT_STATE, c->t_state[c->latest]);
    sw__fullscreen(in);
    c->latest = next;
    c->history_valid = true;
    return SW_OK;
}

sw_result sw__post_chain_run(sw__post_chain* c, const sw_render_frame* f, const sw__post_inputs* in, sw_diag* diag) {
    if (!c || !f || !in) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "NULL post chain, frame or inputs");
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_BLEND);
    glDisable(GL_SCISSOR_TEST);
    glDisable(GL_CULL_FACE);
    const bool shaded = f->debug.view == SW_RENDER_VIEW_SHADED;
    const bool edge = shaded && (f->post.aa & SW_RENDER_AA_EDGE), taa = sw__post_taa_on(f);
    GLuint hdr = in->hdr;
    if (shaded && f->post.motion_blur) {
        sw__motion_blur(c, in);
        hdr = c->t_blurred;
    }
    float bloom = 0.0f;
    if (shaded && f->post.bloom && c->bloom_levels > 0) {
        sw__bloom(c, in, hdr);
        bloom = SW_POST_BLOOM_STRENGTH;
    }
    /* Display mapping (or a debug view), into the image unless AA follows. */
    glUseProgram(c->p_display);
    glUniform1i(SW_POST_LOC_VIEW, (int)f->debug.view);
    glUniform1f(SW_POST_LOC_EXPOSURE, 1.0f);
    glUniform1f(SW_POST_LOC_MOTION_SCALE, 20.0f);
    glUniform1f(SW_POST_LOC_BLOOM_STRENGTH, bloom);
    const float z_near = f->camera.current.z_near, z_far = f->camera.current.z_far;
    glUniform3f(SW_POST_LOC_DEPTH_RANGE, z_near, isfinite(z_far) ? z_far : 0.0f,
                sw__depth_view_scale_far(z_near, z_far));
    const GLuint inputs[SW_POST_UNIT_COUNT] = {
        [SW_POST_UNIT_HDR] = hdr,          [SW_POST_UNIT_NORMAL] = in->normal, [SW_POST_UNIT_ALBEDO] = in->albedo,
        [SW_POST_UNIT_CLASS] = in->classes, [SW_POST_UNIT_MOTION] = in->motion, [SW_POST_UNIT_BLOOM] = c->t_bloom[0],
        [SW_POST_UNIT_DEPTH] = in->depth,  [SW_POST_UNIT_AO] = in->ao,
    };
    for (GLenum i = 0; i < SW_POST_UNIT_COUNT; i++) sw__bind(i, inputs[i]);
    sw__target(c, in, edge || taa ? c->t_display : 0, c->width, c->height);
    sw__fullscreen(in);
    if (edge) sw__edge_aa(c, in, taa ? c->t_antialiased : 0);
    sw_result res = SW_OK;
    if (taa) res = sw__taa(c, f, in, edge ? c->t_antialiased : c->t_display, diag);
    else c->history_valid = false; /* a frame without TAA breaks the history */
    glBindFramebuffer(GL_FRAMEBUFFER, in->image_fbo);
    glViewport(0, 0, c->width, c->height);
    if (res != SW_OK) return res;
    return sw_gl_check("the post chain", diag);
}

sw_result sw__post_chain_read_state(const sw__post_chain* c, float* out, sw_diag* diag) {
    if (!c || !out) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "NULL post chain or output");
    if (!c->history_valid)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "the last frame had no TAA: there is no history state");
    glBindFramebuffer(GL_READ_FRAMEBUFFER, c->fbo);
    glFramebufferTexture2D(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0 + SW_OUT_COLOR, GL_TEXTURE_2D,
                           c->t_state[c->latest], 0);
    glReadBuffer(GL_COLOR_ATTACHMENT0 + SW_OUT_COLOR);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, c->width, c->height, GL_RG, GL_FLOAT, out);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
    return sw_gl_check("reading the TAA state", diag);
}
