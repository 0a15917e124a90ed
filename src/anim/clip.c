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
   times[0] < t < times[n−1]. The cursor is only a hint: clamped, then
   its interval and the next one are tried (playback moves forward a
   little each frame) before a binary search. */
static size_t sw__find_interval(const float* times, size_t n, float t, uint32_t* cursor) {
    if (cursor) {
        size_t k = *cursor < n - 2 ? (size_t)*cursor : n - 2;
        if (times[k] <= t) {
            if (!(t < times[k + 1]) && k + 2 < n) k++; /* the hinted interval, else the next */
            if (t < times[k + 1]) {
                *cursor = (uint32_t)k; /* also replaces an out-of-range hint */
                return k;
            }
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
    if (cursor) *cursor = (uint32_t)lo;
    return lo;
}

static sw_quat sw__load_quat(const float* v) { return (sw_quat){v[0], v[1], v[2], v[3]}; }
static void sw__store_quat(float* out, sw_quat q) {
    out[0] = q.x;
    out[1] = q.y;
    out[2] = q.z;
    out[3] = q.w;
}

void sw_track_sample(const sw_track* track, float time, uint32_t* cursor, float* out) {
    SW_ASSERT(track && out && track->times && track->values && track->key_count >= 1);
    const size_t n = track->key_count, cc = track->component_count;
    const bool cubic = sw__is_cubic(track);
    const size_t key_stride = cubic ? 3 * cc : cc; /* floats per key */
    const float* values = track->values + (cubic ? cc : 0); /* the value of a triplet sits in the middle */
    const float* times = track->times;

    /* Outside the keys the track holds its end values (glTF appendix C);
       a NaN time lands on the first key rather than reading anywhere. */
    size_t key;
    bool copy = true;
    if (n == 1 || !(time > times[0])) {
        key = 0;
        if (cursor) *cursor = 0;
    } else if (time >= times[n - 1]) {
        key = n - 1;
        if (cursor) *cursor = (uint32_t)(n - 2);
    } else {
        key = sw__find_interval(times, n, time, cursor);
        copy = track->interpolation == SW_INTERP_STEP || time == times[key];
    }
    /* STEP, the ends and exact key times copy the key, so no interpolation
       round-off (or renormalisation) changes a keyed value. */
    if (copy) {
        memcpy(out, values + key * key_stride, cc * sizeof(float));
        return;
    }

    /* In double, d neither overflows nor flushes to zero for finite
       increasing floats; s lies in [0, 1]. */
    const double d = (double)times[key + 1] - (double)times[key];
    const float s = (float)(((double)time - (double)times[key]) / d);
    const float* a = values + key * key_stride;
    const float* b = a + key_stride;

    if (!cubic) {
        if (track->path == SW_PATH_ROTATION) {
            SW_ASSERT(cc == 4);
            sw__store_quat(out, sw_quat_slerp(sw__load_quat(a), sw__load_quat(b), s));
        } else {
            for (size_t c = 0; c < cc; c++) out[c] = a[c] + (b[c] - a[c]) * s;
        }
        return;
    }

    const float s2 = s * s, s3 = s2 * s, df = (float)d;
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

void sw_sample_job_run(const sw_sample_job* job) {
    SW_ASSERT(job && job->clip);
    const sw_clip* clip = job->clip;
    for (size_t i = 0; i < clip->track_count; i++) {
        const sw_track* track = &clip->tracks[i];
        uint32_t* cursor = job->cursors ? &job->cursors[i] : NULL;
        SW_ASSERT(track->target < job->target_count);
        if (track->path == SW_PATH_WEIGHTS) {
            sw_track_sample(track, job->time, cursor, job->out_weights + job->weight_offsets[track->target]);
            continue;
        }
        float v[4];
        sw_track_sample(track, job->time, cursor, v);
        sw_transform* local = &job->out_local[track->target];
        switch (track->path) {
        case SW_PATH_TRANSLATION: local->translation = sw_vec3_make(v[0], v[1], v[2]); break;
        case SW_PATH_ROTATION: local->rotation = (sw_quat){v[0], v[1], v[2], v[3]}; break;
        case SW_PATH_SCALE: local->scale = sw_vec3_make(v[0], v[1], v[2]); break;
        case SW_PATH_WEIGHTS: break;
        }
    }
}
