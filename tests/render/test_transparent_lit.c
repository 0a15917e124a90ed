/* The transparent pass for glTF metallic-roughness materials (alphaMode
   BLEND shaded forward with the lighting pass's code and lights), the
   depth pre-pass of alpha-tested (MASK) draws and the punctual lights
   (sw_renderer_set_lights), on the scenes of
   tests/data/transparency/make_transparency_files.py (160 × 120).

   The blended colours are checked against the over operator
   c = a·src + (1 − a)·dst (straight alpha, glTF's) computed here from
   colours read off the same renderer in other states: the blended quad
   drawn OPAQUE (transparent_lit_ref.gltf: lit by the deferred pass, so
   the forward path must light it the same) and what is behind it with
   the quad hidden; unlit colours are the base colours themselves. The
   point light's brightening is checked against sw_render_light_incident
   and the GGX + Lambert terms written out below. Shadow casters by alpha
   (mask_shadow.gltf): a MASK card casts only where its texture keeps it,
   BLEND at alpha 0.3 and transmissive glass cast none (docs/shadows.md).
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

static sw_gl_context* g_context;

enum { W = 160, H = 120 };

typedef struct scene {
    sw_model* model;
    sw_material_set materials;
    void* pose_memory;
    sw_pose pose;
    sw_renderer* renderer;
    uint8_t* hidden;
} scene;

static bool scene_load(const char* name, scene* s) {
    memset(s, 0, sizeof *s);
    char path[512];
    snprintf(path, sizeof path, "%s/transparency/%s", SW_TEST_DATA_DIR, name);
    sw_diag d = {0};
    if (sw_gltf_load_file(path, NULL, &s->model, &d) != SW_OK || sw_material_set_read(s->model, &s->materials, &d) != SW_OK) {
        fprintf(stderr, "  %s: %s\n", name, d.message);
        return false;
    }
    sw_pose_sizes sizes = sw_pose_sizes_of(s->model);
    s->pose_memory = aligned_alloc(16, (sw_pose_memory_size(&sizes) + 15) / 16 * 16);
    s->hidden = calloc(s->model->node_count, 1);
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
    free(s->hidden);
}

static sw_camera camera_at(float x) {
    sw_camera c = {.eye = {x, 0, 3}, .target = {x, 0, 0}, .up = {0, 1, 0}, .fov_y = 40.0f * 3.14159265f / 180.0f,
                   .z_near = 0.05f, .z_far = 50.0f};
    return c;
}

/* The pixel index (HDR rows bottom to top) where world point p lands. */
static size_t pixel_of(const sw_camera* c, const float p[3]) {
    float m[16], clip[4];
    sw_camera_view_projection(c, (float)W / H, m);
    for (int r = 0; r < 4; r++) clip[r] = m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r];
    const int x = (int)floorf((clip[0] / clip[3] * 0.5f + 0.5f) * W);
    const int y = (int)floorf((clip[1] / clip[3] * 0.5f + 0.5f) * H);
    return (size_t)y * W + (size_t)x;
}

/* The frame every test draws: the camera at x, the sun from above and in
   front (so the quads get direct light), nothing hidden but `hide`. */
typedef struct shot {
    float x;
    const char* hide;             /* a node name, or NULL */
    bool no_prepass;
    bool from_below;              /* the sun from below and in front: shadows fall upwards */
    float fog;                    /* the fog's density (0: none) */
} shot;

static bool render(scene* s, shot at, float* hdr, uint8_t* image) {
    memset(s->hidden, 0, s->model->node_count);
    if (at.hide) {
        const int32_t node = sw_model_find_node_by_name(s->model, at.hide);
        if (node < 0) return false;
        s->hidden[node] = 1;
    }
    const sw_camera c = camera_at(at.x);
    sw_render_frame f = {.pose = &s->pose, .first_frame = true, .camera = {c, c}};
    f.shading.light_direction[1] = at.from_below ? -0.8f : 0.8f, f.shading.light_direction[2] = 0.6f;
    f.shading.no_mask_prepass = at.no_prepass;
    f.shading.fog_density = at.fog;
    f.avatar.hidden_nodes = s->hidden;
    sw_diag d = {0};
    if (sw_renderer_draw(s->renderer, &f, &d) != SW_OK || (hdr && sw_renderer_read_hdr(s->renderer, hdr, &d) != SW_OK) ||
        (image && sw_renderer_read_image(s->renderer, image, &d) != SW_OK)) {
        fprintf(stderr, "  draw: %s\n", d.message);
        return false;
    }
    return true;
}

