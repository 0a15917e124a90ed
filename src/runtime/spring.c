/* Spring bones (sinew/spring.h): validation of a set against a model, the
   caller-owned state, and the fixed-step Verlet integrator. The readers
   are in spring_read.c. The state lives in the caller's memory, with
   O(nodes + bones) scratch that checking, ordering and filling it use so
   that their work grows with the set as n log n at most (spring.h,
   BOUNDED WORK); sw_spring_sizes_of allocates the checking part for its
   own check. Nothing else allocates. */
#include "sinew/spring.h"

#include "../base/base_internal.h"
#include "../anim/local_to_model_internal.h"
#include "spring_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- small maths ---------------------------------------------------------------------------- */

static sw_vec3 sw__mat_origin(const sw_mat34* m) { return sw_vec3_make(m->m[0][3], m->m[1][3], m->m[2][3]); }

/* The largest column length of m's 3×3: the scale applied to radii. */
static float sw__mat_scale(const sw_mat34* m) {
    float best = 0.0f;
    for (int c = 0; c < 3; c++) {
        float l = sqrtf(m->m[0][c] * m->m[0][c] + m->m[1][c] * m->m[1][c] + m->m[2][c] * m->m[2][c]);
        if (l > best) best = l;
    }
    return best;
}

/* The shortest rotation taking direction a to direction b (neither need be
   unit). Antiparallel: a half turn about an axis perpendicular to a. A
   zero vector gives identity. */
static sw_quat sw__quat_from_to(sw_vec3 a, sw_vec3 b) {
    float la = sw_vec3_length(a), lb = sw_vec3_length(b);
    if (!(la > 0.0f) || !(lb > 0.0f)) return sw_quat_identity();
    a = sw_vec3_scale(a, 1.0f / la);
    b = sw_vec3_scale(b, 1.0f / lb);
    float d = sw_vec3_dot(a, b);
    if (d < -0.999999f) {
        sw_vec3 axis = sw_vec3_cross(sw_vec3_make(1.0f, 0.0f, 0.0f), a);
        if (sw_vec3_dot(axis, axis) < 1e-6f) axis = sw_vec3_cross(sw_vec3_make(0.0f, 1.0f, 0.0f), a);
        axis = sw_vec3_normalize(axis);
        sw_quat q = {axis.x, axis.y, axis.z, 0.0f};
        return q;
    }
    sw_vec3 c = sw_vec3_cross(a, b);
    sw_quat q = {c.x, c.y, c.z, 1.0f + d};
    return sw_quat_normalize(q);
}

/* ---- the model's rest pose ------------------------------------------------------------------ */

static sw_mat34 sw__rest_local(const sw_model* model, uint32_t node) {
    const sw_model_node* n = &model->nodes[node];
    if (n->has_matrix) return n->matrix;
    sw_mat34 m;
    sw__pose_trs_to_mat34(&m, &model->rest_local[node]);
    return m;
}

sw_mat34 sw__spring_rest_world(const sw_model* model, uint32_t node) {
    sw_mat34 m = sw__rest_local(model, node);
    for (int32_t p = model->nodes[node].parent; p >= 0; p = model->nodes[p].parent) {
        sw_mat34 l = sw__rest_local(model, (uint32_t)p);
        sw__pose_mat34_mul(&m, &l, &m);
    }
    return m;
}

bool sw__spring_is_ancestor(const sw_model* model, uint32_t ancestor, uint32_t node) {
    for (int32_t p = model->nodes[node].parent; p >= 0; p = model->nodes[p].parent)
        if ((uint32_t)p == ancestor) return true;
    return false;
}

/* Nodes strictly below `ancestor` down to `node`, inclusive (node must be a
   descendant). */
static uint32_t sw__path_length(const sw_model* model, uint32_t ancestor, uint32_t node) {
    uint32_t n = 0;
    for (int32_t p = (int32_t)node; p >= 0 && (uint32_t)p != ancestor; p = model->nodes[p].parent) n++;
    return n;
}

/* The tail of a node tail in the head's space: the rest locals of the
   nodes below head down to tail, applied to the origin. */
sw_vec3 sw__spring_tail_local_of_node(const sw_model* model, uint32_t head, uint32_t tail) {
    sw_mat34 m = sw__rest_local(model, tail);
    for (int32_t p = model->nodes[tail].parent; p >= 0 && (uint32_t)p != head; p = model->nodes[p].parent) {
        sw_mat34 l = sw__rest_local(model, (uint32_t)p);
        sw__pose_mat34_mul(&m, &l, &m);
    }
    return sw__mat_origin(&m);
}

sw_result sw__spring_virtual_tail(const sw_model* model, uint32_t head, float length, sw_vec3* out_tail_local,
                                  const char** out_problem) {
    /* three-vrm: normalize(the joint's local position) · length, in the
       joint's own space. */
    *out_tail_local = sw_vec3_make(0.0f, 0.0f, 0.0f);
    const sw_model_node* n = &model->nodes[head];
    sw_vec3 t = n->has_matrix ? sw__mat_origin(&n->matrix) : model->rest_local[head].translation;
    float d = sw_vec3_length(t);
    if (!(d > 0.0f) || !isfinite(d)) {
        *out_problem = "a virtual tail has no direction: the joint's rest translation is zero";
        return SW_ERR_INVALID_DATA;
    }
    *out_tail_local = sw_vec3_scale(t, length / d);
    return SW_OK;
}

bool sw__spring_bone_has_length(const sw_model* model, uint32_t head, sw_vec3 tail_local) {
    sw_mat34 hw = sw__spring_rest_world(model, head);
    sw_vec3 d = sw_mat34_apply_dir(&hw, tail_local);
    return sw_vec3_length(d) > 1e-6f;
}

static size_t sw__align16(size_t n) { return (n + 15) & ~(size_t)15; }

/* ---- validation ------------------------------------------------------------------------------- */

static bool sw__finite3(sw_vec3 v) { return isfinite(v.x) && isfinite(v.y) && isfinite(v.z); }
static bool sw__range_ok(size_t first, size_t count, size_t size) { return first <= size && count <= size - first; }

/* The bones of chain c: joint_count − 1, plus one for a virtual tail. */
static size_t sw__chain_bones(const sw_spring_chain* c) {
    return c->joint_count - 1 + (c->tail_length > 0.0f ? 1 : 0);
}

