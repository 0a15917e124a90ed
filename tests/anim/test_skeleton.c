/* Skeletons, parents-first ordering and the local→model job, against the header's contracts and a double-precision recursive reference. */
#include <string.h>

#include "harness.h"
#include "test_random.h"
#include "sinew/anim.h"

/* A failure must come with a code, that code in diag, and a message. */
static void check_failure(sw_result got, const sw_diag* diag) {
    SW_CHECK(got != SW_OK);
    SW_CHECK_EQ_INT(diag->result, got);
    SW_CHECK(diag->message[0] != '\0');
}

/* ---- sw_skeleton_validate --------------------------------------------------- */

static void test_skeleton_validate_accepts_valid(void) {
    const int16_t parents[5] = {SW_NO_PARENT, 0, 1, 0, SW_NO_PARENT};
    sw_transform rest[5];
    rng r = {0x5CE1};
    for (int i = 0; i < 5; i++) rest[i] = rng_transform(&r, 1, 0.5, 2.0);
    const char* const names[5] = {"root", "spine", "head", "arm", "prop"};
    sw_skeleton sk = {5, parents, rest, names};
    sw_diag diag;
    SW_CHECK_EQ_INT(sw_skeleton_validate(&sk, &diag), SW_OK);
    /* The rest pose is optional; NULL diag is allowed. */
    sw_skeleton no_rest = {5, parents, NULL, NULL};
    SW_CHECK_EQ_INT(sw_skeleton_validate(&no_rest, NULL), SW_OK);
    /* A rotation off unit by less than 1e-3 (in |q| and in |q|²) is accepted. */
    rest[2].rotation = (sw_quat){0, 0, 0, 1.0003f};
    SW_CHECK_EQ_INT(sw_skeleton_validate(&sk, &diag), SW_OK);
    /* Names. */
    SW_CHECK_EQ_INT(sw_skeleton_find(&sk, "head"), 2);
    SW_CHECK_EQ_INT(sw_skeleton_find(&sk, "root"), 0);
    SW_CHECK_EQ_INT(sw_skeleton_find(&sk, "tail"), -1);
    SW_CHECK_EQ_INT(sw_skeleton_find(&no_rest, "head"), -1);
}

