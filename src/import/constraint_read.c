/* The node-constraint reader (sinew/constraint.h): each node's
   VRMC_node_constraint record (nodes[i].extensions), parsed once through
   the JSON layer (json_internal.h), in the file's node order. Node indices
   in the JSON are the file's and go through model->node_from_source;
   messages name the file's indices. */
#include "sinew/constraint.h"

#include "../base/base_internal.h"
#include "json_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SW__CONSTRAINT_EXTENSION "VRMC_node_constraint"

typedef struct sw__constraint_owned {
    sw_constraint_set set; /* first: sw_constraint_set_free casts back */
    sw_constraint* constraints;
    uint32_t* file_node;   /* per constraint: the destination's file index (for messages) */
    sw__json_owned mem;    /* warning lines */
} sw__constraint_owned;

/* A record to read: the destination's file index and its JSON text. */
typedef struct sw__constraint_record {
    uint32_t file_node;
    uint32_t node;
    const char* json;
} sw__constraint_record;

static int sw__by_file_node(const void* a, const void* b) {
    uint32_t x = ((const sw__constraint_record*)a)->file_node, y = ((const sw__constraint_record*)b)->file_node;
    return (x > y) - (x < y);
}

static const char* const sw__roll_axes[] = {"X", "Y", "Z"};
static const char* const sw__aim_axes[] = {"PositiveX", "NegativeX", "PositiveY", "NegativeY", "PositiveZ", "NegativeZ"};

/* One record (the path at nodes[F].extensions.VRMC_node_constraint); *kept
   false when it is skipped with a warning. */
static sw_result sw__read_one(sw__json* J, const sw_model* model, const sw__constraint_record* rec, const cJSON* root,
                              sw_constraint* out, bool* kept) {
    *kept = false;
    const char* version;
    const cJSON* constraint;
    if (sw__json_expect_object(J, root) != SW_OK || sw__json_string(J, root, "specVersion", false, &version) != SW_OK ||
        sw__json_object(J, root, "constraint", true, &constraint) != SW_OK)
        return SW_ERR_INVALID_DATA;
    if (!version || (strcmp(version, "1.0") != 0 && strcmp(version, "1.0-beta") != 0)) {
        bool ok = version ? sw__json_warn(J, "specVersion", "unknown version \"%.31s\"; the constraint is ignored", version)
                          : sw__json_warn(J, "specVersion", "missing; the constraint is ignored");
        return ok ? SW_OK : sw__json_out_of_memory(J);
    }
    size_t mark = sw__json_push(J, "constraint");
    const cJSON *roll, *aim, *rotation;
    if (sw__json_object(J, constraint, "roll", false, &roll) != SW_OK ||
        sw__json_object(J, constraint, "aim", false, &aim) != SW_OK ||
        sw__json_object(J, constraint, "rotation", false, &rotation) != SW_OK)
        return SW_ERR_INVALID_DATA;
    int given = (roll != NULL) + (aim != NULL) + (rotation != NULL);
    if (given == 0)
        return sw__json_warn(J, NULL, "no roll, aim or rotation; the constraint is ignored")
                   ? SW_OK
                   : sw__json_out_of_memory(J);
    const char* key = roll ? "roll" : aim ? "aim" : "rotation";
    if (given > 1 && !sw__json_warn(J, NULL, "more than one of roll, aim and rotation; %s is used", key))
        return sw__json_out_of_memory(J);
    const cJSON* body = roll ? roll : aim ? aim : rotation;
    sw__json_push(J, key);
    sw_constraint c = {.type = roll ? SW_CONSTRAINT_ROLL : aim ? SW_CONSTRAINT_AIM : SW_CONSTRAINT_ROTATION,
                       .destination = rec->node,
                       .weight = 1.0f};
    uint32_t source_file;
    if (sw__json_index_below(J, body, "source", model->node_count, "nodes", &source_file) != SW_OK ||
        sw__json_float_in(J, body, "weight", 0.0f, 1.0f, &c.weight) != SW_OK)
        return SW_ERR_INVALID_DATA;
    if (source_file == rec->file_node)
        return sw__json_fail(J, "source", "%u is the constrained node itself", source_file);
    c.source = model->node_from_source[source_file];
    if (c.type != SW_CONSTRAINT_ROTATION) {
        const char* axis_key = roll ? "rollAxis" : "aimAxis";
        const char* const* names = roll ? sw__roll_axes : sw__aim_axes;
        int count = roll ? 3 : 6;
        const char* axis;
        if (sw__json_string(J, body, axis_key, false, &axis) != SW_OK) return SW_ERR_INVALID_DATA;
        int found = axis ? sw__json_find_name(axis, names, count) : -1;
        if (found < 0) {
            bool ok = axis ? sw__json_warn(J, axis_key, "unknown axis \"%.31s\"; the constraint is ignored", axis)
                           : sw__json_warn(J, axis_key, "missing; the constraint is ignored");
            return ok ? SW_OK : sw__json_out_of_memory(J);
        }
        c.axis = (sw_constraint_axis)(roll ? 2 * found : found);
    }
    sw__json_pop(J, mark);
    if (model->nodes[rec->node].has_matrix)
        return sw__json_warn(J, NULL, "node %u has a matrix transform, whose rotation cannot be set; the constraint is "
                                      "ignored", rec->file_node)
                   ? SW_OK
                   : sw__json_out_of_memory(J);
    *out = c;
    *kept = true;
    return SW_OK;
}

