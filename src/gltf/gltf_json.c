/* The glTF loader's shared machinery (see gltf_internal.h): JSON paths for
   messages, errors and warnings, the memory budget and arena allocation,
   and typed access to JSON values. Every value is type-checked where it is
   read, and every failure is one line naming the file and the JSON path. */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/base_internal.h"
#include "gltf_internal.h"

#define SW__BLOCK_SIZE ((size_t)64 << 10)
#define SW__MAX_WARNINGS 1000

/* ---- paths, errors and warnings ----------------------------------------------------- */

sw__path sw__pathf(const char* format, ...) {
    sw__path p;
    va_list args;
    va_start(args, format);
    vsnprintf(p.s, sizeof p.s, format, args);
    va_end(args);
    return p;
}

/* "path.key", or "key" at the top level, or "path" without a key. */
sw__path sw__at(const char* path, const char* key) {
    if (!key) return sw__pathf("%s", path);
    if (!path || !*path) return sw__pathf("%s", key);
    return sw__pathf("%s.%s", path, key);
}

/* Messages quote the file's strings (names, keys, URIs): sw__diag_vset_at
   and sw__line_at keep them one line (base_internal.h). */
sw_result sw__fail(sw__loader* L, sw_result code, const char* where, const char* format, ...) {
    va_list args;
    va_start(args, format);
    sw__diag_vset_at(&L->diag, code, -1, L->name, where, 256, format, args);
    va_end(args);
    return code;
}

/* Passes on an error from a helper that does not know the file or the path. */
sw_result sw__fail_from(sw__loader* L, const char* where, const sw_diag* inner) {
    sw_result r = sw__fail(L, inner->result, where, "%s", inner->message);
    L->diag.index = inner->index;
    return r;
}

/* Appends "name: where: text" to the asset's warnings. */
void sw__store_warning(sw__loader* L, const char* where, const char* text) {
    char line[512];
    sw__line_at(line, sizeof line, L->name, where, text);
    const size_t length = strlen(line);
    /* A warning that cannot be stored is dropped, not turned into an error:
       the allocation failure will show up as one anyway. */
    sw__warning* w = sw__arena_alloc(L, &L->scratch, sizeof *w);
    char* copy = w ? sw__arena_alloc(L, L->arena, length + 1) : NULL;
    if (!copy) return;
    memcpy(copy, line, length);
    copy[length] = '\0';
    w->next = NULL;
    w->text = copy;
    *L->warnings_tail = w;
    L->warnings_tail = &w->next;
    L->warning_count++;
}

/* A bad file could repeat one problem without end: at most
   SW__MAX_WARNINGS are kept, and a last line counts the rest. */
void sw__warn(sw__loader* L, const char* where, const char* format, ...) {
    if (L->warning_count >= SW__MAX_WARNINGS) {
        L->warnings_dropped++;
        return;
    }
    char text[256];
    va_list args;
    va_start(args, format);
    vsnprintf(text, sizeof text, format, args);
    va_end(args);
    sw__store_warning(L, where, text);
}

/* ---- memory ------------------------------------------------------------------------ */

/* Charges `size` bytes against max_memory. */
bool sw__charge(sw__loader* L, size_t size) {
    if (size > L->max_memory - L->used) {
        sw__fail(L, SW_ERR_OUT_OF_MEMORY, NULL,
                 "needs more memory than options.max_memory allows (%zu bytes in use, %zu more asked, limit %zu)",
                 L->used, size, L->max_memory);
        return false;
    }
    L->used += size;
    return true;
}

/* Zeroed memory from an arena, 16-byte aligned; NULL (with the error set)
   when over budget or out of memory. */
void* sw__arena_alloc(sw__loader* L, sw__arena* arena, size_t size) {
    if (size > SIZE_MAX - 64) {
        sw__fail(L, SW_ERR_OUT_OF_MEMORY, NULL, "allocation size overflows");
        return NULL;
    }
    size = (size + 15u) & ~(size_t)15u;
    if (size == 0) size = 16;
    sw__block* head = arena->head;
    if (head && head->size - head->used >= size) {
        unsigned char* p = (unsigned char*)head->data + head->used;
        head->used += size;
        memset(p, 0, size);
        return p;
    }
    /* Large requests get a block of their own, linked behind the current
       one so its free tail stays in use. calloc: a large block comes as
       fresh zero pages that nothing touches before the decoder writes
       them (a memset would touch them all first). */
    bool dedicated = size > SW__BLOCK_SIZE / 4;
    size_t data_size = dedicated ? size : SW__BLOCK_SIZE;
    size_t total = sizeof(sw__block) + data_size;
    if (!sw__charge(L, total)) return NULL;
    sw__block* b = sw__calloc(1, total);
    if (!b) {
        L->used -= total;
        sw__fail(L, SW_ERR_OUT_OF_MEMORY, NULL, "out of memory (%zu bytes)", total);
        return NULL;
    }
    b->size = data_size;
    b->used = size;
    if (dedicated && head) {
        b->next = head->next;
        head->next = b;
    } else {
        b->next = head;
        arena->head = b;
    }
    return b->data;
}

