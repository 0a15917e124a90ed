/* The format-neutral model (sinew/model.h): its arena, freeing and looking
   up extension records. Image decoding is in model_image.c. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/file_internal.h"
#include "model_internal.h"

void sw__arena_free(sw__arena* arena) {
    for (sw__block* b = arena->head; b;) {
        sw__block* next = b->next;
        free(b);
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
        b = malloc(sizeof(sw__block) + capacity);
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

void sw__importer_init(sw__importer* im, const char* name, size_t max_warnings) {
    memset(im, 0, sizeof *im);
    im->name = name;
    im->max_warnings = max_warnings;
    im->warnings_tail = &im->warnings;
}

sw_result sw__importer_fail(sw__importer* im, sw_result code, const char* format, ...) {
    char text[224];
    va_list args;
    va_start(args, format);
    vsnprintf(text, sizeof text, format, args);
    va_end(args);
    return sw_diag_set(&im->diag, code, -1, "%s: %s", im->name, text);
}

void* sw__importer_alloc(sw__importer* im, sw__arena* arena, size_t size) {
    void* p = sw__arena_take(arena, size);
    if (!p) sw__importer_fail(im, SW_ERR_OUT_OF_MEMORY, "out of memory (%zu bytes)", size);
    return p;
}

void* sw__importer_array(sw__importer* im, sw__arena* arena, size_t count, size_t size) {
    void* p = sw__arena_take_array(arena, count, size);
    if (!p) sw__importer_fail(im, SW_ERR_OUT_OF_MEMORY, "out of memory (%zu elements of %zu bytes)", count, size);
    return p;
}

const char* sw__importer_strdup(sw__importer* im, const char* s, size_t length) {
    char* out = sw__importer_alloc(im, im->arena, length + 1);
    if (out) memcpy(out, s, length);
    return out;
}

static void sw__importer_store(sw__importer* im, const char* text) {
    sw__import_warning* w = sw__importer_alloc(im, im->arena, sizeof *w);
    const char* copy = w ? sw__importer_strdup(im, text, strlen(text)) : NULL;
    if (!copy) return;
    w->text = copy;
    *im->warnings_tail = w;
    im->warnings_tail = &w->next;
    im->warning_count++;
}

void sw__importer_warn(sw__importer* im, const char* format, ...) {
    if (im->warning_count >= im->max_warnings) {
        im->warnings_dropped++;
        return;
    }
    char text[320];
    int n = snprintf(text, sizeof text, "%s: ", im->name);
    if (n < 0 || (size_t)n >= sizeof text) n = 0;
    va_list args;
    va_start(args, format);
    vsnprintf(text + n, sizeof text - (size_t)n, format, args);
    va_end(args);
    sw__importer_store(im, text);
}

sw_result sw__importer_finish_warnings(sw__importer* im, sw_model* model) {
    if (im->warnings_dropped) {
        char text[160];
        snprintf(text, sizeof text, "%s: %zu more warnings not stored", im->name, im->warnings_dropped);
        sw__importer_store(im, text);
    }
    if (!im->warning_count) return SW_OK;
    const char** lines = sw__importer_array(im, im->arena, im->warning_count, sizeof *lines);
    if (!lines) return im->diag.result;
    size_t i = 0;
    for (const sw__import_warning* w = im->warnings; w && i < im->warning_count; w = w->next) lines[i++] = w->text;
    model->warnings = lines;
    model->warning_count = i;
    return SW_OK;
}

sw__model_owner* sw__importer_new_model(sw__importer* im, bool allow_outside_paths) {
    sw__model_owner* owner = calloc(1, sizeof *owner);
    if (!owner) {
        sw__importer_fail(im, SW_ERR_OUT_OF_MEMORY, "out of memory");
        return NULL;
    }
    im->arena = &owner->arena;
    owner->model.default_scene = -1;
    owner->model.allow_outside_paths = allow_outside_paths;
    return owner;
}

sw_result sw__importer_end(sw__importer* im, sw__model_owner* owner, sw_result r, const char* name,
                           const char* base_dir, sw_model** out_model, sw_diag* diag) {
    if (r == SW_OK && name && !(owner->model.path = sw__importer_strdup(im, name, strlen(name)))) r = im->diag.result;
    if (r == SW_OK && base_dir && !(owner->model.base_dir = sw__importer_strdup(im, base_dir, strlen(base_dir))))
        r = im->diag.result;
    if (r != SW_OK) {
        if (owner) {
            sw__arena_free(&owner->arena);
            free(owner);
        }
        if (diag) *diag = im->diag;
        return r;
    }
    *out_model = &owner->model;
    sw_diag_set(diag, SW_OK, -1, "%s", "");
    return SW_OK;
}

static void* sw__file_alloc(void* user, size_t size) {
    (void)user;
    return malloc(size ? size : 1);
}

static void sw__file_free(void* user, void* ptr) {
    (void)user;
    free(ptr);
}

sw_result sw__importer_load_file(const char* path, size_t max_file, sw__memory_loader load, const void* options,
                                 sw_model** out_model, sw_diag* diag) {
    uint8_t* data = NULL;
    size_t size = 0;
    sw_diag inner;
    sw_result r = sw__read_file(path, sw__path_base_name(path), max_file, SIZE_MAX, sw__file_alloc, sw__file_free,
                                NULL, &data, &size, &inner);
    if (r != SW_OK) {
        if (diag) *diag = inner;
        return r;
    }
    const char* slash = strrchr(path, '/');
    char* dir = NULL;
    if (slash) {
        size_t length = slash == path ? 1 : (size_t)(slash - path);
        dir = malloc(length + 1);
        if (!dir) {
            free(data);
            return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "%s: out of memory", sw__path_base_name(path));
        }
        memcpy(dir, path, length);
        dir[length] = '\0';
    }
    r = load(data, size, path, dir ? dir : ".", options, out_model, diag);
    free(dir);
    free(data);
    return r;
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
