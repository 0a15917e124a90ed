/* sinew bench crowd — N characters of one model, each playing its own clip
   from its own time: pose evaluation and skinning on the CPU as crowd jobs
   (sinew/crowd.h) spread over the tools' thread pool, in microseconds per
   character; with --gpu, the same crowd skinned from one palette per skin
   (uploaded once for every primitive of the skin) in one compute dispatch
   per primitive, and drawn by the renderer with instanced draws. Numbers
   are min / median / max over repetitions after a warm-up; nothing here
   asserts a time. */
#define _POSIX_C_SOURCE 200809L
#include "bench_crowd.h"

#include "bench_stats.h"
#include "json_writer.h"
#include "thread_pool.h"

#include "sinew/crowd.h"
#include "sinew/gpu_crowd.h"
#include "sinew/render.h"

#include <epoxy/gl.h>
#include <math.h>
#include <stdio.h>
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

/* ---- --gpu: one palette per skin, one dispatch per primitive, instanced draws ---- */

typedef struct gpu_result {
    bool run;
    const char* renderer;
    stats upload, dispatch, draw; /* microseconds per character */
} gpu_result;

/* The GPU objects of --gpu: one crowd palette per skin, one crowd
   primitive per skinned primitive, every character placed on a grid. */
typedef struct gpu_crowd {
    sw_gpu_skinner* skinner;
    sw_gpu_model_palette** palettes; /* per skin; NULL where no skinned primitive uses it */
    size_t palette_count;
    sw_gpu_model_primitive** prims;
    size_t prim_count;
    const sw_pose** pointers;
    sw_mat34* placements;
    size_t side;                     /* characters along a side of the grid */
} gpu_crowd;

static void gpu_crowd_free(gpu_crowd* g) {
    for (size_t i = 0; g->prims && i < g->prim_count; i++) sw_gpu_model_primitive_destroy(g->prims[i]);
    for (size_t i = 0; g->palettes && i < g->palette_count; i++) sw_gpu_model_palette_destroy(g->palettes[i]);
    sw_gpu_skinner_destroy(g->skinner);
    free(g->prims), free(g->palettes), free(g->pointers), free(g->placements);
    memset(g, 0, sizeof *g);
}

static bool gpu_crowd_make(gpu_crowd* g, const sw_model* a, const sw_pose* poses, size_t n, size_t skinned,
                           sw_diag* diag) {
    g->prims = calloc(skinned + 1, sizeof *g->prims);
    g->palettes = calloc(a->skin_count + 1, sizeof *g->palettes);
    g->pointers = malloc((n + 1) * sizeof *g->pointers);
    g->placements = malloc((n + 1) * sizeof *g->placements);
    if (!g->prims || !g->palettes || !g->pointers || !g->placements) {
        sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory");
        return false;
    }
    g->palette_count = a->skin_count;
    /* A square grid, each character on its own spot. */
    g->side = (size_t)ceil(sqrt((double)n));
    for (size_t c = 0; c < n; c++) {
        g->pointers[c] = &poses[c];
        g->placements[c] = sw_mat34_translation(
            sw_vec3_make(CROWD_SPACING * (float)(c % g->side), 0.0f, CROWD_SPACING * (float)(c / g->side)));
    }
    for (size_t nd = 0; nd < a->node_count; nd++) {
        const sw_model_node* node = &a->nodes[nd];
        if (node->mesh < 0 || node->skin < 0) continue;
        for (size_t p = 0; p < a->meshes[node->mesh].primitive_count; p++) {
            if (a->meshes[node->mesh].primitives[p].influence_count == 0) continue;
            sw_gpu_model_palette** palette = &g->palettes[node->skin];
            if (!*palette &&
                sw_gpu_model_palette_create_skin(g->skinner, a, (size_t)node->skin, n, palette, diag) != SW_OK)
                return false;
            if (sw_gpu_model_primitive_create_shared(g->skinner, *palette, nd, p, NULL, &g->prims[g->prim_count], diag) !=
                SW_OK)
                return false;
            g->prim_count++;
        }
    }
    return true;
}

/* Upload (every skin's palettes of every character, once per skin) and
   dispatch (one per primitive), timed apart, per character. */
