/* VRM animation files (sinew/vrma.h): the VRMC_vrm_animation extension
   read over the JSON layer, and its clip retargeted onto a humanoid
   character through the normalized humanoid (docs/vrm.md). */
#include "sinew/vrma.h"

#include "sinew/retarget.h"
#include "sinew/vrm.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../base/base_internal.h"
#include "json_internal.h"

#define SW__VRMA_EXT "extensions.VRMC_vrm_animation"

/* ---- double precision rotations (the keys are mapped one by one) --------- */

typedef struct sw__qd {
    double x, y, z, w;
} sw__qd;

typedef struct sw__md { /* row-major 3×4 affine */
    double m[3][4];
} sw__md;

static sw__qd sw__qd_mul(sw__qd a, sw__qd b) {
    return (sw__qd){a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                    a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}

static sw__qd sw__qd_inv(sw__qd q) { return (sw__qd){-q.x, -q.y, -q.z, q.w}; }

static sw__qd sw__qd_normalize(sw__qd q) {
    double n = sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    if (!(n > 0)) return (sw__qd){0, 0, 0, 1};
    return (sw__qd){q.x / n, q.y / n, q.z / n, q.w / n};
}

static sw__md sw__md_identity(void) {
    sw__md r = {{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}}};
    return r;
}

static sw__md sw__md_mul(const sw__md* a, const sw__md* b) {
    sw__md r;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++)
            r.m[i][j] = a->m[i][0] * b->m[0][j] + a->m[i][1] * b->m[1][j] + a->m[i][2] * b->m[2][j] +
                        (j == 3 ? a->m[i][3] : 0.0);
    return r;
}

/* The node's local matrix: its matrix, or T·R·S. */
static sw__md sw__md_local(const sw_model_node* n) {
    sw__md r;
    if (n->has_matrix) {
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 4; j++) r.m[i][j] = n->matrix.m[i][j];
        return r;
    }
    sw__qd q = sw__qd_normalize((sw__qd){n->trs.rotation.x, n->trs.rotation.y, n->trs.rotation.z, n->trs.rotation.w});
    double x = q.x, y = q.y, z = q.z, w = q.w;
    double R[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)},
                      {2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)},
                      {2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)}};
    double s[3] = {n->trs.scale.x, n->trs.scale.y, n->trs.scale.z};
    double t[3] = {n->trs.translation.x, n->trs.translation.y, n->trs.translation.z};
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) r.m[i][j] = R[i][j] * s[j];
        r.m[i][3] = t[i];
    }
    return r;
}

/* The rotation of a matrix as three.js's Matrix4.decompose finds it: the
   columns divided by their lengths, the first negated when the determinant
   is negative. */
static sw__qd sw__md_rotation(const sw__md* m) {
    double c[3][3];
    double len[3];
    for (int j = 0; j < 3; j++) len[j] = sqrt(m->m[0][j] * m->m[0][j] + m->m[1][j] * m->m[1][j] + m->m[2][j] * m->m[2][j]);
    double det = m->m[0][0] * (m->m[1][1] * m->m[2][2] - m->m[1][2] * m->m[2][1]) -
                 m->m[0][1] * (m->m[1][0] * m->m[2][2] - m->m[1][2] * m->m[2][0]) +
                 m->m[0][2] * (m->m[1][0] * m->m[2][1] - m->m[1][1] * m->m[2][0]);
    if (det < 0) len[0] = -len[0];
    for (int j = 0; j < 3; j++) {
        if (len[j] == 0) return (sw__qd){0, 0, 0, 1};
        for (int i = 0; i < 3; i++) c[i][j] = m->m[i][j] / len[j];
    }
    double tr = c[0][0] + c[1][1] + c[2][2];
    sw__qd q;
    if (tr > 0) {
        double s = 0.5 / sqrt(tr + 1.0);
        q = (sw__qd){(c[2][1] - c[1][2]) * s, (c[0][2] - c[2][0]) * s, (c[1][0] - c[0][1]) * s, 0.25 / s};
    } else if (c[0][0] > c[1][1] && c[0][0] > c[2][2]) {
        double s = 2.0 * sqrt(1.0 + c[0][0] - c[1][1] - c[2][2]);
        q = (sw__qd){0.25 * s, (c[0][1] + c[1][0]) / s, (c[0][2] + c[2][0]) / s, (c[2][1] - c[1][2]) / s};
    } else if (c[1][1] > c[2][2]) {
        double s = 2.0 * sqrt(1.0 + c[1][1] - c[0][0] - c[2][2]);
        q = (sw__qd){(c[0][1] + c[1][0]) / s, 0.25 * s, (c[1][2] + c[2][1]) / s, (c[0][2] - c[2][0]) / s};
    } else {
        double s = 2.0 * sqrt(1.0 + c[2][2] - c[0][0] - c[1][1]);
        q = (sw__qd){(c[0][2] + c[2][0]) / s, (c[1][2] + c[2][1]) / s, 0.25 * s, (c[1][0] - c[0][1]) / s};
    }
    return sw__qd_normalize(q);
}

