/* Deferred box decals (sw_renderer_set_decals; docs/decals.md).
   First the C reference (src/render/decal_math.c) on hand-computed cases,
   no GL; then the pass, 160 × 120, the demo character on the built-in
   ground with a decal box over her left foot and the ground beside it:
     - the HDR colour changes only on ground pixels inside the box's
       screen rectangle; her pixels and everything else keep their values
       bit for bit;
     - the class byte and the motion readbacks are unchanged everywhere;
     - half opacity gives the mean of none and full (the lighting is
       affine in the albedo, so this holds only when the blend is "over"
       in linear colour);
     - a normal map turns the normal target as sw__decal_shade says (the
       normals view), and only inside the box.
   The GL part skips, saying so, only when no EGL display exists. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "gl_harness.h"
#include "sinew/demo.h"
#include "sinew/gltf.h"
#include "sinew/import.h"
#include "sinew/pose.h"
#include "sinew/render.h"

#include "../../src/render/decal_math.h"

/* ---- the C reference ----------------------------------------------------------- */

static void test_box_projection(void) {
    /* Centre (1, 0, 2), 2 m along X, 0.4 m along Y, 1 m along Z. */
    sw_mat34 box = {{{2, 0, 0, 1}, {0, 0.4f, 0, 0}, {0, 0, 1, 2}}}, inverse;
    SW_CHECK(sw__decal_world_to_box(&box, &inverse));
    float local[3], uv[2];
    SW_CHECK(sw__decal_inside(&inverse, (const float[3]){1.5f, 0.1f, 2.25f}, local));
    SW_CHECK_NEAR(local[0], 0.25, 1e-6);
    SW_CHECK_NEAR(local[1], 0.25, 1e-6);
    SW_CHECK_NEAR(local[2], 0.25, 1e-6);
    sw__decal_uv(local, uv);
    SW_CHECK_NEAR(uv[0], 0.75, 1e-6);
    SW_CHECK_NEAR(uv[1], 0.75, 1e-6);
    SW_CHECK(!sw__decal_inside(&inverse, (const float[3]){2.1f, 0.0f, 2.0f}, local)); /* x: 0.55 */
    SW_CHECK(!sw__decal_inside(&inverse, (const float[3]){1.0f, 0.21f, 2.0f}, local)); /* y: 0.525 */
    sw_mat34 flat = {{{1, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 1, 0}}};
    SW_CHECK(!sw__decal_world_to_box(&flat, &inverse));
}

static void test_facing_and_normal(void) {
    const float up[3] = {0, 1, 0};
    SW_CHECK_NEAR(sw__decal_facing(up, up), 1.0, 1e-6);
    SW_CHECK_NEAR(sw__decal_facing((const float[3]){0.0f, 0.2f, sqrtf(0.96f)}, up), 0.0, 1e-6);
    SW_CHECK_NEAR(sw__decal_facing((const float[3]){0.0f, 0.35f, sqrtf(1 - 0.35f * 0.35f)}, up), 0.5, 1e-5);
    SW_CHECK_NEAR(sw__decal_facing((const float[3]){0, -1, 0}, up), 0.0, 1e-6);
    /* On the ground with the box's X along +X: x → +X, y (up the picture) → −Z, z → the normal. */
    float out[3];
    const float n[3] = {0, 1, 0}, box_x[3] = {3, 0, 0};
    sw__decal_normal(n, box_x, (const float[3]){1, 0, 0}, out);
    SW_CHECK(out[0] == 1.0f && out[1] == 0.0f && out[2] == 0.0f);
    sw__decal_normal(n, box_x, (const float[3]){0, 1, 0}, out);
    SW_CHECK(out[0] == 0.0f && out[1] == 0.0f && out[2] == -1.0f);
    sw__decal_normal(n, box_x, (const float[3]){0.6f, 0, 0.8f}, out);
    SW_CHECK_NEAR(out[0], 0.6, 1e-6);
    SW_CHECK_NEAR(out[1], 0.8, 1e-6);
    /* A tilted box X is made tangent first. */
    sw__decal_normal(n, (const float[3]){1, 1, 0}, (const float[3]){1, 0, 0}, out);
    SW_CHECK_NEAR(out[0], 1.0, 1e-6);
    SW_CHECK_NEAR(out[1], 0.0, 1e-6);
}

/* The screen rectangle: a unit box 5 m in front of a 90° camera on a
   100 × 100 image reaches ±0.5/4.5 = ±0.111 in NDC at its near face:
   pixels 44.4..55.6, with a pixel of margin 43..57 (exclusive end). */
