/* Spring-bone checking and set-up on big sets (a 3,000-joint chain, 20,000
   chains) and on random small ones, against a plain reference written
   here: every bone compared with every other (the first error, its
   message) and runs picked by scanning (their order, their lead nodes).
   No timings: the big cases are here for their results. */
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
            if (tail >= 0)
                for (int32_t p = tail; (uint32_t)p != head; p = m->nodes[p].parent) sizes->node_count++;
        }
        sizes->bone_count += ref_bones(c);
        if (ref_bones(c)) {
            sizes->run_count++;
            for (int32_t p = m->nodes[s->joints[c->first_joint].node].parent; p >= 0; p = m->nodes[p].parent)
                sizes->node_count++;
        }
    }
}

/* Is node moved by one of the state's first `runs` runs? (a scan) */
static bool ref_touched(const sw_spring_state* st, size_t runs, uint32_t node) {
    for (size_t r = 0; r < runs; r++) {
        const sw_spring_run* run = &st->runs[r];
        for (uint32_t k = 0; k < run->lead_count; k++)
            if (st->nodes[run->lead_first + k] == node) return true;
        for (uint32_t b = 0; b < run->bone_count; b++) {
            const sw_spring_bone* bone = &st->bones[run->first_bone + b];
            if (bone->head == node) return true;
            for (uint32_t k = 0; k < bone->path_count; k++)
                if (st->nodes[bone->path_first + k] == node) return true;
        }
    }
    return false;
}

/* The state's runs: each the chain with the next larger first head, its
   lead the first head's ancestors below the nearest node an earlier run
   moves (none when no earlier run moves an ancestor). */
static void check_state(const sw_model* m, const sw_spring_set* s, const sw_spring_state* st) {
    int64_t last = -1;
    uint32_t bones = 0;
    for (size_t r = 0; r < st->run_count; r++) {
        size_t pick = SIZE_MAX;
        uint32_t pick_node = 0;
        for (size_t ci = 0; ci < s->chain_count; ci++) {
            if (!ref_bones(&s->chains[ci])) continue;
            uint32_t first = s->joints[s->chains[ci].first_joint].node;
            if ((int64_t)first > last && (pick == SIZE_MAX || first < pick_node)) pick = ci, pick_node = first;
        }
        last = pick_node;
        const sw_spring_run* run = &st->runs[r];
        SW_CHECK_EQ_INT(run->chain, pick);
        SW_CHECK_EQ_INT(run->first_bone, bones);
        SW_CHECK_EQ_INT(run->bone_count, ref_bones(&s->chains[pick]));
        bones += run->bone_count;
        uint32_t lead = 0;
        int32_t p = m->nodes[pick_node].parent;
        for (; p >= 0 && !ref_touched(st, r, (uint32_t)p); p = m->nodes[p].parent) lead++;
        if (p < 0) lead = 0;
        SW_CHECK_EQ_INT(run->lead_count, lead);
        p = m->nodes[pick_node].parent;
        for (uint32_t k = 0; k < run->lead_count && k < lead; k++, p = m->nodes[p].parent)
            SW_CHECK_EQ_INT(st->nodes[run->lead_first + lead - 1 - k], p);
    }
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
        sw_spring_set set = {0};
        set.joints = joints, set.joint_count = jc, set.chains = chains, set.chain_count = cc;
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
            SW_CHECK_EQ_INT(got.run_count, want.run_count);
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
    SW_CHECK_EQ_INT(sizes.run_count, 1);
    SW_CHECK_EQ_INT(sizes.node_count, 2 * (jc - 1) + 2); /* two nodes per bone; the first head's two ancestors */

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
    SW_CHECK_EQ_INT(sizes.run_count, C);
    SW_CHECK_EQ_INT(sizes.node_count, 2 * C); /* each bone's tail, each first head's root */
    void* memory = NULL;
    sw_spring_state st;
    SW_CHECK(state_of(m, &set, &memory, &st));
    if (memory) {
        bool ordered = true;
        for (size_t r = 0; r < C; r++)
            ordered &= st.runs[r].chain == C - 1 - r && st.runs[r].lead_count == 0 && st.runs[r].bone_count == 1;
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
