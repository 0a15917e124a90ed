/* Clip validation and keyframe sampling: STEP, LINEAR (slerp for
   rotations) and CUBICSPLINE, glTF 2.0 appendix C (see sinew/anim.h). */
#include "sinew/anim.h"

#include <string.h>

static const char* sw__path_name(sw_track_path path) {
    switch (path) {
    case SW_PATH_TRANSLATION: return "translation";
    case SW_PATH_ROTATION: return "rotation";
    case SW_PATH_SCALE: return "scale";
    case SW_PATH_WEIGHTS: return "weights";
    }
    return "unknown";
}

static bool sw__is_cubic(const sw_track* track) { return track->interpolation == SW_INTERP_CUBICSPLINE; }

/* The checks that keep sampling inside the track's arrays; the job
   validation repeats only these, so it stays O(tracks). */
static sw_result sw__track_shape(const sw_track* track, sw_diag* diag) {
    if (!track) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "track is NULL");
    if ((unsigned)track->path > (unsigned)SW_PATH_WEIGHTS)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "track path %d is unknown", (int)track->path);
    if ((unsigned)track->interpolation > (unsigned)SW_INTERP_CUBICSPLINE)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "track interpolation %d is unknown",
                           (int)track->interpolation);
    uint32_t expected = track->path == SW_PATH_ROTATION ? 4u : 3u;
    if (track->path == SW_PATH_WEIGHTS ? track->component_count == 0 : track->component_count != expected)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "%s track has %u components (needs %s)",
                           sw__path_name(track->path), track->component_count,
                           track->path == SW_PATH_WEIGHTS ? "at least 1" : expected == 4 ? "4" : "3");
    if (track->key_count == 0) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "track has no keys");
    if (!track->times || !track->values)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "track has no times or no values");
    return SW_OK;
}

sw_result sw_track_validate(const sw_track* track, sw_diag* diag) {
    sw_result res = sw__track_shape(track, diag);
    if (res != SW_OK) return res;
    size_t floats_per_key = (size_t)track->component_count * (sw__is_cubic(track) ? 3u : 1u);
    size_t value_count;
    if (!sw_mul_size(track->key_count, floats_per_key, &value_count) ||
        !sw_mul_size(value_count, sizeof(float), &value_count))
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "track of %zu keys overflows the address space",
                           track->key_count);
    for (size_t k = 0; k < track->key_count; k++) {
        float t = track->times[k];
        if (!isfinite(t))
            return sw_diag_set(diag, SW_ERR_INVALID_DATA, (int64_t)k, "key %zu time is not finite", k);
        if (k > 0 && !(t > track->times[k - 1]))
            return sw_diag_set(diag, SW_ERR_INVALID_DATA, (int64_t)k,
                               "key %zu time %g is not after key %zu (%g); times must increase", k, (double)t, k - 1,
                               (double)track->times[k - 1]);
        const float* v = track->values + k * floats_per_key;
        for (size_t i = 0; i < floats_per_key; i++)
            if (!isfinite(v[i]))
                return sw_diag_set(diag, SW_ERR_INVALID_DATA, (int64_t)k, "key %zu value %zu is not finite", k, i);
    }
    return SW_OK;
}

sw_result sw_clip_finish(sw_clip* clip, sw_diag* diag) {
    if (!clip) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "clip is NULL");
    clip->start = 0.0f;
    clip->duration = 0.0f;
    if (clip->track_count > 0 && !clip->tracks)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "clip has %zu tracks but no track array",
                           clip->track_count);
    float start = INFINITY, end = -INFINITY;
    for (size_t i = 0; i < clip->track_count; i++) {
        const sw_track* track = &clip->tracks[i];
        sw_diag inner;
        sw_result res = sw_track_validate(track, &inner);
        if (res != SW_OK)
            return sw_diag_set(diag, res, (int64_t)i, "track %zu (%s of target %u): %s", i,
                               sw__path_name(track->path), track->target, inner.message);
        if (track->times[0] < start) start = track->times[0];
        if (track->times[track->key_count - 1] > end) end = track->times[track->key_count - 1];
    }
    if (clip->track_count > 0) {
        clip->start = start;
        clip->duration = end;
    }
    return SW_OK;
}

