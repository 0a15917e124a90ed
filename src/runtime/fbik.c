/* Full-body IK by FABRIK with joint limits; see sinew/fbik.h for the manual. */
#include "sinew/fbik.h"

#include <math.h>
#include <string.h>

#include "sinew/anim.h"

#define SW__DEG ((float)(SW_PI / 180.0))
/* Most FABRIK passes per iteration on a chain without a hinge (the spine):
   they stop once the end is within a quarter of the tolerance. */
#define SW__FABRIK_PASSES 64

/* ---- small quaternion helpers ------------------------------------------------ */

static sw_quat sw__q(float x, float y, float z, float w) {
    sw_quat q = {x, y, z, w};
    return q;
}

static sw_quat sw__positive(sw_quat q) { return q.w < 0.0f ? sw__q(-q.x, -q.y, -q.z, -q.w) : q; }

/* The shortest rotation taking direction a to direction b (any lengths). */
static sw_quat sw__from_to(sw_vec3 a, sw_vec3 b) {
    a = sw_vec3_normalize(a), b = sw_vec3_normalize(b);
    float d = sw_vec3_dot(a, b);
    if (d < -0.999999f) { /* opposite: half a turn about any perpendicular */
        sw_vec3 p = fabsf(a.x) < 0.9f ? sw_vec3_cross(a, sw_vec3_make(1, 0, 0)) : sw_vec3_cross(a, sw_vec3_make(0, 1, 0));
        p = sw_vec3_normalize(p);
        return sw__q(p.x, p.y, p.z, 0.0f);
    }
    sw_vec3 c = sw_vec3_cross(a, b);
    return sw_quat_normalize(sw__q(c.x, c.y, c.z, 1.0f + d));
}

/* The angle of q's rotation about unit axis a (its twist), in (−π, π]. */
static float sw__twist_angle(sw_quat q, sw_vec3 a) {
    float t = q.x * a.x + q.y * a.y + q.z * a.z;
    float angle = 2.0f * atan2f(t, q.w);
    if (angle > (float)SW_PI) angle -= 2.0f * (float)SW_PI;
    if (angle < -(float)SW_PI) angle += 2.0f * (float)SW_PI;
    return angle;
}

/* The rotation of a world matrix whose columns may carry scale (an
   armature scaled to metres): the columns are normalised first. */
static sw_quat sw__world_rotation(const sw_mat34* m) { return sw_quat_from_scaled_mat34(m); }

static sw_vec3 sw__perpendicular_unit(sw_vec3 v, sw_vec3 to) {
    return sw_vec3_normalize(sw_vec3_sub(v, sw_vec3_scale(to, sw_vec3_dot(v, to))));
}

static sw_vec3 sw__origin(const sw_mat34* m) { return sw_vec3_make(m->m[0][3], m->m[1][3], m->m[2][3]); }

/* ---- limits ------------------------------------------------------------------------ */

sw_quat sw_fbik_limit_apply(const sw_fbik_limit* limit, sw_quat rel) {
    rel = sw__positive(sw_quat_normalize(rel));
    const sw_vec3 a = limit->axis;
    if (limit->type == SW_FBIK_LIMIT_HINGE) {
        float angle = sw__twist_angle(rel, a);
        angle = angle < limit->min_angle ? limit->min_angle : angle > limit->max_angle ? limit->max_angle : angle;
        return sw_quat_from_axis_angle(a, angle);
    }
    if (limit->type != SW_FBIK_LIMIT_CONE) return rel;
    /* swing · twist, the twist about the bone axis */
    float twist = sw__twist_angle(rel, a);
    sw_quat twist_q = sw_quat_from_axis_angle(a, twist);
    sw_quat swing = sw__positive(sw_quat_mul(rel, sw_quat_conjugate(twist_q)));
    float swing_angle = 2.0f * acosf(swing.w > 1.0f ? 1.0f : swing.w);
    if (swing_angle > limit->cone_angle) {
        sw_vec3 axis = sw_vec3_make(swing.x, swing.y, swing.z);
        swing = sw_quat_from_axis_angle(axis, limit->cone_angle);
    }
    if (twist > limit->twist_limit) twist = limit->twist_limit;
    if (twist < -limit->twist_limit) twist = -limit->twist_limit;
    return sw_quat_normalize(sw_quat_mul(swing, sw_quat_from_axis_angle(a, twist)));
}

