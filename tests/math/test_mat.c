/* TRS transforms, 3×4 affine rows and 4×4 matrices against double-precision references, cglm 0.8.8 and hand values. */
#include <cglm/cglm.h>
#include <string.h>

#include "harness.h"
#include "test_random.h"
#include "sinew/math.h"

/* ---- double-precision reference ------------------------------------------- */

typedef struct d34 { double m[3][4]; } d34;

static d34 d34_from(const sw_mat34* a) {
    d34 out;
    for (int r = 0; r < 3; r++) {
        for (int c = 0; c < 4; c++) out.m[r][c] = a->m[r][c];
    }
    return out;
}

/* a·b with the implicit bottom row 0 0 0 1. */
static d34 d34_mul(const d34* a, const d34* b) {
    d34 out;
    for (int r = 0; r < 3; r++) {
        for (int c = 0; c < 4; c++) {
            double s = c == 3 ? a->m[r][3] : 0.0;
            for (int k = 0; k < 3; k++) s += a->m[r][k] * b->m[k][c];
            out.m[r][c] = s;
        }
    }
    return out;
}

static void quat_to_rot_d(sw_quat qf, double m[3][3]) {
    double n = sqrt((double)qf.x * qf.x + (double)qf.y * qf.y + (double)qf.z * qf.z + (double)qf.w * qf.w);
    double x = qf.x / n, y = qf.y / n, z = qf.z / n, w = qf.w / n;
    m[0][0] = 1 - 2 * (y * y + z * z); m[0][1] = 2 * (x * y - w * z);     m[0][2] = 2 * (x * z + w * y);
    m[1][0] = 2 * (x * y + w * z);     m[1][1] = 1 - 2 * (x * x + z * z); m[1][2] = 2 * (y * z - w * x);
    m[2][0] = 2 * (x * z - w * y);     m[2][1] = 2 * (y * z + w * x);     m[2][2] = 1 - 2 * (x * x + y * y);
}

/* T·R·S in double. */
static d34 trs_d(const sw_transform* t) {
    double rot[3][3];
    quat_to_rot_d(t->rotation, rot);
    const double s[3] = {t->scale.x, t->scale.y, t->scale.z};
    const double tr[3] = {t->translation.x, t->translation.y, t->translation.z};
    d34 out;
    for (int r = 0; r < 3; r++) {
        for (int c = 0; c < 3; c++) out.m[r][c] = rot[r][c] * s[c];
        out.m[r][3] = tr[r];
    }
    return out;
}

static double det33_d(const double a[3][4]) {
    return a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
           a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
}

/* Gauss–Jordan with partial pivoting (a different algorithm from the adjugate). */
static int inv_nxn_d(int n, const double* a, double* out) {
    double w[4][8];
    for (int k = 0; k < n * n; k++) out[k] = 0.0; /* defined output when singular */
    for (int r = 0; r < n; r++) {
        for (int c = 0; c < n; c++) {
            w[r][c] = a[r * n + c];
            w[r][n + c] = r == c ? 1.0 : 0.0;
        }
    }
    for (int c = 0; c < n; c++) {
        int p = c;
        for (int r = c + 1; r < n; r++) {
            if (fabs(w[r][c]) > fabs(w[p][c])) p = r;
        }
        if (fabs(w[p][c]) < 1e-300) return 0;
        for (int k = 0; k < 2 * n; k++) {
            double tmp = w[c][k];
            w[c][k] = w[p][k];
            w[p][k] = tmp;
        }
        double inv = 1.0 / w[c][c];
        for (int k = 0; k < 2 * n; k++) w[c][k] *= inv;
        for (int r = 0; r < n; r++) {
            if (r == c) continue;
            double f = w[r][c];
            for (int k = 0; k < 2 * n; k++) w[r][k] -= f * w[c][k];
        }
    }
    for (int r = 0; r < n; r++) {
        for (int c = 0; c < n; c++) out[r * n + c] = w[r][n + c];
    }
    return 1;
}

/* Random affine map A = R1·diag(s)·R2 + t: general (sheared, non-uniform) with
   singular values in [smin, smax], so its conditioning is known. */
static sw_mat34 rng_affine(rng* r, double smin, double smax, double tmax) {
    double r1[3][3], r2[3][3];
    quat_to_rot_d(rng_quat(r), r1);
    quat_to_rot_d(rng_quat(r), r2);
    double s[3];
    for (int i = 0; i < 3; i++) s[i] = smin + (smax - smin) * rng_unit(r);
    sw_mat34 out;
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) {
            double v = 0.0;
            for (int k = 0; k < 3; k++) v += r1[i][k] * s[k] * r2[k][j];
            out.m[i][j] = (float)v;
        }
        out.m[i][3] = rng_range(r, -tmax, tmax);
    }
    return out;
}

