/* sinew export — skinned and morphed world-space positions (and normals) of
   every mesh instance at chosen times of one clip, as JSON: the format other
   implementations are compared against (docs/DESIGN.md). */
#include "anim_program.h"
#include "json_writer.h"
#include "tool_common.h"

#include "sinew/gltf.h"
#include "sinew/gpu.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SAMPLES 100000

const char cmd_export_help[] =
    "usage: sinew export MODEL [--anim NAME|INDEX|none] [--times T0,T1,...|--samples N]\n"
    "                    [--normals] [--joints] [--dqs] [--loop]\n"
    "                    [--gpu|--gpu-vs [--stats]] [-o FILE.json] [--quiet]\n"
    "                    [animation options, below]\n"
    "\n"
    "Evaluates MODEL at the given times of one animation and writes, for every\n"
    "(node, mesh primitive) instance in glTF node order, the positions a\n"
    "renderer must draw, in world space: morph targets applied in bind space,\n"
    "then skinning (the skinned node's own transform ignored, as glTF says) or\n"
    "the node's world transform for rigid meshes. Vertices are in the\n"
    "primitive's accessor order. The JSON schema is in docs/DESIGN.md and\n"
    "docs/cli.md.\n"
    "\n"
    "options:\n"
    "  --anim A        animation by name or index (default: 0; 'none', or a file\n"
    "                  without animations, gives the rest pose)\n"
    "  --times LIST    comma-separated times in seconds\n"
    "  --samples N     N evenly spaced times from 0 to the clip's end, both ends\n"
    "                  included (default: 10; 1 gives time 0)\n"
    "  --normals       also write normals (blended 3x3, renormalised)\n"
    "  --joints        also write the pose: every node's world matrix (\"nodes\",\n"
    "                  glTF node order) and every skin joint's skin matrix\n"
    "                  (\"skins\"), as 3x4 rows (12 numbers, row by row) per time\n"
    "  --dqs           dual quaternion skinning instead of linear blend skinning\n"
    "  --gpu           skin on the GPU (OpenGL 4.3 compute through EGL) instead\n"
    "                  of the CPU; the output is the same within 1e-5 of the\n"
    "                  model's size\n"
    "  --gpu-vs        the same with vertex-shader skinning (transform feedback)\n"
    "  --stats         with --gpu: print the skin cache's counts (dispatches run,\n"
    "                  dispatches skipped because nothing changed) on stderr\n"
    "  --loop          wrap times into [0, duration) instead of holding the\n"
    "                  first and last keys\n"
    "  -o, --output FILE\n"
    "                  write to FILE (missing folders are created; FILE is\n"
    "                  replaced only once complete) instead of standard output;\n"
    "                  '-' is standard output. FILE must be a regular file or\n"
    "                  a new one (a link is followed), never MODEL or a file\n"
    "                  it names\n"
    "  --quiet         no \"wrote FILE (...)\" line on stderr\n"
    "  --allow-outside-paths   let buffer URIs leave the model's folder\n"
    "  -h, --help      show this help\n"
    "\n"
    ANIM_OPTIONS_HELP
    "Spring bones simulate from the clip's start at 1/60 s steps, the animation\n"
    "sampled at every step: any order of times gives the same numbers.\n";

typedef struct export_options {
    const char* model;
    const char* anim;
    const char* times_text;
    long samples;
    bool normals, joints, dqs, loop, quiet;
    bool gpu, stats;
    sw_gpu_skin_path gpu_path;
    const char* out;
    sw_gltf_options load;
    anim_options* program; /* --blend, --layer, --ik, ... (anim_program.h) */
} export_options;

/* The GPU side of --gpu: a context and the skinning programs. */
typedef struct export_gpu {
    sw_gl_context* context;
    sw_gpu_skinner* skinner;
} export_gpu;

