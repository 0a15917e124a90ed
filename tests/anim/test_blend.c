/* The blend job: validity (every bad input named), then values worked out
   by hand: weighted averages, nlerp of rotations (45° from 0° and 90° at
   50/50), sign alignment of q and −q, masks, the rest pose at zero weight
   and below the threshold, additive layers (translation, rotation about a
   pre-rotated joint, scale) and the additive delta round trip. */
#include <string.h>

#include "harness.h"
#include "test_random.h"
#include "sinew/anim.h"

#define DEG (SW_PI / 180.0)

/* A failure must come with a code, that code in diag, and a message. */
static void check_failure(sw_result got, sw_result expected, const sw_diag* diag) {
    SW_CHECK_EQ_INT(got, expected);
    SW_CHECK_EQ_INT(diag->result, got);
    SW_CHECK(diag->message[0] != '\0');
}

static sw_transform trs(sw_vec3 t, sw_quat r, sw_vec3 s) {
    sw_transform x;
    x.translation = t;
    x.rotation = r;
    x.scale = s;
    return x;
}

static sw_quat about_z(double degrees) {
    return (sw_quat){0.0f, 0.0f, (float)sin(0.5 * degrees * DEG), (float)cos(0.5 * degrees * DEG)};
}

static sw_blend_layer layer_of(const sw_transform* pose, size_t count, float weight) {
    sw_blend_layer l = {0};
    l.pose = pose;
    l.pose_count = count;
    l.weight = weight;
    return l;
}

static void check_vec3(sw_vec3 v, double x, double y, double z, double tol) {
    SW_CHECK_NEAR(v.x, x, tol);
    SW_CHECK_NEAR(v.y, y, tol);
    SW_CHECK_NEAR(v.z, z, tol);
}

/* q equals e up to sign (one rotation), component-wise. */
static void check_rotation(sw_quat q, sw_quat e, double tol) {
    double d = (double)q.x * e.x + (double)q.y * e.y + (double)q.z * e.z + (double)q.w * e.w;
    double sign = d < 0.0 ? -1.0 : 1.0;
    SW_CHECK_NEAR(q.x, sign * e.x, tol);
    SW_CHECK_NEAR(q.y, sign * e.y, tol);
    SW_CHECK_NEAR(q.z, sign * e.z, tol);
    SW_CHECK_NEAR(q.w, sign * e.w, tol);
}

static sw_result run_job(const sw_blend_job* job) {
    sw_result res = sw_blend_job_validate(job, NULL);
    if (res == SW_OK) sw_blend_job_run(job);
    return res;
}

/* ---- validity ----------------------------------------------------------------------- */

