/* Root motion (sinew/root_motion.h) against numbers worked out by hand.

   The synthetic clip: over 2 s the root (node 0) moves +1 m/s along X,
   bobs in Y (1.0 → 1.1 → 1.0) and turns 90° about +Y (45° per second),
   LINEAR keys at 0, 1, 2 s; node 1 carries wild tracks that must be
   ignored. So at clip time u: x = u, yaw = u·45°, and one loop moves 2 m
   and turns 90°.

   Frame of a delta: the character's frame at the start of the step. A
   turn θ about +Y maps (x, 0, 0) to (x cos θ, 0, −x sin θ); expressed in a
   frame turned by θ, a clip-frame vector (x, 0, 0) reads
   (x cos θ, 0, x sin θ). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "test_random.h"

#include "sinew/pose.h"
#include "sinew/gltf.h"
#include "sinew/root_motion.h"

#define DEG (SW_PI / 180.0)
#define TOL 1e-5

/* ---- the synthetic clip ---------------------------------------------------- */

static const float k_times[3] = {0.0f, 1.0f, 2.0f};
static float g_root_t[9], g_root_r[12], g_child_t[9], g_child_r[12];
static sw_track g_tracks[4];
static sw_clip g_clip;

static void yaw_quat(float* out, double degrees) {
    out[0] = 0.0f;
    out[1] = (float)sin(0.5 * degrees * DEG);
    out[2] = 0.0f;
    out[3] = (float)cos(0.5 * degrees * DEG);
}

static sw_track track(uint32_t target, sw_track_path path, const float* values) {
    sw_track t;
    memset(&t, 0, sizeof t);
    t.target = target;
    t.path = path;
    t.interpolation = SW_INTERP_LINEAR;
    t.component_count = path == SW_PATH_ROTATION ? 4 : 3;
    t.key_count = 3;
    t.times = k_times;
    t.values = values;
    return t;
}

/* Root at x = x0 + u, z = z0, y bobbing, yaw = yaw0 + 45°·u. The child's
   tracks come first and last, so the root's must be picked out. */
static const sw_clip* make_clip(double x0, double z0, double yaw0) {
    for (int k = 0; k < 3; k++) {
        g_root_t[3 * k + 0] = (float)(x0 + k);
        g_root_t[3 * k + 1] = k == 1 ? 1.1f : 1.0f;
        g_root_t[3 * k + 2] = (float)z0;
        yaw_quat(&g_root_r[4 * k], yaw0 + 45.0 * k);
        g_child_t[3 * k + 0] = k == 1 ? -50.0f : 50.0f;
        g_child_t[3 * k + 1] = 7.0f * (float)k;
        g_child_t[3 * k + 2] = -3.0f * (float)k;
        g_child_r[4 * k + 0] = (float)sin(0.5 * 80.0 * k * DEG);
        g_child_r[4 * k + 1] = 0.0f;
        g_child_r[4 * k + 2] = 0.0f;
        g_child_r[4 * k + 3] = (float)cos(0.5 * 80.0 * k * DEG);
    }
    g_tracks[0] = track(1, SW_PATH_TRANSLATION, g_child_t);
    g_tracks[1] = track(0, SW_PATH_TRANSLATION, g_root_t);
    g_tracks[2] = track(0, SW_PATH_ROTATION, g_root_r);
    g_tracks[3] = track(1, SW_PATH_ROTATION, g_child_r);
    memset(&g_clip, 0, sizeof g_clip);
    g_clip.name = "synthetic";
    g_clip.track_count = 4;
    g_clip.tracks = g_tracks;
    sw_result r = sw_clip_finish(&g_clip, NULL);
    SW_CHECK_EQ_INT(r, SW_OK);
    return &g_clip;
}

static sw_root_motion desc(uint32_t components) {
    sw_root_motion rm;
    memset(&rm, 0, sizeof rm); /* parent and rest: identity */
    rm.joint = 0;
    rm.components = components;
    return rm;
}

#define CHECK_DELTA(d, ex, ey, ez, eyaw, tol)          \
    do {                                              \
        SW_CHECK_NEAR((d).translation.x, (ex), (tol)); \
        SW_CHECK_NEAR((d).translation.y, (ey), (tol)); \
        SW_CHECK_NEAR((d).translation.z, (ez), (tol)); \
        SW_CHECK_NEAR((d).yaw, (eyaw), (tol));         \
    } while (0)

static const uint32_t XZ = SW_ROOT_MOTION_X | SW_ROOT_MOTION_Z;

/* ---- validation ------------------------------------------------------------ */

