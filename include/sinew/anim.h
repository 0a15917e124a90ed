/* sinew/anim.h — skeletons and the local→model pass.

   A skeleton is plain data the caller owns: joints ordered parents first
   (parents[i] < i, or SW_NO_PARENT for a root), a rest pose of local TRS
   transforms, optional names. Because parents come first, turning local
   transforms into model transforms is one forward loop
   (sw_local_to_model_job). Importers that meet joints in another order use
   sw_joint_order_parents_first() once, at import time, and keep the remap.

   Jobs follow one pattern: fill the struct, call *_validate() once (it
   returns a code and fills an optional sw_diag), then call *_run() as often
   as needed; run() only asserts. Jobs never allocate and keep no state, so
   any number may run at once on different outputs. */
#ifndef SINEW_ANIM_H
#define SINEW_ANIM_H

#include "sinew/base.h"
#include "sinew/math.h"

SW_EXTERN_C_BEGIN

#define SW_NO_PARENT ((int16_t)-1)
/* Parents are int16_t, so a skeleton holds at most 32767 joints. */
#define SW_MAX_JOINTS 32767

typedef struct sw_skeleton {
    size_t joint_count;            /* 1..SW_MAX_JOINTS */
    const int16_t* parents;        /* joint_count entries; parents[i] < i or SW_NO_PARENT */
    const sw_transform* rest_pose; /* joint_count local transforms; may be NULL */
    const char* const* names;      /* joint_count names; may be NULL */
} sw_skeleton;

/* Checks the count, parent order (parents[i] < i) and, when present, that
   every rest-pose value is finite with a unit rotation (within 1e-3). */
sw_result sw_skeleton_validate(const sw_skeleton* skeleton, sw_diag* diag);

/* Index of the joint with this name, or -1 (linear search: for tools, not
   for hot loops). */
int sw_skeleton_find(const sw_skeleton* skeleton, const char* name);

/* Import-time ordering of a hierarchy given in any order.
   `parents[i]` is the parent of joint i in the input order (-1 for roots),
   any int32 values. Writes `out_order`, joint_count entries: out_order[k] is
   the input index of the k-th joint in the smallest parents-first order
   (Kahn's algorithm, lowest input index first), so input that is already
   parents first comes out unchanged, and roots and siblings keep their
   input order. Returns SW_ERR_INDEX_OUT_OF_RANGE for a parent outside
   [-1, joint_count), SW_ERR_CYCLE when the parents form a cycle (diag.index
   is a joint on it), and SW_ERR_INVALID_ARGUMENT for joint_count >
   SW_MAX_JOINTS. Needs `scratch` of 2 × joint_count uint32_t
   (caller-owned, so nothing is allocated). O(n log n). */
sw_result sw_joint_order_parents_first(uint16_t* out_order, const int32_t* parents, size_t joint_count,
                                       uint32_t* scratch, sw_diag* diag);

/* Local → model: model[i] = model[parents[i]] · local[i], roots get
   root · local[i]. Matrix products, so non-uniform scale and shear stay
   exact.

   Only joints first_joint..joint_count-1 are computed; joints before
   first_joint are read from out_model as the caller left them, so a caller
   that changed joints ≥ k can rerun from k. */
typedef struct sw_local_to_model_job {
    const int16_t* parents;     /* joint_count entries, parents first */
    size_t joint_count;
    const sw_transform* local;  /* joint_count local transforms, unit rotations */
    const sw_mat34* root;       /* transform above every root; NULL = identity */
    size_t first_joint;         /* default 0: all joints */
    sw_mat34* out_model;        /* joint_count matrices; must not alias `local` */
} sw_local_to_model_job;

sw_result sw_local_to_model_job_validate(const sw_local_to_model_job* job, sw_diag* diag);
void sw_local_to_model_job_run(const sw_local_to_model_job* job);

SW_EXTERN_C_END

#endif
