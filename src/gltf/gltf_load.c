/* glTF 2.0 loader: the document — its header, the order of the passes,
   the finishing step and the public entry points (see sinew/gltf.h).

   One pass per top-level array, in dependency order; the passes live in
   the topic files behind gltf_internal.h. The asset lives in an arena (a
   list of malloc'd blocks) freed by sw_model_free; load-time scratch lives
   in a second arena and in a few large temporaries, all charged against
   options.max_memory and freed before the loader returns. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gltf_internal.h"
#include "../base/base_internal.h"
#include "../base/cjson_alloc_internal.h"

/* 4 GiB; on a 32-bit target (WebAssembly) 2 GiB, what its address space
   can give (4 << 30 would wrap to 0 there and refuse every file). */
#if SIZE_MAX > 0xFFFFFFFFu
#define SW__DEFAULT_MAX_MEMORY ((size_t)4 << 30)
#else
#define SW__DEFAULT_MAX_MEMORY ((size_t)1 << 31)
#endif

/* ---- document header ------------------------------------------------------------ */

static bool sw__parse_version(const char* s, long* major, long* minor) {
    char* end;
    if (!(*s >= '0' && *s <= '9')) return false;
    *major = strtol(s, &end, 10);
    if (*end != '.' || !(end[1] >= '0' && end[1] <= '9')) return false;
    *minor = strtol(end + 1, &end, 10);
    return *end == '\0';
}

/* Every extension sinew knows, the one list: a name in extensionsUsed
   that is not here is named in a warning (its data is not drawn, played
   or read). */
typedef enum sw__extension_use {
    /* applied by this loader: a file may require it, and its data is not
       kept as an extension record */
    SW__EXTENSION_LOADED,
    /* kept as an extension record (sw_model_extension) for the reader
       named beside it */
    SW__EXTENSION_KEPT,
    /* deliberately ignored: nothing sinew draws or plays depends on it */
    SW__EXTENSION_IGNORED,
} sw__extension_use;

static const struct {
    const char* name;
    sw__extension_use use;
} sw__known_extensions[] = {
    {"KHR_mesh_quantization", SW__EXTENSION_LOADED},
    {"KHR_texture_transform", SW__EXTENSION_LOADED},
    {"KHR_materials_unlit", SW__EXTENSION_LOADED},
    {"KHR_materials_emissive_strength", SW__EXTENSION_LOADED},
    {"VRMC_materials_hdr_emissiveMultiplier", SW__EXTENSION_LOADED},
    {"KHR_materials_transmission", SW__EXTENSION_LOADED},      /* gltf_materials.c */
    {"KHR_materials_volume", SW__EXTENSION_LOADED},
    {"KHR_materials_ior", SW__EXTENSION_LOADED},
    {"KHR_lights_punctual", SW__EXTENSION_LOADED},             /* gltf_lights.c */
    {"VRMC_vrm", SW__EXTENSION_KEPT},                          /* sw_vrm_read (vrm_read.c) */
    {"VRM", SW__EXTENSION_KEPT},                               /* sw_vrm_read, sw_toon_read, sw_spring_read */
    {"VRMC_springBone", SW__EXTENSION_KEPT},                   /* sw_spring_read (spring_read.c) */
    {"VRMC_springBone_extended_collider", SW__EXTENSION_KEPT}, /* inside VRMC_springBone's colliders */
    {"VRMC_node_constraint", SW__EXTENSION_KEPT},              /* sw_constraint_read (constraint_read.c) */
    {"VRMC_materials_mtoon", SW__EXTENSION_KEPT},              /* sw_toon_read (toon_read.c) */
    {"VRMC_vrm_animation", SW__EXTENSION_KEPT},                /* sw_vrma_read (vrma_read.c) */
    {"SW_materials_toon", SW__EXTENSION_KEPT},                 /* sw_toon_read; docs/extensions.md */
    {"SW_spring_bones", SW__EXTENSION_KEPT},                   /* sw_spring_read; docs/extensions.md */
    {"SW_materials_snow", SW__EXTENSION_LOADED},               /* gltf_materials.c; docs/extensions.md */
    {"SW_decal", SW__EXTENSION_KEPT},                          /* sw_decal_read (decal_read.c); docs/decals.md */
    {"KHR_xmp_json_ld", SW__EXTENSION_IGNORED},                /* metadata only */
};

