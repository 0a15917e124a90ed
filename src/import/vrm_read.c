/* The VRM reader (sinew/vrm.h): VRMC_vrm (VRM 1.0) and VRM 0.x's "VRM"
   from the model's root extension record (compact JSON, parsed again here
   with cJSON), into VRM 1.0's shape; and the expression rules.

   Every allocation of a read goes through sw__alloc and is remembered in
   the owner's block list, so a failure anywhere frees everything with
   sw_vrm_free. Array sizes are known before they are filled (JSON array
   sizes, nodes per mesh), so nothing is reallocated except the warning
   list. Out of memory while warning is remembered and reported at the
   end. */
#include "sinew/vrm.h"

#include "../base/base_internal.h"
#include "../base/cjson_alloc_internal.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SW__PATH_SIZE 192

typedef struct sw__vrm_owned {
    sw_vrm vrm; /* first: sw_vrm_free casts back */
    void** blocks;
    size_t block_count, block_cap;
    char** warnings;
    size_t warning_cap;
} sw__vrm_owned;

typedef struct sw__reader {
    const sw_model* model;
    const char* file;
    sw_diag* diag;
    sw__vrm_owned* o;
    bool oom;
    /* expressions being filled (capacity from the JSON) */
    sw_vrm_expression* expressions;
    size_t expression_cap;
    size_t* mesh_first;   /* mesh_count + 1 (sw__index_meshes) */
    uint32_t* mesh_nodes; /* node_count */
} sw__reader;

/* ---- memory and messages ----------------------------------------------------------------------- */

static void* sw__alloc(sw__reader* R, size_t count, size_t size) {
    size_t bytes;
    if (!sw_mul_size(count ? count : 1, size, &bytes)) {
        R->oom = true;
        return NULL;
    }
    sw__vrm_owned* o = R->o;
    if (o->block_count == o->block_cap) {
        size_t cap = o->block_cap ? o->block_cap * 2 : 32;
        void** b = sw__realloc(o->blocks, cap * sizeof *b);
        if (!b) {
            R->oom = true;
            return NULL;
        }
        o->blocks = b;
        o->block_cap = cap;
    }
    void* p = sw__calloc(1, bytes);
    if (!p) {
        R->oom = true;
        return NULL;
    }
    o->blocks[o->block_count++] = p;
    return p;
}

static sw_result sw__oom(sw__reader* R) {
    return sw_diag_set(R->diag, SW_ERR_OUT_OF_MEMORY, -1, "%s: VRM: out of memory", R->file);
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

static void sw__warn(sw__reader* R, const char* path, const char* format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static void sw__warn(sw__reader* R, const char* path, const char* format, ...) {
    char text[200], line[512];
    va_list args;
    va_start(args, format);
    vsnprintf(text, sizeof text, format, args);
    va_end(args);
    sw__line_at(line, sizeof line, R->file, path, text);
    sw__vrm_owned* o = R->o;
    if (!sw__lines_append(&o->warnings, &o->vrm.warning_count, &o->warning_cap, line)) R->oom = true;
    o->vrm.warnings = (const char* const*)o->warnings;
}

static const char* sw__copy(sw__reader* R, const char* s) {
    size_t len = strlen(s) + 1;
    char* c = sw__alloc(R, len, 1);
    if (c) memcpy(c, s, len);
    return c;
}

/* ---- JSON paths and values ------------------------------------------------------------------------ */

typedef struct sw__path {
    char s[SW__PATH_SIZE];
} sw__path;

static sw__path sw__key(const char* path, const char* key) {
    sw__path p;
    int n = snprintf(p.s, sizeof p.s, "%s.%s", path, key);
    if (n < 0 || n >= (int)sizeof p.s) memcpy(p.s + sizeof p.s - 4, "...", 4);
    return p;
}
static sw__path sw__item(const char* path, size_t i) {
    sw__path p;
    int n = snprintf(p.s, sizeof p.s, "%s[%zu]", path, i);
    if (n < 0 || n >= (int)sizeof p.s) memcpy(p.s + sizeof p.s - 4, "...", 4);
    return p;
}

static const cJSON* sw__member(const cJSON* object, const char* key) {
    return cJSON_GetObjectItemCaseSensitive(object, key);
}

/* A member that must have `type` (cJSON_Object, _Array, _String) when present. */
static sw_result sw__get(sw__reader* R, const cJSON* object, const char* path, const char* key, int type,
                         const cJSON** out) {
    *out = sw__member(object, key);
    if (!*out) return SW_OK;
    const char* want = NULL;
    if (type == cJSON_Object && !cJSON_IsObject(*out)) want = "an object";
    if (type == cJSON_Array && !cJSON_IsArray(*out)) want = "an array";
    if (type == cJSON_String && (!cJSON_IsString(*out) || !(*out)->valuestring)) want = "a string";
    return want ? sw__fail(R, sw__key(path, key).s, "expected %s", want) : SW_OK;
}

/* An optional string member, copied (absent: *out unchanged). */
static sw_result sw__string(sw__reader* R, const cJSON* object, const char* path, const char* key, const char** out) {
    const cJSON* v;
    sw_result r = sw__get(R, object, path, key, cJSON_String, &v);
    if (r != SW_OK || !v) return r;
    if (!(*out = sw__copy(R, v->valuestring))) return sw__oom(R);
    return SW_OK;
}

static sw_result sw__bool(sw__reader* R, const cJSON* object, const char* path, const char* key, bool* out) {
    const cJSON* v = sw__member(object, key);
    if (!v) return SW_OK;
    if (!cJSON_IsBool(v)) return sw__fail(R, sw__key(path, key).s, "expected true or false");
    *out = cJSON_IsTrue(v);
    return SW_OK;
}

static sw_result sw__number_value(sw__reader* R, const cJSON* v, const char* where, float* out) {
    if (!cJSON_IsNumber(v)) return sw__fail(R, where, "expected a number");
    double d = v->valuedouble;
    if (!isfinite(d) || fabs(d) > 3.0e38) return sw__fail(R, where, "not a finite float");
    *out = (float)d;
    return SW_OK;
}

/* An optional number (absent: *out unchanged); `required` makes absence an error. */
static sw_result sw__number(sw__reader* R, const cJSON* object, const char* path, const char* key, bool required,
                            float* out) {
    const cJSON* v = sw__member(object, key);
    if (!v) return required ? sw__fail(R, sw__key(path, key).s, "missing") : SW_OK;
    return sw__number_value(R, v, sw__key(path, key).s, out);
}

/* [n numbers] when present (or required). */
static sw_result sw__floats(sw__reader* R, const cJSON* object, const char* path, const char* key, int n, bool required,
                            float* out) {
    const cJSON* v = sw__member(object, key);
    sw__path where = sw__key(path, key);
    if (!v) return required ? sw__fail(R, where.s, "missing") : SW_OK;
    if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) != n) return sw__fail(R, where.s, "expected an array of %d numbers", n);
    float f[4];
    int i = 0;
    for (const cJSON* e = v->child; e && i < n; e = e->next, i++)
        if (sw__number_value(R, e, sw__item(where.s, (size_t)i).s, &f[i]) != SW_OK) return SW_ERR_INVALID_DATA;
    memcpy(out, f, (size_t)n * sizeof *f);
    return SW_OK;
}

/* An index member in [0, limit); `what` names the array in messages. */
static sw_result sw__index(sw__reader* R, const cJSON* object, const char* path, const char* key, size_t limit,
                           const char* what, uint32_t* out) {
    const cJSON* v = sw__member(object, key);
    sw__path where = sw__key(path, key);
    if (!v) return sw__fail(R, where.s, "missing");
    double d = cJSON_IsNumber(v) ? v->valuedouble : -1.5;
    if (!cJSON_IsNumber(v) || !isfinite(d) || d != floor(d)) return sw__fail(R, where.s, "expected an integer index");
    if (d < 0 || d >= (double)limit)
        return sw__fail(R, where.s, "%.0f is out of range (the model has %zu %s)", d, limit, what);
    *out = (uint32_t)d;
    return SW_OK;
}

