/* Quaternions (sw_quat_*) against cglm 0.8.8 as a second implementation, hand values and double-precision invariants. */
#include <cglm/cglm.h>

#include "harness.h"
#include "test_random.h"
#include "sinew/math.h"

/* ---- double-precision helpers --------------------------------------------- */

static double qdot_d(sw_quat a, sw_quat b) {
    return (double)a.x * b.x + (double)a.y * b.y + (double)a.z * b.z + (double)a.w * b.w;
}

static double qlen_d(sw_quat q) { return sqrt(qdot_d(q, q)); }

/* Angle between two quaternions as 4-vectors, stable near 0 and π. */
static double angle4_d(sw_quat a, sw_quat b) {
    double d[4] = {(double)a.x - b.x, (double)a.y - b.y, (double)a.z - b.z, (double)a.w - b.w};
    double s[4] = {(double)a.x + b.x, (double)a.y + b.y, (double)a.z + b.z, (double)a.w + b.w};
    double dn = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + d[3] * d[3]);
    double sn = sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2] + s[3] * s[3]);
    return 2.0 * atan2(dn, sn);
}

static sw_quat qneg(sw_quat q) { return (sw_quat){-q.x, -q.y, -q.z, -q.w}; }

/* Rotation matrix of a quaternion (normalised in double), the textbook formula. */
static void quat_to_rot_d(sw_quat qf, double m[3][3]) {
    double n = qlen_d(qf);
    double x = qf.x / n, y = qf.y / n, z = qf.z / n, w = qf.w / n;
    m[0][0] = 1 - 2 * (y * y + z * z); m[0][1] = 2 * (x * y - w * z);     m[0][2] = 2 * (x * z + w * y);
    m[1][0] = 2 * (x * y + w * z);     m[1][1] = 1 - 2 * (x * x + z * z); m[1][2] = 2 * (y * z - w * x);
    m[2][0] = 2 * (x * z - w * y);     m[2][1] = 2 * (y * z + w * x);     m[2][2] = 1 - 2 * (x * x + y * y);
}

/* Checks q == expected or q == -expected (same rotation), component-wise within tol. */
static void check_quat_same_rotation(sw_quat q, sw_quat expected, double tol) {
    double sign = qdot_d(q, expected) < 0.0 ? -1.0 : 1.0;
    SW_CHECK_NEAR(q.x, sign * expected.x, tol);
    SW_CHECK_NEAR(q.y, sign * expected.y, tol);
    SW_CHECK_NEAR(q.z, sign * expected.z, tol);
    SW_CHECK_NEAR(q.w, sign * expected.w, tol);
}

static void check_quat_near(sw_quat q, const float e[4], double tol) {
    SW_CHECK_NEAR(q.x, e[0], tol);
    SW_CHECK_NEAR(q.y, e[1], tol);
    SW_CHECK_NEAR(q.z, e[2], tol);
    SW_CHECK_NEAR(q.w, e[3], tol);
}

static void to_versor(sw_quat q, versor out) {
    out[0] = q.x;
    out[1] = q.y;
    out[2] = q.z;
    out[3] = q.w;
}

/* ---- tests ---------------------------------------------------------------- */

static void test_quat_identity_and_conjugate(void) {
    sw_quat id = sw_quat_identity();
    SW_CHECK(id.x == 0.0f && id.y == 0.0f && id.z == 0.0f && id.w == 1.0f);
    rng r = {0x1234};
    for (int i = 0; i < 200; i++) {
        sw_quat q = rng_quat(&r);
        sw_quat c = sw_quat_conjugate(q);
        SW_CHECK(c.x == -q.x && c.y == -q.y && c.z == -q.z && c.w == q.w);
        /* q·q* is the identity for a unit q. */
        sw_quat p = sw_quat_mul(q, c);
        SW_CHECK_NEAR(p.x, 0.0, 1e-6);
        SW_CHECK_NEAR(p.y, 0.0, 1e-6);
        SW_CHECK_NEAR(p.z, 0.0, 1e-6);
        SW_CHECK_NEAR(p.w, 1.0, 1e-6);
        SW_CHECK_NEAR(sw_quat_dot(q, q), 1.0, 1e-6);
    }
}

