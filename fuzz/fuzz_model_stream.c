/* Fuzz target: the parent's side of Assimp's isolation, the model stream
   reader (src/assimp/model_stream.h). The input stands for what a child
   process sent down the pipe: a child that died halfway, lied about its
   counts or sent noise.

   The reader must end in an error with one line that starts with the
   label, or in a model whose every index it checked: the model is then
   posed and every instance deformed (fuzz_evaluate), where an index it let
   through would show as a crash. Warnings are one line each. */
#include <stdint.h>
#include <string.h>

#include "fuzz_check.h"
#include "../src/assimp/model_stream.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    sw_model* model = NULL;
    sw_diag diag;
    sw_result r = sw__model_stream_read(data, size, "fuzz.fbx", &model, &diag);
    if (r == SW_OK) {
        FUZZ_REQUIRE(model);
        fuzz_evaluate(model);
        for (size_t i = 0; i < model->warning_count; i++) FUZZ_REQUIRE(!strchr(model->warnings[i], '\n'));
    } else {
        FUZZ_REQUIRE(!model);
        FUZZ_REQUIRE(strncmp(diag.message, "fuzz.fbx: ", 10) == 0 && !strchr(diag.message, '\n'));
    }
    sw_model_free(model);
    return 0;
}
