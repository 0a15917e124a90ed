/* The spring-bone readers (sinew/spring.h): VRMC_springBone (VRM 1.0), our
   own SW_spring_bones (the same shape, docs/extensions.md) and VRM 0.x
   secondaryAnimation, from the model's extension records (compact
   JSON, parsed again here with cJSON). Node indices in that JSON are the
   file's and go through model->node_from_source; messages name the file's
   indices, as the file does.

   What is read is collected in growable arrays and handed over as one
   owner (sw__spring_owned), freed by sw_spring_set_free. A spring or a
   VRM 0.x root is added tentatively and rolled back (counts restored) when
   a later check drops it. */
#include "sinew/spring.h"

#include "../base/base_internal.h"
#include "../base/cjson_alloc_internal.h"
#include "../runtime/spring_internal.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SW__PATH_SIZE 192

typedef struct sw__spring_owned {
    sw_spring_set set; /* first: sw_spring_set_free casts back */
    sw_spring_joint* joints;
    sw_spring_chain* chains;
    uint32_t* chain_groups;
    sw_spring_collider* colliders;
    sw_spring_collider_group* groups;
    uint32_t* group_colliders;
    char** warnings;
    char** strings; /* names */
    size_t joint_cap, chain_cap, chain_group_cap, collider_cap, group_cap, group_collider_cap, warning_cap,
        string_cap, string_count;
} sw__spring_owned;

typedef struct sw__reader {
    const sw_model* model;
    const char* file;
    sw_diag* diag;
    sw__spring_owned* out;
    uint8_t* used;       /* node_count marks: heads and in-between nodes of accepted chains */
    uint32_t* scratch;   /* node_count: the VRM 0.x traversal stack */
} sw__reader;

/* ---- growable arrays and messages ------------------------------------------------------------ */

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

static sw_result sw__oom(sw__reader* R) {
    return sw_diag_set(R->diag, SW_ERR_OUT_OF_MEMORY, -1, "%s: spring bones: out of memory", R->file);
}

