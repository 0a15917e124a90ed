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

typedef struct sw__v3 { double x, y, z; } sw__v3;
typedef struct sw__q { double x, y, z, w; } sw__q;
typedef struct sw__m3 { double m[3][3]; } sw__m3;
/* x ↦ a·x + t */
typedef struct sw__aff { sw__m3 a; sw__v3 t; } sw__aff;

/* ---- double vectors, quaternions, 3×3 ------------------------------------- */

static sw__v3 v3(double x, double y, double z) { sw__v3 r = {x, y, z}; return r; }
static sw__v3 v3_of(sw_vec3 v) { return v3(v.x, v.y, v.z); }
static sw__v3 v3_add(sw__v3 a, sw__v3 b) { return v3(a.x + b.x, a.y + b.y, a.z + b.z); }
static sw__v3 v3_sub(sw__v3 a, sw__v3 b) { return v3(a.x - b.x, a.y - b.y, a.z - b.z); }
static sw__v3 v3_scale(sw__v3 a, double s) { return v3(a.x * s, a.y * s, a.z * s); }
static double v3_dot(sw__v3 a, sw__v3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static sw__v3 v3_cross(sw__v3 a, sw__v3 b) {
    return v3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
static double v3_len(sw__v3 a) { return sqrt(v3_dot(a, a)); }
/* a without its part along unit u. */
static sw__v3 v3_reject(sw__v3 a, sw__v3 u) { return v3_sub(a, v3_scale(u, v3_dot(a, u))); }
/* Unit a when |a| > min_len (then true), else a unchanged and false. */
static bool v3_unit(sw__v3* a, double min_len) {
    double len = v3_len(*a);
    if (!(len > min_len)) return false;
    *a = v3_scale(*a, 1.0 / len);
    return true;
}
/* A unit vector perpendicular to unit u: u × the world axis least along u. */
static sw__v3 v3_any_perpendicular(sw__v3 u) {
    double ax = fabs(u.x), ay = fabs(u.y), az = fabs(u.z);
    sw__v3 e = ax <= ay && ax <= az ? v3(1, 0, 0) : ay <= az ? v3(0, 1, 0) : v3(0, 0, 1);
    sw__v3 p = v3_cross(u, e);
    v3_unit(&p, 0.0);
    return p;
}

static sw__q q_identity(void) { sw__q q = {0, 0, 0, 1}; return q; }
static sw__q q_of(sw_quat q) { sw__q r = {q.x, q.y, q.z, q.w}; return r; }
static sw__q q_mul(sw__q a, sw__q b) {
    sw__q r = {a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
               a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
    return r;
}
static sw__q q_normalize(sw__q q) {
    double n = sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    if (!(n > 0.0)) return q_identity();
    sw__q r = {q.x / n, q.y / n, q.z / n, q.w / n};
    return r;
}
/* Rotation by `angle` about unit `axis`. */
static sw__q q_axis_angle(sw__v3 axis, double angle) {
    double s = sin(0.5 * angle);
    sw__q q = {axis.x * s, axis.y * s, axis.z * s, cos(0.5 * angle)};
    return q;
}
/* slerp(identity, q, t) along the shorter arc: the rotation's angle times t. */
static sw__q q_pow(sw__q q, double t) {
    if (q.w < 0.0) q = (sw__q){-q.x, -q.y, -q.z, -q.w};
    double s = sqrt(q.x * q.x + q.y * q.y + q.z * q.z);
    if (!(s > 0.0)) return q_identity();
    double half = t * atan2(s, q.w), k = sin(half) / s;
    sw__q r = {q.x * k, q.y * k, q.z * k, cos(half)};
    return r;
}
static sw__m3 m3_of_q(sw__q q) {
    double xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z, xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z;
    double wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z;
    sw__m3 r = {{{1 - 2 * (yy + zz), 2 * (xy - wz), 2 * (xz + wy)},
                 {2 * (xy + wz), 1 - 2 * (xx + zz), 2 * (yz - wx)},
                 {2 * (xz - wy), 2 * (yz + wx), 1 - 2 * (xx + yy)}}};
    return r;
}
/* Quaternion of a rotation matrix (Shepperd: the largest of four square roots). */
static sw__q q_of_m3(const sw__m3* r) {
    const double(*m)[3] = r->m;
    double tr = m[0][0] + m[1][1] + m[2][2];
    sw__q q;
    if (tr >= m[0][0] && tr >= m[1][1] && tr >= m[2][2]) {
        double s = 2.0 * sqrt(1.0 + tr);
        q = (sw__q){(m[2][1] - m[1][2]) / s, (m[0][2] - m[2][0]) / s, (m[1][0] - m[0][1]) / s, 0.25 * s};
    } else if (m[0][0] >= m[1][1] && m[0][0] >= m[2][2]) {
        double s = 2.0 * sqrt(1.0 + m[0][0] - m[1][1] - m[2][2]);
        q = (sw__q){0.25 * s, (m[0][1] + m[1][0]) / s, (m[0][2] + m[2][0]) / s, (m[2][1] - m[1][2]) / s};
    } else if (m[1][1] >= m[2][2]) {
        double s = 2.0 * sqrt(1.0 + m[1][1] - m[0][0] - m[2][2]);
        q = (sw__q){(m[0][1] + m[1][0]) / s, 0.25 * s, (m[1][2] + m[2][1]) / s, (m[0][2] - m[2][0]) / s};
    } else {
        double s = 2.0 * sqrt(1.0 + m[2][2] - m[0][0] - m[1][1]);
        q = (sw__q){(m[0][2] + m[2][0]) / s, (m[1][2] + m[2][1]) / s, 0.25 * s, (m[1][0] - m[0][1]) / s};
    }
    return q_normalize(q);
}
static sw__v3 q_rotate(sw__q q, sw__v3 v) {
    /* v + 2w(u × v) + 2u × (u × v), u the vector part */
    sw__v3 u = v3(q.x, q.y, q.z), uv = v3_cross(u, v), uuv = v3_cross(u, uv);
    return v3_add(v, v3_add(v3_scale(uv, 2.0 * q.w), v3_scale(uuv, 2.0)));
}
/* The smallest rotation taking unit a to unit b; half a turn about unit
   `fallback` (perpendicular to a) when they are opposite. */
static sw__q q_from_to(sw__v3 a, sw__v3 b, sw__v3 fallback) {
    double w = 1.0 + v3_dot(a, b);
    if (w < 1e-14) return q_axis_angle(fallback, SW_PI);
    sw__v3 c = v3_cross(a, b);
    sw__q q = {c.x, c.y, c.z, w};
    return q_normalize(q);
}

static sw__m3 m3_mul(const sw__m3* a, const sw__m3* b) {
    sw__m3 r;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) r.m[i][j] = a->m[i][0] * b->m[0][j] + a->m[i][1] * b->m[1][j] + a->m[i][2] * b->m[2][j];
    return r;
}
static sw__v3 m3_apply(const sw__m3* a, sw__v3 v) {
    return v3(a->m[0][0] * v.x + a->m[0][1] * v.y + a->m[0][2] * v.z, a->m[1][0] * v.x + a->m[1][1] * v.y + a->m[1][2] * v.z,
              a->m[2][0] * v.x + a->m[2][1] * v.y + a->m[2][2] * v.z);
}
static double m3_det(const sw__m3* a) {
    const double(*m)[3] = a->m;
    return m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
           m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
}
/* The largest |entry|, for relative thresholds. */
static double m3_norm(const sw__m3* a) {
    double n = 0.0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) n = fmax(n, fabs(a->m[i][j]));
    return n;
}
/* Inverse by the adjugate; false when |det| is below 1e-12 of the scale³
   (the rule sw_mat34_inverse uses). */
static bool m3_inverse(sw__m3* out, const sw__m3* a) {
    const double(*m)[3] = a->m;
    double det = m3_det(a), n = m3_norm(a);
    if (!(fabs(det) > 1e-12 * n * n * n)) return false;
    double k = 1.0 / det;
    out->m[0][0] = (m[1][1] * m[2][2] - m[1][2] * m[2][1]) * k;
    out->m[0][1] = (m[0][2] * m[2][1] - m[0][1] * m[2][2]) * k;
    out->m[0][2] = (m[0][1] * m[1][2] - m[0][2] * m[1][1]) * k;
    out->m[1][0] = (m[1][2] * m[2][0] - m[1][0] * m[2][2]) * k;
    out->m[1][1] = (m[0][0] * m[2][2] - m[0][2] * m[2][0]) * k;
    out->m[1][2] = (m[0][2] * m[1][0] - m[0][0] * m[1][2]) * k;
    out->m[2][0] = (m[1][0] * m[2][1] - m[1][1] * m[2][0]) * k;
    out->m[2][1] = (m[0][1] * m[2][0] - m[0][0] * m[2][1]) * k;
    out->m[2][2] = (m[0][0] * m[1][1] - m[0][1] * m[1][0]) * k;
    return true;
}
/* How far XᵀX is from the identity (largest |entry|). */
static double m3_orthogonality_defect(const sw__m3* x) {
    double worst = 0.0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double d = x->m[0][i] * x->m[0][j] + x->m[1][i] * x->m[1][j] + x->m[2][i] * x->m[2][j];
            worst = fmax(worst, fabs(d - (i == j ? 1.0 : 0.0)));
        }
    return worst;
}
/* The rotation nearest to x (det x > 0): the orthogonal polar factor by
   Newton's iteration X ← ½(γX + X⁻ᵀ/γ), γ = |det X|^(−1/3). */
