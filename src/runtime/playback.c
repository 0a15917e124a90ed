/* Playback: clip instances and their events, crossfades, sync groups, 1-D
   blend spaces and pose blending by weights (see sinew/playback.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sinew/playback.h"

/* ---- The path of one update ------------------------------------------------

   An update moves a playhead over a range [lo, hi] (clip time for an
   instance, the phase for a sync group). Unfolded, LOOP and PING_PONG
   playback is a straight walk over a line cut into legs of the range's
   length L: leg k plays lo → hi (LOOP, and even legs of PING_PONG) or
   hi → lo (odd legs of PING_PONG). A walk from u0 to u1 is then: a first
   piece, n − 1 whole legs and a last piece. Every piece's ends are floats
   that the next update starts from exactly (the old time, lo, hi, the new
   time), so the half-open pieces of consecutive updates tile the timeline
   and no marker is counted twice. */

typedef struct sw__piece {
    float from, to; /* playback goes from `from` to `to` */
    int dir;        /* +1: forward in time (from ≤ to), −1: backward */
} sw__piece;

typedef struct sw__path {
    sw_wrap_mode wrap;
    float lo, hi;
    sw__piece first;
    double whole_legs;    /* whole legs between the first and the last piece */
    int whole_dir;        /* direction of the first whole leg; PING_PONG alternates */
    bool has_last;
    sw__piece last;
    bool closed_arrival;  /* CLAMP: the piece that runs into an end counts that end */
    float new_time;
    bool new_reversed;
} sw__path;

static double sw__parity(double k) { return fmod(fabs(k), 2.0); }

/* +1 when leg k plays lo → hi. */
static int sw__leg_dir(sw_wrap_mode wrap, double k) {
    return wrap == SW_WRAP_PING_PONG && sw__parity(k) == 1.0 ? -1 : 1;
}

static float sw__clampf(float x, float lo, float hi) { return x < lo ? lo : x > hi ? hi : x; }

/* `x` brought into [lo, hi]: wrapped for LOOP, clamped otherwise. */
static float sw__into_range(float x, float lo, float hi, sw_wrap_mode wrap) {
    if (x >= lo && x <= hi) return x;
    if (wrap != SW_WRAP_LOOP) return sw__clampf(x, lo, hi);
    const double length = (double)hi - lo;
    double r = fmod((double)x - lo, length);
    if (r < 0.0) r += length;
    const float t = sw__clampf((float)(lo + r), lo, hi);
    return t < hi ? t : lo;
}

/* Plans the walk of `delta` (signed, in range units) from x0. Leaves an
   empty path (first piece from = to) when nothing moves. */
static void sw__plan(sw__path* p, float x0, bool reversed, double delta, sw_wrap_mode wrap, float lo, float hi) {
    memset(p, 0, sizeof *p);
    p->wrap = wrap;
    p->lo = lo;
    p->hi = hi;
    p->new_reversed = reversed;
    const double length = (double)hi - lo;
    if (!(length > 0.0)) { /* a zero-length clip holds its start */
        p->first = (sw__piece){lo, lo, 1};
        p->new_time = lo;
        return;
    }
    x0 = sw__into_range(x0, lo, hi, wrap);
    p->first = (sw__piece){x0, x0, delta < 0.0 ? -1 : 1};
    p->new_time = x0;
    if (delta == 0.0) return;

    if (wrap == SW_WRAP_CLAMP) {
        const double end = fmin(fmax((double)x0 + delta, lo), hi);
        const float x1 = (float)end; /* a double within [lo, hi] rounds into it */
        p->first.to = x1;
        p->closed_arrival = x1 != x0 && x1 == (delta > 0.0 ? hi : lo);
        p->new_time = x1;
        return;
    }

    /* Unfolded position, in [0, 2L]; at lo or hi both legs give the same u. */
    const int s = delta > 0.0 ? 1 : -1;
    const double u0 = wrap == SW_WRAP_PING_PONG && reversed ? length + ((double)hi - x0) : (double)x0 - lo;
    /* The leg the walk leaves on: a boundary belongs to the leg beyond it. */
    const double k0 = s > 0 ? floor(u0 / length) : ceil(u0 / length) - 1.0;
    /* Distance walked from that leg's departure boundary: now, and at the end. */
    const double o0 = s > 0 ? u0 - k0 * length : (k0 + 1.0) * length - u0;
    const double walked = o0 + fabs(delta);
    double n = floor(walked / length); /* boundaries crossed, one hit at arrival included */
    double r = walked - n * length;
    if (r < 0.0) {
        n -= 1.0;
        r += length;
    } else if (r >= length) {
        n += 1.0;
        r -= length;
    }
    const int dir0 = s * sw__leg_dir(wrap, k0);
    const double k1 = k0 + s * n;
    const int dir1 = s * sw__leg_dir(wrap, k1);
    const float x1 = sw__clampf(dir1 > 0 ? (float)(lo + r) : (float)(hi - r), lo, hi);

    /* Leaving from a boundary: in LOOP the departure side may be the other
       end (the same instant), which decides which markers count there. */
    p->first = (sw__piece){o0 == 0.0 ? (dir0 > 0 ? lo : hi) : x0, n == 0.0 ? x1 : (dir0 > 0 ? hi : lo), dir0};
    if (n >= 1.0) {
        p->whole_legs = n - 1.0;
        p->whole_dir = s * sw__leg_dir(wrap, k0 + s);
        p->has_last = true;
        p->last = (sw__piece){dir1 > 0 ? lo : hi, x1, dir1};
    }
    if (wrap == SW_WRAP_LOOP) {
        p->new_time = x1 < hi ? x1 : lo; /* one instant: keep the time in [lo, hi) */
    } else {
        p->new_time = x1;
        p->new_reversed = sw__leg_dir(wrap, k1) < 0; /* the leg the walk arrived on plays hi → lo */
    }
}

