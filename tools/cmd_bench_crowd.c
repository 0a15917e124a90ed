/* sinew bench crowd — N characters of one model, each playing its own clip
   from its own time: pose evaluation and skinning on the CPU as crowd jobs
   (sinew/crowd.h) spread over the tools' thread pool, in microseconds per
   character; with --gpu, the same crowd skinned in one compute dispatch
   per primitive and drawn by the renderer with instanced draws. Numbers
   are min / median / max over repetitions after a warm-up; nothing here
   asserts a time. */
#define _POSIX_C_SOURCE 200809L
#include "bench_crowd.h"

#include "bench_stats.h"
#include "json_writer.h"
#include "thread_pool.h"

#include "sinew/crowd.h"
#include "sinew/render.h"

#include <epoxy/gl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CROWD_WARMUP_RUNS 3
#define CROWD_POSE_CHUNK 16      /* characters per pose work item */
#define CROWD_DT (1.0f / 60.0f)  /* time step per repetition */
#define CROWD_SPACING 1.5f       /* metres between neighbours on the grid (--gpu draws) */
#define CROWD_IMAGE_W 640
#define CROWD_IMAGE_H 360

/* ---- the thread pool as the crowd's parallel callback ---- */

typedef struct pool_items {
    sw_crowd_item_fn item;
    void* context;
} pool_items;

static void pool_item(void* context, size_t index, int thread) {
    (void)thread;
    const pool_items* p = context;
    p->item(p->context, index);
}

static void pool_parallel(void* user, size_t count, sw_crowd_item_fn item, void* context) {
    pool_items p = {item, context};
    thread_pool_run((thread_pool*)user, count, pool_item, &p);
}

/* ---- the work: poses in chunks of characters, then every primitive's items ---- */

typedef struct crowd_bench {
    sw_crowd_pose_job poses;
    sw_crowd_skin_job* skins;     /* one per skinned primitive */
    size_t skin_count;
    size_t* first_item;           /* skin_count + 1: where each job's items start */
} crowd_bench;

static void pose_item(void* context, size_t index) {
    const crowd_bench* b = context;
    size_t first = index * CROWD_POSE_CHUNK, n = b->poses.instance_count;
    sw_crowd_pose_run(&b->poses, first, first + CROWD_POSE_CHUNK < n ? CROWD_POSE_CHUNK : n - first);
}

static void skin_item(void* context, size_t index) {
    const crowd_bench* b = context;
    size_t j = 0;
    while (index >= b->first_item[j + 1]) j++;
    sw_crowd_skin_run_item(&b->skins[j], index - b->first_item[j]);
}

static uint64_t fnv1a(uint64_t hash, const void* data, size_t size) {
    const unsigned char* p = data;
    for (size_t i = 0; i < size; i++) hash = (hash ^ p[i]) * 0x100000001b3ull;
    return hash;
}

/* ---- --gpu: one dispatch per primitive, instanced draws ---- */

typedef struct gpu_result {
    bool run;
    const char* renderer;
    stats upload, dispatch, draw; /* microseconds per character */
} gpu_result;