static void test_validate(void) {
    const sw_clip* clip = make_clip(0, 0, 0);
    sw_diag d;
    sw_root_motion rm = desc(0);
    SW_CHECK_EQ_INT(sw_root_motion_validate(&rm, clip, &d), SW_OK);
    SW_CHECK_EQ_INT(sw_root_motion_validate(&rm, NULL, &d), SW_ERR_INVALID_ARGUMENT);
    SW_CHECK_EQ_INT(sw_root_motion_validate(NULL, clip, &d), SW_ERR_INVALID_ARGUMENT);

    rm.components = 0x10;
    SW_CHECK_EQ_INT(sw_root_motion_validate(&rm, clip, &d), SW_ERR_INVALID_ARGUMENT);
    SW_CHECK(strstr(d.message, "components") != NULL);
    rm.components = SW_ROOT_MOTION_Y | SW_ROOT_MOTION_YAW;
    SW_CHECK_EQ_INT(sw_root_motion_validate(&rm, clip, &d), SW_OK);

    /* Non-uniform scale and a mirror are refused; scale 0.01 with a turn is fine. */
    rm = desc(0);
    sw_transform p = {{1, 2, 3}, {0, 0, 0, 1}, {1, 2, 1}};
    rm.parent = sw_transform_to_mat34(&p);
    SW_CHECK_EQ_INT(sw_root_motion_validate(&rm, clip, &d), SW_ERR_INVALID_ARGUMENT);
    SW_CHECK(strstr(d.message, "uniform") != NULL);
    p.scale = sw_vec3_make(-1, -1, -1);
    rm.parent = sw_transform_to_mat34(&p);
    SW_CHECK_EQ_INT(sw_root_motion_validate(&rm, clip, &d), SW_ERR_INVALID_ARGUMENT);
    p.scale = sw_vec3_make(0.01f, 0.01f, 0.01f);
    p.rotation = sw_quat_from_axis_angle(sw_vec3_make(1, 0, 0), (float)(-90 * DEG));
    rm.parent = sw_transform_to_mat34(&p);
    SW_CHECK_EQ_INT(sw_root_motion_validate(&rm, clip, &d), SW_OK);

    rm = desc(0);
    rm.rest = sw_transform_identity();
    rm.rest.rotation.w = 2.0f;
    SW_CHECK_EQ_INT(sw_root_motion_validate(&rm, clip, &d), SW_ERR_INVALID_ARGUMENT);

    /* A broken root track is found (diag.index names it); the same break
       on another joint's track is not the root's business. */
    rm = desc(0);
    static const float bad_times[3] = {0.0f, 1.0f, 1.0f};
    g_tracks[2].times = bad_times;
    SW_CHECK_EQ_INT(sw_root_motion_validate(&rm, clip, &d), SW_ERR_INVALID_DATA);
    SW_CHECK_EQ_INT(d.index, 2);
    g_tracks[2].times = k_times;
    g_tracks[3].times = bad_times;
    SW_CHECK_EQ_INT(sw_root_motion_validate(&rm, clip, &d), SW_OK);
    g_tracks[3].times = k_times;
}

/* ---- deltas ---------------------------------------------------------------- */

static void test_forward_steps(void) {
    const sw_clip* clip = make_clip(0, 0, 0);
    sw_root_motion rm = desc(XZ);
    /* Translation only: x = u, the bob in Y and the child are ignored. */
    CHECK_DELTA(sw_root_motion_extract(&rm, clip, 0.0f, 0.5f, true), 0.5, 0, 0, 0, TOL);
    CHECK_DELTA(sw_root_motion_extract(&rm, clip, 0.5f, 1.0f, true), 0.5, 0, 0, 0, TOL);
    CHECK_DELTA(sw_root_motion_extract(&rm, clip, 1.25f, 1.5f, true), 0.25, 0, 0, 0, TOL);
    rm = desc(SW_ROOT_MOTION_Y);
    CHECK_DELTA(sw_root_motion_extract(&rm, clip, 0.5f, 1.0f, true), 0, 0.05, 0, 0, TOL);
    /* With yaw (the default): at 0.5 s the character has turned 22.5°, so the
       0.5 m it moves along the clip's X reads (0.5 cos 22.5°, 0, 0.5 sin 22.5°);
       it turns another 22.5°. */
    rm = desc(0);
    CHECK_DELTA(sw_root_motion_extract(&rm, clip, 0.5f, 1.0f, true), 0.5 * cos(22.5 * DEG), 0,
                0.5 * sin(22.5 * DEG), 22.5 * DEG, TOL);
    /* The same step from the start: the frame is the clip's own. */
    CHECK_DELTA(sw_root_motion_extract(&rm, clip, 0.0f, 0.5f, true), 0.5, 0, 0, 22.5 * DEG, TOL);
    /* A step of nothing is nothing, exactly. */
    sw_root_motion_delta zero = sw_root_motion_extract(&rm, clip, 0.7f, 0.7f, true);
    SW_CHECK(zero.translation.x == 0.0f && zero.translation.z == 0.0f && zero.yaw == 0.0f);
}

