/* Node constraints (sinew/constraint.h) on the generated files of
   tests/data/vrm/make_constraint_files.py: the rotations three-vrm gives
   (held below as numbers), hand-computed cases and invariants, the order
   of constraints that read each other, cycles, and broken or hostile
   records as one-line errors or warnings. */
#define _POSIX_C_SOURCE 200809L
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "harness.h"
#include "sinew/constraint.h"
#include "sinew/gltf.h"
#include "sinew/pose.h"

#define DATA SW_TEST_DATA_DIR "/vrm/"

/* Expected local rotations {file, time, node (file index), x, y, z, w}
   from three-vrm 3.5.5 (@pixiv/three-vrm-node-constraint, three.js 0.180):
   printed by tests/reference/constraint_reference.mjs; regenerate with
     python3 tests/data/vrm/make_constraint_files.py
     THREE_VRM_MODULES=.../node_modules node tests/reference/constraint_reference.mjs */
typedef struct expected_rotation {
    int file;
    float time;
    int node;
    double x, y, z, w;
} expected_rotation;

static const char* const FILES[] = {"constraint_roll.gltf", "constraint_aim.gltf", "constraint_rotation.gltf",
                                     "constraint_chain.gltf"};

static const expected_rotation THREE_VRM[] = {
    /* constraint_roll.gltf */
    {0, 0.00f, 3, 0.298836000, -0.239069000, 0.179302000, 0.906308000},
    {0, 0.00f, 4, -0.200030976, 0.533414936, 0.066676993, 0.819151905},
    {0, 0.00f, 5, 0.021431001, 0.021431001, -0.214306998, 0.976296036},
    {0, 0.00f, 7, 0.000000000, 0.000000000, 0.000000000, 1.000000000},
    {0, 0.25f, 3, 0.358940935, -0.226506748, 0.194930518, 0.884227667},
    {0, 0.25f, 4, -0.202775484, 0.569002421, 0.057795429, 0.794844342},
    {0, 0.25f, 5, 0.022453083, 0.020357663, -0.166322005, 0.985605599},
    {0, 0.25f, 7, 0.098017163, 0.000000000, 0.000000000, 0.995184731},
    {0, 0.50f, 3, 0.418125859, -0.212754538, 0.209854072, 0.857827430},
    {0, 0.50f, 4, -0.205224048, 0.605036866, 0.048386876, 0.767770535},
    {0, 0.50f, 5, 0.023459865, 0.019188824, -0.115955947, 0.992791808},
    {0, 0.50f, 7, 0.195090368, 0.000000000, 0.000000000, 0.980785296},
    {0, 1.00f, 3, 0.534829813, -0.181061427, 0.237739331, 0.790350656},
    {0, 1.00f, 4, -0.209262595, 0.684775170, 0.025832546, 0.697584394},
    {0, 1.00f, 5, 0.025550355, 0.016302209, 0.001393292, 0.999539532},
    {0, 1.00f, 7, 0.382683529, 0.000000000, 0.000000000, 0.923879594},
    {0, 1.50f, 3, 0.760683727, -0.094941826, 0.283353787, 0.576244254},
    {0, 1.50f, 4, -0.174680106, 0.974592406, -0.118087948, 0.075571593},
    {0, 1.50f, 5, 0.029791705, 0.005571191, 0.374878732, 0.926578237},
    {0, 1.50f, 7, 0.382683499, -0.000000022, -0.000000022, 0.923879575},
    {0, 2.00f, 3, -0.218559290, -0.297519007, 0.028026218, 0.928939878},
    {0, 2.00f, 4, -0.076366114, -0.290031569, 0.196535687, 0.933500427},
    {0, 2.00f, 5, 0.010662567, 0.028370417, -0.598506988, 0.800544035},
    {0, 2.00f, 7, 0.382683599, -0.000000113, -0.000000113, 0.923879638},
    /* constraint_aim.gltf */
    {1, 0.00f, 4, 0.004230968, 0.019084623, -0.102777857, 0.994512313},
    {1, 0.00f, 6, -0.092511932, -0.107195008, 0.589573880, 0.795206073},
    {1, 0.00f, 7, 0.232153611, 0.289562508, 0.202497004, 0.906230293},
    {1, 0.00f, 8, -0.314894350, -0.768008999, -0.000000000, 0.557677082},
    {1, 0.25f, 4, 0.029530691, 0.133204060, -0.082231356, 0.987229849},
    {1, 0.25f, 6, -0.053208506, -0.062137921, 0.534099362, 0.841454038},
    {1, 0.25f, 7, 0.274689297, 0.290863238, 0.191725567, 0.896206339},
    {1, 0.25f, 8, -0.423012441, -0.651954002, -0.000000000, 0.629298383},
    {1, 0.50f, 4, 0.054124182, 0.244137898, -0.069332558, 0.965743449},
    {1, 0.50f, 6, -0.010512979, -0.013113325, 0.469022026, 0.883026132},
    {1, 0.50f, 7, 0.319379385, 0.282276731, 0.178555919, 0.886811463},
    {1, 0.50f, 8, -0.503400158, -0.514164847, -0.000000000, 0.694422631},
    {1, 1.00f, 4, 0.099438361, 0.448536519, -0.067995942, 0.885609230},
    {1, 1.00f, 6, 0.090524580, 0.097034267, 0.327827710, 0.935370465},
    {1, 1.00f, 7, 0.406178109, 0.233936863, 0.146846237, 0.871050635},
    {1, 1.00f, 8, -0.559558821, -0.202889785, 0.000000000, 0.803573055},
    {1, 1.50f, 4, 0.013992931, 0.063117900, -0.063627917, 0.995877487},
    {1, 1.50f, 6, 0.014107671, -0.002949345, 0.516603158, 0.856103239},
    {1, 1.50f, 7, 0.306479129, 0.298758419, 0.184304511, 0.884785809},
    {1, 1.50f, 8, -0.441922193, -0.562948724, 0.000000000, 0.698422156},
    {1, 2.00f, 4, -0.068927363, -0.310910591, 0.093159161, 0.943347840},
    {1, 2.00f, 6, 0.036845488, -0.035158727, 0.736284687, 0.674752129},
    {1, 2.00f, 7, 0.172667805, 0.359625783, 0.226033602, 0.888686709},
    {1, 2.00f, 8, 0.092775150, -0.739998916, 0.000000001, 0.666178930},
    /* constraint_rotation.gltf */
    {2, 0.00f, 2, -0.000000009, 0.707107642, -0.000000017, 0.707107645},
    {2, 0.00f, 3, 0.333333136, -0.333333129, 0.166667059, 0.866025341},
    {2, 0.25f, 2, 0.131265879, 0.761997833, 0.065632938, 0.630732085},
    {2, 0.25f, 3, 0.323809016, -0.315766167, 0.233340759, 0.860808476},
    {2, 0.50f, 2, 0.258543320, 0.793735104, 0.129271670, 0.535192049},
    {2, 0.50f, 3, 0.312707327, -0.296660821, 0.298877652, 0.851397833},
    {2, 1.00f, 2, 0.485902508, 0.784626391, 0.242951285, 0.298724389},
    {2, 1.00f, 3, 0.285995013, -0.254214330, 0.425270955, 0.820198807},
    {2, 1.50f, 2, 0.114590781, 0.681333704, 0.693866406, 0.202988718},
    {2, 1.50f, 3, 0.041954302, -0.296870475, 0.367770114, 0.880257042},
    {2, 2.00f, 2, -0.298091750, 0.332058547, 0.894274366, 0.033967862},
    {2, 2.00f, 3, -0.180213685, -0.339662758, 0.224211017, 0.895478199},
    /* constraint_chain.gltf */
    {3, 0.00f, 0, -0.015378052, 0.086831803, -0.084787586, 0.992489425},
    {3, 0.00f, 1, 0.000000000, 0.000000000, 0.258819000, 0.965926000},
    {3, 0.00f, 2, 0.173648000, 0.000000000, 0.000000000, 0.984808000},
    {3, 0.25f, 0, -0.000979462, 0.086835299, -0.085700248, 0.992529384},
    {3, 0.25f, 1, -0.005545126, 0.020694150, 0.258759716, 0.965704889},
    {3, 0.25f, 2, 0.246957439, 0.074300644, 0.013101180, 0.966085042},
    {3, 0.50f, 0, 0.013052522, 0.086806156, -0.088551226, 0.992196273},
    {3, 0.50f, 1, -0.011210261, 0.041836129, 0.258576211, 0.965020195},
    {3, 0.50f, 2, 0.317447355, 0.147753001, 0.026052787, 0.936332231},
    {3, 1.00f, 0, 0.038967539, 0.086652382, -0.100023195, 0.990438638},
    {3, 1.00f, 1, -0.023443477, 0.087489354, 0.257755153, 0.961956415},
    {3, 1.00f, 2, 0.446790897, 0.288777686, 0.050919196, 0.845218013},
    {3, 1.50f, 0, -0.089961917, 0.086702929, -0.047711723, 0.991016391},
    {3, 1.50f, 1, -0.094749234, 0.353606886, 0.240852691, 0.898875096},
    {3, 1.50f, 2, 0.247798519, 0.497517285, -0.041852731, 0.830253882},
    {3, 2.00f, 0, -0.166161601, 0.085899966, 0.031703630, 0.981838500},
    {3, 2.00f, 1, -0.153161540, 0.571605240, 0.208636202, 0.778641034},
    {3, 2.00f, 2, 0.008735746, 0.643978085, -0.134550564, 0.753069055},
};

