/* The expression rules of VRMC_vrm-1.0 expressions.md (sinew/vrm.h) on the
   generated VRM 1.0 avatar, against weights worked out by hand from the
   spec's text. The avatar's expressions (vrm_fixtures.c):
     happy     morph(face, 2) × 1, Skin colour → (1, 0, 0, 1), overrideBlink
               block, overrideMouth blend
     blink     morph(face, 1) × 1 (its overrideBlink block is ignored)
     aa        morph(face, 0) × 0.8
     blinkLeft isBinary, morph(face, 1) × 0.5
     surprised overrideBlink blend, Cloth UV scale (2, 2), offset (0.5, 0)
     angry     isBinary, overrideMouth block
     wink      (custom) morph(face, 1) × 0.3, Cloth emission → (0, 1, 0, 1),
               overrideBlink blend */
#include <string.h>

#include "harness.h"
#include "sinew/vrm.h"
#include "vrm/vrm_fixtures.h"

typedef struct setup {
    vrm_fixture f;
    sw_model* model;
    sw_vrm* vrm;
    float in[16], w[16], morph[16];
    sw_vrm_color_value colors[8];
    sw_vrm_texture_value textures[8];
} setup;

static bool open_setup(setup* s, int version) {
    memset(s, 0, sizeof *s);
    sw_diag diag;
    if (vrm_fixture_make(&s->f, version) != 0 || vrm_fixture_load(&s->f, NULL, &s->model, &diag) != SW_OK ||
        sw_vrm_read(s->model, &s->vrm, &diag) != SW_OK || !s->vrm || s->vrm->expression_count > 16) {
        fprintf(stderr, "setup: %s\n", diag.message);
        return false;
    }
    return true;
}

static void close_setup(setup* s) {
    sw_vrm_free(s->vrm);
    sw_model_free(s->model);
    vrm_fixture_free(&s->f);
}

/* Sets the named inputs (name, weight pairs, NULL-terminated), runs the rules. */
static void run(setup* s, const char* const* names, const float* weights) {
    memset(s->in, 0, sizeof s->in);
    for (int i = 0; names[i]; i++) {
        int32_t e = sw_vrm_find_expression(s->vrm, names[i]);
        SW_CHECK(e >= 0);
        if (e >= 0) s->in[e] = weights[i];
    }
    sw_vrm_expression_result r = {s->w, s->morph, s->colors, s->textures};
    sw_vrm_expression_weights(s->vrm, s->in, &r);
}

static float weight_of(setup* s, const char* name) {
    int32_t e = sw_vrm_find_expression(s->vrm, name);
    return e >= 0 ? s->w[e] : -1.0f;
}

/* The morph slot of the face mesh's target `index`. */
static float face_morph(setup* s, uint32_t index) {
    uint32_t face = s->model->node_from_source[VRM_FX_FACE];
    for (size_t k = 0; k < s->vrm->morph_slot_count; k++)
        if (s->vrm->morph_slots[k].node == face && s->vrm->morph_slots[k].index == index) return s->morph[k];
    return -1.0f;
}

static const sw_vrm_color_value* color_of(setup* s, uint32_t material, sw_vrm_color_type type) {
    for (size_t k = 0; k < s->vrm->color_slot_count; k++)
        if (s->vrm->color_slots[k].material == material && s->vrm->color_slots[k].type == type) return &s->colors[k];
    return NULL;
}

#define RUN(s, ...)                                                                   \
    do {                                                                              \
        const char* const sw__n[] = {__VA_ARGS__, NULL};                              \
        run(s, sw__n, sw__v);                                                         \
    } while (0)

