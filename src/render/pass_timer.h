/* pass_timer.h — the time each pass of a frame takes (not a public header;
   the functions that touch queries need the GL context current).

   Every pass of sw_renderer_draw is named once in SW__RENDER_PASSES; the
   renderer brackets it with sw__pass_begin/sw__pass_end. Adding a pass is
   one line in the list (its enum name and the name the tools print) and
   the two calls around its GL work. Passes do not nest: a begin while
   another pass is open is timed on the CPU only.

   Two numbers per pass:
   - GPU: a GL_TIME_ELAPSED query around the pass. Queries live in a ring
     of SW__PASS_TIMER_FRAMES frames and are read once the driver has the
     answer (normally a frame or two later), never waited for during
     drawing; a frame whose ring slot is still unanswered goes untimed.
     On a hardware driver this is the pass's GPU execution time; on Mesa
     llvmpipe it is the time the rasteriser threads spent between the
     query's begin and end, i.e. CPU time spent executing the pass; its
     compute dispatches run at dispatch, outside that (0 ms), and a query
     begun where llvmpipe has no scene open answers with a time since boot.
     An answer longer than the wall time from its begin to its reading is
     impossible on any driver: it is dropped (the pass has no GPU time for
     that frame) rather than reported.
   - CPU: the wall time (CLOCK_MONOTONIC) between begin and end. Without
     `exact` it is the time to submit the pass's GL calls (the driver may
     run them later); with `exact` a glFinish closes each pass so it is
     the whole cost of the pass, at the price of a pipeline drain per pass.
   A pass that runs twice in one frame (the split LBS|DQS view draws the
   scene twice) counts both runs in that frame's time. */
#ifndef SINEW_RENDER_PASS_TIMER_H
#define SINEW_RENDER_PASS_TIMER_H

#include "sinew/render.h"

#include <epoxy/gl.h>
#include <stdbool.h>
#include <stdint.h>

/* The passes in frame order: X(enum suffix, printed name). */
#define SW__RENDER_PASSES(X) \
    X(SKIN, "skinning")      \
    X(SNOW_CACHE, "snow-cache") \
    X(SHADOW, "shadow")      \
    X(GBUFFER, "gbuffer")    \
    X(DECAL, "decals")       \
    X(AO, "ao")              \
    X(RECON, "recon")        \
    X(LIGHTING, "lighting")  \
    X(FEEDBACK, "feedback")  \
    X(SKY, "sky")            \
    X(FOG, "fog")            \
    X(TRANSPARENT, "transparent") \
    X(WEATHER, "weather")    \
    X(POST, "post")

typedef enum sw__pass {
#define SW__PASS_ENUM(id, name) SW__PASS_##id,
    SW__RENDER_PASSES(SW__PASS_ENUM)
#undef SW__PASS_ENUM
    SW__PASS_COUNT
} sw__pass;

enum {
    SW__PASS_TIMER_FRAMES = 4, /* ring depth: results up to 3 frames late */
    SW__PASS_TIMER_RUNS = 2,   /* GPU-timed runs of one pass per frame */
};

typedef struct sw__pass_timer_slot {
    GLuint queries[SW__PASS_COUNT][SW__PASS_TIMER_RUNS];
    double begun_s[SW__PASS_COUNT][SW__PASS_TIMER_RUNS]; /* wall clock at each begin */
    uint8_t runs[SW__PASS_COUNT]; /* queries begun this frame */
    bool pending;                 /* ended, not read yet */
} sw__pass_timer_slot;

typedef struct sw__pass_timer {
    sw__pass_timer_slot slots[SW__PASS_TIMER_FRAMES];
    int current;  /* slot of the frame being drawn */
    bool timing;  /* the current slot takes GPU queries this frame */
    bool exact;   /* glFinish around every pass (sw_renderer_set_exact_pass_times) */
    bool created;
    int open;     /* the pass between begin and end, -1 none */
    double open_since_s;
    /* per pass: the latest answered GPU time and the last frame's CPU time,
       and their sums with how many frames were summed (for averages) */
    double gpu_ms[SW__PASS_COUNT], cpu_ms[SW__PASS_COUNT];
    double gpu_total_ms[SW__PASS_COUNT], cpu_total_ms[SW__PASS_COUNT];
    uint64_t gpu_frames[SW__PASS_COUNT], cpu_frames[SW__PASS_COUNT];
    bool cpu_ran[SW__PASS_COUNT]; /* the pass ran in the current frame */
} sw__pass_timer;

/* The printed name of a pass ("skinning", "shadow", ...). */
const char* sw__pass_name(sw__pass pass);

void sw__pass_timer_create(sw__pass_timer* timer);
void sw__pass_timer_destroy(sw__pass_timer* timer);
/* Around one sw_renderer_draw: reads the answered queries, picks the slot. */
void sw__pass_timer_frame_begin(sw__pass_timer* timer);
void sw__pass_timer_frame_end(sw__pass_timer* timer);
void sw__pass_begin(sw__pass_timer* timer, sw__pass pass);
void sw__pass_end(sw__pass_timer* timer, sw__pass pass);
/* Waits for every unanswered query (a stall: for the end of a run). */
void sw__pass_timer_wait(sw__pass_timer* timer);
/* Fills out[0 .. min(capacity, SW__PASS_COUNT)); returns SW__PASS_COUNT. */
size_t sw__pass_timer_get(const sw__pass_timer* timer, sw_render_pass_time* out, size_t capacity);

#endif
