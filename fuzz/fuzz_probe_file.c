/* libFuzzer target: the probe file reader (sinew/render.h,
   sw_render_probe_file_read; docs/probes.md). Any bytes: either probes
   that sw_renderer_set_probes would take, which write back to the same
   bytes, or SW_ERR_INVALID_DATA with one line and no probes. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_check.h"
#include "sinew/render.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static sw_render_probe probes[SW_RENDER_PROBE_MAX];
    static uint8_t again[24 + SW_RENDER_PROBE_MAX * 148];
    size_t count = 99;
    sw_diag diag;
    sw_result r = sw_render_probe_file_read(data, size, probes, &count, &diag);
    if (r != SW_OK) {
        FUZZ_REQUIRE(r == SW_ERR_INVALID_DATA && diag.result == r && count == 0);
        FUZZ_REQUIRE(diag.message[0] && !strchr(diag.message, '\n'));
        return 0;
    }
    FUZZ_REQUIRE(count <= SW_RENDER_PROBE_MAX && size == sw_render_probe_file_size(count));
    for (size_t i = 0; i < count; i++) {
        FUZZ_REQUIRE(probes[i].fade >= 0.0f);
        for (int k = 0; k < 3; k++) FUZZ_REQUIRE(probes[i].box_min[k] <= probes[i].box_max[k]);
    }
    FUZZ_REQUIRE(sw_render_probe_file_write(probes, count, again, sizeof again, &diag) == SW_OK);
    FUZZ_REQUIRE(memcmp(again, data, size) == 0);
    return 0;
}
