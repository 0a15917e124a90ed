/* web/cjson_web.c, the browser build's JSON parser behind cJSON's
   interface, run natively (it parses dropped files in the page, so ASan
   sees it here): exact trees and texts for hand-written cases, every
   malformed case refused, every JSON file of tests/data printed and read
   back to the same text, and the allocation hooks balanced. */
#include "cjson/cJSON.h"

#include "../harness.h"

#include <dirent.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>

static long live_blocks;
static void* counting_malloc(size_t size) {
    live_blocks++;
    return malloc(size);
}
static void counting_free(void* p) {
    if (p) live_blocks--;
    free(p);
}

/* The whole text, its NUL included (cJSON's rule for require_null_terminated). */
static cJSON* parse(const char* text) {
    return cJSON_ParseWithLengthOpts(text, strlen(text) + 1, NULL, 1);
}

/* `text` parses and prints as `expected`. */
static void check_prints(const char* text, const char* expected) {
    cJSON* root = parse(text);
    SW_CHECK(root != NULL);
    if (!root) {
        fprintf(stderr, "  did not parse: %s\n", text);
        return;
    }
    char* printed = cJSON_PrintUnformatted(root);
    SW_CHECK(printed && strcmp(printed, expected) == 0);
    if (printed && strcmp(printed, expected) != 0) fprintf(stderr, "  %s\n  printed %s\n  expected %s\n", text, printed, expected);
    cJSON_free(printed);
    cJSON_Delete(root);
}

static void test_values(void) {
    check_prints("{\"a\":[1,2.5,-3e2,true,false,null],\"b\":{}}", "{\"a\":[1,2.5,-300,true,false,null],\"b\":{}}");
    check_prints("  [ 0.1 , 1e-300 , 1.7976931348623157e308 , -0 ]  ", "[0.1,1e-300,1.7976931348623157e+308,-0]");
    /* Escapes: quote, backslash, solidus, controls, BMP and a surrogate pair as UTF-8. */
    check_prints("\"q\\\"b\\\\s\\/t\\tn\\n\\u00e9\\ud83d\\ude00\"", "\"q\\\"b\\\\s/t\\u0009n\\u000a\xc3\xa9\xf0\x9f\x98\x80\"");
    check_prints("\xEF\xBB\xBF{\"bom\":1}", "{\"bom\":1}"); /* a UTF-8 byte order mark is skipped */
    check_prints("[]", "[]");
}

static void test_access(void) {
    cJSON* root = parse("{\"n\":[10,20,-300,123456789012],\"Key\":\"v\",\"Key\":\"second\"}");
    SW_CHECK(root && cJSON_IsObject(root));
    if (!root) return;
    const cJSON* n = cJSON_GetObjectItemCaseSensitive(root, "n");
    SW_CHECK(cJSON_IsArray(n) && cJSON_GetArraySize(n) == 4);
    SW_CHECK(cJSON_GetArrayItem(n, 2) && cJSON_GetArrayItem(n, 2)->valuedouble == -300.0);
    SW_CHECK(cJSON_GetArrayItem(n, 2)->valueint == -300);
    SW_CHECK(cJSON_GetArrayItem(n, 3)->valueint == INT_MAX); /* saturated, as cJSON */
    SW_CHECK(cJSON_GetArrayItem(n, 4) == NULL && cJSON_GetArrayItem(n, -1) == NULL);
    const cJSON* key = cJSON_GetObjectItemCaseSensitive(root, "Key");
    SW_CHECK(cJSON_IsString(key) && strcmp(key->valuestring, "v") == 0); /* the first of duplicates */
    SW_CHECK(cJSON_GetObjectItemCaseSensitive(root, "key") == NULL);
    SW_CHECK(cJSON_GetObjectItem(root, "KEY") == key);
    int count = 0;
    const cJSON* item;
    cJSON_ArrayForEach(item, n) count++;
    SW_CHECK(count == 4);
    SW_CHECK(n->child->prev == cJSON_GetArrayItem(n, 3)); /* cJSON's list: the first's prev is the last */
    SW_CHECK(!cJSON_IsNumber(NULL) && !cJSON_IsString(n) && !cJSON_IsBool(n));
    cJSON_Delete(root);
}