static sw_result sw__fail(sw__reader* R, const char* path, const char* format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static sw_result sw__fail(sw__reader* R, const char* path, const char* format, ...) {
    va_list args;
    va_start(args, format);
    sw_result r = sw__diag_vset_at(R->diag, SW_ERR_INVALID_DATA, -1, R->file, path, 200, format, args);
    va_end(args);
    return r;
}

/* Appends a warning line; false only when out of memory. */
static bool sw__warn(sw__reader* R, const char* path, const char* format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static bool sw__warn(sw__reader* R, const char* path, const char* format, ...) {
    char text[200], line[512];
    va_list args;
    va_start(args, format);
    vsnprintf(text, sizeof text, format, args);
    va_end(args);
    sw__line_at(line, sizeof line, R->file, path, text);
    sw__spring_owned* o = R->out;
    if (!sw__lines_append(&o->warnings, &o->set.warning_count, &o->warning_cap, line)) return false;
    o->set.warnings = (const char* const*)o->warnings;
    return true;
}

static const char* sw__keep_string(sw__reader* R, const char* s) {
    sw__spring_owned* o = R->out;
    if (!sw__grow((void**)&o->strings, &o->string_cap, o->string_count, sizeof *o->strings)) return NULL;
    size_t len = strlen(s) + 1;
    char* copy = sw__malloc(len);
    if (!copy) return NULL;
    memcpy(copy, s, len);
    o->strings[o->string_count++] = copy;
    return copy;
}

/* ---- JSON values ------------------------------------------------------------------------------ */

static const cJSON* sw__member(const cJSON* object, const char* key) {
    return cJSON_GetObjectItemCaseSensitive(object, key);
}

/* path + "." + key, or path + "[i]"; a path too long for the buffer ends
   in "..." (never in these readers' own paths). */
static void sw__path_end(char* out, int n) {
    if (n < 0 || n >= SW__PATH_SIZE) memcpy(out + SW__PATH_SIZE - 4, "...", 4);
}
static void sw__path_key(char* out, const char* path, const char* key) {
    sw__path_end(out, snprintf(out, SW__PATH_SIZE, "%s.%s", path, key));
}
static void sw__path_item(char* out, const char* path, size_t i) {
    sw__path_end(out, snprintf(out, SW__PATH_SIZE, "%s[%zu]", path, i));
}

/* A member that must be an object / array when present. */
static sw_result sw__get(sw__reader* R, const cJSON* object, const char* path, const char* key, int type,
                         bool required, const cJSON** out) {
    *out = sw__member(object, key);
    char where[SW__PATH_SIZE];
    sw__path_key(where, path, key);
    if (!*out) return required ? sw__fail(R, where, "missing") : SW_OK;
    if (type == cJSON_Object && !cJSON_IsObject(*out)) return sw__fail(R, where, "expected an object");
    if (type == cJSON_Array && !cJSON_IsArray(*out)) return sw__fail(R, where, "expected an array");
    if (type == cJSON_String && !cJSON_IsString(*out)) return sw__fail(R, where, "expected a string");
    return SW_OK;
}

static sw_result sw__number_value(sw__reader* R, const cJSON* v, const char* where, float* out) {
    if (!cJSON_IsNumber(v)) return sw__fail(R, where, "expected a number");
    double d = v->valuedouble;
    if (!isfinite(d) || fabs(d) > 3.0e38) return sw__fail(R, where, "not a finite float");
    *out = (float)d;
    return SW_OK;
}

/* An optional number member (absent: *out keeps its default). */
static sw_result sw__number(sw__reader* R, const cJSON* object, const char* path, const char* key, float* out) {
    const cJSON* v = sw__member(object, key);
    if (!v) return SW_OK;
    char where[SW__PATH_SIZE];
    sw__path_key(where, path, key);
    return sw__number_value(R, v, where, out);
}

/* An integer (any sign: range is the caller's check, a warning). */
static sw_result sw__integer_value(sw__reader* R, const cJSON* v, const char* where, int64_t* out) {
    if (!cJSON_IsNumber(v)) return sw__fail(R, where, "expected an integer index");
    double d = v->valuedouble;
    if (!isfinite(d) || d != floor(d) || fabs(d) > 9.0e15) return sw__fail(R, where, "expected an integer index");
    *out = (int64_t)d;
    return SW_OK;
}

static sw_result sw__integer(sw__reader* R, const cJSON* object, const char* path, const char* key, bool required,
                             bool* present, int64_t* out) {
    const cJSON* v = sw__member(object, key);
    char where[SW__PATH_SIZE];
    sw__path_key(where, path, key);
    *present = v != NULL;
    if (!v) return required ? sw__fail(R, where, "missing") : SW_OK;
    return sw__integer_value(R, v, where, out);
}

/* [x, y, z] (VRM 1.0). */
static sw_result sw__vec3_array(sw__reader* R, const cJSON* object, const char* path, const char* key, sw_vec3* out) {
    const cJSON* v = sw__member(object, key);
    if (!v) return SW_OK;
    char where[SW__PATH_SIZE];
    sw__path_key(where, path, key);
    if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) != 3) return sw__fail(R, where, "expected an array of 3 numbers");
    float f[3];
    for (int i = 0; i < 3; i++) {
        char item[SW__PATH_SIZE];
        sw__path_item(item, where, (size_t)i);
        sw_result r = sw__number_value(R, cJSON_GetArrayItem(v, i), item, &f[i]);
        if (r != SW_OK) return r;
    }
    *out = sw_vec3_make(f[0], f[1], f[2]);
    return SW_OK;
}

/* {"x":, "y":, "z":} (VRM 0.x; missing components are 0 when the object is there). */
static sw_result sw__vec3_object(sw__reader* R, const cJSON* object, const char* path, const char* key, sw_vec3* out) {
    const cJSON* v = sw__member(object, key);
    if (!v) return SW_OK;
    char where[SW__PATH_SIZE];
    sw__path_key(where, path, key);
    if (!cJSON_IsObject(v)) return sw__fail(R, where, "expected an object {x, y, z}");
    sw_vec3 r = sw_vec3_make(0.0f, 0.0f, 0.0f);
    if (sw__number(R, v, where, "x", &r.x) != SW_OK || sw__number(R, v, where, "y", &r.y) != SW_OK ||
        sw__number(R, v, where, "z", &r.z) != SW_OK)
        return SW_ERR_INVALID_DATA;
    *out = r;
    return SW_OK;
}

