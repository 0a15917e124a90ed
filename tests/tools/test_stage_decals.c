/* tools/stage_decals.c: the demo stage's two SW_decal boxes become
   renderer decals at their nodes' world transforms (moved by a
   placement), with the images their textures name; a full list drops
   and counts the rest. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "sinew/demo.h"
#include "sinew/gltf.h"
#include "sinew/import.h"
#include "sinew/pose.h"
#include "stage_decals.h"

static void test_demo_stage(void) {
    uint8_t* glb = NULL;
    size_t size = 0;
    sw_diag d = {0};
    sw_model* model = NULL;
    sw_material_set materials;
    bool ok = sw_demo_stage_glb(&glb, &size, &d) == SW_OK &&
              sw_gltf_load_memory(glb, size, SW_DEMO_STAGE_NAME, NULL, NULL, &model, &d) == SW_OK &&
              sw_material_set_read(model, &materials, &d) == SW_OK;
    sw_demo_stage_glb_free(glb);
    SW_CHECK(ok);
    if (!ok) return;
    sw_pose_sizes sizes = sw_pose_sizes_of(model);
    void* memory = aligned_alloc(16, (sw_pose_memory_size(&sizes) + 15) / 16 * 16);
    sw_pose pose;
    sw_pose_bind(&pose, &sizes, memory);
    sw_decal_set* set = NULL;
    SW_CHECK(sw_pose_evaluate(model, NULL, 0.0f, false, &pose, &d) == SW_OK);
    SW_CHECK(sw_decal_read(model, &set, &d) == SW_OK && set);
    sw_render_decal decals[2];
    size_t count = 0;
    const sw_mat34 placement = sw_mat34_translation(sw_vec3_make(10, 0, 0));
    SW_CHECK(stage_decals_make(set, model, pose.world, &placement, &materials, decals, 2, &count) == 0);
    SW_CHECK_EQ_INT(count, 2);
    /* the emblem: at (1.3006, 0, 1.5) + (10, 0, 0), 1.2 m across, with both images */
    SW_CHECK_NEAR(decals[0].box.m[0][3], 11.3006, 1e-5);
    SW_CHECK_NEAR(decals[0].box.m[2][3], 1.5, 1e-6);
    SW_CHECK_NEAR(decals[0].box.m[0][0], 1.2, 1e-6);
    SW_CHECK(decals[0].base_color_image && decals[0].base_color_image->width == 128 && decals[0].normal_image);
    SW_CHECK_NEAR(decals[0].opacity, 0.9, 1e-6);
    /* the sign: its box's +Y (column 1) leaves the wall along +Z */
    SW_CHECK_NEAR(decals[1].box.m[2][1], 0.4, 1e-5);
    SW_CHECK(decals[1].base_color_image && decals[1].base_color_image->height == 64 && !decals[1].normal_image);
    SW_CHECK(stage_decals_make(set, model, pose.world, NULL, &materials, decals, 1, &count) == 1 && count == 1);
    SW_CHECK_NEAR(decals[0].box.m[0][3], 1.3006, 1e-5);
    SW_CHECK(stage_decals_make(NULL, model, pose.world, NULL, &materials, decals, 2, &count) == 0 && count == 0);
    sw_decal_set_free(set);
    free(memory);
    sw_material_set_free(&materials);
    sw_model_free(model);
}

int main(void) {
    SW_RUN(test_demo_stage);
    return sw_test_finish();
}