static double max_abs_d34(const d34* a) {
    double m = 0.0;
    for (int r = 0; r < 3; r++) {
        for (int c = 0; c < 4; c++) m = fmax(m, fabs(a->m[r][c]));
    }
    return m;
}

static void check_mat34_near(const sw_mat34* got, const d34* expected, double tol) {
    for (int r = 0; r < 3; r++) {
        for (int c = 0; c < 4; c++) SW_CHECK_NEAR(got->m[r][c], expected->m[r][c], tol);
    }
}

static void check_mat34_is_identity(const sw_mat34* m) {
    for (int r = 0; r < 3; r++) {
        for (int c = 0; c < 4; c++) SW_CHECK(m->m[r][c] == (r == c ? 1.0f : 0.0f));
    }
}

/* ---- TRS ------------------------------------------------------------------ */

static void test_identities_and_translation(void) {
    sw_mat34 id = sw_mat34_identity();
    check_mat34_is_identity(&id);
    sw_transform tid = sw_transform_identity();
    SW_CHECK(tid.translation.x == 0 && tid.translation.y == 0 && tid.translation.z == 0);
    SW_CHECK(tid.rotation.x == 0 && tid.rotation.y == 0 && tid.rotation.z == 0 && tid.rotation.w == 1);
    SW_CHECK(tid.scale.x == 1 && tid.scale.y == 1 && tid.scale.z == 1);
    sw_mat34 m = sw_transform_to_mat34(&tid);
    check_mat34_is_identity(&m);
    sw_mat34 t = sw_mat34_translation(sw_vec3_make(1, 2, 3));
    for (int r = 0; r < 3; r++) {
        for (int c = 0; c < 3; c++) SW_CHECK(t.m[r][c] == (r == c ? 1.0f : 0.0f));
    }
    SW_CHECK(t.m[0][3] == 1.0f && t.m[1][3] == 2.0f && t.m[2][3] == 3.0f);
    sw_mat4 i4 = sw_mat4_identity();
    for (int k = 0; k < 16; k++) SW_CHECK(i4.m[k] == (k % 5 == 0 ? 1.0f : 0.0f));
}

static void test_trs_to_mat34_hand(void) {
    /* T(1,2,3)·Rz(90°)·S(2,3,4): Rz(90°) columns (0,1,0), (−1,0,0), (0,0,1) scaled by 2, 3, 4. */
    sw_transform t = {{1, 2, 3}, {0, 0, (float)sqrt(0.5), (float)sqrt(0.5)}, {2, 3, 4}};
    sw_mat34 m = sw_transform_to_mat34(&t);
    const d34 expected = {{{0, -3, 0, 1}, {2, 0, 0, 2}, {0, 0, 4, 3}}};
    check_mat34_near(&m, &expected, 1e-6);
}

static void test_trs_to_mat34_vs_double(void) {
    rng r = {0x7125};
    for (int i = 0; i < 1000; i++) {
        sw_transform t = rng_transform(&r, 5, 0.2, 3.0);
        sw_mat34 m = sw_transform_to_mat34(&t);
        d34 ref = trs_d(&t);
        check_mat34_near(&m, &ref, 2e-6);
        /* apply_point is T·R·S·p. */
        sw_vec3 p = rng_vec3(&r, -2, 2);
        sw_vec3 got = sw_transform_apply_point(&t, p);
        const double pd[3] = {p.x, p.y, p.z};
        double e[3];
        for (int k = 0; k < 3; k++) e[k] = ref.m[k][0] * pd[0] + ref.m[k][1] * pd[1] + ref.m[k][2] * pd[2] + ref.m[k][3];
        SW_CHECK_NEAR(got.x, e[0], 1e-5);
        SW_CHECK_NEAR(got.y, e[1], 1e-5);
        SW_CHECK_NEAR(got.z, e[2], 1e-5);
    }
}