static void test_block_and_blend(void) {
    setup s;
    if (!open_setup(&s, 1)) {
        SW_CHECK(!"setup");
        close_setup(&s);
        return;
    }
    {
        /* happy 1 blocks blink and, blending 1, silences aa */
        const float sw__v[] = {1.0f, 1.0f, 0.6f};
        RUN(&s, "happy", "blink", "aa");
        SW_CHECK_NEAR(weight_of(&s, "blink"), 0.0, 0);
        SW_CHECK_NEAR(weight_of(&s, "aa"), 0.0, 0);
        SW_CHECK_NEAR(face_morph(&s, 1), 0.0, 0);
        SW_CHECK_NEAR(face_morph(&s, 2), 1.0, 0);
        SW_CHECK_NEAR(face_morph(&s, 0), 0.0, 0);
    }
    {
        /* happy 0.3: block still (weight > 0); aa × (1 − 0.3) → 0.7, morph 0.8 × 0.7 */
        const float sw__v[] = {0.3f, 1.0f, 1.0f};
        RUN(&s, "happy", "blink", "aa");
        SW_CHECK_NEAR(weight_of(&s, "blink"), 0.0, 0);
        SW_CHECK_NEAR(weight_of(&s, "aa"), 0.7, 1e-6);
        SW_CHECK_NEAR(face_morph(&s, 0), 0.56, 1e-6);
        SW_CHECK_NEAR(face_morph(&s, 2), 0.3, 1e-6);
        /* Skin colour: base (0.5, 0.5, 0.5, 1) + ((1, 0, 0, 1) − base) × 0.3 */
        const sw_vrm_color_value* c = color_of(&s, 0, SW_VRM_COLOR);
        SW_CHECK(c != NULL);
        if (c) {
            float base[4] = {0.5f, 0.5f, 0.5f, 1.0f}, out[4];
            sw_vrm_color_apply(c, base, out);
            SW_CHECK_NEAR(out[0], 0.65, 1e-6);
            SW_CHECK_NEAR(out[1], 0.35, 1e-6);
            SW_CHECK_NEAR(out[2], 0.35, 1e-6);
            SW_CHECK_NEAR(out[3], 1.0, 1e-6);
        }
    }
    {
        /* surprised 0.4 blends blink to 0.6; blinkLeft (binary) is overridden: 0 */
        const float sw__v[] = {0.4f, 1.0f, 1.0f};
        RUN(&s, "surprised", "blink", "blinkLeft");
        SW_CHECK_NEAR(weight_of(&s, "blink"), 0.6, 1e-6);
        SW_CHECK_NEAR(weight_of(&s, "blinkLeft"), 0.0, 0);
        SW_CHECK_NEAR(face_morph(&s, 1), 0.6, 1e-6);
        /* Cloth UV: scale 1 + (2 − 1) × 0.4, offset 0.5 × 0.4 */
        SW_CHECK_EQ_INT(s.vrm->texture_slot_count, 1);
        SW_CHECK_EQ_INT(s.vrm->texture_slots[0], 1);
        SW_CHECK_NEAR(s.textures[0].scale[0], 1.4, 1e-6);
        SW_CHECK_NEAR(s.textures[0].scale[1], 1.4, 1e-6);
        SW_CHECK_NEAR(s.textures[0].offset[0], 0.2, 1e-6);
        SW_CHECK_NEAR(s.textures[0].offset[1], 0.0, 0);
    }
    {
        /* blend weights add up and saturate: 0.7 + 0.6 ≥ 1 → blink 0; wink
           is custom and never overridden: morph 0.3 × 0.6 */
        const float sw__v[] = {0.7f, 0.6f, 1.0f};
        RUN(&s, "surprised", "wink", "blink");
        SW_CHECK_NEAR(weight_of(&s, "blink"), 0.0, 0);
        SW_CHECK_NEAR(weight_of(&s, "wink"), 0.6, 1e-6);
        SW_CHECK_NEAR(face_morph(&s, 1), 0.18, 1e-6);
        const sw_vrm_color_value* c = color_of(&s, 1, SW_VRM_EMISSION_COLOR);
        SW_CHECK(c != NULL);
        if (c) {
            SW_CHECK_NEAR(c->weight, 0.6, 1e-6);
            SW_CHECK_NEAR(c->sum[1], 0.6, 1e-6);
        }
    }
    {
        /* 0.2 + 0.3 blend: blink × 0.5 */
        const float sw__v[] = {0.2f, 0.3f, 0.8f};
        RUN(&s, "surprised", "wink", "blink");
        SW_CHECK_NEAR(weight_of(&s, "blink"), 0.4, 1e-6);
        SW_CHECK_NEAR(face_morph(&s, 1), 0.4 + 0.3 * 0.3, 1e-6);
    }
    close_setup(&s);
}

