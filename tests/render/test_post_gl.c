/* The post chain on llvmpipe (or whatever EGL gives), small images of the
   demo character (docs/post.md has the numbers these print):
     - against supersampling: edge AA, TAA and both are each closer than no
       AA to a 4×-size render box-filtered down, over the character's edge
       pixels, by a factor per mode;
     - bloom only adds light; motion blur changes nothing without motion
       and something with it;
     - the same options give the same bytes.
   test_post_taa.c has TAA over time. Skips, saying so, only when no EGL
   display exists at all. */
#include "test_post_scene.h"

static void test_against_supersampling(void) {
    sw_renderer* big = make_renderer(N * SS);
    SW_CHECK(big != NULL);
    if (!big) return;
    const size_t count = (size_t)N * N;
    uint8_t* ref_big = malloc(count * SS * SS * 4);
    uint8_t* classes_big = malloc(count * SS * SS);
    /* PBR shading: toon outlines are at least a pixel wide at every size,
       so a toon picture at N is not the 4N one downsampled; PBR edges are. */
    g_style = SW_RENDER_STYLE_PBR;
    uint8_t* reference = malloc(count * 4);
    uint8_t* image = malloc(count * 4);
    bool* mask = calloc(count, sizeof(bool));
    SW_CHECK(ref_big && classes_big && reference && image && mask);
    if (ref_big && classes_big && reference && image && mask && still(big, SW_RENDER_AA_NONE, ref_big)) {
        read_classes(big, N * SS, classes_big);
        /* The reference: each SS×SS block averaged (display values, as the
           AA passes blend them); edge pixels: blocks the character's
           outline crosses. */
        size_t edges = 0;
        for (int y = 0; y < N; y++)
            for (int x = 0; x < N; x++) {
                int sum[3] = {0, 0, 0}, inside = 0;
                for (int v = 0; v < SS; v++)
                    for (int u = 0; u < SS; u++) {
                        size_t i = (size_t)(y * SS + v) * (N * SS) + (size_t)(x * SS + u);
                        for (int c = 0; c < 3; c++) sum[c] += ref_big[i * 4 + c];
                        inside += is_character(classes_big[i]);
                    }
                for (int c = 0; c < 3; c++) reference[((size_t)y * N + x) * 4 + c] = (uint8_t)((sum[c] + SS * SS / 2) / (SS * SS));
                mask[(size_t)y * N + x] = inside > 0 && inside < SS * SS;
                edges += mask[(size_t)y * N + x];
            }
        SW_CHECK(edges > 100);
        const struct { sw_render_aa aa; const char* name; double factor; } modes[] = {
            {SW_RENDER_AA_NONE, "none", 1.0},
            {SW_RENDER_AA_EDGE, "edge", 1.3},
            {SW_RENDER_AA_TAA, "taa", 2.0},
            {SW_RENDER_AA_EDGE_TAA, "edge+taa", 1.6},
        };
        double none = 0.0;
        for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
            if (!still(g_small, modes[m].aa, image)) break;
            double e = masked_error(image, reference, mask, count);
            printf("  %-9s mean error over %zu edge pixels: %.2f / 255\n", modes[m].name, edges, e);
            if (m == 0) none = e;
            /* Each AA mode is closer to the supersampled picture than none, by its factor. */
            else SW_CHECK(e * modes[m].factor < none);
        }
    }
    g_style = SW_RENDER_STYLE_AUTO;
    free(ref_big), free(classes_big), free(reference), free(image), free(mask);
    sw_renderer_destroy(big);
}

static void test_bloom_and_motion_blur(void) {
    const size_t count = (size_t)N * N;
    uint8_t* plain = malloc(count * 4), *image = malloc(count * 4);
    SW_CHECK(plain && image);
    if (plain && image) {
        draw(g_small, (sw_render_frame){.first_frame = true}, plain);
        draw(g_small, (sw_render_frame){.first_frame = true, .post.bloom = true}, image);
        int darker = 0;
        long brighter = 0;
        for (size_t i = 0; i < count * 4; i++) {
            darker += image[i] + 1 < plain[i];
            brighter += image[i] > plain[i];
        }
        printf("  bloom brightened %ld channel values, darkened %d\n", brighter, darker);
        SW_CHECK(darker == 0 && brighter > 0);
        /* No motion (a first frame): the blur leaves every pixel alone. */
        draw(g_small, (sw_render_frame){.first_frame = true, .post.motion_blur = true}, image);
        SW_CHECK(memcmp(image, plain, count * 4) == 0);
        /* A panning camera: it does blur. */
        sw_camera moved = g_camera;
        moved.eye[0] += 0.1f, moved.target[0] += 0.1f;
        draw(g_small, (sw_render_frame){.camera.current = moved, .camera.previous = g_camera}, plain);
        draw(g_small, (sw_render_frame){.camera.current = moved, .camera.previous = g_camera, .post.motion_blur = true}, image);
        SW_CHECK(memcmp(image, plain, count * 4) != 0);
    }
    free(plain), free(image);
}

static void test_deterministic(void) {
    const size_t count = (size_t)N * N;
    uint8_t* a = malloc(count * 4), *b = malloc(count * 4);
    SW_CHECK(a && b);
    if (a && b) {
        uint8_t* out[2] = {a, b};
        for (int run = 0; run < 2; run++) {
            sw_camera previous = g_camera;
            for (int f = 0; f < 4; f++) {
                sw_camera c = g_camera;
                c.eye[0] += 0.02f * (float)f, c.target[0] += 0.02f * (float)f;
                pose_at(0.1f * (float)f);
                draw(g_small, (sw_render_frame){.camera.current = c, .camera.previous = previous, .first_frame = f == 0,
                                                .post.aa = SW_RENDER_AA_EDGE_TAA, .post.bloom = true, .post.motion_blur = true,
                                                .post.frame_index = (uint32_t)f}, out[run]);
                previous = c;
            }
        }
        SW_CHECK(memcmp(a, b, count * 4) == 0);
        pose_at(0.0f);
    }
    free(a), free(b);
}

int main(void) {
    int early = sw_test_gl_begin(&g_context);
    if (early >= 0) return early;
    if (post_scene_begin()) {
        SW_RUN(test_against_supersampling);
        SW_RUN(test_bloom_and_motion_blur);
        SW_RUN(test_deterministic);
    } else {
        SW_CHECK(false);
    }
    post_scene_end();
    return sw_test_finish();
}
