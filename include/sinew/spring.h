/* sinew/spring.h — spring bones: the secondary motion of hair, skirts and
   accessories, as VRM specifies it (VRMC_springBone 1.0 and VRM 0.x
   secondaryAnimation; also sinew's own SW_spring_bones, the same JSON as
   VRMC_springBone 1.0 for plain glTF files, docs/extensions.md), on a
   fixed time step.

       sw_spring_set* set = NULL;                        // what the file says
       sw_spring_read(model, &set, &diag);               // VRMC_springBone, SW_spring_bones or VRM 0.x
       sw_spring_sizes sizes;
       sw_spring_sizes_of(model, set, &sizes, &diag);    // validates the set against the model
       void* memory = aligned_alloc(16, sw_spring_memory_size(&sizes));   // caller-owned
       sw_spring_state state;
       sw_spring_init(&state, &sizes, memory, model, set, NULL, &diag);
       every frame:
           sw_pose_sample(model, clip, t, true, &pose, &diag);   // local transforms
           sw_pose_update_world(model, &pose);                   // world: the step reads it
           sw_spring_update(&state, model, set, &pose, dt);      // writes the joints' rotations
           sw_pose_update(model, &pose);                         // world and skins again
       after a teleport: pose the character at its new place, update its world,
       then sw_spring_reset(&state, &pose).
       sw_spring_set_free(set);  free(memory);

   DATA (sw_spring_set, plain arrays; a reader returns one, a caller may
   fill one of their own). A CHAIN is a list of joints (model node
   indices), each an ancestor of the next. Each pair of consecutive joints
   is a BONE: the first (the head) is rotated so that it points at the
   second (the tail), whose position is simulated. The last joint is only a
   tail (VRM 1.0), unless the chain has a `tail_length`: then the last joint
   is a head too, with a virtual tail in its own space at
   normalize(its rest translation)·tail_length (VRM 0.x: 0.07; three-vrm's
   reading: in the joint's units, along the direction from its parent). A bone's parameters
   are its head joint's (stiffness, drag force, gravity power and
   direction, hit radius); the last joint's are used only by a virtual-tail
   bone. Nodes between two joints are carried along and never rotated.
   COLLIDERS (a sphere, a capsule: a sphere swept from `offset` to `tail`,
   either of them `inside` (the tail is kept in it), or a plane through
   `offset` with `normal`) sit on nodes, in the node's space; a chain
   collides with the colliders of its collider groups. A chain may name a
   CENTER node (below).

   THE STEP (fixed, h = options.step_s, default 1/60 s): VRMC_springBone
   1.0's algorithm (§ SpringBone Algorithm) as three-vrm 3.x computes it,
   bone by bone in three-vrm 3.5.5's order (its VRMSpringBoneManager's
   sort of the joints): a depth-first search over the bones in the set's
   order (chains, then each chain's bones; VRM 0.x trees in pre-order, as
   three-vrm adds them), in which a bone first visits the bones headed by
   the ancestors (root first) of each of its dependencies: its head's
   parent, then the nodes of its chain's colliders (groups, then their
   colliders, in order); a bone joins the order when its visit ends, and
   one met again before that (a circular dependency: a chain colliding
   with a collider on its own joints, two chains colliding with each
   other's) is skipped there, as three-vrm skips it (without its
   warning). So a bone runs after the bones above it and after the bones
   that move the colliders it meets, even when the file lists them
   later. After a bone turns, the step brings up to date the world
   matrices of every node below its head down to, not including, the
   next heads (its tail and the nodes between first), as three-vrm
   updates the children of a joint: the bones, colliders and centers
   read later in the step see it. A center is read when each bone runs.
   For the bone headed by node `head` with parent world P (current: the
   bones above have run):
     F     = P · rest_local(head)           the head's frame at rest (three-vrm's
                                            parent matrix × initial local matrix)
     H     = P · (head's pose translation)  the head's position
     a     = normalize(F₃ₓ₃ · tail_local)    the rest direction (unit)
     L     = |H − T₋|: T₋ the tail node's world position at the end of the
             previous step (or the reset), as three-vrm reads its child's
             world matrix before updating it; a virtual tail: the length of
             world(head) applied to tail_local
     C     = world(chain's center node), or identity without a center
     next  = C·(cur + (cur − prev)·(1 − drag)) + a·(stiffness·h)
                 + gravity_dir·(gravity_power·h)
     next  = H + normalize(next − H)·L                     length constraint
     collision (options.collision, below)
     prev = cur, cur = C⁻¹·next       (cur and prev are kept in the center's space)
     head rotation = rest rotation · fromTo(tail_local, F⁻¹·next)
   tail_local is the tail's position in the head's space in the model's
   rest pose (sw_model rest_local; for a virtual tail, the point described
   under DATA). Stiffness and gravity are per-step displacements scaled by
   h (stiffness adds stiffness·h metres per step along the rest direction);
   gravity_dir is used as given (not normalised, as in three-vrm and
   UniVRM: its length scales the force). The spring joints' own rotations in
   the pose are overwritten (animation on spring joints is replaced, as in
   UniVRM and three-vrm); their translations and scales are used.

   CENTER. A chain with a center node keeps its Verlet state (cur, prev)
   in that node's space, so the node's motion carries the tails along
   instead of dragging them (VRM 1.0 springs[].center, VRM 0.x
   boneGroups[].center): a chain with the character's root as its center
   does not swing when the character walks.

   COLLISION, SW_SPRING_COLLISION_VRM (the default): VRM's push, each
   collider once, in order (the chain's groups, then their colliders). With
   the collider's node world matrix W and its origin moved to W·offset (c):
     sphere:  d = |next − c| − hit_radius − radius, n = (next − c)/|next − c|
     capsule: the same from the point of the segment c .. c + W₃ₓ₃·(tail −
              offset) nearest to next
     inside sphere / capsule: d = radius − hit_radius − |next − c|, n negated
              (the tail is kept inside)
     plane:   d = (next − c)·n − hit_radius, n = normalize(W⁻ᵀ · normal)
     if d < 0: next = next − n·d, then the length constraint again.
   Radii and hit radii are used as given, not scaled by any node's world
   scale (three-vrm); a capsule's segment is (it goes through W).
   SW_SPRING_COLLISION_RESOLVE (a departure from VRM, sinew's earlier
   default): radii scale with the collider's and the head's world scale
   (the largest column length of the 3×3), and after VRM's push a sphere or
   capsule (not inside) that still holds the tail moves it to the nearest
   point of the circle where the sphere |x − H| = L meets the collider's
   surface (up to 4 rounds for a capsule, whose nearest centre moves), so
   the tail is never left inside a collider it can leave; only when that
   whole sphere lies inside the collider does VRM's result stand. Planes
   and inside shapes push as in VRM mode.

   FRAME RATE. sw_spring_update(dt) adds dt to the time carried over and
   runs as many whole steps as fit (a step runs when the carried time
   reaches h within 1e-6·h, so frame times that add up to whole steps in
   exact arithmetic do despite rounding), at most options.max_substeps
   (default 10; time beyond that is dropped: a hitch does not make the
   next frame run hundreds of steps). The same input therefore gives the
   same tails at the same simulated times whatever the frame rate. The pose
   given to one update is held for all of its steps, and every update
   (even one with no step) writes the joints' rotations from the current
   tails into pose->local. max_substeps is for an application's real-time
   update; an offline evaluator that must not drop time (sinew export and
   render) calls sw_spring_update once per step with dt = step_s, the pose
   sampled at each step's time. three-vrm steps once per frame with the
   frame's dt: equal when frames are steps.

   BOUNDED WORK: sw_spring_read takes time linear in the extension's JSON
   and the model, plus the rest pose of each bone's head (a walk to the
   root: O(bones · depth) matrix products, kept so that every number is
   the one the set-up computes); a VRM 0.x tree is given up at its first
   chain that cannot be kept. sw_spring_sizes_of takes O(nodes + joints +
   bones · depth): how many bones each node heads or lies between, and
   each node's nearest head, are counted once for all the bones.
   sw_spring_init adds the order: three-vrm walks every dependency's
   ancestors (quadratic on a long chain colliding with its own tip);
   here the heads not yet visited sit in a max-tree over the nodes'
   pre-order positions, which gives a dependency's shallowest such
   ancestor in O(log nodes), so the order takes O((nodes + bones +
   bone-collider pairs) · log nodes). A step is O(bones + nodes carried +
   bone-collider pairs), the nodes carried being at most the nodes.
   (`sinew export --joints`, parse and output included: a 3,000-joint
   chain 0.25 s, 20,000 chains 0.4 s.)

   MEMORY. A set returned by sw_spring_read is one owner freed by
   sw_spring_set_free (and only such a set). The simulation state is
   caller-owned: sw_spring_sizes_of validates a set against a model and
   says how big it is, sw_spring_memory_size gives the bytes (16-aligned),
   sw_spring_init fills it (the memory includes O(nodes + bones) scratch
   its checks and its ordering use). Nothing here allocates per step; sw_spring_read allocates
   the set, and sw_spring_sizes_of O(nodes) scratch freed before it
   returns (SW_ERR_OUT_OF_MEMORY when refused); sw_spring_init and the
   step allocate nothing. The model and the set must outlive the state.

   THREADS. No global state. A set and a model are read-only and may be
   shared; each state and pose belongs to one thread at a time.

   ERRORS. sw_spring_read and sw_spring_sizes_of / sw_spring_init return an
   sw_result with an sw_diag line; the readers' messages name the file and
   the JSON path (hero.vrm: extensions.VRMC_springBone.springs[2].joints[0].node:
   ...). What a reader can read around becomes a warning in the set
   (`warnings`, one line each) and the item is skipped or its value
   clamped; see sw_spring_read. sw_spring_reset and sw_spring_update only
   assert (their inputs were validated by sw_spring_init). */
