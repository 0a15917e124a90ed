/* Shared by the compressed-clip tests (tests/anim/test_compress*.c): an
   evaluation of virtual vertices written here (TRS applied point by point,
   up the chain, in double; not the library's matrices), and a clip
   resampled, compressed and read back through its bytes. */
#ifndef SINEW_TEST_COMPRESS_H
#define SINEW_TEST_COMPRESS_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "sinew/compress.h"
#include "sinew/swa.h"

/* ---- an independent evaluation: TRS applied to a point, up the chain ---- */

static inline void rotate(const sw_quat* q, const double v[3], double out[3]) {
    /* v + 2w(u × v) + 2u × (u × v), u = (x, y, z) */
    double u[3] = {q->x, q->y, q->z}, w = q->w;
    double c[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
    double cc[3] = {u[1] * c[2] - u[2] * c[1], u[2] * c[0] - u[0] * c[2], u[0] * c[1] - u[1] * c[0]};
    for (int k = 0; k < 3; k++) out[k] = v[k] + 2.0 * w * c[k] + 2.0 * cc[k];
}

/* Model-space position of `point` given in joint j's space. */
static inline void to_model(const int32_t* parents, const sw_transform* local, int32_t j, const double point[3],
                     double out[3]) {
    double p[3] = {point[0], point[1], point[2]};
    for (; j >= 0; j = parents[j]) {
        const sw_transform* t = &local[j];
        double s[3] = {p[0] * t->scale.x, p[1] * t->scale.y, p[2] * t->scale.z}, r[3];
        rotate(&t->rotation, s, r);
        p[0] = r[0] + t->translation.x, p[1] = r[1] + t->translation.y, p[2] = r[2] + t->translation.z;
    }
    memcpy(out, p, sizeof p);
}

/* The worst virtual-vertex distance between two poses over every joint. */
static inline double vertex_error(const int32_t* parents, size_t joints, const sw_transform* a, const sw_transform* b,
                           double d) {
    double worst = 0.0;
    for (size_t j = 0; j < joints; j++) {
        for (int k = 0; k < 3; k++) {
            double v[3] = {0, 0, 0}, pa[3], pb[3];
            v[k] = d;
            to_model(parents, a, (int32_t)j, v, pa);
            to_model(parents, b, (int32_t)j, v, pb);
            double e = sqrt((pa[0] - pb[0]) * (pa[0] - pb[0]) + (pa[1] - pb[1]) * (pa[1] - pb[1]) +
                            (pa[2] - pb[2]) * (pa[2] - pb[2]));
            if (e > worst || e != e) worst = e != e ? INFINITY : e;
        }
    }
    return worst;
}

typedef struct compressed {
    sw_transform* raw;
    size_t samples;
    sw_compressed_bytes bytes;
    sw_compress_report report;
    sw_compressed_clip clip;
} compressed;

static inline bool compress_clip(const sw_clip* clip, const sw_transform* rest, const int32_t* parents, size_t joints,
                          float rate, float tolerance, float vertex, compressed* out) {
    memset(out, 0, sizeof *out);
    out->samples = sw_clip_resample_count(clip, rate);
    out->raw = malloc(out->samples * joints * sizeof *out->raw);
    uint8_t* channels = malloc(joints);
    sw_diag diag;
    bool ok = out->raw && channels && sw_clip_resample(clip, rest, joints, out->samples, out->raw, &diag) == SW_OK;
    if (ok) {
        sw_clip_channels(clip, channels, joints);
        sw_compress_input in = {.joint_count = joints, .parents = parents, .samples = out->raw,
                                .sample_count = out->samples, .start = clip->start, .end = clip->duration,
                                .channels = channels, .name = clip->name};
        sw_compress_settings settings = {.tolerance = tolerance, .virtual_vertex = vertex};
        ok = sw_compress_clip(&in, &settings, &out->bytes, &out->report, &diag) == SW_OK &&
             sw_swa_read(out->bytes.bytes, out->bytes.size, "test.swa", &out->clip, &diag) == SW_OK;
    }
    if (!ok) fprintf(stderr, "  %s\n", diag.message);
    free(channels);
    return ok;
}

static inline void release(compressed* c) {
    free(c->raw);
    sw_compress_bytes_free(&c->bytes);
}

/* The compressed pose at time t over `rest`. */
static inline void sample_compressed(const sw_compressed_clip* clip, const sw_transform* rest, size_t joints, float t,
                              sw_transform* out) {
    memcpy(out, rest, joints * sizeof *out);
    sw_compressed_sample_job job = {.clip = clip, .time = t, .target_count = joints, .out_local = out};
    SW_CHECK(sw_compressed_sample_job_validate(&job, NULL) == SW_OK);
    sw_compressed_sample_job_run(&job);
}

#endif