/* k in [0, n−2] with times[k] ≤ t < times[k+1], for n ≥ 2 and
   times[0] < t < times[n−1]. The hint (may be NULL) is only a hint:
   clamped, then its interval and the next one are tried (playback moves
   forward a little each frame) before a binary search. */
static size_t sw__find_interval(const float* times, size_t n, float t, const uint32_t* hint) {
    if (hint) {
        size_t k = *hint < n - 2 ? (size_t)*hint : n - 2;
        if (times[k] <= t) {
            if (!(t < times[k + 1]) && k + 2 < n) k++; /* the hinted interval, else the next */
            if (t < times[k + 1]) return k;
        }
    }
    size_t lo = 0, hi = n - 1; /* times[lo] ≤ t < times[hi] */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (times[mid] <= t)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* Where a time falls in a track's keys. It depends only on the times, so
   tracks that share a times array (glTF samplers sharing an input accessor:
   every track of most exported clips) share one lookup. */
typedef struct sw__key_pos {
    size_t key;      /* the key to copy, or the first of the two to interpolate */
    float s;         /* interpolation weight of key + 1, in [0, 1] */
    bool at_key;     /* before the first key, past the last, or exactly on a key: copy `key` */
    uint32_t cursor; /* what the track's cursor becomes */
} sw__key_pos;

static sw__key_pos sw__locate(const float* times, size_t n, float time, const uint32_t* hint) {
    sw__key_pos pos;
    /* Outside the keys the track holds its end values (glTF appendix C);
       a NaN time lands on the first key rather than reading anywhere. */
    if (n == 1 || !(time > times[0])) {
        pos.key = 0, pos.s = 0.0f, pos.at_key = true, pos.cursor = 0;
    } else if (time >= times[n - 1]) {
        pos.key = n - 1, pos.s = 0.0f, pos.at_key = true, pos.cursor = (uint32_t)(n - 2);
    } else {
        size_t k = sw__find_interval(times, n, time, hint);
        pos.key = k;
        pos.cursor = (uint32_t)k; /* also replaces an out-of-range hint */
        pos.at_key = time == times[k];
        /* In double, d neither overflows nor flushes to zero for finite
           increasing floats; s lies in [0, 1]. */
        const double d = (double)times[k + 1] - (double)times[k];
        pos.s = (float)(((double)time - (double)times[k]) / d);
    }
    return pos;
}

static sw_quat sw__load_quat(const float* v) { return (sw_quat){v[0], v[1], v[2], v[3]}; }
static void sw__store_quat(float* out, sw_quat q) {
    out[0] = q.x;
    out[1] = q.y;
    out[2] = q.z;
    out[3] = q.w;
}

/* A track's value at a located position, every interpolation and path. */
static void sw__evaluate(const sw_track* track, const sw__key_pos* pos, float* out) {
    const size_t cc = track->component_count;
    const bool cubic = sw__is_cubic(track);
    const size_t key_stride = cubic ? 3 * cc : cc; /* floats per key */
    const float* values = track->values + (cubic ? cc : 0); /* the value of a triplet sits in the middle */
    const size_t key = pos->key;

    /* STEP, the ends and exact key times copy the key, so no interpolation
       round-off (or renormalisation) changes a keyed value. */
    if (pos->at_key || track->interpolation == SW_INTERP_STEP) {
        memcpy(out, values + key * key_stride, cc * sizeof(float));
        return;
    }
    const float s = pos->s;
    const float* a = values + key * key_stride;
    const float* b = a + key_stride;

    if (!cubic) {
        if (track->path == SW_PATH_ROTATION) {
            SW_ASSERT(cc == 4);
            sw__store_quat(out, sw_quat_slerp_fast(sw__load_quat(a), sw__load_quat(b), s));
        } else {
            for (size_t c = 0; c < cc; c++) out[c] = a[c] + (b[c] - a[c]) * s;
        }
        return;
    }

    const float s2 = s * s, s3 = s2 * s, df = (float)((double)track->times[key + 1] - (double)track->times[key]);
    const float h00 = 2.0f * s3 - 3.0f * s2 + 1.0f;
    const float h10 = (s3 - 2.0f * s2 + s) * df;
    const float h01 = -2.0f * s3 + 3.0f * s2;
    const float h11 = (s3 - s2) * df;
    const float* out_tangent = a + cc;  /* out(k) follows v(k) */
    const float* in_tangent = b - cc;   /* in(k+1) precedes v(k+1) */
    for (size_t c = 0; c < cc; c++)
        out[c] = h00 * a[c] + h10 * out_tangent[c] + h01 * b[c] + h11 * in_tangent[c];
    if (track->path == SW_PATH_ROTATION) {
        SW_ASSERT(cc == 4);
        sw__store_quat(out, sw_quat_normalize(sw__load_quat(out)));
    }
}

void sw_track_sample(const sw_track* track, float time, uint32_t* cursor, float* out) {
    SW_ASSERT(track && out && track->times && track->values && track->key_count >= 1);
    sw__key_pos pos = sw__locate(track->times, track->key_count, time, cursor);
    if (cursor) *cursor = pos.cursor;
    sw__evaluate(track, &pos, out);
}

float sw_clip_time(const sw_clip* clip, float t, bool loop) {
    SW_ASSERT(clip);
    if (!loop) return t;
    float duration = clip->duration;
    if (!(duration > 0.0f) || !isfinite(duration) || !isfinite(t)) return 0.0f;
    float r = fmodf(t, duration); /* exact, with the sign of t */
    if (r < 0.0f) r += duration;
    /* −ε + duration can round up to duration, which is time 0 again. */
    return r < duration ? r : 0.0f;
}

float sw_clip_time_from_start(const sw_clip* clip, float t, bool loop) {
    SW_ASSERT(clip);
    if (!loop) return clip->start + t;
    sw_clip span = *clip;
    span.duration = clip->duration - clip->start;
    return clip->start + sw_clip_time(&span, t, true);
}

sw_result sw_sample_job_validate(const sw_sample_job* job, sw_diag* diag) {
    if (!job || !job->clip) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "sample job has no clip");
    const sw_clip* clip = job->clip;
    if (clip->track_count > 0 && !clip->tracks)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "clip has %zu tracks but no track array",
                           clip->track_count);
    for (size_t i = 0; i < clip->track_count; i++) {
        const sw_track* track = &clip->tracks[i];
        sw_diag inner;
        sw_result res = sw__track_shape(track, &inner);
        if (res != SW_OK) return sw_diag_set(diag, res, (int64_t)i, "track %zu: %s", i, inner.message);
        if (track->target >= job->target_count)
            return sw_diag_set(diag, SW_ERR_INDEX_OUT_OF_RANGE, (int64_t)i,
                               "track %zu targets %u, outside the %zu targets", i, track->target, job->target_count);
        if (track->path != SW_PATH_WEIGHTS) {
            if (!job->out_local)
                return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, (int64_t)i,
                                   "track %zu drives %s but the job has no out_local", i,
                                   sw__path_name(track->path));
            continue;
        }
        if (!job->weight_offsets || !job->out_weights)
            return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, (int64_t)i,
                               "track %zu drives weights but the job has no weight_offsets or out_weights", i);
        uint64_t end = (uint64_t)job->weight_offsets[track->target] + track->component_count;
        if (end > job->weight_count)
            return sw_diag_set(diag, SW_ERR_BUFFER_TOO_SMALL, (int64_t)i,
                               "track %zu writes weights up to %llu, past weight_count %zu", i,
                               (unsigned long long)end, job->weight_count);
    }
    return SW_OK;
}

