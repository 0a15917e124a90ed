/* The compressed-clip part of sinew bench anim (tools/bench_compress.c):
   decompressing a pose (sinew/compress.h) against sampling the raw clip. */
#ifndef SINEW_TOOLS_BENCH_COMPRESS_H
#define SINEW_TOOLS_BENCH_COMPRESS_H

#include <stdbool.h>

#include "bench_stats.h"
#include "json_writer.h"
#include "sinew/model.h"

typedef struct bench_compress_report {
    bool ran;                 /* false: no clip, or it has no translation, rotation or scale track */
    int reps;
    size_t characters;        /* poses sampled per repetition, each at its own time */
    size_t samples;           /* of the compressed clip, at 30 Hz */
    size_t raw_bytes, compressed_bytes;
    float worst_error;        /* virtual vertices at 0.03, tolerance 0.0001 (model units) */
    stats raw_ns, compressed_ns, cached_ns; /* per pose: rest pose copied, then the clip sampled (raw: with
                                                cursors; cached: each character with its sw_compressed_cache) */
    stats ratio, cached_ratio; /* compressed / raw and cached / raw, per turn */
} bench_compress_report;

/* Compresses `clip` of `model` (30 Hz, sinew compress's defaults), then
   times, in turns (raw, compressed; then compressed, raw; ...), sampling
   `characters` poses from the raw clip and from the compressed one, each
   character at its own time advancing 1/60 s per repetition, after 3
   warm-up turns. Single-threaded. false only when out of memory or the
   compression failed (`out->ran` false and nothing timed when there is
   nothing to compress). */
bool bench_compress_run(const sw_model* model, const sw_clip* clip, int reps, size_t characters,
                        bench_compress_report* out);

void bench_compress_print_text(const bench_compress_report* r);
void bench_compress_print_json(json_writer* w, const bench_compress_report* r);

#endif
