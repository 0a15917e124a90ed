/* A fork-join thread pool on pthreads (see thread_pool.h).

   A run splits the task indices into one contiguous slice per thread. Each
   thread takes the tasks of its own slice first, then helps with the
   others' slices (one atomic counter per slice), so the work still
   balances when a thread is slow, while a run repeated over the same data
   finds most of each thread's data in that thread's own caches (handing
   tasks to whichever thread asks first moves the data between cores on
   every repetition). Which thread runs a task never changes what it
   computes.

   Between runs the workers spin on the run counter for a while, so a run
   that follows another within microseconds (a benchmark, a frame's next
   job) starts without a wake-up; after that they sleep on a condition
   variable. The caller waits for the last worker the same way. How long
   each thread spins adapts to how its recent waits ended (below). */
#define _GNU_SOURCE
#include "thread_pool.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* How long a waiting thread spins before it sleeps, adapted per thread:
   a condition variable wake-up costs about 20 µs on a virtual machine (a
   run's round trip, two wake-ups, measured 45 µs on the 2-vCPU build
   machine, 0.1 µs spinning), but spinning while the thread we wait for
   has lost its core to another process only burns time. So the budget
   doubles after a wait that spinning ended (up to SPIN_MAX_NS) and drops
   to a quarter after one that had to sleep (down to SPIN_MIN_NS). */
#define SPIN_MAX_NS 200000L
#define SPIN_MIN_NS 2000L

enum { CACHE_LINE = 64 };

typedef struct worker {
    thread_pool* pool;
    int index;
    long spin_ns; /* this thread's current spin budget */
    pthread_t thread;
} worker;

/* One thread's share of a run's task indices, alone on its cache line. */
typedef struct slice {
    _Alignas(CACHE_LINE) atomic_size_t next;
    size_t end;
} slice;

struct thread_pool {
    int thread_count;
    worker* workers;
    slice* slices;
    /* The current run: written by the caller before it bumps `generation`. */
    size_t task_count;
    thread_pool_task_fn fn;
    void* context;
    /* Each on its own line: workers poll `generation`, the caller polls `pending`. */
    _Alignas(CACHE_LINE) atomic_ulong generation;
    _Alignas(CACHE_LINE) atomic_int pending; /* workers not done with the current run */
    _Alignas(CACHE_LINE) atomic_int sleepers; /* workers asleep (or about to sleep) on `wake` */
    atomic_int caller_sleeping;               /* the caller asleep (or about to sleep) on `done` */
    atomic_bool quit;
    pthread_mutex_t lock;
    pthread_cond_t wake, done;
};

static void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

static long long monotonic_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Spins until `done_fn(pool, arg)` or *budget nanoseconds have passed;
   returns whether it became true, and adapts the budget. */
static bool spin_until(bool (*done_fn)(thread_pool*, unsigned long), thread_pool* pool, unsigned long arg,
                       long* budget) {
    long long start = 0;
    for (unsigned i = 0;; i++) {
        if (done_fn(pool, arg)) {
            *budget = *budget < SPIN_MAX_NS / 2 ? 2 * *budget : SPIN_MAX_NS;
            return true;
        }
        if ((i & 255) == 0) {
            long long t = monotonic_ns();
            if (i == 0) {
                start = t;
            } else if (t - start > *budget) {
                *budget = *budget / 4 > SPIN_MIN_NS ? *budget / 4 : SPIN_MIN_NS;
                return false;
            }
        }
        cpu_relax();
    }
}

static bool new_run(thread_pool* pool, unsigned long seen) {
    return atomic_load(&pool->generation) != seen || atomic_load(&pool->quit);
}

static bool run_finished(thread_pool* pool, unsigned long unused) {
    (void)unused;
    return atomic_load_explicit(&pool->pending, memory_order_acquire) == 0;
}

/* Runs the tasks of the thread's own slice, then whatever is left of the others'. */
static void drain(thread_pool* pool, int thread) {
    const int n = pool->thread_count;
    for (int k = 0; k < n; k++) {
        slice* s = &pool->slices[(thread + k) % n];
        for (;;) {
            size_t i = atomic_fetch_add_explicit(&s->next, 1, memory_order_relaxed);
            if (i >= s->end) break;
            pool->fn(pool->context, i, thread);
        }
    }
}

