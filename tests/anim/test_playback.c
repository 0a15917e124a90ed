/* Playback (sinew/playback.h) against numbers worked out by hand: markers
   crossed forward, backward, over several loops in one dt, at ping-pong
   turns and on exact boundaries (reported once over consecutive updates),
   clamped one-shots, dropped events; crossfade endpoints and midpoints; a
   sync group of a 1 s and a 0.8 s clip in phase over 10 loops; 1-D blend
   space weights; pose blends (bit-exact single pose, identical poses,
   50/50 rotations against the normalised sum and slerp, crossfade
   invariants). With SINEW_ASSETS, arnaud's walk and jog synchronised and
   sampled through the pose API. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "test_random.h"
#include "sinew/gltf.h"
#include "sinew/playback.h"
#include "sinew/pose.h"

/* A failure must come with a code, that code in diag, and a message. */
static void check_failure(sw_result got, sw_result expected, const sw_diag* diag) {
    SW_CHECK_EQ_INT(got, expected);
    SW_CHECK_EQ_INT(diag->result, got);
    SW_CHECK(diag->message[0] != '\0');
}

/* A loop of 1 s with four markers a quarter apart (a walk's contacts and passes). */
static const float step_times[4] = {0.0f, 0.25f, 0.5f, 0.75f};
static const char* const step_names[4] = {"contact_l", "pass_l", "contact_r", "pass_r"};
static const sw_clip_events steps = {4, step_times, step_names};

typedef struct frame_events {
    sw_playback_event hits[64];
    sw_event_buffer out;
} frame_events;

static void frame_begin(frame_events* f, size_t capacity) {
    f->out = (sw_event_buffer){f->hits, capacity, 0, 0};
}

/* One update of `instance` over [start, start + duration]; the events
   reported must be exactly `expected` (names, in order), none dropped. */
static void advance_expect(sw_clip_instance* instance, float start, float duration, const sw_clip_events* events,
                           float dt, const char* const* expected, size_t expected_count) {
    frame_events f;
    frame_begin(&f, 64);
    sw_diag diag;
    SW_CHECK_EQ_INT(sw_clip_instance_advance(instance, start, duration, dt, events, 7, &f.out, &diag), SW_OK);
    SW_CHECK_EQ_INT(f.out.count, expected_count);
    SW_CHECK_EQ_INT(f.out.dropped, 0);
    for (size_t i = 0; i < f.out.count && i < expected_count; i++) {
        if (strcmp(f.hits[i].name, expected[i]) != 0)
            fprintf(stderr, "  event %zu: got %s, expected %s\n", i, f.hits[i].name, expected[i]);
        SW_CHECK(strcmp(f.hits[i].name, expected[i]) == 0);
        SW_CHECK_EQ_INT(f.hits[i].source, 7);
        SW_CHECK(f.hits[i].time == events->times[f.hits[i].index]);
    }
}

#define EXPECT(...) (const char* const[]){__VA_ARGS__}, sizeof((const char* const[]){__VA_ARGS__}) / sizeof(char*)
#define NOTHING NULL, 0

/* ---- events ----------------------------------------------------------------------- */

static void test_events_forward(void) {
    sw_clip_instance walk = {0.0f, 1.0f, SW_WRAP_LOOP, false};
    /* [0, 0.25): the marker at the starting time counts... */
    advance_expect(&walk, 0.0f, 1.0f, &steps, 0.25f, EXPECT("contact_l"));
    SW_CHECK_NEAR(walk.time, 0.25, 0);
    /* ...and the one where the last update stopped counts now, once. */
    advance_expect(&walk, 0.0f, 1.0f, &steps, 0.25f, EXPECT("pass_l"));
    advance_expect(&walk, 0.0f, 1.0f, &steps, 0.125f, EXPECT("contact_r"));
    advance_expect(&walk, 0.0f, 1.0f, &steps, 0.125f, NOTHING); /* [0.625, 0.75) */
    /* Landing exactly on the end: [0.75, 1.0), time wraps to 0. */
    advance_expect(&walk, 0.0f, 1.0f, &steps, 0.25f, EXPECT("pass_r"));
    SW_CHECK_NEAR(walk.time, 0.0, 0);
    advance_expect(&walk, 0.0f, 1.0f, &steps, 0.0625f, EXPECT("contact_l"));
    /* dt = 0 and speed = 0 report nothing and do not move. */
    advance_expect(&walk, 0.0f, 1.0f, &steps, 0.0f, NOTHING);
    walk.speed = 0.0f;
    advance_expect(&walk, 0.0f, 1.0f, &steps, 0.5f, NOTHING);
    SW_CHECK_NEAR(walk.time, 0.0625, 0);
    /* Speed scales dt: 0.0625 + 2 × 0.25 = 0.5625, passing 0.25 and 0.5. */
    walk.speed = 2.0f;
    advance_expect(&walk, 0.0f, 1.0f, &steps, 0.25f, EXPECT("pass_l", "contact_r"));
    SW_CHECK_NEAR(walk.time, 0.5625, 0);
}

