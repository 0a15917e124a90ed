/* The transparent pass (alphaMode BLEND, MToon's render queue and
   transparentWithZWrite) on the scenes of
   tests/data/vrm/make_transparent_files.py, read as `sinew render` reads
   them. Every material there has its shade colour equal to its base
   colour, so its MToon colour is base × (light + GI) for any N·L or
   shadow: the test computes each quad's colour by hand with the
   renderer's toon light (1, 2.5/2.6, 2.35/2.6) and hemisphere (sky
   (0.55, 0.62, 0.75), ground (0.22, 0.2, 0.18), scale 0.3; toon_pass.c),
   and the blended HDR colour with the over operator
   c = a·src + (1 − a)·dst (straight alpha, glTF's), in the order the
   MToon specification's render queue and the distance give:
     - distance: Red (z 0.3, alpha 0.4), then the nearer Green (0.6);
     - queue: Green's renderQueueOffsetNumber −1 draws it first;
     - transparentWithZWrite on Green: its queue comes first and its
       depth hides Red behind it (Red's own pixels still blend);
     - MASK stays a cutout: alpha 0.4 < 0.5 leaves the back, 0.7 draws
       the colour unblended;
     - a double-sided primitive: its back faces, then its front faces;
       an unlit BLEND quad blends its base colour;
     - motion: a blended pixel's motion is its own where alpha ≥ 0.5
       (Green), else that of what is behind (Red over Back);
     - fog: a blended MToon quad passes its colour through the fog volume
       at its depth (toon.frag's sw_toon_air), c·T + S with T, S the fog's
       C reference (sw__fog_integrate_column) for a uniform lit medium.
   The orders agree with three-vrm 3.5.5 on the same files (GLTFLoader +
   VRMLoaderPlugin in node): renderOrder 19 for Red and Green (so three.js
   sorts them back to front), Green 18 with the queue offset, Green 0 with
   depthWrite true under transparentWithZWrite, Red 19 with depthWrite
   false; the MASK materials alphaTest 0.5.
   Skips, saying so, only when no EGL display exists at all. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "gl_harness.h"
#include "sinew/gltf.h"
#include "sinew/import.h"
#include "sinew/pose.h"
#include "sinew/render.h"

#include "../../src/render/fog.h"

static sw_gl_context* g_context;

enum { W = 160, H = 120 };

typedef struct scene {
    sw_model* model;
    sw_material_set materials;
    void* pose_memory;
    sw_pose pose;
    sw_renderer* renderer;
} scene;

static bool scene_load(const char* name, scene* s) {
    memset(s, 0, sizeof *s);
    char path[512];
    snprintf(path, sizeof path, "%s/vrm/%s", SW_TEST_DATA_DIR, name);
    sw_diag d = {0};
    if (sw_gltf_load_file(path, NULL, &s->model, &d) != SW_OK || sw_material_set_read(s->model, &s->materials, &d) != SW_OK) {
        fprintf(stderr, "  %s: %s\n", name, d.message);
        return false;
    }
    sw_pose_sizes sizes = sw_pose_sizes_of(s->model);
    s->pose_memory = aligned_alloc(16, (sw_pose_memory_size(&sizes) + 15) / 16 * 16);
    sw_pose_bind(&s->pose, &sizes, s->pose_memory);
    if (sw_pose_evaluate(s->model, NULL, 0.0f, false, &s->pose, &d) != SW_OK ||
        sw_renderer_create(&(sw_renderer_desc){.width = W, .height = H, .shadow_map_size = 512}, &s->renderer, &d) != SW_OK ||
        sw_renderer_set_scene(s->renderer, s->model, &s->materials, &d) != SW_OK) {
        fprintf(stderr, "  %s: %s\n", name, d.message);
        return false;
    }
    return true;
}

static void scene_free(scene* s) {
    sw_renderer_destroy(s->renderer);
    sw_material_set_free(&s->materials);
    sw_model_free(s->model);
    free(s->pose_memory);
}

static sw_camera camera_at(float x) {
    sw_camera c = {.eye = {x, 0, 3}, .target = {x, 0, 0}, .up = {0, 1, 0}, .fov_y = 40.0f * 3.14159265f / 180.0f,
                   .z_near = 0.05f, .z_far = 50.0f};
    return c;
}

/* Clip-space x, y of world point p / w (normalised device coordinates). */
static void ndc(const sw_camera* c, const float p[3], float out[2]) {
    float m[16], clip[4];
    sw_camera_view_projection(c, (float)W / H, m);
    for (int r = 0; r < 4; r++) clip[r] = m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r];
    out[0] = clip[0] / clip[3], out[1] = clip[1] / clip[3];
}

