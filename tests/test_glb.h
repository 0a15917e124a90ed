/* A GLB container around a JSON text and a binary chunk, for the tests'
   generated files: the JSON padded with spaces, the binary with zeros, to
   4 bytes (the glTF 2.0 binary format). A block for free(), or NULL. */
#ifndef SINEW_TEST_GLB_H
#define SINEW_TEST_GLB_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static inline void test_glb_u32(uint8_t* p, uint32_t v) {
    p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16), p[3] = (uint8_t)(v >> 24);
}

static inline uint8_t* test_glb_pack(const char* json, const void* bin, size_t bin_size, size_t* out_size) {
    const size_t json_len = strlen(json), json_pad = (json_len + 3) & ~(size_t)3;
    const size_t bin_pad = (bin_size + 3) & ~(size_t)3;
    const size_t total = 12 + 8 + json_pad + 8 + bin_pad;
    uint8_t* out = calloc(1, total);
    if (!out) return NULL;
    memcpy(out, "glTF", 4);
    test_glb_u32(out + 4, 2);
    test_glb_u32(out + 8, (uint32_t)total);
    test_glb_u32(out + 12, (uint32_t)json_pad);
    memcpy(out + 16, "JSON", 4);
    memcpy(out + 20, json, json_len);
    memset(out + 20 + json_len, ' ', json_pad - json_len);
    uint8_t* chunk = out + 20 + json_pad;
    test_glb_u32(chunk, (uint32_t)bin_pad);
    memcpy(chunk + 4, "BIN\0", 4);
    if (bin_size) memcpy(chunk + 8, bin, bin_size);
    *out_size = total;
    return out;
}

#endif
