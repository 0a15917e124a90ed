/* The spring-bone readers (sinew/spring.h): VRMC_springBone (VRM 1.0), our
   own SW_spring_bones (the same shape, docs/extensions.md) and VRM 0.x
   secondaryAnimation, from the model's extension records, each parsed once
   through the JSON layer (json_internal.h). Node indices in that JSON are
   the file's and go through model->node_from_source; messages name the
   file's indices, as the file does.

   What is read is collected in growable arrays and handed over as one
   owner (sw__spring_owned), freed by sw_spring_set_free. A spring or a
   VRM 0.x root is added tentatively and rolled back (counts restored) when
   a later check drops it. */
#include "sinew/spring.h"

#include "../base/base_internal.h"
#include "../runtime/spring_internal.h"
#include "json_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct sw__spring_owned {
    sw_spring_set set; /* first: sw_spring_set_free casts back */
    sw_spring_joint* joints;
    sw_spring_chain* chains;
    uint32_t* chain_groups;
    sw_spring_collider* colliders;
    sw_spring_collider_group* groups;
    uint32_t* group_colliders;
    sw__json_owned mem; /* names and warning lines */
    size_t joint_cap, chain_cap, chain_group_cap, collider_cap, group_cap, group_collider_cap;
} sw__spring_owned;

typedef struct sw__reader {
    sw__json J;
    const sw_model* model;
    sw__spring_owned* out;
    uint8_t* used;       /* node_count marks: heads and in-between nodes of accepted chains */
    uint32_t* scratch;   /* node_count: the VRM 0.x traversal stack */
} sw__reader;

/* ---- growable arrays ------------------------------------------------------------------------- */

/* Room for one more item in *items (count used, *cap allocated). */
static bool sw__grow(void** items, size_t* cap, size_t count, size_t size) {
    if (count < *cap) return true;
    size_t next = *cap ? *cap * 2 : 8, bytes;
    if (!sw_mul_size(next, size, &bytes)) return false;
    void* p = sw__realloc(*items, bytes);
    if (!p) return false;
    *items = p;
    *cap = next;
    return true;
}

/* A file node index to the model's, or false (out of range). */
static bool sw__node(sw__reader* R, int64_t file_index, uint32_t* out) {
    if (file_index < 0 || (uint64_t)file_index >= R->model->node_count) return false;
    *out = R->model->node_from_source[file_index];
    return true;
}

static uint32_t sw__file_index(sw__reader* R, uint32_t node) { return R->model->nodes[node].source_index; }

/* [x, y, z] (VRM 1.0) into *out when present. */
static sw_result sw__vec3_array(sw__reader* R, const cJSON* object, const char* key, sw_vec3* out) {
    float f[3] = {out->x, out->y, out->z};
    if (sw__json_floats(&R->J, object, key, 3, false, f) != SW_OK) return SW_ERR_INVALID_DATA;
    *out = sw_vec3_make(f[0], f[1], f[2]);
    return SW_OK;
}

/* {"x":, "y":, "z":} (VRM 0.x; missing components are 0 when the object is there). */
static sw_result sw__vec3_object(sw__reader* R, const cJSON* object, const char* key, sw_vec3* out) {
    float f[3] = {out->x, out->y, out->z};
    if (sw__json_xyz(&R->J, object, key, f) != SW_OK) return SW_ERR_INVALID_DATA;
    *out = sw_vec3_make(f[0], f[1], f[2]);
    return SW_OK;
}

/* ---- adding to the set -------------------------------------------------------------------------- */

/* Appends `value` to one of the set's growing arrays (`items`, with its
   capacity `cap` and the set's `count`) and points the set at the array;
   false when out of memory. The owned array and the set's member share a
   name. */
#define SW__APPEND(R, items, cap, count, value)                                                        \
    (sw__grow((void**)&(R)->out->items, &(R)->out->cap, (R)->out->set.count, sizeof *(R)->out->items) && \
     ((R)->out->items[(R)->out->set.count++] = (value), (R)->out->set.items = (R)->out->items, true))

static bool sw__add_joint(sw__reader* R, const sw_spring_joint* j) {
    return SW__APPEND(R, joints, joint_cap, joint_count, *j);
}
static bool sw__add_chain_group(sw__reader* R, uint32_t group) {
    return SW__APPEND(R, chain_groups, chain_group_cap, chain_group_count, group);
}
static bool sw__add_chain(sw__reader* R, const sw_spring_chain* c) {
    return SW__APPEND(R, chains, chain_cap, chain_count, *c);
}
static bool sw__add_collider(sw__reader* R, const sw_spring_collider* c) {
    return SW__APPEND(R, colliders, collider_cap, collider_count, *c);
}
static bool sw__add_group_collider(sw__reader* R, uint32_t collider) {
    return SW__APPEND(R, group_colliders, group_collider_cap, group_collider_count, collider);
}
static bool sw__add_group(sw__reader* R, const sw_spring_collider_group* g) {
    return SW__APPEND(R, groups, group_cap, group_count, *g);
}

