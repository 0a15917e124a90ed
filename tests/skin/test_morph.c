/* Morph target job: hand-computed sums, strides, tangent w, in place,
   validation. */
#include "harness.h"
#include "test_random.h"

#include "sinew/skin.h"

#include <string.h>

/* Two vertices, two targets:
   base (1,2,3), (4,5,6); Δ0 = (1,0,0),(0,1,0); Δ1 = (0,0,2),(2,0,0);
   weights 0.5, 0.25 → (1.5, 2, 3.5), (4.5, 5.5, 6). */
static void test_hand_sum(void) {
    const float base[6] = {1, 2, 3, 4, 5, 6};
    const float d0[6] = {1, 0, 0, 0, 1, 0};
    const float d1[6] = {0, 0, 2, 2, 0, 0};
    const float* deltas[2] = {d0, d1};
    const float weights[2] = {0.5f, 0.25f};
    float out[6];
    sw_morph_job job = {.vertex_count = 2, .target_count = 2, .weights = weights, .deltas = deltas,
                        .base = base, .out = out};
    SW_CHECK_EQ_INT(sw_morph_job_validate(&job, NULL), SW_OK);
    sw_morph_job_run(&job, 0, 2);
    const float expected[6] = {1.5f, 2, 3.5f, 4.5f, 5.5f, 6};
    for (int i = 0; i < 6; ++i) SW_CHECK_NEAR(out[i], expected[i], 0);
}

/* Tangents: xyz morphed, w copied; strided (interleaved) base and output;
   a NULL target and a zero weight change nothing. */
static void test_tangents_strided(void) {
    float base[2][6] = {{1, 0, 0, -1, 9, 9}, {0, 1, 0, 1, 9, 9}}; /* stride 24 bytes */
    const float d0[6] = {0, 1, 0, 0, 0, 1};
    const float d2[6] = {100, 100, 100, 100, 100, 100};
    const float* deltas[3] = {d0, NULL, d2};
    const float weights[3] = {1.0f, 7.0f, 0.0f};
    float out[2][5];
    memset(out, 0, sizeof out);
    sw_morph_job job = {.vertex_count = 2, .target_count = 3, .weights = weights, .deltas = deltas,
                        .component_count = 4, .base = &base[0][0], .base_stride = 24,
                        .out = &out[0][0], .out_stride = 20};
    SW_CHECK_EQ_INT(sw_morph_job_validate(&job, NULL), SW_OK);
    sw_morph_job_run(&job, 0, 2);
    SW_CHECK(out[0][0] == 1 && out[0][1] == 1 && out[0][2] == 0 && out[0][3] == -1 && out[0][4] == 0);
    SW_CHECK(out[1][0] == 0 && out[1][1] == 1 && out[1][2] == 1 && out[1][3] == 1 && out[1][4] == 0);
}

/* In place over sub-ranges equals one whole out-of-place run. */
static void test_in_place_ranges(void) {
    rng r = {7};
    enum { N = 101, T = 5 };
    float base[N * 3], work[N * 3], ref[N * 3], d[T][N * 3], w[T];
    const float* deltas[T];
    for (int i = 0; i < N * 3; ++i) base[i] = work[i] = rng_range(&r, -1, 1);
    for (int k = 0; k < T; ++k) {
        for (int i = 0; i < N * 3; ++i) d[k][i] = rng_range(&r, -1, 1);
        deltas[k] = d[k];
        w[k] = rng_range(&r, -1, 1);
    }
    sw_morph_job job = {.vertex_count = N, .target_count = T, .weights = w, .deltas = deltas, .base = base, .out = ref};
    SW_CHECK_EQ_INT(sw_morph_job_validate(&job, NULL), SW_OK);
    sw_morph_job_run(&job, 0, N);
    job.base = work, job.out = work;
    SW_CHECK_EQ_INT(sw_morph_job_validate(&job, NULL), SW_OK);
    sw_morph_job_run(&job, 0, 40);
    sw_morph_job_run(&job, 40, 61);
    for (int i = 0; i < N * 3; ++i) SW_CHECK(work[i] == ref[i]);
    /* And each value is base + Σ w·Δ, summed in double here. */
    for (int i = 0; i < N * 3; ++i) {
        double s = base[i];
        for (int k = 0; k < T; ++k) s += (double)w[k] * d[k][i];
        SW_CHECK_NEAR(ref[i], s, 1e-5);
    }
}

