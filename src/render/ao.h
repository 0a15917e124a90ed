/* ao.h — ambient occlusion (docs/ao.md; frame analysis §2.11): the
   18-direction screen AO and the characters' shape proxies (capsules
   fitted to the skeleton), multiplied into one scalar target the lighting
   pass reads. Internal to the renderer.

   The first half is the C reference of shaders/ao.frag ("GLSL follows C"):
   pure functions, no GL, tested by tests/render/test_ao.c. The second half
   is the pass itself (needs the GL context current). Spaces: the screen
   AO works in view space (camera at the origin looking down −Z, GL's
   convention), pixel (x, y) with y up as GL stores images. */
#ifndef SINEW_RENDER_AO_H
#define SINEW_RENDER_AO_H

#include "sinew/render.h"

#include <stddef.h>
#include <stdint.h>

#include "render_interface.h"

/* ---- C reference ---------------------------------------------------------------- */

/* The perspective the depth buffer was drawn with. */
typedef struct sw__ao_lens {
    float focal;          /* 1 / tan(fov_y / 2) */
    float aspect;         /* width / height */
    float z_near, z_far;
    int width, height;    /* pixels */
    bool reverse_z;       /* the depth buffer's convention (depth_convention.h): near 1, far 0 */
} sw__ao_lens;

typedef struct sw__ao_settings {
    float radius;         /* world units: how far a sample reaches and the falloff's zero */
    float strength;       /* exponent of the result; 0 gives 1 exactly */
    float bias;           /* cosine a sample must exceed to occlude (flat surfaces stay at 1) */
} sw__ao_settings;

/* A capsule: segment a–b, radius (a sphere when a = b). */
typedef struct sw__ao_capsule {
    float a[3], b[3];
    float radius;
} sw__ao_capsule;

/* A capsule fitted to a skin joint, in the skin's bind space. */
typedef struct sw__ao_rig_proxy {
    uint32_t skin, joint;  /* model skin, index into its joints */
    sw__ao_capsule bind;
} sw__ao_rig_proxy;

/* The 18 stored directions: unit vectors at i · 7/18 of a turn, so that
   consecutive samples (each further out, the spiral) lie far apart. */
void sw__ao_directions(float out[SW_AO_DIRECTION_COUNT][2]);
/* Interleaved gradient noise (Jimenez 2014) of pixel (x, y) at frame
   `frame` (mod 64), in [0, 1). */
float sw__ao_noise(float x, float y, uint32_t frame);
/* The view-space point at pixel position (px, py) (pixel centres at
   +0.5) and depth-buffer value `depth` (0..1). */
void sw__ao_view_position(const sw__ao_lens* lens, float px, float py, float depth, float out[3]);
/* The screen AO of pixel (x, y): depth is lens->width × lens->height
   depth-buffer values (row 0 at the bottom), normals the view-space unit
   normals (3 floats a pixel). 1 at a depth of 1 (background). */
float sw__ao_screen(const sw__ao_lens* lens, const sw__ao_settings* s, const float* depth, const float* normals, int x,
                    int y, uint32_t frame);
/* Quilez's sphere occlusion of a point p with unit normal n by a sphere
   (centre c, radius r): max(0, n·d̂) · (r/|d|)², |d| clamped to r inside,
   faded linearly to 0 between |d| = r and SW_AO_PROXY_REACH · r. */
float sw__ao_sphere(const float p[3], const float n[3], const float c[3], float r);
/* A capsule's occlusion: the sphere of its radius at the segment's point
   closest to p. */
float sw__ao_capsule_occlusion(const float p[3], const float n[3], const sw__ao_capsule* c);
/* The proxies' visibility at p: the product of (1 − occlusion). */
float sw__ao_proxies(const float p[3], const float n[3], const sw__ao_capsule* capsules, size_t count);

/* The box (lo, hi) holding every point a capsule's occlusion reaches
   (each segment's box grown by SW_AO_PROXY_REACH radii): outside it
   sw__ao_proxies is 1, so the shader skips its loops there. Empty
   (lo = 1e30, hi = −1e30) without capsules. */
void sw__ao_proxy_box(const sw__ao_capsule* capsules, size_t count, float lo[3], float hi[3]);
/* Fits at most `capacity` capsules to the model's skins (bind space): per
   joint, the segment from the joint to its child joint with the most
   descendants (a sphere at a leaf), the radius the mean distance to it of
   the bind-pose vertices whose largest weight (≥ 0.5) is that joint;
   joints with fewer than 4 such vertices get none. Over capacity the
   largest capsules are kept. Returns how many were written. */
size_t sw__ao_fit_proxies(const sw_model* model, sw__ao_rig_proxy* out, size_t capacity);
/* The fitted capsules at a pose, in the space `to_space` (column-major
   4×4 rigid transform from world, e.g. the view matrix; NULL: world):
   moved by each joint's skin matrix, world[joint] · inverse bind. */
void sw__ao_pose_proxies(const sw_model* model, const sw_pose* pose, const sw__ao_rig_proxy* rig, size_t count,
                         const float* to_space, sw__ao_capsule* out);

/* ---- the pass (GL) ----------------------------------------------------------------- */

typedef struct sw__ao_pass sw__ao_pass;

typedef struct sw__ao_inputs {
    uint32_t depth, normal;         /* G-buffer textures: depth, world normal × ½ + ½ */
    uint32_t empty_vao;
    float view[16];                 /* world → view, column-major */
    float light[3];                 /* towards the light, view space, unit (sw__ao_contact_direction) */
    sw__ao_lens lens;
    sw__ao_settings settings;
    const sw__ao_capsule* capsules; /* view space */
    size_t capsule_count;           /* at most SW_AO_MAX_PROXIES */
    uint32_t frame;
    int x0, x1;                     /* the columns drawn, samples kept inside (x1 <= x0: all) */
} sw__ao_inputs;

/* The direction `towards_light` (world) in view space, unit. */
void sw__ao_contact_direction(const float view[16], const float towards_light[3], float out[3]);
/* Draws the AO target (RG8: R = screen AO × proxies along the normal, for
   the ambient light; G = proxies along normalize(normal + light), the
   direct light's contact shadow); leaves its framebuffer bound. */
sw_result sw__ao_pass_create(int width, int height, sw__ao_pass** out, sw_diag* diag);
void sw__ao_pass_destroy(sw__ao_pass* pass);
void sw__ao_pass_run(sw__ao_pass* pass, const sw__ao_inputs* in);
/* Fills the AO target with 1 (no occlusion). */
void sw__ao_pass_clear(sw__ao_pass* pass);
uint32_t sw__ao_pass_texture(const sw__ao_pass* pass);

#endif
