/* Spring-bone checking and set-up on big sets (a 3,000-joint chain, 20,000
   chains) and on random small ones, against a plain reference written
   here: every bone compared with every other (the first error, its
   message), the step's order as three-vrm's VRMSpringBoneManager sorts
   its joints, written out as it does it (every dependency's ancestors
   walked from the root, every joint scanned), and each bone's node list
   by scanning. No timings: the big cases are here for their results. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "sinew/gltf.h"
#include "sinew/pose.h"
#include "sinew/spring.h"
#include "test_random.h"

/* A glTF of n nodes, node i a child of parent[i] (< i; -1 for node 0),
   each a little away from its parent. */
static sw_model* tree_model(size_t n, const int32_t* parent) {
    size_t cap = 200 + n * 96, at = 0;
    char* text = malloc(cap);
    size_t* child_count = calloc(n, sizeof *child_count);
    if (!text || !child_count) abort();
    for (size_t i = 1; i < n; i++) child_count[parent[i]]++;
    at += (size_t)snprintf(text + at, cap - at,
                           "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],\"nodes\":[");
    for (size_t i = 0; i < n; i++) {
        at += (size_t)snprintf(text + at, cap - at, "%s{\"translation\":[%g,0.01,%g]", i ? "," : "",
                               0.001 * (double)(i % 7), 0.001 * (double)(i % 5));
        if (child_count[i]) {
            at += (size_t)snprintf(text + at, cap - at, ",\"children\":[");
            /* children in index order: the model keeps file order for a parents-first file */
            size_t written = 0;
            for (size_t c = i + 1; c < n && written < child_count[i]; c++)
                if ((size_t)parent[c] == i)
                    at += (size_t)snprintf(text + at, cap - at, "%s%zu", written++ ? "," : "", c);
            at += (size_t)snprintf(text + at, cap - at, "]");
        }
        at += (size_t)snprintf(text + at, cap - at, "}");
    }
    at += (size_t)snprintf(text + at, cap - at, "]}");
    sw_model* model = NULL;
    sw_diag diag = {0};
    if (sw_gltf_load_memory(text, at, "tree.gltf", NULL, NULL, &model, &diag) != SW_OK)
        fprintf(stderr, "  load: %s\n", diag.message);
    free(text);
    free(child_count);
    return model;
}

/* ---- the reference ------------------------------------------------------------------------ */

static bool ref_is_ancestor(const sw_model* m, uint32_t a, uint32_t n) {
    for (int32_t p = m->nodes[n].parent; p >= 0; p = m->nodes[p].parent)
        if ((uint32_t)p == a) return true;
    return false;
}

static size_t ref_bones(const sw_spring_chain* c) { return c->joint_count - 1 + (c->tail_length > 0.0f ? 1 : 0); }

static void ref_bone(const sw_spring_set* s, const sw_spring_chain* c, size_t k, uint32_t* head, int32_t* tail) {
    *head = s->joints[c->first_joint + k].node;
    *tail = k + 1 < c->joint_count ? (int32_t)s->joints[c->first_joint + k + 1].node : -1;
}

/* The first bone (chain by chain) whose head heads another bone or lies
   between another bone's joints: its message, or "" when none; also the
   sizes. Sets here have no other fault. */
