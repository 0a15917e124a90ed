/* sinew compress — a model's clips as compressed clips (.swa,
   sinew/compress.h): resampled, searched against the virtual-vertex
   error, written atomically; prints raw and compressed bytes, the ratio
   and the worst and 99th-percentile error. */
#include "tool_common.h"

#include "sinew/compress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char cmd_compress_help[] =
    "usage: sinew compress MODEL [--anim CLIP|all] [--rate HZ] [--tolerance M]\n"
    "                            [--virtual-vertex M] -o FILE.swa [--quiet]\n"
    "\n"
    "Compresses a clip of MODEL (docs/compression.md): resampled at HZ\n"
    "(default 30), constant and default tracks stripped, every other value\n"
    "range-reduced per clip and per segment of 32 samples and quantised to\n"
    "the fewest bits that keep every joint's virtual vertices (M metres along\n"
    "its three axes, default 0.03) within the tolerance (default 0.0001 m)\n"
    "of the raw clip's, in model space, at every sample. Prints, per clip:\n"
    "the raw bytes (40 bytes per driven joint per sample at HZ), the\n"
    "compressed bytes, the ratio, and the worst and 99th-percentile error.\n"
    "Morph-weight tracks are not compressed (they are left out).\n"
    "\n"
    "options:\n"
    "  --anim A        animation by name or index (default 0); 'all': every clip,\n"
    "                  FILE.swa becoming FILE-<index>.swa when there are several\n"
    "  --rate HZ       samples per second (default 30)\n"
    "  --tolerance M   virtual-vertex error allowed, in the model's units (default 0.0001)\n"
    "  --virtual-vertex M\n"
    "                  distance of the virtual vertices from each joint (default 0.03)\n"
    "  -o, --output FILE.swa\n"
    "                  where to write; replaced only once fully written\n"
    "  --quiet         no \"wrote FILE\" line on stderr\n"
    "  -h, --help      show this help\n"
    "\n"
    "Play a .swa with --anim-file FILE.swa on render, view, export, info and\n"
    "bench anim (it must come from a model with the same nodes).\n"
    "\n"
    "exit status: 0 ok, 1 failure, 2 usage error\n";

typedef struct compress_options {
    const char* model;
    const char* anim;
    const char* output;
    double rate, tolerance, virtual_vertex;
    bool quiet;
} compress_options;

/* FILE.swa, or FILE-<index>.swa when several clips are written. */
static void output_name(char* out, size_t size, const char* output, long index, bool several) {
    if (!several) {
        snprintf(out, size, "%s", output);
        return;
    }
    size_t len = strlen(output);
    size_t stem = len > 4 && strcmp(output + len - 4, ".swa") == 0 ? len - 4 : len;
    snprintf(out, size, "%.*s-%ld.swa", (int)stem, output, index);
}

/* One clip: resampled, compressed, written, reported. */
static int compress_one(const compress_options* o, const sw_model* model, long index, bool several,
                        tool_args* args) {
    const sw_clip* clip = &model->animations[index];
    const size_t joints = model->node_count;
    const size_t samples = sw_clip_resample_count(clip, (float)o->rate);
    if (samples == 0) return tool_fail(args, "%s: clip %ld is too long for %g Hz", o->model, index, o->rate);
    sw_transform* raw = malloc(samples * joints * sizeof *raw);
    int32_t* parents = malloc(joints * sizeof *parents);
    uint8_t* channels = malloc(joints);
    sw_compressed_bytes bytes = {0};
    sw_compress_report report;
    sw_diag diag;
    tool_error err;
    int status = TOOL_EXIT_OK;
    if (!raw || !parents || !channels) {
        status = tool_fail(args, "out of memory");
        goto done;
    }
    for (size_t j = 0; j < joints; j++) parents[j] = model->nodes[j].parent;
    sw_clip_channels(clip, channels, joints);
    if (sw_clip_resample(clip, model->rest_local, joints, samples, raw, &diag) != SW_OK) {
        status = tool_fail(args, "%s: clip %ld: %s", o->model, index, diag.message);
        goto done;
    }
    sw_compress_input in = {.joint_count = joints, .parents = parents, .samples = raw, .sample_count = samples,
                            .start = clip->start, .end = clip->duration, .channels = channels, .name = clip->name};
    sw_compress_settings settings = {.tolerance = (float)o->tolerance, .virtual_vertex = (float)o->virtual_vertex};
    if (sw_compress_clip(&in, &settings, &bytes, &report, &diag) != SW_OK) {
        status = tool_fail(args, "%s: clip %ld: %s", o->model, index, diag.message);
        goto done;
    }
    char path[4096];
    output_name(path, sizeof path, o->output, index, several);
    tool_atomic_file file;
    if (!tool_atomic_open(&file, path, &err)) {
        status = tool_fail(args, "%s", err.message);
        goto done;
    }
    tool_atomic_write(&file, bytes.bytes, bytes.size);
    if (!tool_atomic_commit(&file, &err)) {
        status = tool_fail(args, "%s", err.message);
        goto done;
    }
    printf("clip %ld \"%s\": %zu samples at %g Hz, %zu joints driven (%zu animated, %zu constant, %zu default "
           "properties)\n",
           index, clip->name ? clip->name : "", samples, o->rate, report.driven_joints, report.animated_tracks,
           report.constant_tracks, report.default_tracks);
    printf("  raw %zu bytes, compressed %zu bytes, ratio %.2f:1, %.2f bits per animated value\n", report.raw_bytes,
           report.compressed_bytes, (double)report.raw_bytes / (double)report.compressed_bytes, report.mean_bits);
    printf("  error: worst %.4g (joint %zu, sample %zu), 99th percentile %.4g; tolerance %g at %g%s\n",
           (double)report.worst_error, report.worst_joint, report.worst_sample, (double)report.p99_error,
           o->tolerance, o->virtual_vertex, report.met ? "" : " (NOT met: 24 bits were not enough)");
    tool_wrote(o->quiet, "%s (%zu bytes)", path, bytes.size);
done:
    sw_compress_bytes_free(&bytes);
    free(raw), free(parents), free(channels);
    return status;
}

