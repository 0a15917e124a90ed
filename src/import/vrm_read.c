/* The VRM reader (sinew/vrm.h): VRMC_vrm (VRM 1.0) and VRM 0.x's "VRM"
   from the model's root extension record, parsed once through the JSON
   layer (json_internal.h), into VRM 1.0's shape. The expression rules are
   the core's (src/runtime/vrm.c).

   Every allocation of a read goes through sw__json_alloc and is kept in
   the owner's block list, so a failure anywhere frees everything with
   sw_vrm_free. Array sizes are known before they are filled (JSON array
   sizes, nodes per mesh), so nothing is reallocated except the warning
   list. Out of memory while warning is remembered and reported at the
   end. */
#include "sinew/vrm.h"

#include "../base/base_internal.h"
#include "../base/hash_internal.h"
#include "../runtime/vrm_internal.h"
#include "json_internal.h"

#include <string.h>

typedef struct sw__vrm_owned {
    sw_vrm vrm;          /* first: sw_vrm_free casts back */
    sw__json_owned mem;  /* the blocks of the read and its warning lines */
} sw__vrm_owned;

typedef struct sw__reader {
    sw__json J;
    const sw_model* model;
    sw__vrm_owned* o;
    /* expressions being filled (capacity from the JSON) */
    sw_vrm_expression* expressions;
    size_t expression_cap;
    sw__str_map expression_names; /* name → index: "is this name taken?" in O(1) */
    sw__str_map material_names;   /* the model's material names → first index (built when first needed) */
    bool material_names_built;
    size_t* mesh_first;   /* mesh_count + 1 (sw__index_meshes) */
    uint32_t* mesh_nodes; /* node_count */
} sw__reader;

/* ---- values of the model ----------------------------------------------------------------------------- */

/* An optional string member, copied into the read's memory (absent: *out unchanged). */
static sw_result sw__copy_string(sw__reader* R, const cJSON* object, const char* key, const char** out) {
    const char* s;
    if (sw__json_string(&R->J, object, key, false, &s) != SW_OK) return SW_ERR_INVALID_DATA;
    if (!s) return SW_OK;
    if (!(*out = sw__json_copy(&R->J, s))) return sw__json_out_of_memory(&R->J);
    return SW_OK;
}

/* A file node index (a JSON member) to the model's. */
static sw_result sw__node(sw__reader* R, const cJSON* object, const char* key, uint32_t* out) {
    uint32_t file_index;
    if (sw__json_index_below(&R->J, object, key, R->model->node_count, "nodes", &file_index) != SW_OK)
        return SW_ERR_INVALID_DATA;
    *out = R->model->node_from_source[file_index];
    return SW_OK;
}

static uint32_t sw__file_index(sw__reader* R, uint32_t node) { return R->model->nodes[node].source_index; }

/* ---- names ---------------------------------------------------------------------------------------- */

static sw_vrm_preset sw__preset_of(const char* name) {
    for (int i = 0; i < SW_VRM_PRESET_COUNT; i++)
        if (strcmp(sw_vrm_preset_name((sw_vrm_preset)i), name) == 0) return (sw_vrm_preset)i;
    return SW_VRM_PRESET_CUSTOM;
}

static const char* const sw__override_names[] = {"none", "block", "blend"};
static const char* const sw__override_keys[3] = {"overrideMouth", "overrideBlink", "overrideLookAt"};

/* ---- adding expressions ------------------------------------------------------------------------------ */

/* A new expression slot, or NULL (the preset or name is taken: a warning
   at the current path; or out of memory). */
static sw_vrm_expression* sw__new_expression(sw__reader* R, const char* name, sw_vrm_preset preset) {
    sw_vrm* v = &R->o->vrm;
    if (preset != SW_VRM_PRESET_CUSTOM && v->preset[preset] >= 0) {
        sw__json_warn(&R->J, NULL, "the preset %s is given twice; the later one is ignored",
                      sw_vrm_preset_name(preset));
        return NULL;
    }
    if (sw__str_map_get(&R->expression_names, name, NULL)) {
        sw__json_warn(&R->J, NULL, "an expression of this name exists already; ignored");
        return NULL;
    }
    if (v->expression_count >= R->expression_cap) return NULL; /* sized from the JSON: not reached */
    sw_vrm_expression* e = &R->expressions[v->expression_count];
    memset(e, 0, sizeof *e);
    e->preset = preset;
    if (!(e->name = sw__json_copy(&R->J, name))) return NULL;
    if (sw__str_map_put(&R->expression_names, e->name, (uint32_t)v->expression_count, NULL) == SW__STR_MAP_NO_MEMORY) {
        R->J.oom = true;
        return NULL;
    }
    if (preset != SW_VRM_PRESET_CUSTOM) v->preset[preset] = (int32_t)v->expression_count;
    v->expression_count++;
    v->expressions = R->expressions;
    return e;
}

/* A morph bind's node must draw a mesh with that target (the bind at the current path). */
static sw_result sw__check_morph(sw__reader* R, uint32_t node, uint32_t index) {
    int32_t mesh = R->model->nodes[node].mesh;
    if (mesh < 0) return sw__json_fail(&R->J, "node", "node %u has no mesh", sw__file_index(R, node));
    size_t targets = R->model->meshes[mesh].weight_count;
    if (index >= targets)
        return sw__json_fail(&R->J, "index", "morph target %u is out of range (the mesh of node %u has %zu)", index,
                             sw__file_index(R, node), targets);
    return SW_OK;
}

/* ---- VRM 1.0 ---------------------------------------------------------------------------------------- */

static sw_result sw__morph_binds1(sw__reader* R, const cJSON* morphs, sw_vrm_expression* e) {
    sw__json* J = &R->J;
    sw_vrm_morph_bind* b = sw__json_alloc(J, sw__json_count(morphs), sizeof *b);
    if (!b) return sw__json_out_of_memory(J);
    size_t mark = sw__json_push(J, "morphTargetBinds");
    for (sw__json_each it = sw__json_each_of(J, morphs); sw__json_next(J, &it);) {
        const cJSON* m = it.value;
        if (sw__json_expect_object(J, m) != SW_OK) return SW_ERR_INVALID_DATA;
        sw_vrm_morph_bind* out = &b[e->morph_bind_count];
        if (sw__node(R, m, "node", &out->node) != SW_OK ||
            sw__json_index_below(J, m, "index", UINT32_MAX, "morph targets", &out->index) != SW_OK ||
            sw__check_morph(R, out->node, out->index) != SW_OK ||
            sw__json_float(J, m, "weight", true, &out->weight) != SW_OK)
            return SW_ERR_INVALID_DATA;
        sw__json_clamp(J, "weight", &out->weight, 0.0f, 1.0f);
        e->morph_bind_count++;
    }
    sw__json_pop(J, mark);
    e->morph_binds = b;
    return SW_OK;
}

static sw_result sw__color_binds1(sw__reader* R, const cJSON* colors, sw_vrm_expression* e) {
    sw__json* J = &R->J;
    sw_vrm_color_bind* b = sw__json_alloc(J, sw__json_count(colors), sizeof *b);
    if (!b) return sw__json_out_of_memory(J);
    size_t mark = sw__json_push(J, "materialColorBinds");
    for (sw__json_each it = sw__json_each_of(J, colors); sw__json_next(J, &it);) {
        const cJSON* c = it.value;
        if (sw__json_expect_object(J, c) != SW_OK) return SW_ERR_INVALID_DATA;
        sw_vrm_color_bind* out = &b[e->color_bind_count];
        const char* type;
        if (sw__json_index_below(J, c, "material", R->model->material_count, "materials", &out->material) != SW_OK ||
            sw__json_string(J, c, "type", false, &type) != SW_OK ||
            sw__json_floats(J, c, "targetValue", 4, true, out->target) != SW_OK)
            return SW_ERR_INVALID_DATA;
        if (!type) return sw__json_fail(J, "type", "missing");
        int t = -1;
        for (int k = 0; k < SW_VRM_COLOR_TYPE_COUNT; k++)
            if (strcmp(sw_vrm_color_type_name((sw_vrm_color_type)k), type) == 0) t = k;
        if (t < 0) {
            sw__json_warn(J, "type", "unknown type; the bind is ignored");
            continue;
        }
        out->type = (sw_vrm_color_type)t;
        e->color_bind_count++;
    }
    sw__json_pop(J, mark);
    e->color_binds = b;
    return SW_OK;
}