/* ---- Reporting markers ------------------------------------------------------ */

/* One clip's markers, seen through the path's range: clip time =
   start + x × scale (a sync member), or x itself (an instance). */
typedef struct sw__view {
    const sw_clip_events* events;
    size_t source;
    bool identity;
    double start, scale;
    float lo, hi; /* the clip's range */
} sw__view;

static float sw__view_time(const sw__view* v, float x) {
    return v->identity ? x : (float)(v->start + (double)x * v->scale);
}

static void sw__push(const sw__view* v, size_t i, sw_event_buffer* out) {
    if (out->count < out->capacity) {
        sw_playback_event* e = &out->events[out->count++];
        e->source = v->source;
        e->index = i;
        e->name = v->events->names ? v->events->names[i] : NULL;
        e->time = v->events->times[i];
    } else {
        out->dropped++;
    }
}

/* Markers at exactly time t, in travel order; returns how many (pushes
   them unless `out` is NULL). */
static size_t sw__markers_at(const sw__view* v, float t, int dir, sw_event_buffer* out) {
    const float* times = v->events->times;
    const size_t count = v->events->count;
    size_t found = 0;
    for (size_t k = 0; k < count; k++) {
        const size_t i = dir > 0 ? k : count - 1 - k;
        if (times[i] != t) continue;
        found++;
        if (out) sw__push(v, i, out);
    }
    return found;
}

/* Markers on one piece (in the path's units), in travel order: half-open,
   [from, to) forward or (to, from] backward, plus `to` when `closed`. In
   LOOP, leaving from the wrap instant reports both ends' markers there
   (forward: the end's, then the start's). Returns how many (pushes them
   unless `out` is NULL). */
static size_t sw__report_piece(const sw__view* v, const sw__piece* piece, sw_wrap_mode wrap, bool closed,
                               sw_event_buffer* out) {
    if (!v->events || v->events->count == 0) return 0;
    const float a = sw__view_time(v, piece->from), b = sw__view_time(v, piece->to);
    if (a == b && !closed) return 0;
    const float* times = v->events->times;
    const size_t count = v->events->count;
    size_t found = 0;
    if (piece->dir > 0) {
        if (wrap == SW_WRAP_LOOP && a == v->lo) found += sw__markers_at(v, v->hi, 1, out);
        for (size_t i = 0; i < count; i++) {
            const float t = times[i];
            if (t >= a && (t < b || (closed && t == b))) {
                found++;
                if (out) sw__push(v, i, out);
            }
        }
    } else {
        if (wrap == SW_WRAP_LOOP && a == v->hi) found += sw__markers_at(v, v->lo, -1, out);
        for (size_t k = 0; k < count; k++) {
            const size_t i = count - 1 - k;
            const float t = times[i];
            if (t <= a && (t > b || (closed && t == b))) {
                found++;
                if (out) sw__push(v, i, out);
            }
        }
    }
    return found;
}

/* The clips whose markers a path reports: one instance, or a sync
   group's members seen through the phase. */
