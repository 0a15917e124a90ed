/* Two-bone IK and aim / look-at (see sinew/ik.h).

   The geometry runs in double: a job turns a handful of joints, so the
   cost is nothing next to local→model, and double keeps the law of
   cosines and the frame conversions well inside the float precision of
   the pose they write. World rotations become local ones through
   C = M⁻¹·Q·M (M: the joint's world 3×3 without its own scale), and the
   world change a local change really makes is L = M·C·M⁻¹, which every
   later step (the mid joint below the start, the next joint of an aim
   chain, the reported distance) applies. */
#include "sinew/ik.h"

#include <math.h>
#include <string.h>

#include "../math/mat3d_internal.h"

/* ---- affine maps in double (vectors, quaternions, 3×3: mat3d_internal.h) ---- */

/* x ↦ a·x + t */
typedef struct sw__aff {
    sw__mat3d a;
    sw__vec3d t;
} sw__aff;

static sw__aff sw__aff_of(const sw_mat34* m) {
    sw__aff r;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) r.a.m[i][j] = m->m[i][j];
    r.t = sw__vec3d_make(m->m[0][3], m->m[1][3], m->m[2][3]);
    return r;
}
static sw__vec3d sw__aff_point(const sw__aff* f, sw__vec3d p) { return sw__vec3d_add(sw__mat3d_apply(&f->a, p), f->t); }
/* f·g (g first). */
static sw__aff sw__aff_mul(const sw__aff* f, const sw__aff* g) {
    sw__aff r;
    r.a = sw__mat3d_mul(&f->a, &g->a);
    r.t = sw__aff_point(f, g->t);
    return r;
}
/* x ↦ p + l·(x − p): a linear change about the point p. */
static sw__aff sw__aff_about(const sw__mat3d* l, sw__vec3d p) {
    sw__aff r;
    r.a = *l;
    r.t = sw__vec3d_sub(p, sw__mat3d_apply(l, p));
    return r;
}

/* The smallest rotation taking unit a to unit b; half a turn about unit
   `fallback` (perpendicular to a) when they are opposite. */
static sw__quatd sw__from_to(sw__vec3d a, sw__vec3d b, sw__vec3d fallback) {
    if (1.0 + sw__vec3d_dot(a, b) < 1e-14) return sw__quatd_axis_angle(fallback, SW_PI);
    return sw__quatd_arc(a, b);
}

/* ---- world rotations → local rotations -------------------------------------- */

/* A joint as the solve sees it: its current world matrix and its own scale. */
typedef struct sw__joint {
    sw__aff world;
    sw__vec3d scale;
} sw__joint;

static sw__joint sw__joint_of(const sw_mat34* world, const sw_transform* local) {
    sw__joint j;
    j.world = sw__aff_of(world);
    j.scale = sw__vec3d_of(local->scale);
    return j;
}

/* M, the joint's world 3×3 without its own scale (parent world 3×3 · R),
   and its inverse; false when singular. */
static bool sw__joint_frame(const sw__joint* j, sw__mat3d* m, sw__mat3d* m_inv) {
    const double s[3] = {j->scale.x, j->scale.y, j->scale.z};
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) m->m[r][c] = s[c] != 0.0 ? j->world.a.m[r][c] / s[c] : 0.0;
    return sw__mat3d_inverse(m_inv, m);
}

/* The world linear change L = M·C·M⁻¹ that the local change C makes. */
static sw__mat3d sw__world_change(const sw__mat3d* m, const sw__mat3d* m_inv, sw__quatd c) {
    sw__mat3d cm = sw__mat3d_from_quatd(c), mc = sw__mat3d_mul(m, &cm);
    return sw__mat3d_mul(&mc, m_inv);
}

/* A rotation q of the chain space, as a change of a joint whose rotation
   frame is g in that space (world = chain frame · g): C = g⁻¹·Q·g, or the
   nearest rotation to it when that is not one (g not a rotation times a
   uniform scale; `exact` false). */
static sw__quatd sw__frame_change(const sw__mat3d* g, const sw__mat3d* g_inv, sw__quatd q, bool* exact) {
    sw__mat3d qm = sw__mat3d_from_quatd(q), qg = sw__mat3d_mul(&qm, g), x = sw__mat3d_mul(g_inv, &qg);
    *exact = sw__mat3d_orthogonality_defect(&x) <= 1e-9;
    if (!*exact) x = sw__mat3d_nearest_rotation(x);
    return sw__quatd_from_mat3d(&x);
}

