/* glTF loader: accessors (parsed against their bufferViews, checked
   against each use, decoded), then meshes: attributes, joint influences,
   indices, morph targets and primitives (see gltf_internal.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gltf_internal.h"

/* ---- accessors ---------------------------------------------------------------------------- */

static bool sw__element_type(const char* type, uint32_t* columns, uint32_t* rows) {
    static const struct { const char* name; uint32_t columns, rows; } types[] = {
        {"SCALAR", 1, 1}, {"VEC2", 1, 2}, {"VEC3", 1, 3}, {"VEC4", 1, 4},
        {"MAT2", 2, 2}, {"MAT3", 3, 3}, {"MAT4", 4, 4},
    };
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        if (strcmp(type, types[i].name) == 0) {
            *columns = types[i].columns;
            *rows = types[i].rows;
            return true;
        }
    }
    return false;
}

/* Bytes of a bufferView from `offset` on, or an error when offset is past its end. */
static sw_result sw__view_bytes(sw__loader* L, const char* where, int32_t view, size_t offset, const uint8_t** data,
                                size_t* size) {
    const sw__gltf_buffer_view* v = &L->views[view];
    if (offset > v->byte_length)
        return sw__fail(L, SW_ERR_INVALID_DATA, where, "byteOffset %zu is past the end of bufferViews[%d] (%zu bytes)",
                        offset, (int)view, v->byte_length);
    *data = L->buffer_data[v->buffer] + v->byte_offset + offset;
    *size = v->byte_length - offset;
    return SW_OK;
}

static sw_result sw__parse_accessor(sw__loader* L, const cJSON* j, const char* path, sw__gltf_accessor* a) {
    int32_t view;
    size_t offset = 0, component = 0, count = 0;
    const char* type;
    bool normalized = false;
    if (sw__get_index(L, j, path, "bufferView", false, &L->buffer_views, "bufferViews", &view) != SW_OK ||
        sw__get_uint(L, j, path, "byteOffset", false, sw__max_size, &offset) != SW_OK ||
        sw__get_uint(L, j, path, "componentType", true, sw__max_size, &component) != SW_OK ||
        sw__get_bool(L, j, path, "normalized", &normalized) != SW_OK ||
        sw__get_uint(L, j, path, "count", true, sw__max_size, &count) != SW_OK ||
        sw__get_string(L, j, path, "type", true, &type) != SW_OK)
        return L->diag.result;
    if (sw__gltf_component_size((uint32_t)component) == 0 || component > UINT32_MAX)
        return sw__fail(L, SW_ERR_INVALID_DATA, sw__at(path, "componentType").s,
                        "%zu is not a glTF 2.0 componentType (5120, 5121, 5122, 5123, 5125, 5126)", component);
    if (count == 0) return sw__fail(L, SW_ERR_INVALID_DATA, sw__at(path, "count").s, "must be >= 1");
    *a = (sw__gltf_accessor){.component_type = (uint32_t)component, .normalized = normalized, .count = count};
    if (!sw__element_type(type, &a->columns, &a->rows))
        return sw__fail(L, SW_ERR_INVALID_DATA, sw__at(path, "type").s,
                        "'%s' is not SCALAR, VEC2, VEC3, VEC4, MAT2, MAT3 or MAT4", type);
    if (view >= 0) {
        if (sw__view_bytes(L, sw__at(path, "byteOffset").s, view, offset, &a->data, &a->data_size) != SW_OK)
            return L->diag.result;
        a->stride = L->views[view].byte_stride;
    }

    const cJSON* sparse;
    if (sw__get_object(L, j, path, "sparse", false, &sparse) != SW_OK) return L->diag.result;
    if (sparse) {
        sw__path sp = sw__at(path, "sparse");
        const cJSON *indices, *values;
        size_t sparse_count = 0, index_type = 0, index_offset = 0, value_offset = 0;
        int32_t index_view, value_view;
        if (sw__get_uint(L, sparse, sp.s, "count", true, sw__max_size, &sparse_count) != SW_OK ||
            sw__get_object(L, sparse, sp.s, "indices", true, &indices) != SW_OK ||
            sw__get_object(L, sparse, sp.s, "values", true, &values) != SW_OK)
            return L->diag.result;
        sw__path ip = sw__at(sp.s, "indices"), vp = sw__at(sp.s, "values");
        if (sw__get_index(L, indices, ip.s, "bufferView", true, &L->buffer_views, "bufferViews", &index_view) !=
                SW_OK ||
            sw__get_uint(L, indices, ip.s, "byteOffset", false, sw__max_size, &index_offset) != SW_OK ||
            sw__get_uint(L, indices, ip.s, "componentType", true, sw__max_size, &index_type) != SW_OK ||
            sw__get_index(L, values, vp.s, "bufferView", true, &L->buffer_views, "bufferViews", &value_view) != SW_OK ||
            sw__get_uint(L, values, vp.s, "byteOffset", false, sw__max_size, &value_offset) != SW_OK)
            return L->diag.result;
        if (sparse_count == 0) return sw__fail(L, SW_ERR_INVALID_DATA, sw__at(sp.s, "count").s, "must be >= 1");
        if (index_type != SW__GLTF_UNSIGNED_BYTE && index_type != SW__GLTF_UNSIGNED_SHORT &&
            index_type != SW__GLTF_UNSIGNED_INT)
            return sw__fail(L, SW_ERR_INVALID_DATA, sw__at(ip.s, "componentType").s,
                            "%zu is not UNSIGNED_BYTE, UNSIGNED_SHORT or UNSIGNED_INT", index_type);
        a->sparse_count = sparse_count;
        a->sparse_index_type = (uint32_t)index_type;
        if (sw__view_bytes(L, sw__at(ip.s, "byteOffset").s, index_view, index_offset, &a->sparse_indices,
                           &a->sparse_indices_size) != SW_OK ||
            sw__view_bytes(L, sw__at(vp.s, "byteOffset").s, value_view, value_offset, &a->sparse_values,
                           &a->sparse_values_size) != SW_OK)
            return L->diag.result;
    }
    sw_diag inner = {0};
    if (sw__gltf_accessor_check(a, &inner) != SW_OK) return sw__fail_from(L, path, &inner);
    return SW_OK;
}