static void test_blend_job_validity(void) {
    sw_transform rest[3], a[3], out[3];
    for (int j = 0; j < 3; j++) rest[j] = a[j] = sw_transform_identity();
    float mask[3] = {1, 0, 1};
    sw_blend_layer layers[2] = {layer_of(a, 3, 1.0f), layer_of(a, 3, 0.5f)};
    layers[1].joint_weights = mask;
    layers[1].joint_weight_count = 3;
    sw_blend_layer additive[1] = {layer_of(a, 3, 1.0f)};
    const sw_blend_job ok = {3, rest, layers, 2, additive, 1, 0.0f, out};
    sw_diag diag;
    SW_CHECK_EQ_INT(sw_blend_job_validate(&ok, &diag), SW_OK);
    SW_CHECK_EQ_INT(sw_blend_job_validate(&ok, NULL), SW_OK);

    memset(&diag, 0, sizeof diag);
    check_failure(sw_blend_job_validate(NULL, &diag), SW_ERR_INVALID_ARGUMENT, &diag);

    /* Job-level problems. */
    sw_blend_job job = ok;
    job.joint_count = 0;
    memset(&diag, 0, sizeof diag);
    check_failure(sw_blend_job_validate(&job, &diag), SW_ERR_INVALID_ARGUMENT, &diag);
    job = ok;
    job.joint_count = SW_MAX_JOINTS + 1;
    memset(&diag, 0, sizeof diag);
    check_failure(sw_blend_job_validate(&job, &diag), SW_ERR_INVALID_ARGUMENT, &diag);
    job = ok;
    job.rest_pose = NULL;
    memset(&diag, 0, sizeof diag);
    check_failure(sw_blend_job_validate(&job, &diag), SW_ERR_INVALID_ARGUMENT, &diag);
    job = ok;
    job.out_local = NULL;
    memset(&diag, 0, sizeof diag);
    check_failure(sw_blend_job_validate(&job, &diag), SW_ERR_INVALID_ARGUMENT, &diag);
    job = ok;
    job.layers = NULL;
    memset(&diag, 0, sizeof diag);
    check_failure(sw_blend_job_validate(&job, &diag), SW_ERR_INVALID_ARGUMENT, &diag);
    job = ok;
    job.additive_layers = NULL;
    memset(&diag, 0, sizeof diag);
    check_failure(sw_blend_job_validate(&job, &diag), SW_ERR_INVALID_ARGUMENT, &diag);
    const float bad_thresholds[] = {-0.1f, NAN, INFINITY};
    for (int i = 0; i < 3; i++) {
        job = ok;
        job.threshold = bad_thresholds[i];
        memset(&diag, 0, sizeof diag);
        check_failure(sw_blend_job_validate(&job, &diag), SW_ERR_INVALID_ARGUMENT, &diag);
    }

    /* No layers at all is valid (the rest pose comes out). */
    job = ok;
    job.layers = NULL, job.layer_count = 0, job.additive_layers = NULL, job.additive_layer_count = 0;
    SW_CHECK_EQ_INT(sw_blend_job_validate(&job, NULL), SW_OK);

    /* Layer problems name the layer: diag.index, additive ones after the normal ones. */
    struct {
        int additive;     /* which array: 0 normal (layer 1), 1 additive (layer 0) */
        int what;         /* what to break */
        float value;
        sw_result expect;
    } cases[] = {
        {0, 0, 0, SW_ERR_INVALID_ARGUMENT},        /* no pose */
        {0, 1, 2, SW_ERR_BUFFER_TOO_SMALL},        /* pose_count 2 < 3 joints */
        {0, 2, -1.0f, SW_ERR_INVALID_DATA},        /* negative weight */
        {0, 2, NAN, SW_ERR_INVALID_DATA},          /* NaN weight */
        {0, 2, INFINITY, SW_ERR_INVALID_DATA},     /* infinite weight */
        {0, 3, 2, SW_ERR_BUFFER_TOO_SMALL},        /* mask of 2 for 3 joints */
        {0, 4, -0.5f, SW_ERR_INVALID_DATA},        /* negative mask entry */
        {0, 4, NAN, SW_ERR_INVALID_DATA},          /* NaN mask entry */
        {0, 5, 3, SW_ERR_INVALID_ARGUMENT},        /* mask count without a mask */
        {1, 0, 0, SW_ERR_INVALID_ARGUMENT},
        {1, 1, 1, SW_ERR_BUFFER_TOO_SMALL},
        {1, 2, 1.5f, SW_ERR_INVALID_DATA},         /* additive weight above 1 */
        {1, 2, -0.25f, SW_ERR_INVALID_DATA},
        {1, 4, 1.25f, SW_ERR_INVALID_DATA},        /* additive mask entry above 1 */
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        sw_blend_layer l2[2] = {layers[0], layers[1]};
        sw_blend_layer add2[1] = {additive[0]};
        float mask2[3] = {1, 0, 1};
        sw_blend_layer* l = cases[c].additive ? &add2[0] : &l2[1];
        l->joint_weights = mask2;
        l->joint_weight_count = 3;
        switch (cases[c].what) {
        case 0: l->pose = NULL; break;
        case 1: l->pose_count = (size_t)cases[c].value; break;
        case 2: l->weight = cases[c].value; break;
        case 3: l->joint_weight_count = (size_t)cases[c].value; break;
        case 4: mask2[2] = cases[c].value; break;
        case 5: l->joint_weights = NULL, l->joint_weight_count = (size_t)cases[c].value; break;
        }
        job = ok;
        job.layers = l2;
        job.additive_layers = add2;
        memset(&diag, 0, sizeof diag);
        check_failure(sw_blend_job_validate(&job, &diag), cases[c].expect, &diag);
        SW_CHECK_EQ_INT(diag.index, cases[c].additive ? 2 : 1);
    }
    /* A normal layer may weigh more than 1, and its mask too: only ratios count. */
    job = ok;
    sw_blend_layer heavy[2] = {layers[0], layers[1]};
    float big_mask[3] = {3, 0, 7};
    heavy[0].weight = 40.0f;
    heavy[1].joint_weights = big_mask;
    job.layers = heavy;
    SW_CHECK_EQ_INT(sw_blend_job_validate(&job, NULL), SW_OK);
}

