/* Spatial lighting reconstruction (recon.h, docs/reconstruction.md): the C
   reference of shaders/recon_pick.frag and shaders/recon_upsample.frag, and
   the pass. */
#include "recon.h"

#include <math.h>
#include <string.h>

#include "../base/base_internal.h"
#include "renderer_internal.h"

/* ---- C reference ---------------------------------------------------------------- */

int sw__recon_half(int full) { return (full + 1) / 2; }

bool sw__recon_far(const sw__recon_depth_range* range, float depth) {
    return range->reverse_z ? depth <= 0.0f : depth >= 1.0f;
}

float sw__recon_view_depth(const sw__recon_depth_range* range, float depth) {
    if (sw__recon_far(range, depth)) return INFINITY;
    const float n = range->z_near, f = range->z_far;
    /* As sw__ao_view_position: reverse-Z stores n(f − e)/(e(f − n)) (n/e
       without a far plane), ordinary depth goes through NDC z = 2d − 1. */
    if (range->reverse_z) return isfinite(f) ? n * f / (depth * (f - n) + n) : n / depth;
    return 2.0f * f * n / ((f + n) - (depth * 2.0f - 1.0f) * (f - n));
}

/* Whether depth-buffer value a lies strictly nearer the eye than b: the
   stored values are monotonic in view depth, so comparing them is exact. */
static bool sw__recon_nearer(const sw__recon_depth_range* range, float a, float b) {
    return range->reverse_z ? a > b : a < b;
}

int sw__recon_pick_index(const sw__recon_depth_range* range, const float depth[4], unsigned valid, int x, int y) {
    const bool want_nearest = ((x ^ y) & 1) == 0;
    int best = -1;
    for (int i = 0; i < 4; i++) {
        if (!(valid & (1u << i))) continue;
        if (best < 0 || (want_nearest ? sw__recon_nearer(range, depth[i], depth[best])
                                      : sw__recon_nearer(range, depth[best], depth[i])))
            best = i;
    }
    return best < 0 ? 0 : best;
}

void sw__recon_pick(const sw__recon_depth_range* range, int width, int height, const float* depth, const float* normal,
                    int x0, int x1, float* half_depth, float* half_normal, uint8_t* half_index) {
    if (x1 <= x0) x0 = 0, x1 = width;
    const int hw = sw__recon_half(width), hh = sw__recon_half(height);
    for (int y = 0; y < hh; y++)
        for (int x = x0 / 2; x < (x1 + 1) / 2 && x < hw; x++) {
            float block[4] = {0, 0, 0, 0};
            unsigned valid = 0;
            for (int i = 0; i < 4; i++) {
                const int px = 2 * x + (i & 1), py = 2 * y + (i >> 1);
                if (px < x0 || px >= x1 || py >= height) continue;
                block[i] = depth[(size_t)py * (size_t)width + (size_t)px];
                valid |= 1u << i;
            }
            const int i = sw__recon_pick_index(range, block, valid, x, y);
            const size_t full = (size_t)(2 * y + (i >> 1)) * (size_t)width + (size_t)(2 * x + (i & 1));
            const size_t half = (size_t)y * (size_t)hw + (size_t)x;
            half_depth[half] = block[i];
            memcpy(half_normal + half * 3, normal + full * 3, 3 * sizeof(float));
            half_index[half] = (uint8_t)i;
        }
}

