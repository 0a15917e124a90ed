/* Writing a GLB by code: see glb_writer.h. */
#include "glb_writer.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* A private, static copy of stb_image_write (the PNG encoder): Debian's
   libstb exports the same names, and the encoder's settings are
   process-wide variables there; static, they are this file's and keep
   their defaults. Only the callback writer is used. The demo is built on
   every `sinew render` without a model: the encoder is optimised even in
   debug builds, where it would otherwise take most of that time. */
#include "../base/base_internal.h"
#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STBIW_MALLOC(size) sw__malloc(size)
#define STBIW_REALLOC(ptr, size) sw__realloc(ptr, size)
#define STBIW_FREE(ptr) sw__free(ptr)
#if defined(__GNUC__) && !defined(__clang__) && !defined(__OPTIMIZE__)
#pragma GCC push_options
#pragma GCC optimize("O2")
#include <stb/stb_image_write.h>
#pragma GCC pop_options
#else
#include <stb/stb_image_write.h>
#endif

/* ---- small maths and colour codes ------------------------------------------------ */

float sw__glb_clamp01(float x) { return x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x; }

float sw__glb_smoothstep(float edge0, float edge1, float x) {
    float t = sw__glb_clamp01((x - edge0) / (edge1 - edge0));
    return t * t * (3.0f - 2.0f * t);
}

uint8_t sw__glb_unorm8(float x) { return (uint8_t)(sw__glb_clamp01(x) * 255.0f + 0.5f); }

float sw__glb_srgb_decode(float s) { return s <= 0.04045f ? s / 12.92f : powf((s + 0.055f) / 1.055f, 2.4f); }

uint8_t sw__glb_srgb8(float linear) {
    float c = sw__glb_clamp01(linear);
    return sw__glb_unorm8(c <= 0.0031308f ? 12.92f * c : 1.055f * powf(c, 1.0f / 2.4f) - 0.055f);
}

/* ---- growable byte buffers ------------------------------------------------------ */

static bool sw__glb_bytes_reserve(sw__glb_bytes* b, size_t extra) {
    if (b->failed) return false;
    if (extra > SIZE_MAX - b->size) return !(b->failed = true);
    size_t need = b->size + extra;
    if (need <= b->capacity) return true;
    size_t capacity = b->capacity ? b->capacity : 4096;
    while (capacity < need) {
        if (capacity > SIZE_MAX / 2) return !(b->failed = true);
        capacity *= 2;
    }
    unsigned char* grown = sw__realloc(b->data, capacity);
    if (!grown) return !(b->failed = true);
    b->data = grown;
    b->capacity = capacity;
    return true;
}

void sw__glb_bytes_append(sw__glb_bytes* b, const void* data, size_t size) {
    if (!size || !sw__glb_bytes_reserve(b, size)) return;
    memcpy(b->data + b->size, data, size);
    b->size += size;
}

void sw__glb_bytes_align4(sw__glb_bytes* b, unsigned char fill) {
    while (b->size % 4 && !b->failed) sw__glb_bytes_append(b, &fill, 1);
}

/* ---- BIN: accessors and images ----------------------------------------------------- */

static int sw__glb_type_components(const char* type) {
    return strcmp(type, "SCALAR") == 0 ? 1 : strcmp(type, "VEC2") == 0 ? 2 : strcmp(type, "VEC3") == 0 ? 3
         : strcmp(type, "VEC4") == 0 ? 4 : 16;
}

int sw__glb_add_accessor(sw__glb_writer* w, const void* data, size_t size, int component_type, size_t count,
                         const char* type, int target) {
    if (w->failed || w->accessor_count >= SW__GLB_MAX_ACCESSORS) {
        w->failed = true;
        return -1;
    }
    sw__glb_bytes_align4(&w->bin, 0);
    sw__glb_accessor* a = &w->accessors[w->accessor_count];
    memset(a, 0, sizeof *a);
    a->view_offset = w->bin.size;
    a->view_length = size;
    a->view_target = target;
    a->component_type = component_type;
    a->count = count;
    a->type = type;
    sw__glb_bytes_append(&w->bin, data, size);
    if (w->bin.failed) w->failed = true;
    return w->accessor_count++;
}

int sw__glb_add_float_accessor(sw__glb_writer* w, const float* data, size_t count, const char* type, int target,
                               bool bounds) {
    int components = sw__glb_type_components(type);
    int index =
        sw__glb_add_accessor(w, data, count * (size_t)components * sizeof(float), SW__GL_FLOAT, count, type, target);
    if (index < 0 || !bounds) return index;
    sw__glb_accessor* a = &w->accessors[index];
    a->bound_count = components;
    for (int c = 0; c < components; c++) a->min[c] = INFINITY, a->max[c] = -INFINITY;
    for (size_t i = 0; i < count; i++)
        for (int c = 0; c < components; c++) {
            float x = data[i * (size_t)components + (size_t)c];
            if (x < a->min[c]) a->min[c] = x;
            if (x > a->max[c]) a->max[c] = x;
        }
    return index;
}

