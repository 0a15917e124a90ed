/* sinew bench — throughput of the CPU skinning kernels (against a memcpy of
   the same bytes, measured in the same run) and of pose evaluation (µs per
   character). Numbers are min / median / max over repetitions after a
   warm-up; nothing here asserts a time. */
#define _POSIX_C_SOURCE 200809L
#include "bench_compress.h"
#include "bench_fbik.h"
#include "bench_crowd.h"
#include "bench_gpu.h"
#include "anim_file.h"
#include "bench_stats.h"
#include "json_writer.h"
#include "thread_pool.h"
#include "tool_common.h"
#include "text_escape.h"

#include "sinew/gltf.h"
#include "sinew/ik.h"
#include "sinew/playback.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define WARMUP_RUNS 3
#define DEFAULT_REPS 25
#define MIN_REPS 20
#define MAX_REPS 100000
#define SKIN_CHUNK 16384     /* vertices per task: big enough to amortise a task, small enough to balance */
#define ANIM_CHUNK 16        /* characters per task */
#define TARGET_VERTICES 1000000

const char cmd_bench_help[] =
    "usage: sinew bench skin MODEL [--copies K] [--threads N] [--dqs] [--normals]\n"
    "                              [--tangents] [--kernel K] [--scalar]\n"
    "                              [--compact] [--quantized [--packed-normals]]\n"
    "                              [--no-normalize] [--versus SETTING]\n"
    "                              [--gpu|--gpu-vs] [--reps R] [--json]\n"
    "       sinew bench anim MODEL [--characters N] [--threads N] [--anim A]\n"
    "                              [--blend A,B] [--reps R] [--json]\n"
    "                              [--anim-file FILE [--bone-map MAP.json] [--retarget]]\n"
    "       sinew bench crowd MODEL [--characters N] [--threads N] [--dqs] [--gpu]\n"
    "                               [--gpu-driven] [--reps R] [--json]\n"
    "\n"
    "bench skin: skins every skinned mesh of MODEL, replicated K times into\n"
    "separate inputs and outputs (default: enough copies for about 1M\n"
    "vertices), with the skin matrices of the first animation at half its\n"
    "length. Prints vertices per second, the bytes the kernel reads and writes\n"
    "per second, and the ratio to a memcpy moving the same number of bytes\n"
    "(read + write) on the same threads, measured in the same run: min /\n"
    "median / max over R repetitions (default 25, at least 20) after 3\n"
    "warm-up runs. Positions always; --normals and --tangents add those\n"
    "streams (a model without tangents gets a synthetic unit tangent per\n"
    "vertex). --dqs skins with dual quaternions. --kernel picks the kernel\n"
    "(auto|scalar|sse2|avx2|sse2-columns|avx2-columns|avx2-rows; default: the best this\n"
    "CPU runs; --scalar is --kernel scalar).\n"
    "--compact skins the compact layout (sw_skin_compact_build: vertices\n"
    "grouped by influence count, 8-bit joints up to 256 joints, 16-bit\n"
    "weights with the last implied); --quantized the quantised compact layout\n"
    "(16-bit positions over the mesh's box, the dequantisation folded into\n"
    "the palette; octahedral 16-bit normals; 8-bit joints and weights), with\n"
    "--packed-normals writing normals as INT_2_10_10_10_REV words (else\n"
    "floats); --no-normalize leaves normals and\n"
    "tangents unnormalised. The bytes per vertex printed are those of the\n"
    "layout skinned.\n"
    "--versus SETTING times the same jobs with one setting changed in the same\n"
    "run, alternating every repetition (A B, then B A), and reports the\n"
    "other setting's vertices/s and the ratio B / A per pair of repetitions:\n"
    "the way to see a difference of a few per cent on a noisy machine.\n"
    "SETTING is kernel=auto|scalar|sse2|avx2|sse2-columns|avx2-columns|avx2-rows\n"
    "(columns: the second kernel shape, sinew/skin.h), no-normalize, normalize or\n"
    "positions (the same jobs without their normal and tangent streams).\n"
    "\n"
    "bench anim: N characters (default 1000) each play animation A (default\n"
    "0) from a different time, advancing 1/60 s per repetition: sampling\n"
    "(rest pose + keyframes, cursors per character), local->model (world\n"
    "matrices) and skin matrices, in microseconds per character per stage\n"
    "(thread time) and per character of wall time. In the same run, a second\n"
    "scenario: each character blends animations A and B (--blend A,B; default\n"
    "the first two, none when the model has one) synchronised by phase, with\n"
    "its own phase and weights, then solves two-bone IK on both legs\n"
    "(LeftUpLeg/LeftLeg/LeftFoot and Right..., skipped when the model lacks\n"
    "them) towards targets above the feet: sample + blend, IK, local->model\n"
    "and skin matrices. Ends with a checksum of every character's skin\n"
    "matrices, which does not depend on --threads. --anim-file FILE adds\n"
    "FILE's clips to the model's first (see sinew render --help), so A and B\n"
    "can name them. Last, full-body IK (sinew/fbik.h) when the model has a\n"
    "humanoid (names and hierarchy): R solves on one thread, each from\n"
    "animation A's pose at its time, with the head, both hands (circling),\n"
    "both feet (planted where the rest pose stands) and the hips as effectors:\n"
    "microseconds per solve, the worst residual, solves within 1 mm, and\n"
    "limit violations measured on every limited joint. Last, animation A\n"
    "compressed (sinew compress at 30 Hz, its default tolerance): one pose\n"
    "(rest pose, then the clip) decompressed against one sampled from the raw\n"
    "clip with cursors, for 64 characters at their own times, in turns (raw\n"
    "then compressed, then the other way round): nanoseconds per pose and\n"
    "the ratio per pair of turns.\n"
    "\n"
    "bench crowd: N characters (default 1000) of MODEL, character i playing\n"
    "animation i mod (the model's count) from its own time, advancing 1/60 s\n"
    "per repetition: the poses (sample, local->model, skin matrices; items of\n"
    "16 characters) and then the skinning of positions and normals (items of\n"
    "one character's 4096 vertices) as crowd jobs, in microseconds per\n"
    "character of wall time, with a checksum of every skinned vertex that\n"
    "does not depend on --threads. --gpu adds, per character: the palette\n"
    "upload, one compute dispatch per primitive for all characters, and a\n"
    "frame of the renderer (640x360, the characters on a grid, instanced\n"
    "draws; the pose unchanged, so the skin cache answers and the passes are\n"
    "timed). --gpu-driven compares, in turns in one run on the same GPU,\n"
    "characters per second of the CPU-posed crowd (poses on --threads, palette\n"
    "upload, one dispatch per primitive) and of the GPU-driven one (sampling,\n"
    "local->model, skin matrices and skinning in compute, sinew/gpu_crowd.h),\n"
    "every character skinned in both; then the GPU-driven frame with culling,\n"
    "levels of detail and the multi-draw for the grid's camera.\n"
    "\n"
    "common options:\n"
    "  --threads N   threads in all (default 1); work is split into tasks of\n"
    "                16384 vertices or 16 characters, so results do not depend on N\n"
    "  --reps R      timed repetitions\n"
    "  --gpu         skin on the GPU (OpenGL 4.3 compute through EGL): dispatch\n"
    "                time per pass against a GPU buffer copy of the same bytes;\n"
    "                upload and readback are timed apart (--gpu-vs: the\n"
    "                vertex-shader path with transform feedback)\n"
    "  --json        one JSON object on stdout instead of text\n"
    "  -h, --help    show this help\n";

typedef struct bench_options {
    const char* mode;
    const char* model;
    long copies, threads, reps, characters;
    bool dqs, normals, tangents, json;
    bool compact, no_normalize; /* bench skin: the compact layout; unnormalised normals and tangents */
    bool quantized, packed_normals; /* bench skin: the quantised compact layout; INT_2_10_10_10 normals */
    const char* versus;         /* bench skin --versus: the setting timed against the jobs as given */
    int gpu;               /* 0 = CPU, 1 = GPU compute, 2 = GPU vertex shader */
    bool gpu_driven;       /* bench crowd --gpu-driven */
    const char* kernel;
    const char* anim;
    const char* blend;     /* bench anim --blend A,B */
    anim_file_options file; /* bench anim --anim-file, --bone-map, --retarget */
} bench_options;

/* Loads the model and poses it: the first clip at half its length. */
static bool load_posed(const bench_options* opt, tool_args* args, sw_model** out_asset, sw_pose* out_pose,
                       void** out_pose_memory, int* status) {
    sw_diag diag;
    if (tool_load_model(opt->model, NULL, out_asset, &diag) != SW_OK) {
        *status = tool_fail(args, "%s", diag.message);
        return false;
    }
    sw_model* a = *out_asset;
    if (!(*out_pose_memory = tool_pose_alloc(a, out_pose))) {
        *status = tool_fail(args, "out of memory");
        return false;
    }
    const sw_clip* clip = a->animation_count ? &a->animations[0] : NULL;
    if (sw_pose_evaluate(a, clip, clip ? 0.5f * clip->duration : 0.0f, false, out_pose, &diag) != SW_OK) {
        *status = tool_fail(args, "%s: %s", opt->model, diag.message);
        return false;
    }
    return true;
}

/* ---- bench skin ------------------------------------------------------------ */

typedef struct skin_task {
    size_t job, first, count;
} skin_task;

/* bench skin --versus: the setting B changes. */
typedef struct skin_variant {
    sw_skin_kernel kernel;
    bool unnormalized;
    bool positions_only; /* the jobs without their normal and tangent streams */
} skin_variant;

