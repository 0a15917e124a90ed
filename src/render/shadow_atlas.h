/* shadow_atlas.h — the shadow atlas and its cascades (docs/shadows.md,
   frame analysis §2.7), CPU only: where each cascade's cell lies in the
   atlas (cells of 256, 512, 1024 ... texels whose usable area is inset 2
   texels on every side: the viewport x0 + 2, y0 + 2, size − 4, so the 3×3
   PCF never reads a neighbour's texels), the split of the camera's depth
   range into cascades, each cascade's light box fitted to its slice and
   snapped to whole texels, and the cascade a point is shaded from (the
   lighting and toon shaders follow sw__shadow_pick_cascade). Not a public
   header. */
#ifndef SINEW_RENDER_SHADOW_ATLAS_H
#define SINEW_RENDER_SHADOW_ATLAS_H

#include <stdbool.h>

#include "sinew/math.h"
#include "sinew/render.h"

#include "render_interface.h"

#define SW__SHADOW_GUARD 2 /* texels of guard band on each side of a cell */

typedef struct sw__shadow_cell {
    int x, y, size; /* texels, the cell's corner nearest texel (0, 0) */
} sw__shadow_cell;

/* The usable viewport of a cell: x + 2, y + 2, size − 4, size − 4. */
static inline void sw__shadow_cell_viewport(sw__shadow_cell c, int out[4]) {
    out[0] = c.x + SW__SHADOW_GUARD, out[1] = c.y + SW__SHADOW_GUARD;
    out[2] = out[3] = c.size - 2 * SW__SHADOW_GUARD;
}

/* Places `count` square cells of `sizes` (powers of two, 32 or more) in a
   square atlas of `atlas_size` (a power of two): the larger first, each
   in the first free square of its size met by splitting free squares in
   four (so none overlap and each is aligned to its size). False when a
   size is not a power of two in 32..atlas_size or they do not all fit. */
bool sw__shadow_atlas_layout(int atlas_size, const int* sizes, int count, sw__shadow_cell* out);

/* The ends of `count` depth slices of [near, far] (out[0] = near,
   out[count] = far): lambda·logarithmic + (1 − lambda)·uniform. */
void sw__shadow_cascade_splits(float near, float far, int count, float lambda, float* out);

/* The light's view-projection for the camera's depth slice [d0, d1]
   (distances along the view axis): an orthographic box around the slice's
   bounding sphere (radius from the slice's shape alone, so it does not
   change as the camera turns), grown to hold `focus_lo..hi` when given
   (the character: always in the finest cascade), its centre snapped to
   whole texels of a `usable`-texel viewport (it moves by whole texels and
   does not shimmer), its depth range holding the box [scene_lo, scene_hi]
   (every caster). `light_direction` points towards the light (unit). */
sw_mat4 sw__shadow_fit_cascade(const sw_camera* camera, float aspect, float d0, float d1, sw_vec3 light_direction,
                               const float scene_lo[3], const float scene_hi[3], const float* focus_lo,
                               const float* focus_hi, int usable);

/* The first cascade whose box holds world point p at least `margin`
   (texture-space units of the cell's usable area) inside its sides and
   within its depth range; -1 for none (the point is lit). */
int sw__shadow_pick_cascade(const sw_mat4* view_projections, int count, const float p[3], float margin);

#endif
