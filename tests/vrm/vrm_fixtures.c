/* The VRM test avatars (vrm_fixtures.h). */
#include "vrm_fixtures.h"

#include "test_glb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct builder {
    vrm_fixture* f;
    cJSON *views, *accessors;
} builder;

/* Appends bytes (4-aligned) as a bufferView and an accessor; its index. */
static int add_accessor(builder* b, const void* data, size_t bytes, int component, const char* type, int count,
                        const float* min, const float* max) {
    size_t at = (b->f->bin_size + 3) & ~(size_t)3;
    uint8_t* p = realloc(b->f->bin, at + bytes);
    if (!p) return -1;
    memset(p + b->f->bin_size, 0, at - b->f->bin_size);
    memcpy(p + at, data, bytes);
    b->f->bin = p;
    b->f->bin_size = at + bytes;
    cJSON* view = cJSON_CreateObject();
    cJSON_AddNumberToObject(view, "buffer", 0);
    cJSON_AddNumberToObject(view, "byteOffset", (double)at);
    cJSON_AddNumberToObject(view, "byteLength", (double)bytes);
    cJSON_AddItemToArray(b->views, view);
    cJSON* acc = cJSON_CreateObject();
    cJSON_AddNumberToObject(acc, "bufferView", cJSON_GetArraySize(b->views) - 1);
    cJSON_AddNumberToObject(acc, "componentType", component);
    cJSON_AddStringToObject(acc, "type", type);
    cJSON_AddNumberToObject(acc, "count", count);
    if (min && max) {
        cJSON_AddItemToObject(acc, "min", cJSON_CreateFloatArray(min, 3));
        cJSON_AddItemToObject(acc, "max", cJSON_CreateFloatArray(max, 3));
    }
    cJSON_AddItemToArray(b->accessors, acc);
    return cJSON_GetArraySize(b->accessors) - 1;
}

static int add_vec3(builder* b, const float* v, int count, bool bounds) {
    float lo[3] = {1e30f, 1e30f, 1e30f}, hi[3] = {-1e30f, -1e30f, -1e30f};
    for (int i = 0; i < count; i++)
        for (int c = 0; c < 3; c++) {
            if (v[3 * i + c] < lo[c]) lo[c] = v[3 * i + c];
            if (v[3 * i + c] > hi[c]) hi[c] = v[3 * i + c];
        }
    return add_accessor(b, v, (size_t)count * 12, 5126, "VEC3", count, bounds ? lo : NULL, bounds ? hi : NULL);
}

static cJSON* parse(const char* text) { return cJSON_Parse(text); }

/* The node tree: name, parent (file index), translation in the 1.0 avatar. */
static const struct {
    const char* name;
    int parent;
    float t[3];
} nodes[VRM_FX_NODE_COUNT] = {
    {"Root", -1, {0.3f, 0.0f, 0.2f}},
    {"Hips", VRM_FX_ROOT, {0.0f, 1.0f, 0.0f}},
    {"Spine", VRM_FX_HIPS, {0.0f, 0.1f, 0.0f}},
    {"Chest", VRM_FX_SPINE, {0.0f, 0.15f, 0.0f}},
    {"Neck", VRM_FX_CHEST, {0.0f, 0.25f, 0.0f}},
    {"Head", VRM_FX_NECK, {0.0f, 0.1f, 0.0f}},
    {"L_UpperArm", VRM_FX_CHEST, {0.2f, 0.2f, 0.0f}},
    {"L_LowerArm", VRM_FX_L_UPPER_ARM, {0.3f, 0.0f, 0.0f}},
    {"L_Hand", VRM_FX_L_LOWER_ARM, {0.25f, 0.0f, 0.0f}},
    {"R_UpperArm", VRM_FX_CHEST, {-0.2f, 0.2f, 0.0f}},
    {"R_LowerArm", VRM_FX_R_UPPER_ARM, {-0.3f, 0.0f, 0.0f}},
    {"R_Hand", VRM_FX_R_LOWER_ARM, {-0.25f, 0.0f, 0.0f}},
    {"L_UpperLeg", VRM_FX_HIPS, {0.1f, -0.05f, 0.0f}},
    {"L_LowerLeg", VRM_FX_L_UPPER_LEG, {0.0f, -0.45f, 0.02f}},
    {"L_Foot", VRM_FX_L_LOWER_LEG, {0.0f, -0.45f, -0.02f}},
    {"R_UpperLeg", VRM_FX_HIPS, {-0.1f, -0.05f, 0.0f}},
    {"R_LowerLeg", VRM_FX_R_UPPER_LEG, {0.0f, -0.45f, 0.02f}},
    {"R_Foot", VRM_FX_R_LOWER_LEG, {0.0f, -0.45f, -0.02f}},
    {"Face", VRM_FX_HEAD, {0.0f, 0.0f, 0.0f}},
    {"Body", VRM_FX_ROOT, {0.0f, 0.0f, 0.0f}},
    {"L_Thumb1", VRM_FX_L_HAND, {0.03f, 0.0f, 0.03f}},
    {"L_Thumb2", VRM_FX_L_THUMB1, {0.03f, 0.0f, 0.0f}},
};