/* local rotation · C, as a unit float quaternion. */
static sw_quat sw__rotated_local(sw_quat r, sw__quatd c) {
    sw__quatd q = sw__quatd_normalize(sw__quatd_mul(sw__quatd_of(r), c));
    sw_quat out = {(float)q.x, (float)q.y, (float)q.z, (float)q.w};
    return out;
}

/* ---- shared validation ------------------------------------------------------- */

static bool sw__finite3(sw_vec3 v) { return isfinite(v.x) && isfinite(v.y) && isfinite(v.z); }

static bool sw__overlaps(const void* a, size_t a_size, const void* b, size_t b_size) {
    const char *pa = (const char*)a, *pb = (const char*)b;
    return pa < pb + b_size && pb < pa + a_size;
}

/* The common fields: arrays, count, aliasing, weight, tolerance. */
static sw_result sw__check_common(const char* name, const sw_transform* local, const sw_mat34* world, size_t node_count,
                                  float weight, float tolerance, sw_diag* diag) {
    if (!local || !world) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "%s needs local and world", name);
    if (node_count == 0 || node_count > UINT32_MAX)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "%s has node_count %zu (allowed 1..%u)", name,
                           node_count, (unsigned)UINT32_MAX);
    if (sw__overlaps(local, node_count * sizeof *local, world, node_count * sizeof *world))
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "%s: local and world overlap", name);
    if (!isfinite(weight) || weight < 0.0f || weight > 1.0f)
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "%s has weight %g (allowed 0..1)", name, (double)weight);
    if (!isfinite(tolerance) || tolerance < 0.0f)
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "%s has tolerance %g (allowed finite, >= 0)", name,
                           (double)tolerance);
    return SW_OK;
}

/* A joint the job turns: a unit finite rotation, nonzero finite scale, and
   a finite world matrix whose 3×3 without that scale is invertible. */
static sw_result sw__check_turned_joint(const char* name, const char* role, uint32_t node, const sw_transform* local,
                                        const sw_mat34* world, int64_t diag_index, sw_diag* diag) {
    const sw_transform* t = &local[node];
    const sw_quat q = t->rotation;
    const float len2 = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
    if (!(isfinite(len2) && fabsf(len2 - 1.0f) <= 2e-3f))
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, diag_index, "%s: %s node %u has a rotation that is not unit",
                           name, role, node);
    if (!sw__finite3(t->scale) || t->scale.x == 0.0f || t->scale.y == 0.0f || t->scale.z == 0.0f)
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, diag_index,
                           "%s: %s node %u has scale (%g, %g, %g); it must be finite and nonzero", name, role, node,
                           (double)t->scale.x, (double)t->scale.y, (double)t->scale.z);
    const sw_mat34* w = &world[node];
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 4; c++)
            if (!isfinite(w->m[r][c]))
                return sw_diag_set(diag, SW_ERR_INVALID_DATA, diag_index, "%s: %s node %u has a non-finite world matrix",
                                   name, role, node);
    sw__joint j = sw__joint_of(w, t);
    sw__mat3d m, m_inv;
    if (!sw__joint_frame(&j, &m, &m_inv))
        return sw_diag_set(diag, SW_ERR_SINGULAR, diag_index, "%s: %s node %u has a singular world matrix", name,
                           role, node);
    return SW_OK;
}

/* ---- soft reach ----------------------------------------------------------------- */

static double sw__soft_reach(double d, double length, double soft) {
    if (!(d > 0.0) || !(length > 0.0)) return 0.0;
    if (!(soft > 0.0)) return d < length ? d : length;
    double start = (1.0 - soft) * length, zone = soft * length;
    if (d <= start) return d;
    return start + zone * -expm1(-(d - start) / zone);
}

float sw_ik_soft_reach(float distance, float full_length, float soft) {
    return (float)sw__soft_reach(distance, full_length, soft);
}

/* ---- two-bone --------------------------------------------------------------------- */

static const char sw__two_bone_name[] = "two-bone IK job";

