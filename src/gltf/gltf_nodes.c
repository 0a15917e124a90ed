/* glTF loader: nodes and their hierarchy, skins, scenes, and the
   parents-first reordering applied at the end of the load (see
   gltf_internal.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gltf_internal.h"

/* ---- nodes and the hierarchy ------------------------------------------------------ */

/* A column-major 4×4 from JSON, as 3×4 rows; the bottom row must be 0 0 0 1. */
static sw_result sw__read_mat4(sw__loader* L, const float* m, const char* where, sw_mat34* out) {
    const float bottom[4] = {m[3], m[7], m[11], m[15]};
    if (fabsf(bottom[0]) > 1e-5f || fabsf(bottom[1]) > 1e-5f || fabsf(bottom[2]) > 1e-5f ||
        fabsf(bottom[3] - 1.0f) > 1e-5f)
        return sw__fail(L, SW_ERR_INVALID_DATA, where,
                        "not an affine matrix (its last row is %g %g %g %g, not 0 0 0 1)", (double)bottom[0],
                        (double)bottom[1], (double)bottom[2], (double)bottom[3]);
    sw_mat4 m4;
    memcpy(m4.m, m, sizeof m4.m);
    *out = sw_mat34_from_mat4(&m4);
    return SW_OK;
}

static sw_result sw__parse_node(sw__loader* L, const cJSON* j, const char* path, sw_model_node* node) {
    const cJSON *children, *matrix, *weights;
    *node = (sw_model_node){.parent = -1, .matrix = sw_mat34_identity(), .trs = sw_transform_identity()};
    if (sw__get_name(L, j, path, &node->name) != SW_OK ||
        sw__get_index(L, j, path, "camera", false, &L->cameras, "cameras", &node->camera) != SW_OK ||
        sw__get_index(L, j, path, "mesh", false, &L->meshes, "meshes", &node->mesh) != SW_OK ||
        sw__get_index(L, j, path, "skin", false, &L->skins, "skins", &node->skin) != SW_OK ||
        sw__get_array(L, j, path, "children", false, &children) != SW_OK ||
        sw__get_array(L, j, path, "matrix", false, &matrix) != SW_OK ||
        sw__get_array(L, j, path, "weights", false, &weights) != SW_OK)
        return L->diag.result;

    size_t child_count = children ? (size_t)cJSON_GetArraySize(children) : 0;
    if (child_count) {
        uint32_t* out = sw__array(L, L->arena, child_count, sizeof *out);
        if (!out) return L->diag.result;
        size_t k = 0;
        const cJSON* c;
        cJSON_ArrayForEach(c, children) {
            if (sw__value_index(L, c, sw__pathf("%s.children[%zu]", path, k).s, L->nodes.count, "nodes", &out[k]) !=
                SW_OK)
                return L->diag.result;
            k++;
        }
        node->children = out;
        node->child_count = child_count;
    }

    bool has_trs = sw__member(j, "translation") || sw__member(j, "rotation") || sw__member(j, "scale");
    if (matrix) {
        float m[16];
        if (sw__get_floats(L, j, path, "matrix", m, 16) != SW_OK ||
            sw__read_mat4(L, m, sw__at(path, "matrix").s, &node->matrix) != SW_OK)
            return L->diag.result;
        node->has_matrix = true;
        if (has_trs) sw__warn(L, path, "has both matrix and translation/rotation/scale; the matrix is used");
    } else {
        float t[3] = {0, 0, 0}, r[4] = {0, 0, 0, 1}, s[3] = {1, 1, 1};
        if (sw__get_floats(L, j, path, "translation", t, 3) != SW_OK ||
            sw__get_floats(L, j, path, "rotation", r, 4) != SW_OK || sw__get_floats(L, j, path, "scale", s, 3) != SW_OK)
            return L->diag.result;
        double length = sqrt((double)r[0] * r[0] + (double)r[1] * r[1] + (double)r[2] * r[2] + (double)r[3] * r[3]);
        if (length < 1e-6) {
            sw__warn(L, sw__at(path, "rotation").s, "zero quaternion; identity used");
            r[0] = r[1] = r[2] = 0.0f;
            r[3] = length = 1.0f;
        } else if (fabs(length - 1.0) > 1e-3) {
            sw__warn(L, sw__at(path, "rotation").s, "not a unit quaternion (length %g); normalised", length);
        }
        node->trs.translation = sw_vec3_make(t[0], t[1], t[2]);
        node->trs.rotation = (sw_quat){(float)(r[0] / length), (float)(r[1] / length), (float)(r[2] / length),
                                       (float)(r[3] / length)};
        node->trs.scale = sw_vec3_make(s[0], s[1], s[2]);
    }

    if (weights) {
        size_t count = (size_t)cJSON_GetArraySize(weights);
        size_t expected = node->mesh >= 0 ? L->meshes_out[node->mesh].weight_count : 0;
        if (node->mesh < 0)
            sw__warn(L, sw__at(path, "weights").s, "the node has no mesh; its weights are unused");
        else if (count != expected)
            return sw__fail(L, SW_ERR_INVALID_DATA, sw__at(path, "weights").s,
                            "%zu weights, but meshes[%d] has %zu morph targets", count, (int)node->mesh, expected);
        if (count) {
            float* w = sw__array(L, L->arena, count, sizeof *w);
            if (!w || sw__get_floats(L, j, path, "weights", w, count) != SW_OK) return L->diag.result;
            node->weights = w;
            node->weight_count = count;
        }
    }
    return SW_OK;
}

