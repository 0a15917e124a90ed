/* Clips and sampling: STEP, LINEAR and CUBICSPLINE on every path against
   values worked out by hand, glTF appendix C clamping, looping, the cursor
   (same results as a search from scratch, garbage-safe), validation, and
   LINEAR rotations against cglm's slerp. */
#include <cglm/cglm.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "test_random.h"
#include "sinew/anim.h"

#define SQRT_HALF 0.70710678118654752

/* A failure must come with a code, that code in diag, and a message. */
static void check_failure(sw_result got, sw_result expected, const sw_diag* diag) {
    SW_CHECK_EQ_INT(got, expected);
    SW_CHECK_EQ_INT(diag->result, got);
    SW_CHECK(diag->message[0] != '\0');
}

static sw_track make_track(sw_track_path path, sw_interpolation interp, uint32_t component_count, size_t key_count,
                           const float* times, const float* values) {
    sw_track t = {0};
    t.target = 0;
    t.path = path;
    t.interpolation = interp;
    t.component_count = component_count;
    t.key_count = key_count;
    t.times = times;
    t.values = values;
    return t;
}

static void check_vec(const float* got, const double* expected, int n, double tol) {
    for (int i = 0; i < n; i++) SW_CHECK_NEAR(got[i], expected[i], tol);
}

/* Sample with no cursor and check the first n components. */
static void check_sample(const sw_track* track, float t, const double* expected, int n, double tol) {
    float out[8];
    SW_CHECK_EQ_INT(sw_track_validate(track, NULL), SW_OK);
    sw_track_sample(track, t, NULL, out);
    check_vec(out, expected, n, tol);
}

/* ---- LINEAR ------------------------------------------------------------------ */

static void test_linear_translation(void) {
    /* Keys at 0, 2, 3: (0,0,0) → (2,4,−6) → (3,4,−8). */
    const float times[3] = {0, 2, 3};
    const float values[9] = {0, 0, 0, 2, 4, -6, 3, 4, -8};
    sw_track tr = make_track(SW_PATH_TRANSLATION, SW_INTERP_LINEAR, 3, 3, times, values);
    check_sample(&tr, 1.0f, (const double[]){1, 2, -3}, 3, 1e-6);            /* halfway */
    check_sample(&tr, 0.5f, (const double[]){0.5, 1, -1.5}, 3, 1e-6);        /* a quarter */
    check_sample(&tr, 2.25f, (const double[]){2.25, 4, -6.5}, 3, 1e-6);      /* second interval, s = 1/4 */
    check_sample(&tr, 2.0f, (const double[]){2, 4, -6}, 3, 0);               /* on the middle key */
}

static void test_linear_scale_and_default(void) {
    /* (1,1,1) → (3,1,0.5) over [0, 1]; at t = 1/4: (1.5, 1, 0.875). */
    const float times[2] = {0, 1};
    const float values[6] = {1, 1, 1, 3, 1, 0.5f};
    sw_track sc = make_track(SW_PATH_SCALE, SW_INTERP_LINEAR, 3, 2, times, values);
    check_sample(&sc, 0.25f, (const double[]){1.5, 1, 0.875}, 3, 1e-6);
    /* SW_INTERP_DEFAULT is LINEAR. */
    sc.interpolation = SW_INTERP_DEFAULT;
    check_sample(&sc, 0.25f, (const double[]){1.5, 1, 0.875}, 3, 1e-6);
}

static void test_linear_weights(void) {
    /* Two morph weights, (0, 1) → (1, 0) over [1, 5]; t = 2 is s = 1/4. */
    const float times[2] = {1, 5};
    const float values[4] = {0, 1, 1, 0};
    sw_track w = make_track(SW_PATH_WEIGHTS, SW_INTERP_LINEAR, 2, 2, times, values);
    check_sample(&w, 2.0f, (const double[]){0.25, 0.75}, 2, 1e-6);
    check_sample(&w, 4.0f, (const double[]){0.75, 0.25}, 2, 1e-6);
}

static void test_linear_rotation_slerp(void) {
    /* Identity → 90° about Z: (0, 0, sin 45°, cos 45°). Slerp turns at
       constant speed, so t = 0.5 is 45° about Z = (0, 0, sin 22.5°, cos 22.5°)
       and t = 0.25 is 22.5° = (0, 0, sin 11.25°, cos 11.25°); nlerp would give
       (0, 0, 0.18738, 0.98229) at 0.25. */
    const float times[2] = {0, 1};
    const float values[8] = {0, 0, 0, 1, 0, 0, (float)SQRT_HALF, (float)SQRT_HALF};
    sw_track r = make_track(SW_PATH_ROTATION, SW_INTERP_LINEAR, 4, 2, times, values);
    check_sample(&r, 0.5f, (const double[]){0, 0, 0.38268343236, 0.92387953251}, 4, 2e-6);
    check_sample(&r, 0.25f, (const double[]){0, 0, 0.19509032202, 0.98078528040}, 4, 2e-6);
}

static void test_linear_rotation_shortest_path(void) {
    /* Second key stored as −(90° about Z) = (0, 0, −sin 45°, −cos 45°): the
       same rotation, so halfway is still +45° about Z, not the long way
       round (which would be −135° about Z). */
    const float times[2] = {0, 1};
    const float values[8] = {0, 0, 0, 1, 0, 0, -(float)SQRT_HALF, -(float)SQRT_HALF};
    sw_track r = make_track(SW_PATH_ROTATION, SW_INTERP_LINEAR, 4, 2, times, values);
    float out[4];
    sw_track_sample(&r, 0.5f, NULL, out);
    /* Compare up to sign (q and −q are one rotation), and by its action:
       x̂ turns to (cos 45°, sin 45°, 0). */
    double dot = out[2] * 0.38268343236 + out[3] * 0.92387953251;
    SW_CHECK_NEAR(fabs(dot), 1.0, 1e-6);
    SW_CHECK_NEAR(out[0], 0.0, 1e-7);
    SW_CHECK_NEAR(out[1], 0.0, 1e-7);
    sw_vec3 x = sw_quat_rotate((sw_quat){out[0], out[1], out[2], out[3]}, sw_vec3_make(1, 0, 0));
    SW_CHECK_NEAR(x.x, SQRT_HALF, 2e-6);
    SW_CHECK_NEAR(x.y, SQRT_HALF, 2e-6);
    SW_CHECK_NEAR(x.z, 0.0, 2e-6);
}

static void test_linear_rotation_vs_cglm(void) {
    rng r = {0xC11F};
    const float times[2] = {0, 1};
    int compared = 0;
    for (int i = 0; i < 2000; i++) {
        sw_quat a = rng_quat(&r), b = rng_quat(&r);
        double dot = (double)a.x * b.x + (double)a.y * b.y + (double)a.z * b.z + (double)a.w * b.w;
        if (dot < 0.0) b = (sw_quat){-b.x, -b.y, -b.z, -b.w};
        /* Away from both libraries' nearly-parallel fallbacks. */
        if (fabs(dot) > 0.999) continue;
        float values[8] = {a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w};
        sw_track tr = make_track(SW_PATH_ROTATION, SW_INTERP_LINEAR, 4, 2, times, values);
        float t = rng_range(&r, 0.001, 0.999);
        float out[4];
        sw_track_sample(&tr, t, NULL, out);
        versor ga = {a.x, a.y, a.z, a.w}, gb = {b.x, b.y, b.z, b.w}, gd;
        glm_quat_slerp(ga, gb, t, gd);
        for (int c = 0; c < 4; c++) SW_CHECK_NEAR(out[c], gd[c], 1e-5);
        compared++;
    }
    SW_CHECK(compared > 1900);
}

