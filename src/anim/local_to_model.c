/* Local → model in one forward pass over parent-first joints (see sinew/anim.h). */
#include "sinew/anim.h"

#include "local_to_model_internal.h"

sw_result sw_local_to_model_job_validate(const sw_local_to_model_job* job, sw_diag* diag) {
    if (!job || !job->parents || !job->local || !job->out_model)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "local-to-model job needs parents, local and out_model");
    if (job->joint_count == 0 || job->joint_count > SW_MAX_JOINTS)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "local-to-model job has %zu joints (allowed 1..%d)",
                           job->joint_count, SW_MAX_JOINTS);
    if (job->first_joint > job->joint_count)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "first_joint %zu is past joint_count %zu",
                           job->first_joint, job->joint_count);
    if ((const void*)job->out_model == (const void*)job->local)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "out_model aliases local");
    for (size_t i = 0; i < job->joint_count; i++) {
        int parent = job->parents[i];
        if (parent < SW_NO_PARENT || parent >= (int)i)
            return sw_diag_set(diag, SW_ERR_JOINT_ORDER, (int64_t)i,
                               "joint %zu has parent %d; parents must come before their children", i, parent);
    }
    return SW_OK;
}

void sw_local_to_model_job_run(const sw_local_to_model_job* job) {
    SW_ASSERT(job && job->first_joint <= job->joint_count);
    const int16_t* parents = job->parents;
    const sw_transform* local = job->local;
    sw_mat34* model = job->out_model;
    const sw_mat34* root = job->root;
    for (size_t i = job->first_joint; i < job->joint_count; i++) {
        const int parent = parents[i];
        SW_ASSERT(parent < (int)i);
        if (parent >= 0)
            sw__pose_mul_trs(&model[i], &model[parent], &local[i]);
        else if (root)
            sw__pose_mul_trs(&model[i], root, &local[i]);
        else
            sw__pose_trs_to_mat34(&model[i], &local[i]); /* identity · local, without the product */
    }
}
