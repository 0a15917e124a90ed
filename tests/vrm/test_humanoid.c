/* The humanoid bone set (sinew/humanoid.h) against VRMC_vrm-1.0 humanoid.md:
   55 bones, names, the parent table, the 15 required bones, VRM 0.x thumb
   names. */
#include <string.h>

#include "harness.h"
#include "sinew/humanoid.h"

static void test_names_round_trip(void) {
    SW_CHECK_EQ_INT(SW_HUMANOID_BONE_COUNT, 55);
    for (int b = 0; b < SW_HUMANOID_BONE_COUNT; b++) {
        const char* name = sw_humanoid_bone_name((sw_humanoid_bone)b);
        SW_CHECK(name != NULL);
        sw_humanoid_bone back;
        SW_CHECK(sw_humanoid_bone_from_name(name, &back));
        SW_CHECK_EQ_INT(back, b);
    }
    SW_CHECK(strcmp(sw_humanoid_bone_name(SW_HUMANOID_UPPER_CHEST), "upperChest") == 0);
    SW_CHECK(strcmp(sw_humanoid_bone_name(SW_HUMANOID_RIGHT_LITTLE_DISTAL), "rightLittleDistal") == 0);
    SW_CHECK(sw_humanoid_bone_name(SW_HUMANOID_BONE_COUNT) == NULL);
    SW_CHECK(sw_humanoid_bone_name(SW_HUMANOID_NONE) == NULL);
    sw_humanoid_bone b;
    SW_CHECK(!sw_humanoid_bone_from_name("Hips", &b)); /* case matters, as in VRM */
    SW_CHECK_EQ_INT(b, SW_HUMANOID_NONE);
    SW_CHECK(!sw_humanoid_bone_from_name("", &b));
    SW_CHECK(!sw_humanoid_bone_from_name(NULL, &b));
}

static void test_vrm0_thumbs(void) {
    sw_humanoid_bone b;
    SW_CHECK(sw_humanoid_bone_from_vrm0_name("leftThumbProximal", &b));
    SW_CHECK_EQ_INT(b, SW_HUMANOID_LEFT_THUMB_METACARPAL);
    SW_CHECK(sw_humanoid_bone_from_vrm0_name("leftThumbIntermediate", &b));
    SW_CHECK_EQ_INT(b, SW_HUMANOID_LEFT_THUMB_PROXIMAL);
    SW_CHECK(sw_humanoid_bone_from_vrm0_name("rightThumbDistal", &b));
    SW_CHECK_EQ_INT(b, SW_HUMANOID_RIGHT_THUMB_DISTAL);
    SW_CHECK(!sw_humanoid_bone_from_vrm0_name("leftThumbMetacarpal", &b)); /* a 1.0 name only */
    SW_CHECK(sw_humanoid_bone_from_vrm0_name("upperChest", &b));
    SW_CHECK_EQ_INT(b, SW_HUMANOID_UPPER_CHEST);
    SW_CHECK(sw_humanoid_bone_from_vrm0_name("leftIndexIntermediate", &b));
    SW_CHECK_EQ_INT(b, SW_HUMANOID_LEFT_INDEX_INTERMEDIATE);
    /* the generic reader: 1.0 meaning, 0.x's intermediate accepted */
    SW_CHECK(sw_humanoid_bone_from_name("leftThumbProximal", &b));
    SW_CHECK_EQ_INT(b, SW_HUMANOID_LEFT_THUMB_PROXIMAL);
    SW_CHECK(sw_humanoid_bone_from_name("rightThumbIntermediate", &b));
    SW_CHECK_EQ_INT(b, SW_HUMANOID_RIGHT_THUMB_PROXIMAL);
}

