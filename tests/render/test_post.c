/* The post chain's numbers, without GL (src/render/post_math.c): the TAA
   history filter's normaliser (0.775 at f = ½ with s = 0.45, the frame
   analysis's number), the current-colour kernel's zeros and lobe, the
   Halton(2,3) jitter, and the generated edge AA tables against
   hand-computed coverage and their symmetries. */
#include <math.h>

#include "harness.h"

#include "../../src/render/post_math.h"

static void test_history_filter(void) {
    /* f = ½: each outer correction is −s/8, so the normaliser is 1 − s/2. */
    SW_CHECK_NEAR(sw__bicubic_denominator(0.5f, 0.5f, 0.45f), 0.775f, 1e-6f);
    sw__bicubic_axis w = sw__bicubic_weights(0.5f, 0.45f);
    SW_CHECK_NEAR(w.w0, -0.05625f, 1e-7f);
    SW_CHECK_NEAR(w.w3, -0.05625f, 1e-7f);
    SW_CHECK_NEAR(w.w1, 0.55625f, 1e-6f);
    SW_CHECK_NEAR(w.w2, 0.55625f, 1e-6f);
    /* Catmull-Rom (s = ½) in this form: 0.75. */
    SW_CHECK_NEAR(sw__bicubic_denominator(0.5f, 0.5f, 0.5f), 0.75f, 1e-6f);
    for (int i = 0; i <= 16; i++) {
        float f = (float)i / 16.0f;
        w = sw__bicubic_weights(f, 0.45f);
        /* A partition of unity; the outer taps never add. */
        SW_CHECK_NEAR(w.w0 + w.w1 + w.w2 + w.w3, 1.0f, 1e-6f);
        SW_CHECK(w.w0 <= 0.0f && w.w3 <= 0.0f);
        /* The merged inner tap lies between its two texels. */
        SW_CHECK(w.w1 + w.w2 > 0.0f && w.w2 / (w.w1 + w.w2) >= -1e-6f && w.w2 / (w.w1 + w.w2) <= 1.0f + 1e-6f);
    }
    /* On a texel (f = 0): the centre alone. */
    w = sw__bicubic_weights(0.0f, 0.45f);
    SW_CHECK(w.w0 == 0.0f && w.w3 == 0.0f && w.w1 == 1.0f && w.w2 == 0.0f);
}

static void test_kernel(void) {
    SW_CHECK_NEAR(sw__taa_kernel(0.0f), 1.0f, 1e-7f);
    SW_CHECK_NEAR(sw__taa_kernel(1.0f), 0.0f, 1e-7f);  /* x = 1 */
    SW_CHECK_NEAR(sw__taa_kernel(4.0f), 0.0f, 1e-7f);  /* x = 2 */
    /* x = 1.5: (25/16·0.01 − 9/16)·0.4375² = −35/64 · 49/256 = −1715/16384. */
    SW_CHECK_NEAR(sw__taa_kernel(2.25f), -1715.0f / 16384.0f, 1e-7f);
    SW_CHECK_NEAR(sw__taa_kernel(2.25f), -0.105f, 5e-4f);
    /* Positive inside the first zero, negative between the zeros, nothing beyond. */
    for (int i = 1; i < 100; i++) {
        float x = 2.0f * (float)i / 100.0f;
        float k = sw__taa_kernel(x * x);
        if (x < 0.999f) SW_CHECK(k > 0.0f);
        else if (x > 1.001f && x < 1.999f) SW_CHECK(k < 0.0f);
    }
    SW_CHECK(sw__taa_kernel(9.0f) == 0.0f && sw__taa_kernel(NAN) == 0.0f);
}

static void test_halton(void) {
    const float base2[8] = {0.5f, 0.25f, 0.75f, 0.125f, 0.625f, 0.375f, 0.875f, 0.0625f};
    const float base3[8] = {1.0f / 3, 2.0f / 3, 1.0f / 9, 4.0f / 9, 7.0f / 9, 2.0f / 9, 5.0f / 9, 8.0f / 9};
    for (uint32_t i = 0; i < 8; i++) {
        SW_CHECK_NEAR(sw__radical_inverse(i + 1, 2), base2[i], 1e-7f);
        SW_CHECK_NEAR(sw__radical_inverse(i + 1, 3), base3[i], 1e-7f);
        float j[2];
        sw__taa_jitter(i, 8, j);
        SW_CHECK_NEAR(j[0], base2[i] - 0.5f, 1e-7f);
        SW_CHECK_NEAR(j[1], base3[i] - 0.5f, 1e-7f);
        float again[2];
        sw__taa_jitter(i + 8, 8, again); /* 8 phases, then again */
        SW_CHECK(again[0] == j[0] && again[1] == j[1]);
    }
    SW_CHECK(sw__radical_inverse(0, 2) == 0.0f);
}

