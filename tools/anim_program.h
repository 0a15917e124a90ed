/* tools/anim_program.h — "what pose at time t", shared by `sinew render`
   and `sinew export`: the animation options of the command line (blends,
   crossfades, layers, additive layers, in-place, spring bones, IK and
   look-at) parsed into a plain description, then resolved against a model
   and evaluated one time at a time into a caller-owned sw_pose.

       anim_options o = {0};
       for each argument:
           int took = anim_options_take(&o, args, arg, &err);  // 1 taken, 0 not ours, -1 usage error
       ...load the model...
       anim_program prog;
       int status = anim_program_init(&prog, model, &o, base_clip, &config, &err);  // TOOL_EXIT_*
       for each time, in playback order:
           anim_program_evaluate(&prog, t, &pose, &err);      // locals, weights, world, skins
       anim_program_free(&prog);
       anim_options_free(&o);

   Per time, in this order: the base pose (the --anim clip, or --blend /
   --crossfade, or --graph: graph_program.h) → --layer → --additive → --in-place → VRM gaze and
   expressions (avatar_program.h) → node constraints (VRMC_node_constraint,
   always on when the model has them) (together: the kinematic pose) →
   spring bones → --ik → --look-at → world and skin matrices
   (sw_pose_update).

   SPRING BONES simulate from the start of the time axis (export: the
   clip's first key; render: time 0 = the clip's start) at the fixed step h
   (1/60 s), sampling the kinematic pose at EVERY step's own time
   (start + n·h), so the result at a time never depends on which times were
   asked before it: a time before the simulated one starts over from the
   start, a later one runs every step in between (a render at a low --fps
   too; max_substeps is not used). A time between two steps: the springs'
   state of the last step at or before it (within 1e-4 of a step counts as
   that step, for float times), drawn on the kinematic pose at the time
   itself; steps stay at multiples of h so that every time sees the same
   simulation. At most an hour of simulation (a later time is an error).
   anim_program_restart starts over. Everything else is a pure function of
   the time. */
#ifndef SINEW_ANIM_PROGRAM_H
#define SINEW_ANIM_PROGRAM_H

#include "tool_common.h"
#include "anim_file.h"
#include "avatar_program.h"
#include "graph_program.h"

#include "sinew/constraint.h"
#include "sinew/playback.h"
#include "sinew/spring.h"
#include "sinew/root_motion.h"

#include <stdbool.h>
#include <stddef.h>

/* Text of the options as given; names are resolved by anim_program_init
   (clip and node names may contain ':' or ','). */
typedef struct anim_blend_item {
    char* clip;            /* owned */
    float weight;
} anim_blend_item;

typedef struct anim_layer_item {
    char* text;            /* owned: "CLIP:MASKROOT" (the weight cut off) */
    float weight;          /* [0, 1] */
} anim_layer_item;

typedef struct anim_ik_item {
    char* joint;           /* owned */
    float target[3];
    bool has_pole;
    float pole[3];
} anim_ik_item;

typedef enum anim_springs {
    ANIM_SPRINGS_DEFAULT = 0, /* on when the model has spring bones */
    ANIM_SPRINGS_ON,
    ANIM_SPRINGS_OFF,
} anim_springs;

typedef struct anim_options {
    size_t blend_count;      anim_blend_item* blends;    /* --blend */
    bool sync;                                           /* --sync */
    bool crossfade;                                      /* --crossfade given */
    char* crossfade_clips;   /* owned: "FROM,TO" */
    float crossfade_start, crossfade_duration;
    size_t layer_count;      anim_layer_item* layers;    /* --layer, repeatable */
    size_t additive_count;   anim_blend_item* additives; /* --additive, repeatable */
    bool in_place;                                       /* --in-place */
    size_t ik_count;         anim_ik_item* iks;          /* --ik, repeatable */
    size_t look_count;       anim_ik_item* looks;        /* --look-at, repeatable (no pole) */
    anim_springs springs;                                /* --springs on|off */
    anim_file_options file;                              /* --anim-file, --bone-map, --retarget (anim_file.h) */
    avatar_options avatar;                               /* --expression, --gaze, --first-person (avatar_program.h) */
    graph_options graph;                                 /* --graph, --set (graph_program.h) */
} anim_options;

/* If `arg` is one of the options above, takes it (and its value) and
   returns 1; returns 0 when it is not; -1 with `err` set (one line naming
   the option) when its value is malformed. */
int anim_options_take(anim_options* o, tool_args* args, const char* arg, tool_error* err);
/* Any option given (springs aside: `--springs` alone changes nothing on a
   model without spring bones). */
bool anim_options_any(const anim_options* o);
/* Combinations: --sync needs --blend (with a weight above 0), --blend and
   --crossfade exclude each other. False with `err` set. */
bool anim_options_check(const anim_options* o, tool_error* err);
void anim_options_free(anim_options* o);

/* The help lines of the options, shared by both commands (a string
   literal, so that it joins their help texts). */
