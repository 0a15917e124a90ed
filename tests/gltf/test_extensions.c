/* Extension data the importer keeps (sw_model_extension): every entry of
   the `extensions` object of the root, a node, a mesh or a material that
   the importer does not interpret itself, with its value as compact JSON
   (cJSON_PrintUnformatted: no whitespace, numbers as cJSON writes them, so
   1.0 becomes 1 and 1e2 becomes 100).

   tests/data/gltf/extensions.gltf is written by hand: two root extensions
   (VRMC_vrm, VRMC_springBone), one extension on each node, where nodes[0]
   is the child of nodes[1] so that parents-first order swaps them, a mesh
   and a material that also carry interpreted extensions
   (KHR_mesh_quantization, KHR_materials_unlit,
   KHR_materials_emissive_strength), which must not be kept. Its
   extensionsUsed names one extension sinew does not know
   (SINEW_test_mesh): one warning names it.

   tests/data/gltf/emissive_strength.gltf (make_features.py): the two
   emissive multipliers read into sw_model_material.emissive_strength.

   The data folder comes from SW_TEST_DATA_DIR (the build defines it). */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "sinew/gltf.h"

#ifndef SW_TEST_DATA_DIR
/* Relative fallback: works when the test runs from the repository root. */
#define SW_TEST_DATA_DIR "tests/data"
#endif

#define EXTENSIONS_FILE SW_TEST_DATA_DIR "/gltf/extensions.gltf"

/* A string equal to the expected one (both printed when not). */
#define CHECK_EQ_STR(a, b)                                                            \
    do {                                                                              \
        const char *got_ = (a), *want_ = (b);                                         \
        bool same_ = got_ && strcmp(got_, want_) == 0;                                \
        if (!same_) fprintf(stderr, "  got  [%s]\n  want [%s]\n", got_ ? got_ : "(null)", want_); \
        SW_CHECK(same_);                                                              \
    } while (0)

typedef struct expected_record {
    const char* name;
    sw_model_object object;
    uint32_t index;
    const char* json;
} expected_record;

/* In the order the importer stores them: the root's, then each node's,
   mesh's and material's in file order; node indices are the model's. */
static const expected_record expected[] = {
    {"VRMC_vrm", SW_MODEL_OBJECT_MODEL, 0,
     "{\"specVersion\":\"1.0\",\"meta\":{\"name\":\"Tri \\\"angle\\\"\",\"authors\":[\"A\",\"B\"],"
     "\"licenseUrl\":\"https://example.com/l\"},\"humanoid\":{\"humanBones\":{\"hips\":{\"node\":0},"
     "\"head\":{\"node\":1}}}}"},
    {"VRMC_springBone", SW_MODEL_OBJECT_MODEL, 0,
     "{\"specVersion\":\"1.0\",\"springs\":[{\"joints\":[{\"node\":1,\"stiffness\":1,\"dragForce\":0.5,"
     "\"gravityPower\":0}]}]}"},
    /* nodes[0] of the file ("child") is node 1 of the model */
    {"VRMC_node_constraint", SW_MODEL_OBJECT_NODE, 1,
     "{\"specVersion\":\"1.0\",\"constraint\":{\"roll\":{\"source\":1,\"weight\":0.25}}}"},
    {"SINEW_test_node", SW_MODEL_OBJECT_NODE, 0, "{\"tag\":\"root\"}"},
    {"SINEW_test_mesh", SW_MODEL_OBJECT_MESH, 0, "{\"lods\":[0,100,-3.5]}"},
    {"VRMC_materials_mtoon", SW_MODEL_OBJECT_MATERIAL, 1,
     "{\"specVersion\":\"1.0\",\"shadeColorFactor\":[0.5,0.25,1],\"outlineWidthMode\":\"none\"}"},
};
#define EXPECTED_COUNT (sizeof expected / sizeof expected[0])

