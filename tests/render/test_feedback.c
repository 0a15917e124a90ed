/* The character's environment feedback in C (src/render/feedback.c;
   docs/feedback.md), against hand-computed numbers:
     - the frame analysis' worked shadow example (s̄ = 0.4, c = 1,
       x = 0.5, y = 0.55 → 0.602, 0.602);
     - the colour update converges to the mean as 0.9ⁿ, half at n = 7,
       90 % at n = 22; no valid sample leaves it unchanged;
     - the shadow state runs to the clamp in shadow and back in the sun;
       c > 999 snaps it;
     - the sample layout: colour points along their direction at 0.4 of
       the height, shadow points on the body cylinder;
     - reading: a normal facing a red column reads red, the opposite side
       nothing; a point's shadow is its nearest column's x. */
#include "harness.h"

#include "../../src/render/feedback.h"

static void test_worked_example(void) {
    float state[2] = {0.5f, 0.55f};
    sw__feedback_shadow_update(state, 0.4f, 1.0f, true);
    /* D = 0.1, v = 0.1, g = 1.02, v' = 0.204: both 0.5 + 0.102. */
    SW_CHECK_NEAR(state[0], 0.602f, 1e-6f);
    SW_CHECK_NEAR(state[1], 0.602f, 1e-6f);
    /* The same s̄ and c through the mean of five samples: the valid ones
       (validity > 0.001) 0.2, 0.6, 0.4 average 0.4; c is the last valid
       sample's control. */
    float pass[5] = {0.2f, 0.9f, 0.6f, 0.4f, 0.0f};
    float valid[5] = {1.0f, 0.0005f, 1.0f, 1.0f, 0.0f};
    float control[5] = {7.0f, 9.0f, 3.0f, 1.0f, 5.0f};
    float sbar = -1.0f, c = -1.0f;
    SW_CHECK(sw__feedback_shadow_mean(pass, valid, control, &sbar, &c));
    SW_CHECK_NEAR(sbar, 0.4f, 1e-6f);
    SW_CHECK_NEAR(c, 1.0f, 0.0f);
    float none[5] = {0};
    SW_CHECK(!sw__feedback_shadow_mean(pass, none, control, &sbar, &c));
}

