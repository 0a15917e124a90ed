/* The snow material's numbers without GL (src/render/snow.c): the coverage
   blend and the sparkle against hand-computed cases, the height cache's
   packing round trip and its coarse acceptance rule, the footprint stamp and
   refill. */
#include <math.h>

#include "harness.h"
#include "test_random.h"

#include "../../src/render/snow.h"

static void test_coverage_cases(void) {
    const float T = SW_SNOW_THRESHOLD, W = SW_SNOW_WIDTH;
    SW_CHECK_NEAR(sw__snow_coverage(1.0f, 1.0f, T, W), 1.0, 1e-6);   /* (1 − 0.53)/0.34 > 1 */
    SW_CHECK_NEAR(sw__snow_coverage(1.0f, 0.70f, T, W), 0.5, 1e-6);  /* (0.70 − 0.53)/0.34 */
    SW_CHECK_NEAR(sw__snow_coverage(1.0f, 0.53f, T, W), 0.0, 1e-6);
    /* a = ½: T' = 1 − 0.5·0.47 = 0.765; ½·(1 − 0.765)/0.34 = 0.345588 */
    SW_CHECK_NEAR(sw__snow_coverage(0.5f, 1.0f, T, W), 0.345588, 1e-5);
    SW_CHECK_NEAR(sw__snow_coverage(0.5f, 0.70f, T, W), 0.0, 1e-6);  /* below T' */
    SW_CHECK_NEAR(sw__snow_coverage(0.0f, 1.0f, T, W), 0.0, 1e-6);
    SW_CHECK_NEAR(sw__snow_coverage(0.8f, 0.9f, T, 0.0f), 0.8, 1e-6); /* step: T' = 0.624 */
    /* Monotone in alpha and in normal·up. */
    for (int i = 0; i < 20; i++)
        for (int j = 0; j < 20; j++) {
            float a = i / 20.0f, u = j / 20.0f;
            SW_CHECK(sw__snow_coverage(a + 0.05f, u, T, W) >= sw__snow_coverage(a, u, T, W));
            SW_CHECK(sw__snow_coverage(a, u + 0.05f, T, W) >= sw__snow_coverage(a, u, T, W));
        }
}

static void test_blend(void) {
    sw_vec3 n = sw__snow_blend_normal((sw_vec3){1, 0, 0}, (sw_vec3){0, 1, 0}, 0.5f);
    SW_CHECK_NEAR(n.x, 0.70710678, 1e-6);
    SW_CHECK_NEAR(n.y, 0.70710678, 1e-6);
    SW_CHECK_NEAR(n.z, 0.0, 1e-6);
    n = sw__snow_blend_normal((sw_vec3){0, 0, 1}, (sw_vec3){0, 1, 0}, 0.0f);
    SW_CHECK_NEAR(n.z, 1.0, 1e-6);
    n = sw__snow_blend_normal((sw_vec3){0, 1, 0}, (sw_vec3){0, -1, 0}, 0.5f); /* degenerate */
    SW_CHECK_NEAR(n.y, 1.0, 1e-6);
    SW_CHECK_NEAR(sw__snow_blend(0.2f, 0.9f, 0.25f), 0.375, 1e-6);
}

