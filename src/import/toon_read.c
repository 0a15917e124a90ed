/* The toon material readers (sinew/toon.h): SW_materials_toon (ours,
   docs/SW_materials_toon.schema.json), VRMC_materials_mtoon (VRM 1.0) and
   the VRM 0.x root extension's materialProperties, from the model's
   extension records, each parsed once through the JSON layer
   (json_internal.h). docs/toon.md has the MToon → sinew mapping and why
   each conversion is what it is.

   A broken block (wrong JSON type, index out of range, a number that is not
   a finite float) fails the whole read with SW_ERR_INVALID_DATA naming the
   file, the material and the field; a value outside its range is clamped
   and counted as a warning: the first one's text is left in diag with
   result SW_OK. */
#include "sinew/toon.h"

#include "json_internal.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

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
    sw__json J; /* its path starts at the material and the record: materials[2] "Skin": VRMC_materials_mtoon */
    const sw_model* model;
    uint32_t material;
} sw__reader;

/* Messages about material i's `record` start at "materials[i] "name":
   record"; errors name the material in diag.index. */
static void sw__scope(sw__reader* R, const char* record) {
    char path[SW__JSON_PATH_SIZE];
    const char* name = R->model->materials[R->material].name;
    if (name) snprintf(path, sizeof path, "materials[%u] \"%.48s\": %s", R->material, name, record);
    else snprintf(path, sizeof path, "materials[%u]: %s", R->material, record);
    sw__json_set_path(&R->J, path);
    R->J.error_index = (int64_t)R->material;
}

static void sw__texture_none(sw_model_texture_ref* t, int32_t texture) {
    memset(t, 0, sizeof *t);
    t->texture = texture;
    t->scale = 1.0f;
    t->uv_scale[0] = t->uv_scale[1] = 1.0f;
}

/* A TEXCOORD set index member (absent: *out unchanged). */
static sw_result sw__texcoord(sw__reader* R, const cJSON* object, int64_t* out) {
    bool present = false;
    if (sw__json_integer(&R->J, object, "texCoord", false, &present, out) != SW_OK) return SW_ERR_INVALID_DATA;
    if (present && (*out < 0 || *out > SW__MAX_TEXCOORD))
        return sw__json_fail(&R->J, "texCoord", "%lld is not a TEXCOORD set (0..%d)", (long long)*out,
                             SW__MAX_TEXCOORD);
    return SW_OK;
}

/* A glTF textureInfo {"index", "texCoord", "scale"?, "extensions":
   {"KHR_texture_transform"}}; the index must name one of the model's
   textures. */
