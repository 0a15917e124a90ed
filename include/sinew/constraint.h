/* sinew/constraint.h — node constraints: twist bones, sleeves and helper
   bones whose rotation follows another node, as VRM specifies them
   (VRMC_node_constraint 1.0: roll, aim and rotation constraints), with
   three-vrm 3.x as the reference behaviour.

       sw_constraint_set* set = NULL;                   // what the file says
       sw_constraint_read(model, &set, &diag);          // sinew-import; set stays NULL without constraints
       void* memory = aligned_alloc(16, sw_constraint_memory_size(model, set->constraint_count));
       sw_constraint_state state;                       // caller-owned
       sw_constraint_init(&state, memory, model, set->constraints, set->constraint_count, &diag);
       every frame:
           sw_pose_sample(model, clip, t, true, &pose, &diag);   // animation: local transforms
           sw_constraint_apply(&state, &pose);                   // writes the destinations' rotations
           ... spring bones (spring.h) read the world: sw_pose_update_world first ...
           sw_pose_update(model, &pose);
       sw_constraint_set_free(set);  free(memory);

   WHERE. After animation (and look-at), before spring bones, as VRM's
   update order has it. sw_constraint_apply reads pose->local and the
   model's rest pose and writes only the local ROTATION of each
   destination; pose->world is neither read nor written (call
   sw_pose_update_world or sw_pose_update afterwards).

   THE RULES (VRMC_node_constraint-1.0 README, as three-vrm evaluates
   them). Rotations are the nodes' local rotations; "rest" is the model's
   rest pose (model->rest_local), dst the destination, src the source,
   slerp the shorter arc, fromTo(a, b) the smallest rotation taking unit a
   to unit b (a zero b gives no rotation; opposite vectors turn 180° about
   an axis perpendicular to a, as three.js picks it):
     rotation: target = dstRest · srcRest⁻¹ · src
     roll:     delta  = dstRest⁻¹ · src · srcRest⁻¹ · dstRest   (the source's change, in dst's rest frame)
               target = dstRest · fromTo(delta·axis, axis) · delta
               (the twist of delta about the roll axis: its swing removed)
     aim:      P      = the rotation of world(dst's parent) (its 3×3 with the column lengths divided out)
               from   = P · dstRest · axis
               to     = normalize(world position of src − world position of dst)
               target = P⁻¹ · fromTo(from, to) · P · dstRest
   and dst's rotation = slerp(dstRest, target, weight). Axes: roll X, Y or
   Z (positive); aim ±X, ±Y or ±Z. Aim's world positions are those of the
   pose as it stands (animation and the constraints already evaluated);
   dst's position does not depend on its own rotation.

   ORDER. A constraint is evaluated after every constraint whose
   destination is its source or an ancestor of its source, and, for aim,
   after every constraint whose destination is the destination's parent or
   an ancestor of it (three-vrm's dependencies: whatever moves what it
   reads). Among constraints with no such tie, the set's order (the
   file's node order): the order is the post-order of a depth-first walk
   from each constraint in set order over those dependencies, ancestors
   root first, as three-vrm's manager walks them. Any order that respects
   the dependencies gives the same result.

   CYCLES. The spec forbids a source that makes a circular dependency
   (three-vrm throws and drops every constraint of the model). Here the
   constraints that lie on a dependency cycle (found as the strongly
   connected components of the dependency graph) are not evaluated: their
   destinations keep the rotation the animation gave them, state.cyclic
   marks them, and every other constraint is evaluated in the order above
   (the reader warns, naming them). Note that a constraint whose source is
   below its destination is a cycle by this rule, as in three-vrm.

   BOUNDED WORK. sw_constraint_init is O(nodes + constraints): the
   dependency graph has one vertex per constraint and one per constrained
   node (each linked to the nearest constrained ancestor), walked once
   without recursion. sw_constraint_apply is O(nodes + constraints): each
   world matrix an aim needs is computed at most once per call (the order
   guarantees nothing above it changes later). sw_constraint_read is
   linear in the records' JSON plus a sort of the constrained nodes.

   MEMORY AND THREADS. The state lives in caller memory of
   sw_constraint_memory_size bytes (16-aligned); init and apply allocate
   nothing. The model and the constraints must outlive the state. A state
   is used by one thread at a time (apply writes its scratch); the model
   and the set are read-only. A set returned by sw_constraint_read is freed
   by sw_constraint_set_free (and only such a set).

   ERRORS. sw_constraint_init checks every constraint (indices, source not
   the destination, a TRS destination, weight in [0, 1], axis) and returns
   SW_ERR_INVALID_ARGUMENT with diag.index the constraint; apply only
   asserts. The reader's messages name the file and the JSON path
   (avatar.vrm: nodes[7].extensions.VRMC_node_constraint.constraint.roll.source: ...). */
