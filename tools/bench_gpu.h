/* sinew bench skin --gpu (tools/cmd_bench_gpu.c), called by cmd_bench.c
   with the model loaded and posed. */
#ifndef SINEW_TOOLS_BENCH_GPU_H
#define SINEW_TOOLS_BENCH_GPU_H

#include "tool_common.h"

#include "sinew/gpu.h"

typedef struct bench_gpu_options {
    const char* model;
    size_t copies;          /* copies of the model's skinned primitives */
    int reps;
    bool dqs, normals, tangents, json;
    sw_gpu_skin_path path;
} bench_gpu_options;

/* The pose's palettes, one per skin, as the CPU benchmark made them. */
typedef struct bench_gpu_palettes {
    sw_mat34* const* matrices;
    sw_dualquat* const* dual_quats;
    sw_mat34* const* stretches;   /* NULL when no skin scales */
} bench_gpu_palettes;

/* A skinned primitive of the model, with the skin of the node that draws it. */
typedef struct bench_skinned {
    const sw_model_primitive* prim;
    size_t skin;
} bench_skinned;

/* Benchmarks `count` (at least one) skinned primitives of `a` at the pose
   of `palettes`; returns the exit status. */
int bench_skin_gpu(const bench_gpu_options* opt, const sw_model* a, const bench_gpu_palettes* palettes,
                   const bench_skinned* skinned, size_t count, tool_args* args);

#endif
