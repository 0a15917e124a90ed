/* Automatic humanoid mapping (sw_humanoid_map_guess, sinew/retarget.h):
   the name normaliser on each naming convention, and the mapping of
   skeleton-only rigs whose expected nodes are written out by hand from
   the rigs' own conventions (what each joint is in Blender, 3ds Max
   Biped, Unreal, VRoid, HumanIK and Mixamo rigs):
   - a Blender rig like the CC0 robot's (Hips, Abdomen, Torso, thighs
     beside the hips, IK feet under the root, Palm1-3 under the forearm);
   - a 3ds Max Biped (thighs under the spine, three spine joints);
   - Unreal names with twist joints that must not be taken;
   - a chain of meaningless names: nothing, and all 8 body bones missing;
   - a 6000-node chain (bounded work) and 500 random rigs of humanoid
     words (invariants: a map, a report that agrees, bones found by name
     below their mapped humanoid parent). */
#include "harness.h"

#include "sinew/humanoid.h"
#include "sinew/retarget.h"

#include <string.h>

static void check_key(const char* name, const char* want_key, int want_side) {
    char key[64];
    int side = -1;
    size_t n = sw_bone_name_key(name, key, sizeof key, &side);
    if (strcmp(key, want_key) != 0 || side != want_side || n != strlen(want_key))
        fprintf(stderr, "  key of \"%s\": \"%s\" side %d (want \"%s\" side %d)\n", name, key, side, want_key,
                want_side);
    SW_CHECK(strcmp(key, want_key) == 0);
    SW_CHECK_EQ_INT(side, want_side);
}

static void test_name_keys(void) {
    check_key("mixamorig:LeftUpLeg", "upleg", 1);     /* Mixamo */
    check_key("mixamorig:RightHandIndex2", "handindex2", 2);
    check_key("UpperArm.L", "upperarm", 1);           /* Blender */
    check_key("Shoulder.R", "shoulder", 2);
    check_key("Armature|thigh.L.001", "thigh1", 1);
    check_key("Bip01 L UpperArm", "upperarm", 1);     /* 3ds Max Biped */
    check_key("Bip01 Spine1", "spine1", 0);
    check_key("Bip001 R Calf", "calf", 2);
    check_key("upperarm_l", "upperarm", 1);           /* Unreal */
    check_key("spine_01", "spine1", 0);
    check_key("upperarm_twist_01_l", "", 0);          /* a helper */
    check_key("J_Bip_L_UpperArm", "upperarm", 1);     /* VRoid */
    check_key("J_Bip_C_Hips", "hips", 0);
    check_key("DEF-forearm.R", "forearm", 2);         /* Rigify */
    check_key("ORG-spine.003", "spine3", 0);
    check_key("LeftHandRingPinky1", "handringpinky1", 1); /* HumanIK (arnaud) */
    check_key("Character1_LeftForeArm", "forearm", 1);
    check_key("leftUpperArm", "upperarm", 1);         /* VRM */
    check_key("l_hand", "hand", 1);
    check_key("LHand", "hand", 1);
    check_key("Hand Left", "hand", 1);
    check_key("HeadTop_End", "", 0);
    check_key("PoleTarget.L", "", 0);
    check_key("", "", 0);
    check_key(NULL, "", 0);
    /* A short buffer is cut, still NUL-ended. */
    char small[4];
    SW_CHECK_EQ_INT((int)sw_bone_name_key("UpperArm.L", small, sizeof small, NULL), 3);
    SW_CHECK(strcmp(small, "upp") == 0);
}

