/* Stages (sinew/render.h, "Stages"): the demo character drawn with the
   stage fixture (tests/data/stage/make_stage.py: a green ground quad at
   y = 0, a red unit box whose top is at y = 1 over x in [1.5, 2.5], a blue
   ramp, a grey wall), 160 × 120:
     - the stage's bounds are the fixture's, worked out by hand;
     - the stage's colours appear where the camera projects its points
       (the box top red, the ground green), the built-in ground is gone;
     - the character's pixels are the same class, and nearly the same
       colour, where the stage does not cover them;
     - a static stage is skinned once: two frames of a moving character
       dispatch as many skinnings with a stage as without;
     - a frame's placement moves the character's pixels as the camera
       projects the move, and a frame that moves her has that motion;
     - a stage pose moves a stage model;
     - bad calls are refused.
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

#define W 160
#define H 120

static sw_gl_context* g_context;
static sw_model* g_demo;
static sw_model* g_stage;
static sw_material_set g_materials;
static sw_pose g_poses[2];
static void* g_pose_memory;

static const sw_clip* walk_clip(void) {
    for (size_t i = 0; i < g_demo->animation_count; i++)
        if (g_demo->animations[i].name && strcmp(g_demo->animations[i].name, "walk") == 0) return &g_demo->animations[i];
    return g_demo->animation_count ? &g_demo->animations[0] : NULL;
}

static bool load(void) {
    uint8_t* glb = NULL;
    size_t size = 0;
    sw_diag d;
    bool ok = sw_demo_character_glb(&glb, &size, &d) == SW_OK &&
              sw_gltf_load_memory(glb, size, SW_DEMO_CHARACTER_NAME, NULL, NULL, &g_demo, &d) == SW_OK &&
              sw_material_set_read(g_demo, &g_materials, &d) == SW_OK &&
              sw_gltf_load_file(SW_TEST_DATA_DIR "/stage/stage.gltf", NULL, &g_stage, &d) == SW_OK;
    sw_demo_character_glb_free(glb);
    if (!ok) {
        fprintf(stderr, "load: %s\n", d.message);
        return false;
    }
    sw_pose_sizes sizes = sw_pose_sizes_of(g_demo);
    size_t stride = sw_pose_memory_size(&sizes);
    g_pose_memory = aligned_alloc(16, stride * 2);
    for (int i = 0; i < 2; i++) {
        sw_pose_bind(&g_poses[i], &sizes, (uint8_t*)g_pose_memory + (size_t)i * stride);
        if (sw_pose_evaluate(g_demo, walk_clip(), 0.3f * (float)i, true, &g_poses[i], &d) != SW_OK) return false;
    }
    return true;
}

typedef struct picture {
    uint8_t rgba[W * H * 4];
    uint8_t classes[W * H]; /* rows bottom to top, as read */
} picture;

static bool draw(sw_renderer* r, const sw_render_frame* f, picture* out) {
    sw_diag d;
    bool ok = sw_renderer_draw(r, f, &d) == SW_OK && sw_renderer_read_image(r, out->rgba, &d) == SW_OK &&
              sw_renderer_read_class(r, out->classes, &d) == SW_OK;
    if (!ok) fprintf(stderr, "  draw: %s\n", d.message);
    return ok;
}

static const sw_camera g_camera = {
    .eye = {0.6f, 1.6f, 5.5f}, .target = {0.6f, 0.7f, 0.0f}, .up = {0, 1, 0}, .fov_y = 0.75f, .z_near = 0.05f, .z_far = 100.0f};

/* Where the camera puts world point p: column x and row y from the top. */
static void project(const float p[3], float* x, float* y) {
    float m[16];
    sw_camera_view_projection(&g_camera, (float)W / H, m);
    float c[4];
    for (int row = 0; row < 4; row++) c[row] = m[row] * p[0] + m[4 + row] * p[1] + m[8 + row] * p[2] + m[12 + row];
    *x = (c[0] / c[3] * 0.5f + 0.5f) * W;
    *y = (1.0f - (c[1] / c[3] * 0.5f + 0.5f)) * H;
}

static const uint8_t* pixel_at(const picture* p, const float world[3]) {
    float x, y;
    project(world, &x, &y);
    int ix = (int)x, iy = (int)y;
    if (ix < 0) ix = 0;
    if (ix >= W) ix = W - 1;
    if (iy < 0) iy = 0;
    if (iy >= H) iy = H - 1;
    return &p->rgba[((size_t)iy * W + (size_t)ix) * 4];
}