/* An optional enum string: its index in names[], unknown → a warning and *out unchanged. */
static sw_result sw__enum(sw__reader* R, const cJSON* object, const char* path, const char* key,
                          const char* const* names, int count, int* out) {
    const cJSON* v;
    sw_result r = sw__get(R, object, path, key, cJSON_String, &v);
    if (r != SW_OK || !v) return r;
    for (int i = 0; i < count; i++)
        if (strcmp(names[i], v->valuestring) == 0) {
            *out = i;
            return SW_OK;
        }
    char quoted[48];
    snprintf(quoted, sizeof quoted, "%s", v->valuestring);
    sw__warn(R, sw__key(path, key).s, "unknown value \"%s\"; %s used", quoted, names[*out]);
    return SW_OK;
}

/* A file node index (a JSON member) to the model's. */
static sw_result sw__node(sw__reader* R, const cJSON* object, const char* path, const char* key, uint32_t* out) {
    uint32_t file_index;
    if (sw__index(R, object, path, key, R->model->node_count, "nodes", &file_index) != SW_OK) return SW_ERR_INVALID_DATA;
    *out = R->model->node_from_source[file_index];
    return SW_OK;
}

static uint32_t sw__file_index(sw__reader* R, uint32_t node) { return R->model->nodes[node].source_index; }

/* ---- names ---------------------------------------------------------------------------------------- */

static const char* const sw__preset_names[SW_VRM_PRESET_COUNT] = {
    "happy", "angry",  "sad",       "relaxed",    "surprised", "aa",       "ih",        "ou",         "ee",
    "oh",    "blink", "blinkLeft", "blinkRight", "lookUp",    "lookDown", "lookLeft", "lookRight", "neutral"};

const char* sw_vrm_preset_name(sw_vrm_preset preset) {
    return (int)preset >= 0 && preset < SW_VRM_PRESET_COUNT ? sw__preset_names[preset] : NULL;
}

static const char* const sw__color_names[SW_VRM_COLOR_TYPE_COUNT] = {"color",     "emissionColor", "shadeColor",
                                                                     "matcapColor", "rimColor",    "outlineColor"};

const char* sw_vrm_color_type_name(sw_vrm_color_type type) {
    return (int)type >= 0 && type < SW_VRM_COLOR_TYPE_COUNT ? sw__color_names[type] : NULL;
}

static sw_vrm_preset sw__preset_of(const char* name) {
    for (int i = 0; i < SW_VRM_PRESET_COUNT; i++)
        if (strcmp(sw__preset_names[i], name) == 0) return (sw_vrm_preset)i;
    return SW_VRM_PRESET_CUSTOM;
}

/* The procedural kind an expression belongs to: 0 mouth, 1 blink, 2 lookAt, -1 none. */
static int sw__kind(sw_vrm_preset p) {
    if (p >= SW_VRM_PRESET_AA && p <= SW_VRM_PRESET_OH) return 0;
    if (p >= SW_VRM_PRESET_BLINK && p <= SW_VRM_PRESET_BLINK_RIGHT) return 1;
    if (p >= SW_VRM_PRESET_LOOK_UP && p <= SW_VRM_PRESET_LOOK_RIGHT) return 2;
    return -1;
}

static const char* const sw__override_names[] = {"none", "block", "blend"};
static const char* const sw__override_keys[3] = {"overrideMouth", "overrideBlink", "overrideLookAt"};

static sw_vrm_override sw__override_of(const sw_vrm_expression* e, int kind) {
    return kind == 0 ? e->override_mouth : kind == 1 ? e->override_blink : e->override_look_at;
}

/* ---- adding expressions ------------------------------------------------------------------------------ */

/* A new expression slot, or NULL (the preset or name is taken: a warning). */
static sw_vrm_expression* sw__new_expression(sw__reader* R, const char* path, const char* name, sw_vrm_preset preset) {
    sw_vrm* v = &R->o->vrm;
    if (preset != SW_VRM_PRESET_CUSTOM && v->preset[preset] >= 0) {
        sw__warn(R, path, "the preset %s is given twice; the later one is ignored", sw__preset_names[preset]);
        return NULL;
    }
    for (size_t i = 0; i < v->expression_count; i++)
        if (strcmp(R->expressions[i].name, name) == 0) {
            sw__warn(R, path, "an expression of this name exists already; ignored");
            return NULL;
        }
    if (v->expression_count >= R->expression_cap) return NULL; /* sized from the JSON: not reached */
    sw_vrm_expression* e = &R->expressions[v->expression_count];
    memset(e, 0, sizeof *e);
    e->preset = preset;
    if (!(e->name = sw__copy(R, name))) return NULL;
    if (preset != SW_VRM_PRESET_CUSTOM) v->preset[preset] = (int32_t)v->expression_count;
    v->expression_count++;
    v->expressions = R->expressions;
    return e;
}

/* A morph bind's node must draw a mesh with that target (bind at `path`). */
static sw_result sw__check_morph(sw__reader* R, const char* path, uint32_t node, uint32_t index) {
    int32_t mesh = R->model->nodes[node].mesh;
    if (mesh < 0) return sw__fail(R, sw__key(path, "node").s, "node %u has no mesh", sw__file_index(R, node));
    size_t targets = R->model->meshes[mesh].weight_count;
    if (index >= targets)
        return sw__fail(R, sw__key(path, "index").s, "morph target %u is out of range (the mesh of node %u has %zu)",
                        index, sw__file_index(R, node), targets);
    return SW_OK;
}

/* ---- VRM 1.0 ---------------------------------------------------------------------------------------- */

