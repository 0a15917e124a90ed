/* The built-in demo stage (sinew/demo.h), checked through the public
   importer: a GLB that loads with no warning but for extensions nobody
   reads yet; the same bytes on every call, made quickly; the features it
   promises (alpha-tested double-sided cards, blended glass and water,
   KHR_lights_punctual lights on nodes, SW_decal boxes, a ground whose
   vertex alpha, the snow coverage, is 0 on the path and 1 on the snow
   field); bounds that frame; the ground's top at y = 0 under the
   character and no prop where she stands. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "harness.h"
#include "sinew/demo.h"
#include "sinew/gltf.h"
#include "sinew/math.h"
#include "sinew/model.h"

static uint8_t* stage_glb;
static size_t stage_size;
static sw_model* stage;

static double seconds_now(void) {
    struct timespec t;
    timespec_get(&t, TIME_UTC);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void test_same_bytes_quickly(void) {
    uint8_t* again = NULL;
    size_t size = 0;
    sw_diag diag;
    double start = seconds_now();
    SW_CHECK(sw_demo_stage_glb(&again, &size, &diag) == SW_OK);
    double elapsed = seconds_now() - start;
    fprintf(stderr, "  generated %zu bytes in %.3f s\n", size, elapsed);
    SW_CHECK(elapsed < 0.5); /* about 0.01 s optimised; room for sanitizers */
    SW_CHECK(again && size == stage_size && memcmp(again, stage_glb, size) == 0);
    sw_demo_stage_glb_free(again);
    SW_CHECK(stage_size > 1000 && memcmp(stage_glb, "glTF", 4) == 0);
}

/* Only the extension nobody reads yet may warn (KHR_lights_punctual, read
   by the renderer's lights where it is). */
static void test_loads_without_warnings(void) {
    SW_CHECK(stage != NULL);
    if (!stage) return;
    for (size_t i = 0; i < stage->warning_count; i++) {
        bool allowed = strstr(stage->warnings[i], "KHR_lights_punctual") != NULL;
        if (!allowed) fprintf(stderr, "  warning: %s\n", stage->warnings[i]);
        SW_CHECK(allowed);
    }
}

/* The JSON chunk as text (NUL-terminated copy). */
static char* json_text(void) {
    uint32_t length;
    memcpy(&length, stage_glb + 12, 4); /* little-endian hosts */
    char* text = malloc(length + 1);
    if (!text) return NULL;
    memcpy(text, stage_glb + 20, length);
    text[length] = 0;
    return text;
}

static int count_of(const char* text, const char* needle) {
    int n = 0;
    for (const char* at = text; (at = strstr(at, needle)); at++) n++;
    return n;
}

static void test_lights_and_decals(void) {
    char* text = json_text();
    SW_CHECK(text != NULL);
    if (!text) return;
    SW_CHECK(strstr(text, "\"extensionsUsed\":[\"KHR_lights_punctual\",\"SW_decal\",\"SW_materials_snow\"]") != NULL);
    SW_CHECK(strstr(text, "\"KHR_lights_punctual\":{\"lights\":[") != NULL);
    SW_CHECK(strstr(text, "\"type\":\"point\"") && strstr(text, "\"type\":\"spot\""));
    SW_CHECK_EQ_INT(count_of(text, "\"KHR_lights_punctual\":{\"light\":"), 2);
    free(text);
    if (!stage) return;
    int decals = 0;
    for (size_t e = 0; e < stage->extension_count; e++)
        if (stage->extensions[e].object == SW_MODEL_OBJECT_NODE && strcmp(stage->extensions[e].name, "SW_decal") == 0)
            decals++;
    SW_CHECK_EQ_INT(decals, 2);
}

static void test_materials(void) {
    if (!stage) return;
    int mask = 0, blend = 0;
    for (size_t m = 0; m < stage->material_count; m++) {
        const sw_model_material* mat = &stage->materials[m];
        SW_CHECK(mat->roughness_factor > 0.0f && mat->roughness_factor <= 1.0f);
        if (mat->alpha_mode == SW_MODEL_ALPHA_MASK) {
            mask++;
            SW_CHECK(mat->double_sided);               /* cards seen from both sides */
            SW_CHECK(mat->base_color_texture.texture >= 0); /* the alpha is painted */
        }
        if (mat->alpha_mode == SW_MODEL_ALPHA_BLEND) {
            blend++;
            SW_CHECK(mat->base_color_factor[3] > 0.1f && mat->base_color_factor[3] < 0.9f);
        }
    }
    SW_CHECK(mask >= 2 && blend >= 2);
}

static const sw_model_node* node_named(const char* name) {
    for (size_t n = 0; n < stage->node_count; n++)
        if (stage->nodes[n].name && strcmp(stage->nodes[n].name, name) == 0) return &stage->nodes[n];
    return NULL;
}

