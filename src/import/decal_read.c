/* The decal reader (sinew/decal.h): each node's SW_decal record
   (nodes[i].extensions), parsed once through the JSON layer
   (json_internal.h), in the file's node order; messages name the file's
   node indices. */
#include "sinew/decal.h"

#include "../base/base_internal.h"
#include "json_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SW__DECAL_EXTENSION "SW_decal"

typedef struct sw__decal_owned {
    sw_decal_set set; /* first: sw_decal_set_free casts back */
    sw_decal* decals;
    sw__json_owned mem; /* warning lines */
} sw__decal_owned;

typedef struct sw__decal_record {
    uint32_t file_node, node;
    const char* json;
} sw__decal_record;

static int sw__by_file_node(const void* a, const void* b) {
    uint32_t x = ((const sw__decal_record*)a)->file_node, y = ((const sw__decal_record*)b)->file_node;
    return (x > y) - (x < y);
}

/* An optional texture index member: -1 when absent. */
static sw_result sw__texture_index(sw__json* J, const sw_model* model, const cJSON* root, const char* key,
                                   int32_t* out) {
    bool present = false;
    int64_t index = -1;
    sw_result r = sw__json_index(J, root, key, false, &present, &index);
    if (r != SW_OK) return r;
    if (!present) {
        *out = -1;
        return SW_OK;
    }
    if (index < 0 || (uint64_t)index >= model->texture_count)
        return sw__json_fail(J, key, "texture %lld is out of range (the model has %zu textures)", (long long)index,
                             model->texture_count);
    *out = (int32_t)index;
    return SW_OK;
}

static sw_result sw__read_one(sw__json* J, const sw_model* model, const cJSON* root, sw_decal* out) {
    *out = (sw_decal){.base_color = {1, 1, 1, 1}, .base_color_texture = -1, .normal_texture = -1, .opacity = 1,
                      .normal_strength = 1};
    sw_result r = sw__json_expect_object(J, root);
    if (r == SW_OK) r = sw__json_floats_in(J, root, "baseColorFactor", 4, 0.0f, 1.0f, out->base_color);
    if (r == SW_OK) r = sw__texture_index(J, model, root, "baseColorTexture", &out->base_color_texture);
    if (r == SW_OK) r = sw__texture_index(J, model, root, "normalTexture", &out->normal_texture);
    if (r == SW_OK) r = sw__json_float_in(J, root, "opacity", 0.0f, 1.0f, &out->opacity);
    if (r == SW_OK) r = sw__json_float_in(J, root, "normalStrength", 0.0f, 1.0f, &out->normal_strength);
    return r;
}

static sw_result sw__read_all(sw__json* J, const sw_model* model, sw__decal_owned* out, sw__decal_record* records,
                              size_t count) {
    qsort(records, count, sizeof *records, sw__by_file_node);
    for (size_t i = 0; i < count; i++) {
        char path[64];
        snprintf(path, sizeof path, "nodes[%u].extensions." SW__DECAL_EXTENSION, records[i].file_node);
        sw__json_set_path(J, path);
        cJSON* root = sw__json_parse(J, records[i].json, NULL);
        if (!root) return J->oom ? sw__json_out_of_memory(J) : sw__json_fail(J, NULL, "not valid JSON");
        sw_result r = sw__read_one(J, model, root, &out->decals[i]);
        sw__json_delete(root);
        if (r != SW_OK) return r;
        out->decals[i].node = records[i].node;
        out->set.decal_count = i + 1;
    }
    out->set.decals = out->decals;
    return J->oom ? sw__json_out_of_memory(J) : SW_OK;
}

void sw_decal_set_free(sw_decal_set* set) {
    if (!set) return;
    sw__decal_owned* o = (sw__decal_owned*)set;
    sw__free(o->decals);
    sw__json_owned_free(&o->mem);
    sw__free(o);
}

static bool sw__is_decal(const sw_model* model, const sw_model_extension* x) {
    return x->object == SW_MODEL_OBJECT_NODE && strcmp(x->name, SW__DECAL_EXTENSION) == 0 &&
           x->index < model->node_count;
}

sw_result sw_decal_read(const sw_model* model, sw_decal_set** out_set, sw_diag* diag) {
    if (out_set) *out_set = NULL;
    if (!model || !out_set)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "decal read: a model and an output are needed");
    size_t count = 0;
    for (size_t e = 0; e < model->extension_count; e++) count += sw__is_decal(model, &model->extensions[e]);
    if (!count) return SW_OK;
    sw__json J;
    sw__decal_owned* out = sw__calloc(1, sizeof *out);
    sw__json_begin(&J, model->path ? model->path : "model", "decals", diag, out ? &out->mem : NULL);
    sw__decal_record* records = sw__calloc(count, sizeof *records);
    if (out) out->decals = sw__calloc(count, sizeof *out->decals);
    sw_result result;
    if (!out || !records || !out->decals) {
        result = sw__json_out_of_memory(&J);
    } else {
        size_t n = 0;
        for (size_t e = 0; e < model->extension_count; e++) {
            const sw_model_extension* x = &model->extensions[e];
            if (sw__is_decal(model, x))
                records[n++] = (sw__decal_record){model->nodes[x->index].source_index, x->index, x->json};
        }
        result = sw__read_all(&J, model, out, records, count);
    }
    sw__free(records);
    if (result != SW_OK) {
        sw_decal_set_free(out ? &out->set : NULL);
        return result;
    }
    out->set.warnings = (const char* const*)out->mem.warnings;
    out->set.warning_count = out->mem.warning_count;
    *out_set = &out->set;
    return SW_OK;
}
