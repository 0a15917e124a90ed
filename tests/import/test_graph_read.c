/* Animation graphs from JSON (sinew/graph_read.h) against the demo
   character: the walk → wave graph through the file format, the
   condition parser's precedence and errors, names (clips, states, joints,
   humanoid bones), one-line errors naming the file and the JSON path, and
   out of memory at every allocation. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "base/counting_allocator.h"
#include "sinew/demo.h"
#include "sinew/gltf.h"
#include "sinew/graph_read.h"
#include "sinew/pose.h"
#include "sinew/retarget.h"

static sw_model* g_model;

static bool load_demo(void) {
    if (g_model) return true;
    uint8_t* glb = NULL;
    size_t size = 0;
    sw_diag diag;
    bool ok = sw_demo_character_glb(&glb, &size, &diag) == SW_OK &&
              sw_gltf_load_memory(glb, size, SW_DEMO_CHARACTER_NAME, NULL, NULL, &g_model, &diag) == SW_OK;
    sw_demo_character_glb_free(glb);
    return ok;
}

static sw_result read_text(const char* json, sw_graph_file** out, sw_diag* diag) {
    return sw_graph_read(json, strlen(json), "g.json", g_model, NULL, out, diag);
}

#define WALK_WAVE                                                                                   \
    "{\"parameters\": {\"wave\": 0},\n"                                                             \
    " \"start\": \"walk\",\n"                                                                        \
    " \"states\": {\"walk\": {\"clip\": \"walk\"}, \"wave\": {\"clip\": \"wave\"}},\n"               \
    " \"transitions\": [{\"from\": \"walk\", \"to\": \"wave\", \"when\": \"wave > 0.5\", \"duration\": 0.3}]}"

static double distance_to(const sw_pose* graph_pose, const char* clip, float t, sw_pose* direct) {
    SW_CHECK(sw_pose_sample(g_model, &g_model->animations[sw_model_find_clip(g_model, clip)], t, true, direct, NULL) ==
             SW_OK);
    sw_pose_update_world(g_model, direct);
    double worst = 0;
    for (size_t j = 0; j < g_model->node_count; j++) {
        double d2 = 0;
        for (int r = 0; r < 3; r++) {
            double d = (double)graph_pose->world[j].m[r][3] - direct->world[j].m[r][3];
            d2 += d * d;
        }
        worst = fmax(worst, sqrt(d2));
    }
    return worst;
}

/* The check through the file format. */
static void test_walk_to_wave_from_json(void) {
    if (!load_demo()) { SW_CHECK(!"demo character"); return; }
    sw_graph_file* file = NULL;
    sw_diag diag;
    SW_CHECK(read_text(WALK_WAVE, &file, &diag) == SW_OK);
    if (!file) { fprintf(stderr, "  %s\n", diag.message); return; }
    size_t bytes = sw_graph_memory_size(&file->graph, g_model);
    void* memory = aligned_alloc(16, bytes);
    sw_graph_instance g;
    SW_CHECK(sw_graph_bind(&g, &file->graph, g_model, memory, bytes, &diag) == SW_OK);
    sw_pose_sizes sizes = sw_pose_sizes_of(g_model);
    void* m1 = aligned_alloc(16, sw_pose_memory_size(&sizes));
    void* m2 = aligned_alloc(16, sw_pose_memory_size(&sizes));
    sw_pose out, direct;
    sw_pose_bind(&out, &sizes, m1), sw_pose_bind(&direct, &sizes, m2);
    int32_t wave = sw_graph_find_parameter(&file->graph, "wave");
    SW_CHECK(wave == 0);
    double at_09 = 1, at_15 = 1;
    for (int frame = 1; frame <= 30; frame++) {
        if (frame == 21) sw_graph_set_float(&g, (uint32_t)wave, 1); /* at 1.0 s */
        SW_CHECK(sw_graph_update(&g, 0.05f, NULL, NULL, NULL) == SW_OK);
        SW_CHECK(sw_graph_evaluate(&g, &out, NULL) == SW_OK);
        sw_pose_update_world(g_model, &out);
        if (frame == 18) at_09 = distance_to(&out, "walk", 0.9f, &direct);
        if (frame == 30) at_15 = distance_to(&out, "wave", 0.5f, &direct);
    }
    fprintf(stderr, "  from JSON: %.3g m at 0.9 s, %.3g m at 1.5 s\n", at_09, at_15);
    SW_CHECK(at_09 <= 1e-5 && at_15 <= 1e-5);
    free(m1), free(m2), free(memory);
    sw_graph_file_free(file);
}