static void test_skeleton_validate_rejects(void) {
    sw_transform rest[4];
    for (int i = 0; i < 4; i++) rest[i] = sw_transform_identity();
    sw_diag diag;
    sw_result res;

    /* 0 joints. */
    const int16_t p_ok[4] = {SW_NO_PARENT, 0, 1, 1};
    sw_skeleton empty = {0, p_ok, rest, NULL};
    memset(&diag, 0, sizeof diag);
    res = sw_skeleton_validate(&empty, &diag);
    check_failure(res, &diag);
    SW_CHECK(res == SW_ERR_INVALID_ARGUMENT || res == SW_ERR_INVALID_DATA);

    /* More than SW_MAX_JOINTS. */
    static int16_t big[SW_MAX_JOINTS + 1];
    big[0] = SW_NO_PARENT;
    for (int i = 1; i <= SW_MAX_JOINTS; i++) big[i] = (int16_t)(i - 1);
    sw_skeleton too_big = {SW_MAX_JOINTS + 1, big, NULL, NULL};
    memset(&diag, 0, sizeof diag);
    check_failure(sw_skeleton_validate(&too_big, &diag), &diag);
    sw_skeleton max_ok = {SW_MAX_JOINTS, big, NULL, NULL};
    SW_CHECK_EQ_INT(sw_skeleton_validate(&max_ok, NULL), SW_OK);

    /* Parent equal to its own index, and parent after the child. */
    const int16_t p_self[4] = {SW_NO_PARENT, 0, 2, 1};
    const int16_t p_after[4] = {SW_NO_PARENT, 3, 0, 0};
    sw_skeleton self = {4, p_self, rest, NULL}, after = {4, p_after, rest, NULL};
    memset(&diag, 0, sizeof diag);
    res = sw_skeleton_validate(&self, &diag);
    check_failure(res, &diag);
    SW_CHECK_EQ_INT(res, SW_ERR_JOINT_ORDER);
    SW_CHECK_EQ_INT(diag.index, 2);
    memset(&diag, 0, sizeof diag);
    res = sw_skeleton_validate(&after, &diag);
    check_failure(res, &diag);
    SW_CHECK_EQ_INT(res, SW_ERR_JOINT_ORDER);
    SW_CHECK_EQ_INT(diag.index, 1);
    /* The first joint cannot have a parent at all. */
    const int16_t p_root[2] = {0, 0};
    sw_skeleton root_self = {2, p_root, NULL, NULL};
    memset(&diag, 0, sizeof diag);
    check_failure(sw_skeleton_validate(&root_self, &diag), &diag);

    /* Parent below −1. */
    const int16_t p_neg[4] = {SW_NO_PARENT, 0, -2, 1};
    sw_skeleton neg = {4, p_neg, rest, NULL};
    memset(&diag, 0, sizeof diag);
    res = sw_skeleton_validate(&neg, &diag);
    check_failure(res, &diag);
    SW_CHECK(res == SW_ERR_INDEX_OUT_OF_RANGE || res == SW_ERR_JOINT_ORDER || res == SW_ERR_INVALID_DATA);
    SW_CHECK_EQ_INT(diag.index, 2);

    /* Non-unit rest rotation (|q| = 1.01, and 0). */
    sw_skeleton sk = {4, p_ok, rest, NULL};
    rest[3].rotation = (sw_quat){0, 0, 0, 1.01f};
    memset(&diag, 0, sizeof diag);
    res = sw_skeleton_validate(&sk, &diag);
    check_failure(res, &diag);
    SW_CHECK(res == SW_ERR_INVALID_DATA || res == SW_ERR_INVALID_ARGUMENT);
    SW_CHECK_EQ_INT(diag.index, 3);
    rest[3].rotation = (sw_quat){0, 0, 0, 0};
    memset(&diag, 0, sizeof diag);
    check_failure(sw_skeleton_validate(&sk, &diag), &diag);
    rest[3] = sw_transform_identity();
    SW_CHECK_EQ_INT(sw_skeleton_validate(&sk, NULL), SW_OK);

    /* NaN or infinity anywhere in the rest pose. */
    for (int field = 0; field < 6; field++) {
        rest[1] = sw_transform_identity();
        float bad = field % 2 ? NAN : INFINITY;
        switch (field / 2) {
        case 0: rest[1].translation.y = bad; break;
        case 1: rest[1].rotation.x = bad; break;
        default: rest[1].scale.z = bad; break;
        }
        memset(&diag, 0, sizeof diag);
        res = sw_skeleton_validate(&sk, &diag);
        check_failure(res, &diag);
        SW_CHECK(res == SW_ERR_INVALID_DATA || res == SW_ERR_INVALID_ARGUMENT);
        SW_CHECK_EQ_INT(diag.index, 1);
    }
}

/* ---- sw_joint_order_parents_first ------------------------------------------- */

/* out_order must be a permutation of the input where each parent comes before
   its child, and siblings (and roots) keep their input order. */
static void check_parents_first(const uint32_t* order, const int32_t* parents, size_t n) {
    int pos[512];
    SW_CHECK(n <= 512);
    for (size_t i = 0; i < n; i++) pos[i] = -1;
    int bad_perm = 0, bad_parent = 0, bad_sibling = 0;
    for (size_t k = 0; k < n; k++) {
        if (order[k] >= n || pos[order[k]] != -1)
            bad_perm++;
        else
            pos[order[k]] = (int)k;
    }
    SW_CHECK_EQ_INT(bad_perm, 0);
    if (bad_perm) return;
    for (size_t i = 0; i < n; i++) {
        if (parents[i] >= 0 && pos[parents[i]] >= pos[i]) bad_parent++;
        for (size_t j = i + 1; j < n; j++) {
            if (parents[i] == parents[j] && pos[i] > pos[j]) {
                if (!bad_sibling)
                    fprintf(stderr, "  siblings %zu and %zu (parent %d) come out at positions %d and %d\n", i, j,
                            (int)parents[i], pos[i], pos[j]);
                bad_sibling++;
            }
        }
    }
    SW_CHECK_EQ_INT(bad_parent, 0);
    SW_CHECK_EQ_INT(bad_sibling, 0);
}