typedef struct skin_bench {
    sw_skin_job* jobs;
    sw_skin_job* given;     /* the jobs as built: setting A */
    skin_variant variant[2]; /* A, and B (--versus) */
    int current;            /* which of them `jobs` holds */
    size_t job_count;
    skin_task* tasks;
    size_t task_count;
    /* memcpy reference: the same bytes, in the same number of tasks */
    unsigned char *copy_src, *copy_dst;
    size_t copy_bytes;
} skin_bench;

static void run_skin_task(void* context, size_t index, int thread) {
    (void)thread;
    const skin_bench* b = context;
    const skin_task* t = &b->tasks[index];
    sw_skin_job_run(&b->jobs[t->job], t->first, t->count);
}

static void run_copy_task(void* context, size_t index, int thread) {
    (void)thread;
    const skin_bench* b = context;
    size_t chunk = (b->copy_bytes + b->task_count - 1) / b->task_count;
    size_t first = index * chunk;
    if (first >= b->copy_bytes) return;
    size_t count = b->copy_bytes - first < chunk ? b->copy_bytes - first : chunk;
    memcpy(b->copy_dst + first, b->copy_src + first, count);
}

static bool parse_kernel(const char* name, sw_skin_kernel* out) {
    static const struct {
        const char* name;
        sw_skin_kernel kernel;
    } kernels[] = {{"auto", SW_SKIN_KERNEL_DEFAULT},
                   {"scalar", SW_SKIN_KERNEL_SCALAR},
                   {"sse2", SW_SKIN_KERNEL_SSE2},
                   {"avx2", SW_SKIN_KERNEL_AVX2},
                   {"sse2-columns", SW_SKIN_KERNEL_SSE2_COLUMNS},
                   {"avx2-columns", SW_SKIN_KERNEL_AVX2_COLUMNS},
                   {"avx2-rows", SW_SKIN_KERNEL_AVX2_ROWS}};
    for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; ++i)
        if (strcmp(name, kernels[i].name) == 0) {
            *out = kernels[i].kernel;
            return true;
        }
    return false;
}

/* "kernel=K", "no-normalize", "normalize" or "positions", applied to `base`. */
static bool parse_versus(const char* setting, skin_variant base, skin_variant* out) {
    *out = base;
    if (strncmp(setting, "kernel=", 7) == 0) return parse_kernel(setting + 7, &out->kernel);
    if (strcmp(setting, "no-normalize") == 0) return out->unnormalized = true, true;
    if (strcmp(setting, "normalize") == 0) return out->unnormalized = false, true;
    if (strcmp(setting, "positions") == 0) return out->positions_only = true, true;
    return false;
}

static sw_skin_job variant_job(const sw_skin_job* given, skin_variant v) {
    sw_skin_job job = *given;
    job.kernel = v.kernel;
    job.unnormalized = v.unnormalized;
    if (v.positions_only) {
        job.in_normals = job.in_tangents = NULL;
        job.out_normals = job.out_tangents = NULL;
        job.in_normals_stride = job.out_normals_stride = job.in_tangents_stride = job.out_tangents_stride = 0;
    }
    return job;
}

/* One pass over every task with setting `which` (0: A, 1: B); seconds. */
static double run_skin_pass(thread_pool* pool, skin_bench* b, int which) {
    if (which != b->current) {
        for (size_t i = 0; i < b->job_count; ++i) b->jobs[i] = variant_job(&b->given[i], b->variant[which]);
        b->current = which;
    }
    double t0 = now_seconds();
    thread_pool_run(pool, b->task_count, run_skin_task, b);
    return now_seconds() - t0;
}

/* The output streams (positions, normals, tangents) of the jobs as built,
   in job order: with `difference` NULL, copied to `saved` (NULL: only
   counted); else compared with `saved` where the jobs as they are now
   write them, the largest |job − saved| per stream going to difference
   (−1 where they write no such stream). Returns the floats. */
static size_t walk_outputs(const skin_bench* b, float* saved, double difference[3]) {
    static const size_t widths[3] = {3, 3, 4};
    size_t n = 0;
    if (difference) difference[0] = difference[1] = difference[2] = -1.0;
    for (size_t i = 0; i < b->job_count; ++i) {
        const sw_skin_job* job = &b->given[i];
        const float* streams[3] = {job->out_positions, job->out_normals, job->out_tangents};
        const bool written[3] = {true, b->jobs[i].out_normals != NULL, b->jobs[i].out_tangents != NULL};
        for (int k = 0; k < 3; ++k) {
            if (!streams[k]) continue;
            const size_t count = job->vertex_count * widths[k];
            if (!difference) {
                if (saved) memcpy(saved + n, streams[k], count * sizeof(float));
                n += count;
                continue;
            }
            if (!written[k]) {
                n += count;
                continue;
            }
            if (difference[k] < 0.0) difference[k] = 0.0;
            for (size_t e = 0; e < count; ++e, ++n) {
                double d = fabs((double)streams[k][e] - (double)saved[n]);
                if (isnan(d)) d = INFINITY; /* a NaN on either side: no bound */
                if (d > difference[k]) difference[k] = d;
            }
        }
    }
    return n;
}

/* One allocation per copy and stream, so copies never share cache lines. */
static void* copy_of(const void* src, size_t bytes) {
    void* p = aligned_alloc(64, (bytes + 63) / 64 * 64);
    if (p && src) memcpy(p, src, bytes);
    return p;
}

/* Per skin, at the pose: its palette, dual quaternions and stretches, one
   copy_of block each (joint count + 1 entries). */
typedef struct skin_palettes {
    size_t count;
    sw_mat34** matrices;
    sw_dualquat** dual_quats;
    sw_mat34** stretches;
    bool scaled; /* some joint scales: the jobs take the stretches */
} skin_palettes;

static void free_palettes(skin_palettes* p) {
    for (size_t s = 0; p->matrices && s < p->count; ++s)
        free(p->matrices[s]), free(p->dual_quats[s]), free(p->stretches[s]);
    free(p->matrices), free(p->dual_quats), free(p->stretches);
    *p = (skin_palettes){0};
}

/* Every skin's palette at `pose`, with its dual quaternions; false when
   memory ran out (free_palettes releases what was made). */
static bool make_palettes(const sw_model* a, const sw_pose* pose, skin_palettes* out) {
    out->count = a->skin_count;
    out->matrices = calloc(a->skin_count + 1, sizeof *out->matrices);
    out->dual_quats = calloc(a->skin_count + 1, sizeof *out->dual_quats);
    out->stretches = calloc(a->skin_count + 1, sizeof *out->stretches);
    if (!out->matrices || !out->dual_quats || !out->stretches) return false;
    for (size_t s = 0; s < a->skin_count; ++s) {
        size_t joints = a->skins[s].joint_count;
        out->matrices[s] = copy_of(NULL, (joints + 1) * sizeof(sw_mat34));
        out->dual_quats[s] = copy_of(NULL, (joints + 1) * sizeof(sw_dualquat));
        out->stretches[s] = copy_of(NULL, (joints + 1) * sizeof(sw_mat34));
        if (!out->matrices[s] || !out->dual_quats[s] || !out->stretches[s]) return false;
        memcpy(out->matrices[s], pose->skin_matrices + a->skins[s].palette_offset, joints * sizeof(sw_mat34));
        if (sw_skin_dual_quats(out->dual_quats[s], out->stretches[s], out->matrices[s], joints) > 0) out->scaled = true;
    }
    return true;
}

/* The primitives that skin (a node with a skin drawing a primitive with
   influences), in node order, with the vertices of one copy of them; NULL
   when memory ran out. */
static bench_skinned* list_skinned(const sw_model* a, size_t* out_count, size_t* out_vertices) {
    size_t primitives = 0;
    *out_count = *out_vertices = 0;
    for (size_t n = 0; n < a->node_count; ++n)
        if (a->nodes[n].mesh >= 0) primitives += a->meshes[a->nodes[n].mesh].primitive_count;
    bench_skinned* skinned = calloc(primitives + 1, sizeof *skinned);
    if (!skinned) return NULL;
    for (size_t n = 0; n < a->node_count; ++n) {
        const sw_model_node* node = &a->nodes[n];
        if (node->mesh < 0 || node->skin < 0) continue;
        for (size_t p = 0; p < a->meshes[node->mesh].primitive_count; ++p) {
            const sw_model_primitive* prim = &a->meshes[node->mesh].primitives[p];
            if (prim->influence_count == 0) continue;
            skinned[(*out_count)++] = (bench_skinned){prim, (size_t)node->skin};
            *out_vertices += prim->vertex_count;
        }
    }
    return skinned;
}

/* The blocks the jobs read and write, remembered to be freed together. */
typedef struct stream_list {
    void** blocks;
    size_t count;
} stream_list;

/* A block for one stream: a copy of `src` (or zeros); NULL when memory
   ran out. */
static void* add_stream(stream_list* list, const void* src, size_t size) {
    void* block = copy_of(src, size);
    if (block) list->blocks[list->count++] = block;
    return block;
}

static void free_streams(stream_list* list) {
    for (size_t i = 0; list->blocks && i < list->count; ++i) free(list->blocks[i]);
    free(list->blocks);
    *list = (stream_list){0};
}

/* What bench skin builds its jobs from. */
typedef struct skin_source {
    const bench_options* opt;
    const sw_model* model;
    const skin_palettes* palettes;
    sw_skin_kernel kernel;  /* setting A's */
    skin_variant variant_b; /* --versus: validated too */
    size_t copies;
} skin_source;

/* What one pass skins. */
typedef struct skin_pass {
    size_t bytes, vertices;  /* read + written; all copies */
    bool synthetic_tangents; /* --tangents on a model without them */
} skin_pass;

/* The job of one copy of primitive `s` (with --compact, one job per
   influence count), its streams copied, added at b->jobs[*job_index]
   onwards and validated; false with *status set on failure. */