static int class_at(const picture* p, int x, int row_from_top) {
    return p->classes[(size_t)(H - 1 - row_from_top) * W + (size_t)x] & SW_RENDER_CLASS_MASK;
}

static bool is_character(int c) { return c != SW_RENDER_CLASS_BACKGROUND && c != SW_RENDER_CLASS_GROUND; }

/* The character's pixels in a picture without a stage: their count and centroid. */
static size_t centroid(const picture* p, float* cx, float* cy) {
    size_t n = 0;
    double sx = 0, sy = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            if (is_character(class_at(p, x, y))) n++, sx += x, sy += y;
    *cx = n ? (float)(sx / (double)n) : 0, *cy = n ? (float)(sy / (double)n) : 0;
    return n;
}

static sw_renderer* make_renderer(void) {
    sw_diag d;
    sw_renderer* r = NULL;
    if (sw_renderer_create(&(sw_renderer_desc){.width = W, .height = H, .shadow_map_size = 512}, &r, &d) != SW_OK ||
        sw_renderer_set_scene(r, g_demo, &g_materials, &d) != SW_OK) {
        fprintf(stderr, "  renderer: %s\n", d.message);
        sw_renderer_destroy(r);
        return NULL;
    }
    return r;
}

static const sw_render_stage_model* stage_of(void) {
    static sw_render_stage_model s;
    s = (sw_render_stage_model){.model = g_stage, .materials = NULL, .placement = sw_mat34_identity()};
    return &s;
}

static void test_stage_pictures(void) {
    sw_diag d;
    static picture plain, staged, second_plain, second_staged;
    sw_renderer* bare = make_renderer();
    sw_renderer* r = make_renderer();
    SW_CHECK(bare && r);
    if (!bare || !r) goto done;
    SW_CHECK(sw_renderer_set_stage(r, stage_of(), 1, &d) == SW_OK);

    /* The stage's bounds: the ground's x and z, the wall's top tan 60°. */
    float lo[3], hi[3];
    SW_CHECK(sw_renderer_stage_bounds(r, lo, hi));
    const double want_lo[3] = {-10.0, 0.0, -10.0}, want_hi[3] = {10.0, sqrt(3.0), 10.0};
    for (int k = 0; k < 3; k++) {
        SW_CHECK_NEAR(lo[k], want_lo[k], 1e-5);
        SW_CHECK_NEAR(hi[k], want_hi[k], 1e-5);
    }
    SW_CHECK(!sw_renderer_stage_bounds(bare, lo, hi));

    sw_render_frame frame = {.pose = &g_poses[0], .camera.current = g_camera, .camera.previous = g_camera,
                             .first_frame = true, .shading.style = SW_RENDER_STYLE_AUTO};
    sw_renderer_stats before_bare, before, after_bare, after;
    bool ok = draw(bare, &frame, &plain) && draw(r, &frame, &staged);
    sw_renderer_get_stats(bare, &before_bare);
    sw_renderer_get_stats(r, &before);
    /* A second frame, the character walking on: the static stage is not skinned again. */
    sw_render_frame next = frame;
    next.pose = &g_poses[1], next.first_frame = false;
    ok = ok && draw(bare, &next, &second_plain) && draw(r, &next, &second_staged);
    sw_renderer_get_stats(bare, &after_bare);
    sw_renderer_get_stats(r, &after);
    SW_CHECK(ok);
    if (!ok) goto done;
    const uint64_t dispatched_bare = after_bare.skin.dispatched - before_bare.skin.dispatched;
    const uint64_t dispatched = after.skin.dispatched - before.skin.dispatched;
    fprintf(stderr, "  second frame: %llu dispatches without the stage, %llu with it; skipped %llu and %llu\n",
            (unsigned long long)dispatched_bare, (unsigned long long)dispatched,
            (unsigned long long)(after_bare.skin.skipped - before_bare.skin.skipped),
            (unsigned long long)(after.skin.skipped - before.skin.skipped));
    SW_CHECK(dispatched_bare > 0);
    SW_CHECK_EQ_INT((long long)dispatched, (long long)dispatched_bare);
    SW_CHECK_EQ_INT((long long)(after.skin.skipped - before.skin.skipped),
                    (long long)(after_bare.skin.skipped - before_bare.skin.skipped));
    SW_CHECK_EQ_INT((long long)after.primitives, (long long)after_bare.primitives + 4);

    /* The box's top face (seen from above) is red, the ground in front green. */
    const float box_top[3] = {2.0f, 1.0f, 0.3f}, ground[3] = {-1.2f, 0.0f, 2.0f};
    const uint8_t* red = pixel_at(&staged, box_top);
    const uint8_t* green = pixel_at(&staged, ground);
    fprintf(stderr, "  box top %d %d %d, ground %d %d %d\n", red[0], red[1], red[2], green[0], green[1], green[2]);
    SW_CHECK(red[0] > red[1] + 40 && red[0] > red[2] + 40);
    SW_CHECK(green[1] > green[0] + 30 && green[1] > green[2] + 30);
    float bx, by;
    project(box_top, &bx, &by);
    SW_CHECK_EQ_INT(class_at(&staged, (int)bx, (int)by), SW_RENDER_CLASS_STAGE); /* lit, and decals land there */
    const uint8_t* no_box = pixel_at(&plain, box_top);
    SW_CHECK(!(no_box[0] > no_box[1] + 40)); /* not red without the stage */
    /* No built-in ground with a stage. */
    size_t ground_class = 0, kept = 0, character = 0, moved = 0;
    long colour = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            ground_class += class_at(&staged, x, y) == SW_RENDER_CLASS_GROUND;
            const int c = class_at(&plain, x, y);
            if (!is_character(c)) continue;
            character++;
            if (class_at(&staged, x, y) != c) continue; /* covered by the stage */
            kept++;
            const uint8_t* a = &plain.rgba[((size_t)y * W + (size_t)x) * 4];
            const uint8_t* b = &staged.rgba[((size_t)y * W + (size_t)x) * 4];
            for (int k = 0; k < 3; k++) colour += abs((int)a[k] - (int)b[k]);
            moved += abs((int)a[0] - (int)b[0]) > 48 || abs((int)a[1] - (int)b[1]) > 48 || abs((int)a[2] - (int)b[2]) > 48;
        }
    const double mean = kept ? (double)colour / (3.0 * (double)kept) : 255.0;
    fprintf(stderr, "  character pixels %zu, kept %zu, mean colour change %.2f/255, %zu changed a lot\n", character,
            kept, mean, moved);
    SW_CHECK_EQ_INT((long long)ground_class, 0);
    SW_CHECK(character > 300);
    SW_CHECK(kept * 100 >= character * 97); /* the stage stands beside her, not in front */
    SW_CHECK(mean < 6.0);
    SW_CHECK(moved * 100 < kept * 3);