/* Bone k of chain c: head node, tail node (-1 virtual), joint index. */
static void sw__chain_bone(const sw_spring_set* set, const sw_spring_chain* c, size_t k, uint32_t* head,
                           int32_t* tail, size_t* joint) {
    *joint = c->first_joint + k;
    *head = set->joints[*joint].node;
    *tail = k + 1 < c->joint_count ? (int32_t)set->joints[*joint + 1].node : -1;
}

/* What sw__check_bones asks of every node, counted over all bones at once
   so that each question is O(1): how many bones it heads, and how many
   bones' head → tail paths it lies strictly inside; for the node lists,
   its nearest strict ancestor that heads a bone, and (sw_spring_init)
   whether it lies on a bone's head → tail path. The first block of
   sw__scratch_bytes: from the state's memory in sw_spring_init, allocated
   in sw_spring_sizes_of. */
typedef struct sw__node_uses {
    int64_t* between;    /* node_count: bones it lies strictly between the joints of */
    uint32_t* heads;     /* node_count: bones headed (saturating) */
    uint32_t* near_head; /* node_count: the nearest strict ancestor heading a bone, or SW__NONE */
    uint8_t* on_path;    /* node_count: strictly below a head, down to its tail (sw_spring_init) */
} sw__node_uses;

#define SW__NONE UINT32_MAX

/* What sw_spring_init's ordering (sw__order_bones) uses besides: per node
   and per bone, after the node block. */
typedef struct sw__order_scratch {
    uint32_t* head_bone; /* node_count: the bone (set order) the node heads, or SW__NONE */
    uint32_t* first;     /* node_count: pre-order position of the node (its subtree: first .. first + span) */
    uint32_t* span;      /* node_count: nodes in its subtree */
    uint32_t* next;      /* node_count: a fill cursor */
    uint32_t* bone_at;   /* node_count: the bone headed by the node at a pre-order position, or SW__NONE */
    uint32_t* tree;      /* 2·leaves: max-tree over pre-order positions, see sw__order_bones */
    uint32_t* bone_chain;/* bone_count: set order → chain */
    uint32_t* bone_k;    /* bone_count: set order → bone within the chain */
    uint32_t* order;     /* bone_count: the step's order, set-order indices */
    uint32_t* stack;     /* 3·bone_count: the depth-first search's frames */
    uint8_t* tried;      /* bone_count */
    uint32_t leaves;     /* a power of two ≥ node_count */
} sw__order_scratch;

static uint32_t sw__leaves_of(size_t node_count) {
    uint32_t l = 1;
    while (l < node_count) l <<= 1;
    return l;
}

/* Bytes of the node block (node_uses), and with bone_count > 0 the
   ordering's block after it; SIZE_MAX when too big. */
static size_t sw__scratch_bytes_for(size_t node_count, size_t bone_count) {
    size_t n = node_count ? node_count : 1;
    if (n > UINT32_MAX / 4 || bone_count > UINT32_MAX / 4) return SIZE_MAX;
    size_t bytes = sw__align16(n * (sizeof(int64_t) + 2 * sizeof(uint32_t) + 1));
    if (bone_count) {
        size_t leaves = sw__leaves_of(n);
        bytes += sw__align16(5 * n * sizeof(uint32_t) + 2 * leaves * sizeof(uint32_t) +
                                   bone_count * (6 * sizeof(uint32_t) + 1));
    }
    return bytes;
}

static size_t sw__scratch_bytes(size_t node_count) { return sw__scratch_bytes_for(node_count, 0); }

static sw__node_uses sw__node_uses_in(void* scratch, size_t node_count) {
    size_t n = node_count ? node_count : 1;
    uint8_t* m = scratch;
    sw__node_uses u;
    u.between = (int64_t*)(void*)m;
    u.heads = (uint32_t*)(void*)(m + n * sizeof(int64_t));
    u.near_head = u.heads + n;
    u.on_path = (uint8_t*)(u.near_head + n);
    return u;
}

static sw__order_scratch sw__order_scratch_in(void* scratch, size_t node_count, size_t bone_count) {
    size_t n = node_count ? node_count : 1;
    uint32_t* m = (uint32_t*)(void*)((uint8_t*)scratch + sw__scratch_bytes(node_count));
    sw__order_scratch o;
    o.leaves = sw__leaves_of(n);
    o.head_bone = m, m += n;
    o.first = m, m += n;
    o.span = m, m += n;
    o.next = m, m += n;
    o.bone_at = m, m += n;
    o.tree = m, m += 2 * (size_t)o.leaves;
    o.bone_chain = m, m += bone_count;
    o.bone_k = m, m += bone_count;
    o.order = m, m += bone_count;
    o.stack = m, m += 3 * bone_count;
    o.tried = (uint8_t*)m;
    return o;
}

/* Counts for every node. A bone from head h to tail t (a descendant) covers
   the nodes strictly between them: those on the parent chain from t's
   parent up to, not including, h. Each bone adds +1 at t's parent and −1
   at h; a node's count is then the sum over its subtree, which one pass
   from the last node to the first gathers, as nodes are parents first
   (each nodes[i].parent < i). Then each node's nearest strict ancestor
   heading a bone, parents first. O(nodes + bones). */
static void sw__count_node_uses(const sw_model* model, const sw_spring_set* set, const sw__node_uses* u) {
    size_t n = model->node_count ? model->node_count : 1;
    memset(u->between, 0, n * sizeof *u->between);
    memset(u->heads, 0, n * sizeof *u->heads);
    for (size_t ci = 0; ci < set->chain_count; ci++) {
        const sw_spring_chain* c = &set->chains[ci];
        size_t bones = sw__chain_bones(c);
        for (size_t k = 0; k < bones; k++) {
            uint32_t head;
            int32_t tail;
            size_t joint;
            sw__chain_bone(set, c, k, &head, &tail, &joint);
            if (u->heads[head] < UINT32_MAX) u->heads[head]++;
            if (tail >= 0) {
                u->between[model->nodes[tail].parent]++; /* tail is below head: it has a parent */
                u->between[head]--;
            }
        }
    }
    for (size_t i = model->node_count; i-- > 0;)
        if (model->nodes[i].parent >= 0) u->between[model->nodes[i].parent] += u->between[i];
    for (size_t i = 0; i < model->node_count; i++) {
        int32_t p = model->nodes[i].parent;
        u->near_head[i] = p < 0 ? SW__NONE : u->heads[p] ? (uint32_t)p : u->near_head[p];
    }
}

/* Every collider on a node of the model, of a known shape, finite; every
   group's colliders in range. */
