/* The format-neutral model (sinew/model.h): its arena, freeing and looking
   up extension records. What importers share while they build one is in
   src/import/importer.c; decoding its images in src/import/image.c. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_internal.h"
#include "../base/base_internal.h"

void sw__arena_free(sw__arena* arena) {
    for (sw__block* b = arena->head; b;) {
        sw__block* next = b->next;
        sw__free(b);
        b = next;
    }
    arena->head = NULL;
}

void* sw__arena_take(sw__arena* arena, size_t size) {
    if (size > SIZE_MAX - sizeof(sw__block) - 16) return NULL;
    size = (size + 15) & ~(size_t)15;
    if (size == 0) size = 16;
    sw__block* b = arena->head;
    if (!b || b->size - b->used < size) {
        const size_t capacity = size > ((size_t)64 << 10) ? size : ((size_t)64 << 10);
        b = sw__malloc(sizeof(sw__block) + capacity);
        if (!b) return NULL;
        b->size = capacity;
        b->used = 0;
        b->next = arena->head;
        arena->head = b;
    }
    void* p = (unsigned char*)b->data + b->used;
    b->used += size;
    memset(p, 0, size);
    return p;
}

void* sw__arena_take_array(sw__arena* arena, size_t count, size_t size) {
    size_t bytes;
    if (!sw_mul_size(count, size, &bytes) || bytes > SIZE_MAX / 2) return NULL;
    return sw__arena_take(arena, bytes);
}

void sw__model_rest_pose(const sw_model* model, sw_transform* out_local, float* out_weights) {
    const sw_model_node* nodes = model->nodes;
    for (size_t i = 0; i < model->node_count; ++i)
        out_local[i] = nodes[i].has_matrix ? sw_transform_identity() : nodes[i].trs;
    for (size_t i = 0; i < model->node_count; ++i) {
        const sw_model_node* node = &nodes[i];
        if (node->mesh < 0) continue;
        const sw_model_mesh* mesh = &model->meshes[node->mesh];
        if (mesh->weight_count == 0) continue;
        /* Importers fill the mesh's weights with zeros when the file has none. */
        const float* defaults = node->weight_count == mesh->weight_count ? node->weights : mesh->weights;
        for (size_t k = 0; k < mesh->weight_count; ++k)
            out_weights[node->weight_offset + k] = defaults ? defaults[k] : 0.0f;
    }
}

void sw_model_free(sw_model* model) {
    if (!model) return;
    sw__model_owner* owner = (sw__model_owner*)model;
    sw__arena_free(&owner->arena);
    sw__free(owner);
}

const sw_model_extension* sw_model_find_extension(const sw_model* model, const char* name, sw_model_object object,
                                                  uint32_t index) {
    if (!model || !name) return NULL;
    for (size_t i = 0; i < model->extension_count; i++) {
        const sw_model_extension* e = &model->extensions[i];
        if (e->object == object && e->index == index && e->name && strcmp(e->name, name) == 0) return e;
    }
    return NULL;
}

/* ---- finding nodes by name ------------------------------------------------------ */

static int sw__lower(int c) { return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c; }

/* ASCII case-insensitive equality (names from files may hold any bytes). */
static bool sw__same_nocase(const char* a, const char* b) {
    for (; *a && *b; ++a, ++b)
        if (sw__lower((unsigned char)*a) != sw__lower((unsigned char)*b)) return false;
    return *a == *b;
}

/* The name without its namespace prefixes: after the last ':' or '|'
   ("mixamorig:Hips", "Armature|Hips" → "Hips"). */
static const char* sw__strip_namespaces(const char* name) {
    const char* base = name;
    for (const char* p = name; *p; ++p)
        if (*p == ':' || *p == '|') base = p + 1;
    return base;
}

int sw__node_name_level(const char* node, const char* name) {
    if (!node || !name) return 3;
    if (strcmp(node, name) == 0) return 0;
    if (sw__same_nocase(node, name)) return 1;
    const char* a = sw__strip_namespaces(node);
    const char* b = sw__strip_namespaces(name);
    if (*a && *b && sw__same_nocase(a, b)) return 2;
    return 3;
}

bool sw__model_is_skin_joint(const sw_model* model, size_t node) {
    for (size_t s = 0; s < model->skin_count; ++s)
        for (size_t j = 0; j < model->skins[s].joint_count; ++j)
            if (model->skins[s].joints[j] == node) return true;
    return false;
}

int32_t sw_model_find_node_by_name(const sw_model* model, const char* name) {
    if (!model || !name) return -1;
    int32_t best = -1;
    int best_rank = 1 << 30;
    for (size_t i = 0; i < model->node_count; ++i) {
        int level = sw__node_name_level(model->nodes[i].name, name);
        if (level == 3 || level * 2 >= best_rank) continue;
        int rank = level * 2 + (sw__model_is_skin_joint(model, i) ? 0 : 1);
        if (rank < best_rank) best_rank = rank, best = (int32_t)i;
    }
    return best;
}

int32_t sw_model_find_clip(const sw_model* model, const char* name) {
    if (!model || !name) return -1;
    int32_t nocase = -1;
    for (size_t i = 0; i < model->animation_count && i <= (size_t)INT32_MAX; ++i) {
        const char* clip_name = model->animations[i].name;
        if (!clip_name) continue;
        if (strcmp(clip_name, name) == 0) return (int32_t)i;
        if (nocase < 0 && sw__same_nocase(clip_name, name)) nocase = (int32_t)i;
    }
    return nocase;
}
