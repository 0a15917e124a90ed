/* Node constraints (sinew/constraint.h): the order of evaluation (a
   depth-first walk of the dependency graph with Tarjan's strongly connected
   components, so cycles are found in the same walk) and the three rules. */
#include "sinew/constraint.h"

#include <math.h>
#include <string.h>

#define SW__NONE UINT32_MAX

/* ---- memory layout ---------------------------------------------------------------------- */

/* The state's arrays, then init's scratch, each 16-aligned. */
typedef struct sw__constraint_layout {
    size_t order, cyclic, world_cache, world_ready, walk;    /* kept by the state */
    size_t nearest, first_on, on_node, index, low, frames, tarjan, flags; /* init only */
    size_t total;
    bool overflow;
} sw__constraint_layout;

static size_t sw__take(sw__constraint_layout* L, size_t* at, size_t count, size_t size) {
    size_t bytes;
    if (!sw_mul_size(count ? count : 1, size, &bytes) || bytes > SIZE_MAX - 16 || L->total > SIZE_MAX - bytes - 16) {
        L->overflow = true;
        return 0;
    }
    *at = L->total;
    L->total += (bytes + 15) / 16 * 16;
    return *at;
}

static sw__constraint_layout sw__layout(size_t nodes, size_t count) {
    sw__constraint_layout L = {0};
    size_t vertices = count + nodes; /* one per constraint, one per node (used when it is constrained) */
    if (vertices < count) L.overflow = true;
    sw__take(&L, &L.order, count, sizeof(uint32_t));
    sw__take(&L, &L.cyclic, count, sizeof(uint8_t));
    sw__take(&L, &L.world_cache, nodes, sizeof(sw_mat34));
    sw__take(&L, &L.world_ready, nodes, sizeof(uint8_t));
    sw__take(&L, &L.walk, nodes, sizeof(uint32_t));
    sw__take(&L, &L.nearest, nodes, sizeof(uint32_t));
    sw__take(&L, &L.first_on, nodes + 1, sizeof(uint32_t));
    sw__take(&L, &L.on_node, count, sizeof(uint32_t));
    sw__take(&L, &L.index, vertices, sizeof(uint32_t));
    sw__take(&L, &L.low, vertices, sizeof(uint32_t));
    sw__take(&L, &L.frames, vertices, 2 * sizeof(uint32_t));
    sw__take(&L, &L.tarjan, vertices, sizeof(uint32_t));
    sw__take(&L, &L.flags, vertices, sizeof(uint8_t));
    return L;
}

size_t sw_constraint_memory_size(const sw_model* model, size_t constraint_count) {
    SW_ASSERT(model);
    sw__constraint_layout L = sw__layout(model->node_count, constraint_count);
    return L.overflow ? 0 : L.total;
}

/* ---- the dependency graph ------------------------------------------------------------------
   Vertices: constraint k is k; node m is count + m (only nodes that are
   destinations, and nearest[] only ever names those). Edges, in three-vrm's
   order:
     constraint k → the nearest constrained ancestor-or-self of its source,
                    then (aim) of its destination's parent;
     node m       → the nearest constrained ancestor of m (root first: it
                    is walked before m's own constraints), then each
                    constraint on m in set order.
   A constraint is finished (post-order) after everything it reads. */

typedef struct sw__graph {
    const sw_model* model;
    const sw_constraint* constraints;
    uint32_t count;
    const uint32_t* nearest;  /* per node: the nearest ancestor-or-self that is a destination, or NONE */
    const uint32_t* first_on; /* per node: on_node[first_on[m] .. first_on[m + 1]) are the constraints on m */
    const uint32_t* on_node;
} sw__graph;

/* The vertex of the nearest constrained ancestor-or-self of node n, or NONE. */
static uint32_t sw__node_vertex(const sw__graph* G, int32_t n) {
    if (n < 0) return SW__NONE;
    uint32_t m = G->nearest[n];
    return m == SW__NONE ? SW__NONE : G->count + m;
}

