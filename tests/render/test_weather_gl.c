/* Falling snow on the GPU (weather_pass.c, shaders/weather.*) against its
   C reference (weather.c) and the fog's (fog.c), on the lit scene of
   tests/data/transparency (160 × 120): a blue opaque 2 × 2 quad 3 m in
   front of the camera, a red BLEND quad (alpha 0.5) 0.3 m before it.

   Every flake is placed here with sw__weather_flake, projected with the
   frame's camera and classified; only flakes no other flake comes near on
   the screen are checked, at the pixel holding their centre (inside the
   disc's flat core, where its opacity is exactly 0.9 × fade):
     - the picture changes only within the discs of the reference's flakes;
     - a flake in front of the blue quad is α·F + (1 − α)·behind, F the
       flake's light (sw__weather_flake_light with the renderer's sun and
       ambient), behind the pixel without snow;
     - a flake behind the opaque quad leaves its pixels as they were;
     - sorted with the transparents: a flake between the red veil and the
       blue quad is drawn before the veil, one in front of it after;
     - in thick grey fog each flake is the fog's C reference (a uniform
       column integrated by sw__fog_integrate_column, read at the flake's
       depth) applied to F, and a far flake is dimmer than a near one;
     - the same time gives byte-identical images; another time, others.
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
#include "../../src/render/weather.h"

static sw_gl_context* g_context;

enum { W = 160, H = 120 };
#define FOV (40.0f * 3.14159265f / 180.0f)
#define TIME 1.7f
#define DENSITY 8.0f

static struct {
    sw_model* model;
    sw_material_set materials;
    void* pose_memory;
    sw_pose pose;
    sw_renderer* renderer;
    uint8_t* hidden;
    int32_t red;
    float *a, *b, *c;
    uint8_t *image, *image2;
    bool ok;
} g;

static bool scene_load(void) {
    char path[512];
    snprintf(path, sizeof path, "%s/transparency/transparent_lit.gltf", SW_TEST_DATA_DIR);
    sw_diag d = {0};
    if (sw_gltf_load_file(path, NULL, &g.model, &d) != SW_OK || sw_material_set_read(g.model, &g.materials, &d) != SW_OK) {
        fprintf(stderr, "  %s\n", d.message);
        return false;
    }
    sw_pose_sizes sizes = sw_pose_sizes_of(g.model);
    g.pose_memory = aligned_alloc(16, (sw_pose_memory_size(&sizes) + 15) / 16 * 16);
    g.hidden = calloc(g.model->node_count, 1);
    g.red = sw_model_find_node_by_name(g.model, "Red");
    sw_pose_bind(&g.pose, &sizes, g.pose_memory);
    if (g.red < 0 || sw_pose_evaluate(g.model, NULL, 0.0f, false, &g.pose, &d) != SW_OK ||
        sw_renderer_create(&(sw_renderer_desc){.width = W, .height = H, .shadow_map_size = 512}, &g.renderer, &d) != SW_OK ||
        sw_renderer_set_scene(g.renderer, g.model, &g.materials, &d) != SW_OK) {
        fprintf(stderr, "  %s\n", d.message);
        return false;
    }
    return true;
}

static sw_camera camera(void) {
    return (sw_camera){.eye = {0, 0, 3}, .target = {0, 0, 0}, .up = {0, 1, 0}, .fov_y = FOV, .z_near = 0.05f, .z_far = 50.0f};
}

typedef struct shot {
    bool snow, red;
    float time;
    float fog;          /* density; grey (0.2) when > 0 */
    bool overhead;      /* the sun straight above (else above and in front) */
} shot;