/* The records, read in file node order, then the cycles named. */
static sw_result sw__read_all(sw__json* J, const sw_model* model, sw__constraint_owned* out,
                              sw__constraint_record* records, size_t count) {
    qsort(records, count, sizeof *records, sw__by_file_node);
    for (size_t i = 0; i < count; i++) {
        char path[64];
        snprintf(path, sizeof path, "nodes[%u].extensions." SW__CONSTRAINT_EXTENSION, records[i].file_node);
        sw__json_set_path(J, path);
        cJSON* root = sw__json_parse(J, records[i].json, NULL);
        if (!root) return J->oom ? sw__json_out_of_memory(J) : sw__json_fail(J, NULL, "not valid JSON");
        bool kept;
        sw_constraint c;
        sw_result r = sw__read_one(J, model, &records[i], root, &c, &kept);
        sw__json_delete(root);
        if (r != SW_OK) return r;
        if (kept) {
            out->file_node[out->set.constraint_count] = records[i].file_node;
            out->constraints[out->set.constraint_count++] = c;
        }
    }
    out->set.constraints = out->constraints;
    if (!out->set.constraint_count) return SW_OK;
    /* Cycles: ordered as the runtime orders them, to name them now. */
    size_t bytes = sw_constraint_memory_size(model, out->set.constraint_count);
    void* memory = bytes ? sw__aligned_alloc(16, bytes) : NULL;
    if (!memory) return sw__json_out_of_memory(J);
    sw_constraint_state state;
    sw_diag diag;
    sw_result r = sw_constraint_init(&state, memory, model, out->constraints, out->set.constraint_count, &diag);
    if (r == SW_OK)
        for (size_t k = 0; k < out->set.constraint_count && !J->oom; k++) {
            if (!state.cyclic[k]) continue;
            char path[64];
            snprintf(path, sizeof path, "nodes[%u].extensions." SW__CONSTRAINT_EXTENSION, out->file_node[k]);
            sw__json_set_path(J, path);
            sw__json_warn(J, NULL, "source node %u makes a circular dependency between constraints; not evaluated",
                          model->nodes[out->constraints[k].source].source_index);
        }
    sw__aligned_free(memory);
    if (r != SW_OK) return sw__json_fail(J, NULL, "%s", diag.message);
    return J->oom ? sw__json_out_of_memory(J) : SW_OK;
}

void sw_constraint_set_free(sw_constraint_set* set) {
    if (!set) return;
    sw__constraint_owned* o = (sw__constraint_owned*)set;
    sw__free(o->constraints);
    sw__free(o->file_node);
    sw__json_owned_free(&o->mem);
    sw__free(o);
}

sw_result sw_constraint_read(const sw_model* model, sw_constraint_set** out_set, sw_diag* diag) {
    if (out_set) *out_set = NULL;
    if (!model || !out_set)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "constraint read: a model and an output are needed");
    size_t count = 0;
    for (size_t e = 0; e < model->extension_count; e++) {
        const sw_model_extension* x = &model->extensions[e];
        if (x->object == SW_MODEL_OBJECT_NODE && strcmp(x->name, SW__CONSTRAINT_EXTENSION) == 0 &&
            x->index < model->node_count)
            count++;
    }
    if (!count) return SW_OK;
    sw__json J;
    sw__constraint_owned* out = sw__calloc(1, sizeof *out);
    sw__json_begin(&J, model->path ? model->path : "model", "node constraints", diag, out ? &out->mem : NULL);
    sw__constraint_record* records = sw__calloc(count, sizeof *records);
    if (out) {
        out->constraints = sw__calloc(count, sizeof *out->constraints);
        out->file_node = sw__calloc(count, sizeof *out->file_node);
    }
    sw_result result;
    if (!out || !records || !out->constraints || !out->file_node) {
        result = sw__json_out_of_memory(&J);
    } else {
        size_t n = 0;
        for (size_t e = 0; e < model->extension_count; e++) {
            const sw_model_extension* x = &model->extensions[e];
            if (x->object == SW_MODEL_OBJECT_NODE && strcmp(x->name, SW__CONSTRAINT_EXTENSION) == 0 &&
                x->index < model->node_count)
                records[n++] = (sw__constraint_record){model->nodes[x->index].source_index, x->index, x->json};
        }
        result = sw__read_all(&J, model, out, records, count);
    }
    sw__free(records);
    if (result != SW_OK) {
        sw_constraint_set_free(out ? &out->set : NULL);
        return result;
    }
    out->set.warnings = (const char* const*)out->mem.warnings;
    out->set.warning_count = out->mem.warning_count;
    *out_set = &out->set;
    return SW_OK;
}
