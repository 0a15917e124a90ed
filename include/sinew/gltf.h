/* sinew/gltf.h — glTF 2.0 import (.gltf and .glb) and scene evaluation.

   LOADING

       sw_gltf_asset* asset = NULL;
       sw_diag diag;
       if (sw_gltf_load_file("hero.glb", NULL, &asset, &diag) != SW_OK)
           fprintf(stderr, "%s\n", diag.message);   // "hero.glb: accessors[3]: ..."
       ...
       sw_gltf_free(asset);

   The loader reads the JSON (cJSON), the GLB container, buffers (GLB BIN
   chunk, base64 data: URIs, files next to the asset) and decodes every
   accessor it needs into plain arrays the asset owns: float positions,
   normals, tangents, texture coordinates and colours, u32 indices, u16
   joints and f32 weights, float morph deltas, float keyframes. Sparse
   accessors, byteStride, every componentType and normalised integers (the
   spec's formulas: c/255, c/65535, max(c/127, −1), max(c/32767, −1)) are
   handled, so KHR_mesh_quantization files load like any other.

   Untrusted input: every read is checked against its bufferView and
   buffer, counts and sizes are checked for overflow (and against
   `max_memory`) before anything is allocated, nodes form a forest (cycles
   and nodes with two parents are rejected). Errors are one line in
   diag.message naming the file and the JSON path ("model.gltf:
   accessors[4].sparse.indices: ..."). Things that load but look wrong
   (unnormalised weights, more than 8 influences, a channel that targets
   nothing) become warnings in asset->warnings.

   What import changes, on purpose (DESIGN.md):
   - joint influences: every JOINTS_n/WEIGHTS_n set is read; the 8 largest
     weights per vertex are kept (a warning when a vertex has more), and
     weights are renormalised to sum to 1. A vertex whose weights are all
     zero gets weight 1 on its first joint (a warning). influence_count is
     4 or 8, unused slots have weight 0 and joint 0.
   - rotation keys are normalised (a warning when one is off unit length
     by more than 0.001).
   Nothing else is altered: vertices stay in accessor order.

   EVALUATING A SCENE AT A TIME

       fill locals with sw_gltf_rest_pose(), weights with sw_gltf_rest_weights()
       sample a clip into them with sw_sample_job (anim.h), targets = nodes
       sw_gltf_world_matrices()           node world transforms
       sw_gltf_deform_primitive()         morph + skin (or rigid transform)
                                          into world-space positions/normals

   All of it is plain data: arrays indexed by node, skin, mesh. */
#ifndef SINEW_GLTF_H
#define SINEW_GLTF_H

#include "sinew/base.h"
#include "sinew/math.h"
#include "sinew/anim.h"
#include "sinew/skin.h"

SW_EXTERN_C_BEGIN

#define SW_GLTF_MAX_TEXCOORDS 4
#define SW_GLTF_MAX_INFLUENCES 8

typedef struct sw_gltf_options {
    /* Allow buffer/image URIs that are absolute paths or leave the asset's
       folder through "..". Default false: such URIs are an error. */
    bool allow_outside_paths;
    /* Ceiling on the bytes the loader allocates in total (file contents
       included). 0 = default, 4 GiB. */
    size_t max_memory;
    /* Influences kept per vertex: 4 or 8. 0 = default, 8. */
    int max_influences;
    /* For validators (`sinew check`): also keep every primitive's
       JOINTS_n/WEIGHTS_n exactly as read (sw_gltf_primitive.raw_*), before
       anything is dropped or renormalised, and load negative weights
       (dropped before renormalising, with a warning) instead of failing,
       so that every offending vertex can be reported. Default false: the
       raw arrays are NULL and a negative weight is a load error. */
    bool keep_raw_influences;
} sw_gltf_options;

typedef enum sw_gltf_alpha_mode {
    SW_GLTF_ALPHA_OPAQUE = 0,
    SW_GLTF_ALPHA_MASK,
    SW_GLTF_ALPHA_BLEND,
} sw_gltf_alpha_mode;