static void test_quat_dot_vs_double(void) {
    rng r = {0x5151};
    for (int i = 0; i < 500; i++) {
        sw_quat a = rng_quat(&r), b = rng_quat(&r);
        SW_CHECK_NEAR(sw_quat_dot(a, b), qdot_d(a, b), 1e-6);
    }
}

static void test_quat_mul_vs_cglm(void) {
    rng r = {0xC0FFEE};
    for (int i = 0; i < 2000; i++) {
        sw_quat a = rng_quat(&r), b = rng_quat(&r);
        versor ga, gb, gd;
        to_versor(a, ga);
        to_versor(b, gb);
        glm_quat_mul(ga, gb, gd);
        check_quat_near(sw_quat_mul(a, b), gd, 1e-6);
    }
    /* Hand value: i·j = k (Hamilton), and j·i = −k. */
    sw_quat i_ = {1, 0, 0, 0}, j_ = {0, 1, 0, 0};
    sw_quat k = sw_quat_mul(i_, j_), mk = sw_quat_mul(j_, i_);
    SW_CHECK(k.x == 0.0f && k.y == 0.0f && k.z == 1.0f && k.w == 0.0f);
    SW_CHECK(mk.x == 0.0f && mk.y == 0.0f && mk.z == -1.0f && mk.w == 0.0f);
}

/* sw_quat_mul(a, b) rotates by b first, then by a. */
static void test_quat_mul_composes_b_then_a(void) {
    rng r = {0xABCD};
    for (int i = 0; i < 500; i++) {
        sw_quat a = rng_quat(&r), b = rng_quat(&r);
        sw_vec3 v = rng_vec3(&r, -3, 3);
        double ra[3][3], rb[3][3];
        quat_to_rot_d(a, ra);
        quat_to_rot_d(b, rb);
        double bv[3], abv[3];
        for (int k = 0; k < 3; k++) bv[k] = rb[k][0] * v.x + rb[k][1] * v.y + rb[k][2] * v.z;
        for (int k = 0; k < 3; k++) abv[k] = ra[k][0] * bv[0] + ra[k][1] * bv[1] + ra[k][2] * bv[2];
        sw_vec3 got = sw_quat_rotate(sw_quat_mul(a, b), v);
        SW_CHECK_NEAR(got.x, abv[0], 1e-5);
        SW_CHECK_NEAR(got.y, abv[1], 1e-5);
        SW_CHECK_NEAR(got.z, abv[2], 1e-5);
    }
}

static void test_quat_rotate_vs_cglm(void) {
    rng r = {0xBEEF};
    for (int i = 0; i < 2000; i++) {
        sw_quat q = rng_quat(&r);
        sw_vec3 v = rng_vec3(&r, -10, 10);
        versor gq;
        to_versor(q, gq);
        vec3 gv = {v.x, v.y, v.z}, gd;
        glm_quat_rotatev(gq, gv, gd);
        sw_vec3 got = sw_quat_rotate(q, v);
        double scale = 1e-5 * fmax(1.0, sqrt((double)v.x * v.x + (double)v.y * v.y + (double)v.z * v.z));
        SW_CHECK_NEAR(got.x, gd[0], scale);
        SW_CHECK_NEAR(got.y, gd[1], scale);
        SW_CHECK_NEAR(got.z, gd[2], scale);
    }
    /* Hand value: 90° about +Z takes +X to +Y (right-handed). */
    sw_quat z90 = {0.0f, 0.0f, (float)sin(SW_PI / 4), (float)cos(SW_PI / 4)};
    sw_vec3 y = sw_quat_rotate(z90, sw_vec3_make(1, 0, 0));
    SW_CHECK_NEAR(y.x, 0.0, 1e-6);
    SW_CHECK_NEAR(y.y, 1.0, 1e-6);
    SW_CHECK_NEAR(y.z, 0.0, 1e-6);
}

static void test_quat_normalize_vs_cglm(void) {
    rng r = {0x7777};
    for (int i = 0; i < 1000; i++) {
        sw_quat q = rng_quat(&r);
        float k = (float)exp(rng_range(&r, -4.6, 4.6)); /* 0.01 .. 100 */
        sw_quat s = {q.x * k, q.y * k, q.z * k, q.w * k};
        versor gs, gd;
        to_versor(s, gs);
        glm_quat_normalize_to(gs, gd);
        sw_quat n = sw_quat_normalize(s);
        check_quat_near(n, gd, 1e-6);
        SW_CHECK_NEAR(qlen_d(n), 1.0, 1e-6);
    }
    /* A zero quaternion gives the identity, not NaN. */
    sw_quat z = sw_quat_normalize((sw_quat){0, 0, 0, 0});
    SW_CHECK(z.x == 0.0f && z.y == 0.0f && z.z == 0.0f && z.w == 1.0f);
}

