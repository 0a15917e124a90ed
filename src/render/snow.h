/* snow.h — the pure numbers of the snow material (docs/snow.md): the
   two-layer coverage blend driven by vertex alpha, the sparkle term, the
   packing of the fine/coarse surface-height cache and the footprint trail's
   stamp and refill. No GL: the tests call these directly and the shaders
   mirror them. Not a public header. */
#ifndef SINEW_RENDER_SNOW_H
#define SINEW_RENDER_SNOW_H

#include <stdint.h>

#include "sinew/math.h"
#include "render_interface.h"

/* The analysed frame's snow draw: cover starts at normal·up = 0.53 and
   ramps in over 0.34. */
#define SW_SNOW_THRESHOLD 0.53f
#define SW_SNOW_WIDTH 0.34f
/* The plant glint's exponent, used here for the product of the two glint
   samples. */
#define SW_SNOW_SPARKLE_POWER 0.71f
/* Glints under this value are dropped: few cells sparkle (about 4 %). */
#define SW_SNOW_GLINT_CUT 0.8f

/* Cover amount of a snow surface. `alpha` is the vertex alpha (coverage
   permission, 0..1), `cover_up` = dot(n_cover, up). Alpha both lowers the
   threshold and caps the amount:
     T' = 1 − a·(1 − threshold);  cov = a·sat((cover_up − T') / width).
   a = 0 gives 0; a = 1 gives sat((cover_up − threshold) / width). A width
   ≤ 0 is a step at T'. */
float sw__snow_coverage(float alpha, float cover_up, float threshold, float width);

/* normalize(lerp(n_base, n_cover, cov)); n_base when the lerp vanishes. */
sw_vec3 sw__snow_blend_normal(sw_vec3 n_base, sw_vec3 n_cover, float cov);

/* Any other channel (colour, roughness, ...): lerp(base, cover, cov). */
float sw__snow_blend(float base, float cover, float cov);

/* A reproducible glint sample in [0, 1) for integer cell (x, y, z): an
   integer hash (the shader's glint texture stand-in). */
float sw__snow_glint(int32_t x, int32_t y, int32_t z);

/* The sparkle term (a Recon of the seed's description):
     g = sat(g1·g2)^0.71, 0 where g < SW_SNOW_GLINT_CUT
     s = strength · cov · g / (1 + k·D) + rim·cov·(1 − sat(N·V))^p
   g1, g2: two glint samples (one at the surface point, one offset along
   the view at another scale), D: the summed screen derivatives of the
   sample position (distant, minified snow glitters less), k the damping.
   The rim term is the seed's pow(1 − N·V, p) edge colour. */
typedef struct sw__snow_sparkle_params {
    float strength, damping, rim, rim_power;
} sw__snow_sparkle_params;
float sw__snow_sparkle(float g1, float g2, float derivatives, float cov, float n_dot_v,
                       const sw__snow_sparkle_params *p);

/* ---- The surface-height cache (fine 2048², coarse 256²) ---- */
#define SW_SNOW_FINE_SIZE 2048
#define SW_SNOW_COARSE_SIZE 256
#define SW_SNOW_HEIGHT_LEVELS 65532u /* 0xFFFC: the seed's quantisation */
#define SW_SNOW_COARSE_LAYERS 32
/* Candidates steeper than 50° (normal.y ≤ cos 50°) are not surfaces. */
#define SW_SNOW_MIN_NORMAL_Y 0.642788f

/* Packed fine texel: uint(h·65532) in the high 16 bits (h the height
   normalised to 0..1, clamped), min(diff, 0xFFFF) in the low 16. An
   atomic max on it keeps the highest surface and, at equal heights, the
   largest difference. */
uint32_t sw__snow_height_pack(float h_norm, uint32_t diff);
/* The inverse: h = (packed >> 16) / 65532 (values above 65532 clamp to 1),
   diff = packed & 0xFFFF. */
void sw__snow_height_unpack(uint32_t packed, float *h_norm, uint32_t *diff);

/* The coarse cell's layer of a normalised height: min(floor(h·32), 31). */
uint32_t sw__snow_coarse_layer(float h_norm);
/* Whether a coarse bit set stays within the lowest two adjacent layers:
   (mask >> lsb(mask)) ≤ 3 (an empty mask is accepted). */
int sw__snow_coarse_accept(uint32_t mask);

/* One candidate, as the raster pass does it with atomics: OR the layer bit
   into *coarse, then, if accepted, max `packed` into *fine. Returns 1 when
   the candidate won the fine texel (the coarse cell becomes dirty). */
int sw__snow_cache_insert(uint32_t *coarse, uint32_t *fine, float h_norm, uint32_t diff);

/* The fine texel of world point (x, z): the cache covers `extent` units
   per side, wrapped modulo 2048 (a ring: the window can move without a
   copy). */
void sw__snow_fine_texel(float x, float z, float extent, int32_t out_xy[2]);

/* ---- Footprints ---- */
/* The trail field: a W×H grid of depths 0..1 (1 = snow pushed fully away)
   over a world XZ window. A foot at distance r from a texel centre stamps
   d' = max(d, sat(1 − r/radius)·depth·(contact)), a disc with a linear
   rim. Snow refills at `rate` per second, exponentially:
   d(t) = d0·exp(−rate·t) (docs/snow.md: rate 0.05/s, a track halves in
   about 14 s). */
float sw__snow_stamp(float current, float r, float radius, float depth);
float sw__snow_refill(float current, float rate, float seconds);
/* Coverage and darkening under a trail depth d: cov·(1 − d), and a
   shade factor 1 − 0.5·d (the packed snow in the track is darker). */
float sw__snow_trail_coverage(float cov, float d);
float sw__snow_trail_shade(float d);
/* The track as a hollow: a full track (d = 1) is SW_SNOW_TRACK_DEPTH deep,
   so the surface's height is −depth·d. With d read at a point and one
   trail texel (`texel` units) further along +x and +z (d_x, d_z), the
   normal n tilts by depth·((d_x − d), 0, (d_z − d))/texel (the height
   field's normal (−∂h/∂x, 1, −∂h/∂z) for a level ground), scaled by
   `snow` (the cover there before the track: no snow, no hollow), then
   renormalised. A print's far rim faces back up to the light and its near
   rim away: the track reads as a dent, not only as a darker disc. */
sw_vec3 sw__snow_trail_normal(sw_vec3 n, float d, float d_x, float d_z, float texel, float snow);

/* The renderer's trail field (snow_trail.c): SIZE² texels over EXTENT
   units (2.3 cm texels), a ring centred on the character's lowest joint
   every frame (world texel (i, j) at (i mod SIZE, j mod SIZE)). A skin
   joint at height y over the ground under it (the height cache's) stamps
   a disc of SW_SNOW_FOOT_RADIUS with depth sat((HIGH − y)/(HIGH − LOW)). */
#define SW_SNOW_TRAIL_SIZE 512 /* = SW_SNOW_TRAIL_TEXELS (render_interface.h) */
#define SW_SNOW_TRACK_DEPTH (SW_SNOW_TRACK_DEPTH_MM / 1000.0f)
#define SW_SNOW_TRAIL_EXTENT 12.0f
#define SW_SNOW_FOOT_RADIUS 0.12f
#define SW_SNOW_CONTACT_LOW 0.08f
#define SW_SNOW_CONTACT_HIGH 0.16f
#define SW_SNOW_REFILL_RATE 0.05f /* per second: a track halves in 13.9 s */

#endif
