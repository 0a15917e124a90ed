/* libFuzzer target: the VRM animation reader and retargeting
   (sinew/vrma.h). The input is a .vrma file (glTF JSON or GLB with the
   root extension VRMC_vrm_animation), loaded from memory with no base
   folder; a failed load is skipped. For each of its first clips
   sw_vrma_read must succeed with a result (or none, without the
   extension) or fail with a code, no result and one line naming the file.
   A result's nodes and tracks must be in range and of the path the spec
   gives them (a bone's rotation, the hips' translation, an expression's
   translation, the look-at's rotation), its rest pose finite. Then the
   clip is retargeted onto fuzz_model.h's skeleton (its bones mapped by
   name): a failure is one line; a clip's tracks must drive the
   character's nodes and hold finite keys (sw_clip_finish validated them),
   and sampling it into a pose must not fail. Expression weights must lie
   in [0, 1] and the look-at's angles be finite at a few times. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_model.h"
#include "sinew/retarget.h"
#include "sinew/vrma.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

/* The character: fuzz_model.h's model, each node named after a VRM 1.0
   humanoid bone mapped to that bone. */
static const sw_humanoid_map* character_map(const sw_model* model) {
    static sw_humanoid_map map;
    static bool made;
    if (!made) {
        sw_humanoid_map_clear(&map);
        for (size_t i = 0; i < model->node_count; i++) {
            sw_humanoid_bone b;
            if (model->nodes[i].name && sw_humanoid_bone_from_name(model->nodes[i].name, &b)) map.node[b] = (int32_t)i;
        }
        made = true;
    }
    return &map;
}

static bool track_is(const sw_vrma* v, int32_t track, uint32_t node, sw_track_path path) {
    if (track < 0 || (size_t)track >= v->clip->track_count) return false;
    const sw_track* t = &v->clip->tracks[track];
    return t->target == node && t->path == path;
}

static void check_vrma(const sw_model* model, size_t clip, const sw_vrma* v) {
    FUZZ_REQUIRE(v->model == model && v->clip == &model->animations[clip]);
    fuzz_check_string(v->spec_version);
    uint32_t mapped = 0;
    for (int b = 0; b < SW_HUMANOID_BONE_COUNT; b++) {
        int32_t node = v->humanoid.node[b];
        FUZZ_REQUIRE(node >= -1 && node < (int64_t)model->node_count);
        float q[] = {v->rest_world_rotation[b].x, v->rest_world_rotation[b].y, v->rest_world_rotation[b].z,
                     v->rest_world_rotation[b].w};
        FUZZ_REQUIRE(fuzz_all_finite(q, 4));
        if (node < 0) {
            FUZZ_REQUIRE(v->rotation_track[b] == -1);
            continue;
        }
        mapped++;
        FUZZ_REQUIRE(v->rotation_track[b] == -1 || track_is(v, v->rotation_track[b], (uint32_t)node, SW_PATH_ROTATION));
    }
    FUZZ_REQUIRE(mapped == v->humanoid_mapped);
    int32_t hips = v->humanoid.node[SW_HUMANOID_HIPS];
    FUZZ_REQUIRE(v->hips_translation_track == -1 ||
                 (hips >= 0 && track_is(v, v->hips_translation_track, (uint32_t)hips, SW_PATH_TRANSLATION)));
    FUZZ_REQUIRE(!v->expression_count || v->expressions);
    for (size_t i = 0; i < v->expression_count; i++) {
        FUZZ_REQUIRE(v->expressions[i].name);
        fuzz_check_string(v->expressions[i].name);
        FUZZ_REQUIRE(v->expressions[i].node >= 0 && (size_t)v->expressions[i].node < model->node_count);
    }
    FUZZ_REQUIRE(!v->expression_track_count || v->expression_tracks);
    for (size_t k = 0; k < v->expression_track_count; k++) {
        const sw_vrma_expression_track* e = &v->expression_tracks[k];
        FUZZ_REQUIRE(e->expression < v->expression_count);
        FUZZ_REQUIRE(track_is(v, (int32_t)e->track, (uint32_t)v->expressions[e->expression].node, SW_PATH_TRANSLATION));
    }
    FUZZ_REQUIRE(v->look_at_node >= -1 && v->look_at_node < (int64_t)model->node_count);
    FUZZ_REQUIRE(v->look_at_track == -1 ||
                 (v->look_at_node >= 0 && track_is(v, v->look_at_track, (uint32_t)v->look_at_node, SW_PATH_ROTATION)));
    FUZZ_REQUIRE(!v->has_look_at_offset || fuzz_all_finite(v->look_at_offset, 3));
    FUZZ_REQUIRE(!v->warning_count || v->warnings);
    for (size_t i = 0; i < v->warning_count; i++) fuzz_check_line(v->warnings[i]);

    const float times[] = {v->clip->start, v->clip->start + 0.5f * v->clip->duration, v->clip->duration, -1.0f};
    for (size_t i = 0; i < sizeof times / sizeof *times; i++) {
        for (size_t k = 0; k < v->expression_track_count; k++) {
            float w = sw_vrma_expression_weight(v, k, times[i]);
            FUZZ_REQUIRE(w >= 0.0f && w <= 1.0f);
        }
        float yaw, pitch, dir[3];
        bool has = sw_vrma_look_at(v, times[i], &yaw, &pitch, dir);
        FUZZ_REQUIRE(has == (v->look_at_track >= 0));
        float angles[] = {yaw, pitch};
        FUZZ_REQUIRE(fuzz_all_finite(angles, 2) && fuzz_all_finite(dir, 3));
    }
}

