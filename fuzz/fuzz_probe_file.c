/* libFuzzer target: the probe file reader (sinew/render.h,
   sw_render_probe_file_read; docs/probes.md). Any bytes: either probes
   that sw_renderer_set_probes would take (and, in a version 2 file,
   cubes of non-negative finite texels), which write back to the same
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
    static uint8_t again[32 + SW_RENDER_PROBE_MAX * 148];
    size_t count = 99;
    sw_diag diag;
    sw_result r = sw_render_probe_file_read(data, size, probes, &count, &diag);
    if (r != SW_OK) {
        FUZZ_REQUIRE(r == SW_ERR_INVALID_DATA && diag.result == r && count == 0);
        FUZZ_REQUIRE(diag.message[0] && !strchr(diag.message, '\n'));
        return 0;
    }
    const int version = data[8], cube_size = sw_render_probe_file_cube_size(data, size);
    FUZZ_REQUIRE(count <= SW_RENDER_PROBE_MAX && (version == 1 || version == 2));
    FUZZ_REQUIRE(size == (version == 1 ? sw_render_probe_file_size(count)
                                       : sw_render_probe_file_specular_size(count, cube_size)));
    for (size_t i = 0; i < count; i++) {
        FUZZ_REQUIRE(probes[i].fade >= 0.0f);
        for (int k = 0; k < 3; k++) FUZZ_REQUIRE(probes[i].box_min[k] <= probes[i].box_max[k]);
    }
    if (version == 1) {
        FUZZ_REQUIRE(sw_render_probe_file_write(probes, count, again, sizeof again, &diag) == SW_OK);
        FUZZ_REQUIRE(memcmp(again, data, size) == 0);
        return 0;
    }
    size_t floats = cube_size ? (count + 1) * sw_render_probe_cube_floats(cube_size) : 0;
    float* cubes = malloc(floats * sizeof(float) + 1);
    uint8_t* bytes = malloc(size);
    FUZZ_REQUIRE(cubes && bytes);
    FUZZ_REQUIRE(sw_render_probe_file_read_cubes(data, size, cubes, floats, &diag) == SW_OK);
    for (size_t k = 0; k < floats; k++) FUZZ_REQUIRE(cubes[k] >= 0.0f && isfinite(cubes[k]));
    FUZZ_REQUIRE(sw_render_probe_file_write_specular(probes, count, cube_size, cubes, bytes, size, &diag) == SW_OK);
    FUZZ_REQUIRE(memcmp(bytes, data, size) == 0);
    free(cubes);
    free(bytes);
    return 0;
}