static void test_transform_mul_uniform_parent(void) {
    rng r = {0x77A};
    for (int i = 0; i < 1000; i++) {
        sw_transform parent = rng_transform(&r, 5, 0.3, 3.0);
        float s = rng_range(&r, 0.3, 3.0);
        parent.scale = sw_vec3_make(s, s, s);
        sw_transform child = rng_transform(&r, 5, 0.3, 3.0);
        sw_transform pc = sw_transform_mul(&parent, &child);
        sw_mat34 got = sw_transform_to_mat34(&pc);
        d34 rp = trs_d(&parent), rc = trs_d(&child);
        d34 ref = d34_mul(&rp, &rc);
        double tol = 2e-6 * fmax(1.0, max_abs_d34(&ref));
        check_mat34_near(&got, &ref, tol);
        /* The matrix path agrees. */
        sw_mat34 mp = sw_transform_to_mat34(&parent), mc = sw_transform_to_mat34(&child);
        sw_mat34 prod = sw_mat34_mul(&mp, &mc);
        check_mat34_near(&prod, &ref, tol);
    }
}

/* ---- 3×4 and 4×4 products ------------------------------------------------- */

static void test_mat4_layout_round_trip(void) {
    sw_mat34 a;
    for (int r = 0; r < 3; r++) {
        for (int c = 0; c < 4; c++) a.m[r][c] = (float)(10 * r + c + 1);
    }
    sw_mat4 m = sw_mat4_from_mat34(&a);
    /* Column-major: element (row r, column c) at m[c*4 + r]; translation at 12..14. */
    for (int r = 0; r < 3; r++) {
        for (int c = 0; c < 4; c++) SW_CHECK(m.m[c * 4 + r] == a.m[r][c]);
    }
    SW_CHECK(m.m[3] == 0.0f && m.m[7] == 0.0f && m.m[11] == 0.0f && m.m[15] == 1.0f);
    SW_CHECK(m.m[12] == 4.0f && m.m[13] == 14.0f && m.m[14] == 24.0f);
    sw_mat34 back = sw_mat34_from_mat4(&m);
    SW_CHECK(memcmp(&back, &a, sizeof a) == 0);
    /* A glTF-style translation matrix, written by hand in column-major order. */
    sw_mat4 t = {{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 7, 8, 9, 1}};
    sw_mat34 t34 = sw_mat34_from_mat4(&t);
    const d34 expected = {{{1, 0, 0, 7}, {0, 1, 0, 8}, {0, 0, 1, 9}}};
    check_mat34_near(&t34, &expected, 0.0);
    /* Same layout as cglm's mat4 (float[4][4], m[column][row]). */
    mat4 g;
    memcpy(g, t.m, sizeof g);
    SW_CHECK(g[3][0] == 7.0f && g[3][1] == 8.0f && g[3][2] == 9.0f);
}

static void test_mat34_mul_vs_cglm(void) {
    rng r = {0x3434};
    for (int i = 0; i < 1000; i++) {
        sw_mat34 a = rng_affine(&r, 0.2, 3.0, 5.0), b = rng_affine(&r, 0.2, 3.0, 5.0);
        sw_mat34 ab = sw_mat34_mul(&a, &b);
        sw_mat4 a4 = sw_mat4_from_mat34(&a), b4 = sw_mat4_from_mat34(&b), ab4 = sw_mat4_from_mat34(&ab);
        mat4 ga, gb, gd;
        memcpy(ga, a4.m, sizeof ga);
        memcpy(gb, b4.m, sizeof gb);
        glm_mat4_mul(ga, gb, gd);
        const float* gdf = &gd[0][0];
        for (int k = 0; k < 16; k++) SW_CHECK_NEAR(ab4.m[k], gdf[k], 1e-5 * fmax(1.0, fabs(gdf[k])));
        /* And against double. */
        d34 da = d34_from(&a), db = d34_from(&b);
        d34 ref = d34_mul(&da, &db);
        check_mat34_near(&ab, &ref, 2e-6 * fmax(1.0, max_abs_d34(&ref)));
    }
}

static void test_mat34_apply_vs_double(void) {
    rng r = {0xA991};
    for (int i = 0; i < 1000; i++) {
        sw_mat34 a = rng_affine(&r, 0.2, 3.0, 5.0);
        sw_vec3 p = rng_vec3(&r, -3, 3);
        sw_vec3 gp = sw_mat34_apply_point(&a, p), gd = sw_mat34_apply_dir(&a, p);
        const double pd[3] = {p.x, p.y, p.z};
        const float gpa[3] = {gp.x, gp.y, gp.z}, gda[3] = {gd.x, gd.y, gd.z};
        for (int k = 0; k < 3; k++) {
            double lin = a.m[k][0] * pd[0] + a.m[k][1] * pd[1] + a.m[k][2] * pd[2];
            SW_CHECK_NEAR(gda[k], lin, 1e-5);
            SW_CHECK_NEAR(gpa[k], lin + a.m[k][3], 1e-5);
        }
    }
}

