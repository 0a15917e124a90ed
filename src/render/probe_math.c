/* probe_math.c — see probe_math.h. */
#include "probe_math.h"

#include <math.h>
#include <stddef.h>

#define SW__PI 3.14159265358979323846

void sw__sh9_basis(const float d[3], float out[SW__SH9]) {
    float x = d[0], y = d[1], z = d[2];
    out[0] = 0.282094792f;               /* 1/(2√π) */
    out[1] = 0.488602512f * y;           /* √3/(2√π) */
    out[2] = 0.488602512f * z;
    out[3] = 0.488602512f * x;
    out[4] = 1.092548431f * x * y;       /* √15/(2√π) */
    out[5] = 1.092548431f * y * z;
    out[6] = 0.315391565f * (3.0f * z * z - 1.0f); /* √5/(4√π) */
    out[7] = 1.092548431f * x * z;
    out[8] = 0.546274215f * (x * x - y * y);       /* √15/(4√π) */
}

void sw__cube_texel_direction(int face, int x, int y, int size, float out[3]) {
    float s = 2.0f * ((float)x + 0.5f) / (float)size - 1.0f;
    float t = 2.0f * ((float)y + 0.5f) / (float)size - 1.0f;
    float d[3];
    /* GL's table (major axis, sc, tc) solved for the direction. */
    switch (face) {
    case 0: d[0] = 1, d[1] = -t, d[2] = -s; break;
    case 1: d[0] = -1, d[1] = -t, d[2] = s; break;
    case 2: d[0] = s, d[1] = 1, d[2] = t; break;
    case 3: d[0] = s, d[1] = -1, d[2] = -t; break;
    case 4: d[0] = s, d[1] = -t, d[2] = 1; break;
    default: d[0] = -s, d[1] = -t, d[2] = -1; break;
    }
    float inv = 1.0f / sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    for (int i = 0; i < 3; i++) out[i] = d[i] * inv;
}

/* The solid angle of the face rectangle [0, s] × [0, t] at distance 1. */
static double corner_area(double s, double t) {
    return atan2(s * t, sqrt(s * s + t * t + 1.0));
}

float sw__cube_texel_solid_angle(int x, int y, int size) {
    double s0 = 2.0 * x / size - 1.0, s1 = 2.0 * (x + 1) / size - 1.0;
    double t0 = 2.0 * y / size - 1.0, t1 = 2.0 * (y + 1) / size - 1.0;
    return (float)(corner_area(s1, t1) - corner_area(s0, t1) - corner_area(s1, t0) + corner_area(s0, t0));
}

void sw__sh9_project_cube(const float* const faces[6], int size, float out[SW__SH9][3]) {
    double sum[SW__SH9][3] = {{0}};
    for (int f = 0; f < 6; f++)
        for (int y = 0; y < size; y++)
            for (int x = 0; x < size; x++) {
                float d[3], basis[SW__SH9];
                sw__cube_texel_direction(f, x, y, size, d);
                sw__sh9_basis(d, basis);
                double w = sw__cube_texel_solid_angle(x, y, size);
                const float* texel = faces[f] + 3 * ((size_t)y * (size_t)size + (size_t)x);
                for (int k = 0; k < SW__SH9; k++)
                    for (int c = 0; c < 3; c++) sum[k][c] += w * basis[k] * texel[c];
            }
    for (int k = 0; k < SW__SH9; k++)
        for (int c = 0; c < 3; c++) out[k][c] = (float)sum[k][c];
}

void sw__sh9_irradiance(const float sh[SW__SH9][3], const float n[3], float out[3]) {
    /* The clamped cosine's band factors: π, 2π/3, π/4. */
    static const float band[SW__SH9] = {(float)SW__PI,
                                        (float)(2.0 * SW__PI / 3.0), (float)(2.0 * SW__PI / 3.0),
                                        (float)(2.0 * SW__PI / 3.0), (float)(SW__PI / 4.0),
                                        (float)(SW__PI / 4.0),       (float)(SW__PI / 4.0),
                                        (float)(SW__PI / 4.0),       (float)(SW__PI / 4.0)};
    float basis[SW__SH9];
    sw__sh9_basis(n, basis);
    for (int c = 0; c < 3; c++) {
        float e = 0.0f;
        for (int k = 0; k < SW__SH9; k++) e += band[k] * sh[k][c] * basis[k];
        out[c] = e > 0.0f ? e : 0.0f;
    }
}

void sw__sh9_mean_radiance(const float sh[SW__SH9][3], float out[3]) {
    for (int c = 0; c < 3; c++) out[c] = 0.282094792f * sh[0][c];
}

static bool inside_box(const sw__probe_box* probe, const float p[3]) {
    for (int i = 0; i < 3; i++)
        if (p[i] < probe->box_min[i] || p[i] > probe->box_max[i]) return false;
    return true;
}

void sw__probe_box_project(const sw__probe_box* probe, const float p[3], const float r[3], float out[3]) {
    if (!inside_box(probe, p)) {
        for (int i = 0; i < 3; i++) out[i] = r[i];
        return;
    }
    /* From inside, the exit is the nearest of the three far planes. */
    float t = INFINITY;
    for (int i = 0; i < 3; i++) {
        if (r[i] == 0.0f) continue;
        float plane = r[i] > 0.0f ? probe->box_max[i] : probe->box_min[i];
        float ti = (plane - p[i]) / r[i];
        if (ti < t) t = ti;
    }
    if (!isfinite(t)) t = 0.0f;
    for (int i = 0; i < 3; i++) out[i] = p[i] + t * r[i] - probe->position[i];
}

