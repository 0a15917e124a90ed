/* The toon material readers (sw_toon_read): SW_materials_toon field by
   field, VRMC_materials_mtoon (VRM 1.0) and VRM 0.x materialProperties
   mapped onto sinew's toon material, broken blocks refused with a message
   naming file, material and field, values out of range clamped with a
   warning, and .vrm files loaded from disk. Fixtures: toon_fixtures.c. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */

#include "harness.h"
#include "test_random.h"
#include "toon/toon_fixtures.h"

#include "sinew/gltf.h"
#include "sinew/toon.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PI 3.14159265358979

static sw_model* load(const sw_toon_fixture* f, const char* name) {
    size_t size = 0;
    uint8_t* bytes = sw_toon_fixture_glb(f, &size);
    SW_CHECK(bytes != NULL);
    if (!bytes) return NULL;
    sw_model* model = NULL;
    sw_diag diag;
    sw_result r = sw_gltf_load_memory(bytes, size, name, NULL, NULL, &model, &diag);
    if (r != SW_OK) fprintf(stderr, "  load: %s\n", diag.message);
    SW_CHECK_EQ_INT(r, SW_OK);
    free(bytes);
    return r == SW_OK ? model : NULL;
}

/* Loads a one-material file and reads it; returns the result, fills *out and diag. */
static sw_result read_one(const char* name, const char* ext, const char* json, int textures, sw_toon_material* out,
                          sw_diag* diag) {
    sw_toon_fixture_material m = {name, ext, json};
    sw_toon_fixture f = {.texture_count = textures, .material_count = 1, .materials = &m};
    sw_model* model = load(&f, "one.glb");
    if (!model) return SW_ERR_IO;
    sw_result r = sw_toon_read(model, out, diag);
    sw_model_free(model);
    return r;
}

static double srgb_to_linear(double c) { return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4); }

/* ---- SW_materials_toon ------------------------------------------------------------------------------ */

static const char* const full_sw =
    "{\"kind\":\"face\","
    "\"controlTexture\":{\"index\":1,\"texCoord\":1,"
    "\"extensions\":{\"KHR_texture_transform\":{\"offset\":[0.25,0.5],\"rotation\":0.5,\"scale\":[2,3]}}},"
    "\"rampTexture\":{\"index\":2},\"shadeColor\":[0.1,0.2,0.3],\"shadingShift\":-0.2,\"shadingToony\":0.7,"
    "\"regionEnabled\":[true,false,true,false,true],\"lightArea\":0.6,\"rampWidth\":0.5,"
    "\"vertexColorThreshold\":true,\"vertexColorWidth\":true,\"backUv1\":true,\"backForceDark\":true,"
    "\"normalTexture\":{\"index\":1,\"texCoord\":1},\"detailNormalTexture\":{\"index\":3},\"detailGate\":0.9,"
    "\"glints\":[{\"grid\":50,\"spotScale\":0.02,\"phaseRate\":0.1,\"activeWidth\":0.3,\"intensity\":2,"
    "\"lumaLerp\":0.5,\"color\":[0.5,0.6,0.7],\"cameraScale\":4}],"
    "\"viewLift\":-0.1,\"bands\":[{\"exponent\":8,\"lower\":0.1,\"upper\":0.9,\"intensity\":0.2,\"color\":[1,0.5,0.25]},"
    "{\"exponent\":4}],"
    "\"rimColor\":[0.3,0.4,0.5],\"rimWidth\":0.4,\"rimPower\":3,\"rimLift\":0.1,\"rimMaskTexture\":{\"index\":0},"
    "\"faceSdfTexture\":{\"index\":4},\"headNode\":0,\"sdfSteepness\":3460,\"sdfOffset\":0.05,\"sdfMirror\":true,"
    "\"foldTagMask\":4294967295,\"foldUvSet\":2,\"fade\":0.5,\"matcapTexture\":{\"index\":2},\"matcapMix\":0.4,"
    "\"parallaxHeight\":0.2,\"irisRadius\":0.45,\"outline\":false,\"outlineWidth\":3,\"outlineColor\":[0.2,0.1,0],"
    "\"outlineMaxDistance\":7,\"uvScroll\":[0.1,-0.2],\"uvRotation\":1.5}";

