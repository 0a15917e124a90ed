/* Dual quaternions (sw_dualquat_*) against rotate-then-translate computed with cglm, double-precision TRS matrices and closed-form blends. */
#include <cglm/cglm.h>

#include "harness.h"
#include "test_random.h"
#include "sinew/math.h"

static double qdot_d(sw_quat a, sw_quat b) {
    return (double)a.x * b.x + (double)a.y * b.y + (double)a.z * b.z + (double)a.w * b.w;
}

static sw_quat qneg(sw_quat q) { return (sw_quat){-q.x, -q.y, -q.z, -q.w}; }

/* rotate(q, p) + t with cglm, the independent "rotate, then translate". */
static sw_vec3 rigid_apply_cglm(sw_quat q, sw_vec3 t, sw_vec3 p) {
    versor gq = {q.x, q.y, q.z, q.w};
    vec3 gp = {p.x, p.y, p.z}, gd;
    glm_quat_rotatev(gq, gp, gd);
    return (sw_vec3){gd[0] + t.x, gd[1] + t.y, gd[2] + t.z};
}

static void check_vec3_near(sw_vec3 a, sw_vec3 b, double tol) {
    SW_CHECK_NEAR(a.x, b.x, tol);
    SW_CHECK_NEAR(a.y, b.y, tol);
    SW_CHECK_NEAR(a.z, b.z, tol);
}

static void check_quat_near(sw_quat a, sw_quat b, double tol) {
    SW_CHECK_NEAR(a.x, b.x, tol);
    SW_CHECK_NEAR(a.y, b.y, tol);
    SW_CHECK_NEAR(a.z, b.z, tol);
    SW_CHECK_NEAR(a.w, b.w, tol);
}

static void test_dualquat_identity(void) {
    sw_dualquat id = sw_dualquat_identity();
    SW_CHECK(id.real.x == 0 && id.real.y == 0 && id.real.z == 0 && id.real.w == 1);
    SW_CHECK(id.dual.x == 0 && id.dual.y == 0 && id.dual.z == 0 && id.dual.w == 0);
    sw_vec3 p = sw_dualquat_apply_point(id, sw_vec3_make(1, -2, 3));
    SW_CHECK(p.x == 1 && p.y == -2 && p.z == 3);
}

static void test_dualquat_from_rigid_apply(void) {
    rng r = {0xD0A1};
    for (int i = 0; i < 1000; i++) {
        sw_quat q = rng_quat(&r);
        sw_vec3 t = rng_vec3(&r, -5, 5), p = rng_vec3(&r, -3, 3);
        sw_dualquat dq = sw_dualquat_from_rigid(q, t);
        /* The header's definition: real = r, dual = ½·(t, 0)·r. */
        check_quat_near(dq.real, q, 1e-7);
        sw_quat tq = {t.x, t.y, t.z, 0};
        sw_quat d = sw_quat_mul(tq, q);
        check_quat_near(dq.dual, (sw_quat){0.5f * d.x, 0.5f * d.y, 0.5f * d.z, 0.5f * d.w}, 1e-6);
        check_vec3_near(sw_dualquat_apply_point(dq, p), rigid_apply_cglm(q, t, p), 1e-5);
        check_vec3_near(sw_dualquat_apply_dir(dq, p), rigid_apply_cglm(q, sw_vec3_make(0, 0, 0), p), 1e-5);
    }
    /* Hand value: 90° about X then +2 in Z takes (0,1,0) to (0,0,3). */
    sw_dualquat dq = sw_dualquat_from_rigid(sw_quat_from_axis_angle(sw_vec3_make(1, 0, 0), (float)(SW_PI / 2)),
                                            sw_vec3_make(0, 0, 2));
    check_vec3_near(sw_dualquat_apply_point(dq, sw_vec3_make(0, 1, 0)), sw_vec3_make(0, 0, 3), 1e-6);
}

