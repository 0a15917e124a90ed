/* The JSON parser and printer behind web/cjson/cJSON.h: RFC 8259 text into
   cJSON's tree (children linked by next/prev, members keyed by `string`),
   and a tree back into compact text whose numbers read back to the same
   doubles. Only the WebAssembly build compiles it (web/CMakeLists.txt). */
#include "cjson/cJSON.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static cJSON_Hooks hooks = {malloc, free};

void cJSON_InitHooks(cJSON_Hooks* h) {
    hooks.malloc_fn = h && h->malloc_fn ? h->malloc_fn : malloc;
    hooks.free_fn = h && h->free_fn ? h->free_fn : free;
}

void cJSON_free(void* object) {
    if (object) hooks.free_fn(object);
}

void cJSON_Delete(cJSON* item) {
    while (item) {
        cJSON* next = item->next;
        cJSON_Delete(item->child);
        cJSON_free(item->valuestring);
        cJSON_free(item->string);
        hooks.free_fn(item);
        item = next;
    }
}

/* ---- parsing ------------------------------------------------------------------------------ */

typedef struct json_reader {
    const unsigned char* at;
    const unsigned char* end;
    int depth;
} json_reader;

static void skip_space(json_reader* r) {
    while (r->at < r->end && (*r->at == ' ' || *r->at == '\t' || *r->at == '\n' || *r->at == '\r')) r->at++;
}

static cJSON* new_item(void) {
    cJSON* item = hooks.malloc_fn(sizeof *item);
    if (item) memset(item, 0, sizeof *item);
    return item;
}

static int hex4(const unsigned char* p, unsigned* out) {
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        unsigned char c = p[i];
        v <<= 4;
        if (c >= '0' && c <= '9') v |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f') v |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F') v |= (unsigned)(c - 'A' + 10);
        else return 0;
    }
    *out = v;
    return 1;
}

/* A string at r->at (the opening quote) into new memory; NULL on bad text
   or no memory. \uXXXX escapes become UTF-8 (surrogate pairs joined). */
static char* parse_string(json_reader* r) {
    const unsigned char* p = r->at + 1;
    size_t bytes = 0;
    for (const unsigned char* q = p;; q++) { /* an upper bound of the decoded size */
        if (q >= r->end) return NULL;
        if (*q == '"') break;
        if (*q == '\\') {
            if (++q >= r->end) return NULL;
        }
        bytes++;
    }
    char* out = hooks.malloc_fn(bytes * 2 + 1);
    if (!out) return NULL;
    size_t n = 0;
    while (p < r->end && *p != '"') {
        if (*p < 0x20) goto bad;
        if (*p != '\\') {
            out[n++] = (char)*p++;
            continue;
        }
        p++;
        unsigned code = 0;
        switch (*p) {
        case '"': case '\\': case '/': out[n++] = (char)*p; p++; continue;
        case 'b': out[n++] = '\b'; p++; continue;
        case 'f': out[n++] = '\f'; p++; continue;
        case 'n': out[n++] = '\n'; p++; continue;
        case 'r': out[n++] = '\r'; p++; continue;
        case 't': out[n++] = '\t'; p++; continue;
        case 'u': break;
        default: goto bad;
        }
        if (r->end - p < 5 || !hex4(p + 1, &code)) goto bad;
        p += 5;
        if (code >= 0xDC00 && code <= 0xDFFF) goto bad;
        if (code >= 0xD800 && code <= 0xDBFF) {
            unsigned low;
            if (r->end - p < 6 || p[0] != '\\' || p[1] != 'u' || !hex4(p + 2, &low) || low < 0xDC00 || low > 0xDFFF)
                goto bad;
            p += 6;
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
        }
        if (code < 0x80) out[n++] = (char)code;
        else if (code < 0x800) {
            out[n++] = (char)(0xC0 | (code >> 6));
            out[n++] = (char)(0x80 | (code & 0x3F));
        } else if (code < 0x10000) {
            out[n++] = (char)(0xE0 | (code >> 12));
            out[n++] = (char)(0x80 | ((code >> 6) & 0x3F));
            out[n++] = (char)(0x80 | (code & 0x3F));
        } else {
            out[n++] = (char)(0xF0 | (code >> 18));
            out[n++] = (char)(0x80 | ((code >> 12) & 0x3F));
            out[n++] = (char)(0x80 | ((code >> 6) & 0x3F));
            out[n++] = (char)(0x80 | (code & 0x3F));
        }
    }
    if (p >= r->end) goto bad;
    out[n] = '\0';
    r->at = p + 1;
    return out;
bad:
    r->at = p;
    hooks.free_fn(out);
    return NULL;
}