/* Binary min-heap of node indices, for the smallest parents-first order. */
/* Parents from children lists, then the parents-first order of the core
   (sw_joint_order_parents_first: lowest ready index first, so files
   already parents first keep their order). sw__order_nodes applies it once
   messages name the file's indices. */
static sw_result sw__build_hierarchy(sw__loader* L) {
    size_t n = L->nodes.count;
    sw_model_node* nodes = L->nodes_out;
    for (size_t i = 0; i < n; i++) {
        for (size_t k = 0; k < nodes[i].child_count; k++) {
            uint32_t c = nodes[i].children[k];
            if (nodes[c].parent >= 0) {
                sw__path where = sw__pathf("nodes[%zu].children[%zu]", i, k);
                if ((size_t)nodes[c].parent == i)
                    return sw__fail(L, SW_ERR_INVALID_DATA, where.s, "lists nodes[%u] twice", (unsigned)c);
                return sw__fail(L, SW_ERR_INVALID_DATA, where.s,
                                "nodes[%u] is already a child of nodes[%d] (a node has at most one parent)",
                                (unsigned)c, (int)nodes[c].parent);
            }
            nodes[c].parent = (int32_t)i;
        }
    }
    if (n > SW_MAX_ORDER_JOINTS) return sw__fail(L, SW_ERR_UNSUPPORTED, "nodes", "%zu nodes is too many", n);
    uint32_t* order = sw__array(L, L->arena, n, sizeof *order);
    int32_t* parents = sw__array(L, &L->scratch, n, sizeof *parents);
    uint32_t* scratch = sw__array(L, &L->scratch, 2 * n, sizeof *scratch);
    if (!order || !parents || !scratch) return L->diag.result;
    for (size_t i = 0; i < n; i++) parents[i] = nodes[i].parent;
    sw_diag inner;
    sw_result r = sw_joint_order_parents_first(order, parents, n, scratch, &inner);
    if (r == SW_OK) {
        L->order = order;
        return SW_OK;
    }
    if (r != SW_ERR_CYCLE) return sw__fail(L, r, "nodes", "%s", inner.message);
    /* Name the cycle from its lowest node, following children round it. */
    bool* on_cycle = sw__array(L, &L->scratch, n, sizeof *on_cycle);
    if (!on_cycle) return L->diag.result;
    uint32_t x = (uint32_t)inner.index, lowest = x;
    for (uint32_t y = x;;) {
        on_cycle[y] = true;
        if (y < lowest) lowest = y;
        y = (uint32_t)nodes[y].parent;
        if (y == x) break;
    }
    char chain[96];
    size_t used = (size_t)snprintf(chain, sizeof chain, "%u", (unsigned)lowest);
    uint32_t y = lowest;
    for (int hop = 0; hop < 6; hop++) {
        uint32_t next = y;
        for (size_t k = 0; k < nodes[y].child_count; k++)
            if (on_cycle[nodes[y].children[k]]) next = nodes[y].children[k];
        y = next;
        used += (size_t)snprintf(chain + used, sizeof chain - used, " -> %u", (unsigned)y);
        if (y == lowest || used >= sizeof chain - 16) break;
    }
    if (y != lowest) snprintf(chain + used, sizeof chain - used, " -> ...");
    r = sw__fail(L, SW_ERR_CYCLE, sw__pathf("nodes[%u]", (unsigned)lowest).s,
                 "the node hierarchy has a cycle through this node (children: %s)", chain);
    L->diag.index = lowest;
    return r;
}

