/* The volumetric fog on the GPU (src/render/fog_pass.c, shaders/fog.comp +
   fog.frag; docs/fog.md), on the demo character at 128²:
     - fog density 0 leaves the frame bit-identical (image and HDR);
     - a uniform medium: every background pixel's HDR colour is
       c·T + S of the C reference (sw__fog_integrate_column with that
       pixel's ray, read at the end of the volume), within 3/255;
     - the same after three frames of a still camera (with the history),
       and of a moving one (history invalid at the side: repaired);
     - the character is fogged less than the background (it is nearer);
     - a ground layer alone (the medium's height term): every sky pixel is
       c·T + S of the C reference (sw__fog_extinction at each slice's
       sample point along the froxel columns' rays, read bilinearly as the
       composite reads the volume), within 3/255, and the sky near the
       horizon, whose rays run long through the low air, loses far more of
       its light than the sky high up (in a uniform medium every sky ray
       runs to the volume's end: the same T).
   The GL part skips, saying so, only when no EGL display exists. */
#include "test_post_scene.h"

#include "../../src/render/fog.h"
#include "../../src/render/sky.h"

static float hdr_plain[N * N * 4], hdr_fog[N * N * 4];
static uint8_t image_plain[N * N * 4], image_again[N * N * 4];
static uint8_t classes[N * N];
static sw__fog_froxel column[SW__FOG_SLICES];
static float integrated[SW__FOG_SLICES][4];

/* The camera moves this far sideways (and turns to keep the character in
   view) every frame: the history is invalid at the volume's side. */
static float g_step;

static sw_camera camera_of(int frame) {
    sw_camera c = g_camera;
    c.eye[0] += g_step * (float)frame;
    return c;
}

static bool draw_hdr_frames(float density, int frames, float* hdr, uint8_t* image) {
    for (int i = 0; i + 1 < frames; i++)
        if (!draw(g_small, (sw_render_frame){.first_frame = i == 0, .post.frame_index = (uint32_t)i,
                                             .camera = {camera_of(i), camera_of(i > 0 ? i - 1 : 0)},
                                             .shading = {.style = g_style, .fog_density = density}}, NULL))
            return false;
    sw_render_frame f = {.first_frame = frames == 1, .post.frame_index = (uint32_t)(frames - 1),
                         .camera = {camera_of(frames - 1), camera_of(frames > 1 ? frames - 2 : 0)},
                         .shading = {.style = g_style, .fog_density = density}};
    if (!draw(g_small, f, image)) return false;
    sw_diag d = {0};
    return sw_renderer_read_hdr(g_small, hdr, &d) == SW_OK;
}

static bool draw_hdr(float density, float* hdr, uint8_t* image) { return draw_hdr_frames(density, 1, hdr, image); }

/* The ray length per unit of view depth through the centre of GL pixel
   (x, y) (rows bottom first). */
static float ray_scale(int x, int y) {
    const float t = tanf(0.5f * g_camera.fov_y);
    const float u = ((float)x + 0.5f) / (float)N * 2.0f - 1.0f, v = ((float)y + 0.5f) / (float)N * 2.0f - 1.0f;
    return sqrtf(1.0f + u * u * t * t + v * v * t * t); /* square image: aspect 1 */
}

/* σ uniform, `frames` frames of the still camera (history from the
   second): the background against the C reference, the character fogged
   less than the background. */
static void check_uniform(float sigma, int frames) {
    SW_CHECK(draw_hdr_frames(0.0f, frames, hdr_plain, NULL));
    SW_CHECK(draw_hdr_frames(sigma, frames, hdr_fog, NULL));
    read_classes(g_small, N, classes); /* image rows */
    float light[3], ambient[3];
    sw__sky_light_scale(NAN, light, ambient);
    double worst = 0.0, character_change = 0.0, background_change = 0.0;
    int background = 0, character = 0;
    for (int y = 0; y < N; y++)
        for (int x = 0; x < N; x++) {
            const uint8_t cls = classes[(N - 1 - y) * N + x] & SW_RENDER_CLASS_MASK;
            const float* plain = &hdr_plain[(y * N + x) * 4];
            const float* fogged = &hdr_fog[(y * N + x) * 4];
            double change = fabs(fogged[1] - plain[1]);
            if (is_character(classes[(N - 1 - y) * N + x])) {
                character_change += change;
                character++;
            }
            if (cls != SW_RENDER_CLASS_BACKGROUND) continue;
            background_change += change;
            background++;
            for (int i = 0; i < SW__FOG_SLICES; i++) {
                column[i].extinction = sigma;
                for (int c = 0; c < 3; c++) column[i].scatter[c] = sigma * light[c];
            }
            sw__fog_integrate_column(column, ray_scale(x, y), integrated);
            float expected[3];
            sw__fog_apply(integrated[SW__FOG_SLICES - 1], plain, expected);
            for (int c = 0; c < 3; c++) {
                const double e = fabs((double)fogged[c] - (double)expected[c]);
                if (e > worst) worst = e;
            }
        }
    printf("  fog %.3g, %d frame(s): %d background pixels, worst |HDR − C reference| %.5f (×255: %.2f)\n", sigma,
           frames, background, worst, worst * 255.0);
    SW_CHECK(background > 100);
    SW_CHECK(worst <= 3.0 / 255.0);
    SW_CHECK(character > 100);
    if (character > 0 && background > 0)
        SW_CHECK(character_change / character < background_change / background);
}