/* ---- STEP ------------------------------------------------------------------------ */

static void test_step_every_path(void) {
    /* Keys at 0, 1, 2. STEP holds the last key at or before t. */
    const float times[3] = {0, 1, 2};
    const float t3[9] = {10, 11, 12, 20, 21, 22, 30, 31, 32};
    const float q4[12] = {0, 0, 0, 1, 0, 0, (float)SQRT_HALF, (float)SQRT_HALF, 1, 0, 0, 0};
    const float w2[6] = {0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.6f};
    sw_track tracks[4] = {
        make_track(SW_PATH_TRANSLATION, SW_INTERP_STEP, 3, 3, times, t3),
        make_track(SW_PATH_SCALE, SW_INTERP_STEP, 3, 3, times, t3),
        make_track(SW_PATH_ROTATION, SW_INTERP_STEP, 4, 3, times, q4),
        make_track(SW_PATH_WEIGHTS, SW_INTERP_STEP, 2, 3, times, w2),
    };
    const float at[] = {-1.0f, 0.0f, 0.5f, 0.99999f, 1.0f, 1.5f, 1.99999f, 2.0f, 7.0f};
    const int key[] = {0, 0, 0, 0, 1, 1, 1, 2, 2};
    for (int i = 0; i < 4; i++) {
        const sw_track* tr = &tracks[i];
        SW_CHECK_EQ_INT(sw_track_validate(tr, NULL), SW_OK);
        for (size_t j = 0; j < sizeof at / sizeof at[0]; j++) {
            float out[4];
            sw_track_sample(tr, at[j], NULL, out);
            /* Copied, so exactly equal. */
            const float* expected = tr->values + (size_t)key[j] * tr->component_count;
            for (uint32_t c = 0; c < tr->component_count; c++) SW_CHECK(out[c] == expected[c]);
        }
    }
}

/* ---- CUBICSPLINE ------------------------------------------------------------------- */

static void test_cubic_translation(void) {
    /* Keys at t = 1 and 3, so d = 2. Component x: v0 = 1, out0 = 2,
       in1 = −1, v1 = 5 (in0 and out1 are 100: never used inside [1, 3]).
       s = 0.5 (t = 2): (v0 + v1)/2 + d·(out0 − in1)/8 = 3 + 2·3/8 = 3.75.
       s = 0.25 (t = 1.5): h00 = 27/32, h10 = 9/64, h01 = 5/32, h11 = −3/64:
       27/32·1 + 9/64·2·2 + 5/32·5 − 3/64·2·(−1) = 0.84375 + 0.5625 + 0.78125
       + 0.09375 = 2.28125.
       Components y and z carry zero tangents: y goes 0 → 4, so y(0.5) = 2 and
       y(0.25) = 5/32·4 = 0.625; z is constant 7. */
    const float times[2] = {1, 3};
    const float values[18] = {
        100, 100, 100, 1, 0, 7, 2, 0, 0, /* key 0: in, value, out */
        -1, 0, 0, 5, 4, 7, 100, 100, 100, /* key 1 */
    };
    sw_track tr = make_track(SW_PATH_TRANSLATION, SW_INTERP_CUBICSPLINE, 3, 2, times, values);
    check_sample(&tr, 2.0f, (const double[]){3.75, 2, 7}, 3, 1e-6);
    check_sample(&tr, 1.5f, (const double[]){2.28125, 0.625, 7}, 3, 1e-6);
    /* Outside the keys: the values (1, 0, 7) and (5, 4, 7), never a tangent. */
    check_sample(&tr, 0.0f, (const double[]){1, 0, 7}, 3, 0);
    check_sample(&tr, 1.0f, (const double[]){1, 0, 7}, 3, 0);
    check_sample(&tr, 3.0f, (const double[]){5, 4, 7}, 3, 0);
    check_sample(&tr, 9.0f, (const double[]){5, 4, 7}, 3, 0);
}

static void test_cubic_tangents_differ_at_key(void) {
    /* Scalar (first component; the rest constant) keys at 0, 1, 3:
       key 0: v = 0, out = 0; key 1: in = 4, v = 1, out = 8; key 2: in = 0, v = 0.
       [0, 1], d = 1, t = 0.5: (0 + 1)/2 + 1·(0 − 4)/8 = 0.
       [1, 3], d = 2, t = 2:   (1 + 0)/2 + 2·(8 − 0)/8 = 2.5.
       t = 1 exactly: the key value 1 (neither tangent). */
    const float times[3] = {0, 1, 3};
    const float values[27] = {
        0, 0, 0, 0, 5, 5, 0, 0, 0, /* key 0 */
        4, 0, 0, 1, 5, 5, 8, 0, 0, /* key 1 */
        0, 0, 0, 0, 5, 5, 0, 0, 0, /* key 2 */
    };
    sw_track tr = make_track(SW_PATH_SCALE, SW_INTERP_CUBICSPLINE, 3, 3, times, values);
    check_sample(&tr, 0.5f, (const double[]){0, 5, 5}, 3, 1e-6);
    check_sample(&tr, 2.0f, (const double[]){2.5, 5, 5}, 3, 1e-6);
    check_sample(&tr, 1.0f, (const double[]){1, 5, 5}, 3, 0);
}

static void test_cubic_weights(void) {
    /* One weight, keys at 0 and 0.5 (d = 0.5): v0 = 0, out0 = 1, in1 = −1,
       v1 = 1. At t = 0.25 (s = 0.5): 1/2 + 0.5·(1 − (−1))/8 = 0.625. */
    const float times[2] = {0, 0.5f};
    const float values[6] = {9, 0, 1, -1, 1, 9};
    sw_track tr = make_track(SW_PATH_WEIGHTS, SW_INTERP_CUBICSPLINE, 1, 2, times, values);
    check_sample(&tr, 0.25f, (const double[]){0.625}, 1, 1e-6);
}

static void test_cubic_rotation_normalised(void) {
    /* Identity → 90° about Z, d = 1, s = 0.5.
       Zero tangents: p = (q0 + q1)/2 = (0, 0, √2/4, 1/2 + √2/4), which
       normalises to 45° about Z: (0, 0, sin 22.5°, cos 22.5°).
       out0 = (0, 0, 1, 0): p gains d·out0/8 = (0, 0, 1/8, 0):
       p = (0, 0, 1/8 + √2/4, 1/2 + √2/4) = (0, 0, 0.4785534, 0.8535534),
       |p| = 0.9785534, so (0, 0, 0.4890417, 0.8722604). */
    const float times[2] = {0, 1};
    const float h = (float)SQRT_HALF;
    float values[24] = {
        0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, /* key 0: in, value, out */
        0, 0, 0, 0, 0, 0, h, h, 0, 0, 0, 0, /* key 1 */
    };
    sw_track tr = make_track(SW_PATH_ROTATION, SW_INTERP_CUBICSPLINE, 4, 2, times, values);
    check_sample(&tr, 0.5f, (const double[]){0, 0, 0.38268343236, 0.92387953251}, 4, 2e-6);
    values[10] = 1; /* out0.z */
    check_sample(&tr, 0.5f, (const double[]){0, 0, 0.48904167641, 0.87226041910}, 4, 2e-6);
    /* Every interior sample is unit. */
    for (int i = 1; i < 20; i++) {
        float out[4];
        sw_track_sample(&tr, (float)i / 20.0f, NULL, out);
        SW_CHECK_NEAR(sqrt((double)out[0] * out[0] + (double)out[1] * out[1] + (double)out[2] * out[2] +
                           (double)out[3] * out[3]),
                      1.0, 1e-6);
    }
}

