/* The library's first-steps helpers: sw_model_find_clip (clip by name) and
   the rule that every *_memory_size / *_scratch_size is a multiple of 16,
   the alignment the buffers are asked to have, so that each can go to
   aligned_alloc(16, size) as it is (C11 wants a size that is a multiple of
   the alignment). */
#include <stdint.h>
#include <string.h>

#include "harness.h"
#include "sinew/constraint.h"
#include "sinew/gltf.h"
#include "sinew/pose.h"
#include "sinew/skin.h"
#include "sinew/spring.h"

static void test_find_clip(void) {
    sw_clip clips[5] = {
        {.name = "Walk"}, {.name = NULL}, {.name = "walk"}, {.name = "Robot_Walking"}, {.name = "robot_walking"},
    };
    sw_model model;
    memset(&model, 0, sizeof model);
    model.animations = clips;
    model.animation_count = 5;
    /* Exact match first, wherever it is; then the first that differs only in case. */
    SW_CHECK_EQ_INT(sw_model_find_clip(&model, "Walk"), 0);
    SW_CHECK_EQ_INT(sw_model_find_clip(&model, "walk"), 2);
    SW_CHECK_EQ_INT(sw_model_find_clip(&model, "WALK"), 0);
    SW_CHECK_EQ_INT(sw_model_find_clip(&model, "robot_walking"), 4);
    SW_CHECK_EQ_INT(sw_model_find_clip(&model, "ROBOT_walking"), 3);
    /* Absent, empty, a prefix, and the unnamed clip: -1. */
    SW_CHECK_EQ_INT(sw_model_find_clip(&model, "run"), -1);
    SW_CHECK_EQ_INT(sw_model_find_clip(&model, ""), -1);
    SW_CHECK_EQ_INT(sw_model_find_clip(&model, "Wal"), -1);
    SW_CHECK_EQ_INT(sw_model_find_clip(&model, NULL), -1);
    SW_CHECK_EQ_INT(sw_model_find_clip(NULL, "Walk"), -1);
    model.animation_count = 0;
    SW_CHECK_EQ_INT(sw_model_find_clip(&model, "Walk"), -1);
}

/* On a file: clips keep their names through the importer. */
static void test_find_clip_in_file(void) {
    sw_model* model = NULL;
    sw_diag diag;
    if (sw_gltf_load_file(SW_TEST_DATA_DIR "/gltf/pose_chain.gltf", NULL, &model, &diag) != SW_OK) {
        fprintf(stderr, "%s\n", diag.message);
        SW_CHECK(0);
        return;
    }
    SW_CHECK(model->animation_count > 0);
    for (size_t i = 0; i < model->animation_count; ++i)
        if (model->animations[i].name) SW_CHECK_EQ_INT(sw_model_find_clip(model, model->animations[i].name), (int)i);
    sw_model_free(model);
}

#define CHECK_MULTIPLE_OF_16(size)                                                      \
    do {                                                                                \
        size_t sw__size = (size);                                                       \
        if (sw__size % 16 != 0) fprintf(stderr, "  %s = %zu\n", #size, sw__size);       \
        SW_CHECK(sw__size % 16 == 0);                                                   \
    } while (0)

/* Counts chosen so that no array's bytes are a multiple of 16 by chance. */
static void test_memory_sizes_are_multiples_of_16(void) {
    for (size_t n = 0; n < 9; ++n) {
        sw_pose_sizes pose = {.node_count = n, .weight_count = 2 * n + 1, .cursor_count = n + 3,
                              .skin_count = n % 3, .palette_count = n + 1};
        CHECK_MULTIPLE_OF_16(sw_pose_memory_size(&pose));
        SW_CHECK(sw_pose_memory_size(&pose) > 0);
        sw_spring_sizes spring = {.bone_count = n, .node_count = 3 * n + 1, .model_node_count = n + 5};
        CHECK_MULTIPLE_OF_16(sw_spring_memory_size(&spring));
        SW_CHECK(sw_spring_memory_size(&spring) > 0);
    }
    for (int rings = 7; rings <= 13; rings += 3)
        for (int segments = 3; segments <= 9; segments += 2) {
            sw_twist_tube_desc tube = {.length = 1.0f, .radius = 0.1f, .rings = rings, .segments = segments};
            size_t size = sw_twist_tube_measure_scratch_size(&tube);
            SW_CHECK(size > 0);
            CHECK_MULTIPLE_OF_16(size);
        }
    uint16_t joints[7 * 3] = {0};
    float weights[7 * 3] = {0}, positions[7 * 3] = {0};
    for (size_t v = 0; v < 7; ++v) weights[3 * v] = 1.0f;
    for (size_t vertices = 1; vertices <= 7; vertices += 2) {
        sw_skin_compact_desc compact = {.vertex_count = vertices, .influence_count = 3, .joint_count = 2,
                                        .joints = joints, .weights = weights, .positions = positions};
        size_t size = sw_skin_compact_memory_size(&compact);
        SW_CHECK(size > 0);
        CHECK_MULTIPLE_OF_16(size);
    }

    sw_model* model = NULL;
    sw_diag diag;
    if (sw_gltf_load_file(SW_TEST_DATA_DIR "/gltf/morph_skin.gltf", NULL, &model, &diag) != SW_OK) {
        fprintf(stderr, "%s\n", diag.message);
        SW_CHECK(0);
        return;
    }
    size_t morphed = 0;
    for (size_t n = 0; n < model->node_count; ++n) {
        if (model->nodes[n].mesh < 0) continue;
        const sw_model_mesh* mesh = &model->meshes[model->nodes[n].mesh];
        for (size_t p = 0; p < mesh->primitive_count; ++p) {
            /* 0 (nothing needed, scratch may be NULL) or a multiple of 16. */
            size_t size = sw_deform_scratch_size(model, n, p);
            CHECK_MULTIPLE_OF_16(size);
            if (mesh->primitives[p].target_count > 0) {
                SW_CHECK(size > 0);
                ++morphed;
            }
        }
    }
    SW_CHECK(morphed > 0);
    for (size_t count = 0; count < 5; ++count) CHECK_MULTIPLE_OF_16(sw_constraint_memory_size(model, count));
    sw_model_free(model);
}

int main(void) {
    SW_RUN(test_find_clip);
    SW_RUN(test_find_clip_in_file);
    SW_RUN(test_memory_sizes_are_multiples_of_16);
    return sw_test_finish();
}