/* The general inverse of an affine matrix; false when singular. */
static bool sw__md_inverse(const sw__md* m, sw__md* out) {
    const double(*a)[4] = m->m;
    double c00 = a[1][1] * a[2][2] - a[1][2] * a[2][1], c01 = a[1][2] * a[2][0] - a[1][0] * a[2][2],
           c02 = a[1][0] * a[2][1] - a[1][1] * a[2][0];
    double det = a[0][0] * c00 + a[0][1] * c01 + a[0][2] * c02;
    if (!(fabs(det) > 1e-300)) return false;
    double d = 1.0 / det;
    double r[3][3] = {{c00 * d, (a[0][2] * a[2][1] - a[0][1] * a[2][2]) * d, (a[0][1] * a[1][2] - a[0][2] * a[1][1]) * d},
                      {c01 * d, (a[0][0] * a[2][2] - a[0][2] * a[2][0]) * d, (a[0][2] * a[1][0] - a[0][0] * a[1][2]) * d},
                      {c02 * d, (a[0][1] * a[2][0] - a[0][0] * a[2][1]) * d, (a[0][0] * a[1][1] - a[0][1] * a[1][0]) * d}};
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) out->m[i][j] = r[i][j];
        out->m[i][3] = -(r[i][0] * a[0][3] + r[i][1] * a[1][3] + r[i][2] * a[2][3]);
    }
    return true;
}

/* Every node's rest world matrix (parents come first in a model); NULL
   when out of memory. */
static sw__md* sw__rest_worlds(const sw_model* model) {
    sw__md* w = sw__calloc(model->node_count ? model->node_count : 1, sizeof *w);
    if (!w) return NULL;
    for (size_t i = 0; i < model->node_count; i++) {
        sw__md local = sw__md_local(&model->nodes[i]);
        int32_t p = model->nodes[i].parent;
        w[i] = p >= 0 ? sw__md_mul(&w[p], &local) : local;
    }
    return w;
}

static sw_quat sw__qf(sw__qd q) { return (sw_quat){(float)q.x, (float)q.y, (float)q.z, (float)q.w}; }
static sw__qd sw__qd_of(sw_quat q) { return (sw__qd){q.x, q.y, q.z, q.w}; }

/* ---- reading ------------------------------------------------------------------ */

typedef struct sw__vrma_owned {
    sw_vrma vrma;
    sw__json_owned mem;
    /* per model node (the first read's, shared by sw_vrma_read_clip's) */
    const uint8_t* node_use;  /* 0 free, 1 bone, 2 expression, 3 look-at */
    const int32_t* node_slot; /* its bone or expression index */
} sw__vrma_owned;

typedef struct sw__vrma_reader {
    sw__json J;
    const sw_model* model;
    sw_vrma* v;
    uint8_t* node_use;
    int32_t* node_slot;
} sw__vrma_reader;

static sw_result sw__vrma_node(sw__vrma_reader* R, const cJSON* object, int32_t* out) {
    uint32_t file_index;
    if (sw__json_index_below(&R->J, object, "node", R->model->node_count, "nodes", &file_index) != SW_OK)
        return SW_ERR_INVALID_DATA;
    *out = (int32_t)R->model->node_from_source[file_index];
    return SW_OK;
}

/* Claims `node` for `use`; false (with a warning) when something has it. */
static bool sw__vrma_claim(sw__vrma_reader* R, int32_t node, uint8_t use, int32_t slot) {
    if (R->node_use[node]) {
        sw__json_warn(&R->J, "node", "ignored: node %u is already used by this extension",
                      R->model->nodes[node].source_index);
        return false;
    }
    R->node_use[node] = use;
    R->node_slot[node] = slot;
    return true;
}

