/* sinew/graph.h — animation graphs: state machines of clips, blend spaces
   and nested machines, driven by named parameters, in layers, as plain
   data with a runtime instance in caller-owned memory.

       size_t bytes = sw_graph_memory_size(&graph, model);       // 0: see sw_graph_bind's diag
       void* memory = aligned_alloc(16, bytes);
       sw_graph_instance g;
       if (sw_graph_bind(&g, &graph, model, memory, bytes, &diag) != SW_OK) ...
       sw_graph_set_float(&g, speed, 1.4f);                      // sw_graph_find_parameter
       sw_graph_update(&g, dt, &events, &motion, &diag);         // per frame, no allocation
       sw_graph_evaluate(&g, &pose, &diag);                      // pose.local; then sw_pose_update

   THE DEFINITION (sw_graph) is read-only data the caller owns (the import
   library reads it from JSON: sinew/graph_read.h). Parameters are floats,
   bools (stored as 0 or 1) and triggers (bools that a transition taking
   them resets). Clips are pointers (normally a model's animations); states
   name them by index. A machine is states and transitions; layer i runs
   machine layers[i].machine; a state may run a nested machine.

   CONDITIONS are a flat array of nodes; a node's children come before it
   (indices below its own), so a tree is checked once at bind and cannot
   loop. Comparisons read a parameter against a constant; PARAMETER is
   "the parameter is not 0"; AND, OR, NOT combine nodes.

   TIME. sw_graph_update(dt) first looks for a transition whose condition
   holds NOW (before dt), takes at most one per machine per update, then
   advances every playing state by dt. So a state entered by a transition
   taken at time T (the instance's clock before the update) has played dt
   at T + dt: it plays its clip from the clip's start (phase 0) unless the
   transition asks for SW_GRAPH_SYNC_PHASE (the destination starts at the
   source's phase, wrapped into [0, 1)). A transition of duration d from A
   to B taken at T blends A (continuing to play) and B with B's weight
   w = (t − T) / d going 0 → 1 over [T, T + d] (through the fade curve);
   from T + d on only B plays. An inertialised transition instead shows B
   at once, with the offset from the last evaluated output to B decaying
   over d (sinew/inertialize.h; velocity from the last two outputs).

   STATES play by PHASE, 0..1 over one cycle, like a sync group
   (playback.h): a clip state's cycle is its clip's duration (clip time =
   phase × duration, the time sw_pose_sample plays with loop), a blend
   state's is the weighted Σ wᵢ·dᵢ / Σ wᵢ of its clips, all of which play
   at the one phase (feet together). `speed` scales dt; a looping state
   wraps, another stops at its end. Each state also counts its normalised
   time, cycles played since it was entered (unwrapped): EXIT TIMES compare
   against it (exit_time 0.75: three quarters through the first cycle).

   TRANSITIONS out of the current state (from = its index, or
   SW_GRAPH_ANY_STATE for any state but the destination) are candidates
   when their exit time is reached (if they have one) and their condition
   holds (none = always). Of the candidates the lowest `priority` wins, ties
   going to the lower index. Taking it resets every trigger its condition
   reads. INTERRUPTS: while a transition plays, only transitions out of its
   destination are candidates, and only when the playing transition says
   SW_GRAPH_INTERRUPT_DESTINATION (the default is none); an interrupting
   transition blends from the FROZEN output of the machine at the last
   evaluate (as Mecanim does), not from either state (with no evaluate
   yet: from the state being left, still playing).

   LAYERS, in order: layer 0 is blended over the rest pose at its weight;
   an OVERRIDE layer k replaces what is below it per joint by
   w = weight × mask[j] (lerp / nlerp); an ADDITIVE layer adds its pose's
   delta against the rest pose (sw_additive_delta) at w (sw_blend_job).
   A layer's weight is `weight`, times its weight parameter clamped to
   [0, 1] when it has one. Masks are node_count factors in [0, 1].

   EVENTS: markers of the clips of every playing state (a transition's
   source too, not a frozen one), with weight > 0, are appended to the
   caller's sw_event_buffer; `source` = (machine runtime << 16) | state,
   where runtime counts the machines depth-first from layer 0 (layer 0's
   machine is 0; see sw_graph_event_state).

   ROOT MOTION (graph->root_motion not NULL): update adds the motion of the
   root over the step (sw_root_motion_extract over each playing clip's
   step, blended by the weights of its state, in its layer and transition;
   translation and yaw averaged by weight, layer 0 only) into *motion, and
   evaluate removes it from the sampled poses (sw_root_motion_remove).

   A nested machine has one runtime per state that holds it: a transition
   from such a state to itself plays that one machine as both source and
   destination (it advances twice per update); nest a copy instead.

   FULL-BODY IK (graph->ik not NULL) is the graph's last node: after the
   layers, sw_fbik_solve (sinew/fbik.h) moves the pose towards up to six
   effector targets. A target is `position`, any axis of which a parameter
   may give instead (position_parameter[a] ≠ SW_GRAPH_NONE); a RELATIVE
   target is that added to where the layers put the effector (an offset:
   a foot lifted onto a step, a hand pushed), so a zero offset asks for
   the animated pose. An effector's weight is `weight`, times its weight
   parameter clamped to [0, 1] when it has one; an effector at weight 0 is
   off, and with every effector off the pose is the layers' unchanged.
   sw_graph_ik_result says how the last solve ended.

   Morph weights are not blended by the graph: evaluate writes pose->local
   and the rest morph weights. Nothing here allocates after bind; update
   and evaluate are deterministic (the same definition, calls and inputs
   give the same bits). Evaluate keeps the last outputs (for inertial
   transitions and interrupts): call it once per update. One instance is
   used by one thread at a time; instances share a definition freely. */