static bool bench_gpu(const bench_crowd_options* opt, const sw_model* a, const sw_pose* poses, float* times,
                      sw_crowd_pose_job* pose_job, gpu_result* out, tool_args* args, int* status) {
    sw_gl_context* gl = NULL;
    sw_gpu_skinner* skinner = NULL;
    sw_renderer* renderer = NULL;
    sw_gpu_model_primitive** prims = NULL;
    const sw_pose** pointers = NULL;
    sw_mat34* placements = NULL;
    double* samples[3] = {NULL, NULL, NULL};
    size_t prim_count = 0;
    sw_diag diag;
    bool ok = false;
    const size_t n = opt->characters;
    static char renderer_name[256];

    if (sw_gl_context_create(NULL, &gl, &diag) != SW_OK || sw_gpu_skinner_create(&skinner, &diag) != SW_OK) {
        *status = tool_fail(args, "--gpu: %s", diag.message);
        goto done;
    }
    sw_gl_context_info info;
    sw_gl_context_get_info(gl, &info);
    snprintf(renderer_name, sizeof renderer_name, "%s", info.gl_renderer ? info.gl_renderer : "?");
    out->renderer = renderer_name;
    size_t skinned = 0;
    for (size_t nd = 0; nd < a->node_count; nd++)
        if (a->nodes[nd].mesh >= 0 && a->nodes[nd].skin >= 0) skinned += a->meshes[a->nodes[nd].mesh].primitive_count;
    prims = calloc(skinned + 1, sizeof *prims);
    pointers = malloc((n + 1) * sizeof *pointers);
    placements = malloc((n + 1) * sizeof *placements);
    for (int s = 0; s < 3; s++) samples[s] = calloc((size_t)opt->reps, sizeof(double));
    if (!prims || !pointers || !placements || !samples[0] || !samples[1] || !samples[2]) {
        *status = tool_fail(args, "out of memory");
        goto done;
    }
    /* A square grid, each character on its own spot. */
    const size_t side = (size_t)ceil(sqrt((double)n));
    for (size_t c = 0; c < n; c++) {
        pointers[c] = &poses[c];
        placements[c] = sw_mat34_translation(
            sw_vec3_make(CROWD_SPACING * (float)(c % side), 0.0f, CROWD_SPACING * (float)(c / side)));
    }
    for (size_t nd = 0; nd < a->node_count; nd++) {
        const sw_model_node* node = &a->nodes[nd];
        if (node->mesh < 0 || node->skin < 0) continue;
        for (size_t p = 0; p < a->meshes[node->mesh].primitive_count; p++) {
            if (a->meshes[node->mesh].primitives[p].influence_count == 0) continue;
            if (sw_gpu_model_primitive_create_crowd(skinner, a, nd, p, NULL, n, &prims[prim_count], &diag) != SW_OK) {
                *status = tool_fail(args, "--gpu: %s", diag.message);
                goto done;
            }
            prim_count++;
        }
    }
    /* Upload (palettes of every character) and dispatch, timed apart. */
    const sw_gpu_skin_desc desc = {.method = opt->dqs ? SW_SKIN_DQS : SW_SKIN_LBS, .force = true};
    for (int r = -CROWD_WARMUP_RUNS; r < opt->reps; r++) {
        for (size_t c = 0; c < n; c++) times[c] += CROWD_DT;
        sw_crowd_pose_run(pose_job, 0, n);
        glFinish();
        double t0 = now_seconds();
        for (size_t i = 0; i < prim_count; i++)
            if (sw_gpu_model_primitive_pose_crowd(prims[i], pointers, placements, n, &diag) != SW_OK) goto gl_failed;
        glFinish();
        double t1 = now_seconds();
        for (size_t i = 0; i < prim_count; i++)
            if (sw_gpu_model_primitive_skin(skinner, prims[i], &desc, NULL, &diag) != SW_OK) goto gl_failed;
        glFinish();
        double t2 = now_seconds();
        if (r < 0) continue;
        samples[0][r] = (t1 - t0) / (double)n * 1e6;
        samples[1][r] = (t2 - t1) / (double)n * 1e6;
    }
    /* Drawing: the same crowd (the renderer's own buffers) frame after frame
       at one pose, so the skin cache answers and only the passes are timed:
       shadow map (copy after copy), G-buffer (instanced), lighting. */
    sw_renderer_desc rdesc = {.width = CROWD_IMAGE_W, .height = CROWD_IMAGE_H};
    if (sw_renderer_create(&rdesc, &renderer, &diag) != SW_OK || sw_renderer_set_scene(renderer, a, &diag) != SW_OK)
        goto gl_failed;
    float lo[3], hi[3];
    if (sw_renderer_scene_bounds(renderer, &poses[0], lo, hi, &diag) != SW_OK) goto gl_failed;
    hi[0] += CROWD_SPACING * (float)(side - 1), hi[2] += CROWD_SPACING * (float)((n - 1) / side);
    sw_renderer_set_scene_box(renderer, lo, hi);
    sw_camera camera;
    sw_camera_frame_bounds(lo, hi, 25.0f, 30.0f, (float)CROWD_IMAGE_W / CROWD_IMAGE_H, &camera);
    sw_render_frame frame = {.pose = &poses[0], .camera = camera, .previous_camera = camera, .first_frame = true,
                             .method = desc.method, .crowd_count = n, .crowd_poses = pointers,
                             .crowd_placements = placements};
    for (int r = -CROWD_WARMUP_RUNS; r < opt->reps; r++) {
        glFinish();
        double t0 = now_seconds();
        if (sw_renderer_draw(renderer, &frame, &diag) != SW_OK) goto gl_failed;
        glFinish();
        double t1 = now_seconds();
        if (r >= 0) samples[2][r] = (t1 - t0) / (double)n * 1e6;
    }
    out->upload = summarise(samples[0], opt->reps);
    out->dispatch = summarise(samples[1], opt->reps);
    out->draw = summarise(samples[2], opt->reps);
    out->run = true;
    ok = true;
    goto done;
gl_failed:
    *status = tool_fail(args, "--gpu: %s", diag.message);
done:
    for (size_t i = 0; i < prim_count; i++) sw_gpu_model_primitive_destroy(prims[i]);
    sw_renderer_destroy(renderer);
    sw_gpu_skinner_destroy(skinner);
    sw_gl_context_destroy(gl);
    free(prims), free(pointers), free(placements);
    for (int s = 0; s < 3; s++) free(samples[s]);
    return ok;
}

