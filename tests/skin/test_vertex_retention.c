/* Per-vertex LBS retention (sw_skin_rotations, sw_skin_vertex_retention)
   against the closed form for two joints twisted by φ about an axis,
   sqrt(1 − 2w(1−w)(1 − cos φ)), written out again here in double: the
   blend (1−w)·R0 + w·R0·Rφ keeps the twist axis and shrinks the plane
   across it by |(1−w) + w·e^{iφ}|. Then the rules the header states: one
   influence gives 1, joints past joint_count are skipped, and the scale
   and shear of a skin matrix drop out (only its rotation factor counts). */
#include <string.h>

#include "harness.h"
#include "sinew/skin.h"

/* How close the measured retention comes to the closed form: see
   test_two_joints_closed_form. */
#define SW__EIGEN_TOLERANCE 5e-8

static double deg(double d) { return d * SW_PI / 180.0; }

static double closed_form(double w, double phi) { return sqrt(1.0 - 2.0 * w * (1.0 - w) * (1.0 - cos(phi))); }

/* Rotation by `angle` about unit axis (x, y, z), Rodrigues, row-major. */
static void rotation(double out[9], double x, double y, double z, double angle) {
    double c = cos(angle), s = sin(angle), t = 1.0 - c;
    const double r[9] = {t * x * x + c,     t * x * y - s * z, t * x * z + s * y, t * x * y + s * z, t * y * y + c,
                         t * y * z - s * x, t * x * z - s * y, t * y * z + s * x, t * z * z + c};
    memcpy(out, r, sizeof r);
}

static void mul3(double out[9], const double a[9], const double b[9]) {
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            out[3 * r + c] = a[3 * r] * b[c] + a[3 * r + 1] * b[3 + c] + a[3 * r + 2] * b[6 + c];
}

/* Joint 0 at a base rotation B, joint 1 at B·Rφ (twist about `axis` in B's
   frame): the relative twist is φ whatever B is. */
static void twisted_pair(double rotations[18], const double axis[3], double phi) {
    double base[9], twist[9];
    rotation(base, 0.48, -0.6, 0.64, deg(37)); /* unit: 0.2304 + 0.36 + 0.4096 */
    rotation(twist, axis[0], axis[1], axis[2], phi);
    memcpy(rotations, base, sizeof base);
    mul3(rotations + 9, base, twist);
}

static void test_two_joints_closed_form(void) {
    const double axes[3][3] = {{1, 0, 0}, {0, 0, 1}, {2.0 / 3, -1.0 / 3, 2.0 / 3}};
    double rotations[18];
    double worst = 0.0;
    for (int a = 0; a < 3; a++) {
        for (int d = 0; d <= 180; d += 10) {
            const double phi = deg(d);
            twisted_pair(rotations, axes[a], phi);
            for (int k = 0; k <= 16; k++) {
                const float w = (float)k / 16.0f; /* exact in float */
                const uint16_t joints[2] = {0, 1};
                const float weights[2] = {1.0f - w, w};
                int used = -1;
                const double r = sw_skin_vertex_retention(rotations, 2, joints, weights, 2, &used);
                SW_CHECK_EQ_INT(used, k == 0 || k == 16 ? 1 : 2);
                if (k == 0 || k == 16) {
                    SW_CHECK(r == 1.0); /* one influence: nothing lost */
                    continue;
                }
                /* r is the square root of the smallest eigenvalue of ΣᵀΣ,
                   and here two eigenvalues are equal (the whole plane
                   across the axis shrinks alike): the closed-form
                   eigen-solver's acos then works at its edge, where it
                   keeps about half of double's digits (√ε ≈ 1.5e-8). */
                const double want = closed_form(w, phi);
                SW_CHECK_NEAR(r * r, want * want, SW__EIGEN_TOLERANCE);
                SW_CHECK_NEAR(r, want, want > 1e-3 ? SW__EIGEN_TOLERANCE : 2e-7);
                SW_CHECK_NEAR(r, sw_lbs_retention(w, phi), want > 1e-3 ? SW__EIGEN_TOLERANCE : 2e-7);
                if (want > 1e-3) worst = fmax(worst, fmax(fabs(r - want), fabs(r * r - want * want)));
                /* The order of the influences and extra zero weights change nothing. */
                const uint16_t joints4[4] = {1, 0, 0, 1};
                const float weights4[4] = {w, 0.0f, 1.0f - w, 0.0f};
                SW_CHECK_NEAR(sw_skin_vertex_retention(rotations, 2, joints4, weights4, 4, &used), r, 1e-15);
                SW_CHECK_EQ_INT(used, 2);
            }
        }
    }
    fprintf(stderr, "  largest difference to the closed form (of r and of r², r > 1e-3): %.3g\n", worst);
    /* Hand values: 90° at w = ¼ keeps sqrt(1 − 2·(3/16)) = sqrt(0.625); 120° at ½ keeps ½; 180° at ½ nothing. */
    const double x_axis[3] = {1, 0, 0};
    const uint16_t joints[2] = {0, 1};
    twisted_pair(rotations, x_axis, deg(90));
    SW_CHECK_NEAR(sw_skin_vertex_retention(rotations, 2, joints, (const float[2]){0.75f, 0.25f}, 2, NULL), sqrt(0.625),
                  SW__EIGEN_TOLERANCE);
    twisted_pair(rotations, x_axis, deg(120));
    SW_CHECK_NEAR(sw_skin_vertex_retention(rotations, 2, joints, (const float[2]){0.5f, 0.5f}, 2, NULL), 0.5,
                  SW__EIGEN_TOLERANCE);
    twisted_pair(rotations, x_axis, SW_PI);
    SW_CHECK_NEAR(sw_skin_vertex_retention(rotations, 2, joints, (const float[2]){0.5f, 0.5f}, 2, NULL), 0.0, 2e-7);
}

