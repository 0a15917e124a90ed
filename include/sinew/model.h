/* sinew/model.h — the character model every importer fills and every later
   stage reads: nodes, meshes, morph targets, skins, materials, images and
   clips, as plain arrays.

       sw_model* model = NULL;
       sw_diag diag;
       if (sw_import_file("hero.glb", NULL, &model, &diag) != SW_OK)   // import.h (sinew-import)
           fprintf(stderr, "%s\n", diag.message);
       ...                                    // pose.h evaluates it, gpu.h and render.h draw it
       sw_model_free(model);

   Nothing here is named after a file format, and the core library that
   holds this header reads no file: a model is built by hand (as
   examples/skin_arm.c builds a skeleton) or by an importer of sinew-import
   (glTF and VRM, IQM, Assimp's formats), which decodes its file into these
   arrays and keeps what it cannot express here as extension records
   (sw_model_extension: JSON text) for the import library's readers: toon
   material parameters, spring bones, the VRM humanoid.

   NODES are stored parents first: nodes[i].parent < i, so world matrices
   are one forward loop. nodes[i].source_index is the node's index in the
   file; node_from_source maps back. Everything that names a node (parents,
   children, skin joints, scene roots, clip track targets) uses the model's
   order; tools that report file positions ("nodes[3]") go through
   source_index.

   What import changes, on purpose (docs/api.md):
   - joint influences: the 8 largest weights per vertex are kept (a warning
     when a vertex has more), and weights are renormalised to sum to 1. A
     vertex whose weights are all zero gets weight 1 on its first joint (a
     warning). influence_count is 4 or 8, unused slots have weight 0 and
     joint 0.
   - rotation keys are normalised (a warning when one is off unit length by
     more than 0.001).
   Vertices stay in the file's order.

   Memory: a model is one allocation owner; sw_model_free releases
   everything it points to.

   Threads: arrays are const: the model is read-only after import and may
   be shared by any number of threads. sw_model_decode_image (sinew-import)
   only reads it. */
#ifndef SINEW_MODEL_H
#define SINEW_MODEL_H

#include "sinew/base.h"
#include "sinew/math.h"
#include "sinew/anim.h"

SW_EXTERN_C_BEGIN

#define SW_MODEL_MAX_TEXCOORDS 4
#define SW_MODEL_MAX_INFLUENCES 8
/* How far from the origin, on any axis, a position may lie: 1e7 model
   units. Floats are 1 unit apart at 1e7 (2^23 ≈ 8.4e6), so a vertex
   beyond it cannot even be placed to the unit, and a float camera cannot
   frame it; no character reaches it, in metres, centimetres or
   millimetres (10 km). The importer keeps such positions; sinew check
   reports them (extent_absurd) and the renderer refuses to draw them. */
#define SW_MODEL_MAX_EXTENT 1e7

typedef enum sw_model_alpha_mode {
    SW_MODEL_ALPHA_OPAQUE = 0,
    SW_MODEL_ALPHA_MASK,
    SW_MODEL_ALPHA_BLEND,
} sw_model_alpha_mode;

/* A texture reference with its UV transform (offset, rotation, scale). */
typedef struct sw_model_texture_ref {
    int32_t texture;      /* index into textures, -1 = none */
    int32_t texcoord;     /* texture coordinate set (the transform's override applied) */
    float scale;          /* normal map scale / occlusion strength; 1 otherwise */
    bool has_transform;   /* a UV transform is present */
    float offset[2];
    float rotation;       /* radians */
    float uv_scale[2];
} sw_model_texture_ref;

