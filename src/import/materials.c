/* A model's materials made ready to draw (sw_material_set_read, see
   sinew/import.h and sinew/materials.h): the toon records read once, the
   images the textures name decoded once, so that the renderer opens no
   file and parses nothing. */
#include "sinew/import.h"

#include <string.h>

#include "../base/base_internal.h"

void sw_material_set_free(sw_material_set* set) {
    if (!set) return;
    for (size_t i = 0; set->images && i < set->image_count; i++) sw_model_image_free(set->images[i].pixels);
    sw__free(set->images);
    sw__free(set->toon);
    memset(set, 0, sizeof *set);
}

/* Decodes every image a texture names, each once; one that does not
   decode is marked failed (its reason is the caller's to find out again:
   sinew render warns with sw_model_decode_image's message). */
static void sw__decode_images(const sw_model* model, sw_material_set* set) {
    for (size_t t = 0; t < model->texture_count; t++) {
        const int32_t index = model->textures[t].image;
        if (index < 0 || (size_t)index >= model->image_count) continue;
        sw_material_image* image = &set->images[index];
        if (image->pixels || image->failed) continue;
        sw_diag ignored;
        if (sw_model_decode_image(model, (size_t)index, &image->pixels, &image->width, &image->height, &ignored) !=
            SW_OK)
            image->failed = true;
    }
}

sw_result sw_material_set_read(const sw_model* model, sw_material_set* out, sw_diag* diag) {
    if (out) memset(out, 0, sizeof *out);
    if (!model || !out) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "NULL model or material set");
    /* One more entry than needed, so that a model without materials or
       images still gets arrays. */
    out->toon = (sw_toon_material*)sw__calloc(model->material_count + 1, sizeof(sw_toon_material));
    out->images = (sw_material_image*)sw__calloc(model->image_count + 1, sizeof(sw_material_image));
    if (!out->toon || !out->images) {
        sw_material_set_free(out);
        return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for %zu materials", model->material_count);
    }
    out->material_count = model->material_count;
    out->image_count = model->image_count;
    sw_result r = sw_toon_read(model, out->toon, diag);
    if (r != SW_OK) {
        sw_material_set_free(out);
        return r;
    }
    sw__decode_images(model, out);
    return SW_OK;
}