/* ---- normal layers ------------------------------------------------------------------ */

static void test_blend_two_layers_average(void) {
    /* 50/50: translation (0,0,0)/(2,4,−6) → (1,2,−3); scale (1,1,1)/(3,2,0.5)
       → (2,1.5,0.75); 0° and 90° about Z → 45° about Z, exactly the
       bisector for two equal weights. */
    const sw_transform rest[1] = {sw_transform_identity()};
    const sw_transform a[1] = {trs(sw_vec3_make(0, 0, 0), about_z(0), sw_vec3_make(1, 1, 1))};
    const sw_transform b[1] = {trs(sw_vec3_make(2, 4, -6), about_z(90), sw_vec3_make(3, 2, 0.5f))};
    sw_blend_layer layers[2] = {layer_of(a, 1, 0.5f), layer_of(b, 1, 0.5f)};
    sw_transform out[1];
    sw_blend_job job = {1, rest, layers, 2, NULL, 0, 0.0f, out};
    SW_CHECK_EQ_INT(run_job(&job), SW_OK);
    check_vec3(out[0].translation, 1, 2, -3, 1e-7);
    check_vec3(out[0].scale, 2, 1.5, 0.75, 1e-7);
    check_rotation(out[0].rotation, about_z(45), 1e-7);

    /* Only the ratio matters: 1 and 1 or 7 and 7 are 50/50 too. */
    layers[0].weight = layers[1].weight = 7.0f;
    SW_CHECK_EQ_INT(run_job(&job), SW_OK);
    check_vec3(out[0].translation, 1, 2, -3, 1e-6);
    check_rotation(out[0].rotation, about_z(45), 1e-7);

    /* 1/4 and 3/4: translation (1.5, 3, −4.5); the rotation is nlerp:
       normalise(¼·(0,0,0,1) + ¾·(0,0,sin 45°,cos 45°)), an angle of
       2·atan2(¾ sin 45°, ¼ + ¾ cos 45°) = 68.40° (slerp would give 67.5°). */
    layers[0].weight = 1.0f, layers[1].weight = 3.0f;
    SW_CHECK_EQ_INT(run_job(&job), SW_OK);
    check_vec3(out[0].translation, 1.5, 3, -4.5, 1e-6);
    double angle = 2.0 * atan2(0.75 * sin(45 * DEG), 0.25 + 0.75 * cos(45 * DEG)) / DEG;
    SW_CHECK_NEAR(angle, 68.40, 0.01);
    check_rotation(out[0].rotation, about_z(angle), 2e-7);
}

static void test_blend_sign_alignment(void) {
    /* q and −q are one rotation: blended 50/50 they must give q, not a
       zero sum normalised to who knows what. */
    rng r = {0xB1E5};
    const sw_transform rest[1] = {sw_transform_identity()};
    for (int i = 0; i < 100; i++) {
        sw_quat q = rng_quat(&r), nq = {-q.x, -q.y, -q.z, -q.w};
        sw_transform a[1] = {trs(sw_vec3_make(0, 0, 0), q, sw_vec3_make(1, 1, 1))};
        sw_transform b[1] = {trs(sw_vec3_make(0, 0, 0), nq, sw_vec3_make(1, 1, 1))};
        sw_blend_layer layers[3] = {layer_of(a, 1, 0.5f), layer_of(b, 1, 0.5f), layer_of(a, 1, 0.25f)};
        sw_transform out[1];
        sw_blend_job job = {1, rest, layers, 2, NULL, 0, 0.0f, out};
        SW_CHECK_EQ_INT(run_job(&job), SW_OK);
        check_rotation(out[0].rotation, q, 2e-7);
        job.layer_count = 3; /* q, −q, q */
        SW_CHECK_EQ_INT(run_job(&job), SW_OK);
        check_rotation(out[0].rotation, q, 2e-7);
    }
    /* The same with 0° and 90° stored as −(90°): still 45°, the short way. */
    const sw_quat z90 = about_z(90), neg_z90 = {-z90.x, -z90.y, -z90.z, -z90.w};
    sw_transform a[1] = {trs(sw_vec3_make(0, 0, 0), about_z(0), sw_vec3_make(1, 1, 1))};
    sw_transform b[1] = {trs(sw_vec3_make(0, 0, 0), neg_z90, sw_vec3_make(1, 1, 1))};
    sw_blend_layer layers[2] = {layer_of(a, 1, 1.0f), layer_of(b, 1, 1.0f)};
    sw_transform out[1];
    sw_blend_job job = {1, rest, layers, 2, NULL, 0, 0.0f, out};
    SW_CHECK_EQ_INT(run_job(&job), SW_OK);
    check_rotation(out[0].rotation, about_z(45), 1e-7);
}

