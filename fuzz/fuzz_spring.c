/* libFuzzer target: the spring-bone readers (sinew/spring.h). The input is
   a .gltf document (a node hierarchy with VRMC_springBone or VRM 0.x
   secondaryAnimation), loaded from memory with no base folder as
   fuzz_gltf_json does (whose target checks the loader itself; here a
   failed load is simply skipped). A loaded model goes to sw_spring_read,
   which must succeed with a set or fail with a code, no set and one line
   naming the file. A set must keep what the reader promises: every array
   as long as its count says, and it passes sw_spring_sizes_of. Then a pose
   and a spring state live in caller memory (exact-size heap blocks, so
   ASan sees any write past them) and the simulation runs a few frames
   (varied dt: whole steps, a hitch past max_substeps, zero, negative,
   NaN; a reset), once with the set as read and once with gravity forced
   on every joint at a second step size. Every local rotation the step
   writes must be a finite unit quaternion, every world matrix and tail
   finite, when the rest pose's world matrices were finite to begin with
   (a node scaled by 1e30 is the loader's business, not the springs'). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_check.h"
#include "sinew/spring.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

static bool world_finite(const sw_model* model, const sw_pose* pose) {
    for (size_t i = 0; i < model->node_count; i++)
        for (int r = 0; r < 3; r++)
            if (!fuzz_all_finite(pose->world[i].m[r], 4)) return false;
    return true;
}

/* Every rest world matrix entry within SW_MODEL_MAX_EXTENT. */
static bool world_within_extent(const sw_model* model, const sw_pose* pose) {
    for (size_t i = 0; i < model->node_count; i++)
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 4; c++)
                if (fabsf(pose->world[i].m[r][c]) > SW_MODEL_MAX_EXTENT) return false;
    return true;
}

static void check_diag(sw_result r, const sw_diag* diag) {
    FUZZ_REQUIRE(r > SW_OK && r < SW_RESULT_COUNT);
    FUZZ_REQUIRE(diag->result == r && memchr(diag->message, '\0', sizeof diag->message));
    FUZZ_REQUIRE(diag->message[0] != '\0' && !strchr(diag->message, '\n'));
}

/* Reads every array of the set end to end and checks the ranges the
   reader promises to keep (sw_spring_sizes_of checks them again). */
static void check_set(const sw_spring_set* set) {
    FUZZ_REQUIRE((unsigned)set->source <= SW_SPRING_SOURCE_SINEW);
    FUZZ_REQUIRE(!set->joint_count || set->joints);
    FUZZ_REQUIRE(!set->chain_count || set->chains);
    FUZZ_REQUIRE(!set->chain_group_count || set->chain_groups);
    FUZZ_REQUIRE(!set->collider_count || set->colliders);
    FUZZ_REQUIRE(!set->group_count || set->groups);
    FUZZ_REQUIRE(!set->group_collider_count || set->group_colliders);
    FUZZ_REQUIRE(!set->warning_count || set->warnings);
    for (size_t i = 0; i < set->warning_count; i++) {
        FUZZ_REQUIRE(set->warnings[i] && set->warnings[i][0] != '\0');
        if (strchr(set->warnings[i], '\n') || strchr(set->warnings[i], '\r'))
            fprintf(stderr, "warning %zu: [%s]\n", i, set->warnings[i]);
        FUZZ_REQUIRE(!strchr(set->warnings[i], '\n') && !strchr(set->warnings[i], '\r'));
    }
    for (size_t i = 0; i < set->chain_count; i++) {
        const sw_spring_chain* c = &set->chains[i];
        fuzz_check_string(c->name);
        FUZZ_REQUIRE(c->joint_count >= 1 && c->first_joint + c->joint_count <= set->joint_count);
        FUZZ_REQUIRE(c->first_group + c->group_count <= set->chain_group_count);
        FUZZ_REQUIRE(isfinite(c->tail_length) && c->tail_length >= 0.0f);
    }
    for (size_t i = 0; i < set->joint_count; i++) {
        const sw_spring_joint* j = &set->joints[i];
        float values[] = {j->stiffness, j->drag_force, j->gravity_power, j->gravity_dir.x, j->gravity_dir.y,
                          j->gravity_dir.z, j->hit_radius};
        FUZZ_REQUIRE(fuzz_all_finite(values, sizeof values / sizeof *values));
    }
    for (size_t i = 0; i < set->group_count; i++) {
        fuzz_check_string(set->groups[i].name);
        FUZZ_REQUIRE(set->groups[i].first_collider + set->groups[i].collider_count <= set->group_collider_count);
    }
    for (size_t i = 0; i < set->chain_group_count; i++) FUZZ_REQUIRE(set->chain_groups[i] < set->group_count);
    for (size_t i = 0; i < set->group_collider_count; i++)
        FUZZ_REQUIRE(set->group_colliders[i] < set->collider_count);
    for (size_t i = 0; i < set->collider_count; i++)
        FUZZ_REQUIRE((unsigned)set->colliders[i].shape <= SW_SPRING_CAPSULE);
}

