/* glTF loader on small documents written here: component types and
   normalised integers, byteStride, sparse accessors, data: URIs, GLB,
   external files and path rules, nodes, skins, influences, morph targets,
   animations, type strictness, truncation, memory limits, images.
   Expected values are worked out by hand in the comments. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "harness.h"
#include "sinew/gltf.h"
#include "sinew/import.h"

/* ---- helpers -------------------------------------------------------------- */

typedef struct bytes {
    uint8_t data[1024];
    size_t size;
} bytes;

/* Appends n bytes at an offset aligned to `align`; returns the offset. */
static size_t put(bytes* b, const void* p, size_t n, size_t align) {
    while (b->size % align) b->data[b->size++] = 0;
    size_t at = b->size;
    memcpy(b->data + at, p, n);
    b->size += n;
    return at;
}

static void base64(const uint8_t* in, size_t n, char* out) {
    static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t o = 0;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)in[i] << 16 | (i + 1 < n ? (uint32_t)in[i + 1] << 8 : 0) | (i + 2 < n ? in[i + 2] : 0);
        out[o++] = alphabet[v >> 18 & 63];
        out[o++] = alphabet[v >> 12 & 63];
        out[o++] = i + 1 < n ? alphabet[v >> 6 & 63] : '=';
        out[o++] = i + 2 < n ? alphabet[v & 63] : '=';
    }
    out[o] = '\0';
}

/* "data:application/octet-stream;base64,..." of a byte block. */
static const char* data_uri(const bytes* b) {
    static char uri[2048];
    strcpy(uri, "data:application/octet-stream;base64,");
    base64(b->data, b->size, uri + strlen(uri));
    return uri;
}

/* printf into a growing document. */
typedef struct doc {
    char text[16384];
    size_t size;
} doc;

static void add(doc* d, const char* format, ...) {
    va_list args;
    va_start(args, format);
    int n = vsnprintf(d->text + d->size, sizeof d->text - d->size, format, args);
    va_end(args);
    if (n > 0) d->size += (size_t)n;
    SW_CHECK(d->size < sizeof d->text);
}

static sw_result load(const char* json, const sw_gltf_options* options, sw_model** asset, sw_diag* diag) {
    return sw_gltf_load_memory(json, strlen(json), "test.gltf", NULL, options, asset, diag);
}

static bool has_warning(const sw_model* a, const char* text) {
    for (size_t i = 0; i < a->warning_count; i++)
        if (strstr(a->warnings[i], text)) return true;
    return false;
}

/* Loading must fail with `code` and a message containing each of the strings. */
static void expect_error(const char* json, sw_result code, const char* text1, const char* text2) {
    sw_model* a = (sw_model*)1;
    sw_diag d;
    sw_result r = load(json, NULL, &a, &d);
    SW_CHECK_EQ_INT(r, code);
    SW_CHECK(a == NULL);
    SW_CHECK_EQ_INT(d.result, code);
    if (text1 && !strstr(d.message, text1)) fprintf(stderr, "  message '%s' lacks '%s'\n", d.message, text1);
    if (text2 && !strstr(d.message, text2)) fprintf(stderr, "  message '%s' lacks '%s'\n", d.message, text2);
    SW_CHECK(!text1 || strstr(d.message, text1));
    SW_CHECK(!text2 || strstr(d.message, text2));
    SW_CHECK(strncmp(d.message, "test.gltf: ", 11) == 0);
    if (r == SW_OK) sw_model_free(a);
}

static const char* const header = "\"asset\":{\"version\":\"2.0\"}";

/* ---- component types and normalisation ------------------------------------------ */

typedef struct view_spec {
    size_t offset, length;
    int component;
    int count;
    const char* type;
    bool normalized;
} view_spec;

/* One bufferView + accessor per spec over `b`; mesh k has POSITION = accessor k. */
static void build_views(doc* d, const bytes* b, const view_spec* specs, int n) {
    add(d, "\"buffers\":[{\"byteLength\":%zu,\"uri\":\"%s\"}],\"bufferViews\":[", b->size, data_uri(b));
    for (int i = 0; i < n; i++)
        add(d, "%s{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu}", i ? "," : "", specs[i].offset,
            specs[i].length);
    add(d, "],\"accessors\":[");
    for (int i = 0; i < n; i++)
        add(d, "%s{\"bufferView\":%d,\"componentType\":%d,\"count\":%d,\"type\":\"%s\"%s}", i ? "," : "", i,
            specs[i].component, specs[i].count, specs[i].type, specs[i].normalized ? ",\"normalized\":true" : "");
    add(d, "]");
}

static void test_component_types(void) {
    bytes b = {0};
    const int8_t i8n[6] = {-128, -127, 0, 127, 64, -64};
    const uint8_t u8n[6] = {0, 128, 255, 255, 0, 1};
    const int16_t i16n[6] = {-32768, -32767, 16384, 32767, 0, -1};
    const uint16_t u16n[6] = {0, 32768, 65535, 1, 2, 3};
    const int8_t i8[6] = {-5, 7, 100, 0, 0, 0};
    const uint8_t u8[6] = {200, 1, 2, 3, 4, 5};
    const int16_t i16[6] = {-300, 300, 0, 1, 2, 3};
    const uint16_t u16[6] = {1000, 0, 65535, 4, 5, 6};
    const float f32[6] = {1.5f, -2.25f, 0.001f, 4, 5, 6};
    const uint8_t idx8[3] = {1, 0, 1};
    const uint16_t idx16[3] = {1, 0, 1};
    const uint32_t idx32[3] = {1, 0, 1};
    view_spec s[] = {
        {put(&b, i8n, 6, 4), 6, 5120, 2, "VEC3", true},    {put(&b, u8n, 6, 4), 6, 5121, 2, "VEC3", true},
        {put(&b, i16n, 12, 4), 12, 5122, 2, "VEC3", true}, {put(&b, u16n, 12, 4), 12, 5123, 2, "VEC3", true},
        {put(&b, i8, 6, 4), 6, 5120, 2, "VEC3", false},    {put(&b, u8, 6, 4), 6, 5121, 2, "VEC3", false},
        {put(&b, i16, 12, 4), 12, 5122, 2, "VEC3", false}, {put(&b, u16, 12, 4), 12, 5123, 2, "VEC3", false},
        {put(&b, f32, 24, 4), 24, 5126, 2, "VEC3", false}, {put(&b, idx8, 3, 4), 3, 5121, 3, "SCALAR", false},
        {put(&b, idx16, 6, 4), 6, 5123, 3, "SCALAR", false}, {put(&b, idx32, 12, 4), 12, 5125, 3, "SCALAR", false},
    };
    doc d = {0};
    add(&d, "{%s,\"extensionsUsed\":[\"KHR_mesh_quantization\"],", header);
    build_views(&d, &b, s, 12);
    add(&d, ",\"meshes\":[");
    for (int m = 0; m < 9; m++) {
        add(&d, "%s{\"primitives\":[{\"attributes\":{\"POSITION\":%d}", m ? "," : "", m);
        if (m < 3) add(&d, ",\"indices\":%d", 9 + m);
        add(&d, "}]}");
    }
    add(&d, "]}");

    sw_model* a;
    sw_diag diag;
    sw_result r = load(d.text, NULL, &a, &diag);
    SW_CHECK_EQ_INT(r, SW_OK);
    if (r != SW_OK) {
        fprintf(stderr, "  %s\n", diag.message);
        return;
    }
    SW_CHECK_EQ_INT(a->mesh_count, 9);
    const float* p[9];
    for (int m = 0; m < 9; m++) {
        p[m] = a->meshes[m].primitives[0].positions;
        SW_CHECK_EQ_INT(a->meshes[m].primitives[0].vertex_count, 2);
    }
    /* i8: max(c/127, -1) — so both -128 and -127 give -1 */
    SW_CHECK(p[0][0] == -1.0f && p[0][1] == -1.0f && p[0][2] == 0.0f && p[0][3] == 1.0f);
    SW_CHECK_NEAR(p[0][4], 64.0 / 127.0, 1e-7);
    SW_CHECK_NEAR(p[0][5], -64.0 / 127.0, 1e-7);
    /* u8: c/255 */
    SW_CHECK(p[1][0] == 0.0f && p[1][2] == 1.0f && p[1][3] == 1.0f);
    SW_CHECK_NEAR(p[1][1], 128.0 / 255.0, 1e-7);
    SW_CHECK_NEAR(p[1][5], 1.0 / 255.0, 1e-9);
    /* i16: max(c/32767, -1) */
    SW_CHECK(p[2][0] == -1.0f && p[2][1] == -1.0f && p[2][3] == 1.0f && p[2][4] == 0.0f);
    SW_CHECK_NEAR(p[2][2], 16384.0 / 32767.0, 1e-7);
    SW_CHECK_NEAR(p[2][5], -1.0 / 32767.0, 1e-10);
    /* u16: c/65535 */
    SW_CHECK(p[3][0] == 0.0f && p[3][2] == 1.0f);
    SW_CHECK_NEAR(p[3][1], 32768.0 / 65535.0, 1e-7);
    SW_CHECK_NEAR(p[3][5], 3.0 / 65535.0, 1e-10);
    /* not normalised: the integer values themselves */
    SW_CHECK(p[4][0] == -5.0f && p[4][1] == 7.0f && p[4][2] == 100.0f);
    SW_CHECK(p[5][0] == 200.0f && p[5][5] == 5.0f);
    SW_CHECK(p[6][0] == -300.0f && p[6][1] == 300.0f && p[6][5] == 3.0f);
    SW_CHECK(p[7][0] == 1000.0f && p[7][2] == 65535.0f);
    SW_CHECK(p[8][0] == 1.5f && p[8][1] == -2.25f && p[8][2] == 0.001f && p[8][5] == 6.0f);
    /* bounds of the float mesh: min (1.5, -2.25, 0.001), max (4, 5, 6) */
    SW_CHECK(a->meshes[8].primitives[0].bounds_min[1] == -2.25f && a->meshes[8].primitives[0].bounds_max[2] == 6.0f);
    for (int m = 0; m < 3; m++) {
        const sw_model_primitive* prim = &a->meshes[m].primitives[0];
        SW_CHECK_EQ_INT(prim->index_count, 3);
        SW_CHECK(prim->indices && prim->indices[0] == 1 && prim->indices[1] == 0 && prim->indices[2] == 1);
        SW_CHECK_EQ_INT(prim->mode, SW_MODEL_TRIANGLES);
    }
    SW_CHECK(!has_warning(a, "KHR_mesh_quantization"));
    sw_model_free(a);

    /* Without KHR_mesh_quantization declared, integer positions still load, with a warning. */
    char* undeclared = strstr(d.text, "\"extensionsUsed\":[\"KHR_mesh_quantization\"],");
    memset(undeclared, ' ', strlen("\"extensionsUsed\":[\"KHR_mesh_quantization\"],"));
    SW_CHECK_EQ_INT(load(d.text, NULL, &a, &diag), SW_OK);
    SW_CHECK(has_warning(a, "KHR_mesh_quantization"));
    sw_model_free(a);
}

