/* gltf_internal.h — internals shared by the glTF loader's sources. Not a
   public header.

   The loader reads one document in passes, one per top-level array, in
   dependency order (gltf_load.c runs them): buffers and bufferViews
   (gltf_files.c), accessors and meshes (gltf_meshes.c), samplers, images,
   textures and materials (gltf_materials.c), nodes, skins and scenes
   (gltf_nodes.c), animations (gltf_animations.c). They share one
   sw__loader and the helpers of gltf_json.c: JSON paths, errors and
   warnings that name the file and the path, the memory budget and the
   arenas, typed JSON access. Everything stays in file order until
   sw__order_nodes stores the nodes parents first at the end of the load.

   The accessor decoder (gltf_accessor.c) knows nothing about JSON or the
   asset: the loader describes an accessor as an sw__gltf_accessor (where its
   bytes are and how to read them), sw__gltf_accessor_check validates that
   description once, and the readers decode it. Lifting the decoder into
   another loader means filling that struct. */
#ifndef SINEW_GLTF_INTERNAL_H
#define SINEW_GLTF_INTERNAL_H

#include <cjson/cJSON.h>

#include "sinew/gltf.h"
#include "../import/file_internal.h"
#include "../model/model_internal.h"

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
/* The first `count` elements of a checked accessor (all of them when it
   has fewer), still checked: the sparse values past them are dropped. */
sw__gltf_accessor sw__gltf_accessor_prefix(const sw__gltf_accessor* accessor, size_t count);
/* Decodes a checked accessor to floats: count × columns × rows, packed
   (matrices stay column-major). Normalised integers use the spec's
   formulas; non-finite values are an error naming the element. */
sw_result sw__gltf_accessor_read_floats(const sw__gltf_accessor* accessor, float* out, sw_diag* diag);
/* Decodes a checked accessor of unsigned integers (not normalised) to
   count × columns × rows uint32_t. */
sw_result sw__gltf_accessor_read_uints(const sw__gltf_accessor* accessor, uint32_t* out, sw_diag* diag);

/* ---- the loader ------------------------------------------------------------------------ */

#define SW__MAX_SETS 64 /* TEXCOORD_n / JOINTS_n / ... sets looked at per primitive */

typedef struct sw__jarray {
    const cJSON** items;
    size_t count;
} sw__jarray;

typedef struct sw__warning {
    struct sw__warning* next;
    char* text;
} sw__warning;

typedef struct sw__loader {
    sw_diag diag;
    const char* name;               /* for messages */
    const char* base_dir;           /* NULL: external files refused */
    bool allow_outside;
    int max_influences;
    bool keep_raw_influences;
    bool vrm0_turn;                 /* turn a VRM 0.x model to face +Z (gltf_vrm0.c) */
    size_t max_memory, used;        /* budget and bytes charged so far */
    sw__model_owner* owner;
    sw__arena* arena;               /* the asset's memory */
    sw__arena scratch;              /* load-time memory */
    const cJSON* root;
    bool glb, has_bin;
    const uint8_t* bin;
    size_t bin_size;
    bool quantization_declared, quantization_used;
    sw__jarray buffers, buffer_views, accessors, images, samplers, textures, materials, meshes, nodes, skins,
        scenes, animations;
    sw__jarray cameras;             /* count only: cameras are not read */
    const uint8_t** buffer_data;
    size_t* buffer_size;
    sw__gltf_buffer_view* views;
    sw__gltf_accessor* acc;
    const float** times;            /* per accessor: decoded, validated key times (cache) */
    uint32_t* order;                /* nodes parents first (file indices) */
    sw_model_node* nodes_out;
    sw_model_mesh* meshes_out;
    sw_model_skin* skins_out;
    sw__warning *warnings, **warnings_tail;
    size_t warning_count, warnings_dropped;
} sw__loader;

/* ---- gltf_json.c: paths, errors, warnings, memory, JSON values ---------------------------- */