/* The pixel index (HDR rows bottom to top) where world point p lands. */
static size_t pixel_of(const sw_camera* c, const float p[3]) {
    float n[2];
    ndc(c, p, n);
    const int x = (int)floorf((n[0] * 0.5f + 0.5f) * W), y = (int)floorf((n[1] * 0.5f + 0.5f) * H);
    return (size_t)y * W + (size_t)x;
}

/* A quad's MToon colour: base × (light + GI); the normal +Z sees the
   hemisphere's mean, which the GI equalisation keeps. */
static void lit(const float base[3], float out[3]) {
    const float light[3] = {1.0f, 2.5f / 2.6f, 2.35f / 2.6f}, sky[3] = {0.55f, 0.62f, 0.75f}, ground[3] = {0.22f, 0.2f, 0.18f};
    for (int k = 0; k < 3; k++) out[k] = base[k] * (light[k] + 0.3f * 0.5f * (sky[k] + ground[k]));
}

/* dst = a·src + (1 − a)·dst */
static void over(float dst[3], const float src[3], float a) {
    for (int k = 0; k < 3; k++) dst[k] = a * src[k] + (1.0f - a) * dst[k];
}

static const float k_back[3] = {0.2f, 0.3f, 0.9f}, k_red[3] = {0.9f, 0.1f, 0.1f}, k_green[3] = {0.1f, 0.8f, 0.2f},
                   k_kept[3] = {0.0f, 1.0f, 1.0f};
static const float k_red_alpha = 0.4f, k_green_alpha = 0.6f;

/* World points on each quad (z its plane), where no other quad covers them
   but those named. */
static const float p_back[3] = {1.0f, -0.8f, 0.0f};     /* Back only */
static const float p_red[3] = {-0.45f, 0.0f, 0.3f};     /* Red over Back */
static const float p_green[3] = {0.45f, 0.0f, 0.6f};    /* Green over Back */
static const float p_both[3] = {0.0f, 0.0f, 0.6f};      /* Green over Red over Back */
static const float p_cut[3] = {-0.5f, 0.75f, 0.3f};     /* MASK, alpha 0.4: cut */
static const float p_kept[3] = {0.5f, 0.75f, 0.3f};     /* MASK, alpha 0.7: kept */

static bool render_hdr(scene* s, float* hdr) {
    sw_camera c = camera_at(0.0f);
    sw_render_frame f = {.pose = &s->pose, .first_frame = true, .camera = {c, c}};
    sw_diag d = {0};
    if (sw_renderer_draw(s->renderer, &f, &d) != SW_OK || sw_renderer_read_hdr(s->renderer, hdr, &d) != SW_OK) {
        fprintf(stderr, "  draw: %s\n", d.message);
        return false;
    }
    return true;
}

static void check_pixel(const char* what, const float* hdr, const float p[3], const float expected[3]) {
    const sw_camera c = camera_at(0.0f);
    const float* px = hdr + 4 * pixel_of(&c, p);
    printf("  %-22s (%.4f, %.4f, %.4f), expected (%.4f, %.4f, %.4f)\n", what, px[0], px[1], px[2], expected[0],
           expected[1], expected[2]);
    for (int k = 0; k < 3; k++) SW_CHECK_NEAR(px[k], expected[k], 3e-3 + 3e-3 * expected[k]);
}

/* The scene's colours that do not depend on the order. */
static void check_common(const float* hdr) {
    float back[3], red[3], green[3], kept[3], c[3];
    lit(k_back, back), lit(k_red, red), lit(k_green, green), lit(k_kept, kept);
    check_pixel("back", hdr, p_back, back);
    memcpy(c, back, sizeof c), over(c, red, k_red_alpha);
    check_pixel("red over back", hdr, p_red, c);
    memcpy(c, back, sizeof c), over(c, green, k_green_alpha);
    check_pixel("green over back", hdr, p_green, c);
    check_pixel("MASK alpha 0.4 (cut)", hdr, p_cut, back);
    check_pixel("MASK alpha 0.7 (kept)", hdr, p_kept, kept);
}

/* file: its overlap is `first` drawn, then `second` (NULL: hidden by the
   depth test). */
