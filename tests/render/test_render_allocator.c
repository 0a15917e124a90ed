/* sw_set_allocator and sinew-render: a GL context, the demo character
   loaded, a renderer made for it, two frames drawn, everything destroyed,
   with a counting allocator (tests/base/counting_allocator.h) installed
   throughout: every block sinew allocated came back through it, none
   through anything else. The GL driver's own memory is not sinew's and is
   not counted. Skips, saying so, only when no EGL display exists at all.
   The scene's materials are prepared by sinew-import (sw_material_set_read:
   toon records read, images decoded), counted too. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "gl_harness.h"
#include "base/counting_allocator.h"
#include "sinew/demo.h"
#include "sinew/gltf.h"
#include "sinew/import.h"
#include "sinew/pose.h"
#include "sinew/render.h"

enum { W = 96, H = 72 };

static sw_gl_context* g_context;

/* Loads the demo, makes a renderer for it, draws two frames of its first
   clip and destroys it all. */
static void draw_demo(void) {
    uint8_t* glb = NULL;
    size_t size = 0;
    sw_model* model = NULL;
    sw_diag d = {0};
    bool ok = sw_demo_character_glb(&glb, &size, &d) == SW_OK &&
              sw_gltf_load_memory(glb, size, SW_DEMO_CHARACTER_NAME, NULL, NULL, &model, &d) == SW_OK;
    sw_demo_character_glb_free(glb);
    sw_renderer* renderer = NULL;
    ok = ok && sw_renderer_create(&(sw_renderer_desc){.width = W, .height = H, .shadow_map_size = 256}, &renderer,
                                  &d) == SW_OK;
    sw_material_set materials = {0};
    ok = ok && sw_material_set_read(model, &materials, &d) == SW_OK;
    ok = ok && sw_renderer_set_scene(renderer, model, &materials, &d) == SW_OK;
    sw_pose_sizes sizes = model ? sw_pose_sizes_of(model) : (sw_pose_sizes){0};
    void* memory = aligned_alloc(16, (sw_pose_memory_size(&sizes) + 15) / 16 * 16 + 16); /* the caller's */
    sw_pose pose;
    if (ok && memory) {
        sw_pose_bind(&pose, &sizes, memory);
        const sw_clip* clip = model->animation_count ? &model->animations[0] : NULL;
        sw_camera previous = {0};
        for (int frame = 0; ok && frame < 2; frame++) {
            float lo[3], hi[3];
            ok = sw_pose_evaluate(model, clip, (float)frame / 30.0f, true, &pose, &d) == SW_OK &&
                 sw_renderer_scene_bounds(renderer, &pose, lo, hi, &d) == SW_OK;
            sw_render_frame f = {.pose = &pose, .first_frame = frame == 0};
            sw_camera_frame_bounds(lo, hi, 20.0f, 10.0f, (float)W / H, &f.camera.current);
            f.camera.previous = frame == 0 ? f.camera.current : previous;
            previous = f.camera.current;
            ok = ok && sw_renderer_draw(renderer, &f, &d) == SW_OK;
        }
    }
    if (!ok) fprintf(stderr, "  demo: %s\n", d.message);
    SW_CHECK(ok);
    free(memory);
    sw_renderer_destroy(renderer);
    sw_material_set_free(&materials);
    sw_model_free(model);
}

/* Counted from before the GL context is made to after it is destroyed. */
static counting_allocator g_counts;

static void test_render_allocations_come_back(void) {
    draw_demo();
    sw_gl_context_destroy(g_context);
    g_context = NULL;
    counting_end(&g_counts);
    counting_print(&g_counts, "GL context, demo loaded, drawn twice, everything destroyed");
    SW_CHECK(g_counts.allocations > 0 && g_counts.frees > 0);
    SW_CHECK_EQ_INT(g_counts.frees, g_counts.allocations);
    SW_CHECK_EQ_INT(g_counts.live_blocks, 0);
    SW_CHECK_EQ_INT(g_counts.live_bytes, 0);
    SW_CHECK_EQ_INT(g_counts.foreign, 0);
}

int main(void) {
    counting_begin(&g_counts);
    int early = sw_test_gl_begin(&g_context);
    if (early >= 0) {
        counting_end(&g_counts);
        return early;
    }
    SW_RUN(test_render_allocations_come_back);
    return sw_test_finish();
}