#if defined(__GNUC__)
#define SW__PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define SW__PRINTF(a, b)
#endif

/* A JSON path for messages ("meshes[2].primitives[0]"), by value. */
#define SW__PATH_SIZE 192
typedef struct sw__path {
    char s[SW__PATH_SIZE];
} sw__path;

sw__path sw__pathf(const char* format, ...) SW__PRINTF(1, 2);
/* "path.key", or "key" at the top level, or "path" without a key. */
sw__path sw__at(const char* path, const char* key);

/* Sets L->diag to "name: where: text" (where may be NULL) and returns code. */
sw_result sw__fail(sw__loader* L, sw_result code, const char* where, const char* format, ...) SW__PRINTF(4, 5);
/* Passes on an error from a helper that does not know the file or the path. */
sw_result sw__fail_from(sw__loader* L, const char* where, const sw_diag* inner);
/* Appends "name: where: text" to the asset's warnings. */
void sw__store_warning(sw__loader* L, const char* where, const char* text);
/* A warning, unless SW__MAX_WARNINGS are stored already (then counted). */
void sw__warn(sw__loader* L, const char* where, const char* format, ...) SW__PRINTF(3, 4);

/* Charges `size` bytes against max_memory (false, with the error set, when over). */
bool sw__charge(sw__loader* L, size_t size);
/* Zeroed memory from an arena, 16-byte aligned; NULL (with the error set)
   when over budget or out of memory. */
void* sw__arena_alloc(sw__loader* L, sw__arena* arena, size_t size);
/* `count` × `size` bytes from an arena, with the product checked. */
void* sw__array(sw__loader* L, sw__arena* arena, size_t count, size_t size);
/* Large load-time temporaries: malloc'd, charged, given back with sw__temp_free. */
void* sw__temp_alloc(sw__loader* L, size_t count, size_t size);
void sw__temp_free(sw__loader* L, void* ptr);
/* A copy in the asset's arena; NULL for NULL (or with the error set). */
const char* sw__strdup(sw__loader* L, const char* s);

/* Typed members of a JSON object: `path` names the object in messages.
   Optional members that are absent leave *out NULL / -1 / unchanged. */
static const double sw__max_size = 9007199254740992.0; /* 2^53: the largest exact JSON integer */
const cJSON* sw__member(const cJSON* object, const char* key);
sw_result sw__get_object(sw__loader* L, const cJSON* object, const char* path, const char* key, bool required,
                         const cJSON** out);
sw_result sw__get_array(sw__loader* L, const cJSON* object, const char* path, const char* key, bool required,
                        const cJSON** out);
sw_result sw__get_string(sw__loader* L, const cJSON* object, const char* path, const char* key, bool required,
                         const char** out);
/* "name", copied into the asset. */
sw_result sw__get_name(sw__loader* L, const cJSON* object, const char* path, const char** out);
sw_result sw__get_bool(sw__loader* L, const cJSON* object, const char* path, const char* key, bool* inout);
/* A finite number that fits a float. */
sw_result sw__get_float(sw__loader* L, const cJSON* object, const char* path, const char* key, float* inout);
/* An array of exactly `count` such numbers. */
sw_result sw__get_floats(sw__loader* L, const cJSON* object, const char* path, const char* key, float* inout,
                         size_t count);
/* An integer in [0, max]. */
sw_result sw__value_uint(sw__loader* L, const cJSON* v, const char* where, double max, size_t* out);
sw_result sw__get_uint(sw__loader* L, const cJSON* object, const char* path, const char* key, bool required,
                       double max, size_t* inout);
/* An index into an array of `limit` items called `what` ("nodes"). */
sw_result sw__value_index(sw__loader* L, const cJSON* v, const char* where, size_t limit, const char* what,
                          uint32_t* out);
sw_result sw__get_index(sw__loader* L, const cJSON* object, const char* path, const char* key, bool required,
                        const sw__jarray* array, const char* what, int32_t* out);
