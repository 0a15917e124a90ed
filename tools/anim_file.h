/* tools/anim_file.h — `--anim-file FILE`: another file's clips merged onto
   the character, by joint name when the names match, else retargeted
   through humanoid maps (sinew/retarget.h, docs/retarget.md).

       anim_file_options o = {0};
       anim_file_option_take(&o, args, arg, &err);      // --anim-file, --bone-map, --retarget
       ...load the model into `model`...
       anim_file f = {0};
       if (!anim_file_attach(&f, &model, &o, &err)) ...  // model now has both files' clips
       ...use model...
       anim_file_detach(&f, &model);                     // model is the loaded one again
       sw_model_free(model);

   The attached model is a copy of the loaded one's struct whose clip list
   is longer: the character's own clips, then the file's, in its order. A
   file clip whose name a clip before it has gets "STEM/NAME" (the file's
   name without folder and extension), so --anim can name either.

   A compressed clip (.swa, sinew/compress.h; `sinew compress`) is
   decompressed at its samples into LINEAR keys; it must come from a model
   with the character's node count (its tracks name node indices).

   A VRM animation (.vrma, sinew/vrma.h) is always retargeted, by its
   humanoid and the character's (VRM humanoid, else joint names and
   --bone-map), with three-vrm-animation's rules; its expression and
   look-at tracks are read with anim_file_expression_weights and
   anim_file_gaze for the clip being played. */
#ifndef SINEW_ANIM_FILE_H
#define SINEW_ANIM_FILE_H

#include "tool_common.h"

#include "sinew/retarget.h"
#include "sinew/vrma.h"

typedef struct anim_file_options {
    const char* path;      /* --anim-file */
    const char* bone_map;  /* --bone-map */
    const char* bone_map_out; /* --bone-map-out: the map used, written as a bone map file */
    bool retarget;         /* --retarget: by humanoid map even when the names match */
} anim_file_options;

/* 1 when `arg` is one of the options above (its value taken), 0 when not,
   -1 with `err` set when its value is missing. */
int anim_file_option_take(anim_file_options* o, tool_args* args, const char* arg, tool_error* err);

/* --bone-map, --bone-map-out and --retarget need --anim-file. False with `err` set. */
bool anim_file_options_check(const anim_file_options* o, tool_error* err);

#define ANIM_FILE_OPTIONS_HELP \
    "clips from another file:\n" \
    "  --anim-file FILE\n" \
    "                  add FILE's clips to the model's (glTF, VRM, FBX, ...): by\n" \
    "                  joint name when most of its tracks' joints are found by\n" \
    "                  name, else retargeted by humanoid bone map (VRM humanoid,\n" \
    "                  or joint names and hierarchy of other rigs: Mixamo, Unreal,\n" \
    "                  Rigify, VRoid, Blender .L/.R, 3ds Max Biped, ...); a clip\n" \
    "                  whose name is taken is called FILESTEM/NAME; a retarget\n" \
    "                  without hips, spine and both legs on either rig fails\n" \
    "  --bone-map MAP.json\n" \
    "                  humanoid bones by node name for either rig, e.g.\n" \
    "                  {\"hips\": \"Bip01_Pelvis\", \"leftUpperArm\": \"Bip01_L_UpperArm\"}\n" \
    "  --bone-map-out MAP.json\n" \
    "                  write the humanoid bones used (both rigs' nodes) as a bone\n" \
    "                  map, to edit and give back with --bone-map\n" \
    "  --retarget      retarget by humanoid map even when the joint names match\n"

typedef struct anim_file {
    sw_model* loaded;      /* the character as loaded (given back by detach) */
    sw_model* view;        /* the character with both files' clips */
    sw_model* source;      /* the anim file's model */
    sw_clip* clips;        /* view->animations */
    sw_clip** made;        /* the clips made here, one per file clip */
    size_t made_count;
    char** names;          /* renamed clips' names, per file clip (NULL when kept) */
    sw_vrma** vrma;        /* per file clip, for a VRM animation (else NULL) */
    sw_clip* swa_clip;     /* a compressed clip (.swa) decompressed into keys: one block (malloc) */
    char summary[512];     /* one line: what was merged and how */
} anim_file;

/* Loads `o->path` (nothing happens without it) and points *model at a
   model that has the file's clips too. On failure *model is unchanged,
   `f` is released, and `err` is one line naming the file and the problem
   (a missing or unreadable file, a bone map that is not JSON, no humanoid
   bones in common). */
bool anim_file_attach(anim_file* f, sw_model** model, const anim_file_options* o, tool_error* err);

/* The VRM animation behind `clip` (a clip of the attached model, as
   played), or NULL when it is none of a .vrma's. */
const sw_vrma* anim_file_vrma_of(const anim_file* f, const sw_clip* clip);

/* The expression weights of the VRM animation behind `clip` at clip time
   t (the time the pose is sampled at): up to `capacity` pairs of name
   ("happy", or a custom name) and weight in [0, 1], for the expressions
   the clip animates, in its track order (an expression animated twice
   comes twice: set them in order, the later wins). Returns how many there
   are (0 for other clips). */
size_t anim_file_expression_weights(const anim_file* f, const sw_clip* clip, float t, const char** names,
                                    float* weights, size_t capacity);

/* The look-at of the VRM animation behind `clip` at clip time t: yaw and
   pitch in degrees (VRM's look-at angles: yaw positive to the character's
   left, pitch positive down, relative to the head's rest look-at space)
   and the gaze direction `dir` (may be NULL) in that space, +Z forward.
   False when the clip has no look-at track. */
bool anim_file_gaze(const anim_file* f, const sw_clip* clip, float t, float* yaw_deg, float* pitch_deg,
                    float dir[3]);

/* The humanoid map the tools use for a model: its VRM humanoid when it is
   a VRM, else what its joint names and hierarchy give (with `bone_map`,
   which may be NULL). False with `err` saying why. */
bool anim_file_humanoid_map(const sw_model* model, const sw_bone_map* bone_map, sw_humanoid_map* out, tool_error* err);

/* Gives back the loaded model in *model (when attached) and releases the rest. */
void anim_file_detach(anim_file* f, sw_model** model);

#endif
