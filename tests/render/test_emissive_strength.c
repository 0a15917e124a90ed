/* The emissive multipliers drawn: KHR_materials_emissive_strength on a
   metallic-roughness material and VRMC_materials_hdr_emissiveMultiplier
   on an MToon one (two quads seen from above, read with the glTF importer
   and sw_material_set_read, as `sinew render` reads them). The scene is
   drawn with strength 4 and again without the extensions (strength 1):
   emission is added after lighting in both paths, so each pixel's HDR
   colour must differ by exactly (4 − 1) × emissiveFactor, whatever the
   lighting gives. Skips, saying so, only when no EGL display exists at
   all. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "gl_harness.h"
#include "sinew/gltf.h"
#include "sinew/import.h"
#include "sinew/pose.h"
#include "sinew/render.h"

static sw_gl_context* g_context;

enum { W = 64, H = 64 };

/* Two 1 m quads on y = 0 facing +Y, centred at x = −0.7 (material 0,
   metallic-roughness) and x = +0.7 (material 1, MToon); `lit` and `toon`
   are each material's extensions besides MToon's. */
static const char scene_format[] =
    "{\"asset\":{\"version\":\"2.0\"},\"extensionsUsed\":[\"VRMC_materials_mtoon\","
    "\"KHR_materials_emissive_strength\",\"VRMC_materials_hdr_emissiveMultiplier\"],"
    "\"scene\":0,\"scenes\":[{\"nodes\":[0]}],\"nodes\":[{\"mesh\":0}],"
    "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"NORMAL\":1},\"indices\":2,\"material\":0},"
    "{\"attributes\":{\"POSITION\":0,\"NORMAL\":1},\"indices\":3,\"material\":1}]}],"
    "\"materials\":[{\"pbrMetallicRoughness\":{\"baseColorFactor\":[0.5,0.5,0.5,1],\"metallicFactor\":0},"
    "\"emissiveFactor\":[0.25,0.5,0.125],\"doubleSided\":true,\"extensions\":{%s}},"
    "{\"pbrMetallicRoughness\":{\"baseColorFactor\":[0.5,0.5,0.5,1]},\"emissiveFactor\":[0.125,0.25,0.5],"
    "\"doubleSided\":true,\"extensions\":{\"VRMC_materials_mtoon\":{\"specVersion\":\"1.0\"}%s}}],"
    "\"buffers\":[{\"byteLength\":216,\"uri\":\"data:application/octet-stream;base64,"
    "mpmZvwAAAAAAAAC/zcxMvgAAAAAAAAC/zcxMvgAAAAAAAAA/mpmZvwAAAAAAAAA/zcxMPgAAAAAAAAC/mpmZPwAAAAAAAAC/mpmZPwAAAAAA"
    "AAA/zcxMPgAAAAAAAAA/AAAAAAAAgD8AAAAAAAAAAAAAgD8AAAAAAAAAAAAAgD8AAAAAAAAAAAAAgD8AAAAAAAAAAAAAgD8AAAAAAAAAAAAA"
    "gD8AAAAAAAAAAAAAgD8AAAAAAAAAAAAAgD8AAAAAAAACAAEAAAADAAIABAAGAAUABAAHAAYA\"}],"
    "\"bufferViews\":[{\"buffer\":0,\"byteLength\":96},{\"buffer\":0,\"byteOffset\":96,\"byteLength\":96},"
    "{\"buffer\":0,\"byteOffset\":192,\"byteLength\":24}],"
    "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":8,\"type\":\"VEC3\","
    "\"min\":[-1.2,0,-0.5],\"max\":[1.2,0,0.5]},{\"bufferView\":1,\"componentType\":5126,\"count\":8,"
    "\"type\":\"VEC3\"},{\"bufferView\":2,\"componentType\":5123,\"count\":6,\"type\":\"SCALAR\"},"
    "{\"bufferView\":2,\"byteOffset\":12,\"componentType\":5123,\"count\":6,\"type\":\"SCALAR\"}]}";

static const float emissive[2][3] = {{0.25f, 0.5f, 0.125f}, {0.125f, 0.25f, 0.5f}};
static const float quad_centre_x[2] = {-0.7f, 0.7f};