static bool add_primitive_jobs(const skin_source* src, const bench_skinned* s, stream_list* streams, skin_bench* b,
                               size_t* job_index, skin_pass* pass, tool_args* args, int* status) {
    const bench_options* opt = src->opt;
    const sw_model_primitive* prim = s->prim;
    const size_t skin = s->skin;
    const size_t v = prim->vertex_count, k = (size_t)prim->influence_count;
    sw_skin_job* job = &b->jobs[(*job_index)++];
    *job = (sw_skin_job){
        .unnormalized = opt->no_normalize,
        .method = opt->dqs ? SW_SKIN_DQS : SW_SKIN_LBS,
        .kernel = src->kernel,
        .vertex_count = v,
        .influence_count = prim->influence_count,
        .joint_count = src->model->skins[skin].joint_count,
        .matrices = src->palettes->matrices[skin],
        .dual_quats = src->palettes->dual_quats[skin],
        .stretch = src->palettes->scaled ? src->palettes->stretches[skin] : NULL,
        .joint_format = SW_JOINT_U16,
        .weight_format = SW_WEIGHT_F32,
    };
    sw_diag diag;
    void* ptr;
/* One stream of the job: a copy of `from` (or zeros), in job->field and in `ptr`. */
#define STREAM(field, from, size)                                                  \
    do {                                                                           \
        if (!(ptr = add_stream(streams, (from), (size)))) {                        \
            *status = tool_fail(args, "out of memory for %zu copies", src->copies); \
            return false;                                                          \
        }                                                                          \
        job->field = ptr;                                                          \
    } while (0)
    STREAM(joints, prim->joints, v * k * sizeof(uint16_t));
    STREAM(weights, prim->weights, v * k * sizeof(float));
    STREAM(in_positions, prim->positions, v * 12);
    STREAM(out_positions, NULL, v * 12);
    size_t bytes = v * (k * (sizeof(uint16_t) + sizeof(float)) + 12 + 12);
    if (opt->normals && prim->normals) {
        STREAM(in_normals, prim->normals, v * 12);
        STREAM(out_normals, NULL, v * 12);
        bytes += v * 24;
    }
    if (opt->tangents) {
        STREAM(in_tangents, prim->tangents, v * 16);
        if (!prim->tangents) {
            /* Any unit vector will do for timing: +X with w = 1. */
            float* t = ptr;
            for (size_t e = 0; e < v; ++e) t[4 * e] = 1, t[4 * e + 1] = 0, t[4 * e + 2] = 0, t[4 * e + 3] = 1;
            pass->synthetic_tangents = true;
        }
        STREAM(out_tangents, NULL, v * 16);
        bytes += v * 32;
    }
    if (opt->compact) {
        /* The same streams, as the compact layout: one job per influence
           count, outputs in the grouped order. */
        const sw_skin_compact_desc desc = {.vertex_count = v,
                                           .influence_count = prim->influence_count,
                                           .joint_count = job->joint_count,
                                           .joints = job->joints,
                                           .joint_format = SW_JOINT_U16,
                                           .weights = job->weights,
                                           .weight_format = SW_WEIGHT_F32,
                                           .positions = job->in_positions,
                                           .normals = job->in_normals,
                                           .tangents = job->in_tangents,
                                           .quantize = opt->quantized};
        const size_t size = sw_skin_compact_memory_size(&desc);
        sw_skin_compact compact;
        STREAM(joints, NULL, size);
        if (sw_skin_compact_build(&desc, ptr, size, &compact, &diag) != SW_OK) {
            *status = tool_fail(args, "%s: %s", opt->model, diag.message);
            return false;
        }
        sw_skin_job base = *job;
        if (compact.quantized) {
            /* The palette with the dequantisation folded in (once per pose). */
            STREAM(matrices, NULL, job->joint_count * sizeof(sw_mat34));
            sw_skin_matrices_dequantize(ptr, src->palettes->matrices[skin], job->joint_count,
                                        compact.dequantize_offset, compact.dequantize_step);
            base.matrices = ptr;
            if (opt->packed_normals) base.out_normal_format = SW_VERTEX_INT_2_10_10_10;
            /* 8-byte positions in; 4-byte normals in, 4 or 12 out. */
            bytes -= v * 4;
            if (base.in_normals) bytes -= v * (8 + (opt->packed_normals ? 8 : 0));
        }
        *job_index += sw_skin_compact_jobs(&compact, &base, job) - 1;
        bytes -= v * k * (sizeof(uint16_t) + sizeof(float));
        bytes += compact.influence_bytes;
    }
#undef STREAM
    for (sw_skin_job* made = job; made < b->jobs + *job_index; ++made) {
        const sw_skin_job other = variant_job(made, src->variant_b);
        if (sw_skin_job_validate(made, &diag) != SW_OK ||
            (opt->versus && sw_skin_job_validate(&other, &diag) != SW_OK)) {
            *status = tool_fail(args, "%s: %s", opt->model, diag.message);
            return false;
        }
    }
    pass->bytes += bytes;
    pass->vertices += v;
    return true;
}

/* b->jobs and b->given: every copy of every skinned primitive, with its
   own inputs and outputs; false with *status set on failure. */
static bool build_jobs(const skin_source* src, const bench_skinned* skinned, size_t instance_count,
                       stream_list* streams, skin_bench* b, skin_pass* pass, tool_args* args, int* status) {
    b->job_count = instance_count * src->copies * (src->opt->compact ? SW_MAX_INFLUENCES : 1);
    b->jobs = calloc(b->job_count, sizeof *b->jobs);
    streams->blocks = calloc(b->job_count * 8 + 8, sizeof *streams->blocks);
    if (!b->jobs || !streams->blocks) {
        *status = tool_fail(args, "out of memory");
        return false;
    }
    size_t j = 0;
    for (size_t c = 0; c < src->copies; ++c)
        for (size_t i = 0; i < instance_count; ++i)
            if (!add_primitive_jobs(src, &skinned[i], streams, b, &j, pass, args, status)) return false;
    b->given = malloc((j + 1) * sizeof *b->given);
    if (!b->given) {
        *status = tool_fail(args, "out of memory");
        return false;
    }
    memcpy(b->given, b->jobs, j * sizeof *b->jobs);
    b->job_count = j;
    return true;
}

/* Tasks of at most SKIN_CHUNK vertices, in job order, and the memcpy
   reference moving the pass's bytes; false when memory ran out. */
static bool make_tasks(skin_bench* b, size_t bytes_per_pass) {
    for (size_t i = 0; i < b->job_count; ++i) b->task_count += (b->jobs[i].vertex_count + SKIN_CHUNK - 1) / SKIN_CHUNK;
    b->tasks = calloc(b->task_count + 1, sizeof *b->tasks);
    b->copy_bytes = bytes_per_pass / 2; /* memcpy reads and writes this many: the same bytes moved */
    b->copy_src = copy_of(NULL, b->copy_bytes + 1);
    b->copy_dst = copy_of(NULL, b->copy_bytes + 1);
    if (!b->tasks || !b->copy_src || !b->copy_dst) return false;
    memset(b->copy_src, 1, b->copy_bytes);
    memset(b->copy_dst, 0, b->copy_bytes);
    size_t t = 0;
    for (size_t i = 0; i < b->job_count; ++i)
        for (size_t first = 0; first < b->jobs[i].vertex_count; first += SKIN_CHUNK)
            b->tasks[t++] = (skin_task){i, first,
                                        b->jobs[i].vertex_count - first < SKIN_CHUNK ? b->jobs[i].vertex_count - first
                                                                                     : SKIN_CHUNK};
    return true;
}

static void free_skin_bench(skin_bench* b) {
    free(b->jobs), free(b->given), free(b->tasks), free(b->copy_src), free(b->copy_dst);
    *b = (skin_bench){0};
}

/* Per repetition: vertices/s, memcpy bytes/s and the ratio of the two
   (setting A); with --versus, B's vertices/s and its speed over A's. */
typedef struct skin_samples {
    double *vps, *copy_rate, *ratio, *vps_b, *ratio_b;
} skin_samples;

static bool alloc_samples(skin_samples* s, long reps) {
    s->vps = calloc((size_t)reps, sizeof *s->vps);
    s->copy_rate = calloc((size_t)reps, sizeof *s->copy_rate);
    s->ratio = calloc((size_t)reps, sizeof *s->ratio);
    s->vps_b = calloc((size_t)reps, sizeof *s->vps_b);
    s->ratio_b = calloc((size_t)reps, sizeof *s->ratio_b);
    return s->vps && s->copy_rate && s->ratio && s->vps_b && s->ratio_b;
}

static void free_samples(skin_samples* s) {
    free(s->vps), free(s->copy_rate), free(s->ratio), free(s->vps_b), free(s->ratio_b);
    *s = (skin_samples){0};
}

/* The warm-up runs, then `reps` timed repetitions into `out`. */
static void time_skin(thread_pool* pool, skin_bench* b, long reps, bool versus, const skin_pass* pass,
                      skin_samples* out) {
    const int variants = versus ? 2 : 1;
    for (int r = 0; r < WARMUP_RUNS; ++r) {
        for (int v = 0; v < variants; ++v) run_skin_pass(pool, b, v);
        thread_pool_run(pool, b->task_count, run_copy_task, b);
    }
    /* Skinning and memcpy alternate, so both see the same machine state;
       with --versus, A and B too, in turns (A B, B A, ...) so neither
       always runs on the caches the other left. */
    for (long r = 0; r < reps; ++r) {
        double seconds[2] = {0.0, 0.0};
        for (int turn = 0; turn < variants; ++turn) {
            const int v = variants == 2 && r % 2 ? 1 - turn : turn;
            seconds[v] = run_skin_pass(pool, b, v);
        }
        double t1 = now_seconds();
        thread_pool_run(pool, b->task_count, run_copy_task, b);
        double t2 = now_seconds();
        out->vps[r] = (double)pass->vertices / seconds[0];
        out->copy_rate[r] = 2.0 * (double)b->copy_bytes / (t2 - t1);
        out->ratio[r] = ((double)pass->bytes / seconds[0]) / out->copy_rate[r];
        if (versus) {
            out->vps_b[r] = (double)pass->vertices / seconds[1];
            out->ratio_b[r] = seconds[0] / seconds[1];
        }
    }
}