#ifndef SINEW_GRAPH_H
#define SINEW_GRAPH_H

#include "sinew/base.h"
#include "sinew/math.h"
#include "sinew/anim.h"
#include "sinew/blend_space.h"
#include "sinew/fbik.h"
#include "sinew/model.h"
#include "sinew/playback.h"
#include "sinew/pose.h"
#include "sinew/root_motion.h"

SW_EXTERN_C_BEGIN

#define SW_GRAPH_NONE UINT32_MAX
#define SW_GRAPH_ANY_STATE (UINT32_MAX - 1u)
/* Nested machines deeper than this are rejected (and cycles with them). */
#define SW_GRAPH_MAX_DEPTH 8
#define SW_GRAPH_MAX_PARAMETERS 1024

typedef enum sw_graph_parameter_type {
    SW_GRAPH_FLOAT = 0,
    SW_GRAPH_BOOL,
    SW_GRAPH_TRIGGER,
} sw_graph_parameter_type;

typedef struct sw_graph_parameter {
    const char* name;
    sw_graph_parameter_type type;
    float default_value; /* bools and triggers: 0 or 1 */
} sw_graph_parameter;

typedef enum sw_graph_condition_op {
    SW_COND_PARAMETER = 0, /* parameter ≠ 0 */
    SW_COND_LESS,          /* parameter <  value */
    SW_COND_LESS_EQUAL,    /* parameter <= value */
    SW_COND_GREATER,       /* parameter >  value */
    SW_COND_GREATER_EQUAL, /* parameter >= value */
    SW_COND_EQUAL,         /* parameter == value */
    SW_COND_NOT_EQUAL,     /* parameter != value */
    SW_COND_AND,           /* left and right */
    SW_COND_OR,            /* left or right */
    SW_COND_NOT,           /* not left */
} sw_graph_condition_op;

typedef struct sw_graph_condition {
    sw_graph_condition_op op;
    uint32_t parameter; /* comparisons and PARAMETER */
    float value;        /* comparisons */
    uint32_t left;      /* AND, OR, NOT: a node index below this one */
    uint32_t right;     /* AND, OR */
} sw_graph_condition;

typedef enum sw_graph_state_kind {
    SW_GRAPH_STATE_CLIP = 0,
    SW_GRAPH_STATE_BLEND_1D, /* sw_blend_space_1d over `parameter` */
    SW_GRAPH_STATE_BLEND_2D, /* sw_blend_space_2d_weights over (parameter, parameter_y) */
    SW_GRAPH_STATE_MACHINE,  /* a nested machine */
} sw_graph_state_kind;

