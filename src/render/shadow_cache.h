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
#include "shadow_atlas.h"
#include "shadow_codec.h"

/* The encoder's tolerance: a sixth of the shadow bias (0.0015 in
   lighting.frag and toon.frag), in light depth units. */
#define SW__SHADOW_CACHE_TOLERANCE (1.0f / 4096.0f)
/* Cascades with static casters (each in a cell of half the atlas), and
   without: one cell, the whole atlas, fitted to the scene box as before. */
#define SW__SHADOW_STAGE_CASCADES 3

/* One cascade's compressed static depth. */
typedef struct sw__shadow_slot {
    GLuint buffer;        /* shader storage: the records */
    sw__shadow_records records;
    int blocks_x;         /* of the records in the buffer */
    bool valid;           /* the records are of light_vp, size and the static set */
    float light_vp[16];
    int size;
} sw__shadow_slot;

typedef struct sw__shadow_cache {
    GLuint program;
    bool* static_nodes;   /* node_count flags (NULL: none static) */
    size_t node_count;
    bool bypass;          /* tests: static casters drawn every frame like the others */
    /* This frame's cascades (sw__shadow_place): cells of the atlas, light
       view-projections, and for the shaders each usable area in atlas
       texture space (x, y, size) and the pick margin in its own units. */
    int cascade_count;
    sw__shadow_cell cells[SW_SHADOW_MAX_CASCADES];
    sw_mat4 view_projections[SW_SHADOW_MAX_CASCADES];
    float rects[SW_SHADOW_MAX_CASCADES][4];
    sw__shadow_slot slots[SW_SHADOW_MAX_CASCADES];
    float* readback;      /* the largest cell's texels */
    size_t readback_texels;
    sw_shadow_cache_stats stats;
} sw__shadow_cache;

sw_result sw__shadow_cache_create(sw__shadow_cache** out, sw_diag* diag);
void sw__shadow_cache_destroy(sw__shadow_cache* cache);
/* No static casters given, every slot invalid, the stats zero (a new scene). */
void sw__shadow_cache_clear(sw__shadow_cache* cache);
/* Whether the renderer has static casters this frame, and whether draw d
   is one: the nodes of sw_renderer_set_static_casters, and every stage
   model the frame does not pose (sw_render_frame.stage_poses). */
bool sw__shadow_has_static(const sw_renderer* r, const sw_render_frame* f);
struct sw__draw;
bool sw__shadow_static_draw(const sw_renderer* r, const sw_render_frame* f, const struct sw__draw* d);
/* Every slot invalid (a new stage): baked again at the next frame. */
void sw__shadow_cache_invalidate(sw__shadow_cache* cache);
/* Whether slot i holds the static casters' depth of this light and size. */
bool sw__shadow_cache_valid(const sw__shadow_cache* c, int i, const float light_vp[16], int size);
/* The bound read framebuffer's depth in `cell` (the static casters alone)
   read back, encoded and uploaded into slot i; the stats measured. False
   (the slot stays invalid) when out of memory. */
bool sw__shadow_cache_bake(sw__shadow_cache* c, int i, sw__shadow_cell cell, const float light_vp[16]);
/* records into slot i's buffer (the GL test's way in; not made valid). */
void sw__shadow_cache_upload(sw__shadow_cache* c, int i, const sw__shadow_records* records);
/* Slot i's records decoded into the bound framebuffer's depth, the map's
   texel (0, 0) at (x0, y0), over the current viewport (depth test always,
   depth written); the depth function is left GL_LESS. */
void sw__shadow_cache_decode(const sw__shadow_cache* c, int i, int x0, int y0, GLuint empty_vao);
/* The cascades' uniforms (count, view-projections, rects) at the given
   locations of the program in use. */
void sw__shadow_cascade_uniforms(const sw__shadow_cache* c, GLint count_location, GLint vp_location,
                                 GLint rect_location);

/* This frame's cascades into c (renderer r's cache): without static
   casters one cell, the whole atlas, with `light_vp` (the scene box's
   light box); with them SW__SHADOW_STAGE_CASCADES cells of half the atlas
   over the camera's depth range across the scene and static casters'
   box, the first holding the scene box (the character). */
/* The renderer's cache (for tests: bypass). */
sw__shadow_cache* sw__renderer_shadow_cache(sw_renderer* r);
void sw__shadow_place(sw_renderer* r, const sw_render_frame* f, sw_vec3 light_direction, const sw_mat4* light_vp);

#endif