static int sw__recon_clamp(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

void sw__recon_candidates(const sw__recon_half_image* half, int x, int y, int texel[4][2], float bilinear[4]) {
    const int cx0 = half->x1 > half->x0 ? half->x0 : 0, cx1 = half->x1 > half->x0 ? half->x1 : half->width;
    /* The full-res centre in half-res texel coordinates: fractions 0.25 or 0.75. */
    const float u = ((float)x + 0.5f) * 0.5f - 0.5f, v = ((float)y + 0.5f) * 0.5f - 0.5f;
    const float fu = floorf(u), fv = floorf(v);
    const float fx = u - fu, fy = v - fv;
    for (int i = 0; i < 4; i++) {
        texel[i][0] = sw__recon_clamp((int)fu + (i & 1), cx0, cx1 - 1);
        texel[i][1] = sw__recon_clamp((int)fv + (i >> 1), 0, half->height - 1);
        bilinear[i] = ((i & 1) ? fx : 1.0f - fx) * ((i >> 1) ? fy : 1.0f - fy);
    }
}

void sw__recon_weights(const sw__recon_depth_range* range, const sw__recon_half_image* half, int x, int y, float z,
                       const float n[3], int texel[4][2], float weight[4]) {
    sw__recon_candidates(half, x, y, texel, weight);
    const float depth_limit = (float)SW_RECON_DEPTH_PERCENT / 100.0f * z;
    const float dot_limit = (float)SW_RECON_NORMAL_DOT_PERCENT / 100.0f;
    for (int i = 0; i < 4; i++) {
        const size_t t = (size_t)texel[i][1] * (size_t)half->width + (size_t)texel[i][0];
        const float d = half->depth[t];
        const float* m = half->normal + t * 3;
        const bool same_surface = !sw__recon_far(range, d) && fabsf(sw__recon_view_depth(range, d) - z) < depth_limit &&
                                  n[0] * m[0] + n[1] * m[1] + n[2] * m[2] > dot_limit;
        /* Strong suppression, not rejection: where no candidate is on the
           surface the result falls back to plain bilinear. */
        if (!same_surface) weight[i] *= (float)SW_RECON_FLOOR_PER_MILLE / 1000.0f;
    }
}

void sw__recon_upsample(const sw__recon_depth_range* range, const sw__recon_half_image* half, int x, int y, float depth,
                        const float n[3], float* out) {
    if (sw__recon_far(range, depth)) {
        for (int c = 0; c < half->channels; c++) out[c] = 1.0f;
        return;
    }
    int texel[4][2];
    float weight[4];
    sw__recon_weights(range, half, x, y, sw__recon_view_depth(range, depth), n, texel, weight);
    const float total = weight[0] + weight[1] + weight[2] + weight[3];
    for (int c = 0; c < half->channels; c++) {
        float sum = 0.0f;
        for (int i = 0; i < 4; i++)
            sum += weight[i] *
                   half->value[((size_t)texel[i][1] * (size_t)half->width + (size_t)texel[i][0]) * (size_t)half->channels +
                               (size_t)c];
        out[c] = sum / fmaxf(total, 1e-6f);
    }
}

/* ---- the pass (GL) ----------------------------------------------------------------- */

struct sw__recon_pass {
    int width, height, half_width, half_height;
    GLuint pick_program, upsample_program;
    GLuint half_depth, half_normal, output; /* R32F, RGB10A2 (half res); RG8 (full res) */
    GLuint pick_fbo, output_fbo;
};

sw_result sw__recon_pass_create(int width, int height, sw__recon_pass** out, sw_diag* diag) {
    *out = NULL;
    sw__recon_pass* pass = (sw__recon_pass*)sw__calloc(1, sizeof *pass);
    if (!pass) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for the reconstruction pass");
    pass->width = width, pass->height = height;
    pass->half_width = sw__recon_half(width), pass->half_height = sw__recon_half(height);
    sw_result res = sw__program(sw_shader_fullscreen_vert, sw_shader_recon_pick_frag, "recon_pick", &pass->pick_program,
                                diag);
    if (res == SW_OK)
        res = sw__program(sw_shader_fullscreen_vert, sw_shader_recon_upsample_frag, "recon_upsample",
                          &pass->upsample_program, diag);
    if (res == SW_OK) {
        pass->half_depth = sw__texture2d(GL_R32F, pass->half_width, pass->half_height, GL_NEAREST);
        pass->half_normal = sw__texture2d(GL_RGB10_A2, pass->half_width, pass->half_height, GL_NEAREST);
        pass->output = sw__texture2d(GL_RG8, width, height, GL_NEAREST);
        glGenFramebuffers(1, &pass->pick_fbo);
        glBindFramebuffer(GL_FRAMEBUFFER, pass->pick_fbo);
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0 + SW_RECON_OUT_DEPTH, GL_TEXTURE_2D, pass->half_depth,
                               0);
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0 + SW_RECON_OUT_NORMAL, GL_TEXTURE_2D,
                               pass->half_normal, 0);
        const GLenum buffers[2] = {GL_COLOR_ATTACHMENT0 + SW_RECON_OUT_DEPTH, GL_COLOR_ATTACHMENT0 + SW_RECON_OUT_NORMAL};
        glDrawBuffers(2, buffers);
        res = sw__framebuffer_complete("reconstruction pick", diag);
    }
    if (res == SW_OK) {
        glGenFramebuffers(1, &pass->output_fbo);
        glBindFramebuffer(GL_FRAMEBUFFER, pass->output_fbo);
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0 + SW_OUT_COLOR, GL_TEXTURE_2D, pass->output, 0);
        res = sw__framebuffer_complete("reconstruction output", diag);
    }
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    if (res != SW_OK) {
        sw__recon_pass_destroy(pass);
        return res;
    }
    *out = pass;
    return SW_OK;
}

