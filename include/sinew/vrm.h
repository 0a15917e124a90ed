/* sinew/vrm.h — the structure of a VRM avatar: meta and licence, the
   humanoid bone map, expressions, look-at and first-person annotations, from
   VRM 1.0's root extension VRMC_vrm or VRM 0.x's root extension VRM (a .vrm
   file is a GLB: sw_gltf_load_file reads it and keeps the extension).
   MToon materials are read by toon.h, spring bones by spring.h.

       sw_vrm* vrm = NULL;
       if (sw_vrm_read(model, &vrm, &diag) != SW_OK) ...   // vrm stays NULL for a plain glTF
       float in[vrm->expression_count];                    // the application's weights
       in[vrm->preset[SW_VRM_PRESET_HAPPY]] = 1.0f;        // (check the index is >= 0)
       float* morph = ...;                                 // vrm->morph_slot_count floats
       sw_vrm_expression_result r = {.morph_weights = morph, ...};
       sw_vrm_expression_weights(vrm, in, &r);
       sw_vrm_free(vrm);

   VRM 0.x is read into VRM 1.0's shape (docs/vrm.md): presets renamed
   (joy → happy, a → aa, blink_l → blinkLeft, ...), the humanoid's thumb
   names shifted (humanoid.h), bind weights 0..100 → 0..1, binds on a mesh
   → one bind per node drawing that mesh, materialValues by material name
   and Unity property name (_Color → color, _MainTex_ST → a texture
   transform with V flipped to glTF's origin), firstPersonBoneOffset's z
   negated (Unity's left-handed vector, as the spring reader does for
   collider offsets), degree maps' xRange / yRange → inputMaxValue /
   outputScale (the curve is not used). Its meta keeps its own fields;
   allow_redistribution follows from licenseName (CC0 and CC_BY*: true).
   VRM 0.x models face −Z; the glTF importer turns them to face +Z at load
   (sw_gltf_options.vrm0_keep_facing, gltf.h), so nothing here rotates.

   Node indices are the model's (parents first), converted from the file's
   through model->node_from_source; messages name the file's indices and
   JSON paths ("avatar.vrm: extensions.VRMC_vrm.expressions.preset.happy.
   morphTargetBinds[0].node: 12 is not a node with a mesh").

   BOUNDED WORK: sw_vrm_read takes time linear in the extension's JSON,
   the model and what it writes (a morph bind or first-person annotation
   on a mesh becomes one per node drawing that mesh): expression names
   and VRM 0.x material names are looked up in hash maps, O(1) expected
   each, never by scanning the earlier ones. (50,000 expression names:
   0.25 s for `sinew info`, the file's parse included.)

   ERRORS AND WARNINGS. A block of the wrong JSON type, a member missing
   that a bind or annotation needs, or an index out of range fails the read
   with SW_ERR_INVALID_DATA and one line naming the file and the JSON path;
   nothing is returned. What can be ignored without losing meaning is a
   warning in vrm->warnings and the default is used: an unknown enum value
   (override "sometimes" → none), a preset name among the custom ones, a
   preset given twice, a humanoid bone given twice or on a node already
   used, an unknown humanoid bone name, missing meta fields, missing
   REQUIRED humanoid bones (counted in humanoid_required_missing; sinew
   check reports them), a humanoid bone whose node is not below its
   humanoid parent's node, a 0.x materialName that names no material.

   EXPRESSIONS (sw_vrm_expression_weights, VRMC_vrm-1.0 expressions.md):
     1. each input weight is clamped to [0, 1] (NaN → 0);
     2. isBinary: w = w > 0.5 ? 1 : 0 (the table's "greater than 0.5");
        the binary value is what overrides others;
     3. for each procedural kind K (mouth: aa ih ou ee oh; blink: blink
        blinkLeft blinkRight; lookAt: lookUp lookDown lookLeft lookRight):
        over every expression E not of kind K with w(E) > 0,
          blocked = some E has override_K = block,
          blend   = Σ w(E) over E with override_K = blend,
          factor  = blocked ? 0 : 1 − min(1, blend);
        every expression of kind K gets w · factor, and an isBinary one
        gets 0 whenever factor < 1 (it is never shown half). An
        expression's override of its own kind is ignored (the spec calls it
        invalid; the reader warns). Custom expressions are never overridden
        (the spec leaves it to the application) but may override.
     4. morph weights: per (node, target) slot, Σ bind.weight · w over all
        expressions' binds (not clamped);
        material colours: per (material, type) slot, weight = Σ w and
        sum = Σ w · targetValue, so the value is
        base + Σ (target − base) · w = base · (1 − weight) + sum
        (sw_vrm_color_apply; the base is the material's own value);
        texture transforms: per material, scale = 1 + Σ (scale − 1) · w,
        offset = Σ offset · w (applied on top of the material's own UV
        transform).

   LIBRARIES. sw_vrm_read and sw_vrm_free are sinew-import's (link
   sinew::import); the names, sw_vrm_find_expression and the expression
   rules are the core's (sinew), so a program that links only the core can
   evaluate the expressions of an sw_vrm read elsewhere or built by hand.

   Memory: sw_vrm is one owner from sw_vrm_read; sw_vrm_free releases it.
   sw_vrm_expression_weights writes only into the caller's arrays. Nothing
   is kept between calls: every function is thread-safe, and one sw_vrm may
   be read by many threads at once. */
