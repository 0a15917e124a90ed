/* importer_internal.h — what the IQM and Assimp importers share while they
   build a model (importer.c). Not a public header. */
#ifndef SINEW_IMPORTER_INTERNAL_H
#define SINEW_IMPORTER_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "../model/model_internal.h"

/* ---- what the IQM and Assimp importers share while they build a model ----

   The file's name (messages read "name: text"), the model's arena, the
   first error, and the warnings in order: up to max_warnings are kept,
   the rest counted, and sw__importer_finish_warnings adds one line saying
   how many were not stored. Out of memory sets the error; a warning that
   cannot be stored is dropped (the load fails at its next allocation). */
typedef struct sw__import_warning {
    struct sw__import_warning* next;
    const char* text;
} sw__import_warning;

typedef struct sw__importer {
    sw_diag diag;
    const char* name;
    sw__arena* arena; /* the model's memory */
    size_t max_warnings, warning_count, warnings_dropped;
    sw__import_warning *warnings, **warnings_tail;
} sw__importer;

#if defined(__GNUC__)
#define SW__IMPORT_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define SW__IMPORT_PRINTF(a, b)
#endif


/* An empty importer for the file `name`; arena may be set later. */
void sw__importer_init(sw__importer* im, const char* name, size_t max_warnings);
/* Sets the error "name: text" and returns code. */
sw_result sw__importer_fail(sw__importer* im, sw_result code, const char* format, ...) SW__IMPORT_PRINTF(3, 4);
/* sw__arena_take / sw__arena_take_array, setting the error when out of memory. */
void* sw__importer_alloc(sw__importer* im, sw__arena* arena, size_t size);
void* sw__importer_array(sw__importer* im, sw__arena* arena, size_t count, size_t size);
/* `length` bytes of s as a NUL-terminated string in the model's arena. */
const char* sw__importer_strdup(sw__importer* im, const char* s, size_t length);
/* Appends the warning "name: text". */
void sw__importer_warn(sw__importer* im, const char* format, ...) SW__IMPORT_PRINTF(2, 3);
/* The warnings as the model's warning lines (in its arena). */
sw_result sw__importer_finish_warnings(sw__importer* im, sw_model* model);

/* A new, empty model whose arena becomes the importer's, or NULL with the
   error set. */
sw__model_owner* sw__importer_new_model(sw__importer* im, bool allow_outside_paths);
/* Ends a load that gave r: on success the model gets its path and base
   folder and goes to *out_model; otherwise it is freed and the importer's
   error goes to diag. Returns the result. */
sw_result sw__importer_end(sw__importer* im, sw__model_owner* owner, sw_result r, const char* name,
                           const char* base_dir, sw_model** out_model, sw_diag* diag);

/* An importer's memory loader, its options passed through. */
typedef sw_result (*sw__memory_loader)(const void* data, size_t size, const char* name, const char* base_dir,
                                       const void* options, sw_model** out_model, sw_diag* diag);
/* Reads the file at path (at most max_file bytes) and loads it with load,
   external files resolving against the file's folder. */
sw_result sw__importer_load_file(const char* path, size_t max_file, sw__memory_loader load, const void* options,
                                 sw_model** out_model, sw_diag* diag);

#endif
