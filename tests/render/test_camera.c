/* The camera framing maths (sinew/render.h: sw_camera_frame,
   sw_camera_frame_points, sw_camera_frame_bounds), no GL: distances
   worked out by hand from the pinhole model, and the invariant that a
   fitted point cloud projects inside clip space with its outermost point
   on the (margin-shrunk) edge, checked through sw_camera_view_projection. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"
#include "sinew/render.h"

static const float k_lo[3] = {-1, -1, -1}, k_hi[3] = {1, 1, 1};

static float eye_distance(const sw_camera* c) {
    float d2 = 0;
    for (int k = 0; k < 3; k++) d2 += (c->eye[k] - c->target[k]) * (c->eye[k] - c->target[k]);
    return sqrtf(d2);
}

/* The bounding sphere fit, as sinew render has always placed it: radius
   √3 over sin(17.5°), times 1.05, from the front (+Z). */
static void test_sphere_fit(void) {
    sw_camera c;
    sw_camera_frame_bounds(k_lo, k_hi, 0.0f, 0.0f, 2.0f, &c);
    const double expected = sqrt(3.0) / sin(17.5 * 3.14159265358979 / 180.0) * 1.05;
    SW_CHECK_NEAR(c.eye[2], expected, 1e-4);
    SW_CHECK_NEAR(c.eye[0], 0.0, 1e-6);
    SW_CHECK_NEAR(c.fov_y, 35.0 * 3.14159265358979 / 180.0, 1e-6);
    /* sw_camera_frame with zero fields is the same camera */
    sw_camera d;
    sw_camera_framing zero = {0};
    sw_camera_frame(k_lo, k_hi, &zero, 2.0f, &d);
    for (int k = 0; k < 3; k++) SW_CHECK(c.eye[k] == d.eye[k] && c.target[k] == d.target[k]);
    SW_CHECK(c.z_near == d.z_near && c.z_far == d.z_far);
}

/* The corner fit of the cube [-1, 1]³ seen from +Z with a 90° field of
   view (tan = 1): its near face's corners (x, y = ±1 at depth d − 1) need
   1 ≤ tan_y (d − 1) and 1 ≤ tan_x (d − 1), tan_x = aspect · tan_y. */
static void test_corner_fit(void) {
    const struct {
        float aspect, distance;
    } cases[] = {{1.0f, 2.0f}, {2.0f, 2.0f}, {0.5f, 3.0f}, {0.25f, 5.0f}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sw_camera_framing f = {.fov_y_degrees = 90.0f, .fit_corners = true, .margin = 1.0f};
        sw_camera c;
        sw_camera_frame(k_lo, k_hi, &f, cases[i].aspect, &c);
        SW_CHECK_NEAR(c.eye[2], cases[i].distance, 1e-5);
        SW_CHECK_NEAR(c.target[2], 0.0, 1e-6);
        SW_CHECK(c.z_near < cases[i].distance - 1.0f && c.z_far > cases[i].distance + 1.0f);
    }
    /* a margin of 2 halves both tangents: 1 ≤ ½ (d − 1) → d = 3 */
    sw_camera_framing f = {.fov_y_degrees = 90.0f, .fit_corners = true, .margin = 2.0f};
    sw_camera c;
    sw_camera_frame(k_lo, k_hi, &f, 1.0f, &c);
    SW_CHECK_NEAR(c.eye[2], 3.0, 1e-5);
}

/* A given target and distance are kept; the eye lies along the orbit's
   direction (sin az cos el, sin el, cos az cos el). */