static void test_wrap(void) {
    const sw_clip* clip = make_clip(0, 0, 0);
    sw_root_motion rm = desc(XZ);
    /* (end − previous) + (new − start) = (2 − 1.5) + (0.5 − 0) = 1. */
    CHECK_DELTA(sw_root_motion_extract(&rm, clip, 1.5f, 2.5f, true), 1.0, 0, 0, 0, TOL);
    /* Landing exactly on the end of the loop. */
    CHECK_DELTA(sw_root_motion_extract(&rm, clip, 1.5f, 2.0f, true), 0.5, 0, 0, 0, TOL);
    CHECK_DELTA(sw_root_motion_extract(&rm, clip, 2.0f, 2.25f, true), 0.25, 0, 0, 0, TOL);
    /* With yaw: the step starts turned 67.5°, so the last 0.5 m of the loop
       reads (0.5 cos 67.5°, 0, 0.5 sin 67.5°); the next loop's clip frame is
       turned 90° − 67.5° = 22.5° from the step's frame the other way, so its
       first 0.5 m reads (0.5 cos 22.5°, 0, −0.5 sin 22.5°). Turn: 45°. */
    rm = desc(0);
    CHECK_DELTA(sw_root_motion_extract(&rm, clip, 1.5f, 2.5f, true),
                0.5 * cos(67.5 * DEG) + 0.5 * cos(22.5 * DEG), 0, 0.5 * sin(67.5 * DEG) - 0.5 * sin(22.5 * DEG),
                45 * DEG, TOL);
}

static void test_several_wraps(void) {
    const sw_clip* clip = make_clip(0, 0, 0);
    sw_root_motion rm = desc(XZ);
    /* 0.5 → 5.0: (2 − 0.5) + 2 + (1 − 0) = 4.5, two wraps in one step. */
    CHECK_DELTA(sw_root_motion_extract(&rm, clip, 0.5f, 5.0f, true), 4.5, 0, 0, 0, TOL);
    /* 0.25 → 6.25: three wraps: 1.75 + 2 + 2 + 0.25 = 6. */
    CHECK_DELTA(sw_root_motion_extract(&rm, clip, 0.25f, 6.25f, true), 6.0, 0, 0, 0, TOL);
    /* A caller that keeps its time wrapped: (1.9, 1.9 + 4.3). */
    CHECK_DELTA(sw_root_motion_extract(&rm, clip, 1.9f, 1.9f + 4.3f, true), 4.3, 0, 0, 0, TOL);
    /* With yaw, 0.5 → 4.5 (two wraps). In loop 0's frame the character
       stands at (0.5, 0, 0) turned 22.5° at 0.5 s; at 4.5 s, after loop 0
       (2, 0, 0), loop 1 turned 90° (0, 0, −2) and 0.5 m of loop 2 turned
       180° (−0.5, 0, 0), it stands at (1.5, 0, −2) turned 202.5°. The step
       is (1, 0, −2) read in the frame turned 22.5°, and a turn of 180°
       (4 × 45°, an unwrapped sum). */
    rm = desc(0);
    double px = 1.0, pz = -2.0, t = 22.5 * DEG;
    CHECK_DELTA(sw_root_motion_extract(&rm, clip, 0.5f, 4.5f, true), px * cos(t) - pz * sin(t), 0,
                px * sin(t) + pz * cos(t), 180 * DEG, TOL);
}

static void test_negative_speed(void) {
    const sw_clip* clip = make_clip(0, 0, 0);
    sw_root_motion rm = desc(XZ);
    CHECK_DELTA(sw_root_motion_extract(&rm, clip, 1.0f, 0.5f, true), -0.5, 0, 0, 0, TOL);
    /* Back across the start: (0 − 0.5) + (1.5 − 2) = −1. */
    CHECK_DELTA(sw_root_motion_extract(&rm, clip, 0.5f, -0.5f, true), -1.0, 0, 0, 0, TOL);
    /* Back across two wraps: −0.5 − 2 − 2 = −4.5. */
    CHECK_DELTA(sw_root_motion_extract(&rm, clip, 0.5f, -4.0f, true), -4.5, 0, 0, 0, TOL);
    /* With yaw: at 1 s the character is turned 45°; moving back 0.5 m along
       the clip's X reads (−0.5 cos 45°, 0, −0.5 sin 45°); it turns −22.5°. */
    rm = desc(0);
    CHECK_DELTA(sw_root_motion_extract(&rm, clip, 1.0f, 0.5f, true), -0.5 * cos(45 * DEG), 0,
                -0.5 * sin(45 * DEG), -22.5 * DEG, TOL);
    /* Forward then back is no motion. */
    sw_root_motion_character c = {{0, 0, 0}, 0};
    c = sw_root_motion_apply(c, sw_root_motion_extract(&rm, clip, 1.5f, 3.25f, true));
    c = sw_root_motion_apply(c, sw_root_motion_extract(&rm, clip, 3.25f, 1.5f, true));
    SW_CHECK_NEAR(c.position.x, 0, TOL);
    SW_CHECK_NEAR(c.position.z, 0, TOL);
    SW_CHECK_NEAR(c.yaw, 0, TOL);
}

/* Random steps over k loops; with `mixed` the speed changes and goes
   backwards too. The last step lands on k × 2 s exactly. */
static int random_steps(rng* r, int k, bool mixed, float* steps, int max_steps) {
    double t = 0.0, end = 2.0 * k;
    int n = 0;
    while (n < max_steps - 1) {
        double s = mixed ? rng_range(r, -0.25, 0.6) : rng_range(r, 0.001, 0.3);
        if (t + s >= end) break;
        t += s;
        steps[n++] = (float)t;
    }
    steps[n++] = (float)end;
    return n;
}

