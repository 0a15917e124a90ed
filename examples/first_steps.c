/* First steps with the library: load a character in any format sinew reads,
   play a clip found by name and deform every mesh instance into world space.

     first_steps MODEL [CLIP_NAME]

   The README's example is the body of main() below, line for line
   (tests/install/test_readme_example.sh checks that they agree; the
   install test builds and runs this file against the installed package).
   Prints, for each (node, primitive 0) instance, its vertex count and where
   its first vertex is drawn 0.5 s into the clip. */
#include "sinew/sinew.h"
#include "sinew/import.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
    if (argc < 2) return fprintf(stderr, "usage: first_steps MODEL [CLIP_NAME]\n"), 2;
    sw_model* model = NULL;
    sw_diag diag;
    if (sw_import_file(argv[1], NULL, &model, &diag) != SW_OK)  /* glTF, VRM, IQM, FBX, ... */
        return fprintf(stderr, "%s\n", diag.message), 1;
    sw_pose_sizes sizes = sw_pose_sizes_of(model);  /* a pose is caller-owned memory */
    void* pose_memory = aligned_alloc(16, sw_pose_memory_size(&sizes));  /* sizes are multiples of 16 */
    sw_pose pose;
    sw_pose_bind(&pose, &sizes, pose_memory);
    int32_t clip = sw_model_find_clip(model, argc > 2 ? argv[2] : "walk");  /* -1: no such clip */
    if (sw_pose_evaluate(model, clip >= 0 ? &model->animations[clip] : NULL, 0.5f, true, &pose, &diag) != SW_OK)
        return fprintf(stderr, "%s\n", diag.message), 1;  /* above: 0.5 s in the file's time, looping */
    for (size_t n = 0; n < model->node_count; ++n) {
        if (model->nodes[n].mesh < 0) continue;  /* node n draws mesh instance (n, primitive 0) */
        size_t vertices = model->meshes[model->nodes[n].mesh].primitives[0].vertex_count;
        size_t scratch_size = sw_deform_scratch_size(model, n, 0);  /* 0 without morph targets */
        float* positions = malloc(3 * vertices * sizeof(float));
        void* scratch = scratch_size ? aligned_alloc(16, scratch_size) : NULL;
        sw_deform d = {.node = n, .method = SW_SKIN_DQS, .scratch = scratch, .out_positions = positions};
        if (sw_deform_primitive(model, &pose, &d, &diag) != SW_OK)  /* morph targets, then skinning */
            return fprintf(stderr, "%s\n", diag.message), 1;
        printf("node %zu: %zu vertices, the first at (%.3f, %.3f, %.3f)\n", n, vertices, (double)positions[0],
               (double)positions[1], (double)positions[2]);
        free(positions), free(scratch);
    }
    free(pose_memory);
    sw_model_free(model);
    return 0;
}