static int parse_number(tool_args* args, const char* name, double min, double max, double* out) {
    tool_error err;
    const char* v = tool_args_value(args, name, &err);
    if (!v || !tool_parse_double(name, v, min, max, out, &err)) return tool_usage(args, "%s", err.message);
    return TOOL_EXIT_OK;
}

int cmd_compress(tool_args* args) {
    compress_options o = {.rate = 30.0, .tolerance = SW_COMPRESS_DEFAULT_TOLERANCE,
                          .virtual_vertex = SW_COMPRESS_DEFAULT_VIRTUAL_VERTEX};
    tool_error err;
    int status;
    for (const char* arg; (arg = tool_args_next(args));) {
        const char* name;
        if (tool_args_is_help(arg)) return tool_print_help(args);
        if (tool_args_flag(arg, "--quiet")) {
            o.quiet = true;
        } else if (tool_args_option(args, arg, "--anim")) {
            if (!(o.anim = tool_args_value(args, "--anim", &err))) return tool_usage(args, "%s", err.message);
        } else if (tool_args_option(args, arg, "--rate")) {
            if ((status = parse_number(args, "--rate", 0.1, 10000.0, &o.rate))) return status;
        } else if (tool_args_option(args, arg, "--tolerance")) {
            if ((status = parse_number(args, "--tolerance", 1e-9, 1e6, &o.tolerance))) return status;
        } else if (tool_args_option(args, arg, "--virtual-vertex")) {
            if ((status = parse_number(args, "--virtual-vertex", 1e-9, 1e6, &o.virtual_vertex))) return status;
        } else if ((name = tool_args_output(args, arg, NULL))) {
            if (o.output) return tool_usage(args, "one output file only");
            if (!(o.output = tool_args_value(args, name, &err))) return tool_usage(args, "%s", err.message);
        } else if (arg[0] == '-' && arg[1]) {
            return tool_unknown_option(args, arg);
        } else if (!o.model) {
            o.model = arg;
        } else {
            return tool_usage(args, "unexpected argument '%s'", arg);
        }
    }
    if (!o.model) return tool_usage(args, "no model given");
    if (!o.output) return tool_usage(args, "no output file given (-o FILE.swa)");
    if (!tool_output_check(o.output, NULL, &err)) return tool_fail(args, "%s", err.message);
    sw_model* model = NULL;
    sw_diag diag;
    if (tool_load_model(o.model, NULL, &model, &diag) != SW_OK) return tool_fail(args, "%s", diag.message);
    status = TOOL_EXIT_OK;
    if (model->animation_count == 0) {
        status = tool_fail(args, "%s has no animations to compress", o.model);
    } else if (o.anim && strcmp(o.anim, "all") == 0) {
        for (size_t i = 0; i < model->animation_count && status == TOOL_EXIT_OK; i++)
            status = compress_one(&o, model, (long)i, model->animation_count > 1, args);
    } else {
        long index = 0;
        if (o.anim && (!tool_find_clip(model, o.anim, &index, &err) || index < 0))
            status = tool_usage(args, "--anim: %s", index < 0 ? "'none' is not a clip" : err.message);
        else
            status = compress_one(&o, model, index, false, args);
    }
    sw_model_free(model);
    return status;
}
