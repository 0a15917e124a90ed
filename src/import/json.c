/* The JSON layer of sinew-import (json_internal.h): parsing, the current
   path, messages, owned memory and the typed getters over cJSON nodes. */
#include "json_internal.h"

#include "../base/base_internal.h"
#include "../base/cjson_alloc_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* A float's range, for numbers that must fit one. */
#define SW__JSON_FLOAT_MAX 3.0e38
/* Integers are exact in a double up to 2^53; beyond ±9e15 is no index. */
#define SW__JSON_INTEGER_MAX 9.0e15
/* A message's text. */
#define SW__JSON_TEXT_SIZE 200

void sw__json_begin(sw__json* J, const char* file, const char* what, sw_diag* diag, sw__json_owned* owned) {
    memset(J, 0, sizeof *J);
    J->file = file;
    J->what = what;
    J->diag = diag ? diag : &J->own_diag;
    J->error_index = -1;
    J->owned = owned;
}

void sw__json_owned_free(sw__json_owned* owned) {
    if (!owned) return;
    for (size_t i = 0; i < owned->block_count; i++) sw__free(owned->blocks[i]);
    sw__free(owned->blocks);
    for (size_t i = 0; i < owned->warning_count; i++) sw__free(owned->warnings[i]);
    sw__free(owned->warnings);
    memset(owned, 0, sizeof *owned);
}

/* ---- parsing ------------------------------------------------------------------------------------------------ */

cJSON* sw__json_parse(sw__json* J, const char* text, size_t* error_at) {
    if (error_at) *error_at = 0;
    if (!text) return NULL;
    const char* end = NULL;
    bool out_of_memory = false;
    cJSON* root = sw__cjson_parse(text, strlen(text) + 1, &end, true, &out_of_memory);
    if (out_of_memory) J->oom = true;
    if (!root && error_at) *error_at = end && end >= text ? (size_t)(end - text) : 0;
    return root;
}

void sw__json_delete(cJSON* root) {
    sw__cjson_use_allocator();
    cJSON_Delete(root);
}

/* ---- the path ------------------------------------------------------------------------------------------------ */

/* Appends the pieces; when they do not fit, the path keeps its first
   SIZE − 4 bytes and ends in "..." (as snprintf's cut with "..." over its
   last three bytes would). */
static size_t sw__json_append(sw__json* J, const char* a, const char* b, size_t b_length) {
    size_t mark = J->path_length, a_length = strlen(a);
    if (mark + a_length + b_length < SW__JSON_PATH_SIZE) {
        memcpy(J->path + mark, a, a_length);
        memcpy(J->path + mark + a_length, b, b_length);
        J->path_length = mark + a_length + b_length;
    } else {
        size_t keep = SW__JSON_PATH_SIZE - 4, at = mark;
        for (size_t i = 0; i < a_length && at < keep; i++) J->path[at++] = a[i];
        for (size_t i = 0; i < b_length && at < keep; i++) J->path[at++] = b[i];
        memcpy(J->path + keep, "...", 3);
        J->path_length = SW__JSON_PATH_SIZE - 1;
    }
    J->path[J->path_length] = '\0';
    return mark;
}

void sw__json_set_path(sw__json* J, const char* path) {
    J->path_length = 0;
    J->path[0] = '\0';
    sw__json_append(J, "", path, strlen(path));
}

size_t sw__json_push(sw__json* J, const char* key) {
    return sw__json_append(J, J->path_length ? "." : "", key, strlen(key));
}

size_t sw__json_push_index(sw__json* J, size_t index) {
    char item[32];
    int n = snprintf(item, sizeof item, "[%zu]", index);
    return sw__json_append(J, "", item, (size_t)n);
}

void sw__json_pop(sw__json* J, size_t mark) {
    if (mark > J->path_length) return;
    J->path_length = mark;
    J->path[mark] = '\0';
}

/* ---- messages ----------------------------------------------------------------------------------------------- */