static void ref_check(const sw_model* m, const sw_spring_set* s, char* message, size_t size, sw_spring_sizes* sizes) {
    message[0] = 0;
    memset(sizes, 0, sizeof *sizes);
    for (size_t ci = 0; ci < s->chain_count; ci++) {
        const sw_spring_chain* c = &s->chains[ci];
        for (size_t k = 0; k < ref_bones(c); k++) {
            uint32_t head;
            int32_t tail;
            ref_bone(s, c, k, &head, &tail);
            bool two = false, between = false;
            for (size_t cj = 0; cj < s->chain_count; cj++)
                for (size_t q = 0; q < ref_bones(&s->chains[cj]); q++) {
                    if (cj == ci && q == k) continue;
                    uint32_t h;
                    int32_t t;
                    ref_bone(s, &s->chains[cj], q, &h, &t);
                    two |= h == head;
                    between |= t >= 0 && (uint32_t)t != head && ref_is_ancestor(m, h, head) &&
                               ref_is_ancestor(m, head, (uint32_t)t);
                }
            if (two) {
                snprintf(message, size, "spring chain %zu: node %u heads two bones (a joint in two chains)", ci, head);
                return;
            }
            if (between) {
                snprintf(message, size, "spring chain %zu: node %u swings but lies between the joints of another bone",
                         ci, head);
                return;
            }
        }
        sizes->bone_count += ref_bones(c);
    }
    /* nodes carried: every node below a head that heads nothing, and every tail that heads a bone */
    for (uint32_t n = 0; n < m->node_count; n++) {
        bool head = false, below = false;
        size_t tail_of = 0;
        for (size_t ci = 0; ci < s->chain_count; ci++)
            for (size_t k = 0; k < ref_bones(&s->chains[ci]); k++) {
                uint32_t h;
                int32_t t;
                ref_bone(s, &s->chains[ci], k, &h, &t);
                head |= h == n;
                below |= ref_is_ancestor(m, h, n);
                tail_of += t >= 0 && (uint32_t)t == n;
            }
        sizes->node_count += head ? tail_of : below;
    }
}

/* ---- three-vrm's order, as written there ------------------------------------------------------ */

typedef struct ref_sort {
    const sw_model* m;
    const sw_spring_set* s;
    size_t bone_count;
    uint32_t *head, *chain, *order;
    int32_t* bone_of_node; /* three-vrm's map from an object to its joints (here one at most) */
    bool *tried, *done;
    size_t out;
} ref_sort;

/* every joint on the dependency's ancestors, root first (the dependency included) */
static void ref_insert(ref_sort* r, size_t b);
static void ref_dependency(ref_sort* r, uint32_t dep) {
    size_t count = 0;
    for (int32_t p = (int32_t)dep; p >= 0; p = r->m->nodes[p].parent) count++;
    uint32_t* path = malloc(count * sizeof *path);
    if (!path) abort();
    count = 0;
    for (int32_t p = (int32_t)dep; p >= 0; p = r->m->nodes[p].parent) path[count++] = (uint32_t)p;
    while (count-- > 0)
        if (r->bone_of_node[path[count]] >= 0) ref_insert(r, (size_t)r->bone_of_node[path[count]]);
    free(path);
}

static void ref_insert(ref_sort* r, size_t b) {
    if (r->done[b] || r->tried[b]) return;
    r->tried[b] = true;
    const sw_spring_chain* c = &r->s->chains[r->chain[b]];
    int32_t parent = r->m->nodes[r->head[b]].parent;
    if (parent >= 0) ref_dependency(r, (uint32_t)parent);
    for (size_t g = 0; g < c->group_count; g++) {
        const sw_spring_collider_group* group = &r->s->groups[r->s->chain_groups[c->first_group + g]];
        for (size_t k = 0; k < group->collider_count; k++)
            ref_dependency(r, r->s->colliders[r->s->group_colliders[group->first_collider + k]].node);
    }
    r->order[r->out++] = (uint32_t)b;
    r->done[b] = true;
}

/* The state's bones: three-vrm's order; each bone's nodes the path from
   its head down to its tail, then the other nodes whose nearest head
   ancestor it is and that head nothing, in node order. */
