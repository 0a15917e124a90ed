/* The scene option values shared by `sinew render` and `sinew view`
   (scene_options.h). */
#include "scene_options.h"
#include "stage_decals.h"

#include "sinew/demo.h"
#include "sinew/gltf.h"
#include "sinew/humanoid.h"
#include "sinew/materials.h"
#include "sinew/retarget.h"
#include "sinew/vrm.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

static const struct {
    const char* name;
    sw_render_view view;
} view_names[] = {
    {"shaded", SW_RENDER_VIEW_SHADED}, {"normals", SW_RENDER_VIEW_NORMALS}, {"motion", SW_RENDER_VIEW_MOTION},
    {"uv", SW_RENDER_VIEW_UV},         {"weights", SW_RENDER_VIEW_WEIGHTS}, {"retention", SW_RENDER_VIEW_RETENTION},
    {"ao", SW_RENDER_VIEW_AO},         {"depth", SW_RENDER_VIEW_DEPTH},
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
    return tool_error_set(err,
                          "--view: '%s' is not shaded, normals, motion, uv, weights:JOINT, retention, ao, depth or bones",
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

bool scene_parse_switch(const char* option, const char* text, bool* on, tool_error* err) {
    if (strcmp(text, "on") == 0) *on = true;
    else if (strcmp(text, "off") == 0) *on = false;
    else return tool_error_set(err, "%s: '%s' is not on or off", option, text);
    return true;
}

bool scene_parse_ao(const char* text, sw_render_ao* ao, tool_error* err) {
    if (strcmp(text, "on") == 0) *ao = SW_RENDER_AO_ON;
    else if (strcmp(text, "off") == 0) *ao = SW_RENDER_AO_OFF;
    else return tool_error_set(err, "--ao: '%s' is not on or off", text);
    return true;
}

bool scene_parse_fog(const char* text, float* density, float colour[3], tool_error* err) {
    colour[0] = colour[1] = colour[2] = 0.0f; /* white */
    if (strcmp(text, "off") == 0) {
        *density = 0.0f;
        return true;
    }
    if (strcmp(text, "on") == 0) {
        *density = SCENE_FOG_DEFAULT_DENSITY;
        return true;
    }
    double v[4] = {0.0, 0.0, 0.0, 0.0};
    char tail = 0;
    const int n = sscanf(text, "%lf,%lf,%lf,%lf%c", &v[0], &v[1], &v[2], &v[3], &tail);
    if (!(n == 1 || n == 4) || !(v[0] >= 0.0 && v[0] <= 10.0))
        return tool_error_set(err, "--fog: '%s' is not on, off, DENSITY (0..10 per unit) or DENSITY,R,G,B", text);
    for (int i = 1; i < 4; i++)
        if (!(v[i] >= 0.0 && v[i] <= 1.0))
            return tool_error_set(err, "--fog: '%s': the colour's R,G,B are each 0..1", text);
    *density = (float)v[0];
    for (int i = 0; i < 3; i++) colour[i] = (float)v[i + 1];
    return true;
}

bool scene_parse_fog_height(const char* text, float out[3], tool_error* err) {
    out[0] = out[1] = out[2] = 0.0f;
    if (strcmp(text, "off") == 0) return true;
    double v[3] = {0.0, 0.0, 0.0};
    char tail = 0;
    if (sscanf(text, "%lf,%lf,%lf%c", &v[0], &v[1], &v[2], &tail) != 3)
        return tool_error_set(err, "--fog-height: '%s' is not off or DENSITY,BASE,FALLOFF", text);
    if (!(v[0] >= 0.0 && v[0] <= 10.0))
        return tool_error_set(err, "--fog-height: '%s': DENSITY is 0..10 per unit", text);
    if (!(fabs(v[1]) <= 1e4))
        return tool_error_set(err, "--fog-height: '%s': BASE is a height within ±10000", text);
    if (!(v[2] > 0.0 && v[2] <= 1e4))
        return tool_error_set(err, "--fog-height: '%s': FALLOFF is above 0 (units, at most 10000)", text);
    for (int i = 0; i < 3; i++) out[i] = (float)v[i];
    return true;
}

bool scene_parse_weather(const char* text, sw_render_weather* weather, tool_error* err) {
    if (strcmp(text, "none") == 0 || strcmp(text, "off") == 0) {
        weather->kind = SW_RENDER_WEATHER_NONE;
        weather->density = 0.0f;
        return true;
    }
    if (strcmp(text, "snow") == 0) {
        weather->kind = SW_RENDER_WEATHER_SNOW;
        weather->density = 0.0f; /* the renderer's default */
        return true;
    }
    double density = 0.0;
    char tail = 0;
    if (sscanf(text, "snow,%lf%c", &density, &tail) != 1 || !(density > 0.0 && density <= 8.0))
        return tool_error_set(err, "--weather: '%s' is not none, snow or snow,DENSITY (flakes per m³, 0 < DENSITY <= 8)", text);
    weather->kind = SW_RENDER_WEATHER_SNOW;
    weather->density = (float)density;
    return true;
}

bool scene_parse_wind(const char* text, float wind[2], tool_error* err) {
    double x = 0.0, z = 0.0;
    char tail = 0;
    if (sscanf(text, "%lf,%lf%c", &x, &z, &tail) != 2 || !(fabs(x) <= 50.0 && fabs(z) <= 50.0))
        return tool_error_set(err, "--wind: '%s' is not X,Z (m/s along x and z, each -50..50)", text);
    wind[0] = (float)x, wind[1] = (float)z;
    return true;
}

const char* scene_aa_name(sw_render_aa aa) {
    for (size_t i = 0; i < sizeof aa_names / sizeof aa_names[0]; i++)
        if (aa_names[i].aa == aa) return aa_names[i].name;
    return "?";
}

/* ---- the camera options ------------------------------------------------------------ */

bool scene_parse_frame(const char* text, scene_frame* frame, const char** joint, tool_error* err) {
    static const struct {
        const char* name;
        scene_frame frame;
    } names[] = {{"auto", SCENE_FRAME_AUTO}, {"path", SCENE_FRAME_PATH},   {"full", SCENE_FRAME_FULL},
                 {"upper", SCENE_FRAME_UPPER}, {"face", SCENE_FRAME_FACE}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(text, names[i].name) == 0) {
            *frame = names[i].frame, *joint = NULL;
            return true;
        }
    if (!*text) return tool_error_set(err, "--frame: give auto, path, full, upper, face or a joint's name");
    *frame = SCENE_FRAME_JOINT, *joint = text;
    return true;
}

bool scene_parse_point(const char* option, const char* text, float out[3], tool_error* err) {
    const char* p = text;
    for (int i = 0; i < 3; i++) {
        char* end = NULL;
        double x = strtod(p, &end);
        if (end == p || !isfinite(x) || fabs(x) > 1e6 || *end != (i < 2 ? ',' : '\0'))
            return tool_error_set(err, "%s: '%s' is not X,Y,Z (three numbers, commas between)", option, text);
        out[i] = (float)x;
        p = end + 1;
    }
    return true;
}

int scene_camera_take(scene_camera* c, tool_args* args, const char* arg, tool_error* err) {
    const char* v;
    if (tool_args_flag(arg, "--follow")) {
        c->follow = true;
        return 1;
    }
    if (tool_args_option(args, arg, "--camera")) {
        if (!(v = tool_args_value(args, "--camera", err)) || !scene_parse_camera(v, &c->azimuth, &c->elevation, err))
            return -1;
    } else if (tool_args_option(args, arg, "--frame")) {
        if (!(v = tool_args_value(args, "--frame", err)) || !scene_parse_frame(v, &c->frame, &c->joint, err)) return -1;
    } else if (tool_args_option(args, arg, "--camera-target")) {
        if (!(v = tool_args_value(args, "--camera-target", err)) ||
            !scene_parse_point("--camera-target", v, c->target, err))
            return -1;
        c->has_target = true;
    } else if (tool_args_option(args, arg, "--camera-distance")) {
        if (!(v = tool_args_value(args, "--camera-distance", err)) ||
            !tool_parse_double("--camera-distance", v, 1e-4, 1e6, &c->distance, err))
            return -1;
    } else if (tool_args_option(args, arg, "--fov")) {
        if (!(v = tool_args_value(args, "--fov", err)) || !tool_parse_double("--fov", v, 1, 170, &c->fov, err))
            return -1;
    } else {
        return 0;
    }
    return 1;
}

int scene_sky_take(double* hours, tool_args* args, const char* arg, tool_error* err) {
    if (!tool_args_option(args, arg, "--time-of-day")) return 0;
    const char* v = tool_args_value(args, "--time-of-day", err);
    return v && tool_parse_double("--time-of-day", v, 0.0, 24.0, hours, err) ? 1 : -1;
}

void scene_camera_place(const scene_camera* c, const float lo[3], const float hi[3], const float* points,
                        size_t point_count, float aspect, sw_camera* out) {
    const bool close = c->frame != SCENE_FRAME_AUTO && c->frame != SCENE_FRAME_PATH;
    sw_camera_framing framing = {
        .azimuth_degrees = (float)c->azimuth,
        .elevation_degrees = (float)c->elevation,
        .fov_y_degrees = (float)c->fov,
        .distance = (float)c->distance,
        .has_target = c->has_target,
        .target = {c->target[0], c->target[1], c->target[2]},
        .fit_corners = close,
        /* A face fills the picture (its outermost vertices on the edges); a body
           keeps a little air around it. */
        .margin = c->frame == SCENE_FRAME_FACE ? 1.0f : close ? 1.06f : 0.0f,
    };
    if (points && point_count) sw_camera_frame_points(points, point_count, &framing, aspect, out);
    else sw_camera_frame(lo, hi, &framing, aspect, out);
}

/* ---- the nodes a framing names ------------------------------------------------------ */

/* The model's humanoid map: its VRM humanoid, else one from its joint names. */
static void humanoid_of(const sw_model* m, sw_humanoid_map* map) {
    sw_vrm* vrm = NULL;
    sw_diag diag;
    sw_humanoid_map_clear(map);
    if (sw_vrm_read(m, &vrm, &diag) == SW_OK && vrm && vrm->humanoid_mapped > 0) *map = vrm->humanoid;
    else if (sw_humanoid_map_guess(m, NULL, map, NULL, &diag) != SW_OK) sw_humanoid_map_clear(map); /* names, hierarchy */
    sw_vrm_free(vrm);
}

static bool ends_with_ci(const char* s, const char* tail) {
    size_t n = strlen(s), k = strlen(tail);
    if (k > n) return false;
    for (size_t i = 0; i < k; i++)
        if (tolower((unsigned char)s[n - k + i]) != tail[i]) return false;
    return true;
}

/* A joint named like a head: "Head", "head", "J_Bip_C_Head",
   "mixamorig:Head", "Bip01 Head", "DEF-head" (not "HeadTop_End"). */
static bool named_like_head(const char* name) {
    if (!name) return false;
    const char* colon = strrchr(name, ':');
    const char* base = colon ? colon + 1 : name;
    if (ends_with_ci(base, "head") && (strlen(base) == 4 || strchr("_ .-|", base[strlen(base) - 5]))) return true;
    return false;
}

/* The joint `spec` names: a node name, a humanoid bone the map has, or a
   node index. */
static bool find_joint(const sw_model* m, const sw_humanoid_map* map, const char* spec, int32_t* out,
                       tool_error* err) {
    for (size_t i = 0; i < m->node_count; i++)
        if (m->nodes[i].name && strcmp(m->nodes[i].name, spec) == 0) {
            *out = (int32_t)i;
            return true;
        }
    sw_humanoid_bone bone;
    if (sw_humanoid_bone_from_name(spec, &bone) && map->node[bone] >= 0) {
        *out = map->node[bone];
        return true;
    }
    uint32_t index;
    tool_error ignored;
    if (strspn(spec, "0123456789") == strlen(spec) && tool_find_node(m, "--frame", spec, &index, &ignored)) {
        *out = (int32_t)index;
        return true;
    }
    /* The nearest node or mapped humanoid bone names (tool_common.h's rule). */
    tool_suggest near;
    tool_suggest_init(&near, spec);
    for (size_t i = 0; i < m->node_count; i++)
        if (m->nodes[i].name) tool_suggest_add(&near, m->nodes[i].name, strlen(m->nodes[i].name));
    for (int b = 0; b < SW_HUMANOID_BONE_COUNT; b++)
        if (map->node[b] >= 0)
            tool_suggest_add(&near, sw_humanoid_bone_name((sw_humanoid_bone)b),
                             strlen(sw_humanoid_bone_name((sw_humanoid_bone)b)));
    char text[512];
    if (*tool_suggest_text(&near, text, sizeof text))
        return tool_error_set(err, "--frame: %s has no joint '%s'; %s", m->path, spec, text);
    return tool_error_set(err, "--frame: %s has no joint '%s' (no node or humanoid bone of that name; it has %zu nodes)",
                          m->path, spec, m->node_count);
}

/* The root the camera follows: the humanoid's hips, else the first skin's
   skeleton root (its `skeleton`, else its first joint's topmost joint
   ancestor). */
static int32_t root_of(const sw_model* m, const sw_humanoid_map* map) {
    if (map->node[SW_HUMANOID_HIPS] >= 0) return map->node[SW_HUMANOID_HIPS];
    if (m->skin_count == 0 || m->skins[0].joint_count == 0) return -1;
    const sw_model_skin* skin = &m->skins[0];
    if (skin->skeleton >= 0 && (size_t)skin->skeleton < m->node_count) return skin->skeleton;
    int32_t root = (int32_t)skin->joints[0];
    for (size_t i = 0; i < skin->joint_count; i++)
        if ((int32_t)skin->joints[i] < root) root = (int32_t)skin->joints[i]; /* parents come first */
    return root;
}

bool scene_frame_resolve(const sw_model* m, const scene_camera* c, scene_frame_nodes* out, tool_error* err) {
    *out = (scene_frame_nodes){.root = -1, .joint = -1, .min_weight = 0.5f};
    sw_humanoid_map map;
    humanoid_of(m, &map);
    out->root = root_of(m, &map);
    if (c->frame == SCENE_FRAME_AUTO || c->frame == SCENE_FRAME_PATH) return true;
    if (c->frame == SCENE_FRAME_FULL || c->frame == SCENE_FRAME_UPPER) { /* every vertex */
        if (!(out->framed = malloc(m->node_count ? m->node_count : 1))) return tool_error_set(err, "out of memory");
        memset(out->framed, 1, m->node_count ? m->node_count : 1);
        return true;
    }
    if (c->frame == SCENE_FRAME_FACE) {
        out->joint = map.node[SW_HUMANOID_HEAD];
        out->joint_name = "the humanoid's head";
        for (size_t i = 0; out->joint < 0 && i < m->node_count; i++)
            if (named_like_head(m->nodes[i].name)) out->joint = (int32_t)i, out->joint_name = m->nodes[i].name;
        if (out->joint < 0)
            return tool_error_set(err, "--frame face: %s has no head (no humanoid head bone and no joint named like "
                                       "'Head'); give --frame JOINT or --camera-target",
                                  m->path);
    } else if (!find_joint(m, &map, c->joint, &out->joint, err)) {
        return false;
    } else {
        out->joint_name = c->joint;
    }
    if (!(out->framed = calloc(m->node_count ? m->node_count : 1, 1))) return tool_error_set(err, "out of memory");
    out->framed[out->joint] = 1;
    if (c->frame == SCENE_FRAME_FACE) {
        /* The head's own vertices, with the eyes and jaw it carries (not
           hair, which may hang to the waist). */
        const sw_humanoid_bone parts[] = {SW_HUMANOID_LEFT_EYE, SW_HUMANOID_RIGHT_EYE, SW_HUMANOID_JAW};
        for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
            if (map.node[parts[i]] >= 0) out->framed[map.node[parts[i]]] = 1;
    } else {
        for (size_t i = 0; i < m->node_count; i++) /* parents come first: one pass marks the subtree */
            if (m->nodes[i].parent >= 0 && out->framed[m->nodes[i].parent]) out->framed[i] = 1;
    }
    return true;
}

void scene_frame_nodes_free(scene_frame_nodes* n) {
    free(n->framed);
    n->framed = NULL;
}

static void apply(const sw_mat34* m, const float p[3], float w, float out[3]) {
    for (int r = 0; r < 3; r++)
        out[r] += w * (m->m[r][0] * p[0] + m->m[r][1] * p[1] + m->m[r][2] * p[2] + m->m[r][3]);
}

size_t scene_frame_points(const sw_model* m, const sw_pose* pose, const scene_frame_nodes* n, float* out) {
    size_t count = 0;
    if (!n->framed) return 0;
    for (size_t node = 0; node < m->node_count; node++) {
        const sw_model_node* nd = &m->nodes[node];
        if (nd->mesh < 0 || (size_t)nd->mesh >= m->mesh_count) continue;
        const sw_model_mesh* mesh = &m->meshes[nd->mesh];
        const sw_model_skin* skin = nd->skin >= 0 && (size_t)nd->skin < m->skin_count ? &m->skins[nd->skin] : NULL;
        for (size_t p = 0; p < mesh->primitive_count; p++) {
            const sw_model_primitive* prim = &mesh->primitives[p];
            const int k = prim->influence_count;
            if (!skin || k == 0) {
                if (!n->framed[node]) continue;
                for (size_t v = 0; v < prim->vertex_count; v++) {
                    if (out) {
                        float* q = &out[3 * count];
                        q[0] = q[1] = q[2] = 0.0f;
                        apply(&pose->world[node], &prim->positions[3 * v], 1.0f, q);
                    }
                    count++;
                }
                continue;
            }
            for (size_t v = 0; v < prim->vertex_count; v++) {
                const uint16_t* joints = &prim->joints[v * (size_t)k];
                const float* weights = &prim->weights[v * (size_t)k];
                float framed = 0.0f;
                for (int i = 0; i < k; i++)
                    if (joints[i] < skin->joint_count && n->framed[skin->joints[joints[i]]]) framed += weights[i];
                if (!(framed > n->min_weight)) continue;
                if (out) {
                    float* q = &out[3 * count];
                    q[0] = q[1] = q[2] = 0.0f;
                    for (int i = 0; i < k; i++)
                        if (weights[i] > 0.0f && joints[i] < skin->joint_count)
                            apply(&pose->skin_matrices[skin->palette_offset + joints[i]], &prim->positions[3 * v],
                                  weights[i], q);
                }
                count++;
            }
        }
    }
    return count;
}

bool scene_frame_collect(const sw_model* m, const sw_pose* pose, const scene_frame_nodes* nodes, const scene_camera* c,
                         float** points, size_t* point_count, tool_error* err) {
    *points = NULL, *point_count = 0;
    size_t n = scene_frame_points(m, pose, nodes, NULL);
    if (n == 0) {
        if (c->frame != SCENE_FRAME_FACE && c->frame != SCENE_FRAME_JOINT)
            return tool_error_set(err, "--frame: %s has no mesh to frame", m->path);
        return tool_error_set(err, "--frame %s: %s: no vertex is weighted to %s%s", c->joint ? c->joint : "face",
                              m->path, nodes->joint_name, c->frame == SCENE_FRAME_JOINT ? " or the joints below it" : "");
    }
    float* p = malloc(n * 3 * sizeof(float));
    if (!p) return tool_error_set(err, "out of memory for %zu vertices", n);
    n = scene_frame_points(m, pose, nodes, p);
    if (c->frame == SCENE_FRAME_UPPER) {
        /* From the hips up; without hips in the body's upper three quarters,
           the top 55 %. */
        float lo = p[1], hi = p[1];
        for (size_t i = 1; i < n; i++) lo = fminf(lo, p[3 * i + 1]), hi = fmaxf(hi, p[3 * i + 1]);
        const float hips = nodes->root >= 0 ? pose->world[nodes->root].m[1][3] : lo;
        const float cut = hips > lo + 0.25f * (hi - lo) && hips < hi ? hips : lo + 0.45f * (hi - lo);
        size_t kept = 0;
        for (size_t i = 0; i < n; i++)
            if (p[3 * i + 1] >= cut) memmove(&p[3 * kept++], &p[3 * i], 3 * sizeof(float));
        n = kept;
    }
    *points = p, *point_count = n;
    return true;
}

/* ---- stages ---------------------------------------------------------------------- */


int scene_stage_take(scene_stage* s, tool_args* args, const char* arg, tool_error* err) {
    const char* v;
    if (tool_args_option(args, arg, "--stage")) {
        if (!(v = tool_args_value(args, "--stage", err))) return -1;
        if (!*v) {
            tool_error_set(err, "--stage: an empty name (give a model file or 'demo')");
            return -1;
        }
        s->file = v;
        return 1;
    }
    if (tool_args_option(args, arg, "--probes")) {
        if (!(v = tool_args_value(args, "--probes", err))) return -1;
        s->probes_file = v;
        return 1;
    }
    if (tool_args_option(args, arg, "--place")) {
        if (!(v = tool_args_value(args, "--place", err))) return -1;
        const char* p = v;
        for (int i = 0; i < 2; i++) {
            char* end = NULL;
            double x = strtod(p, &end);
            if (end == p || !isfinite(x) || fabs(x) > 1e6 || *end != (i == 0 ? ',' : '\0')) {
                tool_error_set(err, "--place: '%s' is not X,Z (two numbers, a comma between)", v);
                return -1;
            }
            s->place[i] = (float)x;
            p = end + 1;
        }
        s->has_place = true;
        return 1;
    }
    return 0;
}

bool scene_stage_check(const scene_stage* s, tool_error* err) {
    if (s->has_place && !s->file)
        return tool_error_set(err, "--place stands the character on a stage's ground: give --stage FILE (or demo)");
    if (s->probes_file && !s->file)
        return tool_error_set(err, "--probes lights a stage's scene: give --stage FILE (or demo), the stage they were baked from");
    return true;
}

/* --probes FILE into s->probes; errors name the file. */
static bool scene_probes_load(scene_stage* s, tool_error* err) {
    FILE* f = fopen(s->probes_file, "rb");
    if (!f) return tool_error_set(err, "--probes: cannot open '%s': %s", s->probes_file, strerror(errno));
    /* The file's length, at most the largest version 2 file: one byte more
       shows a longer file. */
    size_t capacity = sw_render_probe_file_specular_size(SW_RENDER_PROBE_MAX, SW_RENDER_PROBE_CUBE_MAX) + 1;
    long length = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    if (length >= 0 && (size_t)length < capacity) capacity = (size_t)length + 1;
    rewind(f);
    uint8_t* bytes = malloc(capacity);
    s->probes = calloc(SW_RENDER_PROBE_MAX, sizeof *s->probes);
    if (!bytes || !s->probes) {
        fclose(f);
        free(bytes);
        return tool_error_set(err, "out of memory");
    }
    size_t size = fread(bytes, 1, capacity, f);
    bool failed = ferror(f) != 0;
    fclose(f);
    sw_diag diag;
    bool ok = !failed && sw_render_probe_file_read(bytes, size, s->probes, &s->probe_count, &diag) == SW_OK;
    if (ok && (s->probe_cube_size = sw_render_probe_file_cube_size(bytes, size)) > 0) {
        size_t floats = (s->probe_count + 1) * sw_render_probe_cube_floats(s->probe_cube_size);
        ok = (s->probe_cubes = malloc(floats * sizeof(float))) != NULL &&
             sw_render_probe_file_read_cubes(bytes, size, s->probe_cubes, floats, &diag) == SW_OK;
        if (!s->probe_cubes) snprintf(diag.message, sizeof diag.message, "out of memory for the cubes");
    }
    free(bytes);
    if (failed) return tool_error_set(err, "--probes: cannot read '%s'", s->probes_file);
    if (!ok) return tool_error_set(err, "--probes %s: %s", s->probes_file, diag.message);
    return true;
}

bool scene_stage_load(scene_stage* s, const sw_gltf_options* load, tool_error* err) {
    if (!s->file) return true;
    if (s->probes_file && !scene_probes_load(s, err)) return false;
    sw_diag diag;
    const bool demo = strcmp(s->file, "demo") == 0;
    const char* name = demo ? "demo stage" : s->file;
    sw_result res;
    if (demo) {
        uint8_t* glb = NULL;
        size_t size = 0;
        res = sw_demo_stage_glb(&glb, &size, &diag);
        if (res == SW_OK) res = sw_gltf_load_memory(glb, size, SW_DEMO_STAGE_NAME, NULL, NULL, &s->model, &diag);
        sw_demo_stage_glb_free(glb);
    } else {
        res = tool_load_model(s->file, load, &s->model, &diag);
    }
    if (res == SW_OK) res = sw_material_set_read(s->model, &s->materials, &diag);
    if (res == SW_OK) res = sw_decal_read(s->model, &s->decals, &diag);
    if (res != SW_OK) {
        /* the importers' messages name the file already */
        if (!demo && strstr(diag.message, s->file)) return tool_error_set(err, "--stage: %s", diag.message);
        return tool_error_set(err, "--stage %s: %s", name, diag.message);
    }
    if (!(s->rest_memory = tool_pose_alloc(s->model, &s->rest))) return tool_error_set(err, "out of memory");
    sw_pose_rest(s->model, &s->rest);
    sw_pose_update(s->model, &s->rest);
    if (s->model->light_count > SW_RENDER_LIGHT_MAX)
        fprintf(stderr, "warning: --stage %s: %zu lights; the renderer draws the first %d\n", name,
                s->model->light_count, SW_RENDER_LIGHT_MAX);
    return true;
}

sw_result scene_stage_apply(const scene_stage* s, sw_renderer* renderer, sw_diag* diag) {
    const sw_render_stage_model m = {.model = s->model, .materials = &s->materials, .placement = sw_mat34_identity()};
    sw_result res = sw_renderer_set_stage(renderer, s->model ? &m : NULL, s->model ? 1 : 0, diag);
    if (res != SW_OK || !s->model) return res;
    /* Its KHR_lights_punctual lights where its rest pose puts them: the
       first SW_RENDER_LIGHT_MAX (scene_stage_load warned about the rest). */
    sw_render_light lights[SW_RENDER_LIGHT_MAX];
    size_t light_count = 0;
    for (size_t i = 0; i < s->model->light_count && light_count < SW_RENDER_LIGHT_MAX; i++) {
        const sw_model_light* l = &s->model->lights[i];
        if (l->node >= 0) sw_render_light_from_model(l, &s->rest.world[l->node], &lights[light_count++]);
    }
    res = sw_renderer_set_lights(renderer, lights, light_count, diag);
    if (res == SW_OK) res = sw_renderer_set_probes(renderer, s->probes, s->probe_count, diag);
    if (res == SW_OK && s->probe_cube_size)
        res = sw_renderer_set_probe_cubes(renderer, s->probe_cube_size, s->probe_cubes, diag);
    if (res != SW_OK || !s->decals) return res;
    sw_render_decal decals[SW_RENDER_DECAL_MAX];
    size_t count = 0;
    stage_decals_make(s->decals, s->model, s->rest.world, NULL, &s->materials, decals, SW_RENDER_DECAL_MAX, &count);
    return sw_renderer_set_decals(renderer, decals, count, diag);
}

bool scene_stage_set(const scene_stage* s, sw_renderer* renderer, tool_error* err) {
    if (!s->model) return true;
    sw_diag diag;
    if (scene_stage_apply(s, renderer, &diag) != SW_OK) return tool_error_set(err, "--stage %s: %s", s->file, diag.message);
    return true;
}

bool scene_stage_placement(const scene_stage* s, const float root[3], float feet_y, float out_shift[3],
                           tool_error* err) {
    out_shift[0] = out_shift[1] = out_shift[2] = 0.0f;
    if (!s->has_place || !s->model) return true;
    float y = 0.0f;
    bool found = false;
    sw_diag diag;
    if (sw_model_ground_height(s->model, &s->rest, NULL, s->place[0], s->place[1], &y, &found, &diag) != SW_OK)
        return tool_error_set(err, "--stage %s: %s", s->file, diag.message);
    if (!found)
        return tool_error_set(err, "--place %g,%g: the stage %s has no walkable ground there (a triangle within 50 "
                                   "degrees of level)", (double)s->place[0], (double)s->place[1], s->file);
    out_shift[0] = s->place[0] - root[0];
    out_shift[1] = y - feet_y;
    out_shift[2] = s->place[1] - root[2];
    return true;
}

void scene_stage_free(scene_stage* s) {
    sw_decal_set_free(s->decals);
    s->decals = NULL;
    sw_material_set_free(&s->materials);
    sw_model_free(s->model);
    free(s->rest_memory);
    free(s->probes);
    free(s->probe_cubes);
    s->model = NULL, s->rest_memory = NULL, s->probes = NULL, s->probe_count = 0;
    s->probe_cubes = NULL, s->probe_cube_size = 0;
}

/* ---- the air ------------------------------------------------------------------------ */

int scene_air_take(scene_air* a, tool_args* args, const char* arg, tool_error* err) {
    const char* v;
    if (tool_args_option(args, arg, "--fog")) {
        if (!(v = tool_args_value(args, "--fog", err)) || !scene_parse_fog(v, &a->fog_density, a->fog_colour, err))
            return -1;
        a->fog_given = true;
        return 1;
    }
    if (tool_args_option(args, arg, "--fog-height")) {
        if (!(v = tool_args_value(args, "--fog-height", err)) || !scene_parse_fog_height(v, a->fog_height, err))
            return -1;
        return 1;
    }
    if (tool_args_option(args, arg, "--weather")) {
        if (!(v = tool_args_value(args, "--weather", err)) || !scene_parse_weather(v, &a->weather, err)) return -1;
        return 1;
    }
    if (tool_args_option(args, arg, "--wind")) {
        if (!(v = tool_args_value(args, "--wind", err)) || !scene_parse_wind(v, a->weather.wind, err)) return -1;
        return 1;
    }
    if (tool_args_option(args, arg, "--env-feedback")) {
        if (!(v = tool_args_value(args, "--env-feedback", err)) ||
            !scene_parse_switch("--env-feedback", v, &a->env_feedback, err))
            return -1;
        a->env_feedback_given = true;
        return 1;
    }
    return 0;
}

void scene_air_finish(scene_air* a, const scene_stage* s) {
    if (!s->file) return;
    if (!a->fog_given) a->fog_density = SCENE_FOG_DEFAULT_DENSITY;
    if (!a->env_feedback_given) a->env_feedback = true;
}

void scene_air_shade(const scene_air* a, sw_render_frame_shading* shading) {
    shading->fog_density = a->fog_density;
    for (int i = 0; i < 3; i++) shading->fog_colour[i] = a->fog_colour[i];
    shading->fog_height_density = a->fog_height[0];
    shading->fog_height_base = a->fog_height[1];
    shading->fog_height_falloff = a->fog_height[2];
    shading->weather = a->weather;
    shading->env_feedback = a->env_feedback;
}