static void test_loop_sums(void) {
    const sw_clip* clip = make_clip(0, 0, 0);
    rng r = {0x5eed1234u};
    float times[4096];
    for (int mixed = 0; mixed < 2; mixed++) {
        for (int k = 1; k <= 3; k += 2) {
            int n = random_steps(&r, k, mixed, times, 4096);
            /* Without yaw, composing is adding: the sum is k × (2, 0, 0). */
            sw_root_motion rm = desc(XZ);
            double sx = 0, sy = 0, sz = 0;
            float prev = 0.0f;
            for (int i = 0; i < n; i++) {
                sw_root_motion_delta d = sw_root_motion_extract(&rm, clip, prev, times[i], true);
                sx += d.translation.x;
                sy += d.translation.y;
                sz += d.translation.z;
                prev = times[i];
            }
            SW_CHECK_NEAR(sx, 2.0 * k, TOL);
            SW_CHECK_NEAR(sy, 0.0, TOL);
            SW_CHECK_NEAR(sz, 0.0, TOL);

            /* With yaw the turns sum to k × 90°, and the applied character
               follows the turned loops: 1 loop ends at (2, 0, 0) facing 90°;
               3 loops at (2,0,0) + turn(90°)(2,0,0) + turn(180°)(2,0,0)
               = (2,0,0) + (0,0,−2) + (−2,0,0) = (0, 0, −2), facing 270° = −90°. */
            rm = desc(0);
            double syaw = 0;
            sw_root_motion_character c = {{0, 0, 0}, 0};
            prev = 0.0f;
            for (int i = 0; i < n; i++) {
                sw_root_motion_delta d = sw_root_motion_extract(&rm, clip, prev, times[i], true);
                syaw += d.yaw;
                c = sw_root_motion_apply(c, d);
                prev = times[i];
            }
            SW_CHECK_NEAR(syaw, k * 90 * DEG, TOL);
            SW_CHECK_NEAR(c.position.x, k == 1 ? 2.0 : 0.0, TOL);
            SW_CHECK_NEAR(c.position.y, 0.0, TOL);
            SW_CHECK_NEAR(c.position.z, k == 1 ? 0.0 : -2.0, TOL);
            SW_CHECK_NEAR(c.yaw, k == 1 ? 90 * DEG : -90 * DEG, TOL);
        }
    }
}

/* ---- in place, and the whole loop: character × in-place root = the clip -- */

static sw_transform sample_root(const sw_clip* clip, float time) {
    sw_transform t = sw_transform_identity();
    float v[4];
    sw_track_sample(&g_tracks[1], time, NULL, v);
    t.translation = sw_vec3_make(v[0], v[1], v[2]);
    sw_track_sample(&g_tracks[2], time, NULL, v);
    t.rotation = (sw_quat){v[0], v[1], v[2], v[3]};
    (void)clip;
    return t;
}

static void test_in_place(void) {
    /* A root that starts at (0.3, ·, −0.2), turned 30°. */
    const sw_clip* clip = make_clip(0.3, -0.2, 30);
    sw_root_motion rm = desc(0);
    const float times[3] = {0.0f, 0.6f, 1.7f};
    for (int i = 0; i < 3; i++) {
        sw_transform local = sample_root(clip, times[i]);
        float y = local.translation.y;
        sw_root_motion_remove(&rm, clip, &local);
        /* X and Z at the start; Y as animated, bit for bit (identity parent). */
        SW_CHECK_NEAR(local.translation.x, 0.3, 1e-6);
        SW_CHECK_NEAR(local.translation.z, -0.2, 1e-6);
        SW_CHECK(local.translation.y == y);
        /* The start's 30° yaw, whatever the time. */
        SW_CHECK_NEAR(local.rotation.x, 0, 1e-6);
        SW_CHECK_NEAR(local.rotation.y, sin(15 * DEG), 1e-6);
        SW_CHECK_NEAR(local.rotation.z, 0, 1e-6);
        SW_CHECK_NEAR(local.rotation.w, cos(15 * DEG), 1e-6);
    }
    /* Only X: Z and the rotation stay as animated. */
    rm = desc(SW_ROOT_MOTION_X);
    sw_transform local = sample_root(clip, 0.6f), before = local;
    sw_root_motion_remove(&rm, clip, &local);
    SW_CHECK_NEAR(local.translation.x, 0.3, 1e-6);
    SW_CHECK(local.translation.z == before.translation.z && local.translation.y == before.translation.y);
    SW_CHECK(memcmp(&local.rotation, &before.rotation, sizeof local.rotation) == 0);
}