static void test_colour_converges(void) {
    float colour[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    const float mean[3] = {1.0f, 0.5f, 0.25f};
    for (int n = 1; n <= 30; n++) {
        sw__feedback_colour_update(colour, mean, true);
        double left = pow(0.9, n);
        for (int i = 0; i < 3; i++) SW_CHECK_NEAR(mean[i] - colour[i], mean[i] * left, 1e-5);
        SW_CHECK_NEAR(1.0 - colour[3], left, 1e-5); /* the confidence */
        if (n == 7) SW_CHECK(colour[0] > 0.5f && colour[0] < 0.55f);    /* 1 − 0.9⁷ = 0.522 */
        if (n == 6) SW_CHECK(colour[0] < 0.5f);                          /* 0.469 */
        if (n == 22) SW_CHECK(colour[0] > 0.9f);                         /* 0.902 */
        if (n == 21) SW_CHECK(colour[0] < 0.9f);                         /* 0.891 */
    }
    float before[4] = {colour[0], colour[1], colour[2], colour[3]};
    const float other[3] = {0.0f, 1.0f, 0.0f};
    sw__feedback_colour_update(colour, other, false);
    for (int i = 0; i < 4; i++) SW_CHECK_NEAR(colour[i], before[i], 0.0f);
    float rgb[5][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {9, 9, 9}, {1, 1, 1}};
    float valid[5] = {1, 1, 1, 0, 1};
    float m[3];
    SW_CHECK(sw__feedback_colour_mean(rgb, valid, m));
    for (int i = 0; i < 3; i++) SW_CHECK_NEAR(m[i], 0.5f, 1e-6f);
}

static void test_shadow_runs_to_the_clamp(void) {
    float state[2] = {0.0f, 0.5f};
    /* Fully shadowed (s̄ = 0) from lit: D = 1 − x. v' = 1 → (0.5, 1);
       v = 1, g = 3, D = 0.5 → v' = 4.5 → (1, 1). */
    sw__feedback_shadow_update(state, 0.0f, 1.0f, true);
    SW_CHECK_NEAR(state[0], 0.5f, 1e-6f);
    SW_CHECK_NEAR(state[1], 1.0f, 1e-6f);
    sw__feedback_shadow_update(state, 0.0f, 1.0f, true);
    SW_CHECK_NEAR(state[0], 1.0f, 1e-6f);
    SW_CHECK_NEAR(state[1], 1.0f, 1e-6f);
    /* Back into the sun: D = −1. v = 1 → v' = 0: (1, 0.5); v' = −1:
       (0.5, 0); v = −1, D = −0.5 → v' = −4.5: (0, 0). */
    sw__feedback_shadow_update(state, 1.0f, 1.0f, true);
    SW_CHECK_NEAR(state[0], 1.0f, 1e-6f);
    SW_CHECK_NEAR(state[1], 0.5f, 1e-6f);
    sw__feedback_shadow_update(state, 1.0f, 1.0f, true);
    SW_CHECK_NEAR(state[0], 0.5f, 1e-6f);
    sw__feedback_shadow_update(state, 1.0f, 1.0f, true);
    SW_CHECK_NEAR(state[0], 0.0f, 0.0f);
    SW_CHECK_NEAR(state[1], 0.0f, 0.0f);
    /* And stays there in the sun. */
    for (int n = 0; n < 5; n++) sw__feedback_shadow_update(state, 1.0f, 1.0f, true);
    SW_CHECK_NEAR(state[0], 0.0f, 0.0f);
    /* No valid sample: no drive, the deviation still advances x. */
    float drift[2] = {0.5f, 0.6f};
    sw__feedback_shadow_update(drift, 0.0f, 1.0f, false);
    SW_CHECK_NEAR(drift[0], 0.5f + 0.5f * 1.08f * 0.2f, 1e-6f);
    /* A control above 999 snaps both to the saturated drive. */
    float snap[2] = {0.0f, 0.5f};
    sw__feedback_shadow_update(snap, 0.9f, 1000.0f, true);
    SW_CHECK_NEAR(snap[0], 1.0f, 0.0f);
    SW_CHECK_NEAR(snap[1], 1.0f, 0.0f);
    sw__feedback_shadow_update(snap, 1.0f, 1000.0f, true);
    SW_CHECK_NEAR(snap[0], 0.0f, 0.0f);
}

static void test_layout(void) {
    sw__feedback_body body = {{1.0f, 2.0f, 3.0f}, 1.6f, 0.25f};
    float p[3];
    /* Colour column 0 (+Z), sample 2: 1.5·1.6 out, 0.4·1.6 up. */
    sw__feedback_sample_point(&body, 0, 2, p);
    SW_CHECK_NEAR(p[0], 1.0f, 1e-6f);
    SW_CHECK_NEAR(p[1], 2.0f + 0.64f, 1e-6f);
    SW_CHECK_NEAR(p[2], 3.0f + 2.4f, 1e-6f);
    /* Colour column 5 (−Z, half a turn). */
    sw__feedback_sample_point(&body, 5, 0, p);
    SW_CHECK_NEAR(p[2], 3.0f - 0.8f, 1e-5f);
    /* Every shadow sample lies on the body cylinder's neighbourhood:
       centres at exactly the radius, within the body's height. */
    for (int col = SW_FEEDBACK_COLOUR_COLUMNS; col < SW_FEEDBACK_COLUMNS; col++) {
        for (int k = 0; k < SW_FEEDBACK_SAMPLES; k++) {
            sw__feedback_sample_point(&body, col, k, p);
            float r = hypotf(p[0] - 1.0f, p[2] - 3.0f);
            if (k == 0) SW_CHECK_NEAR(r, 0.25f, 1e-5f);
            SW_CHECK(r >= 0.25f - 1e-5f && r <= 0.25f * 1.032f);
            SW_CHECK(p[1] > 2.0f && p[1] < 3.6f);
        }
    }
    /* Shadow column 10 + 10·5 + 2: the top ring, direction 2 (72°). */
    sw__feedback_sample_point(&body, 62, 0, p);
    SW_CHECK_NEAR(p[1], 2.0f + 1.6f * 5.5f / 6.0f, 1e-5f);
    SW_CHECK_NEAR(p[0], 1.0f + 0.25f * sinf(1.2566371f), 1e-5f);
}

static void test_read(void) {
    sw__feedback_state state;
    sw__feedback_reset(&state);
    /* A red wall at +X: the columns 2 and 3 (72°, 108°) see red. */
    state.column[2][0] = state.column[3][0] = 0.8f;
    state.column[2][3] = state.column[3][3] = 1.0f;
    float out[4];
    sw__feedback_read_colour(&state, (const float[3]){1, 0, 0}, out);
    SW_CHECK_NEAR(out[0], (0.8f * 0.9045f * 2.0f) / (0.9045f * 2 + 0.3455f * 2), 1e-3f); /* cos² 18°, cos² 54° */
    SW_CHECK_NEAR(out[1], 0.0f, 0.0f);
    SW_CHECK_NEAR(out[3], 0.9045f / (0.9045f + 0.3455f), 1e-3f);
    sw__feedback_read_colour(&state, (const float[3]){-1, 0, 0}, out);
    SW_CHECK_NEAR(out[0], 0.0f, 0.0f);
    sw__feedback_read_colour(&state, (const float[3]){0, 1, 0}, out);
    SW_CHECK_NEAR(out[0], 0.0f, 0.0f);
    /* The shadow read: the point's ring and nearest direction. */
    sw__feedback_body body = {{0.0f, 0.0f, 0.0f}, 1.2f, 0.2f};
    state.column[SW_FEEDBACK_COLOUR_COLUMNS + 3 * SW_FEEDBACK_DIRECTIONS + 9][0] = 0.7f;
    float at[3] = {-0.1f * sinf(0.3f), 0.65f, 0.1f * cosf(0.3f)}; /* φ ≈ 342.8°: nearest direction 0 (360°) */
    SW_CHECK_NEAR(sw__feedback_read_shadow(&state, &body, at), 0.0f, 0.0f);
    float at9[3] = {-0.1f * sinf(0.6f), 0.65f, 0.1f * cosf(0.6f)}; /* 325.6°: direction 9; 0.65/1.2·6 = 3.25: ring 3 */
    SW_CHECK_NEAR(sw__feedback_read_shadow(&state, &body, at9), 0.7f, 0.0f);
    SW_CHECK_NEAR(sw__feedback_read_shadow(&state, &body, (const float[3]){0, 0.65f, 0.1f}), 0.0f, 0.0f);
}

static void test_apply(void) {
    /* Grey surroundings, full confidence: no tint; shadow 1 halves. */
    float c[3] = {0.4f, 0.6f, 0.8f};
    sw__feedback_apply(c, (const float[4]){0.5f, 0.5f, 0.5f, 1.0f}, 1.0f);
    SW_CHECK_NEAR(c[0], 0.2f, 1e-6f);
    SW_CHECK_NEAR(c[2], 0.4f, 1e-6f);
    /* Red surroundings (0.62, 0.06, 0.05): luma 0.1790; tint R 3.464,
       G 0.335, B 0.279; strength 0.35: R × 1.8624, G × 0.7673. */
    float r[3] = {0.5f, 0.5f, 0.5f};
    sw__feedback_apply(r, (const float[4]){0.62f, 0.06f, 0.05f, 1.0f}, 0.0f);
    SW_CHECK_NEAR(r[0], 0.5f * (0.65f + 0.35f * 0.62f / 0.178334f), 1e-4f);
    SW_CHECK_NEAR(r[1], 0.5f * (0.65f + 0.35f * 0.06f / 0.178334f), 1e-4f);
    SW_CHECK(r[0] > 0.9f && r[1] < 0.4f);
    /* No confidence (the reset state): unchanged. */
    float z[3] = {0.3f, 0.3f, 0.3f};
    sw__feedback_apply(z, (const float[4]){0.0f, 0.0f, 0.0f, 0.0f}, 0.0f);
    SW_CHECK_NEAR(z[0], 0.3f, 0.0f);
}

/* Where she stands follows the joint that carries her: the shape from her
   bounds at one pose, then the joint at another pose and a placement. */
static void test_body_follows(void) {
    /* Bounds 0.6 × 1.6 × 0.4, the hips at (0.02, 0.9, 0): feet 0.9 below. */
    const float lo[3] = {-0.3f, 0.0f, -0.2f}, hi[3] = {0.3f, 1.6f, 0.2f}, hips[3] = {0.02f, 0.9f, 0.0f};
    sw__feedback_shape shape;
    SW_CHECK(sw__feedback_shape_of(lo, hi, hips, &shape));
    SW_CHECK_NEAR(shape.feet_offset[0], -0.02f, 1e-6f);
    SW_CHECK_NEAR(shape.feet_offset[1], -0.9f, 1e-6f);
    SW_CHECK_NEAR(shape.feet_offset[2], 0.0f, 1e-6f);
    SW_CHECK_NEAR(shape.height, 1.6f, 1e-6f);
    SW_CHECK_NEAR(shape.radius, 0.2f, 1e-6f); /* half the narrower extent (Z) */
    /* The same pose, unplaced: the bounds' bottom centre. */
    sw__feedback_body body;
    sw__feedback_body_at(&shape, hips, NULL, &body);
    SW_CHECK_NEAR(body.feet[0], 0.0f, 1e-6f);
    SW_CHECK_NEAR(body.feet[1], 0.0f, 1e-6f);
    SW_CHECK_NEAR(body.feet[2], 0.0f, 1e-6f);
    /* Root motion 1.5 forward, hips 0.1 higher, placed 2 along X and −1
       along Z: the feet at (2, 0.1, 0.5). */
    const sw_mat34 place = sw_mat34_translation(sw_vec3_make(2.0f, 0.0f, -1.0f));
    sw__feedback_body_at(&shape, (const float[3]){0.02f, 1.0f, 1.5f}, &place, &body);
    SW_CHECK_NEAR(body.feet[0], 2.0f, 1e-6f);
    SW_CHECK_NEAR(body.feet[1], 0.1f, 1e-6f);
    SW_CHECK_NEAR(body.feet[2], 0.5f, 1e-6f);
    SW_CHECK_NEAR(body.height, 1.6f, 1e-6f);
    /* A placement scaled ×2 and turned a quarter about Y: (x, z) → (z, −x). */
    sw_mat34 turn = {{{0.0f, 0.0f, 2.0f, 0.0f}, {0.0f, 2.0f, 0.0f, 0.0f}, {-2.0f, 0.0f, 0.0f, 0.0f}}};
    sw__feedback_body_at(&shape, (const float[3]){1.02f, 0.9f, 0.5f}, &turn, &body);
    SW_CHECK_NEAR(body.feet[0], 1.0f, 1e-6f);
    SW_CHECK_NEAR(body.feet[1], 0.0f, 1e-6f);
    SW_CHECK_NEAR(body.feet[2], -2.0f, 1e-6f);
    SW_CHECK_NEAR(body.height, 3.2f, 1e-6f);
    SW_CHECK_NEAR(body.radius, 0.4f, 1e-6f);
    /* A flat box is no body. */
    SW_CHECK(!sw__feedback_shape_of(lo, (const float[3]){0.3f, 0.0f, 0.2f}, hips, &shape));
}

/* The joint that carries her: down from the skeleton's top through single
   joint children to the first that branches. Nodes: 0 Scene root (not a
   joint), 1 Root, 2 Hips, 3 Spine, 4 LeftLeg, 5 RightLeg. */
static void test_carrying_joint(void) {
    static const uint32_t scene_children[] = {1}, root_children[] = {2}, hips_children[] = {3, 4, 5};
    sw_model_node nodes[6] = {
        {.parent = -1, .child_count = 1, .children = scene_children},
        {.parent = 0, .child_count = 1, .children = root_children},
        {.parent = 1, .child_count = 3, .children = hips_children},
        {.parent = 2}, {.parent = 2}, {.parent = 2},
    };
    static const uint32_t all[] = {3, 1, 2, 4, 5}, no_root[] = {2, 3, 4, 5}, legs[] = {4, 5};
    sw_model_skin skin = {.joint_count = 5, .joints = all, .skeleton = -1};
    sw_model model = {.node_count = 6, .nodes = nodes, .skin_count = 1, .skins = &skin};
    SW_CHECK(sw__feedback_joint(&model) == 2); /* Root has one joint child: Hips */
    skin = (sw_model_skin){.joint_count = 4, .joints = no_root, .skeleton = -1};
    SW_CHECK(sw__feedback_joint(&model) == 2);
    skin = (sw_model_skin){.joint_count = 2, .joints = legs, .skeleton = -1};
    SW_CHECK(sw__feedback_joint(&model) == 4); /* the topmost joint, a leaf */
    model.skin_count = 0;
    SW_CHECK(sw__feedback_joint(&model) == -1);
}

int main(void) {
    SW_RUN(test_body_follows);
    SW_RUN(test_carrying_joint);
    SW_RUN(test_apply);
    SW_RUN(test_worked_example);
    SW_RUN(test_colour_converges);
    SW_RUN(test_shadow_runs_to_the_clamp);
    SW_RUN(test_layout);
    SW_RUN(test_read);
    return sw_test_finish();
}
