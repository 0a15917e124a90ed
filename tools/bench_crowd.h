/* sinew bench crowd (tools/cmd_bench_crowd.c), called by cmd_bench.c. */
#ifndef SINEW_TOOLS_BENCH_CROWD_H
#define SINEW_TOOLS_BENCH_CROWD_H

#include "tool_common.h"

typedef struct bench_crowd_options {
    const char* model;
    size_t characters;
    int threads, reps;
    bool dqs, gpu, json;
    bool gpu_driven; /* --gpu-driven: the GPU-driven crowd against the CPU-posed one, same GPU */
} bench_crowd_options;

/* Returns the exit status. */
int bench_crowd(const bench_crowd_options* opt, tool_args* args);

#endif