float sw_fbik_limit_violation(const sw_fbik_limit* limit, sw_quat rel) {
    if (limit->type == SW_FBIK_LIMIT_NONE) return 0.0f;
    rel = sw_quat_normalize(rel);
    /* the angle of the rotation from the clamped rotation to rel, by atan2 (acos loses small angles) */
    sw_quat d = sw_quat_mul(sw_quat_conjugate(sw_fbik_limit_apply(limit, rel)), rel);
    float s = sqrtf(d.x * d.x + d.y * d.y + d.z * d.z);
    return 2.0f * atan2f(s, fabsf(d.w));
}

/* ---- rig --------------------------------------------------------------------------- */

static size_t sw__align16(size_t n) { return (n + 15u) & ~(size_t)15u; }

size_t sw_fbik_memory_size(size_t node_count) {
    if (node_count == 0 || node_count > SW_MAX_JOINTS) return 0;
    return sw__align16(node_count * sizeof(int16_t)) + sw__align16(node_count * sizeof(sw_mat34));
}

static bool sw__is_ancestor(const sw_model* model, int32_t ancestor, int32_t node) {
    for (int32_t n = model->nodes[node].parent; n >= 0; n = model->nodes[n].parent)
        if (n == ancestor) return true;
    return false;
}

static sw_fbik_limit sw__cone(sw_vec3 axis, float cone_deg, float twist_deg) {
    sw_fbik_limit l = {.type = SW_FBIK_LIMIT_CONE, .axis = axis};
    l.cone_angle = cone_deg * SW__DEG, l.twist_limit = twist_deg * SW__DEG;
    return l;
}

/* Chain c from the mapped bones in `bones` (SW_HUMANOID_NONE ends the list;
   unmapped optional ones are skipped). */
static sw_result sw__chain_build(sw_fbik_rig* rig, const sw_model* model, const sw_humanoid_map* map,
                                 sw_fbik_chain_id c, const sw_humanoid_bone* bones, sw_fbik_effector_id effector,
                                 sw_diag* diag) {
    sw_fbik_chain* ch = &rig->chains[c];
    ch->count = 0, ch->effector = effector;
    for (const sw_humanoid_bone* b = bones; *b != SW_HUMANOID_NONE; b++) {
        int32_t node = map->node[*b];
        if (node < 0 || (size_t)node >= model->node_count) {
            if (!sw_humanoid_bone_required(*b)) continue;
            return sw_diag_set(diag, SW_ERR_INVALID_DATA, (int64_t)*b, "%s: full-body IK needs the bone %s mapped",
                               model->path ? model->path : "model", sw_humanoid_bone_name(*b));
        }
        if (ch->count > 0 && !sw__is_ancestor(model, ch->node[ch->count - 1], node))
            return sw_diag_set(diag, SW_ERR_INVALID_DATA, node, "%s: bone %s (node %d) does not descend from %s",
                               model->path ? model->path : "model", sw_humanoid_bone_name(*b), (int)node,
                               model->nodes[ch->node[ch->count - 1]].name ? model->nodes[ch->node[ch->count - 1]].name
                                                                          : "the previous bone");
        ch->node[ch->count++] = node;
    }
    /* the path: the last joint's ancestors up to the first */
    int32_t path[SW_FBIK_MAX_PATH];
    uint32_t len = 0;
    for (int32_t n = ch->node[ch->count - 1];; n = model->nodes[n].parent) {
        if (len == SW_FBIK_MAX_PATH)
            return sw_diag_set(diag, SW_ERR_UNSUPPORTED, n, "%s: more than %d nodes between %s and %s",
                               model->path ? model->path : "model", SW_FBIK_MAX_PATH, sw_humanoid_bone_name(bones[0]),
                               model->nodes[ch->node[ch->count - 1]].name ? model->nodes[ch->node[ch->count - 1]].name : "its end");
        path[len++] = n;
        if (n == ch->node[0]) break;
    }
    ch->path_count = len;
    for (uint32_t i = 0; i < len; i++) ch->path[i] = path[len - 1 - i];
    for (uint32_t k = 0, i = 0; k < ch->count; k++) {
        while (ch->path[i] != ch->node[k]) i++;
        ch->path_index[k] = i;
    }
    return SW_OK;
}

