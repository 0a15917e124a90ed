/* sinew bench anim: decompressing a pose against sampling the raw clip
   (bench_compress.h). */
#include "bench_compress.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sinew/compress.h"
#include "sinew/swa.h"

#define WARMUP_TURNS 3
#define DT (1.0f / 60.0f)

typedef struct compress_bench {
    const sw_model* model;
    const sw_clip* clip;
    sw_compressed_clip compressed;
    size_t characters;
    sw_transform* poses;  /* characters × node_count */
    uint32_t* cursors;    /* characters × track_count */
    sw_compressed_cache* caches; /* characters: the compressed clip's cached side */
    float* cache_values;  /* characters × sw_compressed_cache_capacity */
    float* times;         /* characters */
    double sink;          /* keeps the results alive */
} compress_bench;

/* Every character's pose from the raw clip (cursors as playback keeps
   them) or the compressed one (1: without state, 2: each character with
   its cache, as playback keeps it); nanoseconds per pose. */
static double time_poses(compress_bench* b, int compressed) {
    const size_t nodes = b->model->node_count;
    double t0 = now_seconds();
    for (size_t c = 0; c < b->characters; c++) {
        sw_transform* pose = b->poses + c * nodes;
        memcpy(pose, b->model->rest_local, nodes * sizeof *pose);
        if (compressed) {
            sw_compressed_sample_job job = {.clip = &b->compressed, .target_count = nodes, .out_local = pose,
                                            .time = sw_compressed_clip_time(&b->compressed, b->times[c], true),
                                            .cache = compressed == 2 ? &b->caches[c] : NULL};
            sw_compressed_sample_job_run(&job);
        } else {
            sw_sample_job job = {.clip = b->clip, .time = sw_clip_time(b->clip, b->times[c], true),
                                 .cursors = b->cursors + c * b->clip->track_count, .target_count = nodes,
                                 .out_local = pose, .weight_offsets = b->model->weight_offsets};
            sw_sample_job_run(&job);
        }
    }
    double t1 = now_seconds();
    for (size_t c = 0; c < b->characters; c++) b->sink += b->poses[c * nodes].rotation.w;
    return (t1 - t0) / (double)b->characters * 1e9;
}

/* The clip without weight tracks (the compressor leaves them out): the
   raw side samples the same tracks. */
static sw_track* transform_tracks(const sw_clip* clip, sw_clip* out) {
    sw_track* tracks = malloc((clip->track_count ? clip->track_count : 1) * sizeof *tracks);
    if (!tracks) return NULL;
    size_t n = 0;
    for (size_t i = 0; i < clip->track_count; i++)
        if (clip->tracks[i].path != SW_PATH_WEIGHTS) tracks[n++] = clip->tracks[i];
    *out = *clip;
    out->tracks = tracks, out->track_count = n;
    return tracks;
}

static bool compress(const sw_model* model, const sw_clip* clip, sw_compressed_bytes* bytes,
                     bench_compress_report* out) {
    const size_t nodes = model->node_count, samples = sw_clip_resample_count(clip, 30.0f);
    sw_transform* raw = malloc((samples ? samples : 1) * nodes * sizeof *raw);
    int32_t* parents = malloc(nodes * sizeof *parents);
    uint8_t* channels = malloc(nodes);
    sw_compress_report report;
    bool ok = samples && raw && parents && channels &&
              sw_clip_resample(clip, model->rest_local, nodes, samples, raw, NULL) == SW_OK;
    if (ok) {
        for (size_t j = 0; j < nodes; j++) parents[j] = model->nodes[j].parent;
        sw_clip_channels(clip, channels, nodes);
        sw_compress_input in = {.joint_count = nodes, .parents = parents, .samples = raw, .sample_count = samples,
                                .start = clip->start, .end = clip->duration, .channels = channels};
        ok = sw_compress_clip(&in, NULL, bytes, &report, NULL) == SW_OK;
    }
    if (ok) {
        out->samples = samples, out->raw_bytes = report.raw_bytes, out->compressed_bytes = report.compressed_bytes;
        out->worst_error = report.worst_error;
    }
    free(raw), free(parents), free(channels);
    return ok;
}