static void over(float dst[3], const float src[3], float a) {
    for (int k = 0; k < 3; k++) dst[k] = a * src[k] + (1.0f - a) * dst[k];
}

static void check_rgb(const char* what, const float* got, const float expected[3], float relative) {
    printf("  %-34s (%.4f, %.4f, %.4f), expected (%.4f, %.4f, %.4f)\n", what, got[0], got[1], got[2], expected[0],
           expected[1], expected[2]);
    for (int k = 0; k < 3; k++) SW_CHECK_NEAR(got[k], expected[k], 2e-3 + relative * expected[k]);
}

/* ---- the C reference of the punctual lights, by hand ---------------------------- */

static void test_light_incident(void) {
    float l[3], c[3];
    const float p[3] = {0, 0, 0};
    sw_render_light point = {.type = SW_RENDER_LIGHT_POINT, .position = {0, 2, 0}, .color = {1, 0.5f, 0.25f},
                             .intensity = 4.0f};
    sw_render_light_incident(&point, p, l, c); /* 4 cd at 2 m: 1 */
    SW_CHECK_NEAR(l[1], 1.0f, 1e-6);
    SW_CHECK_NEAR(c[0], 1.0f, 1e-6);
    SW_CHECK_NEAR(c[2], 0.25f, 1e-6);
    point.range = 4.0f; /* (2/4)⁴ = 1/16: × 15/16 */
    sw_render_light_incident(&point, p, l, c);
    SW_CHECK_NEAR(c[0], 0.9375f, 1e-6);
    point.range = 1.5f; /* beyond the range: nothing */
    sw_render_light_incident(&point, p, l, c);
    SW_CHECK_NEAR(c[0], 0.0f, 1e-9);
    sw_render_light spot = {.type = SW_RENDER_LIGHT_SPOT, .position = {0, 1, 0}, .direction = {0, -1, 0},
                            .color = {1, 1, 1}, .intensity = 1.0f, .inner_cone = 0.2f, .outer_cone = 0.6f};
    sw_render_light_incident(&spot, p, l, c); /* on the axis: inside the inner cone */
    SW_CHECK_NEAR(c[0], 1.0f, 1e-6);
    const float edge[3] = {tanf(0.4f), 0, 0}; /* 0.4 rad off the axis, d² = 1 + tan² */
    sw_render_light_incident(&spot, edge, l, c);
    const float t = (cosf(0.4f) - cosf(0.6f)) / (cosf(0.2f) - cosf(0.6f));
    SW_CHECK_NEAR(c[0], t * t / (1.0f + tanf(0.4f) * tanf(0.4f)), 1e-5);
    const float outside[3] = {tanf(0.7f), 0, 0};
    sw_render_light_incident(&spot, outside, l, c);
    SW_CHECK_NEAR(c[0], 0.0f, 1e-9);
    sw_render_light sun = {.type = SW_RENDER_LIGHT_DIRECTIONAL, .direction = {0, -2, 0}, .color = {1, 1, 1},
                           .intensity = 3.0f};
    sw_render_light_incident(&sun, p, l, c);
    SW_CHECK_NEAR(l[1], 1.0f, 1e-6);
    SW_CHECK_NEAR(c[1], 3.0f, 1e-6);
}

/* ---- the GL tests ----------------------------------------------------------------- */

typedef struct scenes {
    scene lit, ref, swapped, mask;
    float *a, *b, *c;
    uint8_t* image;
    bool ok;
} scenes;

static scenes g;

/* A lit red quad (alpha 0.5) over a lit blue one, with a point light in
   front besides the sun: both colours show, as the over operator of the
   deferred pass's own colours says. */