static sw_result sw__vrma_humanoid(sw__vrma_reader* R, const cJSON* ext) {
    sw__json* J = &R->J;
    const cJSON* humanoid = NULL;
    const cJSON* bones = NULL;
    if (sw__json_object(J, ext, "humanoid", false, &humanoid) != SW_OK) return SW_ERR_INVALID_DATA;
    if (!humanoid) return SW_OK;
    R->v->has_humanoid = true;
    size_t mark = sw__json_push(J, "humanoid");
    if (sw__json_object(J, humanoid, "humanBones", true, &bones) != SW_OK) return SW_ERR_INVALID_DATA;
    sw__json_push(J, "humanBones");
    for (sw__json_each it = sw__json_each_of(J, bones); sw__json_next(J, &it);) {
        sw_humanoid_bone b;
        if (!sw_humanoid_bone_from_name(it.key, &b) || strstr(it.key, "ThumbIntermediate")) {
            sw__json_warn(J, NULL, "ignored: not a VRM 1.0 humanoid bone");
            continue;
        }
        if (sw__json_expect_object(J, it.value) != SW_OK) return SW_ERR_INVALID_DATA;
        if (b == SW_HUMANOID_LEFT_EYE || b == SW_HUMANOID_RIGHT_EYE) {
            sw__json_warn(J, NULL, "ignored: the eyes are animated by the look-at (VRMC_vrm_animation)");
            continue;
        }
        int32_t node;
        if (sw__vrma_node(R, it.value, &node) != SW_OK) return SW_ERR_INVALID_DATA;
        if (R->v->humanoid.node[b] >= 0) { /* a JSON key given twice */
            sw__json_warn(J, NULL, "ignored: this bone is given twice; the first is used");
            continue;
        }
        if (!sw__vrma_claim(R, node, 1, (int32_t)b)) continue;
        R->v->humanoid.node[b] = node;
        R->v->humanoid_mapped++;
    }
    sw__json_pop(J, mark);
    return SW_OK;
}

static int sw__vrma_preset(const char* name) {
    for (int p = 0; p < SW_VRM_PRESET_COUNT; p++)
        if (strcmp(name, sw_vrm_preset_name((sw_vrm_preset)p)) == 0) return p;
    return -1;
}

static sw_result sw__vrma_expressions(sw__vrma_reader* R, const cJSON* ext) {
    sw__json* J = &R->J;
    const cJSON* expressions = NULL;
    if (sw__json_object(J, ext, "expressions", false, &expressions) != SW_OK) return SW_ERR_INVALID_DATA;
    if (!expressions) return SW_OK;
    size_t mark = sw__json_push(J, "expressions");
    const cJSON* lists[2] = {NULL, NULL};
    if (sw__json_object(J, expressions, "preset", false, &lists[0]) != SW_OK ||
        sw__json_object(J, expressions, "custom", false, &lists[1]) != SW_OK)
        return SW_ERR_INVALID_DATA;
    size_t count = sw__json_count(lists[0]) + sw__json_count(lists[1]);
    sw_vrma_expression* out = count ? sw__json_alloc(J, count, sizeof *out) : NULL;
    if (count && !out) return sw__json_out_of_memory(J);
    size_t n = 0;
    for (int l = 0; l < 2; l++) {
        if (!lists[l]) continue;
        size_t list_mark = sw__json_push(J, l == 0 ? "preset" : "custom");
        for (sw__json_each it = sw__json_each_of(J, lists[l]); sw__json_next(J, &it);) {
            if (sw__json_expect_object(J, it.value) != SW_OK) return SW_ERR_INVALID_DATA;
            int preset = sw__vrma_preset(it.key);
            if (l == 0 && preset < 0) {
                sw__json_warn(J, NULL, "ignored: not a VRM 1.0 preset expression");
                continue;
            }
            if (preset >= SW_VRM_PRESET_LOOK_UP && preset <= SW_VRM_PRESET_LOOK_RIGHT) {
                sw__json_warn(J, NULL, "ignored: the look expressions are animated by the look-at");
                continue;
            }
            if (l == 1 && preset >= 0) {
                sw__json_warn(J, NULL, "ignored: a custom expression may not have a preset's name");
                continue;
            }
            int32_t node;
            if (sw__vrma_node(R, it.value, &node) != SW_OK) return SW_ERR_INVALID_DATA;
            if (!sw__vrma_claim(R, node, 2, (int32_t)n)) continue;
            const char* name = sw__json_copy(J, it.key);
            if (!name) return sw__json_out_of_memory(J);
            out[n++] = (sw_vrma_expression){.name = name, .preset = l == 0, .node = node};
        }
        sw__json_pop(J, list_mark);
    }
    R->v->expressions = out;
    R->v->expression_count = n;
    sw__json_pop(J, mark);
    return SW_OK;
}

