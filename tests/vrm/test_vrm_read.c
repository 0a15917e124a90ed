/* The VRM reader (sinew/vrm.h) on generated VRM 1.0 and 0.x avatars
   (vrm_fixtures.c): the structure read, the 0.x avatar turned to face +Z
   at load (the 1.0 one untouched), and broken blocks as one-line errors
   or warnings. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "sinew/pose.h"
#include "sinew/vrm.h"
#include "vrm/vrm_fixtures.h"

static uint32_t model_node(const sw_model* m, int file_index) { return m->node_from_source[file_index]; }

static bool has_warning(const sw_vrm* v, const char* needle) {
    for (size_t i = 0; i < v->warning_count; i++)
        if (strstr(v->warnings[i], needle)) return true;
    return false;
}

static sw_model* load(vrm_fixture* f, const sw_gltf_options* options) {
    sw_model* model = NULL;
    sw_diag diag;
    if (vrm_fixture_load(f, options, &model, &diag) != SW_OK) fprintf(stderr, "load: %s\n", diag.message);
    return model;
}

static void test_read_vrm1(void) {
    vrm_fixture f;
    SW_CHECK(vrm_fixture_make(&f, 1) == 0);
    sw_model* m = load(&f, NULL);
    SW_CHECK(m != NULL);
    if (!m) return vrm_fixture_free(&f);
    sw_vrm* v = NULL;
    sw_diag diag;
    SW_CHECK_EQ_INT(sw_vrm_read(m, &v, &diag), SW_OK);
    SW_CHECK(v != NULL);
    if (!v) return sw_model_free(m), vrm_fixture_free(&f);
    for (size_t i = 0; i < v->warning_count; i++) fprintf(stderr, "  warning: %s\n", v->warnings[i]);
    SW_CHECK_EQ_INT(v->version, SW_VRM_1);
    SW_CHECK(v->spec_version && strcmp(v->spec_version, "1.0") == 0);
    /* meta */
    SW_CHECK(v->meta.name && strcmp(v->meta.name, "Tester") == 0);
    SW_CHECK_EQ_INT(v->meta.author_count, 2);
    SW_CHECK(v->meta.author_count == 2 && strcmp(v->meta.authors[1], "Bo") == 0);
    SW_CHECK(v->meta.copyright && strcmp(v->meta.copyright, "(c) nobody") == 0);
    SW_CHECK_EQ_INT(v->meta.reference_count, 1);
    SW_CHECK(strcmp(v->meta.avatar_permission, "everyone") == 0);
    SW_CHECK(strcmp(v->meta.commercial_usage, "corporation") == 0);
    SW_CHECK(strcmp(v->meta.credit_notation, "required") == 0); /* the default */
    SW_CHECK(strcmp(v->meta.modification, "allowModification") == 0);
    SW_CHECK(v->meta.allow_excessively_violent_usage && !v->meta.allow_excessively_sexual_usage);
    SW_CHECK(v->meta.allow_redistribution);
    SW_CHECK(v->meta.license_url && strstr(v->meta.license_url, "vrm.dev"));
    SW_CHECK_EQ_INT(v->meta.thumbnail, -1);
    /* humanoid, in model order */
    SW_CHECK_EQ_INT(v->humanoid.node[SW_HUMANOID_HIPS], model_node(m, VRM_FX_HIPS));
    SW_CHECK_EQ_INT(v->humanoid.node[SW_HUMANOID_HEAD], model_node(m, VRM_FX_HEAD));
    SW_CHECK_EQ_INT(v->humanoid.node[SW_HUMANOID_RIGHT_FOOT], model_node(m, VRM_FX_R_FOOT));
    SW_CHECK_EQ_INT(v->humanoid.node[SW_HUMANOID_LEFT_THUMB_METACARPAL], model_node(m, VRM_FX_L_THUMB1));
    SW_CHECK_EQ_INT(v->humanoid.node[SW_HUMANOID_LEFT_THUMB_PROXIMAL], model_node(m, VRM_FX_L_THUMB2));
    SW_CHECK_EQ_INT(v->humanoid.node[SW_HUMANOID_UPPER_CHEST], -1);
    SW_CHECK_EQ_INT(v->humanoid_mapped, 19);
    SW_CHECK_EQ_INT(v->humanoid_required_missing, 0);
    /* expressions: 6 presets, 1 custom */
    SW_CHECK_EQ_INT(v->expression_count, 7);
    int32_t happy = v->preset[SW_VRM_PRESET_HAPPY], blink = v->preset[SW_VRM_PRESET_BLINK];
    int32_t wink = sw_vrm_find_expression(v, "wink");
    SW_CHECK(happy >= 0 && blink >= 0 && wink >= 0);
    SW_CHECK_EQ_INT(v->preset[SW_VRM_PRESET_SAD], -1);
    if (happy >= 0 && blink >= 0 && wink >= 0) {
        const sw_vrm_expression* e = &v->expressions[happy];
        SW_CHECK_EQ_INT(e->override_blink, SW_VRM_OVERRIDE_BLOCK);
        SW_CHECK_EQ_INT(e->override_mouth, SW_VRM_OVERRIDE_BLEND);
        SW_CHECK_EQ_INT(e->override_look_at, SW_VRM_OVERRIDE_NONE);
        SW_CHECK_EQ_INT(e->morph_bind_count, 1);
        SW_CHECK_EQ_INT(e->morph_binds[0].node, model_node(m, VRM_FX_FACE));
        SW_CHECK_EQ_INT(e->morph_binds[0].index, 2);
        SW_CHECK_EQ_INT(e->color_bind_count, 1);
        SW_CHECK_EQ_INT(e->color_binds[0].type, SW_VRM_COLOR);
        SW_CHECK_NEAR(e->color_binds[0].target[0], 1.0, 0);
        /* blink's overrideBlink on itself is ignored, with a warning */
        SW_CHECK_EQ_INT(v->expressions[blink].override_blink, SW_VRM_OVERRIDE_NONE);
        SW_CHECK(has_warning(v, "expressions.preset.blink.overrideBlink"));
        SW_CHECK_EQ_INT(v->expressions[wink].preset, SW_VRM_PRESET_CUSTOM);
        SW_CHECK_EQ_INT(v->expressions[wink].color_binds[0].type, SW_VRM_EMISSION_COLOR);
        SW_CHECK(v->expressions[v->preset[SW_VRM_PRESET_BLINK_LEFT]].is_binary);
        const sw_vrm_expression* s = &v->expressions[v->preset[SW_VRM_PRESET_SURPRISED]];
        SW_CHECK_EQ_INT(s->texture_bind_count, 1);
        SW_CHECK_NEAR(s->texture_binds[0].scale[0], 2.0, 0);
        SW_CHECK_NEAR(s->texture_binds[0].offset[0], 0.5, 0);
    }
    /* slots: (face, 0..2) once each; (Skin, color), (Cloth, emission); Cloth's transform */
    SW_CHECK_EQ_INT(v->morph_slot_count, 3);
    SW_CHECK_EQ_INT(v->color_slot_count, 2);
    SW_CHECK_EQ_INT(v->texture_slot_count, 1);
    /* look-at */
    SW_CHECK(v->look_at.present);
    SW_CHECK_EQ_INT(v->look_at.type, SW_VRM_LOOK_AT_EXPRESSION);
    SW_CHECK_NEAR(v->look_at.offset_from_head_bone[1], 0.07, 1e-7);
    SW_CHECK_NEAR(v->look_at.offset_from_head_bone[2], 0.02, 1e-7);
    SW_CHECK_NEAR(v->look_at.horizontal_outer.input_max_value, 45, 0);
    SW_CHECK_NEAR(v->look_at.vertical_up.output_scale, 0.5, 0);
    SW_CHECK_NEAR(v->look_at.horizontal_inner.input_max_value, 90, 0); /* default */
    SW_CHECK_NEAR(v->look_at.horizontal_inner.output_scale, 1, 0);     /* expression type's default */
    /* first person */
    SW_CHECK_EQ_INT(v->mesh_annotation_count, 2);
    SW_CHECK_EQ_INT(v->mesh_annotations[0].node, model_node(m, VRM_FX_FACE));
    SW_CHECK_EQ_INT(v->mesh_annotations[0].type, SW_VRM_FIRST_PERSON_THIRD_PERSON_ONLY);
    SW_CHECK_EQ_INT(v->mesh_annotations[1].type, SW_VRM_FIRST_PERSON_BOTH);
    SW_CHECK_EQ_INT(v->first_person_bone, -1);
    sw_vrm_free(v);
    sw_model_free(m);
    vrm_fixture_free(&f);
}

