/* The Assimp importer on untrusted input (docs/import.md, "Assimp's
   options for untrusted files"), files written here:
   - an SMD is one file with one clip: Assimp's animation list is off, so
     its lines are not taken as animation file names (with it on, a
     16-line SMD gave 17 clips named "version", "nodes", ..., and a 30 KB
     one 2447 clips and 300 MB);
   - ticks per second as read: a BVH frame time past a float's range
     (inf, 1e300: 0 ticks per second from Assimp) is an error, not 25 fps;
     a negative one (-0.1: -10 ticks per second) is read at 25 with a
     warning naming the value;
   - Assimp's parse errors name the file once ("line 5", not the name again).
   Durations are checked against frames / rate worked out by hand.
   Skipped without Assimp. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "sinew/assimp.h"

/* A two-joint SMD with `frames` skeleton frames and one triangle. */
static char* smd_text(int frames) {
    size_t cap = 400 + (size_t)frames * 64;
    char* s = malloc(cap);
    if (!s) return NULL;
    size_t n = (size_t)snprintf(s, cap, "version 1\nnodes\n0 \"root\" -1\n1 \"child\" 0\nend\nskeleton\n");
    for (int t = 0; t < frames; t++)
        n += (size_t)snprintf(s + n, cap - n, "time %d\n0 0 0 0 0 0 0\n1 0 1 0 0 0 %d\n", t, t % 7);
    snprintf(s + n, cap - n,
             "end\ntriangles\nmat\n0 0 0 0 0 0 1 0 0 1 0 1 1.0\n0 1 0 0 0 0 1 1 0 1 1 1.0\n"
             "1 0 1 0 0 0 1 0 1 1 1 1.0\nend\n");
    return s;
}

static sw_model* load_text(const char* text, const char* name, sw_diag* diag) {
    sw_model* m = NULL;
    if (sw_assimp_load_memory(text, strlen(text), name, NULL, NULL, &m, diag) != SW_OK) return NULL;
    return m;
}

static void test_smd_lines_are_not_clips(void) {
    char* text = smd_text(1); /* 17 lines */
    SW_CHECK(text != NULL);
    if (!text) return;
    sw_diag diag;
    sw_model* m = load_text(text, "lines.smd", &diag);
    free(text);
    SW_CHECK(m != NULL);
    if (!m) return;
    SW_CHECK_EQ_INT(m->animation_count, 1);
    static const char* const lines[] = {"version", "nodes", "end", "skeleton", "time", "triangles", "mat", "0", "1"};
    for (size_t a = 0; a < m->animation_count; a++)
        for (size_t l = 0; l < sizeof lines / sizeof lines[0]; l++)
            SW_CHECK(!m->animations[a].name || strcmp(m->animations[a].name, lines[l]) != 0);
    sw_model_free(m);
}

/* 30 KB of frames: one clip of 812 / 25 s (SMD's 25 frames per second). */
static void test_smd_30k_one_clip(void) {
    char* text = smd_text(810);
    SW_CHECK(text != NULL && strlen(text) > 29000);
    if (!text) return;
    sw_diag diag;
    sw_model* m = load_text(text, "frames.smd", &diag);
    free(text);
    SW_CHECK(m != NULL);
    if (!m) return;
    SW_CHECK_EQ_INT(m->animation_count, 1);
    SW_CHECK_NEAR(m->animations[0].duration, 809.0 / 25.0, 1e-3);
    sw_model_free(m);
}

/* A two-joint BVH of 3 frames with the given frame time. */
static char* bvh_text(const char* frame_time) {
    static const char format[] = "HIERARCHY\nROOT hips\n{\n  OFFSET 0 0 0\n"
                                 "  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n"
                                 "  JOINT knee\n  {\n    OFFSET 0 1 0\n    CHANNELS 3 Zrotation Xrotation Yrotation\n"
                                 "    End Site\n    {\n      OFFSET 0 1 0\n    }\n  }\n}\n"
                                 "MOTION\nFrames: 3\nFrame Time: %s\n"
                                 "0 0 0 0 0 0 0 0 0\n0 0 0 0 0 0 45 0 0\n0 0 0 0 0 0 90 0 0\n";
    size_t cap = sizeof format + strlen(frame_time);
    char* s = malloc(cap);
    if (s) snprintf(s, cap, format, frame_time);
    return s;
}

