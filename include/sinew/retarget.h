/* sinew/retarget.h — clips from another file: merged by joint name, or
   retargeted between two humanoids through their humanoid maps
   (sinew/humanoid.h). docs/retarget.md has the rules and the maths.

       sw_humanoid_map src_map, dst_map;
       sw_humanoid_naming naming;
       sw_humanoid_map_from_names(src, NULL, &src_map, &naming, &diag);   // "Mixamo", 52 bones
       sw_humanoid_map_from_names(dst, NULL, &dst_map, &naming, &diag);
       sw_clip* clip = NULL;
       sw_retarget_clip(src, &src_map, &src->animations[0], dst, &dst_map, NULL, &clip, NULL, &diag);
       sw_pose_evaluate(dst, clip, t, true, &pose, &diag);               // validated on every call
       sw_clip_free(clip);

   Rigs no table knows (Blender "UpperArm.L", 3ds Max "Bip01 L Thigh",
   ...) are mapped by names and hierarchy with sw_humanoid_map_guess (see
   AUTOMATIC MAPPING below), which also says why each bone has its node.

   NAME TABLES. sw_humanoid_map_from_names tries each built-in table of
   joint names (sw_bone_naming) on the model's node names and keeps the one
   that recognises the most bones: VRM's humanoid names themselves
   ("leftUpperArm"), the sinew demo character ("upper_arm_l"), Mixamo and
   HumanIK ("mixamorig:LeftArm"), the Unreal Engine mannequin
   ("upperarm_l"), Blender Rigify's deform bones ("DEF-upper_arm.L") and
   VRoid ("J_Bip_L_UpperArm"). Names are compared ASCII case-insensitively,
   whole or after a namespace prefix (everything up to the last ':' or '|':
   "mixamorig:Hips", "Armature|Hips"); among nodes with the same name a skin
   joint wins over a plain node, then the first in model order. A user bone
   map (sw_bone_map: humanoid bone → node name, or no node to leave the bone
   out) overrides the table bone by bone. sinew-import reads one from JSON
   {"hips": "Bip01_Pelvis", "leftUpperArm": null, ...} (sw_bone_map_read);
   the core parses nothing.

   MERGING BY NAME (sw_clip_merge_by_name) keeps every track whose target's
   name a node of the destination also has: exact name first, then ASCII
   case-insensitive, then both names without their namespace prefixes.
   Tracks that find no node, and morph weight tracks whose node has another
   number of morph targets, are dropped and counted.

   RETARGETING (sw_retarget_clip) moves rotations through world space, per
   mapped bone b, relative to each rig's rest pose:
       q_dst_world(t) = q_src_world(t) · q_src_world_rest⁻¹ · A_b · q_dst_world_rest
   and turns it into the destination's local rotation through the parent's
   world rotation at the same time. A_b (SW_RETARGET_MATCH_REST, the
   default) is the shortest rotation that turns the destination bone, at
   rest, to point as the source bone points at rest (towards the next bone
   both rigs map), so an A-pose clip plays as an A-pose on a T-pose rig;
   SW_RETARGET_DELTA_ONLY leaves it out (A_b = 1). The hips' displacement
   from rest, in world axes, is scaled by the legs' length ratio. Joints
   the destination does not map, and mapped joints the source lacks, keep
   their rest local transforms.

   Both rigs must be in the same world convention (+Y up, facing +Z: what
   sinew's importers give) and be scaled uniformly along the chains.

   Memory: each returned clip is one block the library allocates (tracks,
   times, values and name included); release it with sw_clip_free
   and nothing else. Nothing is kept; thread-safe. */
#ifndef SINEW_RETARGET_H
#define SINEW_RETARGET_H

#include "sinew/base.h"
#include "sinew/anim.h"
#include "sinew/model.h"
#include "sinew/humanoid.h"

SW_EXTERN_C_BEGIN

/* The built-in name tables, in the order they are tried (a tie goes to the
   earlier one). */