static const char* const bones1[][2] = {
    {"hips", "1"},          {"spine", "2"},          {"chest", "3"},         {"neck", "4"},
    {"head", "5"},          {"leftUpperArm", "6"},   {"leftLowerArm", "7"},  {"leftHand", "8"},
    {"rightUpperArm", "9"}, {"rightLowerArm", "10"}, {"rightHand", "11"},    {"leftUpperLeg", "12"},
    {"leftLowerLeg", "13"}, {"leftFoot", "14"},      {"rightUpperLeg", "15"}, {"rightLowerLeg", "16"},
    {"rightFoot", "17"},
};

static const char* const vrm1_text =
    "{\"specVersion\":\"1.0\","
    "\"meta\":{\"name\":\"Tester\",\"version\":\"1.2\",\"authors\":[\"Ann\",\"Bo\"],"
    "\"copyrightInformation\":\"(c) nobody\",\"contactInformation\":\"mail\",\"references\":[\"ref\"],"
    "\"licenseUrl\":\"https://vrm.dev/licenses/1.0/\",\"avatarPermission\":\"everyone\","
    "\"allowExcessivelyViolentUsage\":true,\"commercialUsage\":\"corporation\",\"allowRedistribution\":true,"
    "\"modification\":\"allowModification\",\"otherLicenseUrl\":\"https://example.org/l\"},"
    "\"expressions\":{\"preset\":{"
    "\"happy\":{\"morphTargetBinds\":[{\"node\":18,\"index\":2,\"weight\":1}],"
    "\"materialColorBinds\":[{\"material\":0,\"type\":\"color\",\"targetValue\":[1,0,0,1]}],"
    "\"overrideBlink\":\"block\",\"overrideMouth\":\"blend\"},"
    "\"blink\":{\"morphTargetBinds\":[{\"node\":18,\"index\":1,\"weight\":1}],\"overrideBlink\":\"block\"},"
    "\"aa\":{\"morphTargetBinds\":[{\"node\":18,\"index\":0,\"weight\":0.8}]},"
    "\"blinkLeft\":{\"isBinary\":true,\"morphTargetBinds\":[{\"node\":18,\"index\":1,\"weight\":0.5}]},"
    "\"surprised\":{\"overrideBlink\":\"blend\","
    "\"textureTransformBinds\":[{\"material\":1,\"scale\":[2,2],\"offset\":[0.5,0]}]},"
    "\"angry\":{\"isBinary\":true,\"overrideMouth\":\"block\"}},"
    "\"custom\":{\"wink\":{\"morphTargetBinds\":[{\"node\":18,\"index\":1,\"weight\":0.3}],"
    "\"materialColorBinds\":[{\"material\":1,\"type\":\"emissionColor\",\"targetValue\":[0,1,0,1]}],"
    "\"overrideBlink\":\"blend\"}}},"
    "\"lookAt\":{\"type\":\"expression\",\"offsetFromHeadBone\":[0,0.07,0.02],"
    "\"rangeMapHorizontalOuter\":{\"inputMaxValue\":45,\"outputScale\":1},"
    "\"rangeMapVerticalUp\":{\"inputMaxValue\":30,\"outputScale\":0.5}},"
    "\"firstPerson\":{\"meshAnnotations\":[{\"node\":18,\"type\":\"thirdPersonOnly\"},{\"node\":19,\"type\":"
    "\"both\"}]}}";