/* Swing-twist: Q = Ry(60°)·Rx(30°) loses its yaw and keeps its pitch. */
static void test_swing_twist(void) {
    const sw_clip* clip = make_clip(0, 0, 0);
    sw_root_motion rm = desc(0);
    double c1 = cos(30 * DEG), s1 = sin(30 * DEG); /* Ry(60°): half angle 30° */
    double c2 = cos(15 * DEG), s2 = sin(15 * DEG); /* Rx(30°): half angle 15° */
    /* Ry·Rx by hand: (0, s1, 0, c1)·(s2, 0, 0, c2) = (c1 s2, s1 c2, −s1 s2, c1 c2). */
    sw_transform local = sw_transform_identity();
    local.rotation = (sw_quat){(float)(c1 * s2), (float)(s1 * c2), (float)(-s1 * s2), (float)(c1 * c2)};
    sw_root_motion_remove(&rm, clip, &local);
    SW_CHECK_NEAR(local.rotation.x, s2, 1e-6);
    SW_CHECK_NEAR(local.rotation.y, 0, 1e-6);
    SW_CHECK_NEAR(local.rotation.z, 0, 1e-6);
    SW_CHECK_NEAR(local.rotation.w, c2, 1e-6);

    /* Against a clip that starts turned 20°: Ry(20°)·Rx(30°), i.e.
       (cos10° s2, sin10° c2, −sin10° s2, cos10° c2). */
    clip = make_clip(0, 0, 20);
    local.rotation = (sw_quat){(float)(c1 * s2), (float)(s1 * c2), (float)(-s1 * s2), (float)(c1 * c2)};
    sw_root_motion_remove(&rm, clip, &local);
    double c3 = cos(10 * DEG), s3 = sin(10 * DEG);
    SW_CHECK_NEAR(local.rotation.x, c3 * s2, 1e-6);
    SW_CHECK_NEAR(local.rotation.y, s3 * c2, 1e-6);
    SW_CHECK_NEAR(local.rotation.z, -s3 * s2, 1e-6);
    SW_CHECK_NEAR(local.rotation.w, c3 * c2, 1e-6);
}

/* The truth, from the clip as authored: in loop n the clip's frame sits
   where loop n − 1 ended, W(n+1) = W(n)·L with L: p ↦ r(2) + Ry(90°)(p − r(0)),
   and the root is W(n)·root(u). Written here in its own terms. */
static void truth(double tau, double x0, double z0, double yaw0, double out_pos[3], double* out_yaw) {
    double n = floor(tau / 2.0), u = tau - 2.0 * n;
    double wx = 0, wz = 0, wyaw = 0; /* W as position + yaw */
    /* L's translation: r(2) − Ry(90°) r(0) = (x0 + 2 − z0, 0, z0 + x0);
       before time 0 (n < 0) the loops run backwards, W(n−1) = W(n)·L⁻¹,
       L⁻¹: translation −Ry(−90°)·that = (z0 + x0, 0, −(x0 + 2 − z0)), −90°. */
    double lx = x0 + 2.0 - z0, lz = z0 + x0, lyaw = 90 * DEG;
    if (n < 0) {
        double ix = lz, iz = -lx;
        lx = ix;
        lz = iz;
        lyaw = -lyaw;
    }
    for (int i = 0; i < (int)fabs(n); i++) {
        wx += lx * cos(wyaw) + lz * sin(wyaw);
        wz += lz * cos(wyaw) - lx * sin(wyaw);
        wyaw += lyaw;
    }
    double rx = x0 + u, rz = z0;
    out_pos[0] = wx + rx * cos(wyaw) + rz * sin(wyaw);
    out_pos[1] = u <= 1.0 ? 1.0 + 0.1 * u : 1.0 + 0.1 * (2.0 - u);
    out_pos[2] = wz + rz * cos(wyaw) - rx * sin(wyaw);
    *out_yaw = wyaw + (yaw0 + 45.0 * u) * DEG;
}

static void test_character_follows_clip(void) {
    const double x0 = 0.3, z0 = -0.2, yaw0 = 30;
    const sw_clip* clip = make_clip(x0, z0, yaw0);
    sw_root_motion rm = desc(0);
    rng r = {77};
    sw_root_motion_character c = {{0, 0, 0}, 0};
    double tau = 0.0;
    for (int i = 0; i < 400 && tau < 6.0; i++) {
        double step = rng_range(&r, -0.15, 0.35);
        float wrapped = sw_clip_time(clip, (float)tau, true);
        c = sw_root_motion_apply(c, sw_root_motion_extract(&rm, clip, wrapped, wrapped + (float)step, true));
        tau += step;
        float u = sw_clip_time(clip, (float)tau, true);
        sw_transform local = sample_root(clip, u);
        sw_root_motion_remove(&rm, clip, &local);
        sw_mat34 m = sw_root_motion_character_to_mat34(c);
        sw_vec3 p = sw_mat34_apply_point(&m, local.translation);
        double want[3], want_yaw;
        truth(tau, x0, z0, yaw0, want, &want_yaw);
        SW_CHECK_NEAR(p.x, want[0], 1e-4);
        SW_CHECK_NEAR(p.y, want[1], 1e-4);
        SW_CHECK_NEAR(p.z, want[2], 1e-4);
        /* Heading: the character's yaw plus the in-place root's (its start's). */
        double yaw = c.yaw + 2.0 * atan2(local.rotation.y, local.rotation.w);
        SW_CHECK_NEAR(cos(yaw), cos(want_yaw), 1e-4);
        SW_CHECK_NEAR(sin(yaw), sin(want_yaw), 1e-4);
    }
    SW_CHECK(tau > 4.0); /* the walk crossed at least two wraps */
}

/* A root that only turns, away from the origin: the character moves so
   that the root turns on the spot. Rest translation (1, 0, 0), no
   translation track, 90° over the loop: after it the character stands at
   (1,0,0) − turn(90°)(1,0,0) = (1, 0, 1), and the root at (1,0,1) +
   turn(90°)(1,0,0) = (1, 0, 0), where it started. */
