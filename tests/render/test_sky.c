/* The sky (src/render/sky.c, shaders/sky.frag; docs/sky.md):
     - the time model against hand-computed sun positions;
     - the gradient table has no jumps; stars only at night;
     - on the GPU (160×120, the demo character): every background pixel is
       the C function's colour for its direction, after display mapping,
       within 2/255 (a small share may differ where a star's noise texel
       or the sun disc's edge falls between pixels), at dawn, noon and
       midnight; the character's pixels are the same under any sky;
       dawn and noon differ; a turning camera gives the background the
       turn's motion.
   The GL part skips, saying so, only when no EGL display exists. */
#include "test_post_scene.h"

#include "sinew/math.h"
#include "../../src/render/sky.h"

enum { W = 160, H = 120 };

static float elevation_degrees(const float d[3]) { return asinf(d[1]) * 180.0f / 3.14159265f; }

static void test_sun_positions(void) {
    float d[3];
    /* Noon: due south, 90° − 45° = 45° high. */
    sw__sky_sun_direction(12.0f, d);
    SW_CHECK_NEAR(d[0], 0.0f, 1e-6f);
    SW_CHECK_NEAR(elevation_degrees(d), 45.0f, 1e-3f);
    SW_CHECK(d[2] > 0.0f);
    /* Midnight: 45° below the northern horizon. */
    sw__sky_sun_direction(0.0f, d);
    SW_CHECK_NEAR(elevation_degrees(d), -45.0f, 1e-3f);
    SW_CHECK(d[2] < 0.0f);
    /* Dawn at 6:00 due east, dusk at 18:00 due west, on the horizon. */
    sw__sky_sun_direction(6.0f, d);
    SW_CHECK_NEAR(d[0], 1.0f, 1e-6f);
    SW_CHECK_NEAR(d[1], 0.0f, 1e-6f);
    sw__sky_sun_direction(18.0f, d);
    SW_CHECK_NEAR(d[0], -1.0f, 1e-6f);
    SW_CHECK_NEAR(d[1], 0.0f, 1e-6f);
    /* 9:00: H = −45°, sin(elevation) = cos 45°·cos 45° = 1/2: 30°. */
    sw__sky_sun_direction(9.0f, d);
    SW_CHECK_NEAR(elevation_degrees(d), 30.0f, 1e-3f);
    /* 24 wraps to 0; a unit vector. */
    float e[3];
    sw__sky_sun_direction(24.0f, e);
    sw__sky_sun_direction(0.0f, d);
    for (int k = 0; k < 3; k++) SW_CHECK_NEAR(d[k], e[k], 1e-5f);
    SW_CHECK_NEAR(d[0] * d[0] + d[1] * d[1] + d[2] * d[2], 1.0f, 1e-5f);
    /* The light: the sun by day, the moon (opposite) by night. */
    sw__sky_light_direction(12.0f, e);
    sw__sky_sun_direction(12.0f, d);
    for (int k = 0; k < 3; k++) SW_CHECK_NEAR(e[k], d[k], 1e-6f);
    sw__sky_light_direction(0.0f, e);
    sw__sky_sun_direction(0.0f, d);
    for (int k = 0; k < 3; k++) SW_CHECK_NEAR(e[k], -d[k], 1e-6f);
}

static void test_gradient(void) {
    static float table[SW_SKY_GRADIENT_WIDTH * 2 * 4];
    const float hours[] = {-1.0f, 0.0f, 5.5f, 6.0f, 6.5f, 9.0f, 12.0f, 18.2f, 21.0f};
    for (size_t h = 0; h < sizeof hours / sizeof hours[0]; h++) {
        sw__sky_params p;
        sw__sky_params_at(hours[h], &p);
        sw__sky_gradient(&p, table);
        /* Row 0 (the sky against elevation): no step larger than 1 % of the
           brightest value between neighbouring texels. */
        float worst = 0.0f, brightest = 0.0f;
        for (int i = 0; i < SW_SKY_GRADIENT_WIDTH; i++)
            for (int k = 0; k < 3; k++) {
                brightest = fmaxf(brightest, table[4 * i + k]);
                if (i) worst = fmaxf(worst, fabsf(table[4 * i + k] - table[4 * (i - 1) + k]));
            }
        SW_CHECK(worst <= 0.01f * brightest);
        /* Continuous in time too: a minute later, every texel within 5 %. */
        sw__sky_params q;
        sw__sky_params_at(hours[h] < 0.0f ? hours[h] : hours[h] + 1.0f / 60.0f, &q);
        static float later[SW_SKY_GRADIENT_WIDTH * 2 * 4];
        sw__sky_gradient(&q, later);
        for (int i = 0; i < SW_SKY_GRADIENT_WIDTH; i++)
            for (int k = 0; k < 3; k++) {
                const bool near = fabsf(later[4 * i + k] - table[4 * i + k]) <= 0.05f * brightest + 1e-4f;
                if (!near) fprintf(stderr, "  %.2f h, texel %d: %g then %g\n", hours[h], i, table[4 * i + k], later[4 * i + k]);
                SW_CHECK(near);
                if (!near) break;
            }
    }
    /* The default look: the old gradient's colours at the horizon and the zenith. */
    sw__sky_params p;
    sw__sky_params_at(NAN, &p);
    SW_CHECK(!p.timed);
    sw__sky_gradient(&p, table);
    float c[3];
    sw__sky_gradient_sample(table, 0, 0.5f, c);
    SW_CHECK_NEAR(c[0], 0.78f, 2e-3f);
    SW_CHECK_NEAR(c[2], 0.84f, 2e-3f);
    sw__sky_gradient_sample(table, 0, 0.5f + 0.5f * 0.3f, c); /* 17.5° up */
    SW_CHECK_NEAR(c[0], 0.32f, 2e-3f);
    SW_CHECK_NEAR(c[2], 0.58f, 2e-3f);
}