static void test_read_vrm0(void) {
    vrm_fixture f;
    SW_CHECK(vrm_fixture_make(&f, 0) == 0);
    sw_model* m = load(&f, NULL);
    SW_CHECK(m != NULL);
    if (!m) return vrm_fixture_free(&f);
    sw_vrm* v = NULL;
    sw_diag diag;
    SW_CHECK_EQ_INT(sw_vrm_read(m, &v, &diag), SW_OK);
    if (!v) return sw_model_free(m), vrm_fixture_free(&f);
    for (size_t i = 0; i < v->warning_count; i++) fprintf(stderr, "  warning: %s\n", v->warnings[i]);
    SW_CHECK_EQ_INT(v->version, SW_VRM_0);
    SW_CHECK_EQ_INT(v->warning_count, 0);
    SW_CHECK(v->meta.name && strcmp(v->meta.name, "Old") == 0);
    SW_CHECK(v->meta.author_count == 1 && strcmp(v->meta.authors[0], "Cy") == 0);
    SW_CHECK(v->meta.license_name && strcmp(v->meta.license_name, "CC_BY") == 0);
    SW_CHECK(v->meta.commercial_usage_name && strcmp(v->meta.commercial_usage_name, "Allow") == 0);
    SW_CHECK(v->meta.allowed_user_name && strcmp(v->meta.allowed_user_name, "Everyone") == 0);
    SW_CHECK_EQ_INT(v->meta.thumbnail, -1); /* texture -1: none */
    /* the 0.x thumb names */
    SW_CHECK_EQ_INT(v->humanoid.node[SW_HUMANOID_LEFT_THUMB_METACARPAL], model_node(m, VRM_FX_L_THUMB1));
    SW_CHECK_EQ_INT(v->humanoid.node[SW_HUMANOID_LEFT_THUMB_PROXIMAL], model_node(m, VRM_FX_L_THUMB2));
    SW_CHECK_EQ_INT(v->humanoid_mapped, 19);
    /* presets renamed, weights / 100, custom by name */
    SW_CHECK_EQ_INT(v->expression_count, 5);
    int32_t happy = v->preset[SW_VRM_PRESET_HAPPY], aa = v->preset[SW_VRM_PRESET_AA];
    int32_t left = v->preset[SW_VRM_PRESET_BLINK_LEFT], uv = sw_vrm_find_expression(v, "Uv");
    SW_CHECK(happy >= 0 && aa >= 0 && left >= 0 && uv >= 0);
    if (happy >= 0 && aa >= 0 && left >= 0 && uv >= 0) {
        SW_CHECK(strcmp(v->expressions[happy].name, "happy") == 0);
        SW_CHECK_NEAR(v->expressions[aa].morph_binds[0].weight, 0.8, 1e-7);
        SW_CHECK_EQ_INT(v->expressions[aa].morph_binds[0].node, model_node(m, VRM_FX_FACE));
        SW_CHECK(v->expressions[left].is_binary);
        SW_CHECK_EQ_INT(v->expressions[happy].color_binds[0].material, 0);
        SW_CHECK_EQ_INT(v->expressions[happy].color_binds[0].type, SW_VRM_COLOR);
        const sw_vrm_expression* e = &v->expressions[uv];
        SW_CHECK_EQ_INT(e->preset, SW_VRM_PRESET_CUSTOM);
        SW_CHECK_EQ_INT(e->texture_bind_count, 1);
        SW_CHECK_EQ_INT(e->texture_binds[0].material, 1);
        /* Unity (2, 2, 0.5, 0): glTF offset v = 1 − 2 − 0 */
        SW_CHECK_NEAR(e->texture_binds[0].scale[1], 2.0, 0);
        SW_CHECK_NEAR(e->texture_binds[0].offset[0], 0.5, 0);
        SW_CHECK_NEAR(e->texture_binds[0].offset[1], -1.0, 0);
        SW_CHECK_EQ_INT(e->override_blink, SW_VRM_OVERRIDE_NONE);
    }
    SW_CHECK(v->look_at.present);
    SW_CHECK_EQ_INT(v->look_at.type, SW_VRM_LOOK_AT_EXPRESSION);
    SW_CHECK_NEAR(v->look_at.horizontal_outer.input_max_value, 45, 0);
    SW_CHECK_NEAR(v->look_at.horizontal_outer.output_scale, 1, 0);
    SW_CHECK_NEAR(v->look_at.offset_from_head_bone[1], 0.07, 1e-7);
    SW_CHECK_NEAR(v->look_at.offset_from_head_bone[2], -0.02, 1e-7); /* Unity's z */
    SW_CHECK_EQ_INT(v->first_person_bone, model_node(m, VRM_FX_HEAD));
    SW_CHECK_EQ_INT(v->mesh_annotation_count, 1);
    SW_CHECK_EQ_INT(v->mesh_annotations[0].node, model_node(m, VRM_FX_FACE));
    SW_CHECK_EQ_INT(v->mesh_annotations[0].type, SW_VRM_FIRST_PERSON_THIRD_PERSON_ONLY);
    sw_vrm_free(v);
    sw_model_free(m);
    vrm_fixture_free(&f);
}

