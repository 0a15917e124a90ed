/* Writing a GLB by code (internal to the sinew_demo library): growable
   bytes, a BIN chunk of accessors (one bufferView each) and PNG images
   (stb_image_write), the JSON built with cJSON, and the GLB's assembly.
   Shared by the demo character (demo_character.c) and the demo stage
   (demo_stage.c), so both write their files the same way:

   - every accessor and image is one 4-byte-aligned bufferView, the
     accessors' views first, then the images' (sw__glb_json_buffers);
   - each image is the source of one texture with the same index
     (sw__glb_json_images);
   - failures (memory) are sticky: a writer or JSON builder that failed
     drops everything after and says so once, at the end. */
#ifndef SW_DEMO_GLB_WRITER_H
#define SW_DEMO_GLB_WRITER_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- small maths and colour codes ------------------------------------------------ */

float sw__glb_clamp01(float x);
/* 0 below edge0, 1 above edge1, a C1 S-curve between (edge0 < edge1). */
float sw__glb_smoothstep(float edge0, float edge1, float x);
uint8_t sw__glb_unorm8(float x);  /* [0,1] → 0..255, rounded */
float sw__glb_srgb_decode(float s); /* an sRGB value in [0,1] → linear */
uint8_t sw__glb_srgb8(float linear); /* linear → the nearest sRGB code */

/* ---- growable byte buffers ------------------------------------------------------ */

typedef struct sw__glb_bytes {
    unsigned char* data;
    size_t size, capacity;
    bool failed; /* an allocation failed: everything after is dropped */
} sw__glb_bytes;

void sw__glb_bytes_append(sw__glb_bytes* b, const void* data, size_t size);
/* Pads with `fill` bytes up to a multiple of 4 (glTF aligns every chunk and view). */
void sw__glb_bytes_align4(sw__glb_bytes* b, unsigned char fill);

/* ---- BIN: accessors and images ----------------------------------------------------- */

#define SW__GL_UNSIGNED_BYTE 5121
#define SW__GL_UNSIGNED_SHORT 5123
#define SW__GL_UNSIGNED_INT 5125
#define SW__GL_FLOAT 5126
#define SW__GL_ARRAY_BUFFER 34962
#define SW__GL_ELEMENT_ARRAY_BUFFER 34963

#define SW__GLB_MAX_ACCESSORS 256
#define SW__GLB_MAX_IMAGES 24

typedef struct sw__glb_accessor {
    size_t view_offset, view_length;
    int view_target;      /* 0 = none */
    int component_type;
    size_t count;
    const char* type;     /* "SCALAR", "VEC3", ... */
    bool normalized;
    int bound_count;      /* components in min/max; 0 = none */
    float min[4], max[4];
} sw__glb_accessor;

/* An image in BIN (a bufferView after the accessors' views). */
typedef struct sw__glb_image {
    char name[24];
    size_t view_offset, view_length;
    int sampler;
} sw__glb_image;

typedef struct sw__glb_writer {
    sw__glb_bytes bin;
    sw__glb_accessor accessors[SW__GLB_MAX_ACCESSORS];
    int accessor_count;
    sw__glb_image images[SW__GLB_MAX_IMAGES];
    int image_count;
    bool failed;
} sw__glb_writer;

/* Appends `size` bytes to BIN as one bufferView and accessor; returns the
   accessor's index (or -1 once anything failed). */
int sw__glb_add_accessor(sw__glb_writer* w, const void* data, size_t size, int component_type, size_t count,
                         const char* type, int target);
/* Float accessor, with min/max per component when `bounds` (POSITION and
   animation inputs must have them). */
int sw__glb_add_float_accessor(sw__glb_writer* w, const float* data, size_t count, const char* type, int target,
                               bool bounds);
/* Appends `pixels` (width × height × comp bytes, rows top to bottom) as a
   PNG image in BIN read through sampler `sampler`; returns its index (or
   -1 once anything failed). */
int sw__glb_add_png(sw__glb_writer* w, const char* name, const uint8_t* pixels, int width, int height, int comp,
                    int sampler);

/* ---- the JSON (cJSON) -------------------------------------------------------------- */

/* A failed cJSON allocation returns NULL: sw__glb_json_add then records
   the failure, drops the item and adds nothing more below a missing
   parent; the caller checks `failed` once at the end. */
typedef struct sw__glb_json {
    bool failed;
} sw__glb_json;

/* Adds `item` to an object under `key`, or to an array (key NULL). */
cJSON* sw__glb_json_add(sw__glb_json* b, cJSON* parent, const char* key, cJSON* item);
/* A float that reads back as the same float (a negative zero keeps its sign). */
cJSON* sw__glb_json_float(float value);
cJSON* sw__glb_json_floats(sw__glb_json* b, const float* values, int count);
void sw__glb_json_int(sw__glb_json* b, cJSON* parent, const char* key, double value);
void sw__glb_json_string(sw__glb_json* b, cJSON* parent, const char* key, const char* value);
void sw__glb_json_bool(sw__glb_json* b, cJSON* parent, const char* key, bool value);
cJSON* sw__glb_json_object(sw__glb_json* b, cJSON* parent, const char* key);
cJSON* sw__glb_json_array(sw__glb_json* b, cJSON* parent, const char* key);
/* A glTF textureInfo: {"index": texture, "texCoord": set}; nothing for -1. */
void sw__glb_json_texture_info(sw__glb_json* b, cJSON* parent, const char* key, int texture, int texcoord);

/* A sampler: glTF filter and wrap codes. */
typedef struct sw__glb_sampler {
    int mag_filter, min_filter, wrap_s, wrap_t;
} sw__glb_sampler;

/* "samplers", "images" (PNG in bufferViews after the accessors') and
   "textures", one per image. */
void sw__glb_json_images(sw__glb_json* b, cJSON* root, const sw__glb_writer* w, const sw__glb_sampler* samplers,
                         int sampler_count);
/* "accessors", "bufferViews" (one per accessor, then one per image) and
   "buffers": the GLB's BIN chunk. */
void sw__glb_json_buffers(sw__glb_json* b, cJSON* root, const sw__glb_writer* w);

/* ---- the file ------------------------------------------------------------------------ */

/* The GLB of `tree` (the JSON) and the writer's BIN: a block for sw__free
   in *out_glb, or false when memory ran out. */
bool sw__glb_assemble(const cJSON* tree, sw__glb_writer* w, uint8_t** out_glb, size_t* out_size);

void sw__glb_writer_free(sw__glb_writer* w); /* its BIN and itself; NULL is allowed */

#endif