static const char* const vrm0_text =
    "{\"specVersion\":\"0.0\",\"exporterVersion\":\"test\","
    "\"meta\":{\"title\":\"Old\",\"version\":\"0.9\",\"author\":\"Cy\",\"contactInformation\":\"c\","
    "\"reference\":\"r\",\"texture\":-1,\"allowedUserName\":\"Everyone\",\"violentUssageName\":\"Disallow\","
    "\"sexualUssageName\":\"Disallow\",\"commercialUssageName\":\"Allow\",\"otherPermissionUrl\":\"\","
    "\"licenseName\":\"CC_BY\",\"otherLicenseUrl\":\"\"},"
    "\"blendShapeMaster\":{\"blendShapeGroups\":["
    "{\"name\":\"Joy\",\"presetName\":\"joy\",\"binds\":[{\"mesh\":0,\"index\":2,\"weight\":100}],"
    "\"materialValues\":[{\"materialName\":\"Skin\",\"propertyName\":\"_Color\",\"targetValue\":[1,0,0,1]}]},"
    "{\"name\":\"Blink\",\"presetName\":\"blink\",\"binds\":[{\"mesh\":0,\"index\":1,\"weight\":100}]},"
    "{\"name\":\"A\",\"presetName\":\"a\",\"binds\":[{\"mesh\":0,\"index\":0,\"weight\":80}]},"
    "{\"name\":\"Blink_L\",\"presetName\":\"blink_l\",\"isBinary\":true,"
    "\"binds\":[{\"mesh\":0,\"index\":1,\"weight\":50}]},"
    "{\"name\":\"Uv\",\"presetName\":\"unknown\",\"materialValues\":[{\"materialName\":\"Cloth\","
    "\"propertyName\":\"_MainTex_ST\",\"targetValue\":[2,2,0.5,0]}]}]},"
    "\"firstPerson\":{\"firstPersonBone\":5,\"firstPersonBoneOffset\":{\"x\":0,\"y\":0.07,\"z\":0.02},"
    "\"meshAnnotations\":[{\"mesh\":0,\"firstPersonFlag\":\"ThirdPersonOnly\"}],"
    "\"lookAtTypeName\":\"BlendShape\",\"lookAtHorizontalOuter\":{\"curve\":[0,0,0,1,1,1,1,0],\"xRange\":45,"
    "\"yRange\":1}}}";

