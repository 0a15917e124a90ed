/* Results, diagnostics, allocation helpers (see sinew/base.h). */
#include "sinew/base.h"

#include "base_internal.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the allocator ---------------------------------------------------------- */
static void* sw__default_allocate(void* user, size_t size) {
    (void)user;
    return malloc(size);
}
static void* sw__default_reallocate(void* user, void* ptr, size_t size) {
    (void)user;
    return realloc(ptr, size);
}
static void sw__default_deallocate(void* user, void* ptr) {
    (void)user;
    free(ptr);
}

/* The one process-wide setting sinew has (as meshoptimizer's
   meshopt_setAllocator): set before use, read everywhere. */
static sw_allocator sw__allocator = {sw__default_allocate, sw__default_reallocate, sw__default_deallocate, NULL};

void sw_set_allocator(const sw_allocator* allocator) {
    if (allocator && allocator->allocate && allocator->reallocate && allocator->deallocate)
        sw__allocator = *allocator;
    else
        sw__allocator = (sw_allocator){sw__default_allocate, sw__default_reallocate, sw__default_deallocate, NULL};
}

sw_allocator sw_get_allocator(void) { return sw__allocator; }

void* sw__malloc(size_t size) { return sw__allocator.allocate(sw__allocator.user, size ? size : 1); }

void* sw__calloc(size_t count, size_t size) {
    size_t bytes;
    if (!sw_mul_size(count, size, &bytes)) return NULL;
    void* p = sw__malloc(bytes);
    if (p) memset(p, 0, bytes);
    return p;
}

void* sw__realloc(void* ptr, size_t size) {
    return sw__allocator.reallocate(sw__allocator.user, ptr, size ? size : 1);
}

void sw__free(void* ptr) {
    if (ptr) sw__allocator.deallocate(sw__allocator.user, ptr);
}

/* The block is over-allocated by alignment − 1 plus a pointer; the pointer
   to the block's start sits just before the aligned address. */
void* sw__aligned_alloc(size_t alignment, size_t size) {
    if (alignment < sizeof(void*)) alignment = sizeof(void*);
    if (size > SIZE_MAX - alignment - sizeof(void*)) return NULL;
    unsigned char* block = (unsigned char*)sw__malloc(size + alignment - 1 + sizeof(void*));
    if (!block) return NULL;
    uintptr_t at = ((uintptr_t)(block + sizeof(void*)) + alignment - 1) & ~(uintptr_t)(alignment - 1);
    memcpy((unsigned char*)at - sizeof(void*), &block, sizeof block);
    return (void*)at;
}

void sw__aligned_free(void* ptr) {
    if (!ptr) return;
    void* block;
    memcpy(&block, (unsigned char*)ptr - sizeof(void*), sizeof block);
    sw__free(block);
}

char* sw__string_copy(const char* s) {
    size_t n = strlen(s) + 1;
    char* copy = (char*)sw__malloc(n);
    if (copy) memcpy(copy, s, n);
    return copy;
}

#ifndef SW_BUILD_FLAVOUR
#define SW_BUILD_FLAVOUR "unknown"
#endif

static const char* const sw__result_text[] = {
#define SW__RESULT_TEXT(name, text) text,
    SW_RESULT_LIST(SW__RESULT_TEXT)
#undef SW__RESULT_TEXT
};

const char* sw_result_str(sw_result result) {
    if ((unsigned)result >= (unsigned)SW_RESULT_COUNT) return "unknown result";
    return sw__result_text[result];
}

sw_result sw_diag_set(sw_diag* diag, sw_result result, int64_t index, const char* format, ...) {
    if (diag) {
        diag->result = result;
        diag->index = index;
        va_list args;
        va_start(args, format);
        vsnprintf(diag->message, sizeof diag->message, format, args);
        va_end(args);
    }
    return result;
}

void sw__one_line(char* s) {
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f) *s = '?';
}

void sw__line_at(char* out, size_t size, const char* file, const char* where, const char* text) {
    if (size == 0) return;
    if (where && *where) snprintf(out, size, "%s: %s: %s", file, where, text);
    else snprintf(out, size, "%s: %s", file, text);
    sw__one_line(out);
}

sw_result sw__diag_vset_at(sw_diag* diag, sw_result code, int64_t index, const char* file, const char* where,
                           size_t text_size, const char* format, va_list args) {
    char text[256] = "";
    if (text_size > 0) vsnprintf(text, text_size < sizeof text ? text_size : sizeof text, format, args);
    if (where && *where) sw_diag_set(diag, code, index, "%s: %s: %s", file, where, text);
    else sw_diag_set(diag, code, index, "%s: %s", file, text);
    if (diag) sw__one_line(diag->message);
    return code;
}

bool sw__lines_append(char*** lines, size_t* count, size_t* cap, const char* line) {
    if (*count == *cap) {
        size_t next = *cap ? *cap * 2 : 8;
        char** grown = next < SIZE_MAX / sizeof *grown ? sw__realloc(*lines, next * sizeof *grown) : NULL;
        if (!grown) return false;
        *lines = grown;
        *cap = next;
    }
    size_t length = strlen(line) + 1;
    char* copy = sw__malloc(length);
    if (!copy) return false;
    memcpy(copy, line, length);
    (*lines)[(*count)++] = copy;
    return true;
}

bool sw_mul_size(size_t count, size_t size, size_t* out_bytes) {
    if (size != 0 && count > SIZE_MAX / size) {
        *out_bytes = 0;
        return false;
    }
    *out_bytes = count * size;
    return true;
}

const char* sw_build_info(void) {
#if defined(SW_NO_SIMD) || !(defined(__x86_64__) || defined(__i386__))
    return SW_BUILD_FLAVOUR ", scalar kernels";
#else
    return SW_BUILD_FLAVOUR ", scalar/sse2/avx2 kernels (chosen at run time)";
#endif
}
