/* sinew check — the importer's contract, enforced and explained.

   The checks are the library's (sinew/check.h): this command parses its
   options, has sw_check_file load and check the model, and prints the
   findings as linter lines or one JSON object; the exit status says
   whether there were errors (2), only warnings (1) or neither (0). */
#include "json_writer.h"
#include "text_escape.h"
#include "tool_common.h"

#include "sinew/check.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

const char cmd_check_help[] =
    "usage: sinew check MODEL [--json] [--max-influences N] [--retention-threshold R]\n"
    "                   [--allow-outside-paths]\n"
    "\n"
    "Checks what MODEL (any format sinew reads) leaves to its importer. UE,\n"
    "Unity and Godot neither renormalise weights nor fix normals when they\n"
    "skin: they rely on the importer, and this is what it has to catch. The\n"
    "influences are read as the file stores them (JOINTS_n/WEIGHTS_n, before\n"
    "sinew's importer renormalises them); every skin is posed at the rest pose\n"
    "and over every animation (at 30 Hz and at every key time, at most 2000\n"
    "times per animation; morph targets are not applied).\n"
    "\n"
    "Each finding is one line, as a linter prints it, and a summary follows:\n"
    "\n"
    "  MODEL: SEVERITY: WHERE: WHAT (worst: ...) [CODE]\n"
    "  MODEL: E errors, W warnings, N notes\n"
    "\n"
    "Vertices are indices into the primitive's accessors, joints indices into\n"
    "the skin's joints (with the node's name), times in seconds.\n"
    "\n"
    "  error    load                    the file cannot be loaded; the importer's\n"
    "                                   message (broken JSON or buffers, NaN or\n"
    "                                   Inf in an accessor, a joint index out of\n"
    "                                   range with a weight > 0, ...)\n"
    "  error    weights_negative        vertices with a weight < 0\n"
    "  error    joint_out_of_range      vertices with a joint index >= the skin's\n"
    "                                   joint count (whatever its weight)\n"
    "  error    joint_duplicate         vertices naming one joint twice, both\n"
    "                                   times with a weight > 0\n"
    "  error    extent_absurd           positions that are not finite or lie more\n"
    "                                   than 1e7 model units from the origin on\n"
    "                                   an axis (SW_MODEL_MAX_EXTENT: floats are\n"
    "                                   1 unit apart there): as stored, skinned\n"
    "                                   at rest and over every animation, and\n"
    "                                   unskinned meshes placed by their node at\n"
    "                                   rest (their bounding box)\n"
    "  error    skin_joint_duplicate    skins listing one node twice in their\n"
    "                                   joints, which glTF forbids\n"
    "  warning  weights_not_normalised  vertices whose weights sum to 1 +- more\n"
    "                                   than 0.001\n"
    "  warning  vertex_without_weights  vertices whose weights are all 0\n"
    "  warning  joint_zero_weight       vertices pairing a joint index other\n"
    "                                   than 0 with weight 0\n"
    "  warning  too_many_influences     vertices with more than N weights > 0,\n"
    "                                   and how far keeping the N largest\n"
    "                                   (renormalised) moves them, at the rest\n"
    "                                   pose and over every animation\n"
    "  warning  lbs_volume_loss         vertices where linear blend skinning\n"
    "                                   keeps less than R of a limb's radius\n"
    "                                   in some pose (below)\n"
    "  warning  ibm_not_rest_pose       joints whose inverse bind matrix is not\n"
    "                                   the inverse of their rest-pose world\n"
    "                                   transform, so the mesh is deformed at\n"
    "                                   rest (a box around it moves by more than\n"
    "                                   1e-4 of its diagonal); the world\n"
    "                                   transform may be taken relative to the\n"
    "                                   skinned node, as exporters also write\n"
    "  warning  joint_outside_scene     joints of a skin that are not in the\n"
    "                                   default scene while a node it skins is:\n"
    "                                   an engine that instantiates the scene\n"
    "                                   leaves them out\n"
    "  warning  non_uniform_scale       used joints whose skin matrix scales\n"
    "                                   non-uniformly (singular values differ by\n"
    "                                   more than 0.1 %) at rest or in an\n"
    "                                   animation: normals are then only right\n"
    "                                   with the inverse transpose\n"
    "                                   (SW_NORMALS_COFACTOR), not with the\n"
    "                                   blended 3x3 the engines use\n"
    "  warning  import                  a warning of the importer, verbatim:\n"
    "                                   rotation keys that are not unit,\n"
    "                                   channels on missing nodes or on paths\n"
    "                                   that cannot apply, ...\n"
    "  warning  image_unreadable        images that are missing or cannot be\n"
    "                                   decoded, with the decoder's reason\n"
    "  warning  influences_dropped      vertices that had more bone weights than\n"
    "                                   the importer keeps (8; FBX and the other\n"
    "                                   Assimp formats): the largest kept,\n"
    "                                   renormalised\n"
    "  note     bind_pose_offset        every joint agrees at rest, but on a\n"
    "                                   transform other than the identity or\n"
    "                                   the skinned node's: the whole mesh is\n"
    "                                   drawn moved\n"
    "  note     joint_unused            joints no vertex weights\n"
    "  note     skin_unused             skins no node uses\n"
    "  note     influences_unused       primitives with JOINTS/WEIGHTS that no\n"
    "                                   node skins\n"
    "  note     helper_nodes_collapsed  FBX pivot helper nodes folded into the\n"
    "                                   joints they lead to\n"
    "  warning  humanoid_bone_missing   a VRM avatar lacks bones VRM 1.0\n"
    "                                   requires (hips, spine, head, legs, arms)\n"
    "  error    vrm_invalid             the VRM extension cannot be read\n"
    "\n"
    "LBS volume loss: a vertex's linear blend of skin matrices keeps, along\n"
    "its worst direction, the smallest singular value of sum(w_i R_i), R_i\n"
    "the rotation of joint i's skin matrix (scale removed). For two joints\n"
    "phi apart this is the retention sqrt(1 - 2w(1-w)(1 - cos phi))\n"
    "(sw_lbs_retention), |cos(phi/2)| at w = 1/2: 0.5 at 120 degrees.\n"
    "\n"
    "exit status:\n"
    "  0  no errors and no warnings (notes do not count)\n"
    "  1  warnings, no errors\n"
    "  2  errors, including a file that cannot be loaded (reported as a\n"
    "     finding, on standard output); also a usage error (a message on\n"
    "     standard error, nothing on standard output) or a failure to write\n"
    "\n"
    "options:\n"
    "  --json                   one JSON object instead of lines (below)\n"
    "  --max-influences N       influences an engine keeps per vertex, 1 to 64\n"
    "                           (default 4)\n"
    "  --retention-threshold R  radius retention below which a vertex is an\n"
    "                           LBS volume-loss hot spot, 0 to 1 (default 0.7)\n"
    "  --allow-outside-paths    let buffer and image URIs leave the model's\n"
    "                           folder (through \"..\", absolute paths or links)\n"
    "\n"
    "JSON (fields are only ever added):\n"
    "  {\"model\": str, \"max_influences\": int, \"retention_threshold\": num,\n"
    "   \"sample_rate_hz\": num, \"exit_status\": 0|1|2,\n"
    "   \"errors\": int, \"warnings\": int, \"notes\": int,\n"
    "   \"findings\": [{\"severity\": \"error\"|\"warning\"|\"note\", \"code\": str,\n"
    "     \"message\": str (the line's WHERE: WHAT),\n"
    "     \"mesh\", \"primitive\", \"skin\", \"joint\", \"node\" (the file's index),\n"
    "     \"animation\", \"image\": int or null,\n"
    "     \"count\": int (vertices; joints for the joint and skin codes),\n"
    "     \"value\": num or null (the worst one: the sum furthest from 1, the\n"
    "       lowest weight, the largest joint index, the summed duplicate\n"
    "       weight, the joint index with weight 0, the largest position error\n"
    "       in model units, the lowest retention, the largest IBM error as a\n"
    "       fraction of the mesh size, the largest singular value ratio, the\n"
    "       largest coordinate's distance from the origin: null if not finite),\n"
    "     \"examples\": [{\"vertex\", \"joint\", \"other_joint\": int or null,\n"
    "       \"value\": num, \"animation\": int or null (null: rest pose),\n"
    "       \"time\": num or null}] (worst first, at most 5),\n"
    "     \"poses\": [{\"animation\": int or null, \"name\": str or null,\n"
    "       \"count\": int, \"value\": num or null, \"time\": num or null}]\n"
    "       (measured codes only: the rest pose, then each animation)}]}\n";