/* The tree a "when" becomes: the root is the last node. */
static const sw_graph_condition* when_root(const sw_graph_file* f, size_t transition) {
    uint32_t c = f->graph.layers[0].machine->transitions[transition].condition;
    return &f->graph.conditions[c];
}

static void test_condition_precedence(void) {
    if (!load_demo()) { SW_CHECK(!"demo character"); return; }
    const char* json =
        "{\"parameters\": {\"a\": false, \"b\": false, \"c\": false, \"speed\": 0},"
        " \"states\": {\"walk\": {\"clip\": \"walk\"}, \"wave\": {\"clip\": \"wave\"}},"
        " \"transitions\": ["
        "  {\"from\": \"walk\", \"to\": \"wave\", \"when\": \"a or b and c\"},"
        "  {\"from\": \"walk\", \"to\": \"wave\", \"when\": \"(a or b) and c\"},"
        "  {\"from\": \"walk\", \"to\": \"wave\", \"when\": \"not a and speed >= -1.5e0\"},"
        "  {\"from\": \"walk\", \"to\": \"wave\", \"when\": \"a || !b && c\"},"
        "  {\"from\": \"*\", \"to\": \"wave\", \"when\": \"speed!=2\", \"exit_time\": 0.5}]}";
    sw_graph_file* f = NULL;
    sw_diag diag;
    SW_CHECK(read_text(json, &f, &diag) == SW_OK);
    if (!f) { fprintf(stderr, "  %s\n", diag.message); return; }
    const sw_graph_condition* all = f->graph.conditions;
    /* a or (b and c) */
    const sw_graph_condition* r = when_root(f, 0);
    SW_CHECK(r->op == SW_COND_OR && all[r->left].op == SW_COND_PARAMETER && all[r->left].parameter == 0);
    SW_CHECK(all[r->right].op == SW_COND_AND && all[all[r->right].left].parameter == 1 &&
             all[all[r->right].right].parameter == 2);
    /* (a or b) and c */
    r = when_root(f, 1);
    SW_CHECK(r->op == SW_COND_AND && all[r->left].op == SW_COND_OR && all[r->right].parameter == 2);
    /* (not a) and (speed >= -1.5) */
    r = when_root(f, 2);
    SW_CHECK(r->op == SW_COND_AND && all[r->left].op == SW_COND_NOT && all[all[r->left].left].parameter == 0);
    SW_CHECK(all[r->right].op == SW_COND_GREATER_EQUAL && all[r->right].parameter == 3 &&
             all[r->right].value == -1.5f);
    /* a or ((not b) and c) */
    r = when_root(f, 3);
    SW_CHECK(r->op == SW_COND_OR && all[r->right].op == SW_COND_AND && all[all[r->right].left].op == SW_COND_NOT);
    const sw_graph_transition* t = &f->graph.layers[0].machine->transitions[4];
    SW_CHECK(t->from == SW_GRAPH_ANY_STATE && t->has_exit_time && t->exit_time == 0.5f);
    SW_CHECK(when_root(f, 4)->op == SW_COND_NOT_EQUAL && when_root(f, 4)->value == 2.0f);
    sw_graph_file_free(f);
}

/* Errors: one line, "g.json: <path>: <problem>", with the column for expressions. */
static void expect_error(const char* json, const char* expected) {
    sw_graph_file* f = NULL;
    sw_diag diag;
    sw_result r = read_text(json, &f, &diag);
    SW_CHECK(r == SW_ERR_INVALID_DATA && f == NULL);
    bool ok = strstr(diag.message, expected) != NULL && strchr(diag.message, '\n') == NULL &&
              strncmp(diag.message, "g.json: ", 8) == 0;
    if (!ok) fprintf(stderr, "  expected \"%s\" in: %s\n", expected, diag.message);
    SW_CHECK(ok);
    sw_graph_file_free(f);
}

#define STATES "\"states\": {\"walk\": {\"clip\": \"walk\"}, \"wave\": {\"clip\": \"wave\"}}"
#define WHEN(expr) "{\"parameters\": {\"speed\": 0, \"g\": true}, " STATES ", \"transitions\": [{\"from\": \"walk\", " \
                   "\"to\": \"wave\", \"when\": \"" expr "\"}]}"

