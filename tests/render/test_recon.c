/* Spatial lighting reconstruction (src/render/recon.c, shaders/recon_*.frag,
   docs/reconstruction.md):
     - the C reference: the checkered pick on hand-computed 2×2 blocks
       (both depth conventions, ties, the far plane, partial blocks at an
       odd edge, a split frame's columns); the candidates and their
       bilinear weights at hand-computed pixels; the upsample on a flat
       floor equals plain bilinear, and across a depth edge between a
       foreground and a background it keeps each side's value where plain
       bilinear bleeds;
     - the passes on the demo character drawn by the renderer at 160×120
       (reverse-Z) and 161×121 (ordinary depth, partial blocks): the GPU
       pick equals the C reference on the rendered depth and normal (every
       index, depth and normal exactly), the GPU upsample equals the C
       reference on the GPU's half-res AO; and at 160×120, along the depth
       edges (the character's silhouette), the upsampled AO takes far less
       of the other side's AO than plain bilinear does, against a
       full-resolution AO pass on the same G-buffer.
   The GL parts skip, saying so, when no EGL display exists. */
#include <epoxy/gl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "gl_harness.h"
#include "sinew/demo.h"
#include "sinew/gltf.h"
#include "sinew/import.h"
#include "sinew/pose.h"
#include "sinew/render.h"

#include "../../src/render/recon.h"
#include "../../src/render/renderer_internal.h"

static const sw__recon_depth_range g_ordinary = {0.1f, 50.0f, false};
static const sw__recon_depth_range g_reverse = {0.1f, INFINITY, true};

/* The depth-buffer value of view depth e. */
static float stored(const sw__recon_depth_range* range, float e) {
    const float n = range->z_near, f = range->z_far;
    if (range->reverse_z) return isfinite(f) ? n * (f - e) / (e * (f - n)) : n / e;
    return ((f + n) / (f - n) - 2.0f * f * n / ((f - n) * e)) * 0.5f + 0.5f;
}

/* ---- the pick ---------------------------------------------------------------------- */