static sw_result sw__expression1(sw__reader* R, const cJSON* x, const char* path, sw_vrm_expression* e) {
    if (!cJSON_IsObject(x)) return sw__fail(R, path, "expected an object");
    if (sw__bool(R, x, path, "isBinary", &e->is_binary) != SW_OK) return SW_ERR_INVALID_DATA;
    for (int kind = 0; kind < 3; kind++) {
        int value = SW_VRM_OVERRIDE_NONE;
        if (sw__enum(R, x, path, sw__override_keys[kind], sw__override_names, 3, &value) != SW_OK)
            return SW_ERR_INVALID_DATA;
        if (value != SW_VRM_OVERRIDE_NONE && sw__kind(e->preset) == kind) {
            sw__warn(R, sw__key(path, sw__override_keys[kind]).s,
                     "an expression cannot override its own kind; ignored");
            value = SW_VRM_OVERRIDE_NONE;
        }
        if (kind == 0) e->override_mouth = (sw_vrm_override)value;
        if (kind == 1) e->override_blink = (sw_vrm_override)value;
        if (kind == 2) e->override_look_at = (sw_vrm_override)value;
    }
    const cJSON *morphs, *colors, *textures;
    if (sw__get(R, x, path, "morphTargetBinds", cJSON_Array, &morphs) != SW_OK ||
        sw__get(R, x, path, "materialColorBinds", cJSON_Array, &colors) != SW_OK ||
        sw__get(R, x, path, "textureTransformBinds", cJSON_Array, &textures) != SW_OK)
        return SW_ERR_INVALID_DATA;
    if (morphs) {
        sw__path mp = sw__key(path, "morphTargetBinds");
        sw_vrm_morph_bind* b = sw__alloc(R, (size_t)cJSON_GetArraySize(morphs), sizeof *b);
        if (!b) return sw__oom(R);
        size_t i = 0;
        for (const cJSON* m = morphs->child; m; m = m->next, i++) {
            sw__path bp = sw__item(mp.s, i);
            if (!cJSON_IsObject(m)) return sw__fail(R, bp.s, "expected an object");
            sw_vrm_morph_bind* out = &b[e->morph_bind_count];
            if (sw__node(R, m, bp.s, "node", &out->node) != SW_OK ||
                sw__index(R, m, bp.s, "index", UINT32_MAX, "morph targets", &out->index) != SW_OK ||
                sw__check_morph(R, bp.s, out->node, out->index) != SW_OK ||
                sw__number(R, m, bp.s, "weight", true, &out->weight) != SW_OK)
                return SW_ERR_INVALID_DATA;
            if (!(out->weight >= 0.0f && out->weight <= 1.0f)) {
                float c = out->weight < 0.0f ? 0.0f : 1.0f;
                sw__warn(R, sw__key(bp.s, "weight").s, "%g is out of range [0, 1]; clamped to %g", (double)out->weight,
                         (double)c);
                out->weight = c;
            }
            e->morph_bind_count++;
        }
        e->morph_binds = b;
    }
    if (colors) {
        sw__path cp = sw__key(path, "materialColorBinds");
        sw_vrm_color_bind* b = sw__alloc(R, (size_t)cJSON_GetArraySize(colors), sizeof *b);
        if (!b) return sw__oom(R);
        size_t i = 0;
        for (const cJSON* c = colors->child; c; c = c->next, i++) {
            sw__path bp = sw__item(cp.s, i);
            if (!cJSON_IsObject(c)) return sw__fail(R, bp.s, "expected an object");
            sw_vrm_color_bind* out = &b[e->color_bind_count];
            const cJSON* type;
            if (sw__index(R, c, bp.s, "material", R->model->material_count, "materials", &out->material) != SW_OK ||
                sw__get(R, c, bp.s, "type", cJSON_String, &type) != SW_OK ||
                sw__floats(R, c, bp.s, "targetValue", 4, true, out->target) != SW_OK)
                return SW_ERR_INVALID_DATA;
            if (!type) return sw__fail(R, sw__key(bp.s, "type").s, "missing");
            int t = -1;
            for (int k = 0; k < SW_VRM_COLOR_TYPE_COUNT; k++)
                if (strcmp(sw__color_names[k], type->valuestring) == 0) t = k;
            if (t < 0) {
                sw__warn(R, sw__key(bp.s, "type").s, "unknown type; the bind is ignored");
                continue;
            }
            out->type = (sw_vrm_color_type)t;
            e->color_bind_count++;
        }
        e->color_binds = b;
    }
    if (textures) {
        sw__path tp = sw__key(path, "textureTransformBinds");
        sw_vrm_texture_bind* b = sw__alloc(R, (size_t)cJSON_GetArraySize(textures), sizeof *b);
        if (!b) return sw__oom(R);
        size_t i = 0;
        for (const cJSON* t = textures->child; t; t = t->next, i++) {
            sw__path bp = sw__item(tp.s, i);
            if (!cJSON_IsObject(t)) return sw__fail(R, bp.s, "expected an object");
            sw_vrm_texture_bind* out = &b[e->texture_bind_count];
            out->scale[0] = out->scale[1] = 1.0f;
            if (sw__index(R, t, bp.s, "material", R->model->material_count, "materials", &out->material) != SW_OK ||
                sw__floats(R, t, bp.s, "scale", 2, false, out->scale) != SW_OK ||
                sw__floats(R, t, bp.s, "offset", 2, false, out->offset) != SW_OK)
                return SW_ERR_INVALID_DATA;
            e->texture_bind_count++;
        }
        e->texture_binds = b;
    }
    return SW_OK;
}

static sw_result sw__expressions1(sw__reader* R, const cJSON* root, const char* base) {
    const cJSON* ex;
    if (sw__get(R, root, base, "expressions", cJSON_Object, &ex) != SW_OK) return SW_ERR_INVALID_DATA;
    if (!ex) return SW_OK;
    sw__path xp = sw__key(base, "expressions");
    const cJSON *preset, *custom;
    if (sw__get(R, ex, xp.s, "preset", cJSON_Object, &preset) != SW_OK ||
        sw__get(R, ex, xp.s, "custom", cJSON_Object, &custom) != SW_OK)
        return SW_ERR_INVALID_DATA;
    R->expression_cap = (size_t)(preset ? cJSON_GetArraySize(preset) : 0) + (size_t)(custom ? cJSON_GetArraySize(custom) : 0);
    if (!(R->expressions = sw__alloc(R, R->expression_cap, sizeof *R->expressions))) return sw__oom(R);
    for (int pass = 0; pass < 2; pass++) {
        const cJSON* group = pass == 0 ? preset : custom;
        if (!group) continue;
        sw__path gp = sw__key(xp.s, pass == 0 ? "preset" : "custom");
        for (const cJSON* x = group->child; x; x = x->next) {
            const char* name = x->string ? x->string : "";
            sw__path ep = sw__key(gp.s, name);
            sw_vrm_preset p = sw__preset_of(name);
            if (pass == 0 && p == SW_VRM_PRESET_CUSTOM) {
                sw__warn(R, ep.s, "not a preset expression; ignored");
                continue;
            }
            if (pass == 1 && p != SW_VRM_PRESET_CUSTOM) {
                sw__warn(R, ep.s, "a custom expression cannot take a preset's name; ignored");
                continue;
            }
            if (pass == 1 && !*name) {
                sw__warn(R, ep.s, "a custom expression without a name; ignored");
                continue;
            }
            sw_vrm_expression* e = sw__new_expression(R, ep.s, name, p);
            if (R->oom) return sw__oom(R);
            if (!e) continue;
            if (sw__expression1(R, x, ep.s, e) != SW_OK) return R->oom ? sw__oom(R) : SW_ERR_INVALID_DATA;
        }
    }
    return SW_OK;
}

static sw_result sw__meta1(sw__reader* R, const cJSON* root, const char* base) {
    const cJSON* m;
    if (sw__get(R, root, base, "meta", cJSON_Object, &m) != SW_OK) return SW_ERR_INVALID_DATA;
    sw_vrm_meta* meta = &R->o->vrm.meta;
    int avatar = 0, commercial = 0, credit = 0, modification = 0;
    static const char* const avatar_names[] = {"onlyAuthor", "onlySeparatelyLicensedPerson", "everyone"};
    static const char* const commercial_names[] = {"personalNonProfit", "personalProfit", "corporation"};
    static const char* const credit_names[] = {"required", "unnecessary"};
    static const char* const modification_names[] = {"prohibited", "allowModification",
                                                     "allowModificationRedistribution"};
    sw__path mp = sw__key(base, "meta");
    if (!m) {
        sw__warn(R, mp.s, "missing (VRM 1.0 requires it); licence defaults used");
    } else {
        const cJSON *authors, *references, *thumb;
        if (sw__string(R, m, mp.s, "name", &meta->name) != SW_OK ||
            sw__string(R, m, mp.s, "version", &meta->version) != SW_OK ||
            sw__string(R, m, mp.s, "copyrightInformation", &meta->copyright) != SW_OK ||
            sw__string(R, m, mp.s, "contactInformation", &meta->contact) != SW_OK ||
            sw__string(R, m, mp.s, "thirdPartyLicenses", &meta->third_party_licenses) != SW_OK ||
            sw__string(R, m, mp.s, "licenseUrl", &meta->license_url) != SW_OK ||
            sw__string(R, m, mp.s, "otherLicenseUrl", &meta->other_license_url) != SW_OK ||
            sw__bool(R, m, mp.s, "allowExcessivelyViolentUsage", &meta->allow_excessively_violent_usage) != SW_OK ||
            sw__bool(R, m, mp.s, "allowExcessivelySexualUsage", &meta->allow_excessively_sexual_usage) != SW_OK ||
            sw__bool(R, m, mp.s, "allowPoliticalOrReligiousUsage", &meta->allow_political_or_religious_usage) !=
                SW_OK ||
            sw__bool(R, m, mp.s, "allowAntisocialOrHateUsage", &meta->allow_antisocial_or_hate_usage) != SW_OK ||
            sw__bool(R, m, mp.s, "allowRedistribution", &meta->allow_redistribution) != SW_OK ||
            sw__enum(R, m, mp.s, "avatarPermission", avatar_names, 3, &avatar) != SW_OK ||
            sw__enum(R, m, mp.s, "commercialUsage", commercial_names, 3, &commercial) != SW_OK ||
            sw__enum(R, m, mp.s, "creditNotation", credit_names, 2, &credit) != SW_OK ||
            sw__enum(R, m, mp.s, "modification", modification_names, 3, &modification) != SW_OK ||
            sw__get(R, m, mp.s, "authors", cJSON_Array, &authors) != SW_OK ||
            sw__get(R, m, mp.s, "references", cJSON_Array, &references) != SW_OK)
            return R->oom ? sw__oom(R) : SW_ERR_INVALID_DATA;
        for (int list = 0; list < 2; list++) {
            const cJSON* a = list == 0 ? authors : references;
            if (!a) continue;
            sw__path ap = sw__key(mp.s, list == 0 ? "authors" : "references");
            const char** items = sw__alloc(R, (size_t)cJSON_GetArraySize(a), sizeof *items);
            if (!items) return sw__oom(R);
            size_t n = 0;
            for (const cJSON* s = a->child; s; s = s->next, n++) {
                if (!cJSON_IsString(s) || !s->valuestring) return sw__fail(R, sw__item(ap.s, n).s, "expected a string");
                if (!(items[n] = sw__copy(R, s->valuestring))) return sw__oom(R);
            }
            if (list == 0) meta->authors = items, meta->author_count = n;
            else meta->references = items, meta->reference_count = n;
        }
        if ((thumb = sw__member(m, "thumbnailImage"))) {
            uint32_t image;
            if (sw__index(R, m, mp.s, "thumbnailImage", R->model->image_count, "images", &image) != SW_OK)
                return SW_ERR_INVALID_DATA;
            meta->thumbnail = (int32_t)image;
        }
        if (!meta->name) sw__warn(R, sw__key(mp.s, "name").s, "missing (VRM 1.0 requires it)");
        if (!meta->author_count) sw__warn(R, sw__key(mp.s, "authors").s, "missing or empty (VRM 1.0 requires one)");
        if (!meta->license_url) sw__warn(R, sw__key(mp.s, "licenseUrl").s, "missing (VRM 1.0 requires it)");
    }
    meta->avatar_permission = avatar_names[avatar];
    meta->commercial_usage = commercial_names[commercial];
    meta->credit_notation = credit_names[credit];
    meta->modification = modification_names[modification];
    return SW_OK;
}