/* ---- output ----------------------------------------------------------------------------- */

static int exit_status(const sw_check_report* r) { return r->error_count ? 2 : r->warning_count ? 1 : 0; }

/* The model's path and the messages (which quote the file's names) go
   through text_escape_print(): whatever the names hold, each finding is one
   line and the summary is the last (see text_escape.h). */
static void print_text(const char* model, const sw_check_report* r) {
    for (size_t i = 0; i < r->finding_count; i++) {
        const sw_check_finding* f = &r->findings[i];
        text_escape_print(stdout, model);
        printf(": %s: ", sw_check_severity_str(f->severity));
        text_escape_print(stdout, f->message);
        printf(" [%s]\n", f->id);
    }
    size_t e = r->error_count, w = r->warning_count, n = r->note_count;
    text_escape_print(stdout, model);
    printf(": %zu error%s, %zu warning%s, %zu note%s\n", e, e == 1 ? "" : "s", w, w == 1 ? "" : "s", n,
           n == 1 ? "" : "s");
}

static void json_index(json_writer* w, const char* key, int64_t v) {
    json_key(w, key);
    if (v < 0) json_null(w);
    else json_int(w, (long long)v);
}

static void json_number(json_writer* w, const char* key, double v) {
    json_key(w, key);
    if (isnan(v)) json_null(w);
    else json_float(w, v);
}