/* A texture reference with its KHR_texture_transform. */
typedef struct sw_gltf_texture_ref {
    int32_t texture;      /* index into textures, -1 = none */
    int32_t texcoord;     /* TEXCOORD_n set (the transform's override applied) */
    float scale;          /* normalTexture.scale / occlusionTexture.strength; 1 otherwise */
    bool has_transform;   /* KHR_texture_transform present */
    float offset[2];
    float rotation;       /* radians */
    float uv_scale[2];
} sw_gltf_texture_ref;

typedef struct sw_gltf_material {
    const char* name;
    float base_color_factor[4];
    sw_gltf_texture_ref base_color_texture;
    float metallic_factor;
    float roughness_factor;
    sw_gltf_texture_ref metallic_roughness_texture;
    sw_gltf_texture_ref normal_texture;
    sw_gltf_texture_ref occlusion_texture;
    float emissive_factor[3];
    sw_gltf_texture_ref emissive_texture;
    sw_gltf_alpha_mode alpha_mode;
    float alpha_cutoff;   /* default 0.5 */
    bool double_sided;
    bool unlit;           /* KHR_materials_unlit */
} sw_gltf_material;

typedef struct sw_gltf_texture {
    int32_t image;        /* -1 = none */
    int32_t sampler;      /* -1 = default sampler */
} sw_gltf_texture;

typedef struct sw_gltf_sampler {
    int32_t mag_filter, min_filter, wrap_s, wrap_t; /* GL enums; 0 = unset for filters */
} sw_gltf_sampler;

/* A bufferView: a byte range of one buffer (images in bufferViews point here). */
typedef struct sw_gltf_buffer_view {
    uint32_t buffer;
    size_t byte_offset;
    size_t byte_length;
    uint32_t byte_stride;     /* 0 = tightly packed */
} sw_gltf_buffer_view;

typedef struct sw_gltf_image {
    const char* name;
    const char* uri;          /* as written in the file (may be a data: URI); NULL if in a bufferView */
    const char* mime_type;    /* may be NULL */
    int32_t buffer_view;      /* -1 unless stored in a bufferView */
} sw_gltf_image;

typedef enum sw_gltf_mode {
    SW_GLTF_POINTS = 0,
    SW_GLTF_LINES = 1,
    SW_GLTF_LINE_LOOP = 2,
    SW_GLTF_LINE_STRIP = 3,
    SW_GLTF_TRIANGLES = 4,
    SW_GLTF_TRIANGLE_STRIP = 5,
    SW_GLTF_TRIANGLE_FAN = 6,
} sw_gltf_mode;

/* Deltas of one morph target; each array is vertex_count × 3 floats or NULL. */
typedef struct sw_gltf_morph_target {
    const float* positions;
    const float* normals;
    const float* tangents;    /* xyz deltas of the tangent */
} sw_gltf_morph_target;

typedef struct sw_gltf_primitive {
    sw_gltf_mode mode;
    int32_t material;         /* -1 = default material */
    size_t vertex_count;
    const float* positions;   /* vertex_count × 3 (always present) */
    const float* normals;     /* × 3, or NULL */
    const float* tangents;    /* × 4 (w = handedness), or NULL */
    int texcoord_count;       /* TEXCOORD_0 .. TEXCOORD_{n-1} */
    const float* texcoords[SW_GLTF_MAX_TEXCOORDS]; /* × 2 each */
    const float* colors;      /* COLOR_0 as RGBA floats (RGB gets alpha 1), or NULL */
    int influence_count;      /* 0 (not skinned), 4 or 8 */
    const uint16_t* joints;   /* vertex_count × influence_count, indices into the skin's joints */
    const float* weights;     /* vertex_count × influence_count, rows sum to 1 */
    int influence_sets;       /* JOINTS_n/WEIGHTS_n pairs in the file */
    /* With options.keep_raw_influences (else 0 and NULL): the file's
       influences as read, 4 × influence_sets slots per vertex (set 0's four,
       then set 1's, ... in set-number order); weights decoded (normalised
       integers with the spec's formulas) but not renormalised, zero and
       negative weights and their joints included. */
    int raw_influence_count;
    const uint16_t* raw_joints;     /* vertex_count × raw_influence_count */
    const float* raw_weights;       /* vertex_count × raw_influence_count */
    size_t index_count;
    const uint32_t* indices;  /* NULL = not indexed */
    size_t target_count;
    const sw_gltf_morph_target* targets;
    float bounds_min[3], bounds_max[3]; /* of positions as decoded */
} sw_gltf_primitive;

