/* Fog on the demo stage (docs/fog.md): a medium of 0.08 per metre changes
   the far stage more than the near one. The stage is drawn at 160×90 from
   a standing eye looking across it, once without fog and once with; per
   image row, the mean |change| of the HDR luma over the stage's pixels
   (class STAGE: the character and the sky are left out). Rows high in the
   image see the stage far away: the upper half of the stage's rows must
   change at least 1.5 times as much as the lower half (the issue's
   measure), and the farthest quarter more than the nearest quarter by the
   same factor. A uniform medium changes a surface by (1 − e^(−σd))·(L∞ −
   c), growing with its distance d; with the fog's depth taken out
   (everything at the near rows' distance) the test would fail.
   Skips, saying so, only when no EGL display exists at all. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"
#include "gl_harness.h"
#include "sinew/demo.h"
#include "sinew/gltf.h"
#include "sinew/import.h"
#include "sinew/materials.h"
#include "sinew/render.h"
#include "test_stage_scene.h"

#define W 160
#define H 90

static sw_gl_context* g_context;
static sw_model* g_demo;
static sw_model* g_stage;
static sw_material_set g_materials;
static sw_pose g_pose;
static void* g_pose_memory;
static float g_hdr[2][W * H * 4];
static uint8_t g_classes[W * H];

static bool load(void) {
    if (!test_stage_scene_load(&g_demo, &g_materials, &g_stage, NULL)) return false;
    sw_diag d = {0};
    sw_pose_sizes sizes = sw_pose_sizes_of(g_demo);
    g_pose_memory = aligned_alloc(16, (sw_pose_memory_size(&sizes) + 15) / 16 * 16);
    sw_pose_bind(&g_pose, &sizes, g_pose_memory);
    return sw_pose_evaluate(g_demo, NULL, 0.0f, false, &g_pose, &d) == SW_OK;
}

static double luma(const float* rgba) { return 0.2126 * rgba[0] + 0.7152 * rgba[1] + 0.0722 * rgba[2]; }

static void test_far_changes_more(void) {
    sw_diag d = {0};
    sw_renderer* r = NULL;
    sw_render_stage_model stage = {.model = g_stage, .materials = NULL, .placement = sw_mat34_identity()};
    SW_CHECK(sw_renderer_create(&(sw_renderer_desc){.width = W, .height = H, .shadow_map_size = 512}, &r, &d) ==
                 SW_OK &&
             sw_renderer_set_scene(r, g_demo, &g_materials, &d) == SW_OK &&
             sw_renderer_set_stage(r, &stage, 1, &d) == SW_OK);
    if (!r) return;
    /* A standing eye at the stage's front edge, looking across it. */
    const sw_camera cam = {.eye = {0.0f, 1.6f, 10.0f}, .target = {0.0f, 0.4f, -4.0f}, .up = {0.0f, 1.0f, 0.0f},
                           .fov_y = 0.7f, .z_near = 0.1f, .z_far = 100.0f};
    const float density[2] = {0.0f, 0.08f};
    for (int i = 0; i < 2; i++) {
        sw_render_frame f = {.pose = &g_pose, .first_frame = true, .camera = {cam, cam},
                             .shading = {.fog_density = density[i]}};
        SW_CHECK(sw_renderer_draw(r, &f, &d) == SW_OK);
        SW_CHECK(sw_renderer_read_hdr(r, g_hdr[i], &d) == SW_OK);
    }
    SW_CHECK(sw_renderer_read_class(r, g_classes, &d) == SW_OK);
    sw_renderer_destroy(r);

    /* Rows bottom first (GL's order): row 0 is the nearest ground. */
    double change[H];
    int rows[H], count = 0;
    for (int y = 0; y < H; y++) {
        double sum = 0.0;
        int n = 0;
        for (int x = 0; x < W; x++) {
            const int p = y * W + x;
            if ((g_classes[p] & SW_RENDER_CLASS_MASK) != SW_RENDER_CLASS_STAGE) continue;
            sum += fabs(luma(&g_hdr[1][p * 4]) - luma(&g_hdr[0][p * 4]));
            n++;
        }
        if (n >= W / 8) change[count] = sum / n, rows[count++] = y;
    }
    SW_CHECK(count >= 40);
    if (count < 40) return;
    double near_half = 0.0, far_half = 0.0, near_quarter = 0.0, far_quarter = 0.0;
    const int half = count / 2, quarter = count / 4;
    for (int i = 0; i < half; i++) near_half += change[i], far_half += change[count - 1 - i];
    for (int i = 0; i < quarter; i++) near_quarter += change[i], far_quarter += change[count - 1 - i];
    printf("  %d stage rows (image rows %d..%d from the bottom); mean |luma change| per row: near half %.4f, far "
           "half %.4f (x%.2f); nearest quarter %.4f, farthest quarter %.4f (x%.2f)\n",
           count, rows[0], rows[count - 1], near_half / half, far_half / half, far_half / near_half,
           near_quarter / quarter, far_quarter / quarter, far_quarter / near_quarter);
    SW_CHECK(near_half > 0.0);
    SW_CHECK(far_half >= 1.5 * near_half);
    SW_CHECK(far_quarter >= 1.5 * near_quarter);
}

int main(void) {
    int early = sw_test_gl_begin(&g_context);
    if (early >= 0) return early;
    if (!load()) return 1;
    SW_RUN(test_far_changes_more);
    sw_material_set_free(&g_materials);
    sw_model_free(g_demo);
    sw_model_free(g_stage);
    free(g_pose_memory);
    sw_gl_context_destroy(g_context);
    return sw_test_finish();
}