static sw_result sw__vrma_look_at(sw__vrma_reader* R, const cJSON* ext) {
    sw__json* J = &R->J;
    const cJSON* look_at = NULL;
    if (sw__json_object(J, ext, "lookAt", false, &look_at) != SW_OK) return SW_ERR_INVALID_DATA;
    if (!look_at) return SW_OK;
    size_t mark = sw__json_push(J, "lookAt");
    if (sw__json_member(look_at, "node")) {
        int32_t node;
        if (sw__vrma_node(R, look_at, &node) != SW_OK) return SW_ERR_INVALID_DATA;
        if (sw__vrma_claim(R, node, 3, 0)) R->v->look_at_node = node;
    }
    if (sw__json_member(look_at, "offsetFromHeadBone")) {
        if (sw__json_floats(J, look_at, "offsetFromHeadBone", 3, true, R->v->look_at_offset) != SW_OK)
            return SW_ERR_INVALID_DATA;
        R->v->has_look_at_offset = true;
    }
    sw__json_pop(J, mark);
    return SW_OK;
}

static const char* sw__path_name(sw_track_path p) {
    switch (p) {
    case SW_PATH_TRANSLATION: return "translation";
    case SW_PATH_ROTATION: return "rotation";
    case SW_PATH_SCALE: return "scale";
    default: return "weights";
    }
}

/* The clip's tracks sorted to the bones, expressions and look-at; R's
   node maps are set. */
static sw_result sw__vrma_tracks(sw__vrma_reader* R, size_t clip_index) {
    sw_vrma* v = R->v;
    const sw_clip* clip = &R->model->animations[clip_index];
    v->clip = clip;
    for (int b = 0; b < SW_HUMANOID_BONE_COUNT; b++) v->rotation_track[b] = -1;
    v->hips_translation_track = -1;
    v->look_at_track = -1;
    size_t expression_tracks = 0;
    for (size_t k = 0; k < clip->track_count; k++)
        expression_tracks += clip->tracks[k].target < R->model->node_count && R->node_use[clip->tracks[k].target] == 2;
    sw_vrma_expression_track* et =
        expression_tracks ? sw__json_alloc(&R->J, expression_tracks, sizeof *et) : NULL;
    if (expression_tracks && !et) return sw__json_out_of_memory(&R->J);
    v->expression_tracks = et;
    v->expression_track_count = 0;
    char where[64];
    snprintf(where, sizeof where, "animations[%zu]", clip_index);
    sw__json_set_path(&R->J, where);
    for (size_t k = 0; k < clip->track_count; k++) {
        const sw_track* t = &clip->tracks[k];
        if (t->target >= R->model->node_count) continue;
        uint8_t use = R->node_use[t->target];
        uint32_t file_node = R->model->nodes[t->target].source_index;
        if (use == 1) {
            int b = R->node_slot[t->target];
            if (t->path == SW_PATH_ROTATION)
                v->rotation_track[b] = (int32_t)k;
            else if (t->path == SW_PATH_TRANSLATION && b == SW_HUMANOID_HIPS)
                v->hips_translation_track = (int32_t)k;
            else
                sw__json_warn(&R->J, NULL, "ignored: a %s track on humanoid bone %s (node %u)", sw__path_name(t->path),
                              sw_humanoid_bone_name((sw_humanoid_bone)b), file_node);
        } else if (use == 2) {
            if (t->path == SW_PATH_TRANSLATION)
                et[v->expression_track_count++] =
                    (sw_vrma_expression_track){(uint32_t)R->node_slot[t->target], (uint32_t)k};
            else
                sw__json_warn(&R->J, NULL, "ignored: a %s track on expression node %u (only translation is read)",
                              sw__path_name(t->path), file_node);
        } else if (use == 3) {
            if (t->path == SW_PATH_ROTATION)
                v->look_at_track = (int32_t)k;
            else
                sw__json_warn(&R->J, NULL, "ignored: a %s track on the look-at node %u (only rotation is read)",
                              sw__path_name(t->path), file_node);
        }
    }
    return SW_OK;
}