static void test_pick_blocks(void) {
    for (int convention = 0; convention < 2; convention++) {
        const sw__recon_depth_range* range = convention ? &g_reverse : &g_ordinary;
        /* One block, view depths 3, 1, 4, 2 at indexes 0..3: even texels
           (x ^ y even) take the nearest (index 1), odd ones the farthest (2). */
        const float block[4] = {stored(range, 3), stored(range, 1), stored(range, 4), stored(range, 2)};
        SW_CHECK_EQ_INT(sw__recon_pick_index(range, block, 0xF, 0, 0), 1);
        SW_CHECK_EQ_INT(sw__recon_pick_index(range, block, 0xF, 1, 0), 2);
        SW_CHECK_EQ_INT(sw__recon_pick_index(range, block, 0xF, 0, 1), 2);
        SW_CHECK_EQ_INT(sw__recon_pick_index(range, block, 0xF, 5, 3), 1);
        /* Pixels outside the image do not compete. */
        SW_CHECK_EQ_INT(sw__recon_pick_index(range, block, 0x5, 0, 0), 0);
        SW_CHECK_EQ_INT(sw__recon_pick_index(range, block, 0x9, 1, 0), 0);
        /* Ties go to the lowest index; the far plane is the farthest. */
        const float flat[4] = {stored(range, 2), stored(range, 2), stored(range, 2), stored(range, 2)};
        SW_CHECK_EQ_INT(sw__recon_pick_index(range, flat, 0xF, 0, 0), 0);
        SW_CHECK_EQ_INT(sw__recon_pick_index(range, flat, 0xF, 1, 0), 0);
        const float far_value = range->reverse_z ? 0.0f : 1.0f;
        const float edge[4] = {stored(range, 2), stored(range, 2), far_value, stored(range, 2)};
        SW_CHECK_EQ_INT(sw__recon_pick_index(range, edge, 0xF, 0, 0), 0);
        SW_CHECK_EQ_INT(sw__recon_pick_index(range, edge, 0xF, 0, 1), 2);
        SW_CHECK(sw__recon_far(range, far_value));
        SW_CHECK(isinf(sw__recon_view_depth(range, far_value)));
        SW_CHECK_NEAR(sw__recon_view_depth(range, stored(range, 2.5f)), 2.5, 1e-4);
    }

    /* A 5 × 3 image (a half image of 3 × 2, the last column and row
       partial), view depth 1 + x + 10 y at pixel (x, y), normal (x, y, 0). */
    enum { FW = 5, FH = 3 };
    float depth[FW * FH], normal[FW * FH * 3];
    for (int y = 0; y < FH; y++)
        for (int x = 0; x < FW; x++) {
            depth[y * FW + x] = stored(&g_reverse, 1.0f + (float)x + 10.0f * (float)y);
            const float n[3] = {(float)x, (float)y, 0.0f};
            memcpy(normal + (y * FW + x) * 3, n, sizeof n);
        }
    SW_CHECK_EQ_INT(sw__recon_half(FW), 3);
    SW_CHECK_EQ_INT(sw__recon_half(FH), 2);
    float half_depth[6], half_normal[18];
    uint8_t index[6];
    sw__recon_pick(&g_reverse, FW, FH, depth, normal, 0, 0, half_depth, half_normal, index);
    /* Nearest = least x + 10 y: index 0; farthest: index 3 where the block
       is whole; the partial blocks only have the pixels inside. */
    const uint8_t want[6] = {0, 3, 0, /* row 1 (pixel row 2 only): */ 1, 0, 0};
    for (int i = 0; i < 6; i++) {
        SW_CHECK_EQ_INT(index[i], want[i]);
        const int hx = i % 3, hy = i / 3, px = 2 * hx + (index[i] & 1), py = 2 * hy + (index[i] >> 1);
        SW_CHECK(half_depth[i] == depth[py * FW + px]); /* the same pixel's depth ... */
        SW_CHECK(half_normal[i * 3] == (float)px && half_normal[i * 3 + 1] == (float)py); /* ... and normal */
    }
    /* A split frame's right half, columns 3..5: the block of half column 1
       only has pixel column 3 (indexes 1 and 3). */
    memset(index, 9, sizeof index);
    sw__recon_pick(&g_reverse, FW, FH, depth, normal, 3, 5, half_depth, half_normal, index);
    SW_CHECK_EQ_INT(index[0], 9); /* not drawn */
    SW_CHECK_EQ_INT(index[1], 3); /* odd: the farthest of (3, 0) and (3, 1) */
    SW_CHECK_EQ_INT(index[2], 0); /* even: the nearest of (4, 0), (4, 1) */
}

/* ---- the upsample ------------------------------------------------------------------ */

static void test_candidates(void) {
    const float depth[16] = {0}, normal[48] = {0}, value[16] = {0};
    const sw__recon_half_image half = {4, 4, 0, 0, depth, normal, value, 1};
    int texel[4][2];
    float w[4];
    /* Pixel (2, 3): half-res (0.75, 1.25): texels (0|1, 1|2), fractions 0.75, 0.25. */
    sw__recon_candidates(&half, 2, 3, texel, w);
    const int want[4][2] = {{0, 1}, {1, 1}, {0, 2}, {1, 2}};
    const float want_w[4] = {0.1875f, 0.5625f, 0.0625f, 0.1875f};
    for (int i = 0; i < 4; i++) {
        SW_CHECK_EQ_INT(texel[i][0], want[i][0]);
        SW_CHECK_EQ_INT(texel[i][1], want[i][1]);
        SW_CHECK(w[i] == want_w[i]);
    }
    /* Pixel (0, 0): half-res (−0.25, −0.25), clamped to texel 0. */
    sw__recon_candidates(&half, 0, 0, texel, w);
    for (int i = 0; i < 4; i++) SW_CHECK(texel[i][0] == 0 && texel[i][1] == 0);
    /* Columns 2..4 of the half image: pixel (4, 0) would reach texel 1. */
    const sw__recon_half_image right = {4, 4, 2, 4, depth, normal, value, 1};
    sw__recon_candidates(&right, 4, 0, texel, w);
    for (int i = 0; i < 4; i++) SW_CHECK(texel[i][0] >= 2);
}