typedef enum sw_bone_naming {
    SW_BONE_NAMING_NONE = 0, /* no table recognised a bone */
    SW_BONE_NAMING_VRM,      /* VRM 1.0 humanoid names: hips, leftUpperArm, ... */
    SW_BONE_NAMING_SINEW,    /* the sinew demo character: pelvis, upper_arm_l, ... */
    SW_BONE_NAMING_MIXAMO,   /* Mixamo / HumanIK: Hips, LeftArm, LeftUpLeg, ... (any namespace) */
    SW_BONE_NAMING_UE,       /* Unreal Engine mannequin (UE4 and UE5): pelvis, spine_01, upperarm_l, ... */
    SW_BONE_NAMING_RIGIFY,   /* Blender Rigify deform bones: DEF-spine, DEF-upper_arm.L, ... */
    SW_BONE_NAMING_VROID,    /* VRoid: J_Bip_C_Hips, J_Bip_L_UpperArm, ... */
    SW_BONE_NAMING_COUNT
} sw_bone_naming;

/* "VRM", "sinew demo", "Mixamo", "Unreal mannequin", "Rigify", "VRoid";
   "none" for NONE and values outside the list. */
const char* sw_bone_naming_name(sw_bone_naming naming);

/* What sw_humanoid_map_from_names found. */
typedef struct sw_humanoid_naming {
    sw_bone_naming table;      /* the table kept */
    uint32_t table_bones;      /* bones it mapped */
    uint32_t user_bones;       /* bones the user map set or cleared */
    uint32_t user_missing;     /* user map entries naming a node the model does not have (skipped) */
    uint32_t mapped;           /* bones mapped in the end */
} sw_humanoid_naming;

/* A user bone map: plain data, applied entry by entry in order (a later
   entry for the same bone wins). */
typedef struct sw_bone_map_entry {
    sw_humanoid_bone bone;
    const char* node; /* the node's name (found as a table's names are); NULL leaves the bone out */
} sw_bone_map_entry;

typedef struct sw_bone_map {
    size_t entry_count;
    const sw_bone_map_entry* entries;
} sw_bone_map;

/* sinew-import (link sinew::import): reads a bone map from JSON text
   (`size` bytes, no NUL needed): an object whose keys are VRM 1.0 humanoid
   bone names (ASCII case-insensitive) and whose values are node names or
   null. `name` (may be NULL) starts every message ("map.json: bone map is
   not valid JSON (near byte 12)"). Errors (SW_ERR_INVALID_DATA, *out NULL):
   text that is not JSON (diag.index = byte offset), not an object, a key
   that is no humanoid bone, a value neither string nor null. The map is one
   block: release it with sw_bone_map_free (NULL is allowed). Thread-safe. */
sw_result sw_bone_map_read(const char* json, size_t size, const char* name, sw_bone_map** out, sw_diag* diag);
void sw_bone_map_free(sw_bone_map* map);

/* Fills `out` from the model's node names with the best table, then the
   user bone map `bone_map` (NULL: none). An entry whose node the model
   lacks is skipped and counted (one bone map may name the joints of two
   rigs). SW_ERR_INVALID_ARGUMENT (the map left cleared) for an entry whose
   bone is outside the humanoid. `out_naming` may be NULL. */
sw_result sw_humanoid_map_from_names(const sw_model* model, const sw_bone_map* bone_map, sw_humanoid_map* out,
                                     sw_humanoid_naming* out_naming, sw_diag* diag);