static void test_target_distance(void) {
    sw_camera_framing f = {.azimuth_degrees = 90.0f, .elevation_degrees = 30.0f, .distance = 4.0f, .has_target = true,
                           .target = {5.0f, 1.0f, -2.0f}};
    sw_camera c;
    sw_camera_frame(k_lo, k_hi, &f, 1.5f, &c);
    SW_CHECK_NEAR(c.target[0], 5.0, 1e-6);
    SW_CHECK_NEAR(c.target[1], 1.0, 1e-6);
    SW_CHECK_NEAR(c.target[2], -2.0, 1e-6);
    SW_CHECK_NEAR(c.eye[0], 5.0 + 4.0 * cos(30.0 * 3.14159265358979 / 180.0), 1e-5);
    SW_CHECK_NEAR(c.eye[1], 1.0 + 4.0 * 0.5, 1e-5);
    SW_CHECK_NEAR(c.eye[2], -2.0, 1e-5);
    /* the far plane still holds the box, though the target is off it */
    SW_CHECK(c.z_far > eye_distance(&c) + 5.0f);
    f.fov_y_degrees = 20.0f;
    sw_camera_frame(k_lo, k_hi, &f, 1.5f, &c);
    SW_CHECK_NEAR(c.fov_y, 20.0 * 3.14159265358979 / 180.0, 1e-6);
}

/* A point cloud fitted from several angles and aspects: every point's
   clip-space x and y within ±1/margin, the outermost on it. */
static void test_points_fit(void) {
    enum { N = 200 };
    float points[3 * N];
    unsigned state = 12345u;
    for (int i = 0; i < 3 * N; i++) {
        state = state * 1664525u + 1013904223u;
        float u = (float)(state >> 8) / (float)(1u << 24);
        points[i] = (i % 3 == 1 ? 1.6f + 0.25f * u : (i % 3 == 0 ? 0.2f : 0.22f) * (u - 0.5f)) + (i % 3 == 0 ? 3.0f : 0.0f);
    }
    const float angles[][2] = {{0, 0}, {25, 10}, {-60, 30}, {180, 5}, {90, -20}};
    const float aspects[] = {16.0f / 9.0f, 1.0f, 9.0f / 16.0f};
    const float margins[] = {1.0f, 1.06f};
    for (size_t a = 0; a < sizeof angles / sizeof angles[0]; a++)
        for (size_t s = 0; s < sizeof aspects / sizeof aspects[0]; s++)
            for (size_t m = 0; m < sizeof margins / sizeof margins[0]; m++) {
                sw_camera_framing f = {.azimuth_degrees = angles[a][0], .elevation_degrees = angles[a][1],
                                       .margin = margins[m]};
                sw_camera c;
                sw_camera_frame_points(points, N, &f, aspects[s], &c);
                float vp[16], most = 0.0f;
                sw_camera_view_projection(&c, aspects[s], vp);
                bool inside = true;
                for (int i = 0; i < N; i++) {
                    const float* p = &points[3 * i];
                    float clip[4];
                    for (int r = 0; r < 4; r++) clip[r] = vp[r] * p[0] + vp[4 + r] * p[1] + vp[8 + r] * p[2] + vp[12 + r];
                    const float x = clip[0] / clip[3], y = clip[1] / clip[3], z = clip[2] / clip[3];
                    inside = inside && clip[3] > 0 && fabsf(x) <= 1.0f / margins[m] + 1e-4f &&
                             fabsf(y) <= 1.0f / margins[m] + 1e-4f && z > -1.0f && z < 1.0f;
                    most = fmaxf(most, fmaxf(fabsf(x), fabsf(y)));
                }
                if (!inside || fabsf(most - 1.0f / margins[m]) > 1e-3f)
                    fprintf(stderr, "  angle %g,%g aspect %g margin %g: inside %d, outermost %g\n", (double)angles[a][0],
                            (double)angles[a][1], (double)aspects[s], (double)margins[m], inside, (double)most);
                SW_CHECK(inside);
                SW_CHECK_NEAR(most, 1.0f / margins[m], 1e-3);
            }
}

int main(void) {
    SW_RUN(test_sphere_fit);
    SW_RUN(test_corner_fit);
    SW_RUN(test_target_distance);
    SW_RUN(test_points_fit);
    return sw_test_finish();
}