static void check_state(const sw_model* m, const sw_spring_set* s, const sw_spring_state* st) {
    ref_sort r = {m, s, 0, NULL, NULL, NULL, NULL, NULL, NULL, 0};
    size_t bones = 0, n = m->node_count;
    for (size_t ci = 0; ci < s->chain_count; ci++) bones += ref_bones(&s->chains[ci]);
    r.head = malloc((bones + 1) * sizeof *r.head), r.chain = malloc((bones + 1) * sizeof *r.chain);
    r.order = malloc((bones + 1) * sizeof *r.order);
    r.tried = calloc(bones + 1, 1), r.done = calloc(bones + 1, 1);
    r.bone_of_node = malloc(n * sizeof *r.bone_of_node);
    int32_t* near = malloc(n * sizeof *near);
    uint32_t *want = malloc(n * sizeof *want), *path = malloc(n * sizeof *path);
    uint8_t* on_path = calloc(n, 1);
    if (!r.head || !r.chain || !r.order || !r.tried || !r.done || !r.bone_of_node || !near || !want || !path ||
        !on_path)
        abort();
    for (size_t i = 0; i < n; i++) r.bone_of_node[i] = -1;
    for (size_t ci = 0; ci < s->chain_count; ci++)
        for (size_t k = 0; k < ref_bones(&s->chains[ci]); k++) {
            int32_t t;
            ref_bone(s, &s->chains[ci], k, &r.head[r.bone_count], &t);
            r.bone_of_node[r.head[r.bone_count]] = (int32_t)r.bone_count;
            r.chain[r.bone_count++] = (uint32_t)ci;
        }
    for (size_t b = 0; b < r.bone_count; b++) ref_insert(&r, b);
    /* each node's nearest strict ancestor heading a bone, by walking up */
    for (size_t i = 0; i < n; i++) {
        near[i] = m->nodes[i].parent;
        while (near[i] >= 0 && r.bone_of_node[near[i]] < 0) near[i] = m->nodes[near[i]].parent;
    }
    SW_CHECK_EQ_INT(st->bone_count, r.bone_count);
    bool same = st->bone_count == r.bone_count, lists = true;
    for (size_t i = 0; same && i < r.bone_count; i++) {
        const sw_spring_bone* bone = &st->bones[i];
        same &= bone->head == r.head[r.order[i]] && bone->chain == r.chain[r.order[i]];
        /* the list: the path, parents first, then the others in node order */
        uint32_t count = 0, path_count = 0;
        for (int32_t p = bone->tail; bone->tail >= 0 && (uint32_t)p != bone->head; p = m->nodes[p].parent)
            path[path_count++] = (uint32_t)p, on_path[p] = 1;
        for (uint32_t k = path_count; k-- > 0;) want[count++] = path[k];
        for (uint32_t v = 0; v < n; v++)
            if (r.bone_of_node[v] < 0 && !on_path[v] && near[v] == (int32_t)bone->head) want[count++] = v;
        for (uint32_t k = 0; k < path_count; k++) on_path[path[k]] = 0;
        lists &= bone->path_count == count;
        for (uint32_t k = 0; lists && k < count; k++) lists &= st->nodes[bone->path_first + k] == want[k];
    }
    SW_CHECK(same);
    SW_CHECK(lists);
    free(r.head), free(r.chain), free(r.order), free(r.tried), free(r.done), free(r.bone_of_node);
    free(near), free(want), free(path), free(on_path);
}

static bool state_of(const sw_model* m, const sw_spring_set* s, void** memory, sw_spring_state* st) {
    sw_diag diag = {0};
    sw_spring_sizes sizes;
    if (sw_spring_sizes_of(m, s, &sizes, &diag) != SW_OK) return false;
    *memory = aligned_alloc(16, sw_spring_memory_size(&sizes));
    return *memory && sw_spring_init(st, &sizes, *memory, m, s, NULL, &diag) == SW_OK;
}

/* ---- random small sets -------------------------------------------------------------------- */