/* Accessor extents, normalized on FLOAT, matrices with column padding. */
static void test_accessor_rules(void) {
    bytes b = {0};
    const float f[6] = {1, 2, 3, 4, 5, 6};
    put(&b, f, sizeof f, 4);
    doc d = {0};
    /* count 3 of VEC3 floats needs 36 bytes, the view has 24 */
    add(&d, "{%s,\"buffers\":[{\"byteLength\":24,\"uri\":\"%s\"}],", header, data_uri(&b));
    add(&d, "\"bufferViews\":[{\"buffer\":0,\"byteLength\":24}],");
    add(&d, "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"}]}");
    expect_error(d.text, SW_ERR_INVALID_DATA, "accessors[0]", "do not fit");

    d.size = 0;
    add(&d, "{%s,\"buffers\":[{\"byteLength\":24,\"uri\":\"%s\"}],", header, data_uri(&b));
    add(&d, "\"bufferViews\":[{\"buffer\":0,\"byteLength\":24}],");
    add(&d,
        "\"accessors\":[{\"bufferView\":0,\"byteOffset\":28,\"componentType\":5126,\"count\":1,\"type\":\"VEC3\"}]}");
    expect_error(d.text, SW_ERR_INVALID_DATA, "accessors[0].byteOffset", "past the end");

    d.size = 0;
    add(&d, "{%s,\"buffers\":[{\"byteLength\":24,\"uri\":\"%s\"}],", header, data_uri(&b));
    add(&d, "\"bufferViews\":[{\"buffer\":0,\"byteLength\":24}],");
    add(&d, "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"normalized\":true,\"count\":1,"
            "\"type\":\"VEC3\"}]}");
    expect_error(d.text, SW_ERR_INVALID_DATA, "accessors[0]", "normalized");

    /* bufferView longer than its buffer; buffer longer than its data */
    d.size = 0;
    add(&d, "{%s,\"buffers\":[{\"byteLength\":24,\"uri\":\"%s\"}],", header, data_uri(&b));
    add(&d, "\"bufferViews\":[{\"buffer\":0,\"byteOffset\":4,\"byteLength\":24}]}");
    expect_error(d.text, SW_ERR_INVALID_DATA, "bufferViews[0]", "runs past the end of buffers[0]");
    d.size = 0;
    add(&d, "{%s,\"buffers\":[{\"byteLength\":25,\"uri\":\"%s\"}]}", header, data_uri(&b));
    expect_error(d.text, SW_ERR_INVALID_DATA, "buffers[0].byteLength", "holds only 24");
    d.size = 0;
    add(&d, "{%s,\"accessors\":[{\"componentType\":5124,\"count\":1,\"type\":\"SCALAR\"}]}", header);
    expect_error(d.text, SW_ERR_INVALID_DATA, "accessors[0].componentType", "5124");
    d.size = 0;
    add(&d, "{%s,\"accessors\":[{\"componentType\":5126,\"count\":1,\"type\":\"VEC5\"}]}", header);
    expect_error(d.text, SW_ERR_INVALID_DATA, "accessors[0].type", "VEC5");
}

/* Interleaved positions and normals: byteStride 24, normals at byteOffset 12. */
static void test_byte_stride(void) {
    bytes b = {0};
    const float v[12] = {1, 2, 3, 0, 0, 1, /* vertex 0: position, normal */
                         4, 5, 6, 0, 1, 0};
    put(&b, v, sizeof v, 4);
    const char* views[] = {
        "{\"buffer\":0,\"byteLength\":48,\"byteStride\":24}", /* ok */
        "{\"buffer\":0,\"byteLength\":48,\"byteStride\":8}",  /* smaller than a VEC3 of floats */
        "{\"buffer\":0,\"byteLength\":48,\"byteStride\":26}", /* not a multiple of 4 */
        "{\"buffer\":0,\"byteLength\":48,\"byteStride\":256}",
    };
    for (int k = 0; k < 4; k++) {
        doc d = {0};
        add(&d, "{%s,\"buffers\":[{\"byteLength\":48,\"uri\":\"%s\"}],\"bufferViews\":[%s],", header, data_uri(&b),
            views[k]);
        add(&d, "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"},"
                "{\"bufferView\":0,\"byteOffset\":12,\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"}],");
        add(&d, "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"NORMAL\":1}}]}]}");
        if (k == 0) {
            sw_model* a;
            sw_diag diag;
            SW_CHECK_EQ_INT(load(d.text, NULL, &a, &diag), SW_OK);
            if (!a) continue;
            const sw_model_primitive* p = &a->meshes[0].primitives[0];
            SW_CHECK(p->positions[3] == 4.0f && p->positions[4] == 5.0f && p->positions[5] == 6.0f);
            SW_CHECK(p->normals[2] == 1.0f && p->normals[4] == 1.0f && p->normals[3] == 0.0f);
            /* byteStride 24: every value of both interleaved streams lands where it belongs */
            for (int i = 0; i < 2; i++)
                for (int c = 0; c < 3; c++) {
                    SW_CHECK(p->positions[i * 3 + c] == v[i * 6 + c]);
                    SW_CHECK(p->normals[i * 3 + c] == v[i * 6 + 3 + c]);
                }
            sw_model_free(a);
        } else {
            expect_error(d.text, SW_ERR_INVALID_DATA, "byteStride", NULL);
        }
    }
}

/* Sparse: elements 1 and 3 replaced; and an accessor of zeros (no bufferView) + sparse. */
static void test_sparse(void) {
    bytes b = {0};
    const float base[12] = {0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3};
    const uint16_t indices[2] = {1, 3};
    const float values[6] = {10, 11, 12, 30, 31, 32};
    size_t ob = put(&b, base, sizeof base, 4), oi = put(&b, indices, sizeof indices, 4),
           ov = put(&b, values, sizeof values, 4);
    doc d = {0};
    add(&d, "{%s,\"buffers\":[{\"byteLength\":%zu,\"uri\":\"%s\"}],", header, b.size, data_uri(&b));
    add(&d, "\"bufferViews\":[{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":48},"
            "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":4},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":24}],",
        ob, oi, ov);
    const char* sparse = "\"sparse\":{\"count\":2,\"indices\":{\"bufferView\":1,\"componentType\":5123},"
                         "\"values\":{\"bufferView\":2}}";
    add(&d, "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":4,\"type\":\"VEC3\",%s},", sparse);
    add(&d, "{\"componentType\":5126,\"count\":4,\"type\":\"VEC3\",%s}],", sparse);
    add(&d, "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"NORMAL\":1}}]}]}");
    sw_model* a;
    sw_diag diag;
    SW_CHECK_EQ_INT(load(d.text, NULL, &a, &diag), SW_OK);
    if (a) {
        const sw_model_primitive* p = &a->meshes[0].primitives[0];
        const float expect_p[12] = {0, 0, 0, 10, 11, 12, 2, 2, 2, 30, 31, 32};
        const float expect_n[12] = {0, 0, 0, 10, 11, 12, 0, 0, 0, 30, 31, 32};
        for (int i = 0; i < 12; i++) {
            SW_CHECK(p->positions[i] == expect_p[i]);
            SW_CHECK(p->normals[i] == expect_n[i]);
        }
        sw_model_free(a);
    }
    /* indices not increasing / out of range */
    char bad[16384];
    const uint16_t down[2] = {3, 1}, out[2] = {1, 4};
    for (int k = 0; k < 2; k++) {
        bytes b2 = b;
        memcpy(b2.data + oi, k == 0 ? down : out, 4);
        doc d2 = {0};
        add(&d2, "{%s,\"buffers\":[{\"byteLength\":%zu,\"uri\":\"%s\"}],", header, b2.size, data_uri(&b2));
        snprintf(bad, sizeof bad, "%s", strstr(d.text, "\"bufferViews\""));
        add(&d2, "%s", bad);
        expect_error(d2.text, k == 0 ? SW_ERR_INVALID_DATA : SW_ERR_INDEX_OUT_OF_RANGE, "accessors[0]",
                     k == 0 ? "strictly increasing" : "out of range");
    }
}

static void test_data_uri(void) {
    uint8_t out[16];
    size_t size = 99;
    sw_diag d;
    const char* uri = "data:application/octet-stream;base64,AAECAw==";
    SW_CHECK_EQ_INT(sw_gltf_decode_data_uri(uri, strlen(uri), NULL, 0, &size, &d), SW_OK);
    SW_CHECK_EQ_INT(size, 4);
    SW_CHECK_EQ_INT(sw_gltf_decode_data_uri(uri, strlen(uri), out, sizeof out, &size, &d), SW_OK);
    SW_CHECK(size == 4 && out[0] == 0 && out[1] == 1 && out[2] == 2 && out[3] == 3);
    SW_CHECK_EQ_INT(sw_gltf_decode_data_uri(uri, strlen(uri), out, 3, &size, &d), SW_ERR_BUFFER_TOO_SMALL);
    /* "TWFu" is "Man"; one pad: "TWE=" is "Ma" */
    uri = "data:;base64,TWFuTWE=";
    SW_CHECK_EQ_INT(sw_gltf_decode_data_uri(uri, strlen(uri), out, sizeof out, &size, &d), SW_OK);
    SW_CHECK(size == 5 && memcmp(out, "ManMa", 5) == 0);
    /* percent-encoded (not base64) */
    uri = "data:text/plain,A%20B";
    SW_CHECK_EQ_INT(sw_gltf_decode_data_uri(uri, strlen(uri), out, sizeof out, &size, &d), SW_OK);
    SW_CHECK(size == 3 && memcmp(out, "A B", 3) == 0);
    const char* bad[] = {
        "data:;base64,AAECA",     /* not a multiple of 4 */
        "data:;base64,AA=A",      /* '=' in the middle */
        "data:;base64,AA\nA",     /* whitespace */
        "data:;base64,A===",      /* three pads */
        "data:;base64,AA*A",      /* not in the alphabet */
        "data:application/octet-stream;base64", /* no comma */
        "http://x/y.bin",
        "data:,%4",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        SW_CHECK_EQ_INT(sw_gltf_decode_data_uri(bad[i], strlen(bad[i]), out, sizeof out, &size, &d),
                        SW_ERR_INVALID_DATA);
        SW_CHECK_EQ_INT(size, 0);
    }
}

/* GLB: header, JSON chunk padded with spaces, BIN chunk padded with zeros. */
static size_t make_glb(uint8_t* out, const char* json, const uint8_t* bin, size_t bin_size) {
    size_t json_size = strlen(json), json_padded = (json_size + 3) & ~(size_t)3;
    size_t bin_padded = (bin_size + 3) & ~(size_t)3;
    size_t total = 12 + 8 + json_padded + (bin ? 8 + bin_padded : 0);
    uint32_t h[5] = {0x46546C67u, 2, (uint32_t)total, (uint32_t)json_padded, 0x4E4F534Au};
    memcpy(out, h, sizeof h);
    memcpy(out + 20, json, json_size);
    memset(out + 20 + json_size, ' ', json_padded - json_size);
    if (bin) {
        uint32_t c[2] = {(uint32_t)bin_padded, 0x004E4942u};
        memcpy(out + 20 + json_padded, c, sizeof c);
        memcpy(out + 28 + json_padded, bin, bin_size);
        memset(out + 28 + json_padded + bin_size, 0, bin_padded - bin_size);
    }
    return total;
}

static const float triangle[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
static const char triangle_json[] =
    "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":36}],"
    "\"bufferViews\":[{\"buffer\":0,\"byteLength\":36}],"
    "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"}],"
    "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0}}]}],"
    "\"nodes\":[{\"mesh\":0}],\"scenes\":[{\"nodes\":[0]}]}";

static void test_glb(void) {
    uint8_t glb[1024];
    size_t size = make_glb(glb, triangle_json, (const uint8_t*)triangle, sizeof triangle);
    sw_model* a;
    sw_diag d;
    /* recognised by content: the name says .gltf */
    SW_CHECK_EQ_INT(sw_gltf_load_memory(glb, size, "triangle.gltf", NULL, NULL, &a, &d), SW_OK);
    if (a) {
        SW_CHECK_EQ_INT(a->meshes[0].primitives[0].vertex_count, 3);
        SW_CHECK(a->meshes[0].primitives[0].positions[3] == 1.0f && a->meshes[0].primitives[0].positions[7] == 1.0f);
        /* the BIN chunk's 36 bytes are the buffer: all of it decoded */
        SW_CHECK(memcmp(a->meshes[0].primitives[0].positions, triangle, sizeof triangle) == 0);
        SW_CHECK_EQ_INT(a->default_scene, 0);
        SW_CHECK(strcmp(a->path, "triangle.gltf") == 0);
        sw_model_free(a);
    }
    /* a GLB without a BIN chunk cannot have a buffer without uri */
    size = make_glb(glb, triangle_json, NULL, 0);
    SW_CHECK_EQ_INT(sw_gltf_load_memory(glb, size, "t.glb", NULL, NULL, &a, &d), SW_ERR_INVALID_DATA);
    SW_CHECK(strstr(d.message, "t.glb: buffers[0]: ") && strstr(d.message, "BIN"));
    /* version 1 */
    size = make_glb(glb, triangle_json, (const uint8_t*)triangle, sizeof triangle);
    glb[4] = 1;
    SW_CHECK_EQ_INT(sw_gltf_load_memory(glb, size, "t.glb", NULL, NULL, &a, &d), SW_ERR_UNSUPPORTED);
}