static void test_quat_slerp_vs_cglm(void) {
    rng r = {0x51E4};
    int compared = 0;
    for (int i = 0; i < 2000; i++) {
        sw_quat a = rng_quat(&r), b = rng_quat(&r);
        float t = rng_range(&r, 0, 1);
        /* cglm negates `from` (not `to`) on the long arc and lerps when nearly
           parallel, so compare on the short arc where both are textbook slerp. */
        sw_quat b_short = qdot_d(a, b) < 0.0 ? qneg(b) : b;
        if (qdot_d(a, b_short) > 0.999) continue;
        versor ga, gb, gd;
        to_versor(a, ga);
        to_versor(b_short, gb);
        glm_quat_slerp(ga, gb, t, gd);
        check_quat_near(sw_quat_slerp(a, b, t), gd, 1e-5);
        check_quat_near(sw_quat_slerp(a, b_short, t), gd, 1e-5);
        compared++;
    }
    SW_CHECK(compared > 1900);
}

static void test_quat_slerp_shortest_path(void) {
    rng r = {0x5407};
    for (int i = 0; i < 500; i++) {
        sw_quat a = rng_quat(&r), b = rng_quat(&r);
        if (qdot_d(a, b) > 0.0) b = qneg(b); /* force the long-arc input */
        if (qdot_d(a, b) > -0.01) continue;  /* keep the sign choice unambiguous */
        sw_quat s = sw_quat_slerp(a, b, 0.5f);
        sw_quat s_neg = sw_quat_slerp(a, qneg(b), 0.5f);
        SW_CHECK_NEAR(s.x, s_neg.x, 1e-6);
        SW_CHECK_NEAR(s.y, s_neg.y, 1e-6);
        SW_CHECK_NEAR(s.z, s_neg.z, 1e-6);
        SW_CHECK_NEAR(s.w, s_neg.w, 1e-6);
        /* Rotation angle from a to s is half the shortest rotation angle a→b. */
        double shortest = 2.0 * angle4_d(a, qneg(b));
        double half = 2.0 * angle4_d(a, s);
        SW_CHECK_NEAR(half, 0.5 * shortest, 2e-5);
        SW_CHECK(qdot_d(a, s) > 0.0);
    }
}

static void test_quat_slerp_endpoints(void) {
    rng r = {0xE4D};
    for (int i = 0; i < 500; i++) {
        sw_quat a = rng_quat(&r), b = rng_quat(&r);
        sw_quat s0 = sw_quat_slerp(a, b, 0.0f), s1 = sw_quat_slerp(a, b, 1.0f);
        SW_CHECK_NEAR(s0.x, a.x, 1e-6);
        SW_CHECK_NEAR(s0.y, a.y, 1e-6);
        SW_CHECK_NEAR(s0.z, a.z, 1e-6);
        SW_CHECK_NEAR(s0.w, a.w, 1e-6);
        /* t = 1 gives b on the short arc: b itself, or −b when a·b < 0. */
        double sign = qdot_d(a, b) < 0.0 ? -1.0 : 1.0;
        SW_CHECK_NEAR(s1.x, sign * b.x, 1e-6);
        SW_CHECK_NEAR(s1.y, sign * b.y, 1e-6);
        SW_CHECK_NEAR(s1.z, sign * b.z, 1e-6);
        SW_CHECK_NEAR(s1.w, sign * b.w, 1e-6);
    }
    /* a == b and a == −b: no NaN (the nlerp fallback). */
    sw_quat a = rng_quat(&r);
    sw_quat s = sw_quat_slerp(a, a, 0.3f), sn = sw_quat_slerp(a, qneg(a), 0.3f);
    SW_CHECK_NEAR(qdot_d(s, a), 1.0, 1e-6);
    SW_CHECK_NEAR(qdot_d(sn, a), 1.0, 1e-6);
}

