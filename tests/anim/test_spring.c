/* Spring bones (sinew/spring.h).

   The simulation runs on a small chain model (base → a → b → c → d, 0.1 m
   bones, rest rotations on a and b) loaded from glTF text: at rest with no
   gravity nothing moves; under gravity the chain hangs below its root
   within its length; colliders (sphere, capsule) are never entered by more
   than 1e-5; 30, 60 and 120 updates per second give the same bits at the
   same times; a reference written here from the VRM 1.0 formulas, in
   double, with quaternions and no library maths, agrees within 1e-5 over
   100 steps with a moving root; reset after a teleport; the step cap.
   Validation: every bad set is refused with its code and a message.

   The readers run on the files of tests/data/vrm/ (written by
   make_vrm_files.py: VRM 1.0 and VRM 0.x with a 3-joint hair chain, a
   sphere collider on the head) and on malformed blocks in memory: errors
   name the JSON path, warnings skip or clamp; every numeric value of a
   block replaced in turn by other values never crashes, and every set read
   validates and simulates to finite values. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "sinew/gltf.h"
#include "sinew/pose.h"
#include "sinew/spring.h"

/* ---- files and models -------------------------------------------------------------------- */

static void data_path(char* out, size_t size, const char* name) {
#ifdef SW_TEST_DATA_DIR
    snprintf(out, size, "%s/vrm/%s", SW_TEST_DATA_DIR, name);
#else
    /* The build compiles this file by its absolute path: the data folder is
       next to tests/anim/. */
    const char* file = __FILE__;
    const char* cut = strstr(file, "/anim/test_spring.c");
    if (cut)
        snprintf(out, size, "%.*s/data/vrm/%s", (int)(cut - file), file, name);
    else
        snprintf(out, size, "tests/data/vrm/%s", name);
#endif
}

/* The chain model. Nodes, file order = model order (parents first):
   0 base (0, 1, 0); 1 a: 20° about z; 2 b (0.1, 0, 0), −10° about y;
   3 c (0.1, 0, 0); 4 d (0.1, 0, 0); 5 m: a matrix node under base;
   6 mc (0.1, 0, 0) under m; 7 z at mc's place (a zero-length bone).
   `extensions` is spliced into the root object (may be ""). */
#define SIN10 0.17364817766693033
#define COS10 0.98480775301220802
#define SIN5 0.08715574274765817
#define COS5 0.99619469809174553
static char* chain_gltf(const char* extensions) {
    static const char format[] =
        "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],\"nodes\":["
        "{\"name\":\"base\",\"translation\":[0,1,0],\"children\":[1,5]},"
        "{\"name\":\"a\",\"rotation\":[0,0,%.17g,%.17g],\"children\":[2]},"
        "{\"name\":\"b\",\"translation\":[0.1,0,0],\"rotation\":[0,%.17g,0,%.17g],\"children\":[3]},"
        "{\"name\":\"c\",\"translation\":[0.1,0,0],\"children\":[4]},"
        "{\"name\":\"d\",\"translation\":[0.1,0,0]},"
        "{\"name\":\"m\",\"matrix\":[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0.1,1],\"children\":[6]},"
        "{\"name\":\"mc\",\"translation\":[0.1,0,0],\"children\":[7]},"
        "{\"name\":\"z\"}]%s%s}";
    size_t size = sizeof format + strlen(extensions) + 200;
    char* text = malloc(size);
    if (text)
        snprintf(text, size, format, SIN10, COS10, -SIN5, COS5, extensions[0] ? "," : "", extensions);
    return text;
}

enum { N_BASE = 0, N_A, N_B, N_C, N_D, N_M, N_MC, N_Z };

static sw_model* load_chain(const char* extensions, sw_diag* diag) {
    char* text = chain_gltf(extensions);
    sw_model* model = NULL;
    if (text && sw_gltf_load_memory(text, strlen(text), "chain.gltf", NULL, NULL, &model, diag) != SW_OK)
        fprintf(stderr, "  load: %s\n", diag->message);
    free(text);
    return model;
}

/* ---- hand-made sets ------------------------------------------------------------------------ */

typedef struct test_set {
    sw_spring_joint joints[8];
    sw_spring_chain chains[4];
    uint32_t chain_groups[4];
    sw_spring_collider colliders[4];
    sw_spring_collider_group groups[2];
    uint32_t group_colliders[4];
    sw_spring_set set;
} test_set;

static sw_spring_joint joint(uint32_t node, float stiffness, float drag, float gravity_power) {
    sw_spring_joint j = {node, stiffness, drag, gravity_power, {0.0f, -1.0f, 0.0f}, 0.01f};
    return j;
}

/* One chain a, b, c, d (three bones), no colliders. */
static void chain_set(test_set* t, float stiffness, float drag, float gravity_power) {
    memset(t, 0, sizeof *t);
    for (uint32_t k = 0; k < 4; k++) t->joints[k] = joint(N_A + k, stiffness, drag, gravity_power);
    t->chains[0].joint_count = 4;
    t->set.joints = t->joints;
    t->set.joint_count = 4;
    t->set.chains = t->chains;
    t->set.chain_count = 1;
    t->set.chain_groups = t->chain_groups;
    t->set.colliders = t->colliders;
    t->set.groups = t->groups;
    t->set.group_colliders = t->group_colliders;
}

/* Adds one collider on `node` in its own group, collided with by chain 0. */
static void add_collider(test_set* t, uint32_t node, sw_spring_shape shape, sw_vec3 offset, sw_vec3 tail,
                         float radius) {
    size_t c = t->set.collider_count++;
    t->colliders[c].node = node;
    t->colliders[c].shape = shape;
    t->colliders[c].offset = offset;
    t->colliders[c].tail = tail;
    t->colliders[c].radius = radius;
    size_t g = t->set.group_count++;
    t->groups[g].first_collider = t->set.group_collider_count;
    t->groups[g].collider_count = 1;
    t->group_colliders[t->set.group_collider_count++] = (uint32_t)c;
    t->chain_groups[t->set.chain_group_count++] = (uint32_t)g;
    t->chains[0].first_group = 0;
    t->chains[0].group_count = t->set.chain_group_count;
}

/* ---- a simulation: a model, a pose and a spring state ------------------------------------------ */

typedef struct sim {
    const sw_model* model;
    const sw_spring_set* set;
    sw_pose pose;
    void* pose_memory;
    sw_spring_state state;
    void* state_memory;
} sim;

static bool sim_open(sim* s, const sw_model* model, const sw_spring_set* set, const sw_spring_options* options) {
    memset(s, 0, sizeof *s);
    s->model = model;
    s->set = set;
    sw_diag diag = {0};
    sw_pose_sizes ps = sw_pose_sizes_of(model);
    s->pose_memory = aligned_alloc(16, sw_pose_memory_size(&ps));
    sw_spring_sizes sizes;
    if (sw_spring_sizes_of(model, set, &sizes, &diag) != SW_OK) {
        fprintf(stderr, "  sizes: %s\n", diag.message);
        return false;
    }
    s->state_memory = aligned_alloc(16, sw_spring_memory_size(&sizes));
    if (!s->pose_memory || !s->state_memory) return false;
    sw_pose_bind(&s->pose, &ps, s->pose_memory);
    if (sw_spring_init(&s->state, &sizes, s->state_memory, model, set, options, &diag) != SW_OK) {
        fprintf(stderr, "  init: %s\n", diag.message);
        return false;
    }
    return true;
}

static void sim_close(sim* s) {
    free(s->pose_memory);
    free(s->state_memory);
}

/* One frame: the rest pose with the base at `base`, world, the springs, world. */
static uint32_t sim_frame(sim* s, sw_vec3 base, float dt) {
    sw_pose_rest(s->model, &s->pose);
    s->pose.local[N_BASE].translation = base;
    sw_pose_update_world(s->model, &s->pose);
    uint32_t steps = sw_spring_update(&s->state, s->model, s->set, &s->pose, dt);
    sw_pose_update_world(s->model, &s->pose);
    return steps;
}

static sw_vec3 world_pos(const sim* s, int32_t node) {
    const sw_mat34* m = &s->pose.world[node];
    return sw_vec3_make(m->m[0][3], m->m[1][3], m->m[2][3]);
}

static double dist3(sw_vec3 a, sw_vec3 b) {
    double x = (double)a.x - b.x, y = (double)a.y - b.y, z = (double)a.z - b.z;
    return sqrt(x * x + y * y + z * z);
}

static const sw_vec3 BASE = {0.0f, 1.0f, 0.0f};

/* ---- the simulation --------------------------------------------------------------------------- */

/* No gravity, any stiffness and drag: every tail, rotation and world
   position stays at rest. */
