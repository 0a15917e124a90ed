/* Frame cost per pass (sw_renderer_get_pass_times): every pass of the
   frame is named, in frame order, once; its times are finite and not
   negative; the passes' CPU times add up to no more than the frame's own
   wall time, and their GPU times to no more than the wall time of drawing
   it and reading it back (the queries run inside that). With exact times off, the
   CPU times are what the passes took to submit; with exact on, each pass
   ends in glFinish. A split frame runs the scene's passes twice and counts
   both. The demo character on a small renderer (test_post_scene.h). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <time.h>

#include "test_post_scene.h"

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

static const char* const k_passes[] = {"skinning", "shadow", "gbuffer", "lighting", "transparent", "post"};
enum { PASSES = sizeof k_passes / sizeof k_passes[0], MAX = 32 };

/* The names: the frame's passes in order, each once (later passes may be
   added between them by newer code: the known ones keep their order). */
static void test_names(void) {
    sw_render_pass_time t[MAX];
    const size_t n = sw_renderer_get_pass_times(g_small, t, MAX);
    SW_CHECK(n >= PASSES && n <= MAX);
    SW_CHECK_EQ_INT((int)sw_renderer_get_pass_times(g_small, NULL, 0), (int)n);
    size_t at = 0;
    for (size_t i = 0; i < n && i < MAX; i++) {
        SW_CHECK(t[i].name && t[i].name[0]);
        for (size_t j = 0; j < i; j++) SW_CHECK(strcmp(t[i].name, t[j].name) != 0);
        if (at < PASSES && strcmp(t[i].name, k_passes[at]) == 0) at++;
    }
    SW_CHECK_EQ_INT((int)at, PASSES);
    /* capacity smaller than the count: only that many written */
    sw_render_pass_time two[3] = {{0}, {0}, {.name = "untouched"}};
    SW_CHECK_EQ_INT((int)sw_renderer_get_pass_times(g_small, two, 2), (int)n);
    SW_CHECK(strcmp(two[2].name, "untouched") == 0);
    SW_CHECK(strcmp(two[0].name, t[0].name) == 0);
}

static bool sane(double ms) { return isfinite(ms) && ms >= 0.0; }

/* Draws `frames` frames; checks every pass's times after them. */
static void check_frames(bool exact, bool split, int frames) {
    sw_renderer_set_exact_pass_times(g_small, exact);
    for (int f = 0; f < frames; f++) {
        pose_at(0.05f * (float)f);
        const double t0 = now_ms();
        draw(g_small, (sw_render_frame){.first_frame = f == 0, .post.aa = SW_RENDER_AA_EDGE_TAA, .debug.split = split,
                                        .method = SW_SKIN_LBS, .post.frame_index = (uint32_t)f},
             NULL);
        const double drawn = now_ms() - t0;
        sw_render_pass_time t[MAX];
        size_t n = sw_renderer_get_pass_times(g_small, t, MAX);
        if (n > MAX) n = MAX;
        double cpu = 0.0;
        for (size_t i = 0; i < n; i++) {
            SW_CHECK(sane(t[i].cpu_ms) && sane(t[i].gpu_ms) && sane(t[i].cpu_average_ms) && sane(t[i].gpu_average_ms));
            cpu += t[i].cpu_ms;
        }
        /* the passes are disjoint parts of the draw call (+ clock reads) */
        SW_CHECK(cpu <= drawn + 0.5);
        if (cpu > drawn + 0.5) fprintf(stderr, "  frame %d: passes %.3f ms, frame %.3f ms\n", f, cpu, drawn);
    }
    /* the GPU answers, waited for: the last frame's, inside its draw + finish */
    sw_renderer_wait_pass_times(g_small);
    sw_render_pass_time t[MAX];
    size_t n = sw_renderer_get_pass_times(g_small, t, MAX);
    if (n > MAX) n = MAX;
    size_t gpu_answered = 0;
    for (size_t i = 0; i < n; i++) {
        SW_CHECK(sane(t[i].gpu_ms) && sane(t[i].gpu_average_ms));
        SW_CHECK(t[i].cpu_frames > 0);
        if (t[i].gpu_frames == 0) SW_CHECK(t[i].gpu_ms == 0.0 && t[i].gpu_average_ms == 0.0); /* no answer */
        gpu_answered += t[i].gpu_frames > 0;
        if (strcmp(t[i].name, "skinning") == 0 || strcmp(t[i].name, "gbuffer") == 0 || strcmp(t[i].name, "post") == 0)
            SW_CHECK(t[i].cpu_ms > 0.0); /* work was done */
    }
    SW_CHECK(gpu_answered >= 3); /* some passes draw on any driver: G-buffer, lighting, post */
    sw_renderer_stats st;
    sw_renderer_get_stats(g_small, &st);
    SW_CHECK_NEAR(st.skin_gpu_ms, t[0].gpu_ms, 1e-9); /* the stats' skinning time is the pass's */
}

/* The GPU times of one frame, waited for, add up to no more than the wall
   time of drawing it and reading its image back (which waits for it). */
static void test_gpu_within_frame(void) {
    sw_renderer_wait_pass_times(g_small);
    pose_at(0.3f);
    uint8_t* image = malloc((size_t)N * N * 4);
    SW_CHECK(image != NULL);
    if (!image) return;
    const double t0 = now_ms();
    draw(g_small, (sw_render_frame){.post.aa = SW_RENDER_AA_EDGE}, image);
    const double wall = now_ms() - t0;
    free(image);
    sw_renderer_wait_pass_times(g_small);
    sw_render_pass_time t[MAX];
    size_t n = sw_renderer_get_pass_times(g_small, t, MAX);
    if (n > MAX) n = MAX;
    double gpu = 0.0;
    for (size_t i = 0; i < n; i++) gpu += t[i].gpu_ms;
    SW_CHECK(gpu > 0.0);
    SW_CHECK(gpu <= wall + 1.0);
    if (gpu > wall + 1.0) {
        fprintf(stderr, "  GPU %.3f ms in a frame of %.3f ms:", gpu, wall);
        for (size_t i = 0; i < n; i++) fprintf(stderr, " %s %.3f", t[i].name, t[i].gpu_ms);
        fprintf(stderr, "\n");
    }
}

static void test_submit_times(void) { check_frames(false, false, 6); }
static void test_exact_times(void) { check_frames(true, false, 3); }
static void test_split_frame(void) { check_frames(true, true, 2); }

int main(void) {
    int early = sw_test_gl_begin(&g_context);
    if (early >= 0) return early;
    if (post_scene_begin()) {
        SW_CHECK_EQ_INT((int)sw_renderer_get_pass_times(NULL, NULL, 0), 0);
        SW_RUN(test_names);
        SW_RUN(test_submit_times);
        SW_RUN(test_exact_times);
        SW_RUN(test_split_frame);
        SW_RUN(test_gpu_within_frame);
    } else {
        SW_CHECK(false);
    }
    post_scene_end();
    return sw_test_finish();
}
