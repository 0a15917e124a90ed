/* Hostile glTF input: declared counts and sizes far beyond the bytes behind
   them, nesting and hierarchies deeper than any recursion could take, and
   the memory ceiling (options.max_memory) hit at every allocation the
   loader makes. Each must end in an error code and a message, never a
   crash, a huge allocation or a leak (the ASan build checks the last). */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_check.h"
#include "harness.h"
#include "sinew/gltf.h"

/* ---- helpers -------------------------------------------------------------------- */

static char* format(const char* fmt, ...) {
    va_list args;
    va_start(args, fmt);
    int n = vsnprintf(NULL, 0, fmt, args);
    va_end(args);
    char* s = malloc((size_t)n + 1);
    va_start(args, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, args);
    va_end(args);
    return s;
}

static sw_result load(const char* json, const sw_gltf_options* options, sw_diag* diag) {
    sw_model* a = NULL;
    sw_result r = sw_gltf_load_memory(json, strlen(json), "hostile.gltf", NULL, options, &a, diag);
    fuzz_check_result(r, a, diag, "hostile.gltf");
    sw_model_free(a);
    return r;
}

/* Loading must fail with `code` and a message containing `text`. */
static void expect(const char* json, const sw_gltf_options* options, sw_result code, const char* text) {
    sw_diag d;
    sw_result r = load(json, options, &d);
    if (r != code || !strstr(d.message, text))
        fprintf(stderr, "  expected %s '%s', got %s '%s'\n", sw_result_str(code), text, sw_result_str(r), d.message);
    SW_CHECK_EQ_INT(r, code);
    SW_CHECK(strstr(d.message, text) != NULL);
}

/* 12 zero bytes: one VEC3 of floats. */
static const char* const tiny_buffer =
    "\"buffers\":[{\"byteLength\":12,\"uri\":\"data:application/octet-stream;base64,AAAAAAAAAAAAAAAA\"}],"
    "\"bufferViews\":[{\"buffer\":0,\"byteLength\":12}]";

/* A document with the tiny buffer, one accessor and a mesh using it as POSITION. */
static char* with_position(const char* accessor) {
    return format("{\"asset\":{\"version\":\"2.0\"},%s,\"accessors\":[%s],"
                  "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0}}]}]}",
                  tiny_buffer, accessor);
}

/* ---- declared counts and sizes ------------------------------------------------------ */

