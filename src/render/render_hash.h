/* The renderer's integer hash, shared by the C references that make
   noise from integers (the sky's stars, the snow's glints, the falling
   flakes) and mirrored in their shaders. */
#ifndef SINEW_RENDER_HASH_H
#define SINEW_RENDER_HASH_H

#include <stdint.h>

/* A 32-bit integer hash ("lowbias32": xor-shift, multiply), good enough
   that neighbouring integers give unrelated numbers. */
static inline uint32_t sw__hash32(uint32_t x) {
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

#endif