/* Sets one humanoid bone (shared by both versions): a bone or node given twice is a warning. */
static void sw__set_bone(sw__reader* R, const char* path, sw_humanoid_bone bone, uint32_t node) {
    sw_humanoid_map* map = &R->o->vrm.humanoid;
    if (map->node[bone] >= 0) {
        sw__warn(R, path, "%s is given twice; the later one is ignored", sw_humanoid_bone_name(bone));
        return;
    }
    for (int b = 0; b < SW_HUMANOID_BONE_COUNT; b++)
        if (map->node[b] == (int32_t)node) {
            sw__warn(R, path, "node %u is %s already (humanoid bones are unique); ignored", sw__file_index(R, node),
                     sw_humanoid_bone_name((sw_humanoid_bone)b));
            return;
        }
    map->node[bone] = (int32_t)node;
}

static sw_result sw__humanoid1(sw__reader* R, const cJSON* root, const char* base) {
    const cJSON *h, *bones = NULL;
    sw__path hp = sw__key(base, "humanoid");
    if (sw__get(R, root, base, "humanoid", cJSON_Object, &h) != SW_OK ||
        (h && sw__get(R, h, hp.s, "humanBones", cJSON_Object, &bones) != SW_OK))
        return SW_ERR_INVALID_DATA;
    if (!bones) {
        sw__warn(R, h ? sw__key(hp.s, "humanBones").s : hp.s, "missing (VRM 1.0 requires it)");
        return SW_OK;
    }
    sw__path bp = sw__key(hp.s, "humanBones");
    for (const cJSON* b = bones->child; b; b = b->next) {
        const char* name = b->string ? b->string : "";
        sw__path p = sw__key(bp.s, name);
        if (!cJSON_IsObject(b)) return sw__fail(R, p.s, "expected an object");
        uint32_t node;
        if (sw__node(R, b, p.s, "node", &node) != SW_OK) return SW_ERR_INVALID_DATA;
        sw_humanoid_bone bone;
        if (!sw_humanoid_bone_from_name(name, &bone) || strstr(name, "ThumbIntermediate")) {
            sw__warn(R, p.s, "not a VRM 1.0 humanoid bone; ignored");
            continue;
        }
        sw__set_bone(R, p.s, bone, node);
    }
    return SW_OK;
}

static void sw__look_at_defaults(sw_vrm_look_at* l) {
    float out = l->type == SW_VRM_LOOK_AT_BONE ? 10.0f : 1.0f;
    sw_vrm_range_map d = {90.0f, out};
    l->horizontal_inner = l->horizontal_outer = l->vertical_down = l->vertical_up = d;
}

static sw_result sw__range_map(sw__reader* R, const cJSON* object, const char* path, const char* key,
                               const char* in_key, const char* out_key, sw_vrm_range_map* out) {
    const cJSON* m;
    if (sw__get(R, object, path, key, cJSON_Object, &m) != SW_OK) return SW_ERR_INVALID_DATA;
    if (!m) return SW_OK;
    sw__path mp = sw__key(path, key);
    if (sw__number(R, m, mp.s, in_key, false, &out->input_max_value) != SW_OK ||
        sw__number(R, m, mp.s, out_key, false, &out->output_scale) != SW_OK)
        return SW_ERR_INVALID_DATA;
    if (!(out->input_max_value >= 0.0f && out->input_max_value <= 180.0f)) {
        float c = out->input_max_value < 0.0f ? 0.0f : 180.0f;
        sw__warn(R, sw__key(mp.s, in_key).s, "%g is out of range [0, 180]; clamped to %g",
                 (double)out->input_max_value, (double)c);
        out->input_max_value = c;
    }
    return SW_OK;
}

static sw_result sw__look_at1(sw__reader* R, const cJSON* root, const char* base) {
    const cJSON* l;
    if (sw__get(R, root, base, "lookAt", cJSON_Object, &l) != SW_OK) return SW_ERR_INVALID_DATA;
    if (!l) return SW_OK;
    sw__path lp = sw__key(base, "lookAt");
    sw_vrm_look_at* look = &R->o->vrm.look_at;
    look->present = true;
    static const char* const types[] = {"bone", "expression"};
    int type = 0;
    if (sw__enum(R, l, lp.s, "type", types, 2, &type) != SW_OK) return SW_ERR_INVALID_DATA;
    look->type = (sw_vrm_look_at_type)type;
    sw__look_at_defaults(look);
    if (sw__floats(R, l, lp.s, "offsetFromHeadBone", 3, false, look->offset_from_head_bone) != SW_OK ||
        sw__range_map(R, l, lp.s, "rangeMapHorizontalInner", "inputMaxValue", "outputScale", &look->horizontal_inner) !=
            SW_OK ||
        sw__range_map(R, l, lp.s, "rangeMapHorizontalOuter", "inputMaxValue", "outputScale", &look->horizontal_outer) !=
            SW_OK ||
        sw__range_map(R, l, lp.s, "rangeMapVerticalDown", "inputMaxValue", "outputScale", &look->vertical_down) !=
            SW_OK ||
        sw__range_map(R, l, lp.s, "rangeMapVerticalUp", "inputMaxValue", "outputScale", &look->vertical_up) != SW_OK)
        return SW_ERR_INVALID_DATA;
    return SW_OK;
}

static const char* const sw__first_person_names[] = {"auto", "both", "thirdPersonOnly", "firstPersonOnly"};