enum { EW = 32, EH = 16 };

/* A full-res scene, view depth per pixel and unit normals; its pick; and
   per half texel a value that belongs to the picked pixel's surface. */
typedef struct scene {
    float depth[EW * EH], normal[EW * EH * 3], z[EW * EH], value_full[EW * EH];
    float half_depth[EW * EH / 4], half_normal[EW * EH / 4 * 3], half_value[EW * EH / 4];
    uint8_t index[EW * EH / 4];
} scene;

static void finish_scene(scene* s, const sw__recon_depth_range* range) {
    for (int i = 0; i < EW * EH; i++) s->depth[i] = stored(range, s->z[i]);
    sw__recon_pick(range, EW, EH, s->depth, s->normal, 0, 0, s->half_depth, s->half_normal, s->index);
    for (int y = 0; y < EH / 2; y++)
        for (int x = 0; x < EW / 2; x++) {
            const int i = s->index[y * (EW / 2) + x];
            s->half_value[y * (EW / 2) + x] = s->value_full[(2 * y + (i >> 1)) * EW + 2 * x + (i & 1)];
        }
}

/* Plain bilinear over the same candidates (the comparison). */
static float bilinear(const sw__recon_half_image* half, int x, int y) {
    int texel[4][2];
    float w[4], sum = 0.0f;
    sw__recon_candidates(half, x, y, texel, w);
    for (int i = 0; i < 4; i++) sum += w[i] * half->value[texel[i][1] * half->width + texel[i][0]];
    return sum;
}