static void test_lit_over_opaque(void) {
    if (!g.ok) return;
    const sw_render_light bulb = {.type = SW_RENDER_LIGHT_POINT, .position = {0.3f, 0.3f, 1.5f}, .color = {1, 1, 1},
                                  .intensity = 0.8f};
    sw_diag d = {0};
    SW_CHECK(sw_renderer_set_lights(g.lit.renderer, &bulb, 1, &d) == SW_OK);
    SW_CHECK(sw_renderer_set_lights(g.ref.renderer, &bulb, 1, &d) == SW_OK);
    const float p[3] = {0.0f, 0.25f, 0.3f};
    const sw_camera c = camera_at(0.0f);
    const size_t px = pixel_of(&c, p);
    SW_CHECK(render(&g.lit, (shot){.x = 0.0f, .hide = NULL, .no_prepass = false}, g.a, g.image));
    SW_CHECK(render(&g.ref, (shot){.x = 0.0f, .hide = NULL, .no_prepass = false}, g.b, NULL));
    SW_CHECK(render(&g.lit, (shot){.x = 0.0f, .hide = "Red", .no_prepass = false}, g.c, NULL));
    float expected[3];
    memcpy(expected, g.c + 4 * px, sizeof expected);
    over(expected, g.b + 4 * px, 0.5f);
    printf("  red (deferred, opaque) (%.4f, %.4f, %.4f), blue behind (%.4f, %.4f, %.4f)\n", g.b[4 * px],
           g.b[4 * px + 1], g.b[4 * px + 2], g.c[4 * px], g.c[4 * px + 1], g.c[4 * px + 2]);
    check_rgb("lit red over lit blue", g.a + 4 * px, expected, 0.01f);
    /* The picture shows both: red and blue clearly above zero. */
    const int x = (int)(px % W), y = H - 1 - (int)(px / W);
    const uint8_t* rgb = g.image + 4 * ((size_t)y * W + (size_t)x);
    printf("  overlap in the image: (%d, %d, %d)\n", rgb[0], rgb[1], rgb[2]);
    SW_CHECK(rgb[0] > 60 && rgb[2] > 60);
    SW_CHECK(sw_renderer_set_lights(g.lit.renderer, NULL, 0, &d) == SW_OK);
    SW_CHECK(sw_renderer_set_lights(g.ref.renderer, NULL, 0, &d) == SW_OK);
}

/* The same in thick fog (docs/fog.md): the forward path reads the fog
   volume at the quad's depth (sw_air) as the composite does for the
   opaque quad, so the blend of the two fogged colours still holds. */
static void test_lit_in_fog(void) {
    if (!g.ok) return;
    const float p[3] = {0.0f, 0.25f, 0.3f};
    const sw_camera c = camera_at(0.0f);
    const size_t px = pixel_of(&c, p);
    SW_CHECK(render(&g.ref, (shot){.fog = 0.0f}, g.b, NULL));
    const float clear = g.b[4 * px];
    SW_CHECK(render(&g.lit, (shot){.fog = 0.3f}, g.a, NULL));
    SW_CHECK(render(&g.ref, (shot){.fog = 0.3f}, g.b, NULL));
    SW_CHECK(render(&g.lit, (shot){.hide = "Red", .fog = 0.3f}, g.c, NULL));
    float expected[3];
    memcpy(expected, g.c + 4 * px, sizeof expected);
    over(expected, g.b + 4 * px, 0.5f);
    printf("  in fog 0.3: red (opaque) %.4f (%.4f without fog), the blend (%.4f, %.4f, %.4f)\n", g.b[4 * px], clear,
           g.a[4 * px], g.a[4 * px + 1], g.a[4 * px + 2]);
    SW_CHECK(fabsf(g.b[4 * px] - clear) > 0.05f); /* the fog shows */
    check_rgb("lit red over lit blue, in fog", g.a + 4 * px, expected, 0.02f);
}

/* An unlit red quad over a lit blue one: its base colour, blended. */
static void test_unlit_over_opaque(void) {
    if (!g.ok) return;
    const sw_camera c = camera_at(4.0f);
    const size_t px = pixel_of(&c, (const float[3]){4.0f, 0.0f, 0.3f});
    SW_CHECK(render(&g.lit, (shot){.x = 4.0f, .hide = NULL, .no_prepass = false}, g.a, NULL));
    SW_CHECK(render(&g.lit, (shot){.x = 4.0f, .hide = "Veil", .no_prepass = false}, g.c, NULL));
    float expected[3];
    memcpy(expected, g.c + 4 * px, sizeof expected);
    over(expected, (const float[3]){0.9f, 0.1f, 0.1f}, 0.5f);
    check_rgb("unlit red over lit blue", g.a + 4 * px, expected, 0.005f);
}

