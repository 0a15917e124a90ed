/* decal_math.h — the C reference of the decal pass's shading
   (shaders/decal.frag; docs/decals.md), no GL: tested on its own and
   against GL readbacks.

   A decal is a box: the world transform of the unit cube [−0.5, 0.5]³.
   It projects along its local −Y: its picture lies on the local XZ square
   (u = x + 0.5 to the right, v = z + 0.5 down the picture), its +Y faces
   out of the surfaces it lands on. A G-buffer pixel whose world position
   is inside the box takes the decal's colour and (with a normal map) its
   normal, blended by
     coverage = baseColor.a (factor × texture alpha) × facing
     colour weight a_c = coverage × opacity
     normal weight a_n = coverage × normal strength
   facing = smoothstep(SW_DECAL_FACING_MIN, SW_DECAL_FACING_FULL, n · up)
   with n the surface normal (from depth) and up the box's unit +Y, so
   surfaces that turn away from the projection are left alone. The blend
   is "over": dst' = a·src + (1 − a)·dst, on linear colour and on the
   encoded normal (the lighting pass normalises it). */
#ifndef SINEW_RENDER_DECAL_MATH_H
#define SINEW_RENDER_DECAL_MATH_H

#include <stdbool.h>

#include "sinew/math.h"
#include "render_interface.h"

/* The box's world → decal space (the inverse of its transform); false
   when the box is degenerate (no inverse). */
bool sw__decal_world_to_box(const sw_mat34* box, sw_mat34* out);

/* World point `world` in decal space (*local) and whether it is inside
   the box (every coordinate within ±0.5). */
bool sw__decal_inside(const sw_mat34* world_to_box, const float world[3], float local[3]);

/* The picture's texture coordinates of a point in decal space. */
void sw__decal_uv(const float local[3], float uv[2]);

/* How much a surface of unit normal n faces the decal's unit up: 0 below
   SW_DECAL_FACING_MIN, 1 above SW_DECAL_FACING_FULL, smooth between. */
float sw__decal_facing(const float n[3], const float up[3]);

/* The decal's normal on a surface of unit normal n: the normal map's
   value m (in [−1, 1]: x along the box's +X projected on the surface,
   y up the picture, z along n) in that frame, unit length. box_x is the
   box's +X axis (any length). */
void sw__decal_normal(const float n[3], const float box_x[3], const float m[3], float out[3]);

/* The pixels the box can cover on a width × height image seen through
   view_projection (column-major): the bounds of its 8 corners' pixels,
   one pixel wider on each side, clamped to the image, as x0, y0 (from the
   bottom), x1, y1 exclusive. A corner at or behind the eye gives the whole
   image (the box reaches behind the camera). False: nothing to draw (the
   rectangle is empty). The pass draws each decal only there. */
bool sw__decal_screen_rect(const sw_mat34* box, const float view_projection[16], int width, int height,
                           int rect[4]);

/* dst' = a·src + (1 − a)·dst on three components. */
void sw__decal_over(float dst[3], const float src[3], float a);

/* One pixel: the surface's linear colour and unit normal (rgb, n), the
   decal's sampled base colour (factor × texture, linear rgb and alpha),
   its normal map value m (NULL: none), its opacity and normal strength,
   its facing; rgb and n updated in place (n re-normalised, as the
   lighting pass reads it). */
void sw__decal_shade(float rgb[3], float n[3], const float base[4], const float* m, const float box_x[3],
                     float opacity, float normal_strength, float facing);

#endif
