/* The character's environment feedback on the GPU (src/render/feedback_pass.c,
   shaders/feedback.comp; docs/feedback.md), 160×120, the demo character
   (metallic-roughness) on the demo stage, a low sun from −X:
     - the first frame with the feedback on is the same picture as with it
       off (the state is read one frame late);
     - after 30 frames standing beside the red low wall, in its shadow,
       she is darker than with the feedback off by more than she is out
       in the sun, and redder on the wall's side than on the other;
     - turned off, the picture is the plain one again (the state resets).
     - she is followed: with the scene box kept where she started (in the
       sun), moved into the brick wall's shadow by her placement, the frame
       she arrives is still lit by the old state and the next ones darken.
     - toon materials (toon.frag) darken in the shadow too, and only hers:
       with her hidden, the toon-styled stage is the same picture on and off.
   The GL part skips, saying so, only when no EGL display exists. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "gl_harness.h"
#include "sinew/demo.h"
#include "sinew/gltf.h"
#include "sinew/import.h"
#include "sinew/materials.h"
#include "sinew/render.h"
#include "test_stage_scene.h"

#define W 160
#define H 120
#define FRAMES 10

static sw_gl_context* g_context;
static sw_model* g_demo;
static sw_model* g_stage;
static sw_material_set g_materials, g_stage_materials;
static sw_pose g_pose;
static void* g_pose_memory;
static sw_renderer* g_renderer; /* one for every test: its shaders compile once */

/* The renderer with her on the demo stage. */
static bool make_renderer(void) {
    sw_diag d = {0};
    const sw_render_stage_model stage = {.model = g_stage, .materials = &g_stage_materials,
                                         .placement = sw_mat34_identity()};
    if (sw_renderer_create(&(sw_renderer_desc){.width = W, .height = H, .shadow_map_size = 1024}, &g_renderer, &d) !=
            SW_OK ||
        sw_renderer_set_scene(g_renderer, g_demo, &g_materials, &d) != SW_OK ||
        sw_renderer_set_stage(g_renderer, &stage, 1, &d) != SW_OK) {
        fprintf(stderr, "  renderer: %s\n", d.message);
        return false;
    }
    return true;
}

static bool load(void) {
    if (!test_stage_scene_load(&g_demo, &g_materials, &g_stage, &g_stage_materials)) return false;
    sw_diag d = {0};
    sw_pose_sizes sizes = sw_pose_sizes_of(g_demo);
    g_pose_memory = aligned_alloc(16, sw_pose_memory_size(&sizes));
    sw_pose_bind(&g_pose, &sizes, g_pose_memory);
    return sw_pose_evaluate(g_demo, NULL, 0.0f, true, &g_pose, &d) == SW_OK;
}

typedef struct picture {
    uint8_t rgba[W * H * 4];
    uint8_t classes[W * H];
} picture;

/* The light: from behind the brick wall (front face at z = −4, 2.6
   high), elevation 26.6°: its shadow covers the ground to z = +1.2, 1.85
   high at z = −2.5; at z = 2.5 she stands in the sun. */
static const float g_light[3] = {0.0f, 0.447f, -0.894f};

/* Draws `frames` frames with her standing at (x, 0, z), the camera 4
   units in front; keeps the last. */
static sw_render_style g_style = SW_RENDER_STYLE_PBR;
static const uint8_t* g_hidden; /* her nodes' hidden flags for run(), NULL: all drawn */

static bool run(sw_renderer* r, float x, float z, bool feedback, int frames, picture* out) {
    sw_diag d = {0};
    const sw_mat34 place = sw_mat34_translation(sw_vec3_make(x, 0.0f, z));
    float lo[3], hi[3];
    if (sw_renderer_scene_bounds(r, &g_pose, lo, hi, &d) != SW_OK) return false;
    lo[0] += x, hi[0] += x, lo[2] += z, hi[2] += z;
    sw_renderer_set_scene_box(r, lo, hi);
    const sw_camera cam = {.eye = {x, 1.1f, z + 3.6f}, .target = {x, 0.8f, z}, .up = {0, 1, 0}, .fov_y = 0.75f,
                           .z_near = 0.05f, .z_far = 100.0f};
    for (int i = 0; i < frames; i++) {
        sw_render_frame f = {.pose = &g_pose, .placement = &place, .camera.current = cam, .camera.previous = cam,
                             .first_frame = i == 0, .shading.style = g_style,
                             .shading.env_feedback = feedback, .avatar.hidden_nodes = g_hidden};
        memcpy(f.shading.light_direction, g_light, sizeof g_light);
        if (sw_renderer_draw(r, &f, &d) != SW_OK) break;
    }
    bool ok = sw_renderer_read_image(r, out->rgba, &d) == SW_OK && sw_renderer_read_class(r, out->classes, &d) == SW_OK;
    if (!ok) fprintf(stderr, "  draw: %s\n", d.message);
    return ok;
}

