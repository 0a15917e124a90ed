/* The sky's numbers (see sky.h, docs/sky.md). shaders/sky.frag mirrors
   sw__sky_background, sw__sky_nebula and sw__sky_tint line by line. */
#include "sky.h"
#include "render_hash.h"

#include <math.h>
#include <string.h>

#define SW__SKY_PI 3.14159265358979f

static float sw__clamp01(float x) { return x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x; }
static float sw__smoothstep(float e0, float e1, float x) {
    const float t = sw__clamp01((x - e0) / (e1 - e0));
    return t * t * (3.0f - 2.0f * t);
}
static float sw__mix(float a, float b, float t) { return a + (b - a) * t; }
static void sw__mix3(const float a[3], const float b[3], float t, float out[3]) {
    for (int k = 0; k < 3; k++) out[k] = sw__mix(a[k], b[k], t);
}

void sw__sky_sun_direction(float hours, float out[3]) {
    float h = fmodf(hours, 24.0f);
    if (h < 0.0f) h += 24.0f;
    const float hour_angle = (h - 12.0f) * (SW__SKY_PI / 12.0f), phi = SW__SKY_LATITUDE * (SW__SKY_PI / 180.0f);
    out[0] = -sinf(hour_angle);
    out[1] = cosf(hour_angle) * cosf(phi);
    out[2] = cosf(hour_angle) * sinf(phi);
}

void sw__sky_light_direction(float hours, float out[3]) {
    sw__sky_sun_direction(hours, out);
    if (out[1] < 0.0f)
        for (int k = 0; k < 3; k++) out[k] = -out[k];
}

/* Key colours of the time model (linear HDR). */
static const float sw__day_zenith[3] = {0.16f, 0.33f, 0.72f}, sw__day_horizon[3] = {0.62f, 0.74f, 0.9f};
static const float sw__dusk_zenith[3] = {0.1f, 0.13f, 0.3f}, sw__dusk_horizon[3] = {0.95f, 0.52f, 0.28f};
static const float sw__night_zenith[3] = {0.003f, 0.005f, 0.014f}, sw__night_horizon[3] = {0.018f, 0.024f, 0.045f};
static const float sw__day_haze[3] = {0.82f, 0.86f, 0.92f}, sw__dusk_haze[3] = {1.0f, 0.48f, 0.24f};
static const float sw__night_haze[3] = {0.02f, 0.026f, 0.045f};

void sw__sky_params_at(float hours, sw__sky_params* p) {
    memset(p, 0, sizeof *p);
    p->below = 1.0f;
    if (!(hours >= 0.0f)) { /* NaN or negative: the default look */
        p->reach = 0.3f;
        const float zenith[3] = {0.32f, 0.42f, 0.58f}, horizon[3] = {0.78f, 0.8f, 0.84f};
        memcpy(p->zenith, zenith, sizeof zenith);
        memcpy(p->horizon, horizon, sizeof horizon);
        return;
    }
    p->timed = true;
    p->reach = 1.0f;
    sw__sky_sun_direction(hours, p->sun);
    const float s = p->sun[1]; /* sin(elevation) */
    const float day = sw__smoothstep(0.0f, 0.35f, s), night = sw__smoothstep(0.0f, 0.25f, -s);
    const float dusk = 1.0f - sw__smoothstep(0.0f, 0.3f, fabsf(s));
    if (s >= 0.0f) {
        sw__mix3(sw__dusk_zenith, sw__day_zenith, day, p->zenith);
        sw__mix3(sw__dusk_horizon, sw__day_horizon, day, p->horizon);
    } else {
        sw__mix3(sw__dusk_zenith, sw__night_zenith, night, p->zenith);
        sw__mix3(sw__dusk_horizon, sw__night_horizon, night, p->horizon);
    }
    p->below = 0.35f;
    /* The sun reddens near the horizon and fades out just below it. */
    const float low_sun[3] = {1.0f, 0.42f, 0.16f}, high_sun[3] = {1.0f, 0.95f, 0.88f};
    sw__mix3(low_sun, high_sun, sw__smoothstep(0.0f, 0.3f, s), p->sun_color);
    const float sun_visible = sw__smoothstep(-0.08f, 0.02f, s);
    for (int k = 0; k < 3; k++) p->sun_color[k] *= sun_visible;
    const float moon[3] = {0.75f, 0.8f, 0.9f};
    for (int k = 0; k < 3; k++) p->moon_color[k] = moon[k] * night;
    /* Stars come out once the sun is about 3° below the horizon. */
    p->stars = sw__smoothstep(0.05f, 0.3f, -s);
    const float nebula[3] = {0.9f, 0.7f, 1.4f};
    for (int k = 0; k < 3; k++) p->nebula[k] = nebula[k] * p->stars;
    float haze[3];
    sw__mix3(sw__day_haze, sw__dusk_haze, dusk, haze);
    sw__mix3(haze, sw__night_haze, night, p->tint);
    p->tint[3] = 0.15f + 0.25f * dusk;
}

