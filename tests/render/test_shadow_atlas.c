/* The shadow atlas and cascades without GL (src/render/shadow_atlas.c):
   cells never overlap and stay inside, the guard bands give the usable
   sizes of the frame analysis (252 / 508 / 1020), splits are ordered,
   each cascade holds its slice and the character, moves by whole texels
   and keeps its size as the camera turns, and the cascade picked for a
   point is the first that holds it. */
#include <math.h>
#include <string.h>

#include "harness.h"
#include "test_random.h"

#include "../../src/render/shadow_atlas.h"

static bool overlap(sw__shadow_cell a, sw__shadow_cell b) {
    return a.x < b.x + b.size && b.x < a.x + a.size && a.y < b.y + b.size && b.y < a.y + a.size;
}

static void test_layout(void) {
    const int three[3] = {1024, 1024, 1024};
    sw__shadow_cell cells[64];
    SW_CHECK(sw__shadow_atlas_layout(2048, three, 3, cells));
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < i; j++) SW_CHECK(!overlap(cells[i], cells[j]));
    /* The usable sizes of the analysis, the 2-texel bands on every side. */
    const int sizes[3] = {256, 512, 1024}, usable[3] = {252, 508, 1020};
    SW_CHECK(sw__shadow_atlas_layout(2048, sizes, 3, cells));
    for (int i = 0; i < 3; i++) {
        int vp[4];
        sw__shadow_cell_viewport(cells[i], vp);
        SW_CHECK_EQ_INT(vp[2], usable[i]);
        SW_CHECK_EQ_INT(vp[3], usable[i]);
        SW_CHECK_EQ_INT(vp[0] - cells[i].x, 2);
        SW_CHECK_EQ_INT(cells[i].x + cells[i].size - (vp[0] + vp[2]), 2);
        SW_CHECK_EQ_INT(vp[1] - cells[i].y, 2);
        SW_CHECK_EQ_INT(cells[i].y + cells[i].size - (vp[1] + vp[3]), 2);
    }
    /* Random sets that fit by area always fit, inside, aligned, apart. */
    rng r = {3};
    for (int trial = 0; trial < 500; trial++) {
        int want[64], n = 0;
        long area = 0;
        while (n < 64) {
            const int s = 256 << rng_below(&r, 3);
            if (area + (long)s * s > 2048L * 2048L) break;
            want[n++] = s, area += (long)s * s;
            if (rng_below(&r, 8) == 0) break;
        }
        SW_CHECK(sw__shadow_atlas_layout(2048, want, n, cells));
        for (int i = 0; i < n; i++) {
            SW_CHECK_EQ_INT(cells[i].size, want[i]);
            SW_CHECK(cells[i].x >= 0 && cells[i].y >= 0 && cells[i].x + cells[i].size <= 2048 &&
                     cells[i].y + cells[i].size <= 2048);
            SW_CHECK(cells[i].x % cells[i].size == 0 && cells[i].y % cells[i].size == 0);
            for (int j = 0; j < i; j++) SW_CHECK(!overlap(cells[i], cells[j]));
        }
    }
    const int too_many[5] = {1024, 1024, 1024, 1024, 256};
    SW_CHECK(!sw__shadow_atlas_layout(2048, too_many, 5, cells));
    const int odd[1] = {300};
    SW_CHECK(!sw__shadow_atlas_layout(2048, odd, 1, cells));
}

static void test_splits(void) {
    float s[5];
    sw__shadow_cascade_splits(0.5f, 100.0f, 4, 0.0f, s);
    SW_CHECK_NEAR(s[2], 50.25f, 1e-4f); /* uniform */
    sw__shadow_cascade_splits(1.0f, 256.0f, 4, 1.0f, s);
    SW_CHECK_NEAR(s[1], 4.0f, 1e-4f); /* logarithmic: 256^(1/4) */
    SW_CHECK_NEAR(s[2], 16.0f, 1e-3f);
    sw__shadow_cascade_splits(0.3f, 40.0f, 4, 0.75f, s);
    SW_CHECK(s[0] == 0.3f && s[4] == 40.0f);
    for (int i = 0; i < 4; i++) SW_CHECK(s[i] < s[i + 1]);
}

static void project(const sw_mat4* m, sw_vec3 p, float out[3]) {
    float c[4];
    for (int r = 0; r < 4; r++) c[r] = m->m[r] * p.x + m->m[4 + r] * p.y + m->m[8 + r] * p.z + m->m[12 + r];
    for (int k = 0; k < 3; k++) out[k] = c[k] / c[3] * 0.5f + 0.5f;
}