static void test_rest_without_gravity(void) {
    sw_diag diag = {0};
    sw_model* model = load_chain("", &diag);
    SW_CHECK(model != NULL);
    if (!model) return;
    test_set t;
    chain_set(&t, 1.0f, 0.4f, 0.0f);
    sim s;
    if (sim_open(&s, model, &t.set, NULL)) {
        SW_CHECK_EQ_INT(s.state.bone_count, 3);
        double worst = 0.0, worst_rot = 0.0;
        for (int f = 0; f < 300; f++) {
            sim_frame(&s, BASE, 1.0f / 60.0f);
            for (int n = N_A; n <= N_D; n++) {
                const sw_quat q = s.pose.local[n].rotation, r = model->rest_local[n].rotation;
                double d = fabs((double)q.x * r.x + (double)q.y * r.y + (double)q.z * r.z + (double)q.w * r.w);
                if (1.0 - d > worst_rot) worst_rot = 1.0 - d;
            }
            for (size_t b = 0; b < s.state.bone_count; b++) {
                const sw_spring_bone* bone = &s.state.bones[b];
                sw_vec3 rest = bone->tail >= 0 ? world_pos(&s, bone->tail) : s.state.current_tail[b];
                double d = dist3(s.state.current_tail[b], rest);
                if (d > worst) worst = d;
            }
        }
        /* world positions against the rest pose's */
        sim rest;
        if (sim_open(&rest, model, &t.set, NULL)) {
            sw_pose_rest(model, &rest.pose);
            sw_pose_update_world(model, &rest.pose);
            for (int n = N_A; n <= N_D; n++) {
                double d = dist3(world_pos(&s, n), world_pos(&rest, n));
                if (d > worst) worst = d;
            }
        }
        sim_close(&rest);
        SW_CHECK_NEAR(worst, 0.0, 1e-6);
        SW_CHECK_NEAR(worst_rot, 0.0, 1e-6); /* 1 − |q·r|: about half the angle squared */
    }
    sim_close(&s);
    sw_model_free(model);
}

/* No stiffness, gravity: after 10 s the chain hangs below its root, every
   joint lower than the one before, the tip nearly its whole length below,
   and no joint farther from the root than the chain's length. */
static void test_gravity_hangs(void) {
    sw_diag diag = {0};
    sw_model* model = load_chain("", &diag);
    if (!model) {
        SW_CHECK(model != NULL);
        return;
    }
    test_set t;
    chain_set(&t, 0.0f, 0.4f, 1.0f);
    sim s;
    if (sim_open(&s, model, &t.set, NULL)) {
        double worst_length = 0.0;
        for (int f = 0; f < 600; f++) {
            sim_frame(&s, BASE, 1.0f / 60.0f);
            sw_vec3 root = world_pos(&s, N_A);
            for (int n = N_B; n <= N_D; n++) {
                double over = dist3(world_pos(&s, n), root) - 0.1 * (n - N_A);
                if (over > worst_length) worst_length = over;
            }
        }
        SW_CHECK(worst_length <= 1e-5);
        sw_vec3 root = world_pos(&s, N_A);
        for (int n = N_B; n <= N_D; n++) SW_CHECK(world_pos(&s, n).y < world_pos(&s, n - 1).y);
        SW_CHECK(root.y - world_pos(&s, N_D).y > 0.29);
        SW_CHECK(dist3(world_pos(&s, N_D), root) <= 0.3 + 1e-5);
        SW_CHECK_EQ_INT(s.state.step_count, 600);
    }
    sim_close(&s);
    sw_model_free(model);
}

/* A collider in the way: no tail (simulated, or the node placed by the
   rotation) is ever inside it by more than 1e-5 while the chain falls onto
   it, slides and settles; and the collider was touched. */
static void check_collider(sw_spring_shape shape, sw_vec3 offset, sw_vec3 tail, float radius, float base_dx) {
    sw_diag diag = {0};
    sw_model* model = load_chain("", &diag);
    if (!model) {
        SW_CHECK(model != NULL);
        return;
    }
    test_set t;
    chain_set(&t, 0.0f, 0.2f, 3.0f);
    add_collider(&t, N_BASE, shape, offset, tail, radius);
    const float hit = t.joints[0].hit_radius;
    sim s;
    /* sinew's stronger resolution (VRM's push alone may leave a tail inside) */
    const sw_spring_options resolve = {.collision = SW_SPRING_COLLISION_RESOLVE};
    if (sim_open(&s, model, &t.set, &resolve)) {
        double worst = -1.0, closest = 1e9;
        for (int f = 0; f < 400; f++) {
            sw_vec3 base = BASE;
            base.x += base_dx * sinf((float)f * 0.05f); /* the base sways: the chain slides over the collider */
            sim_frame(&s, base, 1.0f / 60.0f);
            const sw_mat34* w = &s.pose.world[N_BASE];
            sw_vec3 a = sw_mat34_apply_point(w, offset), b = sw_mat34_apply_point(w, shape == SW_SPRING_CAPSULE ? tail : offset);
            for (size_t k = 0; k < s.state.bone_count; k++) {
                /* the simulated tail (the drawn tail node lies on the same
                   ray at the rest length, which three-vrm's step length,
                   measured to where the node was a step before, differs
                   from while the chain above swings) */
                sw_vec3 points[1] = {s.state.current_tail[k]};
                for (int p = 0; p < 1; p++) {
                    /* distance to the segment [a, b], in double */
                    double ab[3] = {(double)b.x - a.x, (double)b.y - a.y, (double)b.z - a.z};
                    double ap[3] = {(double)points[p].x - a.x, (double)points[p].y - a.y, (double)points[p].z - a.z};
                    double l2 = ab[0] * ab[0] + ab[1] * ab[1] + ab[2] * ab[2];
                    double u = l2 > 0 ? (ap[0] * ab[0] + ap[1] * ab[1] + ap[2] * ab[2]) / l2 : 0.0;
                    u = u < 0 ? 0 : (u > 1 ? 1 : u);
                    double dx = ap[0] - u * ab[0], dy = ap[1] - u * ab[1], dz = ap[2] - u * ab[2];
                    double d = sqrt(dx * dx + dy * dy + dz * dz);
                    double inside = (double)radius + hit - d;
                    if (inside > worst) worst = inside;
                    if (d - radius - hit < closest) closest = d - radius - hit;
                }
            }
        }
        if (worst > 1e-5) fprintf(stderr, "  penetration %.3g\n", worst);
        SW_CHECK(worst <= 1e-5);
        SW_CHECK(closest < 1e-4); /* it did rest on the collider */
    }
    sim_close(&s);
    sw_model_free(model);
}

static void test_colliders_not_entered(void) {
    /* A ball under the middle of the chain, and one the tip swings into. */
    check_collider(SW_SPRING_SPHERE, sw_vec3_make(0.12f, -0.1f, 0.0f), sw_vec3_make(0, 0, 0), 0.05f, 0.0f);
    check_collider(SW_SPRING_SPHERE, sw_vec3_make(0.16f, -0.12f, 0.01f), sw_vec3_make(0, 0, 0), 0.06f, 0.08f);
    /* A capsule across the chain's fall, along z. */
    check_collider(SW_SPRING_CAPSULE, sw_vec3_make(0.15f, -0.1f, -0.1f), sw_vec3_make(0.15f, -0.1f, 0.1f), 0.04f,
                   0.05f);
}

/* The same input at 30, 60, 120 and 180 updates per second: the same bits
   at the same times. The base jumps once (no reset), so the chain swings.
   180 is there because 1/180 s in float, added three times, falls short of
   1/60 s in float: the step count's rounding tolerance must absorb it. */
static void test_frame_rate_independent(void) {
    sw_diag diag = {0};
    sw_model* model = load_chain("", &diag);
    if (!model) {
        SW_CHECK(model != NULL);
        return;
    }
    test_set t;
    chain_set(&t, 0.5f, 0.1f, 0.6f);
    add_collider(&t, N_BASE, SW_SPRING_SPHERE, sw_vec3_make(0.2f, -0.12f, 0.0f), sw_vec3_make(0, 0, 0), 0.05f);
    sim s30, s60, s120, s180;
    bool ok = sim_open(&s30, model, &t.set, NULL) && sim_open(&s60, model, &t.set, NULL) &&
              sim_open(&s120, model, &t.set, NULL) && sim_open(&s180, model, &t.set, NULL);
    SW_CHECK(ok);
    if (ok) {
        sim_frame(&s30, BASE, 0.0f);
        sim_frame(&s60, BASE, 0.0f);
        sim_frame(&s120, BASE, 0.0f);
        sim_frame(&s180, BASE, 0.0f);
        const sw_vec3 moved = {0.05f, 1.02f, -0.03f};
        const sw_vec3 tip0 = world_pos(&s30, N_D), root0 = world_pos(&s30, N_A);
        int differ60 = 0, differ120 = 0, differ180 = 0;
        uint32_t steps30 = 0, steps60 = 0, steps120 = 0, steps180 = 0;
        for (int f = 1; f <= 60; f++) {
            steps30 += sim_frame(&s30, moved, 1.0f / 30.0f);
            for (int k = 0; k < 2; k++) steps60 += sim_frame(&s60, moved, 1.0f / 60.0f);
            for (int k = 0; k < 4; k++) steps120 += sim_frame(&s120, moved, 1.0f / 120.0f);
            for (int k = 0; k < 6; k++) steps180 += sim_frame(&s180, moved, 1.0f / 180.0f);
            /* matched time f/30 s */
            if (memcmp(s30.pose.world, s60.pose.world, model->node_count * sizeof(sw_mat34)) != 0) differ60++;
            if (memcmp(s30.pose.world, s120.pose.world, model->node_count * sizeof(sw_mat34)) != 0) differ120++;
            if (memcmp(s30.pose.world, s180.pose.world, model->node_count * sizeof(sw_mat34)) != 0) differ180++;
            if (memcmp(s30.pose.local, s60.pose.local, model->node_count * sizeof(sw_transform)) != 0) differ60++;
        }
        SW_CHECK_EQ_INT(differ60, 0);
        SW_CHECK_EQ_INT(differ120, 0);
        SW_CHECK_EQ_INT(differ180, 0);
        SW_CHECK_EQ_INT(steps30, 120);
        SW_CHECK_EQ_INT(steps60, 120);
        SW_CHECK_EQ_INT(steps120, 120);
        SW_CHECK_EQ_INT(steps180, 120);
        /* and it did swing: the tip left its place relative to a */
        sw_vec3 tip = world_pos(&s30, N_D), root = world_pos(&s30, N_A);
        SW_CHECK(dist3(sw_vec3_sub(tip, root), sw_vec3_sub(tip0, root0)) > 0.01);
    }
    sim_close(&s30);
    sim_close(&s60);
    sim_close(&s120);
    sim_close(&s180);
    sw_model_free(model);
}