static void test_events_multiple_loops(void) {
    /* From 0.625, 2.5 s: [0.625, 1), two whole loops, [0, 0.125). */
    sw_clip_instance walk = {0.625f, 1.0f, SW_WRAP_DEFAULT, false};
    advance_expect(&walk, 0.0f, 1.0f, &steps, 2.5f,
                   EXPECT("pass_r", "contact_l", "pass_l", "contact_r", "pass_r", "contact_l", "pass_l", "contact_r",
                          "pass_r", "contact_l"));
    SW_CHECK_NEAR(walk.time, 0.125, 0);

    /* The same with room for 4: the first 4 in order, 6 dropped. */
    walk.time = 0.625f;
    frame_events f;
    frame_begin(&f, 4);
    SW_CHECK_EQ_INT(sw_clip_instance_advance(&walk, 0.0f, 1.0f, 2.5f, &steps, 0, &f.out, NULL), SW_OK);
    SW_CHECK_EQ_INT(f.out.count, 4);
    SW_CHECK_EQ_INT(f.out.dropped, 6);
    SW_CHECK(strcmp(f.hits[3].name, "contact_r") == 0);

    /* 1000 loops from 0 in one dt: 4000 markers, 8 kept, counted not walked. */
    walk.time = 0.0f;
    frame_begin(&f, 8);
    SW_CHECK_EQ_INT(sw_clip_instance_advance(&walk, 0.0f, 1.0f, 1000.0f, &steps, 0, &f.out, NULL), SW_OK);
    SW_CHECK_EQ_INT(f.out.count, 8);
    SW_CHECK_EQ_INT(f.out.dropped, 3992);
    SW_CHECK_NEAR(walk.time, 0.0, 0);

    /* No buffer at all: nothing counted, the time still moves. */
    SW_CHECK_EQ_INT(sw_clip_instance_advance(&walk, 0.0f, 1.0f, 0.5f, &steps, 0, NULL, NULL), SW_OK);
    SW_CHECK_NEAR(walk.time, 0.5, 0);
    /* The buffer appends: two updates, one list. */
    frame_begin(&f, 8);
    sw_clip_instance_advance(&walk, 0.0f, 1.0f, 0.25f, &steps, 1, &f.out, NULL); /* contact_r */
    sw_clip_instance_advance(&walk, 0.0f, 1.0f, 0.25f, &steps, 2, &f.out, NULL); /* pass_r */
    SW_CHECK_EQ_INT(f.out.count, 2);
    SW_CHECK_EQ_INT(f.hits[0].source, 1);
    SW_CHECK_EQ_INT(f.hits[1].source, 2);
    SW_CHECK_EQ_INT(f.hits[1].index, 3);
}

static void test_events_backward(void) {
    sw_clip_instance walk = {0.5f, -1.0f, SW_WRAP_LOOP, false};
    /* (0.25, 0.5]: the starting time counts, the stopping time does not. */
    advance_expect(&walk, 0.0f, 1.0f, &steps, 0.25f, EXPECT("contact_r"));
    SW_CHECK_NEAR(walk.time, 0.25, 0);
    advance_expect(&walk, 0.0f, 1.0f, &steps, 0.25f, EXPECT("pass_l"));
    SW_CHECK_NEAR(walk.time, 0.0, 0);
    /* From the wrap instant backwards: 0's marker, then (0.75, 1]. */
    advance_expect(&walk, 0.0f, 1.0f, &steps, 0.25f, EXPECT("contact_l"));
    SW_CHECK_NEAR(walk.time, 0.75, 0);
    advance_expect(&walk, 0.0f, 1.0f, &steps, 0.125f, EXPECT("pass_r"));
    /* From 0.625 back 1.75 s: (0, 0.625] descending, one whole loop, (0.875, 1]. */
    advance_expect(&walk, 0.0f, 1.0f, &steps, 1.75f,
                   EXPECT("contact_r", "pass_l", "contact_l", "pass_r", "contact_r", "pass_l", "contact_l"));
    SW_CHECK_NEAR(walk.time, 0.875, 0);
}

static void test_events_loop_ends_are_one_instant(void) {
    /* Markers at both ends of a loop: one instant, the end's first going forward. */
    const float times[2] = {0.0f, 1.0f};
    const char* const names[2] = {"begin", "end"};
    const sw_clip_events ends = {2, times, names};
    sw_clip_instance a = {0.5f, 1.0f, SW_WRAP_LOOP, false};
    advance_expect(&a, 0.0f, 1.0f, &ends, 1.0f, EXPECT("end", "begin"));
    a.speed = -1.0f;
    advance_expect(&a, 0.0f, 1.0f, &ends, 1.0f, EXPECT("begin", "end"));
    /* A fresh instance leaves from that instant: both. */
    sw_clip_instance fresh = {0.0f, 1.0f, SW_WRAP_LOOP, false};
    advance_expect(&fresh, 0.0f, 1.0f, &ends, 0.25f, EXPECT("end", "begin"));
    advance_expect(&fresh, 0.0f, 1.0f, &ends, 0.75f, NOTHING); /* arrives at the instant */
    advance_expect(&fresh, 0.0f, 1.0f, &ends, 0.25f, EXPECT("end", "begin"));
}

static void test_events_ping_pong(void) {
    const float times[3] = {0.0f, 0.25f, 1.0f};
    const char* const names[3] = {"home", "a", "turn"};
    const sw_clip_events marks = {3, times, names};
    /* 0.5 → 1 → 0.5: the turn's marker once, on the leg that leaves it. */
    sw_clip_instance pp = {0.5f, 1.0f, SW_WRAP_PING_PONG, false};
    advance_expect(&pp, 0.0f, 1.0f, &marks, 1.0f, EXPECT("turn"));
    SW_CHECK_NEAR(pp.time, 0.5, 0);
    SW_CHECK(pp.reversed);
    /* 0.5 → 0 → 0.25: a going down, home at the turn, not a (where it stops). */
    advance_expect(&pp, 0.0f, 1.0f, &marks, 0.75f, EXPECT("a", "home"));
    SW_CHECK_NEAR(pp.time, 0.25, 0);
    SW_CHECK(!pp.reversed);
    advance_expect(&pp, 0.0f, 1.0f, &marks, 0.5f, EXPECT("a"));

    /* Stopping exactly on the turn: the turn's marker in the next update. */
    sw_clip_instance exact = {0.5f, 1.0f, SW_WRAP_PING_PONG, false};
    advance_expect(&exact, 0.0f, 1.0f, &marks, 0.5f, NOTHING);
    SW_CHECK_NEAR(exact.time, 1.0, 0);
    SW_CHECK(exact.reversed);
    advance_expect(&exact, 0.0f, 1.0f, &marks, 0.25f, EXPECT("turn"));
    SW_CHECK_NEAR(exact.time, 0.75, 0);

    /* Two turns in one dt: 0 → 1 → 0 → 0.5. */
    sw_clip_instance big = {0.0f, 1.0f, SW_WRAP_PING_PONG, false};
    advance_expect(&big, 0.0f, 1.0f, &marks, 2.5f, EXPECT("home", "a", "turn", "a", "home", "a"));
    SW_CHECK_NEAR(big.time, 0.5, 0);
    SW_CHECK(!big.reversed);

    /* Negative speed on a forward leg: back to 0, turn, up to 0.5. */
    sw_clip_instance back = {0.5f, -1.0f, SW_WRAP_PING_PONG, false};
    advance_expect(&back, 0.0f, 1.0f, &marks, 1.0f, EXPECT("a", "home", "a"));
    SW_CHECK_NEAR(back.time, 0.5, 0);
    SW_CHECK(back.reversed); /* on a backward leg, played in reverse: time rises */
    advance_expect(&back, 0.0f, 1.0f, &marks, 0.25f, NOTHING);
    SW_CHECK_NEAR(back.time, 0.75, 0);
}