static void test_huge_counts(void) {
    static const char* const counts[] = {"2147483648", "4294967296", "9007199254740992"};
    for (int i = 0; i < 3; i++) {
        /* on a 12-byte bufferView: refused before anything is allocated */
        char* acc = format("{\"bufferView\":0,\"componentType\":5126,\"count\":%s,\"type\":\"VEC3\"}", counts[i]);
        char* json = with_position(acc);
        expect(json, NULL, SW_ERR_INVALID_DATA, "accessors[0]: ");
        expect(json, NULL, SW_ERR_INVALID_DATA, "do not fit in the 12 bytes of the bufferView");
        free(json);
        free(acc);
        /* the same with the largest byteStride: the span must not overflow */
        acc = format("{\"bufferView\":0,\"componentType\":5126,\"count\":%s,\"type\":\"VEC3\"}", counts[i]);
        json = format("{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":12,\"uri\":"
                      "\"data:application/octet-stream;base64,AAAAAAAAAAAAAAAA\"}],"
                      "\"bufferViews\":[{\"buffer\":0,\"byteLength\":12,\"byteStride\":252}],\"accessors\":[%s]}",
                      acc);
        expect(json, NULL, SW_ERR_INVALID_DATA, "do not fit");
        free(json);
        free(acc);
        /* no bufferView: all zeros, legal, but nothing in the file backs the count */
        acc = format("{\"componentType\":5126,\"count\":%s,\"type\":\"VEC3\"}", counts[i]);
        json = with_position(acc);
        expect(json, NULL, SW_ERR_UNSUPPORTED,
               "but no attribute of that count has a bufferView, and their sparse values back at most 3");
        free(json);
        free(acc);
    }
    /* beyond 2^53 a JSON number is no longer an exact integer */
    char* json = with_position("{\"bufferView\":0,\"componentType\":5126,\"count\":1e300,\"type\":\"VEC3\"}");
    /* the message keeps its explanation (it used to print 1e300 as 301 digits and be cut off) */
    expect(json, NULL, SW_ERR_INVALID_DATA,
           "accessors[0].count: 1.0000000000000001e+300 is larger than the largest allowed value (9007199254740992)");
    free(json);
    json = with_position("{\"bufferView\":0,\"componentType\":5126,\"count\":-1e300,\"type\":\"VEC3\"}");
    expect(json, NULL, SW_ERR_INVALID_DATA, "accessors[0].count: expected an integer >= 0, got -1.0000000000000001e+300");
    free(json);
    json = with_position("{\"bufferView\":1e300,\"componentType\":5126,\"count\":1,\"type\":\"VEC3\"}");
    expect(json, NULL, SW_ERR_INDEX_OUT_OF_RANGE,
           "accessors[0].bufferView: 1.0000000000000001e+300 is out of range (1 bufferViews)");
    free(json);
    json = with_position("{\"bufferView\":0,\"componentType\":5126,\"count\":-1,\"type\":\"VEC3\"}");
    expect(json, NULL, SW_ERR_INVALID_DATA, "accessors[0].count: expected an integer >= 0");
    free(json);
    /* an unused accessor of 2^31 zeros costs nothing: it is never decoded */
    json = format("{\"asset\":{\"version\":\"2.0\"},\"accessors\":[{\"componentType\":5126,\"count\":2147483648,"
                  "\"type\":\"MAT4\"}]}");
    sw_diag d;
    SW_CHECK_EQ_INT(load(json, NULL, &d), SW_OK);
    free(json);
}

static void test_huge_buffers(void) {
    /* byteLength 2^40 over 12 bytes of data */
    char* json = format("{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":1099511627776,\"uri\":"
                        "\"data:application/octet-stream;base64,AAAAAAAAAAAAAAAA\"}]}");
    expect(json, NULL, SW_ERR_INVALID_DATA,
           "buffers[0].byteLength: 1099511627776 bytes, but its data: URI holds only 12");
    free(json);
    json = format("{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":1e20,\"uri\":\"data:,x\"}]}");
    expect(json, NULL, SW_ERR_INVALID_DATA, "buffers[0].byteLength: ");
    free(json);
    /* a GLB whose BIN chunk has 4 bytes */
    const char* doc = "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":1099511627776}]}";
    size_t json_size = (strlen(doc) + 3) & ~(size_t)3, size = 12 + 8 + json_size + 8 + 4;
    uint8_t* glb = calloc(1, size);
    memcpy(glb, "glTF", 4);
    glb[4] = 2;
    for (int i = 0; i < 4; i++) {
        glb[8 + i] = (uint8_t)(size >> (8 * i));
        glb[12 + i] = (uint8_t)(json_size >> (8 * i));
    }
    memcpy(glb + 16, "JSON", 4);
    memset(glb + 20, ' ', json_size);
    memcpy(glb + 20, doc, strlen(doc));
    glb[20 + json_size] = 4;
    memcpy(glb + 24 + json_size, "BIN", 4);
    sw_model* a = NULL;
    sw_diag d;
    SW_CHECK_EQ_INT(sw_gltf_load_memory(glb, size, "hostile.glb", NULL, NULL, &a, &d), SW_ERR_INVALID_DATA);
    SW_CHECK(strstr(d.message, "hostile.glb: buffers[0].byteLength: 1099511627776 bytes, but the GLB BIN chunk "
                               "holds only 4") != NULL);
    /* chunk lengths near 2^32 */
    for (int i = 0; i < 4; i++) glb[20 + json_size + i] = 0xff;
    SW_CHECK_EQ_INT(sw_gltf_load_memory(glb, size, "hostile.glb", NULL, NULL, &a, &d), SW_ERR_INVALID_DATA);
    SW_CHECK(strstr(d.message, "runs past the end") != NULL);
    for (int i = 0; i < 4; i++) glb[12 + i] = 0xff;
    SW_CHECK_EQ_INT(sw_gltf_load_memory(glb, size, "hostile.glb", NULL, NULL, &a, &d), SW_ERR_INVALID_DATA);
    SW_CHECK(strstr(d.message, "the JSON chunk (4294967295 bytes) runs past the end") != NULL);
    free(glb);
    /* a bufferView far past its buffer */
    json = format("{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":12,\"uri\":"
                  "\"data:application/octet-stream;base64,AAAAAAAAAAAAAAAA\"}],"
                  "\"bufferViews\":[{\"buffer\":0,\"byteOffset\":9007199254740992,\"byteLength\":9007199254740992}]}");
    expect(json, NULL, SW_ERR_INVALID_DATA, "bufferViews[0]: byteOffset 9007199254740992 + byteLength");
    free(json);
}

