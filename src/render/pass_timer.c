/* The time each pass of a frame takes (see pass_timer.h). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "pass_timer.h"

#include <string.h>
#include <time.h>

static const char* const sw__pass_names[SW__PASS_COUNT] = {
#define SW__PASS_NAME(id, name) name,
    SW__RENDER_PASSES(SW__PASS_NAME)
#undef SW__PASS_NAME
};

const char* sw__pass_name(sw__pass pass) {
    return pass >= 0 && pass < SW__PASS_COUNT ? sw__pass_names[pass] : "?";
}

static double sw__now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

void sw__pass_timer_create(sw__pass_timer* t) {
    memset(t, 0, sizeof *t);
    for (int s = 0; s < SW__PASS_TIMER_FRAMES; s++)
        glGenQueries(SW__PASS_COUNT * SW__PASS_TIMER_RUNS, &t->slots[s].queries[0][0]);
    t->created = true;
    t->open = -1;
}

void sw__pass_timer_destroy(sw__pass_timer* t) {
    if (!t->created) return;
    for (int s = 0; s < SW__PASS_TIMER_FRAMES; s++)
        glDeleteQueries(SW__PASS_COUNT * SW__PASS_TIMER_RUNS, &t->slots[s].queries[0][0]);
    t->created = false;
}

/* A slot's queries, read into the per-pass times when all are answered
   (or always, with `wait`). Returns whether the slot is free again. */
static bool sw__read_slot(sw__pass_timer* t, sw__pass_timer_slot* slot, bool wait) {
    if (!slot->pending) return true;
    if (!wait) {
        for (int p = 0; p < SW__PASS_COUNT; p++)
            for (int i = 0; i < slot->runs[p]; i++) {
                GLuint available = 0;
                glGetQueryObjectuiv(slot->queries[p][i], GL_QUERY_RESULT_AVAILABLE, &available);
                if (!available) return false;
            }
    }
    for (int p = 0; p < SW__PASS_COUNT; p++) {
        if (!slot->runs[p]) continue;
        double ms = 0.0;
        bool possible = true;
        for (int i = 0; i < slot->runs[p]; i++) {
            GLuint64 ns = 0;
            glGetQueryObjectui64v(slot->queries[p][i], GL_QUERY_RESULT, &ns);
            /* the pass ran between its begin and now: longer is a driver's
               wrong answer (see pass_timer.h) */
            possible = possible && (double)ns * 1e-9 <= sw__now_s() - slot->begun_s[p][i] + 1e-3;
            ms += (double)ns * 1e-6;
        }
        if (!possible) continue;
        t->gpu_ms[p] = ms;
        t->gpu_total_ms[p] += ms;
        t->gpu_frames[p]++;
    }
    slot->pending = false;
    return true;
}

/* The slots after the current one are the oldest: read in frame order, so
   gpu_ms ends as the newest answer. */
static void sw__read_answered(sw__pass_timer* t, bool wait) {
    for (int k = 1; k <= SW__PASS_TIMER_FRAMES; k++) {
        sw__pass_timer_slot* slot = &t->slots[(t->current + k) % SW__PASS_TIMER_FRAMES];
        if (!sw__read_slot(t, slot, wait) && !wait) return; /* later ones are later still */
    }
}

void sw__pass_timer_frame_begin(sw__pass_timer* t) {
    if (!t->created) return;
    sw__read_answered(t, false);
    t->current = (t->current + 1) % SW__PASS_TIMER_FRAMES;
    sw__pass_timer_slot* slot = &t->slots[t->current];
    t->timing = !slot->pending; /* a slot still unanswered is skipped, not waited for */
    if (t->timing) memset(slot->runs, 0, sizeof slot->runs);
    memset(t->cpu_ran, 0, sizeof t->cpu_ran);
    t->open = -1;
}

void sw__pass_timer_frame_end(sw__pass_timer* t) {
    if (!t->created) return;
    if (t->open != -1) sw__pass_end(t, (sw__pass)(t->open >= 0 ? t->open : -2 - t->open)); /* an error left it open */
    sw__pass_timer_slot* slot = &t->slots[t->current];
    if (t->timing) {
        for (int p = 0; p < SW__PASS_COUNT; p++) slot->pending = slot->pending || slot->runs[p] > 0;
        t->timing = false;
    }
    for (int p = 0; p < SW__PASS_COUNT; p++)
        if (t->cpu_ran[p]) {
            t->cpu_total_ms[p] += t->cpu_ms[p];
            t->cpu_frames[p]++;
        }
}

void sw__pass_begin(sw__pass_timer* t, sw__pass pass) {
    if (!t->created || t->open != -1) return; /* passes do not nest */
    if (t->exact) glFinish(); /* the previous work is not this pass's */
    t->open = (int)pass;
    if (!t->cpu_ran[pass]) t->cpu_ms[pass] = 0.0;
    t->cpu_ran[pass] = true;
    sw__pass_timer_slot* slot = &t->slots[t->current];
    t->open_since_s = sw__now_s();
    if (t->timing && slot->runs[pass] < SW__PASS_TIMER_RUNS) {
        slot->begun_s[pass][slot->runs[pass]] = t->open_since_s;
        glBeginQuery(GL_TIME_ELAPSED, slot->queries[pass][slot->runs[pass]]);
    } else if (t->timing) {
        t->open = -2 - (int)pass; /* open, CPU only: a third run in a frame */
    }
}

void sw__pass_end(sw__pass_timer* t, sw__pass pass) {
    if (!t->created) return;
    const bool gpu = t->open == (int)pass && t->timing;
    if (t->open != (int)pass && t->open != -2 - (int)pass) return;
    if (gpu) {
        glEndQuery(GL_TIME_ELAPSED);
        t->slots[t->current].runs[pass]++;
    }
    if (t->exact) glFinish();
    t->cpu_ms[pass] += (sw__now_s() - t->open_since_s) * 1e3;
    t->open = -1;
}

void sw__pass_timer_wait(sw__pass_timer* t) {
    if (t->created && t->open == -1) sw__read_answered(t, true);
}

size_t sw__pass_timer_get(const sw__pass_timer* t, sw_render_pass_time* out, size_t capacity) {
    for (size_t p = 0; p < SW__PASS_COUNT && p < capacity && out; p++) {
        out[p] = (sw_render_pass_time){
            .name = sw__pass_names[p],
            .gpu_ms = t->gpu_ms[p],
            .cpu_ms = t->cpu_ms[p],
            .gpu_average_ms = t->gpu_frames[p] ? t->gpu_total_ms[p] / (double)t->gpu_frames[p] : 0.0,
            .cpu_average_ms = t->cpu_frames[p] ? t->cpu_total_ms[p] / (double)t->cpu_frames[p] : 0.0,
            .gpu_frames = t->gpu_frames[p],
            .cpu_frames = t->cpu_frames[p],
        };
    }
    return SW__PASS_COUNT;
}