#ifndef SINEW_VRM_H
#define SINEW_VRM_H

#include "sinew/base.h"
#include "sinew/humanoid.h"
#include "sinew/model.h"
#include "sinew/pose.h"

SW_EXTERN_C_BEGIN

typedef enum sw_vrm_version {
    SW_VRM_0 = 0, /* the "VRM" extension (specVersion 0.0) */
    SW_VRM_1 = 1, /* VRMC_vrm (specVersion 1.0) */
} sw_vrm_version;

/* Meta. Strings are NULL when absent; enum-valued strings hold the spec's
   spelling, defaults applied (1.0) or NULL (0.x). */
typedef struct sw_vrm_meta {
    const char* name;                /* 1.0 name, 0.x title */
    const char* version;
    size_t author_count;
    const char* const* authors;      /* 0.x: its one author */
    const char* copyright;           /* 1.0 copyrightInformation */
    const char* contact;             /* contactInformation */
    size_t reference_count;
    const char* const* references;   /* 0.x: its one reference */
    const char* third_party_licenses;
    int32_t thumbnail;               /* 1.0 image index, 0.x texture index; -1 none */
    /* VRM 1.0 licence */
    const char* license_url;
    const char* avatar_permission;   /* onlyAuthor | onlySeparatelyLicensedPerson | everyone */
    bool allow_excessively_violent_usage;
    bool allow_excessively_sexual_usage;
    const char* commercial_usage;    /* personalNonProfit | personalProfit | corporation */
    bool allow_political_or_religious_usage;
    bool allow_antisocial_or_hate_usage;
    const char* credit_notation;     /* required | unnecessary */
    /* 1.0 allowRedistribution; 0.x has no such field and states it by
       licenseName: true for CC0 and the CC_BY* licences, false for
       Redistribution_Prohibited, Other or none (license_name tells which) */
    bool allow_redistribution;
    const char* modification;        /* prohibited | allowModification | allowModificationRedistribution */
    const char* other_license_url;   /* 1.0 and 0.x */
    /* VRM 0.x licence (the spec's spelling "Ussage" is the key's) */
    const char* allowed_user_name;   /* OnlyAuthor | ExplicitlyLicensedPerson | Everyone */
    const char* violent_usage;       /* violentUssageName: Disallow | Allow */
    const char* sexual_usage;        /* sexualUssageName */
    const char* commercial_usage_name; /* commercialUssageName */
    const char* license_name;        /* Redistribution_Prohibited | CC0 | CC_BY | ... | Other */
    const char* other_permission_url;
} sw_vrm_meta;