static void test_stars_only_at_night(void) {
    static sw__sky_tables t;
    sw__sky_noise(t.noise);
    sw__sky_star_palette(t.palette);
    /* About (256 − threshold) / 256 of the texels are stars. */
    size_t stars = 0;
    for (size_t i = 0; i < sizeof t.noise; i++) stars += t.noise[i] >= SW_SKY_STAR_THRESHOLD;
    SW_CHECK(stars > 900 && stars < 1700);
    for (float h = 6.0f; h <= 18.0f; h += 0.25f) {
        sw__sky_params p;
        sw__sky_params_at(h, &p);
        SW_CHECK(p.stars == 0.0f);
    }
    sw__sky_params night;
    sw__sky_params_at(0.0f, &night);
    SW_CHECK(night.stars == 1.0f);
    /* At midnight some directions above the horizon carry a star: brighter
       than the same sky without stars. */
    sw__sky_gradient(&night, t.gradient);
    sw__sky_params starless = night;
    starless.stars = 0.0f;
    size_t lit = 0, total = 0;
    for (int i = 0; i < 64; i++)
        for (int j = 0; j < 64; j++) {
            const float azimuth = (float)i / 64.0f * 6.2831853f, y = 0.1f + 0.85f * (float)j / 64.0f;
            const float r = sqrtf(1.0f - y * y), d[3] = {r * cosf(azimuth), y, r * sinf(azimuth)};
            float a[3], b[3];
            sw__sky_background(&night, &t, d, a);
            sw__sky_background(&starless, &t, d, b);
            lit += a[0] + a[1] + a[2] > b[0] + b[1] + b[2] + 0.1f;
            total++;
        }
    SW_CHECK(lit > total / 1000 && lit < total / 20);
}

/* ---- on the GPU ---------------------------------------------------------------------- */

static float aces(float x) {
    const float y = (x * (2.51f * x + 0.03f)) / (x * (2.43f * x + 0.59f) + 0.14f);
    return y < 0.0f ? 0.0f : y > 1.0f ? 1.0f : y;
}
static float srgb(float c) {
    c = c < 0.0f ? 0.0f : c > 1.0f ? 1.0f : c;
    return c < 0.0031308f ? c * 12.92f : 1.055f * powf(c, 1.0f / 2.4f) - 0.055f;
}

static sw_renderer* g_sky_renderer;
static sw_camera g_view; /* looking east, a little up: the dawn sun in view */
static float g_light[3] = {-0.45f, 0.8f, 0.55f};

static bool draw_at(float hours, const sw_camera* previous, bool first) {
    sw_render_frame f = {.first_frame = first};
    f.camera.current = g_view;
    f.camera.previous = previous ? *previous : g_view;
    f.shading.time_of_day_given = hours >= 0.0f;
    f.shading.time_of_day = hours;
    memcpy(f.shading.light_direction, g_light, sizeof g_light);
    return draw(g_sky_renderer, f, NULL);
}

/* The direction through pixel (x, y) (GL rows, bottom first) of the camera. */
static void pixel_direction(const sw_mat4* inverse, int x, int y, float d[3]) {
    const float nx = ((float)x + 0.5f) / W * 2.0f - 1.0f, ny = ((float)y + 0.5f) / H * 2.0f - 1.0f;
    sw_vec4 n = sw_mat4_apply(inverse, (sw_vec4){nx, ny, -1.0f, 1.0f});
    sw_vec4 f = sw_mat4_apply(inverse, (sw_vec4){nx, ny, 1.0f, 1.0f});
    d[0] = f.x / f.w - n.x / n.w, d[1] = f.y / f.w - n.y / n.w, d[2] = f.z / f.w - n.z / n.w;
}