static sw_result sw__check_colliders(const sw_model* model, const sw_spring_set* set, sw_diag* diag) {
    const size_t nodes = model->node_count;
    for (size_t i = 0; i < set->collider_count; i++) {
        const sw_spring_collider* c = &set->colliders[i];
        if (c->node >= nodes)
            return sw_diag_set(diag, SW_ERR_INDEX_OUT_OF_RANGE, (int64_t)i,
                               "spring collider %zu: node %u out of range (%zu nodes)", i, c->node, nodes);
        if (c->shape != SW_SPRING_SPHERE && c->shape != SW_SPRING_CAPSULE && c->shape != SW_SPRING_PLANE)
            return sw_diag_set(diag, SW_ERR_INVALID_DATA, (int64_t)i, "spring collider %zu: unknown shape %d", i,
                               (int)c->shape);
        if (!sw__finite3(c->offset) || !sw__finite3(c->tail) || !sw__finite3(c->normal) || !isfinite(c->radius) ||
            c->radius < 0.0f)
            return sw_diag_set(diag, SW_ERR_INVALID_DATA, (int64_t)i,
                               "spring collider %zu: offset, tail, normal and radius must be finite, radius >= 0", i);
        if (c->shape == SW_SPRING_PLANE && !(sw_vec3_length(c->normal) > 0.0f))
            return sw_diag_set(diag, SW_ERR_INVALID_DATA, (int64_t)i,
                               "spring collider %zu: a plane needs a normal of non-zero length", i);
    }
    for (size_t i = 0; i < set->group_count; i++) {
        const sw_spring_collider_group* g = &set->groups[i];
        if (!sw__range_ok(g->first_collider, g->collider_count, set->group_collider_count))
            return sw_diag_set(diag, SW_ERR_INDEX_OUT_OF_RANGE, (int64_t)i,
                               "spring collider group %zu: colliders %zu + %zu past group_colliders (%zu)", i,
                               g->first_collider, g->collider_count, set->group_collider_count);
        for (size_t k = 0; k < g->collider_count; k++)
            if (set->group_colliders[g->first_collider + k] >= set->collider_count)
                return sw_diag_set(diag, SW_ERR_INDEX_OUT_OF_RANGE, (int64_t)i,
                                   "spring collider group %zu: collider %u out of range (%zu colliders)", i,
                                   set->group_colliders[g->first_collider + k], set->collider_count);
    }
    return SW_OK;
}

/* Every joint on a node of the model, its parameters finite and in range. */
static sw_result sw__check_joints(const sw_model* model, const sw_spring_set* set, sw_diag* diag) {
    const size_t nodes = model->node_count;
    for (size_t i = 0; i < set->joint_count; i++) {
        const sw_spring_joint* j = &set->joints[i];
        if (j->node >= nodes)
            return sw_diag_set(diag, SW_ERR_INDEX_OUT_OF_RANGE, (int64_t)i,
                               "spring joint %zu: node %u out of range (%zu nodes)", i, j->node, nodes);
        if (!isfinite(j->stiffness) || !isfinite(j->drag_force) || !isfinite(j->gravity_power) ||
            !isfinite(j->hit_radius) || !sw__finite3(j->gravity_dir))
            return sw_diag_set(diag, SW_ERR_INVALID_DATA, (int64_t)i, "spring joint %zu: a parameter is not finite",
                               i);
        if (j->stiffness < 0.0f || j->gravity_power < 0.0f || j->hit_radius < 0.0f || j->drag_force < 0.0f ||
            j->drag_force > 1.0f)
            return sw_diag_set(diag, SW_ERR_INVALID_DATA, (int64_t)i,
                               "spring joint %zu: stiffness, gravity power and hit radius must be >= 0 and drag "
                               "force in 0..1",
                               i);
    }

    return SW_OK;
}

/* Every chain's joints and collider groups in range, its tail length
   good, each joint a descendant of the one before. */
static sw_result sw__check_chains(const sw_model* model, const sw_spring_set* set, sw_diag* diag) {
    for (size_t ci = 0; ci < set->chain_count; ci++) {
        const sw_spring_chain* c = &set->chains[ci];
        if (c->joint_count == 0 || !sw__range_ok(c->first_joint, c->joint_count, set->joint_count))
            return sw_diag_set(diag, SW_ERR_INDEX_OUT_OF_RANGE, (int64_t)ci,
                               "spring chain %zu: joints %zu + %zu past the joints (%zu), or none", ci,
                               c->first_joint, c->joint_count, set->joint_count);
        if (!sw__range_ok(c->first_group, c->group_count, set->chain_group_count))
            return sw_diag_set(diag, SW_ERR_INDEX_OUT_OF_RANGE, (int64_t)ci,
                               "spring chain %zu: groups %zu + %zu past chain_groups (%zu)", ci, c->first_group,
                               c->group_count, set->chain_group_count);
        for (size_t k = 0; k < c->group_count; k++)
            if (set->chain_groups[c->first_group + k] >= set->group_count)
                return sw_diag_set(diag, SW_ERR_INDEX_OUT_OF_RANGE, (int64_t)ci,
                                   "spring chain %zu: collider group %u out of range (%zu groups)", ci,
                                   set->chain_groups[c->first_group + k], set->group_count);
        if (c->has_center && c->center >= model->node_count)
            return sw_diag_set(diag, SW_ERR_INDEX_OUT_OF_RANGE, (int64_t)ci,
                               "spring chain %zu: center node %u out of range (%zu nodes)", ci, c->center,
                               model->node_count);
        if (!isfinite(c->tail_length) || c->tail_length < 0.0f)
            return sw_diag_set(diag, SW_ERR_INVALID_DATA, (int64_t)ci,
                               "spring chain %zu: tail_length must be finite and >= 0", ci);
        for (size_t k = 0; k + 1 < c->joint_count; k++) {
            uint32_t a = set->joints[c->first_joint + k].node, b = set->joints[c->first_joint + k + 1].node;
            if (!sw__spring_is_ancestor(model, a, b))
                return sw_diag_set(diag, SW_ERR_INVALID_DATA, (int64_t)ci,
                                   "spring chain %zu: joint %zu (node %u) is not a descendant of joint %zu (node %u)",
                                   ci, k + 1, b, k, a);
        }
    }
    return SW_OK;
}

/* The bones of chains already checked (sw__check_chains), each against
   all the others: TRS nodes, a length at rest, no node heading two bones
   or swinging between another bone's joints. Counts what the simulation
   needs into *out. */
