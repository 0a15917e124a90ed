/* libFuzzer target: the GLB container (glTF 2.0 §4.4) and the JSON and BIN
   chunks behind it. The input always gets the "glTF" magic, so every input
   takes the GLB path; when the header's total length disagrees with the
   input's size, the input is also loaded with the length patched to match,
   so mutations that grow or shrink a seed still reach the chunks instead
   of stopping at the header check. Each load reads a heap block of exactly
   the input's size. Options differ from the JSON target's, so both sides
   of each are fuzzed: influences capped at 4 (8 there), and the raw
   influences kept (negative weights load, with a warning, instead of
   failing). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_check.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

static void load(const uint8_t* data, size_t size) {
    sw_model* asset = NULL;
    sw_diag diag;
    sw_gltf_options options = {.max_memory = (size_t)64 << 20, .max_influences = 4, .keep_raw_influences = true};
    sw_result r = sw_gltf_load_memory(data, size, "fuzz.glb", NULL, &options, &asset, &diag);
    fuzz_check_result(r, asset, &diag, "fuzz.glb");
    sw_model_free(asset);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 4) return 0;
    uint8_t* copy = malloc(size);
    if (!copy) return 0;
    memcpy(copy, data, size);
    memcpy(copy, "glTF", 4);
    load(copy, size);
    if (size >= 12 && size <= UINT32_MAX) {
        uint32_t declared = (uint32_t)copy[8] | (uint32_t)copy[9] << 8 | (uint32_t)copy[10] << 16 |
                            (uint32_t)copy[11] << 24;
        if (declared != size) {
            for (int i = 0; i < 4; i++) copy[8 + i] = (uint8_t)(size >> (8 * i));
            load(copy, size);
        }
    }
    free(copy);
    return 0;
}
