/* tools/scene_options.h — the values of the scene options that `sinew
   render` and `sinew view` share (--size, --camera, --view, --aa), parsed
   once so the two commands read the same syntax. */
#ifndef SINEW_SCENE_OPTIONS_H
#define SINEW_SCENE_OPTIONS_H

#include <stdbool.h>

#include "sinew/render.h"
#include "tool_common.h"

/* --size WxH, 16..8192 on a side. */
bool scene_parse_size(const char* text, long* width, long* height, tool_error* err);
/* --camera auto|orbit:DEG[,ELEV]: the orbit angle around the vertical
   (0 = front) and the elevation, both in degrees ('auto': 25, 10). */
bool scene_parse_camera(const char* text, double* azimuth, double* elevation, tool_error* err);
/* --view shaded|normals|motion|uv|retention|weights:JOINT|bones; JOINT is
   left in *weight_joint (pointing into text), bones sets *bones. */
bool scene_parse_view(const char* text, sw_render_view* view, bool* bones, const char** weight_joint,
                      tool_error* err);
/* --aa none|edge|taa|edge+taa. */
bool scene_parse_aa(const char* text, sw_render_aa* aa, tool_error* err);

/* The option names of a view ("weights" for SW_RENDER_VIEW_WEIGHTS) and of
   an AA mode. */
const char* scene_view_name(sw_render_view view);
const char* scene_aa_name(sw_render_aa aa);

#endif