static bool gpu_crowd_time_skinning(gpu_crowd* g, const bench_crowd_options* opt, size_t n, float* times,
                                    sw_crowd_pose_job* pose_job, double* upload, double* dispatch, sw_diag* diag) {
    const sw_skin_method method = opt->dqs ? SW_SKIN_DQS : SW_SKIN_LBS;
    const sw_gpu_skin_desc desc = {.method = method, .force = true};
    for (int r = -CROWD_WARMUP_RUNS; r < opt->reps; r++) {
        for (size_t c = 0; c < n; c++) times[c] += CROWD_DT;
        sw_crowd_pose_run(pose_job, 0, n);
        glFinish();
        double t0 = now_seconds();
        for (size_t i = 0; i < g->palette_count; i++) {
            if (!g->palettes[i]) continue;
            if (sw_gpu_model_palette_pose(g->palettes[i], g->pointers, g->placements, n, diag) != SW_OK ||
                sw_gpu_model_palette_upload(g->palettes[i], method, diag) != SW_OK)
                return false;
        }
        glFinish();
        double t1 = now_seconds();
        for (size_t i = 0; i < g->prim_count; i++)
            if (sw_gpu_model_primitive_skin(g->skinner, g->prims[i], &desc, NULL, diag) != SW_OK) return false;
        glFinish();
        double t2 = now_seconds();
        if (r < 0) continue;
        upload[r] = (t1 - t0) / (double)n * 1e6;
        dispatch[r] = (t2 - t1) / (double)n * 1e6;
    }
    return true;
}

/* Drawing: the same crowd (the renderer's own buffers) frame after frame
   at one pose, so the skin cache answers and only the passes are timed:
   shadow map (copy after copy), G-buffer (instanced), lighting. */
static bool gpu_crowd_time_drawing(const gpu_crowd* g, const bench_crowd_options* opt, const sw_model* a,
                                   const sw_pose* poses, size_t n, double* draw, sw_diag* diag) {
    sw_renderer* renderer = NULL;
    sw_material_set materials = {0};
    sw_renderer_desc rdesc = {.width = CROWD_IMAGE_W, .height = CROWD_IMAGE_H};
    bool ok = sw_renderer_create(&rdesc, &renderer, diag) == SW_OK &&
              sw_material_set_read(a, &materials, diag) == SW_OK &&
              sw_renderer_set_scene(renderer, a, &materials, diag) == SW_OK &&
              sw_renderer_set_crowd(renderer, n, diag) == SW_OK;
    float lo[3], hi[3];
    ok = ok && sw_renderer_scene_bounds(renderer, &poses[0], lo, hi, diag) == SW_OK;
    if (ok) {
        hi[0] += CROWD_SPACING * (float)(g->side - 1), hi[2] += CROWD_SPACING * (float)((n - 1) / g->side);
        sw_renderer_set_scene_box(renderer, lo, hi);
        sw_camera camera;
        sw_camera_frame_bounds(lo, hi, 25.0f, 30.0f, (float)CROWD_IMAGE_W / CROWD_IMAGE_H, &camera);
        const sw_render_frame frame = {
            .pose = &poses[0],
            .method = opt->dqs ? SW_SKIN_DQS : SW_SKIN_LBS,
            .first_frame = true,
            .camera = {.current = camera, .previous = camera},
            .crowd = {.count = n, .poses = g->pointers, .placements = g->placements},
        };
        for (int r = -CROWD_WARMUP_RUNS; ok && r < opt->reps; r++) {
            glFinish();
            double t0 = now_seconds();
            ok = sw_renderer_draw(renderer, &frame, diag) == SW_OK;
            glFinish();
            double t1 = now_seconds();
            if (r >= 0) draw[r] = (t1 - t0) / (double)n * 1e6;
        }
    }
    sw_renderer_destroy(renderer);
    sw_material_set_free(&materials);
    return ok;
}

/* A GL context and a skinner for `option`'s run, and the GL renderer's
   name (kept until the next call); false with *status set. */
static bool gpu_open(sw_gl_context** gl, sw_gpu_skinner** skinner, const char** renderer, const char* option,
                     tool_args* args, int* status) {
    static char renderer_name[256];
    sw_diag diag;
    if (sw_gl_context_create(NULL, gl, &diag) != SW_OK || sw_gpu_skinner_create(skinner, &diag) != SW_OK) {
        *status = tool_fail(args, "%s: %s", option, diag.message);
        return false;
    }
    sw_gl_context_info info;
    sw_gl_context_get_info(*gl, &info);
    snprintf(renderer_name, sizeof renderer_name, "%s", info.gl_renderer ? info.gl_renderer : "?");
    *renderer = renderer_name;
    return true;
}

static bool bench_gpu(const bench_crowd_options* opt, const sw_model* a, const sw_pose* poses, float* times,
                      size_t skinned, sw_crowd_pose_job* pose_job, gpu_result* out, tool_args* args, int* status) {
    sw_gl_context* gl = NULL;
    gpu_crowd g = {0};
    double* samples[3] = {NULL, NULL, NULL};
    sw_diag diag;
    bool ok = false;
    const size_t n = opt->characters;

    if (!gpu_open(&gl, &g.skinner, &out->renderer, "--gpu", args, status)) goto done;
    for (int s = 0; s < 3; s++) samples[s] = calloc((size_t)opt->reps, sizeof(double));
    if (!samples[0] || !samples[1] || !samples[2]) {
        *status = tool_fail(args, "out of memory");
        goto done;
    }
    if (!gpu_crowd_make(&g, a, poses, n, skinned, &diag) ||
        !gpu_crowd_time_skinning(&g, opt, n, times, pose_job, samples[0], samples[1], &diag) ||
        !gpu_crowd_time_drawing(&g, opt, a, poses, n, samples[2], &diag)) {
        *status = tool_fail(args, "--gpu: %s", diag.message);
        goto done;
    }
    out->upload = summarise(samples[0], opt->reps);
    out->dispatch = summarise(samples[1], opt->reps);
    out->draw = summarise(samples[2], opt->reps);
    out->run = true;
    ok = true;
done:
    gpu_crowd_free(&g);
    sw_gl_context_destroy(gl);
    for (int s = 0; s < 3; s++) free(samples[s]);
    return ok;
}