static void test_validation(void) {
    float base[3] = {0}, out[3];
    float nan_weight[1] = {NAN};
    const float* deltas[1] = {base};
    sw_diag diag;
    sw_morph_job job = {.vertex_count = 1, .base = base, .out = out};
    SW_CHECK_EQ_INT(sw_morph_job_validate(&job, NULL), SW_OK); /* no targets: a copy */
    job.component_count = 2;
    SW_CHECK_EQ_INT(sw_morph_job_validate(&job, &diag), SW_ERR_INVALID_ARGUMENT);
    job.component_count = 3, job.target_count = 1;
    SW_CHECK_EQ_INT(sw_morph_job_validate(&job, &diag), SW_ERR_INVALID_ARGUMENT); /* no weights */
    job.weights = nan_weight, job.deltas = deltas;
    SW_CHECK_EQ_INT(sw_morph_job_validate(&job, &diag), SW_ERR_INVALID_DATA);
    job.target_count = 0, job.base_stride = 8;
    SW_CHECK_EQ_INT(sw_morph_job_validate(&job, &diag), SW_ERR_INVALID_ARGUMENT); /* stride < element */
    job.base_stride = 16, job.out = base;
    SW_CHECK_EQ_INT(sw_morph_job_validate(&job, &diag), SW_ERR_INVALID_ARGUMENT); /* in place, unequal strides */
}

/* Sparse targets (built from dense ones) give the same floats as the dense
   job, over any split of the vertex range. */
static void test_sparse_equals_dense(void) {
    rng r = {23};
    enum { N = 997, T = 4 };
    static float base[N * 3], dense[T][N * 3], sparse_deltas[T][N * 3], ref[N * 3], out[N * 3];
    static uint32_t indices[T][N];
    const float* deltas[T];
    sw_morph_sparse sparse[T];
    float w[T] = {0.7f, 0.0f, -0.3f, 1.5f};
    for (int i = 0; i < N * 3; ++i) base[i] = rng_range(&r, 0.5, 1.5); /* no zeros: see the header */
    for (int k = 0; k < T; ++k) {
        for (int v = 0; v < N; ++v) {
            bool moved = rng_unit(&r) < 0.1; /* a face shape moves a few vertices */
            for (int c = 0; c < 3; ++c) dense[k][3 * v + c] = moved ? rng_range(&r, -1, 1) : 0.0f;
        }
        deltas[k] = dense[k];
        size_t count = sw_morph_sparse_count(dense[k], N);
        SW_CHECK_EQ_INT(sw_morph_sparse_build(indices[k], sparse_deltas[k], dense[k], N), count);
        SW_CHECK(count > 50 && count < 160);
        sparse[k] = (sw_morph_sparse){count, indices[k], sparse_deltas[k]};
    }
    sw_morph_job job = {.vertex_count = N, .target_count = T, .weights = w, .deltas = deltas, .base = base, .out = ref};
    SW_CHECK_EQ_INT(sw_morph_job_validate(&job, NULL), SW_OK);
    sw_morph_job_run(&job, 0, N);
    job.deltas = NULL, job.sparse = sparse, job.out = out;
    SW_CHECK_EQ_INT(sw_morph_job_validate(&job, NULL), SW_OK);
    for (int trial = 0; trial < 20; ++trial) {
        memset(out, 0, sizeof out);
        size_t first = 0;
        while (first < N) {
            size_t count = 1 + rng_below(&r, 200);
            if (count > N - first) count = N - first;
            sw_morph_job_run(&job, first, count);
            first += count;
        }
        SW_CHECK(memcmp(out, ref, sizeof out) == 0);
    }
    /* Broken sparse data is caught by validation, not read. */
    uint32_t unsorted[2] = {5, 3}, outside[1] = {N};
    float d[6] = {0};
    sw_morph_sparse bad[T] = {{2, unsorted, d}, {0, NULL, NULL}, {0, NULL, NULL}, {0, NULL, NULL}};
    job.sparse = bad;
    sw_diag diag;
    SW_CHECK_EQ_INT(sw_morph_job_validate(&job, &diag), SW_ERR_INVALID_DATA);
    bad[0] = (sw_morph_sparse){1, outside, d};
    SW_CHECK_EQ_INT(sw_morph_job_validate(&job, &diag), SW_ERR_INVALID_DATA);
}

int main(void) {
    SW_RUN(test_sparse_equals_dense);
    SW_RUN(test_hand_sum);
    SW_RUN(test_tangents_strided);
    SW_RUN(test_in_place_ranges);
    SW_RUN(test_validation);
    return sw_test_finish();
}