static void test_screen_rect(void) {
    /* column-major perspective, fov 90°, aspect 1, near 0.1, far 100, looking down −Z from the origin */
    const float n = 0.1f, f = 100.0f;
    float vp[16] = {0};
    vp[0] = 1, vp[5] = 1, vp[10] = -(f + n) / (f - n), vp[11] = -1, vp[14] = -2 * f * n / (f - n);
    sw_mat34 box = {{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, -5}}};
    int rect[4];
    SW_CHECK(sw__decal_screen_rect(&box, vp, 100, 100, rect));
    SW_CHECK_EQ_INT(rect[0], 43);
    SW_CHECK_EQ_INT(rect[2], 57);
    SW_CHECK_EQ_INT(rect[1], 43);
    SW_CHECK_EQ_INT(rect[3], 57);
    box.m[0][3] = 100; /* far to the right: off the image */
    SW_CHECK(!sw__decal_screen_rect(&box, vp, 100, 100, rect));
    box.m[0][3] = 0, box.m[2][3] = 0; /* around the eye: the whole image */
    SW_CHECK(sw__decal_screen_rect(&box, vp, 100, 100, rect));
    SW_CHECK(rect[0] == 0 && rect[1] == 0 && rect[2] == 100 && rect[3] == 100);
}

static void test_shade(void) {
    /* colour: a = 0.5 × 0.8 × 1 = 0.4 → 0.4·(1, 0, 0) + 0.6·(0.2, 0.4, 0.6) */
    float rgb[3] = {0.2f, 0.4f, 0.6f}, n[3] = {0, 1, 0};
    sw__decal_shade(rgb, n, (const float[4]){1, 0, 0, 0.5f}, NULL, (const float[3]){1, 0, 0}, 0.8f, 1.0f, 1.0f);
    SW_CHECK_NEAR(rgb[0], 0.52, 1e-6);
    SW_CHECK_NEAR(rgb[1], 0.24, 1e-6);
    SW_CHECK_NEAR(rgb[2], 0.36, 1e-6);
    SW_CHECK(n[0] == 0.0f && n[1] == 1.0f && n[2] == 0.0f); /* no map: kept */
    /* normal: weight 1 × 0.5 = 0.5 of (1, 0, 0) over (0, 1, 0) → (0.5, 0.5, 0) normalised */
    sw__decal_shade(rgb, n, (const float[4]){1, 1, 1, 1}, (const float[3]){1, 0, 0}, (const float[3]){1, 0, 0}, 0.0f,
                    0.5f, 1.0f);
    SW_CHECK_NEAR(n[0], sqrtf(0.5f), 1e-6);
    SW_CHECK_NEAR(n[1], sqrtf(0.5f), 1e-6);
    SW_CHECK_NEAR(rgb[0], 0.52, 1e-6); /* opacity 0: colour kept */
    /* facing 0: nothing */
    float kept[3] = {0.1f, 0.1f, 0.1f};
    sw__decal_shade(kept, n, (const float[4]){1, 0, 0, 1}, NULL, (const float[3]){1, 0, 0}, 1.0f, 1.0f, 0.0f);
    SW_CHECK(kept[0] == 0.1f);
}

/* ---- the pass ------------------------------------------------------------------ */

static sw_gl_context* g_context;

enum { W = 160, H = 120 };

typedef struct scene {
    sw_model* asset;
    sw_material_set materials;
    void* memory;
    sw_pose pose;
    sw_renderer* renderer;
} scene;

static const sw_camera k_camera = {.eye = {0.0f, 1.3f, 2.4f}, .target = {0.2f, 0.2f, 0.2f}, .up = {0, 1, 0},
                                   .fov_y = 40.0f * 3.14159265f / 180.0f, .z_near = 0.05f, .z_far = 50.0f};

/* The box: centre (0.3, 0, 0.3), 1 m square, 0.4 m high: over her left foot (+X) and the ground. */
static const sw_mat34 k_box = {{{1, 0, 0, 0.3f}, {0, 0.4f, 0, 0}, {0, 0, 1, 0.3f}}};