static void sw__glb_png_sink(void* context, void* data, int size) {
    if (size > 0) sw__glb_bytes_append(context, data, (size_t)size);
}

int sw__glb_add_png(sw__glb_writer* w, const char* name, const uint8_t* pixels, int width, int height, int comp,
                    int sampler) {
    if (w->failed || w->image_count >= SW__GLB_MAX_IMAGES) {
        w->failed = true;
        return -1;
    }
    sw__glb_bytes_align4(&w->bin, 0);
    size_t start = w->bin.size;
    /* Light compression: the painted textures are mostly flat, so the GLB
       grows by little, and the encoder runs on every `sinew render` without
       a model (this file's static copy: no other code sees the setting). */
    stbi_write_png_compression_level = 3;
    if (!stbi_write_png_to_func(sw__glb_png_sink, &w->bin, width, height, comp, pixels, width * comp) ||
        w->bin.failed) {
        w->failed = true;
        return -1;
    }
    sw__glb_image* image = &w->images[w->image_count];
    snprintf(image->name, sizeof image->name, "%s", name);
    image->view_offset = start;
    image->view_length = w->bin.size - start;
    image->sampler = sampler;
    return w->image_count++;
}

/* ---- the JSON (cJSON) -------------------------------------------------------------- */

cJSON* sw__glb_json_add(sw__glb_json* b, cJSON* parent, const char* key, cJSON* item) {
    bool added =
        item && parent && (key ? cJSON_AddItemToObject(parent, key, item) : cJSON_AddItemToArray(parent, item));
    if (!added) {
        cJSON_Delete(item);
        b->failed = true;
        return NULL;
    }
    return item;
}

/* cJSON prints integral doubles as integers and others so that they read
   back as the same double, hence the same float. It prints −0 as 0, so a
   negative zero is written raw to keep its sign. */
cJSON* sw__glb_json_float(float value) {
    return value == 0.0f && signbit(value) ? cJSON_CreateRaw("-0") : cJSON_CreateNumber((double)value);
}

cJSON* sw__glb_json_floats(sw__glb_json* b, const float* values, int count) {
    cJSON* array = cJSON_CreateArray();
    for (int i = 0; i < count && array; i++) sw__glb_json_add(b, array, NULL, sw__glb_json_float(values[i]));
    return array;
}

void sw__glb_json_int(sw__glb_json* b, cJSON* parent, const char* key, double value) {
    sw__glb_json_add(b, parent, key, cJSON_CreateNumber(value));
}

void sw__glb_json_string(sw__glb_json* b, cJSON* parent, const char* key, const char* value) {
    sw__glb_json_add(b, parent, key, cJSON_CreateString(value));
}

void sw__glb_json_bool(sw__glb_json* b, cJSON* parent, const char* key, bool value) {
    sw__glb_json_add(b, parent, key, cJSON_CreateBool(value));
}

cJSON* sw__glb_json_object(sw__glb_json* b, cJSON* parent, const char* key) {
    return sw__glb_json_add(b, parent, key, cJSON_CreateObject());
}

cJSON* sw__glb_json_array(sw__glb_json* b, cJSON* parent, const char* key) {
    return sw__glb_json_add(b, parent, key, cJSON_CreateArray());
}

void sw__glb_json_texture_info(sw__glb_json* b, cJSON* parent, const char* key, int texture, int texcoord) {
    if (texture < 0) return;
    cJSON* info = sw__glb_json_object(b, parent, key);
    sw__glb_json_int(b, info, "index", texture);
    sw__glb_json_int(b, info, "texCoord", texcoord);
}

void sw__glb_json_images(sw__glb_json* b, cJSON* root, const sw__glb_writer* w, const sw__glb_sampler* samplers,
                         int sampler_count) {
    cJSON* sampler_list = sw__glb_json_array(b, root, "samplers");
    for (int s = 0; s < sampler_count; s++) {
        cJSON* sampler = sw__glb_json_object(b, sampler_list, NULL);
        sw__glb_json_int(b, sampler, "magFilter", samplers[s].mag_filter);
        sw__glb_json_int(b, sampler, "minFilter", samplers[s].min_filter);
        sw__glb_json_int(b, sampler, "wrapS", samplers[s].wrap_s);
        sw__glb_json_int(b, sampler, "wrapT", samplers[s].wrap_t);
    }
    cJSON* images = sw__glb_json_array(b, root, "images");
    cJSON* textures_json = sw__glb_json_array(b, root, "textures");
    for (int i = 0; i < w->image_count; i++) {
        cJSON* image = sw__glb_json_object(b, images, NULL);
        sw__glb_json_string(b, image, "name", w->images[i].name);
        sw__glb_json_int(b, image, "bufferView", w->accessor_count + i);
        sw__glb_json_string(b, image, "mimeType", "image/png");
        cJSON* texture = sw__glb_json_object(b, textures_json, NULL);
        sw__glb_json_int(b, texture, "sampler", w->images[i].sampler);
        sw__glb_json_int(b, texture, "source", i);
    }
}