done:
    sw_renderer_destroy(bare);
    sw_renderer_destroy(r);
}

static void test_placement(void) {
    static picture at_origin, placed;
    sw_renderer* r = make_renderer();
    SW_CHECK(r != NULL);
    if (!r) return;
    /* One scene box for both frames, so that only the character moves. */
    const float lo[3] = {-1.0f, 0.0f, -1.0f}, hi[3] = {1.5f, 1.8f, 1.0f};
    sw_renderer_set_scene_box(r, lo, hi);
    sw_render_frame frame = {.pose = &g_poses[0], .camera.current = g_camera, .camera.previous = g_camera,
                             .first_frame = true, .shading.style = SW_RENDER_STYLE_AUTO};
    const sw_mat34 move = sw_mat34_translation(sw_vec3_make(0.5f, 0.0f, 0.0f));
    sw_render_frame moved = frame;
    moved.placement = &move;
    bool ok = draw(r, &frame, &at_origin) && draw(r, &moved, &placed);
    SW_CHECK(ok);
    if (ok) {
        float x0, y0, x1, y1;
        const size_t n0 = centroid(&at_origin, &x0, &y0), n1 = centroid(&placed, &x1, &y1);
        /* The move as projected at the character's middle (hips height). */
        const float a[3] = {0.0f, 0.9f, 0.0f}, b[3] = {0.5f, 0.9f, 0.0f};
        float ax, ay, bx, by;
        project(a, &ax, &ay), project(b, &bx, &by);
        fprintf(stderr, "  centroid moved %.2f, %.2f px; the projected move %.2f, %.2f px (%zu, %zu pixels)\n", x1 - x0,
                y1 - y0, bx - ax, by - ay, n0, n1);
        SW_CHECK(n0 > 300);
        SW_CHECK_NEAR(x1 - x0, bx - ax, 1.0);
        SW_CHECK_NEAR(y1 - y0, by - ay, 1.0);
        /* The placed frame after the unplaced one: its motion vectors are
           the move (texture coordinates, current - previous), since the
           placement is folded into the palettes the previous positions
           come from. The median over her pixels (depths differ a little). */
        moved.first_frame = false;
        static picture again;
        static float motion[W * H * 2];
        static float xs[W * H];
        sw_diag d;
        ok = draw(r, &frame, &again) && draw(r, &moved, &placed) && sw_renderer_read_motion(r, motion, &d) == SW_OK;
        SW_CHECK(ok);
        size_t n = 0;
        for (int y = 0; ok && y < H; y++)
            for (int x = 0; x < W; x++)
                if (is_character(class_at(&placed, x, y))) xs[n++] = motion[((size_t)(H - 1 - y) * W + (size_t)x) * 2];
        for (size_t i = 1; i < n; i++) /* insertion sort: a few hundred values */
            for (size_t j = i; j > 0 && xs[j - 1] > xs[j]; j--) {
                const float t = xs[j];
                xs[j] = xs[j - 1], xs[j - 1] = t;
            }
        const float median = n ? xs[n / 2] * W : 0.0f;
        fprintf(stderr, "  motion of the move: median %.2f px over %zu pixels (projected %.2f)\n", median, n, bx - ax);
        SW_CHECK(n > 300);
        SW_CHECK_NEAR(median, bx - ax, 0.1 * (bx - ax));
    }
    sw_renderer_destroy(r);
}