static int parse_number(json_reader* r, cJSON* item) {
    const unsigned char* p = r->at;
    char text[64];
    size_t n = 0;
    if (p < r->end && *p == '-') p++;
    if (p >= r->end || !(*p >= '0' && *p <= '9')) return 0;
    if (*p == '0') p++;
    else while (p < r->end && *p >= '0' && *p <= '9') p++;
    if (p < r->end && *p == '.') {
        p++;
        if (p >= r->end || !(*p >= '0' && *p <= '9')) return 0;
        while (p < r->end && *p >= '0' && *p <= '9') p++;
    }
    if (p < r->end && (*p == 'e' || *p == 'E')) {
        p++;
        if (p < r->end && (*p == '+' || *p == '-')) p++;
        if (p >= r->end || !(*p >= '0' && *p <= '9')) return 0;
        while (p < r->end && *p >= '0' && *p <= '9') p++;
    }
    n = (size_t)(p - r->at);
    char* heap = NULL;
    char* digits = text;
    if (n >= sizeof text) {
        if (!(heap = hooks.malloc_fn(n + 1))) return 0;
        digits = heap;
    }
    memcpy(digits, r->at, n);
    digits[n] = '\0';
    double v = strtod(digits, NULL);
    if (heap) hooks.free_fn(heap);
    item->type = cJSON_Number;
    item->valuedouble = v;
    item->valueint = v >= INT_MAX ? INT_MAX : v <= (double)INT_MIN ? INT_MIN : (int)v;
    r->at = p;
    return 1;
}

static int parse_value(json_reader* r, cJSON* item);

/* An array or object at r->at ('[' or '{'). */
static int parse_container(json_reader* r, cJSON* item, int object) {
    if (++r->depth > CJSON_NESTING_LIMIT) return 0;
    item->type = object ? cJSON_Object : cJSON_Array;
    r->at++;
    skip_space(r);
    if (r->at < r->end && *r->at == (object ? '}' : ']')) {
        r->at++;
        r->depth--;
        return 1;
    }
    cJSON* last = NULL;
    for (;;) {
        cJSON* child = new_item();
        if (!child) return 0;
        if (last) {
            last->next = child;
            child->prev = last;
        } else {
            item->child = child;
        }
        last = child;
        skip_space(r);
        if (object) {
            if (r->at >= r->end || *r->at != '"' || !(child->string = parse_string(r))) return 0;
            skip_space(r);
            if (r->at >= r->end || *r->at != ':') return 0;
            r->at++;
            skip_space(r);
        }
        if (!parse_value(r, child)) return 0;
        skip_space(r);
        if (r->at < r->end && *r->at == ',') {
            r->at++;
            continue;
        }
        if (r->at < r->end && *r->at == (object ? '}' : ']')) break;
        return 0;
    }
    item->child->prev = last; /* as cJSON: the first child's prev is the last */
    r->at++;
    r->depth--;
    return 1;
}

static int literal(json_reader* r, const char* word) {
    size_t n = strlen(word);
    if ((size_t)(r->end - r->at) < n || memcmp(r->at, word, n) != 0) return 0;
    r->at += n;
    return 1;
}

static int parse_value(json_reader* r, cJSON* item) {
    if (r->at >= r->end) return 0;
    switch (*r->at) {
    case '{': return parse_container(r, item, 1);
    case '[': return parse_container(r, item, 0);
    case '"':
        item->type = cJSON_String;
        return (item->valuestring = parse_string(r)) != NULL;
    case 't': item->type = cJSON_True; item->valueint = 1; return literal(r, "true");
    case 'f': item->type = cJSON_False; return literal(r, "false");
    case 'n': item->type = cJSON_NULL; return literal(r, "null");
    default: return parse_number(r, item);
    }
}