static sw_result sw__first_person1(sw__reader* R, const cJSON* root, const char* base) {
    const cJSON *f, *a = NULL;
    sw__path fp = sw__key(base, "firstPerson");
    if (sw__get(R, root, base, "firstPerson", cJSON_Object, &f) != SW_OK ||
        (f && sw__get(R, f, fp.s, "meshAnnotations", cJSON_Array, &a) != SW_OK))
        return SW_ERR_INVALID_DATA;
    if (!a) return SW_OK;
    sw__path ap = sw__key(fp.s, "meshAnnotations");
    sw_vrm_mesh_annotation* out = sw__alloc(R, (size_t)cJSON_GetArraySize(a), sizeof *out);
    if (!out) return sw__oom(R);
    sw_vrm* v = &R->o->vrm;
    size_t i = 0;
    for (const cJSON* m = a->child; m; m = m->next, i++) {
        sw__path p = sw__item(ap.s, i);
        if (!cJSON_IsObject(m)) return sw__fail(R, p.s, "expected an object");
        sw_vrm_mesh_annotation* x = &out[v->mesh_annotation_count];
        int type = 0;
        if (!sw__member(m, "type")) return sw__fail(R, sw__key(p.s, "type").s, "missing");
        if (sw__node(R, m, p.s, "node", &x->node) != SW_OK ||
            sw__enum(R, m, p.s, "type", sw__first_person_names, 4, &type) != SW_OK)
            return SW_ERR_INVALID_DATA;
        if (R->model->nodes[x->node].mesh < 0)
            return sw__fail(R, sw__key(p.s, "node").s, "node %u has no mesh", sw__file_index(R, x->node));
        x->type = (sw_vrm_first_person)type;
        v->mesh_annotation_count++;
    }
    v->mesh_annotations = out;
    return SW_OK;
}

static sw_result sw__read1(sw__reader* R, const cJSON* root) {
    const char* base = "extensions.VRMC_vrm";
    sw_vrm* v = &R->o->vrm;
    v->version = SW_VRM_1;
    if (sw__string(R, root, base, "specVersion", &v->spec_version) != SW_OK) return R->oom ? sw__oom(R) : SW_ERR_INVALID_DATA;
    if (!v->spec_version) sw__warn(R, sw__key(base, "specVersion").s, "missing; read as 1.0");
    if (sw__meta1(R, root, base) != SW_OK || sw__humanoid1(R, root, base) != SW_OK ||
        sw__expressions1(R, root, base) != SW_OK || sw__look_at1(R, root, base) != SW_OK ||
        sw__first_person1(R, root, base) != SW_OK)
        return R->oom ? sw__oom(R) : R->diag ? R->diag->result : SW_ERR_INVALID_DATA;
    return SW_OK;
}

/* ---- VRM 0.x ------------------------------------------------------------------------------------------ */

/* An enum of 0.x meta: the canonical spelling, or NULL with a warning. */
static sw_result sw__meta0_enum(sw__reader* R, const cJSON* m, const char* path, const char* key,
                                const char* const* names, int count, const char** out) {
    const cJSON* v;
    if (sw__get(R, m, path, key, cJSON_String, &v) != SW_OK) return SW_ERR_INVALID_DATA;
    if (!v) return SW_OK;
    for (int i = 0; i < count; i++)
        if (strcmp(names[i], v->valuestring) == 0) {
            *out = names[i];
            return SW_OK;
        }
    sw__warn(R, sw__key(path, key).s, "unknown value; ignored");
    return SW_OK;
}

static sw_result sw__meta0(sw__reader* R, const cJSON* root, const char* base) {
    const cJSON* m;
    if (sw__get(R, root, base, "meta", cJSON_Object, &m) != SW_OK) return SW_ERR_INVALID_DATA;
    if (!m) return SW_OK;
    sw__path mp = sw__key(base, "meta");
    sw_vrm_meta* meta = &R->o->vrm.meta;
    static const char* const users[] = {"OnlyAuthor", "ExplicitlyLicensedPerson", "Everyone"};
    static const char* const allow[] = {"Disallow", "Allow"};
    static const char* const licenses[] = {"Redistribution_Prohibited", "CC0", "CC_BY", "CC_BY_NC", "CC_BY_SA",
                                           "CC_BY_NC_SA", "CC_BY_ND", "CC_BY_NC_ND", "Other"};
    const char *author = NULL, *reference = NULL;
    if (sw__string(R, m, mp.s, "title", &meta->name) != SW_OK ||
        sw__string(R, m, mp.s, "version", &meta->version) != SW_OK ||
        sw__string(R, m, mp.s, "author", &author) != SW_OK ||
        sw__string(R, m, mp.s, "contactInformation", &meta->contact) != SW_OK ||
        sw__string(R, m, mp.s, "reference", &reference) != SW_OK ||
        sw__string(R, m, mp.s, "otherPermissionUrl", &meta->other_permission_url) != SW_OK ||
        sw__string(R, m, mp.s, "otherLicenseUrl", &meta->other_license_url) != SW_OK ||
        sw__meta0_enum(R, m, mp.s, "allowedUserName", users, 3, &meta->allowed_user_name) != SW_OK ||
        sw__meta0_enum(R, m, mp.s, "violentUssageName", allow, 2, &meta->violent_usage) != SW_OK ||
        sw__meta0_enum(R, m, mp.s, "sexualUssageName", allow, 2, &meta->sexual_usage) != SW_OK ||
        sw__meta0_enum(R, m, mp.s, "commercialUssageName", allow, 2, &meta->commercial_usage_name) != SW_OK ||
        sw__meta0_enum(R, m, mp.s, "licenseName", licenses, 9, &meta->license_name) != SW_OK)
        return R->oom ? sw__oom(R) : SW_ERR_INVALID_DATA;
    for (int list = 0; list < 2; list++) {
        const char* one = list == 0 ? author : reference;
        if (!one) continue;
        const char** items = sw__alloc(R, 1, sizeof *items);
        if (!items) return sw__oom(R);
        items[0] = one;
        if (list == 0) meta->authors = items, meta->author_count = 1;
        else meta->references = items, meta->reference_count = 1;
    }
    const cJSON* tex = sw__member(m, "texture");
    /* UniVRM writes -1 for "no thumbnail" */
    if (tex && !(cJSON_IsNumber(tex) && tex->valuedouble == -1.0)) {
        uint32_t t;
        if (sw__index(R, m, mp.s, "texture", R->model->texture_count, "textures", &t) != SW_OK)
            return SW_ERR_INVALID_DATA;
        meta->thumbnail = (int32_t)t;
    }
    return SW_OK;
}

static sw_result sw__humanoid0(sw__reader* R, const cJSON* root, const char* base) {
    const cJSON *h, *bones = NULL;
    sw__path hp = sw__key(base, "humanoid");
    if (sw__get(R, root, base, "humanoid", cJSON_Object, &h) != SW_OK ||
        (h && sw__get(R, h, hp.s, "humanBones", cJSON_Array, &bones) != SW_OK))
        return SW_ERR_INVALID_DATA;
    if (!bones) {
        sw__warn(R, h ? sw__key(hp.s, "humanBones").s : hp.s, "missing");
        return SW_OK;
    }
    sw__path bp = sw__key(hp.s, "humanBones");
    size_t i = 0;
    for (const cJSON* b = bones->child; b; b = b->next, i++) {
        sw__path p = sw__item(bp.s, i);
        if (!cJSON_IsObject(b)) return sw__fail(R, p.s, "expected an object");
        const cJSON* name;
        uint32_t node;
        if (sw__get(R, b, p.s, "bone", cJSON_String, &name) != SW_OK) return SW_ERR_INVALID_DATA;
        if (!name) return sw__fail(R, sw__key(p.s, "bone").s, "missing");
        if (sw__node(R, b, p.s, "node", &node) != SW_OK) return SW_ERR_INVALID_DATA;
        sw_humanoid_bone bone;
        if (!sw_humanoid_bone_from_vrm0_name(name->valuestring, &bone)) {
            sw__warn(R, sw__key(p.s, "bone").s, "not a VRM 0.x humanoid bone; ignored");
            continue;
        }
        sw__set_bone(R, p.s, bone, node);
    }
    return SW_OK;
}

/* The nodes (model order) that draw each mesh, built once: mesh m's are
   mesh_nodes[mesh_first[m] .. mesh_first[m + 1]). */
