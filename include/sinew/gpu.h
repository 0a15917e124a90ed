/* GPU skinning: an OpenGL 4.3 core context without a window (EGL), and
   compute skinning that writes deformed vertices into buffers every later
   pass draws like static geometry (what UE, Unity and Godot do).

   Part of the sinew-render library (libsinew_render.a, links libepoxy and
   EGL); the core library never touches a GPU. The context may come from
   anywhere: sw_gl_context is one source (headless), a window's (GLFW, as
   sinew view makes) another; nothing here or in the renderer (sinew/
   render.h) asks EGL for anything, libepoxy resolves GL for whichever
   window system made the current context. GL object names are plain
   uint32_t so that this header needs no GL header.

   THREADS. Every function except sw_gl_context_create,
   sw_gpu_mesh_desc_from_primitive and sw_gpu_shader_sources needs a GL
   context current on the calling thread: the one the objects were made
   in, or one that shares its objects. sw_gl_context_create makes its new
   context current on the calling thread (sw_gl_context_make_current moves
   it to another; a context is current on one thread at a time). An object
   (skinner, mesh, palette, instance, model palette or primitive) is used
   by one thread at a time, and objects that refer to each other (a
   primitive and its shared palette, an instance and its mesh) belong to
   the same thread. sw_gpu_mesh_desc_from_primitive and
   sw_gpu_shader_sources touch no GL and may run on any thread. The model
   a GPU object was made from is only read, and may be shared.

   The pieces:
     sw_gl_context   EGL display + GL 4.3+ core context, no surface.
     sw_gpu_skinner  the compiled skinning programs (one per variant, made
                     on first use) and the dispatch counters.
     sw_gpu_mesh     a primitive's static streams in GPU buffers: bind-pose
                     positions, normals, tangents, joints and weights in
                     their imported formats, dense morph deltas.
     sw_gpu_palette  one skeleton's skin matrices (3 vec4 rows per joint) or
                     dual quaternions (2 vec4, then 3 stretch rows) and a
                     revision that every update bumps.
     sw_gpu_instance one drawn copy of a mesh: output buffers (positions
                     twice, for the previous frame) and its skin-cache key.
     sw_gpu_model_palette, sw_gpu_model_primitive
                     the same for a model (pose.h): one palette per skin
                     shared by the primitives it deforms, and one (node,
                     primitive) as a mesh and an instance. */
#ifndef SINEW_GPU_H
#define SINEW_GPU_H

#include "sinew/model.h"
#include "sinew/pose.h"
#include "sinew/skin.h"

SW_EXTERN_C_BEGIN

/* ---- Context ---------------------------------------------------------------- */

typedef enum sw_gl_platform {
    SW_GL_PLATFORM_AUTO = 0,    /* device, then surfaceless, then the default display */
    SW_GL_PLATFORM_DEVICE,      /* EGL_EXT_platform_device: a GPU (or Mesa's software device), no window system */
    SW_GL_PLATFORM_SURFACELESS, /* EGL_MESA_platform_surfaceless */
    SW_GL_PLATFORM_DEFAULT,     /* eglGetDisplay(EGL_DEFAULT_DISPLAY) */
} sw_gl_platform;

typedef struct sw_gl_context_desc {
    sw_gl_platform platform;
    bool debug;      /* a debug context; GL errors are then printed to stderr */
} sw_gl_context_desc;

typedef struct sw_gl_context_info {
    const char* platform;    /* "device", "surfaceless" or "default" */
    const char* egl_vendor;
    const char* gl_version;  /* GL_VERSION */
    const char* gl_renderer; /* GL_RENDERER, e.g. "llvmpipe (...)" or the GPU's name */
    const char* gl_vendor;
    int gl_major, gl_minor;
} sw_gl_context_info;

typedef struct sw_gl_context sw_gl_context;

/* Creates a GL 4.3+ core context with no surface and makes it current.
   desc may be NULL. On failure the message lists every platform tried and
   what EGL answered (SW_ERR_UNSUPPORTED when no EGL display exists at all). */
