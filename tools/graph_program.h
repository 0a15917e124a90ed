/* tools/graph_program.h — `--graph FILE` and `--set NAME=VALUE[@T]`: an
   animation graph (sinew/graph.h, read by sinew/graph_read.h) as the base
   pose of the animation options (anim_program.h), its parameters changed
   at given times.

   TIME. The graph runs from time 0 in fixed updates of 1/60 s: the pose
   at time t is the one evaluated after the last update ending at or before
   t (within 1e-4 of a step counts as that step), so any order of times
   gives the same pose for the same time; a time before the one simulated
   starts over from the start states. Before the update that starts at T,
   every --set whose time is at or before T takes effect, in the order of
   their times (ties: the command-line order): a set at 1.0 s is seen by
   the transitions of the update from 1.0 s on. At most an hour.

   ROOT MOTION: a graph with "root_motion" plays its clips in place and
   moves the whole character by the motion the updates return (accumulated
   from time 0: position, then yaw about +Y), above the model's top nodes;
   a graph without it plays the clips' root tracks as they are.

   `--graph demo` is the demo character's graph (docs/demo-graph.json,
   built in). */
#ifndef SINEW_GRAPH_PROGRAM_H
#define SINEW_GRAPH_PROGRAM_H

#include "tool_common.h"

#include "sinew/graph.h"
#include "sinew/graph_read.h"
#include "sinew/root_motion.h"

#include <stdbool.h>
#include <stddef.h>

typedef enum graph_set_kind {
    GRAPH_SET_NUMBER = 0,
    GRAPH_SET_TRUE,
    GRAPH_SET_FALSE,
    GRAPH_SET_TRIGGER,
} graph_set_kind;

typedef struct graph_set {
    char* text;          /* owned: the option's value as given, for errors */
    char* name;          /* owned */
    graph_set_kind kind;
    float value;         /* GRAPH_SET_NUMBER */
    double time;         /* seconds, ≥ 0 */
} graph_set;

typedef struct graph_options {
    char* file;          /* owned: --graph, or NULL */
    size_t set_count;
    graph_set* sets;     /* --set, repeatable */
} graph_options;

#define GRAPH_OPTIONS_HELP \
    "  --graph FILE|demo\n" \
    "                  an animation graph (JSON, docs/graph.md) makes the base\n" \
    "                  pose, run from time 0 in steps of 1/60 s; `demo` is the\n" \
    "                  demo character's (docs/demo-graph.json)\n" \
    "  --set NAME=VALUE[@T]\n" \
    "                  with --graph: set parameter NAME (VALUE a number, true,\n" \
    "                  false or trigger) from time T seconds on (default 0);\n" \
    "                  repeatable\n"

/* 1 taken, 0 not ours, -1 with `err` naming the option. */
int graph_options_take(graph_options* o, tool_args* args, const char* arg, tool_error* err);
/* --set without --graph. */
bool graph_options_check(const graph_options* o, tool_error* err);
void graph_options_free(graph_options* o);

/* A change made while the graph plays (the viewer's parameter keys). */
typedef struct graph_live_set {
    uint32_t parameter;
    float value;         /* a trigger fires on 1 */
    double time;         /* seconds */
} graph_live_set;

typedef struct graph_program {
    const sw_model* model;
    const graph_options* options;
    sw_graph_file* file;
    sw_graph_instance instance;
    void* memory;
    sw_pose pose;                 /* the graph's last evaluated output */
    void* pose_memory;
    uint32_t* set_parameters;     /* per --set: the parameter */
    size_t* set_order;            /* --set indices by time (stable) */
    size_t next_set;              /* sets in set_order before this one are applied */
    graph_live_set* live;         /* owned, by time (stable) */
    size_t live_count, live_cap;
    size_t next_live;             /* live sets before this one are applied */
    uint64_t steps;               /* updates since time 0 */
    bool fresh;                   /* the next pose starts over */
    sw_root_motion_character character; /* accumulated root motion */
} graph_program;

/* Reads the graph against the model, binds it and resolves the --set
   names and values. TOOL_EXIT_OK, TOOL_EXIT_USAGE (`err`: one line naming
   --graph or --set) or TOOL_EXIT_FAILURE; freed on failure. */
int graph_program_init(graph_program* p, const sw_model* model, const graph_options* o, tool_error* err);
/* The graph's pose at `time` into pose->local and pose->weights (root
   motion applied); the caller updates world matrices. */
bool graph_program_pose(graph_program* p, float time, sw_pose* pose, tool_error* err);
void graph_program_restart(graph_program* p);
/* LIVE CHANGES: parameter = value from `time` on (no earlier than the
   time simulated, so what has been shown stays), replacing the later
   live changes of that parameter; replays from time 0 repeat them, like
   the --set they come after. False when out of memory. */
bool graph_program_set_live(graph_program* p, uint32_t parameter, float value, double time);
/* What `parameter` holds at the next update: its last live change not
   yet applied, else its value now. */
float graph_program_value(const graph_program* p, uint32_t parameter);
/* Forget every live change: the --set alone again (from time 0). */
void graph_program_clear_live(graph_program* p);
/* The latest time of a --set or live change (0 with none). */
double graph_program_last_change(const graph_program* p);
/* "walk → run 40%" or "idle": layer 0's state and transition, for the viewer. */
void graph_program_describe(const graph_program* p, char* out, size_t size);
/* A clip that stands for the graph (its start state's clip), or -1. */
long graph_program_clip(const graph_program* p);
void graph_program_free(graph_program* p);

#endif
