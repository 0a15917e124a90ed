/* sinew/playback.h — playing clips: clip instances with wrap modes and
   events, crossfade weights, synchronised blends and 1-D blend spaces, as
   plain data and functions over caller-owned memory.

       sw_clip_instance walk = {.time = 0.0f, .speed = 1.0f, .wrap = SW_WRAP_LOOP};
       sw_playback_event hits[16];
       sw_event_buffer out = {.events = hits, .capacity = 16};     // count, dropped = 0
       sw_clip_instance_advance(&walk, 0.0f, clip->duration, dt, &footsteps, &out, &diag);
       sw_pose_sample(model, clip, walk.time, false, &pose, &diag);  // pose.h

   CLIP RANGE. An instance plays the clip times [start, start + duration];
   `duration` here is a length, one cycle. An sw_clip's own `duration` field
   is the time of its last key and sw_clip_time wraps into [0, duration), so
   for an sw_clip pass start = 0 and duration = clip->duration (what
   sw_pose_sample plays), or start = clip->start and duration =
   clip->duration − clip->start to play only the keyed part. A duration of 0
   holds the time at `start` and reports nothing.

   WRAP MODES. LOOP wraps past either end (the time stays in
   [start, start + duration): the end and the start are one instant).
   CLAMP stops at the end it runs into. PING_PONG turns at each end and
   plays back the other way; `reversed` says the instance is on a backward
   leg. `speed` scales dt and may be negative (plays backwards; in
   PING_PONG, along the current leg in reverse). A time outside the range is
   first brought into it (wrapped for LOOP, clamped otherwise).

   EVENTS are named markers the caller keeps per clip (sw_clip_events:
   times in clip time, ascending). An update is a path from the old time to
   the new one, possibly passing the ends several times (a big dt, a fast
   speed), and reports every marker on the path, in the order playback meets
   them, each time it passes it. The rule that keeps consecutive updates
   from reporting one crossing twice: a path counts the point it starts from
   and not the point it stops at, half-open in the direction of travel —
   [from, to) forward, (to, from] backward. So an event exactly at the time
   an update starts from is reported by that update (a fresh instance at 0
   reports a marker at 0 on its first update), and one exactly where an
   update stops is reported by the next update, not by both. In detail:
   - LOOP: markers at the start and at the end are one instant, reported
     together each time playback passes that instant (forward: the end's
     markers, then the start's; backward: the start's, then the end's),
     also when an update starts there.
   - PING_PONG: a marker at a turning end is reported once per turn (as the
     start of the leg that leaves it).
   - CLAMP: the end a path runs into is counted too (a one-shot clip's
     marker at its end is reported when playback gets there); an instance
     already resting at that end reports nothing. Reversing it from there
     passes that end again and reports its markers again.
   - dt = 0 or speed = 0 reports nothing.
   Events go to an sw_event_buffer the caller owns. Updates append to it, so
   one buffer collects a frame's events from several instances (each tagged
   with a `source` the caller chooses): set count and dropped to 0 at the
   start of a frame. Events past its capacity are counted in `dropped`,
   never written.

   SYNC GROUPS advance several clips by one normalised phase,
   phase = (time − start) / duration, so clips of different lengths (a 1 s
   walk and a 0.8 s jog) keep their feet together. The group's playhead is
   an sw_clip_instance over [0, 1] whose time is the phase. Its cycle lasts
   the weight-averaged duration of its members, Σ wᵢ·dᵢ / Σ wᵢ (as a blend
   tree does: a 50/50 walk/jog cycles in 0.9 s; a member at weight 1
   alone plays at its own speed). Each member's time is derived from the
   phase every update (start + phase × duration), never accumulated on its
   own, so members cannot drift apart however long they play.

   BLENDS. sw_crossfade_weight gives the weight of the clip faded to;
   sw_blend_space_1d turns a parameter (a speed) into weights of clips at
   thresholds; sw_blend_poses blends sampled poses with any weights through
   sw_blend_job (anim.h), which blends rotations by weighted nlerp: exactly
   the midway rotation for two poses at 50/50, not constant angular speed
   otherwise (up to 0.9° off slerp in a 90° blend).

   Nothing here allocates or keeps state; every function is thread-safe on
   distinct instances and buffers. Fallible functions return an sw_result
   and fill an optional sw_diag (one line); on failure the instance, members
   and buffer are left as they were. */
#ifndef SINEW_PLAYBACK_H
#define SINEW_PLAYBACK_H

#include "sinew/base.h"
#include "sinew/math.h"
#include "sinew/anim.h"

SW_EXTERN_C_BEGIN

typedef enum sw_wrap_mode {
    SW_WRAP_DEFAULT = 0, /* LOOP */
    SW_WRAP_LOOP,
    SW_WRAP_CLAMP,
    SW_WRAP_PING_PONG,
} sw_wrap_mode;

/* One clip being played. State, not options: speed 0 is a paused clip, not
   a default (set it to 1 for real time). */
typedef struct sw_clip_instance {
    float time;        /* clip time, seconds (a sync group's: the phase, 0..1) */
    float speed;       /* clip seconds per second of dt; negative plays backwards; finite */
    sw_wrap_mode wrap;
    bool reversed;     /* PING_PONG: on a backward leg (flips at each turn); else ignored and left alone */
} sw_clip_instance;

/* A clip's markers, caller-owned: times in clip time, ascending (equal
   times allowed, reported in list order forwards and reverse list order
   backwards), finite. Markers outside the played range are never reported. */
typedef struct sw_clip_events {
    size_t count;
    const float* times;        /* count times, seconds */
    const char* const* names;  /* count names, or NULL */
} sw_clip_events;