/* The use of the known extension `name`; false when sinew does not know it. */
static bool sw__known_extension(const char* name, sw__extension_use* use) {
    for (size_t k = 0; k < sizeof sw__known_extensions / sizeof sw__known_extensions[0]; k++)
        if (strcmp(name, sw__known_extensions[k].name) == 0) {
            *use = sw__known_extensions[k].use;
            return true;
        }
    return false;
}

static bool sw__is_supported_extension(const char* name) {
    sw__extension_use use;
    return sw__known_extension(name, &use) && use == SW__EXTENSION_LOADED;
}

static sw_result sw__parse_header(sw__loader* L) {
    const cJSON* asset;
    const char *version, *min_version, *generator;
    if (sw__get_object(L, L->root, "", "asset", true, &asset) != SW_OK) return L->diag.result;
    const cJSON* v = sw__member(asset, "version");
    if (cJSON_IsNumber(v) && v->valuedouble < 2.0) /* some 1.0 files write a number */
        return sw__fail(L, SW_ERR_UNSUPPORTED, "asset.version", "glTF 1.0 is not supported (only glTF 2.x)");
    if (sw__get_string(L, asset, "asset", "version", true, &version) != SW_OK) return L->diag.result;
    long major, minor;
    if (!sw__parse_version(version, &major, &minor))
        return sw__fail(L, SW_ERR_INVALID_DATA, "asset.version", "'%s' is not <major>.<minor>", version);
    if (major == 1)
        return sw__fail(L, SW_ERR_UNSUPPORTED, "asset.version",
                        "glTF 1.0 is not supported (only glTF 2.x; the file says %s)", version);
    if (major != 2)
        return sw__fail(L, SW_ERR_UNSUPPORTED, "asset.version", "glTF %s is not supported (only glTF 2.x)", version);
    if (sw__get_string(L, asset, "asset", "minVersion", false, &min_version) != SW_OK) return L->diag.result;
    if (min_version) {
        long min_major, min_minor;
        if (!sw__parse_version(min_version, &min_major, &min_minor))
            return sw__fail(L, SW_ERR_INVALID_DATA, "asset.minVersion", "'%s' is not <major>.<minor>", min_version);
        if (min_major != 2 || min_minor > 0)
            return sw__fail(L, SW_ERR_UNSUPPORTED, "asset.minVersion", "%s is newer than this loader (glTF 2.0)",
                            min_version);
    }
    if (sw__get_string(L, asset, "asset", "generator", false, &generator) != SW_OK) return L->diag.result;
    L->owner->model.generator = sw__strdup(L, generator);
    if (generator && !L->owner->model.generator) return L->diag.result;

    const cJSON *used, *required, *e;
    if (sw__get_array(L, L->root, "", "extensionsUsed", false, &used) != SW_OK) return L->diag.result;
    size_t i = 0;
    cJSON_ArrayForEach(e, used) {
        if (!cJSON_IsString(e) || !e->valuestring)
            return sw__fail(L, SW_ERR_INVALID_DATA, sw__pathf("extensionsUsed[%zu]", i).s, "expected a string");
        if (strcmp(e->valuestring, "KHR_mesh_quantization") == 0) L->quantization_declared = true;
        sw__extension_use use;
        if (!sw__known_extension(e->valuestring, &use))
            sw__warn(L, sw__pathf("extensionsUsed[%zu]", i).s, "%.80s is not supported; ignored", e->valuestring);
        i++;
    }
    if (sw__get_array(L, L->root, "", "extensionsRequired", false, &required) != SW_OK) return L->diag.result;
    i = 0;
    cJSON_ArrayForEach(e, required) {
        if (!cJSON_IsString(e) || !e->valuestring)
            return sw__fail(L, SW_ERR_INVALID_DATA, sw__pathf("extensionsRequired[%zu]", i).s, "expected a string");
        if (!sw__is_supported_extension(e->valuestring))
            return sw__fail(L, SW_ERR_UNSUPPORTED, sw__pathf("extensionsRequired[%zu]", i).s,
                            "the file requires %s, which is not supported", e->valuestring);
        if (strcmp(e->valuestring, "KHR_mesh_quantization") == 0) L->quantization_declared = true;
        i++;
    }
    /* `scene` is range-checked once scenes are read; its type is checked
       now, so a mistyped file says so before anything else fails. */
    const cJSON* scene = sw__member(L->root, "scene");
    size_t unused;
    if (scene && sw__value_uint(L, scene, "scene", sw__max_size, &unused) != SW_OK) return L->diag.result;
    return SW_OK;
}