/* ---- --gpu-driven: the GPU-driven crowd against the CPU-posed one ---- */

typedef struct driven_result {
    bool run;
    const char* renderer;
    stats cpu_posed, gpu_driven;  /* microseconds per character: pose + skinning of every character */
    stats culled_frame, draw;     /* the grid's camera: update with culling and levels, then the multi-draw */
    stats cpu_poses, gpu_poses;   /* the poses alone: CPU poses + palette upload; the GPU's stages 1-3 */
    stats close_frame;            /* update for a close-up camera (a quarter of the field of view) */
    uint32_t visible[SW_GPU_CROWD_LODS], close_visible[SW_GPU_CROWD_LODS];
    size_t level_vertices[SW_GPU_CROWD_LODS]; /* per character, over the skinned primitives */
    double load_average;
} driven_result;

static double load_average(void) {
    double one = -1.0;
    FILE* f = fopen("/proc/loadavg", "r");
    if (f) {
        if (fscanf(f, "%lf", &one) != 1) one = -1.0;
        fclose(f);
    }
    return one;
}

/* The CPU-posed frame: poses on the pool, palettes uploaded (the poses
   alone end here when `skin` is false), one dispatch per primitive. */
static bool cpu_posed_frame(gpu_crowd* g, crowd_bench* b, thread_pool* pool, float* times, size_t n, bool skin,
                            sw_diag* diag) {
    for (size_t c = 0; c < n; c++) times[c] += CROWD_DT;
    pool_parallel(pool, (n + CROWD_POSE_CHUNK - 1) / CROWD_POSE_CHUNK, pose_item, b);
    for (size_t i = 0; i < g->palette_count; i++)
        if (g->palettes[i] && (sw_gpu_model_palette_pose(g->palettes[i], g->pointers, g->placements, n, diag) != SW_OK ||
                               sw_gpu_model_palette_upload(g->palettes[i], SW_SKIN_LBS, diag) != SW_OK))
            return false;
    if (!skin) {
        glFinish();
        return true;
    }
    const sw_gpu_skin_desc desc = {.method = SW_SKIN_LBS, .force = true};
    for (size_t i = 0; i < g->prim_count; i++)
        if (sw_gpu_model_primitive_skin(g->skinner, g->prims[i], &desc, NULL, diag) != SW_OK) return false;
    glFinish();
    return true;
}

/* A colour and depth target of the --gpu frame's size for the multi-draw. */
static void driven_target(GLuint objects[3]) {
    glGenFramebuffers(1, &objects[0]);
    glGenRenderbuffers(2, &objects[1]);
    glBindRenderbuffer(GL_RENDERBUFFER, objects[1]);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, CROWD_IMAGE_W, CROWD_IMAGE_H);
    glBindRenderbuffer(GL_RENDERBUFFER, objects[2]);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, CROWD_IMAGE_W, CROWD_IMAGE_H);
    glBindFramebuffer(GL_FRAMEBUFFER, objects[0]);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, objects[1]);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, objects[2]);
    glViewport(0, 0, CROWD_IMAGE_W, CROWD_IMAGE_H);
}

/* The grid's camera (the --gpu frame's) as a view-projection; zoom
   divides its field of view. */
static void driven_camera(const sw_model* a, const sw_pose* pose, size_t side, size_t n, float zoom, float vp[16],
                          float* projection_scale) {
    float lo[3] = {1e30f, 1e30f, 1e30f}, hi[3] = {-1e30f, -1e30f, -1e30f};
    for (size_t i = 0; i < a->node_count; i++)
        for (int k = 0; k < 3; k++) {
            lo[k] = fminf(lo[k], pose->world[i].m[k][3]);
            hi[k] = fmaxf(hi[k], pose->world[i].m[k][3]);
        }
    hi[0] += CROWD_SPACING * (float)(side - 1), hi[2] += CROWD_SPACING * (float)((n - 1) / side);
    sw_camera camera;
    sw_camera_frame_bounds(lo, hi, 25.0f, 30.0f, (float)CROWD_IMAGE_W / CROWD_IMAGE_H, &camera);
    camera.fov_y /= zoom;
    sw_camera_view_projection(&camera, (float)CROWD_IMAGE_W / CROWD_IMAGE_H, vp);
    *projection_scale = 1.0f / tanf(0.5f * camera.fov_y);
}

