/* The pure numbers of the post chain (see post_math.h, docs/post.md). */
#include "post_math.h"

#include <math.h>

_Static_assert(SW_EDGE_DISTANCES == SW_EDGE_MAX_DISTANCE + 1, "distances 0..SW_EDGE_MAX_DISTANCE");
_Static_assert(SW_EDGE_AREA_SIZE == SW_EDGE_DISTANCES * SW_EDGE_CROSSINGS,
               "the area table holds every (distance, crossing) pair on each axis");

float sw__radical_inverse(uint32_t index, uint32_t base) {
    /* Digits of index, mirrored about the radix point; doubles keep the
       base-3 fractions exact enough for 32-bit indices. */
    double inverse_base = 1.0 / (double)base, scale = inverse_base, value = 0.0;
    while (index > 0) {
        value += (double)(index % base) * scale;
        index /= base;
        scale *= inverse_base;
    }
    return (float)value;
}

void sw__taa_jitter(uint32_t frame_index, uint32_t phases, float out_xy[2]) {
    uint32_t i = 1 + (phases ? frame_index % phases : 0);
    out_xy[0] = sw__radical_inverse(i, 2) - 0.5f;
    out_xy[1] = sw__radical_inverse(i, 3) - 0.5f;
}

float sw__taa_kernel(float x2) {
    if (!(x2 < 4.0f)) return 0.0f; /* NaN too */
    if (x2 < 0.0f) x2 = 0.0f;
    float a = 2.0f / 5.0f * x2 - 1.0f, b = x2 / 4.0f - 1.0f;
    return (25.0f / 16.0f * a * a - 9.0f / 16.0f) * b * b;
}

sw__bicubic_axis sw__bicubic_weights(float f, float s) {
    sw__bicubic_axis w;
    w.w0 = -s * f * (1.0f - f) * (1.0f - f);
    w.w3 = -s * f * f * (1.0f - f);
    w.w1 = (2.0f - s) * f * f * f - (3.0f - s) * f * f + 1.0f;
    w.w2 = -(2.0f - s) * f * f * f + (3.0f - 2.0f * s) * f * f + s * f;
    return w;
}

float sw__bicubic_denominator(float fx, float fy, float s) {
    sw__bicubic_axis x = sw__bicubic_weights(fx, s), y = sw__bicubic_weights(fy, s);
    return 1.0f + x.w0 + x.w3 + y.w0 + y.w3;
}

float sw__edge_end_height(int crossing) {
    switch (crossing) {
    case SW_EDGE_CROSS_POSITIVE: return 0.5f;
    case SW_EDGE_CROSS_NEGATIVE: return -0.5f;
    default: return 0.0f; /* none, or both: no direction to revectorise in */
    }
}

/* ∫ max(h, 0) over [a, b] for the linear h with h(a) = ha, h(b) = hb. */
static double sw__positive_part(double a, double b, double ha, double hb) {
    if (b <= a) return 0.0;
    if (ha >= 0.0 && hb >= 0.0) return 0.5 * (ha + hb) * (b - a);
    if (ha <= 0.0 && hb <= 0.0) return 0.0;
    /* One sign change, at the root: only the triangle on the positive side counts. */
    double root = a + (b - a) * ha / (ha - hb);
    return ha > 0.0 ? 0.5 * ha * (root - a) : 0.5 * hb * (b - root);
}

void sw__edge_area(int left, int right, int crossing_left, int crossing_right, float out[2]) {
    /* The line's ends at x0 = −left and x1 = right + 1 (this pixel is
       [0, 1]); from each end the shape falls linearly from that end's
       height to 0 at the middle. A Z (opposite heights) is thereby one
       straight line through the middle; an L or a U is two half-lines. */
    const double x0 = -(double)left, x1 = (double)right + 1.0, middle = 0.5 * (x0 + x1);
    const double h0 = sw__edge_end_height(crossing_left), h1 = sw__edge_end_height(crossing_right);
    double positive = 0.0, negative = 0.0;
    /* Left half [x0, middle]: h goes h0 → 0; right half [middle, x1]: 0 → h1. */
    const double pieces[2][4] = {{x0, middle, h0, 0.0}, {middle, x1, 0.0, h1}};
    for (int k = 0; k < 2; k++) {
        double a = pieces[k][0], b = pieces[k][1], ha = pieces[k][2], hb = pieces[k][3];
        /* Clip the piece to this pixel, [0, 1]. */
        double lo = a > 0.0 ? a : 0.0, hi = b < 1.0 ? b : 1.0;
        if (hi <= lo) continue;
        double slope = (hb - ha) / (b - a);
        double hlo = ha + slope * (lo - a), hhi = ha + slope * (hi - a);
        positive += sw__positive_part(lo, hi, hlo, hhi);
        negative += sw__positive_part(lo, hi, -hlo, -hhi);
    }
    out[0] = (float)positive;
    out[1] = (float)negative;
}

void sw__edge_area_table(float* out) {
    for (int cr = 0; cr < SW_EDGE_CROSSINGS; cr++)
        for (int right = 0; right < SW_EDGE_DISTANCES; right++)
            for (int cl = 0; cl < SW_EDGE_CROSSINGS; cl++)
                for (int left = 0; left < SW_EDGE_DISTANCES; left++) {
                    size_t x = (size_t)(left + SW_EDGE_DISTANCES * cl), y = (size_t)(right + SW_EDGE_DISTANCES * cr);
                    sw__edge_area(left, right, cl, cr, out + (y * SW_EDGE_AREA_SIZE + x) * 2);
                }
}

void sw__edge_search_table(uint8_t* out) {
    for (int k = 0; k < SW_EDGE_SEARCH_CODES; k++) out[k] = 0;
    /* Every pair of flags, through the fetch the shader makes. */
    for (int a = 0; a <= 1; a++)
        for (int b = 0; b <= 1; b++) {
            int code = (int)lround((0.75 * a + 0.25 * b) * 4.0);
            out[code] = (uint8_t)(a ? 1 + b : 0);
        }
}