static sw__m3 m3_nearest_rotation(sw__m3 x) {
    for (int iteration = 0; iteration < 40; iteration++) {
        sw__m3 inv;
        double det = m3_det(&x);
        if (!(det > 0.0) || !m3_inverse(&inv, &x)) break;
        double g = pow(det, -1.0 / 3.0), change = 0.0;
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) {
                double v = 0.5 * (g * x.m[i][j] + inv.m[j][i] / g);
                change = fmax(change, fabs(v - x.m[i][j]));
                x.m[i][j] = v;
            }
        if (change < 1e-15) break;
    }
    return x;
}

static sw__aff aff_of(const sw_mat34* m) {
    sw__aff r;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) r.a.m[i][j] = m->m[i][j];
    r.t = v3(m->m[0][3], m->m[1][3], m->m[2][3]);
    return r;
}
static sw__v3 aff_point(const sw__aff* f, sw__v3 p) { return v3_add(m3_apply(&f->a, p), f->t); }
/* f·g (g first). */
static sw__aff aff_mul(const sw__aff* f, const sw__aff* g) {
    sw__aff r;
    r.a = m3_mul(&f->a, &g->a);
    r.t = aff_point(f, g->t);
    return r;
}
/* x ↦ p + l·(x − p): a linear change about the point p. */
static sw__aff aff_about(const sw__m3* l, sw__v3 p) {
    sw__aff r;
    r.a = *l;
    r.t = v3_sub(p, m3_apply(l, p));
    return r;
}