static void test_turn_on_the_spot(void) {
    make_clip(0, 0, 0);
    sw_clip only_rotation = g_clip;
    only_rotation.tracks = &g_tracks[2];
    only_rotation.track_count = 1;
    sw_root_motion rm = desc(0);
    rm.rest = sw_transform_identity();
    rm.rest.translation = sw_vec3_make(1, 0, 0);
    SW_CHECK_EQ_INT(sw_root_motion_validate(&rm, &only_rotation, NULL), SW_OK);
    CHECK_DELTA(sw_root_motion_extract(&rm, &only_rotation, 0.0f, 2.0f, true), 1, 0, 1, 90 * DEG, TOL);
    /* No root track at all: nothing moves. */
    sw_clip child_only = g_clip;
    child_only.tracks = &g_tracks[3];
    child_only.track_count = 1;
    CHECK_DELTA(sw_root_motion_extract(&rm, &child_only, 0.0f, 1.5f, true), 0, 0, 0, 0, 0);
}

/* The root's parent is a Z-up armature in centimetres (as arnaud's Hips):
   scale 0.01, −90° about X (parent Z → character Y), raised by 1 m. The
   same motion authored there gives the same deltas in metres. */
static void test_parent_space(void) {
    static float t_cm[9], r_z[12];
    for (int k = 0; k < 3; k++) {
        t_cm[3 * k + 0] = 100.0f * (float)k;           /* parent X = character X */
        t_cm[3 * k + 1] = 0.0f;                        /* parent Y = character −Z */
        t_cm[3 * k + 2] = k == 1 ? 110.0f : 100.0f;    /* parent Z = character Y */
        r_z[4 * k + 0] = 0.0f;                         /* 45°·k about parent Z = about character Y */
        r_z[4 * k + 1] = 0.0f;
        r_z[4 * k + 2] = (float)sin(0.5 * 45.0 * k * DEG);
        r_z[4 * k + 3] = (float)cos(0.5 * 45.0 * k * DEG);
    }
    sw_track tracks[2] = {track(5, SW_PATH_TRANSLATION, t_cm), track(5, SW_PATH_ROTATION, r_z)};
    sw_clip clip;
    memset(&clip, 0, sizeof clip);
    clip.tracks = tracks;
    clip.track_count = 2;
    SW_CHECK_EQ_INT(sw_clip_finish(&clip, NULL), SW_OK);
    sw_transform p = {{0, 1, 0}, {0, 0, 0, 1}, {0.01f, 0.01f, 0.01f}};
    p.rotation = sw_quat_from_axis_angle(sw_vec3_make(1, 0, 0), (float)(-90 * DEG));
    sw_root_motion rm = desc(0);
    rm.joint = 5;
    rm.parent = sw_transform_to_mat34(&p);
    SW_CHECK_EQ_INT(sw_root_motion_validate(&rm, &clip, NULL), SW_OK);
    CHECK_DELTA(sw_root_motion_extract(&rm, &clip, 0.5f, 1.0f, true), 0.5 * cos(22.5 * DEG), 0,
                0.5 * sin(22.5 * DEG), 22.5 * DEG, TOL);
    CHECK_DELTA(sw_root_motion_extract(&rm, &clip, 1.5f, 2.5f, true),
                0.5 * cos(67.5 * DEG) + 0.5 * cos(22.5 * DEG), 0, 0.5 * sin(67.5 * DEG) - 0.5 * sin(22.5 * DEG),
                45 * DEG, TOL);
    /* In place: in character space the root stays at x = z = 0, at height
       1 + 0.01 × the animated parent Z (105 cm at 0.5 s); its rotation
       becomes the start's, so the local rotation is the identity. */
    sw_transform local = sw_transform_identity();
    float v[4];
    sw_track_sample(&tracks[0], 0.5f, NULL, v);
    local.translation = sw_vec3_make(v[0], v[1], v[2]);
    sw_track_sample(&tracks[1], 0.5f, NULL, v);
    local.rotation = (sw_quat){v[0], v[1], v[2], v[3]};
    sw_root_motion_remove(&rm, &clip, &local);
    sw_vec3 at = sw_mat34_apply_point(&rm.parent, local.translation);
    SW_CHECK_NEAR(at.x, 0.0, 1e-5);
    SW_CHECK_NEAR(at.y, 2.05, 1e-5);
    SW_CHECK_NEAR(at.z, 0.0, 1e-5);
    SW_CHECK_NEAR(fabs(local.rotation.w), 1.0, 1e-6);
}

