/* The decal pass's maths in C (decal_math.h); shaders/decal.frag mirrors it. */
#include "decal_math.h"

#include <math.h>

bool sw__decal_world_to_box(const sw_mat34* box, sw_mat34* out) { return sw_mat34_inverse(out, box); }

bool sw__decal_inside(const sw_mat34* world_to_box, const float world[3], float local[3]) {
    sw_vec3 p = sw_mat34_apply_point(world_to_box, sw_vec3_make(world[0], world[1], world[2]));
    local[0] = p.x, local[1] = p.y, local[2] = p.z;
    return fabsf(p.x) <= 0.5f && fabsf(p.y) <= 0.5f && fabsf(p.z) <= 0.5f;
}

void sw__decal_uv(const float local[3], float uv[2]) {
    uv[0] = local[0] + 0.5f;
    uv[1] = local[2] + 0.5f;
}

float sw__decal_facing(const float n[3], const float up[3]) {
    const float lo = (float)SW_DECAL_FACING_MIN_PERCENT / 100.0f, hi = (float)SW_DECAL_FACING_FULL_PERCENT / 100.0f;
    float c = n[0] * up[0] + n[1] * up[1] + n[2] * up[2];
    float t = (c - lo) / (hi - lo);
    t = t < 0.0f ? 0.0f : t > 1.0f ? 1.0f : t;
    return t * t * (3.0f - 2.0f * t);
}

static void sw__normalize3(float v[3]) {
    float l = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (l > 0.0f) v[0] /= l, v[1] /= l, v[2] /= l;
}

void sw__decal_normal(const float n[3], const float box_x[3], const float m[3], float out[3]) {
    /* T: the box's +X made tangent to the surface; B = n × T is "up the
       picture" (the box's −Z) on a surface facing the box's +Y. */
    float d = box_x[0] * n[0] + box_x[1] * n[1] + box_x[2] * n[2];
    float t[3] = {box_x[0] - d * n[0], box_x[1] - d * n[1], box_x[2] - d * n[2]};
    sw__normalize3(t);
    float b[3] = {n[1] * t[2] - n[2] * t[1], n[2] * t[0] - n[0] * t[2], n[0] * t[1] - n[1] * t[0]};
    for (int k = 0; k < 3; k++) out[k] = t[k] * m[0] + b[k] * m[1] + n[k] * m[2];
    sw__normalize3(out);
}

bool sw__decal_screen_rect(const sw_mat34* box, const float view_projection[16], int width, int height,
                           int rect[4]) {
    const float* m = view_projection;
    float lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
    for (int k = 0; k < 8; k++) {
        sw_vec3 c = sw_mat34_apply_point(
            box, sw_vec3_make(k & 1 ? 0.5f : -0.5f, k & 2 ? 0.5f : -0.5f, k & 4 ? 0.5f : -0.5f));
        float clip[4];
        for (int r = 0; r < 4; r++) clip[r] = m[r] * c.x + m[4 + r] * c.y + m[8 + r] * c.z + m[12 + r];
        if (!(clip[3] > 1e-6f)) { /* behind the eye: the projection folds; take the whole image */
            rect[0] = rect[1] = 0, rect[2] = width, rect[3] = height;
            return width > 0 && height > 0;
        }
        float px = (clip[0] / clip[3] * 0.5f + 0.5f) * (float)width;
        float py = (clip[1] / clip[3] * 0.5f + 0.5f) * (float)height;
        lo[0] = fminf(lo[0], px), lo[1] = fminf(lo[1], py), hi[0] = fmaxf(hi[0], px), hi[1] = fmaxf(hi[1], py);
    }
    const int size[2] = {width, height};
    for (int a = 0; a < 2; a++) {
        float l = floorf(lo[a]) - 1.0f, h = floorf(hi[a]) + 2.0f; /* a pixel of margin (TAA jitter) */
        rect[a] = l < 0.0f ? 0 : l > (float)size[a] ? size[a] : (int)l;
        rect[a + 2] = h < 0.0f ? 0 : h > (float)size[a] ? size[a] : (int)h;
    }
    return rect[2] > rect[0] && rect[3] > rect[1];
}

void sw__decal_over(float dst[3], const float src[3], float a) {
    for (int k = 0; k < 3; k++) dst[k] = a * src[k] + (1.0f - a) * dst[k];
}

void sw__decal_shade(float rgb[3], float n[3], const float base[4], const float* m, const float box_x[3],
                     float opacity, float normal_strength, float facing) {
    float coverage = base[3] * facing;
    sw__decal_over(rgb, base, coverage * opacity);
    if (!m) return;
    float decal_n[3];
    sw__decal_normal(n, box_x, m, decal_n);
    /* Blended as the G-buffer stores normals (n × ½ + ½, linear in n), then normalised. */
    sw__decal_over(n, decal_n, coverage * normal_strength);
    sw__normalize3(n);
}