/* ---- world rotations → local rotations -------------------------------------- */

/* A joint as the solve sees it: its current world matrix and its own scale. */
typedef struct sw__joint {
    sw__aff world;
    sw__v3 scale;
} sw__joint;

static sw__joint joint_of(const sw_mat34* world, const sw_transform* local) {
    sw__joint j;
    j.world = aff_of(world);
    j.scale = v3_of(local->scale);
    return j;
}

/* M, the joint's world 3×3 without its own scale (parent world 3×3 · R),
   and its inverse; false when singular. */
static bool joint_frame(const sw__joint* j, sw__m3* m, sw__m3* m_inv) {
    const double s[3] = {j->scale.x, j->scale.y, j->scale.z};
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) m->m[r][c] = s[c] != 0.0 ? j->world.a.m[r][c] / s[c] : 0.0;
    return m3_inverse(m_inv, m);
}

/* The world linear change L = M·C·M⁻¹ that the local change C makes. */
static sw__m3 world_change(const sw__m3* m, const sw__m3* m_inv, sw__q c) {
    sw__m3 cm = m3_of_q(c), mc = m3_mul(m, &cm);
    return m3_mul(&mc, m_inv);
}

/* A rotation q of the chain space, as a change of a joint whose rotation
   frame is g in that space (world = chain frame · g): C = g⁻¹·Q·g, or the
   nearest rotation to it when that is not one (g not a rotation times a
   uniform scale; `exact` false). */
static sw__q frame_change(const sw__m3* g, const sw__m3* g_inv, sw__q q, bool* exact) {
    sw__m3 qm = m3_of_q(q), qg = m3_mul(&qm, g), x = m3_mul(g_inv, &qg);
    *exact = m3_orthogonality_defect(&x) <= 1e-9;
    if (!*exact) x = m3_nearest_rotation(x);
    return q_of_m3(&x);
}

