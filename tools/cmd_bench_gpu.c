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

/* Everything the GPU benchmark holds and measures. */
typedef struct gpu_bench {
    sw_gl_context* context;
    sw_gpu_skinner* skinner;
    sw_gl_context_info info;
    sw_gpu_palette** palettes;   /* one per skin, shared by every copy */
    size_t palette_count;
    gpu_copy* copies;
    size_t copy_count;
    size_t largest;              /* vertices of the largest primitive */
    float* synthetic_tangents;
    GLuint copy_buffers[2];      /* the buffer-copy reference */
    size_t bytes_per_pass, vertices_per_pass, upload_bytes, readback_bytes;
    double upload_seconds, readback_seconds;
    double *seconds, *copy_seconds, *ratio; /* per repetition */
} gpu_bench;

static void gpu_bench_free(gpu_bench* g) {
    if (g->copy_buffers[0]) glDeleteBuffers(2, g->copy_buffers);
    for (size_t i = 0; g->copies && i < g->copy_count; ++i) {
        sw_gpu_instance_destroy(g->copies[i].instance);
        sw_gpu_mesh_destroy(g->copies[i].mesh);
    }
    for (size_t s = 0; g->palettes && s < g->palette_count; ++s) sw_gpu_palette_destroy(g->palettes[s]);
    free(g->copies), free(g->palettes), free(g->synthetic_tangents), free(g->seconds), free(g->copy_seconds),
        free(g->ratio);
    sw_gpu_skinner_destroy(g->skinner);
    sw_gl_context_destroy(g->context);
}

/* The pose's palettes, one per skin, shared by every copy. */
static bool gpu_bench_palettes(gpu_bench* g, const sw_model* a, const bench_gpu_palettes* pose, sw_diag* diag) {
    g->palettes = calloc(a->skin_count + 1, sizeof *g->palettes);
    if (!g->palettes) {
        sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory");
        return false;
    }
    g->palette_count = a->skin_count;
    for (size_t s = 0; s < a->skin_count; ++s)
        if (sw_gpu_palette_create(g->skinner, a->skins[s].joint_count, &g->palettes[s], diag) != SW_OK ||
            sw_gpu_palette_update(g->palettes[s], pose->matrices[s], pose->dual_quats[s],
                                  pose->stretches ? pose->stretches[s] : NULL, diag) != SW_OK)
            return false;
    return true;
}

/* The skinned primitives, replicated opt->copies times, uploaded (timed). */
static bool gpu_bench_copies(gpu_bench* g, const bench_gpu_options* opt, const bench_skinned* skinned, size_t per_copy,
                             sw_diag* diag) {
    for (size_t i = 0; i < per_copy; ++i)
        if (skinned[i].prim->vertex_count > g->largest) g->largest = skinned[i].prim->vertex_count;
    const size_t k = opt->copies;
    g->copies = calloc(per_copy * k, sizeof *g->copies);
    g->synthetic_tangents = opt->tangents ? malloc(g->largest * 16) : NULL;
    if (!g->copies || (opt->tangents && !g->synthetic_tangents)) {
        sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for %zu copies", k);
        return false;
    }
    for (size_t v = 0; opt->tangents && v < g->largest; v++)
        memcpy(g->synthetic_tangents + 4 * v, (const float[4]){1, 0, 0, 1}, 16);
    double upload_start = now_seconds();
    for (size_t c = 0; c < k; ++c) {
        for (size_t i = 0; i < per_copy; ++i) {
            const sw_model_primitive* prim = skinned[i].prim;
            sw_gpu_mesh_desc desc;
            sw_gpu_morph_target none[1];
            sw_gpu_mesh_desc_from_primitive(prim, none, &desc);
            desc.target_count = 0, desc.targets = NULL; /* skinning only, as the CPU bench */
            desc.normals = opt->normals ? prim->normals : NULL;
            desc.tangents = opt->tangents ? (prim->tangents ? prim->tangents : g->synthetic_tangents) : NULL;
            gpu_copy* copy = &g->copies[g->copy_count++];
            copy->skin = skinned[i].skin;
            if (sw_gpu_mesh_create(&desc, &copy->mesh, diag) != SW_OK ||
                sw_gpu_instance_create(copy->mesh, &copy->instance, diag) != SW_OK) {
                sw_diag why = *diag;
                sw_diag_set(diag, why.result, why.index, "copy %zu: %s", c, why.message);
                return false;
            }
            /* What one dispatch must move: the streams read, the streams written. */
            size_t in = 12 + (desc.normals ? 12 : 0) + (desc.tangents ? 16 : 0) +
                        (size_t)prim->influence_count * (2 + 4);
            size_t out = 12 + (desc.normals ? 12 : 0) + (desc.tangents ? 16 : 0);
            g->bytes_per_pass += prim->vertex_count * (in + out);
            g->vertices_per_pass += prim->vertex_count;
            g->upload_bytes += sw_gpu_mesh_bytes(copy->mesh);
        }
    }
    glFinish();
    g->upload_seconds = now_seconds() - upload_start;
    return true;
}

