/* Full-body IK on the demo character (43 joints): reachable targets reached,
   unreachable ones straighten the chain towards them, limits hold (measured
   from their definitions here), planted feet stay, same input same bits. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "sinew/anim.h"
#include "sinew/demo.h"
#include "sinew/fbik.h"
#include "sinew/gltf.h"
#include "sinew/retarget.h"

static sw_model* model;
static sw_humanoid_map map;
static sw_fbik_rig rig;
static void* rig_memory;
static int16_t parents[SW_MAX_JOINTS];

static bool setup(void) {
    uint8_t* glb = NULL;
    size_t size = 0;
    sw_diag diag;
    if (sw_demo_character_glb(&glb, &size, &diag) != SW_OK) return false;
    sw_result r = sw_gltf_load_memory(glb, size, SW_DEMO_CHARACTER_NAME, NULL, NULL, &model, &diag);
    sw_demo_character_glb_free(glb);
    if (r != SW_OK || sw_humanoid_map_guess(model, NULL, &map, NULL, &diag) != SW_OK) return false;
    size_t bytes = sw_fbik_memory_size(model->node_count);
    rig_memory = aligned_alloc(16, bytes);
    if (sw_fbik_rig_build(&rig, model, &map, rig_memory, bytes, &diag) != SW_OK) {
        fprintf(stderr, "  rig: %s\n", diag.message);
        return false;
    }
    for (size_t i = 0; i < model->node_count; i++) parents[i] = (int16_t)model->nodes[i].parent;
    return true;
}

/* Model-space position of a node, by a local→model pass of the test's own. */
static sw_vec3 position(const sw_transform* local, int32_t node) {
    sw_mat34 world[64];
    sw_local_to_model_job job = {.parents = parents, .joint_count = model->node_count, .local = local, .out_model = world};
    sw_local_to_model_job_run(&job);
    return sw_vec3_make(world[node].m[0][3], world[node].m[1][3], world[node].m[2][3]);
}

static int32_t bone(sw_humanoid_bone b) { return map.node[b]; }

/* The largest limit violation of any chain joint, measured from the
   definitions: a hinge's rotation must be about its axis by an angle in
   range; a cone's swing (the angle the bone axis turns) at most the cone,
   its twist (the angle about the axis, by swing-twist) at most the limit. */
static double worst_violation(const sw_transform* local) {
    double worst = 0;
    for (int c = 0; c < SW_FBIK_CHAIN_COUNT; c++) {
        const sw_fbik_chain* ch = &rig.chains[c];
        for (uint32_t k = 0; k + 1 < ch->count; k++) {
            const sw_fbik_limit* l = &ch->limit[k];
            sw_quat q = sw_quat_mul(sw_quat_conjugate(ch->rest_rotation[k]), local[ch->node[k]].rotation);
            if (q.w < 0) q.x = -q.x, q.y = -q.y, q.z = -q.z, q.w = -q.w;
            sw_vec3 v = sw_vec3_make(q.x, q.y, q.z);
            double along = sw_vec3_dot(v, l->axis);
            double twist = 2 * atan2(along, q.w);
            if (l->type == SW_FBIK_LIMIT_HINGE) {
                double off = sw_vec3_length(sw_vec3_sub(v, sw_vec3_scale(l->axis, (float)along)));
                worst = fmax(worst, 2 * asin(fmin(1.0, off)));
                worst = fmax(worst, fmax(l->min_angle - twist, twist - l->max_angle));
            } else if (l->type == SW_FBIK_LIMIT_CONE) {
                double swing = acos(fmin(1.0, fmax(-1.0, sw_vec3_dot(sw_quat_rotate(q, l->axis), l->axis))));
                worst = fmax(worst, swing - l->cone_angle);
                worst = fmax(worst, fabs(twist) - l->twist_limit);
            }
        }
    }
    return worst;
}

static void rest(sw_transform* local) { memcpy(local, model->rest_local, model->node_count * sizeof *local); }

static const sw_humanoid_bone effector_bone[SW_FBIK_EFFECTOR_COUNT] = {
    SW_HUMANOID_HIPS, SW_HUMANOID_HEAD, SW_HUMANOID_LEFT_HAND, SW_HUMANOID_RIGHT_HAND, SW_HUMANOID_LEFT_FOOT,
    SW_HUMANOID_RIGHT_FOOT};