/* local rotation · C, as a unit float quaternion. */
static sw_quat rotated_local(sw_quat r, sw__q c) {
    sw__q q = q_normalize(q_mul(q_of(r), c));
    sw_quat out = {(float)q.x, (float)q.y, (float)q.z, (float)q.w};
    return out;
}

/* ---- shared validation ------------------------------------------------------- */

static bool finite3(sw_vec3 v) { return isfinite(v.x) && isfinite(v.y) && isfinite(v.z); }

static bool overlaps(const void* a, size_t a_size, const void* b, size_t b_size) {
    const char *pa = (const char*)a, *pb = (const char*)b;
    return pa < pb + b_size && pb < pa + a_size;
}

/* The common fields: arrays, count, aliasing, weight, tolerance. */
static sw_result check_common(const char* name, const sw_transform* local, const sw_mat34* world, size_t node_count,
                              float weight, float tolerance, sw_diag* diag) {
    if (!local || !world) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "%s needs local and world", name);
    if (node_count == 0 || node_count > UINT32_MAX)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "%s has node_count %zu (allowed 1..%u)", name,
                           node_count, (unsigned)UINT32_MAX);
    if (overlaps(local, node_count * sizeof *local, world, node_count * sizeof *world))
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
static sw_result check_turned_joint(const char* name, const char* role, uint32_t node, const sw_transform* local,
                                    const sw_mat34* world, int64_t diag_index, sw_diag* diag) {
    const sw_transform* t = &local[node];
    const sw_quat q = t->rotation;
    const float len2 = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
    if (!(isfinite(len2) && fabsf(len2 - 1.0f) <= 2e-3f))
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, diag_index, "%s: %s node %u has a rotation that is not unit",
                           name, role, node);
    if (!finite3(t->scale) || t->scale.x == 0.0f || t->scale.y == 0.0f || t->scale.z == 0.0f)
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, diag_index,
                           "%s: %s node %u has scale (%g, %g, %g); it must be finite and nonzero", name, role, node,
                           (double)t->scale.x, (double)t->scale.y, (double)t->scale.z);
    const sw_mat34* w = &world[node];
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 4; c++)
            if (!isfinite(w->m[r][c]))
                return sw_diag_set(diag, SW_ERR_INVALID_DATA, diag_index, "%s: %s node %u has a non-finite world matrix",
                                   name, role, node);
    sw__joint j = joint_of(w, t);
    sw__m3 m, m_inv;
    if (!joint_frame(&j, &m, &m_inv))
        return sw_diag_set(diag, SW_ERR_SINGULAR, diag_index, "%s: %s node %u has a singular world matrix", name,
                           role, node);
    return SW_OK;
}

/* ---- soft reach ----------------------------------------------------------------- */

static double soft_reach(double d, double length, double soft) {
    if (!(d > 0.0) || !(length > 0.0)) return 0.0;
    if (!(soft > 0.0)) return d < length ? d : length;
    double start = (1.0 - soft) * length, zone = soft * length;
    if (d <= start) return d;
    return start + zone * -expm1(-(d - start) / zone);
}

float sw_ik_soft_reach(float distance, float full_length, float soft) {
    return (float)soft_reach(distance, full_length, soft);
}

/* ---- two-bone --------------------------------------------------------------------- */

static const char sw__two_bone_name[] = "two-bone IK job";