static sw_result sw__texture_binds1(sw__reader* R, const cJSON* textures, sw_vrm_expression* e) {
    sw__json* J = &R->J;
    sw_vrm_texture_bind* b = sw__json_alloc(J, sw__json_count(textures), sizeof *b);
    if (!b) return sw__json_out_of_memory(J);
    size_t mark = sw__json_push(J, "textureTransformBinds");
    for (sw__json_each it = sw__json_each_of(J, textures); sw__json_next(J, &it);) {
        const cJSON* t = it.value;
        if (sw__json_expect_object(J, t) != SW_OK) return SW_ERR_INVALID_DATA;
        sw_vrm_texture_bind* out = &b[e->texture_bind_count];
        out->scale[0] = out->scale[1] = 1.0f;
        if (sw__json_index_below(J, t, "material", R->model->material_count, "materials", &out->material) != SW_OK ||
            sw__json_floats(J, t, "scale", 2, false, out->scale) != SW_OK ||
            sw__json_floats(J, t, "offset", 2, false, out->offset) != SW_OK)
            return SW_ERR_INVALID_DATA;
        e->texture_bind_count++;
    }
    sw__json_pop(J, mark);
    e->texture_binds = b;
    return SW_OK;
}

/* One expression object (at the current path). */
static sw_result sw__expression1(sw__reader* R, const cJSON* x, sw_vrm_expression* e) {
    sw__json* J = &R->J;
    if (sw__json_expect_object(J, x) != SW_OK || sw__json_bool(J, x, "isBinary", &e->is_binary) != SW_OK)
        return SW_ERR_INVALID_DATA;
    for (int kind = 0; kind < 3; kind++) {
        int value = SW_VRM_OVERRIDE_NONE;
        if (sw__json_enum(J, x, sw__override_keys[kind], sw__override_names, 3, &value) != SW_OK)
            return SW_ERR_INVALID_DATA;
        if (value != SW_VRM_OVERRIDE_NONE && sw__vrm_kind(e->preset) == kind) {
            sw__json_warn(J, sw__override_keys[kind], "an expression cannot override its own kind; ignored");
            value = SW_VRM_OVERRIDE_NONE;
        }
        if (kind == 0) e->override_mouth = (sw_vrm_override)value;
        if (kind == 1) e->override_blink = (sw_vrm_override)value;
        if (kind == 2) e->override_look_at = (sw_vrm_override)value;
    }
    const cJSON *morphs, *colors, *textures;
    if (sw__json_array(J, x, "morphTargetBinds", false, &morphs) != SW_OK ||
        sw__json_array(J, x, "materialColorBinds", false, &colors) != SW_OK ||
        sw__json_array(J, x, "textureTransformBinds", false, &textures) != SW_OK)
        return SW_ERR_INVALID_DATA;
    if ((morphs && sw__morph_binds1(R, morphs, e) != SW_OK) || (colors && sw__color_binds1(R, colors, e) != SW_OK) ||
        (textures && sw__texture_binds1(R, textures, e) != SW_OK))
        return SW_ERR_INVALID_DATA;
    return SW_OK;
}

/* The members of expressions.preset (pass 0) or expressions.custom (pass 1). */
static sw_result sw__expression_group1(sw__reader* R, const cJSON* group, int pass) {
    sw__json* J = &R->J;
    for (sw__json_each it = sw__json_each_of(J, group); sw__json_next(J, &it);) {
        const char* name = it.key;
        sw_vrm_preset p = sw__preset_of(name);
        if (pass == 0 && p == SW_VRM_PRESET_CUSTOM) {
            sw__json_warn(J, NULL, "not a preset expression; ignored");
            continue;
        }
        if (pass == 1 && p != SW_VRM_PRESET_CUSTOM) {
            sw__json_warn(J, NULL, "a custom expression cannot take a preset's name; ignored");
            continue;
        }
        if (pass == 1 && !*name) {
            sw__json_warn(J, NULL, "a custom expression without a name; ignored");
            continue;
        }
        sw_vrm_expression* e = sw__new_expression(R, name, p);
        if (J->oom) return sw__json_out_of_memory(J);
        if (!e) continue;
        if (sw__expression1(R, it.value, e) != SW_OK) return sw__json_result(J);
    }
    return SW_OK;
}

static sw_result sw__expressions1(sw__reader* R, const cJSON* root) {
    sw__json* J = &R->J;
    const cJSON *ex, *preset, *custom;
    if (sw__json_object(J, root, "expressions", false, &ex) != SW_OK) return SW_ERR_INVALID_DATA;
    if (!ex) return SW_OK;
    size_t mark = sw__json_push(J, "expressions");
    if (sw__json_object(J, ex, "preset", false, &preset) != SW_OK ||
        sw__json_object(J, ex, "custom", false, &custom) != SW_OK)
        return SW_ERR_INVALID_DATA;
    R->expression_cap = sw__json_count(preset) + sw__json_count(custom);
    if (!(R->expressions = sw__json_alloc(J, R->expression_cap, sizeof *R->expressions)))
        return sw__json_out_of_memory(J);
    for (int pass = 0; pass < 2; pass++) {
        const cJSON* group = pass == 0 ? preset : custom;
        if (!group) continue;
        size_t group_mark = sw__json_push(J, pass == 0 ? "preset" : "custom");
        if (sw__expression_group1(R, group, pass) != SW_OK) return SW_ERR_INVALID_DATA;
        sw__json_pop(J, group_mark);
    }
    sw__json_pop(J, mark);
    return SW_OK;
}

/* meta.authors (list 0) or meta.references (list 1): copied strings. */
static sw_result sw__string_list1(sw__reader* R, const cJSON* a, int list) {
    sw__json* J = &R->J;
    sw_vrm_meta* meta = &R->o->vrm.meta;
    const char** items = sw__json_alloc(J, sw__json_count(a), sizeof *items);
    if (!items) return sw__json_out_of_memory(J);
    size_t mark = sw__json_push(J, list == 0 ? "authors" : "references"), n = 0;
    for (sw__json_each it = sw__json_each_of(J, a); sw__json_next(J, &it); n++) {
        const char* s = sw__json_text(it.value);
        if (!s) return sw__json_fail(J, NULL, "expected a string");
        if (!(items[n] = sw__json_copy(J, s))) return sw__json_out_of_memory(J);
    }
    sw__json_pop(J, mark);
    if (list == 0) meta->authors = items, meta->author_count = n;
    else meta->references = items, meta->reference_count = n;
    return SW_OK;
}

static const char* const sw__avatar_names[] = {"onlyAuthor", "onlySeparatelyLicensedPerson", "everyone"};
static const char* const sw__commercial_names[] = {"personalNonProfit", "personalProfit", "corporation"};
static const char* const sw__credit_names[] = {"required", "unnecessary"};
static const char* const sw__modification_names[] = {"prohibited", "allowModification",
                                                     "allowModificationRedistribution"};