static void test_errors(void) {
    if (!load_demo()) { SW_CHECK(!"demo character"); return; }
    expect_error(WHEN("speed >"), "transitions[0].when: column 8: expected a number");
    expect_error(WHEN("sped > 1"), "transitions[0].when: column 1: unknown parameter \"sped\"");
    expect_error(WHEN("speed > 1 and"), "transitions[0].when: column 14: expected a parameter name at the end");
    expect_error(WHEN("(speed > 1"), "column 11: expected ')'");
    expect_error(WHEN("speed 1"), "column 7: expected 'and', 'or' or the end");
    expect_error(WHEN("g and and"), "column 7: expected a parameter name");
    expect_error("{" STATES ", \"transitions\": [{\"from\": \"walk\", \"to\": \"wav\", \"when\": \"x\"}]}",
                 "transitions[0].to: no state \"wav\"");
    expect_error("{\"states\": {\"a\": {\"clip\": \"sprint\"}}}", "states.a.clip: no clip \"sprint\" in the model (clips: ");
    expect_error("{\"states\": {\"a\": {\"clip\": \"walk\", \"blend1d\": {}}}}", "states.a.blend1d: a state has one");
    expect_error("{\"parameters\": {\"s\": 0}, \"states\": {\"a\": {\"blend1d\": {\"parameter\": \"s\", \"points\": "
                 "[{\"clip\": \"walk\", \"at\": 1}, {\"clip\": \"wave\", \"at\": 1}]}}}}",
                 "states.a.blend1d.points[1].at: points must be in strictly ascending order");
    expect_error("{" STATES ", \"transitions\": [{\"from\": \"walk\", \"to\": \"wave\", \"exit_time\": 1, "
                 "\"blend\": \"inertialise\"}]}",
                 "transitions[0].blend: \"inertialise\" is not one of \"crossfade\", \"inertialize\"");
    expect_error("{\"layers\": [{" STATES ", \"mask\": [\"tail\"]}]}", "layers[0].mask[0]: no joint \"tail\"");
    expect_error("{\"states\": ", "graph is not valid JSON");
    expect_error("[]", "g.json: expected an object");
    expect_error("{\"parameters\": {\"x\": \"fast\"}, " STATES "}", "parameters: \"x\": expected a number");
}

/* Masks by joint name and by humanoid bone name give the same subtree. */
static void test_masks(void) {
    if (!load_demo()) { SW_CHECK(!"demo character"); return; }
    sw_humanoid_map map;
    sw_humanoid_map_clear(&map);
    int32_t arm = sw_model_find_node_by_name(g_model, "upper_arm_r");
    SW_CHECK(arm >= 0);
    map.node[SW_HUMANOID_RIGHT_UPPER_ARM] = arm;
    const char* by_joint = "{" STATES ", \"layers\": [{\"mode\": \"override\", \"weight\": 0.5, " STATES
                           ", \"mask\": [\"upper_arm_r\"]}]}";
    const char* by_bone = "{" STATES ", \"layers\": [{" STATES ", \"mask\": [\"rightUpperArm\"]}]}";
    sw_graph_file *a = NULL, *b = NULL;
    sw_diag diag;
    SW_CHECK(read_text(by_joint, &a, &diag) == SW_OK);
    SW_CHECK(sw_graph_read(by_bone, strlen(by_bone), "g.json", g_model, &map, &b, &diag) == SW_OK);
    if (!a || !b) { fprintf(stderr, "  %s\n", diag.message); sw_graph_file_free(a), sw_graph_file_free(b); return; }
    SW_CHECK_EQ_INT(a->graph.layer_count, 2);
    SW_CHECK(a->graph.layers[1].weight == 0.5f);
    size_t set = 0;
    bool same = true;
    for (size_t j = 0; j < g_model->node_count; j++) {
        set += a->graph.layers[1].mask[j] == 1.0f;
        same = same && a->graph.layers[1].mask[j] == b->graph.layers[1].mask[j];
        /* a node is in the mask exactly when the arm is it or an ancestor */
        bool under = false;
        for (int32_t p = (int32_t)j; p >= 0; p = g_model->nodes[p].parent) under = under || p == arm;
        SW_CHECK((a->graph.layers[1].mask[j] == 1.0f) == under);
    }
    SW_CHECK(same && set >= 5); /* upper arm, twist, forearm, twist, hand */
    /* without a humanoid map the bone name is unknown */
    sw_graph_file* c = NULL;
    SW_CHECK(read_text(by_bone, &c, &diag) == SW_ERR_INVALID_DATA && strstr(diag.message, "rightUpperArm"));
    sw_graph_file_free(a), sw_graph_file_free(b);
}