/* World positions of the nose (face vertex 0) and the chest-front body
   vertex (skinned), and the left hand's world position, after `clip` at t. */
typedef struct probe {
    float nose[3], chest[3], hand[3];
} probe;

static bool pose_probe(const sw_model* m, const sw_clip* clip, float t, probe* out) {
    sw_pose_sizes sizes = sw_pose_sizes_of(m);
    void* memory = aligned_alloc(16, (sw_pose_memory_size(&sizes) + 15) & ~(size_t)15);
    if (!memory) return false;
    sw_pose pose;
    sw_pose_bind(&pose, &sizes, memory);
    sw_diag diag;
    bool ok = sw_pose_evaluate(m, clip, t, false, &pose, &diag) == SW_OK;
    const struct {
        int node;
        float* out;
    } meshes[2] = {{VRM_FX_FACE, out->nose}, {VRM_FX_BODY, out->chest}};
    for (int k = 0; k < 2 && ok; k++) {
        uint32_t node = model_node(m, meshes[k].node);
        size_t bytes = sw_deform_scratch_size(m, node, 0);
        void* scratch = aligned_alloc(16, (bytes + 16) & ~(size_t)15);
        float positions[4 * 3];
        sw_deform d = {.node = node, .primitive = 0, .scratch = scratch, .out_positions = positions};
        ok = scratch && sw_deform_primitive(m, &pose, &d, &diag) == SW_OK;
        if (ok) memcpy(meshes[k].out, positions, 3 * sizeof(float));
        free(scratch);
    }
    const sw_mat34* w = &pose.world[model_node(m, VRM_FX_L_HAND)];
    for (int r = 0; r < 3; r++) out->hand[r] = w->m[r][3];
    free(memory);
    return ok;
}

