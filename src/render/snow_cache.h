/* snow_cache.h — the surface-height cache on the GPU (docs/snow.md,
   SEED-002-NOTES §2.6): the stage's walkable surfaces drawn from above
   into a 2048² fine r32ui image and a 256² coarse one (one coarse cell per
   8×8 fine texels), with the rules of snow.h (sw__snow_cache_insert is the
   C reference of one fragment). Not a public header; every function needs
   the GL context current.

   The window: SW_SNOW_CACHE_EXTENT units per side around the character,
   its corner snapped to whole coarse cells. A fine texel is addressed by
   its world texel index modulo 2048 (sw__snow_fine_texel): a ring, so a
   moved window keeps the addresses of what it still covers. The stage is
   static: the cache is drawn once, and again when the stage changes or
   the character goes farther than a quarter of the extent from the
   window's centre.

   Heights are normalised over [lowest, lowest + span]: the stage's bounds
   with half a unit below and above, so that the lowest surface packs to a
   non-zero word (0 = no surface). */
#ifndef SINEW_RENDER_SNOW_CACHE_H
#define SINEW_RENDER_SNOW_CACHE_H

#include "renderer_internal.h"
#include "snow.h"

#define SW_SNOW_CACHE_EXTENT 32.0f /* units per side: 1.5625 cm fine texels, 12.5 cm coarse cells */

struct sw__snow_cache { /* typedef: renderer_internal.h */
    GLuint program, framebuffer, depth;
    GLuint fine, coarse, dirty;     /* r32ui images */
    bool built;
    int32_t corner[2];              /* world texel index of the window's corner (x, z) */
    float lowest, span;             /* heights: h = (y − lowest) / span */
    uint32_t* fine_copy;            /* the fine image read back after each build (ground heights on the CPU) */
    uint64_t builds;                /* how many times it was drawn */
};

/* Draws the cache when it is not drawn yet, the stage changed or the
   character (`centre`, world) left the middle of the window; nothing
   without a stage. The caller times it (SW__PASS_SNOW_CACHE). */
sw_result sw__snow_cache_frame(sw_renderer* r, const float centre[3], sw_diag* diag);
/* The ground height under world (x, z) from the CPU copy: false when the
   point is outside the window or no surface was cached there. */
bool sw__snow_cache_ground(const sw__snow_cache* c, float x, float z, float* out_y);
/* The cache's images for tests: fine (2048²), coarse and dirty (256²),
   each as row-major words; any may be NULL. */
sw_result sw__snow_cache_read(const sw__snow_cache* c, uint32_t* fine, uint32_t* coarse, uint32_t* dirty,
                              sw_diag* diag);
/* The G-buffer program's cache uniform and texture (the snow shading
   reads the ground height there): off when there is no cache. */
void sw__snow_cache_bind(const sw__snow_cache* c);

#endif