/* The checks sw_spring_sizes_of makes on one chain's bones (given its
   joints' nodes), except ancestor order, which the caller has checked; also
   that no head or in-between node is in an accepted chain already. NULL
   when the chain can be kept, else what is wrong (written into `why`). */
static const char* sw__chain_problem(sw__reader* R, const uint32_t* nodes, size_t count, float tail_length,
                                     char* why, size_t why_size) {
    const sw_model* m = R->model;
    size_t bones = count - 1 + (tail_length > 0.0f ? 1 : 0);
    for (size_t k = 0; k < bones; k++) {
        uint32_t head = nodes[k];
        if (m->nodes[head].has_matrix) {
            snprintf(why, why_size, "node %u swings but has a matrix transform", sw__file_index(R, head));
            return why;
        }
        sw_vec3 tail_local;
        if (k + 1 < count) {
            tail_local = sw__spring_tail_local_of_node(m, head, nodes[k + 1]);
        } else {
            const char* problem = NULL;
            if (sw__spring_virtual_tail(m, head, tail_length, &tail_local, &problem) != SW_OK) {
                snprintf(why, why_size, "node %u: %s", sw__file_index(R, head), problem);
                return why;
            }
        }
        if (!sw__spring_bone_has_length(m, head, tail_local)) {
            snprintf(why, why_size, "the bone from node %u has zero length at rest", sw__file_index(R, head));
            return why;
        }
        if (R->used[head]) {
            snprintf(why, why_size, "node %u is already in an earlier chain", sw__file_index(R, head));
            return why;
        }
        if (k + 1 < count)
            for (int32_t p = m->nodes[nodes[k + 1]].parent; p >= 0 && (uint32_t)p != head; p = m->nodes[p].parent)
                if (R->used[p]) {
                    snprintf(why, why_size, "node %u is already in an earlier chain", sw__file_index(R, (uint32_t)p));
                    return why;
                }
    }
    return NULL;
}

static void sw__mark_chain(sw__reader* R, const uint32_t* nodes, size_t count, float tail_length) {
    const sw_model* m = R->model;
    size_t bones = count - 1 + (tail_length > 0.0f ? 1 : 0);
    for (size_t k = 0; k < bones; k++) {
        R->used[nodes[k]] = 1;
        if (k + 1 < count)
            for (int32_t p = m->nodes[nodes[k + 1]].parent; p >= 0 && (uint32_t)p != nodes[k]; p = m->nodes[p].parent)
                R->used[p] = 1;
    }
}

/* ---- VRM 1.0: VRMC_springBone ------------------------------------------------------------------- */

/* The collider's extensions.VRMC_springBone_extended_collider (at the
   collider's path), as three-vrm 3.x reads it: with specVersion "1.0", its
   sphere, capsule or plane (the first present, in that order) replaces
   *col. Anything else leaves *col as the collider's own shape, with a
   warning. */
static sw_result sw__extended_collider1(sw__reader* R, const cJSON* c, sw_spring_collider* col) {
    sw__json* J = &R->J;
    const cJSON *exts, *ext, *shape, *sphere, *capsule, *plane;
    const char* spec;
    if (sw__json_object(J, c, "extensions", false, &exts) != SW_OK) return SW_ERR_INVALID_DATA;
    if (!exts) return SW_OK;
    size_t mark = sw__json_push(J, "extensions");
    if (sw__json_object(J, exts, "VRMC_springBone_extended_collider", false, &ext) != SW_OK)
        return SW_ERR_INVALID_DATA;
    if (!ext) {
        sw__json_pop(J, mark);
        return SW_OK;
    }
    sw__json_push(J, "VRMC_springBone_extended_collider");
    if (sw__json_string(J, ext, "specVersion", false, &spec) != SW_OK ||
        sw__json_object(J, ext, "shape", false, &shape) != SW_OK)
        return SW_ERR_INVALID_DATA;
    sphere = capsule = plane = NULL;
    if (!spec || strcmp(spec, "1.0") != 0) {
        if (!sw__json_warn(J, "specVersion", "unknown version \"%.40s\"; the collider's own shape is used",
                           spec ? spec : "(none)"))
            return sw__json_out_of_memory(J);
        sw__json_pop(J, mark);
        return SW_OK;
    }
    if (shape) {
        size_t shape_mark = sw__json_push(J, "shape");
        if (sw__json_object(J, shape, "sphere", false, &sphere) != SW_OK ||
            sw__json_object(J, shape, "capsule", false, &capsule) != SW_OK ||
            sw__json_object(J, shape, "plane", false, &plane) != SW_OK)
            return SW_ERR_INVALID_DATA;
        sw__json_pop(J, shape_mark);
    }
    if (!sphere && !capsule && !plane) {
        if (!sw__json_warn(J, "shape", "no sphere, capsule or plane; the collider's own shape is used"))
            return sw__json_out_of_memory(J);
        sw__json_pop(J, mark);
        return SW_OK;
    }
    sw_spring_collider e = {0};
    e.node = col->node;
    e.normal = sw_vec3_make(0.0f, 0.0f, 1.0f);
    const cJSON* s = sphere ? sphere : capsule ? capsule : plane;
    e.shape = sphere ? SW_SPRING_SPHERE : capsule ? SW_SPRING_CAPSULE : SW_SPRING_PLANE;
    sw__json_push(J, "shape");
    sw__json_push(J, sphere ? "sphere" : capsule ? "capsule" : "plane");
    if (sw__vec3_array(R, s, "offset", &e.offset) != SW_OK) return SW_ERR_INVALID_DATA;
    if (e.shape == SW_SPRING_PLANE) {
        if (sw__vec3_array(R, s, "normal", &e.normal) != SW_OK) return SW_ERR_INVALID_DATA;
        if (!(sw_vec3_length(e.normal) > 0.0f)) {
            if (!sw__json_warn(J, "normal", "a normal of zero length; the collider's own shape is used"))
                return sw__json_out_of_memory(J);
            sw__json_pop(J, mark);
            return SW_OK;
        }
    } else {
        if (sw__json_float(J, s, "radius", false, &e.radius) != SW_OK ||
            sw__json_bool(J, s, "inside", &e.inside) != SW_OK ||
            (capsule && sw__vec3_array(R, s, "tail", &e.tail) != SW_OK))
            return SW_ERR_INVALID_DATA;
        if (!sw__json_clamp(J, "radius", &e.radius, 0.0f, INFINITY)) return sw__json_out_of_memory(J);
    }
    sw__json_pop(J, mark);
    *col = e;
    return SW_OK;
}