/* ---- extension data ---------------------------------------------------------------------- */

/* A JSON value as compact text in the asset. cJSON prints into memory of
   its own, charged while it lives (as the parsed tree is) and freed before
   this returns. */
static const char* sw__json_text(sw__loader* L, const cJSON* value, const char* where) {
    char* text = cJSON_PrintUnformatted(value);
    if (!text) {
        sw__fail(L, SW_ERR_OUT_OF_MEMORY, where, "out of memory");
        return NULL;
    }
    size_t size = strlen(text) + 1;
    char* copy = NULL;
    if (sw__charge(L, size)) {
        copy = sw__arena_alloc(L, L->arena, size);
        if (copy) memcpy(copy, text, size);
        L->used -= size;
    }
    cJSON_free(text);
    return copy;
}

/* The records of one object's `extensions`: counted (out == NULL) or
   stored at out[*count]. A non-object `extensions` is ignored with a
   warning (given when counting). */
static sw_result sw__object_extensions(sw__loader* L, const cJSON* object, const char* path, sw_model_object kind,
                                       size_t index, sw_model_extension* out, size_t* count) {
    const cJSON* extensions = sw__member(object, "extensions");
    if (!extensions) return SW_OK;
    sw__path where = sw__at(path, "extensions");
    if (!cJSON_IsObject(extensions)) {
        if (!out) sw__warn(L, where.s, "expected an object; ignored");
        return SW_OK;
    }
    const cJSON* e;
    cJSON_ArrayForEach(e, extensions) {
        if (!e->string || sw__is_supported_extension(e->string)) continue;
        if (out) {
            sw_model_extension* record = &out[*count];
            record->object = kind;
            record->index = (uint32_t)index;
            if (!(record->name = sw__strdup(L, e->string)) ||
                !(record->json = sw__json_text(L, e, sw__at(where.s, e->string).s)))
                return L->diag.result;
        }
        (*count)++;
    }
    return SW_OK;
}

/* Every extension of the root, the nodes, meshes and materials that the
   loader does not interpret, kept for later stages (toon materials, spring
   bones, humanoid maps): counted, then stored. Node records name the file's
   index until sw__order_nodes renumbers them. */
static sw_result sw__keep_extensions(sw__loader* L) {
    const struct {
        const sw__jarray* items;
        const char* key;
        sw_model_object kind;
    } arrays[] = {
        {&L->nodes, "nodes", SW_MODEL_OBJECT_NODE},
        {&L->meshes, "meshes", SW_MODEL_OBJECT_MESH},
        {&L->materials, "materials", SW_MODEL_OBJECT_MATERIAL},
    };
    sw_model_extension* out = NULL;
    size_t total = 0;
    for (int pass = 0; pass < 2; pass++) {
        size_t count = 0;
        if (sw__object_extensions(L, L->root, "", SW_MODEL_OBJECT_MODEL, 0, out, &count) != SW_OK)
            return L->diag.result;
        for (size_t a = 0; a < sizeof arrays / sizeof arrays[0]; a++)
            for (size_t i = 0; i < arrays[a].items->count; i++)
                if (sw__object_extensions(L, arrays[a].items->items[i], sw__pathf("%s[%zu]", arrays[a].key, i).s,
                                          arrays[a].kind, i, out, &count) != SW_OK)
                    return L->diag.result;
        if (pass == 0) {
            if (count == 0) return SW_OK;
            total = count;
            if (!(out = sw__array(L, L->arena, total, sizeof *out))) return L->diag.result;
        }
    }
    L->owner->model.extensions = out;
    L->owner->model.extension_count = total;
    return SW_OK;
}

/* ---- the document -------------------------------------------------------------------- */

