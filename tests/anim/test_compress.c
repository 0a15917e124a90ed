/* Compressed clips (sinew/compress.h, sinew/swa.h): hand-made clips whose
   answers are known (constant and default tracks stripped, the
   quantisation bound of the stored bits, seeking and looping against the
   raw sampler, checked by the virtual-vertex evaluation of
   tests/test_compress.h), the bytes round trip and hostile bytes. The CMU
   clips are test_compress_cmu.c's. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "test_compress.h"

static sw_quat axis_angle(double x, double y, double z, double angle) {
    double n = sqrt(x * x + y * y + z * z), s = sin(angle / 2) / n;
    return (sw_quat){(float)(x * s), (float)(y * s), (float)(z * s), (float)cos(angle / 2)};
}

/* ---- a hand-made clip: a 4-joint chain, keys at 30 Hz ----------------------

   joint 0: translation animated (a walk forward with a bob), rotation
            animated, scale driven but 1 throughout (default);
   joint 1: rotation animated (a swing), translation driven and constant;
   joint 2: rotation driven and constant (not identity), translation driven
            and zero (default);
   joint 3: not driven at all (an end site). */
#define CHAIN 4
#define KEYS 100
static const int32_t chain_parents[CHAIN] = {-1, 0, 1, 2};

typedef struct hand_clip {
    float times[KEYS];
    float t0[KEYS * 3], r0[KEYS * 4], s0[KEYS * 3], t1[KEYS * 3], r1[KEYS * 4], t2[KEYS * 3], r2[KEYS * 4];
    sw_track tracks[7];
    sw_clip clip;
    sw_transform rest[CHAIN];
} hand_clip;

static void make_hand_clip(hand_clip* h) {
    for (int k = 0; k < KEYS; k++) {
        double t = k / 30.0;
        h->times[k] = (float)t;
        float* t0 = h->t0 + 3 * k;
        t0[0] = (float)(1.2 * t), t0[1] = (float)(0.9 + 0.03 * sin(7.0 * t)), t0[2] = (float)(0.1 * sin(2.0 * t));
        sw_quat q0 = axis_angle(0, 1, 0.1, 0.4 * sin(1.3 * t) + 2.5); /* far from identity: w small, x and y large */
        memcpy(h->r0 + 4 * k, &q0, sizeof q0);
        h->s0[3 * k] = h->s0[3 * k + 1] = h->s0[3 * k + 2] = 1.0f;
        float* t1 = h->t1 + 3 * k;
        t1[0] = 0.0f, t1[1] = 0.45f, t1[2] = 0.02f;
        sw_quat q1 = axis_angle(1, 0.2, 0, 1.1 * sin(5.0 * t));
        memcpy(h->r1 + 4 * k, &q1, sizeof q1);
        h->t2[3 * k] = h->t2[3 * k + 1] = h->t2[3 * k + 2] = 0.0f;
        sw_quat q2 = axis_angle(0, 0, 1, 0.7);
        memcpy(h->r2 + 4 * k, &q2, sizeof q2);
    }
    const float* values[7] = {h->t0, h->r0, h->s0, h->t1, h->r1, h->t2, h->r2};
    const uint32_t targets[7] = {0, 0, 0, 1, 1, 2, 2};
    const sw_track_path paths[7] = {SW_PATH_TRANSLATION, SW_PATH_ROTATION, SW_PATH_SCALE, SW_PATH_TRANSLATION,
                                    SW_PATH_ROTATION, SW_PATH_TRANSLATION, SW_PATH_ROTATION};
    for (int i = 0; i < 7; i++)
        h->tracks[i] = (sw_track){.target = targets[i], .path = paths[i], .interpolation = SW_INTERP_LINEAR,
                                  .component_count = paths[i] == SW_PATH_ROTATION ? 4 : 3, .key_count = KEYS,
                                  .times = h->times, .values = values[i]};
    h->clip = (sw_clip){.name = "hand", .track_count = 7, .tracks = h->tracks};
    SW_CHECK(sw_clip_finish(&h->clip, NULL) == SW_OK);
    for (int j = 0; j < CHAIN; j++) h->rest[j] = sw_transform_identity();
    h->rest[3].translation = sw_vec3_make(0.0f, 0.3f, 0.0f);
}