/* The two crowds in turns, every repetition: the CPU-posed frame, then
   the GPU-driven one (nothing culled: every character skinned at level 0),
   each ended by glFinish; then the GPU-driven frame for the grid's camera
   and its multi-draw. */
static bool driven_time(gpu_crowd* g, sw_gpu_crowd* crowd, crowd_bench* b, thread_pool* pool, float* times,
                        const bench_crowd_options* opt, const float vp[16], const sw_gpu_crowd_view* view,
                        const sw_gpu_crowd_view* close, driven_result* out, double* samples[7], sw_diag* diag) {
    const size_t n = opt->characters;
    for (int r = -CROWD_WARMUP_RUNS; r < opt->reps; r++) {
        const float t = CROWD_DT * (float)(r + CROWD_WARMUP_RUNS + 1);
        glFinish();
        double t0 = now_seconds();
        if (!cpu_posed_frame(g, b, pool, times, n, true, diag)) return false;
        double t1 = now_seconds();
        if (sw_gpu_crowd_update(crowd, t, NULL, diag) != SW_OK) return false;
        glFinish();
        double t2 = now_seconds();
        if (sw_gpu_crowd_update(crowd, t, view, diag) != SW_OK) return false;
        glFinish();
        double t3 = now_seconds();
        if (r == opt->reps - 1 && sw_gpu_crowd_read_commands(crowd, NULL, out->visible, diag) != SW_OK) return false;
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        if (sw_gpu_crowd_draw(crowd, vp, diag) != SW_OK) return false;
        glFinish();
        double t4 = now_seconds();
        if (!cpu_posed_frame(g, b, pool, times, n, false, diag)) return false;
        double t5 = now_seconds();
        if (sw_gpu_crowd_pose(crowd, t, diag) != SW_OK) return false;
        glFinish();
        double t6 = now_seconds();
        if (r < 0) continue;
        if (sw_gpu_crowd_update(crowd, t, close, diag) != SW_OK) return false;
        glFinish();
        double t7 = now_seconds();
        if (r == opt->reps - 1 && sw_gpu_crowd_read_commands(crowd, NULL, out->close_visible, diag) != SW_OK) return false;
        samples[6][r] = (t7 - t6) / (double)n * 1e6;
        samples[4][r] = (t5 - t4) / (double)n * 1e6;
        samples[5][r] = (t6 - t5) / (double)n * 1e6;
        samples[0][r] = (t1 - t0) / (double)n * 1e6;
        samples[1][r] = (t2 - t1) / (double)n * 1e6;
        samples[2][r] = (t3 - t2) / (double)n * 1e6;
        samples[3][r] = (t4 - t3) / (double)n * 1e6;
    }
    return true;
}

static bool bench_gpu_driven(const bench_crowd_options* opt, const sw_model* a, crowd_bench* b, const sw_pose* poses,
                             float* times, size_t skinned, thread_pool* pool, driven_result* out, tool_args* args,
                             int* status) {
    sw_gl_context* gl = NULL;
    gpu_crowd g = {0};
    sw_gpu_crowd* crowd = NULL;
    double* samples[7] = {NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    float* phases = NULL;
    uint32_t* clips = NULL;
    GLuint target[3] = {0, 0, 0};
    sw_diag diag;
    bool ok = false;
    const size_t n = opt->characters;
    if (!gpu_open(&gl, &g.skinner, &out->renderer, "--gpu-driven", args, status)) goto done;
    phases = malloc(n * sizeof *phases);
    clips = malloc(n * sizeof *clips);
    bool have = phases && clips;
    for (int s = 0; s < 7; s++) have = (samples[s] = calloc((size_t)opt->reps, sizeof(double))) && have;
    if (!have) {
        *status = tool_fail(args, "out of memory");
        goto done;
    }
    if (!gpu_crowd_make(&g, a, poses, n, skinned, &diag)) {
        *status = tool_fail(args, "--gpu-driven: %s", diag.message);
        goto done;
    }
    /* The same characters: clip i mod count, time phases[i] + t, on the same grid. */
    for (size_t i = 0; i < n; i++) {
        clips[i] = a->animation_count ? (uint32_t)(i % a->animation_count) : SW_GPU_CROWD_REST;
        phases[i] = times[i];
    }
    const sw_gpu_crowd_desc desc = {.model = a, .character_count = n, .clips = clips, .phases = phases,
                                    .placements = g.placements};
    float vp[16], close_vp[16], projection_scale = 1.0f, close_scale = 1.0f;
    driven_camera(a, &poses[0], g.side, n, 1.0f, vp, &projection_scale);
    driven_camera(a, &poses[0], g.side, n, 4.0f, close_vp, &close_scale);
    const sw_gpu_crowd_view view = sw_gpu_crowd_view_make(vp, projection_scale, 0.0f);
    const sw_gpu_crowd_view close = sw_gpu_crowd_view_make(close_vp, close_scale, 0.0f);
    driven_target(target);
    if (sw_gpu_crowd_create(g.skinner, &desc, &crowd, &diag) != SW_OK ||
        !driven_time(&g, crowd, b, pool, times, opt, vp, &view, &close, out, samples, &diag)) {
        *status = tool_fail(args, "--gpu-driven: %s", diag.message);
        goto done;
    }
    for (size_t level = 0; level < SW_GPU_CROWD_LODS; level++)
        for (size_t p = 0; p < sw_gpu_crowd_primitive_count(crowd); p++) {
            sw_gpu_instance_buffers buffers;
            sw_gpu_instance_get_buffers(sw_gpu_crowd_instance(crowd, level, p), &buffers);
            out->level_vertices[level] += buffers.vertex_count;
        }
    out->cpu_posed = summarise(samples[0], opt->reps);
    out->gpu_driven = summarise(samples[1], opt->reps);
    out->culled_frame = summarise(samples[2], opt->reps);
    out->draw = summarise(samples[3], opt->reps);
    out->cpu_poses = summarise(samples[4], opt->reps);
    out->gpu_poses = summarise(samples[5], opt->reps);
    out->close_frame = summarise(samples[6], opt->reps);
    out->load_average = load_average();
    out->run = ok = true;
done:
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &target[0]);
    glDeleteRenderbuffers(2, &target[1]);
    sw_gpu_crowd_destroy(crowd);
    gpu_crowd_free(&g);
    sw_gl_context_destroy(gl);
    for (int s = 0; s < 7; s++) free(samples[s]);
    free(phases), free(clips);
    return ok;
}

