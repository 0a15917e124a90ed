/* The library's maths kit in double (src/math/mat3d_internal.h), which IK,
   root motion, retargeting, the checks and skin retention share: each
   function against hand values or an identity it must satisfy (a rotation
   and its quaternion agree, A·A⁻¹ = I, the polar factor of R·K is R, the
   eigenvalues of Q·D·Qᵀ are D), in every branch it has. */
#include <string.h>

#include "harness.h"
#include "../../src/math/mat3d_internal.h"

static uint64_t sw__state = 0x9E3779B97F4A7C15ull;
static double rnd(double lo, double hi) {
    sw__state ^= sw__state << 13, sw__state ^= sw__state >> 7, sw__state ^= sw__state << 17;
    return lo + (hi - lo) * (double)(sw__state >> 11) / 9007199254740992.0;
}

static sw__quatd random_unit_quat(void) {
    sw__quatd q = {rnd(-1, 1), rnd(-1, 1), rnd(-1, 1), rnd(-1, 1)};
    return sw__quatd_normalize(q);
}

static void check_mat_near(const sw__mat3d* a, const sw__mat3d* b, double tol) {
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) SW_CHECK_NEAR(a->m[r][c], b->m[r][c], tol);
}

static void check_vec_near(sw__vec3d a, sw__vec3d b, double tol) {
    SW_CHECK_NEAR(a.x, b.x, tol);
    SW_CHECK_NEAR(a.y, b.y, tol);
    SW_CHECK_NEAR(a.z, b.z, tol);
}

static sw__mat3d transpose(const sw__mat3d* a) {
    sw__mat3d t;
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) t.m[r][c] = a->m[c][r];
    return t;
}

static void test_vectors(void) {
    const sw__vec3d a = sw__vec3d_make(1, 2, 3), b = sw__vec3d_make(-2, 0.5, 4);
    SW_CHECK(sw__vec3d_dot(a, b) == 11.0);
    check_vec_near(sw__vec3d_cross(a, b), sw__vec3d_make(6.5, -10, 4.5), 0.0);
    SW_CHECK(sw__vec3d_length(sw__vec3d_make(2, 3, 6)) == 7.0);
    /* reject: no part along u left */
    const sw__vec3d u = sw__vec3d_make(0.6, 0.0, 0.8);
    SW_CHECK_NEAR(sw__vec3d_dot(sw__vec3d_reject(a, u), u), 0.0, 1e-15);
    /* unit: made unit above min_len, untouched (and false) at or below it */
    sw__vec3d v = sw__vec3d_make(0, 3, 4);
    SW_CHECK(sw__vec3d_unit(&v, 1.0));
    check_vec_near(v, sw__vec3d_make(0, 0.6, 0.8), 1e-15);
    v = sw__vec3d_make(0, 3, 4);
    SW_CHECK(!sw__vec3d_unit(&v, 5.0) && v.y == 3.0 && v.z == 4.0);
    v = sw__vec3d_make(0, 0, 0);
    SW_CHECK(!sw__vec3d_unit(&v, 0.0));
    /* any perpendicular: unit and perpendicular, for each axis being the least */
    const sw__vec3d dirs[4] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0.48, -0.6, 0.64}};
    for (int i = 0; i < 4; i++) {
        sw__vec3d p = sw__vec3d_any_perpendicular(dirs[i]);
        SW_CHECK_NEAR(sw__vec3d_dot(p, dirs[i]), 0.0, 1e-15);
        SW_CHECK_NEAR(sw__vec3d_length(p), 1.0, 1e-15);
    }
    /* angle: accurate next to π, where acos of the dot is not */
    SW_CHECK_NEAR(sw__vec3d_angle(sw__vec3d_make(1, 0, 0), sw__vec3d_make(-1, 1e-9, 0)), SW_PI - 1e-9, 1e-15);
    SW_CHECK_NEAR(sw__vec3d_angle(sw__vec3d_make(2, 0, 0), sw__vec3d_make(0, 0, -3)), SW_PI / 2, 1e-15);
}

