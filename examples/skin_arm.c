/* The whole skinning core in one page: a three-joint arm (shoulder, elbow,
   wrist along +X), its elbow bent 90° about +Z, three vertices skinned with
   LBS and DQS. Built with the library and run by ctest; it exits non-zero if
   a vertex does not land where the hand calculation in the comments says. */
#include "sinew/sinew.h"

#include <math.h>
#include <stdio.h>

int main(void) {
    /* Skeleton: parents first, int16_t parents, -1 for the root. */
    static const int16_t parents[3] = {SW_NO_PARENT, 0, 1};
    sw_transform rest[3] = {sw_transform_identity(), sw_transform_identity(), sw_transform_identity()};
    rest[1].translation = (sw_vec3){1.0f, 0.0f, 0.0f}; /* elbow 1 m from the shoulder */
    rest[2].translation = (sw_vec3){1.0f, 0.0f, 0.0f}; /* wrist 1 m from the elbow */
    sw_diag diag;
    if (sw_skeleton_validate(&(sw_skeleton){.joint_count = 3, .parents = parents, .rest_pose = rest}, &diag)) {
        fprintf(stderr, "skeleton: %s\n", diag.message);
        return 1;
    }

    /* Bind pose = rest pose; inverse bind matrices are stored inverted, once. */
    sw_mat34 model[3], inverse_bind[3];
    sw_local_to_model_job to_model = {.parents = parents, .joint_count = 3, .local = rest, .out_model = model};
    if (sw_local_to_model_job_validate(&to_model, &diag)) {
        fprintf(stderr, "local to model: %s\n", diag.message);
        return 1;
    }
    sw_local_to_model_job_run(&to_model);
    for (int i = 0; i < 3; i++) sw_mat34_inverse(&inverse_bind[i], &model[i]);

    /* This frame: the elbow turns 90° about +Z. */
    sw_transform pose[3] = {rest[0], rest[1], rest[2]};
    pose[1].rotation = sw_quat_from_axis_angle((sw_vec3){0.0f, 0.0f, 1.0f}, (float)(SW_PI / 2));
    to_model.local = pose;
    sw_local_to_model_job_run(&to_model);

    /* Skin matrices S = B·M⁻¹ (3 rows of 4 floats), and as dual quaternions. */
    sw_mat34 palette[3];
    sw_dualquat palette_dq[3];
    sw_skin skin = {.joint_count = 3, .inverse_bind = inverse_bind};
    sw_skin_matrices(palette, &skin, model);
    sw_skin_dual_quats(palette_dq, NULL, palette, 3); /* 0: rigid palette, no stretch needed */

    /* Three vertices: on the upper arm, at the elbow (half and half), on the forearm. */
    const float positions[3 * 3] = {0.5f, 0.0f, 0.0f, 1.0f, 0.2f, 0.0f, 1.5f, 0.0f, 0.0f};
    const uint8_t joints[3 * 2] = {0, 1, 0, 1, 1, 2};
    const float weights[3 * 2] = {1.0f, 0.0f, 0.5f, 0.5f, 1.0f, 0.0f};
    float lbs[3 * 3], dqs[3 * 3];
    sw_skin_job job = {
        .method = SW_SKIN_LBS, .vertex_count = 3, .influence_count = 2,
        .joint_count = 3, .matrices = palette, .dual_quats = palette_dq,
        .joints = joints, .joint_format = SW_JOINT_U8, .weights = weights,
        .in_positions = positions, .out_positions = lbs,
    };
    if (sw_skin_job_validate(&job, &diag)) {
        fprintf(stderr, "skin job: %s\n", diag.message);
        return 1;
    }
    sw_skin_job_run(&job, 0, 3); /* any sub-range works: split it across threads */
    job.method = SW_SKIN_DQS;
    job.out_positions = dqs;
    sw_skin_job_run(&job, 0, 3);

    /* By hand: the upper-arm vertex stays at (0.5, 0, 0); the forearm vertex
       (0.5 m past the elbow) swings to (1, 0.5, 0). The elbow vertex
       (1, 0.2, 0) is 0.2 m from the elbow: rigidly on the upper arm it stays
       at (1, 0.2, 0), on the forearm it goes to (0.8, 0, 0). LBS averages
       the two, (0.9, 0.1, 0): 0.141 m from the elbow, the LBS collapse. DQS
       turns it 45° instead, to (1 − 0.2·sin 45°, 0.2·cos 45°, 0), keeping
       its 0.2 m. */
    const double s45 = sqrt(0.5);
    const double expected_lbs[9] = {0.5, 0, 0, 0.9, 0.1, 0, 1.0, 0.5, 0};
    const double expected_dqs[9] = {0.5, 0, 0, 1.0 - 0.2 * s45, 0.2 * s45, 0, 1.0, 0.5, 0};
    int wrong = 0;
    for (int v = 0; v < 3; v++) {
        printf("vertex %d: LBS (%.4f, %.4f, %.4f)  DQS (%.4f, %.4f, %.4f)\n", v, lbs[3 * v], lbs[3 * v + 1],
               lbs[3 * v + 2], dqs[3 * v], dqs[3 * v + 1], dqs[3 * v + 2]);
        for (int c = 0; c < 3; c++) {
            wrong += fabs(lbs[3 * v + c] - expected_lbs[3 * v + c]) > 1e-5;
            wrong += fabs(dqs[3 * v + c] - expected_dqs[3 * v + c]) > 1e-5;
        }
    }
    return wrong ? 1 : 0;
}