/* Every truncation of a GLB and of a JSON file is rejected, never read past
   (each copy is exactly as long as the truncated data, so ASan sees any
   over-read). */
static void test_truncated(void) {
    uint8_t glb[1024];
    size_t size = make_glb(glb, triangle_json, (const uint8_t*)triangle, sizeof triangle);
    int failures = 0;
    for (size_t n = 0; n < size; n++) {
        uint8_t* copy = malloc(n ? n : 1);
        memcpy(copy, glb, n);
        sw_model* a;
        sw_diag d;
        sw_result r = sw_gltf_load_memory(copy, n, "t.glb", NULL, NULL, &a, &d);
        if (r == SW_OK) {
            failures++;
            sw_model_free(a);
        } else if (r != SW_ERR_INVALID_DATA || strncmp(d.message, "t.glb: ", 7) != 0) {
            failures++;
            fprintf(stderr, "  length %zu: %s\n", n, d.message);
        }
        free(copy);
    }
    SW_CHECK_EQ_INT(failures, 0);

    /* the JSON of the triangle with its buffer as a data: URI */
    bytes b = {0};
    put(&b, triangle, sizeof triangle, 4);
    doc d = {0};
    add(&d, "{%s,\"buffers\":[{\"byteLength\":36,\"uri\":\"%s\"}]%s", header, data_uri(&b),
        strstr(triangle_json, ",\"bufferViews\""));
    sw_model* a;
    sw_diag diag;
    SW_CHECK_EQ_INT(load(d.text, NULL, &a, &diag), SW_OK);
    sw_model_free(a);
    failures = 0;
    for (size_t n = 0; n < d.size; n++) {
        char* copy = malloc(n ? n : 1);
        memcpy(copy, d.text, n);
        sw_result r = sw_gltf_load_memory(copy, n, "t.gltf", NULL, NULL, &a, &diag);
        if (r == SW_OK) {
            failures++;
            sw_model_free(a);
        }
        free(copy);
    }
    SW_CHECK_EQ_INT(failures, 0);
    /* trailing garbage after the JSON */
    add(&d, " x");
    expect_error(d.text, SW_ERR_INVALID_DATA, "after the JSON", NULL);
}

/* ---- JSON strictness ----------------------------------------------------------- */

static void test_json_types(void) {
    expect_error("{\"asset\":{\"version\":\"2.0\"},\"scenes\":[{\"name\":42}]}", SW_ERR_INVALID_DATA,
                 "test.gltf: scenes[0].name: expected a string", NULL);
    expect_error("{\"asset\":{\"version\":\"2.0\"},\"scene\":\"0\"}", SW_ERR_INVALID_DATA, "scene: expected an integer",
                 NULL);
    expect_error("{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"mesh\":-1}]}", SW_ERR_INVALID_DATA,
                 "nodes[0].mesh: expected an index", NULL);
    expect_error("{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"mesh\":0.5}]}", SW_ERR_INVALID_DATA,
                 "nodes[0].mesh: expected an index", NULL);
    expect_error("{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"mesh\":3}]}", SW_ERR_INDEX_OUT_OF_RANGE,
                 "nodes[0].mesh: 3 is out of range (0 meshes)", NULL);
    expect_error("{\"asset\":{\"version\":\"2.0\"},\"nodes\":{}}", SW_ERR_INVALID_DATA, "nodes: expected an array",
                 NULL);
    expect_error("{\"asset\":{\"version\":\"2.0\"},\"nodes\":[[]]}", SW_ERR_INVALID_DATA,
                 "nodes[0]: expected an object", NULL);
    expect_error("{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"children\":{}}]}", SW_ERR_INVALID_DATA,
                 "nodes[0].children: expected an array", NULL);
    expect_error("{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"translation\":[1,2]}]}", SW_ERR_INVALID_DATA,
                 "nodes[0].translation: expected an array of 3 numbers", NULL);
    expect_error("{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"scale\":[1,\"2\",3]}]}", SW_ERR_INVALID_DATA,
                 "nodes[0].scale[1]: expected a number", NULL);
    expect_error("{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"scale\":[1,1e39,3]}]}", SW_ERR_INVALID_DATA,
                 "nodes[0].scale[1]", "finite float");
    /* Past the largest double cJSON reads infinity: said as out of range,
       for floats, unsigned integers and indices alike. */
    expect_error("{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"scale\":[1,1e400,3]}]}", SW_ERR_INVALID_DATA,
                 "test.gltf: nodes[0].scale[1]: the number is out of range (beyond ±1.8e308, the largest a double holds)",
                 NULL);
    expect_error("{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"translation\":[-1e999,0,0]}]}",
                 SW_ERR_INVALID_DATA, "nodes[0].translation[0]: the number is out of range (beyond ±1.8e308", NULL);
    expect_error("{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"mesh\":1e400}]}", SW_ERR_INVALID_DATA,
                 "nodes[0].mesh: the number is out of range (beyond ±1.8e308", NULL);
    expect_error("{\"asset\":{\"version\":\"2.0\"},\"scene\":1e400}", SW_ERR_INVALID_DATA,
                 "scene: the number is out of range (beyond ±1.8e308", NULL);
    expect_error("{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":1e400}]}", SW_ERR_INVALID_DATA,
                 "buffers[0].byteLength: the number is out of range (beyond ±1.8e308", NULL);
    expect_error("{\"asset\":{\"version\":\"2.0\"},\"accessors\":[{\"componentType\":5126,\"count\":1.5,"
                 "\"type\":\"SCALAR\"}]}",
                 SW_ERR_INVALID_DATA, "accessors[0].count: expected an integer", NULL);
    expect_error("{\"asset\":{\"version\":\"2.0\"},\"materials\":[{\"doubleSided\":1}]}", SW_ERR_INVALID_DATA,
                 "materials[0].doubleSided: expected true or false", NULL);
    expect_error("{\"asset\":{\"version\":\"2.0\"},\"materials\":[{\"alphaMode\":\"CUTOUT\"}]}", SW_ERR_INVALID_DATA,
                 "materials[0].alphaMode", "CUTOUT");
    expect_error("{\"asset\":{}}", SW_ERR_INVALID_DATA, "asset.version: required", NULL);
    expect_error("{}", SW_ERR_INVALID_DATA, "asset: required", NULL);
    expect_error("[1]", SW_ERR_INVALID_DATA, "not an object", NULL);
    expect_error("{\"asset\":{\"version\":\"1.0\"}}", SW_ERR_UNSUPPORTED, "asset.version", "glTF 1.0 is not supported");
    expect_error("{\"asset\":{\"version\":\"3.0\"}}", SW_ERR_UNSUPPORTED, "asset.version", NULL);
    expect_error("{\"asset\":{\"version\":\"2.0\",\"minVersion\":\"2.1\"}}", SW_ERR_UNSUPPORTED, "asset.minVersion",
                 NULL);
    expect_error("{\"asset\":{\"version\":\"2.0\"},\"scene\":0}", SW_ERR_INDEX_OUT_OF_RANGE, "scene: 0 is out of range",
                 NULL);
    /* unknown properties are ignored; version 2.1 loads; no scenes → default_scene -1 */
    sw_model* a;
    sw_diag d;
    SW_CHECK_EQ_INT(
        load("{\"asset\":{\"version\":\"2.1\",\"foo\":[1]},\"bar\":{\"x\":null},\"nodes\":[{\"extras\":7}]}", NULL, &a,
             &d),
        SW_OK);
    if (a) {
        SW_CHECK_EQ_INT(a->default_scene, -1);
        SW_CHECK_EQ_INT(a->node_count, 1);
        sw_model_free(a);
    }
}

static void test_extensions(void) {
    expect_error("{\"asset\":{\"version\":\"2.0\"},\"extensionsUsed\":[\"KHR_draco_mesh_compression\"],"
                 "\"extensionsRequired\":[\"KHR_draco_mesh_compression\"]}",
                 SW_ERR_UNSUPPORTED, "extensionsRequired[0]", "KHR_draco_mesh_compression");
    expect_error("{\"asset\":{\"version\":\"2.0\"},\"extensionsRequired\":[3]}", SW_ERR_INVALID_DATA,
                 "extensionsRequired[0]: expected a string", NULL);
    sw_model* a;
    sw_diag d;
    /* required but supported, and used-only unknown extensions, load */
    SW_CHECK_EQ_INT(load("{\"asset\":{\"version\":\"2.0\"},\"extensionsUsed\":[\"KHR_mesh_quantization\","
                         "\"EXT_unknown\"],\"extensionsRequired\":[\"KHR_mesh_quantization\",\"KHR_texture_transform\","
                         "\"KHR_materials_unlit\"]}",
                         NULL, &a, &d),
                    SW_OK);
    sw_model_free(a);
}

/* ---- materials ------------------------------------------------------------------ */

static void test_materials(void) {
    const char* json =
        "{\"asset\":{\"version\":\"2.0\"},\"images\":[{\"uri\":\"missing.png\"}],\"samplers\":[{\"magFilter\":9728}],"
        "\"textures\":[{\"source\":0,\"sampler\":0},{\"source\":0}],"
        "\"materials\":[{},{\"name\":\"m\",\"pbrMetallicRoughness\":{\"baseColorFactor\":[0.5,0.25,1,0.75],"
        "\"metallicFactor\":0.1,\"roughnessFactor\":0.2,\"baseColorTexture\":{\"index\":1,\"texCoord\":1,"
        "\"extensions\":{\"KHR_texture_transform\":{\"offset\":[0.5,0.25],\"rotation\":1.5,\"scale\":[2,3],"
        "\"texCoord\":2}}}},\"normalTexture\":{\"index\":0,\"scale\":0.5},\"occlusionTexture\":{\"index\":0,"
        "\"strength\":0.3},\"emissiveFactor\":[1,0.5,0],\"alphaMode\":\"MASK\",\"alphaCutoff\":0.25,"
        "\"doubleSided\":true,\"extensions\":{\"KHR_materials_unlit\":{}}}]}";
    sw_model* a;
    sw_diag d;
    /* the image file does not exist: images are not read at load */
    SW_CHECK_EQ_INT(load(json, NULL, &a, &d), SW_OK);
    if (!a) return;
    SW_CHECK_EQ_INT(a->material_count, 2);
    const sw_model_material* m0 = &a->materials[0];
    SW_CHECK(m0->base_color_factor[0] == 1.0f && m0->base_color_factor[3] == 1.0f);
    SW_CHECK(m0->metallic_factor == 1.0f && m0->roughness_factor == 1.0f && m0->alpha_cutoff == 0.5f);
    SW_CHECK(m0->emissive_factor[0] == 0.0f && m0->alpha_mode == SW_MODEL_ALPHA_OPAQUE && !m0->double_sided);
    SW_CHECK(m0->base_color_texture.texture == -1 && m0->normal_texture.scale == 1.0f && !m0->unlit);
    SW_CHECK(m0->name == NULL);
    const sw_model_material* m1 = &a->materials[1];
    SW_CHECK(strcmp(m1->name, "m") == 0);
    SW_CHECK(m1->base_color_factor[1] == 0.25f && m1->base_color_factor[3] == 0.75f);
    SW_CHECK(m1->metallic_factor == 0.1f && m1->roughness_factor == 0.2f);
    const sw_model_texture_ref* t = &m1->base_color_texture;
    SW_CHECK(t->texture == 1 && t->texcoord == 2 && t->has_transform);
    SW_CHECK(t->offset[0] == 0.5f && t->offset[1] == 0.25f && t->rotation == 1.5f && t->uv_scale[1] == 3.0f);
    SW_CHECK(m1->normal_texture.texture == 0 && m1->normal_texture.scale == 0.5f && !m1->normal_texture.has_transform);
    SW_CHECK(m1->occlusion_texture.scale == 0.3f);
    SW_CHECK(m1->emissive_factor[1] == 0.5f && m1->alpha_mode == SW_MODEL_ALPHA_MASK && m1->alpha_cutoff == 0.25f);
    SW_CHECK(m1->double_sided && m1->unlit);
    SW_CHECK(a->textures[0].sampler == 0 && a->textures[1].sampler == -1 && a->textures[1].image == 0);
    SW_CHECK(a->samplers[0].mag_filter == 9728 && a->samplers[0].min_filter == 0 && a->samplers[0].wrap_s == 10497);
    SW_CHECK(strcmp(a->images[0].uri, "missing.png") == 0 && a->images[0].data == NULL);
    /* ...but decoding it is an error (and a memory load has no folder to read it from) */
    uint8_t* pixels = (uint8_t*)1;
    int w = 1, h = 1;
    SW_CHECK(sw_model_decode_image(a, 0, &pixels, &w, &h, &d) != SW_OK);
    SW_CHECK(pixels == NULL && w == 0 && h == 0);
    SW_CHECK_EQ_INT(sw_model_decode_image(a, 5, &pixels, &w, &h, &d), SW_ERR_INDEX_OUT_OF_RANGE);
    sw_model_free(a);
}

