/* Crowds (see sinew/crowd.h): many poses of one model, and one mesh
   skinned once per character, as work items over caller-owned spans. */
#include "sinew/crowd.h"

#include <stdint.h>

/* ---- poses --------------------------------------------------------------------- */

static bool sw__crowd_own_clip(const sw_model* model, const sw_clip* clip) {
    if (!clip) return true;
    uintptr_t at = (uintptr_t)clip, first = (uintptr_t)model->animations;
    return model->animations && at >= first && at < first + model->animation_count * sizeof(sw_clip) &&
           (at - first) % sizeof(sw_clip) == 0;
}

sw_result sw_crowd_pose_validate(const sw_crowd_pose_job* job, sw_diag* diag) {
    if (!job || !job->model) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "crowd pose job: no job or model");
    const sw_model* model = job->model;
    if (job->instance_count && !job->poses)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "crowd pose job: %zu instances but no poses",
                           job->instance_count);
    if (!job->clips && !sw__crowd_own_clip(model, job->clip))
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "crowd pose job: the clip is not one of the model's");
    for (size_t i = 0; i < job->instance_count; i++) {
        const sw_pose* p = &job->poses[i];
        if (model->node_count && (!p->local || !p->world))
            return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, (int64_t)i, "crowd pose job: pose %zu has no buffers", i);
        if (model->skin_joint_count && !p->skin_matrices)
            return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, (int64_t)i, "crowd pose job: pose %zu has no skin matrices",
                               i);
        if (job->clips && !sw__crowd_own_clip(model, job->clips[i]))
            return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, (int64_t)i,
                               "crowd pose job: clip of instance %zu is not one of the model's", i);
        if (job->times && !(job->times[i] - job->times[i] == 0.0f))
            return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, (int64_t)i, "crowd pose job: time %zu is not finite", i);
    }
    return SW_OK;
}

void sw_crowd_pose_run(const sw_crowd_pose_job* job, size_t first, size_t count) {
    SW_ASSERT(job && first <= job->instance_count && count <= job->instance_count - first);
    for (size_t i = first; i < first + count; i++) {
        const sw_clip* clip = job->clips ? job->clips[i] : job->clip;
        /* The model's own clips: validated at import, so this cannot fail. */
        sw_pose_evaluate(job->model, clip, job->times ? job->times[i] : 0.0f, job->looping, &job->poses[i], NULL);
    }
}

/* ---- skinning ------------------------------------------------------------------ */

static size_t sw__crowd_grain(const sw_crowd_skin_job* job) {
    return job->grain ? job->grain : SW_CROWD_DEFAULT_GRAIN;
}

static size_t sw__crowd_items_per_instance(const sw_crowd_skin_job* job) {
    const size_t grain = sw__crowd_grain(job), n = job->skin.vertex_count;
    return n / grain + (n % grain != 0);
}

static size_t sw__crowd_instance_vertices(const sw_crowd_skin_job* job) {
    return job->out_instance_vertices ? job->out_instance_vertices : job->skin.vertex_count;
}

static bool sw__crowd_dqs(const sw_crowd_skin_job* job) { return job->skin.method == SW_SKIN_DQS; }

/* Instance i's job: its palette, and its outputs `i · instance vertices`
   further along each stream. */
static sw_skin_job sw__crowd_instance(const sw_crowd_skin_job* job, size_t i) {
    sw_skin_job s = job->skin;
    const size_t skip = i * sw__crowd_instance_vertices(job);
    if (sw__crowd_dqs(job)) {
        s.matrices = NULL;
        s.dual_quats = job->dual_quats[i];
        s.stretch = job->stretch ? job->stretch[i] : NULL;
    } else {
        s.matrices = job->matrices[i];
        s.dual_quats = NULL;
        s.stretch = NULL;
    }
    s.out_positions = (float*)((uint8_t*)s.out_positions + skip * (s.out_positions_stride ? s.out_positions_stride : 12));
    if (s.out_normals)
        s.out_normals = (float*)((uint8_t*)s.out_normals + skip * (s.out_normals_stride ? s.out_normals_stride : 12));
    if (s.out_tangents)
        s.out_tangents =
            (float*)((uint8_t*)s.out_tangents + skip * (s.out_tangents_stride ? s.out_tangents_stride : 16));
    return s;
}