/* The pixel (x from the left, y from the bottom, as the HDR rows go) where
   world point p lands. */
static const float* hdr_at(const float* hdr, const sw_camera* c, const float p[3]) {
    float m[16];
    sw_camera_view_projection(c, (float)W / H, m);
    float clip[4];
    for (int r = 0; r < 4; r++) clip[r] = m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r];
    int x = (int)floorf((clip[0] / clip[3] * 0.5f + 0.5f) * (float)W);
    int y = (int)floorf((clip[1] / clip[3] * 0.5f + 0.5f) * (float)H);
    return hdr + 4 * ((size_t)y * W + x);
}

/* Draws the scene with the given extension texts into hdr (W × H × 4). */
static bool draw_scene(const char* lit_extensions, const char* toon_extensions, const sw_camera* c, float* hdr) {
    char json[4096];
    snprintf(json, sizeof json, scene_format, lit_extensions, toon_extensions);
    sw_model* model = NULL;
    sw_material_set materials = {0};
    sw_renderer* r = NULL;
    void* pose_memory = NULL;
    sw_diag d = {0};
    bool ok = sw_gltf_load_memory(json, strlen(json), "emissive.gltf", NULL, NULL, &model, &d) == SW_OK &&
              sw_material_set_read(model, &materials, &d) == SW_OK &&
              sw_renderer_create(&(sw_renderer_desc){.width = W, .height = H, .shadow_map_size = 256}, &r, &d) ==
                  SW_OK &&
              sw_renderer_set_scene(r, model, &materials, &d) == SW_OK;
    if (ok) {
        sw_pose_sizes sizes = sw_pose_sizes_of(model);
        pose_memory = aligned_alloc(16, (sw_pose_memory_size(&sizes) + 15) / 16 * 16);
        sw_pose pose;
        sw_pose_bind(&pose, &sizes, pose_memory);
        ok = sw_pose_evaluate(model, NULL, 0.0f, false, &pose, &d) == SW_OK;
        sw_render_frame f = {.pose = &pose, .first_frame = true, .camera = {*c, *c},
                             .shading = {.light_direction = {0.6f, 0.8f, 0.0f}}};
        ok = ok && sw_renderer_draw(r, &f, &d) == SW_OK && sw_renderer_read_hdr(r, hdr, &d) == SW_OK;
    }
    if (!ok) fprintf(stderr, "  %s\n", d.message);
    free(pose_memory);
    sw_renderer_destroy(r);
    sw_material_set_free(&materials);
    sw_model_free(model);
    return ok;
}

static void test_emissive_strength_drawn(void) {
    float* plain = malloc(sizeof(float) * 4 * W * H);
    float* strong = malloc(sizeof(float) * 4 * W * H);
    SW_CHECK(plain && strong);
    sw_camera c = {.eye = {0, 3, 0}, .target = {0, 0, 0}, .up = {0, 0, -1}, .fov_y = 45.0f * 3.14159265f / 180.0f,
                   .z_near = 0.05f, .z_far = 50.0f};
    if (plain && strong && draw_scene("", "", &c, plain) &&
        draw_scene("\"KHR_materials_emissive_strength\":{\"emissiveStrength\":4}",
                   ",\"VRMC_materials_hdr_emissiveMultiplier\":{\"emissiveMultiplier\":4}", &c, strong)) {
        for (int q = 0; q < 2; q++) {
            const float* p = hdr_at(plain, &c, (const float[3]){quad_centre_x[q], 0.0f, 0.0f});
            const float* s = hdr_at(strong, &c, (const float[3]){quad_centre_x[q], 0.0f, 0.0f});
            for (int ch = 0; ch < 3; ch++) {
                const double expected = 3.0 * emissive[q][ch];
                SW_CHECK_NEAR(s[ch] - p[ch], expected, 2e-3 + 2e-3 * (p[ch] + expected));
            }
        }
    }
    free(plain);
    free(strong);
}

int main(void) {
    int skip = sw_test_gl_begin(&g_context);
    if (skip >= 0) return skip;
    SW_RUN(test_emissive_strength_drawn);
    sw_gl_context_destroy(g_context);
    return sw_test_finish();
}