static void test_sw_round_trip(void) {
    sw_toon_fixture_material mats[2] = {{"Face", "SW_materials_toon", full_sw}, {"Plain", NULL, NULL}};
    sw_toon_fixture f = {.texture_count = 5, .material_count = 2, .materials = mats};
    sw_model* model = load(&f, "round.glb");
    if (!model) return;
    sw_toon_material t[2];
    sw_diag diag;
    SW_CHECK_EQ_INT(sw_toon_read(model, t, &diag), SW_OK);
    SW_CHECK_EQ_INT(diag.message[0], '\0'); /* no warnings */
    SW_CHECK(t[0].present);
    SW_CHECK_EQ_INT(t[0].source, SW_TOON_SOURCE_SW);
    SW_CHECK_EQ_INT(t[0].kind, SW_TOON_FACE);
    SW_CHECK_EQ_INT(t[0].control_texture.texture, 1);
    SW_CHECK_EQ_INT(t[0].control_texture.texcoord, 1);
    SW_CHECK(t[0].control_texture.has_transform);
    SW_CHECK_NEAR(t[0].control_texture.offset[1], 0.5, 0.0);
    SW_CHECK_NEAR(t[0].control_texture.rotation, 0.5, 0.0);
    SW_CHECK_NEAR(t[0].control_texture.uv_scale[1], 3.0, 0.0);
    SW_CHECK_EQ_INT(t[0].ramp_texture.texture, 2);
    SW_CHECK(!t[0].ramp_texture.has_transform);
    SW_CHECK_NEAR(t[0].shade_color[2], 0.3, 1e-7);
    SW_CHECK_NEAR(t[0].shading_shift, -0.2, 1e-7);
    SW_CHECK_NEAR(t[0].shading_toony, 0.7, 1e-7);
    SW_CHECK(t[0].region_enabled[0] && !t[0].region_enabled[1] && t[0].region_enabled[2] && !t[0].region_enabled[3] &&
             t[0].region_enabled[4]);
    SW_CHECK_NEAR(t[0].light_area, 0.6, 1e-7);
    SW_CHECK_NEAR(t[0].ramp_width, 0.5, 0.0);
    SW_CHECK(t[0].vertex_color_threshold && t[0].vertex_color_width && t[0].back_uv1 && t[0].back_force_dark);
    SW_CHECK_EQ_INT(t[0].normal_texture.texture, 1);
    SW_CHECK_EQ_INT(t[0].normal_texture.texcoord, 1);
    SW_CHECK_EQ_INT(t[0].detail_normal_texture.texture, 3);
    SW_CHECK_NEAR(t[0].detail_gate, 0.9, 1e-7);
    SW_CHECK_EQ_INT(t[0].glint_count, 1);
    SW_CHECK_NEAR(t[0].glints[0].grid, 50.0, 0.0);
    SW_CHECK_NEAR(t[0].glints[0].spot_scale, 0.02, 1e-8);
    SW_CHECK_NEAR(t[0].glints[0].phase_rate, 0.1, 1e-8);
    SW_CHECK_NEAR(t[0].glints[0].active_width, 0.3, 1e-7);
    SW_CHECK_NEAR(t[0].glints[0].intensity, 2.0, 0.0);
    SW_CHECK_NEAR(t[0].glints[0].luma_lerp, 0.5, 0.0);
    SW_CHECK_NEAR(t[0].glints[0].color[1], 0.6, 1e-7);
    SW_CHECK_NEAR(t[0].glints[0].camera_scale, 4.0, 0.0);
    SW_CHECK_NEAR(t[0].view_lift, -0.1, 1e-7);
    SW_CHECK_NEAR(t[0].band_exponent[0], 8.0, 0.0);
    SW_CHECK_NEAR(t[0].band_lower[0], 0.1, 1e-7);
    SW_CHECK_NEAR(t[0].band_upper[0], 0.9, 1e-7);
    SW_CHECK_NEAR(t[0].band_intensity[0], 0.2, 1e-7);
    SW_CHECK_NEAR(t[0].band_color[0][2], 0.25, 0.0);
    SW_CHECK_NEAR(t[0].band_exponent[1], 4.0, 0.0);
    SW_CHECK_NEAR(t[0].band_upper[1], 0.773, 1e-7); /* left out: the default */
    SW_CHECK_NEAR(t[0].rim_color[1], 0.4, 1e-7);
    SW_CHECK_NEAR(t[0].rim_width, 0.4, 1e-7);
    SW_CHECK_NEAR(t[0].rim_power, 3.0, 0.0);
    SW_CHECK_NEAR(t[0].rim_lift, 0.1, 1e-7);
    SW_CHECK_EQ_INT(t[0].rim_mask_texture.texture, 0);
    SW_CHECK_EQ_INT(t[0].face_sdf_texture.texture, 4);
    /* headNode 0 of the file is the node named "head", stored after its parent. */
    SW_CHECK(t[0].head_node >= 0 && (size_t)t[0].head_node < model->node_count);
    if (t[0].head_node >= 0) {
        SW_CHECK(t[0].head_node != 0);
        SW_CHECK(model->nodes[t[0].head_node].name && strcmp(model->nodes[t[0].head_node].name, "head") == 0);
    }
    SW_CHECK_NEAR(t[0].sdf_steepness, 3460.0, 0.0);
    SW_CHECK_NEAR(t[0].sdf_offset, 0.05, 1e-8);
    SW_CHECK(t[0].sdf_mirror);
    SW_CHECK(t[0].fold_tag_mask == 0xffffffffu);
    SW_CHECK_EQ_INT(t[0].fold_uv_set, 2);
    SW_CHECK_NEAR(t[0].fade, 0.5, 0.0);
    SW_CHECK_EQ_INT(t[0].matcap_texture.texture, 2);
    SW_CHECK_NEAR(t[0].matcap_mix, 0.4, 1e-7);
    SW_CHECK_NEAR(t[0].parallax_height, 0.2, 1e-7);
    SW_CHECK_NEAR(t[0].iris_radius, 0.45, 1e-7);
    SW_CHECK(!t[0].outline);
    SW_CHECK_NEAR(t[0].outline_width, 3.0, 0.0);
    SW_CHECK_NEAR(t[0].outline_color[0], 0.2, 1e-7);
    SW_CHECK_NEAR(t[0].outline_max_distance, 7.0, 0.0);
    SW_CHECK_NEAR(t[0].uv_scroll[1], -0.2, 1e-7);
    SW_CHECK_NEAR(t[0].uv_rotation, 1.5, 0.0);
    /* The material without an extension. */
    SW_CHECK(!t[1].present);
    SW_CHECK_EQ_INT(t[1].source, SW_TOON_SOURCE_NONE);
    sw_model_free(model);
}