static void test_joint_order_random_trees(void) {
    rng r = {0x0DE2};
    for (int iter = 0; iter < 200; iter++) {
        size_t n = 1 + rng_below(&r, 300);
        /* A forest in parents-first order (several roots)… */
        int32_t tree[512];
        for (size_t i = 0; i < n; i++) tree[i] = (i == 0 || rng_below(&r, 20) == 0) ? -1 : (int32_t)rng_below(&r, (uint32_t)i);
        /* …shuffled: input joint j is tree joint perm[j]. */
        uint32_t perm[512], inv[512];
        for (size_t i = 0; i < n; i++) perm[i] = (uint32_t)i;
        for (size_t i = n - 1; i > 0; i--) {
            uint32_t j = rng_below(&r, (uint32_t)i + 1);
            uint32_t tmp = perm[i];
            perm[i] = perm[j];
            perm[j] = tmp;
        }
        for (size_t i = 0; i < n; i++) inv[perm[i]] = (uint32_t)i;
        int32_t parents[512];
        for (size_t j = 0; j < n; j++) parents[j] = tree[perm[j]] < 0 ? -1 : (int32_t)inv[tree[perm[j]]];
        uint32_t order[512];
        uint32_t scratch[2 * 512];
        sw_diag diag;
        SW_CHECK_EQ_INT(sw_joint_order_parents_first(order, parents, n, scratch, &diag), SW_OK);
        check_parents_first(order, parents, n);

        /* Already ordered input keeps its order. */
        SW_CHECK_EQ_INT(sw_joint_order_parents_first(order, tree, n, scratch, NULL), SW_OK);
        int moved = 0;
        for (size_t k = 0; k < n; k++) moved += order[k] != k;
        SW_CHECK_EQ_INT(moved, 0);
    }
}

static void test_joint_order_hand_cases(void) {
    uint32_t order[8];
    uint32_t scratch[2 * 8];
    /* Child listed before its parent: 0's parent is 2, 1 is a root, 2's parent is 1. */
    const int32_t p1[3] = {2, -1, 1};
    SW_CHECK_EQ_INT(sw_joint_order_parents_first(order, p1, 3, scratch, NULL), SW_OK);
    SW_CHECK(order[0] == 1 && order[1] == 2 && order[2] == 0);
    /* Several roots, each with children, roots in input order. */
    const int32_t p2[6] = {-1, 4, -1, 0, -1, 2};
    SW_CHECK_EQ_INT(sw_joint_order_parents_first(order, p2, 6, scratch, NULL), SW_OK);
    check_parents_first(order, p2, 6);
    /* All roots: identity order. */
    const int32_t p3[4] = {-1, -1, -1, -1};
    SW_CHECK_EQ_INT(sw_joint_order_parents_first(order, p3, 4, scratch, NULL), SW_OK);
    SW_CHECK(order[0] == 0 && order[1] == 1 && order[2] == 2 && order[3] == 3);
}