/* The edge after *next of vertex v (advancing *next), or NONE when there is none left. */
static uint32_t sw__next_edge(const sw__graph* G, uint32_t v, uint32_t* next) {
    for (;;) {
        uint32_t i = (*next)++;
        if (v < G->count) {
            const sw_constraint* c = &G->constraints[v];
            if (i == 0) {
                uint32_t to = sw__node_vertex(G, (int32_t)c->source);
                if (to != SW__NONE) return to;
            } else if (i == 1 && c->type == SW_CONSTRAINT_AIM) {
                uint32_t to = sw__node_vertex(G, G->model->nodes[c->destination].parent);
                if (to != SW__NONE) return to;
            } else if (i >= 1) {
                return SW__NONE;
            }
        } else {
            uint32_t m = v - G->count;
            if (i == 0) {
                uint32_t to = sw__node_vertex(G, G->model->nodes[m].parent);
                if (to != SW__NONE) return to;
            } else {
                uint32_t k = G->first_on[m] + (i - 1);
                return k < G->first_on[m + 1] ? G->on_node[k] : SW__NONE;
            }
        }
    }
}

/* ---- init ---------------------------------------------------------------------------------- */

static sw_result sw__check(const sw_model* model, const sw_constraint* c, size_t k, sw_diag* diag) {
    if (c->destination >= model->node_count || c->source >= model->node_count)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, (int64_t)k,
                           "constraint %zu: node %u is out of range (the model has %zu nodes)", k,
                           c->destination >= model->node_count ? c->destination : c->source, model->node_count);
    if (c->source == c->destination)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, (int64_t)k, "constraint %zu: the source is the destination",
                           k);
    if (model->nodes[c->destination].has_matrix)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, (int64_t)k,
                           "constraint %zu: destination node %u has a matrix transform", k, c->destination);
    if (!(c->weight >= 0.0f && c->weight <= 1.0f))
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, (int64_t)k, "constraint %zu: weight %g is not in [0, 1]", k,
                           (double)c->weight);
    if ((unsigned)c->type > SW_CONSTRAINT_AIM)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, (int64_t)k, "constraint %zu: unknown type %d", k,
                           (int)c->type);
    unsigned axes = c->type == SW_CONSTRAINT_AIM ? 6u : 5u;
    if (c->type != SW_CONSTRAINT_ROTATION &&
        ((unsigned)c->axis >= axes || (c->type == SW_CONSTRAINT_ROLL && (c->axis & 1u))))
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, (int64_t)k, "constraint %zu: axis %d is not %s", k, (int)c->axis,
                           c->type == SW_CONSTRAINT_ROLL ? "a roll axis (+X, +Y or +Z)" : "an aim axis");
    return SW_OK;
}

