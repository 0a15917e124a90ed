/* Falling snow: the flakes' positions, discs and light (weather.h). */
#include "weather.h"
#include "render_hash.h"

#include <math.h>

const float sw__weather_fall_factors[3] = {0.7f, 1.0f, 1.35f};

#define SW__WEATHER_SWAY_RATE 1.5f /* rad/s: one turn of the sway circle in ~4 s */
#define SW__WEATHER_PI 3.14159265358979323846

size_t sw__weather_count(float density) {
    if (!(density > 0.0f)) return 0; /* also NaN */
    if (density > SW__WEATHER_MAX_DENSITY) density = SW__WEATHER_MAX_DENSITY;
    const double volume = (double)SW__WEATHER_BOX * SW__WEATHER_BOX * SW__WEATHER_BOX;
    return (size_t)(density * volume + 0.5);
}

void sw__weather_flake_random(uint32_t seed, uint32_t index, float u[4], int* speed_class) {
    uint32_t h = sw__hash32(seed ^ sw__hash32(index));
    for (int k = 0; k < 4; k++) {
        h = sw__hash32(h + (uint32_t)k);
        u[k] = (float)(h >> 8) * (1.0f / 16777216.0f); /* 24 bits: exactly representable, < 1 */
    }
    *speed_class = (int)(sw__hash32(h ^ 0x9e3779b9u) % 3u);
}

/* x mod b into [0, b), in double so that an hour of drift (thousands of
   metres) still wraps to within a micrometre. */
static double sw__weather_wrap(double x, double b) {
    double m = fmod(x, b);
    if (m < 0.0) m += b;
    return m >= b ? 0.0 : m;
}

void sw__weather_flake(const sw__weather* w, uint32_t index, float out[3]) {
    float u[4];
    int speed_class;
    sw__weather_flake_random(w->seed, index, u, &speed_class);
    const double t = isfinite(w->time) ? w->time : 0.0;
    const double box = SW__WEATHER_BOX;
    const double phase = 2.0 * SW__WEATHER_PI * u[3] + SW__WEATHER_SWAY_RATE * t;
    const double fall = SW__WEATHER_FALL_SPEED * sw__weather_fall_factors[speed_class];
    const double p[3] = {
        u[0] * box + w->wind[0] * t + SW__WEATHER_SWAY_RADIUS * cos(phase),
        u[1] * box - fall * t,
        u[2] * box + w->wind[1] * t + SW__WEATHER_SWAY_RADIUS * sin(phase),
    };
    for (int k = 0; k < 3; k++) {
        const double low = (double)w->eye[k] - 0.5 * box;
        out[k] = (float)(low + sw__weather_wrap(p[k] - low, box));
    }
}

float sw__weather_disc_alpha(float r, float fade) {
    const float x = r <= 0.5f ? 0.0f : r >= 1.0f ? 1.0f : (r - 0.5f) / 0.5f;
    return SW__WEATHER_CORE_ALPHA * (1.0f - x * x * (3.0f - 2.0f * x)) * fade;
}

float sw__weather_drawn_radius(float depth, float fov_y, int height, float* fade) {
    /* metres per pixel at this depth */
    const float pixel = 2.0f * depth * tanf(0.5f * fov_y) / (float)(height > 0 ? height : 1);
    const float least = SW__WEATHER_MIN_RADIUS_PX * pixel;
    if (!(least > SW__WEATHER_FLAKE_RADIUS)) {
        *fade = 1.0f;
        return SW__WEATHER_FLAKE_RADIUS;
    }
    const float ratio = SW__WEATHER_FLAKE_RADIUS / least;
    *fade = ratio * ratio;
    return least;
}

void sw__weather_flake_light(const float sun[3], float sun_visibility, const float sky[3], const float ground[3],
                             float out[3]) {
    const float inv_pi = (float)(1.0 / SW__WEATHER_PI);
    for (int k = 0; k < 3; k++)
        out[k] = SW__WEATHER_ALBEDO * (sun[k] * sun_visibility * inv_pi + 0.5f * (sky[k] + ground[k]));
}
