/* The depth convention and the Hi-Z test without GL (docs/depth.md):
     - the reversed projection puts the near plane on depth 1 and the far
       plane on 0 (0 at infinity with z_far = INFINITY), OpenGL's on 0 and
       1, points checked through the matrix itself;
     - precision: two surfaces 1 mm apart at 400 m (near 0.1 m, far 1 km)
       get different float depths under reverse-Z (43 float steps apart,
       computed by hand in docs/depth.md) and the same one under ordinary
       depth;
     - the position a pass reconstructs (inverse matrix, sw__depth_to_ndc_z)
       is the point that was projected;
     - the pyramid's reduction keeps the farthest depth per texel, odd
       edges folded in, on a hand-made 5 × 3 level;
     - the box test on hand-made pyramids: a box behind a nearer wall is
       hidden, the same box beside the wall or straddling its edge is not,
       a box in front of the near plane or behind the eye is not. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "harness.h"
#include "sinew/render.h"

#include "../../src/render/depth_convention.h"
#include "../../src/render/hiz.h"

/* The camera of the precision checks: at the origin looking down −Z. */
static sw_camera camera_at(float z_near, float z_far) {
    return (sw_camera){.eye = {0, 0, 0}, .target = {0, 0, -1}, .up = {0, 1, 0}, .fov_y = 1.0f, .z_near = z_near,
                       .z_far = z_far};
}

/* The depth-buffer value of world point p under matrix m. */
static float depth_of(const float m[16], const float p[3], bool reverse) {
    float clip[4];
    for (int r = 0; r < 4; r++) clip[r] = m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r];
    const float z = clip[2] / clip[3];
    return reverse ? z : z * 0.5f + 0.5f;
}

static int32_t float_steps(float a, float b) {
    int32_t ia, ib;
    memcpy(&ia, &a, 4), memcpy(&ib, &b, 4);
    return ia > ib ? ia - ib : ib - ia;
}

static void test_planes_land_on_the_right_depths(void) {
    const sw_camera c = camera_at(0.5f, 40.0f);
    float reverse[16], ordinary[16], public_matrix[16];
    sw__camera_matrix(&c, 1.5f, true, reverse);
    sw__camera_matrix(&c, 1.5f, false, ordinary);
    sw_camera_view_projection(&c, 1.5f, public_matrix);
    /* The public matrix keeps OpenGL's convention, bit for bit. */
    SW_CHECK(memcmp(ordinary, public_matrix, sizeof ordinary) == 0);
    const float near_point[3] = {0.1f, -0.05f, -0.5f}, far_point[3] = {3.0f, 2.0f, -40.0f};
    SW_CHECK_NEAR(depth_of(reverse, near_point, true), 1.0, 1e-6);
    SW_CHECK_NEAR(depth_of(reverse, far_point, true), 0.0, 1e-6);
    SW_CHECK_NEAR(depth_of(ordinary, near_point, false), 0.0, 1e-6);
    SW_CHECK_NEAR(depth_of(ordinary, far_point, false), 1.0, 1e-6);
    /* At d = 1 m: n (f − d) / (d (f − n)) = 0.5 · 39 / 39.5. */
    const float one_metre[3] = {0, 0, -1.0f};
    SW_CHECK_NEAR(depth_of(reverse, one_metre, true), 0.5 * 39.0 / 39.5, 1e-6);
    SW_CHECK_NEAR(sw__depth_at_distance(1.0f, 0.5f, 40.0f, true), 0.5 * 39.0 / 39.5, 1e-6);
    /* Infinite far plane: depth = n / d, 0 only at infinity. */
    const sw_camera endless = camera_at(0.5f, INFINITY);
    float infinite[16];
    sw__camera_matrix(&endless, 1.5f, true, infinite);
    SW_CHECK_NEAR(depth_of(infinite, near_point, true), 1.0, 1e-6);
    SW_CHECK_NEAR(depth_of(infinite, (const float[3]){0, 0, -1e6f}, true), 5e-7, 1e-9);
    SW_CHECK(depth_of(infinite, (const float[3]){0, 0, -1e6f}, true) > 0.0f);
    sw__camera_matrix(&endless, 1.5f, false, infinite);
    SW_CHECK_NEAR(depth_of(infinite, (const float[3]){0, 0, -1.0f}, false), 1.0 - 0.5, 1e-6);
    /* Nearer is greater under reverse-Z. */
    SW_CHECK(sw__nearer(0.9f, 0.1f, true) && !sw__nearer(0.9f, 0.1f, false));
    SW_CHECK(sw__farthest(0.9f, 0.1f, true) == 0.1f && sw__farthest(0.9f, 0.1f, false) == 0.9f);
    SW_CHECK(sw__depth_far(true) == 0.0f && sw__depth_far(false) == 1.0f);
}