sw_result sw__parse_accessors(sw__loader* L) {
    size_t n = L->accessors.count;
    if (n == 0) return SW_OK;
    L->acc = sw__array(L, &L->scratch, n, sizeof *L->acc);
    L->times = sw__array(L, &L->scratch, n, sizeof *L->times);
    if (!L->acc || !L->times) return L->diag.result;
    for (size_t i = 0; i < n; i++)
        if (sw__parse_accessor(L, L->accessors.items[i], sw__pathf("accessors[%zu]", i).s, &L->acc[i]) != SW_OK)
            return L->diag.result;
    return SW_OK;
}

/* ---- what a use of an accessor allows ------------------------------------------------------ */

static const char* sw__type_name(const sw__gltf_accessor* a) {
    static const char* const vectors[] = {"", "SCALAR", "VEC2", "VEC3", "VEC4"};
    static const char* const matrices[] = {"", "", "MAT2", "MAT3", "MAT4"};
    return a->columns == 1 ? vectors[a->rows] : matrices[a->columns];
}

static const char* sw__component_name(uint32_t type) {
    switch (type) {
    case SW__GLTF_BYTE: return "BYTE";
    case SW__GLTF_UNSIGNED_BYTE: return "UNSIGNED_BYTE";
    case SW__GLTF_SHORT: return "SHORT";
    case SW__GLTF_UNSIGNED_SHORT: return "UNSIGNED_SHORT";
    case SW__GLTF_UNSIGNED_INT: return "UNSIGNED_INT";
    default: return "FLOAT";
    }
}

/* Does the accessor's componentType (and normalized) fit `allow`? */
static bool sw__components_allowed(const sw__gltf_accessor* a, unsigned allow) {
    uint32_t t = a->component_type;
    bool small = t != SW__GLTF_FLOAT && t != SW__GLTF_UNSIGNED_INT;
    bool unsigned_small = t == SW__GLTF_UNSIGNED_BYTE || t == SW__GLTF_UNSIGNED_SHORT;
    return ((allow & SW__FLOAT) && t == SW__GLTF_FLOAT) || ((allow & SW__NORM) && small && a->normalized) ||
           ((allow & SW__UNORM) && unsigned_small && a->normalized) || ((allow & SW__INT) && small && !a->normalized) ||
           ((allow & SW__UINT16) && unsigned_small && !a->normalized) ||
           ((allow & SW__UINT32) && t == SW__GLTF_UNSIGNED_INT);
}

/* Checks accessor `index` against a use (`where` is the JSON path of the
   reference) and returns it. */
sw_result sw__use_accessor(sw__loader* L, const char* where, uint32_t index, unsigned types, unsigned allow,
                           const sw__gltf_accessor** out) {
    static const struct { unsigned bit; const char* name; } type_names[] = {
        {SW__SCALAR, "SCALAR"}, {SW__VEC2, "VEC2"}, {SW__VEC3, "VEC3"}, {SW__VEC4, "VEC4"}, {SW__MAT4, "MAT4"}};
    static const struct { unsigned bit; const char* name; } component_names[] = {
        {SW__FLOAT, "FLOAT"},
        {SW__NORM, "normalized (UNSIGNED_)BYTE/SHORT"},
        {SW__UNORM, "normalized UNSIGNED_BYTE/SHORT"},
        {SW__INT, "(UNSIGNED_)BYTE/SHORT"},
        {SW__UINT16, "UNSIGNED_BYTE/SHORT"},
        {SW__UINT32, "UNSIGNED_INT"}};
    const sw__gltf_accessor* a = &L->acc[index];
    char expected[128] = "";
    size_t used = 0;
    unsigned type_bit = a->columns == 1 ? 1u << a->rows : a->columns == 4 ? SW__MAT4 : 0u;
    if (!(type_bit & types)) {
        for (size_t i = 0; i < sizeof type_names / sizeof type_names[0]; i++)
            if (types & type_names[i].bit)
                used += (size_t)snprintf(expected + used, sizeof expected - used, "%s%s", used ? " or " : "",
                                         type_names[i].name);
        return sw__fail(L, SW_ERR_INVALID_DATA, where, "accessors[%u] is %s; expected %s", (unsigned)index,
                        sw__type_name(a), expected);
    }
    if (!sw__components_allowed(a, allow)) {
        for (size_t i = 0; i < sizeof component_names / sizeof component_names[0] && used < 96; i++)
            if (allow & component_names[i].bit)
                used += (size_t)snprintf(expected + used, sizeof expected - used, "%s%s", used ? " or " : "",
                                         component_names[i].name);
        return sw__fail(L, SW_ERR_INVALID_DATA, where, "accessors[%u] has %s%s components; expected %s",
                        (unsigned)index, a->normalized ? "normalized " : "", sw__component_name(a->component_type),
                        expected);
    }
    *out = a;
    return SW_OK;
}

/* Decodes an accessor to floats or to unsigned integers (4 bytes each) in
   the asset (or, with `temp`, in a temporary to give back with
   sw__temp_free). */
static void* sw__decode(sw__loader* L, const char* where, uint32_t index, const sw__gltf_accessor* a, bool temp,
                        bool uints) {
    size_t n;
    if (!sw_mul_size(a->count, (size_t)a->columns * a->rows, &n)) {
        sw__fail(L, SW_ERR_OUT_OF_MEMORY, where, "accessors[%u]: too many elements", (unsigned)index);
        return NULL;
    }
    void* out = temp ? sw__temp_alloc(L, n, 4) : sw__array(L, L->arena, n, 4);
    if (!out) return NULL;
    sw_diag inner = {0};
    const sw_result r = uints ? sw__gltf_accessor_read_uints(a, (uint32_t*)out, &inner)
                              : sw__gltf_accessor_read_floats(a, (float*)out, &inner);
    if (r != SW_OK) {
        sw__fail(L, inner.result, where, "accessors[%u]: %s", (unsigned)index, inner.message);
        L->diag.index = inner.index;
        if (temp) sw__temp_free(L, out);
        return NULL;
    }
    return out;
}

