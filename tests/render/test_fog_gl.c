/* The volumetric fog on the GPU (src/render/fog_pass.c, shaders/fog.comp +
   fog.frag; docs/fog.md), on the demo character at 128²:
     - fog density 0 leaves the frame bit-identical (image and HDR);
     - a uniform medium: every background pixel's HDR colour is
       c·T + S of the C reference (sw__fog_integrate_column with that
       pixel's ray, read at the end of the volume), within 3/255;
     - the same after three frames of a still camera (with the history),
       and of a moving one (history invalid at the side: repaired);
     - the character is fogged less than the background (it is nearer).
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
}

int main(void) {
    int early = sw_test_gl_begin(&g_context);
    if (early >= 0) return early ? early : sw_test_finish();
    SW_CHECK(post_scene_begin());
    if (g_small) SW_RUN(test_fog_gpu);
    post_scene_end();
    return sw_test_finish();
}
