/* Falling snow's numbers (src/render/weather.c; docs/weather.md), no GL:
     - one flake's position by hand (its four random numbers, read once and
       written here, pin the hash): fall, wind, sway, and the wrap at t = 10;
     - the wrap: every flake lies in the cube centred on the eye; moving the
       eye by a whole cube moves no flake relative to the cube's lattice;
     - motion: between two times a flake moves by wind·dt − v·dt plus the
       sway's chord, modulo the cube, for flakes of all three speeds;
     - determinism: the same (seed, index, time) gives the same position in
       any order of calls; another seed gives other flakes;
     - the counts, the disc, the drawn radius and the light by hand. */
#include "harness.h"

#include <math.h>
#include <string.h>

#include "../../src/render/weather.h"

static void test_by_hand(void) {
    float u[4];
    int speed;
    sw__weather_flake_random(SW__WEATHER_SEED, 1, u, &speed);
    SW_CHECK_NEAR(u[0], 0.0795245171f, 1e-7f);
    SW_CHECK_NEAR(u[1], 0.645184457f, 1e-7f);
    SW_CHECK_NEAR(u[2], 0.912093341f, 1e-7f);
    SW_CHECK_NEAR(u[3], 0.372214735f, 1e-7f);
    SW_CHECK_EQ_INT(speed, 2); /* 1.35 m/s */
    /* eye (10,10,10): the cube is [0,20)³. t = 2, wind (3, −1):
       φ + ωt = 2π·0.372214735 + 3 = 5.338694;
       x = 1.590490 + 6 + 0.15·cos(5.338694) = 7.678414
       y = 12.903689 − 2.7 = 10.203689
       z = 18.241867 − 2 + 0.15·sin(5.338694) = 16.120337 */
    sw__weather w = {.seed = SW__WEATHER_SEED, .time = 2.0f, .wind = {3.0f, -1.0f}, .eye = {10, 10, 10}};
    float p[3];
    sw__weather_flake(&w, 1, p);
    SW_CHECK_NEAR(p[0], 7.678414f, 2e-5f);
    SW_CHECK_NEAR(p[1], 10.203689f, 2e-5f);
    SW_CHECK_NEAR(p[2], 16.120337f, 2e-5f);
    /* t = 10: x = 31.599475 → 11.599475, y = −0.596311 → 19.403689 (it fell
       through the floor of the cube and came back at the top), z = 8.092136. */
    w.time = 10.0f;
    sw__weather_flake(&w, 1, p);
    SW_CHECK_NEAR(p[0], 11.599475f, 2e-5f);
    SW_CHECK_NEAR(p[1], 19.403689f, 2e-5f);
    SW_CHECK_NEAR(p[2], 8.092136f, 2e-5f);
}

/* a − b wrapped into [−B/2, B/2) */
static float wrapped_difference(float a, float b) {
    float d = fmodf(a - b, SW__WEATHER_BOX);
    if (d >= 0.5f * SW__WEATHER_BOX) d -= SW__WEATHER_BOX;
    if (d < -0.5f * SW__WEATHER_BOX) d += SW__WEATHER_BOX;
    return d;
}

static void test_wrap(void) {
    const float eyes[3][3] = {{0, 1.6f, 3}, {-123.4f, 7, 55.5f}, {1000.25f, -3, -2000}};
    const float times[4] = {0.0f, 0.37f, 61.0f, 3600.0f};
    int outside = 0, shifted = 0;
    for (int e = 0; e < 3; e++)
        for (int t = 0; t < 4; t++) {
            sw__weather w = {.seed = SW__WEATHER_SEED, .time = times[t], .wind = {2.5f, -0.8f}};
            memcpy(w.eye, eyes[e], sizeof w.eye);
            sw__weather moved = w;
            moved.eye[0] += SW__WEATHER_BOX, moved.eye[2] -= 2.0f * SW__WEATHER_BOX;
            for (uint32_t i = 0; i < 500; i++) {
                float p[3], q[3];
                sw__weather_flake(&w, i, p);
                sw__weather_flake(&moved, i, q);
                for (int k = 0; k < 3; k++) {
                    const float low = eyes[e][k] - 0.5f * SW__WEATHER_BOX;
                    /* a little slack: float positions near 2000 are 1e-4 apart */
                    outside += p[k] < low - 1e-3f || p[k] > low + SW__WEATHER_BOX + 1e-3f;
                }
                /* the same flake, one and two cubes over */
                shifted += fabsf(q[0] - (p[0] + SW__WEATHER_BOX)) > 2e-3f || fabsf(q[1] - p[1]) > 2e-3f ||
                           fabsf(q[2] - (p[2] - 2.0f * SW__WEATHER_BOX)) > 2e-3f;
            }
        }
    SW_CHECK_EQ_INT(outside, 0);
    SW_CHECK_EQ_INT(shifted, 0);
}

static void test_motion(void) {
    const float t0 = 4.0f, dt = 0.5f, wind[2] = {3.0f, -1.5f};
    sw__weather a = {.seed = 7, .time = t0, .wind = {wind[0], wind[1]}, .eye = {0, 0, 0}};
    sw__weather b = a;
    b.time = t0 + dt;
    int seen[3] = {0, 0, 0}, wrong = 0;
    for (uint32_t i = 0; i < 3000; i++) {
        float u[4], p[3], q[3];
        int speed;
        sw__weather_flake_random(a.seed, i, u, &speed);
        seen[speed]++;
        sw__weather_flake(&a, i, p);
        sw__weather_flake(&b, i, q);
        const double phase0 = 2.0 * 3.14159265358979 * u[3] + 1.5 * t0, phase1 = phase0 + 1.5 * dt;
        const float expect[3] = {
            (float)(wind[0] * dt + 0.15 * (cos(phase1) - cos(phase0))),
            -SW__WEATHER_FALL_SPEED * sw__weather_fall_factors[speed] * dt,
            (float)(wind[1] * dt + 0.15 * (sin(phase1) - sin(phase0))),
        };
        for (int k = 0; k < 3; k++) wrong += fabsf(wrapped_difference(q[k], p[k]) - expect[k]) > 1e-4f;
    }
    SW_CHECK_EQ_INT(wrong, 0);
    /* the three speeds about a third each */
    for (int s = 0; s < 3; s++) SW_CHECK(seen[s] > 900 && seen[s] < 1100);
}

