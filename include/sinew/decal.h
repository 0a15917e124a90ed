/* sinew/decal.h — box decals as a file gives them: the node extension
   SW_decal (docs/extensions.md, docs/decals.md), read by sinew-import.

       sw_decal_set* set = NULL;
       sw_decal_read(model, &set, &diag);     // set stays NULL without decals
       for each set->decals[i]: the box is the world transform of node
           set->decals[i].node (pose->world[node]); its textures are the
           model's (model->textures[t].image in a sw_material_set's images)
       sw_decal_set_free(set);

   A decal is the unit cube [-0.5, 0.5]^3 under its node's world transform,
   projecting along the node's local -Y (its picture on the local XZ
   square, u = x + 0.5, v = z + 0.5); sw_renderer_set_decals
   (sinew/render.h) draws them. */
#ifndef SINEW_DECAL_H
#define SINEW_DECAL_H

#include <stddef.h>
#include <stdint.h>

#include "sinew/base.h"
#include "sinew/model.h"

SW_EXTERN_C_BEGIN

typedef struct sw_decal {
    uint32_t node;                 /* the model's node index: its world transform is the box */
    float base_color[4];           /* baseColorFactor: linear RGB and alpha; default 1, 1, 1, 1 */
    int32_t base_color_texture;    /* baseColorTexture: a model texture index, -1 = none */
    int32_t normal_texture;        /* normalTexture: a model texture index, -1 = none */
    float opacity;                 /* default 1 */
    float normal_strength;         /* normalStrength, default 1 */
} sw_decal;

typedef struct sw_decal_set {
    size_t decal_count;    const sw_decal* decals;     /* in the file's node order */
    size_t warning_count;  const char* const* warnings;  /* one line each */
} sw_decal_set;

/* sinew-import: the nodes' SW_decal records, in the file's node order.
   *out_set is NULL when the model has none. Errors (SW_ERR_INVALID_DATA,
   nothing returned; the message names the file and the JSON path): a
   record that is not an object, a member of the wrong type, a texture
   index out of range. Warnings: a factor, opacity or normal strength
   outside [0, 1] (clamped). */
sw_result sw_decal_read(const sw_model* model, sw_decal_set** out_set, sw_diag* diag);
void sw_decal_set_free(sw_decal_set* set);

SW_EXTERN_C_END

#endif