void sw__glb_json_buffers(sw__glb_json* b, cJSON* root, const sw__glb_writer* w) {
    cJSON* accessors = sw__glb_json_array(b, root, "accessors");
    for (int i = 0; i < w->accessor_count; i++) {
        const sw__glb_accessor* a = &w->accessors[i];
        cJSON* accessor = sw__glb_json_object(b, accessors, NULL);
        sw__glb_json_int(b, accessor, "bufferView", i);
        sw__glb_json_int(b, accessor, "componentType", a->component_type);
        if (a->normalized) sw__glb_json_bool(b, accessor, "normalized", true);
        sw__glb_json_int(b, accessor, "count", (double)a->count);
        sw__glb_json_string(b, accessor, "type", a->type);
        if (a->bound_count) {
            sw__glb_json_add(b, accessor, "min", sw__glb_json_floats(b, a->min, a->bound_count));
            sw__glb_json_add(b, accessor, "max", sw__glb_json_floats(b, a->max, a->bound_count));
        }
    }
    cJSON* views = sw__glb_json_array(b, root, "bufferViews");
    for (int i = 0; i < w->accessor_count; i++) {
        const sw__glb_accessor* a = &w->accessors[i];
        cJSON* view = sw__glb_json_object(b, views, NULL);
        sw__glb_json_int(b, view, "buffer", 0);
        sw__glb_json_int(b, view, "byteOffset", (double)a->view_offset);
        sw__glb_json_int(b, view, "byteLength", (double)a->view_length);
        if (a->view_target) sw__glb_json_int(b, view, "target", a->view_target);
    }
    for (int i = 0; i < w->image_count; i++) {
        cJSON* view = sw__glb_json_object(b, views, NULL);
        sw__glb_json_int(b, view, "buffer", 0);
        sw__glb_json_int(b, view, "byteOffset", (double)w->images[i].view_offset);
        sw__glb_json_int(b, view, "byteLength", (double)w->images[i].view_length);
    }
    cJSON* buffer = sw__glb_json_object(b, sw__glb_json_array(b, root, "buffers"), NULL);
    sw__glb_json_int(b, buffer, "byteLength", (double)w->bin.size);
}

/* ---- the file ------------------------------------------------------------------------ */

static void sw__glb_put_u32(unsigned char* p, uint32_t v) {
    p[0] = (unsigned char)(v & 0xff), p[1] = (unsigned char)((v >> 8) & 0xff);
    p[2] = (unsigned char)((v >> 16) & 0xff), p[3] = (unsigned char)(v >> 24);
}

bool sw__glb_assemble(const cJSON* tree, sw__glb_writer* w, uint8_t** out_glb, size_t* out_size) {
    sw__glb_bytes_align4(&w->bin, 0);
    if (!tree || w->failed || w->bin.failed) return false;
    char* text = cJSON_PrintUnformatted(tree);
    if (!text) return false;
    size_t json_size = (strlen(text) + 3) / 4 * 4;
    size_t total = 12 + 8 + json_size + 8 + w->bin.size;
    uint8_t* glb = total <= UINT32_MAX ? sw__malloc(total) : NULL;
    if (!glb) {
        cJSON_free(text);
        return false;
    }
    sw__glb_put_u32(glb, 0x46546C67u); /* "glTF" */
    sw__glb_put_u32(glb + 4, 2);
    sw__glb_put_u32(glb + 8, (uint32_t)total);
    sw__glb_put_u32(glb + 12, (uint32_t)json_size);
    sw__glb_put_u32(glb + 16, 0x4E4F534Au); /* "JSON" */
    memset(glb + 20, ' ', json_size);
    memcpy(glb + 20, text, strlen(text));
    cJSON_free(text);
    unsigned char* bin = glb + 20 + json_size;
    sw__glb_put_u32(bin, (uint32_t)w->bin.size);
    sw__glb_put_u32(bin + 4, 0x004E4942u); /* "BIN\0" */
    memcpy(bin + 8, w->bin.data, w->bin.size);
    *out_glb = glb;
    *out_size = total;
    return true;
}

void sw__glb_writer_free(sw__glb_writer* w) {
    if (w) sw__free(w->bin.data);
    sw__free(w);
}
