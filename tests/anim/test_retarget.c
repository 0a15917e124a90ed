/* Clips from another file (sinew/retarget.h): name tables, user bone maps,
   merging by name, and retargeting.

   The rigs are the demo character and copies of it made in memory (the
   model struct copied, its node array replaced): renamed to Mixamo names,
   and posed at rest with the arms horizontal (a T-pose; the demo's rest is
   an A-pose), the left arm by its rest rotation, the right arm by its
   joints' rest positions. Expected values are invariants:
   - same skeleton under other names: every mapped joint's local rotation
     and the hips' translation come back within 1e-6;
   - T-pose target: each mapped bone points where the source's bone points
     (world direction to the next mapped joint) within 0.05° at the clip's
     keys and 1° between them, and the hips move as the source's (same
     legs, so the scale is 1).
   With SINEW_ASSETS: arnaud_locomotion.glb (HumanIK names) retargeted onto
   the demo character, merged onto itself by name, and the IQM and FBX
   pairs merged by name when the Assimp importer is built (skipped, saying
   so, otherwise). */
#include "harness.h"
#include "test_pose.h"

#include "sinew/demo.h"
#include "sinew/gltf.h"
#include "sinew/humanoid.h"
#include "sinew/pose.h"
#include "sinew/retarget.h"

#if defined(__has_include)
#if __has_include("sinew/import.h")
#include "sinew/import.h"
#define HAVE_IMPORT 1
#endif
#endif

#include <stdlib.h>
#include <string.h>

static sw_model* load_demo(void) {
    uint8_t* glb = NULL;
    size_t size = 0;
    sw_model* m = NULL;
    if (sw_demo_character_glb(&glb, &size, NULL) != SW_OK) return NULL;
    if (sw_gltf_load_memory(glb, size, SW_DEMO_CHARACTER_NAME, NULL, NULL, &m, NULL) != SW_OK) m = NULL;
    sw_demo_character_glb_free(glb);
    return m;
}

/* A copy of `m` whose nodes (and rest pose) the test may change: the
   struct copied, nodes and rest_local replaced, no clips of its own. */
typedef struct edited {
    sw_model model;
    sw_model_node* nodes;
    sw_transform* rest;
} edited;

static bool edit_model(edited* e, const sw_model* m) {
    e->model = *m;
    e->nodes = malloc(m->node_count * sizeof *e->nodes);
    e->rest = malloc(m->node_count * sizeof *e->rest);
    if (!e->nodes || !e->rest) return false;
    memcpy(e->nodes, m->nodes, m->node_count * sizeof *e->nodes);
    memcpy(e->rest, m->rest_local, m->node_count * sizeof *e->rest);
    e->model.nodes = e->nodes;
    e->model.rest_local = e->rest;
    e->model.animations = NULL;
    e->model.animation_count = 0;
    return true;
}

static void edit_free(edited* e) { free(e->nodes), free(e->rest); }

static int node_named(const sw_model* m, const char* name) {
    for (size_t i = 0; i < m->node_count; ++i)
        if (m->nodes[i].name && strcmp(m->nodes[i].name, name) == 0) return (int)i;
    return -1;
}

static long clip_named(const sw_model* m, const char* name) {
    for (size_t i = 0; i < m->animation_count; ++i)
        if (m->animations[i].name && strcmp(m->animations[i].name, name) == 0) return (long)i;
    return -1;
}

/* The demo's body joints under Mixamo names (prefixed). */
static const char* const demo_to_mixamo[][2] = {
    {"pelvis", "mixamorig:Hips"},           {"spine", "mixamorig:Spine"},
    {"chest", "mixamorig:Spine1"},          {"neck", "mixamorig:Neck"},
    {"head", "mixamorig:Head"},             {"shoulder_l", "mixamorig:LeftShoulder"},
    {"upper_arm_l", "mixamorig:LeftArm"},   {"forearm_l", "mixamorig:LeftForeArm"},
    {"hand_l", "mixamorig:LeftHand"},       {"shoulder_r", "mixamorig:RightShoulder"},
    {"upper_arm_r", "mixamorig:RightArm"},  {"forearm_r", "mixamorig:RightForeArm"},
    {"hand_r", "mixamorig:RightHand"},      {"thigh_l", "mixamorig:LeftUpLeg"},
    {"shin_l", "mixamorig:LeftLeg"},        {"foot_l", "mixamorig:LeftFoot"},
    {"thigh_r", "mixamorig:RightUpLeg"},    {"shin_r", "mixamorig:RightLeg"},
    {"foot_r", "mixamorig:RightFoot"},
};
#define RENAMED (sizeof demo_to_mixamo / sizeof demo_to_mixamo[0])

static void rename_to_mixamo(edited* e) {
    for (size_t r = 0; r < RENAMED; ++r) {
        int n = node_named(&e->model, demo_to_mixamo[r][0]);
        if (n >= 0) e->nodes[n].name = demo_to_mixamo[r][1];
    }
}

static double quat_diff(sw_quat a, sw_quat b) {
    double s = (double)a.x * b.x + (double)a.y * b.y + (double)a.z * b.z + (double)a.w * b.w < 0 ? -1.0 : 1.0;
    double d = fabs(a.x - s * b.x);
    d = fmax(d, fabs(a.y - s * b.y));
    d = fmax(d, fabs(a.z - s * b.z));
    return fmax(d, fabs(a.w - s * b.w));
}

static sw_vec3 world_pos(const sw_pose* p, int node) {
    return sw_vec3_make(p->world[node].m[0][3], p->world[node].m[1][3], p->world[node].m[2][3]);
}

/* atan2 of |a × b| and a · b in double: exact for small angles, where acos
   of the cosine loses half the digits. */
static double angle_deg(sw_vec3 a, sw_vec3 b) {
    double ax = a.x, ay = a.y, az = a.z, bx = b.x, by = b.y, bz = b.z;
    double cx = ay * bz - az * by, cy = az * bx - ax * bz, cz = ax * by - ay * bx;
    return atan2(sqrt(cx * cx + cy * cy + cz * cz), ax * bx + ay * by + az * bz) * 180.0 / 3.14159265358979323846;
}

/* ---- name tables ------------------------------------------------------------- */

typedef struct joint_def {
    const char* name;
    int parent;
} joint_def;

/* A skeleton-only model: names and parents, joints 0.1 apart along +Y
   under their parent. */
typedef struct skeleton_model {
    sw_model model;
    sw_model_node nodes[96];
    sw_transform rest[96];
    uint32_t offsets[96];
} skeleton_model;