static void test_order(const char* file, bool green_first, bool red_hidden) {
    scene s;
    float* hdr = malloc(sizeof(float) * 4 * W * H);
    if (!scene_load(file, &s) || !hdr || !render_hdr(&s, hdr)) {
        SW_CHECK(false);
    } else {
        printf("  %s\n", file);
        check_common(hdr);
        float back[3], red[3], green[3], c[3];
        lit(k_back, back), lit(k_red, red), lit(k_green, green);
        memcpy(c, back, sizeof c);
        if (green_first) {
            over(c, green, k_green_alpha);
            if (!red_hidden) over(c, red, k_red_alpha);
        } else {
            over(c, red, k_red_alpha), over(c, green, k_green_alpha);
        }
        check_pixel(red_hidden ? "green (z-write) | red" : green_first ? "green, then red" : "red, then green", hdr,
                    p_both, c);
    }
    free(hdr);
    scene_free(&s);
}

static void test_distance_order(void) { test_order("transparent_quads.gltf", false, false); }
static void test_queue_order(void) { test_order("transparent_queue.gltf", true, false); }
static void test_z_write(void) { test_order("transparent_zwrite.gltf", true, true); }

/* A double-sided BLEND primitive draws its back faces, then its front
   faces: the far (green, facing away) quad blends before the near (red)
   one, though the index order has red first. */
static void test_double_sided(void) {
    scene s;
    float* hdr = malloc(sizeof(float) * 4 * W * H);
    if (!scene_load("transparent_double.gltf", &s) || !hdr || !render_hdr(&s, hdr)) {
        SW_CHECK(false);
    } else {
        const float red_base[3] = {1, 0, 0}, green_base[3] = {0, 1, 0};
        float back[3], red[3], green[3], c[3];
        lit(k_back, back), lit(red_base, red), lit(green_base, green);
        memcpy(c, back, sizeof c);
        over(c, green, 0.5f), over(c, red, 0.5f);
        check_pixel("back faces, then front", hdr, (const float[3]){0.0f, 0.0f, 0.6f}, c);
        /* The unlit quad: its base colour as it is, blended. */
        const float veil[3] = {1.0f, 0.5f, 0.0f};
        memcpy(c, back, sizeof c), over(c, veil, 0.5f);
        check_pixel("unlit over back", hdr, (const float[3]){1.0f, 0.0f, 0.3f}, c);
    }
    free(hdr);
    scene_free(&s);
}

/* The camera moves 0.2 along x between two frames: a plane at distance D
   moves on screen by its own parallax. The motion target holds Green's
   (alpha 0.6) on its pixels and Back's, not Red's, where Red (0.4) is
   over Back. */
static void test_motion(void) {
    scene s;
    float* motion = malloc(sizeof(float) * 2 * W * H);
    if (!scene_load("transparent_quads.gltf", &s) || !motion) {
        SW_CHECK(false);
    } else {
        const sw_camera previous = camera_at(0.0f), current = camera_at(0.2f);
        sw_render_frame f = {.pose = &s.pose, .first_frame = true, .camera = {previous, previous}};
        sw_diag d = {0};
        SW_CHECK(sw_renderer_draw(s.renderer, &f, &d) == SW_OK);
        f.first_frame = false, f.camera.current = current;
        SW_CHECK(sw_renderer_draw(s.renderer, &f, &d) == SW_OK);
        SW_CHECK(sw_renderer_read_motion(s.renderer, motion, &d) == SW_OK);
        /* Points on the planes at the current camera's pixels. */
        const float green[3] = {0.55f, 0.0f, 0.6f}, red[3] = {-0.35f, 0.0f, 0.3f};
        /* Back's point behind Red's: along the current camera's ray. */
        const float t = current.eye[2] / (current.eye[2] - red[2]);
        const float back[3] = {current.eye[0] + (red[0] - current.eye[0]) * t, 0.0f, 0.0f};
        const float* points[3] = {green, back, red};
        const size_t pixels[2] = {pixel_of(&current, green), pixel_of(&current, red)};
        float expected[3];
        for (int i = 0; i < 3; i++) {
            float a[2], b[2];
            ndc(&current, points[i], a), ndc(&previous, points[i], b);
            expected[i] = (a[0] - b[0]) * 0.5f;
        }
        printf("  motion x: green %.5f (expected %.5f), red over back %.5f (expected back's %.5f, red's own %.5f)\n",
               motion[2 * pixels[0]], expected[0], motion[2 * pixels[1]], expected[1], expected[2]);
        /* The planes' motions differ by more than the tolerance. */
        SW_CHECK(fabsf(expected[0] - expected[1]) > 0.01f && fabsf(expected[2] - expected[1]) > 0.005f);
        SW_CHECK_NEAR(motion[2 * pixels[0]], expected[0], 1e-3);
        SW_CHECK_NEAR(motion[2 * pixels[1]], expected[1], 1e-3);
    }
    free(motion);
    scene_free(&s);
}