/* ---- nodes ------------------------------------------------------------------------ */

static void test_nodes(void) {
    /* node 0: matrix = translation (1,2,3) · scale (2,1,1), column-major;
       node 1: TRS with a rotation of length 2; node 2: both (matrix wins);
       node 3 child of 0, node 2 child of 3. */
    const char* json =
        "{\"asset\":{\"version\":\"2.0\"},\"nodes\":["
        "{\"name\":\"root\",\"children\":[3],\"matrix\":[2,0,0,0, 0,1,0,0, 0,0,1,0, 1,2,3,1]},"
        "{\"translation\":[4,5,6],\"rotation\":[0,0,0,2],\"scale\":[1,2,3]},"
        "{\"matrix\":[1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1],\"translation\":[1,0,0]},"
        "{\"children\":[2]}],"
        "\"scenes\":[{\"nodes\":[0,1]},{\"nodes\":[3]}],\"scene\":1}";
    sw_model* a;
    sw_diag d;
    SW_CHECK_EQ_INT(load(json, NULL, &a, &d), SW_OK);
    if (!a) return;
    SW_CHECK_EQ_INT(a->node_count, 4);
    if (a->node_count != 4) {
        sw_model_free(a);
        return;
    }
    /* n[i]: the file's nodes[i]; model indices (parents, children, scene roots) through node_from_source */
    const uint32_t* from = a->node_from_source;
    const sw_model_node* n[4];
    for (int i = 0; i < 4; i++) {
        SW_CHECK(from[i] < 4);
        n[i] = &a->nodes[from[i] < 4 ? from[i] : 0];
        SW_CHECK_EQ_INT(n[i]->source_index, i);
    }
    SW_CHECK(n[0]->has_matrix && strcmp(n[0]->name, "root") == 0);
    SW_CHECK(n[0]->matrix.m[0][0] == 2.0f && n[0]->matrix.m[1][1] == 1.0f);
    SW_CHECK(n[0]->matrix.m[0][3] == 1.0f && n[0]->matrix.m[1][3] == 2.0f && n[0]->matrix.m[2][3] == 3.0f);
    SW_CHECK(n[0]->trs.rotation.w == 1.0f && n[0]->trs.scale.x == 1.0f);
    SW_CHECK(!n[1]->has_matrix && n[1]->trs.translation.z == 6.0f && n[1]->trs.scale.y == 2.0f);
    SW_CHECK(n[1]->trs.rotation.w == 1.0f && n[1]->trs.rotation.x == 0.0f);
    SW_CHECK(has_warning(a, "nodes[1].rotation: not a unit quaternion"));
    SW_CHECK(n[2]->has_matrix && has_warning(a, "nodes[2]: has both matrix"));
    SW_CHECK(n[0]->parent == -1 && n[1]->parent == -1 && n[3]->parent == (int32_t)from[0] &&
             n[2]->parent == (int32_t)from[3]);
    SW_CHECK(n[0]->child_count == 1 && n[0]->children[0] == from[3]);
    /* smallest parents-first order: 0, 1, 3, 2 (nodes[k].source_index) */
    SW_CHECK(a->nodes[0].source_index == 0 && a->nodes[1].source_index == 1 && a->nodes[2].source_index == 3 &&
             a->nodes[3].source_index == 2);
    for (size_t k = 0; k < a->node_count; k++) SW_CHECK(a->nodes[k].parent < (int32_t)k);
    SW_CHECK_EQ_INT(a->scene_count, 2);
    SW_CHECK_EQ_INT(a->default_scene, 1);
    SW_CHECK(a->scenes[0].node_count == 2 && a->scenes[0].nodes[1] == from[1]);
    SW_CHECK(has_warning(a, "scenes[1].nodes[0]: nodes[3] is not a root"));
    SW_CHECK(n[0]->mesh == -1 && n[0]->skin == -1 && n[0]->camera == -1);
    sw_model_free(a);

    expect_error(
        "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"children\":[1]},{\"children\":[2]},{\"children\":[0]}]}",
        SW_ERR_CYCLE, "nodes[0]", "0 -> 1 -> 2 -> 0");
    expect_error("{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{},{\"children\":[1]}]}", SW_ERR_CYCLE, "nodes[1]", NULL);
    expect_error("{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"children\":[2]},{\"children\":[2]},{}]}",
                 SW_ERR_INVALID_DATA, "nodes[1].children[0]", "already a child of nodes[0]");
    expect_error("{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"children\":[1,1]},{}]}", SW_ERR_INVALID_DATA,
                 "nodes[0].children[1]", "twice");
    expect_error("{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"matrix\":[1,0,0,1, 0,1,0,0, 0,0,1,0, 0,0,0,1]}]}",
                 SW_ERR_INVALID_DATA, "nodes[0].matrix", "not an affine matrix");
}

/* A long chain deeper than any recursion could take, in reverse order. */
static void test_deep_hierarchy(void) {
    enum { N = 100000 };
    static char json[N * 24];
    /* node i is the child of node i+1; node N-1 is the root */
    size_t at = (size_t)sprintf(json, "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[");
    for (int i = 0; i < N; i++) {
        if (i) json[at++] = ',';
        at += (size_t)(i == 0 ? sprintf(json + at, "{}") : sprintf(json + at, "{\"children\":[%d]}", i - 1));
    }
    sprintf(json + at, "]}");
    sw_model* a;
    sw_diag d;
    SW_CHECK_EQ_INT(load(json, NULL, &a, &d), SW_OK);
    if (!a) return;
    SW_CHECK_EQ_INT(a->node_count, N);
    if (a->node_count != N) {
        sw_model_free(a);
        return;
    }
    /* parents first: the file's order reversed */
    SW_CHECK(a->nodes[0].source_index == N - 1 && a->nodes[N - 1].source_index == 0);
    bool ok = true;
    for (int k = 0; k < N; k++)
        ok = ok && a->nodes[k].source_index == (uint32_t)(N - 1 - k) && a->nodes[k].parent < k &&
             a->node_from_source[N - 1 - k] == (uint32_t)k;
    SW_CHECK(ok);
    sw_model_free(a);
}

/* ---- vertex streams ---------------------------------------------------------------- */

/* Two vertices; accessors 0..8 over one buffer, attributes given as JSON. */
static sw_result load_streams(const char* attributes, const char* extra, sw_model** a, sw_diag* diag) {
    static bytes b;
    memset(&b, 0, sizeof b);
    const float pos[6] = {0, 0, 0, 1, 2, 3};
    const uint8_t rgb8[8] = {255, 0, 51, 0, 0, 255, 102, 0};  /* VEC3 u8, each element padded to 4 bytes */
    const float rgba[8] = {0.1f, 0.2f, 0.3f, 0.4f, 1, 1, 1, 0};
    const uint16_t uv16[4] = {0, 65535, 32768, 1};
    const float tangent[8] = {1, 0, 0, 1, 0, 1, 0, -1};
    const float uv[4] = {0.25f, 0.5f, 0.75f, 1};
    const uint8_t idx[3] = {0, 1, 2};
    const float nan_normal[6] = {0, 0, 1, 0, NAN, 0};
    const float three[9] = {0};
    size_t o[9] = {put(&b, pos, 24, 4), put(&b, rgb8, 8, 4), put(&b, rgba, 32, 4), put(&b, uv16, 8, 4),
                   put(&b, tangent, 32, 4), put(&b, uv, 16, 4), put(&b, idx, 3, 4), put(&b, nan_normal, 24, 4),
                   put(&b, three, 36, 4)};
    const size_t lengths[9] = {24, 8, 32, 8, 32, 16, 3, 24, 36};
    static doc d;
    d.size = 0;
    add(&d, "{%s,\"buffers\":[{\"byteLength\":%zu,\"uri\":\"%s\"}],\"bufferViews\":[", header, b.size, data_uri(&b));
    for (int i = 0; i < 9; i++)
        add(&d, "%s{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu%s}", i ? "," : "", o[i], lengths[i],
            i == 1 ? ",\"byteStride\":4" : "");
    add(&d, "],\"accessors\":["
            "{\"bufferView\":0,\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"},"
            "{\"bufferView\":1,\"componentType\":5121,\"normalized\":true,\"count\":2,\"type\":\"VEC3\"},"
            "{\"bufferView\":2,\"componentType\":5126,\"count\":2,\"type\":\"VEC4\"},"
            "{\"bufferView\":3,\"componentType\":5123,\"normalized\":true,\"count\":2,\"type\":\"VEC2\"},"
            "{\"bufferView\":4,\"componentType\":5126,\"count\":2,\"type\":\"VEC4\"},"
            "{\"bufferView\":5,\"componentType\":5126,\"count\":2,\"type\":\"VEC2\"},"
            "{\"bufferView\":6,\"componentType\":5121,\"count\":3,\"type\":\"SCALAR\"},"
            "{\"bufferView\":7,\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"},"
            "{\"bufferView\":8,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"}],");
    add(&d, "\"meshes\":[{\"primitives\":[{\"attributes\":{%s}%s}]}]}", attributes, extra);
    return load(d.text, NULL, a, diag);
}