static void make_skeleton(skeleton_model* s, const joint_def* joints, size_t count) {
    memset(s, 0, sizeof *s);
    for (size_t i = 0; i < count && i < 96; ++i) {
        s->nodes[i].name = joints[i].name;
        s->nodes[i].parent = joints[i].parent;
        s->nodes[i].mesh = s->nodes[i].skin = s->nodes[i].camera = -1;
        s->rest[i] = sw_transform_identity();
        s->rest[i].translation.y = joints[i].parent >= 0 ? 0.1f : 1.0f;
        s->nodes[i].trs = s->rest[i];
    }
    s->model.node_count = count;
    s->model.nodes = s->nodes;
    s->model.rest_local = s->rest;
    s->model.weight_offsets = s->offsets;
    s->model.default_scene = -1;
}

static const joint_def mixamo_joints[] = {
    {"mixamorig:Hips", -1},          {"mixamorig:Spine", 0},           {"mixamorig:Spine1", 1},
    {"mixamorig:Spine2", 2},         {"mixamorig:Neck", 3},            {"mixamorig:Head", 4},
    {"mixamorig:LeftShoulder", 3},   {"mixamorig:LeftArm", 6},         {"mixamorig:LeftForeArm", 7},
    {"mixamorig:LeftHand", 8},       {"mixamorig:LeftHandThumb1", 9},  {"mixamorig:LeftHandThumb2", 10},
    {"mixamorig:LeftHandThumb3", 11}, {"mixamorig:LeftHandIndex1", 9}, {"mixamorig:LeftHandIndex2", 13},
    {"mixamorig:LeftHandIndex3", 14}, {"mixamorig:RightShoulder", 3},  {"mixamorig:RightArm", 16},
    {"mixamorig:RightForeArm", 17},  {"mixamorig:RightHand", 18},     {"mixamorig:LeftUpLeg", 0},
    {"mixamorig:LeftLeg", 20},       {"mixamorig:LeftFoot", 21},       {"mixamorig:LeftToeBase", 22},
    {"mixamorig:RightUpLeg", 0},     {"mixamorig:RightLeg", 24},       {"mixamorig:RightFoot", 25},
    {"mixamorig:RightToeBase", 26},  {"mixamorig:HeadTop_End", 5},
};

static void test_mixamo_names(void) {
    skeleton_model s;
    make_skeleton(&s, mixamo_joints, sizeof mixamo_joints / sizeof mixamo_joints[0]);
    sw_humanoid_map map;
    sw_humanoid_naming naming;
    sw_diag diag;
    SW_CHECK(sw_humanoid_map_from_names(&s.model, NULL, &map, &naming, &diag) == SW_OK);
    SW_CHECK_EQ_INT(naming.table, SW_BONE_NAMING_MIXAMO);
    SW_CHECK(strcmp(sw_bone_naming_name(naming.table), "Mixamo") == 0);
    SW_CHECK(naming.mapped >= 20);
    SW_CHECK_EQ_INT(naming.mapped, 28); /* every joint but HeadTop_End */
    SW_CHECK_EQ_INT(map.node[SW_HUMANOID_HIPS], 0);
    SW_CHECK_EQ_INT(map.node[SW_HUMANOID_CHEST], 2);
    SW_CHECK_EQ_INT(map.node[SW_HUMANOID_UPPER_CHEST], 3);
    SW_CHECK_EQ_INT(map.node[SW_HUMANOID_LEFT_UPPER_ARM], 7);
    SW_CHECK_EQ_INT(map.node[SW_HUMANOID_LEFT_LOWER_ARM], 8);
    SW_CHECK_EQ_INT(map.node[SW_HUMANOID_LEFT_THUMB_METACARPAL], 10);
    SW_CHECK_EQ_INT(map.node[SW_HUMANOID_LEFT_INDEX_DISTAL], 15);
    SW_CHECK_EQ_INT(map.node[SW_HUMANOID_RIGHT_HAND], 19);
    SW_CHECK_EQ_INT(map.node[SW_HUMANOID_LEFT_UPPER_LEG], 20);
    SW_CHECK_EQ_INT(map.node[SW_HUMANOID_LEFT_LOWER_LEG], 21);
    SW_CHECK_EQ_INT(map.node[SW_HUMANOID_RIGHT_TOES], 27);
    SW_CHECK_EQ_INT(map.node[SW_HUMANOID_LEFT_MIDDLE_PROXIMAL], -1);

    /* Other namespaces and letter case: the same joints. */
    const char* other[sizeof mixamo_joints / sizeof mixamo_joints[0]];
    char buf[sizeof mixamo_joints / sizeof mixamo_joints[0]][64];
    for (size_t i = 0; i < sizeof mixamo_joints / sizeof mixamo_joints[0]; ++i) {
        snprintf(buf[i], sizeof buf[i], "Armature|%s", mixamo_joints[i].name + strlen("mixamorig:"));
        if (i == 7) strcpy(buf[i], "LEFTARM"); /* no prefix, other case */
        other[i] = buf[i];
        s.nodes[i].name = other[i];
    }
    sw_humanoid_map again;
    SW_CHECK(sw_humanoid_map_from_names(&s.model, NULL, &again, &naming, &diag) == SW_OK);
    SW_CHECK(memcmp(&again, &map, sizeof map) == 0);
}

static const joint_def ue5_joints[] = {
    {"root", -1},       {"pelvis", 0},       {"spine_01", 1},     {"spine_02", 2},      {"spine_03", 3},
    {"spine_04", 4},    {"spine_05", 5},     {"neck_01", 6},      {"neck_02", 7},       {"head", 8},
    {"clavicle_l", 6},  {"upperarm_l", 10},  {"lowerarm_l", 11},  {"hand_l", 12},       {"thumb_01_l", 13},
    {"index_01_l", 13}, {"middle_01_l", 13}, {"clavicle_r", 6},   {"upperarm_r", 17},   {"lowerarm_r", 18},
    {"hand_r", 19},     {"thigh_l", 1},      {"calf_l", 21},      {"foot_l", 22},       {"ball_l", 23},
    {"thigh_r", 1},     {"calf_r", 25},      {"foot_r", 26},      {"ball_r", 27},       {"upperarm_twist_01_l", 11},
};

