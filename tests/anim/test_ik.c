/* Two-bone IK and aim (sinew/ik.h), checked on chains built here and run
   through sw_local_to_model_job, with numbers the test works out itself:

   - validity: every bad field of both jobs named;
   - two-bone: random reachable targets and poles (uniform and mirrored
     parent scale, intermediate nodes between the joints) reached within
     1e-4 with bone lengths kept within 1e-5 and only the two rotations
     changed; the knee in the plane of (start, target, pole); without a
     pole the knee stays in its bend plane; a straight chain bends by the
     pole or mid_axis to a knee worked out by hand; unreachable targets
     give a straight chain pointing at them; weight 0 is bit-exact and
     0.5 turns half-way; the soft reach curve against its formula, and
     through the job: monotone, no snap; non-uniform parent scale: how
     close it gets, and that the reported distance is the true one;
   - aim: random single joints (forward on the target within 1e-4 rad, up
     in the plane of forward and world_up); a vertical spine → neck → head
     yaw whose shares are exact angles; random chains that end fully
     aimed; weight 0 and 0.5;
   - a loaded model through the pose API: tests/data/gltf/pose_chain.gltf,
     and the left leg and spine of the shared arnaud character when
     SINEW_ASSETS is set (skipped, saying so, otherwise). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "test_random.h"
#include "sinew/anim.h"
#include "sinew/gltf.h"
#include "sinew/ik.h"
#include "sinew/pose.h"

#define DEG (SW_PI / 180.0)

/* ---- small double helpers (the test's own arithmetic) -------------------------------- */

typedef struct dv { double x, y, z; } dv;