sw_result sw_ik_two_bone_job_validate(const sw_ik_two_bone_job* job, sw_diag* diag) {
    const char* name = sw__two_bone_name;
    if (!job) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "%s is NULL", name);
    sw_result res = sw__check_common(name, job->local, job->world, job->node_count, job->weight, job->tolerance, diag);
    if (res != SW_OK) return res;
    if (job->end >= job->node_count)
        return sw_diag_set(diag, SW_ERR_INDEX_OUT_OF_RANGE, job->end, "%s: end node %u is past node_count %zu", name,
                           job->end, job->node_count);
    if (!(job->start < job->mid && job->mid < job->end))
        return sw_diag_set(diag, SW_ERR_JOINT_ORDER, job->mid,
                           "%s: start %u, mid %u, end %u must be increasing (an ancestor comes before its children)",
                           name, job->start, job->mid, job->end);
    if (!sw__finite3(job->target)) return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "%s: target is not finite", name);
    if ((unsigned)job->pole_mode > (unsigned)SW_IK_POLE_DIRECTION)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "%s: unknown pole mode %d", name, (int)job->pole_mode);
    if (job->pole_mode == SW_IK_POLE_POINT || job->pole_mode == SW_IK_POLE_DIRECTION) {
        if (!sw__finite3(job->pole)) return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "%s: pole is not finite", name);
        if (job->pole_mode == SW_IK_POLE_DIRECTION && sw__vec3d_length(sw__vec3d_of(job->pole)) == 0.0)
            return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "%s: pole direction is zero", name);
    }
    if (!sw__finite3(job->mid_axis))
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "%s: mid_axis is not finite", name);
    if (!isfinite(job->soft) || job->soft < 0.0f || job->soft >= 1.0f)
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "%s has soft %g (allowed 0 <= soft < 1)", name,
                           (double)job->soft);
    res = sw__check_turned_joint(name, "start", job->start, job->local, job->world, job->start, diag);
    if (res != SW_OK) return res;
    return sw__check_turned_joint(name, "mid", job->mid, job->local, job->world, job->mid, diag);
}

/* One solve in chain space, the start joint at the origin: positions b
   (mid) and c (end), the target, the pole as a vector from the start, and
   mid_axis. Gives the rotation of the mid joint about b (qm, applied
   first) and of the start joint about the origin (qs), and the point the
   end is meant to reach. False for a zero-length bone. */
static bool sw__two_bone_solve(const sw_ik_two_bone_job* job, sw__vec3d b, sw__vec3d c, sw__vec3d target, bool has_pole,
                               sw__vec3d pole, sw__vec3d hinge_hint, sw__quatd* qs, sw__quatd* qm, sw__vec3d* goal) {
    const sw__vec3d bc = sw__vec3d_sub(c, b), ba = sw__vec3d_scale(b, -1.0);
    const double l1 = sw__vec3d_length(b), l2 = sw__vec3d_length(bc);
    if (!(l1 > 0.0) || !(l2 > 0.0)) return false;
    const double full = l1 + l2, shortest = fabs(l1 - l2);

    /* The chain's line now (start → end, else the first bone) and the
       direction to the target (that line when the target is at the start). */
    sw__vec3d line = c;
    if (!sw__vec3d_unit(&line, 1e-12 * full)) line = sw__vec3d_scale(b, 1.0 / l1);
    const double d = sw__vec3d_length(target);
    const sw__vec3d u = d > 1e-12 * full ? sw__vec3d_scale(target, 1.0 / d) : line;

    double reach = sw__soft_reach(d, full, job->soft);
    if (reach < shortest) reach = shortest;
    *goal = sw__vec3d_scale(u, reach);

    /* Interior angle at b: now, and by the law of cosines for `reach`. */
    double cos_goal = (l1 * l1 + l2 * l2 - reach * reach) / (2.0 * l1 * l2);
    cos_goal = cos_goal < -1.0 ? -1.0 : cos_goal > 1.0 ? 1.0 : cos_goal;
    sw__vec3d hinge = sw__vec3d_cross(ba, bc);
    const double angle_now = atan2(sw__vec3d_length(hinge), sw__vec3d_dot(ba, bc));
    const double angle_goal = acos(cos_goal);

    /* The hinge: the current bend axis; for a straight or folded chain the
       pole's side, then mid_axis, then any perpendicular. A hinge n bends
       the knee towards n × line. */
    if (!sw__vec3d_unit(&hinge, 1e-7 * l1 * l2)) {
        sw__vec3d side = sw__vec3d_reject(pole, line), axis = sw__vec3d_reject(hinge_hint, line);
        if (has_pole && sw__vec3d_unit(&side, 1e-7 * sw__vec3d_length(pole))) {
            hinge = sw__vec3d_cross(line, side);
            sw__vec3d_unit(&hinge, 0.0);
        } else if (sw__vec3d_unit(&axis, 1e-7 * sw__vec3d_length(hinge_hint))) {
            hinge = sw__vec3d_scale(axis, -1.0); /* a positive turn about mid_axis folds the chain */
        } else {
            hinge = sw__vec3d_any_perpendicular(line);
        }
    }
    *qm = sw__quatd_axis_angle(hinge, angle_goal - angle_now);

    /* Start: point start → end at the target by the smallest rotation. */
    sw__vec3d end_dir = sw__vec3d_add(b, sw__quatd_rotate(*qm, bc));
    *qs = sw__vec3d_unit(&end_dir, 1e-12 * full) ? sw__from_to(end_dir, u, hinge) : sw__quatd_identity();

    /* Pole: twist about the line to the target until the hinge is
       normalize(u × pole⊥), which puts the knee on the pole's side. */
    if (has_pole) {
        sw__vec3d side = sw__vec3d_reject(pole, u);
        if (sw__vec3d_unit(&side, 1e-7 * sw__vec3d_length(pole))) {
            sw__vec3d want = sw__vec3d_cross(u, side), have = sw__quatd_rotate(*qs, hinge);
            double twist = atan2(sw__vec3d_dot(sw__vec3d_cross(have, want), u), sw__vec3d_dot(have, want));
            *qs = sw__quatd_mul(sw__quatd_axis_angle(u, twist), *qs);
        }
    }
    return true;
}

