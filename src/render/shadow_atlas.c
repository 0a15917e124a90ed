/* The shadow atlas and its cascades (shadow_atlas.h). CPU only. */
#include "shadow_atlas.h"

#include <math.h>
#include <string.h>

static bool sw__power_of_two(int v) { return v > 0 && (v & (v - 1)) == 0; }

bool sw__shadow_atlas_layout(int atlas_size, const int* sizes, int count, sw__shadow_cell* out) {
    if (!sw__power_of_two(atlas_size) || count < 0 || count > 64) return false;
    /* Free squares, split on demand (a buddy allocator); at most 3 new per split level. */
    sw__shadow_cell free_cells[64 * 3 * 8 + 1];
    int free_count = 1;
    free_cells[0] = (sw__shadow_cell){0, 0, atlas_size};
    int order[64];
    for (int i = 0; i < count; i++) {
        if (!sw__power_of_two(sizes[i]) || sizes[i] < 32 || sizes[i] > atlas_size) return false;
        order[i] = i;
    }
    for (int i = 1; i < count; i++) /* larger first, stable */
        for (int j = i; j > 0 && sizes[order[j]] > sizes[order[j - 1]]; j--) {
            const int t = order[j];
            order[j] = order[j - 1], order[j - 1] = t;
        }
    for (int k = 0; k < count; k++) {
        const int want = sizes[order[k]];
        int best = -1; /* the smallest free square that holds it, the first of those */
        for (int f = 0; f < free_count; f++)
            if (free_cells[f].size >= want && (best < 0 || free_cells[f].size < free_cells[best].size)) best = f;
        if (best < 0) return false;
        sw__shadow_cell c = free_cells[best];
        free_cells[best] = free_cells[--free_count];
        while (c.size > want) {
            const int h = c.size / 2;
            if (free_count + 3 > (int)(sizeof free_cells / sizeof free_cells[0])) return false;
            free_cells[free_count++] = (sw__shadow_cell){c.x + h, c.y, h};
            free_cells[free_count++] = (sw__shadow_cell){c.x, c.y + h, h};
            free_cells[free_count++] = (sw__shadow_cell){c.x + h, c.y + h, h};
            c.size = h;
        }
        out[order[k]] = c;
    }
    return true;
}

void sw__shadow_cascade_splits(float near, float far, int count, float lambda, float* out) {
    if (!(near > 0.0f)) near = 1e-3f;
    if (!(far > near)) far = near * 2.0f;
    for (int i = 0; i <= count; i++) {
        const float t = (float)i / (float)count;
        const float logarithmic = near * powf(far / near, t), uniform = near + (far - near) * t;
        out[i] = lambda * logarithmic + (1.0f - lambda) * uniform;
    }
    out[0] = near, out[count] = far;
}

static sw_vec3 sw__v(const float* p) { return sw_vec3_make(p[0], p[1], p[2]); }