/* The passes, each against the reference: copying the same number of
   bytes GPU buffer to GPU buffer (half read, half written, as the
   kernel's traffic). */
static bool gpu_bench_passes(gpu_bench* g, const bench_gpu_options* opt, sw_diag* diag) {
    size_t half = g->bytes_per_pass / 2;
    glGenBuffers(2, g->copy_buffers);
    glBindBuffer(GL_COPY_READ_BUFFER, g->copy_buffers[0]);
    glBufferData(GL_COPY_READ_BUFFER, (GLsizeiptr)half, NULL, GL_STATIC_DRAW);
    glBindBuffer(GL_COPY_WRITE_BUFFER, g->copy_buffers[1]);
    glBufferData(GL_COPY_WRITE_BUFFER, (GLsizeiptr)half, NULL, GL_STATIC_DRAW);
    if (sw_gl_check("allocating the copy reference", diag) != SW_OK) return false;
    const int reps = opt->reps;
    g->seconds = calloc((size_t)reps, sizeof *g->seconds);
    g->copy_seconds = calloc((size_t)reps, sizeof *g->copy_seconds);
    g->ratio = calloc((size_t)reps, sizeof *g->ratio);
    if (!g->seconds || !g->copy_seconds || !g->ratio) {
        sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory");
        return false;
    }
    sw_gpu_skin_desc desc = {.method = opt->dqs ? SW_SKIN_DQS : SW_SKIN_LBS, .path = opt->path, .force = true};
    for (int r = -GPU_WARMUP_RUNS; r < reps; ++r) {
        glFinish();
        double t0 = now_seconds();
        for (size_t i = 0; i < g->copy_count; ++i)
            if (sw_gpu_skin(g->skinner, g->copies[i].instance, g->palettes[g->copies[i].skin], &desc, NULL, diag) !=
                SW_OK)
                return false;
        glFinish();
        double t1 = now_seconds();
        glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 0, (GLsizeiptr)half);
        glFinish();
        double t2 = now_seconds();
        if (r < 0) continue;
        g->seconds[r] = t1 - t0;
        g->copy_seconds[r] = t2 - t1;
        g->ratio[r] = g->copy_seconds[r] / g->seconds[r]; /* kernel rate / copy rate */
    }
    return true;
}

/* Readback of every output once, for the record. */
static void gpu_bench_readback(gpu_bench* g) {
    sw_diag diag;
    double readback_start = now_seconds();
    float* scratch = malloc(g->largest * 16 + 16);
    for (size_t i = 0; scratch && i < g->copy_count; ++i) {
        sw_gpu_instance_buffers b;
        sw_gpu_instance_get_buffers(g->copies[i].instance, &b);
        if (sw_gpu_instance_read(g->copies[i].instance, scratch, NULL, NULL, NULL, &diag) != SW_OK) break;
        g->readback_bytes += b.vertex_count * 12;
    }
    g->readback_seconds = now_seconds() - readback_start;
    free(scratch);
}