static sw_result sw__json_vfail(sw__json* J, const char* key, const char* format, va_list args) {
    size_t mark = key ? sw__json_push(J, key) : J->path_length;
    sw_result r;
    if (J->file) {
        r = sw__diag_vset_at(J->diag, SW_ERR_INVALID_DATA, J->error_index, J->file, J->path, SW__JSON_TEXT_SIZE,
                             format, args);
    } else if (J->path_length) {
        r = sw__diag_vset_at(J->diag, SW_ERR_INVALID_DATA, J->error_index, J->path, NULL, SW__JSON_TEXT_SIZE, format,
                             args);
    } else {
        char text[SW__JSON_TEXT_SIZE];
        vsnprintf(text, sizeof text, format, args);
        r = sw_diag_set(J->diag, SW_ERR_INVALID_DATA, J->error_index, "%s", text);
        sw__one_line(J->diag->message);
    }
    sw__json_pop(J, mark);
    return r;
}

sw_result sw__json_fail(sw__json* J, const char* key, const char* format, ...) {
    va_list args;
    va_start(args, format);
    sw_result r = sw__json_vfail(J, key, format, args);
    va_end(args);
    return r;
}

bool sw__json_warn(sw__json* J, const char* key, const char* format, ...) {
    char text[SW__JSON_TEXT_SIZE], line[SW__JSON_LINE_SIZE];
    va_list args;
    va_start(args, format);
    vsnprintf(text, sizeof text, format, args);
    va_end(args);
    size_t mark = key ? sw__json_push(J, key) : J->path_length;
    if (J->file) sw__line_at(line, sizeof line, J->file, J->path, text);
    else if (J->path_length) sw__line_at(line, sizeof line, J->path, NULL, text);
    else {
        snprintf(line, sizeof line, "%s", text);
        sw__one_line(line);
    }
    sw__json_pop(J, mark);
    if (J->warning_count++ == 0) memcpy(J->first_warning, line, sizeof line);
    sw__json_owned* o = J->owned;
    if (o && !sw__lines_append(&o->warnings, &o->warning_count, &o->warning_cap, line)) {
        J->oom = true;
        return false;
    }
    return true;
}

sw_result sw__json_out_of_memory(sw__json* J) {
    if (J->file) return sw_diag_set(J->diag, SW_ERR_OUT_OF_MEMORY, -1, "%s: %s: out of memory", J->file, J->what);
    return sw_diag_set(J->diag, SW_ERR_OUT_OF_MEMORY, -1, "%s: out of memory", J->what);
}

sw_result sw__json_result(sw__json* J) {
    if (J->oom) return sw__json_out_of_memory(J);
    return J->diag->result != SW_OK ? J->diag->result : SW_ERR_INVALID_DATA;
}

/* ---- memory ----------------------------------------------------------------------------------------------------- */

void* sw__json_alloc(sw__json* J, size_t count, size_t size) {
    size_t bytes;
    sw__json_owned* o = J->owned;
    SW_ASSERT(o);
    if (!sw_mul_size(count ? count : 1, size, &bytes)) {
        J->oom = true;
        return NULL;
    }
    if (o->block_count == o->block_cap) {
        size_t cap = o->block_cap ? o->block_cap * 2 : 32;
        void** grown = cap < SIZE_MAX / sizeof *grown ? sw__realloc(o->blocks, cap * sizeof *grown) : NULL;
        if (!grown) {
            J->oom = true;
            return NULL;
        }
        o->blocks = grown;
        o->block_cap = cap;
    }
    void* p = sw__calloc(1, bytes);
    if (!p) {
        J->oom = true;
        return NULL;
    }
    o->blocks[o->block_count++] = p;
    return p;
}

const char* sw__json_copy(sw__json* J, const char* s) {
    size_t length = strlen(s) + 1;
    char* copy = sw__json_alloc(J, length, 1);
    if (copy) memcpy(copy, s, length);
    return copy;
}

/* ---- nodes ------------------------------------------------------------------------------------------------- */

const cJSON* sw__json_member(const cJSON* object, const char* key) {
    return cJSON_GetObjectItemCaseSensitive(object, key);
}

size_t sw__json_count(const cJSON* node) {
    if (!cJSON_IsArray(node) && !cJSON_IsObject(node)) return 0;
    size_t n = 0;
    for (const cJSON* c = node->child; c; c = c->next) n++;
    return n;
}

