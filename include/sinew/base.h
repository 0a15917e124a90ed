/* sinew/base.h — results, diagnostics, assertions, version, the memory rule.

   Every fallible function in sinew returns an sw_result. The codes and their
   texts come from one list (SW_RESULT_LIST) so that sw_result_str() always
   matches the code. Functions that can say more also fill a caller-provided
   sw_diag (may be NULL): a one-line message naming what was wrong.

   Caller bugs (NULL where a pointer is required, ranges past a validated
   job) trip SW_ASSERT, which is on in debug builds and can be replaced by
   defining SW_ASSERT before including any sinew header. Bad data never
   asserts: it returns a code.

   The allocator (sw_set_allocator, below) is sinew's one process-wide
   setting, with its own thread rules; everything else here holds no state
   and is thread-safe. */
#ifndef SINEW_BASE_H
#define SINEW_BASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SW_VERSION_MAJOR 0
#define SW_VERSION_MINOR 1
#define SW_VERSION_PATCH 0
#define SW_VERSION_STRING "0.1.0"

/* The headers compile as C11 and as C++. */
#ifdef __cplusplus
#define SW_EXTERN_C_BEGIN extern "C" {
#define SW_EXTERN_C_END }
#define SW_RESTRICT __restrict
#define SW_STATIC_ASSERT(cond, msg) static_assert(cond, msg)
#else
#define SW_EXTERN_C_BEGIN
#define SW_EXTERN_C_END
#define SW_RESTRICT restrict
#define SW_STATIC_ASSERT(cond, msg) _Static_assert(cond, msg)
#endif

#ifndef SW_ASSERT
#include <assert.h>
#define SW_ASSERT(cond) assert(cond)
#endif

SW_EXTERN_C_BEGIN

#define SW_RESULT_LIST(X)                                                  \
    X(SW_OK, "ok")                                                         \
    X(SW_ERR_INVALID_ARGUMENT, "invalid argument")                         \
    X(SW_ERR_OUT_OF_MEMORY, "out of memory")                               \
    X(SW_ERR_IO, "input/output error")                                     \
    X(SW_ERR_INVALID_DATA, "invalid data")                                 \
    X(SW_ERR_UNSUPPORTED, "unsupported")                                   \
    X(SW_ERR_BUFFER_TOO_SMALL, "buffer too small")                         \
    X(SW_ERR_INDEX_OUT_OF_RANGE, "index out of range")                     \
    X(SW_ERR_JOINT_ORDER, "joints are not ordered parents first")          \
    X(SW_ERR_CYCLE, "hierarchy contains a cycle")                          \
    X(SW_ERR_SINGULAR, "matrix is singular")

typedef enum sw_result {
#define SW__RESULT_ENUM(name, text) name,
    SW_RESULT_LIST(SW__RESULT_ENUM)
#undef SW__RESULT_ENUM
    SW_RESULT_COUNT
} sw_result;

/* Text of a result code; never NULL ("unknown result" for values outside the list). */
const char* sw_result_str(sw_result result);

/* What went wrong, in one line. Filled by functions that take an sw_diag*;
   `message` is always NUL-terminated. `index` names the offending element
   (joint, vertex, accessor…) or is -1. */
typedef struct sw_diag {
    sw_result result;
    int64_t index;
    char message[256];
} sw_diag;

/* Fills `diag` (if not NULL) with `result`, `index` and a printf-style
   message, and returns `result`, so that failures read
   `return sw_diag_set(diag, SW_ERR_..., i, "joint %d ...", i);`. */
sw_result sw_diag_set(sw_diag* diag, sw_result result, int64_t index, const char* format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* Memory: jobs and per-frame calls never allocate; they run on buffers the
   caller owns. Long-lived objects (a model, a GPU skinner, a renderer, a
   check report) are allocated by sinew and released by their own
   sw_*_free or sw_*_destroy, never by the caller's free().

   Sizes: a function that needs caller memory says how much with a
   *_memory_size or *_scratch_size function (sw_pose_memory_size,
   sw_spring_memory_size, sw_constraint_memory_size, sw_deform_scratch_size,
   sw_skin_compact_memory_size, sw_twist_tube_measure_scratch_size). The
   memory is 16-aligned and every such size is a multiple of 16, so
   aligned_alloc(16, size) takes it as it is. sw_deform_scratch_size is 0
   when no scratch is needed (NULL is then accepted); from the others 0
   means invalid input.

   Every allocation of every sinew library (sinew, sinew-import with the
   cJSON and stb_image work it does for sinew, sinew-render, sinew-demo)
   goes through one allocator: malloc, realloc and free unless
   sw_set_allocator installed another. allocate and reallocate return
   memory aligned for any type (as malloc does) or NULL; reallocate(user,
   NULL, n) allocates; deallocate(user, NULL) does nothing. sinew never
   asks for 0 bytes. A NULL makes the sinew call fail with
   SW_ERR_OUT_OF_MEMORY and leave nothing allocated (unless it can do
   without that memory and still give the same result).

   Thread rules: set it once, before any other sinew call and while no
   other thread is inside sinew, and keep it until everything sinew
   allocated has been freed (memory goes back to the allocator that gave
   it). NULL restores malloc/realloc/free. Not covered: Assimp's own C++
   allocations and the OpenGL driver's. sinew-import points cJSON's hooks
   (cJSON_InitHooks, process-wide) at this allocator the first time it
   parses JSON. */
typedef struct sw_allocator {
    void* (*allocate)(void* user, size_t size);
    void* (*reallocate)(void* user, void* ptr, size_t size);
    void (*deallocate)(void* user, void* ptr);
    void* user;
} sw_allocator;

void sw_set_allocator(const sw_allocator* allocator);
/* The allocator in use (malloc/realloc/free wrapped, when none was set). */
sw_allocator sw_get_allocator(void);

/* count * size without overflow: returns false (and writes 0) if it would overflow. */
bool sw_mul_size(size_t count, size_t size, size_t* out_bytes);

/* The build's configuration, for `sinew --version` and bug reports:
   e.g. "release, scalar/sse2/avx2 kernels (chosen at run time)" or
   "debug no-simd, scalar kernels". */
const char* sw_build_info(void);

SW_EXTERN_C_END

#endif