#ifndef SINEW_CONSTRAINT_H
#define SINEW_CONSTRAINT_H

#include "sinew/base.h"
#include "sinew/math.h"
#include "sinew/model.h"
#include "sinew/pose.h"

SW_EXTERN_C_BEGIN

typedef enum sw_constraint_type {
    SW_CONSTRAINT_ROTATION = 0,
    SW_CONSTRAINT_ROLL,
    SW_CONSTRAINT_AIM,
} sw_constraint_type;

/* Roll uses the positive three; aim all six (VRM's PositiveX ... NegativeZ). */
typedef enum sw_constraint_axis {
    SW_CONSTRAINT_POSITIVE_X = 0,
    SW_CONSTRAINT_NEGATIVE_X,
    SW_CONSTRAINT_POSITIVE_Y,
    SW_CONSTRAINT_NEGATIVE_Y,
    SW_CONSTRAINT_POSITIVE_Z,
    SW_CONSTRAINT_NEGATIVE_Z,
} sw_constraint_axis;

typedef struct sw_constraint {
    sw_constraint_type type;
    uint32_t destination;       /* model node whose rotation is written (a TRS node) */
    uint32_t source;            /* model node read; not the destination */
    sw_constraint_axis axis;    /* roll and aim; unused by rotation */
    float weight;               /* 0..1: slerp from the destination's rest rotation */
} sw_constraint;

typedef struct sw_constraint_set {
    size_t constraint_count;  const sw_constraint* constraints;  /* in the file's node order */
    size_t warning_count;     const char* const* warnings;       /* one line each */
} sw_constraint_set;

/* sinew-import: the nodes' VRMC_node_constraint records (nodes[i].
   extensions), in the file's node order. *out_set is NULL when the model
   has none. Errors (SW_ERR_INVALID_DATA, nothing returned): a block of the
   wrong JSON type, `constraint` or a `source` missing, a source index out
   of range, a source that is the destination itself. Warnings (the
   constraint is skipped): an unknown or missing specVersion (three-vrm
   reads "1.0" and "1.0-beta"), no roll, aim or rotation (more than one:
   the first of roll, aim, rotation is used, as three-vrm does), a missing
   or unknown rollAxis / aimAxis, a destination given as a matrix, a
   constraint on a dependency cycle (kept in the set, marked by
   sw_constraint_init). A weight outside [0, 1] is clamped (a warning). */
sw_result sw_constraint_read(const sw_model* model, sw_constraint_set** out_set, sw_diag* diag);
void sw_constraint_set_free(sw_constraint_set* set);

/* The evaluation state (fields read-only for the caller). */
typedef struct sw_constraint_state {
    const sw_model* model;
    const sw_constraint* constraints;
    size_t constraint_count;
    size_t order_count;       const uint32_t* order;   /* the evaluation order: indices into constraints */
    size_t cyclic_count;      const uint8_t* cyclic;   /* per constraint: 1 = on a dependency cycle, not evaluated */
    /* scratch of sw_constraint_apply */
    sw_mat34* world_cache;
    uint8_t* world_ready;
    uint32_t* walk;
} sw_constraint_state;

/* Bytes of state memory (init's scratch included), 16-aligned. */
size_t sw_constraint_memory_size(const sw_model* model, size_t constraint_count);

/* Checks the constraints against the model and orders them (see ORDER and
   CYCLES). memory: sw_constraint_memory_size bytes, 16-aligned. */
sw_result sw_constraint_init(sw_constraint_state* state, void* memory, const sw_model* model,
                             const sw_constraint* constraints, size_t constraint_count, sw_diag* diag);

/* Evaluates the constraints on pose->local (bound for the state's model):
   writes each evaluated destination's local rotation. */
void sw_constraint_apply(sw_constraint_state* state, sw_pose* pose);

SW_EXTERN_C_END

#endif
