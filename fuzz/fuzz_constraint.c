/* libFuzzer target: the node-constraint reader and evaluation
   (sinew/constraint.h). The input is a .gltf document (nodes with
   VRMC_node_constraint), loaded from memory with no base folder; a failed
   load is skipped. sw_constraint_read must succeed with a set (or none)
   or fail with a code, no set and one line naming the file. Every
   constraint of a set must name two different nodes of the model, a TRS
   destination, a weight in [0, 1] and a valid axis, so that
   sw_constraint_init accepts it; its order must list each constraint at
   most once, cyclic ones never. Then the constraints are applied to the
   rest pose and to each clip's first key (state and pose in exact-size
   heap blocks, so ASan sees any write past them): every destination's
   rotation must be a finite unit quaternion when the rest pose's world
   matrices are finite and within SW_MODEL_MAX_EXTENT. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_check.h"
#include "sinew/constraint.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

static bool world_sane(const sw_model* model, const sw_pose* pose) {
    for (size_t i = 0; i < model->node_count; i++)
        for (int r = 0; r < 3; r++) {
            if (!fuzz_all_finite(pose->world[i].m[r], 4)) return false;
            for (int c = 0; c < 4; c++)
                if (fabsf(pose->world[i].m[r][c]) > SW_MODEL_MAX_EXTENT) return false;
        }
    return true;
}

static void check_set(const sw_model* model, const sw_constraint_set* set) {
    FUZZ_REQUIRE(!set->constraint_count || set->constraints);
    FUZZ_REQUIRE(!set->warning_count || set->warnings);
    for (size_t i = 0; i < set->warning_count; i++) {
        FUZZ_REQUIRE(set->warnings[i] && strncmp(set->warnings[i], "fuzz.gltf: ", 11) == 0);
        FUZZ_REQUIRE(!strchr(set->warnings[i], '\n') && !strchr(set->warnings[i], '\r'));
    }
    for (size_t i = 0; i < set->constraint_count; i++) {
        const sw_constraint* c = &set->constraints[i];
        FUZZ_REQUIRE(c->destination < model->node_count && c->source < model->node_count);
        FUZZ_REQUIRE(c->destination != c->source && !model->nodes[c->destination].has_matrix);
        FUZZ_REQUIRE(c->weight >= 0.0f && c->weight <= 1.0f);
        FUZZ_REQUIRE((unsigned)c->type <= SW_CONSTRAINT_AIM && (unsigned)c->axis <= SW_CONSTRAINT_NEGATIVE_Z);
    }
}

static void apply_and_check(const sw_model* model, const sw_constraint_set* set, sw_constraint_state* state,
                            sw_pose* pose, bool sane) {
    sw_constraint_apply(state, pose);
    if (!sane) return;
    for (size_t i = 0; i < set->constraint_count; i++) {
        sw_quat q = pose->local[set->constraints[i].destination].rotation;
        float v[] = {q.x, q.y, q.z, q.w};
        FUZZ_REQUIRE(fuzz_all_finite(v, 4));
        double norm = sqrt((double)q.x * q.x + (double)q.y * q.y + (double)q.z * q.z + (double)q.w * q.w);
        if (!state->cyclic[i]) FUZZ_REQUIRE(fabs(norm - 1.0) < 1e-3);
    }
    (void)model;
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    sw_model* model = NULL;
    sw_diag diag;
    sw_gltf_options options = {.max_memory = (size_t)64 << 20};
    if (sw_gltf_load_memory(data, size, "fuzz.gltf", NULL, &options, &model, &diag) != SW_OK) return 0;

    sw_constraint_set* set = (sw_constraint_set*)1;
    sw_result r = sw_constraint_read(model, &set, &diag);
    if (r != SW_OK) {
        FUZZ_REQUIRE(!set);
        FUZZ_REQUIRE(r > SW_OK && r < SW_RESULT_COUNT && diag.result == r);
        FUZZ_REQUIRE(strncmp(diag.message, "fuzz.gltf: ", 11) == 0 && !strchr(diag.message, '\n'));
        sw_model_free(model);
        return 0;
    }
    if (!set) {
        sw_model_free(model);
        return 0;
    }
    check_set(model, set);
    size_t bytes = sw_constraint_memory_size(model, set->constraint_count);
    FUZZ_REQUIRE(bytes > 0);
    void* memory = aligned_alloc(16, (bytes + 15) / 16 * 16);
    FUZZ_REQUIRE(memory);
    sw_constraint_state state;
    r = sw_constraint_init(&state, memory, model, set->constraints, set->constraint_count, &diag);
    if (r != SW_OK) fprintf(stderr, "sw_constraint_init: %s\n", diag.message);
    FUZZ_REQUIRE(r == SW_OK); /* every set the reader returns is accepted */
    FUZZ_REQUIRE(state.order_count + state.cyclic_count == set->constraint_count);
    uint8_t* seen = calloc(set->constraint_count + 1, 1);
    FUZZ_REQUIRE(seen);
    for (size_t i = 0; i < state.order_count; i++) {
        uint32_t k = state.order[i];
        FUZZ_REQUIRE(k < set->constraint_count && !seen[k] && !state.cyclic[k]);
        seen[k] = 1;
    }
    free(seen);
    if (model->node_count) {
        sw_pose_sizes sizes = sw_pose_sizes_of(model);
        void* pose_memory = aligned_alloc(16, sw_pose_memory_size(&sizes));
        FUZZ_REQUIRE(pose_memory);
        sw_pose pose;
        sw_pose_bind(&pose, &sizes, pose_memory);
        sw_pose_rest(model, &pose);
        sw_pose_update_world(model, &pose);
        bool sane = world_sane(model, &pose);
        apply_and_check(model, set, &state, &pose, sane);
        for (size_t c = 0; c < model->animation_count && c < 4; c++) {
            if (sw_pose_sample(model, &model->animations[c], model->animations[c].start, false, &pose, &diag) != SW_OK)
                continue;
            sw_pose_update_world(model, &pose);
            apply_and_check(model, set, &state, &pose, sane && world_sane(model, &pose));
        }
        free(pose_memory);
    }
    free(memory);
    sw_constraint_set_free(set);
    sw_model_free(model);
    return 0;
}