bool bench_compress_run(const sw_model* model, const sw_clip* clip, int reps, size_t characters,
                        bench_compress_report* out) {
    memset(out, 0, sizeof *out);
    if (!clip || reps < 1) return true;
    compress_bench b = {.model = model, .characters = characters ? characters : 1};
    sw_clip trs;
    sw_track* tracks = transform_tracks(clip, &trs);
    if (!tracks) return false;
    if (trs.track_count == 0) {
        free(tracks);
        return true;
    }
    b.clip = &trs;
    sw_compressed_bytes bytes = {0};
    double* samples[5] = {calloc((size_t)reps, sizeof(double)), calloc((size_t)reps, sizeof(double)),
                          calloc((size_t)reps, sizeof(double)), calloc((size_t)reps, sizeof(double)),
                          calloc((size_t)reps, sizeof(double))};
    b.poses = malloc(b.characters * model->node_count * sizeof *b.poses);
    b.cursors = calloc(b.characters * trs.track_count, sizeof *b.cursors);
    b.times = malloc(b.characters * sizeof *b.times);
    bool ok = samples[0] && samples[1] && samples[2] && samples[3] && samples[4] && b.poses && b.cursors &&
              b.times && compress(model, &trs, &bytes, out) &&
              sw_swa_read(bytes.bytes, bytes.size, "bench.swa", &b.compressed, NULL) == SW_OK;
    const size_t capacity = ok ? sw_compressed_cache_capacity(&b.compressed) : 0;
    if (ok) {
        b.caches = calloc(b.characters, sizeof *b.caches);
        b.cache_values = malloc(b.characters * capacity * sizeof *b.cache_values);
        ok = b.caches && b.cache_values;
    }
    if (ok) {
        for (size_t c = 0; c < b.characters; c++)
            b.caches[c] = (sw_compressed_cache){.values = b.cache_values + c * capacity, .capacity = capacity};
        for (size_t c = 0; c < b.characters; c++)
            b.times[c] = (float)fmod(0.37 * (double)c, trs.duration > 0.0f ? (double)trs.duration : 1.0);
        for (int r = -WARMUP_TURNS; r < reps; r++) {
            /* the three in turns, each first as often: raw, stateless, cached */
            double ns[3];
            for (int k = 0; k < 3; k++) {
                const int which = (k + r + WARMUP_TURNS) % 3;
                ns[which] = time_poses(&b, which);
            }
            for (size_t c = 0; c < b.characters; c++) b.times[c] += DT;
            if (r < 0) continue;
            samples[0][r] = ns[0], samples[1][r] = ns[1], samples[2][r] = ns[1] / ns[0];
            samples[3][r] = ns[2], samples[4][r] = ns[2] / ns[0];
        }
        out->ran = true, out->reps = reps, out->characters = b.characters;
        out->raw_ns = summarise(samples[0], reps);
        out->compressed_ns = summarise(samples[1], reps);
        out->ratio = summarise(samples[2], reps);
        out->cached_ns = summarise(samples[3], reps);
        out->cached_ratio = summarise(samples[4], reps);
    }
    sw_compress_bytes_free(&bytes);
    for (int k = 0; k < 5; k++) free(samples[k]);
    free(b.caches), free(b.cache_values);
    free(b.poses), free(b.cursors), free(b.times), free(tracks);
    return ok;
}

void bench_compress_print_text(const bench_compress_report* r) {
    if (!r->ran) {
        printf("  compressed clip: none (no clip, or no translation, rotation or scale track)\n");
        return;
    }
    printf("  compressed clip (sinew compress, 30 Hz): %zu samples, %zu -> %zu bytes (%.1f:1), worst error %.3g\n",
           r->samples, r->raw_bytes, r->compressed_bytes, (double)r->raw_bytes / (double)r->compressed_bytes,
           (double)r->worst_error);
    printf("  one pose, rest + clip, in turns    min      median   max   (%zu poses per turn)\n", r->characters);
    printf("  %-26s %8.1f %8.1f %8.1f ns\n", "raw clip (cursors)", r->raw_ns.min, r->raw_ns.median, r->raw_ns.max);
    printf("  %-26s %8.1f %8.1f %8.1f ns\n", "compressed clip", r->compressed_ns.min, r->compressed_ns.median,
           r->compressed_ns.max);
    printf("  %-26s %8.3f %8.3f %8.3f\n", "compressed / raw", r->ratio.min, r->ratio.median, r->ratio.max);
    printf("  %-26s %8.1f %8.1f %8.1f ns\n", "compressed, cached", r->cached_ns.min, r->cached_ns.median,
           r->cached_ns.max);
    printf("  %-26s %8.3f %8.3f %8.3f\n", "cached / raw", r->cached_ratio.min, r->cached_ratio.median,
           r->cached_ratio.max);
}

void bench_compress_print_json(json_writer* w, const bench_compress_report* r) {
    json_key(w, "compressed");
    if (!r->ran) {
        json_null(w);
        return;
    }
    json_begin_object(w);
    json_key(w, "samples"), json_int(w, (long long)r->samples);
    json_key(w, "raw_bytes"), json_int(w, (long long)r->raw_bytes);
    json_key(w, "compressed_bytes"), json_int(w, (long long)r->compressed_bytes);
    json_key(w, "worst_error"), json_double(w, (double)r->worst_error);
    json_key(w, "poses_per_turn"), json_int(w, (long long)r->characters);
    json_stats(w, "raw_nanoseconds_per_pose", r->raw_ns);
    json_stats(w, "compressed_nanoseconds_per_pose", r->compressed_ns);
    json_stats(w, "compressed_over_raw", r->ratio);
    json_stats(w, "cached_nanoseconds_per_pose", r->cached_ns);
    json_stats(w, "cached_over_raw", r->cached_ratio);
    json_end_object(w);
}