/* The members of meta (at the current path); *licence gets the four enum indices. */
static sw_result sw__meta1_members(sw__reader* R, const cJSON* m, int licence[4]) {
    sw__json* J = &R->J;
    sw_vrm_meta* meta = &R->o->vrm.meta;
    const cJSON *authors, *references;
    if (sw__copy_string(R, m, "name", &meta->name) != SW_OK ||
        sw__copy_string(R, m, "version", &meta->version) != SW_OK ||
        sw__copy_string(R, m, "copyrightInformation", &meta->copyright) != SW_OK ||
        sw__copy_string(R, m, "contactInformation", &meta->contact) != SW_OK ||
        sw__copy_string(R, m, "thirdPartyLicenses", &meta->third_party_licenses) != SW_OK ||
        sw__copy_string(R, m, "licenseUrl", &meta->license_url) != SW_OK ||
        sw__copy_string(R, m, "otherLicenseUrl", &meta->other_license_url) != SW_OK ||
        sw__json_bool(J, m, "allowExcessivelyViolentUsage", &meta->allow_excessively_violent_usage) != SW_OK ||
        sw__json_bool(J, m, "allowExcessivelySexualUsage", &meta->allow_excessively_sexual_usage) != SW_OK ||
        sw__json_bool(J, m, "allowPoliticalOrReligiousUsage", &meta->allow_political_or_religious_usage) != SW_OK ||
        sw__json_bool(J, m, "allowAntisocialOrHateUsage", &meta->allow_antisocial_or_hate_usage) != SW_OK ||
        sw__json_bool(J, m, "allowRedistribution", &meta->allow_redistribution) != SW_OK ||
        sw__json_enum(J, m, "avatarPermission", sw__avatar_names, 3, &licence[0]) != SW_OK ||
        sw__json_enum(J, m, "commercialUsage", sw__commercial_names, 3, &licence[1]) != SW_OK ||
        sw__json_enum(J, m, "creditNotation", sw__credit_names, 2, &licence[2]) != SW_OK ||
        sw__json_enum(J, m, "modification", sw__modification_names, 3, &licence[3]) != SW_OK ||
        sw__json_array(J, m, "authors", false, &authors) != SW_OK ||
        sw__json_array(J, m, "references", false, &references) != SW_OK)
        return sw__json_result(J);
    if ((authors && sw__string_list1(R, authors, 0) != SW_OK) ||
        (references && sw__string_list1(R, references, 1) != SW_OK))
        return SW_ERR_INVALID_DATA;
    if (sw__json_member(m, "thumbnailImage")) {
        uint32_t image;
        if (sw__json_index_below(J, m, "thumbnailImage", R->model->image_count, "images", &image) != SW_OK)
            return SW_ERR_INVALID_DATA;
        meta->thumbnail = (int32_t)image;
    }
    if (!meta->name) sw__json_warn(J, "name", "missing (VRM 1.0 requires it)");
    if (!meta->author_count) sw__json_warn(J, "authors", "missing or empty (VRM 1.0 requires one)");
    if (!meta->license_url) sw__json_warn(J, "licenseUrl", "missing (VRM 1.0 requires it)");
    return SW_OK;
}

static sw_result sw__meta1(sw__reader* R, const cJSON* root) {
    sw__json* J = &R->J;
    const cJSON* m;
    if (sw__json_object(J, root, "meta", false, &m) != SW_OK) return SW_ERR_INVALID_DATA;
    sw_vrm_meta* meta = &R->o->vrm.meta;
    int licence[4] = {0, 0, 0, 0};
    size_t mark = sw__json_push(J, "meta");
    if (!m) sw__json_warn(J, NULL, "missing (VRM 1.0 requires it); licence defaults used");
    else if (sw__meta1_members(R, m, licence) != SW_OK) return SW_ERR_INVALID_DATA;
    sw__json_pop(J, mark);
    meta->avatar_permission = sw__avatar_names[licence[0]];
    meta->commercial_usage = sw__commercial_names[licence[1]];
    meta->credit_notation = sw__credit_names[licence[2]];
    meta->modification = sw__modification_names[licence[3]];
    return SW_OK;
}

/* Sets one humanoid bone (shared by both versions): a bone or node given
   twice is a warning at the current path. */
static void sw__set_bone(sw__reader* R, sw_humanoid_bone bone, uint32_t node) {
    sw_humanoid_map* map = &R->o->vrm.humanoid;
    if (map->node[bone] >= 0) {
        sw__json_warn(&R->J, NULL, "%s is given twice; the later one is ignored", sw_humanoid_bone_name(bone));
        return;
    }
    for (int b = 0; b < SW_HUMANOID_BONE_COUNT; b++)
        if (map->node[b] == (int32_t)node) {
            sw__json_warn(&R->J, NULL, "node %u is %s already (humanoid bones are unique); ignored",
                          sw__file_index(R, node), sw_humanoid_bone_name((sw_humanoid_bone)b));
            return;
        }
    map->node[bone] = (int32_t)node;
}

static sw_result sw__humanoid1(sw__reader* R, const cJSON* root) {
    sw__json* J = &R->J;
    const cJSON *h, *bones = NULL;
    if (sw__json_object(J, root, "humanoid", false, &h) != SW_OK) return SW_ERR_INVALID_DATA;
    size_t mark = sw__json_push(J, "humanoid");
    if (h && sw__json_object(J, h, "humanBones", false, &bones) != SW_OK) return SW_ERR_INVALID_DATA;
    if (!bones) {
        sw__json_warn(J, h ? "humanBones" : NULL, "missing (VRM 1.0 requires it)");
        sw__json_pop(J, mark);
        return SW_OK;
    }
    sw__json_push(J, "humanBones");
    for (sw__json_each it = sw__json_each_of(J, bones); sw__json_next(J, &it);) {
        uint32_t node;
        if (sw__json_expect_object(J, it.value) != SW_OK || sw__node(R, it.value, "node", &node) != SW_OK)
            return SW_ERR_INVALID_DATA;
        sw_humanoid_bone bone;
        if (!sw_humanoid_bone_from_name(it.key, &bone) || strstr(it.key, "ThumbIntermediate")) {
            sw__json_warn(J, NULL, "not a VRM 1.0 humanoid bone; ignored");
            continue;
        }
        sw__set_bone(R, bone, node);
    }
    sw__json_pop(J, mark);
    return SW_OK;
}

static void sw__look_at_defaults(sw_vrm_look_at* l) {
    float out = l->type == SW_VRM_LOOK_AT_BONE ? 10.0f : 1.0f;
    sw_vrm_range_map d = {90.0f, out};
    l->horizontal_inner = l->horizontal_outer = l->vertical_down = l->vertical_up = d;
}

static sw_result sw__range_map(sw__reader* R, const cJSON* object, const char* key, const char* in_key,
                               const char* out_key, sw_vrm_range_map* out) {
    sw__json* J = &R->J;
    const cJSON* m;
    if (sw__json_object(J, object, key, false, &m) != SW_OK) return SW_ERR_INVALID_DATA;
    if (!m) return SW_OK;
    size_t mark = sw__json_push(J, key);
    if (sw__json_float(J, m, in_key, false, &out->input_max_value) != SW_OK ||
        sw__json_float(J, m, out_key, false, &out->output_scale) != SW_OK)
        return SW_ERR_INVALID_DATA;
    sw__json_clamp(J, in_key, &out->input_max_value, 0.0f, 180.0f);
    sw__json_pop(J, mark);
    return SW_OK;
}