sw_ik_two_bone_result sw_ik_two_bone_job_run(const sw_ik_two_bone_job* job) {
    SW_ASSERT(job && job->local && job->world);
    SW_ASSERT(job->start < job->mid && job->mid < job->end && job->end < job->node_count);
    const sw_transform* local_s = &job->local[job->start];
    const sw_transform* local_m = &job->local[job->mid];
    const sw__joint start0 = sw__joint_of(&job->world[job->start], local_s);
    const sw__joint mid0 = sw__joint_of(&job->world[job->mid], local_m);
    const sw__vec3d a = start0.world.t, b0 = mid0.world.t;
    const sw__vec3d c0 =
        sw__vec3d_make(job->world[job->end].m[0][3], job->world[job->end].m[1][3], job->world[job->end].m[2][3]);
    const sw__vec3d target = sw__vec3d_of(job->target);
    const bool has_pole = job->pole_mode == SW_IK_POLE_POINT || job->pole_mode == SW_IK_POLE_DIRECTION;
    const sw__vec3d pole =
        job->pole_mode == SW_IK_POLE_POINT ? sw__vec3d_sub(sw__vec3d_of(job->pole), a) : sw__vec3d_of(job->pole);

    sw_ik_two_bone_result result;
    const double full = sw__vec3d_length(sw__vec3d_sub(b0, a)) + sw__vec3d_length(sw__vec3d_sub(c0, b0));
    const double tolerance = job->tolerance > 0.0f ? job->tolerance : 1e-4 * full;
    result.distance = (float)sw__vec3d_length(sw__vec3d_sub(c0, target));
    result.reached = result.distance <= tolerance;
    if (job->weight == 0.0f) return result;

    /* Full solves in chain space, y = Ms⁻¹·(x − a) with Ms the start's
       rotation frame, where the start's rotations are rigid. A second pass
       only when the mid's change was inexact and it helps. */
    sw__joint start = start0, mid = mid0;
    sw__vec3d c = c0;
    sw__quatd cs = sw__quatd_identity(), cm = sw__quatd_identity(); /* local changes so far */
    double last_miss = INFINITY;
    int passes = 0;
    for (int pass = 0; pass < SW_IK_MAX_PASSES; pass++) {
        sw__mat3d ms, ms_inv, mm, mm_inv;
        if (!sw__joint_frame(&start, &ms, &ms_inv) || !sw__joint_frame(&mid, &mm, &mm_inv)) break;
        const sw__vec3d yb = sw__mat3d_apply(&ms_inv, sw__vec3d_sub(mid.world.t, a)),
                        yc = sw__mat3d_apply(&ms_inv, sw__vec3d_sub(c, a));
        const sw__vec3d yt = sw__mat3d_apply(&ms_inv, sw__vec3d_sub(target, a)), yp = sw__mat3d_apply(&ms_inv, pole);
        const sw__vec3d yh = sw__mat3d_apply(&ms_inv, sw__mat3d_apply(&mid.world.a, sw__vec3d_of(job->mid_axis)));
        sw__quatd qs, qm;
        sw__vec3d ygoal;
        if (!sw__two_bone_solve(job, yb, yc, yt, has_pole, yp, yh, &qs, &qm, &ygoal)) break;
        /* The start's change is qs itself; the mid's frame in chain space is G = Ms⁻¹·Mm. */
        const sw__mat3d g = sw__mat3d_mul(&ms_inv, &mm), g_inv = sw__mat3d_mul(&mm_inv, &ms);
        bool exact;
        sw__quatd dcm = sw__frame_change(&g, &g_inv, qm, &exact);
        if (!exact) {
            /* Keep the nearest rotation's twist but turn the lower bone to
               exactly the direction asked for; only its length is then off,
               which the next pass measures. */
            sw__vec3d from = sw__quatd_rotate(dcm, sw__mat3d_apply(&g_inv, sw__vec3d_sub(yc, yb)));
            sw__vec3d to = sw__mat3d_apply(&g_inv, sw__quatd_rotate(qm, sw__vec3d_sub(yc, yb)));
            if (sw__vec3d_unit(&from, 0.0) && sw__vec3d_unit(&to, 0.0))
                dcm = sw__quatd_normalize(sw__quatd_mul(sw__from_to(from, to, sw__vec3d_any_perpendicular(from)), dcm));
        }
        const sw__mat3d ls = sw__world_change(&ms, &ms_inv, qs), lm = sw__world_change(&mm, &mm_inv, dcm);
        /* Where that really puts the end: the mid's change about b, then the start's about a. */
        const sw__aff about_b = sw__aff_about(&lm, mid.world.t), about_a = sw__aff_about(&ls, a);
        const sw__aff moved = sw__aff_mul(&about_a, &about_b);
        const sw__vec3d c_next = sw__aff_point(&moved, c);
        const double miss = sw__vec3d_length(sw__vec3d_sub(c_next, sw__vec3d_add(a, sw__mat3d_apply(&ms, ygoal))));
        if (pass > 0 && !(miss < last_miss)) break; /* not getting closer: keep the previous pass */
        cs = sw__quatd_mul(cs, qs);
        cm = sw__quatd_mul(cm, dcm);
        start.world = sw__aff_mul(&about_a, &start.world);
        mid.world = sw__aff_mul(&moved, &mid.world);
        c = c_next;
        last_miss = miss;
        passes++;
        if (exact || miss <= 1e-3 * tolerance) break;
    }

    if (passes == 0) return result; /* a zero-length bone or a singular frame: nothing written */

    /* Weight, then where the end lands with the rotations written: the
       weighted local changes as world changes of the input frames. */
    const double w = job->weight;
    const sw__quatd cs_w = w < 1.0 ? sw__quatd_pow(cs, w) : cs, cm_w = w < 1.0 ? sw__quatd_pow(cm, w) : cm;
    sw__mat3d m, m_inv;
    sw__mat3d ls = sw__mat3d_identity(), lm = ls;
    if (sw__joint_frame(&start0, &m, &m_inv)) ls = sw__world_change(&m, &m_inv, cs_w);
    if (sw__joint_frame(&mid0, &m, &m_inv)) lm = sw__world_change(&m, &m_inv, cm_w);
    const sw__aff about_b = sw__aff_about(&lm, b0), about_a = sw__aff_about(&ls, a);
    const sw__vec3d end = sw__aff_point(&about_a, sw__aff_point(&about_b, c0));
    job->local[job->start].rotation = sw__rotated_local(local_s->rotation, cs_w);
    job->local[job->mid].rotation = sw__rotated_local(local_m->rotation, cm_w);
    result.distance = (float)sw__vec3d_length(sw__vec3d_sub(end, target));
    result.reached = result.distance <= tolerance;
    return result;
}