/* `max_influences` and `threshold` as the command line gave them (a
   threshold of 0 is passed to the library as a disabled code). */
static void print_json(json_writer* w, const char* model, const sw_check_report* r, int max_influences,
                       double threshold) {
    json_begin_object(w);
    json_key(w, "model"), json_string(w, model);
    json_key(w, "max_influences"), json_int(w, max_influences);
    json_key(w, "retention_threshold"), json_double(w, threshold);
    json_key(w, "sample_rate_hz"), json_double(w, r->options.sample_rate_hz);
    json_key(w, "exit_status"), json_int(w, exit_status(r));
    json_key(w, "errors"), json_int(w, (long long)r->error_count);
    json_key(w, "warnings"), json_int(w, (long long)r->warning_count);
    json_key(w, "notes"), json_int(w, (long long)r->note_count);
    json_key(w, "findings"), json_begin_array(w);
    for (size_t i = 0; i < r->finding_count; i++) {
        const sw_check_finding* f = &r->findings[i];
        json_newline(w);
        json_begin_object(w);
        json_key(w, "severity"), json_string(w, sw_check_severity_str(f->severity));
        json_key(w, "code"), json_string(w, f->id);
        json_key(w, "message"), json_string(w, f->message);
        json_index(w, "mesh", f->mesh);
        json_index(w, "primitive", f->primitive);
        json_index(w, "skin", f->skin);
        json_index(w, "joint", f->joint);
        json_index(w, "node", f->node);
        json_index(w, "animation", f->animation);
        json_index(w, "image", f->image);
        json_key(w, "count"), json_int(w, (long long)f->count);
        json_number(w, "value", f->value);
        json_key(w, "examples"), json_begin_array(w);
        for (size_t e = 0; e < f->example_count; e++) {
            const sw_check_example* x = &f->examples[e];
            json_begin_object(w);
            json_index(w, "vertex", x->vertex);
            json_index(w, "joint", x->joint);
            json_index(w, "other_joint", x->other_joint);
            json_number(w, "value", x->value);
            json_index(w, "animation", x->animation);
            json_number(w, "time", x->time_s);
            json_end_object(w);
        }
        json_end_array(w);
        if (f->poses) {
            json_key(w, "poses"), json_begin_array(w);
            for (size_t p = 0; p < 1 + r->animation_count; p++) {
                json_begin_object(w);
                json_index(w, "animation", (int64_t)p - 1);
                json_key(w, "name"), json_string(w, p ? r->animation_names[p - 1] : NULL);
                json_key(w, "count"), json_int(w, (long long)f->poses[p].count);
                json_number(w, "value", f->poses[p].value);
                json_number(w, "time", f->poses[p].time_s);
                json_end_object(w);
            }
            json_end_array(w);
        }
        json_end_object(w);
    }
    json_end_array(w);
    json_end_object(w);
    json_newline(w);
}

