/* sinew/pose.h — a model at a time: local transforms, morph weights, world
   matrices and skin palettes, then the deformed vertices of one primitive.

       sw_pose_sizes sizes = sw_pose_sizes_of(model);
       void* memory = aligned_alloc(16, sw_pose_memory_size(&sizes));   // caller-owned
       sw_pose pose;
       sw_pose_bind(&pose, &sizes, memory);
       sw_pose_evaluate(model, &model->animations[0], t, true, &pose, &diag);
       // pose.local, pose.weights, pose.world, pose.skin_matrices, pose.skin_dual_quats

       sw_deform d = {.node = n, .primitive = p, .scratch = scratch,
                      .out_positions = positions, .out_normals = normals};
       sw_deform_primitive(model, &pose, &d, &diag);                    // morph + skin

   Evaluation is the pipeline of the core's jobs: the rest pose, one clip
   sampled over it (sw_sample_job), world = parent world · local in the
   model's parents-first order, skin matrices S = world[joint] · inverse
   bind (3×4 rows, for linear blend skinning) and their dual quaternions
   (for dual quaternion skinning, with the scale/shear residual of each
   joint). A caller who blends, layers or solves IK edits pose.local and
   pose.weights between sw_pose_sample and sw_pose_update.

   No function here allocates or keeps state: a pose is caller-owned
   buffers, so any number of poses of one model may be evaluated at once on
   different threads. */
#ifndef SINEW_POSE_H
#define SINEW_POSE_H

#include "sinew/base.h"
#include "sinew/math.h"
#include "sinew/anim.h"
#include "sinew/skin.h"
#include "sinew/model.h"

SW_EXTERN_C_BEGIN

/* Element counts of a pose's buffers. */
typedef struct sw_pose_sizes {
    size_t node_count;      /* local transforms and world matrices */
    size_t weight_count;    /* morph weights (model->weight_count) */
    size_t cursor_count;    /* sampling cursors: the most tracks of any of the model's clips */
    size_t skin_count;      /* per-skin scaled-joint counts */
    size_t palette_count;   /* skin matrices, dual quaternions and stretch matrices: all skins' joints */
} sw_pose_sizes;

sw_pose_sizes sw_pose_sizes_of(const sw_model* model);

/* A pose: caller-owned buffers of the sizes above. */
typedef struct sw_pose {
    sw_transform* local;          /* node_count local transforms */
    float* weights;               /* weight_count morph weights (node.weight_offset + target) */
    uint32_t* cursors;            /* cursor_count key cursors (hints; zeroed by sw_pose_bind); may be NULL */
    size_t cursor_count;
    sw_mat34* world;              /* node_count world matrices */
    sw_mat34* skin_matrices;      /* palette_count: skin s, joint j at skins[s].palette_offset + j */
    sw_dualquat* skin_dual_quats; /* palette_count, or NULL: dual quaternions not computed */
    sw_mat34* skin_stretch;       /* palette_count: what the dual quaternion leaves out (scale, shear) */
    size_t* skin_scaled;          /* skin_count: joints of each skin with scale or shear (0 = stretch unused) */
} sw_pose;

/* Bytes sw_pose_bind needs, every buffer 16-aligned. */
size_t sw_pose_memory_size(const sw_pose_sizes* sizes);

/* Points every buffer of `pose` into `memory` (16-aligned,
   sw_pose_memory_size bytes) and zeroes the cursors. */
void sw_pose_bind(sw_pose* pose, const sw_pose_sizes* sizes, void* memory);

/* The rest pose: each node's TRS (identity for matrix nodes) and its
   default morph weights (the node's own, else the mesh's, else 0). */
void sw_pose_rest(const sw_model* model, sw_pose* pose);

/* Rest pose, then `clip` (NULL = none) sampled at `time` seconds:
   sw_clip_time(clip, time, looping) maps it into the clip (wrapped when
   looping, held at the ends otherwise). The model's own clips
   (model->animations) were validated against it at import and are not
   checked again; any other clip is validated on every call (its tracks
   must target this model's nodes). */
sw_result sw_pose_sample(const sw_model* model, const sw_clip* clip, float time, bool looping, sw_pose* pose,
                         sw_diag* diag);

/* World matrices from pose->local (matrix nodes use their matrix). */
void sw_pose_update_world(const sw_model* model, sw_pose* pose);

/* Every skin's matrices from pose->world and, when pose->skin_dual_quats
   is set, their dual quaternions, stretch and scaled counts. */
void sw_pose_update_skins(const sw_model* model, sw_pose* pose);

/* sw_pose_update_world, then sw_pose_update_skins (when the pose has skin
   matrices). */
void sw_pose_update(const sw_model* model, sw_pose* pose);

/* sw_pose_sample, then sw_pose_update. */
sw_result sw_pose_evaluate(const sw_model* model, const sw_clip* clip, float time, bool looping, sw_pose* pose,
                           sw_diag* diag);

/* ---- Deforming one (node, primitive) instance ------------------------------

   Where the vertices of one instance are drawn, in world space: morph
   targets first (the pose's weights at the node's offset), then, if the
   node has a skin and the primitive has influences, skinning with the
   skin's palette from the pose (the node's own transform is ignored, as
   glTF and most engines do); otherwise the node's world matrix. Normals
   (optional) use the blended 3×3 and are renormalised (cofactor for rigid
   nodes, exact under any scale). DQS needs the pose's dual quaternions. */
typedef struct sw_deform {
    size_t node;
    size_t primitive;
    sw_skin_method method;        /* LBS (default) or DQS */
    void* scratch;                /* sw_deform_scratch_size() bytes, 16-aligned */
    float* out_positions;         /* vertex_count × 3 */
    float* out_normals;           /* vertex_count × 3, or NULL */
} sw_deform;

size_t sw_deform_scratch_size(const sw_model* model, size_t node, size_t primitive);
sw_result sw_deform_primitive(const sw_model* model, const sw_pose* pose, const sw_deform* deform, sw_diag* diag);

SW_EXTERN_C_END

#endif
