/* The findings added for hostile files (sinew/check.h): extent_absurd,
   skin_joint_duplicate, joint_outside_scene, asserted as data on the files
   make_check_files.py writes into tests/data/check, and on models changed
   by hand here; plus the bind-pose reference and the raw duplicate scan,
   whose work is now bounded, on cases worked out by hand.

   The rig of every file (test_check_api.c says more): nodes 0 root
   (0,0,0) → 1 mid (0,1,0) → 2 tip (0,1,0) relative to mid, node 3
   "points" skinned by skin 0 = [root, mid, tip], inverse bind matrices
   that undo those translations; the points are (0.5,0,0), (0.5,1,0),
   (0.5,2,0), each weighted 1 to one joint, so the box is 2 units tall. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/check_util.h"

/* load(file): with raw influences; check(model, options): sw_check_model. */
static sw_model* load(const char* file) { return check_load(file, true); }
static sw_check_report* check(const sw_model* model, const sw_check_options* options) {
    return check_model(model, options);
}

/* The new codes come after the old ones (whose numbers, and SW_CHECK_BITs, stay). */
static void test_codes(void) {
    SW_CHECK_EQ_INT(SW_CHECK_INFLUENCES_UNUSED, 17);
    SW_CHECK_EQ_INT(SW_CHECK_EXTENT_ABSURD, 18);
    SW_CHECK_EQ_INT(SW_CHECK_CODE_COUNT, 25);
    /* the importer's two codes (import.h), appended after joint_outside_scene */
    SW_CHECK_EQ_INT(SW_CHECK_INFLUENCES_DROPPED, 21);
    SW_CHECK(strcmp(sw_check_code_str(SW_CHECK_HELPER_NODES_COLLAPSED), "helper_nodes_collapsed") == 0);
    SW_CHECK(strcmp(sw_check_code_str(SW_CHECK_EXTENT_ABSURD), "extent_absurd") == 0);
    SW_CHECK(strcmp(sw_check_code_str(SW_CHECK_SKIN_JOINT_DUPLICATE), "skin_joint_duplicate") == 0);
    SW_CHECK(strcmp(sw_check_code_str(SW_CHECK_JOINT_OUTSIDE_SCENE), "joint_outside_scene") == 0);
    SW_CHECK(sw_check_code_severity(SW_CHECK_EXTENT_ABSURD) == SW_CHECK_ERROR);
    SW_CHECK(sw_check_code_severity(SW_CHECK_SKIN_JOINT_DUPLICATE) == SW_CHECK_ERROR);
    SW_CHECK(sw_check_code_severity(SW_CHECK_JOINT_OUTSIDE_SCENE) == SW_CHECK_WARNING);
    SW_CHECK(SW_MODEL_MAX_EXTENT == 1e7);
}

/* Vertex 1 at x = −3e38, vertex 2 at z = 3e38: both 3e38 (as a float) from
   the origin, tied, the earlier first. The skinned positions are as far,
   but said once: nothing else is reported. */
static void test_extent_stored(void) {
    sw_check_report* r = check_file("extent_absurd.gltf", NULL);
    if (!r) return;
    SW_CHECK_EQ_INT(r->finding_count, 1);
    SW_CHECK_EQ_INT(r->error_count, 1);
    const sw_check_finding* f = only(r, SW_CHECK_EXTENT_ABSURD);
    if (f) {
        SW_CHECK(f->severity == SW_CHECK_ERROR);
        SW_CHECK_EQ_INT(f->mesh, 0);
        SW_CHECK_EQ_INT(f->primitive, 0);
        SW_CHECK_EQ_INT(f->skin, -1);
        SW_CHECK_EQ_INT(f->node, -1);
        SW_CHECK_EQ_INT(f->count, 2);
        SW_CHECK(f->value == (double)3e38f);
        SW_CHECK_EQ_INT(f->example_count, 2);
        SW_CHECK_EQ_INT(f->examples[0].vertex, 1);
        SW_CHECK_EQ_INT(f->examples[1].vertex, 2);
        SW_CHECK(f->examples[0].value == (double)3e38f);
        SW_CHECK_EQ_INT(f->examples[0].animation, -1);
        SW_CHECK(f->poses == NULL);
        SW_CHECK(strstr(f->message, "3e+38") && strstr(f->message, "1e+07"));
    }
    /* disabled: gone, and nothing takes its place */
    sw_check_report_free(r);
    r = check_file("extent_absurd.gltf", &(sw_check_options){.disabled = SW_CHECK_BIT(SW_CHECK_EXTENT_ABSURD)});
    if (r) SW_CHECK_EQ_INT(r->finding_count, 0);
    sw_check_report_free(r);
}

