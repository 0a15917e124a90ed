/* What the benchmarks share: a monotonic clock and min / median / max
   summaries (text and JSON). */
#ifndef SINEW_TOOLS_BENCH_STATS_H
#define SINEW_TOOLS_BENCH_STATS_H

#include "json_writer.h"

typedef struct stats {
    double min, median, max;
} stats;

/* Seconds on a monotonic clock. */
double now_seconds(void);
/* Sorts `values` (n ≥ 1) in place and summarises them. */
stats summarise(double* values, int n);
/* "key": {"min": …, "median": …, "max": …} */
void json_stats(json_writer* w, const char* key, stats s);

#endif