static sw_result sw__look_at1(sw__reader* R, const cJSON* root) {
    sw__json* J = &R->J;
    const cJSON* l;
    if (sw__json_object(J, root, "lookAt", false, &l) != SW_OK) return SW_ERR_INVALID_DATA;
    if (!l) return SW_OK;
    size_t mark = sw__json_push(J, "lookAt");
    sw_vrm_look_at* look = &R->o->vrm.look_at;
    look->present = true;
    static const char* const types[] = {"bone", "expression"};
    int type = 0;
    if (sw__json_enum(J, l, "type", types, 2, &type) != SW_OK) return SW_ERR_INVALID_DATA;
    look->type = (sw_vrm_look_at_type)type;
    sw__look_at_defaults(look);
    if (sw__json_floats(J, l, "offsetFromHeadBone", 3, false, look->offset_from_head_bone) != SW_OK ||
        sw__range_map(R, l, "rangeMapHorizontalInner", "inputMaxValue", "outputScale", &look->horizontal_inner) !=
            SW_OK ||
        sw__range_map(R, l, "rangeMapHorizontalOuter", "inputMaxValue", "outputScale", &look->horizontal_outer) !=
            SW_OK ||
        sw__range_map(R, l, "rangeMapVerticalDown", "inputMaxValue", "outputScale", &look->vertical_down) != SW_OK ||
        sw__range_map(R, l, "rangeMapVerticalUp", "inputMaxValue", "outputScale", &look->vertical_up) != SW_OK)
        return SW_ERR_INVALID_DATA;
    sw__json_pop(J, mark);
    return SW_OK;
}

static const char* const sw__first_person_names[] = {"auto", "both", "thirdPersonOnly", "firstPersonOnly"};

static sw_result sw__first_person1(sw__reader* R, const cJSON* root) {
    sw__json* J = &R->J;
    const cJSON *f, *a = NULL;
    if (sw__json_object(J, root, "firstPerson", false, &f) != SW_OK) return SW_ERR_INVALID_DATA;
    size_t mark = sw__json_push(J, "firstPerson");
    if (f && sw__json_array(J, f, "meshAnnotations", false, &a) != SW_OK) return SW_ERR_INVALID_DATA;
    if (!a) {
        sw__json_pop(J, mark);
        return SW_OK;
    }
    sw_vrm_mesh_annotation* out = sw__json_alloc(J, sw__json_count(a), sizeof *out);
    if (!out) return sw__json_out_of_memory(J);
    sw_vrm* v = &R->o->vrm;
    sw__json_push(J, "meshAnnotations");
    for (sw__json_each it = sw__json_each_of(J, a); sw__json_next(J, &it);) {
        const cJSON* m = it.value;
        if (sw__json_expect_object(J, m) != SW_OK) return SW_ERR_INVALID_DATA;
        sw_vrm_mesh_annotation* x = &out[v->mesh_annotation_count];
        int type = 0;
        if (!sw__json_member(m, "type")) return sw__json_fail(J, "type", "missing");
        if (sw__node(R, m, "node", &x->node) != SW_OK ||
            sw__json_enum(J, m, "type", sw__first_person_names, 4, &type) != SW_OK)
            return SW_ERR_INVALID_DATA;
        if (R->model->nodes[x->node].mesh < 0)
            return sw__json_fail(J, "node", "node %u has no mesh", sw__file_index(R, x->node));
        x->type = (sw_vrm_first_person)type;
        v->mesh_annotation_count++;
    }
    sw__json_pop(J, mark);
    v->mesh_annotations = out;
    return SW_OK;
}

static sw_result sw__read1(sw__reader* R, const cJSON* root) {
    sw_vrm* v = &R->o->vrm;
    v->version = SW_VRM_1;
    if (sw__copy_string(R, root, "specVersion", &v->spec_version) != SW_OK) return sw__json_result(&R->J);
    if (!v->spec_version) sw__json_warn(&R->J, "specVersion", "missing; read as 1.0");
    if (sw__meta1(R, root) != SW_OK || sw__humanoid1(R, root) != SW_OK || sw__expressions1(R, root) != SW_OK ||
        sw__look_at1(R, root) != SW_OK || sw__first_person1(R, root) != SW_OK)
        return sw__json_result(&R->J);
    return SW_OK;
}

/* ---- VRM 0.x ------------------------------------------------------------------------------------------ */

/* An enum of 0.x meta: the canonical spelling, or NULL with a warning. */
static sw_result sw__meta0_enum(sw__reader* R, const cJSON* m, const char* key, const char* const* names, int count,
                                const char** out) {
    const char* s;
    if (sw__json_string(&R->J, m, key, false, &s) != SW_OK) return SW_ERR_INVALID_DATA;
    if (!s) return SW_OK;
    int found = sw__json_find_name(s, names, count);
    if (found >= 0) *out = names[found];
    else sw__json_warn(&R->J, key, "unknown value; ignored");
    return SW_OK;
}

static sw_result sw__meta0(sw__reader* R, const cJSON* root) {
    sw__json* J = &R->J;
    const cJSON* m;
    if (sw__json_object(J, root, "meta", false, &m) != SW_OK) return SW_ERR_INVALID_DATA;
    if (!m) return SW_OK;
    size_t mark = sw__json_push(J, "meta");
    sw_vrm_meta* meta = &R->o->vrm.meta;
    static const char* const users[] = {"OnlyAuthor", "ExplicitlyLicensedPerson", "Everyone"};
    static const char* const allow[] = {"Disallow", "Allow"};
    static const char* const licenses[] = {"Redistribution_Prohibited", "CC0", "CC_BY", "CC_BY_NC", "CC_BY_SA",
                                           "CC_BY_NC_SA", "CC_BY_ND", "CC_BY_NC_ND", "Other"};
    const char *author = NULL, *reference = NULL;
    if (sw__copy_string(R, m, "title", &meta->name) != SW_OK ||
        sw__copy_string(R, m, "version", &meta->version) != SW_OK ||
        sw__copy_string(R, m, "author", &author) != SW_OK ||
        sw__copy_string(R, m, "contactInformation", &meta->contact) != SW_OK ||
        sw__copy_string(R, m, "reference", &reference) != SW_OK ||
        sw__copy_string(R, m, "otherPermissionUrl", &meta->other_permission_url) != SW_OK ||
        sw__copy_string(R, m, "otherLicenseUrl", &meta->other_license_url) != SW_OK ||
        sw__meta0_enum(R, m, "allowedUserName", users, 3, &meta->allowed_user_name) != SW_OK ||
        sw__meta0_enum(R, m, "violentUssageName", allow, 2, &meta->violent_usage) != SW_OK ||
        sw__meta0_enum(R, m, "sexualUssageName", allow, 2, &meta->sexual_usage) != SW_OK ||
        sw__meta0_enum(R, m, "commercialUssageName", allow, 2, &meta->commercial_usage_name) != SW_OK ||
        sw__meta0_enum(R, m, "licenseName", licenses, 9, &meta->license_name) != SW_OK)
        return sw__json_result(J);
    for (int list = 0; list < 2; list++) {
        const char* one = list == 0 ? author : reference;
        if (!one) continue;
        const char** items = sw__json_alloc(J, 1, sizeof *items);
        if (!items) return sw__json_out_of_memory(J);
        items[0] = one;
        if (list == 0) meta->authors = items, meta->author_count = 1;
        else meta->references = items, meta->reference_count = 1;
    }
    /* 0.x states redistribution only through licenseName: CC0 and every
       CC_BY* licence allow it; Redistribution_Prohibited does not; Other
       (or none) says nothing here (other_license_url may). */
    meta->allow_redistribution = meta->license_name && strcmp(meta->license_name, "Redistribution_Prohibited") != 0 &&
                                 strcmp(meta->license_name, "Other") != 0;
    const cJSON* texture = sw__json_member(m, "texture");
    /* UniVRM writes -1 for "no thumbnail" */
    if (texture && !sw__json_equals(texture, -1.0)) {
        uint32_t t;
        if (sw__json_index_below(J, m, "texture", R->model->texture_count, "textures", &t) != SW_OK)
            return SW_ERR_INVALID_DATA;
        meta->thumbnail = (int32_t)t;
    }
    sw__json_pop(J, mark);
    return SW_OK;
}

