/* sinew/import.h — load a character from any format sinew reads, into the
   format-neutral model (model.h).

       sw_model* model = NULL;
       sw_diag diag;
       if (sw_import_file("hero.fbx", NULL, &model, &diag) != SW_OK)
           fprintf(stderr, "%s\n", diag.message);
       printf("%s\n", model->format);                 // "FBX"
       sw_model_free(model);

   The importer is chosen by content first, then by name:
   - a GLB header ("glTF") or a JSON text ('{' after any whitespace), or a
     name ending in .gltf, .glb or .vrm (VRM files are GLB): the glTF
     importer (gltf.h);
   - IQM's magic ("INTERQUAKEMODEL"), or a name ending in .iqm: sinew's
     own IQM reader (iqm.h), in every build;
   - a name whose extension Assimp reads (.fbx .dae .bvh .x .smd .md5mesh
     .md5anim .ms3d .obj ... : sw_assimp_reads_extension): the Assimp
     importer (assimp.h); in a build without Assimp, a clear
     SW_ERR_UNSUPPORTED ("x.fbx: FBX files need the Assimp importer, and
     this build of sinew has none (built with -DSW_ASSIMP=OFF)");
   - anything else is no model: SW_ERR_UNSUPPORTED saying what the file
     looks like by its first bytes (a PNG, JPEG, GIF, WebP image, a ZIP,
     gzip archive, a PDF, text, ...) and the formats sinew reads
     (sw_import_format_list); a file named .gltf, .glb or .vrm goes to the
     glTF importer unless its first bytes are such a known non-model
     format.
   Every model says what it was read from (model->format) and, where the
   file states them, its units and up axis as read.

   Threads (sinew-import): loads, the extension readers and
   sw_material_set_read keep no state between calls; any number may run
   at once on different threads, reading the same model or different
   ones. The Assimp importer is the exception to watch: Assimp's own
   C++ code is not audited here (assimp.h). */
#ifndef SINEW_IMPORT_H
#define SINEW_IMPORT_H

#include "sinew/base.h"
#include "sinew/model.h"
#include "sinew/gltf.h"
#include "sinew/assimp.h"
#include "sinew/iqm.h"
#include "sinew/materials.h"

SW_EXTERN_C_BEGIN

/* Zero means default for every field. Every importer's options name their
   common fields alike: allow_outside_paths, keep_raw_influences, and
   max_memory, the ceiling on memory one file may take (glTF: everything
   the load allocates, 4 GiB; IQM and Assimp: the file, read whole,
   256 MiB). */
typedef struct sw_import_options {
    sw_gltf_options gltf;       /* for glTF, GLB and VRM files */
    sw_assimp_options assimp;   /* for everything else */
    sw_iqm_options iqm;         /* for IQM files */
} sw_import_options;

/* Options for every importer from glTF ones: allow_outside_paths,
   max_influences and keep_raw_influences are copied to the Assimp ones,
   allow_outside_paths and keep_raw_influences to the IQM ones. */
sw_import_options sw_import_options_from_gltf(const sw_gltf_options* gltf);

/* Loads a model file of any format sinew reads. `options` may be NULL
   (defaults). On failure *out_model is NULL and diag names the file and
   the problem in one line. */
sw_result sw_import_file(const char* path, const sw_import_options* options, sw_model** out_model, sw_diag* diag);

/* Loads from memory: `name` (may be NULL) names the file in messages and,
   by its extension, helps choose the importer; external files resolve
   against `base_dir` (NULL = refused). */
sw_result sw_import_memory(const void* data, size_t size, const char* name, const char* base_dir,
                           const sw_import_options* options, sw_model** out_model, sw_diag* diag);

/* The formats sw_import_file reads, in one line for messages: "glTF/GLB/VRM,
   IQM and, through Assimp, FBX, Collada, BVH, ..." (Assimp's whether or
   not this build has it). Writes it to `out` (NUL-terminated; "" when
   `size` is too small) and returns its length, as snprintf. */
size_t sw_import_format_list(char* out, size_t size);

/* Decodes image `image` (PNG or JPEG; anything else is SW_ERR_UNSUPPORTED)
   to 8-bit RGBA with stb_image (compiled into sinew-import, PNG and JPEG
   decoders only), only when asked: importers never decode images, and the
   core and the renderer never do. stb_image is not hardened against hostile files: decode images
   of untrusted models in a sandbox. Release *out_pixels with
   sw_model_image_free. */
sw_result sw_model_decode_image(const sw_model* model, size_t image, uint8_t** out_pixels, int* out_width,
                                int* out_height, sw_diag* diag);
void sw_model_image_free(uint8_t* pixels);

/* The model's materials made ready to draw (sinew/materials.h): every
   material's toon data (sw_toon_read) and every image a texture names,
   decoded once (sw_model_decode_image). A malformed toon block is
   SW_ERR_INVALID_DATA with the reader's message (the file, the material and
   the field; values out of range are clamped, as sw_toon_read does); an
   image that does not decode is marked failed and the set is still made.
   On failure *out is empty. Release with sw_material_set_free. Reads files
   (images next to the model): call it where the model was loaded; any
   thread, one set per call. */
sw_result sw_material_set_read(const sw_model* model, sw_material_set* out, sw_diag* diag);
/* Frees what sw_material_set_read made and empties the set; an empty set
   or NULL is fine. */
void sw_material_set_free(sw_material_set* set);

SW_EXTERN_C_END

#endif