/* ---- an independent reference, in double ---------------------------------------------------------

   The VRMC_springBone 1.0 reference algorithm as its specification writes
   it, with quaternions: per bone, head H = parent position + parent
   rotation · translation; W = parent rotation · rest rotation; the rest
   direction W · boneAxis; next = cur + (cur − prev)(1 − drag) +
   h·stiffness·dir + h·gravityPower·gravityDir; length constraint (the
   length three-vrm uses: from H to where the tail node was at the end of
   the previous step); the head's new world rotation W · fromTo(axis,
   W⁻¹ (next − H)). */
typedef struct dq { double x, y, z, w; } dq;
typedef struct dv { double x, y, z; } dv;

static dq dq_mul(dq a, dq b) {
    dq r = {a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
            a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
    return r;
}
static dq dq_conj(dq q) { dq r = {-q.x, -q.y, -q.z, q.w}; return r; }
static dv dv_make(double x, double y, double z) { dv r = {x, y, z}; return r; }
static dv dv_add(dv a, dv b) { return dv_make(a.x + b.x, a.y + b.y, a.z + b.z); }
static dv dv_sub(dv a, dv b) { return dv_make(a.x - b.x, a.y - b.y, a.z - b.z); }
static dv dv_scale(dv a, double s) { return dv_make(a.x * s, a.y * s, a.z * s); }
static double dv_dot(dv a, dv b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static double dv_len(dv a) { return sqrt(dv_dot(a, a)); }
static dv dv_rotate(dq q, dv v) {
    dq p = {v.x, v.y, v.z, 0.0};
    dq r = dq_mul(dq_mul(q, p), dq_conj(q));
    return dv_make(r.x, r.y, r.z);
}
static dq dq_from_to(dv a, dv b) {
    a = dv_scale(a, 1.0 / dv_len(a));
    b = dv_scale(b, 1.0 / dv_len(b));
    dq q = {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x, 1.0 + dv_dot(a, b)};
    double l = sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    dq r = {q.x / l, q.y / l, q.z / l, q.w / l};
    return r;
}

static void test_against_reference(void) {
    sw_diag diag = {0};
    sw_model* model = load_chain("", &diag);
    if (!model) {
        SW_CHECK(model != NULL);
        return;
    }
    const double h = 1.0 / 60.0, stiffness = 1.5, drag = 0.3, power = 0.8;
    test_set t;
    chain_set(&t, (float)stiffness, (float)drag, (float)power);
    t.joints[1].gravity_dir = sw_vec3_make(0.3f, -1.0f, 0.2f); /* b's own direction, not normalised */

    /* The chain as the glTF text above writes it. */
    const dq rest[3] = {{0, 0, SIN10, COS10}, {0, -SIN5, 0, COS5}, {0, 0, 0, 1}};
    const dv offset[3] = {{0, 0, 0}, {0.1, 0, 0}, {0.1, 0, 0}}; /* a, b, c relative to their parents */
    const dv axis[3] = {{0.1, 0, 0}, {0.1, 0, 0}, {0.1, 0, 0}}; /* b, c, d in a, b, c */
    const dv gdir[3] = {{0, -1, 0}, {0.3, -1, 0.2}, {0, -1, 0}};

    sim s;
    if (!sim_open(&s, model, &t.set, NULL)) {
        SW_CHECK(false);
        sw_model_free(model);
        return;
    }
    dv cur[3], prev[3], node[3];
    double worst = 0.0, worst_node = 0.0, fastest = 0.0;
    for (int f = 0; f <= 100; f++) {
        const double time = f * h;
        const dv base = {0.15 * sin(2.0 * SW_PI * 1.3 * time), 1.0 + 0.05 * sin(2.0 * SW_PI * 2.1 * time),
                         0.1 * cos(2.0 * SW_PI * 0.9 * time) - 0.1};
        const sw_vec3 base_f = {(float)base.x, (float)base.y, (float)base.z};
        sim_frame(&s, base_f, f == 0 ? 0.0f : (float)h);
        /* the reference step (or, at f = 0, its start at rest) */
        dq parent_rot = {0, 0, 0, 1};
        dv parent_pos = dv_make((double)base_f.x, (double)base_f.y, (double)base_f.z);
        for (int k = 0; k < 3; k++) {
            dv head = dv_add(parent_pos, dv_rotate(parent_rot, offset[k]));
            dq w = dq_mul(parent_rot, rest[k]);
            dv dir = dv_scale(dv_rotate(w, axis[k]), 1.0 / dv_len(axis[k]));
            if (f == 0) {
                cur[k] = prev[k] = node[k] = dv_add(head, dv_rotate(w, axis[k]));
            } else {
                const double length = dv_len(dv_sub(node[k], head));
                dv next = dv_add(cur[k], dv_scale(dv_sub(cur[k], prev[k]), 1.0 - drag));
                next = dv_add(next, dv_scale(dir, h * stiffness));
                next = dv_add(next, dv_scale(gdir[k], h * power));
                dv d = dv_sub(next, head);
                next = dv_add(head, dv_scale(d, length / dv_len(d)));
                prev[k] = cur[k];
                cur[k] = next;
            }
            dq q = dq_from_to(axis[k], dv_rotate(dq_conj(w), dv_sub(cur[k], head)));
            parent_rot = dq_mul(w, q);
            parent_pos = head;
            node[k] = dv_add(head, dv_rotate(parent_rot, axis[k]));
        }
        for (int k = 0; k < 3; k++) {
            fastest = fmax(fastest, dv_len(dv_sub(cur[k], prev[k])));
            sw_vec3 c = s.state.current_tail[k];
            double e = dv_len(dv_sub(dv_make(c.x, c.y, c.z), cur[k]));
            if (e > worst) worst = e;
            sw_vec3 n = world_pos(&s, N_B + k); /* the tail node where the rotations put it */
            e = dv_len(dv_sub(dv_make(n.x, n.y, n.z), node[k]));
            if (e > worst_node) worst_node = e;
        }
    }
    fprintf(stderr, "  reference: tails within %.3g, tail nodes within %.3g\n", worst, worst_node);
    SW_CHECK(worst <= 1e-5);
    SW_CHECK(worst_node <= 1e-5);
    /* and the chain did swing: tails moved up to several mm per step */
    SW_CHECK(fastest > 2e-3);
    sim_close(&s);
    sw_model_free(model);
}

/* A teleport: without a reset the chain whips; after sw_spring_reset it
   starts at rest at the new place. */
static void test_reset_on_teleport(void) {
    sw_diag diag = {0};
    sw_model* model = load_chain("", &diag);
    if (!model) {
        SW_CHECK(model != NULL);
        return;
    }
    test_set t;
    chain_set(&t, 1.0f, 0.4f, 0.0f);
    sim a, b;
    if (sim_open(&a, model, &t.set, NULL) && sim_open(&b, model, &t.set, NULL)) {
        for (int f = 0; f < 10; f++) {
            sim_frame(&a, BASE, 1.0f / 60.0f);
            sim_frame(&b, BASE, 1.0f / 60.0f);
        }
        const sw_vec3 far = {10.0f, 1.0f, -5.0f};
        /* a: reset first */
        sw_pose_rest(model, &a.pose);
        a.pose.local[N_BASE].translation = far;
        sw_pose_update_world(model, &a.pose);
        sw_spring_reset(&a.state, &a.pose);
        SW_CHECK(a.state.carried_s == 0.0 && a.state.step_count == 0);
        sw_spring_update(&a.state, model, &t.set, &a.pose, 1.0f / 60.0f);
        sw_pose_update_world(model, &a.pose);
        sim_frame(&b, far, 1.0f / 60.0f);
        double rest_error = 0.0;
        sim rest;
        if (sim_open(&rest, model, &t.set, NULL)) {
            sw_pose_rest(model, &rest.pose);
            rest.pose.local[N_BASE].translation = far;
            sw_pose_update_world(model, &rest.pose);
            for (int n = N_A; n <= N_D; n++) {
                double e = dist3(world_pos(&a, n), world_pos(&rest, n));
                if (e > rest_error) rest_error = e;
            }
            SW_CHECK(dist3(world_pos(&b, N_D), world_pos(&rest, N_D)) > 0.05); /* b whipped */
        }
        sim_close(&rest);
        SW_CHECK(rest_error <= 1e-5);
    }
    sim_close(&a);
    sim_close(&b);
    sw_model_free(model);
}

/* Whole steps only, the remainder carried, at most max_substeps. */
static void test_steps_and_cap(void) {
    sw_diag diag = {0};
    sw_model* model = load_chain("", &diag);
    if (!model) {
        SW_CHECK(model != NULL);
        return;
    }
    test_set t;
    chain_set(&t, 1.0f, 0.4f, 1.0f);
    sim s;
    sw_spring_options o = {.step_s = 0.01f, .max_substeps = 4};
    if (sim_open(&s, model, &t.set, &o)) {
        SW_CHECK_EQ_INT(sim_frame(&s, BASE, 0.004f), 0);
        SW_CHECK_EQ_INT(sim_frame(&s, BASE, 0.004f), 0);
        SW_CHECK_EQ_INT(sim_frame(&s, BASE, 0.004f), 1); /* 0.012: one step, 0.002 carried */
        SW_CHECK_NEAR(s.state.carried_s, 0.002, 1e-7);
        SW_CHECK_EQ_INT(sim_frame(&s, BASE, 0.028f), 3);  /* 0.030 */
        SW_CHECK_EQ_INT(sim_frame(&s, BASE, 1.0f), 4);    /* capped, the rest dropped */
        SW_CHECK(s.state.carried_s == 0.0);
        SW_CHECK_EQ_INT(sim_frame(&s, BASE, -1.0f), 0);   /* negative counts as 0 */
        SW_CHECK_EQ_INT(sim_frame(&s, BASE, NAN), 0);
        SW_CHECK_EQ_INT(s.state.step_count, 8);
        /* rotations are written even without a step: the pose was reset to rest by sim_frame */
        SW_CHECK(fabsf(s.pose.local[N_C].rotation.z) > 1e-4f);
    }
    sim_close(&s);
    sw_model_free(model);
}

/* ---- validation ----------------------------------------------------------------------------------- */

static void expect_refused(const sw_model* model, const test_set* t, sw_result code, const char* words) {
    sw_diag diag = {0};
    sw_spring_sizes sizes;
    sw_result r = sw_spring_sizes_of(model, &t->set, &sizes, &diag);
    SW_CHECK_EQ_INT(r, code);
    SW_CHECK_EQ_INT(diag.result, r);
    SW_CHECK(strstr(diag.message, words) != NULL);
    if (r != code || !strstr(diag.message, words)) fprintf(stderr, "  got: %s\n", diag.message);
}

static void test_validation(void) {
    sw_diag diag = {0};
    sw_model* model = load_chain("", &diag);
    if (!model) {
        SW_CHECK(model != NULL);
        return;
    }
    test_set t;
    sw_spring_sizes sizes;

    chain_set(&t, 1.0f, 0.4f, 0.0f);
    SW_CHECK_EQ_INT(sw_spring_sizes_of(model, &t.set, &sizes, &diag), SW_OK);
    SW_CHECK_EQ_INT(sizes.bone_count, 3);
    SW_CHECK_EQ_INT(sizes.node_count, 3); /* each bone's tail: b, c, d */

    chain_set(&t, 1.0f, 0.4f, 0.0f);
    t.joints[2].node = 99;
    expect_refused(model, &t, SW_ERR_INDEX_OUT_OF_RANGE, "node 99 out of range");
    chain_set(&t, 1.0f, 0.4f, 0.0f);
    t.joints[1].node = N_C, t.joints[2].node = N_B;
    expect_refused(model, &t, SW_ERR_INVALID_DATA, "is not a descendant");
    chain_set(&t, 1.0f, 1.5f, 0.0f);
    expect_refused(model, &t, SW_ERR_INVALID_DATA, "drag force in 0..1");
    chain_set(&t, 1.0f, 0.4f, 0.0f);
    t.joints[0].stiffness = NAN;
    expect_refused(model, &t, SW_ERR_INVALID_DATA, "not finite");
    chain_set(&t, 1.0f, 0.4f, 0.0f);
    t.chains[0].joint_count = 5;
    expect_refused(model, &t, SW_ERR_INDEX_OUT_OF_RANGE, "past the joints");
    /* a bad chain after a good one: found before the good one's bones are
       compared with it */
    chain_set(&t, 1.0f, 0.4f, 0.0f);
    t.chains[1].first_joint = 2, t.chains[1].joint_count = 0, t.set.chain_count = 2;
    expect_refused(model, &t, SW_ERR_INDEX_OUT_OF_RANGE, "spring chain 1");
    t.chains[1].first_joint = SIZE_MAX, t.chains[1].joint_count = 2;
    expect_refused(model, &t, SW_ERR_INDEX_OUT_OF_RANGE, "spring chain 1");
    chain_set(&t, 1.0f, 0.4f, 0.0f);
    add_collider(&t, N_BASE, SW_SPRING_SPHERE, sw_vec3_make(0, 0, 0), sw_vec3_make(0, 0, 0), 0.1f);
    t.chain_groups[0] = 3;
    expect_refused(model, &t, SW_ERR_INDEX_OUT_OF_RANGE, "collider group 3 out of range");
    chain_set(&t, 1.0f, 0.4f, 0.0f);
    add_collider(&t, N_BASE, SW_SPRING_SPHERE, sw_vec3_make(0, 0, 0), sw_vec3_make(0, 0, 0), -0.1f);
    expect_refused(model, &t, SW_ERR_INVALID_DATA, "radius >= 0");
    chain_set(&t, 1.0f, 0.4f, 0.0f);
    add_collider(&t, 42, SW_SPRING_CAPSULE, sw_vec3_make(0, 0, 0), sw_vec3_make(0, 0, 0), 0.1f);
    expect_refused(model, &t, SW_ERR_INDEX_OUT_OF_RANGE, "node 42 out of range");
    /* two chains sharing b */
    chain_set(&t, 1.0f, 0.4f, 0.0f);
    t.joints[4] = joint(N_B, 1, 0.4f, 0), t.joints[5] = joint(N_D, 1, 0.4f, 0);
    t.chains[1].first_joint = 4, t.chains[1].joint_count = 2, t.set.chain_count = 2, t.set.joint_count = 6;
    expect_refused(model, &t, SW_ERR_INVALID_DATA, "heads two bones");
    /* a chain a → c (b between) and one heading b */
    chain_set(&t, 1.0f, 0.4f, 0.0f);
    t.joints[1].node = N_C, t.chains[0].joint_count = 2;
    t.joints[4] = joint(N_B, 1, 0.4f, 0), t.joints[5] = joint(N_D, 1, 0.4f, 0);
    t.chains[1].first_joint = 4, t.chains[1].joint_count = 2, t.set.chain_count = 2, t.set.joint_count = 6;
    expect_refused(model, &t, SW_ERR_INVALID_DATA, "lies between the joints");
    /* a zero-length bone: z sits at mc's place */
    chain_set(&t, 1.0f, 0.4f, 0.0f);
    t.joints[0].node = N_MC, t.joints[1].node = N_Z, t.chains[0].joint_count = 2;
    expect_refused(model, &t, SW_ERR_INVALID_DATA, "zero length");
    /* a matrix node cannot swing */
    chain_set(&t, 1.0f, 0.4f, 0.0f);
    t.joints[0].node = N_M, t.joints[1].node = N_MC, t.chains[0].joint_count = 2;
    expect_refused(model, &t, SW_ERR_UNSUPPORTED, "matrix transform");
    /* virtual tails point along the joint's rest translation (three-vrm): a
       root has one; z has none (at mc's place) */
    chain_set(&t, 1.0f, 0.4f, 0.0f);
    t.joints[0].node = N_BASE, t.chains[0].joint_count = 1, t.chains[0].tail_length = 0.07f;
    SW_CHECK_EQ_INT(sw_spring_sizes_of(model, &t.set, &sizes, &diag), SW_OK);
    chain_set(&t, 1.0f, 0.4f, 0.0f);
    t.joints[0].node = N_Z, t.chains[0].joint_count = 1, t.chains[0].tail_length = 0.07f;
    expect_refused(model, &t, SW_ERR_INVALID_DATA, "no direction");
    /* init: sizes of another set, and a bad step */
    chain_set(&t, 1.0f, 0.4f, 0.0f);
    SW_CHECK_EQ_INT(sw_spring_sizes_of(model, &t.set, &sizes, &diag), SW_OK);
    sw_spring_sizes wrong = sizes;
    wrong.bone_count = 2;
    void* memory = aligned_alloc(16, sw_spring_memory_size(&sizes) + 256);
    sw_spring_state state;
    SW_CHECK_EQ_INT(sw_spring_init(&state, &wrong, memory, model, &t.set, NULL, &diag), SW_ERR_BUFFER_TOO_SMALL);
    sw_spring_options bad = {.step_s = -0.01f};
    SW_CHECK_EQ_INT(sw_spring_init(&state, &sizes, memory, model, &t.set, &bad, &diag), SW_ERR_INVALID_ARGUMENT);
    SW_CHECK_EQ_INT(sw_spring_init(&state, &sizes, memory, model, &t.set, NULL, &diag), SW_OK);
    SW_CHECK(state.step_s == SW_SPRING_STEP_DEFAULT_S && state.max_substeps == SW_SPRING_MAX_SUBSTEPS_DEFAULT);
    free(memory);
    /* a virtual tail on d (VRM 0.x style): four bones, d's tail 0.07 on along c → d */
    chain_set(&t, 1.0f, 0.4f, 0.0f);
    t.chains[0].tail_length = 0.07f;
    SW_CHECK_EQ_INT(sw_spring_sizes_of(model, &t.set, &sizes, &diag), SW_OK);
    SW_CHECK_EQ_INT(sizes.bone_count, 4);
    sim s;
    if (sim_open(&s, model, &t.set, NULL)) {
        SW_CHECK_EQ_INT(s.state.bones[3].tail, -1);
        sw_vec3 tl = s.state.bones[3].tail_local;
        SW_CHECK_NEAR(tl.x, 0.07, 1e-6);
        SW_CHECK_NEAR(tl.y, 0.0, 1e-6);
        SW_CHECK_NEAR(tl.z, 0.0, 1e-6);
    }
    sim_close(&s);
    sw_model_free(model);
}

/* Bones below other bones run after them (three-vrm's order), and the
   nodes between follow the moved parent: chain 0 = [c, d] is listed
   BEFORE chain 1 = [a, b]. The step runs a→b first, and [c, d]'s head
   follows b's swing. */
static void test_chain_order(void) {
    sw_diag diag = {0};
    sw_model* model = load_chain("", &diag);
    if (!model) {
        SW_CHECK(model != NULL);
        return;
    }
    test_set t;
    memset(&t, 0, sizeof t);
    t.joints[0] = joint(N_C, 0.0f, 0.4f, 1.0f), t.joints[1] = joint(N_D, 0.0f, 0.4f, 1.0f);
    t.joints[2] = joint(N_A, 0.0f, 0.4f, 1.0f), t.joints[3] = joint(N_B, 0.0f, 0.4f, 1.0f);
    t.chains[0].first_joint = 0, t.chains[0].joint_count = 2;
    t.chains[1].first_joint = 2, t.chains[1].joint_count = 2;
    t.set.joints = t.joints, t.set.joint_count = 4, t.set.chains = t.chains, t.set.chain_count = 2;
    sim s;
    if (sim_open(&s, model, &t.set, NULL)) {
        SW_CHECK_EQ_INT(s.state.bone_count, 2);
        SW_CHECK_EQ_INT(s.state.bones[0].chain, 1);
        SW_CHECK_EQ_INT(s.state.bones[1].chain, 0);
        /* b (the tail of a's bone) heads nothing, c heads a bone: a's bone carries b only */
        SW_CHECK_EQ_INT(s.state.bones[0].path_count, 1);
        double worst = 0.0;
        for (int f = 0; f < 200; f++) {
            sim_frame(&s, BASE, 1.0f / 60.0f);
            /* the simulated tail of [c, d] is where d is drawn, b's swing
               included: the same direction from c (its length is the one
               three-vrm takes, from where d was a step before) */
            const sw_vec3 c = world_pos(&s, N_C), d = world_pos(&s, N_D);
            const sw_vec3 to_tail = sw_vec3_sub(s.state.current_tail[1], c);
            const sw_vec3 drawn = sw_vec3_add(c, sw_vec3_scale(to_tail, sw_vec3_length(sw_vec3_sub(d, c)) /
                                                                            sw_vec3_length(to_tail)));
            worst = fmax(worst, dist3(drawn, d));
        }
        SW_CHECK(worst <= 1e-5);
        SW_CHECK(world_pos(&s, N_D).y < world_pos(&s, N_A).y - 0.25);
    }
    sim_close(&s);

    /* [a, b] and [d] with a virtual tail: d's parent c is moved by nobody
       but lies below b, so the step refreshes c after b's bone, before [d] runs,
       and d's tail stays 0.07 from where d is. */
    memset(&t, 0, sizeof t);
    t.joints[0] = joint(N_D, 0.0f, 0.4f, 1.0f);
    t.joints[1] = joint(N_A, 0.0f, 0.4f, 1.0f), t.joints[2] = joint(N_B, 0.0f, 0.4f, 1.0f);
    t.chains[0].first_joint = 0, t.chains[0].joint_count = 1, t.chains[0].tail_length = 0.07f;
    t.chains[1].first_joint = 1, t.chains[1].joint_count = 2;
    t.set.joints = t.joints, t.set.joint_count = 3, t.set.chains = t.chains, t.set.chain_count = 2;
    if (sim_open(&s, model, &t.set, NULL)) {
        SW_CHECK_EQ_INT(s.state.bones[0].chain, 1);
        SW_CHECK_EQ_INT(s.state.bones[0].head, N_A);
        /* a's bone carries b (its tail) and c (below b, heading nothing) */
        SW_CHECK_EQ_INT(s.state.bones[0].path_count, 2);
        SW_CHECK_EQ_INT(s.state.nodes[s.state.bones[0].path_first + 1], N_C);
        double worst = 0.0;
        for (int f = 0; f < 200; f++) {
            sim_frame(&s, BASE, 1.0f / 60.0f);
            /* state.bones[1] is d's (run order: [a, b] first) */
            worst = fmax(worst, fabs(dist3(s.state.current_tail[1], world_pos(&s, N_D)) - 0.07));
        }
        SW_CHECK(worst <= 1e-5);
        if (worst > 1e-5) fprintf(stderr, "  d's tail off its length by %.3g\n", worst);
    }
    sim_close(&s);
    sw_model_free(model);
}

/* ---- the readers ------------------------------------------------------------------------------ */

static sw_model* load_file(const char* name) {
    char path[1024];
    data_path(path, sizeof path, name);
    sw_model* model = NULL;
    sw_diag diag = {0};
    if (sw_gltf_load_file(path, NULL, &model, &diag) != SW_OK) fprintf(stderr, "  %s\n", diag.message);
    return model;
}

static bool named(const sw_model* model, uint32_t node, const char* name) {
    return node < model->node_count && model->nodes[node].name && strcmp(model->nodes[node].name, name) == 0;
}

static void check_vec(sw_vec3 v, double x, double y, double z) {
    SW_CHECK_NEAR(v.x, x, 1e-7);
    SW_CHECK_NEAR(v.y, y, 1e-7);
    SW_CHECK_NEAR(v.z, z, 1e-7);
}

/* A few seconds of simulation: the set validates and stays finite. */
static void simulate_briefly(const sw_model* model, const sw_spring_set* set) {
    sim s;
    if (sim_open(&s, model, set, NULL)) {
        bool finite = true;
        for (int f = 0; f < 120; f++) {
            sw_pose_rest(model, &s.pose);
            sw_pose_update_world(model, &s.pose);
            sw_spring_update(&s.state, model, set, &s.pose, 1.0f / 60.0f);
            sw_pose_update_world(model, &s.pose);
            for (size_t n = 0; n < model->node_count; n++)
                for (int k = 0; k < 12; k++) finite = finite && isfinite(s.pose.world[n].m[k / 4][k % 4]);
        }
        SW_CHECK(finite);
    } else {
        SW_CHECK(false);
    }
    sim_close(&s);
}

static void test_read_vrm1_file(void) {
    sw_model* model = load_file("hair_vrm1.gltf");
    SW_CHECK(model != NULL);
    if (!model) return;
    sw_spring_set* set = NULL;
    sw_diag diag = {0};
    SW_CHECK_EQ_INT(sw_spring_read(model, &set, &diag), SW_OK);
    if (!set) {
        fprintf(stderr, "  %s\n", diag.message);
        sw_model_free(model);
        return;
    }
    SW_CHECK_EQ_INT(set->source, SW_SPRING_SOURCE_VRMC_SPRING_BONE);
    SW_CHECK_EQ_INT(set->warning_count, 0);
    for (size_t i = 0; i < set->warning_count; i++) fprintf(stderr, "  warning: %s\n", set->warnings[i]);
    SW_CHECK_EQ_INT(set->chain_count, 1);
    SW_CHECK_EQ_INT(set->joint_count, 3);
    if (set->chain_count == 1 && set->joint_count == 3) {
        const sw_spring_chain* c = &set->chains[0];
        SW_CHECK(c->name && strcmp(c->name, "hair") == 0);
        SW_CHECK(c->first_joint == 0 && c->joint_count == 3 && c->tail_length == 0.0f);
        const sw_spring_joint* j = set->joints;
        SW_CHECK(named(model, j[0].node, "Hair1") && named(model, j[1].node, "Hair2") && named(model, j[2].node, "Hair3"));
        SW_CHECK(j[0].stiffness == 0.8f && j[0].drag_force == 0.3f && j[0].gravity_power == 0.5f &&
                 j[0].hit_radius == 0.02f);
        check_vec(j[0].gravity_dir, 0, -1, 0);
        SW_CHECK(j[1].stiffness == 0.6f && j[1].drag_force == 0.35f && j[1].gravity_power == 0.4f &&
                 j[1].hit_radius == 0.015f);
        check_vec(j[1].gravity_dir, 0.1, -1, 0);
        /* the tail: the schema's defaults */
        SW_CHECK(j[2].stiffness == 1.0f && j[2].drag_force == 0.5f && j[2].gravity_power == 0.0f &&
                 j[2].hit_radius == 0.0f);
        check_vec(j[2].gravity_dir, 0, -1, 0);
        SW_CHECK(c->group_count == 1 && set->chain_groups[c->first_group] == 0);
    }
    SW_CHECK_EQ_INT(set->collider_count, 2);
    SW_CHECK_EQ_INT(set->group_count, 1);
    if (set->collider_count == 2 && set->group_count == 1) {
        const sw_spring_collider* s = &set->colliders[0];
        SW_CHECK(named(model, s->node, "Head") && s->shape == SW_SPRING_SPHERE && s->radius == 0.08f);
        check_vec(s->offset, 0, 0.05, 0);
        const sw_spring_collider* k = &set->colliders[1];
        SW_CHECK(named(model, k->node, "Head") && k->shape == SW_SPRING_CAPSULE && k->radius == 0.03f);
        check_vec(k->offset, 0.02, 0, 0);
        check_vec(k->tail, -0.02, 0, 0);
        const sw_spring_collider_group* g = &set->groups[0];
        SW_CHECK(g->name && strcmp(g->name, "head") == 0 && g->collider_count == 2);
        SW_CHECK(set->group_colliders[g->first_collider] == 0 && set->group_colliders[g->first_collider + 1] == 1);
    }
    sw_spring_sizes sizes;
    SW_CHECK_EQ_INT(sw_spring_sizes_of(model, set, &sizes, &diag), SW_OK);
    SW_CHECK_EQ_INT(sizes.bone_count, 2);
    simulate_briefly(model, set);
    sw_spring_set_free(set);
    sw_model_free(model);
}

static void test_read_vrm0_file(void) {
    sw_model* model = load_file("hair_vrm0.vrm");
    SW_CHECK(model != NULL);
    if (!model) return;
    sw_spring_set* set = NULL;
    sw_diag diag = {0};
    SW_CHECK_EQ_INT(sw_spring_read(model, &set, &diag), SW_OK);
    if (!set) {
        fprintf(stderr, "  %s\n", diag.message);
        sw_model_free(model);
        return;
    }
    SW_CHECK_EQ_INT(set->source, SW_SPRING_SOURCE_VRM0);
    SW_CHECK_EQ_INT(set->warning_count, 0); /* center -1 means none */
    for (size_t i = 0; i < set->warning_count; i++) fprintf(stderr, "  warning: %s\n", set->warnings[i]);
    /* hair: one chain Hair1, Hair2, Hair3 (+ a virtual tail); ribbon: a
       tree with two leaves, two chains [RibbonRoot, RibbonL], [RibbonR]. */
    SW_CHECK_EQ_INT(set->chain_count, 3);
    SW_CHECK_EQ_INT(set->joint_count, 6);
    if (set->chain_count == 3 && set->joint_count == 6) {
        const sw_spring_chain* c = set->chains;
        const sw_spring_joint* j = set->joints;
        SW_CHECK(c[0].joint_count == 3 && c[0].tail_length == SW_SPRING_VRM0_TAIL_LENGTH);
        SW_CHECK(c[0].name && strcmp(c[0].name, "hair") == 0);
        SW_CHECK(named(model, j[c[0].first_joint].node, "Hair1") && named(model, j[c[0].first_joint + 1].node, "Hair2") &&
                 named(model, j[c[0].first_joint + 2].node, "Hair3"));
        for (int k = 0; k < 3; k++) {
            const sw_spring_joint* x = &j[c[0].first_joint + k];
            SW_CHECK(x->stiffness == 0.8f && x->drag_force == 0.3f && x->gravity_power == 0.5f && x->hit_radius == 0.02f);
            check_vec(x->gravity_dir, 0, -1, 0);
        }
        SW_CHECK(c[0].group_count == 1 && set->chain_groups[c[0].first_group] == 0);
        SW_CHECK(c[1].joint_count == 2 && named(model, j[c[1].first_joint].node, "RibbonRoot") &&
                 named(model, j[c[1].first_joint + 1].node, "RibbonL"));
        SW_CHECK(c[2].joint_count == 1 && named(model, j[c[2].first_joint].node, "RibbonR"));
        SW_CHECK(c[1].group_count == 0 && c[2].group_count == 0);
        SW_CHECK(j[c[2].first_joint].stiffness == 1.5f && j[c[2].first_joint].drag_force == 0.6f &&
                 j[c[2].first_joint].hit_radius == 0.01f && j[c[2].first_joint].gravity_power == 0.0f);
    }
    SW_CHECK_EQ_INT(set->collider_count, 1);
    SW_CHECK_EQ_INT(set->group_count, 1);
    if (set->collider_count == 1 && set->group_count == 1) {
        const sw_spring_collider* s = &set->colliders[0];
        SW_CHECK(named(model, s->node, "Head") && s->shape == SW_SPRING_SPHERE && s->radius == 0.08f);
        check_vec(s->offset, 0, 0.05, -0.01); /* z negated */
        SW_CHECK(set->groups[0].collider_count == 1);
    }
    sw_spring_sizes sizes;
    SW_CHECK_EQ_INT(sw_spring_sizes_of(model, set, &sizes, &diag), SW_OK);
    SW_CHECK_EQ_INT(sizes.bone_count, 6); /* every joint swings */
    simulate_briefly(model, set);
    sw_spring_set_free(set);
    sw_model_free(model);
}

/* VRM 0.x roots are trees: r → t0 → {t1 → {t2, v2}, u1}. The root t0
   gives the chain t0, t1, t2 (first children), then the chains branching
   off it from the bottom up: v2 (t1's second child), then u1 (t0's), so
   that the joints come in the tree's pre-order (three-vrm's). Each
   chain has the virtual tail; u1 and v2 swing from heads that follow the
   first chain: each bone carries only its tail (every node below a head
   heads a bone). */
static void test_read_vrm0_tree(void) {
    static const char text[] =
        "{\"asset\":{\"version\":\"2.0\"},\"nodes\":["
        "{\"name\":\"r\",\"translation\":[0,1,0],\"children\":[1]},"
        "{\"name\":\"t0\",\"translation\":[0,-0.1,0],\"children\":[2,5]},"
        "{\"name\":\"t1\",\"translation\":[0,-0.1,0],\"children\":[3,4]},"
        "{\"name\":\"t2\",\"translation\":[0,-0.1,0]},"
        "{\"name\":\"v2\",\"translation\":[0.05,-0.1,0]},"
        "{\"name\":\"u1\",\"translation\":[-0.05,-0.1,0]}],"
        "\"extensions\":{\"VRM\":{\"secondaryAnimation\":{\"boneGroups\":[{\"gravityPower\":1,\"bones\":[1]}]}}}}";
    sw_model* model = NULL;
    sw_diag diag = {0};
    SW_CHECK_EQ_INT(sw_gltf_load_memory(text, sizeof text - 1, "tree.gltf", NULL, NULL, &model, &diag), SW_OK);
    if (!model) return;
    sw_spring_set* set = NULL;
    SW_CHECK_EQ_INT(sw_spring_read(model, &set, &diag), SW_OK);
    if (set) {
        SW_CHECK_EQ_INT(set->warning_count, 0);
        SW_CHECK_EQ_INT(set->chain_count, 3);
        if (set->chain_count == 3) {
            const sw_spring_chain* c = set->chains;
            const sw_spring_joint* j = set->joints;
            SW_CHECK(c[0].joint_count == 3 && named(model, j[c[0].first_joint].node, "t0") &&
                     named(model, j[c[0].first_joint + 1].node, "t1") && named(model, j[c[0].first_joint + 2].node, "t2"));
            SW_CHECK(c[1].joint_count == 1 && named(model, j[c[1].first_joint].node, "v2"));
            SW_CHECK(c[2].joint_count == 1 && named(model, j[c[2].first_joint].node, "u1"));
            for (int k = 0; k < 3; k++) SW_CHECK(c[k].tail_length == SW_SPRING_VRM0_TAIL_LENGTH);
            /* three-vrm's defaults where the group says nothing (hitRadius 0: UniVRM's importer too) */
            SW_CHECK(j[0].stiffness == 1.0f && j[0].drag_force == 0.4f && j[0].hit_radius == 0.0f &&
                     j[0].gravity_power == 1.0f);
        }
        sim s;
        if (sim_open(&s, model, set, NULL)) {
            SW_CHECK_EQ_INT(s.state.bone_count, 5);
            for (size_t b = 0; b < s.state.bone_count; b++) /* a node tail heads a bone: only it */
                SW_CHECK_EQ_INT(s.state.bones[b].path_count, s.state.bones[b].tail >= 0 ? 1 : 0);
        }
        sim_close(&s);
        simulate_briefly(model, set);
    } else {
        fprintf(stderr, "  %s\n", diag.message);
    }
    sw_spring_set_free(set);
    sw_model_free(model);
}

/* A model without spring bones: an empty set. */
static void test_read_none(void) {
    sw_diag diag = {0};
    sw_model* model = load_chain("", &diag);
    if (!model) {
        SW_CHECK(model != NULL);
        return;
    }
    sw_spring_set* set = NULL;
    SW_CHECK_EQ_INT(sw_spring_read(model, &set, &diag), SW_OK);
    SW_CHECK(set && set->source == SW_SPRING_SOURCE_NONE && set->chain_count == 0 && set->warning_count == 0);
    if (set) simulate_briefly(model, set);
    sw_spring_set_free(set);
    sw_spring_set_free(NULL);
    SW_CHECK_EQ_INT(sw_spring_read(NULL, &set, &diag), SW_ERR_INVALID_ARGUMENT);
    SW_CHECK(set == NULL);
    sw_model_free(model);
}

/* Reads a block (the whole "extensions":{...} member text) spliced into
   the chain model. Returns the result; *out_set when OK. */
static sw_result read_block(const char* extensions, sw_spring_set** out_set, sw_diag* diag) {
    sw_diag load_diag = {0};
    sw_model* model = load_chain(extensions, &load_diag);
    *out_set = NULL;
    if (!model) return SW_ERR_IO;
    sw_result r = sw_spring_read(model, out_set, diag);
    if (r == SW_OK) {
        sw_spring_sizes sizes;
        SW_CHECK_EQ_INT(sw_spring_sizes_of(model, *out_set, &sizes, diag), SW_OK);
    }
    sw_model_free(model);
    return r;
}

static void expect_error(const char* extensions, const char* path) {
    sw_spring_set* set = NULL;
    sw_diag diag = {0};
    sw_result r = read_block(extensions, &set, &diag);
    SW_CHECK_EQ_INT(r, SW_ERR_INVALID_DATA);
    SW_CHECK(set == NULL);
    SW_CHECK(strncmp(diag.message, "chain.gltf: ", 12) == 0 && strstr(diag.message, path) != NULL);
    if (r != SW_ERR_INVALID_DATA || !strstr(diag.message, path)) fprintf(stderr, "  got: %s\n", diag.message);
    sw_spring_set_free(set);
}

/* OK with a warning containing `words` (and `path`); `chains` chains read. */
static void expect_warning(const char* extensions, const char* path, const char* words, size_t chains) {
    sw_spring_set* set = NULL;
    sw_diag diag = {0};
    sw_result r = read_block(extensions, &set, &diag);
    SW_CHECK_EQ_INT(r, SW_OK);
    if (!set) {
        fprintf(stderr, "  got: %s\n", diag.message);
        return;
    }
    bool found = false;
    for (size_t i = 0; i < set->warning_count; i++)
        found = found || (strstr(set->warnings[i], path) && strstr(set->warnings[i], words));
    SW_CHECK(found);
    if (!found)
        for (size_t i = 0; i < set->warning_count; i++) fprintf(stderr, "  warning: %s\n", set->warnings[i]);
    SW_CHECK_EQ_INT(set->chain_count, chains);
    sw_spring_set_free(set);
}

#define V1(body) "\"extensions\":{\"VRMC_springBone\":{\"specVersion\":\"1.0\"," body "}}"
#define V0(body) "\"extensions\":{\"VRM\":{\"secondaryAnimation\":{" body "}}}"
#define JOINTS_ABCD "\"joints\":[{\"node\":1},{\"node\":2},{\"node\":3},{\"node\":4}]"

static void test_read_malformed(void) {
    /* errors, naming the path */
    expect_error(V1("\"springs\":{}"), "extensions.VRMC_springBone.springs: expected an array");
    expect_error(V1("\"springs\":[{\"joints\":[{\"node\":1},{\"node\":\"2\"}]}]"),
                 "extensions.VRMC_springBone.springs[0].joints[1].node: expected an integer");
    expect_error(V1("\"springs\":[{\"joints\":[{\"node\":1.5}]}]"), "springs[0].joints[0].node: expected an integer");
    expect_error(V1("\"springs\":[{\"joints\":[{\"node\":1,\"gravityDir\":[0,-1]},{\"node\":2}]}]"),
                 "springs[0].joints[0].gravityDir: expected an array of 3 numbers");
    expect_error(V1("\"springs\":[{\"joints\":[{\"node\":1,\"stiffness\":true},{\"node\":2}]}]"),
                 "springs[0].joints[0].stiffness: expected a number");
    expect_error(V1("\"springs\":[{\"joints\":[{\"node\":1,\"stiffness\":1e300},{\"node\":2}]}]"),
                 "springs[0].joints[0].stiffness: not a finite float");
    expect_error(V1("\"springs\":[{\"name\":3}]"), "springs[0].name: expected a string");
    expect_error(V1("\"springs\":[{}]"), "springs[0].joints: missing");
    expect_error(V1("\"colliders\":[{\"node\":0}]"), "extensions.VRMC_springBone.colliders[0].shape: missing");
    expect_error(V1("\"colliders\":[{\"node\":0,\"shape\":{\"sphere\":{\"radius\":\"big\"}}}]"),
                 "colliders[0].shape.sphere.radius: expected a number");
    expect_error(V1("\"colliderGroups\":[{\"colliders\":[\"a\"]}]"), "colliderGroups[0].colliders[0]: expected an integer");
    expect_error("\"extensions\":{\"VRMC_springBone\":[]}", "extensions.VRMC_springBone: expected an object");
    expect_error(V0("\"boneGroups\":[{\"bones\":[1],\"gravityDir\":[0,-1,0]}]"),
                 "extensions.VRM.secondaryAnimation.boneGroups[0].gravityDir: expected an object");
    expect_error(V0("\"colliderGroups\":[{\"colliders\":[]}]"),
                 "extensions.VRM.secondaryAnimation.colliderGroups[0].node: missing");
    expect_error(V0("\"colliderGroups\":[{\"node\":0,\"colliders\":[{\"offset\":{\"x\":\"1\"}}]}]"),
                 "colliderGroups[0].colliders[0].offset.x: expected a number");
    expect_error("\"extensions\":{\"VRM\":{\"secondaryAnimation\":3}}", "extensions.VRM.secondaryAnimation: expected an object");

    /* warnings: skipped or clamped, the rest read */
    expect_warning(V1("\"springs\":[{\"joints\":[{\"node\":1},{\"node\":99}]},{" JOINTS_ABCD "}]"),
                   "springs[0].joints[1].node", "node 99 out of range", 1);
    expect_warning(V1("\"springs\":[{\"joints\":[{\"node\":1,\"dragForce\":2},{\"node\":2}]}]"),
                   "springs[0].joints[0].dragForce", "clamped to 1", 1);
    expect_warning(V1("\"springs\":[{\"joints\":[{\"node\":1,\"stiffness\":-3},{\"node\":2}]}]"),
                   "springs[0].joints[0].stiffness", "clamped to 0", 1);
    expect_warning(V1("\"springs\":[{" JOINTS_ABCD ",\"colliderGroups\":[5]}]"), "springs[0].colliderGroups[0]",
                   "collider group 5 out of range", 1);
    expect_warning(V1("\"springs\":[{\"joints\":[{\"node\":1}]}]"), "springs[0].joints", "one joint", 0);
    expect_warning(V1("\"springs\":[{" JOINTS_ABCD "},{\"joints\":[{\"node\":2},{\"node\":3}]}]"), "springs[1]",
                   "already in an earlier chain", 1);
    expect_warning(V1("\"springs\":[{\"joints\":[{\"node\":3},{\"node\":1}]}]"), "springs[0].joints[1]",
                   "not a descendant", 0);
    expect_warning(V1("\"springs\":[{\"joints\":[{\"node\":5},{\"node\":6}]}]"), "springs[0]", "matrix transform", 0);
    expect_warning(V1("\"springs\":[{\"joints\":[{\"node\":6},{\"node\":7}]}]"), "springs[0]", "zero length", 0);
    expect_warning(V1("\"springs\":[{" JOINTS_ABCD ",\"center\":99}]"), "springs[0].center",
                   "node 99 out of range (8 nodes); simulated in world space", 1);
    /* VRMC_springBone_extended_collider: what is not understood leaves the collider's own shape */
#define EXT_COLLIDER(ext) \
    V1("\"colliders\":[{\"node\":0,\"shape\":{\"sphere\":{\"radius\":0.1}},\"extensions\":{" \
       "\"VRMC_springBone_extended_collider\":" ext "}}]")
    expect_warning(EXT_COLLIDER("{\"specVersion\":\"2.0\",\"shape\":{\"plane\":{}}}"),
                   "colliders[0].extensions.VRMC_springBone_extended_collider.specVersion",
                   "unknown version \"2.0\"; the collider's own shape is used", 0);
    expect_warning(EXT_COLLIDER("{\"specVersion\":\"1.0\",\"shape\":{\"cone\":{}}}"),
                   "colliders[0].extensions.VRMC_springBone_extended_collider.shape",
                   "no sphere, capsule or plane", 0);
    expect_warning(EXT_COLLIDER("{\"specVersion\":\"1.0\",\"shape\":{\"plane\":{\"normal\":[0,0,0]}}}"),
                   "VRMC_springBone_extended_collider.shape.plane.normal", "zero length", 0);
    expect_error(EXT_COLLIDER("{\"specVersion\":\"1.0\",\"shape\":{\"sphere\":{\"inside\":1}}}"),
                 "VRMC_springBone_extended_collider.shape.sphere.inside: expected true or false");
    expect_warning(V1("\"colliders\":[{\"node\":-1,\"shape\":{\"sphere\":{}}}],\"colliderGroups\":[{\"colliders\":[0]}],"
                      "\"springs\":[{" JOINTS_ABCD ",\"colliderGroups\":[0]}]"),
                   "colliders[0].node", "collider skipped", 1);
    expect_warning(V1("\"colliders\":[{\"node\":0,\"shape\":{}}]"), "colliders[0].shape", "neither sphere nor capsule",
                   0);
    expect_warning("\"extensions\":{\"VRMC_springBone\":{\"specVersion\":\"2.5\"}}", "specVersion", "unknown version",
                   0);
    expect_warning(V0("\"boneGroups\":[{\"bones\":[77, 1]}]"), "boneGroups[0].bones[0]", "out of range", 1);
    expect_warning(V0("\"boneGroups\":[{\"bones\":[1, 3]}]"), "boneGroups[0].bones[1]", "already in an earlier chain",
                   1);
    expect_warning(V0("\"boneGroups\":[{\"bones\":[5]}]"), "boneGroups[0].bones[0]", "matrix transform", 0);
    expect_warning(V0("\"boneGroups\":[{\"bones\":[7]}]"), "boneGroups[0].bones[0]", "no direction", 0);
    expect_warning(V0("\"boneGroups\":[{\"bones\":[1],\"center\":42}]"), "boneGroups[0].center",
                   "out of range", 1);
    expect_warning(V0("\"boneGroups\":[{\"bones\":[1],\"dragForce\":-1}]"), "boneGroups[0].dragForce", "clamped", 1);
    expect_warning(V0("\"boneGroups\":[{\"bones\":[1],\"colliderGroups\":[0]}],\"colliderGroups\":[{\"node\":40}]"),
                   "colliderGroups[0].node", "out of range", 1);
    /* both versions: VRMC_springBone, and a warning */
    expect_warning("\"extensions\":{\"VRMC_springBone\":{\"specVersion\":\"1.0\",\"springs\":[{" JOINTS_ABCD "}]},"
                   "\"VRM\":{\"secondaryAnimation\":{\"boneGroups\":[]}}}",
                   "extensions.VRM.secondaryAnimation", "ignored", 1);
}

/* Every number of a valid block, replaced in turn by other values, never
   crashes: the read fails with a message naming the file, or succeeds with
   a set that validates and simulates to finite values. */
static void mutate_block(const char* block) {
    static const char* const values[] = {"null", "\"s\"", "-1", "1e39", "[]", "{}", "7", "0", "5", "6", "2.5", "-0.5", "true"};
    const size_t length = strlen(block);
    int variants = 0, ok = 0;
    bool in_string = false;
    for (size_t i = 0; i < length; i++) {
        char ch = block[i];
        if (ch == '"') in_string = !in_string; /* the blocks have no escaped quotes */
        if (in_string || !((ch >= '0' && ch <= '9') || ch == '-')) continue;
        if (i > 0 && strchr("0123456789.-eE", block[i - 1])) continue; /* inside a number */
        size_t end = i + 1;
        while (end < length && strchr("0123456789.eE+-", block[end])) end++;
        for (size_t v = 0; v < sizeof values / sizeof values[0]; v++) {
            size_t size = length + strlen(values[v]) + 1;
            char* text = malloc(size);
            if (!text) continue;
            snprintf(text, size, "%.*s%s%s", (int)i, block, values[v], block + end);
            sw_diag load_diag = {0}, diag = {0};
            sw_model* model = load_chain(text, &load_diag);
            free(text);
            if (!model) continue;
            variants++;
            sw_spring_set* set = NULL;
            sw_result r = sw_spring_read(model, &set, &diag);
            if (r == SW_OK) {
                ok++;
                simulate_briefly(model, set);
            } else {
                SW_CHECK(set == NULL && r == SW_ERR_INVALID_DATA && strncmp(diag.message, "chain.gltf: ", 12) == 0);
            }
            sw_spring_set_free(set);
            sw_model_free(model);
        }
    }
    fprintf(stderr, "  %d variants, %d read\n", variants, ok);
    SW_CHECK(variants > 100 && ok > 0 && ok < variants);
}

static void test_read_never_crashes(void) {
    mutate_block(V1("\"colliders\":[{\"node\":0,\"shape\":{\"sphere\":{\"offset\":[0.1,-0.1,0],\"radius\":0.05}}},"
                    "{\"node\":0,\"shape\":{\"capsule\":{\"offset\":[0,0,0],\"radius\":0.02,\"tail\":[0,-0.2,0]}}}],"
                    "\"colliderGroups\":[{\"colliders\":[0,1]}],"
                    "\"springs\":[{\"joints\":[{\"node\":1,\"stiffness\":1,\"dragForce\":0.4,\"gravityPower\":1,"
                    "\"gravityDir\":[0,-1,0],\"hitRadius\":0.01},{\"node\":2},{\"node\":4}],\"colliderGroups\":[0]}]"));
    mutate_block(V0("\"boneGroups\":[{\"stiffiness\":1,\"gravityPower\":1,\"gravityDir\":{\"x\":0,\"y\":-1,\"z\":0},"
                    "\"dragForce\":0.4,\"center\":-1,\"hitRadius\":0.02,\"bones\":[2],\"colliderGroups\":[0]}],"
                    "\"colliderGroups\":[{\"node\":0,\"colliders\":[{\"offset\":{\"x\":0.1,\"y\":-0.1,\"z\":0},"
                    "\"radius\":0.05}]}]"));
}

/* center and VRMC_springBone_extended_collider read into the set; the
   collision option: RESOLVE differs from VRM's push on a deep contact,
   an unknown mode is refused. */
static void test_read_center_and_extended(void) {
    static const char ext[] =
        "\"extensions\":{\"VRMC_springBone\":{\"specVersion\":\"1.0\",\"colliders\":["
        "{\"node\":0,\"shape\":{\"sphere\":{\"radius\":0}},\"extensions\":{\"VRMC_springBone_extended_collider\":"
        "{\"specVersion\":\"1.0\",\"shape\":{\"plane\":{\"offset\":[0,-0.1,0],\"normal\":[0,2,0]}}}}},"
        "{\"node\":0,\"shape\":{\"sphere\":{\"radius\":0}},\"extensions\":{\"VRMC_springBone_extended_collider\":"
        "{\"specVersion\":\"1.0\",\"shape\":{\"sphere\":{\"offset\":[0.1,0,0],\"radius\":0.5,\"inside\":true}}}}},"
        "{\"node\":0,\"shape\":{\"sphere\":{\"radius\":0}},\"extensions\":{\"VRMC_springBone_extended_collider\":"
        "{\"specVersion\":\"1.0\",\"shape\":{\"capsule\":{\"tail\":[0.3,0,0],\"radius\":0.4,\"inside\":true},"
        "\"plane\":{}}}}},"
        "{\"node\":0,\"shape\":{\"capsule\":{\"radius\":0.05,\"tail\":[0,0,1]}}}],"
        "\"colliderGroups\":[{\"colliders\":[0,1,2,3]}],"
        "\"springs\":[{\"center\":0,\"colliderGroups\":[0]," JOINTS_ABCD "}]}}";
    sw_diag diag = {0};
    sw_model* model = load_chain(ext, &diag);
    if (!model) {
        SW_CHECK(model != NULL);
        return;
    }
    sw_spring_set* set = NULL;
    SW_CHECK_EQ_INT(sw_spring_read(model, &set, &diag), SW_OK);
    if (set && set->collider_count == 4 && set->chain_count == 1) {
        SW_CHECK_EQ_INT(set->warning_count, 0);
        SW_CHECK(set->chains[0].has_center && set->chains[0].center == N_BASE);
        const sw_spring_collider* c = set->colliders;
        SW_CHECK(c[0].shape == SW_SPRING_PLANE && c[0].normal.y == 2.0f && c[0].offset.y == -0.1f && !c[0].inside);
        SW_CHECK(c[1].shape == SW_SPRING_SPHERE && c[1].inside && c[1].radius == 0.5f && c[1].offset.x == 0.1f);
        SW_CHECK(c[2].shape == SW_SPRING_CAPSULE && c[2].inside && c[2].tail.x == 0.3f); /* capsule before plane */
        if (c[2].shape != SW_SPRING_CAPSULE || !c[2].inside || c[2].tail.x != 0.3f)
            fprintf(stderr, "  collider 2: shape %d inside %d tail %g radius %g\n", (int)c[2].shape, c[2].inside,
                    (double)c[2].tail.x, (double)c[2].radius);
        SW_CHECK(c[3].shape == SW_SPRING_CAPSULE && !c[3].inside && c[3].tail.z == 1.0f);
        simulate_briefly(model, set);
    } else {
        SW_CHECK(false);
    }
    sw_spring_set_free(set);

    /* A ball the tip falls deep into: VRM's push leaves it inside after
       the length constraint, sinew's resolution does not. */
    test_set t;
    chain_set(&t, 0.0f, 0.2f, 3.0f);
    add_collider(&t, N_BASE, SW_SPRING_SPHERE, sw_vec3_make(0.25f, -0.12f, 0.0f), sw_vec3_make(0, 0, 0), 0.1f);
    sim vrm, resolve;
    const sw_spring_options resolve_options = {.collision = SW_SPRING_COLLISION_RESOLVE};
    if (sim_open(&vrm, model, &t.set, NULL) && sim_open(&resolve, model, &t.set, &resolve_options)) {
        double apart = 0.0;
        for (int f = 0; f < 60; f++) {
            sim_frame(&vrm, BASE, 1.0f / 60.0f);
            sim_frame(&resolve, BASE, 1.0f / 60.0f);
            apart = fmax(apart, dist3(world_pos(&vrm, N_D), world_pos(&resolve, N_D)));
        }
        SW_CHECK(apart > 1e-3);
        sw_spring_options bad = {.collision = (sw_spring_collision)7};
        sw_spring_state state;
        sw_spring_sizes sizes;
        SW_CHECK_EQ_INT(sw_spring_sizes_of(model, &t.set, &sizes, &diag), SW_OK);
        SW_CHECK_EQ_INT(sw_spring_init(&state, &sizes, vrm.state_memory, model, &t.set, &bad, &diag),
                        SW_ERR_INVALID_ARGUMENT);
    } else {
        SW_CHECK(false);
    }
    sim_close(&vrm);
    sim_close(&resolve);
    sw_model_free(model);
}

int main(void) {
    SW_RUN(test_rest_without_gravity);
    SW_RUN(test_gravity_hangs);
    SW_RUN(test_colliders_not_entered);
    SW_RUN(test_frame_rate_independent);
    SW_RUN(test_against_reference);
    SW_RUN(test_reset_on_teleport);
    SW_RUN(test_steps_and_cap);
    SW_RUN(test_validation);
    SW_RUN(test_chain_order);
    SW_RUN(test_read_vrm1_file);
    SW_RUN(test_read_vrm0_file);
    SW_RUN(test_read_vrm0_tree);
    SW_RUN(test_read_none);
    SW_RUN(test_read_center_and_extended);
    SW_RUN(test_read_malformed);
    SW_RUN(test_read_never_crashes);
    return sw_test_finish();
}