static sw_result sw__humanoid0(sw__reader* R, const cJSON* root) {
    sw__json* J = &R->J;
    const cJSON *h, *bones = NULL;
    if (sw__json_object(J, root, "humanoid", false, &h) != SW_OK) return SW_ERR_INVALID_DATA;
    size_t mark = sw__json_push(J, "humanoid");
    if (h && sw__json_array(J, h, "humanBones", false, &bones) != SW_OK) return SW_ERR_INVALID_DATA;
    if (!bones) {
        sw__json_warn(J, h ? "humanBones" : NULL, "missing");
        sw__json_pop(J, mark);
        return SW_OK;
    }
    sw__json_push(J, "humanBones");
    for (sw__json_each it = sw__json_each_of(J, bones); sw__json_next(J, &it);) {
        const cJSON* b = it.value;
        if (sw__json_expect_object(J, b) != SW_OK) return SW_ERR_INVALID_DATA;
        const char* name;
        uint32_t node;
        if (sw__json_string(J, b, "bone", false, &name) != SW_OK) return SW_ERR_INVALID_DATA;
        if (!name) return sw__json_fail(J, "bone", "missing");
        if (sw__node(R, b, "node", &node) != SW_OK) return SW_ERR_INVALID_DATA;
        sw_humanoid_bone bone;
        if (!sw_humanoid_bone_from_vrm0_name(name, &bone)) {
            sw__json_warn(J, "bone", "not a VRM 0.x humanoid bone; ignored");
            continue;
        }
        sw__set_bone(R, bone, node);
    }
    sw__json_pop(J, mark);
    return SW_OK;
}

/* The nodes (model order) that draw each mesh, built once: mesh m's are
   mesh_nodes[mesh_first[m] .. mesh_first[m + 1]). */
static bool sw__index_meshes(sw__reader* R) {
    const sw_model* m = R->model;
    if (R->mesh_first) return true;
    R->mesh_first = sw__json_alloc(&R->J, m->mesh_count + 1, sizeof *R->mesh_first);
    R->mesh_nodes = sw__json_alloc(&R->J, m->node_count, sizeof *R->mesh_nodes);
    if (!R->mesh_first || !R->mesh_nodes) return false;
    for (size_t i = 0; i < m->node_count; i++)
        if (m->nodes[i].mesh >= 0 && (size_t)m->nodes[i].mesh < m->mesh_count) R->mesh_first[m->nodes[i].mesh + 1]++;
    for (size_t k = 0; k < m->mesh_count; k++) R->mesh_first[k + 1] += R->mesh_first[k];
    for (size_t i = 0, k; i < m->node_count; i++)
        if (m->nodes[i].mesh >= 0 && (size_t)m->nodes[i].mesh < m->mesh_count) {
            k = (size_t)m->nodes[i].mesh;
            /* mesh_first[k] is advanced while filling and restored below */
            R->mesh_nodes[R->mesh_first[k]++] = (uint32_t)i;
        }
    for (size_t k = m->mesh_count; k > 0; k--) R->mesh_first[k] = R->mesh_first[k - 1];
    R->mesh_first[0] = 0;
    return true;
}

/* How many nodes draw `mesh`, and where they are listed. */
static size_t sw__nodes_of_mesh(sw__reader* R, uint32_t mesh, const uint32_t** nodes) {
    *nodes = &R->mesh_nodes[R->mesh_first[mesh]];
    return R->mesh_first[mesh + 1] - R->mesh_first[mesh];
}

/* Each 0.x bind or annotation is repeated for every node drawing its mesh;
   a hostile file could multiply a small JSON into billions. */
#define SW__MAX_EXPANDED ((size_t)1 << 24)

/* How many entries `array` (of objects with a "mesh" index; at the current
   path) expands to, one per node drawing the mesh; `what` names them in
   the message past SW__MAX_EXPANDED. */
static sw_result sw__expanded_count(sw__reader* R, const cJSON* array, const char* what, size_t* out) {
    sw__json* J = &R->J;
    const uint32_t* nodes;
    size_t total = 0;
    if (!sw__index_meshes(R)) return sw__json_out_of_memory(J);
    for (sw__json_each it = sw__json_each_of(J, array); sw__json_next(J, &it);) {
        uint32_t mesh;
        if (sw__json_expect_object(J, it.value) != SW_OK ||
            sw__json_index_below(J, it.value, "mesh", R->model->mesh_count, "meshes", &mesh) != SW_OK)
            return SW_ERR_INVALID_DATA;
        if ((total += sw__nodes_of_mesh(R, mesh, &nodes)) > SW__MAX_EXPANDED) {
            sw__json_pop(J, it.mark);
            return sw__json_fail(J, NULL, "more than %zu %s once repeated for each node drawing its mesh",
                                 SW__MAX_EXPANDED, what);
        }
    }
    *out = total;
    return SW_OK;
}

/* 0.x material property names → 1.0 colour types; _MainTex_ST is a texture transform (-2). */
static int sw__property0(const char* name) {
    static const struct {
        const char* name;
        int type;
    } props[] = {{"_Color", SW_VRM_COLOR},          {"_EmissionColor", SW_VRM_EMISSION_COLOR},
                 {"_ShadeColor", SW_VRM_SHADE_COLOR}, {"_RimColor", SW_VRM_RIM_COLOR},
                 {"_OutlineColor", SW_VRM_OUTLINE_COLOR}, {"_MainTex_ST", -2}};
    for (size_t i = 0; i < sizeof props / sizeof props[0]; i++)
        if (strcmp(props[i].name, name) == 0) return props[i].type;
    return -1;
}

/* A group's binds: one morph bind per node drawing the bind's mesh. */
static sw_result sw__binds0(sw__reader* R, const cJSON* binds, sw_vrm_expression* e) {
    sw__json* J = &R->J;
    size_t mark = sw__json_push(J, "binds"), total;
    if (sw__expanded_count(R, binds, "binds", &total) != SW_OK) return SW_ERR_INVALID_DATA;
    sw_vrm_morph_bind* out = sw__json_alloc(J, total, sizeof *out);
    if (!out) return sw__json_out_of_memory(J);
    for (sw__json_each it = sw__json_each_of(J, binds); sw__json_next(J, &it);) {
        const cJSON* b = it.value;
        uint32_t mesh, index;
        float weight = 0.0f;
        if (sw__json_index_below(J, b, "mesh", R->model->mesh_count, "meshes", &mesh) != SW_OK ||
            sw__json_index_below(J, b, "index", UINT32_MAX, "morph targets", &index) != SW_OK ||
            sw__json_float(J, b, "weight", true, &weight) != SW_OK)
            return SW_ERR_INVALID_DATA;
        if (index >= R->model->meshes[mesh].weight_count)
            return sw__json_fail(J, "index", "morph target %u is out of range (mesh %u has %zu)", index, mesh,
                                 R->model->meshes[mesh].weight_count);
        sw__json_clamp(J, "weight", &weight, 0.0f, 100.0f);
        const uint32_t* nodes;
        size_t n = sw__nodes_of_mesh(R, mesh, &nodes);
        if (n == 0) sw__json_warn(J, "mesh", "mesh %u is drawn by no node; ignored", mesh);
        for (size_t k = 0; k < n; k++)
            out[e->morph_bind_count++] =
                (sw_vrm_morph_bind){.node = nodes[k], .index = index, .weight = weight / 100.0f};
    }
    sw__json_pop(J, mark);
    e->morph_binds = out;
    return SW_OK;
}