/* ---- the sample job's hot loop ------------------------------------------

   Per track: one lookup per shared times array (the cursor hint of the
   group's first track), then translations and scales lerped in place and
   LINEAR rotations gathered, SW__BATCH at a time, for a SIMD
   sw_quat_slerp_fast. Everything else (STEP, CUBICSPLINE, keyed values,
   weights) goes through sw__evaluate, as sw_track_sample does. The results
   equal sw_track_sample's to float round-off (bit for bit where the SIMD
   slerp and the scalar one compile to the same IEEE operations, as on
   x86-64). */

#if !defined(SW_NO_SIMD) && defined(__SSE2__)
#define SW__SAMPLE_SSE2 1
#include <emmintrin.h>
#else
#define SW__SAMPLE_SSE2 0
#endif

/* Rotations per batch: four groups of four lanes whose instructions are
   interleaved, because one slerp is a long dependency chain (two square
   roots and the series) and a single group leaves the core waiting. */
#define SW__GROUPS 4
#define SW__BATCH (4 * SW__GROUPS)

/* Entry i slerps from key a[i] to the next key, a[i] + 4 (LINEAR
   rotations only), by s[i]. */
typedef struct sw__rotation_batch {
    int count;
    const float* a[SW__BATCH];
    float s[SW__BATCH];
    sw_quat* out[SW__BATCH];
} sw__rotation_batch;