static void test_joint_order_rejects(void) {
    uint32_t order[8];
    uint32_t scratch[2 * 8];
    sw_diag diag;
    sw_result res;
    /* Self-parent. */
    const int32_t self[3] = {-1, 1, 0};
    memset(&diag, 0, sizeof diag);
    res = sw_joint_order_parents_first(order, self, 3, scratch, &diag);
    check_failure(res, &diag);
    SW_CHECK_EQ_INT(res, SW_ERR_CYCLE);
    /* Two-cycle, and a three-cycle hanging off a valid tree. */
    const int32_t two[2] = {1, 0};
    memset(&diag, 0, sizeof diag);
    res = sw_joint_order_parents_first(order, two, 2, scratch, &diag);
    check_failure(res, &diag);
    SW_CHECK_EQ_INT(res, SW_ERR_CYCLE);
    const int32_t three[6] = {-1, 0, 5, 2, 3, 4};
    memset(&diag, 0, sizeof diag);
    res = sw_joint_order_parents_first(order, three, 6, scratch, &diag);
    check_failure(res, &diag);
    SW_CHECK_EQ_INT(res, SW_ERR_CYCLE);
    /* No root at all. */
    const int32_t ring[4] = {3, 0, 1, 2};
    SW_CHECK_EQ_INT(sw_joint_order_parents_first(order, ring, 4, scratch, NULL), SW_ERR_CYCLE);
    /* Out of range both ways. */
    const int32_t high[3] = {-1, 3, 0};
    memset(&diag, 0, sizeof diag);
    res = sw_joint_order_parents_first(order, high, 3, scratch, &diag);
    check_failure(res, &diag);
    SW_CHECK_EQ_INT(res, SW_ERR_INDEX_OUT_OF_RANGE);
    const int32_t low[3] = {-1, 0, -2};
    memset(&diag, 0, sizeof diag);
    res = sw_joint_order_parents_first(order, low, 3, scratch, &diag);
    check_failure(res, &diag);
    SW_CHECK_EQ_INT(res, SW_ERR_INDEX_OUT_OF_RANGE);
    const int32_t huge[2] = {-1, 2000000000};
    SW_CHECK_EQ_INT(sw_joint_order_parents_first(order, huge, 2, scratch, NULL), SW_ERR_INDEX_OUT_OF_RANGE);
    /* More joints than int16_t parents can hold: orders are 32-bit, so a
       scene graph of 100000 nodes, a chain listed backwards (deep recursion
       would show here), comes out reversed. */
    enum { MANY = 100000 };
    static int32_t many[MANY];
    static uint32_t many_order[MANY];
    static uint32_t many_scratch[2 * MANY];
    for (int i = 0; i < MANY; i++) many[i] = i == MANY - 1 ? -1 : i + 1;
    SW_CHECK_EQ_INT(sw_joint_order_parents_first(many_order, many, MANY, many_scratch, NULL), SW_OK);
    int wrong = 0;
    for (int k = 0; k < MANY; k++) wrong += many_order[k] != (uint32_t)(MANY - 1 - k);
    SW_CHECK_EQ_INT(wrong, 0);
}

/* ---- local→model: validity -------------------------------------------------- */

static void test_local_to_model_job_validity(void) {
    const int16_t parents[4] = {SW_NO_PARENT, 0, 1, 0};
    const int16_t unordered[4] = {SW_NO_PARENT, 2, 0, 0};
    sw_transform local[4];
    for (int i = 0; i < 4; i++) local[i] = sw_transform_identity();
    sw_mat34 out[4];
    const sw_local_to_model_job good = {parents, 4, local, NULL, 0, out};
    sw_diag diag;
    SW_CHECK_EQ_INT(sw_local_to_model_job_validate(&good, &diag), SW_OK);
    SW_CHECK_EQ_INT(sw_local_to_model_job_validate(&good, NULL), SW_OK);
    sw_local_to_model_job job;

    job = good;
    job.parents = NULL;
    memset(&diag, 0, sizeof diag);
    check_failure(sw_local_to_model_job_validate(&job, &diag), &diag);
    job = good;
    job.local = NULL;
    memset(&diag, 0, sizeof diag);
    check_failure(sw_local_to_model_job_validate(&job, &diag), &diag);
    job = good;
    job.out_model = NULL;
    memset(&diag, 0, sizeof diag);
    check_failure(sw_local_to_model_job_validate(&job, &diag), &diag);
    job = good;
    job.joint_count = 0;
    memset(&diag, 0, sizeof diag);
    check_failure(sw_local_to_model_job_validate(&job, &diag), &diag);
    job = good;
    job.first_joint = 5;
    memset(&diag, 0, sizeof diag);
    check_failure(sw_local_to_model_job_validate(&job, &diag), &diag);
    job = good;
    job.parents = unordered;
    memset(&diag, 0, sizeof diag);
    sw_result res = sw_local_to_model_job_validate(&job, &diag);
    check_failure(res, &diag);
    SW_CHECK_EQ_INT(res, SW_ERR_JOINT_ORDER);

    /* Valid variants: a root matrix, a partial update, nothing left to do. */
    const sw_mat34 root = sw_mat34_translation(sw_vec3_make(1, 2, 3));
    job = good;
    job.root = &root;
    job.first_joint = 2;
    SW_CHECK_EQ_INT(sw_local_to_model_job_validate(&job, NULL), SW_OK);
    job.first_joint = 4;
    SW_CHECK_EQ_INT(sw_local_to_model_job_validate(&job, NULL), SW_OK);
}