/* Rest rotations, cone axes and the limb's hinge from the rest pose. */
static void sw__chain_limits(sw_fbik_chain* ch, const sw_model* model, const sw_mat34* rest_world, bool limb,
                             bool leg, sw_vec3 forward, sw_vec3 left) {
    for (uint32_t k = 0; k < ch->count; k++) {
        int32_t n = ch->node[k];
        ch->rest_rotation[k] = model->rest_local[n].rotation;
        if (k + 1 == ch->count) break;
        sw_quat w_inv = sw_quat_conjugate(sw__world_rotation(&rest_world[n]));
        sw_vec3 bone = sw_vec3_sub(sw__origin(&rest_world[ch->node[k + 1]]), sw__origin(&rest_world[n]));
        sw_vec3 axis = sw_vec3_normalize(sw_quat_rotate(w_inv, bone));
        if (!limb) {
            bool neck = k + 2 == ch->count && ch->count > 2;
            ch->limit[k] = neck ? sw__cone(axis, 45.0f, 60.0f) : sw__cone(axis, 30.0f, 30.0f);
        } else if (k == 0) {
            ch->limit[k] = leg ? sw__cone(axis, 100.0f, 45.0f) : sw__cone(axis, 130.0f, 90.0f);
        } else {
            /* The hinge must be normal to both bones for the limb's closed form to
               be exact: a limb bent at rest (over 2°) bends on in its own plane;
               a straight one turns its lower bone backward (shin) or forward
               (forearm) for a positive angle. */
            sw_vec3 upper = sw_vec3_sub(sw__origin(&rest_world[n]), sw__origin(&rest_world[ch->node[0]]));
            sw_vec3 plane = sw_vec3_cross(upper, bone);
            sw_vec3 hinge;
            if (sw_vec3_length(plane) > 0.035f * sw_vec3_length(upper) * sw_vec3_length(bone)) {
                hinge = sw_vec3_normalize(plane);
            } else {
                sw_vec3 bend = leg ? sw_vec3_scale(forward, -1.0f) : forward;
                hinge = sw_vec3_cross(bone, bend);
                hinge = sw_vec3_length(hinge) > 1e-6f * sw_vec3_length(bone) ? sw_vec3_normalize(hinge) : left;
                hinge = sw__perpendicular_unit(hinge, sw_vec3_normalize(upper));
            }
            sw_fbik_limit l = {.type = SW_FBIK_LIMIT_HINGE, .axis = sw_vec3_normalize(sw_quat_rotate(w_inv, hinge))};
            l.min_angle = 0.0f, l.max_angle = 150.0f * SW__DEG;
            ch->limit[k] = l;
        }
    }
    /* a straight knee bends forward, a straight elbow backward */
    ch->bend_hint = leg ? forward : sw_vec3_scale(forward, -1.0f);
}

