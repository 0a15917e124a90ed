/* Animation graphs (sinew/graph.h) on the demo character: the issue's
   walk → wave check against direct sampling, and the rules of transitions
   (priority, interrupts, triggers, exit time, sync), determinism, layers
   and no allocation per update; the full-body IK node against a direct
   sw_fbik_solve of the same pose. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "base/counting_allocator.h"
#include "sinew/demo.h"
#include "sinew/gltf.h"
#include "sinew/graph.h"
#include "sinew/pose.h"
#include "sinew/retarget.h"

static sw_model* g_model;
static const sw_clip* g_walk;
static const sw_clip* g_wave;
static const sw_clip* g_twist;

static bool load_demo(void) {
    if (g_model) return true;
    uint8_t* glb = NULL;
    size_t size = 0;
    sw_diag diag;
    if (sw_demo_character_glb(&glb, &size, &diag) != SW_OK ||
        sw_gltf_load_memory(glb, size, SW_DEMO_CHARACTER_NAME, NULL, NULL, &g_model, &diag) != SW_OK) {
        sw_demo_character_glb_free(glb);
        return false;
    }
    sw_demo_character_glb_free(glb);
    g_walk = &g_model->animations[sw_model_find_clip(g_model, "walk")];
    g_wave = &g_model->animations[sw_model_find_clip(g_model, "wave")];
    g_twist = &g_model->animations[sw_model_find_clip(g_model, "twist")];
    return true;
}

typedef struct posed {
    sw_pose pose;
    void* memory;
} posed;

static void posed_init(posed* p) {
    sw_pose_sizes sizes = sw_pose_sizes_of(g_model);
    p->memory = aligned_alloc(16, sw_pose_memory_size(&sizes));
    sw_pose_bind(&p->pose, &sizes, p->memory);
}

/* The largest distance between model-space joint positions of two local poses. */
static double world_distance(posed* a, posed* b) {
    sw_pose_update_world(g_model, &a->pose);
    sw_pose_update_world(g_model, &b->pose);
    double worst = 0;
    for (size_t j = 0; j < g_model->node_count; j++) {
        double d2 = 0;
        for (int r = 0; r < 3; r++) {
            double d = (double)a->pose.world[j].m[r][3] - b->pose.world[j].m[r][3];
            d2 += d * d;
        }
        worst = fmax(worst, sqrt(d2));
    }
    return worst;
}

/* A three-state machine over walk, wave, twist with parameters
   p0 "wave" (float), p1 "go" (bool), p2 "fire" (trigger). */
enum { WALK, WAVE, TWIST };
typedef struct fixture {
    sw_graph_parameter params[6];
    sw_graph_condition conditions[8];
    const sw_clip* clips[3];
    sw_graph_state states[3];
    sw_graph_transition transitions[8];
    sw_graph_machine machine;
    sw_graph_layer layers[2];
    sw_graph graph;
    sw_graph_instance g;
    void* memory;
} fixture;

static void fixture_init(fixture* f) {
    memset(f, 0, sizeof *f);
    f->params[0] = (sw_graph_parameter){"wave", SW_GRAPH_FLOAT, 0};
    f->params[1] = (sw_graph_parameter){"go", SW_GRAPH_BOOL, 0};
    f->params[2] = (sw_graph_parameter){"fire", SW_GRAPH_TRIGGER, 0};
    f->conditions[0] = (sw_graph_condition){.op = SW_COND_GREATER, .parameter = 0, .value = 0.5f}; /* wave > 0.5 */
    f->conditions[1] = (sw_graph_condition){.op = SW_COND_PARAMETER, .parameter = 1};            /* go */
    f->conditions[2] = (sw_graph_condition){.op = SW_COND_PARAMETER, .parameter = 2};            /* fire */
    f->clips[0] = g_walk, f->clips[1] = g_wave, f->clips[2] = g_twist;
    const char* names[3] = {"walk", "wave", "twist"};
    for (uint32_t i = 0; i < 3; i++) f->states[i] = (sw_graph_state){.name = names[i], .clip = i};
    f->machine = (sw_graph_machine){.state_count = 3, .states = f->states, .transitions = f->transitions};
    f->layers[0] = (sw_graph_layer){.name = "base", .machine = &f->machine, .weight = 1, .weight_parameter = SW_GRAPH_NONE};
    f->graph = (sw_graph){.parameter_count = 3, .parameters = f->params, .condition_count = 3,
                          .conditions = f->conditions, .clip_count = 3, .clips = f->clips, .layer_count = 1,
                          .layers = f->layers};
}

static sw_graph_transition* add_transition(fixture* f, uint32_t from, uint32_t to, uint32_t condition,
                                           float duration) {
    sw_graph_transition* t = &f->transitions[f->machine.transition_count++];
    *t = (sw_graph_transition){.from = from, .to = to, .condition = condition, .duration = duration};
    return t;
}

static bool fixture_bind(fixture* f) {
    sw_diag diag;
    size_t bytes = sw_graph_memory_size(&f->graph, g_model);
    f->memory = bytes ? aligned_alloc(16, bytes) : NULL;
    if (sw_graph_bind(&f->g, &f->graph, g_model, f->memory, bytes, &diag) != SW_OK) {
        fprintf(stderr, "  bind: %s\n", diag.message);
        return false;
    }
    return true;
}