/* What B changes in the outputs: one more pass of each, compared (see
   walk_outputs); false when memory ran out. */
static bool versus_difference(thread_pool* pool, skin_bench* b, double difference[3]) {
    float* outputs_a = malloc((walk_outputs(b, NULL, NULL) + 1) * sizeof(float));
    if (!outputs_a) return false;
    run_skin_pass(pool, b, 0);
    walk_outputs(b, outputs_a, NULL);
    run_skin_pass(pool, b, 1);
    walk_outputs(b, outputs_a, difference);
    free(outputs_a);
    return true;
}

/* What bench skin prints. */
typedef struct skin_report {
    const bench_options* opt;
    sw_skin_kernel used, used_b; /* the kernels that ran: A's and B's */
    skin_variant variant_b;
    bool normals_used, synthetic_tangents;
    size_t copies, vertices_per_copy, vertices;
    double bytes_per_vertex;
    stats vps, copy, ratio, vps_b, ratio_b;
    double difference[3]; /* largest |B − A| per stream; −1: not written */
} skin_report;

/* false when standard output could not be written. */
static bool print_skin_json(const skin_report* r) {
    const bench_options* opt = r->opt;
    json_writer w;
    json_writer_init(&w, json_file_sink, stdout);
    json_begin_object(&w);
    json_key(&w, "bench"), json_string(&w, "skin");
    json_key(&w, "model"), json_string(&w, opt->model);
    json_key(&w, "kernel"), json_string(&w, sw_skin_kernel_name(r->used));
    json_key(&w, "method"), json_string(&w, opt->dqs ? "dqs" : "lbs");
    json_key(&w, "normals"), json_bool(&w, r->normals_used);
    json_key(&w, "tangents"), json_bool(&w, opt->tangents);
    json_key(&w, "layout"), json_string(&w, opt->quantized ? "quantized" : opt->compact ? "compact" : "default");
    json_key(&w, "normalized"), json_bool(&w, !opt->no_normalize);
    json_key(&w, "synthetic_tangents"), json_bool(&w, r->synthetic_tangents);
    json_key(&w, "threads"), json_int(&w, opt->threads);
    json_key(&w, "copies"), json_int(&w, (long long)r->copies);
    json_key(&w, "vertices"), json_int(&w, (long long)r->vertices);
    json_key(&w, "bytes_per_vertex"), json_double(&w, r->bytes_per_vertex);
    json_key(&w, "reps"), json_int(&w, opt->reps);
    json_stats(&w, "vertices_per_second", r->vps);
    json_key(&w, "bytes_per_second");
    json_begin_object(&w);
    json_key(&w, "min"), json_double(&w, r->vps.min * r->bytes_per_vertex);
    json_key(&w, "median"), json_double(&w, r->vps.median * r->bytes_per_vertex);
    json_key(&w, "max"), json_double(&w, r->vps.max * r->bytes_per_vertex);
    json_end_object(&w);
    json_stats(&w, "memcpy_bytes_per_second", r->copy);
    json_stats(&w, "ratio_to_memcpy", r->ratio);
    json_key(&w, "versus");
    if (opt->versus) {
        json_begin_object(&w);
        json_key(&w, "setting"), json_string(&w, opt->versus);
        json_key(&w, "kernel"), json_string(&w, sw_skin_kernel_name(r->used_b));
        json_key(&w, "normalized"), json_bool(&w, !r->variant_b.unnormalized);
        json_key(&w, "positions_only"), json_bool(&w, r->variant_b.positions_only);
        json_stats(&w, "vertices_per_second", r->vps_b);
        json_stats(&w, "ratio_to_base", r->ratio_b);
        json_key(&w, "max_difference");
        json_begin_object(&w);
        static const char* const stream_names[3] = {"positions", "normals", "tangents"};
        for (int k = 0; k < 3; ++k) {
            json_key(&w, stream_names[k]);
            if (r->difference[k] >= 0.0) json_double(&w, r->difference[k]);
            else json_null(&w);
        }
        json_end_object(&w);
        json_end_object(&w);
    } else {
        json_null(&w);
    }
    json_end_object(&w);
    json_newline(&w);
    return json_writer_finish(&w);
}

static void print_skin_text(const skin_report* r) {
    const bench_options* opt = r->opt;
    const double bpv = r->bytes_per_vertex;
    printf("sinew bench skin: %s\n", opt->model);
    printf("  %s %s, positions%s%s%s%s, %s layout; %zu vertices (%zu copies of %zu), %.1f bytes per vertex read + "
           "written\n",
           sw_skin_kernel_name(r->used), opt->dqs ? "DQS" : "LBS", r->normals_used ? " + normals" : "",
           opt->tangents ? " + tangents" : "", r->synthetic_tangents ? " (synthetic)" : "",
           opt->no_normalize && (r->normals_used || opt->tangents) ? " (unnormalised)" : "",
           opt->quantized ? (opt->packed_normals ? "quantised (packed normals)" : "quantised")
           : opt->compact ? "compact"
                          : "default",
           r->vertices, r->copies, r->vertices_per_copy, bpv);
    printf("  %ld thread%s, %ld repetitions after %d warm-up runs (min / median / max)\n", opt->threads,
           opt->threads == 1 ? "" : "s", opt->reps, WARMUP_RUNS);
    printf("  vertices/s     %8.1f M  %8.1f M  %8.1f M\n", r->vps.min * 1e-6, r->vps.median * 1e-6, r->vps.max * 1e-6);
    printf("  skinning GB/s  %8.2f    %8.2f    %8.2f\n", r->vps.min * bpv * 1e-9, r->vps.median * bpv * 1e-9,
           r->vps.max * bpv * 1e-9);
    printf("  memcpy GB/s    %8.2f    %8.2f    %8.2f\n", r->copy.min * 1e-9, r->copy.median * 1e-9, r->copy.max * 1e-9);
    printf("  ratio          %8.3f    %8.3f    %8.3f   (skinning bytes/s over memcpy bytes/s, per repetition)\n",
           r->ratio.min, r->ratio.median, r->ratio.max);
    if (!opt->versus) return;
    printf("  versus %s (%s%s%s), in turns with the above:\n", opt->versus, sw_skin_kernel_name(r->used_b),
           r->variant_b.positions_only ? ", positions only" : "",
           r->variant_b.unnormalized && !r->variant_b.positions_only ? ", unnormalised" : "");
    printf("  vertices/s     %8.1f M  %8.1f M  %8.1f M\n", r->vps_b.min * 1e-6, r->vps_b.median * 1e-6,
           r->vps_b.max * 1e-6);
    printf("  B / A          %8.3f    %8.3f    %8.3f   (speed ratio per pair of repetitions)\n", r->ratio_b.min,
           r->ratio_b.median, r->ratio_b.max);
    printf("  |B - A| at most: positions %.3g", r->difference[0]);
    if (r->difference[1] >= 0.0) printf(", normals %.3g", r->difference[1]);
    if (r->difference[2] >= 0.0) printf(", tangents %.3g", r->difference[2]);
    printf("\n");
}

/* What sw_skin_job_run runs: DEFAULT is the best kernel, in the columns
   shape on compact layouts; quantised streams always run the columns shape. */
static sw_skin_kernel kernel_used(sw_skin_kernel kernel, const bench_options* opt) {
    const sw_skin_kernel k = kernel == SW_SKIN_KERNEL_DEFAULT ? sw_skin_kernel_best() : kernel;
    if (opt->quantized || (opt->compact && kernel == SW_SKIN_KERNEL_DEFAULT)) {
        if (k == SW_SKIN_KERNEL_SSE2) return SW_SKIN_KERNEL_SSE2_COLUMNS;
        if (k == SW_SKIN_KERNEL_AVX2 || (opt->quantized && k == SW_SKIN_KERNEL_AVX2_ROWS))
            return SW_SKIN_KERNEL_AVX2_COLUMNS;
    }
    return k;
}