static void test_events_clamp(void) {
    const float times[3] = {0.0f, 0.5f, 1.0f};
    const char* const names[3] = {"begin", "mid", "end"};
    const sw_clip_events marks = {3, times, names};
    sw_clip_instance once = {0.0f, 1.0f, SW_WRAP_CLAMP, false};
    advance_expect(&once, 0.0f, 1.0f, &marks, 0.5f, EXPECT("begin"));
    /* Running into the end counts the end. */
    advance_expect(&once, 0.0f, 1.0f, &marks, 0.75f, EXPECT("mid", "end"));
    SW_CHECK_NEAR(once.time, 1.0, 0);
    advance_expect(&once, 0.0f, 1.0f, &marks, 0.25f, NOTHING); /* resting at the end */
    SW_CHECK_NEAR(once.time, 1.0, 0);
    /* Reversed from there: the end is passed again. */
    once.speed = -1.0f;
    advance_expect(&once, 0.0f, 1.0f, &marks, 0.25f, EXPECT("end"));
    advance_expect(&once, 0.0f, 1.0f, &marks, 5.0f, EXPECT("mid", "begin"));
    SW_CHECK_NEAR(once.time, 0.0, 0);
    /* Reaching the end exactly, without clamping. */
    sw_clip_instance exact = {0.5f, 1.0f, SW_WRAP_CLAMP, false};
    advance_expect(&exact, 0.0f, 1.0f, &marks, 0.5f, EXPECT("mid", "end"));
}

static void test_events_offset_range(void) {
    /* Range [2, 3.5]: 3 + 1 wraps to 2.5; the marker there comes next update. */
    const float times[1] = {2.5f};
    const char* const names[1] = {"m"};
    const sw_clip_events marks = {1, times, names};
    sw_clip_instance a = {3.0f, 1.0f, SW_WRAP_LOOP, false};
    advance_expect(&a, 2.0f, 1.5f, &marks, 1.0f, NOTHING);
    SW_CHECK_NEAR(a.time, 2.5, 0);
    advance_expect(&a, 2.0f, 1.5f, &marks, 0.25f, EXPECT("m"));
    /* A time outside the range is wrapped in first: 5.25 → 2.25. */
    a.time = 5.25f;
    advance_expect(&a, 2.0f, 1.5f, &marks, 0.5f, EXPECT("m"));
    SW_CHECK_NEAR(a.time, 2.75, 0);
    /* A zero-length clip holds its start. */
    advance_expect(&a, 2.0f, 0.0f, &marks, 0.5f, NOTHING);
    SW_CHECK_NEAR(a.time, 2.0, 0);
    SW_CHECK_NEAR(sw_clip_phase(2.75f, 2.0f, 1.5f), 0.5, 1e-7);
}

/* Markers crossed at 60 fps over a long play each come exactly once per loop. */
static void test_events_once_per_loop(void) {
    sw_clip_instance walk = {0.0f, 1.0f, SW_WRAP_LOOP, false};
    size_t seen[4] = {0};
    for (int frame = 0; frame < 60 * 37; frame++) {
        frame_events f;
        frame_begin(&f, 64);
        sw_clip_instance_advance(&walk, 0.0f, 1.0f, 1.0f / 60.0f, &steps, 0, &f.out, NULL);
        for (size_t i = 0; i < f.out.count; i++) seen[f.hits[i].index]++;
    }
    /* 37 s of a 1 s loop from 0 (within a frame of 37: the last loop may be short). */
    for (int i = 0; i < 4; i++) SW_CHECK(seen[i] == 37 || (i == 0 && seen[i] == 38));
    SW_CHECK(fmin(walk.time, 1.0 - walk.time) <= 1.0 / 60.0); /* near 0 on the loop */
}

/* Splitting an update anywhere reports the same markers in the same order
   and ends at the same time: the half-open rule tiles. All numbers are
   multiples of 1/64, so float arithmetic is exact and any difference is
   the rule's, not rounding's. */
static void test_events_split_anywhere(void) {
    rng r = {0x5eed5eedull};
    int mismatches = 0;
    size_t reported = 0;
    for (int trial = 0; trial < 3000; trial++) {
        const sw_wrap_mode wrap = (sw_wrap_mode)(1 + rng_below(&r, 3));
        const float start = (float)((int)rng_below(&r, 33) - 16) / 8.0f;
        const float duration = (float)(1 + rng_below(&r, 32)) / 16.0f;
        float times[6];
        const size_t marker_count = rng_below(&r, 7);
        for (size_t i = 0; i < marker_count; i++)
            times[i] = start + (float)rng_below(&r, (uint32_t)(duration * 16.0f) + 1) / 16.0f;
        for (size_t i = 1; i < marker_count; i++) /* insertion sort */
            for (size_t k = i; k > 0 && times[k] < times[k - 1]; k--) {
                const float t = times[k];
                times[k] = times[k - 1];
                times[k - 1] = t;
            }
        const sw_clip_events marks = {marker_count, times, NULL};
        const float speeds[4] = {1.0f, -1.0f, 2.0f, -0.5f};
        sw_clip_instance whole = {start + (float)rng_below(&r, (uint32_t)(duration * 64.0f) + 1) / 64.0f,
                                  speeds[rng_below(&r, 4)], wrap, rng_below(&r, 2) == 1};
        sw_clip_instance split = whole;
        float dts[6], total = 0.0f;
        const size_t pieces = 1 + rng_below(&r, 6);
        for (size_t i = 0; i < pieces; i++) {
            dts[i] = (float)rng_below(&r, 97) / 64.0f;
            total += dts[i];
        }
        frame_events one, many;
        frame_begin(&one, 64);
        frame_begin(&many, 64);
        sw_clip_instance_advance(&whole, start, duration, total, &marks, 0, &one.out, NULL);
        for (size_t i = 0; i < pieces; i++)
            sw_clip_instance_advance(&split, start, duration, dts[i], &marks, 0, &many.out, NULL);
        reported += one.out.count;
        bool same = one.out.count == many.out.count && whole.time == split.time &&
                    (wrap != SW_WRAP_PING_PONG || whole.reversed == split.reversed);
        for (size_t i = 0; same && i < one.out.count; i++) same = one.hits[i].index == many.hits[i].index;
        if (!same && mismatches++ < 3)
            fprintf(stderr, "  trial %d: wrap %d, range [%g, +%g], %zu markers, %zu pieces: %zu vs %zu events, "
                            "time %g vs %g\n", trial, (int)wrap, (double)start, (double)duration, marker_count, pieces,
                    one.out.count, many.out.count, (double)whole.time, (double)split.time);
    }
    SW_CHECK_EQ_INT(mismatches, 0);
    SW_CHECK(reported > 10000); /* the trials do cross markers */
}