static bool is_character(const picture* p, size_t i) {
    return (p->classes[i] & SW_RENDER_CLASS_MASK) == SW_RENDER_CLASS_LIT;
}

/* Over her pixels: the mean luma, and the mean of R − G over the left
   and right thirds of each row of her silhouette (the pixels whose
   normals face most to the side). Her pixels: `mask`'s metallic-
   roughness class (a picture of the same view in that style). */
typedef struct measure {
    double luma, red_left, red_right;
    size_t count;
} measure;

static measure measure_of(const picture* p, const picture* mask) {
    measure m = {0};
    size_t left = 0, right = 0;
    for (int y = 0; y < H; y++) {
        int first = W, last = -1;
        for (int x = 0; x < W; x++)
            if (is_character(mask, (size_t)y * W + (size_t)x)) first = x < first ? x : first, last = x;
        if (last < first) continue;
        const double third = (double)(last - first + 1) / 3.0;
        for (int x = first; x <= last; x++) {
            const size_t i = (size_t)y * W + (size_t)x;
            if (!is_character(mask, i)) continue;
            const uint8_t* c = &p->rgba[i * 4];
            m.luma += 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
            m.count++;
            const double red = (double)c[0] - (double)c[1];
            if (x < first + third) m.red_left += red, left++;
            else if (x > last - third) m.red_right += red, right++;
        }
    }
    m.luma /= m.count ? (double)m.count : 1.0;
    m.red_left /= left ? (double)left : 1.0;
    m.red_right /= right ? (double)right : 1.0;
    return m;
}

static void test_feedback_pictures(void) {
    sw_renderer* r = g_renderer;
    static picture off_wall, first_wall, on_wall, off_shade, on_shade, off_sun, on_sun, off_again;
    /* Beside the red wall (its +X face at x = −3.25), 0.55 units out; in
       the brick wall's shadow; in the sun. */
    const float wall[2] = {-2.7f, 0.4f}, shade[2] = {1.5f, -2.5f}, sun[2] = {1.5f, 2.5f};
    bool ok = run(r, wall[0], wall[1], false, 1, &off_wall) && run(r, wall[0], wall[1], true, 1, &first_wall) &&
              run(r, wall[0], wall[1], true, FRAMES - 1, &on_wall) &&
              run(r, shade[0], shade[1], false, 1, &off_shade) && run(r, shade[0], shade[1], true, FRAMES, &on_shade) &&
              run(r, sun[0], sun[1], false, 1, &off_sun) && run(r, sun[0], sun[1], true, FRAMES, &on_sun) &&
              run(r, wall[0], wall[1], false, 1, &off_again);
    /* The toon materials (toon.frag) read it the same way. */
    static picture toon_off, toon_on;
    g_style = SW_RENDER_STYLE_TOON;
    ok = ok && run(r, shade[0], shade[1], false, FRAMES, &toon_off) && run(r, shade[0], shade[1], true, FRAMES, &toon_on);
    /* Only her draws read it: with her hidden, the toon stage is the same
       picture with the feedback on (its state still updates around her box). */
    static picture hidden_off, hidden_on;
    uint8_t* hidden = calloc(g_demo->node_count ? g_demo->node_count : 1, 1);
    if (hidden) memset(hidden, 1, g_demo->node_count);
    g_hidden = hidden;
    ok = ok && hidden && run(r, shade[0], shade[1], false, 3, &hidden_off) && run(r, shade[0], shade[1], true, 3, &hidden_on);
    g_hidden = NULL;
    free(hidden);
    g_style = SW_RENDER_STYLE_PBR;
    SW_CHECK(ok);
    if (!ok) return;
    /* One frame late: the first frame is the plain picture. */
    SW_CHECK(memcmp(first_wall.rgba, off_wall.rgba, sizeof off_wall.rgba) == 0);
    SW_CHECK(memcmp(off_again.rgba, off_wall.rgba, sizeof off_wall.rgba) == 0);
    const measure w0 = measure_of(&off_wall, &off_wall), w1 = measure_of(&on_wall, &on_wall);
    const measure h0 = measure_of(&off_shade, &off_shade), h1 = measure_of(&on_shade, &on_shade);
    const measure s0 = measure_of(&off_sun, &off_sun), s1 = measure_of(&on_sun, &on_sun);
    fprintf(stderr, "  by the red wall: %zu pixels, R−G left %.1f → %.1f, right %.1f → %.1f\n", w0.count, w0.red_left,
            w1.red_left, w0.red_right, w1.red_right);
    fprintf(stderr, "  luma off → on after %d frames: in the shade %.1f → %.1f (%zu pixels), in the sun %.1f → %.1f (%zu)\n",
            FRAMES, h0.luma, h1.luma, h0.count, s0.luma, s1.luma, s0.count);
    const measure t0 = measure_of(&toon_off, &off_shade), t1 = measure_of(&toon_on, &off_shade);
    fprintf(stderr, "  toon materials in the shade: %.1f → %.1f (%zu pixels)\n", t0.luma, t1.luma, t0.count);
    SW_CHECK(w0.count > 300 && h0.count > 300 && s0.count > 300 && t0.count > 300);
    SW_CHECK(t1.luma < t0.luma * 0.9);
    SW_CHECK(memcmp(hidden_off.rgba, hidden_on.rgba, sizeof hidden_on.rgba) == 0);
    /* In the wall's shadow she darkens, far more than in the sun. */
    SW_CHECK(h1.luma < h0.luma * 0.9);
    SW_CHECK(s1.luma > s0.luma * 0.95);
    /* Redder on the wall's side (her right, the picture's left). */
    SW_CHECK((w1.red_left - w0.red_left) > (w1.red_right - w0.red_right) + 1.0);
}

