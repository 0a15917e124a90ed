/* MToon 1.0 in the renderer, on the avatars of
   tests/data/vrm/make_mtoon_files.py (read with the glTF importer and
   sw_material_set_read, as `sinew render` reads them), each checked
   against numbers made here from the specification's formulas:
     - UV animation: the motion target carries the scroll's screen motion
       (−J⁻¹ Δs, J measured from the quad's size on screen); 12 frames with
       TAA differ from the same frames without AA on at most 0.4 % of the
       pixels by more than 40/255 (the criterion; the renderer
       before texture motion vectors: 2–5 %);
     - expression binds (sw_render_frame_avatar.material_overrides): a UV
       scale/offset draws the bound quadrant of the base colour texture; a
       base colour bind lerp(initial, target, w) scales the lit colour by
       exactly that factor;
     - hidden nodes: a hidden blocker neither draws nor casts its shadow;
     - MToon lighting: a floor seen from above, four texture quadrants,
       each pixel's HDR colour the spec's
       light·mix(shade·shadeTex, base, shading) + GI·base + emissive with
       the renderer's light and hemisphere, GI equalised.
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

typedef struct avatar {
    sw_model* model;
    sw_material_set materials;
    void* pose_memory;
    sw_pose pose;
} avatar;

static bool avatar_load(const char* name, avatar* a) {
    memset(a, 0, sizeof *a);
    char path[512];
    snprintf(path, sizeof path, "%s/vrm/%s", SW_TEST_DATA_DIR, name);
    sw_diag d = {0};
    if (sw_gltf_load_file(path, NULL, &a->model, &d) != SW_OK || sw_material_set_read(a->model, &a->materials, &d) != SW_OK) {
        fprintf(stderr, "  %s: %s\n", name, d.message);
        return false;
    }
    sw_pose_sizes sizes = sw_pose_sizes_of(a->model);
    a->pose_memory = aligned_alloc(16, (sw_pose_memory_size(&sizes) + 15) / 16 * 16);
    sw_pose_bind(&a->pose, &sizes, a->pose_memory);
    return sw_pose_evaluate(a->model, NULL, 0.0f, false, &a->pose, &d) == SW_OK;
}

static void avatar_free(avatar* a) {
    sw_material_set_free(&a->materials);
    sw_model_free(a->model);
    free(a->pose_memory);
}

static sw_renderer* renderer_for(avatar* a, int w, int h) {
    sw_renderer* r = NULL;
    sw_diag d = {0};
    if (sw_renderer_create(&(sw_renderer_desc){.width = w, .height = h, .shadow_map_size = 512}, &r, &d) != SW_OK ||
        sw_renderer_set_scene(r, a->model, &a->materials, &d) != SW_OK) {
        fprintf(stderr, "  renderer: %s\n", d.message);
        sw_renderer_destroy(r);
        return NULL;
    }
    return r;
}

static sw_camera look(float ex, float ey, float ez, float tx, float ty, float tz, float fov_degrees) {
    sw_camera c = {.eye = {ex, ey, ez}, .target = {tx, ty, tz}, .up = {0, 1, 0}, .fov_y = fov_degrees * 3.14159265f / 180.0f,
                   .z_near = 0.05f, .z_far = 50.0f};
    return c;
}

static bool draw(sw_renderer* r, sw_render_frame f) {
    sw_diag d = {0};
    if (sw_renderer_draw(r, &f, &d) == SW_OK) return true;
    fprintf(stderr, "  draw: %s\n", d.message);
    return false;
}

/* ---- UV animation ------------------------------------------------------------------ */

enum { MW = 160, MH = 96 };

/* The scroll quad head-on: its motion after 1/30 s is the scroll (1 UV/s
   in u) in pixels: the pattern moves by −Δu·(pixels per UV) along x. */
