/* sw_model_ground_height (sinew/pose.h): the highest walkable triangle
   under a point, on the stage fixture (tests/data/stage/make_stage.py),
   against heights worked out by hand from the fixture's geometry:
     ground y = 0 over x, z in [-10, 10];
     box top y = 1 over x in [1.5, 2.5], z in [-0.5, 0.5] (node translated by 2 in x);
     ramp y = (x + 3) tan 30° over x in [-3, -1], z in [-1, 1] (walkable);
     wall rising 60° over z in [-4, -3] (normal.y 0.5 < cos 50°: not walkable). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"
#include "sinew/gltf.h"
#include "sinew/pose.h"

static sw_model* g_stage;
static sw_pose g_rest;
static void* g_memory;

static bool load_stage(void) {
    sw_diag d;
    if (sw_gltf_load_file(SW_TEST_DATA_DIR "/stage/stage.gltf", NULL, &g_stage, &d) != SW_OK) {
        fprintf(stderr, "stage.gltf: %s\n", d.message);
        return false;
    }
    sw_pose_sizes sizes = sw_pose_sizes_of(g_stage);
    g_memory = aligned_alloc(16, sw_pose_memory_size(&sizes));
    sw_pose_bind(&g_rest, &sizes, g_memory);
    sw_pose_rest(g_stage, &g_rest);
    sw_pose_update(g_stage, &g_rest);
    return true;
}

/* The height under (x, z), placed; *found says whether there is one. */
static float height(const sw_mat34* placement, float x, float z, bool* found) {
    float y = -99.0f;
    sw_diag d;
    SW_CHECK(sw_model_ground_height(g_stage, &g_rest, placement, x, z, &y, found, &d) == SW_OK);
    return y;
}

static void test_hand_cases(void) {
    bool found = false;
    const float t30 = tanf(30.0f * 3.14159265f / 180.0f);
    SW_CHECK_NEAR(height(NULL, 0.0f, 0.0f, &found), 0.0, 1e-6);
    SW_CHECK(found);
    /* The box top, not the ground under it nor the box's bottom face. */
    SW_CHECK_NEAR(height(NULL, 2.0f, 0.0f, &found), 1.0, 1e-6);
    SW_CHECK(found);
    SW_CHECK_NEAR(height(NULL, 2.5f, 0.5f, &found), 1.0, 1e-6); /* the top's corner: edges count */
    SW_CHECK_NEAR(height(NULL, 2.6f, 0.0f, &found), 0.0, 1e-6); /* just beside it: the ground */
    /* The ramp: (x + 3) tan 30°. */
    SW_CHECK_NEAR(height(NULL, -2.0f, 0.0f, &found), t30, 1e-5);
    SW_CHECK_NEAR(height(NULL, -1.25f, 0.75f, &found), 1.75f * t30, 1e-5);
    /* The wall is too steep to stand on: the ground under it. */
    SW_CHECK_NEAR(height(NULL, 0.0f, -3.5f, &found), 0.0, 1e-6);
    SW_CHECK(found);
    /* Off the stage: nothing. */
    height(NULL, 30.0f, 0.0f, &found);
    SW_CHECK(!found);
}

static void test_placed(void) {
    bool found = false;
    /* Moved by (5, 0.25, -1): the box top at y 1.25 over x in [6.5, 7.5], z in [-1.5, -0.5]. */
    const sw_mat34 moved = sw_mat34_translation(sw_vec3_make(5.0f, 0.25f, -1.0f));
    SW_CHECK_NEAR(height(&moved, 7.0f, -1.0f, &found), 1.25, 1e-6);
    SW_CHECK(found);
    SW_CHECK_NEAR(height(&moved, 2.0f, 0.0f, &found), 0.25, 1e-6); /* the ground there now */
    /* Turned upside down (180° about x): every triangle faces down, none is walkable. */
    sw_mat34 flipped = sw_mat34_identity();
    flipped.m[1][1] = -1.0f, flipped.m[2][2] = -1.0f;
    height(&flipped, 0.0f, 0.0f, &found);
    SW_CHECK(!found);
    /* Turned 90° about y (x' = z, z' = -x): the box top over x' in [-0.5, 0.5], z' in [-2.5, -1.5]. */
    sw_mat34 turned = sw_mat34_identity();
    turned.m[0][0] = 0.0f, turned.m[0][2] = 1.0f, turned.m[2][0] = -1.0f, turned.m[2][2] = 0.0f;
    SW_CHECK_NEAR(height(&turned, 0.0f, -2.0f, &found), 1.0, 1e-6);
}

static void test_bad_arguments(void) {
    float y;
    bool found;
    sw_diag d;
    SW_CHECK(sw_model_ground_height(NULL, &g_rest, NULL, 0, 0, &y, &found, &d) == SW_ERR_INVALID_ARGUMENT);
    SW_CHECK(sw_model_ground_height(g_stage, &g_rest, NULL, 0, 0, NULL, &found, &d) == SW_ERR_INVALID_ARGUMENT);
}

int main(void) {
    if (!load_stage()) return 1;
    SW_RUN(test_hand_cases);
    SW_RUN(test_placed);
    SW_RUN(test_bad_arguments);
    sw_model_free(g_stage);
    free(g_memory);
    return sw_test_finish();
}
