/* snow.c — the snow material's numbers (snow.h, docs/snow.md). */
#include "snow.h"
#include "render_hash.h"

#include <math.h>

static float sat(float x) { return x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : x); }

float sw__snow_coverage(float alpha, float cover_up, float threshold, float width) {
    float a = sat(alpha);
    float t = 1.0f - a * (1.0f - threshold);
    if (width <= 0.0f) return cover_up >= t ? a : 0.0f;
    return a * sat((cover_up - t) / width);
}

sw_vec3 sw__snow_blend_normal(sw_vec3 n_base, sw_vec3 n_cover, float cov) {
    sw_vec3 n = {n_base.x + (n_cover.x - n_base.x) * cov, n_base.y + (n_cover.y - n_base.y) * cov,
                 n_base.z + (n_cover.z - n_base.z) * cov};
    float len = sqrtf(n.x * n.x + n.y * n.y + n.z * n.z);
    if (!(len > 1e-12f)) return n_base; /* opposite normals at cov = ½ */
    return (sw_vec3){n.x / len, n.y / len, n.z / len};
}

float sw__snow_blend(float base, float cover, float cov) { return base + (cover - base) * cov; }

float sw__snow_glint(int32_t x, int32_t y, int32_t z) {
    /* A small integer hash (the shader does the same in uint arithmetic). */
    uint32_t h = sw__hash32((uint32_t)x * 0x8da6b343u ^ (uint32_t)y * 0xd8163841u ^ (uint32_t)z * 0xcb1ab31fu);
    return (float)(h >> 8) * (1.0f / 16777216.0f);
}

float sw__snow_sparkle(float g1, float g2, float derivatives, float cov, float n_dot_v,
                       const sw__snow_sparkle_params *p) {
    float glint = powf(sat(g1 * g2), SW_SNOW_SPARKLE_POWER);
    if (glint < SW_SNOW_GLINT_CUT) glint = 0.0f;
    float damp = 1.0f / (1.0f + p->damping * fmaxf(derivatives, 0.0f));
    float rim = p->rim * powf(1.0f - sat(n_dot_v), p->rim_power);
    return p->strength * cov * glint * damp + rim * cov;
}

uint32_t sw__snow_height_pack(float h_norm, uint32_t diff) {
    uint32_t q = (uint32_t)(sat(h_norm) * (float)SW_SNOW_HEIGHT_LEVELS);
    if (q > SW_SNOW_HEIGHT_LEVELS) q = SW_SNOW_HEIGHT_LEVELS;
    return (q << 16) | (diff < 0xFFFFu ? diff : 0xFFFFu);
}

void sw__snow_height_unpack(uint32_t packed, float *h_norm, uint32_t *diff) {
    uint32_t q = packed >> 16;
    if (q > SW_SNOW_HEIGHT_LEVELS) q = SW_SNOW_HEIGHT_LEVELS;
    *h_norm = (float)q / (float)SW_SNOW_HEIGHT_LEVELS;
    *diff = packed & 0xFFFFu;
}

uint32_t sw__snow_coarse_layer(float h_norm) {
    uint32_t layer = (uint32_t)(sat(h_norm) * (float)SW_SNOW_COARSE_LAYERS);
    return layer > SW_SNOW_COARSE_LAYERS - 1 ? SW_SNOW_COARSE_LAYERS - 1 : layer;
}

int sw__snow_coarse_accept(uint32_t mask) {
    if (mask == 0) return 1;
    while ((mask & 1u) == 0) mask >>= 1; /* findLSB */
    return mask <= 3u;
}

int sw__snow_cache_insert(uint32_t *coarse, uint32_t *fine, float h_norm, uint32_t diff) {
    uint32_t bit = 1u << sw__snow_coarse_layer(h_norm);
    *coarse |= bit;
    if (!sw__snow_coarse_accept(*coarse)) return 0;
    uint32_t packed = sw__snow_height_pack(h_norm, diff);
    if (*fine >= packed) return 0;
    *fine = packed;
    return 1;
}

void sw__snow_fine_texel(float x, float z, float extent, int32_t out_xy[2]) {
    float per = (float)SW_SNOW_FINE_SIZE / extent;
    int32_t ix = (int32_t)floorf(x * per), iz = (int32_t)floorf(z * per);
    out_xy[0] = ix & (SW_SNOW_FINE_SIZE - 1);
    out_xy[1] = iz & (SW_SNOW_FINE_SIZE - 1);
}

float sw__snow_stamp(float current, float r, float radius, float depth) {
    float d = radius > 0.0f ? sat(1.0f - r / radius) * depth : 0.0f;
    return fmaxf(current, sat(d));
}

float sw__snow_refill(float current, float rate, float seconds) { return current * expf(-rate * seconds); }

float sw__snow_trail_coverage(float cov, float d) { return cov * (1.0f - sat(d)); }

float sw__snow_trail_shade(float d) { return 1.0f - 0.5f * sat(d); }

sw_vec3 sw__snow_trail_normal(sw_vec3 n, float d, float d_x, float d_z, float texel, float snow) {
    const float k = SW_SNOW_TRACK_DEPTH * sat(snow) / texel;
    const sw_vec3 t = {n.x + k * (d_x - d), n.y, n.z + k * (d_z - d)};
    const float len = sqrtf(t.x * t.x + t.y * t.y + t.z * t.z);
    return len > 0.0f ? (sw_vec3){t.x / len, t.y / len, t.z / len} : n;
}
