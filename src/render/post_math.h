/* post_math.h — the pure numbers of the post chain (post_chain.c,
   shaders/post_*.frag): the TAA jitter sequence, its current-colour kernel
   and history filter weights, and the edge AA lookup tables, generated
   here rather than stored. No GL: the tests call these directly. Not a
   public header; docs/post.md explains each. */
#ifndef SINEW_RENDER_POST_MATH_H
#define SINEW_RENDER_POST_MATH_H

#include <stddef.h>
#include <stdint.h>

#include "render_interface.h"

/* The radical inverse of `index` in `base` (2, 3, ...): 0.1, 0.01, 0.11 ...
   read as a base-`base` fraction. Halton(2,3) point i is
   (sw__radical_inverse(i, 2), sw__radical_inverse(i, 3)). */
float sw__radical_inverse(uint32_t index, uint32_t base);

/* The TAA sub-pixel jitter of frame `frame_index`, in pixels in
   (-0.5, 0.5)²: Halton(2,3) point 1 + frame_index mod `phases`, centred
   (point 0 is the origin of both sequences, so it is skipped). */
void sw__taa_jitter(uint32_t frame_index, uint32_t phases, float out_xy[2]);

/* The current-colour kernel of the TAA, a polynomial stand-in for
   Lanczos-2 as a function of the squared distance x2 (in pixels²):
   L(x²) = (25/16·(2x²/5 − 1)² − 9/16)·(x²/4 − 1)², 1 at 0, zero at 1 and
   2, negative between; x2 is clamped to 4 (zero beyond). */
float sw__taa_kernel(float x2);

/* The 5-tap bicubic history filter along one axis at fraction f (0..1)
   and sharpness s: the outer corrections w0 (at base − 1) and w3 (at
   base + 2), both ≤ 0, and the inner pair w1, w2 merged into one bilinear
   tap at base + w2 / (w1 + w2). */
typedef struct sw__bicubic_axis {
    float w0, w1, w2, w3;
} sw__bicubic_axis;
sw__bicubic_axis sw__bicubic_weights(float f, float s);

/* The filter's normaliser at fraction (fx, fy): 1 + w0.x + w3.x + w0.y +
   w3.y (the centre tap has weight 1). 0.775 at f = (0.5, 0.5) with s = 0.45. */
float sw__bicubic_denominator(float fx, float fy, float s);

/* ---- edge AA tables ---- */

/* The height (±½ pixel, 0 for none) the revectorised edge line starts at
   from an end with crossing pattern `crossing` (SW_EDGE_CROSS_*). */
float sw__edge_end_height(int crossing);

/* The coverage of one pixel on an edge line. The line runs along a pixel
   boundary from `left` pixels left of this pixel to `right` pixels right
   of it (0..SW_EDGE_MAX_DISTANCE), with crossing patterns at its two ends.
   out[0]: the part of this pixel, on the positive side of the boundary,
   that the line gives to the other side; out[1]: the part of the
   neighbour across the boundary given to this side. Integrated exactly
   (the line is piecewise linear). */
void sw__edge_area(int left, int right, int crossing_left, int crossing_right, float out[2]);

/* The whole area table, as the GPU reads it: SW_EDGE_AREA_SIZE ×
   SW_EDGE_AREA_SIZE texels of 2 floats, texel (x, y) with x = left +
   SW_EDGE_DISTANCES · crossing_left, y = right + SW_EDGE_DISTANCES ·
   crossing_right. `out` holds SW_EDGE_AREA_SIZE² × 2 floats. */
void sw__edge_area_table(float* out);

/* The search table: the line search reads two edge flags a (nearer) and b
   (farther) in one bilinear fetch, a·¾ + b·¼; entry k (0..SW_EDGE_SEARCH_CODES − 1)
   of the table is how many of the two the line runs on for the fetched
   value k/4: 2 when both, 1 when only a, 0 when a is missing (codes that
   no flag pair gives are 0). `out` holds SW_EDGE_SEARCH_CODES bytes. */
void sw__edge_search_table(uint8_t* out);

#endif