/* A top-level array of objects, kept as item pointers for O(1) access. */
sw_result sw__collect(sw__loader* L, const char* key, sw__jarray* out);
/* Bytes cJSON holds for a tree, for the memory budget. */
size_t sw__json_bytes(const cJSON* item, int depth);

/* What one linear pass over the JSON text finds before cJSON parses it. */
typedef struct sw__json_scan {
    size_t items;           /* at most this many cJSON items */
    size_t string_bytes;    /* at most this many bytes of string copies, terminators included */
    size_t depth;           /* the deepest nesting of arrays and objects (up to the limit + 1) */
    size_t too_deep_at;     /* byte where the nesting passes CJSON_NESTING_LIMIT, or SIZE_MAX */
    size_t nul_at;          /* byte of the first "\u0000" or raw 0 byte in a string, or SIZE_MAX */
} sw__json_scan;
/* Scans the text; false when it nests deeper than cJSON's limit (which
   cJSON would only report as a syntax error). */
bool sw__scan_json(const char* json, size_t size, sw__json_scan* out);
/* The most cJSON can allocate for the text (charged while it parses). */
size_t sw__json_scan_bytes(const sw__json_scan* scan);
/* The error for a NUL in a string (\u0000 or a raw 0 byte), naming the
   JSON path of the string that holds it (the text must have parsed). */
sw_result sw__refuse_json_nul(sw__loader* L, const char* json, size_t size, const sw__json_scan* scan);

/* ---- gltf_files.c: the GLB container, buffers, bufferViews -------------------------------- */

/* Splits a GLB into its JSON chunk and (L->bin) its BIN chunk. */
sw_result sw__parse_glb(sw__loader* L, const uint8_t* data, size_t size, const char** json, size_t* json_size);
/* sw__read_file's allocator for a charged temporary (user = the loader), and its release. */
void* sw__file_alloc_temp(void* user, size_t size);
void sw__file_free_temp(void* user, void* ptr);
sw_result sw__load_buffers(sw__loader* L);
sw_result sw__parse_buffer_views(sw__loader* L);

/* ---- gltf_meshes.c: accessors and meshes --------------------------------------------------- */

/* What a use of an accessor allows (componentType and normalized). */
enum {
    SW__FLOAT = 1,          /* FLOAT */
    SW__NORM = 2,           /* normalised BYTE, UNSIGNED_BYTE, SHORT, UNSIGNED_SHORT */
    SW__UNORM = 4,          /* normalised UNSIGNED_BYTE, UNSIGNED_SHORT */
    SW__INT = 8,            /* BYTE..UNSIGNED_SHORT, not normalised (KHR_mesh_quantization) */
    SW__UINT16 = 16,        /* UNSIGNED_BYTE, UNSIGNED_SHORT, not normalised */
    SW__UINT32 = 32,        /* UNSIGNED_INT, not normalised */
};

/* Element types, as a mask of (1 << rows) for vectors and MAT4 = 1 << 8. */
#define SW__SCALAR (1u << 1)
#define SW__VEC2 (1u << 2)
#define SW__VEC3 (1u << 3)
#define SW__VEC4 (1u << 4)
#define SW__MAT4 (1u << 8)

sw_result sw__parse_accessors(sw__loader* L);
/* Checks accessor `index` against a use (`where` is the JSON path of the
   reference) and returns it. */
sw_result sw__use_accessor(sw__loader* L, const char* where, uint32_t index, unsigned types, unsigned allow,
                           const sw__gltf_accessor** out);
/* Decodes an accessor to floats in the asset (or, with `temp`, in a
   temporary to give back with sw__temp_free). */
float* sw__decode_floats(sw__loader* L, const char* where, uint32_t index, const sw__gltf_accessor* a, bool temp);
sw_result sw__parse_meshes(sw__loader* L);