static sw_result sw__check_bones_with(const sw_model* model, const sw_spring_set* set, const sw__node_uses* uses,
                                      sw_spring_sizes* out, sw_diag* diag) {
    size_t bones = 0, carried = 0;
    for (size_t ci = 0; ci < set->chain_count; ci++) {
        const sw_spring_chain* c = &set->chains[ci];
        size_t count = sw__chain_bones(c);
        for (size_t k = 0; k < count; k++) {
            uint32_t head;
            int32_t tail;
            size_t joint;
            sw__chain_bone(set, c, k, &head, &tail, &joint);
            if (model->nodes[head].has_matrix)
                return sw_diag_set(diag, SW_ERR_UNSUPPORTED, (int64_t)ci,
                                   "spring chain %zu: node %u swings but has a matrix transform (a rotation needs TRS)",
                                   ci, head);
            sw_vec3 tail_local;
            if (tail >= 0) {
                tail_local = sw__spring_tail_local_of_node(model, head, (uint32_t)tail);
                if (uses->heads[tail]) carried++; /* a tail that heads a bone is carried by this one too */
            } else {
                const char* problem = NULL;
                if (sw__spring_virtual_tail(model, head, c->tail_length, &tail_local, &problem) != SW_OK)
                    return sw_diag_set(diag, SW_ERR_INVALID_DATA, (int64_t)ci, "spring chain %zu: node %u: %s", ci,
                                       head, problem);
            }
            if (!sw__spring_bone_has_length(model, head, tail_local))
                return sw_diag_set(diag, SW_ERR_INVALID_DATA, (int64_t)ci,
                                   "spring chain %zu: the bone from node %u has zero length at rest", ci, head);
            if (uses->heads[head] > 1)
                return sw_diag_set(diag, SW_ERR_INVALID_DATA, (int64_t)ci,
                                   "spring chain %zu: node %u heads two bones (a joint in two chains)", ci, head);
            if (uses->between[head] > 0)
                return sw_diag_set(diag, SW_ERR_INVALID_DATA, (int64_t)ci,
                                   "spring chain %zu: node %u swings but lies between the joints of another bone", ci,
                                   head);
        }
        bones += count;
    }
    /* every node below a head that heads nothing is carried by its nearest head */
    for (size_t i = 0; i < model->node_count; i++)
        if (!uses->heads[i] && uses->near_head[i] != SW__NONE) carried++;
    if (bones > UINT32_MAX / 8 || carried > UINT32_MAX)
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "spring set: too many bones");
    out->bone_count = bones;
    out->node_count = carried;
    return SW_OK;
}


/* Validates set against model into *out. `scratch`: sw__scratch_bytes of
   the model's nodes, or NULL to allocate them here. */
static sw_result sw__check(const sw_model* model, const sw_spring_set* set, sw_spring_sizes* out, void* scratch,
                           sw_diag* diag) {
    memset(out, 0, sizeof *out);
    if (!model || !set) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "spring: a model and a set are needed");
    if ((set->joint_count && !set->joints) || (set->chain_count && !set->chains) ||
        (set->chain_group_count && !set->chain_groups) || (set->collider_count && !set->colliders) ||
        (set->group_count && !set->groups) || (set->group_collider_count && !set->group_colliders))
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "spring set: an array with a count has no pointer");
    if (set->joint_count > UINT32_MAX || set->chain_count > UINT32_MAX)
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "spring set: more than 2^32 joints or chains");
    sw_result r;
    if ((r = sw__check_colliders(model, set, diag)) != SW_OK || (r = sw__check_joints(model, set, diag)) != SW_OK ||
        (r = sw__check_chains(model, set, diag)) != SW_OK)
        return r;
    void* own = NULL;
    if (!scratch) {
        size_t bytes = sw__scratch_bytes(model->node_count);
        if (bytes == SIZE_MAX || !(scratch = own = sw__malloc(bytes)))
            return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "spring set: out of memory checking the bones");
    }
    sw__node_uses uses = sw__node_uses_in(scratch, model->node_count);
    sw__count_node_uses(model, set, &uses);
    r = sw__check_bones_with(model, set, &uses, out, diag);
    sw__free(own);
    if (r == SW_OK) out->model_node_count = model->node_count;
    return r;
}

sw_result sw_spring_sizes_of(const sw_model* model, const sw_spring_set* set, sw_spring_sizes* out_sizes,
                             sw_diag* diag) {
    SW_ASSERT(out_sizes);
    return sw__check(model, set, out_sizes, NULL, diag);
}

/* ---- the state ------------------------------------------------------------------------------------ */

typedef struct sw__spring_layout {
    size_t bones, nodes, current, previous, tail_node, scratch, total;
} sw__spring_layout;

static sw__spring_layout sw__layout_of(const sw_spring_sizes* s) {
    sw__spring_layout l;
    size_t at = 0;
    l.bones = at, at += sw__align16(s->bone_count * sizeof(sw_spring_bone));
    l.nodes = at, at += sw__align16(s->node_count * sizeof(uint32_t));
    l.current = at, at += sw__align16(s->bone_count * sizeof(sw_vec3));
    l.previous = at, at += sw__align16(s->bone_count * sizeof(sw_vec3));
    l.tail_node = at, at += sw__align16(s->bone_count * sizeof(sw_vec3));
    l.scratch = at, at += sw__align16(sw__scratch_bytes_for(s->model_node_count, s->bone_count));
    l.total = at ? at : 16;
    return l;
}

size_t sw_spring_memory_size(const sw_spring_sizes* sizes) {
    SW_ASSERT(sizes);
    return sw__layout_of(sizes).total;
}

/* ---- the order of the bones: three-vrm's ---------------------------------------------------- */

/* The first position i ≤ p whose leaf in the max-tree holds more than p,
   or SW__NONE: the shallowest node not yet tried that heads a bone and
   whose subtree holds position p (a leaf holds first + span of an untried
   head, 0 otherwise). O(log nodes): a left half wholly at or before p
   whose maximum beats p always holds the answer. */
static uint32_t sw__tree_find(const uint32_t* tree, uint32_t node, uint32_t lo, uint32_t hi, uint32_t p) {
    if (lo > p || tree[node] <= p) return SW__NONE;
    if (hi - lo == 1) return lo;
    uint32_t mid = lo + (hi - lo) / 2;
    uint32_t found = sw__tree_find(tree, 2 * node, lo, mid, p);
    return found != SW__NONE ? found : sw__tree_find(tree, 2 * node + 1, mid, hi, p);
}

static void sw__tree_set(uint32_t* tree, uint32_t leaves, uint32_t position, uint32_t value) {
    uint32_t i = leaves + position;
    tree[i] = value;
    for (i >>= 1; i >= 1; i >>= 1) tree[i] = tree[2 * i] > tree[2 * i + 1] ? tree[2 * i] : tree[2 * i + 1];
}

