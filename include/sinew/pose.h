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

/* Bytes sw_pose_bind needs, every buffer 16-aligned: a multiple of 16 (at
   least 16), ready for aligned_alloc(16, size). */
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

/* ---- Partial update: the changed subtrees only -----------------------------

   When only some nodes' locals changed since the last update (an IK solve
   on a leg, a spring chain, a layer on the upper body), these rewrite the
   world matrices of those nodes and of their descendants, then the skin
   matrices (and dual quaternions and stretch, when the pose has them) of
   the skin joints among them, and nothing else.

       uint8_t* dirty = calloc(model->node_count, 1);   // caller-owned, kept between frames
       solve_leg_ik(pose.local, ...);                    // changes hip, knee, ankle
       dirty[hip] = dirty[knee] = dirty[ankle] = 1;
       sw_pose_update_dirty(model, &pose, dirty);        // dirty now lists every node rewritten
       ...                                               // deform what hangs under them
       memset(dirty, 0, model->node_count);

   The contract: everything not marked is up to date, i.e. the pose was
   updated (fully, or partially with marks) and since then only locals of
   marked nodes (or of their descendants) changed. Then the results are bit
   for bit those of sw_pose_update on the same locals: the same kernels run
   in the same order on the same inputs. What belongs to clean nodes and
   joints is not written; of it, only the world matrices of clean parents
   of marked nodes are read, and the stretch of a skin's clean joints when
   its scaled count is taken again (sw_pose_update_skins_dirty).

   `dirty` holds node_count flags, nonzero = marked; it is updated in place
   rather than copied to a scratch: marks propagate to descendants
   (dirty[i] = 1 when dirty[parent] is set, one forward pass since parents
   come first), so on return it says exactly which world matrices were
   rewritten, which is what a caller needs to choose the meshes to deform
   again. A caller that wants to keep its own marks copies them first.
   Morph weights are not nodes: sw_deform_primitive reads them directly.
   Like everything here, these keep no state; different poses may be
   updated on different threads. */

/* Marks `node` and every descendant of it, without a full update: one
   forward pass over the nodes after `node` (O(node_count − node)), since
   descendants come after their ancestors but not necessarily next to
   them. Nodes after `node` that descend from an earlier mark are marked
   too; sw_pose_update_dirty would mark them anyway. Marking just `node`
   is enough for sw_pose_update_dirty, which propagates itself: this is
   for callers who need the whole set before the update. */
void sw_pose_mark_subtree(const sw_model* model, uint8_t* dirty, size_t node);

/* Propagates the marks of `dirty` (in place) and rewrites pose->world for
   the marked nodes only. Returns how many world matrices were rewritten. */
size_t sw_pose_update_world_dirty(const sw_model* model, sw_pose* pose, uint8_t* dirty);

/* Every skin joint whose node is marked in `dirty`, which must already be
   propagated (as sw_pose_update_world_dirty leaves it, or with every mark
   set by sw_pose_mark_subtree): its skin matrix and, when pose->skin_dual_quats is set, its dual
   quaternion and stretch. The scaled count of each skin with a marked
   joint is counted again over all its joints' stretch matrices (a few
   compares per joint, no decomposition), so it is exact whatever changed;
   the counts of other skins are not written. */
void sw_pose_update_skins_dirty(const sw_model* model, sw_pose* pose, const uint8_t* dirty);

/* sw_pose_update_world_dirty, then sw_pose_update_skins_dirty (when the
   pose has skin matrices). Returns how many world matrices were rewritten. */
size_t sw_pose_update_dirty(const sw_model* model, sw_pose* pose, uint8_t* dirty);

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

/* Bytes of deform->scratch: 0 when the primitive has no morph targets (no
   scratch is needed, NULL is accepted), else a multiple of 16 (the morphed
   positions and normals). 0 too for a node or primitive out of range. */
size_t sw_deform_scratch_size(const sw_model* model, size_t node, size_t primitive);
sw_result sw_deform_primitive(const sw_model* model, const sw_pose* pose, const sw_deform* deform, sw_diag* diag);

/* ---- The ground under a point ------------------------------------------------

   Where something standing at (x, z) rests on a posed model (a stage):
   the highest walkable triangle under the point, its height there. A
   triangle is walkable when its normal (by its winding, either side for a
   double-sided material) is within 50° of up, normal.y > cos 50° (the
   frame analysis' walkable test); (x, z) may lie on its edge. Each
   primitive is deformed as sw_deform_primitive draws it (pose: after
   sw_pose_update, e.g. the rest pose), then moved by `placement` (NULL:
   none). Linear in the triangles; allocates scratch per primitive.
   *out_found false (and *out_y 0): no walkable triangle under (x, z). */
#define SW_GROUND_WALKABLE_COS 0.642788f
sw_result sw_model_ground_height(const sw_model* model, const sw_pose* pose, const sw_mat34* placement, float x,
                                 float z, float* out_y, bool* out_found, sw_diag* diag);

SW_EXTERN_C_END

#endif