static void test_random_sets(void) {
    rng random = {35};
    enum { NODES = 48 };
    size_t errors = 0, valid = 0;
    for (int trial = 0; trial < 400; trial++) {
        int32_t parent[NODES];
        parent[0] = -1;
        int spread = 1 + (int)(rng_u32(&random) % 6);
        for (int i = 1; i < NODES; i++) {
            int lo = i - spread < 0 ? 0 : i - spread;
            parent[i] = lo + (int32_t)(rng_u32(&random) % (uint32_t)(i - lo));
        }
        sw_model* m = tree_model(NODES, parent);
        SW_CHECK(m != NULL);
        if (!m) return;
        sw_spring_joint joints[64];
        sw_spring_chain chains[8];
        size_t jc = 0, cc = 1 + rng_u32(&random) % 6;
        for (size_t c = 0; c < cc; c++) {
            sw_spring_chain chain = {0};
            chain.first_joint = jc;
            chain.tail_length = rng_u32(&random) % 2 ? 0.05f : 0.0f;
            uint32_t n = 1 + rng_u32(&random) % (uint32_t)(m->node_count - 1); /* never the root */
            size_t want = 1 + rng_u32(&random) % 5;
            for (;;) {
                sw_spring_joint j = {n, 1.0f, 0.4f, 0.5f, {0.0f, -1.0f, 0.0f}, 0.0f};
                joints[jc++] = j;
                chain.joint_count++;
                if (chain.joint_count == want) break;
                /* one to three levels down, by random children */
                uint32_t levels = 1 + rng_u32(&random) % 3, next = n;
                for (uint32_t l = 0; l < levels && m->nodes[next].child_count; l++)
                    next = m->nodes[next].children[rng_u32(&random) % m->nodes[next].child_count];
                if (next == n) break;
                n = next;
            }
            chains[c] = chain;
        }
        /* colliders on random nodes in up to three groups; each chain collides with
           some groups (the order then depends on the chains that move them) */
        sw_spring_collider colliders[6];
        sw_spring_collider_group groups[3];
        uint32_t group_colliders[12], chain_groups[24];
        size_t collider_count = rng_u32(&random) % 7, group_count = collider_count ? 1 + rng_u32(&random) % 3 : 0;
        size_t gc = 0, cg = 0;
        for (size_t i = 0; i < collider_count; i++) {
            colliders[i] = (sw_spring_collider){.node = rng_u32(&random) % (uint32_t)m->node_count, .radius = 0.01f};
        }
        for (size_t g = 0; g < group_count; g++) {
            groups[g] = (sw_spring_collider_group){.first_collider = gc, .collider_count = 1 + rng_u32(&random) % 4};
            for (size_t k = 0; k < groups[g].collider_count; k++)
                group_colliders[gc++] = rng_u32(&random) % (uint32_t)collider_count;
        }
        for (size_t c = 0; c < cc; c++) {
            chains[c].first_group = cg;
            chains[c].group_count = group_count ? rng_u32(&random) % (uint32_t)(group_count + 1) : 0;
            for (size_t k = 0; k < chains[c].group_count; k++) chain_groups[cg++] = rng_u32(&random) % (uint32_t)group_count;
        }
        sw_spring_set set = {0};
        set.joints = joints, set.joint_count = jc, set.chains = chains, set.chain_count = cc;
        set.colliders = colliders, set.collider_count = collider_count, set.groups = groups;
        set.group_count = group_count, set.group_colliders = group_colliders, set.group_collider_count = gc;
        set.chain_groups = chain_groups, set.chain_group_count = cg;
        char expected[256];
        sw_spring_sizes want, got;
        ref_check(m, &set, expected, sizeof expected, &want);
        sw_diag diag = {0};
        sw_result r = sw_spring_sizes_of(m, &set, &got, &diag);
        if (expected[0]) {
            errors++;
            SW_CHECK(r == SW_ERR_INVALID_DATA);
            SW_CHECK(strcmp(diag.message, expected) == 0);
            if (strcmp(diag.message, expected) != 0) fprintf(stderr, "  got %s\n  want %s\n", diag.message, expected);
        } else {
            valid++;
            SW_CHECK(r == SW_OK);
            if (r != SW_OK) fprintf(stderr, "  unexpected: %s\n", diag.message);
            SW_CHECK_EQ_INT(got.bone_count, want.bone_count);
            SW_CHECK_EQ_INT(got.node_count, want.node_count);
            void* memory = NULL;
            sw_spring_state st;
            SW_CHECK(state_of(m, &set, &memory, &st));
            if (memory) check_state(m, &set, &st);
            free(memory);
        }
        sw_model_free(m);
    }
    /* both kinds were met, plenty of each */
    SW_CHECK(errors > 50 && valid > 50);
}

