/* The toon shading rules (sinew/toon.h) against numbers written down from
   the frame analysis (docs/toon.md): region bands, the signed square, the
   lit/dark decision, ramp rows, the face SDF threshold and logistic, the
   ordered dither, hair bands, the glint hash and the glint defaults. */
#include "harness.h"

#include "sinew/toon.h"

#include <math.h>
#include <string.h>

/* The region rule as the analysis states it, written independently: the
   bands [0.2, 0.4) → 4, [0.4, 0.6) → 3, [0.6, 0.8) → 5, [0.8, 1] → 2,
   below 0.2 → 1; a closed gate leaves group 1. Alpha as tenths (0..10) so
   the band edges compare exactly. */
static int expected_region(int tenths, const bool gate[5]) {
    int band;
    if (tenths < 2)
        band = 1;
    else if (tenths < 4)
        band = 4;
    else if (tenths < 6)
        band = 3;
    else if (tenths < 8)
        band = 5;
    else
        band = 2;
    return gate[band - 1] ? band : 1;
}

static void test_region_table(void) {
    int checked = 0;
    for (int mask = 0; mask < 16; mask++) {
        bool gate[5] = {true, (mask & 1) != 0, (mask & 2) != 0, (mask & 4) != 0, (mask & 8) != 0};
        for (int t = 0; t <= 10; t++) {
            float a = (float)t / 10.0f;
            int got = sw_toon_region(a, gate);
            int want = expected_region(t, gate);
            if (got != want) fprintf(stderr, "  a=%.1f gates=%x: got %d want %d\n", (double)a, mask, got, want);
            SW_CHECK_EQ_INT(got, want);
            checked++;
        }
    }
    SW_CHECK_EQ_INT(checked, 176);
}

/* floor(5A) + 1 is not the rule: A = 0.3 and 0.9 show it. */
static void test_region_not_floor(void) {
    bool all[5] = {true, true, true, true, true};
    int differ = 0;
    for (int t = 0; t <= 10; t++) {
        float a = (float)t / 10.0f;
        int naive = (int)floorf(5.0f * a) + 1;
        if (naive > 5) naive = 5;
        int got = sw_toon_region(a, all);
        if (got != naive) {
            if (differ == 0) printf("region differs from floor(5A)+1 at A=%.1f: %d vs %d\n", (double)a, got, naive);
            differ++;
        }
    }
    SW_CHECK(differ > 0);
    SW_CHECK_EQ_INT(sw_toon_region(0.3f, all), 4);
    SW_CHECK_EQ_INT(sw_toon_region(0.9f, all), 2);
    SW_CHECK_EQ_INT(sw_toon_region(0.7f, all), 5);
    bool closed[5] = {true, false, false, false, false};
    SW_CHECK_EQ_INT(sw_toon_region(0.9f, closed), 1);
}

static void test_signed_square(void) {
    const float in[5] = {0.0f, 0.25f, 0.5f, 0.75f, 1.0f};
    const float out[5] = {0.0f, 0.375f, 0.5f, 0.625f, 1.0f};
    for (int i = 0; i < 5; i++) SW_CHECK_NEAR(sw_toon_signed_square(in[i]), out[i], 1e-6);
    /* The outputs fed back in: 0.375 → 0.5 − 2·0.125² = 0.46875. */
    SW_CHECK_NEAR(sw_toon_signed_square(0.375f), 0.46875, 1e-6);
    SW_CHECK_NEAR(sw_toon_signed_square(0.625f), 0.53125, 1e-6);
}

