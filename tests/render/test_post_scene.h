/* What the post chain's GL tests (test_post_gl.c, test_post_taa.c) share:
   the demo character on one small renderer, stills as `sinew render`
   makes them (TAA warm-up first), class masks and image differences. */
#ifndef SINEW_TEST_POST_SCENE_H
#define SINEW_TEST_POST_SCENE_H

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

enum { N = 128, SS = 4 };

static sw_gl_context* g_context;
static sw_model* g_asset;
static sw_material_set g_materials; /* g_asset's, read by load_demo */
static void* g_pose_memory;
static sw_pose g_pose;
static int g_walk = -1;
static sw_renderer* g_small; /* N × N */
static sw_camera g_camera;
static sw_render_style g_style = SW_RENDER_STYLE_AUTO; /* of the stills below */

static inline bool load_demo(void) {
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
    for (size_t i = 0; i < g_asset->animation_count; i++)
        if (g_asset->animations[i].name && strcmp(g_asset->animations[i].name, "walk") == 0) g_walk = (int)i;
    sw_pose_sizes sizes = sw_pose_sizes_of(g_asset);
    g_pose_memory = aligned_alloc(16, (sw_pose_memory_size(&sizes) + 15) / 16 * 16);
    if (!g_pose_memory) return false;
    sw_pose_bind(&g_pose, &sizes, g_pose_memory);
    return true;
}

static inline void pose_at(float time) {
    sw_diag d = {0};
    const sw_clip* clip = g_walk >= 0 ? &g_asset->animations[g_walk] : NULL;
    SW_CHECK(sw_pose_evaluate(g_asset, clip, clip ? clip->start + time : 0.0f, false, &g_pose, &d) == SW_OK);
}

static inline sw_renderer* make_renderer(int size) {
    sw_renderer* r = NULL;
    sw_diag d = {0};
    sw_renderer_desc desc = {.width = size, .height = size, .shadow_map_size = 512};
    if (sw_renderer_create(&desc, &r, &d) != SW_OK || sw_renderer_set_scene(r, g_asset, &g_materials, &d) != SW_OK) {
        fprintf(stderr, "  renderer: %s\n", d.message);
        sw_renderer_destroy(r);
        return NULL;
    }
    return r;
}

/* Draws one frame and reads the image (top row first) into `out` when given. */
static inline bool draw(sw_renderer* r, sw_render_frame f, uint8_t* out) {
    sw_diag d = {0};
    f.pose = &g_pose;
    if (f.camera.current.fov_y == 0.0f) f.camera.current = g_camera;
    if (f.camera.previous.fov_y == 0.0f) f.camera.previous = f.camera.current;
    bool ok = sw_renderer_draw(r, &f, &d) == SW_OK && (!out || sw_renderer_read_image(r, out, &d) == SW_OK);
    if (!ok) fprintf(stderr, "  draw: %s\n", d.message);
    SW_CHECK(ok);
    return ok;
}

/* A still as `sinew render` makes it: with TAA, SW_RENDER_TAA_WARM_UP
   frames of the same pose first. */
static inline bool still(sw_renderer* r, sw_render_aa aa, uint8_t* out) {
    uint32_t warm = (aa & SW_RENDER_AA_TAA) ? SW_RENDER_TAA_WARM_UP : 0;
    for (uint32_t i = 0; i < warm; i++)
        if (!draw(r, (sw_render_frame){.post.aa = aa, .shading.style = g_style, .first_frame = i == 0, .post.frame_index = i}, NULL))
            return false;
    return draw(r, (sw_render_frame){.post.aa = aa, .shading.style = g_style, .first_frame = warm == 0, .post.frame_index = warm}, out);
}

static inline bool is_character(uint8_t cls) {
    uint8_t c = cls & SW_RENDER_CLASS_MASK;
    return c != SW_RENDER_CLASS_BACKGROUND && c != SW_RENDER_CLASS_GROUND;
}

/* Mean absolute difference (0..255, RGB) over the pixels where mask[i]. */
static inline double masked_error(const uint8_t* a, const uint8_t* b, const bool* mask, size_t count) {
    double sum = 0.0;
    size_t n = 0;
    for (size_t i = 0; i < count; i++) {
        if (!mask[i]) continue;
        for (int c = 0; c < 3; c++) sum += fabs((double)a[i * 4 + c] - (double)b[i * 4 + c]);
        n += 3;
    }
    return n ? sum / (double)n : 0.0;
}

/* The class target, flipped to image rows (top first). */
static inline void read_classes(sw_renderer* r, int size, uint8_t* out) {
    sw_diag d = {0};
    uint8_t* gl = malloc((size_t)size * (size_t)size);
    SW_CHECK(gl && sw_renderer_read_class(r, gl, &d) == SW_OK);
    if (!gl) return;
    for (int y = 0; y < size; y++) memcpy(out + (size_t)y * size, gl + (size_t)(size - 1 - y) * size, (size_t)size);
    free(gl);
}

/* Pixels next to a change of character coverage (3×3), image rows. */
static inline void edge_mask(const uint8_t* classes, int size, bool* mask) {
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++) {
            bool mixed = false, here = is_character(classes[y * size + x]);
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    int u = x + dx, v = y + dy;
                    if (u >= 0 && v >= 0 && u < size && v < size) mixed |= is_character(classes[v * size + u]) != here;
                }
            mask[y * size + x] = mixed;
        }
}

/* Sets up g_small and g_camera (the demo framed at the rest pose); false
   when that fails. */
static inline bool post_scene_begin(void) {
    if (!load_demo() || !(g_small = make_renderer(N))) return false;
    sw_diag d = {0};
    float lo[3], hi[3];
    pose_at(0.0f);
    if (sw_renderer_scene_bounds(g_small, &g_pose, lo, hi, &d) != SW_OK) return false;
    sw_camera_frame_bounds(lo, hi, 25.0f, 10.0f, 1.0f, &g_camera);
    return true;
}

static inline void post_scene_end(void) {
    sw_renderer_destroy(g_small);
    free(g_pose_memory);
    sw_model_free(g_asset);
    sw_gl_context_destroy(g_context);
}

#endif