static void test_flat_and_edge(void) {
    static scene s;
    /* A floor seen from above at an angle: view depth 2 + 0.02 y, one
       normal, a smooth value: every candidate is on the surface, so the
       upsample is plain bilinear. */
    for (int y = 0; y < EH; y++)
        for (int x = 0; x < EW; x++) {
            const int i = y * EW + x;
            s.z[i] = 2.0f + 0.02f * (float)y;
            s.normal[i * 3] = 0.0f, s.normal[i * 3 + 1] = 0.8f, s.normal[i * 3 + 2] = 0.6f;
            s.value_full[i] = 0.5f + 0.01f * (float)x;
        }
    finish_scene(&s, &g_reverse);
    sw__recon_half_image half = {EW / 2, EH / 2, 0, 0, s.half_depth, s.half_normal, s.half_value, 1};
    double worst_flat = 0.0;
    for (int y = 0; y < EH; y++)
        for (int x = 0; x < EW; x++) {
            float out;
            sw__recon_upsample(&g_reverse, &half, x, y, s.depth[y * EW + x], s.normal + (y * EW + x) * 3, &out);
            worst_flat = fmax(worst_flat, fabs(out - bilinear(&half, x, y)));
        }
    printf("  flat floor: largest difference from plain bilinear %.2g\n", worst_flat);
    SW_CHECK(worst_flat < 1e-6);

    /* A foreground (view depth 2, facing the camera, value 0.2: occluded)
       over a background (depth 6, value 1) that meets it at pixel column
       13 and along a diagonal: blocks straddle the edge. */
    for (int y = 0; y < EH; y++)
        for (int x = 0; x < EW; x++) {
            const int i = y * EW + x;
            const bool front = x < 13 + y / 3;
            s.z[i] = front ? 2.0f : 6.0f;
            s.normal[i * 3] = 0.0f, s.normal[i * 3 + 1] = 0.0f, s.normal[i * 3 + 2] = 1.0f;
            s.value_full[i] = front ? 0.2f : 1.0f;
        }
    finish_scene(&s, &g_reverse);
    /* The checker keeps both surfaces along the edge. */
    int front_picks = 0, back_picks = 0;
    for (int x = 6; x < 8; x++) front_picks += s.half_value[x] < 0.5f, back_picks += s.half_value[x] > 0.5f;
    SW_CHECK(front_picks >= 1 && back_picks >= 1);
    /* Every pixel with a candidate on its own surface keeps its side's
       value; one without (a one-pixel corner of the staircase whose four
       candidates all picked the other side) falls back to bilinear. */
    double worst_joint = 0.0;
    int plain_bleed = 0, joint_bleed = 0, alone = 0;
    for (int y = 0; y < EH; y++)
        for (int x = 0; x < EW; x++) {
            const int i = y * EW + x;
            float out, weight[4];
            int texel[4][2];
            sw__recon_upsample(&g_reverse, &half, x, y, s.depth[i], s.normal + i * 3, &out);
            sw__recon_weights(&g_reverse, &half, x, y, s.z[i], s.normal + i * 3, texel, weight);
            const bool on_surface = weight[0] + weight[1] + weight[2] + weight[3] > 0.05f;
            alone += !on_surface;
            if (on_surface) worst_joint = fmax(worst_joint, fabs(out - s.value_full[i]));
            joint_bleed += fabsf(out - s.value_full[i]) > 0.1f;
            plain_bleed += fabsf(bilinear(&half, x, y) - s.value_full[i]) > 0.1f;
        }
    printf("  depth edge: %d of %d pixels off by more than 0.1 with joint-bilateral (%d without a candidate on "
           "their surface), %d with plain bilinear; largest error with a candidate %.4f\n",
           joint_bleed, EW * EH, alone, plain_bleed, worst_joint);
    /* The floor weight lets at most 1e-3 / (1/16) of the other side in: 0.8 × 1.6 %. */
    SW_CHECK(worst_joint < 0.015);
    SW_CHECK_EQ_INT(joint_bleed, alone);
    SW_CHECK(alone <= 4);
    SW_CHECK(plain_bleed >= 2 * EH);
    /* A normal edge at the same depth (a crease: 0.4 between the faces'
       normals, dot 0.0) is kept apart the same way. */
    for (int y = 0; y < EH; y++)
        for (int x = 0; x < EW; x++) {
            const int i = y * EW + x;
            const bool left = x < 15;
            s.z[i] = 3.0f;
            s.normal[i * 3] = left ? 1.0f : 0.0f, s.normal[i * 3 + 1] = 0.0f, s.normal[i * 3 + 2] = left ? 0.0f : 1.0f;
            s.value_full[i] = left ? 0.4f : 0.9f;
        }
    finish_scene(&s, &g_reverse);
    double worst_crease = 0.0;
    for (int y = 0; y < EH; y++)
        for (int x = 0; x < EW; x++) {
            float out;
            sw__recon_upsample(&g_reverse, &half, x, y, s.depth[y * EW + x], s.normal + (y * EW + x) * 3, &out);
            worst_crease = fmax(worst_crease, fabs(out - s.value_full[y * EW + x]));
        }
    printf("  normal edge: largest error %.4f\n", worst_crease);
    SW_CHECK(worst_crease < 0.015);
}

/* ---- the passes on the demo character ------------------------------------------------ */

/* The largest frame drawn: 160 × 120 with reverse-Z, 161 × 121 with
   ordinary depth (partial blocks at the right and top edges). */
enum { MW = 161, MH = 121, MHW = (MW + 1) / 2, MHH = (MH + 1) / 2 };

static sw_model* g_asset;
static sw_material_set g_materials;
static void* g_pose_memory;
static sw_pose g_pose;
static sw_camera g_camera;