static bool sw__index_meshes(sw__reader* R) {
    const sw_model* m = R->model;
    if (R->mesh_first) return true;
    R->mesh_first = sw__alloc(R, m->mesh_count + 1, sizeof *R->mesh_first);
    R->mesh_nodes = sw__alloc(R, m->node_count, sizeof *R->mesh_nodes);
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

static sw_result sw__group0(sw__reader* R, const cJSON* g, const char* path) {
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
    if (!cJSON_IsObject(g)) return sw__fail(R, path, "expected an object");
    const cJSON *name, *preset_name, *binds, *values;
    if (sw__get(R, g, path, "name", cJSON_String, &name) != SW_OK ||
        sw__get(R, g, path, "presetName", cJSON_String, &preset_name) != SW_OK ||
        sw__get(R, g, path, "binds", cJSON_Array, &binds) != SW_OK ||
        sw__get(R, g, path, "materialValues", cJSON_Array, &values) != SW_OK)
        return SW_ERR_INVALID_DATA;
    sw_vrm_preset p = SW_VRM_PRESET_CUSTOM;
    if (preset_name) {
        bool known = strcmp(preset_name->valuestring, "unknown") == 0;
        for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++)
            if (strcmp(presets[i].v0, preset_name->valuestring) == 0) p = presets[i].preset, known = true;
        if (!known) sw__warn(R, sw__key(path, "presetName").s, "unknown preset; read as a custom expression");
    }
    const char* label = p != SW_VRM_PRESET_CUSTOM ? sw__preset_names[p] : name ? name->valuestring : NULL;
    if (!label || !*label) {
        sw__warn(R, path, "a custom expression without a name; ignored");
        return SW_OK;
    }
    if (p == SW_VRM_PRESET_CUSTOM && sw__preset_of(label) != SW_VRM_PRESET_CUSTOM) {
        sw__warn(R, path, "a custom expression cannot take a preset's name; ignored");
        return SW_OK;
    }
    sw_vrm_expression* e = sw__new_expression(R, path, label, p);
    if (R->oom) return sw__oom(R);
    if (!e) return SW_OK;
    if (sw__bool(R, g, path, "isBinary", &e->is_binary) != SW_OK) return SW_ERR_INVALID_DATA;
    if (binds) {
        sw__path bp = sw__key(path, "binds");
        /* one bind per node drawing the mesh: count first */
        size_t total = 0, i = 0;
        const uint32_t* nodes;
        if (!sw__index_meshes(R)) return sw__oom(R);
        for (const cJSON* b = binds->child; b; b = b->next, i++) {
            sw__path p1 = sw__item(bp.s, i);
            if (!cJSON_IsObject(b)) return sw__fail(R, p1.s, "expected an object");
            uint32_t mesh;
            if (sw__index(R, b, p1.s, "mesh", R->model->mesh_count, "meshes", &mesh) != SW_OK) return SW_ERR_INVALID_DATA;
            if ((total += sw__nodes_of_mesh(R, mesh, &nodes)) > SW__MAX_EXPANDED)
                return sw__fail(R, bp.s, "more than %zu binds once repeated for each node drawing its mesh",
                                SW__MAX_EXPANDED);
        }
        sw_vrm_morph_bind* out = sw__alloc(R, total, sizeof *out);
        if (!out) return sw__oom(R);
        i = 0;
        for (const cJSON* b = binds->child; b; b = b->next, i++) {
            sw__path p1 = sw__item(bp.s, i);
            uint32_t mesh, index;
            float weight = 0.0f;
            if (sw__index(R, b, p1.s, "mesh", R->model->mesh_count, "meshes", &mesh) != SW_OK ||
                sw__index(R, b, p1.s, "index", UINT32_MAX, "morph targets", &index) != SW_OK ||
                sw__number(R, b, p1.s, "weight", true, &weight) != SW_OK)
                return SW_ERR_INVALID_DATA;
            if (index >= R->model->meshes[mesh].weight_count)
                return sw__fail(R, sw__key(p1.s, "index").s, "morph target %u is out of range (mesh %u has %zu)", index,
                                mesh, R->model->meshes[mesh].weight_count);
            if (!(weight >= 0.0f && weight <= 100.0f)) {
                float c = weight < 0.0f ? 0.0f : 100.0f;
                sw__warn(R, sw__key(p1.s, "weight").s, "%g is out of range [0, 100]; clamped to %g", (double)weight,
                         (double)c);
                weight = c;
            }
            size_t n = sw__nodes_of_mesh(R, mesh, &nodes);
            if (n == 0) sw__warn(R, sw__key(p1.s, "mesh").s, "mesh %u is drawn by no node; ignored", mesh);
            for (size_t k = 0; k < n; k++)
                out[e->morph_bind_count++] = (sw_vrm_morph_bind){.node = nodes[k], .index = index, .weight = weight / 100.0f};
        }
        e->morph_binds = out;
    }
    if (values) {
        sw__path vp = sw__key(path, "materialValues");
        size_t n = (size_t)cJSON_GetArraySize(values);
        sw_vrm_color_bind* colors = sw__alloc(R, n, sizeof *colors);
        sw_vrm_texture_bind* textures = sw__alloc(R, n, sizeof *textures);
        if (!colors || !textures) return sw__oom(R);
        size_t i = 0;
        for (const cJSON* x = values->child; x; x = x->next, i++) {
            sw__path p1 = sw__item(vp.s, i);
            if (!cJSON_IsObject(x)) return sw__fail(R, p1.s, "expected an object");
            const cJSON *material, *property, *target;
            if (sw__get(R, x, p1.s, "materialName", cJSON_String, &material) != SW_OK ||
                sw__get(R, x, p1.s, "propertyName", cJSON_String, &property) != SW_OK ||
                sw__get(R, x, p1.s, "targetValue", cJSON_Array, &target) != SW_OK)
                return SW_ERR_INVALID_DATA;
            if (!material) return sw__fail(R, sw__key(p1.s, "materialName").s, "missing");
            if (!property) return sw__fail(R, sw__key(p1.s, "propertyName").s, "missing");
            if (!target) return sw__fail(R, sw__key(p1.s, "targetValue").s, "missing");
            int32_t mat = -1;
            for (size_t k = 0; k < R->model->material_count && mat < 0; k++)
                if (R->model->materials[k].name && strcmp(R->model->materials[k].name, material->valuestring) == 0)
                    mat = (int32_t)k;
            int type = sw__property0(property->valuestring);
            if (mat < 0) {
                sw__warn(R, sw__key(p1.s, "materialName").s, "names no material; ignored");
                continue;
            }
            if (type == -1) {
                sw__warn(R, sw__key(p1.s, "propertyName").s, "not a colour or _MainTex_ST; ignored");
                continue;
            }
            /* Unity writes 4 numbers; fewer are padded with the alpha/1 of a colour */
            float v[4] = {0.0f, 0.0f, 0.0f, 1.0f};
            int count = cJSON_GetArraySize(target), k = 0;
            if (count < (type == -2 ? 4 : 3) || count > 4)
                return sw__fail(R, sw__key(p1.s, "targetValue").s, "expected %s numbers", type == -2 ? "4" : "3 or 4");
            for (const cJSON* c = target->child; c; c = c->next, k++)
                if (sw__number_value(R, c, sw__item(sw__key(p1.s, "targetValue").s, (size_t)k).s, &v[k]) != SW_OK)
                    return SW_ERR_INVALID_DATA;
            if (type == -2) {
                /* Unity's (scale, offset) with V up from the bottom; glTF's V runs down. */
                sw_vrm_texture_bind* t = &textures[e->texture_bind_count++];
                *t = (sw_vrm_texture_bind){.material = (uint32_t)mat,
                                           .scale = {v[0], v[1]},
                                           .offset = {v[2], 1.0f - v[1] - v[3]}};
            } else {
                sw_vrm_color_bind* c = &colors[e->color_bind_count++];
                *c = (sw_vrm_color_bind){.material = (uint32_t)mat, .type = (sw_vrm_color_type)type};
                memcpy(c->target, v, sizeof v);
            }
        }
        e->color_binds = colors;
        e->texture_binds = textures;
    }
    return SW_OK;
}