static void test_name_guess(void) {
    SW_CHECK_EQ_INT(sw_bone_name_guess("Abdomen"), SW_HUMANOID_SPINE);
    SW_CHECK_EQ_INT(sw_bone_name_guess("Thigh.R"), SW_HUMANOID_RIGHT_UPPER_LEG);
    SW_CHECK_EQ_INT(sw_bone_name_guess("calf_l"), SW_HUMANOID_LEFT_LOWER_LEG);
    SW_CHECK_EQ_INT(sw_bone_name_guess("Bip01 L Forearm"), SW_HUMANOID_LEFT_LOWER_ARM);
    SW_CHECK_EQ_INT(sw_bone_name_guess("Palm2.L"), SW_HUMANOID_LEFT_HAND);
    SW_CHECK_EQ_INT(sw_bone_name_guess("RightWrist"), SW_HUMANOID_RIGHT_HAND);
    SW_CHECK_EQ_INT(sw_bone_name_guess("clavicle_r"), SW_HUMANOID_RIGHT_SHOULDER);
    SW_CHECK_EQ_INT(sw_bone_name_guess("ankle.L"), SW_HUMANOID_LEFT_FOOT);
    SW_CHECK_EQ_INT(sw_bone_name_guess("ball_r"), SW_HUMANOID_RIGHT_TOES);
    SW_CHECK_EQ_INT(sw_bone_name_guess("pinky_01_l"), SW_HUMANOID_LEFT_LITTLE_PROXIMAL);
    SW_CHECK_EQ_INT(sw_bone_name_guess("Pelvis"), SW_HUMANOID_HIPS);
    SW_CHECK_EQ_INT(sw_bone_name_guess("UpperArm"), SW_HUMANOID_NONE); /* a limb needs a side */
    SW_CHECK_EQ_INT(sw_bone_name_guess("Neck.L"), SW_HUMANOID_NONE);   /* a centre bone has none */
    SW_CHECK_EQ_INT(sw_bone_name_guess("Body"), SW_HUMANOID_NONE);
}

typedef struct joint_def {
    const char* name;
    int parent;
} joint_def;

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
        s->nodes[i].trs = s->rest[i];
    }
    s->model.node_count = count;
    s->model.nodes = s->nodes;
    s->model.rest_local = s->rest;
    s->model.weight_offsets = s->offsets;
    s->model.default_scene = -1;
}

static int index_of(const skeleton_model* s, const char* name) {
    for (size_t i = 0; i < s->model.node_count; ++i)
        if (strcmp(s->nodes[i].name, name) == 0) return (int)i;
    return -2; /* no node: never equal to a map entry */
}

typedef struct expect {
    sw_humanoid_bone bone;
    const char* node; /* NULL: unmapped */
    sw_humanoid_match how;
} expect;

static void check_map(const skeleton_model* s, const sw_humanoid_map* map, const sw_humanoid_guess* g,
                      const expect* want, size_t count) {
    for (size_t i = 0; i < count; ++i) {
        int node = want[i].node ? index_of(s, want[i].node) : -1;
        int got = map->node[want[i].bone];
        if (got != node || g->how[want[i].bone] != want[i].how)
            fprintf(stderr, "  %s: node %d \"%s\" (%s), want \"%s\" (%s)\n", sw_humanoid_bone_name(want[i].bone), got,
                    got >= 0 ? s->nodes[got].name : "-", sw_humanoid_match_name(g->how[want[i].bone]),
                    want[i].node ? want[i].node : "-", sw_humanoid_match_name(want[i].how));
        SW_CHECK_EQ_INT(got, node);
        SW_CHECK_EQ_INT(g->how[want[i].bone], want[i].how);
    }
}

#define B(x) SW_HUMANOID_##x
#define M(x) SW_HUMANOID_MATCH_##x

/* The CC0 robot's armature (as Blender exports it). */
static const joint_def blender_joints[] = {
    {"RobotArmature", -1}, {"Bone", 0},          {"Body", 1},        {"Hips", 2},        {"Abdomen", 3},
    {"Torso", 4},          {"Neck", 5},          {"Head", 6},        {"Shoulder.L", 5},  {"UpperArm.L", 8},
    {"LowerArm.L", 9},     {"Palm1.L", 10},      {"Index.L", 11},    {"Index2.L", 12},   {"Palm2.L", 10},
    {"Middle1.L", 14},     {"Middle2.L", 15},    {"Thumb.L", 10},    {"Thumb2.L", 17},   {"Shoulder.R", 5},
    {"UpperArm.R", 19},    {"LowerArm.R", 20},   {"Palm2.R", 21},    {"Middle1.R", 22},  {"Palm1.R", 21},
    {"UpperLeg.L", 2},     {"LowerLeg.L", 25},   {"UpperLeg.R", 2},  {"LowerLeg.R", 27}, {"Foot.L", 1},
    {"Foot.R", 1},         {"PoleTarget.L", 1},  {"Arm.L", 0},       {"Leg.L", 0},
};