sw_result sw_ik_two_bone_job_validate(const sw_ik_two_bone_job* job, sw_diag* diag) {
    const char* name = sw__two_bone_name;
    if (!job) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "%s is NULL", name);
    sw_result res = check_common(name, job->local, job->world, job->node_count, job->weight, job->tolerance, diag);
    if (res != SW_OK) return res;
    if (job->end >= job->node_count)
        return sw_diag_set(diag, SW_ERR_INDEX_OUT_OF_RANGE, job->end, "%s: end node %u is past node_count %zu", name,
                           job->end, job->node_count);
    if (!(job->start < job->mid && job->mid < job->end))
        return sw_diag_set(diag, SW_ERR_JOINT_ORDER, job->mid,
                           "%s: start %u, mid %u, end %u must be increasing (an ancestor comes before its children)",
                           name, job->start, job->mid, job->end);
    if (!finite3(job->target)) return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "%s: target is not finite", name);
    if ((unsigned)job->pole_mode > (unsigned)SW_IK_POLE_DIRECTION)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "%s: unknown pole mode %d", name, (int)job->pole_mode);
    if (job->pole_mode == SW_IK_POLE_POINT || job->pole_mode == SW_IK_POLE_DIRECTION) {
        if (!finite3(job->pole)) return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "%s: pole is not finite", name);
        if (job->pole_mode == SW_IK_POLE_DIRECTION && v3_len(v3_of(job->pole)) == 0.0)
            return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "%s: pole direction is zero", name);
    }
    if (!finite3(job->mid_axis)) return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "%s: mid_axis is not finite", name);
    if (!isfinite(job->soft) || job->soft < 0.0f || job->soft >= 1.0f)
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "%s has soft %g (allowed 0 <= soft < 1)", name,
                           (double)job->soft);
    res = check_turned_joint(name, "start", job->start, job->local, job->world, job->start, diag);
    if (res != SW_OK) return res;
    return check_turned_joint(name, "mid", job->mid, job->local, job->world, job->mid, diag);
}

/* One solve in chain space, the start joint at the origin: positions b
   (mid) and c (end), the target, the pole as a vector from the start, and
   mid_axis. Gives the rotation of the mid joint about b (qm, applied
   first) and of the start joint about the origin (qs), and the point the
   end is meant to reach. False for a zero-length bone. */
static bool two_bone_solve(const sw_ik_two_bone_job* job, sw__v3 b, sw__v3 c, sw__v3 target, bool has_pole,
                           sw__v3 pole, sw__v3 hinge_hint, sw__q* qs, sw__q* qm, sw__v3* goal) {
    const sw__v3 bc = v3_sub(c, b), ba = v3_scale(b, -1.0);
    const double l1 = v3_len(b), l2 = v3_len(bc);
    if (!(l1 > 0.0) || !(l2 > 0.0)) return false;
    const double full = l1 + l2, shortest = fabs(l1 - l2);

    /* The chain's line now (start → end, else the first bone) and the
       direction to the target (that line when the target is at the start). */
    sw__v3 line = c;
    if (!v3_unit(&line, 1e-12 * full)) line = v3_scale(b, 1.0 / l1);
    const double d = v3_len(target);
    const sw__v3 u = d > 1e-12 * full ? v3_scale(target, 1.0 / d) : line;

    double reach = soft_reach(d, full, job->soft);
    if (reach < shortest) reach = shortest;
    *goal = v3_scale(u, reach);

    /* Interior angle at b: now, and by the law of cosines for `reach`. */
    double cos_goal = (l1 * l1 + l2 * l2 - reach * reach) / (2.0 * l1 * l2);
    cos_goal = cos_goal < -1.0 ? -1.0 : cos_goal > 1.0 ? 1.0 : cos_goal;
    sw__v3 hinge = v3_cross(ba, bc);
    const double angle_now = atan2(v3_len(hinge), v3_dot(ba, bc));
    const double angle_goal = acos(cos_goal);

    /* The hinge: the current bend axis; for a straight or folded chain the
       pole's side, then mid_axis, then any perpendicular. A hinge n bends
       the knee towards n × line. */
    if (!v3_unit(&hinge, 1e-7 * l1 * l2)) {
        sw__v3 side = v3_reject(pole, line), axis = v3_reject(hinge_hint, line);
        if (has_pole && v3_unit(&side, 1e-7 * v3_len(pole))) {
            hinge = v3_cross(line, side);
            v3_unit(&hinge, 0.0);
        } else if (v3_unit(&axis, 1e-7 * v3_len(hinge_hint))) {
            hinge = v3_scale(axis, -1.0); /* a positive turn about mid_axis folds the chain */
        } else {
            hinge = v3_any_perpendicular(line);
        }
    }
    *qm = q_axis_angle(hinge, angle_goal - angle_now);

    /* Start: point start → end at the target by the smallest rotation. */
    sw__v3 end_dir = v3_add(b, q_rotate(*qm, bc));
    *qs = v3_unit(&end_dir, 1e-12 * full) ? q_from_to(end_dir, u, hinge) : q_identity();

    /* Pole: twist about the line to the target until the hinge is
       normalize(u × pole⊥), which puts the knee on the pole's side. */
    if (has_pole) {
        sw__v3 side = v3_reject(pole, u);
        if (v3_unit(&side, 1e-7 * v3_len(pole))) {
            sw__v3 want = v3_cross(u, side), have = q_rotate(*qs, hinge);
            double twist = atan2(v3_dot(v3_cross(have, want), u), v3_dot(have, want));
            *qs = q_mul(q_axis_angle(u, twist), *qs);
        }
    }
    return true;
}