typedef enum sw_vrm_preset {
    SW_VRM_PRESET_HAPPY,
    SW_VRM_PRESET_ANGRY,
    SW_VRM_PRESET_SAD,
    SW_VRM_PRESET_RELAXED,
    SW_VRM_PRESET_SURPRISED,
    SW_VRM_PRESET_AA,
    SW_VRM_PRESET_IH,
    SW_VRM_PRESET_OU,
    SW_VRM_PRESET_EE,
    SW_VRM_PRESET_OH,
    SW_VRM_PRESET_BLINK,
    SW_VRM_PRESET_BLINK_LEFT,
    SW_VRM_PRESET_BLINK_RIGHT,
    SW_VRM_PRESET_LOOK_UP,
    SW_VRM_PRESET_LOOK_DOWN,
    SW_VRM_PRESET_LOOK_LEFT,
    SW_VRM_PRESET_LOOK_RIGHT,
    SW_VRM_PRESET_NEUTRAL,
    SW_VRM_PRESET_COUNT,
    SW_VRM_PRESET_CUSTOM = -1
} sw_vrm_preset;

/* The VRM 1.0 name ("blinkLeft"); NULL outside the list. */
const char* sw_vrm_preset_name(sw_vrm_preset preset);

typedef enum sw_vrm_override { SW_VRM_OVERRIDE_NONE, SW_VRM_OVERRIDE_BLOCK, SW_VRM_OVERRIDE_BLEND } sw_vrm_override;

typedef enum sw_vrm_color_type {
    SW_VRM_COLOR,          /* baseColorFactor */
    SW_VRM_EMISSION_COLOR, /* emissiveFactor */
    SW_VRM_SHADE_COLOR,    /* MToon shadeColorFactor */
    SW_VRM_MATCAP_COLOR,   /* MToon matcapFactor */
    SW_VRM_RIM_COLOR,      /* MToon parametricRimColorFactor */
    SW_VRM_OUTLINE_COLOR,  /* MToon outlineColorFactor */
    SW_VRM_COLOR_TYPE_COUNT
} sw_vrm_color_type;

const char* sw_vrm_color_type_name(sw_vrm_color_type type); /* "emissionColor"; NULL outside */

typedef struct sw_vrm_morph_bind {
    uint32_t node;     /* model node with a mesh */
    uint32_t index;    /* morph target of that mesh */
    float weight;      /* at expression weight 1 (0.x: /100) */
    uint32_t slot;     /* its (node, index) in vrm->morph_slots */
} sw_vrm_morph_bind;

typedef struct sw_vrm_color_bind {
    uint32_t material;
    sw_vrm_color_type type;
    float target[4];   /* the 4th is ignored where the parameter has 3 */
    uint32_t slot;     /* its (material, type) in vrm->color_slots */
} sw_vrm_color_bind;

typedef struct sw_vrm_texture_bind {
    uint32_t material;
    float scale[2];    /* default 1, 1 */
    float offset[2];   /* default 0, 0 */
    uint32_t slot;     /* its material in vrm->texture_slots */
} sw_vrm_texture_bind;

typedef struct sw_vrm_expression {
    const char* name;               /* the preset's 1.0 name, or the custom name (0.x: the group's name) */
    sw_vrm_preset preset;           /* SW_VRM_PRESET_CUSTOM for custom expressions */
    bool is_binary;
    sw_vrm_override override_blink, override_look_at, override_mouth;
    size_t morph_bind_count;
    const sw_vrm_morph_bind* morph_binds;
    size_t color_bind_count;
    const sw_vrm_color_bind* color_binds;
    size_t texture_bind_count;
    const sw_vrm_texture_bind* texture_binds;
} sw_vrm_expression;

typedef enum sw_vrm_look_at_type { SW_VRM_LOOK_AT_BONE, SW_VRM_LOOK_AT_EXPRESSION } sw_vrm_look_at_type;

