/* The depth view's maths (see depth_view.h). */
#include "depth_view.h"

#include <math.h>

float sw__depth_view_distance(float depth, float n, float f, bool reverse) {
    if (reverse) {
        if (!(depth > 0.0f)) return INFINITY;
        return isfinite(f) ? n * f / (depth * (f - n) + n) : n / depth;
    }
    if (!(depth < 1.0f)) return INFINITY;
    return isfinite(f) ? n * f / (f - depth * (f - n)) : n / (1.0f - depth);
}

float sw__depth_view_scale_far(float n, float f) { return isfinite(f) ? f : n * SW_DEPTH_VIEW_INFINITE_SPAN; }

float sw__depth_view_grey(float d, float n, float g) {
    if (!(d < INFINITY)) return 0.0f;
    const float grey = 1.0f - logf(d / n) / logf(g / n);
    return grey < 0.0f ? 0.0f : grey > 1.0f ? 1.0f : grey;
}

float sw__depth_view_encode(float g) {
    g = g < 0.0f ? 0.0f : g > 1.0f ? 1.0f : g;
    return g < 0.0031308f ? 12.92f * g : 1.055f * powf(g, 1.0f / 2.4f) - 0.055f;
}
