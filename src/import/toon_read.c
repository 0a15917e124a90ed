/* The toon material readers (sinew/toon.h): SW_materials_toon (ours,
   docs/SW_materials_toon.schema.json), VRMC_materials_mtoon (VRM 1.0) and
   the VRM 0.x root extension's materialProperties, from the model's
   extension records (compact JSON, parsed again here with cJSON).
   docs/toon.md has the MToon → sinew mapping and why each conversion is
   what it is.

   A broken block (wrong JSON type, index out of range, a number that is not
   a finite float) fails the whole read with SW_ERR_INVALID_DATA naming the
   file, the material and the field; a value outside its range is clamped
   and counted as a warning: the first one's text is left in diag with
   result SW_OK. */
#include "sinew/toon.h"

#include "../base/base_internal.h"
#include "../base/cjson_alloc_internal.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define SW__PATH_SIZE 160
#define SW__MAX_TEXCOORD 63 /* the glTF loader's limit on TEXCOORD_n */
#define SW__PI 3.14159265358979f

/* World outline widths (metres) become pixels at 1080 lines as seen from
   this distance with this vertical field of view (the renderer's default
   camera); beyond it the width stays constant in world units. */
#define SW__OUTLINE_REF_DISTANCE 1.0f
#define SW__OUTLINE_REF_FOV (35.0f * SW__PI / 180.0f)
#define SW__OUTLINE_LINES 1080.0f
/* Screen-space outlines never stop growing in world units. */
#define SW__OUTLINE_NO_MAX 1.0e6f

typedef struct sw__reader {
    const sw_model* model;
    const char* file;
    sw_diag* diag;
    uint32_t material;
    const char* ext;        /* the extension being read, for messages */
    size_t warnings;
    char first_warning[256];
} sw__reader;

/* ---- messages ------------------------------------------------------------------------------------ */


/* "file: materials[i] "name": EXT.field" into where. */
static void sw__where(const sw__reader* R, const char* field, char* out, size_t size) {
    const char* name = R->model->materials[R->material].name;
    if (name)
        snprintf(out, size, "%s: materials[%u] \"%.48s\": %s%s%s", R->file, R->material, name, R->ext,
                 field[0] ? "." : "", field);
    else
        snprintf(out, size, "%s: materials[%u]: %s%s%s", R->file, R->material, R->ext, field[0] ? "." : "", field);
}

static sw_result sw__fail(sw__reader* R, const char* field, const char* format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static sw_result sw__fail(sw__reader* R, const char* field, const char* format, ...) {
    char where[200];
    sw__where(R, field, where, sizeof where);
    va_list args;
    va_start(args, format);
    sw_result r =
        sw__diag_vset_at(R->diag, SW_ERR_INVALID_DATA, (int64_t)R->material, where, NULL, 128, format, args);
    va_end(args);
    return r;
}

static void sw__warn(sw__reader* R, const char* field, const char* format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static void sw__warn(sw__reader* R, const char* field, const char* format, ...) {
    if (R->warnings++ > 0) return;
    char text[96], where[152];
    va_list args;
    va_start(args, format);
    vsnprintf(text, sizeof text, format, args);
    va_end(args);
    sw__where(R, field, where, sizeof where);
    sw__line_at(R->first_warning, sizeof R->first_warning, where, NULL, text);
}

static void sw__path_key(char* out, const char* path, const char* key) {
    int n = snprintf(out, SW__PATH_SIZE, "%s%s%s", path, path[0] ? "." : "", key);
    if (n < 0 || n >= SW__PATH_SIZE) memcpy(out + SW__PATH_SIZE - 4, "...", 4);
}
static void sw__path_item(char* out, const char* path, int i) {
    int n = snprintf(out, SW__PATH_SIZE, "%s[%d]", path, i);
    if (n < 0 || n >= SW__PATH_SIZE) memcpy(out + SW__PATH_SIZE - 4, "...", 4);
}

/* ---- JSON values ------------------------------------------------------------------------------------ */

static const cJSON* sw__member(const cJSON* object, const char* key) {
    return cJSON_GetObjectItemCaseSensitive(object, key);
}

static sw_result sw__number_value(sw__reader* R, const cJSON* v, const char* where, float* out) {
    if (!cJSON_IsNumber(v)) return sw__fail(R, where, "expected a number");
    double d = v->valuedouble;
    if (!isfinite(d) || fabs(d) > 3.0e38) return sw__fail(R, where, "not a finite float");
    *out = (float)d;
    return SW_OK;
}

/* Clamps *v into [lo, hi] with a warning. */
static void sw__clamp(sw__reader* R, const char* where, float* v, float lo, float hi) {
    if (*v >= lo && *v <= hi) return;
    float c = *v < lo ? lo : hi;
    sw__warn(R, where, "%g is out of range [%g, %g]; clamped to %g", (double)*v, (double)lo, (double)hi, (double)c);
    *v = c;
}

/* An optional number in [lo, hi] (absent: *out keeps its value). */
static sw_result sw__number(sw__reader* R, const cJSON* object, const char* path, const char* key, float lo,
                            float hi, float* out) {
    const cJSON* v = sw__member(object, key);
    if (!v) return SW_OK;
    char where[SW__PATH_SIZE];
    sw__path_key(where, path, key);
    sw_result r = sw__number_value(R, v, where, out);
    if (r == SW_OK) sw__clamp(R, where, out, lo, hi);
    return r;
}

static sw_result sw__boolean(sw__reader* R, const cJSON* object, const char* path, const char* key, bool* out) {
    const cJSON* v = sw__member(object, key);
    if (!v) return SW_OK;
    char where[SW__PATH_SIZE];
    sw__path_key(where, path, key);
    if (!cJSON_IsBool(v)) return sw__fail(R, where, "expected true or false");
    *out = cJSON_IsTrue(v);
    return SW_OK;
}

static sw_result sw__integer_value(sw__reader* R, const cJSON* v, const char* where, int64_t* out) {
    if (!cJSON_IsNumber(v)) return sw__fail(R, where, "expected an integer");
    double d = v->valuedouble;
    if (!isfinite(d) || d != floor(d) || fabs(d) > 9.0e15) return sw__fail(R, where, "expected an integer");
    *out = (int64_t)d;
    return SW_OK;
}

/* An optional array of n numbers, each in [lo, hi]. */
static sw_result sw__numbers(sw__reader* R, const cJSON* object, const char* path, const char* key, int n, float lo,
                             float hi, float* out) {
    const cJSON* v = sw__member(object, key);
    if (!v) return SW_OK;
    char where[SW__PATH_SIZE], item[SW__PATH_SIZE];
    sw__path_key(where, path, key);
    if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) != n) return sw__fail(R, where, "expected an array of %d numbers", n);
    float f[4];
    for (int i = 0; i < n; i++) {
        sw__path_item(item, where, i);
        sw_result r = sw__number_value(R, cJSON_GetArrayItem(v, i), item, &f[i]);
        if (r != SW_OK) return r;
        sw__clamp(R, item, &f[i], lo, hi);
    }
    memcpy(out, f, (size_t)n * sizeof *f);
    return SW_OK;
}