static void test_one_millimetre_at_400_metres(void) {
    /* The float the D32F target stores: the exact value rounded once.
       docs/depth.md: under reverse-Z, depth ≈ n/d = 2.5e-4 where a float
       step is 2^-35 ≈ 2.9e-11 and 1 mm moves it by n/d² · 1e-3 ≈ 6.25e-10
       (21 steps; 43 with f = 1 km, where depth ≈ 1.5e-4 has steps of
       2^-36); under ordinary depth, depth ≈ 1 − n/d where a step is
       2^-24 ≈ 6e-8, a hundred times the millimetre's change. */
    const double n = 0.1, f = 1000.0;
    float a = (float)(n * (f - 400.0) / (400.0 * (f - n))), b = (float)(n * (f - 400.001) / (400.001 * (f - n)));
    SW_CHECK(a > b); /* the nearer surface wins GL_GREATER */
    SW_CHECK_EQ_INT(float_steps(a, b), 43);
    a = (float)(n / 400.0), b = (float)(n / 400.001);
    SW_CHECK_EQ_INT(float_steps(a, b), 22);
    a = (float)(f * (400.0 - n) / (400.0 * (f - n))), b = (float)(f * (400.001 - n) / (400.001 * (f - n)));
    SW_CHECK_EQ_INT(float_steps(a, b), 0);
    /* Through the float matrix, as the vertex stage computes it. */
    const sw_camera c = camera_at(0.1f, 1000.0f);
    float reverse[16], ordinary[16];
    sw__camera_matrix(&c, 1.0f, true, reverse);
    sw__camera_matrix(&c, 1.0f, false, ordinary);
    const float p[3] = {1.0f, 2.0f, -400.0f}, q[3] = {1.0f, 2.0f, -400.001f};
    SW_CHECK(depth_of(reverse, p, true) > depth_of(reverse, q, true));
    SW_CHECK(float_steps(depth_of(reverse, p, true), depth_of(reverse, q, true)) >= 20);
    SW_CHECK(float_steps(depth_of(ordinary, p, false), depth_of(ordinary, q, false)) <= 1);
}

static void test_positions_reconstruct(void) {
    /* A pass's rule: world = inverse(vp) · (ndc xy, sw__depth_to_ndc_z(depth), 1). */
    sw_camera c = {.eye = {3, 2, 8}, .target = {0, 1, 0}, .up = {0, 1, 0}, .fov_y = 0.8f, .z_near = 0.2f, .z_far = 300.0f};
    for (int convention = 0; convention < 2; convention++) {
        const bool reverse = convention == 1;
        float m[16], inverse[16];
        sw__camera_matrix(&c, 1.25f, reverse, m);
        sw_mat4 mm, inv;
        memcpy(mm.m, m, sizeof m);
        sw_mat4_inverse(&inv, &mm);
        memcpy(inverse, inv.m, sizeof inverse);
        const float points[3][3] = {{0.5f, 1.2f, 0.3f}, {-20.0f, 0.0f, -100.0f}, {1.0f, 1.0f, 7.0f}};
        for (int i = 0; i < 3; i++) {
            float clip[4];
            for (int r = 0; r < 4; r++)
                clip[r] = m[r] * points[i][0] + m[4 + r] * points[i][1] + m[8 + r] * points[i][2] + m[12 + r];
            const float depth = reverse ? clip[2] / clip[3] : clip[2] / clip[3] * 0.5f + 0.5f;
            const float ndc[4] = {clip[0] / clip[3], clip[1] / clip[3], sw__depth_to_ndc_z(depth, reverse), 1.0f};
            float w[4];
            for (int r = 0; r < 4; r++)
                w[r] = inverse[r] * ndc[0] + inverse[4 + r] * ndc[1] + inverse[8 + r] * ndc[2] + inverse[12 + r] * ndc[3];
            const double distance = fabs(points[i][2] - c.eye[2]) + 1.0;
            for (int k = 0; k < 3; k++) SW_CHECK_NEAR(w[k] / w[3], points[i][k], 2e-5 * distance * distance);
        }
    }
}

