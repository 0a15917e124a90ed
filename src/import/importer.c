/* What the IQM and Assimp importers share while they build a model
   (importer_internal.h): errors, arena allocations, warnings, how a load
   begins and ends, and reading a file for a memory loader. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file_internal.h"
#include "importer_internal.h"
#include "../base/base_internal.h"

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
    sw_diag_set(&im->diag, code, -1, "%s: %s", im->name, text);
    sw__one_line(im->diag.message); /* names quoted from the file may hold line breaks */
    return code;
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
    sw__one_line(text);
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
    sw__model_owner* owner = sw__calloc(1, sizeof *owner);
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
            sw__free(owner);
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
    return sw__malloc(size ? size : 1);
}

static void sw__file_free(void* user, void* ptr) {
    (void)user;
    sw__free(ptr);
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
        dir = sw__malloc(length + 1);
        if (!dir) {
            sw__free(data);
            return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "%s: out of memory", sw__path_base_name(path));
        }
        memcpy(dir, path, length);
        dir[length] = '\0';
    }
    r = load(data, size, path, dir ? dir : ".", options, out_model, diag);
    sw__free(dir);
    sw__free(data);
    return r;
}
