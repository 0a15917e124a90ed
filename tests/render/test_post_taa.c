/* TAA over time on llvmpipe (or whatever EGL gives), the demo character
   at 128² (docs/post.md has the numbers these print):
     - temporal stability: over a slow animation under a still camera, TAA
       changes edge pixels from frame to frame at least 1.5× less than no
       AA does;
     - no ghosting: once the camera has moved the character away, the
       pixels it left are background again after one frame;
     - accumulation: a still settles (full history of 12, the change
       between frames shrinking by 4× or more), fast motion caps the
       history at 2 frames.
   Skips, saying so, only when no EGL display exists at all. */
#include "test_post_scene.h"

/* Mean frame-to-frame change (0..255) over pixels that are edge pixels in
   either of two frames, over `frames` frames of a slow walk. */
static double shimmer(sw_render_aa aa, int frames) {
    const size_t count = (size_t)N * N;
    uint8_t* previous = malloc(count * 4);
    uint8_t* image = malloc(count * 4);
    uint8_t* classes = malloc(count);
    bool* mask = malloc(count * sizeof(bool));
    bool* mask2 = malloc(count * sizeof(bool));
    double total = 0.0;
    /* Two jitter cycles first: the history full, as in a running sequence. */
    uint32_t warm = (aa & SW_RENDER_AA_TAA) ? 2 * SW_RENDER_TAA_WARM_UP : 0;
    if (previous && image && classes && mask && mask2) {
        pose_at(0.2f);
        for (uint32_t i = 0; i < warm; i++) draw(g_small, (sw_render_frame){.post.aa = aa, .first_frame = i == 0, .post.frame_index = i}, NULL);
        for (int f = 0; f <= frames; f++) {
            pose_at(0.2f + (float)f / 240.0f); /* a quarter of real speed at 60 fps */
            draw(g_small, (sw_render_frame){.post.aa = aa, .first_frame = warm == 0 && f == 0, .post.frame_index = warm + (uint32_t)f}, image);
            read_classes(g_small, N, classes);
            edge_mask(classes, N, mask2);
            if (f > 0) {
                for (size_t i = 0; i < count; i++) mask[i] |= mask2[i];
                total += masked_error(image, previous, mask, count);
            }
            memcpy(mask, mask2, count * sizeof(bool));
            memcpy(previous, image, count * 4);
        }
    }
    free(previous), free(image), free(classes), free(mask), free(mask2);
    pose_at(0.0f);
    return total / frames;
}

static void test_temporal_stability(void) {
    double none = shimmer(SW_RENDER_AA_NONE, 8), taa = shimmer(SW_RENDER_AA_TAA, 8);
    printf("  mean frame-to-frame change of edge pixels: none %.2f, taa %.2f / 255\n", none, taa);
    SW_CHECK(none > 0.5);
    SW_CHECK(taa * 1.5 < none);
}

static void test_no_ghosting(void) {
    const size_t count = (size_t)N * N;
    uint8_t *before = malloc(count), *after = malloc(count), *image = malloc(count * 4);
    uint8_t *expected = malloc(count * 4), *first = malloc(count * 4);
    bool* vacated = calloc(count, sizeof(bool));
    SW_CHECK(before && after && image && expected && first && vacated);
    if (before && after && image && expected && first && vacated) {
        /* Converged at camera A; then the camera pans so that the character
           leaves its place (about a sixth of the picture to the side). */
        sw_camera a = g_camera, b = g_camera;
        float shift = 0.35f * (a.eye[2] - a.target[2]) * tanf(0.5f * a.fov_y);
        b.eye[0] += shift, b.target[0] += shift;
        /* The background to return to: camera B's converged still. */
        g_camera = b;
        still(g_small, SW_RENDER_AA_EDGE_TAA, expected);
        read_classes(g_small, N, after);
        g_camera = a;
        still(g_small, SW_RENDER_AA_EDGE_TAA, first);
        read_classes(g_small, N, before);
        /* Vacated: character before, and nothing of it within 2 px after
           (the jitter moves thin outlines by a pixel). */
        size_t n = 0;
        for (int y = 0; y < N; y++)
            for (int x = 0; x < N; x++) {
                bool near = false;
                for (int v = y - 2; v <= y + 2; v++)
                    for (int u = x - 2; u <= x + 2; u++)
                        near |= u >= 0 && v >= 0 && u < N && v < N && is_character(after[v * N + u]);
                size_t i = (size_t)y * N + x;
                vacated[i] = is_character(before[i]) && !near;
                n += vacated[i];
            }
        SW_CHECK(n > 200);
        /* One frame at B, its motion from A. */
        draw(g_small, (sw_render_frame){.post.aa = SW_RENDER_AA_EDGE_TAA, .camera.current = b, .camera.previous = a,
                                        .post.frame_index = SW_RENDER_TAA_WARM_UP + 1}, image);
        int worst = 0, was = 0;
        for (size_t i = 0; i < count; i++)
            for (int c = 0; vacated[i] && c < 3; c++) {
                int d = abs((int)image[i * 4 + c] - (int)expected[i * 4 + c]);
                int d0 = abs((int)first[i * 4 + c] - (int)expected[i * 4 + c]);
                worst = d > worst ? d : worst;
                was = d0 > was ? d0 : was;
            }
        double mean = masked_error(image, expected, vacated, count);
        printf("  %zu vacated pixels (the character differed by up to %d / 255): after 1 frame at most %d, "
               "mean %.2f / 255 from the background\n", n, was, worst, mean);
        /* No trace of the character: what is left is the fresh history's own
           difference from a converged one (shadow edges), not a ghost. */
        SW_CHECK(was > 100);
        SW_CHECK(worst <= 24);
        SW_CHECK(mean <= 2.0);
    }
    free(before), free(after), free(image), free(expected), free(first), free(vacated);
}