static bool scene_load(scene* s) {
    memset(s, 0, sizeof *s);
    uint8_t* glb = NULL;
    size_t size = 0;
    sw_diag d = {0};
    bool ok = sw_demo_character_glb(&glb, &size, &d) == SW_OK &&
              sw_gltf_load_memory(glb, size, SW_DEMO_CHARACTER_NAME, NULL, NULL, &s->asset, &d) == SW_OK &&
              sw_material_set_read(s->asset, &s->materials, &d) == SW_OK;
    sw_demo_character_glb_free(glb);
    if (ok) {
        sw_pose_sizes sizes = sw_pose_sizes_of(s->asset);
        s->memory = aligned_alloc(16, (sw_pose_memory_size(&sizes) + 15) / 16 * 16);
        sw_pose_bind(&s->pose, &sizes, s->memory);
        ok = sw_pose_evaluate(s->asset, NULL, 0.0f, false, &s->pose, &d) == SW_OK &&
             sw_renderer_create(&(sw_renderer_desc){.width = W, .height = H, .shadow_map_size = 256}, &s->renderer,
                                &d) == SW_OK &&
             sw_renderer_set_scene(s->renderer, s->asset, &s->materials, &d) == SW_OK;
    }
    if (ok) sw_renderer_set_scene_box(s->renderer, (const float[3]){-1.5f, 0, -1.5f}, (const float[3]){1.5f, 1.7f, 1.5f});
    if (!ok) fprintf(stderr, "  scene: %s\n", d.message);
    SW_CHECK(ok);
    return ok;
}

static void scene_free(scene* s) {
    sw_renderer_destroy(s->renderer);
    sw_material_set_free(&s->materials);
    free(s->memory);
    sw_model_free(s->asset);
}

typedef struct readback {
    float hdr[W * H * 4];
    uint8_t cls[W * H];
    float motion[W * H * 2];
    uint8_t image[W * H * 4]; /* rows top to bottom */
} readback;

static bool draw(scene* s, sw_render_view view, readback* out) {
    sw_render_frame f = {.pose = &s->pose, .first_frame = true, .camera = {k_camera, k_camera}};
    f.debug.view = view;
    sw_diag d = {0};
    bool ok = sw_renderer_draw(s->renderer, &f, &d) == SW_OK && sw_renderer_read_hdr(s->renderer, out->hdr, &d) == SW_OK &&
              sw_renderer_read_class(s->renderer, out->cls, &d) == SW_OK &&
              sw_renderer_read_motion(s->renderer, out->motion, &d) == SW_OK &&
              sw_renderer_read_image(s->renderer, out->image, &d) == SW_OK;
    if (!ok) fprintf(stderr, "  draw: %s\n", d.message);
    SW_CHECK(ok);
    return ok;
}

/* Pixel (x, y from the bottom) of world point p. */
static void pixel_of(const float p[3], int* x, int* y) {
    float m[16], clip[4];
    sw_camera_view_projection(&k_camera, (float)W / H, m);
    for (int r = 0; r < 4; r++) clip[r] = m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r];
    *x = (int)floorf((clip[0] / clip[3] * 0.5f + 0.5f) * W);
    *y = (int)floorf((clip[1] / clip[3] * 0.5f + 0.5f) * H);
}

/* The box's screen rectangle (its 8 corners), one pixel wider each side. */
static void box_rect(int lo[2], int hi[2]) {
    lo[0] = lo[1] = 1 << 20, hi[0] = hi[1] = -(1 << 20);
    for (int k = 0; k < 8; k++) {
        sw_vec3 c = sw_mat34_apply_point(&k_box, sw_vec3_make(k & 1 ? 0.5f : -0.5f, k & 2 ? 0.5f : -0.5f, k & 4 ? 0.5f : -0.5f));
        int x, y;
        pixel_of((const float[3]){c.x, c.y, c.z}, &x, &y);
        if (x < lo[0]) lo[0] = x;
        if (y < lo[1]) lo[1] = y;
        if (x > hi[0]) hi[0] = x;
        if (y > hi[1]) hi[1] = y;
    }
    lo[0]--, lo[1]--, hi[0]++, hi[1]++;
}

static size_t hdr_index(const float p[3]) {
    int x, y;
    pixel_of(p, &x, &y);
    return (size_t)y * W + (size_t)x;
}

static readback g_none, g_full, g_half, g_normal_before, g_normal_after;

/* One scene for the GL tests (a renderer compiles its programs: slow on llvmpipe). */
static scene g_scene;
static bool s_loaded;