static void test_advance_validity(void) {
    sw_clip_instance a = {0.25f, 1.0f, SW_WRAP_LOOP, false};
    sw_diag diag;
    check_failure(sw_clip_instance_advance(&a, 0.0f, 1.0f, NAN, &steps, 0, NULL, &diag), SW_ERR_INVALID_DATA, &diag);
    check_failure(sw_clip_instance_advance(&a, 0.0f, -1.0f, 0.1f, &steps, 0, NULL, &diag), SW_ERR_INVALID_DATA, &diag);
    check_failure(sw_clip_instance_advance(&a, INFINITY, 1.0f, 0.1f, &steps, 0, NULL, &diag), SW_ERR_INVALID_DATA,
                  &diag);
    const float unsorted[2] = {0.5f, 0.25f};
    const sw_clip_events bad = {2, unsorted, NULL};
    check_failure(sw_clip_instance_advance(&a, 0.0f, 1.0f, 0.1f, &bad, 0, NULL, &diag), SW_ERR_INVALID_DATA, &diag);
    const sw_clip_events no_times = {2, NULL, NULL};
    check_failure(sw_clip_instance_advance(&a, 0.0f, 1.0f, 0.1f, &no_times, 0, NULL, &diag), SW_ERR_INVALID_ARGUMENT,
                  &diag);
    sw_event_buffer no_array = {NULL, 4, 0, 0};
    check_failure(sw_clip_instance_advance(&a, 0.0f, 1.0f, 0.1f, &steps, 0, &no_array, &diag),
                  SW_ERR_INVALID_ARGUMENT, &diag);
    sw_clip_instance odd = {0.25f, 1.0f, (sw_wrap_mode)42, false};
    check_failure(sw_clip_instance_advance(&odd, 0.0f, 1.0f, 0.1f, NULL, 0, NULL, &diag), SW_ERR_INVALID_DATA, &diag);
    sw_clip_instance fast = {0.25f, NAN, SW_WRAP_LOOP, false};
    check_failure(sw_clip_instance_advance(&fast, 0.0f, 1.0f, 0.1f, NULL, 0, NULL, &diag), SW_ERR_INVALID_DATA, &diag);
    SW_CHECK_NEAR(a.time, 0.25, 0); /* failures leave the instance alone */
    /* Markers without names report NULL names. */
    const sw_clip_events unnamed = {1, step_times, NULL};
    frame_events f;
    frame_begin(&f, 4);
    SW_CHECK_EQ_INT(sw_clip_instance_advance(&a, 0.0f, 1.0f, 1.0f, &unnamed, 0, &f.out, &diag), SW_OK);
    SW_CHECK_EQ_INT(f.out.count, 1);
    SW_CHECK(f.hits[0].name == NULL);
}

/* ---- crossfades ----------------------------------------------------------------------- */

static void test_crossfade(void) {
    const sw_crossfade linear = {1.0f, 2.0f, SW_FADE_LINEAR};
    SW_CHECK_NEAR(sw_crossfade_weight(&linear, 0.0f), 0.0, 0);
    SW_CHECK_NEAR(sw_crossfade_weight(&linear, 1.0f), 0.0, 0);
    SW_CHECK_NEAR(sw_crossfade_weight(&linear, 1.5f), 0.25, 0);
    SW_CHECK_NEAR(sw_crossfade_weight(&linear, 2.0f), 0.5, 0); /* the midpoint */
    SW_CHECK_NEAR(sw_crossfade_weight(&linear, 3.0f), 1.0, 0);
    SW_CHECK_NEAR(sw_crossfade_weight(&linear, 9.0f), 1.0, 0);
    SW_CHECK_NEAR(sw_crossfade_weight(&linear, NAN), 0.0, 0);
    const sw_crossfade by_default = {1.0f, 2.0f, SW_FADE_DEFAULT};
    SW_CHECK_NEAR(sw_crossfade_weight(&by_default, 2.5f), 0.75, 0);
    /* smoothstep: s = 1/4 → 1/16 · 5/2 = 0.15625, s = 1/2 → 0.5, s = 3/4 → 9/16 · 3/2 = 0.84375 */
    const sw_crossfade smooth = {1.0f, 2.0f, SW_FADE_SMOOTH};
    SW_CHECK_NEAR(sw_crossfade_weight(&smooth, 1.0f), 0.0, 0);
    SW_CHECK_NEAR(sw_crossfade_weight(&smooth, 1.5f), 0.15625, 1e-7);
    SW_CHECK_NEAR(sw_crossfade_weight(&smooth, 2.0f), 0.5, 0);
    SW_CHECK_NEAR(sw_crossfade_weight(&smooth, 2.5f), 0.84375, 1e-7);
    SW_CHECK_NEAR(sw_crossfade_weight(&smooth, 3.0f), 1.0, 0);
    /* Zero duration: a cut at the start. */
    const sw_crossfade cut = {1.0f, 0.0f, SW_FADE_LINEAR};
    SW_CHECK_NEAR(sw_crossfade_weight(&cut, 0.999f), 0.0, 0);
    SW_CHECK_NEAR(sw_crossfade_weight(&cut, 1.0f), 1.0, 0);
}

/* ---- sync groups --------------------------------------------------------------------- */