static void test_mat4_mul_apply_transpose_vs_cglm(void) {
    rng r = {0x4444};
    for (int i = 0; i < 500; i++) {
        sw_mat4 a, b;
        for (int k = 0; k < 16; k++) {
            a.m[k] = rng_range(&r, -2, 2);
            b.m[k] = rng_range(&r, -2, 2);
        }
        mat4 ga, gb, gd;
        memcpy(ga, a.m, sizeof ga);
        memcpy(gb, b.m, sizeof gb);
        glm_mat4_mul(ga, gb, gd);
        sw_mat4 ab = sw_mat4_mul(&a, &b);
        const float* gdf = &gd[0][0];
        for (int k = 0; k < 16; k++) SW_CHECK_NEAR(ab.m[k], gdf[k], 1e-5);
        sw_vec4 v = {rng_range(&r, -2, 2), rng_range(&r, -2, 2), rng_range(&r, -2, 2), rng_range(&r, -2, 2)};
        vec4 gv = {v.x, v.y, v.z, v.w}, gr;
        glm_mat4_mulv(ga, gv, gr);
        sw_vec4 av = sw_mat4_apply(&a, v);
        SW_CHECK_NEAR(av.x, gr[0], 1e-5);
        SW_CHECK_NEAR(av.y, gr[1], 1e-5);
        SW_CHECK_NEAR(av.z, gr[2], 1e-5);
        SW_CHECK_NEAR(av.w, gr[3], 1e-5);
        sw_mat4 at = sw_mat4_transpose(&a);
        for (int c = 0; c < 4; c++) {
            for (int rr = 0; rr < 4; rr++) SW_CHECK(at.m[c * 4 + rr] == a.m[rr * 4 + c]);
        }
    }
}

/* ---- inverses ------------------------------------------------------------- */

static void test_mat34_inverse_hand(void) {
    /* (T(1,2,3)·S(2,4,8))⁻¹ = S(½,¼,⅛)·T(−1,−2,−3). */
    sw_mat34 a = {{{2, 0, 0, 1}, {0, 4, 0, 2}, {0, 0, 8, 3}}};
    sw_mat34 inv;
    SW_CHECK(sw_mat34_inverse(&inv, &a));
    const d34 expected = {{{0.5, 0, 0, -0.5}, {0, 0.25, 0, -0.5}, {0, 0, 0.125, -0.375}}};
    check_mat34_near(&inv, &expected, 1e-7);
    /* A uniformly tiny matrix is not singular "relative to its scale". */
    sw_mat34 tiny = {{{1e-3f, 0, 0, 0}, {0, 1e-3f, 0, 0}, {0, 0, 1e-3f, 0}}};
    SW_CHECK(sw_mat34_inverse(&inv, &tiny));
    SW_CHECK_NEAR(inv.m[0][0], 1000.0, 1e-3);
    SW_CHECK_NEAR(inv.m[2][2], 1000.0, 1e-3);
}

static void test_mat34_inverse_random(void) {
    rng r = {0x1A7E};
    for (int i = 0; i < 1000; i++) {
        /* Non-uniform scale and shear, condition number ≤ 10. */
        sw_mat34 a = rng_affine(&r, 0.3, 3.0, 5.0);
        sw_mat34 inv;
        SW_CHECK(sw_mat34_inverse(&inv, &a));
        d34 da = d34_from(&a), di = d34_from(&inv);
        d34 left = d34_mul(&di, &da), right = d34_mul(&da, &di);
        const d34 id = {{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}}};
        for (int rr = 0; rr < 3; rr++) {
            for (int c = 0; c < 4; c++) {
                SW_CHECK_NEAR(left.m[rr][c], id.m[rr][c], 2e-5);
                SW_CHECK_NEAR(right.m[rr][c], id.m[rr][c], 2e-5);
            }
        }
    }
}