sw_result sw_gl_context_create(const sw_gl_context_desc* desc, sw_gl_context** out_context, sw_diag* diag);
void sw_gl_context_destroy(sw_gl_context* context);
sw_result sw_gl_context_make_current(sw_gl_context* context, sw_diag* diag);
void sw_gl_context_get_info(const sw_gl_context* context, sw_gl_context_info* out_info);

/* Fails (with the error names) if glGetError reports anything; `what` names
   the step in the message. Clears the error flags. */
sw_result sw_gl_check(const char* what, sw_diag* diag);

/* A shader of `stage` (a GLenum: GL_VERTEX_SHADER, GL_COMPUTE_SHADER...)
   from `count` source strings, in *out_shader. On failure nothing is kept
   and diag says "compiling NAME failed: " and the driver's log, on one
   line. */
sw_result sw_gl_compile_shader(unsigned stage, int count, const char* const* sources, const char* name,
                               uint32_t* out_shader, sw_diag* diag);
/* Links `program` (its shaders attached by the caller). On failure the
   program is deleted and diag says "linking NAME failed: " and the log. */
sw_result sw_gl_link_program(uint32_t program, const char* name, sw_diag* diag);

/* ---- Skinning ------------------------------------------------------------- */

/* Morph targets of at most this many nonzero weights are applied per dispatch. */
#define SW_GPU_MAX_ACTIVE_TARGETS 256

typedef struct sw_gpu_morph_target {
    const float* positions; /* vertex_count × 3 deltas, or NULL */
    const float* normals;   /* × 3, or NULL */
    const float* tangents;  /* × 3 (xyz; w is never morphed), or NULL */
} sw_gpu_morph_target;

/* The static streams of one primitive, all tightly packed. Joints and
   weights are uploaded in the format given and decoded in the shader, so a
   u8/u16 file costs its own size in GPU memory. */
typedef struct sw_gpu_mesh_desc {
    size_t vertex_count;
    int influence_count;            /* 0 (rigid or morph only) or 1..SW_MAX_INFLUENCES */
    const float* positions;         /* × 3, required */
    const float* normals;           /* × 3, or NULL */
    const float* tangents;          /* × 4 (w = handedness), or NULL */
    const void* joints;             /* vertex_count × influence_count */
    sw_joint_format joint_format;   /* DEFAULT = U16 */
    const void* weights;            /* vertex_count × influence_count, rows sum to 1 */
    sw_weight_format weight_format; /* DEFAULT = F32 */
    size_t target_count;
    const sw_gpu_morph_target* targets;
} sw_gpu_mesh_desc;

typedef struct sw_gpu_skinner sw_gpu_skinner;
typedef struct sw_gpu_mesh sw_gpu_mesh;
typedef struct sw_gpu_palette sw_gpu_palette;
typedef struct sw_gpu_instance sw_gpu_instance;

/* Checks the context (GL 4.3, compute limits) and prepares the programs. */
sw_result sw_gpu_skinner_create(sw_gpu_skinner** out_skinner, sw_diag* diag);
void sw_gpu_skinner_destroy(sw_gpu_skinner* skinner);

/* Uploads the streams. Checks sizes (GPU buffers are limited to what
   GL_MAX_SHADER_STORAGE_BLOCK_SIZE allows) and the influence count. */
sw_result sw_gpu_mesh_create(const sw_gpu_mesh_desc* desc, sw_gpu_mesh** out_mesh, sw_diag* diag);
void sw_gpu_mesh_destroy(sw_gpu_mesh* mesh);
size_t sw_gpu_mesh_vertex_count(const sw_gpu_mesh* mesh);
/* Bytes of GPU memory the mesh's static buffers hold. */
size_t sw_gpu_mesh_bytes(const sw_gpu_mesh* mesh);

/* The skinner hands out the palette's identity for the skin cache. */
sw_result sw_gpu_palette_create(sw_gpu_skinner* skinner, size_t joint_count, sw_gpu_palette** out_palette,
                                sw_diag* diag);
void sw_gpu_palette_destroy(sw_gpu_palette* palette);
/* Uploads a new palette and bumps the revision. Either or both forms:
   matrices (LBS), dual_quats (DQS) with stretch (NULL = rigid, see
   sw_skin_dual_quats). A dispatch with a method whose form was never
   uploaded fails. */
