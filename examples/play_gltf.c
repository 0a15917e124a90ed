/* Load a glTF character, play one clip and deform every mesh instance:
   the whole import-to-vertices path on one page.

     play_gltf MODEL [ANIMATION_INDEX [TIME_SECONDS]]

   Prints, for each (node, primitive) instance, the bounds of the positions a
   renderer would draw at that time. */
#include "sinew/sinew.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: play_gltf MODEL [ANIMATION_INDEX [TIME_SECONDS]]\n");
        return 2;
    }
    size_t clip_index = argc > 2 ? (size_t)strtoul(argv[2], NULL, 10) : 0;
    float time = argc > 3 ? strtof(argv[3], NULL) : 0.5f;

    /* 1. Load: one call; errors come back as one line naming file and field. */
    sw_gltf_asset* asset = NULL;
    sw_diag diag;
    if (sw_gltf_load_file(argv[1], NULL, &asset, &diag) != SW_OK) {
        fprintf(stderr, "%s\n", diag.message);
        return 1;
    }
    for (size_t i = 0; i < asset->warning_count; ++i) fprintf(stderr, "warning: %s\n", asset->warnings[i]);

    /* 2. Pose = rest pose, then the clip's tracks on top (targets are nodes). */
    size_t nodes = asset->node_count;
    sw_transform* local = malloc((nodes + 1) * sizeof *local);
    sw_mat34* world = malloc((nodes + 1) * sizeof *world);
    uint32_t* offsets = malloc((nodes + 1) * sizeof *offsets);
    float* weights = malloc((asset->weight_count + 1) * sizeof *weights);
    if (!local || !world || !offsets || !weights) return 1;
    sw_gltf_rest_pose(asset, local);
    sw_gltf_rest_weights(asset, weights);
    sw_gltf_weight_offsets(asset, offsets);
    if (clip_index < asset->animation_count) {
        const sw_clip* clip = &asset->animations[clip_index];
        sw_sample_job sample = {
            .clip = clip,
            .time = sw_clip_time(clip, time, true), /* looping playback */
            .target_count = nodes,
            .out_local = local,
            .weight_offsets = offsets,
            .out_weights = weights,
            .weight_count = asset->weight_count,
        };
        if (sw_sample_job_validate(&sample, &diag) != SW_OK) {
            fprintf(stderr, "%s\n", diag.message);
            return 1;
        }
        sw_sample_job_run(&sample);
        printf("clip %zu \"%s\" at %.3f s\n", clip_index, clip->name ? clip->name : "", (double)sample.time);
    }

    /* 3. Local → world for every node, parents first. */
    sw_gltf_world_matrices(asset, local, world);

    /* 4. Morph + skin (or rigid transform) each instance into world space. */
    for (size_t n = 0; n < nodes; ++n) {
        if (asset->nodes[n].mesh < 0) continue;
        const sw_gltf_mesh* mesh = &asset->meshes[asset->nodes[n].mesh];
        for (size_t p = 0; p < mesh->primitive_count; ++p) {
            size_t count = mesh->primitives[p].vertex_count;
            float* positions = malloc((3 * count + 1) * sizeof(float));
            void* scratch = aligned_alloc(16, sw_gltf_deform_scratch_size(asset, n, p) + 16);
            sw_gltf_deform deform = {.asset = asset, .node = n, .primitive = p, .world = world,
                                     .weights = weights, .scratch = scratch, .out_positions = positions};
            if (!positions || !scratch || sw_gltf_deform_primitive(&deform, &diag) != SW_OK) {
                fprintf(stderr, "node %zu: %s\n", n, positions && scratch ? diag.message : "out of memory");
                return 1;
            }
            float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
            for (size_t v = 0; v < count; ++v)
                for (int c = 0; c < 3; ++c) {
                    float x = positions[3 * v + (size_t)c];
                    lo[c] = x < lo[c] ? x : lo[c];
                    hi[c] = x > hi[c] ? x : hi[c];
                }
            printf("node %zu primitive %zu: %zu vertices, bounds (%.4f, %.4f, %.4f) .. (%.4f, %.4f, %.4f)\n", n, p,
                   count, (double)lo[0], (double)lo[1], (double)lo[2], (double)hi[0], (double)hi[1], (double)hi[2]);
            free(positions);
            free(scratch);
        }
    }
    free(local), free(world), free(offsets), free(weights);
    sw_gltf_free(asset);
    return 0;
}