static void test_sync_cycle(void) {
    sw_sync_member m[2] = {{0.0f, 1.0f, 0.5f, NULL, 0.0f}, {0.0f, 0.8f, 0.5f, NULL, 0.0f}};
    SW_CHECK_NEAR(sw_sync_group_cycle(m, 2), 0.9, 1e-7);
    m[0].weight = 0.75f;
    m[1].weight = 0.25f; /* 0.75 + 0.2 */
    SW_CHECK_NEAR(sw_sync_group_cycle(m, 2), 0.95, 1e-7);
    m[0].weight = 3.0f;
    m[1].weight = 1.0f; /* weights need not sum to 1 */
    SW_CHECK_NEAR(sw_sync_group_cycle(m, 2), 0.95, 1e-7);
    /* Weight 1 on the walk alone: it plays at its own speed, the jog follows its phase. */
    m[0].weight = 1.0f;
    m[1].weight = 0.0f;
    sw_clip_instance group = {0.0f, 1.0f, SW_WRAP_LOOP, false};
    SW_CHECK_EQ_INT(sw_sync_group_advance(&group, m, 2, 0.25f, NULL, NULL), SW_OK);
    SW_CHECK_NEAR(group.time, 0.25, 0);
    SW_CHECK_NEAR(m[0].time, 0.25, 0);
    SW_CHECK_NEAR(m[1].time, 0.2, 1e-7);
    m[0].weight = 0.0f;
    sw_diag diag;
    check_failure(sw_sync_group_advance(&group, m, 2, 0.25f, NULL, &diag), SW_ERR_INVALID_DATA, &diag);
    m[0].weight = -1.0f;
    check_failure(sw_sync_group_advance(&group, m, 2, 0.25f, NULL, &diag), SW_ERR_INVALID_DATA, &diag);
    SW_CHECK_EQ_INT(diag.index, 0);
    SW_CHECK_NEAR(group.time, 0.25, 0);
}

static void test_sync_ten_loops(void) {
    /* A 1 s clip at [0, 1] with a marker at 0.3, a 0.8 s clip at [2, 2.8]
       with one at 2.24: the same phase, so every frame that passes one
       passes the other. 50/50: the cycle is 0.9 s, 10 loops are 9 s, 540
       frames at 60 fps (phase steps of 1/54, none near 0.3). */
    const float times_a[1] = {0.3f}, times_b[1] = {2.24f};
    const char* const name_a[1] = {"step_a"};
    const char* const name_b[1] = {"step_b"};
    const sw_clip_events ev_a = {1, times_a, name_a}, ev_b = {1, times_b, name_b};
    sw_sync_member m[2] = {{0.0f, 1.0f, 0.5f, &ev_a, 0.0f}, {2.0f, 0.8f, 0.5f, &ev_b, 0.0f}};
    sw_clip_instance group = {0.0f, 1.0f, SW_WRAP_LOOP, false};
    double worst = 0.0;
    size_t steps_a = 0, steps_b = 0, frames_with_one = 0;
    for (int frame = 0; frame < 540; frame++) {
        frame_events f;
        frame_begin(&f, 64);
        SW_CHECK_EQ_INT(sw_sync_group_advance(&group, m, 2, 1.0f / 60.0f, &f.out, NULL), SW_OK);
        const double pa = ((double)m[0].time - 0.0) / 1.0, pb = ((double)m[1].time - 2.0) / 0.8;
        double d = fabs(pa - pb);
        if (d > 0.5) d = 1.0 - d; /* 0.999… and 0 are neighbours on a loop */
        if (d > worst) worst = d;
        for (size_t i = 0; i < f.out.count; i++) {
            if (f.hits[i].source == 0) steps_a++;
            if (f.hits[i].source == 1) steps_b++;
        }
        if (f.out.count == 1) frames_with_one++;
    }
    printf("sync, 1 s and 0.8 s at 50/50, 10 loops: worst phase difference %.3g\n", worst);
    SW_CHECK(worst < 1e-5);
    SW_CHECK_EQ_INT(steps_a, 10);
    SW_CHECK_EQ_INT(steps_b, 10);
    SW_CHECK_EQ_INT(frames_with_one, 0);
    /* 540 × (1/60)/0.9 phase = 10 loops: back at phase 0 (float rounding aside). */
    double p = group.time > 0.5f ? group.time - 1.0 : group.time;
    SW_CHECK_NEAR(p, 0.0, 1e-4);

    /* Naively, two instances each at real time drift apart by a whole
       different duration: after 9 s the 1 s clip is at 0, the 0.8 s one at 0.25. */
    sw_clip_instance a = {0.0f, 1.0f, SW_WRAP_LOOP, false}, b = {2.0f, 1.0f, SW_WRAP_LOOP, false};
    for (int frame = 0; frame < 540; frame++) {
        sw_clip_instance_advance(&a, 0.0f, 1.0f, 1.0f / 60.0f, NULL, 0, NULL, NULL);
        sw_clip_instance_advance(&b, 2.0f, 0.8f, 1.0f / 60.0f, NULL, 0, NULL, NULL);
    }
    SW_CHECK_NEAR(sw_clip_phase(b.time, 2.0f, 0.8f), 0.25, 1e-3);
}

static void test_sync_one_big_step(void) {
    /* 2.7 s at a 0.9 s cycle = 3 loops from phase 0.25: both markers three
       times, loop by loop (member 0's, then member 1's). */
    const float times_a[1] = {0.5f}, times_b[1] = {0.4f};
    const sw_clip_events ev_a = {1, times_a, NULL}, ev_b = {1, times_b, NULL};
    sw_sync_member m[2] = {{0.0f, 1.0f, 0.5f, &ev_a, 0.0f}, {0.0f, 0.8f, 0.5f, &ev_b, 0.0f}};
    sw_clip_instance group = {0.25f, 1.0f, SW_WRAP_LOOP, false};
    frame_events f;
    frame_begin(&f, 64);
    SW_CHECK_EQ_INT(sw_sync_group_advance(&group, m, 2, 2.7f, &f.out, NULL), SW_OK);
    SW_CHECK_EQ_INT(f.out.count, 6);
    for (size_t i = 0; i < f.out.count; i++) SW_CHECK_EQ_INT(f.hits[i].source, i % 2);
    SW_CHECK_NEAR(group.time, 0.25, 1e-6);
    SW_CHECK_NEAR(m[0].time, 0.25, 1e-6);
    SW_CHECK_NEAR(m[1].time, 0.2, 1e-6);
    /* dt = 0 only places the members. */
    group.time = 0.5f;
    frame_begin(&f, 64);
    SW_CHECK_EQ_INT(sw_sync_group_advance(&group, m, 2, 0.0f, &f.out, NULL), SW_OK);
    SW_CHECK_EQ_INT(f.out.count, 0);
    SW_CHECK_NEAR(m[0].time, 0.5, 0);
    SW_CHECK_NEAR(m[1].time, 0.4, 1e-7);
}