float* sw__decode_floats(sw__loader* L, const char* where, uint32_t index, const sw__gltf_accessor* a, bool temp) {
    return (float*)sw__decode(L, where, index, a, temp, false);
}

static uint32_t* sw__decode_uints(sw__loader* L, const char* where, uint32_t index, const sw__gltf_accessor* a,
                                  bool temp) {
    return (uint32_t*)sw__decode(L, where, index, a, temp, true);
}

/* ---- the memory plan: helpers and meshes ------------------------------------------------ */

size_t sw__plan_mul(size_t a, size_t b) {
    size_t r;
    return sw_mul_size(a, b, &r) ? r : SIZE_MAX;
}

void sw__plan_add(sw__plan* plan, const char* where, int64_t accessor, size_t bytes, bool temp) {
    if (temp) {
        if (bytes > plan->temp) plan->temp = bytes;
    } else {
        plan->kept = bytes > SIZE_MAX - plan->kept ? SIZE_MAX : plan->kept + bytes;
    }
    if (bytes > plan->largest) {
        plan->largest = bytes;
        plan->largest_accessor = accessor;
        plan->largest_where = sw__pathf("%s", where);
    }
}

bool sw__plan_index(const sw__loader* L, const cJSON* v, uint32_t* out) {
    if (!cJSON_IsNumber(v) || !(v->valuedouble >= 0) || v->valuedouble >= (double)L->accessors.count ||
        floor(v->valuedouble) != v->valuedouble)
        return false;
    *out = (uint32_t)v->valuedouble;
    return true;
}

size_t sw__decoded_bytes(const sw__gltf_accessor* a) {
    return sw__plan_mul(a->count, (size_t)a->columns * a->rows * 4);
}

size_t sw__backed(const sw__gltf_accessor* a) {
    if (a->data) return a->count;
    size_t n = sw__plan_mul(a->sparse_count + 1, SW__BACKED_PER_VALUE);
    return n < a->count ? n : a->count;
}

/* ---- meshes ----------------------------------------------------------------------------- */

/* Attribute indices of one primitive, by semantic and set. */
typedef struct sw__attributes {
    int32_t position, normal, tangent;
    int32_t texcoord[SW__MAX_SETS], color[SW__MAX_SETS], joints[SW__MAX_SETS], weights[SW__MAX_SETS];
} sw__attributes;

/* Set number of "PREFIX_n" (n without leading zeros), or -1. */
static int sw__set_number(const char* name, const char* prefix) {
    size_t n = strlen(prefix);
    if (strncmp(name, prefix, n) != 0) return -1;
    const char* digits = name + n;
    if (!*digits || (digits[0] == '0' && digits[1]) || strlen(digits) > 6) return -1;
    long v = 0;
    for (const char* c = digits; *c; c++) {
        if (*c < '0' || *c > '9') return -1;
        v = v * 10 + (*c - '0');
    }
    return (int)v;
}

static sw_result sw__scan_attributes(sw__loader* L, const cJSON* attributes, const char* path, sw__attributes* out) {
    out->position = out->normal = out->tangent = -1;
    for (int s = 0; s < SW__MAX_SETS; s++) out->texcoord[s] = out->color[s] = out->joints[s] = out->weights[s] = -1;
    const cJSON* a;
    cJSON_ArrayForEach(a, attributes) {
        const char* name = a->string ? a->string : "";
        sw__path where = sw__at(path, name);
        uint32_t index;
        if (sw__value_index(L, a, where.s, L->accessors.count, "accessors", &index) != SW_OK) return L->diag.result;
        int set;
        int32_t* slot = NULL;
        if (strcmp(name, "POSITION") == 0) slot = &out->position;
        else if (strcmp(name, "NORMAL") == 0) slot = &out->normal;
        else if (strcmp(name, "TANGENT") == 0) slot = &out->tangent;
        else if ((set = sw__set_number(name, "TEXCOORD_")) >= 0) slot = set < SW__MAX_SETS ? &out->texcoord[set] : NULL;
        else if ((set = sw__set_number(name, "COLOR_")) >= 0) slot = set < SW__MAX_SETS ? &out->color[set] : NULL;
        else if ((set = sw__set_number(name, "JOINTS_")) >= 0) slot = set < SW__MAX_SETS ? &out->joints[set] : NULL;
        else if ((set = sw__set_number(name, "WEIGHTS_")) >= 0) slot = set < SW__MAX_SETS ? &out->weights[set] : NULL;
        else if (name[0] == '_') continue; /* application-specific, by the spec's convention */
        if (!slot) {
            sw__warn(L, where.s, "attribute ignored");
            continue;
        }
        *slot = (int32_t)index;
    }
    return SW_OK;
}

/* Reads one vertex attribute as floats: type, components and count
   checked. `core` is what glTF allows without KHR_mesh_quantization. */
static sw_result sw__read_attribute(sw__loader* L, const char* path, const char* name, int32_t index,
                                    size_t vertex_count, unsigned types, unsigned allow, unsigned core, bool temp,
                                    float** out, uint32_t* out_rows) {
    sw__path where = sw__at(path, name);
    const sw__gltf_accessor* a;
    if (sw__use_accessor(L, where.s, (uint32_t)index, types, allow, &a) != SW_OK) return L->diag.result;
    if (vertex_count && a->count != vertex_count)
        return sw__fail(L, SW_ERR_INVALID_DATA, where.s, "accessors[%d] has %zu elements, POSITION has %zu",
                        (int)index, a->count, vertex_count);
    if (!sw__components_allowed(a, core)) L->quantization_used = true;
    *out = sw__decode_floats(L, where.s, (uint32_t)index, a, temp);
    if (out_rows) *out_rows = a->rows;
    return *out ? SW_OK : L->diag.result;
}