void sw__recon_pass_destroy(sw__recon_pass* pass) {
    if (!pass) return;
    glDeleteProgram(pass->pick_program);
    glDeleteProgram(pass->upsample_program);
    glDeleteFramebuffers(1, &pass->pick_fbo);
    glDeleteFramebuffers(1, &pass->output_fbo);
    const GLuint textures[3] = {pass->half_depth, pass->half_normal, pass->output};
    glDeleteTextures(3, textures);
    sw__free(pass);
}

/* The state both draws share: full-screen triangle, no depth, blend or culling. */
static void sw__recon_draw_state(GLuint program, const sw__recon_depth_range* range, int x0, int x1) {
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_BLEND);
    glDisable(GL_CULL_FACE);
    glUseProgram(program);
    glUniform2i(SW_RECON_LOC_COLUMNS, x0, x1);
    glUniform1i(SW_RECON_LOC_REVERSE_Z, range->reverse_z ? 1 : 0);
}

static void sw__recon_bind(GLuint unit, GLuint texture) {
    glActiveTexture(GL_TEXTURE0 + unit);
    glBindTexture(GL_TEXTURE_2D, texture);
}

void sw__recon_pass_pick(sw__recon_pass* pass, uint32_t depth, uint32_t normal, const sw__recon_depth_range* range,
                         uint32_t empty_vao, int x0, int x1) {
    if (x1 <= x0) x0 = 0, x1 = pass->width;
    glBindFramebuffer(GL_FRAMEBUFFER, pass->pick_fbo);
    glViewport(0, 0, pass->half_width, pass->half_height);
    glEnable(GL_SCISSOR_TEST);
    glScissor(x0 / 2, 0, (x1 + 1) / 2 - x0 / 2, pass->half_height);
    sw__recon_draw_state(pass->pick_program, range, x0, x1);
    sw__recon_bind(SW_RECON_UNIT_DEPTH, depth);
    sw__recon_bind(SW_RECON_UNIT_NORMAL, normal);
    glBindVertexArray(empty_vao);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glDisable(GL_SCISSOR_TEST);
}

void sw__recon_pass_upsample(sw__recon_pass* pass, uint32_t depth, uint32_t normal, uint32_t half_value,
                             const sw__recon_depth_range* range, uint32_t empty_vao, int x0, int x1) {
    if (x1 <= x0) x0 = 0, x1 = pass->width;
    glBindFramebuffer(GL_FRAMEBUFFER, pass->output_fbo);
    glViewport(0, 0, pass->width, pass->height);
    glEnable(GL_SCISSOR_TEST);
    glScissor(x0, 0, x1 - x0, pass->height);
    sw__recon_draw_state(pass->upsample_program, range, x0, x1);
    glUniform2f(SW_RECON_LOC_DEPTH_RANGE, range->z_near, range->z_far); /* the pick has no use for it */
    sw__recon_bind(SW_RECON_UNIT_DEPTH, depth);
    sw__recon_bind(SW_RECON_UNIT_NORMAL, normal);
    sw__recon_bind(SW_RECON_UNIT_HALF_DEPTH, pass->half_depth);
    sw__recon_bind(SW_RECON_UNIT_HALF_NORMAL, pass->half_normal);
    sw__recon_bind(SW_RECON_UNIT_HALF_VALUE, half_value);
    glBindVertexArray(empty_vao);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glDisable(GL_SCISSOR_TEST);
}

void sw__recon_pass_clear(sw__recon_pass* pass) {
    glBindFramebuffer(GL_FRAMEBUFFER, pass->output_fbo);
    glDisable(GL_SCISSOR_TEST);
    const float one[4] = {1, 1, 1, 1};
    glClearBufferfv(GL_COLOR, SW_OUT_COLOR, one);
}

uint32_t sw__recon_pass_half_depth(const sw__recon_pass* pass) { return pass ? pass->half_depth : 0; }
uint32_t sw__recon_pass_half_normal(const sw__recon_pass* pass) { return pass ? pass->half_normal : 0; }
uint32_t sw__recon_pass_output(const sw__recon_pass* pass) { return pass ? pass->output : 0; }
int sw__recon_pass_half_width(const sw__recon_pass* pass) { return pass ? pass->half_width : 0; }
int sw__recon_pass_half_height(const sw__recon_pass* pass) { return pass ? pass->half_height : 0; }