static void test_blend_masks_select_joints(void) {
    /* Layer A drives joints 0 and 2, layer B joint 1 and half of joint 2;
       joint 3 is masked out of both and gets the rest pose. */
    enum { N = 4 };
    rng r = {0x3A5C};
    sw_transform rest[N], a[N], b[N], out[N];
    for (int j = 0; j < N; j++) {
        rest[j] = rng_transform(&r, 1, 0.5, 2);
        a[j] = rng_transform(&r, 1, 0.5, 2);
        b[j] = rng_transform(&r, 1, 0.5, 2);
    }
    const float mask_a[N] = {1, 0, 1, 0}, mask_b[N] = {0, 1, 1, 0};
    sw_blend_layer layers[2] = {layer_of(a, N, 1.0f), layer_of(b, N, 1.0f)};
    layers[0].joint_weights = mask_a, layers[0].joint_weight_count = N;
    layers[1].joint_weights = mask_b, layers[1].joint_weight_count = N;
    sw_blend_job job = {N, rest, layers, 2, NULL, 0, 0.0f, out};
    SW_CHECK_EQ_INT(run_job(&job), SW_OK);
    /* One layer at weight 1: its translation and scale exactly, its rotation
       to the normalisation's round-off. */
    SW_CHECK(memcmp(&out[0].translation, &a[0].translation, sizeof(sw_vec3)) == 0);
    SW_CHECK(memcmp(&out[0].scale, &a[0].scale, sizeof(sw_vec3)) == 0);
    check_rotation(out[0].rotation, a[0].rotation, 2e-7);
    SW_CHECK(memcmp(&out[1].translation, &b[1].translation, sizeof(sw_vec3)) == 0);
    check_rotation(out[1].rotation, b[1].rotation, 2e-7);
    check_vec3(out[2].translation, 0.5 * ((double)a[2].translation.x + b[2].translation.x),
               0.5 * ((double)a[2].translation.y + b[2].translation.y),
               0.5 * ((double)a[2].translation.z + b[2].translation.z), 1e-6);
    SW_CHECK(memcmp(&out[3], &rest[3], sizeof(sw_transform)) == 0);
    /* Mask entries scale the layer weight: A at 3, B at 1 on joint 2 is ¾/¼. */
    layers[0].weight = 3.0f;
    SW_CHECK_EQ_INT(run_job(&job), SW_OK);
    check_vec3(out[2].translation, 0.75 * a[2].translation.x + 0.25 * b[2].translation.x,
               0.75 * a[2].translation.y + 0.25 * b[2].translation.y,
               0.75 * a[2].translation.z + 0.25 * b[2].translation.z, 1e-6);
}