/* A glTF textureInfo {"index", "texCoord", "scale"?, "extensions":
   {"KHR_texture_transform"}}; the index must name one of the model's
   textures. */
static sw_result sw__texture(sw__reader* R, const cJSON* object, const char* path, const char* key,
                             sw_model_texture_ref* out) {
    const cJSON* info = sw__member(object, key);
    if (!info) return SW_OK;
    char where[SW__PATH_SIZE], sub[SW__PATH_SIZE];
    sw__path_key(where, path, key);
    if (!cJSON_IsObject(info)) return sw__fail(R, where, "expected a textureInfo object");
    sw_model_texture_ref t;
    memset(&t, 0, sizeof t);
    t.scale = 1.0f;
    t.uv_scale[0] = t.uv_scale[1] = 1.0f;
    int64_t index = 0, texcoord = 0;
    const cJSON* v = sw__member(info, "index");
    sw__path_key(sub, where, "index");
    if (!v) return sw__fail(R, sub, "missing");
    sw_result r = sw__integer_value(R, v, sub, &index);
    if (r != SW_OK) return r;
    if (index < 0 || (uint64_t)index >= R->model->texture_count)
        return sw__fail(R, sub, "texture %lld out of range (%zu textures)", (long long)index, R->model->texture_count);
    if ((v = sw__member(info, "texCoord")) != NULL) {
        sw__path_key(sub, where, "texCoord");
        if ((r = sw__integer_value(R, v, sub, &texcoord)) != SW_OK) return r;
        if (texcoord < 0 || texcoord > SW__MAX_TEXCOORD)
            return sw__fail(R, sub, "%lld is not a TEXCOORD set (0..%d)", (long long)texcoord, SW__MAX_TEXCOORD);
    }
    if ((r = sw__number(R, info, where, "scale", -INFINITY, INFINITY, &t.scale)) != SW_OK) return r;
    const cJSON* ext = sw__member(info, "extensions");
    if (ext) {
        sw__path_key(sub, where, "extensions");
        if (!cJSON_IsObject(ext)) return sw__fail(R, sub, "expected an object");
        const cJSON* tt = sw__member(ext, "KHR_texture_transform");
        if (tt) {
            char tp[SW__PATH_SIZE];
            sw__path_key(tp, sub, "KHR_texture_transform");
            if (!cJSON_IsObject(tt)) return sw__fail(R, tp, "expected an object");
            t.has_transform = true;
            if ((r = sw__numbers(R, tt, tp, "offset", 2, -INFINITY, INFINITY, t.offset)) != SW_OK ||
                (r = sw__number(R, tt, tp, "rotation", -INFINITY, INFINITY, &t.rotation)) != SW_OK ||
                (r = sw__numbers(R, tt, tp, "scale", 2, -INFINITY, INFINITY, t.uv_scale)) != SW_OK)
                return r;
            if ((v = sw__member(tt, "texCoord")) != NULL) {
                char tc[SW__PATH_SIZE];
                sw__path_key(tc, tp, "texCoord");
                if ((r = sw__integer_value(R, v, tc, &texcoord)) != SW_OK) return r;
                if (texcoord < 0 || texcoord > SW__MAX_TEXCOORD)
                    return sw__fail(R, tc, "%lld is not a TEXCOORD set (0..%d)", (long long)texcoord,
                                    SW__MAX_TEXCOORD);
            }
        }
    }
    t.texture = (int32_t)index;
    t.texcoord = (int32_t)texcoord;
    *out = t;
    return SW_OK;
}

/* ---- common to the readers ------------------------------------------------------------------------------------ */

/* The kind a material's name suggests (the rule of sw_toon_derive). */
static sw_toon_kind sw__kind_of_name(const sw_model_material* material) {
    sw_toon_material probe;
    sw_toon_derive(material, &probe);
    return probe.kind;
}