static sw_result sw__texture(sw__reader* R, const cJSON* object, const char* key, sw_model_texture_ref* out) {
    sw__json* J = &R->J;
    const cJSON* info = sw__json_member(object, key);
    if (!info) return SW_OK;
    if (!sw__json_is_object(info)) return sw__json_fail(J, key, "expected a textureInfo object");
    size_t mark = sw__json_push(J, key);
    sw_model_texture_ref t;
    sw__texture_none(&t, -1);
    int64_t index = 0, texcoord = 0;
    if (sw__json_integer(J, info, "index", true, NULL, &index) != SW_OK) return SW_ERR_INVALID_DATA;
    if (index < 0 || (uint64_t)index >= R->model->texture_count)
        return sw__json_fail(J, "index", "texture %lld out of range (%zu textures)", (long long)index,
                             R->model->texture_count);
    const cJSON *ext, *tt = NULL;
    if (sw__texcoord(R, info, &texcoord) != SW_OK ||
        sw__json_float_in(J, info, "scale", -INFINITY, INFINITY, &t.scale) != SW_OK ||
        sw__json_object(J, info, "extensions", false, &ext) != SW_OK)
        return SW_ERR_INVALID_DATA;
    sw__json_push(J, "extensions");
    if (ext && sw__json_object(J, ext, "KHR_texture_transform", false, &tt) != SW_OK) return SW_ERR_INVALID_DATA;
    if (tt) {
        sw__json_push(J, "KHR_texture_transform");
        t.has_transform = true;
        if (sw__json_floats_in(J, tt, "offset", 2, -INFINITY, INFINITY, t.offset) != SW_OK ||
            sw__json_float_in(J, tt, "rotation", -INFINITY, INFINITY, &t.rotation) != SW_OK ||
            sw__json_floats_in(J, tt, "scale", 2, -INFINITY, INFINITY, t.uv_scale) != SW_OK ||
            sw__texcoord(R, tt, &texcoord) != SW_OK)
            return SW_ERR_INVALID_DATA;
    }
    sw__json_pop(J, mark);
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

static sw_result sw__read_glint(sw__reader* R, const cJSON* g, sw_toon_glint* out) {
    sw__json* J = &R->J;
    if (sw__json_expect_object(J, g) != SW_OK ||
        sw__json_float_in(J, g, "grid", 1e-3f, 1.0e6f, &out->grid) != SW_OK ||
        sw__json_float_in(J, g, "spotScale", 0.0f, 1.0e3f, &out->spot_scale) != SW_OK ||
        sw__json_float_in(J, g, "phaseRate", -1.0e3f, 1.0e3f, &out->phase_rate) != SW_OK ||
        sw__json_float_in(J, g, "activeWidth", 1e-3f, 1.0f, &out->active_width) != SW_OK ||
        sw__json_float_in(J, g, "intensity", 0.0f, 1.0e3f, &out->intensity) != SW_OK ||
        sw__json_float_in(J, g, "lumaLerp", 0.0f, 1.0f, &out->luma_lerp) != SW_OK ||
        sw__json_floats_in(J, g, "color", 3, 0.0f, 1.0e3f, out->color) != SW_OK ||
        sw__json_float_in(J, g, "cameraScale", -1.0e3f, 1.0e3f, &out->camera_scale) != SW_OK)
        return SW_ERR_INVALID_DATA;
    return SW_OK;
}

static sw_result sw__read_band(sw__reader* R, const cJSON* b, sw_toon_material* t, size_t i) {
    sw__json* J = &R->J;
    if (sw__json_expect_object(J, b) != SW_OK ||
        sw__json_float_in(J, b, "exponent", 0.0f, 1.0e4f, &t->band_exponent[i]) != SW_OK ||
        sw__json_float_in(J, b, "lower", 0.0f, 1.0f, &t->band_lower[i]) != SW_OK ||
        sw__json_float_in(J, b, "upper", 0.0f, 1.0f, &t->band_upper[i]) != SW_OK ||
        sw__json_float_in(J, b, "intensity", 0.0f, 1.0e3f, &t->band_intensity[i]) != SW_OK ||
        sw__json_floats_in(J, b, "color", 3, 0.0f, 1.0e3f, t->band_color[i]) != SW_OK)
        return SW_ERR_INVALID_DATA;
    return SW_OK;
}

/* The kind first: the defaults of every other key depend on it. */
static sw_result sw__read_sw_kind(sw__reader* R, const cJSON* root, sw_toon_kind* kind) {
    static const char* const names[] = {"body", "hair", "face", "eye"};
    const cJSON* v = sw__json_member(root, "kind");
    *kind = SW_TOON_BODY;
    if (!v) return SW_OK;
    const char* s = sw__json_text(v);
    if (!s) return sw__json_fail(&R->J, "kind", "expected \"body\", \"hair\", \"face\" or \"eye\"");
    int k = sw__json_find_name(s, names, 4);
    if (k < 0) return sw__json_fail(&R->J, "kind", "\"%.32s\" is not body, hair, face or eye", s);
    *kind = (sw_toon_kind)k;
    return SW_OK;
}

/* The fields of the tables above, then the colours. */
static sw_result sw__read_sw_fields(sw__reader* R, const cJSON* root, sw_toon_material* t) {
    sw__json* J = &R->J;
    for (size_t i = 0; i < sizeof sw__float_fields / sizeof sw__float_fields[0]; i++) {
        const sw__float_field* f = &sw__float_fields[i];
        if (sw__json_float_in(J, root, f->key, f->lo, f->hi, (float*)((char*)t + f->offset)) != SW_OK)
            return SW_ERR_INVALID_DATA;
    }
    for (size_t i = 0; i < sizeof sw__bool_fields / sizeof sw__bool_fields[0]; i++) {
        const sw__bool_field* f = &sw__bool_fields[i];
        if (sw__json_bool(J, root, f->key, (bool*)((char*)t + f->offset)) != SW_OK) return SW_ERR_INVALID_DATA;
    }
    for (size_t i = 0; i < sizeof sw__texture_fields / sizeof sw__texture_fields[0]; i++) {
        const sw__bool_field* f = &sw__texture_fields[i];
        if (sw__texture(R, root, f->key, (sw_model_texture_ref*)((char*)t + f->offset)) != SW_OK)
            return SW_ERR_INVALID_DATA;
    }
    if (sw__json_floats_in(J, root, "shadeColor", 3, 0.0f, 1.0f, t->shade_color) != SW_OK ||
        sw__json_floats_in(J, root, "rimColor", 3, 0.0f, 1.0e3f, t->rim_color) != SW_OK ||
        sw__json_floats_in(J, root, "outlineColor", 3, 0.0f, 1.0f, t->outline_color) != SW_OK ||
        sw__json_floats_in(J, root, "uvScroll", 2, -1.0e3f, 1.0e3f, t->uv_scroll) != SW_OK)
        return SW_ERR_INVALID_DATA;
    return SW_OK;
}

/* regionEnabled (five booleans; group 1 cannot be switched off), glints
   (up to two sets; a key a set leaves out keeps the kind's default set, the
   body's when the kind has none) and bands (up to two). */
static sw_result sw__read_sw_lists(sw__reader* R, const cJSON* root, sw_toon_material* t) {
    sw__json* J = &R->J;
    const cJSON *regions = sw__json_member(root, "regionEnabled"), *glints, *bands;
    if (regions) {
        if (!sw__json_is_array(regions) || sw__json_count(regions) != SW_TOON_REGION_COUNT)
            return sw__json_fail(J, "regionEnabled", "expected an array of %d booleans", SW_TOON_REGION_COUNT);
        size_t mark = sw__json_push(J, "regionEnabled");
        for (sw__json_each it = sw__json_each_of(J, regions); sw__json_next(J, &it);)
            if (sw__json_bool_value(J, it.value, &t->region_enabled[it.index]) != SW_OK) return SW_ERR_INVALID_DATA;
        sw__json_pop(J, mark);
        if (!t->region_enabled[0]) {
            sw__json_warn(J, "regionEnabled[0]", "group 1 is always on; read as true");
            t->region_enabled[0] = true;
        }
    }
    if (sw__json_array(J, root, "glints", false, &glints) != SW_OK) return SW_ERR_INVALID_DATA;
    if (glints) {
        int n = (int)sw__json_count(glints);
        if (n > 2) {
            sw__json_warn(J, "glints", "%d sets; only the first 2 are used", n);
            n = 2;
        }
        sw_toon_material body;
        sw_toon_defaults(SW_TOON_BODY, &body);
        size_t mark = sw__json_push(J, "glints");
        for (sw__json_each it = sw__json_each_of(J, glints); sw__json_next(J, &it) && it.index < (size_t)n;) {
            int i = (int)it.index;
            sw_toon_glint g = i < t->glint_count ? t->glints[i] : body.glints[i];
            if (sw__read_glint(R, it.value, &g) != SW_OK) return SW_ERR_INVALID_DATA;
            t->glints[i] = g;
        }
        sw__json_pop(J, mark);
        t->glint_count = n;
    }
    if (sw__json_array(J, root, "bands", false, &bands) != SW_OK) return SW_ERR_INVALID_DATA;
    if (bands) {
        int n = (int)sw__json_count(bands);
        if (n > 2) {
            sw__json_warn(J, "bands", "%d bands; only the first 2 are used", n);
            n = 2;
        }
        size_t mark = sw__json_push(J, "bands");
        for (sw__json_each it = sw__json_each_of(J, bands); sw__json_next(J, &it) && it.index < (size_t)n;)
            if (sw__read_band(R, it.value, t, it.index) != SW_OK) return SW_ERR_INVALID_DATA;
        sw__json_pop(J, mark);
    }
    return SW_OK;
}

/* headNode (a node index of the file; −1: the node named "head"),
   foldTagMask and foldUvSet. */
static sw_result sw__read_sw_integers(sw__reader* R, const cJSON* root, sw_toon_material* t) {
    sw__json* J = &R->J;
    bool present = false;
    int64_t node = 0, mask = 0, set = 0;
    if (sw__json_integer(J, root, "headNode", false, &present, &node) != SW_OK) return SW_ERR_INVALID_DATA;
    if (present && node == -1)
        t->head_node = -1;
    else if (present && (node < 0 || (uint64_t)node >= R->model->node_count))
        return sw__json_fail(J, "headNode", "node %lld out of range (%zu nodes)", (long long)node,
                             R->model->node_count);
    else if (present)
        t->head_node = (int32_t)R->model->node_from_source[node];
    if (sw__json_integer(J, root, "foldTagMask", false, &present, &mask) != SW_OK) return SW_ERR_INVALID_DATA;
    if (present && (mask < 0 || mask > (int64_t)UINT32_MAX))
        return sw__json_fail(J, "foldTagMask", "%lld is not a 32-bit mask", (long long)mask);
    if (present) t->fold_tag_mask = (uint32_t)mask;
    if (sw__json_integer(J, root, "foldUvSet", false, &present, &set) != SW_OK) return SW_ERR_INVALID_DATA;
    if (present && (set < 0 || set >= SW_MODEL_MAX_TEXCOORDS)) {
        int64_t c = set < 0 ? 0 : SW_MODEL_MAX_TEXCOORDS - 1;
        sw__json_warn(J, "foldUvSet", "%lld is out of range [0, %d]; clamped to %lld", (long long)set,
                      SW_MODEL_MAX_TEXCOORDS - 1, (long long)c);
        set = c;
    }
    if (present) t->fold_uv_set = (int)set;
    return SW_OK;
}

static sw_result sw__read_sw(sw__reader* R, const cJSON* root, sw_toon_material* t) {
    sw_toon_kind kind;
    if (sw__json_expect_object(&R->J, root) != SW_OK || sw__read_sw_kind(R, root, &kind) != SW_OK)
        return SW_ERR_INVALID_DATA;
    sw_toon_defaults(kind, t);
    t->present = true;
    t->source = SW_TOON_SOURCE_SW;
    if (sw__read_sw_fields(R, root, t) != SW_OK || sw__read_sw_lists(R, root, t) != SW_OK ||
        sw__read_sw_integers(R, root, t) != SW_OK)
        return SW_ERR_INVALID_DATA;
    return SW_OK;
}

/* What the renderer does not draw of MToon's transparency, said once per
   material: the render queue and z-write of a material that is not BLEND
   (they apply to BLEND only), and a renderQueueOffsetNumber outside the
   range the specification gives its mode (0..+9 with
   transparentWithZWrite, −9..0 without), which the renderer clamps. */
static void sw__mtoon_blend_warnings(sw__reader* R, const sw_model_material* material, const sw_toon_material* t) {
    if (material->alpha_mode != SW_MODEL_ALPHA_BLEND) {
        if (t->render_queue_offset != 0 || t->transparent_with_z_write)
            sw__json_warn(&R->J, t->render_queue_offset ? "renderQueueOffsetNumber" : "transparentWithZWrite",
                          "only orders or writes depth for transparent materials, and this one is not; ignored");
        return;
    }
    const int lo = t->transparent_with_z_write ? 0 : -9, hi = t->transparent_with_z_write ? 9 : 0;
    const int offset = (int)t->render_queue_offset;
    if (offset < lo || offset > hi)
        sw__json_warn(&R->J, "renderQueueOffsetNumber", "%d is outside %d..%d for transparentWithZWrite %s; drawn as %d",
                      offset, lo, hi, t->transparent_with_z_write ? "true" : "false", offset < lo ? lo : hi);
}

/* ---- VRMC_materials_mtoon (VRM 1.0) ------------------------------------------------------------------------- */

/* Defaults: where the specification's property tables and its JSON
   schema disagree (shadeColorFactor, matcapFactor,
   parametricRimFresnelPowerFactor), the schema's. */
static sw_result sw__read_mtoon(sw__reader* R, const cJSON* root, sw_toon_material* t) {
    sw__json* J = &R->J;
    if (sw__json_expect_object(J, root) != SW_OK) return SW_ERR_INVALID_DATA;
    const cJSON* v = sw__json_member(root, "specVersion");
    if (!v)
        sw__json_warn(J, "specVersion", "missing; read as 1.0");
    else if (!sw__json_text(v))
        return sw__json_fail(J, "specVersion", "expected a string");
    else if (strncmp(sw__json_text(v), "1.", 2) != 0)
        sw__json_warn(J, "specVersion", "unknown version \"%.16s\"; read as 1.0", sw__json_text(v));

    sw_toon_defaults(sw__kind_of_name(&R->model->materials[R->material]), t);
    t->present = true;
    t->source = SW_TOON_SOURCE_MTOON;
    t->glint_count = 0; /* MToon has no glint mask */

    float shade[3] = {1.0f, 1.0f, 1.0f}, shift = 0.0f, toony = 0.9f, gi = 0.9f;
    float matcap[3] = {1.0f, 1.0f, 1.0f}, rim[3] = {0.0f, 0.0f, 0.0f}, power = 5.0f, lift = 0.0f, rim_mix = 1.0f;
    float width = 0.0f, outline_color[3] = {0.0f, 0.0f, 0.0f}, outline_mix = 1.0f;
    float scroll_x = 0.0f, scroll_y = 0.0f, rotation = 0.0f;
    int64_t queue = 0;
    bool z_write = false;
    if (sw__json_floats_in(J, root, "shadeColorFactor", 3, 0.0f, 1.0f, shade) != SW_OK ||
        sw__texture(R, root, "shadeMultiplyTexture", &t->shade_multiply_texture) != SW_OK ||
        sw__json_float_in(J, root, "shadingShiftFactor", -1.0f, 1.0f, &shift) != SW_OK ||
        sw__texture(R, root, "shadingShiftTexture", &t->shading_shift_texture) != SW_OK ||
        sw__json_float_in(J, root, "shadingToonyFactor", 0.0f, 1.0f, &toony) != SW_OK ||
        sw__json_float_in(J, root, "giEqualizationFactor", 0.0f, 1.0f, &gi) != SW_OK ||
        sw__json_floats_in(J, root, "matcapFactor", 3, 0.0f, 1.0e3f, matcap) != SW_OK ||
        sw__texture(R, root, "matcapTexture", &t->matcap_texture) != SW_OK ||
        sw__json_floats_in(J, root, "parametricRimColorFactor", 3, 0.0f, 1.0e3f, rim) != SW_OK ||
        sw__json_float_in(J, root, "parametricRimFresnelPowerFactor", 0.0f, 1.0e4f, &power) != SW_OK ||
        sw__json_float_in(J, root, "parametricRimLiftFactor", -1.0f, 1.0f, &lift) != SW_OK ||
        sw__texture(R, root, "rimMultiplyTexture", &t->rim_mask_texture) != SW_OK ||
        sw__json_float_in(J, root, "rimLightingMixFactor", 0.0f, 1.0f, &rim_mix) != SW_OK ||
        sw__json_float_in(J, root, "outlineWidthFactor", 0.0f, 1.0e3f, &width) != SW_OK ||
        sw__texture(R, root, "outlineWidthMultiplyTexture", &t->outline_width_texture) != SW_OK ||
        sw__json_floats_in(J, root, "outlineColorFactor", 3, 0.0f, 1.0f, outline_color) != SW_OK ||
        sw__json_float_in(J, root, "outlineLightingMixFactor", 0.0f, 1.0f, &outline_mix) != SW_OK ||
        sw__texture(R, root, "uvAnimationMaskTexture", &t->uv_animation_mask_texture) != SW_OK ||
        sw__json_float_in(J, root, "uvAnimationScrollXSpeedFactor", -1.0e3f, 1.0e3f, &scroll_x) != SW_OK ||
        sw__json_float_in(J, root, "uvAnimationScrollYSpeedFactor", -1.0e3f, 1.0e3f, &scroll_y) != SW_OK ||
        sw__json_float_in(J, root, "uvAnimationRotationSpeedFactor", -1.0e3f, 1.0e3f, &rotation) != SW_OK ||
        sw__json_integer(J, root, "renderQueueOffsetNumber", false, NULL, &queue) != SW_OK)
        return SW_ERR_INVALID_DATA;
    if (sw__json_bool(J, root, "transparentWithZWrite", &z_write) != SW_OK) return SW_ERR_INVALID_DATA;
    if (queue < -9 || queue > 9) {
        sw__json_warn(J, "renderQueueOffsetNumber", "%lld is outside -9..9; clamped", (long long)queue);
        queue = queue < -9 ? -9 : 9;
    }
    t->gi_equalization = gi;
    memcpy(t->matcap_color, matcap, sizeof matcap);
    t->rim_lighting_mix = rim_mix;
    t->outline_lighting_mix = outline_mix;
    t->render_queue_offset = (int32_t)queue;
    t->transparent_with_z_write = z_write;
    sw__mtoon_blend_warnings(R, &R->model->materials[R->material], t);

    int mode = 0; /* none */
    if ((v = sw__json_member(root, "outlineWidthMode")) != NULL) {
        static const char* const modes[] = {"none", "worldCoordinates", "screenCoordinates"};
        if (!sw__json_text(v)) return sw__json_fail(J, "outlineWidthMode", "expected a string");
        mode = sw__json_find_name(sw__json_text(v), modes, 3);
        if (mode < 0)
            return sw__json_fail(J, "outlineWidthMode",
                                 "\"%.32s\" is not none, worldCoordinates or screenCoordinates", sw__json_text(v));
    }

    memcpy(t->shade_color, shade, sizeof shade);
    t->shading_shift = shift;
    t->shading_toony = toony;
    t->light_area = sw__mtoon_light_area(shift, toony);
    t->ramp_width = 1.0f;
    t->matcap_mix = 0.0f; /* MToon's matcap reads the surface normal as it is */
    /* MToon's rim sat(1 − N·V + lift)^power is sinew's with the whole N·V range. */
    memcpy(t->rim_color, rim, sizeof rim);
    t->rim_width = 1.0f;
    t->rim_power = power > 1e-5f ? power : 1e-5f;
    t->rim_lift = lift;
    t->outline = mode != 0 && width > 0.0f;
    if (mode == 1) {
        /* Metres along the normal; outline_width stays the pixel width it
           has at 1 m with a 35° field of view, for readers of that field. */
        t->outline_world = true;
        t->outline_world_width = width;
        t->outline_width =
            width * SW__OUTLINE_LINES / (2.0f * SW__OUTLINE_REF_DISTANCE * tanf(0.5f * SW__OUTLINE_REF_FOV));
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

/* vectorProperties[key] (at the current path, vectorProperties; 4
   numbers, Unity colours: sRGB) as linear RGB. */
static sw_result sw__vrm0_color(sw__reader* R, const cJSON* props, const char* key, float out[3]) {
    sw__json* J = &R->J;
    const cJSON* v = sw__json_member(props, key);
    if (!v) return SW_OK;
    size_t n = sw__json_is_array(v) ? sw__json_count(v) : 0;
    if (n != 3 && n != 4) return sw__json_fail(J, key, "expected an array of 4 numbers");
    float c[4];
    size_t mark = sw__json_push(J, key);
    for (sw__json_each it = sw__json_each_of(J, v); sw__json_next(J, &it);) {
        if (sw__json_float_value(J, it.value, &c[it.index]) != SW_OK) return SW_ERR_INVALID_DATA;
        if (it.index < 3) sw__json_clamp(J, NULL, &c[it.index], 0.0f, 1.0f);
    }
    sw__json_pop(J, mark);
    for (int i = 0; i < 3; i++) out[i] = sw__srgb_to_linear(c[i]);
    return SW_OK;
}

/* textureProperties[key] (at the current path, textureProperties): a texture index. */
static sw_result sw__vrm0_texture(sw__reader* R, const cJSON* props, const char* key, sw_model_texture_ref* out) {
    bool present = false;
    int64_t index = 0;
    if (sw__json_integer(&R->J, props, key, false, &present, &index) != SW_OK) return SW_ERR_INVALID_DATA;
    if (!present) return SW_OK;
    if (index < 0 || (uint64_t)index >= R->model->texture_count)
        return sw__json_fail(&R->J, key, "texture %lld out of range (%zu textures)", (long long)index,
                             R->model->texture_count);
    sw__texture_none(out, (int32_t)index);
    return SW_OK;
}

/* UniVRM's material values for what an entry leaves out, and what it gives. */
typedef struct sw__mtoon0 {
    float shift, toony, power, lift, mode, width, max_distance, scroll_x, scroll_y, rotation;
    float gi_intensity, rim_mix, outline_color_mode, outline_mix;
    float shade[3], rim[3], outline_color[3];
    sw_model_texture_ref matcap, rim_texture, shade_texture, outline_width_texture, mask;
} sw__mtoon0;

/* floatProperties, vectorProperties and textureProperties of one entry. */
static sw_result sw__read_mtoon0(sw__reader* R, const cJSON* floats, const cJSON* vectors, const cJSON* textures,
                                 sw__mtoon0* m) {
    sw__json* J = &R->J;
    size_t mark = sw__json_push(J, "floatProperties");
    if (sw__json_float_in(J, floats, "_ShadeShift", -1.0f, 1.0f, &m->shift) != SW_OK ||
        sw__json_float_in(J, floats, "_ShadeToony", 0.0f, 1.0f, &m->toony) != SW_OK ||
        sw__json_float_in(J, floats, "_RimFresnelPower", 0.0f, 1.0e4f, &m->power) != SW_OK ||
        sw__json_float_in(J, floats, "_RimLift", -1.0f, 1.0f, &m->lift) != SW_OK ||
        sw__json_float_in(J, floats, "_OutlineWidthMode", 0.0f, 2.0f, &m->mode) != SW_OK ||
        sw__json_float_in(J, floats, "_OutlineWidth", 0.0f, 1.0e3f, &m->width) != SW_OK ||
        sw__json_float_in(J, floats, "_OutlineScaledMaxDistance", 0.0f, 1.0e6f, &m->max_distance) != SW_OK ||
        sw__json_float_in(J, floats, "_UvAnimScrollX", -1.0e3f, 1.0e3f, &m->scroll_x) != SW_OK ||
        sw__json_float_in(J, floats, "_UvAnimScrollY", -1.0e3f, 1.0e3f, &m->scroll_y) != SW_OK ||
        sw__json_float_in(J, floats, "_UvAnimRotation", -1.0e3f, 1.0e3f, &m->rotation) != SW_OK ||
        sw__json_float_in(J, floats, "_IndirectLightIntensity", 0.0f, 1.0f, &m->gi_intensity) != SW_OK ||
        sw__json_float_in(J, floats, "_RimLightingMix", 0.0f, 1.0f, &m->rim_mix) != SW_OK ||
        sw__json_float_in(J, floats, "_OutlineColorMode", 0.0f, 1.0f, &m->outline_color_mode) != SW_OK ||
        sw__json_float_in(J, floats, "_OutlineLightingMix", 0.0f, 1.0f, &m->outline_mix) != SW_OK)
        return SW_ERR_INVALID_DATA;
    /* MToon 0.x's own controls that 1.0 (and sinew) dropped: said when set
       away from what draws the same. */
    static const struct { const char* key; float same; } undrawn[] = {
        {"_ReceiveShadowRate", 1.0f}, {"_ShadingGradeRate", 1.0f}, {"_LightColorAttenuation", 0.0f}};
    for (size_t i = 0; i < sizeof undrawn / sizeof undrawn[0]; i++) {
        float value = undrawn[i].same;
        if (sw__json_float_in(J, floats, undrawn[i].key, -1.0e6f, 1.0e6f, &value) != SW_OK) return SW_ERR_INVALID_DATA;
        if (value != undrawn[i].same)
            sw__json_warn(J, undrawn[i].key, "%g: MToon 0.x only (not in MToon 1.0); not drawn", (double)value);
    }
    sw__json_pop(J, mark);
    mark = sw__json_push(J, "vectorProperties");
    /* The main texture's Unity tiling (offset x, y, scale x, y): three-vrm
       moves it into a texture transform; sinew draws the glTF material's. */
    const cJSON* tiling = sw__json_member(vectors, "_MainTex");
    if (tiling && sw__json_is_array(tiling) && sw__json_count(tiling) == 4) {
        static const float same[4] = {0.0f, 0.0f, 1.0f, 1.0f};
        bool differs = false;
        for (sw__json_each it = sw__json_each_of(J, tiling); sw__json_next(J, &it);) {
            float v = 0.0f;
            if (sw__json_float_value(J, it.value, &v) != SW_OK) return SW_ERR_INVALID_DATA;
            differs = differs || v != same[it.index];
        }
        if (differs) sw__json_warn(J, "_MainTex", "Unity texture tiling and offset not drawn (the glTF material's transform is)");
    }
    if (sw__vrm0_color(R, vectors, "_ShadeColor", m->shade) != SW_OK ||
        sw__vrm0_color(R, vectors, "_RimColor", m->rim) != SW_OK ||
        sw__vrm0_color(R, vectors, "_OutlineColor", m->outline_color) != SW_OK)
        return SW_ERR_INVALID_DATA;
    sw__json_pop(J, mark);
    mark = sw__json_push(J, "textureProperties");
    if (sw__vrm0_texture(R, textures, "_SphereAdd", &m->matcap) != SW_OK ||
        sw__vrm0_texture(R, textures, "_RimTexture", &m->rim_texture) != SW_OK ||
        sw__vrm0_texture(R, textures, "_ShadeTexture", &m->shade_texture) != SW_OK ||
        sw__vrm0_texture(R, textures, "_OutlineWidthTexture", &m->outline_width_texture) != SW_OK ||
        sw__vrm0_texture(R, textures, "_UvAnimMaskTexture", &m->mask) != SW_OK)
        return SW_ERR_INVALID_DATA;
    /* The glTF core material carries these (UniVRM writes both); the
       0.x-only ones are not drawn, and say so. */
    static const char* const core_textures[] = {"_MainTex", "_BumpMap", "_EmissionMap"};
    static const char* const undrawn_textures[] = {"_ReceiveShadowTexture", "_ShadingGradeTexture"};
    sw_model_texture_ref unused;
    for (size_t i = 0; i < sizeof core_textures / sizeof core_textures[0]; i++)
        if (sw__vrm0_texture(R, textures, core_textures[i], &unused) != SW_OK) return SW_ERR_INVALID_DATA;
    for (size_t i = 0; i < sizeof undrawn_textures / sizeof undrawn_textures[0]; i++) {
        unused.texture = -1;
        if (sw__vrm0_texture(R, textures, undrawn_textures[i], &unused) != SW_OK) return SW_ERR_INVALID_DATA;
        if (unused.texture >= 0) sw__json_warn(J, undrawn_textures[i], "MToon 0.x only (not in MToon 1.0); not drawn");
    }
    sw__json_pop(J, mark);
    return SW_OK;
}

/* One materialProperties entry whose shader is VRM/MToon. MToon 0.x's
   lighting is linearstep(shift, lerp(1, shift, toony), N·L); 1.0's is
   linearstep(−1 + toony, 1 − toony, N·L + shift): equal ends give
   toony₁ = 1 − (1 − shift₀)(1 − toony₀)/2 and shift₁ = toony₁ − 1 − shift₀. */
static sw_result sw__read_vrm0(sw__reader* R, const cJSON* entry, sw_toon_material* t) {
    sw__json* J = &R->J;
    const cJSON *floats, *vectors, *textures;
    if (sw__json_object(J, entry, "floatProperties", false, &floats) != SW_OK ||
        sw__json_object(J, entry, "vectorProperties", false, &vectors) != SW_OK ||
        sw__json_object(J, entry, "textureProperties", false, &textures) != SW_OK)
        return SW_ERR_INVALID_DATA;

    sw_toon_defaults(sw__kind_of_name(&R->model->materials[R->material]), t);
    t->present = true;
    t->source = SW_TOON_SOURCE_MTOON_VRM0;
    t->glint_count = 0;

    sw__mtoon0 p = {.toony = 0.9f, .power = 1.0f, .width = 0.5f, .max_distance = 1.0f, .gi_intensity = 0.1f,
                    .outline_mix = 1.0f,
                    .shade = {sw__srgb_to_linear(0.97f), sw__srgb_to_linear(0.81f), sw__srgb_to_linear(0.86f)},
                    .matcap = t->matcap_texture, .rim_texture = t->rim_mask_texture,
                    .shade_texture = t->shade_multiply_texture, .outline_width_texture = t->outline_width_texture,
                    .mask = t->uv_animation_mask_texture};
    if (sw__read_mtoon0(R, floats, vectors, textures, &p) != SW_OK) return SW_ERR_INVALID_DATA;

    float toony = 1.0f - (1.0f - p.shift) * (1.0f - p.toony) * 0.5f;
    float shift = toony - 1.0f - p.shift;
    memcpy(t->shade_color, p.shade, sizeof p.shade);
    t->shading_shift = shift;
    t->shading_toony = toony;
    t->light_area = sw__mtoon_light_area(shift, toony);
    t->ramp_width = 1.0f;
    t->matcap_texture = p.matcap; /* _SphereAdd: added at full strength */
    t->matcap_mix = 0.0f;
    memcpy(t->rim_color, p.rim, sizeof p.rim);
    t->rim_width = 1.0f;
    t->rim_power = p.power > 1e-5f ? p.power : 1e-5f;
    t->rim_lift = p.lift;
    t->rim_mask_texture = p.rim_texture;
    t->shade_multiply_texture = p.shade_texture;
    t->outline_width_texture = p.outline_width_texture;
    t->uv_animation_mask_texture = p.mask;
    /* As three-vrm's and UniVRM's migration to 1.0: GI equalisation is
       1 − _IndirectLightIntensity; the outline mixes in the lighting only
       in colour mode 1 (mixed lighting). */
    t->gi_equalization = 1.0f - p.gi_intensity;
    t->rim_lighting_mix = p.rim_mix;
    t->outline_lighting_mix = lroundf(p.outline_color_mode) == 1 ? p.outline_mix : 0.0f;
    sw__mtoon_blend_warnings(R, &R->model->materials[R->material], t);
    /* A transparent 0.x material's Unity render queue and z-write are not
       read (MToon 1.0's offset 0, no depth write): said when they differ. */
    if (R->model->materials[R->material].alpha_mode == SW_MODEL_ALPHA_BLEND) {
        const cJSON* queue = cJSON_GetObjectItemCaseSensitive(entry, "renderQueue");
        const cJSON* z_write = floats ? cJSON_GetObjectItemCaseSensitive(floats, "_ZWrite") : NULL;
        if (cJSON_IsNumber(queue) && queue->valuedouble != 3000.0)
            sw__json_warn(J, "renderQueue", "not read: drawn in the transparent queue with offset 0");
        if (cJSON_IsNumber(z_write) && z_write->valuedouble != 0.0)
            sw__json_warn(J, "floatProperties._ZWrite", "not read: drawn without depth write");
    }
    /* _OutlineWidthMode 0 none, 1 world (_OutlineWidth in centimetres),
       2 screen (a clip-space offset of 0.01·width, i.e. 0.005·width of
       the screen height, up to _OutlineScaledMaxDistance). */
    int mode = (int)lroundf(p.mode);
    t->outline = mode != 0 && p.width > 0.0f;
    if (mode == 1) {
        t->outline_world = true;
        t->outline_world_width = 0.01f * p.width;
        t->outline_width = 0.01f * p.width * SW__OUTLINE_LINES /
                           (2.0f * SW__OUTLINE_REF_DISTANCE * tanf(0.5f * SW__OUTLINE_REF_FOV));
        t->outline_max_distance = SW__OUTLINE_REF_DISTANCE;
    } else if (mode == 2) {
        t->outline_width = 0.005f * p.width * SW__OUTLINE_LINES;
        t->outline_max_distance = p.max_distance;
    }
    memcpy(t->outline_color, p.outline_color, sizeof p.outline_color);
    /* Unity's UVs run v up and the rotation is in turns per second; glTF's
       run v down, sinew's rotation is in radians per second. MToon 0.x
       turns UV counter-clockwise in its v-up space, 1.0 counter-clockwise
       in its v-down space: the same way on screen, so the sign stays. */
    t->uv_scroll[0] = p.scroll_x;
    t->uv_scroll[1] = -p.scroll_y;
    t->uv_rotation = 2.0f * SW__PI * p.rotation;
    return SW_OK;
}

/* ---- the reader ---------------------------------------------------------------------------------------------- */

/* Material i's SW_materials_toon or VRMC_materials_mtoon record, when it has one (*found). */
static sw_result sw__read_record(sw__reader* R, sw_toon_material* out, bool* found) {
    uint32_t i = R->material;
    const char* ext = "SW_materials_toon";
    const sw_model_extension* e = sw_model_find_extension(R->model, ext, SW_MODEL_OBJECT_MATERIAL, i);
    if (!e) {
        ext = "VRMC_materials_mtoon";
        e = sw_model_find_extension(R->model, ext, SW_MODEL_OBJECT_MATERIAL, i);
    }
    *found = e != NULL;
    if (!e) return SW_OK;
    sw__scope(R, ext);
    cJSON* root = sw__json_parse(&R->J, e->json, NULL);
    sw_result r;
    if (!root && R->J.oom) r = sw__json_out_of_memory(&R->J);
    else if (!root) r = sw__json_fail(&R->J, NULL, "not valid JSON");
    else if (ext[0] == 'S') r = sw__read_sw(R, root, out);
    else r = sw__read_mtoon(R, root, out);
    sw__json_delete(root);
    return r;
}

/* The first materialProperties entry named as material i decides: read
   when its shader is VRM/MToon. */
static sw_result sw__read_properties(sw__reader* R, const cJSON* props, sw_toon_material* out) {
    sw__json* J = &R->J;
    const char* name = R->model->materials[R->material].name;
    for (sw__json_each it = sw__json_each_of(J, props); sw__json_next(J, &it);) {
        char where[64];
        snprintf(where, sizeof where, "extensions.VRM.materialProperties[%zu]", it.index);
        sw__scope(R, where);
        const char *entry_name, *shader;
        if (sw__json_expect_object(J, it.value) != SW_OK ||
            sw__json_string(J, it.value, "name", false, &entry_name) != SW_OK ||
            sw__json_string(J, it.value, "shader", false, &shader) != SW_OK)
            return SW_ERR_INVALID_DATA;
        if (!entry_name || strcmp(entry_name, name) != 0) continue;
        if (shader && strcmp(shader, "VRM/MToon") == 0) return sw__read_vrm0(R, it.value, out);
        return SW_OK;
    }
    return SW_OK;
}

sw_result sw_toon_read(const sw_model* model, sw_toon_material* out, sw_diag* diag) {
    SW_ASSERT(model && (out || model->material_count == 0));
    if (diag) {
        diag->result = SW_OK;
        diag->index = -1;
        diag->message[0] = '\0';
    }
    sw__reader R = {.model = model};
    sw__json* J = &R.J;
    sw__json_begin(J, model->path ? model->path : "(memory)", "toon materials", diag, NULL);
    for (size_t i = 0; i < model->material_count; i++) sw_toon_defaults(SW_TOON_BODY, &out[i]);

    /* VRM 0.x: the root extension's materialProperties, kept for the name match below. */
    cJSON* vrm0 = NULL;
    const cJSON* props = NULL;
    sw_result r = SW_OK;
    const sw_model_extension* root_ext = sw_model_find_extension(model, "VRM", SW_MODEL_OBJECT_MODEL, 0);
    if (root_ext) {
        sw__json_set_path(J, "extensions.VRM");
        vrm0 = sw__json_parse(J, root_ext->json, NULL);
        if (!vrm0 && J->oom) r = sw__json_out_of_memory(J);
        else if (!vrm0 || !sw__json_is_object(vrm0)) r = sw__json_fail(J, NULL, "expected an object");
        else r = sw__json_array(J, vrm0, "materialProperties", false, &props);
    }
    for (size_t i = 0; i < model->material_count && r == SW_OK; i++) {
        bool found;
        R.material = (uint32_t)i;
        r = sw__read_record(&R, &out[i], &found);
        if (r == SW_OK && !found && props && model->materials[i].name) r = sw__read_properties(&R, props, &out[i]);
    }
    sw__json_delete(vrm0);
    if (r != SW_OK) {
        for (size_t i = 0; i < model->material_count; i++) sw_toon_defaults(SW_TOON_BODY, &out[i]);
        return r;
    }
    if (J->warning_count && diag) {
        if (J->warning_count == 1)
            sw_diag_set(diag, SW_OK, -1, "%s", J->first_warning);
        else
            sw_diag_set(diag, SW_OK, -1, "%.200s (and %zu more warnings)", J->first_warning, J->warning_count - 1);
    }
    return SW_OK;
}