/* ---- keys, ranges and clips ------------------------------------------------------- */

static void test_clamp_and_late_start(void) {
    /* Keys at 1 and 2: before 1 the first value, after 2 the last
       (glTF appendix C), whatever the interpolation. */
    const float times[2] = {1, 2};
    const float lin[6] = {1, 2, 3, 4, 5, 6};
    const float cub[18] = {-9, -9, -9, 1, 2, 3, -9, -9, -9, -9, -9, -9, 4, 5, 6, -9, -9, -9};
    const sw_track tracks[3] = {
        make_track(SW_PATH_TRANSLATION, SW_INTERP_LINEAR, 3, 2, times, lin),
        make_track(SW_PATH_TRANSLATION, SW_INTERP_STEP, 3, 2, times, lin),
        make_track(SW_PATH_TRANSLATION, SW_INTERP_CUBICSPLINE, 3, 2, times, cub),
    };
    for (int i = 0; i < 3; i++) {
        check_sample(&tracks[i], 0.5f, (const double[]){1, 2, 3}, 3, 0);
        check_sample(&tracks[i], -100.0f, (const double[]){1, 2, 3}, 3, 0);
        check_sample(&tracks[i], 2.5f, (const double[]){4, 5, 6}, 3, 0);
        check_sample(&tracks[i], 1e30f, (const double[]){4, 5, 6}, 3, 0);
    }
    /* A clip of these tracks starts at 1 and lasts until 2. */
    sw_clip clip = {"late", 3, tracks, -1, -1};
    SW_CHECK_EQ_INT(sw_clip_finish(&clip, NULL), SW_OK);
    SW_CHECK(clip.start == 1.0f);
    SW_CHECK(clip.duration == 2.0f);
    /* Looped, t = 0.5 stays 0.5 (wrapping is over [0, duration)), which is
       before the first key: the first value. */
    SW_CHECK(sw_clip_time(&clip, 0.5f, true) == 0.5f);
}

static void test_single_key(void) {
    const float times[1] = {0.75f};
    const float lin[4] = {0, 0, (float)SQRT_HALF, (float)SQRT_HALF};
    const float cub[12] = {5, 5, 5, 5, 0, 0, (float)SQRT_HALF, (float)SQRT_HALF, 7, 7, 7, 7};
    const sw_track tracks[3] = {
        make_track(SW_PATH_ROTATION, SW_INTERP_LINEAR, 4, 1, times, lin),
        make_track(SW_PATH_ROTATION, SW_INTERP_STEP, 4, 1, times, lin),
        make_track(SW_PATH_ROTATION, SW_INTERP_CUBICSPLINE, 4, 1, times, cub),
    };
    const float at[] = {-5.0f, 0.0f, 0.75f, 0.76f, 100.0f};
    const uint32_t cursors[] = {0, 1, 2, 0xFFFFFFFFu};
    for (int i = 0; i < 3; i++) {
        SW_CHECK_EQ_INT(sw_track_validate(&tracks[i], NULL), SW_OK);
        for (size_t j = 0; j < sizeof at / sizeof at[0]; j++)
            for (size_t c = 0; c < sizeof cursors / sizeof cursors[0]; c++) {
                uint32_t cursor = cursors[c];
                float out[4];
                sw_track_sample(&tracks[i], at[j], &cursor, out);
                SW_CHECK(out[0] == 0.0f && out[1] == 0.0f && out[2] == (float)SQRT_HALF &&
                         out[3] == (float)SQRT_HALF);
            }
    }
}

static void test_exact_key_times(void) {
    /* Values and times that do not survive a round trip through
       a + (b − a)·s or slerp: at a key time the key comes back bit for bit. */
    const float times[3] = {0.3f, 0.7f, 1.1f};
    const float t3[9] = {0.1f, -0.2f, 0.3f, 0.7f, 1.9f, -3.3f, 1e-3f, 2.2f, 0.9f};
    rng r = {0xE4AC};
    float q4[12];
    for (int k = 0; k < 3; k++) {
        sw_quat q = rng_quat(&r);
        memcpy(&q4[4 * k], &q, sizeof q);
    }
    float cub[36];
    for (int i = 0; i < 36; i++) cub[i] = rng_range(&r, -1, 1);
    const sw_track tracks[4] = {
        make_track(SW_PATH_TRANSLATION, SW_INTERP_LINEAR, 3, 3, times, t3),
        make_track(SW_PATH_ROTATION, SW_INTERP_LINEAR, 4, 3, times, q4),
        make_track(SW_PATH_ROTATION, SW_INTERP_CUBICSPLINE, 4, 3, times, cub),
        make_track(SW_PATH_WEIGHTS, SW_INTERP_CUBICSPLINE, 4, 3, times, cub),
    };
    for (int i = 0; i < 4; i++) {
        const sw_track* tr = &tracks[i];
        size_t stride = tr->interpolation == SW_INTERP_CUBICSPLINE ? 3 * tr->component_count : tr->component_count;
        size_t offset = tr->interpolation == SW_INTERP_CUBICSPLINE ? tr->component_count : 0;
        for (size_t k = 0; k < 3; k++) {
            float out[4];
            uint32_t cursor = 0;
            sw_track_sample(tr, times[k], &cursor, out);
            for (uint32_t c = 0; c < tr->component_count; c++) SW_CHECK(out[c] == tr->values[offset + k * stride + c]);
        }
    }
}

/* Time from the clip's first key (the command line's time base): keys from
   1 s to 3 s (start 1, duration 3) loop over a span of 2 s. */
static void test_clip_time_from_start(void) {
    sw_clip clip = {NULL, 0, NULL, 1.0f, 3.0f};
    SW_CHECK_NEAR(sw_clip_time_from_start(&clip, 0.0f, true), 1.0, 0);
    SW_CHECK_NEAR(sw_clip_time_from_start(&clip, 0.5f, true), 1.5, 0);
    SW_CHECK_NEAR(sw_clip_time_from_start(&clip, 1.75f, true), 2.75, 0);
    /* 2.5 = 2 + 0.5: one whole span later, not past the last key. */
    SW_CHECK_NEAR(sw_clip_time_from_start(&clip, 2.5f, true), 1.5, 0);
    SW_CHECK_NEAR(sw_clip_time_from_start(&clip, 2.0f, true), 1.0, 0);
    SW_CHECK_NEAR(sw_clip_time_from_start(&clip, -0.5f, true), 2.5, 0);
    /* Without looping: start + t (the tracks clamp past the last key). */
    SW_CHECK_NEAR(sw_clip_time_from_start(&clip, 2.5f, false), 3.5, 0);
    SW_CHECK_NEAR(sw_clip_time_from_start(&clip, -0.5f, false), 0.5, 0);
    /* Starting at 0, it is sw_clip_time. */
    sw_clip zero = {NULL, 0, NULL, 0.0f, 2.0f};
    for (float t = -3.0f; t < 5.0f; t += 0.375f)
        SW_CHECK(sw_clip_time_from_start(&zero, t, true) == sw_clip_time(&zero, t, true));
    /* A single key (span 0) stays at it. */
    sw_clip point = {NULL, 0, NULL, 1.5f, 1.5f};
    SW_CHECK_NEAR(sw_clip_time_from_start(&point, 7.0f, true), 1.5, 0);
}