/* The background against sw__sky_color at `hours`; the HDR read back into hdr. */
static void check_background(float hours, float* hdr, uint8_t* cls) {
    sw_diag d = {0};
    SW_CHECK(draw_at(hours, NULL, true));
    SW_CHECK(sw_renderer_read_hdr(g_sky_renderer, hdr, &d) == SW_OK);
    SW_CHECK(sw_renderer_read_class(g_sky_renderer, cls, &d) == SW_OK);
    static sw__sky_tables t;
    sw__sky_params p;
    sw__sky_params_at(hours, &p);
    sw__sky_gradient(&p, t.gradient);
    sw__sky_noise(t.noise);
    sw__sky_star_palette(t.palette);
    sw_mat4 vp, inverse;
    sw_camera_view_projection(&g_view, (float)W / H, vp.m);
    sw_mat4_inverse(&inverse, &vp);
    size_t background = 0, good = 0;
    float worst = 0.0f;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            const size_t i = (size_t)y * W + (size_t)x;
            if ((cls[i] & SW_RENDER_CLASS_MASK) != SW_RENDER_CLASS_BACKGROUND) continue;
            float dir[3], c[3];
            pixel_direction(&inverse, x, y, dir);
            sw__sky_color(&p, &t, dir, c);
            float e = 0.0f;
            for (int k = 0; k < 3; k++) e = fmaxf(e, fabsf(srgb(aces(c[k])) - srgb(aces(hdr[4 * i + k]))) * 255.0f);
            background++;
            good += e <= 2.0f;
            worst = fmaxf(worst, e);
        }
    fprintf(stderr, "  %5.2f h: %zu background pixels, %.2f %% within 2/255 of the C sky (worst %.1f/255)\n", hours,
            background, 100.0 * (double)good / (double)(background ? background : 1), worst);
    SW_CHECK(background > (size_t)W * H / 4);
    SW_CHECK(good >= background - background / 200); /* 99.5 % */
}

static void test_background_is_the_c_sky(void) {
    const size_t count = (size_t)W * H;
    float* dawn = malloc(count * 4 * sizeof(float));
    float* noon = malloc(count * 4 * sizeof(float));
    float* midnight = malloc(count * 4 * sizeof(float));
    float* plain = malloc(count * 4 * sizeof(float));
    float* morning = malloc(count * 4 * sizeof(float));
    uint8_t* cls = malloc(count);
    SW_CHECK(dawn && noon && midnight && plain && morning && cls);
    if (!(dawn && noon && midnight && plain && morning && cls)) return;
    check_background(6.5f, dawn, cls);
    check_background(12.0f, noon, cls);
    check_background(0.0f, midnight, cls);
    check_background(-1.0f, plain, cls);
    check_background(10.0f, morning, cls);
    /* The character and the ground: the same HDR under the plain, the 10:00
       and the noon sky (the light's direction is the frame's own here, and
       the time of day leaves the light's colour alone while the sun stands
       above 17°: sw__sky_light_scale). Dawn and noon skies differ. */
    float light[3], ambient[3];
    sw__sky_light_scale(10.0f, light, ambient);
    for (int k = 0; k < 3; k++) SW_CHECK(light[k] == 1.0f && ambient[k] == 1.0f);
    size_t other = 0, changed = 0, sky_changed = 0, sky = 0;
    for (size_t i = 0; i < count; i++) {
        const bool is_sky = (cls[i] & SW_RENDER_CLASS_MASK) == SW_RENDER_CLASS_BACKGROUND;
        float dn = 0.0f, dp = 0.0f;
        for (int k = 0; k < 3; k++) {
            dn = fmaxf(dn, fabsf(dawn[4 * i + k] - noon[4 * i + k]));
            dp = fmaxf(dp, fmaxf(fabsf(morning[4 * i + k] - plain[4 * i + k]), fabsf(noon[4 * i + k] - plain[4 * i + k])));
        }
        if (is_sky) {
            sky++;
            sky_changed += dn > 0.05f;
        } else {
            other++;
            changed += dp > 0.0f;
        }
    }
    fprintf(stderr, "  dawn against noon: %zu of %zu sky pixels differ by more than 0.05; plain, 10:00, noon: %zu of %zu others differ\n",
            sky_changed, sky, changed, other);
    SW_CHECK(other > 1000);
    SW_CHECK_EQ_INT(changed, 0);
    SW_CHECK(sky_changed > sky / 2);
    free(dawn), free(noon), free(midnight), free(plain), free(morning), free(cls);
}