static void test_ue_names(void) {
    skeleton_model s;
    make_skeleton(&s, ue5_joints, sizeof ue5_joints / sizeof ue5_joints[0]);
    sw_humanoid_map map;
    sw_humanoid_naming naming;
    SW_CHECK(sw_humanoid_map_from_names(&s.model, NULL, &map, &naming, NULL) == SW_OK);
    SW_CHECK_EQ_INT(naming.table, SW_BONE_NAMING_UE);
    SW_CHECK_EQ_INT(naming.mapped, 25);
    SW_CHECK_EQ_INT(map.node[SW_HUMANOID_HIPS], 1);
    SW_CHECK_EQ_INT(map.node[SW_HUMANOID_SPINE], 2);
    SW_CHECK_EQ_INT(map.node[SW_HUMANOID_CHEST], 4);       /* UE5: spine_03 */
    SW_CHECK_EQ_INT(map.node[SW_HUMANOID_UPPER_CHEST], 6); /* spine_05 */
    SW_CHECK_EQ_INT(map.node[SW_HUMANOID_NECK], 7);
    SW_CHECK_EQ_INT(map.node[SW_HUMANOID_LEFT_SHOULDER], 10);
    SW_CHECK_EQ_INT(map.node[SW_HUMANOID_LEFT_UPPER_ARM], 11);
    SW_CHECK_EQ_INT(map.node[SW_HUMANOID_LEFT_MIDDLE_PROXIMAL], 16);
    SW_CHECK_EQ_INT(map.node[SW_HUMANOID_RIGHT_LOWER_ARM], 19);
    SW_CHECK_EQ_INT(map.node[SW_HUMANOID_LEFT_LOWER_LEG], 22);
    SW_CHECK_EQ_INT(map.node[SW_HUMANOID_RIGHT_TOES], 28);
    /* UE4: three spine joints. */
    make_skeleton(&s, ue5_joints, 5);
    SW_CHECK(sw_humanoid_map_from_names(&s.model, NULL, &map, &naming, NULL) == SW_OK);
    SW_CHECK_EQ_INT(map.node[SW_HUMANOID_CHEST], 3);       /* spine_02 */
    SW_CHECK_EQ_INT(map.node[SW_HUMANOID_UPPER_CHEST], 4); /* spine_03 */
}

static const joint_def rigify_joints[] = {
    {"DEF-spine", -1},          {"DEF-spine.001", 0},      {"DEF-spine.002", 1},    {"DEF-spine.003", 2},
    {"DEF-spine.004", 3},       {"DEF-spine.005", 4},      {"DEF-spine.006", 5},    {"DEF-shoulder.L", 3},
    {"DEF-upper_arm.L", 7},     {"DEF-upper_arm.L.001", 8}, {"DEF-forearm.L", 9},   {"DEF-forearm.L.001", 10},
    {"DEF-hand.L", 11},         {"DEF-f_index.01.L", 12},  {"DEF-thumb.01.L", 12},  {"DEF-shoulder.R", 3},
    {"DEF-upper_arm.R", 15},    {"DEF-forearm.R", 16},     {"DEF-hand.R", 17},      {"DEF-thigh.L", 0},
    {"DEF-shin.L", 19},         {"DEF-foot.L", 20},        {"DEF-toe.L", 21},       {"DEF-thigh.R", 0},
    {"DEF-shin.R", 23},         {"DEF-foot.R", 24},        {"DEF-toe.R", 25},
};

static void test_rigify_names(void) {
    skeleton_model s;
    make_skeleton(&s, rigify_joints, sizeof rigify_joints / sizeof rigify_joints[0]);
    sw_humanoid_map map;
    sw_humanoid_naming naming;
    SW_CHECK(sw_humanoid_map_from_names(&s.model, NULL, &map, &naming, NULL) == SW_OK);
    SW_CHECK_EQ_INT(naming.table, SW_BONE_NAMING_RIGIFY);
    SW_CHECK_EQ_INT(naming.mapped, 24);
    SW_CHECK_EQ_INT(map.node[SW_HUMANOID_HIPS], 0);
    SW_CHECK_EQ_INT(map.node[SW_HUMANOID_SPINE], 1);
    SW_CHECK_EQ_INT(map.node[SW_HUMANOID_NECK], 4);
    SW_CHECK_EQ_INT(map.node[SW_HUMANOID_HEAD], 6);
    SW_CHECK_EQ_INT(map.node[SW_HUMANOID_LEFT_UPPER_ARM], 8);
    SW_CHECK_EQ_INT(map.node[SW_HUMANOID_LEFT_LOWER_ARM], 10); /* not the .001 twist segment */
    SW_CHECK_EQ_INT(map.node[SW_HUMANOID_LEFT_HAND], 12);
    SW_CHECK_EQ_INT(map.node[SW_HUMANOID_LEFT_THUMB_METACARPAL], 14);
    SW_CHECK_EQ_INT(map.node[SW_HUMANOID_RIGHT_HAND], 18);
    SW_CHECK_EQ_INT(map.node[SW_HUMANOID_LEFT_TOES], 22);
    SW_CHECK_EQ_INT(map.node[SW_HUMANOID_RIGHT_LOWER_LEG], 24);
}

static void test_demo_and_vrm_names(void) {
    sw_model* demo = load_demo();
    SW_CHECK(demo != NULL);
    if (!demo) return;
    sw_humanoid_map map;
    sw_humanoid_naming naming;
    SW_CHECK(sw_humanoid_map_from_names(demo, NULL, &map, &naming, NULL) == SW_OK);
    SW_CHECK_EQ_INT(naming.table, SW_BONE_NAMING_SINEW);
    SW_CHECK_EQ_INT(naming.mapped, 19);
    SW_CHECK_EQ_INT(map.node[SW_HUMANOID_HIPS], node_named(demo, "pelvis"));
    SW_CHECK_EQ_INT(map.node[SW_HUMANOID_LEFT_LOWER_ARM], node_named(demo, "forearm_l"));
    SW_CHECK_EQ_INT(map.node[SW_HUMANOID_RIGHT_LOWER_LEG], node_named(demo, "shin_r"));
    uint32_t required_missing = 99;
    sw_humanoid_map_coverage(&map, NULL, &required_missing);
    SW_CHECK_EQ_INT(required_missing, 0);

    static const joint_def vrm_joints[] = {
        {"Hips", -1}, {"spine", 0}, {"head", 1}, {"LeftUpperArm", 1}, {"leftLowerArm", 3}, {"leftHand", 4},
    };
    skeleton_model s;
    make_skeleton(&s, vrm_joints, 6);
    SW_CHECK(sw_humanoid_map_from_names(&s.model, NULL, &map, &naming, NULL) == SW_OK);
    SW_CHECK_EQ_INT(naming.table, SW_BONE_NAMING_VRM);
    SW_CHECK_EQ_INT(naming.mapped, 6);
    SW_CHECK_EQ_INT(map.node[SW_HUMANOID_LEFT_UPPER_ARM], 3);
    sw_model_free(demo);
}

/* diag's message is `want` (both printed when not). */
static bool message_is(const sw_diag* diag, const char* want) {
    if (strcmp(diag->message, want) == 0) return true;
    fprintf(stderr, "  message: %s\n  wanted:  %s\n", diag->message, want);
    return false;
}