/* One materialValues entry (at the current path) into a colour or texture
   bind; a material or property it cannot name is a warning. */
static sw_result sw__material_value0(sw__reader* R, const cJSON* x, sw_vrm_color_bind* colors,
                                     sw_vrm_texture_bind* textures, sw_vrm_expression* e) {
    sw__json* J = &R->J;
    const char *material, *property;
    const cJSON* target;
    if (sw__json_expect_object(J, x) != SW_OK || sw__json_string(J, x, "materialName", false, &material) != SW_OK ||
        sw__json_string(J, x, "propertyName", false, &property) != SW_OK ||
        sw__json_array(J, x, "targetValue", false, &target) != SW_OK)
        return SW_ERR_INVALID_DATA;
    if (!material) return sw__json_fail(J, "materialName", "missing");
    if (!property) return sw__json_fail(J, "propertyName", "missing");
    if (!target) return sw__json_fail(J, "targetValue", "missing");
    if (!R->material_names_built) {
        /* every material name once, the first of a name kept: a lookup per
           value instead of a scan of the materials */
        for (size_t k = 0; k < R->model->material_count; k++)
            if (R->model->materials[k].name &&
                sw__str_map_put(&R->material_names, R->model->materials[k].name, (uint32_t)k, NULL) ==
                    SW__STR_MAP_NO_MEMORY)
                return sw__json_out_of_memory(J);
        R->material_names_built = true;
    }
    uint32_t found;
    int32_t mat = sw__str_map_get(&R->material_names, material, &found) ? (int32_t)found : -1;
    int type = sw__property0(property);
    if (mat < 0) {
        sw__json_warn(J, "materialName", "names no material; ignored");
        return SW_OK;
    }
    if (type == -1) {
        sw__json_warn(J, "propertyName", "not a colour or _MainTex_ST; ignored");
        return SW_OK;
    }
    /* Unity writes 4 numbers; fewer are padded with the alpha/1 of a colour */
    float v[4] = {0.0f, 0.0f, 0.0f, 1.0f};
    size_t count = sw__json_count(target);
    if (count < (type == -2 ? 4u : 3u) || count > 4)
        return sw__json_fail(J, "targetValue", "expected %s numbers", type == -2 ? "4" : "3 or 4");
    size_t mark = sw__json_push(J, "targetValue");
    for (sw__json_each it = sw__json_each_of(J, target); sw__json_next(J, &it);)
        if (sw__json_float_value(J, it.value, &v[it.index]) != SW_OK) return SW_ERR_INVALID_DATA;
    sw__json_pop(J, mark);
    if (type == -2) {
        /* Unity's (scale, offset) with V up from the bottom; glTF's V runs down. */
        textures[e->texture_bind_count++] = (sw_vrm_texture_bind){
            .material = (uint32_t)mat, .scale = {v[0], v[1]}, .offset = {v[2], 1.0f - v[1] - v[3]}};
    } else {
        sw_vrm_color_bind* c = &colors[e->color_bind_count++];
        *c = (sw_vrm_color_bind){.material = (uint32_t)mat, .type = (sw_vrm_color_type)type};
        memcpy(c->target, v, sizeof v);
    }
    return SW_OK;
}

static sw_result sw__material_values0(sw__reader* R, const cJSON* values, sw_vrm_expression* e) {
    sw__json* J = &R->J;
    size_t n = sw__json_count(values);
    sw_vrm_color_bind* colors = sw__json_alloc(J, n, sizeof *colors);
    sw_vrm_texture_bind* textures = sw__json_alloc(J, n, sizeof *textures);
    if (!colors || !textures) return sw__json_out_of_memory(J);
    size_t mark = sw__json_push(J, "materialValues");
    for (sw__json_each it = sw__json_each_of(J, values); sw__json_next(J, &it);)
        if (sw__material_value0(R, it.value, colors, textures, e) != SW_OK) return SW_ERR_INVALID_DATA;
    sw__json_pop(J, mark);
    e->color_binds = colors;
    e->texture_binds = textures;
    return SW_OK;
}

/* One blendShapeGroups entry (at the current path). */
static sw_result sw__group0(sw__reader* R, const cJSON* g) {
    static const struct {
        const char* v0;
        sw_vrm_preset preset;
    } presets[] = {{"joy", SW_VRM_PRESET_HAPPY},           {"angry", SW_VRM_PRESET_ANGRY},
                   {"sorrow", SW_VRM_PRESET_SAD},          {"fun", SW_VRM_PRESET_RELAXED},
                   {"a", SW_VRM_PRESET_AA},                {"i", SW_VRM_PRESET_IH},
                   {"u", SW_VRM_PRESET_OU},                {"e", SW_VRM_PRESET_EE},
                   {"o", SW_VRM_PRESET_OH},                {"blink", SW_VRM_PRESET_BLINK},
                   {"blink_l", SW_VRM_PRESET_BLINK_LEFT},  {"blink_r", SW_VRM_PRESET_BLINK_RIGHT},
                   {"lookup", SW_VRM_PRESET_LOOK_UP},      {"lookdown", SW_VRM_PRESET_LOOK_DOWN},
                   {"lookleft", SW_VRM_PRESET_LOOK_LEFT},  {"lookright", SW_VRM_PRESET_LOOK_RIGHT},
                   {"neutral", SW_VRM_PRESET_NEUTRAL}};
    sw__json* J = &R->J;
    const char *name, *preset_name;
    const cJSON *binds, *values;
    if (sw__json_expect_object(J, g) != SW_OK || sw__json_string(J, g, "name", false, &name) != SW_OK ||
        sw__json_string(J, g, "presetName", false, &preset_name) != SW_OK ||
        sw__json_array(J, g, "binds", false, &binds) != SW_OK ||
        sw__json_array(J, g, "materialValues", false, &values) != SW_OK)
        return SW_ERR_INVALID_DATA;
    sw_vrm_preset p = SW_VRM_PRESET_CUSTOM;
    if (preset_name) {
        bool known = strcmp(preset_name, "unknown") == 0;
        for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++)
            if (strcmp(presets[i].v0, preset_name) == 0) p = presets[i].preset, known = true;
        if (!known) sw__json_warn(J, "presetName", "unknown preset; read as a custom expression");
    }
    const char* label = p != SW_VRM_PRESET_CUSTOM ? sw_vrm_preset_name(p) : name;
    if (!label || !*label) {
        sw__json_warn(J, NULL, "a custom expression without a name; ignored");
        return SW_OK;
    }
    if (p == SW_VRM_PRESET_CUSTOM && sw__preset_of(label) != SW_VRM_PRESET_CUSTOM) {
        sw__json_warn(J, NULL, "a custom expression cannot take a preset's name; ignored");
        return SW_OK;
    }
    sw_vrm_expression* e = sw__new_expression(R, label, p);
    if (J->oom) return sw__json_out_of_memory(J);
    if (!e) return SW_OK;
    if (sw__json_bool(J, g, "isBinary", &e->is_binary) != SW_OK || (binds && sw__binds0(R, binds, e) != SW_OK) ||
        (values && sw__material_values0(R, values, e) != SW_OK))
        return SW_ERR_INVALID_DATA;
    return SW_OK;
}