static void test_quaternions(void) {
    /* 90° about z: x → y, and its matrix by hand */
    const sw__quatd qz = sw__quatd_axis_angle(sw__vec3d_make(0, 0, 1), SW_PI / 2);
    check_vec_near(sw__quatd_rotate(qz, sw__vec3d_make(1, 0, 0)), sw__vec3d_make(0, 1, 0), 1e-15);
    const sw__mat3d rz = {{{0, -1, 0}, {1, 0, 0}, {0, 0, 1}}}, mz = sw__mat3d_from_quatd(qz);
    check_mat_near(&mz, &rz, 1e-15);
    /* the identity rotates exactly; a zero quaternion normalises to it */
    const sw__vec3d odd = sw__vec3d_make(0.1, -7.3, 1e-30);
    const sw__vec3d same = sw__quatd_rotate(sw__quatd_identity(), odd);
    SW_CHECK(same.x == odd.x && same.y == odd.y && same.z == odd.z);
    const sw__quatd zero = {0, 0, 0, 0}, one = sw__quatd_normalize(zero);
    SW_CHECK(one.x == 0 && one.y == 0 && one.z == 0 && one.w == 1);
    for (int i = 0; i < 200; i++) {
        const sw__quatd q = random_unit_quat(), p = random_unit_quat();
        const sw__vec3d x = sw__vec3d_make(rnd(-2, 2), rnd(-2, 2), rnd(-2, 2));
        /* rotate, the matrix and the product agree */
        const sw__mat3d m = sw__mat3d_from_quatd(q);
        check_vec_near(sw__quatd_rotate(q, x), sw__mat3d_apply(&m, x), 1e-14);
        check_vec_near(sw__quatd_rotate(sw__quatd_mul(q, p), x), sw__quatd_rotate(q, sw__quatd_rotate(p, x)), 1e-14);
        check_vec_near(sw__quatd_rotate(sw__quatd_conj(q), sw__quatd_rotate(q, x)), x, 1e-14);
        /* the matrix's quaternion is q up to sign */
        const sw__quatd back = sw__quatd_from_mat3d(&m);
        const double s = back.w * q.w + back.x * q.x + back.y * q.y + back.z * q.z < 0 ? -1.0 : 1.0;
        SW_CHECK_NEAR(s * back.x, q.x, 1e-14);
        SW_CHECK_NEAR(s * back.y, q.y, 1e-14);
        SW_CHECK_NEAR(s * back.z, q.z, 1e-14);
        SW_CHECK_NEAR(s * back.w, q.w, 1e-14);
        /* pow: half twice is the whole (the shorter arc), 0 the identity, 1 q itself */
        const sw__quatd h = sw__quatd_pow(q, 0.5);
        check_vec_near(sw__quatd_rotate(sw__quatd_mul(h, h), x), sw__quatd_rotate(q, x), 1e-13);
        SW_CHECK(h.w >= 0.0);
        check_vec_near(sw__quatd_rotate(sw__quatd_pow(q, 0.0), x), x, 1e-15);
        check_vec_near(sw__quatd_rotate(sw__quatd_pow(q, 1.0), x), sw__quatd_rotate(q, x), 1e-14);
        /* arc: a onto b */
        sw__vec3d a = x, b = sw__vec3d_make(rnd(-2, 2), rnd(-2, 2), rnd(-2, 2));
        sw__vec3d_unit(&a, 0.0), sw__vec3d_unit(&b, 0.0);
        check_vec_near(sw__quatd_rotate(sw__quatd_arc(a, b), a), b, 1e-13);
    }
    /* Shepperd's four branches: a half turn about each axis, and a small turn */
    const sw__vec3d axes[4] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0.48, -0.6, 0.64}};
    const double angles[4] = {3.1, 3.0, 3.14, 0.2};
    for (int i = 0; i < 4; i++) {
        const sw__quatd q = sw__quatd_axis_angle(axes[i], angles[i]);
        const sw__mat3d m = sw__mat3d_from_quatd(q);
        const sw__quatd back = sw__quatd_from_mat3d(&m);
        const double s = back.w * q.w < 0 || (q.w == 0 && back.x * q.x < 0) ? -1.0 : 1.0;
        SW_CHECK_NEAR(s * back.x, q.x, 1e-15);
        SW_CHECK_NEAR(s * back.y, q.y, 1e-15);
        SW_CHECK_NEAR(s * back.z, q.z, 1e-15);
        SW_CHECK_NEAR(s * back.w, q.w, 1e-15);
    }
}

static void test_matrices(void) {
    const sw__mat3d a = {{{2, -1, 0}, {1, 3, 2}, {0, 1, 4}}};
    SW_CHECK(sw__mat3d_det(&a) == 24.0);
    SW_CHECK(sw__mat3d_max_abs(&a) == 4.0);
    /* cofactor = det · A⁻ᵀ */
    const sw__mat3d c = sw__mat3d_cofactor(&a), ct = transpose(&c), prod = sw__mat3d_mul(&a, &ct);
    const sw__mat3d det_i = {{{24, 0, 0}, {0, 24, 0}, {0, 0, 24}}};
    check_mat_near(&prod, &det_i, 1e-13);
    sw__mat3d inv;
    SW_CHECK(sw__mat3d_inverse(&inv, &a));
    const sw__mat3d i1 = sw__mat3d_mul(&a, &inv), i2 = sw__mat3d_mul(&inv, &a), id = sw__mat3d_identity();
    check_mat_near(&i1, &id, 1e-15);
    check_mat_near(&i2, &id, 1e-15);
    /* singular relative to its own scale: rank 2 refused; a tiny uniform scale inverts */
    const sw__mat3d rank2 = {{{1, 2, 3}, {2, 4, 6}, {0, 1, 1}}};
    sw__mat3d untouched = id;
    SW_CHECK(!sw__mat3d_inverse(&untouched, &rank2));
    check_mat_near(&untouched, &id, 0.0);
    const sw__mat3d tiny = {{{1e-6, 0, 0}, {0, 1e-6, 0}, {0, 0, 1e-6}}};
    SW_CHECK(sw__mat3d_inverse(&inv, &tiny) && fabs(inv.m[1][1] - 1e6) < 1e-3);
    /* apply and mul agree */
    const sw__vec3d v = sw__vec3d_make(1, -2, 0.5);
    check_vec_near(sw__mat3d_apply(&a, v), sw__vec3d_make(4, -4, 0), 0.0);
    /* mat34's 3×3: the translation dropped */
    const sw_mat34 m34 = {{{1, 2, 3, 9}, {4, 5, 6, 9}, {7, 8, 10, 9}}};
    const sw__mat3d m3 = sw__mat3d_from_mat34(&m34);
    SW_CHECK(m3.m[2][2] == 10.0 && m3.m[0][2] == 3.0 && sw__mat3d_det(&m3) == -3.0);
    /* a rotation is orthogonal, a scale is not */
    const sw__mat3d r = sw__mat3d_from_quatd(sw__quatd_axis_angle(sw__vec3d_make(0.6, 0.8, 0), 1.0));
    SW_CHECK(sw__mat3d_orthogonality_defect(&r) < 1e-15);
    SW_CHECK_NEAR(sw__mat3d_orthogonality_defect(&tiny), 1.0, 1e-9);
}

