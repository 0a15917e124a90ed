// The depth convention (docs/depth.md): pasted after render_interface.h
// into every renderer stage, so each pass that reads the depth target
// reads it the same way. The renderer binds a small uniform buffer at
// SW_DEPTH_BLOCK once per frame (renderer.c), so a program learns the
// convention at run time and one compiled source serves both:
//   reverse (sw_depth_reverse != 0): glClipControl(GL_LOWER_LEFT,
//     GL_ZERO_TO_ONE), near plane -> depth 1, far plane -> 0, cleared to 0,
//     nearer = greater; NDC z = depth.
//   ordinary (no clip control): near -> 0, far -> 1, cleared to 1,
//     nearer = smaller; NDC z = depth * 2 - 1.
// The rule: reconstruct a position with the inverse of the matrix that drew
// (sw__inverse_view_projection) applied to (uv * 2 - 1, sw_depth_to_ndc_z(d), 1);
// compare two depths with sw_nearer / sw_nearest / sw_farthest, never < or >.
// The C twin: src/render/camera.c (sw__depth_to_ndc_z, sw__nearer).
layout(std140, binding = SW_DEPTH_BLOCK) uniform DepthConvention {
    int sw_depth_reverse;  // 1: reverse-Z, 0: ordinary
};

// NDC z of a depth-buffer value (the inverse view-projection's input).
float sw_depth_to_ndc_z(float d) { return sw_depth_reverse != 0 ? d : d * 2.0 - 1.0; }
// Whether depth a is strictly nearer the eye than depth b.
bool sw_nearer(float a, float b) { return sw_depth_reverse != 0 ? a > b : a < b; }
// The nearer and the farther of two depths.
float sw_nearest(float a, float b) { return sw_depth_reverse != 0 ? max(a, b) : min(a, b); }
float sw_farthest(float a, float b) { return sw_depth_reverse != 0 ? min(a, b) : max(a, b); }
// The depth of the far plane: what the target is cleared to (nothing drawn).
float sw_depth_far() { return sw_depth_reverse != 0 ? 0.0 : 1.0; }