static void test_apply(void) {
    /* Facing 90°, a step of (1, 0, 0) in the character's frame goes to −Z in
       the world (a 90° turn about +Y takes X to −Z). */
    sw_root_motion_character c = {{1, 0, 2}, (float)(90 * DEG)};
    sw_root_motion_delta d = {{1, 0.5f, 0}, 0.5f};
    c = sw_root_motion_apply(c, d);
    SW_CHECK_NEAR(c.position.x, 1, 1e-6);
    SW_CHECK_NEAR(c.position.y, 0.5, 1e-6);
    SW_CHECK_NEAR(c.position.z, 1, 1e-6);
    SW_CHECK_NEAR(c.yaw, 90 * DEG + 0.5, 1e-6);
    /* The yaw stays in (−π, π]. */
    c.yaw = 3.0f;
    c = sw_root_motion_apply(c, d);
    SW_CHECK_NEAR(c.yaw, 3.5 - 2 * SW_PI, 1e-6);
    /* The matrix turns as the library's quaternions do. */
    c.position = sw_vec3_make(4, 5, 6);
    c.yaw = 0.7f;
    sw_mat34 m = sw_root_motion_character_to_mat34(c);
    sw_vec3 q = sw_quat_rotate(sw_quat_from_axis_angle(sw_vec3_make(0, 1, 0), 0.7f), sw_vec3_make(1, 2, 3));
    sw_vec3 p = sw_mat34_apply_point(&m, sw_vec3_make(1, 2, 3));
    SW_CHECK_NEAR(p.x, 4 + q.x, 1e-5);
    SW_CHECK_NEAR(p.y, 5 + q.y, 1e-5);
    SW_CHECK_NEAR(p.z, 6 + q.z, 1e-5);
}

static void test_no_loop_and_edges(void) {
    const sw_clip* clip = make_clip(0, 0, 0);
    sw_root_motion rm = desc(XZ);
    /* Without loop the root holds its ends. */
    CHECK_DELTA(sw_root_motion_extract(&rm, clip, 0.5f, 3.0f, false), 1.5, 0, 0, 0, TOL);
    CHECK_DELTA(sw_root_motion_extract(&rm, clip, -1.0f, 0.5f, false), 0.5, 0, 0, 0, TOL);
    CHECK_DELTA(sw_root_motion_extract(&rm, clip, 0.0f, INFINITY, true), 0, 0, 0, 0, 0);
    CHECK_DELTA(sw_root_motion_extract(&rm, clip, NAN, 1.0f, true), 0, 0, 0, 0, 0);
    /* A clip of one key has no duration: no motion. */
    sw_clip one = g_clip;
    sw_track single = g_tracks[1];
    single.key_count = 1;
    one.tracks = &single;
    one.track_count = 1;
    SW_CHECK_EQ_INT(sw_clip_finish(&one, NULL), SW_OK);
    CHECK_DELTA(sw_root_motion_extract(&rm, &one, 0.0f, 5.0f, true), 0, 0, 0, 0, 0);
}

/* ---- arnaud's walk (SINEW_ASSETS) ---------------------------------------- */

static sw_model* load_arnaud(void) {
    const char* dir = getenv("SINEW_ASSETS");
    const char* names[2] = {"gltf/pab/arnaud_locomotion.glb", "pab/arnaud_locomotion.glb"};
    for (int i = 0; i < 2; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        FILE* f = fopen(path, "rb");
        if (!f) continue;
        fclose(f);
        sw_model* model = NULL;
        sw_diag d;
        if (sw_gltf_load_file(path, NULL, &model, &d) != SW_OK) fprintf(stderr, "  %s: %s\n", path, d.message);
        return model;
    }
    return NULL;
}