static void test_shadow_area(void) {
    float depth = -1.0f, u = -1.0f;
    /* Forced ends: g 0.04 is dark even fully lit, g 0.96 lit even facing away. */
    SW_CHECK(sw_toon_shadow_area(1.0f, 0.04f, 0.55f, 1.0f, &depth, &u));
    SW_CHECK_NEAR(depth, 1.0, 1e-6);
    SW_CHECK_NEAR(u, 0.0, 1e-6);
    SW_CHECK(!sw_toon_shadow_area(0.0f, 0.96f, 0.55f, 1.0f, &depth, &u));
    SW_CHECK_NEAR(u, 1.0, 1e-6);
    /* Between: c = (hl + g)/2. hl 0.4, g 0.5: c 0.45 < 0.55, depth 0.1/0.55, u 1 − depth. */
    SW_CHECK(sw_toon_shadow_area(0.4f, 0.5f, 0.55f, 1.0f, &depth, &u));
    SW_CHECK_NEAR(depth, 0.1 / 0.55, 1e-6);
    SW_CHECK_NEAR(u, 1.0 - 0.1 / 0.55, 1e-6);
    /* Width 0.1: depth/width saturates → u 0. */
    SW_CHECK(sw_toon_shadow_area(0.4f, 0.5f, 0.55f, 0.1f, &depth, &u));
    SW_CHECK_NEAR(u, 0.0, 1e-6);
    /* hl 0.7, g 0.5: c 0.6 ≥ 0.55, lit. */
    SW_CHECK(!sw_toon_shadow_area(0.7f, 0.5f, 0.55f, 1.0f, &depth, &u));
    SW_CHECK_NEAR(u, 1.0, 1e-6);
    /* g exactly 0.05 / 0.95 is not forced. */
    SW_CHECK(!sw_toon_shadow_area(1.0f, 0.05f, 0.5f, 1.0f, NULL, NULL));
    SW_CHECK(sw_toon_shadow_area(0.0f, 0.95f, 0.55f, 1.0f, NULL, NULL));
}

static void test_ramp_rows(void) {
    const double day[5] = {0.95, 0.85, 0.75, 0.65, 0.55};
    for (int g = 1; g <= 5; g++) {
        SW_CHECK_NEAR(sw_toon_ramp_row(g, false), day[g - 1], 1e-6);
        SW_CHECK_NEAR(sw_toon_ramp_row(g, true), day[g - 1] - 0.5, 1e-6);
    }
}

/* Every row of the ramp made from a shade colour: white at the lit end,
   the shade colour in the deep shadow; the night rows (bottom half of v,
   the last 10 rows in memory) darker, blue least darkened. */
static void test_ramp_from_shade(void) {
    static uint8_t ramp[SW_TOON_RAMP_WIDTH * SW_TOON_RAMP_HEIGHT * 4];
    const float shade[3] = {0.2f, 0.3f, 0.4f};
    sw_toon_ramp_from_shade(shade, 0.0f, 0.9f, ramp);
    /* sRGB of linear 0.2 / 0.3 / 0.4: 124 / 149 / 170. */
    const int shade_srgb[3] = {124, 149, 170};
    for (int row = 0; row < SW_TOON_RAMP_HEIGHT; row++) {
        const uint8_t* p = ramp + (size_t)row * SW_TOON_RAMP_WIDTH * 4;
        const uint8_t* last = p + (SW_TOON_RAMP_WIDTH - 1) * 4;
        bool night = row >= 10;
        for (int c = 0; c < 3; c++) {
            if (!night) {
                SW_CHECK(abs(p[c] - shade_srgb[c]) <= 1);
                SW_CHECK(last[c] >= 250);
            }
            SW_CHECK_EQ_INT(p[3], 255);
        }
        if (night) {
            const uint8_t* d = ramp; /* a day row */
            SW_CHECK(p[0] < d[0] && p[1] < d[1] && p[2] < d[2]);
            SW_CHECK(d[2] - p[2] < d[0] - p[0]); /* bluer: blue loses least */
        }
    }
    /* Which memory row is group g's day/night row: v = 1 − (row + 0.5)/20
       lies within 0.05 of sw_toon_ramp_row. */
    for (int g = 1; g <= 5; g++)
        for (int n = 0; n < 2; n++) {
            float v = sw_toon_ramp_row(g, n == 1);
            /* v sits on the edge between the band's two rows (memory rows 2k, 2k + 1). */
            long edge = lroundf((1.0f - v) * SW_TOON_RAMP_HEIGHT);
            SW_CHECK_EQ_INT(edge, n * 10 + 2 * (g - 1) + 1);
        }
    /* The MToon transition: shift 0, toony 0.9 → ramp light area
       (3 − 0.9)/4 = 0.525; N·L(u) = 2.1u − 2; half-way (N·L = 0) at
       u = 0.952: texel 243 is in the transition, texel 200 is shade. */
    const uint8_t* day = ramp;
    SW_CHECK(abs(day[200 * 4] - shade_srgb[0]) <= 1);
    SW_CHECK(day[243 * 4] > shade_srgb[0] + 20 && day[243 * 4] < 240);
}