static void print_driven_text(const driven_result* d, size_t n) {
    if (!d->run) return;
    printf("  GPU-driven against CPU-posed (%s), in turns, every character posed and skinned\n", d->renderer);
    printf("  microseconds per character   min      median   max      characters/s (median)\n");
    printf("  %-26s %8.3f %8.3f %8.3f %10.0f\n", "CPU-posed (pose+upload+skin)", d->cpu_posed.min, d->cpu_posed.median,
           d->cpu_posed.max, 1e6 / d->cpu_posed.median);
    printf("  %-26s %8.3f %8.3f %8.3f %10.0f\n", "GPU-driven (all on the GPU)", d->gpu_driven.min, d->gpu_driven.median,
           d->gpu_driven.max, 1e6 / d->gpu_driven.median);
    printf("  GPU-driven / CPU-posed characters per second: %.3f (load average %.2f)\n",
           d->cpu_posed.median / d->gpu_driven.median, d->load_average);
    printf("  %-26s %8.3f %8.3f %8.3f %10.0f\n", "poses: CPU + upload", d->cpu_poses.min, d->cpu_poses.median,
           d->cpu_poses.max, 1e6 / d->cpu_poses.median);
    printf("  %-26s %8.3f %8.3f %8.3f %10.0f\n", "poses: GPU stages 1-3", d->gpu_poses.min, d->gpu_poses.median,
           d->gpu_poses.max, 1e6 / d->gpu_poses.median);
    printf("  poses alone, GPU / CPU characters per second: %.3f\n", d->cpu_poses.median / d->gpu_poses.median);
    printf("  levels: %zu vertices per character at 0, %zu at 1 (clustered, one influence)\n", d->level_vertices[0],
           d->level_vertices[1]);
    printf("  grid camera: %u at level 0, %u at level 1, %zu culled\n", d->visible[0], d->visible[1],
           n - d->visible[0] - d->visible[1]);
    printf("  %-26s %8.3f %8.3f %8.3f\n", "culled frame (update)", d->culled_frame.min, d->culled_frame.median,
           d->culled_frame.max);
    printf("  %-26s %8.3f %8.3f %8.3f\n", "multi-draw (640x360)", d->draw.min, d->draw.median, d->draw.max);
    printf("  close-up camera (a quarter of the field of view): %u at level 0, %u at level 1, %zu culled\n",
           d->close_visible[0], d->close_visible[1], n - d->close_visible[0] - d->close_visible[1]);
    printf("  %-26s %8.3f %8.3f %8.3f\n", "close-up frame (update)", d->close_frame.min, d->close_frame.median,
           d->close_frame.max);
}

static void print_driven_json(json_writer* w, const driven_result* d) {
    json_key(w, "gpu_driven");
    if (!d->run) {
        json_null(w);
        return;
    }
    json_begin_object(w);
    json_key(w, "renderer"), json_string(w, d->renderer);
    json_key(w, "microseconds_per_character");
    json_begin_object(w);
    json_stats(w, "cpu_posed", d->cpu_posed);
    json_stats(w, "gpu_driven", d->gpu_driven);
    json_stats(w, "culled_frame", d->culled_frame);
    json_stats(w, "draw", d->draw);
    json_stats(w, "cpu_poses", d->cpu_poses);
    json_stats(w, "gpu_poses", d->gpu_poses);
    json_stats(w, "close_frame", d->close_frame);
    json_end_object(w);
    json_key(w, "ratio"), json_double(w, d->cpu_posed.median / d->gpu_driven.median);
    json_key(w, "poses_ratio"), json_double(w, d->cpu_poses.median / d->gpu_poses.median);
    json_key(w, "level1_vertices"), json_int(w, (long long)d->level_vertices[1]);
    json_key(w, "level0"), json_int(w, d->visible[0]);
    json_key(w, "level1"), json_int(w, d->visible[1]);
    json_key(w, "close_level0"), json_int(w, d->close_visible[0]);
    json_key(w, "close_level1"), json_int(w, d->close_visible[1]);
    json_key(w, "load_average"), json_double(w, d->load_average);
    json_end_object(w);
}