/* ---- local→model: numbers ------------------------------------------------------ */

typedef struct d34 { double m[3][4]; } d34;

static d34 d34_mul(const d34* a, const d34* b) {
    d34 out;
    for (int r = 0; r < 3; r++) {
        for (int c = 0; c < 4; c++) {
            double s = c == 3 ? a->m[r][3] : 0.0;
            for (int k = 0; k < 3; k++) s += a->m[r][k] * b->m[k][c];
            out.m[r][c] = s;
        }
    }
    return out;
}

static d34 d34_from(const sw_mat34* a) {
    d34 out;
    for (int r = 0; r < 3; r++) {
        for (int c = 0; c < 4; c++) out.m[r][c] = a->m[r][c];
    }
    return out;
}

static d34 trs_d(const sw_transform* t) {
    const sw_quat q = t->rotation;
    double n = sqrt((double)q.x * q.x + (double)q.y * q.y + (double)q.z * q.z + (double)q.w * q.w);
    double x = q.x / n, y = q.y / n, z = q.z / n, w = q.w / n;
    const double rot[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)},
                              {2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)},
                              {2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)}};
    const double s[3] = {t->scale.x, t->scale.y, t->scale.z};
    const double tr[3] = {t->translation.x, t->translation.y, t->translation.z};
    d34 out;
    for (int r = 0; r < 3; r++) {
        for (int c = 0; c < 3; c++) out.m[r][c] = rot[r][c] * s[c];
        out.m[r][3] = tr[r];
    }
    return out;
}

/* model(i) = model(parent)·TRS(i), recursively, roots under `root`. */
static d34 model_ref(int i, const int16_t* parents, const sw_transform* local, const d34* root) {
    d34 l = trs_d(&local[i]);
    if (parents[i] == SW_NO_PARENT) return d34_mul(root, &l);
    d34 p = model_ref(parents[i], parents, local, root);
    return d34_mul(&p, &l);
}

/* |got − ref| ≤ tol·max(1, max|ref|) per matrix. */
static int mat_close(const sw_mat34* got, const d34* ref, double tol) {
    double mag = 1.0;
    for (int r = 0; r < 3; r++) {
        for (int c = 0; c < 4; c++) mag = fmax(mag, fabs(ref->m[r][c]));
    }
    for (int r = 0; r < 3; r++) {
        for (int c = 0; c < 4; c++) {
            if (!(fabs(got->m[r][c] - ref->m[r][c]) <= tol * mag)) {
                fprintf(stderr, "  m[%d][%d] = %.9g, reference %.9g\n", r, c, got->m[r][c], ref->m[r][c]);
                return 0;
            }
        }
    }
    return 1;
}