static void test_strips_constant_and_default_tracks(void) {
    hand_clip h;
    make_hand_clip(&h);
    compressed c;
    SW_CHECK(compress_clip(&h.clip, h.rest, chain_parents, CHAIN, 30.0f, 1e-4f, 0.03f, &c));
    /* T0 R0 R1 animated; T1 R2 constant; S0 T2 default; joint 3 not driven */
    SW_CHECK_EQ_INT(c.report.driven_joints, 3);
    SW_CHECK_EQ_INT(c.report.animated_tracks, 3);
    SW_CHECK_EQ_INT(c.report.constant_tracks, 2);
    SW_CHECK_EQ_INT(c.report.default_tracks, 2);
    SW_CHECK_EQ_INT(c.clip.track_count, 3);
    SW_CHECK_EQ_INT(c.clip.animated_count, 3);
    /* rotations drop a component: 3 + 3 + 3 stored */
    SW_CHECK_EQ_INT(c.clip.component_count, 9);
    SW_CHECK(c.report.met && c.report.worst_error <= 1e-4f);
    SW_CHECK(c.report.p99_error <= c.report.worst_error);
    SW_CHECK(strcmp(c.clip.name, "hand") == 0);
    /* The constant and default properties come back exactly; joint 3 is left as set. */
    sw_transform pose[CHAIN];
    sample_compressed(&c.clip, h.rest, CHAIN, 1.0f, pose);
    SW_CHECK(pose[1].translation.y == 0.45f && pose[1].translation.z == 0.02f);
    SW_CHECK(pose[2].translation.x == 0.0f && pose[0].scale.x == 1.0f && pose[0].scale.z == 1.0f);
    SW_CHECK_NEAR(fabsf(pose[2].rotation.z), sinf(0.35f), 1e-6);
    SW_CHECK(pose[3].translation.y == 0.3f);
    /* Stripping and quantising make it small: under a quarter of the raw bytes here. */
    fprintf(stderr, "  hand clip: %zu -> %zu bytes\n", c.report.raw_bytes, c.report.compressed_bytes);
    SW_CHECK(c.report.compressed_bytes * 4 < c.report.raw_bytes);
    release(&c);
}

/* Every stored value is within half a quantisation step of its segment
   range, whatever bits the search chose: |decoded − raw| ≤ clip extent ×
   segment extent/255 / (2 (2^bits − 1)) (for 0 bits, half the range). */