/* Keys left out keep the kind's defaults. */
static void test_sw_defaults_of_kind(void) {
    static const char* const kinds[4] = {"body", "hair", "face", "eye"};
    for (int k = 0; k < 4; k++) {
        char json[64];
        snprintf(json, sizeof json, "{\"kind\":\"%s\"}", kinds[k]);
        sw_toon_material got, want;
        sw_diag diag;
        SW_CHECK_EQ_INT(read_one("M", "SW_materials_toon", json, 0, &got, &diag), SW_OK);
        sw_toon_defaults((sw_toon_kind)k, &want);
        want.present = true;
        want.source = SW_TOON_SOURCE_SW;
        SW_CHECK(memcmp(&got, &want, sizeof got) == 0);
    }
    sw_toon_material t;
    SW_CHECK_EQ_INT(read_one("Hair", "SW_materials_toon", "{}", 0, &t, NULL), SW_OK);
    SW_CHECK_EQ_INT(t.kind, SW_TOON_BODY); /* the kind is "body" unless the block says otherwise */
    SW_CHECK_EQ_INT(t.glint_count, 2);
    /* An empty glints array switches glints off. */
    SW_CHECK_EQ_INT(read_one("M", "SW_materials_toon", "{\"glints\":[]}", 0, &t, NULL), SW_OK);
    SW_CHECK_EQ_INT(t.glint_count, 0);
}

/* ---- VRMC_materials_mtoon -------------------------------------------------------------------------------- */

static const char* const mtoon_hair =
    "{\"specVersion\":\"1.0\",\"shadeColorFactor\":[0.2,0.3,0.4],\"shadingShiftFactor\":-0.1,"
    "\"shadingToonyFactor\":0.8,\"matcapFactor\":[1,1,1],\"matcapTexture\":{\"index\":1},"
    "\"parametricRimColorFactor\":[0.5,0.25,0.125],\"parametricRimFresnelPowerFactor\":4,"
    "\"parametricRimLiftFactor\":0.2,\"rimMultiplyTexture\":{\"index\":2},\"outlineWidthMode\":\"screenCoordinates\","
    "\"outlineWidthFactor\":0.004,\"outlineColorFactor\":[0.1,0.05,0.02],\"uvAnimationScrollXSpeedFactor\":0.3,"
    "\"uvAnimationScrollYSpeedFactor\":-0.4,\"uvAnimationRotationSpeedFactor\":0.7,"
    "\"giEqualizationFactor\":0.9,\"transparentWithZWrite\":true,\"renderQueueOffsetNumber\":2}";
static const char* const mtoon_body =
    "{\"specVersion\":\"1.0\",\"outlineWidthMode\":\"worldCoordinates\",\"outlineWidthFactor\":0.002,"
    "\"matcapTexture\":{\"index\":1}}";