static void test_clip_time_loop(void) {
    sw_clip clip = {NULL, 0, NULL, 0, 2.0f};
    /* Duration 2: 5.5 = 2·2 + 1.5; −0.5 = −1·2 + 1.5. */
    SW_CHECK_NEAR(sw_clip_time(&clip, 5.5f, true), 1.5, 0);
    SW_CHECK_NEAR(sw_clip_time(&clip, -0.5f, true), 1.5, 0);
    SW_CHECK_NEAR(sw_clip_time(&clip, 1.25f, true), 1.25, 0);
    SW_CHECK_NEAR(sw_clip_time(&clip, 0.0f, true), 0.0, 0);
    SW_CHECK_NEAR(sw_clip_time(&clip, 2.0f, true), 0.0, 0);
    SW_CHECK_NEAR(sw_clip_time(&clip, 4.0f, true), 0.0, 0);
    SW_CHECK_NEAR(sw_clip_time(&clip, -2.0f, true), 0.0, 0);
    SW_CHECK_NEAR(sw_clip_time(&clip, -3.5f, true), 0.5, 0);
    /* Without looping, time passes through (the tracks clamp). */
    SW_CHECK_NEAR(sw_clip_time(&clip, 5.5f, false), 5.5, 0);
    SW_CHECK_NEAR(sw_clip_time(&clip, -0.5f, false), -0.5, 0);
    /* A tiny negative time wraps to just below 2, which rounds to 2 in
       float: it must still land in [0, 2). */
    float tiny = sw_clip_time(&clip, -1e-9f, true);
    SW_CHECK(tiny >= 0.0f && tiny < 2.0f);
    /* Random times: in [0, duration), and t − wrapped is a whole number of
       durations. */
    rng r = {0x100B};
    clip.duration = 1.7f;
    for (int i = 0; i < 1000; i++) {
        float t = rng_range(&r, -50, 50);
        float w = sw_clip_time(&clip, t, true);
        SW_CHECK(w >= 0.0f && w < clip.duration);
        double periods = ((double)t - w) / clip.duration;
        SW_CHECK_NEAR(periods, floor(periods + 0.5), 1e-4);
    }
    /* Zero duration always gives 0; non-finite times do not leak out. */
    clip.duration = 0.0f;
    SW_CHECK(sw_clip_time(&clip, 3.0f, true) == 0.0f);
    SW_CHECK(sw_clip_time(&clip, -3.0f, true) == 0.0f);
    clip.duration = 2.0f;
    SW_CHECK(sw_clip_time(&clip, INFINITY, true) == 0.0f);
    SW_CHECK(sw_clip_time(&clip, NAN, true) == 0.0f);
}

/* ---- the cursor --------------------------------------------------------------------- */

typedef struct heap_track {
    sw_track track;
    float* times;
    float* values;
} heap_track;

/* Random increasing times and values, in allocations of the exact size so
   the sanitizers see any read past either end. */
static heap_track random_track(rng* r, sw_track_path path, sw_interpolation interp, size_t key_count) {
    uint32_t cc = path == SW_PATH_ROTATION ? 4 : path == SW_PATH_WEIGHTS ? 2 : 3;
    size_t floats = key_count * cc * (interp == SW_INTERP_CUBICSPLINE ? 3 : 1);
    heap_track h;
    h.times = malloc(key_count * sizeof(float));
    h.values = malloc(floats * sizeof(float));
    float t = rng_range(r, -1, 1);
    for (size_t k = 0; k < key_count; k++) {
        h.times[k] = t;
        t += rng_range(r, 0.01, 0.5);
    }
    for (size_t i = 0; i < floats; i++) h.values[i] = rng_range(r, -2, 2);
    if (path == SW_PATH_ROTATION && interp != SW_INTERP_CUBICSPLINE)
        for (size_t k = 0; k < key_count; k++) {
            sw_quat q = rng_quat(r);
            memcpy(&h.values[4 * k], &q, sizeof q);
        }
    h.track = make_track(path, interp, cc, key_count, h.times, h.values);
    return h;
}

static void free_track(heap_track* h) {
    free(h->times);
    free(h->values);
}

static void test_cursor_matches_search(void) {
    rng r = {0xC025};
    const size_t counts[] = {2, 3, 5, 64};
    const sw_track_path paths[] = {SW_PATH_TRANSLATION, SW_PATH_ROTATION, SW_PATH_WEIGHTS};
    const sw_interpolation interps[] = {SW_INTERP_LINEAR, SW_INTERP_STEP, SW_INTERP_CUBICSPLINE};
    for (size_t ci = 0; ci < 4; ci++)
        for (size_t pi = 0; pi < 3; pi++)
            for (size_t ii = 0; ii < 3; ii++) {
                size_t n = counts[ci];
                heap_track h = random_track(&r, paths[pi], interps[ii], n);
                SW_CHECK_EQ_INT(sw_track_validate(&h.track, NULL), SW_OK);
                float first = h.times[0], last = h.times[n - 1];
                uint32_t cursor = 0;
                for (int step = 0; step < 600; step++) {
                    float t;
                    if (step < 200) /* forward playback, from before the first key to past the last */
                        t = first - 0.1f + (last - first + 0.2f) * (float)step / 199.0f;
                    else if (step < 300) /* backward */
                        t = last + 0.1f - (last - first + 0.2f) * (float)(step - 200) / 99.0f;
                    else if (step < 500) /* random jumps */
                        t = rng_range(&r, first - 0.5, last + 0.5);
                    else /* exactly on keys */
                        t = h.times[rng_below(&r, (uint32_t)n)];
                    float with[4], without[4];
                    sw_track_sample(&h.track, t, &cursor, with);
                    sw_track_sample(&h.track, t, NULL, without);
                    SW_CHECK(memcmp(with, without, h.track.component_count * sizeof(float)) == 0);
                    /* The cursor names an interval: k ≤ n − 2, and inside the
                       keys times[k] ≤ t < times[k + 1]. */
                    SW_CHECK(cursor <= n - 2);
                    if (t > first && t < last) SW_CHECK(h.times[cursor] <= t && t < h.times[cursor + 1]);
                    /* LINEAR translation against a double reference found by a scan. */
                    if (paths[pi] == SW_PATH_TRANSLATION && interps[ii] == SW_INTERP_LINEAR) {
                        size_t k = 0;
                        while (k + 1 < n && h.times[k + 1] <= t) k++;
                        for (int c = 0; c < 3; c++) {
                            double ref;
                            if (k + 1 >= n)
                                ref = h.values[3 * (n - 1) + c];
                            else if (t <= first)
                                ref = h.values[c];
                            else {
                                double s = ((double)t - h.times[k]) / ((double)h.times[k + 1] - h.times[k]);
                                ref = h.values[3 * k + c] + s * ((double)h.values[3 * (k + 1) + c] - h.values[3 * k + c]);
                            }
                            SW_CHECK_NEAR(with[c], ref, 2e-6);
                        }
                    }
                }
                free_track(&h);
            }
}