typedef struct sw__clips {
    const sw__view* single;
    const sw_sync_member* members;
    size_t count;
} sw__clips;

static float sw__range_end(float start, float duration) { return (float)((double)start + duration); }

static sw__view sw__clip_view(const sw__clips* clips, size_t i) {
    if (clips->single) return *clips->single;
    const sw_sync_member* m = &clips->members[i];
    return (sw__view){m->events, i, false, m->start, m->duration, m->start, sw__range_end(m->start, m->duration)};
}

/* One piece for every clip, clip by clip. */
static size_t sw__report_all(const sw__clips* clips, const sw__piece* piece, sw_wrap_mode wrap, bool closed,
                             sw_event_buffer* out) {
    size_t found = 0;
    for (size_t i = 0; i < clips->count; i++) {
        const sw__view v = sw__clip_view(clips, i);
        found += sw__report_piece(&v, piece, wrap, closed, out);
    }
    return found;
}

static void sw__add_saturated(size_t* total, double more) {
    const double room = (double)(SIZE_MAX - *total);
    *total = more >= room ? SIZE_MAX : *total + (size_t)more;
}

/* Reports the path's markers for every view, piece by piece. Whole legs
   are walked one by one only while the buffer has room: after that they
   are counted per direction, so a huge dt costs no more than the buffer. */
static void sw__report_path(const sw__path* p, const sw__clips* clips, sw_event_buffer* out) {
    if (!out) return;
    sw__report_all(clips, &p->first, p->wrap, p->closed_arrival && !p->has_last, out);
    if (p->whole_legs > 0.0) {
        const sw__piece forward = {p->lo, p->hi, 1}, backward = {p->hi, p->lo, -1};
        const sw__piece* leg[2] = {p->whole_dir > 0 ? &forward : &backward, p->whole_dir > 0 ? &backward : &forward};
        const bool alternate = p->wrap == SW_WRAP_PING_PONG;
        const size_t per_leg[2] = {sw__report_all(clips, leg[0], p->wrap, false, NULL),
                                   sw__report_all(clips, alternate ? leg[1] : leg[0], p->wrap, false, NULL)};
        if (per_leg[0] + per_leg[1] > 0) {
            double done = 0.0;
            for (; done < p->whole_legs && out->count < out->capacity; done += 1.0) {
                const int which = alternate && sw__parity(done) == 1.0;
                sw__report_all(clips, leg[which], p->wrap, false, out);
            }
            /* The rest only counts: legs alternate from `done` on. */
            const double rest = p->whole_legs - done;
            const double second = alternate ? floor(rest / 2.0) : 0.0;
            const double first = rest - second;
            const size_t a = sw__parity(done) == 1.0 && alternate ? 1 : 0;
            sw__add_saturated(&out->dropped, first * (double)per_leg[a] + second * (double)per_leg[1 - a]);
        }
    }
    if (p->has_last) sw__report_all(clips, &p->last, p->wrap, p->closed_arrival, out);
}

/* ---- Checks ------------------------------------------------------------------ */

static sw_result sw__check_instance(const sw_clip_instance* instance, float dt, const char* what, sw_diag* diag) {
    if (!isfinite(dt)) return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "%s: dt is %g (must be finite)", what, (double)dt);
    if (!isfinite(instance->speed))
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "%s: speed is %g (must be finite)", what,
                           (double)instance->speed);
    if (!isfinite(instance->time))
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "%s: time is %g (must be finite)", what,
                           (double)instance->time);
    if (instance->wrap < SW_WRAP_DEFAULT || instance->wrap > SW_WRAP_PING_PONG)
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "%s: unknown wrap mode %d", what, (int)instance->wrap);
    return SW_OK;
}

static sw_result sw__check_range(float start, float duration, const char* what, int64_t index, sw_diag* diag) {
    if (!isfinite(start) || !isfinite(duration) || duration < 0.0f)
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, index,
                           "%s: clip range start %g, duration %g (must be finite, duration >= 0)", what,
                           (double)start, (double)duration);
    if (!isfinite(start + duration))
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, index, "%s: clip range end %g + %g overflows", what,
                           (double)start, (double)duration);
    return SW_OK;
}