/* ---- helpers ------------------------------------------------------------------------------ */

typedef struct loaded {
    sw_model* model;
    sw_constraint_set* set;
    sw_constraint_state state;
    void* state_memory;
    sw_pose pose;
    void* pose_memory;
    const sw_clip* clip;
} loaded;

static void unload(loaded* L) {
    sw_constraint_set_free(L->set);
    sw_model_free(L->model);
    free(L->state_memory);
    free(L->pose_memory);
    memset(L, 0, sizeof *L);
}

static void* alloc16(size_t bytes) { return aligned_alloc(16, (bytes + 15) / 16 * 16 + 16); }

/* Loads a file (from disk, or from memory when text is given), reads its
   constraints and readies a pose and a state. */
static bool load(loaded* L, const char* file, const char* text) {
    memset(L, 0, sizeof *L);
    sw_diag diag;
    sw_result r = text ? sw_gltf_load_memory(text, strlen(text), file, NULL, NULL, &L->model, &diag)
                       : sw_gltf_load_file(file, NULL, &L->model, &diag);
    if (r != SW_OK) {
        fprintf(stderr, "load %s: %s\n", file, diag.message);
        return false;
    }
    if (sw_constraint_read(L->model, &L->set, &diag) != SW_OK) {
        fprintf(stderr, "read %s: %s\n", file, diag.message);
        unload(L);
        return false;
    }
    size_t n = L->set ? L->set->constraint_count : 0;
    L->state_memory = alloc16(sw_constraint_memory_size(L->model, n));
    if (sw_constraint_init(&L->state, L->state_memory, L->model, L->set ? L->set->constraints : NULL, n, &diag) !=
        SW_OK) {
        fprintf(stderr, "init %s: %s\n", file, diag.message);
        unload(L);
        return false;
    }
    sw_pose_sizes sizes = sw_pose_sizes_of(L->model);
    L->pose_memory = alloc16(sw_pose_memory_size(&sizes));
    sw_pose_bind(&L->pose, &sizes, L->pose_memory);
    for (size_t i = 0; i < L->model->animation_count; i++)
        if (L->model->animations[i].name && strcmp(L->model->animations[i].name, "move") == 0)
            L->clip = &L->model->animations[i];
    return true;
}

