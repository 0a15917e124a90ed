/* sinew/iqm.h — Inter-Quake Model (IQM, version 2) files: meshes, skeleton
   and clips, read by sinew itself into the format-neutral model (model.h).
   Most programs call sw_import_file (import.h), which sends files that
   start with "INTERQUAKEMODEL" or are named .iqm here.

       sw_model* model = NULL;
       sw_diag diag;
       if (sw_iqm_load_file("guy.iqm", NULL, &model, &diag) != SW_OK)
           fprintf(stderr, "%s\n", diag.message);   // "guy.iqm: ..."

   What the reader makes of a file (docs/import.md has the whole list):
   - nodes: node 0, "iqm_axes", carries the axis conversion (IQM files are
     Z up: Blender's and Quake's axes; sinew's are +Y up, facing +Z), then
     one node per joint in file order (IQM stores parents first), then
     one node per IQM mesh. model->up_axis_read is "+Z"; the file states
     no unit (unit_scale_to_metres 0).
   - one skin: every joint, inverse binds from the joints' rest world
     matrices (in the file's axes: the conversion lives on node 0, so
     joint world matrices and skinned vertices come out +Y up).
   - meshes: one model mesh per IQM mesh, its vertex range and triangles
     (wound counter-clockwise: IQM winds them the other way), position,
     normal, tangent, texture coordinates, colour, up to 4 influences
     (renormalised to sum 1); the material named after the mesh's.
   - clips: one per IQM animation, a LINEAR translation, rotation and
     scale track per joint, key k at k / framerate seconds (framerate 0
     means 25); a looping animation gets its first frame again at
     num_frames / framerate, so looping playback wraps from the last frame
     to the first as IQM players do.
   An animation file (poses and clips, no joints) has no joint names: give
   the model it was made for as options.skeleton and its joints name the
   file's poses by index (when their count and parents agree), so that its
   clips merge onto that model by name; without one they are "pose 0",
   "pose 1", ...
   Input is untrusted: every count and offset is checked against the file's
   size (in 64-bit arithmetic), every name against the text block, every
   index against what it indexes, every float for finiteness.

   Threads: a load keeps no state and touches no global: any number may
   run at once on different threads; the model it returns is read-only
   and may be shared. */
#ifndef SINEW_IQM_H
#define SINEW_IQM_H

#include "sinew/base.h"
#include "sinew/model.h"

SW_EXTERN_C_BEGIN

typedef struct sw_iqm_options {
    /* Image paths that are absolute or lead out of the file's folder are
       kept either way; this lets sw_model_decode_image open them. */
    bool allow_outside_paths;
    /* Ceiling on memory, in bytes, as every importer's max_memory: here
       the file, which is read whole before anything else (the arrays
       built from it are bounded by the counts it backs). 0 = default,
       256 MiB. */
    size_t max_memory;
    /* Also keep every vertex's blend weights as read (sw_model_primitive
       raw_*), for validators. */
    bool keep_raw_influences;
    /* For animation files without joints: the model whose first skin's
       joints name the file's poses, by index (may be NULL). */
    const sw_model* skeleton;
} sw_iqm_options;

/* Whether `data` starts with IQM's magic ("INTERQUAKEMODEL\0"). */
bool sw_iqm_is_iqm(const void* data, size_t size);

/* Loads an IQM file. `options` may be NULL (defaults). On failure
   *out_model is NULL and diag names the file and the problem in one line. */
sw_result sw_iqm_load_file(const char* path, const sw_iqm_options* options, sw_model** out_model, sw_diag* diag);

/* Loads from memory: `name` (may be NULL) names the file in messages;
   material images resolve against `base_dir` (NULL = refused). */
sw_result sw_iqm_load_memory(const void* data, size_t size, const char* name, const char* base_dir,
                             const sw_iqm_options* options, sw_model** out_model, sw_diag* diag);

SW_EXTERN_C_END

#endif
