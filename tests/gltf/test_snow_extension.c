/* SW_materials_snow as the glTF loader reads it (docs/extensions.md): the
   members, the defaults of an empty record, no warning for the name, and
   an error naming the JSON path for a value out of range or of the wrong
   type. */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "sinew/gltf.h"

static sw_model* load(const char* json, sw_diag* d) {
    sw_model* m = NULL;
    *d = (sw_diag){0};
    if (sw_gltf_load_memory(json, strlen(json), "snow.gltf", NULL, NULL, &m, d) != SW_OK) return NULL;
    return m;
}

static void test_members_and_defaults(void) {
    sw_diag d;
    sw_model* m = load("{\"asset\":{\"version\":\"2.0\"},\"extensionsUsed\":[\"SW_materials_snow\"],\"materials\":["
                       "{\"extensions\":{\"SW_materials_snow\":{\"coverColor\":[0.5,0.25,1],\"threshold\":0.6,"
                       "\"width\":0.2,\"roughness\":0.4,\"sparkle\":2}}},"
                       "{\"extensions\":{\"SW_materials_snow\":{}}},{}]}",
                       &d);
    SW_CHECK(m != NULL);
    if (!m) {
        printf("  %s\n", d.message);
        return;
    }
    SW_CHECK(m->warning_count == 0);
    SW_CHECK(m->material_count == 3);
    const sw_model_material* a = &m->materials[0];
    SW_CHECK(a->snow);
    SW_CHECK_NEAR(a->snow_cover_color[0], 0.5, 1e-6);
    SW_CHECK_NEAR(a->snow_cover_color[1], 0.25, 1e-6);
    SW_CHECK_NEAR(a->snow_threshold, 0.6, 1e-6);
    SW_CHECK_NEAR(a->snow_width, 0.2, 1e-6);
    SW_CHECK_NEAR(a->snow_roughness, 0.4, 1e-6);
    SW_CHECK_NEAR(a->snow_sparkle, 2.0, 1e-6);
    const sw_model_material* b = &m->materials[1];
    SW_CHECK(b->snow);
    SW_CHECK_NEAR(b->snow_threshold, 0.53, 1e-6);
    SW_CHECK_NEAR(b->snow_width, 0.34, 1e-6);
    SW_CHECK_NEAR(b->snow_roughness, 0.8, 1e-6);
    SW_CHECK_NEAR(b->snow_sparkle, 1.0, 1e-6);
    SW_CHECK_NEAR(b->snow_cover_color[2], 0.97, 1e-6);
    SW_CHECK(!m->materials[2].snow);
    sw_model_free(m);
}

static void test_bad_values(void) {
    static const char* const json[] = {
        "{\"asset\":{\"version\":\"2.0\"},\"materials\":[{\"extensions\":{\"SW_materials_snow\":{\"width\":3}}}]}",
        "{\"asset\":{\"version\":\"2.0\"},\"materials\":[{\"extensions\":{\"SW_materials_snow\":"
        "{\"coverColor\":[1,2,0]}}}]}",
        "{\"asset\":{\"version\":\"2.0\"},\"materials\":[{\"extensions\":{\"SW_materials_snow\":{\"sparkle\":\"x\"}}}]}",
        "{\"asset\":{\"version\":\"2.0\"},\"materials\":[{\"extensions\":{\"SW_materials_snow\":7}}]}",
    };
    static const char* const paths[] = {
        "materials[0].extensions.SW_materials_snow.width",
        "materials[0].extensions.SW_materials_snow.coverColor",
        "materials[0].extensions.SW_materials_snow.sparkle",
        "materials[0].extensions.SW_materials_snow",
    };
    for (size_t i = 0; i < 4; i++) {
        sw_diag d;
        sw_model* m = load(json[i], &d);
        printf("  %s\n", d.message);
        SW_CHECK(m == NULL && d.result != SW_OK && strstr(d.message, paths[i]) != NULL);
        sw_model_free(m);
    }
}

int main(void) {
    SW_RUN(test_members_and_defaults);
    SW_RUN(test_bad_values);
    return sw_test_finish();
}