static int bench_skin(const bench_options* opt, tool_args* args) {
    sw_model* a = NULL;
    sw_pose pose = {0};
    void* pose_memory = NULL;
    int status = TOOL_EXIT_OK;
    thread_pool* pool = NULL;
    skin_bench b = {0};
    stream_list streams = {0};
    bench_skinned* skinned = NULL;
    skin_palettes palettes = {0};
    skin_samples samples = {0};
    tool_error err;
    sw_skin_kernel kernel = SW_SKIN_KERNEL_DEFAULT;

    if (opt->kernel && !parse_kernel(opt->kernel, &kernel))
        return tool_usage(args, "--kernel: '%s' is not auto, scalar, sse2, avx2, sse2-columns, avx2-columns or avx2-rows", opt->kernel);
    const skin_variant variant_a = {kernel, opt->no_normalize, false};
    skin_variant variant_b = variant_a;
    if (opt->versus && !parse_versus(opt->versus, variant_a, &variant_b))
        return tool_usage(args, "--versus: '%s' is not kernel=auto|scalar|sse2|avx2|sse2-columns|avx2-columns|avx2-rows, no-normalize, normalize or positions",
                          opt->versus);
    if (opt->versus && opt->gpu) return tool_usage(args, "--versus is for CPU skinning");
    if (!load_posed(opt, args, &a, &pose, &pose_memory, &status)) goto done;

    /* Skinned instances, and their palettes at the pose. */
    size_t instance_count, vertices_per_copy;
    if (!(skinned = list_skinned(a, &instance_count, &vertices_per_copy))) {
        status = tool_fail(args, "out of memory");
        goto done;
    }
    if (instance_count == 0 || vertices_per_copy == 0) {
        status = tool_fail(args, "%s has no skinned mesh to benchmark", opt->model);
        goto done;
    }
    size_t copies = opt->copies > 0 ? (size_t)opt->copies
                                    : (TARGET_VERTICES + vertices_per_copy - 1) / vertices_per_copy;
    if (!make_palettes(a, &pose, &palettes)) {
        status = tool_fail(args, "out of memory");
        goto done;
    }
    if (opt->gpu && (opt->compact || opt->no_normalize)) {
        status = tool_usage(args, "--compact, --quantized and --no-normalize are CPU options");
        goto done;
    }
    if ((opt->packed_normals && !opt->quantized) || (opt->quantized && (opt->tangents || opt->dqs))) {
        status = tool_usage(args, "--packed-normals needs --quantized, which takes neither --tangents nor --dqs");
        goto done;
    }
    if (opt->gpu) {
        bench_gpu_options g = {.model = opt->model, .copies = copies, .reps = (int)opt->reps, .dqs = opt->dqs,
                               .normals = opt->normals, .tangents = opt->tangents, .json = opt->json,
                               .path = opt->gpu == 2 ? SW_GPU_PATH_VERTEX_SHADER : SW_GPU_PATH_COMPUTE};
        bench_gpu_palettes palettes_at_pose = {palettes.matrices, palettes.dual_quats,
                                               palettes.scaled ? palettes.stretches : NULL};
        status = bench_skin_gpu(&g, a, &palettes_at_pose, skinned, instance_count, args);
        goto done;
    }

    const skin_source source = {opt, a, &palettes, kernel, variant_b, copies};
    skin_pass pass = {0};
    if (!build_jobs(&source, skinned, instance_count, &streams, &b, &pass, args, &status)) goto done;
    if (!make_tasks(&b, pass.bytes) || !alloc_samples(&samples, opt->reps)) {
        status = tool_fail(args, "out of memory");
        goto done;
    }
    if (!(pool = thread_pool_create((int)opt->threads, &err))) {
        status = tool_fail(args, "%s", err.message);
        goto done;
    }
    b.variant[0] = variant_a;
    b.variant[1] = variant_b;
    time_skin(pool, &b, opt->reps, opt->versus != NULL, &pass, &samples);

    const stats none = {0.0, 0.0, 0.0};
    skin_report report = {
        .opt = opt,
        .used = kernel_used(kernel, opt),
        .used_b = kernel_used(variant_b.kernel, opt),
        .variant_b = variant_b,
        .normals_used = b.given[0].in_normals != NULL, /* the jobs as built: B may drop normals */
        .synthetic_tangents = pass.synthetic_tangents,
        .copies = copies,
        .vertices_per_copy = vertices_per_copy,
        .vertices = pass.vertices,
        .bytes_per_vertex = (double)pass.bytes / (double)pass.vertices,
        .vps = summarise(samples.vps, (int)opt->reps),
        .copy = summarise(samples.copy_rate, (int)opt->reps),
        .ratio = summarise(samples.ratio, (int)opt->reps),
        .vps_b = opt->versus ? summarise(samples.vps_b, (int)opt->reps) : none,
        .ratio_b = opt->versus ? summarise(samples.ratio_b, (int)opt->reps) : none,
        .difference = {-1.0, -1.0, -1.0},
    };
    if (opt->versus && !versus_difference(pool, &b, report.difference)) {
        status = tool_fail(args, "out of memory");
        goto done;
    }
    if (!opt->json) print_skin_text(&report);
    else if (!print_skin_json(&report)) status = tool_fail(args, "cannot write to standard output");

done:
    thread_pool_destroy(pool);
    free_streams(&streams);
    free_palettes(&palettes);
    free(skinned);
    free_skin_bench(&b);
    free_samples(&samples);
    free(pose_memory);
    sw_model_free(a);
    return status;
}

/* ---- bench anim ------------------------------------------------------------ */

#define ANIM_DT (1.0f / 60.0f)
#define BLEND_STAGES 4 /* sample + blend, IK, local->model, skin matrices */

typedef struct anim_leg {
    uint32_t start, mid, end; /* hip, knee, ankle */
    float lift;               /* how far above the foot its target goes at most: 10 % of the leg */
} anim_leg;

typedef struct anim_bench {
    const sw_model* asset;
    const sw_clip* clip;
    size_t characters;
    sw_pose* poses;        /* characters poses (pose.h), skin matrices without dual quaternions */
    float* times;          /* characters */
    double* stage_seconds; /* threads × 3, summed per run */
    /* The blend scenario (blend_clips[0] NULL: not run): a synchronised
       2-way blend, two-bone IK on both legs, local->model, skin matrices. */
    const sw_clip* blend_clips[2];
    sw_pose* blend_poses;       /* characters: blended, solved, updated */
    sw_pose* scratch;           /* 2 × characters: each clip sampled (local, weights, cursors) */
    sw_clip_instance* groups;   /* characters: sync group playheads, time = phase */
    sw_sync_member* members;    /* 2 × characters, weights fixed per character */
    anim_leg legs[2];
    size_t leg_count;           /* 0: IK skipped (no legs found by name) */
    double* blend_seconds;      /* threads × BLEND_STAGES, summed per run */
    size_t* failures;           /* threads: calls that failed validation */
} anim_bench;

/* The three stages of sw_pose_evaluate, timed apart. */
static void run_anim_task(void* context, size_t index, int thread) {
    anim_bench* b = context;
    const sw_model* a = b->asset;
    size_t first = index * ANIM_CHUNK;
    size_t last = first + ANIM_CHUNK < b->characters ? first + ANIM_CHUNK : b->characters;
    double t0 = now_seconds();
    for (size_t c = first; c < last; ++c) sw_pose_sample(a, b->clip, b->times[c], true, &b->poses[c], NULL);
    double t1 = now_seconds();
    for (size_t c = first; c < last; ++c) sw_pose_update_world(a, &b->poses[c]);
    double t2 = now_seconds();
    for (size_t c = first; c < last; ++c) sw_pose_update_skins(a, &b->poses[c]);
    double t3 = now_seconds();
    double* stage = b->stage_seconds + 3 * (size_t)thread;
    stage[0] += t1 - t0, stage[1] += t2 - t1, stage[2] += t3 - t2;
}

/* Character c's sync group advanced by dt, both clips sampled at their
   members' times into its scratch poses, and blended into its pose. */
static bool blend_sample(const anim_bench* b, size_t c, float dt, sw_diag* diag) {
    const sw_model* a = b->asset;
    sw_sync_member* m = &b->members[2 * c];
    sw_pose* s = &b->scratch[2 * c];
    sw_pose* pose = &b->blend_poses[c];
    if (sw_sync_group_advance(&b->groups[c], m, 2, dt, NULL, diag) != SW_OK ||
        sw_pose_sample(a, b->blend_clips[0], m[0].time, false, &s[0], diag) != SW_OK ||
        sw_pose_sample(a, b->blend_clips[1], m[1].time, false, &s[1], diag) != SW_OK)
        return false;
    const sw_transform* sources[2] = {s[0].local, s[1].local};
    const float weights[2] = {m[0].weight, m[1].weight};
    sw_blend_layer layers[2];
    if (sw_blend_poses(pose->local, a->node_count, a->rest_local, sources, weights, 2, layers, diag) != SW_OK)
        return false;
    for (size_t k = 0; k < a->weight_count; ++k)
        pose->weights[k] = weights[0] * s[0].weights[k] + weights[1] * s[1].weights[k];
    return true;
}

/* World matrices of the blended locals, then each leg's foot towards a
   target above it (and a little forward), lifted by a per-character amount
   that follows the phase; the legs are disjoint, so both solve on one
   world array (ik.h). */
static bool blend_ik(const anim_bench* b, size_t c, sw_diag* diag) {
    const sw_model* a = b->asset;
    sw_pose* pose = &b->blend_poses[c];
    if (!b->leg_count) return true;
    sw_pose_update_world(a, pose);
    float phase = b->groups[c].time;
    for (size_t l = 0; l < b->leg_count; ++l) {
        const anim_leg* leg = &b->legs[l];
        const sw_mat34* foot = &pose->world[leg->end];
        float lift = leg->lift * (0.5f + 0.5f * sinf(6.2831853f * phase + 3.1415927f * (float)l));
        sw_ik_two_bone_job job = {
            .local = pose->local, .world = pose->world, .node_count = a->node_count,
            .start = leg->start, .mid = leg->mid, .end = leg->end,
            .target = {foot->m[0][3], foot->m[1][3] + lift, foot->m[2][3] + 0.25f * lift},
            .weight = 1.0f,
        };
        if (sw_ik_two_bone_job_validate(&job, diag) != SW_OK) return false;
        (void)sw_ik_two_bone_job_run(&job);
    }
    return true;
}

/* The blend scenario's four stages, timed apart. */
static void run_blend_task(void* context, size_t index, int thread) {
    anim_bench* b = context;
    const sw_model* a = b->asset;
    size_t first = index * ANIM_CHUNK;
    size_t last = first + ANIM_CHUNK < b->characters ? first + ANIM_CHUNK : b->characters;
    size_t failed = 0;
    double t0 = now_seconds();
    for (size_t c = first; c < last; ++c) failed += !blend_sample(b, c, ANIM_DT, NULL);
    double t1 = now_seconds();
    for (size_t c = first; c < last; ++c) failed += !blend_ik(b, c, NULL);
    double t2 = now_seconds();
    for (size_t c = first; c < last; ++c) sw_pose_update_world(a, &b->blend_poses[c]);
    double t3 = now_seconds();
    for (size_t c = first; c < last; ++c) sw_pose_update_skins(a, &b->blend_poses[c]);
    double t4 = now_seconds();
    double* stage = b->blend_seconds + BLEND_STAGES * (size_t)thread;
    stage[0] += t1 - t0, stage[1] += t2 - t1, stage[2] += t3 - t2, stage[3] += t4 - t3;
    b->failures[thread] += failed;
}