#if SW__SAMPLE_SSE2
/* sw__slerp_weight of src/math/quat.c on four lanes: the same constants and
   operation order, so each lane rounds as the scalar function does. */
#define SW__TERM(tau2, d, i2, u, r)                                                                                \
    _mm_add_ps(one, _mm_mul_ps(_mm_mul_ps(d, _mm_mul_ps(_mm_sub_ps(tau2, _mm_set1_ps(i2)), _mm_set1_ps(u))), r))
static inline __m128 sw__slerp_weight4(__m128 tau, __m128 d) {
    const __m128 one = _mm_set1_ps(1.0f);
    const __m128 tau2 = _mm_mul_ps(tau, tau);
    __m128 r = _mm_add_ps(one, _mm_mul_ps(d, _mm_mul_ps(_mm_sub_ps(tau2, _mm_set1_ps(25.0f)),
                                                        _mm_set1_ps(1.14434643f / 55.0f))));
    r = SW__TERM(tau2, d, 16.0f, 1.0f / 36.0f, r);
    r = SW__TERM(tau2, d, 9.0f, 1.0f / 21.0f, r);
    r = SW__TERM(tau2, d, 4.0f, 1.0f / 10.0f, r);
    r = SW__TERM(tau2, d, 1.0f, 1.0f / 3.0f, r);
    return _mm_mul_ps(tau, r);
}
#undef SW__TERM

/* sw_quat_slerp_fast on `groups` groups of four batch entries from `first`
   (a constant at each call, so the loops unroll): each group's quaternions
   loaded as rows and transposed to lanes, every step done for all groups
   before the next, so their chains run side by side. */