sw_result sw_fbik_rig_build(sw_fbik_rig* rig, const sw_model* model, const sw_humanoid_map* map, void* memory,
                            size_t memory_size, sw_diag* diag) {
    SW_ASSERT(rig && model && map);
    memset(rig, 0, sizeof *rig);
    const size_t n = model->node_count;
    if (sw_fbik_memory_size(n) == 0 || !memory || memory_size < sw_fbik_memory_size(n) || ((uintptr_t)memory & 15u))
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1,
                           "full-body IK rig needs %zu bytes of 16-aligned memory for %zu nodes",
                           sw_fbik_memory_size(n), n);
    if (map->node[SW_HUMANOID_HIPS] < 0 || (size_t)map->node[SW_HUMANOID_HIPS] >= n)
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, SW_HUMANOID_HIPS, "%s: full-body IK needs the bone hips mapped",
                           model->path ? model->path : "model");
    int16_t* parents = (int16_t*)memory;
    sw_mat34* rest_world = (sw_mat34*)(void*)((uint8_t*)memory + sw__align16(n * sizeof(int16_t)));
    for (size_t i = 0; i < n; i++) parents[i] = (int16_t)model->nodes[i].parent;
    sw_local_to_model_job fk = {.parents = parents, .joint_count = n, .local = model->rest_local, .out_model = rest_world};
    sw_local_to_model_job_run(&fk);

    static const sw_humanoid_bone spine[] = {SW_HUMANOID_SPINE, SW_HUMANOID_CHEST, SW_HUMANOID_UPPER_CHEST,
                                             SW_HUMANOID_NECK, SW_HUMANOID_HEAD, SW_HUMANOID_NONE};
    static const sw_humanoid_bone limbs[4][4] = {
        {SW_HUMANOID_LEFT_UPPER_ARM, SW_HUMANOID_LEFT_LOWER_ARM, SW_HUMANOID_LEFT_HAND, SW_HUMANOID_NONE},
        {SW_HUMANOID_RIGHT_UPPER_ARM, SW_HUMANOID_RIGHT_LOWER_ARM, SW_HUMANOID_RIGHT_HAND, SW_HUMANOID_NONE},
        {SW_HUMANOID_LEFT_UPPER_LEG, SW_HUMANOID_LEFT_LOWER_LEG, SW_HUMANOID_LEFT_FOOT, SW_HUMANOID_NONE},
        {SW_HUMANOID_RIGHT_UPPER_LEG, SW_HUMANOID_RIGHT_LOWER_LEG, SW_HUMANOID_RIGHT_FOOT, SW_HUMANOID_NONE}};
    static const sw_fbik_effector_id limb_effector[4] = {SW_FBIK_LEFT_HAND, SW_FBIK_RIGHT_HAND, SW_FBIK_LEFT_FOOT,
                                                         SW_FBIK_RIGHT_FOOT};
    sw_result r = sw__chain_build(rig, model, map, SW_FBIK_CHAIN_SPINE, spine, SW_FBIK_HEAD, diag);
    for (int c = 0; c < 4 && r == SW_OK; c++)
        r = sw__chain_build(rig, model, map, (sw_fbik_chain_id)(SW_FBIK_CHAIN_LEFT_ARM + c), limbs[c],
                            limb_effector[c], diag);
    if (r != SW_OK) {
        memset(rig, 0, sizeof *rig);
        return r;
    }
    const int32_t hips = map->node[SW_HUMANOID_HIPS];
    sw_vec3 left = sw_vec3_sub(sw__origin(&rest_world[rig->chains[SW_FBIK_CHAIN_LEFT_LEG].node[0]]),
                               sw__origin(&rest_world[rig->chains[SW_FBIK_CHAIN_RIGHT_LEG].node[0]]));
    sw_vec3 up = sw_vec3_sub(sw__origin(&rest_world[map->node[SW_HUMANOID_HEAD]]), sw__origin(&rest_world[hips]));
    sw_vec3 forward = sw_vec3_normalize(sw_vec3_cross(left, up));
    left = sw_vec3_normalize(left);
    for (int c = 0; c < SW_FBIK_CHAIN_COUNT; c++)
        sw__chain_limits(&rig->chains[c], model, rest_world, c != SW_FBIK_CHAIN_SPINE, c >= SW_FBIK_CHAIN_LEFT_LEG,
                         forward, left);
    rig->node_count = n;
    rig->parents = parents;
    rig->hips = hips;
    return SW_OK;
}

/* ---- solve --------------------------------------------------------------------------- */

typedef struct sw__fbik {
    const sw_fbik_rig* rig;
    sw_transform* local;
    sw_mat34* world;
} sw__fbik;

static void sw__fk(const sw__fbik* s, size_t first) {
    sw_local_to_model_job job = {.parents = s->rig->parents, .joint_count = s->rig->node_count, .local = s->local,
                                 .first_joint = first, .out_model = s->world};
    sw_local_to_model_job_run(&job);
}

/* World matrices of the chain's path from path[first] down (what the
   chain's own solve reads next; the rest is brought up to date later). */
static void sw__fk_path(const sw__fbik* s, const sw_fbik_chain* ch, uint32_t first) {
    for (uint32_t i = first; i < ch->path_count; i++) {
        int32_t n = ch->path[i];
        int16_t p = s->rig->parents[n];
        sw_mat34 m = sw_transform_to_mat34(&s->local[n]);
        s->world[n] = p == SW_NO_PARENT ? m : sw_mat34_mul(&s->world[p], &m);
    }
}