static void test_reduction_keeps_the_farthest(void) {
    /* A 5 × 3 level (reverse-Z: the farthest is the smallest) → 2 × 1:
       texel 0 covers columns 0–1, texel 1 columns 2–4 (odd), both all
       three rows (odd height folds into the only row). */
    const float level[15] = {0.9f, 0.8f, 0.7f, 0.6f, 0.5f,  /* row 0 (bottom) */
                             0.9f, 0.4f, 0.9f, 0.9f, 0.9f,  /* row 1 */
                             0.3f, 0.9f, 0.9f, 0.9f, 0.2f}; /* row 2 */
    float out[2];
    SW_CHECK_EQ_INT(sw__hiz_level_size(5, 1), 2);
    SW_CHECK_EQ_INT(sw__hiz_level_size(3, 1), 1);
    sw__hiz_reduce(level, 5, 3, out, 2, 1, true);
    SW_CHECK(out[0] == 0.3f && out[1] == 0.2f);
    sw__hiz_reduce(level, 5, 3, out, 2, 1, false);
    SW_CHECK(out[0] == 0.9f && out[1] == 0.9f);
    SW_CHECK_EQ_INT(sw__hiz_level_count(160, 120), 8);
    SW_CHECK_EQ_INT(sw__hiz_level_count(1, 1), 1);
}

/* A w × h pyramid from one depth image, every level reduced by the C reference. */
typedef struct pyramid {
    float texels[SW__HIZ_MAX_LEVELS][64 * 64];
    sw__hiz_levels levels;
} pyramid;

static void build(pyramid* p, const float* depth, int w, int h, bool reverse) {
    p->levels = (sw__hiz_levels){.width = w, .height = h, .level_count = sw__hiz_level_count(w, h), .reverse = reverse};
    memcpy(p->texels[0], depth, sizeof(float) * (size_t)(w * h));
    for (int k = 0; k < p->levels.level_count; k++) {
        if (k > 0)
            sw__hiz_reduce(p->texels[k - 1], sw__hiz_level_size(w, k - 1), sw__hiz_level_size(h, k - 1), p->texels[k],
                           sw__hiz_level_size(w, k), sw__hiz_level_size(h, k), reverse);
        p->levels.texels[k] = p->texels[k];
    }
}