static inline void sw__slerp_groups(const sw__rotation_batch* batch, int first, const int groups) {
    const __m128 zero = _mm_setzero_ps(), half = _mm_set1_ps(0.5f), one = _mm_set1_ps(1.0f),
                 two = _mm_set1_ps(2.0f), sign = _mm_set1_ps(-0.0f);
    __m128 ax[SW__GROUPS], ay[SW__GROUPS], az[SW__GROUPS], aw[SW__GROUPS];
    __m128 bx[SW__GROUPS], by[SW__GROUPS], bz[SW__GROUPS], bw[SW__GROUPS];
    __m128 y[SW__GROUPS], wa[SW__GROUPS], wb[SW__GROUPS];
    int g;
    SW_ASSERT(groups <= SW__GROUPS && first + 4 * groups <= SW__BATCH);
    for (g = 0; g < groups; g++) {
        const float* const* pa = batch->a + first + 4 * g;
        ax[g] = _mm_loadu_ps(pa[0]), ay[g] = _mm_loadu_ps(pa[1]), az[g] = _mm_loadu_ps(pa[2]),
        aw[g] = _mm_loadu_ps(pa[3]);
        bx[g] = _mm_loadu_ps(pa[0] + 4), by[g] = _mm_loadu_ps(pa[1] + 4), bz[g] = _mm_loadu_ps(pa[2] + 4),
        bw[g] = _mm_loadu_ps(pa[3] + 4);
        _MM_TRANSPOSE4_PS(ax[g], ay[g], az[g], aw[g]);
        _MM_TRANSPOSE4_PS(bx[g], by[g], bz[g], bw[g]);
    }
    for (g = 0; g < groups; g++) {
        __m128 dot = _mm_add_ps(
            _mm_add_ps(_mm_add_ps(_mm_mul_ps(ax[g], bx[g]), _mm_mul_ps(ay[g], by[g])), _mm_mul_ps(az[g], bz[g])),
            _mm_mul_ps(aw[g], bw[g]));
        /* The shorter arc: negate b (and the dot) where a·b < 0. */
        const __m128 flip = _mm_and_ps(_mm_cmplt_ps(dot, zero), sign);
        bx[g] = _mm_xor_ps(bx[g], flip), by[g] = _mm_xor_ps(by[g], flip);
        bz[g] = _mm_xor_ps(bz[g], flip), bw[g] = _mm_xor_ps(bw[g], flip);
        dot = _mm_xor_ps(dot, flip);
        y[g] = _mm_sqrt_ps(_mm_add_ps(half, _mm_mul_ps(half, dot)));
    }
    for (g = 0; g < groups; g++) {
        const __m128 d = _mm_sub_ps(y[g], one);
        const __m128 k = _mm_div_ps(half, y[g]);
        const __m128 t = _mm_loadu_ps(batch->s + first + 4 * g);
        wa[g] = _mm_mul_ps(sw__slerp_weight4(_mm_sub_ps(two, _mm_mul_ps(two, t)), d), k);
        wb[g] = _mm_mul_ps(sw__slerp_weight4(_mm_mul_ps(two, t), d), k);
    }
    for (g = 0; g < groups; g++) {
        __m128 qx = _mm_add_ps(_mm_mul_ps(wa[g], ax[g]), _mm_mul_ps(wb[g], bx[g]));
        __m128 qy = _mm_add_ps(_mm_mul_ps(wa[g], ay[g]), _mm_mul_ps(wb[g], by[g]));
        __m128 qz = _mm_add_ps(_mm_mul_ps(wa[g], az[g]), _mm_mul_ps(wb[g], bz[g]));
        __m128 qw = _mm_add_ps(_mm_mul_ps(wa[g], aw[g]), _mm_mul_ps(wb[g], bw[g]));
        const __m128 n2 = _mm_add_ps(
            _mm_add_ps(_mm_add_ps(_mm_mul_ps(qx, qx), _mm_mul_ps(qy, qy)), _mm_mul_ps(qz, qz)), _mm_mul_ps(qw, qw));
        const __m128 inv = _mm_sub_ps(_mm_set1_ps(1.5f), _mm_mul_ps(half, n2));
        qx = _mm_mul_ps(qx, inv), qy = _mm_mul_ps(qy, inv), qz = _mm_mul_ps(qz, inv), qw = _mm_mul_ps(qw, inv);
        _MM_TRANSPOSE4_PS(qx, qy, qz, qw);
        /* In lane order, so a later track on the same target wins, as in a loop. */
        sw_quat* const* out = batch->out + first + 4 * g;
        _mm_storeu_ps(&out[0]->x, qx);
        _mm_storeu_ps(&out[1]->x, qy);
        _mm_storeu_ps(&out[2]->x, qz);
        _mm_storeu_ps(&out[3]->x, qw);
    }
}
#endif

/* A full batch with AVX (eight lanes, three-operand forms), where the CPU
   has it: the same operations in the same order as above (no FMA), so the
   same bits, in about a third of the instructions. */
#if SW__SAMPLE_SSE2 && defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define SW__SAMPLE_AVX 1
#include <immintrin.h>
#define SW__AVX_FN static inline __attribute__((target("avx"), always_inline))

#define SW__TERM8(tau2, d, i2, u, r)                                                                      \
    _mm256_add_ps(one, _mm256_mul_ps(_mm256_mul_ps(d, _mm256_mul_ps(_mm256_sub_ps(tau2, _mm256_set1_ps(i2)), \
                                                                    _mm256_set1_ps(u))),                  \
                                     r))
SW__AVX_FN __m256 sw__slerp_weight8(__m256 tau, __m256 d) {
    const __m256 one = _mm256_set1_ps(1.0f);
    const __m256 tau2 = _mm256_mul_ps(tau, tau);
    __m256 r = _mm256_add_ps(one, _mm256_mul_ps(d, _mm256_mul_ps(_mm256_sub_ps(tau2, _mm256_set1_ps(25.0f)),
                                                                 _mm256_set1_ps(1.14434643f / 55.0f))));
    r = SW__TERM8(tau2, d, 16.0f, 1.0f / 36.0f, r);
    r = SW__TERM8(tau2, d, 9.0f, 1.0f / 21.0f, r);
    r = SW__TERM8(tau2, d, 4.0f, 1.0f / 10.0f, r);
    r = SW__TERM8(tau2, d, 1.0f, 1.0f / 3.0f, r);
    return _mm256_mul_ps(tau, r);
}
#undef SW__TERM8

