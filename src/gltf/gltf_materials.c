/* glTF loader: samplers, images, textures and materials, with
   KHR_texture_transform, KHR_materials_unlit, KHR_materials_emissive_strength,
   VRMC_materials_hdr_emissiveMultiplier, KHR_materials_transmission,
   KHR_materials_volume and KHR_materials_ior (see gltf_internal.h). */
#include <string.h>

#include "gltf_internal.h"

/* ---- samplers, images, textures, materials -------------------------------------------- */

static bool sw__one_of(size_t v, const size_t* values, size_t count) {
    for (size_t i = 0; i < count; i++)
        if (v == values[i]) return true;
    return false;
}

sw_result sw__parse_samplers(sw__loader* L) {
    size_t n = L->samplers.count;
    if (n == 0) return SW_OK;
    sw_model_sampler* out = sw__array(L, L->arena, n, sizeof *out);
    if (!out) return L->diag.result;
    static const size_t mag[] = {9728, 9729};
    static const size_t min[] = {9728, 9729, 9984, 9985, 9986, 9987};
    static const size_t wrap[] = {33071, 33648, 10497};
    for (size_t i = 0; i < n; i++) {
        const cJSON* s = L->samplers.items[i];
        sw__path path = sw__pathf("samplers[%zu]", i);
        size_t mag_filter = 0, min_filter = 0, wrap_s = 10497, wrap_t = 10497;
        if (sw__get_uint(L, s, path.s, "magFilter", false, 65535, &mag_filter) != SW_OK ||
            sw__get_uint(L, s, path.s, "minFilter", false, 65535, &min_filter) != SW_OK ||
            sw__get_uint(L, s, path.s, "wrapS", false, 65535, &wrap_s) != SW_OK ||
            sw__get_uint(L, s, path.s, "wrapT", false, 65535, &wrap_t) != SW_OK)
            return L->diag.result;
        if (mag_filter && !sw__one_of(mag_filter, mag, 2))
            return sw__fail(L, SW_ERR_INVALID_DATA, sw__at(path.s, "magFilter").s, "%zu is not NEAREST or LINEAR",
                            mag_filter);
        if (min_filter && !sw__one_of(min_filter, min, 6))
            return sw__fail(L, SW_ERR_INVALID_DATA, sw__at(path.s, "minFilter").s, "%zu is not a minification filter",
                            min_filter);
        if (!sw__one_of(wrap_s, wrap, 3) || !sw__one_of(wrap_t, wrap, 3))
            return sw__fail(L, SW_ERR_INVALID_DATA, path.s, "wrapS/wrapT must be 33071, 33648 or 10497");
        out[i] = (sw_model_sampler){(int32_t)mag_filter, (int32_t)min_filter, (int32_t)wrap_s, (int32_t)wrap_t};
    }
    L->owner->model.samplers = out;
    L->owner->model.sampler_count = n;
    return SW_OK;
}