/* Stores the nodes parents first (L->order) and renumbers every node
   reference: parents, children, skin joints and skeletons, scene roots,
   clip targets, node extension records, lights. Morph weight offsets were assigned
   in file order and stay. */
sw_result sw__order_nodes(sw__loader* L) {
    size_t n = L->nodes.count;
    sw_model* model = &L->owner->model;
    if (n == 0) return SW_OK;
    uint32_t* rank = sw__array(L, L->arena, n, sizeof *rank);      /* file index → model index */
    sw_model_node* nodes = sw__array(L, L->arena, n, sizeof *nodes);
    uint32_t* offsets = sw__array(L, L->arena, n, sizeof *offsets);
    if (!rank || !nodes || !offsets) return L->diag.result;
    for (size_t k = 0; k < n; k++) rank[L->order[k]] = (uint32_t)k;
    for (size_t k = 0; k < n; k++) {
        sw_model_node* node = &nodes[k];
        *node = L->nodes_out[L->order[k]];
        node->source_index = L->order[k];
        if (node->parent >= 0) node->parent = (int32_t)rank[node->parent];
        uint32_t* children = (uint32_t*)node->children; /* the loader's own arena memory */
        for (size_t c = 0; c < node->child_count; c++) children[c] = rank[children[c]];
        offsets[k] = node->weight_offset;
    }
    for (size_t s = 0; s < model->skin_count; s++) {
        sw_model_skin* skin = (sw_model_skin*)&model->skins[s];
        uint32_t* joints = (uint32_t*)skin->joints;
        for (size_t j = 0; j < skin->joint_count; j++) joints[j] = rank[joints[j]];
        if (skin->skeleton >= 0) skin->skeleton = (int32_t)rank[skin->skeleton];
    }
    for (size_t s = 0; s < model->scene_count; s++) {
        uint32_t* roots = (uint32_t*)model->scenes[s].nodes;
        for (size_t k = 0; k < model->scenes[s].node_count; k++) roots[k] = rank[roots[k]];
    }
    for (size_t c = 0; c < model->animation_count; c++) {
        sw_track* tracks = (sw_track*)model->animations[c].tracks;
        for (size_t t = 0; t < model->animations[c].track_count; t++) tracks[t].target = rank[tracks[t].target];
    }
    sw_model_extension* extensions = (sw_model_extension*)model->extensions;
    for (size_t e = 0; e < model->extension_count; e++)
        if (extensions[e].object == SW_MODEL_OBJECT_NODE) extensions[e].index = rank[extensions[e].index];
    sw_model_light* lights = (sw_model_light*)model->lights; /* gltf_lights.c */
    for (size_t i = 0; i < model->light_count; i++) lights[i].node = (int32_t)rank[lights[i].node];
    model->nodes = nodes;
    model->node_from_source = rank;
    model->weight_offsets = offsets;
    /* The rest pose once, in model order, so a pose starts from two copies. */
    sw_transform* rest = sw__array(L, L->arena, n, sizeof *rest);
    float* rest_weights = sw__array(L, L->arena, model->weight_count ? model->weight_count : 1, sizeof *rest_weights);
    if (!rest || !rest_weights) return L->diag.result;
    sw__model_rest_pose(model, rest, rest_weights);
    model->rest_local = rest;
    model->rest_weights = rest_weights;
    return SW_OK;
}