static void test_local_to_model_chain_vs_double(void) {
    enum { N = 24 };
    rng r = {0x12A1};
    for (int iter = 0; iter < 20; iter++) {
        int16_t parents[N];
        sw_transform local[N];
        for (int i = 0; i < N; i++) {
            parents[i] = (int16_t)(i - 1); /* a chain: every joint's error feeds the next */
            local[i] = rng_transform(&r, 1, 0.7, 1.4);
        }
        sw_mat34 out[N];
        sw_local_to_model_job job = {parents, N, local, NULL, 0, out};
        SW_CHECK_EQ_INT(sw_local_to_model_job_validate(&job, NULL), SW_OK);
        sw_local_to_model_job_run(&job);
        const d34 id = {{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}}};
        int bad = 0;
        for (int i = 0; i < N; i++) {
            d34 ref = model_ref(i, parents, local, &id);
            bad += !mat_close(&out[i], &ref, 1e-5);
        }
        SW_CHECK_EQ_INT(bad, 0);
    }
}

/* The job's inline (SIMD) kernels compute exactly what the math.h
   functions compute: model[i] = sw_mat34_mul(model[parent],
   sw_transform_to_mat34(local[i])), equal as numbers (a −0 may come out as
   +0), with and without a root, on random trees with non-uniform scales. */
static void test_local_to_model_equals_matrix_products(void) {
    enum { N = 53 };
    rng r = {0x12A4};
    for (int iter = 0; iter < 200; iter++) {
        int16_t parents[N];
        sw_transform local[N];
        for (int i = 0; i < N; i++) {
            parents[i] = (i == 0 || rng_below(&r, 8) == 0) ? SW_NO_PARENT : (int16_t)rng_below(&r, (uint32_t)i);
            local[i] = rng_transform(&r, 3, 0.2, 3.0);
            if (iter % 4 == 0) local[i].rotation = sw_quat_identity(); /* zeros in the matrix */
        }
        sw_transform root_t = rng_transform(&r, 5, 0.5, 2.0);
        const sw_mat34 root = sw_transform_to_mat34(&root_t);
        const sw_mat34* roots[2] = {NULL, &root};
        for (int k = 0; k < 2; k++) {
            sw_mat34 out[N], ref[N];
            sw_local_to_model_job job = {parents, N, local, roots[k], 0, out};
            SW_CHECK_EQ_INT(sw_local_to_model_job_validate(&job, NULL), SW_OK);
            sw_local_to_model_job_run(&job);
            const sw_mat34 id = sw_mat34_identity();
            int differ = 0;
            for (int i = 0; i < N; i++) {
                sw_mat34 l = sw_transform_to_mat34(&local[i]);
                ref[i] = sw_mat34_mul(parents[i] >= 0 ? &ref[parents[i]] : roots[k] ? roots[k] : &id, &l);
                for (int e = 0; e < 12; e++) differ += out[i].m[e / 4][e % 4] != ref[i].m[e / 4][e % 4];
            }
            SW_CHECK_EQ_INT(differ, 0);
        }
    }
}

static void test_local_to_model_tree_with_root(void) {
    enum { N = 64 };
    rng r = {0x12A2};
    for (int iter = 0; iter < 20; iter++) {
        int16_t parents[N];
        sw_transform local[N];
        for (int i = 0; i < N; i++) {
            parents[i] = (i == 0 || rng_below(&r, 10) == 0) ? SW_NO_PARENT : (int16_t)rng_below(&r, (uint32_t)i);
            local[i] = rng_transform(&r, 1, 0.5, 2.0);
        }
        sw_transform root_t = rng_transform(&r, 1, 0.5, 2.0);
        root_t.translation = rng_vec3(&r, -10, 10);
        sw_mat34 root = sw_transform_to_mat34(&root_t);
        d34 root_d = d34_from(&root);
        sw_mat34 out[N];
        sw_local_to_model_job job = {parents, N, local, &root, 0, out};
        SW_CHECK_EQ_INT(sw_local_to_model_job_validate(&job, NULL), SW_OK);
        sw_local_to_model_job_run(&job);
        int bad = 0;
        for (int i = 0; i < N; i++) {
            d34 ref = model_ref(i, parents, local, &root_d);
            bad += !mat_close(&out[i], &ref, 1e-5);
        }
        SW_CHECK_EQ_INT(bad, 0);
    }
    /* Hand case: root T(0,0,5), joint 0 T(1,0,0), joint 1 (child) S(2,2,2): model[1] = T(1,0,5)·S(2). */
    const int16_t parents[2] = {SW_NO_PARENT, 0};
    const sw_transform local[2] = {{{1, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}}, {{0, 0, 0}, {0, 0, 0, 1}, {2, 2, 2}}};
    const sw_mat34 root = sw_mat34_translation(sw_vec3_make(0, 0, 5));
    sw_mat34 out[2];
    sw_local_to_model_job job = {parents, 2, local, &root, 0, out};
    sw_local_to_model_job_run(&job);
    const d34 e1 = {{{2, 0, 0, 1}, {0, 2, 0, 0}, {0, 0, 2, 5}}};
    SW_CHECK(mat_close(&out[1], &e1, 1e-7));
}