static void test_vrm1(void) {
    sw_toon_fixture_material mats[4] = {{"Hair_01", "VRMC_materials_mtoon", mtoon_hair},
                                        {"Body", "VRMC_materials_mtoon", mtoon_body},
                                        {"Unlit", NULL, NULL},
                                        {"Both", "VRMC_materials_mtoon", mtoon_hair}};
    sw_toon_fixture f = {.texture_count = 3,
                         .material_count = 4,
                         .materials = mats,
                         .extensions_used = "VRMC_vrm,VRMC_materials_mtoon",
                         .root_extensions_json = "{\"VRMC_vrm\":{\"specVersion\":\"1.0\"}}"};
    sw_model* model = load(&f, "vrm1.vrm");
    if (!model) return;
    sw_toon_material t[4];
    sw_diag diag;
    SW_CHECK_EQ_INT(sw_toon_read(model, t, &diag), SW_OK);
    /* An opaque material's render queue offset and z-write are not drawn:
       said, naming the material and the field. */
    SW_CHECK(strstr(diag.message, "materials[0] \"Hair_01\"") != NULL);
    SW_CHECK(strstr(diag.message, "renderQueueOffsetNumber") != NULL);
    const sw_toon_material* h = &t[0];
    SW_CHECK(h->present);
    SW_CHECK_EQ_INT(h->source, SW_TOON_SOURCE_MTOON);
    SW_CHECK_EQ_INT(h->kind, SW_TOON_HAIR);
    SW_CHECK_EQ_INT(h->glint_count, 0);
    SW_CHECK_NEAR(h->shade_color[1], 0.3, 1e-7);
    SW_CHECK_NEAR(h->shading_shift, -0.1, 1e-7);
    SW_CHECK_NEAR(h->shading_toony, 0.8, 1e-7);
    SW_CHECK_NEAR(h->light_area, (3.0 - 0.8 + 0.1) / 4.0, 1e-6);
    SW_CHECK_NEAR(h->ramp_width, 1.0, 0.0);
    SW_CHECK_EQ_INT(h->matcap_texture.texture, 1);
    SW_CHECK_NEAR(h->matcap_mix, 0.0, 0.0);
    SW_CHECK_NEAR(h->rim_color[2], 0.125, 0.0);
    SW_CHECK_NEAR(h->rim_power, 4.0, 0.0);
    SW_CHECK_NEAR(h->rim_lift, 0.2, 1e-7);
    SW_CHECK_NEAR(h->rim_width, 1.0, 0.0);
    SW_CHECK_EQ_INT(h->rim_mask_texture.texture, 2);
    SW_CHECK(h->outline);
    SW_CHECK_NEAR(h->outline_width, 0.004 * 1080.0, 1e-4); /* 4.32 px */
    SW_CHECK(h->outline_max_distance >= 1e5);
    SW_CHECK_NEAR(h->outline_color[1], 0.05, 1e-7);
    SW_CHECK_NEAR(h->uv_scroll[0], 0.3, 1e-7);
    SW_CHECK_NEAR(h->uv_scroll[1], -0.4, 1e-7);
    SW_CHECK_NEAR(h->uv_rotation, 0.7, 1e-7);
    /* Body: schema defaults (shade 1, toony 0.9), world outline of 2 mm at 1 m
       with a 35° field of view: 0.002 · 1080 / (2 tan 17.5°) = 6.85 px, and
       2 mm along the normal in world space; matcapFactor defaults to the
       schema's (and three-vrm's) [1, 1, 1]: the matcap is drawn; rim power
       defaults to the schema's 5. */
    const sw_toon_material* b = &t[1];
    SW_CHECK_EQ_INT(b->kind, SW_TOON_BODY);
    SW_CHECK_NEAR(b->shade_color[0], 1.0, 0.0);
    SW_CHECK_NEAR(b->shading_toony, 0.9, 1e-7);
    SW_CHECK(b->outline);
    SW_CHECK_NEAR(b->outline_width, 0.002 * 1080.0 / (2.0 * tan(17.5 * PI / 180.0)), 1e-3);
    SW_CHECK_NEAR(b->outline_max_distance, 1.0, 0.0);
    SW_CHECK(b->outline_world);
    SW_CHECK_NEAR(b->outline_world_width, 0.002, 1e-9);
    SW_CHECK_EQ_INT(b->matcap_texture.texture, 1);
    SW_CHECK_NEAR(b->matcap_color[0], 1.0, 0.0);
    SW_CHECK_NEAR(b->rim_power, 5.0, 0.0);
    SW_CHECK_NEAR(b->gi_equalization, 0.9, 1e-7);
    SW_CHECK_NEAR(b->rim_lighting_mix, 1.0, 0.0);
    SW_CHECK_NEAR(b->outline_lighting_mix, 1.0, 0.0);
    SW_CHECK_EQ_INT(b->shade_multiply_texture.texture, -1);
    SW_CHECK(t[0].transparent_with_z_write);
    SW_CHECK_EQ_INT(t[0].render_queue_offset, 2);
    SW_CHECK_NEAR(b->rim_color[0], 0.0, 0.0);
    SW_CHECK(!t[2].present);
    SW_CHECK(t[3].present);
    sw_model_free(model);
}

/* With no control map the toon rule and the ramp from the shade colour
   reproduce MToon 1.0's lighting: colour = lerp(shade, lit, linearstep(
   −1 + toony, 1 − toony, N·L + shift)), lit = white. */
static void test_mtoon_equivalence(void) {
    const float shade[3] = {0.1f, 0.3f, 0.6f};
    const float cases[3][2] = {{0.0f, 0.9f}, {-0.3f, 0.5f}, {0.4f, 0.95f}};
    static uint8_t ramp[SW_TOON_RAMP_WIDTH * SW_TOON_RAMP_HEIGHT * 4];
    double worst = 0.0;
    for (int c = 0; c < 3; c++) {
        float shift = cases[c][0], toony = cases[c][1];
        sw_toon_ramp_from_shade(shade, shift, toony, ramp);
        float area = (3.0f - toony - shift) / 4.0f; /* what the readers set */
        for (int i = 0; i <= 200; i++) {
            float n_dot_l = -1.0f + (float)i / 100.0f;
            float hl = 0.5f * n_dot_l + 0.5f, u = 0.0f;
            bool dark = sw_toon_shadow_area(hl, sw_toon_signed_square(0.5f), area, 1.0f, NULL, &u);
            double s = (n_dot_l + shift - (-1.0 + toony)) / (2.0 - 2.0 * toony);
            s = s < 0 ? 0 : (s > 1 ? 1 : s);
            for (int k = 0; k < 3; k++) {
                double want = shade[k] + (1.0 - shade[k]) * s;
                double got = 1.0;
                if (dark) {
                    /* Linear filtering along u, as a GL sampler would (day row 0). */
                    double x = u * SW_TOON_RAMP_WIDTH - 0.5;
                    int x0 = (int)floor(x);
                    double fx = x - x0;
                    int a = x0 < 0 ? 0 : (x0 > 255 ? 255 : x0), b2 = x0 + 1 > 255 ? 255 : (x0 + 1 < 0 ? 0 : x0 + 1);
                    got = (1 - fx) * srgb_to_linear(ramp[a * 4 + k] / 255.0) + fx * srgb_to_linear(ramp[b2 * 4 + k] / 255.0);
                }
                double e = fabs(got - want);
                if (e > worst) worst = e;
            }
        }
    }
    printf("toon rule + shade ramp vs MToon: max linear error %.4f\n", worst);
    /* A 256-texel ramp resolves a transition 0.1 of N·L wide in ~12 texels,
       so filtering and 8-bit steps stay within a few percent. */
    SW_CHECK(worst < 0.03);
}

