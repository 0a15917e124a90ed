/* The GL context of the GPU and renderer tests: created once per test
   program on whatever EGL gives (Mesa's llvmpipe without a GPU). */
#ifndef SINEW_TEST_GL_HARNESS_H
#define SINEW_TEST_GL_HARNESS_H

#include <stdio.h>

#include "sinew/gpu.h"

/* Creates the context into *out. Returns -1 to go on, else the exit status
   main() should return now: 0 after saying the test is skipped because no
   EGL display exists at all, 1 when one exists but the context fails. */
static inline int sw_test_gl_begin(sw_gl_context** out) {
    sw_diag d = {0};
    sw_result res = sw_gl_context_create(NULL, out, &d);
    if (res == SW_ERR_UNSUPPORTED) {
        printf("skipped: no EGL display on this machine (%s)\n", d.message);
        return 0;
    }
    if (res != SW_OK) {
        fprintf(stderr, "GL context: %s\n", d.message);
        return 1;
    }
    return -1;
}

#endif