/* One marker passed. */
typedef struct sw_playback_event {
    size_t source;     /* the caller's tag (sw_clip_instance_advance) or the member (sync group) */
    size_t index;      /* the marker's index in its sw_clip_events */
    const char* name;  /* names[index], or NULL without names */
    float time;        /* the marker's clip time */
} sw_playback_event;

/* Where updates report events; caller-owned, appended to (see the manual). */
typedef struct sw_event_buffer {
    sw_playback_event* events; /* capacity entries; may be NULL when capacity is 0 */
    size_t capacity;
    size_t count;              /* events written so far */
    size_t dropped;            /* events that did not fit */
} sw_event_buffer;

/* Advances `instance` by dt seconds (times its speed) over the clip range
   [start, start + duration] and writes the new time to instance->time
   (and, in PING_PONG, the leg to instance->reversed). Markers of `events`
   passed on the way are appended to `out`, tagged with `source`.
   `events` and `out` may be NULL (no events). Fails with
   SW_ERR_INVALID_DATA on a non-finite dt, speed, time or start, a negative
   or non-finite duration, an unknown wrap mode, or markers that are not
   finite and ascending; with SW_ERR_INVALID_ARGUMENT on a buffer with
   capacity and no array. */
sw_result sw_clip_instance_advance(sw_clip_instance* instance, float start, float duration, float dt,
                                   const sw_clip_events* events, size_t source, sw_event_buffer* out, sw_diag* diag);

/* (time − start) / duration: 0 at the start, 1 at the end (0 when duration
   is not > 0). */
float sw_clip_phase(float time, float start, float duration);

/* ---- Crossfades ------------------------------------------------------------ */

typedef enum sw_fade_curve {
    SW_FADE_DEFAULT = 0, /* LINEAR */
    SW_FADE_LINEAR,      /* w = s */
    SW_FADE_SMOOTH,      /* smoothstep, w = s²(3 − 2s): starts and ends with zero slope */
} sw_fade_curve;

/* A fade from one clip to another over [start, start + duration] (seconds
   of whatever clock the caller fades by). */
typedef struct sw_crossfade {
    float start;
    float duration;      /* ≥ 0; 0 switches at `start` */
    sw_fade_curve curve;
} sw_crossfade;

/* The weight of the clip faded TO at `time`, s = (time − start) / duration
   through the curve: 0 up to start, 1 from start + duration on (and from
   start on when duration is 0); the clip faded FROM gets 1 − w. Linear:
   0.5 at the midpoint; smooth: also 0.5 there. A NaN time gives 0. */
float sw_crossfade_weight(const sw_crossfade* fade, float time);

/* ---- Sync groups ----------------------------------------------------------- */

typedef struct sw_sync_member {
    float start;                  /* the member's clip range, as for sw_clip_instance_advance */
    float duration;               /* ≥ 0 */
    float weight;                 /* its blend weight, finite, ≥ 0: its share of the group's cycle */
    const sw_clip_events* events; /* its markers, or NULL */
    float time;                   /* written: start + phase × duration */
} sw_sync_member;

/* The group's cycle length, Σ wᵢ·dᵢ / Σ wᵢ seconds (0 when no member has
   weight). Members with weight 0 play along without changing it. */
float sw_sync_group_cycle(const sw_sync_member* members, size_t member_count);

/* Advances the group's phase (group->time, 0..1) by dt × group->speed /
   cycle, with group->wrap, and writes every member's time from the new
   phase. Each member's markers passed on the way are appended to `out`
   with source = the member's index: for each pass over the range (each loop
   or leg), member by member, each member's in playback order. dt = 0 only
   writes the members' times (do it once to place them before the first
   frame). Fails with SW_ERR_INVALID_DATA when the cycle is not > 0 (no
   weight, or only zero durations) and as sw_clip_instance_advance does. */
sw_result sw_sync_group_advance(sw_clip_instance* group, sw_sync_member* members, size_t member_count, float dt,
                                sw_event_buffer* out, sw_diag* diag);

/* ---- Blend spaces and pose blending --------------------------------------- */

/* 1-D blend space: clip i sits at thresholds[i] (finite, strictly
   ascending, e.g. speeds 1.4, 3, 5.5 m/s for walk, jog, run). Writes
   count weights for `parameter`: between two neighbours i, i+1 they share
   it linearly, w(i+1) = (p − tᵢ)/(tᵢ₊₁ − tᵢ), w(i) = 1 − w(i+1); at a
   threshold that clip alone has weight 1; below the first or above the last
   threshold the end clip has 1. The weights sum to 1 and at most two are
   non-zero. Fails with SW_ERR_INVALID_DATA on a non-finite parameter or
   thresholds that are not finite and strictly ascending. */
sw_result sw_blend_space_1d(float* out_weights, const float* thresholds, size_t count, float parameter,
                            sw_diag* diag);

/* out_local = the blend of pose_count poses (joint_count local transforms
   each) with `weights`, by sw_blend_job: translations and scales averaged
   by weight, rotations by weighted nlerp, the rest pose filling in where
   the weights sum to less than the job's default threshold (0.1; all zero
   gives the rest pose). `layers` is pose_count caller-owned layers this
   fills in (so no caller writes the array by hand). When exactly one
   weight is non-zero and at least the threshold, that pose is copied bit
   for bit (the job would renormalise its rotations, moving the last bit).
   out_local may be one of the poses. Fails as sw_blend_job_validate does. */
sw_result sw_blend_poses(sw_transform* out_local, size_t joint_count, const sw_transform* rest_pose,
                         const sw_transform* const* poses, const float* weights, size_t pose_count,
                         sw_blend_layer* layers, sw_diag* diag);

SW_EXTERN_C_END

#endif