/* ---- blend space ---------------------------------------------------------------------- */

static void check_weights(const float* w, double a, double b, double c) {
    SW_CHECK_NEAR(w[0], a, 1e-6);
    SW_CHECK_NEAR(w[1], b, 1e-6);
    SW_CHECK_NEAR(w[2], c, 1e-6);
    SW_CHECK_NEAR((double)w[0] + w[1] + w[2], 1.0, 1e-6);
}

static void test_blend_space_1d(void) {
    const float speeds[3] = {1.4f, 3.0f, 5.5f}; /* walk, jog, run */
    float w[3];
    sw_diag diag;
    SW_CHECK_EQ_INT(sw_blend_space_1d(w, speeds, 3, 0.0f, &diag), SW_OK);
    check_weights(w, 1, 0, 0); /* clamped below */
    sw_blend_space_1d(w, speeds, 3, 1.4f, NULL);
    check_weights(w, 1, 0, 0);
    sw_blend_space_1d(w, speeds, 3, 2.2f, NULL); /* halfway walk–jog */
    check_weights(w, 0.5, 0.5, 0);
    sw_blend_space_1d(w, speeds, 3, 1.8f, NULL); /* 0.4 / 1.6 = 1/4 of the way */
    check_weights(w, 0.75, 0.25, 0);
    sw_blend_space_1d(w, speeds, 3, 3.0f, NULL);
    check_weights(w, 0, 1, 0);
    SW_CHECK(w[0] == 0.0f && w[1] == 1.0f && w[2] == 0.0f); /* exactly one clip at a threshold */
    sw_blend_space_1d(w, speeds, 3, 3.5f, NULL); /* 0.5 / 2.5 = 0.2 */
    check_weights(w, 0, 0.8, 0.2);
    sw_blend_space_1d(w, speeds, 3, 4.25f, NULL);
    check_weights(w, 0, 0.5, 0.5);
    sw_blend_space_1d(w, speeds, 3, 5.5f, NULL);
    check_weights(w, 0, 0, 1);
    sw_blend_space_1d(w, speeds, 3, 9.0f, NULL);
    check_weights(w, 0, 0, 1); /* clamped above */
    float one;
    SW_CHECK_EQ_INT(sw_blend_space_1d(&one, speeds, 1, 2.0f, NULL), SW_OK);
    SW_CHECK_NEAR(one, 1.0, 0);

    const float unsorted[3] = {1.4f, 1.4f, 5.5f};
    check_failure(sw_blend_space_1d(w, unsorted, 3, 2.0f, &diag), SW_ERR_INVALID_DATA, &diag);
    SW_CHECK_EQ_INT(diag.index, 1);
    check_failure(sw_blend_space_1d(w, speeds, 3, NAN, &diag), SW_ERR_INVALID_DATA, &diag);
    check_failure(sw_blend_space_1d(w, speeds, 0, 2.0f, &diag), SW_ERR_INVALID_ARGUMENT, &diag);
}

/* ---- pose blends ------------------------------------------------------------------------ */

static sw_quat axis_angle(double x, double y, double z, double radians) {
    const double n = sqrt(x * x + y * y + z * z), s = sin(0.5 * radians) / n;
    return (sw_quat){(float)(x * s), (float)(y * s), (float)(z * s), (float)cos(0.5 * radians)};
}

static void make_poses(sw_transform* rest, sw_transform* a, sw_transform* b) {
    for (int j = 0; j < 3; j++) {
        rest[j] = sw_transform_identity();
        a[j].translation = sw_vec3_make(0.1f * (float)j, 1.0f, -0.5f);
        a[j].rotation = axis_angle(1, 2, 3, 0.3 + 0.2 * j);
        a[j].scale = sw_vec3_make(1.0f, 1.0f, 1.0f);
        b[j].translation = sw_vec3_make(0.3f, -1.0f, 0.25f * (float)j);
        b[j].rotation = axis_angle(-1, 0.5, 2, 1.7 - 0.1 * j);
        b[j].scale = sw_vec3_make(2.0f, 1.0f, 0.5f);
    }
}

/* (q0 + q1)/|q0 + q1| and slerp(q0, q1, ½) = sin(θ/2)/sin θ · (q0 + q1), in double. */
static void check_half_rotation(sw_quat got, sw_quat q0, sw_quat q1) {
    const double s[4] = {(double)q0.x + q1.x, (double)q0.y + q1.y, (double)q0.z + q1.z, (double)q0.w + q1.w};
    const double n = sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2] + s[3] * s[3]);
    const double cos_theta = (double)q0.x * q1.x + (double)q0.y * q1.y + (double)q0.z * q1.z + (double)q0.w * q1.w;
    const double theta = acos(cos_theta), k = sin(0.5 * theta) / sin(theta);
    const double g[4] = {got.x, got.y, got.z, got.w};
    for (int c = 0; c < 4; c++) {
        SW_CHECK_NEAR(g[c], s[c] / n, 1e-6);
        SW_CHECK_NEAR(g[c], s[c] * k, 1e-6);
    }
}

