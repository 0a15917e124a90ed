/* The pose API (sinew/pose.h) on a model whose file lists a child before
   its parent (tests/data/gltf/make_pose_chain.py): buffer sizes and
   layout, the parents-first reordering, and world matrices, skin matrices,
   dual quaternions and deformed vertices against values worked out by
   hand from the file. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "sinew/gltf.h"
#include "sinew/pose.h"

#define R2 0.70710678118654752 /* √2/2 */
#define PI 3.14159265358979323846

static sw_model* load_chain(void) {
    sw_model* model = NULL;
    sw_diag diag;
    sw_result r = sw_gltf_load_file(SW_TEST_DATA_DIR "/gltf/pose_chain.gltf", NULL, &model, &diag);
    if (r != SW_OK) fprintf(stderr, "%s\n", diag.message);
    SW_CHECK_EQ_INT(r, SW_OK);
    return model;
}

static void* bind_pose(const sw_model* model, sw_pose* pose) {
    sw_pose_sizes sizes = sw_pose_sizes_of(model);
    void* memory = aligned_alloc(16, sw_pose_memory_size(&sizes));
    SW_CHECK(memory != NULL);
    sw_pose_bind(pose, &sizes, memory);
    return memory;
}

/* Row r of a 3×4 matrix against (x, y, z, w). */
static void check_row(const sw_mat34* m, int r, double x, double y, double z, double w) {
    SW_CHECK_NEAR(m->m[r][0], x, 1e-6);
    SW_CHECK_NEAR(m->m[r][1], y, 1e-6);
    SW_CHECK_NEAR(m->m[r][2], z, 1e-6);
    SW_CHECK_NEAR(m->m[r][3], w, 1e-6);
}

/* A rotation by `deg` about Z, scaled by `s`, then a translation. */
static void check_z_rotation(const sw_mat34* m, double deg, double s, double tx, double ty, double tz) {
    double c = cos(deg * PI / 180.0) * s, n = sin(deg * PI / 180.0) * s;
    check_row(m, 0, c, -n, 0, tx);
    check_row(m, 1, n, c, 0, ty);
    check_row(m, 2, 0, 0, s, tz);
}

/* Sizes: 4 nodes, no morph weights, the most tracks of any clip (2), one
   skin of 2 joints; the block holds every buffer 16-aligned, apart. */
static void test_sizes_and_layout(void) {
    sw_model* model = load_chain();
    if (!model) return;
    sw_pose_sizes sizes = sw_pose_sizes_of(model);
    SW_CHECK_EQ_INT(sizes.node_count, 4);
    SW_CHECK_EQ_INT(sizes.weight_count, 0);
    SW_CHECK_EQ_INT(sizes.cursor_count, 2);
    SW_CHECK_EQ_INT(sizes.skin_count, 1);
    SW_CHECK_EQ_INT(sizes.palette_count, 2);
    size_t bytes = sw_pose_memory_size(&sizes);
    SW_CHECK_EQ_INT(bytes % 16, 0);
    unsigned char* memory = aligned_alloc(16, bytes);
    SW_CHECK(memory != NULL);
    memset(memory, 0xab, bytes);
    sw_pose pose;
    sw_pose_bind(&pose, &sizes, memory);
    struct { const void* p; size_t size; } spans[] = {
        {pose.local, 4 * sizeof(sw_transform)},      {pose.cursors, 2 * sizeof(uint32_t)},
        {pose.world, 4 * sizeof(sw_mat34)},          {pose.skin_matrices, 2 * sizeof(sw_mat34)},
        {pose.skin_dual_quats, 2 * sizeof(sw_dualquat)}, {pose.skin_stretch, 2 * sizeof(sw_mat34)},
        {pose.skin_scaled, sizeof(size_t)},
    };
    size_t n = sizeof spans / sizeof spans[0];
    for (size_t i = 0; i < n; i++) {
        const unsigned char* p = spans[i].p;
        SW_CHECK(p >= memory && p + spans[i].size <= memory + bytes);
        SW_CHECK_EQ_INT((uintptr_t)p % 16, 0);
        for (size_t k = 0; k < n; k++) {
            const unsigned char* q = spans[k].p;
            if (k != i) SW_CHECK(p + spans[i].size <= q || q + spans[k].size <= p);
        }
    }
    SW_CHECK_EQ_INT(pose.cursors[0], 0);
    SW_CHECK_EQ_INT(pose.cursors[1], 0);
    SW_CHECK_EQ_INT(pose.skin_scaled[0], 0);
    free(memory);
    sw_model_free(model);
}

