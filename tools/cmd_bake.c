/* sinew bake — textures computed from a model. One kind today: face-sdf,
   the face shadow threshold map of the toon renderer (sw_toon_bake_face_sdf,
   sinew/toon.h; the algorithm is described in src/toon/face_sdf.c and
   docs/cli.md). */
#include "bake_probes.h"
#include "text_escape.h"
#include "tool_common.h"

#include "sinew/toon.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* A private, static copy of stb_image_write, as in frame_output.c (Debian's
   libstb exports the same names, with process-wide tuning knobs). */
#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>

#define BAKE_DEFAULT_SIZE 512
#define BAKE_MIN_SIZE 16
#define BAKE_MAX_SIZE 4096

const char cmd_bake_help[] =
    "usage: sinew bake face-sdf MODEL [--head JOINT] [--material NAME|INDEX] [--size N]\n"
    "                           -o FILE.png [--quiet] [--allow-outside-paths]\n"
    "       sinew bake probes STAGE [--grid NX,NZ] [--height M] [--size N] [--time HOURS]\n"
    "                         -o FILE [--quiet] [--allow-outside-paths]\n"
    "\n"
    "probes: environment probes of a stage (a model file, or 'demo'), for\n"
    "render/view --probes FILE (docs/probes.md): one per node whose name starts\n"
    "with 'probe' (any case; its box the node's cube [-1,1]^3, fading over\n"
    "0.5 m), else an NX x NZ grid (default 6,6; at most 64 probes) over the\n"
    "stage's bounds, each probe at its cell's centre --height metres (default\n"
    "1) above the stage's bottom, its box the cell (and the stage's height),\n"
    "fading over half a cell outside it; six cube faces of N x N texels\n"
    "(default 32, 8..256) rendered there (with the sky of --time HOURS, else\n"
    "the default sky) and projected on SH9.\n"
    "\n"
    "face-sdf:\n"
    "Bakes the face shadow threshold map the toon renderer reads (a face\n"
    "material's face_sdf_texture): for a light turning around the head from\n"
    "the front (0 degrees) to the head's right side and behind (180), the lit\n"
    "part of the face at the rest pose (N.L > 0 with the normals of the mesh,\n"
    "in the head joint's frame) is drawn in texture space (TEXCOORD_0) every\n"
    "degree, each mask becomes a signed distance field, and each texel stores\n"
    "the threshold t = 0.5 - 0.5 cos(angle) at which it turns dark: R holds\n"
    "t < 0.5 (R = 510 t), A the upper half (A = 255 (2t - 1), R = 255); G = B = 0.\n"
    "The renderer lights a texel while t > h, h = 0.5 - 0.5 x (light's forward\n"
    "component in the head frame). See docs/cli.md, \"Face SDF baking\".\n"
    "\n"
    "options:\n"
    "  --head JOINT        the head joint, by node name, humanoid bone name or\n"
    "                      index (default: the humanoid's head, else the first\n"
    "                      node whose name ends in \"head\", any case); its\n"
    "                      world matrix at rest gives right (x), up (y) and\n"
    "                      forward (z)\n"
    "  --material M        the face material, by name or index (default: the\n"
    "                      first whose toon data says face, else the first whose\n"
    "                      name contains \"face\", any case)\n"
    "  --size N            width and height in texels, 16..4096 (default 512)\n"
    "  -o, --output FILE   the PNG to write (required; name it .png); missing\n"
    "                      folders are created; written to a temporary file and\n"
    "                      renamed when complete; a regular file or a new one\n"
    "                      (a link is followed), never MODEL\n"
    "  --quiet             no \"wrote FILE (...)\" line on stderr\n"
    "  --allow-outside-paths   let buffer URIs leave the model's folder\n"
    "  -h, --help          show this help\n"
    "\n"
    "exit status: 0 ok, 1 failure (the model, the bake or the output), 2 usage error\n";

typedef struct bake_options {
    const char* model;
    const char* head;
    const char* material;
    const char* out;
    long size;
    bool quiet;
    sw_gltf_options load;
} bake_options;

/* ASCII case-insensitive: `word` occurs in `name`. */
static bool name_has(const char* name, const char* word) {
    if (!name) return false;
    size_t n = strlen(word);
    for (const char* p = name; *p; p++) {
        size_t k = 0;
        while (k < n && p[k]) {
            char c = p[k];
            if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
            if (c != word[k]) break;
            k++;
        }
        if (k == n) return true;
    }
    return false;
}

/* The material: given by name or index, else the first toon face, else
   the first whose name says "face". */