/* min(|angle|, input_max_value) / input_max_value · output_scale (degrees
   in; degrees or an expression weight out). */
typedef struct sw_vrm_range_map {
    float input_max_value;  /* degrees, [0, 180] */
    float output_scale;
} sw_vrm_range_map;

typedef struct sw_vrm_look_at {
    bool present;                   /* the file has a lookAt (1.0) or lookAt fields in firstPerson (0.x) */
    sw_vrm_look_at_type type;       /* default bone */
    float offset_from_head_bone[3]; /* in the head's space; default (0, 0.06, 0) */
    /* Defaults when absent: input 90°, output 10 (bone) or 1 (expression). */
    sw_vrm_range_map horizontal_inner, horizontal_outer, vertical_down, vertical_up;
} sw_vrm_look_at;

typedef enum sw_vrm_first_person {
    SW_VRM_FIRST_PERSON_AUTO,
    SW_VRM_FIRST_PERSON_BOTH,
    SW_VRM_FIRST_PERSON_THIRD_PERSON_ONLY,
    SW_VRM_FIRST_PERSON_FIRST_PERSON_ONLY,
} sw_vrm_first_person;

typedef struct sw_vrm_mesh_annotation {
    uint32_t node;                  /* model node with a mesh (0.x: every node drawing the mesh) */
    sw_vrm_first_person type;
} sw_vrm_mesh_annotation;

typedef struct sw_vrm_morph_slot { uint32_t node, index; } sw_vrm_morph_slot;
typedef struct sw_vrm_color_slot { uint32_t material; sw_vrm_color_type type; } sw_vrm_color_slot;

typedef struct sw_vrm {
    sw_vrm_version version;
    const char* spec_version;       /* as written ("1.0", "0.0"), or NULL */
    sw_vrm_meta meta;
    sw_humanoid_map humanoid;       /* model nodes */
    uint32_t humanoid_mapped;       /* bones mapped, of SW_HUMANOID_BONE_COUNT */
    uint32_t humanoid_required_missing;
    size_t expression_count;
    const sw_vrm_expression* expressions;  /* presets in the file's order, then custom ones */
    int32_t preset[SW_VRM_PRESET_COUNT];   /* expression index of each preset, -1 absent */
    sw_vrm_look_at look_at;
    int32_t first_person_bone;      /* 0.x firstPersonBone (model node), else -1 */
    size_t mesh_annotation_count;
    const sw_vrm_mesh_annotation* mesh_annotations;
    /* The distinct targets of all binds: what sw_vrm_expression_weights writes. */
    size_t morph_slot_count;
    const sw_vrm_morph_slot* morph_slots;
    size_t color_slot_count;
    const sw_vrm_color_slot* color_slots;
    size_t texture_slot_count;
    const uint32_t* texture_slots;  /* materials */
    size_t warning_count;
    const char* const* warnings;    /* one line each, naming the file */
} sw_vrm;

/* sinew-import: reads the model's VRMC_vrm (preferred) or VRM root
   extension. SW_OK with *out = NULL when there is neither; on failure *out
   is NULL and diag names the file and the JSON path. */
sw_result sw_vrm_read(const sw_model* model, sw_vrm** out, sw_diag* diag);
void sw_vrm_free(sw_vrm* vrm);

/* The expression named `name` (preset 1.0 name or custom name), or -1. */
int32_t sw_vrm_find_expression(const sw_vrm* vrm, const char* name);

typedef struct sw_vrm_color_value {
    float weight;  /* Σ w over binds of the slot */
    float sum[4];  /* Σ w · targetValue */
} sw_vrm_color_value;

typedef struct sw_vrm_texture_value {
    float scale[2];
    float offset[2];
} sw_vrm_texture_value;

