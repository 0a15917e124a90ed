/* json_internal.h — the one JSON layer of sinew-import: the extension
   readers (VRM, spring bones, toon materials) and the bone map read their
   JSON through it, and no other file of sinew-import but the glTF loader
   calls cJSON. Not a public header.

   A read keeps one sw__json: the file's name, the current JSON path
   ("extensions.VRMC_vrm.expressions.preset.happy"), the error the read
   stops at, the warnings it gives and the blocks it allocates. Typed
   getters take a node and a member key; a present member of the wrong
   kind is an error, an absent one is "missing" when required and leaves
   the caller's default otherwise. Every message is one line:

       file: json.path[3].key: text

   (the file left out when the reader has none). Errors go to diag and
   return SW_ERR_INVALID_DATA; the reader returns at the first one.
   Warnings are counted, the first one's line kept in the reader and every
   line appended to the owner's list (when there is an owner); out of
   memory while warning or allocating sets `oom`, which the reader reports
   when it returns.

   Paths: sw__json_push appends ".key" (or "[i]") and returns a mark that
   sw__json_pop goes back to; sw__json_next does it for every item of a
   loop. Getters leave the path as they found it. A path too long for the
   buffer ends in "...", and keys added after that are dropped. */
#ifndef SINEW_JSON_INTERNAL_H
#define SINEW_JSON_INTERNAL_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sinew/base.h"

#define SW__JSON_PATH_SIZE 192
#define SW__JSON_LINE_SIZE 512 /* a warning line */

/* What a read leaves behind for its owner: allocated blocks and warning
   lines, released together by sw__json_owned_free. */
typedef struct sw__json_owned {
    void** blocks;
    size_t block_count, block_cap;
    char** warnings;
    size_t warning_count, warning_cap;
} sw__json_owned;

typedef struct sw__json {
    const char* file;       /* names the file in messages; NULL: messages start at the path */
    const char* what;       /* what is read, for "file: what: out of memory" */
    sw_diag* diag;          /* never NULL: own_diag when the caller passed none */
    int64_t error_index;    /* diag.index of errors (-1 unless the reader names an element) */
    sw__json_owned* owned;  /* where blocks and warning lines go; NULL: nowhere (no sw__json_alloc) */
    size_t warning_count;   /* warnings given */
    bool oom;               /* out of memory while warning or allocating */
    size_t path_length;
    char path[SW__JSON_PATH_SIZE];
    char first_warning[SW__JSON_LINE_SIZE];
    sw_diag own_diag;
} sw__json;

/* A reader for `file` (may be NULL) reporting into `diag` (may be NULL),
   keeping what it allocates and its warning lines in `owned` (zeroed by
   the caller; may be NULL); the path starts empty. */
void sw__json_begin(sw__json* J, const char* file, const char* what, sw_diag* diag, sw__json_owned* owned);
void sw__json_owned_free(sw__json_owned* owned);

/* ---- parsing ---------------------------------------------------------------
   The whole NUL-terminated text as one JSON value (only white space may
   follow it), or NULL: not JSON, with *error_at (may be NULL) the byte
   offset near which parsing stopped, or out of memory (J->oom set: the
   caller returns sw__json_out_of_memory, not a complaint about the file).
   The tree is the caller's: sw__json_delete. */
cJSON* sw__json_parse(sw__json* J, const char* text, size_t* error_at);
void sw__json_delete(cJSON* root);

/* ---- the path --------------------------------------------------------------- */
void sw__json_set_path(sw__json* J, const char* path);
/* Appends ".key" ("key" at an empty path) / "[index]"; returns the mark to pop back to. */
size_t sw__json_push(sw__json* J, const char* key);
size_t sw__json_push_index(sw__json* J, size_t index);
void sw__json_pop(sw__json* J, size_t mark);

/* ---- messages ---------------------------------------------------------------
   At the current path, or at path.key when key is not NULL. The text is
   cut to 199 bytes, a message to one line. */