static sw_vec3 sw__pos(const sw__fbik* s, int32_t node) { return sw__origin(&s->world[node]); }

static sw_quat sw__parent_rotation(const sw__fbik* s, int32_t node) {
    int16_t p = s->rig->parents[node];
    return p == SW_NO_PARENT ? sw_quat_identity() : sw__world_rotation(&s->world[p]);
}

/* Turns joint k of the chain by the world rotation `turn`, applies its limit and updates the world below it. */
static void sw__turn(const sw__fbik* s, const sw_fbik_chain* ch, uint32_t k, sw_quat turn) {
    int32_t n = ch->node[k];
    sw_quat p = sw__parent_rotation(s, n);
    sw_quat l = sw_quat_mul(sw_quat_conjugate(p), sw_quat_mul(turn, sw_quat_mul(p, s->local[n].rotation)));
    sw_quat rel = sw_quat_mul(sw_quat_conjugate(ch->rest_rotation[k]), sw_quat_normalize(l));
    s->local[n].rotation = sw_quat_normalize(sw_quat_mul(ch->rest_rotation[k], sw_fbik_limit_apply(&ch->limit[k], rel)));
    sw__fk_path(s, ch, ch->path_index[k]);
}

/* A rotation taking the frame (b, n) to (b2, n2) (b ⟂ n, b2 ⟂ n2, all unit). */
static sw_quat sw__frame_turn(sw_vec3 b, sw_vec3 n, sw_vec3 b2, sw_vec3 n2) {
    sw_vec3 f[3] = {b, n, sw_vec3_cross(b, n)}, g[3] = {b2, n2, sw_vec3_cross(b2, n2)};
    sw_mat34 m = {{{0}}};
    for (int i = 0; i < 3; i++) {
        const float fi[3] = {f[i].x, f[i].y, f[i].z}, gi[3] = {g[i].x, g[i].y, g[i].z};
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++) m.m[r][c] += gi[r] * fi[c];
    }
    return sw_quat_from_mat34(&m);
}

/* dir turned towards ref until at most max_angle from it (both unit). */
static sw_vec3 sw__clamp_direction(sw_vec3 dir, sw_vec3 ref, float max_angle) {
    float c = sw_vec3_dot(dir, ref);
    if (c >= cosf(max_angle)) return dir;
    sw_vec3 perp = sw_vec3_sub(dir, sw_vec3_scale(ref, c));
    if (sw_vec3_length(perp) < 1e-6f) /* straight back: any side */
        perp = sw_vec3_cross(ref, fabsf(ref.x) < 0.9f ? sw_vec3_make(1, 0, 0) : sw_vec3_make(0, 1, 0));
    perp = sw_vec3_normalize(perp);
    return sw_vec3_add(sw_vec3_scale(ref, cosf(max_angle)), sw_vec3_scale(perp, sinf(max_angle)));
}

/* One FABRIK pass on P (count points, root P[0] fixed) towards t. The
   forward pass keeps each bone within its joint's swing of the bone before
   it (of `root_axis`, the first bone's rest direction, for the first), so
   the angles taken from the points afterwards need little clamping. */
static void sw__fabrik_pass(sw_vec3* P, const float* d, const float* swing, uint32_t count, sw_vec3 t,
                            sw_vec3 root_axis) {
    sw_vec3 root = P[0];
    float total = 0.0f;
    for (uint32_t k = 0; k + 1 < count; k++) total += d[k];
    if (sw_vec3_length(sw_vec3_sub(t, root)) >= total) { /* out of reach: straight towards it */
        for (uint32_t k = 0; k + 1 < count; k++)
            P[k + 1] = sw_vec3_add(P[k], sw_vec3_scale(sw_vec3_normalize(sw_vec3_sub(t, P[k])), d[k]));
    } else {
        P[count - 1] = t;
        for (uint32_t k = count - 1; k-- > 0;)
            P[k] = sw_vec3_add(P[k + 1], sw_vec3_scale(sw_vec3_normalize(sw_vec3_sub(P[k], P[k + 1])), d[k]));
    }
    P[0] = root;
    sw_vec3 ref = root_axis;
    for (uint32_t k = 0; k + 1 < count; k++) {
        sw_vec3 dir = sw__clamp_direction(sw_vec3_normalize(sw_vec3_sub(P[k + 1], P[k])), ref, swing[k]);
        P[k + 1] = sw_vec3_add(P[k], sw_vec3_scale(dir, d[k]));
        ref = dir;
    }
}

