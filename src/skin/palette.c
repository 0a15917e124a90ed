/* Skin matrices S = B·M⁻¹ and their dual-quaternion form (see sinew/skin.h). */
#include "sinew/skin.h"

sw_result sw_skin_validate(const sw_skin* skin, size_t skeleton_joint_count, sw_diag* diag) {
    if (!skin) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "no skin");
    if (skin->joint_count == 0 || skin->joint_count > 65536)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "skin has %zu joints (allowed 1..65536)",
                           skin->joint_count);
    if (!skin->joints && skin->joint_count > skeleton_joint_count)
        return sw_diag_set(diag, SW_ERR_INDEX_OUT_OF_RANGE, -1,
                           "skin has %zu joints and no joint list, but the skeleton has only %zu",
                           skin->joint_count, skeleton_joint_count);
    for (size_t i = 0; i < skin->joint_count; i++) {
        if (skin->joints && skin->joints[i] >= skeleton_joint_count)
            return sw_diag_set(diag, SW_ERR_INDEX_OUT_OF_RANGE, (int64_t)i,
                               "skin joint %zu refers to skeleton joint %u of %zu", i, (unsigned)skin->joints[i],
                               skeleton_joint_count);
        if (skin->inverse_bind) {
            const sw_mat34* m = &skin->inverse_bind[i];
            for (int r = 0; r < 3; r++)
                for (int c = 0; c < 4; c++)
                    if (!isfinite(m->m[r][c]))
                        return sw_diag_set(diag, SW_ERR_INVALID_DATA, (int64_t)i,
                                           "inverse bind matrix %zu is not finite", i);
            sw_mat34 unused;
            if (!sw_mat34_inverse(&unused, m))
                return sw_diag_set(diag, SW_ERR_SINGULAR, (int64_t)i, "inverse bind matrix %zu is singular", i);
        }
    }
    return SW_OK;
}

void sw_skin_matrices(sw_mat34* restrict out_matrices, const sw_skin* skin, const sw_mat34* model) {
    for (size_t i = 0; i < skin->joint_count; i++) {
        const sw_mat34* b = &model[skin->joints ? skin->joints[i] : i];
        out_matrices[i] = skin->inverse_bind ? sw_mat34_mul(b, &skin->inverse_bind[i]) : *b;
    }
}

static bool sw__near_identity3(const sw_mat34* k, float tolerance) {
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            if (fabsf(k->m[r][c] - (r == c ? 1.0f : 0.0f)) > tolerance) return false;
    return true;
}

size_t sw_skin_dual_quats(sw_dualquat* restrict out_dual_quats, sw_mat34* restrict out_stretch,
                          const sw_mat34* skin_matrices, size_t joint_count) {
    size_t scaled = 0;
    for (size_t i = 0; i < joint_count; i++) {
        sw_mat34 rigid, stretch;
        /* A reflection or a singular matrix has no rotation factor: keep
           its translation and let the stretch carry the whole 3×3. */
        sw_mat34_polar(&skin_matrices[i], &rigid, &stretch);
        out_dual_quats[i] = sw_dualquat_from_mat34(&rigid);
        if (!sw__near_identity3(&stretch, 1e-5f)) scaled++;
        if (out_stretch) out_stretch[i] = stretch;
    }
    return scaled;
}