void sw__sky_light_scale(float hours, float light[3], float ambient[3]) {
    for (int k = 0; k < 3; k++) light[k] = ambient[k] = 1.0f;
    if (!(hours >= 0.0f)) return;
    float sun[3];
    sw__sky_sun_direction(hours, sun);
    const float s = sun[1];
    const float low_sun[3] = {1.0f, 0.55f, 0.3f}, white[3] = {1.0f, 1.0f, 1.0f}, moon[3] = {0.1f, 0.12f, 0.18f};
    const float night_ambient[3] = {0.12f, 0.14f, 0.22f};
    const float sunlit = sw__smoothstep(-0.02f, 0.08f, s);
    float color[3];
    sw__mix3(low_sun, white, sw__smoothstep(0.0f, 0.3f, s), color);
    for (int k = 0; k < 3; k++) light[k] = sunlit * color[k] + (1.0f - sunlit) * moon[k];
    sw__mix3(night_ambient, white, sw__smoothstep(-0.15f, 0.25f, s), ambient);
}

/* The sky's colour against sin(elevation) y. */
static void sw__sky_row0(const sw__sky_params* p, float y, float out[3]) {
    if (y >= 0.0f) {
        /* Timed: fast from the horizon; the default look: the old gradient's smoothstep. */
        const float x = sw__clamp01(y / p->reach);
        const float t = p->timed ? 1.0f - (1.0f - x) * (1.0f - x) * (1.0f - x) : x * x * (3.0f - 2.0f * x);
        sw__mix3(p->horizon, p->zenith, t, out);
        return;
    }
    const float f = sw__mix(1.0f, p->below, sw__smoothstep(0.0f, 0.4f, -y));
    for (int k = 0; k < 3; k++) out[k] = p->horizon[k] * f;
}

/* A disc of angular radius r (radians) with an edge smoothed over two
   table texels, 1 inside. */
static float sw__disc(float angle, float r) { return 1.0f - sw__smoothstep(r, r + 0.006f, angle); }

/* The sun's and the moon's light at `angle` (radians) from the sun. */
static void sw__sky_row1(const sw__sky_params* p, float angle, float out[3]) {
    const float sun = 40.0f * sw__disc(angle, 0.02f) + 0.8f * expf(-angle / 0.05f) + 0.25f * expf(-angle / 0.35f);
    const float from_moon = SW__SKY_PI - angle;
    const float moon = 2.5f * sw__disc(from_moon, 0.018f) + 0.06f * expf(-from_moon / 0.08f);
    for (int k = 0; k < 3; k++) out[k] = p->sun_color[k] * sun + p->moon_color[k] * moon;
}

void sw__sky_gradient(const sw__sky_params* p, float out[SW_SKY_GRADIENT_WIDTH * 2 * 4]) {
    for (int i = 0; i < SW_SKY_GRADIENT_WIDTH; i++) {
        const float u = ((float)i + 0.5f) / (float)SW_SKY_GRADIENT_WIDTH;
        float* a = out + 4 * i;
        float* b = out + 4 * (SW_SKY_GRADIENT_WIDTH + i);
        sw__sky_row0(p, 2.0f * u - 1.0f, a);
        if (p->timed) sw__sky_row1(p, u * SW__SKY_PI, b);
        else b[0] = b[1] = b[2] = 0.0f;
        a[3] = b[3] = 1.0f;
    }
}

void sw__sky_noise(uint8_t out[SW_SKY_NOISE_SIZE * SW_SKY_NOISE_SIZE]) {
    for (uint32_t i = 0; i < (uint32_t)(SW_SKY_NOISE_SIZE * SW_SKY_NOISE_SIZE); i++) out[i] = (uint8_t)(sw__hash32(i) >> 24);
}

void sw__sky_star_palette(float out[SW_SKY_PALETTE_SIZE * 4]) {
    /* From hot (blue-white) to cool (orange), as star colours run. */
    const float hot[3] = {0.62f, 0.74f, 1.0f}, mid[3] = {1.0f, 0.97f, 0.92f}, cool[3] = {1.0f, 0.62f, 0.32f};
    for (int i = 0; i < SW_SKY_PALETTE_SIZE; i++) {
        const float t = (float)i / (float)(SW_SKY_PALETTE_SIZE - 1);
        if (t < 0.5f) sw__mix3(hot, mid, 2.0f * t, out + 4 * i);
        else sw__mix3(mid, cool, 2.0f * t - 1.0f, out + 4 * i);
        out[4 * i + 3] = 1.0f;
    }
}

void sw__sky_gradient_sample(const float* gradient, int row, float u, float out[3]) {
    const float x = u * (float)SW_SKY_GRADIENT_WIDTH - 0.5f, base = floorf(x), f = x - base;
    int i0 = (int)base, i1 = i0 + 1;
    i0 = i0 < 0 ? 0 : i0 > SW_SKY_GRADIENT_WIDTH - 1 ? SW_SKY_GRADIENT_WIDTH - 1 : i0;
    i1 = i1 < 0 ? 0 : i1 > SW_SKY_GRADIENT_WIDTH - 1 ? SW_SKY_GRADIENT_WIDTH - 1 : i1;
    const float* a = gradient + 4 * (row * SW_SKY_GRADIENT_WIDTH + i0);
    const float* b = gradient + 4 * (row * SW_SKY_GRADIENT_WIDTH + i1);
    for (int k = 0; k < 3; k++) out[k] = sw__mix(a[k], b[k], f);
}

