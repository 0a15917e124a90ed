/* sinew/materials.h — a model's materials made ready to draw: per material
   its toon values (sinew/toon.h) as read, and every image its textures
   use, decoded to RGBA8 once. Plain data, no GL, no file: the renderer
   (sinew/render.h, sw_renderer_set_scene) draws what a set holds and opens
   nothing itself.

       sw_material_set materials;
       if (sw_material_set_read(model, &materials, &diag) != SW_OK)   // sinew/import.h
           ... diag names the file, the material and the field ...
       sw_renderer_set_scene(renderer, model, &materials, &diag);
       ...
       sw_renderer_destroy(renderer);          // or the next set_scene
       sw_material_set_free(&materials);

   sw_material_set_read (sinew-import) fills a set from a model: every
   material's toon record (sw_toon_read: SW_materials_toon, VRM MToon) and
   every image that a texture of the model names (sw_model_decode_image).
   A program that builds its model in code fills one by hand: toon[i] from
   sw_toon_defaults or its own values, images[i] from its own pixels; it
   then owns that memory and frees it itself.

   THREADS. Plain data: a filled set is only read by its users and may be
   shared between threads and renderers; whoever changes or frees it makes
   sure nobody reads it meanwhile. */
#ifndef SINEW_MATERIALS_H
#define SINEW_MATERIALS_H

#include "sinew/model.h"
#include "sinew/toon.h"

SW_EXTERN_C_BEGIN

/* One image of the model, decoded. */
typedef struct sw_material_image {
    int width, height;  /* pixels; 0 without pixels */
    /* width × height × 4 bytes, RGBA8 (sRGB or linear as the texture that
       uses it says), rows top to bottom; NULL when no texture uses the
       image or it did not decode. */
    uint8_t* pixels;
    /* A texture uses the image and it did not decode (missing file, not PNG
       or JPEG, broken data): those textures are drawn white. */
    bool failed;
} sw_material_image;

typedef struct sw_material_set {
    size_t material_count;     /* the model's material_count */
    /* material_count entries: the material's toon data (present = false
       where it has none). */
    sw_toon_material* toon;
    size_t image_count;        /* the model's image_count */
    sw_material_image* images; /* image_count entries, by model image index */
} sw_material_set;

SW_EXTERN_C_END

#endif