sw_mat4 sw__shadow_fit_cascade(const sw_camera* camera, float aspect, float d0, float d1, sw_vec3 light_direction,
                               const float scene_lo[3], const float scene_hi[3], const float* focus_lo,
                               const float* focus_hi, int usable) {
    const sw_vec3 eye = sw__v(camera->eye);
    const sw_vec3 forward = sw_vec3_normalize(sw_vec3_sub(sw__v(camera->target), eye));
    const sw_vec3 right = sw_vec3_normalize(sw_vec3_cross(forward, sw__v(camera->up)));
    const sw_vec3 up = sw_vec3_cross(right, forward);
    const float ty = tanf(0.5f * camera->fov_y), tx = ty * aspect;
    /* The slice's bounding sphere: on the axis, at the point that makes the
       near and far corners equally distant (clamped to the slice). */
    const float k2 = tx * tx + ty * ty;
    float t = 0.5f * (d0 + d1) * (1.0f + k2);
    if (t > d1) t = d1;
    const float radius_far = sqrtf((d1 - t) * (d1 - t) + d1 * d1 * k2);
    const float radius_near = sqrtf((t - d0) * (t - d0) + d0 * d0 * k2);
    float radius = fmaxf(radius_far, radius_near);
    sw_vec3 center = sw_vec3_add(eye, sw_vec3_scale(forward, t));
    if (focus_lo && focus_hi) { /* grow the sphere to hold the focus box's sphere */
        const sw_vec3 fc = sw_vec3_scale(sw_vec3_add(sw__v(focus_lo), sw__v(focus_hi)), 0.5f);
        const float fr = 0.5f * sw_vec3_length(sw_vec3_sub(sw__v(focus_hi), sw__v(focus_lo)));
        const float gap = sw_vec3_length(sw_vec3_sub(fc, center));
        if (gap + fr > radius) {
            const float grown = 0.5f * (radius + gap + fr);
            if (gap > 1e-6f) center = sw_vec3_add(center, sw_vec3_scale(sw_vec3_sub(fc, center), (grown - radius) / gap));
            radius = grown;
        }
    }
    (void)up;
    /* The light's frame: looking along −light_direction. */
    const sw_vec3 lf = sw_vec3_scale(light_direction, -1.0f);
    const sw_vec3 lup = fabsf(lf.y) > 0.999f ? sw_vec3_make(0, 0, 1) : sw_vec3_make(0, 1, 0);
    const sw_vec3 ls = sw_vec3_normalize(sw_vec3_cross(lf, lup));
    const sw_vec3 lu = sw_vec3_cross(ls, lf);
    const float texel = 2.0f * radius / (float)usable;
    const float cx = roundf(sw_vec3_dot(ls, center) / texel) * texel, cy = roundf(sw_vec3_dot(lu, center) / texel) * texel;
    /* Depth: every scene corner and the sphere. */
    float dmin = sw_vec3_dot(lf, center) - radius, dmax = sw_vec3_dot(lf, center) + radius;
    for (int c = 0; c < 8; c++) {
        const sw_vec3 p = sw_vec3_make(c & 1 ? scene_hi[0] : scene_lo[0], c & 2 ? scene_hi[1] : scene_lo[1],
                                       c & 4 ? scene_hi[2] : scene_lo[2]);
        const float d = sw_vec3_dot(lf, p);
        dmin = fminf(dmin, d), dmax = fmaxf(dmax, d);
    }
    const float pad = 0.01f * (dmax - dmin) + 1e-4f;
    dmin -= pad, dmax += pad;
    const float sx = 1.0f / radius, sz = 2.0f / (dmax - dmin);
    sw_mat4 m = {{0}};
    const float rows[3][4] = {
        {ls.x * sx, ls.y * sx, ls.z * sx, -cx * sx},
        {lu.x * sx, lu.y * sx, lu.z * sx, -cy * sx},
        {lf.x * sz, lf.y * sz, lf.z * sz, -(dmax + dmin) / (dmax - dmin)},
    };
    for (int r = 0; r < 3; r++)
        for (int col = 0; col < 4; col++) m.m[col * 4 + r] = rows[r][col];
    m.m[15] = 1.0f;
    return m;
}

int sw__shadow_pick_cascade(const sw_mat4* view_projections, int count, const float p[3], float margin) {
    for (int c = 0; c < count; c++) {
        const float* m = view_projections[c].m;
        float clip[4];
        for (int r = 0; r < 4; r++) clip[r] = m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r];
        const float u = (clip[0] / clip[3]) * 0.5f + 0.5f, v = (clip[1] / clip[3]) * 0.5f + 0.5f,
                    z = (clip[2] / clip[3]) * 0.5f + 0.5f;
        if (u >= margin && u <= 1.0f - margin && v >= margin && v <= 1.0f - margin && z >= 0.0f && z <= 1.0f)
            return c;
    }
    return -1;
}