int vrm_fixture_make(vrm_fixture* f, int version) {
    memset(f, 0, sizeof *f);
    const float s = version == 0 ? -1.0f : 1.0f; /* x and z of everything: 0.x faces −Z */
    builder b = {f, cJSON_CreateArray(), cJSON_CreateArray()};
    cJSON* doc = cJSON_CreateObject();
    f->json = doc;
    cJSON_AddItemToObject(doc, "asset", parse("{\"version\":\"2.0\",\"generator\":\"sinew vrm test\"}"));
    /* face: nose, left cheek, right cheek, brow */
    const float face[] = {0, 0.05f, VRM_FX_NOSE_Z * s, -0.05f * s, 0, 0.05f * s, 0.05f * s, 0, 0.05f * s, 0, 0.1f,
                          0.05f * s};
    const uint32_t face_indices[] = {0, 1, 2, 0, 2, 3};
    int face_pos = add_vec3(&b, face, 4, true);
    int face_idx = add_accessor(&b, face_indices, sizeof face_indices, 5125, "SCALAR", 6, NULL, NULL);
    int targets[3];
    for (int t = 0; t < 3; t++) {
        float d[12] = {0};
        d[3 * (t + 1) + 1] = 0.01f * (float)(t + 1);
        targets[t] = add_vec3(&b, d, 4, true);
    }
    /* body: chest front, hip side, head front; skinned to hips, chest, head */
    const float body[] = {0, 1.25f, 0.1f * s, 0.1f * s, 1.0f, 0, 0, 1.6f, 0.1f * s};
    float body_world[9];
    for (int i = 0; i < 3; i++) {
        body_world[3 * i + 0] = body[3 * i + 0] + 0.3f * s;
        body_world[3 * i + 1] = body[3 * i + 1];
        body_world[3 * i + 2] = body[3 * i + 2] + 0.2f * s;
    }
    const uint16_t joints[] = {1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0};
    const float weights[] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
    int body_pos = add_vec3(&b, body_world, 3, true);
    int body_joints = add_accessor(&b, joints, sizeof joints, 5123, "VEC4", 3, NULL, NULL);
    int body_weights = add_accessor(&b, weights, sizeof weights, 5126, "VEC4", 3, NULL, NULL);
    /* inverse binds of hips, chest, head: translate(−world) (the root's offset included) */
    float ib[3][16];
    const float world_y[3] = {1.0f, 1.25f, 1.6f};
    for (int j = 0; j < 3; j++) {
        memset(ib[j], 0, sizeof ib[j]);
        ib[j][0] = ib[j][5] = ib[j][10] = ib[j][15] = 1.0f;
        ib[j][12] = -0.3f * s;
        ib[j][13] = -world_y[j];
        ib[j][14] = -0.2f * s;
    }
    int ibm = add_accessor(&b, ib, sizeof ib, 5126, "MAT4", 3, NULL, NULL);
    /* clip "move" on the root: forward 1 m (the avatar's forward) and a quarter turn about Y */
    const float times[] = {0, 1};
    const float move[] = {0, 0, 0, 0, 0, 1.0f * s};
    const float turn[] = {0, 0, 0, 1, 0, 0.70710678f, 0, 0.70710678f};
    int t_in = add_accessor(&b, times, sizeof times, 5126, "SCALAR", 2, NULL, NULL);
    int t_move = add_accessor(&b, move, sizeof move, 5126, "VEC3", 2, NULL, NULL);
    int t_turn = add_accessor(&b, turn, sizeof turn, 5126, "VEC4", 2, NULL, NULL);

    cJSON* jn = cJSON_AddArrayToObject(doc, "nodes");
    for (int i = 0; i < VRM_FX_NODE_COUNT; i++) {
        cJSON* n = cJSON_CreateObject();
        cJSON_AddStringToObject(n, "name", nodes[i].name);
        float t[3] = {nodes[i].t[0] * s, nodes[i].t[1], nodes[i].t[2] * s};
        if (t[0] != 0 || t[1] != 0 || t[2] != 0) cJSON_AddItemToObject(n, "translation", cJSON_CreateFloatArray(t, 3));
        int kids[VRM_FX_NODE_COUNT], count = 0;
        for (int c = 0; c < VRM_FX_NODE_COUNT; c++)
            if (nodes[c].parent == i) kids[count++] = c;
        if (count) cJSON_AddItemToObject(n, "children", cJSON_CreateIntArray(kids, count));
        if (i == VRM_FX_FACE) cJSON_AddNumberToObject(n, "mesh", 0);
        if (i == VRM_FX_BODY) {
            cJSON_AddNumberToObject(n, "mesh", 1);
            cJSON_AddNumberToObject(n, "skin", 0);
        }
        cJSON_AddItemToArray(jn, n);
    }
    cJSON* scene = parse("{\"nodes\":[0]}");
    cJSON* scenes = cJSON_AddArrayToObject(doc, "scenes");
    cJSON_AddItemToArray(scenes, scene);
    cJSON_AddNumberToObject(doc, "scene", 0);
    cJSON* skins = cJSON_AddArrayToObject(doc, "skins");
    cJSON* skin = cJSON_CreateObject();
    const int skin_joints[] = {VRM_FX_HIPS, VRM_FX_CHEST, VRM_FX_HEAD};
    cJSON_AddItemToObject(skin, "joints", cJSON_CreateIntArray(skin_joints, 3));
    cJSON_AddNumberToObject(skin, "inverseBindMatrices", ibm);
    cJSON_AddItemToArray(skins, skin);

    cJSON* meshes = cJSON_AddArrayToObject(doc, "meshes");
    cJSON* fm = cJSON_CreateObject();
    cJSON_AddStringToObject(fm, "name", "Face");
    cJSON* fp = cJSON_CreateObject();
    cJSON* fa = cJSON_AddObjectToObject(fp, "attributes");
    cJSON_AddNumberToObject(fa, "POSITION", face_pos);
    cJSON_AddNumberToObject(fp, "indices", face_idx);
    cJSON_AddNumberToObject(fp, "material", 0);
    cJSON* ft = cJSON_AddArrayToObject(fp, "targets");
    for (int t = 0; t < 3; t++) {
        cJSON* tt = cJSON_CreateObject();
        cJSON_AddNumberToObject(tt, "POSITION", targets[t]);
        cJSON_AddItemToArray(ft, tt);
    }
    cJSON* fps = cJSON_AddArrayToObject(fm, "primitives");
    cJSON_AddItemToArray(fps, fp);
    cJSON_AddItemToObject(fm, "extras", parse("{\"targetNames\":[\"A\",\"Blink\",\"Joy\"]}"));
    cJSON_AddItemToArray(meshes, fm);
    cJSON* bm = cJSON_CreateObject();
    cJSON_AddStringToObject(bm, "name", "Body");
    cJSON* bp = cJSON_CreateObject();
    cJSON* ba = cJSON_AddObjectToObject(bp, "attributes");
    cJSON_AddNumberToObject(ba, "POSITION", body_pos);
    cJSON_AddNumberToObject(ba, "JOINTS_0", body_joints);
    cJSON_AddNumberToObject(ba, "WEIGHTS_0", body_weights);
    cJSON_AddNumberToObject(bp, "material", 1);
    cJSON* bps = cJSON_AddArrayToObject(bm, "primitives");
    cJSON_AddItemToArray(bps, bp);
    cJSON_AddItemToArray(meshes, bm);
    cJSON_AddItemToObject(doc, "materials",
                          parse("[{\"name\":\"Skin\",\"pbrMetallicRoughness\":{\"baseColorFactor\":[0.5,0.5,0.5,1]}},"
                                "{\"name\":\"Cloth\",\"emissiveFactor\":[0.1,0.1,0.1]}]"));
    char anim[256];
    snprintf(anim, sizeof anim,
             "[{\"name\":\"move\",\"samplers\":[{\"input\":%d,\"output\":%d},{\"input\":%d,\"output\":%d}],"
             "\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}},"
             "{\"sampler\":1,\"target\":{\"node\":0,\"path\":\"rotation\"}}]}]",
             t_in, t_move, t_in, t_turn);
    cJSON_AddItemToObject(doc, "animations", parse(anim));

    cJSON* ext = cJSON_AddObjectToObject(doc, "extensions");
    cJSON* used = cJSON_AddArrayToObject(doc, "extensionsUsed");
    if (version == 1) {
        cJSON* v = parse(vrm1_text);
        cJSON* humanoid = cJSON_AddObjectToObject(v, "humanoid");
        cJSON* hb = cJSON_AddObjectToObject(humanoid, "humanBones");
        for (size_t i = 0; i < sizeof bones1 / sizeof bones1[0]; i++) {
            cJSON* o = cJSON_AddObjectToObject(hb, bones1[i][0]);
            cJSON_AddNumberToObject(o, "node", atoi(bones1[i][1]));
        }
        cJSON_AddItemToObject(hb, "leftThumbMetacarpal", parse("{\"node\":20}"));
        cJSON_AddItemToObject(hb, "leftThumbProximal", parse("{\"node\":21}"));
        cJSON_AddItemToObject(ext, "VRMC_vrm", v);
        cJSON_AddItemToArray(used, cJSON_CreateString("VRMC_vrm"));
    } else {
        cJSON* v = parse(vrm0_text);
        cJSON* humanoid = cJSON_AddObjectToObject(v, "humanoid");
        cJSON* hb = cJSON_AddArrayToObject(humanoid, "humanBones");
        for (size_t i = 0; i < sizeof bones1 / sizeof bones1[0]; i++) {
            cJSON* o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "bone", bones1[i][0]);
            cJSON_AddNumberToObject(o, "node", atoi(bones1[i][1]));
            cJSON_AddItemToArray(hb, o);
        }
        /* 0.x names the thumb's first two joints proximal and intermediate */
        cJSON_AddItemToArray(hb, parse("{\"bone\":\"leftThumbProximal\",\"node\":20}"));
        cJSON_AddItemToArray(hb, parse("{\"bone\":\"leftThumbIntermediate\",\"node\":21}"));
        cJSON_AddItemToObject(ext, "VRM", v);
        cJSON_AddItemToArray(used, cJSON_CreateString("VRM"));
    }
    cJSON_AddItemToObject(doc, "bufferViews", b.views);
    cJSON_AddItemToObject(doc, "accessors", b.accessors);
    cJSON* buffers = cJSON_AddArrayToObject(doc, "buffers");
    cJSON* buffer = cJSON_CreateObject();
    cJSON_AddNumberToObject(buffer, "byteLength", (double)f->bin_size);
    cJSON_AddItemToArray(buffers, buffer);
    return f->bin && face_pos >= 0 && targets[2] >= 0 && t_turn >= 0 ? 0 : -1;
}