/* A file node index to the model's, or false (out of range). */
static bool sw__node(sw__reader* R, int64_t file_index, uint32_t* out) {
    if (file_index < 0 || (uint64_t)file_index >= R->model->node_count) return false;
    *out = R->model->node_from_source[file_index];
    return true;
}

static uint32_t sw__file_index(sw__reader* R, uint32_t node) { return R->model->nodes[node].source_index; }

/* Clamps *v into [lo, hi] with a warning naming the member. */
static bool sw__clamp(sw__reader* R, const char* path, const char* key, float* v, float lo, float hi) {
    if (*v >= lo && *v <= hi) return true;
    float c = *v < lo ? lo : hi;
    char where[SW__PATH_SIZE];
    sw__path_key(where, path, key);
    bool ok = sw__warn(R, where, "%g is out of range [%g, %g]; clamped to %g", (double)*v, (double)lo, (double)hi,
                       (double)c);
    *v = c;
    return ok;
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

/* Also reads SW_spring_bones (docs/extensions.md), which has the same shape;
   `source` says which of the two it was. */
static sw_result sw__read_vrm1(sw__reader* R, const cJSON* root, const char* base, sw_spring_source source) {
    sw__spring_owned* o = R->out;
    const sw_model* m = R->model;
    char where[SW__PATH_SIZE], item[SW__PATH_SIZE], sub[SW__PATH_SIZE];
    if (!cJSON_IsObject(root)) return sw__fail(R, base, "expected an object");
    o->set.source = source;

    const cJSON* spec;
    if (sw__get(R, root, base, "specVersion", cJSON_String, false, &spec) != SW_OK) return SW_ERR_INVALID_DATA;
    sw__path_key(where, base, "specVersion");
    if (!spec) {
        if (!sw__warn(R, where, "missing; read as 1.0")) return sw__oom(R);
    } else if (strcmp(spec->valuestring, "1.0") != 0 && strcmp(spec->valuestring, "1.0-beta") != 0) {
        if (!sw__warn(R, where, "unknown version \"%.40s\"; read as 1.0", spec->valuestring)) return sw__oom(R);
    }

    /* Colliders: file index → set index, or UINT32_MAX when skipped. */
    const cJSON *colliders, *groups, *springs;
    if (sw__get(R, root, base, "colliders", cJSON_Array, false, &colliders) != SW_OK ||
        sw__get(R, root, base, "colliderGroups", cJSON_Array, false, &groups) != SW_OK ||
        sw__get(R, root, base, "springs", cJSON_Array, false, &springs) != SW_OK)
        return SW_ERR_INVALID_DATA;
    size_t collider_total = colliders ? (size_t)cJSON_GetArraySize(colliders) : 0;
    uint32_t* collider_map = NULL;
    if (collider_total && !(collider_map = sw__malloc(collider_total * sizeof *collider_map))) return sw__oom(R);
    sw_result result = SW_OK;
    size_t i = 0;
    const cJSON* c;
    sw__path_key(where, base, "colliders");
    cJSON_ArrayForEach(c, colliders) {
        sw__path_item(item, where, i);
        collider_map[i] = UINT32_MAX;
        i++;
        if (!cJSON_IsObject(c)) {
            result = sw__fail(R, item, "expected an object");
            goto done;
        }
        bool present;
        int64_t node_file = 0;
        const cJSON *shape, *sphere = NULL, *capsule = NULL;
        if ((result = sw__integer(R, c, item, "node", true, &present, &node_file)) != SW_OK ||
            (result = sw__get(R, c, item, "shape", cJSON_Object, true, &shape)) != SW_OK)
            goto done;
        sw__path_key(sub, item, "shape");
        if ((result = sw__get(R, shape, sub, "sphere", cJSON_Object, false, &sphere)) != SW_OK ||
            (result = sw__get(R, shape, sub, "capsule", cJSON_Object, false, &capsule)) != SW_OK)
            goto done;
        sw_spring_collider col = {0};
        if (!sw__node(R, node_file, &col.node)) {
            char n[SW__PATH_SIZE];
            sw__path_key(n, item, "node");
            if (!sw__warn(R, n, "node %lld out of range (%zu nodes); collider skipped", (long long)node_file,
                          m->node_count))
                goto oom;
            continue;
        }
        if (!sphere && !capsule) {
            if (!sw__warn(R, sub, "neither sphere nor capsule; collider skipped")) goto oom;
            continue;
        }
        if (sphere && capsule && !sw__warn(R, sub, "both sphere and capsule; the sphere is used")) goto oom;
        const cJSON* s = sphere ? sphere : capsule;
        char shape_path[SW__PATH_SIZE];
        sw__path_key(shape_path, sub, sphere ? "sphere" : "capsule");
        col.shape = sphere ? SW_SPRING_SPHERE : SW_SPRING_CAPSULE;
        if ((result = sw__vec3_array(R, s, shape_path, "offset", &col.offset)) != SW_OK ||
            (result = sw__number(R, s, shape_path, "radius", &col.radius)) != SW_OK ||
            (!sphere && (result = sw__vec3_array(R, s, shape_path, "tail", &col.tail)) != SW_OK))
            goto done;
        if (!sw__clamp(R, shape_path, "radius", &col.radius, 0.0f, INFINITY)) goto oom;
        collider_map[i - 1] = (uint32_t)o->set.collider_count;
        if (!sw__add_collider(R, &col)) goto oom;
    }

    /* Collider groups, one to one. */
    i = 0;
    sw__path_key(where, base, "colliderGroups");
    const cJSON* g;
    cJSON_ArrayForEach(g, groups) {
        sw__path_item(item, where, i++);
        if (!cJSON_IsObject(g)) {
            result = sw__fail(R, item, "expected an object");
            goto done;
        }
        const cJSON *name, *list;
        if ((result = sw__get(R, g, item, "name", cJSON_String, false, &name)) != SW_OK ||
            (result = sw__get(R, g, item, "colliders", cJSON_Array, true, &list)) != SW_OK)
            goto done;
        sw_spring_collider_group group = {0};
        if (name && !(group.name = sw__keep_string(R, name->valuestring))) goto oom;
        group.first_collider = o->set.group_collider_count;
        size_t k = 0;
        const cJSON* e;
        sw__path_key(sub, item, "colliders");
        cJSON_ArrayForEach(e, list) {
            char ref[SW__PATH_SIZE];
            sw__path_item(ref, sub, k++);
            int64_t index = 0;
            if ((result = sw__integer_value(R, e, ref, &index)) != SW_OK) goto done;
            if (index < 0 || (uint64_t)index >= collider_total) {
                if (!sw__warn(R, ref, "collider %lld out of range (%zu colliders); reference skipped",
                              (long long)index, collider_total))
                    goto oom;
                continue;
            }
            if (collider_map[index] == UINT32_MAX) continue; /* skipped above, with its warning */
            if (!sw__add_group_collider(R, collider_map[index])) goto oom;
            group.collider_count++;
        }
        if (!sw__add_group(R, &group)) goto oom;
    }
    const size_t group_total = o->set.group_count;

    /* Springs. */
    i = 0;
    sw__path_key(where, base, "springs");
    const cJSON* sp;
    uint32_t* nodes = R->scratch;
    cJSON_ArrayForEach(sp, springs) {
        sw__path_item(item, where, i++);
        if (!cJSON_IsObject(sp)) {
            result = sw__fail(R, item, "expected an object");
            goto done;
        }
        const cJSON *name, *joints, *refs;
        bool has_center;
        int64_t center = 0;
        if ((result = sw__get(R, sp, item, "name", cJSON_String, false, &name)) != SW_OK ||
            (result = sw__get(R, sp, item, "joints", cJSON_Array, true, &joints)) != SW_OK ||
            (result = sw__get(R, sp, item, "colliderGroups", cJSON_Array, false, &refs)) != SW_OK ||
            (result = sw__integer(R, sp, item, "center", false, &has_center, &center)) != SW_OK)
            goto done;
        const size_t joint_mark = o->set.joint_count, group_mark = o->set.chain_group_count;
        sw_spring_chain chain = {0};
        chain.first_joint = joint_mark;
        chain.first_group = group_mark;
        /* Joints: parse everything first (errors), then decide. */
        size_t k = 0;
        bool skip = false;
        const cJSON* jv;
        sw__path_key(sub, item, "joints");
        cJSON_ArrayForEach(jv, joints) {
            char jp[SW__PATH_SIZE];
            sw__path_item(jp, sub, k);
            if (!cJSON_IsObject(jv)) {
                result = sw__fail(R, jp, "expected an object");
                goto done;
            }
            bool present;
            int64_t node_file = 0;
            sw_spring_joint j = {0, 1.0f, 0.5f, 0.0f, {0.0f, -1.0f, 0.0f}, 0.0f};
            if ((result = sw__integer(R, jv, jp, "node", true, &present, &node_file)) != SW_OK ||
                (result = sw__number(R, jv, jp, "stiffness", &j.stiffness)) != SW_OK ||
                (result = sw__number(R, jv, jp, "dragForce", &j.drag_force)) != SW_OK ||
                (result = sw__number(R, jv, jp, "gravityPower", &j.gravity_power)) != SW_OK ||
                (result = sw__vec3_array(R, jv, jp, "gravityDir", &j.gravity_dir)) != SW_OK ||
                (result = sw__number(R, jv, jp, "hitRadius", &j.hit_radius)) != SW_OK)
                goto done;
            k++;
            if (skip) continue;
            if (!sw__node(R, node_file, &j.node)) {
                char n[SW__PATH_SIZE];
                sw__path_key(n, jp, "node");
                if (!sw__warn(R, n, "node %lld out of range (%zu nodes); spring skipped", (long long)node_file,
                              m->node_count))
                    goto oom;
                skip = true;
                continue;
            }
            if (k > 1 && !sw__spring_is_ancestor(m, nodes[k - 2], j.node)) {
                if (!sw__warn(R, jp, "node %u is not a descendant of the joint before it (node %u); spring skipped",
                              sw__file_index(R, j.node), sw__file_index(R, nodes[k - 2])))
                    goto oom;
                skip = true;
                continue;
            }
            if (!sw__clamp(R, jp, "stiffness", &j.stiffness, 0.0f, INFINITY) ||
                !sw__clamp(R, jp, "dragForce", &j.drag_force, 0.0f, 1.0f) ||
                !sw__clamp(R, jp, "gravityPower", &j.gravity_power, 0.0f, INFINITY) ||
                !sw__clamp(R, jp, "hitRadius", &j.hit_radius, 0.0f, INFINITY))
                goto oom;
            nodes[k - 1] = j.node;
            if (!sw__add_joint(R, &j)) goto oom;
        }
        /* Collider group references. */
        size_t r = 0;
        const cJSON* e;
        sw__path_key(sub, item, "colliderGroups");
        cJSON_ArrayForEach(e, refs) {
            char ref[SW__PATH_SIZE];
            sw__path_item(ref, sub, r++);
            int64_t index = 0;
            if ((result = sw__integer_value(R, e, ref, &index)) != SW_OK) goto done;
            if (skip) continue;
            if (index < 0 || (uint64_t)index >= group_total) {
                if (!sw__warn(R, ref, "collider group %lld out of range (%zu groups); reference skipped",
                              (long long)index, group_total))
                    goto oom;
                continue;
            }
            if (!sw__add_chain_group(R, (uint32_t)index)) goto oom;
        }
        chain.joint_count = o->set.joint_count - joint_mark;
        chain.group_count = o->set.chain_group_count - group_mark;
        sw__path_key(sub, item, "joints");
        if (!skip && k == 0) {
            if (!sw__warn(R, sub, "no joints; spring skipped")) goto oom;
            skip = true;
        } else if (!skip && k == 1) {
            if (!sw__warn(R, sub, "one joint: the last joint is only a tail, nothing swings; spring skipped")) goto oom;
            skip = true;
        }
        char why[160];
        const char* problem = skip ? NULL : sw__chain_problem(R, nodes, chain.joint_count, 0.0f, why, sizeof why);
        if (problem) {
            if (!sw__warn(R, item, "%s; spring skipped", problem)) goto oom;
            skip = true;
        }
        if (skip) {
            o->set.joint_count = joint_mark;
            o->set.chain_group_count = group_mark;
            continue;
        }
        if (has_center && center >= 0) { /* -1: none, as UniVRM writes it */
            char n[SW__PATH_SIZE];
            sw__path_key(n, item, "center");
            if (!sw__warn(R, n, "center space is not supported; simulated in world space")) goto oom;
        }
        if (name && !(chain.name = sw__keep_string(R, name->valuestring))) goto oom;
        sw__mark_chain(R, nodes, chain.joint_count, 0.0f);
        if (!sw__add_chain(R, &chain)) goto oom;
    }
    goto done;
oom:
    result = sw__oom(R);
done:
    sw__free(collider_map);
    return result;
}

/* ---- VRM 0.x: VRM.secondaryAnimation -------------------------------------------------------------- */

/* Adds the chains of the tree under `root` (see spring.h): from each start,
   follow first children down to a leaf; the other children of the nodes on
   the way start chains of their own. Every node is pushed at most once, so
   the stack needs at most node_count entries. The stack of starts is the first half
   of R->scratch, a chain's node list the second. *out_problem is set (and
   reading goes on) when a chain cannot be kept: the caller rolls the whole
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
           come out from the top of this chain down, each node's in file
           order: a depth-first, pre-order walk. */
        for (size_t k = chain.joint_count; k-- > 0;) {
            const sw_model_node* node = &m->nodes[list[k]];
            for (size_t c = node->child_count; c-- > 1;) stack[top++] = node->children[c];
        }
        if (!sw__add_chain(R, &chain)) return false;
        if (!*out_problem)
            *out_problem = sw__chain_problem(R, list, chain.joint_count, chain.tail_length, why, why_size);
    }
    return true;
}