static void test_blend_rest_pose_and_threshold(void) {
    rng r = {0x7E57};
    enum { N = 3 };
    sw_transform rest[N], a[N], out[N];
    for (int j = 0; j < N; j++) {
        rest[j] = rng_transform(&r, 1, 0.5, 2);
        a[j] = rng_transform(&r, 1, 0.5, 2);
    }
    /* Zero total weight: the rest pose, bit for bit (no layers, or all at 0). */
    sw_blend_layer layers[2] = {layer_of(a, N, 0.0f), layer_of(a, N, 0.0f)};
    sw_blend_job job = {N, rest, layers, 2, NULL, 0, 0.0f, out};
    SW_CHECK_EQ_INT(run_job(&job), SW_OK);
    SW_CHECK(memcmp(out, rest, sizeof out) == 0);
    job.layer_count = 0;
    SW_CHECK_EQ_INT(run_job(&job), SW_OK);
    SW_CHECK(memcmp(out, rest, sizeof out) == 0);

    /* Below the threshold (default 0.1): a layer at 0.04 gets the rest pose
       at 0.06, so translation = 0.4·a + 0.6·rest. At or above it, the layer
       alone. */
    job.layer_count = 1;
    layers[0].weight = 0.04f;
    SW_CHECK_EQ_INT(run_job(&job), SW_OK);
    for (int j = 0; j < N; j++) {
        sw_vec3 e = sw_vec3_add(sw_vec3_scale(a[j].translation, 0.4f), sw_vec3_scale(rest[j].translation, 0.6f));
        check_vec3(out[j].translation, e.x, e.y, e.z, 1e-6);
    }
    layers[0].weight = 0.1f;
    SW_CHECK_EQ_INT(run_job(&job), SW_OK);
    for (int j = 0; j < N; j++) check_vec3(out[j].translation, a[j].translation.x, a[j].translation.y, a[j].translation.z, 1e-6);
    /* A threshold of 0.5 set by the caller: 0.1 of the layer is 1/5 of it. */
    job.threshold = 0.5f;
    SW_CHECK_EQ_INT(run_job(&job), SW_OK);
    for (int j = 0; j < N; j++) {
        sw_vec3 e = sw_vec3_add(sw_vec3_scale(a[j].translation, 0.2f), sw_vec3_scale(rest[j].translation, 0.8f));
        check_vec3(out[j].translation, e.x, e.y, e.z, 1e-6);
    }
    /* Per joint: a mask that zeroes joint 1 leaves exactly its rest pose. */
    job.threshold = 0.0f;
    layers[0].weight = 1.0f;
    const float mask[N] = {1, 0, 1};
    layers[0].joint_weights = mask, layers[0].joint_weight_count = N;
    SW_CHECK_EQ_INT(run_job(&job), SW_OK);
    SW_CHECK(memcmp(&out[1], &rest[1], sizeof(sw_transform)) == 0);
}

/* ---- additive layers ----------------------------------------------------------------- */

static void test_blend_additive_on_top(void) {
    /* Base: translation (1,0,0), 30° about Z, scale 2. Delta: (0,2,0),
       90° about Z, scale 3. At weight 1/2: (1,1,0), 30° + 45° = 75° about
       Z, scale 2·(1 + (3 − 1)/2) = 4. At weight 1: (1,2,0), 120°, 6. */
    const sw_transform rest[1] = {sw_transform_identity()};
    const sw_transform base[1] = {trs(sw_vec3_make(1, 0, 0), about_z(30), sw_vec3_make(2, 2, 2))};
    const sw_transform delta[1] = {trs(sw_vec3_make(0, 2, 0), about_z(90), sw_vec3_make(3, 3, 3))};
    sw_blend_layer layers[1] = {layer_of(base, 1, 1.0f)};
    sw_blend_layer additive[1] = {layer_of(delta, 1, 0.5f)};
    sw_transform out[1];
    sw_blend_job job = {1, rest, layers, 1, additive, 1, 0.0f, out};
    SW_CHECK_EQ_INT(run_job(&job), SW_OK);
    check_vec3(out[0].translation, 1, 1, 0, 1e-7);
    check_rotation(out[0].rotation, about_z(75), 2e-7);
    check_vec3(out[0].scale, 4, 4, 4, 1e-6);
    additive[0].weight = 1.0f;
    SW_CHECK_EQ_INT(run_job(&job), SW_OK);
    check_vec3(out[0].translation, 1, 2, 0, 1e-7);
    check_rotation(out[0].rotation, about_z(120), 2e-7);
    check_vec3(out[0].scale, 6, 6, 6, 1e-6);
    /* Weight 0 changes nothing. */
    additive[0].weight = 0.0f;
    SW_CHECK_EQ_INT(run_job(&job), SW_OK);
    check_rotation(out[0].rotation, about_z(30), 2e-7);
    check_vec3(out[0].scale, 2, 2, 2, 0);

    /* The delta turns in the parent's space, after the base rotation:
       base X90, delta Z90 → Z90·X90, so x̂ → Z90 (X90 x̂) = Z90 x̂ = ŷ and
       ŷ → Z90 (X90 ŷ) = Z90 ẑ = ẑ. */
    const sw_quat x90 = {(float)sin(45 * DEG), 0.0f, 0.0f, (float)cos(45 * DEG)};
    const sw_transform base2[1] = {trs(sw_vec3_make(0, 0, 0), x90, sw_vec3_make(1, 1, 1))};
    layers[0].pose = base2;
    additive[0].weight = 1.0f;
    SW_CHECK_EQ_INT(run_job(&job), SW_OK);
    sw_vec3 x = sw_quat_rotate(out[0].rotation, sw_vec3_make(1, 0, 0));
    sw_vec3 y = sw_quat_rotate(out[0].rotation, sw_vec3_make(0, 1, 0));
    check_vec3(x, 0, 1, 0, 1e-6);
    check_vec3(y, 0, 0, 1, 1e-6);

    /* A delta stored as −q takes the short way from identity all the same. */
    const sw_quat z90 = about_z(90);
    const sw_transform neg_delta[1] = {trs(sw_vec3_make(0, 0, 0), (sw_quat){-z90.x, -z90.y, -z90.z, -z90.w},
                                           sw_vec3_make(1, 1, 1))};
    layers[0].pose = base;
    additive[0].pose = neg_delta;
    additive[0].weight = 0.5f;
    SW_CHECK_EQ_INT(run_job(&job), SW_OK);
    check_rotation(out[0].rotation, about_z(75), 2e-7);
}

