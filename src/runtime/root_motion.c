/* Root motion: the root's travel and turn as deltas between playback
   times, in-place playback and the character transform (sinew/root_motion.h).

   The arithmetic runs in double: deltas are differences of nearby samples,
   and loop powers multiply the loop's error by the loop count. Vectors and
   quaternions in double come from the library's kit (mat3d_internal.h);
   the planar motions below are root motion's own. */
#include "sinew/root_motion.h"

#include <string.h>

#include "../math/mat3d_internal.h"

/* A rigid motion on the ground: p ↦ c + R(yaw)·p, R a turn about +Y. */
typedef struct sw__planar {
    sw__vec3d c;
    double yaw;
} sw__planar;
/* Parent space → character space: p ↦ t + s·(r ⊗ p). */
typedef struct sw__space {
    sw__vec3d t;
    sw__quatd r;
    double s;
} sw__space;

/* What one call needs: the root's tracks (found once, then sampled a few
   times), the parent space, and the start of the clip as reference. */
typedef struct sw__root {
    const sw_root_motion* rm;
    uint32_t components;
    const sw_track* translation; /* NULL: the rest translation */
    const sw_track* rotation;    /* NULL: the rest rotation */
    sw__space space;
    sw__vec3d r0;                /* chosen axes of the position at time 0 */
    double yaw0;                 /* yaw at time 0 */
} sw__root;

/* The turn by `yaw` about +Y, with exact zeros off the Y axis. */
static sw__quatd sw__yaw_quat(double yaw) {
    sw__quatd r = {0.0, sin(0.5 * yaw), 0.0, cos(0.5 * yaw)};
    return r;
}

/* The twist of q about +Y as an angle; its sign follows q's hemisphere,
   so the twist quaternion sw__yaw_quat(angle) is exactly q's own. */
static double sw__yaw_of(sw__quatd q) { return 2.0 * atan2(q.y, q.w); }

static double sw__wrap_pi(double a) {
    double r = fmod(a + SW_PI, 2.0 * SW_PI);
    if (r <= 0.0) r += 2.0 * SW_PI;
    return r - SW_PI;
}

static sw__vec3d sw__turn(double yaw, sw__vec3d v) {
    double c = cos(yaw), s = sin(yaw);
    sw__vec3d r = {c * v.x + s * v.z, v.y, c * v.z - s * v.x};
    return r;
}

static sw__planar sw__planar_identity(void) {
    sw__planar p = {{0.0, 0.0, 0.0}, 0.0};
    return p;
}

/* a then b in a's frame: p ↦ a(b(p)). */
static sw__planar sw__planar_mul(sw__planar a, sw__planar b) {
    sw__planar r = {sw__vec3d_add(a.c, sw__turn(a.yaw, b.c)), a.yaw + b.yaw};
    return r;
}

static sw__planar sw__planar_inverse(sw__planar a) {
    sw__planar r = {sw__vec3d_scale(sw__turn(-a.yaw, a.c), -1.0), -a.yaw};
    return r;
}

/* aⁿ by squaring: a step may cover many loops, and powers of one motion
   commute, so the order of the products does not matter. */
static sw__planar sw__planar_pow(sw__planar a, int64_t n) {
    if (n < 0) {
        a = sw__planar_inverse(a);
        n = -n;
    }
    sw__planar r = sw__planar_identity();
    while (n) {
        if (n & 1) r = sw__planar_mul(r, a);
        a = sw__planar_mul(a, a);
        n >>= 1;
    }
    return r;
}

static bool sw__mat34_is_zero(const sw_mat34* m) {
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 4; c++)
            if (m->m[r][c] != 0.0f) return false;
    return true;
}

static bool sw__transform_is_zero(const sw_transform* t) {
    const float v[10] = {t->translation.x, t->translation.y, t->translation.z, t->rotation.x, t->rotation.y,
                         t->rotation.z,    t->rotation.w,    t->scale.x,       t->scale.y,    t->scale.z};
    for (int i = 0; i < 10; i++)
        if (v[i] != 0.0f) return false;
    return true;
}

static sw_transform sw__rest(const sw_root_motion* rm) {
    return sw__transform_is_zero(&rm->rest) ? sw_transform_identity() : rm->rest;
}

/* Uniform scale of a validated parent: the cube root of the determinant. */
static sw__space sw__space_of(const sw_mat34* m) {
    sw__space sp = {{0.0, 0.0, 0.0}, {0.0, 0.0, 0.0, 1.0}, 1.0};
    if (sw__mat34_is_zero(m)) return sp;
    sp.t.x = m->m[0][3];
    sp.t.y = m->m[1][3];
    sp.t.z = m->m[2][3];
    sp.s = cbrt((double)sw_mat34_determinant(m));
    sw_mat34 unit = *m;
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) unit.m[r][c] = (float)(m->m[r][c] / sp.s);
    sp.r = sw__quatd_of(sw_quat_from_mat34(&unit));
    return sp;
}