static sw_model* load(const sw_gltf_options* options, sw_diag* diag) {
    sw_model* model = NULL;
    sw_result r = sw_gltf_load_file(EXTENSIONS_FILE, options, &model, diag);
    if (r != SW_OK) fprintf(stderr, "  %s\n", diag->message);
    return model;
}

/* Every record of `model` is exactly the expected one, and
   sw_model_find_extension finds it. */
static void check_records(const sw_model* model) {
    SW_CHECK_EQ_INT(model->extension_count, EXPECTED_COUNT);
    if (model->extension_count != EXPECTED_COUNT) return;
    for (size_t i = 0; i < EXPECTED_COUNT; i++) {
        const sw_model_extension* e = &model->extensions[i];
        const expected_record* x = &expected[i];
        bool same = e->name && strcmp(e->name, x->name) == 0 && e->object == x->object && e->index == x->index &&
                    e->json && strcmp(e->json, x->json) == 0;
        if (!same)
            fprintf(stderr, "  record %zu: %s object %d index %u: %s\n  expected %s object %d index %u: %s\n", i,
                    e->name ? e->name : "(null)", (int)e->object, (unsigned)e->index, e->json ? e->json : "(null)",
                    x->name, (int)x->object, (unsigned)x->index, x->json);
        SW_CHECK(same);
        SW_CHECK(sw_model_find_extension(model, x->name, x->object, x->index) == e);
    }
}

static void test_records(void) {
    sw_diag diag = {0};
    sw_model* model = load(NULL, &diag);
    SW_CHECK(model != NULL);
    if (!model) return;
    /* the one name in extensionsUsed that sinew does not know */
    SW_CHECK_EQ_INT(model->warning_count, 1);
    if (model->warning_count == 1)
        CHECK_EQ_STR(model->warnings[0], "extensions.gltf: extensionsUsed[7]: SINEW_test_mesh is not supported; ignored");
    check_records(model);
    sw_model_free(model);
}

/* The node records follow their nodes through the parents-first order. */
static void test_node_indices_are_model_order(void) {
    sw_diag diag = {0};
    sw_model* model = load(NULL, &diag);
    if (!model) {
        SW_CHECK(model != NULL);
        return;
    }
    SW_CHECK_EQ_INT(model->node_count, 2);
    SW_CHECK(strcmp(model->nodes[0].name, "root") == 0 && model->nodes[0].source_index == 1);
    SW_CHECK(strcmp(model->nodes[1].name, "child") == 0 && model->nodes[1].source_index == 0);
    SW_CHECK_EQ_INT(model->nodes[1].parent, 0);
    SW_CHECK_EQ_INT(model->node_from_source[0], 1);
    SW_CHECK(sw_model_find_extension(model, "VRMC_node_constraint", SW_MODEL_OBJECT_NODE, 1) != NULL);
    SW_CHECK(sw_model_find_extension(model, "VRMC_node_constraint", SW_MODEL_OBJECT_NODE, 0) == NULL);
    SW_CHECK(sw_model_find_extension(model, "SINEW_test_node", SW_MODEL_OBJECT_NODE, 0) != NULL);
    /* the name is not enough: object and index must match too */
    SW_CHECK(sw_model_find_extension(model, "SINEW_test_node", SW_MODEL_OBJECT_MESH, 0) == NULL);
    SW_CHECK(sw_model_find_extension(model, "VRMC_vrm", SW_MODEL_OBJECT_MODEL, 1) == NULL);
    sw_model_free(model);
}