/* The JOINTS_n/WEIGHTS_n sets present: *out_sets of them, numbered
   set_number[0 .. *out_sets). A JOINTS_n without its WEIGHTS_n (or the
   reverse) fails; a gap in the numbering is a warning. */
static sw_result sw__influence_sets(sw__loader* L, const char* path, const sw__attributes* at,
                                    int set_number[SW__MAX_SETS], int* out_sets) {
    int sets = 0;
    for (int s = 0; s < SW__MAX_SETS; s++) {
        if ((at->joints[s] >= 0) != (at->weights[s] >= 0))
            return sw__fail(L, SW_ERR_INVALID_DATA, path, "%s_%d without %s_%d",
                            at->joints[s] >= 0 ? "JOINTS" : "WEIGHTS", s, at->joints[s] >= 0 ? "WEIGHTS" : "JOINTS", s);
        if (at->joints[s] >= 0) {
            if (s != sets)
                sw__warn(L, path, "JOINTS_%d/WEIGHTS_%d without set %d (sets should be numbered from 0)", s, s, sets);
            set_number[sets++] = s;
        }
    }
    *out_sets = sets;
    return SW_OK;
}

/* Every set decoded into `joints` and `weights`, interleaved: vertex v's
   slots are [v*slots + 4*k .. +4) for the k-th set. */
static sw_result sw__interleave_sets(sw__loader* L, const char* path, const sw__attributes* at, size_t vertex_count,
                                     size_t slots, uint32_t* joints, float* weights) {
    for (int s = 0, k = 0; s < SW__MAX_SETS; s++) {
        if (at->joints[s] < 0) continue;
        char jname[16], wname[16];
        snprintf(jname, sizeof jname, "JOINTS_%d", s);
        snprintf(wname, sizeof wname, "WEIGHTS_%d", s);
        sw__path jw = sw__at(path, jname), ww = sw__at(path, wname);
        const sw__gltf_accessor *ja, *wa;
        if (sw__use_accessor(L, jw.s, (uint32_t)at->joints[s], SW__VEC4, SW__UINT16, &ja) != SW_OK ||
            sw__use_accessor(L, ww.s, (uint32_t)at->weights[s], SW__VEC4, SW__FLOAT | SW__UNORM, &wa) != SW_OK)
            return L->diag.result;
        if (ja->count != vertex_count || wa->count != vertex_count)
            return sw__fail(L, SW_ERR_INVALID_DATA, ja->count != vertex_count ? jw.s : ww.s,
                            "%zu elements, POSITION has %zu", ja->count != vertex_count ? ja->count : wa->count,
                            vertex_count);
        uint32_t* j = sw__decode_uints(L, jw.s, (uint32_t)at->joints[s], ja, true);
        float* w = j ? sw__decode_floats(L, ww.s, (uint32_t)at->weights[s], wa, true) : NULL;
        if (!w) {
            sw__temp_free(L, j);
            return L->diag.result;
        }
        for (size_t v = 0; v < vertex_count; v++) {
            memcpy(&joints[v * slots + 4 * (size_t)k], &j[v * 4], 4 * sizeof(uint32_t));
            memcpy(&weights[v * slots + 4 * (size_t)k], &w[v * 4], 4 * sizeof(float));
        }
        sw__temp_free(L, j);
        sw__temp_free(L, w);
        k++;
    }
    return SW_OK;
}

/* keep_raw_influences: the interleaved sets as read. */
static sw_result sw__keep_raw_influences(sw__loader* L, size_t vertex_count, size_t slots, const uint32_t* joints,
                                         const float* weights, sw_model_primitive* p) {
    uint16_t* raw_joints = sw__array(L, L->arena, vertex_count, slots * sizeof(uint16_t));
    float* raw_weights = sw__array(L, L->arena, vertex_count, slots * sizeof(float));
    if (!raw_joints || !raw_weights) return L->diag.result;
    /* JOINTS_n are u8 or u16, so every index fits */
    for (size_t e = 0; e < vertex_count * slots; e++) raw_joints[e] = (uint16_t)joints[e];
    memcpy(raw_weights, weights, vertex_count * slots * sizeof(float));
    p->raw_influence_count = (int)slots;
    p->raw_joints = raw_joints;
    p->raw_weights = raw_weights;
    return SW_OK;
}

/* Per vertex, from its interleaved slots into kept_max outputs: the
   non-zero weights in file order, the kept_max largest when there are
   more, renormalised; what was changed is counted and warned about once
   per primitive. A negative weight fails unless keep_raw_influences. */