/* `count` × `size` bytes from an arena, with the product checked. */
void* sw__array(sw__loader* L, sw__arena* arena, size_t count, size_t size) {
    size_t bytes;
    if (!sw_mul_size(count, size, &bytes)) {
        sw__fail(L, SW_ERR_OUT_OF_MEMORY, NULL, "%zu elements of %zu bytes overflow the address space", count, size);
        return NULL;
    }
    return sw__arena_alloc(L, arena, bytes);
}

/* Large load-time temporaries (raw influence streams): malloc'd with their
   size in front, charged, and given back as soon as they are done with. */
void* sw__temp_alloc(sw__loader* L, size_t count, size_t size) {
    size_t bytes;
    if (!sw_mul_size(count, size, &bytes) || bytes > SIZE_MAX - 16) {
        sw__fail(L, SW_ERR_OUT_OF_MEMORY, NULL, "%zu elements of %zu bytes overflow the address space", count, size);
        return NULL;
    }
    if (!sw__charge(L, bytes + 16)) return NULL;
    max_align_t* p = sw__malloc(bytes + 16);
    if (!p) {
        L->used -= bytes + 16;
        sw__fail(L, SW_ERR_OUT_OF_MEMORY, NULL, "out of memory (%zu bytes)", bytes + 16);
        return NULL;
    }
    memcpy(p, &bytes, sizeof bytes);
    return (unsigned char*)p + 16;
}

void sw__temp_free(sw__loader* L, void* ptr) {
    if (!ptr) return;
    unsigned char* base = (unsigned char*)ptr - 16;
    size_t bytes;
    memcpy(&bytes, base, sizeof bytes);
    L->used -= bytes + 16;
    sw__free(base);
}

const char* sw__strdup(sw__loader* L, const char* s) {
    if (!s) return NULL;
    size_t n = strlen(s);
    char* copy = sw__arena_alloc(L, L->arena, n + 1);
    if (copy) memcpy(copy, s, n + 1);
    return copy;
}

/* ---- JSON values ------------------------------------------------------------------- */

const cJSON* sw__member(const cJSON* object, const char* key) {
    return cJSON_GetObjectItemCaseSensitive(object, key);
}

static sw_result sw__expected(sw__loader* L, const char* path, const char* key, const char* what) {
    return sw__fail(L, SW_ERR_INVALID_DATA, sw__at(path, key).s, "expected %s", what);
}

static sw_result sw__missing(sw__loader* L, const char* path, const char* key) {
    return sw__fail(L, SW_ERR_INVALID_DATA, sw__at(path, key).s, "required but missing");
}

/* A member that must pass `is` (cJSON's type tests) when present; *out is
   NULL when it is absent and optional. */
static sw_result sw__get_member(sw__loader* L, const cJSON* object, const char* path, const char* key, bool required,
                                cJSON_bool (*is)(const cJSON* const), const char* what, const cJSON** out) {
    const cJSON* v = sw__member(object, key);
    *out = NULL;
    if (!v) return required ? sw__missing(L, path, key) : SW_OK;
    if (!is(v)) return sw__expected(L, path, key, what);
    *out = v;
    return SW_OK;
}

sw_result sw__get_object(sw__loader* L, const cJSON* object, const char* path, const char* key, bool required,
                         const cJSON** out) {
    return sw__get_member(L, object, path, key, required, cJSON_IsObject, "an object", out);
}

sw_result sw__get_array(sw__loader* L, const cJSON* object, const char* path, const char* key, bool required,
                        const cJSON** out) {
    return sw__get_member(L, object, path, key, required, cJSON_IsArray, "an array", out);
}