static void test_one_influence(void) {
    double rotations[18];
    const double axis[3] = {0, 1, 0};
    twisted_pair(rotations, axis, deg(150));
    int used = -1;
    SW_CHECK(sw_skin_vertex_retention(rotations, 2, (const uint16_t[1]){1}, (const float[1]){1.0f}, 1, &used) == 1.0);
    SW_CHECK_EQ_INT(used, 1);
    /* a weight that is not 1 still counts as one influence: nothing to blend */
    SW_CHECK(sw_skin_vertex_retention(rotations, 2, (const uint16_t[2]){0, 1}, (const float[2]){0.6f, 0.0f}, 2,
                                      &used) == 1.0);
    SW_CHECK_EQ_INT(used, 1);
    /* negative weights are skipped like zero ones */
    SW_CHECK(sw_skin_vertex_retention(rotations, 2, (const uint16_t[2]){0, 1}, (const float[2]){1.0f, -0.5f}, 2,
                                      &used) == 1.0);
    SW_CHECK_EQ_INT(used, 1);
    SW_CHECK(sw_skin_vertex_retention(rotations, 2, NULL, NULL, 0, &used) == 1.0);
    SW_CHECK_EQ_INT(used, 0);
}

static void test_joint_out_of_range_skipped(void) {
    /* Joints 0 and 1 twisted by 120°; slots past joint_count hold NaN, so
       reading one would show. */
    double rotations[9 * 4];
    const double axis[3] = {0, 0, 1};
    twisted_pair(rotations, axis, deg(120));
    for (int i = 18; i < 36; i++) rotations[i] = NAN;
    int used = -1;
    /* joint 2 is past joint_count 2: one influence left */
    double r =
        sw_skin_vertex_retention(rotations, 2, (const uint16_t[2]){0, 2}, (const float[2]){0.5f, 0.5f}, 2, &used);
    SW_CHECK(r == 1.0);
    SW_CHECK_EQ_INT(used, 1);
    /* a skipped influence's weight is dropped, not spread: ¼R0 + ¼R1 keeps
       ½·|cos 60°| = ¼ */
    r = sw_skin_vertex_retention(rotations, 2, (const uint16_t[3]){0, 3, 1}, (const float[3]){0.25f, 0.5f, 0.25f}, 3,
                                 &used);
    SW_CHECK_EQ_INT(used, 2);
    SW_CHECK_NEAR(r, 0.25, SW__EIGEN_TOLERANCE);
    /* joint_count 1: joint 1 is past it too */
    r = sw_skin_vertex_retention(rotations, 1, (const uint16_t[2]){0, 1}, (const float[2]){0.5f, 0.5f}, 2, &used);
    SW_CHECK(r == 1.0);
    SW_CHECK_EQ_INT(used, 1);
}