sw_ik_two_bone_result sw_ik_two_bone_job_run(const sw_ik_two_bone_job* job) {
    SW_ASSERT(job && job->local && job->world);
    SW_ASSERT(job->start < job->mid && job->mid < job->end && job->end < job->node_count);
    const sw_transform* local_s = &job->local[job->start];
    const sw_transform* local_m = &job->local[job->mid];
    const sw__joint start0 = joint_of(&job->world[job->start], local_s);
    const sw__joint mid0 = joint_of(&job->world[job->mid], local_m);
    const sw__v3 a = start0.world.t, b0 = mid0.world.t;
    const sw__v3 c0 = v3(job->world[job->end].m[0][3], job->world[job->end].m[1][3], job->world[job->end].m[2][3]);
    const sw__v3 target = v3_of(job->target);
    const bool has_pole = job->pole_mode == SW_IK_POLE_POINT || job->pole_mode == SW_IK_POLE_DIRECTION;
    const sw__v3 pole = job->pole_mode == SW_IK_POLE_POINT ? v3_sub(v3_of(job->pole), a) : v3_of(job->pole);

    sw_ik_two_bone_result result;
    const double full = v3_len(v3_sub(b0, a)) + v3_len(v3_sub(c0, b0));
    const double tolerance = job->tolerance > 0.0f ? job->tolerance : 1e-4 * full;
    result.distance = (float)v3_len(v3_sub(c0, target));
    result.reached = result.distance <= tolerance;
    if (job->weight == 0.0f) return result;

    /* Full solves in chain space, y = Ms⁻¹·(x − a) with Ms the start's
       rotation frame, where the start's rotations are rigid. A second pass
       only when the mid's change was inexact and it helps. */
    sw__joint start = start0, mid = mid0;
    sw__v3 c = c0;
    sw__q cs = q_identity(), cm = q_identity(); /* local changes so far */
    double last_miss = INFINITY;
    int passes = 0;
    for (int pass = 0; pass < SW_IK_MAX_PASSES; pass++) {
        sw__m3 ms, ms_inv, mm, mm_inv;
        if (!joint_frame(&start, &ms, &ms_inv) || !joint_frame(&mid, &mm, &mm_inv)) break;
        const sw__v3 yb = m3_apply(&ms_inv, v3_sub(mid.world.t, a)), yc = m3_apply(&ms_inv, v3_sub(c, a));
        const sw__v3 yt = m3_apply(&ms_inv, v3_sub(target, a)), yp = m3_apply(&ms_inv, pole);
        const sw__v3 yh = m3_apply(&ms_inv, m3_apply(&mid.world.a, v3_of(job->mid_axis)));
        sw__q qs, qm;
        sw__v3 ygoal;
        if (!two_bone_solve(job, yb, yc, yt, has_pole, yp, yh, &qs, &qm, &ygoal)) break;
        /* The start's change is qs itself; the mid's frame in chain space is G = Ms⁻¹·Mm. */
        const sw__m3 g = m3_mul(&ms_inv, &mm), g_inv = m3_mul(&mm_inv, &ms);
        bool exact;
        sw__q dcm = frame_change(&g, &g_inv, qm, &exact);
        if (!exact) {
            /* Keep the nearest rotation's twist but turn the lower bone to
               exactly the direction asked for; only its length is then off,
               which the next pass measures. */
            sw__v3 from = q_rotate(dcm, m3_apply(&g_inv, v3_sub(yc, yb)));
            sw__v3 to = m3_apply(&g_inv, q_rotate(qm, v3_sub(yc, yb)));
            if (v3_unit(&from, 0.0) && v3_unit(&to, 0.0))
                dcm = q_normalize(q_mul(q_from_to(from, to, v3_any_perpendicular(from)), dcm));
        }
        const sw__m3 ls = world_change(&ms, &ms_inv, qs), lm = world_change(&mm, &mm_inv, dcm);
        /* Where that really puts the end: the mid's change about b, then the start's about a. */
        const sw__aff about_b = aff_about(&lm, mid.world.t), about_a = aff_about(&ls, a);
        const sw__aff moved = aff_mul(&about_a, &about_b);
        const sw__v3 c_next = aff_point(&moved, c);
        const double miss = v3_len(v3_sub(c_next, v3_add(a, m3_apply(&ms, ygoal))));
        if (pass > 0 && !(miss < last_miss)) break; /* not getting closer: keep the previous pass */
        cs = q_mul(cs, qs);
        cm = q_mul(cm, dcm);
        start.world = aff_mul(&about_a, &start.world);
        mid.world = aff_mul(&moved, &mid.world);
        c = c_next;
        last_miss = miss;
        passes++;
        if (exact || miss <= 1e-3 * tolerance) break;
    }

    if (passes == 0) return result; /* a zero-length bone or a singular frame: nothing written */

    /* Weight, then where the end lands with the rotations written: the
       weighted local changes as world changes of the input frames. */
    const double w = job->weight;
    const sw__q cs_w = w < 1.0 ? q_pow(cs, w) : cs, cm_w = w < 1.0 ? q_pow(cm, w) : cm;
    sw__m3 m, m_inv;
    sw__m3 ls = m3_of_q(q_identity()), lm = ls;
    if (joint_frame(&start0, &m, &m_inv)) ls = world_change(&m, &m_inv, cs_w);
    if (joint_frame(&mid0, &m, &m_inv)) lm = world_change(&m, &m_inv, cm_w);
    const sw__aff about_b = aff_about(&lm, b0), about_a = aff_about(&ls, a);
    const sw__v3 end = aff_point(&about_a, aff_point(&about_b, c0));
    job->local[job->start].rotation = rotated_local(local_s->rotation, cs_w);
    job->local[job->mid].rotation = rotated_local(local_m->rotation, cm_w);
    result.distance = (float)v3_len(v3_sub(end, target));
    result.reached = result.distance <= tolerance;
    return result;
}