sw_result sw__get_string(sw__loader* L, const cJSON* object, const char* path, const char* key, bool required,
                         const char** out) {
    const cJSON* v = NULL;
    sw_result r = sw__get_member(L, object, path, key, required, cJSON_IsString, "a string", &v);
    *out = v ? v->valuestring : NULL;
    if (r == SW_OK && v && !v->valuestring) return sw__expected(L, path, key, "a string");
    return r;
}

/* A string member copied into the asset (NULL when absent). */
sw_result sw__get_name(sw__loader* L, const cJSON* object, const char* path, const char** out) {
    const char* s;
    sw_result r = sw__get_string(L, object, path, "name", false, &s);
    if (r != SW_OK) return r;
    *out = sw__strdup(L, s);
    return s && !*out ? L->diag.result : SW_OK;
}

sw_result sw__get_bool(sw__loader* L, const cJSON* object, const char* path, const char* key, bool* inout) {
    const cJSON* v = sw__member(object, key);
    if (!v) return SW_OK;
    if (!cJSON_IsBool(v)) return sw__expected(L, path, key, "true or false");
    *inout = cJSON_IsTrue(v);
    return SW_OK;
}

/* cJSON reads a number beyond the largest double (1e400) as ±infinity:
   that is said as what it is, not as a type error. */
#define SW__BEYOND_DOUBLE "the number is out of range (beyond ±1.8e308, the largest a double holds)"

/* A finite number that fits a float. */
static sw_result sw__value_float(sw__loader* L, const cJSON* v, const char* where, float* out) {
    if (!cJSON_IsNumber(v)) return sw__fail(L, SW_ERR_INVALID_DATA, where, "expected a number");
    double d = v->valuedouble;
    if (isinf(d)) return sw__fail(L, SW_ERR_INVALID_DATA, where, SW__BEYOND_DOUBLE);
    if (!isfinite(d) || fabs(d) > FLT_MAX)
        return sw__fail(L, SW_ERR_INVALID_DATA, where, "%g is not a finite float", d);
    *out = (float)d;
    return SW_OK;
}

sw_result sw__get_float(sw__loader* L, const cJSON* object, const char* path, const char* key, float* inout) {
    const cJSON* v = sw__member(object, key);
    if (!v) return SW_OK;
    return sw__value_float(L, v, sw__at(path, key).s, inout);
}

/* An array of exactly `count` numbers (left as is when absent). */
sw_result sw__get_floats(sw__loader* L, const cJSON* object, const char* path, const char* key, float* inout,
                         size_t count) {
    const cJSON* v = sw__member(object, key);
    if (!v) return SW_OK;
    if (!cJSON_IsArray(v) || (size_t)cJSON_GetArraySize(v) != count) {
        char what[48];
        snprintf(what, sizeof what, "an array of %zu numbers", count);
        return sw__expected(L, path, key, what);
    }
    size_t i = 0;
    const cJSON* e;
    cJSON_ArrayForEach(e, v) {
        if (sw__value_float(L, e, sw__pathf("%s[%zu]", sw__at(path, key).s, i).s, &inout[i]) != SW_OK)
            return L->diag.result;
        i++;
    }
    return SW_OK;
}

/* An integer in [0, max] (JSON numbers are doubles; 2^53 bounds the exact ones).
   Numbers print as %.17g: integers in full up to 10^17, larger ones with an
   exponent (%.0f of 1e300 is 301 digits, which cut the message off). */
sw_result sw__value_uint(sw__loader* L, const cJSON* v, const char* where, double max, size_t* out) {
    if (cJSON_IsNumber(v) && isinf(v->valuedouble)) return sw__fail(L, SW_ERR_INVALID_DATA, where, SW__BEYOND_DOUBLE);
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || floor(v->valuedouble) != v->valuedouble)
        return sw__fail(L, SW_ERR_INVALID_DATA, where, "expected an integer");
    if (v->valuedouble < 0) return sw__fail(L, SW_ERR_INVALID_DATA, where, "expected an integer >= 0, got %.17g",
                                            v->valuedouble);
    if (v->valuedouble > max)
        return sw__fail(L, SW_ERR_INVALID_DATA, where, "%.17g is larger than the largest allowed value (%.17g)",
                        v->valuedouble, max);
    *out = (size_t)v->valuedouble;
    return SW_OK;
}

