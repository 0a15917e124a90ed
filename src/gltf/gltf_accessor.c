/* glTF accessor decoding (see gltf_internal.h).

   Nothing here knows about JSON or the asset, so the decoder can be lifted
   on its own: fill an sw__gltf_accessor, check it, read it. glTF data is
   little-endian; components are assembled byte by byte, so neither the
   host's byte order nor the data's alignment matters. */
#include <math.h>
#include <string.h>

#include "gltf_internal.h"

size_t sw__gltf_component_size(uint32_t component_type) {
    switch (component_type) {
    case SW__GLTF_BYTE:
    case SW__GLTF_UNSIGNED_BYTE: return 1;
    case SW__GLTF_SHORT:
    case SW__GLTF_UNSIGNED_SHORT: return 2;
    case SW__GLTF_UNSIGNED_INT:
    case SW__GLTF_FLOAT: return 4;
    default: return 0;
    }
}

/* Matrix columns start on 4-byte boundaries (§3.6.2.4): MAT2 and MAT3 of
   bytes, and MAT3 of shorts, carry padding after each column. */
static size_t sw__column_stride(const sw__gltf_accessor* a) {
    size_t bytes = a->rows * sw__gltf_component_size(a->component_type);
    return a->columns > 1 ? (bytes + 3u) & ~(size_t)3u : bytes;
}

size_t sw__gltf_element_size(const sw__gltf_accessor* a) { return a->columns * sw__column_stride(a); }

static uint32_t sw__u16(const uint8_t* p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }
static uint32_t sw__u32(const uint8_t* p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint32_t sw__read_uint(const uint8_t* p, uint32_t type) {
    switch (type) {
    case SW__GLTF_UNSIGNED_BYTE: return p[0];
    case SW__GLTF_UNSIGNED_SHORT: return sw__u16(p);
    default: return sw__u32(p);
    }
}

static float sw__read_float(const uint8_t* p, uint32_t type, bool normalized) {
    switch (type) {
    case SW__GLTF_BYTE: {
        int8_t v = (int8_t)p[0];
        return normalized ? sw_snorm8_to_float(v) : (float)v;
    }
    case SW__GLTF_UNSIGNED_BYTE: return normalized ? sw_unorm8_to_float(p[0]) : (float)p[0];
    case SW__GLTF_SHORT: {
        uint32_t bits = sw__u16(p);
        int16_t v = (int16_t)(bits >= 0x8000u ? (int32_t)bits - 0x10000 : (int32_t)bits);
        return normalized ? sw_snorm16_to_float(v) : (float)v;
    }
    case SW__GLTF_UNSIGNED_SHORT: {
        uint16_t v = (uint16_t)sw__u16(p);
        return normalized ? sw_unorm16_to_float(v) : (float)v;
    }
    case SW__GLTF_UNSIGNED_INT: return (float)sw__u32(p);
    default: {
        uint32_t bits = sw__u32(p);
        float f;
        memcpy(&f, &bits, sizeof f);
        return f;
    }
    }
}

static void sw__read_element_floats(const sw__gltf_accessor* a, const uint8_t* src, float* out) {
    size_t component = sw__gltf_component_size(a->component_type), column = sw__column_stride(a);
    for (uint32_t c = 0; c < a->columns; c++)
        for (uint32_t r = 0; r < a->rows; r++)
            out[c * a->rows + r] = sw__read_float(src + c * column + r * component, a->component_type, a->normalized);
}

static void sw__read_element_uints(const sw__gltf_accessor* a, const uint8_t* src, uint32_t* out) {
    size_t component = sw__gltf_component_size(a->component_type), column = sw__column_stride(a);
    for (uint32_t c = 0; c < a->columns; c++)
        for (uint32_t r = 0; r < a->rows; r++)
            out[c * a->rows + r] = sw__read_uint(src + c * column + r * component, a->component_type);
}

/* Does `count` items of `size` bytes, `stride` apart, fit in `available` bytes? */
static bool sw__fits(size_t count, size_t size, size_t stride, size_t available) {
    size_t span;
    if (count == 0) return true;
    if (!sw_mul_size(count - 1, stride, &span) || span > SIZE_MAX - size) return false;
    return span + size <= available;
}

sw_result sw__gltf_accessor_check(const sw__gltf_accessor* a, sw_diag* diag) {
    size_t component = sw__gltf_component_size(a->component_type);
    if (component == 0)
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "componentType %u is not a glTF 2.0 component type",
                           (unsigned)a->component_type);
    if (a->columns < 1 || a->columns > 4 || a->rows < 1 || a->rows > 4 || (a->columns > 1 && a->columns != a->rows))
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "unknown element type (%u columns of %u)",
                           (unsigned)a->columns, (unsigned)a->rows);
    if (a->count == 0) return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "count is 0");
    if (a->normalized && (a->component_type == SW__GLTF_FLOAT || a->component_type == SW__GLTF_UNSIGNED_INT))
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "normalized is not allowed for %s components",
                           a->component_type == SW__GLTF_FLOAT ? "FLOAT" : "UNSIGNED_INT");
    size_t element = sw__gltf_element_size(a);
    size_t stride = a->stride ? a->stride : element;
    if (stride < element)
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "byteStride %zu is smaller than one element (%zu bytes)",
                           stride, element);
    if (a->data && !sw__fits(a->count, element, stride, a->data_size))
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1,
                           "%zu elements of %zu bytes, %zu apart, do not fit in the %zu bytes of the bufferView "
                           "after byteOffset",
                           a->count, element, stride, a->data_size);
    if (a->sparse_count == 0) return SW_OK;

    if (a->sparse_count > a->count)
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "sparse.count %zu exceeds count %zu", a->sparse_count,
                           a->count);
    if (a->sparse_index_type != SW__GLTF_UNSIGNED_BYTE && a->sparse_index_type != SW__GLTF_UNSIGNED_SHORT &&
        a->sparse_index_type != SW__GLTF_UNSIGNED_INT)
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1,
                           "sparse.indices.componentType %u is not UNSIGNED_BYTE, UNSIGNED_SHORT or UNSIGNED_INT",
                           (unsigned)a->sparse_index_type);
    size_t index_size = sw__gltf_component_size(a->sparse_index_type);
    if (!a->sparse_indices || !sw__fits(a->sparse_count, index_size, index_size, a->sparse_indices_size))
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1,
                           "sparse.indices: %zu indices of %zu bytes do not fit in their bufferView",
                           a->sparse_count, index_size);
    if (!a->sparse_values || !sw__fits(a->sparse_count, element, element, a->sparse_values_size))
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1,
                           "sparse.values: %zu elements of %zu bytes do not fit in their bufferView", a->sparse_count,
                           element);
    uint32_t previous = 0;
    for (size_t k = 0; k < a->sparse_count; k++) {
        uint32_t index = sw__read_uint(a->sparse_indices + k * index_size, a->sparse_index_type);
        if (index >= a->count)
            return sw_diag_set(diag, SW_ERR_INDEX_OUT_OF_RANGE, (int64_t)k,
                               "sparse.indices[%zu] = %u is out of range (count %zu)", k, (unsigned)index, a->count);
        if (k > 0 && index <= previous)
            return sw_diag_set(diag, SW_ERR_INVALID_DATA, (int64_t)k,
                               "sparse.indices are not strictly increasing (%u after %u at %zu)", (unsigned)index,
                               (unsigned)previous, k);
        previous = index;
    }
    return SW_OK;
}

