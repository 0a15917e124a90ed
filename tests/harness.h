/* A test harness in one header: each test file is one executable run by
   ctest, made of small named functions registered in main().

     static void test_something(void) { SW_CHECK(1 + 1 == 2); SW_CHECK_NEAR(x, 0.5, 1e-6); }
     int main(void) { SW_RUN(test_something); return sw_test_finish(); }

   A failed check prints file, line, the expression and the values, marks the
   current test failed and goes on. sw_test_finish() prints
   "N passed, N failed[, N skipped]" and returns the exit status. */
#ifndef SINEW_TEST_HARNESS_H
#define SINEW_TEST_HARNESS_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static int sw__tests_passed, sw__tests_failed, sw__tests_skipped;
static int sw__current_failures;
static int sw__current_skipped;

#define SW_CHECK(cond)                                                              \
    do {                                                                            \
        if (!(cond)) {                                                              \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            sw__current_failures++;                                                 \
        }                                                                           \
    } while (0)

/* |a − b| ≤ tol, with NaN always failing. */
#define SW_CHECK_NEAR(a, b, tol)                                                          \
    do {                                                                                  \
        double sw__a = (double)(a), sw__b = (double)(b), sw__t = (double)(tol);           \
        if (!(fabs(sw__a - sw__b) <= sw__t)) {                                            \
            fprintf(stderr, "%s:%d: check failed: |%s - %s| <= %g (%.9g vs %.9g, diff %.3g)\n", \
                    __FILE__, __LINE__, #a, #b, sw__t, sw__a, sw__b, fabs(sw__a - sw__b)); \
            sw__current_failures++;                                                       \
        }                                                                                 \
    } while (0)

#define SW_CHECK_EQ_INT(a, b)                                                                  \
    do {                                                                                       \
        long long sw__a = (long long)(a), sw__b = (long long)(b);                              \
        if (sw__a != sw__b) {                                                                  \
            fprintf(stderr, "%s:%d: check failed: %s == %s (%lld vs %lld)\n", __FILE__, __LINE__, \
                    #a, #b, sw__a, sw__b);                                                     \
            sw__current_failures++;                                                            \
        }                                                                                      \
    } while (0)

/* Inside a test: stop it and count it as skipped, saying why. */
#define SW_SKIP(reason)                                                       \
    do {                                                                      \
        fprintf(stderr, "  skipped: %s\n", reason);                           \
        sw__current_skipped = 1;                                              \
        return;                                                               \
    } while (0)

#define SW_RUN(fn)                                                          \
    do {                                                                    \
        sw__current_failures = 0;                                           \
        sw__current_skipped = 0;                                            \
        fn();                                                               \
        if (sw__current_failures) {                                         \
            sw__tests_failed++;                                             \
            fprintf(stderr, "FAIL %s (%d checks)\n", #fn, sw__current_failures); \
        } else if (sw__current_skipped) {                                   \
            sw__tests_skipped++;                                            \
            fprintf(stderr, "SKIP %s\n", #fn);                              \
        } else {                                                            \
            sw__tests_passed++;                                             \
            fprintf(stderr, "ok   %s\n", #fn);                              \
        }                                                                   \
    } while (0)

static inline int sw_test_finish(void) {
    if (sw__tests_skipped)
        printf("%d passed, %d failed, %d skipped\n", sw__tests_passed, sw__tests_failed, sw__tests_skipped);
    else
        printf("%d passed, %d failed\n", sw__tests_passed, sw__tests_failed);
    return sw__tests_failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
