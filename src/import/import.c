/* Format-neutral loading (sinew/import.h): picks the glTF, IQM or Assimp
   importer from the file's first bytes and its name. */
#include <stdlib.h>
#include <string.h>

#include "sinew/import.h"
#include "../import/file_internal.h"
#include "../base/base_internal.h"

typedef enum sw__importer {
    SW__IMPORT_GLTF = 0,
    SW__IMPORT_IQM,
    SW__IMPORT_ASSIMP,
    SW__IMPORT_NONE, /* no model sinew reads */
} sw__importer;

static const char* sw__import_extension(const char* name) {
    const char* base = sw__path_base_name(name);
    const char* dot = strrchr(base, '.');
    return dot && dot != base ? dot + 1 : "";
}

static bool sw__import_same_text(const char* a, const char* b) {
    for (; *a && *b; a++, b++) {
        char x = *a >= 'A' && *a <= 'Z' ? (char)(*a - 'A' + 'a') : *a;
        char y = *b >= 'A' && *b <= 'Z' ? (char)(*b - 'A' + 'a') : *b;
        if (x != y) return false;
    }
    return *a == *b;
}

/* The formats sinew sends to Assimp, by extension, whether or not this
   build has it (so that a build without it can say what the file needed).
   The one list: the choice of importer, the messages and
   sw_import_format_list read it. */
typedef struct sw__import_format {
    const char* extension;
    const char* name;
} sw__import_format;

static const sw__import_format sw__assimp_formats[] = {
    {"fbx", "FBX"},      {"dae", "Collada"},     {"bvh", "BVH"},   {"x", "DirectX .x"}, {"smd", "SMD"},
    {"md5mesh", "MD5"},  {"md5anim", "MD5"},     {"ms3d", "MS3D"}, {"obj", "OBJ"},      {"3ds", "3DS"},
    {"b3d", "B3D"},
};

static bool sw__import_assimp_extension(const char* extension) {
    for (size_t i = 0; i < sizeof sw__assimp_formats / sizeof sw__assimp_formats[0]; i++)
        if (sw__import_same_text(extension, sw__assimp_formats[i].extension)) return true;
    return false;
}

size_t sw_import_format_list(char* out, size_t size) {
    size_t used = 0;
    const char* parts[2 + sizeof sw__assimp_formats / sizeof sw__assimp_formats[0]];
    size_t count = 0;
    parts[count++] = "glTF/GLB/VRM";
    parts[count++] = "IQM";
    for (size_t i = 0; i < sizeof sw__assimp_formats / sizeof sw__assimp_formats[0]; i++)
        if (i == 0 || strcmp(sw__assimp_formats[i].name, sw__assimp_formats[i - 1].name) != 0)
            parts[count++] = sw__assimp_formats[i].name;
    for (size_t i = 0; i < count; i++) {
        const char* sep = i == 0 ? "" : i == 2 ? " and, through Assimp, " : ", ";
        size_t n = strlen(sep) + strlen(parts[i]);
        if (out && used + n < size) {
            memcpy(out + used, sep, strlen(sep));
            memcpy(out + used + strlen(sep), parts[i], strlen(parts[i]));
            out[used + n] = '\0';
        }
        used += n;
    }
    if (out && size && used >= size) out[0] = '\0'; /* too small: nothing rather than half a list */
    return used;
}

/* What a file that is no model looks like, by its first bytes: "a PNG
   image", ...; NULL when nothing is recognised. */