/* One collider (at the current path, colliders[i]) into the set: *mapped
   its index there, UINT32_MAX when it is skipped (with a warning). */
static sw_result sw__collider1(sw__reader* R, const cJSON* c, uint32_t* mapped) {
    sw__json* J = &R->J;
    *mapped = UINT32_MAX;
    int64_t node_file = 0;
    const cJSON *shape, *sphere, *capsule;
    if (sw__json_expect_object(J, c) != SW_OK || sw__json_index(J, c, "node", true, NULL, &node_file) != SW_OK ||
        sw__json_object(J, c, "shape", true, &shape) != SW_OK)
        return SW_ERR_INVALID_DATA;
    size_t mark = sw__json_push(J, "shape");
    if (sw__json_object(J, shape, "sphere", false, &sphere) != SW_OK ||
        sw__json_object(J, shape, "capsule", false, &capsule) != SW_OK)
        return SW_ERR_INVALID_DATA;
    sw_spring_collider col = {0};
    if (!sw__node(R, node_file, &col.node)) {
        sw__json_pop(J, mark);
        return sw__json_warn(J, "node", "node %lld out of range (%zu nodes); collider skipped", (long long)node_file,
                             R->model->node_count)
                   ? SW_OK
                   : sw__json_out_of_memory(J);
    }
    if (!sphere && !capsule)
        return sw__json_warn(J, NULL, "neither sphere nor capsule; collider skipped") ? SW_OK
                                                                                      : sw__json_out_of_memory(J);
    if (sphere && capsule && !sw__json_warn(J, NULL, "both sphere and capsule; the sphere is used"))
        return sw__json_out_of_memory(J);
    const cJSON* s = sphere ? sphere : capsule;
    sw__json_push(J, sphere ? "sphere" : "capsule");
    col.shape = sphere ? SW_SPRING_SPHERE : SW_SPRING_CAPSULE;
    if (sw__vec3_array(R, s, "offset", &col.offset) != SW_OK ||
        sw__json_float(J, s, "radius", false, &col.radius) != SW_OK ||
        (!sphere && sw__vec3_array(R, s, "tail", &col.tail) != SW_OK))
        return SW_ERR_INVALID_DATA;
    if (!sw__json_clamp(J, "radius", &col.radius, 0.0f, INFINITY)) return sw__json_out_of_memory(J);
    sw__json_pop(J, mark);
    if (sw__extended_collider1(R, c, &col) != SW_OK) return SW_ERR_INVALID_DATA;
    *mapped = (uint32_t)R->out->set.collider_count;
    return sw__add_collider(R, &col) ? SW_OK : sw__json_out_of_memory(J);
}

/* One collider group (at the current path), one to one; its references go
   through collider_map (file index → set index, UINT32_MAX: skipped). */
static sw_result sw__collider_group1(sw__reader* R, const cJSON* g, const uint32_t* collider_map,
                                     size_t collider_total) {
    sw__json* J = &R->J;
    const char* name;
    const cJSON* list;
    if (sw__json_expect_object(J, g) != SW_OK || sw__json_string(J, g, "name", false, &name) != SW_OK ||
        sw__json_array(J, g, "colliders", true, &list) != SW_OK)
        return SW_ERR_INVALID_DATA;
    sw_spring_collider_group group = {0};
    if (name && !(group.name = sw__json_copy(J, name))) return sw__json_out_of_memory(J);
    group.first_collider = R->out->set.group_collider_count;
    size_t mark = sw__json_push(J, "colliders");
    for (sw__json_each it = sw__json_each_of(J, list); sw__json_next(J, &it);) {
        int64_t index = 0;
        if (sw__json_index_value(J, it.value, &index) != SW_OK) return SW_ERR_INVALID_DATA;
        if (index < 0 || (uint64_t)index >= collider_total) {
            if (!sw__json_warn(J, NULL, "collider %lld out of range (%zu colliders); reference skipped",
                               (long long)index, collider_total))
                return sw__json_out_of_memory(J);
            continue;
        }
        if (collider_map[index] == UINT32_MAX) continue; /* skipped above, with its warning */
        if (!sw__add_group_collider(R, collider_map[index])) return sw__json_out_of_memory(J);
        group.collider_count++;
    }
    sw__json_pop(J, mark);
    return sw__add_group(R, &group) ? SW_OK : sw__json_out_of_memory(J);
}