/* What the importer interprets is applied, not kept. */
static void test_interpreted_not_kept(void) {
    sw_diag diag = {0};
    sw_model* model = load(NULL, &diag);
    if (!model) {
        SW_CHECK(model != NULL);
        return;
    }
    SW_CHECK(model->material_count == 2 && model->materials[1].unlit && !model->materials[0].unlit);
    if (model->material_count == 2) {
        SW_CHECK_NEAR(model->materials[0].emissive_strength, 1.0, 0.0);
        SW_CHECK_NEAR(model->materials[1].emissive_strength, 5.0, 0.0);
    }
    SW_CHECK(sw_model_find_extension(model, "KHR_materials_unlit", SW_MODEL_OBJECT_MATERIAL, 1) == NULL);
    SW_CHECK(sw_model_find_extension(model, "KHR_materials_emissive_strength", SW_MODEL_OBJECT_MATERIAL, 1) == NULL);
    SW_CHECK(sw_model_find_extension(model, "KHR_mesh_quantization", SW_MODEL_OBJECT_MESH, 0) == NULL);
    for (size_t i = 0; i < model->extension_count; i++) {
        const char* name = model->extensions[i].name;
        SW_CHECK(strcmp(name, "KHR_materials_unlit") != 0 && strcmp(name, "KHR_mesh_quantization") != 0 &&
                 strcmp(name, "KHR_texture_transform") != 0 && strcmp(name, "KHR_materials_emissive_strength") != 0);
    }
    sw_model_free(model);
}

/* A file without extensions has none; an `extensions` that is not an
   object is ignored with a warning, not an error (nothing reads it). */
static void test_absent_and_malformed(void) {
    static const char plain[] = "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"name\":\"a\"}]}";
    static const char malformed[] = "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"name\":\"a\",\"extensions\":3}],"
                                    "\"meshes\":[],\"extensions\":[]}";
    sw_model* model = NULL;
    sw_diag diag = {0};
    SW_CHECK_EQ_INT(sw_gltf_load_memory(plain, sizeof plain - 1, "plain", NULL, NULL, &model, &diag), SW_OK);
    if (model) {
        SW_CHECK(model->extension_count == 0 && model->extensions == NULL);
        SW_CHECK(sw_model_find_extension(model, "VRMC_vrm", SW_MODEL_OBJECT_MODEL, 0) == NULL);
        sw_model_free(model);
    }
    SW_CHECK_EQ_INT(sw_gltf_load_memory(malformed, sizeof malformed - 1, "m.gltf", NULL, NULL, &model, &diag), SW_OK);
    if (!model) return;
    SW_CHECK_EQ_INT(model->extension_count, 0);
    SW_CHECK_EQ_INT(model->warning_count, 2);
    if (model->warning_count == 2) {
        SW_CHECK(strcmp(model->warnings[0], "m.gltf: extensions: expected an object; ignored") == 0);
        SW_CHECK(strcmp(model->warnings[1], "m.gltf: nodes[0].extensions: expected an object; ignored") == 0);
    }
    sw_model_free(model);
}

/* KHR_materials_emissive_strength and VRMC_materials_hdr_emissiveMultiplier
   (the file's materials: khr 4, vrmc 4, both 2 and 4, plain, negative -1),
   read by hand from the file: the VRM multiplier wins over the Khronos one
   as in three-vrm (its plugin sets emissiveIntensity after three.js's); a
   negative one is ignored with a warning; the factor itself is kept as
   written. The unknown KHR_materials_clearcoat is named once, for
   extensionsUsed, and its record kept as any other. */
static void test_emissive_strength(void) {
    sw_model* model = NULL;
    sw_diag diag = {0};
    SW_CHECK_EQ_INT(sw_gltf_load_file(SW_TEST_DATA_DIR "/gltf/emissive_strength.gltf", NULL, &model, &diag), SW_OK);
    if (!model) {
        fprintf(stderr, "  %s\n", diag.message);
        return;
    }
    static const float expected_strength[] = {4.0f, 4.0f, 4.0f, 1.0f, 1.0f};
    SW_CHECK_EQ_INT(model->material_count, 5);
    for (size_t i = 0; i < model->material_count && i < 5; i++) {
        SW_CHECK_NEAR(model->materials[i].emissive_strength, expected_strength[i], 0.0);
        SW_CHECK_NEAR(model->materials[i].emissive_factor[0], 0.25, 0.0);
        SW_CHECK_NEAR(model->materials[i].emissive_factor[1], 0.5, 0.0);
        SW_CHECK_NEAR(model->materials[i].emissive_factor[2], 0.125, 0.0);
    }
    SW_CHECK_EQ_INT(model->warning_count, 2);
    if (model->warning_count == 2) {
        CHECK_EQ_STR(model->warnings[0],
                     "emissive_strength.gltf: extensionsUsed[2]: KHR_materials_clearcoat is not supported; ignored");
        CHECK_EQ_STR(model->warnings[1], "emissive_strength.gltf: materials[4].extensions."
                                         "KHR_materials_emissive_strength.emissiveStrength: must be a number >= 0; "
                                         "ignored");
    }
    SW_CHECK_EQ_INT(model->extension_count, 1);
    SW_CHECK(sw_model_find_extension(model, "KHR_materials_clearcoat", SW_MODEL_OBJECT_MATERIAL, 3) != NULL);
    sw_model_free(model);
}