static void test_scroll_motion(void) {
    avatar a;
    if (!avatar_load("mtoon_uv_anim.gltf", &a)) {
        SW_CHECK(false);
        return;
    }
    sw_renderer* r = renderer_for(&a, MW, MH);
    SW_CHECK(r != NULL);
    float* motion = malloc(sizeof(float) * 2 * MW * MH);
    uint8_t* cls = malloc((size_t)MW * MH);
    if (r && motion && cls) {
        sw_camera c = look(-0.55f, 0.5f, 2.0f, -0.55f, 0.5f, 0.0f, 40.0f);
        sw_render_frame f = {.pose = &a.pose, .first_frame = true, .camera = {c, c}, .shading = {.time = 0.5f}};
        const float dt = 1.0f / 30.0f;
        SW_CHECK(draw(r, f));
        f.first_frame = false, f.shading.time += dt;
        SW_CHECK(draw(r, f));
        sw_diag d = {0};
        SW_CHECK(sw_renderer_read_motion(r, motion, &d) == SW_OK);
        SW_CHECK(sw_renderer_read_class(r, cls, &d) == SW_OK);
        /* The quad's width in pixels on the middle row: its pixels per UV. */
        int y = MH / 2, left = MW / 2, right = MW / 2;
        while (left > 0 && (cls[y * MW + left - 1] & SW_RENDER_CLASS_MASK) == SW_RENDER_CLASS_TOON) left--;
        while (right < MW - 1 && (cls[y * MW + right + 1] & SW_RENDER_CLASS_MASK) == SW_RENDER_CLASS_TOON) right++;
        const float pixels_per_u = (float)(right - left + 1);
        const float expected = -1.0f * dt * pixels_per_u; /* 1 UV/s */
        float mx = motion[2 * (y * MW + MW / 2)] * MW, my = motion[2 * (y * MW + MW / 2) + 1] * MH;
        printf("  scroll: %.3f px/frame (expected %.3f from %.0f px per UV), %.4f px vertically\n", mx, expected,
               pixels_per_u, my);
        SW_CHECK(pixels_per_u > 40.0f);
        SW_CHECK_NEAR(mx, expected, 0.03 * fabs(expected) + 0.05);
        SW_CHECK_NEAR(my, 0.0, 0.02);
    }
    free(motion), free(cls);
    sw_renderer_destroy(r);
    avatar_free(&a);
}

/* `frames` frames at 30 per second from t = 0 (after the TAA warm-up, as
   `sinew render` draws them) into out (frames × w × h × 4 bytes). */
static bool sequence(sw_renderer* r, avatar* a, sw_camera c, sw_render_aa aa, int frames, int w, int h, uint8_t* out) {
    sw_render_frame f = {.pose = &a->pose, .camera = {c, c}, .post = {.aa = aa}};
    const uint32_t warm_up = (aa & SW_RENDER_AA_TAA) ? SW_RENDER_TAA_WARM_UP : 0;
    for (uint32_t k = 0; k < warm_up; k++) {
        f.first_frame = k == 0, f.post.frame_index = k;
        if (!draw(r, f)) return false;
    }
    for (int k = 0; k < frames; k++) {
        f.first_frame = k == 0 && warm_up == 0;
        f.post.frame_index = warm_up + (uint32_t)k;
        f.shading.time = (float)k / 30.0f;
        sw_diag d = {0};
        if (!draw(r, f) || sw_renderer_read_image(r, out + (size_t)k * w * h * 4, &d) != SW_OK) return false;
    }
    return true;
}

/* The criterion on the UV-animation avatar, framed as `sinew
   render` frames it (its automatic camera, edge AA + TAA, half its default
   size): TAA against no AA, 12 frames, at most 0.4 % of the pixels off by
   more than 40/255. */
