/* A fork-join thread pool on pthreads (see thread_pool.h): workers sleep on
   a condition variable between runs and take task indices from one atomic
   counter during a run. */
#define _GNU_SOURCE
#include "thread_pool.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct worker {
    thread_pool* pool;
    int index;
    pthread_t thread;
} worker;

struct thread_pool {
    int thread_count;
    worker* workers;
    pthread_mutex_t lock;
    pthread_cond_t wake, done;
    /* The current run, published under `lock`. */
    unsigned long generation;
    bool quit;
    size_t task_count;
    thread_pool_task_fn fn;
    void* context;
    atomic_size_t next_task;
    int busy; /* workers still in the current run */
};

/* Takes tasks until none are left. */
static void drain(thread_pool* pool, int thread) {
    for (;;) {
        size_t i = atomic_fetch_add_explicit(&pool->next_task, 1, memory_order_relaxed);
        if (i >= pool->task_count) return;
        pool->fn(pool->context, i, thread);
    }
}

static void* worker_main(void* arg) {
    worker* w = arg;
    thread_pool* pool = w->pool;
    unsigned long seen = 0;
    pthread_mutex_lock(&pool->lock);
    for (;;) {
        while (!pool->quit && pool->generation == seen) pthread_cond_wait(&pool->wake, &pool->lock);
        if (pool->quit) break;
        seen = pool->generation;
        pthread_mutex_unlock(&pool->lock);
        drain(pool, w->index);
        pthread_mutex_lock(&pool->lock);
        if (--pool->busy == 0) pthread_cond_signal(&pool->done);
    }
    pthread_mutex_unlock(&pool->lock);
    return NULL;
}

thread_pool* thread_pool_create(int thread_count, tool_error* err) {
    if (thread_count < 1 || thread_count > THREAD_POOL_MAX_THREADS) {
        tool_error_set(err, "thread count %d is outside 1..%d", thread_count, THREAD_POOL_MAX_THREADS);
        return NULL;
    }
    thread_pool* pool = calloc(1, sizeof *pool);
    worker* workers = calloc((size_t)thread_count, sizeof *workers);
    if (!pool || !workers) {
        free(pool), free(workers);
        tool_error_set(err, "out of memory for a pool of %d threads", thread_count);
        return NULL;
    }
    pool->thread_count = thread_count;
    pool->workers = workers;
    pthread_mutex_init(&pool->lock, NULL);
    pthread_cond_init(&pool->wake, NULL);
    pthread_cond_init(&pool->done, NULL);
    atomic_init(&pool->next_task, 0);
    for (int i = 1; i < thread_count; ++i) {
        workers[i].pool = pool;
        workers[i].index = i;
        int rc = pthread_create(&workers[i].thread, NULL, worker_main, &workers[i]);
        if (rc != 0) {
            tool_error_set(err, "cannot start thread %d of %d: %s", i, thread_count, strerror(rc));
            pool->thread_count = i; /* destroy joins the ones that started */
            thread_pool_destroy(pool);
            return NULL;
        }
    }
    return pool;
}

int thread_pool_thread_count(const thread_pool* pool) { return pool->thread_count; }

void thread_pool_run(thread_pool* pool, size_t task_count, thread_pool_task_fn fn, void* context) {
    if (task_count == 0) return;
    pthread_mutex_lock(&pool->lock);
    pool->task_count = task_count;
    pool->fn = fn;
    pool->context = context;
    atomic_store_explicit(&pool->next_task, 0, memory_order_relaxed);
    pool->busy = pool->thread_count - 1;
    pool->generation++;
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->lock);

    drain(pool, 0); /* the caller works too */

    pthread_mutex_lock(&pool->lock);
    while (pool->busy > 0) pthread_cond_wait(&pool->done, &pool->lock);
    pthread_mutex_unlock(&pool->lock);
}

void thread_pool_destroy(thread_pool* pool) {
    if (!pool) return;
    pthread_mutex_lock(&pool->lock);
    pool->quit = true;
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->lock);
    for (int i = 1; i < pool->thread_count; ++i) pthread_join(pool->workers[i].thread, NULL);
    pthread_cond_destroy(&pool->wake);
    pthread_cond_destroy(&pool->done);
    pthread_mutex_destroy(&pool->lock);
    free(pool->workers);
    free(pool);
}

int thread_pool_cpu_count(void) {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        int n = CPU_COUNT(&set);
        if (n > 0) return n;
    }
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}
