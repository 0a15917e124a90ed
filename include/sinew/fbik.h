/* sinew/fbik.h — full-body IK over a humanoid: hips, spine to head, both
   arms and both legs, with joint limits, by FABRIK (Aristidou & Lasenby,
   "FABRIK: a fast, iterative solver for the Inverse Kinematics problem",
   2011).

       size_t bytes = sw_fbik_memory_size(model->node_count);
       void* memory = aligned_alloc(16, bytes);
       sw_fbik_rig rig;                                         // once per model
       sw_fbik_rig_build(&rig, model, &humanoid_map, memory, bytes, &diag);
       sw_fbik_desc ik = {0};                                   // zero = defaults
       ik.effectors[SW_FBIK_LEFT_HAND] = (sw_fbik_effector){.position = p, .weight = 1};
       sw_fbik_result r = sw_fbik_solve(&rig, &ik, pose.local, world_scratch);
       sw_pose_update(model, &pose);

   WHY FABRIK. It moves points, not angles: no Jacobian, no matrix to
   invert or damp, a few multiply-adds per joint and pass, and it reaches
   an unreachable target the way a body does, straight towards it (a
   damped least-squares solver only approaches that as its damping allows;
   a Jacobian solver also needs its damping tuned per rig). Its weakness,
   limits, is handled in angle space: after each pass the joints'
   rotations are taken from the points and clamped to their limits, so the
   output never breaks a limit, whatever the residual.

   CHAINS (from the humanoid map): spine (spine, chest, upperChest, neck →
   head), each arm (upperArm, lowerArm → hand) and each leg (upperLeg,
   lowerLeg → foot); bones the map leaves out are skipped, and nodes
   between mapped bones (twist joints) keep their local transforms. The
   solver rewrites local rotations of the chains' joints (never the last,
   the effector itself, whose world rotation is kept) and the hips'
   translation.

   ONE ITERATION. (1) The hips move by the weighted mean of what the
   effectors ask of them: the hips effector its offset, each limb whose
   target is beyond its reach the excess distance; a limb that can reach
   asks nothing and does not count, so planted feet hold the hips only once
   the hips would pull them off (then they pull back).
   (2) Each chain with a weighted effector, spine first, then arms and
   legs, finds where its joints should go: the spine by turning its points
   as one about the root towards the goal (FABRIK alone crawls on a nearly
   straight chain), then FABRIK passes (backward from the goal, forward
   from the fixed root keeping each bone within its joint's swing limit of
   the bone before it; points only, until the end is within a quarter of
   the tolerance, at most 64 passes), an arm or a leg in closed form (the
   two points FABRIK converges to for two bones: the law of cosines, in
   the plane the elbow's or knee's hinge axis is normal to now, so the limb
   does not spin). Then each joint is turned so its next chain joint lies on its
   point: the upper arm and leg by the rotation that also puts the hinge
   axis normal to the solved plane, the others by the shortest arc; then
   its limit is applied. Iterations stop when every weighted effector is
   within `tolerance` of its target, or after `iterations`.

   LIMITS, per joint, on its rotation relative to its rest local rotation
   (q_rel = rest⁻¹ · local, in the joint's own frame):
   - HINGE (knees, elbows): q_rel is a rotation about `axis` by an angle in
     [min_angle, max_angle] (anything else is projected on it: the twist
     about the axis, clamped). Axis sign: a positive angle bends the limb
     (knee: shin backward; elbow: forearm forward).
   - CONE (upper legs, upper arms, spine, neck): split q_rel into a swing
     (moving the bone's `axis`, the rest direction to the next chain joint)
     and a twist about it; the swing angle is clamped to cone_angle and the
     twist to ±twist_limit.
   sw_fbik_rig_build sets humanoid defaults (degrees): knees and elbows
   hinge [0, 150]; upper legs cone 100, twist 45; upper arms cone 130,
   twist 90; spine and chest cone 30, twist 30; neck cone 45, twist 60.
   Edit rig->chains[c].limit[k] after the build to change them.
   sw_fbik_limit_violation measures a rotation against a limit (radians).

   Weights: an effector with weight w in (0, 1] aims at current + w·(target
   − current) each iteration; weight 0 leaves its chain alone.
   Positions are in the model's space (the space of the nodes' world
   matrices at root identity). Nothing allocates in a solve; the rig is
   read-only there (one rig, many threads, each with its own scratch).
   Deterministic: the same input gives the same bits. */
#ifndef SINEW_FBIK_H
#define SINEW_FBIK_H

#include "sinew/base.h"
#include "sinew/math.h"
#include "sinew/humanoid.h"
#include "sinew/model.h"

SW_EXTERN_C_BEGIN

/* Joints of one chain, the effector included. */
#define SW_FBIK_MAX_CHAIN 6
/* Nodes from a chain's first joint to its last, those between included. */
#define SW_FBIK_MAX_PATH 16