static void test_blend_poses(void) {
    sw_transform rest[3], a[3], b[3], out[3];
    make_poses(rest, a, b);
    const sw_transform* poses[2] = {a, b};
    sw_blend_layer layers[3]; /* one per pose, for the three-way blend below */
    sw_diag diag;

    /* (1, 0) and (0, 1): the pose itself, bit for bit. */
    SW_CHECK_EQ_INT(sw_blend_poses(out, 3, rest, poses, (const float[]){1.0f, 0.0f}, 2, layers, &diag), SW_OK);
    SW_CHECK(memcmp(out, a, sizeof a) == 0);
    SW_CHECK_EQ_INT(sw_blend_poses(out, 3, rest, poses, (const float[]){0.0f, 1.0f}, 2, layers, &diag), SW_OK);
    SW_CHECK(memcmp(out, b, sizeof b) == 0);

    /* Identical poses at any weights: that pose. */
    const sw_transform* same[3] = {b, b, b};
    SW_CHECK_EQ_INT(sw_blend_poses(out, 3, rest, same, (const float[]){0.2f, 0.3f, 0.5f}, 3, layers, &diag), SW_OK);
    for (int j = 0; j < 3; j++) {
        SW_CHECK_NEAR(out[j].translation.x, b[j].translation.x, 1e-6);
        SW_CHECK_NEAR(out[j].translation.z, b[j].translation.z, 1e-6);
        SW_CHECK_NEAR(out[j].scale.x, 2.0, 1e-6);
        SW_CHECK_NEAR(out[j].rotation.x, b[j].rotation.x, 1e-6);
        SW_CHECK_NEAR(out[j].rotation.y, b[j].rotation.y, 1e-6);
        SW_CHECK_NEAR(out[j].rotation.z, b[j].rotation.z, 1e-6);
        SW_CHECK_NEAR(out[j].rotation.w, b[j].rotation.w, 1e-6);
    }

    /* 50/50: averages, and the rotation is the normalised sum = slerp at ½. */
    SW_CHECK_EQ_INT(sw_blend_poses(out, 3, rest, poses, (const float[]){0.5f, 0.5f}, 2, layers, &diag), SW_OK);
    for (int j = 0; j < 3; j++) {
        SW_CHECK_NEAR(out[j].translation.x, 0.5 * (0.1 * j + 0.3), 1e-6);
        SW_CHECK_NEAR(out[j].translation.y, 0.0, 1e-6);
        SW_CHECK_NEAR(out[j].translation.z, 0.5 * (-0.5 + 0.25 * j), 1e-6);
        SW_CHECK_NEAR(out[j].scale.x, 1.5, 1e-6);
        SW_CHECK_NEAR(out[j].scale.z, 0.75, 1e-6);
        check_half_rotation(out[j].rotation, a[j].rotation, b[j].rotation);
        const sw_quat s = sw_quat_slerp(a[j].rotation, b[j].rotation, 0.5f);
        SW_CHECK_NEAR(out[j].rotation.w, s.w, 1e-6);
    }

    /* In place: out may be one of the poses. */
    sw_transform c[3];
    memcpy(c, a, sizeof a);
    const sw_transform* in_place[2] = {c, b};
    SW_CHECK_EQ_INT(sw_blend_poses(c, 3, rest, in_place, (const float[]){0.5f, 0.5f}, 2, layers, &diag), SW_OK);
    SW_CHECK(memcmp(c, out, sizeof c) == 0);

    /* No weight: the rest pose. */
    SW_CHECK_EQ_INT(sw_blend_poses(out, 3, rest, poses, (const float[]){0.0f, 0.0f}, 2, layers, &diag), SW_OK);
    SW_CHECK(memcmp(out, rest, sizeof rest) == 0);

    check_failure(sw_blend_poses(out, 3, rest, poses, (const float[]){-0.5f, 1.0f}, 2, layers, &diag),
                  SW_ERR_INVALID_DATA, &diag);
    check_failure(sw_blend_poses(out, 3, rest, poses, (const float[]){0.5f, 0.5f}, 2, NULL, &diag),
                  SW_ERR_INVALID_ARGUMENT, &diag);
    check_failure(sw_blend_poses(out, 0, rest, poses, (const float[]){0.5f, 0.5f}, 2, layers, &diag),
                  SW_ERR_INVALID_ARGUMENT, &diag);
}

/* A crossfade from A to B over [1, 3]: A before 1, B after 3, 50/50 at 2. */
static void test_crossfade_invariants(void) {
    sw_transform rest[3], a[3], b[3], out[3], half[3];
    make_poses(rest, a, b);
    const sw_transform* poses[2] = {a, b};
    sw_blend_layer layers[2];
    const sw_crossfade fade = {1.0f, 2.0f, SW_FADE_LINEAR};
    SW_CHECK_EQ_INT(sw_blend_poses(half, 3, rest, poses, (const float[]){0.5f, 0.5f}, 2, layers, NULL), SW_OK);
    const float times[5] = {0.0f, 1.0f, 2.0f, 3.0f, 3.5f};
    for (int k = 0; k < 5; k++) {
        const float w = sw_crossfade_weight(&fade, times[k]);
        SW_CHECK_EQ_INT(sw_blend_poses(out, 3, rest, poses, (const float[]){1.0f - w, w}, 2, layers, NULL), SW_OK);
        if (times[k] <= 1.0f) SW_CHECK(memcmp(out, a, sizeof a) == 0);
        if (times[k] >= 3.0f) SW_CHECK(memcmp(out, b, sizeof b) == 0);
        if (times[k] == 2.0f) SW_CHECK(memcmp(out, half, sizeof half) == 0);
    }
}

/* ---- arnaud's walk and jog, synchronised ------------------------------------------------ */

static int find_clip(const sw_model* model, const char* name) {
    for (size_t i = 0; i < model->animation_count; i++)
        if (model->animations[i].name && strcmp(model->animations[i].name, name) == 0) return (int)i;
    return -1;
}

static int find_node(const sw_model* model, const char* name) {
    for (size_t i = 0; i < model->node_count; i++)
        if (model->nodes[i].name && strcmp(model->nodes[i].name, name) == 0) return (int)i;
    return -1;
}

typedef struct pose_buffer {
    sw_pose pose;
    void* memory;
} pose_buffer;

static bool pose_make(pose_buffer* p, const sw_model* model) {
    const sw_pose_sizes sizes = sw_pose_sizes_of(model);
    p->memory = aligned_alloc(16, (sw_pose_memory_size(&sizes) + 15) / 16 * 16);
    if (p->memory) sw_pose_bind(&p->pose, &sizes, p->memory);
    return p->memory != NULL;
}

/* +1 when the left foot is higher (swinging), −1 when the right one is. */
static int swinging_foot(const sw_pose* pose, int left, int right) {
    return pose->world[left].m[1][3] > pose->world[right].m[1][3] ? 1 : -1;
}