/* The rest pose as three-vrm-animation takes it. */
static bool sw__vrma_rest(sw_vrma* v, const sw_model* model) {
    sw__md* world = sw__rest_worlds(model);
    if (!world) return false;
    for (int b = 0; b < SW_HUMANOID_BONE_COUNT; b++) {
        int32_t n = v->humanoid.node[b];
        v->rest_world_rotation[b] = n >= 0 ? sw__qf(sw__md_rotation(&world[n])) : sw_quat_identity();
    }
    int32_t hips = v->humanoid.node[SW_HUMANOID_HIPS];
    sw__md parent = sw__md_identity();
    if (hips >= 0 && model->nodes[hips].parent >= 0) parent = world[model->nodes[hips].parent];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++) v->hips_parent_world.m[i][j] = (float)parent.m[i][j];
    if (hips >= 0)
        v->rest_hips_position = (sw_vec3){(float)world[hips].m[0][3], (float)world[hips].m[1][3], (float)world[hips].m[2][3]};
    sw__free(world);
    return true;
}

void sw_vrma_free(sw_vrma* vrma) {
    if (!vrma) return;
    sw__vrma_owned* o = (sw__vrma_owned*)vrma;
    sw__json_owned_free(&o->mem);
    sw__free(o);
}

sw_result sw_vrma_read_clip(const sw_vrma* base, size_t clip, sw_vrma** out, sw_diag* diag) {
    if (out) *out = NULL;
    if (!base || !out)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "VRM animation read: a base and an output are needed");
    const sw_model* model = base->model;
    const char* file = model->path ? model->path : "model";
    if (clip >= model->animation_count)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "%s: VRM animation read: clip %zu of %zu", file, clip,
                           model->animation_count);
    const sw__vrma_owned* b = (const sw__vrma_owned*)base;
    sw__vrma_owned* o = sw__calloc(1, sizeof *o);
    sw__vrma_reader R = {.model = model};
    sw_diag_set(diag, SW_OK, -1, "%s", "");
    sw__json_begin(&R.J, file, "VRM animation", diag, o ? &o->mem : NULL);
    if (!o) return sw__json_out_of_memory(&R.J);
    o->vrma = *base;
    o->vrma.warnings = NULL;
    o->vrma.warning_count = 0;
    o->node_use = b->node_use;
    o->node_slot = b->node_slot;
    R.v = &o->vrma;
    R.node_use = (uint8_t*)b->node_use;
    R.node_slot = (int32_t*)b->node_slot;
    sw_result r = sw__vrma_tracks(&R, clip);
    if (r == SW_OK && R.J.oom) r = sw__json_out_of_memory(&R.J);
    if (r != SW_OK) {
        sw_vrma_free(&o->vrma);
        return r;
    }
    o->vrma.warnings = (const char* const*)o->mem.warnings;
    o->vrma.warning_count = o->mem.warning_count;
    *out = &o->vrma;
    return SW_OK;
}