/* The world direction through NDC (u, v), scaled to unit view depth (its
   component along the camera's forward axis is 1). */
static void ray_through(float u, float v, float out[3]) {
    float forward[3], right[3], up[3], len = 0.0f;
    for (int k = 0; k < 3; k++) forward[k] = g_camera.target[k] - g_camera.eye[k], len += forward[k] * forward[k];
    for (int k = 0; k < 3; k++) forward[k] /= sqrtf(len);
    const float* u0 = g_camera.up;
    right[0] = forward[1] * u0[2] - forward[2] * u0[1];
    right[1] = forward[2] * u0[0] - forward[0] * u0[2];
    right[2] = forward[0] * u0[1] - forward[1] * u0[0];
    len = sqrtf(right[0] * right[0] + right[1] * right[1] + right[2] * right[2]);
    for (int k = 0; k < 3; k++) right[k] /= len;
    up[0] = right[1] * forward[2] - right[2] * forward[1];
    up[1] = right[2] * forward[0] - right[0] * forward[2];
    up[2] = right[0] * forward[1] - right[1] * forward[0];
    const float t = tanf(0.5f * g_camera.fov_y); /* square image: aspect 1 */
    for (int k = 0; k < 3; k++) out[k] = forward[k] + u * t * right[k] + v * t * up[k];
}

/* The C reference at the end of froxel column (cx, cy) (clamped to the
   volume): the medium where a first frame samples it, each slice's middle
   (slice coordinate i + 0.5) on the column's centre ray, scattering red
   only. */
static void reference_column_end(const sw__fog_medium* medium, const float light[3], int cx, int cy, float out[4]) {
    cx = cx < 0 ? 0 : cx >= SW__FOG_WIDTH ? SW__FOG_WIDTH - 1 : cx;
    cy = cy < 0 ? 0 : cy >= SW__FOG_HEIGHT ? SW__FOG_HEIGHT - 1 : cy;
    float ray[3];
    ray_through(((float)cx + 0.5f) / SW__FOG_WIDTH * 2.0f - 1.0f, ((float)cy + 0.5f) / SW__FOG_HEIGHT * 2.0f - 1.0f,
                ray);
    for (int i = 0; i < SW__FOG_SLICES; i++) {
        const float z = sw__fog_slice_depth((float)i + 0.5f);
        column[i].extinction = sw__fog_extinction(medium, g_camera.eye[1] + ray[1] * z);
        for (int c = 0; c < 3; c++) column[i].scatter[c] = c == 0 ? column[i].extinction * light[c] : 0.0f;
    }
    sw__fog_integrate_column(column, sqrtf(ray[0] * ray[0] + ray[1] * ray[1] + ray[2] * ray[2]), integrated);
    memcpy(out, integrated[SW__FOG_SLICES - 1], 4 * sizeof(float));
}

/* A ground layer alone: fog_height_density `sigma` at and below `base`,
   falling off by e every `falloff` above it, scattering red only (the
   green channel keeps c·T: T measured). */