bool sw__json_is_object(const cJSON* node) { return cJSON_IsObject(node); }
bool sw__json_is_array(const cJSON* node) { return cJSON_IsArray(node); }
bool sw__json_is_null(const cJSON* node) { return cJSON_IsNull(node); }
bool sw__json_is_bool(const cJSON* node) { return cJSON_IsBool(node); }
const char* sw__json_text(const cJSON* node) { return cJSON_IsString(node) ? node->valuestring : NULL; }
bool sw__json_equals(const cJSON* node, double value) { return cJSON_IsNumber(node) && node->valuedouble == value; }

int sw__json_find_name(const char* s, const char* const* names, int count) {
    for (int i = 0; i < count; i++)
        if (strcmp(names[i], s) == 0) return i;
    return -1;
}

sw__json_each sw__json_each_of(const sw__json* J, const cJSON* container) {
    sw__json_each it;
    memset(&it, 0, sizeof it);
    it.mark = J->path_length;
    it.members = cJSON_IsObject(container);
    it.next_value = cJSON_IsObject(container) || cJSON_IsArray(container) ? container->child : NULL;
    it.key = "";
    return it;
}

bool sw__json_next(sw__json* J, sw__json_each* it) {
    sw__json_pop(J, it->mark);
    if (it->value) it->index++;
    it->value = it->next_value;
    if (!it->value) return false;
    it->next_value = it->value->next;
    if (it->members) {
        it->key = it->value->string ? it->value->string : "";
        sw__json_push(J, it->key);
    } else {
        sw__json_push_index(J, it->index);
    }
    return true;
}

/* ---- typed getters: values -------------------------------------------------------------------------------------- */

sw_result sw__json_expect_object(sw__json* J, const cJSON* value) {
    return cJSON_IsObject(value) ? SW_OK : sw__json_fail(J, NULL, "expected an object");
}

sw_result sw__json_bool_value(sw__json* J, const cJSON* value, bool* out) {
    if (!cJSON_IsBool(value)) return sw__json_fail(J, NULL, "expected true or false");
    *out = cJSON_IsTrue(value);
    return SW_OK;
}

/* cJSON reads a number beyond the largest double (1e400) as ±infinity:
   that is said as what it is, not as "expected a number". */
#define SW__JSON_BEYOND_DOUBLE "the number is out of range (beyond ±1.8e308, the largest a double holds)"

sw_result sw__json_float_value(sw__json* J, const cJSON* value, float* out) {
    if (!cJSON_IsNumber(value)) return sw__json_fail(J, NULL, "expected a number");
    double d = value->valuedouble;
    if (isinf(d)) return sw__json_fail(J, NULL, SW__JSON_BEYOND_DOUBLE);
    if (!isfinite(d) || fabs(d) > SW__JSON_FLOAT_MAX) return sw__json_fail(J, NULL, "not a finite float");
    *out = (float)d;
    return SW_OK;
}

/* A whole number within ±SW__JSON_INTEGER_MAX; else `expected` names what
   was wanted (past the largest double: out of range). */
static sw_result sw__json_whole(sw__json* J, const cJSON* value, const char* expected, int64_t* out) {
    if (!cJSON_IsNumber(value)) return sw__json_fail(J, NULL, "%s", expected);
    double d = value->valuedouble;
    if (isinf(d)) return sw__json_fail(J, NULL, SW__JSON_BEYOND_DOUBLE);
    if (!isfinite(d) || d != floor(d) || fabs(d) > SW__JSON_INTEGER_MAX) return sw__json_fail(J, NULL, "%s", expected);
    *out = (int64_t)d;
    return SW_OK;
}

sw_result sw__json_integer_value(sw__json* J, const cJSON* value, int64_t* out) {
    return sw__json_whole(J, value, "expected an integer", out);
}

sw_result sw__json_index_value(sw__json* J, const cJSON* value, int64_t* out) {
    return sw__json_whole(J, value, "expected an integer index", out);
}