static void test_quantisation_bound(void) {
    enum { N = 70 };
    float times[N], values[N * 3];
    for (int k = 0; k < N; k++) {
        times[k] = (float)k / 30.0f;
        values[3 * k] = 0.5f * sinf(0.2f * (float)k), values[3 * k + 1] = (float)k * 0.01f, values[3 * k + 2] = 2.0f;
    }
    values[5] = 2.5f; /* z moves once, so it is animated */
    sw_track track = {.target = 0, .path = SW_PATH_TRANSLATION, .component_count = 3, .key_count = N,
                      .times = times, .values = values};
    sw_clip clip = {.name = "bound", .track_count = 1, .tracks = &track};
    SW_CHECK(sw_clip_finish(&clip, NULL) == SW_OK);
    const int32_t parents[1] = {-1};
    sw_transform rest = sw_transform_identity();
    compressed c;
    SW_CHECK(compress_clip(&clip, &rest, parents, 1, 30.0f, 2e-3f, 0.03f, &c));
    SW_CHECK_EQ_INT(c.samples, N);
    SW_CHECK_EQ_INT(c.clip.segment_count, 3);
    const float* mins = c.clip.ranges;
    const float* extents = c.clip.ranges + c.clip.component_count;
    SW_CHECK_NEAR(mins[2], 2.0f, 0.0f);
    SW_CHECK_NEAR(extents[2], 0.5f, 0.0f);
    double worst_ratio = 0.0;
    for (int k = 0; k < N; k++) {
        sw_transform pose;
        sample_compressed(&c.clip, &rest, 1, sw_resample_time(clip.start, clip.duration, (size_t)k, N), &pose);
        const uint8_t* seg = c.clip.bytes + c.clip.segments[k / SW_COMPRESS_SEGMENT_SAMPLES];
        for (int i = 0; i < 3; i++) {
            /* u32 raw-row bits, u32 bytes; a code per component (bits in the
               low 5 bits), then (minimum, extent) per component */
            const unsigned bits = seg[8 + i] & 31u;
            double seg_extent = seg[8 + 3 + 2 * i + 1] / 255.0;
            double bound = extents[i] * seg_extent * (bits ? 0.5 / ((1u << bits) - 1u) : 0.5) + 1e-6;
            double err = fabs((double)(&pose.translation.x)[i] - values[3 * k + i]);
            SW_CHECK(err <= bound);
            if (err / bound > worst_ratio) worst_ratio = err / bound;
        }
    }
    /* the rounding is to the nearest step: the bound is nearly reached somewhere */
    SW_CHECK(worst_ratio > 0.3 && worst_ratio <= 1.0);
    /* Bits are per component: past sample 1, z holds still (its segment
       range is empty) and stores no bits, while x (a sine of extent ~1)
       needs some; y (0.01 a sample) fewer than x. */
    for (uint32_t s = 1; s < c.clip.segment_count; s++) {
        const uint8_t* seg = c.clip.bytes + c.clip.segments[s];
        const unsigned x = seg[8] & 31u, y = seg[9] & 31u, z = seg[10] & 31u;
        SW_CHECK_EQ_INT(z, 0);
        SW_CHECK(x > 0 && y < x);
        SW_CHECK_EQ_INT(seg[0] | seg[1] << 8, x + y + z); /* bits of a raw row */
    }
    /* and the error the search aims at: one joint, so the translation error is the vertex error */
    SW_CHECK(c.report.worst_error <= 2e-3f);
    release(&c);
}

/* A rotation that turns all the way round keeps all four components (each
   nears zero somewhere in the clip), but over a segment one stays away
   from zero: the compressor holds it constant there (every sample scaled
   so that it is; the decoder normalises), so it stores no bits, and the
   pose is within the tolerance. θ from 0 to 3π over 100 keys, about an
   axis that wobbles (with a fixed axis, holding one of x, y, z would
   hold all three). */
static void test_turning_rotation_holds_one_component(void) {
    enum { N = 100 };
    float times[N], values[N * 4];
    for (int k = 0; k < N; k++) {
        times[k] = (float)k / 30.0f;
        sw_quat q = axis_angle(1, 0.6 + 0.4 * sin(0.1 * k), 0.8 * cos(0.07 * k), 3.0 * 3.14159265358979 * k / (N - 1));
        memcpy(values + 4 * k, &q, sizeof q);
    }
    sw_track track = {.target = 0, .path = SW_PATH_ROTATION, .component_count = 4, .key_count = N,
                      .times = times, .values = values};
    sw_clip clip = {.name = "turn", .track_count = 1, .tracks = &track};
    SW_CHECK(sw_clip_finish(&clip, NULL) == SW_OK);
    const int32_t parents[2] = {-1, 0};
    sw_transform rest[2] = {sw_transform_identity(), sw_transform_identity()};
    rest[1].translation = sw_vec3_make(0.0f, 0.5f, 0.0f); /* a bone: the rotation's error moves its end */
    compressed c;
    SW_CHECK(compress_clip(&clip, rest, parents, 2, 30.0f, 1e-4f, 0.03f, &c));
    SW_CHECK_EQ_INT(c.clip.component_count, 4); /* no component dropped over the whole clip */
    for (uint32_t s = 0; s < c.clip.segment_count; s++) {
        const uint8_t* seg = c.clip.bytes + c.clip.segments[s];
        int held = 0, stored = 0;
        for (int i = 0; i < 4; i++) {
            const unsigned bits = seg[8 + i] & 31u, extent = seg[8 + 4 + 2 * i + 1];
            held += bits == 0 && extent == 0;
            stored += bits > 0;
        }
        SW_CHECK_EQ_INT(held, 1);
        SW_CHECK_EQ_INT(stored, 3);
    }
    double worst = 0.0;
    for (size_t k = 0; k < c.samples; k++) {
        sw_transform pose[2];
        sample_compressed(&c.clip, rest, 2, sw_resample_time(clip.start, clip.duration, k, c.samples), pose);
        double e = vertex_error(parents, 2, pose, c.raw + k * 2, 0.03);
        worst = e > worst ? e : worst;
    }
    SW_CHECK(worst <= 1e-4);
    release(&c);
}

