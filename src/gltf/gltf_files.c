/* glTF loader: the GLB container, buffers (GLB BIN chunk, data: URIs,
   files next to the asset) and bufferViews (see gltf_internal.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gltf_internal.h"
#include "../base/base_internal.h"

/* ---- files and data: URIs ------------------------------------------------------------ */

/* sw__read_file's allocators: into the asset, or a charged temporary. */
static void* sw__file_alloc(void* user, size_t size) {
    sw__loader* L = user;
    return sw__arena_alloc(L, L->arena, size);
}

void* sw__file_alloc_temp(void* user, size_t size) { return sw__temp_alloc(user, size, 1); }
void sw__file_free_temp(void* user, void* ptr) { sw__temp_free(user, ptr); }

sw_result sw_gltf_decode_data_uri(const char* uri, size_t uri_length, void* out, size_t capacity,
                                  size_t* out_size, sw_diag* diag) {
    return sw__decode_data_uri(uri, uri_length, out, capacity, out_size, diag);
}

/* ---- the GLB container --------------------------------------------------------------- */

static uint32_t sw__read_u32(const uint8_t* p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The GLB container (glTF 2.0 §4.4): a 12-byte header, a JSON chunk, then
   an optional BIN chunk; chunks of unknown type are skipped. */
sw_result sw__parse_glb(sw__loader* L, const uint8_t* data, size_t size, const char** json, size_t* json_size) {
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

/* ---- buffers and buffer views -------------------------------------------------------- */

static bool sw__is_data_uri(const char* uri) { return strncmp(uri, "data:", 5) == 0; }

sw_result sw__load_buffers(sw__loader* L) {
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
        if (uri && sw__check_uri_text(uri, strlen(uri), &inner) != SW_OK)
            return sw__fail_from(L, sw__at(path.s, "uri").s, &inner);
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
            if (sw__decode_data_uri(uri, length, NULL, 0, &size, &inner) != SW_OK)
                return sw__fail_from(L, sw__at(path.s, "uri").s, &inner);
            uint8_t* decoded = sw__arena_alloc(L, L->arena, size);
            if (!decoded) return L->diag.result;
            if (sw__decode_data_uri(uri, length, decoded, size, &size, &inner) != SW_OK)
                return sw__fail_from(L, sw__at(path.s, "uri").s, &inner);
            data = decoded;
            available = size;
            snprintf(source, sizeof source, "its data: URI");
        } else {
            char* file;
            if (sw__uri_to_path(uri, L->base_dir, L->allow_outside, &file, &inner) != SW_OK)
                return sw__fail_from(L, sw__at(path.s, "uri").s, &inner);
            char label[96];
            snprintf(label, sizeof label, "'%.80s'", uri);
            if (!L->allow_outside) {
                char* real;
                sw_result r = sw__path_inside(file, L->base_dir, label, &real, &inner);
                sw__free(file);
                if (r != SW_OK) return sw__fail_from(L, r == SW_ERR_IO ? path.s : sw__at(path.s, "uri").s, &inner);
                file = real;
            }
            /* byteLength bytes at most: a larger file is not read whole */
            uint8_t* bytes;
            sw_result r = sw__read_file(file, label, L->max_memory - L->used, byte_length, sw__file_alloc, NULL, L,
                                        &bytes, &available, &inner);
            sw__free(file);
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

sw_result sw__parse_buffer_views(sw__loader* L) {
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
