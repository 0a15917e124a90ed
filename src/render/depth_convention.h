/* depth_convention.h — the renderer's depth convention in C, the twin of
   shaders/depth.glsl (docs/depth.md). CPU only, no GL: camera.c holds it,
   the renderer, the Hi-Z test (hiz.c) and the tests use it.

   Reverse-Z (the default where the context has glClipControl): the camera
   passes draw with glClipControl(GL_LOWER_LEFT, GL_ZERO_TO_ONE) and the
   reversed projection below, so the near plane lands on depth 1 and the far
   plane on 0 (an infinite far plane, z_far = INFINITY, on 0 at infinity);
   the depth target is cleared to 0 and tested with GL_GREATER. Ordinary
   depth (the fallback): OpenGL's projection, near 0, far 1, cleared to 1,
   GL_LESS. Not a public header. */
#ifndef SINEW_RENDER_DEPTH_CONVENTION_H
#define SINEW_RENDER_DEPTH_CONVENTION_H

#include <stdbool.h>

#include "sinew/render.h"

/* NDC z of a depth-buffer value: d under reverse-Z (clip control maps NDC
   z in [0, 1] to depth unchanged), d · 2 − 1 under ordinary depth. */
static inline float sw__depth_to_ndc_z(float d, bool reverse) { return reverse ? d : d * 2.0f - 1.0f; }
/* Whether depth a is strictly nearer the eye than depth b. */
static inline bool sw__nearer(float a, float b, bool reverse) { return reverse ? a > b : a < b; }
/* The farther of two depths (what a Hi-Z texel keeps). */
static inline float sw__farthest(float a, float b, bool reverse) {
    return reverse ? (a < b ? a : b) : (a > b ? a : b);
}
/* The far plane's depth: what the target is cleared to. */
static inline float sw__depth_far(bool reverse) { return reverse ? 0.0f : 1.0f; }

/* The camera's view-projection as a camera pass draws it (column-major):
   OpenGL's (the same as sw_camera_view_projection) or, with `reverse`,
   the reversed one for GL_ZERO_TO_ONE clip control:
     clip z = n/(f − n) · z_view + n f/(f − n),  clip w = −z_view,
   so depth = n (f − d) / (d (f − n)) at view distance d; with z_far
   infinite clip z = n and depth = n / d. OpenGL's with z_far infinite is
   the limit too (depth = 1 − n / d). */
void sw__camera_matrix(const sw_camera* camera, float aspect, bool reverse, float out_matrix[16]);
/* The depth a point at view distance d gets (the formula above; CPU). */
float sw__depth_at_distance(float d, float z_near, float z_far, bool reverse);

#endif
