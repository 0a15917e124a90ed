/* depth_view.h — the depth debug view's maths in C (SW_RENDER_VIEW_DEPTH,
   docs/depth.md "The depth view"), the twin of its branch in
   shaders/post.frag. CPU only, no GL. Not a public header.

   A depth-buffer value goes back to the eye distance it came from
   (the inverse of sw__depth_at_distance, either convention), and the
   distance to a grey on a log scale, so that a stage's near and far
   both read: 1 (white) at the near plane, 0 (black) at the scale's far
   end and beyond (nothing drawn: the far plane, black); the grey is shown
   sRGB-encoded. */
#ifndef SINEW_RENDER_DEPTH_VIEW_H
#define SINEW_RENDER_DEPTH_VIEW_H

#include <stdbool.h>

#include "sinew/render.h"

/* The grey scale's far end for an infinite far plane: this many near
   distances (10⁴: 1 km for a 10 cm near plane). */
#define SW_DEPTH_VIEW_INFINITE_SPAN 1.0e4f

/* The eye distance of depth-buffer value `depth` (inverse of
   sw__depth_at_distance): reverse n f / (depth (f − n) + n), ordinary
   n f / (f − depth (f − n)); with f infinite n / depth and
   n / (1 − depth). INFINITY at the far plane's depth. */
float sw__depth_view_distance(float depth, float z_near, float z_far, bool reverse);

/* The grey of eye distance d: 1 − log(d / n) / log(g / n), clamped to
   [0, 1], g = the scale's far end (sw__depth_view_scale_far). Strictly
   decreasing in d between n and g. */
float sw__depth_view_grey(float distance, float z_near, float scale_far);

/* The value the view writes for grey g (0..1, the byte ×255): g sRGB-encoded (as the UV and
   weight views are), so that the far field's low greys stay apart on a
   screen, then rounded to 0..255. */
float sw__depth_view_encode(float grey);

/* The scale's far end: the camera's z_far, or z_near · SW_DEPTH_VIEW_INFINITE_SPAN
   when that is infinite. */
float sw__depth_view_scale_far(float z_near, float z_far);

#endif
