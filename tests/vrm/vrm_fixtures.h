/* Small VRM avatars for the VRM tests, built in memory with cJSON: the same
   humanoid (root, hips … hands, feet, head, two left-thumb joints), a face
   mesh under the head with 3 morph targets (material "Skin") and a skinned
   body (material "Cloth"), with a VRM 1.0 (VRMC_vrm) or VRM 0.x (VRM)
   extension. The 0.x avatar is the 1.0 one facing −Z: every x and z of
   its node translations, vertices and inverse binds negated, as 0.x
   exporters write it. Both carry one clip, "move", on the root node. */
#ifndef SINEW_TEST_VRM_FIXTURES_H
#define SINEW_TEST_VRM_FIXTURES_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

#include "sinew/gltf.h"

/* File node indices. */
enum {
    VRM_FX_ROOT = 0, VRM_FX_HIPS, VRM_FX_SPINE, VRM_FX_CHEST, VRM_FX_NECK, VRM_FX_HEAD,
    VRM_FX_L_UPPER_ARM, VRM_FX_L_LOWER_ARM, VRM_FX_L_HAND,
    VRM_FX_R_UPPER_ARM, VRM_FX_R_LOWER_ARM, VRM_FX_R_HAND,
    VRM_FX_L_UPPER_LEG, VRM_FX_L_LOWER_LEG, VRM_FX_L_FOOT,
    VRM_FX_R_UPPER_LEG, VRM_FX_R_LOWER_LEG, VRM_FX_R_FOOT,
    VRM_FX_FACE, VRM_FX_BODY, VRM_FX_L_THUMB1, VRM_FX_L_THUMB2,
    VRM_FX_NODE_COUNT
};
/* The face mesh's vertex 0, the nose, in the 1.0 avatar's face space. */
#define VRM_FX_NOSE_Z 0.1f

typedef struct vrm_fixture {
    cJSON* json;      /* the whole glTF document; tests edit it before packing */
    uint8_t* bin;     /* the BIN chunk */
    size_t bin_size;
} vrm_fixture;

/* version 0 or 1; 0 on success. */
int vrm_fixture_make(vrm_fixture* f, int version);
void vrm_fixture_free(vrm_fixture* f);
/* The VRM extension object (VRMC_vrm or VRM). */
cJSON* vrm_fixture_ext(vrm_fixture* f);
/* The GLB bytes (malloc'd; free()). */
uint8_t* vrm_fixture_glb(const vrm_fixture* f, size_t* out_size);
/* Packs and loads from memory as "avatar.vrm". */
sw_result vrm_fixture_load(const vrm_fixture* f, const sw_gltf_options* options, sw_model** model, sw_diag* diag);
/* Loads GLB bytes as "avatar.vrm". */
sw_result vrm_fixture_load_bytes(const uint8_t* glb, size_t size, const sw_gltf_options* options, sw_model** model,
                                 sw_diag* diag);

#endif