static sw_result sw__keep_influences(sw__loader* L, const char* path, const int* set_number, size_t vertex_count,
                                     size_t slots, int kept_max, const uint32_t* joints, const float* weights,
                                     uint16_t* out_joints, float* out_weights) {
    size_t unnormalised = 0, truncated = 0, all_zero = 0, negative = 0;
    bool keep[SW__MAX_SETS * 4];
    for (size_t v = 0; v < vertex_count; v++) {
        const uint32_t* vj = &joints[v * slots];
        const float* vw = &weights[v * slots];
        uint16_t* oj = &out_joints[v * (size_t)kept_max];
        float* ow = &out_weights[v * (size_t)kept_max];
        double sum = 0.0;
        int nonzero = 0;
        bool has_negative = false;
        for (size_t e = 0; e < slots; e++) {
            if (vw[e] < 0.0f && !L->keep_raw_influences) {
                sw__fail(L, SW_ERR_INVALID_DATA, sw__pathf("%s.WEIGHTS_%d", path, set_number[e / 4]).s,
                         "vertex %zu has a negative weight (%g)", v, (double)vw[e]);
                L->diag.index = (int64_t)v;
                return L->diag.result;
            }
            has_negative = has_negative || vw[e] < 0.0f;
            keep[e] = vw[e] > 0.0f;
            if (keep[e]) sum += vw[e];
            nonzero += keep[e];
        }
        negative += has_negative;
        if (nonzero == 0) {
            all_zero++;
            oj[0] = (uint16_t)vj[0];
            ow[0] = 1.0f;
            continue;
        }
        if (fabs(sum - 1.0) > 1e-3) unnormalised++;
        if (nonzero > kept_max) {
            /* keep the kept_max largest (the earlier one on ties), in file order */
            truncated++;
            bool chosen[SW__MAX_SETS * 4] = {false};
            for (int c = 0; c < kept_max; c++) {
                size_t best = slots;
                for (size_t e = 0; e < slots; e++)
                    if (keep[e] && !chosen[e] && (best == slots || vw[e] > vw[best])) best = e;
                chosen[best] = true;
            }
            memcpy(keep, chosen, sizeof keep);
        }
        double kept_sum = 0.0;
        int o = 0;
        for (size_t e = 0; e < slots; e++) {
            if (!keep[e]) continue;
            oj[o] = (uint16_t)vj[e];
            ow[o] = vw[e];
            kept_sum += vw[e];
            o++;
        }
        for (int e = 0; e < o; e++) ow[e] = (float)(ow[e] / kept_sum);
    }
    if (unnormalised)
        sw__warn(L, path, "%zu vertices have weights that do not sum to 1 (off by more than 0.001; renormalised)",
                 unnormalised);
    if (truncated)
        sw__warn(L, path, "%zu vertices have more than %d non-zero weights (the %d largest kept, renormalised)",
                 truncated, kept_max, kept_max);
    if (all_zero)
        sw__warn(L, path, "%zu vertices have only zero weights (given weight 1 on their first joint)", all_zero);
    if (negative)
        sw__warn(L, path, "%zu vertices have negative weights (dropped before renormalising; glTF forbids them)",
                 negative);
    return SW_OK;
}

/* Joint influences: every JOINTS_n/WEIGHTS_n set is read; per vertex the
   non-zero weights are kept in file order, the largest max_influences of
   them when there are more, and renormalised to sum to 1. With
   keep_raw_influences the sets are also copied as read, and negative
   weights are dropped with a warning instead of failing the load. */
static sw_result sw__read_influences(sw__loader* L, const char* path, const sw__attributes* at, size_t vertex_count,
                                     sw_model_primitive* p) {
    int sets = 0, set_number[SW__MAX_SETS];
    if (sw__influence_sets(L, path, at, set_number, &sets) != SW_OK) return L->diag.result;
    if (sets == 0) return SW_OK;
    int kept_max = sets == 1 || L->max_influences == 4 ? 4 : 8;
    size_t slots = (size_t)sets * 4;
    uint32_t* joints = sw__temp_alloc(L, slots, vertex_count * sizeof(uint32_t));
    float* weights = sw__temp_alloc(L, slots, vertex_count * sizeof(float));
    uint16_t* out_joints = NULL;
    float* out_weights = NULL;
    sw_result r = SW_OK;
    if (!joints || !weights || sw__interleave_sets(L, path, at, vertex_count, slots, joints, weights) != SW_OK)
        goto fail;
    out_joints = sw__array(L, L->arena, vertex_count, (size_t)kept_max * sizeof(uint16_t));
    out_weights = sw__array(L, L->arena, vertex_count, (size_t)kept_max * sizeof(float));
    if (!out_joints || !out_weights) goto fail;
    if (L->keep_raw_influences && sw__keep_raw_influences(L, vertex_count, slots, joints, weights, p) != SW_OK)
        goto fail;
    if (sw__keep_influences(L, path, set_number, vertex_count, slots, kept_max, joints, weights, out_joints,
                            out_weights) != SW_OK)
        goto fail;
    p->influence_sets = sets;
    p->influence_count = kept_max;
    p->joints = out_joints;
    p->weights = out_weights;
    sw__temp_free(L, joints);
    sw__temp_free(L, weights);
    return SW_OK;
fail:
    r = L->diag.result;
    sw__temp_free(L, joints);
    sw__temp_free(L, weights);
    return r;
}

static sw_result sw__read_indices(sw__loader* L, const char* path, int32_t index, size_t vertex_count,
                                  sw_model_primitive* p) {
    sw__path where = sw__at(path, "indices");
    const sw__gltf_accessor* a;
    if (sw__use_accessor(L, where.s, (uint32_t)index, SW__SCALAR, SW__UINT16 | SW__UINT32, &a) != SW_OK)
        return L->diag.result;
    uint32_t* indices = sw__decode_uints(L, where.s, (uint32_t)index, a, false);
    if (!indices) return L->diag.result;
    uint32_t restart = a->component_type == SW__GLTF_UNSIGNED_BYTE    ? 0xFFu
                       : a->component_type == SW__GLTF_UNSIGNED_SHORT ? 0xFFFFu
                                                                      : 0xFFFFFFFFu;
    for (size_t i = 0; i < a->count; i++) {
        if (indices[i] >= vertex_count) {
            sw__fail(L, SW_ERR_INDEX_OUT_OF_RANGE, where.s, "index %u at position %zu is out of range (%zu vertices)%s",
                     (unsigned)indices[i], i, vertex_count,
                     indices[i] == restart ? "; it is the primitive-restart value, which glTF does not allow" : "");
            L->diag.index = (int64_t)i;
            return L->diag.result;
        }
    }
    p->indices = indices;
    p->index_count = a->count;
    return SW_OK;
}

