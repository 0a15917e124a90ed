/* KHR_lights_punctual, KHR_materials_transmission, KHR_materials_volume
   and KHR_materials_ior as the glTF importer reads them, on the files of
   tests/data/transparency/make_transparency_files.py: lights.gltf (a point
   light on "Bulb", a spot on "Lamp" and "Lamp2", a directional on "Sun"),
   its two bad copies (errors naming their JSON paths) and the "Glass"
   material of transparent_lit.gltf. None of them warns about an unknown
   extension. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "sinew/gltf.h"

static sw_model* load(const char* name, sw_diag* d) {
    char path[512];
    snprintf(path, sizeof path, "%s/transparency/%s", SW_TEST_DATA_DIR, name);
    sw_model* m = NULL;
    *d = (sw_diag){0};
    if (sw_gltf_load_file(path, NULL, &m, d) != SW_OK) return NULL;
    return m;
}

static bool warns_unknown(const sw_model* m) {
    for (size_t i = 0; i < m->warning_count; i++) {
        printf("  warning: %s\n", m->warnings[i]);
        if (strstr(m->warnings[i], "KHR_")) return true;
    }
    return false;
}

static const sw_model_light* light_on(const sw_model* m, const char* node) {
    const int32_t n = sw_model_find_node_by_name(m, node);
    for (size_t i = 0; i < m->light_count; i++)
        if (m->lights[i].node == n) return &m->lights[i];
    return NULL;
}

static void test_lights(void) {
    sw_diag d;
    sw_model* m = load("lights.gltf", &d);
    SW_CHECK(m != NULL);
    if (!m) {
        printf("  %s\n", d.message);
        return;
    }
    SW_CHECK_EQ_INT((int)m->light_count, 4); /* the spot twice */
    SW_CHECK(!warns_unknown(m));
    const sw_model_light *bulb = light_on(m, "Bulb"), *lamp = light_on(m, "Lamp"), *sun = light_on(m, "Sun"),
                         *lamp2 = light_on(m, "Lamp2");
    SW_CHECK(bulb && lamp && sun && lamp2);
    if (!bulb || !lamp || !sun || !lamp2) return;
    SW_CHECK(bulb->type == SW_MODEL_LIGHT_POINT && strcmp(bulb->name, "bulb") == 0);
    SW_CHECK_NEAR(bulb->color[1], 0.9f, 1e-6);
    SW_CHECK_NEAR(bulb->intensity, 5.0f, 1e-6);
    SW_CHECK_NEAR(bulb->range, 4.0f, 1e-6);
    SW_CHECK(lamp->type == SW_MODEL_LIGHT_SPOT && lamp->source == 1 && lamp2->source == 1);
    SW_CHECK_NEAR(lamp->inner_cone_angle, 0.2f, 1e-6);
    SW_CHECK_NEAR(lamp->outer_cone_angle, 0.5f, 1e-6);
    SW_CHECK_NEAR(lamp->color[2], 1.0f, 1e-6); /* the default colour */
    SW_CHECK(sun->type == SW_MODEL_LIGHT_DIRECTIONAL && sun->name == NULL);
    SW_CHECK_NEAR(sun->intensity, 2.0f, 1e-6);
    SW_CHECK_NEAR(sun->range, 0.0f, 1e-9);
    sw_model_free(m);
}

static void test_bad_lights(void) {
    static const struct { const char* file; const char* path; } bad[] = {
        {"lights_bad_cone.gltf", "extensions.KHR_lights_punctual.lights[1].spot"},
        {"lights_bad_index.gltf", "nodes[1].extensions.KHR_lights_punctual.light"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        sw_diag d;
        sw_model* m = load(bad[i].file, &d);
        printf("  %s: %s\n", bad[i].file, d.message);
        SW_CHECK(m == NULL && d.result != SW_OK);
        SW_CHECK(strstr(d.message, bad[i].path) != NULL);
        sw_model_free(m);
    }
}

static void test_transmission(void) {
    sw_diag d;
    sw_model* m = load("transparent_lit.gltf", &d);
    SW_CHECK(m != NULL);
    if (!m) return;
    SW_CHECK(!warns_unknown(m));
    const sw_model_material* glass = NULL;
    for (size_t i = 0; i < m->material_count; i++)
        if (m->materials[i].name && strcmp(m->materials[i].name, "Glass") == 0) glass = &m->materials[i];
    SW_CHECK(glass != NULL);
    if (glass) {
        SW_CHECK_NEAR(glass->transmission_factor, 0.9f, 1e-6);
        SW_CHECK(glass->transmission_texture.texture == -1 && glass->thickness_texture.texture == -1);
        SW_CHECK_NEAR(glass->thickness_factor, 0.5f, 1e-6);
        SW_CHECK_NEAR(glass->attenuation_distance, 1.0f, 1e-6);
        SW_CHECK_NEAR(glass->attenuation_color[1], 0.8f, 1e-6);
        SW_CHECK_NEAR(glass->ior, 1.45f, 1e-6);
    }
    /* A material without them: none. */
    SW_CHECK_NEAR(m->materials[0].transmission_factor, 0.0f, 1e-9);
    SW_CHECK_NEAR(m->materials[0].attenuation_color[0], 1.0f, 1e-9);
    SW_CHECK_NEAR(m->materials[0].ior, 0.0f, 1e-9);
    sw_model_free(m);
}

/* Out-of-range values: an error naming the path. */
static void test_bad_transmission(void) {
    static const char* const json[] = {
        "{\"asset\":{\"version\":\"2.0\"},\"materials\":[{\"extensions\":{\"KHR_materials_transmission\":"
        "{\"transmissionFactor\":1.5}}}]}",
        "{\"asset\":{\"version\":\"2.0\"},\"materials\":[{\"extensions\":{\"KHR_materials_volume\":"
        "{\"attenuationDistance\":0}}}]}",
        "{\"asset\":{\"version\":\"2.0\"},\"materials\":[{\"extensions\":{\"KHR_materials_ior\":{\"ior\":0.5}}}]}",
    };
    static const char* const paths[] = {
        "materials[0].extensions.KHR_materials_transmission.transmissionFactor",
        "materials[0].extensions.KHR_materials_volume.attenuationDistance",
        "materials[0].extensions.KHR_materials_ior.ior",
    };
    for (size_t i = 0; i < 3; i++) {
        sw_model* m = NULL;
        sw_diag d = {0};
        const sw_result r = sw_gltf_load_memory(json[i], strlen(json[i]), "bad.gltf", NULL, NULL, &m, &d);
        printf("  %s\n", d.message);
        SW_CHECK(r == SW_ERR_INVALID_DATA && m == NULL && strstr(d.message, paths[i]) != NULL);
        sw_model_free(m);
    }
}

int main(void) {
    SW_RUN(test_lights);
    SW_RUN(test_bad_lights);
    SW_RUN(test_transmission);
    SW_RUN(test_bad_transmission);
    return sw_test_finish();
}