int sw__sky_noise_at(const uint8_t* noise, const float d[3], float offset[2]) {
    /* Octahedral map: project onto |x| + |y| + |z| = 1, fold the lower half. */
    const float l1 = fabsf(d[0]) + fabsf(d[1]) + fabsf(d[2]);
    float a = d[0] / l1, b = d[2] / l1;
    if (d[1] < 0.0f) {
        const float fa = (1.0f - fabsf(b)) * (a >= 0.0f ? 1.0f : -1.0f);
        const float fb = (1.0f - fabsf(a)) * (b >= 0.0f ? 1.0f : -1.0f);
        a = fa, b = fb;
    }
    const float u = (a * 0.5f + 0.5f) * (float)SW_SKY_NOISE_SIZE, v = (b * 0.5f + 0.5f) * (float)SW_SKY_NOISE_SIZE;
    int x = (int)floorf(u), y = (int)floorf(v);
    if (offset) offset[0] = u - floorf(u) - 0.5f, offset[1] = v - floorf(v) - 0.5f;
    x = x < 0 ? 0 : x > SW_SKY_NOISE_SIZE - 1 ? SW_SKY_NOISE_SIZE - 1 : x;
    y = y < 0 ? 0 : y > SW_SKY_NOISE_SIZE - 1 ? SW_SKY_NOISE_SIZE - 1 : y;
    return noise[y * SW_SKY_NOISE_SIZE + x];
}

/* Stars and the nebula fade in over the first few degrees above the horizon. */
static float sw__above(float y) { return sw__clamp01(y * 10.0f); }

void sw__sky_background(const sw__sky_params* p, const sw__sky_tables* t, const float d[3], float out[3]) {
    float sky[3], glow[3];
    sw__sky_gradient_sample(t->gradient, 0, 0.5f + 0.5f * d[1], sky);
    const float c = d[0] * p->sun[0] + d[1] * p->sun[1] + d[2] * p->sun[2];
    sw__sky_gradient_sample(t->gradient, 1, acosf(c < -1.0f ? -1.0f : c > 1.0f ? 1.0f : c) / SW__SKY_PI, glow);
    float o[2];
    const int n = sw__sky_noise_at(t->noise, d, o);
    /* A star is a point at its texel's centre, a Gaussian of 0.15 texel. */
    const float point = expf(-(o[0] * o[0] + o[1] * o[1]) / (2.0f * 0.15f * 0.15f));
    const float star = n >= SW_SKY_STAR_THRESHOLD
                           ? (float)(n - SW_SKY_STAR_THRESHOLD + 1) / (float)(256 - SW_SKY_STAR_THRESHOLD) * 6.0f * point
                           : 0.0f;
    const float* color = t->palette + 4 * (n % SW_SKY_PALETTE_SIZE);
    const float k = star * p->stars * sw__above(d[1]);
    for (int i = 0; i < 3; i++) out[i] = sky[i] + glow[i] + color[i] * k;
}

void sw__sky_nebula(const sw__sky_params* p, const float d[3], float out[3]) {
    /* A band along the great circle whose pole is `pole`, clouded by two sines. */
    const float pole[3] = {0.3487f, 0.5480f, 0.7603f}; /* (0.35, 0.55, 0.763) normalised */
    const float h = (d[0] * pole[0] + d[1] * pole[1] + d[2] * pole[2]) / 0.14f;
    const float cloud = 0.55f + 0.45f * sinf(9.0f * d[0] + 4.0f * d[1]) * sinf(7.0f * d[2] - 5.0f * d[1]);
    const float k = expf(-0.5f * h * h) * cloud * sw__above(d[1]);
    for (int i = 0; i < 3; i++) out[i] = p->nebula[i] * k;
}

void sw__sky_tint(const sw__sky_params* p, const float d[3], float out[4]) {
    for (int i = 0; i < 3; i++) out[i] = p->tint[i];
    out[3] = p->tint[3] * expf(-6.0f * (d[1] > 0.0f ? d[1] : 0.0f));
}

void sw__sky_color(const sw__sky_params* p, const sw__sky_tables* t, const float d[3], float out[3]) {
    const float length = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    const float u[3] = {d[0] / length, d[1] / length, d[2] / length};
    sw__sky_background(p, t, u, out);
    if (!p->timed) return;
    float nebula[3], tint[4];
    sw__sky_nebula(p, u, nebula);
    for (int i = 0; i < 3; i++) out[i] += nebula[i] * out[i];
    sw__sky_tint(p, u, tint);
    for (int i = 0; i < 3; i++) out[i] = tint[i] * tint[3] + out[i] * (1.0f - tint[3]);
}
