/* glTF 2.0 loader: GLB container, JSON (cJSON), buffers, accessors, scene
   graph, meshes, skins, animations, materials (see sinew/gltf.h).

   One pass per top-level array, in dependency order; every JSON value is
   type-checked where it is read, and every failure is one line naming the
   file and the JSON path. The asset lives in an arena (a list of malloc'd
   blocks) freed by sw_model_free; load-time scratch lives in a second arena
   and in a few large temporaries, all charged against options.max_memory
   and freed before the loader returns. */
#define _POSIX_C_SOURCE 200809L /* fstat, strerror_r */

#include <cjson/cJSON.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gltf_internal.h"
#include "../model/model_internal.h"

#define SW__DEFAULT_MAX_MEMORY ((size_t)4 << 30)
#define SW__BLOCK_SIZE ((size_t)64 << 10)
#define SW__MAX_WARNINGS 1000
#define SW__MAX_SETS 64 /* TEXCOORD_n / JOINTS_n / ... sets looked at per primitive */

/* ---- loader state, errors and warnings ------------------------------------------- */

typedef struct sw__jarray {
    const cJSON** items;
    size_t count;
} sw__jarray;

typedef struct sw__warning {
    struct sw__warning* next;
    char* text;
} sw__warning;

typedef struct sw__loader {
    sw_diag diag;
    const char* name;               /* for messages */
    const char* base_dir;           /* NULL: external files refused */
    bool allow_outside;
    int max_influences;
    bool keep_raw_influences;
    size_t max_memory, used;        /* budget and bytes charged so far */
    sw__model_owner* owner;
    sw__arena* arena;               /* the asset's memory */
    sw__arena scratch;              /* load-time memory */
    const cJSON* root;
    bool glb, has_bin;
    const uint8_t* bin;
    size_t bin_size;
    bool quantization_declared, quantization_used;
    sw__jarray buffers, buffer_views, accessors, images, samplers, textures, materials, meshes, nodes, skins,
        scenes, animations;
    sw__jarray cameras;             /* count only: cameras are not read */
    const uint8_t** buffer_data;
    size_t* buffer_size;
    sw__gltf_buffer_view* views;
    sw__gltf_accessor* acc;
    const float** times;            /* per accessor: decoded, validated key times (cache) */
    uint32_t* order;                /* nodes parents first (file indices) */
    sw_model_node* nodes_out;
    sw_model_mesh* meshes_out;
    sw_model_skin* skins_out;
    sw__warning *warnings, **warnings_tail;
    size_t warning_count, warnings_dropped;
} sw__loader;

#define SW__PATH_SIZE 192
typedef struct sw__path {
    char s[SW__PATH_SIZE];
} sw__path;

#if defined(__GNUC__)
#define SW__PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define SW__PRINTF(a, b)
#endif

static sw__path sw__pathf(const char* format, ...) SW__PRINTF(1, 2);
static sw__path sw__pathf(const char* format, ...) {
    sw__path p;
    va_list args;
    va_start(args, format);
    vsnprintf(p.s, sizeof p.s, format, args);
    va_end(args);
    return p;
}

/* "path.key", or "key" at the top level, or "path" without a key. */
static sw__path sw__at(const char* path, const char* key) {
    if (!key) return sw__pathf("%s", path);
    if (!path || !*path) return sw__pathf("%s", key);
    return sw__pathf("%s.%s", path, key);
}

static sw_result sw__fail(sw__loader* L, sw_result code, const char* where, const char* format, ...)
    SW__PRINTF(4, 5);
/* Messages quote the file's strings (names, keys, URIs); control
   characters in them become '?', so a message stays one line and cannot
   carry terminal escapes. */
static void sw__one_line(char* s) {
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f) *s = '?';
}

static sw_result sw__fail(sw__loader* L, sw_result code, const char* where, const char* format, ...) {
    char text[256];
    va_list args;
    va_start(args, format);
    vsnprintf(text, sizeof text, format, args);
    va_end(args);
    if (where && *where) sw_diag_set(&L->diag, code, -1, "%s: %s: %s", L->name, where, text);
    else sw_diag_set(&L->diag, code, -1, "%s: %s", L->name, text);
    sw__one_line(L->diag.message);
    return code;
}

/* Passes on an error from a helper that does not know the file or the path. */
static sw_result sw__fail_from(sw__loader* L, const char* where, const sw_diag* inner) {
    sw_result r = sw__fail(L, inner->result, where, "%s", inner->message);
    L->diag.index = inner->index;
    return r;
}

static void* sw__arena_alloc(sw__loader* L, sw__arena* arena, size_t size);

