/* sinew/crowd.h — many characters of one model at once: their poses, then
   their skinning, as work items a caller spreads over its own threads.

       sw_crowd_pose_job poses = {.model = model, .instance_count = n, .poses = pose_array,
                                  .clip = &model->animations[0], .times = times, .looping = true};
       sw_crowd_pose_validate(&poses, &diag);
       sw_crowd_pose_run(&poses, 0, n);                     // or ranges of instances on threads

       sw_crowd_skin_job skin = {.skin = job_of_one_character, .instance_count = n,
                                 .matrices = palettes};      // palettes[i]: instance i's skin matrices
       sw_crowd_skin_validate(&skin, &diag);
       sw_crowd_skin_run(&skin, parallel_for, pool);        // items spread by the caller's callback

   Nothing here owns threads or memory: a job is a struct of spans, like
   sw_skin_job, and a work item is a (character, vertex range) pair run by
   sw_skin_job_run on that character's palette and outputs. The kernels give
   the same bits for a vertex whatever range it is run in, so a crowd's
   output is bit for bit that of one sw_skin_job per character, in any item
   order and on any number of threads. */
#ifndef SINEW_CROWD_H
#define SINEW_CROWD_H

#include "sinew/base.h"
#include "sinew/model.h"
#include "sinew/pose.h"
#include "sinew/skin.h"

SW_EXTERN_C_BEGIN

/* Vertices per skinning work item when the job leaves `grain` at 0: a few
   tens of microseconds of work, enough to amortise handing out an item,
   and small enough that a character's mesh splits across threads. */
#define SW_CROWD_DEFAULT_GRAIN 4096

/* Runs item(context, i) once for every i < item_count and returns when all
   have run, on whichever threads it likes (items write disjoint memory).
   The library calls it; the caller writes it over its thread pool. */
typedef void (*sw_crowd_item_fn)(void* context, size_t item);
typedef void (*sw_crowd_parallel_fn)(void* user, size_t item_count, sw_crowd_item_fn item, void* context);

/* ---- Poses -------------------------------------------------------------------

   instance_count poses of one model (each bound with sw_pose_bind to the
   model's sw_pose_sizes), each evaluated by sw_pose_evaluate at its own
   clip and time. */
typedef struct sw_crowd_pose_job {
    const sw_model* model;
    size_t instance_count;
    sw_pose* poses;                 /* instance_count poses */
    /* Clip of instance i: clips[i] when `clips` is set (an entry may be NULL:
       the rest pose), else `clip` for all (NULL: the rest pose). Clips must
       be the model's own (model->animations), which the importer checked
       against it, so evaluating one cannot fail. */
    const sw_clip* const* clips;
    const sw_clip* clip;
    const float* times;             /* instance_count times in seconds; NULL = 0 for all */
    bool looping;                   /* wrap the times into the clip (else held at its ends) */
} sw_crowd_pose_job;

/* Checks the model, the poses (buffers present) and that every clip is one
   of the model's own. O(instance_count). */
sw_result sw_crowd_pose_validate(const sw_crowd_pose_job* job, sw_diag* diag);

/* Evaluates instances first .. first+count-1 of a validated job. */
void sw_crowd_pose_run(const sw_crowd_pose_job* job, size_t first, size_t count);

/* ---- Skinning ----------------------------------------------------------------

   One mesh skinned instance_count times, each instance with its own
   palette, into its own part of the output streams. */
typedef struct sw_crowd_skin_job {
    /* One character's job: method, influences, input streams, formats,
       strides and kernel. Its palette pointers (matrices, dual_quats,
       stretch) are ignored, the palettes below replace them; its output
       pointers are instance 0's outputs. */
    sw_skin_job skin;
    size_t instance_count;
    /* instance_count palettes of skin.joint_count entries: matrices for
       LBS; dual_quats and, optionally (NULL, or a NULL entry: a rigid
       palette), stretch for DQS (see sw_skin_dual_quats). */
    const sw_mat34* const* matrices;
    const sw_dualquat* const* dual_quats;
    const sw_mat34* const* stretch;
    /* Instance i writes vertex v of each output stream where instance 0
       writes vertex i·out_instance_vertices + v (0 = skin.vertex_count:
       instances packed one after another). */
    size_t out_instance_vertices;
    size_t grain;                   /* vertices per work item; 0 = SW_CROWD_DEFAULT_GRAIN */
} sw_crowd_skin_job;

/* Validates skin (sw_skin_job_validate, with instance 0's palette), every
   instance's palette pointers, out_instance_vertices ≥ skin.vertex_count
   (instances never overlap) and that the last instance's outputs are
   addressable. O(instance_count). */
sw_result sw_crowd_skin_validate(const sw_crowd_skin_job* job, sw_diag* diag);

/* Work items: instance_count × ceil(vertex_count / grain), instance-major
   (item i skins instance i / per_instance, vertex range i % per_instance). */
size_t sw_crowd_skin_item_count(const sw_crowd_skin_job* job);

/* Runs one work item of a validated job. */
void sw_crowd_skin_run_item(const sw_crowd_skin_job* job, size_t item);

/* Every item of a validated job through `parallel` (NULL: one after
   another on the calling thread). */
void sw_crowd_skin_run(const sw_crowd_skin_job* job, sw_crowd_parallel_fn parallel, void* user);

SW_EXTERN_C_END

#endif