/* Not finite, in a model changed by hand (the importer refuses NaN and
   Inf): vertex 0 NaN, vertex 2 +Inf; the value is infinite. */
static void test_extent_not_finite(void) {
    sw_model* model = load("clean.gltf");
    if (!model) return;
    sw_model_mesh mesh = model->meshes[0];
    sw_model_primitive prim = mesh.primitives[0];
    SW_CHECK_EQ_INT(prim.vertex_count, 3);
    float positions[9];
    memcpy(positions, prim.positions, sizeof positions);
    positions[1] = NAN;
    positions[8] = INFINITY;
    prim.positions = positions;
    mesh.primitives = &prim;
    sw_model changed = *model;
    changed.meshes = &mesh;
    sw_check_report* r = check(&changed, NULL);
    if (r) {
        SW_CHECK_EQ_INT(r->error_count, 1);
        const sw_check_finding* f = only(r, SW_CHECK_EXTENT_ABSURD);
        if (f) {
            SW_CHECK_EQ_INT(f->count, 2);
            SW_CHECK(isinf(f->value));
            SW_CHECK_EQ_INT(f->examples[0].vertex, 0); /* both infinitely far: the earlier first */
            SW_CHECK_EQ_INT(f->examples[1].vertex, 2);
        }
    }
    sw_check_report_free(r);
    /* the bounds alone (a hand-made model whose bounds lie): count 0 */
    prim.positions = model->meshes[0].primitives[0].positions;
    prim.bounds_max[0] = 2e7f;
    r = check(&changed, NULL);
    if (r) {
        const sw_check_finding* f = only(r, SW_CHECK_EXTENT_ABSURD);
        if (f) {
            SW_CHECK_EQ_INT(f->count, 0);
            SW_CHECK(f->value == 2e7);
            SW_CHECK(strstr(f->message, "bounds") != NULL);
        }
    }
    sw_check_report_free(r);
    sw_model_free(model);
}

/* "fling" moves the tip to (0,2e7,0) relative to mid over 1 s: vertex 2
   (on the tip) goes from y = 2 to mid's 1 + 2e7 − 2 + 2 ≈ 2e7 at 1 s; the
   rest pose is sane. */
static void test_extent_posed(void) {
    sw_check_report* r = check_file("extent_posed.gltf", NULL);
    if (!r) return;
    SW_CHECK_EQ_INT(r->finding_count, 1);
    const sw_check_finding* f = only(r, SW_CHECK_EXTENT_ABSURD);
    if (f) {
        SW_CHECK_EQ_INT(f->mesh, 0);
        SW_CHECK_EQ_INT(f->primitive, 0);
        SW_CHECK_EQ_INT(f->skin, 0);
        SW_CHECK_EQ_INT(f->count, 1);
        SW_CHECK_NEAR(f->value, 2e7, 4.0);
        SW_CHECK_EQ_INT(f->example_count, 1);
        SW_CHECK_EQ_INT(f->examples[0].vertex, 2);
        SW_CHECK_EQ_INT(f->examples[0].animation, 0);
        SW_CHECK_NEAR(f->examples[0].time_s, 1.0, 1e-6);
        SW_CHECK(strstr(f->message, "\"fling\" at 1 s") != NULL);
    }
    sw_check_report_free(r);
}

/* Node 4 "far" draws the points' mesh unskinned, 5e7 up: the bounds
   (0.5,0,0)..(0.5,2,0) moved by T(0,5e7,0) reach y = 5e7 + 2. */
static void test_extent_placed(void) {
    sw_check_report* r = check_file("extent_placed.gltf", NULL);
    if (!r) return;
    SW_CHECK_EQ_INT(r->finding_count, 1);
    const sw_check_finding* f = only(r, SW_CHECK_EXTENT_ABSURD);
    if (f) {
        SW_CHECK_EQ_INT(f->node, 4);
        SW_CHECK_EQ_INT(f->mesh, 0);
        SW_CHECK_EQ_INT(f->primitive, 0);
        SW_CHECK_EQ_INT(f->skin, -1);
        SW_CHECK_EQ_INT(f->count, 3);
        SW_CHECK(f->value == 5e7 + 2.0);
    }
    sw_check_report_free(r);
}

/* Skin 0 lists [root, mid, tip, mid]: joint 3 repeats node 1, first listed
   as joint 1. Joint 3 weights no vertex (a note, as before). */