static void test_stage_pose_and_errors(void) {
    sw_diag d;
    static picture rest, lifted;
    sw_renderer* r = make_renderer();
    SW_CHECK(r != NULL);
    if (!r) return;
    /* Before a scene: refused. */
    sw_renderer* empty = NULL;
    SW_CHECK(sw_renderer_create(&(sw_renderer_desc){.width = 16, .height = 16, .shadow_map_size = 64}, &empty, &d) ==
             SW_OK);
    SW_CHECK(sw_renderer_set_stage(empty, stage_of(), 1, &d) == SW_ERR_INVALID_ARGUMENT);
    sw_renderer_destroy(empty);
    /* A material set of another model: refused, naming the stage model. */
    sw_render_stage_model wrong = *stage_of();
    wrong.materials = &g_materials;
    SW_CHECK(sw_renderer_set_stage(r, &wrong, 1, &d) == SW_ERR_INVALID_ARGUMENT);
    SW_CHECK(strstr(d.message, "stage model 0") != NULL);

    /* A stage pose: the box (node 1) lifted by 0.5 m. */
    SW_CHECK(sw_renderer_set_stage(r, stage_of(), 1, &d) == SW_OK);
    sw_pose_sizes sizes = sw_pose_sizes_of(g_stage);
    void* memory = aligned_alloc(16, sw_pose_memory_size(&sizes));
    sw_pose pose;
    sw_pose_bind(&pose, &sizes, memory);
    sw_pose_rest(g_stage, &pose);
    pose.local[1].translation.y += 0.5f;
    sw_pose_update(g_stage, &pose);
    const sw_pose* poses[1] = {&pose};
    sw_render_frame frame = {.pose = &g_poses[0], .camera.current = g_camera, .camera.previous = g_camera,
                             .first_frame = true, .shading.style = SW_RENDER_STYLE_AUTO};
    sw_render_frame posed = frame;
    posed.stage_poses = poses;
    bool ok = draw(r, &frame, &rest) && draw(r, &posed, &lifted);
    SW_CHECK(ok);
    if (ok) {
        /* The box's front face at y 1.2: above the box at rest, red when lifted. */
        const float p[3] = {2.0f, 1.3f, 0.5f};
        const uint8_t* a = pixel_at(&rest, p);
        const uint8_t* b = pixel_at(&lifted, p);
        fprintf(stderr, "  above the box at rest %d %d %d, lifted %d %d %d\n", a[0], a[1], a[2], b[0], b[1], b[2]);
        SW_CHECK(!(a[0] > a[1] + 40));
        SW_CHECK(b[0] > b[1] + 40 && b[0] > b[2] + 40);
    }
    /* Cleared: no stage, the built-in ground again. */
    SW_CHECK(sw_renderer_set_stage(r, NULL, 0, &d) == SW_OK);
    float lo[3], hi[3];
    SW_CHECK(!sw_renderer_stage_bounds(r, lo, hi));
    free(memory);
    sw_renderer_destroy(r);
}

int main(void) {
    int early = sw_test_gl_begin(&g_context);
    if (early >= 0) return early;
    if (!load()) return 1;
    SW_RUN(test_stage_pictures);
    SW_RUN(test_placement);
    SW_RUN(test_stage_pose_and_errors);
    sw_material_set_free(&g_materials);
    sw_model_free(g_demo);
    sw_model_free(g_stage);
    free(g_pose_memory);
    sw_gl_context_destroy(g_context);
    return sw_test_finish();
}