/* A spring's joints (at the spring's path): every joint is parsed (errors
   first), then checked until one drops the spring (*skip, a warning).
   *count: the joints in the file; the nodes of those kept in R->scratch. */
static sw_result sw__joints1(sw__reader* R, const cJSON* joints, bool* skip, size_t* count) {
    sw__json* J = &R->J;
    const sw_model* m = R->model;
    uint32_t* nodes = R->scratch;
    size_t mark = sw__json_push(J, "joints"), k = 0;
    for (sw__json_each it = sw__json_each_of(J, joints); sw__json_next(J, &it);) {
        const cJSON* jv = it.value;
        int64_t node_file = 0;
        /* the schema's defaults, UniVRM's too; three-vrm takes 0.4 for a missing dragForce */
        sw_spring_joint j = {0, 1.0f, 0.5f, 0.0f, {0.0f, -1.0f, 0.0f}, 0.0f};
        if (sw__json_expect_object(J, jv) != SW_OK ||
            sw__json_index(J, jv, "node", true, NULL, &node_file) != SW_OK ||
            sw__json_float(J, jv, "stiffness", false, &j.stiffness) != SW_OK ||
            sw__json_float(J, jv, "dragForce", false, &j.drag_force) != SW_OK ||
            sw__json_float(J, jv, "gravityPower", false, &j.gravity_power) != SW_OK ||
            sw__vec3_array(R, jv, "gravityDir", &j.gravity_dir) != SW_OK ||
            sw__json_float(J, jv, "hitRadius", false, &j.hit_radius) != SW_OK)
            return SW_ERR_INVALID_DATA;
        k++;
        if (*skip) continue;
        if (!sw__node(R, node_file, &j.node)) {
            if (!sw__json_warn(J, "node", "node %lld out of range (%zu nodes); spring skipped", (long long)node_file,
                               m->node_count))
                return sw__json_out_of_memory(J);
            *skip = true;
            continue;
        }
        if (k > 1 && !sw__spring_is_ancestor(m, nodes[k - 2], j.node)) {
            if (!sw__json_warn(J, NULL, "node %u is not a descendant of the joint before it (node %u); spring skipped",
                               sw__file_index(R, j.node), sw__file_index(R, nodes[k - 2])))
                return sw__json_out_of_memory(J);
            *skip = true;
            continue;
        }
        if (!sw__json_clamp(J, "stiffness", &j.stiffness, 0.0f, INFINITY) ||
            !sw__json_clamp(J, "dragForce", &j.drag_force, 0.0f, 1.0f) ||
            !sw__json_clamp(J, "gravityPower", &j.gravity_power, 0.0f, INFINITY) ||
            !sw__json_clamp(J, "hitRadius", &j.hit_radius, 0.0f, INFINITY))
            return sw__json_out_of_memory(J);
        nodes[k - 1] = j.node;
        if (!sw__add_joint(R, &j)) return sw__json_out_of_memory(J);
    }
    sw__json_pop(J, mark);
    *count = k;
    return SW_OK;
}

/* A spring's or 0.x bone group's collider group references (its
   colliderGroups, at its path); all checked, none added when `skip`. */
static sw_result sw__group_refs(sw__reader* R, const cJSON* refs, bool skip, size_t group_total) {
    sw__json* J = &R->J;
    size_t mark = sw__json_push(J, "colliderGroups");
    for (sw__json_each it = sw__json_each_of(J, refs); sw__json_next(J, &it);) {
        int64_t index = 0;
        if (sw__json_index_value(J, it.value, &index) != SW_OK) return SW_ERR_INVALID_DATA;
        if (skip) continue;
        if (index < 0 || (uint64_t)index >= group_total) {
            if (!sw__json_warn(J, NULL, "collider group %lld out of range (%zu groups); reference skipped",
                               (long long)index, group_total))
                return sw__json_out_of_memory(J);
            continue;
        }
        if (!sw__add_chain_group(R, (uint32_t)index)) return sw__json_out_of_memory(J);
    }
    sw__json_pop(J, mark);
    return SW_OK;
}