static sw_result sw__finish(sw__loader* L) {
    sw_model* asset = &L->owner->model;
    size_t offset = 0;
    for (size_t i = 0; i < L->nodes.count; i++) {
        sw_model_node* node = &L->nodes_out[i];
        if (offset > UINT32_MAX) return sw__fail(L, SW_ERR_INVALID_DATA, NULL, "too many morph weights");
        node->weight_offset = (uint32_t)offset;
        if (node->mesh >= 0) offset += L->meshes_out[node->mesh].weight_count;
    }
    asset->weight_count = offset;
    size_t palette = 0;
    for (size_t s = 0; s < asset->skin_count; s++) {
        ((sw_model_skin*)&asset->skins[s])->palette_offset = palette;
        palette += asset->skins[s].joint_count;
    }
    asset->skin_joint_count = palette;
    if (L->quantization_used && !L->quantization_declared)
        sw__warn(L, NULL, "integer vertex attributes without KHR_mesh_quantization in extensionsUsed");
    if (L->warnings_dropped) {
        char note[64];
        snprintf(note, sizeof note, "%zu more warnings not stored", L->warnings_dropped);
        sw__store_warning(L, NULL, note);
    }
    if (L->warning_count) {
        const char** lines = sw__array(L, L->arena, L->warning_count, sizeof *lines);
        if (!lines) return L->diag.result;
        size_t i = 0;
        for (sw__warning* w = L->warnings; w && i < L->warning_count; w = w->next) lines[i++] = w->text;
        asset->warnings = lines;
        asset->warning_count = L->warning_count;
    }
    if (sw__order_nodes(L) != SW_OK) return L->diag.result;
    asset->allow_outside_paths = L->allow_outside;
    if (L->base_dir && !(asset->base_dir = sw__strdup(L, L->base_dir))) return L->diag.result;
    return SW_OK;
}

/* The memory plan (gltf_internal.h): every count the meshes, skins and
   animations passes will decode, checked against the file and against
   max_memory before they allocate anything. The message names the
   largest array, so that a file declaring one huge accessor says which. */
static sw_result sw__plan_memory(sw__loader* L) {
    sw__plan plan = {.largest_accessor = -1};
    if (sw__plan_meshes(L, &plan) != SW_OK || sw__plan_skins(L, &plan) != SW_OK ||
        sw__plan_animations(L, &plan) != SW_OK)
        return L->diag.result;
    size_t need = plan.kept > SIZE_MAX - plan.temp ? SIZE_MAX : plan.kept + plan.temp;
    if (need <= L->max_memory - L->used) return SW_OK;
    char largest[48] = "one set of arrays";
    if (plan.largest_accessor >= 0) snprintf(largest, sizeof largest, "accessors[%d]", (int)plan.largest_accessor);
    sw__fail(L, SW_ERR_OUT_OF_MEMORY, plan.largest_where.s,
             "%s decodes to %zu bytes, all arrays to %zu: more than options.max_memory allows (%zu bytes in use, "
             "%zu more asked, limit %zu)",
             largest, plan.largest, need, L->used, need, L->max_memory);
    L->diag.index = plan.largest_accessor;
    return L->diag.result;
}

static sw_result sw__parse_document(sw__loader* L) {
    if (sw__parse_header(L) != SW_OK) return L->diag.result;
    sw__warn_vrm0_shaders(L);
    const cJSON* cameras;
    if (sw__get_array(L, L->root, "", "cameras", false, &cameras) != SW_OK) return L->diag.result;
    L->cameras.count = cameras ? (size_t)cJSON_GetArraySize(cameras) : 0;
    if (sw__collect(L, "buffers", &L->buffers) != SW_OK || sw__collect(L, "bufferViews", &L->buffer_views) != SW_OK ||
        sw__collect(L, "accessors", &L->accessors) != SW_OK || sw__collect(L, "images", &L->images) != SW_OK ||
        sw__collect(L, "samplers", &L->samplers) != SW_OK || sw__collect(L, "textures", &L->textures) != SW_OK ||
        sw__collect(L, "materials", &L->materials) != SW_OK || sw__collect(L, "meshes", &L->meshes) != SW_OK ||
        sw__collect(L, "nodes", &L->nodes) != SW_OK || sw__collect(L, "skins", &L->skins) != SW_OK ||
        sw__collect(L, "scenes", &L->scenes) != SW_OK || sw__collect(L, "animations", &L->animations) != SW_OK)
        return L->diag.result;
    if (sw__load_buffers(L) != SW_OK || sw__parse_buffer_views(L) != SW_OK || sw__parse_accessors(L) != SW_OK ||
        sw__plan_memory(L) != SW_OK || sw__parse_samplers(L) != SW_OK || sw__parse_images(L) != SW_OK ||
        sw__parse_textures(L) != SW_OK || sw__parse_materials(L) != SW_OK || sw__parse_meshes(L) != SW_OK ||
        sw__parse_nodes(L) != SW_OK || sw__parse_skins(L) != SW_OK || sw__parse_scenes(L) != SW_OK ||
        sw__parse_lights(L) != SW_OK || sw__check_skinned_nodes(L) != SW_OK || sw__parse_animations(L) != SW_OK || sw__turn_vrm0(L) != SW_OK || sw__keep_extensions(L) != SW_OK ||
        sw__finish(L) != SW_OK)
        return L->diag.result;
    return SW_OK;
}