/* ---- the CPU crowd ---- */

/* Everything bench_crowd holds, freed by crowd_run_free. */
typedef struct crowd_run {
    crowd_bench b;
    sw_pose* poses;
    void* pose_memory;
    const sw_clip** clips;
    float* times;
    const sw_mat34** palettes;
    const sw_dualquat** dual_quats;
    const sw_mat34** stretches;
    float** outputs;
    size_t skinned, vertices;       /* skinned primitives, their vertices per character */
    double* per_char[3];            /* pose, skinning, both: microseconds per character per repetition */
    stats st[3];
    char checksum[17];
} crowd_run;

static void crowd_run_free(crowd_run* c) {
    for (size_t j = 0; c->outputs && j < c->skinned; j++) free(c->outputs[j]);
    free(c->outputs), free(c->b.skins), free(c->b.first_item);
    free(c->poses), free(c->pose_memory), free(c->clips), free(c->times);
    free(c->palettes), free(c->dual_quats), free(c->stretches);
    for (int s = 0; s < 3; s++) free(c->per_char[s]);
}

/* The skinned primitives and their vertices (per character). */
static void count_skinned(const sw_model* a, size_t* out_primitives, size_t* out_vertices) {
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
    *out_primitives = skinned, *out_vertices = vertices;
}

static bool crowd_alloc(crowd_run* c, const bench_crowd_options* opt, size_t stride) {
    const size_t n = opt->characters, skinned = c->skinned;
    c->poses = calloc(n, sizeof *c->poses);
    c->pose_memory = aligned_alloc(16, stride * n);
    c->clips = calloc(n, sizeof *c->clips);
    c->times = calloc(n, sizeof *c->times);
    c->palettes = calloc(skinned * n, sizeof *c->palettes);
    c->dual_quats = calloc(skinned * n, sizeof *c->dual_quats);
    c->stretches = calloc(skinned * n, sizeof *c->stretches);
    c->outputs = calloc(skinned, sizeof *c->outputs);
    c->b.skins = calloc(skinned, sizeof *c->b.skins);
    c->b.first_item = calloc(skinned + 1, sizeof *c->b.first_item);
    bool ok = c->poses && c->pose_memory && c->clips && c->times && c->palettes && c->dual_quats && c->stretches &&
              c->outputs && c->b.skins && c->b.first_item;
    for (int s = 0; s < 3; s++) ok = (c->per_char[s] = calloc((size_t)opt->reps, sizeof(double))) && ok;
    return ok;
}

/* Each character its own clip (round robin) and its own phase; the pose job, validated and run once. */
static bool crowd_poses(crowd_run* c, const bench_crowd_options* opt, const sw_model* a, sw_diag* diag) {
    const size_t n = opt->characters;
    const sw_pose_sizes sizes = sw_pose_sizes_of(a);
    const size_t stride = sw_pose_memory_size(&sizes);
    for (size_t i = 0; i < n; i++) {
        sw_pose_bind(&c->poses[i], &sizes, (uint8_t*)c->pose_memory + i * stride);
        if (!opt->dqs) c->poses[i].skin_dual_quats = NULL; /* LBS needs the matrices only */
        c->clips[i] = a->animation_count ? &a->animations[i % a->animation_count] : NULL;
        double length = c->clips[i] && c->clips[i]->duration > 0 ? c->clips[i]->duration : 1.0;
        c->times[i] = (float)fmod(0.37 * (double)i, length);
    }
    c->b.poses = (sw_crowd_pose_job){.model = a, .instance_count = n, .poses = c->poses, .clips = c->clips,
                                     .times = c->times, .looping = true};
    if (sw_crowd_pose_validate(&c->b.poses, diag) != SW_OK) return false;
    sw_crowd_pose_run(&c->b.poses, 0, n);
    return true;
}

/* One crowd skinning job per skinned primitive: positions and normals.
   False with diag set (out of memory, or a job that does not validate). */