/* The 2-D example shape: a blend2d at a sample point is that clip. */
static void test_blend2d_state(void) {
    if (!load_demo()) { SW_CHECK(!"demo character"); return; }
    const char* json = "{\"parameters\": {\"dir\": 1, \"speed\": 0}, \"start\": \"move\","
                       " \"states\": {\"move\": {\"blend2d\": {\"x\": \"dir\", \"y\": \"speed\", \"points\": ["
                       "{\"clip\": \"walk\", \"at\": [0, 0]}, {\"clip\": \"wave\", \"at\": [1, 0]},"
                       "{\"clip\": \"twist\", \"at\": [0, 1]}]}}}}";
    sw_graph_file* f = NULL;
    sw_diag diag;
    SW_CHECK(read_text(json, &f, &diag) == SW_OK);
    if (!f) { fprintf(stderr, "  %s\n", diag.message); return; }
    size_t bytes = sw_graph_memory_size(&f->graph, g_model);
    void* memory = aligned_alloc(16, bytes);
    sw_graph_instance g;
    SW_CHECK(sw_graph_bind(&g, &f->graph, g_model, memory, bytes, &diag) == SW_OK);
    sw_pose_sizes sizes = sw_pose_sizes_of(g_model);
    void* m1 = aligned_alloc(16, sw_pose_memory_size(&sizes));
    void* m2 = aligned_alloc(16, sw_pose_memory_size(&sizes));
    sw_pose out, direct;
    sw_pose_bind(&out, &sizes, m1), sw_pose_bind(&direct, &sizes, m2);
    SW_CHECK(sw_graph_update(&g, 0.5f, NULL, NULL, NULL) == SW_OK); /* wave alone: cycle 2 s, phase 0.25 */
    SW_CHECK(sw_graph_evaluate(&g, &out, NULL) == SW_OK);
    sw_pose_update_world(g_model, &out);
    double d = distance_to(&out, "wave", 0.5f, &direct);
    SW_CHECK(d <= 1e-5);
    free(m1), free(m2), free(memory);
    sw_graph_file_free(f);
}

/* "root_motion" through the file: the steps' deltas add up to the clip's
   own motion (Y only, where deltas add), and a bad component is refused. */
static void test_root_motion_from_json(void) {
    if (!load_demo()) { SW_CHECK(!"demo character"); return; }
    const char* json = "{\"states\": {\"walk\": {\"clip\": \"walk\"}},"
                       " \"root_motion\": {\"joint\": \"pelvis\", \"components\": [\"y\"]}}";
    sw_graph_file* f = NULL;
    sw_diag diag;
    SW_CHECK(read_text(json, &f, &diag) == SW_OK);
    if (!f) { fprintf(stderr, "  %s\n", diag.message); return; }
    SW_CHECK(f->graph.root_motion && f->graph.root_motion->components == SW_ROOT_MOTION_Y);
    size_t bytes = sw_graph_memory_size(&f->graph, g_model);
    void* memory = aligned_alloc(16, bytes);
    sw_graph_instance g;
    SW_CHECK(sw_graph_bind(&g, &f->graph, g_model, memory, bytes, &diag) == SW_OK);
    double sum = 0;
    for (int i = 0; i < 7; i++) {
        sw_root_motion_delta d;
        SW_CHECK(sw_graph_update(&g, 0.05f, NULL, &d, NULL) == SW_OK);
        sum += d.translation.y;
    }
    const sw_clip* walk = &g_model->animations[sw_model_find_clip(g_model, "walk")];
    sw_root_motion_delta whole = sw_root_motion_extract(f->graph.root_motion, walk, 0.0f, 0.35f, true);
    SW_CHECK(fabs(whole.translation.y) > 1e-4);
    SW_CHECK_NEAR(sum, whole.translation.y, 1e-6);
    free(memory);
    sw_graph_file_free(f);
    expect_error("{" STATES ", \"root_motion\": {\"joint\": \"pelvis\", \"components\": [\"w\"]}}",
                 "root_motion.components[0]: expected \"x\", \"y\", \"z\" or \"yaw\"");
    expect_error("{" STATES ", \"root_motion\": {\"joint\": \"root\"}}", "root_motion.joint: no joint \"root\"");
}

/* Every allocation refused in turn: out of memory, nothing left behind. */
static void test_out_of_memory(void) {
    if (!load_demo()) { SW_CHECK(!"demo character"); return; }
    const char* json = WHEN("speed > 1 and g or not g and speed < 3");
    bool all_ok = true;
    size_t calls = 0;
    for (size_t k = 0; k < 200; k++) {
        counting_allocator c;
        counting_begin(&c);
        c.fail_from = k;
        sw_graph_file* f = NULL;
        sw_diag diag;
        sw_result r = read_text(json, &f, &diag);
        sw_graph_file_free(f);
        counting_end(&c);
        all_ok = all_ok && c.live_blocks == 0 && (r == SW_OK || r == SW_ERR_OUT_OF_MEMORY);
        if (r == SW_OK) {
            calls = k;
            break;
        }
    }
    fprintf(stderr, "  refused each of %zu allocations in turn\n", calls);
    SW_CHECK(all_ok && calls > 5);
}