static sw_result sw__read_targets(sw__loader* L, const cJSON* targets, const char* path, size_t vertex_count,
                                  sw_model_primitive* p) {
    size_t n = (size_t)cJSON_GetArraySize(targets);
    if (n == 0) return SW_OK;
    sw_model_morph_target* out = sw__array(L, L->arena, n, sizeof *out);
    if (!out) return L->diag.result;
    size_t t = 0;
    const cJSON* target;
    cJSON_ArrayForEach(target, targets) {
        sw__path tp = sw__pathf("%s[%zu]", path, t);
        if (!cJSON_IsObject(target)) return sw__fail(L, SW_ERR_INVALID_DATA, tp.s, "expected an object");
        const cJSON* a;
        cJSON_ArrayForEach(a, target) {
            const char* name = a->string ? a->string : "";
            sw__path where = sw__at(tp.s, name);
            uint32_t index;
            if (sw__value_index(L, a, where.s, L->accessors.count, "accessors", &index) != SW_OK)
                return L->diag.result;
            const float** slot = strcmp(name, "POSITION") == 0 ? &out[t].positions
                                 : strcmp(name, "NORMAL") == 0 ? &out[t].normals
                                 : strcmp(name, "TANGENT") == 0 ? &out[t].tangents
                                                                : NULL;
            if (!slot) {
                if (name[0] != '_') sw__warn(L, where.s, "morph target attribute ignored");
                continue;
            }
            float* deltas;
            if (sw__read_attribute(L, tp.s, name, (int32_t)index, vertex_count, SW__VEC3,
                                   SW__FLOAT | SW__NORM | SW__INT, SW__FLOAT, false, &deltas, NULL) != SW_OK)
                return L->diag.result;
            *slot = deltas;
        }
        t++;
    }
    p->targets = out;
    p->target_count = n;
    return SW_OK;
}

static size_t sw__non_unit(const float* v, size_t count, size_t components) {
    size_t bad = 0;
    for (size_t i = 0; i < count; i++) {
        const float* x = &v[i * components];
        double length = sqrt((double)x[0] * x[0] + (double)x[1] * x[1] + (double)x[2] * x[2]);
        if (fabs(length - 1.0) > 0.02) bad++;
    }
    return bad;
}

static sw_result sw__parse_primitive(sw__loader* L, const cJSON* j, const char* path, sw_model_primitive* p) {
    const cJSON *attributes, *targets;
    size_t mode = SW_MODEL_TRIANGLES;
    int32_t indices;
    *p = (sw_model_primitive){.material = -1};
    if (sw__get_object(L, j, path, "attributes", true, &attributes) != SW_OK ||
        sw__get_uint(L, j, path, "mode", false, 6, &mode) != SW_OK ||
        sw__get_index(L, j, path, "material", false, &L->materials, "materials", &p->material) != SW_OK ||
        sw__get_index(L, j, path, "indices", false, &L->accessors, "accessors", &indices) != SW_OK ||
        sw__get_array(L, j, path, "targets", false, &targets) != SW_OK)
        return L->diag.result;
    p->mode = (sw_model_mode)mode;
    sw__path ap = sw__at(path, "attributes");
    sw__attributes at;
    if (sw__scan_attributes(L, attributes, ap.s, &at) != SW_OK) return L->diag.result;

    /* POSITION first: it fixes the vertex count every other attribute must match. */
    if (at.position < 0) return sw__fail(L, SW_ERR_INVALID_DATA, ap.s, "no POSITION attribute");
    float* positions;
    if (sw__read_attribute(L, ap.s, "POSITION", at.position, 0, SW__VEC3, SW__FLOAT | SW__NORM | SW__INT,
                           SW__FLOAT, false, &positions, NULL) != SW_OK)
        return L->diag.result;
    size_t vertex_count = L->acc[at.position].count;
    p->vertex_count = vertex_count;
    p->positions = positions;
    for (int c = 0; c < 3; c++) p->bounds_min[c] = p->bounds_max[c] = positions[c];
    for (size_t v = 1; v < vertex_count; v++)
        for (int c = 0; c < 3; c++) {
            float x = positions[v * 3 + c];
            if (x < p->bounds_min[c]) p->bounds_min[c] = x;
            if (x > p->bounds_max[c]) p->bounds_max[c] = x;
        }

    if (at.normal >= 0) {
        float* normals;
        if (sw__read_attribute(L, ap.s, "NORMAL", at.normal, vertex_count, SW__VEC3, SW__FLOAT | SW__NORM,
                               SW__FLOAT, false, &normals, NULL) != SW_OK)
            return L->diag.result;
        size_t bad = sw__non_unit(normals, vertex_count, 3);
        if (bad) sw__warn(L, sw__at(ap.s, "NORMAL").s, "%zu normals are not unit length (kept as they are)", bad);
        p->normals = normals;
    }
    if (at.tangent >= 0) {
        float* tangents;
        if (sw__read_attribute(L, ap.s, "TANGENT", at.tangent, vertex_count, SW__VEC4, SW__FLOAT | SW__NORM,
                               SW__FLOAT, false, &tangents, NULL) != SW_OK)
            return L->diag.result;
        p->tangents = tangents;
    }
    /* TEXCOORD sets must be numbered from 0 without gaps (a MUST of the
       spec). A gap is an error rather than a warning: texcoords[] is
       indexed by set number, and materials name sets by number, so
       renumbering would silently map textures onto a different set than
       the author meant, and dropping the set would leave a material's
       texCoord pointing at nothing (issue_3269's crash). */
    int texcoords = 0;
    while (texcoords < SW__MAX_SETS && at.texcoord[texcoords] >= 0) texcoords++;
    for (int s = texcoords; s < SW__MAX_SETS; s++)
        if (at.texcoord[s] >= 0)
            return sw__fail(L, SW_ERR_INVALID_DATA, ap.s,
                            "TEXCOORD_%d without TEXCOORD_%d (sets must be numbered from 0 without gaps)", s,
                            texcoords);
    if (texcoords > SW_MODEL_MAX_TEXCOORDS)
        sw__warn(L, ap.s, "%d TEXCOORD sets; only the first %d are read", texcoords, SW_MODEL_MAX_TEXCOORDS);
    for (int s = 0; s < texcoords && s < SW_MODEL_MAX_TEXCOORDS; s++) {
        char name[16];
        snprintf(name, sizeof name, "TEXCOORD_%d", s);
        float* uv;
        if (sw__read_attribute(L, ap.s, name, at.texcoord[s], vertex_count, SW__VEC2, SW__FLOAT | SW__NORM | SW__INT,
                               SW__FLOAT | SW__UNORM, false, &uv, NULL) != SW_OK)
            return L->diag.result;
        p->texcoords[s] = uv;
        p->texcoord_count = s + 1;
    }
    for (int s = 1; s < SW__MAX_SETS; s++)
        if (at.color[s] >= 0) sw__warn(L, ap.s, "COLOR_%d ignored (only COLOR_0 is read)", s);
    if (at.color[0] >= 0) {
        float* color;
        uint32_t rows;
        if (sw__read_attribute(L, ap.s, "COLOR_0", at.color[0], vertex_count, SW__VEC3 | SW__VEC4,
                               SW__FLOAT | SW__UNORM, SW__FLOAT | SW__UNORM, true, &color, &rows) != SW_OK)
            return L->diag.result;
        float* rgba = sw__array(L, L->arena, vertex_count, 4 * sizeof(float));
        if (!rgba) {
            sw__temp_free(L, color);
            return L->diag.result;
        }
        for (size_t v = 0; v < vertex_count; v++)
            for (uint32_t c = 0; c < 4; c++) rgba[v * 4 + c] = c < rows ? color[v * rows + c] : 1.0f;
        sw__temp_free(L, color);
        p->colors = rgba;
    }
    if (sw__read_influences(L, ap.s, &at, vertex_count, p) != SW_OK) return L->diag.result;
    if (indices >= 0 && sw__read_indices(L, path, indices, vertex_count, p) != SW_OK) return L->diag.result;
    if (targets && sw__read_targets(L, targets, sw__at(path, "targets").s, vertex_count, p) != SW_OK)
        return L->diag.result;

    size_t elements = p->indices ? p->index_count : vertex_count;
    if ((p->mode == SW_MODEL_TRIANGLES && elements % 3 != 0) || (p->mode == SW_MODEL_LINES && elements % 2 != 0))
        sw__warn(L, path, "%zu %s do not make whole %s", elements, p->indices ? "indices" : "vertices",
                 p->mode == SW_MODEL_TRIANGLES ? "triangles" : "lines");
    return SW_OK;
}