static void test_determinism(void) {
    sw__weather w = {.seed = SW__WEATHER_SEED, .time = 12.5f, .wind = {1, 0}, .eye = {1, 2, 3}};
    float first[64][3], again[3];
    for (uint32_t i = 0; i < 64; i++) sw__weather_flake(&w, i, first[i]);
    sw__weather other = w;
    other.time = 99.0f; /* another time in between changes nothing: no state */
    for (uint32_t i = 0; i < 64; i++) sw__weather_flake(&other, i, again);
    int differ = 0, same_as_other_seed = 0;
    for (uint32_t i = 64; i-- > 0;) { /* backwards */
        sw__weather_flake(&w, i, again);
        differ += memcmp(again, first[i], sizeof again) != 0;
    }
    SW_CHECK_EQ_INT(differ, 0);
    other = w;
    other.seed = w.seed + 1;
    for (uint32_t i = 0; i < 64; i++) {
        sw__weather_flake(&other, i, again);
        same_as_other_seed += fabsf(again[0] - first[i][0]) < 1e-3f;
    }
    SW_CHECK(same_as_other_seed < 3);
    /* homes spread over the cube: the mean of each coordinate near 0.5 */
    double sum[3] = {0, 0, 0};
    for (uint32_t i = 0; i < 4000; i++) {
        float u[4];
        int s;
        sw__weather_flake_random(SW__WEATHER_SEED, i, u, &s);
        for (int k = 0; k < 3; k++) sum[k] += u[k];
    }
    for (int k = 0; k < 3; k++) SW_CHECK_NEAR(sum[k] / 4000.0, 0.5, 0.02);
}

static void test_shapes(void) {
    SW_CHECK_EQ_INT((int)sw__weather_count(1.0f), 8000);
    SW_CHECK_EQ_INT((int)sw__weather_count(0.25f), 2000);
    SW_CHECK_EQ_INT((int)sw__weather_count(0.0f), 0);
    SW_CHECK_EQ_INT((int)sw__weather_count(-1.0f), 0);
    SW_CHECK_EQ_INT((int)sw__weather_count(NAN), 0);
    SW_CHECK_EQ_INT((int)sw__weather_count(100.0f), 64000);
    /* the disc: 0.9 inside half the radius, smoothstep to 0 at the rim */
    SW_CHECK_NEAR(sw__weather_disc_alpha(0.0f, 1.0f), 0.9f, 1e-6f);
    SW_CHECK_NEAR(sw__weather_disc_alpha(0.5f, 1.0f), 0.9f, 1e-6f);
    SW_CHECK_NEAR(sw__weather_disc_alpha(0.75f, 1.0f), 0.45f, 1e-6f);
    SW_CHECK_NEAR(sw__weather_disc_alpha(0.625f, 0.5f), 0.5f * 0.9f * (1.0f - 0.15625f), 1e-6f); /* x = 1/4: 3x² − 2x³ */
    SW_CHECK_NEAR(sw__weather_disc_alpha(1.0f, 1.0f), 0.0f, 1e-6f);
    SW_CHECK_NEAR(sw__weather_disc_alpha(3.0f, 1.0f), 0.0f, 1e-6f);
    /* 60° field, 120 rows: a pixel at depth 2 is 2·2·tan 30°/120 = 0.0192450 m
       > 0.015: drawn one pixel big, fading by (0.015/0.019245)² = 0.607500 */
    float fade;
    const float fov = 60.0f * 3.14159265f / 180.0f;
    SW_CHECK_NEAR(sw__weather_drawn_radius(2.0f, fov, 120, &fade), 0.0192450f, 1e-6f);
    SW_CHECK_NEAR(fade, 0.607500f, 1e-4f);
    /* at depth 1 the true radius is 1.56 px: as it is */
    SW_CHECK_NEAR(sw__weather_drawn_radius(1.0f, fov, 120, &fade), 0.015f, 1e-7f);
    SW_CHECK_NEAR(fade, 1.0f, 1e-7f);
    /* light: 0.9·(3/π + (0.4 + 0.2)/2) = 0.9·1.254930 = 1.129437 */
    const float sun[3] = {3, 3, 0}, sky[3] = {0.4f, 0.5f, 0.6f}, ground[3] = {0.2f, 0.1f, 0.2f};
    float c[3];
    sw__weather_flake_light(sun, 1.0f, sky, ground, c);
    SW_CHECK_NEAR(c[0], 1.129437f, 1e-5f);
    SW_CHECK_NEAR(c[1], 0.9f * (3.0f / 3.14159265f + 0.3f), 1e-5f);
    SW_CHECK_NEAR(c[2], 0.9f * 0.4f, 1e-6f);
    sw__weather_flake_light(sun, 0.0f, sky, ground, c); /* in shadow: the ambient alone */
    SW_CHECK_NEAR(c[0], 0.27f, 1e-6f);
}

int main(void) {
    SW_RUN(test_by_hand);
    SW_RUN(test_wrap);
    SW_RUN(test_motion);
    SW_RUN(test_determinism);
    SW_RUN(test_shapes);
    return sw_test_finish();
}