static void test_blender_rig(void) {
    skeleton_model s;
    make_skeleton(&s, blender_joints, sizeof blender_joints / sizeof *blender_joints);
    sw_humanoid_map map;
    sw_humanoid_guess g;
    sw_diag diag;
    SW_CHECK(sw_humanoid_map_guess(&s.model, NULL, &map, &g, &diag) == SW_OK);
    const expect want[] = {
        {B(HIPS), "Hips", M(TABLE)},
        {B(SPINE), "Abdomen", M(CHAIN)},
        {B(CHEST), "Torso", M(CHAIN)},
        {B(UPPER_CHEST), NULL, M(NONE)},
        {B(NECK), "Neck", M(TABLE)},
        {B(HEAD), "Head", M(TABLE)},
        {B(LEFT_SHOULDER), "Shoulder.L", M(NAME)},
        {B(LEFT_UPPER_ARM), "UpperArm.L", M(NAME)},
        {B(LEFT_LOWER_ARM), "LowerArm.L", M(NAME)},
        {B(LEFT_HAND), "Palm2.L", M(SYNONYM)}, /* the palm with the middle finger */
        {B(RIGHT_HAND), "Palm2.R", M(SYNONYM)},
        {B(LEFT_INDEX_PROXIMAL), "Index.L", M(CHAIN)},
        {B(LEFT_INDEX_INTERMEDIATE), "Index2.L", M(CHAIN)},
        {B(LEFT_MIDDLE_PROXIMAL), "Middle1.L", M(CHAIN)},
        {B(LEFT_THUMB_METACARPAL), "Thumb.L", M(CHAIN)},
        {B(LEFT_THUMB_PROXIMAL), "Thumb2.L", M(CHAIN)},
        {B(LEFT_UPPER_LEG), "UpperLeg.L", M(NAME)}, /* beside the hips */
        {B(LEFT_LOWER_LEG), "LowerLeg.L", M(NAME)},
        {B(RIGHT_LOWER_LEG), "LowerLeg.R", M(NAME)},
        {B(LEFT_FOOT), "Foot.L", M(LOOSE)}, /* an IK foot under the root */
        {B(RIGHT_FOOT), "Foot.R", M(LOOSE)},
    };
    check_map(&s, &map, &g, want, sizeof want / sizeof *want);
    SW_CHECK_EQ_INT(g.table, SW_BONE_NAMING_VRM); /* "Hips", "Neck", "Head" are VRM's names too */
    SW_CHECK_EQ_INT(g.required_missing, 0);
    SW_CHECK_EQ_INT(sw_humanoid_map_body_missing(&map, NULL, 0), 0);
    SW_CHECK(g.mapped >= 15);
    /* The table alone (the old behaviour) finds only the bones named as VRM names them. */
    sw_humanoid_map table;
    SW_CHECK(sw_humanoid_map_from_names(&s.model, NULL, &table, NULL, &diag) == SW_OK);
    SW_CHECK(sw_humanoid_map_body_missing(&table, NULL, 0) > 0);
}

/* 3ds Max Biped: the thighs hang from the first spine joint. */
static const joint_def biped_joints[] = {
    {"Bip01", -1},           {"Bip01 Pelvis", 0},     {"Bip01 Spine", 1},      {"Bip01 Spine1", 2},
    {"Bip01 Spine2", 3},     {"Bip01 Neck", 4},       {"Bip01 Head", 5},       {"Bip01 L Clavicle", 5},
    {"Bip01 L UpperArm", 7}, {"Bip01 L Forearm", 8},  {"Bip01 L Hand", 9},     {"Bip01 R Clavicle", 5},
    {"Bip01 R UpperArm", 11}, {"Bip01 R Forearm", 12}, {"Bip01 R Hand", 13},   {"Bip01 L Thigh", 2},
    {"Bip01 L Calf", 15},    {"Bip01 L Foot", 16},    {"Bip01 L Toe0", 17},    {"Bip01 R Thigh", 2},
    {"Bip01 R Calf", 19},    {"Bip01 R Foot", 20},    {"Bip01 R Toe0", 21},    {"Bip01 HeadNub", 6},
};

