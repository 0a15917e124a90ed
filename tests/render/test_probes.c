/* Environment probes on the GPU (sw_renderer_capture_probe,
   sw_renderer_set_probes; docs/probes.md). On the demo stage:
     - a probe captured beside the red low wall (its +X face at x = −3.25,
       docs/demo-stage.md) is redder towards −X than towards +X (its SH9
       evaluated by the C reference, sw__sh9_irradiance);
     - the demo character standing there, lit by that probe, is redder on
       the wall's side than on the other: with the sun from below (the
       pictures differ by the ambient alone), her edge pixels turned to −X
       (the wall) gain more red against green + blue from the hemisphere
       ambient to the probe's than those turned to +X (measured: toon
       1.025 against 1.004, PBR 1.003 against 0.945);
     - bad probes are refused.
   Skips, saying so, only when no EGL display exists at all. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "gl_harness.h"
#include "sinew/demo.h"
#include "sinew/gltf.h"
#include "sinew/import.h"
#include "sinew/materials.h"
#include "sinew/render.h"

#include "../../src/render/probe_math.h"

#define W 160
#define H 120
#define FACE 32

static sw_gl_context* g_context;
static sw_model* g_demo;
static sw_model* g_stage;
static sw_material_set g_materials;
static sw_pose g_pose;
static void* g_pose_memory;

static bool load(void) {
    uint8_t *glb = NULL, *stage_glb = NULL;
    size_t size = 0, stage_size = 0;
    sw_diag d;
    bool ok = sw_demo_character_glb(&glb, &size, &d) == SW_OK &&
              sw_gltf_load_memory(glb, size, SW_DEMO_CHARACTER_NAME, NULL, NULL, &g_demo, &d) == SW_OK &&
              sw_material_set_read(g_demo, &g_materials, &d) == SW_OK &&
              sw_demo_stage_glb(&stage_glb, &stage_size, &d) == SW_OK &&
              sw_gltf_load_memory(stage_glb, stage_size, SW_DEMO_STAGE_NAME, NULL, NULL, &g_stage, &d) == SW_OK;
    sw_demo_character_glb_free(glb);
    sw_demo_stage_glb_free(stage_glb);
    if (!ok) {
        fprintf(stderr, "load: %s\n", d.message);
        return false;
    }
    sw_pose_sizes sizes = sw_pose_sizes_of(g_demo);
    g_pose_memory = aligned_alloc(16, (sw_pose_memory_size(&sizes) + 15) / 16 * 16);
    sw_pose_bind(&g_pose, &sizes, g_pose_memory);
    return sw_pose_evaluate(g_demo, NULL, 0.0f, false, &g_pose, &d) == SW_OK;
}

static sw_renderer* make_renderer(int width, int height) {
    sw_diag d;
    sw_renderer* r = NULL;
    sw_render_stage_model stage = {.model = g_stage, .materials = NULL, .placement = sw_mat34_identity()};
    if (sw_renderer_create(&(sw_renderer_desc){.width = width, .height = height, .shadow_map_size = 512}, &r, &d) != SW_OK ||
        sw_renderer_set_scene(r, g_demo, &g_materials, &d) != SW_OK || sw_renderer_set_stage(r, &stage, 1, &d) != SW_OK) {
        fprintf(stderr, "  renderer: %s\n", d.message);
        sw_renderer_destroy(r);
        return NULL;
    }
    return r;
}

/* She stands 0.75 m from the wall's face, facing +Z; the wall is on her right (−X). */
static const float g_stand[3] = {-2.5f, 0.0f, 0.4f};
static const float g_probe_at[3] = {-2.6f, 0.8f, 0.4f};

static float red_share(const float* rgba) {
    float sum = rgba[0] + rgba[1] + rgba[2];
    return sum > 0.0f ? rgba[0] / sum : 0.0f;
}

/* Her pixels' summed HDR colour on her left and right edges (left: −X). */
static bool sides(sw_renderer* r, const sw_render_frame* f, double out[2][3]) {
    static float hdr[W * H * 4];
    static uint8_t classes[W * H];
    sw_diag d;
    if (sw_renderer_draw(r, f, &d) != SW_OK || sw_renderer_read_hdr(r, hdr, &d) != SW_OK ||
        sw_renderer_read_class(r, classes, &d) != SW_OK) {
        fprintf(stderr, "  draw: %s\n", d.message);
        return false;
    }
    /* Per row, her first and last EDGE pixels: the surfaces turned to −X
       and to +X. */
    enum { EDGE = 4 };
    memset(out, 0, sizeof(double) * 6);
    int rows = 0;
    for (int y = 0; y < H; y++) {
        int first = -1, last = -1;
        for (int x = 0; x < W; x++) {
            int c = classes[y * W + x] & SW_RENDER_CLASS_MASK;
            if (c != SW_RENDER_CLASS_LIT && c != SW_RENDER_CLASS_TOON) continue;
            if (first < 0) first = x;
            last = x;
        }
        if (first < 0 || last - first < 4 * EDGE) continue;
        rows++;
        for (int e = 0; e < EDGE; e++)
            for (int k = 0; k < 3; k++) {
                out[0][k] += hdr[(y * W + first + e) * 4 + k];
                out[1][k] += hdr[(y * W + last - e) * 4 + k];
            }
    }
    if (rows < 20) return false;
    return true;
}

/* How much more red grows than green and blue from `before` to `after`:
   (R1/R0) / ((G1 + B1)/(G0 + B0)). */
static double red_gain(const double before[3], const double after[3]) {
    return (after[0] / before[0]) / ((after[1] + after[2]) / (before[1] + before[2]));
}