/* _MM_TRANSPOSE4_PS in each 128-bit half. */
SW__AVX_FN void sw__transpose8(__m256* x, __m256* y, __m256* z, __m256* w) {
    const __m256 t0 = _mm256_unpacklo_ps(*x, *y), t1 = _mm256_unpackhi_ps(*x, *y);
    const __m256 t2 = _mm256_unpacklo_ps(*z, *w), t3 = _mm256_unpackhi_ps(*z, *w);
    *x = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0));
    *y = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2));
    *z = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0));
    *w = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2));
}

/* Quaternions at p[0] and p[4] (+ offset) as the two halves. */
SW__AVX_FN __m256 sw__load_pair(const float* const* p, int offset) {
    return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(p[0] + offset)), _mm_loadu_ps(p[4] + offset), 1);
}

/* A full batch as two groups of eight: entries 8g..8g+3 in the low
   halves, 8g+4..8g+7 in the high halves; every step for both groups
   before the next. */
__attribute__((target("avx"), noinline)) static void sw__slerp_batch_avx(const sw__rotation_batch* batch) {
    enum { G = SW__BATCH / 8 };
    const __m256 zero = _mm256_setzero_ps(), half = _mm256_set1_ps(0.5f), one = _mm256_set1_ps(1.0f),
                 two = _mm256_set1_ps(2.0f), sign = _mm256_set1_ps(-0.0f);
    __m256 ax[G], ay[G], az[G], aw[G], bx[G], by[G], bz[G], bw[G], y[G], wa[G], wb[G];
    for (int g = 0; g < G; g++) {
        const float* const* pa = batch->a + 8 * g;
        ax[g] = sw__load_pair(pa, 0), ay[g] = sw__load_pair(pa + 1, 0), az[g] = sw__load_pair(pa + 2, 0),
        aw[g] = sw__load_pair(pa + 3, 0);
        bx[g] = sw__load_pair(pa, 4), by[g] = sw__load_pair(pa + 1, 4), bz[g] = sw__load_pair(pa + 2, 4),
        bw[g] = sw__load_pair(pa + 3, 4);
        sw__transpose8(&ax[g], &ay[g], &az[g], &aw[g]);
        sw__transpose8(&bx[g], &by[g], &bz[g], &bw[g]);
    }
    for (int g = 0; g < G; g++) {
        __m256 dot = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(ax[g], bx[g]), _mm256_mul_ps(ay[g], by[g])),
                                                 _mm256_mul_ps(az[g], bz[g])),
                                   _mm256_mul_ps(aw[g], bw[g]));
        const __m256 flip = _mm256_and_ps(_mm256_cmp_ps(dot, zero, _CMP_LT_OS), sign);
        bx[g] = _mm256_xor_ps(bx[g], flip), by[g] = _mm256_xor_ps(by[g], flip);
        bz[g] = _mm256_xor_ps(bz[g], flip), bw[g] = _mm256_xor_ps(bw[g], flip);
        dot = _mm256_xor_ps(dot, flip);
        y[g] = _mm256_sqrt_ps(_mm256_add_ps(half, _mm256_mul_ps(half, dot)));
    }
    for (int g = 0; g < G; g++) {
        const __m256 d = _mm256_sub_ps(y[g], one);
        const __m256 k = _mm256_div_ps(half, y[g]);
        const __m256 t = _mm256_loadu_ps(batch->s + 8 * g);
        wa[g] = _mm256_mul_ps(sw__slerp_weight8(_mm256_sub_ps(two, _mm256_mul_ps(two, t)), d), k);
        wb[g] = _mm256_mul_ps(sw__slerp_weight8(_mm256_mul_ps(two, t), d), k);
    }
    for (int g = 0; g < G; g++) {
        __m256 qx = _mm256_add_ps(_mm256_mul_ps(wa[g], ax[g]), _mm256_mul_ps(wb[g], bx[g]));
        __m256 qy = _mm256_add_ps(_mm256_mul_ps(wa[g], ay[g]), _mm256_mul_ps(wb[g], by[g]));
        __m256 qz = _mm256_add_ps(_mm256_mul_ps(wa[g], az[g]), _mm256_mul_ps(wb[g], bz[g]));
        __m256 qw = _mm256_add_ps(_mm256_mul_ps(wa[g], aw[g]), _mm256_mul_ps(wb[g], bw[g]));
        const __m256 n2 = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(qx, qx), _mm256_mul_ps(qy, qy)),
                                                      _mm256_mul_ps(qz, qz)),
                                        _mm256_mul_ps(qw, qw));
        const __m256 inv = _mm256_sub_ps(_mm256_set1_ps(1.5f), _mm256_mul_ps(half, n2));
        qx = _mm256_mul_ps(qx, inv), qy = _mm256_mul_ps(qy, inv), qz = _mm256_mul_ps(qz, inv), qw = _mm256_mul_ps(qw, inv);
        sw__transpose8(&qx, &qy, &qz, &qw);
        /* In entry order, so a later track on the same target wins, as in a loop. */
        sw_quat* const* out = batch->out + 8 * g;
        _mm_storeu_ps(&out[0]->x, _mm256_castps256_ps128(qx));
        _mm_storeu_ps(&out[1]->x, _mm256_castps256_ps128(qy));
        _mm_storeu_ps(&out[2]->x, _mm256_castps256_ps128(qz));
        _mm_storeu_ps(&out[3]->x, _mm256_castps256_ps128(qw));
        _mm_storeu_ps(&out[4]->x, _mm256_extractf128_ps(qx, 1));
        _mm_storeu_ps(&out[5]->x, _mm256_extractf128_ps(qy, 1));
        _mm_storeu_ps(&out[6]->x, _mm256_extractf128_ps(qz, 1));
        _mm_storeu_ps(&out[7]->x, _mm256_extractf128_ps(qw, 1));
    }
}
#else
#define SW__SAMPLE_AVX 0
#endif