/* Runs the simulation of `set` for a few frames; the pose memory is reused. */
static void simulate(const sw_model* model, const sw_spring_set* set, const sw_spring_options* options,
                     sw_pose* pose) {
    sw_diag diag;
    sw_spring_sizes sizes;
    sw_result r = sw_spring_sizes_of(model, set, &sizes, &diag);
    if (r != SW_OK) fprintf(stderr, "sw_spring_sizes_of: %s\n", diag.message);
    FUZZ_REQUIRE(r == SW_OK); /* every set the reader returns passes */
    size_t bytes = sw_spring_memory_size(&sizes);
    void* memory = aligned_alloc(16, bytes ? bytes : 16);
    FUZZ_REQUIRE(memory);
    sw_spring_state state;
    r = sw_spring_init(&state, &sizes, memory, model, set, options, &diag);
    if (r != SW_OK) fprintf(stderr, "sw_spring_init: %s\n", diag.message);
    FUZZ_REQUIRE(r == SW_OK); /* the same validation as sw_spring_sizes_of */
    FUZZ_REQUIRE(state.bone_count == sizes.bone_count);
    FUZZ_REQUIRE(state.node_count <= sizes.node_count);

    sw_pose_rest(model, pose);
    sw_pose_update_world(model, pose);
    /* Finite results are promised for models inside SW_MODEL_MAX_EXTENT
       (model.h), as check and the renderer define them; beyond it (or with
       a non-finite rest pose) only crashes count. */
    bool finite = world_finite(model, pose) && world_within_extent(model, pose);
    const float frames[] = {1.0f / 60.0f, 1.0f / 30.0f, 0.5f, 0.0f, -1.0f, NAN, 1.0f / 144.0f, 1.0f / 60.0f};
    size_t frame_count = sizeof frames / sizeof *frames;
    for (size_t f = 0; f < frame_count; f++) {
        if (f == 4) sw_spring_reset(&state, pose);
        uint32_t steps = sw_spring_update(&state, model, set, pose, frames[f]);
        FUZZ_REQUIRE(steps <= state.max_substeps);
        if (finite) {
            for (size_t b = 0; b < state.bone_count; b++) {
                const float* tails[] = {&state.current_tail[b].x, &state.previous_tail[b].x};
                float values[] = {tails[0][0], tails[0][1], tails[0][2], tails[1][0], tails[1][1], tails[1][2]};
                FUZZ_REQUIRE(fuzz_all_finite(values, 6));
                sw_quat q = pose->local[state.bones[b].head].rotation;
                float rotation[] = {q.x, q.y, q.z, q.w};
                FUZZ_REQUIRE(fuzz_all_finite(rotation, 4));
                double norm = sqrt((double)q.x * q.x + (double)q.y * q.y + (double)q.z * q.z + (double)q.w * q.w);
                if (fabs(norm - 1.0) >= 1e-3) fprintf(stderr, "bone %zu: |rotation| = %g\n", b, norm);
                FUZZ_REQUIRE(fabs(norm - 1.0) < 1e-3);
            }
            FUZZ_REQUIRE(world_finite(model, pose)); /* the chains' worlds, as the step left them */
        }
        sw_pose_update_world(model, pose);
        if (finite) FUZZ_REQUIRE(world_finite(model, pose));
    }
    free(memory);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    sw_model* model = NULL;
    sw_diag diag;
    sw_gltf_options options = {.max_memory = (size_t)64 << 20};
    if (sw_gltf_load_memory(data, size, "fuzz.gltf", NULL, &options, &model, &diag) != SW_OK) return 0;

    sw_spring_set* set = (sw_spring_set*)1;
    sw_result r = sw_spring_read(model, &set, &diag);
    if (r != SW_OK) {
        FUZZ_REQUIRE(!set);
        check_diag(r, &diag);
        FUZZ_REQUIRE(strncmp(diag.message, "fuzz.gltf: ", 11) == 0);
        sw_model_free(model);
        return 0;
    }
    FUZZ_REQUIRE(set);
    check_set(set);
    if (model->node_count) {
        sw_pose_sizes pose_sizes = sw_pose_sizes_of(model);
        void* pose_memory = aligned_alloc(16, sw_pose_memory_size(&pose_sizes));
        FUZZ_REQUIRE(pose_memory);
        sw_pose pose;
        sw_pose_bind(&pose, &pose_sizes, pose_memory);
        simulate(model, set, NULL, &pose);
        if (set->joint_count) {
            /* gravity on every joint (down unless the file gave a direction),
               a finer step and fewer substeps */
            sw_spring_joint* joints = malloc(set->joint_count * sizeof *joints);
            FUZZ_REQUIRE(joints);
            memcpy(joints, set->joints, set->joint_count * sizeof *joints);
            for (size_t i = 0; i < set->joint_count; i++) {
                sw_vec3 g = joints[i].gravity_dir;
                if (g.x == 0.0f && g.y == 0.0f && g.z == 0.0f) joints[i].gravity_dir = (sw_vec3){0.0f, -1.0f, 0.0f};
                if (joints[i].gravity_power < 1.0f) joints[i].gravity_power = 1.0f;
            }
            sw_spring_set heavy = *set;
            heavy.joints = joints;
            sw_spring_options fine = {.step_s = 1.0f / 120.0f, .max_substeps = 3};
            simulate(model, &heavy, &fine, &pose);
            free(joints);
        }
        free(pose_memory);
    }
    sw_spring_set_free(set);
    sw_model_free(model);
    return 0;
}