cJSON* cJSON_ParseWithLengthOpts(const char* value, size_t length, const char** return_parse_end,
                                 cJSON_bool require_null_terminated) {
    if (return_parse_end) *return_parse_end = value;
    if (!value || !length) return NULL;
    json_reader r = {(const unsigned char*)value, (const unsigned char*)value + length, 0};
    if (length >= 3 && memcmp(value, "\xEF\xBB\xBF", 3) == 0) r.at += 3; /* a UTF-8 byte order mark */
    cJSON* root = new_item();
    if (!root) return NULL;
    skip_space(&r);
    int ok = parse_value(&r, root);
    if (ok) {
        skip_space(&r);
        if (require_null_terminated && (r.at >= r.end || *r.at != '\0')) ok = 0;
    }
    if (return_parse_end) *return_parse_end = (const char*)r.at;
    if (!ok) {
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}

cJSON* cJSON_Parse(const char* value) {
    return value ? cJSON_ParseWithLengthOpts(value, strlen(value) + 1, NULL, 0) : NULL;
}

/* ---- access ------------------------------------------------------------------------------- */

int cJSON_GetArraySize(const cJSON* array) {
    int n = 0;
    if (array)
        for (const cJSON* c = array->child; c; c = c->next) n++;
    return n;
}

cJSON* cJSON_GetArrayItem(const cJSON* array, int index) {
    if (!array || index < 0) return NULL;
    cJSON* c = array->child;
    while (c && index-- > 0) c = c->next;
    return c;
}

cJSON* cJSON_GetObjectItemCaseSensitive(const cJSON* object, const char* string) {
    if (!object || !string) return NULL;
    for (cJSON* c = object->child; c; c = c->next)
        if (c->string && strcmp(c->string, string) == 0) return c;
    return NULL;
}

static int same_ignoring_case(const char* a, const char* b) {
    for (; *a && *b; a++, b++) {
        int x = (*a >= 'A' && *a <= 'Z') ? *a + 32 : *a, y = (*b >= 'A' && *b <= 'Z') ? *b + 32 : *b;
        if (x != y) return 0;
    }
    return *a == *b;
}

cJSON* cJSON_GetObjectItem(const cJSON* object, const char* string) {
    if (!object || !string) return NULL;
    for (cJSON* c = object->child; c; c = c->next)
        if (c->string && same_ignoring_case(c->string, string)) return c;
    return NULL;
}

cJSON_bool cJSON_IsInvalid(const cJSON* item) { return item && (item->type & 0xFF) == cJSON_Invalid; }
cJSON_bool cJSON_IsFalse(const cJSON* item) { return item && (item->type & 0xFF) == cJSON_False; }
cJSON_bool cJSON_IsTrue(const cJSON* item) { return item && (item->type & 0xFF) == cJSON_True; }
cJSON_bool cJSON_IsBool(const cJSON* item) { return item && (item->type & (cJSON_True | cJSON_False)) != 0; }
cJSON_bool cJSON_IsNull(const cJSON* item) { return item && (item->type & 0xFF) == cJSON_NULL; }
cJSON_bool cJSON_IsNumber(const cJSON* item) { return item && (item->type & 0xFF) == cJSON_Number; }
cJSON_bool cJSON_IsString(const cJSON* item) { return item && (item->type & 0xFF) == cJSON_String; }
cJSON_bool cJSON_IsArray(const cJSON* item) { return item && (item->type & 0xFF) == cJSON_Array; }
cJSON_bool cJSON_IsObject(const cJSON* item) { return item && (item->type & 0xFF) == cJSON_Object; }

/* ---- printing ----------------------------------------------------------------------------- */

typedef struct json_writer {
    char* text;
    size_t used, capacity;
    int failed;
} json_writer;

static void put(json_writer* w, const char* s, size_t n) {
    if (w->failed) return;
    if (w->used + n + 1 > w->capacity) {
        size_t capacity = w->capacity ? w->capacity : 256;
        while (w->used + n + 1 > capacity) capacity *= 2;
        char* bigger = hooks.malloc_fn(capacity);
        if (!bigger) {
            w->failed = 1;
            return;
        }
        if (w->text) memcpy(bigger, w->text, w->used);
        hooks.free_fn(w->text);
        w->text = bigger;
        w->capacity = capacity;
    }
    memcpy(w->text + w->used, s, n);
    w->used += n;
    w->text[w->used] = '\0';
}

static void put_string(json_writer* w, const char* s) {
    put(w, "\"", 1);
    for (const unsigned char* p = (const unsigned char*)(s ? s : ""); *p; p++) {
        char esc[8];
        if (*p == '"' || *p == '\\') {
            esc[0] = '\\';
            esc[1] = (char)*p;
            put(w, esc, 2);
        } else if (*p < 0x20) {
            snprintf(esc, sizeof esc, "\\u%04x", *p);
            put(w, esc, 6);
        } else {
            put(w, (const char*)p, 1);
        }
    }
    put(w, "\"", 1);
}

static void put_value(json_writer* w, const cJSON* item) {
    char number[40];
    switch (item->type & 0xFF) {
    case cJSON_False: put(w, "false", 5); break;
    case cJSON_True: put(w, "true", 4); break;
    case cJSON_NULL: put(w, "null", 4); break;
    case cJSON_Number:
        if (!isfinite(item->valuedouble)) {
            put(w, "null", 4); /* as cJSON: JSON has no NaN or infinity */
            break;
        }
        snprintf(number, sizeof number, "%1.15g", item->valuedouble);
        if (strtod(number, NULL) != item->valuedouble) snprintf(number, sizeof number, "%1.17g", item->valuedouble);
        put(w, number, strlen(number));
        break;
    case cJSON_String: put_string(w, item->valuestring); break;
    case cJSON_Array:
    case cJSON_Object: {
        int object = (item->type & 0xFF) == cJSON_Object;
        put(w, object ? "{" : "[", 1);
        for (const cJSON* c = item->child; c; c = c->next) {
            if (object) {
                put_string(w, c->string);
                put(w, ":", 1);
            }
            put_value(w, c);
            if (c->next) put(w, ",", 1);
        }
        put(w, object ? "}" : "]", 1);
        break;
    }
    default: w->failed = 1;
    }
}

char* cJSON_PrintUnformatted(const cJSON* item) {
    if (!item) return NULL;
    json_writer w = {0};
    put_value(&w, item);
    if (w.failed) {
        hooks.free_fn(w.text);
        return NULL;
    }
    return w.text;
}