static bool print_gpu_bench(const gpu_bench* g, const bench_gpu_options* opt) {
    const int reps = opt->reps;
    const size_t k = opt->copies;
    stats s_time = summarise(g->seconds, reps);
    stats s_copy = summarise(g->copy_seconds, reps);
    stats s_ratio = summarise(g->ratio, reps);
    double vps_median = (double)g->vertices_per_pass / s_time.median;
    double gbps_median = (double)g->bytes_per_pass / s_time.median * 1e-9;
    double copy_gbps = (double)(2 * (g->bytes_per_pass / 2)) / s_copy.median * 1e-9;
    const char* path_name = opt->path == SW_GPU_PATH_COMPUTE ? "compute" : "vertex-shader";
    if (opt->json) {
        json_writer w;
        json_writer_init(&w, json_file_sink, stdout);
        json_begin_object(&w);
        json_key(&w, "benchmark"), json_string(&w, "skin-gpu");
        json_key(&w, "model"), json_string(&w, opt->model);
        json_key(&w, "renderer"), json_string(&w, g->info.gl_renderer);
        json_key(&w, "gl_version"), json_string(&w, g->info.gl_version);
        json_key(&w, "path"), json_string(&w, path_name);
        json_key(&w, "method"), json_string(&w, opt->dqs ? "dqs" : "lbs");
        json_key(&w, "copies"), json_int(&w, (long long)k);
        json_key(&w, "vertices_per_pass"), json_int(&w, (long long)g->vertices_per_pass);
        json_key(&w, "bytes_per_pass"), json_int(&w, (long long)g->bytes_per_pass);
        json_key(&w, "reps"), json_int(&w, reps);
        json_stats(&w, "pass_seconds", s_time);
        json_key(&w, "vertices_per_second_median"), json_double(&w, vps_median);
        json_key(&w, "gb_per_second_median"), json_double(&w, gbps_median);
        json_stats(&w, "copy_seconds", s_copy);
        json_key(&w, "copy_gb_per_second_median"), json_double(&w, copy_gbps);
        json_stats(&w, "ratio_to_copy", s_ratio);
        json_key(&w, "upload_bytes"), json_int(&w, (long long)g->upload_bytes);
        json_key(&w, "upload_seconds"), json_double(&w, g->upload_seconds);
        json_key(&w, "readback_bytes"), json_int(&w, (long long)g->readback_bytes);
        json_key(&w, "readback_seconds"), json_double(&w, g->readback_seconds);
        json_end_object(&w);
        json_newline(&w);
        return json_writer_finish(&w);
    }
    printf("GPU skinning (%s, %s) on %s\n", path_name, opt->dqs ? "DQS" : "LBS", g->info.gl_renderer);
    printf("%s: %zu copies, %zu vertices, %.1f MB moved per pass, %d repetitions\n", opt->model, k,
           g->vertices_per_pass, (double)g->bytes_per_pass * 1e-6, reps);
    printf("  pass          %9.3f / %9.3f / %9.3f ms (min / median / max)\n", s_time.min * 1e3, s_time.median * 1e3,
           s_time.max * 1e3);
    printf("  vertices/s    %9.1f M (median)\n", vps_median * 1e-6);
    printf("  bytes/s       %9.2f GB/s (median)\n", gbps_median);
    printf("  buffer copy   %9.2f GB/s (median, same bytes)\n", copy_gbps);
    printf("  ratio to copy %9.3f / %9.3f / %9.3f\n", s_ratio.min, s_ratio.median, s_ratio.max);
    printf("  upload        %9.1f MB in %.3f s (%.2f GB/s), not in the pass\n", (double)g->upload_bytes * 1e-6,
           g->upload_seconds, (double)g->upload_bytes / g->upload_seconds * 1e-9);
    printf("  readback      %9.1f MB in %.3f s (%.2f GB/s), not in the pass\n", (double)g->readback_bytes * 1e-6,
           g->readback_seconds, (double)g->readback_bytes / g->readback_seconds * 1e-9);
    sw_gpu_skin_stats st;
    sw_gpu_skinner_get_stats(g->skinner, &st);
    printf("  dispatches    %llu executed, %llu skipped by the skin cache\n", (unsigned long long)st.dispatched,
           (unsigned long long)st.skipped);
    return true;
}

int bench_skin_gpu(const bench_gpu_options* opt, const sw_model* a, const bench_gpu_palettes* pose,
                   const bench_skinned* skinned, size_t per_copy, tool_args* args) {
    int status = TOOL_EXIT_OK;
    gpu_bench g = {0};
    sw_diag diag;
    if (sw_gl_context_create(NULL, &g.context, &diag) != SW_OK || sw_gpu_skinner_create(&g.skinner, &diag) != SW_OK) {
        status = tool_fail(args, "--gpu: %s", diag.message);
    } else {
        sw_gl_context_get_info(g.context, &g.info);
        if (!gpu_bench_palettes(&g, a, pose, &diag) || !gpu_bench_copies(&g, opt, skinned, per_copy, &diag) ||
            !gpu_bench_passes(&g, opt, &diag)) {
            status = diag.result == SW_ERR_OUT_OF_MEMORY ? tool_fail(args, "%s", diag.message)
                                                          : tool_fail(args, "--gpu: %s", diag.message);
        } else {
            gpu_bench_readback(&g);
            if (!print_gpu_bench(&g, opt)) status = tool_fail(args, "cannot write to standard output");
        }
    }
    gpu_bench_free(&g);
    return status;
}
