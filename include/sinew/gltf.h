/* sinew/gltf.h — the glTF 2.0 importer (.gltf and .glb): fills an sw_model
   (model.h).

       sw_model* model = NULL;
       sw_diag diag;
       if (sw_gltf_load_file("hero.glb", NULL, &model, &diag) != SW_OK)
           fprintf(stderr, "%s\n", diag.message);   // "hero.glb: accessors[3]: ..."
       ...
       sw_model_free(model);

   The importer reads the JSON (cJSON), the GLB container, buffers (GLB BIN
   chunk, base64 data: URIs, files next to the asset) and decodes every
   accessor it needs into plain arrays the model owns: float positions,
   normals, tangents, texture coordinates and colours, u32 indices, u16
   joints and f32 weights, float morph deltas, float keyframes. Sparse
   accessors, byteStride, every componentType and normalised integers (the
   spec's formulas: c/255, c/65535, max(c/127, −1), max(c/32767, −1)) are
   handled, so KHR_mesh_quantization files load like any other.

   Untrusted input: every read is checked against its bufferView and
   buffer, counts and sizes are checked for overflow (and against
   `max_memory`) before anything is allocated, nodes form a forest (cycles
   and nodes with two parents are rejected). Errors are one line in
   diag.message naming the file and the JSON path ("model.gltf:
   accessors[4].sparse.indices: ..."). Things that load but look wrong
   (unnormalised weights, more than 8 influences, a channel that targets
   nothing) become warnings in model->warnings.

   Files. The model, its buffers and (sw_model_decode_image) its images
   are read only if they are regular files: a FIFO, a device, a directory
   or a socket is refused at once ("x.bin: not a regular file (a FIFO)";
   files are opened with O_NONBLOCK, so nothing waits for a writer). A
   buffer file is read up to its byteLength, not beyond. A URI must stay
   in the model's folder unless allow_outside_paths: no absolute path, no
   ".." that climbs out, and no symbolic link whose target (realpath)
   lies outside the folder (realpath of the folder); links that stay
   inside are fine. (A hard link cannot be told from the file itself, and
   the path is resolved once, before it is opened: a folder that someone
   else rewrites during the load is not defended against.) A URI holding
   a control character (< 0x20, 0x7f; raw or %-escaped) is refused,
   naming its JSON path.

   JSON. Arrays and objects may nest 1000 deep (cJSON's limit); deeper is
   "JSON nested deeper than 1000 levels (at byte N)". A string holding a
   NUL ("\u0000", or a raw 0 byte) anywhere in the document is refused
   with its JSON path: cJSON would cut it short there, so "uri":
   "a.bin\u0000x" would read a.bin and a key "uri\u0000x" would read as
   "uri".

   Memory. `max_memory` covers everything the load allocates, and what
   the file declares is checked before it is allocated: the cJSON tree
   (bounded from one pass over the text before cJSON runs), the file and
   its buffers (from their sizes), and, once the accessors are parsed and
   before any is decoded, the sum of every decoded array the meshes, skins
   and animations will need (each use counts: an accessor used by ten
   primitives is decoded ten times). A file over the limit fails at once
   with SW_ERR_OUT_OF_MEMORY naming the largest array ("...attributes.
   POSITION: accessors[0] decodes to N bytes, all arrays to M: more than
   options.max_memory allows (...)").
   Counts must also be backed by the file. An accessor with a bufferView
   stores each of its elements there, so its count is bounded by the
   file's size. One without a bufferView is legal glTF (zeros, with its
   sparse values on top) but costs a few bytes of JSON whatever its count,
   so it is read only where the file bounds its count otherwise:
   - vertex attributes and morph targets: the primitive's vertex count
     (POSITION's count, which every attribute must match) must be backed
     by an attribute the importer reads (POSITION, NORMAL, TANGENT,
     TEXCOORD_n, COLOR_0, JOINTS_n, WEIGHTS_n) that has a bufferView, or
     else be at most 3 per sparse value of one of them (plus 3);
     otherwise SW_ERR_UNSUPPORTED. A POSITION of 300 million zeros in a
     1 KB file is refused in microseconds;
   - indices: at most 3 per sparse value (plus 3), else SW_ERR_UNSUPPORTED
     (the rest would all be vertex 0);
   - animation key times: at most sparse.count + 1, since zeros cannot
     increase strictly (SW_ERR_INVALID_DATA, before decoding);
   - animation outputs follow their input's count; inverse bind matrices
     are decoded for the skin's joints only (the extra ones the spec
     allows are skipped).

   How glTF maps onto the model: nodes are reordered parents first
   (sw_joint_order_parents_first; node.source_index is the glTF index),
   JOINTS_n/WEIGHTS_n sets become up to 8 influences per vertex,
   KHR_texture_transform becomes the texture reference's UV transform,
   KHR_materials_unlit the material's `unlit`, mesh extras.targetNames the
   morph target names, images in bufferViews the image's embedded bytes.
   Extensions of the root, nodes, meshes and materials that the importer
   does not interpret itself are kept as sw_model_extension records: the
   root's first, then each node's, mesh's and material's in file order,
   each value re-printed as compact JSON (no whitespace; numbers as cJSON
   prints them, 1.0 as 1). Indices inside that text are the file's: map
   node indices through node_from_source.

   Threads: a load keeps no state between calls and shares nothing with
   other loads: any number of loads may run at once on different threads
   (sinew-import; cJSON's allocation hooks are set once, thread-safely,
   before the first parse). The model it returns is read-only and may be
   shared; sw_model_free it from one thread when every reader is done. */