static void test_quat_slerp_constant_speed(void) {
    rng r = {0xC0A5};
    for (int i = 0; i < 300; i++) {
        sw_quat a = rng_quat(&r), b = rng_quat(&r);
        sw_quat b_short = qdot_d(a, b) < 0.0 ? qneg(b) : b;
        double theta = angle4_d(a, b_short);
        if (theta < 0.05) continue; /* away from the nlerp fallback */
        for (int k = 0; k <= 10; k++) {
            float t = (float)k / 10.0f;
            sw_quat s = sw_quat_slerp(a, b, t);
            SW_CHECK_NEAR(angle4_d(a, s), t * theta, 2e-5);
            SW_CHECK_NEAR(angle4_d(s, b_short), (1.0 - t) * theta, 2e-5);
            SW_CHECK_NEAR(qlen_d(s), 1.0, 2e-6);
        }
    }
}

/* ---- sw_quat_slerp_fast ----------------------------------------------------- */

/* Slerp in double from the float inputs (normalised in double), on the
   shorter arc: the exact value sw_quat_slerp_fast approximates. */
static void slerp_exact_d(sw_quat af, sw_quat bf, double t, double out[4]) {
    double a[4] = {af.x, af.y, af.z, af.w}, b[4] = {bf.x, bf.y, bf.z, bf.w};
    double na = qlen_d(af), nb = qlen_d(bf), dot = 0.0;
    for (int i = 0; i < 4; i++) {
        a[i] /= na;
        b[i] /= nb;
        dot += a[i] * b[i];
    }
    if (dot < 0.0)
        for (int i = 0; i < 4; i++) b[i] = -b[i];
    /* The angle from chord lengths, accurate near 0 and π. */
    double dn = 0.0, sn = 0.0;
    for (int i = 0; i < 4; i++) {
        dn += (a[i] - b[i]) * (a[i] - b[i]);
        sn += (a[i] + b[i]) * (a[i] + b[i]);
    }
    const double theta = 2.0 * atan2(sqrt(dn), sqrt(sn));
    double wa = 1.0 - t, wb = t;
    if (theta > 1e-12) {
        wa = sin((1.0 - t) * theta) / sin(theta);
        wb = sin(t * theta) / sin(theta);
    }
    double n = 0.0;
    for (int i = 0; i < 4; i++) {
        out[i] = wa * a[i] + wb * b[i];
        n += out[i] * out[i];
    }
    n = sqrt(n);
    for (int i = 0; i < 4; i++) out[i] /= n;
}

/* Largest component error of sw_quat_slerp_fast against slerp_exact_d. */
static double slerp_fast_error(sw_quat a, sw_quat b, float t) {
    double e[4];
    slerp_exact_d(a, b, t, e);
    sw_quat f = sw_quat_slerp_fast(a, b, t);
    double got[4] = {f.x, f.y, f.z, f.w}, worst = 0.0;
    for (int i = 0; i < 4; i++) worst = fmax(worst, fabs(got[i] - e[i]));
    return worst;
}

/* Against the exact slerp over 10⁶ random pairs: a third uniform, a third
   keyframe-like (a few degrees apart), a third nearly opposite (a·b ≈ 0
   after the sign flip, the series' worst case, where the half angle is 45°).
   Measured: max component error 1.95e-7 (the approximation itself is
   6.5e-8, the rest float round-off); sw_quat_slerp (acosf, sinf) is 5.0e-7
   from exact on the same pairs. The bound checked is 2.5e-7. */