/* The file lists tip (0) before its parent root (1): the model stores
   root, tip, mesh, scaled, and every reference follows. */
static void test_parents_first(void) {
    sw_model* model = load_chain();
    if (!model) return;
    static const char* const names[4] = {"root", "tip", "mesh", "scaled"};
    static const uint32_t source[4] = {1, 0, 2, 3};
    static const int32_t parent[4] = {-1, 0, -1, 1};
    for (int i = 0; i < 4; i++) {
        SW_CHECK(strcmp(model->nodes[i].name, names[i]) == 0);
        SW_CHECK_EQ_INT(model->nodes[i].source_index, source[i]);
        SW_CHECK_EQ_INT(model->node_from_source[source[i]], i);
        SW_CHECK_EQ_INT(model->nodes[i].parent, parent[i]);
    }
    SW_CHECK_EQ_INT(model->nodes[0].child_count, 1);
    SW_CHECK_EQ_INT(model->nodes[0].children[0], 1);
    SW_CHECK_EQ_INT(model->nodes[1].children[0], 3);
    SW_CHECK_EQ_INT(model->skins[0].joints[0], 0);
    SW_CHECK_EQ_INT(model->skins[0].joints[1], 1);
    SW_CHECK_EQ_INT(model->skins[0].palette_offset, 0);
    SW_CHECK_EQ_INT(model->skin_joint_count, 2);
    SW_CHECK_EQ_INT(model->scenes[0].nodes[0], 0);
    SW_CHECK_EQ_INT(model->scenes[0].nodes[1], 2);
    SW_CHECK_EQ_INT(model->animations[0].tracks[0].target, 0); /* root's rotation */
    SW_CHECK_EQ_INT(model->animations[1].tracks[0].target, 1); /* tip's translation */
    /* The rest pose in model order: root's 90° turn, tip's offset, the
       matrix node as identity TRS. */
    SW_CHECK_NEAR(model->rest_local[0].rotation.z, R2, 1e-7);
    SW_CHECK_NEAR(model->rest_local[0].translation.x, 1.0, 0);
    SW_CHECK_NEAR(model->rest_local[1].translation.y, 1.0, 0);
    SW_CHECK_NEAR(model->rest_local[3].rotation.w, 1.0, 0);
    SW_CHECK_NEAR(model->rest_local[3].scale.x, 1.0, 0);
    sw_model_free(model);
}

/* Rest pose: the inverse binds are the rest world inverses, so every skin
   matrix is the identity; the scaled node is tip · (2·I, (0,0,3)). */
static void test_rest_pose(void) {
    sw_model* model = load_chain();
    if (!model) return;
    sw_pose pose;
    void* memory = bind_pose(model, &pose);
    sw_diag diag;
    SW_CHECK_EQ_INT(sw_pose_evaluate(model, NULL, 0.0f, false, &pose, &diag), SW_OK);
    check_z_rotation(&pose.world[0], 90, 1, 1, 0, 0);
    check_z_rotation(&pose.world[1], 90, 1, 0, 0, 0);  /* (1,0,0) + R90·(0,1,0) */
    check_z_rotation(&pose.world[3], 90, 2, 0, 0, 3);
    for (int j = 0; j < 2; j++) check_z_rotation(&pose.skin_matrices[j], 0, 1, 0, 0, 0);
    for (int j = 0; j < 2; j++) {
        SW_CHECK_NEAR(fabs(pose.skin_dual_quats[j].real.w), 1.0, 1e-6);
        SW_CHECK_NEAR(pose.skin_dual_quats[j].dual.x, 0.0, 1e-6);
    }
    SW_CHECK_EQ_INT(pose.skin_scaled[0], 0);
    free(memory);
    sw_model_free(model);
}

/* "turn" at t = 0.5: root at 135° about Z. By hand (θ = 135°):
     world root = T(1,0,0)·R(θ)
     world tip  = T(1 − sin θ, cos θ, 0)·R(θ) = T(1 − √2/2, −√2/2, 0)·R(135°)
     skin root  = world root · R(−90°)·T(−1,0,0) = R(45°) about (1,0,0)
     skin tip   = world tip · R(−90°)           = T(1 − √2/2, −√2/2, 0)·R(45°)
   and the vertices (2,0,0) on root, (0,1,0) on tip, (1,1,0) half and half:
     (1 + √2/2, √2/2, 0), (1 − √2, 0, 0), (1 − √2/2, √2/2, 0). Looping
   playback at t = 2.5 wraps to the same time; clamped playback at t = 7
   holds the last key (180°). */
