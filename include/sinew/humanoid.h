/* sinew/humanoid.h — the humanoid bone set: the 55 bones of VRM 1.0's
   humanoid (VRMC_vrm-1.0 humanoid.md), their names, their hierarchy, and a
   map from each bone to a model node. A VRM file carries its map
   (sinew/vrm.h); retargeting builds maps from name tables for other rigs
   and moves clips between two mapped characters.

       sw_humanoid_map map;
       sw_humanoid_map_clear(&map);                         // every bone absent
       map.node[SW_HUMANOID_HIPS] = hips_node;
       sw_humanoid_bone b;
       if (sw_humanoid_bone_from_name("leftUpperArm", &b)) ...
       sw_humanoid_bone up = sw_humanoid_parent_bone(b);    // SW_HUMANOID_LEFT_SHOULDER

   NAMES are VRM 1.0's (camelCase, "leftThumbMetacarpal"). VRM 0.x's are
   the same except for the thumb: 0.x thumbProximal / thumbIntermediate /
   thumbDistal are 1.0's thumbMetacarpal / thumbProximal / thumbDistal (the
   same three joints, renamed). "thumbProximal" means different joints in
   the two versions, so sw_humanoid_bone_from_name reads it as 1.0 does and
   takes 0.x's "thumbIntermediate" (found only in 0.x) as 1.0's proximal;
   a reader of a 0.x file uses sw_humanoid_bone_from_vrm0_name. Names are
   compared exactly (case matters, as in VRM).

   HIERARCHY. sw_humanoid_parent_bone gives the bone's parent in the full
   humanoid (the spec's table: hips is the root; upperChest's child is
   neck; the shoulders hang from upperChest). When a map leaves optional
   bones out, sw_humanoid_mapped_parent walks up to the nearest bone that
   is mapped. REQUIRED bones are VRM 1.0's 15: hips, spine, head, and per
   side upperLeg, lowerLeg, foot, upperArm, lowerArm, hand.

   Pure functions of constants: no allocation, no state, thread-safe. */
#ifndef SINEW_HUMANOID_H
#define SINEW_HUMANOID_H

#include "sinew/base.h"

SW_EXTERN_C_BEGIN

