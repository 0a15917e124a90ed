/* Worked skinning-matrix examples (a joint chain rotated about X, the skin matrix B·M⁻¹ of RTR4 §4.4 and the
   vertices it moves), computed by hand in double and checked through the public API. */
#include "harness.h"
#include "sinew/math.h"
#include "sinew/skin.h"

static sw_mat34 rot_x(double angle) {
    /* Written out by hand (a plain rotation about X), not via sinew's quaternions. */
    float c = (float)cos(angle), s = (float)sin(angle);
    return (sw_mat34){{{1, 0, 0, 0}, {0, c, -s, 0}, {0, s, c, 0}}};
}

static void check_vec3_near(sw_vec3 a, double x, double y, double z, double tol) {
    SW_CHECK_NEAR(a.x, x, tol);
    SW_CHECK_NEAR(a.y, y, tol);
    SW_CHECK_NEAR(a.z, z, tol);
}

/* ① Bind pose = identity, B = Rx(90°): (0,1,0) → (0,0,1). */
static void test_seed_example_1(void) {
    sw_mat34 b = rot_x(SW_PI / 2);
    sw_skin skin = {1, NULL, NULL}; /* inverse bind = identity */
    sw_mat34 s;
    sw_skin_matrices(&s, &skin, &b);
    check_vec3_near(sw_mat34_apply_point(&s, sw_vec3_make(0, 1, 0)), 0, 0, 1, 1e-6);
    /* The library's own rotation agrees with the hand matrix. */
    sw_transform t = {{0, 0, 0}, sw_quat_from_axis_angle(sw_vec3_make(1, 0, 0), (float)(SW_PI / 2)), {1, 1, 1}};
    check_vec3_near(sw_transform_apply_point(&t, sw_vec3_make(0, 1, 0)), 0, 0, 1, 1e-6);
}

/* ② Joint bound at (1,0,0), turning 90° about X about its own origin:
   B = T(1,0,0)·Rx(90°), M⁻¹ = T(−1,0,0); (1,1,0) → M⁻¹·p = (0,1,0) → (1,0,1). */
static void test_seed_example_2(void) {
    sw_mat34 m = sw_mat34_translation(sw_vec3_make(1, 0, 0));
    sw_mat34 m_inv;
    SW_CHECK(sw_mat34_inverse(&m_inv, &m));
    const sw_mat34 m_inv_hand = {{{1, 0, 0, -1}, {0, 1, 0, 0}, {0, 0, 1, 0}}};
    for (int r = 0; r < 3; r++) {
        for (int c = 0; c < 4; c++) SW_CHECK_NEAR(m_inv.m[r][c], m_inv_hand.m[r][c], 0.0);
    }
    sw_vec3 p = sw_vec3_make(1, 1, 0);
    check_vec3_near(sw_mat34_apply_point(&m_inv, p), 0, 1, 0, 0.0);

    sw_mat34 t = sw_mat34_translation(sw_vec3_make(1, 0, 0)), rx = rot_x(SW_PI / 2);
    sw_mat34 b = sw_mat34_mul(&t, &rx);
    sw_skin skin = {1, NULL, &m_inv_hand};
    sw_mat34 s;
    sw_skin_matrices(&s, &skin, &b);
    check_vec3_near(sw_mat34_apply_point(&s, p), 1, 0, 1, 1e-6);
    sw_mat34 s2 = sw_mat34_mul(&b, &m_inv_hand);
    check_vec3_near(sw_mat34_apply_point(&s2, p), 1, 0, 1, 1e-6);
}

/* The order matters. (In example ② itself Rx commutes with T(1,0,0), so
   B·M⁻¹ = M⁻¹·B there; a joint at (0,1,0) tells the orders apart.)
   Joint bound at (0,1,0), B = T(0,1,0)·Rx(90°), p = (0,2,0):
   B·M⁻¹·p = (0,1,1) but M⁻¹·B·p = (0,0,2). */
static void test_skin_matrix_order(void) {
    sw_mat34 m_inv = sw_mat34_translation(sw_vec3_make(0, -1, 0));
    sw_mat34 t = sw_mat34_translation(sw_vec3_make(0, 1, 0)), rx = rot_x(SW_PI / 2);
    sw_mat34 b = sw_mat34_mul(&t, &rx);
    sw_skin skin = {1, NULL, &m_inv};
    sw_mat34 s;
    sw_skin_matrices(&s, &skin, &b);
    sw_vec3 p = sw_vec3_make(0, 2, 0);
    sw_vec3 good = sw_mat34_apply_point(&s, p);
    check_vec3_near(good, 0, 1, 1, 1e-6);
    sw_mat34 reversed = sw_mat34_mul(&m_inv, &b);
    sw_vec3 bad = sw_mat34_apply_point(&reversed, p);
    check_vec3_near(bad, 0, 0, 2, 1e-6);
    SW_CHECK(sw_vec3_length(sw_vec3_sub(good, bad)) > 0.5f);
    /* In example ② both orders give (1,0,1): noted above, checked here. */
    sw_mat34 m2_inv = sw_mat34_translation(sw_vec3_make(-1, 0, 0));
    sw_mat34 t2 = sw_mat34_translation(sw_vec3_make(1, 0, 0));
    sw_mat34 b2 = sw_mat34_mul(&t2, &rx);
    sw_mat34 rev2 = sw_mat34_mul(&m2_inv, &b2);
    check_vec3_near(sw_mat34_apply_point(&rev2, sw_vec3_make(1, 1, 0)), 1, 0, 1, 1e-6);
}

/* ③ and ④: the retention table the script prints. */
static void test_seed_retention_table(void) {
    const double table[][2] = {{0, 1.000000},   {30, 0.965926},  {60, 0.866025}, {90, 0.707107},
                               {120, 0.500000}, {150, 0.258819}, {170, 0.087156}};
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        SW_CHECK_NEAR(sw_lbs_retention(0.5, table[i][0] * SW_PI / 180.0), table[i][1], 5e-7);
    SW_CHECK_NEAR(sw_lbs_retention(0.0, 120.0 * SW_PI / 180.0), 1.0, 5e-7);
    SW_CHECK_NEAR(sw_lbs_retention(1.0, 120.0 * SW_PI / 180.0), 1.0, 5e-7);
}

int main(void) {
    SW_RUN(test_seed_example_1);
    SW_RUN(test_seed_example_2);
    SW_RUN(test_skin_matrix_order);
    SW_RUN(test_seed_retention_table);
    return sw_test_finish();
}