/* ---- the command -------------------------------------------------------------------------- */

int cmd_check(tool_args* args) {
    const char* model = NULL;
    bool json = false;
    long max_influences = 4;
    double threshold = 0.7;
    sw_import_options load = {0}; /* every format: sw_check_file reads them all */
    tool_error err;
    for (const char* arg; (arg = tool_args_next(args));) {
        const char* v;
        if (tool_args_is_help(arg)) return tool_print_help(args);
        if (tool_args_flag(arg, "--json")) json = true;
        else if (tool_args_flag(arg, "--allow-outside-paths"))
            load.gltf.allow_outside_paths = load.assimp.allow_outside_paths = load.iqm.allow_outside_paths = true;
        else if (tool_args_option(args, arg, "--max-influences")) {
            if (!(v = tool_args_value(args, "--max-influences", &err)) ||
                !tool_parse_int("--max-influences", v, 1, SW_CHECK_MAX_INFLUENCES, &max_influences, &err))
                return tool_usage(args, "%s", err.message);
        } else if (tool_args_option(args, arg, "--retention-threshold")) {
            if (!(v = tool_args_value(args, "--retention-threshold", &err)) ||
                !tool_parse_double("--retention-threshold", v, 0.0, 1.0, &threshold, &err))
                return tool_usage(args, "%s", err.message);
        } else if (arg[0] == '-' && arg[1]) {
            return tool_unknown_option(args, arg);
        } else if (model) {
            return tool_usage(args, "one MODEL only ('%s' and '%s')", model, arg);
        } else {
            model = arg;
        }
    }
    if (!model) return tool_usage(args, "no MODEL given");

    /* In the library 0 means the default threshold; here it means no vertex
       is ever below it, which is the check turned off. */
    sw_check_options options = {.max_influences = (int)max_influences, .retention_threshold = threshold};
    if (threshold == 0.0) options.disabled |= SW_CHECK_BIT(SW_CHECK_LBS_VOLUME_LOSS);
    sw_check_report* report = NULL;
    sw_diag diag;
    if (sw_check_file(model, &load, &options, &report, &diag) != SW_OK) {
        char message[TEXT_ESCAPE_BOUND(sizeof diag.message)];
        text_escape(message, sizeof message, diag.message, strlen(diag.message));
        tool_fail(args, "%s: %s", model, message);
        return 2;
    }
    bool written = true;
    if (json) {
        json_writer w;
        json_writer_init(&w, json_file_sink, stdout);
        print_json(&w, model, report, (int)max_influences, threshold);
        written = json_writer_finish(&w);
    } else {
        print_text(model, report);
    }
    int status = exit_status(report);
    sw_check_report_free(report);
    if (fflush(stdout) != 0 || ferror(stdout) || !written) {
        tool_fail(args, "cannot write to standard output");
        return 2;
    }
    return status;
}
