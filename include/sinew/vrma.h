/* sinew/vrma.h — VRM animation files (.vrma: glTF with the root extension
   VRMC_vrm_animation 1.0): which nodes are humanoid bones, expressions and
   the look-at, read from a loaded model as plain data, and the clip they
   make on a humanoid character. docs/vrm.md ("VRM animation") has the
   rules; they are three-vrm-animation's.

       sw_model* anim = NULL;                          // wave.vrma, loaded as glTF
       sw_vrma* a = NULL;
       if (sw_vrma_read(anim, 0, &a, &diag) != SW_OK) ...   // a stays NULL without the extension
       sw_clip* clip = NULL;
       sw_vrma_retarget(a, character, &character_vrm->humanoid, &clip, NULL, &diag);
       float w = sw_vrma_expression_weight(a, k, t);  // a->expressions[a->expression_tracks[k].expression]
       float yaw, pitch;
       if (sw_vrma_look_at(a, t, &yaw, &pitch, NULL)) ...
       sw_clip_free(clip);
       sw_vrma_free(a);

   WHAT IS READ. For clip `clip` of the model (one glTF animation):
     - humanoid.humanBones: each bone's node, its rotation track and, for
       hips, its translation track (indices into the clip's tracks). The
       rest pose: each bone node's world rotation and the hips' parent's
       world matrix, from the nodes' own transforms (the file's rest pose,
       which the spec asks to be a VRM T-pose but with any rotations);
     - expressions.preset / custom: each expression's node, and the
       clip's translation tracks on them, whose x is the weight;
     - lookAt: its node's rotation track (the gaze direction in the head's
       look-at space, +Z forward) and offsetFromHeadBone.

   RETARGETING (sw_vrma_retarget), per humanoid bone b both have:
       n(t)   = W_parent · q(t) · W_b⁻¹     (the normalized pose: q the file's
                local rotation, W the rest world rotations; the parent is
                the nearest humanoid ancestor the file maps, else the hips
                node's parent)
       raw(t) = P⁻¹ · n(t) · P · B          (on the character: P its node's
                parent's rest world rotation, B its rest local rotation)
   and hips(t) = H_dst⁻¹ · (s · H_src · t(t)) for the hips translation,
   H the hips' parents' rest world matrices, s = (character's hips rest
   height) / (file's hips rest height). Keys keep their times and
   interpolation (the maps are linear in the keys, so CUBICSPLINE tangents
   are mapped alike). Bones the character lacks are dropped, bones the
   file lacks keep their rest. The character must face +Z: VRM 0.x models
   are turned at load (gltf.h), which gives what three-vrm gives after
   VRMUtils.rotateVRM0.

   ERRORS. A block of the wrong JSON type, a node index out of range, a
   specVersion other than "1.0" (or "1.0-draft", a warning) fail the read
   with SW_ERR_INVALID_DATA and one line naming the file and the JSON path
   ("wave.vrma: extensions.VRMC_vrm_animation.humanoid.humanBones.hips.node:
   99 is out of range (the model has 27 nodes)"). Unknown bone or preset
   names, leftEye / rightEye, look* presets, a node given twice and tracks
   the spec forbids (translation on a bone other than hips, scale on a bone,
   other paths on expression and look-at nodes) are warnings; the part is
   ignored.

   Every function here is sinew-import's (link sinew::import). The sw_vrma
   refers to the model's clip: keep the model while using it. A file's
   other clips: sw_vrma_read_clip, which shares the extension's part. Memory: one owner, released by sw_vrma_free; the clip of
   sw_vrma_retarget is one block released by sw_clip_free (retarget.h).
   Work is linear in the JSON, the nodes and the keys (the extension once
   per file, each clip's tracks once). Thread-safe. */
#ifndef SINEW_VRMA_H
#define SINEW_VRMA_H

#include "sinew/anim.h"
#include "sinew/base.h"
#include "sinew/humanoid.h"
#include "sinew/math.h"
#include "sinew/model.h"

SW_EXTERN_C_BEGIN

typedef struct sw_vrma_expression {
    const char* name;       /* "happy", or the custom name */
    bool preset;            /* from expressions.preset */
    int32_t node;           /* model node */
} sw_vrma_expression;