static sw__vec3d sw__to_character(const sw__space* sp, sw__vec3d p) {
    return sw__vec3d_add(sp->t, sw__vec3d_scale(sw__quatd_rotate(sp->r, p), sp->s));
}

static sw__vec3d sw__from_character(const sw__space* sp, sw__vec3d p) {
    return sw__quatd_rotate(sw__quatd_conj(sp->r), sw__vec3d_scale(sw__vec3d_sub(p, sp->t), 1.0 / sp->s));
}

static sw__vec3d sw__masked(uint32_t components, sw__vec3d p) {
    sw__vec3d r = {components & SW_ROOT_MOTION_X ? p.x : 0.0, components & SW_ROOT_MOTION_Y ? p.y : 0.0,
                   components & SW_ROOT_MOTION_Z ? p.z : 0.0};
    return r;
}

/* The root's character-space position and rotation at clip time `time`. */
static void sw__sample(const sw__root* root, float time, sw__vec3d* out_position, sw__quatd* out_rotation) {
    sw_transform rest = sw__rest(root->rm);
    float v[4];
    sw__vec3d p = sw__vec3d_of(rest.translation);
    if (root->translation) {
        sw_track_sample(root->translation, time, NULL, v);
        p.x = v[0];
        p.y = v[1];
        p.z = v[2];
    }
    sw__quatd q = sw__quatd_of(rest.rotation);
    if (root->rotation) {
        sw_track_sample(root->rotation, time, NULL, v);
        q.x = v[0];
        q.y = v[1];
        q.z = v[2];
        q.w = v[3];
    }
    *out_position = sw__to_character(&root->space, p);
    *out_rotation = sw__quatd_mul(root->space.r, q);
}

static sw__root sw__root_of(const sw_root_motion* rm, const sw_clip* clip) {
    sw__root root;
    memset(&root, 0, sizeof root);
    root.rm = rm;
    root.components = rm->components ? rm->components : SW_ROOT_MOTION_DEFAULT;
    for (size_t i = 0; i < clip->track_count; i++) {
        const sw_track* track = &clip->tracks[i];
        if (track->target != rm->joint) continue;
        if (track->path == SW_PATH_TRANSLATION) root.translation = track;
        if (track->path == SW_PATH_ROTATION) root.rotation = track;
    }
    root.space = sw__space_of(&rm->parent);
    sw__vec3d p0;
    sw__quatd q0;
    sw__sample(&root, 0.0f, &p0, &q0);
    root.r0 = sw__masked(root.components, p0);
    root.yaw0 = sw__yaw_of(q0);
    return root;
}

/* F(u): p ↦ r(u) + R(φ(u))·(p − r(0)). */
static sw__planar sw__motion_at(const sw__root* root, double time) {
    sw__vec3d p;
    sw__quatd q;
    sw__sample(root, (float)time, &p, &q);
    double phi = root->components & SW_ROOT_MOTION_YAW ? sw__wrap_pi(sw__yaw_of(q) - root->yaw0) : 0.0;
    sw__planar f = {sw__vec3d_sub(sw__masked(root->components, p), sw__turn(phi, root->r0)), phi};
    return f;
}

/* A parent space must be finite, a rotation times a uniform scale
   (columns of equal length, pairwise perpendicular, within 1e-4 of the
   scale²) with a positive determinant. */
static sw_result sw__validate_parent(const sw_mat34* m, sw_diag* diag) {
    const sw__mat3d a = sw__mat3d_from_mat34(m);
    const double det = sw__mat3d_det(&a);
    bool finite = true;
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 4; c++) finite = finite && isfinite(m->m[r][c]);
    if (!finite || !(det > 0.0))
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1,
                           "root motion parent is not finite with a positive determinant (det %g)", det);
    sw__vec3d col[3];
    for (int c = 0; c < 3; c++) col[c] = sw__vec3d_make(a.m[0][c], a.m[1][c], a.m[2][c]);
    double s2 = cbrt(det) * cbrt(det), tol = 1e-4 * s2;
    for (int c = 0; c < 3; c++) {
        double len2 = sw__vec3d_dot(col[c], col[c]), dot = sw__vec3d_dot(col[c], col[(c + 1) % 3]);
        if (fabs(len2 - s2) > tol || fabs(dot) > tol)
            return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1,
                               "root motion parent is not a rotation times a uniform scale (column %d)", c);
    }
    return SW_OK;
}