sw_result sw_gpu_palette_update(sw_gpu_palette* palette, const sw_mat34* matrices, const sw_dualquat* dual_quats,
                                const sw_mat34* stretch, sw_diag* diag);
uint64_t sw_gpu_palette_revision(const sw_gpu_palette* palette);

/* ---- Crowds: many characters in one dispatch --------------------------------

   A palette and an instance made for instance_count characters hold them
   one after another: the palette's buffers hold instance_count palettes of
   joint_count joints (sw_gpu_palette_update then takes instance_count ×
   joint_count matrices, dual quaternions and stretch matrices, instance i's
   joints at i × joint_count), and the instance's outputs instance_count
   copies of the mesh (instance i's vertex v at i × vertex_count + v of each
   stream): sw_gpu_palette_create_crowd and sw_gpu_instance_create_crowd.
   sw_gpu_skin skins them all in one compute dispatch, one row of
   work groups per instance; each instance's output is exactly what one
   instance with that instance's palette gives. The morph weights
   (sw_gpu_instance_set_morph_weights) are shared by all. With
   instance_count 1 these are sw_gpu_palette_create and
   sw_gpu_instance_create. A crowd needs the compute path, a palette of as
   many instances (or none, for a mesh left in bind space) and no more
   instances than the GPU's work group count along y (65535 at least). */
sw_result sw_gpu_palette_create_crowd(sw_gpu_skinner* skinner, size_t joint_count, size_t instance_count,
                                      sw_gpu_palette** out_palette, sw_diag* diag);

sw_result sw_gpu_instance_create(const sw_gpu_mesh* mesh, sw_gpu_instance** out_instance, sw_diag* diag);
/* instance_count copies of the mesh's outputs (see "Crowds" above);
   SW_ERR_UNSUPPORTED when they exceed the GPU's storage block size. */
sw_result sw_gpu_instance_create_crowd(const sw_gpu_mesh* mesh, size_t instance_count,
                                       sw_gpu_instance** out_instance, sw_diag* diag);
void sw_gpu_instance_destroy(sw_gpu_instance* instance);
/* Sets the morph weights (mesh target_count floats); a change re-skins the
   instance on its next sw_gpu_skin even if the palette did not change. */
sw_result sw_gpu_instance_set_morph_weights(sw_gpu_instance* instance, const float* weights, size_t count,
                                            sw_diag* diag);

typedef enum sw_gpu_skin_path {
    SW_GPU_PATH_COMPUTE = 0,    /* a compute pass (local_size_x = 64) writing the output buffers */
    /* The vertex-shader skinning of classic animation cores: rest attributes through
       glVertexAttribPointer, joints through glVertexAttribIPointer, the
       palette from the same SSBO; here its outputs are captured with
       transform feedback into the same buffers, so the two paths can be
       compared and either can feed the renderer. */
    SW_GPU_PATH_VERTEX_SHADER,
} sw_gpu_skin_path;

typedef struct sw_gpu_skin_desc {
    sw_skin_method method;       /* LBS (default) or DQS */
    sw_normal_mode normal_mode;  /* BLENDED (default) or COFACTOR (LBS only; DQS rotates) */
    sw_gpu_skin_path path;
    /* Skin cache (as UE and Godot keep one): the instance is re-skinned only when the
       palette's (buffer, revision) pair, the method, path or its morph
       weights changed since its last dispatch. force = dispatch anyway. */
    bool force;
} sw_gpu_skin_desc;

/* Skins one instance with one palette. The palette must have as many
   joints as the mesh's joint indices need (an index ≥ joint count reads
   joint 0, as on the CPU). A mesh without influences is moved rigidly by
   palette joint 0 (a node's world matrix; normals by the cofactor, as
   sw_deform_primitive does), or stays in bind space with palette NULL. Returns SW_OK whether it dispatched or skipped;
   *out_dispatched (may be NULL) says which. The previous positions become
   the last output on a dispatch (the two position buffers swap; nothing is
   copied) and equal the current ones after a skip (nothing moved). */
sw_result sw_gpu_skin(sw_gpu_skinner* skinner, sw_gpu_instance* instance, const sw_gpu_palette* palette,
                      const sw_gpu_skin_desc* desc, bool* out_dispatched, sw_diag* diag);