static bool load_file(loaded* L, const char* name) {
    char path[512];
    snprintf(path, sizeof path, "%s%s", DATA, name);
    return load(L, path, NULL);
}

/* The pose at time t: the clip, then the constraints. */
static void pose_at(loaded* L, float t) {
    sw_diag diag;
    SW_CHECK(sw_pose_sample(L->model, L->clip, t, false, &L->pose, &diag) == SW_OK);
    sw_constraint_apply(&L->state, &L->pose);
}

static sw_quat rotation_of(const loaded* L, int file_node) { return L->pose.local[L->model->node_from_source[file_node]].rotation; }

/* The largest component difference of two rotations (q and −q are one). */
static double quat_distance(sw_quat a, double x, double y, double z, double w) {
    double s = a.x * x + a.y * y + a.z * z + a.w * w < 0 ? -1.0 : 1.0;
    double d = fabs(a.x - s * x);
    if (fabs(a.y - s * y) > d) d = fabs(a.y - s * y);
    if (fabs(a.z - s * z) > d) d = fabs(a.z - s * z);
    if (fabs(a.w - s * w) > d) d = fabs(a.w - s * w);
    return d;
}

static bool has_warning(const sw_constraint_set* set, const char* needle) {
    for (size_t i = 0; set && i < set->warning_count; i++)
        if (strstr(set->warnings[i], needle)) return true;
    return false;
}

