/* sinew/assimp.h — characters in the formats Assimp reads (FBX, Collada,
   BVH, DirectX .x, SMD, MD5, MS3D, ...), turned into the format-neutral
   model (model.h). Most programs call sw_import_file (import.h), which
   picks this importer or the glTF one from the file's content and name.

       sw_model* model = NULL;
       sw_diag diag;
       if (sw_assimp_load_file("hero.fbx", NULL, &model, &diag) != SW_OK)
           fprintf(stderr, "%s\n", diag.message);   // "hero.fbx: Assimp: ..."

   Built with -DSW_ASSIMP=OFF, every load fails with SW_ERR_UNSUPPORTED
   ("... built without Assimp") and sw_assimp_available() is false.

   BOUNDED WORK: what sinew does with Assimp's scene takes time linear in
   the scene (nodes, vertices, weights, keys) times log of the node count:
   node names are sorted once and found by binary search, a skin's bone
   names through a hash table (O(1) expected per bone, never a scan of the
   joints found so far). Assimp's own parsing is not bounded by sinew: a
   24,000-joint BVH spends about 1.6 s inside Assimp (its skeleton mesh and
   node searches) and under 0.1 s in sinew.

   What the importer does with Assimp's scene (docs/import.md has the
   whole list, with the post-processing steps asked of Assimp):
   - nodes: the node tree, parents first (depth first, children in file
     order); source_index is the node's place in that order, so
     node_from_source is the identity. FBX pivot helpers
     ("Name_$AssimpFbx$_Translation", ...) are folded into the node they
     lead to: their transforms, and their keys, are composed into its
     local transform (model->import_collapsed_nodes counts them).
   - skins: one per node that draws meshes with bones; joints are the
     nodes named by the bones, inverse binds the bones' offset matrices.
     As in glTF the skinned node's own transform is not applied: vertex =
     Σ w · world(joint) · offset · v, which is where the file puts it.
   - influences: every bone weight of a vertex is gathered, the
     max_influences largest kept and renormalised; vertices that had more
     are counted (model->import_dropped_vertices, a warning, and a
     `sinew check` finding), never dropped silently.
   - clips: ticks / mTicksPerSecond (0 means 25, as Assimp documents),
     translation, rotation and scale keys as LINEAR tracks, morph weight
     keys as a LINEAR weights track.
   - units and axes: an FBX file's UnitScaleFactor and axis settings
     become a transform on the root node (metres, +Y up, +Z front,
     right-handed); model->unit_scale_to_metres and up_axis_read say what
     was read. Collada files are converted by Assimp itself.
   Input is untrusted: the file's size is bounded before Assimp sees it,
   and every count, pointer and index Assimp hands back is checked. Assimp
   itself is a large C++ parser that crashes, hangs and allocates without
   bound on hostile files, so by default it runs in a child process with
   memory and time limits (options.in_process, docs/import.md): what it
   does there becomes a one-line error, never the caller's crash.

   Threads: an isolated load forks the calling thread only; the child
   uses malloc (glibc resets its locks at fork) and is killed at the time
   limit if it hangs on a lock another thread held. Each load makes its
   own Assimp importer and property store
   (aiImportFileFromMemoryWithProperties) and sinew keeps no state, so
   loads on different threads share nothing of sinew's. Assimp documents
   its importers as independent; sinew attaches no Assimp log stream
   (Assimp's logger is process-wide). The model returned is read-only
   and may be shared. */
#ifndef SINEW_ASSIMP_H
#define SINEW_ASSIMP_H

#include "sinew/base.h"
#include "sinew/model.h"

SW_EXTERN_C_BEGIN

typedef struct sw_assimp_options {
    /* Texture paths that are absolute or lead out of the file's folder are
       kept as URIs either way; this lets sw_model_decode_image open them. */
    bool allow_outside_paths;
    /* Ceiling on memory, in bytes, as every importer's max_memory: here
       the file, read whole and handed to Assimp (checked before Assimp
       sees a byte; what Assimp allocates itself is not bounded by it).
       0 = default, 256 MiB. */
    size_t max_memory;
    /* Influences kept per vertex: 4 or 8. 0 = default, 8. */
    int max_influences;
    /* Also keep every vertex's bone weights as read (up to 64, strongest
       first; sw_model_primitive.raw_*), for validators. */
    bool keep_raw_influences;
    /* Let Assimp fold FBX pivots itself (its "preserve pivots" setting
       off) instead of sinew folding the helper nodes. Default false. */
    bool assimp_folds_pivots;
    /* Run Assimp in the calling process, for callers who trust their
       files. By default (false) each load runs Assimp in a child process
       (fork) whose address space is capped at 4 × max_memory + 512 MiB
       above what the caller has mapped, whose CPU time is capped and which
       holds none of the caller's descriptors; the model comes back over a
       pipe and is checked as it is rebuilt. A crash, a hang or running out
       of memory in Assimp becomes an error ("hero.fbx: Assimp crashed
       reading it (SIGSEGV)", "... took longer than 8 s ...", "... used
       more than 1536 MB ..."). Costs one fork and one copy of the model. */
    bool in_process;
    /* Wall-clock limit on an isolated load, in seconds (at most 1e6).
       0 = default, 8. */
    double time_limit_s;
} sw_assimp_options;

/* Whether this build has the Assimp importer. */
bool sw_assimp_available(void);

/* Whether Assimp reads files with this extension ("fbx" or ".fbx", any
   case); false without Assimp. */
bool sw_assimp_reads_extension(const char* extension);

/* Loads a file Assimp reads. `options` may be NULL (defaults). On failure
   *out_model is NULL and diag names the file and the problem. */
sw_result sw_assimp_load_file(const char* path, const sw_assimp_options* options, sw_model** out_model,
                              sw_diag* diag);

/* Loads from memory. `name` gives the format by its extension (Assimp's
   hint) and names the file in messages; texture URIs resolve against
   `base_dir` (NULL = external files refused). */
sw_result sw_assimp_load_memory(const void* data, size_t size, const char* name, const char* base_dir,
                                const sw_assimp_options* options, sw_model** out_model, sw_diag* diag);

SW_EXTERN_C_END

#endif
