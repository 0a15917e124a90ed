/* hiz.h — the Hi-Z pyramid's CPU side (docs/depth.md): the reduction the
   GPU pass (shaders/hiz.frag) mirrors, and the occlusion test of a
   world-space box against a pyramid. No GL: the renderer reads the GPU's
   pyramid back and runs this test; the tests run it on hand-made pyramids.
   Not a public header.

   Level 0 is the depth target itself (w × h); level k is
   max(1, w >> k) × max(1, h >> k) (GL's mip sizes); each texel of level
   k + 1 holds the farthest depth of its 2 × 2 texels of level k, and the
   last column / row of an odd-sized level folds into the texel before it
   (3 wide / tall). So texel t of level k covers pixels [t·2^k, (t+1)·2^k),
   the last one everything to the edge, and pixel p is found at texel
   min(p >> k, size_k − 1). Texels are stored row by row from the bottom
   (GL's order). */
#ifndef SINEW_RENDER_HIZ_H
#define SINEW_RENDER_HIZ_H

#include <stdbool.h>
#include <stddef.h>

/* Enough levels for the renderer's 8192 × 8192 limit. */
#define SW__HIZ_MAX_LEVELS 14

/* A pyramid as the box test reads it. Levels below first_level are not
   held (NULL): the test never picks them (a box then covers more texels
   of a coarser level: as correct, less tight). */
typedef struct sw__hiz_levels {
    int width, height; /* level 0 */
    int level_count;
    int first_level;
    const float* texels[SW__HIZ_MAX_LEVELS];
    bool reverse;      /* the depth convention (depth_convention.h) */
} sw__hiz_levels;

/* Levels of a w × h pyramid: down to 1 × 1. */
int sw__hiz_level_count(int width, int height);
/* A level's size along one axis. */
static inline int sw__hiz_level_size(int size, int level) {
    const int s = size >> level;
    return s > 0 ? s : 1;
}
/* Level k + 1 (dw × dh, = sw__hiz_level_size of sw × sh) from level k:
   each texel the farthest depth it covers. */
void sw__hiz_reduce(const float* source, int sw, int sh, float* out, int dw, int dh, bool reverse);

/* Whether the world-space box [lo, hi], seen through the column-major
   view-projection vp the depth was drawn with, is hidden: projected to a
   pixel rectangle (grown by one pixel) and a nearest depth (its corners'
   nearest), tested against the level where the rectangle spans at most
   2 × 2 texels; hidden only when every texel's farthest depth is nearer
   than the box's nearest by a margin. Never hidden when a corner is behind
   the eye or nearer than the near plane, or the rectangle is off the
   picture. Conservative: a box with any visible point is never hidden. */
bool sw__hiz_box_hidden(const sw__hiz_levels* pyramid, const float vp[16], const float lo[3], const float hi[3]);

/* The world box of a local box under an affine transform given as its top
   three rows (sw_mat34's layout): its eight corners' box. */
void sw__hiz_transform_box(const float rows[3][4], const float lo[3], const float hi[3], float out_lo[3],
                           float out_hi[3]);

#endif