static void test_cursor_garbage_is_safe(void) {
    rng r = {0x6A4B};
    const sw_interpolation interps[] = {SW_INTERP_LINEAR, SW_INTERP_STEP, SW_INTERP_CUBICSPLINE};
    for (size_t n = 1; n <= 4; n++)
        for (size_t ii = 0; ii < 3; ii++) {
            heap_track h = random_track(&r, SW_PATH_TRANSLATION, interps[ii], n);
            const uint32_t garbage[] = {0xFFFFFFFFu, 0x80000000u, (uint32_t)n, (uint32_t)n - 1, (uint32_t)n + 7};
            for (size_t g = 0; g < sizeof garbage / sizeof garbage[0]; g++)
                for (int i = 0; i < 20; i++) {
                    float t = rng_range(&r, h.times[0] - 0.5, h.times[n - 1] + 0.5);
                    uint32_t cursor = garbage[g];
                    float with[3], without[3];
                    sw_track_sample(&h.track, t, &cursor, with);
                    sw_track_sample(&h.track, t, NULL, without);
                    SW_CHECK(memcmp(with, without, sizeof with) == 0);
                    SW_CHECK(n == 1 ? cursor == 0 : cursor <= n - 2);
                }
            /* NaN time: the first value, no read out of range. */
            uint32_t cursor = 0xFFFFFFFFu;
            float out[3];
            const float* first = h.values + (interps[ii] == SW_INTERP_CUBICSPLINE ? 3 : 0);
            sw_track_sample(&h.track, NAN, &cursor, out);
            SW_CHECK(memcmp(out, first, sizeof out) == 0);
            free_track(&h);
        }
}

/* ---- validation -------------------------------------------------------------------------- */

static void test_track_validate_rejects(void) {
    const float times[3] = {0, 1, 2};
    float values[36] = {0};
    sw_diag diag;
    sw_track ok = make_track(SW_PATH_TRANSLATION, SW_INTERP_LINEAR, 3, 3, times, values);
    SW_CHECK_EQ_INT(sw_track_validate(&ok, &diag), SW_OK);
    SW_CHECK_EQ_INT(sw_track_validate(&ok, NULL), SW_OK);

    /* Times: equal, decreasing, NaN, infinite; diag.index is the key. */
    const float equal[3] = {0, 1, 1}, down[3] = {0, 2, 1}, nan_t[3] = {0, NAN, 2}, inf_t[3] = {-INFINITY, 1, 2};
    const float* bad_times[4] = {equal, down, nan_t, inf_t};
    const int bad_key[4] = {2, 2, 1, 0};
    for (int i = 0; i < 4; i++) {
        sw_track t = ok;
        t.times = bad_times[i];
        memset(&diag, 0, sizeof diag);
        check_failure(sw_track_validate(&t, &diag), SW_ERR_INVALID_DATA, &diag);
        SW_CHECK_EQ_INT(diag.index, bad_key[i]);
    }

    /* A NaN value in key 1; an infinite out-tangent in the last cubic key. */
    sw_track t = ok;
    values[4] = NAN;
    memset(&diag, 0, sizeof diag);
    check_failure(sw_track_validate(&t, &diag), SW_ERR_INVALID_DATA, &diag);
    SW_CHECK_EQ_INT(diag.index, 1);
    values[4] = 0;
    t = make_track(SW_PATH_ROTATION, SW_INTERP_CUBICSPLINE, 4, 3, times, values);
    SW_CHECK_EQ_INT(sw_track_validate(&t, NULL), SW_OK);
    values[35] = INFINITY;
    memset(&diag, 0, sizeof diag);
    check_failure(sw_track_validate(&t, &diag), SW_ERR_INVALID_DATA, &diag);
    SW_CHECK_EQ_INT(diag.index, 2);
    values[35] = 0;

    /* Component counts: 3 for T and S, 4 for R, at least 1 for weights. */
    const struct { sw_track_path path; uint32_t cc; sw_result expect; } counts[] = {
        {SW_PATH_TRANSLATION, 4, SW_ERR_INVALID_ARGUMENT}, {SW_PATH_TRANSLATION, 2, SW_ERR_INVALID_ARGUMENT},
        {SW_PATH_SCALE, 4, SW_ERR_INVALID_ARGUMENT},       {SW_PATH_ROTATION, 3, SW_ERR_INVALID_ARGUMENT},
        {SW_PATH_WEIGHTS, 0, SW_ERR_INVALID_ARGUMENT},     {SW_PATH_WEIGHTS, 1, SW_OK},
        {SW_PATH_WEIGHTS, 12, SW_OK},                      {SW_PATH_SCALE, 3, SW_OK},
    };
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        t = make_track(counts[i].path, SW_INTERP_LINEAR, counts[i].cc, 3, times, values);
        memset(&diag, 0, sizeof diag);
        sw_result res = sw_track_validate(&t, &diag);
        if (counts[i].expect == SW_OK)
            SW_CHECK_EQ_INT(res, SW_OK);
        else
            check_failure(res, counts[i].expect, &diag);
    }

    /* No keys, missing arrays, unknown enums, no track. */
    sw_track broken[5] = {ok, ok, ok, ok, ok};
    broken[0].key_count = 0;
    broken[1].times = NULL;
    broken[2].values = NULL;
    broken[3].path = (sw_track_path)7;
    broken[4].interpolation = (sw_interpolation)9;
    for (int i = 0; i < 5; i++) {
        memset(&diag, 0, sizeof diag);
        check_failure(sw_track_validate(&broken[i], &diag), SW_ERR_INVALID_ARGUMENT, &diag);
    }
    memset(&diag, 0, sizeof diag);
    check_failure(sw_track_validate(NULL, &diag), SW_ERR_INVALID_ARGUMENT, &diag);
}

static void test_clip_finish(void) {
    const float ta[2] = {0.5f, 2}, tb[3] = {0.25f, 1, 1.5f}, tc[2] = {1, 3};
    const float bad[3] = {0.25f, 1, 1};
    float values[12] = {0};
    sw_track tracks[3] = {
        make_track(SW_PATH_TRANSLATION, SW_INTERP_LINEAR, 3, 2, ta, values),
        make_track(SW_PATH_ROTATION, SW_INTERP_STEP, 4, 3, tb, values),
        make_track(SW_PATH_WEIGHTS, SW_INTERP_LINEAR, 1, 2, tc, values),
    };
    sw_diag diag;
    sw_clip clip = {"walk", 3, tracks, 0, 0};
    SW_CHECK_EQ_INT(sw_clip_finish(&clip, &diag), SW_OK);
    SW_CHECK(clip.start == 0.25f);
    SW_CHECK(clip.duration == 3.0f);

    /* Track 1 has equal times at key 2: the code, the track's index, a
       message naming both. Start and duration are reset. */
    tracks[1].times = bad;
    memset(&diag, 0, sizeof diag);
    check_failure(sw_clip_finish(&clip, &diag), SW_ERR_INVALID_DATA, &diag);
    SW_CHECK_EQ_INT(diag.index, 1);
    SW_CHECK(strstr(diag.message, "track 1") != NULL);
    SW_CHECK(strstr(diag.message, "key 2") != NULL);
    SW_CHECK(clip.start == 0.0f && clip.duration == 0.0f);

    /* No tracks: an empty clip at 0. A count without an array is a caller bug. */
    sw_clip empty = {NULL, 0, NULL, 5, 5};
    SW_CHECK_EQ_INT(sw_clip_finish(&empty, NULL), SW_OK);
    SW_CHECK(empty.start == 0.0f && empty.duration == 0.0f);
    sw_clip missing = {NULL, 2, NULL, 0, 0};
    memset(&diag, 0, sizeof diag);
    check_failure(sw_clip_finish(&missing, &diag), SW_ERR_INVALID_ARGUMENT, &diag);
    memset(&diag, 0, sizeof diag);
    check_failure(sw_clip_finish(NULL, &diag), SW_ERR_INVALID_ARGUMENT, &diag);
}

/* ---- the sample job ---------------------------------------------------------------------- */

/* Targets 0..2: target 0 has translation (LINEAR) and scale (STEP) tracks,
   target 1 a rotation (LINEAR), target 2 two morph weights at offset 1. */