#ifndef SINEW_SPRING_H
#define SINEW_SPRING_H

#include "sinew/base.h"
#include "sinew/math.h"
#include "sinew/model.h"
#include "sinew/pose.h"

SW_EXTERN_C_BEGIN

#define SW_SPRING_STEP_DEFAULT_S (1.0f / 60.0f)
#define SW_SPRING_MAX_SUBSTEPS_DEFAULT 10u
/* VRM 0.x: the virtual tail of a chain's last joint, in metres. */
#define SW_SPRING_VRM0_TAIL_LENGTH 0.07f

/* ---- the data --------------------------------------------------------------------------- */

typedef enum sw_spring_shape {
    SW_SPRING_SPHERE = 0, /* the default */
    SW_SPRING_CAPSULE,
    SW_SPRING_PLANE,      /* VRMC_springBone_extended_collider: the half-space behind a plane is solid */
} sw_spring_shape;

/* One joint of a chain and the parameters of the bone it heads. */
typedef struct sw_spring_joint {
    uint32_t node;         /* model index */
    float stiffness;       /* ≥ 0: pull toward the rest direction, metres per second */
    float drag_force;      /* 0..1: the fraction of the velocity lost each step */
    float gravity_power;   /* ≥ 0: metres per second along gravity_dir */
    sw_vec3 gravity_dir;   /* world space, used as given (not normalised) */
    float hit_radius;      /* ≥ 0: the tail's radius against colliders, in the head's units */
} sw_spring_joint;