static sw_quat axis_angle(float x, float y, float z, float degrees) {
    return sw_quat_from_axis_angle(sw_vec3_make(x, y, z), degrees * (float)SW_PI / 180.0f);
}

/* ---- tests --------------------------------------------------------------------------------- */

/* Every constrained node of the four files at six times, against three-vrm. */
static void test_three_vrm_agreement(void) {
    double worst = 0.0;
    size_t compared = 0;
    for (int f = 0; f < 4; f++) {
        loaded L;
        SW_CHECK(load_file(&L, FILES[f]));
        if (!L.model) continue;
        SW_CHECK(L.clip != NULL);
        SW_CHECK_EQ_INT(L.state.cyclic_count, 0);
        SW_CHECK_EQ_INT(L.set->warning_count, 0);
        for (size_t i = 0; i < sizeof THREE_VRM / sizeof THREE_VRM[0]; i++) {
            const expected_rotation* e = &THREE_VRM[i];
            if (e->file != f) continue;
            pose_at(&L, e->time);
            double d = quat_distance(rotation_of(&L, e->node), e->x, e->y, e->z, e->w);
            if (d > 1e-5)
                fprintf(stderr, "%s t=%.2f node %d: off by %.3g\n", FILES[f], (double)e->time, e->node, d);
            SW_CHECK(d <= 1e-5);
            if (d > worst) worst = d;
            compared++;
        }
        unload(&L);
    }
    SW_CHECK_EQ_INT(compared, sizeof THREE_VRM / sizeof THREE_VRM[0]);
    printf("  %zu rotations, largest difference from three-vrm %.2g\n", compared, worst);
}

/* Hand cases: a roll of 90° about X with weight 0.5 gives 45°, swing or
   not; rotation copies the source's change from its rest. */
static void test_hand_computed(void) {
    loaded L;
    SW_CHECK(load_file(&L, "constraint_roll.gltf"));
    if (!L.model) return;
    sw_quat half = axis_angle(1, 0, 0, 45);
    pose_at(&L, 1.0f); /* Spin: 90° about X */
    SW_CHECK(quat_distance(rotation_of(&L, 7), half.x, half.y, half.z, half.w) < 1e-6);
    pose_at(&L, 2.0f); /* Spin: 30° about Z after 90° about X: the swing is dropped */
    SW_CHECK(quat_distance(rotation_of(&L, 7), half.x, half.y, half.z, half.w) < 1e-6);
    pose_at(&L, 0.5f); /* 45° about X on the way: half of it */
    sw_quat quarter = axis_angle(1, 0, 0, 22.5f);
    SW_CHECK(quat_distance(rotation_of(&L, 7), quarter.x, quarter.y, quarter.z, quarter.w) < 1e-6);
    unload(&L);

    SW_CHECK(load_file(&L, "constraint_rotation.gltf"));
    if (!L.model) return;
    pose_at(&L, 1.0f);
    /* Copy: rest (90° about Y) · the source's change (80° about (1, 2, 3)). */
    sw_quat expect = sw_quat_mul(axis_angle(0, 1, 0, 90), axis_angle(1, 2, 3, 80));
    SW_CHECK(quat_distance(rotation_of(&L, 2), expect.x, expect.y, expect.z, expect.w) < 1e-5);
    /* Half: slerp from its rest by 0.4: 32° about (1, 2, 3) after its rest. */
    sw_quat half_rest = axis_angle(1, -1, 0.5f, 60);
    expect = sw_quat_mul(half_rest, axis_angle(1, 2, 3, 32));
    SW_CHECK(quat_distance(rotation_of(&L, 3), expect.x, expect.y, expect.z, expect.w) < 1e-5);
    unload(&L);
}