/* The MToon terminator in the toon model: with no control map (g = 0.5)
   and ramp width 1, c = (N·L + 2) / 4; MToon is fully lit from
   N·L + shift = 1 − toony on, so the light area ends there and the ramp
   of sw_toon_ramp_from_shade carries MToon's whole transition. */
static float sw__mtoon_light_area(float shift, float toony) {
    float a = (3.0f - toony - shift) * 0.25f;
    return a < 1e-3f ? 1e-3f : (a > 1.0f ? 1.0f : a);
}

static float sw__srgb_to_linear(float c) {
    if (c <= 0.04045f) return c / 12.92f;
    return powf((c + 0.055f) / 1.055f, 2.4f);
}

/* ---- SW_materials_toon ------------------------------------------------------------------------------------ */

typedef struct sw__float_field {
    const char* key;
    size_t offset;
    float lo, hi;
} sw__float_field;

#define SW__F(key, member, lo, hi) {key, offsetof(sw_toon_material, member), lo, hi}
static const sw__float_field sw__float_fields[] = {
    SW__F("shadingShift", shading_shift, -1.0f, 1.0f),
    SW__F("shadingToony", shading_toony, 0.0f, 1.0f),
    SW__F("lightArea", light_area, 1e-3f, 1.0f),
    SW__F("rampWidth", ramp_width, 0.01f, 1.0e6f),
    SW__F("detailGate", detail_gate, 0.0f, 1.0f),
    SW__F("viewLift", view_lift, -1.0f, 1.0f),
    SW__F("rimWidth", rim_width, 0.0f, 1.0f),
    SW__F("rimPower", rim_power, 1e-5f, 1.0e4f),
    SW__F("rimLift", rim_lift, -1.0f, 1.0f),
    SW__F("sdfSteepness", sdf_steepness, 0.0f, 1.0e6f),
    SW__F("sdfOffset", sdf_offset, -1.0f, 1.0f),
    SW__F("fade", fade, 0.0f, 1.0f),
    SW__F("matcapMix", matcap_mix, 0.0f, 1.0f),
    SW__F("parallaxHeight", parallax_height, 0.0f, 1.0f),
    SW__F("irisRadius", iris_radius, 0.0f, 1.0f),
    SW__F("outlineWidth", outline_width, 0.0f, 1000.0f),
    SW__F("outlineMaxDistance", outline_max_distance, 0.0f, 1.0e6f),
    SW__F("uvRotation", uv_rotation, -INFINITY, INFINITY),
};
#undef SW__F

typedef struct sw__bool_field {
    const char* key;
    size_t offset;
} sw__bool_field;

#define SW__B(key, member) {key, offsetof(sw_toon_material, member)}
static const sw__bool_field sw__bool_fields[] = {
    SW__B("vertexColorThreshold", vertex_color_threshold),
    SW__B("vertexColorWidth", vertex_color_width),
    SW__B("backUv1", back_uv1),
    SW__B("backForceDark", back_force_dark),
    SW__B("sdfMirror", sdf_mirror),
    SW__B("outline", outline),
};
#undef SW__B

#define SW__T(key, member) {key, offsetof(sw_toon_material, member)}
static const sw__bool_field sw__texture_fields[] = {
    SW__T("controlTexture", control_texture),       SW__T("rampTexture", ramp_texture),
    SW__T("normalTexture", normal_texture),         SW__T("detailNormalTexture", detail_normal_texture),
    SW__T("rimMaskTexture", rim_mask_texture),
    SW__T("faceSdfTexture", face_sdf_texture),     SW__T("matcapTexture", matcap_texture),
};
#undef SW__T

static sw_result sw__read_glint(sw__reader* R, const cJSON* g, const char* where, sw_toon_glint* out) {
    if (!cJSON_IsObject(g)) return sw__fail(R, where, "expected an object");
    sw_result r;
    if ((r = sw__number(R, g, where, "grid", 1e-3f, 1.0e6f, &out->grid)) != SW_OK ||
        (r = sw__number(R, g, where, "spotScale", 0.0f, 1.0e3f, &out->spot_scale)) != SW_OK ||
        (r = sw__number(R, g, where, "phaseRate", -1.0e3f, 1.0e3f, &out->phase_rate)) != SW_OK ||
        (r = sw__number(R, g, where, "activeWidth", 1e-3f, 1.0f, &out->active_width)) != SW_OK ||
        (r = sw__number(R, g, where, "intensity", 0.0f, 1.0e3f, &out->intensity)) != SW_OK ||
        (r = sw__number(R, g, where, "lumaLerp", 0.0f, 1.0f, &out->luma_lerp)) != SW_OK ||
        (r = sw__numbers(R, g, where, "color", 3, 0.0f, 1.0e3f, out->color)) != SW_OK ||
        (r = sw__number(R, g, where, "cameraScale", -1.0e3f, 1.0e3f, &out->camera_scale)) != SW_OK)
        return r;
    return SW_OK;
}

static sw_result sw__read_band(sw__reader* R, const cJSON* b, const char* where, sw_toon_material* t, int i) {
    if (!cJSON_IsObject(b)) return sw__fail(R, where, "expected an object");
    sw_result r;
    if ((r = sw__number(R, b, where, "exponent", 0.0f, 1.0e4f, &t->band_exponent[i])) != SW_OK ||
        (r = sw__number(R, b, where, "lower", 0.0f, 1.0f, &t->band_lower[i])) != SW_OK ||
        (r = sw__number(R, b, where, "upper", 0.0f, 1.0f, &t->band_upper[i])) != SW_OK ||
        (r = sw__number(R, b, where, "intensity", 0.0f, 1.0e3f, &t->band_intensity[i])) != SW_OK ||
        (r = sw__numbers(R, b, where, "color", 3, 0.0f, 1.0e3f, t->band_color[i])) != SW_OK)
        return r;
    return SW_OK;
}