sw_result sw__get_uint(sw__loader* L, const cJSON* object, const char* path, const char* key, bool required,
                       double max, size_t* inout) {
    const cJSON* v = sw__member(object, key);
    if (!v) return required ? sw__missing(L, path, key) : SW_OK;
    if (max > sw__max_size) max = sw__max_size;
    if ((double)SIZE_MAX < max) max = (double)SIZE_MAX;
    return sw__value_uint(L, v, sw__at(path, key).s, max, inout);
}

/* An index into an array of `limit` items called `what` ("nodes"). */
sw_result sw__value_index(sw__loader* L, const cJSON* v, const char* where, size_t limit, const char* what,
                          uint32_t* out) {
    *out = 0;
    if (cJSON_IsNumber(v) && isinf(v->valuedouble)) return sw__fail(L, SW_ERR_INVALID_DATA, where, SW__BEYOND_DOUBLE);
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || floor(v->valuedouble) != v->valuedouble ||
        v->valuedouble < 0)
        return sw__fail(L, SW_ERR_INVALID_DATA, where, "expected an index (an integer >= 0)");
    if (v->valuedouble >= (double)limit)
        return sw__fail(L, SW_ERR_INDEX_OUT_OF_RANGE, where, "%.17g is out of range (%zu %s)", v->valuedouble, limit,
                        what);
    *out = (uint32_t)v->valuedouble;
    return SW_OK;
}

/* An optional index member: -1 when absent. */
sw_result sw__get_index(sw__loader* L, const cJSON* object, const char* path, const char* key, bool required,
                        const sw__jarray* array, const char* what, int32_t* out) {
    const cJSON* v = sw__member(object, key);
    *out = -1;
    if (!v) return required ? sw__missing(L, path, key) : SW_OK;
    uint32_t index = 0;
    if (sw__value_index(L, v, sw__at(path, key).s, array->count, what, &index) != SW_OK) return L->diag.result;
    *out = (int32_t)index;
    return SW_OK;
}

/* A top-level array of objects, kept as item pointers for O(1) access. */
sw_result sw__collect(sw__loader* L, const char* key, sw__jarray* out) {
    const cJSON* array;
    out->items = NULL;
    out->count = 0;
    if (sw__get_array(L, L->root, "", key, false, &array) != SW_OK) return L->diag.result;
    if (!array) return SW_OK;
    size_t count = (size_t)cJSON_GetArraySize(array);
    if (count > INT32_MAX) return sw__fail(L, SW_ERR_INVALID_DATA, key, "too many items (%zu)", count);
    if (count == 0) return SW_OK;
    out->items = sw__array(L, &L->scratch, count, sizeof *out->items);
    if (!out->items) return L->diag.result;
    size_t i = 0;
    const cJSON* item;
    cJSON_ArrayForEach(item, array) {
        if (!cJSON_IsObject(item))
            return sw__fail(L, SW_ERR_INVALID_DATA, sw__pathf("%s[%zu]", key, i).s, "expected an object");
        out->items[i++] = item;
    }
    out->count = count;
    return SW_OK;
}

/* Bytes cJSON holds for a tree, for the memory budget. Depth is bounded by
   cJSON's nesting limit; the guard keeps the recursion bounded regardless. */
size_t sw__json_bytes(const cJSON* item, int depth) {
    size_t total = 0;
    for (; item; item = item->next) {
        total += sizeof(cJSON);
        if (item->string) total += strlen(item->string) + 1;
        if (item->valuestring) total += strlen(item->valuestring) + 1;
        if (item->child && depth < CJSON_NESTING_LIMIT + 8) total += sw__json_bytes(item->child, depth + 1);
    }
    return total;
}


/* ---- the JSON text, before and after cJSON ------------------------------------------ */

/* Every value is one cJSON item: there are at most 1 + one per ',' + one
   per '[' or '{'. Every string (key or value) is copied with its
   terminator, in no more bytes than its escaped form. Strings are skipped
   as a whole, so brackets and commas inside them count for nothing. */
bool sw__scan_json(const char* json, size_t size, sw__json_scan* out) {
    *out = (sw__json_scan){.items = 1, .nul_at = SIZE_MAX, .too_deep_at = SIZE_MAX};
    size_t depth = 0;
    for (size_t i = 0; i < size; i++) {
        char c = json[i];
        if (c == '"') {
            size_t start = i;
            for (i++; i < size && json[i] != '"'; i++) {
                /* cJSON copies a raw 0 byte as it is */
                if (json[i] == '\0' && out->nul_at == SIZE_MAX) out->nul_at = i;
                if (json[i] != '\\') continue;
                if (out->nul_at == SIZE_MAX && size - i >= 6 && memcmp(json + i + 1, "u0000", 5) == 0) out->nul_at = i;
                i++;
            }
            out->string_bytes += (i < size ? i : size) - start; /* the characters, plus one for the terminator */
        } else if (c == '[' || c == '{') {
            out->items++;
            if (++depth > out->depth) out->depth = depth;
            if (depth > CJSON_NESTING_LIMIT) {
                out->too_deep_at = i;
                return false;
            }
        } else if ((c == ']' || c == '}') && depth > 0) {
            depth--;
        } else if (c == ',') {
            out->items++;
        }
    }
    return true;
}