static void test_mat34_inverse_singular(void) {
    sw_mat34 out;
    /* Third row = first + second: rank 2. */
    sw_mat34 rank2 = {{{1, 2, 3, 4}, {4, 5, 6, 5}, {5, 7, 9, 6}}};
    memset(&out, 0x7F, sizeof out);
    SW_CHECK(!sw_mat34_inverse(&out, &rank2));
    check_mat34_is_identity(&out);
    sw_mat34 zero;
    memset(&zero, 0, sizeof zero);
    memset(&out, 0x7F, sizeof out);
    SW_CHECK(!sw_mat34_inverse(&out, &zero));
    check_mat34_is_identity(&out);
    /* A flattened scale (one axis 0). */
    sw_mat34 flat = {{{2, 0, 0, 1}, {0, 0, 0, 1}, {0, 0, 3, 1}}};
    memset(&out, 0x7F, sizeof out);
    SW_CHECK(!sw_mat34_inverse(&out, &flat));
    check_mat34_is_identity(&out);
}

static void test_mat4_inverse_vs_cglm(void) {
    rng r = {0x4111};
    for (int i = 0; i < 500; i++) {
        sw_mat4 a;
        for (int k = 0; k < 16; k++) a.m[k] = rng_range(&r, -1, 1) + (k % 5 == 0 ? 3.0f : 0.0f);
        sw_mat4 inv;
        SW_CHECK(sw_mat4_inverse(&inv, &a));
        mat4 ga, gi;
        memcpy(ga, a.m, sizeof ga);
        glm_mat4_inv(ga, gi);
        const float* gif = &gi[0][0];
        for (int k = 0; k < 16; k++) SW_CHECK_NEAR(inv.m[k], gif[k], 1e-5);
        /* And Gauss–Jordan in double (row-major copy). */
        double rm[16], rinv[16];
        for (int rr = 0; rr < 4; rr++) {
            for (int c = 0; c < 4; c++) rm[rr * 4 + c] = a.m[c * 4 + rr];
        }
        SW_CHECK(inv_nxn_d(4, rm, rinv));
        for (int rr = 0; rr < 4; rr++) {
            for (int c = 0; c < 4; c++) SW_CHECK_NEAR(inv.m[c * 4 + rr], rinv[rr * 4 + c], 2e-6);
        }
    }
    /* Singular: last column = first + second. */
    sw_mat4 s = {{1, 2, 3, 4, 0, 1, 0, 2, 5, 6, 7, 8, 1, 3, 3, 6}};
    sw_mat4 out;
    memset(&out, 0x7F, sizeof out);
    SW_CHECK(!sw_mat4_inverse(&out, &s));
    for (int k = 0; k < 16; k++) SW_CHECK(out.m[k] == (k % 5 == 0 ? 1.0f : 0.0f));
}

/* ---- determinant, cofactor ------------------------------------------------- */

static void test_mat34_determinant_vs_double(void) {
    rng r = {0xDE7};
    sw_mat34 d = {{{2, 0, 0, 9}, {0, 3, 0, 9}, {0, 0, 4, 9}}};
    SW_CHECK_NEAR(sw_mat34_determinant(&d), 24.0, 0.0);
    for (int i = 0; i < 1000; i++) {
        sw_mat34 a;
        for (int rr = 0; rr < 3; rr++) {
            for (int c = 0; c < 4; c++) a.m[rr][c] = rng_range(&r, -3, 3);
        }
        d34 da = d34_from(&a);
        /* Scale of the Leibniz terms, for a relative tolerance. */
        double scale = 0.0;
        const int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
        for (int p = 0; p < 6; p++) scale += fabs(da.m[0][perms[p][0]] * da.m[1][perms[p][1]] * da.m[2][perms[p][2]]);
        SW_CHECK_NEAR(sw_mat34_determinant(&a), det33_d(da.m), 1e-6 * scale);
    }
}