static void test_blend_additive_masks_and_order(void) {
    /* Two additive layers on a two-joint pose, the second masked to joint
       1: joint 0 gets 20°, joint 1 gets 20° + 30° about Z. */
    const sw_transform rest[2] = {sw_transform_identity(), sw_transform_identity()};
    const sw_transform d1[2] = {trs(sw_vec3_make(0, 0, 0), about_z(20), sw_vec3_make(1, 1, 1)),
                                trs(sw_vec3_make(0, 0, 0), about_z(20), sw_vec3_make(1, 1, 1))};
    const sw_transform d2[2] = {trs(sw_vec3_make(5, 0, 0), about_z(30), sw_vec3_make(1, 1, 1)),
                                trs(sw_vec3_make(5, 0, 0), about_z(30), sw_vec3_make(1, 1, 1))};
    const float mask[2] = {0, 1};
    sw_blend_layer additive[2] = {layer_of(d1, 2, 1.0f), layer_of(d2, 2, 1.0f)};
    additive[1].joint_weights = mask, additive[1].joint_weight_count = 2;
    sw_transform out[2];
    /* No normal layers: the additive layers go on the rest pose. */
    sw_blend_job job = {2, rest, NULL, 0, additive, 2, 0.0f, out};
    SW_CHECK_EQ_INT(run_job(&job), SW_OK);
    check_rotation(out[0].rotation, about_z(20), 2e-7);
    check_vec3(out[0].translation, 0, 0, 0, 0);
    check_rotation(out[1].rotation, about_z(50), 2e-7);
    check_vec3(out[1].translation, 5, 0, 0, 0);
}

static void test_blend_additive_delta_round_trip(void) {
    /* delta(pose, reference) added at weight 1 to the reference gives the
       pose; in place (out = the reference layer's own pose array). */
    enum { N = 16 };
    rng r = {0xADD5};
    sw_transform pose[N], ref[N], delta[N], out[N];
    for (int j = 0; j < N; j++) {
        pose[j] = rng_transform(&r, 2, 0.5, 2);
        ref[j] = rng_transform(&r, 2, 0.5, 2);
    }
    sw_additive_delta(delta, pose, ref, N);
    memcpy(out, ref, sizeof out);
    sw_blend_layer layers[1] = {layer_of(out, N, 1.0f)};
    sw_blend_layer additive[1] = {layer_of(delta, N, 1.0f)};
    sw_blend_job job = {N, ref, layers, 1, additive, 1, 0.0f, out};
    SW_CHECK_EQ_INT(run_job(&job), SW_OK);
    for (int j = 0; j < N; j++) {
        check_vec3(out[j].translation, pose[j].translation.x, pose[j].translation.y, pose[j].translation.z, 1e-6);
        check_rotation(out[j].rotation, pose[j].rotation, 1e-6);
        check_vec3(out[j].scale, pose[j].scale.x, pose[j].scale.y, pose[j].scale.z, 1e-6);
    }
    /* The delta of a pose against itself is the identity. */
    sw_additive_delta(delta, pose, pose, N);
    for (int j = 0; j < N; j++) {
        check_vec3(delta[j].translation, 0, 0, 0, 0);
        check_rotation(delta[j].rotation, sw_quat_identity(), 1e-7);
        check_vec3(delta[j].scale, 1, 1, 1, 0);
    }
}

