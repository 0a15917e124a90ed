/* tools/thread_pool.h — the small thread pool the tools own (the library
   owns no threads: its jobs run on any range, and callers split them).

     thread_pool* pool = thread_pool_create(4, &err);   // 4 threads in all, the caller included
     thread_pool_run(pool, task_count, run_task, context);   // run_task(context, i, thread) for i < task_count
     thread_pool_destroy(pool);

   thread_pool_run returns when every task has run. Each thread starts on
   its own contiguous slice of the task indices (the same slice when a run
   with the same task count is repeated, so its data stays in that core's
   caches) and then helps with what is left of the others'. Which thread
   runs a task never changes what the task computes: results depend only
   on how the caller numbers its tasks, not on the thread count. */
#ifndef SINEW_THREAD_POOL_H
#define SINEW_THREAD_POOL_H

#include "tool_common.h"

#include <stddef.h>

#define THREAD_POOL_MAX_THREADS 256

typedef struct thread_pool thread_pool;

/* Runs task `index`; `thread` is 0..thread_count-1 (0 is the calling thread),
   for per-thread scratch. */
typedef void (*thread_pool_task_fn)(void* context, size_t index, int thread);

/* `thread_count` ≥ 1 threads in all; thread_count − 1 are started. */
thread_pool* thread_pool_create(int thread_count, tool_error* err);
int thread_pool_thread_count(const thread_pool* pool);
void thread_pool_run(thread_pool* pool, size_t task_count, thread_pool_task_fn fn, void* context);
void thread_pool_destroy(thread_pool* pool);

/* Processors available to this process (at least 1). */
int thread_pool_cpu_count(void);

#endif