/* ---- VRM 0.x ---------------------------------------------------------------------------------------------- */

static const char* const vrm0_root =
    "{\"VRM\":{\"exporterVersion\":\"UniVRM-0.99\",\"materialProperties\":["
    "{\"name\":\"Unlit\",\"shader\":\"VRM/UnlitTexture\",\"floatProperties\":{},\"vectorProperties\":{},"
    "\"textureProperties\":{}},"
    "{\"name\":\"Skin\",\"shader\":\"VRM/MToon\",\"renderQueue\":2000,"
    "\"floatProperties\":{\"_ShadeShift\":-0.2,\"_ShadeToony\":0.8,\"_RimFresnelPower\":3,\"_RimLift\":0.1,"
    "\"_OutlineWidthMode\":2,\"_OutlineWidth\":0.6,\"_OutlineScaledMaxDistance\":2,\"_UvAnimScrollX\":0.25,"
    "\"_UvAnimScrollY\":0.5,\"_UvAnimRotation\":0.125,\"_DebugMode\":0},"
    "\"vectorProperties\":{\"_Color\":[1,1,1,1],\"_ShadeColor\":[0.5,0.25,1,1],\"_RimColor\":[1,0.5,0,1],"
    "\"_OutlineColor\":[0.2,0.2,0.2,1],\"_MainTex\":[0,0,1,1]},"
    "\"textureProperties\":{\"_MainTex\":0,\"_SphereAdd\":1,\"_RimTexture\":2},\"keywordMap\":{},\"tagMap\":{}},"
    "{\"name\":\"Hair\",\"shader\":\"VRM/MToon\",\"floatProperties\":{\"_OutlineWidthMode\":1,\"_OutlineWidth\":0.2},"
    "\"vectorProperties\":{},\"textureProperties\":{}}]}}";

static void test_vrm0(void) {
    sw_toon_fixture_material mats[5] = {
        {"Skin", NULL, NULL}, {"Unlit", NULL, NULL}, {"Hair", NULL, NULL}, {NULL, NULL, NULL}, {"Missing", NULL, NULL}};
    sw_toon_fixture f = {.texture_count = 3, .material_count = 5, .materials = mats, .root_extensions_json = vrm0_root,
                         .extensions_used = "VRM"};
    sw_model* model = load(&f, "vrm0.vrm");
    if (!model) return;
    sw_toon_material t[5];
    sw_diag diag;
    sw_result r = sw_toon_read(model, t, &diag);
    if (r != SW_OK) fprintf(stderr, "  %s\n", diag.message);
    SW_CHECK_EQ_INT(r, SW_OK);
    const sw_toon_material* s = &t[0];
    SW_CHECK(s->present);
    SW_CHECK_EQ_INT(s->source, SW_TOON_SOURCE_MTOON_VRM0);
    SW_CHECK_EQ_INT(s->kind, SW_TOON_BODY);
    SW_CHECK_NEAR(s->shade_color[0], srgb_to_linear(0.5), 1e-6); /* 0.214 */
    SW_CHECK_NEAR(s->shade_color[1], srgb_to_linear(0.25), 1e-6);
    SW_CHECK_NEAR(s->shade_color[2], 1.0, 1e-6);
    /* The 0.x ramp runs from N·L = shift₀ = −0.2 to lerp(1, −0.2, 0.8) = 0.04;
       the 1.0 values must give the same ends: −1 + T − S and 1 − T − S. */
    double lo = -1.0 + s->shading_toony - s->shading_shift, hi = 1.0 - s->shading_toony - s->shading_shift;
    SW_CHECK_NEAR(lo, -0.2, 1e-6);
    SW_CHECK_NEAR(hi, 0.04, 1e-6);
    SW_CHECK_NEAR(s->light_area, (3.0 - s->shading_toony - s->shading_shift) / 4.0, 1e-6);
    SW_CHECK_NEAR(s->rim_color[1], srgb_to_linear(0.5), 1e-6);
    SW_CHECK_NEAR(s->rim_power, 3.0, 0.0);
    SW_CHECK_NEAR(s->rim_lift, 0.1, 1e-7);
    SW_CHECK_EQ_INT(s->rim_mask_texture.texture, 2);
    SW_CHECK_EQ_INT(s->matcap_texture.texture, 1);
    SW_CHECK(s->outline);
    SW_CHECK_NEAR(s->outline_width, 0.005 * 0.6 * 1080.0, 1e-4); /* 3.24 px */
    SW_CHECK_NEAR(s->outline_max_distance, 2.0, 0.0);
    SW_CHECK_NEAR(s->outline_color[0], srgb_to_linear(0.2), 1e-6);
    SW_CHECK_NEAR(s->uv_scroll[0], 0.25, 0.0);
    SW_CHECK_NEAR(s->uv_scroll[1], -0.5, 0.0);
    SW_CHECK_NEAR(s->uv_rotation, 2.0 * PI * 0.125, 1e-6); /* counter-clockwise on screen in both versions */
    SW_CHECK_NEAR(s->gi_equalization, 0.9, 1e-6);          /* 1 − _IndirectLightIntensity (0.1 by default) */
    SW_CHECK_NEAR(s->rim_lighting_mix, 0.0, 0.0);          /* UniVRM's default _RimLightingMix */
    SW_CHECK_NEAR(s->outline_lighting_mix, 0.0, 0.0);      /* _OutlineColorMode 0: the fixed colour */
    SW_CHECK(!t[1].present); /* VRM/UnlitTexture */
    /* Hair: world outline of 0.2 cm; 0.x defaults elsewhere. */
    SW_CHECK(t[2].present);
    SW_CHECK_EQ_INT(t[2].kind, SW_TOON_HAIR);
    SW_CHECK_NEAR(t[2].outline_width, 0.002 * 1080.0 / (2.0 * tan(17.5 * PI / 180.0)), 1e-3);
    SW_CHECK_NEAR(t[2].shade_color[0], srgb_to_linear(0.97), 1e-6);
    SW_CHECK(!t[3].present); /* no name: nothing to match */
    SW_CHECK(!t[4].present);
    sw_model_free(model);
}