/* Any time, in any order, looping: the raw sampler's pose within the
   tolerance (plus what nlerp and slerp differ by between samples). */
static void test_seek_and_loop_match_raw(void) {
    hand_clip h;
    make_hand_clip(&h);
    compressed c;
    SW_CHECK(compress_clip(&h.clip, h.rest, chain_parents, CHAIN, 30.0f, 1e-4f, 0.03f, &c));
    SW_CHECK_NEAR(c.clip.duration, h.clip.duration, 0.0f);
    uint32_t seed = 12345u;
    double worst = 0.0;
    for (int i = 0; i < 400; i++) {
        seed = seed * 1664525u + 1013904223u;
        float t = ((float)(seed >> 8) / 16777216.0f) * 3.0f * h.clip.duration - h.clip.duration; /* before, in, after */
        if (i % 7 == 0) t = sw_resample_time(h.clip.start, h.clip.duration, (size_t)(seed % KEYS), KEYS);
        const bool loop = i % 2 == 0;
        sw_transform raw[CHAIN], got[CHAIN];
        memcpy(raw, h.rest, sizeof raw);
        sw_sample_job job = {.clip = &h.clip, .time = sw_clip_time(&h.clip, t, loop), .target_count = CHAIN,
                             .out_local = raw};
        sw_sample_job_run(&job);
        sample_compressed(&c.clip, h.rest, CHAIN, sw_compressed_clip_time(&c.clip, t, loop), got);
        SW_CHECK(sw_compressed_clip_time(&c.clip, t, loop) == sw_clip_time(&h.clip, t, loop));
        double e = vertex_error(chain_parents, CHAIN, got, raw, 0.03);
        if (e > worst) worst = e;
    }
    fprintf(stderr, "  seek/loop: worst %.3g m against the raw sampler (tolerance 1e-4)\n", worst);
    SW_CHECK(worst <= 1.05e-4);
    release(&c);
}

/* A cache gives the stateless pose bit for bit, playing forward at 60
   frames a second (across blocks, segments and the loop), backward, and
   jumping about; a cache too small is refused. */
static void test_cache_matches_stateless(void) {
    hand_clip h;
    make_hand_clip(&h);
    compressed c;
    SW_CHECK(compress_clip(&h.clip, h.rest, chain_parents, CHAIN, 30.0f, 1e-4f, 0.03f, &c));
    const size_t capacity = sw_compressed_cache_capacity(&c.clip);
    SW_CHECK(capacity >= 16u * c.clip.component_count);
    float* values = malloc(capacity * sizeof *values);
    sw_compressed_cache cache = {.values = values, .capacity = capacity};
    sw_transform got[CHAIN], want[CHAIN];
    sw_compressed_sample_job job = {.clip = &c.clip, .target_count = CHAIN, .out_local = got, .cache = &cache};
    SW_CHECK(sw_compressed_sample_job_validate(&job, NULL) == SW_OK);
    uint32_t seed = 99u;
    int differ = 0, refills = 0;
    const uint8_t* held = NULL;
    for (int i = 0; i < 900; i++) {
        float t = i < 400 ? (float)i / 60.0f : i < 700 ? (float)(700 - i) / 60.0f : 0.0f;
        if (i >= 700) seed = seed * 1664525u + 1013904223u, t = (float)(seed >> 8) / 16777216.0f * 1.5f * c.clip.duration;
        t = sw_compressed_clip_time(&c.clip, t, true);
        memcpy(got, h.rest, sizeof got);
        job.time = t;
        sw_compressed_sample_job_run(&job);
        sample_compressed(&c.clip, h.rest, CHAIN, t, want);
        differ += memcmp(got, want, sizeof got) != 0;
        refills += cache.block != held, held = cache.block;
    }
    SW_CHECK_EQ_INT(differ, 0);
    /* 100 samples make 4 segments of 2, 2, 2 and 1 blocks: forward, back and a few jumps refill it */
    fprintf(stderr, "  cache: %d refills in 900 poses\n", refills);
    SW_CHECK(refills >= 7 && refills < 300);
    cache.capacity = capacity - 1;
    SW_CHECK(sw_compressed_sample_job_validate(&job, NULL) == SW_ERR_INVALID_ARGUMENT);
    free(values);
    release(&c);
}