sw_result sw_constraint_init(sw_constraint_state* state, void* memory, const sw_model* model,
                             const sw_constraint* constraints, size_t constraint_count, sw_diag* diag) {
    if (!state || !model || (!memory && constraint_count) || (!constraints && constraint_count))
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "constraint init: a state, a model and memory are needed");
    memset(state, 0, sizeof *state);
    size_t nodes = model->node_count;
    sw__constraint_layout L = sw__layout(nodes, constraint_count);
    if (L.overflow || constraint_count >= UINT32_MAX / 2 || nodes >= UINT32_MAX / 2)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "constraint init: too many constraints or nodes");
    if (((uintptr_t)memory & 15u) != 0)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "constraint init: memory is not 16-aligned");
    for (size_t k = 0; k < constraint_count; k++) {
        sw_result r = sw__check(model, &constraints[k], k, diag);
        if (r != SW_OK) return r;
    }
    state->model = model;
    state->constraints = constraints;
    state->constraint_count = constraint_count;
    if (!constraint_count) return SW_OK;

    unsigned char* base = memory;
    uint32_t* order = (uint32_t*)(base + L.order);
    uint8_t* cyclic = base + L.cyclic;
    uint32_t* nearest = (uint32_t*)(base + L.nearest);
    uint32_t* first_on = (uint32_t*)(base + L.first_on);
    uint32_t* on_node = (uint32_t*)(base + L.on_node);
    uint32_t* index = (uint32_t*)(base + L.index);
    uint32_t* low = (uint32_t*)(base + L.low);
    uint32_t* frames = (uint32_t*)(base + L.frames); /* pairs: vertex, next edge */
    uint32_t* tarjan = (uint32_t*)(base + L.tarjan);
    uint8_t* on_tarjan = base + L.flags;
    uint32_t count = (uint32_t)constraint_count;
    uint32_t vertices = count + (uint32_t)nodes;

    /* The constraints on each node (a counting sort, set order kept). */
    memset(first_on, 0, (nodes + 1) * sizeof *first_on);
    for (uint32_t k = 0; k < count; k++) first_on[constraints[k].destination + 1]++;
    for (size_t m = 0; m < nodes; m++) first_on[m + 1] += first_on[m];
    for (size_t m = 0; m < nodes; m++) nearest[m] = first_on[m]; /* a cursor per node, for now */
    for (uint32_t k = 0; k < count; k++) on_node[nearest[constraints[k].destination]++] = k;
    /* Parents first: the nearest constrained ancestor-or-self in one pass. */
    for (size_t m = 0; m < nodes; m++) {
        int32_t parent = model->nodes[m].parent;
        nearest[m] = first_on[m + 1] > first_on[m] ? (uint32_t)m : parent >= 0 ? nearest[parent] : SW__NONE;
    }
    sw__graph G = {model, constraints, count, nearest, first_on, on_node};

    /* Tarjan's strongly connected components, iteratively, from each
       constraint in set order; constraints are emitted in post-order. */
    for (uint32_t v = 0; v < vertices; v++) index[v] = SW__NONE, on_tarjan[v] = 0;
    memset(cyclic, 0, constraint_count);
    uint32_t next_index = 0, depth = 0, tarjan_size = 0, emitted = 0;
    for (uint32_t root = 0; root < count; root++) {
        if (index[root] != SW__NONE) continue;
        index[root] = low[root] = next_index++;
        tarjan[tarjan_size++] = root, on_tarjan[root] = 1;
        frames[0] = root, frames[1] = 0, depth = 1;
        while (depth) {
            uint32_t v = frames[2 * (depth - 1)];
            uint32_t to = sw__next_edge(&G, v, &frames[2 * (depth - 1) + 1]);
            if (to != SW__NONE) {
                if (index[to] == SW__NONE) {
                    index[to] = low[to] = next_index++;
                    tarjan[tarjan_size++] = to, on_tarjan[to] = 1;
                    frames[2 * depth] = to, frames[2 * depth + 1] = 0, depth++;
                } else if (on_tarjan[to] && index[to] < low[v]) {
                    low[v] = index[to];
                }
                continue;
            }
            depth--;
            if (v < count) order[emitted++] = v;
            if (low[v] == index[v]) {
                uint32_t first = tarjan_size;
                do first--, on_tarjan[tarjan[first]] = 0; while (tarjan[first] != v);
                if (tarjan_size - first > 1)
                    for (uint32_t i = first; i < tarjan_size; i++)
                        if (tarjan[i] < count) cyclic[tarjan[i]] = 1, state->cyclic_count++;
                tarjan_size = first;
            }
            if (depth) {
                uint32_t parent = frames[2 * (depth - 1)];
                if (low[v] < low[parent]) low[parent] = low[v];
            }
        }
    }
    size_t kept = 0;
    for (uint32_t i = 0; i < emitted; i++)
        if (!cyclic[order[i]]) order[kept++] = order[i];
    state->order = order;
    state->order_count = kept;
    state->cyclic = cyclic;
    state->world_cache = (sw_mat34*)(base + L.world_cache);
    state->world_ready = base + L.world_ready;
    state->walk = (uint32_t*)(base + L.walk);
    return SW_OK;
}