static sw_vec3 sw__goal(const sw__fbik* s, const sw_fbik_chain* ch, const sw_fbik_effector* e) {
    sw_vec3 now = sw__pos(s, ch->node[ch->count - 1]);
    float w = e->weight < 1.0f ? e->weight : 1.0f;
    return sw_vec3_add(now, sw_vec3_scale(sw_vec3_sub(e->position, now), w));
}

/* A hinged limb's two points (middle P[1], end P[2]) in closed form: where
   FABRIK's passes converge to, found at once. The middle lies in the plane
   of the hinge's current axis (turned normal to the root-goal line), on
   the side a positive hinge angle bends to (the law of cosines gives the
   angle at the root); a goal beyond reach gives the straight limb towards
   it. */
static void sw__limb_points(const sw__fbik* s, const sw_fbik_chain* ch, sw_vec3* P, const float* d, sw_vec3 goal) {
    const float a = d[0], b = d[1];
    sw_vec3 D = sw_vec3_sub(goal, P[0]);
    float dist = sw_vec3_length(D);
    sw_vec3 u = dist > 1e-9f ? sw_vec3_scale(D, 1.0f / dist) : sw_vec3_normalize(sw_vec3_sub(P[2], P[0]));
    float lo = fabsf(a - b), hi = a + b;
    dist = dist < lo ? lo : dist > hi ? hi : dist;
    int32_t mid = ch->node[1];
    sw_quat mid_frame = sw_quat_mul(sw__parent_rotation(s, mid), ch->rest_rotation[1]);
    sw_vec3 n = sw__perpendicular_unit(sw_quat_rotate(mid_frame, ch->limit[1].axis), u);
    if (!(sw_vec3_length(n) > 0.5f)) /* the axis along the goal line: the hint's side */
        n = sw_vec3_cross(sw__perpendicular_unit(ch->bend_hint, u), u);
    sw_vec3 h = sw_vec3_cross(u, n); /* the side the middle goes to, so cross(upper, lower) is along +n */
    float c = dist > 0.0f && a > 0.0f ? (a * a + dist * dist - b * b) / (2.0f * a * dist) : 1.0f;
    c = c < -1.0f ? -1.0f : c > 1.0f ? 1.0f : c;
    float sn = sqrtf(1.0f - c * c);
    P[1] = sw_vec3_add(P[0], sw_vec3_add(sw_vec3_scale(u, a * c), sw_vec3_scale(h, a * sn)));
    P[2] = sw_vec3_add(P[0], sw_vec3_scale(u, dist));
}