static void test_clip_pose_and_deform(void) {
    sw_model* model = load_chain();
    if (!model) return;
    sw_pose pose;
    void* memory = bind_pose(model, &pose);
    sw_diag diag;
    const sw_clip* turn = &model->animations[0];
    for (int run = 0; run < 2; run++) {
        float time = run == 0 ? 0.5f : 2.5f;
        SW_CHECK_EQ_INT(sw_pose_evaluate(model, turn, time, run == 1, &pose, &diag), SW_OK);
        check_z_rotation(&pose.world[0], 135, 1, 1, 0, 0);
        check_z_rotation(&pose.world[1], 135, 1, 1 - R2, -R2, 0);
        check_z_rotation(&pose.world[3], 135, 2, 1 - R2, -R2, 3);
        /* R(45°) about (1,0,0): translation (1,0,0) − R45·(1,0,0) */
        check_z_rotation(&pose.skin_matrices[0], 45, 1, 1 - R2, -R2, 0);
        check_z_rotation(&pose.skin_matrices[1], 45, 1, 1 - R2, -R2, 0);

        static const double expected[3][3] = {{1 + R2, R2, 0}, {1 - 2 * R2, 0, 0}, {1 - R2, R2, 0}};
        float positions[9];
        for (int method = 0; method < 2; method++) {
            sw_deform d = {.node = 2, .primitive = 0, .method = method ? SW_SKIN_DQS : SW_SKIN_LBS,
                           .out_positions = positions};
            SW_CHECK_EQ_INT(sw_deform_scratch_size(model, 2, 0), 0);
            SW_CHECK_EQ_INT(sw_deform_primitive(model, &pose, &d, &diag), SW_OK);
            for (int v = 0; v < 3; v++)
                for (int c = 0; c < 3; c++) SW_CHECK_NEAR(positions[3 * v + c], expected[v][c], 1e-5);
        }
    }
    SW_CHECK_EQ_INT(sw_pose_evaluate(model, turn, 7.0f, false, &pose, &diag), SW_OK);
    check_z_rotation(&pose.world[0], 180, 1, 1, 0, 0);
    free(memory);
    sw_model_free(model);
}

/* Editing locals between sample and update (what blending and IK do):
   only world and palettes follow; DQS without dual quaternions and a node
   without a mesh are refused with a message. */
static void test_update_and_errors(void) {
    sw_model* model = load_chain();
    if (!model) return;
    sw_pose pose;
    void* memory = bind_pose(model, &pose);
    sw_diag diag;
    SW_CHECK_EQ_INT(sw_pose_sample(model, &model->animations[1], 0.5f, false, &pose, &diag), SW_OK);
    SW_CHECK_NEAR(pose.local[1].translation.y, 1.5, 1e-6); /* tip moved halfway to (0,2,0) */
    pose.local[1].translation = sw_vec3_make(0, 4, 0);
    sw_pose_update(model, &pose);
    /* world tip = (1,0,0) + R135·(0,4,0) = (1 − 4·sin135, 4·cos135, 0) */
    check_z_rotation(&pose.world[1], 135, 1, 1 - 4 * R2, -4 * R2, 0);

    float positions[9];
    sw_deform d = {.node = 2, .primitive = 0, .method = SW_SKIN_DQS, .out_positions = positions};
    pose.skin_dual_quats = NULL;
    SW_CHECK_EQ_INT(sw_deform_primitive(model, &pose, &d, &diag), SW_ERR_INVALID_ARGUMENT);
    SW_CHECK(strstr(diag.message, "dual quaternion") != NULL);
    d.node = 0;
    SW_CHECK_EQ_INT(sw_deform_primitive(model, &pose, &d, &diag), SW_ERR_INDEX_OUT_OF_RANGE);
    /* A clip whose tracks target nodes this model does not have. */
    sw_track track = model->animations[0].tracks[0];
    track.target = 9;
    sw_clip alien = {.track_count = 1, .tracks = &track, .duration = 1.0f};
    SW_CHECK(sw_pose_sample(model, &alien, 0.5f, false, &pose, &diag) != SW_OK);
    free(memory);
    sw_model_free(model);
}

int main(void) {
    SW_RUN(test_sizes_and_layout);
    SW_RUN(test_parents_first);
    SW_RUN(test_rest_pose);
    SW_RUN(test_clip_pose_and_deform);
    SW_RUN(test_update_and_errors);
    return sw_test_finish();
}