/* Whether the last instance's byte offset in a stream, skip · stride,
   fits in the address space after `base`. */
static bool sw__crowd_fits(const void* base, size_t skip, size_t stride) {
    if (!base) return true;
    if (stride && skip > SIZE_MAX / stride) return false;
    return (uintptr_t)base <= UINTPTR_MAX - skip * stride;
}

sw_result sw_crowd_skin_validate(const sw_crowd_skin_job* job, sw_diag* diag) {
    if (!job) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "crowd skin job: no job");
    const sw_skin_job* s = &job->skin;
    const bool dqs = sw__crowd_dqs(job);
    if (job->instance_count == 0) return SW_OK;
    if (dqs ? !job->dual_quats : !job->matrices)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "crowd skin job: no %s palettes",
                           dqs ? "dual quaternion" : "matrix");
    if (job->out_instance_vertices && job->out_instance_vertices < s->vertex_count)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1,
                           "crowd skin job: instances %zu vertices apart overlap a mesh of %zu vertices",
                           job->out_instance_vertices, s->vertex_count);
    /* Inputs are shared, so no instance can skin in place. */
    if ((s->out_positions && (const void*)s->out_positions == (const void*)s->in_positions) ||
        (s->out_normals && (const void*)s->out_normals == (const void*)s->in_normals) ||
        (s->out_tangents && (const void*)s->out_tangents == (const void*)s->in_tangents))
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1,
                           "crowd skin job: outputs alias inputs (every instance reads the same inputs)");
    for (size_t i = 0; i < job->instance_count; i++) {
        if (dqs ? !job->dual_quats[i] : !job->matrices[i])
            return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, (int64_t)i, "crowd skin job: instance %zu has no palette",
                               i);
    }
    const size_t skip = (job->instance_count - 1) * sw__crowd_instance_vertices(job);
    if ((job->instance_count - 1) && skip / (job->instance_count - 1) != sw__crowd_instance_vertices(job))
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "crowd skin job: %zu instances overflow the address space",
                           job->instance_count);
    if (!sw__crowd_fits(s->out_positions, skip, s->out_positions_stride ? s->out_positions_stride : 12) ||
        !sw__crowd_fits(s->out_normals, skip, s->out_normals_stride ? s->out_normals_stride : 12) ||
        !sw__crowd_fits(s->out_tangents, skip, s->out_tangents_stride ? s->out_tangents_stride : 16))
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "crowd skin job: %zu instances overflow the address space",
                           job->instance_count);
    sw_skin_job first = sw__crowd_instance(job, 0);
    return sw_skin_job_validate(&first, diag);
}

size_t sw_crowd_skin_item_count(const sw_crowd_skin_job* job) {
    return job ? job->instance_count * sw__crowd_items_per_instance(job) : 0;
}

void sw_crowd_skin_run_item(const sw_crowd_skin_job* job, size_t item) {
    const size_t per = sw__crowd_items_per_instance(job), grain = sw__crowd_grain(job);
    SW_ASSERT(per && item < job->instance_count * per);
    const size_t instance = item / per, first = (item % per) * grain;
    const size_t count = job->skin.vertex_count - first < grain ? job->skin.vertex_count - first : grain;
    sw_skin_job s = sw__crowd_instance(job, instance);
    sw_skin_job_run(&s, first, count);
}

static void sw__crowd_skin_item(void* context, size_t item) {
    sw_crowd_skin_run_item((const sw_crowd_skin_job*)context, item);
}

void sw_crowd_skin_run(const sw_crowd_skin_job* job, sw_crowd_parallel_fn parallel, void* user) {
    const size_t items = sw_crowd_skin_item_count(job);
    if (items == 0) return;
    if (parallel) {
        parallel(user, items, sw__crowd_skin_item, (void*)job);
        return;
    }
    for (size_t i = 0; i < items; i++) sw_crowd_skin_run_item(job, i);
}