static const char* sw__import_looks_like(const uint8_t* head, size_t size) {
    static const struct {
        const char* magic;
        size_t length;
        const char* what;
    } magics[] = {
        {"\x89PNG\r\n\x1a\n", 8, "a PNG image"}, {"\xFF\xD8\xFF", 3, "a JPEG image"},
        {"GIF87a", 6, "a GIF image"},            {"GIF89a", 6, "a GIF image"},
        {"PK\x03\x04", 4, "a ZIP archive"},      {"%PDF-", 5, "a PDF document"},
        {"\x1f\x8b", 2, "a gzip archive"},       {"\x7f" "ELF", 4, "an ELF executable"},
        {"Kaydara FBX Binary", 18, "an FBX file (name it .fbx)"},
        {"DDS ", 4, "a DDS texture"},            {"\xABKTX", 4, "a KTX texture"},
    };
    for (size_t i = 0; i < sizeof magics / sizeof magics[0]; i++)
        if (size >= magics[i].length && memcmp(head, magics[i].magic, magics[i].length) == 0) return magics[i].what;
    if (size >= 12 && memcmp(head, "RIFF", 4) == 0 && memcmp(head + 8, "WEBP", 4) == 0) return "a WebP image";
    if (size == 0) return "an empty file";
    for (size_t i = 0; i < size; i++)
        if (head[i] < 0x20 && head[i] != '\t' && head[i] != '\n' && head[i] != '\r') return NULL;
    return "text, not glTF JSON";
}

/* The message for a file no importer takes. */
static sw_result sw__import_not_a_model(const char* name, const char* what, sw_diag* diag) {
    char formats[200];
    sw_import_format_list(formats, sizeof formats);
    return sw_diag_set(diag, SW_ERR_UNSUPPORTED, -1, "%.60s: not a model file (it looks like %s); sinew reads %s",
                       name ? sw__path_base_name(name) : "<memory>", what ? what : "data of no format sinew knows",
                       formats);
}

/* Content first: a GLB header or JSON text is glTF, IQM's magic is IQM,
   whatever the name. A file that has neither and a name no importer
   takes is no model (SW__IMPORT_NONE); nor is a known non-model format
   (an image, an archive) under a glTF name. */
static sw__importer sw__import_choose(const uint8_t* head, size_t size, const char* name) {
    if (size >= 4 && memcmp(head, "glTF", 4) == 0) return SW__IMPORT_GLTF;
    if (sw_iqm_is_iqm(head, size)) return SW__IMPORT_IQM;
    size_t i = 0;
    if (size >= 3 && memcmp(head, "\xEF\xBB\xBF", 3) == 0) i = 3;
    while (i < size && (head[i] == ' ' || head[i] == '\t' || head[i] == '\n' || head[i] == '\r')) i++;
    if (i < size && head[i] == '{') return SW__IMPORT_GLTF;
    const char* extension = name ? sw__import_extension(name) : "";
    const char* looks = sw__import_looks_like(head, size);
    if (sw__import_same_text(extension, "gltf") || sw__import_same_text(extension, "glb") ||
        sw__import_same_text(extension, "vrm"))
        /* the glTF reader's message says more of a broken glTF (or empty, or text) file */
        return looks && size && strncmp(looks, "text", 4) != 0 ? SW__IMPORT_NONE : SW__IMPORT_GLTF;
    /* Our own reader, not Assimp's (which reads IQM meshes only); it says
       when an .iqm file is not one */
    if (sw__import_same_text(extension, "iqm")) return SW__IMPORT_IQM;
    if (sw__import_assimp_extension(extension) || sw_assimp_reads_extension(extension)) return SW__IMPORT_ASSIMP;
    return SW__IMPORT_NONE;
}

sw_import_options sw_import_options_from_gltf(const sw_gltf_options* gltf) {
    sw_import_options o;
    memset(&o, 0, sizeof o);
    if (!gltf) return o;
    o.gltf = *gltf;
    o.assimp.allow_outside_paths = gltf->allow_outside_paths;
    o.assimp.max_influences = gltf->max_influences;
    o.assimp.keep_raw_influences = gltf->keep_raw_influences;
    o.iqm.allow_outside_paths = gltf->allow_outside_paths;
    o.iqm.keep_raw_influences = gltf->keep_raw_influences;
    return o;
}

static sw_result sw__import_without_assimp(const char* name, sw_diag* diag) {
    const char* extension = sw__import_extension(name);
    char upper[16] = "";
    for (size_t i = 0; extension[i] && i + 1 < sizeof upper; i++)
        upper[i] = (char)(extension[i] >= 'a' && extension[i] <= 'z' ? extension[i] - 'a' + 'A' : extension[i]);
    return sw_diag_set(diag, SW_ERR_UNSUPPORTED, -1,
                       "%s: %s files need the Assimp importer, and this build of sinew has none (built with "
                       "-DSW_ASSIMP=OFF)",
                       sw__path_base_name(name), upper[0] ? upper : "such");
}