sw_result sw_vrma_read(const sw_model* model, size_t clip, sw_vrma** out, sw_diag* diag) {
    if (out) *out = NULL;
    if (!model || !out)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "VRM animation read: a model and an output are needed");
    const sw_model_extension* e = sw_model_find_extension(model, "VRMC_vrm_animation", SW_MODEL_OBJECT_MODEL, 0);
    sw_diag_set(diag, SW_OK, -1, "%s", "");
    if (!e) return SW_OK;
    const char* file = model->path ? model->path : "model";
    if (clip >= model->animation_count)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "%s: VRM animation read: clip %zu of %zu", file, clip,
                           model->animation_count);
    sw__vrma_owned* o = sw__calloc(1, sizeof *o);
    sw__vrma_reader R = {.model = model};
    sw__json_begin(&R.J, file, "VRM animation", diag, o ? &o->mem : NULL);
    if (!o) return sw__json_out_of_memory(&R.J);
    R.node_use = sw__json_alloc(&R.J, model->node_count ? model->node_count : 1, 1);
    R.node_slot = sw__json_alloc(&R.J, model->node_count ? model->node_count : 1, sizeof *R.node_slot);
    if (!R.node_use || !R.node_slot) {
        sw__json_owned_free(&o->mem);
        sw__free(o);
        return sw__json_out_of_memory(&R.J);
    }
    o->node_use = R.node_use;
    o->node_slot = R.node_slot;
    sw_vrma* v = &o->vrma;
    R.v = v;
    v->model = model;
    v->clip = &model->animations[clip];
    sw_humanoid_map_clear(&v->humanoid);
    for (int b = 0; b < SW_HUMANOID_BONE_COUNT; b++) v->rotation_track[b] = -1;
    v->hips_translation_track = -1;
    v->look_at_node = -1;
    v->look_at_track = -1;
    v->hips_parent_world = sw_mat34_identity();
    sw__json_set_path(&R.J, SW__VRMA_EXT);
    cJSON* json = sw__json_parse(&R.J, e->json, NULL);
    sw_result r = SW_OK;
    if (!json)
        r = R.J.oom ? sw__json_out_of_memory(&R.J) : sw__json_fail(&R.J, NULL, "not valid JSON");
    else if (sw__json_expect_object(&R.J, json) != SW_OK)
        r = SW_ERR_INVALID_DATA;
    if (r == SW_OK) {
        const char* spec = NULL;
        if (sw__json_string(&R.J, json, "specVersion", false, &spec) != SW_OK)
            r = SW_ERR_INVALID_DATA;
        else if (!spec)
            sw__json_warn(&R.J, "specVersion", "missing; read as 1.0");
        else if (strcmp(spec, "1.0-draft") == 0)
            sw__json_warn(&R.J, "specVersion", "a draft (1.0-draft); read as 1.0");
        else if (strcmp(spec, "1.0") != 0)
            r = sw__json_fail(&R.J, "specVersion", "\"%.40s\" is not a supported version (1.0)", spec);
        if (r == SW_OK && spec && !(v->spec_version = sw__json_copy(&R.J, spec))) r = sw__json_out_of_memory(&R.J);
    }
    if (r == SW_OK) r = sw__vrma_humanoid(&R, json);
    if (r == SW_OK) sw__json_set_path(&R.J, SW__VRMA_EXT), r = sw__vrma_expressions(&R, json);
    if (r == SW_OK) sw__json_set_path(&R.J, SW__VRMA_EXT), r = sw__vrma_look_at(&R, json);
    if (r == SW_OK) r = sw__vrma_tracks(&R, clip);
    if (r == SW_OK && !sw__vrma_rest(v, model)) r = sw__json_out_of_memory(&R.J);
    if (r == SW_OK && R.J.oom) r = sw__json_out_of_memory(&R.J);
    sw__json_delete(json);
    if (r != SW_OK) {
        sw_vrma_free(v);
        return r;
    }
    v->warnings = (const char* const*)o->mem.warnings;
    v->warning_count = o->mem.warning_count;
    *out = v;
    return SW_OK;
}

/* ---- sampling -------------------------------------------------------------------- */

float sw_vrma_expression_weight(const sw_vrma* vrma, size_t k, float t) {
    if (!vrma || k >= vrma->expression_track_count) return 0.0f;
    const sw_track* track = &vrma->clip->tracks[vrma->expression_tracks[k].track];
    float v[3] = {0, 0, 0};
    sw_track_sample(track, t, NULL, v);
    float w = v[0];
    return w > 1.0f ? 1.0f : w > 0.0f ? w : 0.0f; /* NaN → 0 */
}

bool sw_vrma_look_at(const sw_vrma* vrma, float t, float* yaw_deg, float* pitch_deg, float dir[3]) {
    double yaw = 0, pitch = 0;
    sw__qd q = {0, 0, 0, 1};
    bool ok = vrma && vrma->look_at_track >= 0;
    if (ok) {
        float v[4];
        sw_track_sample(&vrma->clip->tracks[vrma->look_at_track], t, NULL, v);
        q = sw__qd_normalize((sw__qd){v[0], v[1], v[2], v[3]});
        /* Euler YXZ from the rotation matrix, as three.js does */
        double m13 = 2 * (q.x * q.z + q.w * q.y), m23 = 2 * (q.y * q.z - q.w * q.x);
        double m33 = 1 - 2 * (q.x * q.x + q.y * q.y), m31 = 2 * (q.x * q.z - q.w * q.y);
        double m11 = 1 - 2 * (q.y * q.y + q.z * q.z);
        double s = m23 < -1 ? -1 : m23 > 1 ? 1 : m23;
        pitch = asin(-s);
        yaw = fabs(s) < 0.9999999 ? atan2(m13, m33) : atan2(-m31, m11);
    }
    const double deg = 180.0 / 3.14159265358979323846;
    if (yaw_deg) *yaw_deg = (float)(yaw * deg);
    if (pitch_deg) *pitch_deg = (float)(pitch * deg);
    if (dir) {
        sw__qd d = sw__qd_mul(sw__qd_mul(q, (sw__qd){0, 0, 1, 0}), sw__qd_inv(q));
        dir[0] = (float)d.x, dir[1] = (float)d.y, dir[2] = (float)d.z;
    }
    return ok;
}