/* Two blended quads in both file orders: drawn back to front either way. */
static void test_sorted(void) {
    if (!g.ok) return;
    const sw_camera c = camera_at(8.0f);
    const size_t px = pixel_of(&c, (const float[3]){8.0f, 0.0f, 0.5f});
    SW_CHECK(render(&g.lit, (shot){.x = 8.0f, .hide = NULL, .no_prepass = false}, g.a, NULL));
    SW_CHECK(render(&g.swapped, (shot){.x = 8.0f, .hide = NULL, .no_prepass = false}, g.b, NULL));
    float expected[3] = {0.1f, 0.2f, 0.9f};
    over(expected, (const float[3]){0.1f, 0.8f, 0.2f}, 0.5f);
    over(expected, (const float[3]){0.9f, 0.1f, 0.1f}, 0.5f);
    check_rgb("far, then near (near first in file)", g.a + 4 * px, expected, 0.005f);
    check_rgb("far, then near (far first in file)", g.b + 4 * px, expected, 0.005f);
    SW_CHECK(memcmp(g.a, g.b, sizeof(float) * 4 * W * H) == 0);
}

/* A blended quad over an alpha-tested one: the kept MASK pixels are
   behind it; a cut one shows what is behind the MASK quad. */
static void test_blend_over_mask(void) {
    if (!g.ok) return;
    const sw_camera c = camera_at(12.0f);
    const size_t over_leaf = pixel_of(&c, (const float[3]){12.0f, 0.0f, 0.4f});
    const size_t over_cut = pixel_of(&c, (const float[3]){12.0f, 0.7f, 0.4f});
    /* The sun from below: Film's shadow (BLEND at alpha ½ casts one,
       docs/shadows.md) falls above the kept pixel, so hiding Film shows
       the Leaf as lit behind it. */
    SW_CHECK(render(&g.lit, (shot){.x = 12.0f, .hide = NULL, .from_below = true}, g.a, NULL));
    SW_CHECK(render(&g.lit, (shot){.x = 12.0f, .hide = "Film", .from_below = true}, g.c, NULL));
    float expected[3];
    memcpy(expected, g.c + 4 * over_leaf, sizeof expected);
    SW_CHECK(expected[1] > 2.0f * expected[0]); /* the cyan leaf, not the blue behind */
    over(expected, (const float[3]){0.9f, 0.1f, 0.1f}, 0.5f);
    check_rgb("unlit red over MASK (kept)", g.a + 4 * over_leaf, expected, 0.005f);
    /* The cut quad changes nothing: the same as without it (alpha 0.3
       under its cutoff: it casts no shadow either). */
    SW_CHECK(render(&g.lit, (shot){.x = 12.0f, .hide = NULL, .no_prepass = false}, g.a, NULL));
    SW_CHECK(render(&g.lit, (shot){.x = 12.0f, .hide = "Cut", .no_prepass = false}, g.b, NULL));
    check_rgb("unlit red over MASK (cut)", g.a + 4 * over_cut, g.b + 4 * over_cut, 0.0f);
}

/* Overlapping alpha-tested cards: the depth pre-pass and the depth-equal
   colour pass give the picture of the single alpha-tested pass. */