static void test_vertex_streams(void) {
    sw_model* a;
    sw_diag d;
    SW_CHECK_EQ_INT(load_streams("\"POSITION\":0,\"COLOR_0\":1,\"TEXCOORD_0\":5,\"TEXCOORD_1\":3,\"TANGENT\":4,"
                                 "\"_CUSTOM\":3,\"COLOR_1\":2",
                                 ",\"mode\":1", &a, &d),
                    SW_OK);
    if (a) {
        const sw_model_primitive* p = &a->meshes[0].primitives[0];
        /* COLOR_0 of normalised bytes (255, 0, 51), (0, 255, 102), 4 bytes apart: RGB gets alpha 1 */
        SW_CHECK(p->colors[0] == 1.0f && p->colors[1] == 0.0f && p->colors[3] == 1.0f);
        SW_CHECK_NEAR(p->colors[2], 0.2, 1e-7); /* 51/255 */
        SW_CHECK(p->colors[4] == 0.0f && p->colors[5] == 1.0f && p->colors[7] == 1.0f);
        SW_CHECK_NEAR(p->colors[6], 0.4, 1e-7); /* 102/255 */
        SW_CHECK_EQ_INT(p->texcoord_count, 2);
        SW_CHECK(p->texcoords[0][0] == 0.25f && p->texcoords[0][3] == 1.0f);
        SW_CHECK(p->texcoords[1][0] == 0.0f && p->texcoords[1][1] == 1.0f);
        SW_CHECK_NEAR(p->texcoords[1][2], 32768.0 / 65535.0, 1e-7);
        SW_CHECK(p->tangents[3] == 1.0f && p->tangents[7] == -1.0f && p->normals == NULL);
        SW_CHECK(p->mode == SW_MODEL_LINES && p->indices == NULL && p->influence_count == 0 && p->joints == NULL);
        SW_CHECK(has_warning(a, "COLOR_1 ignored"));
        SW_CHECK(!has_warning(a, "_CUSTOM"));
        SW_CHECK(!has_warning(a, "KHR_mesh_quantization")); /* normalised u16 texcoords are core glTF */
        sw_model_free(a);
    }
    SW_CHECK_EQ_INT(load_streams("\"POSITION\":0,\"COLOR_0\":2", "", &a, &d), SW_OK);
    if (a) {
        const float* c = a->meshes[0].primitives[0].colors;
        SW_CHECK(c[0] == 0.1f && c[3] == 0.4f && c[7] == 0.0f);
        SW_CHECK(has_warning(a, "2 vertices do not make whole triangles"));
        sw_model_free(a);
    }
    /* five sets: four are read */
    SW_CHECK_EQ_INT(load_streams("\"POSITION\":0,\"TEXCOORD_0\":5,\"TEXCOORD_1\":5,\"TEXCOORD_2\":5,\"TEXCOORD_3\":3,"
                                 "\"TEXCOORD_4\":5",
                                 ",\"mode\":0", &a, &d),
                    SW_OK);
    if (a) {
        SW_CHECK_EQ_INT(a->meshes[0].primitives[0].texcoord_count, 4);
        SW_CHECK(has_warning(a, "5 TEXCOORD sets; only the first 4 are read"));
        sw_model_free(a);
    }
    struct {
        const char *attributes, *extra;
        sw_result result;
        const char* message;
    } bad[] = {
        {"\"NORMAL\":7", "", SW_ERR_INVALID_DATA, "attributes: no POSITION attribute"},
        {"\"POSITION\":0,\"NORMAL\":7", "", SW_ERR_INVALID_DATA,
         "attributes.NORMAL: accessors[7]: element 1 is not finite"},
        {"\"POSITION\":0,\"NORMAL\":8", "", SW_ERR_INVALID_DATA,
         "attributes.NORMAL: accessors[8] has 3 elements, POSITION has 2"},
        {"\"POSITION\":0,\"TEXCOORD_1\":5", "", SW_ERR_INVALID_DATA, "TEXCOORD_1 without TEXCOORD_0"},
        {"\"POSITION\":0,\"JOINTS_0\":2", "", SW_ERR_INVALID_DATA, "JOINTS_0 without WEIGHTS_0"},
        {"\"POSITION\":0,\"TANGENT\":0", "", SW_ERR_INVALID_DATA,
         "attributes.TANGENT: accessors[0] is VEC3; expected VEC4"},
        {"\"POSITION\":0,\"COLOR_0\":3", "", SW_ERR_INVALID_DATA, "attributes.COLOR_0: accessors[3] is VEC2"},
        {"\"POSITION\":6", "", SW_ERR_INVALID_DATA, "attributes.POSITION: accessors[6] is SCALAR"},
        {"\"POSITION\":\"0\"", "", SW_ERR_INVALID_DATA, "attributes.POSITION: expected an index"},
        {"\"POSITION\":0", ",\"indices\":6", SW_ERR_INDEX_OUT_OF_RANGE,
         "primitives[0].indices: index 2 at position 2 is out of range (2 vertices)"},
        {"\"POSITION\":0", ",\"indices\":5", SW_ERR_INVALID_DATA, "primitives[0].indices: accessors[5] is VEC2"},
        {"\"POSITION\":0", ",\"mode\":7", SW_ERR_INVALID_DATA, "primitives[0].mode"},
        {"\"POSITION\":0", ",\"material\":0", SW_ERR_INDEX_OUT_OF_RANGE, "primitives[0].material: 0 is out of range"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        sw_result r = load_streams(bad[i].attributes, bad[i].extra, &a, &d);
        SW_CHECK_EQ_INT(r, bad[i].result);
        if (r == SW_OK) sw_model_free(a);
        if (!strstr(d.message, bad[i].message)) fprintf(stderr, "  '%s' lacks '%s'\n", d.message, bad[i].message);
        SW_CHECK(strstr(d.message, bad[i].message) && strstr(d.message, "test.gltf: meshes[0].primitives[0]"));
    }
}

/* ---- skins and influences ----------------------------------------------------------- */

/* A mesh of `vertices` with one POSITION accessor and influence sets given
   as raw JSON accessors (appended after POSITION, bufferViews in order). */
static void test_skin_without_inverse_binds(void) {
    bytes b = {0};
    const float pos[3] = {0, 0, 0};
    const uint8_t joints[4] = {1, 0, 0, 0};
    const float weights[4] = {1, 0, 0, 0};
    size_t op = put(&b, pos, 12, 4), oj = put(&b, joints, 4, 4), ow = put(&b, weights, 16, 4);
    doc d = {0};
    add(&d, "{%s,\"buffers\":[{\"byteLength\":%zu,\"uri\":\"%s\"}],", header, b.size, data_uri(&b));
    add(&d, "\"bufferViews\":[{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":12},{\"buffer\":0,\"byteOffset\":%zu,"
            "\"byteLength\":4},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":16}],",
        op, oj, ow);
    add(&d, "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":1,\"type\":\"VEC3\"},"
            "{\"bufferView\":1,\"componentType\":5121,\"count\":1,\"type\":\"VEC4\"},"
            "{\"bufferView\":2,\"componentType\":5126,\"count\":1,\"type\":\"VEC4\"}],");
    add(&d, "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"JOINTS_0\":1,\"WEIGHTS_0\":2}}]}],");
    add(&d, "\"skins\":[{\"joints\":[1,2],\"name\":\"rig\"},{\"joints\":[2],\"skeleton\":1}],");
    add(&d, "\"nodes\":[{\"mesh\":0,\"skin\":%d},{\"children\":[2]},{}]}", 0);
    sw_model* a;
    sw_diag diag;
    SW_CHECK_EQ_INT(load(d.text, NULL, &a, &diag), SW_OK);
    if (a) {
        SW_CHECK_EQ_INT(a->skin_count, 2);
        const sw_model_skin* s = &a->skins[0];
        const uint32_t* from = a->node_from_source;
        SW_CHECK(s->joint_count == 2 && s->joints[0] == from[1] && s->joints[1] == from[2] && s->skeleton == -1);
        SW_CHECK(strcmp(s->name, "rig") == 0 && a->skins[1].skeleton == (int32_t)from[1]);
        for (int j = 0; j < 2; j++)
            for (int r = 0; r < 3; r++)
                for (int c = 0; c < 4; c++) SW_CHECK(s->inverse_bind[j].m[r][c] == (r == c ? 1.0f : 0.0f));
        const sw_model_primitive* p = &a->meshes[0].primitives[0];
        SW_CHECK(p->influence_count == 4 && p->influence_sets == 1);
        SW_CHECK(p->joints[0] == 1 && p->weights[0] == 1.0f && p->weights[1] == 0.0f && p->joints[1] == 0);
        sw_model_free(a);
    }
    /* the same mesh under skin 1, which has one joint: vertex 0 uses joint 1 */
    char* skin = strstr(d.text, "\"skin\":0");
    skin[7] = '1';
    expect_error(d.text, SW_ERR_INDEX_OUT_OF_RANGE, "nodes[0]: meshes[0].primitives[0]: vertex 0 uses joint 1",
                 "skins[1] has 1 joints");
}

/* Influence sets from raw bytes: `sets` JOINTS_n (u8) and WEIGHTS_n of
   `weight_type` for `vertices` vertices. */
static sw_result load_influences(int vertices, int sets, const uint8_t* joints, const void* weights, int weight_type,
                                 int joint_count, const sw_gltf_options* options, sw_model** a, sw_diag* diag) {
    static bytes b;
    memset(&b, 0, sizeof b);
    float pos[64 * 3] = {0};
    size_t wsize = weight_type == 5126 ? 4 : weight_type == 5123 ? 2 : 1;
    size_t op = put(&b, pos, (size_t)vertices * 12, 4);
    size_t oj = put(&b, joints, (size_t)(vertices * sets * 4), 4);
    size_t ow = put(&b, weights, (size_t)(vertices * sets * 4) * wsize, 4);
    static doc d;
    d.size = 0;
    add(&d, "{%s,\"buffers\":[{\"byteLength\":%zu,\"uri\":\"%s\"}],\"bufferViews\":[", header, b.size, data_uri(&b));
    add(&d, "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%d}", op, vertices * 12);
    for (int s = 0; s < sets; s++)
        add(&d, ",{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%d}", oj + (size_t)(s * vertices * 4), vertices * 4);
    for (int s = 0; s < sets; s++)
        add(&d, ",{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu}", ow + (size_t)(s * vertices * 4) * wsize,
            (size_t)(vertices * 4) * wsize);
    add(&d, "],\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":%d,\"type\":\"VEC3\"}", vertices);
    for (int s = 0; s < sets; s++)
        add(&d, ",{\"bufferView\":%d,\"componentType\":5121,\"count\":%d,\"type\":\"VEC4\"}", 1 + s, vertices);
    for (int s = 0; s < sets; s++)
        add(&d, ",{\"bufferView\":%d,\"componentType\":%d,\"count\":%d,\"type\":\"VEC4\"%s}", 1 + sets + s,
            weight_type, vertices, weight_type == 5126 ? "" : ",\"normalized\":true");
    add(&d, "],\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0");
    for (int s = 0; s < sets; s++) add(&d, ",\"JOINTS_%d\":%d,\"WEIGHTS_%d\":%d", s, 1 + s, s, 1 + sets + s);
    add(&d, "}}]}],\"nodes\":[{\"mesh\":0,\"skin\":0}");
    for (int j = 0; j < joint_count; j++) add(&d, ",{}");
    add(&d, "],\"skins\":[{\"joints\":[");
    for (int j = 0; j < joint_count; j++) add(&d, "%s%d", j ? "," : "", j + 1);
    add(&d, "]}]}");
    return sw_gltf_load_memory(d.text, d.size, "test.gltf", NULL, options, a, diag);
}

static void test_normalised_weights(void) {
    /* u8: (128, 64) → 128/192 = 2/3 and 1/3 after renormalising; (255) → 1 */
    const uint8_t joints[8] = {3, 1, 0, 0, 2, 0, 0, 0};
    const uint8_t w8[8] = {128, 64, 0, 0, 255, 0, 0, 0};
    sw_model* a;
    sw_diag d;
    SW_CHECK_EQ_INT(load_influences(2, 1, joints, w8, 5121, 4, NULL, &a, &d), SW_OK);
    if (a) {
        const sw_model_primitive* p = &a->meshes[0].primitives[0];
        SW_CHECK(p->influence_count == 4 && p->influence_sets == 1);
        SW_CHECK(p->joints[0] == 3 && p->joints[1] == 1 && p->joints[2] == 0 && p->joints[3] == 0);
        SW_CHECK_NEAR(p->weights[0], 2.0 / 3.0, 1e-6);
        SW_CHECK_NEAR(p->weights[1], 1.0 / 3.0, 1e-6);
        SW_CHECK(p->weights[2] == 0.0f && p->weights[3] == 0.0f);
        SW_CHECK(p->joints[4] == 2 && p->weights[4] == 1.0f);
        SW_CHECK(has_warning(a, "1 vertices have weights that do not sum to 1"));
        sw_model_free(a);
    }
    /* u16: (65535, 65535) → 0.5, 0.5 (sum 2: a warning); (32768, 32767) sums to exactly 1 */
    const uint16_t w16[8] = {65535, 65535, 0, 0, 32768, 32767, 0, 0};
    const uint8_t joints2[8] = {0, 1, 0, 0, 1, 2, 0, 0};
    SW_CHECK_EQ_INT(load_influences(2, 1, joints2, w16, 5123, 4, NULL, &a, &d), SW_OK);
    if (a) {
        const sw_model_primitive* p = &a->meshes[0].primitives[0];
        SW_CHECK(p->weights[0] == 0.5f && p->weights[1] == 0.5f);
        SW_CHECK_NEAR(p->weights[4], 32768.0 / 65535.0, 1e-7);
        SW_CHECK_NEAR(p->weights[5], 32767.0 / 65535.0, 1e-7);
        SW_CHECK(has_warning(a, "1 vertices have weights that do not sum to 1"));
        sw_model_free(a);
    }
}