/* first_joint = k: joints before k are read from out_model as left there (even
   if local changed) and never written; joints from k on use those values. */
static void test_local_to_model_partial_update(void) {
    enum { N = 40, K = 15 };
    rng r = {0x12A3};
    for (int iter = 0; iter < 10; iter++) {
        int16_t parents[N];
        sw_transform local[N];
        for (int i = 0; i < N; i++) {
            parents[i] = i == 0 ? SW_NO_PARENT : (int16_t)rng_below(&r, (uint32_t)(i < K ? i : K)); /* tail hangs off the head */
            local[i] = rng_transform(&r, 1, 0.5, 2.0);
        }
        sw_mat34 out[N];
        /* Head: arbitrary affine "sentinel" matrices the job must neither
           overwrite nor recompute; tail: garbage to be overwritten. */
        for (int i = 0; i < K; i++) {
            sw_transform t = rng_transform(&r, 1, 0.5, 2.0);
            out[i] = sw_transform_to_mat34(&t);
        }
        for (int i = K; i < N; i++) memset(&out[i], 0xFF, sizeof out[i]);
        sw_mat34 head[K];
        memcpy(head, out, sizeof head);
        sw_local_to_model_job job = {parents, N, local, NULL, K, out};
        SW_CHECK_EQ_INT(sw_local_to_model_job_validate(&job, NULL), SW_OK);
        sw_local_to_model_job_run(&job);
        SW_CHECK(memcmp(head, out, sizeof head) == 0);
        int bad = 0;
        for (int i = K; i < N; i++) {
            /* Reference from the head as stored: model(i) = model(p)·TRS(i). */
            d34 chain[N];
            for (int j = 0; j < K; j++) chain[j] = d34_from(&head[j]);
            for (int j = K; j <= i; j++) {
                d34 l = trs_d(&local[j]);
                chain[j] = d34_mul(&chain[parents[j]], &l);
            }
            bad += !mat_close(&out[i], &chain[i], 1e-5);
        }
        SW_CHECK_EQ_INT(bad, 0);
    }
    /* first_joint == joint_count writes nothing. */
    const int16_t parents[2] = {SW_NO_PARENT, 0};
    const sw_transform local[2] = {{{1, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}}, {{1, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}}};
    sw_mat34 out[2], before[2];
    memset(out, 0x5A, sizeof out);
    memcpy(before, out, sizeof out);
    sw_local_to_model_job job = {parents, 2, local, NULL, 2, out};
    SW_CHECK_EQ_INT(sw_local_to_model_job_validate(&job, NULL), SW_OK);
    sw_local_to_model_job_run(&job);
    SW_CHECK(memcmp(before, out, sizeof out) == 0);
}

int main(void) {
    SW_RUN(test_skeleton_validate_accepts_valid);
    SW_RUN(test_skeleton_validate_rejects);
    SW_RUN(test_joint_order_random_trees);
    SW_RUN(test_joint_order_hand_cases);
    SW_RUN(test_joint_order_rejects);
    SW_RUN(test_local_to_model_job_validity);
    SW_RUN(test_local_to_model_chain_vs_double);
    SW_RUN(test_local_to_model_equals_matrix_products);
    SW_RUN(test_local_to_model_tree_with_root);
    SW_RUN(test_local_to_model_partial_update);
    return sw_test_finish();
}