static sw_result sw__load(sw__loader* L, const uint8_t* data, size_t size) {
    const char* json = (const char*)data;
    size_t json_size = size;
    if (size == 0) return sw__fail(L, SW_ERR_INVALID_DATA, NULL, "empty file");
    if (size >= 4 && memcmp(data, "glTF", 4) == 0) {
        L->glb = true;
        if (sw__parse_glb(L, data, size, &json, &json_size) != SW_OK) return L->diag.result;
    }
    if (json_size >= 3 && memcmp(json, "\xEF\xBB\xBF", 3) == 0) {
        sw__warn(L, NULL, "the JSON starts with a byte order mark (glTF forbids it); skipped");
        json += 3;
        json_size -= 3;
    }
    bool looks_like_json = L->glb || (json_size > 0 && (json[0] == '{' || json[0] == ' ' || json[0] == '\n' ||
                                                         json[0] == '\r' || json[0] == '\t'));
    /* Before cJSON allocates anything: its nesting limit (which it would
       report as a syntax error at some byte), and the most it can allocate,
       charged while it parses. */
    sw__json_scan scan;
    if (!sw__scan_json(json, json_size, &scan)) {
        if (!looks_like_json) return sw__fail(L, SW_ERR_INVALID_DATA, NULL, "not a glTF file (neither GLB nor JSON)");
        return sw__fail(L, SW_ERR_INVALID_DATA, NULL, "%sJSON nested deeper than %d levels (at byte %zu)",
                        L->glb ? "GLB JSON chunk: " : "", CJSON_NESTING_LIMIT, scan.too_deep_at);
    }
    size_t estimate = sw__json_scan_bytes(&scan);
    if (!sw__charge(L, estimate)) return L->diag.result;
    const char* end = NULL;
    bool out_of_memory = false;
    cJSON* root = sw__cjson_parse(json, json_size, &end, false, &out_of_memory);
    L->used -= estimate;
    if (out_of_memory) return sw__fail(L, SW_ERR_OUT_OF_MEMORY, NULL, "out of memory");
    if (!root) {
        size_t at = end && end >= json && end <= json + json_size ? (size_t)(end - json) : 0;
        if (!looks_like_json) return sw__fail(L, SW_ERR_INVALID_DATA, NULL, "not a glTF file (neither GLB nor JSON)");
        return sw__fail(L, SW_ERR_INVALID_DATA, NULL, "%sinvalid or truncated JSON at byte %zu of %zu",
                        L->glb ? "GLB JSON chunk: " : "", at, json_size);
    }
    /* Only whitespace (GLB pads with spaces; some writers with NULs) may follow. */
    for (const char* p = end; p && p < json + json_size; p++) {
        if (*p != ' ' && *p != '\t' && *p != '\n' && *p != '\r' && *p != '\0') {
            cJSON_Delete(root);
            return sw__fail(L, SW_ERR_INVALID_DATA, NULL, "unexpected data after the JSON at byte %zu",
                            (size_t)(p - json));
        }
    }
    size_t tree = sw__json_bytes(root, 0);
    if (!sw__charge(L, tree)) {
        cJSON_Delete(root);
        return L->diag.result;
    }
    if (scan.nul_at != SIZE_MAX) {
        sw_result r = sw__refuse_json_nul(L, json, json_size, &scan);
        cJSON_Delete(root);
        L->used -= tree;
        return r;
    }
    sw_result r;
    if (!cJSON_IsObject(root)) r = sw__fail(L, SW_ERR_INVALID_DATA, NULL, "the JSON is not an object");
    else {
        L->root = root;
        r = sw__parse_document(L);
    }
    cJSON_Delete(root);
    L->root = NULL;
    L->used -= tree;
    return r;
}