static bool render(shot s, float* hdr, uint8_t* image) {
    memset(g.hidden, 0, g.model->node_count);
    g.hidden[g.red] = !s.red;
    const sw_camera c = camera();
    sw_render_frame f = {.pose = &g.pose, .first_frame = true, .camera = {c, c}};
    f.shading.light_direction[1] = s.overhead ? 1.0f : 0.8f, f.shading.light_direction[2] = s.overhead ? 0.0f : 0.6f;
    f.shading.time = s.time;
    f.shading.fog_density = s.fog;
    if (s.fog > 0.0f) f.shading.fog_colour[0] = f.shading.fog_colour[1] = f.shading.fog_colour[2] = 0.2f;
    if (s.snow) f.shading.weather = (sw_render_weather){SW_RENDER_WEATHER_SNOW, DENSITY, {1.0f, 0.5f}};
    f.avatar.hidden_nodes = g.hidden;
    sw_diag d = {0};
    if (sw_renderer_draw(g.renderer, &f, &d) != SW_OK || (hdr && sw_renderer_read_hdr(g.renderer, hdr, &d) != SW_OK) ||
        (image && sw_renderer_read_image(g.renderer, image, &d) != SW_OK)) {
        fprintf(stderr, "  draw: %s\n", d.message);
        return false;
    }
    return true;
}

/* ---- the reference's flakes, on the screen ------------------------------------ */

typedef struct flake {
    float world[3];
    float depth, distance;
    double x, y;          /* pixels, GL's: from the left and the bottom */
    float radius_px, fade;
    bool hidden;          /* behind the opaque quad, inside it */
    bool isolated;        /* no other flake's disc within two pixels of its own (hidden ones do not count) */
} flake;

/* Whether the screen point lies on the blue quad ([-1, 1]² at z = 0) with a margin. */
static bool on_quad(double x, double y, double margin) {
    const double half_w = 3.0 * tan(0.5 * FOV) * W / H, half_h = 3.0 * tan(0.5 * FOV);
    const double qx = (x / W * 2.0 - 1.0) * half_w, qy = (y / H * 2.0 - 1.0) * half_h; /* at depth 3 */
    return fabs(qx) < 1.0 - margin && fabs(qy) < 1.0 - margin;
}

static flake* g_flakes;
static size_t g_flake_count;

static void place_flakes(float time) {
    const sw_camera c = camera();
    float m[16];
    sw_camera_view_projection(&c, (float)W / H, m);
    sw__weather w = {.seed = SW__WEATHER_SEED, .time = time, .wind = {1.0f, 0.5f}, .eye = {c.eye[0], c.eye[1], c.eye[2]}};
    const size_t total = sw__weather_count(DENSITY);
    free(g_flakes);
    g_flakes = calloc(total, sizeof *g_flakes);
    g_flake_count = 0;
    const double pixels_per_metre_at_1 = 0.5 * H / tan(0.5 * FOV);
    for (uint32_t i = 0; i < total; i++) {
        flake f = {0};
        sw__weather_flake(&w, i, f.world);
        f.depth = c.eye[2] - f.world[2]; /* the camera looks down −z */
        if (!(f.depth > c.z_near)) continue;
        double clip[4];
        for (int r = 0; r < 4; r++)
            clip[r] = (double)m[r] * f.world[0] + (double)m[4 + r] * f.world[1] + (double)m[8 + r] * f.world[2] + m[12 + r];
        f.x = (clip[0] / clip[3] * 0.5 + 0.5) * W;
        f.y = (clip[1] / clip[3] * 0.5 + 0.5) * H;
        const float radius = sw__weather_drawn_radius(f.depth, FOV, H, &f.fade);
        f.radius_px = (float)(radius * pixels_per_metre_at_1 / f.depth);
        if (f.x < -f.radius_px - 2 || f.x > W + f.radius_px + 2 || f.y < -f.radius_px - 2 || f.y > H + f.radius_px + 2) continue;
        f.distance = sqrtf(f.world[0] * f.world[0] + f.world[1] * f.world[1] + (f.world[2] - 3.0f) * (f.world[2] - 3.0f));
        g_flakes[g_flake_count++] = f;
    }
    /* the flakes behind the opaque quad, well inside it, are hidden: no neighbours */
    for (size_t i = 0; i < g_flake_count; i++)
        g_flakes[i].hidden = g_flakes[i].depth > 3.02f && on_quad(g_flakes[i].x, g_flakes[i].y, 0.05);
    for (size_t i = 0; i < g_flake_count; i++) {
        flake* f = &g_flakes[i];
        f->isolated = true;
        for (size_t j = 0; j < g_flake_count && f->isolated; j++) {
            if (j == i || g_flakes[j].hidden) continue;
            const double dx = g_flakes[j].x - f->x, dy = g_flakes[j].y - f->y;
            const double reach = f->radius_px + g_flakes[j].radius_px + 2.0;
            f->isolated = dx * dx + dy * dy > reach * reach;
        }
    }
}

