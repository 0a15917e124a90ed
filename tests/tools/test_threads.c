/* The tools' thread pool and the skinning job split across it: every task
   runs exactly once, and skinned vertices are bit-identical for any thread
   count, any task size and every kernel this CPU runs. */
#include "harness.h"
#include "test_random.h"
#include "thread_pool.h"

#include "sinew/skin.h"

#include <stdatomic.h>
#include <string.h>

typedef struct count_context {
    atomic_int* runs;
    atomic_int max_thread;
} count_context;

static void count_task(void* context, size_t index, int thread) {
    count_context* c = context;
    atomic_fetch_add(&c->runs[index], 1);
    int seen = atomic_load(&c->max_thread);
    while (thread > seen && !atomic_compare_exchange_weak(&c->max_thread, &seen, thread)) {
    }
}

static void test_every_task_runs_once(void) {
    enum { TASKS = 1000 };
    static atomic_int runs[TASKS];
    const int thread_counts[] = {1, 2, 3, 8};
    for (size_t t = 0; t < sizeof thread_counts / sizeof thread_counts[0]; ++t) {
        tool_error err;
        thread_pool* pool = thread_pool_create(thread_counts[t], &err);
        SW_CHECK(pool != NULL);
        if (!pool) return;
        for (int round = 0; round < 20; ++round) {
            for (int i = 0; i < TASKS; ++i) atomic_store(&runs[i], 0);
            count_context c = {runs, 0};
            thread_pool_run(pool, (size_t)(round * 50), count_task, &c); /* 0 tasks in round 0 */
            for (int i = 0; i < TASKS; ++i) SW_CHECK_EQ_INT(atomic_load(&runs[i]), i < round * 50 ? 1 : 0);
            SW_CHECK(atomic_load(&c.max_thread) < thread_counts[t]);
        }
        thread_pool_destroy(pool);
    }
    tool_error err;
    SW_CHECK(thread_pool_create(0, &err) == NULL);
    SW_CHECK(strstr(err.message, "thread count") != NULL);
}

typedef struct split_context {
    const sw_skin_job* job;
    size_t chunk;
} split_context;

static void skin_task(void* context, size_t index, int thread) {
    (void)thread;
    const split_context* s = context;
    size_t first = index * s->chunk;
    size_t count = s->job->vertex_count - first < s->chunk ? s->job->vertex_count - first : s->chunk;
    sw_skin_job_run(s->job, first, count);
}

/* A random skinned mesh: 4 influences, u16 joints, f32 weights summing to 1. */
typedef struct mesh {
    size_t vertices, joints;
    float *pos, *nrm, *tan, *weights;
    uint16_t* joint_index;
    sw_mat34* palette;
    sw_dualquat* dq;
} mesh;

static mesh make_mesh(size_t vertices, size_t joints, uint64_t seed) {
    rng r = {seed};
    mesh m = {vertices, joints, malloc(vertices * 12), malloc(vertices * 12), malloc(vertices * 16),
              malloc(vertices * 16), malloc(vertices * 8), malloc(joints * sizeof(sw_mat34)),
              malloc(joints * sizeof(sw_dualquat))};
    for (size_t j = 0; j < joints; ++j) {
        sw_transform t = rng_transform(&r, 2.0, 1.0, 1.0);
        m.palette[j] = sw_transform_to_mat34(&t);
    }
    sw_skin_dual_quats(m.dq, NULL, m.palette, joints);
    for (size_t v = 0; v < vertices; ++v) {
        sw_vec3 n = sw_vec3_normalize(rng_vec3(&r, -1, 1));
        float sum = 0;
        for (int c = 0; c < 3; ++c) m.pos[3 * v + c] = rng_range(&r, -1, 1);
        m.nrm[3 * v] = n.x, m.nrm[3 * v + 1] = n.y, m.nrm[3 * v + 2] = n.z;
        m.tan[4 * v] = -n.y, m.tan[4 * v + 1] = n.x, m.tan[4 * v + 2] = 0, m.tan[4 * v + 3] = 1;
        for (int k = 0; k < 4; ++k) {
            m.joint_index[4 * v + k] = (uint16_t)rng_below(&r, (uint32_t)joints);
            m.weights[4 * v + k] = rng_range(&r, 0, 1);
            sum += m.weights[4 * v + k];
        }
        for (int k = 0; k < 4; ++k) m.weights[4 * v + k] /= sum;
    }
    return m;
}

static void free_mesh(mesh* m) {
    free(m->pos), free(m->nrm), free(m->tan), free(m->weights), free(m->joint_index), free(m->palette), free(m->dq);
}

static void test_skinning_bit_exact_for_any_split(void) {
    enum { V = 20011 }; /* prime: chunks never divide it evenly */
    mesh m = make_mesh(V, 40, 11);
    float* ref = malloc(V * 40);
    float* out = malloc(V * 40);
    const sw_skin_kernel kernels[] = {SW_SKIN_KERNEL_SCALAR, SW_SKIN_KERNEL_SSE2, SW_SKIN_KERNEL_AVX2};
    const sw_skin_method methods[] = {SW_SKIN_LBS, SW_SKIN_DQS};
    const int thread_counts[] = {2, 3, 5};
    const size_t chunks[] = {1, 17, 1000, 4096};
    for (size_t k = 0; k < 3; ++k) {
        for (size_t mth = 0; mth < 2; ++mth) {
            sw_skin_job job = {.method = methods[mth], .kernel = kernels[k], .vertex_count = V, .influence_count = 4,
                               .joint_count = m.joints, .matrices = m.palette, .dual_quats = m.dq,
                               .joints = m.joint_index, .weights = m.weights, .in_positions = m.pos,
                               .out_positions = ref, .in_normals = m.nrm, .out_normals = ref + 3 * V,
                               .in_tangents = m.tan, .out_tangents = ref + 6 * V};
            sw_diag diag;
            if (sw_skin_job_validate(&job, &diag) != SW_OK) {
                fprintf(stderr, "  kernel %s not run here: %s\n", sw_skin_kernel_name(kernels[k]), diag.message);
                continue;
            }
            memset(ref, 0xAB, V * 40);
            sw_skin_job_run(&job, 0, V); /* one thread, one range */
            for (size_t t = 0; t < 3; ++t) {
                tool_error err;
                thread_pool* pool = thread_pool_create(thread_counts[t], &err);
                for (size_t c = 0; c < 4; ++c) {
                    sw_skin_job split = job;
                    split.out_positions = out, split.out_normals = out + 3 * V, split.out_tangents = out + 6 * V;
                    memset(out, 0xCD, V * 40);
                    split_context ctx = {&split, chunks[c]};
                    thread_pool_run(pool, (V + chunks[c] - 1) / chunks[c], skin_task, &ctx);
                    SW_CHECK(memcmp(ref, out, V * 40) == 0);
                }
                thread_pool_destroy(pool);
            }
        }
    }
    free(ref), free(out);
    free_mesh(&m);
}

int main(void) {
    SW_RUN(test_every_task_runs_once);
    SW_RUN(test_skinning_bit_exact_for_any_split);
    return sw_test_finish();
}