/* ---- big sets ------------------------------------------------------------------------------- */

/* A 3,000-node chain: joints on every second node (one chain), then a
   second chain heading a node between them, or one of their joints. */
static void test_long_chain(void) {
    enum { N = 3000 };
    int32_t* parent = malloc(N * sizeof *parent);
    sw_spring_joint* joints = malloc((N / 2 + 4) * sizeof *joints);
    if (!parent || !joints) abort();
    for (int i = 0; i < N; i++) parent[i] = i - 1;
    sw_model* m = tree_model(N, parent);
    SW_CHECK(m != NULL);
    if (!m) return;
    size_t jc = 0;
    for (uint32_t n = 2; n < N; n += 2) joints[jc++] = (sw_spring_joint){n, 1.0f, 0.4f, 1.0f, {0.0f, -1.0f, 0.0f}, 0.0f};
    sw_spring_chain chains[2] = {{.first_joint = 0, .joint_count = jc}};
    sw_spring_set set = {.joints = joints, .joint_count = jc, .chains = chains, .chain_count = 1};
    sw_spring_sizes sizes;
    sw_diag diag = {0};
    SW_CHECK(sw_spring_sizes_of(m, &set, &sizes, &diag) == SW_OK);
    SW_CHECK_EQ_INT(sizes.bone_count, jc - 1);
    SW_CHECK_EQ_INT(sizes.node_count, N - 3); /* every node below the first head (node 2) */

    /* the state, a second of gravity: finite tails */
    void* memory = NULL;
    sw_spring_state st;
    SW_CHECK(state_of(m, &set, &memory, &st));
    if (memory) {
        check_state(m, &set, &st);
        sw_pose_sizes ps = sw_pose_sizes_of(m);
        void* pm = aligned_alloc(16, sw_pose_memory_size(&ps));
        sw_pose pose;
        sw_pose_bind(&pose, &ps, pm);
        for (int f = 0; f < 10; f++) {
            sw_pose_rest(m, &pose);
            sw_pose_update_world(m, &pose);
            sw_spring_update(&st, m, &set, &pose, 1.0f / 10.0f);
        }
        bool finite = true;
        for (size_t b = 0; b < st.bone_count; b++)
            finite &= isfinite(st.current_tail[b].x) && isfinite(st.current_tail[b].y) && isfinite(st.current_tail[b].z);
        SW_CHECK(finite);
        free(pm);
    }
    free(memory);

    /* a collider on the last node, which the chain collides with: every
       joint depends on the ones below it (a circular dependency at each),
       so three-vrm runs them from the tip up; its walk is quadratic here */
    {
        sw_spring_collider tip = {.node = N - 1, .radius = 0.01f};
        sw_spring_collider_group group = {.first_collider = 0, .collider_count = 1};
        uint32_t zero = 0;
        set.colliders = &tip, set.collider_count = 1, set.groups = &group, set.group_count = 1;
        set.group_colliders = &zero, set.group_collider_count = 1, set.chain_groups = &zero;
        set.chain_group_count = 1, chains[0].group_count = 1;
        void* tip_memory = NULL;
        sw_spring_state tip_state;
        SW_CHECK(state_of(m, &set, &tip_memory, &tip_state));
        if (tip_memory) {
            bool reversed = true;
            for (size_t b = 0; b < tip_state.bone_count; b++)
                reversed &= tip_state.bones[b].head == 2 * (uint32_t)(tip_state.bone_count - b);
            SW_CHECK(reversed);
            check_state(m, &set, &tip_state);
        }
        free(tip_memory);
        set.collider_count = set.group_count = set.group_collider_count = set.chain_group_count = 0;
        chains[0].group_count = 0;
    }

    /* chain 1 (one joint, a virtual tail) heads node 1001, between chain
       0's joints 1000 and 1002 */
    joints[jc] = joints[0], joints[jc].node = 1001;
    chains[1] = (sw_spring_chain){.first_joint = jc, .joint_count = 1, .tail_length = 0.05f};
    set.joint_count = jc + 1, set.chain_count = 2;
    SW_CHECK(sw_spring_sizes_of(m, &set, &sizes, &diag) == SW_ERR_INVALID_DATA);
    SW_CHECK(strcmp(diag.message, "spring chain 1: node 1001 swings but lies between the joints of another bone") == 0);
    /* chain 1 heads node 1000, a head of chain 0: chain 0 meets it first */
    joints[jc].node = 1000;
    SW_CHECK(sw_spring_sizes_of(m, &set, &sizes, &diag) == SW_ERR_INVALID_DATA);
    SW_CHECK(strcmp(diag.message, "spring chain 0: node 1000 heads two bones (a joint in two chains)") == 0);
    sw_model_free(m);
    free(parent);
    free(joints);
}