/* ---- aim ------------------------------------------------------------------------------ */

static const char sw__aim_name[] = "aim IK job";

static sw__vec3d sw__or_default(sw_vec3 v, double x, double y, double z) {
    return v.x == 0.0f && v.y == 0.0f && v.z == 0.0f ? sw__vec3d_make(x, y, z) : sw__vec3d_of(v);
}

sw_result sw_ik_aim_job_validate(const sw_ik_aim_job* job, sw_diag* diag) {
    const char* name = sw__aim_name;
    if (!job) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "%s is NULL", name);
    sw_result res = sw__check_common(name, job->local, job->world, job->node_count, job->weight, job->tolerance, diag);
    if (res != SW_OK) return res;
    if (!job->joints || job->joint_count == 0)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "%s needs joints (joint_count >= 1)", name);
    for (size_t i = 0; i < job->joint_count; i++) {
        if (job->joints[i] >= job->node_count)
            return sw_diag_set(diag, SW_ERR_INDEX_OUT_OF_RANGE, (int64_t)i, "%s: joints[%zu] = %u is past node_count %zu",
                               name, i, job->joints[i], job->node_count);
        if (i > 0 && job->joints[i] <= job->joints[i - 1])
            return sw_diag_set(diag, SW_ERR_JOINT_ORDER, (int64_t)i,
                               "%s: joints[%zu] = %u does not come after joints[%zu] = %u (each joint is an ancestor "
                               "of the next)",
                               name, i, job->joints[i], i - 1, job->joints[i - 1]);
    }
    if (job->joint_weights) {
        for (size_t i = 0; i + 1 < job->joint_count; i++) {
            float w = job->joint_weights[i];
            if (!isfinite(w) || w < 0.0f || w > 1.0f)
                return sw_diag_set(diag, SW_ERR_INVALID_DATA, (int64_t)i, "%s: joint weight %zu is %g (allowed 0..1)",
                                   name, i, (double)w);
        }
    }
    if (!sw__finite3(job->target)) return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "%s: target is not finite", name);
    if (!sw__finite3(job->forward) || !sw__finite3(job->up) || !sw__finite3(job->world_up))
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "%s: forward, up and world_up must be finite", name);
    const sw__vec3d f = sw__or_default(job->forward, 0, 0, 1), u = sw__or_default(job->up, 0, 1, 0);
    if (!(sw__vec3d_length(sw__vec3d_cross(f, u)) > 1e-6 * sw__vec3d_length(f) * sw__vec3d_length(u)))
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "%s: forward (%g, %g, %g) and up (%g, %g, %g) are parallel",
                           name, f.x, f.y, f.z, u.x, u.y, u.z);
    for (size_t i = 0; i < job->joint_count; i++) {
        res = sw__check_turned_joint(name, "chain", job->joints[i], job->local, job->world, (int64_t)i, diag);
        if (res != SW_OK) return res;
    }
    return SW_OK;
}

