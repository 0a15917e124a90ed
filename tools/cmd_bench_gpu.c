/* sinew bench skin --gpu: throughput of the GPU skinning dispatch (compute
   or vertex shader) against a GPU buffer copy of the same bytes measured in
   the same run; mesh upload and readback are timed separately. */
#define _POSIX_C_SOURCE 200809L
#include "bench_gpu.h"

#include "bench_stats.h"
#include "json_writer.h"

#include "sinew/gpu.h"

#include <epoxy/gl.h>
#include <stdlib.h>
#include <string.h>

#define GPU_WARMUP_RUNS 3

/* One skinned primitive's copy: its own static buffers and outputs, so that
   no copy reads another's inputs from the GPU's cache. */
typedef struct gpu_copy {
    sw_gpu_mesh* mesh;
    sw_gpu_instance* instance;
    size_t skin;
} gpu_copy;

int bench_skin_gpu(const bench_gpu_options* opt, const sw_model* a, const bench_gpu_palettes* pose,
                   const bench_skinned* skinned, size_t per_copy, tool_args* args) {
    int status = TOOL_EXIT_OK;
    sw_gl_context* context = NULL;
    sw_gpu_skinner* skinner = NULL;
    sw_gpu_palette** palettes = NULL;
    gpu_copy* copies = NULL;
    size_t copy_count = 0;
    float* synthetic_tangents = NULL;
    double *seconds = NULL, *copy_seconds = NULL, *ratio = NULL;
    GLuint copy_buffers[2] = {0, 0};
    sw_diag diag;

    if (sw_gl_context_create(NULL, &context, &diag) != SW_OK || sw_gpu_skinner_create(&skinner, &diag) != SW_OK) {
        status = tool_fail(args, "--gpu: %s", diag.message);
        goto done;
    }
    sw_gl_context_info info;
    sw_gl_context_get_info(context, &info);

    /* The pose's palettes, one per skin, shared by every copy. */
    palettes = calloc(a->skin_count + 1, sizeof *palettes);
    if (!palettes) {
        status = tool_fail(args, "out of memory");
        goto done;
    }
    for (size_t s = 0; s < a->skin_count; ++s) {
        if (sw_gpu_palette_create(skinner, a->skins[s].joint_count, &palettes[s], &diag) != SW_OK ||
            sw_gpu_palette_update(palettes[s], pose->matrices[s], pose->dual_quats[s],
                                  pose->stretches ? pose->stretches[s] : NULL, &diag) != SW_OK) {
            status = tool_fail(args, "--gpu: %s", diag.message);
            goto done;
        }
    }

    /* The skinned primitives, replicated. */
    size_t largest = 0;
    for (size_t i = 0; i < per_copy; ++i)
        if (skinned[i].prim->vertex_count > largest) largest = skinned[i].prim->vertex_count;
    const size_t k = opt->copies;
    copies = calloc(per_copy * k, sizeof *copies);
    synthetic_tangents = opt->tangents ? malloc(largest * 16) : NULL;
    if (!copies || (opt->tangents && !synthetic_tangents)) {
        status = tool_fail(args, "out of memory for %zu copies", k);
        goto done;
    }
    for (size_t v = 0; opt->tangents && v < largest; v++)
        memcpy(synthetic_tangents + 4 * v, (const float[4]){1, 0, 0, 1}, 16);

    size_t bytes_per_pass = 0, vertices_per_pass = 0, upload_bytes = 0;
    double upload_start = now_seconds();
    for (size_t c = 0; c < k; ++c) {
        for (size_t i = 0; i < per_copy; ++i) {
            const sw_model_primitive* prim = skinned[i].prim;
            sw_gpu_mesh_desc desc;
            sw_gpu_morph_target none[1];
            sw_gpu_mesh_desc_from_primitive(prim, none, &desc);
            desc.target_count = 0, desc.targets = NULL; /* skinning only, as the CPU bench */
            desc.normals = opt->normals ? prim->normals : NULL;
            desc.tangents = opt->tangents ? (prim->tangents ? prim->tangents : synthetic_tangents) : NULL;
            gpu_copy* g = &copies[copy_count];
            g->skin = skinned[i].skin;
            if (sw_gpu_mesh_create(&desc, &g->mesh, &diag) != SW_OK ||
                sw_gpu_instance_create(g->mesh, &g->instance, &diag) != SW_OK) {
                status = tool_fail(args, "--gpu: copy %zu: %s", c, diag.message);
                copy_count++;
                goto done;
            }
            copy_count++;
            /* What one dispatch must move: the streams read, the streams written. */
            size_t in = 12 + (desc.normals ? 12 : 0) + (desc.tangents ? 16 : 0) +
                        (size_t)prim->influence_count * (2 + 4);
            size_t out = 12 + (desc.normals ? 12 : 0) + (desc.tangents ? 16 : 0);
            bytes_per_pass += prim->vertex_count * (in + out);
            vertices_per_pass += prim->vertex_count;
            upload_bytes += sw_gpu_mesh_bytes(g->mesh);
        }
    }
    glFinish();
    double upload_seconds = now_seconds() - upload_start;

    /* The reference: copy the same number of bytes GPU buffer to GPU buffer
       (half read, half written, as the kernel's traffic). */
    size_t half = bytes_per_pass / 2;
    glGenBuffers(2, copy_buffers);
    glBindBuffer(GL_COPY_READ_BUFFER, copy_buffers[0]);
    glBufferData(GL_COPY_READ_BUFFER, (GLsizeiptr)half, NULL, GL_STATIC_DRAW);
    glBindBuffer(GL_COPY_WRITE_BUFFER, copy_buffers[1]);
    glBufferData(GL_COPY_WRITE_BUFFER, (GLsizeiptr)half, NULL, GL_STATIC_DRAW);
    if (sw_gl_check("allocating the copy reference", &diag) != SW_OK) {
        status = tool_fail(args, "--gpu: %s", diag.message);
        goto done;
    }

    const int reps = opt->reps;
    seconds = calloc((size_t)reps, sizeof *seconds);
    copy_seconds = calloc((size_t)reps, sizeof *copy_seconds);
    ratio = calloc((size_t)reps, sizeof *ratio);
    if (!seconds || !copy_seconds || !ratio) {
        status = tool_fail(args, "out of memory");
        goto done;
    }
    sw_gpu_skin_desc desc = {.method = opt->dqs ? SW_SKIN_DQS : SW_SKIN_LBS, .path = opt->path, .force = true};
    for (int r = -GPU_WARMUP_RUNS; r < reps; ++r) {
        glFinish();
        double t0 = now_seconds();
        for (size_t i = 0; i < copy_count; ++i)
            if (sw_gpu_skin(skinner, copies[i].instance, palettes[copies[i].skin], &desc, NULL, &diag) != SW_OK) {
                status = tool_fail(args, "--gpu: %s", diag.message);
                goto done;
            }
        glFinish();
        double t1 = now_seconds();
        glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 0, (GLsizeiptr)half);
        glFinish();
        double t2 = now_seconds();
        if (r < 0) continue;
        seconds[r] = t1 - t0;
        copy_seconds[r] = t2 - t1;
        ratio[r] = copy_seconds[r] / seconds[r]; /* kernel rate / copy rate */
    }

    /* Readback of every output once, for the record. */
    size_t readback_bytes = 0;
    double readback_start = now_seconds();
    float* scratch = malloc(largest * 16 + 16);
    for (size_t i = 0; scratch && i < copy_count; ++i) {
        sw_gpu_instance_buffers b;
        sw_gpu_instance_get_buffers(copies[i].instance, &b);
        if (sw_gpu_instance_read(copies[i].instance, scratch, NULL, NULL, NULL, &diag) != SW_OK) break;
        readback_bytes += b.vertex_count * 12;
    }
    double readback_seconds = now_seconds() - readback_start;
    free(scratch);

    stats s_time = summarise(seconds, reps);
    stats s_copy = summarise(copy_seconds, reps);
    stats s_ratio = summarise(ratio, reps);
    double vps_median = (double)vertices_per_pass / s_time.median;
    double gbps_median = (double)bytes_per_pass / s_time.median * 1e-9;
    double copy_gbps = (double)(2 * half) / s_copy.median * 1e-9;
    const char* path_name = opt->path == SW_GPU_PATH_COMPUTE ? "compute" : "vertex-shader";
    if (opt->json) {
        json_writer w;
        json_writer_init(&w, json_file_sink, stdout);
        json_begin_object(&w);
        json_key(&w, "benchmark"), json_string(&w, "skin-gpu");
        json_key(&w, "model"), json_string(&w, opt->model);
        json_key(&w, "renderer"), json_string(&w, info.gl_renderer);
        json_key(&w, "gl_version"), json_string(&w, info.gl_version);
        json_key(&w, "path"), json_string(&w, path_name);
        json_key(&w, "method"), json_string(&w, opt->dqs ? "dqs" : "lbs");
        json_key(&w, "copies"), json_int(&w, (long long)k);
        json_key(&w, "vertices_per_pass"), json_int(&w, (long long)vertices_per_pass);
        json_key(&w, "bytes_per_pass"), json_int(&w, (long long)bytes_per_pass);
        json_key(&w, "reps"), json_int(&w, reps);
        json_stats(&w, "pass_seconds", s_time);
        json_key(&w, "vertices_per_second_median"), json_double(&w, vps_median);
        json_key(&w, "gb_per_second_median"), json_double(&w, gbps_median);
        json_stats(&w, "copy_seconds", s_copy);
        json_key(&w, "copy_gb_per_second_median"), json_double(&w, copy_gbps);
        json_stats(&w, "ratio_to_copy", s_ratio);
        json_key(&w, "upload_bytes"), json_int(&w, (long long)upload_bytes);
        json_key(&w, "upload_seconds"), json_double(&w, upload_seconds);
        json_key(&w, "readback_bytes"), json_int(&w, (long long)readback_bytes);
        json_key(&w, "readback_seconds"), json_double(&w, readback_seconds);
        json_end_object(&w);
        json_newline(&w);
        if (!json_writer_finish(&w)) status = tool_fail(args, "cannot write to standard output");
    } else {
        printf("GPU skinning (%s, %s) on %s\n", path_name, opt->dqs ? "DQS" : "LBS", info.gl_renderer);
        printf("%s: %zu copies, %zu vertices, %.1f MB moved per pass, %d repetitions\n", opt->model, k,
               vertices_per_pass, (double)bytes_per_pass * 1e-6, reps);
        printf("  pass          %9.3f / %9.3f / %9.3f ms (min / median / max)\n", s_time.min * 1e3,
               s_time.median * 1e3, s_time.max * 1e3);
        printf("  vertices/s    %9.1f M (median)\n", vps_median * 1e-6);
        printf("  bytes/s       %9.2f GB/s (median)\n", gbps_median);
        printf("  buffer copy   %9.2f GB/s (median, same bytes)\n", copy_gbps);
        printf("  ratio to copy %9.3f / %9.3f / %9.3f\n", s_ratio.min, s_ratio.median, s_ratio.max);
        printf("  upload        %9.1f MB in %.3f s (%.2f GB/s), not in the pass\n", (double)upload_bytes * 1e-6,
               upload_seconds, (double)upload_bytes / upload_seconds * 1e-9);
        printf("  readback      %9.1f MB in %.3f s (%.2f GB/s), not in the pass\n", (double)readback_bytes * 1e-6,
               readback_seconds, (double)readback_bytes / readback_seconds * 1e-9);
        sw_gpu_skin_stats st;
        sw_gpu_skinner_get_stats(skinner, &st);
        printf("  dispatches    %llu executed, %llu skipped by the skin cache\n", (unsigned long long)st.dispatched,
               (unsigned long long)st.skipped);
    }

done:
    if (copy_buffers[0]) glDeleteBuffers(2, copy_buffers);
    for (size_t i = 0; copies && i < copy_count; ++i) {
        sw_gpu_instance_destroy(copies[i].instance);
        sw_gpu_mesh_destroy(copies[i].mesh);
    }
    for (size_t s = 0; palettes && s < a->skin_count; ++s) sw_gpu_palette_destroy(palettes[s]);
    free(copies), free(palettes), free(synthetic_tangents), free(seconds), free(copy_seconds), free(ratio);
    sw_gpu_skinner_destroy(skinner);
    sw_gl_context_destroy(context);
    return status;
}