static void test_mat34_cofactor_vs_double(void) {
    /* Hand value: cof(diag(2,3,4)) = diag(12, 8, 6). */
    sw_mat34 d = {{{2, 0, 0, 9}, {0, 3, 0, 9}, {0, 0, 4, 9}}};
    sw_mat34 cd = sw_mat34_cofactor(&d);
    const d34 expected = {{{12, 0, 0, 0}, {0, 8, 0, 0}, {0, 0, 6, 0}}};
    check_mat34_near(&cd, &expected, 0.0);

    rng r = {0xC0F};
    for (int i = 0; i < 1000; i++) {
        sw_mat34 a = rng_affine(&r, 0.2, 3.0, 5.0);
        d34 da = d34_from(&a);
        double m3[9], inv[9];
        for (int rr = 0; rr < 3; rr++) {
            for (int c = 0; c < 3; c++) m3[rr * 3 + c] = da.m[rr][c];
        }
        SW_CHECK(inv_nxn_d(3, m3, inv));
        double det = det33_d(da.m);
        sw_mat34 cof = sw_mat34_cofactor(&a);
        /* cof = det·A⁻ᵀ: element (r, c) is det·inv(c, r). */
        for (int rr = 0; rr < 3; rr++) {
            for (int c = 0; c < 3; c++) SW_CHECK_NEAR(cof.m[rr][c], det * inv[c * 3 + rr], 2e-5);
            SW_CHECK(cof.m[rr][3] == 0.0f);
        }
    }
    /* Singular: still defined, non-zero for rank 2, and Aᵀ·cof = det·I = 0. */
    sw_mat34 rank2 = {{{1, 2, 3, 4}, {4, 5, 6, 5}, {5, 7, 9, 6}}};
    sw_mat34 c2 = sw_mat34_cofactor(&rank2);
    double maxc = 0.0;
    for (int rr = 0; rr < 3; rr++) {
        for (int c = 0; c < 3; c++) {
            maxc = fmax(maxc, fabs(c2.m[rr][c]));
            double s = 0.0;
            for (int k = 0; k < 3; k++) s += (double)rank2.m[k][rr] * c2.m[k][c];
            SW_CHECK_NEAR(s, 0.0, 1e-4);
        }
    }
    SW_CHECK(maxc > 0.5);
}

/* Under non-uniform scale, cof(A)·n stays perpendicular to A·t; A·n does not. */
static void test_cofactor_keeps_normals_perpendicular(void) {
    rng r = {0x90A1};
    for (int i = 0; i < 1000; i++) {
        sw_mat34 a = rng_affine(&r, 0.25, 4.0, 5.0);
        sw_vec3 n = sw_vec3_normalize(rng_vec3(&r, -1, 1));
        sw_vec3 t = sw_vec3_normalize(sw_vec3_cross(n, rng_vec3(&r, -1, 1)));
        if (sw_vec3_length(t) < 0.5f) continue;
        sw_mat34 cof = sw_mat34_cofactor(&a);
        sw_vec3 n2 = sw_vec3_normalize(sw_mat34_apply_dir(&cof, n));
        sw_vec3 t2 = sw_vec3_normalize(sw_mat34_apply_dir(&a, t));
        SW_CHECK_NEAR(sw_vec3_dot(n2, t2), 0.0, 1e-5);
    }
    /* Hand case: A = S(2, 1, ½); n = (1,1,0)/√2, t = (1,−1,0)/√2. */
    sw_mat34 s = {{{2, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 0.5f, 0}}};
    sw_vec3 n = sw_vec3_normalize(sw_vec3_make(1, 1, 0)), t = sw_vec3_normalize(sw_vec3_make(1, -1, 0));
    sw_mat34 cof = sw_mat34_cofactor(&s);
    sw_vec3 t2 = sw_vec3_normalize(sw_mat34_apply_dir(&s, t));
    SW_CHECK_NEAR(sw_vec3_dot(sw_vec3_normalize(sw_mat34_apply_dir(&cof, n)), t2), 0.0, 1e-6);
    /* The naive A·n is off by dot = 3/5: the test above can fail. */
    SW_CHECK_NEAR(sw_vec3_dot(sw_vec3_normalize(sw_mat34_apply_dir(&s, n)), t2), 0.6, 1e-6);
}

/* ---- polar decomposition ---------------------------------------------------- */

/* A = [R|t]·K with K = Q·diag(k)·Qᵀ symmetric positive definite; both built in double. */
static void make_polar_case(rng* r, double kmin, double kmax, double rot[3][3], double k_sym[3][3],
                            sw_mat34* out_a, sw_vec3* out_t) {
    double q[3][3];
    quat_to_rot_d(rng_quat(r), rot);
    quat_to_rot_d(rng_quat(r), q);
    double k[3];
    for (int i = 0; i < 3; i++) k[i] = kmin + (kmax - kmin) * rng_unit(r);
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) {
            double s = 0.0;
            for (int m = 0; m < 3; m++) s += q[i][m] * k[m] * q[j][m];
            k_sym[i][j] = s;
        }
    }
    *out_t = rng_vec3(r, -5, 5);
    const float tt[3] = {out_t->x, out_t->y, out_t->z};
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) {
            double s = 0.0;
            for (int m = 0; m < 3; m++) s += rot[i][m] * k_sym[m][j];
            out_a->m[i][j] = (float)s;
        }
        out_a->m[i][3] = tt[i];
    }
}