/* A metallic-roughness material (the glTF 2.0 core material model). */
typedef struct sw_model_material {
    const char* name;
    float base_color_factor[4];
    sw_model_texture_ref base_color_texture;
    float metallic_factor;
    float roughness_factor;
    sw_model_texture_ref metallic_roughness_texture;
    sw_model_texture_ref normal_texture;
    sw_model_texture_ref occlusion_texture;
    float emissive_factor[3];
    sw_model_texture_ref emissive_texture;
    /* With has_emissive_strength, emissive_strength (>= 0) multiplies
       emissive_factor, which glTF keeps within [0, 1]
       (KHR_materials_emissive_strength's emissiveStrength, or VRM's
       VRMC_materials_hdr_emissiveMultiplier, which wins when both are
       there, as in three-vrm). Without it (a zeroed material, or a file
       with neither) the multiplier is 1. */
    bool has_emissive_strength;
    float emissive_strength;
    sw_model_alpha_mode alpha_mode;
    float alpha_cutoff;   /* default 0.5 */
    bool double_sided;
    bool unlit;           /* no lighting: base colour as is */
    /* KHR_materials_transmission: the part of the light that passes
       through the surface (factor × the texture's R), 0 = none. */
    float transmission_factor;
    sw_model_texture_ref transmission_texture;
    /* KHR_materials_volume: the thickness under the surface (factor × the
       texture's G, in the mesh's units; 0 = thin-walled) and the
       Beer–Lambert attenuation: the colour white light takes after
       attenuation_distance (0 = infinite: no attenuation). */
    float thickness_factor;
    sw_model_texture_ref thickness_texture;
    float attenuation_distance;
    float attenuation_color[3];
    /* KHR_materials_ior; 0 = not given (glTF's default 1.5). */
    float ior;
    /* SW_materials_snow (docs/extensions.md, docs/snow.md): a snow cover
       over the material, its amount per vertex in COLOR_0's alpha. */
    bool snow;
    float snow_cover_color[3];  /* linear RGB, default (0.9, 0.92, 0.97) */
    float snow_threshold;       /* normal·up where the cover starts, default 0.53 */
    float snow_width;           /* its transition width, default 0.34 */
    float snow_roughness;       /* the cover's roughness, default 0.8 */
    float snow_sparkle;         /* glint strength, default 1 */
} sw_model_material;

typedef struct sw_model_texture {
    int32_t image;        /* -1 = none */
    int32_t sampler;      /* -1 = default sampler */
} sw_model_texture;

typedef struct sw_model_sampler {
    int32_t mag_filter, min_filter, wrap_s, wrap_t; /* OpenGL enums; 0 = unset for filters */
} sw_model_sampler;

/* An encoded image (PNG or JPEG). Its bytes are either in memory the model
   owns (`data`, e.g. embedded in a binary file) or found through `uri`: a
   data: URI or a path relative to the model's base_dir. sw_model_decode_image
   reads either. */
typedef struct sw_model_image {
    const char* name;
    const char* uri;          /* as written in the file (may be a data: URI); NULL when `data` is set */
    const char* mime_type;    /* may be NULL */
    const uint8_t* data;      /* embedded bytes, or NULL */
    size_t data_size;
} sw_model_image;

typedef enum sw_model_mode {
    SW_MODEL_POINTS = 0,
    SW_MODEL_LINES = 1,
    SW_MODEL_LINE_LOOP = 2,
    SW_MODEL_LINE_STRIP = 3,
    SW_MODEL_TRIANGLES = 4,
    SW_MODEL_TRIANGLE_STRIP = 5,
    SW_MODEL_TRIANGLE_FAN = 6,
} sw_model_mode;

/* Deltas of one morph target; each array is vertex_count × 3 floats or NULL. */
typedef struct sw_model_morph_target {
    const float* positions;
    const float* normals;
    const float* tangents;    /* xyz deltas of the tangent */
} sw_model_morph_target;

typedef struct sw_model_primitive {
    sw_model_mode mode;
    int32_t material;         /* -1 = default material */
    size_t vertex_count;
    const float* positions;   /* vertex_count × 3 (always present) */
    const float* normals;     /* × 3, or NULL */
    const float* tangents;    /* × 4 (w = handedness), or NULL */
    int texcoord_count;       /* sets 0 .. texcoord_count-1 */
    const float* texcoords[SW_MODEL_MAX_TEXCOORDS]; /* × 2 each */
    const float* colors;      /* vertex colour 0 as RGBA floats (RGB gets alpha 1), or NULL */
    int influence_count;      /* 0 (not skinned), 4 or 8 */
    const uint16_t* joints;   /* vertex_count × influence_count, indices into the skin's joints */
    const float* weights;     /* vertex_count × influence_count, rows sum to 1 */
    int influence_sets;       /* sets of four influences in the file */
    /* With the importer's keep_raw_influences (else 0 and NULL): the file's
       influences as read, 4 × influence_sets slots per vertex (set 0's four,
       then set 1's, ...); weights decoded but not renormalised, zero and
       negative weights and their joints included. For validators. */
    int raw_influence_count;
    const uint16_t* raw_joints;     /* vertex_count × raw_influence_count */
    const float* raw_weights;       /* vertex_count × raw_influence_count */
    size_t index_count;
    const uint32_t* indices;  /* NULL = not indexed */
    size_t target_count;
    const sw_model_morph_target* targets;
    float bounds_min[3], bounds_max[3]; /* of positions as decoded */
} sw_model_primitive;