sw_result sw__parse_images(sw__loader* L) {
    size_t n = L->images.count;
    if (n == 0) return SW_OK;
    sw_model_image* out = sw__array(L, L->arena, n, sizeof *out);
    if (!out) return L->diag.result;
    for (size_t i = 0; i < n; i++) {
        const cJSON* im = L->images.items[i];
        sw__path path = sw__pathf("images[%zu]", i);
        const char *uri, *mime;
        int32_t view = -1;
        if (sw__get_name(L, im, path.s, &out[i].name) != SW_OK ||
            sw__get_string(L, im, path.s, "uri", false, &uri) != SW_OK ||
            sw__get_string(L, im, path.s, "mimeType", false, &mime) != SW_OK ||
            sw__get_index(L, im, path.s, "bufferView", false, &L->buffer_views, "bufferViews", &view) != SW_OK)
            return L->diag.result;
        sw_diag inner;
        if (uri && sw__check_uri_text(uri, strlen(uri), &inner) != SW_OK)
            return sw__fail_from(L, sw__at(path.s, "uri").s, &inner);
        if (uri && view >= 0) return sw__fail(L, SW_ERR_INVALID_DATA, path.s, "has both uri and bufferView");
        if (!uri && view < 0) return sw__fail(L, SW_ERR_INVALID_DATA, path.s, "has neither uri nor bufferView");
        if (view >= 0) {
            /* bufferViews were checked against their buffers when parsed. */
            const sw__gltf_buffer_view* v = &L->views[view];
            out[i].data = L->buffer_data[v->buffer] + v->byte_offset;
            out[i].data_size = v->byte_length;
            if (!mime) sw__warn(L, path.s, "an image in a bufferView should have a mimeType");
        }
        /* Image files are not opened here: a missing texture must not stop
           an animation from loading (sw_model_decode_image reports it). */
        out[i].uri = sw__strdup(L, uri);
        out[i].mime_type = sw__strdup(L, mime);
        if ((uri && !out[i].uri) || (mime && !out[i].mime_type)) return L->diag.result;
    }
    L->owner->model.images = out;
    L->owner->model.image_count = n;
    return SW_OK;
}

sw_result sw__parse_textures(sw__loader* L) {
    size_t n = L->textures.count;
    if (n == 0) return SW_OK;
    sw_model_texture* out = sw__array(L, L->arena, n, sizeof *out);
    if (!out) return L->diag.result;
    for (size_t i = 0; i < n; i++) {
        sw__path path = sw__pathf("textures[%zu]", i);
        if (sw__get_index(L, L->textures.items[i], path.s, "sampler", false, &L->samplers, "samplers",
                          &out[i].sampler) != SW_OK ||
            sw__get_index(L, L->textures.items[i], path.s, "source", false, &L->images, "images", &out[i].image) !=
                SW_OK)
            return L->diag.result;
    }
    L->owner->model.textures = out;
    L->owner->model.texture_count = n;
    return SW_OK;
}

/* A textureInfo (`key` of `object`), with KHR_texture_transform; `scale_key`
   is "scale" (normalTexture), "strength" (occlusionTexture) or NULL. */
static sw_result sw__parse_texture_ref(sw__loader* L, const cJSON* object, const char* path, const char* key,
                                       const char* scale_key, sw_model_texture_ref* out) {
    *out = (sw_model_texture_ref){.texture = -1, .scale = 1.0f, .uv_scale = {1.0f, 1.0f}};
    const cJSON* info;
    if (sw__get_object(L, object, path, key, false, &info) != SW_OK) return L->diag.result;
    if (!info) return SW_OK;
    sw__path p = sw__at(path, key);
    size_t texcoord = 0;
    if (sw__get_uint(L, info, p.s, "texCoord", false, SW__MAX_SETS - 1, &texcoord) != SW_OK ||
        (scale_key && sw__get_float(L, info, p.s, scale_key, &out->scale) != SW_OK) ||
        sw__get_index(L, info, p.s, "index", true, &L->textures, "textures", &out->texture) != SW_OK)
        return L->diag.result;
    out->texcoord = (int32_t)texcoord;
    const cJSON *extensions, *transform;
    if (sw__get_object(L, info, p.s, "extensions", false, &extensions) != SW_OK) return L->diag.result;
    if (!extensions) return SW_OK;
    sw__path ep = sw__at(p.s, "extensions");
    if (sw__get_object(L, extensions, ep.s, "KHR_texture_transform", false, &transform) != SW_OK) return L->diag.result;
    if (!transform) return SW_OK;
    sw__path tp = sw__at(ep.s, "KHR_texture_transform");
    out->has_transform = true;
    texcoord = (size_t)out->texcoord;
    if (sw__get_floats(L, transform, tp.s, "offset", out->offset, 2) != SW_OK ||
        sw__get_float(L, transform, tp.s, "rotation", &out->rotation) != SW_OK ||
        sw__get_floats(L, transform, tp.s, "scale", out->uv_scale, 2) != SW_OK ||
        sw__get_uint(L, transform, tp.s, "texCoord", false, SW__MAX_SETS - 1, &texcoord) != SW_OK)
        return L->diag.result;
    out->texcoord = (int32_t)texcoord;
    return SW_OK;
}