static bool crowd_skins(crowd_run* c, const bench_crowd_options* opt, const sw_model* a, sw_diag* diag) {
    const size_t n = opt->characters;
    crowd_bench* b = &c->b;
    for (size_t nd = 0; nd < a->node_count; nd++) {
        const sw_model_node* node = &a->nodes[nd];
        if (node->mesh < 0 || node->skin < 0) continue;
        const sw_model_skin* skin = &a->skins[node->skin];
        for (size_t p = 0; p < a->meshes[node->mesh].primitive_count; p++) {
            const sw_model_primitive* prim = &a->meshes[node->mesh].primitives[p];
            if (prim->influence_count == 0) continue;
            size_t j = b->skin_count;
            size_t floats = prim->vertex_count * (prim->normals ? 6 : 3);
            if (!(c->outputs[j] = malloc(floats * n * sizeof(float)))) {
                sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for %zu characters' vertices", n);
                return false;
            }
            for (size_t i = 0; i < n; i++) {
                c->palettes[j * n + i] = c->poses[i].skin_matrices + skin->palette_offset;
                if (opt->dqs) {
                    c->dual_quats[j * n + i] = c->poses[i].skin_dual_quats + skin->palette_offset;
                    /* Stretch only for skins that scale (at the first pose). */
                    c->stretches[j * n + i] =
                        c->poses[i].skin_scaled[node->skin] ? c->poses[i].skin_stretch + skin->palette_offset : NULL;
                }
            }
            b->skins[j] = (sw_crowd_skin_job){
                .skin = {.method = opt->dqs ? SW_SKIN_DQS : SW_SKIN_LBS, .vertex_count = prim->vertex_count,
                         .influence_count = prim->influence_count, .joint_count = skin->joint_count,
                         .joints = prim->joints, .weights = prim->weights, .in_positions = prim->positions,
                         .out_positions = c->outputs[j], .in_normals = prim->normals,
                         .out_normals = prim->normals ? c->outputs[j] + prim->vertex_count * 3 * n : NULL},
                .instance_count = n, .matrices = c->palettes + j * n,
                .dual_quats = opt->dqs ? c->dual_quats + j * n : NULL, .stretch = opt->dqs ? c->stretches + j * n : NULL,
            };
            if (sw_crowd_skin_validate(&b->skins[j], diag) != SW_OK) return false;
            b->first_item[j + 1] = b->first_item[j] + sw_crowd_skin_item_count(&b->skins[j]);
            b->skin_count++;
        }
    }
    return true;
}

/* The repetitions on the pool, then every character's skinned vertices
   after the last one as a checksum (the same whatever --threads). */
static void crowd_time(crowd_run* c, const bench_crowd_options* opt, thread_pool* pool) {
    const size_t n = opt->characters;
    const size_t pose_items = (n + CROWD_POSE_CHUNK - 1) / CROWD_POSE_CHUNK;
    for (int r = -CROWD_WARMUP_RUNS; r < opt->reps; r++) {
        for (size_t i = 0; i < n; i++) c->times[i] += CROWD_DT;
        double t0 = now_seconds();
        pool_parallel(pool, pose_items, pose_item, &c->b);
        double t1 = now_seconds();
        pool_parallel(pool, c->b.first_item[c->b.skin_count], skin_item, &c->b);
        double t2 = now_seconds();
        if (r < 0) continue;
        c->per_char[0][r] = (t1 - t0) / (double)n * 1e6;
        c->per_char[1][r] = (t2 - t1) / (double)n * 1e6;
        c->per_char[2][r] = (t2 - t0) / (double)n * 1e6;
    }
    uint64_t checksum = 0xcbf29ce484222325ull;
    for (size_t j = 0; j < c->b.skin_count; j++) {
        const sw_skin_job* s = &c->b.skins[j].skin;
        checksum = fnv1a(checksum, s->out_positions, s->vertex_count * 3 * n * sizeof(float));
        if (s->out_normals) checksum = fnv1a(checksum, s->out_normals, s->vertex_count * 3 * n * sizeof(float));
    }
    snprintf(c->checksum, sizeof c->checksum, "%016llx", (unsigned long long)checksum);
    for (int s = 0; s < 3; s++) c->st[s] = summarise(c->per_char[s], opt->reps);
}

static bool print_crowd_json(const crowd_run* c, const bench_crowd_options* opt, const sw_model* a,
                             const gpu_result* gpu, const driven_result* driven) {
    json_writer w;
    json_writer_init(&w, json_file_sink, stdout);
    json_begin_object(&w);
    json_key(&w, "bench"), json_string(&w, "crowd");
    json_key(&w, "model"), json_string(&w, opt->model);
    json_key(&w, "characters"), json_int(&w, (long long)opt->characters);
    json_key(&w, "animations"), json_int(&w, (long long)a->animation_count);
    json_key(&w, "skinned_primitives"), json_int(&w, (long long)c->skinned);
    json_key(&w, "vertices_per_character"), json_int(&w, (long long)c->vertices);
    json_key(&w, "method"), json_string(&w, opt->dqs ? "dqs" : "lbs");
    json_key(&w, "kernel"), json_string(&w, sw_skin_kernel_name(sw_skin_kernel_best()));
    json_key(&w, "threads"), json_int(&w, opt->threads);
    json_key(&w, "reps"), json_int(&w, opt->reps);
    json_key(&w, "microseconds_per_character");
    json_begin_object(&w);
    json_stats(&w, "pose", c->st[0]);
    json_stats(&w, "skinning", c->st[1]);
    json_stats(&w, "pose_and_skinning", c->st[2]);
    json_end_object(&w);
    json_key(&w, "checksum"), json_string(&w, c->checksum);
    json_key(&w, "gpu");
    if (gpu->run) {
        json_begin_object(&w);
        json_key(&w, "renderer"), json_string(&w, gpu->renderer);
        json_key(&w, "microseconds_per_character");
        json_begin_object(&w);
        json_stats(&w, "palette_upload", gpu->upload);
        json_stats(&w, "dispatch", gpu->dispatch);
        json_stats(&w, "draw", gpu->draw);
        json_end_object(&w);
        json_end_object(&w);
    } else {
        json_null(&w);
    }
    print_driven_json(&w, driven);
    json_end_object(&w);
    json_newline(&w);
    return json_writer_finish(&w);
}

