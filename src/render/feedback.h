/* feedback.h — the character's environment feedback in C, no GL (frame
   analysis §2.15; docs/feedback.md). Around the character a fixed set of
   world points is sampled each frame: 10 colour columns (what the visible
   surroundings look like in each of 10 horizontal directions) and 60
   shadow columns (whether the sun reaches points on a cylinder around her
   body, 6 rings × 10 directions), five samples per column (the 70×5
   intermediate). Each column is reduced to a mean and folded into a 70×1
   state that the character's shaders read one frame later: colour columns
   tint her ambient from that side, shadow columns darken her.
   Not a public header. */
#ifndef SINEW_RENDER_FEEDBACK_H
#define SINEW_RENDER_FEEDBACK_H

#include <stdbool.h>

#include "sinew/math.h"
#include "sinew/model.h"
#include "render_interface.h"

/* Where the character stands: the point between her feet (world), her
   height and her body radius (world units, > 0). */
typedef struct sw__feedback_body {
    float feet[3];
    float height;
    float radius;
} sw__feedback_body;

/* Her body relative to the joint that carries her (her hips), measured
   once from her skinned bounds: where she stands follows that joint every
   frame without reading anything back. */
typedef struct sw__feedback_shape {
    float feet_offset[3]; /* the bounds' bottom centre − the joint, her model space */
    float height;
    float radius;         /* half the narrower horizontal extent (a T-pose's arms make the wider one too wide) */
} sw__feedback_shape;

/* The shape from her skinned bounds [lo, hi] and the joint's position
   `joint` at the same pose, both in her model space (before the frame's
   placement). False when the box is empty or flat. */
bool sw__feedback_shape_of(const float lo[3], const float hi[3], const float joint[3], sw__feedback_shape* out);

/* Where she stands this frame: the joint's position at this frame's pose
   (model space) plus the shape's offset, moved by `placement` (NULL:
   none); height and radius scaled by the placement's scale (the length
   of its Y and X axes). */
void sw__feedback_body_at(const sw__feedback_shape* shape, const float joint[3], const sw_mat34* placement,
                          sw__feedback_body* out);

/* The joint that carries her: from the first skin's topmost joint down
   through joints with exactly one joint child to the first that branches
   (the hips of a Root → Hips → legs, spine rig; the topmost joint itself
   when it branches); -1 when the model has no skin (the model's origin
   carries her then). */
int32_t sw__feedback_joint(const sw_model* model);

/* The unit horizontal direction of direction index d (0..9):
   (sin φ, 0, cos φ) with φ = 2π·d/10, d = 0 along +Z. */
void sw__feedback_direction(int d, float out[3]);

/* The world point of sample `sample` (0..4) of column `column` (0..69).
   Colour column d: five points along direction d at 0.4·height above the
   feet, radii (0.5, 1, 1.5, 2, 2.5)·height from the feet — far enough
   out to land on the surroundings, not on her: each is projected to the
   screen and reads whatever surface is visible there. Shadow column 10 + 10·r + d:
   the point `radius` out along direction d at height (r + 0.5)/6·height
   (the centre sample 0), and four more a quarter radius to each side and
   1/24 height above and below (samples 1..4). */
void sw__feedback_sample_point(const sw__feedback_body* body, int column, int sample, float out[3]);

/* The mean of one colour column's samples: rgb[k] with validity valid[k]
   (> 0.5: valid). Returns false (mean untouched) when none is valid. */
bool sw__feedback_colour_mean(const float rgb[SW_FEEDBACK_SAMPLES][3], const float valid[SW_FEEDBACK_SAMPLES],
                              float mean[3]);

/* The colour update: C' = C + 0.1·(mean − C) when any sample was valid,
   else C unchanged; colour[3], the confidence, moves the same way towards
   1. After n updates toward a fixed mean the old difference is 0.9ⁿ of
   what it was. */
void sw__feedback_colour_update(float colour[4], const float mean[3], bool any_valid);

/* One shadow column's samples: the pass rate (1 = lit) of each, its
   validity (> 0.001: valid) and its control. The mean pass rate s̄ of the
   valid ones and the control c of the last valid one; false when none. */
bool sw__feedback_shadow_mean(const float pass[SW_FEEDBACK_SAMPLES], const float valid[SW_FEEDBACK_SAMPLES],
                              const float control[SW_FEEDBACK_SAMPLES], float* sbar, float* c);

/* The shadow state update, (x, y) in [0,1]²: x the shadow (1 = in shadow),
   y the stored deviation around 0.5. With a valid sample the drive is
   D = c·(1 − s̄) − x, else 0 (the occlusion relative to the state; the
   frame analysis' reconstruction writes − 0.5, which is the same at its
   example's x = 0.5 but locks a saturated state in shadow for ever);
   v = 2y − 1, g = 1 + 2v², v' = g·(v + D),
   x' = sat(x + v'/2), y' = sat(0.5 + v'/2); c > 999 sets x' = y' = sat(D).
   The frame analysis' example: s̄ = 0.4, c = 1, (0.5, 0.55) → (0.602, 0.602). */
void sw__feedback_shadow_update(float state[2], float sbar, float c, bool any_valid);

/* The 70×1 state: (r, g, b, confidence) for colour columns, (x, y, 0, 1)
   for shadow columns. The reset state: colour and confidence 0 (no tint),
   shadow (0, 0.5) (lit, no deviation). */
typedef struct sw__feedback_state {
    float column[SW_FEEDBACK_COLUMNS][4];
} sw__feedback_state;
void sw__feedback_reset(sw__feedback_state* state);

/* What a character point reads from the state: the colour from the
   surroundings its normal faces (the colour columns, rgb and confidence,
   weighted by max(0, n·dir_d)²), and the shadow x of the nearest shadow column to
   the point (ring by height, direction by azimuth around the feet). */
void sw__feedback_read_colour(const sw__feedback_state* state, const float normal[3], float out[4]);
float sw__feedback_read_shadow(const sw__feedback_state* state, const sw__feedback_body* body,
                               const float point[3]);

/* A character pixel's colour with the feedback: darkened by half its
   shadow x (SW_FEEDBACK_SHADOW_PERCENT) and tinted towards the chroma of
   the surroundings it faces, rgb / luma (at most 4), by 0.35 × their
   confidence (SW_FEEDBACK_TINT_PERCENT): its brightness stays, its hue
   leans towards a coloured wall. */
void sw__feedback_apply(float colour[3], const float surroundings[4], float shadow);

#endif