static void test_quat_slerp_fast_vs_exact(void) {
    rng r = {0xFA57};
    double worst = 0.0, worst_exact_slerp = 0.0;
    for (int i = 0; i < 1000000; i++) {
        sw_quat a = rng_quat(&r), b = rng_quat(&r);
        if (i % 3 == 1) {
            sw_quat d = sw_quat_from_axis_angle(rng_vec3(&r, -1, 1), rng_range(&r, 0, 0.2));
            b = sw_quat_normalize(sw_quat_mul(a, d));
        } else if (i % 3 == 2) {
            sw_quat d = sw_quat_from_axis_angle(rng_vec3(&r, -1, 1), rng_range(&r, 3.0, SW_PI));
            b = sw_quat_normalize(sw_quat_mul(a, d));
        }
        if (i % 2) b = qneg(b);
        float t = (float)rng_unit(&r);
        worst = fmax(worst, slerp_fast_error(a, b, t));
        if (i % 10 == 0) {
            double e[4];
            slerp_exact_d(a, b, t, e);
            sw_quat x = sw_quat_slerp(a, b, t);
            double sign = x.x * e[0] + x.y * e[1] + x.z * e[2] + x.w * e[3] < 0.0 ? -1.0 : 1.0;
            worst_exact_slerp = fmax(worst_exact_slerp, fabs(sign * x.x - e[0]));
            worst_exact_slerp = fmax(worst_exact_slerp, fabs(sign * x.w - e[3]));
        }
    }
    printf("  sw_quat_slerp_fast: max error %.3g vs exact; sw_quat_slerp: %.3g\n", worst, worst_exact_slerp);
    SW_CHECK(worst <= 2.5e-7);
    /* Every t on a grid, at the series' worst angle (a·b = 0) and near it. */
    const double angles[] = {SW_PI / 2, SW_PI / 2 - 1e-3, 1.0, 1e-3, 1e-6, 0.0};
    for (size_t k = 0; k < sizeof angles / sizeof angles[0]; k++) {
        sw_quat a = rng_quat(&r);
        sw_quat b = sw_quat_normalize(sw_quat_mul(a, sw_quat_from_axis_angle(rng_vec3(&r, -1, 1), (float)angles[k])));
        for (int j = 0; j <= 64; j++) SW_CHECK(slerp_fast_error(a, b, (float)j / 64.0f) <= 2.5e-7);
    }
}

static void test_quat_slerp_fast_vs_cglm(void) {
    rng r = {0xC6F5};
    int compared = 0;
    double worst_cglm = 0.0;
    for (int i = 0; i < 20000; i++) {
        sw_quat a = rng_quat(&r), b = rng_quat(&r);
        float t = rng_range(&r, 0, 1);
        /* cglm flips `from` on the long arc and lerps when nearly parallel:
           compare on the short arc, away from its fallback. */
        sw_quat b_short = qdot_d(a, b) < 0.0 ? qneg(b) : b;
        if (qdot_d(a, b_short) > 0.999) continue;
        versor ga, gb, gd;
        to_versor(a, ga);
        to_versor(b_short, gb);
        glm_quat_slerp(ga, gb, t, gd);
        check_quat_near(sw_quat_slerp_fast(a, b, t), gd, 6e-6);
        check_quat_near(sw_quat_slerp_fast(a, b_short, t), gd, 6e-6);
        double e[4];
        slerp_exact_d(a, b, t, e);
        for (int c = 0; c < 4; c++) worst_cglm = fmax(worst_cglm, fabs(gd[c] - e[c]));
        compared++;
    }
    SW_CHECK(compared > 19000);
    /* cglm's float acosf/sinf slerp is itself up to 5.1e-6 from exact on
       these pairs, which sets the tolerance above. */
    printf("  cglm glm_quat_slerp: max error %.3g vs exact\n", worst_cglm);
}

static void test_quat_slerp_fast_semantics(void) {
    rng r = {0x5E4A};
    for (int i = 0; i < 2000; i++) {
        sw_quat a = rng_quat(&r), b = rng_quat(&r);
        /* Endpoints: a at t = 0, b on the short arc at t = 1, to round-off. */
        double sign = qdot_d(a, b) < 0.0 ? -1.0 : 1.0;
        sw_quat s0 = sw_quat_slerp_fast(a, b, 0.0f), s1 = sw_quat_slerp_fast(a, b, 1.0f);
        check_quat_near(s0, (const float[]){a.x, a.y, a.z, a.w}, 2e-7);
        check_quat_near(s1, (const float[]){(float)sign * b.x, (float)sign * b.y, (float)sign * b.z, (float)sign * b.w},
                        2e-7);
        /* The same shorter arc as sw_quat_slerp, whichever sign b is given with. */
        float t = rng_range(&r, 0, 1);
        sw_quat f = sw_quat_slerp_fast(a, b, t), fn = sw_quat_slerp_fast(a, qneg(b), t);
        check_quat_near(f, (const float[]){fn.x, fn.y, fn.z, fn.w}, 2e-7);
        sw_quat x = sw_quat_slerp(a, b, t);
        check_quat_near(f, (const float[]){x.x, x.y, x.z, x.w}, 1e-6);
        SW_CHECK_NEAR(qlen_d(f), 1.0, 2e-7);
        /* Constant speed: the angle from a is t times the whole angle. */
        double theta = angle4_d(a, sign < 0.0 ? qneg(b) : b);
        SW_CHECK_NEAR(angle4_d(a, f), t * theta, 1e-6);
    }
    /* a = ±b: a itself, no NaN, no special case needed. */
    sw_quat a = rng_quat(&r);
    for (int k = 0; k <= 4; k++) {
        check_quat_near(sw_quat_slerp_fast(a, a, (float)k / 4), (const float[]){a.x, a.y, a.z, a.w}, 2e-7);
        check_quat_near(sw_quat_slerp_fast(a, qneg(a), (float)k / 4), (const float[]){a.x, a.y, a.z, a.w}, 2e-7);
    }
    /* Hand value: identity → 90° about Z at t = 1/4 is 22.5° about Z. */
    sw_quat z90 = {0.0f, 0.0f, (float)sqrt(0.5), (float)sqrt(0.5)};
    check_quat_near(sw_quat_slerp_fast(sw_quat_identity(), z90, 0.25f),
                    (const float[]){0.0f, 0.0f, 0.19509032202f, 0.98078528040f}, 2e-7);
}