static void test_polar_recovers_rotation_and_stretch(void) {
    rng r = {0x9014};
    for (int i = 0; i < 500; i++) {
        double rot[3][3], k[3][3];
        sw_mat34 a;
        sw_vec3 t;
        /* Mostly moderate stretch, some strong (0.2..5). */
        if (i % 5 == 0)
            make_polar_case(&r, 0.2, 5.0, rot, k, &a, &t);
        else
            make_polar_case(&r, 0.5, 2.0, rot, k, &a, &t);
        sw_mat34 rigid, stretch;
        SW_CHECK(sw_mat34_polar(&a, &rigid, &stretch));
        const float tt[3] = {t.x, t.y, t.z};
        for (int rr = 0; rr < 3; rr++) {
            for (int c = 0; c < 3; c++) {
                SW_CHECK_NEAR(rigid.m[rr][c], rot[rr][c], 1e-5);
                SW_CHECK_NEAR(stretch.m[rr][c], k[rr][c], 1e-5 * fmax(1.0, fabs(k[rr][c])));
            }
            SW_CHECK_NEAR(rigid.m[rr][3], tt[rr], 1e-6);
            SW_CHECK(stretch.m[rr][3] == 0.0f);
        }
        SW_CHECK_NEAR(sw_mat34_determinant(&rigid), 1.0, 1e-5);
    }
    /* The DQS test's palette: 45° about Z times S(2, 1, ½) (K is then diag(2, 1, ½)). */
    double c = sqrt(0.5);
    sw_mat34 a = {{{(float)(2 * c), (float)-c, 0, 1}, {(float)(2 * c), (float)c, 0, 2}, {0, 0, 0.5f, 3}}};
    sw_mat34 rigid, stretch;
    SW_CHECK(sw_mat34_polar(&a, &rigid, &stretch));
    const d34 er = {{{c, -c, 0, 1}, {c, c, 0, 2}, {0, 0, 1, 3}}};
    const d34 ek = {{{2, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 0.5, 0}}};
    check_mat34_near(&rigid, &er, 1e-6);
    check_mat34_near(&stretch, &ek, 1e-6);
}

static void test_polar_rigid_input(void) {
    rng r = {0x9015};
    for (int i = 0; i < 300; i++) {
        double rot[3][3];
        quat_to_rot_d(rng_quat(&r), rot);
        sw_mat34 a;
        for (int rr = 0; rr < 3; rr++) {
            for (int c = 0; c < 3; c++) a.m[rr][c] = (float)rot[rr][c];
            a.m[rr][3] = rng_range(&r, -5, 5);
        }
        sw_mat34 rigid, stretch;
        SW_CHECK(sw_mat34_polar(&a, &rigid, &stretch));
        for (int rr = 0; rr < 3; rr++) {
            for (int c = 0; c < 4; c++) {
                SW_CHECK_NEAR(stretch.m[rr][c], rr == c ? 1.0 : 0.0, 1e-6);
                SW_CHECK_NEAR(rigid.m[rr][c], a.m[rr][c], 1e-6);
            }
        }
    }
}

static void test_polar_rejects_reflection_and_singular(void) {
    rng r = {0x9016};
    for (int i = 0; i < 50; i++) {
        double rot[3][3];
        quat_to_rot_d(rng_quat(&r), rot);
        sw_mat34 a;
        /* A rotation times diag(−1.5, 1, 2): det < 0. */
        const double s[3] = {-1.5, 1.0, 2.0};
        for (int rr = 0; rr < 3; rr++) {
            for (int c = 0; c < 3; c++) a.m[rr][c] = (float)(rot[rr][c] * s[c]);
            a.m[rr][3] = (float)rr;
        }
        sw_mat34 rigid, stretch;
        SW_CHECK(!sw_mat34_polar(&a, &rigid, &stretch));
        /* R = identity, K = A (3×3 parts: where the translation goes on failure is not specified). */
        for (int rr = 0; rr < 3; rr++) {
            for (int c = 0; c < 3; c++) {
                SW_CHECK(rigid.m[rr][c] == (rr == c ? 1.0f : 0.0f));
                SW_CHECK(stretch.m[rr][c] == a.m[rr][c]);
            }
        }
    }
    sw_mat34 rank2 = {{{1, 2, 3, 4}, {4, 5, 6, 5}, {5, 7, 9, 6}}};
    sw_mat34 rigid, stretch;
    SW_CHECK(!sw_mat34_polar(&rank2, &rigid, &stretch));
    for (int rr = 0; rr < 3; rr++) {
        for (int c = 0; c < 3; c++) {
            SW_CHECK(rigid.m[rr][c] == (rr == c ? 1.0f : 0.0f));
            SW_CHECK(stretch.m[rr][c] == rank2.m[rr][c]);
        }
    }
    sw_mat34 zero;
    memset(&zero, 0, sizeof zero);
    SW_CHECK(!sw_mat34_polar(&zero, &rigid, &stretch));
}