float sw__probe_weight(const sw__probe_box* probe, const float p[3]) {
    float d2 = 0.0f;
    for (int i = 0; i < 3; i++) {
        float centre = 0.5f * (probe->box_min[i] + probe->box_max[i]);
        float extent = 0.5f * (probe->box_max[i] - probe->box_min[i]);
        float out = fabsf(p[i] - centre) - extent;
        if (out > 0.0f) d2 += out * out;
    }
    if (d2 == 0.0f) return 1.0f;
    if (!(probe->fade > 0.0f)) return 0.0f;
    float w = 1.0f - sqrtf(d2) / probe->fade;
    return w > 0.0f ? w : 0.0f;
}

float sw__probe_budget(float candidate, const float* weights, int count, float* used) {
    float acc = candidate < 0.0f ? 0.0f : candidate > 1.0f ? 1.0f : candidate;
    for (int i = 0; i < count; i++) {
        float left = 1.0f - acc;
        float w = weights[i] < 0.0f ? 0.0f : weights[i];
        used[i] = w < left ? w : left;
        acc += used[i];
    }
    return 1.0f - acc;
}

static int clamp_int(int v, int lo, int hi) {
    return v < lo ? lo : v > hi ? hi : v;
}

int sw__probe_cluster_index(float x, float y, int width, int height, float depth, float near_z, float far_z) {
    int tx = clamp_int((int)floorf(x * SW_PROBE_CLUSTERS_X / (float)width), 0, SW_PROBE_CLUSTERS_X - 1);
    int ty = clamp_int((int)floorf(y * SW_PROBE_CLUSTERS_Y / (float)height), 0, SW_PROBE_CLUSTERS_Y - 1);
    float ratio = depth > near_z ? logf(depth / near_z) / logf(far_z / near_z) : 0.0f;
    int slice = clamp_int((int)floorf(ratio * SW_PROBE_CLUSTERS_Z), 0, SW_PROBE_CLUSTERS_Z - 1);
    return tx + SW_PROBE_CLUSTERS_X * (ty + SW_PROBE_CLUSTERS_Y * slice);
}

float sw__probe_slice_depth(int slice, float near_z, float far_z) {
    return near_z * powf(far_z / near_z, (float)slice / SW_PROBE_CLUSTERS_Z);
}

static int slice_of(float depth, float near_z, float far_z) {
    float ratio = depth > near_z ? logf(depth / near_z) / logf(far_z / near_z) : 0.0f;
    return clamp_int((int)floorf(ratio * SW_PROBE_CLUSTERS_Z), 0, SW_PROBE_CLUSTERS_Z - 1);
}

bool sw__probe_cluster_range(const float vp[16], float near_z, float far_z, const float lo[3], const float hi[3],
                             int margin, sw__cluster_range* out) {
    float xmin = INFINITY, xmax = -INFINITY, ymin = INFINITY, ymax = -INFINITY, dmin = INFINITY, dmax = -INFINITY;
    bool near_corner = false;
    for (int c = 0; c < 8; c++) {
        const float p[3] = {(c & 1) ? hi[0] : lo[0], (c & 2) ? hi[1] : lo[1], (c & 4) ? hi[2] : lo[2]};
        float clip[4];
        for (int row = 0; row < 4; row++)
            clip[row] = vp[row] * p[0] + vp[4 + row] * p[1] + vp[8 + row] * p[2] + vp[12 + row];
        dmin = fminf(dmin, clip[3]), dmax = fmaxf(dmax, clip[3]);
        if (clip[3] < near_z) {
            near_corner = true;
            continue;
        }
        float x = clip[0] / clip[3], y = clip[1] / clip[3];
        xmin = fminf(xmin, x), xmax = fmaxf(xmax, x), ymin = fminf(ymin, y), ymax = fmaxf(ymax, y);
    }
    if (dmax < near_z || dmin > far_z) return false;
    if (near_corner) {
        out->x0 = 0, out->x1 = SW_PROBE_CLUSTERS_X - 1, out->y0 = 0, out->y1 = SW_PROBE_CLUSTERS_Y - 1;
    } else {
        if (xmax < -1.0f || xmin > 1.0f || ymax < -1.0f || ymin > 1.0f) return false;
        out->x0 = clamp_int((int)floorf((xmin * 0.5f + 0.5f) * SW_PROBE_CLUSTERS_X) - margin, 0, SW_PROBE_CLUSTERS_X - 1);
        out->x1 = clamp_int((int)floorf((xmax * 0.5f + 0.5f) * SW_PROBE_CLUSTERS_X) + margin, 0, SW_PROBE_CLUSTERS_X - 1);
        out->y0 = clamp_int((int)floorf((ymin * 0.5f + 0.5f) * SW_PROBE_CLUSTERS_Y) - margin, 0, SW_PROBE_CLUSTERS_Y - 1);
        out->y1 = clamp_int((int)floorf((ymax * 0.5f + 0.5f) * SW_PROBE_CLUSTERS_Y) + margin, 0, SW_PROBE_CLUSTERS_Y - 1);
    }
    out->z0 = slice_of(dmin, near_z, far_z), out->z1 = slice_of(dmax, near_z, far_z);
    return true;
}

void sw__probe_masks_add(sw__probe_masks* masks, int probe) {
    if (probe >= 0 && probe < SW_PROBE_MAX) masks->mask[probe >> 5] |= 1u << (probe & 31);
}

bool sw__probe_masks_has(const sw__probe_masks* masks, int probe) {
    return probe >= 0 && probe < SW_PROBE_MAX && (masks->mask[probe >> 5] >> (probe & 31) & 1u);
}