/* Each name in extensionsUsed: the ones sinew reads or keeps for a reader
   are silent, the one it deliberately ignores too, every other one is
   named in one warning (a name repeated, twice), one line however it is
   written; a required one it does not know still fails the load. */
static void test_extensions_used(void) {
    static const char known[] =
        "{\"asset\":{\"version\":\"2.0\"},\"extensionsUsed\":[\"KHR_mesh_quantization\",\"KHR_texture_transform\","
        "\"KHR_materials_unlit\",\"KHR_materials_emissive_strength\",\"VRMC_materials_hdr_emissiveMultiplier\","
        "\"VRMC_vrm\",\"VRM\",\"VRMC_springBone\",\"VRMC_springBone_extended_collider\",\"VRMC_node_constraint\","
        "\"VRMC_materials_mtoon\",\"VRMC_vrm_animation\",\"SW_materials_toon\",\"SW_spring_bones\","
        "\"KHR_xmp_json_ld\",\"KHR_lights_punctual\",\"KHR_materials_transmission\",\"KHR_materials_volume\","
        "\"KHR_materials_ior\"]}";
    static const char unknown[] =
        "{\"asset\":{\"version\":\"2.0\"},\"extensionsUsed\":[\"KHR_materials_sheen\",\"VRMC_vrm\","
        "\"EXT_texture_webp\",\"KHR_materials_sheen\",\"two\\nlines\"]}";
    static const char required[] =
        "{\"asset\":{\"version\":\"2.0\"},\"extensionsUsed\":[\"KHR_materials_sheen\"],"
        "\"extensionsRequired\":[\"KHR_materials_sheen\"]}";
    sw_model* model = NULL;
    sw_diag diag = {0};
    SW_CHECK_EQ_INT(sw_gltf_load_memory(known, sizeof known - 1, "k.gltf", NULL, NULL, &model, &diag), SW_OK);
    if (model) {
        SW_CHECK_EQ_INT(model->warning_count, 0);
        sw_model_free(model);
    }
    SW_CHECK_EQ_INT(sw_gltf_load_memory(unknown, sizeof unknown - 1, "u.gltf", NULL, NULL, &model, &diag), SW_OK);
    if (model) {
        SW_CHECK_EQ_INT(model->warning_count, 4);
        if (model->warning_count == 4) {
            CHECK_EQ_STR(model->warnings[0], "u.gltf: extensionsUsed[0]: KHR_materials_sheen is not supported; ignored");
            CHECK_EQ_STR(model->warnings[1], "u.gltf: extensionsUsed[2]: EXT_texture_webp is not supported; ignored");
            CHECK_EQ_STR(model->warnings[2], "u.gltf: extensionsUsed[3]: KHR_materials_sheen is not supported; ignored");
            SW_CHECK(strchr(model->warnings[3], '\n') == NULL && strstr(model->warnings[3], "extensionsUsed[4]"));
        }
        sw_model_free(model);
    }
    SW_CHECK_EQ_INT(sw_gltf_load_memory(required, sizeof required - 1, "r.gltf", NULL, NULL, &model, &diag),
                    SW_ERR_UNSUPPORTED);
    SW_CHECK(model == NULL);
}