static void test_quat_nlerp_vs_cglm(void) {
    rng r = {0x41E4};
    for (int i = 0; i < 2000; i++) {
        sw_quat a = rng_quat(&r), b = rng_quat(&r);
        float t = rng_range(&r, 0, 1);
        versor ga, gb, gd;
        to_versor(a, ga);
        to_versor(b, gb);
        glm_quat_nlerp(ga, gb, t, gd);
        sw_quat n = sw_quat_nlerp(a, b, t);
        check_quat_near(n, gd, 1e-5);
        SW_CHECK_NEAR(qlen_d(n), 1.0, 1e-6);
        /* Shorter arc: the result lies in a's hemisphere. */
        SW_CHECK(qdot_d(n, a) >= 0.0);
    }
}

static void test_quat_from_axis_angle(void) {
    /* 90° about X: (sin 45°, 0, 0, cos 45°). */
    sw_quat q = sw_quat_from_axis_angle(sw_vec3_make(1, 0, 0), (float)(SW_PI / 2));
    SW_CHECK_NEAR(q.x, sqrt(0.5), 1e-7);
    SW_CHECK_NEAR(q.y, 0.0, 1e-7);
    SW_CHECK_NEAR(q.z, 0.0, 1e-7);
    SW_CHECK_NEAR(q.w, sqrt(0.5), 1e-7);
    /* Axis need not be unit: 60° about (0, 0, 5) is (0, 0, sin 30°, cos 30°). */
    q = sw_quat_from_axis_angle(sw_vec3_make(0, 0, 5), (float)(SW_PI / 3));
    SW_CHECK_NEAR(q.x, 0.0, 1e-7);
    SW_CHECK_NEAR(q.y, 0.0, 1e-7);
    SW_CHECK_NEAR(q.z, 0.5, 1e-7);
    SW_CHECK_NEAR(q.w, sqrt(0.75), 1e-7);
    /* Zero axis gives identity. */
    q = sw_quat_from_axis_angle(sw_vec3_make(0, 0, 0), 1.0f);
    SW_CHECK(q.x == 0.0f && q.y == 0.0f && q.z == 0.0f && q.w == 1.0f);
    /* Random axes and angles against cglm's glm_quatv. */
    rng r = {0xA815};
    for (int i = 0; i < 1000; i++) {
        sw_vec3 axis = rng_vec3(&r, -3, 3);
        if (sw_vec3_length(axis) < 0.1f) continue;
        float angle = rng_range(&r, -2 * SW_PI, 2 * SW_PI);
        versor gq;
        vec3 gaxis = {axis.x, axis.y, axis.z};
        glm_quatv(gq, angle, gaxis);
        check_quat_near(sw_quat_from_axis_angle(axis, angle), gq, 1e-6);
    }
}

static sw_mat34 rot_mat34_from_double(sw_quat q, sw_vec3 t) {
    double m[3][3];
    quat_to_rot_d(q, m);
    sw_mat34 out;
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) out.m[i][j] = (float)m[i][j];
    }
    out.m[0][3] = t.x;
    out.m[1][3] = t.y;
    out.m[2][3] = t.z;
    return out;
}

