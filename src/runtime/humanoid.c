/* The humanoid bone set (sinew/humanoid.h): one table of names, parents and
   required flags, in the enum's order (checked at compile time by count). */
#include "sinew/humanoid.h"

#include <string.h>

typedef struct sw__bone_info {
    const char* name;
    sw_humanoid_bone parent;
    bool required;
} sw__bone_info;

#define P(x) SW_HUMANOID_##x
static const sw__bone_info sw__bones[] = {
    {"hips", SW_HUMANOID_NONE, true},
    {"spine", P(HIPS), true},
    {"chest", P(SPINE), false},
    {"upperChest", P(CHEST), false},
    {"neck", P(UPPER_CHEST), false},
    {"head", P(NECK), true},
    {"leftEye", P(HEAD), false},
    {"rightEye", P(HEAD), false},
    {"jaw", P(HEAD), false},
    {"leftUpperLeg", P(HIPS), true},
    {"leftLowerLeg", P(LEFT_UPPER_LEG), true},
    {"leftFoot", P(LEFT_LOWER_LEG), true},
    {"leftToes", P(LEFT_FOOT), false},
    {"rightUpperLeg", P(HIPS), true},
    {"rightLowerLeg", P(RIGHT_UPPER_LEG), true},
    {"rightFoot", P(RIGHT_LOWER_LEG), true},
    {"rightToes", P(RIGHT_FOOT), false},
    {"leftShoulder", P(UPPER_CHEST), false},
    {"leftUpperArm", P(LEFT_SHOULDER), true},
    {"leftLowerArm", P(LEFT_UPPER_ARM), true},
    {"leftHand", P(LEFT_LOWER_ARM), true},
    {"rightShoulder", P(UPPER_CHEST), false},
    {"rightUpperArm", P(RIGHT_SHOULDER), true},
    {"rightLowerArm", P(RIGHT_UPPER_ARM), true},
    {"rightHand", P(RIGHT_LOWER_ARM), true},
    {"leftThumbMetacarpal", P(LEFT_HAND), false},
    {"leftThumbProximal", P(LEFT_THUMB_METACARPAL), false},
    {"leftThumbDistal", P(LEFT_THUMB_PROXIMAL), false},
    {"leftIndexProximal", P(LEFT_HAND), false},
    {"leftIndexIntermediate", P(LEFT_INDEX_PROXIMAL), false},
    {"leftIndexDistal", P(LEFT_INDEX_INTERMEDIATE), false},
    {"leftMiddleProximal", P(LEFT_HAND), false},
    {"leftMiddleIntermediate", P(LEFT_MIDDLE_PROXIMAL), false},
    {"leftMiddleDistal", P(LEFT_MIDDLE_INTERMEDIATE), false},
    {"leftRingProximal", P(LEFT_HAND), false},
    {"leftRingIntermediate", P(LEFT_RING_PROXIMAL), false},
    {"leftRingDistal", P(LEFT_RING_INTERMEDIATE), false},
    {"leftLittleProximal", P(LEFT_HAND), false},
    {"leftLittleIntermediate", P(LEFT_LITTLE_PROXIMAL), false},
    {"leftLittleDistal", P(LEFT_LITTLE_INTERMEDIATE), false},
    {"rightThumbMetacarpal", P(RIGHT_HAND), false},
    {"rightThumbProximal", P(RIGHT_THUMB_METACARPAL), false},
    {"rightThumbDistal", P(RIGHT_THUMB_PROXIMAL), false},
    {"rightIndexProximal", P(RIGHT_HAND), false},
    {"rightIndexIntermediate", P(RIGHT_INDEX_PROXIMAL), false},
    {"rightIndexDistal", P(RIGHT_INDEX_INTERMEDIATE), false},
    {"rightMiddleProximal", P(RIGHT_HAND), false},
    {"rightMiddleIntermediate", P(RIGHT_MIDDLE_PROXIMAL), false},
    {"rightMiddleDistal", P(RIGHT_MIDDLE_INTERMEDIATE), false},
    {"rightRingProximal", P(RIGHT_HAND), false},
    {"rightRingIntermediate", P(RIGHT_RING_PROXIMAL), false},
    {"rightRingDistal", P(RIGHT_RING_INTERMEDIATE), false},
    {"rightLittleProximal", P(RIGHT_HAND), false},
    {"rightLittleIntermediate", P(RIGHT_LITTLE_PROXIMAL), false},
    {"rightLittleDistal", P(RIGHT_LITTLE_INTERMEDIATE), false},
};
#undef P
SW_STATIC_ASSERT(sizeof sw__bones / sizeof sw__bones[0] == SW_HUMANOID_BONE_COUNT, "one row per bone");