/* More components than one group holds (256): 87 joints under a root,
   each turning on its own, 267 components in two groups whose lanes are
   decoded separately. Every sample within the tolerance, by the
   independent evaluation; the cache gives the same poses. */
static void test_many_components(void) {
    enum { J = 88, N = 20 };
    static float times[N], rotations[J][N * 4], root[N * 3];
    static sw_track tracks[J + 1];
    static int32_t parents[J];
    static sw_transform rest[J];
    for (int k = 0; k < N; k++) {
        times[k] = (float)k / 30.0f;
        root[3 * k] = 0.02f * (float)k, root[3 * k + 1] = 1.0f, root[3 * k + 2] = 0.0f;
        for (int j = 0; j < J; j++) {
            sw_quat q = axis_angle(1.0 + 0.1 * j, 0.3 * sin(0.1 * j), 0.5, 0.8 * sin(0.2 * k + 0.37 * j));
            memcpy(rotations[j] + 4 * k, &q, sizeof q);
        }
    }
    tracks[0] = (sw_track){.target = 0, .path = SW_PATH_TRANSLATION, .component_count = 3, .key_count = N,
                           .times = times, .values = root};
    for (int j = 0; j < J; j++) {
        tracks[j + 1] = (sw_track){.target = (uint32_t)j, .path = SW_PATH_ROTATION, .component_count = 4,
                                   .key_count = N, .times = times, .values = rotations[j]};
        parents[j] = j == 0 ? -1 : 0;
        rest[j] = sw_transform_identity();
        if (j) rest[j].translation = sw_vec3_make(0.1f * cosf((float)j), 0.2f, 0.1f * sinf((float)j));
    }
    sw_clip clip = {.name = "many", .track_count = J + 1, .tracks = tracks};
    SW_CHECK(sw_clip_finish(&clip, NULL) == SW_OK);
    compressed c;
    SW_CHECK(compress_clip(&clip, rest, parents, J, 30.0f, 1e-3f, 0.03f, &c));
    SW_CHECK(c.clip.component_count > 256);
    const size_t capacity = sw_compressed_cache_capacity(&c.clip);
    float* values = malloc(capacity * sizeof *values);
    sw_compressed_cache cache = {.values = values, .capacity = capacity};
    static sw_transform got[J], cached[J];
    double worst = 0.0;
    int differ = 0;
    for (size_t k = 0; k < c.samples; k++) {
        const float t = sw_resample_time(clip.start, clip.duration, k, c.samples);
        sample_compressed(&c.clip, rest, J, t, got);
        worst = fmax(worst, vertex_error(parents, J, got, c.raw + k * J, 0.03));
        memcpy(cached, rest, sizeof cached);
        sw_compressed_sample_job job = {.clip = &c.clip, .time = t, .target_count = J, .out_local = cached,
                                        .cache = &cache};
        sw_compressed_sample_job_run(&job);
        differ += memcmp(got, cached, sizeof got) != 0;
    }
    fprintf(stderr, "  many: %u components, %zu -> %zu bytes, worst %.3g (tolerance 1e-3)\n", c.clip.component_count,
            c.report.raw_bytes, c.report.compressed_bytes, worst);
    SW_CHECK(worst <= 1e-3);
    SW_CHECK_EQ_INT(differ, 0);
    free(values);
    release(&c);
}

/* The bytes are the clip: the view of the compressor's bytes and of a
   copy read back sample the same, and one constant is a single pose. */
