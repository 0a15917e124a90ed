/* sinew/ik.h — inverse kinematics on a pose: two-bone IK (legs, arms) and
   aim / look-at (heads, spines, eyes), as stateless jobs.

   Where it runs. IK edits a pose's local transforms after sampling and
   blending, from world matrices that match them, and before the world
   matrices of the changed joints' children are computed again:

       blend / sample → local→model (world) → IK job(s) → local→model from the
       first changed joint → skin matrices

   With a skeleton (anim.h):
       sw_local_to_model_job_run(&l2m);                   // world from the blended locals
       sw_ik_two_bone_job leg = {.local = local, .world = world, .node_count = n,
                                 .start = hip, .mid = knee, .end = ankle,
                                 .target = foot_target, .pole_mode = SW_IK_POLE_POINT,
                                 .pole = knee_target, .weight = 1.0f};
       if (sw_ik_two_bone_job_validate(&leg, &diag) == SW_OK) {
           sw_ik_two_bone_result r = sw_ik_two_bone_job_run(&leg);   // writes local[hip], local[knee]
           l2m.first_joint = hip;                         // parents first: everything after hip
           sw_local_to_model_job_run(&l2m);
       }
   With a model's pose (pose.h): .local = pose.local, .world = pose.world,
   .node_count = model->node_count, node indices of the model; then
   sw_pose_update(model, &pose). A node given as a matrix in its file
   ignores pose.local, so start, mid and the aim joints must be TRS nodes.

   What the jobs read and write. A job reads `world` (node_count world
   matrices, the local→model product of `local`) and, of `local`, the
   rotation and scale of the joints it turns; it writes only the rotations
   of those joints (two-bone: start and mid; aim: the chain's joints).
   Translations, scales and every other joint stay untouched, so bone
   lengths are kept. `world` is not updated: rerun local→model (from the
   first changed joint) before reading it. Jobs whose joints lie in
   disjoint subtrees (two legs) may run one after the other on one world
   array before a single update; a job whose joints lie below a joint that
   another job turned needs the world updated first (aim the spine before
   solving the arms).

   Hierarchy. A job takes no parent array: it needs only the world matrices
   of its joints, because turning a joint carries its whole subtree rigidly.
   So the chain need not be made of direct parent links: start must be an
   ancestor of mid and mid an ancestor of end (nodes between them, such as
   twist or helper joints, are allowed and keep their locals), and each
   aim joint an ancestor of the next. The job cannot check ancestry without
   a hierarchy; validate() checks the necessary order start < mid < end
   (parents first) and the caller vouches for the rest. A chain that is not
   a chain gives a wrong pose, never a memory error.

   Scale. A joint's rotation turns rigidly only in its rotation frame
   M = parent world 3×3 · R (its world 3×3 without its own scale), so each
   job solves there: positions, target, pole and world_up are mapped by
   M⁻¹ (about the joint), the rotation found is the local change C itself
   (new local rotation R·C), and the world change it makes is M·C·M⁻¹.
   Affine maps keep lines, planes and the sides of planes, so:
   - uniform scale anywhere (a centimetre skeleton under a 0.01 root) and
     mirroring are exact, and bone lengths are kept;
   - non-uniform scale or shear ABOVE the start joint (or above an aim
     joint) is exact too: the end reaches the target, the knee lies in the
     pole plane, forward hits the target and up stays in its plane; but
     the world lengths of bones change as they turn under that stretch
     (they are kept in the joint's frame, where the law of cosines is
     solved; the soft zone is measured there as well);
   - non-uniform scale on the start joint itself or on nodes between start
     and mid skews the mid joint's frame against the start's: no rotation
     of the mid turns the lower bone rigidly any more. The mid's change is
     then the nearest rotation (polar decomposition), corrected so that the
     lower bone points exactly where the solve asked, and only its length
     is off; the job solves again from its own result, up to
     SW_IK_MAX_PASSES passes while the end gets closer. Measured with a
     (1.2, 1, 0.85) start scale: 191 of 200 random reachable targets within
     1e-4 of a ~1 m chain, the worst 0.7 % of the chain's length away. The
     result's distance is always the true one (it is computed from the
     rotations written).
   A joint's own non-uniform scale is exact for its own rotation (scale
   comes before rotation), and the aim job's forward and up are taken
   through the full world 3×3, own scale included.

   Threads and memory: jobs keep no state and never allocate; any number
   may run at once on different poses. validate() checks every field (and
   the involved joints' world matrices and scales, O(joints)) with a
   one-line message; run() only asserts. Targets and poses change every
   frame, so validate every frame unless the inputs are known good; run()
   survives degenerate data (a singular world matrix leaves its joint
   unchanged, NaN never comes out of finite input). */