static void test_skin_joint_duplicate(void) {
    sw_check_report* r = check_file("skin_joint_duplicate.gltf", NULL);
    if (!r) return;
    SW_CHECK_EQ_INT(r->finding_count, 2);
    SW_CHECK_EQ_INT(r->error_count, 1);
    const sw_check_finding* f = only(r, SW_CHECK_SKIN_JOINT_DUPLICATE);
    if (f) {
        SW_CHECK_EQ_INT(f->skin, 0);
        SW_CHECK_EQ_INT(f->joint, 3);
        SW_CHECK_EQ_INT(f->node, 1);
        SW_CHECK_EQ_INT(f->count, 1);
        SW_CHECK(isnan(f->value));
        SW_CHECK_EQ_INT(f->example_count, 1);
        SW_CHECK_EQ_INT(f->examples[0].joint, 3);
        SW_CHECK(f->examples[0].value == 1.0);
    }
    if ((f = only(r, SW_CHECK_JOINT_UNUSED))) SW_CHECK_EQ_INT(f->examples[0].joint, 3);
    sw_check_report_free(r);
}

/* The file's scene holds the points (node 3) alone: joints 0, 1, 2 are
   outside it. Changing the scene by hand: the joints alone in it (the
   skinned node outside too) or no scene at all: nothing to say. */
static void test_joint_outside_scene(void) {
    sw_check_report* r = check_file("joint_outside_scene.gltf", NULL);
    if (r) {
        SW_CHECK_EQ_INT(r->finding_count, 1);
        const sw_check_finding* f = only(r, SW_CHECK_JOINT_OUTSIDE_SCENE);
        if (f) {
            SW_CHECK(f->severity == SW_CHECK_WARNING);
            SW_CHECK_EQ_INT(f->skin, 0);
            SW_CHECK_EQ_INT(f->node, 3);
            SW_CHECK_EQ_INT(f->count, 3);
            SW_CHECK_EQ_INT(f->joint, 0);
            SW_CHECK_EQ_INT(f->example_count, 3);
            SW_CHECK_EQ_INT(f->examples[2].joint, 2);
        }
        sw_check_report_free(r);
    }
    sw_model* model = load("joint_outside_scene.gltf");
    if (!model) return;
    uint32_t roots[2] = {model->node_from_source[0], model->node_from_source[3]};
    sw_model_scene scene = {.name = NULL, .node_count = 1, .nodes = roots};
    sw_model changed = *model;
    changed.scenes = &scene;
    changed.scene_count = 1;
    changed.default_scene = 0;
    if ((r = check(&changed, NULL))) SW_CHECK_EQ_INT(r->finding_count, 0); /* root only: the mesh is outside too */
    sw_check_report_free(r);
    scene.node_count = 2;
    if ((r = check(&changed, NULL))) SW_CHECK_EQ_INT(r->finding_count, 0); /* both: all in */
    sw_check_report_free(r);
    changed.scene_count = 0;
    changed.scenes = NULL;
    changed.default_scene = -1;
    if ((r = check(&changed, NULL))) SW_CHECK_EQ_INT(r->finding_count, 0); /* no scene */
    sw_check_report_free(r);
    sw_model_free(model);
}

/* Skin matrices set by hand through the inverse bind matrices of
   clean.gltf (rest world T(0,j,0) for joint j): IBM_j = S_j · T(0,−j,0)
   gives skin matrix S_j. The box is 2 tall, so a unit moves 0.5 of it. */
static sw_check_report* with_skin_matrices(const sw_model* model, const float x[3]) {
    sw_mat34 ibm[3];
    for (int j = 0; j < 3; j++) {
        memset(&ibm[j], 0, sizeof ibm[j]);
        ibm[j].m[0][0] = ibm[j].m[1][1] = ibm[j].m[2][2] = 1.0f;
        ibm[j].m[0][3] = x[j];
        ibm[j].m[1][3] = (float)-j;
    }
    sw_model_skin skin = model->skins[0];
    skin.inverse_bind = ibm;
    sw_model changed = *model;
    changed.skins = &skin;
    return check(&changed, NULL);
}

/* The reference of ibm_not_rest_pose: the transform most joints share,
   the lowest on ties. S = T(5,0,0), T(5,0,0), T(7,0,0): joints 0 and 1
   agree, joint 2 is 2 units (1 box) off. S = T(5), T(7), T(9): each joint
   agrees with itself alone, so joint 0 (the lowest) is the reference:
   joint 2 is 4 units (2 boxes) off, joint 1 2 units. */