static void test_blend_in_place_and_random_vs_reference(void) {
    /* Three random layers with random masks against a straightforward double
       reference of the documented formulas; then the same job writing over
       its first layer. */
    enum { N = 20 };
    rng r = {0x5EED};
    for (int iter = 0; iter < 50; iter++) {
        sw_transform rest[N], p[3][N], out[N];
        float masks[3][N];
        for (int j = 0; j < N; j++) {
            rest[j] = rng_transform(&r, 1, 0.5, 2);
            for (int l = 0; l < 3; l++) {
                p[l][j] = rng_transform(&r, 1, 0.5, 2);
                masks[l][j] = rng_below(&r, 4) == 0 ? 0.0f : rng_range(&r, 0, 1);
            }
        }
        sw_blend_layer layers[3];
        for (int l = 0; l < 3; l++) {
            layers[l] = layer_of(p[l], N, rng_range(&r, 0, 2));
            if (l > 0) layers[l].joint_weights = masks[l], layers[l].joint_weight_count = N;
        }
        sw_blend_job job = {N, rest, layers, 3, NULL, 0, 0.0f, out};
        SW_CHECK_EQ_INT(run_job(&job), SW_OK);
        for (int j = 0; j < N; j++) {
            double t[3] = {0, 0, 0}, q[4] = {0, 0, 0, 0}, total = 0;
            const sw_transform* src[4] = {&p[0][j], &p[1][j], &p[2][j], &rest[j]};
            double w[4];
            for (int l = 0; l < 3; l++) w[l] = (double)layers[l].weight * (l > 0 ? masks[l][j] : 1.0f);
            w[3] = 0.0;
            double sum = w[0] + w[1] + w[2];
            if (sum > 0.0 && sum < 0.1) w[3] = 0.1 - sum;
            for (int l = 0; l < 4; l++) {
                if (!(w[l] > 0.0)) continue;
                const sw_quat x = src[l]->rotation;
                double d = q[0] * x.x + q[1] * x.y + q[2] * x.z + q[3] * x.w;
                double ws = d < 0.0 ? -w[l] : w[l];
                q[0] += ws * x.x, q[1] += ws * x.y, q[2] += ws * x.z, q[3] += ws * x.w;
                t[0] += w[l] * src[l]->translation.x, t[1] += w[l] * src[l]->translation.y,
                    t[2] += w[l] * src[l]->translation.z;
                total += w[l];
            }
            if (total == 0.0) {
                SW_CHECK(memcmp(&out[j], &rest[j], sizeof(sw_transform)) == 0);
                continue;
            }
            double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
            check_vec3(out[j].translation, t[0] / total, t[1] / total, t[2] / total, 2e-6);
            check_rotation(out[j].rotation,
                           (sw_quat){(float)(q[0] / n), (float)(q[1] / n), (float)(q[2] / n), (float)(q[3] / n)},
                           1e-6);
        }
        /* In place over layer 0's pose: the same numbers. */
        sw_transform first_out[N];
        memcpy(first_out, out, sizeof out);
        job.out_local = p[0];
        SW_CHECK_EQ_INT(run_job(&job), SW_OK);
        SW_CHECK(memcmp(p[0], first_out, sizeof first_out) == 0);
    }
}

int main(void) {
    SW_RUN(test_blend_job_validity);
    SW_RUN(test_blend_two_layers_average);
    SW_RUN(test_blend_sign_alignment);
    SW_RUN(test_blend_masks_select_joints);
    SW_RUN(test_blend_rest_pose_and_threshold);
    SW_RUN(test_blend_additive_on_top);
    SW_RUN(test_blend_additive_masks_and_order);
    SW_RUN(test_blend_additive_delta_round_trip);
    SW_RUN(test_blend_in_place_and_random_vs_reference);
    return sw_test_finish();
}
