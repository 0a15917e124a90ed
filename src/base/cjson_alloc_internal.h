/* cjson_alloc_internal.h — points cJSON's allocation hooks at sinew's
   allocator (sw_set_allocator), for the two libraries that use cJSON:
   sinew-import (json.c) and sinew-demo. Not a public header.

   cJSON's hooks are process-wide: they are set once, the first time
   either library parses or builds JSON, to functions that forward to
   whatever allocator is current, so they never need setting again. */
#ifndef SINEW_CJSON_ALLOC_INTERNAL_H
#define SINEW_CJSON_ALLOC_INTERNAL_H

#include <cjson/cJSON.h>
#include <pthread.h>
#include <stdbool.h>

#include "base_internal.h"

static void* sw__cjson_malloc(size_t size) { return sw__malloc(size); }
static void sw__cjson_free(void* ptr) { sw__free(ptr); }

static void sw__cjson_install_hooks(void) {
    cJSON_Hooks hooks = {sw__cjson_malloc, sw__cjson_free};
    cJSON_InitHooks(&hooks);
}

/* Call before any cJSON function. Thread-safe. */
static inline void sw__cjson_use_allocator(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, sw__cjson_install_hooks);
}

/* cJSON_ParseWithLengthOpts through sinew's allocator. cJSON answers NULL
   alike for bad text and for memory it could not get: *out_of_memory
   says which (true when an allocation was refused during the parse). */
static inline cJSON* sw__cjson_parse(const char* text, size_t length, const char** end,
                                     bool require_null_terminated, bool* out_of_memory) {
    sw__cjson_use_allocator();
    size_t refusals = sw__allocation_refusals();
    cJSON* root = cJSON_ParseWithLengthOpts(text, length, end, require_null_terminated);
    *out_of_memory = !root && sw__allocation_refusals() != refusals;
    return root;
}

#endif