static void test_sparkle(void) {
    sw__snow_sparkle_params p = {2.0f, 3.0f, 0.0f, 4.0f};
    SW_CHECK_NEAR(sw__snow_sparkle(1, 1, 0, 1, 1, &p), 2.0, 1e-6);
    /* 0.81^0.71 = exp(0.71·ln 0.81) = 0.861042; × 2 / (1 + 3·1) */
    SW_CHECK_NEAR(sw__snow_sparkle(0.9f, 0.9f, 1.0f, 1.0f, 1.0f, &p), 2.0 * 0.861042 / 4.0, 1e-5);
    /* 0.25^0.71 = 0.373719 is under the cut 0.8: no glint */
    SW_CHECK_NEAR(sw__snow_sparkle(0.5f, 0.5f, 0.0f, 1.0f, 1.0f, &p), 0.0, 1e-6);
    SW_CHECK_NEAR(sw__snow_sparkle(1, 1, 0, 0, 1, &p), 0.0, 1e-6); /* no cover, no sparkle */
    p = (sw__snow_sparkle_params){0.0f, 0.0f, 1.0f, 2.0f};
    SW_CHECK_NEAR(sw__snow_sparkle(0, 0, 0, 1, 0.5f, &p), 0.25, 1e-6); /* (1 − ½)² */
    /* The glint hash: reproducible, in [0, 1), roughly uniform. */
    double sum = 0.0;
    for (int i = 0; i < 4096; i++) {
        float g = sw__snow_glint(i, -i * 3, i * 7 + 1);
        SW_CHECK(g >= 0.0f && g < 1.0f);
        sum += g;
    }
    SW_CHECK_NEAR(sum / 4096.0, 0.5, 0.02);
    SW_CHECK(sw__snow_glint(5, 6, 7) == sw__snow_glint(5, 6, 7));
}

static void test_height_packing(void) {
    SW_CHECK(sw__snow_height_pack(0.5f, 7u) == 0x7FFE0007u);    /* 0.5·65532 = 32766 */
    SW_CHECK(sw__snow_height_pack(1.0f, 0u) == 0xFFFC0000u);    /* 65532 = 0xFFFC */
    SW_CHECK(sw__snow_height_pack(2.0f, 70000u) == 0xFFFCFFFFu); /* clamped both */
    SW_CHECK(sw__snow_height_pack(-1.0f, 1u) == 1u);
    /* Higher surfaces win the max; equal heights: the larger difference. */
    SW_CHECK(sw__snow_height_pack(0.51f, 0u) > sw__snow_height_pack(0.5f, 0xFFFFu));
    SW_CHECK(sw__snow_height_pack(0.5f, 9u) > sw__snow_height_pack(0.5f, 8u));
    rng r = {0x5a0fu};
    for (int i = 0; i < 10000; i++) {
        float h = (float)rng_unit(&r);
        uint32_t d = rng_u32(&r) & 0xFFFFu, d2;
        float h2;
        sw__snow_height_unpack(sw__snow_height_pack(h, d), &h2, &d2);
        SW_CHECK(d2 == d);
        SW_CHECK(h2 <= h + 1e-6f && h - h2 <= 1.0f / 65532.0f + 1e-6f);
    }
}

static void test_coarse_rule(void) {
    SW_CHECK(sw__snow_coarse_layer(0.0f) == 0);
    SW_CHECK(sw__snow_coarse_layer(0.1f) == 3);  /* floor(3.2) */
    SW_CHECK(sw__snow_coarse_layer(1.0f) == 31);
    SW_CHECK(sw__snow_coarse_accept(0x18u));      /* layers 3, 4: 0x18 >> 3 = 3 */
    SW_CHECK(!sw__snow_coarse_accept(0x28u));     /* layers 3, 5: 5 */
    SW_CHECK(!sw__snow_coarse_accept(0x38u));     /* layers 3, 4, 5: 7 */
    SW_CHECK(sw__snow_coarse_accept(0x80000000u)); /* layer 31 alone */
    SW_CHECK(sw__snow_coarse_accept(0u));
    uint32_t coarse = 0, fine = 0;
    SW_CHECK(sw__snow_cache_insert(&coarse, &fine, 0.10f, 5u) == 1); /* layer 3 */
    SW_CHECK(coarse == 0x8u && fine == sw__snow_height_pack(0.10f, 5u));
    SW_CHECK(sw__snow_cache_insert(&coarse, &fine, 0.097f, 5u) == 0); /* layer 3, lower: loses the max */
    SW_CHECK(sw__snow_cache_insert(&coarse, &fine, 0.13f, 1u) == 1); /* layer 4: adjacent */
    SW_CHECK(coarse == 0x18u);
    SW_CHECK(sw__snow_cache_insert(&coarse, &fine, 0.16f, 1u) == 0); /* layer 5: a third layer */
    SW_CHECK(fine == sw__snow_height_pack(0.13f, 1u));
    int32_t t[2];
    sw__snow_fine_texel(-1.0f / 64.0f, 1.0f, 64.0f, t); /* 32 texels per unit; ring wrap */
    SW_CHECK(t[0] == 2047 && t[1] == 32);
    sw__snow_fine_texel(64.0f, 0.0f, 64.0f, t);
    SW_CHECK(t[0] == 0 && t[1] == 0);
}