size_t sw__json_scan_bytes(const sw__json_scan* scan) {
    size_t items;
    if (!sw_mul_size(scan->items, sizeof(cJSON), &items) || items > SIZE_MAX - scan->string_bytes) return SIZE_MAX;
    return items + scan->string_bytes;
}

/* One container open at some point of the text, for sw__refuse_json_nul. */
typedef struct sw__json_level {
    bool array, want_key;
    size_t index;          /* arrays: the element being read */
    const char* key;       /* objects: the member being read (raw text) */
    size_t key_length;
} sw__json_level;

/* cJSON decodes \u0000 into its copy (and copies a raw 0 byte), and the
   string ends there for every C reader: "a.bin\u0000.png" would be read as
   "a.bin", and a key "uri\u0000x" as "uri". cJSON keeps no lengths, so the
   text is walked again, up to the NUL, with the containers open at each
   point, to name the JSON path of the string that holds it. */
sw_result sw__refuse_json_nul(sw__loader* L, const char* json, size_t size, const sw__json_scan* scan) {
    const char* what = json[scan->nul_at] == '\\' ? "\\u0000" : "a 0 byte";
    sw__json_level* stack = sw__temp_alloc(L, scan->depth + 1, sizeof *stack);
    if (!stack) return L->diag.result;
    size_t top = 0;
    stack[0] = (sw__json_level){0};
    for (size_t i = 0; i < size && i < scan->nul_at; i++) {
        char c = json[i];
        if (c == '"') {
            size_t start = i + 1;
            bool is_key = top > 0 && !stack[top].array && stack[top].want_key;
            for (i++; i < size && json[i] != '"'; i++)
                if (json[i] == '\\') i++;
            if (scan->nul_at >= start && scan->nul_at < i) {
                /* the path to this string: every open container's current
                   member, the innermost one only when the string is its value */
                sw__path where = {""};
                size_t at = 0;
                for (size_t l = 1; l <= top && at < sizeof where.s; l++) {
                    int n = 0;
                    if (stack[l].array)
                        n = snprintf(where.s + at, sizeof where.s - at, "[%zu]", stack[l].index);
                    else if (l < top || !is_key)
                        n = snprintf(where.s + at, sizeof where.s - at, "%s%.*s", at ? "." : "",
                                     (int)(stack[l].key_length < 64 ? stack[l].key_length : 64), stack[l].key);
                    at += n > 0 ? (size_t)n : 0;
                }
                sw__temp_free(L, stack);
                if (is_key)
                    return sw__fail(L, SW_ERR_INVALID_DATA, where.s,
                                    "the key \"%.*s\" holds a NUL character (%s at byte %zu of the JSON), which "
                                    "would cut it short",
                                    (int)(i - start < 48 ? i - start : 48), json + start, what, scan->nul_at);
                return sw__fail(L, SW_ERR_INVALID_DATA, where.s,
                                "holds a NUL character (%s at byte %zu of the JSON), which would cut it short", what,
                                scan->nul_at);
            }
            if (is_key) {
                stack[top].key = json + start;
                stack[top].key_length = (i < size ? i : size) - start;
                stack[top].want_key = false;
            }
        } else if ((c == '[' || c == '{') && top < scan->depth) {
            stack[++top] = (sw__json_level){.array = c == '[', .want_key = c == '{'};
        } else if ((c == ']' || c == '}') && top > 0) {
            top--;
        } else if (c == ',' && top > 0) {
            if (stack[top].array) stack[top].index++;
            else stack[top].want_key = true;
        }
    }
    sw__temp_free(L, stack);
    /* not reached for text that cJSON parsed; a plain message all the same */
    return sw__fail(L, SW_ERR_INVALID_DATA, NULL, "a string holds a NUL character (%s at byte %zu of the JSON)", what,
                    scan->nul_at);
}