sw_result sw__parse_meshes(sw__loader* L) {
    size_t n = L->meshes.count;
    if (n == 0) return SW_OK;
    sw_model_mesh* meshes = sw__array(L, L->arena, n, sizeof *meshes);
    if (!meshes) return L->diag.result;
    L->meshes_out = meshes;
    for (size_t i = 0; i < n; i++) {
        const cJSON* m = L->meshes.items[i];
        sw__path path = sw__pathf("meshes[%zu]", i);
        const cJSON *primitives, *weights, *extras;
        if (sw__get_name(L, m, path.s, &meshes[i].name) != SW_OK ||
            sw__get_array(L, m, path.s, "primitives", true, &primitives) != SW_OK ||
            sw__get_array(L, m, path.s, "weights", false, &weights) != SW_OK)
            return L->diag.result;
        size_t count = (size_t)cJSON_GetArraySize(primitives);
        if (count == 0) return sw__fail(L, SW_ERR_INVALID_DATA, sw__at(path.s, "primitives").s, "is empty");
        sw_model_primitive* prims = sw__array(L, L->arena, count, sizeof *prims);
        if (!prims) return L->diag.result;
        size_t k = 0;
        const cJSON* pj;
        cJSON_ArrayForEach(pj, primitives) {
            sw__path pp = sw__pathf("%s.primitives[%zu]", path.s, k);
            if (!cJSON_IsObject(pj)) return sw__fail(L, SW_ERR_INVALID_DATA, pp.s, "expected an object");
            if (sw__parse_primitive(L, pj, pp.s, &prims[k]) != SW_OK) return L->diag.result;
            if (prims[k].target_count != prims[0].target_count)
                return sw__fail(L, SW_ERR_INVALID_DATA, pp.s, "%zu morph targets, but primitives[0] has %zu",
                                prims[k].target_count, prims[0].target_count);
            k++;
        }
        meshes[i].primitives = prims;
        meshes[i].primitive_count = count;
        size_t targets = prims[0].target_count;
        meshes[i].weight_count = targets;
        if (weights && (size_t)cJSON_GetArraySize(weights) != targets)
            return sw__fail(L, SW_ERR_INVALID_DATA, sw__at(path.s, "weights").s,
                            "%d weights, but the primitives have %zu morph targets", cJSON_GetArraySize(weights),
                            targets);
        if (targets) {
            float* w = sw__array(L, L->arena, targets, sizeof(float));
            if (!w || (weights && sw__get_floats(L, m, path.s, "weights", w, targets) != SW_OK)) return L->diag.result;
            meshes[i].weights = w;
        }
        /* extras are application data: a malformed targetNames is a warning, not an error */
        extras = sw__member(m, "extras");
        const cJSON* names = cJSON_IsObject(extras) ? sw__member(extras, "targetNames") : NULL;
        if (names) {
            bool ok = cJSON_IsArray(names) && (size_t)cJSON_GetArraySize(names) == targets && targets > 0;
            const cJSON* e;
            cJSON_ArrayForEach(e, names) ok = ok && cJSON_IsString(e) && e->valuestring;
            if (!ok) {
                sw__warn(L, sw__at(path.s, "extras.targetNames").s,
                         "not an array of %zu strings (one per morph target); ignored", targets);
            } else {
                const char** out = sw__array(L, L->arena, targets, sizeof *out);
                if (!out) return L->diag.result;
                size_t t = 0;
                cJSON_ArrayForEach(e, names) {
                    if (!(out[t++] = sw__strdup(L, e->valuestring))) return L->diag.result;
                }
                meshes[i].target_names = out;
            }
        }
    }
    L->owner->model.meshes = meshes;
    L->owner->model.mesh_count = n;
    return SW_OK;
}