/* Aim with weight 1: the axis, turned by the result, points at the source
   in the world (under a non-uniformly scaled parent too). */
static void test_aim_points_at_source(void) {
    loaded L;
    SW_CHECK(load_file(&L, "constraint_aim.gltf"));
    if (!L.model) return;
    const struct { int node, source; sw_vec3 axis; } aims[] = {
        {4, 2, {1, 0, 0}},  /* SleeveX at LowerArm, +X */
        {8, 3, {0, 0, -1}}, /* SleeveNegZ at Hand, −Z, under the scaled Shoulder */
    };
    for (int k = 0; k < 3; k++) {
        pose_at(&L, 0.7f * (float)k);
        sw_pose_update_world(L.model, &L.pose);
        for (int a = 0; a < 2; a++) {
            uint32_t d = L.model->node_from_source[aims[a].node], s = L.model->node_from_source[aims[a].source];
            const sw_mat34* wd = &L.pose.world[d];
            sw_vec3 at = sw_vec3_make(wd->m[0][3], wd->m[1][3], wd->m[2][3]);
            sw_vec3 to = sw_vec3_normalize(sw_vec3_sub(
                sw_vec3_make(L.pose.world[s].m[0][3], L.pose.world[s].m[1][3], L.pose.world[s].m[2][3]), at));
            /* The axis in the world, through the parent's rotation only (its scale divided out). */
            int32_t p = L.model->nodes[d].parent;
            sw_vec3 local_axis = sw_quat_rotate(L.pose.local[d].rotation, aims[a].axis);
            sw_mat34 pw = L.pose.world[p];
            float sx = sw_vec3_length(sw_vec3_make(pw.m[0][0], pw.m[1][0], pw.m[2][0]));
            float sy = sw_vec3_length(sw_vec3_make(pw.m[0][1], pw.m[1][1], pw.m[2][1]));
            float sz = sw_vec3_length(sw_vec3_make(pw.m[0][2], pw.m[1][2], pw.m[2][2]));
            sw_vec3 unscaled = sw_vec3_make(local_axis.x / sx, local_axis.y / sy, local_axis.z / sz);
            sw_vec3 dir = sw_vec3_normalize(sw_mat34_apply_dir(&pw, unscaled));
            SW_CHECK_NEAR(sw_vec3_dot(dir, to), 1.0, 1e-5);
        }
    }
    unload(&L);
}

/* Constraints that read each other's results, written dependents first:
   evaluated rotation → roll → aim. */
static void test_chain_order(void) {
    loaded L;
    SW_CHECK(load_file(&L, "constraint_chain.gltf"));
    if (!L.model) return;
    SW_CHECK_EQ_INT(L.state.order_count, 3);
    int position[3] = {-1, -1, -1}; /* of the constraints on file nodes 0 (aim), 1 (roll), 2 (rotation) */
    for (size_t i = 0; i < L.state.order_count; i++) {
        uint32_t node = L.model->nodes[L.set->constraints[L.state.order[i]].destination].source_index;
        if (node < 3) position[node] = (int)i;
    }
    SW_CHECK(position[2] == 0 && position[1] == 1 && position[0] == 2);
    /* The set keeps the file's order (aim first), so the order is not the set's. */
    SW_CHECK_EQ_INT(L.set->constraints[0].type, SW_CONSTRAINT_AIM);
    unload(&L);
}