typedef struct sw_gltf_mesh {
    const char* name;
    size_t primitive_count;
    const sw_gltf_primitive* primitives;
    size_t weight_count;            /* morph targets (the same in every primitive) */
    const float* weights;           /* mesh.weights, or zeros */
    const char* const* target_names; /* extras.targetNames, or NULL */
} sw_gltf_mesh;

typedef struct sw_gltf_skin {
    const char* name;
    size_t joint_count;
    const uint32_t* joints;         /* node index of each skin joint */
    const sw_mat34* inverse_bind;   /* joint_count matrices (identity when absent) */
    int32_t skeleton;               /* node, -1 if not given */
} sw_gltf_skin;

typedef struct sw_gltf_node {
    const char* name;
    int32_t parent;                 /* -1 for roots */
    size_t child_count;
    const uint32_t* children;
    int32_t mesh, skin, camera;     /* -1 = none */
    bool has_matrix;                /* local transform given as a matrix */
    sw_mat34 matrix;                /* the matrix (identity when TRS) */
    sw_transform trs;               /* TRS (identity when has_matrix) */
    size_t weight_count;            /* node.weights, or 0 */
    const float* weights;
    uint32_t weight_offset;         /* this node's morph weights in a pose's weight array */
} sw_gltf_node;

typedef struct sw_gltf_scene {
    const char* name;
    size_t node_count;
    const uint32_t* nodes;          /* root nodes */
} sw_gltf_scene;

typedef struct sw_gltf_asset {
    const char* path;               /* as given to sw_gltf_load_file; for memory loads the name
                                       given, or "<memory>" */
    const char* generator;          /* asset.generator, or NULL */
    size_t scene_count;   const sw_gltf_scene* scenes;
    int32_t default_scene;          /* `scene`, else 0, else -1 (no scenes) */
    size_t node_count;    const sw_gltf_node* nodes;
    const uint32_t* node_order;     /* node_count nodes, every parent before its children */
    size_t mesh_count;    const sw_gltf_mesh* meshes;
    size_t skin_count;    const sw_gltf_skin* skins;
    size_t animation_count;
    const sw_clip* animations;      /* tracks target node indices */
    size_t material_count; const sw_gltf_material* materials;
    size_t texture_count; const sw_gltf_texture* textures;
    size_t sampler_count; const sw_gltf_sampler* samplers;
    size_t image_count;   const sw_gltf_image* images;
    size_t weight_count;            /* morph weights of all nodes with a morphed mesh */
    size_t warning_count;
    const char* const* warnings;    /* one line each */
    size_t buffer_count;            /* raw buffers, kept for images in bufferViews */
    const uint8_t* const* buffers;
    const size_t* buffer_sizes;     /* each buffer's byteLength */
    size_t buffer_view_count; const sw_gltf_buffer_view* buffer_views;
    /* Where sw_gltf_decode_image finds image files: the folder external
       URIs resolve against (NULL = external files refused) and the
       options' allow_outside_paths. */
    const char* base_dir;
    bool allow_outside_paths;
} sw_gltf_asset;

/* Loads a .gltf or .glb file (recognised by content, not extension).
   `options` may be NULL (defaults). On failure *out_asset is NULL and diag
   names the file and the problem. */