/* The step's order of the bones (o->order, set-order indices), as
   three-vrm 3.x's VRMSpringBoneManager sorts its joints: a depth-first
   search over the joints in the order the file gives them (chains, then
   the bones of each), in which a joint first visits, for each of its
   dependencies (its head's parent, then the colliders of its chain's
   groups in order), every joint headed by an ancestor of the dependency
   or by the dependency itself, root first; a joint already visited is
   skipped (also one whose visit has not ended: a circular dependency is
   broken there), and a joint joins the order when its visit ends.
   three-vrm walks every dependency's ancestors each time; here the heads
   not yet visited sit in a max-tree over pre-order positions, and each
   dependency asks it again and again for its shallowest such ancestor
   until none is left, which visits the same joints in the same order
   (those it walked past were visited already). O((nodes + bones +
   bone-collider pairs) · log nodes), no recursion deeper than log nodes. */
static void sw__order_bones(const sw_model* model, const sw_spring_set* set, const sw__order_scratch* o,
                            size_t bone_count) {
    const size_t n = model->node_count;
    for (size_t i = 0; i < n; i++) o->head_bone[i] = SW__NONE;
    {
        uint32_t b = 0;
        for (size_t ci = 0; ci < set->chain_count; ci++) {
            const size_t count = sw__chain_bones(&set->chains[ci]);
            for (size_t k = 0; k < count; k++, b++) {
                o->bone_chain[b] = (uint32_t)ci;
                o->bone_k[b] = (uint32_t)k;
                o->tried[b] = 0;
                o->head_bone[set->joints[set->chains[ci].first_joint + k].node] = b;
            }
        }
        SW_ASSERT(b == bone_count);
    }
    /* pre-order positions: subtree sizes from the last node to the first,
       then each node placed at its parent's next free position */
    for (size_t i = 0; i < n; i++) o->span[i] = 1;
    for (size_t i = n; i-- > 0;)
        if (model->nodes[i].parent >= 0) o->span[model->nodes[i].parent] += o->span[i];
    uint32_t roots_at = 0;
    for (size_t i = 0; i < n; i++) {
        int32_t p = model->nodes[i].parent;
        if (p < 0) {
            o->first[i] = roots_at;
            roots_at += o->span[i];
        } else {
            o->first[i] = o->next[p];
            o->next[p] += o->span[i];
        }
        o->next[i] = o->first[i] + 1;
    }
    memset(o->tree, 0, 2 * (size_t)o->leaves * sizeof *o->tree);
    for (size_t i = 0; i < n; i++) {
        o->bone_at[o->first[i]] = o->head_bone[i];
        if (o->head_bone[i] != SW__NONE) o->tree[o->leaves + o->first[i]] = o->first[i] + o->span[i];
    }
    for (uint32_t i = o->leaves; i-- > 1;)
        o->tree[i] = o->tree[2 * i] > o->tree[2 * i + 1] ? o->tree[2 * i] : o->tree[2 * i + 1];

    /* frames: bone, group (SW__NONE: the head's parent), collider within the group */
    size_t top = 0, done = 0;
    for (uint32_t root = 0; root < bone_count; root++) {
        if (o->tried[root]) continue;
        uint32_t visit = root;
        for (;;) {
            if (visit != SW__NONE) {
                const sw_spring_chain* c = &set->chains[o->bone_chain[visit]];
                uint32_t head = set->joints[c->first_joint + o->bone_k[visit]].node;
                o->tried[visit] = 1;
                sw__tree_set(o->tree, o->leaves, o->first[head], 0);
                o->stack[3 * top] = visit, o->stack[3 * top + 1] = SW__NONE, o->stack[3 * top + 2] = 0;
                top++;
                visit = SW__NONE;
            }
            if (top == 0) break;
            uint32_t* f = &o->stack[3 * (top - 1)];
            const sw_spring_chain* c = &set->chains[o->bone_chain[f[0]]];
            /* the frame's current dependency, moving past ended ones */
            int64_t dep = -1;
            if (f[1] == SW__NONE) {
                dep = model->nodes[set->joints[c->first_joint + o->bone_k[f[0]]].node].parent;
                if (dep < 0) f[1] = 0, f[2] = 0;
            }
            if (dep < 0) {
                while (f[1] < c->group_count &&
                       f[2] >= set->groups[set->chain_groups[c->first_group + f[1]]].collider_count)
                    f[1]++, f[2] = 0;
                if (f[1] >= c->group_count) {
                    o->order[done++] = f[0];
                    top--;
                    continue;
                }
                const sw_spring_collider_group* g = &set->groups[set->chain_groups[c->first_group + f[1]]];
                dep = set->colliders[set->group_colliders[g->first_collider + f[2]]].node;
            }
            uint32_t found = sw__tree_find(o->tree, 1, 0, o->leaves, o->first[dep]);
            if (found != SW__NONE) {
                visit = o->bone_at[found];
                continue;
            }
            /* nothing left above this dependency: the next one */
            if (f[1] == SW__NONE) f[1] = 0, f[2] = 0;
            else f[2]++;
        }
    }
    SW_ASSERT(done == bone_count);
}