static void test_colour_inside_only(void) {
    if (!s_loaded) return;
    sw_diag d = {0};
    sw_render_decal decal = {.box = k_box, .base_color = {0.9f, 0.05f, 0.02f, 1}, .opacity = 1, .normal_strength = 1};
    bool ok = draw(&g_scene, SW_RENDER_VIEW_SHADED, &g_none);
    ok = ok && sw_renderer_set_decals(g_scene.renderer, &decal, 1, &d) == SW_OK && draw(&g_scene, SW_RENDER_VIEW_SHADED, &g_full);
    decal.opacity = 0.5f;
    ok = ok && sw_renderer_set_decals(g_scene.renderer, &decal, 1, &d) == SW_OK && draw(&g_scene, SW_RENDER_VIEW_SHADED, &g_half);
    SW_CHECK(ok);
    if (!ok) return;
    SW_CHECK(memcmp(g_none.cls, g_full.cls, sizeof g_none.cls) == 0);
    SW_CHECK(memcmp(g_none.motion, g_full.motion, sizeof g_none.motion) == 0);
    int lo[2], hi[2];
    box_rect(lo, hi);
    size_t changed = 0, changed_outside = 0, changed_not_ground = 0, her_pixels_in_rect = 0, half_off = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            size_t i = (size_t)y * W + (size_t)x;
            const float *a = &g_none.hdr[i * 4], *b = &g_full.hdr[i * 4], *h = &g_half.hdr[i * 4];
            bool in_rect = x >= lo[0] && x <= hi[0] && y >= lo[1] && y <= hi[1];
            if (in_rect && g_none.cls[i] == SW_RENDER_CLASS_TOON) her_pixels_in_rect++;
            if (memcmp(a, b, 3 * sizeof(float)) == 0) continue;
            changed++;
            if (!in_rect) changed_outside++;
            if (g_none.cls[i] != SW_RENDER_CLASS_GROUND) changed_not_ground++;
            for (int k = 0; k < 3; k++) /* affine lighting: half way in linear colour (sRGB8 albedo: ~1 %) */
                if (fabsf(h[k] - 0.5f * (a[k] + b[k])) > 0.02f * fmaxf(a[k], b[k]) + 1e-3f) half_off++;
        }
    fprintf(stderr, "  %zu pixels changed; her pixels in the box's rectangle: %zu\n", changed, her_pixels_in_rect);
    SW_CHECK(changed > 300);
    SW_CHECK_EQ_INT(changed_outside, 0);
    SW_CHECK_EQ_INT(changed_not_ground, 0);
    SW_CHECK(her_pixels_in_rect > 20); /* her foot is there, and kept */
    SW_CHECK_EQ_INT(half_off, 0);
    /* Inside: red; outside (the ground beyond each side): untouched. */
    size_t in = hdr_index((const float[3]){0.65f, 0, 0.6f});
    SW_CHECK(g_full.hdr[in * 4] > 3.0f * g_full.hdr[in * 4 + 1] && g_none.hdr[in * 4] < 1.5f * g_none.hdr[in * 4 + 1]);
    const float outside[3][3] = {{-0.5f, 0, 0.5f}, {0.3f, 0, 1.0f}, {1.05f, 0, 0.3f}};
    for (int k = 0; k < 3; k++) {
        size_t o = hdr_index(outside[k]);
        SW_CHECK(g_none.cls[o] == SW_RENDER_CLASS_GROUND && memcmp(&g_none.hdr[o * 4], &g_full.hdr[o * 4], 12) == 0);
    }
}

/* A uniform normal map (0.6, 0, 0.8) with opacity 0: the normal target
   (normals view) turns to sw__decal_shade's normal inside the box. */
