/* Render one frame of a glTF character to a PNG from code: a headless GL
   context, the reference renderer, the model's materials made ready (toon
   data read, images decoded), a pose evaluated on the CPU, a camera
   framing the skinned bounds, and the image written with stb_image_write.

     render_png MODEL OUT.png [WIDTH HEIGHT [ANIMATION_INDEX [TIME_SECONDS]]]

   Build against the installed package (stb_image_write from libstb-dev):
     cc render_png.c $(pkg-config --cflags --libs sinew-import sinew-render stb) -o render_png

   Prints "wrote OUT.png: WIDTH x HEIGHT, N primitives, T triangles"; with
   no EGL display at all it prints "skipped: ..." and exits with 0. */
#include "sinew/sinew.h"
#include "sinew/gltf.h"
#include "sinew/import.h"
#include "sinew/gpu.h"
#include "sinew/render.h"

#include <stb_image_write.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: render_png MODEL OUT.png [WIDTH HEIGHT [ANIMATION_INDEX [TIME_SECONDS]]]\n");
        return 2;
    }
    int width = argc > 4 ? atoi(argv[3]) : 320;
    int height = argc > 4 ? atoi(argv[4]) : 240;
    size_t clip_index = argc > 5 ? (size_t)strtoul(argv[5], NULL, 10) : 0;
    float time = argc > 6 ? strtof(argv[6], NULL) : 0.5f;

    /* 1. The context first: every renderer call needs it current. */
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

    /* 2. The model and a caller-owned pose, as in play_gltf.c. */
    sw_model* model = NULL;
    if (sw_gltf_load_file(argv[1], NULL, &model, &diag) != SW_OK) {
        fprintf(stderr, "%s\n", diag.message);
        return 1;
    }
    sw_pose_sizes sizes = sw_pose_sizes_of(model);
    void* pose_memory = aligned_alloc(16, sw_pose_memory_size(&sizes));
    uint8_t* rgba = malloc((size_t)(width > 0 ? width : 1) * (size_t)(height > 0 ? height : 1) * 4);
    if (!pose_memory || !rgba) return 1;
    sw_pose pose;
    sw_pose_bind(&pose, &sizes, pose_memory);
    const sw_clip* clip = clip_index < model->animation_count ? &model->animations[clip_index] : NULL;

    /* 3. Renderer (targets, programs; rejects sizes outside 1..8192), the
          materials made ready where the model was read (the renderer
          opens no file), then the scene: GPU meshes, textures and one
          uniform block per material. */
    sw_renderer* renderer = NULL;
    sw_material_set materials = {0};
    sw_renderer_desc desc = {.width = width, .height = height}; /* shadow_map_size 0 = 2048 */
    int status = 1;
    if (sw_renderer_create(&desc, &renderer, &diag) != SW_OK || sw_material_set_read(model, &materials, &diag) != SW_OK ||
        sw_renderer_set_scene(renderer, model, &materials, &diag) != SW_OK ||
        sw_pose_evaluate(model, clip, time, true, &pose, &diag) != SW_OK) {
        fprintf(stderr, "%s\n", diag.message);
        goto done;
    }

    /* 4. Frame the skinned bounds at this pose: a three-quarter view. */
    float lo[3], hi[3];
    if (sw_renderer_scene_bounds(renderer, &pose, lo, hi, &diag) != SW_OK) {
        fprintf(stderr, "%s\n", diag.message);
        goto done;
    }
    sw_render_frame frame = {.pose = &pose, .first_frame = true}; /* zero: shaded view, LBS */
    sw_camera_frame_bounds(lo, hi, 30.0f, 15.0f, (float)width / (float)height, &frame.camera.current);
    frame.camera.previous = frame.camera.current;

    /* 5. Draw, read the sRGB image back (rows top to bottom) and write it. */
    if (sw_renderer_draw(renderer, &frame, &diag) != SW_OK || sw_renderer_read_image(renderer, rgba, &diag) != SW_OK) {
        fprintf(stderr, "%s\n", diag.message);
        goto done;
    }
    if (!stbi_write_png(argv[2], width, height, 4, rgba, width * 4)) {
        fprintf(stderr, "%s: could not write the PNG\n", argv[2]);
        goto done;
    }
    sw_renderer_stats stats;
    sw_renderer_get_stats(renderer, &stats);
    printf("wrote %s: %d x %d, %zu primitives, %zu triangles\n", argv[2], width, height, stats.primitives,
           stats.triangles);
    status = 0;

done:
    sw_renderer_destroy(renderer);
    sw_material_set_free(&materials);
    free(rgba);
    free(pose_memory);
    sw_model_free(model);
    sw_gl_context_destroy(context);
    return status;
}