int bench_crowd(const bench_crowd_options* opt, tool_args* args) {
    sw_model* a = NULL;
    sw_diag diag;
    tool_error err;
    int status = TOOL_EXIT_OK;
    thread_pool* pool = NULL;
    crowd_bench b = {0};
    sw_pose* poses = NULL;
    void* pose_memory = NULL;
    const sw_clip** clips = NULL;
    float* times = NULL;
    const sw_mat34** palettes = NULL;
    const sw_dualquat** dual_quats = NULL;
    const sw_mat34** stretches = NULL;
    float** outputs = NULL;
    double* per_char[3] = {NULL, NULL, NULL};
    gpu_result gpu = {0};
    const size_t n = opt->characters;

    if (tool_load_model(opt->model, NULL, &a, &diag) != SW_OK) return tool_fail(args, "%s", diag.message);
    const sw_pose_sizes sizes = sw_pose_sizes_of(a);
    const size_t stride = sw_pose_memory_size(&sizes);
    size_t skinned = 0, vertices = 0;
    for (size_t nd = 0; nd < a->node_count; nd++) {
        const sw_model_node* node = &a->nodes[nd];
        if (node->mesh < 0 || node->skin < 0) continue;
        for (size_t p = 0; p < a->meshes[node->mesh].primitive_count; p++)
            if (a->meshes[node->mesh].primitives[p].influence_count > 0) {
                skinned++;
                vertices += a->meshes[node->mesh].primitives[p].vertex_count;
            }
    }
    if (!skinned) {
        status = tool_fail(args, "%s has no skinned mesh to skin", opt->model);
        goto done;
    }
    poses = calloc(n, sizeof *poses);
    pose_memory = aligned_alloc(16, stride * n);
    clips = calloc(n, sizeof *clips);
    times = calloc(n, sizeof *times);
    palettes = calloc(skinned * n, sizeof *palettes);
    dual_quats = calloc(skinned * n, sizeof *dual_quats);
    stretches = calloc(skinned * n, sizeof *stretches);
    outputs = calloc(skinned, sizeof *outputs);
    b.skins = calloc(skinned, sizeof *b.skins);
    b.first_item = calloc(skinned + 1, sizeof *b.first_item);
    bool ok = poses && pose_memory && clips && times && palettes && dual_quats && stretches && outputs && b.skins &&
              b.first_item;
    for (int s = 0; s < 3; s++) ok = (per_char[s] = calloc((size_t)opt->reps, sizeof(double))) && ok;
    if (!ok) {
        status = tool_fail(args, "out of memory for %zu characters", n);
        goto done;
    }
    /* Each character its own clip (round robin) and its own phase. */
    for (size_t c = 0; c < n; c++) {
        sw_pose_bind(&poses[c], &sizes, (uint8_t*)pose_memory + c * stride);
        if (!opt->dqs) poses[c].skin_dual_quats = NULL; /* LBS needs the matrices only */
        clips[c] = a->animation_count ? &a->animations[c % a->animation_count] : NULL;
        double length = clips[c] && clips[c]->duration > 0 ? clips[c]->duration : 1.0;
        times[c] = (float)fmod(0.37 * (double)c, length);
    }
    b.poses = (sw_crowd_pose_job){.model = a, .instance_count = n, .poses = poses, .clips = clips, .times = times,
                                  .looping = true};
    if (sw_crowd_pose_validate(&b.poses, &diag) != SW_OK) {
        status = tool_fail(args, "%s: %s", opt->model, diag.message);
        goto done;
    }
    sw_crowd_pose_run(&b.poses, 0, n);
    /* One crowd skinning job per skinned primitive: positions and normals. */
    for (size_t nd = 0; nd < a->node_count; nd++) {
        const sw_model_node* node = &a->nodes[nd];
        if (node->mesh < 0 || node->skin < 0) continue;
        const sw_model_skin* skin = &a->skins[node->skin];
        for (size_t p = 0; p < a->meshes[node->mesh].primitive_count; p++) {
            const sw_model_primitive* prim = &a->meshes[node->mesh].primitives[p];
            if (prim->influence_count == 0) continue;
            size_t j = b.skin_count;
            size_t floats = prim->vertex_count * (prim->normals ? 6 : 3);
            if (!(outputs[j] = malloc(floats * n * sizeof(float)))) {
                status = tool_fail(args, "out of memory for %zu characters' vertices", n);
                goto done;
            }
            for (size_t c = 0; c < n; c++) {
                palettes[j * n + c] = poses[c].skin_matrices + skin->palette_offset;
                if (opt->dqs) {
                    dual_quats[j * n + c] = poses[c].skin_dual_quats + skin->palette_offset;
                    /* Stretch only for skins that scale (at the first pose). */
                    stretches[j * n + c] =
                        poses[c].skin_scaled[node->skin] ? poses[c].skin_stretch + skin->palette_offset : NULL;
                }
            }
            b.skins[j] = (sw_crowd_skin_job){
                .skin = {.method = opt->dqs ? SW_SKIN_DQS : SW_SKIN_LBS, .vertex_count = prim->vertex_count,
                         .influence_count = prim->influence_count, .joint_count = skin->joint_count,
                         .joints = prim->joints, .weights = prim->weights, .in_positions = prim->positions,
                         .out_positions = outputs[j], .in_normals = prim->normals,
                         .out_normals = prim->normals ? outputs[j] + prim->vertex_count * 3 * n : NULL},
                .instance_count = n, .matrices = palettes + j * n, .dual_quats = opt->dqs ? dual_quats + j * n : NULL,
                .stretch = opt->dqs ? stretches + j * n : NULL,
            };
            if (sw_crowd_skin_validate(&b.skins[j], &diag) != SW_OK) {
                status = tool_fail(args, "%s: %s", opt->model, diag.message);
                goto done;
            }
            b.first_item[j + 1] = b.first_item[j] + sw_crowd_skin_item_count(&b.skins[j]);
            b.skin_count++;
        }
    }
    if (!(pool = thread_pool_create(opt->threads, &err))) {
        status = tool_fail(args, "%s", err.message);
        goto done;
    }
    const size_t pose_items = (n + CROWD_POSE_CHUNK - 1) / CROWD_POSE_CHUNK;
    for (int r = -CROWD_WARMUP_RUNS; r < opt->reps; r++) {
        for (size_t c = 0; c < n; c++) times[c] += CROWD_DT;
        double t0 = now_seconds();
        pool_parallel(pool, pose_items, pose_item, &b);
        double t1 = now_seconds();
        pool_parallel(pool, b.first_item[b.skin_count], skin_item, &b);
        double t2 = now_seconds();
        if (r < 0) continue;
        per_char[0][r] = (t1 - t0) / (double)n * 1e6;
        per_char[1][r] = (t2 - t1) / (double)n * 1e6;
        per_char[2][r] = (t2 - t0) / (double)n * 1e6;
    }
    /* Every character's skinned vertices after the last repetition: the
       same whatever --threads. */
    uint64_t checksum = 0xcbf29ce484222325ull;
    for (size_t j = 0; j < b.skin_count; j++) {
        const sw_skin_job* s = &b.skins[j].skin;
        checksum = fnv1a(checksum, s->out_positions, s->vertex_count * 3 * n * sizeof(float));
        if (s->out_normals) checksum = fnv1a(checksum, s->out_normals, s->vertex_count * 3 * n * sizeof(float));
    }
    char checksum_text[17];
    snprintf(checksum_text, sizeof checksum_text, "%016llx", (unsigned long long)checksum);
    stats st[3];
    for (int s = 0; s < 3; s++) st[s] = summarise(per_char[s], opt->reps);

    if (opt->gpu && !bench_gpu(opt, a, poses, times, &b.poses, &gpu, args, &status)) goto done;

    const char* method = opt->dqs ? "dqs" : "lbs";
    if (opt->json) {
        json_writer w;
        json_writer_init(&w, json_file_sink, stdout);
        json_begin_object(&w);
        json_key(&w, "bench"), json_string(&w, "crowd");
        json_key(&w, "model"), json_string(&w, opt->model);
        json_key(&w, "characters"), json_int(&w, (long long)n);
        json_key(&w, "animations"), json_int(&w, (long long)a->animation_count);
        json_key(&w, "skinned_primitives"), json_int(&w, (long long)skinned);
        json_key(&w, "vertices_per_character"), json_int(&w, (long long)vertices);
        json_key(&w, "method"), json_string(&w, method);
        json_key(&w, "kernel"), json_string(&w, sw_skin_kernel_name(sw_skin_kernel_best()));
        json_key(&w, "threads"), json_int(&w, opt->threads);
        json_key(&w, "reps"), json_int(&w, opt->reps);
        json_key(&w, "microseconds_per_character");
        json_begin_object(&w);
        json_stats(&w, "pose", st[0]);
        json_stats(&w, "skinning", st[1]);
        json_stats(&w, "pose_and_skinning", st[2]);
        json_end_object(&w);
        json_key(&w, "checksum"), json_string(&w, checksum_text);
        json_key(&w, "gpu");
        if (gpu.run) {
            json_begin_object(&w);
            json_key(&w, "renderer"), json_string(&w, gpu.renderer);
            json_key(&w, "microseconds_per_character");
            json_begin_object(&w);
            json_stats(&w, "palette_upload", gpu.upload);
            json_stats(&w, "dispatch", gpu.dispatch);
            json_stats(&w, "draw", gpu.draw);
            json_end_object(&w);
            json_end_object(&w);
        } else {
            json_null(&w);
        }
        json_end_object(&w);
        json_newline(&w);
        if (!json_writer_finish(&w)) status = tool_fail(args, "cannot write to standard output");
    } else {
        printf("sinew bench crowd: %s\n", opt->model);
        printf("  %zu characters, each its own clip (of %zu) and time; %zu skinned primitives, %zu vertices each;\n"
               "  %s, %s kernel, positions + normals, %d thread%s, %d repetitions\n",
               n, a->animation_count, skinned, vertices, opt->dqs ? "DQS" : "LBS",
               sw_skin_kernel_name(sw_skin_kernel_best()), opt->threads, opt->threads == 1 ? "" : "s", opt->reps);
        printf("  microseconds per character   min      median   max\n");
        static const char* const labels[3] = {"pose (sample, world, skin)", "skinning", "pose + skinning (wall)"};
        for (int s = 0; s < 3; s++) printf("  %-26s %8.3f %8.3f %8.3f\n", labels[s], st[s].min, st[s].median, st[s].max);
        printf("  checksum of every skinned vertex %s (the same for any --threads)\n", checksum_text);
        if (gpu.run) {
            printf("  GPU (%s), microseconds per character\n", gpu.renderer);
            printf("  %-26s %8.3f %8.3f %8.3f\n", "palette upload", gpu.upload.min, gpu.upload.median, gpu.upload.max);
            printf("  %-26s %8.3f %8.3f %8.3f\n", "dispatch (one per primitive)", gpu.dispatch.min, gpu.dispatch.median,
                   gpu.dispatch.max);
            printf("  %-26s %8.3f %8.3f %8.3f\n", "draw (instanced frame)", gpu.draw.min, gpu.draw.median, gpu.draw.max);
        }
    }

done:
    thread_pool_destroy(pool);
    for (size_t j = 0; outputs && j < skinned; j++) free(outputs[j]);
    free(outputs), free(b.skins), free(b.first_item);
    free(poses), free(pose_memory), free(clips), free(times);
    free(palettes), free(dual_quats), free(stretches);
    for (int s = 0; s < 3; s++) free(per_char[s]);
    sw_model_free(a);
    return status;
}