static void test_bvh_frame_times(void) {
    static const struct {
        const char* frame_time;
        float duration;       /* < 0: an error */
        const char* message;  /* the error, or the warning; NULL: none */
    } cases[] = {
        {"0.1", 0.2f, NULL},
        {"inf", -1.0f, "t.bvh: animation 'Motion': the frame time is infinite or too long (0 ticks per second)"},
        {"1e300", -1.0f, "t.bvh: animation 'Motion': the frame time is infinite or too long (0 ticks per second)"},
        {"-inf", -1.0f, "t.bvh: animation 'Motion': the frame time is infinite or too long (0 ticks per second)"},
        /* 1e38 fits a float: 1e-38 ticks per second, a tick of 3e30 years */
        {"1e38", -1.0f, "t.bvh: animation 'Motion': 1e-38 ticks per second"},
        {"-0.1", 2.0f / 25.0f, "t.bvh: animation 'Motion': -10 ticks per second, negative; read as 25"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char* text = bvh_text(cases[i].frame_time);
        SW_CHECK(text != NULL);
        if (!text) continue;
        sw_diag diag = {0};
        sw_model* m = load_text(text, "t.bvh", &diag);
        free(text);
        if (cases[i].duration < 0.0f) {
            SW_CHECK(m == NULL);
            if (strcmp(diag.message, cases[i].message) != 0)
                fprintf(stderr, "  frame time %s: %s\n  wanted: %s\n", cases[i].frame_time, diag.message,
                        cases[i].message);
            SW_CHECK(strcmp(diag.message, cases[i].message) == 0);
            sw_model_free(m);
            continue;
        }
        SW_CHECK(m != NULL);
        if (!m) continue;
        SW_CHECK_EQ_INT(m->animation_count, 1);
        SW_CHECK_NEAR(m->animations[0].duration, cases[i].duration, 1e-6);
        SW_CHECK_EQ_INT(m->warning_count, cases[i].message ? 1 : 0);
        if (cases[i].message && m->warning_count == 1) SW_CHECK(strcmp(m->warnings[0], cases[i].message) == 0);
        sw_model_free(m);
    }
}

/* Assimp says "<its name for the buffer>:3 - ..."; the name is the file's,
   already at the start of the message. (The error is in the header: a
   damaged joint would leak Assimp's node, tests/lsan.supp.) */
static void test_parse_error_names_the_file_once(void) {
    sw_diag diag = {0};
    sw_model* m = load_text("\n\nMOTION\n", "cut.bvh", &diag);
    SW_CHECK(m == NULL);
    sw_model_free(m);
    const char* first = strstr(diag.message, "cut.bvh");
    SW_CHECK(first == diag.message);
    SW_CHECK(first && !strstr(first + 1, "cut.bvh"));
    SW_CHECK(strstr(diag.message, "cut.bvh: Assimp cannot read it: line 3 - ") == diag.message);
    if (!(strstr(diag.message, "cut.bvh: Assimp cannot read it: line 3 - ") == diag.message))
        fprintf(stderr, "  message: %s\n", diag.message);
}

int main(void) {
    if (!sw_assimp_available()) {
        fprintf(stderr, "  skipped: built without Assimp\n");
        printf("0 passed, 0 failed, 4 skipped\n");
        return EXIT_SUCCESS;
    }
    SW_RUN(test_smd_lines_are_not_clips);
    SW_RUN(test_smd_30k_one_clip);
    SW_RUN(test_bvh_frame_times);
    SW_RUN(test_parse_error_names_the_file_once);
    return sw_test_finish();
}