static void test_red_wall(void) {
    sw_diag d;
    sw_renderer* capture = make_renderer(FACE, FACE);
    sw_renderer* r = make_renderer(W, H);
    SW_CHECK(capture && r);
    if (!capture || !r) goto done;

    /* The capture: she stands far off, out of the probe's view. */
    sw_mat34 away = sw_mat34_identity();
    away.m[0][3] = 40.0f, away.m[2][3] = 40.0f;
    sw_render_frame frame = {.pose = &g_pose, .first_frame = true, .placement = &away};
    /* The sun from straight below: no direct light on her sides, so the
       pictures differ by the ambient alone. */
    frame.shading.light_direction[1] = -1.0f;
    sw_render_probe probe = {.position = {g_probe_at[0], g_probe_at[1], g_probe_at[2]},
                             .box_min = {-3.25f, 0.0f, -0.8f}, .box_max = {-1.6f, 2.2f, 1.6f}, .fade = 0.5f};
    SW_CHECK(sw_renderer_capture_probe(capture, &frame, probe.position, probe.sh9, &d) == SW_OK);
    float towards_wall[3], away_from_wall[3];
    sw__sh9_irradiance((const float(*)[3])probe.sh9, (const float[3]){-1, 0, 0}, towards_wall);
    sw__sh9_irradiance((const float(*)[3])probe.sh9, (const float[3]){1, 0, 0}, away_from_wall);
    printf("  probe irradiance towards the wall %.3f %.3f %.3f (red share %.3f), away %.3f %.3f %.3f (%.3f)\n",
           towards_wall[0], towards_wall[1], towards_wall[2], red_share((float[4]){towards_wall[0], towards_wall[1], towards_wall[2], 0}),
           away_from_wall[0], away_from_wall[1], away_from_wall[2],
           red_share((float[4]){away_from_wall[0], away_from_wall[1], away_from_wall[2], 0}));
    SW_CHECK(red_share((float[4]){towards_wall[0], towards_wall[1], towards_wall[2], 0}) >
             red_share((float[4]){away_from_wall[0], away_from_wall[1], away_from_wall[2], 0}) + 0.05f);

    /* She stands beside the wall, seen from the front (+Z): −X on the left. */
    sw_mat34 there = sw_mat34_identity();
    there.m[0][3] = g_stand[0], there.m[2][3] = g_stand[2];
    const sw_camera camera = {.eye = {g_stand[0], 1.0f, 3.2f}, .target = {g_stand[0], 0.85f, g_stand[2]}, .up = {0, 1, 0},
                              .fov_y = 0.75f, .z_near = 0.05f, .z_far = 100.0f};
    frame.placement = &there;
    frame.camera.current = frame.camera.previous = camera;
    for (int style = 0; style < 2; style++) {
        frame.shading.style = style ? SW_RENDER_STYLE_PBR : SW_RENDER_STYLE_AUTO;
        double hemisphere[2][3], probed[2][3], cleared[2][3];
        SW_CHECK(sw_renderer_set_probes(r, NULL, 0, &d) == SW_OK);
        SW_CHECK(sides(r, &frame, hemisphere));
        SW_CHECK(sw_renderer_set_probes(r, &probe, 1, &d) == SW_OK);
        SW_CHECK(sides(r, &frame, probed));
        double gain_wall = red_gain(hemisphere[0], probed[0]), gain_other = red_gain(hemisphere[1], probed[1]);
        printf("  %s: red gain from the probe, wall side %.4f, other side %.4f\n", style ? "pbr" : "toon", gain_wall,
               gain_other);
        SW_CHECK(gain_wall > gain_other * 1.01);
        /* Cleared: the hemisphere again, the same picture. */
        SW_CHECK(sw_renderer_set_probes(r, NULL, 0, &d) == SW_OK);
        SW_CHECK(sides(r, &frame, cleared));
        for (int k = 0; k < 3; k++) SW_CHECK(cleared[0][k] == hemisphere[0][k] && cleared[1][k] == hemisphere[1][k]);
    }
done:
    sw_renderer_destroy(capture);
    sw_renderer_destroy(r);
}

static void test_refused(void) {
    sw_diag d;
    sw_renderer* r = make_renderer(W, H);
    SW_CHECK(r != NULL);
    if (!r) return;
    sw_render_probe bad = {.box_min = {1, 0, 0}, .box_max = {0, 1, 1}, .fade = 0.1f};
    SW_CHECK(sw_renderer_set_probes(r, &bad, 1, &d) == SW_ERR_INVALID_ARGUMENT);
    SW_CHECK(strstr(d.message, "probe 0") != NULL);
    bad.box_min[0] = 0, bad.sh9[4][1] = NAN;
    SW_CHECK(sw_renderer_set_probes(r, &bad, 1, &d) == SW_ERR_INVALID_ARGUMENT);
    SW_CHECK(sw_renderer_set_probes(r, &bad, SW_RENDER_PROBE_MAX + 1, &d) == SW_ERR_INVALID_ARGUMENT);
    sw_render_frame frame = {.pose = &g_pose, .first_frame = true};
    float sh[9][3];
    SW_CHECK(sw_renderer_capture_probe(r, &frame, (const float[3]){0, 1, 0}, sh, &d) == SW_ERR_INVALID_ARGUMENT);
    SW_CHECK(strstr(d.message, "square") != NULL);
    sw_renderer_destroy(r);
}

int main(void) {
    int early = sw_test_gl_begin(&g_context);
    if (early >= 0) return early;
    if (!load()) return 1;
    SW_RUN(test_red_wall);
    SW_RUN(test_refused);
    sw_material_set_free(&g_materials);
    sw_model_free(g_demo);
    sw_model_free(g_stage);
    free(g_pose_memory);
    sw_gl_context_destroy(g_context);
    return sw_test_finish();
}
