/* probe_math.c — see probe_math.h. */
#include "probe_math.h"

#include <math.h>
#include <stddef.h>

#include "../base/base_internal.h"

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

/* ---- specular ---- */

int sw__probe_cube_mips(int size) {
    int mips = 1;
    while ((size >> (mips - 1)) > 1) mips++;
    return mips;
}

size_t sw__probe_cube_mip_offset(int size, int mip) {
    size_t offset = 0;
    for (int m = 0; m < mip; m++) offset += 6u * 3u * (size_t)(size >> m) * (size_t)(size >> m);
    return offset;
}

size_t sw__probe_cube_floats(int size) { return sw__probe_cube_mip_offset(size, sw__probe_cube_mips(size)); }

double sw__ggx_distribution(double n_dot_h, double roughness) {
    double a = roughness * roughness, a2 = a * a;
    double k = n_dot_h * n_dot_h * (a2 - 1.0) + 1.0;
    return a2 / (SW__PI * k * k);
}

/* One base texel: its direction and solid angle (precomputed once). */
typedef struct sw__texel {
    float d[3];
    float solid_angle;
} sw__texel;

/* Mip `mip` of out: each texel the lobe-weighted average of every base texel. */
static void prefilter_mip(const float* const faces[6], const sw__texel* texels, int size, int mip, int mips,
                          float* out) {
    const int n = size >> mip;
    const double roughness = (double)mip / (double)(mips - 1);
    /* D(n·h) = α²/(π·k²) with k = (n·h)²(α² − 1) + 1 and (n·h)² = (1 + n·l)/2:
       the constant α²/π cancels in the normalisation, so w = n·l·dω / k². */
    const float a2m1 = (float)(roughness * roughness * roughness * roughness) - 1.0f;
    for (int f = 0; f < 6; f++)
        for (int y = 0; y < n; y++)
            for (int x = 0; x < n; x++) {
                float nd[3];
                sw__cube_texel_direction(f, x, y, n, nd);
                double sum[3] = {0, 0, 0}, weights = 0.0;
                for (int g = 0; g < 6; g++) {
                    const float* face = faces[g];
                    const sw__texel* t = texels + (size_t)g * (size_t)size * (size_t)size;
                    float face_sum[3] = {0, 0, 0}, face_weights = 0.0f;
                    for (size_t i = 0; i < (size_t)size * (size_t)size; i++) {
                        float nl = nd[0] * t[i].d[0] + nd[1] * t[i].d[1] + nd[2] * t[i].d[2];
                        if (nl <= 0.0f) continue;
                        float k = 0.5f * (1.0f + nl) * a2m1 + 1.0f;
                        float w = nl * t[i].solid_angle / (k * k);
                        for (int c = 0; c < 3; c++) face_sum[c] += w * face[i * 3 + c];
                        face_weights += w;
                    }
                    for (int c = 0; c < 3; c++) sum[c] += face_sum[c];
                    weights += face_weights;
                }
                float* texel = out + ((size_t)f * (size_t)n * (size_t)n + (size_t)y * (size_t)n + (size_t)x) * 3;
                for (int c = 0; c < 3; c++) texel[c] = weights > 0.0 ? (float)(sum[c] / weights) : 0.0f;
            }
}

bool sw__probe_prefilter(const float* const faces[6], int size, float* out) {
    const int mips = sw__probe_cube_mips(size);
    const size_t face_floats = (size_t)size * (size_t)size * 3;
    for (int f = 0; f < 6; f++)
        for (size_t i = 0; i < face_floats; i++) out[(size_t)f * face_floats + i] = faces[f][i];
    if (mips < 2) return true;
    /* The base texels' directions and solid angles, once: the sums reuse them. */
    sw__texel* texels = sw__malloc(6 * (size_t)size * (size_t)size * sizeof *texels);
    if (!texels) return false;
    for (int f = 0; f < 6; f++)
        for (int y = 0; y < size; y++)
            for (int x = 0; x < size; x++) {
                sw__texel* t = &texels[((size_t)f * (size_t)size + (size_t)y) * (size_t)size + (size_t)x];
                sw__cube_texel_direction(f, x, y, size, t->d);
                t->solid_angle = sw__cube_texel_solid_angle(x, y, size);
            }
    for (int m = 1; m < mips; m++) prefilter_mip(faces, texels, size, m, mips, out + sw__probe_cube_mip_offset(size, m));
    sw__free(texels);
    return true;
}