/* ---- the memory plan: meshes -------------------------------------------------------------- */

/* What sw__parse_primitive will decode, and the rule that backs the vertex
   count (sw__plan_meshes). */
static sw_result sw__plan_primitive(sw__loader* L, const cJSON* j, const char* path, sw__plan* plan) {
    const cJSON* attributes = sw__member(j, "attributes");
    uint32_t position;
    if (!cJSON_IsObject(attributes) || !sw__plan_index(L, sw__member(attributes, "POSITION"), &position))
        return SW_OK;
    sw__path ap = sw__at(path, "attributes");
    size_t vertices = L->acc[position].count, backed = 0, sets = 0;
    const cJSON* a;
    cJSON_ArrayForEach(a, attributes) {
        const char* name = a->string ? a->string : "";
        uint32_t index;
        int set;
        if (!sw__plan_index(L, a, &index) || L->acc[index].count != vertices) continue;
        bool plain = strcmp(name, "POSITION") == 0 || strcmp(name, "NORMAL") == 0 || strcmp(name, "TANGENT") == 0 ||
                     ((set = sw__set_number(name, "TEXCOORD_")) >= 0 && set < SW_MODEL_MAX_TEXCOORDS);
        bool color = strcmp(name, "COLOR_0") == 0;
        bool joints = (set = sw__set_number(name, "JOINTS_")) >= 0 && set < SW__MAX_SETS;
        bool weights = (set = sw__set_number(name, "WEIGHTS_")) >= 0 && set < SW__MAX_SETS;
        if (!plain && !color && !joints && !weights) continue;
        size_t b = sw__backed(&L->acc[index]);
        if (b > backed) backed = b;
        sw__path where = sw__at(ap.s, name);
        if (plain) sw__plan_add(plan, where.s, index, sw__decoded_bytes(&L->acc[index]), false);
        if (color) {
            sw__plan_add(plan, where.s, index, sw__decoded_bytes(&L->acc[index]), true);
            sw__plan_add(plan, where.s, index, sw__plan_mul(vertices, 4 * sizeof(float)), false);
        }
        sets += joints;
    }
    /* Every attribute read has the vertex count (the pass refuses the
       others), so one that stores its elements backs it. */
    if (vertices > backed) {
        const sw__gltf_accessor* p = &L->acc[position];
        return sw__fail(L, SW_ERR_UNSUPPORTED, sw__at(ap.s, "POSITION").s,
                        "accessors[%u]: %zu vertices (%zu bytes decoded), but no attribute of that count has a "
                        "bufferView, and their sparse values back at most %zu of them",
                        (unsigned)position, vertices, sw__decoded_bytes(p), backed);
    }
    if (sets) {
        size_t slots = sets * 4, kept_max = sets == 1 || L->max_influences == 4 ? 4 : 8;
        size_t kept = sw__plan_mul(vertices, kept_max * (sizeof(uint16_t) + sizeof(float)));
        if (L->keep_raw_influences) {
            size_t raw = sw__plan_mul(vertices, slots * (sizeof(uint16_t) + sizeof(float)));
            kept = raw > SIZE_MAX - kept ? SIZE_MAX : kept + raw;
        }
        /* the interleaved sets, and one set decoded (joints and weights) */
        size_t temp = sw__plan_mul(vertices, slots * 8 + 32);
        sw__plan_add(plan, ap.s, -1, kept, false);
        sw__plan_add(plan, ap.s, -1, temp, true);
    }
    uint32_t indices;
    if (sw__plan_index(L, sw__member(j, "indices"), &indices)) {
        const sw__gltf_accessor* x = &L->acc[indices];
        sw__path where = sw__at(path, "indices");
        if (x->count > sw__backed(x))
            return sw__fail(L, SW_ERR_UNSUPPORTED, where.s,
                            "accessors[%u]: %zu indices (%zu bytes decoded), but it has no bufferView, and %zu sparse "
                            "values back at most %zu of them",
                            (unsigned)indices, x->count, sw__decoded_bytes(x), x->sparse_count, sw__backed(x));
        sw__plan_add(plan, where.s, indices, sw__decoded_bytes(x), false);
    }
    const cJSON* targets = sw__member(j, "targets");
    if (!cJSON_IsArray(targets)) targets = NULL;
    size_t t = 0;
    const cJSON* target;
    cJSON_ArrayForEach(target, targets) {
        const cJSON* members = cJSON_IsObject(target) ? target : NULL;
        cJSON_ArrayForEach(a, members) {
            const char* name = a->string ? a->string : "";
            uint32_t index;
            if ((strcmp(name, "POSITION") == 0 || strcmp(name, "NORMAL") == 0 || strcmp(name, "TANGENT") == 0) &&
                sw__plan_index(L, a, &index) && L->acc[index].count == vertices)
                sw__plan_add(plan, sw__pathf("%s.targets[%zu].%s", path, t, name).s, index,
                             sw__decoded_bytes(&L->acc[index]), false);
        }
        t++;
    }
    return SW_OK;
}

sw_result sw__plan_meshes(sw__loader* L, sw__plan* plan) {
    for (size_t i = 0; i < L->meshes.count; i++) {
        const cJSON* primitives = sw__member(L->meshes.items[i], "primitives");
        if (!cJSON_IsArray(primitives)) continue;
        size_t k = 0;
        const cJSON* j;
        cJSON_ArrayForEach(j, primitives) {
            if (sw__plan_primitive(L, j, sw__pathf("meshes[%zu].primitives[%zu]", i, k).s, plan) != SW_OK)
                return L->diag.result;
            k++;
        }
    }
    return SW_OK;
}
