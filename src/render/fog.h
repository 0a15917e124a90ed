/* fog.h — the numbers of the volumetric fog (fog.c; docs/fog.md): the
   froxel volume's depth slicing, the participating medium, and the
   near→far integration of one froxel column into (in-scatter,
   transmittance). No GL: the tests call these directly and the fog's
   compute shaders mirror them. Not a public header.

   Conventions: `z` is view depth (distance along the camera's forward
   axis, > 0), `d` distance along a ray. Slice i of the volume covers
   [z(i), z(i+1)]; the integrated volume stores at slice i the light and
   transmittance accumulated from the eye to z(i + 1), its far end. */
#ifndef SINEW_RENDER_FOG_H
#define SINEW_RENDER_FOG_H

#include <stdbool.h>

#include "render_interface.h"

/* The froxel volume: 160 × 68 cells across the screen, 128 depth slices
   (the frame analysis' sizes). */
#define SW__FOG_WIDTH 160
#define SW__FOG_HEIGHT 68
#define SW__FOG_SLICES 128
/* The first 16 slices are linear, 0.3125 deep each, up to depth 5; the
   other 112 grow by a constant ratio (100^(1/112) ≈ 1.042) up to 500, so
   z(72) = 50. */
#define SW__FOG_LINEAR_SLICES 16
#define SW__FOG_LINEAR_DEPTH 5.0f
#define SW__FOG_FAR_DEPTH 500.0f
/* Along a ray the medium fades out linearly from distance 450 to 500 (the
   analysis' fade), so the volume ends softly rather than at a wall. */
#define SW__FOG_FADE_START 450.0f
/* The default medium: a uniform extinction of 8.5e-4 per unit, the mean
   the analysis reads off its captured transmittances (0.9956 at depth 5,
   0.9604 at 50, ~0.66–0.79 at 500). */
#define SW__FOG_DEFAULT_DENSITY 8.5e-4f

/* The view depth of slice boundary `i` (0..SW__FOG_SLICES; fractional i
   interpolates the same rule): 0.3125·i up to i = 16, then
   5·100^((i − 16)/112). */
float sw__fog_slice_depth(float i);

/* The inverse: the continuous slice coordinate of view depth `z` (0 at the
   eye, 16 at depth 5, 128 at 500; clamped to [0, 128]). */
float sw__fog_depth_slice(float z);

/* The medium. Two exponential terms (the analysis stores two extinction
   coefficients and a control for the second):
     σ(p) = density + height_density · exp(−max(p.y − height_base, 0) / height_falloff)
   the first uniform, the second a layer lying on the ground: full below
   `height_base`, falling by e every `height_falloff` units above it
   (height_density = 0 turns it off). Both scatter with the same albedo,
   `colour` (the medium's colour; 1,1,1 scatters all light it removes). */
typedef struct sw__fog_medium {
    float density;          /* per unit */
    float height_density;   /* per unit at and below height_base */
    float height_base;
    float height_falloff;   /* > 0 */
    float colour[3];
} sw__fog_medium;

/* The default medium: SW__FOG_DEFAULT_DENSITY, white, no ground layer. */
sw__fog_medium sw__fog_default_medium(void);

/* The extinction σ (per unit) of `m` at world height `y`. */
float sw__fog_extinction(const sw__fog_medium *m, float y);

/* The medium's fade along a ray at distance `d`: 1 up to
   SW__FOG_FADE_START, linearly to 0 at SW__FOG_FAR_DEPTH. */
float sw__fog_fade(float d);

/* One froxel before integration: the extinction σ (per unit) and the
   light it scatters towards the eye per unit length, σ_s·L_in (the phase
   function already folded into L_in; isotropic: L_in = E/(4π)). */
typedef struct sw__fog_froxel {
    float scatter[3];
    float extinction;
} sw__fog_froxel;

/* Integrates one froxel column near→far (Hillaire 2015, "energy
   conserving"): with the path through slice i of length
   l_i = fade(d_i)·(z(i+1) − z(i))·ray_scale, d_i the ray distance of the
   slice's midpoint and ray_scale = |ray| / depth (1 on the view axis),
   the light scattered inside the slice, attenuated on its way out of it,
   is integrated exactly:
     S += T·scatter_i·(1 − exp(−σ_i·l_i)) / σ_i,   T *= exp(−σ_i·l_i)
   (scatter_i·l_i when σ_i is 0). `out` receives SW__FOG_SLICES values
   (S.rgb, T) — out[i] is the state at the far end of slice i. */
void sw__fog_integrate_column(const sw__fog_froxel column[SW__FOG_SLICES], float ray_scale,
                              float out[SW__FOG_SLICES][4]);

/* The integrated column read at view depth `z`, the way the composite
   reads the volume: linear between slice ends, and between (0,0,0,1) at
   the eye and the first slice's end. */
void sw__fog_sample_column(const float column[SW__FOG_SLICES][4], float z, float out[4]);

/* Temporal history (the analysis' reprojection, β = 0.9): each froxel's
   source (scatter, extinction) is blended with the previous frame's at
   the same world point, found by moving the point into the previous
   camera and slicing it with the same rule. `previous_view_projection`
   is the previous frame's world → clip matrix (column-major, any depth
   convention), `previous_eye` / `previous_forward` its camera. out_uvw:
   the point's coordinate in the previous source volume (u, v across the
   screen, w = slice coordinate / 128; froxel centres at (i + 0.5)/n).
   False when the point lay outside that volume (then no history). */
#define SW__FOG_HISTORY_WEIGHT 0.9f
bool sw__fog_reproject(const float world[3], const float previous_view_projection[16], const float previous_eye[3],
                       const float previous_forward[3], float out_uvw[3]);

/* The repair of a voxel whose history was invalid (the analysis: such
   voxels go to a list; two passes average their 27 neighbours, 3×3×3
   with coordinates clamped to the volume, then write back, gathering
   first so no voxel reads a repaired neighbour). `volume` holds
   w × h × d RGBA values, x fastest; `out` the average around (x, y, z)
   (the voxel itself included). */
void sw__fog_repair_27(const float* volume, int w, int h, int d, int x, int y, int z, float out[4]);

/* The composite over a lit pixel (colour `c`): c·T + S — what the GPU's
   blend ONE, SRC_ALPHA does with the fragment (S, T). */
void sw__fog_apply(const float fog[4], const float colour[3], float out[3]);

#endif
