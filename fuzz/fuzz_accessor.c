/* libFuzzer target: the accessor decoder (gltf_accessor.c) through its
   internal API, sparse accessors included. The first 21 bytes describe an
   accessor, the rest is the buffer its three byte ranges (elements, sparse
   indices, sparse values) are cut from; each range is copied into a heap
   block of exactly its size, so a read that sw__gltf_accessor_check should
   have refused is an ASan error.

     0      componentType (low bits pick one of the six; bit 7: normalized)
     1      element type (SCALAR..MAT4; bit 7: raw columns/rows, bits 4-6/0-2)
     2-3    count (little-endian)
     4      byteStride
     5-8    elements: offset, size into the buffer (u16 each)
     9      bit 0: no bufferView (all zeros); bit 1: sparse
     10-11  sparse count
     12     sparse index componentType (low bits: UBYTE/USHORT/UINT; bit 7: raw)
     13-16  sparse indices: offset, size
     17-20  sparse values: offset, size

   An accessor the check accepts is decoded to floats (and, for unsigned
   types, to uints) and compared with a second decoder written here from the
   spec (§3.6.2: little-endian components, columns padded to 4 bytes,
   normalisation formulas, sparse values replacing elements). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../src/gltf/gltf_internal.h"
#include "fuzz_check.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

enum { HEADER = 21 };

static size_t u16le(const uint8_t* p) { return (size_t)p[0] | (size_t)p[1] << 8; }

/* A range of the payload in its own exact-size block (NULL when empty). */
static uint8_t* cut(const uint8_t* payload, size_t payload_size, const uint8_t* spec, size_t* out_size) {
    size_t offset = u16le(spec), size = u16le(spec + 2);
    if (offset > payload_size) offset = payload_size;
    if (size > payload_size - offset) size = payload_size - offset;
    *out_size = size;
    if (size == 0) return NULL;
    uint8_t* block = malloc(size);
    FUZZ_REQUIRE(block);
    memcpy(block, payload + offset, size);
    return block;
}

static uint64_t le(const uint8_t* p, size_t n) {
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) v |= (uint64_t)p[i] << (8 * i);
    return v;
}

/* The spec's decoding of one component. */
static double reference_component(const uint8_t* p, uint32_t type, bool normalized) {
    switch (type) {
    case SW__GLTF_BYTE: {
        double c = (double)(int8_t)p[0];
        return normalized ? fmax(c / 127.0, -1.0) : c;
    }
    case SW__GLTF_UNSIGNED_BYTE: return normalized ? p[0] / 255.0 : p[0];
    case SW__GLTF_SHORT: {
        double c = (double)(int16_t)(uint16_t)le(p, 2);
        return normalized ? fmax(c / 32767.0, -1.0) : c;
    }
    case SW__GLTF_UNSIGNED_SHORT: return normalized ? (double)le(p, 2) / 65535.0 : (double)le(p, 2);
    case SW__GLTF_UNSIGNED_INT: return (double)le(p, 4);
    default: {
        uint32_t bits = (uint32_t)le(p, 4);
        float f;
        memcpy(&f, &bits, 4);
        return f;
    }
    }
}

