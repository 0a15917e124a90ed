/* Fuzz target: the toon material readers (sw_toon_read). The input is one
   extension's JSON text, read three times on a small fixed model
   (fuzz_model.h: 4 materials, 3 textures, a head node): as
   SW_materials_toon on one material, as VRMC_materials_mtoon on one
   material (the material picked by the input's length, so each kind
   default is reached), and as the VRM 0.x root extension whose
   materialProperties are matched by material name.

   On success every material must be a complete toon material: known kind
   and source, present exactly for the material read, texture references
   -1 or in range (texCoord 0..63, as glTF materials), the head node -1
   or in range, the fold UV set a model set, every number finite, at
   most two glints, a warning (if any) one line; the ramp built from it
   must be fully written. A failure must be one line naming the file, and
   leave every material at the defaults. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_model.h"
#include "sinew/toon.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

static void check_texture(const sw_model* model, const sw_model_texture_ref* t) {
    FUZZ_REQUIRE(t->texture >= -1 && t->texture < (int64_t)model->texture_count);
    FUZZ_REQUIRE(t->texcoord >= 0 && t->texcoord < 64); /* a TEXCOORD_n the glTF loader would read */
    float values[] = {t->scale, t->offset[0], t->offset[1], t->rotation};
    FUZZ_REQUIRE(fuzz_all_finite(values, 4));
}

static void check_material(const sw_model* model, const sw_toon_material* t) {
    FUZZ_REQUIRE((unsigned)t->kind <= SW_TOON_EYE);
    FUZZ_REQUIRE((unsigned)t->source <= SW_TOON_SOURCE_DERIVED && t->source != SW_TOON_SOURCE_DERIVED);
    FUZZ_REQUIRE(t->present == (t->source != SW_TOON_SOURCE_NONE));
    const sw_model_texture_ref* textures[] = {&t->control_texture, &t->ramp_texture,      &t->normal_texture,
                                              &t->detail_normal_texture, &t->rim_mask_texture, &t->face_sdf_texture,
                                              &t->matcap_texture};
    for (size_t i = 0; i < sizeof textures / sizeof *textures; i++) check_texture(model, textures[i]);
    FUZZ_REQUIRE(t->head_node >= -1 && t->head_node < (int64_t)model->node_count);
    FUZZ_REQUIRE(t->glint_count >= 0 && t->glint_count <= 2);
    FUZZ_REQUIRE(t->fold_uv_set >= 0 && t->fold_uv_set < SW_MODEL_MAX_TEXCOORDS);
    float values[] = {t->shade_color[0], t->shade_color[1], t->shade_color[2], t->shading_shift, t->shading_toony,
                      t->light_area, t->ramp_width, t->detail_gate, t->view_lift, t->band_exponent[0],
                      t->band_exponent[1], t->band_lower[0], t->band_lower[1], t->band_upper[0], t->band_upper[1],
                      t->band_intensity[0], t->band_intensity[1], t->band_color[0][0], t->band_color[0][1],
                      t->band_color[0][2], t->band_color[1][0], t->band_color[1][1], t->band_color[1][2],
                      t->rim_color[0], t->rim_color[1], t->rim_color[2], t->rim_width, t->rim_power, t->rim_lift,
                      t->sdf_steepness, t->sdf_offset, t->fade, t->matcap_mix, t->parallax_height, t->iris_radius,
                      t->outline_width, t->outline_color[0], t->outline_color[1], t->outline_color[2],
                      t->outline_max_distance, t->uv_scroll[0], t->uv_scroll[1], t->uv_rotation};
    for (size_t i = 0; i < sizeof values / sizeof *values; i++)
        if (!isfinite(values[i])) fprintf(stderr, "toon value %zu is %g\n", i, values[i]);
    FUZZ_REQUIRE(fuzz_all_finite(values, sizeof values / sizeof *values));
    for (int g = 0; g < t->glint_count; g++) {
        const sw_toon_glint* x = &t->glints[g];
        float glint[] = {x->grid,     x->spot_scale, x->phase_rate, x->active_width, x->intensity,
                         x->luma_lerp, x->color[0],  x->color[1],   x->color[2],     x->camera_scale};
        FUZZ_REQUIRE(fuzz_all_finite(glint, sizeof glint / sizeof *glint));
    }
    /* the renderer's ramp from what was read: every texel written */
    static uint8_t ramp[SW_TOON_RAMP_WIDTH * SW_TOON_RAMP_HEIGHT * 4];
    sw_toon_ramp_from_shade(t->shade_color, t->shading_shift, t->shading_toony, ramp);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const sw_model* base = fuzz_base_model();
    char* text = fuzz_text(data, size);
    uint32_t material = (uint32_t)(size % base->material_count);
    const sw_model_extension records[3] = {
        {"SW_materials_toon", SW_MODEL_OBJECT_MATERIAL, material, text},
        {"VRMC_materials_mtoon", SW_MODEL_OBJECT_MATERIAL, material, text},
        {"VRM", SW_MODEL_OBJECT_MODEL, 0, text},
    };
    const sw_toon_source sources[3] = {SW_TOON_SOURCE_SW, SW_TOON_SOURCE_MTOON, SW_TOON_SOURCE_MTOON_VRM0};
    sw_toon_material* toon = malloc(base->material_count * sizeof *toon);
    FUZZ_REQUIRE(toon);
    for (int k = 0; k < 3; k++) {
        sw_model model = fuzz_model_with(base, &records[k]);
        memset(toon, 0xA5, base->material_count * sizeof *toon); /* garbage: the reader writes every field */
        sw_diag diag;
        sw_result r = sw_toon_read(&model, toon, &diag);
        if (r != SW_OK) {
            fuzz_check_error(r, &diag, "fuzz.vrm");
            for (size_t i = 0; i < model.material_count; i++) FUZZ_REQUIRE(!toon[i].present);
            continue;
        }
        FUZZ_REQUIRE(diag.result == SW_OK && memchr(diag.message, '\0', sizeof diag.message));
        if (diag.message[0]) fuzz_check_line(diag.message);
        for (size_t i = 0; i < model.material_count; i++) {
            check_material(&model, &toon[i]);
            /* only the material a record names is read (0.x: by name, any) */
            if (k < 2 && i != material) FUZZ_REQUIRE(!toon[i].present);
            if (toon[i].present) FUZZ_REQUIRE(toon[i].source == sources[k]);
        }
    }
    free(toon);
    free(text);
    return 0;
}