/* ---- the memory plan (gltf_meshes.c, gltf_nodes.c, gltf_animations.c; run by gltf_load.c) ----

   Declared counts cost nothing to write: 300 million zero-filled elements
   are a few bytes of JSON. So once the accessors are parsed, before the
   meshes, skins and animations passes allocate anything, the plan walks
   every accessor use that those passes will decode. Leniently: a malformed
   reference, a wrong type or a count that does not match is skipped here
   and reported by the pass. For each use it
   - checks that the file backs the count (see sw__backed and sw_gltf.h's
     "Memory"): an accessor with a bufferView stores every element; one
     without is zeros plus its sparse values, and is read only where
     something the file stores bounds its count;
   - adds the decoded arrays up; what the model keeps plus the largest set
     of temporaries alive at once must fit in what max_memory leaves.
   A pass that starts decoding a new accessor use must be mirrored here. */
typedef struct sw__plan {
    size_t kept;                /* bytes of decoded arrays the model keeps (saturating) */
    size_t temp;                /* the largest set of temporaries alive at once */
    size_t largest;             /* the largest single use, for the message */
    int64_t largest_accessor;   /* its accessor, or -1 for a set of them */
    sw__path largest_where;
} sw__plan;

/* Adds `bytes` decoded from `accessor` (-1: several) at `where`: kept by
   the model, or a temporary set freed before the next one. */
void sw__plan_add(sw__plan* plan, const char* where, int64_t accessor, size_t bytes, bool temp);
/* a × b, or SIZE_MAX when that overflows (a plan only compares). */
size_t sw__plan_mul(size_t a, size_t b);
/* An accessor index, or false for anything the pass will refuse. */
bool sw__plan_index(const sw__loader* L, const cJSON* v, uint32_t* out);
/* Bytes the decoder writes for an accessor: count × components × 4. */
size_t sw__decoded_bytes(const sw__gltf_accessor* a);
/* Elements of an accessor the file backs: all of them with a bufferView;
   without one, SW__BACKED_PER_VALUE per sparse value (and as many more). */
#define SW__BACKED_PER_VALUE 3
size_t sw__backed(const sw__gltf_accessor* a);
sw_result sw__plan_meshes(sw__loader* L, sw__plan* plan);
sw_result sw__plan_skins(sw__loader* L, sw__plan* plan);
sw_result sw__plan_animations(sw__loader* L, sw__plan* plan);

/* ---- gltf_materials.c --------------------------------------------------------------------- */

sw_result sw__parse_samplers(sw__loader* L);
sw_result sw__parse_images(sw__loader* L);
sw_result sw__parse_textures(sw__loader* L);
sw_result sw__parse_materials(sw__loader* L);

/* ---- gltf_nodes.c: nodes, hierarchy, skins, scenes ------------------------------------------ */

/* Reads the nodes and their hierarchy (L->order: parents first). */
sw_result sw__parse_nodes(sw__loader* L);
/* gltf_lights.c: KHR_lights_punctual, one sw_model_light per node carrying
   a light (its node a file index until sw__order_nodes renumbers it). */
sw_result sw__parse_lights(sw__loader* L);
sw_result sw__parse_skins(sw__loader* L);
sw_result sw__parse_scenes(sw__loader* L);
/* Every skinned instance's joint indices must lie within its skin. */
sw_result sw__check_skinned_nodes(sw__loader* L);
/* Stores the nodes parents first and renumbers every node reference; the
   last step of a load. */
sw_result sw__order_nodes(sw__loader* L);

/* ---- gltf_animations.c -------------------------------------------------------------------- */

sw_result sw__parse_animations(sw__loader* L);
/* gltf_vrm0.c: a VRM 0.x model (root extension "VRM", no VRMC_vrm) turned
   180° about Y to face +Z: root nodes and their animation keys, in file
   order, before sw__order_nodes (gltf.h, vrm0_keep_facing). */
sw_result sw__turn_vrm0(sw__loader* L);
/* A warning for each VRM 0.x materialProperties entry whose shader sinew
   does not read (its material is drawn as the glTF material). */
void sw__warn_vrm0_shaders(sw__loader* L);

#endif