static void test_face_threshold(void) {
    const float front[3] = {0.0f, 0.0f, 1.0f}, back[3] = {0.0f, 0.0f, -1.0f}, side[3] = {1.0f, 0.0f, 0.0f};
    SW_CHECK_NEAR(sw_toon_face_threshold(front, 0.0f), 0.03, 1e-6);
    SW_CHECK_NEAR(sw_toon_face_threshold(back, 0.0f), 0.97, 1e-6);
    SW_CHECK_NEAR(sw_toon_face_threshold(side, 0.0f), 0.5, 1e-6);
    SW_CHECK_NEAR(sw_toon_face_threshold(side, 0.2f), 0.7, 1e-6);
    SW_CHECK_NEAR(sw_toon_face_threshold(side, 0.9f), 0.97, 1e-6);
    /* 45° from the front: 0.5 − 0.5·cos45° = 0.1464. */
    const float diag45[3] = {0.70710678f, 0.0f, 0.70710678f};
    SW_CHECK_NEAR(sw_toon_face_threshold(diag45, 0.0f), 0.5 - 0.5 * 0.70710678, 1e-5);
    /* The 1e-4 floor: a horizontal part of 5e-5 reads as half a unit vector
       (h = 0.5 − 0.25); straight overhead gives 0.5. */
    const float almost_up[3] = {0.0f, 1.0f, 5e-5f}, up[3] = {0.0f, 1.0f, 0.0f};
    SW_CHECK_NEAR(sw_toon_face_threshold(almost_up, 0.0f), 0.25, 1e-4);
    SW_CHECK_NEAR(sw_toon_face_threshold(up, 0.0f), 0.5, 1e-6);
    /* Above the floor the length is the real one. */
    const float small[3] = {0.0f, 1.0f, 2e-4f};
    SW_CHECK_NEAR(sw_toon_face_threshold(small, 0.0f), 0.03, 1e-6);
}

static void test_face_texel(void) {
    SW_CHECK_NEAR(sw_toon_face_texel(0.9f, 0.4f), 0.7, 1e-6); /* A non-zero selects */
    SW_CHECK_NEAR(sw_toon_face_texel(0.6f, 0.0f), 0.3, 1e-6);
    SW_CHECK_NEAR(sw_toon_face_texel(0.0f, 1.0f), 1.0, 1e-6);
}