/* SW_materials_toon wins over VRMC_materials_mtoon, which wins over VRM 0.x. */
static void test_priority(void) {
    sw_toon_fixture_material mats[1] = {{"Skin", "SW_materials_toon", "{\"kind\":\"eye\"}"}};
    const char* root = "{\"VRM\":{\"materialProperties\":[{\"name\":\"Skin\",\"shader\":\"VRM/MToon\"}]}}";
    sw_toon_fixture f = {.material_count = 1, .materials = mats, .root_extensions_json = root};
    sw_model* model = load(&f, "prio.glb");
    if (!model) return;
    sw_toon_material t;
    SW_CHECK_EQ_INT(sw_toon_read(model, &t, NULL), SW_OK);
    SW_CHECK_EQ_INT(t.source, SW_TOON_SOURCE_SW);
    SW_CHECK_EQ_INT(t.kind, SW_TOON_EYE);
    sw_model_free(model);
    mats[0].extension_name = "VRMC_materials_mtoon";
    mats[0].extension_json = "{\"specVersion\":\"1.0\"}";
    model = load(&f, "prio.glb");
    if (!model) return;
    SW_CHECK_EQ_INT(sw_toon_read(model, &t, NULL), SW_OK);
    SW_CHECK_EQ_INT(t.source, SW_TOON_SOURCE_MTOON);
    sw_model_free(model);
    mats[0].extension_name = NULL;
    model = load(&f, "prio.glb");
    if (!model) return;
    SW_CHECK_EQ_INT(sw_toon_read(model, &t, NULL), SW_OK);
    SW_CHECK_EQ_INT(t.source, SW_TOON_SOURCE_MTOON_VRM0);
    sw_model_free(model);
}

/* ---- broken blocks ------------------------------------------------------------------------------------------ */

typedef struct broken_case {
    const char* ext;   /* material extension, or NULL for a VRM 0.x root */
    const char* json;
    const char* field; /* what the message must name */
} broken_case;