/* The flake's centre pixel (HDR index, rows bottom to top), when the
   pixel's centre lies in the disc's flat core (r ≤ 0.45) well inside the
   picture; its opacity there. */
static bool centre_pixel(const flake* f, size_t* px, float* alpha) {
    const int x = (int)floor(f->x), y = (int)floor(f->y);
    if (x < 2 || y < 2 || x >= W - 2 || y >= H - 2) return false;
    const double r = hypot(x + 0.5 - f->x, y + 0.5 - f->y) / f->radius_px;
    if (r > 0.45) return false;
    *px = (size_t)y * W + (size_t)x;
    *alpha = sw__weather_disc_alpha((float)r, f->fade);
    return true;
}

/* A flake's light: the renderer's sun and ambient without a time of day
   (sw__shade_uniforms: sun 2.6, 2.5, 2.35; sky 0.55, 0.62, 0.75; ground
   0.22, 0.2, 0.18), fully lit (nothing stands between the sun and the
   air in front of the quads). */
static void flake_light(float out[3]) {
    const float sun[3] = {2.6f, 2.5f, 2.35f}, sky[3] = {0.55f, 0.62f, 0.75f}, ground[3] = {0.22f, 0.2f, 0.18f};
    sw__weather_flake_light(sun, 1.0f, sky, ground, out);
}

/* Whether the screen point lies on the red veil ([-0.6, 0.6] × [-0.4, 0.4]
   at z = 0.3, depth 2.7), 5 cm inside its edge. */
static bool on_veil(double x, double y) {
    const double half_w = 2.7 * tan(0.5 * FOV) * W / H, half_h = 2.7 * tan(0.5 * FOV);
    const double qx = (x / W * 2.0 - 1.0) * half_w, qy = (y / H * 2.0 - 1.0) * half_h;
    return fabs(qx) < 0.55 && fabs(qy) < 0.35;
}

static bool near_any_flake(int x, int y) {
    for (size_t i = 0; i < g_flake_count; i++) {
        const double reach = g_flakes[i].radius_px + 1.0;
        const double dx = x + 0.5 - g_flakes[i].x, dy = y + 0.5 - g_flakes[i].y;
        if (dx * dx + dy * dy <= reach * reach) return true;
    }
    return false;
}

static bool close_rgb(const float* got, const float expected[3], float tolerance) {
    for (int k = 0; k < 3; k++)
        if (!(fabsf(got[k] - expected[k]) <= tolerance * (0.05f + fabsf(expected[k])))) return false;
    return true;
}

/* ---- tests ------------------------------------------------------------------ */

