/* Deterministic pseudo-random inputs for the tests: xorshift64*, the same
   sequence on every platform (unlike rand()), seeded per test. */
#ifndef SINEW_TEST_RANDOM_H
#define SINEW_TEST_RANDOM_H

#include <math.h>
#include <stdint.h>

#include "sinew/math.h"

typedef struct rng { uint64_t s; } rng;

static inline uint32_t rng_u32(rng* r) {
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return (uint32_t)((r->s * 0x2545F4914F6CDD1Dull) >> 32);
}

/* Uniform in [0, 1). */
static inline double rng_unit(rng* r) { return (double)rng_u32(r) / 4294967296.0; }
static inline float rng_range(rng* r, double lo, double hi) { return (float)(lo + (hi - lo) * rng_unit(r)); }
static inline uint32_t rng_below(rng* r, uint32_t n) { return (uint32_t)(rng_unit(r) * n); }

/* Uniform over rotations: a rejection-sampled point of the 4-ball, normalised. */
static inline sw_quat rng_quat(rng* r) {
    for (;;) {
        double v[4], n2 = 0.0;
        for (int i = 0; i < 4; i++) {
            v[i] = 2.0 * rng_unit(r) - 1.0;
            n2 += v[i] * v[i];
        }
        if (n2 > 1.0 || n2 < 1e-4) continue;
        double inv = 1.0 / sqrt(n2);
        sw_quat q = {(float)(v[0] * inv), (float)(v[1] * inv), (float)(v[2] * inv), (float)(v[3] * inv)};
        return q;
    }
}

static inline sw_vec3 rng_vec3(rng* r, double lo, double hi) {
    return sw_vec3_make(rng_range(r, lo, hi), rng_range(r, lo, hi), rng_range(r, lo, hi));
}

/* Translation in [−translation_max, translation_max]³, any rotation, scale in [scale_min, scale_max]³. */
static inline sw_transform rng_transform(rng* r, double translation_max, double scale_min, double scale_max) {
    sw_transform t;
    t.translation = rng_vec3(r, -translation_max, translation_max);
    t.rotation = rng_quat(r);
    t.scale = rng_vec3(r, scale_min, scale_max);
    return t;
}

#endif