static void test_user_bone_map(void) {
    static const joint_def joints[] = {
        {"Bip01_Pelvis", -1}, {"Bip01_Spine", 0}, {"Bip01_Head", 1}, {"mixamorig:LeftArm", 1}, {"mixamorig:Hips", -1},
    };
    skeleton_model s;
    make_skeleton(&s, joints, 5);
    sw_humanoid_map map;
    sw_humanoid_naming naming;
    sw_diag diag;
    const char* json = "{\"hips\": \"bip01_pelvis\", \"Spine\": \"Bip01_Spine\", \"head\": \"Bip01_Head\","
                       " \"leftUpperArm\": null, \"leftHand\": \"NotThere\"}";
    sw_bone_map* bone_map = NULL;
    SW_CHECK(sw_bone_map_read(json, strlen(json), NULL, &bone_map, &diag) == SW_OK && bone_map);
    SW_CHECK_EQ_INT(bone_map->entry_count, 5);
    SW_CHECK_EQ_INT(bone_map->entries[1].bone, SW_HUMANOID_SPINE); /* "Spine": case-insensitive */
    SW_CHECK(bone_map->entries[3].node == NULL);                   /* null: leave the bone out */
    SW_CHECK(sw_humanoid_map_from_names(&s.model, bone_map, &map, &naming, &diag) == SW_OK);
    SW_CHECK_EQ_INT(naming.table, SW_BONE_NAMING_MIXAMO); /* the table first: Hips and LeftArm */
    SW_CHECK_EQ_INT(naming.table_bones, 2);
    SW_CHECK_EQ_INT(naming.user_bones, 4);
    SW_CHECK_EQ_INT(naming.user_missing, 1);
    SW_CHECK_EQ_INT(map.node[SW_HUMANOID_HIPS], 0); /* the user's choice, case-insensitive */
    SW_CHECK_EQ_INT(map.node[SW_HUMANOID_SPINE], 1);
    SW_CHECK_EQ_INT(map.node[SW_HUMANOID_HEAD], 2);
    SW_CHECK_EQ_INT(map.node[SW_HUMANOID_LEFT_UPPER_ARM], -1);
    SW_CHECK_EQ_INT(naming.mapped, 3);
    sw_bone_map_free(bone_map);

    /* Broken maps: no map, one line naming the problem (and the file when named). */
    static const struct {
        const char* json;
        const char* message;
        int64_t index;
    } bad[] = {
        {"{\"hips\": \"Bip01_Pelvis\",", "map.json: bone map is not valid JSON (near byte 24)", 24},
        {"[1]", "map.json: bone map is not a JSON object of humanoid bone names to node names", -1},
        {"{\"pelvis\": \"Bip01_Pelvis\"}",
         "map.json: bone map: \"pelvis\" is not a VRM humanoid bone name (hips, spine, leftUpperArm, ...)", -1},
        {"{\"hips\": 3}", "map.json: bone map: the value of \"hips\" is not a node name or null", -1},
        {"{\"hips\": \"a\"} x", "map.json: bone map is not valid JSON (near byte 14)", 14},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        bone_map = (sw_bone_map*)&bad; /* must come back NULL */
        SW_CHECK_EQ_INT(sw_bone_map_read(bad[i].json, strlen(bad[i].json), "map.json", &bone_map, &diag),
                        SW_ERR_INVALID_DATA);
        SW_CHECK(bone_map == NULL);
        SW_CHECK(message_is(&diag, bad[i].message));
        SW_CHECK_EQ_INT(diag.index, bad[i].index);
    }
    /* Without a name the message starts at "bone map"; the size bounds the text. */
    SW_CHECK_EQ_INT(sw_bone_map_read("{}trailing", 2, NULL, &bone_map, &diag), SW_OK);
    SW_CHECK(bone_map && bone_map->entry_count == 0);
    sw_bone_map_free(bone_map);
    SW_CHECK_EQ_INT(sw_bone_map_read("[1]", 3, NULL, &bone_map, &diag), SW_ERR_INVALID_DATA);
    SW_CHECK(message_is(&diag, "bone map is not a JSON object of humanoid bone names to node names"));
    SW_CHECK_EQ_INT(sw_bone_map_read("{\"hips\": \"a\0b\"}", 16, NULL, &bone_map, &diag), SW_ERR_INVALID_DATA);
    SW_CHECK(message_is(&diag, "bone map is not valid JSON (near byte 11)"));

    /* A map built by hand: a bone outside the humanoid is the caller's error. */
    const sw_bone_map_entry entries[] = {{SW_HUMANOID_HIPS, "Bip01_Pelvis"}, {(sw_humanoid_bone)999, "x"}};
    const sw_bone_map by_hand = {2, entries};
    SW_CHECK_EQ_INT(sw_humanoid_map_from_names(&s.model, &by_hand, &map, &naming, &diag), SW_ERR_INVALID_ARGUMENT);
    SW_CHECK_EQ_INT(map.node[SW_HUMANOID_HIPS], -1);
    const sw_bone_map first = {1, entries};
    SW_CHECK_EQ_INT(sw_humanoid_map_from_names(&s.model, &first, &map, &naming, &diag), SW_OK);
    SW_CHECK_EQ_INT(map.node[SW_HUMANOID_HIPS], 0);
}

/* ---- merging by name --------------------------------------------------------- */