/* VRM 0.x has no allowRedistribution: licenseName states it. CC0 and the
   CC_BY* licences allow redistribution; Redistribution_Prohibited does
   not; Other (its terms elsewhere) and no licenseName leave it false. */
static void test_vrm0_redistribution(void) {
    static const struct { const char* license; bool allowed; } cases[] = {
        {"CC0", true},        {"CC_BY", true},       {"CC_BY_NC", true},    {"CC_BY_SA", true},
        {"CC_BY_NC_SA", true}, {"CC_BY_ND", true},   {"CC_BY_NC_ND", true}, {"Redistribution_Prohibited", false},
        {"Other", false},      {NULL, false}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        vrm_fixture f;
        SW_CHECK(vrm_fixture_make(&f, 0) == 0);
        cJSON* meta = cJSON_GetObjectItemCaseSensitive(vrm_fixture_ext(&f), "meta");
        if (cases[i].license) cJSON_ReplaceItemInObject(meta, "licenseName", cJSON_CreateString(cases[i].license));
        else cJSON_DeleteItemFromObject(meta, "licenseName");
        sw_model* m = load(&f, NULL);
        sw_vrm* v = NULL;
        sw_diag diag;
        SW_CHECK(m && sw_vrm_read(m, &v, &diag) == SW_OK && v);
        if (v) {
            SW_CHECK(v->meta.allow_redistribution == cases[i].allowed);
            SW_CHECK(cases[i].license ? v->meta.license_name && strcmp(v->meta.license_name, cases[i].license) == 0
                                      : v->meta.license_name == NULL);
        }
        sw_vrm_free(v);
        sw_model_free(m);
        vrm_fixture_free(&f);
    }
}

/* A 0.x degree map's curve: the straight line (the fixture's
   lookAtHorizontalOuter) reads silently; any other is named in a warning
   and read as the straight line, as three-vrm does. */