#ifndef SINEW_GLTF_H
#define SINEW_GLTF_H

#include "sinew/base.h"
#include "sinew/model.h"

SW_EXTERN_C_BEGIN

typedef struct sw_gltf_options {
    /* Allow buffer/image URIs that are absolute paths, leave the asset's
       folder through "..", or lead out of it through a symbolic link.
       Default false: such URIs are an error, whose message names this
       option and the command line's --allow-outside-paths. */
    bool allow_outside_paths;
    /* Ceiling on the bytes the loader allocates in total (file contents,
       the JSON tree and every decoded array included), checked against
       what the file declares before it is allocated (see "Memory" above).
       0 = default, 4 GiB (2 GiB on 32-bit targets). */
    size_t max_memory;
    /* Influences kept per vertex: 4 or 8. 0 = default, 8. */
    int max_influences;
    /* For validators (`sinew check`): also keep every primitive's
       JOINTS_n/WEIGHTS_n exactly as read (sw_model_primitive.raw_*), before
       anything is dropped or renormalised, and load negative weights
       (dropped before renormalising, with a warning) instead of failing,
       so that every offending vertex can be reported. Default false: the
       raw arrays are NULL and a negative weight is a load error. */
    bool keep_raw_influences;
    /* VRM 0.x models (root extension "VRM" without VRMC_vrm) face −Z;
       VRM 1.0 and every other consumer expect +Z. By default the importer
       turns such a model 180° about Y: each root node's local transform
       (TRS or matrix) is premultiplied by the turn, and so are the
       translation and rotation keys (CUBICSPLINE tangents included) of
       clips that drive a root node. Everything below the roots (meshes,
       inverse binds, node-space data such as spring colliders and
       look-at offsets) is untouched and stays consistent, since every
       world transform, hence every skinned or rigid vertex, is turned
       alike. A clip from another file that drives a root node's rotation
       replaces the turn. True keeps the file's facing. docs/vrm.md. */
    bool vrm0_keep_facing;
} sw_gltf_options;

/* Loads a .gltf or .glb file (recognised by content, not extension).
   `options` may be NULL (defaults). On failure *out_model is NULL and diag
   names the file and the problem. */
sw_result sw_gltf_load_file(const char* path, const sw_gltf_options* options, sw_model** out_model,
                            sw_diag* diag);

/* Loads from memory. External URIs are resolved against `base_dir` (NULL =
   external files are refused). `name` is used in messages (may be NULL). */
sw_result sw_gltf_load_memory(const void* data, size_t size, const char* name, const char* base_dir,
                              const sw_gltf_options* options, sw_model** out_model, sw_diag* diag);

/* Decodes a base64 data: URI ("data:[<mime>][;base64],<data>") into `out`
   (capacity `capacity`). Returns the decoded size through out_size; with
   out = NULL only the size is computed. Non-base64 data URIs are decoded
   with percent-escapes. */
sw_result sw_gltf_decode_data_uri(const char* uri, size_t uri_length, void* out, size_t capacity,
                                  size_t* out_size, sw_diag* diag);

SW_EXTERN_C_END

#endif