/* Deforms one primitive at one pose on the GPU and reads it back. */
static bool gpu_deform(const export_gpu* g, sw_gpu_model_primitive* prim, const sw_pose* pose,
                       const export_options* opt, float* positions, float* normals, tool_error* err) {
    sw_diag diag;
    sw_gpu_skin_desc desc = {.method = opt->dqs ? SW_SKIN_DQS : SW_SKIN_LBS, .path = opt->gpu_path};
    if (sw_gpu_model_primitive_pose(prim, pose, &diag) != SW_OK ||
        sw_gpu_model_primitive_skin(g->skinner, prim, &desc, NULL, &diag) != SW_OK ||
        sw_gpu_instance_read(sw_gpu_model_primitive_instance(prim), positions, NULL, normals, NULL, &diag) != SW_OK)
        return tool_error_set(err, "GPU: %s", diag.message);
    return true;
}

/* Parses "0,0.5,1.25" into a new array. */
static bool parse_times(const char* text, float** out, size_t* count, tool_error* err) {
    size_t n = 1;
    for (const char* p = text; *p; ++p) n += *p == ',';
    if (n > MAX_SAMPLES) return tool_error_set(err, "--times: at most %d times", MAX_SAMPLES);
    float* times = malloc(n * sizeof *times);
    if (!times) return tool_error_set(err, "out of memory");
    const char* p = text;
    for (size_t i = 0; i < n; ++i) {
        const char* end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        char item[64];
        double v;
        if (len == 0 || len >= sizeof item) {
            free(times);
            return tool_error_set(err, "--times: item %zu of '%s' is empty or too long", i + 1, text);
        }
        memcpy(item, p, len), item[len] = 0;
        if (!tool_parse_double("--times", item, -1e9, 1e9, &v, err)) {
            free(times);
            return false;
        }
        times[i] = (float)v;
        p = end ? end + 1 : p + len;
    }
    *out = times, *count = n;
    return true;
}

/* The model's pose at each time (pose.h), in one block. */
typedef struct scene_poses {
    size_t time_count;
    sw_pose* poses;    /* time_count poses */
    void* memory;
} scene_poses;

static sw_result evaluate_poses(const sw_model* a, long clip_index, const float* times, bool loop,
                                anim_program* program, scene_poses* out, sw_diag* diag) {
    sw_pose_sizes sizes = sw_pose_sizes_of(a);
    size_t stride = sw_pose_memory_size(&sizes), t_count = out->time_count;
    /* time_count ≤ MAX_SAMPLES and pose sizes are bounded by the file. */
    out->poses = calloc(t_count ? t_count : 1, sizeof *out->poses);
    out->memory = aligned_alloc(16, stride * (t_count ? t_count : 1));
    if (!out->poses || !out->memory)
        return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for %zu nodes at %zu times", a->node_count,
                           t_count);
    const sw_clip* clip = clip_index >= 0 ? &a->animations[clip_index] : NULL;
    for (size_t t = 0; t < t_count; ++t) {
        sw_pose_bind(&out->poses[t], &sizes, (uint8_t*)out->memory + t * stride);
        /* One pose's cursors serve every time, as one playback would. */
        out->poses[t].cursors = out->poses[0].cursors;
        if (program) {
            tool_error e;
            if (!anim_program_evaluate(program, times[t], &out->poses[t], &e))
                return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "%s", e.message);
            if (!avatar_program_keep(&program->avatar, t)) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory");
            continue;
        }
        sw_result r = sw_pose_evaluate(a, clip, times[t], loop, &out->poses[t], diag);
        if (r != SW_OK) return r;
    }
    return SW_OK;
}

static void write_vec3s(json_writer* w, const float* v, size_t count) {
    json_newline(w);
    json_begin_array(w);
    for (size_t i = 0; i < 3 * count; ++i) json_float(w, v[i]);
    json_end_array(w);
}

/* 12 numbers, row by row. */
static void write_mat34(json_writer* w, const sw_mat34* m) {
    json_begin_array(w);
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 4; ++c) json_float(w, m->m[r][c]);
    json_end_array(w);
}

/* --joints: the pose itself, so that two poses can be compared joint by
   joint, not only through the vertices they move. Every node (not only
   skin joints: rigid and camera nodes move too) in the file's order, one
   line each, then every skin's joints in the skin's order. Nodes are named
   by their file index, as node_index is in "primitives". */