static void test_dualquat_to_mat34_is_trs(void) {
    rng r = {0xD0A2};
    for (int i = 0; i < 1000; i++) {
        sw_quat q = rng_quat(&r);
        sw_vec3 t = rng_vec3(&r, -5, 5);
        sw_mat34 m = sw_dualquat_to_mat34(sw_dualquat_from_rigid(q, t));
        sw_transform trs = {t, q, {1, 1, 1}};
        sw_mat34 e = sw_transform_to_mat34(&trs);
        for (int rr = 0; rr < 3; rr++) {
            for (int c = 0; c < 4; c++) SW_CHECK_NEAR(m.m[rr][c], e.m[rr][c], 1e-5);
        }
        /* And the columns are the rotated axes (cglm), the last the translation. */
        sw_vec3 ex = rigid_apply_cglm(q, sw_vec3_make(0, 0, 0), sw_vec3_make(1, 0, 0));
        SW_CHECK_NEAR(m.m[0][0], ex.x, 1e-5);
        SW_CHECK_NEAR(m.m[1][0], ex.y, 1e-5);
        SW_CHECK_NEAR(m.m[2][0], ex.z, 1e-5);
        SW_CHECK_NEAR(m.m[0][3], t.x, 1e-5);
        SW_CHECK_NEAR(m.m[1][3], t.y, 1e-5);
        SW_CHECK_NEAR(m.m[2][3], t.z, 1e-5);
        /* from_mat34 goes back to the same rigid transform (q or −q). */
        sw_dualquat back = sw_dualquat_from_mat34(&e);
        sw_vec3 p = rng_vec3(&r, -3, 3);
        check_vec3_near(sw_dualquat_apply_point(back, p), rigid_apply_cglm(q, t, p), 2e-5);
    }
}

static void test_dualquat_normalize(void) {
    rng r = {0xD0A3};
    for (int i = 0; i < 1000; i++) {
        sw_quat q = rng_quat(&r);
        sw_vec3 t = rng_vec3(&r, -5, 5);
        sw_dualquat dq = sw_dualquat_from_rigid(q, t);
        /* Scale by k and add a component c·real to the dual part: normalising
           must give back exactly the rigid transform we started from. */
        float k = rng_range(&r, 0.2, 5.0), c = rng_range(&r, -2, 2);
        sw_dualquat bad = {
            {q.x * k, q.y * k, q.z * k, q.w * k},
            {(dq.dual.x + c * q.x) * k, (dq.dual.y + c * q.y) * k, (dq.dual.z + c * q.z) * k,
             (dq.dual.w + c * q.w) * k},
        };
        sw_dualquat n = sw_dualquat_normalize(bad);
        SW_CHECK_NEAR(qdot_d(n.real, n.real), 1.0, 2e-6);
        SW_CHECK_NEAR(qdot_d(n.real, n.dual), 0.0, 2e-6);
        check_quat_near(n.real, dq.real, 2e-6);
        check_quat_near(n.dual, dq.dual, 1e-5);
    }
    sw_dualquat z = sw_dualquat_normalize((sw_dualquat){{0, 0, 0, 0}, {1, 2, 3, 4}});
    SW_CHECK(z.real.x == 0 && z.real.y == 0 && z.real.z == 0 && z.real.w == 1);
    SW_CHECK(z.dual.x == 0 && z.dual.y == 0 && z.dual.z == 0 && z.dual.w == 0);
}

static void test_dualquat_blend_single(void) {
    rng r = {0xD0A4};
    for (int i = 0; i < 300; i++) {
        sw_dualquat dq = sw_dualquat_from_rigid(rng_quat(&r), rng_vec3(&r, -5, 5));
        const float w1 = 1.0f, w07 = 0.7f;
        sw_dualquat b1 = sw_dualquat_blend(&dq, &w1, 1);
        sw_dualquat b07 = sw_dualquat_blend(&dq, &w07, 1);
        check_quat_near(b1.real, dq.real, 1e-6);
        check_quat_near(b1.dual, dq.dual, 1e-5);
        check_quat_near(b07.real, dq.real, 1e-6);
        check_quat_near(b07.dual, dq.dual, 1e-5);
    }
}

/* A dual quaternion and its negation are the same transform: blending them
   half and half must give it back, not a zero (NaN) average. */
static void test_dualquat_blend_sign_alignment(void) {
    rng r = {0xD0A5};
    for (int i = 0; i < 300; i++) {
        sw_quat q = rng_quat(&r);
        sw_vec3 t = rng_vec3(&r, -5, 5), p = rng_vec3(&r, -3, 3);
        sw_dualquat dq = sw_dualquat_from_rigid(q, t);
        sw_dualquat pair[2] = {dq, {qneg(dq.real), qneg(dq.dual)}};
        const float w[2] = {0.5f, 0.5f};
        sw_dualquat b = sw_dualquat_blend(pair, w, 2);
        check_quat_near(b.real, dq.real, 1e-6);
        check_quat_near(b.dual, dq.dual, 1e-5);
        check_vec3_near(sw_dualquat_apply_point(b, p), rigid_apply_cglm(q, t, p), 1e-5);
        /* With the negated one first, the result lies in its hemisphere. */
        sw_dualquat pair2[2] = {pair[1], pair[0]};
        sw_dualquat b2 = sw_dualquat_blend(pair2, w, 2);
        check_quat_near(b2.real, qneg(dq.real), 1e-6);
        check_vec3_near(sw_dualquat_apply_point(b2, p), rigid_apply_cglm(q, t, p), 1e-5);
    }
}