static void test_merge_by_name(void) {
    sw_model* demo = load_demo();
    SW_CHECK(demo != NULL);
    if (!demo) return;
    edited e;
    SW_CHECK(edit_model(&e, demo));
    /* Other namespaces on every joint, one joint renamed away. */
    char names[64][48];
    for (size_t i = 0; i < demo->node_count && i < 64; ++i) {
        snprintf(names[i], sizeof names[i], "Armature|%s", demo->nodes[i].name ? demo->nodes[i].name : "");
        e.nodes[i].name = names[i];
    }
    int neck = node_named(demo, "neck");
    e.nodes[neck].name = "something else";
    long walk = clip_named(demo, "walk");
    const sw_clip* src = &demo->animations[walk];
    size_t neck_tracks = 0;
    for (size_t t = 0; t < src->track_count; ++t) neck_tracks += src->tracks[t].target == (uint32_t)neck;
    SW_CHECK(neck_tracks >= 1);

    sw_clip* clip = NULL;
    size_t dropped = 99;
    sw_diag diag;
    SW_CHECK(sw_clip_merge_by_name(&e.model, demo, src, &clip, &dropped, &diag) == SW_OK);
    SW_CHECK(clip != NULL);
    if (clip) {
        SW_CHECK_EQ_INT(dropped, neck_tracks);
        SW_CHECK_EQ_INT(clip->track_count, src->track_count - neck_tracks);
        SW_CHECK(strcmp(clip->name, "walk") == 0);
        SW_CHECK_NEAR(clip->duration, src->duration, 0);
        /* Same targets (the copy keeps the node order), same keys. */
        size_t k = 0;
        for (size_t t = 0; t < src->track_count; ++t) {
            if (src->tracks[t].target == (uint32_t)neck) continue;
            SW_CHECK_EQ_INT(clip->tracks[k].target, src->tracks[t].target);
            SW_CHECK_EQ_INT(clip->tracks[k].key_count, src->tracks[t].key_count);
            SW_CHECK(memcmp(clip->tracks[k].values, src->tracks[t].values,
                            src->tracks[t].key_count * src->tracks[t].component_count * sizeof(float)) == 0);
            SW_CHECK(clip->tracks[k].values != src->tracks[t].values); /* a copy */
            k++;
        }
    }
    sw_clip_free(clip);

    /* The demo onto itself: every clip, nothing dropped. */
    for (size_t c = 0; c < demo->animation_count; ++c) {
        SW_CHECK(sw_clip_merge_by_name(demo, demo, &demo->animations[c], &clip, &dropped, &diag) == SW_OK);
        SW_CHECK_EQ_INT(dropped, 0);
        SW_CHECK(clip && clip->track_count == demo->animations[c].track_count);
        sw_clip_free(clip);
    }
    SW_CHECK_EQ_INT(sw_model_find_node_by_name(demo, "mixamorig:PELVIS"), node_named(demo, "pelvis"));
    SW_CHECK_EQ_INT(sw_model_find_node_by_name(demo, "nothing"), -1);
    edit_free(&e);
    sw_model_free(demo);
}

/* ---- retargeting --------------------------------------------------------------- */

static void test_same_rig_renamed(void) {
    sw_model* demo = load_demo();
    SW_CHECK(demo != NULL);
    if (!demo) return;
    edited e;
    SW_CHECK(edit_model(&e, demo));
    rename_to_mixamo(&e);
    sw_humanoid_map src_map, dst_map;
    sw_humanoid_naming sn, dn;
    SW_CHECK(sw_humanoid_map_from_names(demo, NULL, &src_map, &sn, NULL) == SW_OK);
    SW_CHECK(sw_humanoid_map_from_names(&e.model, NULL, &dst_map, &dn, NULL) == SW_OK);
    SW_CHECK_EQ_INT(sn.table, SW_BONE_NAMING_SINEW);
    SW_CHECK_EQ_INT(dn.table, SW_BONE_NAMING_MIXAMO);
    SW_CHECK_EQ_INT(dn.mapped, RENAMED);
    posed sp, dp;
    SW_CHECK(pose_make(demo, &sp) && pose_make(&e.model, &dp));
    double worst_rot = 0, worst_hips = 0;
    const char* clips[] = {"walk", "wave"};
    for (int c = 0; c < 2; ++c) {
        const sw_clip* src = &demo->animations[clip_named(demo, clips[c])];
        sw_clip* clip = NULL;
        sw_retarget_info info;
        sw_diag diag;
        SW_CHECK(sw_retarget_clip(demo, &src_map, src, &e.model, &dst_map, NULL, &clip, &info, &diag) == SW_OK);
        if (!clip) continue;
        SW_CHECK_EQ_INT(info.bones, RENAMED);
        SW_CHECK_EQ_INT(info.aligned, 0);
        SW_CHECK_NEAR(info.hips_scale, 1.0, 1e-6);
        SW_CHECK_EQ_INT(clip->track_count, RENAMED + 1);
        SW_CHECK_NEAR(clip->start, src->start, 1e-6);
        SW_CHECK_NEAR(clip->duration, src->duration, 1e-6);
        SW_CHECK(strcmp(clip->name, clips[c]) == 0);
        /* At keys and between them. */
        for (int i = 0; i <= 12; ++i) {
            float t = src->duration * (float)i / 12.0f + (i % 2 ? 0.013f : 0.0f);
            SW_CHECK(sw_pose_evaluate(demo, src, t, false, &sp.pose, &diag) == SW_OK);
            SW_CHECK(sw_pose_evaluate(&e.model, clip, t, false, &dp.pose, &diag) == SW_OK);
            for (size_t r = 0; r < RENAMED; ++r) {
                int n = node_named(demo, demo_to_mixamo[r][0]);
                worst_rot = fmax(worst_rot, quat_diff(sp.pose.local[n].rotation, dp.pose.local[n].rotation));
            }
            int hips = node_named(demo, "pelvis");
            sw_vec3 d = sw_vec3_sub(sp.pose.local[hips].translation, dp.pose.local[hips].translation);
            worst_hips = fmax(worst_hips, sw_vec3_length(d));
        }
        sw_clip_free(clip);
    }
    printf("same rig renamed: worst local rotation component %.3g, hips translation %.3g m\n", worst_rot, worst_hips);
    SW_CHECK(worst_rot <= 1e-6);
    SW_CHECK(worst_hips <= 1e-6);
    free(sp.memory), free(dp.memory);
    edit_free(&e);
    sw_model_free(demo);
}

/* The hips under a parent turned, scaled and moved at rest (as under a
   Mixamo or UE armature): the clip moves the hips in their parent's space,
   so in world space they move as the source's hips do (× hips_scale).
   Without that conversion the displacement would come out turned 90°
   about Y and doubled. The destination is the UE skeleton of the name
   tests (pelvis under root). */