static void test_huge_sparse(void) {
    const char* sparse_views =
        "\"buffers\":[{\"byteLength\":16,\"uri\":\"data:application/octet-stream;base64,AQAAAAAAAAAAAAAAAAAAAA==\"}],"
        "\"bufferViews\":[{\"buffer\":0,\"byteLength\":4},{\"buffer\":0,\"byteOffset\":4,\"byteLength\":12}]";
    /* more sparse elements than elements */
    char* json = format("{\"asset\":{\"version\":\"2.0\"},%s,\"accessors\":[{\"componentType\":5126,\"count\":4,"
                        "\"type\":\"VEC3\",\"sparse\":{\"count\":2147483648,\"indices\":{\"bufferView\":0,"
                        "\"componentType\":5125},\"values\":{\"bufferView\":1}}}]}",
                        sparse_views);
    expect(json, NULL, SW_ERR_INVALID_DATA, "accessors[0]: sparse.count 2147483648 exceeds count 4");
    free(json);
    /* 2^31 sparse elements over 2^31 zeros: the indices are not there */
    json = format("{\"asset\":{\"version\":\"2.0\"},%s,\"accessors\":[{\"componentType\":5126,\"count\":2147483648,"
                  "\"type\":\"VEC3\",\"sparse\":{\"count\":2147483648,\"indices\":{\"bufferView\":0,"
                  "\"componentType\":5125},\"values\":{\"bufferView\":1}}}]}",
                  sparse_views);
    expect(json, NULL, SW_ERR_INVALID_DATA, "sparse.indices: 2147483648 indices of 4 bytes do not fit");
    free(json);
    /* the largest exact count, with indices past the end of their view */
    json = format("{\"asset\":{\"version\":\"2.0\"},%s,\"accessors\":[{\"componentType\":5126,"
                  "\"count\":9007199254740992,\"type\":\"VEC3\",\"sparse\":{\"count\":9007199254740992,"
                  "\"indices\":{\"bufferView\":0,\"byteOffset\":4,\"componentType\":5125},"
                  "\"values\":{\"bufferView\":1}}}]}",
                  sparse_views);
    expect(json, NULL, SW_ERR_INVALID_DATA, "do not fit");
    free(json);
    /* one valid sparse element in 2^31 zeros, used as POSITION: it backs 6 vertices, not 2^31 */
    json = format("{\"asset\":{\"version\":\"2.0\"},%s,\"accessors\":[{\"componentType\":5126,\"count\":2147483648,"
                  "\"type\":\"VEC3\",\"sparse\":{\"count\":1,\"indices\":{\"bufferView\":0,"
                  "\"componentType\":5125},\"values\":{\"bufferView\":1}}}],"
                  "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0}}]}]}",
                  sparse_views);
    expect(json, NULL, SW_ERR_UNSUPPORTED,
           "accessors[0]: 2147483648 vertices (25769803776 bytes decoded), but no attribute of that count has a "
           "bufferView, and their sparse values back at most 6 of them");
    free(json);
}

/* The file's strings are quoted in messages and warnings: control
   characters in them must not break the one line (or reach a terminal as
   escapes). They used to be copied as they were. */