/* ---- retargeting ------------------------------------------------------------------ */

static size_t sw__values_of(const sw_track* t) {
    return t->key_count * t->component_count * (t->interpolation == SW_INTERP_CUBICSPLINE ? 3u : 1u);
}

sw_result sw_vrma_retarget(const sw_vrma* a, const sw_model* dst, const sw_humanoid_map* dst_map,
                           sw_clip** out_clip, sw_vrma_retarget_info* info, sw_diag* diag) {
    if (out_clip) *out_clip = NULL;
    if (info) *info = (sw_vrma_retarget_info){0, 0, 1.0f};
    if (!a || !dst || !dst_map || !out_clip)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "VRM animation retarget: missing argument");
    const char* file = a->model->path ? a->model->path : "VRM animation";
    for (int b = 0; b < SW_HUMANOID_BONE_COUNT; b++)
        if (dst_map->node[b] >= (int32_t)dst->node_count)
            return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "VRM animation retarget: the map's %s is node %d of %zu",
                               sw_humanoid_bone_name((sw_humanoid_bone)b), dst_map->node[b], dst->node_count);
    const sw_clip* clip = a->clip;

    /* Which tracks are made, and how many floats they need. */
    int32_t rot_src[SW_HUMANOID_BONE_COUNT];
    size_t track_count = 0, floats = 0, dropped = 0;
    for (int b = 0; b < SW_HUMANOID_BONE_COUNT; b++) {
        rot_src[b] = -1;
        if (a->rotation_track[b] < 0) continue;
        if (dst_map->node[b] < 0) {
            dropped++;
            continue;
        }
        rot_src[b] = a->rotation_track[b];
        const sw_track* t = &clip->tracks[rot_src[b]];
        track_count++;
        floats += t->key_count + sw__values_of(t);
    }
    const sw_track* hips_t = NULL;
    if (a->hips_translation_track >= 0 && dst_map->node[SW_HUMANOID_HIPS] >= 0) {
        hips_t = &clip->tracks[a->hips_translation_track];
        track_count++;
        floats += hips_t->key_count + sw__values_of(hips_t);
    }
    if (track_count == 0)
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1,
                           "%s: the animation's humanoid bones with tracks and the character's share no bone", file);

    sw__md* world = sw__rest_worlds(dst);
    if (!world) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "%s: VRM animation retarget: out of memory", file);

    /* The hips: H_dst⁻¹ · s · H_src, one affine map. */
    sw__md hips_map = sw__md_identity();
    float hips_scale = 1.0f;
    if (hips_t) {
        int32_t h = dst_map->node[SW_HUMANOID_HIPS];
        double dst_y = world[h].m[1][3];
        double src_y = a->rest_hips_position.y;
        if (!(src_y > 0) || !(dst_y > 0)) {
            sw__free(world);
            return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1,
                               "%s: the hips rest height is %g in the animation and %g on the character; the hips "
                               "translation cannot be scaled",
                               file, src_y, dst_y);
        }
        double s = dst_y / src_y;
        hips_scale = (float)s;
        sw__md src_parent, dst_parent_inv = sw__md_identity();
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 4; j++) src_parent.m[i][j] = s * a->hips_parent_world.m[i][j];
        int32_t hp = dst->nodes[h].parent;
        if (hp >= 0 && !sw__md_inverse(&world[hp], &dst_parent_inv)) {
            sw__free(world);
            return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "%s: the character's hips parent has a singular matrix",
                               file);
        }
        hips_map = sw__md_mul(&dst_parent_inv, &src_parent);
    }

    size_t name_len = clip->name ? strlen(clip->name) + 1 : 0;
    size_t bytes = sizeof(sw_clip) + track_count * sizeof(sw_track) + floats * sizeof(float) + name_len;
    uint8_t* block = sw__malloc(bytes);
    if (!block) {
        sw__free(world);
        return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "%s: VRM animation retarget: out of memory", file);
    }
    sw_clip* out = (sw_clip*)block;
    sw_track* tracks = (sw_track*)(block + sizeof(sw_clip));
    float* fl = (float*)(tracks + track_count);
    char* name = (char*)(fl + floats);
    memset(out, 0, sizeof *out);
    if (name_len) memcpy(name, clip->name, name_len);
    out->name = name_len ? name : NULL;
    out->tracks = tracks;
    size_t n = 0;

    /* Parent humanoid bone in the animation: the nearest one it maps. */
    for (int b = 0; b < SW_HUMANOID_BONE_COUNT; b++) {
        if (rot_src[b] < 0) continue;
        const sw_track* src = &clip->tracks[rot_src[b]];
        sw_humanoid_bone pb = sw_humanoid_mapped_parent(&a->humanoid, (sw_humanoid_bone)b);
        sw__qd wp;
        if (pb != SW_HUMANOID_NONE) {
            wp = sw__qd_of(a->rest_world_rotation[pb]);
        } else {
            sw__md hp;
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 4; j++) hp.m[i][j] = a->hips_parent_world.m[i][j];
            wp = sw__md_rotation(&hp);
        }
        sw__qd wb_inv = sw__qd_inv(sw__qd_of(a->rest_world_rotation[b]));
        int32_t node = dst_map->node[b];
        int32_t parent = dst->nodes[node].parent;
        sw__qd P = parent >= 0 ? sw__md_rotation(&world[parent]) : (sw__qd){0, 0, 0, 1};
        sw__md local = sw__md_local(&dst->nodes[node]);
        sw__qd B = sw__md_rotation(&local);
        /* raw = P⁻¹ · (Wp · q · Wb⁻¹) · P · B = L · q · R */
        sw__qd L = sw__qd_mul(sw__qd_inv(P), wp);
        sw__qd Rq = sw__qd_mul(sw__qd_mul(wb_inv, P), B);
        sw_track* t = &tracks[n++];
        *t = *src;
        t->target = (uint32_t)node;
        float* times = fl;
        memcpy(times, src->times, src->key_count * sizeof(float));
        float* values = times + src->key_count;
        size_t count = sw__values_of(src) / 4;
        for (size_t k = 0; k < count; k++) {
            const float* q = &src->values[4 * k];
            sw__qd r = sw__qd_mul(sw__qd_mul(L, (sw__qd){q[0], q[1], q[2], q[3]}), Rq);
            values[4 * k] = (float)r.x, values[4 * k + 1] = (float)r.y;
            values[4 * k + 2] = (float)r.z, values[4 * k + 3] = (float)r.w;
        }
        t->times = times;
        t->values = values;
        fl = values + 4 * count;
    }
    if (hips_t) {
        sw_track* t = &tracks[n++];
        *t = *hips_t;
        t->target = (uint32_t)dst_map->node[SW_HUMANOID_HIPS];
        float* times = fl;
        memcpy(times, hips_t->times, hips_t->key_count * sizeof(float));
        float* values = times + hips_t->key_count;
        size_t count = sw__values_of(hips_t) / 3;
        bool cubic = hips_t->interpolation == SW_INTERP_CUBICSPLINE;
        for (size_t k = 0; k < count; k++) {
            const float* p = &hips_t->values[3 * k];
            /* CUBICSPLINE tangents (in, out of each triplet) take the linear part only */
            double w = cubic && k % 3 != 1 ? 0.0 : 1.0;
            for (int i = 0; i < 3; i++)
                values[3 * k + i] = (float)(hips_map.m[i][0] * p[0] + hips_map.m[i][1] * p[1] + hips_map.m[i][2] * p[2] +
                                            w * hips_map.m[i][3]);
        }
        t->times = times;
        t->values = values;
        fl = values + 3 * count;
    }
    out->track_count = n;
    sw__free(world);
    /* Finite keys can map past the float range (a huge hips translation
       times the height ratio): the clip's own check finds it, the message
       names the file. */
    sw_diag inner;
    if (sw_clip_finish(out, &inner) != SW_OK) {
        sw__free(block);
        return sw_diag_set(diag, inner.result, inner.index, "%s: VRM animation retarget: %s", file, inner.message);
    }
    if (info) *info = (sw_vrma_retarget_info){(uint32_t)(hips_t ? n - 1 : n), (uint32_t)dropped, hips_scale};
    *out_clip = out;
    return SW_OK;
}