static sw_result sw__check_events(const sw_clip_events* events, const char* what, int64_t index, sw_diag* diag) {
    if (!events || events->count == 0) return SW_OK;
    if (!events->times)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, index, "%s: %zu markers but no times", what, events->count);
    for (size_t i = 0; i < events->count; i++) {
        const float t = events->times[i];
        if (!isfinite(t))
            return sw_diag_set(diag, SW_ERR_INVALID_DATA, index, "%s: marker %zu time is %g (must be finite)", what, i,
                               (double)t);
        if (i > 0 && t < events->times[i - 1])
            return sw_diag_set(diag, SW_ERR_INVALID_DATA, index, "%s: marker %zu at %g comes before marker %zu at %g",
                               what, i, (double)t, i - 1, (double)events->times[i - 1]);
    }
    return SW_OK;
}

static sw_result sw__check_buffer(const sw_event_buffer* out, sw_diag* diag) {
    if (out && out->capacity > 0 && !out->events)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "event buffer has capacity %zu but no array",
                           out->capacity);
    return SW_OK;
}

/* ---- Instances ---------------------------------------------------------------- */

sw_result sw_clip_instance_advance(sw_clip_instance* instance, float start, float duration, float dt,
                                   const sw_clip_events* events, size_t source, sw_event_buffer* out, sw_diag* diag) {
    SW_ASSERT(instance);
    sw_result res = sw__check_instance(instance, dt, "clip instance", diag);
    if (res == SW_OK) res = sw__check_range(start, duration, "clip instance", -1, diag);
    if (res == SW_OK) res = sw__check_events(events, "clip instance", -1, diag);
    if (res == SW_OK) res = sw__check_buffer(out, diag);
    if (res != SW_OK) return res;

    const sw_wrap_mode wrap = instance->wrap == SW_WRAP_DEFAULT ? SW_WRAP_LOOP : instance->wrap;
    const float lo = start, hi = sw__range_end(start, duration);
    sw__path path;
    sw__plan(&path, instance->time, instance->reversed, (double)dt * instance->speed, wrap, lo, hi);
    const sw__view view = {events, source, true, 0.0, 1.0, lo, hi};
    const sw__clips clips = {&view, NULL, 1};
    sw__report_path(&path, &clips, out);
    instance->time = path.new_time;
    if (wrap == SW_WRAP_PING_PONG) instance->reversed = path.new_reversed;
    return SW_OK;
}

float sw_clip_phase(float time, float start, float duration) {
    return duration > 0.0f ? (float)(((double)time - start) / duration) : 0.0f;
}

/* ---- Crossfades ------------------------------------------------------------------ */

float sw_crossfade_weight(const sw_crossfade* fade, float time) {
    SW_ASSERT(fade);
    if (!(fade->duration > 0.0f)) return time >= fade->start ? 1.0f : 0.0f; /* a cut */
    if (!(time > fade->start)) return 0.0f; /* NaN lands here too */
    if (!(time < fade->start + fade->duration)) return 1.0f;
    const float s = (float)(((double)time - fade->start) / fade->duration);
    return fade->curve == SW_FADE_SMOOTH ? s * s * (3.0f - 2.0f * s) : s;
}

/* ---- Sync groups --------------------------------------------------------------------- */

float sw_sync_group_cycle(const sw_sync_member* members, size_t member_count) {
    SW_ASSERT(members || member_count == 0);
    double weighted = 0.0, total = 0.0;
    for (size_t i = 0; i < member_count; i++) {
        weighted += (double)members[i].weight * members[i].duration;
        total += members[i].weight;
    }
    return total > 0.0 ? (float)(weighted / total) : 0.0f;
}

sw_result sw_sync_group_advance(sw_clip_instance* group, sw_sync_member* members, size_t member_count, float dt,
                                sw_event_buffer* out, sw_diag* diag) {
    SW_ASSERT(group && (members || member_count == 0));
    sw_result res = sw__check_instance(group, dt, "sync group", diag);
    if (res == SW_OK) res = sw__check_buffer(out, diag);
    if (res != SW_OK) return res;
    for (size_t i = 0; i < member_count; i++) {
        const sw_sync_member* m = &members[i];
        char what[48];
        snprintf(what, sizeof what, "sync member %zu", i);
        res = sw__check_range(m->start, m->duration, what, (int64_t)i, diag);
        if (res == SW_OK && (!isfinite(m->weight) || m->weight < 0.0f))
            res = sw_diag_set(diag, SW_ERR_INVALID_DATA, (int64_t)i, "%s: weight %g (must be finite, >= 0)", what,
                              (double)m->weight);
        if (res == SW_OK) res = sw__check_events(m->events, what, (int64_t)i, diag);
        if (res != SW_OK) return res;
    }
    const float cycle = sw_sync_group_cycle(members, member_count);
    if (!(cycle > 0.0f) || !isfinite(cycle))
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1,
                           "sync group of %zu members has cycle length %g (needs a member with weight and duration)",
                           member_count, (double)cycle);

    const sw_wrap_mode wrap = group->wrap == SW_WRAP_DEFAULT ? SW_WRAP_LOOP : group->wrap;
    sw__path path;
    sw__plan(&path, group->time, group->reversed, (double)dt * group->speed / cycle, wrap, 0.0f, 1.0f);

    const sw__clips clips = {NULL, members, member_count};
    sw__report_path(&path, &clips, out);
    for (size_t i = 0; i < member_count; i++) {
        sw_sync_member* m = &members[i];
        const float hi = sw__range_end(m->start, m->duration);
        const float t = sw__clampf((float)((double)m->start + (double)path.new_time * m->duration), m->start, hi);
        m->time = wrap == SW_WRAP_LOOP && t >= hi && hi > m->start ? m->start : t;
    }
    group->time = path.new_time;
    if (wrap == SW_WRAP_PING_PONG) group->reversed = path.new_reversed;
    return SW_OK;
}