static void test_hips_under_turned_parent(void) {
    sw_model* demo = load_demo();
    SW_CHECK(demo != NULL);
    if (!demo) return;
    skeleton_model dst;
    make_skeleton(&dst, ue5_joints, sizeof ue5_joints / sizeof ue5_joints[0]);
    const int root = node_named(&dst.model, "root"), hips = node_named(&dst.model, "pelvis");
    const int src_hips = node_named(demo, "pelvis");
    SW_CHECK(root == 0 && hips == 1 && src_hips >= 0);
    dst.rest[root].rotation = sw_quat_from_axis_angle(sw_vec3_make(0, 1, 0), 3.14159265f / 2);
    dst.rest[root].scale = sw_vec3_make(0.5f, 0.5f, 0.5f);
    dst.rest[root].translation = sw_vec3_make(0.3f, 1.0f, -0.2f);
    dst.nodes[root].trs = dst.rest[root];
    sw_humanoid_map src_map, dst_map;
    SW_CHECK(sw_humanoid_map_from_names(demo, NULL, &src_map, NULL, NULL) == SW_OK);
    SW_CHECK(sw_humanoid_map_from_names(&dst.model, NULL, &dst_map, NULL, NULL) == SW_OK);
    SW_CHECK_EQ_INT(dst_map.node[SW_HUMANOID_HIPS], hips);
    posed sp, dp;
    SW_CHECK(pose_make(demo, &sp) && pose_make(&dst.model, &dp));
    sw_pose_rest(demo, &sp.pose);
    sw_pose_update_world(demo, &sp.pose);
    sw_pose_rest(&dst.model, &dp.pose);
    sw_pose_update_world(&dst.model, &dp.pose);
    const sw_vec3 src_rest = world_pos(&sp.pose, src_hips), dst_rest = world_pos(&dp.pose, hips);
    const sw_clip* src = &demo->animations[clip_named(demo, "walk")];
    sw_clip* clip = NULL;
    sw_retarget_info info;
    sw_diag diag;
    SW_CHECK(sw_retarget_clip(demo, &src_map, src, &dst.model, &dst_map, NULL, &clip, &info, &diag) == SW_OK);
    double worst = 0.0, moved = 0.0;
    for (int i = 0; clip && i <= 12; ++i) {
        float t = src->duration * (float)i / 12.0f + (i % 2 ? 0.013f : 0.0f);
        SW_CHECK(sw_pose_evaluate(demo, src, t, false, &sp.pose, &diag) == SW_OK);
        SW_CHECK(sw_pose_evaluate(&dst.model, clip, t, false, &dp.pose, &diag) == SW_OK);
        sw_pose_update_world(demo, &sp.pose);
        sw_pose_update_world(&dst.model, &dp.pose);
        const sw_vec3 want = sw_vec3_scale(sw_vec3_sub(world_pos(&sp.pose, src_hips), src_rest), info.hips_scale);
        const sw_vec3 got = sw_vec3_sub(world_pos(&dp.pose, hips), dst_rest);
        worst = fmax(worst, sw_vec3_length(sw_vec3_sub(want, got)));
        moved = fmax(moved, sw_vec3_length(want));
    }
    printf("hips under a turned, scaled parent: world displacement off by %.3g m of %.3g m (hips scale %.3f)\n",
           worst, moved, info.hips_scale);
    SW_CHECK(moved > 0.001);          /* the clip does move the hips */
    SW_CHECK(worst <= 1e-4 * moved); /* the wrong space would be off by about 2× moved */
    sw_clip_free(clip);
    free(sp.memory), free(dp.memory);
    sw_model_free(demo);
}

/* The demo with both arms horizontal at rest: the left by its rest
   rotation, the right by the rest positions of the joints below it. */
static void make_t_pose(edited* e, const sw_model* demo, double* out_raise_deg) {
    posed p;
    if (!pose_make(demo, &p)) return;
    sw_pose_rest(demo, &p.pose);
    sw_pose_update_world(demo, &p.pose);
    int ul = node_named(demo, "upper_arm_l"), fl = node_named(demo, "forearm_l");
    sw_vec3 dir = sw_vec3_normalize(sw_vec3_sub(world_pos(&p.pose, fl), world_pos(&p.pose, ul)));
    /* Up about +Z for the left arm (+X), to horizontal. */
    float raise = atan2f(-dir.y, dir.x);
    *out_raise_deg = raise * 180.0 / 3.14159265358979323846;
    e->rest[ul].rotation = sw_quat_mul(sw_quat_from_axis_angle(sw_vec3_make(0, 0, 1), raise), e->rest[ul].rotation);
    e->nodes[ul].trs = e->rest[ul];
    /* Right arm: rest rotations are the identity, so local translations
       are world offsets; turn those below the upper arm about -Z. */
    sw_quat down = sw_quat_from_axis_angle(sw_vec3_make(0, 0, 1), -raise);
    const char* below[] = {"upper_arm_twist_r", "forearm_r", "forearm_twist_r", "hand_r"};
    for (int i = 0; i < 4; ++i) {
        int n = node_named(demo, below[i]);
        e->rest[n].translation = sw_quat_rotate(down, e->rest[n].translation);
        e->nodes[n].trs = e->rest[n];
    }
    free(p.memory);
}

