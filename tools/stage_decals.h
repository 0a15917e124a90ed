/* tools/stage_decals.h — a model's SW_decal boxes (sinew/decal.h) as the
   renderer's decals (sw_renderer_set_decals), for `sinew render` and
   `sinew view` when a stage carries decals. */
#ifndef SINEW_STAGE_DECALS_H
#define SINEW_STAGE_DECALS_H

#include <stddef.h>

#include "sinew/decal.h"
#include "sinew/materials.h"
#include "sinew/render.h"

/* Fills out[0 .. *out_count) (at most `capacity`) from `set` (may be
   NULL): each box is placement · world[node] (placement NULL: the
   identity; world: the model's pose.world), its images the set's
   textures' images in `materials` (an image that did not decode: none).
   Decals past `capacity` are dropped and counted in the return value. */
size_t stage_decals_make(const sw_decal_set* set, const sw_model* model, const sw_mat34* world,
                         const sw_mat34* placement, const sw_material_set* materials, sw_render_decal* out,
                         size_t capacity, size_t* out_count);

#endif
