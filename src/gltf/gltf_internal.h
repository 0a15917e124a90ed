/* gltf_internal.h — internals shared by the glTF loader's sources
   (gltf_load.c, gltf_accessor.c, gltf_image.c). Not a public header.

   The accessor decoder (gltf_accessor.c) knows nothing about JSON or the
   asset: the loader describes an accessor as an sw__gltf_accessor (where its
   bytes are and how to read them), sw__gltf_accessor_check validates that
   description once, and the readers decode it. Lifting the decoder into
   another loader means filling that struct. */
#ifndef SINEW_GLTF_INTERNAL_H
#define SINEW_GLTF_INTERNAL_H

#include "sinew/gltf.h"

/* A bufferView: a byte range of one buffer. */
typedef struct sw__gltf_buffer_view {
    uint32_t buffer;
    size_t byte_offset;
    size_t byte_length;
    uint32_t byte_stride;     /* 0 = tightly packed */
} sw__gltf_buffer_view;

/* componentType values (glTF 2.0 §3.6.2.2). */
enum {
    SW__GLTF_BYTE = 5120,
    SW__GLTF_UNSIGNED_BYTE = 5121,
    SW__GLTF_SHORT = 5122,
    SW__GLTF_UNSIGNED_SHORT = 5123,
    SW__GLTF_UNSIGNED_INT = 5125,
    SW__GLTF_FLOAT = 5126,
};

/* One accessor, resolved against its bufferView. Elements are `columns`
   columns of `rows` components (SCALAR..VEC4: 1 column; MATn: n × n,
   column-major, each column padded to 4 bytes as §3.6.2.4 requires). */
typedef struct sw__gltf_accessor {
    uint32_t component_type;
    bool normalized;
    size_t count;                   /* elements, ≥ 1 */
    uint32_t columns, rows;
    const uint8_t* data;            /* element 0; NULL = every element is zero (sparse only) */
    size_t data_size;               /* bytes readable from `data` (to the end of the bufferView) */
    size_t stride;                  /* bytes between elements; 0 = the element size */
    size_t sparse_count;            /* 0 = not sparse */
    uint32_t sparse_index_type;     /* UNSIGNED_BYTE, _SHORT or _INT */
    const uint8_t* sparse_indices;  size_t sparse_indices_size;
    const uint8_t* sparse_values;   size_t sparse_values_size;  /* packed elements */
} sw__gltf_accessor;

/* Bytes of one component; 0 for an unknown componentType. */
size_t sw__gltf_component_size(uint32_t component_type);
/* Bytes of one element, matrix column padding included. */
size_t sw__gltf_element_size(const sw__gltf_accessor* accessor);
/* Checks the description: types, stride ≥ element size, every element and
   every sparse index and value inside its bytes, sparse indices strictly
   increasing and < count. Messages name no file (the caller prefixes). */
sw_result sw__gltf_accessor_check(const sw__gltf_accessor* accessor, sw_diag* diag);
/* Decodes a checked accessor to floats: count × columns × rows, packed
   (matrices stay column-major). Normalised integers use the spec's
   formulas; non-finite values are an error naming the element. */
sw_result sw__gltf_accessor_read_floats(const sw__gltf_accessor* accessor, float* out, sw_diag* diag);
/* Decodes a checked accessor of unsigned integers (not normalised) to
   count × columns × rows uint32_t. */
sw_result sw__gltf_accessor_read_uints(const sw__gltf_accessor* accessor, uint32_t* out, sw_diag* diag);

/* Percent-decodes `length` bytes of `in` into `out` (room for `length`
   bytes; decoding never grows). Returns false on a malformed escape. */
bool sw__gltf_percent_decode(const char* in, size_t length, char* out, size_t* out_length);

/* File path of a relative URI reference under `base_dir`: percent-decodes
   it and refuses other schemes, and, unless `allow_outside`, absolute paths
   and ".." that climbs out of base_dir. *out_path is malloc'd (free()).
   Messages name no file. */
sw_result sw__gltf_uri_to_path(const char* uri, const char* base_dir, bool allow_outside, char** out_path,
                               sw_diag* diag);

/* Reads a whole file (at most `max_size` bytes, else SW_ERR_OUT_OF_MEMORY)
   into memory from `alloc` (which returns NULL on failure). Messages start
   with `label`. */
sw_result sw__gltf_read_file(const char* path, const char* label, size_t max_size,
                             void* (*alloc)(void* user, size_t size), void* user, uint8_t** out_data,
                             size_t* out_size, sw_diag* diag);

#endif