static sw_result sw__read_sw(sw__reader* R, const cJSON* root, sw_toon_material* t) {
    if (!cJSON_IsObject(root)) return sw__fail(R, "", "expected an object");
    sw_result r;
    char item[SW__PATH_SIZE];

    /* The kind first: the defaults of every other key depend on it. */
    sw_toon_kind kind = SW_TOON_BODY;
    const cJSON* v = sw__member(root, "kind");
    if (v) {
        static const char* const names[] = {"body", "hair", "face", "eye"};
        if (!cJSON_IsString(v)) return sw__fail(R, "kind", "expected \"body\", \"hair\", \"face\" or \"eye\"");
        int k = -1;
        for (int i = 0; i < 4; i++)
            if (strcmp(v->valuestring, names[i]) == 0) k = i;
        if (k < 0) return sw__fail(R, "kind", "\"%.32s\" is not body, hair, face or eye", v->valuestring);
        kind = (sw_toon_kind)k;
    }
    sw_toon_defaults(kind, t);
    t->present = true;
    t->source = SW_TOON_SOURCE_SW;

    for (size_t i = 0; i < sizeof sw__float_fields / sizeof sw__float_fields[0]; i++) {
        const sw__float_field* f = &sw__float_fields[i];
        if ((r = sw__number(R, root, "", f->key, f->lo, f->hi, (float*)((char*)t + f->offset))) != SW_OK) return r;
    }
    for (size_t i = 0; i < sizeof sw__bool_fields / sizeof sw__bool_fields[0]; i++) {
        const sw__bool_field* f = &sw__bool_fields[i];
        if ((r = sw__boolean(R, root, "", f->key, (bool*)((char*)t + f->offset))) != SW_OK) return r;
    }
    for (size_t i = 0; i < sizeof sw__texture_fields / sizeof sw__texture_fields[0]; i++) {
        const sw__bool_field* f = &sw__texture_fields[i];
        if ((r = sw__texture(R, root, "", f->key, (sw_model_texture_ref*)((char*)t + f->offset))) != SW_OK) return r;
    }
    if ((r = sw__numbers(R, root, "", "shadeColor", 3, 0.0f, 1.0f, t->shade_color)) != SW_OK ||
        (r = sw__numbers(R, root, "", "rimColor", 3, 0.0f, 1.0e3f, t->rim_color)) != SW_OK ||
        (r = sw__numbers(R, root, "", "outlineColor", 3, 0.0f, 1.0f, t->outline_color)) != SW_OK ||
        (r = sw__numbers(R, root, "", "uvScroll", 2, -1.0e3f, 1.0e3f, t->uv_scroll)) != SW_OK)
        return r;

    /* regionEnabled: five booleans; group 1 cannot be switched off. */
    if ((v = sw__member(root, "regionEnabled")) != NULL) {
        if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) != SW_TOON_REGION_COUNT)
            return sw__fail(R, "regionEnabled", "expected an array of %d booleans", SW_TOON_REGION_COUNT);
        for (int i = 0; i < SW_TOON_REGION_COUNT; i++) {
            const cJSON* b = cJSON_GetArrayItem(v, i);
            sw__path_item(item, "regionEnabled", i);
            if (!cJSON_IsBool(b)) return sw__fail(R, item, "expected true or false");
            t->region_enabled[i] = cJSON_IsTrue(b);
        }
        if (!t->region_enabled[0]) {
            sw__warn(R, "regionEnabled[0]", "group 1 is always on; read as true");
            t->region_enabled[0] = true;
        }
    }

    /* glints: up to two sets; a key a set leaves out keeps the kind's
       default set (the body's when the kind has none). */
    if ((v = sw__member(root, "glints")) != NULL) {
        if (!cJSON_IsArray(v)) return sw__fail(R, "glints", "expected an array");
        int n = cJSON_GetArraySize(v);
        if (n > 2) {
            sw__warn(R, "glints", "%d sets; only the first 2 are used", n);
            n = 2;
        }
        sw_toon_material body;
        sw_toon_defaults(SW_TOON_BODY, &body);
        for (int i = 0; i < n; i++) {
            sw_toon_glint g = i < t->glint_count ? t->glints[i] : body.glints[i];
            sw__path_item(item, "glints", i);
            if ((r = sw__read_glint(R, cJSON_GetArrayItem(v, i), item, &g)) != SW_OK) return r;
            t->glints[i] = g;
        }
        t->glint_count = n;
    }

    if ((v = sw__member(root, "bands")) != NULL) {
        if (!cJSON_IsArray(v)) return sw__fail(R, "bands", "expected an array");
        int n = cJSON_GetArraySize(v);
        if (n > 2) {
            sw__warn(R, "bands", "%d bands; only the first 2 are used", n);
            n = 2;
        }
        for (int i = 0; i < n; i++) {
            sw__path_item(item, "bands", i);
            if ((r = sw__read_band(R, cJSON_GetArrayItem(v, i), item, t, i)) != SW_OK) return r;
        }
    }

    /* headNode: a node index of the file (−1: the node named "head"). */
    if ((v = sw__member(root, "headNode")) != NULL) {
        int64_t node = 0;
        if ((r = sw__integer_value(R, v, "headNode", &node)) != SW_OK) return r;
        if (node == -1)
            t->head_node = -1;
        else if (node < 0 || (uint64_t)node >= R->model->node_count)
            return sw__fail(R, "headNode", "node %lld out of range (%zu nodes)", (long long)node,
                            R->model->node_count);
        else
            t->head_node = (int32_t)R->model->node_from_source[node];
    }
    if ((v = sw__member(root, "foldTagMask")) != NULL) {
        int64_t mask = 0;
        if ((r = sw__integer_value(R, v, "foldTagMask", &mask)) != SW_OK) return r;
        if (mask < 0 || mask > (int64_t)UINT32_MAX)
            return sw__fail(R, "foldTagMask", "%lld is not a 32-bit mask", (long long)mask);
        t->fold_tag_mask = (uint32_t)mask;
    }
    if ((v = sw__member(root, "foldUvSet")) != NULL) {
        int64_t set = 0;
        if ((r = sw__integer_value(R, v, "foldUvSet", &set)) != SW_OK) return r;
        if (set < 0 || set >= SW_MODEL_MAX_TEXCOORDS) {
            int64_t c = set < 0 ? 0 : SW_MODEL_MAX_TEXCOORDS - 1;
            sw__warn(R, "foldUvSet", "%lld is out of range [0, %d]; clamped to %lld", (long long)set,
                     SW_MODEL_MAX_TEXCOORDS - 1, (long long)c);
            set = c;
        }
        t->fold_uv_set = (int)set;
    }
    return SW_OK;
}