/* An expression the clip animates: its translation track (x is the weight). */
typedef struct sw_vrma_expression_track {
    uint32_t expression;    /* index into expressions */
    uint32_t track;         /* index into the clip's tracks */
} sw_vrma_expression_track;

typedef struct sw_vrma {
    const sw_model* model;            /* the animation file's model (borrowed) */
    const sw_clip* clip;              /* the clip read (borrowed) */
    const char* spec_version;
    /* humanoid */
    sw_humanoid_map humanoid;         /* model nodes, -1 absent */
    uint32_t humanoid_mapped;         /* bones mapped (0: no humanoid block) */
    bool has_humanoid;                /* the humanoid block is there */
    int32_t rotation_track[SW_HUMANOID_BONE_COUNT]; /* track index in clip, -1 none */
    int32_t hips_translation_track;   /* -1 none */
    /* the rest pose */
    sw_quat rest_world_rotation[SW_HUMANOID_BONE_COUNT]; /* identity for absent bones */
    sw_mat34 hips_parent_world;       /* identity when hips is a root or absent */
    sw_vec3 rest_hips_position;       /* hips' world position (0 without hips) */
    /* expressions: the extension's, and the clip's tracks for them (in
       track order; when two tracks drive one expression the later wins) */
    size_t expression_count;
    const sw_vrma_expression* expressions;
    size_t expression_track_count;
    const sw_vrma_expression_track* expression_tracks;
    /* look-at */
    int32_t look_at_node;             /* -1 none */
    int32_t look_at_track;            /* rotation track, -1 none */
    bool has_look_at_offset;
    float look_at_offset[3];          /* offsetFromHeadBone */
    size_t warning_count;
    const char* const* warnings;
} sw_vrma;

/* Reads the VRMC_vrm_animation extension of `model` for its clip `clip`
   (< model->animation_count). SW_OK with *out NULL when the model has no
   such extension. */
sw_result sw_vrma_read(const sw_model* model, size_t clip, sw_vrma** out, sw_diag* diag);

/* The same file's clip `clip`, the extension's part shared with `base`
   (which must outlive it): work in the clip's tracks only, so that a file
   of many clips is read in linear time. */
sw_result sw_vrma_read_clip(const sw_vrma* base, size_t clip, sw_vrma** out, sw_diag* diag);

/* Releases a result of either read; NULL is allowed. */
void sw_vrma_free(sw_vrma* vrma);

typedef struct sw_vrma_retarget_info {
    uint32_t bones;       /* rotation tracks made */
    uint32_t dropped;     /* the file's bone tracks the character has no bone for */
    float hips_scale;     /* s above (1 when there is no hips translation) */
} sw_vrma_retarget_info;

/* The clip of `vrma` on `dst` (its humanoid `dst_map`, model nodes), named
   as the file's clip. `info` may be NULL. Errors: SW_ERR_INVALID_ARGUMENT
   (a map node outside dst), SW_ERR_INVALID_DATA when no bone is shared or
   a rest hips height is not above 0 while there is a hips translation,
   SW_ERR_OUT_OF_MEMORY. */
sw_result sw_vrma_retarget(const sw_vrma* vrma, const sw_model* dst, const sw_humanoid_map* dst_map,
                           sw_clip** out_clip, sw_vrma_retarget_info* info, sw_diag* diag);

/* The weight of expression_tracks[k] at clip time t, clamped to [0, 1]
   as the spec asks (0 for k out of range). */
float sw_vrma_expression_weight(const sw_vrma* vrma, size_t k, float t);

/* The look-at at clip time t as VRM's yaw and pitch in degrees (the
   rotation as Euler angles, order Y then X then Z: yaw about +Y, positive
   to the character's left (+X); pitch about +X, positive down), and the
   gaze direction `dir` (may be NULL): the rotation applied to +Z, in the
   character's head look-at space. False (outputs 0, dir +Z) without a
   look-at track. */
bool sw_vrma_look_at(const sw_vrma* vrma, float t, float* yaw_deg, float* pitch_deg, float dir[3]);

SW_EXTERN_C_END

#endif