/* Runs and empties the batch: all groups together when it is full, else
   group by group, the last one padded with copies of its first entry
   written to a scratch quaternion. */
static void sw__flush_rotations(sw__rotation_batch* batch) {
#if SW__SAMPLE_SSE2
#if SW__SAMPLE_AVX
    /* libgcc and compiler-rt set the AVX bit only where the OS saves the
       YMM state. Full batches only: the partial ones (one per job at
       most) keep the SSE2 groups below in use, and in the tests, on every
       CPU. */
    if (batch->count == SW__BATCH && __builtin_cpu_supports("avx")) {
        sw__slerp_batch_avx(batch);
        batch->count = 0;
        return;
    }
#endif
    if (batch->count == SW__BATCH) {
        sw__slerp_groups(batch, 0, SW__GROUPS);
    } else if (batch->count > 0) {
        sw_quat scratch;
        const int last = (batch->count - 1) & ~3; /* the last group's first entry */
        for (int i = batch->count; i < last + 4; i++) {
            batch->a[i] = batch->a[last];
            batch->s[i] = batch->s[last];
            batch->out[i] = &scratch;
        }
        for (int first = 0; first <= last; first += 4) sw__slerp_groups(batch, first, 1);
    }
#else
    for (int i = 0; i < batch->count; i++)
        *batch->out[i] = sw_quat_slerp_fast(sw__load_quat(batch->a[i]), sw__load_quat(batch->a[i] + 4), batch->s[i]);
#endif
    batch->count = 0;
}

/* Everything but the hot case of sw_sample_job_run: a track on times not
   located yet (the first track, or other times than the last), or one that
   copies a key, or is STEP, CUBICSPLINE or weights. Updates the located
   position and its times. */
