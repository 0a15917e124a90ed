/* tools/avatar_program.h — a VRM avatar's state on the command line
   (render, export, view): expressions (--expression), the gaze (--gaze)
   and the first-person view (--first-person), resolved against the
   model's VRM (sinew/vrm.h) and applied to a pose, and the per-frame
   render state they make (sw_render_frame_avatar: material colour and UV
   overrides, hidden meshes).

       avatar_options o = {0};
       avatar_options_take(&o, args, arg, &err);               // 1 taken, 0 not ours, -1 usage error
       avatar_program a;
       avatar_program_init(&a, model, &o, &err);               // TOOL_EXIT_*
       ...pose sampled...
       avatar_program_apply(&a, &pose, &err);                  // eyes and morph weights, before spring bones
       avatar_program_render(&a, &materials, &frame.avatar);   // after each apply
       avatar_program_free(&a);

   The order is three-vrm's (VRM.update): the look-at, then the
   expressions, then spring bones. Expression morph weights REPLACE the
   pose's weight of every morph target an expression binds (three-vrm sets
   each bound target to 0, then adds bind weight × expression weight);
   targets no expression binds keep the animation's weights. This happens
   only when --expression or an expression-type --gaze is given. */
#ifndef SINEW_AVATAR_PROGRAM_H
#define SINEW_AVATAR_PROGRAM_H

#include "tool_common.h"
#include "json_writer.h"

#include "sinew/render.h"
#include "sinew/vrm.h"
#include "sinew/vrma.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct avatar_expression_item {
    char* name;     /* owned */
    float weight;   /* [0, 1] */
} avatar_expression_item;

typedef struct avatar_options {
    size_t expression_count;
    avatar_expression_item* expressions; /* --expression NAME[:W], repeatable */
    bool has_gaze;
    float gaze[3];                       /* --gaze X,Y,Z (world) */
    bool first_person;                   /* --first-person */
} avatar_options;

/* 1: `arg` was one of the options above (taken with its value); 0: not
   ours; -1 with `err` set when its value is malformed. */
int avatar_options_take(avatar_options* o, tool_args* args, const char* arg, tool_error* err);
/* --expression or --gaze given (they change the pose). */
bool avatar_options_any(const avatar_options* o);
void avatar_options_free(avatar_options* o);

#define AVATAR_OPTIONS_HELP \
    "VRM avatar (applied before spring bones, as three-vrm does):\n" \
    "  --expression NAME[:W]\n" \
    "                  set expression NAME (a VRM 1.0 preset such as happy,\n" \
    "                  blink, aa, lookUp, or a custom name) to weight W (0..1,\n" \
    "                  default 1); repeatable. isBinary and the block/blend\n" \
    "                  overrides apply; morph, colour and UV binds are drawn\n" \
    "  --gaze X,Y,Z    the eyes look at this world point (VRM look-at, bone or\n" \
    "                  expression type, with the file's range maps)\n" \
    "  --first-person  draw the first-person view: hide thirdPersonOnly meshes\n" \
    "                  and auto ones on the head (skinned: the triangles\n" \
    "                  weighted to the head), show firstPersonOnly ones\n" \
    "                  (default: firstPersonOnly hidden)\n"

