/* sinew bench skin --gpu (tools/cmd_bench_gpu.c), called by cmd_bench.c
   with the model loaded and posed. */
#ifndef SINEW_TOOLS_BENCH_GPU_H
#define SINEW_TOOLS_BENCH_GPU_H

#include "tool_common.h"

#include "sinew/gpu.h"

typedef struct bench_gpu_options {
    const char* model;
    long copies;            /* 0 = enough for about 1M vertices */
    int reps;
    bool dqs, normals, tangents, json;
    sw_gpu_skin_path path;
} bench_gpu_options;

/* Benchmarks the skinned primitives of `a` posed by `world`; returns the
   exit status. */
int bench_skin_gpu(const bench_gpu_options* opt, const sw_gltf_asset* a, const sw_mat34* world, tool_args* args);

#endif