/* The logistic's 10–90 % width, found by bisection on the function itself. */
static double crossing(float h, float s, float level) {
    double lo = h - 1.0, hi = h + 1.0;
    for (int i = 0; i < 200; i++) {
        double mid = 0.5 * (lo + hi);
        if (sw_toon_face_lit((float)mid, h, s) < level)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

static void test_face_logistic(void) {
    SW_CHECK_NEAR(sw_toon_face_lit(0.4f, 0.4f, 100.0f), 0.5, 1e-6);
    SW_CHECK(sw_toon_face_lit(0.45f, 0.4f, 100.0f) > 0.5f);
    SW_CHECK(sw_toon_face_lit(0.35f, 0.4f, 100.0f) < 0.5f);
    const float s[2] = {100.0f, 3460.0f};
    const double stated_width[2] = {0.0439, 0.00127};
    for (int i = 0; i < 2; i++) {
        double w = crossing(0.5f, s[i], 0.9f) - crossing(0.5f, s[i], 0.1f);
        printf("logistic s=%g: 10-90%% width %.6f (2 ln 9 / s = %.6f)\n", (double)s[i], w, 2.0 * log(9.0) / s[i]);
        SW_CHECK_NEAR(w, 2.0 * log(9.0) / s[i], 2e-3 * w + 2e-6);
        SW_CHECK_NEAR(w, stated_width[i], 0.01 * stated_width[i]);
    }
    /* No overflow far from the edge. */
    SW_CHECK_NEAR(sw_toon_face_lit(1.0f, 0.0f, 1e6f), 1.0, 0.0);
    SW_CHECK_NEAR(sw_toon_face_lit(0.0f, 1.0f, 1e6f), 0.0, 0.0);
}

static void test_dither(void) {
    const int table[4][4] = {{1, 13, 4, 16}, {9, 5, 12, 8}, {3, 15, 2, 14}, {11, 7, 10, 6}};
    int seen[17] = {0};
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 8; x++) {
            float d = sw_toon_dither(x, y);
            SW_CHECK_NEAR(d, table[y & 3][x & 3] / 17.0, 1e-7);
            if (y < 4 && x < 4) seen[(int)lroundf(d * 17.0f)]++;
        }
    for (int k = 1; k <= 16; k++) SW_CHECK_EQ_INT(seen[k], 1);
    /* Row is y, column is x: (x=1, y=0) = 13, (x=0, y=1) = 9. */
    SW_CHECK_NEAR(sw_toon_dither(1, 0), 13.0 / 17.0, 1e-7);
    SW_CHECK_NEAR(sw_toon_dither(0, 1), 9.0 / 17.0, 1e-7);
    SW_CHECK_NEAR(sw_toon_dither(-1, -1), 6.0 / 17.0, 1e-7);
}

static void test_hair_bands(void) {
    sw_toon_material hair;
    sw_toon_defaults(SW_TOON_HAIR, &hair);
    const double sat_at[2] = {0.974, 0.950};
    for (int b = 0; b < 2; b++) {
        double n = pow(hair.band_upper[b], 1.0 / hair.band_exponent[b]);
        printf("band %d saturates at N.H' = %.4f\n", b + 1, n);
        SW_CHECK_NEAR(n, sat_at[b], 6e-4);
        float e = hair.band_exponent[b], lo = hair.band_lower[b], up = hair.band_upper[b], in = hair.band_intensity[b];
        SW_CHECK_NEAR(sw_toon_hair_band((float)n + 1e-4f, e, lo, up, in), in, 1e-6);
        SW_CHECK_NEAR(sw_toon_hair_band(1.0f, e, lo, up, in), in, 1e-6);
        SW_CHECK(sw_toon_hair_band((float)n - 0.02f, e, lo, up, in) < in);
        SW_CHECK_NEAR(sw_toon_hair_band(0.0f, e, lo, up, in), 0.0, 1e-7);
        SW_CHECK_NEAR(sw_toon_hair_band(-1.0f, e, lo, up, in), 0.0, 1e-7);
        /* smoothstep, not a linear ramp: a quarter of the way → 3/16 − 2/64 = 0.15625. */
        float quarter = powf(0.25f * up, 1.0f / e);
        SW_CHECK_NEAR(sw_toon_hair_band(quarter, e, lo, up, in), 0.15625 * in, 1e-5);
    }
    SW_CHECK_NEAR(hair.band_exponent[0], 6.4, 1e-6);
    SW_CHECK_NEAR(hair.band_upper[0], 0.844, 1e-6);
    SW_CHECK_NEAR(hair.band_intensity[0], 0.099, 1e-6);
    SW_CHECK_NEAR(hair.band_exponent[1], 5.0, 1e-6);
    SW_CHECK_NEAR(hair.band_upper[1], 0.773, 1e-6);
    SW_CHECK_NEAR(hair.band_intensity[1], 0.399, 1e-6);
    SW_CHECK_NEAR(hair.view_lift, -0.06, 1e-7);
}

static void test_hash42(void) {
    double sum[4] = {0, 0, 0, 0};
    int n = 0;
    for (int y = -40; y < 40; y++)
        for (int x = -40; x < 40; x++) {
            float a[4], b[4];
            sw_toon_hash42((float)x, (float)y, a);
            sw_toon_hash42((float)x, (float)y, b);
            for (int k = 0; k < 4; k++) {
                SW_CHECK(a[k] >= 0.0f && a[k] < 1.0f);
                SW_CHECK(a[k] == b[k]);
                sum[k] += a[k];
            }
            n++;
        }
    /* Roughly uniform: means near 0.5. */
    for (int k = 0; k < 4; k++) SW_CHECK_NEAR(sum[k] / n, 0.5, 0.03);
    /* Neighbouring cells differ. */
    float a[4], b[4];
    sw_toon_hash42(10.0f, 20.0f, a);
    sw_toon_hash42(11.0f, 20.0f, b);
    SW_CHECK(memcmp(a, b, sizeof a) != 0);
    /* A value worked by hand from the algorithm, for cell (1, 0):
       p = (0.1031, 0, 0.0973, 0); d = Σ p·(p.wzxy + 33.33)
       = 0.1031·33.33 + 0.0973·(0.1031 + 33.33) = 6.69969...; p += d;
       out.x = fract((p.x + p.y)·p.z). */
    double px = 0.1031, pz = 0.0973;
    double d = px * 33.33 + pz * (px + 33.33);
    double x0 = px + d, y0 = d, z0 = pz + d, w0 = d;
    double want[4] = {(x0 + y0) * z0, (x0 + z0) * y0, (y0 + z0) * w0, (z0 + w0) * x0};
    sw_toon_hash42(1.0f, 0.0f, a);
    for (int k = 0; k < 4; k++) SW_CHECK_NEAR(a[k], want[k] - floor(want[k]), 2e-4);
    /* Cell (3, 7), where all four constants matter, step by step in float
       as a shader computes it. */
    float q[4] = {3.0f * 0.1031f, 7.0f * 0.1030f, 3.0f * 0.0973f, 7.0f * 0.1099f};
    for (int k = 0; k < 4; k++) q[k] -= floorf(q[k]);
    float dq = q[0] * (q[3] + 33.33f) + q[1] * (q[2] + 33.33f) + q[2] * (q[0] + 33.33f) + q[3] * (q[1] + 33.33f);
    for (int k = 0; k < 4; k++) q[k] += dq;
    float wq[4] = {(q[0] + q[1]) * q[2], (q[0] + q[2]) * q[1], (q[1] + q[2]) * q[3], (q[2] + q[3]) * q[0]};
    sw_toon_hash42(3.0f, 7.0f, a);
    for (int k = 0; k < 4; k++) SW_CHECK_NEAR(a[k], wq[k] - floorf(wq[k]), 1e-3);
}

/* The glint defaults: the two skirt sets' support radii √(s·r)/G differ by 1.70. */
static void test_glint_defaults(void) {
    sw_toon_material body;
    sw_toon_defaults(SW_TOON_BODY, &body);
    SW_CHECK_EQ_INT(body.glint_count, 2);
    const float r = 0.37f; /* any r3: it cancels */
    double r1 = sqrt(body.glints[0].spot_scale * r) / body.glints[0].grid;
    double r2 = sqrt(body.glints[1].spot_scale * r) / body.glints[1].grid;
    printf("glint support radius ratio set2/set1 = %.4f\n", r2 / r1);
    SW_CHECK_NEAR(r2 / r1, 1.70, 0.005);
    SW_CHECK_NEAR(body.glints[0].color[0], 1.472, 1e-6);
    SW_CHECK_NEAR(body.glints[1].color[2], 0.0497, 1e-6);
    SW_CHECK_NEAR(body.glints[1].camera_scale, 3.0, 0.0);
    sw_toon_material hair;
    sw_toon_defaults(SW_TOON_HAIR, &hair);
    SW_CHECK_EQ_INT(hair.glint_count, 1);
    SW_CHECK_NEAR(hair.glints[0].active_width, 0.243, 1e-6);
    SW_CHECK_NEAR(hair.glints[0].spot_scale, 0.03, 1e-7);
}

static void test_defaults(void) {
    for (int k = SW_TOON_BODY; k <= SW_TOON_EYE; k++) {
        sw_toon_material t;
        memset(&t, 0x5a, sizeof t);
        sw_toon_defaults((sw_toon_kind)k, &t);
        SW_CHECK(!t.present);
        SW_CHECK_EQ_INT(t.kind, k);
        SW_CHECK_NEAR(t.light_area, 0.55, 1e-7);
        SW_CHECK_NEAR(t.ramp_width, 1.0, 0.0);
        SW_CHECK_NEAR(t.detail_gate, 0.95, 1e-7);
        SW_CHECK_NEAR(t.sdf_steepness, 100.0, 0.0);
        SW_CHECK_NEAR(t.matcap_mix, 0.3, 1e-7);
        SW_CHECK_NEAR(t.parallax_height, 0.3, 1e-7);
        SW_CHECK_NEAR(t.iris_radius, 0.5, 0.0);
        SW_CHECK_NEAR(t.fade, 1.0, 0.0);
        SW_CHECK_EQ_INT(t.head_node, -1);
        const sw_model_texture_ref* refs[7] = {&t.control_texture,  &t.ramp_texture,     &t.detail_normal_texture,
                                               &t.rim_mask_texture, &t.face_sdf_texture, &t.matcap_texture,
                                               &t.normal_texture};
        for (int i = 0; i < 7; i++) {
            SW_CHECK_EQ_INT(refs[i]->texture, -1);
            SW_CHECK_NEAR(refs[i]->scale, 1.0, 0.0);
            SW_CHECK_NEAR(refs[i]->uv_scale[0], 1.0, 0.0);
            SW_CHECK(!refs[i]->has_transform);
        }
        for (int i = 0; i < SW_TOON_REGION_COUNT; i++) SW_CHECK(t.region_enabled[i]);
        SW_CHECK(t.outline == (k != SW_TOON_EYE));
    }
}

static void test_derive(void) {
    sw_model_material m;
    memset(&m, 0, sizeof m);
    m.name = "Long_HAIR_01";
    m.base_color_factor[0] = 0.5f;
    m.base_color_factor[1] = 0.25f;
    m.base_color_factor[2] = 1.0f;
    m.base_color_factor[3] = 1.0f;
    sw_toon_material t;
    sw_toon_derive(&m, &t);
    SW_CHECK(t.present);
    SW_CHECK_EQ_INT(t.source, SW_TOON_SOURCE_DERIVED);
    SW_CHECK_EQ_INT(t.kind, SW_TOON_HAIR);
    SW_CHECK_NEAR(t.shade_color[0], 0.3, 1e-6);
    SW_CHECK_NEAR(t.shade_color[1], 0.15, 1e-6);
    SW_CHECK_NEAR(t.shade_color[2], 0.6, 1e-6);
    SW_CHECK_EQ_INT(t.glint_count, 0);
    m.name = "Face";
    sw_toon_derive(&m, &t);
    SW_CHECK_EQ_INT(t.kind, SW_TOON_FACE);
    m.name = NULL;
    sw_toon_derive(&m, &t);
    SW_CHECK_EQ_INT(t.kind, SW_TOON_BODY);
}

int main(void) {
    SW_RUN(test_region_table);
    SW_RUN(test_region_not_floor);
    SW_RUN(test_signed_square);
    SW_RUN(test_shadow_area);
    SW_RUN(test_ramp_rows);
    SW_RUN(test_ramp_from_shade);
    SW_RUN(test_face_threshold);
    SW_RUN(test_face_texel);
    SW_RUN(test_face_logistic);
    SW_RUN(test_dither);
    SW_RUN(test_hair_bands);
    SW_RUN(test_hash42);
    SW_RUN(test_glint_defaults);
    SW_RUN(test_defaults);
    SW_RUN(test_derive);
    return sw_test_finish();
}
