/* sinew/root_motion.h — root motion: the root joint's travel and turn taken
   out of a clip, so the character is moved by the game instead of by its
   animation.

       sw_root_motion rm = {.joint = pelvis, .rest = model->rest_local[pelvis]};
       rm.parent = pose.world[model->nodes[pelvis].parent];  // rest pose's world, if the joint has a parent
       if (sw_root_motion_validate(&rm, clip, &diag) != SW_OK) ...
       sw_root_motion_character me = {{0, 0, 0}, 0};       // where the character stands
       // each update, time = playback time, step = speed · dt (any sign):
       sw_root_motion_delta d = sw_root_motion_extract(&rm, clip, time, time + step, true);
       me = sw_root_motion_apply(me, d);
       time = sw_clip_time(clip, time + step, true);
       sw_pose_sample(model, clip, time, true, &pose, &diag);
       sw_root_motion_remove(&rm, clip, &pose.local[rm.joint]);   // play in place
       sw_pose_update(model, &pose);
       // draw with sw_root_motion_character_to_mat34(me) · pose.world[i]

   WHAT IS EXTRACTED. `components` picks translation axes (X, Y, Z) and the
   yaw, the turn about the up axis; the default is X | Z | YAW, the ground
   plane and heading. Everything is measured in CHARACTER SPACE: the
   model's space, glTF's (+Y up, metres). The root's local transform lives
   in its parent's space, so `parent` maps that space into character space
   (a rotation, a uniform scale and a translation, e.g. a Z-up armature node
   in centimetres: scale 0.01 and −90° about X). The parent is taken as
   fixed: tracks on the root's ancestors are not followed. The yaw of a
   rotation Q is that of its swing-twist decomposition about +Y, Q = T·S:
   T turns about +Y (applied last, so about the world's up axis) and S has
   an axis perpendicular to +Y; yaw = 2·atan2(Q.y, Q.w). A rotation of 180°
   about a horizontal axis has no defined twist; its yaw is taken as 0.

   The root's value at a time comes from the clip's tracks that target
   `joint` (translation and rotation; the last one wins, as in
   sw_sample_job), sampled with sw_track_sample; a property without a track
   keeps `rest`. Nothing allocates and nothing is kept between calls.

   THE MOTION FRAME. At clip time u the root stands at r(u) (the chosen
   axes of its character-space position, the others 0) with relative yaw
   φ(u) = yaw(u) − yaw(0) (0 when the yaw is not extracted). The motion at
   u is the rigid map F(u): p ↦ r(u) + R(φ(u))·(p − r(0)), R a turn about
   +Y; F(0) is the identity. A character placed by F(u) and drawn with the
   in-place pose (below) shows the clip exactly as authored, its root at
   r(u) facing yaw(u) (when the yaw is extracted, that needs both X and Z:
   an axis left in the pose turns with the character). Looping adds whole loops L = F(duration): at playback
   time t = n·duration + u (n = floor(t / duration)) the motion is Lⁿ·F(u).

   DELTAS. The delta of a step from t0 to t1 is F(t0)⁻¹·F(t1) with loops
   included: F(u0)⁻¹ · Lᵐ · F(u1), m = n1 − n0, so a step across a wrap is
   (end − previous) then (new − start), a step of several loops adds them
   whole, and t1 < t0 (negative speed) walks back through them. Its
   translation is expressed in the CHARACTER'S FRAME AT THE START OF THE
   STEP (the model's axes, turned as the character transform is at t0),
   its yaw is the turn over the step. Deltas compose exactly: any
   sequence of steps from t0 to t1 applied one after the other gives the
   one step t0 → t1. Without yaw (not extracted, or a clip that does not
   turn) composing is adding: the translations of the deltas over k loops
   sum to k times the root's displacement between the clip's first and last
   key, however the steps fall. With yaw the yaws sum to k times the loop's
   turn, and the positions follow the turned loops: L·L·…. Yaws are unwrapped
   sums, exact as long as the clip turns less than half a turn from its
   start at every time (φ and the loop's turn are each read in (−π, π]).
   Without `loop` the times are clip times, held at the clip's ends.

   APPLYING. sw_root_motion_apply moves a character transform (position in
   world space, yaw about +Y) by a delta: the translation is rotated by the
   character's accumulated yaw and added, then the yaw is added (and kept
   in (−π, π]). The character's world matrix T(position)·R(yaw) goes above
   the in-place pose (sw_root_motion_character_to_mat34).

   IN PLACE. sw_root_motion_remove edits the root's local transform (in the
   parent's space, e.g. pose.local[joint] after sampling or blending): the
   chosen translation axes get the clip's value at its start (time 0, where
   the root holds its first key), so the character keeps where it was
   authored to stand, not the origin; other axes stay as animated (the
   vertical bob of a walk). With the yaw extracted the rotation becomes
   T0·S: the clip's start yaw with the pose's own swing (pitch, roll) kept.

   Errors: sw_root_motion_validate checks the description and the root's
   tracks once (code and one-line sw_diag); the other functions only assert.
   Everything here is pure and thread-safe. */