/* One emissive multiplier extension of a material: `key` of `object` in
   `extensions`, if there. A number below 0 (or not finite) is ignored with a
   warning: the emission stays as the factor says. */
static sw_result sw__parse_emissive_multiplier(sw__loader* L, const cJSON* extensions, const char* path,
                                               const char* extension, const char* key, sw_model_material* mat) {
    const cJSON* object;
    if (sw__get_object(L, extensions, path, extension, false, &object) != SW_OK) return L->diag.result;
    if (!object) return SW_OK;
    sw__path ep = sw__at(path, extension);
    const cJSON* value = sw__member(object, key);
    if (!value) return SW_OK; /* the schema's default, 1 */
    if (!cJSON_IsNumber(value) || !(value->valuedouble >= 0.0) || value->valuedouble > 3.0e38) {
        sw__warn(L, sw__at(ep.s, key).s, "must be a number >= 0; ignored");
        return SW_OK;
    }
    mat->emissive_strength = (float)value->valuedouble;
    mat->has_emissive_strength = true;
    return SW_OK;
}

/* A number of `object` within [lo, hi] (hi_open: below hi), else an
   error naming its path. */
static sw_result sw__get_bounded(sw__loader* L, const cJSON* object, const char* path, const char* key, float lo,
                                 float hi, bool hi_open, float* inout) {
    if (sw__get_float(L, object, path, key, inout) != SW_OK) return L->diag.result;
    if (*inout < lo || (hi_open ? *inout >= hi : *inout > hi))
        return sw__fail(L, SW_ERR_INVALID_DATA, sw__at(path, key).s, "%g is outside %g..%g", (double)*inout, (double)lo,
                        (double)hi);
    return SW_OK;
}

/* KHR_materials_transmission, KHR_materials_volume and KHR_materials_ior
   of one material's `extensions` (path ep). */
static sw_result sw__parse_transmission(sw__loader* L, const cJSON* extensions, const char* ep, sw_model_material* mat) {
    const cJSON *transmission, *volume, *ior;
    if (sw__get_object(L, extensions, ep, "KHR_materials_transmission", false, &transmission) != SW_OK ||
        sw__get_object(L, extensions, ep, "KHR_materials_volume", false, &volume) != SW_OK ||
        sw__get_object(L, extensions, ep, "KHR_materials_ior", false, &ior) != SW_OK)
        return L->diag.result;
    if (transmission) {
        sw__path tp = sw__at(ep, "KHR_materials_transmission");
        if (sw__get_bounded(L, transmission, tp.s, "transmissionFactor", 0.0f, 1.0f, false, &mat->transmission_factor) !=
                SW_OK ||
            sw__parse_texture_ref(L, transmission, tp.s, "transmissionTexture", NULL, &mat->transmission_texture) != SW_OK)
            return L->diag.result;
    }
    if (volume) {
        sw__path vp = sw__at(ep, "KHR_materials_volume");
        if (sw__get_bounded(L, volume, vp.s, "thicknessFactor", 0.0f, 3.0e38f, false, &mat->thickness_factor) != SW_OK ||
            sw__parse_texture_ref(L, volume, vp.s, "thicknessTexture", NULL, &mat->thickness_texture) != SW_OK ||
            sw__get_floats(L, volume, vp.s, "attenuationColor", mat->attenuation_color, 3) != SW_OK)
            return L->diag.result;
        if (sw__member(volume, "attenuationDistance")) {
            if (sw__get_float(L, volume, vp.s, "attenuationDistance", &mat->attenuation_distance) != SW_OK) return L->diag.result;
            if (!(mat->attenuation_distance > 0.0f))
                return sw__fail(L, SW_ERR_INVALID_DATA, sw__at(vp.s, "attenuationDistance").s, "must be > 0");
        }
        for (int k = 0; k < 3; k++)
            if (mat->attenuation_color[k] < 0.0f || mat->attenuation_color[k] > 1.0f)
                return sw__fail(L, SW_ERR_INVALID_DATA, sw__at(vp.s, "attenuationColor").s, "components must be in 0..1");
        if (!transmission) sw__warn(L, vp.s, "without KHR_materials_transmission a volume changes nothing");
    }
    if (ior) {
        sw__path ip = sw__at(ep, "KHR_materials_ior");
        mat->ior = 1.5f;
        if (sw__get_float(L, ior, ip.s, "ior", &mat->ior) != SW_OK) return L->diag.result;
        if (mat->ior != 0.0f && mat->ior < 1.0f)
            return sw__fail(L, SW_ERR_INVALID_DATA, sw__at(ip.s, "ior").s, "must be 0 or >= 1");
    }
    return SW_OK;
}