/* One frame of her at (x, 0, z) (her placement; the camera 3.6 in front),
   the feedback `on`, the scene box left as it is; the picture read. */
static bool frame_at(sw_renderer* r, float x, float z, bool on, bool first, picture* out) {
    sw_diag d = {0};
    const sw_mat34 place = sw_mat34_translation(sw_vec3_make(x, 0.0f, z));
    const sw_camera cam = {.eye = {x, 1.1f, z + 3.6f}, .target = {x, 0.8f, z}, .up = {0, 1, 0}, .fov_y = 0.75f,
                           .z_near = 0.05f, .z_far = 100.0f};
    sw_render_frame f = {.pose = &g_pose, .placement = &place, .camera.current = cam, .camera.previous = cam,
                         .first_frame = first, .shading.style = SW_RENDER_STYLE_PBR, .shading.env_feedback = on};
    memcpy(f.shading.light_direction, g_light, sizeof g_light);
    bool ok = sw_renderer_draw(r, &f, &d) == SW_OK && sw_renderer_read_image(r, out->rgba, &d) == SW_OK &&
              sw_renderer_read_class(r, out->classes, &d) == SW_OK;
    if (!ok) fprintf(stderr, "  draw: %s\n", d.message);
    return ok;
}

enum { SUN_FRAMES = 2, SHADE_FRAMES = 3 };

static void test_feedback_follows_her(void) {
    sw_diag d = {0};
    sw_renderer* r = g_renderer;
    const float shade[2] = {1.5f, -2.5f}, sun[2] = {1.5f, 2.5f};
    /* The box where she starts, kept (as `sinew render` keeps the first
       frame's or the clip's): the feedback must not take her place from it. */
    float lo[3], hi[3];
    bool ok = sw_renderer_scene_bounds(r, &g_pose, lo, hi, &d) == SW_OK;
    lo[0] += sun[0], hi[0] += sun[0], lo[2] += sun[1], hi[2] += sun[1];
    sw_renderer_set_scene_box(r, lo, hi);
    static picture off, walked[SHADE_FRAMES], scratch;
    ok = ok && frame_at(r, shade[0], shade[1], false, true, &off);
    for (int i = 0; ok && i < SUN_FRAMES; i++) ok = frame_at(r, sun[0], sun[1], true, false, &scratch);
    for (int i = 0; ok && i < SHADE_FRAMES; i++) ok = frame_at(r, shade[0], shade[1], true, false, &walked[i]);
    SW_CHECK(ok);
    if (!ok) return;
    const measure plain = measure_of(&off, &off);
    double luma[SHADE_FRAMES];
    fprintf(stderr, "  walked into the shadow: off %.1f; on, frames after the move:", plain.luma);
    for (int i = 0; i < SHADE_FRAMES; i++) {
        luma[i] = measure_of(&walked[i], &off).luma;
        fprintf(stderr, " %.1f", luma[i]);
    }
    fprintf(stderr, " (%zu pixels)\n", plain.count);
    SW_CHECK(plain.count > 300);
    /* The frame she arrives: the sun's state, lit (within the tint). */
    SW_CHECK(fabs(luma[0] - plain.luma) < 0.02 * plain.luma);
    /* Then she darkens, frame by frame, to well below the plain picture. */
    SW_CHECK(luma[1] < luma[0] - 1.0);
    SW_CHECK(luma[SHADE_FRAMES - 1] <= luma[1]);
    SW_CHECK(luma[SHADE_FRAMES - 1] < 0.9 * plain.luma);
}

int main(void) {
    int early = sw_test_gl_begin(&g_context);
    if (early >= 0) return early;
    if (!load() || !make_renderer()) return EXIT_FAILURE;
    SW_RUN(test_feedback_pictures);
    SW_RUN(test_feedback_follows_her);
    sw_renderer_destroy(g_renderer);
    sw_gl_context_destroy(g_context);
    sw_model_free(g_stage);
    sw_model_free(g_demo);
    sw_material_set_free(&g_materials);
    sw_material_set_free(&g_stage_materials);
    free(g_pose_memory);
    return sw_test_finish();
}