static void retarget_and_check(const sw_vrma* v) {
    const sw_model* dst = fuzz_base_model();
    const sw_humanoid_map* map = character_map(dst);
    sw_clip* clip = (sw_clip*)1;
    sw_vrma_retarget_info info;
    sw_diag diag;
    sw_result r = sw_vrma_retarget(v, dst, map, &clip, &info, &diag);
    if (r != SW_OK) {
        FUZZ_REQUIRE(!clip);
        fuzz_check_error(r, &diag, "fuzz.vrma");
        return;
    }
    FUZZ_REQUIRE(clip && (clip->track_count == 0 || clip->tracks));
    FUZZ_REQUIRE(isfinite(info.hips_scale) && info.hips_scale > 0.0f);
    for (size_t i = 0; i < clip->track_count; i++) {
        const sw_track* t = &clip->tracks[i];
        FUZZ_REQUIRE(t->target < dst->node_count);
        FUZZ_REQUIRE(t->path == SW_PATH_ROTATION || t->path == SW_PATH_TRANSLATION);
    }
    sw_pose_sizes sizes = sw_pose_sizes_of(dst);
    void* memory = aligned_alloc(16, (sw_pose_memory_size(&sizes) + 15) / 16 * 16);
    FUZZ_REQUIRE(memory);
    sw_pose pose;
    sw_pose_bind(&pose, &sizes, memory);
    sw_pose_rest(dst, &pose);
    FUZZ_REQUIRE(sw_pose_sample(dst, clip, clip->start + 0.5f * clip->duration, false, &pose, &diag) == SW_OK);
    free(memory);
    sw_clip_free(clip);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    sw_model* model = NULL;
    sw_diag diag;
    sw_gltf_options options = {.max_memory = (size_t)64 << 20};
    if (sw_gltf_load_memory(data, size, "fuzz.vrma", NULL, &options, &model, &diag) != SW_OK) return 0;
    sw_vrma* first = NULL;
    for (size_t c = 0; c < model->animation_count && c < 3; c++) {
        sw_vrma* v = (sw_vrma*)1;
        sw_result r = c == 0 || !first ? sw_vrma_read(model, c, &v, &diag) : sw_vrma_read_clip(first, c, &v, &diag);
        if (r != SW_OK) {
            FUZZ_REQUIRE(!v);
            fuzz_check_error(r, &diag, "fuzz.vrma");
            break;
        }
        if (!v) break; /* no extension */
        check_vrma(model, c, v);
        retarget_and_check(v);
        if (c == 0) first = v;
        else sw_vrma_free(v);
    }
    if (!model->animation_count) {
        sw_vrma* v = (sw_vrma*)1;
        sw_result r = sw_vrma_read(model, 0, &v, &diag);
        FUZZ_REQUIRE(!v && (r == SW_OK || r == SW_ERR_INVALID_ARGUMENT));
    }
    sw_vrma_free(first);
    sw_model_free(model);
    return 0;
}