typedef struct sw_model_mesh {
    const char* name;
    size_t primitive_count;
    const sw_model_primitive* primitives;
    size_t weight_count;            /* morph targets (the same in every primitive) */
    const float* weights;           /* default morph weights, or zeros */
    const char* const* target_names; /* morph target names, or NULL */
} sw_model_mesh;

/* A skin: the joints that deform a mesh and their inverse bind matrices
   (stored inverted, as files give them: bind space → joint space). */
typedef struct sw_model_skin {
    const char* name;
    size_t joint_count;
    const uint32_t* joints;         /* node index of each skin joint */
    const sw_mat34* inverse_bind;   /* joint_count matrices (identity when absent) */
    int32_t skeleton;               /* node, -1 if not given */
    size_t palette_offset;          /* this skin's first matrix in a pose's skin palette (pose.h) */
} sw_model_skin;

typedef struct sw_model_node {
    const char* name;
    int32_t parent;                 /* -1 for roots; always < this node's index */
    size_t child_count;
    const uint32_t* children;
    int32_t mesh, skin, camera;     /* -1 = none */
    bool has_matrix;                /* local transform given as a matrix */
    sw_mat34 matrix;                /* the matrix (identity when TRS) */
    sw_transform trs;               /* TRS (identity when has_matrix) */
    size_t weight_count;            /* the node's own default morph weights, or 0 */
    const float* weights;
    uint32_t weight_offset;         /* this node's morph weights in a pose's weight array */
    uint32_t source_index;          /* the node's index in the file */
} sw_model_node;

typedef struct sw_model_scene {
    const char* name;
    size_t node_count;
    const uint32_t* nodes;          /* root nodes */
} sw_model_scene;

/* What an extension record is attached to. */
typedef enum sw_model_object {
    SW_MODEL_OBJECT_MODEL = 0,
    SW_MODEL_OBJECT_NODE,
    SW_MODEL_OBJECT_MESH,
    SW_MODEL_OBJECT_MATERIAL,
} sw_model_object;

/* Data an importer keeps for stages it does not interpret itself (toon
   material parameters, spring bones, humanoid maps): the extension's name,
   the object it belongs to, and its content as JSON text. */
typedef struct sw_model_extension {
    const char* name;               /* e.g. "VRMC_materials_mtoon" */
    sw_model_object object;
    uint32_t index;                 /* node (model order), mesh or material index; 0 for the model */
    const char* json;               /* the extension's value, compact JSON */
} sw_model_extension;

/* A punctual light (KHR_lights_punctual) where a node carries it: one
   entry per node that names a light (a light on two nodes is two
   entries). It shines from the node's world position, down the node's
   −Z axis (directional, spot). Units as glTF's: intensity in candela
   (point, spot) or lux (directional); range in metres, 0 = unbounded;
   cone angles in radians (0 ≤ inner < outer ≤ π/2). sinew/render.h's
   sw_render_light_from_model places it at a pose. */
typedef enum sw_model_light_type {
    SW_MODEL_LIGHT_DIRECTIONAL = 0,
    SW_MODEL_LIGHT_POINT = 1,
    SW_MODEL_LIGHT_SPOT = 2,
} sw_model_light_type;
typedef struct sw_model_light {
    const char* name;               /* the light's, may be NULL */
    sw_model_light_type type;
    float color[3];                 /* linear RGB, default white */
    float intensity;                /* default 1 */
    float range;
    float inner_cone_angle, outer_cone_angle; /* spot only; defaults 0 and π/4 */
    int32_t node;                   /* model index of the node it hangs on */
    uint32_t source;                /* index in the file's KHR_lights_punctual.lights */
} sw_model_light;