static void test_mask_prepass(void) {
    if (!g.ok) return;
    sw_renderer_stats stats;
    SW_CHECK(render(&g.lit, (shot){.x = 16.0f, .hide = NULL, .no_prepass = false}, g.a, NULL));
    sw_renderer_get_stats(g.lit.renderer, &stats);
    printf("  MASK draws through the pre-pass: %zu\n", stats.mask_prepass_draws);
    SW_CHECK_EQ_INT((int)stats.mask_prepass_draws, 4); /* Leaf, Cut, CardA, CardB */
    SW_CHECK(render(&g.lit, (shot){.x = 16.0f, .hide = NULL, .no_prepass = true}, g.b, NULL));
    sw_renderer_get_stats(g.lit.renderer, &stats);
    SW_CHECK_EQ_INT((int)stats.mask_prepass_draws, 0);
    size_t differ = 0, green = 0, yellow = 0;
    for (size_t i = 0; i < (size_t)W * H; i++) {
        differ += memcmp(g.a + 4 * i, g.b + 4 * i, 3 * sizeof(float)) != 0;
        const float* p = g.a + 4 * i;
        green += p[1] > 1.5f * p[0] && p[1] > 1.5f * p[2];
        yellow += p[0] > 1.5f * p[2] && p[1] > 1.5f * p[2];
    }
    printf("  pixels differing: %zu; green card %zu, yellow card %zu\n", differ, green, yellow);
    SW_CHECK_EQ_INT((int)differ, 0);
    SW_CHECK(green > 200 && yellow > 200); /* both cards show, cut by their alpha */
}

/* The sRGB image's pixel (rows top to bottom) of HDR index px. */
static const uint8_t* image_at(const uint8_t* image, size_t px) {
    const int x = (int)(px % W), y = H - 1 - (int)(px / W);
    return image + 4 * ((size_t)y * W + (size_t)x);
}

/* The largest channel difference, in 1/255, of two image pixels. */
static int image_difference(const uint8_t* a, const uint8_t* b) {
    int most = 0;
    for (int k = 0; k < 3; k++) most = abs(a[k] - b[k]) > most ? abs(a[k] - b[k]) : most;
    return most;
}

/* Level casters 0.5 above a white floor, the sun from above and in front,
   (0, 0.8, 0.6): the floor point (x, −0.5, z) is shadowed by the caster
   point (x, 0, z + 0.375). The MASK card's left half (alpha 0) leaves
   the floor as lit as with no card; its right half shadows it; the BLEND
   veil (alpha 0.3 < ½) and the glass (transmission 0.9: covers 0.1) cast
   nothing. */
static void test_shadow_by_alpha(void) {
    if (!g.ok) return;
    const sw_camera c = camera_at(0.0f);
    const size_t cut = pixel_of(&c, (const float[3]){-0.4f, -0.5f, -0.55f});
    const size_t kept = pixel_of(&c, (const float[3]){0.4f, -0.5f, -0.55f});
    const size_t veil = pixel_of(&c, (const float[3]){-1.15f, -0.5f, -0.55f});
    const size_t glass = pixel_of(&c, (const float[3]){1.15f, -0.5f, -0.55f});
    uint8_t* no_card = malloc(4 * W * H);
    SW_CHECK(no_card != NULL);
    if (!no_card) return;
    SW_CHECK(render(&g.mask, (shot){.x = 0.0f}, g.a, g.image));
    SW_CHECK(render(&g.mask, (shot){.x = 0.0f, .hide = "Card"}, g.b, no_card));
    const uint8_t *a = image_at(g.image, cut), *b = image_at(no_card, cut);
    printf("  under the cut half (%d, %d, %d), no card (%d, %d, %d)\n", a[0], a[1], a[2], b[0], b[1], b[2]);
    SW_CHECK(image_difference(a, b) <= 3);
    printf("  under the kept half %.4f, no card %.4f\n", g.a[4 * kept + 1], g.b[4 * kept + 1]);
    SW_CHECK(g.a[4 * kept + 1] < 0.6f * g.b[4 * kept + 1]);
    const struct { const char* hide; size_t px; } clear[2] = {{"Veil", veil}, {"Glass", glass}};
    for (int i = 0; i < 2; i++) {
        SW_CHECK(render(&g.mask, (shot){.x = 0.0f, .hide = clear[i].hide}, NULL, no_card));
        a = image_at(g.image, clear[i].px), b = image_at(no_card, clear[i].px);
        printf("  under %s (%d, %d, %d), without it (%d, %d, %d)\n", clear[i].hide, a[0], a[1], a[2], b[0], b[1], b[2]);
        SW_CHECK(image_difference(a, b) <= 3);
    }
    free(no_card);
}

/* GGX (height-correlated Smith, Schlick) + Lambert for metallic 0, as
   lighting_common.glsl's sw_shade: the factor on the arriving light. */