static void test_footprints(void) {
    SW_CHECK_NEAR(sw__snow_stamp(0.0f, 0.05f, 0.1f, 0.8f), 0.4, 1e-6);
    SW_CHECK_NEAR(sw__snow_stamp(0.6f, 0.05f, 0.1f, 0.8f), 0.6, 1e-6); /* keeps the deeper */
    SW_CHECK_NEAR(sw__snow_stamp(0.0f, 0.2f, 0.1f, 0.8f), 0.0, 1e-6);
    /* rate 0.05/s halves in ln 2 / 0.05 = 13.863 s */
    SW_CHECK_NEAR(sw__snow_refill(0.8f, 0.05f, 13.862944f), 0.4, 1e-5);
    SW_CHECK_NEAR(sw__snow_refill(0.8f, 0.05f, 0.0f), 0.8, 1e-7);
    SW_CHECK_NEAR(sw__snow_trail_coverage(0.9f, 0.5f), 0.45, 1e-6);
    SW_CHECK_NEAR(sw__snow_trail_shade(1.0f), 0.5, 1e-6);
    SW_CHECK_NEAR(sw__snow_trail_shade(0.0f), 1.0, 1e-6);
    /* The hollow: a level trail leaves the normal; d rising by 0.1 over a
       2 cm texel along +x with a 4 cm deep track tilts it by
       0.04·0.1/0.02 = 0.2: normalize(0.2, 1, 0) = (0.196116, 0.980581, 0);
       no snow there, no tilt. */
    const sw_vec3 up = {0.0f, 1.0f, 0.0f};
    sw_vec3 flat = sw__snow_trail_normal(up, 0.5f, 0.5f, 0.5f, 0.02f, 1.0f);
    SW_CHECK_NEAR(flat.x, 0.0, 1e-7);
    SW_CHECK_NEAR(flat.y, 1.0, 1e-7);
    sw_vec3 rim = sw__snow_trail_normal(up, 0.5f, 0.6f, 0.5f, 0.02f, 1.0f);
    SW_CHECK_NEAR(SW_SNOW_TRACK_DEPTH, 0.04, 1e-7);
    SW_CHECK_NEAR(rim.x, 0.196116, 1e-5);
    SW_CHECK_NEAR(rim.y, 0.980581, 1e-5);
    SW_CHECK_NEAR(rim.z, 0.0, 1e-7);
    sw_vec3 slope_z = sw__snow_trail_normal(up, 0.5f, 0.5f, 0.4f, 0.02f, 0.5f);
    SW_CHECK_NEAR(slope_z.z, -0.1 / sqrt(1.01), 1e-5);
    sw_vec3 bare = sw__snow_trail_normal(up, 0.5f, 0.6f, 0.5f, 0.02f, 0.0f);
    SW_CHECK_NEAR(bare.x, 0.0, 1e-7);
    SW_CHECK_EQ_INT(SW_SNOW_TRAIL_SIZE, SW_SNOW_TRAIL_TEXELS);
}

int main(void) {
    SW_RUN(test_coverage_cases);
    SW_RUN(test_blend);
    SW_RUN(test_sparkle);
    SW_RUN(test_height_packing);
    SW_RUN(test_coarse_rule);
    SW_RUN(test_footprints);
    return sw_test_finish();
}