static void test_biped_rig(void) {
    skeleton_model s;
    make_skeleton(&s, biped_joints, sizeof biped_joints / sizeof *biped_joints);
    sw_humanoid_map map;
    sw_humanoid_guess g;
    sw_diag diag;
    SW_CHECK(sw_humanoid_map_guess(&s.model, NULL, &map, &g, &diag) == SW_OK);
    const expect want[] = {
        {B(HIPS), "Bip01 Pelvis", M(SYNONYM)},
        {B(SPINE), "Bip01 Spine", M(CHAIN)},
        {B(CHEST), "Bip01 Spine1", M(CHAIN)},
        {B(UPPER_CHEST), "Bip01 Spine2", M(CHAIN)},
        {B(NECK), "Bip01 Neck", M(NAME)},
        {B(HEAD), "Bip01 Head", M(NAME)},
        {B(LEFT_SHOULDER), "Bip01 L Clavicle", M(SYNONYM)},
        {B(LEFT_UPPER_ARM), "Bip01 L UpperArm", M(NAME)},
        {B(LEFT_LOWER_ARM), "Bip01 L Forearm", M(SYNONYM)},
        {B(RIGHT_HAND), "Bip01 R Hand", M(NAME)},
        {B(LEFT_UPPER_LEG), "Bip01 L Thigh", M(SYNONYM)},
        {B(LEFT_LOWER_LEG), "Bip01 L Calf", M(SYNONYM)},
        {B(RIGHT_FOOT), "Bip01 R Foot", M(NAME)},
        {B(RIGHT_TOES), "Bip01 R Toe0", M(SYNONYM)},
    };
    check_map(&s, &map, &g, want, sizeof want / sizeof *want);
    SW_CHECK_EQ_INT(g.mapped, 22);
    SW_CHECK_EQ_INT(g.table, SW_BONE_NAMING_NONE);
}

/* Unreal names (the table knows them) with twist joints and a gap the
   table leaves: the guess agrees and the twists stay out. */
static const joint_def ue_joints[] = {
    {"root", -1},           {"pelvis", 0},              {"spine_01", 1},   {"spine_02", 2},
    {"spine_03", 3},        {"neck_01", 4},             {"head", 5},       {"clavicle_l", 4},
    {"upperarm_l", 7},      {"upperarm_twist_01_l", 8}, {"lowerarm_l", 8}, {"hand_l", 10},
    {"thigh_l", 1},         {"thigh_twist_01_l", 12},   {"calf_l", 12},    {"foot_l", 14},
    {"ball_l", 15},         {"thigh_r", 1},             {"calf_r", 17},    {"foot_r", 18},
};

static void test_ue_rig(void) {
    skeleton_model s;
    make_skeleton(&s, ue_joints, sizeof ue_joints / sizeof *ue_joints);
    sw_humanoid_map map;
    sw_humanoid_guess g;
    sw_diag diag;
    SW_CHECK(sw_humanoid_map_guess(&s.model, NULL, &map, &g, &diag) == SW_OK);
    const expect want[] = {
        {B(HIPS), "pelvis", M(TABLE)},          {B(CHEST), "spine_02", M(TABLE)},
        {B(UPPER_CHEST), "spine_03", M(TABLE)}, {B(LEFT_UPPER_ARM), "upperarm_l", M(TABLE)},
        {B(LEFT_LOWER_ARM), "lowerarm_l", M(TABLE)}, {B(LEFT_UPPER_LEG), "thigh_l", M(TABLE)},
        {B(LEFT_TOES), "ball_l", M(TABLE)},     {B(RIGHT_FOOT), "foot_r", M(TABLE)},
    };
    check_map(&s, &map, &g, want, sizeof want / sizeof *want);
    SW_CHECK_EQ_INT(g.table, SW_BONE_NAMING_UE);
    SW_CHECK_EQ_INT(g.guessed_bones, g.table_bones);
    /* The guess alone finds the same nodes: rename the table's words away. */
    static const joint_def renamed[] = {
        {"root", -1},           {"Pelvis", 0},              {"Spine_01", 1},   {"Spine_02", 2},
        {"Spine_03", 3},        {"Neck_01", 4},             {"Head", 5},       {"Clavicle L", 4},
        {"UpperArm L", 7},      {"UpperArm Twist 01 L", 8}, {"LowerArm L", 8}, {"Hand L", 10},
        {"Thigh L", 1},         {"Thigh Twist 01 L", 12},   {"Calf L", 12},    {"Foot L", 14},
        {"Ball L", 15},         {"Thigh R", 1},             {"Calf R", 17},    {"Foot R", 18},
    };
    skeleton_model r;
    make_skeleton(&r, renamed, sizeof renamed / sizeof *renamed);
    sw_humanoid_map again;
    SW_CHECK(sw_humanoid_map_guess(&r.model, NULL, &again, &g, &diag) == SW_OK);
    SW_CHECK(memcmp(&again, &map, sizeof map) == 0);
    SW_CHECK_EQ_INT(again.node[B(SPINE)], 2);
}