/* ---- automatic mapping -------------------------------------------------

   AUTOMATIC MAPPING. sw_humanoid_map_guess maps rigs no table knows, as retargeters do: by
   normalised names and by the hierarchy. A node name is normalised
   (sw_bone_name_key): the namespace ("mixamorig:", "Armature|") and
   rig prefixes (DEF-, ORG-, Bip01, J_Bip_, ...) go, words are split at
   separators, case changes and digits, a side word (L, R, Left, Right in
   any position: "UpperArm.L", "Bip01 L UpperArm", "upperarm_l",
   "LeftArm", "J_Bip_L_UpperArm") is taken out and the rest is lower-case
   and joined: "upperarm", "spine1". Synonyms then give the body part
   (abdomen/torso/chest/spine: the spine chain; arm/upperarm;
   forearm/lowerarm/elbow; thigh/upleg/upperleg; calf/shin/knee/lowerleg;
   "leg" alone: the first or second leg joint by depth; hand/palm/wrist;
   foot/ankle; toe/ball; shoulder/clavicle/collar; thumb, index, middle,
   ring, little/pinky fingers). Names with end, nub, tip, pole, target,
   ik, ctrl, mch, twist or roll are never humanoid bones.

   The hierarchy decides the rest: every bone must lie below its humanoid
   parent (upperLeg below hips, lowerLeg below upperLeg, ...), the
   shallowest match wins (a skin joint before a plain node, then a hand
   with a middle finger below it); the nodes between hips and the neck
   are spine, chest and upperChest in order (spine; spine, chest; spine,
   chest, upperChest; more: first, middle, last); finger segments are
   taken in depth order; a gap of one node between two mapped bones
   (lowerLeg between upperLeg and foot) is filled. A foot or hand found
   by name but outside its chain (an IK rig's foot parented to the root)
   is kept as LOOSE. The best name table (sw_humanoid_map_from_names)
   goes first, its exact names knowing a rig's quirks; the guess fills
   the bones it leaves out, with nodes no bone has. Work is linear in the
   nodes (a fixed number of passes). */

typedef enum sw_humanoid_match {
    SW_HUMANOID_MATCH_NONE = 0, /* not mapped */
    SW_HUMANOID_MATCH_TABLE,    /* a built-in name table's exact name */
    SW_HUMANOID_MATCH_NAME,     /* the normalised name is the bone's ("UpperArm.L") */
    SW_HUMANOID_MATCH_SYNONYM,  /* a synonym ("Thigh.L", "Abdomen") */
    SW_HUMANOID_MATCH_CHAIN,    /* by its place in a chain ("Spine2", "Leg", a gap between two bones) */
    SW_HUMANOID_MATCH_LOOSE,    /* by name, but not below its humanoid parent */
    SW_HUMANOID_MATCH_USER,     /* the user's bone map */
} sw_humanoid_match;

/* "none", "table", "name", "synonym", "chain", "loose", "bone map". */
const char* sw_humanoid_match_name(sw_humanoid_match how);

/* What sw_humanoid_map_guess found. */
typedef struct sw_humanoid_guess {
    sw_bone_naming table;       /* the name table that matched most (NONE: none did) */
    uint32_t table_bones;       /* bones that table mapped */
    uint32_t guessed_bones;     /* bones the names-and-hierarchy guess mapped */
    uint32_t user_bones;        /* bones the user map set or cleared */
    uint32_t user_missing;      /* user map entries naming a node the model does not have */
    uint32_t mapped;            /* bones mapped in the end */
    uint32_t required_missing;  /* of VRM's 15 required bones, those not mapped */
    sw_humanoid_match how[SW_HUMANOID_BONE_COUNT]; /* per bone, why its node */
} sw_humanoid_guess;

/* The side and key of a node name (see above): writes the key (NUL-ended,
   cut to key_size - 1) and returns its length; *side (may be NULL) is 0
   for none, 1 left, 2 right. "mixamorig:LeftUpLeg" → "upleg", left. */
size_t sw_bone_name_key(const char* name, char* key, size_t key_size, int* side);

/* The humanoid bone a node name alone suggests (no hierarchy: "Spine2"
   and "Leg" give their first meaning, spine and upperLeg), or NONE. */
sw_humanoid_bone sw_bone_name_guess(const char* name);

/* Maps `model` by names and hierarchy (see above), then applies the user
   bone map `bone_map` (NULL: none) as sw_humanoid_map_from_names does.
   `report` may be NULL. Errors: SW_ERR_INVALID_ARGUMENT for a NULL model
   or map, or an entry whose bone is outside the humanoid;
   SW_ERR_OUT_OF_MEMORY (scratch of a few bytes per node). */
