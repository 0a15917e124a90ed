/* shadow_cache.h — the static shadow cache (docs/shadows.md): the static
   casters' depth from the light, drawn once, compressed (shadow_codec.h),
   kept in a shader storage buffer and decoded into the shadow map every
   frame before the dynamic casters are drawn over it.

   Invalidation rule: the records are re-baked when the light's
   view-projection changes (light direction, or the scene box it is fitted
   to), when the shadow map size changes, and when the set of static
   casters changes (sw_renderer_set_static_casters, a new scene). The light
   box is fitted to the scene box, not to the camera, so a moving camera
   never re-bakes. Not a public header; the GL functions need the context
   current. */
#ifndef SINEW_RENDER_SHADOW_CACHE_H
#define SINEW_RENDER_SHADOW_CACHE_H

#include <epoxy/gl.h>

#include "sinew/render.h"
#include "shadow_codec.h"

/* The encoder's tolerance: a sixth of the shadow bias (0.0015 in
   lighting.frag and toon.frag), in light depth units. */
#define SW__SHADOW_CACHE_TOLERANCE (1.0f / 4096.0f)

typedef struct sw__shadow_cache {
    GLuint program, buffer;
    bool* static_nodes;   /* node_count flags (NULL: none static) */
    size_t node_count;
    bool valid;           /* the records are of light_vp, size and the static set */
    float light_vp[16];
    int size;
    sw__shadow_records records;
    float* readback;      /* size × size */
    sw_shadow_cache_stats stats;
} sw__shadow_cache;

sw_result sw__shadow_cache_create(sw__shadow_cache** out, sw_diag* diag);
void sw__shadow_cache_destroy(sw__shadow_cache* cache);
/* Whether node `node`'s draws are static casters. */
static inline bool sw__shadow_cache_static_node(const sw__shadow_cache* c, size_t node) {
    return c && c->static_nodes && node < c->node_count && c->static_nodes[node];
}
/* Whether the records hold the static casters' depth of this light and size. */
bool sw__shadow_cache_valid(const sw__shadow_cache* c, const float light_vp[16], int size);
/* The bound framebuffer's depth (size × size at 0, 0: the static casters
   alone) read back, encoded and uploaded; the stats measured. False (the
   cache stays invalid) when out of memory. */
bool sw__shadow_cache_bake(sw__shadow_cache* c, const float light_vp[16], int size);
/* records into the buffer (made valid for nothing: the GL test's way in). */
void sw__shadow_cache_upload(sw__shadow_cache* c, const sw__shadow_records* records);
/* The records decoded into the bound framebuffer's depth, the map's texel
   (0, 0) at (x0, y0), over the current viewport (depth test always, depth
   written); the depth function is left GL_LESS. */
void sw__shadow_cache_decode(const sw__shadow_cache* c, int blocks_x, int x0, int y0, GLuint empty_vao);

#endif