static void test_flakes_where_the_reference_puts_them(void) {
    if (!g.ok) return;
    SW_CHECK(render((shot){.time = TIME}, g.a, NULL));
    SW_CHECK(render((shot){.snow = true, .time = TIME}, g.b, g.image)); /* the image: test_same_time_same_image */
    place_flakes(TIME);
    /* only within the discs */
    int changed = 0, stray = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            const float* a = &g.a[4 * ((size_t)y * W + (size_t)x)];
            const float* b = &g.b[4 * ((size_t)y * W + (size_t)x)];
            if (fabsf(a[0] - b[0]) + fabsf(a[1] - b[1]) + fabsf(a[2] - b[2]) < 1e-4f) continue;
            changed++;
            stray += !near_any_flake(x, y);
        }
    printf("  %zu flakes in view; %d pixels changed, %d away from every flake\n", g_flake_count, changed, stray);
    SW_CHECK(changed > 50);
    SW_CHECK_EQ_INT(stray, 0);
    /* in front of the quad: α·F + (1 − α)·behind; behind it: nothing */
    float light[3];
    flake_light(light);
    int lit = 0, lit_wrong = 0, hidden = 0, hidden_wrong = 0;
    double worst = 0.0;
    for (size_t i = 0; i < g_flake_count; i++) {
        const flake* f = &g_flakes[i];
        size_t px;
        float alpha;
        if (!f->isolated || !centre_pixel(f, &px, &alpha)) continue;
        const float* a = &g.a[4 * px];
        const float* b = &g.b[4 * px];
        if (f->hidden) { /* behind the opaque quad */
            hidden++;
            hidden_wrong += memcmp(a, b, 3 * sizeof(float)) != 0;
            continue;
        }
        /* in front of the quad: lit, above the ground */
        if (!(f->depth < 2.9f) || !on_quad(f->x, f->y, 0.0)) continue;
        float expected[3];
        for (int k = 0; k < 3; k++) expected[k] = alpha * light[k] + (1.0f - alpha) * a[k];
        lit++;
        lit_wrong += !close_rgb(b, expected, 0.03f);
        for (int k = 0; k < 3; k++) worst = fmax(worst, fabs(b[k] - expected[k]));
    }
    printf("  isolated flakes checked: %d lit (worst |error| %.4f), %d behind the quad\n", lit, worst, hidden);
    SW_CHECK(lit >= 5);
    SW_CHECK_EQ_INT(lit_wrong, 0);
    SW_CHECK(hidden >= 3);
    SW_CHECK_EQ_INT(hidden_wrong, 0);
}

/* Between the veil (depth 2.7) and the quad (3): drawn before the veil,
   so the pixel is the veil over (flake over blue): A_red + 0.5·α·(F − A_blue),
   A_red and A_blue the pixel without snow with and without the veil (the
   sun straight above, so that the veil casts no shadow on the quad). In
   front of the veil:
   α·F + (1 − α)·A_red. Drawn in the wrong order, the flake behind would
   be α·F + (1 − α)·A_red too. */
static void test_sorted_with_the_transparents(void) {
    if (!g.ok) return;
    int behind = 0, behind_wrong = 0, in_front = 0, in_front_wrong = 0;
    float light[3];
    flake_light(light);
    const float times[2] = {TIME, 6.0f}; /* two, for more flakes in the thin slab */
    for (int t = 0; t < 2; t++) {
        SW_CHECK(render((shot){.time = times[t], .overhead = true}, g.a, NULL));
        SW_CHECK(render((shot){.red = true, .time = times[t], .overhead = true}, g.c, NULL));
        SW_CHECK(render((shot){.snow = true, .red = true, .time = times[t], .overhead = true}, g.b, NULL));
        place_flakes(times[t]);
        for (size_t i = 0; i < g_flake_count; i++) {
            const flake* f = &g_flakes[i];
            size_t px;
            float alpha;
            if (!f->isolated || !centre_pixel(f, &px, &alpha) || !on_veil(f->x, f->y)) continue;
            const float *blue = &g.a[4 * px], *red = &g.c[4 * px], *got = &g.b[4 * px];
            float expected[3];
            if (f->depth > 2.72f && f->depth < 2.98f) {
                for (int k = 0; k < 3; k++) expected[k] = red[k] + 0.5f * alpha * (light[k] - blue[k]);
                behind++;
                behind_wrong += !close_rgb(got, expected, 0.03f);
            } else if (f->depth < 2.68f) {
                for (int k = 0; k < 3; k++) expected[k] = alpha * light[k] + (1.0f - alpha) * red[k];
                in_front++;
                in_front_wrong += !close_rgb(got, expected, 0.03f);
            }
        }
    }
    printf("  flakes between the veil and the quad: %d, in front of the veil: %d\n", behind, in_front);
    SW_CHECK(behind >= 2);
    SW_CHECK(in_front >= 3);
    SW_CHECK_EQ_INT(behind_wrong, 0);
    SW_CHECK_EQ_INT(in_front_wrong, 0);
}

/* The fog's C reference at one flake: a uniform grey medium σ (scatter
   σ·0.2, fully lit) integrated along the flake's ray, read at its depth,
   applied to F. */
