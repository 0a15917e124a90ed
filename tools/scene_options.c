/* The scene option values shared by `sinew render` and `sinew view`
   (scene_options.h). */
#include "scene_options.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char* name;
    sw_render_view view;
} view_names[] = {
    {"shaded", SW_RENDER_VIEW_SHADED}, {"normals", SW_RENDER_VIEW_NORMALS}, {"motion", SW_RENDER_VIEW_MOTION},
    {"uv", SW_RENDER_VIEW_UV},         {"weights", SW_RENDER_VIEW_WEIGHTS}, {"retention", SW_RENDER_VIEW_RETENTION},
};

static const struct {
    const char* name;
    sw_render_aa aa;
} aa_names[] = {
    {"none", SW_RENDER_AA_NONE},
    {"edge", SW_RENDER_AA_EDGE},
    {"taa", SW_RENDER_AA_TAA},
    {"edge+taa", SW_RENDER_AA_EDGE_TAA},
};

bool scene_parse_size(const char* text, long* width, long* height, tool_error* err) {
    char* end = NULL;
    long a = strtol(text, &end, 10);
    if (end == text || (*end != 'x' && *end != 'X')) return tool_error_set(err, "--size: '%s' is not WxH", text);
    const char* second = end + 1;
    long b = strtol(second, &end, 10);
    if (end == second || *end) return tool_error_set(err, "--size: '%s' is not WxH", text);
    if (a < 16 || b < 16 || a > 8192 || b > 8192)
        return tool_error_set(err, "--size: %ldx%ld is outside 16..8192 on a side", a, b);
    *width = a, *height = b;
    return true;
}

bool scene_parse_camera(const char* text, double* azimuth, double* elevation, tool_error* err) {
    if (strcmp(text, "auto") == 0) {
        *azimuth = 25.0, *elevation = 10.0;
        return true;
    }
    if (strncmp(text, "orbit:", 6) != 0)
        return tool_error_set(err, "--camera: '%s' is not auto or orbit:DEG[,ELEV]", text);
    char* end = NULL;
    double a = strtod(text + 6, &end), e = 10.0;
    if (end == text + 6) return tool_error_set(err, "--camera: '%s' has no angle after orbit:", text);
    if (*end == ',') {
        const char* second = end + 1;
        e = strtod(second, &end);
        if (end == second) return tool_error_set(err, "--camera: '%s' has no elevation after the comma", text);
    }
    if (*end || !isfinite(a) || !(e > -89.0 && e < 89.0))
        return tool_error_set(err, "--camera: '%s': elevation must be between -89 and 89 degrees", text);
    *azimuth = a, *elevation = e;
    return true;
}

bool scene_parse_view(const char* text, sw_render_view* view, bool* bones, const char** weight_joint,
                      tool_error* err) {
    for (size_t i = 0; i < sizeof view_names / sizeof view_names[0]; i++)
        if (view_names[i].view != SW_RENDER_VIEW_WEIGHTS && strcmp(text, view_names[i].name) == 0) {
            *view = view_names[i].view;
            return true;
        }
    if (strcmp(text, "bones") == 0) {
        *view = SW_RENDER_VIEW_SHADED, *bones = true;
        return true;
    }
    if (strncmp(text, "weights:", 8) == 0 && text[8]) {
        *view = SW_RENDER_VIEW_WEIGHTS, *weight_joint = text + 8;
        return true;
    }
    return tool_error_set(err, "--view: '%s' is not shaded, normals, motion, uv, weights:JOINT, retention or bones",
                          text);
}

bool scene_parse_aa(const char* text, sw_render_aa* aa, tool_error* err) {
    for (size_t i = 0; i < sizeof aa_names / sizeof aa_names[0]; i++)
        if (strcmp(text, aa_names[i].name) == 0) {
            *aa = aa_names[i].aa;
            return true;
        }
    return tool_error_set(err, "--aa: '%s' is not none, edge, taa or edge+taa", text);
}

const char* scene_view_name(sw_render_view view) {
    for (size_t i = 0; i < sizeof view_names / sizeof view_names[0]; i++)
        if (view_names[i].view == view) return view_names[i].name;
    return "?";
}

const char* scene_aa_name(sw_render_aa aa) {
    for (size_t i = 0; i < sizeof aa_names / sizeof aa_names[0]; i++)
        if (aa_names[i].aa == aa) return aa_names[i].name;
    return "?";
}
