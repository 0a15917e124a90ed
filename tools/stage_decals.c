/* A model's SW_decal boxes as renderer decals (stage_decals.h). */
#include "stage_decals.h"

#include <string.h>

static const sw_material_image* stage_decal_image(const sw_model* model, const sw_material_set* materials,
                                                  int32_t texture) {
    if (texture < 0 || (size_t)texture >= model->texture_count || !materials) return NULL;
    int32_t image = model->textures[texture].image;
    if (image < 0 || (size_t)image >= materials->image_count || !materials->images[image].pixels) return NULL;
    return &materials->images[image];
}

size_t stage_decals_make(const sw_decal_set* set, const sw_model* model, const sw_mat34* world,
                         const sw_mat34* placement, const sw_material_set* materials, sw_render_decal* out,
                         size_t capacity, size_t* out_count) {
    *out_count = 0;
    size_t dropped = 0;
    for (size_t i = 0; set && i < set->decal_count; i++) {
        if (*out_count == capacity) {
            dropped++;
            continue;
        }
        const sw_decal* d = &set->decals[i];
        sw_render_decal* r = &out[(*out_count)++];
        memset(r, 0, sizeof *r);
        r->box = placement ? sw_mat34_mul(placement, &world[d->node]) : world[d->node];
        memcpy(r->base_color, d->base_color, sizeof r->base_color);
        r->base_color_image = stage_decal_image(model, materials, d->base_color_texture);
        r->normal_image = stage_decal_image(model, materials, d->normal_texture);
        r->opacity = d->opacity;
        r->normal_strength = d->normal_strength;
    }
    return dropped;
}