/* ---- VRMC_materials_mtoon (VRM 1.0) ------------------------------------------------------------------------- */

/* Defaults: where the specification's property tables and its JSON
   schema disagree (shadeColorFactor, matcapFactor,
   parametricRimFresnelPowerFactor), the schema's. */
static sw_result sw__read_mtoon(sw__reader* R, const cJSON* root, sw_toon_material* t) {
    if (!cJSON_IsObject(root)) return sw__fail(R, "", "expected an object");
    sw_result r;
    const cJSON* v = sw__member(root, "specVersion");
    if (!v)
        sw__warn(R, "specVersion", "missing; read as 1.0");
    else if (!cJSON_IsString(v))
        return sw__fail(R, "specVersion", "expected a string");
    else if (strncmp(v->valuestring, "1.", 2) != 0)
        sw__warn(R, "specVersion", "unknown version \"%.16s\"; read as 1.0", v->valuestring);

    sw_toon_defaults(sw__kind_of_name(&R->model->materials[R->material]), t);
    t->present = true;
    t->source = SW_TOON_SOURCE_MTOON;
    t->glint_count = 0; /* MToon has no glint mask */

    float shade[3] = {1.0f, 1.0f, 1.0f}, shift = 0.0f, toony = 0.9f;
    float matcap[3] = {0.0f, 0.0f, 0.0f}, rim[3] = {0.0f, 0.0f, 0.0f}, power = 1.0f, lift = 0.0f;
    float width = 0.0f, outline_color[3] = {0.0f, 0.0f, 0.0f};
    float scroll_x = 0.0f, scroll_y = 0.0f, rotation = 0.0f;
    sw_model_texture_ref matcap_tex = t->matcap_texture, rim_tex = t->rim_mask_texture;
    if ((r = sw__numbers(R, root, "", "shadeColorFactor", 3, 0.0f, 1.0f, shade)) != SW_OK ||
        (r = sw__number(R, root, "", "shadingShiftFactor", -1.0f, 1.0f, &shift)) != SW_OK ||
        (r = sw__number(R, root, "", "shadingToonyFactor", 0.0f, 1.0f, &toony)) != SW_OK ||
        (r = sw__numbers(R, root, "", "matcapFactor", 3, 0.0f, 1.0f, matcap)) != SW_OK ||
        (r = sw__texture(R, root, "", "matcapTexture", &matcap_tex)) != SW_OK ||
        (r = sw__numbers(R, root, "", "parametricRimColorFactor", 3, 0.0f, 1.0f, rim)) != SW_OK ||
        (r = sw__number(R, root, "", "parametricRimFresnelPowerFactor", 0.0f, 1.0e4f, &power)) != SW_OK ||
        (r = sw__number(R, root, "", "parametricRimLiftFactor", -1.0f, 1.0f, &lift)) != SW_OK ||
        (r = sw__texture(R, root, "", "rimMultiplyTexture", &rim_tex)) != SW_OK ||
        (r = sw__number(R, root, "", "outlineWidthFactor", 0.0f, 1.0e3f, &width)) != SW_OK ||
        (r = sw__numbers(R, root, "", "outlineColorFactor", 3, 0.0f, 1.0f, outline_color)) != SW_OK ||
        (r = sw__number(R, root, "", "uvAnimationScrollXSpeedFactor", -1.0e3f, 1.0e3f, &scroll_x)) != SW_OK ||
        (r = sw__number(R, root, "", "uvAnimationScrollYSpeedFactor", -1.0e3f, 1.0e3f, &scroll_y)) != SW_OK ||
        (r = sw__number(R, root, "", "uvAnimationRotationSpeedFactor", -1.0e3f, 1.0e3f, &rotation)) != SW_OK)
        return r;
    /* Textures sinew does not use are still checked: a broken index is a broken file. */
    static const char* const unused_textures[] = {"shadeMultiplyTexture", "shadingShiftTexture",
                                                  "outlineWidthMultiplyTexture", "uvAnimationMaskTexture"};
    for (size_t i = 0; i < sizeof unused_textures / sizeof unused_textures[0]; i++) {
        sw_model_texture_ref unused;
        if ((r = sw__texture(R, root, "", unused_textures[i], &unused)) != SW_OK) return r;
    }

    int mode = 0; /* none */
    if ((v = sw__member(root, "outlineWidthMode")) != NULL) {
        static const char* const modes[] = {"none", "worldCoordinates", "screenCoordinates"};
        if (!cJSON_IsString(v)) return sw__fail(R, "outlineWidthMode", "expected a string");
        mode = -1;
        for (int i = 0; i < 3; i++)
            if (strcmp(v->valuestring, modes[i]) == 0) mode = i;
        if (mode < 0)
            return sw__fail(R, "outlineWidthMode", "\"%.32s\" is not none, worldCoordinates or screenCoordinates",
                            v->valuestring);
    }

    memcpy(t->shade_color, shade, sizeof shade);
    t->shading_shift = shift;
    t->shading_toony = toony;
    t->light_area = sw__mtoon_light_area(shift, toony);
    t->ramp_width = 1.0f;
    /* matcapFactor has no sinew counterpart: a zero factor drops the
       matcap, any other keeps the texture at full strength. */
    bool matcap_on = matcap[0] > 0.0f || matcap[1] > 0.0f || matcap[2] > 0.0f;
    t->matcap_texture = matcap_on ? matcap_tex : (sw_model_texture_ref){.texture = -1, .scale = 1.0f,
                                                                         .uv_scale = {1.0f, 1.0f}};
    t->matcap_mix = 0.0f; /* MToon's matcap reads the surface normal as it is */
    /* MToon's rim sat(1 − N·V + lift)^power is sinew's with the whole N·V range. */
    memcpy(t->rim_color, rim, sizeof rim);
    t->rim_width = 1.0f;
    t->rim_power = power > 1e-5f ? power : 1e-5f;
    t->rim_lift = lift;
    t->rim_mask_texture = rim_tex;
    t->outline = mode != 0 && width > 0.0f;
    if (mode == 1) {
        t->outline_width = width * SW__OUTLINE_LINES / (2.0f * SW__OUTLINE_REF_DISTANCE * tanf(0.5f * SW__OUTLINE_REF_FOV));
        t->outline_max_distance = SW__OUTLINE_REF_DISTANCE;
    } else if (mode == 2) {
        t->outline_width = width * SW__OUTLINE_LINES; /* a fraction of the screen height */
        t->outline_max_distance = SW__OUTLINE_NO_MAX;
    }
    memcpy(t->outline_color, outline_color, sizeof outline_color);
    t->uv_scroll[0] = scroll_x;
    t->uv_scroll[1] = scroll_y;
    t->uv_rotation = rotation;
    return SW_OK;
}

