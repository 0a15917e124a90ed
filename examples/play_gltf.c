/* Load a glTF character, play one clip and deform every mesh instance on
   the CPU: the whole import-to-vertices path on one page.

     play_gltf MODEL [ANIMATION_INDEX [TIME_SECONDS]]

   Prints, for each (node, primitive) instance, the bounds of the positions a
   renderer would draw at that time. */
#include "sinew/sinew.h"
#include "sinew/gltf.h"

#include <math.h>
#include <stdbool.h>
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
    sw_model* model = NULL;
    sw_diag diag;
    if (sw_gltf_load_file(argv[1], NULL, &model, &diag) != SW_OK) {
        fprintf(stderr, "%s\n", diag.message);
        return 1;
    }
    for (size_t i = 0; i < model->warning_count; ++i) fprintf(stderr, "warning: %s\n", model->warnings[i]);

    /* 2. A pose is caller-owned memory: ask its size, allocate once, bind. */
    sw_pose_sizes sizes = sw_pose_sizes_of(model);
    void* pose_memory = aligned_alloc(16, sw_pose_memory_size(&sizes));
    if (!pose_memory) return 1;
    sw_pose pose;
    sw_pose_bind(&pose, &sizes, pose_memory);

    /* 3. Evaluate: rest pose, the clip (looping), world matrices, skin palettes. */
    const sw_clip* clip = clip_index < model->animation_count ? &model->animations[clip_index] : NULL;
    if (sw_pose_evaluate(model, clip, time, true, &pose, &diag) != SW_OK) {
        fprintf(stderr, "%s\n", diag.message);
        return 1;
    }
    if (clip)
        printf("clip %zu \"%s\" at %.3f s\n", clip_index, clip->name ? clip->name : "",
               (double)sw_clip_time(clip, time, true));

    /* 4. Morph + skin (or rigid transform) each instance into world space. */
    for (size_t n = 0; n < model->node_count; ++n) {
        if (model->nodes[n].mesh < 0) continue;
        const sw_model_mesh* mesh = &model->meshes[model->nodes[n].mesh];
        for (size_t p = 0; p < mesh->primitive_count; ++p) {
            size_t count = mesh->primitives[p].vertex_count;
            float* positions = malloc((3 * count + 1) * sizeof(float));
            /* Scratch for the morphed vertices: 0 bytes (none needed, NULL is
               fine) without morph targets, else a multiple of 16. */
            size_t scratch_size = sw_deform_scratch_size(model, n, p);
            void* scratch = scratch_size ? aligned_alloc(16, scratch_size) : NULL;
            sw_deform deform = {.node = n, .primitive = p, .scratch = scratch, .out_positions = positions};
            bool allocated = positions && (scratch || !scratch_size);
            if (!allocated || sw_deform_primitive(model, &pose, &deform, &diag) != SW_OK) {
                fprintf(stderr, "node %zu: %s\n", n, allocated ? diag.message : "out of memory");
                return 1;
            }
            float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
            for (size_t v = 0; v < count; ++v)
                for (int c = 0; c < 3; ++c) {
                    float x = positions[3 * v + (size_t)c];
                    lo[c] = x < lo[c] ? x : lo[c];
                    hi[c] = x > hi[c] ? x : hi[c];
                }
            /* Nodes are stored parents first; source_index is the file's numbering. */
            printf("node %u primitive %zu: %zu vertices, bounds (%.4f, %.4f, %.4f) .. (%.4f, %.4f, %.4f)\n",
                   (unsigned)model->nodes[n].source_index, p, count, (double)lo[0], (double)lo[1], (double)lo[2],
                   (double)hi[0], (double)hi[1], (double)hi[2]);
            free(positions);
            free(scratch);
        }
    }
    free(pose_memory);
    sw_model_free(model);
    return 0;
}