static void check_from_mat34_case(sw_quat q, sw_vec3 t, double tol) {
    /* Independent matrix (double formula) → quaternion. */
    sw_mat34 m = rot_mat34_from_double(q, t);
    sw_quat got = sw_quat_from_mat34(&m);
    check_quat_same_rotation(got, q, tol);
    SW_CHECK(got.w >= 0.0f);
    SW_CHECK_NEAR(qlen_d(got), 1.0, 1e-6);
    /* Round trip through the library's own TRS → matrix. */
    sw_transform tr = {t, q, {1, 1, 1}};
    sw_mat34 m2 = sw_transform_to_mat34(&tr);
    sw_quat got2 = sw_quat_from_mat34(&m2);
    check_quat_same_rotation(got2, q, tol);
    SW_CHECK(got2.w >= 0.0f);
}

/* Columns scaled by 2, 0.5 and 3 (an armature in centimetres, a squash):
   the same rotation as unscaled; sw_quat_from_mat34 alone would not give it. */
static void test_quat_from_scaled_mat34(void) {
    rng r = {0x5CA1};
    for (int i = 0; i < 200; i++) {
        sw_quat q = rng_quat(&r);
        sw_mat34 m = rot_mat34_from_double(q, rng_vec3(&r, -5, 5));
        const float scale[3] = {2.0f, 0.5f, 3.0f};
        for (int row = 0; row < 3; row++)
            for (int c = 0; c < 3; c++) m.m[row][c] *= scale[c];
        check_quat_same_rotation(sw_quat_from_scaled_mat34(&m), q, 2e-6);
    }
}

static void test_quat_from_mat34_round_trip(void) {
    rng r = {0x3A7};
    for (int i = 0; i < 1000; i++) check_from_mat34_case(rng_quat(&r), rng_vec3(&r, -5, 5), 2e-6);
    /* Near and at 180°, where w → 0 and the trace-based formula breaks down;
       coordinate axes make the trace exactly −1. */
    const double offsets[] = {0.0, 1e-5, 1e-3, 1e-2};
    const sw_vec3 axes[] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 0}, {-1, 2, 3}, {0.3f, -0.2f, -0.9f}};
    for (size_t a = 0; a < sizeof axes / sizeof axes[0]; a++) {
        for (size_t o = 0; o < sizeof offsets / sizeof offsets[0]; o++) {
            double angle = SW_PI - offsets[o];
            double n = sqrt((double)axes[a].x * axes[a].x + (double)axes[a].y * axes[a].y +
                            (double)axes[a].z * axes[a].z);
            double s = sin(angle / 2) / n;
            sw_quat q = {(float)(axes[a].x * s), (float)(axes[a].y * s), (float)(axes[a].z * s),
                         (float)cos(angle / 2)};
            check_from_mat34_case(q, sw_vec3_make(1, 2, 3), 2e-6);
        }
    }
    for (int i = 0; i < 300; i++) {
        sw_vec3 axis = rng_vec3(&r, -1, 1);
        double n = sw_vec3_length(axis);
        if (n < 0.1) continue;
        double angle = SW_PI - 0.01 * rng_unit(&r);
        double s = sin(angle / 2) / n;
        sw_quat q = {(float)(axis.x * s), (float)(axis.y * s), (float)(axis.z * s), (float)cos(angle / 2)};
        check_from_mat34_case(q, sw_vec3_make(0, 0, 0), 2e-6);
    }
}

int main(void) {
    SW_RUN(test_quat_identity_and_conjugate);
    SW_RUN(test_quat_dot_vs_double);
    SW_RUN(test_quat_mul_vs_cglm);
    SW_RUN(test_quat_mul_composes_b_then_a);
    SW_RUN(test_quat_rotate_vs_cglm);
    SW_RUN(test_quat_normalize_vs_cglm);
    SW_RUN(test_quat_slerp_vs_cglm);
    SW_RUN(test_quat_slerp_shortest_path);
    SW_RUN(test_quat_slerp_endpoints);
    SW_RUN(test_quat_slerp_constant_speed);
    SW_RUN(test_quat_slerp_fast_vs_exact);
    SW_RUN(test_quat_slerp_fast_vs_cglm);
    SW_RUN(test_quat_slerp_fast_semantics);
    SW_RUN(test_quat_nlerp_vs_cglm);
    SW_RUN(test_quat_from_axis_angle);
    SW_RUN(test_quat_from_mat34_round_trip);
    SW_RUN(test_quat_from_scaled_mat34);
    return sw_test_finish();
}