static bool find_material(const tool_args* args, const sw_model* a, const char* spec, uint32_t* out,
                          tool_error* err) {
    if (spec) {
        for (size_t i = 0; i < a->material_count; i++)
            if (a->materials[i].name && strcmp(a->materials[i].name, spec) == 0) {
                *out = (uint32_t)i;
                return true;
            }
        char* end = NULL;
        errno = 0;
        long index = strtol(spec, &end, 10);
        if (end != spec && !*end && errno == 0 && index >= 0 && (size_t)index < a->material_count) {
            *out = (uint32_t)index;
            return true;
        }
        tool_suggest near;
        tool_suggest_init(&near, spec);
        for (size_t i = 0; i < a->material_count; i++)
            if (a->materials[i].name) tool_suggest_add(&near, a->materials[i].name, strlen(a->materials[i].name));
        char hint[300];
        tool_suggest_text(&near, hint, sizeof hint);
        return tool_error_set(err, "--material: %s has no material '%s' (%s%sit has %zu)", a->path, spec, hint,
                              hint[0] ? "; " : "", a->material_count);
    }
    if (a->material_count) {
        sw_toon_material* toon = calloc(a->material_count, sizeof *toon);
        sw_diag diag;
        if (!toon) return tool_error_set(err, "out of memory");
        bool found = false;
        if (sw_toon_read(a, toon, &diag) == SW_OK) {
            for (size_t i = 0; i < a->material_count && !found; i++)
                if (toon[i].present && toon[i].kind == SW_TOON_FACE) *out = (uint32_t)i, found = true;
        } else {
            char message[TEXT_ESCAPE_BOUND(sizeof diag.message)];
            text_escape(message, sizeof message, diag.message, strlen(diag.message));
            tool_warn(args, "%s; choosing the face material by name", message);
        }
        free(toon);
        if (found) return true;
    }
    for (size_t i = 0; i < a->material_count; i++)
        if (name_has(a->materials[i].name, "face")) {
            *out = (uint32_t)i;
            return true;
        }
    return tool_error_set(err,
                          "%s: no face material (none has toon data of kind face or a name containing \"face\"); "
                          "give --material",
                          a->path);
}

/* The head joint when --head is not given: the humanoid's head (a node
   named "head" first, as tool_find_node), else the first node whose name
   ends in "head" ("mixamorig:Head", "J_Bip_C_Head"). */
static bool find_head(const sw_model* a, uint32_t* out, tool_error* err) {
    if (tool_find_node(a, "--head", "head", out, NULL)) return true;
    for (size_t i = 0; i < a->node_count; i++) {
        const char* name = a->nodes[i].name;
        size_t n = name ? strlen(name) : 0;
        if (n >= 4 && tool_name_distance(name + n - 4, 4, "head", 4, 0) == 0) {
            *out = (uint32_t)i;
            return true;
        }
    }
    return tool_error_set(err, "%s: no head joint found (no humanoid head, no node named like a head); give --head JOINT",
                          a->path);
}

static void png_sink(void* context, void* data, int size) {
    tool_atomic_write(context, data, (size_t)size); /* a failure is kept in write_errno for the commit */
}

static bool write_png(const char* path, const uint8_t* rgba, int size, tool_error* err) {
    tool_atomic_file file;
    if (!tool_atomic_open(&file, path, err)) return false;
    if (!stbi_write_png_to_func(png_sink, &file, size, size, 4, rgba, size * 4)) {
        tool_atomic_abort(&file);
        return tool_error_set(err, "cannot write '%s': PNG encoding failed (out of memory)", path);
    }
    return tool_atomic_commit(&file, err);
}

/* Prints a message that quotes the model's strings, escaped for a terminal. */
static int fail_escaped(const tool_args* args, const char* text) {
    char message[TEXT_ESCAPE_BOUND(sizeof ((tool_error*)0)->message)];
    text_escape(message, sizeof message, text, strlen(text));
    return tool_fail(args, "%s", message);
}