typedef struct sw_spring_chain {
    const char* name;      /* may be NULL */
    size_t first_joint;    /* joints[first_joint .. first_joint + joint_count) */
    size_t joint_count;    /* ≥ 1; each joint's node an ancestor of the next one's */
    size_t first_group;    /* chain_groups[first_group .. first_group + group_count): */
    size_t group_count;    /*   the collider groups this chain collides with */
    float tail_length;     /* 0: the last joint is a tail only; > 0: it is a head too, with a virtual
                              tail at normalize(its rest translation)·tail_length in its own space */
    bool has_center;       /* the Verlet state is kept in node `center`'s space (CENTER above) */
    uint32_t center;       /* model index; used when has_center */
} sw_spring_chain;

typedef struct sw_spring_collider {
    uint32_t node;         /* model index: the collider moves with this node */
    sw_spring_shape shape;
    sw_vec3 offset;        /* the sphere's centre, the capsule's first end, a point of the plane;
                              in the node's space */
    sw_vec3 tail;          /* the capsule's other end, in the node's space (capsules only) */
    sw_vec3 normal;        /* the plane's normal, in the node's space, pointing out of the solid side
                              (planes only; any length but 0) */
    float radius;          /* ≥ 0, in the node's units (spheres and capsules) */
    bool inside;           /* spheres and capsules: the tail is kept inside instead of outside */
} sw_spring_collider;