static void step(fixture* f, float dt, int times) {
    for (int i = 0; i < times; i++) SW_CHECK(sw_graph_update(&f->g, dt, NULL, NULL, NULL) == SW_OK);
}

/* The check: walk → wave when wave > 0.5, 0.3 s, wave = 1 at 1.0 s. */
static void test_walk_to_wave(void) {
    if (!load_demo()) { SW_CHECK(!"demo character"); return; }
    fixture f;
    fixture_init(&f);
    add_transition(&f, WALK, WAVE, 0, 0.3f);
    SW_CHECK(fixture_bind(&f));
    fprintf(stderr, "  instance memory: %zu bytes for %zu nodes\n", sw_graph_memory_size(&f.graph, g_model),
            g_model->node_count);
    posed graph_out, direct;
    posed_init(&graph_out), posed_init(&direct);
    const float dt = 1.0f / 60.0f;
    double at_09 = 1, at_15 = 1;
    for (int frame = 1; frame <= 90; frame++) {
        if (frame == 61) sw_graph_set_float(&f.g, 0, 1.0f); /* the clock reads 1.0 s before this update */
        SW_CHECK(sw_graph_update(&f.g, dt, NULL, NULL, NULL) == SW_OK);
        SW_CHECK(sw_graph_evaluate(&f.g, &graph_out.pose, NULL) == SW_OK);
        if (frame == 54) {
            SW_CHECK(sw_pose_sample(g_model, g_walk, 0.9f, true, &direct.pose, NULL) == SW_OK);
            at_09 = world_distance(&graph_out, &direct);
            SW_CHECK_EQ_INT(sw_graph_layer_status(&f.g, 0).state, WALK);
        }
        if (frame == 70) { /* 1.1666 s: mid-transition, B's weight (1/6)/0.3 */
            sw_graph_status st = sw_graph_layer_status(&f.g, 0);
            SW_CHECK_EQ_INT(st.transition, 0);
            SW_CHECK_EQ_INT(st.from_state, WALK);
            SW_CHECK_NEAR(st.weight, (10 * dt) / 0.3, 1e-4);
        }
        if (frame == 90) {
            SW_CHECK(sw_pose_sample(g_model, g_wave, 0.5f, true, &direct.pose, NULL) == SW_OK);
            at_15 = world_distance(&graph_out, &direct);
            SW_CHECK_EQ_INT(sw_graph_layer_status(&f.g, 0).transition, SW_GRAPH_NONE);
        }
    }
    fprintf(stderr, "  at 0.9 s vs walk(0.9): %.3g m; at 1.5 s vs wave(0.5): %.3g m\n", at_09, at_15);
    SW_CHECK(at_09 <= 1e-5);
    SW_CHECK(at_15 <= 1e-5);
    /* and mid-transition the pose is neither clip */
    free(graph_out.memory), free(direct.memory), free(f.memory);
}

/* Mid-crossfade: the blend of walk and wave at the curve's weight
   (built here from two direct samples), a quarter of the way in. */
static void test_crossfade_midpoint(void) {
    if (!load_demo()) { SW_CHECK(!"demo character"); return; }
    fixture f;
    fixture_init(&f);
    add_transition(&f, WALK, WAVE, 0, 0.5f);
    SW_CHECK(fixture_bind(&f));
    posed out, a, b, expect;
    posed_init(&out), posed_init(&a), posed_init(&b), posed_init(&expect);
    step(&f, 0.125f, 2); /* t = 0.25 */
    sw_graph_set_float(&f.g, 0, 1.0f);
    step(&f, 0.125f, 1); /* transition at 0.25, now 0.375: weight 0.25 */
    SW_CHECK(sw_graph_evaluate(&f.g, &out.pose, NULL) == SW_OK);
    SW_CHECK(sw_pose_sample(g_model, g_walk, 0.375f, true, &a.pose, NULL) == SW_OK);
    SW_CHECK(sw_pose_sample(g_model, g_wave, 0.125f, true, &b.pose, NULL) == SW_OK);
    const sw_transform* poses[2] = {a.pose.local, b.pose.local};
    float w[2] = {0.75f, 0.25f};
    sw_blend_layer layers[2];
    SW_CHECK(sw_blend_poses(expect.pose.local, g_model->node_count, g_model->rest_local, poses, w, 2, layers,
                            NULL) == SW_OK);
    double d = world_distance(&out, &expect);
    fprintf(stderr, "  quarter-way crossfade vs 75/25 blend: %.3g m\n", d);
    SW_CHECK(d <= 1e-5);
    SW_CHECK(world_distance(&out, &a) > 1e-3); /* not walk alone */
    free(out.memory), free(a.memory), free(b.memory), free(expect.memory), free(f.memory);
}

/* Two candidates: the lower priority number wins, ties by index. */
static void test_priority(void) {
    if (!load_demo()) { SW_CHECK(!"demo character"); return; }
    for (int variant = 0; variant < 2; variant++) {
        fixture f;
        fixture_init(&f);
        add_transition(&f, WALK, WAVE, 1, 0)->priority = variant == 0 ? 5 : 0;
        add_transition(&f, WALK, TWIST, 1, 0)->priority = 0;
        SW_CHECK(fixture_bind(&f));
        sw_graph_set_bool(&f.g, 1, true);
        step(&f, 0.1f, 1);
        SW_CHECK_EQ_INT(sw_graph_layer_status(&f.g, 0).state, variant == 0 ? TWIST : WAVE);
        free(f.memory);
    }
}

