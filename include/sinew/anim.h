/* sinew/anim.h — skeletons, clip sampling, pose blending and the
   local→model pass.

   A skeleton is plain data the caller owns: joints ordered parents first
   (parents[i] < i, or SW_NO_PARENT for a root), a rest pose of local TRS
   transforms, optional names. Because parents come first, turning local
   transforms into model transforms is one forward loop
   (sw_local_to_model_job). Importers that meet joints in another order use
   sw_joint_order_parents_first() once, at import time, and keep the remap.

   Jobs follow one pattern: fill the struct, call *_validate() once (it
   returns a code and fills an optional sw_diag), then call *_run() as often
   as needed; run() only asserts. Jobs never allocate and keep no state, so
   any number may run at once on different outputs.

   Threads: every function here is pure or a job over the caller's spans:
   no global state, no allocation. A skeleton and a clip are read-only
   while jobs use them and may be shared by any number of threads; jobs
   that write disjoint outputs may run at once, and one job may be split
   over threads by ranges where its comment says so. */
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
   SW_MAX_ORDER_JOINTS. Indices are 32-bit, so whole scene graphs (a
   model's nodes) are ordered by it too, not only skeletons. Needs `scratch`
   of 2 × joint_count uint32_t (caller-owned, so nothing is allocated).
   O(n log n). */
#define SW_MAX_ORDER_JOINTS ((size_t)0x7ffffffe)
sw_result sw_joint_order_parents_first(uint32_t* out_order, const int32_t* parents, size_t joint_count,
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

/* ---- Clips and sampling ---------------------------------------------------

   A clip is a set of tracks; each track drives one property (translation,
   rotation, scale or morph weights) of one target (a node or joint index,
   whatever the caller's pose array is indexed by) with keyframes:

   - STEP: the value of the last key at or before t.
   - LINEAR: component-wise lerp; rotations by shortest-path slerp
     (sw_quat_slerp_fast: within 2.5e-7 of the exact slerp, math.h).
   - CUBICSPLINE: keys are (in-tangent, value, out-tangent) triplets; between
     keys k and k+1, with d = t(k+1) − t(k) and s = (t − t(k)) / d,
       p(s) = (2s³−3s²+1)·v(k) + (s³−2s²+s)·d·out(k)
            + (−2s³+3s²)·v(k+1) + (s³−s²)·d·in(k+1);
     rotations are normalised after evaluation.

   Before the first key a track holds its first value, after the last key
   its last value (glTF 2.0, appendix C). A clip's duration is the end of its
   last key; clips need not start at 0, and looping playback wraps time into
   [0, duration), as glTF viewers play a clip. */

typedef enum sw_interpolation {
    SW_INTERP_DEFAULT = 0, /* LINEAR */
    SW_INTERP_LINEAR,
    SW_INTERP_STEP,
    SW_INTERP_CUBICSPLINE,
} sw_interpolation;

typedef enum sw_track_path {
    SW_PATH_TRANSLATION = 0, /* 3 components */
    SW_PATH_ROTATION,        /* 4 components, quaternion xyzw */
    SW_PATH_SCALE,           /* 3 components */
    SW_PATH_WEIGHTS,         /* `component_count` morph target weights */
} sw_track_path;

typedef struct sw_track {
    uint32_t target;                /* index into the pose the clip drives */
    sw_track_path path;
    sw_interpolation interpolation;
    uint32_t component_count;       /* 3 (T, S), 4 (R), morph target count (weights) */
    size_t key_count;               /* ≥ 1 (CUBICSPLINE: keys, not triplets) */
    const float* times;             /* key_count seconds, strictly increasing, finite */
    /* key_count × component_count values; CUBICSPLINE: key_count triplets
       (in-tangent, value, out-tangent), each component_count wide.
       Rotation values are expected to be unit quaternions (importers
       normalise them). */
    const float* values;
} sw_track;

typedef struct sw_clip {
    const char* name;               /* may be NULL */
    size_t track_count;
    const sw_track* tracks;
    float start;                    /* earliest first key of any track */
    float duration;                 /* latest last key of any track */
} sw_clip;

/* Checks one track: counts, component count for its path, finite
   increasing times, finite values. diag.index is the offending key. */
sw_result sw_track_validate(const sw_track* track, sw_diag* diag);

/* Computes start and duration from the tracks and validates each
   (diag.index is the offending track). */
sw_result sw_clip_finish(sw_clip* clip, sw_diag* diag);

/* Evaluates a validated track at time t into out[component_count].
   `cursor` (may be NULL) holds the key found last time and is updated:
   sequential playback then finds its key in O(1) instead of by binary
   search. Any cursor value is accepted (it is only a hint). */
void sw_track_sample(const sw_track* track, float time, uint32_t* cursor, float* out);

/* Time within the clip for playback time t: t itself, or with `loop`,
   t wrapped into [0, duration) (a clip of zero duration always gives 0). */
float sw_clip_time(const sw_clip* clip, float t, bool loop);

/* Two time bases. A clip's times are the file's: its keys run from
   clip->start (often 0, not always: a clip cut from a longer take, a file
   with a lead-in) to clip->duration. sw_clip_time, sw_pose_sample and the
   runtime take that time, and so does `sinew export`. `sinew render` and
   `view` count from the clip's first key instead (their time 0 is
   clip->start). This turns a time t counted from the first key into the
   file's time: clip->start + t, with `loop` t first wrapped into the span
   [0, duration − start), so a clip whose keys run from 1 s to 3 s loops
   every 2 s (a span of zero always gives clip->start). */
float sw_clip_time_from_start(const sw_clip* clip, float t, bool loop);

/* Samples every track of a clip into a pose.

   Translation, rotation and scale tracks write out_local[target]; weight
   tracks write out_weights[weight_offsets[target] + i] for i <
   component_count. Properties without a track are left as the caller set
   them (normally the rest pose), so a pose is: fill with the rest pose,
   then run. Several tracks on one property write in track order (the last
   wins).

   The values and cursors are those of sw_track_sample on each track in
   turn (bit for bit on x86-64, where the SIMD slerp rounds as the scalar
   one). Work is shared, not results: consecutive tracks with the same
   times array (same `times` pointer and key_count, as every track of a
   typically exported glTF clip) find their key once, with the first one's
   cursor as the hint, and LINEAR rotations are slerped several at a time. */
typedef struct sw_sample_job {
    const sw_clip* clip;
    float time;                     /* seconds in clip time (see sw_clip_time) */
    uint32_t* cursors;              /* clip->track_count cursors, zero at start; NULL = search every time */
    size_t target_count;            /* every track's target must be < target_count */
    sw_transform* out_local;        /* target_count transforms */
    const uint32_t* weight_offsets; /* target_count offsets into out_weights; NULL if no weight tracks */
    float* out_weights;
    size_t weight_count;            /* size of out_weights */
} sw_sample_job;

sw_result sw_sample_job_validate(const sw_sample_job* job, sw_diag* diag);
void sw_sample_job_run(const sw_sample_job* job);

/* ---- Blending ---------------------------------------------------------------

   sw_blend_job mixes local poses, per joint, as ozz-animation's
   BlendingJob does:

   1. Normal layers, blended by weight. Joint j of a layer has weight
      w = weight × joint_weights[j] (joint_weights = 1 without a mask; a
      mask of 0 and 1 makes a partial layer, e.g. the upper body only).
      Translations and scales are averaged, Σ w·x / Σ w. Rotations are
      blended by weighted nlerp: Σ w·q, each q first negated when it points
      away from the sum so far (q and −q are one rotation; without this two
      equal layers at q and −q would cancel), then normalised. For two
      layers this is nlerp: for equal weights exactly the midway rotation
      (45° between 0° and 90°); for others it does not turn at constant
      speed (in a 90° blend it is up to 0.9° off slerp, near weights 1/4
      and 3/4), the usual trade for blending any number of layers.
   2. The rest pose fills in where the joint's total weight W is below
      `threshold`: at W = 0 the joint is the rest pose exactly, for
      0 < W < threshold the rest pose is blended in with weight
      threshold − W, so a layer faded towards 0 lands on the rest pose
      instead of amplifying its own noise.
   3. Additive layers, in order, on top of the result. Their poses are
      deltas (make them with sw_additive_delta from a pose and the
      reference pose it was authored against), applied with w = weight ×
      joint_weights[j] in [0, 1]:
        translation += w·Δt,  rotation = slerp(identity, Δq, w) · rotation,
        scale ×= lerp(1, Δs, w),
      so w = 1 adds the whole delta: a delta made from (pose, reference)
      and added to the reference gives the pose back.

   Weights are data: validate again after changing weights or masks (run()
   only asserts). Each joint reads its inputs before writing its output, so
   out_local may be one of the input poses (add a layer in place). */

typedef struct sw_blend_layer {
    const sw_transform* pose;     /* local transforms (additive layers: deltas), unit rotations */
    size_t pose_count;            /* entries in pose: at least the job's joint_count */
    float weight;                 /* finite, ≥ 0 (additive layers: ≤ 1); 0 = the layer does nothing */
    const float* joint_weights;   /* NULL, or per-joint factors, finite, ≥ 0 (additive layers: ≤ 1) */
    size_t joint_weight_count;    /* entries in joint_weights (≥ joint_count), 0 when NULL */
} sw_blend_layer;

/* Defaults (zero = default): threshold 0.1, as ozz. */
typedef struct sw_blend_job {
    size_t joint_count;                    /* 1..SW_MAX_JOINTS */
    const sw_transform* rest_pose;         /* joint_count transforms, unit rotations */
    const sw_blend_layer* layers;          /* layer_count normal layers; may be NULL when 0 */
    size_t layer_count;
    const sw_blend_layer* additive_layers; /* additive_layer_count layers of deltas; may be NULL when 0 */
    size_t additive_layer_count;
    float threshold;                       /* total weight below which the rest pose fills in; > 0 */
    sw_transform* out_local;               /* joint_count transforms (may be an input pose, see above) */
} sw_blend_job;

/* Checks counts, pointers, that every pose and mask covers joint_count
   joints, that weights and mask entries are finite and ≥ 0 (≤ 1 for
   additive layers), and the threshold. diag.index is the offending layer
   (additive layers count on from layer_count). O(layers × joints) with
   masks. */
sw_result sw_blend_job_validate(const sw_blend_job* job, sw_diag* diag);
void sw_blend_job_run(const sw_blend_job* job);

/* The additive delta of `pose` against `reference`, joint by joint:
   Δt = t − t_ref, Δq = q · q_ref⁻¹, Δs = s / s_ref (reference scales must
   not be 0), so that adding Δ at weight 1 to the reference gives the pose.
   out_delta may be pose or reference. */
void sw_additive_delta(sw_transform* out_delta, const sw_transform* pose, const sw_transform* reference,
                       size_t joint_count);

SW_EXTERN_C_END

#endif