/* A <-> B and a roll whose source is below its destination: warned about,
   not evaluated (their nodes keep the animation); Free still follows. */
static void test_cycle(void) {
    loaded L;
    SW_CHECK(load_file(&L, "constraint_cycle.gltf"));
    if (!L.model) return;
    SW_CHECK_EQ_INT(L.set->constraint_count, 4);
    SW_CHECK_EQ_INT(L.state.cyclic_count, 3);
    SW_CHECK_EQ_INT(L.state.order_count, 1);
    SW_CHECK(has_warning(L.set, "nodes[1].extensions.VRMC_node_constraint: source node 2 makes a circular dependency"));
    SW_CHECK(has_warning(L.set, "nodes[2].extensions.VRMC_node_constraint: source node 1 makes a circular"));
    SW_CHECK(has_warning(L.set, "nodes[3].extensions.VRMC_node_constraint: source node 4 makes a circular"));
    SW_CHECK(!has_warning(L.set, "nodes[6]"));
    pose_at(&L, 1.0f);
    sw_quat a = axis_angle(0, 1, 0, 40), free_rot = sw_quat_mul(axis_angle(0, 0, 1, 90), axis_angle(1, 0, 0, 90));
    SW_CHECK(quat_distance(rotation_of(&L, 1), a.x, a.y, a.z, a.w) < 1e-6);   /* A: its animation */
    SW_CHECK(quat_distance(rotation_of(&L, 2), 0, 0, 0, 1) < 1e-6);           /* B: its rest */
    SW_CHECK(quat_distance(rotation_of(&L, 3), 0, 0, 0, 1) < 1e-6);           /* Parent: its rest */
    SW_CHECK(quat_distance(rotation_of(&L, 6), free_rot.x, free_rot.y, free_rot.z, free_rot.w) < 1e-5);
    unload(&L);
}

/* ---- broken and hostile records -------------------------------------------------------------- */

/* A three-node file (Root, A, B) whose node B carries `extension` (the
   VRMC_node_constraint value). */
static char* file_with(const char* extension) {
    const char* format =
        "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],"
        "\"nodes\":[{\"name\":\"Root\",\"children\":[1,2]},{\"name\":\"A\"},"
        "{\"name\":\"B\"%s,\"extensions\":{\"VRMC_node_constraint\":%s}}]}";
    const char* matrix = strstr(extension, "\"matrix\"") ? ",\"matrix\":[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1]" : "";
    size_t size = strlen(format) + strlen(extension) + strlen(matrix) + 1;
    char* s = malloc(size);
    snprintf(s, size, format, matrix, extension);
    return s;
}