static void sw__solve_chain(const sw__fbik* s, const sw_fbik_chain* ch, const sw_fbik_effector* e, float tolerance) {
    const uint32_t m = ch->count;
    sw_vec3 P[SW_FBIK_MAX_CHAIN] = {{0}};
    float d[SW_FBIK_MAX_CHAIN] = {0};
    for (uint32_t k = 0; k < m; k++) P[k] = sw__pos(s, ch->node[k]);
    for (uint32_t k = 0; k + 1 < m; k++) d[k] = sw_vec3_length(sw_vec3_sub(P[k + 1], P[k]));
    const bool hinge = m == 3 && ch->limit[1].type == SW_FBIK_LIMIT_HINGE;
    if (hinge) {
        sw__limb_points(s, ch, P, d, sw__goal(s, ch, e));
    } else {
        float swing[SW_FBIK_MAX_CHAIN] = {0};
        for (uint32_t k = 0; k + 1 < m; k++)
            swing[k] = ch->limit[k].type == SW_FBIK_LIMIT_CONE    ? ch->limit[k].cone_angle
                       : ch->limit[k].type == SW_FBIK_LIMIT_HINGE ? ch->limit[k].max_angle
                                                                  : (float)SW_PI;
        sw_quat root_frame = sw_quat_mul(sw__parent_rotation(s, ch->node[0]), ch->rest_rotation[0]);
        sw_vec3 root_axis = ch->limit[0].type == SW_FBIK_LIMIT_CONE ? sw_quat_rotate(root_frame, ch->limit[0].axis)
                                                                    : sw_vec3_normalize(sw_vec3_sub(P[1], P[0]));
        /* passes are a few operations on m points: run them to convergence before turning joints */
        const sw_vec3 goal = sw__goal(s, ch, e);
        /* first turn the whole chain about its root towards the goal (FABRIK
           alone converges slowly on a nearly straight chain), then the
           passes fix the distance */
        sw_quat bulk = sw__from_to(sw_vec3_sub(P[m - 1], P[0]), sw_vec3_sub(goal, P[0]));
        for (uint32_t k = 1; k < m; k++) P[k] = sw_vec3_add(P[0], sw_quat_rotate(bulk, sw_vec3_sub(P[k], P[0])));
        for (int pass = 0; pass < SW__FABRIK_PASSES; pass++) {
            sw__fabrik_pass(P, d, swing, m, goal, root_axis);
            if (sw_vec3_length(sw_vec3_sub(P[m - 1], goal)) < 0.25f * tolerance) break;
        }
    }
    for (uint32_t k = 0; k + 1 < m; k++) {
        sw_vec3 at = sw__pos(s, ch->node[k]);
        sw_vec3 from = sw_vec3_sub(sw__pos(s, ch->node[k + 1]), at), to = sw_vec3_sub(P[k + 1], at);
        if (hinge && k == 0) { /* the upper bone also turns the hinge axis normal to the solved plane */
            int32_t mid = ch->node[1];
            sw_quat mid_frame = sw_quat_mul(sw__parent_rotation(s, mid), ch->rest_rotation[1]);
            sw_vec3 b = sw_vec3_normalize(from), b2 = sw_vec3_normalize(to);
            sw_vec3 n = sw__perpendicular_unit(sw_quat_rotate(mid_frame, ch->limit[1].axis), b);
            sw_vec3 n2 = sw_vec3_cross(to, sw_vec3_sub(P[2], P[1]));
            n2 = sw_vec3_length(n2) > 1e-6f * d[0] * d[1] ? sw_vec3_normalize(n2) : sw__perpendicular_unit(n, b2);
            if (sw_vec3_length(n) > 0.5f && sw_vec3_length(n2) > 0.5f) {
                sw__turn(s, ch, k, sw__frame_turn(b, n, b2, n2));
                continue;
            }
        }
        sw__turn(s, ch, k, sw__from_to(from, to));
    }
}

/* Step (1) of the manual: the hips move by what the effectors ask of them. */
static void sw__move_hips(const sw__fbik* s, const sw_fbik_desc* desc) {
    sw_vec3 sum = sw_vec3_make(0, 0, 0);
    float weight = 0.0f;
    const sw_fbik_effector* he = &desc->effectors[SW_FBIK_HIPS];
    if (he->weight > 0.0f) {
        float w = he->weight < 1.0f ? he->weight : 1.0f;
        sum = sw_vec3_scale(sw_vec3_sub(he->position, sw__pos(s, s->rig->hips)), w * w);
        weight = w;
    }
    for (int c = 0; c < SW_FBIK_CHAIN_COUNT; c++) {
        const sw_fbik_chain* ch = &s->rig->chains[c];
        const sw_fbik_effector* e = &desc->effectors[ch->effector];
        if (ch->count < 2 || !(e->weight > 0.0f)) continue;
        float reach = 0.0f;
        for (uint32_t k = 0; k + 1 < ch->count; k++)
            reach += sw_vec3_length(sw_vec3_sub(sw__pos(s, ch->node[k + 1]), sw__pos(s, ch->node[k])));
        sw_vec3 to = sw_vec3_sub(sw__goal(s, ch, e), sw__pos(s, ch->node[0]));
        float dist = sw_vec3_length(to);
        if (dist > reach) { /* only a limb that cannot reach asks (a planted foot asks only when pulled off) */
            float w = e->weight < 1.0f ? e->weight : 1.0f;
            sum = sw_vec3_add(sum, sw_vec3_scale(to, w * (dist - reach) / dist));
            weight += w;
        }
    }
    if (!(weight > 0.0f)) return;
    sw_vec3 delta = sw_vec3_scale(sum, 1.0f / weight);
    int16_t p = s->rig->parents[s->rig->hips];
    if (p != SW_NO_PARENT) {
        sw_mat34 inv;
        sw_mat34_inverse(&inv, &s->world[p]);
        delta = sw_mat34_apply_dir(&inv, delta);
    }
    s->local[s->rig->hips].translation = sw_vec3_add(s->local[s->rig->hips].translation, delta);
    sw__fk(s, (size_t)s->rig->hips);
}