struct sw_graph_machine;

typedef struct sw_graph_state {
    const char* name;
    sw_graph_state_kind kind;
    float speed;                  /* 0 = 1; finite */
    bool once;                    /* play once and hold the end (default: loop) */
    uint32_t clip;                /* CLIP: index into graph->clips */
    size_t member_count;          /* BLEND_1D/2D: clips */
    const uint32_t* members;      /* member_count clip indices */
    const float* thresholds;      /* BLEND_1D: member_count, strictly ascending */
    const sw_blend_space_2d* space; /* BLEND_2D: built over member_count points */
    sw_blend_2d_method method;    /* BLEND_2D */
    uint32_t parameter;           /* BLEND_1D: the parameter; BLEND_2D: x */
    uint32_t parameter_y;         /* BLEND_2D: y */
    const struct sw_graph_machine* machine; /* MACHINE */
} sw_graph_state;

typedef enum sw_graph_blend {
    SW_GRAPH_CROSSFADE = 0,
    SW_GRAPH_INERTIALIZE,
} sw_graph_blend;

typedef enum sw_graph_sync {
    SW_GRAPH_SYNC_NONE = 0, /* the destination starts at phase 0 */
    SW_GRAPH_SYNC_PHASE,    /* at the source's phase */
} sw_graph_sync;

typedef enum sw_graph_interrupt {
    SW_GRAPH_INTERRUPT_NONE = 0,
    SW_GRAPH_INTERRUPT_DESTINATION, /* transitions out of the destination may interrupt it */
} sw_graph_interrupt;

typedef struct sw_graph_transition {
    uint32_t from;          /* a state index or SW_GRAPH_ANY_STATE */
    uint32_t to;
    uint32_t condition;     /* a node of graph->conditions, or SW_GRAPH_NONE (always) */
    float duration;         /* seconds, ≥ 0 */
    bool has_exit_time;
    float exit_time;        /* normalised time of the source, ≥ 0 */
    int32_t priority;       /* lower first; ties by index */
    sw_graph_blend blend;
    sw_fade_curve curve;    /* crossfade */
    sw_graph_sync sync;
    sw_graph_interrupt interrupt;
} sw_graph_transition;

typedef struct sw_graph_machine {
    size_t state_count;
    const sw_graph_state* states;
    size_t transition_count;
    const sw_graph_transition* transitions;
    uint32_t start;
} sw_graph_machine;

typedef enum sw_graph_layer_mode {
    SW_GRAPH_LAYER_OVERRIDE = 0,
    SW_GRAPH_LAYER_ADDITIVE,
} sw_graph_layer_mode;

typedef struct sw_graph_layer {
    const char* name;
    const sw_graph_machine* machine;
    sw_graph_layer_mode mode;     /* layer 0: always over the rest pose */
    float weight;                 /* [0, 1] */
    uint32_t weight_parameter;    /* SW_GRAPH_NONE, or a parameter multiplying weight */
    const float* mask;            /* NULL, or node_count factors in [0, 1] */
} sw_graph_layer;

/* One effector of the IK node (see FULL-BODY IK). */
typedef struct sw_graph_ik_effector {
    float weight;                   /* [0, 1]; 0 = off */
    uint32_t weight_parameter;      /* SW_GRAPH_NONE, or a parameter multiplying weight */
    bool relative;                  /* target = the layers' effector position + the offset */
    sw_vec3 position;               /* model space (relative: the offset) */
    uint32_t position_parameter[3]; /* SW_GRAPH_NONE, or the parameter giving x, y or z */
} sw_graph_ik_effector;

typedef struct sw_graph_ik {
    const sw_fbik_rig* rig;         /* built for the graph's model (sw_fbik_rig_build) */
    sw_graph_ik_effector effectors[SW_FBIK_EFFECTOR_COUNT];
    int iterations;                 /* 0: fbik's default */
    float tolerance;                /* metres; 0: fbik's default */
    bool pin_hips;
} sw_graph_ik;

