/* Fuzz target: the VRM readers (sw_vrm_read), VRMC_vrm (1.0) and VRM
   (0.x). The input is the extension's JSON text; it is read twice, as each
   extension, on a small fixed model (fuzz_model.h: a humanoid skeleton, a
   mesh with 2 morph targets, 4 materials), so the fuzzer works on the
   extension rather than on the glTF around it.

   On success every index the result holds must be in range (humanoid
   nodes, preset table, binds and their slots, annotations), every number
   finite, every warning one line; then the expression rules run on
   weights taken from the input and their outputs must be finite. A
   failure must be one line naming the file. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_model.h"
#include "sinew/vrm.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

static void check_range_map(const sw_vrm_range_map* m) {
    FUZZ_REQUIRE(isfinite(m->input_max_value) && isfinite(m->output_scale));
    FUZZ_REQUIRE(m->input_max_value >= 0.0f && m->input_max_value <= 180.0f);
}

static bool node_has_mesh(const sw_model* model, uint32_t node) {
    return node < model->node_count && model->nodes[node].mesh >= 0;
}

static void check_vrm(const sw_model* model, const sw_vrm* v, sw_vrm_version version) {
    FUZZ_REQUIRE(v->version == version);
    fuzz_check_string(v->spec_version);
    const sw_vrm_meta* m = &v->meta;
    const char* texts[] = {m->name, m->version, m->copyright, m->contact, m->third_party_licenses, m->license_url,
                           m->avatar_permission, m->commercial_usage, m->credit_notation, m->modification,
                           m->other_license_url, m->allowed_user_name, m->violent_usage, m->sexual_usage,
                           m->commercial_usage_name, m->license_name, m->other_permission_url};
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) fuzz_check_string(texts[i]);
    FUZZ_REQUIRE(!m->author_count || m->authors);
    for (size_t i = 0; i < m->author_count; i++) {
        FUZZ_REQUIRE(m->authors[i]);
        fuzz_check_string(m->authors[i]);
    }
    FUZZ_REQUIRE(!m->reference_count || m->references);
    for (size_t i = 0; i < m->reference_count; i++) {
        FUZZ_REQUIRE(m->references[i]);
        fuzz_check_string(m->references[i]);
    }
    FUZZ_REQUIRE(m->thumbnail >= -1);

    /* humanoid: nodes in range, counted, each node used once */
    uint32_t mapped = 0;
    for (int b = 0; b < SW_HUMANOID_BONE_COUNT; b++) {
        int32_t node = v->humanoid.node[b];
        FUZZ_REQUIRE(node >= -1 && node < (int64_t)model->node_count);
        if (node < 0) continue;
        mapped++;
        for (int o = 0; o < b; o++) FUZZ_REQUIRE(v->humanoid.node[o] != node);
    }
    FUZZ_REQUIRE(v->humanoid_mapped == mapped);
    FUZZ_REQUIRE(v->humanoid_required_missing <= SW_HUMANOID_BONE_COUNT);

    /* expressions, the preset table, binds and their slots */
    FUZZ_REQUIRE(!v->expression_count || v->expressions);
    for (int p = 0; p < SW_VRM_PRESET_COUNT; p++) {
        FUZZ_REQUIRE(v->preset[p] >= -1 && v->preset[p] < (int64_t)v->expression_count);
        if (v->preset[p] >= 0) FUZZ_REQUIRE(v->expressions[v->preset[p]].preset == (sw_vrm_preset)p);
    }
    for (size_t e = 0; e < v->expression_count; e++) {
        const sw_vrm_expression* x = &v->expressions[e];
        FUZZ_REQUIRE(x->name);
        fuzz_check_string(x->name);
        FUZZ_REQUIRE(x->preset >= SW_VRM_PRESET_CUSTOM && x->preset < SW_VRM_PRESET_COUNT);
        if (x->preset != SW_VRM_PRESET_CUSTOM) FUZZ_REQUIRE(v->preset[x->preset] == (int32_t)e);
        FUZZ_REQUIRE(sw_vrm_find_expression(v, x->name) >= 0);
        sw_vrm_override overrides[] = {x->override_blink, x->override_look_at, x->override_mouth};
        for (int o = 0; o < 3; o++) FUZZ_REQUIRE((unsigned)overrides[o] <= SW_VRM_OVERRIDE_BLEND);
        FUZZ_REQUIRE(!x->morph_bind_count || x->morph_binds);
        for (size_t i = 0; i < x->morph_bind_count; i++) {
            const sw_vrm_morph_bind* b = &x->morph_binds[i];
            FUZZ_REQUIRE(node_has_mesh(model, b->node));
            FUZZ_REQUIRE(b->index < model->meshes[model->nodes[b->node].mesh].weight_count);
            FUZZ_REQUIRE(isfinite(b->weight));
            FUZZ_REQUIRE(b->slot < v->morph_slot_count);
            FUZZ_REQUIRE(v->morph_slots[b->slot].node == b->node && v->morph_slots[b->slot].index == b->index);
        }
        FUZZ_REQUIRE(!x->color_bind_count || x->color_binds);
        for (size_t i = 0; i < x->color_bind_count; i++) {
            const sw_vrm_color_bind* b = &x->color_binds[i];
            FUZZ_REQUIRE(b->material < model->material_count && (unsigned)b->type < SW_VRM_COLOR_TYPE_COUNT);
            FUZZ_REQUIRE(fuzz_all_finite(b->target, 4));
            FUZZ_REQUIRE(b->slot < v->color_slot_count);
            FUZZ_REQUIRE(v->color_slots[b->slot].material == b->material && v->color_slots[b->slot].type == b->type);
        }
        FUZZ_REQUIRE(!x->texture_bind_count || x->texture_binds);
        for (size_t i = 0; i < x->texture_bind_count; i++) {
            const sw_vrm_texture_bind* b = &x->texture_binds[i];
            FUZZ_REQUIRE(b->material < model->material_count);
            FUZZ_REQUIRE(fuzz_all_finite(b->scale, 2) && fuzz_all_finite(b->offset, 2));
            FUZZ_REQUIRE(b->slot < v->texture_slot_count && v->texture_slots[b->slot] == b->material);
        }
    }
    /* slots: distinct, in range */
    for (size_t s = 0; s < v->morph_slot_count; s++) {
        FUZZ_REQUIRE(node_has_mesh(model, v->morph_slots[s].node));
        for (size_t o = 0; o < s && o < 64; o++)
            FUZZ_REQUIRE(v->morph_slots[o].node != v->morph_slots[s].node ||
                         v->morph_slots[o].index != v->morph_slots[s].index);
    }
    for (size_t s = 0; s < v->color_slot_count; s++)
        FUZZ_REQUIRE(v->color_slots[s].material < model->material_count &&
                     (unsigned)v->color_slots[s].type < SW_VRM_COLOR_TYPE_COUNT);
    for (size_t s = 0; s < v->texture_slot_count; s++) FUZZ_REQUIRE(v->texture_slots[s] < model->material_count);

    /* look-at, first person */
    const sw_vrm_look_at* l = &v->look_at;
    FUZZ_REQUIRE((unsigned)l->type <= SW_VRM_LOOK_AT_EXPRESSION);
    FUZZ_REQUIRE(fuzz_all_finite(l->offset_from_head_bone, 3));
    check_range_map(&l->horizontal_inner), check_range_map(&l->horizontal_outer);
    check_range_map(&l->vertical_down), check_range_map(&l->vertical_up);
    FUZZ_REQUIRE(v->first_person_bone >= -1 && v->first_person_bone < (int64_t)model->node_count);
    FUZZ_REQUIRE(!v->mesh_annotation_count || v->mesh_annotations);
    for (size_t i = 0; i < v->mesh_annotation_count; i++) {
        FUZZ_REQUIRE(node_has_mesh(model, v->mesh_annotations[i].node));
        FUZZ_REQUIRE((unsigned)v->mesh_annotations[i].type <= SW_VRM_FIRST_PERSON_FIRST_PERSON_ONLY);
    }
    FUZZ_REQUIRE(!v->warning_count || v->warnings);
    for (size_t i = 0; i < v->warning_count; i++) fuzz_check_line(v->warnings[i]);
}