/* Interrupts: only from the destination, only when the playing transition
   allows it; the interrupting one blends from the frozen output. */
static void test_interrupts(void) {
    if (!load_demo()) { SW_CHECK(!"demo character"); return; }
    for (int allow = 0; allow < 2; allow++) {
        fixture f;
        fixture_init(&f);
        add_transition(&f, WALK, WAVE, 0, 1.0f)->interrupt =
            allow ? SW_GRAPH_INTERRUPT_DESTINATION : SW_GRAPH_INTERRUPT_NONE;
        add_transition(&f, WAVE, TWIST, 1, 0.5f);
        add_transition(&f, WALK, TWIST, 1, 0.5f); /* from the source: never an interrupt */
        SW_CHECK(fixture_bind(&f));
        posed out, frozen, twist, expect;
        posed_init(&out), posed_init(&frozen), posed_init(&twist), posed_init(&expect);
        sw_graph_set_float(&f.g, 0, 1.0f);
        step(&f, 0.1f, 1);
        SW_CHECK(sw_graph_evaluate(&f.g, &frozen.pose, NULL) == SW_OK);
        step(&f, 0.1f, 1);
        SW_CHECK(sw_graph_evaluate(&f.g, &frozen.pose, NULL) == SW_OK); /* the output at 0.2 s */
        sw_graph_set_bool(&f.g, 1, true);
        step(&f, 0.125f, 2); /* taken at 0.2 s, now 0.45 s */
        sw_graph_status st = sw_graph_layer_status(&f.g, 0);
        SW_CHECK_EQ_INT(st.state, allow ? TWIST : WAVE);
        SW_CHECK_EQ_INT(st.transition, allow ? 1 : 0);
        if (allow) {
            SW_CHECK_EQ_INT(st.from_state, SW_GRAPH_NONE); /* frozen */
            SW_CHECK(sw_graph_evaluate(&f.g, &out.pose, NULL) == SW_OK);
            SW_CHECK(sw_pose_sample(g_model, g_twist, 0.25f, true, &twist.pose, NULL) == SW_OK);
            const sw_transform* poses[2] = {frozen.pose.local, twist.pose.local};
            float w[2] = {0.5f, 0.5f};
            sw_blend_layer layers[2];
            SW_CHECK(sw_blend_poses(expect.pose.local, g_model->node_count, g_model->rest_local, poses, w, 2, layers,
                                    NULL) == SW_OK);
            double d = world_distance(&out, &expect);
            fprintf(stderr, "  interrupt: frozen/twist 50/50 off by %.3g m\n", d);
            SW_CHECK(d <= 1e-5);
        }
        free(out.memory), free(frozen.memory), free(twist.memory), free(expect.memory), free(f.memory);
    }
}

/* A trigger is reset by the transition that takes it, and only by that. */
static void test_trigger_consumed(void) {
    if (!load_demo()) { SW_CHECK(!"demo character"); return; }
    fixture f;
    fixture_init(&f);
    add_transition(&f, WALK, WAVE, 2, 0);
    add_transition(&f, WAVE, WALK, 2, 0);
    SW_CHECK(fixture_bind(&f));
    step(&f, 0.1f, 2);
    SW_CHECK_EQ_INT(sw_graph_layer_status(&f.g, 0).state, WALK);
    sw_graph_set_trigger(&f.g, 2);
    step(&f, 0.1f, 1);
    SW_CHECK_EQ_INT(sw_graph_layer_status(&f.g, 0).state, WAVE);
    SW_CHECK(sw_graph_get(&f.g, 2) == 0.0f);
    step(&f, 0.1f, 3); /* consumed: no way back */
    SW_CHECK_EQ_INT(sw_graph_layer_status(&f.g, 0).state, WAVE);
    sw_graph_set_trigger(&f.g, 2);
    step(&f, 0.1f, 1);
    SW_CHECK_EQ_INT(sw_graph_layer_status(&f.g, 0).state, WALK);
    free(f.memory);
}

/* Exit time 0.5 of walk (1 s): the first update that starts at or past
   0.5 s takes it, with no condition. */
static void test_exit_time(void) {
    if (!load_demo()) { SW_CHECK(!"demo character"); return; }
    fixture f;
    fixture_init(&f);
    sw_graph_transition* t = add_transition(&f, WALK, WAVE, SW_GRAPH_NONE, 0);
    t->has_exit_time = true, t->exit_time = 0.5f;
    SW_CHECK(fixture_bind(&f));
    int taken_at = -1;
    for (int i = 0; i < 10 && taken_at < 0; i++) {
        step(&f, 0.125f, 1);
        if (sw_graph_layer_status(&f.g, 0).state == WAVE) taken_at = i;
    }
    SW_CHECK_EQ_INT(taken_at, 4); /* updates start at 0, .125, .25, .375, .5 */
    free(f.memory);
}