static sw_result sw__expressions0(sw__reader* R, const cJSON* root) {
    sw__json* J = &R->J;
    const cJSON *master, *groups = NULL;
    if (sw__json_object(J, root, "blendShapeMaster", false, &master) != SW_OK) return SW_ERR_INVALID_DATA;
    size_t mark = sw__json_push(J, "blendShapeMaster");
    if (master && sw__json_array(J, master, "blendShapeGroups", false, &groups) != SW_OK) return SW_ERR_INVALID_DATA;
    if (groups) {
        R->expression_cap = sw__json_count(groups);
        if (!(R->expressions = sw__json_alloc(J, R->expression_cap, sizeof *R->expressions)))
            return sw__json_out_of_memory(J);
        sw__json_push(J, "blendShapeGroups");
        for (sw__json_each it = sw__json_each_of(J, groups); sw__json_next(J, &it);)
            if (sw__group0(R, it.value) != SW_OK) return sw__json_result(J);
    }
    sw__json_pop(J, mark);
    return SW_OK;
}

/* firstPerson's lookAt fields: the type, the four degree maps and the
   bone offset (at the current path, firstPerson). */
/* A 0.x degree map's `curve` (Unity keyframes: time, value, in and out
   tangent, twice) is read as the straight line it usually is, as three-vrm
   does; any other curve is named in a warning. */
static void sw__degree_map_curve(sw__json* J, const cJSON* first_person, const char* key) {
    static const double linear[8] = {0, 0, 0, 1, 1, 1, 1, 0};
    const cJSON* map = sw__json_member(first_person, key);
    const cJSON* curve = cJSON_IsObject(map) ? sw__json_member(map, "curve") : NULL;
    if (!curve) return;
    bool is_linear = cJSON_IsArray(curve) && cJSON_GetArraySize(curve) == 8;
    for (int i = 0; is_linear && i < 8; i++) {
        const cJSON* v = cJSON_GetArrayItem(curve, i);
        is_linear = cJSON_IsNumber(v) && v->valuedouble == linear[i];
    }
    if (is_linear) return;
    size_t mark = sw__json_push(J, key);
    sw__json_warn(J, "curve", "a degree-map curve other than the straight line [0,0,0,1,1,1,1,0] is not "
                              "supported; read as the straight line");
    sw__json_pop(J, mark);
}

static sw_result sw__look_at0(sw__reader* R, const cJSON* f) {
    sw__json* J = &R->J;
    sw_vrm_look_at* look = &R->o->vrm.look_at;
    static const char* const types[] = {"Bone", "BlendShape"};
    int type = 0;
    if (sw__json_enum(J, f, "lookAtTypeName", types, 2, &type) != SW_OK) return SW_ERR_INVALID_DATA;
    look->type = (sw_vrm_look_at_type)type;
    sw__look_at_defaults(look);
    static const char* const maps[4] = {"lookAtHorizontalInner", "lookAtHorizontalOuter", "lookAtVerticalDown",
                                        "lookAtVerticalUp"};
    sw_vrm_range_map* outs[4] = {&look->horizontal_inner, &look->horizontal_outer, &look->vertical_down,
                                 &look->vertical_up};
    look->present = sw__json_member(f, "lookAtTypeName") != NULL;
    for (int k = 0; k < 4; k++) {
        look->present |= sw__json_member(f, maps[k]) != NULL;
        if (sw__range_map(R, f, maps[k], "xRange", "yRange", outs[k]) != SW_OK) return SW_ERR_INVALID_DATA;
        sw__degree_map_curve(J, f, maps[k]);
    }
    float offset[3] = {0.0f, 0.06f, 0.0f};
    if (sw__json_xyz(J, f, "firstPersonBoneOffset", offset) != SW_OK) return SW_ERR_INVALID_DATA;
    /* Unity's left-handed vector, as 0.x collider offsets */
    if (sw__json_member(f, "firstPersonBoneOffset")) offset[2] = -offset[2];
    memcpy(look->offset_from_head_bone, offset, sizeof offset);
    return SW_OK;
}

/* firstPerson.meshAnnotations: one annotation per node drawing the mesh. */
static sw_result sw__mesh_annotations0(sw__reader* R, const cJSON* a) {
    sw__json* J = &R->J;
    sw_vrm* v = &R->o->vrm;
    size_t mark = sw__json_push(J, "meshAnnotations"), total;
    if (sw__expanded_count(R, a, "annotations", &total) != SW_OK) return SW_ERR_INVALID_DATA;
    sw_vrm_mesh_annotation* out = sw__json_alloc(J, total, sizeof *out);
    if (!out) return sw__json_out_of_memory(J);
    static const char* const flags[] = {"Auto", "Both", "ThirdPersonOnly", "FirstPersonOnly"};
    for (sw__json_each it = sw__json_each_of(J, a); sw__json_next(J, &it);) {
        uint32_t mesh;
        int flag = 0;
        if (sw__json_index_below(J, it.value, "mesh", R->model->mesh_count, "meshes", &mesh) != SW_OK ||
            sw__json_enum(J, it.value, "firstPersonFlag", flags, 4, &flag) != SW_OK)
            return SW_ERR_INVALID_DATA;
        const uint32_t* nodes;
        size_t n = sw__nodes_of_mesh(R, mesh, &nodes);
        for (size_t k = 0; k < n; k++)
            out[v->mesh_annotation_count++] = (sw_vrm_mesh_annotation){nodes[k], (sw_vrm_first_person)flag};
    }
    sw__json_pop(J, mark);
    v->mesh_annotations = out;
    return SW_OK;
}

static sw_result sw__first_person0(sw__reader* R, const cJSON* root) {
    sw__json* J = &R->J;
    const cJSON *f, *a = NULL;
    if (sw__json_object(J, root, "firstPerson", false, &f) != SW_OK) return SW_ERR_INVALID_DATA;
    size_t mark = sw__json_push(J, "firstPerson");
    if (f && sw__json_array(J, f, "meshAnnotations", false, &a) != SW_OK) return SW_ERR_INVALID_DATA;
    if (f) {
        const cJSON* bone = sw__json_member(f, "firstPersonBone");
        if (bone && !sw__json_equals(bone, -1.0)) {
            uint32_t node;
            if (sw__node(R, f, "firstPersonBone", &node) != SW_OK) return SW_ERR_INVALID_DATA;
            R->o->vrm.first_person_bone = (int32_t)node;
        }
        if (sw__look_at0(R, f) != SW_OK || (a && sw__mesh_annotations0(R, a) != SW_OK)) return SW_ERR_INVALID_DATA;
    }
    sw__json_pop(J, mark);
    return SW_OK;
}

static sw_result sw__read0(sw__reader* R, const cJSON* root) {
    sw_vrm* v = &R->o->vrm;
    v->version = SW_VRM_0;
    if (sw__copy_string(R, root, "specVersion", &v->spec_version) != SW_OK || sw__meta0(R, root) != SW_OK ||
        sw__humanoid0(R, root) != SW_OK || sw__expressions0(R, root) != SW_OK || sw__first_person0(R, root) != SW_OK)
        return sw__json_result(&R->J);
    return SW_OK;
}

/* ---- after reading: humanoid checks, slots ------------------------------------------------------------- */

static bool sw__is_below(const sw_model* m, int32_t node, int32_t ancestor) {
    for (int32_t p = m->nodes[node].parent; p >= 0; p = m->nodes[p].parent)
        if (p == ancestor) return true;
    return false;
}