typedef struct sw_spring_collider_group {
    const char* name;      /* may be NULL */
    size_t first_collider; /* group_colliders[first_collider .. first_collider + collider_count) */
    size_t collider_count;
} sw_spring_collider_group;

typedef enum sw_spring_source {
    SW_SPRING_SOURCE_NONE = 0,         /* built by the caller, or a model without spring bones */
    SW_SPRING_SOURCE_VRMC_SPRING_BONE, /* VRM 1.0: extensions.VRMC_springBone */
    SW_SPRING_SOURCE_VRM0,             /* VRM 0.x: extensions.VRM.secondaryAnimation */
    SW_SPRING_SOURCE_SINEW,            /* sinew's own: extensions.SW_spring_bones (docs/extensions.md) */
} sw_spring_source;

typedef struct sw_spring_set {
    sw_spring_source source;
    size_t joint_count;          const sw_spring_joint* joints;
    size_t chain_count;          const sw_spring_chain* chains;
    size_t chain_group_count;    const uint32_t* chain_groups;    /* indices into groups */
    size_t collider_count;       const sw_spring_collider* colliders;
    size_t group_count;          const sw_spring_collider_group* groups;
    size_t group_collider_count; const uint32_t* group_colliders; /* indices into colliders */
    size_t warning_count;        const char* const* warnings;     /* one line each */
} sw_spring_set;

/* sinew-import: reads the model's spring bones from its extension
   records: the root's VRMC_springBone if present (VRM 1.0), else the
   root's SW_spring_bones (sinew's own extension for plain glTF files, the
   demo character's among them: the same JSON as VRMC_springBone 1.0, read
   by the same parser, see
   docs/extensions.md; source SW_SPRING_SOURCE_SINEW), else the
   secondaryAnimation of the root's VRM record (VRM 0.x). With more than one,
   the first in that order is read and each one ignored is a warning. A
   model with none gives SW_OK and an empty set (source NONE).

   VRM 1.0 (and SW_spring_bones): springs[i] is chain i (named by `name`), springs[i].joints[j]
   joint j (defaults as the schema and UniVRM: stiffness 1, dragForce
   0.5, gravityPower 0, gravityDir [0, -1, 0], hitRadius 0; three-vrm
   takes 0.4 for a missing dragForce), springs[i].center the chain's center;
   colliders and colliderGroups map one to one. A collider's
   extensions.VRMC_springBone_extended_collider (specVersion "1.0") is
   read as three-vrm 3.x reads it: its shape's sphere, capsule or plane
   (in that order; `inside` for spheres and capsules, default false; a
   plane's offset and normal, default [0, 0, 1]) replaces the collider's
   shape; with another specVersion, or a shape with none of the three, the
   collider's own shape is used (a warning).

   VRM 0.x: boneGroups[g].bones lists ROOTS: the root and every descendant
   swing, each node toward its first child (file order), a leaf toward a
   virtual tail 0.07 on along its rest translation (three-vrm's reading). That tree
   becomes chains: from the root, follow first children down to a leaf
   (one chain); every other child of a node on it starts a chain of its own
   the same way, so a tree with k leaves makes k chains, each with
   tail_length 0.07, all with the group's parameters (`stiffiness` [sic],
   dragForce, gravityPower, gravityDir {x,y,z}, hitRadius; the 0.x schema
   gives no defaults: missing values are three-vrm's 1, 0.4, 0, (0, -1, 0)
   and 0, where UniVRM's 0.x importer takes 0 for all five (a zero
   gravityDir) and agrees on gravityPower and hitRadius only), center, and
   collider groups.
   Chains are listed group by group, root by root, each tree's so that
   its joints come in the tree's pre-order, the order three-vrm adds them
   in (a chain, then the chains branching off it from its bottom up, each
   node's other children in file order). colliderGroups[g] becomes
   group g: spheres on its node, offset {x, y, -z} (VRM 0.x stores z
   negated, as three-vrm reads it).

   ERRORS (SW_ERR_INVALID_DATA, the diag naming file and JSON path; no
   set): a value of the wrong JSON type, a missing required member (a
   joint's or collider's `node`, a spring's `joints`, a collider's `shape`,
   a VRM 1.0 collider group's `colliders`, a VRM 0.x collider group's
   `node`), a vector that is not 3 numbers, an index that is not an
   integer, a number beyond float range.
   WARNINGS (in set->warnings, naming the path; the reader goes on): an
   index out of range (the collider, the group's reference, or the whole
   spring / root is skipped), a shape with neither sphere nor capsule
   (collider skipped), joints out of ancestor order, a joint on a node
   that has a matrix transform, a zero-length bone, a virtual tail with no
   direction, a node already in an earlier chain (spring / root skipped),
   a spring of one joint (nothing swings), parameters out of the schema's
   range (clamped: stiffness, gravityPower, hitRadius, radius to ≥ 0,
   dragForce to 0..1), a `center` node out of range (the chain is simulated
   in world space; -1, which UniVRM writes for none, is not warned about),
   an unknown specVersion, an extended collider that is not understood (its
   specVersion, its shape, a plane normal of zero length: the collider's own
   shape is used).
   Every set it returns passes sw_spring_sizes_of for the same model.
   Release the set with sw_spring_set_free. */