/* SW_materials_snow (docs/extensions.md): the snow cover's values. */
static sw_result sw__parse_snow(sw__loader* L, const cJSON* extensions, const char* ep, sw_model_material* mat) {
    const cJSON* snow;
    if (sw__get_object(L, extensions, ep, "SW_materials_snow", false, &snow) != SW_OK) return L->diag.result;
    if (!snow) return SW_OK;
    sw__path sp = sw__at(ep, "SW_materials_snow");
    mat->snow = true;
    mat->snow_cover_color[0] = 0.9f;
    mat->snow_cover_color[1] = 0.92f;
    mat->snow_cover_color[2] = 0.97f;
    mat->snow_threshold = 0.53f;
    mat->snow_width = 0.34f;
    mat->snow_roughness = 0.8f;
    mat->snow_sparkle = 1.0f;
    if (sw__get_floats(L, snow, sp.s, "coverColor", mat->snow_cover_color, 3) != SW_OK ||
        sw__get_bounded(L, snow, sp.s, "threshold", -1.0f, 1.0f, false, &mat->snow_threshold) != SW_OK ||
        sw__get_bounded(L, snow, sp.s, "width", 0.0f, 2.0f, false, &mat->snow_width) != SW_OK ||
        sw__get_bounded(L, snow, sp.s, "roughness", 0.0f, 1.0f, false, &mat->snow_roughness) != SW_OK ||
        sw__get_bounded(L, snow, sp.s, "sparkle", 0.0f, 100.0f, false, &mat->snow_sparkle) != SW_OK)
        return L->diag.result;
    for (int k = 0; k < 3; k++)
        if (!(mat->snow_cover_color[k] >= 0.0f && mat->snow_cover_color[k] <= 1.0f))
            return sw__fail(L, SW_ERR_INVALID_DATA, sw__at(sp.s, "coverColor").s, "components must be in 0..1");
    return SW_OK;
}

