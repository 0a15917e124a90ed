/* The Hi-Z pyramid (hiz.h, docs/depth.md): the CPU reference of its
   reduction and of the occlusion test, and the GPU pass that builds it
   from the depth target (shaders/hiz.frag) and reads it back for the
   test. The renderer uses it between the two halves of the G-buffer pass
   (renderer.c, sw__gbuffer_pass). */
#include <math.h>

#include "../base/base_internal.h"
#include "renderer_internal.h"

/* ---- CPU: reduction and box test ------------------------------------------------- */

int sw__hiz_level_count(int width, int height) {
    int levels = 1, size = width > height ? width : height;
    while (size > 1 && levels < SW__HIZ_MAX_LEVELS) size >>= 1, levels++;
    return levels;
}

void sw__hiz_reduce(const float* source, int sw, int sh, float* out, int dw, int dh, bool reverse) {
    for (int y = 0; y < dh; y++)
        for (int x = 0; x < dw; x++) {
            /* 2 × 2, and the odd last column / row with the texel before it. */
            int x1 = x == dw - 1 ? sw - 1 : 2 * x + 1, y1 = y == dh - 1 ? sh - 1 : 2 * y + 1;
            if (x1 > sw - 1) x1 = sw - 1;
            if (y1 > sh - 1) y1 = sh - 1;
            float far = source[(size_t)(2 * y) * (size_t)sw + (size_t)(2 * x)];
            for (int v = 2 * y; v <= y1; v++)
                for (int u = 2 * x; u <= x1; u++) far = sw__farthest(far, source[(size_t)v * (size_t)sw + (size_t)u], reverse);
            out[(size_t)y * (size_t)dw + (size_t)x] = far;
        }
}

void sw__hiz_transform_box(const float rows[3][4], const float lo[3], const float hi[3], float out_lo[3],
                           float out_hi[3]) {
    for (int k = 0; k < 3; k++) {
        /* Per row, each term's smaller and larger end (Arvo's method). */
        float a = rows[k][3], b = rows[k][3];
        for (int j = 0; j < 3; j++) {
            const float e = rows[k][j] * lo[j], f = rows[k][j] * hi[j];
            a += e < f ? e : f;
            b += e < f ? f : e;
        }
        out_lo[k] = a, out_hi[k] = b;
    }
}

/* Smallest depth margin that still counts as "nearer": a few float steps
   of the value (reverse-Z keeps relative precision) or of 1 (ordinary). */
static bool sw__clearly_nearer(float a, float b, bool reverse) {
    return reverse ? a - b > 1e-5f * b : b - a > 1e-6f;
}

bool sw__hiz_box_hidden(const sw__hiz_levels* h, const float vp[16], const float lo[3], const float hi[3]) {
    const bool reverse = h->reverse;
    float x_lo = INFINITY, x_hi = -INFINITY, y_lo = INFINITY, y_hi = -INFINITY;
    float nearest = sw__depth_far(reverse);
    for (int c = 0; c < 8; c++) {
        const float p[3] = {c & 1 ? hi[0] : lo[0], c & 2 ? hi[1] : lo[1], c & 4 ? hi[2] : lo[2]};
        float clip[4];
        for (int k = 0; k < 4; k++) clip[k] = vp[k] * p[0] + vp[4 + k] * p[1] + vp[8 + k] * p[2] + vp[12 + k];
        if (!(clip[3] > 0.0f)) return false; /* behind the eye: its projection wraps */
        const float z = clip[2] / clip[3];
        const float depth = reverse ? z : z * 0.5f + 0.5f;
        if (isnan(depth) || (reverse ? depth > 1.0f : depth < 0.0f))
            return false; /* nearer than the near plane: clipped there, and close to the eye */
        if (c == 0 || sw__nearer(depth, nearest, reverse)) nearest = depth;
        const float x = (clip[0] / clip[3] * 0.5f + 0.5f) * (float)h->width;
        const float y = (clip[1] / clip[3] * 0.5f + 0.5f) * (float)h->height;
        x_lo = fminf(x_lo, x), x_hi = fmaxf(x_hi, x), y_lo = fminf(y_lo, y), y_hi = fmaxf(y_hi, y);
    }
    if (!(x_hi >= 0.0f && y_hi >= 0.0f && x_lo <= (float)h->width && y_lo <= (float)h->height)) return false;
    /* The pixels whose centres the box may cover, and one more around
       (the TAA jitter, rounding). */
    int px0 = (int)floorf(x_lo) - 1, px1 = (int)floorf(x_hi) + 1;
    int py0 = (int)floorf(y_lo) - 1, py1 = (int)floorf(y_hi) + 1;
    px0 = px0 < 0 ? 0 : px0, py0 = py0 < 0 ? 0 : py0;
    px1 = px1 > h->width - 1 ? h->width - 1 : px1, py1 = py1 > h->height - 1 ? h->height - 1 : py1;
    int level = h->first_level;
    while (level < h->level_count - 1 && ((px1 >> level) - (px0 >> level) > 1 || (py1 >> level) - (py0 >> level) > 1))
        level++;
    const int w = sw__hiz_level_size(h->width, level), ht = sw__hiz_level_size(h->height, level);
    const float* texels = h->texels[level];
    if (!texels) return false;
    const int tx0 = (px0 >> level) < w - 1 ? px0 >> level : w - 1, tx1 = (px1 >> level) < w - 1 ? px1 >> level : w - 1;
    const int ty0 = (py0 >> level) < ht - 1 ? py0 >> level : ht - 1, ty1 = (py1 >> level) < ht - 1 ? py1 >> level : ht - 1;
    for (int y = ty0; y <= ty1; y++)
        for (int x = tx0; x <= tx1; x++)
            if (!sw__clearly_nearer(texels[(size_t)y * (size_t)w + (size_t)x], nearest, reverse)) return false;
    return true;
}