static bool load_demo(void) {
    uint8_t* glb = NULL;
    size_t size = 0;
    sw_diag d = {0};
    bool ok = sw_demo_character_glb(&glb, &size, &d) == SW_OK &&
              sw_gltf_load_memory(glb, size, SW_DEMO_CHARACTER_NAME, NULL, NULL, &g_asset, &d) == SW_OK;
    sw_demo_character_glb_free(glb);
    ok = ok && sw_material_set_read(g_asset, &g_materials, &d) == SW_OK;
    if (!ok) {
        fprintf(stderr, "  demo: %s\n", d.message);
        return false;
    }
    sw_pose_sizes sizes = sw_pose_sizes_of(g_asset);
    g_pose_memory = aligned_alloc(16, (sw_pose_memory_size(&sizes) + 15) / 16 * 16);
    if (!g_pose_memory) return false;
    sw_pose_bind(&g_pose, &sizes, g_pose_memory);
    return sw_pose_evaluate(g_asset, NULL, 0.0f, false, &g_pose, &d) == SW_OK;
}

static void read_texture(GLuint texture, GLenum format, GLenum type, void* out) {
    glBindTexture(GL_TEXTURE_2D, texture);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glGetTexImage(GL_TEXTURE_2D, 0, format, type, out);
}

/* A unit normal from RGB10A2 bits (× ½ + ½), as the shaders decode it. */
static void decode_normal(uint32_t bits, float out[3]) {
    float length = 0.0f;
    for (int k = 0; k < 3; k++) {
        out[k] = (float)((bits >> (10 * k)) & 1023u) / 1023.0f * 2.0f - 1.0f;
        length += out[k] * out[k];
    }
    length = sqrtf(length);
    for (int k = 0; k < 3; k++) out[k] /= length;
}

typedef struct readback {
    int w, h, hw, hh;  /* full and half size of this frame */
    float depth[MW * MH], normal[MW * MH * 3];
    uint32_t normal_bits[MW * MH];
    float half_depth[MHW * MHH], half_normal[MHW * MHH * 3];
    uint32_t half_bits[MHW * MHH];
    uint8_t half_ao[MHW * MHH * 2], ao[MW * MH * 2];
} readback;

/* The GPU pick against the C reference on the renderer's own G-buffer. */
static void check_pick(const readback* b, const sw__recon_depth_range* range) {
    static float c_depth[MHW * MHH], c_normal[MHW * MHH * 3], bits_as_float[MW * MH * 3];
    static uint8_t c_index[MHW * MHH];
    /* The C pick copies the normal it is given: the raw 10-bit values, to compare exactly. */
    for (int i = 0; i < b->w * b->h; i++)
        for (int k = 0; k < 3; k++) bits_as_float[i * 3 + k] = (float)((b->normal_bits[i] >> (10 * k)) & 1023u);
    sw__recon_pick(range, b->w, b->h, b->depth, bits_as_float, 0, 0, c_depth, c_normal, c_index);
    int index_off = 0, depth_off = 0, normal_off = 0, far = 0;
    int histogram[4] = {0, 0, 0, 0};
    for (int i = 0; i < b->hw * b->hh; i++) {
        index_off += (int)(b->half_bits[i] >> 30) != c_index[i];
        depth_off += memcmp(&b->half_depth[i], &c_depth[i], sizeof(float)) != 0;
        for (int k = 0; k < 3; k++) normal_off += (float)((b->half_bits[i] >> (10 * k)) & 1023u) != c_normal[i * 3 + k];
        far += sw__recon_far(range, c_depth[i]);
        histogram[c_index[i]]++;
    }
    printf("  pick, %s, %dx%d, GPU vs C on the rendered G-buffer: %d / %d indexes, %d depths, %d normals differ "
           "(indexes 0..3: %d %d %d %d; %d far)\n",
           range->reverse_z ? "reverse-Z" : "ordinary depth", b->w, b->h, index_off, b->hw * b->hh, depth_off,
           normal_off, histogram[0], histogram[1], histogram[2], histogram[3], far);
    SW_CHECK_EQ_INT(index_off, 0);
    SW_CHECK_EQ_INT(depth_off, 0);
    SW_CHECK_EQ_INT(normal_off, 0);
    SW_CHECK(histogram[0] > 100 && histogram[1] > 100 && histogram[2] > 100 && histogram[3] > 100);
}