#define ANIM_OPTIONS_HELP \
    "animation (per time, in this order; CLIP = name or index, JOINT = node name,\n" \
    "humanoid bone name such as leftHand (a VRM's humanoid, else found from the\n" \
    "node names; a node name wins) or file index):\n" \
    GRAPH_OPTIONS_HELP \
    "  --blend CLIP:W[,CLIP:W...]\n" \
    "                  blend clips at the same time with these weights (replaces\n" \
    "                  --anim's pose; --anim, else the first clip, sets the times)\n" \
    "  --sync          with --blend: clips advance by one normalised phase\n" \
    "  --crossfade FROM,TO,START,DURATION\n" \
    "                  FROM, fading linearly into TO from START over DURATION\n" \
    "                  seconds; TO starts playing at START\n" \
    "  --layer CLIP:MASKROOT[:W]\n" \
    "                  CLIP replaces the pose in the subtree of MASKROOT with\n" \
    "                  weight W (0..1, default 1); repeatable\n" \
    "  --additive CLIP[:W]\n" \
    "                  add CLIP's motion relative to its first frame, weight W\n" \
    "                  (0..1, default 1); repeatable\n" \
    "  --in-place      remove the root joint's horizontal travel and turn\n" \
    "  --springs on|off\n" \
    "                  simulate the model's spring bones (VRM; default on)\n" \
    "  --ik JOINT:X,Y,Z[:PX,PY,PZ]\n" \
    "                  two-bone IK: JOINT (its parent and grandparent bend)\n" \
    "                  reaches the world point, the knee towards the pole\n" \
    "                  point if given; repeatable\n" \
    "  --look-at JOINT:X,Y,Z\n" \
    "                  turn JOINT so that its local +Z points at the world\n" \
    "                  point; repeatable\n" \
    ANIM_FILE_OPTIONS_HELP \
    AVATAR_OPTIONS_HELP

/* How the command maps its time to clip time. */
typedef struct anim_program_config {
    bool loop;             /* clips wrap (else held at their first and last keys) */
    bool from_clip_start;  /* render: time 0 is each clip's first key (clip->start + wrapped time) */
    const anim_file* file; /* --anim-file's clips (NULL: none): a .vrma clip's expression and look-at
                              tracks drive the VRM avatar */
} anim_program_config;

typedef struct anim_program {
    const sw_model* model;
    anim_program_config config;
    const anim_options* options;
    /* base */
    long base_clip;                 /* --anim, -1 = rest pose; unused with blend or crossfade */
    size_t source_count;            /* clips of the blend or crossfade */
    long* source_clips;
    float* source_weights;
    float* source_times;            /* per evaluation */
    sw_sync_member* members;        /* --sync */
    sw_blend_layer* blend_layers;   /* scratch for sw_blend_poses / sw_blend_job */
    const sw_transform** source_locals;
    /* layers and additive layers */
    long* layer_clips;
    float** layer_masks;            /* per layer: node_count factors (weight × subtree) */
    float** layer_base_masks;       /* per layer: 1 − the above */
    long* additive_clips;
    /* in place */
    bool has_root;
    long root_clip;
    sw_root_motion root;
    /* ik and look-at */
    uint32_t* ik_nodes;             /* 3 per --ik: start, mid, end */
    uint32_t* look_nodes;           /* 1 per --look-at */
    sw_vec3* look_forward;          /* per --look-at: the forward axis in the joint's space */
    /* springs */
    sw_spring_set* spring_set;
    sw_spring_state spring;
    void* spring_memory;
    bool springs_on;
    bool spring_fresh;              /* next evaluation resets the simulation */
    double spring_start;            /* the time the simulation starts at (step 0) */
    uint64_t spring_steps;          /* steps simulated since then */
    /* node constraints */
    sw_constraint_set* constraint_set;
    sw_constraint_state constraints;
    void* constraint_memory;
    bool constraints_on;
    avatar_program avatar;          /* VRM expressions, gaze, first person: applied before constraints */
    bool has_graph;                 /* --graph: the graph makes the base pose */
    graph_program graph;
    bool has_warning;               /* `warning` holds a line for the command to print */
    tool_error warning;
    /* scratch poses: one per source, plus 3 (a layer, an additive and its reference) */
    size_t scratch_count;
    sw_pose* scratch;
    void** scratch_memory;
} anim_program;

/* The program changes the pose: an option was given, or the model's
   spring bones are simulated. A command may use sw_pose_evaluate when not. */
bool anim_program_active(const anim_program* p);

/* The clip that stands for the program in a command's output and default
   time range when --anim is not given: the first --blend clip or the
   crossfade's FROM clip, or the --graph's start clip; -1 when there is none. Needs a resolved program. */
long anim_program_primary_clip(const anim_program* p);

/* Resolves `o` (which must outlive the program) against `model`: clip and
   joint names, masks, root-motion and spring-bone setup. Returns
   TOOL_EXIT_OK, TOOL_EXIT_USAGE (an unknown clip or joint, a value that
   does not fit the model; `err` names the option) or TOOL_EXIT_FAILURE
   (out of memory, a library error). The program is freed on failure. */
int anim_program_init(anim_program* p, const sw_model* model, const anim_options* o, long base_clip,
                      const anim_program_config* config, tool_error* err);

/* The pose at `time` seconds into `pose` (bound for the model): locals,
   morph weights, world and skin matrices. With spring bones, any order of
   times gives the same pose for the same time (SPRING BONES above); in
   playback order each step runs once. */
bool anim_program_evaluate(anim_program* p, float time, sw_pose* pose, tool_error* err);

/* The next evaluation starts the spring simulation over. */
void anim_program_restart(anim_program* p);

void anim_program_free(anim_program* p);

#endif