static void test_arnaud_walk(void) {
    const char* dir = getenv("SINEW_ASSETS");
    if (!dir || !*dir) SW_SKIP("SINEW_ASSETS is not set: arnaud's walk over 3 loops is not checked");
    sw_model* model = load_arnaud();
    if (!model) SW_SKIP("SINEW_ASSETS has no gltf/pab/arnaud_locomotion.glb: arnaud's walk is not checked");
    const sw_clip* walk = NULL;
    for (size_t i = 0; i < model->animation_count; i++)
        if (model->animations[i].name && strcmp(model->animations[i].name, "walk") == 0) walk = &model->animations[i];
    int64_t pelvis = -1;
    for (size_t n = 0; n < model->node_count; n++)
        if (model->nodes[n].name && strcmp(model->nodes[n].name, "Pelvis") == 0) pelvis = (int64_t)n;
    SW_CHECK(walk != NULL);
    SW_CHECK(pelvis >= 0);
    if (!walk || pelvis < 0) {
        sw_model_free(model);
        return;
    }
    sw_pose_sizes sizes = sw_pose_sizes_of(model);
    size_t bytes = (sw_pose_memory_size(&sizes) + 15) & ~(size_t)15;
    void* memory = aligned_alloc(16, bytes);
    SW_CHECK(memory != NULL);
    sw_pose pose;
    sw_pose_bind(&pose, &sizes, memory);

    /* The parent space is the rest pose's world matrix of the parent (Hips:
       0.01 and a 90° turn). */
    sw_root_motion rm;
    memset(&rm, 0, sizeof rm);
    rm.joint = (uint32_t)pelvis;
    rm.components = XZ;
    rm.rest = model->rest_local[pelvis];
    int32_t parent = model->nodes[pelvis].parent;
    sw_pose_rest(model, &pose);
    sw_pose_update_world(model, &pose);
    if (parent >= 0) rm.parent = pose.world[parent];
    sw_diag d;
    SW_CHECK_EQ_INT(sw_root_motion_validate(&rm, walk, &d), SW_OK);

    /* One loop's displacement, independently: the Pelvis's world position
       at the end minus at the start, through the pose API. */
    double start[3], end[3];
    SW_CHECK_EQ_INT(sw_pose_evaluate(model, walk, 0.0f, false, &pose, &d), SW_OK);
    for (int a = 0; a < 3; a++) start[a] = pose.world[pelvis].m[a][3];
    SW_CHECK_EQ_INT(sw_pose_evaluate(model, walk, walk->duration, false, &pose, &d), SW_OK);
    for (int a = 0; a < 3; a++) end[a] = pose.world[pelvis].m[a][3];
    double dx = end[0] - start[0], dz = end[2] - start[2];
    fprintf(stderr, "  walk: %.4f s, one loop moves the Pelvis (%.5f, %.5f) m on the ground\n",
            (double)walk->duration, dx, dz);
    SW_CHECK(sqrt(dx * dx + dz * dz) > 0.3); /* it walks */

    /* Three loops of uneven steps (wraps included) sum to 3 × that. */
    rng r = {2024};
    double sx = 0, sy = 0, sz = 0;
    float prev = 0.0f, end_time = 3.0f * walk->duration;
    int steps = 0;
    for (;;) {
        float next = prev + rng_range(&r, 0.004, 0.11);
        if (next >= end_time) next = end_time;
        sw_root_motion_delta delta = sw_root_motion_extract(&rm, walk, prev, next, true);
        sx += delta.translation.x;
        sy += delta.translation.y;
        sz += delta.translation.z;
        prev = next;
        steps++;
        if (next == end_time) break;
    }
    fprintf(stderr, "  walk: %d steps over 3 loops sum to (%.5f, %.5f, %.5f)\n", steps, sx, sy, sz);
    SW_CHECK_NEAR(sx, 3.0 * dx, TOL);
    SW_CHECK_NEAR(sy, 0.0, TOL);
    SW_CHECK_NEAR(sz, 3.0 * dz, TOL);

    /* In place: the Pelvis's world X and Z stay at the start's, its height
       moves as animated. */
    const float times[3] = {0.2f, 0.5f, 1.1f};
    for (int i = 0; i < 3; i++) {
        SW_CHECK_EQ_INT(sw_pose_evaluate(model, walk, times[i], true, &pose, &d), SW_OK);
        double height = pose.world[pelvis].m[1][3];
        sw_root_motion_remove(&rm, walk, &pose.local[pelvis]);
        sw_pose_update_world(model, &pose);
        SW_CHECK_NEAR(pose.world[pelvis].m[0][3], start[0], TOL);
        SW_CHECK_NEAR(pose.world[pelvis].m[2][3], start[2], TOL);
        SW_CHECK_NEAR(pose.world[pelvis].m[1][3], height, TOL);
    }

    /* With the yaw too, through the first loop: the character moved by the
       deltas, drawn with the in-place pose, puts the Pelvis where the clip
       does. */
    rm.components = 0;
    SW_CHECK_EQ_INT(sw_root_motion_validate(&rm, walk, &d), SW_OK);
    sw_root_motion_character c = {{0, 0, 0}, 0};
    prev = 0.0f;
    double worst = 0.0;
    while (prev < walk->duration) {
        float next = fminf(prev + rng_range(&r, 0.004, 0.11), walk->duration);
        c = sw_root_motion_apply(c, sw_root_motion_extract(&rm, walk, prev, next, true));
        prev = next;
        SW_CHECK_EQ_INT(sw_pose_evaluate(model, walk, next, false, &pose, &d), SW_OK);
        sw_vec3 want = {pose.world[pelvis].m[0][3], pose.world[pelvis].m[1][3], pose.world[pelvis].m[2][3]};
        sw_root_motion_remove(&rm, walk, &pose.local[pelvis]);
        sw_pose_update_world(model, &pose);
        sw_mat34 m = sw_root_motion_character_to_mat34(c);
        sw_vec3 at = sw_mat34_apply_point(
            &m, sw_vec3_make(pose.world[pelvis].m[0][3], pose.world[pelvis].m[1][3], pose.world[pelvis].m[2][3]));
        worst = fmax(worst, sw_vec3_length(sw_vec3_sub(at, want)));
    }
    fprintf(stderr, "  walk with yaw: one loop turns %.3f°, the moved in-place Pelvis is %.2g m from the clip's\n",
            c.yaw / DEG, worst);
    SW_CHECK(worst < TOL);
    free(memory);
    sw_model_free(model);
}

int main(void) {
    SW_RUN(test_validate);
    SW_RUN(test_forward_steps);
    SW_RUN(test_wrap);
    SW_RUN(test_several_wraps);
    SW_RUN(test_negative_speed);
    SW_RUN(test_loop_sums);
    SW_RUN(test_in_place);
    SW_RUN(test_swing_twist);
    SW_RUN(test_character_follows_clip);
    SW_RUN(test_turn_on_the_spot);
    SW_RUN(test_parent_space);
    SW_RUN(test_apply);
    SW_RUN(test_no_loop_and_edges);
    SW_RUN(test_arnaud_walk);
    return sw_test_finish();
}