static void* worker_main(void* arg) {
    worker* w = arg;
    thread_pool* pool = w->pool;
    unsigned long seen = 0;
    for (;;) {
        if (!spin_until(new_run, pool, seen, &w->spin_ns)) {
            pthread_mutex_lock(&pool->lock);
            /* sleepers before generation, as the caller bumps generation
               before it reads sleepers: one of the two sees the other. */
            atomic_fetch_add(&pool->sleepers, 1);
            while (!new_run(pool, seen)) pthread_cond_wait(&pool->wake, &pool->lock);
            atomic_fetch_sub(&pool->sleepers, 1);
            pthread_mutex_unlock(&pool->lock);
        }
        if (atomic_load(&pool->quit)) break;
        seen = atomic_load_explicit(&pool->generation, memory_order_acquire);
        drain(pool, w->index);
        if (atomic_fetch_sub(&pool->pending, 1) == 1 && atomic_load(&pool->caller_sleeping)) {
            pthread_mutex_lock(&pool->lock);
            pthread_cond_signal(&pool->done);
            pthread_mutex_unlock(&pool->lock);
        }
    }
    return NULL;
}

thread_pool* thread_pool_create(int thread_count, tool_error* err) {
    if (thread_count < 1 || thread_count > THREAD_POOL_MAX_THREADS) {
        tool_error_set(err, "thread count %d is outside 1..%d", thread_count, THREAD_POOL_MAX_THREADS);
        return NULL;
    }
    /* Both cache-line aligned (sizes multiples of the line, as aligned_alloc wants). */
    const size_t pool_size = (sizeof(thread_pool) + CACHE_LINE - 1) / CACHE_LINE * CACHE_LINE;
    thread_pool* pool = aligned_alloc(CACHE_LINE, pool_size);
    slice* slices = aligned_alloc(CACHE_LINE, (size_t)thread_count * sizeof(slice));
    worker* workers = calloc((size_t)thread_count, sizeof *workers);
    if (!pool || !workers || !slices) {
        free(pool), free(workers), free(slices);
        tool_error_set(err, "out of memory for a pool of %d threads", thread_count);
        return NULL;
    }
    memset(pool, 0, pool_size);
    memset(slices, 0, (size_t)thread_count * sizeof(slice));
    pool->thread_count = thread_count;
    pool->workers = workers;
    pool->slices = slices;
    for (int i = 0; i < thread_count; ++i) atomic_init(&pool->slices[i].next, 0);
    atomic_init(&pool->generation, 0);
    atomic_init(&pool->pending, 0);
    atomic_init(&pool->sleepers, 0);
    atomic_init(&pool->caller_sleeping, 0);
    atomic_init(&pool->quit, false);
    pthread_mutex_init(&pool->lock, NULL);
    pthread_cond_init(&pool->wake, NULL);
    pthread_cond_init(&pool->done, NULL);
    for (int i = 0; i < thread_count; ++i) workers[i].spin_ns = SPIN_MAX_NS / 4; /* [0]: the caller's */
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
    const int n = pool->thread_count;
    pool->task_count = task_count;
    pool->fn = fn;
    pool->context = context;
    for (int t = 0; t < n; t++) {
        /* Contiguous slices, as equal as the count allows. */
        atomic_store_explicit(&pool->slices[t].next, task_count * (size_t)t / (size_t)n, memory_order_relaxed);
        pool->slices[t].end = task_count * (size_t)(t + 1) / (size_t)n;
    }
    if (n == 1) {
        drain(pool, 0);
        return;
    }
    atomic_store_explicit(&pool->pending, n - 1, memory_order_relaxed);
    /* Publishes everything above to the workers (sequentially consistent:
       ordered before the read of sleepers below). */
    atomic_fetch_add(&pool->generation, 1);
    if (atomic_load(&pool->sleepers) > 0) {
        pthread_mutex_lock(&pool->lock);
        pthread_cond_broadcast(&pool->wake);
        pthread_mutex_unlock(&pool->lock);
    }

    drain(pool, 0); /* the caller works too */

    if (!spin_until(run_finished, pool, 0, &pool->workers[0].spin_ns)) {
        pthread_mutex_lock(&pool->lock);
        atomic_store(&pool->caller_sleeping, 1);
        while (atomic_load(&pool->pending) != 0) pthread_cond_wait(&pool->done, &pool->lock);
        atomic_store(&pool->caller_sleeping, 0);
        pthread_mutex_unlock(&pool->lock);
    }
}

void thread_pool_destroy(thread_pool* pool) {
    if (!pool) return;
    pthread_mutex_lock(&pool->lock);
    atomic_store(&pool->quit, true);
    atomic_fetch_add(&pool->generation, 1);
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->lock);
    for (int i = 1; i < pool->thread_count; ++i) pthread_join(pool->workers[i].thread, NULL);
    pthread_cond_destroy(&pool->wake);
    pthread_cond_destroy(&pool->done);
    pthread_mutex_destroy(&pool->lock);
    free(pool->workers);
    free(pool->slices);
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