/* ---- Blend spaces and pose blending -------------------------------------------------- */

sw_result sw_blend_space_1d(float* out_weights, const float* thresholds, size_t count, float parameter,
                            sw_diag* diag) {
    if (count == 0 || !out_weights || !thresholds)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "blend space needs thresholds and weights (%zu clips)",
                           count);
    if (!isfinite(parameter))
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "blend space parameter is %g (must be finite)",
                           (double)parameter);
    for (size_t i = 0; i < count; i++) {
        if (!isfinite(thresholds[i]))
            return sw_diag_set(diag, SW_ERR_INVALID_DATA, (int64_t)i, "blend space threshold %zu is %g (must be finite)",
                               i, (double)thresholds[i]);
        if (i > 0 && !(thresholds[i] > thresholds[i - 1]))
            return sw_diag_set(diag, SW_ERR_INVALID_DATA, (int64_t)i,
                               "blend space threshold %zu (%g) is not above threshold %zu (%g)", i,
                               (double)thresholds[i], i - 1, (double)thresholds[i - 1]);
    }
    for (size_t i = 0; i < count; i++) out_weights[i] = 0.0f;
    if (parameter <= thresholds[0]) {
        out_weights[0] = 1.0f;
        return SW_OK;
    }
    if (parameter >= thresholds[count - 1]) {
        out_weights[count - 1] = 1.0f;
        return SW_OK;
    }
    size_t i = 0; /* thresholds[i] < parameter ≤ thresholds[i + 1] */
    while (parameter > thresholds[i + 1]) i++;
    if (parameter == thresholds[i + 1]) {
        out_weights[i + 1] = 1.0f;
        return SW_OK;
    }
    const float upper = (float)(((double)parameter - thresholds[i]) / ((double)thresholds[i + 1] - thresholds[i]));
    out_weights[i + 1] = upper;
    out_weights[i] = 1.0f - upper;
    return SW_OK;
}

sw_result sw_blend_poses(sw_transform* out_local, size_t joint_count, const sw_transform* rest_pose,
                         const sw_transform* const* poses, const float* weights, size_t pose_count,
                         sw_blend_layer* layers, sw_diag* diag) {
    if (pose_count > 0 && (!poses || !weights || !layers))
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "blend of %zu poses needs poses, weights and layers",
                           pose_count);
    size_t only = pose_count, nonzero = 0;
    for (size_t i = 0; i < pose_count; i++) {
        layers[i] = (sw_blend_layer){.pose = poses[i], .pose_count = joint_count, .weight = weights[i]};
        if (weights[i] != 0.0f) {
            nonzero++;
            only = i;
        }
    }
    const sw_blend_job job = {.joint_count = joint_count,
                              .rest_pose = rest_pose,
                              .layers = layers,
                              .layer_count = pose_count,
                              .out_local = out_local};
    sw_result res = sw_blend_job_validate(&job, diag);
    if (res != SW_OK) return res;
    /* One pose at full strength: the job's answer, without its renormalisation. */
    const float threshold = 0.1f; /* sw_blend_job's default (anim.h) */
    if (nonzero == 1 && weights[only] >= threshold) {
        if (out_local != poses[only]) memmove(out_local, poses[only], joint_count * sizeof *out_local);
        return SW_OK;
    }
    sw_blend_job_run(&job);
    return SW_OK;
}