void vrm_fixture_free(vrm_fixture* f) {
    cJSON_Delete(f->json);
    free(f->bin);
    memset(f, 0, sizeof *f);
}

cJSON* vrm_fixture_ext(vrm_fixture* f) {
    cJSON* ext = cJSON_GetObjectItemCaseSensitive(f->json, "extensions");
    cJSON* v = cJSON_GetObjectItemCaseSensitive(ext, "VRMC_vrm");
    return v ? v : cJSON_GetObjectItemCaseSensitive(ext, "VRM");
}

uint8_t* vrm_fixture_glb(const vrm_fixture* f, size_t* out_size) {
    char* json = cJSON_PrintUnformatted(f->json);
    if (!json) return NULL;
    uint8_t* out = test_glb_pack(json, f->bin, f->bin_size, out_size);
    free(json);
    return out;
}

sw_result vrm_fixture_load_bytes(const uint8_t* glb, size_t size, const sw_gltf_options* options, sw_model** model,
                                 sw_diag* diag) {
    return sw_gltf_load_memory(glb, size, "avatar.vrm", NULL, options, model, diag);
}

sw_result vrm_fixture_load(const vrm_fixture* f, const sw_gltf_options* options, sw_model** model, sw_diag* diag) {
    size_t size = 0;
    uint8_t* glb = vrm_fixture_glb(f, &size);
    if (!glb) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "fixture: out of memory");
    sw_result r = vrm_fixture_load_bytes(glb, size, options, model, diag);
    free(glb);
    return r;
}