static void test_a_pose_to_t_pose(void) {
    sw_model* demo = load_demo();
    SW_CHECK(demo != NULL);
    if (!demo) return;
    edited e;
    SW_CHECK(edit_model(&e, demo));
    rename_to_mixamo(&e);
    double raise = 0;
    make_t_pose(&e, demo, &raise);
    SW_CHECK(raise > 20.0 && raise < 80.0); /* the demo's arms hang in an A */
    sw_humanoid_map src_map, dst_map;
    SW_CHECK(sw_humanoid_map_from_names(demo, NULL, &src_map, NULL, NULL) == SW_OK);
    SW_CHECK(sw_humanoid_map_from_names(&e.model, NULL, &dst_map, NULL, NULL) == SW_OK);
    posed sp, dp, rest;
    SW_CHECK(pose_make(demo, &sp) && pose_make(&e.model, &dp) && pose_make(&e.model, &rest));
    /* The T-pose is a T-pose: the upper arms horizontal at rest. */
    sw_pose_rest(&e.model, &rest.pose);
    sw_pose_update_world(&e.model, &rest.pose);
    for (int side = 0; side < 2; ++side) {
        sw_vec3 a = world_pos(&rest.pose, dst_map.node[side ? SW_HUMANOID_RIGHT_UPPER_ARM : SW_HUMANOID_LEFT_UPPER_ARM]);
        sw_vec3 b = world_pos(&rest.pose, dst_map.node[side ? SW_HUMANOID_RIGHT_HAND : SW_HUMANOID_LEFT_HAND]);
        SW_CHECK_NEAR(a.y, b.y, 1e-5);
    }
    /* Each mapped bone and the mapped joint its direction is measured to. */
    static const sw_humanoid_bone pairs[][2] = {
        {SW_HUMANOID_HIPS, SW_HUMANOID_SPINE},
        {SW_HUMANOID_SPINE, SW_HUMANOID_CHEST},
        {SW_HUMANOID_CHEST, SW_HUMANOID_NECK},
        {SW_HUMANOID_NECK, SW_HUMANOID_HEAD},
        {SW_HUMANOID_LEFT_SHOULDER, SW_HUMANOID_LEFT_UPPER_ARM},
        {SW_HUMANOID_LEFT_UPPER_ARM, SW_HUMANOID_LEFT_LOWER_ARM},
        {SW_HUMANOID_LEFT_LOWER_ARM, SW_HUMANOID_LEFT_HAND},
        {SW_HUMANOID_RIGHT_SHOULDER, SW_HUMANOID_RIGHT_UPPER_ARM},
        {SW_HUMANOID_RIGHT_UPPER_ARM, SW_HUMANOID_RIGHT_LOWER_ARM},
        {SW_HUMANOID_RIGHT_LOWER_ARM, SW_HUMANOID_RIGHT_HAND},
        {SW_HUMANOID_LEFT_UPPER_LEG, SW_HUMANOID_LEFT_LOWER_LEG},
        {SW_HUMANOID_LEFT_LOWER_LEG, SW_HUMANOID_LEFT_FOOT},
        {SW_HUMANOID_RIGHT_UPPER_LEG, SW_HUMANOID_RIGHT_LOWER_LEG},
        {SW_HUMANOID_RIGHT_LOWER_LEG, SW_HUMANOID_RIGHT_FOOT},
    };
    double worst_key = 0, worst_between = 0, worst_hips = 0, worst_plain = 0;
    const char* clips[] = {"walk", "wave"};
    for (int c = 0; c < 2; ++c) {
        const sw_clip* src = &demo->animations[clip_named(demo, clips[c])];
        for (int mode = 0; mode < 2; ++mode) {
            sw_retarget_options opt = {.reference = mode ? SW_RETARGET_DELTA_ONLY : SW_RETARGET_MATCH_REST};
            sw_clip* clip = NULL;
            sw_retarget_info info;
            sw_diag diag;
            SW_CHECK(sw_retarget_clip(demo, &src_map, src, &e.model, &dst_map, &opt, &clip, &info, &diag) == SW_OK);
            if (!clip) continue;
            /* Turned at rest: the bones whose rest direction changed, the
               upper and lower arms. */
            SW_CHECK_EQ_INT(info.aligned, mode ? 0 : 4);
            const sw_track* keys = &clip->tracks[0];
            for (size_t i = 0; i < 2 * keys->key_count - 1; i += 1 + 2 * (keys->key_count / 10)) {
                bool at_key = i % 2 == 0; /* else halfway to the next key (the step is odd: both come) */
                size_t k = i / 2;
                float t = at_key ? keys->times[k] : 0.5f * (keys->times[k] + keys->times[k + 1]);
                SW_CHECK(sw_pose_evaluate(demo, src, t, false, &sp.pose, &diag) == SW_OK);
                SW_CHECK(sw_pose_evaluate(&e.model, clip, t, false, &dp.pose, &diag) == SW_OK);
                for (size_t q = 0; q < sizeof pairs / sizeof pairs[0]; ++q) {
                    sw_vec3 ds = sw_vec3_sub(world_pos(&sp.pose, src_map.node[pairs[q][1]]),
                                             world_pos(&sp.pose, src_map.node[pairs[q][0]]));
                    sw_vec3 dd = sw_vec3_sub(world_pos(&dp.pose, dst_map.node[pairs[q][1]]),
                                             world_pos(&dp.pose, dst_map.node[pairs[q][0]]));
                    double a = angle_deg(ds, dd);
                    if (mode) worst_plain = fmax(worst_plain, a);
                    else if (at_key) worst_key = fmax(worst_key, a);
                    else worst_between = fmax(worst_between, a);
                }
                sw_vec3 h = sw_vec3_sub(world_pos(&sp.pose, src_map.node[SW_HUMANOID_HIPS]),
                                        world_pos(&dp.pose, dst_map.node[SW_HUMANOID_HIPS]));
                worst_hips = fmax(worst_hips, sw_vec3_length(h));
            }
            sw_clip_free(clip);
        }
    }
    printf("A-pose clip on a T-pose rig: bone directions within %.3g deg at keys, %.3g deg between keys; "
           "hips %.3g m; without rest matching %.3g deg\n",
           worst_key, worst_between, worst_hips, worst_plain);
    SW_CHECK(worst_key <= 0.001);
    SW_CHECK(worst_between <= 0.1);
    SW_CHECK(worst_hips <= 1e-5);
    /* The plain delta keeps the T: the arms are off by the raise. */
    SW_CHECK(worst_plain >= raise - 10.0);
    free(sp.memory), free(dp.memory), free(rest.memory);
    edit_free(&e);
    sw_model_free(demo);
}

static void test_errors(void) {
    sw_model* demo = load_demo();
    SW_CHECK(demo != NULL);
    if (!demo) return;
    sw_humanoid_map map, none;
    SW_CHECK(sw_humanoid_map_from_names(demo, NULL, &map, NULL, NULL) == SW_OK);
    sw_humanoid_map_clear(&none);
    sw_clip* clip = (sw_clip*)1;
    sw_diag diag;
    SW_CHECK(sw_retarget_clip(demo, &map, &demo->animations[0], demo, &none, NULL, &clip, NULL, &diag) ==
             SW_ERR_INVALID_DATA);
    SW_CHECK(clip == NULL);
    sw_humanoid_map bad = map;
    bad.node[SW_HUMANOID_HEAD] = (int32_t)demo->node_count;
    SW_CHECK(sw_retarget_clip(demo, &bad, &demo->animations[0], demo, &map, NULL, &clip, NULL, &diag) ==
             SW_ERR_INVALID_ARGUMENT);
    SW_CHECK(strstr(diag.message, "head") != NULL);
    /* A fixed rate: 1 s at 10/s is 11 samples; hips left in place. */
    sw_retarget_options opt = {.sample_rate = 10.0f, .hips = SW_RETARGET_HIPS_NONE};
    sw_retarget_info info;
    long walk = clip_named(demo, "walk");
    SW_CHECK(sw_retarget_clip(demo, &map, &demo->animations[walk], demo, &map, &opt, &clip, &info, &diag) == SW_OK);
    SW_CHECK_EQ_INT(info.sample_count, 11);
    SW_CHECK(clip && clip->track_count == 19);
    sw_clip_free(clip);
    opt.sample_rate = 1e9f;
    SW_CHECK(sw_retarget_clip(demo, &map, &demo->animations[walk], demo, &map, &opt, &clip, NULL, &diag) ==
             SW_ERR_UNSUPPORTED);
    sw_model_free(demo);
}

/* ---- with the shared assets --------------------------------------------------------- */

