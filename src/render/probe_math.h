/* probe_math.h — the C reference of environment probes (docs/probes.md;
   the frame analysis §2.8), no GL: tested on its own, and what the probe
   shaders are to mirror.

   - Irradiance: a cube map projected on the nine real spherical harmonics
     of bands 0..2 (SH9), evaluated with the clamped cosine's band factors
     π, 2π/3, π/4 (Ramamoorthi and Hanrahan 2001). A constant radiance L
     gives E = π·L for every normal.
   - Specular: the reflection ray intersected with the probe's box, looked
     up with (hit − probe position) ("box projection").
   - Weight: 1 inside the probe's box, falling linearly to 0 over the
     transition width outside it.
   - Budget: reflection candidates take weight first, probes (in order)
     fill what is left, the global cube fills whatever is still missing.
   - Clusters: 32 × 24 screen tiles × 16 logarithmic depth slices, each
     with two 32-bit masks of the probes that may touch it (64 probes).

   Cube faces follow GL: +X, −X, +Y, −Y, +Z, −Z, texel row 0 at t = −1. */
#ifndef SINEW_RENDER_PROBE_MATH_H
#define SINEW_RENDER_PROBE_MATH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "render_interface.h"

#define SW__SH9 9

/* The nine SH basis values at unit direction d, in the order
   Y00, Y1−1 (y), Y10 (z), Y11 (x), Y2−2 (xy), Y2−1 (yz), Y20, Y21 (xz), Y22. */
void sw__sh9_basis(const float d[3], float out[SW__SH9]);

/* The unit direction through the centre of texel (x, y) of cube face
   `face` (0..5) of size × size texels. */
void sw__cube_texel_direction(int face, int x, int y, int size, float out[3]);

/* The solid angle of texel (x, y) of a size × size face, exact (the
   six faces sum to 4π). */
float sw__cube_texel_solid_angle(int x, int y, int size);

/* Projects a cube map of linear RGB radiance on SH9: faces[f] holds
   size × size × 3 floats, row by row. out[k][c] = ∫ L_c(ω) Y_k(ω) dω. */
void sw__sh9_project_cube(const float* const faces[6], int size, float out[SW__SH9][3]);

/* The irradiance E(n) (W/m² per unit radiance; a Lambertian surface of
   albedo ρ sends ρ·E/π) at unit normal n from projected radiance sh. */
void sw__sh9_irradiance(const float sh[SW__SH9][3], const float n[3], float out[3]);

/* The ambient radiance E/π averaged over every normal: band 0 alone,
   L00·Y00 (the toon pass's GI equalisation evens out towards it). */
void sw__sh9_mean_radiance(const float sh[SW__SH9][3], float out[3]);

/* An axis-aligned probe: where it was captured, its box (world), and the
   transition width outside the box over which its weight falls to 0. */
typedef struct sw__probe_box {
    float position[3];
    float box_min[3], box_max[3];
    float fade;
} sw__probe_box;

/* The lookup direction for a reflection ray from p (inside the box) along
   r: (hit − position) with hit where the ray leaves the box. Returns r
   itself when p is outside the box (no projection). */
void sw__probe_box_project(const sw__probe_box* probe, const float p[3], const float r[3], float out[3]);

/* The probe's weight at world point p: 1 inside the box, 1 − d / fade at
   distance d outside it, 0 beyond (and outside when fade ≤ 0). */
float sw__probe_weight(const sw__probe_box* probe, const float p[3]);

/* The weight budget: `candidate` (0..1, the screen-space reflections'
   weight) first, then probes in order, each taking min(weights[i], what is
   left) into used[i]; returns the global cube's share (what is still
   left). The used weights, candidate and global share sum to 1. */
float sw__probe_budget(float candidate, const float* weights, int count, float* used);

/* The cluster of pixel (x, y) of a width × height view at linear view
   depth `depth` (> 0) between near and far: tile x = x·32/width, tile
   y = y·24/height, slice = floor(16·ln(depth/near)/ln(far/near)), each
   clamped to the grid. Index = tx + 32·(ty + 24·slice). */
