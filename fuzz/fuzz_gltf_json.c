/* libFuzzer target: the .gltf (JSON) path of the loader, as cgltf's
   fuzz/main.c does it: load from memory with no base folder (external files
   are refused, so nothing is read from disk), check every promise the asset
   makes (fuzz_check.h), evaluate the scene, free.

   The memory ceiling is lowered so that one input cannot make an iteration
   slow: a sparse accessor without a bufferView may legally describe
   millions of zero elements in a few bytes of JSON. */
#include <stdint.h>
#include <stdlib.h>

#include "fuzz_check.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    sw_model* asset = NULL;
    sw_diag diag;
    sw_gltf_options options = {.max_memory = (size_t)64 << 20};
    sw_result r = sw_gltf_load_memory(data, size, "fuzz.gltf", NULL, &options, &asset, &diag);
    fuzz_check_result(r, asset, &diag, "fuzz.gltf");
    sw_model_free(asset);
    return 0;
}
