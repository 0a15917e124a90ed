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
