/* The numbers of the volumetric fog (see fog.h, docs/fog.md). */
#include "fog.h"

#include <math.h>
#include <stddef.h>

/* The exponential part spans two decades (5 → 500) over its 112 slices. */
#define SW__FOG_EXP_SLICES (SW__FOG_SLICES - SW__FOG_LINEAR_SLICES)
#define SW__FOG_LINEAR_STEP (SW__FOG_LINEAR_DEPTH / (float)SW__FOG_LINEAR_SLICES)

float sw__fog_slice_depth(float i) {
    if (i <= (float)SW__FOG_LINEAR_SLICES) return SW__FOG_LINEAR_STEP * (i > 0.0f ? i : 0.0f);
    float t = (i - (float)SW__FOG_LINEAR_SLICES) / (float)SW__FOG_EXP_SLICES;
    return SW__FOG_LINEAR_DEPTH * powf(SW__FOG_FAR_DEPTH / SW__FOG_LINEAR_DEPTH, t);
}

float sw__fog_depth_slice(float z) {
    if (!(z > 0.0f)) return 0.0f; /* also NaN */
    if (z <= SW__FOG_LINEAR_DEPTH) return z / SW__FOG_LINEAR_STEP;
    float s = (float)SW__FOG_LINEAR_SLICES + (float)SW__FOG_EXP_SLICES * logf(z / SW__FOG_LINEAR_DEPTH) /
                                                 logf(SW__FOG_FAR_DEPTH / SW__FOG_LINEAR_DEPTH);
    return s < (float)SW__FOG_SLICES ? s : (float)SW__FOG_SLICES;
}

sw__fog_medium sw__fog_default_medium(void) {
    sw__fog_medium m = {SW__FOG_DEFAULT_DENSITY, 0.0f, 0.0f, 1.0f, {1.0f, 1.0f, 1.0f}};
    return m;
}

float sw__fog_extinction(const sw__fog_medium *m, float y) {
    float above = y - m->height_base;
    float falloff = m->height_falloff > 1e-6f ? m->height_falloff : 1e-6f;
    return m->density + m->height_density * expf(-(above > 0.0f ? above : 0.0f) / falloff);
}

float sw__fog_fade(float d) {
    float t = (SW__FOG_FAR_DEPTH - d) / (SW__FOG_FAR_DEPTH - SW__FOG_FADE_START);
    return t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
}

void sw__fog_integrate_column(const sw__fog_froxel column[SW__FOG_SLICES], float ray_scale,
                              float out[SW__FOG_SLICES][4]) {
    float s[3] = {0.0f, 0.0f, 0.0f}, transmittance = 1.0f;
    float z_near = 0.0f;
    for (int i = 0; i < SW__FOG_SLICES; i++) {
        float z_far = sw__fog_slice_depth((float)(i + 1));
        float d_mid = 0.5f * (z_near + z_far) * ray_scale;
        float length = sw__fog_fade(d_mid) * (z_far - z_near) * ray_scale;
        float sigma = column[i].extinction;
        float tau = expf(-sigma * length);
        /* ∫0^l e^(−σt) dt: (1 − e^(−σl))/σ, tending to l as σ → 0 (kept
           exact there rather than dividing by a tiny σ). */
        float through = sigma * length > 1e-4f ? (1.0f - tau) / sigma : length * (1.0f - 0.5f * sigma * length);
        for (int c = 0; c < 3; c++) {
            s[c] += transmittance * column[i].scatter[c] * through;
            out[i][c] = s[c];
        }
        transmittance *= tau;
        out[i][3] = transmittance;
        z_near = z_far;
    }
}

void sw__fog_sample_column(const float column[SW__FOG_SLICES][4], float z, float out[4]) {
    /* Slice end k (k = 1..128) is stored at index k − 1; the eye is end 0. */
    float e = sw__fog_depth_slice(z);
    int k = (int)floorf(e);
    if (k >= SW__FOG_SLICES) k = SW__FOG_SLICES - 1;
    float t = e - (float)k;
    static const float eye[4] = {0.0f, 0.0f, 0.0f, 1.0f};
    const float *a = k == 0 ? eye : column[k - 1];
    const float *b = column[k];
    for (int c = 0; c < 4; c++) out[c] = a[c] + (b[c] - a[c]) * t;
}

void sw__fog_apply(const float fog[4], const float colour[3], float out[3]) {
    for (int c = 0; c < 3; c++) out[c] = fog[c] + colour[c] * fog[3];
}

bool sw__fog_reproject(const float world[3], const float previous_view_projection[16], const float previous_eye[3],
                       const float previous_forward[3], float out_uvw[3]) {
    const float* m = previous_view_projection;
    float clip[4];
    for (int r = 0; r < 4; r++) clip[r] = m[r] * world[0] + m[4 + r] * world[1] + m[8 + r] * world[2] + m[12 + r];
    float depth = 0.0f;
    for (int i = 0; i < 3; i++) depth += (world[i] - previous_eye[i]) * previous_forward[i];
    if (!(clip[3] > 0.0f) || !(depth > 0.0f)) return false; /* behind the previous camera */
    out_uvw[0] = clip[0] / clip[3] * 0.5f + 0.5f;
    out_uvw[1] = clip[1] / clip[3] * 0.5f + 0.5f;
    out_uvw[2] = sw__fog_depth_slice(depth) / (float)SW__FOG_SLICES;
    for (int i = 0; i < 3; i++)
        if (out_uvw[i] < 0.0f || out_uvw[i] > 1.0f) return false;
    return depth <= SW__FOG_FAR_DEPTH;
}

static int sw__fog_clamp(int v, int n) { return v < 0 ? 0 : (v >= n ? n - 1 : v); }

void sw__fog_repair_27(const float* volume, int w, int h, int d, int x, int y, int z, float out[4]) {
    float sum[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int dz = -1; dz <= 1; dz++)
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                const size_t at = (((size_t)sw__fog_clamp(z + dz, d) * (size_t)h + (size_t)sw__fog_clamp(y + dy, h)) *
                                       (size_t)w + (size_t)sw__fog_clamp(x + dx, w)) * 4u;
                for (int c = 0; c < 4; c++) sum[c] += volume[at + (size_t)c];
            }
    for (int c = 0; c < 4; c++) out[c] = sum[c] / 27.0f;
}