sw_result sw_root_motion_validate(const sw_root_motion* rm, const sw_clip* clip, sw_diag* diag) {
    if (!rm || !clip)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "root motion needs a description and a clip");
    if (clip->track_count > 0 && !clip->tracks)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "clip has %zu tracks but no track array",
                           clip->track_count);
    if (!isfinite(clip->duration) || clip->duration < 0.0f)
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "clip duration %g is not finite and >= 0",
                           (double)clip->duration);
    if (rm->components & ~SW_ROOT_MOTION_DEFAULT & ~SW_ROOT_MOTION_Y)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "root motion components 0x%x has unknown bits",
                           rm->components);
    if (!sw__mat34_is_zero(&rm->parent)) {
        sw_result res = sw__validate_parent(&rm->parent, diag);
        if (res != SW_OK) return res;
    }
    if (!sw__transform_is_zero(&rm->rest)) {
        const sw_transform* t = &rm->rest;
        const sw_quat q = t->rotation;
        bool finite = isfinite(t->translation.x) && isfinite(t->translation.y) && isfinite(t->translation.z) &&
                      isfinite(q.x) && isfinite(q.y) && isfinite(q.z) && isfinite(q.w);
        if (!finite || fabsf(sw_quat_dot(q, q) - 1.0f) > 1e-3f)
            return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1,
                               "root motion rest transform is not finite with a unit rotation");
    }
    for (size_t i = 0; i < clip->track_count; i++) {
        const sw_track* track = &clip->tracks[i];
        if (track->target != rm->joint) continue;
        if (track->path != SW_PATH_TRANSLATION && track->path != SW_PATH_ROTATION) continue;
        sw_diag inner;
        sw_result res = sw_track_validate(track, &inner);
        if (res != SW_OK)
            return sw_diag_set(diag, res, (int64_t)i, "track %zu (root %u): %s", i, rm->joint, inner.message);
    }
    return SW_OK;
}

sw_root_motion_delta sw_root_motion_extract(const sw_root_motion* rm, const sw_clip* clip, float from_time,
                                            float to_time, bool loop) {
    SW_ASSERT(rm && clip);
    sw_root_motion_delta out = {{0.0f, 0.0f, 0.0f}, 0.0f};
    if (!isfinite(from_time) || !isfinite(to_time)) return out;
    double u0 = from_time, u1 = to_time;
    int64_t loops = 0;
    sw__root root = sw__root_of(rm, clip);
    sw__planar whole = sw__planar_identity();
    if (loop) {
        double d = clip->duration;
        if (!(d > 0.0)) return out;
        double n0 = floor(u0 / d), n1 = floor(u1 / d);
        if (fabs(n0) > 0x1p53 || fabs(n1) > 0x1p53) return out;
        /* u within [0, d] whatever the rounding: F(d) = L·F(0), so either
           side of a boundary gives the same motion. */
        u0 = fmin(fmax(u0 - n0 * d, 0.0), d);
        u1 = fmin(fmax(u1 - n1 * d, 0.0), d);
        loops = (int64_t)n1 - (int64_t)n0;
        if (loops) whole = sw__planar_pow(sw__motion_at(&root, d), loops);
    }
    sw__planar step = sw__planar_mul(sw__planar_mul(sw__planar_inverse(sw__motion_at(&root, u0)), whole),
                                     sw__motion_at(&root, u1));
    out.translation = sw_vec3_make((float)step.c.x, (float)step.c.y, (float)step.c.z);
    out.yaw = (float)step.yaw;
    return out;
}

void sw_root_motion_remove(const sw_root_motion* rm, const sw_clip* clip, sw_transform* local) {
    SW_ASSERT(rm && clip && local);
    sw__root root = sw__root_of(rm, clip);
    sw__vec3d p = sw__to_character(&root.space, sw__vec3d_of(local->translation));
    if (root.components & SW_ROOT_MOTION_X) p.x = root.r0.x;
    if (root.components & SW_ROOT_MOTION_Y) p.y = root.r0.y;
    if (root.components & SW_ROOT_MOTION_Z) p.z = root.r0.z;
    sw__vec3d back = sw__from_character(&root.space, p);
    local->translation = sw_vec3_make((float)back.x, (float)back.y, (float)back.z);
    if (root.components & SW_ROOT_MOTION_YAW) {
        sw__quatd q = sw__quatd_mul(root.space.r, sw__quatd_of(local->rotation));
        /* T0·S = T0·T⁻¹·Q. Unwrapped angles keep the sign of q, so a
           pose that moves continuously stays continuous. */
        q = sw__quatd_mul(sw__yaw_quat(root.yaw0 - sw__yaw_of(q)), q);
        q = sw__quatd_mul(sw__quatd_conj(root.space.r), q);
        local->rotation.x = (float)q.x;
        local->rotation.y = (float)q.y;
        local->rotation.z = (float)q.z;
        local->rotation.w = (float)q.w;
    }
}

sw_root_motion_character sw_root_motion_apply(sw_root_motion_character character, sw_root_motion_delta delta) {
    sw__vec3d d = sw__turn(character.yaw, sw__vec3d_of(delta.translation));
    sw_root_motion_character out;
    out.position = sw_vec3_make((float)(character.position.x + d.x), (float)(character.position.y + d.y),
                                (float)(character.position.z + d.z));
    out.yaw = (float)sw__wrap_pi((double)character.yaw + (double)delta.yaw);
    return out;
}

sw_mat34 sw_root_motion_character_to_mat34(sw_root_motion_character character) {
    double c = cos(character.yaw), s = sin(character.yaw);
    sw_mat34 m = {{{(float)c, 0.0f, (float)s, character.position.x},
                   {0.0f, 1.0f, 0.0f, character.position.y},
                   {(float)-s, 0.0f, (float)c, character.position.z}}};
    return m;
}