/* The world rotation that takes unit forward f to unit direction t and
   puts up's part perpendicular to f into the plane of (t, world_up), on
   world_up's side: the frame (f, up⊥, f × up⊥) onto (t, wu⊥, t × wu⊥).
   When t is parallel to world_up the roll is free: the smallest f → t. */
static sw__quatd sw__aim_rotation(sw__vec3d f, sw__vec3d up, sw__vec3d t, sw__vec3d world_up) {
    sw__vec3d up_perp = sw__vec3d_reject(up, f), want_up = sw__vec3d_reject(world_up, t);
    if (!sw__vec3d_unit(&up_perp, 1e-12 * sw__vec3d_length(up)) || !sw__vec3d_unit(&want_up, 1e-9))
        return sw__from_to(f, t, sw__vec3d_any_perpendicular(f));
    const sw__vec3d from[3] = {f, up_perp, sw__vec3d_cross(f, up_perp)},
                    to[3] = {t, want_up, sw__vec3d_cross(t, want_up)};
    /* Q = Σₖ toₖ·fromₖᵀ */
    double a[3][3], b[3][3];
    for (int k = 0; k < 3; k++) {
        a[k][0] = to[k].x, a[k][1] = to[k].y, a[k][2] = to[k].z;
        b[k][0] = from[k].x, b[k][1] = from[k].y, b[k][2] = from[k].z;
    }
    sw__mat3d q;
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) q.m[r][c] = a[0][r] * b[0][c] + a[1][r] * b[1][c] + a[2][r] * b[2][c];
    return sw__quatd_from_mat3d(&q);
}

/* The last joint's forward and the direction to the target, from its world
   matrix; false when the target is at the joint. */