sw_result sw__parse_materials(sw__loader* L) {
    size_t n = L->materials.count;
    if (n == 0) return SW_OK;
    sw_model_material* out = sw__array(L, L->arena, n, sizeof *out);
    if (!out) return L->diag.result;
    for (size_t i = 0; i < n; i++) {
        const cJSON* m = L->materials.items[i];
        sw__path path = sw__pathf("materials[%zu]", i);
        sw_model_material* mat = &out[i];
        *mat = (sw_model_material){
            .base_color_factor = {1.0f, 1.0f, 1.0f, 1.0f}, .metallic_factor = 1.0f, .roughness_factor = 1.0f,
            .emissive_strength = 1.0f, .alpha_mode = SW_MODEL_ALPHA_OPAQUE, .alpha_cutoff = 0.5f,
            .transmission_texture = {.texture = -1}, .thickness_texture = {.texture = -1},
            .attenuation_color = {1.0f, 1.0f, 1.0f}};
        const cJSON *pbr, *extensions;
        const char* alpha_mode;
        if (sw__get_name(L, m, path.s, &mat->name) != SW_OK ||
            sw__get_object(L, m, path.s, "pbrMetallicRoughness", false, &pbr) != SW_OK)
            return L->diag.result;
        sw__path pp = sw__at(path.s, "pbrMetallicRoughness");
        if (sw__get_floats(L, pbr, pp.s, "baseColorFactor", mat->base_color_factor, 4) != SW_OK ||
            sw__parse_texture_ref(L, pbr, pp.s, "baseColorTexture", NULL, &mat->base_color_texture) != SW_OK ||
            sw__get_float(L, pbr, pp.s, "metallicFactor", &mat->metallic_factor) != SW_OK ||
            sw__get_float(L, pbr, pp.s, "roughnessFactor", &mat->roughness_factor) != SW_OK ||
            sw__parse_texture_ref(L, pbr, pp.s, "metallicRoughnessTexture", NULL, &mat->metallic_roughness_texture) !=
                SW_OK ||
            sw__parse_texture_ref(L, m, path.s, "normalTexture", "scale", &mat->normal_texture) != SW_OK ||
            sw__parse_texture_ref(L, m, path.s, "occlusionTexture", "strength", &mat->occlusion_texture) != SW_OK ||
            sw__parse_texture_ref(L, m, path.s, "emissiveTexture", NULL, &mat->emissive_texture) != SW_OK ||
            sw__get_floats(L, m, path.s, "emissiveFactor", mat->emissive_factor, 3) != SW_OK ||
            sw__get_string(L, m, path.s, "alphaMode", false, &alpha_mode) != SW_OK ||
            sw__get_float(L, m, path.s, "alphaCutoff", &mat->alpha_cutoff) != SW_OK ||
            sw__get_bool(L, m, path.s, "doubleSided", &mat->double_sided) != SW_OK ||
            sw__get_object(L, m, path.s, "extensions", false, &extensions) != SW_OK)
            return L->diag.result;
        if (alpha_mode) {
            if (strcmp(alpha_mode, "OPAQUE") == 0) mat->alpha_mode = SW_MODEL_ALPHA_OPAQUE;
            else if (strcmp(alpha_mode, "MASK") == 0) mat->alpha_mode = SW_MODEL_ALPHA_MASK;
            else if (strcmp(alpha_mode, "BLEND") == 0) mat->alpha_mode = SW_MODEL_ALPHA_BLEND;
            else
                return sw__fail(L, SW_ERR_INVALID_DATA, sw__at(path.s, "alphaMode").s,
                                "'%s' is not OPAQUE, MASK or BLEND", alpha_mode);
        }
        if (mat->alpha_cutoff < 0.0f)
            return sw__fail(L, SW_ERR_INVALID_DATA, sw__at(path.s, "alphaCutoff").s, "must be >= 0");
        if (extensions) {
            sw__path ep = sw__at(path.s, "extensions");
            const cJSON* unlit;
            if (sw__get_object(L, extensions, ep.s, "KHR_materials_unlit", false, &unlit) != SW_OK)
                return L->diag.result;
            mat->unlit = unlit != NULL;
            /* VRM's multiplier after the Khronos one, so that it wins as in
               three-vrm (its plugin runs after three.js's). */
            if (sw__parse_emissive_multiplier(L, extensions, ep.s, "KHR_materials_emissive_strength",
                                              "emissiveStrength", mat) != SW_OK ||
                sw__parse_emissive_multiplier(L, extensions, ep.s, "VRMC_materials_hdr_emissiveMultiplier",
                                              "emissiveMultiplier", mat) != SW_OK ||
                sw__parse_transmission(L, extensions, ep.s, mat) != SW_OK ||
                sw__parse_snow(L, extensions, ep.s, mat) != SW_OK)
                return L->diag.result;
        }
    }
    L->owner->model.materials = out;
    L->owner->model.material_count = n;
    return SW_OK;
}