typedef struct sw_graph {
    size_t parameter_count;
    const sw_graph_parameter* parameters;
    size_t condition_count;
    const sw_graph_condition* conditions;
    size_t clip_count;
    const sw_clip* const* clips;          /* the model's clips (tracks target its nodes) */
    const sw_clip_events* const* clip_events; /* NULL, or clip_count entries (each may be NULL) */
    size_t layer_count;                   /* ≥ 1 */
    const sw_graph_layer* layers;
    const sw_root_motion* root_motion;    /* NULL: none */
    const sw_graph_ik* ik;                /* NULL: no IK node */
} sw_graph;

/* The instance: everything lives in the bound memory. */
typedef struct sw_graph_instance {
    const sw_graph* graph;
    const sw_model* model;
    struct sw__graph_data* data;
} sw_graph_instance;

/* What a machine is doing, for UIs. */
typedef struct sw_graph_status {
    uint32_t state;          /* the current state (a transition's destination) */
    float phase;             /* its phase, 0..1 */
    float normalized_time;   /* cycles since it was entered */
    uint32_t transition;     /* the playing transition, or SW_GRAPH_NONE */
    uint32_t from_state;     /* its source, or SW_GRAPH_NONE (none, or frozen after an interrupt) */
    float progress;          /* elapsed / duration, 0..1 (1 with no transition) */
    float weight;            /* the destination's weight (crossfade curve), 1 with no transition */
} sw_graph_status;

/* Bytes sw_graph_bind needs (a multiple of 16), or 0 when the graph is
   not valid for the model (sw_graph_bind says why). */
size_t sw_graph_memory_size(const sw_graph* graph, const sw_model* model);

/* Checks the graph against the model (indices, conditions, clips, masks,
   depth) and sets the instance up at every machine's start state with the
   parameters at their defaults. Errors: one line naming the layer, state,
   transition or condition. */
sw_result sw_graph_validate(const sw_graph* graph, const sw_model* model, sw_diag* diag);
sw_result sw_graph_bind(sw_graph_instance* instance, const sw_graph* graph, const sw_model* model, void* memory,
                        size_t memory_size, sw_diag* diag);

/* Back to the start states, defaults, no transition, no history. */
void sw_graph_reset(sw_graph_instance* instance);

/* Index of the parameter called `name`, or -1. */
int32_t sw_graph_find_parameter(const sw_graph* graph, const char* name);

/* Parameters by index (ignored out of range); bools store 0/1; a trigger
   stays set until a transition takes it (or set_bool clears it). */
void sw_graph_set_float(sw_graph_instance* instance, uint32_t parameter, float value);
void sw_graph_set_bool(sw_graph_instance* instance, uint32_t parameter, bool value);
void sw_graph_set_trigger(sw_graph_instance* instance, uint32_t parameter);
float sw_graph_get(const sw_graph_instance* instance, uint32_t parameter);

/* Takes transitions and advances by dt (finite, ≥ 0; see TIME). events
   and motion may be NULL; *motion is overwritten with this step's root
   motion. Fails with SW_ERR_INVALID_DATA on a bad dt, or on clip events
   that are not finite and ascending (sw_sync_group_advance's checks). */
sw_result sw_graph_update(sw_graph_instance* instance, float dt, sw_event_buffer* events,
                          sw_root_motion_delta* motion, sw_diag* diag);

/* Writes the graph's pose into pose->local (and the rest morph weights
   into pose->weights); the pose is one of the model's (sw_pose_bind). */
sw_result sw_graph_evaluate(sw_graph_instance* instance, sw_pose* pose, sw_diag* diag);

/* How the IK node's last solve ended ({0, 0} with no IK node, before the
   first evaluate, or with every effector off). */
sw_fbik_result sw_graph_ik_result(const sw_graph_instance* instance);

/* What layer `layer`'s machine is doing (a zeroed status out of range). */
sw_graph_status sw_graph_layer_status(const sw_graph_instance* instance, size_t layer);

/* The runtime (machine) and state an event's `source` names. */
static inline uint32_t sw_graph_event_runtime(size_t source) { return (uint32_t)(source >> 16); }
static inline uint32_t sw_graph_event_state(size_t source) { return (uint32_t)(source & 0xffffu); }

SW_EXTERN_C_END

#endif