static void test_many_influences(void) {
    /* vertex 0: 3 sets, 10 non-zero weights summing to 1; joint = slot index.
       The 8 largest: .24 .2 .15 .12 .1 .08 .05 .03 (dropped .02 at slot 5 and
       .01 at slot 2), kept in file order: slots 0 1 3 4 6 7 8 9, sum .97.
       vertex 1: .5 at slot 0 and slot 5. */
    const uint8_t joints[24] = {0, 1, 2, 3, 0, 1, 0, 0, /* JOINTS_0 of vertex 0, 1 */
                                4, 5, 6, 7, 0, 5, 0, 0, /* JOINTS_1 */
                                8, 9, 10, 11, 0, 0, 0, 0};
    const float weights[24] = {0.05f, 0.2f, 0.01f, 0.1f, 0.5f, 0, 0, 0,
                               0.15f, 0.02f, 0.12f, 0.03f, 0, 0.5f, 0, 0,
                               0.08f, 0.24f, 0, 0, 0, 0, 0, 0};
    sw_model* a;
    sw_diag d;
    SW_CHECK_EQ_INT(load_influences(2, 3, joints, weights, 5126, 12, NULL, &a, &d), SW_OK);
    if (a) {
        const sw_model_primitive* p = &a->meshes[0].primitives[0];
        SW_CHECK(p->influence_count == 8 && p->influence_sets == 3);
        const uint16_t kept_joints[8] = {0, 1, 3, 4, 6, 7, 8, 9};
        const float kept[8] = {0.05f, 0.2f, 0.1f, 0.15f, 0.12f, 0.03f, 0.08f, 0.24f};
        for (int i = 0; i < 8; i++) {
            SW_CHECK_EQ_INT(p->joints[i], kept_joints[i]);
            SW_CHECK_NEAR(p->weights[i], kept[i] / 0.97, 1e-6);
        }
        SW_CHECK(p->joints[8] == 0 && p->weights[8] == 0.5f && p->joints[9] == 5 && p->weights[9] == 0.5f);
        SW_CHECK(p->weights[10] == 0.0f && p->joints[10] == 0 && p->weights[15] == 0.0f);
        SW_CHECK(has_warning(a, "1 vertices have more than 8 non-zero weights"));
        SW_CHECK(!has_warning(a, "do not sum to 1"));
        sw_model_free(a);
    }
    /* max_influences 4: .24 .2 .15 .12 → slots 1 4 6 9 in file order, sum .71 */
    SW_CHECK_EQ_INT(load_influences(2, 3, joints, weights, 5126, 12,
                                    &(sw_gltf_options){.max_influences = 4}, &a, &d),
                    SW_OK);
    if (a) {
        const sw_model_primitive* p = &a->meshes[0].primitives[0];
        SW_CHECK(p->influence_count == 4);
        const uint16_t kept_joints[4] = {1, 4, 6, 9};
        const float kept[4] = {0.2f, 0.15f, 0.12f, 0.24f};
        for (int i = 0; i < 4; i++) {
            SW_CHECK_EQ_INT(p->joints[i], kept_joints[i]);
            SW_CHECK_NEAR(p->weights[i], kept[i] / 0.71, 1e-6);
        }
        SW_CHECK(p->joints[4] == 0 && p->weights[4] == 0.5f && p->joints[5] == 5);
        SW_CHECK(has_warning(a, "more than 4 non-zero weights"));
        sw_model_free(a);
    }
    SW_CHECK_EQ_INT(load_influences(2, 3, joints, weights, 5126, 12, &(sw_gltf_options){.max_influences = 6}, &a, &d),
                    SW_ERR_INVALID_ARGUMENT);
    /* the skin has 9 joints: joints 9 and 10 are out of range, 9 is used by vertex 0 */
    SW_CHECK_EQ_INT(load_influences(2, 3, joints, weights, 5126, 9, NULL, &a, &d), SW_ERR_INDEX_OUT_OF_RANGE);
    SW_CHECK(strstr(d.message, "vertex 0 uses joint 9"));
    SW_CHECK_EQ_INT(d.index, 0);
}

static void test_zero_and_negative_weights(void) {
    const uint8_t joints[8] = {2, 1, 0, 0, 1, 0, 0, 0};
    const float zero[8] = {0, 0, 0, 0, 1, 0, 0, 0};
    sw_model* a;
    sw_diag d;
    SW_CHECK_EQ_INT(load_influences(2, 1, joints, zero, 5126, 3, NULL, &a, &d), SW_OK);
    if (a) {
        const sw_model_primitive* p = &a->meshes[0].primitives[0];
        SW_CHECK(p->joints[0] == 2 && p->weights[0] == 1.0f && p->weights[1] == 0.0f);
        SW_CHECK(has_warning(a, "1 vertices have only zero weights"));
        sw_model_free(a);
    }
    const float negative[8] = {1, 0, 0, 0, 1.5f, -0.5f, 0, 0};
    SW_CHECK_EQ_INT(load_influences(2, 1, joints, negative, 5126, 3, NULL, &a, &d), SW_ERR_INVALID_DATA);
    SW_CHECK(strstr(d.message, "WEIGHTS_0") && strstr(d.message, "vertex 1 has a negative weight"));
    SW_CHECK_EQ_INT(d.index, 1);
}

/* ---- morph targets --------------------------------------------------------------- */

/* 3 vertices; target 0 moves vertex 2 by (0,0,1) (sparse, no bufferView),
   target 1 moves every vertex by (1,0,0) (dense). An animation drives the
   weights of node 1 from (0,1) at 0 s to (1,0) at 1 s. `mesh0` is the JSON
   of mesh 0's primitives and weights. */
static sw_result load_morph(const char* mesh0, sw_model** a, sw_diag* diag) {
    static bytes b;
    memset(&b, 0, sizeof b);
    const float pos[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    const float dense[9] = {1, 0, 0, 1, 0, 0, 1, 0, 0};
    const uint8_t sparse_index[1] = {2};
    const float sparse_value[3] = {0, 0, 1};
    const float times[2] = {0, 1};
    const float weights[4] = {0, 1, 1, 0};
    size_t op = put(&b, pos, 36, 4), od = put(&b, dense, 36, 4), oi = put(&b, sparse_index, 1, 4),
           ov = put(&b, sparse_value, 12, 4), ot = put(&b, times, 8, 4), ow = put(&b, weights, 16, 4);
    static doc d;
    d.size = 0;
    add(&d, "{%s,\"buffers\":[{\"byteLength\":%zu,\"uri\":\"%s\"}],\"bufferViews\":[", header, b.size, data_uri(&b));
    add(&d, "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":36},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":36},"
            "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":1},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":12},"
            "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":8},{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":16}],",
        op, od, oi, ov, ot, ow);
    add(&d, "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"},"
            "{\"componentType\":5126,\"count\":3,\"type\":\"VEC3\",\"sparse\":{\"count\":1,"
            "\"indices\":{\"bufferView\":2,\"componentType\":5121},\"values\":{\"bufferView\":3}}},"
            "{\"bufferView\":1,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"},"
            "{\"bufferView\":4,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\"},"
            "{\"bufferView\":5,\"componentType\":5126,\"count\":4,\"type\":\"SCALAR\"}],");
    add(&d, "\"meshes\":[{%s,\"extras\":{\"targetNames\":[\"up\",\"side\"]}},"
            "{\"primitives\":[{\"attributes\":{\"POSITION\":0}}]}],",
        mesh0);
    add(&d, "\"nodes\":[{\"mesh\":1},{\"mesh\":0,\"weights\":[1,0]},{\"mesh\":0}],");
    add(&d, "\"animations\":[{\"samplers\":[{\"input\":3,\"output\":4}],"
            "\"channels\":[{\"sampler\":0,\"target\":{\"node\":1,\"path\":\"weights\"}}]}]}");
    return load(d.text, NULL, a, diag);
}

static void test_morph_targets(void) {
    const char* primitive =
        "{\"attributes\":{\"POSITION\":0},\"targets\":[{\"POSITION\":1},{\"POSITION\":2,\"NORMAL\":2}]}";
    char mesh0[512];
    snprintf(mesh0, sizeof mesh0, "\"primitives\":[%s,%s],\"weights\":[0.25,0.5]", primitive, primitive);
    sw_model* a;
    sw_diag diag;
    SW_CHECK_EQ_INT(load_morph(mesh0, &a, &diag), SW_OK);
    if (!a) return;
    const sw_model_mesh* m = &a->meshes[0];
    SW_CHECK(m->weight_count == 2 && m->weights[0] == 0.25f && m->weights[1] == 0.5f);
    SW_CHECK(m->target_names && strcmp(m->target_names[1], "side") == 0);
    const sw_model_primitive* p = &m->primitives[0];
    SW_CHECK_EQ_INT(p->target_count, 2);
    SW_CHECK(p->targets[0].positions[8] == 1.0f && p->targets[0].positions[5] == 0.0f && !p->targets[0].normals);
    SW_CHECK(p->targets[1].positions[3] == 1.0f && p->targets[1].normals && !p->targets[1].tangents);
    SW_CHECK(a->meshes[1].weight_count == 0 && a->meshes[1].weights == NULL && a->meshes[1].target_names == NULL);
    /* weight offsets: node 0 has none, node 1 takes [0, 2), node 2 [2, 4) */
    SW_CHECK_EQ_INT(a->weight_count, 4);
    const sw_model_node* n1 = &a->nodes[a->node_from_source[1]];
    const sw_model_node* n2 = &a->nodes[a->node_from_source[2]];
    SW_CHECK(n1->weight_offset == 0 && n2->weight_offset == 2);
    SW_CHECK(n1->weight_count == 2 && n1->weights[0] == 1.0f && n2->weight_count == 0);
    const sw_track* t = &a->animations[0].tracks[0];
    SW_CHECK(t->path == SW_PATH_WEIGHTS && t->target == a->node_from_source[1] && t->component_count == 2 &&
             t->key_count == 2);
    SW_CHECK(t->values[0] == 0.0f && t->values[1] == 1.0f && t->values[2] == 1.0f && t->values[3] == 0.0f);
    sw_model_free(a);

    /* mesh.weights of the wrong length; primitives with different target counts */
    snprintf(mesh0, sizeof mesh0, "\"primitives\":[%s],\"weights\":[0.25,0.5,1]", primitive);
    SW_CHECK_EQ_INT(load_morph(mesh0, &a, &diag), SW_ERR_INVALID_DATA);
    SW_CHECK(strstr(diag.message, "meshes[0].weights: 3 weights, but the primitives have 2 morph targets"));
    snprintf(mesh0, sizeof mesh0,
             "\"primitives\":[%s,{\"attributes\":{\"POSITION\":0},\"targets\":[{\"POSITION\":1}]}]", primitive);
    SW_CHECK_EQ_INT(load_morph(mesh0, &a, &diag), SW_ERR_INVALID_DATA);
    SW_CHECK(strstr(diag.message, "meshes[0].primitives[1]: 1 morph targets, but primitives[0] has 2"));
    /* node.weights of the wrong length */
    snprintf(mesh0, sizeof mesh0, "\"primitives\":[{\"attributes\":{\"POSITION\":0},\"targets\":[{\"POSITION\":1}]}]");
    SW_CHECK_EQ_INT(load_morph(mesh0, &a, &diag), SW_ERR_INVALID_DATA);
    SW_CHECK(strstr(diag.message, "nodes[1].weights: 2 weights, but meshes[0] has 1 morph targets"));
}