static void test_arnaud_onto_demo(void) {
    const char* assets = getenv("SINEW_ASSETS");
    if (!assets || !*assets) SW_SKIP("SINEW_ASSETS is not set: arnaud_locomotion.glb is needed");
    char path[1024];
    snprintf(path, sizeof path, "%s/gltf/pab/arnaud_locomotion.glb", assets);
    sw_model* arnaud = NULL;
    sw_diag diag;
    SW_CHECK(sw_gltf_load_file(path, NULL, &arnaud, &diag) == SW_OK);
    sw_model* demo = load_demo();
    if (!arnaud || !demo) {
        sw_model_free(arnaud), sw_model_free(demo);
        return;
    }
    sw_humanoid_map src_map, dst_map;
    sw_humanoid_naming naming;
    SW_CHECK(sw_humanoid_map_from_names(arnaud, NULL, &src_map, &naming, &diag) == SW_OK);
    SW_CHECK_EQ_INT(naming.table, SW_BONE_NAMING_MIXAMO); /* HumanIK names */
    SW_CHECK(naming.mapped >= 40);
    SW_CHECK_EQ_INT(src_map.node[SW_HUMANOID_HIPS], node_named(arnaud, "Pelvis"));
    SW_CHECK_EQ_INT(src_map.node[SW_HUMANOID_LEFT_HAND], node_named(arnaud, "Lefthand")); /* letter case */
    SW_CHECK(sw_humanoid_map_from_names(demo, NULL, &dst_map, NULL, &diag) == SW_OK);

    long walk = clip_named(arnaud, "walk");
    SW_CHECK(walk >= 0);
    sw_clip* clip = NULL;
    sw_retarget_info info;
    SW_CHECK(sw_retarget_clip(arnaud, &src_map, &arnaud->animations[walk], demo, &dst_map, NULL, &clip, &info,
                              &diag) == SW_OK);
    if (clip) {
        printf("arnaud walk on the demo: %u bones, %u turned at rest, hips scale %.3f, %zu samples\n", info.bones,
               info.aligned, info.hips_scale, info.sample_count);
        SW_CHECK_EQ_INT(info.bones, 19);
        SW_CHECK(info.hips_scale > 0.5f && info.hips_scale < 2.0f); /* both about human size, in metres */
        /* Walking: the feet swap places front to back, the hips advance. */
        posed p;
        SW_CHECK(pose_make(demo, &p));
        double min_gap = 1e9, max_gap = -1e9, y_min = 1e9, y_max = -1e9;
        for (int i = 0; i <= 20; ++i) {
            float t = clip->start + (clip->duration - clip->start) * (float)i / 20.0f;
            SW_CHECK(sw_pose_evaluate(demo, clip, t, false, &p.pose, &diag) == SW_OK);
            double gap = world_pos(&p.pose, dst_map.node[SW_HUMANOID_LEFT_FOOT]).z -
                         world_pos(&p.pose, dst_map.node[SW_HUMANOID_RIGHT_FOOT]).z;
            min_gap = fmin(min_gap, gap), max_gap = fmax(max_gap, gap);
            double y = world_pos(&p.pose, dst_map.node[SW_HUMANOID_HEAD]).y;
            y_min = fmin(y_min, y), y_max = fmax(y_max, y);
        }
        printf("  feet front-back gap %.3f .. %.3f m, head height %.3f .. %.3f m\n", min_gap, max_gap, y_min, y_max);
        SW_CHECK(min_gap < -0.1 && max_gap > 0.1);
        SW_CHECK(y_min > 1.2 && y_max < 1.9); /* upright, the demo is 1.7 m */
        free(p.memory);
    }
    sw_clip_free(clip);
    /* By name onto itself: nothing dropped. */
    size_t dropped = 99;
    SW_CHECK(sw_clip_merge_by_name(arnaud, arnaud, &arnaud->animations[walk], &clip, &dropped, &diag) == SW_OK);
    SW_CHECK_EQ_INT(dropped, 0);
    sw_clip_free(clip);
    sw_model_free(arnaud), sw_model_free(demo);
}

#ifdef HAVE_IMPORT
/* `anim` merged onto `character` by name: every track of every clip kept. */
static void merge_pair(const char* assets, const char* character, const char* anim) {
    char a[1024], b[1024];
    snprintf(a, sizeof a, "%s/%s", assets, character);
    snprintf(b, sizeof b, "%s/%s", assets, anim);
    sw_model *ma = NULL, *mb = NULL;
    sw_diag diag;
    if (sw_import_file(a, NULL, &ma, &diag) != SW_OK) printf("%s\n", diag.message);
    /* an IQM animation file names no joints: the character's name them (iqm.h) */
    sw_import_options o = {0};
    o.iqm.skeleton = ma;
    if (sw_import_file(b, &o, &mb, &diag) != SW_OK) printf("%s\n", diag.message);
    SW_CHECK(ma != NULL);
    if (!mb && strstr(diag.message, "mNumMeshes is 0")) {
        /* An animation-only file the importer does not read yet: said, not hidden. */
        printf("  not checked: %s (the importer refuses animation-only files)\n", anim);
        sw_model_free(ma);
        return;
    }
    SW_CHECK(mb != NULL);
    if (ma && mb) {
        SW_CHECK(mb->animation_count >= 1);
        for (size_t c = 0; c < mb->animation_count; ++c) {
            const sw_clip* src = &mb->animations[c];
            /* Expected: the tracks whose node's name the character has,
               letter for letter (the anim file's cameras and end nodes are not). */
            size_t same = 0;
            for (size_t t = 0; t < src->track_count; ++t) {
                const char* name = mb->nodes[src->tracks[t].target].name;
                for (size_t n = 0; name && n < ma->node_count; ++n)
                    if (ma->nodes[n].name && strcmp(ma->nodes[n].name, name) == 0) {
                        same++;
                        break;
                    }
            }
            sw_clip* clip = NULL;
            size_t dropped = 99;
            SW_CHECK(sw_clip_merge_by_name(ma, mb, src, &clip, &dropped, &diag) == SW_OK);
            printf("%s + %s clip %zu: %zu of %zu tracks kept, %zu dropped\n", character, anim, c,
                   clip ? clip->track_count : 0, src->track_count, dropped);
            SW_CHECK(clip && clip->track_count == same && dropped == src->track_count - same);
            SW_CHECK(2 * same > src->track_count); /* most: the same skeleton */
            sw_clip_free(clip);
        }
    }
    sw_model_free(ma), sw_model_free(mb);
}
#endif

static void test_other_format_pairs(void) {
    const char* assets = getenv("SINEW_ASSETS");
    if (!assets || !*assets) SW_SKIP("SINEW_ASSETS is not set: the IQM and FBX pairs are needed");
#ifdef HAVE_IMPORT
    merge_pair(assets, "iqm/guy.iqm", "iqm/guyanim.iqm");
    merge_pair(assets, "fbx/arnaud.fbx", "fbx/walk.fbx");
#else
    SW_SKIP("built without sinew/import.h: the IQM and FBX pairs need the Assimp importer");
#endif
}

int main(void) {
    SW_RUN(test_mixamo_names);
    SW_RUN(test_ue_names);
    SW_RUN(test_rigify_names);
    SW_RUN(test_demo_and_vrm_names);
    SW_RUN(test_user_bone_map);
    SW_RUN(test_merge_by_name);
    SW_RUN(test_same_rig_renamed);
    SW_RUN(test_hips_under_turned_parent);
    SW_RUN(test_a_pose_to_t_pose);
    SW_RUN(test_errors);
    SW_RUN(test_arnaud_onto_demo);
    SW_RUN(test_other_format_pairs);
    return sw_test_finish();
}