/* One spring (at the current path) into a chain, or dropped with a warning. */
static sw_result sw__spring1(sw__reader* R, const cJSON* sp, size_t group_total) {
    sw__json* J = &R->J;
    sw__spring_owned* o = R->out;
    const char* name;
    const cJSON *joints, *refs;
    bool has_center = false;
    int64_t center = 0;
    if (sw__json_expect_object(J, sp) != SW_OK || sw__json_string(J, sp, "name", false, &name) != SW_OK ||
        sw__json_array(J, sp, "joints", true, &joints) != SW_OK ||
        sw__json_array(J, sp, "colliderGroups", false, &refs) != SW_OK ||
        sw__json_index(J, sp, "center", false, &has_center, &center) != SW_OK)
        return SW_ERR_INVALID_DATA;
    const size_t joint_mark = o->set.joint_count, group_mark = o->set.chain_group_count;
    sw_spring_chain chain = {0};
    chain.first_joint = joint_mark;
    chain.first_group = group_mark;
    bool skip = false;
    size_t k = 0;
    sw_result r = sw__joints1(R, joints, &skip, &k);
    if (r == SW_OK) r = sw__group_refs(R, refs, skip, group_total);
    if (r != SW_OK) return r;
    chain.joint_count = o->set.joint_count - joint_mark;
    chain.group_count = o->set.chain_group_count - group_mark;
    if (!skip && k == 0) {
        if (!sw__json_warn(J, "joints", "no joints; spring skipped")) return sw__json_out_of_memory(J);
        skip = true;
    } else if (!skip && k == 1) {
        if (!sw__json_warn(J, "joints", "one joint: the last joint is only a tail, nothing swings; spring skipped"))
            return sw__json_out_of_memory(J);
        skip = true;
    }
    char why[160];
    const char* problem = skip ? NULL : sw__chain_problem(R, R->scratch, chain.joint_count, 0.0f, why, sizeof why);
    if (problem) {
        if (!sw__json_warn(J, NULL, "%s; spring skipped", problem)) return sw__json_out_of_memory(J);
        skip = true;
    }
    if (skip) {
        o->set.joint_count = joint_mark;
        o->set.chain_group_count = group_mark;
        return SW_OK;
    }
    /* -1: none, as UniVRM writes it */
    if (has_center && center >= 0) {
        if (sw__node(R, center, &chain.center))
            chain.has_center = true;
        else if (!sw__json_warn(J, "center", "node %lld out of range (%zu nodes); simulated in world space",
                                (long long)center, R->model->node_count))
            return sw__json_out_of_memory(J);
    }
    if (name && !(chain.name = sw__json_copy(J, name))) return sw__json_out_of_memory(J);
    sw__mark_chain(R, R->scratch, chain.joint_count, 0.0f);
    return sw__add_chain(R, &chain) ? SW_OK : sw__json_out_of_memory(J);
}

/* Also reads SW_spring_bones (docs/extensions.md), which has the same shape;
   `source` says which of the two it was. The path is the record's. */
static sw_result sw__read_vrm1(sw__reader* R, const cJSON* root, sw_spring_source source) {
    sw__json* J = &R->J;
    if (sw__json_expect_object(J, root) != SW_OK) return SW_ERR_INVALID_DATA;
    R->out->set.source = source;
    const char* spec;
    if (sw__json_string(J, root, "specVersion", false, &spec) != SW_OK) return SW_ERR_INVALID_DATA;
    if (!spec) {
        if (!sw__json_warn(J, "specVersion", "missing; read as 1.0")) return sw__json_out_of_memory(J);
    } else if (strcmp(spec, "1.0") != 0 && strcmp(spec, "1.0-beta") != 0) {
        if (!sw__json_warn(J, "specVersion", "unknown version \"%.40s\"; read as 1.0", spec))
            return sw__json_out_of_memory(J);
    }
    const cJSON *colliders, *groups, *springs;
    if (sw__json_array(J, root, "colliders", false, &colliders) != SW_OK ||
        sw__json_array(J, root, "colliderGroups", false, &groups) != SW_OK ||
        sw__json_array(J, root, "springs", false, &springs) != SW_OK)
        return SW_ERR_INVALID_DATA;
    /* Colliders: file index → set index, or UINT32_MAX when skipped. */
    size_t collider_total = sw__json_count(colliders);
    uint32_t* collider_map = NULL;
    if (collider_total && !(collider_map = sw__malloc(collider_total * sizeof *collider_map)))
        return sw__json_out_of_memory(J);
    sw_result r = SW_OK;
    size_t mark = sw__json_push(J, "colliders");
    for (sw__json_each it = sw__json_each_of(J, colliders); r == SW_OK && sw__json_next(J, &it);)
        r = sw__collider1(R, it.value, &collider_map[it.index]);
    sw__json_pop(J, mark);
    mark = sw__json_push(J, "colliderGroups");
    for (sw__json_each it = sw__json_each_of(J, groups); r == SW_OK && sw__json_next(J, &it);)
        r = sw__collider_group1(R, it.value, collider_map, collider_total);
    sw__json_pop(J, mark);
    const size_t group_total = R->out->set.group_count;
    mark = sw__json_push(J, "springs");
    for (sw__json_each it = sw__json_each_of(J, springs); r == SW_OK && sw__json_next(J, &it);)
        r = sw__spring1(R, it.value, group_total);
    sw__json_pop(J, mark);
    sw__free(collider_map);
    return r;
}

/* ---- VRM 0.x: VRM.secondaryAnimation -------------------------------------------------------------- */