static void test_vrm0_degree_curve(void) {
    for (int bent = 0; bent < 2; bent++) {
        vrm_fixture f;
        SW_CHECK(vrm_fixture_make(&f, 0) == 0);
        cJSON* fp = cJSON_GetObjectItemCaseSensitive(vrm_fixture_ext(&f), "firstPerson");
        cJSON* map = cJSON_GetObjectItemCaseSensitive(fp, "lookAtHorizontalOuter");
        if (bent) {
            cJSON* curve = cJSON_GetObjectItemCaseSensitive(map, "curve");
            cJSON_ReplaceItemInArray(curve, 4, cJSON_CreateNumber(0.5)); /* the end key's value: half */
        }
        sw_model* m = load(&f, NULL);
        sw_vrm* v = NULL;
        sw_diag diag;
        SW_CHECK(m && sw_vrm_read(m, &v, &diag) == SW_OK && v);
        if (v) {
            SW_CHECK(has_warning(v, "firstPerson.lookAtHorizontalOuter.curve") == (bent == 1));
            SW_CHECK_NEAR(v->look_at.horizontal_outer.input_max_value, 45.0f, 0.0f);
            SW_CHECK_NEAR(v->look_at.horizontal_outer.output_scale, 1.0f, 0.0f);
        }
        sw_vrm_free(v);
        sw_model_free(m);
        vrm_fixture_free(&f);
    }
}

static void test_vrm0_faces_z(void) {
    vrm_fixture f0, f1;
    SW_CHECK(vrm_fixture_make(&f0, 0) == 0 && vrm_fixture_make(&f1, 1) == 0);
    sw_gltf_options keep = {.vrm0_keep_facing = true};
    sw_model *m0 = load(&f0, NULL), *m1 = load(&f1, NULL), *raw = load(&f0, &keep), *m1keep = load(&f1, &keep);
    SW_CHECK(m0 && m1 && raw && m1keep);
    if (m0 && m1 && raw && m1keep) {
        /* 1.0 untouched: the nose is where the file puts it, hand-computed:
           root (0.3, 0, 0.2) + hips..head (0, 1.6, 0) + nose (0, 0.05, 0.1) */
        probe p1, p0, pr, pk;
        SW_CHECK(pose_probe(m1, NULL, 0.0f, &p1));
        SW_CHECK_NEAR(p1.nose[0], 0.3, 1e-6);
        SW_CHECK_NEAR(p1.nose[1], 1.65, 1e-6);
        SW_CHECK_NEAR(p1.nose[2], 0.2 + VRM_FX_NOSE_Z, 1e-6);
        SW_CHECK_NEAR(p1.hand[0], 0.3 + 0.2 + 0.3 + 0.25, 1e-6); /* left hand at +X */
        SW_CHECK(pose_probe(m1keep, NULL, 0.0f, &pk)); /* the option changes nothing on 1.0 */
        SW_CHECK_NEAR(pk.nose[2], p1.nose[2], 0);
        /* 0.x as the file has it (kept): facing −Z, the left hand at −X */
        SW_CHECK(pose_probe(raw, NULL, 0.0f, &pr));
        SW_CHECK_NEAR(pr.nose[2], -(0.2 + VRM_FX_NOSE_Z), 1e-6);
        SW_CHECK(pr.hand[0] < 0.0f);
        /* 0.x turned: everything where the 1.0 avatar has it, at rest and along the root clip */
        const float times[3] = {0.0f, 0.5f, 1.0f};
        for (int k = 0; k < 3; k++) {
            SW_CHECK(pose_probe(m1, &m1->animations[0], times[k], &p1));
            SW_CHECK(pose_probe(m0, &m0->animations[0], times[k], &p0));
            for (int c = 0; c < 3; c++) {
                SW_CHECK_NEAR(p0.nose[c], p1.nose[c], 1e-5);
                SW_CHECK_NEAR(p0.chest[c], p1.chest[c], 1e-5);
                SW_CHECK_NEAR(p0.hand[c], p1.hand[c], 1e-5);
            }
        }
        /* the nose is in front of the head (+Z) at rest */
        SW_CHECK(pose_probe(m0, NULL, 0.0f, &p0));
        SW_CHECK(p0.nose[2] > 0.2f + 0.05f);
        /* the skinned chest vertex: (0.3, 1.25, 0.2 + 0.1) */
        SW_CHECK_NEAR(p0.chest[2], 0.3, 1e-6);
        /* what changed: only the root (and its keys); the hips' local is the file's */
        uint32_t hips = model_node(m0, VRM_FX_HIPS), root = model_node(m0, VRM_FX_ROOT);
        SW_CHECK_NEAR(m0->rest_local[hips].translation.y, 1.0, 0);
        SW_CHECK_NEAR(m0->rest_local[root].rotation.y, 1.0, 1e-7);
        SW_CHECK_NEAR(m0->rest_local[root].translation.x, 0.3, 1e-7);
    }
    sw_model_free(m0), sw_model_free(m1), sw_model_free(raw), sw_model_free(m1keep);
    vrm_fixture_free(&f0), vrm_fixture_free(&f1);
}

