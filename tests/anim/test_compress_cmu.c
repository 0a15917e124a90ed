/* Compressed clips on real motion capture: the CMU clips of Debian's
   assimp-testmodels (BVH/01_01.bvh, 01_03.bvh: 120 Hz, 31 joints),
   resampled at 30 Hz, compressed with virtual vertices at 1/60 of the
   skeleton's height and a tolerance of 2.5e-4 of it; every exported time
   checked against the raw samples by the independent evaluation of
   tests/test_compress.h, on every node. Skips when the package's files
   are absent. Release only (label reference): the compressor's code is
   the hand-made tests' in every configuration. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "sinew/import.h"
#include "test_compress.h"

/* ---- the CMU clips ----------------------------------------------------------- */

#define CMU_DIR "/usr/share/assimp/models/BVH/"

static void check_cmu_clip(const char* file, double least_ratio) {
    char path[256];
    snprintf(path, sizeof path, "%s%s", CMU_DIR, file);
    FILE* f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "  %s is absent (Debian package assimp-testmodels)\n", path);
        SW_SKIP("CMU motion capture not installed");
    }
    fclose(f);
    sw_model* model = NULL;
    sw_diag diag;
    if (sw_import_file(path, NULL, &model, &diag) != SW_OK) {
        fprintf(stderr, "  %s\n", diag.message);
        if (diag.result == SW_ERR_UNSUPPORTED) SW_SKIP("no Assimp importer in this build");
        SW_CHECK(false);
        return;
    }
    const size_t joints = model->node_count;
    int32_t* parents = malloc(joints * sizeof *parents);
    for (size_t j = 0; j < joints; j++) parents[j] = model->nodes[j].parent;
    /* The skeleton's height: the vertical extent of its joints at rest. */
    double lo = INFINITY, hi = -INFINITY;
    for (size_t j = 0; j < joints; j++) {
        double o[3] = {0, 0, 0}, p[3];
        to_model(parents, model->rest_local, (int32_t)j, o, p);
        lo = p[1] < lo ? p[1] : lo, hi = p[1] > hi ? p[1] : hi;
    }
    const double height = hi - lo, vertex = height / 60.0, bound = 2.5e-4 * height;
    const sw_clip* clip = &model->animations[0];
    compressed c;
    SW_CHECK(compress_clip(clip, model->rest_local, parents, joints, 30.0f, (float)bound, (float)vertex, &c));
    /* Independently: every exported time, every joint's three vertices. */
    sw_transform* pose = malloc(joints * sizeof *pose);
    double worst = 0.0;
    for (size_t s = 0; s < c.samples; s++) {
        float t = sw_resample_time(clip->start, clip->duration, s, c.samples);
        sample_compressed(&c.clip, model->rest_local, joints, t, pose);
        double e = vertex_error(parents, joints, pose, c.raw + s * joints, vertex);
        worst = e > worst ? e : worst;
    }
    const double ratio = (double)c.report.raw_bytes / (double)c.report.compressed_bytes;
    fprintf(stderr,
            "  %s: height %.2f, %zu samples at 30 Hz, %zu joints driven: %zu -> %zu bytes, %.1f:1; worst %.3g "
            "(%.3g of the height; bound 2.5e-4), p99 %.3g; independent worst %.3g\n",
            file, height, c.samples, c.report.driven_joints, c.report.raw_bytes, c.report.compressed_bytes, ratio,
            (double)c.report.worst_error, (double)c.report.worst_error / height, (double)c.report.p99_error, worst);
    SW_CHECK(c.report.driven_joints == 31);
    /* The issue asks 20:1; this codec reaches 21.45:1 (01_01) and 20.60:1
       (01_03) (docs/compression.md). Each value rounded alone, without the
       decoded parent (open loop), it is 19.9 and 19.1:1: the floor
       fails if the closed loop is lost. */
    SW_CHECK(ratio >= least_ratio);
    SW_CHECK(worst <= bound);
    free(pose);
    free(parents);
    release(&c);
    sw_model_free(model);
}

static void test_cmu_01_01(void) { check_cmu_clip("01_01.bvh", 20.0); }
static void test_cmu_01_03(void) { check_cmu_clip("01_03.bvh", 20.0); }

int main(void) {
    SW_RUN(test_cmu_01_01);
    SW_RUN(test_cmu_01_03);
    return sw_test_finish();
}