/* Adds the chains of the tree under `root` (see spring.h): from each start,
   follow first children down to a leaf; the other children of the nodes on
   the way start chains of their own. Every node is pushed at most once, so
   the stack needs at most node_count entries. The stack of starts is the first half
   of R->scratch, a chain's node list the second. *out_problem is set (and
   the walk stops) when a chain cannot be kept: the caller rolls the whole
   tree back. */
static bool sw__vrm0_tree(sw__reader* R, uint32_t root, const sw_spring_joint* params, size_t first_group,
                          size_t group_count, const char* name, const char** out_problem, char* why, size_t why_size) {
    const sw_model* m = R->model;
    sw__spring_owned* o = R->out;
    uint32_t* stack = R->scratch;
    uint32_t* list = R->scratch + m->node_count;
    size_t top = 0;
    stack[top++] = root;
    *out_problem = NULL;
    while (top) {
        sw_spring_chain chain = {0};
        chain.name = name;
        chain.first_joint = o->set.joint_count;
        chain.first_group = first_group;
        chain.group_count = group_count;
        chain.tail_length = SW_SPRING_VRM0_TAIL_LENGTH;
        for (uint32_t n = stack[--top];;) {
            sw_spring_joint j = *params;
            j.node = n;
            list[chain.joint_count++] = n;
            if (!sw__add_joint(R, &j)) return false;
            if (!m->nodes[n].child_count) break;
            n = m->nodes[n].children[0];
        }
        /* The other children start chains of their own, pushed so that they
           come out from the bottom of this chain up, each node's in file
           order: the joints then come in the tree's pre-order, the order
           three-vrm adds them in (its sort starts from that order). */
        for (size_t k = 0; k < chain.joint_count; k++) {
            const sw_model_node* node = &m->nodes[list[k]];
            for (size_t c = node->child_count; c-- > 1;) stack[top++] = node->children[c];
        }
        if (!sw__add_chain(R, &chain)) return false;
        /* One problem drops the whole tree (the caller rolls it back): the
           rest of the walk would change nothing, and stopping here keeps a
           file that names one big tree as many roots linear. */
        if ((*out_problem = sw__chain_problem(R, list, chain.joint_count, chain.tail_length, why, why_size)))
            return true;
    }
    return true;
}

/* One colliderGroups entry (at the current path): the spheres of a group
   on its node; a node out of range leaves the group without colliders. */
static sw_result sw__collider_group0(sw__reader* R, const cJSON* g) {
    sw__json* J = &R->J;
    sw__spring_owned* o = R->out;
    int64_t node_file = 0;
    const cJSON* list;
    if (sw__json_expect_object(J, g) != SW_OK || sw__json_index(J, g, "node", true, NULL, &node_file) != SW_OK ||
        sw__json_array(J, g, "colliders", false, &list) != SW_OK)
        return SW_ERR_INVALID_DATA;
    sw_spring_collider_group group = {0};
    group.first_collider = o->set.group_collider_count;
    uint32_t node = 0;
    bool node_ok = sw__node(R, node_file, &node);
    if (!node_ok && !sw__json_warn(J, "node", "node %lld out of range (%zu nodes); the group has no colliders",
                                   (long long)node_file, R->model->node_count))
        return sw__json_out_of_memory(J);
    size_t mark = sw__json_push(J, "colliders");
    for (sw__json_each it = sw__json_each_of(J, list); sw__json_next(J, &it);) {
        sw_spring_collider col = {0};
        col.node = node;
        col.shape = SW_SPRING_SPHERE;
        if (sw__json_expect_object(J, it.value) != SW_OK ||
            sw__vec3_object(R, it.value, "offset", &col.offset) != SW_OK ||
            sw__json_float(J, it.value, "radius", false, &col.radius) != SW_OK)
            return SW_ERR_INVALID_DATA;
        col.offset.z = -col.offset.z; /* VRM 0.x stores z negated */
        if (!sw__json_clamp(J, "radius", &col.radius, 0.0f, INFINITY)) return sw__json_out_of_memory(J);
        if (!node_ok) continue;
        if (!sw__add_group_collider(R, (uint32_t)o->set.collider_count) || !sw__add_collider(R, &col))
            return sw__json_out_of_memory(J);
        group.collider_count++;
    }
    sw__json_pop(J, mark);
    return sw__add_group(R, &group) ? SW_OK : sw__json_out_of_memory(J);
}

/* A bone group's roots (its bones, at its path): each root's tree with the
   group's parameters, or none of it (a warning) when a chain cannot be kept. */