/* Sync: the destination starts at the source's phase; without it at 0. */
static void test_sync_phase(void) {
    if (!load_demo()) { SW_CHECK(!"demo character"); return; }
    for (int sync = 0; sync < 2; sync++) {
        fixture f;
        fixture_init(&f);
        add_transition(&f, WALK, WAVE, 0, 0.25f)->sync = sync ? SW_GRAPH_SYNC_PHASE : SW_GRAPH_SYNC_NONE;
        SW_CHECK(fixture_bind(&f));
        step(&f, 0.125f, 11); /* walk (1 s) at 1.375 s: phase 0.375 */
        sw_graph_set_float(&f.g, 0, 1.0f);
        step(&f, 0.125f, 1);  /* wave (2 s): + 0.0625 */
        sw_graph_status st = sw_graph_layer_status(&f.g, 0);
        SW_CHECK_NEAR(st.phase, (sync ? 0.375 : 0.0) + 0.0625, 1e-6);
        free(f.memory);
    }
}

/* Two instances fed the same calls give the same bits. */
static void test_determinism(void) {
    if (!load_demo()) { SW_CHECK(!"demo character"); return; }
    fixture a, b;
    fixture_init(&a), fixture_init(&b);
    add_transition(&a, WALK, WAVE, 0, 0.3f)->blend = SW_GRAPH_INERTIALIZE;
    add_transition(&b, WALK, WAVE, 0, 0.3f)->blend = SW_GRAPH_INERTIALIZE;
    add_transition(&a, WAVE, TWIST, 1, 0.2f);
    add_transition(&b, WAVE, TWIST, 1, 0.2f);
    SW_CHECK(fixture_bind(&a) && fixture_bind(&b));
    posed pa, pb;
    posed_init(&pa), posed_init(&pb);
    bool same = true;
    for (int i = 0; i < 120; i++) {
        float dt = 0.01f + 0.001f * (float)(i % 7);
        if (i == 30) sw_graph_set_float(&a.g, 0, 1), sw_graph_set_float(&b.g, 0, 1);
        if (i == 70) sw_graph_set_bool(&a.g, 1, true), sw_graph_set_bool(&b.g, 1, true);
        sw_graph_update(&a.g, dt, NULL, NULL, NULL);
        sw_graph_update(&b.g, dt, NULL, NULL, NULL);
        sw_graph_evaluate(&a.g, &pa.pose, NULL);
        sw_graph_evaluate(&b.g, &pb.pose, NULL);
        same = same && memcmp(pa.pose.local, pb.pose.local, g_model->node_count * sizeof(sw_transform)) == 0;
    }
    SW_CHECK(same);
    SW_CHECK_EQ_INT(sw_graph_layer_status(&a.g, 0).state, TWIST);
    free(pa.memory), free(pb.memory), free(a.memory), free(b.memory);
}

/* Inertialised: at the switch the output stays where the last one was
   (continuity), and after the duration it is the destination exactly. */
static void test_inertialized(void) {
    if (!load_demo()) { SW_CHECK(!"demo character"); return; }
    fixture f;
    fixture_init(&f);
    add_transition(&f, WALK, WAVE, 0, 0.3f)->blend = SW_GRAPH_INERTIALIZE;
    SW_CHECK(fixture_bind(&f));
    posed before, after, wave;
    posed_init(&before), posed_init(&after), posed_init(&wave);
    const float dt = 0.01f;
    for (int i = 0; i < 50; i++) {
        SW_CHECK(sw_graph_update(&f.g, dt, NULL, NULL, NULL) == SW_OK);
        SW_CHECK(sw_graph_evaluate(&f.g, &before.pose, NULL) == SW_OK);
    }
    sw_graph_set_float(&f.g, 0, 1);
    SW_CHECK(sw_graph_update(&f.g, dt, NULL, NULL, NULL) == SW_OK);
    SW_CHECK(sw_graph_evaluate(&f.g, &after.pose, NULL) == SW_OK);
    SW_CHECK(sw_pose_sample(g_model, g_wave, dt, true, &wave.pose, NULL) == SW_OK);
    double jump = world_distance(&before, &after), to_wave = world_distance(&before, &wave);
    fprintf(stderr, "  inertial: one-frame step %.3g m (wave would jump %.3g m)\n", jump, to_wave);
    SW_CHECK(jump < 0.25 * to_wave);
    for (int i = 0; i < 40; i++) {
        SW_CHECK(sw_graph_update(&f.g, dt, NULL, NULL, NULL) == SW_OK);
        SW_CHECK(sw_graph_evaluate(&f.g, &after.pose, NULL) == SW_OK);
    }
    SW_CHECK(sw_pose_sample(g_model, g_wave, 41 * dt, true, &wave.pose, NULL) == SW_OK);
    SW_CHECK(world_distance(&after, &wave) <= 1e-5);
    free(before.memory), free(after.memory), free(wave.memory), free(f.memory);
}

/* An override layer with a mask: masked joints take the layer, the others
   keep the base. */