/* Element i of the accessor as the spec reads it, into out[columns × rows]. */
static void reference_element(const sw__gltf_accessor* a, size_t i, double* out) {
    size_t component = sw__gltf_component_size(a->component_type);
    size_t column = a->rows * component;
    if (a->columns > 1) column = (column + 3) / 4 * 4;
    size_t element = column * a->columns, stride = a->stride ? a->stride : element;
    const uint8_t* base = NULL;
    /* the last sparse entry for element i wins; indices are increasing, so there is at most one */
    for (size_t k = 0; k < a->sparse_count; k++) {
        size_t index_size = sw__gltf_component_size(a->sparse_index_type);
        if (le(a->sparse_indices + k * index_size, index_size) == i) base = a->sparse_values + k * element;
    }
    if (!base && a->data) base = a->data + i * stride;
    for (uint32_t c = 0; c < a->columns; c++)
        for (uint32_t r = 0; r < a->rows; r++)
            out[c * a->rows + r] =
                base ? reference_component(base + c * column + r * component, a->component_type, a->normalized) : 0.0;
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const uint32_t components[6] = {SW__GLTF_BYTE,           SW__GLTF_UNSIGNED_BYTE, SW__GLTF_SHORT,
                                           SW__GLTF_UNSIGNED_SHORT, SW__GLTF_UNSIGNED_INT,  SW__GLTF_FLOAT};
    static const uint32_t shapes[7][2] = {{1, 1}, {1, 2}, {1, 3}, {1, 4}, {2, 2}, {3, 3}, {4, 4}};
    static const uint32_t index_types[3] = {SW__GLTF_UNSIGNED_BYTE, SW__GLTF_UNSIGNED_SHORT, SW__GLTF_UNSIGNED_INT};
    if (size < HEADER) return 0;
    const uint8_t* h = data;
    const uint8_t* payload = data + HEADER;
    size_t payload_size = size - HEADER;

    sw__gltf_accessor a = {0};
    a.component_type = components[(h[0] & 0x7f) % 6];
    a.normalized = h[0] & 0x80;
    if (h[1] & 0x80) {
        a.columns = (h[1] >> 4) & 7;
        a.rows = h[1] & 7;
    } else {
        a.columns = shapes[h[1] % 7][0];
        a.rows = shapes[h[1] % 7][1];
    }
    a.count = u16le(h + 2);
    a.stride = h[4];
    uint8_t* elements = cut(payload, payload_size, h + 5, &a.data_size);
    uint8_t* indices = NULL;
    uint8_t* values = NULL;
    a.data = elements;
    if (h[9] & 1) {
        a.data = NULL;
        a.data_size = 0;
    } else if (!a.data) {
        /* an empty range is still a bufferView: point at a zero-size block */
        elements = malloc(1);
        FUZZ_REQUIRE(elements);
        a.data = elements;
    }
    if (h[9] & 2) {
        a.sparse_count = u16le(h + 10);
        a.sparse_index_type = h[12] & 0x80 ? 5120u + (h[12] & 7) : index_types[h[12] % 3];
        indices = cut(payload, payload_size, h + 13, &a.sparse_indices_size);
        values = cut(payload, payload_size, h + 17, &a.sparse_values_size);
        a.sparse_indices = indices;
        a.sparse_values = values;
    }

    sw_diag diag;
    if (sw__gltf_accessor_check(&a, &diag) == SW_OK) {
        size_t n = (size_t)a.columns * a.rows;
        float* floats = malloc(a.count * n * sizeof *floats);
        uint32_t* uints = malloc(a.count * n * sizeof *uints);
        double* expected = malloc(a.count * n * sizeof *expected);
        FUZZ_REQUIRE(floats && uints && expected);
        for (size_t i = 0; i < a.count; i++) reference_element(&a, i, expected + i * n);
        bool finite = true;
        for (size_t i = 0; i < a.count * n; i++) finite = finite && isfinite(expected[i]);
        sw_result r = sw__gltf_accessor_read_floats(&a, floats, &diag);
        FUZZ_REQUIRE(r == (finite ? SW_OK : SW_ERR_INVALID_DATA));
        if (r == SW_OK)
            for (size_t i = 0; i < a.count * n; i++) {
                double tolerance = a.normalized ? 1e-6 : 0.0;
                if (!(fabs((double)floats[i] - (double)(float)expected[i]) <= tolerance)) {
                    fprintf(stderr, "component %zu: decoded %.9g, the spec says %.9g\n", i, (double)floats[i],
                            expected[i]);
                    FUZZ_REQUIRE(!"floats match the reference decoder");
                }
            }
        bool unsigned_type = a.component_type == SW__GLTF_UNSIGNED_BYTE ||
                             a.component_type == SW__GLTF_UNSIGNED_SHORT || a.component_type == SW__GLTF_UNSIGNED_INT;
        r = sw__gltf_accessor_read_uints(&a, uints, &diag);
        FUZZ_REQUIRE(r == (unsigned_type ? SW_OK : SW_ERR_INVALID_DATA));
        if (r == SW_OK && !a.normalized)
            for (size_t i = 0; i < a.count * n; i++) FUZZ_REQUIRE((double)uints[i] == expected[i]);
        free(floats);
        free(uints);
        free(expected);
    } else {
        FUZZ_REQUIRE(diag.result != SW_OK && diag.message[0]);
    }
    free(elements);
    free(indices);
    free(values);
    return 0;
}