sw_result sw_spring_init(sw_spring_state* state, const sw_spring_sizes* sizes, void* memory, const sw_model* model,
                         const sw_spring_set* set, const sw_spring_options* options, sw_diag* diag) {
    SW_ASSERT(state && sizes && memory && (uintptr_t)memory % 16 == 0);
    memset(state, 0, sizeof *state);
    sw_spring_sizes need;
    /* the check's scratch: the state's own when the sizes are the model's */
    const bool own_scratch = model && sizes->model_node_count == model->node_count;
    uint8_t* scratch = own_scratch ? (uint8_t*)memory + sw__layout_of(sizes).scratch : NULL;
    sw_result r = sw__check(model, set, &need, scratch, diag);
    if (r != SW_OK) return r;
    if (need.bone_count != sizes->bone_count || need.node_count != sizes->node_count || !own_scratch)
        return sw_diag_set(diag, SW_ERR_BUFFER_TOO_SMALL, -1,
                           "spring state: sizes are not this set's (sw_spring_sizes_of gives %zu bones, %zu nodes)",
                           need.bone_count, need.node_count);
    float step = options && options->step_s != 0.0f ? options->step_s : SW_SPRING_STEP_DEFAULT_S;
    if (!isfinite(step) || !(step > 0.0f))
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "spring options: step_s must be finite and > 0");

    sw__spring_layout l = sw__layout_of(sizes);
    uint8_t* m = (uint8_t*)memory;
    state->model = model;
    state->set = set;
    state->bones = (sw_spring_bone*)(void*)(m + l.bones);
    state->nodes = (uint32_t*)(void*)(m + l.nodes);
    state->current_tail = (sw_vec3*)(void*)(m + l.current);
    state->previous_tail = (sw_vec3*)(void*)(m + l.previous);
    state->tail_node_world = (sw_vec3*)(void*)(m + l.tail_node);
    state->step_s = step;
    state->max_substeps = options && options->max_substeps ? options->max_substeps : SW_SPRING_MAX_SUBSTEPS_DEFAULT;
    state->collision = options ? options->collision : SW_SPRING_COLLISION_VRM;
    if (state->collision != SW_SPRING_COLLISION_VRM && state->collision != SW_SPRING_COLLISION_RESOLVE)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "spring options: unknown collision mode %d",
                           (int)state->collision);

    const size_t n = model->node_count;
    const size_t bone_count = sizes->bone_count;
    const sw__node_uses uses = sw__node_uses_in(scratch, n);
    const sw__order_scratch o = sw__order_scratch_in(scratch, n, bone_count);
    if (bone_count) sw__order_bones(model, set, &o, bone_count); /* without bones, no ordering scratch */

    /* Each bone's node list: the nodes strictly below its head down to its
       tail (parents first), then every other node below the head down to,
       not including, the next heads (three-vrm brings these up to date
       after the joint: traverseChildrenUntilConditionMet), in node order,
       which is parents first. */
    memset(uses.on_path, 0, n ? n : 1);
    if (bone_count) {
        for (size_t i = 0; i < n; i++) o.next[i] = 0;
        for (size_t i = 0; i < n; i++)
            if (!uses.heads[i] && uses.near_head[i] != SW__NONE) o.next[uses.near_head[i]]++;
    }
    uint32_t node_at = 0;
    for (size_t s = 0; s < bone_count; s++) {
        const uint32_t natural = o.order[s];
        const sw_spring_chain* c = &set->chains[o.bone_chain[natural]];
        sw_spring_bone* b = &state->bones[s];
        uint32_t head;
        int32_t tail;
        size_t joint;
        sw__chain_bone(set, c, o.bone_k[natural], &head, &tail, &joint);
        b->head = head;
        b->tail = tail;
        b->joint = (uint32_t)joint;
        b->chain = o.bone_chain[natural];
        b->path_first = node_at;
        uint32_t path = 0;
        if (tail >= 0) {
            b->tail_local = sw__spring_tail_local_of_node(model, head, (uint32_t)tail);
            path = sw__path_length(model, head, (uint32_t)tail);
            int32_t p = tail;
            for (uint32_t i = 0; i < path; i++, p = model->nodes[p].parent) {
                state->nodes[node_at + path - 1 - i] = (uint32_t)p;
                uses.on_path[p] = 1;
            }
        } else {
            const char* problem = NULL;
            r = sw__spring_virtual_tail(model, head, c->tail_length, &b->tail_local, &problem);
            SW_ASSERT(r == SW_OK);
        }
        /* the head's count so far is every node it carries, its path's non-heads among them */
        const uint32_t carried = o.next[head] + (tail >= 0 && uses.heads[tail] ? 1u : 0u);
        b->path_count = carried;
        o.next[head] = node_at + path; /* now its fill cursor for the other nodes */
        node_at += carried;
    }
    for (size_t i = 0; bone_count && i < n; i++)
        if (!uses.heads[i] && uses.near_head[i] != SW__NONE && !uses.on_path[i])
            state->nodes[o.next[uses.near_head[i]]++] = (uint32_t)i;
    SW_ASSERT(node_at == sizes->node_count);
    state->bone_count = bone_count;
    state->node_count = node_at;
    state->needs_reset = true;
    for (size_t i = 0; i < state->bone_count; i++)
        state->current_tail[i] = state->previous_tail[i] = state->tail_node_world[i] = sw_vec3_make(0.0f, 0.0f, 0.0f);
    return SW_OK;
}

/* The head's frame at rest (three-vrm's parent world × initial local matrix). */
static sw_mat34 sw__rest_frame(const sw_model* model, const sw_mat34* parent_world, uint32_t head) {
    sw_mat34 local = sw__rest_local(model, head), frame;
    sw__pose_mat34_mul(&frame, parent_world, &local);
    return frame;
}

static sw_mat34 sw__parent_world(const sw_model* model, const sw_pose* pose, uint32_t node) {
    int32_t parent = model->nodes[node].parent;
    return parent >= 0 ? pose->world[parent] : sw_mat34_identity();
}

/* The chain's center world matrix and its inverse (identity without a
   center, or for a singular one: world space). */
static void sw__center_of(const sw_spring_chain* chain, const sw_pose* pose, sw_mat34* to_world, sw_mat34* to_center) {
    *to_world = *to_center = sw_mat34_identity();
    if (!chain->has_center) return;
    sw_mat34 inverse;
    if (!sw_mat34_inverse(&inverse, &pose->world[chain->center])) return;
    *to_world = pose->world[chain->center];
    *to_center = inverse;
}

void sw_spring_reset(sw_spring_state* state, const sw_pose* pose) {
    SW_ASSERT(state && pose && (pose->world || state->bone_count == 0));
    const sw_model* model = state->model;
    const sw_spring_set* set = state->set;
    for (size_t i = 0; i < state->bone_count; i++) {
        const sw_spring_bone* b = &state->bones[i];
        sw_mat34 to_world, to_center;
        sw__center_of(&set->chains[b->chain], pose, &to_world, &to_center);
        /* The head at its rest rotation, with its pose translation and scale. */
        sw_transform at_rest = pose->local[b->head];
        at_rest.rotation = model->rest_local[b->head].rotation;
        sw_mat34 parent_world = sw__parent_world(model, pose, b->head), frame;
        sw__pose_mul_trs(&frame, &parent_world, &at_rest);
        const sw_vec3 t = sw_mat34_apply_point(&frame, b->tail_local);
        state->current_tail[i] = state->previous_tail[i] = sw_mat34_apply_point(&to_center, t);
        /* The tail node where that frame puts it (the pose's nodes below the head). */
        state->tail_node_world[i] = t;
        sw_mat34 inverse;
        if (b->tail >= 0 && sw_mat34_inverse(&inverse, &pose->world[b->head]))
            state->tail_node_world[i] = sw_mat34_apply_point(
                &frame, sw_mat34_apply_point(&inverse, sw__mat_origin(&pose->world[b->tail])));
    }
    state->carried_s = 0.0;
    state->step_count = 0;
    state->needs_reset = false;
}