static void test_masked_layer(void) {
    if (!load_demo()) { SW_CHECK(!"demo character"); return; }
    fixture f;
    fixture_init(&f);
    sw_graph_state wave_state = {.name = "wave", .clip = 1};
    sw_graph_machine upper = {.state_count = 1, .states = &wave_state};
    size_t n = g_model->node_count;
    float* mask = calloc(n, sizeof(float));
    size_t half = n / 2;
    for (size_t j = half; j < n; j++) mask[j] = 1;
    f.layers[1] = (sw_graph_layer){.name = "upper", .machine = &upper, .weight = 1, .mask = mask,
                                   .weight_parameter = SW_GRAPH_NONE};
    f.graph.layer_count = 2;
    SW_CHECK(fixture_bind(&f));
    posed out, walk, wave;
    posed_init(&out), posed_init(&walk), posed_init(&wave);
    step(&f, 0.25f, 1);
    SW_CHECK(sw_graph_evaluate(&f.g, &out.pose, NULL) == SW_OK);
    SW_CHECK(sw_pose_sample(g_model, g_walk, 0.25f, true, &walk.pose, NULL) == SW_OK);
    SW_CHECK(sw_pose_sample(g_model, g_wave, 0.25f, true, &wave.pose, NULL) == SW_OK);
    double worst = 0;
    for (size_t j = 0; j < n; j++) {
        const sw_transform* e = j < half ? &walk.pose.local[j] : &wave.pose.local[j];
        worst = fmax(worst, fabs(out.pose.local[j].translation.x - e->translation.x));
        worst = fmax(worst, fabs(fabs(sw_quat_dot(out.pose.local[j].rotation, e->rotation)) - 1.0));
    }
    SW_CHECK(worst <= 1e-6);
    free(mask), free(out.memory), free(walk.memory), free(wave.memory), free(f.memory);
}

/* A nested machine plays inside its state: its own transition (taken at
   t = 0, zero duration) shows wave from its start. */
static void test_nested_machine(void) {
    if (!load_demo()) { SW_CHECK(!"demo character"); return; }
    fixture f;
    fixture_init(&f);
    sw_graph_state inner_states[2] = {{.name = "walk", .clip = 0}, {.name = "wave", .clip = 1}};
    sw_graph_transition inner_t = {.from = 0, .to = 1, .condition = 0};
    sw_graph_machine inner = {.state_count = 2, .states = inner_states, .transition_count = 1,
                              .transitions = &inner_t};
    f.states[TWIST] = (sw_graph_state){.name = "sub", .kind = SW_GRAPH_STATE_MACHINE, .machine = &inner};
    f.machine.start = TWIST;
    SW_CHECK(fixture_bind(&f));
    posed out, wave;
    posed_init(&out), posed_init(&wave);
    sw_graph_set_float(&f.g, 0, 1);
    step(&f, 0.1f, 3);
    SW_CHECK(sw_graph_evaluate(&f.g, &out.pose, NULL) == SW_OK);
    SW_CHECK(sw_pose_sample(g_model, g_wave, 0.3f, true, &wave.pose, NULL) == SW_OK);
    SW_CHECK(world_distance(&out, &wave) <= 1e-5);
    SW_CHECK_EQ_INT(sw_graph_layer_status(&f.g, 0).state, TWIST);
    free(out.memory), free(wave.memory), free(f.memory);
}

/* An additive layer adds its pose's difference from the rest pose; at
   weight 1 a joint's rotation is (wave · rest⁻¹) · walk. */
static void test_additive_layer(void) {
    if (!load_demo()) { SW_CHECK(!"demo character"); return; }
    fixture f;
    fixture_init(&f);
    sw_graph_state wave_state = {.name = "wave", .clip = 1};
    sw_graph_machine upper = {.state_count = 1, .states = &wave_state};
    f.layers[1] = (sw_graph_layer){.name = "add", .machine = &upper, .mode = SW_GRAPH_LAYER_ADDITIVE,
                                   .weight = 1.0f, .weight_parameter = SW_GRAPH_NONE};
    f.graph.layer_count = 2;
    SW_CHECK(fixture_bind(&f));
    posed out, walk, wave;
    posed_init(&out), posed_init(&walk), posed_init(&wave);
    step(&f, 0.25f, 1);
    SW_CHECK(sw_graph_evaluate(&f.g, &out.pose, NULL) == SW_OK);
    SW_CHECK(sw_pose_sample(g_model, g_walk, 0.25f, true, &walk.pose, NULL) == SW_OK);
    SW_CHECK(sw_pose_sample(g_model, g_wave, 0.25f, true, &wave.pose, NULL) == SW_OK);
    double worst = 0, moved = 0;
    for (size_t j = 0; j < g_model->node_count; j++) {
        sw_quat delta = sw_quat_mul(wave.pose.local[j].rotation, sw_quat_conjugate(g_model->rest_local[j].rotation));
        sw_quat expect = sw_quat_mul(delta, walk.pose.local[j].rotation);
        worst = fmax(worst, 1.0 - fabs(sw_quat_dot(expect, out.pose.local[j].rotation)));
        moved = fmax(moved, 1.0 - fabs(sw_quat_dot(expect, walk.pose.local[j].rotation)));
        /* translations add wave − rest */
        const float* w = &walk.pose.local[j].translation.x;
        const float* v = &wave.pose.local[j].translation.x;
        const float* r = &g_model->rest_local[j].translation.x;
        const float* o = &out.pose.local[j].translation.x;
        for (int k = 0; k < 3; k++) worst = fmax(worst, fabs((double)o[k] - ((double)w[k] + v[k] - r[k])));
    }
    SW_CHECK(moved > 1e-3); /* the layer does change the pose */
    SW_CHECK(worst <= 1e-6);
    /* at weight 0 the base alone */
    f.layers[1].weight = 0;
    SW_CHECK(sw_graph_evaluate(&f.g, &out.pose, NULL) == SW_OK);
    SW_CHECK(memcmp(out.pose.local, walk.pose.local, g_model->node_count * sizeof(sw_transform)) == 0);
    free(out.memory), free(walk.memory), free(wave.memory), free(f.memory);
}