static void sw__sample_slow(const sw_sample_job* job, const sw_track* track, uint32_t* cursor, bool hint,
                            sw__key_pos* pos, const float** located_times, size_t* located_count,
                            sw__rotation_batch* batch) {
    if (track->times != *located_times || track->key_count != *located_count) {
        *pos = sw__locate(track->times, track->key_count, job->time, hint ? cursor : NULL);
        *located_times = track->times;
        *located_count = track->key_count;
    }
    *cursor = pos->cursor;
    if (track->path == SW_PATH_WEIGHTS) {
        sw__evaluate(track, pos, job->out_weights + job->weight_offsets[track->target]);
        return;
    }
    sw_transform* local = &job->out_local[track->target];
    if (!pos->at_key && track->interpolation <= SW_INTERP_LINEAR && track->path == SW_PATH_ROTATION) {
        const float* a = track->values + pos->key * 4;
        batch->a[batch->count] = a;
        batch->s[batch->count] = pos->s;
        batch->out[batch->count] = &local->rotation;
        if (++batch->count == SW__BATCH) sw__flush_rotations(batch);
        return;
    }
    /* Gathered rotations are written first, so writes land in track order. */
    if (track->path == SW_PATH_ROTATION) sw__flush_rotations(batch);
    float v[4];
    sw__evaluate(track, pos, v);
    switch (track->path) {
    case SW_PATH_TRANSLATION: local->translation = sw_vec3_make(v[0], v[1], v[2]); break;
    case SW_PATH_ROTATION: local->rotation = (sw_quat){v[0], v[1], v[2], v[3]}; break;
    case SW_PATH_SCALE: local->scale = sw_vec3_make(v[0], v[1], v[2]); break;
    case SW_PATH_WEIGHTS: break;
    }
}

/* The hot case, a run of LINEAR translation, rotation and scale tracks on
   the times just located, between keys `key` and `key` + 1 (weight s):
   from `track` to the first track that is not (returned). Its own
   function, so its few values stay in registers. */
static const sw_track* sw__sample_hot(const sw_track* track, const sw_track* end, const float* times,
                                      size_t key_count, size_t key, float s, uint32_t cursor_value, uint32_t** cursor,
                                      size_t cursor_step, sw_transform* out_local, sw__rotation_batch* batch) {
    uint32_t* c = *cursor;
    for (; track != end; ++track, c += cursor_step) {
        if (track->times != times || track->key_count != key_count || track->interpolation > SW_INTERP_LINEAR) break;
        const sw_track_path path = track->path;
        sw_transform* local = &out_local[track->target];
        if (path == SW_PATH_ROTATION) {
            *c = cursor_value;
            const int n = batch->count;
            batch->a[n] = track->values + key * 4;
            batch->s[n] = s;
            batch->out[n] = &local->rotation;
            batch->count = n + 1;
            if (n + 1 == SW__BATCH) sw__flush_rotations(batch);
            continue;
        }
        if (path == SW_PATH_WEIGHTS) break;
        *c = cursor_value;
        const float* a = track->values + key * 3;
        const float* b = a + 3;
        const sw_vec3 v = sw_vec3_make(a[0] + (b[0] - a[0]) * s, a[1] + (b[1] - a[1]) * s, a[2] + (b[2] - a[2]) * s);
        if (path == SW_PATH_TRANSLATION)
            local->translation = v;
        else
            local->scale = v;
    }
    *cursor = c;
    return track;
}

void sw_sample_job_run(const sw_sample_job* job) {
    SW_ASSERT(job && job->clip);
    const sw_clip* clip = job->clip;
    const sw_track* track = clip->tracks;
    const sw_track* const end = track + clip->track_count;
    /* Without cursors every lookup searches (no hint); the results go to a
       scratch cursor. */
    uint32_t scratch_cursor = 0;
    const bool hint = job->cursors != NULL;
    uint32_t* cursor = hint ? job->cursors : &scratch_cursor;
    const size_t cursor_step = hint ? 1 : 0;
    const float* located_times = NULL;
    size_t located_count = 0;
    sw__key_pos pos = {0, 0.0f, true, 0};
    sw__rotation_batch batch;
    batch.count = 0;
    while (track != end) {
        SW_ASSERT(track->target < job->target_count);
        sw__sample_slow(job, track, cursor, hint, &pos, &located_times, &located_count, &batch);
        ++track, cursor += cursor_step;
        /* The tracks after it on the same times, while they interpolate. */
        if (!pos.at_key)
            track = sw__sample_hot(track, end, located_times, located_count, pos.key, pos.s, pos.cursor, &cursor,
                                   cursor_step, job->out_local, &batch);
    }
    sw__flush_rotations(&batch);
}