/* Caller-owned outputs; any may be NULL (not computed). */
typedef struct sw_vrm_expression_result {
    float* expression_weights;        /* expression_count: after clamp, isBinary and overrides */
    float* morph_weights;             /* morph_slot_count */
    sw_vrm_color_value* colors;       /* color_slot_count */
    sw_vrm_texture_value* textures;   /* texture_slot_count */
} sw_vrm_expression_result;

/* The rules above, from `weights` (expression_count application weights). */
void sw_vrm_expression_weights(const sw_vrm* vrm, const float* weights, sw_vrm_expression_result* out);

/* base · (1 − weight) + sum: the colour a slot shows over the material's `base`. */
void sw_vrm_color_apply(const sw_vrm_color_value* value, const float base[4], float out[4]);

/* ---- Look-at (three-vrm 3.5.5's VRMLookAt and its appliers) ------------------

   From a world point to the eyes, at a pose whose world matrices are up to
   date (sw_pose_update_world):
     1. origin = head world · offset_from_head_bone; the direction to the
        point is turned into the head's rest frame: d = R_rest(head) ·
        R(head)⁻¹ · (point − origin), R the rotation of a world matrix;
     2. yaw = atan2(d.x, d.z) (positive: towards +X, the avatar's left),
        pitch = −atan2(d.y, √(d.x² + d.z²)) (positive: down), degrees in
        (−180, 180]. The avatar faces +Z (VRM 0.x is turned at load,
        gltf.h), so three-vrm's faceFront is +Z for both versions;
     3. range map m(a) = output_scale · clamp(a / input_max_value, 0, 1)
        (input_max_value at least 0.01, as three-vrm);
     4. bone type: Euler (x = pitch', y = yaw', order YXZ) in degrees, with
          pitch' = pitch < 0 ? −vertical_down(−pitch) : vertical_up(pitch),
          left eye yaw'  = yaw < 0 ? −horizontal_inner(−yaw) : horizontal_outer(yaw),
          right eye yaw' = yaw < 0 ? −horizontal_outer(−yaw) : horizontal_inner(yaw);
        each eye's local rotation = P⁻¹ · E · P · rest, P its parent's rest
        world rotation, rest its own rest local rotation (translation and
        scale are the pose's). three-vrm maps an upward gaze through
        vertical_down and a downward one through vertical_up for bones
        (the spec's table says the reverse); sinew does as three-vrm, so
        an avatar looks the same in both;
        expression type: pitch < 0 → lookUp = vertical_up(−pitch),
        lookDown = 0; else lookDown = vertical_down(pitch), lookUp = 0;
        yaw < 0 → lookRight = horizontal_outer(−yaw), lookLeft = 0; else
        lookLeft = horizontal_outer(yaw), lookRight = 0 (horizontal_inner
        is not used, as the spec says). These weights replace the
        application's for the four presets, before
        sw_vrm_expression_weights (so overrides act on them).
   three-vrm applies the look-at after the humanoid pose and before the
   expressions and spring bones. */

/* The yaw and pitch (degrees) of the gaze at world point `target` from
   the pose. False (angles 0) when the humanoid has no head. */
bool sw_vrm_look_at_angles(const sw_vrm* vrm, const sw_model* model, const sw_pose* pose, const float target[3],
                           float* out_yaw, float* out_pitch);

/* Step 3 on one angle's magnitude (degrees). */
float sw_vrm_range_map_apply(const sw_vrm_range_map* map, float degrees);

/* Bone type: writes the leftEye and rightEye local rotations (those the
   humanoid maps) into `local` (model->node_count transforms). */
void sw_vrm_look_at_apply_bones(const sw_vrm* vrm, const sw_model* model, float yaw, float pitch,
                                sw_transform* local);

/* Expression type: writes the lookUp, lookDown, lookLeft and lookRight
   weights (those present) into `weights` (expression_count). */
void sw_vrm_look_at_apply_expressions(const sw_vrm* vrm, float yaw, float pitch, float* weights);

SW_EXTERN_C_END

#endif