static void test_accumulation(void) {
    const size_t count = (size_t)N * N;
    uint8_t* previous = malloc(count * 4), *image = malloc(count * 4), *classes = malloc(count);
    float* state = malloc(count * 2 * sizeof(float));
    float* motion = malloc(count * 2 * sizeof(float));
    SW_CHECK(previous && image && classes && state && motion);
    if (previous && image && classes && state && motion) {
        /* A still: the change between frames shrinks, the history fills. */
        double early = 0.0, late = 0.0;
        const int frames = 24;
        for (int f = 0; f < frames; f++) {
            draw(g_small, (sw_render_frame){.post.aa = SW_RENDER_AA_TAA, .first_frame = f == 0, .post.frame_index = (uint32_t)f}, image);
            double change = 0.0;
            for (size_t i = 0; f > 0 && i < count * 4; i++) change += fabs((double)image[i] - (double)previous[i]);
            change /= (double)(count * 3);
            if (f >= 1 && f <= 3) early += change / 3.0;
            if (f >= frames - 4) late += change / 4.0;
            memcpy(previous, image, count * 4);
        }
        sw_diag d = {0};
        SW_CHECK(sw_renderer_read_taa_state(g_small, state, &d) == SW_OK);
        double least = 1.0;
        for (size_t i = 0; i < count; i++) least = fmin(least, state[i * 2 + 1]);
        printf("  still: mean change %.3f / 255 in frames 1-3, %.3f in the last 4; history at least %.3f × 12\n",
               early, late, least);
        SW_CHECK(late * 4.0 < early);
        SW_CHECK_NEAR(least, 1.0, 1e-3);

        /* Fast: the camera orbits 6° a frame; where everything around
           moves by over SW_POST_TAA_MOVING_PIXELS (4 px), at most 2 frames. */
        sw_camera previous_camera = g_camera;
        size_t fast = 0, capped = 0;
        for (int f = 1; f <= 3; f++) {
            float lo[3], hi[3];
            SW_CHECK(sw_renderer_scene_bounds(g_small, &g_pose, lo, hi, &d) == SW_OK);
            sw_camera c;
            sw_camera_frame_bounds(lo, hi, 25.0f + 6.0f * (float)f, 10.0f, 1.0f, &c);
            draw(g_small, (sw_render_frame){.post.aa = SW_RENDER_AA_TAA, .camera.current = c, .camera.previous = previous_camera,
                                            .post.frame_index = (uint32_t)(frames + f)}, NULL);
            previous_camera = c;
        }
        SW_CHECK(sw_renderer_read_taa_state(g_small, state, &d) == SW_OK);
        SW_CHECK(sw_renderer_read_motion(g_small, motion, &d) == SW_OK);
        for (int y = 1; y < N - 1; y++)
            for (int x = 1; x < N - 1; x++) {
                bool moving = true;
                for (int k = 0; k < 5; k++) {
                    int u = x + (k == 0 ? 0 : (k & 1) ? 1 : -1), v = y + (k == 0 ? 0 : (k & 2) ? 1 : -1);
                    const float* m = motion + ((size_t)v * N + u) * 2;
                    moving &= hypotf(m[0] * N, m[1] * N) > 4.5f;
                }
                if (!moving) continue;
                fast++;
                capped += state[((size_t)y * N + x) * 2 + 1] * 12.0f <= 2.0f + 0.01f;
            }
        printf("  fast: %zu of %zu fast-moving pixels hold at most 2 frames\n", capped, fast);
        SW_CHECK(fast > 500);
        SW_CHECK_EQ_INT((int)capped, (int)fast);
    }
    free(previous), free(image), free(classes), free(state), free(motion);
}

int main(void) {
    int early = sw_test_gl_begin(&g_context);
    if (early >= 0) return early;
    if (post_scene_begin()) {
        SW_RUN(test_temporal_stability);
        SW_RUN(test_no_ghosting);
        SW_RUN(test_accumulation);
    } else {
        SW_CHECK(false);
    }
    post_scene_end();
    return sw_test_finish();
}