/* VRM 0.x materialProperties: a shader sinew does not read is named in a
   model warning (its material is drawn as the glTF material); MToon, the
   unlit ones, VRM_USE_GLTFSHADER and Standard are not, nor is an entry
   without a string shader (the toon reader's business). A VRM 1.0 file's
   leftover VRM record is not looked at. */
static void test_vrm0_shaders(void) {
    static const char vrm0[] =
        "{\"asset\":{\"version\":\"2.0\"},\"extensionsUsed\":[\"VRM\"],\"extensions\":{\"VRM\":{"
        "\"materialProperties\":[{\"name\":\"a\",\"shader\":\"VRM/MToon\"},{\"name\":\"b\",\"shader\":\"lilToon\"},"
        "{\"shader\":\"VRM_USE_GLTFSHADER\"},{\"shader\":\"VRM/UnlitCutout\"},{\"shader\":\"Standard\"},"
        "{\"shader\":3},7]}}}";
    static const char vrm1[] =
        "{\"asset\":{\"version\":\"2.0\"},\"extensions\":{\"VRMC_vrm\":{},\"VRM\":{"
        "\"materialProperties\":[{\"name\":\"b\",\"shader\":\"lilToon\"}]}}}";
    sw_model* model = NULL;
    sw_diag diag = {0};
    SW_CHECK_EQ_INT(sw_gltf_load_memory(vrm0, sizeof vrm0 - 1, "v.vrm", NULL, NULL, &model, &diag), SW_OK);
    if (model) {
        SW_CHECK_EQ_INT(model->warning_count, 1);
        if (model->warning_count == 1)
            CHECK_EQ_STR(model->warnings[0], "v.vrm: extensions.VRM.materialProperties[1].shader: \"lilToon\" is not "
                                             "supported; the material is drawn as its glTF material");
        sw_model_free(model);
    }
    SW_CHECK_EQ_INT(sw_gltf_load_memory(vrm1, sizeof vrm1 - 1, "v1.vrm", NULL, NULL, &model, &diag), SW_OK);
    if (model) {
        SW_CHECK_EQ_INT(model->warning_count, 0);
        sw_model_free(model);
    }
}

static sw_result load_within(size_t limit, sw_model** model) {
    sw_diag diag = {0};
    *model = NULL;
    return sw_gltf_load_file(EXTENSIONS_FILE, &(sw_gltf_options){.max_memory = limit}, model, &diag);
}

/* The JSON text is charged against max_memory like everything else: with
   a byte less than the file needs the load fails cleanly (no model;
   nothing leaks, which the sanitizer build checks), and the smallest
   budget that is enough gives the very same records. */
static void test_memory_budget(void) {
    size_t too_small = 1024, enough = (size_t)1 << 24;
    sw_model* model = NULL;
    SW_CHECK_EQ_INT(load_within(too_small, &model), SW_ERR_OUT_OF_MEMORY);
    SW_CHECK(model == NULL);
    SW_CHECK_EQ_INT(load_within(enough, &model), SW_OK);
    sw_model_free(model);
    while (enough - too_small > 1) {
        size_t mid = too_small + (enough - too_small) / 2;
        sw_result r = load_within(mid, &model);
        sw_model_free(model);
        if (r == SW_OK) enough = mid;
        else too_small = mid;
    }
    SW_CHECK_EQ_INT(load_within(too_small, &model), SW_ERR_OUT_OF_MEMORY);
    SW_CHECK(model == NULL);
    SW_CHECK_EQ_INT(load_within(enough, &model), SW_OK);
    if (model) check_records(model);
    sw_model_free(model);
}

int main(void) {
    SW_RUN(test_records);
    SW_RUN(test_node_indices_are_model_order);
    SW_RUN(test_interpreted_not_kept);
    SW_RUN(test_absent_and_malformed);
    SW_RUN(test_emissive_strength);
    SW_RUN(test_extensions_used);
    SW_RUN(test_vrm0_shaders);
    SW_RUN(test_memory_budget);
    return sw_test_finish();
}