/* ---- the rules ---------------------------------------------------------------------------------- */

static sw_vec3 sw__axis(sw_constraint_axis a) {
    float s = (a & 1u) ? -1.0f : 1.0f;
    switch (a >> 1) {
    case 0: return sw_vec3_make(s, 0.0f, 0.0f);
    case 1: return sw_vec3_make(0.0f, s, 0.0f);
    default: return sw_vec3_make(0.0f, 0.0f, s);
    }
}

/* The smallest rotation taking unit `from` to unit `to`, as three.js's
   Quaternion.setFromUnitVectors: opposite vectors turn 180° about an axis
   perpendicular to `from`; a zero `to` gives the identity. */
static sw_quat sw__from_to(sw_vec3 from, sw_vec3 to) {
    double r = (double)sw_vec3_dot(from, to) + 1.0;
    double x, y, z;
    if (r < 1e-6) {
        r = 0.0;
        if (fabsf(from.x) > fabsf(from.z)) x = -from.y, y = from.x, z = 0.0;
        else x = 0.0, y = -from.z, z = from.y;
    } else {
        x = (double)from.y * to.z - (double)from.z * to.y;
        y = (double)from.z * to.x - (double)from.x * to.z;
        z = (double)from.x * to.y - (double)from.y * to.x;
    }
    double n = sqrt(x * x + y * y + z * z + r * r);
    if (n == 0.0) return sw_quat_identity();
    return (sw_quat){(float)(x / n), (float)(y / n), (float)(z / n), (float)(r / n)};
}

/* Slerp along the shorter arc, in double (three.js's Quaternion.slerp:
   t = 0 gives a, t = 1 gives b). */
static sw_quat sw__slerp(sw_quat a, sw_quat b, float t) {
    if (t <= 0.0f) return a;
    if (t >= 1.0f) return b;
    double ax = a.x, ay = a.y, az = a.z, aw = a.w, bx = b.x, by = b.y, bz = b.z, bw = b.w;
    double c = ax * bx + ay * by + az * bz + aw * bw;
    if (c < 0.0) bx = -bx, by = -by, bz = -bz, bw = -bw, c = -c;
    if (c >= 1.0) return a;
    double s2 = 1.0 - c * c, wa, wb;
    if (s2 <= 2.220446049250313e-16) {
        wa = 1.0 - t, wb = t;
    } else {
        double s = sqrt(s2), theta = atan2(s, c);
        wa = sin((1.0 - t) * theta) / s, wb = sin(t * theta) / s;
    }
    double x = wa * ax + wb * bx, y = wa * ay + wb * by, z = wa * az + wb * bz, w = wa * aw + wb * bw;
    double n = sqrt(x * x + y * y + z * z + w * w);
    return (sw_quat){(float)(x / n), (float)(y / n), (float)(z / n), (float)(w / n)};
}

static sw_quat sw__inverse(sw_quat q) { return sw_quat_conjugate(sw_quat_normalize(q)); }

/* The world matrix of node n from pose->local, computed at most once per
   apply: the order guarantees that nothing above a node an aim reads is
   written after it is read. */
static const sw_mat34* sw__world(sw_constraint_state* S, const sw_transform* local, uint32_t n) {
    const sw_model_node* nodes = S->model->nodes;
    uint32_t depth = 0;
    int32_t at = (int32_t)n;
    while (at >= 0 && !S->world_ready[at]) S->walk[depth++] = (uint32_t)at, at = nodes[at].parent;
    while (depth) {
        uint32_t m = S->walk[--depth];
        const sw_model_node* node = &nodes[m];
        sw_mat34 own = node->has_matrix ? node->matrix : sw_transform_to_mat34(&local[m]);
        S->world_cache[m] = node->parent >= 0 ? sw_mat34_mul(&S->world_cache[node->parent], &own) : own;
        S->world_ready[m] = 1;
    }
    return &S->world_cache[n];
}