static void test_normal_map(void) {
    if (!s_loaded) return;
    uint8_t texels[4 * 4 * 4];
    for (int i = 0; i < 16; i++) texels[i * 4] = 204, texels[i * 4 + 1] = 128, texels[i * 4 + 2] = 230, texels[i * 4 + 3] = 255;
    sw_material_image normal = {.width = 4, .height = 4, .pixels = texels};
    sw_render_decal decal = {.box = k_box, .base_color = {1, 1, 1, 1}, .normal_image = &normal, .opacity = 0,
                             .normal_strength = 1};
    sw_diag d = {0};
    bool ok = sw_renderer_set_decals(g_scene.renderer, NULL, 0, &d) == SW_OK && draw(&g_scene, SW_RENDER_VIEW_NORMALS, &g_normal_before) &&
              sw_renderer_set_decals(g_scene.renderer, &decal, 1, &d) == SW_OK &&
              draw(&g_scene, SW_RENDER_VIEW_NORMALS, &g_normal_after);
    SW_CHECK(ok);
    if (!ok) return;
    SW_CHECK(memcmp(g_normal_before.cls, g_normal_after.cls, sizeof g_normal_before.cls) == 0);
    /* the C reference on the flat ground */
    float rgb[3] = {0, 0, 0}, n[3] = {0, 1, 0};
    const float m[3] = {204 / 255.0f * 2 - 1, 128 / 255.0f * 2 - 1, 230 / 255.0f * 2 - 1};
    sw__decal_shade(rgb, n, (const float[4]){1, 1, 1, 1}, m, (const float[3]){1, 0, 0}, 0.0f, 1.0f, 1.0f);
    int x, y;
    pixel_of((const float[3]){0.65f, 0, 0.6f}, &x, &y);
    const uint8_t* after = &g_normal_after.image[((size_t)(H - 1 - y) * W + (size_t)x) * 4];
    const uint8_t* before = &g_normal_before.image[((size_t)(H - 1 - y) * W + (size_t)x) * 4];
    for (int k = 0; k < 3; k++) SW_CHECK_NEAR(after[k] / 255.0, n[k] * 0.5 + 0.5, 3.0 / 255.0 + 0.01);
    SW_CHECK(before[0] >= 126 && before[0] <= 129); /* the ground's (0, 1, 0) */
    int lo[2], hi[2];
    box_rect(lo, hi);
    size_t changed_outside = 0, changed_not_ground = 0;
    for (int row = 0; row < H; row++)
        for (int col = 0; col < W; col++) {
            int from_bottom = H - 1 - row;
            bool in_rect = col >= lo[0] && col <= hi[0] && from_bottom >= lo[1] && from_bottom <= hi[1];
            size_t i = ((size_t)row * W + (size_t)col) * 4, c = (size_t)from_bottom * W + (size_t)col;
            if (memcmp(&g_normal_before.image[i], &g_normal_after.image[i], 3) == 0) continue;
            if (!in_rect) changed_outside++;
            if (g_normal_before.cls[c] != SW_RENDER_CLASS_GROUND) changed_not_ground++;
        }
    SW_CHECK_EQ_INT(changed_outside, 0);
    SW_CHECK_EQ_INT(changed_not_ground, 0); /* never on her */
    /* The same box given to her class only (toon: lit in the G-buffer
       pass, so the normal shows it): her foot changes, the ground not. */
    decal.receivers = 1u << SW_RENDER_CLASS_TOON;
    size_t hers = 0, others = 0;
    if (sw_renderer_set_decals(g_scene.renderer, &decal, 1, &d) == SW_OK &&
        draw(&g_scene, SW_RENDER_VIEW_NORMALS, &g_normal_after))
        for (int row = 0; row < H; row++)
            for (int col = 0; col < W; col++) {
                size_t i = ((size_t)row * W + (size_t)col) * 4, c = (size_t)(H - 1 - row) * W + (size_t)col;
                if (memcmp(&g_normal_before.image[i], &g_normal_after.image[i], 3) == 0) continue;
                if (g_normal_before.cls[c] == SW_RENDER_CLASS_TOON) hers++;
                else others++;
            }
    fprintf(stderr, "  given to her class: %zu of her pixels changed, %zu others\n", hers, others);
    SW_CHECK(hers > 10 && others == 0);
}

static void test_bad_decals(void) {
    if (!s_loaded) return;
    sw_renderer* r = g_scene.renderer;
    sw_diag d = {0};
    sw_render_decal flat = {.box = {{{1, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 1, 0}}}, .opacity = 1};
    SW_CHECK(sw_renderer_set_decals(r, &flat, 1, &d) == SW_ERR_INVALID_ARGUMENT);
    SW_CHECK(strstr(d.message, "decal 0") != NULL);
    sw_render_decal loud = {.box = k_box, .opacity = 2};
    SW_CHECK(sw_renderer_set_decals(r, &loud, 1, &d) == SW_ERR_INVALID_ARGUMENT);
    loud.opacity = NAN;
    SW_CHECK(sw_renderer_set_decals(r, &loud, 1, &d) == SW_ERR_INVALID_ARGUMENT);
    SW_CHECK(sw_renderer_set_decals(r, NULL, 0, &d) == SW_OK);
}

int main(void) {
    SW_RUN(test_box_projection);
    SW_RUN(test_facing_and_normal);
    SW_RUN(test_shade);
    SW_RUN(test_screen_rect);
    int early = sw_test_gl_begin(&g_context);
    if (early >= 0) return early == 0 ? sw_test_finish() : early;
    s_loaded = scene_load(&g_scene);
    SW_RUN(test_colour_inside_only);
    SW_RUN(test_normal_map);
    SW_RUN(test_bad_decals);
    if (s_loaded) scene_free(&g_scene);
    sw_gl_context_destroy(g_context);
    return sw_test_finish();
}