bool sw__json_clamp(sw__json* J, const char* key, float* v, float lo, float hi) {
    if (*v >= lo && *v <= hi) return true;
    float c = *v < lo ? lo : hi;
    bool kept = sw__json_warn(J, key, "%g is out of range [%g, %g]; clamped to %g", (double)*v, (double)lo, (double)hi,
                              (double)c);
    *v = c;
    return kept;
}

/* ---- typed getters: members ------------------------------------------------------------------------------------- */

/* The member, or NULL; absent and required: "missing". */
static sw_result sw__json_find(sw__json* J, const cJSON* object, const char* key, bool required, const cJSON** out) {
    *out = cJSON_GetObjectItemCaseSensitive(object, key);
    return !*out && required ? sw__json_fail(J, key, "missing") : SW_OK;
}

sw_result sw__json_object(sw__json* J, const cJSON* object, const char* key, bool required, const cJSON** out) {
    if (sw__json_find(J, object, key, required, out) != SW_OK) return SW_ERR_INVALID_DATA;
    return !*out || cJSON_IsObject(*out) ? SW_OK : sw__json_fail(J, key, "expected an object");
}

sw_result sw__json_array(sw__json* J, const cJSON* object, const char* key, bool required, const cJSON** out) {
    if (sw__json_find(J, object, key, required, out) != SW_OK) return SW_ERR_INVALID_DATA;
    return !*out || cJSON_IsArray(*out) ? SW_OK : sw__json_fail(J, key, "expected an array");
}

sw_result sw__json_string(sw__json* J, const cJSON* object, const char* key, bool required, const char** out) {
    const cJSON* v;
    *out = NULL;
    if (sw__json_find(J, object, key, required, &v) != SW_OK) return SW_ERR_INVALID_DATA;
    if (!v) return SW_OK;
    if (!cJSON_IsString(v) || !v->valuestring) return sw__json_fail(J, key, "expected a string");
    *out = v->valuestring;
    return SW_OK;
}

sw_result sw__json_bool(sw__json* J, const cJSON* object, const char* key, bool* out) {
    const cJSON* v = cJSON_GetObjectItemCaseSensitive(object, key);
    if (!v) return SW_OK;
    if (!cJSON_IsBool(v)) return sw__json_fail(J, key, "expected true or false");
    *out = cJSON_IsTrue(v);
    return SW_OK;
}

sw_result sw__json_float(sw__json* J, const cJSON* object, const char* key, bool required, float* out) {
    const cJSON* v;
    if (sw__json_find(J, object, key, required, &v) != SW_OK) return SW_ERR_INVALID_DATA;
    if (!v) return SW_OK;
    size_t mark = sw__json_push(J, key);
    sw_result r = sw__json_float_value(J, v, out);
    sw__json_pop(J, mark);
    return r;
}

sw_result sw__json_float_in(sw__json* J, const cJSON* object, const char* key, float lo, float hi, float* out) {
    if (!cJSON_GetObjectItemCaseSensitive(object, key)) return SW_OK;
    sw_result r = sw__json_float(J, object, key, false, out);
    if (r == SW_OK) sw__json_clamp(J, key, out, lo, hi);
    return r;
}

sw_result sw__json_floats(sw__json* J, const cJSON* object, const char* key, int n, bool required, float* out) {
    const cJSON* v;
    if (sw__json_find(J, object, key, required, &v) != SW_OK) return SW_ERR_INVALID_DATA;
    if (!v) return SW_OK;
    if (!cJSON_IsArray(v) || (int)sw__json_count(v) != n)
        return sw__json_fail(J, key, "expected an array of %d numbers", n);
    float f[4];
    sw_result r = SW_OK;
    size_t mark = sw__json_push(J, key);
    int i = 0;
    for (const cJSON* e = v->child; e && i < n && r == SW_OK; e = e->next, i++) {
        size_t item = sw__json_push_index(J, (size_t)i);
        r = sw__json_float_value(J, e, &f[i]);
        sw__json_pop(J, item);
    }
    sw__json_pop(J, mark);
    if (r == SW_OK) memcpy(out, f, (size_t)n * sizeof *f);
    return r;
}