static void test_refused(void) {
    static const char* const bad[] = {
        "", " ", "{", "[1,]", "[,1]", "{\"a\" 1}", "{\"a\":}", "{a:1}", "tru", "nul", "-", "1e", "1.", ".5", "01x",
        "\"open", "\"bad \\x escape\"", "\"lone \\ud800 high\"", "\"lone \\udc00 low\"", "\"\\u12\"",
        "\"tab\tinside\"", "[1 2]", "{\"a\":1,}", "[\"a\"]]",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cJSON* root = parse(bad[i]);
        SW_CHECK(root == NULL);
        if (root) fprintf(stderr, "  accepted: %s\n", bad[i]);
        cJSON_Delete(root);
    }
    /* Nesting: 1000 levels parse, 1001 do not (cJSON's limit). */
    char deep[2 * 1001 + 1];
    for (int depth = 1000; depth <= 1001; depth++) {
        memset(deep, '[', (size_t)depth);
        memset(deep + depth, ']', (size_t)depth);
        deep[2 * depth] = '\0';
        cJSON* root = parse(deep);
        SW_CHECK((root != NULL) == (depth == 1000));
        cJSON_Delete(root);
    }
    /* Without require_null_terminated the parse stops after the value, end pointing there. */
    const char* end = NULL;
    const char* text = "{\"a\":1} trailing";
    cJSON* root = cJSON_ParseWithLengthOpts(text, strlen(text), &end, 0);
    SW_CHECK(root && end == text + 8);
    cJSON_Delete(root);
}

static char* read_all(const char* path, size_t* size) {
    FILE* f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char* data = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (data && fread(data, 1, (size_t)n, f) != (size_t)n) {
        free(data);
        data = NULL;
    }
    fclose(f);
    if (data) data[n] = '\0';
    *size = (size_t)n;
    return data;
}

static int files_read, files_round_tripped;

/* Every .gltf and .json under `dir`: parsed (if it is JSON), printed,
   read back and printed again to the same text. */
static void round_trip_folder(const char* dir) {
    DIR* d = opendir(dir);
    if (!d) return;
    for (struct dirent* e; (e = readdir(d));) {
        if (e->d_name[0] == '.') continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(path, &st) != 0) continue;
        if (S_ISDIR(st.st_mode)) {
            round_trip_folder(path);
            continue;
        }
        size_t n = strlen(e->d_name);
        if (!(n > 5 && strcmp(e->d_name + n - 5, ".gltf") == 0) && !(n > 5 && strcmp(e->d_name + n - 5, ".json") == 0))
            continue;
        size_t size;
        char* text = read_all(path, &size);
        if (!text) continue;
        files_read++;
        cJSON* root = cJSON_ParseWithLengthOpts(text, size, NULL, 0);
        if (root) {
            char* first = cJSON_PrintUnformatted(root);
            cJSON* again = first ? parse(first) : NULL;
            char* second = again ? cJSON_PrintUnformatted(again) : NULL;
            SW_CHECK(first && second && strcmp(first, second) == 0);
            if (!(first && second && strcmp(first, second) == 0)) fprintf(stderr, "  %s does not round-trip\n", path);
            else files_round_tripped++;
            cJSON_free(first);
            cJSON_free(second);
            cJSON_Delete(again);
            cJSON_Delete(root);
        }
        free(text);
    }
    closedir(d);
}

static void test_data_files(void) {
    round_trip_folder(SW_TEST_DATA_DIR);
    printf("  %d JSON files read, %d printed and read back to the same text\n", files_read, files_round_tripped);
    SW_CHECK(files_round_tripped >= 50);
}

int main(void) {
    cJSON_Hooks hooks = {counting_malloc, counting_free};
    cJSON_InitHooks(&hooks);
    SW_RUN(test_values);
    SW_RUN(test_access);
    SW_RUN(test_refused);
    SW_RUN(test_data_files);
    SW_CHECK(live_blocks == 0); /* every block through the hooks was given back */
    if (live_blocks) fprintf(stderr, "  %ld blocks not freed\n", live_blocks);
    return sw_test_finish();
}