/* A clip by name or index (tool_find_clip); false with *status set (a usage error) when there is none. */
static bool find_clip(const sw_model* a, const char* option, const char* spec, long* out, tool_args* args,
                      int* status) {
    tool_error err;
    if (strcmp(spec, "none") != 0 && tool_find_clip(a, spec, out, &err) && *out >= 0) return true;
    if (strcmp(spec, "none") == 0) tool_error_set(&err, "'none' is not a clip");
    *status = tool_usage(args, "%s%s", option, err.message);
    return false;
}

static long find_node_named(const sw_model* a, const char* name) {
    for (size_t i = 0; i < a->node_count; ++i)
        if (a->nodes[i].name && strcmp(a->nodes[i].name, name) == 0) return (long)i;
    return -1;
}

static float distance_between(const sw_mat34* p, const sw_mat34* q) {
    float x = p->m[0][3] - q->m[0][3], y = p->m[1][3] - q->m[1][3], z = p->m[2][3] - q->m[2][3];
    return sqrtf(x * x + y * y + z * z);
}

static const char* const leg_joint_names[2][3] = {{"LeftUpLeg", "LeftLeg", "LeftFoot"},
                                                   {"RightUpLeg", "RightLeg", "RightFoot"}};

/* FNV-1a, 64 bits, over `size` bytes, continuing from `hash`. */
static uint64_t fnv1a(uint64_t hash, const void* data, size_t size) {
    const unsigned char* p = data;
    for (size_t i = 0; i < size; ++i) hash = (hash ^ p[i]) * 0x100000001b3ull;
    return hash;
}

static void print_escaped(const char* raw) {
    char name[TEXT_ESCAPE_BOUND(256)];
    raw = raw ? raw : "";
    text_escape(name, sizeof name, raw, strlen(raw));
    printf("\"%s\"", name);
}

/* The clip each character plays (--anim, else the first; -1: none) and
   the two the blend scenario mixes (--blend A,B, else the first two;
   -1: no blend); false with *status set when one is not found. */
static bool choose_clips(const bench_options* opt, const sw_model* a, long* out_clip, long out_blend[2],
                         tool_args* args, int* status) {
    *out_clip = -1;
    out_blend[0] = out_blend[1] = -1;
    if (opt->anim) {
        if (!find_clip(a, "", opt->anim, out_clip, args, status)) return false;
    } else if (a->animation_count) {
        *out_clip = 0;
    }
    if (opt->blend) {
        const char* comma = strchr(opt->blend, ',');
        char spec[2][256];
        size_t len0 = comma ? (size_t)(comma - opt->blend) : 0;
        if (!comma || strchr(comma + 1, ',') || len0 >= sizeof spec[0] || strlen(comma + 1) >= sizeof spec[1]) {
            *status = tool_usage(args, "--blend: give two animations, A,B");
            return false;
        }
        memcpy(spec[0], opt->blend, len0), spec[0][len0] = '\0';
        strcpy(spec[1], comma + 1);
        for (int i = 0; i < 2; ++i)
            if (!find_clip(a, "--blend: ", spec[i], &out_blend[i], args, status)) return false;
    } else if (a->animation_count >= 2) {
        out_blend[0] = 0, out_blend[1] = 1;
    }
    return true;
}

/* The blocks behind the poses of anim_bench, and their layouts. */
typedef struct anim_memory {
    sw_pose_sizes sizes, scratch_sizes; /* scratch poses only sample: no skin buffers */
    size_t stride, scratch_stride;      /* bytes per pose */
    void *poses, *blend_poses, *scratch;
} anim_memory;

/* Per repetition, microseconds per character: the plain scenario's three
   stages and its wall time, then the blend scenario's stages and wall. */
#define PLAIN_SERIES 4
#define SERIES (PLAIN_SERIES + BLEND_STAGES + 1)

/* Everything bench anim times, for b->characters characters (the blend
   scenario's only when `blending`); false when memory ran out. */
static bool alloc_anim_bench(anim_bench* b, anim_memory* m, size_t threads, bool blending, long reps,
                             double* per_char[SERIES]) {
    const size_t n = b->characters;
    m->sizes = sw_pose_sizes_of(b->asset);
    m->stride = sw_pose_memory_size(&m->sizes);
    m->scratch_sizes = m->sizes;
    m->scratch_sizes.skin_count = m->scratch_sizes.palette_count = 0;
    m->scratch_stride = sw_pose_memory_size(&m->scratch_sizes);
    b->poses = calloc(n + 1, sizeof *b->poses);
    m->poses = aligned_alloc(16, m->stride * (n + 1));
    b->times = malloc((n + 1) * sizeof *b->times);
    b->stage_seconds = calloc(3 * threads, sizeof *b->stage_seconds);
    b->blend_seconds = calloc(BLEND_STAGES * threads, sizeof *b->blend_seconds);
    b->failures = calloc(threads, sizeof *b->failures);
    bool ok = b->poses && m->poses && b->times && b->stage_seconds && b->blend_seconds && b->failures;
    for (int i = 0; i < SERIES; ++i) ok = (per_char[i] = calloc((size_t)reps, sizeof(double))) && ok;
    if (ok && blending) {
        b->blend_poses = calloc(n + 1, sizeof *b->blend_poses);
        b->scratch = calloc(2 * n + 1, sizeof *b->scratch);
        b->groups = calloc(n + 1, sizeof *b->groups);
        b->members = calloc(2 * n + 1, sizeof *b->members);
        m->blend_poses = aligned_alloc(16, m->stride * (n + 1));
        m->scratch = aligned_alloc(16, m->scratch_stride * (2 * n + 1));
        ok = b->blend_poses && b->scratch && b->groups && b->members && m->blend_poses && m->scratch;
    }
    return ok;
}

static void free_anim_bench(anim_bench* b, anim_memory* m, double* per_char[SERIES]) {
    free(b->poses), free(m->poses), free(b->times);
    free(b->stage_seconds), free(b->blend_seconds), free(b->failures);
    free(b->blend_poses), free(b->scratch), free(b->groups), free(b->members);
    free(m->blend_poses), free(m->scratch);
    for (int i = 0; i < SERIES; ++i) free(per_char[i]);
}

/* The plain scenario's characters: poses bound, character 0 sampled once
   with messages, and each its own start time; false with diag set. */
static bool place_characters(anim_bench* b, const anim_memory* m, sw_diag* diag) {
    const size_t n = b->characters;
    for (size_t c = 0; c < n; ++c) {
        sw_pose_bind(&b->poses[c], &m->sizes, (uint8_t*)m->poses + c * m->stride);
        b->poses[c].skin_dual_quats = NULL; /* the stage measured is the LBS palette */
    }
    if (b->clip && sw_pose_sample(b->asset, b->clip, 0.0f, true, &b->poses[0], diag) != SW_OK) return false;
    /* Different phases, so characters do not share keys. */
    for (size_t c = 0; c < n; ++c)
        b->times[c] = (float)fmod(0.37 * (double)c, b->clip && b->clip->duration > 0 ? b->clip->duration : 1.0);
    return true;
}

/* The blend scenario's characters, each with its own phase and mix of
   the two clips, and the legs IK solves (found by name; both or none). */
static void place_blend_characters(anim_bench* b, const anim_memory* m) {
    const sw_model* a = b->asset;
    for (size_t c = 0; c < b->characters; ++c) {
        sw_pose_bind(&b->blend_poses[c], &m->sizes, (uint8_t*)m->blend_poses + c * m->stride);
        b->blend_poses[c].skin_dual_quats = NULL;
        sw_pose_rest(a, &b->blend_poses[c]);
        for (size_t i = 0; i < 2; ++i)
            sw_pose_bind(&b->scratch[2 * c + i], &m->scratch_sizes,
                         (uint8_t*)m->scratch + (2 * c + i) * m->scratch_stride);
        /* Its own phase and its own mix of the two clips (weight of B in [0.2, 0.8]). */
        float mix = 0.2f + 0.6f * (float)fmod(0.618034 * (double)c, 1.0);
        b->groups[c] = (sw_clip_instance){.time = (float)fmod(0.37 * (double)c, 1.0), .speed = 1.0f,
                                          .wrap = SW_WRAP_LOOP};
        for (int i = 0; i < 2; ++i) {
            const sw_clip* clip = b->blend_clips[i];
            b->members[2 * c + i] = (sw_sync_member){.start = 0.0f, .duration = clip->duration,
                                                     .weight = i ? mix : 1.0f - mix};
        }
    }
    for (int l = 0; l < 2; ++l) {
        long j[3];
        for (int k = 0; k < 3; ++k) j[k] = find_node_named(a, leg_joint_names[l][k]);
        if (j[0] < 0 || j[1] < 0 || j[2] < 0 || !(j[0] < j[1] && j[1] < j[2])) continue;
        b->legs[b->leg_count++] = (anim_leg){(uint32_t)j[0], (uint32_t)j[1], (uint32_t)j[2], 0.0f};
    }
    if (b->leg_count < 2) b->leg_count = 0; /* both legs or none */
}

/* Character 0 of the blend scenario once, with messages (members placed,
   dt = 0), which also sets each leg's lift: 10 % of its length in that
   pose. False with *status set on failure. */