/* The ground: flat at y = 0 with a vertex at the origin; COLOR_0 alpha
   (snow coverage) reaches 0 and 1, and is 0 on the path beside her. */
static void test_ground_snow(void) {
    if (!stage) return;
    const sw_model_node* ground = node_named("ground");
    SW_CHECK(ground && ground->mesh >= 0);
    if (!ground || ground->mesh < 0) return;
    const sw_model_primitive* p = &stage->meshes[ground->mesh].primitives[0];
    SW_CHECK(p->colors != NULL);
    if (!p->colors) return;
    float lo = 2, hi = -1;
    bool origin = false, path_bare = false;
    for (size_t v = 0; v < p->vertex_count; v++) {
        const float* x = &p->positions[v * 3];
        float a = p->colors[v * 4 + 3];
        lo = fminf(lo, a), hi = fmaxf(hi, a);
        SW_CHECK(x[1] == 0.0f);
        if (x[0] == 0.0f && x[2] == 0.0f) origin = true;
        if (x[0] == 1.0f && x[2] == 0.0f) path_bare = a == 0.0f; /* the path's centre at z = 0 is x = 1 */
    }
    SW_CHECK(lo == 0.0f && hi == 1.0f);
    SW_CHECK(origin && path_bare);
    /* Its material carries SW_materials_snow with the analysis' numbers. */
    SW_CHECK(p->material >= 0 && (size_t)p->material < stage->material_count);
    if (p->material >= 0 && (size_t)p->material < stage->material_count) {
        const sw_model_material* mat = &stage->materials[p->material];
        SW_CHECK(mat->snow);
        SW_CHECK_NEAR(mat->snow_threshold, 0.53, 1e-6);
        SW_CHECK_NEAR(mat->snow_width, 0.34, 1e-6);
        SW_CHECK_NEAR(mat->snow_cover_color[2], 0.98, 1e-6);
        SW_CHECK(mat->snow_sparkle > 0.0f);
    }
    int snowy = 0;
    for (size_t m = 0; m < stage->material_count; m++) snowy += stage->materials[m].snow;
    SW_CHECK(snowy == 1); /* the ground alone */
    SW_CHECK_NEAR(p->bounds_min[0], -12.0, 1e-6);
    SW_CHECK_NEAR(p->bounds_max[2], 12.0, 1e-6);
}

/* Every vertex in the world: inside the 24 m square, between y = 0 and
   4 m; no prop vertex within 0.6 m of the vertical through the origin
   (where she stands). */
static void test_bounds_and_her_place(void) {
    if (!stage) return;
    float top = 0;
    int near_her = 0;
    for (size_t n = 0; n < stage->node_count; n++) {
        const sw_model_node* node = &stage->nodes[n];
        SW_CHECK(node->parent < 0); /* all roots: the local transform is the world's */
        if (node->mesh < 0) continue;
        sw_mat34 world = sw_transform_to_mat34(&node->trs);
        const sw_model_mesh* mesh = &stage->meshes[node->mesh];
        for (size_t k = 0; k < mesh->primitive_count; k++) {
            const sw_model_primitive* p = &mesh->primitives[k];
            for (size_t v = 0; v < p->vertex_count; v++) {
                const float* x = &p->positions[v * 3];
                sw_vec3 w = sw_mat34_apply_point(&world, sw_vec3_make(x[0], x[1], x[2]));
                SW_CHECK(fabsf(w.x) <= 12.0f && fabsf(w.z) <= 12.0f && w.y >= -1e-6f && w.y <= 4.0f);
                top = fmaxf(top, w.y);
                if (strcmp(node->name, "ground") != 0 && hypotf(w.x, w.z) < 0.6f) near_her++;
            }
        }
    }
    SW_CHECK(top > 2.0f); /* a wall and a tree, not a flat stage */
    SW_CHECK_EQ_INT(near_her, 0);
}

int main(void) {
    sw_diag diag;
    if (sw_demo_stage_glb(&stage_glb, &stage_size, &diag) != SW_OK) {
        fprintf(stderr, "sw_demo_stage_glb: %s\n", diag.message);
        return EXIT_FAILURE;
    }
    if (sw_gltf_load_memory(stage_glb, stage_size, SW_DEMO_STAGE_NAME, NULL, NULL, &stage, &diag) != SW_OK)
        fprintf(stderr, "load: %s\n", diag.message);
    SW_RUN(test_same_bytes_quickly);
    SW_RUN(test_loads_without_warnings);
    SW_RUN(test_lights_and_decals);
    SW_RUN(test_materials);
    SW_RUN(test_ground_snow);
    SW_RUN(test_bounds_and_her_place);
    sw_model_free(stage);
    sw_demo_stage_glb_free(stage_glb);
    return sw_test_finish();
}