/* sw_transform_from_mat34: a TRS (any scale signs) made a matrix in double
   comes back as a TRS whose matrix, again in double, is the same; shear
   is flagged, and a singular matrix keeps its column lengths. */
static void test_transform_from_mat34(void) {
    rng r = {0x9017};
    double worst = 0.0;
    for (int i = 0; i < 300; i++) {
        sw_transform t = {{rng_range(&r, -5, 5), rng_range(&r, -5, 5), rng_range(&r, -5, 5)}, rng_quat(&r),
                          {rng_range(&r, 0.2, 3), rng_range(&r, 0.2, 3), rng_range(&r, 0.2, 3)}};
        if (i % 3 == 1) t.scale.y = -t.scale.y; /* a reflection */
        if (i % 3 == 2) t.scale.x = -t.scale.x, t.scale.z = -t.scale.z; /* a turn by π in disguise */
        const d34 a = trs_d(&t);
        sw_mat34 m;
        for (int rr = 0; rr < 3; rr++)
            for (int c = 0; c < 4; c++) m.m[rr][c] = (float)a.m[rr][c];
        bool exact = false;
        const sw_transform back = sw_transform_from_mat34(&m, &exact);
        SW_CHECK(exact);
        const d34 b = trs_d(&back);
        for (int rr = 0; rr < 3; rr++)
            for (int c = 0; c < 4; c++) worst = fmax(worst, fabs(b.m[rr][c] - a.m[rr][c]) / 3.0);
    }
    printf("transform from matrix: worst round-trip error %.3g (of scales up to 3)\n", worst);
    SW_CHECK(worst <= 2e-6);
    /* Shear: flagged. */
    sw_mat34 shear = {{{1, 0.3f, 0, 1}, {0, 1, 0, 2}, {0, 0, 1, 3}}};
    bool exact = true;
    sw_transform t = sw_transform_from_mat34(&shear, &exact);
    SW_CHECK(!exact);
    SW_CHECK(t.translation.x == 1.0f && t.translation.y == 2.0f && t.translation.z == 3.0f);
    /* Singular: no rotation, the column lengths as scale. */
    sw_mat34 rank2 = {{{1, 2, 3, 4}, {4, 5, 6, 5}, {5, 7, 9, 6}}};
    t = sw_transform_from_mat34(&rank2, &exact);
    SW_CHECK(!exact);
    SW_CHECK(t.rotation.x == 0.0f && t.rotation.y == 0.0f && t.rotation.z == 0.0f && t.rotation.w == 1.0f);
    SW_CHECK_NEAR(t.scale.x, sqrt(1.0 + 16.0 + 25.0), 1e-6);
    SW_CHECK_NEAR(t.scale.y, sqrt(4.0 + 25.0 + 49.0), 1e-6);
    SW_CHECK_NEAR(t.scale.z, sqrt(9.0 + 36.0 + 81.0), 1e-5);
}

int main(void) {
    SW_RUN(test_identities_and_translation);
    SW_RUN(test_trs_to_mat34_hand);
    SW_RUN(test_trs_to_mat34_vs_double);
    SW_RUN(test_transform_mul_uniform_parent);
    SW_RUN(test_mat4_layout_round_trip);
    SW_RUN(test_mat34_mul_vs_cglm);
    SW_RUN(test_mat34_apply_vs_double);
    SW_RUN(test_mat4_mul_apply_transpose_vs_cglm);
    SW_RUN(test_mat34_inverse_hand);
    SW_RUN(test_mat34_inverse_random);
    SW_RUN(test_mat34_inverse_singular);
    SW_RUN(test_mat4_inverse_vs_cglm);
    SW_RUN(test_mat34_determinant_vs_double);
    SW_RUN(test_mat34_cofactor_vs_double);
    SW_RUN(test_cofactor_keeps_normals_perpendicular);
    SW_RUN(test_polar_recovers_rotation_and_stretch);
    SW_RUN(test_polar_rigid_input);
    SW_RUN(test_polar_rejects_reflection_and_singular);
    SW_RUN(test_transform_from_mat34);
    return sw_test_finish();
}
