/* glTF loader: KHR_lights_punctual (see gltf_internal.h). The file's
   lights (the root extension's "lights") become one sw_model_light per
   node that names one (nodes[i].extensions.KHR_lights_punctual.light). */
#include <math.h>
#include <string.h>

#include "gltf_internal.h"

#define SW__HALF_PI 1.5707963267948966

/* lights[i] of the root extension into *out (node and source left). */
static sw_result sw__parse_light(sw__loader* L, const cJSON* light, const char* path, sw_model_light* out) {
    *out = (sw_model_light){.color = {1.0f, 1.0f, 1.0f}, .intensity = 1.0f, .outer_cone_angle = (float)(SW__HALF_PI / 2)};
    const char* type;
    const cJSON* spot;
    if (sw__get_name(L, light, path, &out->name) != SW_OK ||
        sw__get_string(L, light, path, "type", true, &type) != SW_OK ||
        sw__get_floats(L, light, path, "color", out->color, 3) != SW_OK ||
        sw__get_float(L, light, path, "intensity", &out->intensity) != SW_OK ||
        sw__get_float(L, light, path, "range", &out->range) != SW_OK ||
        sw__get_object(L, light, path, "spot", false, &spot) != SW_OK)
        return L->diag.result;
    if (strcmp(type, "directional") == 0) out->type = SW_MODEL_LIGHT_DIRECTIONAL;
    else if (strcmp(type, "point") == 0) out->type = SW_MODEL_LIGHT_POINT;
    else if (strcmp(type, "spot") == 0) out->type = SW_MODEL_LIGHT_SPOT;
    else return sw__fail(L, SW_ERR_INVALID_DATA, sw__at(path, "type").s, "'%s' is not directional, point or spot", type);
    for (int k = 0; k < 3; k++)
        if (out->color[k] < 0.0f) return sw__fail(L, SW_ERR_INVALID_DATA, sw__at(path, "color").s, "must be >= 0");
    if (out->intensity < 0.0f) return sw__fail(L, SW_ERR_INVALID_DATA, sw__at(path, "intensity").s, "must be >= 0");
    if (sw__member(light, "range") && !(out->range > 0.0f))
        return sw__fail(L, SW_ERR_INVALID_DATA, sw__at(path, "range").s, "must be > 0");
    if (out->type == SW_MODEL_LIGHT_DIRECTIONAL && out->range > 0.0f) {
        sw__warn(L, sw__at(path, "range").s, "a directional light has no range; ignored");
        out->range = 0.0f;
    }
    if (out->type == SW_MODEL_LIGHT_SPOT) {
        if (!spot) return sw__fail(L, SW_ERR_INVALID_DATA, path, "a spot light needs \"spot\"");
        sw__path sp = sw__at(path, "spot");
        if (sw__get_float(L, spot, sp.s, "innerConeAngle", &out->inner_cone_angle) != SW_OK ||
            sw__get_float(L, spot, sp.s, "outerConeAngle", &out->outer_cone_angle) != SW_OK)
            return L->diag.result;
        if (!(out->inner_cone_angle >= 0.0f && out->inner_cone_angle < out->outer_cone_angle &&
              out->outer_cone_angle <= (float)SW__HALF_PI))
            return sw__fail(L, SW_ERR_INVALID_DATA, sp.s,
                            "cone angles must hold 0 <= innerConeAngle < outerConeAngle <= pi/2 (%g, %g)",
                            (double)out->inner_cone_angle, (double)out->outer_cone_angle);
    }
    return SW_OK;
}

/* nodes[i].extensions.KHR_lights_punctual.light, or -1. */
static sw_result sw__node_light(sw__loader* L, size_t i, size_t light_count, int32_t* out) {
    *out = -1;
    const cJSON *extensions = sw__member(L->nodes.items[i], "extensions"), *ext;
    sw__path path = sw__pathf("nodes[%zu]", i);
    if (!cJSON_IsObject(extensions)) return SW_OK; /* not an object: warned about where extensions are kept */
    sw__path ep = sw__at(path.s, "extensions");
    if (sw__get_object(L, extensions, ep.s, "KHR_lights_punctual", false, &ext) != SW_OK) return L->diag.result;
    if (!ext) return SW_OK;
    sw__path lp = sw__at(ep.s, "KHR_lights_punctual");
    const cJSON* index = sw__member(ext, "light");
    if (!index) return sw__fail(L, SW_ERR_INVALID_DATA, lp.s, "missing \"light\"");
    uint32_t light;
    if (sw__value_index(L, index, sw__at(lp.s, "light").s, light_count, "KHR_lights_punctual.lights", &light) != SW_OK)
        return L->diag.result;
    *out = (int32_t)light;
    return SW_OK;
}

sw_result sw__parse_lights(sw__loader* L) {
    const cJSON *extensions = sw__member(L->root, "extensions"), *root = NULL, *array = NULL;
    if (cJSON_IsObject(extensions) && sw__get_object(L, extensions, "extensions", "KHR_lights_punctual", false, &root) != SW_OK)
        return L->diag.result;
    const char* root_path = "extensions.KHR_lights_punctual";
    if (root && sw__get_array(L, root, root_path, "lights", false, &array) != SW_OK) return L->diag.result;
    const size_t defined = array ? (size_t)cJSON_GetArraySize(array) : 0;
    sw_model_light* lights = NULL;
    if (defined) {
        lights = sw__array(L, &L->scratch, defined, sizeof *lights);
        if (!lights) return L->diag.result;
        size_t i = 0;
        for (const cJSON* item = array->child; item; item = item->next, i++) {
            sw__path path = sw__pathf("%s.lights[%zu]", root_path, i);
            if (!cJSON_IsObject(item)) return sw__fail(L, SW_ERR_INVALID_DATA, path.s, "expected an object");
            if (sw__parse_light(L, item, path.s, &lights[i]) != SW_OK) return L->diag.result;
            lights[i].source = (uint32_t)i;
        }
    }
    /* One entry per node naming a light (a node index is checked against
       `defined`, so a file with nodes naming lights but none defined fails). */
    size_t placed = 0;
    for (size_t n = 0; n < L->nodes.count; n++) {
        int32_t light;
        if (sw__node_light(L, n, defined, &light) != SW_OK) return L->diag.result;
        placed += light >= 0;
    }
    if (!placed) {
        if (defined) sw__warn(L, root_path, "%zu lights defined but no node carries one: none placed", defined);
        return SW_OK;
    }
    sw_model_light* out = sw__array(L, L->arena, placed, sizeof *out);
    if (!out) return L->diag.result;
    size_t k = 0;
    for (size_t n = 0; n < L->nodes.count; n++) {
        int32_t light;
        if (sw__node_light(L, n, defined, &light) != SW_OK) return L->diag.result;
        if (light < 0) continue;
        out[k] = lights[light];
        out[k].node = (int32_t)n; /* a file index: sw__order_nodes renumbers it */
        k++;
    }
    L->owner->model.lights = out;
    L->owner->model.light_count = placed;
    return SW_OK;
}