static void test_control_characters(void) {
    expect("{\"asset\":{\"version\":\"2\\n\\u001b[31m.0\"}}", NULL, SW_ERR_INVALID_DATA,
           "hostile.gltf: asset.version: '2??[31m.0' is not <major>.<minor>");
    char* json = format("{\"asset\":{\"version\":\"2.0\"},%s,\"accessors\":[{\"bufferView\":0,"
                        "\"componentType\":5126,\"count\":1,\"type\":\"VEC3\"}],\"meshes\":[{\"primitives\":"
                        "[{\"attributes\":{\"POSITION\":0,\"X\\r\\nY\\u007f\":0}}]}]}",
                        tiny_buffer);
    sw_model* a = NULL;
    sw_diag d;
    SW_CHECK_EQ_INT(sw_gltf_load_memory(json, strlen(json), "hostile.gltf", NULL, NULL, &a, &d), SW_OK);
    if (a) {
        bool found = false;
        for (size_t i = 0; i < a->warning_count; i++) {
            SW_CHECK(!strchr(a->warnings[i], '\n') && !strchr(a->warnings[i], '\r'));
            found = found || strcmp(a->warnings[i],
                                    "hostile.gltf: meshes[0].primitives[0].attributes.X??Y?: attribute ignored") == 0;
        }
        SW_CHECK(found);
        sw_model_free(a);
    }
    free(json);
}

/* ---- depth -------------------------------------------------------------------------------- */

static void test_deep_json(void) {
    enum { DEPTH = 100000 };
    /* arrays and objects nested 100 000 deep: refused before cJSON runs, with a
       message of its own (cJSON only says where it stopped) */
    const char* opens[] = {"[", "{\"a\":"};
    const char* closes[] = {"]", "}"};
    for (int kind = 0; kind < 2; kind++) {
        size_t open = strlen(opens[kind]);
        const char* head = "{\"asset\":{\"version\":\"2.0\"},\"extras\":";
        char* json = malloc(strlen(head) + (size_t)DEPTH * (open + 1) + 8);
        size_t at = (size_t)sprintf(json, "%s", head);
        for (int i = 0; i < DEPTH; i++) at += (size_t)sprintf(json + at, "%s", opens[kind]);
        at += (size_t)sprintf(json + at, "0");
        for (int i = 0; i < DEPTH; i++) at += (size_t)sprintf(json + at, "%s", closes[kind]);
        sprintf(json + at, "}");
        expect(json, NULL, SW_ERR_INVALID_DATA, "hostile.gltf: JSON nested deeper than 1000 levels (at byte ");
        free(json);
    }
    /* the limit is cJSON's: the root object and 999 arrays in it load, one more does not */
    for (int extra = 0; extra < 2; extra++) {
        int arrays = 999 + extra;
        char* json = malloc(64 + 2 * (size_t)arrays);
        size_t at = (size_t)sprintf(json, "{\"asset\":{\"version\":\"2.0\"},\"extras\":");
        for (int i = 0; i < arrays; i++) json[at++] = '[';
        for (int i = 0; i < arrays; i++) json[at++] = ']';
        sprintf(json + at, "}");
        sw_diag d;
        sw_result r = load(json, NULL, &d);
        SW_CHECK_EQ_INT(r, extra ? SW_ERR_INVALID_DATA : SW_OK);
        if (extra) SW_CHECK(strstr(d.message, "JSON nested deeper than 1000 levels (at byte 1035)") != NULL);
        free(json);
    }
    /* brackets inside strings are not nesting */
    {
        enum { N = 5000 };
        char* json = malloc(64 + N);
        size_t at = (size_t)sprintf(json, "{\"asset\":{\"version\":\"2.0\"},\"extras\":\"");
        for (int i = 0; i < N; i++) json[at++] = i % 2 ? '{' : '[';
        sprintf(json + at, "\\\"\"}");
        sw_diag d;
        SW_CHECK_EQ_INT(load(json, NULL, &d), SW_OK);
        free(json);
    }
    /* just under the limit, the document loads */
    enum { SHALLOW = 900 };
    char* json = malloc(64 + 2 * SHALLOW);
    size_t at = (size_t)sprintf(json, "{\"asset\":{\"version\":\"2.0\"},\"extras\":");
    for (int i = 0; i < SHALLOW; i++) json[at++] = '[';
    for (int i = 0; i < SHALLOW; i++) json[at++] = ']';
    sprintf(json + at, "}");
    sw_diag d;
    SW_CHECK_EQ_INT(load(json, NULL, &d), SW_OK);
    free(json);
}

