/* cJSON.h for the WebAssembly build — the part of cJSON's interface
   (Debian libcjson-dev, MIT) that sinew's importers use, over a small
   parser of this project's own (web/cjson_web.c). The native build links
   the real cJSON; Debian ships it only as a native library, so the
   browser build brings this one. Same names, same struct fields, same
   meaning for what sinew calls; nothing else of cJSON is here. */
#ifndef SINEW_WEB_CJSON_H
#define SINEW_WEB_CJSON_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef int cJSON_bool;

#define cJSON_Invalid (0)
#define cJSON_False (1 << 0)
#define cJSON_True (1 << 1)
#define cJSON_NULL (1 << 2)
#define cJSON_Number (1 << 3)
#define cJSON_String (1 << 4)
#define cJSON_Array (1 << 5)
#define cJSON_Object (1 << 6)
#define cJSON_Raw (1 << 7)

/* Deeper nesting than this is a parse error (as cJSON's default). */
#define CJSON_NESTING_LIMIT 1000

typedef struct cJSON {
    struct cJSON* next;
    struct cJSON* prev;
    struct cJSON* child;
    int type;
    char* valuestring;
    int valueint;
    double valuedouble;
    char* string; /* the member's key in an object */
} cJSON;

typedef struct cJSON_Hooks {
    void* (*malloc_fn)(size_t size);
    void (*free_fn)(void* pointer);
} cJSON_Hooks;

void cJSON_InitHooks(cJSON_Hooks* hooks);
cJSON* cJSON_ParseWithLengthOpts(const char* value, size_t buffer_length, const char** return_parse_end,
                                 cJSON_bool require_null_terminated);
cJSON* cJSON_Parse(const char* value);
void cJSON_Delete(cJSON* item);
char* cJSON_PrintUnformatted(const cJSON* item);
void cJSON_free(void* object);

int cJSON_GetArraySize(const cJSON* array);
cJSON* cJSON_GetArrayItem(const cJSON* array, int index);
cJSON* cJSON_GetObjectItemCaseSensitive(const cJSON* object, const char* string);
cJSON* cJSON_GetObjectItem(const cJSON* object, const char* string);

cJSON_bool cJSON_IsInvalid(const cJSON* item);
cJSON_bool cJSON_IsFalse(const cJSON* item);
cJSON_bool cJSON_IsTrue(const cJSON* item);
cJSON_bool cJSON_IsBool(const cJSON* item);
cJSON_bool cJSON_IsNull(const cJSON* item);
cJSON_bool cJSON_IsNumber(const cJSON* item);
cJSON_bool cJSON_IsString(const cJSON* item);
cJSON_bool cJSON_IsArray(const cJSON* item);
cJSON_bool cJSON_IsObject(const cJSON* item);

#define cJSON_ArrayForEach(element, array) \
    for (element = (array != NULL) ? (array)->child : NULL; element != NULL; element = element->next)

#ifdef __cplusplus
}
#endif

#endif