static void test_uv_animation_under_taa(void) {
    enum { W = 480, H = 270, FRAMES = 12 };
    avatar a;
    if (!avatar_load("mtoon_uv_anim.gltf", &a)) {
        SW_CHECK(false);
        return;
    }
    sw_renderer* taa = renderer_for(&a, W, H);
    sw_renderer* none = renderer_for(&a, W, H);
    uint8_t* with_taa = malloc((size_t)FRAMES * W * H * 4);
    uint8_t* without = malloc((size_t)FRAMES * W * H * 4);
    SW_CHECK(taa && none && with_taa && without);
    sw_camera c = {0};
    float lo[3], hi[3];
    sw_diag d = {0};
    SW_CHECK(taa && sw_renderer_scene_bounds(taa, &a.pose, lo, hi, &d) == SW_OK);
    sw_camera_frame_bounds(lo, hi, 25.0f, 10.0f, (float)W / H, &c);
    if (taa && none && with_taa && without && sequence(taa, &a, c, SW_RENDER_AA_EDGE_TAA, FRAMES, W, H, with_taa) &&
        sequence(none, &a, c, SW_RENDER_AA_NONE, FRAMES, W, H, without)) {
        size_t off = 0, worst = 0;
        for (int k = 0; k < FRAMES; k++) {
            size_t frame_off = 0;
            for (size_t p = 0; p < (size_t)W * H; p++) {
                const uint8_t* x = with_taa + ((size_t)k * W * H + p) * 4;
                const uint8_t* y = without + ((size_t)k * W * H + p) * 4;
                int diff = 0;
                for (int ch = 0; ch < 3; ch++) diff = abs(x[ch] - y[ch]) > diff ? abs(x[ch] - y[ch]) : diff;
                frame_off += diff > 40;
            }
            off += frame_off;
            worst = frame_off > worst ? frame_off : worst;
        }
        const double share = (double)off / ((double)FRAMES * W * H), worst_share = (double)worst / ((double)W * H);
        printf("  TAA vs no AA: %.3f %% of pixels off by > 40/255 over %d frames (worst frame %.3f %%)\n",
               100.0 * share, FRAMES, 100.0 * worst_share);
        SW_CHECK(share <= 0.004);
    } else {
        SW_CHECK(false);
    }
    free(with_taa), free(without);
    sw_renderer_destroy(taa);
    sw_renderer_destroy(none);
    avatar_free(&a);
}

/* ---- expression binds and hidden meshes ------------------------------------------- */

enum { BW = 96, BH = 96 };

/* The pixel (x from the left, y from the bottom, as the HDR rows go) where
   world point p lands. */
static void project(const sw_camera* c, int w, int h, const float p[3], int* x, int* y) {
    float m[16];
    sw_camera_view_projection(c, (float)w / h, m);
    float clip[4];
    for (int r = 0; r < 4; r++) clip[r] = m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r];
    *x = (int)floorf((clip[0] / clip[3] * 0.5f + 0.5f) * (float)w);
    *y = (int)floorf((clip[1] / clip[3] * 0.5f + 0.5f) * (float)h);
}

static const float* hdr_at(const float* hdr, const sw_camera* c, int w, int h, float px, float py, float pz) {
    int x, y;
    project(c, w, h, (const float[3]){px, py, pz}, &x, &y);
    return hdr + 4 * ((size_t)y * w + x);
}

/* The panel head-on, lit from +X (the blocker's shadow falls left of it,
   on no quadrant centre). */
static bool draw_binds(sw_renderer* r, avatar* a, const sw_camera* c, sw_render_frame_avatar binds, float* hdr) {
    sw_render_frame f = {.pose = &a->pose, .first_frame = true, .camera = {*c, *c},
                         .shading = {.light_direction = {1.0f, 0.0f, 0.4f}}, .avatar = binds};
    sw_diag d = {0};
    return draw(r, f) && sw_renderer_read_hdr(r, hdr, &d) == SW_OK;
}

/* Quadrant centres (world) of the panel: texture quadrant k (0 red top
   left, 1 green top right, 2 blue bottom left, 3 white bottom right). */