sw_result sw__json_floats_in(sw__json* J, const cJSON* object, const char* key, int n, float lo, float hi,
                             float* out) {
    float f[4];
    if (!cJSON_GetObjectItemCaseSensitive(object, key)) return SW_OK;
    sw_result r = sw__json_floats(J, object, key, n, false, f);
    if (r != SW_OK) return r;
    size_t mark = sw__json_push(J, key);
    for (int i = 0; i < n; i++) {
        size_t item = sw__json_push_index(J, (size_t)i);
        sw__json_clamp(J, NULL, &f[i], lo, hi);
        sw__json_pop(J, item);
    }
    sw__json_pop(J, mark);
    memcpy(out, f, (size_t)n * sizeof *f);
    return SW_OK;
}

sw_result sw__json_xyz(sw__json* J, const cJSON* object, const char* key, float out[3]) {
    const cJSON* v = cJSON_GetObjectItemCaseSensitive(object, key);
    if (!v) return SW_OK;
    if (!cJSON_IsObject(v)) return sw__json_fail(J, key, "expected an object {x, y, z}");
    float xyz[3] = {0.0f, 0.0f, 0.0f};
    size_t mark = sw__json_push(J, key);
    sw_result r = SW_OK;
    if (sw__json_float(J, v, "x", false, &xyz[0]) != SW_OK || sw__json_float(J, v, "y", false, &xyz[1]) != SW_OK ||
        sw__json_float(J, v, "z", false, &xyz[2]) != SW_OK)
        r = SW_ERR_INVALID_DATA;
    sw__json_pop(J, mark);
    if (r == SW_OK) memcpy(out, xyz, sizeof xyz);
    return r;
}

/* A member through a value getter, with the path at it. */
static sw_result sw__json_whole_member(sw__json* J, const cJSON* object, const char* key, bool required, bool* present,
                                       int64_t* out, sw_result (*value_of)(sw__json*, const cJSON*, int64_t*)) {
    const cJSON* v;
    if (sw__json_find(J, object, key, required, &v) != SW_OK) return SW_ERR_INVALID_DATA;
    if (present) *present = v != NULL;
    if (!v) return SW_OK;
    size_t mark = sw__json_push(J, key);
    sw_result r = value_of(J, v, out);
    sw__json_pop(J, mark);
    return r;
}

sw_result sw__json_integer(sw__json* J, const cJSON* object, const char* key, bool required, bool* present,
                           int64_t* out) {
    return sw__json_whole_member(J, object, key, required, present, out, sw__json_integer_value);
}

sw_result sw__json_index(sw__json* J, const cJSON* object, const char* key, bool required, bool* present,
                         int64_t* out) {
    return sw__json_whole_member(J, object, key, required, present, out, sw__json_index_value);
}

sw_result sw__json_index_below(sw__json* J, const cJSON* object, const char* key, size_t limit, const char* what,
                               uint32_t* out) {
    const cJSON* v;
    if (sw__json_find(J, object, key, true, &v) != SW_OK) return SW_ERR_INVALID_DATA;
    double d = cJSON_IsNumber(v) ? v->valuedouble : -1.5;
    if (isinf(d)) return sw__json_fail(J, key, SW__JSON_BEYOND_DOUBLE);
    if (!cJSON_IsNumber(v) || !isfinite(d) || d != floor(d)) return sw__json_fail(J, key, "expected an integer index");
    if (d < 0 || d >= (double)limit)
        return sw__json_fail(J, key, "%.0f is out of range (the model has %zu %s)", d, limit, what);
    *out = (uint32_t)d;
    return SW_OK;
}

sw_result sw__json_enum(sw__json* J, const cJSON* object, const char* key, const char* const* names, int count,
                        int* out) {
    const char* s;
    if (sw__json_string(J, object, key, false, &s) != SW_OK) return SW_ERR_INVALID_DATA;
    if (!s) return SW_OK;
    int found = sw__json_find_name(s, names, count);
    if (found >= 0) *out = found;
    else sw__json_warn(J, key, "unknown value \"%.47s\"; %s used", s, names[*out]);
    return SW_OK;
}