int sw__probe_cluster_index(float x, float y, int width, int height, float depth, float near_z, float far_z);

/* The view depth at which slice `slice` (0..16) starts: near·(far/near)^(slice/16). */
float sw__probe_slice_depth(int slice, float near_z, float far_z);

/* The clusters a world box [lo, hi] may touch, seen through the column-
   major view-projection `vp` (GL's, w = view depth) of a view whose depth
   slices run from near to far: tiles x0..x1, y0..y1 (y up from the
   bottom, as gl_FragCoord) and slices z0..z1, inclusive, widened by
   `margin` tiles (TAA's jitter moves pixels by less than one). A corner
   nearer than `near` makes the tiles the whole screen. False when the box
   is wholly before near or beyond far. */
typedef struct sw__cluster_range {
    int x0, x1, y0, y1, z0, z1;
} sw__cluster_range;
bool sw__probe_cluster_range(const float vp[16], float near_z, float far_z, const float lo[3], const float hi[3],
                             int margin, sw__cluster_range* out);

/* A cluster's probe masks: probe i is bit i % 32 of mask[i / 32]. */
typedef struct sw__probe_masks {
    uint32_t mask[2];
} sw__probe_masks;
void sw__probe_masks_add(sw__probe_masks* masks, int probe);
bool sw__probe_masks_has(const sw__probe_masks* masks, int probe);

/* ---- Specular: the cube prefiltered by roughness (docs/probes.md) ----
   A prefiltered cube of base face size N (a power of two) holds
   M = log2(N) + 1 mips, mip m of (N >> m)² texels per face, for the
   perceptual roughness m / (M − 1): mip 0 is the mirror (the faces
   themselves), the last mip (1 × 1) roughness 1. Floats: mip by mip, in
   each the six faces in GL's order, rows, rgb. */
int sw__probe_cube_mips(int size);
size_t sw__probe_cube_floats(int size);
/* Where mip `mip` starts in a prefiltered cube, in floats. */
size_t sw__probe_cube_mip_offset(int size, int mip);

/* GGX's normal distribution D(n·h) with α = roughness² (as the lighting
   pass's sw_specular). */
double sw__ggx_distribution(double n_dot_h, double roughness);

/* Prefilters faces (six size × size × rgb, as sw__sh9_project_cube) into
   `out` (sw__probe_cube_floats(size) floats): mip 0 a copy; mip m ≥ 1 at
   each texel's direction n (taken as the view and the normal too, the
   split-sum's n = v = r) the GGX lobe's average over every base texel l,
   weights D(n·h)·max(n·l, 0)·dω with h = normalize(n + l), divided by
   their sum, so a constant environment stays constant. An exact sum over
   the texels (no sampling noise): 6N² × 6(N/2^m)² terms per mip.
   False when out of memory. */
bool sw__probe_prefilter(const float* const faces[6], int size, float* out);

/* The face (0..5) a direction d (non-zero) falls on and its face
   coordinates u, v in [0, 1] (texel x = u·size, y = v·size), inverse of
   sw__cube_texel_direction. */
int sw__cube_face_coordinates(const float d[3], float* u, float* v);

/* The prefiltered cube's radiance along d at level `lod` (0..M−1):
   bilinear within the face at each of the two mips around lod (edges
   clamped to the face), linear between them, as GL's trilinear lookup
   away from face edges. */
void sw__probe_cube_sample(const float* cube, int size, const float d[3], float lod, float out[3]);

/* The specular ambient's Fresnel term: Schlick's at n·v with the grazing
   reflectance limited by roughness, f0 + (max(1 − roughness, f0) − f0)·
   (1 − n·v)⁵ (per channel): a rough surface does not turn into a mirror
   at grazing angles. f0 = 1 gives 1. */
void sw__probe_specular_fresnel(const float f0[3], float roughness, float n_dot_v, float out[3]);

#endif
