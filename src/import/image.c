/* Image decoding for models (sw_model_decode_image, see sinew/model.h):
   the bytes come from the model's memory, a data: URI or a file next to
   the model (with the importer's path rules); stb_image decodes them. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sinew/import.h"
#include "sinew/model.h"
#include "../base/base_internal.h"
#include "../import/file_internal.h"

/* A private, static copy of stb_image with its PNG and JPEG decoders only
   (the two formats core glTF allows; the others are never exposed to
   untrusted files: fuzzing found a crash in the PNM one), allocating
   through sinew's allocator. Debian's libstb exports the same names with
   malloc inside; static, these are this file's. */
#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#define STBI_ONLY_JPEG
#define STBI_NO_STDIO
#define STBI_MALLOC(size) sw__malloc(size)
#define STBI_REALLOC(ptr, size) sw__realloc(ptr, size)
#define STBI_FREE(ptr) sw__free(ptr)
#if defined(__GNUC__)
/* stb declares entry points it leaves undefined without their decoders:
   reported at the end of the file, so ignored for the whole of it. */
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-prototypes"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wsign-compare"
#endif
#include <stb/stb_image.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

static void* sw__image_alloc(void* user, size_t size) {
    (void)user;
    return sw__malloc(size);
}

static void sw__image_release(void* user, void* ptr) {
    (void)user;
    sw__free(ptr);
}

/* stb_image failed: out of memory when an allocation was refused since
   `refusals` (stb says so only sometimes), else the image's fault. */
static sw_result sw__decode_failed(sw_diag* diag, size_t image, size_t refusals) {
    if (sw__allocation_refusals() != refusals)
        return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, (int64_t)image, "images[%zu]: out of memory", image);
    return sw_diag_set(diag, SW_ERR_INVALID_DATA, (int64_t)image, "images[%zu]: cannot decode (%s)", image,
                       stbi_failure_reason());
}

/* Encoded bytes of an image: *owned is set when they were allocated here. */
static sw_result sw__image_bytes(const sw_model* asset, size_t index, const uint8_t** out, size_t* out_size,
                                 uint8_t** owned, sw_diag* diag) {
    const sw_model_image* image = &asset->images[index];
    *owned = NULL;
    if (image->data) {
        *out = image->data;
        *out_size = image->data_size;
        return SW_OK;
    }
    if (!image->uri) return sw_diag_set(diag, SW_ERR_INVALID_DATA, (int64_t)index, "images[%zu]: no uri", index);
    sw_diag inner = {0};
    if (strncmp(image->uri, "data:", 5) == 0) {
        size_t length = strlen(image->uri), size;
        if (sw__decode_data_uri(image->uri, length, NULL, 0, &size, &inner) != SW_OK)
            return sw_diag_set(diag, inner.result, (int64_t)index, "images[%zu].uri: %s", index, inner.message);
        uint8_t* bytes = sw__malloc(size ? size : 1);
        if (!bytes) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, (int64_t)index, "images[%zu]: out of memory", index);
        sw__decode_data_uri(image->uri, length, bytes, size, &size, &inner);
        *owned = bytes;
        *out = bytes;
        *out_size = size;
        return SW_OK;
    }
    char* path;
    if (sw__uri_to_path(image->uri, asset->base_dir, asset->allow_outside_paths, &path, &inner) != SW_OK)
        return sw_diag_set(diag, inner.result, (int64_t)index, "images[%zu].uri: %s", index, inner.message);
    char label[160];
    snprintf(label, sizeof label, "images[%zu]: '%.96s'", index, image->uri);
    if (!asset->allow_outside_paths) {
        /* the same rule as the importer's buffers: no symbolic link out of the folder */
        char* real;
        sw_result r = sw__path_inside(path, asset->base_dir, label, &real, &inner);
        sw__free(path);
        if (r != SW_OK) return sw_diag_set(diag, r, (int64_t)index, "%s", inner.message);
        path = real;
    }
    uint8_t* bytes;
    sw_result r = sw__read_file(path, label, (size_t)INT_MAX, SIZE_MAX, sw__image_alloc, sw__image_release, NULL,
                                &bytes, out_size, &inner);
    sw__free(path);
    if (r != SW_OK) return sw_diag_set(diag, r, (int64_t)index, "%s", inner.message);
    *owned = bytes;
    *out = bytes;
    return SW_OK;
}

sw_result sw_model_decode_image(const sw_model* asset, size_t image, uint8_t** out_pixels, int* out_width,
                               int* out_height, sw_diag* diag) {
    if (out_pixels) *out_pixels = NULL;
    if (out_width) *out_width = 0;
    if (out_height) *out_height = 0;
    if (!asset || !out_pixels || !out_width || !out_height)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "sw_model_decode_image: a required argument is NULL");
    if (image >= asset->image_count)
        return sw_diag_set(diag, SW_ERR_INDEX_OUT_OF_RANGE, (int64_t)image, "image %zu is out of range (%zu images)",
                           image, asset->image_count);
    const uint8_t* bytes = NULL;
    size_t size = 0;
    uint8_t* owned = NULL;
    sw_result r = sw__image_bytes(asset, image, &bytes, &size, &owned, diag);
    if (r != SW_OK) return r;
    if (size > (size_t)INT_MAX) {
        sw__free(owned);
        return sw_diag_set(diag, SW_ERR_UNSUPPORTED, (int64_t)image, "images[%zu]: %zu bytes is too large to decode",
                           image, size);
    }
    /* Core glTF images are PNG or JPEG; stb_image's other decoders (PNM, PSD,
       HDR, PIC, GIF, TGA) are not exposed to untrusted files: fuzzing found
       a crash in the PNM one. */
    static const uint8_t png_signature[8] = {0x89, 'P', 'N', 'G', 0x0d, 0x0a, 0x1a, 0x0a};
    bool is_png = size >= 8 && memcmp(bytes, png_signature, 8) == 0;
    bool is_jpeg = size >= 3 && bytes[0] == 0xff && bytes[1] == 0xd8 && bytes[2] == 0xff;
    if (!is_png && !is_jpeg) {
        sw__free(owned);
        return sw_diag_set(diag, SW_ERR_UNSUPPORTED, (int64_t)image, "images[%zu]: not a PNG or JPEG image", image);
    }
    int width, height, channels;
    size_t refusals = sw__allocation_refusals();
    /* Size first, so a huge header cannot make stb allocate what no texture needs. */
    if (!stbi_info_from_memory(bytes, (int)size, &width, &height, &channels)) {
        r = sw__decode_failed(diag, image, refusals);
        sw__free(owned);
        return r;
    }
    size_t pixels;
    if (width <= 0 || height <= 0 || !sw_mul_size((size_t)width, (size_t)height, &pixels) ||
        pixels > ((size_t)1 << 28)) {
        sw__free(owned);
        return sw_diag_set(diag, SW_ERR_UNSUPPORTED, (int64_t)image, "images[%zu]: %d x %d pixels is too large", image,
                           width, height);
    }
    uint8_t* rgba = stbi_load_from_memory(bytes, (int)size, &width, &height, &channels, 4);
    if (!rgba) {
        r = sw__decode_failed(diag, image, refusals);
        sw__free(owned);
        return r;
    }
    sw__free(owned);
    *out_pixels = rgba;
    *out_width = width;
    *out_height = height;
    return SW_OK;
}

void sw_model_image_free(uint8_t* pixels) { stbi_image_free(pixels); }