/* 20,000 two-joint chains under one root, listed last to first. */
static void test_many_chains(void) {
    enum { C = 20000, N = 1 + 2 * C };
    int32_t* parent = malloc(N * sizeof *parent);
    sw_spring_joint* joints = malloc(2 * C * sizeof *joints);
    sw_spring_chain* chains = calloc(C, sizeof *chains);
    if (!parent || !joints || !chains) abort();
    parent[0] = -1;
    for (int c = 0; c < C; c++) parent[1 + 2 * c] = 0, parent[2 + 2 * c] = 1 + 2 * c;
    sw_model* m = tree_model(N, parent);
    SW_CHECK(m != NULL);
    if (!m) return;
    for (size_t c = 0; c < C; c++) {
        uint32_t a = (uint32_t)(1 + 2 * (C - 1 - c));
        joints[2 * c] = (sw_spring_joint){a, 1.0f, 0.4f, 1.0f, {0.0f, -1.0f, 0.0f}, 0.0f};
        joints[2 * c + 1] = joints[2 * c], joints[2 * c + 1].node = a + 1;
        chains[c] = (sw_spring_chain){.first_joint = 2 * c, .joint_count = 2};
    }
    sw_spring_set set = {.joints = joints, .joint_count = 2 * C, .chains = chains, .chain_count = C};
    sw_spring_sizes sizes;
    sw_diag diag = {0};
    SW_CHECK(sw_spring_sizes_of(m, &set, &sizes, &diag) == SW_OK);
    SW_CHECK_EQ_INT(sizes.bone_count, C);
    SW_CHECK_EQ_INT(sizes.node_count, C); /* each bone's tail */
    void* memory = NULL;
    sw_spring_state st;
    SW_CHECK(state_of(m, &set, &memory, &st));
    if (memory) {
        bool ordered = true;
        for (size_t r = 0; r < C; r++)
            ordered &= st.bones[r].chain == r && st.bones[r].path_count == 1; /* no dependencies: file order */
        SW_CHECK(ordered);
    }
    free(memory);
    /* the last chain heads the first one's head too: chain 0 reports it */
    joints[2 * C - 2].node = joints[0].node, joints[2 * C - 1].node = joints[1].node;
    SW_CHECK(sw_spring_sizes_of(m, &set, &sizes, &diag) == SW_ERR_INVALID_DATA);
    char want[128];
    snprintf(want, sizeof want, "spring chain 0: node %u heads two bones (a joint in two chains)", joints[0].node);
    SW_CHECK(strcmp(diag.message, want) == 0);
    sw_model_free(m);
    free(parent);
    free(joints);
    free(chains);
}

int main(void) {
    SW_RUN(test_random_sets);
    SW_RUN(test_long_chain);
    SW_RUN(test_many_chains);
    return sw_test_finish();
}
