/* play_gltf.c, with the vertices skinned on the GPU: a headless OpenGL 4.3
   context (EGL), the compute skinner, one GPU primitive per (node,
   primitive) instance, and a readback of what a renderer would draw.

     play_gpu MODEL [ANIMATION_INDEX [TIME_SECONDS]]

   Build against the installed package (libsinew_gpu needs libepoxy/EGL):
     cc play_gpu.c $(pkg-config --cflags --libs sinew-render) -o play_gpu

   Prints the same lines as play_gltf (clip, then each instance's vertex
   count and bounds), so the two outputs can be compared line by line; with
   no EGL display at all it prints "skipped: ..." and exits with 0. */
#include "sinew/sinew.h"
#include "sinew/gltf.h"
#include "sinew/gpu.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: play_gpu MODEL [ANIMATION_INDEX [TIME_SECONDS]]\n");
        return 2;
    }
    size_t clip_index = argc > 2 ? (size_t)strtoul(argv[2], NULL, 10) : 0;
    float time = argc > 3 ? strtof(argv[3], NULL) : 0.5f;

    /* 1. A GL 4.3 core context without a window; it is current from here on. */
    sw_diag diag;
    sw_gl_context* context = NULL;
    sw_result r = sw_gl_context_create(NULL, &context, &diag);
    if (r == SW_ERR_UNSUPPORTED) {
        printf("skipped: no EGL display on this machine (%s)\n", diag.message);
        return 0;
    }
    if (r != SW_OK) {
        fprintf(stderr, "GL context: %s\n", diag.message);
        return 1;
    }
    sw_gl_context_info info;
    sw_gl_context_get_info(context, &info);
    fprintf(stderr, "GL %s on %s\n", info.gl_version, info.gl_renderer);

    /* 2. The skinner holds the compiled programs (built on first use). */
    sw_gpu_skinner* skinner = NULL;
    if (sw_gpu_skinner_create(&skinner, &diag) != SW_OK) {
        fprintf(stderr, "GPU skinner: %s\n", diag.message);
        sw_gl_context_destroy(context);
        return 1;
    }

    /* 3. Load and evaluate the pose on the CPU, exactly as play_gltf does. */
    sw_model* model = NULL;
    if (sw_gltf_load_file(argv[1], NULL, &model, &diag) != SW_OK) {
        fprintf(stderr, "%s\n", diag.message);
        return 1;
    }
    sw_pose_sizes sizes = sw_pose_sizes_of(model);
    void* pose_memory = aligned_alloc(16, sw_pose_memory_size(&sizes));
    if (!pose_memory) return 1;
    sw_pose pose;
    sw_pose_bind(&pose, &sizes, pose_memory);
    const sw_clip* clip = clip_index < model->animation_count ? &model->animations[clip_index] : NULL;
    if (sw_pose_evaluate(model, clip, time, true, &pose, &diag) != SW_OK) {
        fprintf(stderr, "%s\n", diag.message);
        return 1;
    }
    if (clip)
        printf("clip %zu \"%s\" at %.3f s\n", clip_index, clip->name ? clip->name : "",
               (double)sw_clip_time(clip, time, true));

    /* 4. Each instance: upload its streams once, then per frame hand it the
          pose (palette + morph weights), skin (the palette uploaded, then a
          compute dispatch; skipped when nothing changed) and, here only,
          read the result back. A renderer shares one palette per skin
          between primitives (sw_gpu_model_palette, gpu.h). */
    int status = 0;
    for (size_t n = 0; n < model->node_count && status == 0; ++n) {
        if (model->nodes[n].mesh < 0) continue;
        const sw_model_mesh* mesh = &model->meshes[model->nodes[n].mesh];
        for (size_t p = 0; p < mesh->primitive_count && status == 0; ++p) {
            size_t count = mesh->primitives[p].vertex_count;
            float* positions = malloc((3 * count + 1) * sizeof(float));
            sw_gpu_model_primitive* gpu = NULL;
            sw_gpu_skin_desc skin = {.method = SW_SKIN_LBS}; /* zero = defaults: LBS, compute */
            if (!positions || sw_gpu_model_primitive_create(skinner, model, n, p, &gpu, &diag) != SW_OK ||
                sw_gpu_model_primitive_pose(gpu, &pose, &diag) != SW_OK ||
                sw_gpu_model_primitive_skin(skinner, gpu, &skin, NULL, &diag) != SW_OK ||
                sw_gpu_instance_read(sw_gpu_model_primitive_instance(gpu), positions, NULL, NULL, NULL, &diag) !=
                    SW_OK) {
                fprintf(stderr, "node %zu: %s\n", n, positions ? diag.message : "out of memory");
                status = 1;
            } else {
                float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
                for (size_t v = 0; v < count; ++v)
                    for (int c = 0; c < 3; ++c) {
                        float x = positions[3 * v + (size_t)c];
                        lo[c] = x < lo[c] ? x : lo[c];
                        hi[c] = x > hi[c] ? x : hi[c];
                    }
                printf("node %u primitive %zu: %zu vertices, bounds (%.4f, %.4f, %.4f) .. (%.4f, %.4f, %.4f)\n",
                       (unsigned)model->nodes[n].source_index, p, count, (double)lo[0], (double)lo[1],
                       (double)lo[2], (double)hi[0], (double)hi[1], (double)hi[2]);
            }
            sw_gpu_model_primitive_destroy(gpu); /* NULL is fine */
            free(positions);
        }
    }

    /* 5. GPU objects go before the context they live in. */
    free(pose_memory);
    sw_model_free(model);
    sw_gpu_skinner_destroy(skinner);
    sw_gl_context_destroy(context);
    return status;
}