static void write_pose(json_writer* w, const sw_model* a, size_t t_count, const scene_poses* poses) {
    json_key(w, "nodes"), json_begin_array(w);
    for (size_t source = 0; source < a->node_count; ++source) {
        size_t n = a->node_from_source[source];
        const sw_model_node* node = &a->nodes[n];
        json_newline(w);
        json_begin_object(w);
        json_key(w, "node_index"), json_int(w, (long long)source);
        json_key(w, "name"), json_string(w, node->name);
        long long parent = node->parent < 0 ? -1 : (long long)a->nodes[node->parent].source_index;
        json_key(w, "parent_index"), json_int(w, parent);
        json_key(w, "world_by_time"), json_begin_array(w);
        for (size_t t = 0; t < t_count; ++t) write_mat34(w, &poses->poses[t].world[n]);
        json_end_array(w);
        json_end_object(w);
    }
    json_end_array(w);
    json_key(w, "skins"), json_begin_array(w);
    for (size_t s = 0; s < a->skin_count; ++s) {
        const sw_model_skin* skin = &a->skins[s];
        json_newline(w);
        json_begin_object(w);
        json_key(w, "skin_index"), json_int(w, (long long)s);
        json_key(w, "name"), json_string(w, skin->name);
        json_key(w, "joints"), json_begin_array(w);
        for (size_t j = 0; j < skin->joint_count; ++j) {
            const sw_model_node* node = &a->nodes[skin->joints[j]];
            json_newline(w);
            json_begin_object(w);
            json_key(w, "joint"), json_int(w, (long long)j);
            json_key(w, "node_index"), json_int(w, node->source_index);
            json_key(w, "name"), json_string(w, node->name);
            json_key(w, "skin_by_time"), json_begin_array(w);
            for (size_t t = 0; t < t_count; ++t)
                write_mat34(w, &poses->poses[t].skin_matrices[skin->palette_offset + j]);
            json_end_array(w);
            json_end_object(w);
        }
        json_end_array(w);
        json_end_object(w);
    }
    json_end_array(w);
}

/* One (node, primitive) instance: its positions at every time, then its
   normals at every time (evaluated again: export is a checking tool, not a
   hot path). False with `err` set when it could not be deformed. */
static bool write_instance(const sw_model* a, size_t source, size_t p, size_t t_count, const scene_poses* poses,
                           const export_options* opt, const export_gpu* gpu, json_writer* w, tool_error* err) {
    size_t n = a->node_from_source[source];
    const sw_model_node* node = &a->nodes[n];
    const sw_model_primitive* prim = &a->meshes[node->mesh].primitives[p];
    size_t floats = 3 * (prim->vertex_count ? prim->vertex_count : 1);
    size_t scratch_size = sw_deform_scratch_size(a, n, p);
    float* positions = malloc(floats * sizeof(float));
    float* normals = malloc(floats * sizeof(float));
    void* scratch = aligned_alloc(16, (scratch_size + 15) / 16 * 16 + 16);
    sw_gpu_model_primitive* gpu_prim = NULL;
    bool ok = true;
    if (!positions || !normals || !scratch) {
        ok = tool_error_set(err, "out of memory for %zu vertices", prim->vertex_count);
        goto done;
    }
    bool with_normals = opt->normals && prim->normals;
    if (opt->gpu) {
        sw_diag diag;
        if (sw_gpu_model_primitive_create(gpu->skinner, a, n, p, &gpu_prim, &diag) != SW_OK) {
            ok = tool_error_set(err, "node %zu primitive %zu: GPU: %s", source, p, diag.message);
            goto done;
        }
    }
    json_newline(w);
    json_begin_object(w);
    json_key(w, "mesh_index"), json_int(w, node->mesh);
    json_key(w, "primitive_index"), json_int(w, (long long)p);
    json_key(w, "node_index"), json_int(w, (long long)source);
    json_key(w, "vertex_count"), json_int(w, (long long)prim->vertex_count);
    json_key(w, "skinned"), json_bool(w, node->skin >= 0 && prim->influence_count > 0);
    for (int pass = 0; pass < (with_normals ? 2 : 1) && ok; ++pass) {
        json_key(w, pass == 0 ? "positions_by_time" : "normals_by_time");
        json_begin_array(w);
        for (size_t t = 0; t < t_count && ok && !w->failed; ++t) {
            const sw_pose* pose = &poses->poses[t];
            if (gpu_prim) {
                ok = gpu_deform(gpu, gpu_prim, pose, opt, positions, with_normals ? normals : NULL, err);
                if (!ok) break;
                write_vec3s(w, pass == 0 ? positions : normals, prim->vertex_count);
                continue;
            }
            sw_deform d = {
                .node = n,
                .primitive = p,
                .method = opt->dqs ? SW_SKIN_DQS : SW_SKIN_LBS,
                .scratch = scratch,
                .out_positions = positions,
                .out_normals = with_normals ? normals : NULL,
            };
            sw_diag diag;
            if (sw_deform_primitive(a, pose, &d, &diag) != SW_OK) {
                ok = tool_error_set(err, "node %zu primitive %zu: %s", source, p, diag.message);
                break;
            }
            write_vec3s(w, pass == 0 ? positions : normals, prim->vertex_count);
        }
        json_end_array(w);
    }
    json_end_object(w);
done:
    sw_gpu_model_primitive_destroy(gpu_prim);
    free(positions), free(normals), free(scratch);
    return ok;
}