/* The rotation of a world matrix: its columns divided by their lengths
   (the first negated when the matrix mirrors), as three.js's decompose. */
static sw_quat sw__rotation_of(const sw_mat34* w) {
    sw_mat34 r = *w;
    float det = w->m[0][0] * (w->m[1][1] * w->m[2][2] - w->m[1][2] * w->m[2][1]) -
                w->m[0][1] * (w->m[1][0] * w->m[2][2] - w->m[1][2] * w->m[2][0]) +
                w->m[0][2] * (w->m[1][0] * w->m[2][1] - w->m[1][1] * w->m[2][0]);
    for (int c = 0; c < 3; c++) {
        float len = sqrtf(w->m[0][c] * w->m[0][c] + w->m[1][c] * w->m[1][c] + w->m[2][c] * w->m[2][c]);
        if (c == 0 && det < 0.0f) len = -len;
        if (len == 0.0f) return sw_quat_identity();
        for (int row = 0; row < 3; row++) r.m[row][c] = w->m[row][c] / len;
    }
    return sw_quat_from_mat34(&r);
}

static sw_vec3 sw__position(const sw_mat34* w) { return sw_vec3_make(w->m[0][3], w->m[1][3], w->m[2][3]); }

void sw_constraint_apply(sw_constraint_state* state, sw_pose* pose) {
    SW_ASSERT(state && pose);
    if (!state->order_count) return;
    const sw_model* model = state->model;
    sw_transform* local = pose->local;
    SW_ASSERT(local);
    memset(state->world_ready, 0, model->node_count);
    for (size_t i = 0; i < state->order_count; i++) {
        const sw_constraint* c = &state->constraints[state->order[i]];
        sw_quat dst_rest = model->rest_local[c->destination].rotation;
        sw_quat src_rest = model->rest_local[c->source].rotation;
        sw_quat src = local[c->source].rotation;
        sw_quat target;
        switch (c->type) {
        case SW_CONSTRAINT_ROTATION:
            target = sw_quat_mul(dst_rest, sw_quat_mul(sw__inverse(src_rest), src));
            break;
        case SW_CONSTRAINT_ROLL: {
            sw_quat delta = sw_quat_mul(sw_quat_mul(sw__inverse(dst_rest), src),
                                        sw_quat_mul(sw__inverse(src_rest), dst_rest));
            sw_vec3 axis = sw__axis(c->axis);
            sw_quat swing_back = sw__from_to(sw_quat_rotate(sw_quat_normalize(delta), axis), axis);
            target = sw_quat_mul(dst_rest, sw_quat_mul(swing_back, delta));
            break;
        }
        default: { /* aim */
            int32_t parent = model->nodes[c->destination].parent;
            sw_quat parent_rotation = sw_quat_identity();
            sw_vec3 dst_position = local[c->destination].translation;
            if (parent >= 0) {
                const sw_mat34* pw = sw__world(state, local, (uint32_t)parent);
                parent_rotation = sw__rotation_of(pw);
                dst_position = sw_mat34_apply_point(pw, dst_position);
            }
            sw_vec3 src_position = sw__position(sw__world(state, local, c->source));
            sw_quat rest_in_world = sw_quat_mul(parent_rotation, dst_rest);
            sw_vec3 from = sw_quat_rotate(sw_quat_normalize(rest_in_world), sw__axis(c->axis));
            sw_vec3 to = sw_vec3_normalize(sw_vec3_sub(src_position, dst_position));
            sw_quat turn = sw__from_to(from, to);
            target = sw_quat_mul(sw_quat_conjugate(parent_rotation), sw_quat_mul(turn, rest_in_world));
            break;
        }
        }
        local[c->destination].rotation = sw__slerp(dst_rest, sw_quat_normalize(target), c->weight);
    }
}