static void test_broken(void) {
    static const broken_case cases[] = {
        {"SW_materials_toon", "{\"lightArea\":\"big\"}", "lightArea"},
        {"SW_materials_toon", "{\"controlTexture\":{\"index\":99}}", "controlTexture.index"},
        {"SW_materials_toon", "{\"shadeColor\":[1e999,0,0]}", "shadeColor[0]"},
        {"SW_materials_toon", "{\"shadeColor\":[0,0]}", "shadeColor"},
        {"SW_materials_toon", "{\"lightArea\":1e39}", "lightArea"}, /* beyond float range */
        {"SW_materials_toon", "{\"kind\":\"robot\"}", "kind"},
        {"SW_materials_toon", "{\"kind\":3}", "kind"},
        {"SW_materials_toon", "{\"regionEnabled\":[true]}", "regionEnabled"},
        {"SW_materials_toon", "{\"regionEnabled\":[true,1,true,true,true]}", "regionEnabled[1]"},
        {"SW_materials_toon", "{\"headNode\":7}", "headNode"},
        {"SW_materials_toon", "{\"headNode\":0.5}", "headNode"},
        {"SW_materials_toon", "{\"glints\":\"many\"}", "glints"},
        {"SW_materials_toon", "{\"glints\":[{\"grid\":null}]}", "glints[0].grid"},
        {"SW_materials_toon", "{\"bands\":[{},{\"exponent\":\"a\"}]}", "bands[1].exponent"},
        {"SW_materials_toon", "{\"outline\":1}", "outline"},
        {"SW_materials_toon", "{\"foldTagMask\":-1}", "foldTagMask"},
        {"SW_materials_toon", "{\"matcapTexture\":{\"index\":0,\"texCoord\":1.5}}", "matcapTexture.texCoord"},
        {"SW_materials_toon", "{\"rampTexture\":{\"index\":0,\"extensions\":{\"KHR_texture_transform\":"
                              "{\"offset\":[0,\"x\"]}}}}", "KHR_texture_transform.offset[1]"},
        {"SW_materials_toon", "[1,2]", "SW_materials_toon"},
        {"VRMC_materials_mtoon", "{\"specVersion\":\"1.0\",\"shadingShiftFactor\":\"0.5\"}", "shadingShiftFactor"},
        {"VRMC_materials_mtoon", "{\"specVersion\":\"1.0\",\"matcapTexture\":{\"index\":99}}", "matcapTexture.index"},
        {"VRMC_materials_mtoon", "{\"specVersion\":\"1.0\",\"rimMultiplyTexture\":{\"index\":-1}}",
         "rimMultiplyTexture.index"},
        {"VRMC_materials_mtoon", "{\"specVersion\":\"1.0\",\"shadeMultiplyTexture\":{\"index\":5}}",
         "shadeMultiplyTexture.index"},
        {"VRMC_materials_mtoon", "{\"specVersion\":\"1.0\",\"outlineWidthMode\":\"thick\"}", "outlineWidthMode"},
        {"VRMC_materials_mtoon", "{\"specVersion\":\"1.0\",\"shadeColorFactor\":[0,0]}", "shadeColorFactor"},
        {"VRMC_materials_mtoon", "{\"specVersion\":1}", "specVersion"},
        {"VRMC_materials_mtoon", "{\"specVersion\":\"1.0\",\"parametricRimLiftFactor\":-1e999}",
         "parametricRimLiftFactor"},
        {NULL, "{\"VRM\":{\"materialProperties\":[{\"name\":\"M\",\"shader\":\"VRM/MToon\","
               "\"floatProperties\":{\"_ShadeShift\":\"x\"}}]}}", "floatProperties._ShadeShift"},
        {NULL, "{\"VRM\":{\"materialProperties\":[{\"name\":\"M\",\"shader\":\"VRM/MToon\","
               "\"textureProperties\":{\"_SphereAdd\":99}}]}}", "textureProperties._SphereAdd"},
        {NULL, "{\"VRM\":{\"materialProperties\":[{\"name\":\"M\",\"shader\":\"VRM/MToon\","
               "\"vectorProperties\":{\"_ShadeColor\":[1,2]}}]}}", "vectorProperties._ShadeColor"},
        {NULL, "{\"VRM\":{\"materialProperties\":[{\"name\":\"M\",\"shader\":\"VRM/MToon\","
               "\"floatProperties\":[]}]}}", "floatProperties"},
        {NULL, "{\"VRM\":{\"materialProperties\":[{\"name\":7}]}}", "name"},
        {NULL, "{\"VRM\":{\"materialProperties\":{}}}", "materialProperties"},
        {NULL, "{\"VRM\":[]}", "VRM"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const broken_case* c = &cases[i];
        sw_toon_fixture_material m = {"M", c->ext, c->json};
        sw_toon_fixture f = {.texture_count = 2, .material_count = 1, .materials = &m,
                             .root_extensions_json = c->ext ? NULL : c->json};
        if (!c->ext) m.extension_json = NULL;
        sw_model* model = load(&f, "broken.vrm");
        if (!model) continue;
        sw_toon_material t;
        sw_diag diag;
        sw_result r = sw_toon_read(model, &t, &diag);
        if (r != SW_ERR_INVALID_DATA || !strstr(diag.message, c->field) || !strstr(diag.message, "broken.vrm"))
            fprintf(stderr, "  case %zu: %s -> %s: %s\n", i, c->json, sw_result_str(r), diag.message);
        SW_CHECK_EQ_INT(r, SW_ERR_INVALID_DATA);
        SW_CHECK(strstr(diag.message, c->field) != NULL);
        SW_CHECK(strstr(diag.message, "broken.vrm") != NULL);
        if (c->ext) SW_CHECK(strstr(diag.message, "\"M\"") != NULL); /* the material */
        SW_CHECK(strchr(diag.message, '\n') == NULL);
        SW_CHECK(!t.present); /* a failed read leaves nothing half-read */
        sw_model_free(model);
    }
}

/* Values out of range: clamped, the first warning in diag with SW_OK. */
static void test_clamped(void) {
    sw_toon_material t;
    sw_diag diag;
    SW_CHECK_EQ_INT(read_one("M", "SW_materials_toon", "{\"lightArea\":3,\"fade\":-1,\"regionEnabled\":"
                                                       "[false,true,true,true,true]}", 0, &t, &diag),
                    SW_OK);
    printf("warning: %s\n", diag.message);
    SW_CHECK_EQ_INT(diag.result, SW_OK);
    SW_CHECK(strstr(diag.message, "lightArea") != NULL);
    SW_CHECK(strstr(diag.message, "clamped") != NULL);
    SW_CHECK(strstr(diag.message, "2 more") != NULL);
    SW_CHECK_NEAR(t.light_area, 1.0, 0.0);
    SW_CHECK_NEAR(t.fade, 0.0, 0.0);
    SW_CHECK(t.region_enabled[0]);
    SW_CHECK_EQ_INT(read_one("M", "VRMC_materials_mtoon", "{\"specVersion\":\"1.0\",\"shadingToonyFactor\":1.5}", 0,
                             &t, &diag),
                    SW_OK);
    SW_CHECK(strstr(diag.message, "shadingToonyFactor") != NULL);
    SW_CHECK_NEAR(t.shading_toony, 1.0, 0.0);
    /* A missing specVersion is a warning, not an error. */
    SW_CHECK_EQ_INT(read_one("M", "VRMC_materials_mtoon", "{}", 0, &t, &diag), SW_OK);
    SW_CHECK(strstr(diag.message, "specVersion") != NULL);
    SW_CHECK(t.present);
}

/* Whatever JSON sits in the blocks, the reader returns OK or INVALID_DATA. */
static void test_any_json(void) {
    static const char* const keys[] = {"kind", "controlTexture", "shadeColor", "glints", "bands", "headNode",
                                       "regionEnabled", "lightArea", "foldUvSet", "outlineWidthMode",
                                       "matcapTexture", "shadeColorFactor", "specVersion", "uvScroll"};
    static const char* const values[] = {"null", "true", "-0", "1e308", "-1e999", "\"face\"", "[]", "{}",
                                         "[1,2,3]", "[[[]]]", "{\"index\":0}", "{\"index\":1e20}",
                                         "[{\"grid\":-5,\"color\":[9,9,9]}]", "[true,true,true,true,true]",
                                         "{\"index\":0,\"extensions\":{\"KHR_texture_transform\":[]}}", "2.5",
                                         "4294967296", "\"\\u0001\\n\""};
    const size_t nk = sizeof keys / sizeof keys[0], nv = sizeof values / sizeof values[0];
    rng random = {15};
    int ok = 0, invalid = 0;
    for (int iter = 0; iter < 150; iter++) {
        char json[1024] = "{";
        int n = 1 + (int)(rng_u32(&random) % 4);
        for (int k = 0; k < n; k++) {
            size_t len = strlen(json);
            snprintf(json + len, sizeof json - len, "%s\"%s\":%s", k ? "," : "", keys[rng_u32(&random) % nk],
                     values[rng_u32(&random) % nv]);
        }
        strcat(json, "}");
        const char* ext = (iter & 1) ? "SW_materials_toon" : "VRMC_materials_mtoon";
        sw_toon_material t;
        sw_diag diag;
        sw_result r = read_one("Hair", ext, json, 1, &t, &diag);
        SW_CHECK(r == SW_OK || r == SW_ERR_INVALID_DATA);
        if (r == SW_OK) {
            ok++;
            SW_CHECK(t.present);
            SW_CHECK(isfinite(t.light_area) && t.light_area > 0.0f && t.light_area <= 1.0f);
            SW_CHECK(t.glint_count >= 0 && t.glint_count <= 2);
        } else {
            invalid++;
            SW_CHECK(strchr(diag.message, '\n') == NULL);
        }
    }
    printf("random blocks: %d read, %d refused\n", ok, invalid);
    SW_CHECK(ok > 0 && invalid > 0);
}

/* ---- files ---------------------------------------------------------------------------------------------------- */

static void test_vrm_files(void) {
    char dir[128];
    const char* tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/sinew_toon_XXXXXX", tmp && strlen(tmp) < 64 ? tmp : "/tmp");
    if (!mkdtemp(dir)) SW_SKIP("no temporary directory");
    sw_toon_fixture_material m1 = {"Hair_01", "VRMC_materials_mtoon", mtoon_hair};
    sw_toon_fixture_material m0 = {"Skin", NULL, NULL};
    const sw_toon_fixture fixtures[2] = {
        {.texture_count = 3, .material_count = 1, .materials = &m1, .extensions_used = "VRMC_vrm,VRMC_materials_mtoon",
         .root_extensions_json = "{\"VRMC_vrm\":{\"specVersion\":\"1.0\"}}"},
        {.texture_count = 3, .material_count = 1, .materials = &m0, .root_extensions_json = vrm0_root,
         .extensions_used = "VRM"}};
    const sw_toon_source want[2] = {SW_TOON_SOURCE_MTOON, SW_TOON_SOURCE_MTOON_VRM0};
    for (int i = 0; i < 2; i++) {
        char path[192];
        snprintf(path, sizeof path, "%s/avatar%d.vrm", dir, i);
        size_t size = 0;
        uint8_t* bytes = sw_toon_fixture_glb(&fixtures[i], &size);
        SW_CHECK(bytes && sw_toon_fixture_write(path, bytes, size) == 0);
        free(bytes);
        sw_model* model = NULL;
        sw_diag diag;
        sw_result r = sw_gltf_load_file(path, NULL, &model, &diag);
        if (r != SW_OK) fprintf(stderr, "  %s: %s\n", path, diag.message);
        SW_CHECK_EQ_INT(r, SW_OK);
        if (r == SW_OK) {
            sw_toon_material t;
            SW_CHECK_EQ_INT(sw_toon_read(model, &t, &diag), SW_OK);
            SW_CHECK(t.present);
            SW_CHECK_EQ_INT(t.source, want[i]);
            SW_CHECK(strstr(model->path, ".vrm") != NULL);
            sw_model_free(model);
        }
        remove(path);
    }
    rmdir(dir);
}

int main(void) {
    SW_RUN(test_sw_round_trip);
    SW_RUN(test_sw_defaults_of_kind);
    SW_RUN(test_vrm1);
    SW_RUN(test_mtoon_equivalence);
    SW_RUN(test_vrm0);
    SW_RUN(test_priority);
    SW_RUN(test_broken);
    SW_RUN(test_clamped);
    SW_RUN(test_any_json);
    SW_RUN(test_vrm_files);
    return sw_test_finish();
}