static sw_result sw__read_vrm0(sw__reader* R, const cJSON* vrm, const char* base) {
    sw__spring_owned* o = R->out;
    const sw_model* m = R->model;
    char where[SW__PATH_SIZE], item[SW__PATH_SIZE], sub[SW__PATH_SIZE];
    if (!cJSON_IsObject(vrm)) return sw__fail(R, base, "expected an object");
    const cJSON* sa;
    if (sw__get(R, vrm, base, "secondaryAnimation", cJSON_Object, false, &sa) != SW_OK) return SW_ERR_INVALID_DATA;
    if (!sa) return SW_OK;
    o->set.source = SW_SPRING_SOURCE_VRM0;
    char sa_path[SW__PATH_SIZE];
    sw__path_key(sa_path, base, "secondaryAnimation");
    const cJSON *groups, *bone_groups;
    if (sw__get(R, sa, sa_path, "colliderGroups", cJSON_Array, false, &groups) != SW_OK ||
        sw__get(R, sa, sa_path, "boneGroups", cJSON_Array, false, &bone_groups) != SW_OK)
        return SW_ERR_INVALID_DATA;

    /* Collider groups: group g holds the spheres of colliderGroups[g]. */
    size_t i = 0;
    const cJSON* g;
    sw__path_key(where, sa_path, "colliderGroups");
    cJSON_ArrayForEach(g, groups) {
        sw__path_item(item, where, i++);
        if (!cJSON_IsObject(g)) return sw__fail(R, item, "expected an object");
        bool present;
        int64_t node_file = 0;
        const cJSON* list;
        if (sw__integer(R, g, item, "node", true, &present, &node_file) != SW_OK ||
            sw__get(R, g, item, "colliders", cJSON_Array, false, &list) != SW_OK)
            return SW_ERR_INVALID_DATA;
        sw_spring_collider_group group = {0};
        group.first_collider = o->set.group_collider_count;
        uint32_t node = 0;
        bool node_ok = sw__node(R, node_file, &node);
        if (!node_ok) {
            char n[SW__PATH_SIZE];
            sw__path_key(n, item, "node");
            if (!sw__warn(R, n, "node %lld out of range (%zu nodes); the group has no colliders",
                          (long long)node_file, m->node_count))
                return sw__oom(R);
        }
        size_t k = 0;
        const cJSON* c;
        sw__path_key(sub, item, "colliders");
        cJSON_ArrayForEach(c, list) {
            char cp[SW__PATH_SIZE];
            sw__path_item(cp, sub, k++);
            if (!cJSON_IsObject(c)) return sw__fail(R, cp, "expected an object");
            sw_spring_collider col = {0};
            col.node = node;
            col.shape = SW_SPRING_SPHERE;
            if (sw__vec3_object(R, c, cp, "offset", &col.offset) != SW_OK ||
                sw__number(R, c, cp, "radius", &col.radius) != SW_OK)
                return SW_ERR_INVALID_DATA;
            col.offset.z = -col.offset.z; /* VRM 0.x stores z negated */
            if (!sw__clamp(R, cp, "radius", &col.radius, 0.0f, INFINITY)) return sw__oom(R);
            if (!node_ok) continue;
            if (!sw__add_group_collider(R, (uint32_t)o->set.collider_count) || !sw__add_collider(R, &col))
                return sw__oom(R);
            group.collider_count++;
        }
        if (!sw__add_group(R, &group)) return sw__oom(R);
    }
    const size_t group_total = o->set.group_count;

    /* Bone groups: every root's tree. */
    i = 0;
    sw__path_key(where, sa_path, "boneGroups");
    const cJSON* bg;
    cJSON_ArrayForEach(bg, bone_groups) {
        sw__path_item(item, where, i++);
        if (!cJSON_IsObject(bg)) return sw__fail(R, item, "expected an object");
        const cJSON *comment, *bones, *refs;
        bool has_center;
        int64_t center = 0;
        sw_spring_joint params = {0, 1.0f, 0.4f, 0.0f, {0.0f, -1.0f, 0.0f}, 0.02f};
        if (sw__get(R, bg, item, "comment", cJSON_String, false, &comment) != SW_OK ||
            sw__get(R, bg, item, "bones", cJSON_Array, false, &bones) != SW_OK ||
            sw__get(R, bg, item, "colliderGroups", cJSON_Array, false, &refs) != SW_OK ||
            sw__integer(R, bg, item, "center", false, &has_center, &center) != SW_OK ||
            sw__number(R, bg, item, "stiffiness", &params.stiffness) != SW_OK ||
            sw__number(R, bg, item, "dragForce", &params.drag_force) != SW_OK ||
            sw__number(R, bg, item, "gravityPower", &params.gravity_power) != SW_OK ||
            sw__vec3_object(R, bg, item, "gravityDir", &params.gravity_dir) != SW_OK ||
            sw__number(R, bg, item, "hitRadius", &params.hit_radius) != SW_OK)
            return SW_ERR_INVALID_DATA;
        if (!sw__clamp(R, item, "stiffiness", &params.stiffness, 0.0f, INFINITY) ||
            !sw__clamp(R, item, "dragForce", &params.drag_force, 0.0f, 1.0f) ||
            !sw__clamp(R, item, "gravityPower", &params.gravity_power, 0.0f, INFINITY) ||
            !sw__clamp(R, item, "hitRadius", &params.hit_radius, 0.0f, INFINITY))
            return sw__oom(R);
        if (has_center && center >= 0) { /* -1: none, as UniVRM writes it */
            char n[SW__PATH_SIZE];
            sw__path_key(n, item, "center");
            if (!sw__warn(R, n, "center space is not supported; simulated in world space")) return sw__oom(R);
        }
        /* The group's collider groups, shared by all its chains. */
        const size_t first_group = o->set.chain_group_count;
        size_t r = 0;
        const cJSON* e;
        sw__path_key(sub, item, "colliderGroups");
        cJSON_ArrayForEach(e, refs) {
            char ref[SW__PATH_SIZE];
            sw__path_item(ref, sub, r++);
            int64_t index = 0;
            if (sw__integer_value(R, e, ref, &index) != SW_OK) return SW_ERR_INVALID_DATA;
            if (index < 0 || (uint64_t)index >= group_total) {
                if (!sw__warn(R, ref, "collider group %lld out of range (%zu groups); reference skipped",
                              (long long)index, group_total))
                    return sw__oom(R);
                continue;
            }
            if (!sw__add_chain_group(R, (uint32_t)index)) return sw__oom(R);
        }
        const size_t group_count = o->set.chain_group_count - first_group;
        const char* name = NULL;
        if (comment && comment->valuestring[0] && !(name = sw__keep_string(R, comment->valuestring)))
            return sw__oom(R);

        size_t k = 0;
        const cJSON* b;
        sw__path_key(sub, item, "bones");
        cJSON_ArrayForEach(b, bones) {
            char bp[SW__PATH_SIZE];
            sw__path_item(bp, sub, k++);
            int64_t root_file = 0;
            if (sw__integer_value(R, b, bp, &root_file) != SW_OK) return SW_ERR_INVALID_DATA;
            uint32_t root;
            if (!sw__node(R, root_file, &root)) {
                if (!sw__warn(R, bp, "node %lld out of range (%zu nodes); root skipped", (long long)root_file,
                              m->node_count))
                    return sw__oom(R);
                continue;
            }
            const size_t joint_mark = o->set.joint_count, chain_mark = o->set.chain_count;
            const char* problem = NULL;
            char why[160];
            if (!sw__vrm0_tree(R, root, &params, first_group, group_count, name, &problem, why, sizeof why))
                return sw__oom(R);
            if (problem) {
                if (!sw__warn(R, bp, "%s; root skipped", problem)) return sw__oom(R);
                o->set.joint_count = joint_mark;
                o->set.chain_count = chain_mark;
                continue;
            }
            for (size_t c = chain_mark; c < o->set.chain_count; c++) {
                const sw_spring_chain* ch = &o->chains[c];
                for (size_t q = 0; q < ch->joint_count; q++) R->used[o->joints[ch->first_joint + q].node] = 1;
            }
        }
    }
    return SW_OK;
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
    for (size_t i = 0; i < o->set.warning_count; i++) sw__free(o->warnings[i]);
    sw__free(o->warnings);
    for (size_t i = 0; i < o->string_count; i++) sw__free(o->strings[i]);
    sw__free(o->strings);
    sw__free(o);
}