static int bake_face_sdf(tool_args* args) {
    bake_options o = {.size = BAKE_DEFAULT_SIZE};
    tool_error err;
    for (const char* arg; (arg = tool_args_next(args));) {
        const char *v, *name;
        if (tool_args_is_help(arg)) return tool_print_help(args);
        if (tool_args_flag(arg, "--quiet")) {
            o.quiet = true;
        } else if (tool_args_flag(arg, "--allow-outside-paths")) {
            o.load.allow_outside_paths = true;
        } else if (tool_args_option(args, arg, "--head")) {
            if (!(o.head = tool_args_value(args, "--head", &err))) return tool_usage(args, "%s", err.message);
        } else if (tool_args_option(args, arg, "--material")) {
            if (!(o.material = tool_args_value(args, "--material", &err))) return tool_usage(args, "%s", err.message);
        } else if (tool_args_option(args, arg, "--size")) {
            if (!(v = tool_args_value(args, "--size", &err)) ||
                !tool_parse_int("--size", v, BAKE_MIN_SIZE, BAKE_MAX_SIZE, &o.size, &err))
                return tool_usage(args, "%s", err.message);
        } else if ((name = tool_args_output(args, arg, NULL))) {
            if (o.out) return tool_usage(args, "one output file only");
            if (!(o.out = tool_args_value(args, name, &err))) return tool_usage(args, "%s", err.message);
        } else if (arg[0] == '-' && arg[1]) {
            return tool_unknown_option(args, arg);
        } else if (o.model) {
            return tool_usage(args, "one MODEL only ('%s' and '%s')", o.model, arg);
        } else {
            o.model = arg;
        }
    }
    if (!o.model) return tool_usage(args, "no MODEL given");
    if (!o.out) return tool_usage(args, "no output file given (-o FILE.png)");
    if (tool_is_stdout(o.out)) return tool_usage(args, "the map goes to a file, not to standard output: give -o FILE.png");
    if (tool_is_folder(o.out))
        return tool_usage(args, "output '%s' is a folder; name the PNG to write in it (%s%sface_sdf.png)", o.out, o.out,
                          o.out[strlen(o.out) - 1] == '/' ? "" : "/");
    if (!tool_has_extension(o.out, ".png")) return tool_usage(args, "output '%s': the map is a PNG; name it .png", o.out);

    /* The output, before anything is loaded: a device, a FIFO, a folder,
       or the model itself (or a file it names) is refused now. */
    {
        tool_inputs inputs = {0};
        bool listed = tool_inputs_add_model(&inputs, o.model);
        bool ok = listed && tool_output_check(o.out, &inputs, &err);
        tool_inputs_free(&inputs);
        if (!ok) return tool_fail(args, "%s", listed ? err.message : "out of memory");
    }

    sw_model* asset = NULL;
    sw_diag diag;
    if (tool_load_model(o.model, &o.load, &asset, &diag) != SW_OK) return fail_escaped(args, diag.message);
    int status = TOOL_EXIT_OK;
    uint8_t* rgba = NULL;
    uint32_t head = 0, material = 0;
    if (o.head ? !tool_find_node(asset, "--head", o.head, &head, &err) : !find_head(asset, &head, &err)) {
        status = o.head ? tool_usage(args, "%s", err.message) : tool_fail(args, "%s", err.message);
        goto done;
    }
    if (!find_material(args, asset, o.material, &material, &err)) {
        status = o.material ? tool_usage(args, "%s", err.message) : fail_escaped(args, err.message);
        goto done;
    }
    rgba = malloc((size_t)o.size * (size_t)o.size * 4);
    if (!rgba) {
        status = tool_fail(args, "out of memory for a %ld x %ld map", o.size, o.size);
        goto done;
    }
    if (sw_toon_bake_face_sdf(asset, material, head, (int)o.size, rgba, &diag) != SW_OK) {
        status = fail_escaped(args, diag.message);
        goto done;
    }
    if (!write_png(o.out, rgba, (int)o.size, &err)) {
        status = tool_fail(args, "%s", err.message);
        goto done;
    }
    {
        const char* mname = asset->materials[material].name ? asset->materials[material].name : "";
        const char* hname = asset->nodes[head].name ? asset->nodes[head].name : "";
        char m_esc[TEXT_ESCAPE_BOUND(64)], h_esc[TEXT_ESCAPE_BOUND(64)];
        text_escape(m_esc, sizeof m_esc, mname, strlen(mname) < 64 ? strlen(mname) : 64);
        text_escape(h_esc, sizeof h_esc, hname, strlen(hname) < 64 ? strlen(hname) : 64);
        tool_wrote(o.quiet, "%s (face SDF %ldx%ld, material %u \"%s\", head node \"%s\")", o.out, o.size, o.size,
                   material, m_esc, h_esc);
    }
done:
    free(rgba);
    sw_model_free(asset);
    return status;
}

int cmd_bake(tool_args* args) {
    const char* kind = tool_args_next(args);
    if (!kind) return tool_usage(args, "no kind of map given (sinew bake face-sdf MODEL ...)");
    if (tool_args_is_help(kind)) return tool_print_help(args);
    if (strcmp(kind, "face-sdf") == 0) return bake_face_sdf(args);
    if (strcmp(kind, "probes") == 0) return bake_probes(args);
    return tool_usage(args, "unknown kind of map '%s' (known: face-sdf, probes)", kind);
}