static void print_crowd_text(const crowd_run* c, const bench_crowd_options* opt, const sw_model* a,
                             const gpu_result* gpu) {
    printf("sinew bench crowd: %s\n", opt->model);
    printf("  %zu characters, each its own clip (of %zu) and time; %zu skinned primitives, %zu vertices each;\n"
           "  %s, %s kernel, positions + normals, %d thread%s, %d repetitions\n",
           opt->characters, a->animation_count, c->skinned, c->vertices, opt->dqs ? "DQS" : "LBS",
           sw_skin_kernel_name(sw_skin_kernel_best()), opt->threads, opt->threads == 1 ? "" : "s", opt->reps);
    printf("  microseconds per character   min      median   max\n");
    static const char* const labels[3] = {"pose (sample, world, skin)", "skinning", "pose + skinning (wall)"};
    for (int s = 0; s < 3; s++) printf("  %-26s %8.3f %8.3f %8.3f\n", labels[s], c->st[s].min, c->st[s].median, c->st[s].max);
    printf("  checksum of every skinned vertex %s (the same for any --threads)\n", c->checksum);
    if (!gpu->run) return;
    printf("  GPU (%s), microseconds per character\n", gpu->renderer);
    printf("  %-26s %8.3f %8.3f %8.3f\n", "palette upload", gpu->upload.min, gpu->upload.median, gpu->upload.max);
    printf("  %-26s %8.3f %8.3f %8.3f\n", "dispatch (one per primitive)", gpu->dispatch.min, gpu->dispatch.median,
           gpu->dispatch.max);
    printf("  %-26s %8.3f %8.3f %8.3f\n", "draw (instanced frame)", gpu->draw.min, gpu->draw.median, gpu->draw.max);
}

int bench_crowd(const bench_crowd_options* opt, tool_args* args) {
    sw_model* a = NULL;
    sw_diag diag;
    tool_error err;
    int status = TOOL_EXIT_OK;
    thread_pool* pool = NULL;
    crowd_run c = {0};
    gpu_result gpu = {0};
    driven_result driven = {0};

    if (tool_load_model(opt->model, NULL, &a, &diag) != SW_OK) return tool_fail(args, "%s", diag.message);
    count_skinned(a, &c.skinned, &c.vertices);
    if (!c.skinned) {
        status = tool_fail(args, "%s has no skinned mesh to skin", opt->model);
        goto done;
    }
    const sw_pose_sizes sizes = sw_pose_sizes_of(a);
    if (!crowd_alloc(&c, opt, sw_pose_memory_size(&sizes))) {
        status = tool_fail(args, "out of memory for %zu characters", opt->characters);
        goto done;
    }
    if (!crowd_poses(&c, opt, a, &diag) || !crowd_skins(&c, opt, a, &diag)) {
        status = diag.result == SW_ERR_OUT_OF_MEMORY ? tool_fail(args, "%s", diag.message)
                                                      : tool_fail(args, "%s: %s", opt->model, diag.message);
        goto done;
    }
    if (!(pool = thread_pool_create(opt->threads, &err))) {
        status = tool_fail(args, "%s", err.message);
        goto done;
    }
    crowd_time(&c, opt, pool);
    if (opt->gpu && !bench_gpu(opt, a, c.poses, c.times, c.skinned, &c.b.poses, &gpu, args, &status)) goto done;
    if (opt->gpu_driven &&
        !bench_gpu_driven(opt, a, &c.b, c.poses, c.times, c.skinned, pool, &driven, args, &status))
        goto done;
    if (opt->json) {
        if (!print_crowd_json(&c, opt, a, &gpu, &driven)) status = tool_fail(args, "cannot write to standard output");
    } else {
        print_crowd_text(&c, opt, a, &gpu);
        print_driven_text(&driven, opt->characters);
    }

done:
    thread_pool_destroy(pool);
    crowd_run_free(&c);
    sw_model_free(a);
    return status;
}