static bool sw__aim_state(const sw__aff* last, sw__vec3d forward, sw__vec3d target, sw__vec3d* out_forward,
                          sw__vec3d* out_dir) {
    *out_forward = sw__mat3d_apply(&last->a, forward);
    sw__vec3d_unit(out_forward, 0.0);
    *out_dir = sw__vec3d_sub(target, last->t);
    return sw__vec3d_unit(out_dir, 1e-12 * (1.0 + sw__vec3d_length(target) + sw__vec3d_length(last->t)));
}

sw_ik_aim_result sw_ik_aim_job_run(const sw_ik_aim_job* job) {
    SW_ASSERT(job && job->local && job->world && job->joints && job->joint_count > 0);
    const size_t n = job->joint_count;
    const uint32_t last = job->joints[n - 1];
    SW_ASSERT(last < job->node_count);
    const sw__vec3d forward = sw__or_default(job->forward, 0, 0, 1), up = sw__or_default(job->up, 0, 1, 0);
    sw__vec3d world_up = sw__or_default(job->world_up, 0, 1, 0);
    sw__vec3d_unit(&world_up, 0.0);
    const sw__vec3d target = sw__vec3d_of(job->target);
    const sw__aff last0 = sw__aff_of(&job->world[last]);
    const double tolerance = job->tolerance > 0.0f ? job->tolerance : 1e-4;

    /* `moved`: the world change of everything below the joints turned so far. */
    const sw__mat3d identity = sw__mat3d_identity();
    sw__aff moved = sw__aff_about(&identity, sw__vec3d_make(0, 0, 0));
    for (size_t i = 0; i < n && job->weight > 0.0f; i++) {
        const uint32_t node = job->joints[i];
        SW_ASSERT(node < job->node_count && (i == 0 || node > job->joints[i - 1]));
        const double fraction = job->weight * (i + 1 == n ? 1.0 : job->joint_weights ? job->joint_weights[i] : 0.0);
        if (!(fraction > 0.0)) continue;
        sw__joint joint = sw__joint_of(&job->world[node], &job->local[node]);
        joint.world = sw__aff_mul(&moved, &joint.world);
        sw__mat3d m, m_inv;
        if (!sw__joint_frame(&joint, &m, &m_inv)) continue;
        /* The last joint's axes, the target and world_up in this joint's
           rotation frame, where its rotations are rigid: the aim there is
           exact whatever scale or shear lies above it. */
        const sw__aff aimed = sw__aff_mul(&moved, &last0);
        sw__vec3d f = sw__mat3d_apply(&m_inv, sw__mat3d_apply(&aimed.a, forward)),
                  to = sw__mat3d_apply(&m_inv, sw__vec3d_sub(target, aimed.t));
        sw__vec3d wu = sw__mat3d_apply(&m_inv, world_up);
        if (!sw__vec3d_unit(
                &to, 1e-12 * (1.0 + sw__vec3d_length(target) + sw__vec3d_length(aimed.t)) * sw__mat3d_max_abs(&m_inv)))
            break;
        sw__vec3d_unit(&f, 0.0);
        sw__vec3d_unit(&wu, 0.0);
        sw__quatd q = sw__aim_rotation(f, sw__mat3d_apply(&m_inv, sw__mat3d_apply(&aimed.a, up)), to, wu);
        if (fraction < 1.0) q = sw__quatd_pow(q, fraction);
        const sw__mat3d l = sw__world_change(&m, &m_inv, q);
        const sw__aff step = sw__aff_about(&l, joint.world.t);
        moved = sw__aff_mul(&step, &moved);
        job->local[node].rotation = sw__rotated_local(job->local[node].rotation, q);
    }

    sw_ik_aim_result result = {0.0f, false};
    const sw__aff aimed = sw__aff_mul(&moved, &last0);
    sw__vec3d f, dir;
    if (sw__aim_state(&aimed, forward, target, &f, &dir)) {
        result.angle = (float)sw__vec3d_angle(f, dir);
        result.reached = result.angle <= tolerance;
    }
    return result;
}

void sw_ik_aim_fractions_from_shares(float* out_fractions, const float* shares, size_t count) {
    SW_ASSERT((out_fractions && shares) || count == 0);
    /* Backwards, so each share is read before its slot is written (out may be shares). */
    double rest = 0.0;
    for (size_t k = count; k-- > 0;) {
        const double s = shares[k];
        rest += s;
        out_fractions[k] = k + 1 == count ? 1.0f : rest > 0.0 ? (float)(s / rest) : 0.0f;
    }
}