typedef struct avatar_program {
    const sw_model* model;
    const avatar_options* options;
    sw_vrm* vrm;                       /* NULL: the model is not a VRM (or did not read) */
    bool drives_pose;                  /* expressions or the gaze change the pose */
    bool drives_morphs;                /* expression weights are applied */
    float* input;                      /* expression_count: the application's weights */
    float* weights;                    /* expression_count: after the gaze */
    float* final_weights;              /* expression_count: after clamp, isBinary, overrides */
    float* morph;                      /* morph_slot_count */
    sw_vrm_color_value* colors;        /* color_slot_count */
    sw_vrm_texture_value* textures;    /* texture_slot_count */
    bool has_gaze;                     /* the gaze (from --gaze, or set) */
    float gaze[3];
    bool first_person;                 /* the first-person view (--first-person, or set) */
    bool gazed;
    float yaw, pitch;                  /* degrees, the last apply's */
    uint8_t* hidden;                   /* node_count flags, NULL when nothing is hidden */
    /* First person on skinned `auto` meshes (three-vrm's headless copy):
       the joints whose triangles it erases (node_count flags: the head and
       below; for sw_renderer_set_erased_joints after each set_scene; NULL:
       not a VRM, no head or no annotation), the triangles it erases and
       those drawn per node (node_count each, NULL when none is erased), the
       nodes drawing the copy in this view (node_count flags, NULL: none). */
    uint8_t* fp_types;                 /* node_count: each node's sw_vrm_first_person (unannotated meshes: auto) */
    uint8_t* erase_joints;
    size_t* erased;
    size_t* triangles;
    uint8_t* headless;
    size_t override_count;
    sw_render_material_override* overrides;
    int32_t* override_index;           /* material_count: its override, -1 none */
    size_t kept_count, kept_capacity;  /* export: final weights kept per time */
    float* kept;
    size_t kept_override_count, kept_override_capacity; /* export: the overrides per time (slots each) */
    sw_render_material_override* kept_overrides;
    bool toon_read;                    /* export: the toon data read for the overrides' base colours */
    sw_toon_material* toon;
    /* A VRM animation's tracks (avatar_program_set_animation) */
    uint8_t* given;                    /* expression_count: set by --expression (wins over a track) */
    float* anim_weights;               /* expression_count: the tracks' weights at the time set */
    const sw_vrma* anim;               /* the animation anim_map is for */
    int32_t* anim_map;                 /* per expression track: the avatar's expression, -1 none */
    bool anim_active, anim_has_look, anim_drives_morphs;
    bool anim_seen;                    /* an animation was set once: export writes the avatar section */
    float anim_yaw, anim_pitch;        /* degrees: the look-at track at the time set */
    size_t warning_count;
    tool_error warnings[4];            /* lines for the command to print (naming the model) */
} avatar_program;

/* Reads the model's VRM and resolves the options: TOOL_EXIT_OK,
   TOOL_EXIT_USAGE (an unknown expression, with the available ones and a
   near name; an option on a model that is not a VRM) or TOOL_EXIT_FAILURE
   (out of memory). Without options a VRM is still read (its first-person
   annotations hide meshes); a VRM that does not read is then a warning.
   The program is freed on failure. */
int avatar_program_init(avatar_program* a, const sw_model* model, const avatar_options* o, tool_error* err);

/* The gaze (eye rotations into pose->local, or the look expressions) and
   the expressions (morph weights into pose->weights) at this pose; world
   matrices are brought up to date when the gaze needs them. */
bool avatar_program_apply(avatar_program* a, sw_pose* pose, tool_error* err);

/* The render state of the last apply (or of no expression at all): one
   override per material an expression binds, the base values from the
   material set (colours: the material's factors, toon colours from
   `materials`; NULL: the model's factors and MToon defaults), the hidden
   nodes, the nodes drawing their first-person copy (headless_nodes: the
   renderer needs sw_renderer_set_erased_joints(r, a->erase_joints, ...)
   after its set_scene). Pointers stay valid until the next call or free. */
void avatar_program_render(avatar_program* a, const sw_material_set* materials, sw_render_frame_avatar* out);

/* The viewer's keys: an expression's weight, the gaze point (NULL: none),
   the view (false when out of memory). They hold until changed. */
void avatar_program_set_weight(avatar_program* a, size_t expression, float weight);
/* The VRM animation being played (NULL: none) at its clip time t: its
   expression tracks set the expressions --expression does not (by name;
   one the avatar lacks is skipped, as three-vrm does), its look-at track
   the gaze's yaw and pitch when --gaze is not given. Holds until the next
   call; false when out of memory. */
bool avatar_program_set_animation(avatar_program* a, const sw_vrma* anim, float t);
void avatar_program_set_gaze(avatar_program* a, const float* target);
bool avatar_program_set_first_person(avatar_program* a, bool first_person);

/* Export: keeps the last apply's final expression weights as time `index`. */
bool avatar_program_keep(avatar_program* a, size_t index);
/* Export: "avatar": the expressions with their weight at each kept time,
   every morphed node's weights at each pose, the material overrides at
   each kept time, the nodes hidden, the triangles the first-person view
   erases per node. */
void avatar_program_write_json(const avatar_program* a, const sw_pose* poses, size_t time_count, json_writer* w);

void avatar_program_free(avatar_program* a);

#endif