static sw_result sw__expressions0(sw__reader* R, const cJSON* root, const char* base) {
    const cJSON *master, *groups = NULL;
    sw__path mp = sw__key(base, "blendShapeMaster");
    if (sw__get(R, root, base, "blendShapeMaster", cJSON_Object, &master) != SW_OK ||
        (master && sw__get(R, master, mp.s, "blendShapeGroups", cJSON_Array, &groups) != SW_OK))
        return SW_ERR_INVALID_DATA;
    if (!groups) return SW_OK;
    R->expression_cap = (size_t)cJSON_GetArraySize(groups);
    if (!(R->expressions = sw__alloc(R, R->expression_cap, sizeof *R->expressions))) return sw__oom(R);
    sw__path gp = sw__key(mp.s, "blendShapeGroups");
    size_t i = 0;
    for (const cJSON* g = groups->child; g; g = g->next, i++)
        if (sw__group0(R, g, sw__item(gp.s, i).s) != SW_OK) return R->oom ? sw__oom(R) : SW_ERR_INVALID_DATA;
    return SW_OK;
}

static sw_result sw__first_person0(sw__reader* R, const cJSON* root, const char* base) {
    const cJSON *f, *a = NULL;
    sw__path fp = sw__key(base, "firstPerson");
    if (sw__get(R, root, base, "firstPerson", cJSON_Object, &f) != SW_OK ||
        (f && sw__get(R, f, fp.s, "meshAnnotations", cJSON_Array, &a) != SW_OK))
        return SW_ERR_INVALID_DATA;
    if (!f) return SW_OK;
    sw_vrm* v = &R->o->vrm;
    const cJSON* bone = sw__member(f, "firstPersonBone");
    if (bone && !(cJSON_IsNumber(bone) && bone->valuedouble == -1.0)) {
        uint32_t node;
        if (sw__node(R, f, fp.s, "firstPersonBone", &node) != SW_OK) return SW_ERR_INVALID_DATA;
        v->first_person_bone = (int32_t)node;
    }
    sw_vrm_look_at* look = &v->look_at;
    static const char* const types[] = {"Bone", "BlendShape"};
    int type = 0;
    if (sw__enum(R, f, fp.s, "lookAtTypeName", types, 2, &type) != SW_OK) return SW_ERR_INVALID_DATA;
    look->type = (sw_vrm_look_at_type)type;
    sw__look_at_defaults(look);
    const char* maps[4] = {"lookAtHorizontalInner", "lookAtHorizontalOuter", "lookAtVerticalDown", "lookAtVerticalUp"};
    sw_vrm_range_map* outs[4] = {&look->horizontal_inner, &look->horizontal_outer, &look->vertical_down,
                                 &look->vertical_up};
    look->present = sw__member(f, "lookAtTypeName") != NULL;
    for (int k = 0; k < 4; k++) {
        look->present |= sw__member(f, maps[k]) != NULL;
        if (sw__range_map(R, f, fp.s, maps[k], "xRange", "yRange", outs[k]) != SW_OK) return SW_ERR_INVALID_DATA;
    }
    sw_vec3 offset = {0.0f, 0.06f, 0.0f};
    const cJSON* o = sw__member(f, "firstPersonBoneOffset");
    if (o) {
        sw__path op = sw__key(fp.s, "firstPersonBoneOffset");
        if (!cJSON_IsObject(o)) return sw__fail(R, op.s, "expected an object {x, y, z}");
        offset = (sw_vec3){0.0f, 0.0f, 0.0f};
        if (sw__number(R, o, op.s, "x", false, &offset.x) != SW_OK ||
            sw__number(R, o, op.s, "y", false, &offset.y) != SW_OK ||
            sw__number(R, o, op.s, "z", false, &offset.z) != SW_OK)
            return SW_ERR_INVALID_DATA;
        offset.z = -offset.z; /* Unity's left-handed vector, as 0.x collider offsets */
    }
    look->offset_from_head_bone[0] = offset.x;
    look->offset_from_head_bone[1] = offset.y;
    look->offset_from_head_bone[2] = offset.z;
    if (!a) return SW_OK;
    sw__path ap = sw__key(fp.s, "meshAnnotations");
    /* one annotation per node drawing the mesh: at most one per node per entry */
    size_t total = 0, i = 0;
    const uint32_t* nodes;
    if (!sw__index_meshes(R)) return sw__oom(R);
    for (const cJSON* m = a->child; m; m = m->next, i++) {
        sw__path p = sw__item(ap.s, i);
        uint32_t mesh;
        if (!cJSON_IsObject(m)) return sw__fail(R, p.s, "expected an object");
        if (sw__index(R, m, p.s, "mesh", R->model->mesh_count, "meshes", &mesh) != SW_OK) return SW_ERR_INVALID_DATA;
        if ((total += sw__nodes_of_mesh(R, mesh, &nodes)) > SW__MAX_EXPANDED)
            return sw__fail(R, ap.s, "more than %zu annotations once repeated for each node drawing its mesh",
                            SW__MAX_EXPANDED);
    }
    sw_vrm_mesh_annotation* out = sw__alloc(R, total, sizeof *out);
    if (!out) return sw__oom(R);
    static const char* const flags[] = {"Auto", "Both", "ThirdPersonOnly", "FirstPersonOnly"};
    i = 0;
    for (const cJSON* m = a->child; m; m = m->next, i++) {
        sw__path p = sw__item(ap.s, i);
        uint32_t mesh;
        int flag = 0;
        if (sw__index(R, m, p.s, "mesh", R->model->mesh_count, "meshes", &mesh) != SW_OK ||
            sw__enum(R, m, p.s, "firstPersonFlag", flags, 4, &flag) != SW_OK)
            return SW_ERR_INVALID_DATA;
        size_t n = sw__nodes_of_mesh(R, mesh, &nodes);
        for (size_t k = 0; k < n; k++)
            out[v->mesh_annotation_count++] = (sw_vrm_mesh_annotation){nodes[k], (sw_vrm_first_person)flag};
    }
    v->mesh_annotations = out;
    return SW_OK;
}

static sw_result sw__read0(sw__reader* R, const cJSON* root) {
    const char* base = "extensions.VRM";
    sw_vrm* v = &R->o->vrm;
    v->version = SW_VRM_0;
    if (sw__string(R, root, base, "specVersion", &v->spec_version) != SW_OK ||
        sw__meta0(R, root, base) != SW_OK || sw__humanoid0(R, root, base) != SW_OK ||
        sw__expressions0(R, root, base) != SW_OK || sw__first_person0(R, root, base) != SW_OK)
        return R->oom ? sw__oom(R) : R->diag ? R->diag->result : SW_ERR_INVALID_DATA;
    return SW_OK;
}

/* ---- after reading: humanoid checks, slots ------------------------------------------------------------- */

static bool sw__is_below(const sw_model* m, int32_t node, int32_t ancestor) {
    for (int32_t p = m->nodes[node].parent; p >= 0; p = m->nodes[p].parent)
        if (p == ancestor) return true;
    return false;
}

static void sw__check_humanoid(sw__reader* R, const char* base) {
    sw_vrm* v = &R->o->vrm;
    sw__path hp = sw__key(base, "humanoid");
    for (int b = 0; b < SW_HUMANOID_BONE_COUNT; b++) {
        sw_humanoid_bone bone = (sw_humanoid_bone)b;
        int32_t node = v->humanoid.node[b];
        if (node < 0) {
            if (sw_humanoid_bone_required(bone))
                sw__warn(R, hp.s, "the required bone %s is missing", sw_humanoid_bone_name(bone));
            continue;
        }
        sw_humanoid_bone up = sw_humanoid_mapped_parent(&v->humanoid, bone);
        if (up != SW_HUMANOID_NONE && !sw__is_below(R->model, node, v->humanoid.node[up]))
            sw__warn(R, hp.s, "%s (node %u) is not below %s (node %u)", sw_humanoid_bone_name(bone),
                     sw__file_index(R, (uint32_t)node), sw_humanoid_bone_name(up),
                     sw__file_index(R, (uint32_t)v->humanoid.node[up]));
        /* upperChest needs chest; a finger's second and third joints need the one before */
        sw_humanoid_bone parent = sw_humanoid_parent_bone(bone);
        bool needs = bone == SW_HUMANOID_UPPER_CHEST ||
                     (bone >= SW_HUMANOID_LEFT_THUMB_METACARPAL && parent != SW_HUMANOID_LEFT_HAND &&
                      parent != SW_HUMANOID_RIGHT_HAND);
        if (needs && v->humanoid.node[parent] < 0)
            sw__warn(R, hp.s, "%s is given without %s", sw_humanoid_bone_name(bone), sw_humanoid_bone_name(parent));
    }
    sw_humanoid_map_coverage(&v->humanoid, &v->humanoid_mapped, &v->humanoid_required_missing);
}