static const float quadrant_centre[4][3] = {{-0.5f, 1.5f, 0.0f}, {0.5f, 1.5f, 0.0f}, {-0.5f, 0.5f, 0.0f}, {0.5f, 0.5f, 0.0f}};

static void test_material_binds(void) {
    avatar a;
    if (!avatar_load("mtoon_binds.gltf", &a)) {
        SW_CHECK(false);
        return;
    }
    sw_renderer* r = renderer_for(&a, BW, BH);
    float* plain = malloc(sizeof(float) * 4 * BW * BH);
    float* bound = malloc(sizeof(float) * 4 * BW * BH);
    SW_CHECK(r && plain && bound);
    const sw_camera c = look(0.0f, 1.0f, 3.2f, 0.0f, 1.0f, 0.0f, 45.0f);
    if (r && plain && bound && draw_binds(r, &a, &c, (sw_render_frame_avatar){0}, plain)) {
        /* Without binds each quadrant shows its own colour: red, green, blue, white. */
        static const float texel[4][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 1}};
        for (int k = 0; k < 4; k++) {
            const float* p = hdr_at(plain, &c, BW, BH, quadrant_centre[k][0], quadrant_centre[k][1], quadrant_centre[k][2]);
            for (int ch = 0; ch < 3; ch++) SW_CHECK(texel[k][ch] > 0.5f ? p[ch] > 0.5f : p[ch] < 0.01f);
        }
        /* textureTransformBind scale (0.5, 0.5), offset (0.5, 0): every UV
           lands in [0.5, 1] × [0, 0.5], the green quadrant, everywhere. */
        sw_render_material_override o = {.material = 0, .fields = SW_RENDER_OVERRIDE_UV_TRANSFORM,
                                         .uv_scale = {0.5f, 0.5f}, .uv_offset = {0.5f, 0.0f}};
        SW_CHECK(draw_binds(r, &a, &c, (sw_render_frame_avatar){.material_override_count = 1, .material_overrides = &o},
                            bound));
        for (int k = 0; k < 4; k++) {
            const float* p = hdr_at(bound, &c, BW, BH, quadrant_centre[k][0], quadrant_centre[k][1], quadrant_centre[k][2]);
            SW_CHECK(p[1] > 0.5f && p[0] < 0.01f && p[2] < 0.01f);
        }
        /* materialColorBind on the base colour, weight 0.5 towards
           (0.5, 0.25, 1): lerp(initial, target, w) = (0.75, 0.625, 1). The
           lit colour is (light + GI) × base here, so each channel of the
           white quadrant scales by exactly that factor. */
        const float initial[4] = {1, 1, 1, 1}, target[4] = {0.5f, 0.25f, 1.0f, 1.0f}, w = 0.5f;
        sw_render_material_override colour = {.material = 0, .fields = SW_RENDER_OVERRIDE_BASE_COLOR};
        for (int ch = 0; ch < 4; ch++) colour.base_color[ch] = initial[ch] + (target[ch] - initial[ch]) * w;
        SW_CHECK(draw_binds(r, &a, &c,
                            (sw_render_frame_avatar){.material_override_count = 1, .material_overrides = &colour}, bound));
        const float* before = hdr_at(plain, &c, BW, BH, 0.5f, 0.5f, 0.0f);
        const float* after = hdr_at(bound, &c, BW, BH, 0.5f, 0.5f, 0.0f);
        for (int ch = 0; ch < 3; ch++) SW_CHECK_NEAR(after[ch] / before[ch], colour.base_color[ch], 2e-3);
        /* The next frame without binds draws the material as it was. */
        SW_CHECK(draw_binds(r, &a, &c, (sw_render_frame_avatar){0}, bound));
        SW_CHECK(memcmp(plain, bound, sizeof(float) * 4 * BW * BH) == 0);
        /* A bind naming a material the model lacks is refused. */
        o.material = 7;
        sw_render_frame f = {.pose = &a.pose, .first_frame = true, .camera = {c, c},
                             .avatar = {.material_override_count = 1, .material_overrides = &o}};
        sw_diag d = {0};
        SW_CHECK(sw_renderer_draw(r, &f, &d) == SW_ERR_INDEX_OUT_OF_RANGE);
    }
    free(plain), free(bound);
    sw_renderer_destroy(r);
    avatar_free(&a);
}