#ifndef SINEW_IK_H
#define SINEW_IK_H

#include "sinew/base.h"
#include "sinew/math.h"

SW_EXTERN_C_BEGIN

/* Most solve passes the two-bone job makes when non-uniform scale on the
   start joint or between start and mid skews the chain (see above). */
#define SW_IK_MAX_PASSES 8

/* ---- Two-bone IK ------------------------------------------------------------

   Three joints a = start, b = mid, c = end (world positions from `world`),
   bone lengths L1 = |b − a| and L2 = |c − b| measured in the current pose.
   The solve, in world space:

   1. Reach: d = |target − a|, turned into the distance r the chain will
      span, r = max(sw_ik_soft_reach(d, L1 + L2, soft), |L1 − L2|).
   2. Mid: the interior angle at b becomes φ' with
      cos φ' = (L1² + L2² − r²) / (2·L1·L2) (law of cosines), by turning
      the mid joint about the hinge n = (a − b) × (c − b), normalised: the
      mid joint's current bend axis, so the knee keeps bending the way it
      bends. For a straight (or fully folded) chain the hinge is taken, in
      this order, from the pole (the knee bends towards it), from
      `mid_axis` (the caller's hinge in the mid joint's space), or from the
      world axis least aligned with the chain (any perpendicular). mid_axis
      is a flexion axis: a positive turn about it (right-hand rule) folds
      the end towards the start, so a leg along −Y facing +Z has
      mid_axis +X and its knee goes forward.
   3. Start: the smallest rotation about a that points a→end at the target
      (the knee plane swings as little as possible).
   4. Pole (optional): then a twist about the line a→target that puts the
      mid joint in the plane of (a, target, pole point), on the pole's side
      (for a pole direction p: the plane through a spanned by a→target and
      p). A pole on the line a→target defines no plane and is ignored.
   5. Weight: each joint's local change is slerped from identity by
      `weight` (0 = the input pose bit for bit: nothing is written).

   Soft reach. Near full extension the knee angle moves infinitely fast
   with the target distance (the derivative of acos at −1), so a target
   sliding past reach makes the knee snap straight. With `soft` > 0 the
   last fraction `soft` of the reach is an exponential approach, see
   sw_ik_soft_reach: the chain straightens only as d → ∞, and a target
   inside that zone is not reached (the end stops short of it, along the
   line a→target). */

typedef enum sw_ik_pole {
    SW_IK_POLE_DEFAULT = 0, /* SW_IK_POLE_NONE */
    SW_IK_POLE_NONE,        /* no pole: the mid joint's current bend axis */
    SW_IK_POLE_POINT,       /* `pole` is a world point the knee points at */
    SW_IK_POLE_DIRECTION,   /* `pole` is a world direction the knee points along */
} sw_ik_pole;

/* Defaults (zero = default): no pole, no soft zone, tolerance
   1e-4 × (L1 + L2), mid_axis: any perpendicular. weight 0 changes
   nothing, like a blend layer of weight 0. */
typedef struct sw_ik_two_bone_job {
    sw_transform* local;       /* node_count local transforms; rotations of start and mid are rewritten */
    const sw_mat34* world;     /* node_count world matrices of `local` (read only; not updated) */
    size_t node_count;
    uint32_t start, mid, end;  /* node indices, start < mid < end; start an ancestor of mid, mid of end */
    sw_vec3 target;            /* world point the end joint should reach */
    sw_ik_pole pole_mode;
    sw_vec3 pole;              /* POINT: world point; DIRECTION: world direction (nonzero) */
    sw_vec3 mid_axis;          /* flexion axis in the mid joint's space, for a straight chain without pole */
    float soft;                /* soft zone, fraction of L1 + L2 in [0, 1); 0 = hard limit */
    float weight;              /* [0, 1]: 0 = input pose exactly, 1 = full solve */
    float tolerance;           /* world distance under which the target counts as reached; ≥ 0 */
} sw_ik_two_bone_job;

typedef struct sw_ik_two_bone_result {
    float distance; /* |end − target| after the rotations written (world units) */
    bool reached;   /* distance ≤ tolerance */
} sw_ik_two_bone_result;

/* Checks pointers, counts, indices (< node_count, start < mid < end),
   finite target, pole (mode known, finite, a nonzero direction), soft in
   [0, 1), weight in [0, 1], tolerance, that local and world do not
   overlap, and that start and mid have nonzero finite scales and
   invertible world matrices. diag.index is the offending node or −1. */
sw_result sw_ik_two_bone_job_validate(const sw_ik_two_bone_job* job, sw_diag* diag);

/* Solves and writes local[start].rotation and local[mid].rotation (unless
   weight is 0). A zero-length bone leaves the pose unchanged. */