static sw_result sw__roots0(sw__reader* R, const cJSON* bones, const sw_spring_joint* params, size_t first_group,
                            size_t group_count, const char* name, bool has_center, uint32_t center) {
    sw__json* J = &R->J;
    sw__spring_owned* o = R->out;
    size_t mark = sw__json_push(J, "bones");
    for (sw__json_each it = sw__json_each_of(J, bones); sw__json_next(J, &it);) {
        int64_t root_file = 0;
        if (sw__json_index_value(J, it.value, &root_file) != SW_OK) return SW_ERR_INVALID_DATA;
        uint32_t root;
        if (!sw__node(R, root_file, &root)) {
            if (!sw__json_warn(J, NULL, "node %lld out of range (%zu nodes); root skipped", (long long)root_file,
                               R->model->node_count))
                return sw__json_out_of_memory(J);
            continue;
        }
        const size_t joint_mark = o->set.joint_count, chain_mark = o->set.chain_count;
        const char* problem = NULL;
        char why[160];
        if (!sw__vrm0_tree(R, root, params, first_group, group_count, name, &problem, why, sizeof why))
            return sw__json_out_of_memory(J);
        for (size_t c = chain_mark; c < o->set.chain_count; c++) {
            o->chains[c].has_center = has_center;
            o->chains[c].center = center;
        }
        if (problem) {
            if (!sw__json_warn(J, NULL, "%s; root skipped", problem)) return sw__json_out_of_memory(J);
            o->set.joint_count = joint_mark;
            o->set.chain_count = chain_mark;
            continue;
        }
        for (size_t c = chain_mark; c < o->set.chain_count; c++) {
            const sw_spring_chain* ch = &o->chains[c];
            for (size_t q = 0; q < ch->joint_count; q++) R->used[o->joints[ch->first_joint + q].node] = 1;
        }
    }
    sw__json_pop(J, mark);
    return SW_OK;
}

/* One boneGroups entry (at the current path). */
static sw_result sw__bone_group0(sw__reader* R, const cJSON* bg, size_t group_total) {
    sw__json* J = &R->J;
    const char* comment;
    const cJSON *bones, *refs;
    bool has_center = false;
    int64_t center = 0;
    /* Missing values (the 0.x schema gives no defaults): hitRadius and
       gravityPower 0, as both UniVRM's 0.x importer (its format class's
       zeros) and three-vrm take; stiffiness 1, dragForce 0.4 and
       gravityDir (0, -1, 0) as three-vrm and UniVRM's VRMSpringBone
       component start, where UniVRM's importer takes 0, 0 and a zero
       vector (docs/vrm.md "Spring bones"). */
    sw_spring_joint params = {0, 1.0f, 0.4f, 0.0f, {0.0f, -1.0f, 0.0f}, 0.0f};
    bool has_params_center = false;
    uint32_t params_center = 0;
    if (sw__json_expect_object(J, bg) != SW_OK || sw__json_string(J, bg, "comment", false, &comment) != SW_OK ||
        sw__json_array(J, bg, "bones", false, &bones) != SW_OK ||
        sw__json_array(J, bg, "colliderGroups", false, &refs) != SW_OK ||
        sw__json_index(J, bg, "center", false, &has_center, &center) != SW_OK ||
        sw__json_float(J, bg, "stiffiness", false, &params.stiffness) != SW_OK ||
        sw__json_float(J, bg, "dragForce", false, &params.drag_force) != SW_OK ||
        sw__json_float(J, bg, "gravityPower", false, &params.gravity_power) != SW_OK ||
        sw__vec3_object(R, bg, "gravityDir", &params.gravity_dir) != SW_OK ||
        sw__json_float(J, bg, "hitRadius", false, &params.hit_radius) != SW_OK)
        return SW_ERR_INVALID_DATA;
    if (!sw__json_clamp(J, "stiffiness", &params.stiffness, 0.0f, INFINITY) ||
        !sw__json_clamp(J, "dragForce", &params.drag_force, 0.0f, 1.0f) ||
        !sw__json_clamp(J, "gravityPower", &params.gravity_power, 0.0f, INFINITY) ||
        !sw__json_clamp(J, "hitRadius", &params.hit_radius, 0.0f, INFINITY))
        return sw__json_out_of_memory(J);
    /* -1: none, as UniVRM writes it */
    if (has_center && center >= 0) {
        if (sw__node(R, center, &params_center))
            has_params_center = true;
        else if (!sw__json_warn(J, "center", "node %lld out of range (%zu nodes); simulated in world space",
                                (long long)center, R->model->node_count))
            return sw__json_out_of_memory(J);
    }
    /* The group's collider groups, shared by all its chains. */
    const size_t first_group = R->out->set.chain_group_count;
    sw_result r = sw__group_refs(R, refs, false, group_total);
    if (r != SW_OK) return r;
    const char* name = NULL;
    if (comment && comment[0] && !(name = sw__json_copy(J, comment))) return sw__json_out_of_memory(J);
    return sw__roots0(R, bones, &params, first_group, R->out->set.chain_group_count - first_group, name,
                      has_params_center, params_center);
}