/* One broken variant: `edit` changes the extension, then the read must
   give `expect` with `needle` in the message (error) or a warning. */
typedef void (*edit_fn)(cJSON* ext);

static void check_variant(int version, edit_fn edit, sw_result expect, const char* needle, const char* what) {
    vrm_fixture f;
    if (vrm_fixture_make(&f, version) != 0) {
        SW_CHECK(!"fixture");
        return;
    }
    edit(vrm_fixture_ext(&f));
    sw_model* m = load(&f, NULL);
    SW_CHECK(m != NULL);
    if (m) {
        sw_vrm* v = (sw_vrm*)1;
        sw_diag diag;
        sw_result r = sw_vrm_read(m, &v, &diag);
        if (r != expect) fprintf(stderr, "%s: got %d: %s\n", what, (int)r, diag.message);
        SW_CHECK_EQ_INT(r, expect);
        if (expect != SW_OK) {
            SW_CHECK(v == NULL);
            SW_CHECK(strstr(diag.message, needle) != NULL);
            SW_CHECK(strstr(diag.message, "avatar.vrm: ") == diag.message);
            SW_CHECK(strchr(diag.message, '\n') == NULL);
            if (!strstr(diag.message, needle)) fprintf(stderr, "%s: message \"%s\"\n", what, diag.message);
        } else {
            SW_CHECK(v != NULL);
            if (v && needle) {
                SW_CHECK(has_warning(v, needle));
                if (!has_warning(v, needle))
                    for (size_t i = 0; i < v->warning_count; i++) fprintf(stderr, "%s: %s\n", what, v->warnings[i]);
            }
            sw_vrm_free(v);
        }
        sw_model_free(m);
    }
    vrm_fixture_free(&f);
}

static cJSON* path_get(cJSON* o, const char* a, const char* b, const char* c) {
    o = cJSON_GetObjectItemCaseSensitive(o, a);
    if (b) o = cJSON_GetObjectItemCaseSensitive(o, b);
    if (c) o = cJSON_GetObjectItemCaseSensitive(o, c);
    return o;
}
static cJSON* happy(cJSON* ext) { return path_get(ext, "expressions", "preset", "happy"); }