static void check_height_layer(float sigma, float base, float falloff) {
    const sw_render_frame_shading layer = {.style = g_style, .fog_colour = {1.0f, 0.0f, 0.0f},
                                           .fog_height_density = sigma, .fog_height_base = base,
                                           .fog_height_falloff = falloff};
    sw_diag d = {0};
    SW_CHECK(draw(g_small, (sw_render_frame){.first_frame = true, .shading.style = g_style}, NULL));
    SW_CHECK(sw_renderer_read_hdr(g_small, hdr_plain, &d) == SW_OK);
    SW_CHECK(draw(g_small, (sw_render_frame){.first_frame = true, .shading = layer}, NULL));
    SW_CHECK(sw_renderer_read_hdr(g_small, hdr_fog, &d) == SW_OK);
    read_classes(g_small, N, classes); /* image rows */
    const sw__fog_medium medium = {.height_density = sigma, .height_base = base, .height_falloff = falloff};
    float light[3], ambient[3];
    sw__sky_light_scale(NAN, light, ambient);
    double worst = 0.0, worst_uniform = 0.0, row_fogged[N] = {0};
    int row_count[N] = {0}, sky = 0;
    for (int y = 0; y < N; y++)
        for (int x = 0; x < N; x++) {
            if ((classes[(N - 1 - y) * N + x] & SW_RENDER_CLASS_MASK) != SW_RENDER_CLASS_BACKGROUND) continue;
            const float u = ((float)x + 0.5f) / (float)N, v = ((float)y + 0.5f) / (float)N;
            float ray[3];
            ray_through(u * 2.0f - 1.0f, v * 2.0f - 1.0f, ray);
            /* The sky: rays that rise (the background below the horizon,
               beyond the ground, is air under the ground, in its shadow). */
            if (!(ray[1] > 0.0f)) continue;
            sky++;
            /* As the composite reads the volume: bilinear between the four
               nearest froxel columns (near the horizon a layer's T changes
               faster than the 68 froxel rows follow). */
            const float fx = u * SW__FOG_WIDTH - 0.5f, fy = v * SW__FOG_HEIGHT - 0.5f;
            const int cx = (int)floorf(fx), cy = (int)floorf(fy);
            const float ax = fx - (float)cx, ay = fy - (float)cy;
            float fog[4] = {0.0f, 0.0f, 0.0f, 0.0f}, corner[4];
            for (int k = 0; k < 4; k++) {
                reference_column_end(&medium, light, cx + (k & 1), cy + (k >> 1), corner);
                const float w = ((k & 1) ? ax : 1.0f - ax) * ((k >> 1) ? ay : 1.0f - ay);
                for (int c = 0; c < 4; c++) fog[c] += w * corner[c];
            }
            const float* plain = &hdr_plain[(y * N + x) * 4];
            const float* fogged = &hdr_fog[(y * N + x) * 4];
            float expected[3];
            sw__fog_apply(fog, plain, expected);
            for (int c = 0; c < 3; c++) worst = fmax(worst, fabs((double)fogged[c] - (double)expected[c]));
            /* What a renderer without the height term would leave: the plain sky. */
            worst_uniform = fmax(worst_uniform, fabs((double)fogged[1] - (double)plain[1]));
            row_fogged[y] += 1.0 - (double)fogged[1] / (double)plain[1]; /* 1 − T */
            row_count[y]++;
        }
    /* 1 − T over the lowest and the highest ten rows of sky. */
    double low = 0.0, high = 0.0;
    int low_rows = 0, high_rows = 0;
    for (int y = 0; y < N && low_rows < 10; y++)
        if (row_count[y] > 0) low += row_fogged[y] / row_count[y], low_rows++;
    for (int y = N - 1; y >= 0 && high_rows < 10; y--)
        if (row_count[y] > 0) high += row_fogged[y] / row_count[y], high_rows++;
    low /= low_rows ? low_rows : 1, high /= high_rows ? high_rows : 1;
    printf("  ground layer %.3g below %.3g, falloff %.3g: %d sky pixels, worst |HDR − C reference| %.5f "
           "(×255: %.2f; without the layer %.2f); 1 − T: lowest sky rows %.4f, highest %.4f\n",
           sigma, base, falloff, sky, worst, worst * 255.0, worst_uniform * 255.0, low, high);
    SW_CHECK(sky > 100);
    SW_CHECK(worst <= 3.0 / 255.0);
    SW_CHECK(low > 2.0 * high);
}

static void test_fog_gpu(void) {
    SW_CHECK(draw_hdr(0.0f, hdr_plain, image_plain));
    /* Off: the same frame, bit for bit (a negative density is off too). */
    SW_CHECK(draw_hdr(-1.0f, hdr_fog, image_again));
    SW_CHECK(memcmp(image_plain, image_again, sizeof image_plain) == 0);
    SW_CHECK(memcmp(hdr_plain, hdr_fog, sizeof hdr_plain) == 0);
    /* One frame (no history), then three of a still camera: the history of
       a uniform medium is the medium itself. */
    check_uniform(0.01f, 1);
    check_uniform(0.01f, 3);
    /* A camera that moves: the froxels whose history falls outside the
       previous volume are repaired from their 27 neighbours; a uniform
       medium stays uniform. */
    g_step = 0.3f;
    check_uniform(0.01f, 3);
    g_step = 0.0f;
    /* The medium's second term: a layer on the ground (her feet at y 0). */
    check_height_layer(0.2f, 0.0f, 0.5f);
}

int main(void) {
    int early = sw_test_gl_begin(&g_context);
    if (early >= 0) return early ? early : sw_test_finish();
    SW_CHECK(post_scene_begin());
    if (g_small) SW_RUN(test_fog_gpu);
    post_scene_end();
    return sw_test_finish();
}