static const float job_times[2] = {0, 1};
static const float job_t[6] = {0, 0, 0, 2, 2, 2};
static const float job_s[6] = {1, 2, 3, 4, 5, 6};
static const float job_r[8] = {0, 0, 0, 1, 0, 0, (float)SQRT_HALF, (float)SQRT_HALF};
static const float job_w[4] = {0, 1, 1, 0};

static void make_job_tracks(sw_track tracks[4]) {
    tracks[0] = make_track(SW_PATH_TRANSLATION, SW_INTERP_LINEAR, 3, 2, job_times, job_t);
    tracks[1] = make_track(SW_PATH_SCALE, SW_INTERP_STEP, 3, 2, job_times, job_s);
    tracks[2] = make_track(SW_PATH_ROTATION, SW_INTERP_LINEAR, 4, 2, job_times, job_r);
    tracks[2].target = 1;
    tracks[3] = make_track(SW_PATH_WEIGHTS, SW_INTERP_LINEAR, 2, 2, job_times, job_w);
    tracks[3].target = 2;
}

static void test_sample_job_validity(void) {
    sw_track tracks[4];
    make_job_tracks(tracks);
    sw_clip clip = {"job", 4, tracks, 0, 0};
    SW_CHECK_EQ_INT(sw_clip_finish(&clip, NULL), SW_OK);
    sw_transform pose[3];
    const uint32_t offsets[3] = {0, 0, 1};
    float weights[3];
    const sw_sample_job ok = {&clip, 0.5f, NULL, 3, pose, offsets, weights, 3};
    sw_diag diag;
    SW_CHECK_EQ_INT(sw_sample_job_validate(&ok, &diag), SW_OK);
    SW_CHECK_EQ_INT(sw_sample_job_validate(&ok, NULL), SW_OK);

    memset(&diag, 0, sizeof diag);
    check_failure(sw_sample_job_validate(NULL, &diag), SW_ERR_INVALID_ARGUMENT, &diag);
    sw_sample_job job = ok;
    job.clip = NULL;
    memset(&diag, 0, sizeof diag);
    check_failure(sw_sample_job_validate(&job, &diag), SW_ERR_INVALID_ARGUMENT, &diag);

    /* Target 2 is out of range with only 2 targets: track 3 is named. */
    job = ok;
    job.target_count = 2;
    memset(&diag, 0, sizeof diag);
    check_failure(sw_sample_job_validate(&job, &diag), SW_ERR_INDEX_OUT_OF_RANGE, &diag);
    SW_CHECK_EQ_INT(diag.index, 3);

    /* Weight tracks need offsets and an output large enough for
       offset + component_count (1 + 2 = 3). */
    job = ok;
    job.weight_offsets = NULL;
    memset(&diag, 0, sizeof diag);
    check_failure(sw_sample_job_validate(&job, &diag), SW_ERR_INVALID_ARGUMENT, &diag);
    job = ok;
    job.out_weights = NULL;
    memset(&diag, 0, sizeof diag);
    check_failure(sw_sample_job_validate(&job, &diag), SW_ERR_INVALID_ARGUMENT, &diag);
    job = ok;
    job.weight_count = 2;
    memset(&diag, 0, sizeof diag);
    check_failure(sw_sample_job_validate(&job, &diag), SW_ERR_BUFFER_TOO_SMALL, &diag);
    SW_CHECK_EQ_INT(diag.index, 3);

    /* TRS tracks need out_local; a weights-only clip does not. */
    job = ok;
    job.out_local = NULL;
    memset(&diag, 0, sizeof diag);
    check_failure(sw_sample_job_validate(&job, &diag), SW_ERR_INVALID_ARGUMENT, &diag);
    SW_CHECK_EQ_INT(diag.index, 0);
    sw_clip weights_only = {NULL, 1, &tracks[3], 0, 0};
    job.clip = &weights_only;
    SW_CHECK_EQ_INT(sw_sample_job_validate(&job, NULL), SW_OK);

    /* A track whose shape would make run() read or write out of bounds. */
    tracks[2].component_count = 3;
    job = ok;
    memset(&diag, 0, sizeof diag);
    check_failure(sw_sample_job_validate(&job, &diag), SW_ERR_INVALID_ARGUMENT, &diag);
    SW_CHECK_EQ_INT(diag.index, 2);
}

static void test_sample_job_run(void) {
    sw_track tracks[4];
    make_job_tracks(tracks);
    sw_clip clip = {"job", 4, tracks, 0, 0};
    SW_CHECK_EQ_INT(sw_clip_finish(&clip, NULL), SW_OK);
    rng r = {0x10B};
    sw_transform rest[3];
    for (int i = 0; i < 3; i++) rest[i] = rng_transform(&r, 1, 0.5, 2);
    const uint32_t offsets[3] = {0, 0, 1};

    sw_transform pose[3];
    float weights[4] = {-7, -7, -7, -7};
    memcpy(pose, rest, sizeof pose);
    sw_sample_job job = {&clip, 0.25f, NULL, 3, pose, offsets, weights, 4};
    SW_CHECK_EQ_INT(sw_sample_job_validate(&job, NULL), SW_OK);
    sw_sample_job_run(&job);
    /* Target 0: translation (0.5, 0.5, 0.5), scale held at key 0, rotation untouched. */
    SW_CHECK_NEAR(pose[0].translation.x, 0.5, 1e-6);
    SW_CHECK_NEAR(pose[0].translation.y, 0.5, 1e-6);
    SW_CHECK_NEAR(pose[0].translation.z, 0.5, 1e-6);
    SW_CHECK(pose[0].scale.x == 1.0f && pose[0].scale.y == 2.0f && pose[0].scale.z == 3.0f);
    SW_CHECK(memcmp(&pose[0].rotation, &rest[0].rotation, sizeof(sw_quat)) == 0);
    /* Target 1: 22.5° about Z, translation and scale untouched. */
    SW_CHECK_NEAR(pose[1].rotation.x, 0.0, 1e-7);
    SW_CHECK_NEAR(pose[1].rotation.y, 0.0, 1e-7);
    SW_CHECK_NEAR(pose[1].rotation.z, 0.19509032202, 2e-6);
    SW_CHECK_NEAR(pose[1].rotation.w, 0.98078528040, 2e-6);
    SW_CHECK(memcmp(&pose[1].translation, &rest[1].translation, sizeof(sw_vec3)) == 0);
    SW_CHECK(memcmp(&pose[1].scale, &rest[1].scale, sizeof(sw_vec3)) == 0);
    /* Target 2: no TRS track, untouched; weights 1..2 are (0.25, 0.75), 0 and 3 untouched. */
    SW_CHECK(memcmp(&pose[2], &rest[2], sizeof(sw_transform)) == 0);
    SW_CHECK(weights[0] == -7.0f && weights[3] == -7.0f);
    SW_CHECK_NEAR(weights[1], 0.25, 1e-6);
    SW_CHECK_NEAR(weights[2], 0.75, 1e-6);

    /* With cursors, any sequence of times gives the same pose. */
    uint32_t cursors[4] = {0, 3, 0xFFFFFFFFu, 1};
    for (int i = 0; i < 200; i++) {
        float t = i < 100 ? -0.2f + 1.4f * (float)i / 99.0f : rng_range(&r, -0.5, 1.5);
        sw_transform a[3], b[3];
        float wa[4] = {0}, wb[4] = {0};
        memcpy(a, rest, sizeof a);
        memcpy(b, rest, sizeof b);
        sw_sample_job with = {&clip, t, cursors, 3, a, offsets, wa, 4};
        sw_sample_job without = {&clip, t, NULL, 3, b, offsets, wb, 4};
        sw_sample_job_run(&with);
        sw_sample_job_run(&without);
        SW_CHECK(memcmp(a, b, sizeof a) == 0);
        SW_CHECK(memcmp(wa, wb, sizeof wa) == 0);
    }
}