typedef enum sw_humanoid_bone {
    /* torso */
    SW_HUMANOID_HIPS,
    SW_HUMANOID_SPINE,
    SW_HUMANOID_CHEST,
    SW_HUMANOID_UPPER_CHEST,
    SW_HUMANOID_NECK,
    /* head */
    SW_HUMANOID_HEAD,
    SW_HUMANOID_LEFT_EYE,
    SW_HUMANOID_RIGHT_EYE,
    SW_HUMANOID_JAW,
    /* legs */
    SW_HUMANOID_LEFT_UPPER_LEG,
    SW_HUMANOID_LEFT_LOWER_LEG,
    SW_HUMANOID_LEFT_FOOT,
    SW_HUMANOID_LEFT_TOES,
    SW_HUMANOID_RIGHT_UPPER_LEG,
    SW_HUMANOID_RIGHT_LOWER_LEG,
    SW_HUMANOID_RIGHT_FOOT,
    SW_HUMANOID_RIGHT_TOES,
    /* arms */
    SW_HUMANOID_LEFT_SHOULDER,
    SW_HUMANOID_LEFT_UPPER_ARM,
    SW_HUMANOID_LEFT_LOWER_ARM,
    SW_HUMANOID_LEFT_HAND,
    SW_HUMANOID_RIGHT_SHOULDER,
    SW_HUMANOID_RIGHT_UPPER_ARM,
    SW_HUMANOID_RIGHT_LOWER_ARM,
    SW_HUMANOID_RIGHT_HAND,
    /* left fingers */
    SW_HUMANOID_LEFT_THUMB_METACARPAL,
    SW_HUMANOID_LEFT_THUMB_PROXIMAL,
    SW_HUMANOID_LEFT_THUMB_DISTAL,
    SW_HUMANOID_LEFT_INDEX_PROXIMAL,
    SW_HUMANOID_LEFT_INDEX_INTERMEDIATE,
    SW_HUMANOID_LEFT_INDEX_DISTAL,
    SW_HUMANOID_LEFT_MIDDLE_PROXIMAL,
    SW_HUMANOID_LEFT_MIDDLE_INTERMEDIATE,
    SW_HUMANOID_LEFT_MIDDLE_DISTAL,
    SW_HUMANOID_LEFT_RING_PROXIMAL,
    SW_HUMANOID_LEFT_RING_INTERMEDIATE,
    SW_HUMANOID_LEFT_RING_DISTAL,
    SW_HUMANOID_LEFT_LITTLE_PROXIMAL,
    SW_HUMANOID_LEFT_LITTLE_INTERMEDIATE,
    SW_HUMANOID_LEFT_LITTLE_DISTAL,
    /* right fingers */
    SW_HUMANOID_RIGHT_THUMB_METACARPAL,
    SW_HUMANOID_RIGHT_THUMB_PROXIMAL,
    SW_HUMANOID_RIGHT_THUMB_DISTAL,
    SW_HUMANOID_RIGHT_INDEX_PROXIMAL,
    SW_HUMANOID_RIGHT_INDEX_INTERMEDIATE,
    SW_HUMANOID_RIGHT_INDEX_DISTAL,
    SW_HUMANOID_RIGHT_MIDDLE_PROXIMAL,
    SW_HUMANOID_RIGHT_MIDDLE_INTERMEDIATE,
    SW_HUMANOID_RIGHT_MIDDLE_DISTAL,
    SW_HUMANOID_RIGHT_RING_PROXIMAL,
    SW_HUMANOID_RIGHT_RING_INTERMEDIATE,
    SW_HUMANOID_RIGHT_RING_DISTAL,
    SW_HUMANOID_RIGHT_LITTLE_PROXIMAL,
    SW_HUMANOID_RIGHT_LITTLE_INTERMEDIATE,
    SW_HUMANOID_RIGHT_LITTLE_DISTAL,
    SW_HUMANOID_BONE_COUNT,
    /* "no bone": the parent of hips, a name that matched nothing */
    SW_HUMANOID_NONE = -1
} sw_humanoid_bone;

/* Each bone's model node, or -1 when the bone is absent. */
typedef struct sw_humanoid_map {
    int32_t node[SW_HUMANOID_BONE_COUNT];
} sw_humanoid_map;

/* The VRM 1.0 name ("leftUpperArm"); NULL outside [0, SW_HUMANOID_BONE_COUNT). */
const char* sw_humanoid_bone_name(sw_humanoid_bone bone);

/* The bone named `name` (VRM 1.0 names, plus 0.x's thumbIntermediate, see
   above): true and *out set, or false (*out = NONE). */
bool sw_humanoid_bone_from_name(const char* name, sw_humanoid_bone* out);

/* The same for VRM 0.x names only (the thumbs' 0.x meaning). */
bool sw_humanoid_bone_from_vrm0_name(const char* name, sw_humanoid_bone* out);

/* The bone's parent in the full humanoid; SW_HUMANOID_NONE for hips and
   for values outside the set. */
sw_humanoid_bone sw_humanoid_parent_bone(sw_humanoid_bone bone);

/* Whether VRM 1.0 requires the bone. */
bool sw_humanoid_bone_required(sw_humanoid_bone bone);

/* Every bone absent (-1). */
void sw_humanoid_map_clear(sw_humanoid_map* map);

/* The nearest ancestor of `bone` that `map` maps; SW_HUMANOID_NONE when none. */
sw_humanoid_bone sw_humanoid_mapped_parent(const sw_humanoid_map* map, sw_humanoid_bone bone);

/* How many bones are mapped, and how many required ones are not
   (either pointer may be NULL). */
void sw_humanoid_map_coverage(const sw_humanoid_map* map, uint32_t* mapped, uint32_t* required_missing);

SW_EXTERN_C_END

#endif