/* Two rotations about one axis (0 and φ), weights 1−w and w: the blend is the
   normalised sum of the two quaternions, a rotation about the same axis by
   2·atan2(w·sin(φ/2), 1−w + w·cos(φ/2)), which is exactly w·φ at w = ½. */
static void test_dualquat_blend_same_axis(void) {
    rng r = {0xD0A6};
    for (int i = 0; i < 200; i++) {
        sw_vec3 axis = sw_vec3_normalize(rng_vec3(&r, -1, 1));
        if (sw_vec3_length(axis) < 0.5f) continue;
        double phi = rng_unit(&r) * 0.95 * SW_PI * 2.0 - 0.95 * SW_PI; /* (−171°, 171°) */
        double w = rng_unit(&r);
        sw_dualquat pair[2] = {sw_dualquat_identity(),
                               sw_dualquat_from_rigid(sw_quat_from_axis_angle(axis, (float)phi), sw_vec3_make(0, 0, 0))};
        const float weights[2] = {(float)(1.0 - w), (float)w};
        sw_dualquat b = sw_dualquat_blend(pair, weights, 2);
        double expected = 2.0 * atan2(w * sin(phi / 2), (1.0 - w) + w * cos(phi / 2));
        sw_quat e = {(float)(axis.x * sin(expected / 2)), (float)(axis.y * sin(expected / 2)),
                     (float)(axis.z * sin(expected / 2)), (float)cos(expected / 2)};
        check_quat_near(b.real, e, 2e-6);
        check_quat_near(b.dual, (sw_quat){0, 0, 0, 0}, 1e-6);
        /* A point off the axis keeps its distance from it (no LBS shrink). */
        sw_vec3 p = sw_vec3_cross(axis, sw_vec3_make(0.3f, 0.5f, 0.7f));
        SW_CHECK_NEAR(sw_vec3_length(sw_dualquat_apply_point(b, p)), sw_vec3_length(p), 1e-5);
    }
    /* w = ½: exactly half the angle, here 60° of 120° about X. */
    sw_dualquat pair[2] = {sw_dualquat_identity(),
                           sw_dualquat_from_rigid(sw_quat_from_axis_angle(sw_vec3_make(1, 0, 0), (float)(2 * SW_PI / 3)),
                                                  sw_vec3_make(0, 0, 0))};
    const float half[2] = {0.5f, 0.5f};
    sw_dualquat b = sw_dualquat_blend(pair, half, 2);
    check_quat_near(b.real, (sw_quat){0.5f, 0, 0, (float)sqrt(0.75)}, 1e-6);
    /* w = 1: the second one. */
    const float one[2] = {0.0f, 1.0f};
    b = sw_dualquat_blend(pair, one, 2);
    check_quat_near(b.real, pair[1].real, 1e-6);
}

/* Same rotation, different translations: the blend translates by the weighted mean. */
static void test_dualquat_blend_translations(void) {
    rng r = {0xD0A7};
    for (int i = 0; i < 300; i++) {
        sw_quat q = rng_quat(&r);
        sw_vec3 t0 = rng_vec3(&r, -5, 5), t1 = rng_vec3(&r, -5, 5), t2 = rng_vec3(&r, -5, 5);
        sw_dualquat dqs[3] = {sw_dualquat_from_rigid(q, t0), sw_dualquat_from_rigid(q, t1), sw_dualquat_from_rigid(q, t2)};
        float w0 = rng_range(&r, 0, 1), w1 = rng_range(&r, 0, 1 - w0);
        const float w[3] = {w0, w1, 1.0f - w0 - w1};
        sw_dualquat b = sw_dualquat_blend(dqs, w, 3);
        sw_vec3 t = {w[0] * t0.x + w[1] * t1.x + w[2] * t2.x, w[0] * t0.y + w[1] * t1.y + w[2] * t2.y,
                     w[0] * t0.z + w[1] * t1.z + w[2] * t2.z};
        sw_vec3 p = rng_vec3(&r, -3, 3);
        check_vec3_near(sw_dualquat_apply_point(b, p), rigid_apply_cglm(q, t, p), 2e-5);
    }
}

int main(void) {
    SW_RUN(test_dualquat_identity);
    SW_RUN(test_dualquat_from_rigid_apply);
    SW_RUN(test_dualquat_to_mat34_is_trs);
    SW_RUN(test_dualquat_normalize);
    SW_RUN(test_dualquat_blend_single);
    SW_RUN(test_dualquat_blend_sign_alignment);
    SW_RUN(test_dualquat_blend_same_axis);
    SW_RUN(test_dualquat_blend_translations);
    return sw_test_finish();
}