sw_result sw_gltf_load_file(const char* path, const sw_gltf_options* options, sw_gltf_asset** out_asset,
                            sw_diag* diag);

/* Loads from memory. External URIs are resolved against `base_dir` (NULL =
   external files are refused). `name` is used in messages (may be NULL). */
sw_result sw_gltf_load_memory(const void* data, size_t size, const char* name, const char* base_dir,
                              const sw_gltf_options* options, sw_gltf_asset** out_asset, sw_diag* diag);

/* Frees an asset made by the loader (and everything it points to); NULL is allowed. */
void sw_gltf_free(sw_gltf_asset* asset);

/* Decodes a base64 data: URI ("data:[<mime>][;base64],<data>") into `out`
   (capacity `capacity`). Returns the decoded size through out_size; with
   out = NULL only the size is computed. Non-base64 data URIs are decoded
   with percent-escapes. */
sw_result sw_gltf_decode_data_uri(const char* uri, size_t uri_length, void* out, size_t capacity,
                                  size_t* out_size, sw_diag* diag);

/* Decodes image `image` (PNG or JPEG, the formats of core glTF; anything
   else is SW_ERR_UNSUPPORTED) to 8-bit RGBA with stb_image (only when asked:
   the loader never decodes images). stb_image is not hardened against
   hostile files: decode images of untrusted assets in a sandbox. *out_pixels is allocated with malloc; free
   it with free(). */
sw_result sw_gltf_decode_image(const sw_gltf_asset* asset, size_t image, uint8_t** out_pixels, int* out_width,
                               int* out_height, sw_diag* diag);

/* ---- Scene evaluation --------------------------------------------------- */

/* out_local[node] = the node's TRS (identity for matrix nodes). */
void sw_gltf_rest_pose(const sw_gltf_asset* asset, sw_transform* out_local);

/* out_weights[weight_offset + i]: node.weights, else mesh.weights, else 0
   (asset->weight_count floats). */
void sw_gltf_rest_weights(const sw_gltf_asset* asset, float* out_weights);

/* Morph weight offsets per node (node_count entries), for sw_sample_job. */
void sw_gltf_weight_offsets(const sw_gltf_asset* asset, uint32_t* out_offsets);

/* World transforms of every node: parent world · local, where local is the
   node's matrix (matrix nodes) or out_local[node] as TRS. */
void sw_gltf_world_matrices(const sw_gltf_asset* asset, const sw_transform* local, sw_mat34* out_world);

/* Skin matrices of one skin: world[joints[j]] · inverse_bind[j]. */
void sw_gltf_skin_matrices(const sw_gltf_asset* asset, size_t skin, const sw_mat34* world,
                           sw_mat34* out_matrices);

/* Where the vertices of one (node, primitive) instance are drawn.

   Morph targets first (weights from `weights`, the node's offset), then, if
   the node has a skin and the primitive has influences, skinning with the
   skin's matrices (the node's own transform is ignored, as glTF says);
   otherwise the node's world matrix. Normals (optional) use the blended
   3×3 and are renormalised (cofactor for rigid nodes, exact under any
   scale). `scratch` needs sw_gltf_deform_scratch_size() bytes, 16-aligned.
   out_positions: vertex_count × 3; out_normals: × 3 or NULL. */
typedef struct sw_gltf_deform {
    const sw_gltf_asset* asset;
    size_t node;
    size_t primitive;
    const sw_mat34* world;           /* node world matrices */
    const float* weights;            /* pose morph weights (asset->weight_count) */
    sw_skin_method method;           /* LBS (default) or DQS */
    void* scratch;
    float* out_positions;
    float* out_normals;
} sw_gltf_deform;

size_t sw_gltf_deform_scratch_size(const sw_gltf_asset* asset, size_t node, size_t primitive);
sw_result sw_gltf_deform_primitive(const sw_gltf_deform* deform, sw_diag* diag);

SW_EXTERN_C_END

#endif