/* The path is the record's (extensions.VRM). */
static sw_result sw__read_vrm0(sw__reader* R, const cJSON* vrm) {
    sw__json* J = &R->J;
    const cJSON *sa, *groups, *bone_groups;
    if (sw__json_expect_object(J, vrm) != SW_OK ||
        sw__json_object(J, vrm, "secondaryAnimation", false, &sa) != SW_OK)
        return SW_ERR_INVALID_DATA;
    if (!sa) return SW_OK;
    R->out->set.source = SW_SPRING_SOURCE_VRM0;
    sw__json_push(J, "secondaryAnimation");
    if (sw__json_array(J, sa, "colliderGroups", false, &groups) != SW_OK ||
        sw__json_array(J, sa, "boneGroups", false, &bone_groups) != SW_OK)
        return SW_ERR_INVALID_DATA;
    /* Collider groups: group g holds the spheres of colliderGroups[g]. */
    sw_result r = SW_OK;
    size_t mark = sw__json_push(J, "colliderGroups");
    for (sw__json_each it = sw__json_each_of(J, groups); r == SW_OK && sw__json_next(J, &it);)
        r = sw__collider_group0(R, it.value);
    sw__json_pop(J, mark);
    /* Bone groups: every root's tree. */
    const size_t group_total = R->out->set.group_count;
    mark = sw__json_push(J, "boneGroups");
    for (sw__json_each it = sw__json_each_of(J, bone_groups); r == SW_OK && sw__json_next(J, &it);)
        r = sw__bone_group0(R, it.value, group_total);
    sw__json_pop(J, mark);
    return r;
}

/* ---- the entry point -------------------------------------------------------------------------------- */

void sw_spring_set_free(sw_spring_set* set) {
    if (!set) return;
    sw__spring_owned* o = (sw__spring_owned*)(void*)set;
    sw__free(o->joints);
    sw__free(o->chains);
    sw__free(o->chain_groups);
    sw__free(o->colliders);
    sw__free(o->groups);
    sw__free(o->group_colliders);
    sw__json_owned_free(&o->mem);
    sw__free(o);
}

/* VRMC_springBone first, then our own SW_spring_bones (the same shape), then VRM 0.x. */
static sw_result sw__read_records(sw__reader* R) {
    sw__json* J = &R->J;
    const sw_model* model = R->model;
    const sw_model_extension* v1 = sw_model_find_extension(model, "VRMC_springBone", SW_MODEL_OBJECT_MODEL, 0);
    const sw_model_extension* own = sw_model_find_extension(model, "SW_spring_bones", SW_MODEL_OBJECT_MODEL, 0);
    const sw_model_extension* v0 = sw_model_find_extension(model, "VRM", SW_MODEL_OBJECT_MODEL, 0);
    const sw_model_extension* use = v1 ? v1 : own ? own : v0;
    if (!use) return SW_OK;
    const char* base = v1 ? "extensions.VRMC_springBone" : own ? "extensions.SW_spring_bones" : "extensions.VRM";
    const char* used_name = v1 ? "VRMC_springBone" : "SW_spring_bones";
    sw__json_set_path(J, base);
    cJSON* json = sw__json_parse(J, use->json, NULL);
    if (!json) return J->oom ? sw__json_out_of_memory(J) : sw__json_fail(J, NULL, "not valid JSON");
    sw_result r = SW_OK;
    if (v1 && own) {
        sw__json_set_path(J, "extensions.SW_spring_bones");
        if (!sw__json_warn(J, NULL, "ignored: VRMC_springBone is used")) r = sw__json_out_of_memory(J);
    }
    if (r == SW_OK && (v1 || own) && v0) {
        cJSON* other = sw__json_parse(J, v0->json, NULL);
        if (!other && J->oom) r = sw__json_out_of_memory(J);
        bool has_secondary = other && sw__json_is_object(sw__json_member(other, "secondaryAnimation"));
        sw__json_delete(other);
        sw__json_set_path(J, "extensions.VRM.secondaryAnimation");
        if (r == SW_OK && has_secondary && !sw__json_warn(J, NULL, "ignored: %s is used", used_name)) r = sw__json_out_of_memory(J);
    }
    if (r == SW_OK) {
        sw__json_set_path(J, base);
        r = v1    ? sw__read_vrm1(R, json, SW_SPRING_SOURCE_VRMC_SPRING_BONE)
            : own ? sw__read_vrm1(R, json, SW_SPRING_SOURCE_SINEW)
                  : sw__read_vrm0(R, json);
    }
    sw__json_delete(json);
    return r;
}

sw_result sw_spring_read(const sw_model* model, sw_spring_set** out_set, sw_diag* diag) {
    if (out_set) *out_set = NULL;
    if (!model || !out_set)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "spring read: a model and an output are needed");
    sw__reader R = {.model = model};
    R.out = sw__calloc(1, sizeof *R.out);
    sw__json_begin(&R.J, model->path ? model->path : "model", "spring bones", diag, R.out ? &R.out->mem : NULL);
    size_t n = model->node_count ? model->node_count : 1;
    R.used = sw__calloc(n, 1);
    R.scratch = sw__malloc(2 * n * sizeof *R.scratch); /* VRM 0.x: a stack and a node list */
    sw_result result = !R.out || !R.used || !R.scratch ? sw__json_out_of_memory(&R.J) : sw__read_records(&R);
    sw__free(R.used);
    sw__free(R.scratch);
    if (result != SW_OK) {
        sw_spring_set_free(R.out ? &R.out->set : NULL);
        return result;
    }
    R.out->set.warnings = (const char* const*)R.out->mem.warnings;
    R.out->set.warning_count = R.out->mem.warning_count;
    *out_set = &R.out->set;
    return SW_OK;
}