/* Panel pixels in shadow (lit colour far below the light's) and magenta
   (the blocker's) pixels. */
static void count_shadow(const float* hdr, const uint8_t* cls, int* dark, int* magenta) {
    *dark = *magenta = 0;
    for (size_t p = 0; p < (size_t)BW * BH; p++) {
        if ((cls[p] & SW_RENDER_CLASS_MASK) != SW_RENDER_CLASS_TOON) continue;
        const float* c = hdr + 4 * p;
        if (c[0] > 0.5f && c[1] < 0.1f && c[2] > 0.5f) (*magenta)++;
        else if (fmaxf(c[0], fmaxf(c[1], c[2])) < 0.5f) (*dark)++;
    }
}

static void test_hidden_nodes(void) {
    avatar a;
    if (!avatar_load("mtoon_binds.gltf", &a)) {
        SW_CHECK(false);
        return;
    }
    sw_renderer* r = renderer_for(&a, BW, BH);
    float* hdr = malloc(sizeof(float) * 4 * BW * BH);
    uint8_t* cls = malloc((size_t)BW * BH);
    uint8_t* hidden = calloc(a.model->node_count, 1);
    SW_CHECK(r && hdr && cls && hidden);
    const sw_camera c = look(0.0f, 1.0f, 3.2f, 0.0f, 1.0f, 0.0f, 45.0f);
    int blocker = -1;
    for (size_t n = 0; n < a.model->node_count; n++)
        if (a.model->nodes[n].name && strcmp(a.model->nodes[n].name, "Blocker") == 0) blocker = (int)n;
    SW_CHECK(blocker >= 0);
    sw_diag d = {0};
    if (r && hdr && cls && hidden && blocker >= 0 && draw_binds(r, &a, &c, (sw_render_frame_avatar){0}, hdr) &&
        sw_renderer_read_class(r, cls, &d) == SW_OK) {
        int dark, magenta;
        count_shadow(hdr, cls, &dark, &magenta);
        printf("  blocker drawn: %d shadowed panel pixels, %d blocker pixels\n", dark, magenta);
        SW_CHECK(dark > 30 && magenta > 30);
        hidden[blocker] = 1;
        SW_CHECK(draw_binds(r, &a, &c, (sw_render_frame_avatar){.hidden_nodes = hidden}, hdr));
        SW_CHECK(sw_renderer_read_class(r, cls, &d) == SW_OK);
        count_shadow(hdr, cls, &dark, &magenta);
        printf("  blocker hidden: %d shadowed panel pixels, %d blocker pixels\n", dark, magenta);
        SW_CHECK_EQ_INT(dark, 0);
        SW_CHECK_EQ_INT(magenta, 0);
    }
    free(hdr), free(cls), free(hidden);
    sw_renderer_destroy(r);
    avatar_free(&a);
}

/* ---- MToon lighting ---------------------------------------------------------------- */

static float srgb_decode(float c) { return c <= 0.04045f ? c / 12.92f : powf((c + 0.055f) / 1.055f, 2.4f); }

/* The floor from above, the light at N·L = 0.8: where the shading shift
   texture adds −1.5 (z < 0) the toony-1 step gives shading 0 (the shade
   colour × the shade texture), elsewhere 1 (the base colour); each pixel
   is MToon 1.0's colour with the renderer's toon light (colour
   (1, 2.5/2.6, 2.35/2.6)) and hemisphere (sky (0.55, 0.62, 0.75), ground
   (0.22, 0.2, 0.18), scale 0.3; toon_pass.c), its GI evened out by
   giEqualizationFactor 0.25 towards the hemisphere's mean. */