/* ---- the sample job's fast path ------------------------------------------------------- */

/* A clip of `joints` joints × (T, R, S) tracks in glTF exporter order, all
   on one shared times array (as glTF samplers sharing an input accessor
   load), sampled by the job and track by track with
   sw_track_sample: the job must give the same pose (its rotations come
   from a SIMD sw_quat_slerp_fast, equal bit for bit on x86-64; 2e-7 allows
   for compilers that contract or reorder differently) and the same
   cursors. */
typedef struct shared_clip {
    size_t joints, keys, track_count;
    float* times;
    float* values[3];
    sw_track* tracks;
} shared_clip;

static shared_clip make_shared_clip(rng* r, size_t joints, size_t keys) {
    shared_clip c;
    c.joints = joints;
    c.keys = keys;
    c.track_count = 3 * joints;
    c.times = malloc(keys * sizeof(float));
    for (size_t k = 0; k < keys; k++) c.times[k] = (float)k / 30.0f;
    for (int p = 0; p < 3; p++) c.values[p] = malloc(joints * keys * (p == 1 ? 4 : 3) * sizeof(float));
    for (size_t j = 0; j < joints; j++) {
        sw_quat q = rng_quat(r);
        for (size_t k = 0; k < keys; k++) {
            /* Keyframe-like rotations (a few degrees apart), some keys stored as −q. */
            q = sw_quat_normalize(sw_quat_mul(q, sw_quat_from_axis_angle(rng_vec3(r, -1, 1), rng_range(r, 0, 0.3))));
            sw_quat stored = rng_below(r, 4) == 0 ? (sw_quat){-q.x, -q.y, -q.z, -q.w} : q;
            memcpy(&c.values[1][(j * keys + k) * 4], &stored, sizeof stored);
            for (int i = 0; i < 3; i++) {
                c.values[0][(j * keys + k) * 3 + (size_t)i] = rng_range(r, -2, 2);
                c.values[2][(j * keys + k) * 3 + (size_t)i] = rng_range(r, 0.5, 2);
            }
        }
    }
    c.tracks = calloc(c.track_count, sizeof(sw_track));
    const sw_track_path paths[3] = {SW_PATH_TRANSLATION, SW_PATH_ROTATION, SW_PATH_SCALE};
    for (size_t j = 0; j < joints; j++)
        for (int p = 0; p < 3; p++) {
            uint32_t cc = p == 1 ? 4 : 3;
            sw_track* t = &c.tracks[3 * j + (size_t)p];
            *t = make_track(paths[p], SW_INTERP_LINEAR, cc, keys, c.times, c.values[p] + j * keys * cc);
            t->target = (uint32_t)(joints - 1 - j); /* children first, as exporters often list them */
        }
    return c;
}

static void free_shared_clip(shared_clip* c) {
    free(c->times);
    for (int p = 0; p < 3; p++) free(c->values[p]);
    free(c->tracks);
}

/* Runs the job and the per-track reference at time t and compares poses
   and cursors; both start from `rest`. */
static void check_job_against_tracks(const sw_clip* clip, size_t targets, const sw_transform* rest, float t,
                                     uint32_t* job_cursors, uint32_t* ref_cursors) {
    sw_transform* job_pose = malloc(targets * sizeof(sw_transform));
    sw_transform* ref_pose = malloc(targets * sizeof(sw_transform));
    memcpy(job_pose, rest, targets * sizeof(sw_transform));
    memcpy(ref_pose, rest, targets * sizeof(sw_transform));
    sw_sample_job job = {clip, t, job_cursors, targets, job_pose, NULL, NULL, 0};
    SW_CHECK_EQ_INT(sw_sample_job_validate(&job, NULL), SW_OK);
    sw_sample_job_run(&job);
    for (size_t i = 0; i < clip->track_count; i++) {
        const sw_track* tr = &clip->tracks[i];
        float v[4];
        sw_track_sample(tr, t, ref_cursors ? &ref_cursors[i] : NULL, v);
        sw_transform* x = &ref_pose[tr->target];
        if (tr->path == SW_PATH_TRANSLATION) x->translation = sw_vec3_make(v[0], v[1], v[2]);
        if (tr->path == SW_PATH_ROTATION) x->rotation = (sw_quat){v[0], v[1], v[2], v[3]};
        if (tr->path == SW_PATH_SCALE) x->scale = sw_vec3_make(v[0], v[1], v[2]);
    }
    for (size_t j = 0; j < targets; j++) {
        const float* a = (const float*)(const void*)&job_pose[j];
        const float* b = (const float*)(const void*)&ref_pose[j];
        for (int c = 0; c < 10; c++) SW_CHECK_NEAR(a[c], b[c], 2e-7);
        /* translations and scales are the same lerp: exact */
        SW_CHECK(memcmp(&job_pose[j].translation, &ref_pose[j].translation, sizeof(sw_vec3)) == 0);
        SW_CHECK(memcmp(&job_pose[j].scale, &ref_pose[j].scale, sizeof(sw_vec3)) == 0);
#if defined(__x86_64__)
        /* x86-64: the batched slerps (SSE2, or AVX for full batches) do the
           scalar sw_quat_slerp_fast's IEEE operations in its order: exact. */
        SW_CHECK(memcmp(&job_pose[j].rotation, &ref_pose[j].rotation, sizeof(sw_quat)) == 0);
#endif
    }
    if (job_cursors && ref_cursors)
        for (size_t i = 0; i < clip->track_count; i++) SW_CHECK_EQ_INT(job_cursors[i], ref_cursors[i]);
    free(job_pose);
    free(ref_pose);
}

static void test_sample_job_shared_times_matches_tracks(void) {
    rng r = {0x5A4E};
    /* 1..40 joints: every way a batch of gathered rotations can end (full
       batches, partial groups, a single rotation). */
    for (size_t joints = 1; joints <= 40; joints++) {
        shared_clip c = make_shared_clip(&r, joints, 12);
        sw_clip clip = {"shared", c.track_count, c.tracks, 0, 0};
        SW_CHECK_EQ_INT(sw_clip_finish(&clip, NULL), SW_OK);
        sw_transform* rest = malloc(joints * sizeof(sw_transform));
        for (size_t j = 0; j < joints; j++) rest[j] = rng_transform(&r, 1, 0.5, 2);
        uint32_t* job_cursors = calloc(c.track_count, sizeof(uint32_t));
        uint32_t* ref_cursors = calloc(c.track_count, sizeof(uint32_t));
        /* Forward playback at 60 Hz from before the first key to past the
           last (both ends and every key time on the way), then jumps. */
        for (int step = 0; step < 60; step++) {
            float t = step < 40 ? -0.05f + (float)step / 60.0f : rng_range(&r, -0.1, 0.5);
            check_job_against_tracks(&clip, joints, rest, t, job_cursors, ref_cursors);
            check_job_against_tracks(&clip, joints, rest, t, NULL, NULL);
        }
        for (size_t k = 0; k < c.keys; k++) check_job_against_tracks(&clip, joints, rest, c.times[k], NULL, NULL);
        free(rest);
        free(job_cursors);
        free(ref_cursors);
        free_shared_clip(&c);
    }
}