typedef struct sw_gpu_skin_stats {
    uint64_t dispatched;        /* sw_gpu_skin calls that ran the shader */
    uint64_t skipped;           /* calls the skin cache answered */
    uint64_t vertices_skinned;
    uint64_t programs_compiled;
} sw_gpu_skin_stats;
void sw_gpu_skinner_get_stats(const sw_gpu_skinner* skinner, sw_gpu_skin_stats* out_stats);

/* The instance's output buffers, to bind as vertex attributes: positions
   and previous positions (vec3, 12-byte stride), normals (vec3) and
   tangents (vec4) at byte offsets in one buffer (0 names = absent). */
typedef struct sw_gpu_instance_buffers {
    uint32_t positions;
    uint32_t previous_positions;
    uint32_t normals_tangents;
    size_t normals_offset, tangents_offset; /* SIZE_MAX = absent */
    size_t vertex_count;
    /* Crowds: copies of the mesh, each stream holding instance after
       instance (vertex v of instance i at i × vertex_count + v). */
    size_t instance_count;
} sw_gpu_instance_buffers;
void sw_gpu_instance_get_buffers(const sw_gpu_instance* instance, sw_gpu_instance_buffers* out_buffers);

/* Reads the outputs back (waits for the GPU). Any pointer may be NULL;
   positions/previous/normals × 3 floats per vertex, tangents × 4, for
   every instance (instance_count × vertex_count vertices). */
sw_result sw_gpu_instance_read(const sw_gpu_instance* instance, float* positions, float* previous_positions,
                               float* normals, float* tangents, sw_diag* diag);

/* Fills a mesh description with a model primitive's streams (f32 weights,
   u16 joints as the importer holds them). `targets` needs
   prim->target_count entries and must outlive the description. */
void sw_gpu_mesh_desc_from_primitive(const sw_model_primitive* prim, sw_gpu_morph_target* targets,
                                sw_gpu_mesh_desc* out_desc);

/* ---- Model palettes ---------------------------------------------------------

   The palette a model's primitives are skinned with, for instance_count
   copies (crowds, see above; 1 for one character): a skin's joints (every
   primitive with influences on a node of that skin), or a rigid node's
   world matrix as joint 0 (the node's primitives without influences). A
   pose is compared, converted and uploaded once per palette, whatever the
   number of primitives it deforms: sw_gpu_model_palette_pose only keeps
   the matrices (an unchanged pose keeps the revision, so the skin cache
   skips); the first skinning after it uploads them, and, when that
   skinning is DQS, their dual quaternions, computed then, once per pose.
   The model must outlive the palette. */
typedef struct sw_gpu_model_palette sw_gpu_model_palette;

sw_result sw_gpu_model_palette_create_skin(sw_gpu_skinner* skinner, const sw_model* model, size_t skin,
                                           size_t instance_count, sw_gpu_model_palette** out_palette, sw_diag* diag);
sw_result sw_gpu_model_palette_create_node(sw_gpu_skinner* skinner, const sw_model* model, size_t node,
                                           size_t instance_count, sw_gpu_model_palette** out_palette, sw_diag* diag);
void sw_gpu_model_palette_destroy(sw_gpu_model_palette* palette);
size_t sw_gpu_model_palette_instance_count(const sw_gpu_model_palette* palette);
/* Its GPU palette's revision (sw_gpu_palette_revision): one more per upload. */
uint64_t sw_gpu_model_palette_revision(const sw_gpu_model_palette* palette);
/* Takes count poses (pose.h, after sw_pose_update; count = the palette's
   instance_count): copy i's palette is placements[i] · its skin matrices
   (or the node's world matrix; placements NULL: none), so one posed
   character stands anywhere. */
sw_result sw_gpu_model_palette_pose(sw_gpu_model_palette* palette, const sw_pose* const* poses,
                                    const sw_mat34* placements, size_t count, sw_diag* diag);
/* Uploads now what a skinning with `method` reads (the first skinning
   after a pose does it otherwise): for a program that wants the upload
   apart from the dispatches, as sinew bench crowd times them.
   SW_ERR_INVALID_ARGUMENT before the first pose. */