/* Every effector on, at its rest position moved by offsets[e]. */
static sw_fbik_desc desc_from_rest(const sw_vec3* offsets) {
    sw_fbik_desc d = {0};
    for (int e = 0; e < SW_FBIK_EFFECTOR_COUNT; e++) {
        d.effectors[e].position = sw_vec3_add(position(model->rest_local, bone(effector_bone[e])), offsets[e]);
        d.effectors[e].weight = 1.0f;
    }
    return d;
}

static void test_reachable_targets_are_reached(void) {
    sw_transform local[64];
    sw_mat34 world[64];
    const sw_vec3 offsets[SW_FBIK_EFFECTOR_COUNT] = {
        {0, -0.05f, 0.02f}, {0.0f, -0.08f, 0.14f}, {-0.15f, 0.25f, 0.25f}, {0.1f, 0.35f, 0.15f}, {0, 0, 0}, {0, 0, 0}};
    sw_fbik_desc d = desc_from_rest(offsets);
    d.iterations = 40, d.tolerance = 1e-5f;
    rest(local);
    sw_fbik_result r = sw_fbik_solve(&rig, &d, local, world);
    double worst = 0;
    for (int e = 0; e < SW_FBIK_EFFECTOR_COUNT; e++)
    {
        double r_e = sw_vec3_length(sw_vec3_sub(position(local, bone(effector_bone[e])), d.effectors[e].position));
        worst = fmax(worst, r_e);
    }
    double violation = worst_violation(local);
    fprintf(stderr, "  residual %.3g m (reported %.3g) after %d iterations; limit violation %.3g rad\n", worst,
            (double)r.residual, r.iterations, violation);
    SW_CHECK(worst < 1e-3);
    SW_CHECK_NEAR(worst, r.residual, 1e-5);
    SW_CHECK(violation < 1e-4);
}

static void test_unreachable_target_straightens_the_arm(void) {
    sw_transform local[64];
    sw_mat34 world[64];
    rest(local);
    sw_vec3 shoulder = position(local, bone(SW_HUMANOID_LEFT_UPPER_ARM));
    sw_fbik_desc d = {.pin_hips = true};
    sw_vec3 target = sw_vec3_add(shoulder, sw_vec3_make(2.0f, 0.3f, 0.4f));
    d.effectors[SW_FBIK_LEFT_HAND] = (sw_fbik_effector){target, 1.0f};
    sw_fbik_result r = sw_fbik_solve(&rig, &d, local, world);
    sw_vec3 elbow = position(local, bone(SW_HUMANOID_LEFT_LOWER_ARM)), hand = position(local, bone(SW_HUMANOID_LEFT_HAND));
    sw_vec3 want = sw_vec3_normalize(sw_vec3_sub(target, shoulder));
    double a1 = acos(fmin(1.0, sw_vec3_dot(sw_vec3_normalize(sw_vec3_sub(elbow, shoulder)), want)));
    double a2 = acos(fmin(1.0, sw_vec3_dot(sw_vec3_normalize(sw_vec3_sub(hand, elbow)), want)));
    fprintf(stderr, "  upper arm %.3g°, forearm %.3g° off the line to the target; residual %.3g m\n", a1 * 180 / SW_PI,
            a2 * 180 / SW_PI, (double)r.residual);
    SW_CHECK(a1 < 0.5 * SW_PI / 180 && a2 < 0.5 * SW_PI / 180);
    SW_CHECK(r.residual > 1.0f);
    SW_CHECK(worst_violation(local) < 1e-4);
    /* the pinned hips did not move, the other chains were left alone */
    SW_CHECK(memcmp(&local[bone(SW_HUMANOID_HIPS)], &model->rest_local[bone(SW_HUMANOID_HIPS)], sizeof *local) == 0);
    SW_CHECK(memcmp(&local[bone(SW_HUMANOID_RIGHT_UPPER_ARM)], &model->rest_local[bone(SW_HUMANOID_RIGHT_UPPER_ARM)],
                    sizeof *local) == 0);
}