/* The GPU upsample against the C reference on the GPU's half-res AO. */
static void check_upsample(const readback* b, const sw__recon_depth_range* range) {
    static float half_value[MHW * MHH * 2];
    for (int i = 0; i < b->hw * b->hh * 2; i++) half_value[i] = (float)b->half_ao[i] / 255.0f;
    const sw__recon_half_image half = {b->hw, b->hh, 0, 0, b->half_depth, b->half_normal, half_value, 2};
    int off = 0, worst = 0;
    for (int y = 0; y < b->h; y++)
        for (int x = 0; x < b->w; x++) {
            const int i = y * b->w + x;
            float out[2];
            sw__recon_upsample(range, &half, x, y, b->depth[i], b->normal + i * 3, out);
            for (int c = 0; c < 2; c++) {
                const int diff = abs((int)b->ao[i * 2 + c] - (int)lroundf(out[c] * 255.0f));
                off += diff > 1;
                if (diff > worst) worst = diff;
            }
        }
    printf("  upsample, GPU vs C, %dx%d: %d of %d values off by more than 1/255 (worst %d)\n", b->w, b->h, off,
           b->w * b->h * 2, worst);
    SW_CHECK(off <= b->w * b->h * 2 / 1000);
}

/* Along the depth edges (the character's silhouette against what lies
   behind it), how much of the AO across the edge leaks into a pixel. Per
   pixel, a 5 × 5 window of the full-res AO gives the level of its own
   surface (neighbours within 5 % of its view depth) and of the other side;
   where they differ by more than 0.1, the leak is (value − own) / (other −
   own): 0 keeps its own side, 1 takes the other's. The mean over the edge
   pixels, for the upsampled AO and for plain bilinear of the same half-res
   AO (averaging the window's levels keeps the AO's per-pixel noise out). */
static void silhouette(const readback* b, const sw__recon_depth_range* range, const uint8_t* full_ao, const char* label,
                       double* joint_leak, double* plain_leak) {
    static float half_value[MHW * MHH];
    for (int i = 0; i < b->hw * b->hh; i++) half_value[i] = (float)b->half_ao[i * 2] / 255.0f;
    const sw__recon_half_image half = {b->hw, b->hh, 0, 0, b->half_depth, b->half_normal, half_value, 1};
    double joint = 0.0, plain = 0.0;
    int edge = 0;
    for (int y = 2; y < b->h - 2; y++)
        for (int x = 2; x < b->w - 2; x++) {
            const int i = y * b->w + x;
            if (sw__recon_far(range, b->depth[i])) continue;
            const float z = sw__recon_view_depth(range, b->depth[i]);
            double own = 0.0, other = 0.0;
            int owns = 0, others = 0;
            for (int dy = -2; dy <= 2; dy++)
                for (int dx = -2; dx <= 2; dx++) {
                    const int j = i + dy * b->w + dx;
                    if (sw__recon_far(range, b->depth[j])) continue; /* the sky has no AO to leak */
                    const double v = full_ao[j * 2] / 255.0;
                    if (fabsf(sw__recon_view_depth(range, b->depth[j]) - z) < 0.05f * z) own += v, owns++;
                    else other += v, others++;
                }
            if (!others) continue;
            own /= owns, other /= others;
            if (fabs(other - own) <= 0.1) continue;
            const double a = b->ao[i * 2] / 255.0, p = bilinear(&half, x, y);
            joint += (a - own) / (other - own), plain += (p - own) / (other - own);
            edge++;
        }
    *joint_leak = edge ? joint / edge : 0.0, *plain_leak = edge ? plain / edge : 0.0;
    printf("  silhouette, %s: %d edge pixels, mean leak of the other side's AO %.3f joint-bilateral, %.3f plain "
           "bilinear\n",
           label, edge, *joint_leak, *plain_leak);
    SW_CHECK(edge > 40);
}