/* Red (alpha 0.4, depth 2.7) over Back in a white fog of density 0.3: the
   pixel is 0.4·(red·T + S) + 0.6·B, B the fogged back read with Red
   hidden, T and S the fog's C reference along the pixel's ray (the air in
   front of the quads is in the sun: fully lit, light 1). Without the air
   the pixel would be 0.4·red + 0.6·B: 0.2 less in green and blue (red's
   own red, 1.0, is about the fog's light). */
static void test_toon_in_fog(void) {
    scene s;
    float* hdr = malloc(sizeof(float) * 4 * W * H);
    float* hidden_hdr = malloc(sizeof(float) * 4 * W * H);
    if (!scene_load("transparent_quads.gltf", &s) || !hdr || !hidden_hdr) {
        SW_CHECK(false);
    } else {
        const float sigma = 0.3f;
        sw_camera c = camera_at(0.0f);
        uint8_t hidden[5] = {0, 1, 0, 0, 0}; /* Red */
        sw_render_frame f = {.pose = &s.pose, .first_frame = true, .camera = {c, c}};
        f.shading.fog_density = sigma;
        sw_diag d = {0};
        SW_CHECK(sw_renderer_draw(s.renderer, &f, &d) == SW_OK && sw_renderer_read_hdr(s.renderer, hdr, &d) == SW_OK);
        f.avatar.hidden_nodes = hidden;
        SW_CHECK(sw_renderer_draw(s.renderer, &f, &d) == SW_OK && sw_renderer_read_hdr(s.renderer, hidden_hdr, &d) == SW_OK);
        static sw__fog_froxel column[SW__FOG_SLICES];
        static float integrated[SW__FOG_SLICES][4];
        for (int k = 0; k < SW__FOG_SLICES; k++) column[k] = (sw__fog_froxel){{sigma, sigma, sigma}, sigma};
        const float depth = 3.0f - p_red[2];
        const float distance = sqrtf(p_red[0] * p_red[0] + p_red[1] * p_red[1] + depth * depth);
        sw__fog_integrate_column(column, distance / depth, integrated);
        float fog[4], red[3], fogged_red[3], expected[3], without[3];
        sw__fog_sample_column(integrated, depth, fog);
        lit(k_red, red);
        sw__fog_apply(fog, red, fogged_red);
        const float* b = hidden_hdr + 4 * pixel_of(&c, p_red);
        for (int k = 0; k < 3; k++) {
            expected[k] = k_red_alpha * fogged_red[k] + (1.0f - k_red_alpha) * b[k];
            without[k] = k_red_alpha * red[k] + (1.0f - k_red_alpha) * b[k];
        }
        printf("  T %.4f S %.4f; without the air (%.4f, %.4f, %.4f)\n", fog[3], fog[0], without[0], without[1], without[2]);
        SW_CHECK(fabsf(expected[1] - without[1]) > 0.1f && fabsf(expected[2] - without[2]) > 0.1f);
        const float* px = hdr + 4 * pixel_of(&c, p_red);
        printf("  red over back in fog (%.4f, %.4f, %.4f), expected (%.4f, %.4f, %.4f)\n", px[0], px[1], px[2],
               expected[0], expected[1], expected[2]);
        for (int k = 0; k < 3; k++) SW_CHECK_NEAR(px[k], expected[k], 0.01 + 0.01 * expected[k]);
    }
    free(hdr), free(hidden_hdr);
    scene_free(&s);
}

int main(void) {
    int skip = sw_test_gl_begin(&g_context);
    if (skip >= 0) return skip;
    SW_RUN(test_distance_order);
    SW_RUN(test_queue_order);
    SW_RUN(test_z_write);
    SW_RUN(test_double_sided);
    SW_RUN(test_motion);
    SW_RUN(test_toon_in_fog);
    sw_gl_context_destroy(g_context);
    return sw_test_finish();
}