/* Writes the whole document; false with `err` set on failure.
   *out_instances counts the (node, primitive) instances written. */
static bool write_export(const sw_model* a, long clip_index, const float* times, size_t t_count,
                         const scene_poses* poses, const export_options* opt, const export_gpu* gpu,
                         const avatar_program* avatar, json_writer* w, size_t* out_instances, tool_error* err) {
    const sw_clip* clip = clip_index >= 0 ? &a->animations[clip_index] : NULL;
    json_begin_object(w);
    json_key(w, "model"), json_string(w, opt->model);
    json_key(w, "anim");
    if (clip) {
        json_begin_object(w);
        json_key(w, "index"), json_int(w, clip_index);
        json_key(w, "name"), json_string(w, clip->name);
        json_key(w, "duration"), json_float(w, clip->duration);
        json_end_object(w);
    } else {
        json_null(w);
    }
    json_key(w, "method"), json_string(w, opt->dqs ? "dqs" : "lbs");
    json_key(w, "device"), json_string(w, !opt->gpu ? "cpu" : opt->gpu_path == SW_GPU_PATH_COMPUTE ? "gpu-compute" : "gpu-vertex-shader");
    json_key(w, "loop"), json_bool(w, opt->loop);
    json_key(w, "times"), json_begin_array(w);
    for (size_t t = 0; t < t_count; ++t) json_float(w, times[t]);
    json_end_array(w);
    json_key(w, "primitives"), json_begin_array(w);

    /* Instances in the file's node order; node_index is the file's index.
       A failed write (w->failed: a full disk) stops the work; the caller
       reports it. */
    bool ok = true;
    for (size_t source = 0; source < a->node_count && ok && !w->failed; ++source) {
        const sw_model_node* node = &a->nodes[a->node_from_source[source]];
        if (node->mesh < 0) continue;
        for (size_t p = 0; p < a->meshes[node->mesh].primitive_count && ok; ++p) {
            ok = write_instance(a, source, p, t_count, poses, opt, gpu, w, err);
            *out_instances += ok;
        }
    }
    json_end_array(w);
    if (ok && opt->joints) write_pose(w, a, t_count, poses);
    if (ok) avatar_program_write_json(avatar, poses->poses, t_count, w); /* --expression, --gaze */
    json_end_object(w);
    json_newline(w);
    return ok;
}

static bool atomic_sink(const void* data, size_t size, void* user) {
    return tool_atomic_write((tool_atomic_file*)user, data, size);
}

/* Standard output, with the errno of the first failed write kept (stdio
   does not say which call failed). */
typedef struct stdout_sink_state {
    int write_errno;
} stdout_sink_state;

