/* A pose with memory of its own, for the tests: pose_make binds it to a
   new 16-aligned block sized for the model (sinew/pose.h); free(p.memory)
   releases it. */
#ifndef SINEW_TEST_POSE_H
#define SINEW_TEST_POSE_H

#include <stdbool.h>
#include <stdlib.h>

#include "sinew/pose.h"

typedef struct posed {
    sw_pose pose;
    void* memory;
} posed;

static inline bool pose_make(const sw_model* m, posed* p) {
    sw_pose_sizes s = sw_pose_sizes_of(m);
    size_t bytes = (sw_pose_memory_size(&s) + 15) / 16 * 16;
    p->memory = aligned_alloc(16, bytes ? bytes : 16);
    if (!p->memory) return false;
    sw_pose_bind(&p->pose, &s, p->memory);
    return true;
}

#endif