/* Meaningless names: nothing mapped, every body bone reported missing. */
static void test_meaningless_rig(void) {
    static const joint_def chain[] = {{"a", -1}, {"b", 0}, {"c", 1}, {"d", 2}, {"e", 2}, {"f", 4}, {"g", 1}};
    skeleton_model s;
    make_skeleton(&s, chain, sizeof chain / sizeof *chain);
    sw_humanoid_map map;
    sw_humanoid_guess g;
    sw_diag diag;
    SW_CHECK(sw_humanoid_map_guess(&s.model, NULL, &map, &g, &diag) == SW_OK);
    SW_CHECK_EQ_INT(g.mapped, 0);
    SW_CHECK_EQ_INT(g.required_missing, 15);
    sw_humanoid_bone missing[8];
    SW_CHECK_EQ_INT(sw_humanoid_map_body_missing(&map, missing, 8), 8);
    SW_CHECK_EQ_INT(missing[0], B(HIPS));
    SW_CHECK_EQ_INT(missing[7], B(RIGHT_FOOT));
    /* A user map names them; its bones say so. */
    const sw_bone_map_entry entries[] = {{B(HIPS), "b"}, {B(SPINE), "c"}, {B(LEFT_UPPER_LEG), "nope"}};
    const sw_bone_map user = {3, entries};
    SW_CHECK(sw_humanoid_map_guess(&s.model, &user, &map, &g, &diag) == SW_OK);
    SW_CHECK_EQ_INT(map.node[B(HIPS)], 1);
    SW_CHECK_EQ_INT(g.how[B(SPINE)], M(USER));
    SW_CHECK_EQ_INT(g.user_bones, 2);
    SW_CHECK_EQ_INT(g.user_missing, 1);
    SW_CHECK_EQ_INT(sw_humanoid_map_body_missing(&map, NULL, 0), 6);
    /* Bad arguments. */
    SW_CHECK(sw_humanoid_map_guess(NULL, NULL, &map, &g, &diag) == SW_ERR_INVALID_ARGUMENT);
    const sw_bone_map_entry bad[] = {{(sw_humanoid_bone)99, "b"}};
    const sw_bone_map bad_map = {1, bad};
    SW_CHECK(sw_humanoid_map_guess(&s.model, &bad_map, &map, &g, &diag) == SW_ERR_INVALID_ARGUMENT);
}

/* A deep chain of nodes all named "hand": bounded work (linear passes). */
static void test_deep_chain(void) {
    enum { N = 6000 };
    static sw_model_node nodes[N];
    static sw_transform rest[N];
    static uint32_t offsets[N];
    for (int i = 0; i < N; ++i) {
        memset(&nodes[i], 0, sizeof nodes[i]);
        nodes[i].name = i % 3 == 0 ? "Hand.L" : i % 3 == 1 ? "Spine" : "Hips";
        nodes[i].parent = i - 1;
        nodes[i].mesh = nodes[i].skin = nodes[i].camera = -1;
        rest[i] = sw_transform_identity();
    }
    sw_model m;
    memset(&m, 0, sizeof m);
    m.node_count = N;
    m.nodes = nodes;
    m.rest_local = rest;
    m.weight_offsets = offsets;
    m.default_scene = -1;
    sw_humanoid_map map;
    sw_humanoid_guess g;
    sw_diag diag;
    SW_CHECK(sw_humanoid_map_guess(&m, NULL, &map, &g, &diag) == SW_OK);
    SW_CHECK_EQ_INT(map.node[B(HIPS)], 2);
}

/* Random rigs of humanoid-ish words, sides and separators on random trees
   (fixed seed): every map stays a map (nodes in range, a node for one bone
   only), the report agrees with it, and the bones found by name or chain
   lie below their mapped humanoid parent's node, except legs beside the
   hips (below the hips' parent). */
static uint32_t rng_state = 12345u;
static uint32_t rng(uint32_t n) {
    rng_state = rng_state * 1664525u + 1013904223u;
    return (rng_state >> 8) % n;
}