static void test_bind_pose_reference(void) {
    sw_model* model = load("clean.gltf");
    if (!model) return;
    sw_check_report* r = with_skin_matrices(model, (const float[3]){5, 5, 7});
    const sw_check_finding* f;
    if (r && (f = only(r, SW_CHECK_IBM_NOT_REST_POSE))) {
        SW_CHECK_EQ_INT(f->count, 1);
        SW_CHECK_EQ_INT(f->joint, 2);
        SW_CHECK_NEAR(f->value, 1.0, 1e-6);
        SW_CHECK(strstr(f->message, "the transform the other joints share") != NULL);
    }
    sw_check_report_free(r);
    r = with_skin_matrices(model, (const float[3]){5, 7, 9});
    if (r && (f = only(r, SW_CHECK_IBM_NOT_REST_POSE))) {
        SW_CHECK_EQ_INT(f->count, 2);
        SW_CHECK_EQ_INT(f->example_count, 2);
        SW_CHECK_EQ_INT(f->examples[0].joint, 2);
        SW_CHECK_NEAR(f->examples[0].value, 2.0, 1e-6);
        SW_CHECK_EQ_INT(f->examples[1].joint, 1);
    }
    sw_check_report_free(r);
    /* all three shared: the mesh moved as a whole, a note */
    r = with_skin_matrices(model, (const float[3]){5, 5, 5});
    if (r && (f = only(r, SW_CHECK_BIND_POSE_OFFSET))) SW_CHECK_EQ_INT(f->count, 3);
    sw_check_report_free(r);
    sw_model_free(model);
}

/* Raw influences with more slots than are compared pairwise (20): the
   first slot that has a later twin decides, not the first twin found.
   Vertex 0: joint 1 in slots 2 and 9, joint 2 in 5 and 15: joint 1.
   Vertex 1: joint 2 in slots 1 and 19, joint 1 in 4 and 6: joint 2 (slot
   1 comes first, though 4 and 6 pair sooner). Every weight 0.25, so both
   are worth 0.5 and the earlier vertex leads. Vertex 2: all on joint 2 in
   slot 0. Unused slots name joint 0 (which no vertex weights: a note). */
static void test_raw_duplicates_many_slots(void) {
    sw_model* model = load("clean.gltf");
    if (!model) return;
    enum { SLOTS = 20 };
    uint16_t joints[3 * SLOTS] = {0};
    float weights[3 * SLOTS] = {0};
    joints[2] = 1, joints[9] = 1, joints[5] = 2, joints[15] = 2;
    weights[2] = weights[9] = weights[5] = weights[15] = 0.25f;
    joints[SLOTS + 1] = 2, joints[SLOTS + 19] = 2, joints[SLOTS + 4] = 1, joints[SLOTS + 6] = 1;
    weights[SLOTS + 1] = weights[SLOTS + 19] = weights[SLOTS + 4] = weights[SLOTS + 6] = 0.25f;
    joints[2 * SLOTS] = 2, weights[2 * SLOTS] = 1.0f;
    sw_model_mesh mesh = model->meshes[0];
    sw_model_primitive prim = mesh.primitives[0];
    prim.raw_influence_count = SLOTS;
    prim.raw_joints = joints;
    prim.raw_weights = weights;
    mesh.primitives = &prim;
    sw_model changed = *model;
    changed.meshes = &mesh;
    sw_check_report* r = check(&changed, NULL);
    const sw_check_finding* f;
    if (r && (f = only(r, SW_CHECK_JOINT_DUPLICATE))) {
        SW_CHECK_EQ_INT(f->count, 2);
        SW_CHECK_EQ_INT(f->example_count, 2);
        SW_CHECK_EQ_INT(f->examples[0].vertex, 0);
        SW_CHECK_EQ_INT(f->examples[0].joint, 1);
        SW_CHECK(f->examples[0].value == 0.5);
        SW_CHECK_EQ_INT(f->examples[1].vertex, 1);
        SW_CHECK_EQ_INT(f->examples[1].joint, 2);
        SW_CHECK(f->examples[1].value == 0.5);
    }
    sw_check_report_free(r);
    sw_model_free(model);
}

int main(void) {
    SW_RUN(test_codes);
    SW_RUN(test_extent_stored);
    SW_RUN(test_extent_not_finite);
    SW_RUN(test_extent_posed);
    SW_RUN(test_extent_placed);
    SW_RUN(test_skin_joint_duplicate);
    SW_RUN(test_joint_outside_scene);
    SW_RUN(test_bind_pose_reference);
    SW_RUN(test_raw_duplicates_many_slots);
    return sw_test_finish();
}