static void test_round_trip_bytes(void) {
    hand_clip h;
    make_hand_clip(&h);
    compressed c;
    SW_CHECK(compress_clip(&h.clip, h.rest, chain_parents, CHAIN, 30.0f, 1e-4f, 0.03f, &c));
    uint8_t* copy = malloc(c.bytes.size);
    memcpy(copy, c.bytes.bytes, c.bytes.size);
    sw_compressed_clip view;
    SW_CHECK(sw_swa_read(copy, c.bytes.size, "copy.swa", &view, NULL) == SW_OK);
    SW_CHECK(view.sample_count == c.clip.sample_count && view.worst_error == c.report.worst_error);
    for (int k = 0; k < 50; k++) {
        sw_transform a[CHAIN], b[CHAIN];
        sample_compressed(&c.clip, h.rest, CHAIN, 0.07f * (float)k, a);
        sample_compressed(&view, h.rest, CHAIN, 0.07f * (float)k, b);
        SW_CHECK(memcmp(a, b, sizeof a) == 0);
    }
    free(copy);
    release(&c);
}

/* Truncated and corrupted bytes: refused with one line naming the file,
   or, where a change happens to leave a valid clip, sampled inside the
   bytes (asan would see a read outside). */
static void test_hostile_bytes(void) {
    hand_clip h;
    make_hand_clip(&h);
    compressed c;
    SW_CHECK(compress_clip(&h.clip, h.rest, chain_parents, CHAIN, 30.0f, 1e-4f, 0.03f, &c));
    const size_t size = c.bytes.size;
    uint8_t* bad = malloc(size + 16);
    sw_diag diag;
    sw_compressed_clip view;
    size_t refused = 0, accepted = 0;
    for (size_t cut = 0; cut < size; cut++) {
        uint8_t* exact = malloc(cut ? cut : 1);
        memcpy(exact, c.bytes.bytes, cut);
        SW_CHECK(sw_swa_read(exact, cut, "cut.swa", &view, &diag) != SW_OK);
        SW_CHECK(strncmp(diag.message, "cut.swa: ", 9) == 0 && !strchr(diag.message, '\n'));
        free(exact);
    }
    static const uint8_t patterns[] = {0xff, 0x80, 0x01, 0x7f, 0x00};
    for (size_t at = 0; at < size; at++) {
        for (size_t p = 0; p < sizeof patterns; p++) {
            memcpy(bad, c.bytes.bytes, size);
            bad[at] ^= patterns[p] ? patterns[p] : bad[at];
            if (sw_swa_read(bad, size, "bad.swa", &view, &diag) != SW_OK) {
                refused++;
                SW_CHECK(strncmp(diag.message, "bad.swa: ", 9) == 0 && !strchr(diag.message, '\n'));
                continue;
            }
            accepted++;
            sw_transform pose[CHAIN];
            sw_compressed_sample_job job = {.clip = &view, .time = 1.3f, .target_count = CHAIN, .out_local = pose};
            if (sw_compressed_sample_job_validate(&job, NULL) == SW_OK) sw_compressed_sample_job_run(&job);
        }
    }
    fprintf(stderr, "  hostile: %zu changed files refused, %zu still valid clips sampled\n", refused, accepted);
    SW_CHECK(refused > 0);
    memcpy(bad, "GLTF", 4);
    SW_CHECK(sw_swa_read(bad, size, "x.swa", &view, &diag) == SW_ERR_INVALID_DATA);
    SW_CHECK(strstr(diag.message, "x.swa: not a compressed clip") == diag.message);
    free(bad);
    release(&c);
}

int main(void) {
    SW_RUN(test_strips_constant_and_default_tracks);
    SW_RUN(test_quantisation_bound);
    SW_RUN(test_turning_rotation_holds_one_component);
    SW_RUN(test_seek_and_loop_match_raw);
    SW_RUN(test_cache_matches_stateless);
    SW_RUN(test_many_components);
    SW_RUN(test_round_trip_bytes);
    SW_RUN(test_hostile_bytes);
    return sw_test_finish();
}