/* Updating and evaluating allocate nothing. */
static void test_no_allocation(void) {
    if (!load_demo()) { SW_CHECK(!"demo character"); return; }
    fixture f;
    fixture_init(&f);
    add_transition(&f, WALK, WAVE, 0, 0.3f)->blend = SW_GRAPH_INERTIALIZE;
    add_transition(&f, WAVE, TWIST, 2, 0.3f);
    SW_CHECK(fixture_bind(&f));
    posed out;
    posed_init(&out);
    sw_playback_event ev[16];
    sw_event_buffer events = {.events = ev, .capacity = 16};
    sw_root_motion_delta motion;
    counting_allocator c;
    counting_begin(&c);
    for (int i = 0; i < 100; i++) {
        if (i == 20) sw_graph_set_float(&f.g, 0, 1);
        if (i == 60) sw_graph_set_trigger(&f.g, 2);
        events.count = 0;
        sw_graph_update(&f.g, 0.02f, &events, &motion, NULL);
        sw_graph_evaluate(&f.g, &out.pose, NULL);
    }
    counting_end(&c);
    SW_CHECK_EQ_INT(c.allocations + c.reallocations, 0);
    SW_CHECK_EQ_INT(sw_graph_layer_status(&f.g, 0).state, TWIST);
    free(out.memory), free(f.memory);
}

/* Events: each marker of a playing clip once, tagged with its state; the
   source of a crossfade keeps reporting. */
static void test_events(void) {
    if (!load_demo()) { SW_CHECK(!"demo character"); return; }
    fixture f;
    fixture_init(&f);
    add_transition(&f, WALK, WAVE, 0, 1.0f);
    static const float times[2] = {0.25f, 0.75f};
    static const char* const names[2] = {"left", "right"};
    sw_clip_events walk_events = {2, times, names};
    const sw_clip_events* per_clip[3] = {&walk_events, NULL, NULL};
    f.graph.clip_events = per_clip;
    SW_CHECK(fixture_bind(&f));
    sw_playback_event ev[16];
    sw_event_buffer out = {.events = ev, .capacity = 16};
    for (int i = 0; i < 10; i++) SW_CHECK(sw_graph_update(&f.g, 0.1f, &out, NULL, NULL) == SW_OK);
    SW_CHECK_EQ_INT(out.count, 2);
    SW_CHECK(out.count == 2 && strcmp(ev[0].name, "left") == 0 && strcmp(ev[1].name, "right") == 0);
    SW_CHECK(out.count == 2 && sw_graph_event_state(ev[0].source) == WALK && sw_graph_event_runtime(ev[0].source) == 0);
    out.count = 0;
    sw_graph_set_float(&f.g, 0, 1);
    for (int i = 0; i < 5; i++) SW_CHECK(sw_graph_update(&f.g, 0.1f, &out, NULL, NULL) == SW_OK);
    SW_CHECK_EQ_INT(out.count, 1); /* walk, fading out, passes 0.25 */
    free(f.memory);
}

/* Root motion: the steps' deltas add up to the clip's own motion over the
   same time (the pelvis's height, Y only, where deltas add). */
static void test_root_motion(void) {
    if (!load_demo()) { SW_CHECK(!"demo character"); return; }
    fixture f;
    fixture_init(&f);
    int32_t pelvis = sw_model_find_node_by_name(g_model, "pelvis");
    SW_CHECK(pelvis >= 0 && g_model->nodes[pelvis].parent < 0);
    sw_root_motion rm = {.joint = (uint32_t)pelvis, .components = SW_ROOT_MOTION_Y,
                         .rest = g_model->rest_local[pelvis]};
    f.graph.root_motion = &rm;
    SW_CHECK(fixture_bind(&f));
    double sum = 0;
    for (int i = 0; i < 7; i++) {
        sw_root_motion_delta d;
        SW_CHECK(sw_graph_update(&f.g, 0.05f, NULL, &d, NULL) == SW_OK);
        sum += d.translation.y;
    }
    sw_root_motion_delta whole = sw_root_motion_extract(&rm, g_walk, 0.0f, 0.35f, true);
    fprintf(stderr, "  root motion over 0.35 s: %.6g m by steps, %.6g m at once\n", sum, (double)whole.translation.y);
    SW_CHECK(fabs(whole.translation.y) > 1e-4);
    SW_CHECK_NEAR(sum, whole.translation.y, 1e-6);
    /* and the evaluated pelvis stays at its start height */
    posed out, start;
    posed_init(&out), posed_init(&start);
    SW_CHECK(sw_graph_evaluate(&f.g, &out.pose, NULL) == SW_OK);
    SW_CHECK(sw_pose_sample(g_model, g_walk, 0.0f, true, &start.pose, NULL) == SW_OK);
    SW_CHECK_NEAR(out.pose.local[pelvis].translation.y, start.pose.local[pelvis].translation.y, 1e-6);
    free(out.memory), free(start.memory), free(f.memory);
}