/* ---- VRM 0.x materialProperties ------------------------------------------------------------------------------- */

/* floatProperties[key] into *out (absent: unchanged). */
static sw_result sw__vrm0_float(sw__reader* R, const cJSON* props, const char* key, float lo, float hi, float* out) {
    if (!props) return SW_OK;
    return sw__number(R, props, "floatProperties", key, lo, hi, out);
}

/* vectorProperties[key] (4 numbers, Unity colours: sRGB) as linear RGB. */
static sw_result sw__vrm0_color(sw__reader* R, const cJSON* props, const char* key, float out[3]) {
    if (!props) return SW_OK;
    const cJSON* v = sw__member(props, key);
    if (!v) return SW_OK;
    char where[SW__PATH_SIZE], item[SW__PATH_SIZE];
    sw__path_key(where, "vectorProperties", key);
    int n = cJSON_IsArray(v) ? cJSON_GetArraySize(v) : 0;
    if (n != 3 && n != 4) return sw__fail(R, where, "expected an array of 4 numbers");
    float c[3];
    for (int i = 0; i < 3; i++) {
        sw__path_item(item, where, i);
        sw_result r = sw__number_value(R, cJSON_GetArrayItem(v, i), item, &c[i]);
        if (r != SW_OK) return r;
        sw__clamp(R, item, &c[i], 0.0f, 1.0f);
    }
    if (n == 4) {
        float a;
        sw__path_item(item, where, 3);
        sw_result r = sw__number_value(R, cJSON_GetArrayItem(v, 3), item, &a);
        if (r != SW_OK) return r;
    }
    for (int i = 0; i < 3; i++) out[i] = sw__srgb_to_linear(c[i]);
    return SW_OK;
}

/* textureProperties[key]: a texture index. */
static sw_result sw__vrm0_texture(sw__reader* R, const cJSON* props, const char* key, sw_model_texture_ref* out) {
    if (!props) return SW_OK;
    const cJSON* v = sw__member(props, key);
    if (!v) return SW_OK;
    char where[SW__PATH_SIZE];
    sw__path_key(where, "textureProperties", key);
    int64_t index = 0;
    sw_result r = sw__integer_value(R, v, where, &index);
    if (r != SW_OK) return r;
    if (index < 0 || (uint64_t)index >= R->model->texture_count)
        return sw__fail(R, where, "texture %lld out of range (%zu textures)", (long long)index, R->model->texture_count);
    memset(out, 0, sizeof *out);
    out->texture = (int32_t)index;
    out->scale = 1.0f;
    out->uv_scale[0] = out->uv_scale[1] = 1.0f;
    return SW_OK;
}

static sw_result sw__vrm0_object(sw__reader* R, const cJSON* entry, const char* key, const cJSON** out) {
    *out = sw__member(entry, key);
    if (*out && !cJSON_IsObject(*out)) return sw__fail(R, key, "expected an object");
    return SW_OK;
}

