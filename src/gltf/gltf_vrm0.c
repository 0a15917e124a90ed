/* VRM 0.x facing (gltf.h, vrm0_keep_facing): VRM 0.x models face −Z, VRM
   1.0 and the rest of sinew expect +Z. The turn Y = 180° about Y maps
   (x, y, z) to (−x, y, −z); as a quaternion it is (0, 1, 0, 0).

   Only root nodes change: world(n) = Y · (the file's world(n)) for every
   node, so every skinned vertex (world(joint) · inverse bind · v) and every
   rigid one turns alike while inverse binds, vertices and node-space data
   (spring colliders, look-at offsets, first-person offsets) stay as the
   file has them. Clips that drive a root's translation or rotation get the
   same premultiplication, key by key (a linear map, so CUBICSPLINE
   tangents turn like values and rotation keys stay unit). */
#include <string.h>

#include "gltf_internal.h"

/* Y · q for q = (x, y, z, w): the quaternion product (0, 1, 0, 0) ⊗ q. */
static void sw__turn_quat(float* q) {
    float x = q[0], y = q[1], z = q[2], w = q[3];
    q[0] = z;
    q[1] = w;
    q[2] = -x;
    q[3] = -y;
}

static void sw__turn_vec3(float* v) {
    v[0] = -v[0];
    v[2] = -v[2];
}

static bool sw__is_vrm0(const sw__loader* L) {
    const cJSON* ext = cJSON_GetObjectItemCaseSensitive(L->root, "extensions");
    if (!cJSON_IsObject(ext)) return false;
    return cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(ext, "VRM")) &&
           !cJSON_GetObjectItemCaseSensitive(ext, "VRMC_vrm");
}

/* The VRM 0.x shaders whose materials sinew draws as they are meant:
   MToon (sw_toon_read), UniVRM's unlit ones (their glTF material carries
   KHR_materials_unlit), and the glTF material itself (VRM_USE_GLTFSHADER,
   Unity's Standard as UniVRM writes it). */
static const char* const sw__vrm0_shaders[] = {
    "VRM/MToon",       "VRM/UnlitTexture",   "VRM/UnlitCutout",    "VRM/UnlitTransparent",
    "VRM/UnlitTransparentZWrite", "VRM_USE_GLTFSHADER", "Standard",
};

void sw__warn_vrm0_shaders(sw__loader* L) {
    if (!sw__is_vrm0(L)) return;
    const cJSON* vrm = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(L->root, "extensions"), "VRM");
    const cJSON* props = cJSON_GetObjectItemCaseSensitive(vrm, "materialProperties");
    if (!cJSON_IsArray(props)) return; /* the toon reader reports a wrong type */
    size_t i = 0;
    const cJSON* entry;
    cJSON_ArrayForEach(entry, props) {
        const cJSON* shader = cJSON_GetObjectItemCaseSensitive(entry, "shader");
        if (cJSON_IsString(shader) && shader->valuestring) {
            bool known = false;
            for (size_t k = 0; k < sizeof sw__vrm0_shaders / sizeof sw__vrm0_shaders[0] && !known; k++)
                known = strcmp(shader->valuestring, sw__vrm0_shaders[k]) == 0;
            if (!known)
                sw__warn(L, sw__pathf("extensions.VRM.materialProperties[%zu].shader", i).s,
                         "\"%.60s\" is not supported; the material is drawn as its glTF material",
                         shader->valuestring);
        }
        i++;
    }
}

sw_result sw__turn_vrm0(sw__loader* L) {
    if (!L->vrm0_turn || !sw__is_vrm0(L)) return SW_OK;
    for (size_t i = 0; i < L->nodes.count; i++) {
        sw_model_node* n = &L->nodes_out[i];
        if (n->parent >= 0) continue;
        if (n->has_matrix) {
            for (int c = 0; c < 4; c++) { /* rows x and z of Y · M */
                n->matrix.m[0][c] = -n->matrix.m[0][c];
                n->matrix.m[2][c] = -n->matrix.m[2][c];
            }
        } else {
            n->trs.translation.x = -n->trs.translation.x;
            n->trs.translation.z = -n->trs.translation.z;
            float q[4] = {n->trs.rotation.x, n->trs.rotation.y, n->trs.rotation.z, n->trs.rotation.w};
            sw__turn_quat(q);
            n->trs.rotation = (sw_quat){q[0], q[1], q[2], q[3]};
        }
    }
    sw_model* model = &L->owner->model;
    for (size_t c = 0; c < model->animation_count; c++) {
        const sw_clip* clip = &model->animations[c];
        for (size_t t = 0; t < clip->track_count; t++) {
            const sw_track* track = &clip->tracks[t];
            if (track->target >= L->nodes.count || L->nodes_out[track->target].parent >= 0) continue;
            if (track->path != SW_PATH_TRANSLATION && track->path != SW_PATH_ROTATION) continue;
            size_t items = track->key_count * (track->interpolation == SW_INTERP_CUBICSPLINE ? 3 : 1);
            float* v = (float*)track->values; /* the loader's own arena memory, one array per channel */
            for (size_t k = 0; k < items; k++) {
                if (track->path == SW_PATH_ROTATION) sw__turn_quat(&v[4 * k]);
                else sw__turn_vec3(&v[3 * k]);
            }
        }
    }
    return SW_OK;
}