sw_result sw__parse_nodes(sw__loader* L) {
    size_t n = L->nodes.count;
    if (n == 0) return SW_OK;
    L->nodes_out = sw__array(L, L->arena, n, sizeof *L->nodes_out);
    if (!L->nodes_out) return L->diag.result;
    for (size_t i = 0; i < n; i++)
        if (sw__parse_node(L, L->nodes.items[i], sw__pathf("nodes[%zu]", i).s, &L->nodes_out[i]) != SW_OK)
            return L->diag.result;
    if (sw__build_hierarchy(L) != SW_OK) return L->diag.result;
    L->owner->model.nodes = L->nodes_out;
    L->owner->model.node_count = n;
    return SW_OK;
}

/* ---- skins and scenes --------------------------------------------------------------- */

sw_result sw__parse_skins(sw__loader* L) {
    size_t n = L->skins.count;
    if (n == 0) return SW_OK;
    sw_model_skin* skins = sw__array(L, L->arena, n, sizeof *skins);
    if (!skins) return L->diag.result;
    L->skins_out = skins;
    for (size_t i = 0; i < n; i++) {
        const cJSON* j = L->skins.items[i];
        sw__path path = sw__pathf("skins[%zu]", i);
        const cJSON* joints;
        int32_t ibm;
        if (sw__get_name(L, j, path.s, &skins[i].name) != SW_OK ||
            sw__get_array(L, j, path.s, "joints", true, &joints) != SW_OK ||
            sw__get_index(L, j, path.s, "inverseBindMatrices", false, &L->accessors, "accessors", &ibm) != SW_OK ||
            sw__get_index(L, j, path.s, "skeleton", false, &L->nodes, "nodes", &skins[i].skeleton) != SW_OK)
            return L->diag.result;
        size_t count = (size_t)cJSON_GetArraySize(joints);
        if (count == 0) return sw__fail(L, SW_ERR_INVALID_DATA, sw__at(path.s, "joints").s, "is empty");
        uint32_t* out = sw__array(L, L->arena, count, sizeof *out);
        sw_mat34* inverse_bind = sw__array(L, L->arena, count, sizeof *inverse_bind);
        if (!out || !inverse_bind) return L->diag.result;
        size_t k = 0;
        const cJSON* e;
        cJSON_ArrayForEach(e, joints) {
            if (sw__value_index(L, e, sw__pathf("%s.joints[%zu]", path.s, k).s, L->nodes.count, "nodes", &out[k]) !=
                SW_OK)
                return L->diag.result;
            k++;
        }
        if (ibm >= 0) {
            sw__path where = sw__at(path.s, "inverseBindMatrices");
            const sw__gltf_accessor* a;
            if (sw__use_accessor(L, where.s, (uint32_t)ibm, SW__MAT4, SW__FLOAT, &a) != SW_OK) return L->diag.result;
            if (a->count < count)
                return sw__fail(L, SW_ERR_INVALID_DATA, where.s, "accessors[%d] has %zu matrices for %zu joints",
                                (int)ibm, a->count, count);
            /* one matrix per joint: the ones past them (allowed) are not decoded */
            sw__gltf_accessor used = sw__gltf_accessor_prefix(a, count);
            float* m = sw__decode_floats(L, where.s, (uint32_t)ibm, &used, true);
            if (!m) return L->diag.result;
            for (size_t jn = 0; jn < count; jn++) {
                if (sw__read_mat4(L, &m[jn * 16], sw__pathf("%s[%zu]", where.s, jn).s, &inverse_bind[jn]) != SW_OK) {
                    sw__temp_free(L, m);
                    return L->diag.result;
                }
            }
            sw__temp_free(L, m);
        } else {
            for (size_t jn = 0; jn < count; jn++) inverse_bind[jn] = sw_mat34_identity();
        }
        skins[i].joints = out;
        skins[i].joint_count = count;
        skins[i].inverse_bind = inverse_bind;
    }
    L->owner->model.skins = skins;
    L->owner->model.skin_count = n;
    return SW_OK;
}