static void e_hips_out_of_range(cJSON* x) {
    cJSON_ReplaceItemInObject(path_get(x, "humanoid", "humanBones", "hips"), "node", cJSON_CreateNumber(99));
}
static void e_morph_index(cJSON* x) {
    cJSON* b = cJSON_GetArrayItem(cJSON_GetObjectItem(happy(x), "morphTargetBinds"), 0);
    cJSON_ReplaceItemInObject(b, "index", cJSON_CreateNumber(3));
}
static void e_morph_node_without_mesh(cJSON* x) {
    cJSON* b = cJSON_GetArrayItem(cJSON_GetObjectItem(happy(x), "morphTargetBinds"), 0);
    cJSON_ReplaceItemInObject(b, "node", cJSON_CreateNumber(VRM_FX_HEAD));
}
static void e_expressions_array(cJSON* x) { cJSON_ReplaceItemInObject(x, "expressions", cJSON_CreateArray()); }
static void e_color_no_target(cJSON* x) {
    cJSON_DeleteItemFromObject(cJSON_GetArrayItem(cJSON_GetObjectItem(happy(x), "materialColorBinds"), 0),
                               "targetValue");
}
static void e_material_range(cJSON* x) {
    cJSON_ReplaceItemInObject(cJSON_GetArrayItem(cJSON_GetObjectItem(happy(x), "materialColorBinds"), 0), "material",
                              cJSON_CreateNumber(2));
}
static void e_binary_string(cJSON* x) { cJSON_AddItemToObject(happy(x), "isBinary", cJSON_CreateString("yes")); }
static void e_override_unknown(cJSON* x) {
    cJSON_ReplaceItemInObject(happy(x), "overrideBlink", cJSON_CreateString("sometimes"));
}
static void e_no_head(cJSON* x) { cJSON_DeleteItemFromObject(path_get(x, "humanoid", "humanBones", NULL), "head"); }
static void e_custom_preset_name(cJSON* x) {
    cJSON_AddItemToObject(path_get(x, "expressions", "custom", NULL), "sad", cJSON_CreateObject());
}
static void e_two_bones_one_node(cJSON* x) {
    cJSON_ReplaceItemInObject(path_get(x, "humanoid", "humanBones", "spine"), "node", cJSON_CreateNumber(1));
}
static void e_meta_name_number(cJSON* x) {
    cJSON_ReplaceItemInObject(cJSON_GetObjectItem(x, "meta"), "name", cJSON_CreateNumber(3));
}
static void e_no_meta(cJSON* x) { cJSON_DeleteItemFromObject(x, "meta"); }
static void e_offset_short(cJSON* x) {
    cJSON_ReplaceItemInObject(cJSON_GetObjectItem(x, "lookAt"), "offsetFromHeadBone", cJSON_CreateArray());
}
static void e_whole_not_object(cJSON* x) {
    while (x->child) cJSON_DeleteItemFromObject(x, x->child->string);
    x->type = cJSON_Number; /* the extension's value becomes 0 */
}
/* 0.x */
static void e0_bind_mesh(cJSON* x) {
    cJSON* g = cJSON_GetArrayItem(path_get(x, "blendShapeMaster", "blendShapeGroups", NULL), 0);
    cJSON_ReplaceItemInObject(cJSON_GetArrayItem(cJSON_GetObjectItem(g, "binds"), 0), "mesh", cJSON_CreateNumber(7));
}
static void e0_material_name(cJSON* x) {
    cJSON* g = cJSON_GetArrayItem(path_get(x, "blendShapeMaster", "blendShapeGroups", NULL), 0);
    cJSON_ReplaceItemInObject(cJSON_GetArrayItem(cJSON_GetObjectItem(g, "materialValues"), 0), "materialName",
                              cJSON_CreateString("Nothing"));
}
static void e0_bones_object(cJSON* x) {
    cJSON_ReplaceItemInObject(cJSON_GetObjectItem(x, "humanoid"), "humanBones", cJSON_CreateObject());
}
static void e0_bone_unknown(cJSON* x) {
    cJSON* b = cJSON_GetArrayItem(path_get(x, "humanoid", "humanBones", NULL), 0);
    cJSON_ReplaceItemInObject(b, "bone", cJSON_CreateString("tail"));
}

static void test_broken_blocks(void) {
    check_variant(1, e_hips_out_of_range, SW_ERR_INVALID_DATA, "extensions.VRMC_vrm.humanoid.humanBones.hips.node: 99",
                  "hips");
    check_variant(1, e_morph_index, SW_ERR_INVALID_DATA,
                  "extensions.VRMC_vrm.expressions.preset.happy.morphTargetBinds[0].index: morph target 3", "index");
    check_variant(1, e_morph_node_without_mesh, SW_ERR_INVALID_DATA, "morphTargetBinds[0].node: node 5 has no mesh",
                  "mesh");
    check_variant(1, e_expressions_array, SW_ERR_INVALID_DATA, "extensions.VRMC_vrm.expressions: expected an object",
                  "expressions");
    check_variant(1, e_color_no_target, SW_ERR_INVALID_DATA, "materialColorBinds[0].targetValue: missing", "target");
    check_variant(1, e_material_range, SW_ERR_INVALID_DATA, "materialColorBinds[0].material: 2 is out of range",
                  "material");
    check_variant(1, e_binary_string, SW_ERR_INVALID_DATA, "happy.isBinary: expected true or false", "binary");
    check_variant(1, e_meta_name_number, SW_ERR_INVALID_DATA, "meta.name: expected a string", "name");
    check_variant(1, e_offset_short, SW_ERR_INVALID_DATA, "lookAt.offsetFromHeadBone: expected an array of 3",
                  "offset");
    check_variant(1, e_whole_not_object, SW_ERR_INVALID_DATA, "extensions.VRMC_vrm: expected an object", "whole");
    check_variant(1, e_override_unknown, SW_OK, "happy.overrideBlink: unknown value", "override");
    check_variant(1, e_no_head, SW_OK, "the required bone head is missing", "head");
    check_variant(1, e_custom_preset_name, SW_OK, "custom.sad: a custom expression cannot take a preset", "custom");
    check_variant(1, e_two_bones_one_node, SW_OK, "node 1 is hips already", "unique");
    check_variant(1, e_no_meta, SW_OK, "extensions.VRMC_vrm.meta: missing", "meta");
    check_variant(0, e0_bind_mesh, SW_ERR_INVALID_DATA,
                  "extensions.VRM.blendShapeMaster.blendShapeGroups[0].binds[0].mesh: 7 is out of range", "0.x mesh");
    check_variant(0, e0_material_name, SW_OK, "materialValues[0].materialName: names no material", "0.x name");
    check_variant(0, e0_bones_object, SW_ERR_INVALID_DATA, "extensions.VRM.humanoid.humanBones: expected an array",
                  "0.x bones");
    check_variant(0, e0_bone_unknown, SW_OK, "humanBones[0].bone: not a VRM 0.x humanoid bone", "0.x bone");
    /* the missing bone is counted too */
    vrm_fixture f;
    SW_CHECK(vrm_fixture_make(&f, 1) == 0);
    e_no_head(vrm_fixture_ext(&f));
    sw_model* m = load(&f, NULL);
    sw_vrm* v = NULL;
    SW_CHECK(m && sw_vrm_read(m, &v, NULL) == SW_OK && v);
    if (v) SW_CHECK_EQ_INT(v->humanoid_required_missing, 1);
    sw_vrm_free(v);
    sw_model_free(m);
    vrm_fixture_free(&f);
}