static void test_errors(void) {
    const struct { const char* extension; const char* message; } cases[] = {
        {"5", "bad.gltf: nodes[2].extensions.VRMC_node_constraint: expected an object"},
        {"{\"specVersion\":\"1.0\"}", "nodes[2].extensions.VRMC_node_constraint.constraint: missing"},
        {"{\"specVersion\":1,\"constraint\":{}}", "VRMC_node_constraint.specVersion: expected a string"},
        {"{\"specVersion\":\"1.0\",\"constraint\":[]}", "VRMC_node_constraint.constraint: expected an object"},
        {"{\"specVersion\":\"1.0\",\"constraint\":{\"roll\":true}}", "constraint.roll: expected an object"},
        {"{\"specVersion\":\"1.0\",\"constraint\":{\"rotation\":{}}}", "constraint.rotation.source: missing"},
        {"{\"specVersion\":\"1.0\",\"constraint\":{\"rotation\":{\"source\":\"A\"}}}",
         "constraint.rotation.source: expected an integer index"},
        {"{\"specVersion\":\"1.0\",\"constraint\":{\"aim\":{\"source\":99,\"aimAxis\":\"PositiveX\"}}}",
         "constraint.aim.source: 99 is out of range (the model has 3 nodes)"},
        {"{\"specVersion\":\"1.0\",\"constraint\":{\"aim\":{\"source\":-1,\"aimAxis\":\"PositiveX\"}}}",
         "constraint.aim.source: -1 is out of range"},
        {"{\"specVersion\":\"1.0\",\"constraint\":{\"roll\":{\"source\":2,\"rollAxis\":\"X\"}}}",
         "constraint.roll.source: 2 is the constrained node itself"},
        {"{\"specVersion\":\"1.0\",\"constraint\":{\"rotation\":{\"source\":1,\"weight\":\"half\"}}}",
         "constraint.rotation.weight: expected a number"},
        {"{\"specVersion\":\"1.0\",\"constraint\":{\"roll\":{\"source\":1,\"rollAxis\":7}}}",
         "constraint.roll.rollAxis: expected a string"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char* text = file_with(cases[i].extension);
        sw_model* model = NULL;
        sw_diag diag;
        SW_CHECK(sw_gltf_load_memory(text, strlen(text), "bad.gltf", NULL, NULL, &model, &diag) == SW_OK);
        sw_constraint_set* set = (sw_constraint_set*)1;
        sw_result r = model ? sw_constraint_read(model, &set, &diag) : SW_ERR_INVALID_DATA;
        SW_CHECK_EQ_INT(r, SW_ERR_INVALID_DATA);
        SW_CHECK(set == NULL);
        if (!strstr(diag.message, cases[i].message) || !strstr(diag.message, "bad.gltf: nodes[2]") ||
            strchr(diag.message, '\n'))
            fprintf(stderr, "case %zu: got \"%s\", wanted \"%s\"\n", i, diag.message, cases[i].message);
        SW_CHECK(strstr(diag.message, cases[i].message) != NULL);
        SW_CHECK(strstr(diag.message, "bad.gltf: nodes[2]") != NULL);
        sw_model_free(model);
        free(text);
    }
}

static void test_warnings(void) {
    const struct { const char* extension; const char* warning; size_t kept; } cases[] = {
        {"{\"specVersion\":\"2.0\",\"constraint\":{\"rotation\":{\"source\":1}}}", "specVersion: unknown version", 0},
        {"{\"constraint\":{\"rotation\":{\"source\":1}}}", "specVersion: missing", 0},
        {"{\"specVersion\":\"1.0-beta\",\"constraint\":{}}", "no roll, aim or rotation", 0},
        {"{\"specVersion\":\"1.0\",\"constraint\":{\"roll\":{\"source\":1,\"rollAxis\":\"W\"}}}",
         "rollAxis: unknown axis \"W\"", 0},
        {"{\"specVersion\":\"1.0\",\"constraint\":{\"aim\":{\"source\":1}}}", "aimAxis: missing", 0},
        {"{\"specVersion\":\"1.0\",\"constraint\":{\"rotation\":{\"source\":1,\"weight\":1.5}}}", "weight", 1},
        {"{\"specVersion\":\"1.0\",\"constraint\":{\"rotation\":{\"source\":1},\"aim\":{\"source\":1,"
         "\"aimAxis\":\"NegativeZ\"}}}", "more than one of roll, aim and rotation; aim is used", 1},
        {"{\"specVersion\":\"1.0\",\"constraint\":{\"rotation\":{\"source\":1}},\"matrix\":1}", "matrix transform", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char* text = file_with(cases[i].extension);
        loaded L;
        SW_CHECK(load(&L, "warn.gltf", text));
        free(text);
        if (!L.model) continue;
        SW_CHECK(L.set != NULL);
        SW_CHECK_EQ_INT(L.set->constraint_count, cases[i].kept);
        if (!has_warning(L.set, cases[i].warning))
            fprintf(stderr, "case %zu: no warning \"%s\" (%zu warnings)\n", i, cases[i].warning, L.set->warning_count);
        SW_CHECK(has_warning(L.set, cases[i].warning));
        SW_CHECK(has_warning(L.set, "warn.gltf: nodes[2].extensions.VRMC_node_constraint"));
        if (L.set->constraint_count) SW_CHECK(L.set->constraints[0].weight <= 1.0f);
        unload(&L);
    }
}

/* Hand-built constraints that do not fit the model: init says which. */
static void test_init_checks(void) {
    loaded L;
    SW_CHECK(load_file(&L, "constraint_rotation.gltf"));
    if (!L.model) return;
    const sw_constraint bad[] = {
        {SW_CONSTRAINT_ROTATION, 9, 1, 0, 1.0f},
        {SW_CONSTRAINT_ROTATION, 1, 1, 0, 1.0f},
        {SW_CONSTRAINT_ROTATION, 2, 1, 0, NAN},
        {SW_CONSTRAINT_ROLL, 2, 1, SW_CONSTRAINT_NEGATIVE_X, 1.0f},
        {SW_CONSTRAINT_AIM, 2, 1, (sw_constraint_axis)6, 1.0f},
    };
    const char* messages[] = {"out of range", "the source is the destination", "weight", "not a roll axis",
                              "not an aim axis"};
    void* memory = alloc16(sw_constraint_memory_size(L.model, 1));
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        sw_constraint_state s;
        sw_diag diag;
        SW_CHECK_EQ_INT(sw_constraint_init(&s, memory, L.model, &bad[i], 1, &diag), SW_ERR_INVALID_ARGUMENT);
        SW_CHECK(strstr(diag.message, messages[i]) != NULL);
    }
    free(memory);
    unload(&L);
}

/* A chain of 20,000 nodes, each aiming at its parent's parent (every
   constraint reads the one above: three-vrm's walk would be quadratic),
   and the same chain aiming at each node's child (one cycle through all):
   both read, ordered and evaluated in well under a second. */
static char* long_chain(size_t n, bool at_child) {
    size_t size = 256 + n * 200;
    char* s = malloc(size);
    size_t at = (size_t)snprintf(s, size, "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],"
                                          "\"nodes\":[");
    for (size_t i = 0; i < n; i++) {
        at += (size_t)snprintf(s + at, size - at, "%s{\"translation\":[0,0.01,0]", i ? "," : "");
        if (i + 1 < n) at += (size_t)snprintf(s + at, size - at, ",\"children\":[%zu]", i + 1);
        if (at_child ? i + 1 < n : i >= 2)
            at += (size_t)snprintf(s + at, size - at,
                                   ",\"extensions\":{\"VRMC_node_constraint\":{\"specVersion\":\"1.0\",\"constraint\":"
                                   "{\"aim\":{\"source\":%zu,\"aimAxis\":\"PositiveX\"}}}}",
                                   at_child ? i + 1 : i - 2);
        at += (size_t)snprintf(s + at, size - at, "}");
    }
    snprintf(s + at, size - at, "]}");
    return s;
}

static void test_bounded(void) {
    const size_t n = 20000;
    for (int at_child = 0; at_child < 2; at_child++) {
        char* text = long_chain(n, at_child);
        clock_t start = clock();
        loaded L;
        SW_CHECK(load(&L, "chain.gltf", text));
        free(text);
        if (!L.model) continue;
        sw_pose_rest(L.model, &L.pose);
        sw_constraint_apply(&L.state, &L.pose);
        double seconds = (double)(clock() - start) / CLOCKS_PER_SEC;
        printf("  %zu-node chain, aims at the %s: %zu constraints, %zu on a cycle, %.3f s\n", n,
               at_child ? "child" : "grandparent", L.set->constraint_count, L.state.cyclic_count, seconds);
        SW_CHECK_EQ_INT(L.set->constraint_count, at_child ? n - 1 : n - 2);
        SW_CHECK_EQ_INT(L.state.cyclic_count, at_child ? n - 1 : 0);
        SW_CHECK(seconds < 2.0);
        unload(&L);
    }
}

int main(void) {
    SW_RUN(test_three_vrm_agreement);
    SW_RUN(test_hand_computed);
    SW_RUN(test_aim_points_at_source);
    SW_RUN(test_chain_order);
    SW_RUN(test_cycle);
    SW_RUN(test_errors);
    SW_RUN(test_warnings);
    SW_RUN(test_init_checks);
    SW_RUN(test_bounded);
    return sw_test_finish();
}