/* A camera turned 2° about the vertical between frames: the background's
   motion is the turn's, (this NDC − the previous camera's NDC of the same
   direction) / 2, as the G-buffer pass writes the scene's. */
static void test_background_motion(void) {
    sw_camera before = g_view;
    const float a = 2.0f * 3.14159265f / 180.0f;
    float f[3];
    for (int k = 0; k < 3; k++) f[k] = g_view.target[k] - g_view.eye[k];
    before.target[0] = g_view.eye[0] + cosf(a) * f[0] - sinf(a) * f[2];
    before.target[2] = g_view.eye[2] + sinf(a) * f[0] + cosf(a) * f[2];
    SW_CHECK(draw_at(12.0f, &g_view, true));
    SW_CHECK(draw_at(12.0f, &before, false));
    const size_t count = (size_t)W * H;
    float* motion = malloc(count * 2 * sizeof(float));
    uint8_t* cls = malloc(count);
    sw_diag d = {0};
    SW_CHECK(motion && cls);
    if (!motion || !cls) return;
    SW_CHECK(sw_renderer_read_motion(g_sky_renderer, motion, &d) == SW_OK);
    SW_CHECK(sw_renderer_read_class(g_sky_renderer, cls, &d) == SW_OK);
    sw_mat4 vp, inverse, previous;
    sw_camera_view_projection(&g_view, (float)W / H, vp.m);
    sw_mat4_inverse(&inverse, &vp);
    sw_camera_view_projection(&before, (float)W / H, previous.m);
    size_t background = 0, good = 0;
    float mean = 0.0f;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            const size_t i = (size_t)y * W + (size_t)x;
            if ((cls[i] & SW_RENDER_CLASS_MASK) != SW_RENDER_CLASS_BACKGROUND) continue;
            float dir[3];
            pixel_direction(&inverse, x, y, dir);
            sw_vec4 p = sw_mat4_apply(&previous, (sw_vec4){dir[0], dir[1], dir[2], 0.0f});
            const float mx = (((float)x + 0.5f) / W * 2.0f - 1.0f - p.x / p.w) * 0.5f;
            const float my = (((float)y + 0.5f) / H * 2.0f - 1.0f - p.y / p.w) * 0.5f;
            background++;
            mean += fabsf(motion[2 * i]);
            good += fabsf(motion[2 * i] - mx) < 2e-3f && fabsf(motion[2 * i + 1] - my) < 2e-3f;
        }
    mean /= (float)(background ? background : 1);
    fprintf(stderr, "  turn of 2°: %zu of %zu background pixels move as the turn (mean |dx| %.4f)\n", good, background,
            (double)mean);
    SW_CHECK(background > count / 4);
    SW_CHECK(good == background);
    SW_CHECK(mean > 0.01f); /* 2° of a 60°-wide view ≈ 0.017 of the width */
    free(motion), free(cls);
}

int main(void) {
    SW_RUN(test_sun_positions);
    SW_RUN(test_gradient);
    SW_RUN(test_stars_only_at_night);
    int early = sw_test_gl_begin(&g_context);
    if (early >= 0) return early ? early : sw_test_finish();
    sw_diag d = {0};
    sw_renderer_desc desc = {.width = W, .height = H, .shadow_map_size = 512};
    bool ok = load_demo() && sw_renderer_create(&desc, &g_sky_renderer, &d) == SW_OK &&
              sw_renderer_set_scene(g_sky_renderer, g_asset, &g_materials, &d) == SW_OK;
    SW_CHECK(ok);
    if (ok) {
        pose_at(0.0f);
        float lo[3], hi[3];
        SW_CHECK(sw_renderer_scene_bounds(g_sky_renderer, &g_pose, lo, hi, &d) == SW_OK);
        /* From the west of the character, looking east and a little up. */
        const float c[3] = {0.5f * (lo[0] + hi[0]), 0.5f * (lo[1] + hi[1]), 0.5f * (lo[2] + hi[2])};
        const float size = hi[1] - lo[1];
        g_view = (sw_camera){.eye = {c[0] - 2.2f * size, c[1], c[2]},
                             .target = {c[0], c[1] + 0.35f * size, c[2]},
                             .up = {0, 1, 0},
                             .fov_y = 60.0f * 3.14159265f / 180.0f,
                             .z_near = 0.05f,
                             .z_far = 100.0f};
        SW_RUN(test_background_is_the_c_sky);
        SW_RUN(test_background_motion);
    }
    sw_renderer_destroy(g_sky_renderer);
    free(g_pose_memory);
    sw_model_free(g_asset);
    sw_gl_context_destroy(g_context);
    return sw_test_finish();
}