/* A float skin matrix R·K + t, row-major 3×3 in double. */
static sw_mat34 skin_matrix(const double r[9], const double k[9], float tx) {
    double m[9];
    mul3(m, r, k);
    sw_mat34 out;
    for (int row = 0; row < 3; row++) {
        for (int c = 0; c < 3; c++) out.m[row][c] = (float)m[3 * row + c];
        out.m[row][3] = tx * (float)(row + 1);
    }
    return out;
}

static void test_scale_and_shear_drop_out(void) {
    /* Rotations whose entries are 0 and ±1 and stretches of small integers:
       R·K is exact in float, and its polar rotation factor is R exactly. */
    const double identity[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    const double quarter_x[9] = {1, 0, 0, 0, 0, -1, 0, 1, 0}; /* 90° about x */
    const double scale[9] = {2, 0, 0, 0, 0.5, 0, 0, 0, 4};
    const double shear[9] = {2, 1, 0, 1, 2, 0, 0, 0, 1}; /* symmetric, eigenvalues 3, 1, 1 */
    const sw_mat34 matrices[4] = {skin_matrix(identity, scale, 5.0f), skin_matrix(quarter_x, shear, -3.0f),
                                  skin_matrix(identity, identity, 0.0f), skin_matrix(quarter_x, identity, 0.0f)};
    double rotations[9 * 4];
    sw_skin_rotations(matrices, 4, rotations);
    for (int i = 0; i < 9; i++) {
        SW_CHECK_NEAR(rotations[i], identity[i], 1e-12);
        SW_CHECK_NEAR(rotations[9 + i], quarter_x[i], 1e-12);
        SW_CHECK_NEAR(rotations[18 + i], identity[i], 1e-12);
        SW_CHECK_NEAR(rotations[27 + i], quarter_x[i], 1e-12);
    }
    /* 90° apart at w = ¼: sqrt(0.625), stretched (joints 0, 1) or not (2, 3). */
    const float weights[2] = {0.75f, 0.25f};
    int used;
    double stretched = sw_skin_vertex_retention(rotations, 4, (const uint16_t[2]){0, 1}, weights, 2, &used);
    double plain = sw_skin_vertex_retention(rotations, 4, (const uint16_t[2]){2, 3}, weights, 2, &used);
    SW_CHECK_NEAR(stretched, sqrt(0.625), SW__EIGEN_TOLERANCE);
    SW_CHECK_NEAR(plain, sqrt(0.625), SW__EIGEN_TOLERANCE);

    /* Any angle: the same pair of float rotations with and without a
       stretch on each. Float rounding of the matrices is all that differs. */
    const double axis[3] = {2.0 / 3, -1.0 / 3, 2.0 / 3};
    for (int d = 10; d <= 170; d += 20) {
        double pair[18];
        twisted_pair(pair, axis, deg(d));
        const sw_mat34 m[4] = {skin_matrix(pair, identity, 1.0f), skin_matrix(pair + 9, identity, 1.0f),
                               skin_matrix(pair, shear, 2.0f), skin_matrix(pair + 9, scale, -1.0f)};
        double r[9 * 4];
        sw_skin_rotations(m, 4, r);
        for (int k = 1; k < 16; k += 3) {
            const float w2[2] = {1.0f - (float)k / 16.0f, (float)k / 16.0f};
            const double without = sw_skin_vertex_retention(r, 4, (const uint16_t[2]){0, 1}, w2, 2, NULL);
            const double with = sw_skin_vertex_retention(r, 4, (const uint16_t[2]){2, 3}, w2, 2, NULL);
            SW_CHECK_NEAR(with, without, 1e-6);
            SW_CHECK_NEAR(with, closed_form(w2[1], deg(d)), 1e-6);
        }
    }
}

int main(void) {
    SW_RUN(test_two_joints_closed_form);
    SW_RUN(test_one_influence);
    SW_RUN(test_joint_out_of_range_skipped);
    SW_RUN(test_scale_and_shear_drop_out);
    return sw_test_finish();
}