/* ---- GPU: the pyramid ---------------------------------------------------------------- */

struct sw__hiz {
    int width, height;
    GLuint texture, fbo, program;
    float* readback;       /* levels first_level.. one after the other */
    sw__hiz_levels levels; /* pointing into readback */
};

/* The finest level the test reads back: the first at most this wide and
   tall (the readback stays small; finer levels would only be tighter). */
#define SW__HIZ_READ_SIZE 256

sw_result sw__hiz_create(int width, int height, sw__hiz** out, sw_diag* diag) {
    *out = NULL;
    sw__hiz* h = (sw__hiz*)sw__calloc(1, sizeof *h);
    if (!h) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for the Hi-Z pyramid");
    h->width = width, h->height = height;
    sw__hiz_levels* l = &h->levels;
    l->width = width, l->height = height, l->level_count = sw__hiz_level_count(width, height);
    while (l->first_level < l->level_count - 1 && (sw__hiz_level_size(width, l->first_level) > SW__HIZ_READ_SIZE ||
                                                   sw__hiz_level_size(height, l->first_level) > SW__HIZ_READ_SIZE))
        l->first_level++;
    size_t floats = 0;
    for (int k = l->first_level; k < l->level_count; k++)
        floats += (size_t)sw__hiz_level_size(width, k) * (size_t)sw__hiz_level_size(height, k);
    h->readback = (float*)sw__calloc(floats, sizeof(float));
    sw_result res = h->readback ? SW_OK : sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for the Hi-Z pyramid");
    if (res == SW_OK) res = sw__program(sw_shader_fullscreen_vert, sw_shader_hiz_frag, "hiz", &h->program, diag);
    if (res == SW_OK) {
        float* at = h->readback;
        for (int k = l->first_level; k < l->level_count; k++) {
            l->texels[k] = at;
            at += (size_t)sw__hiz_level_size(width, k) * (size_t)sw__hiz_level_size(height, k);
        }
        glGenTextures(1, &h->texture);
        glBindTexture(GL_TEXTURE_2D, h->texture);
        glTexStorage2D(GL_TEXTURE_2D, l->level_count, GL_R32F, width, height);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
        glGenFramebuffers(1, &h->fbo);
        glBindFramebuffer(GL_FRAMEBUFFER, h->fbo);
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0 + SW_OUT_COLOR, GL_TEXTURE_2D, h->texture, 0);
        res = sw__framebuffer_complete("Hi-Z", diag);
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
    }
    if (res != SW_OK) {
        sw__hiz_destroy(h);
        return res;
    }
    *out = h;
    return SW_OK;
}

void sw__hiz_destroy(sw__hiz* h) {
    if (!h) return;
    glDeleteProgram(h->program);
    glDeleteTextures(1, &h->texture);
    glDeleteFramebuffers(1, &h->fbo);
    sw__free(h->readback);
    sw__free(h);
}

sw_result sw__hiz_build(sw__hiz* h, GLuint depth, bool reverse, GLuint empty_vao, sw_diag* diag) {
    sw__hiz_levels* l = &h->levels;
    l->reverse = reverse;
    glBindFramebuffer(GL_FRAMEBUFFER, h->fbo);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_CULL_FACE);
    glDisable(GL_SCISSOR_TEST);
    glDisable(GL_BLEND);
    glUseProgram(h->program);
    glBindVertexArray(empty_vao);
    glActiveTexture(GL_TEXTURE0 + SW_HIZ_UNIT_SOURCE);
    for (int k = 0; k < l->level_count; k++) {
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0 + SW_OUT_COLOR, GL_TEXTURE_2D, h->texture, k);
        glViewport(0, 0, sw__hiz_level_size(h->width, k), sw__hiz_level_size(h->height, k));
        if (k == 0) {
            glBindTexture(GL_TEXTURE_2D, depth);
        } else {
            /* Read level k − 1 only, so drawing into level k is no feedback loop. */
            glBindTexture(GL_TEXTURE_2D, h->texture);
            glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_BASE_LEVEL, k - 1);
            glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, k - 1);
        }
        glUniform1i(SW_HIZ_LOC_MODE, k == 0 ? SW_HIZ_MODE_COPY : SW_HIZ_MODE_REDUCE);
        glDrawArrays(GL_TRIANGLES, 0, 3);
    }
    glBindTexture(GL_TEXTURE_2D, h->texture);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_BASE_LEVEL, 0);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, l->level_count - 1);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0 + SW_OUT_COLOR, GL_TEXTURE_2D, h->texture, 0);
    /* The test's levels, back on the CPU (a wait for the GPU: the second
       phase of the G-buffer pass needs them now). */
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    for (int k = l->first_level; k < l->level_count; k++)
        glGetTexImage(GL_TEXTURE_2D, k, GL_RED, GL_FLOAT, (void*)l->texels[k]);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    return sw_gl_check("building the Hi-Z pyramid", diag);
}

const sw__hiz_levels* sw__hiz_pyramid(const sw__hiz* h) { return &h->levels; }

GLuint sw__hiz_texture(const sw__hiz* h) { return h->texture; }