static void test_mtoon_lighting(void) {
    enum { W = 96, H = 96 };
    avatar a;
    if (!avatar_load("mtoon_features.gltf", &a)) {
        SW_CHECK(false);
        return;
    }
    sw_renderer* r = renderer_for(&a, W, H);
    float* hdr = malloc(sizeof(float) * 4 * W * H);
    SW_CHECK(r && hdr);
    sw_camera c = look(0.0f, 3.0f, 0.0f, 0.0f, 0.0f, 0.0f, 45.0f);
    c.up[0] = 0.0f, c.up[1] = 0.0f, c.up[2] = -1.0f;
    if (r && hdr) {
        /* The ground under the floor, not at its height. */
        sw_renderer_set_scene_box(r, (const float[3]){-1, -10, -1}, (const float[3]){1, 0, 1});
        sw_render_frame f = {.pose = &a.pose, .first_frame = true, .camera = {c, c},
                             .shading = {.light_direction = {0.6f, 0.8f, 0.0f}}};
        sw_diag d = {0};
        SW_CHECK(draw(r, f) && sw_renderer_read_hdr(r, hdr, &d) == SW_OK);
        const float light[3] = {1.0f, 2.5f / 2.6f, 2.35f / 2.6f}, sky[3] = {0.55f, 0.62f, 0.75f},
                    ground[3] = {0.22f, 0.2f, 0.18f};
        const float base[3] = {0.8f, 0.7f, 0.6f}, shade[3] = {0.2f, 0.4f, 0.6f}, emissive[3] = {0.05f, 0.0f, 0.0f};
        const float grey = srgb_decode(128.0f / 255.0f);
        for (int k = 0; k < 4; k++) {
            const bool right = k & 1, far = k < 2; /* far: z < 0, the shifted half (v < ½) */
            const float* p = hdr_at(hdr, &c, W, H, right ? 0.5f : -0.5f, 0.0f, far ? -0.5f : 0.5f);
            for (int ch = 0; ch < 3; ch++) {
                /* n = +Y: the hemisphere gives the sky; equalised 0.25 towards the mean. */
                const float gi = (sky[ch] + 0.25f * (0.5f * (sky[ch] + ground[ch]) - sky[ch])) * 0.3f;
                const float shade_texel = right ? grey : 1.0f;
                const float direct = far ? shade[ch] * shade_texel : base[ch];
                const float expected = light[ch] * direct + gi * base[ch] + emissive[ch];
                SW_CHECK_NEAR(p[ch], expected, 2e-3 + 2e-3 * expected);
            }
        }
        /* From below: the world outline's hull, 5 cm above the floor, shows
           its colour as it is (outlineLightingMixFactor 0). */
        sw_camera under = look(0.0f, -3.0f, 0.0f, 0.0f, 0.0f, 0.0f, 45.0f);
        under.up[0] = 0.0f, under.up[1] = 0.0f, under.up[2] = -1.0f;
        f.camera.current = f.camera.previous = under;
        SW_CHECK(draw(r, f) && sw_renderer_read_hdr(r, hdr, &d) == SW_OK);
        const float* p = hdr_at(hdr, &under, W, H, 0.0f, 0.05f, 0.0f);
        SW_CHECK_NEAR(p[0], 0.0, 1e-3);
        SW_CHECK_NEAR(p[1], 1.0, 1e-3);
        SW_CHECK_NEAR(p[2], 0.0, 1e-3);
    }
    free(hdr);
    sw_renderer_destroy(r);
    avatar_free(&a);
}

int main(void) {
    int skip = sw_test_gl_begin(&g_context);
    if (skip >= 0) return skip;
    SW_RUN(test_scroll_motion);
    SW_RUN(test_uv_animation_under_taa);
    SW_RUN(test_material_binds);
    SW_RUN(test_hidden_nodes);
    SW_RUN(test_mtoon_lighting);
    sw_gl_context_destroy(g_context);
    return sw_test_finish();
}