/* ---- the step ------------------------------------------------------------------------------------------ */

/* world[n] from its parent's world and its local transform, as
   sw_pose_update_world computes it. */
static void sw__refresh_world(const sw_model* model, sw_pose* pose, uint32_t n) {
    const sw_model_node* node = &model->nodes[n];
    if (node->has_matrix) {
        if (node->parent >= 0)
            sw__pose_mat34_mul(&pose->world[n], &pose->world[node->parent], &node->matrix);
        else
            pose->world[n] = node->matrix;
    } else if (node->parent >= 0) {
        sw__pose_mul_trs(&pose->world[n], &pose->world[node->parent], &pose->local[n]);
    } else {
        sw__pose_trs_to_mat34(&pose->world[n], &pose->local[n]);
    }
}

/* The point of segment [a, b] nearest to p. */
static sw_vec3 sw__segment_nearest(sw_vec3 a, sw_vec3 b, sw_vec3 p) {
    sw_vec3 ab = sw_vec3_sub(b, a);
    float len2 = sw_vec3_dot(ab, ab);
    if (!(len2 > 0.0f)) return a;
    float t = sw_vec3_dot(sw_vec3_sub(p, a), ab) / len2;
    t = t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
    return sw_vec3_add(a, sw_vec3_scale(ab, t));
}

static sw_vec3 sw__constrain(sw_vec3 head, sw_vec3 p, float length) {
    sw_vec3 d = sw_vec3_sub(p, head);
    float l = sw_vec3_length(d);
    if (!(l > 0.0f)) return p; /* no direction: leave it (never happens with a finite step from a valid rest) */
    return sw_vec3_add(head, sw_vec3_scale(d, length / l));
}

/* SW_SPRING_COLLISION_RESOLVE: one sphere or capsule (not inside) against
   the tail p of a bone with head h and length L, radii scaled. */
static sw_vec3 sw__collide_resolve(sw_vec3 p, sw_vec3 h, float length, const sw_spring_collider* c,
                                   const sw_mat34* world, float hit_radius) {
    float radius = c->radius * sw__mat_scale(world) + hit_radius;
    sw_vec3 a = sw_mat34_apply_point(world, c->offset);
    sw_vec3 b = c->shape == SW_SPRING_CAPSULE ? sw_mat34_apply_point(world, c->tail) : a;
    /* VRM's push: out along the centre → tail direction, then the length
       constraint. */
    sw_vec3 centre = sw__segment_nearest(a, b, p);
    sw_vec3 d = sw_vec3_sub(p, centre);
    float dist = sw_vec3_length(d);
    if (!(dist < radius)) return p;
    if (dist > 0.0f) p = sw__constrain(h, sw_vec3_add(centre, sw_vec3_scale(d, radius / dist)), length);
    /* Still inside: slide over the bone's sphere |x − h| = L to the circle
       where it meets the collider's surface, nearest to p. A few rounds,
       because a capsule's nearest centre moves with p. */
    for (int round = 0; round < 4; round++) {
        centre = sw__segment_nearest(a, b, p);
        sw_vec3 hc = sw_vec3_sub(centre, h);
        float dc = sw_vec3_length(hc);
        float inside = radius - sw_vec3_length(sw_vec3_sub(p, centre));
        if (!(inside > 1e-7f * radius)) break;
        /* The spheres must cross: no circle when the head is inside the
           collider's reach of the tail sphere or they are apart. */
        if (!(dc > 0.0f) || dc >= length + radius || dc + length <= radius || dc + radius <= length) break;
        sw_vec3 n = sw_vec3_scale(hc, 1.0f / dc);
        float along = (length * length - radius * radius + dc * dc) / (2.0f * dc);
        float ring2 = length * length - along * along;
        if (!(ring2 > 0.0f)) break;
        sw_vec3 hp = sw_vec3_sub(p, h);
        sw_vec3 u = sw_vec3_sub(hp, sw_vec3_scale(n, sw_vec3_dot(hp, n)));
        float ul = sw_vec3_length(u);
        if (!(ul > 0.0f)) {
            /* p on the axis: any point of the circle; take one perpendicular to n. */
            u = sw_vec3_cross(n, fabsf(n.x) < 0.9f ? sw_vec3_make(1.0f, 0.0f, 0.0f) : sw_vec3_make(0.0f, 1.0f, 0.0f));
            ul = sw_vec3_length(u);
        }
        p = sw_vec3_add(h, sw_vec3_add(sw_vec3_scale(n, along), sw_vec3_scale(u, sqrtf(ring2) / ul)));
        p = sw__constrain(h, p, length);
    }
    return p;
}

/* VRM's collision (three-vrm's shapes): how far the tail p is from
   leaving the collider's solid (< 0: inside) and the direction out. False
   when there is no direction (p at the centre, a singular matrix). */
static bool sw__collider_distance(sw_vec3 p, const sw_spring_collider* c, const sw_mat34* world, float hit_radius,
                                  float* out_distance, sw_vec3* out_dir) {
    const sw_vec3 origin = sw_mat34_apply_point(world, c->offset);
    sw_vec3 q = sw_vec3_sub(p, origin);
    if (c->shape == SW_SPRING_PLANE) {
        /* the normal through the inverse transpose of the node's 3×3 */
        sw_mat34 inverse;
        if (!sw_mat34_inverse(&inverse, world)) return false;
        sw_vec3 n = sw_vec3_make(
            inverse.m[0][0] * c->normal.x + inverse.m[1][0] * c->normal.y + inverse.m[2][0] * c->normal.z,
            inverse.m[0][1] * c->normal.x + inverse.m[1][1] * c->normal.y + inverse.m[2][1] * c->normal.z,
            inverse.m[0][2] * c->normal.x + inverse.m[1][2] * c->normal.y + inverse.m[2][2] * c->normal.z);
        float nl = sw_vec3_length(n);
        if (!(nl > 0.0f)) return false;
        n = sw_vec3_scale(n, 1.0f / nl);
        *out_distance = sw_vec3_dot(q, n) - hit_radius;
        *out_dir = n;
        return true;
    }
    if (c->shape == SW_SPRING_CAPSULE) {
        const sw_vec3 seg = sw_mat34_apply_dir(world, sw_vec3_sub(c->tail, c->offset));
        const float len2 = sw_vec3_dot(seg, seg), along = sw_vec3_dot(seg, q);
        if (along <= 0.0f) {
        } else if (len2 <= along) {
            q = sw_vec3_sub(q, seg);
        } else {
            q = sw_vec3_sub(q, sw_vec3_scale(seg, along / len2));
        }
    }
    const float len = sw_vec3_length(q);
    *out_distance = c->inside ? c->radius - hit_radius - len : len - hit_radius - c->radius;
    if (!(len > 0.0f)) return false;
    *out_dir = sw_vec3_scale(q, (c->inside ? -1.0f : 1.0f) / len);
    return true;
}