static dv dv_make(double x, double y, double z) { dv r = {x, y, z}; return r; }
static dv dv_of(sw_vec3 v) { return dv_make(v.x, v.y, v.z); }
static dv dv_sub(dv a, dv b) { return dv_make(a.x - b.x, a.y - b.y, a.z - b.z); }
static dv dv_add(dv a, dv b) { return dv_make(a.x + b.x, a.y + b.y, a.z + b.z); }
static dv dv_scale(dv a, double s) { return dv_make(a.x * s, a.y * s, a.z * s); }
static double dv_dot(dv a, dv b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static dv dv_cross(dv a, dv b) { return dv_make(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x); }
static double dv_len(dv a) { return sqrt(dv_dot(a, a)); }
static dv dv_unit(dv a) { return dv_scale(a, 1.0 / dv_len(a)); }
static double dv_angle(dv a, dv b) { return atan2(dv_len(dv_cross(a, b)), dv_dot(a, b)); }
static sw_vec3 vec_of(dv a) { return sw_vec3_make((float)a.x, (float)a.y, (float)a.z); }

static dv pos(const sw_mat34* world, size_t i) { return dv_make(world[i].m[0][3], world[i].m[1][3], world[i].m[2][3]); }
/* World image of a direction in node i's space. */
static dv dir(const sw_mat34* world, size_t i, sw_vec3 d) {
    const sw_mat34* m = &world[i];
    return dv_make((double)m->m[0][0] * d.x + (double)m->m[0][1] * d.y + (double)m->m[0][2] * d.z,
                   (double)m->m[1][0] * d.x + (double)m->m[1][1] * d.y + (double)m->m[1][2] * d.z,
                   (double)m->m[2][0] * d.x + (double)m->m[2][1] * d.y + (double)m->m[2][2] * d.z);
}
/* Angle between two rotations, in radians: of a⁻¹·b, by atan2 (acos loses
   small angles). */
static double quat_angle(sw_quat a, sw_quat b) {
    const double ax = -a.x, ay = -a.y, az = -a.z, aw = a.w;
    const double x = aw * b.x + ax * b.w + ay * b.z - az * b.y, y = aw * b.y - ax * b.z + ay * b.w + az * b.x;
    const double z = aw * b.z + ax * b.y - ay * b.x + az * b.w, w = aw * b.w - ax * b.x - ay * b.y - az * b.z;
    return 2.0 * atan2(sqrt(x * x + y * y + z * z), fabs(w));
}
static bool same_transform(const sw_transform* a, const sw_transform* b) { return memcmp(a, b, sizeof *a) == 0; }

static sw_transform trs(sw_vec3 t, sw_quat r, sw_vec3 s) {
    sw_transform x;
    x.translation = t;
    x.rotation = r;
    x.scale = s;
    return x;
}
static sw_vec3 uniform(float s) { return sw_vec3_make(s, s, s); }
static sw_vec3 random_dir(rng* r) {
    for (;;) {
        sw_vec3 v = rng_vec3(r, -1.0, 1.0);
        float l = sw_vec3_length(v);
        if (l > 0.1f && l <= 1.0f) return sw_vec3_scale(v, 1.0f / l);
    }
}

/* A failure must come with a code, that code in diag, and a message. */
static void check_failure(sw_result got, sw_result expected, const sw_diag* diag) {
    SW_CHECK_EQ_INT(got, expected);
    SW_CHECK_EQ_INT(diag->result, got);
    SW_CHECK(diag->message[0] != '\0');
}

/* ---- rigs: a small hierarchy with world matrices -------------------------------------- */

#define RIG_MAX 10
typedef struct rig {
    size_t count;
    int16_t parents[RIG_MAX];
    sw_transform local[RIG_MAX];
    sw_mat34 world[RIG_MAX];
    uint32_t start, mid, end;
} rig;

static size_t rig_add(rig* r, int parent, sw_transform t) {
    SW_CHECK(r->count < RIG_MAX);
    r->parents[r->count] = (int16_t)parent;
    r->local[r->count] = t;
    return r->count++;
}

static void rig_update(rig* r) {
    sw_local_to_model_job job = {r->parents, r->count, r->local, NULL, 0, r->world};
    sw_diag diag;
    SW_CHECK_EQ_INT(sw_local_to_model_job_validate(&job, &diag), SW_OK);
    sw_local_to_model_job_run(&job);
}

static sw_ik_two_bone_job two_bone_of(rig* r, sw_vec3 target) {
    sw_ik_two_bone_job job;
    memset(&job, 0, sizeof job);
    job.local = r->local;
    job.world = r->world;
    job.node_count = r->count;
    job.start = r->start;
    job.mid = r->mid;
    job.end = r->end;
    job.target = target;
    job.weight = 1.0f;
    return job;
}

static sw_ik_two_bone_result solve(const sw_ik_two_bone_job* job) {
    sw_diag diag;
    sw_result res = sw_ik_two_bone_job_validate(job, &diag);
    if (res != SW_OK) fprintf(stderr, "  %s\n", diag.message);
    SW_CHECK_EQ_INT(res, SW_OK);
    sw_ik_two_bone_result out = {0.0f, false};
    if (res == SW_OK) out = sw_ik_two_bone_job_run(job);
    return out;
}

/* A random leg: root (any rotation, uniform scale 0.3..3, sometimes
   mirrored, or the scale given), [a turned node: shear under a stretched
   root], start, [twist node], mid, [helper node], end, toe. Bones of
   0.2..0.6 before scale. */
static void random_leg_sheared(rng* g, rig* r, bool intermediates, bool mirrored, const sw_vec3* root_scale,
                               bool shear) {
    memset(r, 0, sizeof *r);
    float s = rng_range(g, 0.3, 3.0);
    sw_vec3 scale = root_scale ? *root_scale : uniform(s);
    if (mirrored) scale.x = -scale.x;
    size_t root = rig_add(r, -1, trs(rng_vec3(g, -1, 1), rng_quat(g), scale));
    if (shear) root = rig_add(r, (int)root, trs(rng_vec3(g, -0.2, 0.2), rng_quat(g), uniform(1)));
    r->start = (uint32_t)rig_add(r, (int)root, trs(rng_vec3(g, -0.2, 0.2), rng_quat(g), uniform(rng_range(g, 0.7, 1.4))));
    size_t above_mid = r->start;
    if (intermediates)
        above_mid = rig_add(r, (int)r->start, trs(sw_vec3_scale(random_dir(g), rng_range(g, 0.05, 0.2)), rng_quat(g),
                                                  uniform(1.0f)));
    r->mid = (uint32_t)rig_add(r, (int)above_mid,
                               trs(sw_vec3_scale(random_dir(g), rng_range(g, 0.2, 0.6)), rng_quat(g), uniform(1.0f)));
    size_t above_end = r->mid;
    if (intermediates)
        above_end = rig_add(r, (int)r->mid, trs(sw_vec3_scale(random_dir(g), rng_range(g, 0.05, 0.2)), rng_quat(g),
                                                uniform(rng_range(g, 0.8, 1.25))));
    r->end = (uint32_t)rig_add(r, (int)above_end,
                               trs(sw_vec3_scale(random_dir(g), rng_range(g, 0.2, 0.6)), rng_quat(g), uniform(1.0f)));
    rig_add(r, (int)r->end, trs(sw_vec3_make(0.0f, 0.1f, 0.0f), sw_quat_identity(), uniform(1.0f)));
    rig_update(r);
}

static void random_leg(rng* g, rig* r, bool intermediates, bool mirrored, const sw_vec3* root_scale) {
    random_leg_sheared(g, r, intermediates, mirrored, root_scale, false);
}

/* ---- validity ----------------------------------------------------------------------------- */

static void test_two_bone_validity(void) {
    rig r = {0};
    size_t a = rig_add(&r, -1, trs(sw_vec3_make(0, 1, 0), sw_quat_identity(), uniform(1)));
    size_t b = rig_add(&r, (int)a, trs(sw_vec3_make(0, -0.5f, 0), sw_quat_identity(), uniform(1)));
    size_t c = rig_add(&r, (int)b, trs(sw_vec3_make(0, -0.5f, 0), sw_quat_identity(), uniform(1)));
    r.start = (uint32_t)a, r.mid = (uint32_t)b, r.end = (uint32_t)c;
    rig_update(&r);
    const sw_ik_two_bone_job ok = two_bone_of(&r, sw_vec3_make(0, 0.3f, 0.2f));
    sw_diag diag;
    SW_CHECK_EQ_INT(sw_ik_two_bone_job_validate(&ok, &diag), SW_OK);
    SW_CHECK_EQ_INT(sw_ik_two_bone_job_validate(&ok, NULL), SW_OK);

    memset(&diag, 0, sizeof diag);
    check_failure(sw_ik_two_bone_job_validate(NULL, &diag), SW_ERR_INVALID_ARGUMENT, &diag);
    sw_ik_two_bone_job j = ok;
    j.local = NULL;
    check_failure(sw_ik_two_bone_job_validate(&j, &diag), SW_ERR_INVALID_ARGUMENT, &diag);
    j = ok, j.world = NULL;
    check_failure(sw_ik_two_bone_job_validate(&j, &diag), SW_ERR_INVALID_ARGUMENT, &diag);
    j = ok, j.node_count = 0;
    check_failure(sw_ik_two_bone_job_validate(&j, &diag), SW_ERR_INVALID_ARGUMENT, &diag);
    j = ok, j.world = (const sw_mat34*)(const void*)r.local; /* overlapping arrays */
    check_failure(sw_ik_two_bone_job_validate(&j, &diag), SW_ERR_INVALID_ARGUMENT, &diag);
    j = ok, j.end = 3;
    check_failure(sw_ik_two_bone_job_validate(&j, &diag), SW_ERR_INDEX_OUT_OF_RANGE, &diag);
    SW_CHECK_EQ_INT(diag.index, 3);
    j = ok, j.start = 1, j.mid = 0;
    check_failure(sw_ik_two_bone_job_validate(&j, &diag), SW_ERR_JOINT_ORDER, &diag);
    j = ok, j.mid = 2, j.end = 2;
    check_failure(sw_ik_two_bone_job_validate(&j, &diag), SW_ERR_JOINT_ORDER, &diag);
    j = ok, j.target.y = NAN;
    check_failure(sw_ik_two_bone_job_validate(&j, &diag), SW_ERR_INVALID_DATA, &diag);
    j = ok, j.pole_mode = (sw_ik_pole)7;
    check_failure(sw_ik_two_bone_job_validate(&j, &diag), SW_ERR_INVALID_ARGUMENT, &diag);
    j = ok, j.pole_mode = SW_IK_POLE_DIRECTION;
    check_failure(sw_ik_two_bone_job_validate(&j, &diag), SW_ERR_INVALID_DATA, &diag); /* zero direction */
    j = ok, j.pole_mode = SW_IK_POLE_POINT; /* the origin is a fine point */
    SW_CHECK_EQ_INT(sw_ik_two_bone_job_validate(&j, &diag), SW_OK);
    j.pole.x = INFINITY;
    check_failure(sw_ik_two_bone_job_validate(&j, &diag), SW_ERR_INVALID_DATA, &diag);
    j = ok, j.mid_axis.z = NAN;
    check_failure(sw_ik_two_bone_job_validate(&j, &diag), SW_ERR_INVALID_DATA, &diag);
    const float bad_soft[] = {-0.1f, 1.0f, NAN};
    for (int i = 0; i < 3; i++) {
        j = ok, j.soft = bad_soft[i];
        check_failure(sw_ik_two_bone_job_validate(&j, &diag), SW_ERR_INVALID_DATA, &diag);
    }
    const float bad_weight[] = {-0.01f, 1.01f, NAN};
    for (int i = 0; i < 3; i++) {
        j = ok, j.weight = bad_weight[i];
        check_failure(sw_ik_two_bone_job_validate(&j, &diag), SW_ERR_INVALID_DATA, &diag);
    }
    j = ok, j.tolerance = -1.0f;
    check_failure(sw_ik_two_bone_job_validate(&j, &diag), SW_ERR_INVALID_DATA, &diag);

    /* The turned joints' data: zero scale, a rotation off unit, a singular world matrix. */
    rig broken = r;
    j = two_bone_of(&broken, ok.target);
    broken.local[b].scale.y = 0.0f;
    check_failure(sw_ik_two_bone_job_validate(&j, &diag), SW_ERR_INVALID_DATA, &diag);
    SW_CHECK_EQ_INT(diag.index, (int64_t)b);
    broken = r;
    broken.local[a].rotation.w = 2.0f;
    check_failure(sw_ik_two_bone_job_validate(&j, &diag), SW_ERR_INVALID_DATA, &diag);
    broken = r;
    for (int k = 0; k < 3; k++) broken.world[a].m[k][1] = 0.0f;
    check_failure(sw_ik_two_bone_job_validate(&j, &diag), SW_ERR_SINGULAR, &diag);
    SW_CHECK_EQ_INT(diag.index, (int64_t)a);
    broken = r;
    broken.world[b].m[2][3] = NAN;
    check_failure(sw_ik_two_bone_job_validate(&j, &diag), SW_ERR_INVALID_DATA, &diag);
}

static void test_aim_validity(void) {
    rig r = {0};
    size_t a = rig_add(&r, -1, trs(sw_vec3_make(0, 1, 0), sw_quat_identity(), uniform(1)));
    size_t b = rig_add(&r, (int)a, trs(sw_vec3_make(0, 0.5f, 0), sw_quat_identity(), uniform(1)));
    rig_update(&r);
    uint32_t joints[2] = {(uint32_t)a, (uint32_t)b};
    float weights[2] = {0.5f, 7.0f}; /* the last entry is not read */
    sw_ik_aim_job ok;
    memset(&ok, 0, sizeof ok);
    ok.local = r.local, ok.world = r.world, ok.node_count = r.count;
    ok.joints = joints, ok.joint_count = 2, ok.joint_weights = weights;
    ok.target = sw_vec3_make(1, 2, 3);
    ok.weight = 1.0f;
    sw_diag diag;
    SW_CHECK_EQ_INT(sw_ik_aim_job_validate(&ok, &diag), SW_OK);

    check_failure(sw_ik_aim_job_validate(NULL, &diag), SW_ERR_INVALID_ARGUMENT, &diag);
    sw_ik_aim_job j = ok;
    j.joints = NULL;
    check_failure(sw_ik_aim_job_validate(&j, &diag), SW_ERR_INVALID_ARGUMENT, &diag);
    j = ok, j.joint_count = 0;
    check_failure(sw_ik_aim_job_validate(&j, &diag), SW_ERR_INVALID_ARGUMENT, &diag);
    j = ok, j.local = NULL;
    check_failure(sw_ik_aim_job_validate(&j, &diag), SW_ERR_INVALID_ARGUMENT, &diag);
    uint32_t out_of_range[2] = {0, 2};
    j = ok, j.joints = out_of_range;
    check_failure(sw_ik_aim_job_validate(&j, &diag), SW_ERR_INDEX_OUT_OF_RANGE, &diag);
    SW_CHECK_EQ_INT(diag.index, 1);
    uint32_t backwards[2] = {1, 0}, repeated[2] = {1, 1};
    j = ok, j.joints = backwards;
    check_failure(sw_ik_aim_job_validate(&j, &diag), SW_ERR_JOINT_ORDER, &diag);
    j = ok, j.joints = repeated;
    check_failure(sw_ik_aim_job_validate(&j, &diag), SW_ERR_JOINT_ORDER, &diag);
    float bad_weights[2] = {1.5f, 1.0f};
    j = ok, j.joint_weights = bad_weights;
    check_failure(sw_ik_aim_job_validate(&j, &diag), SW_ERR_INVALID_DATA, &diag);
    SW_CHECK_EQ_INT(diag.index, 0);
    j = ok, j.weight = 2.0f;
    check_failure(sw_ik_aim_job_validate(&j, &diag), SW_ERR_INVALID_DATA, &diag);
    j = ok, j.target.z = NAN;
    check_failure(sw_ik_aim_job_validate(&j, &diag), SW_ERR_INVALID_DATA, &diag);
    j = ok, j.world_up.x = INFINITY;
    check_failure(sw_ik_aim_job_validate(&j, &diag), SW_ERR_INVALID_DATA, &diag);
    j = ok, j.forward = sw_vec3_make(0, 2, 0); /* parallel to the default up */
    check_failure(sw_ik_aim_job_validate(&j, &diag), SW_ERR_INVALID_ARGUMENT, &diag);
    j.up = sw_vec3_make(1, 0, 0);
    SW_CHECK_EQ_INT(sw_ik_aim_job_validate(&j, &diag), SW_OK);
    j = ok, j.up = sw_vec3_make(0, 0, -3); /* parallel to the default forward */
    check_failure(sw_ik_aim_job_validate(&j, &diag), SW_ERR_INVALID_ARGUMENT, &diag);
    rig broken = r;
    j = ok, j.local = broken.local, j.world = broken.world;
    broken.local[a].scale.z = 0.0f;
    check_failure(sw_ik_aim_job_validate(&j, &diag), SW_ERR_INVALID_DATA, &diag);
    SW_CHECK_EQ_INT(diag.index, 0);
}

/* ---- two-bone ------------------------------------------------------------------------------- */

static void check_only_turned(const rig* before, const rig* after, uint32_t a, uint32_t b) {
    for (size_t i = 0; i < before->count; i++) {
        if (i == a || i == b) {
            SW_CHECK(memcmp(&before->local[i].translation, &after->local[i].translation, sizeof(sw_vec3)) == 0);
            SW_CHECK(memcmp(&before->local[i].scale, &after->local[i].scale, sizeof(sw_vec3)) == 0);
        } else {
            SW_CHECK(same_transform(&before->local[i], &after->local[i]));
        }
    }
}

/* Many random legs, targets and pole points: reached, lengths kept, the
   knee in the pole plane on the pole's side, nothing else changed. */
static void test_two_bone_reaches_random(void) {
    rng g = {0x1c0ffee5eedull};
    int cases = 0, worst_case = -1;
    double worst_reach = 0.0, worst_length = 0.0, worst_plane = 0.0;
    for (int n = 0; n < 600; n++) {
        rig r;
        random_leg(&g, &r, n % 2 == 1, n % 5 == 3, NULL);
        const rig before = r;
        const dv a = pos(r.world, r.start), b = pos(r.world, r.mid), c = pos(r.world, r.end);
        const double l1 = dv_len(dv_sub(b, a)), l2 = dv_len(dv_sub(c, b));
        const double lo = fabs(l1 - l2), hi = l1 + l2;
        const dv t = dv_add(a, dv_scale(dv_of(random_dir(&g)), lo + (hi - lo) * rng_range(&g, 0.03, 0.97)));
        dv pole;
        do pole = dv_add(a, dv_scale(dv_of(rng_vec3(&g, -1, 1)), hi));
        while (dv_len(dv_cross(dv_unit(dv_sub(t, a)), dv_sub(pole, a))) < 0.2 * hi);

        sw_ik_two_bone_job job = two_bone_of(&r, vec_of(t));
        job.pole_mode = SW_IK_POLE_POINT;
        job.pole = vec_of(pole);
        job.tolerance = 1e-4f;
        sw_ik_two_bone_result res = solve(&job);
        rig_update(&r);
        check_only_turned(&before, &r, r.start, r.mid);

        const dv a2 = pos(r.world, r.start), b2 = pos(r.world, r.mid), c2 = pos(r.world, r.end);
        const double reach = dv_len(dv_sub(c2, t));
        const double length = fmax(fabs(dv_len(dv_sub(b2, a2)) - l1), fabs(dv_len(dv_sub(c2, b2)) - l2));
        const dv normal = dv_unit(dv_cross(dv_sub(t, a), dv_sub(pole, a)));
        const double plane = fabs(dv_dot(dv_sub(b2, a2), normal));
        /* The knee's offset from the line start → target points to the pole's side. */
        const dv u = dv_unit(dv_sub(t, a));
        const dv knee = dv_sub(dv_sub(b2, a2), dv_scale(u, dv_dot(dv_sub(b2, a2), u)));
        const dv side = dv_sub(dv_sub(pole, a), dv_scale(u, dv_dot(dv_sub(pole, a), u)));
        if (dv_len(knee) > 1e-3 * hi) SW_CHECK(dv_dot(knee, side) > 0.0);
        SW_CHECK(reach <= 1e-4);
        SW_CHECK(length <= 1e-5);
        SW_CHECK(plane <= 1e-4);
        SW_CHECK(res.reached);
        SW_CHECK_NEAR(res.distance, reach, 1e-5);
        SW_CHECK(dv_len(dv_sub(a2, a)) <= 1e-6 * (1.0 + dv_len(a))); /* the start joint does not move */
        if (reach > worst_reach) worst_reach = reach, worst_case = n;
        worst_length = fmax(worst_length, length);
        worst_plane = fmax(worst_plane, plane);
        cases++;
    }
    fprintf(stderr, "  %d legs: worst |end - target| %.2e (case %d), bone length change %.2e, knee off pole plane %.2e\n",
            cases, worst_reach, worst_case, worst_length, worst_plane);
}

/* Without a pole the knee keeps bending about its own axis: a target in
   the current plane of (start, mid, end) leaves the knee in that plane,
   bent the same way. */
static void test_two_bone_keeps_bend_plane(void) {
    rng g = {0xbe11dull};
    for (int n = 0; n < 300; n++) {
        rig r;
        random_leg(&g, &r, n % 2 == 0, false, NULL);
        const dv a = pos(r.world, r.start), b = pos(r.world, r.mid), c = pos(r.world, r.end);
        const double l1 = dv_len(dv_sub(b, a)), l2 = dv_len(dv_sub(c, b));
        const dv hinge = dv_cross(dv_sub(a, b), dv_sub(c, b));
        if (dv_len(hinge) < 0.05 * l1 * l2) continue; /* nearly straight: no plane to keep */
        const dv n_hat = dv_unit(hinge);
        /* A direction in the plane, at a random angle from start → end. */
        const dv e1 = dv_unit(dv_sub(c, a)), e2 = dv_cross(n_hat, e1);
        const double phi = rng_range(&g, -SW_PI, SW_PI);
        const double d = fabs(l1 - l2) + (l1 + l2 - fabs(l1 - l2)) * rng_range(&g, 0.05, 0.95);
        const dv t = dv_add(a, dv_scale(dv_add(dv_scale(e1, cos(phi)), dv_scale(e2, sin(phi))), d));
        sw_ik_two_bone_job job = two_bone_of(&r, vec_of(t));
        solve(&job);
        rig_update(&r);
        const dv b2 = pos(r.world, r.mid), c2 = pos(r.world, r.end);
        SW_CHECK(dv_len(dv_sub(c2, t)) <= 1e-4);
        SW_CHECK(fabs(dv_dot(dv_sub(b2, a), n_hat)) <= 1e-4);
        SW_CHECK(dv_dot(dv_cross(dv_sub(a, b2), dv_sub(c2, b2)), n_hat) > 0.0);
    }
}

/* A straight leg along −Y (hip at y = 1, knee 0.5, ankle 0): a target at
   0.8 from the hip, straight below it, puts the knee 0.3 off the line
   (0.5² = 0.4² + 0.3²): at (0, 0.6, ±0.3) by mid_axis, or towards a pole. */
static void test_two_bone_straight_chain(void) {
    rig base = {0};
    size_t hip = rig_add(&base, -1, trs(sw_vec3_make(0, 1, 0), sw_quat_identity(), uniform(1)));
    size_t knee = rig_add(&base, (int)hip, trs(sw_vec3_make(0, -0.5f, 0), sw_quat_identity(), uniform(1)));
    size_t ankle = rig_add(&base, (int)knee, trs(sw_vec3_make(0, -0.5f, 0), sw_quat_identity(), uniform(1)));
    base.start = (uint32_t)hip, base.mid = (uint32_t)knee, base.end = (uint32_t)ankle;
    rig_update(&base);
    const sw_vec3 target = sw_vec3_make(0, 0.2f, 0);

    struct { sw_ik_pole mode; sw_vec3 pole, axis; double knee_z, knee_x; } cases[] = {
        {SW_IK_POLE_NONE, {0, 0, 0}, {1, 0, 0}, 0.3, 0.0},      /* a positive turn about +X folds: knee forward */
        {SW_IK_POLE_NONE, {0, 0, 0}, {-1, 0, 0}, -0.3, 0.0},
        {SW_IK_POLE_POINT, {0, 0.5f, 2}, {0, 0, 0}, 0.3, 0.0},  /* knee towards the pole point */
        {SW_IK_POLE_DIRECTION, {1, 0, 0}, {1, 0, 0}, 0.0, 0.3}, /* the pole wins over mid_axis */
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        rig r = base;
        sw_ik_two_bone_job job = two_bone_of(&r, target);
        job.pole_mode = cases[k].mode;
        job.pole = cases[k].pole;
        job.mid_axis = cases[k].axis;
        sw_ik_two_bone_result res = solve(&job);
        rig_update(&r);
        const dv kp = pos(r.world, knee), ap = pos(r.world, ankle);
        SW_CHECK_NEAR(kp.x, cases[k].knee_x, 1e-5);
        SW_CHECK_NEAR(kp.y, 0.6, 1e-5);
        SW_CHECK_NEAR(kp.z, cases[k].knee_z, 1e-5);
        SW_CHECK_NEAR(ap.x, 0.0, 1e-5);
        SW_CHECK_NEAR(ap.y, 0.2, 1e-5);
        SW_CHECK_NEAR(ap.z, 0.0, 1e-5);
        SW_CHECK(res.reached);
    }
    /* Without pole or axis it still bends, to some side, and reaches. */
    rig r = base;
    sw_ik_two_bone_job job = two_bone_of(&r, target);
    solve(&job);
    rig_update(&r);
    SW_CHECK(dv_len(dv_sub(pos(r.world, ankle), dv_of(target))) <= 1e-5);
    SW_CHECK_NEAR(dv_len(dv_sub(pos(r.world, knee), dv_make(0, 0.6, 0))), 0.3, 1e-5);
}

/* Out of reach: a straight chain pointing at the target; too close: the
   chain folded to |L1 − L2|, along the line to the target. */
static void test_two_bone_unreachable(void) {
    rng g = {0xfa11ull};
    for (int n = 0; n < 200; n++) {
        rig r;
        random_leg(&g, &r, n % 2 == 1, n % 3 == 0, NULL);
        const dv a = pos(r.world, r.start), b = pos(r.world, r.mid), c = pos(r.world, r.end);
        const double l1 = dv_len(dv_sub(b, a)), l2 = dv_len(dv_sub(c, b));
        const bool far = n % 4 != 0;
        const double d = far ? (l1 + l2) * rng_range(&g, 1.01, 3.0) : fabs(l1 - l2) * rng_range(&g, 0.0, 0.9);
        const dv u = dv_of(random_dir(&g)), t = dv_add(a, dv_scale(u, d));
        sw_ik_two_bone_job job = two_bone_of(&r, vec_of(t));
        job.pole_mode = n % 2 ? SW_IK_POLE_DIRECTION : SW_IK_POLE_NONE;
        job.pole = random_dir(&g);
        sw_ik_two_bone_result res = solve(&job);
        rig_update(&r);
        const dv b2 = pos(r.world, r.mid), c2 = pos(r.world, r.end);
        const double span = far ? l1 + l2 : fabs(l1 - l2);
        SW_CHECK_NEAR(dv_len(dv_sub(c2, a)), span, 2e-5);
        SW_CHECK(!res.reached);
        SW_CHECK_NEAR(res.distance, fabs(d - span), 2e-5);
        if (far) {
            /* Straight: the knee on the segment start → end, the end on the ray to the target. */
            SW_CHECK(dv_len(dv_cross(u, dv_sub(b2, a))) <= 1e-5);
            SW_CHECK(dv_dot(u, dv_sub(b2, a)) > 0.0);
            SW_CHECK(dv_angle(dv_sub(c2, a), u) <= 1e-5);
        } else if (span > 1e-3) {
            SW_CHECK(dv_len(dv_cross(u, dv_sub(c2, a))) <= 2e-5);
            SW_CHECK(dv_dot(u, dv_sub(c2, a)) > 0.0);
        }
    }
}

/* Weight 0 leaves the pose bit for bit; weight 0.5 turns each joint half
   of the full solve's angle, and the end lands between. */
static void test_two_bone_weight(void) {
    rng g = {0x3e16ull};
    for (int n = 0; n < 200; n++) {
        rig r;
        random_leg(&g, &r, n % 2 == 0, n % 7 == 0, NULL);
        const rig before = r;
        const dv a = pos(r.world, r.start);
        const dv t = dv_add(a, dv_scale(dv_of(random_dir(&g)), 1.2 * dv_len(dv_sub(pos(r.world, r.end), a))));
        sw_ik_two_bone_job job = two_bone_of(&r, vec_of(t));
        job.pole_mode = SW_IK_POLE_DIRECTION;
        job.pole = random_dir(&g);
        job.soft = n % 3 == 0 ? 0.1f : 0.0f;

        job.weight = 0.0f;
        sw_ik_two_bone_result none = solve(&job);
        SW_CHECK(memcmp(r.local, before.local, sizeof r.local) == 0);
        SW_CHECK_NEAR(none.distance, dv_len(dv_sub(pos(r.world, r.end), t)), 1e-6);

        rig full = before, half = before;
        job.local = full.local, job.world = full.world, job.weight = 1.0f;
        sw_ik_two_bone_result res_full = solve(&job);
        job.local = half.local, job.world = half.world, job.weight = 0.5f;
        sw_ik_two_bone_result res_half = solve(&job);
        check_only_turned(&before, &half, r.start, r.mid);
        for (int k = 0; k < 2; k++) {
            uint32_t j = k ? r.mid : r.start;
            double whole = quat_angle(before.local[j].rotation, full.local[j].rotation);
            SW_CHECK_NEAR(quat_angle(before.local[j].rotation, half.local[j].rotation), 0.5 * whole, 1e-5);
        }
        rig_update(&half);
        const double d_half = dv_len(dv_sub(pos(half.world, r.end), t));
        SW_CHECK_NEAR(res_half.distance, d_half, 1e-5);
        SW_CHECK(res_full.distance <= d_half + 1e-6 || res_full.distance <= none.distance + 1e-6);
    }
}

/* The soft reach curve against its formula, worked out here:
   r = d up to s = (1 − soft)L, then s + δ(1 − e^(−(d − s)/δ)). */
static void test_soft_reach_curve(void) {
    const float lengths[] = {0.9f, 2.0f, 90.0f};
    const float softs[] = {0.0f, 0.05f, 0.2f, 0.5f};
    for (size_t li = 0; li < 3; li++) {
        for (size_t si = 0; si < 4; si++) {
            const double len = lengths[li], soft = softs[si], s = (1.0 - soft) * len, zone = soft * len;
            float previous = -1.0f;
            for (int k = 0; k <= 3000; k++) {
                const double d = len * 2.0 * k / 3000.0;
                const double expect = soft == 0.0 ? fmin(d, len) : d <= s ? d : s + zone * (1.0 - exp(-(d - s) / zone));
                const float got = sw_ik_soft_reach((float)d, (float)len, (float)soft);
                SW_CHECK_NEAR(got, expect, 2e-7 * len);
                SW_CHECK(got >= previous); /* monotone */
                if (soft > 0.0 && d <= len * 1.3) SW_CHECK(got < len);
                previous = got;
            }
            if (soft > 0.0) {
                /* Slope 1 where the zone starts, (1/e) of the zone short at d = L. */
                const double eps = 1e-4 * len;
                SW_CHECK_NEAR(sw_ik_soft_reach((float)(s + eps), (float)len, (float)soft) - s, eps, 1e-6 * len);
                SW_CHECK_NEAR(sw_ik_soft_reach((float)len, (float)len, (float)soft), len - zone / exp(1.0), 1e-6 * len);
            }
        }
    }
    SW_CHECK(sw_ik_soft_reach(-1.0f, 1.0f, 0.1f) == 0.0f);
}

/* Through the job: a target sliding out along a ray, with and without a
   soft zone. Soft: the end's distance from the start follows the curve,
   always increasing, and the knee never turns faster than the target
   moves warrants; hard: the knee snaps in the last steps. */
static double knee_sweep(float soft, bool check) {
    rig base = {0};
    size_t hip = rig_add(&base, -1, trs(sw_vec3_make(0, 1, 0), sw_quat_identity(), uniform(1)));
    size_t knee = rig_add(&base, (int)hip, trs(sw_vec3_make(0, -0.45f, 0.02f), sw_quat_identity(), uniform(1)));
    size_t ankle = rig_add(&base, (int)knee, trs(sw_vec3_make(0, -0.45f, -0.02f), sw_quat_identity(), uniform(1)));
    base.start = (uint32_t)hip, base.mid = (uint32_t)knee, base.end = (uint32_t)ankle;
    rig_update(&base);
    const dv a = pos(base.world, hip);
    const double l1 = dv_len(dv_sub(pos(base.world, knee), a));
    const double full = 2.0 * l1;
    const dv u = dv_unit(dv_make(0.1, -1, 0.2));
    double previous_reach = 0.0, previous_angle = 0.0, largest_step = 0.0;
    const int steps = 400;
    for (int k = 0; k <= steps; k++) {
        const double d = full * (0.8 + 0.4 * k / steps);
        rig r = base;
        sw_ik_two_bone_job job = two_bone_of(&r, vec_of(dv_add(a, dv_scale(u, d))));
        job.soft = soft;
        solve(&job);
        rig_update(&r);
        const dv b2 = pos(r.world, knee), c2 = pos(r.world, ankle);
        const double reach = dv_len(dv_sub(c2, a));
        const double angle = dv_angle(dv_sub(a, b2), dv_sub(c2, b2));
        if (check) {
            SW_CHECK_NEAR(reach, sw_ik_soft_reach((float)d, (float)full, soft), 2e-6);
            if (k > 0) SW_CHECK(reach > previous_reach);
            SW_CHECK(reach < full);
        }
        if (k > 0) largest_step = fmax(largest_step, fabs(angle - previous_angle));
        previous_reach = reach;
        previous_angle = angle;
    }
    return largest_step;
}

static void test_soft_reach_through_job(void) {
    const double soft_step = knee_sweep(0.1f, true);
    const double hard_step = knee_sweep(0.0f, false);
    fprintf(stderr, "  largest knee step per 0.1%% of reach: soft %.2f deg, hard %.2f deg\n", soft_step / DEG,
            hard_step / DEG);
    SW_CHECK(soft_step < 1.0 * DEG);
    SW_CHECK(hard_step > 4.0 * soft_step);
}

/* Non-uniform scale and shear above the chain: solved in the start's
   rotation frame, the target is reached exactly and the knee lies in the
   pole plane (world bone lengths change under the stretch, local
   translations do not). */
static void test_two_bone_nonuniform_above(void) {
    rng g = {0x5ca1eull};
    double worst = 0.0, worst_plane = 0.0;
    for (int n = 0; n < 300; n++) {
        const sw_vec3 scale = rng_vec3(&g, 0.5, 2.0);
        rig r;
        random_leg_sheared(&g, &r, n % 2 == 0, n % 3 == 0, &scale, n % 4 == 1);
        const rig before = r;
        const dv a = pos(r.world, r.start), b = pos(r.world, r.mid), c = pos(r.world, r.end);
        const double l1 = dv_len(dv_sub(b, a)), l2 = dv_len(dv_sub(c, b));
        /* Reachable whatever the lengths become: within the shortest reach
           any turn of the bones could give, roughly. */
        const double d = fabs(l1 - l2) + (l1 + l2 - fabs(l1 - l2)) * rng_range(&g, 0.35, 0.65);
        const dv t = dv_add(a, dv_scale(dv_unit(dv_sub(c, a)), d));
        const dv t2 = dv_add(t, dv_scale(dv_of(random_dir(&g)), 0.1 * d));
        dv pole;
        do pole = dv_add(a, dv_scale(dv_of(rng_vec3(&g, -1, 1)), l1 + l2));
        while (dv_len(dv_cross(dv_unit(dv_sub(t2, a)), dv_sub(pole, a))) < 0.2 * (l1 + l2));
        sw_ik_two_bone_job job = two_bone_of(&r, vec_of(t2));
        job.pole_mode = SW_IK_POLE_POINT;
        job.pole = vec_of(pole);
        job.tolerance = 1e-4f;
        sw_ik_two_bone_result res = solve(&job);
        rig_update(&r);
        check_only_turned(&before, &r, r.start, r.mid);
        const dv b2 = pos(r.world, r.mid), c2 = pos(r.world, r.end);
        const double miss = dv_len(dv_sub(c2, t2));
        const double plane = fabs(dv_dot(dv_sub(b2, a), dv_unit(dv_cross(dv_sub(t2, a), dv_sub(pole, a)))));
        if (res.reached) { /* the stretch may shorten the chain out of reach: then it is straight */
            SW_CHECK(miss <= 1e-4);
            worst = fmax(worst, miss);
        } else {
            SW_CHECK(dv_angle(dv_sub(c2, a), dv_sub(t2, a)) <= 1e-5);
        }
        SW_CHECK(plane <= 1e-4);
        SW_CHECK_NEAR(res.distance, miss, 1e-5);
        worst_plane = fmax(worst_plane, plane);
    }
    fprintf(stderr, "  300 legs under stretched / sheared parents: worst miss %.2e, knee off pole plane %.2e\n", worst,
            worst_plane);
}

/* Non-uniform scale on the start joint itself skews the mid joint's frame:
   the mid's change is approximate and the job solves again from its own
   result. The test reports how close that gets and checks that the
   distance the job reports is the one local→model then gives. */
static void test_two_bone_nonuniform_start(void) {
    rng g = {0x5ca1e2ull};
    double worst = 0.0, worst_report = 0.0;
    int reached = 0, cases = 0;
    for (int n = 0; n < 200; n++) {
        rig r;
        random_leg(&g, &r, false, false, NULL);
        r.local[r.start].scale = sw_vec3_make(1.2f, 1.0f, 0.85f);
        rig_update(&r);
        const dv a = pos(r.world, r.start), b = pos(r.world, r.mid), c = pos(r.world, r.end);
        const double l1 = dv_len(dv_sub(b, a)), l2 = dv_len(dv_sub(c, b));
        const double lo = fabs(l1 - l2), hi = l1 + l2;
        const dv t = dv_add(a, dv_scale(dv_of(random_dir(&g)), lo + (hi - lo) * rng_range(&g, 0.2, 0.8)));
        sw_ik_two_bone_job job = two_bone_of(&r, vec_of(t));
        job.tolerance = 1e-4f;
        sw_ik_two_bone_result res = solve(&job);
        rig_update(&r);
        const double miss = dv_len(dv_sub(pos(r.world, r.end), t));
        worst = fmax(worst, miss / hi);
        worst_report = fmax(worst_report, fabs(miss - res.distance));
        reached += res.reached;
        cases++;
        SW_CHECK(miss < 0.02 * hi); /* close, not exact (0.7 % measured) */
        if (fabs(miss - 1e-4) > 1e-6) SW_CHECK(res.reached == (miss <= 1e-4)); /* the flag tells the truth */
    }
    fprintf(stderr, "  start scale (1.2, 1, 0.85): %d of %d reached within 1e-4, worst miss %.2e of the reach, "
                    "reported distance off by %.1e at most\n",
            reached, cases, worst, worst_report);
    SW_CHECK(worst_report <= 1e-5);
    SW_CHECK(reached >= 180);
}

/* ---- aim -------------------------------------------------------------------------------------- */

static sw_ik_aim_result aim(const sw_ik_aim_job* job) {
    sw_diag diag;
    sw_result res = sw_ik_aim_job_validate(job, &diag);
    if (res != SW_OK) fprintf(stderr, "  %s\n", diag.message);
    SW_CHECK_EQ_INT(res, SW_OK);
    sw_ik_aim_result out = {0.0f, false};
    if (res == SW_OK) out = sw_ik_aim_job_run(job);
    return out;
}

static sw_ik_aim_job aim_of(rig* r, const uint32_t* joints, size_t count, sw_vec3 target) {
    sw_ik_aim_job job;
    memset(&job, 0, sizeof job);
    job.local = r->local, job.world = r->world, job.node_count = r->count;
    job.joints = joints, job.joint_count = count;
    job.target = target;
    job.weight = 1.0f;
    return job;
}

/* After an aim: forward on the target, up in the plane of (forward, world_up) on its side. */
static void check_aimed(const rig* r, uint32_t head, sw_vec3 forward, sw_vec3 up, sw_vec3 world_up, dv target,
                        double* worst_angle, double* worst_plane) {
    const dv f = dv_unit(dir(r->world, head, forward)), u = dv_unit(dir(r->world, head, up));
    const dv to = dv_unit(dv_sub(target, pos(r->world, head))), wu = dv_unit(dv_of(world_up));
    const double angle = dv_angle(f, to);
    const double plane = fabs(dv_dot(u, dv_unit(dv_cross(f, wu))));
    const dv wu_perp = dv_sub(wu, dv_scale(f, dv_dot(wu, f)));
    SW_CHECK(angle <= 1e-4);
    SW_CHECK(plane <= 1e-4);
    SW_CHECK(dv_dot(u, wu_perp) > 0.0);
    *worst_angle = fmax(*worst_angle, angle);
    *worst_plane = fmax(*worst_plane, plane);
}

static void test_aim_single_random(void) {
    rng g = {0xa1a1ull};
    double worst_angle = 0.0, worst_plane = 0.0;
    for (int n = 0; n < 500; n++) {
        rig r = {0};
        sw_vec3 scale = uniform(rng_range(&g, 0.3, 3.0));
        if (n % 4 == 1) scale.y = -scale.y; /* mirrored */
        if (n % 4 == 3) scale = rng_vec3(&g, 0.4, 2.5); /* stretched, and sheared by the node below */
        size_t root = rig_add(&r, -1, trs(rng_vec3(&g, -1, 1), rng_quat(&g), scale));
        root = rig_add(&r, (int)root, trs(rng_vec3(&g, -0.3, 0.3), rng_quat(&g), uniform(1)));
        /* The head's own scale may be non-uniform: forward and up are directions in its space. */
        sw_vec3 own = n % 3 == 2 ? rng_vec3(&g, 0.6, 1.5) : uniform(1.0f);
        uint32_t head = (uint32_t)rig_add(&r, (int)root, trs(rng_vec3(&g, -0.5, 0.5), rng_quat(&g), own));
        rig_add(&r, (int)head, trs(sw_vec3_make(0, 0.2f, 0), sw_quat_identity(), uniform(1)));
        rig_update(&r);
        const rig before = r;
        sw_vec3 forward = random_dir(&g), up = random_dir(&g), world_up = random_dir(&g);
        while (sw_vec3_length(sw_vec3_cross(forward, up)) < 0.2f) up = random_dir(&g);
        dv target;
        do target = dv_add(pos(r.world, head), dv_scale(dv_of(random_dir(&g)), rng_range(&g, 0.3, 5.0)));
        while (dv_angle(dv_sub(target, pos(r.world, head)), dv_of(world_up)) < 0.05 ||
               dv_angle(dv_sub(target, pos(r.world, head)), dv_of(world_up)) > SW_PI - 0.05);
        sw_ik_aim_job job = aim_of(&r, &head, 1, vec_of(target));
        job.forward = forward, job.up = up, job.world_up = world_up;
        sw_ik_aim_result res = aim(&job);
        rig_update(&r);
        for (size_t i = 0; i < r.count; i++) {
            if (i == head) {
                SW_CHECK(memcmp(&before.local[i].translation, &r.local[i].translation, sizeof(sw_vec3)) == 0);
                SW_CHECK(memcmp(&before.local[i].scale, &r.local[i].scale, sizeof(sw_vec3)) == 0);
            } else {
                SW_CHECK(same_transform(&before.local[i], &r.local[i]));
            }
        }
        check_aimed(&r, head, forward, up, world_up, target, &worst_angle, &worst_plane);
        SW_CHECK(res.reached);
        SW_CHECK(res.angle <= 1e-4f);
    }
    fprintf(stderr, "  500 joints (a quarter under stretch and shear): worst forward angle %.2e rad, up off its plane %.2e\n", worst_angle, worst_plane);
}

/* Defaults: forward +Z, up +Y, world_up +Y. A joint at the origin facing
   +Z aims at (1, 0, 1): a 45° turn about +Y, no roll. */
static void test_aim_defaults(void) {
    rig r = {0};
    uint32_t head = (uint32_t)rig_add(&r, -1, trs(sw_vec3_make(0, 0, 0), sw_quat_identity(), uniform(1)));
    rig_update(&r);
    sw_ik_aim_job job = aim_of(&r, &head, 1, sw_vec3_make(1, 0, 1));
    sw_ik_aim_result res = aim(&job);
    const sw_quat q = r.local[head].rotation;
    SW_CHECK_NEAR(q.x, 0.0, 1e-7);
    SW_CHECK_NEAR(q.y, sin(22.5 * DEG), 1e-7);
    SW_CHECK_NEAR(q.z, 0.0, 1e-7);
    SW_CHECK_NEAR(q.w, cos(22.5 * DEG), 1e-7);
    SW_CHECK(res.reached);
    /* A target at the joint: nothing to aim at, nothing changes. */
    rig_update(&r);
    const rig before = r;
    job.target = sw_vec3_make(0, 0, 0);
    res = aim(&job);
    SW_CHECK(!res.reached);
    SW_CHECK(memcmp(before.local, r.local, sizeof r.local) == 0);
    /* Straight up along world_up: the roll is free, the forward still aims. */
    job.target = sw_vec3_make(0, 3, 0);
    res = aim(&job);
    rig_update(&r);
    SW_CHECK(dv_angle(dir(r.world, head, sw_vec3_make(0, 0, 1)), dv_make(0, 1, 0)) <= 1e-6);
    SW_CHECK(res.reached);
}

/* A vertical spine → neck → head, all facing +Z: a target level with the
   head at yaw 80° turns about the vertical line every joint sits on, so
   the shares 20/30/50 % are exactly 16°, 24° and 40° of yaw. */
static void test_aim_chain_shares(void) {
    rig r = {0};
    size_t hips = rig_add(&r, -1, trs(sw_vec3_make(0.3f, 1.0f, -0.2f), sw_quat_identity(), uniform(1)));
    uint32_t joints[3];
    joints[0] = (uint32_t)rig_add(&r, (int)hips, trs(sw_vec3_make(0, 0.1f, 0), sw_quat_identity(), uniform(1)));
    joints[1] = (uint32_t)rig_add(&r, (int)joints[0], trs(sw_vec3_make(0, 0.5f, 0), sw_quat_identity(), uniform(1)));
    joints[2] = (uint32_t)rig_add(&r, (int)joints[1], trs(sw_vec3_make(0, 0.2f, 0), sw_quat_identity(), uniform(1)));
    rig_update(&r);
    const dv head = pos(r.world, joints[2]);
    const dv target = dv_add(head, dv_make(2.0 * sin(80 * DEG), 0, 2.0 * cos(80 * DEG)));
    const float shares[3] = {0.2f, 0.3f, 0.5f};
    float fractions[3];
    sw_ik_aim_fractions_from_shares(fractions, shares, 3);
    SW_CHECK_NEAR(fractions[0], 0.2, 1e-7);
    SW_CHECK_NEAR(fractions[1], 0.375, 1e-7);
    SW_CHECK_NEAR(fractions[2], 1.0, 0.0);
    sw_ik_aim_job job = aim_of(&r, joints, 3, vec_of(target));
    job.joint_weights = fractions;
    sw_ik_aim_result res = aim(&job);
    const double yaw[3] = {16, 24, 40};
    for (int k = 0; k < 3; k++) {
        const sw_quat q = r.local[joints[k]].rotation;
        SW_CHECK_NEAR(q.x, 0.0, 1e-6);
        SW_CHECK_NEAR(q.y, sin(0.5 * yaw[k] * DEG), 1e-6);
        SW_CHECK_NEAR(q.z, 0.0, 1e-6);
        SW_CHECK_NEAR(q.w, cos(0.5 * yaw[k] * DEG), 1e-6);
    }
    rig_update(&r);
    double worst_angle = 0.0, worst_plane = 0.0;
    check_aimed(&r, joints[2], sw_vec3_make(0, 0, 1), sw_vec3_make(0, 1, 0), sw_vec3_make(0, 1, 0), target,
                &worst_angle, &worst_plane);
    SW_CHECK(res.reached);
}

/* Random chains of 2..4 joints with offsets and rotations, random shares
   that sum to 1: the chain ends fully aimed, every joint with a share
   turned, and the helper's fractions, aliased in place, match. */
static void test_aim_chain_random(void) {
    rng g = {0xc4a1ull};
    double worst_angle = 0.0, worst_plane = 0.0;
    for (int n = 0; n < 300; n++) {
        rig r = {0};
        size_t parent = rig_add(&r, -1, trs(rng_vec3(&g, -1, 1), rng_quat(&g), uniform(rng_range(&g, 0.5, 2.0))));
        const size_t count = 2 + (size_t)(n % 3);
        uint32_t joints[4];
        for (size_t k = 0; k < count; k++) {
            if (k > 0 && n % 2) /* a node between chain joints */
                parent = rig_add(&r, (int)parent, trs(rng_vec3(&g, -0.1, 0.1), rng_quat(&g), uniform(1)));
            parent = rig_add(&r, (int)parent, trs(rng_vec3(&g, -0.3, 0.3), rng_quat(&g), uniform(1)));
            joints[k] = (uint32_t)parent;
        }
        rig_update(&r);
        const rig before = r;
        float weights[4], sum = 0.0f;
        for (size_t k = 0; k < count; k++) sum += weights[k] = rng_range(&g, 0.1, 1.0);
        for (size_t k = 0; k < count; k++) weights[k] /= sum;
        sw_ik_aim_fractions_from_shares(weights, weights, count); /* in place */
        SW_CHECK(weights[count - 1] == 1.0f);
        const uint32_t head = joints[count - 1];
        dv target;
        do target = dv_add(pos(r.world, head), dv_scale(dv_of(random_dir(&g)), rng_range(&g, 1.0, 4.0)));
        while (fabs(dv_unit(dv_sub(target, pos(r.world, head))).y) > 0.95);
        sw_ik_aim_job job = aim_of(&r, joints, count, vec_of(target));
        job.joint_weights = weights;
        job.forward = sw_vec3_make(0, 0, 1);
        job.up = sw_vec3_make(0, 1, 0);
        sw_ik_aim_result res = aim(&job);
        rig_update(&r);
        check_aimed(&r, head, job.forward, job.up, sw_vec3_make(0, 1, 0), target, &worst_angle, &worst_plane);
        SW_CHECK(res.reached);
        for (size_t k = 0; k < count; k++)
            SW_CHECK(quat_angle(before.local[joints[k]].rotation, r.local[joints[k]].rotation) > 1e-4);
        for (size_t i = 0; i < r.count; i++) {
            bool in_chain = false;
            for (size_t k = 0; k < count; k++) in_chain |= joints[k] == i;
            if (!in_chain) SW_CHECK(same_transform(&before.local[i], &r.local[i]));
        }
    }
    fprintf(stderr, "  300 chains: worst forward angle %.2e rad, up off its plane %.2e\n", worst_angle, worst_plane);
}

/* Weight 0: bit for bit; weight 0.5: every joint turns half of what it
   turns at weight 1 for a single joint, and the aim lands in between. */
static void test_aim_weight(void) {
    rng g = {0x3a1full};
    for (int n = 0; n < 100; n++) {
        rig r = {0};
        size_t root = rig_add(&r, -1, trs(rng_vec3(&g, -1, 1), rng_quat(&g), uniform(rng_range(&g, 0.5, 2))));
        uint32_t joints[2];
        joints[0] = (uint32_t)rig_add(&r, (int)root, trs(rng_vec3(&g, -0.3, 0.3), rng_quat(&g), uniform(1)));
        joints[1] = (uint32_t)rig_add(&r, (int)joints[0], trs(rng_vec3(&g, -0.3, 0.3), rng_quat(&g), uniform(1)));
        rig_update(&r);
        const rig before = r;
        const float fractions[2] = {0.4f, 1.0f};
        const sw_vec3 target = vec_of(dv_add(pos(r.world, joints[1]), dv_scale(dv_of(random_dir(&g)), 2.0)));
        sw_ik_aim_job job = aim_of(&r, joints, 2, target);
        job.joint_weights = fractions;
        job.weight = 0.0f;
        aim(&job);
        SW_CHECK(memcmp(before.local, r.local, sizeof r.local) == 0);

        rig full = before, half = before;
        job.local = full.local, job.world = full.world, job.weight = 1.0f, job.joint_count = 1;
        job.joints = &joints[1];
        sw_ik_aim_result res_full = aim(&job);
        job.local = half.local, job.world = half.world, job.weight = 0.5f;
        sw_ik_aim_result res_half = aim(&job);
        const double whole = quat_angle(before.local[joints[1]].rotation, full.local[joints[1]].rotation);
        SW_CHECK_NEAR(quat_angle(before.local[joints[1]].rotation, half.local[joints[1]].rotation), 0.5 * whole, 1e-5);
        rig_update(&half);
        const dv f = dv_unit(dir(half.world, joints[1], sw_vec3_make(0, 0, 1)));
        const double angle = dv_angle(f, dv_sub(dv_of(target), pos(half.world, joints[1])));
        SW_CHECK_NEAR(res_half.angle, angle, 1e-5);
        const dv f0 = dv_unit(dir(before.world, joints[1], sw_vec3_make(0, 0, 1)));
        const double angle0 = dv_angle(f0, dv_sub(dv_of(target), pos(before.world, joints[1])));
        SW_CHECK(angle <= angle0 + 1e-6 && angle >= res_full.angle);
    }
}

static void test_fractions_from_shares(void) {
    float out[4];
    const float a[4] = {0.25f, 0.25f, 0.25f, 0.25f};
    sw_ik_aim_fractions_from_shares(out, a, 4);
    SW_CHECK_NEAR(out[0], 0.25, 1e-7);
    SW_CHECK_NEAR(out[1], 1.0 / 3.0, 1e-7);
    SW_CHECK_NEAR(out[2], 0.5, 1e-7);
    SW_CHECK(out[3] == 1.0f);
    const float b[3] = {0.0f, 0.0f, 0.0f}; /* nothing before the last joint */
    sw_ik_aim_fractions_from_shares(out, b, 3);
    SW_CHECK(out[0] == 0.0f && out[1] == 0.0f && out[2] == 1.0f);
    const float c[3] = {2.0f, 0.0f, 0.0f}; /* everything on the first */
    sw_ik_aim_fractions_from_shares(out, c, 3);
    SW_CHECK(out[0] == 1.0f && out[1] == 0.0f && out[2] == 1.0f);
}

/* ---- a loaded model through the pose API -------------------------------------------------------- */

static void* bind_pose(const sw_model* model, sw_pose* pose) {
    sw_pose_sizes sizes = sw_pose_sizes_of(model);
    void* memory = aligned_alloc(16, (sw_pose_memory_size(&sizes) + 15) / 16 * 16);
    SW_CHECK(memory != NULL);
    if (memory) sw_pose_bind(pose, &sizes, memory);
    return memory;
}

static int find_node(const sw_model* model, const char* name) {
    for (size_t i = 0; i < model->node_count; i++)
        if (model->nodes[i].name && strcmp(model->nodes[i].name, name) == 0) return (int)i;
    return -1;
}

/* The test data folder: SW_TEST_DATA_DIR when the build defines it, else
   found from this file's path (…/tests/anim/test_ik.c → …/tests/data). */
static void data_path(char* out, size_t size, const char* relative) {
#ifdef SW_TEST_DATA_DIR
    snprintf(out, size, "%s/%s", SW_TEST_DATA_DIR, relative);
#else
    const char* file = __FILE__;
    const char* tail = strstr(file, "anim/test_ik.c");
    int prefix = tail ? (int)(tail - file) : 0;
    snprintf(out, size, "%.*sdata/%s", prefix, file, relative);
#endif
}

/* pose_chain.gltf: root at (1, 0, 0) turned 90° about Z, tip 1 above it
   (world origin), `scaled` 3 along Z from the tip (a matrix node: only
   its position is read). Bones 1 and 3: a target 2.69 from the root is
   reached, through sw_pose_evaluate, the job on pose.local / pose.world,
   and sw_pose_update. */
static void test_pose_chain_model(void) {
    char path[1024];
    data_path(path, sizeof path, "gltf/pose_chain.gltf");
    FILE* probe = fopen(path, "rb");
    if (!probe) SW_SKIP("tests/data/gltf/pose_chain.gltf not found next to this source file");
    fclose(probe);
    sw_model* model = NULL;
    sw_diag diag;
    sw_result r = sw_gltf_load_file(path, NULL, &model, &diag);
    if (r != SW_OK) fprintf(stderr, "  %s\n", diag.message);
    SW_CHECK_EQ_INT(r, SW_OK);
    if (!model) return;
    sw_pose pose;
    void* memory = bind_pose(model, &pose);
    const int root = find_node(model, "root"), tip = find_node(model, "tip"), end = find_node(model, "scaled");
    SW_CHECK(root >= 0 && tip > root && end > tip);
    if (memory && root >= 0 && tip > root && end > tip) {
        SW_CHECK_EQ_INT(sw_pose_evaluate(model, NULL, 0.0f, false, &pose, &diag), SW_OK);
        const dv a = pos(pose.world, (size_t)root), b = pos(pose.world, (size_t)tip), c = pos(pose.world, (size_t)end);
        SW_CHECK_NEAR(dv_len(dv_sub(b, a)), 1.0, 1e-6);
        SW_CHECK_NEAR(dv_len(dv_sub(c, b)), 3.0, 1e-6);
        const sw_vec3 target = sw_vec3_make(1.0f, 1.0f, 2.5f);
        sw_ik_two_bone_job job;
        memset(&job, 0, sizeof job);
        job.local = pose.local, job.world = pose.world, job.node_count = model->node_count;
        job.start = (uint32_t)root, job.mid = (uint32_t)tip, job.end = (uint32_t)end;
        job.target = target;
        job.pole_mode = SW_IK_POLE_POINT;
        job.pole = sw_vec3_make(2.0f, 0.0f, 0.0f);
        job.weight = 1.0f;
        sw_ik_two_bone_result res = solve(&job);
        sw_pose_update(model, &pose);
        const dv a2 = pos(pose.world, (size_t)root), b2 = pos(pose.world, (size_t)tip), c2 = pos(pose.world, (size_t)end);
        SW_CHECK(dv_len(dv_sub(c2, dv_of(target))) <= 1e-4);
        SW_CHECK_NEAR(dv_len(dv_sub(b2, a2)), 1.0, 1e-5);
        SW_CHECK_NEAR(dv_len(dv_sub(c2, b2)), 3.0, 1e-5);
        const dv normal = dv_unit(dv_cross(dv_sub(dv_of(target), a), dv_sub(dv_of(job.pole), a)));
        SW_CHECK(fabs(dv_dot(dv_sub(b2, a2), normal)) <= 1e-4);
        SW_CHECK(res.reached);
    }
    free(memory);
    sw_model_free(model);
}

/* The arnaud character (a centimetre skeleton under a 0.01, 90° turned
   Hips): the walk at 0.4 s, the left foot lifted 10 cm and moved 5 cm,
   then the head aimed by Spine1 → Spine3 → Neck → Head at a point ahead,
   all through the pose API. */
static void test_arnaud_leg_and_look(void) {
    const char* assets = getenv("SINEW_ASSETS");
    if (!assets || !*assets) SW_SKIP("SINEW_ASSETS is not set: the arnaud leg and look-at case needs it");
    char path[1024];
    snprintf(path, sizeof path, "%s/gltf/pab/arnaud_locomotion.glb", assets);
    sw_model* model = NULL;
    sw_diag diag;
    sw_result r = sw_gltf_load_file(path, NULL, &model, &diag);
    if (r != SW_OK) fprintf(stderr, "  %s\n", diag.message);
    SW_CHECK_EQ_INT(r, SW_OK);
    if (!model) return;
    sw_pose pose;
    void* memory = bind_pose(model, &pose);
    const sw_clip* walk = NULL;
    for (size_t i = 0; i < model->animation_count; i++)
        if (model->animations[i].name && strcmp(model->animations[i].name, "walk") == 0) walk = &model->animations[i];
    const int hip = find_node(model, "LeftUpLeg"), knee = find_node(model, "LeftLeg"), ankle = find_node(model, "LeftFoot");
    const int chain_nodes[4] = {find_node(model, "Spine1"), find_node(model, "Spine3"), find_node(model, "Neck"),
                                find_node(model, "Head")};
    SW_CHECK(walk != NULL);
    SW_CHECK(hip >= 0 && knee > hip && ankle > knee);
    for (int k = 0; k < 4; k++) SW_CHECK(chain_nodes[k] >= 0 && (k == 0 || chain_nodes[k] > chain_nodes[k - 1]));
    if (memory && walk && hip >= 0 && knee > hip && ankle > knee && chain_nodes[0] >= 0 && chain_nodes[3] > 0) {
        SW_CHECK_EQ_INT(sw_pose_evaluate(model, walk, 0.4f, true, &pose, &diag), SW_OK);
        const dv a = pos(pose.world, (size_t)hip), b = pos(pose.world, (size_t)knee), c = pos(pose.world, (size_t)ankle);
        const double l1 = dv_len(dv_sub(b, a)), l2 = dv_len(dv_sub(c, b));
        const dv target = dv_add(c, dv_make(0.03, 0.10, 0.05));
        sw_ik_two_bone_job job;
        memset(&job, 0, sizeof job);
        job.local = pose.local, job.world = pose.world, job.node_count = model->node_count;
        job.start = (uint32_t)hip, job.mid = (uint32_t)knee, job.end = (uint32_t)ankle;
        job.target = vec_of(target);
        job.pole_mode = SW_IK_POLE_POINT;
        job.pole = vec_of(dv_add(b, dv_sub(b, dv_scale(dv_add(a, c), 0.5)))); /* the knee's current side */
        job.weight = 1.0f;
        job.tolerance = 1e-4f;
        sw_ik_two_bone_result res = solve(&job);
        sw_pose_update(model, &pose);
        const dv a2 = pos(pose.world, (size_t)hip), b2 = pos(pose.world, (size_t)knee), c2 = pos(pose.world, (size_t)ankle);
        const double reach = dv_len(dv_sub(c2, target));
        fprintf(stderr, "  arnaud left leg (%.3f + %.3f m): foot %.2e m from its target\n", l1, l2, reach);
        SW_CHECK(reach <= 1e-4);
        SW_CHECK_NEAR(dv_len(dv_sub(b2, a2)), l1, 1e-5);
        SW_CHECK_NEAR(dv_len(dv_sub(c2, b2)), l2, 1e-5);
        SW_CHECK(res.reached);

        /* Look-at: the head's forward and up are whatever of its axes now point
           along world +Z and +Y; the target is 1 m ahead, 0.4 m left, 0.3 m up. */
        const uint32_t head = (uint32_t)chain_nodes[3];
        sw_mat34 inverse;
        SW_CHECK(sw_mat34_inverse(&inverse, &pose.world[head]));
        const sw_vec3 forward = sw_mat34_apply_dir(&inverse, sw_vec3_make(0, 0, 1));
        const sw_vec3 up = sw_mat34_apply_dir(&inverse, sw_vec3_make(0, 1, 0));
        const dv look = dv_add(pos(pose.world, head), dv_make(0.4, 0.3, 1.0));
        uint32_t joints[4];
        for (int k = 0; k < 4; k++) joints[k] = (uint32_t)chain_nodes[k];
        const float shares[4] = {0.15f, 0.15f, 0.3f, 0.4f};
        float fractions[4];
        sw_ik_aim_fractions_from_shares(fractions, shares, 4);
        sw_ik_aim_job look_job;
        memset(&look_job, 0, sizeof look_job);
        look_job.local = pose.local, look_job.world = pose.world, look_job.node_count = model->node_count;
        look_job.joints = joints, look_job.joint_count = 4, look_job.joint_weights = fractions;
        look_job.target = vec_of(look);
        look_job.forward = forward, look_job.up = up;
        look_job.weight = 1.0f;
        sw_ik_aim_result aimed = aim(&look_job);
        sw_pose_update(model, &pose);
        const dv f = dv_unit(dir(pose.world, head, forward)), u = dv_unit(dir(pose.world, head, up));
        const dv to = dv_unit(dv_sub(look, pos(pose.world, head)));
        const double worst_angle = dv_angle(f, to);
        const double worst_plane = fabs(dv_dot(u, dv_unit(dv_cross(f, dv_make(0, 1, 0)))));
        fprintf(stderr, "  arnaud look-at: forward %.2e rad off, up %.2e off its plane\n", worst_angle, worst_plane);
        SW_CHECK(worst_angle <= 1e-4);
        SW_CHECK(worst_plane <= 1e-4);
        SW_CHECK(aimed.reached);
    }
    free(memory);
    sw_model_free(model);
}

int main(void) {
    SW_RUN(test_two_bone_validity);
    SW_RUN(test_aim_validity);
    SW_RUN(test_two_bone_reaches_random);
    SW_RUN(test_two_bone_keeps_bend_plane);
    SW_RUN(test_two_bone_straight_chain);
    SW_RUN(test_two_bone_unreachable);
    SW_RUN(test_two_bone_weight);
    SW_RUN(test_soft_reach_curve);
    SW_RUN(test_soft_reach_through_job);
    SW_RUN(test_two_bone_nonuniform_above);
    SW_RUN(test_two_bone_nonuniform_start);
    SW_RUN(test_aim_single_random);
    SW_RUN(test_aim_defaults);
    SW_RUN(test_aim_chain_shares);
    SW_RUN(test_aim_chain_random);
    SW_RUN(test_aim_weight);
    SW_RUN(test_fractions_from_shares);
    SW_RUN(test_pose_chain_model);
    SW_RUN(test_arnaud_leg_and_look);
    return sw_test_finish();
}