/* Gives every bind its slot: (node, target) through the model's morph weight
   offsets, (material, type) and material through direct tables. */
static sw_result sw__make_slots(sw__reader* R) {
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
    uint32_t* morph_table = sw__alloc(R, m->weight_count ? m->weight_count : 1, sizeof *morph_table);
    uint32_t* color_table = sw__alloc(R, materials * SW_VRM_COLOR_TYPE_COUNT, sizeof *color_table);
    uint32_t* texture_table = sw__alloc(R, materials, sizeof *texture_table);
    sw_vrm_morph_slot* morph_slots = sw__alloc(R, morphs, sizeof *morph_slots);
    sw_vrm_color_slot* color_slots = sw__alloc(R, colors, sizeof *color_slots);
    uint32_t* texture_slots = sw__alloc(R, textures, sizeof *texture_slots);
    if (!morph_table || !color_table || !texture_table || !morph_slots || !color_slots || !texture_slots)
        return sw__oom(R);
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
    for (size_t i = 0; i < o->block_count; i++) sw__free(o->blocks[i]);
    sw__free(o->blocks);
    for (size_t i = 0; i < o->vrm.warning_count; i++) sw__free(o->warnings[i]);
    sw__free(o->warnings);
    sw__free(o);
}

sw_result sw_vrm_read(const sw_model* model, sw_vrm** out, sw_diag* diag) {
    if (out) *out = NULL;
    if (!model || !out) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "VRM read: a model and an output are needed");
    const sw_model_extension* v1 = sw_model_find_extension(model, "VRMC_vrm", SW_MODEL_OBJECT_MODEL, 0);
    const sw_model_extension* v0 = sw_model_find_extension(model, "VRM", SW_MODEL_OBJECT_MODEL, 0);
    sw_diag_set(diag, SW_OK, -1, "%s", "");
    if (!v1 && !v0) return SW_OK;
    sw__reader R = {.model = model, .file = model->path ? model->path : "model", .diag = diag};
    sw_diag local;
    if (!R.diag) R.diag = &local; /* the reader passes results through diag */
    R.o = sw__calloc(1, sizeof *R.o);
    if (!R.o) return sw__oom(&R);
    sw_vrm* v = &R.o->vrm;
    sw_humanoid_map_clear(&v->humanoid);
    for (int p = 0; p < SW_VRM_PRESET_COUNT; p++) v->preset[p] = -1;
    v->meta.thumbnail = -1;
    v->first_person_bone = -1;
    v->look_at.offset_from_head_bone[1] = 0.06f;
    sw__look_at_defaults(&v->look_at);
    const char* base = v1 ? "extensions.VRMC_vrm" : "extensions.VRM";
    const char* text = v1 ? v1->json : v0->json;
    bool out_of_memory = false;
    cJSON* json = sw__cjson_parse(text, strlen(text) + 1, NULL, false, &out_of_memory);
    sw_result r = SW_OK;
    if (out_of_memory) r = sw__oom(&R);
    else if (!json) r = sw__fail(&R, base, "not valid JSON");
    else if (!cJSON_IsObject(json)) r = sw__fail(&R, base, "expected an object");
    else {
        if (v1 && v0) sw__warn(&R, "extensions.VRM", "ignored: VRMC_vrm is used");
        r = v1 ? sw__read1(&R, json) : sw__read0(&R, json);
        if (r == SW_OK) {
            sw__check_humanoid(&R, base);
            r = sw__make_slots(&R);
        }
        if (r == SW_OK && R.oom) r = sw__oom(&R);
    }
    cJSON_Delete(json);
    if (r != SW_OK) {
        sw_vrm_free(v);
        return r;
    }
    *out = v;
    return SW_OK;
}

int32_t sw_vrm_find_expression(const sw_vrm* vrm, const char* name) {
    if (!vrm || !name) return -1;
    for (size_t i = 0; i < vrm->expression_count; i++)
        if (strcmp(vrm->expressions[i].name, name) == 0) return (int32_t)i;
    return -1;
}

void sw_vrm_expression_weights(const sw_vrm* vrm, const float* weights, sw_vrm_expression_result* out) {
    SW_ASSERT(vrm && out && out->expression_weights);
    SW_ASSERT(weights || vrm->expression_count == 0);
    size_t n = vrm->expression_count;
    float* w = out->expression_weights;
    for (size_t i = 0; i < n; i++) {
        float x = weights[i];
        x = x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f; /* NaN → 0 */
        if (vrm->expressions[i].is_binary) x = x > 0.5f ? 1.0f : 0.0f;
        w[i] = x;
    }
    /* every kind's factor from the weights before any override */
    float factor[3];
    for (int kind = 0; kind < 3; kind++) {
        bool blocked = false;
        float blend = 0.0f;
        for (size_t i = 0; i < n; i++) {
            const sw_vrm_expression* e = &vrm->expressions[i];
            if (w[i] <= 0.0f || sw__kind(e->preset) == kind) continue;
            sw_vrm_override o = sw__override_of(e, kind);
            if (o == SW_VRM_OVERRIDE_BLOCK) blocked = true;
            if (o == SW_VRM_OVERRIDE_BLEND) blend += w[i];
        }
        factor[kind] = blocked ? 0.0f : 1.0f - (blend < 1.0f ? blend : 1.0f);
    }
    for (size_t i = 0; i < n; i++) {
        int kind = sw__kind(vrm->expressions[i].preset);
        if (kind < 0) continue;
        w[i] *= factor[kind];
        if (vrm->expressions[i].is_binary && factor[kind] < 1.0f) w[i] = 0.0f;
    }
    if (out->morph_weights)
        for (size_t s = 0; s < vrm->morph_slot_count; s++) out->morph_weights[s] = 0.0f;
    if (out->colors)
        for (size_t s = 0; s < vrm->color_slot_count; s++) out->colors[s] = (sw_vrm_color_value){0};
    if (out->textures)
        for (size_t s = 0; s < vrm->texture_slot_count; s++)
            out->textures[s] = (sw_vrm_texture_value){.scale = {1.0f, 1.0f}};
    for (size_t i = 0; i < n; i++) {
        const sw_vrm_expression* e = &vrm->expressions[i];
        float x = w[i];
        if (x <= 0.0f) continue;
        if (out->morph_weights)
            for (size_t k = 0; k < e->morph_bind_count; k++)
                out->morph_weights[e->morph_binds[k].slot] += e->morph_binds[k].weight * x;
        if (out->colors)
            for (size_t k = 0; k < e->color_bind_count; k++) {
                sw_vrm_color_value* c = &out->colors[e->color_binds[k].slot];
                c->weight += x;
                for (int j = 0; j < 4; j++) c->sum[j] += x * e->color_binds[k].target[j];
            }
        if (out->textures)
            for (size_t k = 0; k < e->texture_bind_count; k++) {
                const sw_vrm_texture_bind* b = &e->texture_binds[k];
                sw_vrm_texture_value* t = &out->textures[b->slot];
                for (int j = 0; j < 2; j++) {
                    t->scale[j] += (b->scale[j] - 1.0f) * x;
                    t->offset[j] += b->offset[j] * x;
                }
            }
    }
}

void sw_vrm_color_apply(const sw_vrm_color_value* value, const float base[4], float out[4]) {
    for (int j = 0; j < 4; j++) out[j] = base[j] * (1.0f - value->weight) + value->sum[j];
}