typedef struct sw_model {
    const char* path;               /* the file it came from, or the name given for memory loads */
    const char* generator;          /* the exporting tool, or NULL */
    size_t scene_count;   const sw_model_scene* scenes;
    int32_t default_scene;          /* the file's default scene, else 0, else -1 (no scenes) */
    size_t node_count;    const sw_model_node* nodes;   /* parents first */
    const uint32_t* node_from_source; /* file index → model index (node_count entries) */
    size_t mesh_count;    const sw_model_mesh* meshes;
    size_t skin_count;    const sw_model_skin* skins;
    size_t skin_joint_count;        /* joints of all skins: a pose's palette size */
    size_t animation_count;
    const sw_clip* animations;      /* tracks target node indices (model order) */
    size_t material_count; const sw_model_material* materials;
    size_t texture_count; const sw_model_texture* textures;
    size_t sampler_count; const sw_model_sampler* samplers;
    size_t image_count;   const sw_model_image* images;
    size_t weight_count;            /* morph weights of all nodes with a morphed mesh */
    const uint32_t* weight_offsets; /* node_count: each node's weight_offset, for sw_sample_job */
    const sw_transform* rest_local; /* node_count: each node's TRS (identity for matrix nodes) */
    const float* rest_weights;      /* weight_count: default morph weights (the node's, else the mesh's) */
    size_t extension_count; const sw_model_extension* extensions;
    size_t warning_count;
    const char* const* warnings;    /* one line each, naming the file */
    /* Where sw_model_decode_image finds image files: the folder relative
       URIs resolve against (NULL = external files refused) and whether
       absolute paths and ".." out of it are allowed. */
    const char* base_dir;
    bool allow_outside_paths;
    /* The files the load read besides `path`, each as opened (resolved
       through symbolic links): Assimp's side files (an OBJ's mtllib, MD5
       animation files, ...). Image files are not listed: images[].uri
       under base_dir names them. A tool that writes files refuses to
       replace any of these (docs/cli.md). */
    size_t side_file_count;
    const char* const* side_files;
    /* What the file was and what import changed (import.h; docs/import.md).
       format: "glTF", "GLB", "FBX", "Collada", ... (static text; NULL when
       the model was not made by an importer). unit_scale_to_metres: metres
       per file unit as the file states it (FBX: UnitScaleFactor / 100;
       glTF: 1), 0 when the file does not say. up_axis_read: the file's up
       axis as it states it ("+Y", "+Z", "-Y", ...), "" when it does not
       say. Positions reach metres, +Y up through the nodes (a transform on
       the root where the file needed one), not by rewriting vertices. */
    const char* format;
    float unit_scale_to_metres;
    char up_axis_read[3];
    size_t import_dropped_vertices;  /* vertices with more weights than the importer kept */
    float import_dropped_weight;     /* the largest weight dropped from one vertex (before renormalising) */
    size_t import_collapsed_nodes;   /* helper nodes folded into the joints they lead to (FBX pivots) */
    /* Punctual lights (glTF KHR_lights_punctual; none from other importers). */
    size_t light_count; const sw_model_light* lights;
} sw_model;


/* Frees a model made by an importer (and everything it points to); NULL is allowed. */
void sw_model_free(sw_model* model);

/* The node named `name`, or -1: an exact match first, then one that
   differs only in ASCII case, then one equal without namespace prefixes
   (after the last ':' or '|': "mixamorig:Hips", "Armature|Hips"); among
   equals, a skin joint before other nodes, then the first in model order.
   Clip merging and retargeting match names by the same rule. */
int32_t sw_model_find_node_by_name(const sw_model* model, const char* name);

/* The index in model->animations of the clip named `name`, or -1: an exact
   match first, then one that differs only in ASCII case ("walk" finds
   "Walk"); among equals, the first in model order. Clips without a name
   are never found. */
int32_t sw_model_find_clip(const sw_model* model, const char* name);

/* The extension record `name` attached to (object, index), or NULL. */
const sw_model_extension* sw_model_find_extension(const sw_model* model, const char* name, sw_model_object object,
                                                  uint32_t index);


SW_EXTERN_C_END

#endif