static bool stdout_sink(const void* data, size_t size, void* user) {
    stdout_sink_state* state = user;
    if (state->write_errno) return false;
    errno = 0;
    if (size && fwrite(data, 1, size, stdout) != size) {
        state->write_errno = errno ? errno : EIO;
        return false;
    }
    return true;
}

static int export_run(tool_args* args, anim_options* program);

int cmd_export(tool_args* args) {
    anim_options program = {0};
    int status = export_run(args, &program);
    anim_options_free(&program);
    return status;
}

/* parse_export_args: the command line was read, go on. */
#define ARGS_READ (-1)

/* The command line into *opt: ARGS_READ, or the exit status to end with
   (--help, a usage error). */
static int parse_export_args(tool_args* args, anim_options* program, export_options* opt) {
    tool_error err;
    for (const char* arg; (arg = tool_args_next(args));) {
        const char *v, *name;
        if (tool_args_is_help(arg)) return tool_print_help(args);
        int took = anim_options_take(program, args, arg, &err);
        if (took < 0) return tool_usage(args, "%s", err.message);
        if (took) continue;
        if (tool_args_flag(arg, "--normals")) opt->normals = true;
        else if (tool_args_flag(arg, "--joints")) opt->joints = true;
        else if (tool_args_flag(arg, "--quiet")) opt->quiet = true;
        else if (tool_args_flag(arg, "--dqs")) opt->dqs = true;
        else if (tool_args_flag(arg, "--loop")) opt->loop = true;
        else if (tool_args_flag(arg, "--gpu")) opt->gpu = true, opt->gpu_path = SW_GPU_PATH_COMPUTE;
        else if (tool_args_flag(arg, "--gpu-vs")) opt->gpu = true, opt->gpu_path = SW_GPU_PATH_VERTEX_SHADER;
        else if (tool_args_flag(arg, "--stats")) opt->stats = true;
        else if (tool_args_flag(arg, "--allow-outside-paths")) opt->load.allow_outside_paths = true;
        else if (tool_args_option(args, arg, "--anim")) {
            if (!(opt->anim = tool_args_value(args, "--anim", &err))) return tool_usage(args, "%s", err.message);
        } else if (tool_args_option(args, arg, "--times")) {
            if (!(opt->times_text = tool_args_value(args, "--times", &err))) return tool_usage(args, "%s", err.message);
        } else if (tool_args_option(args, arg, "--samples")) {
            if (!(v = tool_args_value(args, "--samples", &err)) ||
                !tool_parse_int("--samples", v, 1, MAX_SAMPLES, &opt->samples, &err))
                return tool_usage(args, "%s", err.message);
        } else if ((name = tool_args_output(args, arg, "--out"))) { /* --out: before 0.2; kept through 0.2 */
            if (opt->out) return tool_usage(args, "one output file only");
            if (!(opt->out = tool_args_value(args, name, &err))) return tool_usage(args, "%s", err.message);
        } else if (arg[0] == '-' && arg[1]) {
            return tool_unknown_option(args, arg);
        } else if (opt->model) {
            return tool_usage(args, "one MODEL only ('%s' and '%s')", opt->model, arg);
        } else {
            opt->model = arg;
        }
    }
    if (!opt->model) return tool_usage(args, "no MODEL given");
    if (tool_is_stdout(opt->out)) opt->out = NULL; /* standard output */
    if (opt->times_text && opt->samples >= 0) return tool_usage(args, "give --times or --samples, not both");
    if (opt->stats && !opt->gpu) return tool_usage(args, "--stats reports the GPU skin cache: give --gpu or --gpu-vs");
    if (!anim_options_check(program, &err)) return tool_usage(args, "%s", err.message);
    return ARGS_READ;
}

/* The output, before anything is loaded: a device, a FIFO, a folder, or
   the model itself (or a file it names) is refused now. */
static bool check_output(const export_options* opt, tool_error* err) {
    tool_inputs inputs = {0};
    bool listed = tool_inputs_add_model(&inputs, opt->model);
    listed = listed && (!opt->program->file.path || tool_inputs_add_model(&inputs, opt->program->file.path));
    bool ok = listed && tool_output_check(opt->out, &inputs, err);
    tool_inputs_free(&inputs);
    if (!listed) tool_error_set(err, "out of memory");
    return ok;
}