static void test_arnaud_walk_jog_in_phase(void) {
    const char* assets = getenv("SINEW_ASSETS");
    if (!assets || !*assets)
        SW_SKIP("SINEW_ASSETS is not set: the walk/jog sync test on arnaud_locomotion.glb needs it");
    char path[1024];
    snprintf(path, sizeof path, "%s/gltf/pab/arnaud_locomotion.glb", assets);
    sw_model* model = NULL;
    sw_diag diag;
    const sw_result loaded = sw_gltf_load_file(path, NULL, &model, &diag);
    SW_CHECK_EQ_INT(loaded, SW_OK);
    if (loaded != SW_OK) {
        fprintf(stderr, "  %s\n", diag.message);
        return;
    }
    const int walk = find_clip(model, "walk"), jog = find_clip(model, "jog");
    const int left = find_node(model, "LeftFoot"), right = find_node(model, "RightFoot");
    pose_buffer pw = {0}, pj = {0}, pb = {0};
    SW_CHECK(walk >= 0 && jog >= 0 && left >= 0 && right >= 0);
    if (walk < 0 || jog < 0 || left < 0 || right < 0 || !pose_make(&pw, model) || !pose_make(&pj, model) ||
        !pose_make(&pb, model))
        goto done;
    {
        const sw_clip* cw = &model->animations[walk];
        const sw_clip* cj = &model->animations[jog];
        /* Clip ranges as sw_pose_sample plays them: [0, duration]. */
        sw_sync_member m[2] = {{0.0f, cw->duration, 0.5f, NULL, 0.0f}, {0.0f, cj->duration, 0.5f, NULL, 0.0f}};
        const float cycle = sw_sync_group_cycle(m, 2);
        SW_CHECK_NEAR(cycle, 0.5 * (cw->duration + cj->duration), 1e-6);
        sw_clip_instance group = {0.0f, 1.0f, SW_WRAP_LOOP, false};
        sw_clip_instance naive_w = {0.0f, 1.0f, SW_WRAP_LOOP, false}, naive_j = naive_w;
        const int frames = (int)ceil(10.0 * cycle * 60.0);
        double worst = 0.0;
        int agree = 0, agree_naive = 0;
        const sw_transform* poses[2] = {pw.pose.local, pj.pose.local};
        sw_blend_layer layers[2];
        const float half[2] = {0.5f, 0.5f};
        for (int frame = 0; frame < frames; frame++) {
            SW_CHECK_EQ_INT(sw_sync_group_advance(&group, m, 2, 1.0f / 60.0f, NULL, &diag), SW_OK);
            double d = fabs((double)sw_clip_phase(m[0].time, 0.0f, cw->duration) -
                            (double)sw_clip_phase(m[1].time, 0.0f, cj->duration));
            if (d > 0.5) d = 1.0 - d;
            if (d > worst) worst = d;

            SW_CHECK_EQ_INT(sw_pose_evaluate(model, cw, m[0].time, true, &pw.pose, &diag), SW_OK);
            SW_CHECK_EQ_INT(sw_pose_evaluate(model, cj, m[1].time, true, &pj.pose, &diag), SW_OK);
            agree += swinging_foot(&pw.pose, left, right) == swinging_foot(&pj.pose, left, right);

            /* The blended character: both locals 50/50, then world matrices. */
            SW_CHECK_EQ_INT(sw_blend_poses(pb.pose.local, model->node_count, model->rest_local, poses, half, 2,
                                           layers, &diag), SW_OK);
            sw_pose_update(model, &pb.pose);
            const sw_quat qw = pw.pose.local[left].rotation, qj = pj.pose.local[left].rotation;
            if (frame % 60 == 0) {
                const float sign = sw_quat_dot(qw, qj) < 0.0f ? -1.0f : 1.0f;
                check_half_rotation(pb.pose.local[left].rotation, qw,
                                    (sw_quat){sign * qj.x, sign * qj.y, sign * qj.z, sign * qj.w});
            }

            /* The same two clips left to run at their own speeds. */
            sw_clip_instance_advance(&naive_w, 0.0f, cw->duration, 1.0f / 60.0f, NULL, 0, NULL, NULL);
            sw_clip_instance_advance(&naive_j, 0.0f, cj->duration, 1.0f / 60.0f, NULL, 0, NULL, NULL);
            sw_pose_evaluate(model, cw, naive_w.time, true, &pw.pose, &diag);
            sw_pose_evaluate(model, cj, naive_j.time, true, &pj.pose, &diag);
            agree_naive += swinging_foot(&pw.pose, left, right) == swinging_foot(&pj.pose, left, right);
        }
        printf("arnaud walk (%.4g s) + jog (%.4g s), 50/50, cycle %.4g s, %d frames (10 loops): worst phase "
               "difference %.3g; same foot swinging in %.1f%% of frames (unsynchronised: %.1f%%)\n",
               (double)cw->duration, (double)cj->duration, (double)cycle, frames, worst, 100.0 * agree / frames,
               100.0 * agree_naive / frames);
        SW_CHECK(worst < 1e-5);
        /* The clips are authored with the same foot order, so in phase the same foot swings. */
        SW_CHECK(agree >= frames * 8 / 10);
    }
done:
    free(pw.memory);
    free(pj.memory);
    free(pb.memory);
    sw_model_free(model);
}

int main(void) {
    SW_RUN(test_events_forward);
    SW_RUN(test_events_multiple_loops);
    SW_RUN(test_events_backward);
    SW_RUN(test_events_loop_ends_are_one_instant);
    SW_RUN(test_events_ping_pong);
    SW_RUN(test_events_clamp);
    SW_RUN(test_events_offset_range);
    SW_RUN(test_events_once_per_loop);
    SW_RUN(test_events_split_anywhere);
    SW_RUN(test_advance_validity);
    SW_RUN(test_crossfade);
    SW_RUN(test_sync_cycle);
    SW_RUN(test_sync_ten_loops);
    SW_RUN(test_sync_one_big_step);
    SW_RUN(test_blend_space_1d);
    SW_RUN(test_blend_poses);
    SW_RUN(test_crossfade_invariants);
    SW_RUN(test_arnaud_walk_jog_in_phase);
    return sw_test_finish();
}