sw_ik_two_bone_result sw_ik_two_bone_job_run(const sw_ik_two_bone_job* job);

/* The distance the two-bone solve spans for a target at `distance` from
   the start joint, with full reach `full_length` (> 0) and soft zone
   `soft` in [0, 1): with s = (1 − soft)·L and δ = soft·L,
     r(d) = d                                for d ≤ s,
     r(d) = s + δ·(1 − exp(−(d − s)/δ))      for d > s,
   so r is continuous with slope 1 where the zone starts, strictly
   increasing, below L for every finite d (L − δ/e at d = L) and tends to
   L. soft = 0 gives min(d, L). Negative distances give 0. */
float sw_ik_soft_reach(float distance, float full_length, float soft);

/* ---- Aim / look-at -----------------------------------------------------------

   Turns the last joint of a chain so that its `forward` axis points at a
   world target and its `up` axis lies in the plane of that forward
   direction and `world_up`, on world_up's side:

   - forward and up are directions in the last joint's space (their world
     images are its world 3×3 times them); they must not be parallel, and
     only up's part perpendicular to forward matters;
   - the rotation is the one that maps the frame (forward, up⊥) onto
     (target direction, world_up⊥), so the joint does not roll away from
     world_up. When the target direction is parallel to world_up the roll
     is free and the smallest rotation that aims forward is used.

   A chain (spine → neck → head, each an ancestor of the next, the aiming
   joint last) spreads the turn: in order, joint i computes the rotation
   that would aim the last joint fully (forward from the last joint's
   current position), takes the fraction joint_weights[i] of it (slerp
   from identity) about its own position, and the world frames of every
   later joint are carried along before joint i + 1 looks. The last joint
   takes the whole remainder, so the chain always ends fully aimed
   (weight 1). To give the joints shares s₀…sₙ₋₁ of the turn (spine 20 %,
   neck 30 %, head 50 %), use fᵢ = sᵢ / (sᵢ + … + sₙ₋₁), which
   sw_ik_aim_fractions_from_shares computes. For a chain whose joints sit
   on the turning axis (a yaw about a vertical spine) the shares are exact
   angles; otherwise the pivots differ and they are the split of each
   step, not of the final angles.

   `weight` scales every joint's step (fraction × weight; the last joint
   weight); 0 leaves the pose bit for bit. */

/* Defaults (zero = default): forward +Z (glTF's front), up +Y, world_up
   +Y, joint_weights NULL = only the last joint turns, tolerance 1e-4 rad. */
typedef struct sw_ik_aim_job {
    sw_transform* local;         /* node_count local transforms; rotations of the chain's joints are rewritten */
    const sw_mat34* world;       /* node_count world matrices of `local` (read only; not updated) */
    size_t node_count;
    const uint32_t* joints;      /* joint_count node indices, increasing, each an ancestor of the next */
    size_t joint_count;          /* ≥ 1; the last joint aims */
    const float* joint_weights;  /* joint_count fractions in [0, 1] (the last entry is not read), or NULL */
    sw_vec3 target;              /* world point */
    sw_vec3 forward;             /* aiming axis in the last joint's space */
    sw_vec3 up;                  /* the last joint's up axis in its space, not parallel to forward */
    sw_vec3 world_up;            /* world up direction */
    float weight;                /* [0, 1]: 0 = input pose exactly */
    float tolerance;             /* angle in radians under which the aim counts as reached; ≥ 0 */
} sw_ik_aim_job;

typedef struct sw_ik_aim_result {
    float angle;  /* radians between the aimed axis and the direction to the target, after the rotations written */
    bool reached; /* angle ≤ tolerance; a target at the last joint's position gives angle 0, reached false */
} sw_ik_aim_result;

/* Checks pointers, counts, indices (< node_count, strictly increasing),
   joint_weights in [0, 1], finite vectors, forward and up not parallel
   (after defaults), world_up nonzero, weight in [0, 1], tolerance, that
   local and world do not overlap, and every chain joint's scale and world
   matrix. diag.index is the offending chain entry or −1. */
sw_result sw_ik_aim_job_validate(const sw_ik_aim_job* job, sw_diag* diag);

/* Aims and writes the rotations of the chain's joints (unless weight is
   0). A target at the last joint's position leaves the pose unchanged. */
sw_ik_aim_result sw_ik_aim_job_run(const sw_ik_aim_job* job);

/* Fractions of the remaining turn from shares of the whole turn:
   out[i] = shares[i] / (shares[i] + … + shares[count−1]) (0 when that sum
   is 0), and out[count−1] = 1. Shares must be finite and ≥ 0; out may be
   shares. */
void sw_ik_aim_fractions_from_shares(float* out_fractions, const float* shares, size_t count);

SW_EXTERN_C_END

#endif