static bool try_blend(anim_bench* b, tool_args* args, int* status) {
    sw_diag diag;
    if (!blend_sample(b, 0, 0.0f, &diag)) {
        *status = tool_fail(args, "--blend: %s", diag.message);
        return false;
    }
    sw_pose_update_world(b->asset, &b->blend_poses[0]);
    for (size_t l = 0; l < b->leg_count; ++l) {
        const sw_mat34* w = b->blend_poses[0].world;
        anim_leg* leg = &b->legs[l];
        leg->lift = 0.1f * (distance_between(&w[leg->start], &w[leg->mid]) +
                            distance_between(&w[leg->mid], &w[leg->end]));
    }
    if (!blend_ik(b, 0, &diag)) {
        *status = tool_fail(args, "IK on %s: %s", leg_joint_names[0][0], diag.message);
        return false;
    }
    return true;
}

/* The plain scenario's repetitions (after the warm-up runs), into
   per_char[0 .. PLAIN_SERIES). */
static void time_plain(thread_pool* pool, anim_bench* b, size_t threads, long reps, double* per_char[SERIES]) {
    const size_t n = b->characters, tasks = (n + ANIM_CHUNK - 1) / ANIM_CHUNK;
    for (long r = -WARMUP_RUNS; r < reps; ++r) {
        memset(b->stage_seconds, 0, 3 * threads * sizeof *b->stage_seconds);
        double t0 = now_seconds();
        thread_pool_run(pool, tasks, run_anim_task, b);
        double t1 = now_seconds();
        for (size_t c = 0; c < n; ++c) b->times[c] += ANIM_DT;
        if (r < 0) continue;
        double stage[3] = {0};
        for (size_t t = 0; t < threads; ++t)
            for (int s = 0; s < 3; ++s) stage[s] += b->stage_seconds[3 * t + s];
        for (int s = 0; s < 3; ++s) per_char[s][r] = stage[s] / (double)n * 1e6;
        per_char[3][r] = (t1 - t0) / (double)n * 1e6;
    }
}

/* The blend scenario's repetitions, into per_char[PLAIN_SERIES ..). */
static void time_blend(thread_pool* pool, anim_bench* b, size_t threads, long reps, double* per_char[SERIES]) {
    const size_t n = b->characters, tasks = (n + ANIM_CHUNK - 1) / ANIM_CHUNK;
    for (long r = -WARMUP_RUNS; r < reps; ++r) {
        memset(b->blend_seconds, 0, BLEND_STAGES * threads * sizeof *b->blend_seconds);
        double t1 = now_seconds();
        thread_pool_run(pool, tasks, run_blend_task, b);
        double t2 = now_seconds();
        if (r < 0) continue;
        double stage[BLEND_STAGES] = {0};
        for (size_t t = 0; t < threads; ++t)
            for (int s = 0; s < BLEND_STAGES; ++s) stage[s] += b->blend_seconds[BLEND_STAGES * t + s];
        for (int s = 0; s < BLEND_STAGES; ++s) per_char[PLAIN_SERIES + s][r] = stage[s] / (double)n * 1e6;
        per_char[PLAIN_SERIES + BLEND_STAGES][r] = (t2 - t1) / (double)n * 1e6;
    }
}

/* Every character's skin matrices after the last repetition, plain then
   blend: the same whatever the thread count. */
static uint64_t skin_checksum(const anim_bench* b, size_t palette_count, bool blending) {
    uint64_t checksum = 0xcbf29ce484222325ull;
    size_t palette_bytes = palette_count * sizeof(sw_mat34);
    for (size_t c = 0; c < b->characters; ++c) checksum = fnv1a(checksum, b->poses[c].skin_matrices, palette_bytes);
    for (size_t c = 0; blending && c < b->characters; ++c)
        checksum = fnv1a(checksum, b->blend_poses[c].skin_matrices, palette_bytes);
    return checksum;
}

/* What bench anim prints. */
typedef struct anim_report {
    const bench_options* opt;
    const anim_bench* b;
    bool blending;
    stats st[SERIES];
    double sum_median, blend_sum_median; /* the stages' medians, added */
    char checksum[17];
    bench_fbik_report fbik;
    bench_compress_report compressed;
} anim_report;

/* false when standard output could not be written. */
static bool print_anim_json(const anim_report* r) {
    static const char* const names[PLAIN_SERIES] = {"sample", "local_to_model", "skin_matrices", "wall"};
    static const char* const blend_names[BLEND_STAGES + 1] = {"sample_blend", "ik", "local_to_model",
                                                              "skin_matrices", "wall"};
    const bench_options* opt = r->opt;
    const anim_bench* b = r->b;
    const sw_model* a = b->asset;
    json_writer w;
    json_writer_init(&w, json_file_sink, stdout);
    json_begin_object(&w);
    json_key(&w, "bench"), json_string(&w, "anim");
    json_key(&w, "model"), json_string(&w, opt->model);
    json_key(&w, "animation"), json_string(&w, b->clip ? b->clip->name : NULL);
    json_key(&w, "tracks"), json_int(&w, (long long)(b->clip ? b->clip->track_count : 0));
    json_key(&w, "nodes"), json_int(&w, (long long)a->node_count);
    json_key(&w, "joints"), json_int(&w, (long long)a->skin_joint_count);
    json_key(&w, "characters"), json_int(&w, (long long)b->characters);
    json_key(&w, "threads"), json_int(&w, opt->threads);
    json_key(&w, "reps"), json_int(&w, opt->reps);
    json_key(&w, "microseconds_per_character");
    json_begin_object(&w);
    for (int s = 0; s < PLAIN_SERIES; ++s) json_stats(&w, names[s], r->st[s]);
    json_key(&w, "stages_sum_of_medians"), json_double(&w, r->sum_median);
    json_end_object(&w);
    json_key(&w, "blend");
    if (r->blending) {
        json_begin_object(&w);
        json_key(&w, "animations");
        json_begin_array(&w);
        for (int i = 0; i < 2; ++i) json_string(&w, b->blend_clips[i]->name);
        json_end_array(&w);
        json_key(&w, "ik"), json_bool(&w, b->leg_count > 0);
        json_key(&w, "ik_legs");
        json_begin_array(&w);
        for (size_t l = 0; l < b->leg_count; ++l) {
            json_begin_array(&w);
            for (int k = 0; k < 3; ++k) json_string(&w, leg_joint_names[l][k]);
            json_end_array(&w);
        }
        json_end_array(&w);
        json_end_object(&w);
    } else {
        json_null(&w);
    }
    json_key(&w, "blend_microseconds_per_character");
    if (r->blending) {
        json_begin_object(&w);
        for (int s = 0; s < BLEND_STAGES + 1; ++s) json_stats(&w, blend_names[s], r->st[PLAIN_SERIES + s]);
        json_key(&w, "stages_sum_of_medians"), json_double(&w, r->blend_sum_median);
        json_end_object(&w);
    } else {
        json_null(&w);
    }
    json_key(&w, "checksum"), json_string(&w, r->checksum);
    bench_fbik_print_json(&w, &r->fbik);
    bench_compress_print_json(&w, &r->compressed);
    json_end_object(&w);
    json_newline(&w);
    return json_writer_finish(&w);
}

static void print_anim_text(const anim_report* r) {
    static const char* const labels[PLAIN_SERIES] = {"sample (thread time)", "local->model", "skin matrices",
                                                     "wall, all stages"};
    static const char* const blend_labels[BLEND_STAGES + 1] = {
        "sample + blend (thread)", "IK, both legs", "local->model", "skin matrices", "wall, all stages"};
    const bench_options* opt = r->opt;
    const anim_bench* b = r->b;
    const sw_model* a = b->asset;
    printf("sinew bench anim: %s\n", opt->model);
    /* Clip names come from the file: escaped (text_escape.h). */
    printf("  animation ");
    print_escaped(b->clip ? b->clip->name : NULL);
    printf(" (%zu tracks), %zu nodes, %zu skin joints; %zu characters, %ld thread%s, %ld repetitions\n",
           b->clip ? b->clip->track_count : 0, a->node_count, a->skin_joint_count, b->characters, opt->threads,
           opt->threads == 1 ? "" : "s", opt->reps);
    printf("  microseconds per character   min      median   max\n");
    for (int s = 0; s < PLAIN_SERIES; ++s)
        printf("  %-26s %8.3f %8.3f %8.3f\n", labels[s], r->st[s].min, r->st[s].median, r->st[s].max);
    printf("  stages together (medians)  %8.3f\n", r->sum_median);
    if (r->blending) {
        printf("  blend ");
        print_escaped(b->blend_clips[0]->name);
        printf(" + ");
        print_escaped(b->blend_clips[1]->name);
        printf(" synchronised by phase, then ");
        if (b->leg_count)
            printf("two-bone IK on %s/%s/%s and %s/%s/%s\n", leg_joint_names[0][0], leg_joint_names[0][1],
                   leg_joint_names[0][2], leg_joint_names[1][0], leg_joint_names[1][1], leg_joint_names[1][2]);
        else
            printf("no IK (IK skipped: no LeftUpLeg/LeftLeg/LeftFoot and RightUpLeg/RightLeg/RightFoot nodes)\n");
        printf("  microseconds per character   min      median   max\n");
        for (int s = 0; s < BLEND_STAGES + 1; ++s) {
            const stats* st = &r->st[PLAIN_SERIES + s];
            printf("  %-26s %8.3f %8.3f %8.3f\n", blend_labels[s], st->min, st->median, st->max);
        }
        printf("  stages together (medians)  %8.3f\n", r->blend_sum_median);
    } else {
        printf("  no blend: the model has fewer than two animations\n");
    }
    printf("  checksum of all skin matrices %s (the same for any --threads)\n", r->checksum);
    bench_fbik_print_text(&r->fbik);
    bench_compress_print_text(&r->compressed);
}