/* ---- animations -------------------------------------------------------------------- */

/* One node, one animation; samplers given as JSON over a buffer of floats. */
static sw_result load_animation(const void* data, size_t size, const char* accessors, const char* animation,
                                sw_model** a, sw_diag* diag) {
    static bytes b;
    memset(&b, 0, sizeof b);
    put(&b, data, size, 4);
    static doc d;
    d.size = 0;
    add(&d,
        "{%s,\"buffers\":[{\"byteLength\":%zu,\"uri\":\"%s\"}],\"bufferViews\":[{\"buffer\":0,\"byteLength\":%zu}],",
        header, b.size, data_uri(&b), b.size);
    add(&d, "\"accessors\":[%s],\"nodes\":[{\"name\":\"n\"},{\"matrix\":[0,2,0,0, -3,0,0,0, 0,0,4,0, 1,2,3,1]}],"
            "\"animations\":[%s]}",
        accessors, animation);
    return load(d.text, NULL, a, diag);
}

static void test_animation_channels(void) {
    /* times 0.5, 1; rotation keys (0,0,0,2) and (0,3,0,4) → normalised (0,0,0,1), (0,0.6,0,0.8) */
    const float data[] = {0.5f, 1.0f, 0, 0, 0, 2, 0, 3, 0, 4, 1, 2, 3, 4, 5, 6};
    const char* accessors =
        "{\"bufferView\":0,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\"},"
        "{\"bufferView\":0,\"byteOffset\":8,\"componentType\":5126,\"count\":2,\"type\":\"VEC4\"},"
        "{\"bufferView\":0,\"byteOffset\":40,\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"}";
    const char* animation =
        "{\"name\":\"a\",\"samplers\":[{\"input\":0,\"output\":1},{\"input\":0,\"output\":2,\"interpolation\":\"STEP\"}"
        "],"
        "\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"rotation\"}},"
        "{\"sampler\":1,\"target\":{\"node\":99,\"path\":\"translation\"}},"
        "{\"sampler\":1,\"target\":{\"path\":\"translation\"}},"
        "{\"sampler\":1,\"target\":{\"node\":0,\"path\":\"pointer\"}},"
        "{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"weights\"}},"
        "{\"sampler\":1,\"target\":{\"node\":1,\"path\":\"translation\"}}]}";
    sw_model* a;
    sw_diag d;
    SW_CHECK_EQ_INT(load_animation(data, sizeof data, accessors, animation, &a, &d), SW_OK);
    if (!a) {
        fprintf(stderr, "  %s\n", d.message);
        return;
    }
    SW_CHECK_EQ_INT(a->animation_count, 1);
    const sw_clip* c = &a->animations[0];
    SW_CHECK(strcmp(c->name, "a") == 0);
    SW_CHECK_EQ_INT(c->track_count, 2);
    SW_CHECK(c->start == 0.5f && c->duration == 1.0f);
    const sw_track* t = &c->tracks[0];
    SW_CHECK(t->target == a->node_from_source[0] && t->path == SW_PATH_ROTATION && t->interpolation == SW_INTERP_LINEAR);
    SW_CHECK(t->component_count == 4 && t->key_count == 2 && t->times[0] == 0.5f && t->times[1] == 1.0f);
    SW_CHECK(t->values[3] == 1.0f && t->values[0] == 0.0f);
    SW_CHECK_NEAR(t->values[5], 0.6, 1e-7);
    SW_CHECK_NEAR(t->values[7], 0.8, 1e-7);
    t = &c->tracks[1];
    SW_CHECK(t->target == a->node_from_source[1] && t->path == SW_PATH_TRANSLATION && t->interpolation == SW_INTERP_STEP);
    SW_CHECK(t->values[0] == 1.0f && t->values[5] == 6.0f);
    SW_CHECK(has_warning(a, "channels[1].target.node: nodes[99] does not exist"));
    SW_CHECK(has_warning(a, "channels[2].target: no node"));
    SW_CHECK(has_warning(a, "channels[3].target.path: 'pointer' is not supported"));
    SW_CHECK(has_warning(a, "channels[4].target: weights of nodes[0]"));
    /* node 1's matrix (x → 2y, y → -3x, z → 4z, translation (1,2,3)) is
       Rz(90°)·S(2,3,4): decomposed because a channel animates it */
    const sw_model_node* n = &a->nodes[a->node_from_source[1]];
    SW_CHECK(!n->has_matrix && has_warning(a, "nodes[1]: animated but given as a matrix"));
    SW_CHECK_NEAR(n->trs.translation.x, 1.0, 1e-6);
    SW_CHECK_NEAR(n->trs.translation.z, 3.0, 1e-6);
    SW_CHECK_NEAR(n->trs.scale.x, 2.0, 1e-5);
    SW_CHECK_NEAR(n->trs.scale.y, 3.0, 1e-5);
    SW_CHECK_NEAR(n->trs.scale.z, 4.0, 1e-5);
    SW_CHECK_NEAR(fabs(n->trs.rotation.z), sqrt(0.5), 1e-6);
    SW_CHECK_NEAR(fabs(n->trs.rotation.w), sqrt(0.5), 1e-6);
    SW_CHECK(n->trs.rotation.z * n->trs.rotation.w > 0.0f);
    sw_model_free(a);

    /* times not strictly increasing; negative; output count mismatch; unknown interpolation */
    const float equal[] = {0.5f, 0.5f, 0, 0, 0, 1, 0, 0, 0, 1, 1, 2, 3, 4, 5, 6};
    const char* one = "{\"samplers\":[{\"input\":0,\"output\":1}],"
                      "\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"rotation\"}}]}";
    SW_CHECK_EQ_INT(load_animation(equal, sizeof equal, accessors, one, &a, &d), SW_ERR_INVALID_DATA);
    SW_CHECK(strstr(d.message, "animations[0].samplers[0].input") && strstr(d.message, "strictly increasing"));
    const float negative[] = {-0.5f, 0.5f, 0, 0, 0, 1, 0, 0, 0, 1, 1, 2, 3, 4, 5, 6};
    SW_CHECK_EQ_INT(load_animation(negative, sizeof negative, accessors, one, &a, &d), SW_ERR_INVALID_DATA);
    SW_CHECK(strstr(d.message, "samplers[0].input") && strstr(d.message, ">= 0"));
    const char* mismatch = "{\"samplers\":[{\"input\":0,\"output\":1,\"interpolation\":\"CUBICSPLINE\"}],"
                           "\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"rotation\"}}]}";
    SW_CHECK_EQ_INT(load_animation(data, sizeof data, accessors, mismatch, &a, &d), SW_ERR_INVALID_DATA);
    SW_CHECK(strstr(d.message, "samplers[0].output") && strstr(d.message, "need 6"));
    const char* bad_interp = "{\"samplers\":[{\"input\":0,\"output\":1,\"interpolation\":\"SMOOTH\"}],"
                             "\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"rotation\"}}]}";
    SW_CHECK_EQ_INT(load_animation(data, sizeof data, accessors, bad_interp, &a, &d), SW_ERR_INVALID_DATA);
    SW_CHECK(strstr(d.message, "samplers[0].interpolation"));
    const char* bad_type = "{\"samplers\":[{\"input\":0,\"output\":2}],"
                           "\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"rotation\"}}]}";
    SW_CHECK_EQ_INT(load_animation(data, sizeof data, accessors, bad_type, &a, &d), SW_ERR_INVALID_DATA);
    SW_CHECK(strstr(d.message, "is VEC3; expected VEC4"));
}

static void test_cubic_spline(void) {
    /* 2 keys at 0 and 2 s; rotation triplets (in, value, out): tangents
       (1,1,1,1) stay as they are, values (0,0,0,2) and (0,0,4,3) are normalised
       to (0,0,0,1) and (0,0,0.8,0.6). */
    const float data[] = {0, 2,
                          1, 1, 1, 1, 0, 0, 0, 2, 1, 1, 1, 1,
                          1, 1, 1, 1, 0, 0, 4, 3, 1, 1, 1, 1};
    const char* accessors =
        "{\"bufferView\":0,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\"},"
        "{\"bufferView\":0,\"byteOffset\":8,\"componentType\":5126,\"count\":6,\"type\":\"VEC4\"}";
    const char* animation = "{\"samplers\":[{\"input\":0,\"output\":1,\"interpolation\":\"CUBICSPLINE\"}],"
                            "\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"rotation\"}}]}";
    sw_model* a;
    sw_diag d;
    SW_CHECK_EQ_INT(load_animation(data, sizeof data, accessors, animation, &a, &d), SW_OK);
    if (!a) return;
    const sw_track* t = &a->animations[0].tracks[0];
    SW_CHECK(t->interpolation == SW_INTERP_CUBICSPLINE && t->key_count == 2 && t->component_count == 4);
    SW_CHECK(a->animations[0].name == NULL && a->animations[0].duration == 2.0f && a->animations[0].start == 0.0f);
    const float expect[24] = {1, 1, 1, 1, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0.8f, 0.6f, 1, 1, 1, 1};
    for (int i = 0; i < 24; i++) SW_CHECK_NEAR(t->values[i], expect[i], 1e-7);
    sw_model_free(a);
}

/* Rotation keys as normalised SHORTs: (0, 0, 32767, 32767) → (0, 0, √½, √½);
   (0, -32768, 0, 0) → (0, -1, 0, 0) (max(c/32767, -1)). */
static void test_normalised_keys(void) {
    uint8_t data[24];
    const float times[2] = {0, 1};
    const int16_t keys[8] = {0, 0, 32767, 32767, 0, -32768, 0, 0};
    memcpy(data, times, 8);
    memcpy(data + 8, keys, 16);
    const char* accessors =
        "{\"bufferView\":0,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\"},"
        "{\"bufferView\":0,\"byteOffset\":8,\"componentType\":5122,\"normalized\":true,\"count\":2,\"type\":\"VEC4\"}";
    const char* animation = "{\"samplers\":[{\"input\":0,\"output\":1}],"
                            "\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"rotation\"}}]}";
    sw_model* a;
    sw_diag d;
    SW_CHECK_EQ_INT(load_animation(data, sizeof data, accessors, animation, &a, &d), SW_OK);
    if (!a) return;
    const float* v = a->animations[0].tracks[0].values;
    SW_CHECK(v[0] == 0.0f && v[1] == 0.0f);
    SW_CHECK_NEAR(v[2], sqrt(0.5), 1e-7);
    SW_CHECK_NEAR(v[3], sqrt(0.5), 1e-7);
    SW_CHECK(v[4] == 0.0f && v[5] == -1.0f && v[6] == 0.0f && v[7] == 0.0f);
    sw_model_free(a);
    /* a VEC4 output cannot drive a translation */
    const char* translation = "{\"samplers\":[{\"input\":0,\"output\":1}],"
                              "\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}}]}";
    SW_CHECK_EQ_INT(load_animation(data, sizeof data, accessors, translation, &a, &d), SW_ERR_INVALID_DATA);
    SW_CHECK(strstr(d.message, "animations[0].samplers[0].output: accessors[1] is VEC4; expected VEC3"));
}

/* ---- files and paths ------------------------------------------------------------------ */

static char tmp_dir[256];

static void write_file(const char* name, const void* data, size_t size) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", tmp_dir, name);
    FILE* f = fopen(path, "wb");
    SW_CHECK(f != NULL);
    if (!f) return;
    fwrite(data, 1, size, f);
    fclose(f);
}

static void write_gltf(const char* name, const char* uri) {
    doc d = {0};
    add(&d, "{%s,\"buffers\":[{\"byteLength\":12,\"uri\":\"%s\"}],\"bufferViews\":[{\"buffer\":0,\"byteLength\":12}],"
            "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":1,\"type\":\"VEC3\"}],"
            "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0}}]}]}",
        header, uri);
    write_file(name, d.text, d.size);
}