static void test_sample_job_rotation_accuracy(void) {
    /* The job's rotations against slerp in double on the same keys:
       sw_quat_slerp_fast's bound, measured 1.1e-7 here. */
    rng r = {0xACC5};
    shared_clip c = make_shared_clip(&r, 37, 20);
    sw_clip clip = {"accuracy", c.track_count, c.tracks, 0, 0};
    SW_CHECK_EQ_INT(sw_clip_finish(&clip, NULL), SW_OK);
    sw_transform pose[37];
    double worst = 0.0;
    for (int step = 0; step < 200; step++) {
        float t = rng_range(&r, 0, 19.0 / 30.0);
        for (size_t j = 0; j < 37; j++) pose[j] = sw_transform_identity();
        sw_sample_job job = {&clip, t, NULL, 37, pose, NULL, NULL, 0};
        sw_sample_job_run(&job);
        for (size_t j = 0; j < 37; j++) {
            const sw_track* tr = &c.tracks[3 * j + 1];
            size_t k = 0;
            while (k + 2 < c.keys && c.times[k + 1] <= t) k++;
            double s = ((double)t - c.times[k]) / ((double)c.times[k + 1] - c.times[k]);
            const float* a = tr->values + 4 * k;
            const float* b = a + 4;
            double A[4], B[4], dot = 0.0, dn = 0.0, sn = 0.0;
            for (int i = 0; i < 4; i++) A[i] = a[i], B[i] = b[i], dot += A[i] * B[i];
            if (dot < 0.0)
                for (int i = 0; i < 4; i++) B[i] = -B[i];
            for (int i = 0; i < 4; i++) dn += (A[i] - B[i]) * (A[i] - B[i]), sn += (A[i] + B[i]) * (A[i] + B[i]);
            double theta = 2.0 * atan2(sqrt(dn), sqrt(sn)), n = 0.0, e[4];
            for (int i = 0; i < 4; i++) {
                e[i] = theta > 1e-12 ? (sin((1 - s) * theta) * A[i] + sin(s * theta) * B[i]) / sin(theta)
                                     : (1 - s) * A[i] + s * B[i];
                n += e[i] * e[i];
            }
            const sw_quat q = pose[tr->target].rotation;
            const double got[4] = {q.x, q.y, q.z, q.w};
            for (int i = 0; i < 4; i++) worst = fmax(worst, fabs(got[i] - e[i] / sqrt(n)));
        }
    }
    SW_CHECK(worst <= 2.5e-7);
    free_shared_clip(&c);
}

static void test_sample_job_track_order(void) {
    /* Several tracks on one target write in track order, whatever path
       they take inside the job: gathered LINEAR rotations, STEP, keyed. */
    rng r = {0x0DE4};
    const float times[3] = {0, 1, 2};
    float q[3][12];
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++) {
            sw_quat x = rng_quat(&r);
            memcpy(&q[i][4 * k], &x, sizeof x);
        }
    sw_track tracks[5] = {
        make_track(SW_PATH_ROTATION, SW_INTERP_LINEAR, 4, 3, times, q[0]),
        make_track(SW_PATH_ROTATION, SW_INTERP_STEP, 4, 3, times, q[1]),
        make_track(SW_PATH_ROTATION, SW_INTERP_LINEAR, 4, 3, times, q[2]),
        make_track(SW_PATH_ROTATION, SW_INTERP_LINEAR, 4, 3, times, q[0]),
        make_track(SW_PATH_ROTATION, SW_INTERP_STEP, 4, 3, times, q[1]),
    };
    /* target 0: LINEAR then STEP (STEP wins); target 1: LINEAR, LINEAR (the second wins). */
    tracks[2].target = 1, tracks[3].target = 1, tracks[4].target = 2;
    sw_clip clip = {"order", 5, tracks, 0, 0};
    SW_CHECK_EQ_INT(sw_clip_finish(&clip, NULL), SW_OK);
    for (int i = 0; i < 20; i++) {
        float t = rng_range(&r, -0.5, 2.5);
        sw_transform pose[3] = {sw_transform_identity(), sw_transform_identity(), sw_transform_identity()};
        sw_sample_job job = {&clip, t, NULL, 3, pose, NULL, NULL, 0};
        sw_sample_job_run(&job);
        float step[4], lin[4];
        sw_track_sample(&tracks[1], t, NULL, step);
        sw_track_sample(&tracks[3], t, NULL, lin);
        SW_CHECK(memcmp(&pose[0].rotation, step, sizeof step) == 0);
        for (int c = 0; c < 4; c++) SW_CHECK_NEAR((&pose[1].rotation.x)[c], lin[c], 2e-7);
    }
}

static void test_sample_job_mixed_clip_matches_tracks(void) {
    /* A shared-times clip with STEP, CUBICSPLINE and own-times tracks mixed
       in, and a time on and off keys. */
    rng r = {0x313D};
    shared_clip c = make_shared_clip(&r, 9, 8);
    c.tracks[4].interpolation = SW_INTERP_STEP;   /* a rotation */
    c.tracks[6].interpolation = SW_INTERP_STEP;   /* a translation */
    heap_track cubic = random_track(&r, SW_PATH_ROTATION, SW_INTERP_CUBICSPLINE, 8);
    heap_track own = random_track(&r, SW_PATH_ROTATION, SW_INTERP_LINEAR, 5);
    c.tracks[10] = cubic.track, c.tracks[10].target = 3;
    c.tracks[13] = own.track, c.tracks[13].target = 2;
    sw_clip clip = {"mixed", c.track_count, c.tracks, 0, 0};
    SW_CHECK_EQ_INT(sw_clip_finish(&clip, NULL), SW_OK);
    sw_transform rest[9];
    for (int j = 0; j < 9; j++) rest[j] = rng_transform(&r, 1, 0.5, 2);
    uint32_t job_cursors[27] = {0}, ref_cursors[27] = {0};
    for (int i = 0; i < 100; i++) {
        float t = i % 5 == 0 ? c.times[rng_below(&r, 8)] : rng_range(&r, -1, 3);
        check_job_against_tracks(&clip, 9, rest, t, job_cursors, ref_cursors);
    }
    free_track(&cubic);
    free_track(&own);
    free_shared_clip(&c);
}

int main(void) {
    SW_RUN(test_linear_translation);
    SW_RUN(test_linear_scale_and_default);
    SW_RUN(test_linear_weights);
    SW_RUN(test_linear_rotation_slerp);
    SW_RUN(test_linear_rotation_shortest_path);
    SW_RUN(test_linear_rotation_vs_cglm);
    SW_RUN(test_step_every_path);
    SW_RUN(test_cubic_translation);
    SW_RUN(test_cubic_tangents_differ_at_key);
    SW_RUN(test_cubic_weights);
    SW_RUN(test_cubic_rotation_normalised);
    SW_RUN(test_clamp_and_late_start);
    SW_RUN(test_single_key);
    SW_RUN(test_exact_key_times);
    SW_RUN(test_clip_time_loop);
    SW_RUN(test_clip_time_from_start);
    SW_RUN(test_cursor_matches_search);
    SW_RUN(test_cursor_garbage_is_safe);
    SW_RUN(test_track_validate_rejects);
    SW_RUN(test_clip_finish);
    SW_RUN(test_sample_job_validity);
    SW_RUN(test_sample_job_run);
    SW_RUN(test_sample_job_shared_times_matches_tracks);
    SW_RUN(test_sample_job_rotation_accuracy);
    SW_RUN(test_sample_job_track_order);
    SW_RUN(test_sample_job_mixed_clip_matches_tracks);
    return sw_test_finish();
}