sw_result sw__json_fail(sw__json* J, const char* key, const char* format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* False only when the line could not be kept (out of memory: J->oom set). */
bool sw__json_warn(sw__json* J, const char* key, const char* format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* diag ← SW_ERR_OUT_OF_MEMORY, "file: what: out of memory". */
sw_result sw__json_out_of_memory(sw__json* J);
/* What a reader returns after a failed step: out of memory when J->oom,
   else the error in diag. */
sw_result sw__json_result(sw__json* J);

/* ---- memory: zeroed blocks kept in J->owned (NULL and J->oom when out of memory) */
void* sw__json_alloc(sw__json* J, size_t count, size_t size);
const char* sw__json_copy(sw__json* J, const char* s);

/* ---- nodes ------------------------------------------------------------------ */
const cJSON* sw__json_member(const cJSON* object, const char* key); /* case-sensitive; NULL when absent */
size_t sw__json_count(const cJSON* node);                          /* items or members; 0 for scalars */
bool sw__json_is_object(const cJSON* node);
bool sw__json_is_array(const cJSON* node);
bool sw__json_is_null(const cJSON* node);
bool sw__json_is_bool(const cJSON* node);
const char* sw__json_text(const cJSON* node);                      /* a string's text, else NULL */
bool sw__json_equals(const cJSON* node, double value);             /* a number equal to value */
/* The index of s in names[count], or -1. */
int sw__json_find_name(const char* s, const char* const* names, int count);

/* Every item of an array, or member of an object, with the path at it:
       for (sw__json_each it = sw__json_each_of(J, array); sw__json_next(J, &it);)
           ... it.value, it.index (it.key for members) ...
   Each step returns the path to where the loop began, as does the end;
   after a break the caller pops to it.mark. */
typedef struct sw__json_each {
    const cJSON* value;
    const char* key;   /* the member's name ("" for array items) */
    size_t index;      /* of the current value */
    size_t mark;       /* the path before the loop */
    const cJSON* next_value;
    bool members;
} sw__json_each;
sw__json_each sw__json_each_of(const sw__json* J, const cJSON* container);
bool sw__json_next(sw__json* J, sw__json_each* it);

/* ---- typed getters: the value at the current path --------------------------- */
sw_result sw__json_expect_object(sw__json* J, const cJSON* value);   /* "expected an object" */
sw_result sw__json_bool_value(sw__json* J, const cJSON* value, bool* out); /* "expected true or false" */
/* A number that is a finite float. */
sw_result sw__json_float_value(sw__json* J, const cJSON* value, float* out);
/* A whole number within ±9e15: "expected an integer", or in index_value
   "expected an integer index" (range is the caller's check); a number past
   the largest double (1e400, read as infinity) is said to be out of range. */
sw_result sw__json_integer_value(sw__json* J, const cJSON* value, int64_t* out);
sw_result sw__json_index_value(sw__json* J, const cJSON* value, int64_t* out);
/* Clamps *v into [lo, hi] with a warning at path.key; false only when out of memory. */
bool sw__json_clamp(sw__json* J, const char* key, float* v, float lo, float hi);

/* ---- typed getters: members ---------------------------------------------------
   `required`: absence is the error "missing"; otherwise absence leaves *out
   as it was (the caller's default), except that object/array/string
   getters set *out to NULL. */
sw_result sw__json_object(sw__json* J, const cJSON* object, const char* key, bool required, const cJSON** out);
sw_result sw__json_array(sw__json* J, const cJSON* object, const char* key, bool required, const cJSON** out);
/* The text stays in the tree (sw__json_copy keeps it). */
sw_result sw__json_string(sw__json* J, const cJSON* object, const char* key, bool required, const char** out);
sw_result sw__json_bool(sw__json* J, const cJSON* object, const char* key, bool* out);
sw_result sw__json_float(sw__json* J, const cJSON* object, const char* key, bool required, float* out);
/* An optional float clamped into [lo, hi] (a warning when it is not in it). */
sw_result sw__json_float_in(sw__json* J, const cJSON* object, const char* key, float lo, float hi, float* out);
/* An array of exactly n (1..4) finite floats: "expected an array of n numbers". */
sw_result sw__json_floats(sw__json* J, const cJSON* object, const char* key, int n, bool required, float* out);
/* Optional; each float clamped into [lo, hi]. */
sw_result sw__json_floats_in(sw__json* J, const cJSON* object, const char* key, int n, float lo, float hi,
                             float* out);
/* An optional object {x, y, z} (Unity's vectors): absent components are 0. */
sw_result sw__json_xyz(sw__json* J, const cJSON* object, const char* key, float out[3]);
/* Whole-number members, as the _value getters above; *present (may be
   NULL) says whether the member is there. */
sw_result sw__json_integer(sw__json* J, const cJSON* object, const char* key, bool required, bool* present,
                           int64_t* out);
sw_result sw__json_index(sw__json* J, const cJSON* object, const char* key, bool required, bool* present,
                         int64_t* out);
/* A required integer index in [0, limit); `what` names the array in the
   range message ("12 is out of range (the model has 3 nodes)"). */
sw_result sw__json_index_below(sw__json* J, const cJSON* object, const char* key, size_t limit, const char* what,
                               uint32_t* out);
/* An optional string from names[count]: its index in *out; an unknown one
   is a warning and leaves *out, which must hold a valid index. */
sw_result sw__json_enum(sw__json* J, const cJSON* object, const char* key, const char* const* names, int count,
                        int* out);

#endif