/* Bad definitions are refused with a message, never bound. */
static void test_invalid(void) {
    if (!load_demo()) { SW_CHECK(!"demo character"); return; }
    fixture f;
    fixture_init(&f);
    add_transition(&f, WALK, 7, 0, 0.3f);
    sw_diag diag;
    SW_CHECK(sw_graph_validate(&f.graph, g_model, &diag) == SW_ERR_INDEX_OUT_OF_RANGE);
    SW_CHECK(strstr(diag.message, "transition 0") != NULL);
    SW_CHECK(sw_graph_memory_size(&f.graph, g_model) == 0);
    f.transitions[0].to = WAVE;
    f.conditions[3] = (sw_graph_condition){.op = SW_COND_AND, .left = 0, .right = 3}; /* itself */
    f.graph.condition_count = 4;
    SW_CHECK(sw_graph_validate(&f.graph, g_model, &diag) == SW_ERR_INVALID_DATA);
    SW_CHECK(strstr(diag.message, "condition 3") != NULL);
}

/* The IK node: p3 "reach" weights the right hand, whose target is
   (target.x, p4 "hand_y", target.z); both feet may ask for offsets. */
typedef struct ik_fixture {
    fixture f;
    sw_humanoid_map map;
    sw_fbik_rig rig;
    void* rig_memory;
    sw_graph_ik ik;
    posed pose;
} ik_fixture;

static bool ik_fixture_init(ik_fixture* x, sw_vec3 hand_target) {
    fixture_init(&x->f);
    x->f.params[3] = (sw_graph_parameter){"reach", SW_GRAPH_FLOAT, 0};
    x->f.params[4] = (sw_graph_parameter){"hand_y", SW_GRAPH_FLOAT, hand_target.y};
    x->f.graph.parameter_count = 5;
    sw_diag diag;
    size_t bytes = sw_fbik_memory_size(g_model->node_count);
    x->rig_memory = aligned_alloc(16, bytes);
    if (sw_humanoid_map_guess(g_model, NULL, &x->map, NULL, &diag) != SW_OK ||
        sw_fbik_rig_build(&x->rig, g_model, &x->map, x->rig_memory, bytes, &diag) != SW_OK)
        return false;
    memset(&x->ik, 0, sizeof x->ik);
    x->ik.rig = &x->rig;
    for (int e = 0; e < SW_FBIK_EFFECTOR_COUNT; e++)
        x->ik.effectors[e] = (sw_graph_ik_effector){
            .weight_parameter = SW_GRAPH_NONE, .position_parameter = {SW_GRAPH_NONE, SW_GRAPH_NONE, SW_GRAPH_NONE}};
    sw_graph_ik_effector* hand = &x->ik.effectors[SW_FBIK_RIGHT_HAND];
    hand->weight = 1, hand->weight_parameter = 3, hand->position = hand_target, hand->position_parameter[1] = 4;
    for (int e = SW_FBIK_LEFT_FOOT; e <= SW_FBIK_RIGHT_FOOT; e++)
        x->ik.effectors[e].relative = true; /* weight 0 until a test sets it */
    x->f.graph.ik = &x->ik;
    posed_init(&x->pose);
    return fixture_bind(&x->f);
}

static void ik_fixture_free(ik_fixture* x) {
    free(x->f.memory);
    free(x->rig_memory);
    free(x->pose.memory);
}

static sw_vec3 world_of(posed* p, int32_t node) {
    sw_pose_update_world(g_model, &p->pose);
    const sw_mat34* m = &p->pose.world[node];
    return sw_vec3_make(m->m[0][3], m->m[1][3], m->m[2][3]);
}

/* With the node's weight parameter at 0 the pose is the layers' exactly;
   at 1 the hand reaches the target, and the pose is what sw_fbik_solve
   makes of the layers' pose with the same effectors, bit for bit. */
static void test_ik_node_reaches(void) {
    if (!load_demo()) { SW_CHECK(!"demo character"); return; }
    ik_fixture x;
    posed plain, direct;
    posed_init(&plain), posed_init(&direct);
    /* above and in front of the walking right hand: within reach */
    SW_CHECK(ik_fixture_init(&x, sw_vec3_make(-0.30f, 1.30f, 0.25f)));
    step(&x.f, 0.4f, 1);
    SW_CHECK(sw_graph_evaluate(&x.f.g, &x.pose.pose, NULL) == SW_OK);
    x.f.graph.ik = NULL; /* the same instance without the node: the layers' pose */
    SW_CHECK(sw_graph_evaluate(&x.f.g, &plain.pose, NULL) == SW_OK);
    x.f.graph.ik = &x.ik;
    SW_CHECK(memcmp(x.pose.pose.local, plain.pose.local, g_model->node_count * sizeof(sw_transform)) == 0);
    SW_CHECK(sw_graph_ik_result(&x.f.g).iterations == 0);

    sw_graph_set_float(&x.f.g, 3, 1.0f);
    sw_graph_set_float(&x.f.g, 4, 1.25f); /* the parameter gives y */
    SW_CHECK(sw_graph_evaluate(&x.f.g, &x.pose.pose, NULL) == SW_OK);
    sw_fbik_result r = sw_graph_ik_result(&x.f.g);
    int32_t hand = x.map.node[SW_HUMANOID_RIGHT_HAND];
    sw_vec3 at = world_of(&x.pose, hand);
    double miss = sw_vec3_length(sw_vec3_sub(at, sw_vec3_make(-0.30f, 1.25f, 0.25f)));
    SW_CHECK(miss < 1e-3 && r.residual < 1e-3f && r.iterations > 0);

    memcpy(direct.pose.local, plain.pose.local, g_model->node_count * sizeof(sw_transform));
    sw_fbik_desc d = {0};
    d.effectors[SW_FBIK_RIGHT_HAND] = (sw_fbik_effector){{-0.30f, 1.25f, 0.25f}, 1.0f};
    sw_mat34 world[SW_MAX_JOINTS];
    sw_fbik_result r2 = sw_fbik_solve(&x.rig, &d, direct.pose.local, world);
    SW_CHECK(memcmp(direct.pose.local, x.pose.pose.local, g_model->node_count * sizeof(sw_transform)) == 0);
    SW_CHECK(r2.residual == r.residual && r2.iterations == r.iterations);
    /* the node allocates nothing either */
    counting_allocator c;
    counting_begin(&c);
    for (int i = 0; i < 30; i++) {
        sw_graph_update(&x.f.g, 0.02f, NULL, NULL, NULL);
        sw_graph_evaluate(&x.f.g, &x.pose.pose, NULL);
    }
    counting_end(&c);
    SW_CHECK_EQ_INT(c.allocations + c.reallocations, 0);
    SW_CHECK(sw_graph_ik_result(&x.f.g).residual < 1e-3f);
    ik_fixture_free(&x);
    free(plain.memory), free(direct.memory);
}

