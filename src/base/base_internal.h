/* base_internal.h — message helpers shared by the readers of untrusted
   files (glTF, VRM, spring bones, toon materials). Not a public header.

   Their errors and warnings read "file: where: text" on one line: where is
   a JSON path or a material, text quotes the file's own strings, so
   control characters are replaced before a message leaves. */
#ifndef SINEW_BASE_INTERNAL_H
#define SINEW_BASE_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "sinew/base.h"

/* Control characters (< 0x20, 0x7f) of s become '?': a message quoting a
   file stays one line and cannot drive a terminal. */
void sw__one_line(char* s);

/* "file: where: text" ("file: text" when where is NULL or empty) into
   out, cut to `size`, made one line. */
void sw__line_at(char* out, size_t size, const char* file, const char* where, const char* text);

/* diag ← code, index and "file: where: text", the text formatted from
   format and args and cut to text_size − 1 bytes (at most 255), the
   message made one line. Returns code. */
sw_result sw__diag_vset_at(sw_diag* diag, sw_result code, int64_t index, const char* file, const char* where,
                           size_t text_size, const char* format, va_list args);

/* Appends a sw__malloc'd copy of line to *lines (*count used, *cap allocated,
   grown by doubling; each line and the array freed by the owner). False,
   nothing changed, when out of memory. */
bool sw__lines_append(char*** lines, size_t* count, size_t* cap, const char* line);

/* ---- allocation: every library's memory goes through these ----------------
   (sw_set_allocator in sinew/base.h). sw__calloc checks count × size for
   overflow; sw__aligned_alloc gives `alignment`-aligned memory (a power of
   two) that only sw__aligned_free releases. */
void* sw__malloc(size_t size);
void* sw__calloc(size_t count, size_t size);
void* sw__realloc(void* ptr, size_t size);
void sw__free(void* ptr);
void* sw__aligned_alloc(size_t alignment, size_t size);
void sw__aligned_free(void* ptr);
/* A NUL-terminated copy of s (sw__free it), or NULL when out of memory. */
char* sw__string_copy(const char* s);

#endif