sw_result sw__parse_scenes(sw__loader* L) {
    size_t n = L->scenes.count;
    sw_model_scene* scenes = n ? sw__array(L, L->arena, n, sizeof *scenes) : NULL;
    if (n && !scenes) return L->diag.result;
    for (size_t i = 0; i < n; i++) {
        const cJSON* j = L->scenes.items[i];
        sw__path path = sw__pathf("scenes[%zu]", i);
        const cJSON* roots;
        if (sw__get_name(L, j, path.s, &scenes[i].name) != SW_OK ||
            sw__get_array(L, j, path.s, "nodes", false, &roots) != SW_OK)
            return L->diag.result;
        size_t count = roots ? (size_t)cJSON_GetArraySize(roots) : 0;
        if (!count) continue;
        uint32_t* out = sw__array(L, L->arena, count, sizeof *out);
        if (!out) return L->diag.result;
        size_t k = 0;
        const cJSON* e;
        cJSON_ArrayForEach(e, roots) {
            sw__path where = sw__pathf("%s.nodes[%zu]", path.s, k);
            if (sw__value_index(L, e, where.s, L->nodes.count, "nodes", &out[k]) != SW_OK) return L->diag.result;
            if (L->nodes_out[out[k]].parent >= 0)
                sw__warn(L, where.s, "nodes[%u] is not a root (its parent is nodes[%d])", (unsigned)out[k],
                         (int)L->nodes_out[out[k]].parent);
            k++;
        }
        scenes[i].nodes = out;
        scenes[i].node_count = count;
    }
    L->owner->model.scenes = scenes;
    L->owner->model.scene_count = n;
    int32_t scene;
    if (sw__get_index(L, L->root, "", "scene", false, &L->scenes, "scenes", &scene) != SW_OK) return L->diag.result;
    L->owner->model.default_scene = scene >= 0 ? scene : n ? 0 : -1;
    return SW_OK;
}

/* Every skinned instance's joint indices must lie within its skin. */
sw_result sw__check_skinned_nodes(sw__loader* L) {
    for (size_t i = 0; i < L->nodes.count; i++) {
        const sw_model_node* node = &L->nodes_out[i];
        if (node->skin < 0) continue;
        sw__path path = sw__pathf("nodes[%zu]", i);
        if (node->mesh < 0) {
            sw__warn(L, path.s, "has a skin but no mesh");
            continue;
        }
        const sw_model_mesh* mesh = &L->meshes_out[node->mesh];
        const sw_model_skin* skin = &L->skins_out[node->skin];
        size_t unskinned = 0;
        for (size_t p = 0; p < mesh->primitive_count; p++) {
            const sw_model_primitive* prim = &mesh->primitives[p];
            if (prim->influence_count == 0) {
                unskinned++;
                continue;
            }
            size_t slots = prim->vertex_count * (size_t)prim->influence_count;
            for (size_t e = 0; e < slots; e++) {
                if (prim->joints[e] >= skin->joint_count) {
                    size_t v = e / (size_t)prim->influence_count;
                    sw_result r = sw__fail(L, SW_ERR_INDEX_OUT_OF_RANGE, path.s,
                                           "meshes[%d].primitives[%zu]: vertex %zu uses joint %u, but skins[%d] "
                                           "has %zu joints",
                                           (int)node->mesh, p, v, (unsigned)prim->joints[e], (int)node->skin,
                                           skin->joint_count);
                    L->diag.index = (int64_t)v;
                    return r;
                }
            }
        }
        if (unskinned)
            sw__warn(L, path.s, "has skins[%d], but %zu of the %zu primitives of meshes[%d] have no JOINTS_0/WEIGHTS_0",
                     (int)node->skin, unskinned, mesh->primitive_count, (int)node->mesh);
    }
    return SW_OK;
}

/* ---- the memory plan: skins ------------------------------------------------------------ */

/* Inverse bind matrices: one per joint is decoded, as a temporary. The
   joints are a JSON array, so the file backs their count. */
sw_result sw__plan_skins(sw__loader* L, sw__plan* plan) {
    for (size_t i = 0; i < L->skins.count; i++) {
        const cJSON* joints = sw__member(L->skins.items[i], "joints");
        uint32_t ibm;
        if (!cJSON_IsArray(joints) || !sw__plan_index(L, sw__member(L->skins.items[i], "inverseBindMatrices"), &ibm))
            continue;
        size_t count = (size_t)cJSON_GetArraySize(joints);
        if (L->acc[ibm].count >= count)
            sw__plan_add(plan, sw__pathf("skins[%zu].inverseBindMatrices", i).s, ibm,
                         sw__plan_mul(count, 16 * sizeof(float)), true);
    }
    return SW_OK;
}