static void test_area_table(void) {
    float a[2];
    /* A Z one pixel long: the line from (0, −½) to (1, ½) crosses the
       boundary in the middle: ⅛ on each side. */
    sw__edge_area(0, 0, SW_EDGE_CROSS_NEGATIVE, SW_EDGE_CROSS_POSITIVE, a);
    SW_CHECK_NEAR(a[0], 0.125f, 1e-7f);
    SW_CHECK_NEAR(a[1], 0.125f, 1e-7f);
    /* An L four pixels long, this pixel first: the line falls from ½ at
       x = 0 to 0 at x = 2, so over [0, 1] it covers ½ − ⅛ = ⅜. */
    sw__edge_area(0, 3, SW_EDGE_CROSS_POSITIVE, SW_EDGE_CROSS_NONE, a);
    SW_CHECK_NEAR(a[0], 0.375f, 1e-7f);
    SW_CHECK_NEAR(a[1], 0.0f, 1e-7f);
    /* A U three pixels long, this pixel in the middle: two triangles of 1/24. */
    sw__edge_area(1, 1, SW_EDGE_CROSS_POSITIVE, SW_EDGE_CROSS_POSITIVE, a);
    SW_CHECK_NEAR(a[0], 1.0f / 12.0f, 1e-7f);
    SW_CHECK_NEAR(a[1], 0.0f, 1e-7f);
    /* The same U on the other side gives the neighbour the area. */
    sw__edge_area(1, 1, SW_EDGE_CROSS_NEGATIVE, SW_EDGE_CROSS_NEGATIVE, a);
    SW_CHECK_NEAR(a[0], 0.0f, 1e-7f);
    SW_CHECK_NEAR(a[1], 1.0f / 12.0f, 1e-7f);

    static float table[SW_EDGE_AREA_SIZE * SW_EDGE_AREA_SIZE * 2];
    sw__edge_area_table(table);
    int bad = 0;
    for (int cl = 0; cl < SW_EDGE_CROSSINGS; cl++)
        for (int cr = 0; cr < SW_EDGE_CROSSINGS; cr++)
            for (int l = 0; l < SW_EDGE_DISTANCES; l++)
                for (int r = 0; r < SW_EDGE_DISTANCES; r++) {
                    const float* t = table + ((size_t)(r + SW_EDGE_DISTANCES * cr) * SW_EDGE_AREA_SIZE +
                                              (size_t)(l + SW_EDGE_DISTANCES * cl)) * 2;
                    const float* mirror = table + ((size_t)(l + SW_EDGE_DISTANCES * cl) * SW_EDGE_AREA_SIZE +
                                                   (size_t)(r + SW_EDGE_DISTANCES * cr)) * 2;
                    sw__edge_area(l, r, cl, cr, a);
                    /* The texture is the function; mirroring the line swaps its ends. */
                    bad += t[0] != a[0] || t[1] != a[1];
                    bad += fabsf(t[0] - mirror[0]) > 1e-6f || fabsf(t[1] - mirror[1]) > 1e-6f;
                    /* Within the pixel: at most half of it moves (the line is within ½ of the boundary). */
                    bad += !(t[0] >= 0.0f && t[1] >= 0.0f && t[0] + t[1] <= 0.5f + 1e-6f);
                    /* No direction at an end: that end adds nothing. */
                    if ((cl == SW_EDGE_CROSS_NONE || cl == SW_EDGE_CROSS_BOTH) &&
                        (cr == SW_EDGE_CROSS_NONE || cr == SW_EDGE_CROSS_BOTH))
                        bad += t[0] != 0.0f || t[1] != 0.0f;
                }
    SW_CHECK_EQ_INT(bad, 0);
    /* Along a whole L of n pixels the areas add up to its triangle,
       ½ · ½ · n/2 = n/8. */
    for (int n = 1; n <= SW_EDGE_DISTANCES; n++) {
        double sum = 0.0;
        for (int i = 0; i < n; i++) {
            sw__edge_area(i, n - 1 - i, SW_EDGE_CROSS_POSITIVE, SW_EDGE_CROSS_NONE, a);
            sum += a[0] - a[1];
        }
        SW_CHECK_NEAR(sum, n / 8.0, 1e-5);
    }
}

static void test_search_table(void) {
    uint8_t t[SW_EDGE_SEARCH_CODES];
    sw__edge_search_table(t);
    /* Fetched ¾·a + ¼·b: 0 (no flag), ¼ (only the farther: the line has
       ended), ½ (no pair gives it), ¾ (only the nearer), 1 (both). */
    const uint8_t expected[SW_EDGE_SEARCH_CODES] = {0, 0, 0, 1, 2};
    for (int k = 0; k < SW_EDGE_SEARCH_CODES; k++) SW_CHECK_EQ_INT(t[k], expected[k]);
}

int main(void) {
    SW_RUN(test_history_filter);
    SW_RUN(test_kernel);
    SW_RUN(test_halton);
    SW_RUN(test_area_table);
    SW_RUN(test_search_table);
    return sw_test_finish();
}