/* R·K with K symmetric positive definite (a scale and shear): both polar
   iterations give R back; the checks' angle between rotations by hand. */
static void test_polar_and_spectra(void) {
    for (int i = 0; i < 100; i++) {
        const sw__mat3d r = sw__mat3d_from_quatd(random_unit_quat()), q = sw__mat3d_from_quatd(random_unit_quat());
        /* K = Q·diag(d)·Qᵀ */
        const double d[3] = {rnd(0.2, 5), rnd(0.2, 5), rnd(0.2, 5)};
        sw__mat3d qd = q;
        for (int row = 0; row < 3; row++)
            for (int col = 0; col < 3; col++) qd.m[row][col] *= d[col];
        const sw__mat3d qt = transpose(&q), k = sw__mat3d_mul(&qd, &qt), rk = sw__mat3d_mul(&r, &k);
        const sw__mat3d o = sw__mat3d_orthogonal(&rk), n = sw__mat3d_nearest_rotation(rk);
        check_mat_near(&o, &r, 1e-12);
        check_mat_near(&n, &r, 1e-12);
        /* the eigenvalues of K and the singular values of R·K are d, largest first */
        double want[3] = {d[0], d[1], d[2]};
        for (int x = 0; x < 3; x++)
            for (int y = x + 1; y < 3; y++)
                if (want[y] > want[x]) {
                    double t = want[x];
                    want[x] = want[y], want[y] = t;
                }
        double eig[3], sv[3];
        sw__mat3d_sym_eigenvalues(&k, eig);
        sw__mat3d_singular_values(&rk, sv);
        for (int x = 0; x < 3; x++) {
            SW_CHECK_NEAR(eig[x], want[x], 1e-10);
            SW_CHECK_NEAR(sv[x], want[x], 1e-10);
        }
    }
    /* one γ = 1 step from a rotation changes nothing: cof(R)/det = R */
    const sw__mat3d r = sw__mat3d_from_quatd(sw__quatd_axis_angle(sw__vec3d_make(0, 0, 1), 0.7));
    sw__mat3d step = r;
    double sum;
    SW_CHECK(sw__mat3d_polar_step(&step, sw__mat3d_det(&step), 1.0, &sum) < 1e-15 && sum < 1e-14);
    /* singular or zero: the identity */
    const sw__mat3d zero = {{{0}}}, flat = {{{1, 0, 0}, {0, 1, 0}, {0, 0, 0}}}, id = sw__mat3d_identity();
    const sw__mat3d oz = sw__mat3d_orthogonal(&zero), of = sw__mat3d_orthogonal(&flat);
    check_mat_near(&oz, &id, 0.0);
    check_mat_near(&of, &id, 0.0);
    /* a reflection stays one under sw__mat3d_orthogonal */
    const sw__mat3d mirror = {{{-2, 0, 0}, {0, 1, 0}, {0, 0, 3}}}, om = sw__mat3d_orthogonal(&mirror);
    const sw__mat3d m1 = {{{-1, 0, 0}, {0, 1, 0}, {0, 0, 1}}};
    check_mat_near(&om, &m1, 1e-14);
    /* the angle between two rotations */
    const sw__mat3d a = sw__mat3d_from_quatd(sw__quatd_axis_angle(sw__vec3d_make(0.48, -0.6, 0.64), 0.3));
    const sw__mat3d b = sw__mat3d_from_quatd(sw__quatd_axis_angle(sw__vec3d_make(0.48, -0.6, 0.64), 2.2));
    SW_CHECK_NEAR(sw__mat3d_angle_between(&a, &b), 1.9, 1e-7); /* acos near its ends keeps ~half the digits */
    SW_CHECK(sw__mat3d_angle_between(&a, &a) < 1e-7);
}

int main(void) {
    SW_RUN(test_vectors);
    SW_RUN(test_quaternions);
    SW_RUN(test_matrices);
    SW_RUN(test_polar_and_spectra);
    return sw_test_finish();
}
