/* Benchmark summaries (see bench_stats.h). */
#define _POSIX_C_SOURCE 200809L
#include "bench_stats.h"

#include <stdlib.h>
#include <time.h>

double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int compare_doubles(const void* a, const void* b) {
    double x = *(const double*)a, y = *(const double*)b;
    return x < y ? -1 : x > y;
}

stats summarise(double* values, int n) {
    qsort(values, (size_t)n, sizeof *values, compare_doubles);
    stats s = {values[0], n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]), values[n - 1]};
    return s;
}

void json_stats(json_writer* w, const char* key, stats s) {
    json_key(w, key);
    json_begin_object(w);
    json_key(w, "min"), json_double(w, s.min);
    json_key(w, "median"), json_double(w, s.median);
    json_key(w, "max"), json_double(w, s.max);
    json_end_object(w);
}