sw_result sw_spring_read(const sw_model* model, sw_spring_set** out_set, sw_diag* diag);

/* sinew-import: frees a set made by sw_spring_read; NULL is allowed. */
void sw_spring_set_free(sw_spring_set* set);

/* ---- the simulation state --------------------------------------------------------------- */

/* How a tail meets a collider (COLLISION above). */
typedef enum sw_spring_collision {
    SW_SPRING_COLLISION_VRM = 0, /* the default: VRM's push and length constraint, each collider once */
    SW_SPRING_COLLISION_RESOLVE, /* not VRM: scaled radii, and never left inside a collider it can leave */
} sw_spring_collision;

typedef struct sw_spring_options {
    float step_s;            /* the fixed step in seconds; 0 = SW_SPRING_STEP_DEFAULT_S (1/60) */
    uint32_t max_substeps;   /* steps one update may run; 0 = SW_SPRING_MAX_SUBSTEPS_DEFAULT (10) */
    sw_spring_collision collision; /* 0 = SW_SPRING_COLLISION_VRM */
} sw_spring_options;

typedef struct sw_spring_sizes {
    size_t bone_count;       /* simulated bones (head, tail) */
    size_t node_count;       /* node lists: the nodes whose world matrices each bone's step keeps
                                current (see sw_spring_bone) */
    size_t model_node_count; /* the model's nodes: room for sw_spring_init's own scratch */
} sw_spring_sizes;

/* One simulated bone, derived by sw_spring_init. Read-only for callers.
   state->bones lists them in the step's order (THE STEP). */
typedef struct sw_spring_bone {
    uint32_t head;           /* the node rotated */
    int32_t tail;            /* the tail node, or -1 for a virtual tail */
    uint32_t joint;          /* set->joints index: the parameters */
    uint32_t chain;          /* set->chains index: its colliders and center */
    uint32_t path_first;     /* state->nodes[path_first .. + path_count): the nodes the step brings up to */
    uint32_t path_count;     /*   date after the head turns: below the head down to the tail, parents
                                first, then every other node below the head down to, not including,
                                the next heads, in node order (three-vrm's update of the children) */
    sw_vec3 tail_local;      /* the tail in the head's space, rest pose */
} sw_spring_bone;

/* Caller-owned state: every pointer points into the memory given to
   sw_spring_init. */