/* One materialProperties entry whose shader is VRM/MToon. MToon 0.x's
   lighting is linearstep(shift, lerp(1, shift, toony), N·L); 1.0's is
   linearstep(−1 + toony, 1 − toony, N·L + shift): equal ends give
   toony₁ = 1 − (1 − shift₀)(1 − toony₀)/2 and shift₁ = toony₁ − 1 − shift₀. */
static sw_result sw__read_vrm0(sw__reader* R, const cJSON* entry, sw_toon_material* t) {
    const cJSON *floats, *vectors, *textures;
    sw_result r;
    if ((r = sw__vrm0_object(R, entry, "floatProperties", &floats)) != SW_OK ||
        (r = sw__vrm0_object(R, entry, "vectorProperties", &vectors)) != SW_OK ||
        (r = sw__vrm0_object(R, entry, "textureProperties", &textures)) != SW_OK)
        return r;

    sw_toon_defaults(sw__kind_of_name(&R->model->materials[R->material]), t);
    t->present = true;
    t->source = SW_TOON_SOURCE_MTOON_VRM0;
    t->glint_count = 0;

    /* UniVRM's material defaults for what an entry leaves out. */
    float shift0 = 0.0f, toony0 = 0.9f, power = 1.0f, lift = 0.0f, mode = 0.0f, width = 0.5f, max_distance = 1.0f;
    float scroll_x = 0.0f, scroll_y = 0.0f, rotation = 0.0f;
    float shade[3] = {sw__srgb_to_linear(0.97f), sw__srgb_to_linear(0.81f), sw__srgb_to_linear(0.86f)};
    float rim[3] = {0.0f, 0.0f, 0.0f}, outline_color[3] = {0.0f, 0.0f, 0.0f};
    sw_model_texture_ref matcap = t->matcap_texture, rim_tex = t->rim_mask_texture, unused;
    if ((r = sw__vrm0_float(R, floats, "_ShadeShift", -1.0f, 1.0f, &shift0)) != SW_OK ||
        (r = sw__vrm0_float(R, floats, "_ShadeToony", 0.0f, 1.0f, &toony0)) != SW_OK ||
        (r = sw__vrm0_float(R, floats, "_RimFresnelPower", 0.0f, 1.0e4f, &power)) != SW_OK ||
        (r = sw__vrm0_float(R, floats, "_RimLift", -1.0f, 1.0f, &lift)) != SW_OK ||
        (r = sw__vrm0_float(R, floats, "_OutlineWidthMode", 0.0f, 2.0f, &mode)) != SW_OK ||
        (r = sw__vrm0_float(R, floats, "_OutlineWidth", 0.0f, 1.0e3f, &width)) != SW_OK ||
        (r = sw__vrm0_float(R, floats, "_OutlineScaledMaxDistance", 0.0f, 1.0e6f, &max_distance)) != SW_OK ||
        (r = sw__vrm0_float(R, floats, "_UvAnimScrollX", -1.0e3f, 1.0e3f, &scroll_x)) != SW_OK ||
        (r = sw__vrm0_float(R, floats, "_UvAnimScrollY", -1.0e3f, 1.0e3f, &scroll_y)) != SW_OK ||
        (r = sw__vrm0_float(R, floats, "_UvAnimRotation", -1.0e3f, 1.0e3f, &rotation)) != SW_OK ||
        (r = sw__vrm0_color(R, vectors, "_ShadeColor", shade)) != SW_OK ||
        (r = sw__vrm0_color(R, vectors, "_RimColor", rim)) != SW_OK ||
        (r = sw__vrm0_color(R, vectors, "_OutlineColor", outline_color)) != SW_OK ||
        (r = sw__vrm0_texture(R, textures, "_SphereAdd", &matcap)) != SW_OK ||
        (r = sw__vrm0_texture(R, textures, "_RimTexture", &rim_tex)) != SW_OK)
        return r;
    static const char* const unused_textures[] = {"_MainTex", "_ShadeTexture", "_BumpMap", "_ReceiveShadowTexture",
                                                  "_ShadingGradeTexture", "_EmissionMap", "_OutlineWidthTexture",
                                                  "_UvAnimMaskTexture"};
    for (size_t i = 0; i < sizeof unused_textures / sizeof unused_textures[0]; i++)
        if ((r = sw__vrm0_texture(R, textures, unused_textures[i], &unused)) != SW_OK) return r;

    float toony = 1.0f - (1.0f - shift0) * (1.0f - toony0) * 0.5f;
    float shift = toony - 1.0f - shift0;
    memcpy(t->shade_color, shade, sizeof shade);
    t->shading_shift = shift;
    t->shading_toony = toony;
    t->light_area = sw__mtoon_light_area(shift, toony);
    t->ramp_width = 1.0f;
    t->matcap_texture = matcap; /* _SphereAdd: added at full strength */
    t->matcap_mix = 0.0f;
    memcpy(t->rim_color, rim, sizeof rim);
    t->rim_width = 1.0f;
    t->rim_power = power > 1e-5f ? power : 1e-5f;
    t->rim_lift = lift;
    t->rim_mask_texture = rim_tex;
    /* _OutlineWidthMode 0 none, 1 world (_OutlineWidth in centimetres),
       2 screen (a clip-space offset of 0.01·width, i.e. 0.005·width of
       the screen height, up to _OutlineScaledMaxDistance). */
    int m = (int)lroundf(mode);
    t->outline = m != 0 && width > 0.0f;
    if (m == 1) {
        t->outline_width = 0.01f * width * SW__OUTLINE_LINES /
                           (2.0f * SW__OUTLINE_REF_DISTANCE * tanf(0.5f * SW__OUTLINE_REF_FOV));
        t->outline_max_distance = SW__OUTLINE_REF_DISTANCE;
    } else if (m == 2) {
        t->outline_width = 0.005f * width * SW__OUTLINE_LINES;
        t->outline_max_distance = max_distance;
    }
    memcpy(t->outline_color, outline_color, sizeof outline_color);
    /* Unity's UVs run v up and the rotation is in turns per second; glTF's
       run v down, sinew's rotation is in radians per second. */
    t->uv_scroll[0] = scroll_x;
    t->uv_scroll[1] = -scroll_y;
    t->uv_rotation = -2.0f * SW__PI * rotation;
    return SW_OK;
}