static float sw__residual(const sw__fbik* s, const sw_fbik_desc* desc) {
    float worst = 0.0f;
    for (int c = 0; c < SW_FBIK_CHAIN_COUNT; c++) {
        const sw_fbik_chain* ch = &s->rig->chains[c];
        const sw_fbik_effector* e = &desc->effectors[ch->effector];
        if (ch->count < 2 || !(e->weight > 0.0f)) continue;
        float r = sw_vec3_length(sw_vec3_sub(e->position, sw__pos(s, ch->node[ch->count - 1])));
        worst = r > worst ? r : worst;
    }
    const sw_fbik_effector* he = &desc->effectors[SW_FBIK_HIPS];
    if (!desc->pin_hips && he->weight > 0.0f) {
        float r = sw_vec3_length(sw_vec3_sub(he->position, sw__pos(s, s->rig->hips)));
        worst = r > worst ? r : worst;
    }
    return worst;
}

const char* sw_fbik_effector_name(sw_fbik_effector_id effector) {
    static const char* const names[SW_FBIK_EFFECTOR_COUNT] = {"hips",      "head",     "leftHand",
                                                              "rightHand", "leftFoot", "rightFoot"};
    return (unsigned)effector < SW_FBIK_EFFECTOR_COUNT ? names[effector] : NULL;
}

sw_fbik_result sw_fbik_solve(const sw_fbik_rig* rig, const sw_fbik_desc* desc, sw_transform* local,
                             sw_mat34* world_scratch) {
    SW_ASSERT(rig && rig->parents && desc && local && world_scratch);
    const sw__fbik s = {rig, local, world_scratch};
    const int iterations = desc->iterations > 0 ? desc->iterations : 16;
    const float tolerance = desc->tolerance > 0.0f ? desc->tolerance : 1e-4f;
    sw__fk(&s, 0);
    /* the effectors keep their world rotation */
    sw_quat end_rotation[SW_FBIK_CHAIN_COUNT];
    for (int c = 0; c < SW_FBIK_CHAIN_COUNT; c++)
        if (rig->chains[c].count > 0)
            end_rotation[c] = sw__world_rotation(&s.world[rig->chains[c].node[rig->chains[c].count - 1]]);
    sw_fbik_result result = {sw__residual(&s, desc), 0};
    while (result.iterations < iterations && result.residual > tolerance) {
        if (!desc->pin_hips) sw__move_hips(&s, desc);
        for (int c = 0; c < SW_FBIK_CHAIN_COUNT; c++) {
            const sw_fbik_chain* ch = &rig->chains[c];
            if (ch->count < 2 || !(desc->effectors[ch->effector].weight > 0.0f)) continue;
            sw__solve_chain(&s, ch, &desc->effectors[ch->effector], tolerance);
            if (c == SW_FBIK_CHAIN_SPINE) sw__fk(&s, (size_t)ch->node[0]); /* the arms hang from it */
        }
        result.iterations++;
        result.residual = sw__residual(&s, desc);
    }
    for (int c = 0; c < SW_FBIK_CHAIN_COUNT; c++) {
        const sw_fbik_chain* ch = &rig->chains[c];
        if (ch->count < 2 || !(desc->effectors[ch->effector].weight > 0.0f)) continue;
        int32_t end = ch->node[ch->count - 1];
        local[end].rotation =
            sw_quat_normalize(sw_quat_mul(sw_quat_conjugate(sw__parent_rotation(&s, end)), end_rotation[c]));
    }
    sw__fk(&s, 0);
    return result;
}