/* Appends "name: where: text" to the asset's warnings. */
static void sw__store_warning(sw__loader* L, const char* where, const char* text) {
    char line[512];
    int n = where && *where ? snprintf(line, sizeof line, "%s: %s: %s", L->name, where, text)
                            : snprintf(line, sizeof line, "%s: %s", L->name, text);
    size_t length = n < 0 ? 0 : (size_t)n < sizeof line ? (size_t)n : sizeof line - 1;
    line[length] = '\0';
    sw__one_line(line);
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
static void sw__warn(sw__loader* L, const char* where, const char* format, ...) SW__PRINTF(3, 4);
static void sw__warn(sw__loader* L, const char* where, const char* format, ...) {
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
static bool sw__charge(sw__loader* L, size_t size) {
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
static void* sw__arena_alloc(sw__loader* L, sw__arena* arena, size_t size) {
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
       one so its free tail stays in use. */
    bool dedicated = size > SW__BLOCK_SIZE / 4;
    size_t data_size = dedicated ? size : SW__BLOCK_SIZE;
    size_t total = sizeof(sw__block) + data_size;
    if (!sw__charge(L, total)) return NULL;
    sw__block* b = malloc(total);
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
    memset(b->data, 0, size);
    return b->data;
}

/* `count` × `size` bytes from an arena, with the product checked. */
static void* sw__array(sw__loader* L, sw__arena* arena, size_t count, size_t size) {
    size_t bytes;
    if (!sw_mul_size(count, size, &bytes)) {
        sw__fail(L, SW_ERR_OUT_OF_MEMORY, NULL, "%zu elements of %zu bytes overflow the address space", count, size);
        return NULL;
    }
    return sw__arena_alloc(L, arena, bytes);
}

/* Large load-time temporaries (raw influence streams): malloc'd with their
   size in front, charged, and given back as soon as they are done with. */
static void* sw__temp_alloc(sw__loader* L, size_t count, size_t size) {
    size_t bytes;
    if (!sw_mul_size(count, size, &bytes) || bytes > SIZE_MAX - 16) {
        sw__fail(L, SW_ERR_OUT_OF_MEMORY, NULL, "%zu elements of %zu bytes overflow the address space", count, size);
        return NULL;
    }
    if (!sw__charge(L, bytes + 16)) return NULL;
    max_align_t* p = malloc(bytes + 16);
    if (!p) {
        L->used -= bytes + 16;
        sw__fail(L, SW_ERR_OUT_OF_MEMORY, NULL, "out of memory (%zu bytes)", bytes + 16);
        return NULL;
    }
    memcpy(p, &bytes, sizeof bytes);
    return (unsigned char*)p + 16;
}

static void sw__temp_free(sw__loader* L, void* ptr) {
    if (!ptr) return;
    unsigned char* base = (unsigned char*)ptr - 16;
    size_t bytes;
    memcpy(&bytes, base, sizeof bytes);
    L->used -= bytes + 16;
    free(base);
}

static const char* sw__strdup(sw__loader* L, const char* s) {
    if (!s) return NULL;
    size_t n = strlen(s);
    char* copy = sw__arena_alloc(L, L->arena, n + 1);
    if (copy) memcpy(copy, s, n + 1);
    return copy;
}

/* ---- JSON values ------------------------------------------------------------------- */

static const cJSON* sw__member(const cJSON* object, const char* key) {
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

static sw_result sw__get_object(sw__loader* L, const cJSON* object, const char* path, const char* key, bool required,
                                const cJSON** out) {
    return sw__get_member(L, object, path, key, required, cJSON_IsObject, "an object", out);
}

static sw_result sw__get_array(sw__loader* L, const cJSON* object, const char* path, const char* key, bool required,
                               const cJSON** out) {
    return sw__get_member(L, object, path, key, required, cJSON_IsArray, "an array", out);
}

static sw_result sw__get_string(sw__loader* L, const cJSON* object, const char* path, const char* key, bool required,
                                const char** out) {
    const cJSON* v = NULL;
    sw_result r = sw__get_member(L, object, path, key, required, cJSON_IsString, "a string", &v);
    *out = v ? v->valuestring : NULL;
    if (r == SW_OK && v && !v->valuestring) return sw__expected(L, path, key, "a string");
    return r;
}

/* A string member copied into the asset (NULL when absent). */
static sw_result sw__get_name(sw__loader* L, const cJSON* object, const char* path, const char** out) {
    const char* s;
    sw_result r = sw__get_string(L, object, path, "name", false, &s);
    if (r != SW_OK) return r;
    *out = sw__strdup(L, s);
    return s && !*out ? L->diag.result : SW_OK;
}

static sw_result sw__get_bool(sw__loader* L, const cJSON* object, const char* path, const char* key, bool* inout) {
    const cJSON* v = sw__member(object, key);
    if (!v) return SW_OK;
    if (!cJSON_IsBool(v)) return sw__expected(L, path, key, "true or false");
    *inout = cJSON_IsTrue(v);
    return SW_OK;
}

/* A finite number that fits a float. */
static sw_result sw__value_float(sw__loader* L, const cJSON* v, const char* where, float* out) {
    if (!cJSON_IsNumber(v)) return sw__fail(L, SW_ERR_INVALID_DATA, where, "expected a number");
    double d = v->valuedouble;
    if (!isfinite(d) || fabs(d) > FLT_MAX)
        return sw__fail(L, SW_ERR_INVALID_DATA, where, "%g is not a finite float", d);
    *out = (float)d;
    return SW_OK;
}

static sw_result sw__get_float(sw__loader* L, const cJSON* object, const char* path, const char* key, float* inout) {
    const cJSON* v = sw__member(object, key);
    if (!v) return SW_OK;
    return sw__value_float(L, v, sw__at(path, key).s, inout);
}

/* An array of exactly `count` numbers (left as is when absent). */
static sw_result sw__get_floats(sw__loader* L, const cJSON* object, const char* path, const char* key, float* inout,
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
static sw_result sw__value_uint(sw__loader* L, const cJSON* v, const char* where, double max, size_t* out) {
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

static const double sw__max_size = 9007199254740992.0; /* 2^53 */

static sw_result sw__get_uint(sw__loader* L, const cJSON* object, const char* path, const char* key, bool required,
                              double max, size_t* inout) {
    const cJSON* v = sw__member(object, key);
    if (!v) return required ? sw__missing(L, path, key) : SW_OK;
    if (max > sw__max_size) max = sw__max_size;
    if ((double)SIZE_MAX < max) max = (double)SIZE_MAX;
    return sw__value_uint(L, v, sw__at(path, key).s, max, inout);
}

/* An index into an array of `limit` items called `what` ("nodes"). */
static sw_result sw__value_index(sw__loader* L, const cJSON* v, const char* where, size_t limit, const char* what,
                                 uint32_t* out) {
    *out = 0;
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
static sw_result sw__get_index(sw__loader* L, const cJSON* object, const char* path, const char* key, bool required,
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
static sw_result sw__collect(sw__loader* L, const char* key, sw__jarray* out) {
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
static size_t sw__json_bytes(const cJSON* item, int depth) {
    size_t total = 0;
    for (; item; item = item->next) {
        total += sizeof(cJSON);
        if (item->string) total += strlen(item->string) + 1;
        if (item->valuestring) total += strlen(item->valuestring) + 1;
        if (item->child && depth < CJSON_NESTING_LIMIT + 8) total += sw__json_bytes(item->child, depth + 1);
    }
    return total;
}

/* ---- files and URIs ----------------------------------------------------------------- */

static void sw__errno_text(int error, char* out, size_t size) {
    if (strerror_r(error, out, size) != 0) snprintf(out, size, "error %d", error);
}

sw_result sw__gltf_read_file(const char* path, const char* label, size_t max_size,
                             void* (*alloc)(void* user, size_t size), void* user, uint8_t** out_data,
                             size_t* out_size, sw_diag* diag) {
    char reason[128];
    *out_data = NULL;
    *out_size = 0;
    FILE* f = fopen(path, "rb");
    if (!f) {
        sw__errno_text(errno, reason, sizeof reason);
        return sw_diag_set(diag, SW_ERR_IO, -1, "%s: cannot open (%s)", label, reason);
    }
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
        fclose(f);
        return sw_diag_set(diag, SW_ERR_IO, -1, "%s: not a regular file", label);
    }
    if (st.st_size < 0 || (uintmax_t)st.st_size > max_size) {
        fclose(f);
        return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1,
                           "%s: %jd bytes is more than the memory allowed (%zu bytes left of max_memory)", label,
                           (intmax_t)st.st_size, max_size);
    }
    size_t size = (size_t)st.st_size;
    uint8_t* data = alloc(user, size ? size : 1);
    if (!data) {
        fclose(f);
        return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "%s: no memory for %zu bytes", label, size);
    }
    size_t got = size ? fread(data, 1, size, f) : 0;
    int error = ferror(f) ? errno : 0;
    fclose(f);
    if (got != size) {
        if (error) sw__errno_text(error, reason, sizeof reason);
        else snprintf(reason, sizeof reason, "file shrank to %zu bytes", got);
        return sw_diag_set(diag, SW_ERR_IO, -1, "%s: cannot read (%s)", label, reason);
    }
    *out_data = data;
    *out_size = size;
    return SW_OK;
}

static bool sw__is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

sw_result sw__gltf_uri_to_path(const char* uri, const char* base_dir, bool allow_outside, char** out_path,
                               sw_diag* diag) {
    *out_path = NULL;
    size_t length = strlen(uri);
    if (length == 0) return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "empty uri");
    /* A scheme (RFC 3986: ALPHA *(ALPHA / DIGIT / + - .) ":"); one letter
       before ':' is a Windows drive, an absolute path. */
    size_t s = 0;
    if (sw__is_alpha(uri[0])) {
        s = 1;
        while (sw__is_alpha(uri[s]) || (uri[s] >= '0' && uri[s] <= '9') || uri[s] == '+' || uri[s] == '-' ||
               uri[s] == '.')
            s++;
        if (uri[s] == ':' && s > 1)
            return sw_diag_set(diag, SW_ERR_UNSUPPORTED, -1,
                               "'%.*s:' URIs are not supported (only relative paths and data: URIs)", (int)s, uri);
    }
    char* decoded = malloc(length + 1);
    if (!decoded) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory");
    size_t n;
    if (!sw__gltf_percent_decode(uri, length, decoded, &n)) {
        free(decoded);
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "'%s' has a malformed %%-escape", uri);
    }
    decoded[n] = '\0';
    if (strlen(decoded) != n) {
        free(decoded);
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "'%s' contains a NUL byte", uri);
    }
    bool absolute = decoded[0] == '/' || decoded[0] == '\\' || (sw__is_alpha(decoded[0]) && decoded[1] == ':');
    /* ".." is checked lexically: any prefix of the path that climbs above
       the asset's folder counts, whatever follows. */
    bool outside = absolute;
    long depth = 0;
    for (size_t i = 0; i < n && !outside;) {
        size_t j = i;
        while (j < n && decoded[j] != '/' && decoded[j] != '\\') j++;
        size_t segment = j - i;
        if (segment == 2 && decoded[i] == '.' && decoded[i + 1] == '.') {
            if (--depth < 0) outside = true;
        } else if (segment > 0 && !(segment == 1 && decoded[i] == '.')) {
            depth++;
        }
        i = j + 1;
    }
    if (outside && !allow_outside) {
        sw_result r = sw_diag_set(diag, SW_ERR_INVALID_DATA, -1,
                                  "'%s' %s (set options.allow_outside_paths to allow it)", uri,
                                  absolute ? "is an absolute path" : "leaves the asset's folder");
        free(decoded);
        return r;
    }
    if (absolute) {
        *out_path = decoded;
        return SW_OK;
    }
    if (!base_dir) {
        sw_result r = sw_diag_set(diag, SW_ERR_IO, -1,
                                  "'%s' is an external file, but no base folder was given to read it from", uri);
        free(decoded);
        return r;
    }
    size_t base_length = strlen(base_dir);
    char* path = malloc(base_length + n + 2);
    if (!path) {
        free(decoded);
        return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory");
    }
    memcpy(path, base_dir, base_length);
    size_t at = base_length;
    if (base_length > 0 && base_dir[base_length - 1] != '/') path[at++] = '/';
    memcpy(path + at, decoded, n + 1);
    free(decoded);
    *out_path = path;
    return SW_OK;
}

static void* sw__file_alloc(void* user, size_t size) {
    sw__loader* L = user;
    return sw__arena_alloc(L, L->arena, size);
}

static void* sw__file_alloc_temp(void* user, size_t size) { return sw__temp_alloc(user, size, 1); }

/* ---- document header ------------------------------------------------------------ */

static bool sw__parse_version(const char* s, long* major, long* minor) {
    char* end;
    if (!(*s >= '0' && *s <= '9')) return false;
    *major = strtol(s, &end, 10);
    if (*end != '.' || !(end[1] >= '0' && end[1] <= '9')) return false;
    *minor = strtol(end + 1, &end, 10);
    return *end == '\0';
}

static const char* const sw__supported_extensions[] = {
    "KHR_mesh_quantization",
    "KHR_texture_transform",
    "KHR_materials_unlit",
};

static sw_result sw__parse_header(sw__loader* L) {
    const cJSON* asset;
    const char *version, *min_version, *generator;
    if (sw__get_object(L, L->root, "", "asset", true, &asset) != SW_OK) return L->diag.result;
    const cJSON* v = sw__member(asset, "version");
    if (cJSON_IsNumber(v) && v->valuedouble < 2.0) /* some 1.0 files write a number */
        return sw__fail(L, SW_ERR_UNSUPPORTED, "asset.version", "glTF 1.0 is not supported (only glTF 2.x)");
    if (sw__get_string(L, asset, "asset", "version", true, &version) != SW_OK) return L->diag.result;
    long major, minor;
    if (!sw__parse_version(version, &major, &minor))
        return sw__fail(L, SW_ERR_INVALID_DATA, "asset.version", "'%s' is not <major>.<minor>", version);
    if (major == 1)
        return sw__fail(L, SW_ERR_UNSUPPORTED, "asset.version",
                        "glTF 1.0 is not supported (only glTF 2.x; the file says %s)", version);
    if (major != 2)
        return sw__fail(L, SW_ERR_UNSUPPORTED, "asset.version", "glTF %s is not supported (only glTF 2.x)", version);
    if (sw__get_string(L, asset, "asset", "minVersion", false, &min_version) != SW_OK) return L->diag.result;
    if (min_version) {
        long min_major, min_minor;
        if (!sw__parse_version(min_version, &min_major, &min_minor))
            return sw__fail(L, SW_ERR_INVALID_DATA, "asset.minVersion", "'%s' is not <major>.<minor>", min_version);
        if (min_major != 2 || min_minor > 0)
            return sw__fail(L, SW_ERR_UNSUPPORTED, "asset.minVersion", "%s is newer than this loader (glTF 2.0)",
                            min_version);
    }
    if (sw__get_string(L, asset, "asset", "generator", false, &generator) != SW_OK) return L->diag.result;
    L->owner->model.generator = sw__strdup(L, generator);
    if (generator && !L->owner->model.generator) return L->diag.result;

    const cJSON *used, *required, *e;
    if (sw__get_array(L, L->root, "", "extensionsUsed", false, &used) != SW_OK) return L->diag.result;
    size_t i = 0;
    cJSON_ArrayForEach(e, used) {
        if (!cJSON_IsString(e) || !e->valuestring)
            return sw__fail(L, SW_ERR_INVALID_DATA, sw__pathf("extensionsUsed[%zu]", i).s, "expected a string");
        if (strcmp(e->valuestring, "KHR_mesh_quantization") == 0) L->quantization_declared = true;
        i++;
    }
    if (sw__get_array(L, L->root, "", "extensionsRequired", false, &required) != SW_OK) return L->diag.result;
    i = 0;
    cJSON_ArrayForEach(e, required) {
        if (!cJSON_IsString(e) || !e->valuestring)
            return sw__fail(L, SW_ERR_INVALID_DATA, sw__pathf("extensionsRequired[%zu]", i).s, "expected a string");
        bool supported = false;
        for (size_t k = 0; k < sizeof sw__supported_extensions / sizeof sw__supported_extensions[0]; k++)
            if (strcmp(e->valuestring, sw__supported_extensions[k]) == 0) supported = true;
        if (!supported)
            return sw__fail(L, SW_ERR_UNSUPPORTED, sw__pathf("extensionsRequired[%zu]", i).s,
                            "the file requires %s, which is not supported", e->valuestring);
        if (strcmp(e->valuestring, "KHR_mesh_quantization") == 0) L->quantization_declared = true;
        i++;
    }
    /* `scene` is range-checked once scenes are read; its type is checked
       now, so a mistyped file says so before anything else fails. */
    const cJSON* scene = sw__member(L->root, "scene");
    size_t unused;
    if (scene && sw__value_uint(L, scene, "scene", sw__max_size, &unused) != SW_OK) return L->diag.result;
    return SW_OK;
}

/* ---- buffers, buffer views, accessors ------------------------------------------------ */

static uint32_t sw__read_u32(const uint8_t* p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static bool sw__is_data_uri(const char* uri) { return strncmp(uri, "data:", 5) == 0; }

static sw_result sw__load_buffers(sw__loader* L) {
    size_t n = L->buffers.count;
    if (n == 0) return SW_OK;
    L->buffer_data = sw__array(L, L->arena, n, sizeof *L->buffer_data);
    L->buffer_size = sw__array(L, L->arena, n, sizeof *L->buffer_size);
    if (!L->buffer_data || !L->buffer_size) return L->diag.result;
    for (size_t i = 0; i < n; i++) {
        const cJSON* b = L->buffers.items[i];
        sw__path path = sw__pathf("buffers[%zu]", i);
        size_t byte_length = 0;
        const char* uri;
        if (sw__get_uint(L, b, path.s, "byteLength", true, sw__max_size, &byte_length) != SW_OK) return L->diag.result;
        if (byte_length == 0) return sw__fail(L, SW_ERR_INVALID_DATA, sw__at(path.s, "byteLength").s, "must be >= 1");
        if (sw__get_string(L, b, path.s, "uri", false, &uri) != SW_OK) return L->diag.result;
        const uint8_t* data = NULL;
        size_t available = 0;
        char source[96];
        sw_diag inner = {0};
        if (!uri) {
            if (i != 0 || !L->glb)
                return sw__fail(L, SW_ERR_INVALID_DATA, path.s, "no uri (only buffer 0 of a GLB may omit it)");
            if (!L->has_bin) return sw__fail(L, SW_ERR_INVALID_DATA, path.s, "no uri, and the GLB has no BIN chunk");
            uint8_t* copy = sw__arena_alloc(L, L->arena, L->bin_size);
            if (!copy) return L->diag.result;
            memcpy(copy, L->bin, L->bin_size);
            data = copy;
            available = L->bin_size;
            snprintf(source, sizeof source, "the GLB BIN chunk");
        } else if (sw__is_data_uri(uri)) {
            size_t length = strlen(uri), size;
            if (sw_gltf_decode_data_uri(uri, length, NULL, 0, &size, &inner) != SW_OK)
                return sw__fail_from(L, sw__at(path.s, "uri").s, &inner);
            uint8_t* decoded = sw__arena_alloc(L, L->arena, size);
            if (!decoded) return L->diag.result;
            if (sw_gltf_decode_data_uri(uri, length, decoded, size, &size, &inner) != SW_OK)
                return sw__fail_from(L, sw__at(path.s, "uri").s, &inner);
            data = decoded;
            available = size;
            snprintf(source, sizeof source, "its data: URI");
        } else {
            char* file;
            if (sw__gltf_uri_to_path(uri, L->base_dir, L->allow_outside, &file, &inner) != SW_OK)
                return sw__fail_from(L, sw__at(path.s, "uri").s, &inner);
            char label[96];
            snprintf(label, sizeof label, "'%s'", uri);
            uint8_t* bytes;
            sw_result r = sw__gltf_read_file(file, label, L->max_memory - L->used, sw__file_alloc, L, &bytes,
                                             &available, &inner);
            free(file);
            if (r != SW_OK) {
                /* a budget failure inside the arena already set a fuller message */
                if (r == SW_ERR_OUT_OF_MEMORY && L->diag.result == SW_ERR_OUT_OF_MEMORY) return r;
                return sw__fail_from(L, path.s, &inner);
            }
            data = bytes;
            snprintf(source, sizeof source, "'%.80s'", uri);
        }
        if (byte_length > available)
            return sw__fail(L, SW_ERR_INVALID_DATA, sw__at(path.s, "byteLength").s,
                            "%zu bytes, but %s holds only %zu", byte_length, source, available);
        L->buffer_data[i] = data;
        L->buffer_size[i] = byte_length;
    }
    return SW_OK;
}

static sw_result sw__parse_buffer_views(sw__loader* L) {
    size_t n = L->buffer_views.count;
    if (n == 0) return SW_OK;
    L->views = sw__array(L, L->arena, n, sizeof *L->views);
    if (!L->views) return L->diag.result;
    for (size_t i = 0; i < n; i++) {
        const cJSON* v = L->buffer_views.items[i];
        sw__path path = sw__pathf("bufferViews[%zu]", i);
        int32_t buffer;
        size_t offset = 0, length = 0, stride = 0, target = 0;
        if (sw__get_index(L, v, path.s, "buffer", true, &L->buffers, "buffers", &buffer) != SW_OK ||
            sw__get_uint(L, v, path.s, "byteOffset", false, sw__max_size, &offset) != SW_OK ||
            sw__get_uint(L, v, path.s, "byteLength", true, sw__max_size, &length) != SW_OK ||
            sw__get_uint(L, v, path.s, "byteStride", false, sw__max_size, &stride) != SW_OK ||
            sw__get_uint(L, v, path.s, "target", false, sw__max_size, &target) != SW_OK)
            return L->diag.result;
        if (length == 0) return sw__fail(L, SW_ERR_INVALID_DATA, sw__at(path.s, "byteLength").s, "must be >= 1");
        if (sw__member(v, "byteStride") && (stride < 4 || stride > 252 || stride % 4 != 0))
            return sw__fail(L, SW_ERR_INVALID_DATA, sw__at(path.s, "byteStride").s,
                            "%zu is not a multiple of 4 between 4 and 252", stride);
        size_t size = L->buffer_size[buffer];
        if (offset > size || length > size - offset)
            return sw__fail(L, SW_ERR_INVALID_DATA, path.s,
                            "byteOffset %zu + byteLength %zu runs past the end of buffers[%d] (%zu bytes)", offset,
                            length, (int)buffer, size);
        L->views[i] = (sw__gltf_buffer_view){
            .buffer = (uint32_t)buffer, .byte_offset = offset, .byte_length = length, .byte_stride = (uint32_t)stride};
    }
    return SW_OK;
}

static bool sw__element_type(const char* type, uint32_t* columns, uint32_t* rows) {
    static const struct { const char* name; uint32_t columns, rows; } types[] = {
        {"SCALAR", 1, 1}, {"VEC2", 1, 2}, {"VEC3", 1, 3}, {"VEC4", 1, 4},
        {"MAT2", 2, 2}, {"MAT3", 3, 3}, {"MAT4", 4, 4},
    };
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        if (strcmp(type, types[i].name) == 0) {
            *columns = types[i].columns;
            *rows = types[i].rows;
            return true;
        }
    }
    return false;
}

/* Bytes of a bufferView from `offset` on, or an error when offset is past its end. */
static sw_result sw__view_bytes(sw__loader* L, const char* where, int32_t view, size_t offset, const uint8_t** data,
                                size_t* size) {
    const sw__gltf_buffer_view* v = &L->views[view];
    if (offset > v->byte_length)
        return sw__fail(L, SW_ERR_INVALID_DATA, where, "byteOffset %zu is past the end of bufferViews[%d] (%zu bytes)",
                        offset, (int)view, v->byte_length);
    *data = L->buffer_data[v->buffer] + v->byte_offset + offset;
    *size = v->byte_length - offset;
    return SW_OK;
}

static sw_result sw__parse_accessor(sw__loader* L, const cJSON* j, const char* path, sw__gltf_accessor* a) {
    int32_t view;
    size_t offset = 0, component = 0, count = 0;
    const char* type;
    bool normalized = false;
    if (sw__get_index(L, j, path, "bufferView", false, &L->buffer_views, "bufferViews", &view) != SW_OK ||
        sw__get_uint(L, j, path, "byteOffset", false, sw__max_size, &offset) != SW_OK ||
        sw__get_uint(L, j, path, "componentType", true, sw__max_size, &component) != SW_OK ||
        sw__get_bool(L, j, path, "normalized", &normalized) != SW_OK ||
        sw__get_uint(L, j, path, "count", true, sw__max_size, &count) != SW_OK ||
        sw__get_string(L, j, path, "type", true, &type) != SW_OK)
        return L->diag.result;
    if (sw__gltf_component_size((uint32_t)component) == 0 || component > UINT32_MAX)
        return sw__fail(L, SW_ERR_INVALID_DATA, sw__at(path, "componentType").s,
                        "%zu is not a glTF 2.0 componentType (5120, 5121, 5122, 5123, 5125, 5126)", component);
    if (count == 0) return sw__fail(L, SW_ERR_INVALID_DATA, sw__at(path, "count").s, "must be >= 1");
    *a = (sw__gltf_accessor){.component_type = (uint32_t)component, .normalized = normalized, .count = count};
    if (!sw__element_type(type, &a->columns, &a->rows))
        return sw__fail(L, SW_ERR_INVALID_DATA, sw__at(path, "type").s,
                        "'%s' is not SCALAR, VEC2, VEC3, VEC4, MAT2, MAT3 or MAT4", type);
    if (view >= 0) {
        if (sw__view_bytes(L, sw__at(path, "byteOffset").s, view, offset, &a->data, &a->data_size) != SW_OK)
            return L->diag.result;
        a->stride = L->views[view].byte_stride;
    }

    const cJSON* sparse;
    if (sw__get_object(L, j, path, "sparse", false, &sparse) != SW_OK) return L->diag.result;
    if (sparse) {
        sw__path sp = sw__at(path, "sparse");
        const cJSON *indices, *values;
        size_t sparse_count = 0, index_type = 0, index_offset = 0, value_offset = 0;
        int32_t index_view, value_view;
        if (sw__get_uint(L, sparse, sp.s, "count", true, sw__max_size, &sparse_count) != SW_OK ||
            sw__get_object(L, sparse, sp.s, "indices", true, &indices) != SW_OK ||
            sw__get_object(L, sparse, sp.s, "values", true, &values) != SW_OK)
            return L->diag.result;
        sw__path ip = sw__at(sp.s, "indices"), vp = sw__at(sp.s, "values");
        if (sw__get_index(L, indices, ip.s, "bufferView", true, &L->buffer_views, "bufferViews", &index_view) !=
                SW_OK ||
            sw__get_uint(L, indices, ip.s, "byteOffset", false, sw__max_size, &index_offset) != SW_OK ||
            sw__get_uint(L, indices, ip.s, "componentType", true, sw__max_size, &index_type) != SW_OK ||
            sw__get_index(L, values, vp.s, "bufferView", true, &L->buffer_views, "bufferViews", &value_view) != SW_OK ||
            sw__get_uint(L, values, vp.s, "byteOffset", false, sw__max_size, &value_offset) != SW_OK)
            return L->diag.result;
        if (sparse_count == 0) return sw__fail(L, SW_ERR_INVALID_DATA, sw__at(sp.s, "count").s, "must be >= 1");
        if (index_type != SW__GLTF_UNSIGNED_BYTE && index_type != SW__GLTF_UNSIGNED_SHORT &&
            index_type != SW__GLTF_UNSIGNED_INT)
            return sw__fail(L, SW_ERR_INVALID_DATA, sw__at(ip.s, "componentType").s,
                            "%zu is not UNSIGNED_BYTE, UNSIGNED_SHORT or UNSIGNED_INT", index_type);
        a->sparse_count = sparse_count;
        a->sparse_index_type = (uint32_t)index_type;
        if (sw__view_bytes(L, sw__at(ip.s, "byteOffset").s, index_view, index_offset, &a->sparse_indices,
                           &a->sparse_indices_size) != SW_OK ||
            sw__view_bytes(L, sw__at(vp.s, "byteOffset").s, value_view, value_offset, &a->sparse_values,
                           &a->sparse_values_size) != SW_OK)
            return L->diag.result;
    }
    sw_diag inner = {0};
    if (sw__gltf_accessor_check(a, &inner) != SW_OK) return sw__fail_from(L, path, &inner);
    return SW_OK;
}

static sw_result sw__parse_accessors(sw__loader* L) {
    size_t n = L->accessors.count;
    if (n == 0) return SW_OK;
    L->acc = sw__array(L, &L->scratch, n, sizeof *L->acc);
    L->times = sw__array(L, &L->scratch, n, sizeof *L->times);
    if (!L->acc || !L->times) return L->diag.result;
    for (size_t i = 0; i < n; i++)
        if (sw__parse_accessor(L, L->accessors.items[i], sw__pathf("accessors[%zu]", i).s, &L->acc[i]) != SW_OK)
            return L->diag.result;
    return SW_OK;
}

/* What a use of an accessor allows (componentType and normalized). */
enum {
    SW__FLOAT = 1,          /* FLOAT */
    SW__NORM = 2,           /* normalised BYTE, UNSIGNED_BYTE, SHORT, UNSIGNED_SHORT */
    SW__UNORM = 4,          /* normalised UNSIGNED_BYTE, UNSIGNED_SHORT */
    SW__INT = 8,            /* BYTE..UNSIGNED_SHORT, not normalised (KHR_mesh_quantization) */
    SW__UINT16 = 16,        /* UNSIGNED_BYTE, UNSIGNED_SHORT, not normalised */
    SW__UINT32 = 32,        /* UNSIGNED_INT, not normalised */
};

/* Element types, as a mask of (1 << rows) for vectors and MAT4 = 1 << 8. */
#define SW__SCALAR (1u << 1)
#define SW__VEC2 (1u << 2)
#define SW__VEC3 (1u << 3)
#define SW__VEC4 (1u << 4)
#define SW__MAT4 (1u << 8)

static const char* sw__type_name(const sw__gltf_accessor* a) {
    static const char* const vectors[] = {"", "SCALAR", "VEC2", "VEC3", "VEC4"};
    static const char* const matrices[] = {"", "", "MAT2", "MAT3", "MAT4"};
    return a->columns == 1 ? vectors[a->rows] : matrices[a->columns];
}

static const char* sw__component_name(uint32_t type) {
    switch (type) {
    case SW__GLTF_BYTE: return "BYTE";
    case SW__GLTF_UNSIGNED_BYTE: return "UNSIGNED_BYTE";
    case SW__GLTF_SHORT: return "SHORT";
    case SW__GLTF_UNSIGNED_SHORT: return "UNSIGNED_SHORT";
    case SW__GLTF_UNSIGNED_INT: return "UNSIGNED_INT";
    default: return "FLOAT";
    }
}

/* Does the accessor's componentType (and normalized) fit `allow`? */
static bool sw__components_allowed(const sw__gltf_accessor* a, unsigned allow) {
    uint32_t t = a->component_type;
    bool small = t != SW__GLTF_FLOAT && t != SW__GLTF_UNSIGNED_INT;
    bool unsigned_small = t == SW__GLTF_UNSIGNED_BYTE || t == SW__GLTF_UNSIGNED_SHORT;
    return ((allow & SW__FLOAT) && t == SW__GLTF_FLOAT) || ((allow & SW__NORM) && small && a->normalized) ||
           ((allow & SW__UNORM) && unsigned_small && a->normalized) || ((allow & SW__INT) && small && !a->normalized) ||
           ((allow & SW__UINT16) && unsigned_small && !a->normalized) ||
           ((allow & SW__UINT32) && t == SW__GLTF_UNSIGNED_INT);
}

/* Checks accessor `index` against a use (`where` is the JSON path of the
   reference) and returns it. */
static sw_result sw__use_accessor(sw__loader* L, const char* where, uint32_t index, unsigned types, unsigned allow,
                                  const sw__gltf_accessor** out) {
    static const struct { unsigned bit; const char* name; } type_names[] = {
        {SW__SCALAR, "SCALAR"}, {SW__VEC2, "VEC2"}, {SW__VEC3, "VEC3"}, {SW__VEC4, "VEC4"}, {SW__MAT4, "MAT4"}};
    static const struct { unsigned bit; const char* name; } component_names[] = {
        {SW__FLOAT, "FLOAT"},
        {SW__NORM, "normalized (UNSIGNED_)BYTE/SHORT"},
        {SW__UNORM, "normalized UNSIGNED_BYTE/SHORT"},
        {SW__INT, "(UNSIGNED_)BYTE/SHORT"},
        {SW__UINT16, "UNSIGNED_BYTE/SHORT"},
        {SW__UINT32, "UNSIGNED_INT"}};
    const sw__gltf_accessor* a = &L->acc[index];
    char expected[128] = "";
    size_t used = 0;
    unsigned type_bit = a->columns == 1 ? 1u << a->rows : a->columns == 4 ? SW__MAT4 : 0u;
    if (!(type_bit & types)) {
        for (size_t i = 0; i < sizeof type_names / sizeof type_names[0]; i++)
            if (types & type_names[i].bit)
                used += (size_t)snprintf(expected + used, sizeof expected - used, "%s%s", used ? " or " : "",
                                         type_names[i].name);
        return sw__fail(L, SW_ERR_INVALID_DATA, where, "accessors[%u] is %s; expected %s", (unsigned)index,
                        sw__type_name(a), expected);
    }
    if (!sw__components_allowed(a, allow)) {
        for (size_t i = 0; i < sizeof component_names / sizeof component_names[0] && used < 96; i++)
            if (allow & component_names[i].bit)
                used += (size_t)snprintf(expected + used, sizeof expected - used, "%s%s", used ? " or " : "",
                                         component_names[i].name);
        return sw__fail(L, SW_ERR_INVALID_DATA, where, "accessors[%u] has %s%s components; expected %s",
                        (unsigned)index, a->normalized ? "normalized " : "", sw__component_name(a->component_type),
                        expected);
    }
    *out = a;
    return SW_OK;
}

/* Decodes an accessor to floats or to unsigned integers (4 bytes each) in
   the asset (or, with `temp`, in a temporary to give back with
   sw__temp_free). */
static void* sw__decode(sw__loader* L, const char* where, uint32_t index, const sw__gltf_accessor* a, bool temp,
                        bool uints) {
    size_t n;
    if (!sw_mul_size(a->count, (size_t)a->columns * a->rows, &n)) {
        sw__fail(L, SW_ERR_OUT_OF_MEMORY, where, "accessors[%u]: too many elements", (unsigned)index);
        return NULL;
    }
    void* out = temp ? sw__temp_alloc(L, n, 4) : sw__array(L, L->arena, n, 4);
    if (!out) return NULL;
    sw_diag inner = {0};
    const sw_result r = uints ? sw__gltf_accessor_read_uints(a, (uint32_t*)out, &inner)
                              : sw__gltf_accessor_read_floats(a, (float*)out, &inner);
    if (r != SW_OK) {
        sw__fail(L, inner.result, where, "accessors[%u]: %s", (unsigned)index, inner.message);
        L->diag.index = inner.index;
        if (temp) sw__temp_free(L, out);
        return NULL;
    }
    return out;
}

static float* sw__decode_floats(sw__loader* L, const char* where, uint32_t index, const sw__gltf_accessor* a,
                                bool temp) {
    return (float*)sw__decode(L, where, index, a, temp, false);
}

static uint32_t* sw__decode_uints(sw__loader* L, const char* where, uint32_t index, const sw__gltf_accessor* a,
                                  bool temp) {
    return (uint32_t*)sw__decode(L, where, index, a, temp, true);
}

/* ---- samplers, images, textures, materials -------------------------------------------- */

static bool sw__one_of(size_t v, const size_t* values, size_t count) {
    for (size_t i = 0; i < count; i++)
        if (v == values[i]) return true;
    return false;
}

static sw_result sw__parse_samplers(sw__loader* L) {
    size_t n = L->samplers.count;
    if (n == 0) return SW_OK;
    sw_model_sampler* out = sw__array(L, L->arena, n, sizeof *out);
    if (!out) return L->diag.result;
    static const size_t mag[] = {9728, 9729};
    static const size_t min[] = {9728, 9729, 9984, 9985, 9986, 9987};
    static const size_t wrap[] = {33071, 33648, 10497};
    for (size_t i = 0; i < n; i++) {
        const cJSON* s = L->samplers.items[i];
        sw__path path = sw__pathf("samplers[%zu]", i);
        size_t mag_filter = 0, min_filter = 0, wrap_s = 10497, wrap_t = 10497;
        if (sw__get_uint(L, s, path.s, "magFilter", false, 65535, &mag_filter) != SW_OK ||
            sw__get_uint(L, s, path.s, "minFilter", false, 65535, &min_filter) != SW_OK ||
            sw__get_uint(L, s, path.s, "wrapS", false, 65535, &wrap_s) != SW_OK ||
            sw__get_uint(L, s, path.s, "wrapT", false, 65535, &wrap_t) != SW_OK)
            return L->diag.result;
        if (mag_filter && !sw__one_of(mag_filter, mag, 2))
            return sw__fail(L, SW_ERR_INVALID_DATA, sw__at(path.s, "magFilter").s, "%zu is not NEAREST or LINEAR",
                            mag_filter);
        if (min_filter && !sw__one_of(min_filter, min, 6))
            return sw__fail(L, SW_ERR_INVALID_DATA, sw__at(path.s, "minFilter").s, "%zu is not a minification filter",
                            min_filter);
        if (!sw__one_of(wrap_s, wrap, 3) || !sw__one_of(wrap_t, wrap, 3))
            return sw__fail(L, SW_ERR_INVALID_DATA, path.s, "wrapS/wrapT must be 33071, 33648 or 10497");
        out[i] = (sw_model_sampler){(int32_t)mag_filter, (int32_t)min_filter, (int32_t)wrap_s, (int32_t)wrap_t};
    }
    L->owner->model.samplers = out;
    L->owner->model.sampler_count = n;
    return SW_OK;
}

static sw_result sw__parse_images(sw__loader* L) {
    size_t n = L->images.count;
    if (n == 0) return SW_OK;
    sw_model_image* out = sw__array(L, L->arena, n, sizeof *out);
    if (!out) return L->diag.result;
    for (size_t i = 0; i < n; i++) {
        const cJSON* im = L->images.items[i];
        sw__path path = sw__pathf("images[%zu]", i);
        const char *uri, *mime;
        int32_t view = -1;
        if (sw__get_name(L, im, path.s, &out[i].name) != SW_OK ||
            sw__get_string(L, im, path.s, "uri", false, &uri) != SW_OK ||
            sw__get_string(L, im, path.s, "mimeType", false, &mime) != SW_OK ||
            sw__get_index(L, im, path.s, "bufferView", false, &L->buffer_views, "bufferViews", &view) != SW_OK)
            return L->diag.result;
        if (uri && view >= 0) return sw__fail(L, SW_ERR_INVALID_DATA, path.s, "has both uri and bufferView");
        if (!uri && view < 0) return sw__fail(L, SW_ERR_INVALID_DATA, path.s, "has neither uri nor bufferView");
        if (view >= 0) {
            /* bufferViews were checked against their buffers when parsed. */
            const sw__gltf_buffer_view* v = &L->views[view];
            out[i].data = L->buffer_data[v->buffer] + v->byte_offset;
            out[i].data_size = v->byte_length;
            if (!mime) sw__warn(L, path.s, "an image in a bufferView should have a mimeType");
        }
        /* Image files are not opened here: a missing texture must not stop
           an animation from loading (sw_model_decode_image reports it). */
        out[i].uri = sw__strdup(L, uri);
        out[i].mime_type = sw__strdup(L, mime);
        if ((uri && !out[i].uri) || (mime && !out[i].mime_type)) return L->diag.result;
    }
    L->owner->model.images = out;
    L->owner->model.image_count = n;
    return SW_OK;
}

static sw_result sw__parse_textures(sw__loader* L) {
    size_t n = L->textures.count;
    if (n == 0) return SW_OK;
    sw_model_texture* out = sw__array(L, L->arena, n, sizeof *out);
    if (!out) return L->diag.result;
    for (size_t i = 0; i < n; i++) {
        sw__path path = sw__pathf("textures[%zu]", i);
        if (sw__get_index(L, L->textures.items[i], path.s, "sampler", false, &L->samplers, "samplers",
                          &out[i].sampler) != SW_OK ||
            sw__get_index(L, L->textures.items[i], path.s, "source", false, &L->images, "images", &out[i].image) !=
                SW_OK)
            return L->diag.result;
    }
    L->owner->model.textures = out;
    L->owner->model.texture_count = n;
    return SW_OK;
}

/* A textureInfo (`key` of `object`), with KHR_texture_transform; `scale_key`
   is "scale" (normalTexture), "strength" (occlusionTexture) or NULL. */
static sw_result sw__parse_texture_ref(sw__loader* L, const cJSON* object, const char* path, const char* key,
                                       const char* scale_key, sw_model_texture_ref* out) {
    *out = (sw_model_texture_ref){.texture = -1, .scale = 1.0f, .uv_scale = {1.0f, 1.0f}};
    const cJSON* info;
    if (sw__get_object(L, object, path, key, false, &info) != SW_OK) return L->diag.result;
    if (!info) return SW_OK;
    sw__path p = sw__at(path, key);
    size_t texcoord = 0;
    if (sw__get_uint(L, info, p.s, "texCoord", false, SW__MAX_SETS - 1, &texcoord) != SW_OK ||
        (scale_key && sw__get_float(L, info, p.s, scale_key, &out->scale) != SW_OK) ||
        sw__get_index(L, info, p.s, "index", true, &L->textures, "textures", &out->texture) != SW_OK)
        return L->diag.result;
    out->texcoord = (int32_t)texcoord;
    const cJSON *extensions, *transform;
    if (sw__get_object(L, info, p.s, "extensions", false, &extensions) != SW_OK) return L->diag.result;
    if (!extensions) return SW_OK;
    sw__path ep = sw__at(p.s, "extensions");
    if (sw__get_object(L, extensions, ep.s, "KHR_texture_transform", false, &transform) != SW_OK) return L->diag.result;
    if (!transform) return SW_OK;
    sw__path tp = sw__at(ep.s, "KHR_texture_transform");
    out->has_transform = true;
    texcoord = (size_t)out->texcoord;
    if (sw__get_floats(L, transform, tp.s, "offset", out->offset, 2) != SW_OK ||
        sw__get_float(L, transform, tp.s, "rotation", &out->rotation) != SW_OK ||
        sw__get_floats(L, transform, tp.s, "scale", out->uv_scale, 2) != SW_OK ||
        sw__get_uint(L, transform, tp.s, "texCoord", false, SW__MAX_SETS - 1, &texcoord) != SW_OK)
        return L->diag.result;
    out->texcoord = (int32_t)texcoord;
    return SW_OK;
}

static sw_result sw__parse_materials(sw__loader* L) {
    size_t n = L->materials.count;
    if (n == 0) return SW_OK;
    sw_model_material* out = sw__array(L, L->arena, n, sizeof *out);
    if (!out) return L->diag.result;
    for (size_t i = 0; i < n; i++) {
        const cJSON* m = L->materials.items[i];
        sw__path path = sw__pathf("materials[%zu]", i);
        sw_model_material* mat = &out[i];
        *mat = (sw_model_material){
            .base_color_factor = {1.0f, 1.0f, 1.0f, 1.0f}, .metallic_factor = 1.0f, .roughness_factor = 1.0f,
            .alpha_mode = SW_MODEL_ALPHA_OPAQUE, .alpha_cutoff = 0.5f};
        const cJSON *pbr, *extensions;
        const char* alpha_mode;
        if (sw__get_name(L, m, path.s, &mat->name) != SW_OK ||
            sw__get_object(L, m, path.s, "pbrMetallicRoughness", false, &pbr) != SW_OK)
            return L->diag.result;
        sw__path pp = sw__at(path.s, "pbrMetallicRoughness");
        if (sw__get_floats(L, pbr, pp.s, "baseColorFactor", mat->base_color_factor, 4) != SW_OK ||
            sw__parse_texture_ref(L, pbr, pp.s, "baseColorTexture", NULL, &mat->base_color_texture) != SW_OK ||
            sw__get_float(L, pbr, pp.s, "metallicFactor", &mat->metallic_factor) != SW_OK ||
            sw__get_float(L, pbr, pp.s, "roughnessFactor", &mat->roughness_factor) != SW_OK ||
            sw__parse_texture_ref(L, pbr, pp.s, "metallicRoughnessTexture", NULL, &mat->metallic_roughness_texture) !=
                SW_OK ||
            sw__parse_texture_ref(L, m, path.s, "normalTexture", "scale", &mat->normal_texture) != SW_OK ||
            sw__parse_texture_ref(L, m, path.s, "occlusionTexture", "strength", &mat->occlusion_texture) != SW_OK ||
            sw__parse_texture_ref(L, m, path.s, "emissiveTexture", NULL, &mat->emissive_texture) != SW_OK ||
            sw__get_floats(L, m, path.s, "emissiveFactor", mat->emissive_factor, 3) != SW_OK ||
            sw__get_string(L, m, path.s, "alphaMode", false, &alpha_mode) != SW_OK ||
            sw__get_float(L, m, path.s, "alphaCutoff", &mat->alpha_cutoff) != SW_OK ||
            sw__get_bool(L, m, path.s, "doubleSided", &mat->double_sided) != SW_OK ||
            sw__get_object(L, m, path.s, "extensions", false, &extensions) != SW_OK)
            return L->diag.result;
        if (alpha_mode) {
            if (strcmp(alpha_mode, "OPAQUE") == 0) mat->alpha_mode = SW_MODEL_ALPHA_OPAQUE;
            else if (strcmp(alpha_mode, "MASK") == 0) mat->alpha_mode = SW_MODEL_ALPHA_MASK;
            else if (strcmp(alpha_mode, "BLEND") == 0) mat->alpha_mode = SW_MODEL_ALPHA_BLEND;
            else
                return sw__fail(L, SW_ERR_INVALID_DATA, sw__at(path.s, "alphaMode").s,
                                "'%s' is not OPAQUE, MASK or BLEND", alpha_mode);
        }
        if (mat->alpha_cutoff < 0.0f)
            return sw__fail(L, SW_ERR_INVALID_DATA, sw__at(path.s, "alphaCutoff").s, "must be >= 0");
        if (extensions) {
            const cJSON* unlit;
            if (sw__get_object(L, extensions, sw__at(path.s, "extensions").s, "KHR_materials_unlit", false, &unlit) !=
                SW_OK)
                return L->diag.result;
            mat->unlit = unlit != NULL;
        }
    }
    L->owner->model.materials = out;
    L->owner->model.material_count = n;
    return SW_OK;
}

/* ---- meshes ----------------------------------------------------------------------------- */

/* Attribute indices of one primitive, by semantic and set. */
typedef struct sw__attributes {
    int32_t position, normal, tangent;
    int32_t texcoord[SW__MAX_SETS], color[SW__MAX_SETS], joints[SW__MAX_SETS], weights[SW__MAX_SETS];
} sw__attributes;

/* Set number of "PREFIX_n" (n without leading zeros), or -1. */
static int sw__set_number(const char* name, const char* prefix) {
    size_t n = strlen(prefix);
    if (strncmp(name, prefix, n) != 0) return -1;
    const char* digits = name + n;
    if (!*digits || (digits[0] == '0' && digits[1]) || strlen(digits) > 6) return -1;
    long v = 0;
    for (const char* c = digits; *c; c++) {
        if (*c < '0' || *c > '9') return -1;
        v = v * 10 + (*c - '0');
    }
    return (int)v;
}

static sw_result sw__scan_attributes(sw__loader* L, const cJSON* attributes, const char* path, sw__attributes* out) {
    out->position = out->normal = out->tangent = -1;
    for (int s = 0; s < SW__MAX_SETS; s++) out->texcoord[s] = out->color[s] = out->joints[s] = out->weights[s] = -1;
    const cJSON* a;
    cJSON_ArrayForEach(a, attributes) {
        const char* name = a->string ? a->string : "";
        sw__path where = sw__at(path, name);
        uint32_t index;
        if (sw__value_index(L, a, where.s, L->accessors.count, "accessors", &index) != SW_OK) return L->diag.result;
        int set;
        int32_t* slot = NULL;
        if (strcmp(name, "POSITION") == 0) slot = &out->position;
        else if (strcmp(name, "NORMAL") == 0) slot = &out->normal;
        else if (strcmp(name, "TANGENT") == 0) slot = &out->tangent;
        else if ((set = sw__set_number(name, "TEXCOORD_")) >= 0) slot = set < SW__MAX_SETS ? &out->texcoord[set] : NULL;
        else if ((set = sw__set_number(name, "COLOR_")) >= 0) slot = set < SW__MAX_SETS ? &out->color[set] : NULL;
        else if ((set = sw__set_number(name, "JOINTS_")) >= 0) slot = set < SW__MAX_SETS ? &out->joints[set] : NULL;
        else if ((set = sw__set_number(name, "WEIGHTS_")) >= 0) slot = set < SW__MAX_SETS ? &out->weights[set] : NULL;
        else if (name[0] == '_') continue; /* application-specific, by the spec's convention */
        if (!slot) {
            sw__warn(L, where.s, "attribute ignored");
            continue;
        }
        *slot = (int32_t)index;
    }
    return SW_OK;
}

/* Reads one vertex attribute as floats: type, components and count
   checked. `core` is what glTF allows without KHR_mesh_quantization. */
static sw_result sw__read_attribute(sw__loader* L, const char* path, const char* name, int32_t index,
                                    size_t vertex_count, unsigned types, unsigned allow, unsigned core, bool temp,
                                    float** out, uint32_t* out_rows) {
    sw__path where = sw__at(path, name);
    const sw__gltf_accessor* a;
    if (sw__use_accessor(L, where.s, (uint32_t)index, types, allow, &a) != SW_OK) return L->diag.result;
    if (vertex_count && a->count != vertex_count)
        return sw__fail(L, SW_ERR_INVALID_DATA, where.s, "accessors[%d] has %zu elements, POSITION has %zu",
                        (int)index, a->count, vertex_count);
    if (!sw__components_allowed(a, core)) L->quantization_used = true;
    *out = sw__decode_floats(L, where.s, (uint32_t)index, a, temp);
    if (out_rows) *out_rows = a->rows;
    return *out ? SW_OK : L->diag.result;
}

/* Joint influences: every JOINTS_n/WEIGHTS_n set is read; per vertex the
   non-zero weights are kept in file order, the largest max_influences of
   them when there are more, and renormalised to sum to 1. With
   keep_raw_influences the sets are also copied as read, and negative
   weights are dropped with a warning instead of failing the load. */
static sw_result sw__read_influences(sw__loader* L, const char* path, const sw__attributes* at, size_t vertex_count,
                                     sw_model_primitive* p) {
    int sets = 0, set_number[SW__MAX_SETS];
    for (int s = 0; s < SW__MAX_SETS; s++) {
        if ((at->joints[s] >= 0) != (at->weights[s] >= 0))
            return sw__fail(L, SW_ERR_INVALID_DATA, path, "%s_%d without %s_%d",
                            at->joints[s] >= 0 ? "JOINTS" : "WEIGHTS", s, at->joints[s] >= 0 ? "WEIGHTS" : "JOINTS", s);
        if (at->joints[s] >= 0) {
            if (s != sets)
                sw__warn(L, path, "JOINTS_%d/WEIGHTS_%d without set %d (sets should be numbered from 0)", s, s, sets);
            set_number[sets++] = s;
        }
    }
    if (sets == 0) return SW_OK;
    int kept_max = sets == 1 || L->max_influences == 4 ? 4 : 8;
    size_t slots = (size_t)sets * 4;
    uint32_t* joints = sw__temp_alloc(L, slots, vertex_count * sizeof(uint32_t));
    float* weights = sw__temp_alloc(L, slots, vertex_count * sizeof(float));
    uint16_t* out_joints = NULL;
    float* out_weights = NULL;
    sw_result r = SW_OK;
    if (!joints || !weights) goto fail;
    for (int s = 0, k = 0; s < SW__MAX_SETS; s++) {
        if (at->joints[s] < 0) continue;
        char jname[16], wname[16];
        snprintf(jname, sizeof jname, "JOINTS_%d", s);
        snprintf(wname, sizeof wname, "WEIGHTS_%d", s);
        sw__path jw = sw__at(path, jname), ww = sw__at(path, wname);
        const sw__gltf_accessor *ja, *wa;
        if (sw__use_accessor(L, jw.s, (uint32_t)at->joints[s], SW__VEC4, SW__UINT16, &ja) != SW_OK ||
            sw__use_accessor(L, ww.s, (uint32_t)at->weights[s], SW__VEC4, SW__FLOAT | SW__UNORM, &wa) != SW_OK)
            goto fail;
        if (ja->count != vertex_count || wa->count != vertex_count) {
            sw__fail(L, SW_ERR_INVALID_DATA, ja->count != vertex_count ? jw.s : ww.s,
                     "%zu elements, POSITION has %zu", ja->count != vertex_count ? ja->count : wa->count, vertex_count);
            goto fail;
        }
        uint32_t* j = sw__decode_uints(L, jw.s, (uint32_t)at->joints[s], ja, true);
        float* w = j ? sw__decode_floats(L, ww.s, (uint32_t)at->weights[s], wa, true) : NULL;
        if (!w) {
            sw__temp_free(L, j);
            goto fail;
        }
        /* interleave sets: vertex v's slots are [v*slots + 4*k .. +4) */
        for (size_t v = 0; v < vertex_count; v++) {
            memcpy(&joints[v * slots + 4 * (size_t)k], &j[v * 4], 4 * sizeof(uint32_t));
            memcpy(&weights[v * slots + 4 * (size_t)k], &w[v * 4], 4 * sizeof(float));
        }
        sw__temp_free(L, j);
        sw__temp_free(L, w);
        k++;
    }

    out_joints = sw__array(L, L->arena, vertex_count, (size_t)kept_max * sizeof(uint16_t));
    out_weights = sw__array(L, L->arena, vertex_count, (size_t)kept_max * sizeof(float));
    if (!out_joints || !out_weights) goto fail;
    if (L->keep_raw_influences) {
        uint16_t* raw_joints = sw__array(L, L->arena, vertex_count, slots * sizeof(uint16_t));
        float* raw_weights = sw__array(L, L->arena, vertex_count, slots * sizeof(float));
        if (!raw_joints || !raw_weights) goto fail;
        /* JOINTS_n are u8 or u16, so every index fits */
        for (size_t e = 0; e < vertex_count * slots; e++) raw_joints[e] = (uint16_t)joints[e];
        memcpy(raw_weights, weights, vertex_count * slots * sizeof(float));
        p->raw_influence_count = (int)slots;
        p->raw_joints = raw_joints;
        p->raw_weights = raw_weights;
    }
    size_t unnormalised = 0, truncated = 0, all_zero = 0, negative = 0;
    bool keep[SW__MAX_SETS * 4];
    for (size_t v = 0; v < vertex_count; v++) {
        const uint32_t* vj = &joints[v * slots];
        const float* vw = &weights[v * slots];
        uint16_t* oj = &out_joints[v * (size_t)kept_max];
        float* ow = &out_weights[v * (size_t)kept_max];
        double sum = 0.0;
        int nonzero = 0;
        bool has_negative = false;
        for (size_t e = 0; e < slots; e++) {
            if (vw[e] < 0.0f && !L->keep_raw_influences) {
                sw__fail(L, SW_ERR_INVALID_DATA, sw__pathf("%s.WEIGHTS_%d", path, set_number[e / 4]).s,
                         "vertex %zu has a negative weight (%g)", v, (double)vw[e]);
                L->diag.index = (int64_t)v;
                goto fail;
            }
            has_negative = has_negative || vw[e] < 0.0f;
            keep[e] = vw[e] > 0.0f;
            if (keep[e]) sum += vw[e];
            nonzero += keep[e];
        }
        negative += has_negative;
        if (nonzero == 0) {
            all_zero++;
            oj[0] = (uint16_t)vj[0];
            ow[0] = 1.0f;
            continue;
        }
        if (fabs(sum - 1.0) > 1e-3) unnormalised++;
        if (nonzero > kept_max) {
            /* keep the kept_max largest (the earlier one on ties), in file order */
            truncated++;
            bool chosen[SW__MAX_SETS * 4] = {false};
            for (int c = 0; c < kept_max; c++) {
                size_t best = slots;
                for (size_t e = 0; e < slots; e++)
                    if (keep[e] && !chosen[e] && (best == slots || vw[e] > vw[best])) best = e;
                chosen[best] = true;
            }
            memcpy(keep, chosen, sizeof keep);
        }
        double kept_sum = 0.0;
        int o = 0;
        for (size_t e = 0; e < slots; e++) {
            if (!keep[e]) continue;
            oj[o] = (uint16_t)vj[e];
            ow[o] = vw[e];
            kept_sum += vw[e];
            o++;
        }
        for (int e = 0; e < o; e++) ow[e] = (float)(ow[e] / kept_sum);
    }
    if (unnormalised)
        sw__warn(L, path, "%zu vertices have weights that do not sum to 1 (off by more than 0.001; renormalised)",
                 unnormalised);
    if (truncated)
        sw__warn(L, path, "%zu vertices have more than %d non-zero weights (the %d largest kept, renormalised)",
                 truncated, kept_max, kept_max);
    if (all_zero)
        sw__warn(L, path, "%zu vertices have only zero weights (given weight 1 on their first joint)", all_zero);
    if (negative)
        sw__warn(L, path, "%zu vertices have negative weights (dropped before renormalising; glTF forbids them)",
                 negative);
    p->influence_sets = sets;
    p->influence_count = kept_max;
    p->joints = out_joints;
    p->weights = out_weights;
    sw__temp_free(L, joints);
    sw__temp_free(L, weights);
    return SW_OK;
fail:
    r = L->diag.result;
    sw__temp_free(L, joints);
    sw__temp_free(L, weights);
    return r;
}

static sw_result sw__read_indices(sw__loader* L, const char* path, int32_t index, size_t vertex_count,
                                  sw_model_primitive* p) {
    sw__path where = sw__at(path, "indices");
    const sw__gltf_accessor* a;
    if (sw__use_accessor(L, where.s, (uint32_t)index, SW__SCALAR, SW__UINT16 | SW__UINT32, &a) != SW_OK)
        return L->diag.result;
    uint32_t* indices = sw__decode_uints(L, where.s, (uint32_t)index, a, false);
    if (!indices) return L->diag.result;
    uint32_t restart = a->component_type == SW__GLTF_UNSIGNED_BYTE    ? 0xFFu
                       : a->component_type == SW__GLTF_UNSIGNED_SHORT ? 0xFFFFu
                                                                      : 0xFFFFFFFFu;
    for (size_t i = 0; i < a->count; i++) {
        if (indices[i] >= vertex_count) {
            sw__fail(L, SW_ERR_INDEX_OUT_OF_RANGE, where.s, "index %u at position %zu is out of range (%zu vertices)%s",
                     (unsigned)indices[i], i, vertex_count,
                     indices[i] == restart ? "; it is the primitive-restart value, which glTF does not allow" : "");
            L->diag.index = (int64_t)i;
            return L->diag.result;
        }
    }
    p->indices = indices;
    p->index_count = a->count;
    return SW_OK;
}

static sw_result sw__read_targets(sw__loader* L, const cJSON* targets, const char* path, size_t vertex_count,
                                  sw_model_primitive* p) {
    size_t n = (size_t)cJSON_GetArraySize(targets);
    if (n == 0) return SW_OK;
    sw_model_morph_target* out = sw__array(L, L->arena, n, sizeof *out);
    if (!out) return L->diag.result;
    size_t t = 0;
    const cJSON* target;
    cJSON_ArrayForEach(target, targets) {
        sw__path tp = sw__pathf("%s[%zu]", path, t);
        if (!cJSON_IsObject(target)) return sw__fail(L, SW_ERR_INVALID_DATA, tp.s, "expected an object");
        const cJSON* a;
        cJSON_ArrayForEach(a, target) {
            const char* name = a->string ? a->string : "";
            sw__path where = sw__at(tp.s, name);
            uint32_t index;
            if (sw__value_index(L, a, where.s, L->accessors.count, "accessors", &index) != SW_OK)
                return L->diag.result;
            const float** slot = strcmp(name, "POSITION") == 0 ? &out[t].positions
                                 : strcmp(name, "NORMAL") == 0 ? &out[t].normals
                                 : strcmp(name, "TANGENT") == 0 ? &out[t].tangents
                                                                : NULL;
            if (!slot) {
                if (name[0] != '_') sw__warn(L, where.s, "morph target attribute ignored");
                continue;
            }
            float* deltas;
            if (sw__read_attribute(L, tp.s, name, (int32_t)index, vertex_count, SW__VEC3,
                                   SW__FLOAT | SW__NORM | SW__INT, SW__FLOAT, false, &deltas, NULL) != SW_OK)
                return L->diag.result;
            *slot = deltas;
        }
        t++;
    }
    p->targets = out;
    p->target_count = n;
    return SW_OK;
}

static size_t sw__non_unit(const float* v, size_t count, size_t components) {
    size_t bad = 0;
    for (size_t i = 0; i < count; i++) {
        const float* x = &v[i * components];
        double length = sqrt((double)x[0] * x[0] + (double)x[1] * x[1] + (double)x[2] * x[2]);
        if (fabs(length - 1.0) > 0.02) bad++;
    }
    return bad;
}

static sw_result sw__parse_primitive(sw__loader* L, const cJSON* j, const char* path, sw_model_primitive* p) {
    const cJSON *attributes, *targets;
    size_t mode = SW_MODEL_TRIANGLES;
    int32_t indices;
    *p = (sw_model_primitive){.material = -1};
    if (sw__get_object(L, j, path, "attributes", true, &attributes) != SW_OK ||
        sw__get_uint(L, j, path, "mode", false, 6, &mode) != SW_OK ||
        sw__get_index(L, j, path, "material", false, &L->materials, "materials", &p->material) != SW_OK ||
        sw__get_index(L, j, path, "indices", false, &L->accessors, "accessors", &indices) != SW_OK ||
        sw__get_array(L, j, path, "targets", false, &targets) != SW_OK)
        return L->diag.result;
    p->mode = (sw_model_mode)mode;
    sw__path ap = sw__at(path, "attributes");
    sw__attributes at;
    if (sw__scan_attributes(L, attributes, ap.s, &at) != SW_OK) return L->diag.result;

    /* POSITION first: it fixes the vertex count every other attribute must match. */
    if (at.position < 0) return sw__fail(L, SW_ERR_INVALID_DATA, ap.s, "no POSITION attribute");
    float* positions;
    if (sw__read_attribute(L, ap.s, "POSITION", at.position, 0, SW__VEC3, SW__FLOAT | SW__NORM | SW__INT,
                           SW__FLOAT, false, &positions, NULL) != SW_OK)
        return L->diag.result;
    size_t vertex_count = L->acc[at.position].count;
    p->vertex_count = vertex_count;
    p->positions = positions;
    for (int c = 0; c < 3; c++) p->bounds_min[c] = p->bounds_max[c] = positions[c];
    for (size_t v = 1; v < vertex_count; v++)
        for (int c = 0; c < 3; c++) {
            float x = positions[v * 3 + c];
            if (x < p->bounds_min[c]) p->bounds_min[c] = x;
            if (x > p->bounds_max[c]) p->bounds_max[c] = x;
        }

    if (at.normal >= 0) {
        float* normals;
        if (sw__read_attribute(L, ap.s, "NORMAL", at.normal, vertex_count, SW__VEC3, SW__FLOAT | SW__NORM,
                               SW__FLOAT, false, &normals, NULL) != SW_OK)
            return L->diag.result;
        size_t bad = sw__non_unit(normals, vertex_count, 3);
        if (bad) sw__warn(L, sw__at(ap.s, "NORMAL").s, "%zu normals are not unit length (kept as they are)", bad);
        p->normals = normals;
    }
    if (at.tangent >= 0) {
        float* tangents;
        if (sw__read_attribute(L, ap.s, "TANGENT", at.tangent, vertex_count, SW__VEC4, SW__FLOAT | SW__NORM,
                               SW__FLOAT, false, &tangents, NULL) != SW_OK)
            return L->diag.result;
        p->tangents = tangents;
    }
    /* TEXCOORD sets must be numbered from 0 without gaps (a MUST of the
       spec). A gap is an error rather than a warning: texcoords[] is
       indexed by set number, and materials name sets by number, so
       renumbering would silently map textures onto a different set than
       the author meant, and dropping the set would leave a material's
       texCoord pointing at nothing (issue_3269's crash). */
    int texcoords = 0;
    while (texcoords < SW__MAX_SETS && at.texcoord[texcoords] >= 0) texcoords++;
    for (int s = texcoords; s < SW__MAX_SETS; s++)
        if (at.texcoord[s] >= 0)
            return sw__fail(L, SW_ERR_INVALID_DATA, ap.s,
                            "TEXCOORD_%d without TEXCOORD_%d (sets must be numbered from 0 without gaps)", s,
                            texcoords);
    if (texcoords > SW_MODEL_MAX_TEXCOORDS)
        sw__warn(L, ap.s, "%d TEXCOORD sets; only the first %d are read", texcoords, SW_MODEL_MAX_TEXCOORDS);
    for (int s = 0; s < texcoords && s < SW_MODEL_MAX_TEXCOORDS; s++) {
        char name[16];
        snprintf(name, sizeof name, "TEXCOORD_%d", s);
        float* uv;
        if (sw__read_attribute(L, ap.s, name, at.texcoord[s], vertex_count, SW__VEC2, SW__FLOAT | SW__NORM | SW__INT,
                               SW__FLOAT | SW__UNORM, false, &uv, NULL) != SW_OK)
            return L->diag.result;
        p->texcoords[s] = uv;
        p->texcoord_count = s + 1;
    }
    for (int s = 1; s < SW__MAX_SETS; s++)
        if (at.color[s] >= 0) sw__warn(L, ap.s, "COLOR_%d ignored (only COLOR_0 is read)", s);
    if (at.color[0] >= 0) {
        float* color;
        uint32_t rows;
        if (sw__read_attribute(L, ap.s, "COLOR_0", at.color[0], vertex_count, SW__VEC3 | SW__VEC4,
                               SW__FLOAT | SW__UNORM, SW__FLOAT | SW__UNORM, true, &color, &rows) != SW_OK)
            return L->diag.result;
        float* rgba = sw__array(L, L->arena, vertex_count, 4 * sizeof(float));
        if (!rgba) {
            sw__temp_free(L, color);
            return L->diag.result;
        }
        for (size_t v = 0; v < vertex_count; v++)
            for (uint32_t c = 0; c < 4; c++) rgba[v * 4 + c] = c < rows ? color[v * rows + c] : 1.0f;
        sw__temp_free(L, color);
        p->colors = rgba;
    }
    if (sw__read_influences(L, ap.s, &at, vertex_count, p) != SW_OK) return L->diag.result;
    if (indices >= 0 && sw__read_indices(L, path, indices, vertex_count, p) != SW_OK) return L->diag.result;
    if (targets && sw__read_targets(L, targets, sw__at(path, "targets").s, vertex_count, p) != SW_OK)
        return L->diag.result;

    size_t elements = p->indices ? p->index_count : vertex_count;
    if ((p->mode == SW_MODEL_TRIANGLES && elements % 3 != 0) || (p->mode == SW_MODEL_LINES && elements % 2 != 0))
        sw__warn(L, path, "%zu %s do not make whole %s", elements, p->indices ? "indices" : "vertices",
                 p->mode == SW_MODEL_TRIANGLES ? "triangles" : "lines");
    return SW_OK;
}

static sw_result sw__parse_meshes(sw__loader* L) {
    size_t n = L->meshes.count;
    if (n == 0) return SW_OK;
    sw_model_mesh* meshes = sw__array(L, L->arena, n, sizeof *meshes);
    if (!meshes) return L->diag.result;
    L->meshes_out = meshes;
    for (size_t i = 0; i < n; i++) {
        const cJSON* m = L->meshes.items[i];
        sw__path path = sw__pathf("meshes[%zu]", i);
        const cJSON *primitives, *weights, *extras;
        if (sw__get_name(L, m, path.s, &meshes[i].name) != SW_OK ||
            sw__get_array(L, m, path.s, "primitives", true, &primitives) != SW_OK ||
            sw__get_array(L, m, path.s, "weights", false, &weights) != SW_OK)
            return L->diag.result;
        size_t count = (size_t)cJSON_GetArraySize(primitives);
        if (count == 0) return sw__fail(L, SW_ERR_INVALID_DATA, sw__at(path.s, "primitives").s, "is empty");
        sw_model_primitive* prims = sw__array(L, L->arena, count, sizeof *prims);
        if (!prims) return L->diag.result;
        size_t k = 0;
        const cJSON* pj;
        cJSON_ArrayForEach(pj, primitives) {
            sw__path pp = sw__pathf("%s.primitives[%zu]", path.s, k);
            if (!cJSON_IsObject(pj)) return sw__fail(L, SW_ERR_INVALID_DATA, pp.s, "expected an object");
            if (sw__parse_primitive(L, pj, pp.s, &prims[k]) != SW_OK) return L->diag.result;
            if (prims[k].target_count != prims[0].target_count)
                return sw__fail(L, SW_ERR_INVALID_DATA, pp.s, "%zu morph targets, but primitives[0] has %zu",
                                prims[k].target_count, prims[0].target_count);
            k++;
        }
        meshes[i].primitives = prims;
        meshes[i].primitive_count = count;
        size_t targets = prims[0].target_count;
        meshes[i].weight_count = targets;
        if (weights && (size_t)cJSON_GetArraySize(weights) != targets)
            return sw__fail(L, SW_ERR_INVALID_DATA, sw__at(path.s, "weights").s,
                            "%d weights, but the primitives have %zu morph targets", cJSON_GetArraySize(weights),
                            targets);
        if (targets) {
            float* w = sw__array(L, L->arena, targets, sizeof(float));
            if (!w || (weights && sw__get_floats(L, m, path.s, "weights", w, targets) != SW_OK)) return L->diag.result;
            meshes[i].weights = w;
        }
        /* extras are application data: a malformed targetNames is a warning, not an error */
        extras = sw__member(m, "extras");
        const cJSON* names = cJSON_IsObject(extras) ? sw__member(extras, "targetNames") : NULL;
        if (names) {
            bool ok = cJSON_IsArray(names) && (size_t)cJSON_GetArraySize(names) == targets && targets > 0;
            const cJSON* e;
            cJSON_ArrayForEach(e, names) ok = ok && cJSON_IsString(e) && e->valuestring;
            if (!ok) {
                sw__warn(L, sw__at(path.s, "extras.targetNames").s,
                         "not an array of %zu strings (one per morph target); ignored", targets);
            } else {
                const char** out = sw__array(L, L->arena, targets, sizeof *out);
                if (!out) return L->diag.result;
                size_t t = 0;
                cJSON_ArrayForEach(e, names) {
                    if (!(out[t++] = sw__strdup(L, e->valuestring))) return L->diag.result;
                }
                meshes[i].target_names = out;
            }
        }
    }
    L->owner->model.meshes = meshes;
    L->owner->model.mesh_count = n;
    return SW_OK;
}

/* ---- nodes and the hierarchy ------------------------------------------------------ */

/* A column-major 4×4 from JSON, as 3×4 rows; the bottom row must be 0 0 0 1. */
static sw_result sw__read_mat4(sw__loader* L, const float* m, const char* where, sw_mat34* out) {
    const float bottom[4] = {m[3], m[7], m[11], m[15]};
    if (fabsf(bottom[0]) > 1e-5f || fabsf(bottom[1]) > 1e-5f || fabsf(bottom[2]) > 1e-5f ||
        fabsf(bottom[3] - 1.0f) > 1e-5f)
        return sw__fail(L, SW_ERR_INVALID_DATA, where,
                        "not an affine matrix (its last row is %g %g %g %g, not 0 0 0 1)", (double)bottom[0],
                        (double)bottom[1], (double)bottom[2], (double)bottom[3]);
    sw_mat4 m4;
    memcpy(m4.m, m, sizeof m4.m);
    *out = sw_mat34_from_mat4(&m4);
    return SW_OK;
}

static sw_result sw__parse_node(sw__loader* L, const cJSON* j, const char* path, sw_model_node* node) {
    const cJSON *children, *matrix, *weights;
    *node = (sw_model_node){.parent = -1, .matrix = sw_mat34_identity(), .trs = sw_transform_identity()};
    if (sw__get_name(L, j, path, &node->name) != SW_OK ||
        sw__get_index(L, j, path, "camera", false, &L->cameras, "cameras", &node->camera) != SW_OK ||
        sw__get_index(L, j, path, "mesh", false, &L->meshes, "meshes", &node->mesh) != SW_OK ||
        sw__get_index(L, j, path, "skin", false, &L->skins, "skins", &node->skin) != SW_OK ||
        sw__get_array(L, j, path, "children", false, &children) != SW_OK ||
        sw__get_array(L, j, path, "matrix", false, &matrix) != SW_OK ||
        sw__get_array(L, j, path, "weights", false, &weights) != SW_OK)
        return L->diag.result;

    size_t child_count = children ? (size_t)cJSON_GetArraySize(children) : 0;
    if (child_count) {
        uint32_t* out = sw__array(L, L->arena, child_count, sizeof *out);
        if (!out) return L->diag.result;
        size_t k = 0;
        const cJSON* c;
        cJSON_ArrayForEach(c, children) {
            if (sw__value_index(L, c, sw__pathf("%s.children[%zu]", path, k).s, L->nodes.count, "nodes", &out[k]) !=
                SW_OK)
                return L->diag.result;
            k++;
        }
        node->children = out;
        node->child_count = child_count;
    }

    bool has_trs = sw__member(j, "translation") || sw__member(j, "rotation") || sw__member(j, "scale");
    if (matrix) {
        float m[16];
        if (sw__get_floats(L, j, path, "matrix", m, 16) != SW_OK ||
            sw__read_mat4(L, m, sw__at(path, "matrix").s, &node->matrix) != SW_OK)
            return L->diag.result;
        node->has_matrix = true;
        if (has_trs) sw__warn(L, path, "has both matrix and translation/rotation/scale; the matrix is used");
    } else {
        float t[3] = {0, 0, 0}, r[4] = {0, 0, 0, 1}, s[3] = {1, 1, 1};
        if (sw__get_floats(L, j, path, "translation", t, 3) != SW_OK ||
            sw__get_floats(L, j, path, "rotation", r, 4) != SW_OK || sw__get_floats(L, j, path, "scale", s, 3) != SW_OK)
            return L->diag.result;
        double length = sqrt((double)r[0] * r[0] + (double)r[1] * r[1] + (double)r[2] * r[2] + (double)r[3] * r[3]);
        if (length < 1e-6) {
            sw__warn(L, sw__at(path, "rotation").s, "zero quaternion; identity used");
            r[0] = r[1] = r[2] = 0.0f;
            r[3] = length = 1.0f;
        } else if (fabs(length - 1.0) > 1e-3) {
            sw__warn(L, sw__at(path, "rotation").s, "not a unit quaternion (length %g); normalised", length);
        }
        node->trs.translation = sw_vec3_make(t[0], t[1], t[2]);
        node->trs.rotation = (sw_quat){(float)(r[0] / length), (float)(r[1] / length), (float)(r[2] / length),
                                       (float)(r[3] / length)};
        node->trs.scale = sw_vec3_make(s[0], s[1], s[2]);
    }

    if (weights) {
        size_t count = (size_t)cJSON_GetArraySize(weights);
        size_t expected = node->mesh >= 0 ? L->meshes_out[node->mesh].weight_count : 0;
        if (node->mesh < 0)
            sw__warn(L, sw__at(path, "weights").s, "the node has no mesh; its weights are unused");
        else if (count != expected)
            return sw__fail(L, SW_ERR_INVALID_DATA, sw__at(path, "weights").s,
                            "%zu weights, but meshes[%d] has %zu morph targets", count, (int)node->mesh, expected);
        if (count) {
            float* w = sw__array(L, L->arena, count, sizeof *w);
            if (!w || sw__get_floats(L, j, path, "weights", w, count) != SW_OK) return L->diag.result;
            node->weights = w;
            node->weight_count = count;
        }
    }
    return SW_OK;
}

/* Binary min-heap of node indices, for the smallest parents-first order. */
/* Parents from children lists, then the parents-first order of the core
   (sw_joint_order_parents_first: lowest ready index first, so files
   already parents first keep their order). sw__order_nodes applies it once
   the whole file is read; until then everything is in file order, so
   messages name the file's indices. */
static sw_result sw__build_hierarchy(sw__loader* L) {
    size_t n = L->nodes.count;
    sw_model_node* nodes = L->nodes_out;
    for (size_t i = 0; i < n; i++) {
        for (size_t k = 0; k < nodes[i].child_count; k++) {
            uint32_t c = nodes[i].children[k];
            if (nodes[c].parent >= 0) {
                sw__path where = sw__pathf("nodes[%zu].children[%zu]", i, k);
                if ((size_t)nodes[c].parent == i)
                    return sw__fail(L, SW_ERR_INVALID_DATA, where.s, "lists nodes[%u] twice", (unsigned)c);
                return sw__fail(L, SW_ERR_INVALID_DATA, where.s,
                                "nodes[%u] is already a child of nodes[%d] (a node has at most one parent)",
                                (unsigned)c, (int)nodes[c].parent);
            }
            nodes[c].parent = (int32_t)i;
        }
    }
    if (n > SW_MAX_ORDER_JOINTS) return sw__fail(L, SW_ERR_UNSUPPORTED, "nodes", "%zu nodes is too many", n);
    uint32_t* order = sw__array(L, L->arena, n, sizeof *order);
    int32_t* parents = sw__array(L, &L->scratch, n, sizeof *parents);
    uint32_t* scratch = sw__array(L, &L->scratch, 2 * n, sizeof *scratch);
    if (!order || !parents || !scratch) return L->diag.result;
    for (size_t i = 0; i < n; i++) parents[i] = nodes[i].parent;
    sw_diag inner;
    sw_result r = sw_joint_order_parents_first(order, parents, n, scratch, &inner);
    if (r == SW_OK) {
        L->order = order;
        return SW_OK;
    }
    if (r != SW_ERR_CYCLE) return sw__fail(L, r, "nodes", "%s", inner.message);
    /* Name the cycle from its lowest node, following children round it. */
    bool* on_cycle = sw__array(L, &L->scratch, n, sizeof *on_cycle);
    if (!on_cycle) return L->diag.result;
    uint32_t x = (uint32_t)inner.index, lowest = x;
    for (uint32_t y = x;;) {
        on_cycle[y] = true;
        if (y < lowest) lowest = y;
        y = (uint32_t)nodes[y].parent;
        if (y == x) break;
    }
    char chain[96];
    size_t used = (size_t)snprintf(chain, sizeof chain, "%u", (unsigned)lowest);
    uint32_t y = lowest;
    for (int hop = 0; hop < 6; hop++) {
        uint32_t next = y;
        for (size_t k = 0; k < nodes[y].child_count; k++)
            if (on_cycle[nodes[y].children[k]]) next = nodes[y].children[k];
        y = next;
        used += (size_t)snprintf(chain + used, sizeof chain - used, " -> %u", (unsigned)y);
        if (y == lowest || used >= sizeof chain - 16) break;
    }
    if (y != lowest) snprintf(chain + used, sizeof chain - used, " -> ...");
    r = sw__fail(L, SW_ERR_CYCLE, sw__pathf("nodes[%u]", (unsigned)lowest).s,
                 "the node hierarchy has a cycle through this node (children: %s)", chain);
    L->diag.index = lowest;
    return r;
}

/* Stores the nodes parents first (L->order) and renumbers every node
   reference: parents, children, skin joints and skeletons, scene roots,
   clip targets. Morph weight offsets were assigned in file order and stay. */
static sw_result sw__order_nodes(sw__loader* L) {
    size_t n = L->nodes.count;
    sw_model* model = &L->owner->model;
    if (n == 0) return SW_OK;
    uint32_t* rank = sw__array(L, L->arena, n, sizeof *rank);      /* file index → model index */
    sw_model_node* nodes = sw__array(L, L->arena, n, sizeof *nodes);
    uint32_t* offsets = sw__array(L, L->arena, n, sizeof *offsets);
    if (!rank || !nodes || !offsets) return L->diag.result;
    for (size_t k = 0; k < n; k++) rank[L->order[k]] = (uint32_t)k;
    for (size_t k = 0; k < n; k++) {
        sw_model_node* node = &nodes[k];
        *node = L->nodes_out[L->order[k]];
        node->source_index = L->order[k];
        if (node->parent >= 0) node->parent = (int32_t)rank[node->parent];
        uint32_t* children = (uint32_t*)node->children; /* the loader's own arena memory */
        for (size_t c = 0; c < node->child_count; c++) children[c] = rank[children[c]];
        offsets[k] = node->weight_offset;
    }
    for (size_t s = 0; s < model->skin_count; s++) {
        sw_model_skin* skin = (sw_model_skin*)&model->skins[s];
        uint32_t* joints = (uint32_t*)skin->joints;
        for (size_t j = 0; j < skin->joint_count; j++) joints[j] = rank[joints[j]];
        if (skin->skeleton >= 0) skin->skeleton = (int32_t)rank[skin->skeleton];
    }
    for (size_t s = 0; s < model->scene_count; s++) {
        uint32_t* roots = (uint32_t*)model->scenes[s].nodes;
        for (size_t k = 0; k < model->scenes[s].node_count; k++) roots[k] = rank[roots[k]];
    }
    for (size_t c = 0; c < model->animation_count; c++) {
        sw_track* tracks = (sw_track*)model->animations[c].tracks;
        for (size_t t = 0; t < model->animations[c].track_count; t++) tracks[t].target = rank[tracks[t].target];
    }
    model->nodes = nodes;
    model->node_from_source = rank;
    model->weight_offsets = offsets;
    return SW_OK;
}

static sw_result sw__parse_nodes(sw__loader* L) {
    size_t n = L->nodes.count;
    if (n == 0) return SW_OK;
    L->nodes_out = sw__array(L, L->arena, n, sizeof *L->nodes_out);
    if (!L->nodes_out) return L->diag.result;
    for (size_t i = 0; i < n; i++)
        if (sw__parse_node(L, L->nodes.items[i], sw__pathf("nodes[%zu]", i).s, &L->nodes_out[i]) != SW_OK)
            return L->diag.result;
    if (sw__build_hierarchy(L) != SW_OK) return L->diag.result;
    L->owner->model.nodes = L->nodes_out;
    L->owner->model.node_count = n;
    return SW_OK;
}

/* ---- skins and scenes --------------------------------------------------------------- */

static sw_result sw__parse_skins(sw__loader* L) {
    size_t n = L->skins.count;
    if (n == 0) return SW_OK;
    sw_model_skin* skins = sw__array(L, L->arena, n, sizeof *skins);
    if (!skins) return L->diag.result;
    L->skins_out = skins;
    for (size_t i = 0; i < n; i++) {
        const cJSON* j = L->skins.items[i];
        sw__path path = sw__pathf("skins[%zu]", i);
        const cJSON* joints;
        int32_t ibm;
        if (sw__get_name(L, j, path.s, &skins[i].name) != SW_OK ||
            sw__get_array(L, j, path.s, "joints", true, &joints) != SW_OK ||
            sw__get_index(L, j, path.s, "inverseBindMatrices", false, &L->accessors, "accessors", &ibm) != SW_OK ||
            sw__get_index(L, j, path.s, "skeleton", false, &L->nodes, "nodes", &skins[i].skeleton) != SW_OK)
            return L->diag.result;
        size_t count = (size_t)cJSON_GetArraySize(joints);
        if (count == 0) return sw__fail(L, SW_ERR_INVALID_DATA, sw__at(path.s, "joints").s, "is empty");
        uint32_t* out = sw__array(L, L->arena, count, sizeof *out);
        sw_mat34* inverse_bind = sw__array(L, L->arena, count, sizeof *inverse_bind);
        if (!out || !inverse_bind) return L->diag.result;
        size_t k = 0;
        const cJSON* e;
        cJSON_ArrayForEach(e, joints) {
            if (sw__value_index(L, e, sw__pathf("%s.joints[%zu]", path.s, k).s, L->nodes.count, "nodes", &out[k]) !=
                SW_OK)
                return L->diag.result;
            k++;
        }
        if (ibm >= 0) {
            sw__path where = sw__at(path.s, "inverseBindMatrices");
            const sw__gltf_accessor* a;
            if (sw__use_accessor(L, where.s, (uint32_t)ibm, SW__MAT4, SW__FLOAT, &a) != SW_OK) return L->diag.result;
            if (a->count < count)
                return sw__fail(L, SW_ERR_INVALID_DATA, where.s, "accessors[%d] has %zu matrices for %zu joints",
                                (int)ibm, a->count, count);
            float* m = sw__decode_floats(L, where.s, (uint32_t)ibm, a, true);
            if (!m) return L->diag.result;
            for (size_t jn = 0; jn < count; jn++) {
                if (sw__read_mat4(L, &m[jn * 16], sw__pathf("%s[%zu]", where.s, jn).s, &inverse_bind[jn]) != SW_OK) {
                    sw__temp_free(L, m);
                    return L->diag.result;
                }
            }
            sw__temp_free(L, m);
        } else {
            for (size_t jn = 0; jn < count; jn++) inverse_bind[jn] = sw_mat34_identity();
        }
        skins[i].joints = out;
        skins[i].joint_count = count;
        skins[i].inverse_bind = inverse_bind;
    }
    L->owner->model.skins = skins;
    L->owner->model.skin_count = n;
    return SW_OK;
}

static sw_result sw__parse_scenes(sw__loader* L) {
    size_t n = L->scenes.count;
    sw_model_scene* scenes = n ? sw__array(L, L->arena, n, sizeof *scenes) : NULL;
    if (n && !scenes) return L->diag.result;
    for (size_t i = 0; i < n; i++) {
        const cJSON* j = L->scenes.items[i];
        sw__path path = sw__pathf("scenes[%zu]", i);
        const cJSON* roots;
        if (sw__get_name(L, j, path.s, &scenes[i].name) != SW_OK ||
            sw__get_array(L, j, path.s, "nodes", false, &roots) != SW_OK)
            return L->diag.result;
        size_t count = roots ? (size_t)cJSON_GetArraySize(roots) : 0;
        if (!count) continue;
        uint32_t* out = sw__array(L, L->arena, count, sizeof *out);
        if (!out) return L->diag.result;
        size_t k = 0;
        const cJSON* e;
        cJSON_ArrayForEach(e, roots) {
            sw__path where = sw__pathf("%s.nodes[%zu]", path.s, k);
            if (sw__value_index(L, e, where.s, L->nodes.count, "nodes", &out[k]) != SW_OK) return L->diag.result;
            if (L->nodes_out[out[k]].parent >= 0)
                sw__warn(L, where.s, "nodes[%u] is not a root (its parent is nodes[%d])", (unsigned)out[k],
                         (int)L->nodes_out[out[k]].parent);
            k++;
        }
        scenes[i].nodes = out;
        scenes[i].node_count = count;
    }
    L->owner->model.scenes = scenes;
    L->owner->model.scene_count = n;
    int32_t scene;
    if (sw__get_index(L, L->root, "", "scene", false, &L->scenes, "scenes", &scene) != SW_OK) return L->diag.result;
    L->owner->model.default_scene = scene >= 0 ? scene : n ? 0 : -1;
    return SW_OK;
}

/* Every skinned instance's joint indices must lie within its skin. */
static sw_result sw__check_skinned_nodes(sw__loader* L) {
    for (size_t i = 0; i < L->nodes.count; i++) {
        const sw_model_node* node = &L->nodes_out[i];
        if (node->skin < 0) continue;
        sw__path path = sw__pathf("nodes[%zu]", i);
        if (node->mesh < 0) {
            sw__warn(L, path.s, "has a skin but no mesh");
            continue;
        }
        const sw_model_mesh* mesh = &L->meshes_out[node->mesh];
        const sw_model_skin* skin = &L->skins_out[node->skin];
        size_t unskinned = 0;
        for (size_t p = 0; p < mesh->primitive_count; p++) {
            const sw_model_primitive* prim = &mesh->primitives[p];
            if (prim->influence_count == 0) {
                unskinned++;
                continue;
            }
            size_t slots = prim->vertex_count * (size_t)prim->influence_count;
            for (size_t e = 0; e < slots; e++) {
                if (prim->joints[e] >= skin->joint_count) {
                    size_t v = e / (size_t)prim->influence_count;
                    sw_result r = sw__fail(L, SW_ERR_INDEX_OUT_OF_RANGE, path.s,
                                           "meshes[%d].primitives[%zu]: vertex %zu uses joint %u, but skins[%d] "
                                           "has %zu joints",
                                           (int)node->mesh, p, v, (unsigned)prim->joints[e], (int)node->skin,
                                           skin->joint_count);
                    L->diag.index = (int64_t)v;
                    return r;
                }
            }
        }
        if (unskinned)
            sw__warn(L, path.s, "has skins[%d], but %zu of the %zu primitives of meshes[%d] have no JOINTS_0/WEIGHTS_0",
                     (int)node->skin, unskinned, mesh->primitive_count, (int)node->mesh);
    }
    return SW_OK;
}

/* ---- animations ------------------------------------------------------------------------ */

/* M = T·R·S from an affine matrix by polar decomposition; shear (which TRS
   cannot hold) is dropped, and `exact` says whether there was any. */
static sw_transform sw__matrix_to_trs(const sw_mat34* m, bool* exact) {
    sw_transform t = sw_transform_identity();
    t.translation = sw_vec3_make(m->m[0][3], m->m[1][3], m->m[2][3]);
    sw_mat34 a = *m, rigid, stretch;
    /* A reflection (det < 0) has no rotation factor: split −A instead and
       give the sign to the scale. */
    float sign = sw_mat34_determinant(m) < 0.0f ? -1.0f : 1.0f;
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) a.m[r][c] *= sign;
    if (!sw_mat34_polar(&a, &rigid, &stretch)) {
        /* singular: no rotation can be recovered; keep the column lengths */
        *exact = false;
        float s[3];
        for (int c = 0; c < 3; c++)
            s[c] = sqrtf(m->m[0][c] * m->m[0][c] + m->m[1][c] * m->m[1][c] + m->m[2][c] * m->m[2][c]);
        t.scale = sw_vec3_make(s[0], s[1], s[2]);
        return t;
    }
    t.rotation = sw_quat_from_mat34(&rigid);
    t.scale = sw_vec3_make(sign * stretch.m[0][0], sign * stretch.m[1][1], sign * stretch.m[2][2]);
    float largest = fmaxf(fabsf(stretch.m[0][0]), fmaxf(fabsf(stretch.m[1][1]), fabsf(stretch.m[2][2])));
    float off = fmaxf(fabsf(stretch.m[0][1]), fmaxf(fabsf(stretch.m[0][2]), fabsf(stretch.m[1][2])));
    *exact = off <= 1e-4f * largest;
    return t;
}

/* Key times of an input accessor: decoded once, checked finite, ≥ 0 and
   strictly increasing (the spec's MUSTs). */
static const float* sw__key_times(sw__loader* L, const char* where, uint32_t input) {
    if (L->times[input]) return L->times[input];
    const sw__gltf_accessor* a;
    if (sw__use_accessor(L, where, input, SW__SCALAR, SW__FLOAT, &a) != SW_OK) return NULL;
    float* times = sw__decode_floats(L, where, input, a, false);
    if (!times) return NULL;
    if (times[0] < 0.0f) {
        sw__fail(L, SW_ERR_INVALID_DATA, where, "key 0 is at %g s; key times must be >= 0", (double)times[0]);
        return NULL;
    }
    for (size_t k = 1; k < a->count; k++) {
        if (!(times[k] > times[k - 1])) {
            sw__fail(L, SW_ERR_INVALID_DATA, where,
                     "key %zu (%g s) is not after key %zu (%g s): key times must be strictly increasing", k,
                     (double)times[k], k - 1, (double)times[k - 1]);
            L->diag.index = (int64_t)k;
            return NULL;
        }
    }
    L->times[input] = times;
    return times;
}

typedef struct sw__anim_sampler {
    int32_t input, output;
    sw_interpolation interpolation;
} sw__anim_sampler;

static sw_result sw__parse_channel(sw__loader* L, const cJSON* j, const char* path, const char* anim_path,
                                   const sw__anim_sampler* samplers, size_t sampler_count, uint8_t* targeted,
                                   sw_track* track, bool* kept) {
    *kept = false;
    const cJSON* target;
    const char* path_name;
    size_t sampler = 0;
    if (sw__get_uint(L, j, path, "sampler", true, sw__max_size, &sampler) != SW_OK ||
        sw__get_object(L, j, path, "target", true, &target) != SW_OK)
        return L->diag.result;
    if (sampler >= sampler_count)
        return sw__fail(L, SW_ERR_INDEX_OUT_OF_RANGE, sw__at(path, "sampler").s, "%zu is out of range (%zu samplers)",
                        sampler, sampler_count);
    sw__path tp = sw__at(path, "target");
    if (sw__get_string(L, target, tp.s, "path", true, &path_name) != SW_OK) return L->diag.result;
    const cJSON* node_value = sw__member(target, "node");
    size_t node = 0;
    if (node_value && sw__value_uint(L, node_value, sw__at(tp.s, "node").s, sw__max_size, &node) != SW_OK)
        return L->diag.result;

    sw_track_path track_path;
    if (strcmp(path_name, "translation") == 0) track_path = SW_PATH_TRANSLATION;
    else if (strcmp(path_name, "rotation") == 0) track_path = SW_PATH_ROTATION;
    else if (strcmp(path_name, "scale") == 0) track_path = SW_PATH_SCALE;
    else if (strcmp(path_name, "weights") == 0) track_path = SW_PATH_WEIGHTS;
    else {
        sw__warn(L, sw__at(tp.s, "path").s, "'%s' is not supported; channel skipped", path_name);
        return SW_OK;
    }
    if (!node_value) {
        sw__warn(L, tp.s, "no node (an extension's target?); channel skipped");
        return SW_OK;
    }
    if (node >= L->nodes.count) {
        sw__warn(L, sw__at(tp.s, "node").s, "nodes[%zu] does not exist (%zu nodes); channel skipped", node,
                 L->nodes.count);
        return SW_OK;
    }
    sw_model_node* n = &L->nodes_out[node];
    size_t components = track_path == SW_PATH_ROTATION ? 4 : 3;
    if (track_path == SW_PATH_WEIGHTS) {
        components = n->mesh >= 0 ? L->meshes_out[n->mesh].weight_count : 0;
        if (components == 0) {
            sw__warn(L, tp.s, "weights of nodes[%zu], whose mesh has no morph targets; channel skipped", node);
            return SW_OK;
        }
    }
    uint8_t bit = (uint8_t)(1u << track_path);
    if (targeted[node] & bit)
        sw__warn(L, tp.s, "a second channel for the %s of nodes[%zu] (the later one wins)", path_name, node);
    targeted[node] |= bit;

    const sw__anim_sampler* s = &samplers[sampler];
    sw__path sp = sw__pathf("%s.samplers[%zu]", anim_path, sampler);
    const float* times = sw__key_times(L, sw__at(sp.s, "input").s, (uint32_t)s->input);
    if (!times) return L->diag.result;
    size_t keys = L->acc[s->input].count;
    bool cubic = s->interpolation == SW_INTERP_CUBICSPLINE;
    if (cubic && keys < 2)
        return sw__fail(L, SW_ERR_INVALID_DATA, sw__at(sp.s, "input").s, "CUBICSPLINE needs at least 2 keys, has %zu",
                        keys);
    sw__path op = sw__at(sp.s, "output");
    unsigned type = track_path == SW_PATH_WEIGHTS ? SW__SCALAR : track_path == SW_PATH_ROTATION ? SW__VEC4 : SW__VEC3;
    unsigned allow = track_path == SW_PATH_ROTATION || track_path == SW_PATH_WEIGHTS ? SW__FLOAT | SW__NORM : SW__FLOAT;
    const sw__gltf_accessor* out;
    if (sw__use_accessor(L, op.s, (uint32_t)s->output, type, allow, &out) != SW_OK) return L->diag.result;
    size_t expected = keys * (cubic ? 3 : 1) * (track_path == SW_PATH_WEIGHTS ? components : 1);
    if (out->count != expected)
        return sw__fail(L, SW_ERR_INVALID_DATA, op.s, "accessors[%d] has %zu elements; %zu keys%s%s need %zu",
                        (int)s->output, out->count, keys, cubic ? " (CUBICSPLINE: 3 per key)" : "",
                        track_path == SW_PATH_WEIGHTS ? " of morph weights" : "", expected);
    float* values = sw__decode_floats(L, op.s, (uint32_t)s->output, out, false);
    if (!values) return L->diag.result;
    if (track_path == SW_PATH_ROTATION) {
        /* Only values are unit quaternions; CUBICSPLINE tangents are not. */
        size_t zero = 0, non_unit = 0, worst = 0;
        double worst_length = 1.0;
        for (size_t k = 0; k < keys; k++) {
            float* q = &values[(cubic ? 3 * k + 1 : k) * 4];
            double length = sqrt((double)q[0] * q[0] + (double)q[1] * q[1] + (double)q[2] * q[2] + (double)q[3] * q[3]);
            if (length < 1e-6) {
                zero++;
                q[0] = q[1] = q[2] = 0.0f;
                q[3] = 1.0f;
                continue;
            }
            /* the node rotation's tolerance; exporters stay within 1e-6 */
            if (fabs(length - 1.0) > 1e-3) {
                if (non_unit++ == 0 || fabs(length - 1.0) > fabs(worst_length - 1.0)) worst = k, worst_length = length;
            }
            for (int c = 0; c < 4; c++) q[c] = (float)(q[c] / length);
        }
        if (zero) sw__warn(L, op.s, "%zu zero quaternions replaced by identity", zero);
        if (non_unit)
            sw__warn(L, op.s,
                     "%zu of the %zu rotation keys of nodes[%zu] are not unit quaternions (worst: key %zu, length %g); "
                     "normalised",
                     non_unit, keys, node, worst, worst_length);
    }
    if (track_path != SW_PATH_WEIGHTS && n->has_matrix) {
        /* glTF forbids animating a matrix node; turn it into TRS so the
           animation has something to drive. */
        bool exact;
        n->trs = sw__matrix_to_trs(&n->matrix, &exact);
        n->matrix = sw_mat34_identity();
        n->has_matrix = false;
        sw__warn(L, sw__pathf("nodes[%zu]", node).s,
                 "animated but given as a matrix; decomposed into translation/rotation/scale%s",
                 exact ? "" : " (its shear is lost)");
    }
    *track = (sw_track){.target = (uint32_t)node,
                        .path = track_path,
                        .interpolation = s->interpolation,
                        .component_count = (uint32_t)components,
                        .key_count = keys,
                        .times = times,
                        .values = values};
    *kept = true;
    return SW_OK;
}

static sw_result sw__parse_animations(sw__loader* L) {
    size_t n = L->animations.count;
    if (n == 0) return SW_OK;
    sw_clip* clips = sw__array(L, L->arena, n, sizeof *clips);
    uint8_t* targeted = sw__array(L, &L->scratch, L->nodes.count ? L->nodes.count : 1, 1);
    if (!clips || !targeted) return L->diag.result;
    for (size_t i = 0; i < n; i++) {
        const cJSON* j = L->animations.items[i];
        sw__path path = sw__pathf("animations[%zu]", i);
        const cJSON *channels, *samplers;
        if (sw__get_name(L, j, path.s, &clips[i].name) != SW_OK ||
            sw__get_array(L, j, path.s, "channels", true, &channels) != SW_OK ||
            sw__get_array(L, j, path.s, "samplers", true, &samplers) != SW_OK)
            return L->diag.result;
        size_t sampler_count = (size_t)cJSON_GetArraySize(samplers);
        size_t channel_count = (size_t)cJSON_GetArraySize(channels);
        sw__anim_sampler* s = sw__array(L, &L->scratch, sampler_count ? sampler_count : 1, sizeof *s);
        sw_track* tracks = sw__array(L, L->arena, channel_count ? channel_count : 1, sizeof *tracks);
        if (!s || !tracks) return L->diag.result;
        size_t k = 0;
        const cJSON* e;
        cJSON_ArrayForEach(e, samplers) {
            sw__path sp = sw__pathf("%s.samplers[%zu]", path.s, k);
            const char* interpolation;
            if (!cJSON_IsObject(e)) return sw__fail(L, SW_ERR_INVALID_DATA, sp.s, "expected an object");
            if (sw__get_index(L, e, sp.s, "input", true, &L->accessors, "accessors", &s[k].input) != SW_OK ||
                sw__get_index(L, e, sp.s, "output", true, &L->accessors, "accessors", &s[k].output) != SW_OK ||
                sw__get_string(L, e, sp.s, "interpolation", false, &interpolation) != SW_OK)
                return L->diag.result;
            if (!interpolation || strcmp(interpolation, "LINEAR") == 0) s[k].interpolation = SW_INTERP_LINEAR;
            else if (strcmp(interpolation, "STEP") == 0) s[k].interpolation = SW_INTERP_STEP;
            else if (strcmp(interpolation, "CUBICSPLINE") == 0) s[k].interpolation = SW_INTERP_CUBICSPLINE;
            else
                return sw__fail(L, SW_ERR_INVALID_DATA, sw__at(sp.s, "interpolation").s,
                                "'%s' is not LINEAR, STEP or CUBICSPLINE", interpolation);
            k++;
        }
        memset(targeted, 0, L->nodes.count);
        size_t kept_count = 0, c = 0;
        cJSON_ArrayForEach(e, channels) {
            sw__path cp = sw__pathf("%s.channels[%zu]", path.s, c++);
            bool kept;
            if (!cJSON_IsObject(e)) return sw__fail(L, SW_ERR_INVALID_DATA, cp.s, "expected an object");
            if (sw__parse_channel(L, e, cp.s, path.s, s, sampler_count, targeted, &tracks[kept_count], &kept) != SW_OK)
                return L->diag.result;
            kept_count += kept;
        }
        float start = 0.0f, end = 0.0f;
        for (size_t t = 0; t < kept_count; t++) {
            float first = tracks[t].times[0], last = tracks[t].times[tracks[t].key_count - 1];
            if (t == 0 || first < start) start = first;
            if (t == 0 || last > end) end = last;
        }
        clips[i].tracks = tracks;
        clips[i].track_count = kept_count;
        clips[i].start = start;
        clips[i].duration = end;
    }
    L->owner->model.animations = clips;
    L->owner->model.animation_count = n;
    return SW_OK;
}

/* ---- the document -------------------------------------------------------------------- */

static sw_result sw__finish(sw__loader* L) {
    sw_model* asset = &L->owner->model;
    size_t offset = 0;
    for (size_t i = 0; i < L->nodes.count; i++) {
        sw_model_node* node = &L->nodes_out[i];
        if (offset > UINT32_MAX) return sw__fail(L, SW_ERR_INVALID_DATA, NULL, "too many morph weights");
        node->weight_offset = (uint32_t)offset;
        if (node->mesh >= 0) offset += L->meshes_out[node->mesh].weight_count;
    }
    asset->weight_count = offset;
    size_t palette = 0;
    for (size_t s = 0; s < asset->skin_count; s++) {
        ((sw_model_skin*)&asset->skins[s])->palette_offset = palette;
        palette += asset->skins[s].joint_count;
    }
    asset->skin_joint_count = palette;
    if (L->quantization_used && !L->quantization_declared)
        sw__warn(L, NULL, "integer vertex attributes without KHR_mesh_quantization in extensionsUsed");
    if (L->warnings_dropped) {
        char note[64];
        snprintf(note, sizeof note, "%zu more warnings not stored", L->warnings_dropped);
        sw__store_warning(L, NULL, note);
    }
    if (L->warning_count) {
        const char** lines = sw__array(L, L->arena, L->warning_count, sizeof *lines);
        if (!lines) return L->diag.result;
        size_t i = 0;
        for (sw__warning* w = L->warnings; w && i < L->warning_count; w = w->next) lines[i++] = w->text;
        asset->warnings = lines;
        asset->warning_count = L->warning_count;
    }
    if (sw__order_nodes(L) != SW_OK) return L->diag.result;
    asset->allow_outside_paths = L->allow_outside;
    if (L->base_dir && !(asset->base_dir = sw__strdup(L, L->base_dir))) return L->diag.result;
    return SW_OK;
}

static sw_result sw__parse_document(sw__loader* L) {
    if (sw__parse_header(L) != SW_OK) return L->diag.result;
    const cJSON* cameras;
    if (sw__get_array(L, L->root, "", "cameras", false, &cameras) != SW_OK) return L->diag.result;
    L->cameras.count = cameras ? (size_t)cJSON_GetArraySize(cameras) : 0;
    if (sw__collect(L, "buffers", &L->buffers) != SW_OK || sw__collect(L, "bufferViews", &L->buffer_views) != SW_OK ||
        sw__collect(L, "accessors", &L->accessors) != SW_OK || sw__collect(L, "images", &L->images) != SW_OK ||
        sw__collect(L, "samplers", &L->samplers) != SW_OK || sw__collect(L, "textures", &L->textures) != SW_OK ||
        sw__collect(L, "materials", &L->materials) != SW_OK || sw__collect(L, "meshes", &L->meshes) != SW_OK ||
        sw__collect(L, "nodes", &L->nodes) != SW_OK || sw__collect(L, "skins", &L->skins) != SW_OK ||
        sw__collect(L, "scenes", &L->scenes) != SW_OK || sw__collect(L, "animations", &L->animations) != SW_OK)
        return L->diag.result;
    if (sw__load_buffers(L) != SW_OK || sw__parse_buffer_views(L) != SW_OK || sw__parse_accessors(L) != SW_OK ||
        sw__parse_samplers(L) != SW_OK || sw__parse_images(L) != SW_OK || sw__parse_textures(L) != SW_OK ||
        sw__parse_materials(L) != SW_OK || sw__parse_meshes(L) != SW_OK || sw__parse_nodes(L) != SW_OK ||
        sw__parse_skins(L) != SW_OK || sw__parse_scenes(L) != SW_OK || sw__check_skinned_nodes(L) != SW_OK ||
        sw__parse_animations(L) != SW_OK || sw__finish(L) != SW_OK)
        return L->diag.result;
    return SW_OK;
}

/* The GLB container (glTF 2.0 §4.4): a 12-byte header, a JSON chunk, then
   an optional BIN chunk; chunks of unknown type are skipped. */
static sw_result sw__parse_glb(sw__loader* L, const uint8_t* data, size_t size, const char** json,
                               size_t* json_size) {
    const uint32_t json_type = 0x4E4F534Au, bin_type = 0x004E4942u;
    if (size < 12) return sw__fail(L, SW_ERR_INVALID_DATA, NULL, "GLB header truncated (%zu of 12 bytes)", size);
    uint32_t version = sw__read_u32(data + 4), length = sw__read_u32(data + 8);
    if (version != 2)
        return sw__fail(L, SW_ERR_UNSUPPORTED, NULL, "GLB version %u is not supported (glTF 2.0 uses version 2)",
                        (unsigned)version);
    if (length > size)
        return sw__fail(L, SW_ERR_INVALID_DATA, NULL, "GLB truncated: its header says %u bytes, there are %zu",
                        (unsigned)length, size);
    if (length < size) {
        sw__warn(L, NULL, "%zu bytes after the end of the GLB ignored", size - length);
        size = length;
    }
    if (size < 20) return sw__fail(L, SW_ERR_INVALID_DATA, NULL, "GLB has no JSON chunk");
    uint32_t chunk_length = sw__read_u32(data + 12), chunk_type = sw__read_u32(data + 16);
    if (chunk_type != json_type) return sw__fail(L, SW_ERR_INVALID_DATA, NULL, "GLB: the first chunk is not JSON");
    if (chunk_length > size - 20)
        return sw__fail(L, SW_ERR_INVALID_DATA, NULL, "GLB truncated: the JSON chunk (%u bytes) runs past the end",
                        (unsigned)chunk_length);
    *json = (const char*)data + 20;
    *json_size = chunk_length;
    size_t offset = 20 + (size_t)chunk_length;
    bool first = true;
    while (offset < size) {
        if (size - offset < 8)
            return sw__fail(L, SW_ERR_INVALID_DATA, NULL, "GLB truncated: a chunk header at byte %zu", offset);
        chunk_length = sw__read_u32(data + offset);
        chunk_type = sw__read_u32(data + offset + 4);
        if (chunk_length > size - offset - 8)
            return sw__fail(L, SW_ERR_INVALID_DATA, NULL,
                            "GLB truncated: the chunk at byte %zu (%u bytes) runs past the end", offset,
                            (unsigned)chunk_length);
        if (chunk_type == bin_type) {
            if (first) {
                L->has_bin = true;
                L->bin = data + offset + 8;
                L->bin_size = chunk_length;
            } else {
                sw__warn(L, NULL, "GLB: a BIN chunk that is not the second chunk ignored");
            }
        }
        first = false;
        offset += 8 + (size_t)chunk_length;
    }
    return SW_OK;
}

static sw_result sw__load(sw__loader* L, const uint8_t* data, size_t size) {
    const char* json = (const char*)data;
    size_t json_size = size;
    if (size == 0) return sw__fail(L, SW_ERR_INVALID_DATA, NULL, "empty file");
    if (size >= 4 && memcmp(data, "glTF", 4) == 0) {
        L->glb = true;
        if (sw__parse_glb(L, data, size, &json, &json_size) != SW_OK) return L->diag.result;
    }
    if (json_size >= 3 && memcmp(json, "\xEF\xBB\xBF", 3) == 0) {
        sw__warn(L, NULL, "the JSON starts with a byte order mark (glTF forbids it); skipped");
        json += 3;
        json_size -= 3;
    }
    const char* end = NULL;
    cJSON* root = cJSON_ParseWithLengthOpts(json, json_size, &end, false);
    if (!root) {
        size_t at = end && end >= json && end <= json + json_size ? (size_t)(end - json) : 0;
        if (!L->glb && json_size > 0 && json[0] != '{' && json[0] != ' ' && json[0] != '\n' && json[0] != '\r' &&
            json[0] != '\t')
            return sw__fail(L, SW_ERR_INVALID_DATA, NULL, "not a glTF file (neither GLB nor JSON)");
        return sw__fail(L, SW_ERR_INVALID_DATA, NULL, "%sinvalid or truncated JSON at byte %zu of %zu",
                        L->glb ? "GLB JSON chunk: " : "", at, json_size);
    }
    /* Only whitespace (GLB pads with spaces; some writers with NULs) may follow. */
    for (const char* p = end; p && p < json + json_size; p++) {
        if (*p != ' ' && *p != '\t' && *p != '\n' && *p != '\r' && *p != '\0') {
            cJSON_Delete(root);
            return sw__fail(L, SW_ERR_INVALID_DATA, NULL, "unexpected data after the JSON at byte %zu",
                            (size_t)(p - json));
        }
    }
    size_t tree = sw__json_bytes(root, 0);
    if (!sw__charge(L, tree)) {
        cJSON_Delete(root);
        return L->diag.result;
    }
    sw_result r;
    if (!cJSON_IsObject(root)) r = sw__fail(L, SW_ERR_INVALID_DATA, NULL, "the JSON is not an object");
    else {
        L->root = root;
        r = sw__parse_document(L);
    }
    cJSON_Delete(root);
    L->root = NULL;
    L->used -= tree;
    return r;
}

/* Resolves the options and allocates the asset; errors land in L->diag. */
static sw_result sw__begin(sw__loader* L, const sw_gltf_options* options, const char* name) {
    memset(L, 0, sizeof *L);
    L->name = name;
    L->warnings_tail = &L->warnings;
    L->max_memory = options && options->max_memory ? options->max_memory : SW__DEFAULT_MAX_MEMORY;
    L->max_influences = options && options->max_influences ? options->max_influences : SW_MODEL_MAX_INFLUENCES;
    L->allow_outside = options && options->allow_outside_paths;
    L->keep_raw_influences = options && options->keep_raw_influences;
    if (L->max_influences != 4 && L->max_influences != 8)
        return sw_diag_set(&L->diag, SW_ERR_INVALID_ARGUMENT, -1, "options.max_influences is %d (allowed: 0, 4 or 8)",
                           L->max_influences);
    if (!sw__charge(L, sizeof *L->owner)) return L->diag.result;
    L->owner = calloc(1, sizeof *L->owner);
    if (!L->owner) return sw__fail(L, SW_ERR_OUT_OF_MEMORY, NULL, "out of memory");
    L->arena = &L->owner->arena;
    L->owner->model.default_scene = -1;
    return SW_OK;
}

/* Hands the asset out, or frees it; always frees the scratch. */
static sw_result sw__end(sw__loader* L, sw_result r, const char* path, sw_model** out_asset, sw_diag* diag) {
    if (r == SW_OK && !(L->owner->model.path = sw__strdup(L, path))) r = L->diag.result;
    sw__arena_free(&L->scratch);
    if (r != SW_OK) {
        if (L->owner) {
            sw__arena_free(&L->owner->arena);
            free(L->owner);
        }
        if (diag) *diag = L->diag;
        return r;
    }
    *out_asset = &L->owner->model;
    sw_diag_set(diag, SW_OK, -1, "%s", "");
    return SW_OK;
}

static const char* sw__base_name(const char* path) {
    const char* slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

sw_result sw_gltf_load_memory(const void* data, size_t size, const char* name, const char* base_dir,
                              const sw_gltf_options* options, sw_model** out_asset, sw_diag* diag) {
    if (out_asset) *out_asset = NULL;
    if (!out_asset || (!data && size))
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "sw_gltf_load_memory: no data or no out_asset");
    sw__loader L;
    const char* label = name ? name : "<memory>";
    if (sw__begin(&L, options, label) != SW_OK) {
        if (diag) *diag = L.diag;
        return L.diag.result;
    }
    L.base_dir = base_dir;
    sw_result r = sw__load(&L, data, size);
    return sw__end(&L, r, label, out_asset, diag);
}

sw_result sw_gltf_load_file(const char* path, const sw_gltf_options* options, sw_model** out_asset,
                            sw_diag* diag) {
    if (out_asset) *out_asset = NULL;
    if (!path || !out_asset)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "sw_gltf_load_file: no path or no out_asset");
    sw__loader L;
    if (sw__begin(&L, options, sw__base_name(path)) != SW_OK) {
        if (diag) *diag = L.diag;
        return L.diag.result;
    }
    /* External files resolve against the asset's folder. */
    const char* slash = strrchr(path, '/');
    char* dir = NULL;
    sw_result r = SW_OK;
    if (slash) {
        size_t length = slash == path ? 1 : (size_t)(slash - path);
        dir = sw__arena_alloc(&L, &L.scratch, length + 1);
        if (!dir) r = L.diag.result;
        else memcpy(dir, path, length);
    }
    L.base_dir = dir ? dir : ".";
    uint8_t* data = NULL;
    size_t size = 0;
    if (r == SW_OK) {
        sw_diag inner = {0};
        r = sw__gltf_read_file(path, L.name, L.max_memory - L.used, sw__file_alloc_temp, &L, &data, &size, &inner);
        if (r != SW_OK && !(r == SW_ERR_OUT_OF_MEMORY && L.diag.result == SW_ERR_OUT_OF_MEMORY)) L.diag = inner;
    }
    if (r == SW_OK) r = sw__load(&L, data, size);
    sw__temp_free(&L, data);
    return sw__end(&L, r, path, out_asset, diag);
}