/* Warnings at base.humanoid; the coverage counts. */
static void sw__check_humanoid(sw__reader* R) {
    sw__json* J = &R->J;
    sw_vrm* v = &R->o->vrm;
    size_t mark = sw__json_push(J, "humanoid");
    for (int b = 0; b < SW_HUMANOID_BONE_COUNT; b++) {
        sw_humanoid_bone bone = (sw_humanoid_bone)b;
        int32_t node = v->humanoid.node[b];
        if (node < 0) {
            if (sw_humanoid_bone_required(bone))
                sw__json_warn(J, NULL, "the required bone %s is missing", sw_humanoid_bone_name(bone));
            continue;
        }
        sw_humanoid_bone up = sw_humanoid_mapped_parent(&v->humanoid, bone);
        if (up != SW_HUMANOID_NONE && !sw__is_below(R->model, node, v->humanoid.node[up]))
            sw__json_warn(J, NULL, "%s (node %u) is not below %s (node %u)", sw_humanoid_bone_name(bone),
                          sw__file_index(R, (uint32_t)node), sw_humanoid_bone_name(up),
                          sw__file_index(R, (uint32_t)v->humanoid.node[up]));
        /* upperChest needs chest; a finger's second and third joints need the one before */
        sw_humanoid_bone parent = sw_humanoid_parent_bone(bone);
        bool needs = bone == SW_HUMANOID_UPPER_CHEST ||
                     (bone >= SW_HUMANOID_LEFT_THUMB_METACARPAL && parent != SW_HUMANOID_LEFT_HAND &&
                      parent != SW_HUMANOID_RIGHT_HAND);
        if (needs && v->humanoid.node[parent] < 0)
            sw__json_warn(J, NULL, "%s is given without %s", sw_humanoid_bone_name(bone),
                          sw_humanoid_bone_name(parent));
    }
    sw__json_pop(J, mark);
    sw_humanoid_map_coverage(&v->humanoid, &v->humanoid_mapped, &v->humanoid_required_missing);
}

/* Gives every bind its slot: (node, target) through the model's morph weight
   offsets, (material, type) and material through direct tables. */
static sw_result sw__make_slots(sw__reader* R) {
    sw__json* J = &R->J;
    sw_vrm* v = &R->o->vrm;
    const sw_model* m = R->model;
    size_t morphs = 0, colors = 0, textures = 0;
    for (size_t i = 0; i < v->expression_count; i++) {
        morphs += R->expressions[i].morph_bind_count;
        colors += R->expressions[i].color_bind_count;
        textures += R->expressions[i].texture_bind_count;
    }
    if (!morphs && !colors && !textures) return SW_OK;
    size_t materials = m->material_count ? m->material_count : 1;
    uint32_t* morph_table = sw__json_alloc(J, m->weight_count ? m->weight_count : 1, sizeof *morph_table);
    uint32_t* color_table = sw__json_alloc(J, materials * SW_VRM_COLOR_TYPE_COUNT, sizeof *color_table);
    uint32_t* texture_table = sw__json_alloc(J, materials, sizeof *texture_table);
    sw_vrm_morph_slot* morph_slots = sw__json_alloc(J, morphs, sizeof *morph_slots);
    sw_vrm_color_slot* color_slots = sw__json_alloc(J, colors, sizeof *color_slots);
    uint32_t* texture_slots = sw__json_alloc(J, textures, sizeof *texture_slots);
    if (!morph_table || !color_table || !texture_table || !morph_slots || !color_slots || !texture_slots)
        return sw__json_out_of_memory(J);
    /* tables hold slot + 1; 0 = none yet */
    for (size_t i = 0; i < v->expression_count; i++) {
        sw_vrm_expression* e = &R->expressions[i];
        for (size_t k = 0; k < e->morph_bind_count; k++) {
            sw_vrm_morph_bind* b = (sw_vrm_morph_bind*)&e->morph_binds[k];
            uint32_t* t = &morph_table[m->nodes[b->node].weight_offset + b->index];
            if (!*t) {
                morph_slots[v->morph_slot_count] = (sw_vrm_morph_slot){b->node, b->index};
                *t = (uint32_t)++v->morph_slot_count;
            }
            b->slot = *t - 1;
        }
        for (size_t k = 0; k < e->color_bind_count; k++) {
            sw_vrm_color_bind* b = (sw_vrm_color_bind*)&e->color_binds[k];
            uint32_t* t = &color_table[b->material * SW_VRM_COLOR_TYPE_COUNT + b->type];
            if (!*t) {
                color_slots[v->color_slot_count] = (sw_vrm_color_slot){b->material, b->type};
                *t = (uint32_t)++v->color_slot_count;
            }
            b->slot = *t - 1;
        }
        for (size_t k = 0; k < e->texture_bind_count; k++) {
            sw_vrm_texture_bind* b = (sw_vrm_texture_bind*)&e->texture_binds[k];
            uint32_t* t = &texture_table[b->material];
            if (!*t) {
                texture_slots[v->texture_slot_count] = b->material;
                *t = (uint32_t)++v->texture_slot_count;
            }
            b->slot = *t - 1;
        }
    }
    v->morph_slots = morph_slots;
    v->color_slots = color_slots;
    v->texture_slots = texture_slots;
    return SW_OK;
}

/* ---- public -------------------------------------------------------------------------------------------- */

void sw_vrm_free(sw_vrm* vrm) {
    if (!vrm) return;
    sw__vrm_owned* o = (sw__vrm_owned*)vrm;
    sw__json_owned_free(&o->mem);
    sw__free(o);
}

/* Reads the parsed record (at J's path, the record's) into R->o. */
static sw_result sw__read(sw__reader* R, const cJSON* json, bool version1, bool both) {
    sw__json* J = &R->J;
    if (!json) return sw__json_fail(J, NULL, "not valid JSON");
    if (!sw__json_is_object(json)) return sw__json_fail(J, NULL, "expected an object");
    if (both) {
        sw__json_set_path(J, "extensions.VRM");
        sw__json_warn(J, NULL, "ignored: VRMC_vrm is used");
        sw__json_set_path(J, "extensions.VRMC_vrm");
    }
    sw_result r = version1 ? sw__read1(R, json) : sw__read0(R, json);
    if (r == SW_OK) {
        sw__check_humanoid(R);
        r = sw__make_slots(R);
    }
    if (r == SW_OK && J->oom) r = sw__json_out_of_memory(J);
    return r;
}

sw_result sw_vrm_read(const sw_model* model, sw_vrm** out, sw_diag* diag) {
    if (out) *out = NULL;
    if (!model || !out)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "VRM read: a model and an output are needed");
    const sw_model_extension* v1 = sw_model_find_extension(model, "VRMC_vrm", SW_MODEL_OBJECT_MODEL, 0);
    const sw_model_extension* v0 = sw_model_find_extension(model, "VRM", SW_MODEL_OBJECT_MODEL, 0);
    sw_diag_set(diag, SW_OK, -1, "%s", "");
    if (!v1 && !v0) return SW_OK;
    sw__reader R = {.model = model};
    sw__vrm_owned* o = sw__calloc(1, sizeof *o);
    sw__json_begin(&R.J, model->path ? model->path : "model", "VRM", diag, o ? &o->mem : NULL);
    if (!o) return sw__json_out_of_memory(&R.J);
    R.o = o;
    sw_vrm* v = &o->vrm;
    sw_humanoid_map_clear(&v->humanoid);
    for (int p = 0; p < SW_VRM_PRESET_COUNT; p++) v->preset[p] = -1;
    v->meta.thumbnail = -1;
    v->first_person_bone = -1;
    v->look_at.offset_from_head_bone[1] = 0.06f;
    sw__look_at_defaults(&v->look_at);
    sw__json_set_path(&R.J, v1 ? "extensions.VRMC_vrm" : "extensions.VRM");
    cJSON* json = sw__json_parse(&R.J, v1 ? v1->json : v0->json, NULL);
    sw_result r = !json && R.J.oom ? sw__json_out_of_memory(&R.J) : sw__read(&R, json, v1 != NULL, v1 && v0);
    sw__json_delete(json);
    sw__str_map_free(&R.expression_names);
    sw__str_map_free(&R.material_names);
    if (r != SW_OK) {
        sw_vrm_free(v);
        return r;
    }
    v->warnings = (const char* const*)o->mem.warnings;
    v->warning_count = o->mem.warning_count;
    *out = v;
    return SW_OK;
}