/* glTF's "format" field: what the container was. */
static void sw__import_mark_gltf(sw_model* model, bool glb) {
    model->format = glb ? "GLB" : "glTF";
    model->unit_scale_to_metres = 1.0f; /* glTF 2.0: units are metres, +Y up */
    model->up_axis_read[0] = '+';
    model->up_axis_read[1] = 'Y';
}

sw_result sw_import_memory(const void* data, size_t size, const char* name, const char* base_dir,
                           const sw_import_options* options, sw_model** out_model, sw_diag* diag) {
    if (out_model) *out_model = NULL;
    if (!out_model || (!data && size))
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "sw_import_memory: no data or no out_model");
    sw_import_options defaults;
    memset(&defaults, 0, sizeof defaults);
    if (!options) options = &defaults;
    sw__importer which = sw__import_choose(data, size, name);
    if (which == SW__IMPORT_NONE)
        return sw__import_not_a_model(name, sw__import_looks_like(data, size < 64 ? size : 64), diag);
    if (which == SW__IMPORT_IQM) return sw_iqm_load_memory(data, size, name, base_dir, &options->iqm, out_model, diag);
    if (which == SW__IMPORT_ASSIMP) {
        if (!sw_assimp_available()) return sw__import_without_assimp(name, diag);
        return sw_assimp_load_memory(data, size, name, base_dir, &options->assimp, out_model, diag);
    }
    sw_result r = sw_gltf_load_memory(data, size, name, base_dir, &options->gltf, out_model, diag);
    if (r == SW_OK) sw__import_mark_gltf(*out_model, size >= 4 && memcmp(data, "glTF", 4) == 0);
    return r;
}

static void* sw__import_alloc(void* user, size_t size) {
    (void)user;
    return sw__malloc(size ? size : 1);
}

static void sw__import_free(void* user, void* ptr) {
    (void)user;
    sw__free(ptr);
}

sw_result sw_import_file(const char* path, const sw_import_options* options, sw_model** out_model, sw_diag* diag) {
    if (out_model) *out_model = NULL;
    if (!path || !out_model)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "sw_import_file: no path or no out_model");
    sw_import_options defaults;
    memset(&defaults, 0, sizeof defaults);
    if (!options) options = &defaults;
    /* The first bytes decide; the importer then reads the file itself
       (with its own checks and limits). A file that cannot be read is
       left to the glTF importer, whose messages say why, unless its name
       says it is another format (then that importer's reader says why). */
    uint8_t* head = NULL;
    size_t size = 0;
    sw_diag inner;
    sw__importer which = SW__IMPORT_GLTF;
    bool glb = false;
    if (sw__read_file(path, sw__path_base_name(path), SIZE_MAX, 64, sw__import_alloc, sw__import_free, NULL, &head,
                      &size, &inner) == SW_OK) {
        which = sw__import_choose(head, size, path);
        glb = size >= 4 && memcmp(head, "glTF", 4) == 0;
        const char* looks = sw__import_looks_like(head, size);
        sw__free(head);
        if (which == SW__IMPORT_NONE) return sw__import_not_a_model(path, looks, diag);
    } else if (inner.result == SW_ERR_OUT_OF_MEMORY || sw__import_assimp_extension(sw__import_extension(path)) ||
               sw__import_same_text(sw__import_extension(path), "iqm")) {
        if (diag) *diag = inner;
        return inner.result;
    }
    if (which == SW__IMPORT_IQM) return sw_iqm_load_file(path, &options->iqm, out_model, diag);
    if (which == SW__IMPORT_ASSIMP) {
        if (!sw_assimp_available()) return sw__import_without_assimp(path, diag);
        return sw_assimp_load_file(path, &options->assimp, out_model, diag);
    }
    sw_result r = sw_gltf_load_file(path, &options->gltf, out_model, diag);
    if (r == SW_OK) sw__import_mark_gltf(*out_model, glb);
    return r;
}