/* 100 000 nodes in one cycle, and a chain of 50 000 beside a cycle of
   50 000 that no root reaches: found without recursion. */
static void test_long_cycles(void) {
    enum { N = 100000 };
    char* json = malloc((size_t)N * 32 + 64);
    for (int variant = 0; variant < 2; variant++) {
        size_t at = (size_t)sprintf(json, "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[");
        for (int i = 0; i < N; i++)
            if (variant == 1 && i == N / 2 - 1) /* variant 1: a chain of N/2, then a cycle of N/2 */
                at += (size_t)sprintf(json + at, ",{}");
            else
                at += (size_t)sprintf(json + at, "%s{\"children\":[%d]}", i ? "," : "",
                                      variant == 0 ? (i + 1) % N : (i + 1 < N ? i + 1 : N / 2));
        sprintf(json + at, "]}");
        expect(json, NULL, SW_ERR_CYCLE, "the node hierarchy has a cycle through this node");
    }
    /* a node that is its own child */
    expect("{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{},{\"children\":[1]}]}", NULL, SW_ERR_CYCLE,
           "nodes[1]: the node hierarchy has a cycle");
    free(json);
}

/* ---- the memory ceiling --------------------------------------------------------------- */

/* A small max_memory refuses a big file, in memory and from disk, naming the limit. */
static void test_max_memory_big_file(void) {
    enum { SIZE = 3 << 20 };
    uint8_t* bin = calloc(1, SIZE);
    char* json = format("{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":%d}]}", SIZE);
    size_t json_size = (strlen(json) + 3) & ~(size_t)3, size = 28 + json_size + SIZE;
    uint8_t* glb = calloc(1, size);
    memcpy(glb, "glTF", 4);
    glb[4] = 2;
    for (int i = 0; i < 4; i++) {
        glb[8 + i] = (uint8_t)(size >> (8 * i));
        glb[12 + i] = (uint8_t)(json_size >> (8 * i));
        glb[20 + json_size + i] = (uint8_t)((size_t)SIZE >> (8 * i));
    }
    memcpy(glb + 16, "JSON", 4);
    memset(glb + 20, ' ', json_size);
    memcpy(glb + 20, json, strlen(json));
    memcpy(glb + 24 + json_size, "BIN", 4);

    sw_model* a = NULL;
    sw_diag d;
    sw_gltf_options small = {.max_memory = 1 << 20};
    SW_CHECK_EQ_INT(sw_gltf_load_memory(glb, size, "big.glb", NULL, &small, &a, &d), SW_ERR_OUT_OF_MEMORY);
    SW_CHECK(a == NULL);
    SW_CHECK(strncmp(d.message, "big.glb: needs more memory than options.max_memory allows (", 59) == 0);
    SW_CHECK(strstr(d.message, "limit 1048576)") != NULL);
    SW_CHECK_EQ_INT(sw_gltf_load_memory(glb, size, "big.glb", NULL, NULL, &a, &d), SW_OK);
    sw_model_free(a);

    /* from disk, the file itself is refused before it is read */
    char dir[] = "/tmp/sinew_hostile_XXXXXX";
    if (mkdtemp(dir)) {
        char path[64];
        snprintf(path, sizeof path, "%s/big.glb", dir);
        FILE* f = fopen(path, "wb");
        SW_CHECK(f != NULL);
        if (f) {
            fwrite(glb, 1, size, f);
            fclose(f);
            SW_CHECK_EQ_INT(sw_gltf_load_file(path, &small, &a, &d), SW_ERR_OUT_OF_MEMORY);
            char expected[128];
            snprintf(expected, sizeof expected, "big.glb: %zu bytes is more than the memory allowed (", size);
            if (!strstr(d.message, expected)) fprintf(stderr, "  message: %s\n", d.message);
            SW_CHECK(strstr(d.message, expected) != NULL && strstr(d.message, "left of max_memory)") != NULL);
            remove(path);
        }
        rmdir(dir);
    }
    free(glb);
    free(json);
    free(bin);
}