static bool is_below(const sw_model* m, int node, int ancestor) {
    for (int k = m->nodes[node].parent; k >= 0; k = m->nodes[k].parent)
        if (k == ancestor) return true;
    return false;
}

static void test_random_rigs(void) {
    static const char* const words[] = {"Hips", "Spine", "Chest", "Neck", "Head", "Arm", "ForeArm", "Hand", "Leg",
                                        "UpLeg", "Thigh", "Calf", "Foot", "Toe", "Thumb", "Index", "Middle", "Ring",
                                        "Pinky", "Palm", "Shoulder", "Pelvis", "Abdomen", "Torso", "End", "Twist",
                                        "x", "Bip01", "DEF", "mixamorig:"};
    static const char* const sides[] = {"", "", ".L", ".R", "_l", "_r", "Left", "Right", " L ", " R "};
    static char names[64][48];
    joint_def joints[64];
    int bad = 0;
    for (int rig = 0; rig < 500; ++rig) {
        size_t count = 1 + rng(64);
        for (size_t i = 0; i < count; ++i) {
            const char* side = sides[rng(10)];
            bool before = rng(2);
            snprintf(names[i], sizeof names[i], "%s%s%s%s", before ? side : "", words[rng(30)],
                     rng(3) ? "" : words[rng(30)], before ? "" : side);
            if (rng(4) == 0) snprintf(names[i] + strlen(names[i]), sizeof names[i] - strlen(names[i]), "%u", rng(4));
            joints[i].name = names[i];
            joints[i].parent = i ? (int)rng((uint32_t)i) - (rng(8) == 0 ? (int)i : 0) : -1;
            if (joints[i].parent < -1) joints[i].parent = -1;
        }
        skeleton_model s;
        make_skeleton(&s, joints, count);
        sw_humanoid_map map;
        sw_humanoid_guess g;
        sw_diag diag;
        if (sw_humanoid_map_guess(&s.model, NULL, &map, &g, &diag) != SW_OK) {
            bad++;
            continue;
        }
        uint32_t mapped = 0;
        bool used[64] = {false};
        for (int b = 0; b < SW_HUMANOID_BONE_COUNT; ++b) {
            int32_t node = map.node[b];
            if (node < -1 || node >= (int32_t)count || (node >= 0) != (g.how[b] != SW_HUMANOID_MATCH_NONE)) {
                bad++;
                continue;
            }
            if (node < 0) continue;
            mapped++;
            if (used[node]) bad++;
            used[node] = true;
            sw_humanoid_match how = g.how[b];
            if (how != SW_HUMANOID_MATCH_NAME && how != SW_HUMANOID_MATCH_SYNONYM) continue;
            sw_humanoid_bone up = sw_humanoid_mapped_parent(&map, (sw_humanoid_bone)b);
            if (up == SW_HUMANOID_NONE || g.how[up] == SW_HUMANOID_MATCH_TABLE) continue;
            int32_t anchor = map.node[up];
            bool leg = b == SW_HUMANOID_LEFT_UPPER_LEG || b == SW_HUMANOID_RIGHT_UPPER_LEG;
            if (leg && up == SW_HUMANOID_HIPS) anchor = s.nodes[anchor].parent;
            if (anchor >= 0 && !is_below(&s.model, node, anchor)) {
                if (bad < 5)
                    fprintf(stderr, "  rig %d: %s \"%s\" not below %s \"%s\"\n", rig,
                            sw_humanoid_bone_name((sw_humanoid_bone)b), s.nodes[node].name,
                            sw_humanoid_bone_name(up), s.nodes[map.node[up]].name);
                bad++;
            }
        }
        uint32_t coverage = 0, missing = 0;
        sw_humanoid_map_coverage(&map, &coverage, &missing);
        if (g.mapped != mapped || coverage != mapped || g.required_missing != missing) bad++;
    }
    SW_CHECK_EQ_INT(bad, 0);
}

int main(void) {
    SW_RUN(test_name_keys);
    SW_RUN(test_name_guess);
    SW_RUN(test_blender_rig);
    SW_RUN(test_biped_rig);
    SW_RUN(test_ue_rig);
    SW_RUN(test_meaningless_rig);
    SW_RUN(test_deep_chain);
    SW_RUN(test_random_rigs);
    return sw_test_finish();
}