/* The expression rules on weights from the input bytes (any float: NaN,
   inf, negative and huge included); every output finite. */
static void evaluate(const sw_vrm* v, const uint8_t* data, size_t size) {
    size_t n = v->expression_count;
    float* in = malloc((n ? n : 1) * sizeof *in);
    float* weights = malloc((n ? n : 1) * sizeof *weights);
    float* morph = malloc((v->morph_slot_count ? v->morph_slot_count : 1) * sizeof *morph);
    sw_vrm_color_value* colors = malloc((v->color_slot_count ? v->color_slot_count : 1) * sizeof *colors);
    sw_vrm_texture_value* textures = malloc((v->texture_slot_count ? v->texture_slot_count : 1) * sizeof *textures);
    FUZZ_REQUIRE(in && weights && morph && colors && textures);
    for (int round = 0; round < 2; round++) {
        for (size_t i = 0; i < n; i++) {
            uint32_t bits = 0;
            for (size_t k = 0; k < 4 && size; k++) bits = bits << 8 | data[(i * 4 + k + (size_t)round * 7) % size];
            float f;
            memcpy(&f, &bits, sizeof f);
            /* round 0: raw bit patterns; round 1: 0..1 steps */
            in[i] = round ? (float)(bits % 5) * 0.25f : f;
        }
        sw_vrm_expression_result out = {weights, morph, colors, textures};
        sw_vrm_expression_weights(v, in, &out);
        for (size_t i = 0; i < n; i++) FUZZ_REQUIRE(isfinite(weights[i]) && weights[i] >= 0.0f && weights[i] <= 1.0f);
        /* bind weights are finite but unbounded: a large enough sum may
           overflow, which only counts when every bind is modest */
        bool modest = true;
        for (size_t e = 0; e < n; e++)
            for (size_t i = 0; i < v->expressions[e].morph_bind_count; i++)
                modest = modest && fabsf(v->expressions[e].morph_binds[i].weight) < 1e30f;
        if (modest && n < 1000) FUZZ_REQUIRE(fuzz_all_finite(morph, v->morph_slot_count));
        for (size_t s = 0; s < v->color_slot_count; s++) {
            FUZZ_REQUIRE(isfinite(colors[s].weight));
            float base[4] = {0.5f, 0.5f, 0.5f, 1.0f}, shown[4];
            sw_vrm_color_apply(&colors[s], base, shown);
        }
        for (size_t s = 0; s < v->texture_slot_count; s++) {
            volatile float x = textures[s].scale[0] + textures[s].offset[1];
            (void)x;
        }
    }
    free(in), free(weights), free(morph), free(colors), free(textures);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const sw_model* base = fuzz_base_model();
    char* text = fuzz_text(data, size);
    static const char* const names[2] = {"VRM", "VRMC_vrm"};
    for (int version = 0; version < 2; version++) {
        sw_model_extension record = {names[version], SW_MODEL_OBJECT_MODEL, 0, text};
        sw_model model = fuzz_model_with(base, &record);
        sw_vrm* vrm = (sw_vrm*)1;
        sw_diag diag;
        sw_result r = sw_vrm_read(&model, &vrm, &diag);
        if (r != SW_OK) {
            FUZZ_REQUIRE(!vrm);
            fuzz_check_error(r, &diag, "fuzz.vrm");
            continue;
        }
        FUZZ_REQUIRE(vrm);
        check_vrm(&model, vrm, version ? SW_VRM_1 : SW_VRM_0);
        evaluate(vrm, data, size);
        sw_vrm_free(vrm);
    }
    free(text);
    return 0;
}