static void fogged(float sigma, const flake* f, const float light[3], float out[3]) {
    static sw__fog_froxel column[SW__FOG_SLICES];
    static float integrated[SW__FOG_SLICES][4];
    for (int i = 0; i < SW__FOG_SLICES; i++)
        column[i] = (sw__fog_froxel){{0.2f * sigma, 0.2f * sigma, 0.2f * sigma}, sigma};
    sw__fog_integrate_column(column, f->distance / f->depth, integrated);
    float fog[4];
    sw__fog_sample_column(integrated, f->depth, fog);
    sw__fog_apply(fog, light, out);
}

static void test_fog_at_each_flake(void) {
    if (!g.ok) return;
    const float sigma = 0.5f;
    SW_CHECK(render((shot){.time = TIME, .fog = sigma}, g.a, NULL));
    SW_CHECK(render((shot){.snow = true, .time = TIME, .fog = sigma}, g.b, NULL));
    place_flakes(TIME);
    float light[3];
    flake_light(light);
    int checked = 0, wrong = 0;
    float near_depth = 1e9f, far_depth = 0.0f, near_seen = 0.0f, far_seen = 0.0f, near_ref = 0.0f, far_ref = 0.0f;
    for (size_t i = 0; i < g_flake_count; i++) {
        const flake* f = &g_flakes[i];
        size_t px;
        float alpha;
        if (!f->isolated || !centre_pixel(f, &px, &alpha) || !(f->depth < 2.9f) || alpha < 0.3f) continue;
        float air[3], expected[3];
        fogged(sigma, f, light, air);
        const float *a = &g.a[4 * px], *b = &g.b[4 * px];
        for (int k = 0; k < 3; k++) expected[k] = alpha * air[k] + (1.0f - alpha) * a[k];
        checked++;
        wrong += !close_rgb(b, expected, 0.03f);
        const float seen = a[0] + (b[0] - a[0]) / alpha; /* the flake's own fogged light, red */
        if (f->depth < near_depth) near_depth = f->depth, near_seen = seen, near_ref = air[0];
        if (f->depth > far_depth) far_depth = f->depth, far_seen = seen, far_ref = air[0];
    }
    printf("  fogged flakes checked: %d; nearest at depth %.2f: %.3f (reference %.3f), farthest at %.2f: %.3f (%.3f)\n",
           checked, near_depth, near_seen, near_ref, far_depth, far_seen, far_ref);
    SW_CHECK(checked >= 3);
    SW_CHECK_EQ_INT(wrong, 0);
    SW_CHECK(far_depth > near_depth + 0.5f);
    SW_CHECK(far_seen < near_seen);
}

static void test_same_time_same_image(void) {
    if (!g.ok) return;
    /* g.image: the first test's snow at TIME, drawn frames ago */
    SW_CHECK(render((shot){.snow = true, .time = 9.0f}, NULL, g.image2));
    SW_CHECK(memcmp(g.image, g.image2, 4 * W * H) != 0);
    SW_CHECK(render((shot){.snow = true, .time = TIME}, NULL, g.image2)); /* after other times: no state */
    SW_CHECK(memcmp(g.image, g.image2, 4 * W * H) == 0);
}

int main(void) {
    int skip = sw_test_gl_begin(&g_context);
    if (skip >= 0) return skip;
    g.a = malloc(sizeof(float) * 4 * W * H), g.b = malloc(sizeof(float) * 4 * W * H);
    g.c = malloc(sizeof(float) * 4 * W * H);
    g.image = malloc(4 * W * H), g.image2 = malloc(4 * W * H);
    g.ok = g.a && g.b && g.c && g.image && g.image2 && scene_load();
    SW_CHECK(g.ok);
    SW_RUN(test_flakes_where_the_reference_puts_them);
    SW_RUN(test_sorted_with_the_transparents);
    SW_RUN(test_fog_at_each_flake);
    SW_RUN(test_same_time_same_image);
    sw_renderer_destroy(g.renderer);
    sw_material_set_free(&g.materials);
    sw_model_free(g.model);
    free(g.pose_memory), free(g.hidden), free(g_flakes);
    free(g.a), free(g.b), free(g.c), free(g.image), free(g.image2);
    sw_gl_context_destroy(g_context);
    return sw_test_finish();
}