static bool sw__valid(sw_humanoid_bone bone) { return (int)bone >= 0 && bone < SW_HUMANOID_BONE_COUNT; }

const char* sw_humanoid_bone_name(sw_humanoid_bone bone) { return sw__valid(bone) ? sw__bones[bone].name : NULL; }

static bool sw__exact(const char* name, sw_humanoid_bone* out) {
    for (int i = 0; i < SW_HUMANOID_BONE_COUNT; ++i) {
        if (strcmp(sw__bones[i].name, name) == 0) {
            *out = (sw_humanoid_bone)i;
            return true;
        }
    }
    return false;
}

bool sw_humanoid_bone_from_name(const char* name, sw_humanoid_bone* out) {
    SW_ASSERT(out);
    *out = SW_HUMANOID_NONE;
    if (!name) return false;
    if (sw__exact(name, out)) return true;
    if (strcmp(name, "leftThumbIntermediate") == 0) *out = SW_HUMANOID_LEFT_THUMB_PROXIMAL;
    else if (strcmp(name, "rightThumbIntermediate") == 0) *out = SW_HUMANOID_RIGHT_THUMB_PROXIMAL;
    return *out != SW_HUMANOID_NONE;
}

bool sw_humanoid_bone_from_vrm0_name(const char* name, sw_humanoid_bone* out) {
    SW_ASSERT(out);
    *out = SW_HUMANOID_NONE;
    if (!name) return false;
    /* The thumb's three joints, one name further down the finger in 0.x. */
    static const struct { const char* name; sw_humanoid_bone bone; } thumbs[] = {
        {"leftThumbProximal", SW_HUMANOID_LEFT_THUMB_METACARPAL},
        {"leftThumbIntermediate", SW_HUMANOID_LEFT_THUMB_PROXIMAL},
        {"leftThumbDistal", SW_HUMANOID_LEFT_THUMB_DISTAL},
        {"rightThumbProximal", SW_HUMANOID_RIGHT_THUMB_METACARPAL},
        {"rightThumbIntermediate", SW_HUMANOID_RIGHT_THUMB_PROXIMAL},
        {"rightThumbDistal", SW_HUMANOID_RIGHT_THUMB_DISTAL},
    };
    for (size_t i = 0; i < sizeof thumbs / sizeof thumbs[0]; ++i) {
        if (strcmp(thumbs[i].name, name) == 0) {
            *out = thumbs[i].bone;
            return true;
        }
    }
    if (strstr(name, "Thumb")) return false; /* 1.0's thumbMetacarpal is not a 0.x name */
    return sw__exact(name, out);
}

sw_humanoid_bone sw_humanoid_parent_bone(sw_humanoid_bone bone) {
    return sw__valid(bone) ? sw__bones[bone].parent : SW_HUMANOID_NONE;
}

bool sw_humanoid_bone_required(sw_humanoid_bone bone) { return sw__valid(bone) && sw__bones[bone].required; }

void sw_humanoid_map_clear(sw_humanoid_map* map) {
    SW_ASSERT(map);
    for (int i = 0; i < SW_HUMANOID_BONE_COUNT; ++i) map->node[i] = -1;
}

sw_humanoid_bone sw_humanoid_mapped_parent(const sw_humanoid_map* map, sw_humanoid_bone bone) {
    SW_ASSERT(map);
    sw_humanoid_bone b = sw_humanoid_parent_bone(bone);
    while (b != SW_HUMANOID_NONE && map->node[b] < 0) b = sw__bones[b].parent;
    return b;
}

void sw_humanoid_map_coverage(const sw_humanoid_map* map, uint32_t* mapped, uint32_t* required_missing) {
    SW_ASSERT(map);
    uint32_t n = 0, missing = 0;
    for (int i = 0; i < SW_HUMANOID_BONE_COUNT; ++i) {
        if (map->node[i] >= 0) ++n;
        else if (sw__bones[i].required) ++missing;
    }
    if (mapped) *mapped = n;
    if (required_missing) *required_missing = missing;
}