typedef enum sw_fbik_effector_id {
    SW_FBIK_HIPS,
    SW_FBIK_HEAD,
    SW_FBIK_LEFT_HAND,
    SW_FBIK_RIGHT_HAND,
    SW_FBIK_LEFT_FOOT,
    SW_FBIK_RIGHT_FOOT,
    SW_FBIK_EFFECTOR_COUNT
} sw_fbik_effector_id;

/* The chains, in the order they are solved. */
typedef enum sw_fbik_chain_id {
    SW_FBIK_CHAIN_SPINE,
    SW_FBIK_CHAIN_LEFT_ARM,
    SW_FBIK_CHAIN_RIGHT_ARM,
    SW_FBIK_CHAIN_LEFT_LEG,
    SW_FBIK_CHAIN_RIGHT_LEG,
    SW_FBIK_CHAIN_COUNT
} sw_fbik_chain_id;

typedef enum sw_fbik_limit_type {
    SW_FBIK_LIMIT_NONE = 0,
    SW_FBIK_LIMIT_HINGE,
    SW_FBIK_LIMIT_CONE,
} sw_fbik_limit_type;

typedef struct sw_fbik_limit {
    sw_fbik_limit_type type;
    sw_vec3 axis;                  /* unit, in the joint's rest frame: hinge axis, or the cone's bone axis */
    float min_angle, max_angle;    /* hinge, radians */
    float cone_angle;              /* cone: largest swing, radians */
    float twist_limit;             /* cone: largest |twist|, radians */
} sw_fbik_limit;

typedef struct sw_fbik_chain {
    uint32_t count;                           /* joints, the effector last; 0 = chain absent */
    int32_t node[SW_FBIK_MAX_CHAIN];          /* model nodes, root first */
    sw_quat rest_rotation[SW_FBIK_MAX_CHAIN]; /* rest local rotations, what limits are measured from */
    sw_fbik_limit limit[SW_FBIK_MAX_CHAIN];   /* the last joint's is unused */
    sw_fbik_effector_id effector;
    sw_vec3 bend_hint;                        /* model space: the side a straight limb bends its middle to */
    uint32_t path_count;                      /* the nodes from node[0] down to node[count − 1] */
    int32_t path[SW_FBIK_MAX_PATH];
    uint32_t path_index[SW_FBIK_MAX_CHAIN];   /* where each chain joint is in path */
} sw_fbik_chain;

typedef struct sw_fbik_rig {
    size_t node_count;
    const int16_t* parents;                   /* node_count, in the build's memory */
    int32_t hips;                             /* node of the hips */
    sw_fbik_chain chains[SW_FBIK_CHAIN_COUNT];
} sw_fbik_rig;

typedef struct sw_fbik_effector {
    sw_vec3 position;   /* model space */
    float weight;       /* 0 (off) .. 1 (more counts as 1) */
} sw_fbik_effector;

typedef struct sw_fbik_desc {
    sw_fbik_effector effectors[SW_FBIK_EFFECTOR_COUNT];
    int iterations;     /* default (0) 16 */
    float tolerance;    /* metres; default (0) 1e-4 */
    bool pin_hips;      /* the hips never move (their effector is then ignored) */
} sw_fbik_desc;

typedef struct sw_fbik_result {
    float residual;         /* largest distance of a weighted effector from its target, metres */
    int iterations;         /* iterations run */
} sw_fbik_result;

/* Bytes of the rig's memory for a model of node_count nodes (a multiple
   of 16; 0 when node_count is 0 or above SW_MAX_JOINTS). */
size_t sw_fbik_memory_size(size_t node_count);

/* The chains, limits and parents of `model` under `map`, into `memory`
   (16-aligned). Needs hips, spine, head and every bone of both arms and
   legs mapped (SW_ERR_INVALID_DATA naming the first missing bone
   otherwise); bones between a chain's ends must be the model's ancestors
   of each other. */
sw_result sw_fbik_rig_build(sw_fbik_rig* rig, const sw_model* model, const sw_humanoid_map* map, void* memory,
                            size_t memory_size, sw_diag* diag);

/* Solves in place on `local` (rig->node_count local transforms, unit
   rotations); `world_scratch` holds node_count matrices (written: the
   world matrices of the result). */
sw_fbik_result sw_fbik_solve(const sw_fbik_rig* rig, const sw_fbik_desc* desc, sw_transform* local,
                             sw_mat34* world_scratch);

/* The effector's name as graphs and tools write it ("hips", "head",
   "leftHand", "rightHand", "leftFoot", "rightFoot"), or NULL out of range. */
const char* sw_fbik_effector_name(sw_fbik_effector_id effector);

/* How far `rel` (a rotation relative to the rest, in the joint's frame)
   is outside `limit`, in radians: 0 inside. */
float sw_fbik_limit_violation(const sw_fbik_limit* limit, sw_quat rel);

/* `rel` clamped to `limit`. */
sw_quat sw_fbik_limit_apply(const sw_fbik_limit* limit, sw_quat rel);

SW_EXTERN_C_END

#endif