/* "… (U bytes in use, A more asked, limit M)" or "… N bytes is more than
   the memory allowed (L bytes left of max_memory)": the smallest ceiling
   that lets this allocation through. 0 if the message is neither. */
static size_t next_ceiling(const char* message, size_t ceiling) {
    const char* p = strstr(message, "max_memory allows (");
    size_t used, asked, file, left;
    if (p && sscanf(p, "max_memory allows (%zu bytes in use, %zu more asked", &used, &asked) == 2)
        return used + asked;
    p = strstr(message, " bytes is more than the memory allowed (");
    if (p) {
        while (p > message && p[-1] >= '0' && p[-1] <= '9') p--;
        if (sscanf(p, "%zu bytes is more than the memory allowed (%zu bytes left", &file, &left) == 2 && file > left)
            return ceiling + (file - left);
    }
    return 0;
}

/* Out-of-memory at every allocation: the loader is run with the ceiling
   just below each allocation in turn (read off the previous failure's
   message), so every failure path runs once, must clean up (ASan: no
   leaks) and say so; the ceiling that finally suffices gives an asset
   that keeps every promise. */
static void exhaust(const char* path, const sw_gltf_options* base, size_t* steps) {
    size_t ceiling = 1;
    for (int attempt = 0; attempt < 10000; attempt++) {
        sw_gltf_options options = *base;
        options.max_memory = ceiling;
        sw_model* a = NULL;
        sw_diag d;
        sw_result r = sw_gltf_load_file(path, &options, &a, &d);
        ++*steps;
        if (r == SW_OK) {
            fuzz_check_asset(a);
            sw_model_free(a);
            return;
        }
        size_t next = next_ceiling(d.message, ceiling);
        if (r != SW_ERR_OUT_OF_MEMORY || next <= ceiling) {
            fprintf(stderr, "  %s, max_memory %zu: %s: %s\n", path, ceiling, sw_result_str(r), d.message);
            SW_CHECK(!"an out-of-memory error that says how much was asked");
            return;
        }
        ceiling = next;
    }
    SW_CHECK(!"fewer than 10000 allocations");
}

static void test_max_memory_every_allocation(void) {
    static const char* const files[] = {
        "buffer_external.gltf", "clip_late_start.gltf", "container.glb", "interp_cubicspline.gltf",
        "matrix_vs_trs.gltf", "morph_node_weights.gltf", "morph_skin.gltf", "quantized.gltf",
        "rigid_animated.gltf", "rotation_unnormalized.gltf", "skin_joints_separate_branch.gltf",
        "skin_mesh_transform_ignored.gltf", "skin_no_ibm.gltf", "sparse.gltf", "weights_normalized.gltf"};
    size_t steps = 0;
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/gltf/%s", SW_TEST_DATA_DIR, files[i]);
        exhaust(path, &(sw_gltf_options){0}, &steps);
        exhaust(path, &(sw_gltf_options){.max_influences = 4}, &steps);
    }
    fprintf(stderr, "  %zu loads, each failing at the next allocation\n", steps);
}

int main(void) {
    SW_RUN(test_huge_counts);
    SW_RUN(test_huge_buffers);
    SW_RUN(test_huge_sparse);
    SW_RUN(test_control_characters);
    SW_RUN(test_deep_json);
    SW_RUN(test_long_cycles);
    SW_RUN(test_max_memory_big_file);
    SW_RUN(test_max_memory_every_allocation);
    return sw_test_finish();
}
