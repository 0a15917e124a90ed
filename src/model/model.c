/* The format-neutral model (sinew/model.h): freeing and looking up
   extension records. Image decoding is in model_image.c. */
#include <stdlib.h>
#include <string.h>

#include "model_internal.h"

void sw__arena_free(sw__arena* arena) {
    for (sw__block* b = arena->head; b;) {
        sw__block* next = b->next;
        free(b);
        b = next;
    }
    arena->head = NULL;
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
    free(owner);
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
