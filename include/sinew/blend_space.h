/* sinew/blend_space.h — 2-D blend spaces: clips placed at points of a plane
   (direction × speed, say), and the weights of each clip for a parameter
   (x, y). The 1-D blend space is sw_blend_space_1d in playback.h.

       size_t bytes = sw_blend_space_2d_memory_size(count);     // 0: too many points
       void* memory = aligned_alloc(16, bytes);                  // caller-owned
       sw_blend_space_2d space;
       if (sw_blend_space_2d_build(&space, xy, count, memory, bytes, &diag) != SW_OK) ...
       sw_blend_space_2d_weights(&space, SW_BLEND_2D_TRIANGLES, x, y, weights);
       sw_blend_poses(out, joints, rest, poses, weights, count, layers, &diag);   // playback.h

   BUILD (once). The points are triangulated by Delaunay: the convex hull
   (Andrew's monotone chain) is fanned into triangles, the other points are
   inserted one by one (a point inside a triangle splits it in three, a point
   on an edge splits the two triangles beside it, or the one triangle of a
   hull edge, in two), and then edges whose opposite vertex lies strictly
   inside the other triangle's circumcircle are flipped until none is left
   (Lawson). Predicates run in double on the float inputs; four points on one
   circle (a square of samples) are left as they are, one diagonal or the
   other, never flipped back and forth. The boundary (`hull`) lists every
   point on the convex hull counter-clockwise, also points in the middle of
   a hull edge. Rejected with SW_ERR_INVALID_DATA and a one-line sw_diag:
   fewer than 3 points, a non-finite coordinate, two equal points (the
   message names both), all points on one line (use the 1-D blend space).

   WEIGHTS (per frame, no allocation, no failure: the space was checked at
   build). Every method gives `point_count` weights ≥ 0 that sum to 1, and at
   a sample point exactly that sample (weight 1, the others 0).
   - SW_BLEND_2D_TRIANGLES: inside the hull the barycentric coordinates of
     the triangle holding (x, y) (at most 3 clips); outside, (x, y) is
     projected onto the nearest hull edge and its two ends share the weight
     linearly (at most 2 clips), as Unreal's blend spaces do.
   - SW_BLEND_2D_GRADIENT_BAND (cartesian, Johansen 2009, "freeform
     cartesian" in Unity): sample i gets hᵢ = min over j ≠ i of
     clamp(1 − (p − pᵢ)·(pⱼ − pᵢ) / |pⱼ − pᵢ|², 0, 1), then hᵢ / Σ h. The
     nearest sample has h ≥ ½, so Σ h > 0 everywhere.
   - SW_BLEND_2D_GRADIENT_BAND_POLAR ("freeform directional"): the same in
     polar terms, for samples that are directions × speeds around the
     origin: the vector from pᵢ to q is ((|q| − |pᵢ|) / ((|pⱼ| + |pᵢ|)/2),
     k·angle(pᵢ, q)) with k = SW_BLEND_2D_POLAR_ANGLE_WEIGHT and the signed
     angle from pᵢ's direction to q's; a point at the origin takes the other
     vector's direction, so the angle is 0. If every h is 0 (possible only
     far from the samples in polar terms), the nearest sample gets 1.

   PHASE SYNC. Clips of different lengths blended together keep their feet
   together when played by one phase: sw_blend_space_2d_sync writes each
   member's weight and time (start + phase × duration) and returns the
   weighted cycle Σ wᵢ·dᵢ / Σ wᵢ; sw_sync_group_advance (playback.h) then
   advances the shared phase with those weights.

   Pure functions over caller memory: thread-safe, deterministic. */
#ifndef SINEW_BLEND_SPACE_H
#define SINEW_BLEND_SPACE_H

#include "sinew/base.h"
#include "sinew/playback.h"

SW_EXTERN_C_BEGIN

/* Most sample points of a 2-D blend space (the build flips edges in
   O(triangles²) per pass: it is meant for tens of samples). */
#define SW_BLEND_SPACE_2D_MAX_POINTS 256
/* k of the polar gradient band: how far one radian is against a relative
   change of speed (Johansen's and Unity's choice is 2). */
#define SW_BLEND_2D_POLAR_ANGLE_WEIGHT 2.0f

typedef enum sw_blend_2d_method {
    SW_BLEND_2D_DEFAULT = 0, /* TRIANGLES */
    SW_BLEND_2D_TRIANGLES,
    SW_BLEND_2D_GRADIENT_BAND,
    SW_BLEND_2D_GRADIENT_BAND_POLAR,
} sw_blend_2d_method;

/* A triangulated blend space; every array lives in the build's memory. */
typedef struct sw_blend_space_2d {
    size_t point_count;
    const float* points;        /* point_count (x, y) pairs, copied at build */
    size_t triangle_count;      /* 2·point_count − 2 − hull_count */
    const uint32_t* triangles;  /* triangle_count × 3 point indices, counter-clockwise */
    size_t hull_count;          /* boundary points */
    const uint32_t* hull;       /* hull_count point indices, counter-clockwise */
} sw_blend_space_2d;

/* Bytes sw_blend_space_2d_build needs for `point_count` points: a multiple
   of 16, or 0 when point_count is not in [3, SW_BLEND_SPACE_2D_MAX_POINTS]. */
size_t sw_blend_space_2d_memory_size(size_t point_count);

/* Triangulates `points` (point_count (x, y) pairs) into `memory` (16-aligned,
   memory_size bytes) and points `space` at it. See the manual for what is
   rejected; on failure `space` is zeroed. */
sw_result sw_blend_space_2d_build(sw_blend_space_2d* space, const float* points, size_t point_count, void* memory,
                                  size_t memory_size, sw_diag* diag);

/* Writes space->point_count weights for the parameter (x, y) (see the
   manual). A non-finite x or y gives all the weight to point 0. */
void sw_blend_space_2d_weights(const sw_blend_space_2d* space, sw_blend_2d_method method, float x, float y,
                               float* out_weights);

/* Sets members[i].weight = weights[i] and members[i].time = start + phase ×
   duration for every member (phase wrapped into [0, 1)), and returns the
   cycle Σ wᵢ·dᵢ / Σ wᵢ (sw_sync_group_cycle; 0 when no weight). */
float sw_blend_space_2d_sync(sw_sync_member* members, const float* weights, size_t count, float phase);

SW_EXTERN_C_END

#endif