/* A plain glTF: no VRM, no error. Both extensions: 1.0 is used, 0.x is not turned. */
static void test_plain_and_both(void) {
    vrm_fixture f;
    SW_CHECK(vrm_fixture_make(&f, 1) == 0);
    cJSON* ext = cJSON_GetObjectItemCaseSensitive(f.json, "extensions");
    cJSON* v1 = cJSON_DetachItemFromObject(ext, "VRMC_vrm");
    sw_model* m = load(&f, NULL);
    sw_vrm* v = (sw_vrm*)1;
    SW_CHECK(m && sw_vrm_read(m, &v, NULL) == SW_OK && v == NULL);
    sw_model_free(m);
    cJSON_AddItemToObject(ext, "VRMC_vrm", v1);
    cJSON_AddItemToObject(ext, "VRM", cJSON_Parse("{\"meta\":{\"title\":\"old\"}}"));
    m = load(&f, NULL);
    v = NULL;
    SW_CHECK(m && sw_vrm_read(m, &v, NULL) == SW_OK && v);
    if (v) {
        SW_CHECK_EQ_INT(v->version, SW_VRM_1);
        SW_CHECK(has_warning(v, "extensions.VRM: ignored"));
        SW_CHECK_NEAR(m->rest_local[model_node(m, VRM_FX_ROOT)].rotation.w, 1.0, 0); /* not turned */
    }
    sw_vrm_free(v);
    sw_model_free(m);
    vrm_fixture_free(&f);
}

/* Through a .vrm file in a temporary folder, as the command line reads it. */
static void test_vrm_file(void) {
    char dir[] = "/tmp/sinew_vrm_XXXXXX";
    if (!mkdtemp(dir)) SW_SKIP("no temporary folder");
    for (int version = 0; version < 2; version++) {
        vrm_fixture f;
        SW_CHECK(vrm_fixture_make(&f, version) == 0);
        size_t size = 0;
        uint8_t* glb = vrm_fixture_glb(&f, &size);
        char path[64];
        snprintf(path, sizeof path, "%s/avatar%d.vrm", dir, version);
        FILE* out = fopen(path, "wb");
        SW_CHECK(out && glb && fwrite(glb, 1, size, out) == size);
        if (out) fclose(out);
        free(glb);
        sw_model* m = NULL;
        sw_diag diag;
        SW_CHECK_EQ_INT(sw_gltf_load_file(path, NULL, &m, &diag), SW_OK);
        sw_vrm* v = NULL;
        SW_CHECK(m && sw_vrm_read(m, &v, &diag) == SW_OK && v);
        if (v) SW_CHECK_EQ_INT(v->version, version);
        sw_vrm_free(v);
        sw_model_free(m);
        remove(path);
        vrm_fixture_free(&f);
    }
    rmdir(dir);
}

int main(void) {
    SW_RUN(test_read_vrm1);
    SW_RUN(test_read_vrm0);
    SW_RUN(test_vrm0_redistribution);
    SW_RUN(test_vrm0_degree_curve);
    SW_RUN(test_vrm0_faces_z);
    SW_RUN(test_broken_blocks);
    SW_RUN(test_plain_and_both);
    SW_RUN(test_vrm_file);
    return sw_test_finish();
}