sw_result sw_humanoid_map_guess(const sw_model* model, const sw_bone_map* bone_map, sw_humanoid_map* out,
                                sw_humanoid_guess* report, sw_diag* diag);

/* Whether a map has what a retarget needs to move the body: hips, spine
   and both legs' upperLeg, lowerLeg and foot. Returns how many of those 8
   are missing and writes up to `capacity` of them to `missing`. */
uint32_t sw_humanoid_map_body_missing(const sw_humanoid_map* map, sw_humanoid_bone* missing, size_t capacity);

/* A copy of `src_clip` (a clip of `src`) whose tracks target `dst`'s nodes
   by name (see MERGING above). *out_dropped (may be NULL) is the number of
   tracks dropped. A clip left with no track is still returned (its start
   and duration 0). The name is copied. */
sw_result sw_clip_merge_by_name(const sw_model* dst, const sw_model* src, const sw_clip* src_clip,
                                sw_clip** out_clip, size_t* out_dropped, sw_diag* diag);

/* Rest reference of the retargeting (see RETARGETING above). */
typedef enum sw_retarget_reference {
    SW_RETARGET_MATCH_REST = 0, /* destination bones turned to point as the source's do at rest */
    SW_RETARGET_DELTA_ONLY,     /* each rig's rest pose is its own zero of motion */
} sw_retarget_reference;

typedef enum sw_retarget_hips {
    SW_RETARGET_HIPS_SCALED = 0, /* displacement × leg length ratio */
    SW_RETARGET_HIPS_UNSCALED,   /* displacement as is (both rigs in the same units and size) */
    SW_RETARGET_HIPS_NONE,       /* hips keep their rest translation */
} sw_retarget_hips;

/* Zero = defaults. */
typedef struct sw_retarget_options {
    sw_retarget_reference reference;
    sw_retarget_hips hips;
    /* Samples per second, uniform from the clip's start to its end (both
       included); 0 = at every key time of the source clip, plus 30 per
       second between keys of CUBICSPLINE tracks. */
    float sample_rate;
} sw_retarget_options;

/* At most this many sample times per retargeted clip. */
#define SW_RETARGET_MAX_SAMPLES 100000u

typedef struct sw_retarget_info {
    uint32_t bones;           /* destination bones given a rotation track */
    uint32_t aligned;         /* of them, turned at rest (A_b ≠ 1, by more than 0.01°) */
    float hips_scale;         /* the hips displacement factor used (1 when unscaled or none) */
    size_t sample_count;      /* keys of each track */
} sw_retarget_info;

/* The clip `src_clip` of `src` (mapped by `src_map`) played on `dst`
   (mapped by `dst_map`), as a new LINEAR clip (STEP when every source
   track is STEP) with one rotation track per destination bone that both
   maps have, and a translation track for the hips (unless
   SW_RETARGET_HIPS_NONE), all on the same sample times, finished with
   sw_clip_finish. `options` and `out_info` may be NULL. Errors:
   SW_ERR_INVALID_ARGUMENT for a map naming a node outside its model,
   SW_ERR_INVALID_DATA when the maps share no bone or the clip does not fit
   `src`, SW_ERR_UNSUPPORTED past SW_RETARGET_MAX_SAMPLES,
   SW_ERR_OUT_OF_MEMORY. */
sw_result sw_retarget_clip(const sw_model* src, const sw_humanoid_map* src_map, const sw_clip* src_clip,
                           const sw_model* dst, const sw_humanoid_map* dst_map, const sw_retarget_options* options,
                           sw_clip** out_clip, sw_retarget_info* out_info, sw_diag* diag);

/* Releases a clip made by sw_clip_merge_by_name or sw_retarget_clip; NULL
   is allowed. */
void sw_clip_free(sw_clip* clip);

SW_EXTERN_C_END

#endif