static void test_hierarchy(void) {
    /* humanoid.md's parent column */
    static const struct {
        sw_humanoid_bone bone, parent;
    } rows[] = {
        {SW_HUMANOID_HIPS, SW_HUMANOID_NONE},
        {SW_HUMANOID_SPINE, SW_HUMANOID_HIPS},
        {SW_HUMANOID_NECK, SW_HUMANOID_UPPER_CHEST},
        {SW_HUMANOID_HEAD, SW_HUMANOID_NECK},
        {SW_HUMANOID_JAW, SW_HUMANOID_HEAD},
        {SW_HUMANOID_LEFT_SHOULDER, SW_HUMANOID_UPPER_CHEST},
        {SW_HUMANOID_RIGHT_UPPER_ARM, SW_HUMANOID_RIGHT_SHOULDER},
        {SW_HUMANOID_LEFT_UPPER_LEG, SW_HUMANOID_HIPS},
        {SW_HUMANOID_RIGHT_TOES, SW_HUMANOID_RIGHT_FOOT},
        {SW_HUMANOID_LEFT_THUMB_METACARPAL, SW_HUMANOID_LEFT_HAND},
        {SW_HUMANOID_LEFT_THUMB_DISTAL, SW_HUMANOID_LEFT_THUMB_PROXIMAL},
        {SW_HUMANOID_RIGHT_LITTLE_PROXIMAL, SW_HUMANOID_RIGHT_HAND},
        {SW_HUMANOID_RIGHT_LITTLE_DISTAL, SW_HUMANOID_RIGHT_LITTLE_INTERMEDIATE},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        SW_CHECK_EQ_INT(sw_humanoid_parent_bone(rows[i].bone), rows[i].parent);
    /* every bone reaches hips, and parents come first in the enum */
    for (int b = 1; b < SW_HUMANOID_BONE_COUNT; b++) {
        sw_humanoid_bone p = sw_humanoid_parent_bone((sw_humanoid_bone)b);
        SW_CHECK(p >= 0 && (int)p < b);
    }
    int required = 0;
    for (int b = 0; b < SW_HUMANOID_BONE_COUNT; b++) required += sw_humanoid_bone_required((sw_humanoid_bone)b);
    SW_CHECK_EQ_INT(required, 15);
    SW_CHECK(sw_humanoid_bone_required(SW_HUMANOID_HEAD));
    SW_CHECK(!sw_humanoid_bone_required(SW_HUMANOID_NECK)); /* required in 0.x only */
    SW_CHECK(!sw_humanoid_bone_required(SW_HUMANOID_CHEST));
    SW_CHECK(sw_humanoid_bone_required(SW_HUMANOID_RIGHT_HAND));
}

static void test_map(void) {
    sw_humanoid_map map;
    sw_humanoid_map_clear(&map);
    uint32_t mapped = 99, missing = 99;
    sw_humanoid_map_coverage(&map, &mapped, &missing);
    SW_CHECK_EQ_INT(mapped, 0);
    SW_CHECK_EQ_INT(missing, 15);
    map.node[SW_HUMANOID_HIPS] = 0;
    map.node[SW_HUMANOID_SPINE] = 1;
    map.node[SW_HUMANOID_HEAD] = 2;
    map.node[SW_HUMANOID_JAW] = 3;
    sw_humanoid_map_coverage(&map, &mapped, &missing);
    SW_CHECK_EQ_INT(mapped, 4);
    SW_CHECK_EQ_INT(missing, 12);
    /* head's parents neck, upperChest, chest are absent: spine */
    SW_CHECK_EQ_INT(sw_humanoid_mapped_parent(&map, SW_HUMANOID_HEAD), SW_HUMANOID_SPINE);
    SW_CHECK_EQ_INT(sw_humanoid_mapped_parent(&map, SW_HUMANOID_JAW), SW_HUMANOID_HEAD);
    SW_CHECK_EQ_INT(sw_humanoid_mapped_parent(&map, SW_HUMANOID_HIPS), SW_HUMANOID_NONE);
    SW_CHECK_EQ_INT(sw_humanoid_mapped_parent(&map, SW_HUMANOID_LEFT_HAND), SW_HUMANOID_SPINE);
}

int main(void) {
    SW_RUN(test_names_round_trip);
    SW_RUN(test_vrm0_thumbs);
    SW_RUN(test_hierarchy);
    SW_RUN(test_map);
    return sw_test_finish();
}