static void test_fit(void) {
    sw_camera cam = {.eye = {0, 2, 10}, .target = {0, 1, 0}, .up = {0, 1, 0}, .fov_y = 0.7f, .z_near = 0.3f, .z_far = 60};
    const float lo[3] = {-30, 0, -30}, hi[3] = {30, 5, 30};
    const float focus_lo[3] = {-0.4f, 0, -0.3f}, focus_hi[3] = {0.4f, 1.7f, 0.3f};
    const sw_vec3 light = sw_vec3_normalize(sw_vec3_make(-0.45f, 0.8f, 0.55f));
    const float aspect = 1.5f;
    const sw_mat4 m = sw__shadow_fit_cascade(&cam, aspect, 2.0f, 9.0f, light, lo, hi, focus_lo, focus_hi, 1020);
    /* Every corner of the slice and of the character inside the box and its depth range. */
    const sw_vec3 eye = sw_vec3_make(0, 2, 10), f = sw_vec3_normalize(sw_vec3_make(0, -1, -10));
    const sw_vec3 right = sw_vec3_normalize(sw_vec3_cross(f, sw_vec3_make(0, 1, 0))), up = sw_vec3_cross(right, f);
    for (int c = 0; c < 8; c++) {
        const float d = c & 4 ? 9.0f : 2.0f, ty = tanf(0.35f) * d, tx = ty * aspect;
        const sw_vec3 p = sw_vec3_add(sw_vec3_add(sw_vec3_add(eye, sw_vec3_scale(f, d)), sw_vec3_scale(right, c & 1 ? tx : -tx)),
                                      sw_vec3_scale(up, c & 2 ? ty : -ty));
        float uvz[3];
        project(&m, p, uvz);
        for (int k = 0; k < 3; k++) SW_CHECK(uvz[k] >= -1e-4f && uvz[k] <= 1.0f + 1e-4f);
        const sw_vec3 q = sw_vec3_make(c & 1 ? focus_hi[0] : focus_lo[0], c & 2 ? focus_hi[1] : focus_lo[1],
                                       c & 4 ? focus_hi[2] : focus_lo[2]);
        project(&m, q, uvz);
        for (int k = 0; k < 3; k++) SW_CHECK(uvz[k] >= 0.0f && uvz[k] <= 1.0f);
    }
    /* Texel snapping: moving the camera a little moves the world's texels by whole texels. */
    float before[3], after[3];
    const sw_vec3 probe = sw_vec3_make(1.3f, 0.2f, -2.1f);
    project(&m, probe, before);
    sw_camera moved = cam;
    moved.eye[0] += 0.0123f, moved.target[0] += 0.0123f;
    const sw_mat4 m2 = sw__shadow_fit_cascade(&moved, aspect, 2.0f, 9.0f, light, lo, hi, NULL, NULL, 1020);
    const sw_mat4 m1 = sw__shadow_fit_cascade(&cam, aspect, 2.0f, 9.0f, light, lo, hi, NULL, NULL, 1020);
    project(&m1, probe, before);
    project(&m2, probe, after);
    for (int k = 0; k < 2; k++) {
        const float shift = (after[k] - before[k]) * 1020.0f;
        SW_CHECK_NEAR(shift, roundf(shift), 2e-2f);
    }
    /* Turning the camera keeps the box's size (the slice's sphere does not change). */
    sw_camera turned = cam;
    turned.target[0] = 7.0f;
    const sw_mat4 m3 = sw__shadow_fit_cascade(&turned, aspect, 2.0f, 9.0f, light, lo, hi, NULL, NULL, 1020);
    const float s1 = sqrtf(m1.m[0] * m1.m[0] + m1.m[4] * m1.m[4] + m1.m[8] * m1.m[8]);
    const float s3 = sqrtf(m3.m[0] * m3.m[0] + m3.m[4] * m3.m[4] + m3.m[8] * m3.m[8]);
    SW_CHECK_NEAR(s1, s3, 1e-6f * s1);
}

static void test_pick(void) {
    sw_camera cam = {.eye = {0, 2, 10}, .target = {0, 1, 0}, .up = {0, 1, 0}, .fov_y = 0.7f, .z_near = 0.3f, .z_far = 60};
    const float lo[3] = {-30, 0, -30}, hi[3] = {30, 5, 30};
    const sw_vec3 light = sw_vec3_normalize(sw_vec3_make(-0.45f, 0.8f, 0.55f));
    float s[4];
    sw__shadow_cascade_splits(0.3f, 40.0f, 3, 0.75f, s);
    sw_mat4 vps[3];
    for (int c = 0; c < 3; c++) vps[c] = sw__shadow_fit_cascade(&cam, 1.0f, s[c], s[c + 1], light, lo, hi, NULL, NULL, 508);
    const float near_point[3] = {0, 1.5f, 9.0f}; /* 1 unit in front of the eye */
    SW_CHECK_EQ_INT(sw__shadow_pick_cascade(vps, 3, near_point, 1.5f / 508.0f), 0);
    const float far_point[3] = {0, 0.0f, -25.0f};
    const int far_pick = sw__shadow_pick_cascade(vps, 3, far_point, 1.5f / 508.0f);
    SW_CHECK(far_pick == 2 || far_pick == 1);
    const float outside[3] = {500, 0, 500};
    SW_CHECK_EQ_INT(sw__shadow_pick_cascade(vps, 3, outside, 1.5f / 508.0f), -1);
}

int main(void) {
    SW_RUN(test_layout);
    SW_RUN(test_splits);
    SW_RUN(test_fit);
    SW_RUN(test_pick);
    return sw_test_finish();
}
