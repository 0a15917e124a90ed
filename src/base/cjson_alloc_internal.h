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

#endif