static void test_box_behind_a_wall(void) {
    /* 64 × 48 pixels, camera at the origin looking down −Z (fov 1 rad,
       aspect 4:3, near 0.1, far 100). A wall at 5 m covers the left half
       of the picture (x < 0 in view space); the right half is background. */
    enum { W = 64, H = 48 };
    static pyramid p;
    for (int convention = 0; convention < 2; convention++) {
        const bool reverse = convention == 1;
        const sw_camera c = camera_at(0.1f, 100.0f);
        float vp[16];
        sw__camera_matrix(&c, (float)W / H, reverse, vp);
        static float depth[W * H];
        const float wall = sw__depth_at_distance(5.0f, 0.1f, 100.0f, reverse);
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) depth[y * W + x] = x < W / 2 ? wall : sw__depth_far(reverse);
        build(&p, depth, W, H, reverse);
        /* Behind the wall (10 m, left of centre): hidden. Its screen
           rectangle, x from about 1/8 to 3/8 of the width, is all wall. */
        const float t = tanf(0.5f) * 4.0f / 3.0f * 10.0f; /* half width at 10 m */
        const float behind_lo[3] = {-0.7f * t, -1.0f, -11.0f}, behind_hi[3] = {-0.3f * t, 1.0f, -10.0f};
        SW_CHECK(sw__hiz_box_hidden(&p.levels, vp, behind_lo, behind_hi));
        /* The same box on the right: background there, visible. */
        const float beside_lo[3] = {0.3f * t, -1.0f, -11.0f}, beside_hi[3] = {0.7f * t, 1.0f, -10.0f};
        SW_CHECK(!sw__hiz_box_hidden(&p.levels, vp, beside_lo, beside_hi));
        /* Straddling the wall's edge: one pixel column of background is enough. */
        const float edge_lo[3] = {-0.3f * t, -1.0f, -11.0f}, edge_hi[3] = {0.02f * t, 1.0f, -10.0f};
        SW_CHECK(!sw__hiz_box_hidden(&p.levels, vp, edge_lo, edge_hi));
        /* In front of the wall (3 m): visible. */
        const float t3 = t * 0.3f;
        const float front_lo[3] = {-0.7f * t3, -0.3f, -3.3f}, front_hi[3] = {-0.3f * t3, 0.3f, -3.0f};
        SW_CHECK(!sw__hiz_box_hidden(&p.levels, vp, front_lo, front_hi));
        /* Just behind the wall's plane (5.01 m to 6 m): hidden. */
        const float t5 = t * 0.5f;
        const float close_lo[3] = {-0.7f * t5, -0.3f, -6.0f}, close_hi[3] = {-0.3f * t5, 0.3f, -5.01f};
        SW_CHECK(sw__hiz_box_hidden(&p.levels, vp, close_lo, close_hi));
        /* Reaching the wall's plane (4.99 m): not provably hidden. */
        const float touch_lo[3] = {-0.7f * t5, -0.3f, -6.0f}, touch_hi[3] = {-0.3f * t5, 0.3f, -4.99f};
        SW_CHECK(!sw__hiz_box_hidden(&p.levels, vp, touch_lo, touch_hi));
        /* Crossing the near plane, or around the eye: never hidden. */
        const float near_lo[3] = {-0.5f, -0.5f, -0.5f}, near_hi[3] = {-0.1f, 0.5f, -0.05f};
        SW_CHECK(!sw__hiz_box_hidden(&p.levels, vp, near_lo, near_hi));
        const float around_lo[3] = {-1, -1, -1}, around_hi[3] = {1, 1, 1};
        SW_CHECK(!sw__hiz_box_hidden(&p.levels, vp, around_lo, around_hi));
        /* A big box behind the wall whose rectangle reaches the right half. */
        const float wide_lo[3] = {-0.9f * t, -1.0f, -11.0f}, wide_hi[3] = {0.5f * t, 1.0f, -10.0f};
        SW_CHECK(!sw__hiz_box_hidden(&p.levels, vp, wide_lo, wide_hi));
        /* Only coarse levels held: the same answers for these boxes
           (coarser texels, still all wall on the left). */
        sw__hiz_levels coarse = p.levels;
        coarse.first_level = 3;
        for (int k = 0; k < 3; k++) coarse.texels[k] = NULL;
        SW_CHECK(sw__hiz_box_hidden(&coarse, vp, behind_lo, behind_hi));
        SW_CHECK(!sw__hiz_box_hidden(&coarse, vp, beside_lo, beside_hi));
    }
}

static void test_transform_box(void) {
    /* A 90° turn about Y and a move: x → −z, z → x. */
    const float rows[3][4] = {{0, 0, 1, 10}, {0, 1, 0, 0}, {-1, 0, 0, 0}};
    float lo[3], hi[3];
    sw__hiz_transform_box(rows, (const float[3]){1, 2, 3}, (const float[3]){2, 4, 5}, lo, hi);
    SW_CHECK(lo[0] == 13 && hi[0] == 15 && lo[1] == 2 && hi[1] == 4 && lo[2] == -2 && hi[2] == -1);
}

int main(void) {
    SW_RUN(test_planes_land_on_the_right_depths);
    SW_RUN(test_one_millimetre_at_400_metres);
    SW_RUN(test_positions_reconstruct);
    SW_RUN(test_reduction_keeps_the_farthest);
    SW_RUN(test_box_behind_a_wall);
    SW_RUN(test_transform_box);
    return sw_test_finish();
}