static float brdf_nl(const float n[3], const float v[3], const float l[3], float albedo, float roughness) {
    float h[3], hl = 0;
    for (int k = 0; k < 3; k++) h[k] = v[k] + l[k], hl += h[k] * h[k];
    for (int k = 0; k < 3; k++) h[k] /= sqrtf(hl);
#define DOT(a, b) (a[0] * b[0] + a[1] * b[1] + a[2] * b[2])
    const float nl = fmaxf(DOT(n, l), 0), nv = fmaxf(DOT(n, v), 1e-4f), nh = fmaxf(DOT(n, h), 0), vh = fmaxf(DOT(v, h), 0);
#undef DOT
    const float a = roughness * roughness, a2 = a * a, pi = 3.14159265f;
    const float dd = nh * nh * (a2 - 1) + 1, d = a2 / (pi * dd * dd);
    const float vis = 0.5f / (nl * sqrtf(nv * nv * (1 - a2) + a2) + nv * sqrtf(nl * nl * (1 - a2) + a2) + 1e-5f);
    const float f = 0.04f + 0.96f * powf(1 - vh, 5);
    return (albedo / pi + d * vis * f) * nl;
}

/* A point light over a white floor brightens the pixel under it by
   brdf × sw_render_light_incident; zero lights give the picture of none. */
static void test_point_light(void) {
    if (!g.ok) return;
    const sw_camera c = camera_at(20.0f);
    const float p[3] = {20.0f, -0.5f, 0.0f};
    const size_t px = pixel_of(&c, p);
    SW_CHECK(render(&g.lit, (shot){.x = 20.0f, .hide = NULL, .no_prepass = false}, g.a, NULL));
    const sw_render_light bulb = {.type = SW_RENDER_LIGHT_POINT, .position = {20.0f, 0.5f, 0.0f},
                                  .color = {1.0f, 0.8f, 0.6f}, .intensity = 1.5f, .range = 1.5f};
    sw_diag d = {0};
    SW_CHECK(sw_renderer_set_lights(g.lit.renderer, &bulb, 1, &d) == SW_OK);
    SW_CHECK(render(&g.lit, (shot){.x = 20.0f, .hide = NULL, .no_prepass = false}, g.b, NULL));
    SW_CHECK(sw_renderer_set_lights(g.lit.renderer, NULL, 0, &d) == SW_OK);
    SW_CHECK(render(&g.lit, (shot){.x = 20.0f, .hide = NULL, .no_prepass = false}, g.c, NULL));
    float l[3], arriving[3], v[3], vl = 0;
    sw_render_light_incident(&bulb, p, l, arriving);
    for (int k = 0; k < 3; k++) v[k] = c.eye[k] - p[k], vl += v[k] * v[k];
    for (int k = 0; k < 3; k++) v[k] /= sqrtf(vl);
    const float n[3] = {0, 1, 0};
    const float f = brdf_nl(n, v, l, 1.0f, 1.0f);
    float expected[3], got[3];
    for (int k = 0; k < 3; k++) expected[k] = f * arriving[k], got[k] = g.b[4 * px + k] - g.a[4 * px + k];
    check_rgb("point light's brightening", got, expected, 0.03f);
    SW_CHECK(expected[0] > 0.3f);
    SW_CHECK(memcmp(g.a, g.c, sizeof(float) * 4 * W * H) == 0);
    /* Bad lights: a clear error. */
    sw_render_light bad = bulb;
    bad.intensity = -1.0f;
    SW_CHECK(sw_renderer_set_lights(g.lit.renderer, &bad, 1, &d) == SW_ERR_INVALID_ARGUMENT);
    printf("  bad light: %s\n", d.message);
    sw_render_light many[SW_RENDER_LIGHT_MAX + 1];
    for (int i = 0; i <= SW_RENDER_LIGHT_MAX; i++) many[i] = bulb;
    SW_CHECK(sw_renderer_set_lights(g.lit.renderer, many, SW_RENDER_LIGHT_MAX + 1, &d) == SW_ERR_INVALID_ARGUMENT);
    printf("  too many: %s\n", d.message);
}

/* A transmissive pane (OPAQUE, transmission 0.9, thickness 0.5,
   attenuation colour (0.5, 0.8, 1) at distance 1) over an unlit orange
   quad: the orange shows through, tinted as sw_render_transmit says from
   the pane's lit colour (transparent_lit_ref.gltf: the same pane without
   the extensions, lit by the deferred pass) and what is behind (the pane
   hidden). */
