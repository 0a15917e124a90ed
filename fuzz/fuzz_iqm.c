/* Fuzz target: the IQM reader (sw_iqm_load_memory). The input is an IQM
   file, loaded with raw influences kept and, for animation files without
   joints, a two-joint skeleton (root, tip: the seeds' own joints) whose
   names the poses take when their count and parents agree.

   A load must end in a model that keeps every promise fuzz_check.h checks
   (the library's checks find nothing structural, every index in range,
   weights summing to 1, finite values, the scene posed and deformed), or
   in an error with one line that starts with the file's name; warnings
   are one line each too. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_check.h"
#include "sinew/iqm.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

/* root (a root) and tip (its child), both joints of one skin. */
static const sw_model* skeleton(void) {
    static const uint32_t joints[2] = {0, 1}, children[1] = {1}, from_source[2] = {0, 1};
    static const sw_transform rest[2] = {{{0, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}}, {{0, 0, 1}, {0, 0, 0, 1}, {1, 1, 1}}};
    static sw_model_node nodes[2];
    static sw_model_skin skin;
    static sw_model model;
    if (!model.nodes) {
        for (int i = 0; i < 2; i++) {
            nodes[i] = (sw_model_node){.name = i ? "tip" : "root", .parent = i - 1, .mesh = -1, .skin = -1,
                                       .camera = -1, .trs = rest[i], .source_index = (uint32_t)i};
            nodes[i].matrix.m[0][0] = nodes[i].matrix.m[1][1] = nodes[i].matrix.m[2][2] = 1.0f;
        }
        nodes[0].child_count = 1, nodes[0].children = children;
        skin = (sw_model_skin){.name = "skin", .joint_count = 2, .joints = joints, .skeleton = -1};
        model = (sw_model){.path = "skeleton", .node_count = 2, .nodes = nodes, .node_from_source = from_source,
                           .skin_count = 1, .skins = &skin, .skin_joint_count = 2, .rest_local = rest,
                           .default_scene = -1};
    }
    return &model;
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    sw_model* model = (sw_model*)1;
    sw_diag diag;
    sw_iqm_options options = {.max_memory = (size_t)64 << 20, .keep_raw_influences = true, .skeleton = skeleton()};
    sw_result r = sw_iqm_load_memory(data, size, "fuzz.iqm", NULL, &options, &model, &diag);
    fuzz_check_result(r, r == SW_OK ? model : NULL, &diag, "fuzz.iqm");
    if (r != SW_OK) FUZZ_REQUIRE(!model);
    for (size_t i = 0; r == SW_OK && i < model->warning_count; i++) /* names from the file stay on one line */
        FUZZ_REQUIRE(!strchr(model->warnings[i], '\n') && !strchr(model->warnings[i], '\r'));
    sw_model_free(r == SW_OK ? model : NULL);
    return 0;
}