/* ---- aim ------------------------------------------------------------------------------ */

static const char sw__aim_name[] = "aim IK job";

static sw__v3 or_default(sw_vec3 v, double x, double y, double z) {
    return v.x == 0.0f && v.y == 0.0f && v.z == 0.0f ? v3(x, y, z) : v3_of(v);
}

sw_result sw_ik_aim_job_validate(const sw_ik_aim_job* job, sw_diag* diag) {
    const char* name = sw__aim_name;
    if (!job) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "%s is NULL", name);
    sw_result res = check_common(name, job->local, job->world, job->node_count, job->weight, job->tolerance, diag);
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
    if (!finite3(job->target)) return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "%s: target is not finite", name);
    if (!finite3(job->forward) || !finite3(job->up) || !finite3(job->world_up))
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "%s: forward, up and world_up must be finite", name);
    const sw__v3 f = or_default(job->forward, 0, 0, 1), u = or_default(job->up, 0, 1, 0);
    if (!(v3_len(v3_cross(f, u)) > 1e-6 * v3_len(f) * v3_len(u)))
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "%s: forward (%g, %g, %g) and up (%g, %g, %g) are parallel",
                           name, f.x, f.y, f.z, u.x, u.y, u.z);
    for (size_t i = 0; i < job->joint_count; i++) {
        res = check_turned_joint(name, "chain", job->joints[i], job->local, job->world, (int64_t)i, diag);
        if (res != SW_OK) return res;
    }
    return SW_OK;
}

/* The world rotation that takes unit forward f to unit direction t and
   puts up's part perpendicular to f into the plane of (t, world_up), on
   world_up's side: the frame (f, up⊥, f × up⊥) onto (t, wu⊥, t × wu⊥).
   When t is parallel to world_up the roll is free: the smallest f → t. */
