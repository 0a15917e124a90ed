/* The full-body IK part of sinew bench anim (tools/bench_fbik.c). */
#ifndef SINEW_TOOLS_BENCH_FBIK_H
#define SINEW_TOOLS_BENCH_FBIK_H

#include <stdbool.h>

#include "bench_stats.h"
#include "json_writer.h"
#include "sinew/model.h"

typedef struct bench_fbik_report {
    bool ran;                 /* false: the model has no humanoid map full-body IK can use */
    char reason[320];         /* why not, when !ran */
    int reps;
    stats microseconds;       /* one sw_fbik_solve, per character */
    double worst_residual;    /* metres, over every solve (all 5 effectors + hips reachable) */
    double median_iterations;
    int reached;              /* solves with every effector within 1 mm */
    double worst_violation;   /* radians, over every limited joint of every solve */
    int violations;           /* limited joints found outside their limits (> 1e-4 rad) */
} bench_fbik_report;

/* Solves full-body IK `reps` times on `model` posed by `clip` (NULL: the
   rest pose) at 1/60 s steps: five effectors (head, hands, feet) and the
   hips, hands circling reachable points, feet planted where the clip puts
   them. Single-threaded. false only when out of memory. */
bool bench_fbik_run(const sw_model* model, const sw_clip* clip, int reps, bench_fbik_report* out);

void bench_fbik_print_text(const bench_fbik_report* r);
void bench_fbik_print_json(json_writer* w, const bench_fbik_report* r);

#endif