/* Without --times: --samples (default 10) times from 0 to the clip's end,
   both included; time 0 alone without a clip. */
static bool default_times(const sw_model* a, long clip_index, long samples, float** out_times, size_t* out_count) {
    long n = clip_index < 0 ? 1 : samples > 0 ? samples : 10;
    float end = clip_index < 0 ? 0.0f : a->animations[clip_index].duration;
    float* times = malloc((size_t)n * sizeof *times);
    if (!times) return false;
    for (long i = 0; i < n; ++i) times[i] = n == 1 ? 0.0f : (float)((double)end * (double)i / (double)(n - 1));
    *out_times = times;
    *out_count = (size_t)n;
    return true;
}

/* The clip, the animation program (--blend, --ik, ...) and the poses at
   every time: the export's input. */
typedef struct export_input {
    long clip_index;
    float* times;
    size_t time_count;
    anim_program prog;
    scene_poses poses;
} export_input;

/* write_export to -o FILE (replaced only once complete) or to standard
   output; false with `err` naming the file and the reason on failure. */
static bool write_document(const sw_model* a, const export_input* in, const export_options* opt,
                           const export_gpu* gpu, size_t* out_instances, tool_error* err) {
    json_writer w;
    tool_atomic_file file = {0};
    stdout_sink_state out_state = {0};
    if (opt->out) {
        if (!tool_atomic_open(&file, opt->out, err)) return false;
        json_writer_init(&w, atomic_sink, &file);
    } else {
        json_writer_init(&w, stdout_sink, &out_state);
    }
    bool ok = write_export(a, in->clip_index, in->times, in->time_count, &in->poses, opt, gpu, &in->prog.avatar, &w,
                           out_instances, err);
    bool written = json_writer_finish(&w);
    if (opt->out) {
        if (!ok) {
            tool_atomic_abort(&file);
        } else if (!written) {
            /* A failed write (a full disk, an I/O error) names the file and
               the reason; otherwise the writer itself found a fault. */
            if (file.write_errno) tool_error_set(err, "cannot write '%s': %s", opt->out, strerror(file.write_errno));
            else tool_error_set(err, "cannot write '%s': the JSON writer failed (unbalanced document)", opt->out);
            tool_atomic_abort(&file);
            ok = false;
        } else if (!tool_atomic_commit(&file, err)) {
            ok = false;
        }
    } else if (ok) {
        errno = 0;
        if (written && fflush(stdout) != 0) out_state.write_errno = errno ? errno : EIO;
        if (!written || out_state.write_errno)
            ok = tool_error_set(err, "cannot write to standard output: %s",
                                out_state.write_errno ? strerror(out_state.write_errno) : "the JSON writer failed");
    }
    return ok;
}

/* On stderr: "wrote FILE (...)" unless --quiet, and the skin cache's
   counts with --stats. */
static void report_export(const sw_model* a, const export_options* opt, const export_gpu* gpu, size_t instances,
                          size_t time_count) {
    if (opt->out) {
        char pose[96] = "";
        if (opt->joints)
            snprintf(pose, sizeof pose, ", %zu node%s, %zu skin%s", a->node_count, a->node_count == 1 ? "" : "s",
                     a->skin_count, a->skin_count == 1 ? "" : "s");
        tool_wrote(opt->quiet, "%s (%zu primitive%s, %zu time%s%s)", opt->out, instances, instances == 1 ? "" : "s",
                   time_count, time_count == 1 ? "" : "s", pose);
    }
    if (opt->stats) {
        sw_gpu_skin_stats st;
        sw_gpu_skinner_get_stats(gpu->skinner, &st);
        fprintf(stderr, "skin cache: %llu dispatched, %llu skipped (unchanged palette and weights), %llu vertices skinned\n",
                (unsigned long long)st.dispatched, (unsigned long long)st.skipped,
                (unsigned long long)st.vertices_skinned);
    }
}

