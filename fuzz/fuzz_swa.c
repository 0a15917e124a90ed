/* libFuzzer target: the compressed clip reader (sinew/swa.h). The input is
   the bytes of a .swa file, copied into an aligned block of exactly their
   size. sw_swa_read must refuse them with a code and one line naming the
   file, or give a view that samples (before, inside and after the clip)
   inside the bytes, every written value finite and rotations unit. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_check.h"
#include "sinew/swa.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    uint8_t* bytes = malloc(size ? size : 1);
    if (!bytes) return 0;
    if (size) memcpy(bytes, data, size);
    sw_compressed_clip clip;
    sw_diag diag;
    sw_result r = sw_swa_read(bytes, size, "fuzz.swa", &clip, &diag);
    if (r != SW_OK) {
        FUZZ_REQUIRE(r > SW_OK && r < SW_RESULT_COUNT && diag.result == r);
        FUZZ_REQUIRE(strncmp(diag.message, "fuzz.swa: ", 10) == 0 && !strchr(diag.message, '\n'));
        free(bytes);
        return 0;
    }
    /* A clip drives at most 256 targets here, or is only validated. */
    enum { MAX_TARGETS = 256 };
    sw_transform pose[MAX_TARGETS];
    sw_compressed_sample_job job = {.clip = &clip, .target_count = MAX_TARGETS, .out_local = pose};
    if (clip.target_count <= MAX_TARGETS && sw_compressed_sample_job_validate(&job, NULL) == SW_OK) {
        const float span = clip.duration - clip.start;
        const float times[] = {clip.start - 1.0f, clip.start, clip.start + 0.37f * span, clip.start + 0.5f * span,
                               clip.duration, clip.duration + 1.0f};
        for (size_t k = 0; k < sizeof times / sizeof times[0]; k++) {
            for (size_t j = 0; j < MAX_TARGETS; j++) pose[j] = sw_transform_identity();
            job.time = sw_compressed_clip_time(&clip, times[k], k % 2 == 1);
            sw_compressed_sample_job_run(&job);
            for (size_t j = 0; j < MAX_TARGETS; j++) {
                const float* v = &pose[j].translation.x;
                for (int i = 0; i < 10; i++) FUZZ_REQUIRE(isfinite(v[i]));
                const sw_quat q = pose[j].rotation;
                FUZZ_REQUIRE(fabsf(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w - 1.0f) < 1e-3f);
            }
        }
    }
    free(bytes);
    return 0;
}
