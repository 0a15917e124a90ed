/* libFuzzer target: the SW_decal reader (sinew/decal.h). The input is a
   .gltf document (nodes with SW_decal), loaded from memory with no base
   folder; a failed load is skipped. sw_decal_read must succeed with a set
   (or none) or fail with a code, no set and one line naming the file.
   Every decal of a set must name a node of the model, texture indices of
   the model's textures or -1, and colour, opacity and normal strength in
   [0, 1]; warnings are single lines naming the file. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_check.h"
#include "sinew/decal.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

static bool texture_ok(const sw_model* model, int32_t t) {
    return t == -1 || (t >= 0 && (size_t)t < model->texture_count);
}

static bool unit(float x) { return x >= 0.0f && x <= 1.0f; }

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    sw_model* model = NULL;
    sw_diag diag;
    sw_gltf_options options = {.max_memory = (size_t)64 << 20};
    if (sw_gltf_load_memory(data, size, "fuzz.gltf", NULL, &options, &model, &diag) != SW_OK) return 0;
    sw_decal_set* set = (sw_decal_set*)1;
    sw_result r = sw_decal_read(model, &set, &diag);
    if (r != SW_OK) {
        FUZZ_REQUIRE(!set);
        FUZZ_REQUIRE(r > SW_OK && r < SW_RESULT_COUNT && diag.result == r);
        FUZZ_REQUIRE(strncmp(diag.message, "fuzz.gltf: ", 11) == 0 && !strchr(diag.message, '\n'));
        sw_model_free(model);
        return 0;
    }
    if (set) {
        FUZZ_REQUIRE(set->decal_count && set->decals);
        for (size_t i = 0; i < set->warning_count; i++)
            FUZZ_REQUIRE(strncmp(set->warnings[i], "fuzz.gltf: ", 11) == 0 && !strchr(set->warnings[i], '\n'));
        for (size_t i = 0; i < set->decal_count; i++) {
            const sw_decal* d = &set->decals[i];
            FUZZ_REQUIRE(d->node < model->node_count);
            FUZZ_REQUIRE(texture_ok(model, d->base_color_texture) && texture_ok(model, d->normal_texture));
            FUZZ_REQUIRE(unit(d->opacity) && unit(d->normal_strength));
            for (int k = 0; k < 4; k++) FUZZ_REQUIRE(unit(d->base_color[k]));
        }
        sw_decal_set_free(set);
    }
    sw_model_free(model);
    return 0;
}