/* ---- the reader ---------------------------------------------------------------------------------------------- */

/* The record's JSON, or NULL: no record, not JSON, or out of memory (*out_of_memory). */
static cJSON* sw__parse(const sw_model_extension* e, bool* out_of_memory) {
    *out_of_memory = false;
    return e && e->json ? sw__cjson_parse(e->json, strlen(e->json) + 1, NULL, false, out_of_memory) : NULL;
}

sw_result sw_toon_read(const sw_model* model, sw_toon_material* out, sw_diag* diag) {
    SW_ASSERT(model && (out || model->material_count == 0));
    if (diag) {
        diag->result = SW_OK;
        diag->index = -1;
        diag->message[0] = '\0';
    }
    sw__reader R = {.model = model, .file = model->path ? model->path : "(memory)", .diag = diag};
    for (size_t i = 0; i < model->material_count; i++) sw_toon_defaults(SW_TOON_BODY, &out[i]);

    /* VRM 0.x: the root extension's materialProperties, kept for the name match below. */
    cJSON* vrm0 = NULL;
    const cJSON* vrm0_props = NULL;
    sw_result r = SW_OK;
    const sw_model_extension* root_ext = sw_model_find_extension(model, "VRM", SW_MODEL_OBJECT_MODEL, 0);
    bool out_of_memory = false;
    if (root_ext) {
        vrm0 = sw__parse(root_ext, &out_of_memory);
        if (out_of_memory)
            return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "%s: toon materials: out of memory", R.file);
        if (!vrm0 || !cJSON_IsObject(vrm0)) {
            cJSON_Delete(vrm0);
            return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "%s: extensions.VRM: expected an object", R.file);
        }
        vrm0_props = sw__member(vrm0, "materialProperties");
        if (vrm0_props && !cJSON_IsArray(vrm0_props)) {
            cJSON_Delete(vrm0);
            return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1,
                               "%s: extensions.VRM.materialProperties: expected an array", R.file);
        }
    }

    for (size_t i = 0; i < model->material_count && r == SW_OK; i++) {
        R.material = (uint32_t)i;
        const sw_model_extension* e = sw_model_find_extension(model, "SW_materials_toon", SW_MODEL_OBJECT_MATERIAL,
                                                              (uint32_t)i);
        const char* ext = "SW_materials_toon";
        if (!e) {
            e = sw_model_find_extension(model, "VRMC_materials_mtoon", SW_MODEL_OBJECT_MATERIAL, (uint32_t)i);
            ext = "VRMC_materials_mtoon";
        }
        if (e) {
            R.ext = ext;
            cJSON* root = sw__parse(e, &out_of_memory);
            if (out_of_memory)
                r = sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "%s: toon materials: out of memory", R.file);
            else if (!root)
                r = sw__fail(&R, "", "not valid JSON");
            else if (ext[0] == 'S')
                r = sw__read_sw(&R, root, &out[i]);
            else
                r = sw__read_mtoon(&R, root, &out[i]);
            cJSON_Delete(root);
            continue;
        }
        const char* name = model->materials[i].name;
        if (!vrm0_props || !name) continue;
        int n = cJSON_GetArraySize(vrm0_props);
        for (int k = 0; k < n && r == SW_OK; k++) {
            const cJSON* entry = cJSON_GetArrayItem(vrm0_props, k);
            char where[64];
            snprintf(where, sizeof where, "extensions.VRM.materialProperties[%d]", k);
            R.ext = where;
            if (!cJSON_IsObject(entry)) {
                r = sw__fail(&R, "", "expected an object");
                break;
            }
            const cJSON* entry_name = sw__member(entry, "name");
            const cJSON* shader = sw__member(entry, "shader");
            if (entry_name && !cJSON_IsString(entry_name)) r = sw__fail(&R, "name", "expected a string");
            if (r == SW_OK && shader && !cJSON_IsString(shader)) r = sw__fail(&R, "shader", "expected a string");
            if (r != SW_OK || !entry_name || strcmp(entry_name->valuestring, name) != 0) continue;
            if (shader && strcmp(shader->valuestring, "VRM/MToon") == 0) r = sw__read_vrm0(&R, entry, &out[i]);
            break; /* the first entry of that name decides */
        }
    }
    cJSON_Delete(vrm0);

    if (r != SW_OK) {
        for (size_t i = 0; i < model->material_count; i++) sw_toon_defaults(SW_TOON_BODY, &out[i]);
        return r;
    }
    if (R.warnings && diag) {
        if (R.warnings == 1)
            sw_diag_set(diag, SW_OK, -1, "%s", R.first_warning);
        else
            sw_diag_set(diag, SW_OK, -1, "%.200s (and %zu more warnings)", R.first_warning, R.warnings - 1);
    }
    return SW_OK;
}