/* The IK node: effectors by name, targets mixing numbers and parameters,
   the rig built on the given humanoid map; and its errors. */
static void test_ik_from_json(void) {
    if (!load_demo()) { SW_CHECK(!"demo character"); return; }
    sw_humanoid_map map;
    sw_diag diag;
    SW_CHECK(sw_humanoid_map_guess(g_model, NULL, &map, NULL, &diag) == SW_OK);
    const char* json = "{\"parameters\": {\"reach\": 0, \"hy\": 1.2}, " STATES ", \"ik\": {\"iterations\": 8, "
                       "\"tolerance\": 0.001, \"pin_hips\": true, \"effectors\": {\"rightHand\": {\"target\": [-0.3, "
                       "\"hy\", 0.2], \"weight_parameter\": \"reach\"}, \"leftFoot\": {\"target\": [0, 0.05, 0], "
                       "\"relative\": true, \"weight\": 0.5}}}}";
    sw_graph_file* f = NULL;
    SW_CHECK(sw_graph_read(json, strlen(json), "g.json", g_model, &map, &f, &diag) == SW_OK);
    if (!f) { fprintf(stderr, "  %s\n", diag.message); return; }
    const sw_graph_ik* ik = f->graph.ik;
    SW_CHECK(ik && ik->rig && ik->iterations == 8 && ik->tolerance == 0.001f && ik->pin_hips);
    if (ik) {
        const sw_graph_ik_effector* hand = &ik->effectors[SW_FBIK_RIGHT_HAND];
        const sw_graph_ik_effector* foot = &ik->effectors[SW_FBIK_LEFT_FOOT];
        SW_CHECK(hand->weight == 1.0f && hand->weight_parameter == 0 && !hand->relative);
        SW_CHECK(hand->position.x == -0.3f && hand->position.z == 0.2f && hand->position_parameter[1] == 1 &&
                 hand->position_parameter[0] == SW_GRAPH_NONE && hand->position_parameter[2] == SW_GRAPH_NONE);
        SW_CHECK(foot->relative && foot->weight == 0.5f && foot->position.y == 0.05f);
        SW_CHECK(ik->effectors[SW_FBIK_HEAD].weight == 0.0f); /* not named: off */
        SW_CHECK(ik->rig->hips == map.node[SW_HUMANOID_HIPS]);
    }
    sw_graph_file_free(f);
    /* without a humanoid map, and mistakes, each named */
    expect_error("{" STATES ", \"ik\": {\"effectors\": {}}}", "ik: full-body IK needs the model's humanoid bones");
    const char* cases[][2] = {
        {"{" STATES ", \"ik\": {\"effectors\": {\"leftHnd\": {\"target\": [0, 0, 0]}}}}",
         "ik.effectors.leftHnd: not an effector (hips, head, leftHand"},
        {"{" STATES ", \"ik\": {\"effectors\": {\"head\": {\"target\": [0, \"up\", 0]}}}}",
         "ik.effectors.head.target[1]: unknown parameter \"up\""},
        {"{" STATES ", \"ik\": {\"effectors\": {\"head\": {\"target\": [0, 1]}}}}",
         "ik.effectors.head.target: expected [x, y, z]"},
        {"{" STATES ", \"ik\": {\"effectors\": {\"head\": {\"target\": [0, 1, 0], \"weight\": 3}}}}",
         "ik.effectors.head.weight: must be in [0, 1]"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        f = NULL;
        sw_result r = sw_graph_read(cases[i][0], strlen(cases[i][0]), "g.json", g_model, &map, &f, &diag);
        bool ok = r == SW_ERR_INVALID_DATA && !f && strstr(diag.message, cases[i][1]) && !strchr(diag.message, '\n');
        if (!ok) fprintf(stderr, "  expected \"%s\" in: %s\n", cases[i][1], diag.message);
        SW_CHECK(ok);
        sw_graph_file_free(f);
    }
}

int main(void) {
    SW_RUN(test_walk_to_wave_from_json);
    SW_RUN(test_condition_precedence);
    SW_RUN(test_errors);
    SW_RUN(test_masks);
    SW_RUN(test_blend2d_state);
    SW_RUN(test_root_motion_from_json);
    SW_RUN(test_out_of_memory);
    SW_RUN(test_ik_from_json);
    sw_model_free(g_model);
    return sw_test_finish();
}