static void test_transmission(void) {
    if (!g.ok) return;
    const sw_camera c = camera_at(24.0f);
    const size_t px = pixel_of(&c, (const float[3]){24.2f, 0.1f, 0.3f});
    SW_CHECK(render(&g.lit, (shot){.x = 24.0f}, g.a, g.image));
    SW_CHECK(render(&g.ref, (shot){.x = 24.0f}, g.b, NULL));
    SW_CHECK(render(&g.lit, (shot){.x = 24.0f, .hide = "Glass"}, g.c, NULL));
    const float base[3] = {0.8f, 0.9f, 1.0f}, attenuation[3] = {0.5f, 0.8f, 1.0f};
    float expected[3];
    sw_render_transmit(g.b + 4 * px, 1.0f, 0.9f, base, 0.5f, 1.0f, attenuation, g.c + 4 * px, expected);
    printf("  pane (opaque) (%.4f, %.4f, %.4f), behind (%.4f, %.4f, %.4f)\n", g.b[4 * px], g.b[4 * px + 1],
           g.b[4 * px + 2], g.c[4 * px], g.c[4 * px + 1], g.c[4 * px + 2]);
    check_rgb("orange through the pane", g.a + 4 * px, expected, 0.01f);
    /* Tinted: red lost more than blue, relative to what is behind. */
    SW_CHECK(g.a[4 * px] / g.c[4 * px] < g.a[4 * px + 2] / g.c[4 * px + 2]);
}

/* A model's light placed by its node's world matrix. */
static void test_light_from_model(void) {
    const sw_model_light spot = {.type = SW_MODEL_LIGHT_SPOT, .color = {1, 0.5f, 0.25f}, .intensity = 3.0f,
                                 .range = 2.0f, .inner_cone_angle = 0.1f, .outer_cone_angle = 0.4f};
    /* −90° about X: −Z turns to −Y; at (1, 3, 0). */
    const sw_mat34 world = {{{1, 0, 0, 1}, {0, 0, 1, 3}, {0, -1, 0, 0}}};
    sw_render_light out;
    sw_render_light_from_model(&spot, &world, &out);
    SW_CHECK(out.type == SW_RENDER_LIGHT_SPOT);
    SW_CHECK_NEAR(out.position[1], 3.0f, 1e-6);
    SW_CHECK_NEAR(out.direction[1], -1.0f, 1e-6);
    SW_CHECK_NEAR(out.direction[2], 0.0f, 1e-6);
    SW_CHECK_NEAR(out.outer_cone, 0.4f, 1e-6);
    SW_CHECK_NEAR(out.color[2], 0.25f, 1e-6);
}

int main(void) {
    SW_RUN(test_light_incident);
    SW_RUN(test_light_from_model);
    int skip = sw_test_gl_begin(&g_context);
    if (skip >= 0) return skip;
    g.a = malloc(sizeof(float) * 4 * W * H), g.b = malloc(sizeof(float) * 4 * W * H);
    g.c = malloc(sizeof(float) * 4 * W * H), g.image = malloc(4 * W * H);
    g.ok = g.a && g.b && g.c && g.image && scene_load("transparent_lit.gltf", &g.lit) &&
           scene_load("transparent_lit_ref.gltf", &g.ref) && scene_load("transparent_lit_swapped.gltf", &g.swapped) &&
           scene_load("mask_shadow.gltf", &g.mask);
    SW_CHECK(g.ok);
    SW_RUN(test_lit_over_opaque);
    SW_RUN(test_lit_in_fog);
    SW_RUN(test_unlit_over_opaque);
    SW_RUN(test_sorted);
    SW_RUN(test_blend_over_mask);
    SW_RUN(test_mask_prepass);
    SW_RUN(test_point_light);
    SW_RUN(test_transmission);
    SW_RUN(test_shadow_by_alpha);
    scene_free(&g.lit), scene_free(&g.ref), scene_free(&g.swapped), scene_free(&g.mask);
    free(g.a), free(g.b), free(g.c), free(g.image);
    sw_gl_context_destroy(g_context);
    return sw_test_finish();
}