/* Loads tmp_dir/name; on success checks the position read from the buffer. */
static sw_result load_tmp(const char* name, bool allow_outside, float expect_x, sw_diag* d) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", tmp_dir, name);
    sw_model* a;
    sw_result r = sw_gltf_load_file(path, &(sw_gltf_options){.allow_outside_paths = allow_outside}, &a, d);
    if (r == SW_OK) {
        SW_CHECK(a->meshes[0].primitives[0].positions[0] == expect_x);
        SW_CHECK(strcmp(a->path, path) == 0);
        sw_model_free(a);
    }
    return r;
}

static void test_external_files(void) {
    snprintf(tmp_dir, sizeof tmp_dir, "/tmp/sinew_gltf_XXXXXX");
    if (!mkdtemp(tmp_dir)) SW_SKIP("mkdtemp failed");
    char sub[300];
    snprintf(sub, sizeof sub, "%s/sub", tmp_dir);
    mkdir(sub, 0700);
    char sub_a[320];
    snprintf(sub_a, sizeof sub_a, "%s/a", sub);
    mkdir(sub_a, 0700);
    const float x1[3] = {1, 0, 0}, x2[3] = {2, 0, 0}, x3[3] = {3, 0, 0};
    write_file("x.bin", x1, 12);
    write_file("my file.bin", x2, 12);
    write_file("sub/y.bin", x3, 12);
    char absolute[400];
    snprintf(absolute, sizeof absolute, "%s/x.bin", tmp_dir);
    write_gltf("plain.gltf", "x.bin");
    write_gltf("space.gltf", "my%20file.bin");
    write_gltf("dotdot_inside.gltf", "sub/../x.bin");
    write_gltf("sub/y.gltf", "./y.bin");
    write_gltf("sub/up.gltf", "../x.bin");
    write_gltf("sub/deep.gltf", "a/../../x.bin");
    write_gltf("sub/absolute.gltf", absolute);
    write_gltf("sub/passwd.gltf", "/etc/passwd");
    write_gltf("missing.gltf", "nothere.bin");
    write_gltf("http.gltf", "http://example.com/x.bin");
    write_gltf("bad_escape.gltf", "x%2.bin");

    sw_diag d;
    SW_CHECK_EQ_INT(load_tmp("plain.gltf", false, 1.0f, &d), SW_OK);
    SW_CHECK_EQ_INT(load_tmp("space.gltf", false, 2.0f, &d), SW_OK);
    SW_CHECK_EQ_INT(load_tmp("dotdot_inside.gltf", false, 1.0f, &d), SW_OK);
    SW_CHECK_EQ_INT(load_tmp("sub/y.gltf", false, 3.0f, &d), SW_OK);
    SW_CHECK_EQ_INT(load_tmp("sub/up.gltf", false, 0.0f, &d), SW_ERR_INVALID_DATA);
    SW_CHECK(strstr(d.message, "up.gltf: buffers[0].uri: '../x.bin' leaves the asset's folder"));
    SW_CHECK_EQ_INT(load_tmp("sub/up.gltf", true, 1.0f, &d), SW_OK);
    SW_CHECK_EQ_INT(load_tmp("sub/deep.gltf", false, 0.0f, &d), SW_ERR_INVALID_DATA);
    SW_CHECK_EQ_INT(load_tmp("sub/deep.gltf", true, 1.0f, &d), SW_OK);
    SW_CHECK_EQ_INT(load_tmp("sub/absolute.gltf", false, 0.0f, &d), SW_ERR_INVALID_DATA);
    SW_CHECK(strstr(d.message, "is an absolute path"));
    SW_CHECK_EQ_INT(load_tmp("sub/absolute.gltf", true, 1.0f, &d), SW_OK);
    SW_CHECK_EQ_INT(load_tmp("sub/passwd.gltf", false, 0.0f, &d), SW_ERR_INVALID_DATA);
    SW_CHECK(strstr(d.message, "'/etc/passwd' is an absolute path"));
    SW_CHECK_EQ_INT(load_tmp("missing.gltf", false, 0.0f, &d), SW_ERR_IO);
    SW_CHECK(strstr(d.message, "missing.gltf: buffers[0]: 'nothere.bin': cannot open"));
    SW_CHECK_EQ_INT(load_tmp("http.gltf", false, 0.0f, &d), SW_ERR_UNSUPPORTED);
    SW_CHECK_EQ_INT(load_tmp("bad_escape.gltf", false, 0.0f, &d), SW_ERR_INVALID_DATA);
    SW_CHECK_EQ_INT(load_tmp("not_a_file.gltf", false, 0.0f, &d), SW_ERR_IO);
    SW_CHECK(strstr(d.message, "not_a_file.gltf: cannot open"));
    SW_CHECK_EQ_INT(load_tmp("sub", false, 0.0f, &d), SW_ERR_IO); /* a folder */

    /* memory loads: external files need a base folder */
    char json[1024];
    snprintf(
        json, sizeof json,
        "{%s,\"buffers\":[{\"byteLength\":12,\"uri\":\"x.bin\"}],\"bufferViews\":[{\"buffer\":0,\"byteLength\":12}],"
        "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":1,\"type\":\"VEC3\"}],"
        "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0}}]}]}",
        header);
    sw_model* a;
    SW_CHECK_EQ_INT(sw_gltf_load_memory(json, strlen(json), NULL, NULL, NULL, &a, &d), SW_ERR_IO);
    SW_CHECK(strstr(d.message, "<memory>: buffers[0].uri") && strstr(d.message, "no base folder"));
    SW_CHECK_EQ_INT(sw_gltf_load_memory(json, strlen(json), "m", tmp_dir, NULL, &a, &d), SW_OK);
    if (a) {
        SW_CHECK(a->meshes[0].primitives[0].positions[0] == 1.0f && strcmp(a->path, "m") == 0);
        sw_model_free(a);
    }
    /* memory limit: the 12-byte file fits in the default, not in 1 KiB */
    SW_CHECK_EQ_INT(sw_gltf_load_memory(json, strlen(json), "m", tmp_dir, &(sw_gltf_options){.max_memory = 1024}, &a,
                                        &d),
                    SW_ERR_OUT_OF_MEMORY);
    SW_CHECK(strstr(d.message, "max_memory"));

    /* images: a 2 × 1 PNG (red, green; RGB, zlib-compressed) from a file, a data: URI and a bufferView */
    const char png[] = "\x89\x50\x4e\x47\x0d\x0a\x1a\x0a\x00\x00\x00\x0d\x49\x48\x44\x52\x00\x00\x00\x02\x00\x00\x00\x01\x08\x02\x00\x00\x00\x7b\x40\xe8\xdd\x00\x00\x00\x0f\x49\x44\x41\x54\x78\x9c\x63\xf8\xcf\xc0\xc0\xf0\x9f\x01\x00\x07\xff\x01\xff\x01\x7f\x89\xa7\x00\x00\x00\x00\x49\x45\x4e\x44\xae\x42\x60\x82";
    const size_t png_size = sizeof png - 1;
    write_file("img.png", png, png_size);
    bytes b = {0};
    put(&b, png, png_size, 1);
    doc g = {0};
    add(&g,
        "{%s,\"buffers\":[{\"byteLength\":%zu,\"uri\":\"%s\"}],\"bufferViews\":[{\"buffer\":0,\"byteLength\":%zu}],",
        header, b.size, data_uri(&b), b.size);
    add(&g, "\"images\":[{\"uri\":\"img.png\"},{\"uri\":\"data:image/png;base64,");
    base64((const uint8_t*)png, png_size, g.text + g.size);
    g.size += strlen(g.text + g.size);
    add(&g, "\"},{\"bufferView\":0,\"mimeType\":\"image/png\"},{\"uri\":\"none.png\"},"
            "{\"uri\":\"../img.png\"}]}");
    write_file("images.gltf", g.text, g.size);
    char path[512];
    snprintf(path, sizeof path, "%s/images.gltf", tmp_dir);
    SW_CHECK_EQ_INT(sw_gltf_load_file(path, NULL, &a, &d), SW_OK);
    if (a) {
        /* the bufferView image: embedded bytes, the bufferView's byteLength of them */
        SW_CHECK(a->images[2].data != NULL && a->images[2].uri == NULL);
        SW_CHECK_EQ_INT(a->images[2].data_size, png_size);
        SW_CHECK(a->images[0].data == NULL && a->images[1].data == NULL);
        for (size_t i = 0; i < 3; i++) {
            uint8_t* px = NULL;
            int w = 0, h = 0;
            SW_CHECK_EQ_INT(sw_model_decode_image(a, i, &px, &w, &h, &d), SW_OK);
            if (!px) continue;
            SW_CHECK(w == 2 && h == 1);
            const uint8_t expect[8] = {255, 0, 0, 255, 0, 255, 0, 255};
            SW_CHECK(memcmp(px, expect, 8) == 0);
            sw_model_image_free(px);
        }
        uint8_t* px = NULL;
        int w, h;
        SW_CHECK_EQ_INT(sw_model_decode_image(a, 3, &px, &w, &h, &d), SW_ERR_IO);
        SW_CHECK(strstr(d.message, "none.png") && px == NULL);
        SW_CHECK_EQ_INT(sw_model_decode_image(a, 4, &px, &w, &h, &d), SW_ERR_INVALID_DATA);
        SW_CHECK(strstr(d.message, "leaves the asset's folder"));
        sw_model_free(a);
    }

    const char* names[] = {"x.bin", "my file.bin", "sub/y.bin", "plain.gltf", "space.gltf", "dotdot_inside.gltf",
                           "sub/y.gltf", "sub/up.gltf", "sub/deep.gltf", "sub/absolute.gltf", "sub/passwd.gltf",
                           "missing.gltf", "http.gltf", "bad_escape.gltf", "img.png", "images.gltf"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", tmp_dir, names[i]);
        remove(path);
    }
    rmdir(sub_a);
    rmdir(sub);
    rmdir(tmp_dir);
}

static void test_arguments(void) {
    sw_model* a = (sw_model*)1;
    sw_diag d;
    SW_CHECK_EQ_INT(sw_gltf_load_memory(NULL, 4, "x", NULL, NULL, &a, &d), SW_ERR_INVALID_ARGUMENT);
    SW_CHECK(a == NULL);
    SW_CHECK_EQ_INT(sw_gltf_load_file(NULL, NULL, &a, &d), SW_ERR_INVALID_ARGUMENT);
    SW_CHECK_EQ_INT(sw_gltf_load_memory("", 0, "x", NULL, NULL, &a, &d), SW_ERR_INVALID_DATA);
    SW_CHECK(strstr(d.message, "x: empty file"));
    SW_CHECK_EQ_INT(sw_gltf_load_memory("\x89PNG\r\n", 6, "x", NULL, NULL, &a, &d), SW_ERR_INVALID_DATA);
    SW_CHECK(strstr(d.message, "not a glTF file"));
    /* diag may be NULL */
    SW_CHECK_EQ_INT(sw_gltf_load_memory("{}", 2, "x", NULL, NULL, &a, NULL), SW_ERR_INVALID_DATA);
    sw_model_free(NULL);
}

int main(void) {
    SW_RUN(test_component_types);
    SW_RUN(test_accessor_rules);
    SW_RUN(test_byte_stride);
    SW_RUN(test_sparse);
    SW_RUN(test_data_uri);
    SW_RUN(test_glb);
    SW_RUN(test_truncated);
    SW_RUN(test_json_types);
    SW_RUN(test_extensions);
    SW_RUN(test_materials);
    SW_RUN(test_nodes);
    SW_RUN(test_deep_hierarchy);
    SW_RUN(test_vertex_streams);
    SW_RUN(test_skin_without_inverse_binds);
    SW_RUN(test_normalised_weights);
    SW_RUN(test_many_influences);
    SW_RUN(test_zero_and_negative_weights);
    SW_RUN(test_morph_targets);
    SW_RUN(test_animation_channels);
    SW_RUN(test_cubic_spline);
    SW_RUN(test_normalised_keys);
    SW_RUN(test_external_files);
    SW_RUN(test_arguments);
    return sw_test_finish();
}