static void test_feet_stay_planted_while_the_hands_move(void) {
    sw_transform local[64];
    sw_mat34 world[64];
    rest(local);
    const sw_vec3 zero[SW_FBIK_EFFECTOR_COUNT] = {{0, 0, 0}};
    sw_fbik_desc d = desc_from_rest(zero);
    d.effectors[SW_FBIK_HIPS].weight = 0.0f, d.effectors[SW_FBIK_HEAD].weight = 0.0f;
    double feet = 0, hands = 0, violation = 0;
    for (int frame = 0; frame < 30; frame++) {
        float a = (float)frame * 0.2f;
        d.effectors[SW_FBIK_LEFT_HAND].position =
            sw_vec3_add(position(model->rest_local, bone(SW_HUMANOID_LEFT_HAND)),
                        sw_vec3_make(-0.1f, 0.2f + 0.1f * sinf(a), 0.2f + 0.1f * cosf(a)));
        d.effectors[SW_FBIK_RIGHT_HAND].position =
            sw_vec3_add(position(model->rest_local, bone(SW_HUMANOID_RIGHT_HAND)),
                        sw_vec3_make(0.1f, 0.15f - 0.1f * sinf(a), 0.25f));
        sw_fbik_solve(&rig, &d, local, world);
        for (int e = SW_FBIK_LEFT_FOOT; e <= SW_FBIK_RIGHT_FOOT; e++)
            feet = fmax(feet, sw_vec3_length(sw_vec3_sub(position(local, bone(effector_bone[e])), d.effectors[e].position)));
        for (int e = SW_FBIK_LEFT_HAND; e <= SW_FBIK_RIGHT_HAND; e++)
            hands = fmax(hands, sw_vec3_length(sw_vec3_sub(position(local, bone(effector_bone[e])), d.effectors[e].position)));
        violation = fmax(violation, worst_violation(local));
    }
    fprintf(stderr, "  30 frames: feet moved %.3g m, hands off by %.3g m, violation %.3g rad\n", feet, hands, violation);
    SW_CHECK(feet < 1e-4);
    SW_CHECK(hands < 1e-3);
    SW_CHECK(violation < 1e-4);
}

static void test_limits_hold_for_wild_targets(void) {
    sw_transform local[64];
    sw_mat34 world[64];
    double violation = 0;
    for (int trial = 0; trial < 20; trial++) {
        rest(local);
        sw_fbik_desc d = {0};
        for (int e = 0; e < SW_FBIK_EFFECTOR_COUNT; e++) {
            float s = (float)(trial * 7 + e * 3);
            d.effectors[e].position = sw_vec3_make(sinf(s) * 1.5f, 1.0f + cosf(1.3f * s), sinf(0.7f * s) * 1.5f);
            d.effectors[e].weight = 0.5f + 0.5f * (float)((trial + e) % 2);
        }
        sw_fbik_solve(&rig, &d, local, world);
        violation = fmax(violation, worst_violation(local));
    }
    fprintf(stderr, "  20 wild target sets: worst violation %.3g rad\n", violation);
    SW_CHECK(violation < 1e-4);
}

static void test_deterministic(void) {
    sw_transform a[64], b[64];
    sw_mat34 world[64];
    const sw_vec3 offsets[SW_FBIK_EFFECTOR_COUNT] = {{0.05f, 0, 0}, {0, 0, 0.1f}, {0.3f, 0.4f, 0}, {0, 0.5f, 0.2f}, {0, 0.1f, 0}, {0, 0, 0.2f}};
    sw_fbik_desc d = desc_from_rest(offsets);
    rest(a), rest(b);
    sw_fbik_solve(&rig, &d, a, world);
    sw_fbik_solve(&rig, &d, b, world);
    SW_CHECK(memcmp(a, b, model->node_count * sizeof *a) == 0);
}

static void test_missing_bone_is_named(void) {
    sw_humanoid_map broken = map;
    broken.node[SW_HUMANOID_LEFT_HAND] = -1;
    sw_fbik_rig r;
    sw_diag diag;
    size_t bytes = sw_fbik_memory_size(model->node_count);
    SW_CHECK(sw_fbik_rig_build(&r, model, &broken, rig_memory, bytes, &diag) == SW_ERR_INVALID_DATA);
    SW_CHECK(strstr(diag.message, "leftHand") != NULL);
    SW_CHECK(sw_fbik_rig_build(&r, model, &map, rig_memory, bytes - 16, &diag) == SW_ERR_INVALID_ARGUMENT);
    /* rebuild the shared rig in the memory just reused */
    SW_CHECK(sw_fbik_rig_build(&rig, model, &map, rig_memory, bytes, &diag) == SW_OK);
}

int main(void) {
    if (!setup() || model->node_count > 64) {
        fprintf(stderr, "demo character or its humanoid map failed\n");
        return EXIT_FAILURE;
    }
    SW_RUN(test_reachable_targets_are_reached);
    SW_RUN(test_unreachable_target_straightens_the_arm);
    SW_RUN(test_feet_stay_planted_while_the_hands_move);
    SW_RUN(test_limits_hold_for_wild_targets);
    SW_RUN(test_deterministic);
    SW_RUN(test_missing_bone_is_named);
    free(rig_memory);
    sw_model_free(model);
    return sw_test_finish();
}