/* The clip (--anim, or the one a blend or crossfade names), the animation
   program, the times and the poses; false with *status set on failure. */
static bool prepare_input(sw_model* asset, const anim_file* anim_src, const export_options* opt, export_input* in,
                          tool_args* args,
                          int* status) {
    tool_error err;
    sw_diag diag;
    if (!tool_find_clip(asset, opt->anim, &in->clip_index, &err)) {
        *status = tool_usage(args, "%s", err.message);
        return false;
    }
    anim_program_config config = {.loop = opt->loop, .file = anim_src};
    *status = anim_program_init(&in->prog, asset, opt->program, in->clip_index, &config, &err);
    if (*status != TOOL_EXIT_OK) {
        *status = *status == TOOL_EXIT_USAGE ? tool_usage(args, "%s", err.message) : tool_fail(args, "%s", err.message);
        return false;
    }
    if (in->prog.has_warning) tool_warn(args, "%s: %s", opt->model, in->prog.warning.message);
    for (size_t i = 0; i < in->prog.avatar.warning_count; i++)
        tool_warn(args, "%s: %s", opt->model, in->prog.avatar.warnings[i].message);
    bool with_prog = anim_program_active(&in->prog);
    /* Without --anim, a blend or crossfade names the clip and the times. */
    if (!opt->anim && anim_program_primary_clip(&in->prog) >= 0) in->clip_index = anim_program_primary_clip(&in->prog);
    if (!in->times && !default_times(asset, in->clip_index, opt->samples, &in->times, &in->time_count)) {
        *status = tool_fail(args, "out of memory");
        return false;
    }
    in->poses.time_count = in->time_count;
    if (evaluate_poses(asset, in->clip_index, in->times, opt->loop, with_prog ? &in->prog : NULL, &in->poses,
                       &diag) != SW_OK) {
        *status = tool_fail(args, "%s: %s", opt->model, diag.message);
        return false;
    }
    return true;
}

static int export_run(tool_args* args, anim_options* program) {
    export_options opt = {.samples = -1, .program = program};
    tool_error err;
    int status = parse_export_args(args, program, &opt);
    if (status != ARGS_READ) return status;
    status = TOOL_EXIT_OK;

    export_input in = {0};
    if (opt.times_text && !parse_times(opt.times_text, &in.times, &in.time_count, &err))
        return tool_usage(args, "%s", err.message);
    if (opt.out && !check_output(&opt, &err)) {
        free(in.times);
        return tool_fail(args, "%s", err.message);
    }

    sw_model* asset = NULL;
    sw_diag diag;
    if (tool_load_model(opt.model, &opt.load, &asset, &diag) != SW_OK) {
        free(in.times);
        return tool_fail(args, "%s", diag.message);
    }
    export_gpu gpu = {0};
    anim_file anim_src = {0}; /* --anim-file */
    if (!anim_file_attach(&anim_src, &asset, &program->file, &err)) {
        status = tool_fail(args, "%s", err.message);
        goto done;
    }
    if (anim_src.view && !opt.quiet) fprintf(stderr, "%s\n", anim_src.summary);
    if (!prepare_input(asset, &anim_src, &opt, &in, args, &status)) goto done;
    if (opt.gpu) {
        if (sw_gl_context_create(NULL, &gpu.context, &diag) != SW_OK ||
            sw_gpu_skinner_create(&gpu.skinner, &diag) != SW_OK) {
            status = tool_fail(args, "--gpu: %s", diag.message);
            goto done;
        }
    }
    size_t instances = 0;
    if (!write_document(asset, &in, &opt, &gpu, &instances, &err)) status = tool_fail(args, "%s", err.message);
    else report_export(asset, &opt, &gpu, instances, in.time_count);
done:
    anim_program_free(&in.prog);
    sw_gpu_skinner_destroy(gpu.skinner);
    sw_gl_context_destroy(gpu.context);
    free(in.poses.poses), free(in.poses.memory), free(in.times);
    anim_file_detach(&anim_src, &asset);
    sw_model_free(asset);
    return status;
}