static void test_is_binary(void) {
    setup s;
    if (!open_setup(&s, 1)) {
        SW_CHECK(!"setup");
        close_setup(&s);
        return;
    }
    {
        /* blinkLeft: > 0.5 → 1 (morph 0.5), exactly 0.5 → 0 */
        const float sw__v[] = {0.51f};
        RUN(&s, "blinkLeft");
        SW_CHECK_NEAR(weight_of(&s, "blinkLeft"), 1.0, 0);
        SW_CHECK_NEAR(face_morph(&s, 1), 0.5, 1e-7);
    }
    {
        const float sw__v[] = {0.5f};
        RUN(&s, "blinkLeft");
        SW_CHECK_NEAR(weight_of(&s, "blinkLeft"), 0.0, 0);
        SW_CHECK_NEAR(face_morph(&s, 1), 0.0, 0);
    }
    {
        /* angry (binary) at 0.4 shows as 0, so it does not block aa */
        const float sw__v[] = {0.4f, 1.0f};
        RUN(&s, "angry", "aa");
        SW_CHECK_NEAR(weight_of(&s, "angry"), 0.0, 0);
        SW_CHECK_NEAR(weight_of(&s, "aa"), 1.0, 0);
        SW_CHECK_NEAR(face_morph(&s, 0), 0.8, 1e-7);
    }
    {
        /* angry at 0.6 shows as 1 and blocks aa */
        const float sw__v[] = {0.6f, 1.0f};
        RUN(&s, "angry", "aa");
        SW_CHECK_NEAR(weight_of(&s, "angry"), 1.0, 0);
        SW_CHECK_NEAR(weight_of(&s, "aa"), 0.0, 0);
    }
    {
        /* a binary expression overridden by a blend of any size: 0 */
        const float sw__v[] = {0.01f, 0.9f};
        RUN(&s, "wink", "blinkLeft");
        SW_CHECK_NEAR(weight_of(&s, "blinkLeft"), 0.0, 0);
        SW_CHECK_NEAR(face_morph(&s, 1), 0.3 * 0.01, 1e-7);
    }
    {
        /* inputs clamped to [0, 1]; NaN is 0; blink's own overrideBlink does nothing */
        const float sw__v[] = {1.5f, NAN, -2.0f};
        RUN(&s, "blink", "aa", "happy");
        SW_CHECK_NEAR(weight_of(&s, "blink"), 1.0, 0);
        SW_CHECK_NEAR(weight_of(&s, "aa"), 0.0, 0);
        SW_CHECK_NEAR(weight_of(&s, "happy"), 0.0, 0);
        SW_CHECK_NEAR(face_morph(&s, 1), 1.0, 0);
    }
    close_setup(&s);
}

/* VRM 0.x has no overrides: happy and blink both show; weights were /100. */
static void test_vrm0_no_overrides(void) {
    setup s;
    if (!open_setup(&s, 0)) {
        SW_CHECK(!"setup");
        close_setup(&s);
        return;
    }
    const float sw__v[] = {1.0f, 1.0f, 0.5f, 1.0f};
    RUN(&s, "happy", "blink", "aa", "blinkLeft");
    SW_CHECK_NEAR(weight_of(&s, "blink"), 1.0, 0);
    SW_CHECK_NEAR(face_morph(&s, 2), 1.0, 1e-7);
    SW_CHECK_NEAR(face_morph(&s, 0), 0.4, 1e-7);
    SW_CHECK_NEAR(face_morph(&s, 1), 1.0 + 0.5, 1e-7); /* blink + blinkLeft (binary 1) × 0.5: not clamped */
    close_setup(&s);
}

int main(void) {
    SW_RUN(test_block_and_blend);
    SW_RUN(test_is_binary);
    SW_RUN(test_vrm0_no_overrides);
    return sw_test_finish();
}