/* The demo drawn at width × height with the depth convention given: the pick and
   the upsample against C; with `silhouette_too` the edges against a
   full-res AO. */
static void passes_on_demo(int width, int height, bool ordinary, bool silhouette_too) {
    const int half_width = sw__recon_half(width), half_height = sw__recon_half(height);
    sw_renderer* r = NULL;
    sw_diag d = {0};
    sw_renderer_desc desc = {.width = width, .height = height, .shadow_map_size = 512, .ordinary_depth = ordinary};
    if (sw_renderer_create(&desc, &r, &d) != SW_OK ||
        sw_renderer_set_scene(r, g_asset, &g_materials, &d) != SW_OK) {
        fprintf(stderr, "  renderer: %s\n", d.message);
        SW_CHECK(false);
        sw_renderer_destroy(r);
        return;
    }
    float lo[3], hi[3];
    SW_CHECK(sw_renderer_scene_bounds(r, &g_pose, lo, hi, &d) == SW_OK);
    sw_renderer_set_scene_box(r, lo, hi);
    /* Close enough that the arms stand in front of the body. */
    sw_camera_frame_bounds(lo, hi, 35.0f, 10.0f, (float)width / height, &g_camera);
    sw_render_frame f = {.pose = &g_pose, .first_frame = true, .camera = {.current = g_camera, .previous = g_camera},
                         .shading.ao = SW_RENDER_AO_ON, .post = {.aa = SW_RENDER_AA_NONE}};
    SW_CHECK(sw_renderer_draw(r, &f, &d) == SW_OK);
    static readback b;
    b.w = width, b.h = height, b.hw = half_width, b.hh = half_height;
    read_texture(r->t_depth, GL_DEPTH_COMPONENT, GL_FLOAT, b.depth);
    read_texture(r->t_normal, GL_RGBA, GL_UNSIGNED_INT_2_10_10_10_REV, b.normal_bits);
    read_texture(sw__recon_pass_half_depth(r->recon), GL_RED, GL_FLOAT, b.half_depth);
    read_texture(sw__recon_pass_half_normal(r->recon), GL_RGBA, GL_UNSIGNED_INT_2_10_10_10_REV, b.half_bits);
    read_texture(sw__ao_pass_texture(r->ao), GL_RG, GL_UNSIGNED_BYTE, b.half_ao);
    read_texture(sw__recon_pass_output(r->recon), GL_RG, GL_UNSIGNED_BYTE, b.ao);
    for (int i = 0; i < width * height; i++) decode_normal(b.normal_bits[i], b.normal + i * 3);
    for (int i = 0; i < half_width * half_height; i++) decode_normal(b.half_bits[i], b.half_normal + i * 3);
    SW_CHECK(glGetError() == GL_NO_ERROR);
    const sw__recon_depth_range range = {g_camera.z_near, g_camera.z_far, r->reverse_z};
    check_pick(&b, &range);
    check_upsample(&b, &range);
    SW_CHECK(r->reverse_z == !ordinary);
    if (!silhouette_too) {
        sw_renderer_destroy(r);
        return;
    }

    /* The full-res AO of the same frame: the renderer at twice the size
       would see other pixels, so an AO pass of full size runs on this
       G-buffer with the renderer's settings (screen AO only, no proxies,
       in both: the proxies are smooth and need no edge care). */
    sw__ao_pass *full = NULL, *half = NULL;
    SW_CHECK(sw__ao_pass_create(width, height, &full, &d) == SW_OK &&
             sw__ao_pass_create(half_width, half_height, &half, &d) == SW_OK);
    if (full && half) {
        const float scene_height = hi[1] - lo[1];
        sw__ao_inputs in = {.depth = r->t_depth, .normal = r->t_normal, .empty_vao = r->empty_vao,
                            .lens = {1.0f / tanf(0.5f * g_camera.fov_y), (float)width / (float)height, g_camera.z_near,
                                     g_camera.z_far, width, height, r->reverse_z},
                            .settings = {0.2f * scene_height, 2.0f, 0.1f}};
        const sw_mat4 view = sw__look_at(sw__v3(g_camera.eye), sw__v3(g_camera.target), sw__v3(g_camera.up));
        memcpy(in.view, view.m, sizeof in.view);
        sw__ao_pass_run(full, &in);
        static uint8_t full_ao[MW * MH * 2];
        read_texture(sw__ao_pass_texture(full), GL_RG, GL_UNSIGNED_BYTE, full_ao);
        in.depth = sw__recon_pass_half_depth(r->recon), in.normal = sw__recon_pass_half_normal(r->recon);
        in.lens.width = half_width, in.lens.height = half_height;
        sw__ao_pass_run(half, &in);
        sw__recon_pass_upsample(r->recon, r->t_depth, r->t_normal, sw__ao_pass_texture(half), &range, r->empty_vao, 0,
                                0);
        read_texture(sw__ao_pass_texture(half), GL_RG, GL_UNSIGNED_BYTE, b.half_ao);
        read_texture(sw__recon_pass_output(r->recon), GL_RG, GL_UNSIGNED_BYTE, b.ao);
        double joint, plain;
        /* The whole path: AO at half resolution (its own noise) upsampled. */
        silhouette(&b, &range, full_ao, "half-res AO", &joint, &plain);
        SW_CHECK(joint < 0.1 && plain > 2.0 * joint);
        /* The upsample alone: the full-res AO at the picked pixels as the
           half-res input (what a perfect half-res pass would give). */
        for (int i = 0; i < half_width * half_height; i++) {
            const int hx = i % half_width, hy = i / half_width, k = (int)(b.half_bits[i] >> 30);
            memcpy(b.half_ao + i * 2, full_ao + ((2 * hy + (k >> 1)) * width + 2 * hx + (k & 1)) * 2, 2);
        }
        glBindTexture(GL_TEXTURE_2D, sw__ao_pass_texture(half));
        glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
        glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, half_width, half_height, GL_RG, GL_UNSIGNED_BYTE, b.half_ao);
        sw__recon_pass_upsample(r->recon, r->t_depth, r->t_normal, sw__ao_pass_texture(half), &range, r->empty_vao, 0,
                                0);
        read_texture(sw__recon_pass_output(r->recon), GL_RG, GL_UNSIGNED_BYTE, b.ao);
        silhouette(&b, &range, full_ao, "full-res AO at the picks", &joint, &plain);
        SW_CHECK(joint < 0.1 && plain > 2.0 * joint);
    }
    sw__ao_pass_destroy(full);
    sw__ao_pass_destroy(half);
    sw_renderer_destroy(r);
}

static void test_passes_on_demo(void) {
    if (!load_demo()) {
        SW_CHECK(false);
        return;
    }
    passes_on_demo(160, 120, false, true);
    passes_on_demo(161, 121, true, false);
}

int main(void) {
    SW_RUN(test_pick_blocks);
    SW_RUN(test_candidates);
    SW_RUN(test_flat_and_edge);
    sw_gl_context* context = NULL;
    int early = sw_test_gl_begin(&context);
    if (early > 0) return early;
    if (early == 0) return sw_test_finish();
    SW_RUN(test_passes_on_demo);
    free(g_pose_memory);
    sw_material_set_free(&g_materials);
    sw_model_free(g_asset);
    sw_gl_context_destroy(context);
    return sw_test_finish();
}