/* Relative feet: a zero offset keeps every joint where the walk puts it;
   5 cm up lifts the foot by 5 cm (1 mm) and breaks no joint limit. */
static void test_ik_node_relative(void) {
    if (!load_demo()) { SW_CHECK(!"demo character"); return; }
    ik_fixture x;
    posed plain;
    posed_init(&plain);
    SW_CHECK(ik_fixture_init(&x, sw_vec3_make(0, 0, 0)));
    x.ik.effectors[SW_FBIK_LEFT_FOOT].weight = 1.0f, x.ik.effectors[SW_FBIK_RIGHT_FOOT].weight = 1.0f;
    step(&x.f, 0.3f, 1);
    x.f.graph.ik = NULL;
    SW_CHECK(sw_graph_evaluate(&x.f.g, &plain.pose, NULL) == SW_OK);
    x.f.graph.ik = &x.ik;
    SW_CHECK(sw_graph_evaluate(&x.f.g, &x.pose.pose, NULL) == SW_OK);
    SW_CHECK(world_distance(&x.pose, &plain) < 1e-5);

    int32_t foot = x.map.node[SW_HUMANOID_LEFT_FOOT];
    sw_vec3 before = world_of(&plain, foot);
    x.ik.effectors[SW_FBIK_LEFT_FOOT].position = sw_vec3_make(0, 0.05f, 0);
    SW_CHECK(sw_graph_evaluate(&x.f.g, &x.pose.pose, NULL) == SW_OK);
    sw_vec3 after = world_of(&x.pose, foot);
    SW_CHECK(sw_vec3_length(sw_vec3_sub(after, sw_vec3_add(before, sw_vec3_make(0, 0.05f, 0)))) < 1e-3);
    /* the legs, the chains solved (the walk's own elbows sit 0.1° off the rig's hinge axis) */
    for (int c = SW_FBIK_CHAIN_LEFT_LEG; c <= SW_FBIK_CHAIN_RIGHT_LEG; c++) {
        const sw_fbik_chain* ch = &x.rig.chains[c];
        for (uint32_t k = 0; k + 1 < ch->count; k++) {
            sw_quat rel = sw_quat_mul(sw_quat_conjugate(ch->rest_rotation[k]), x.pose.pose.local[ch->node[k]].rotation);
            float v = sw_fbik_limit_violation(&ch->limit[k], rel);
            if (v >= 1e-3f) fprintf(stderr, "  chain %d joint %u: %g\n", c, k, v);
            SW_CHECK(v < 1e-3f);
        }
    }
    /* a bad weight is named */
    x.ik.effectors[SW_FBIK_RIGHT_HAND].weight = 2.0f;
    sw_diag diag;
    SW_CHECK(sw_graph_validate(&x.f.graph, g_model, &diag) == SW_ERR_INVALID_DATA);
    SW_CHECK(strstr(diag.message, "ik: effector rightHand") != NULL);
    ik_fixture_free(&x);
    free(plain.memory);
}

int main(void) {
    SW_RUN(test_walk_to_wave);
    SW_RUN(test_crossfade_midpoint);
    SW_RUN(test_priority);
    SW_RUN(test_interrupts);
    SW_RUN(test_trigger_consumed);
    SW_RUN(test_exit_time);
    SW_RUN(test_sync_phase);
    SW_RUN(test_determinism);
    SW_RUN(test_inertialized);
    SW_RUN(test_masked_layer);
    SW_RUN(test_nested_machine);
    SW_RUN(test_additive_layer);
    SW_RUN(test_no_allocation);
    SW_RUN(test_events);
    SW_RUN(test_root_motion);
    SW_RUN(test_invalid);
    SW_RUN(test_ik_node_reaches);
    SW_RUN(test_ik_node_relative);
    sw_model_free(g_model);
    return sw_test_finish();
}