/* Resolves the options and allocates the asset; errors land in L->diag. */
static sw_result sw__begin(sw__loader* L, const sw_gltf_options* options, const char* name) {
    memset(L, 0, sizeof *L);
    L->name = name;
    L->warnings_tail = &L->warnings;
    L->max_memory = options && options->max_memory ? options->max_memory : SW__DEFAULT_MAX_MEMORY;
    L->max_influences = options && options->max_influences ? options->max_influences : SW_MODEL_MAX_INFLUENCES;
    L->allow_outside = options && options->allow_outside_paths;
    L->keep_raw_influences = options && options->keep_raw_influences;
    L->vrm0_turn = !(options && options->vrm0_keep_facing);
    if (L->max_influences != 4 && L->max_influences != 8)
        return sw_diag_set(&L->diag, SW_ERR_INVALID_ARGUMENT, -1, "options.max_influences is %d (allowed: 0, 4 or 8)",
                           L->max_influences);
    if (!sw__charge(L, sizeof *L->owner)) return L->diag.result;
    L->owner = sw__calloc(1, sizeof *L->owner);
    if (!L->owner) return sw__fail(L, SW_ERR_OUT_OF_MEMORY, NULL, "out of memory");
    L->arena = &L->owner->arena;
    L->owner->model.default_scene = -1;
    return SW_OK;
}

/* Hands the asset out, or frees it; always frees the scratch. */
static sw_result sw__end(sw__loader* L, sw_result r, const char* path, sw_model** out_asset, sw_diag* diag) {
    if (r == SW_OK && !(L->owner->model.path = sw__strdup(L, path))) r = L->diag.result;
    sw__arena_free(&L->scratch);
    if (r != SW_OK) {
        if (L->owner) {
            sw__arena_free(&L->owner->arena);
            sw__free(L->owner);
        }
        if (diag) *diag = L->diag;
        return r;
    }
    *out_asset = &L->owner->model;
    sw_diag_set(diag, SW_OK, -1, "%s", "");
    return SW_OK;
}

sw_result sw_gltf_load_memory(const void* data, size_t size, const char* name, const char* base_dir,
                              const sw_gltf_options* options, sw_model** out_asset, sw_diag* diag) {
    if (out_asset) *out_asset = NULL;
    if (!out_asset || (!data && size))
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "sw_gltf_load_memory: no data or no out_asset");
    sw__loader L;
    const char* label = name ? name : "<memory>";
    if (sw__begin(&L, options, label) != SW_OK) {
        if (diag) *diag = L.diag;
        return L.diag.result;
    }
    L.base_dir = base_dir;
    sw_result r = sw__load(&L, data, size);
    return sw__end(&L, r, label, out_asset, diag);
}

sw_result sw_gltf_load_file(const char* path, const sw_gltf_options* options, sw_model** out_asset,
                            sw_diag* diag) {
    if (out_asset) *out_asset = NULL;
    if (!path || !out_asset)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "sw_gltf_load_file: no path or no out_asset");
    sw__loader L;
    if (sw__begin(&L, options, sw__path_base_name(path)) != SW_OK) {
        if (diag) *diag = L.diag;
        return L.diag.result;
    }
    /* External files resolve against the asset's folder. */
    const char* slash = strrchr(path, '/');
    char* dir = NULL;
    sw_result r = SW_OK;
    if (slash) {
        size_t length = slash == path ? 1 : (size_t)(slash - path);
        dir = sw__arena_alloc(&L, &L.scratch, length + 1);
        if (!dir) r = L.diag.result;
        else memcpy(dir, path, length);
    }
    L.base_dir = dir ? dir : ".";
    uint8_t* data = NULL;
    size_t size = 0;
    if (r == SW_OK) {
        sw_diag inner = {0};
        r = sw__read_file(path, L.name, L.max_memory - L.used, SIZE_MAX, sw__file_alloc_temp, sw__file_free_temp, &L,
                          &data, &size, &inner);
        if (r != SW_OK && !(r == SW_ERR_OUT_OF_MEMORY && L.diag.result == SW_ERR_OUT_OF_MEMORY)) L.diag = inner;
    }
    if (r == SW_OK) r = sw__load(&L, data, size);
    sw__temp_free(&L, data);
    return sw__end(&L, r, path, out_asset, diag);
}