sw_result sw_spring_read(const sw_model* model, sw_spring_set** out_set, sw_diag* diag) {
    if (out_set) *out_set = NULL;
    if (!model || !out_set)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "spring read: a model and an output are needed");
    sw__reader R = {0};
    R.model = model;
    R.file = model->path ? model->path : "model";
    R.diag = diag;
    R.out = sw__calloc(1, sizeof *R.out);
    size_t n = model->node_count ? model->node_count : 1;
    R.used = sw__calloc(n, 1);
    R.scratch = sw__malloc(2 * n * sizeof *R.scratch); /* VRM 0.x: a stack and a node list */
    sw_result result = SW_OK;
    cJSON* json = NULL;
    if (!R.out || !R.used || !R.scratch) {
        result = sw__oom(&R);
        goto done;
    }
    /* VRMC_springBone first, then our own SW_spring_bones (the same shape), then VRM 0.x. */
    const sw_model_extension* v1 = sw_model_find_extension(model, "VRMC_springBone", SW_MODEL_OBJECT_MODEL, 0);
    const sw_model_extension* own = sw_model_find_extension(model, "SW_spring_bones", SW_MODEL_OBJECT_MODEL, 0);
    const sw_model_extension* v0 = sw_model_find_extension(model, "VRM", SW_MODEL_OBJECT_MODEL, 0);
    const sw_model_extension* use = v1 ? v1 : own ? own : v0;
    if (use) {
        const char* base = v1 ? "extensions.VRMC_springBone" : own ? "extensions.SW_spring_bones" : "extensions.VRM";
        const char* used_name = v1 ? "VRMC_springBone" : "SW_spring_bones";
        bool out_of_memory = false;
        json = sw__cjson_parse(use->json, strlen(use->json), NULL, false, &out_of_memory);
        if (!json) {
            result = out_of_memory ? sw__oom(&R) : sw__fail(&R, base, "not valid JSON");
            goto done;
        }
        if (v1 && own && !sw__warn(&R, "extensions.SW_spring_bones", "ignored: VRMC_springBone is used")) {
            result = sw__oom(&R);
            goto done;
        }
        if ((v1 || own) && v0) {
            cJSON* other = sw__cjson_parse(v0->json, strlen(v0->json) + 1, NULL, false, &out_of_memory);
            if (out_of_memory) {
                result = sw__oom(&R);
                goto done;
            }
            bool has_secondary = other && cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(other, "secondaryAnimation"));
            cJSON_Delete(other);
            if (has_secondary && !sw__warn(&R, "extensions.VRM.secondaryAnimation", "ignored: %s is used", used_name)) {
                result = sw__oom(&R);
                goto done;
            }
        }
        result = v1    ? sw__read_vrm1(&R, json, base, SW_SPRING_SOURCE_VRMC_SPRING_BONE)
               : own ? sw__read_vrm1(&R, json, base, SW_SPRING_SOURCE_SINEW)
                     : sw__read_vrm0(&R, json, base);
    }
done:
    cJSON_Delete(json);
    sw__free(R.used);
    sw__free(R.scratch);
    if (result != SW_OK) {
        sw_spring_set_free(R.out ? &R.out->set : NULL);
        return result;
    }
    *out_set = &R.out->set;
    return SW_OK;
}