static int bench_anim(const bench_options* opt, tool_args* args) {
    sw_model* a = NULL;
    sw_diag diag;
    tool_error err;
    int status = TOOL_EXIT_OK;
    thread_pool* pool = NULL;
    anim_bench b = {0};
    anim_memory memory = {0};
    double* per_char[SERIES] = {NULL};

    if (tool_load_model(opt->model, NULL, &a, &diag) != SW_OK) return tool_fail(args, "%s", diag.message);
    anim_file file = {0}; /* --anim-file: its clips after the model's */
    if (!anim_file_attach(&file, &a, &opt->file, &err)) {
        status = tool_fail(args, "%s", err.message);
        goto done;
    }
    long clip_index, blend_index[2];
    if (!choose_clips(opt, a, &clip_index, blend_index, args, &status)) goto done;
    b.asset = a;
    b.clip = clip_index >= 0 ? &a->animations[clip_index] : NULL;
    b.characters = (size_t)opt->characters;
    const size_t threads = (size_t)opt->threads;
    const bool blending = blend_index[0] >= 0;
    if (!alloc_anim_bench(&b, &memory, threads, blending, opt->reps, per_char)) {
        status = tool_fail(args, "out of memory for %zu characters", b.characters);
        goto done;
    }
    if (!place_characters(&b, &memory, &diag)) {
        status = tool_fail(args, "%s: %s", opt->model, diag.message);
        goto done;
    }
    if (blending) {
        for (int i = 0; i < 2; ++i) b.blend_clips[i] = &a->animations[blend_index[i]];
        place_blend_characters(&b, &memory);
        if (!try_blend(&b, args, &status)) goto done;
    }

    if (!(pool = thread_pool_create((int)opt->threads, &err))) {
        status = tool_fail(args, "%s", err.message);
        goto done;
    }
    /* The plain scenario's repetitions, then the blend scenario's: run in
       turns, the blend's scratch poses would evict the plain ones between
       repetitions and the plain figures would not compare with earlier
       runs. Each scenario advances its own clock, so the results (and the
       checksum) are the same either way. */
    time_plain(pool, &b, threads, opt->reps, per_char);
    if (blending) time_blend(pool, &b, threads, opt->reps, per_char);
    size_t failures = 0;
    for (size_t t = 0; t < threads; ++t) failures += b.failures[t];
    if (failures) {
        status = tool_fail(args, "%s: %zu blend or IK calls failed validation during the run", opt->model, failures);
        goto done;
    }

    anim_report report = {.opt = opt, .b = &b, .blending = blending};
    snprintf(report.checksum, sizeof report.checksum, "%016llx",
             (unsigned long long)skin_checksum(&b, memory.sizes.palette_count, blending));
    for (int s = 0; s < SERIES; ++s) report.st[s] = summarise(per_char[s], (int)opt->reps);
    report.sum_median = report.st[0].median + report.st[1].median + report.st[2].median;
    for (int s = 0; s < BLEND_STAGES; ++s) report.blend_sum_median += report.st[PLAIN_SERIES + s].median;
    if (!bench_fbik_run(a, b.clip, (int)opt->reps, &report.fbik)) {
        status = tool_fail(args, "out of memory for full-body IK");
        goto done;
    }
    /* 1000 characters' poses would leave the cache: the turns sample 64. */
    if (!bench_compress_run(a, b.clip, (int)opt->reps, 64, &report.compressed)) {
        status = tool_fail(args, "out of memory, or the clip did not compress");
        goto done;
    }
    if (!opt->json) print_anim_text(&report);
    else if (!print_anim_json(&report)) status = tool_fail(args, "cannot write to standard output");

done:
    thread_pool_destroy(pool);
    free_anim_bench(&b, &memory, per_char);
    anim_file_detach(&file, &a);
    sw_model_free(a);
    return status;
}

int cmd_bench(tool_args* args) {
    bench_options opt = {.threads = 1, .reps = DEFAULT_REPS, .characters = 1000, .copies = 0};
    tool_error err;
    int took;
    for (const char* arg; (arg = tool_args_next(args));) {
        const char* v;
        if (tool_args_is_help(arg)) return tool_print_help(args);
        if (tool_args_flag(arg, "--dqs")) opt.dqs = true;
        else if (tool_args_flag(arg, "--normals")) opt.normals = true;
        else if (tool_args_flag(arg, "--tangents")) opt.tangents = true;
        else if (tool_args_flag(arg, "--json")) opt.json = true;
        else if (tool_args_flag(arg, "--compact")) opt.compact = true;
        else if (tool_args_flag(arg, "--quantized")) opt.compact = opt.quantized = true;
        else if (tool_args_flag(arg, "--packed-normals")) opt.packed_normals = true;
        else if (tool_args_flag(arg, "--no-normalize")) opt.no_normalize = true;
        else if (tool_args_option(args, arg, "--versus")) {
            if (!(opt.versus = tool_args_value(args, "--versus", &err))) return tool_usage(args, "%s", err.message);
        }
        else if (tool_args_flag(arg, "--scalar")) opt.kernel = "scalar";
        else if (tool_args_flag(arg, "--gpu")) opt.gpu = 1;
        else if (tool_args_flag(arg, "--gpu-vs")) opt.gpu = 2;
        else if (tool_args_flag(arg, "--gpu-driven")) opt.gpu_driven = true;
        else if (tool_args_option(args, arg, "--kernel")) {
            if (!(opt.kernel = tool_args_value(args, "--kernel", &err))) return tool_usage(args, "%s", err.message);
        } else if (tool_args_option(args, arg, "--anim")) {
            if (!(opt.anim = tool_args_value(args, "--anim", &err))) return tool_usage(args, "%s", err.message);
        } else if ((took = anim_file_option_take(&opt.file, args, arg, &err)) != 0) {
            if (took < 0) return tool_usage(args, "%s", err.message);
        } else if (tool_args_option(args, arg, "--blend")) {
            if (!(opt.blend = tool_args_value(args, "--blend", &err))) return tool_usage(args, "%s", err.message);
        } else if (tool_args_option(args, arg, "--copies")) {
            if (!(v = tool_args_value(args, "--copies", &err)) || !tool_parse_int("--copies", v, 1, 100000, &opt.copies, &err))
                return tool_usage(args, "%s", err.message);
        } else if (tool_args_option(args, arg, "--threads")) {
            if (!(v = tool_args_value(args, "--threads", &err)) ||
                !tool_parse_int("--threads", v, 1, THREAD_POOL_MAX_THREADS, &opt.threads, &err))
                return tool_usage(args, "%s", err.message);
        } else if (tool_args_option(args, arg, "--reps")) {
            if (!(v = tool_args_value(args, "--reps", &err)) ||
                !tool_parse_int("--reps", v, MIN_REPS, MAX_REPS, &opt.reps, &err))
                return tool_usage(args, "%s", err.message);
        } else if (tool_args_option(args, arg, "--characters")) {
            if (!(v = tool_args_value(args, "--characters", &err)) ||
                !tool_parse_int("--characters", v, 1, 10000000, &opt.characters, &err))
                return tool_usage(args, "%s", err.message);
        } else if (arg[0] == '-' && arg[1]) {
            return tool_unknown_option(args, arg);
        } else if (!opt.mode) {
            opt.mode = arg;
        } else if (!opt.model) {
            opt.model = arg;
        } else {
            return tool_usage(args, "unexpected argument '%s'", arg);
        }
    }
    if (!opt.mode) return tool_usage(args, "say what to benchmark: skin, anim or crowd");
    if (!opt.model) return tool_usage(args, "no MODEL given");
    if (opt.gpu_driven && strcmp(opt.mode, "crowd") != 0) return tool_usage(args, "--gpu-driven is for bench crowd");
    if (opt.file.path && strcmp(opt.mode, "anim") != 0)
        return tool_usage(args, "--anim-file is for bench anim (bench %s does not play clips by name)", opt.mode);
    if (!anim_file_options_check(&opt.file, &err)) return tool_usage(args, "%s", err.message);
    if (strcmp(opt.mode, "skin") == 0) {
        if (opt.blend) return tool_usage(args, "--blend is for bench anim");
        return bench_skin(&opt, args);
    }
    if (strcmp(opt.mode, "anim") == 0) {
        if (opt.dqs || opt.normals || opt.tangents || opt.kernel || opt.copies || opt.gpu || opt.compact ||
            opt.no_normalize || opt.versus)
            return tool_usage(args, "--dqs, --normals, --tangents, --kernel, --copies, --gpu, --compact, "
                                    "--no-normalize and --versus are for bench skin");
        const char* comma = opt.blend ? strchr(opt.blend, ',') : NULL;
        if (opt.blend && (!comma || comma == opt.blend || !comma[1] || strchr(comma + 1, ',')))
            return tool_usage(args, "--blend: give two animations, A,B (names or indices)");
        return bench_anim(&opt, args);
    }
    if (strcmp(opt.mode, "crowd") == 0) {
        if (opt.normals || opt.tangents || opt.kernel || opt.copies || opt.gpu == 2 || opt.anim || opt.blend ||
            opt.compact || opt.no_normalize || opt.versus)
            return tool_usage(args, "bench crowd takes --characters, --threads, --dqs, --gpu, --gpu-driven, --reps and --json");
        if (opt.gpu_driven && opt.dqs) return tool_usage(args, "--gpu-driven skins with LBS only (no --dqs)");
        const bench_crowd_options crowd = {.model = opt.model, .characters = (size_t)opt.characters,
                                           .threads = (int)opt.threads, .reps = (int)opt.reps, .dqs = opt.dqs,
                                           .gpu = opt.gpu == 1, .json = opt.json, .gpu_driven = opt.gpu_driven};
        return bench_crowd(&crowd, args);
    }
    return tool_usage(args, "unknown benchmark '%s' (skin, anim or crowd)", opt.mode);
}