int sw__cube_face_coordinates(const float d[3], float* u, float* v) {
    float ax = fabsf(d[0]), ay = fabsf(d[1]), az = fabsf(d[2]);
    int face;
    float sc, tc, ma;
    /* GL's table: the major axis picks the face, then (sc, tc) / |ma|. */
    if (ax >= ay && ax >= az) {
        face = d[0] > 0 ? 0 : 1, ma = ax;
        sc = d[0] > 0 ? -d[2] : d[2], tc = -d[1];
    } else if (ay >= az) {
        face = d[1] > 0 ? 2 : 3, ma = ay;
        sc = d[0], tc = d[1] > 0 ? d[2] : -d[2];
    } else {
        face = d[2] > 0 ? 4 : 5, ma = az;
        sc = d[2] > 0 ? d[0] : -d[0], tc = -d[1];
    }
    *u = 0.5f * (sc / ma + 1.0f), *v = 0.5f * (tc / ma + 1.0f);
    return face;
}

static void sample_mip(const float* cube, int size, int mip, int face, float u, float v, float out[3]) {
    const int n = size >> mip;
    const float* texels = cube + sw__probe_cube_mip_offset(size, mip) + (size_t)face * (size_t)n * (size_t)n * 3;
    float x = u * (float)n - 0.5f, y = v * (float)n - 0.5f;
    int x0 = (int)floorf(x), y0 = (int)floorf(y);
    float fx = x - (float)x0, fy = y - (float)y0;
    for (int c = 0; c < 3; c++) out[c] = 0.0f;
    for (int j = 0; j < 2; j++)
        for (int i = 0; i < 2; i++) {
            int xi = clamp_int(x0 + i, 0, n - 1), yj = clamp_int(y0 + j, 0, n - 1);
            float w = (i ? fx : 1.0f - fx) * (j ? fy : 1.0f - fy);
            for (int c = 0; c < 3; c++) out[c] += w * texels[((size_t)yj * (size_t)n + (size_t)xi) * 3 + c];
        }
}

void sw__probe_cube_sample(const float* cube, int size, const float d[3], float lod, float out[3]) {
    const int mips = sw__probe_cube_mips(size);
    float u, v;
    int face = sw__cube_face_coordinates(d, &u, &v);
    lod = lod < 0.0f ? 0.0f : lod > (float)(mips - 1) ? (float)(mips - 1) : lod;
    int m0 = (int)floorf(lod), m1 = m0 + 1 < mips ? m0 + 1 : m0;
    float t = lod - (float)m0, a[3], b[3];
    sample_mip(cube, size, m0, face, u, v, a);
    sample_mip(cube, size, m1, face, u, v, b);
    for (int c = 0; c < 3; c++) out[c] = a[c] + t * (b[c] - a[c]);
}

void sw__probe_specular_fresnel(const float f0[3], float roughness, float n_dot_v, float out[3]) {
    float x = 1.0f - (n_dot_v < 0.0f ? 0.0f : n_dot_v > 1.0f ? 1.0f : n_dot_v);
    float x5 = x * x * x * x * x;
    for (int c = 0; c < 3; c++) {
        float grazing = 1.0f - roughness > f0[c] ? 1.0f - roughness : f0[c];
        out[c] = f0[c] + (grazing - f0[c]) * x5;
    }
}