sw_result sw_gpu_model_palette_upload(sw_gpu_model_palette* palette, sw_skin_method method, sw_diag* diag);

/* ---- Model primitives ----------------------------------------------------------

   One (node, primitive) of a model on the GPU: what sw_deform_primitive
   does on the CPU. Morph targets first, then the node's skin; a primitive
   without a skin is moved by the node's world matrix (normals by the
   cofactor). The model must outlive it. */
typedef struct sw_gpu_model_primitive sw_gpu_model_primitive;

/* A primitive with a palette of its own (sw_gpu_model_primitive_pose
   poses both). */
sw_result sw_gpu_model_primitive_create(sw_gpu_skinner* skinner, const sw_model* model, size_t node,
                                        size_t primitive, sw_gpu_model_primitive** out_primitive, sw_diag* diag);
/* The same with the tangent stream replaced by `tangents` (vertex_count ×
   4 floats, copied; morph targets leave it alone): a second direction per
   vertex skinned as tangents are, such as the renderer's outline normals. */
sw_result sw_gpu_model_primitive_create_tangents(sw_gpu_skinner* skinner, const sw_model* model, size_t node,
                                                 size_t primitive, const float* tangents,
                                                 sw_gpu_model_primitive** out_primitive, sw_diag* diag);
/* A crowd of the primitive (see "Crowds" above): instance_count copies,
   each with its own pose, skinned in one dispatch. `tangents` as in
   sw_gpu_model_primitive_create_tangents (NULL = the primitive's own). */
sw_result sw_gpu_model_primitive_create_crowd(sw_gpu_skinner* skinner, const sw_model* model, size_t node,
                                              size_t primitive, const float* tangents, size_t instance_count,
                                              sw_gpu_model_primitive** out_primitive, sw_diag* diag);
/* A primitive skinned with a shared palette (the palette's model and
   instance count): its skin's for a primitive with influences, else its
   node's (SW_ERR_INVALID_ARGUMENT for any other). The palette is posed by
   its owner and must outlive the primitive. `tangents` as above. */
sw_result sw_gpu_model_primitive_create_shared(sw_gpu_skinner* skinner, sw_gpu_model_palette* palette, size_t node,
                                               size_t primitive, const float* tangents,
                                               sw_gpu_model_primitive** out_primitive, sw_diag* diag);
void sw_gpu_model_primitive_destroy(sw_gpu_model_primitive* primitive);
/* Takes a pose (pose.h, after sw_pose_update): the palette's (when the
   primitive has its own, see sw_gpu_model_palette_pose) and the morph
   weights. Weights equal to the last ones change nothing, so the skin
   cache skips the next skin. */
sw_result sw_gpu_model_primitive_pose(sw_gpu_model_primitive* primitive, const sw_pose* pose, sw_diag* diag);
/* The same for a crowd: count poses (count = the instance count) and
   their placements, as sw_gpu_model_palette_pose; the morph weights are
   poses[0]'s. */
sw_result sw_gpu_model_primitive_pose_crowd(sw_gpu_model_primitive* primitive, const sw_pose* const* poses,
                                            const sw_mat34* placements, size_t count, sw_diag* diag);
/* Uploads what its palette lacks for desc->method (see "Model palettes"),
   then sw_gpu_skin. */
sw_result sw_gpu_model_primitive_skin(sw_gpu_skinner* skinner, sw_gpu_model_primitive* primitive,
                                      const sw_gpu_skin_desc* desc, bool* out_dispatched, sw_diag* diag);
/* Its instance: output buffers to draw, sw_gpu_instance_read to read back. */
sw_gpu_instance* sw_gpu_model_primitive_instance(const sw_gpu_model_primitive* primitive);
size_t sw_gpu_model_primitive_instance_count(const sw_gpu_model_primitive* primitive);

/* The GLSL of every program variant the skinner can build, as compiled
   (version line and defines included), for offline validation:
   calls visit(name, stage, source, user) for each, stage "comp" or "vert"
   (sw_render_shader_sources does the same for the renderer's). */
void sw_gpu_shader_sources(void (*visit)(const char* name, const char* stage, const char* source, void* user),
                           void* user);

SW_EXTERN_C_END

#endif
