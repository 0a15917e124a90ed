/* The SW_decal reader (sinew/decal.h): the demo stage's two decals read
   back as the generator wrote them; small files for the rules: defaults,
   clamping with a warning, errors that name the file and the JSON path. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "sinew/decal.h"
#include "sinew/demo.h"
#include "sinew/gltf.h"

static sw_model* load_text(const char* name, const char* json) {
    sw_model* model = NULL;
    sw_diag d = {0};
    if (sw_gltf_load_memory((const uint8_t*)json, strlen(json), name, NULL, NULL, &model, &d) != SW_OK)
        fprintf(stderr, "  %s: %s\n", name, d.message);
    return model;
}

static void test_demo_stage_decals(void) {
    uint8_t* glb = NULL;
    size_t size = 0;
    sw_diag d = {0};
    sw_model* model = NULL;
    SW_CHECK(sw_demo_stage_glb(&glb, &size, &d) == SW_OK);
    SW_CHECK(sw_gltf_load_memory(glb, size, SW_DEMO_STAGE_NAME, NULL, NULL, &model, &d) == SW_OK);
    sw_demo_stage_glb_free(glb);
    if (!model) return;
    sw_decal_set* set = NULL;
    SW_CHECK(sw_decal_read(model, &set, &d) == SW_OK);
    SW_CHECK(set && set->decal_count == 2 && set->warning_count == 0);
    if (set && set->decal_count == 2) {
        const sw_decal* emblem = &set->decals[0];
        SW_CHECK(strcmp(model->nodes[emblem->node].name, "decal_path_emblem") == 0);
        SW_CHECK(emblem->base_color_texture >= 0 && emblem->normal_texture >= 0);
        SW_CHECK_NEAR(emblem->opacity, 0.9, 1e-6);
        SW_CHECK_NEAR(model->nodes[emblem->node].trs.scale.x, 1.2, 1e-6);
        const sw_decal* sign = &set->decals[1];
        SW_CHECK(strcmp(model->nodes[sign->node].name, "decal_wall_sign") == 0);
        SW_CHECK(sign->base_color_texture >= 0 && sign->normal_texture == -1);
    }
    sw_decal_set_free(set);
    sw_model_free(model);
}

#define NODE_WITH(record)                                                                                        \
    "{\"asset\":{\"version\":\"2.0\"},\"extensionsUsed\":[\"SW_decal\"],\"nodes\":[{\"name\":\"a\"},{\"name\":\"d\"," \
    "\"extensions\":{\"SW_decal\":" record "}}]}"

static void test_defaults_and_clamping(void) {
    sw_model* model = load_text("plain.gltf", NODE_WITH("{\"opacity\":2,\"baseColorFactor\":[1,0.5,0,1]}"));
    SW_CHECK(model != NULL);
    if (!model) return;
    sw_decal_set* set = NULL;
    sw_diag d = {0};
    SW_CHECK(sw_decal_read(model, &set, &d) == SW_OK);
    SW_CHECK(set && set->decal_count == 1);
    if (set && set->decal_count == 1) {
        SW_CHECK(set->decals[0].node == 1 && set->decals[0].opacity == 1.0f && set->decals[0].normal_strength == 1.0f);
        SW_CHECK(set->decals[0].base_color[1] == 0.5f && set->decals[0].base_color_texture == -1);
        SW_CHECK(set->warning_count == 1 && strstr(set->warnings[0], "opacity"));
    }
    sw_decal_set_free(set);
    sw_model_free(model);
}

static void expect_error(const char* record, const char* path) {
    char json[512];
    snprintf(json, sizeof json, NODE_WITH("%s"), record);
    sw_model* model = load_text("bad.gltf", json);
    SW_CHECK(model != NULL);
    if (!model) return;
    sw_decal_set* set = NULL;
    sw_diag d = {0};
    SW_CHECK(sw_decal_read(model, &set, &d) == SW_ERR_INVALID_DATA && set == NULL);
    if (!strstr(d.message, "bad.gltf") || !strstr(d.message, path)) fprintf(stderr, "  message: %s\n", d.message);
    SW_CHECK(strstr(d.message, "bad.gltf") && strstr(d.message, path));
    sw_model_free(model);
}

static void test_errors(void) {
    expect_error("[1]", "nodes[1].extensions.SW_decal");
    expect_error("{\"baseColorTexture\":3}", "nodes[1].extensions.SW_decal.baseColorTexture");
    expect_error("{\"normalTexture\":\"x\"}", "nodes[1].extensions.SW_decal.normalTexture");
    expect_error("{\"baseColorFactor\":[1,1]}", "nodes[1].extensions.SW_decal.baseColorFactor");
    sw_model* model = load_text("none.gltf", "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{}]}");
    sw_decal_set* set = (sw_decal_set*)1;
    sw_diag d = {0};
    SW_CHECK(model && sw_decal_read(model, &set, &d) == SW_OK && set == NULL);
    sw_model_free(model);
}

int main(void) {
    SW_RUN(test_demo_stage_decals);
    SW_RUN(test_defaults_and_clamping);
    SW_RUN(test_errors);
    return sw_test_finish();
}