sw__gltf_accessor sw__gltf_accessor_prefix(const sw__gltf_accessor* a, size_t count) {
    sw__gltf_accessor p = *a;
    if (count >= a->count) return p;
    p.count = count;
    /* sparse indices increase strictly: the ones below `count` come first */
    size_t index_size = sw__gltf_component_size(a->sparse_index_type), k = 0;
    while (k < a->sparse_count && sw__read_uint(a->sparse_indices + k * index_size, a->sparse_index_type) < count) k++;
    p.sparse_count = k;
    return p;
}

sw_result sw__gltf_accessor_read_floats(const sw__gltf_accessor* a, float* out, sw_diag* diag) {
    size_t n = (size_t)a->columns * a->rows, element = sw__gltf_element_size(a);
    size_t stride = a->stride ? a->stride : element;
    if (a->data) {
        for (size_t i = 0; i < a->count; i++) sw__read_element_floats(a, a->data + i * stride, out + i * n);
    } else {
        for (size_t i = 0; i < a->count * n; i++) out[i] = 0.0f;
    }
    size_t index_size = sw__gltf_component_size(a->sparse_index_type);
    for (size_t k = 0; k < a->sparse_count; k++) {
        uint32_t index = sw__read_uint(a->sparse_indices + k * index_size, a->sparse_index_type);
        sw__read_element_floats(a, a->sparse_values + k * element, out + (size_t)index * n);
    }
    if (a->component_type == SW__GLTF_FLOAT) {
        for (size_t i = 0; i < a->count * n; i++)
            if (!isfinite(out[i]))
                return sw_diag_set(diag, SW_ERR_INVALID_DATA, (int64_t)(i / n), "element %zu is not finite (%g)",
                                   i / n, (double)out[i]);
    }
    return SW_OK;
}

sw_result sw__gltf_accessor_read_uints(const sw__gltf_accessor* a, uint32_t* out, sw_diag* diag) {
    if (a->component_type != SW__GLTF_UNSIGNED_BYTE && a->component_type != SW__GLTF_UNSIGNED_SHORT &&
        a->component_type != SW__GLTF_UNSIGNED_INT)
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "componentType %u is not an unsigned integer type",
                           (unsigned)a->component_type);
    size_t n = (size_t)a->columns * a->rows, element = sw__gltf_element_size(a);
    size_t stride = a->stride ? a->stride : element;
    if (a->data) {
        for (size_t i = 0; i < a->count; i++) sw__read_element_uints(a, a->data + i * stride, out + i * n);
    } else {
        memset(out, 0, a->count * n * sizeof *out);
    }
    size_t index_size = sw__gltf_component_size(a->sparse_index_type);
    for (size_t k = 0; k < a->sparse_count; k++) {
        uint32_t index = sw__read_uint(a->sparse_indices + k * index_size, a->sparse_index_type);
        sw__read_element_uints(a, a->sparse_values + k * element, out + (size_t)index * n);
    }
    return SW_OK;
}