typedef struct sw_spring_state {
    const sw_model* model;           /* the model and set it was made for (checked by asserts) */
    const sw_spring_set* set;
    size_t bone_count;      sw_spring_bone* bones;   /* in the step's order */
    size_t node_count;      uint32_t* nodes;
    sw_vec3* current_tail;           /* bone_count tails, in the chain's center space (world without) */
    sw_vec3* previous_tail;          /* bone_count tails one step earlier, same space */
    sw_vec3* tail_node_world;        /* bone_count: where the tail node was at the end of the last step (world;
                                        the bone length's other end, THE STEP) */
    float step_s;                    /* options resolved */
    uint32_t max_substeps;
    sw_spring_collision collision;
    double carried_s;                /* time not yet simulated, in [0, step_s) */
    uint64_t step_count;             /* steps since the last reset */
    bool needs_reset;                /* set by init: the first update resets from its pose */
} sw_spring_state;

/* Validates `set` against `model` and gives the state's sizes. Errors
   (SW_ERR_INVALID_ARGUMENT for a missing array, SW_ERR_INDEX_OUT_OF_RANGE,
   SW_ERR_INVALID_DATA, SW_ERR_UNSUPPORTED for a head with a matrix
   transform; the diag names the chain, joint, collider or group, `index`
   the item): a range past its array; a node, group or collider index out
   of range; a non-finite value; stiffness, gravity power, hit radius,
   radius, tail_length below 0 or drag force outside 0..1; a center node
   out of range; a plane normal of zero length; a joint that is
   not a descendant of the one before it; a zero-length bone; a virtual
   tail without a direction (a root joint, or one at its parent's place);
   a node that heads two bones, or heads one while lying between the joints
   of another. O(nodes + bones · depth), once (BOUNDED WORK above). */
sw_result sw_spring_sizes_of(const sw_model* model, const sw_spring_set* set, sw_spring_sizes* out_sizes,
                             sw_diag* diag);

/* Bytes sw_spring_init needs, every array 16-aligned. */
size_t sw_spring_memory_size(const sw_spring_sizes* sizes);

/* Points `state` into `memory` (16-aligned, sw_spring_memory_size bytes,
   sizes from sw_spring_sizes_of for this model and set), derives the
   bones in the step's order and their node lists (validating again, with
   the same errors), and marks the state for a reset on the first update. options
   may be NULL (defaults); a step that is not finite and > 0 is
   SW_ERR_INVALID_ARGUMENT. */
sw_result sw_spring_init(sw_spring_state* state, const sw_spring_sizes* sizes, void* memory, const sw_model* model,
                         const sw_spring_set* set, const sw_spring_options* options, sw_diag* diag);

/* Starts over from `pose` (after a teleport, or to drop all motion): each
   tail where the pose puts it with the head at its rest rotation
   (world(parent) · TRS(pose translation, rest rotation, pose scale) ·
   tail_local, as three-vrm's reset), at rest (previous = current, in the
   center's space), and no carried time. pose->world must be current. The
   parents are taken as the pose has them: equal to three-vrm's reset when
   the pose does not rotate spring joints (its reset puts every joint back
   at its rest rotation first). */
void sw_spring_reset(sw_spring_state* state, const sw_pose* pose);

/* Advances the simulation by dt_s seconds (negative or non-finite counts
   as 0) in whole steps (see FRAME RATE above), then writes the spring
   joints' local rotations into pose->local and keeps pose->world current
   for every node below a head (the bones' node lists). On entry
   pose->world must be current for pose->local (sw_pose_update_world);
   afterwards run sw_pose_update_world (or sw_pose_update) for the skins.
   Colliders and centers are placed from pose->world as it is when the
   bone that uses them runs. Returns the number of steps run.
   Results are finite for models whose rest pose lies within
   SW_MODEL_MAX_EXTENT (model.h); beyond it, as for check and the
   renderer, nothing is promised but memory safety. */
uint32_t sw_spring_update(sw_spring_state* state, const sw_model* model, const sw_spring_set* set, sw_pose* pose,
                          float dt_s);

SW_EXTERN_C_END

#endif