/* One pass over every bone in the step's order: integrate (when
   `integrate`) and write the rotations. */
static void sw__pass(sw_spring_state* state, const sw_model* model, const sw_spring_set* set, sw_pose* pose,
                     bool integrate) {
    const float h = state->step_s;
    const bool resolve = state->collision == SW_SPRING_COLLISION_RESOLVE;
    for (size_t index = 0; index < state->bone_count; index++) {
        const sw_spring_bone* b = &state->bones[index];
        const sw_spring_chain* chain = &set->chains[b->chain];
        /* the center as it is now: an earlier bone may have moved it */
        sw_mat34 to_world, to_center;
        sw__center_of(chain, pose, &to_world, &to_center);
        const sw_spring_joint* j = &set->joints[b->joint];
        const sw_mat34 parent_world = sw__parent_world(model, pose, b->head);
        const sw_mat34 frame = sw__rest_frame(model, &parent_world, b->head);
        const sw_vec3 head_pos = sw_mat34_apply_point(&parent_world, pose->local[b->head].translation);
        sw_vec3 tail_world;

        if (integrate) {
            /* The bone's length: from the head to where its tail node was
               at the end of the last step (three-vrm reads the child's
               world matrix before the child is updated), or to the
               virtual tail through the head's current world matrix. */
            float length;
            if (b->tail >= 0) {
                length = sw_vec3_length(sw_vec3_sub(state->tail_node_world[index], head_pos));
            } else {
                sw_mat34 head_world;
                sw__pose_mul_trs(&head_world, &parent_world, &pose->local[b->head]);
                length = sw_vec3_length(sw_mat34_apply_dir(&head_world, b->tail_local));
            }
            const sw_vec3 axis = sw_vec3_normalize(sw_mat34_apply_dir(&frame, b->tail_local));
            const sw_vec3 cur = state->current_tail[index], prev = state->previous_tail[index];
            sw_vec3 next = sw_vec3_add(cur, sw_vec3_scale(sw_vec3_sub(cur, prev), 1.0f - j->drag_force));
            next = sw_mat34_apply_point(&to_world, next);
            next = sw_vec3_add(next, sw_vec3_scale(axis, j->stiffness * h));
            next = sw_vec3_add(next, sw_vec3_scale(j->gravity_dir, j->gravity_power * h));
            next = sw__constrain(head_pos, next, length);
            if (chain->group_count) {
                float resolve_hit = 0.0f;
                if (resolve) {
                    /* The head's world scale: its rest frame's times its pose scale. */
                    sw_mat34 head_world = frame;
                    const sw_vec3 scale = pose->local[b->head].scale;
                    for (int row = 0; row < 3; row++) {
                        head_world.m[row][0] *= scale.x;
                        head_world.m[row][1] *= scale.y;
                        head_world.m[row][2] *= scale.z;
                    }
                    resolve_hit = j->hit_radius * sw__mat_scale(&head_world);
                }
                for (size_t g = 0; g < chain->group_count; g++) {
                    const sw_spring_collider_group* group = &set->groups[set->chain_groups[chain->first_group + g]];
                    for (size_t ci = 0; ci < group->collider_count; ci++) {
                        const sw_spring_collider* c = &set->colliders[set->group_colliders[group->first_collider + ci]];
                        const sw_mat34* cw = &pose->world[c->node];
                        if (resolve && c->shape != SW_SPRING_PLANE && !c->inside) {
                            next = sw__collide_resolve(next, head_pos, length, c, cw, resolve_hit);
                            continue;
                        }
                        float distance;
                        sw_vec3 dir;
                        if (sw__collider_distance(next, c, cw, j->hit_radius, &distance, &dir) && distance < 0.0f)
                            next = sw__constrain(head_pos, sw_vec3_sub(next, sw_vec3_scale(dir, distance)), length);
                    }
                }
            }
            state->previous_tail[index] = cur;
            state->current_tail[index] = sw_mat34_apply_point(&to_center, next);
            tail_world = next;
        } else {
            tail_world = sw_mat34_apply_point(&to_world, state->current_tail[index]);
        }

        /* The rotation that points the rest bone at the tail. */
        sw_quat q = sw_quat_identity();
        sw_mat34 inverse;
        if (sw_mat34_inverse(&inverse, &frame))
            q = sw__quat_from_to(b->tail_local, sw_mat34_apply_point(&inverse, tail_world));
        pose->local[b->head].rotation = sw_quat_normalize(sw_quat_mul(model->rest_local[b->head].rotation, q));
        sw__refresh_world(model, pose, b->head);
        for (uint32_t k = 0; k < b->path_count; k++) sw__refresh_world(model, pose, state->nodes[b->path_first + k]);
        if (integrate && b->tail >= 0) state->tail_node_world[index] = sw__mat_origin(&pose->world[b->tail]);
    }
}

uint32_t sw_spring_update(sw_spring_state* state, const sw_model* model, const sw_spring_set* set, sw_pose* pose,
                          float dt_s) {
    SW_ASSERT(state && model && set && pose);
    SW_ASSERT(state->model == model && state->set == set);
    SW_ASSERT((pose->local && pose->world) || state->bone_count == 0);
    if (state->needs_reset) sw_spring_reset(state, pose);
    const double step = (double)state->step_s;
    double total = state->carried_s + (isfinite(dt_s) && dt_s > 0.0f ? (double)dt_s : 0.0);
    double whole = floor(total / step + 1e-6);
    uint32_t steps = whole > (double)state->max_substeps ? state->max_substeps : (uint32_t)whole;
    if (whole > (double)state->max_substeps) {
        state->carried_s = 0.0; /* a hitch: the time beyond max_substeps is dropped */
    } else {
        state->carried_s = total - whole * step;
        if (state->carried_s < 0.0) state->carried_s = 0.0;
    }
    for (uint32_t s = 0; s < steps; s++) sw__pass(state, model, set, pose, true);
    if (steps == 0) sw__pass(state, model, set, pose, false);
    state->step_count += steps;
    return steps;
}