#ifndef SINEW_ROOT_MOTION_H
#define SINEW_ROOT_MOTION_H

#include "sinew/base.h"
#include "sinew/math.h"
#include "sinew/anim.h"

SW_EXTERN_C_BEGIN

/* Components to extract (bits of sw_root_motion.components). Translation
   axes are character-space axes; yaw is about +Y. */
#define SW_ROOT_MOTION_X 1u
#define SW_ROOT_MOTION_Y 2u
#define SW_ROOT_MOTION_Z 4u
#define SW_ROOT_MOTION_YAW 8u
#define SW_ROOT_MOTION_DEFAULT (SW_ROOT_MOTION_X | SW_ROOT_MOTION_Z | SW_ROOT_MOTION_YAW)

/* What to extract and from which joint. Zero means default: components 0
   = SW_ROOT_MOTION_DEFAULT; an all-zero `parent` or `rest` is the identity. */
typedef struct sw_root_motion {
    uint32_t joint;      /* the root: the track target (a model node index) whose motion is extracted */
    uint32_t components; /* SW_ROOT_MOTION_* bits; 0 = X | Z | YAW */
    sw_mat34 parent;     /* the joint's parent space → character space: rotation · uniform scale + translation */
    sw_transform rest;   /* the joint's rest local transform, for properties the clip does not animate */
} sw_root_motion;

/* A motion on the ground: translation (metres, in the frame described
   above) and a turn about +Y (radians, counter-clockwise seen from above). */
typedef struct sw_root_motion_delta {
    sw_vec3 translation;
    float yaw;
} sw_root_motion_delta;

/* Where the character stands: world position and heading about +Y. */
typedef struct sw_root_motion_character {
    sw_vec3 position;
    float yaw;
} sw_root_motion_character;

/* Checks the components (known bits), that `parent` is zero
   or a rotation times a uniform positive scale (within 1e-4) with a finite
   translation, that `rest` is zero or finite with a unit rotation (within
   1e-3), and every translation and rotation track of the clip that targets
   `joint` (sw_track_validate; diag.index is the track). A clip without
   such tracks is valid: its root does not move. */
sw_result sw_root_motion_validate(const sw_root_motion* rm, const sw_clip* clip, sw_diag* diag);

/* The motion of the root from playback time `from_time` to `to_time`
   (seconds; either order). With `loop`, the times are unwrapped playback
   times: the loops between them are floor(to / duration) − floor(from /
   duration), so a caller that keeps its time wrapped passes (t, t + step)
   and wraps afterwards. A clip of zero duration, a non-finite time, or
   more than 2⁵³ loops gives the zero delta. */
sw_root_motion_delta sw_root_motion_extract(const sw_root_motion* rm, const sw_clip* clip, float from_time,
                                            float to_time, bool loop);

/* Plays in place: removes the extracted components from the root's local
   transform `local` (see IN PLACE above). */
void sw_root_motion_remove(const sw_root_motion* rm, const sw_clip* clip, sw_transform* local);

/* The character moved by one delta: position += R(yaw)·delta.translation,
   then yaw += delta.yaw, wrapped into (−π, π]. */
sw_root_motion_character sw_root_motion_apply(sw_root_motion_character character, sw_root_motion_delta delta);

/* The character's world matrix, T(position)·R(yaw about +Y). */
sw_mat34 sw_root_motion_character_to_mat34(sw_root_motion_character character);

SW_EXTERN_C_END

#endif