static sw__q aim_rotation(sw__v3 f, sw__v3 up, sw__v3 t, sw__v3 world_up) {
    sw__v3 up_perp = v3_reject(up, f), want_up = v3_reject(world_up, t);
    if (!v3_unit(&up_perp, 1e-12 * v3_len(up)) || !v3_unit(&want_up, 1e-9))
        return q_from_to(f, t, v3_any_perpendicular(f));
    const sw__v3 from[3] = {f, up_perp, v3_cross(f, up_perp)}, to[3] = {t, want_up, v3_cross(t, want_up)};
    /* Q = Σₖ toₖ·fromₖᵀ */
    double a[3][3], b[3][3];
    for (int k = 0; k < 3; k++) {
        a[k][0] = to[k].x, a[k][1] = to[k].y, a[k][2] = to[k].z;
        b[k][0] = from[k].x, b[k][1] = from[k].y, b[k][2] = from[k].z;
    }
    sw__m3 q;
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) q.m[r][c] = a[0][r] * b[0][c] + a[1][r] * b[1][c] + a[2][r] * b[2][c];
    return q_of_m3(&q);
}

/* The last joint's forward and the direction to the target, from its world
   matrix; false when the target is at the joint. */
static bool aim_state(const sw__aff* last, sw__v3 forward, sw__v3 target, sw__v3* out_forward, sw__v3* out_dir) {
    *out_forward = m3_apply(&last->a, forward);
    v3_unit(out_forward, 0.0);
    *out_dir = v3_sub(target, last->t);
    return v3_unit(out_dir, 1e-12 * (1.0 + v3_len(target) + v3_len(last->t)));
}

static double angle_between(sw__v3 a, sw__v3 b) { return atan2(v3_len(v3_cross(a, b)), v3_dot(a, b)); }

sw_ik_aim_result sw_ik_aim_job_run(const sw_ik_aim_job* job) {
    SW_ASSERT(job && job->local && job->world && job->joints && job->joint_count > 0);
    const size_t n = job->joint_count;
    const uint32_t last = job->joints[n - 1];
    SW_ASSERT(last < job->node_count);
    const sw__v3 forward = or_default(job->forward, 0, 0, 1), up = or_default(job->up, 0, 1, 0);
    sw__v3 world_up = or_default(job->world_up, 0, 1, 0);
    v3_unit(&world_up, 0.0);
    const sw__v3 target = v3_of(job->target);
    const sw__aff last0 = aff_of(&job->world[last]);
    const double tolerance = job->tolerance > 0.0f ? job->tolerance : 1e-4;

    /* `moved`: the world change of everything below the joints turned so far. */
    sw__aff moved = aff_about(&(sw__m3){{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}}, v3(0, 0, 0));
    for (size_t i = 0; i < n && job->weight > 0.0f; i++) {
        const uint32_t node = job->joints[i];
        SW_ASSERT(node < job->node_count && (i == 0 || node > job->joints[i - 1]));
        const double fraction = job->weight * (i + 1 == n ? 1.0 : job->joint_weights ? job->joint_weights[i] : 0.0);
        if (!(fraction > 0.0)) continue;
        sw__joint joint = joint_of(&job->world[node], &job->local[node]);
        joint.world = aff_mul(&moved, &joint.world);
        sw__m3 m, m_inv;
        if (!joint_frame(&joint, &m, &m_inv)) continue;
        /* The last joint's axes, the target and world_up in this joint's
           rotation frame, where its rotations are rigid: the aim there is
           exact whatever scale or shear lies above it. */
        const sw__aff aimed = aff_mul(&moved, &last0);
        sw__v3 f = m3_apply(&m_inv, m3_apply(&aimed.a, forward)), to = m3_apply(&m_inv, v3_sub(target, aimed.t));
        sw__v3 wu = m3_apply(&m_inv, world_up);
        if (!v3_unit(&to, 1e-12 * (1.0 + v3_len(target) + v3_len(aimed.t)) * m3_norm(&m_inv))) break;
        v3_unit(&f, 0.0);
        v3_unit(&wu, 0.0);
        sw__q q = aim_rotation(f, m3_apply(&m_inv, m3_apply(&aimed.a, up)), to, wu);
        if (fraction < 1.0) q = q_pow(q, fraction);
        const sw__m3 l = world_change(&m, &m_inv, q);
        const sw__aff step = aff_about(&l, joint.world.t);
        moved = aff_mul(&step, &moved);
        job->local[node].rotation = rotated_local(job->local[node].rotation, q);
    }

    sw_ik_aim_result result = {0.0f, false};
    const sw__aff aimed = aff_mul(&moved, &last0);
    sw__v3 f, dir;
    if (aim_state(&aimed, forward, target, &f, &dir)) {
        result.angle = (float)angle_between(f, dir);
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
