/* recon.h — spatial lighting reconstruction (docs/reconstruction.md; frame
   analysis §2.9): lighting terms computed at half resolution on a depth and
   normal picked from each full-resolution 2×2 block, then brought back to
   full resolution by a joint-bilateral upsample that does not blend across
   depth or normal edges. The renderer runs the ambient occlusion this way
   (ao.c). Internal to the renderer.

   The first half is the C reference of shaders/recon_pick.frag and
   shaders/recon_upsample.frag ("GLSL follows C"): pure functions, no GL,
   tested by tests/render/test_recon.c. The second half is the pass (needs
   the GL context current). Images are stored as GL stores them: row 0 at
   the bottom, pixel (x, y) at index y · width + x.

   The block of half-res texel (x, y) is full-res pixels (2x + (i & 1),
   2y + (i >> 1)) for the index i = 0..3. "Min" and "max" are taken in view
   depth (the distance along the view axis), whatever the depth buffer's
   convention: with reverse-Z the nearest pixel has the largest stored
   value, with ordinary depth the smallest. */
#ifndef SINEW_RENDER_RECON_H
#define SINEW_RENDER_RECON_H

#include "sinew/render.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "render_interface.h"

/* ---- C reference ---------------------------------------------------------------- */

/* How a depth-buffer value becomes a view depth. */
typedef struct sw__recon_depth_range {
    float z_near, z_far;  /* z_far may be INFINITY (reverse-Z without a far plane) */
    bool reverse_z;       /* depth_convention.h: near 1, far 0 */
} sw__recon_depth_range;

/* The half-resolution size of a full-resolution one: (n + 1) / 2. */
int sw__recon_half(int full);
/* Whether a depth-buffer value is the far plane's (nothing drawn there). */
bool sw__recon_far(const sw__recon_depth_range* range, float depth);
/* The positive view depth (distance along the view axis) of a
   depth-buffer value; +INFINITY at the far plane. */
float sw__recon_view_depth(const sw__recon_depth_range* range, float depth);
/* The checkered pick of half-res texel (x, y): `depth` holds the block's
   four depth-buffer values in index order, `valid` has bit i set where
   pixel i lies inside the image (and the columns drawn). Where
   ((x ^ y) & 1) == 0 the pixel nearest the eye (least view depth), else the
   farthest (greatest; the far plane counts as farthest); ties go to the
   lowest index. Returns the index 0..3 (0 when no bit is set). */
int sw__recon_pick_index(const sw__recon_depth_range* range, const float depth[4], unsigned valid, int x, int y);
/* The whole pick: for every half-res texel of columns x0/2 .. (x1+1)/2
   (full-res columns x0..x1 read; x1 <= x0: all), the picked pixel's depth
   value, its normal (3 floats a pixel, copied as given) and its index.
   `depth` and `normal` are full-res width × height; the outputs are
   sw__recon_half(width) × sw__recon_half(height). */
void sw__recon_pick(const sw__recon_depth_range* range, int width, int height, const float* depth, const float* normal,
                    int x0, int x1, float* half_depth, float* half_normal, uint8_t* half_index);

/* The half-res images an upsample reads. */
typedef struct sw__recon_half_image {
    int width, height;     /* half-res size */
    int x0, x1;            /* half-res columns the candidates stay inside (x1 <= x0: all) */
    const float* depth;    /* picked depth-buffer values */
    const float* normal;   /* picked unit normals, 3 floats a texel */
    const float* value;    /* the half-res result, `channels` floats a texel */
    int channels;
} sw__recon_half_image;

/* The four candidates of full-res pixel (x, y): the half-res texels around
   its centre, (x + ½)/2 − ½, clamped to the half image's columns and rows,
   and their bilinear weights (sum 1). */
void sw__recon_candidates(const sw__recon_half_image* half, int x, int y, int texel[4][2], float bilinear[4]);
/* The joint-bilateral weights of full-res pixel (x, y) with view depth z
   (positive) and unit normal n: bilinear_i, times SW_RECON_FLOOR_PER_MILLE
   / 1000 where the candidate is the far plane, its relative view-depth
   difference |z_i − z| / z reaches SW_RECON_DEPTH_PERCENT % or its normal
   dot is at most SW_RECON_NORMAL_DOT_PERCENT %. */
void sw__recon_weights(const sw__recon_depth_range* range, const sw__recon_half_image* half, int x, int y, float z,
                       const float n[3], int texel[4][2], float weight[4]);
/* The upsampled value of full-res pixel (x, y) whose depth-buffer value is
   `depth` and unit normal `n`: Σ w_i c_i / max(Σ w_i, 1e-6); 1 in every
   channel at the far plane (nothing there to light). */
void sw__recon_upsample(const sw__recon_depth_range* range, const sw__recon_half_image* half, int x, int y, float depth,
                        const float n[3], float* out);

/* ---- the pass (GL) ----------------------------------------------------------------- */

typedef struct sw__recon_pass sw__recon_pass;

/* Targets for a full-res width × height frame: the half-res picked depth
   (R32F) and normal + index (RGB10A2), and the full-res RG8 the upsample
   writes. */
sw_result sw__recon_pass_create(int width, int height, sw__recon_pass** out, sw_diag* diag);
void sw__recon_pass_destroy(sw__recon_pass* pass);
/* The pick from the full-res depth texture and normal texture (× ½ + ½),
   columns x0..x1 (x1 <= x0: all). */
void sw__recon_pass_pick(sw__recon_pass* pass, uint32_t depth, uint32_t normal, const sw__recon_depth_range* range,
                         uint32_t empty_vao, int x0, int x1);
/* The upsample of the half-res texture `half_value` (RG used) into the
   full-res output, columns x0..x1; reads the last pick. */
void sw__recon_pass_upsample(sw__recon_pass* pass, uint32_t depth, uint32_t normal, uint32_t half_value,
                             const sw__recon_depth_range* range, uint32_t empty_vao, int x0, int x1);
/* Fills the full-res output with 1. */
void sw__recon_pass_clear(sw__recon_pass* pass);
uint32_t sw__recon_pass_half_depth(const sw__recon_pass* pass);
uint32_t sw__recon_pass_half_normal(const sw__recon_pass* pass);
uint32_t sw__recon_pass_output(const sw__recon_pass* pass);
int sw__recon_pass_half_width(const sw__recon_pass* pass);
int sw__recon_pass_half_height(const sw__recon_pass* pass);

#endif
