/* LBS volume loss (the "candy wrapper" of linear blend skinning, Kavan et al. 2008): the closed form and a procedural twist tube
   that measures it through the real pipeline (see sinew/skin.h). */
#include "sinew/skin.h"

#include "sinew/anim.h"

#include "../math/mat3d_internal.h"

double sw_lbs_retention(double weight, double twist_radians) {
    double v = 1.0 - 2.0 * weight * (1.0 - weight) * (1.0 - cos(twist_radians));
    return sqrt(v > 0.0 ? v : 0.0);
}

void sw_skin_rotations(const sw_mat34* skin_matrices, size_t count, double* out_rotations) {
    for (size_t j = 0; j < count; j++) {
        const sw__mat3d m = sw__mat3d_from_mat34(&skin_matrices[j]);
        const sw__mat3d q = sw__mat3d_orthogonal(&m);
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++) out_rotations[9 * j + 3 * (size_t)r + (size_t)c] = q.m[r][c];
    }
}

double sw_skin_vertex_retention(const double* rotations, size_t joint_count, const uint16_t* joints,
                                const float* weights, int influence_count, int* out_used) {
    sw__mat3d sum = {{{0}}};
    int used = 0;
    for (int e = 0; e < influence_count; e++) {
        if (!(weights[e] > 0.0f) || joints[e] >= joint_count) continue;
        used++;
        const double* rot = rotations + 9 * (size_t)joints[e];
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++) sum.m[r][c] += weights[e] * rot[3 * r + c];
    }
    if (out_used) *out_used = used;
    if (used < 2) return 1.0;
    double sv[3];
    sw__mat3d_singular_values(&sum, sv);
    return sv[2];
}

sw_result sw_twist_tube_resolve(sw_twist_tube_desc* out, const sw_twist_tube_desc* desc) {
    sw_twist_tube_desc d = desc ? *desc : (sw_twist_tube_desc){0};
    if (d.length == 0.0f) d.length = 3.0f;
    if (d.radius == 0.0f) d.radius = 0.5f;
    if (d.rings == 0) d.rings = 61;
    if (d.segments == 0) d.segments = 32;
    *out = d;
    if (!(d.length > 0.0f && d.length < 1e6f) || !(d.radius > 0.0f && d.radius < 1e6f))
        return SW_ERR_INVALID_ARGUMENT;
    if (d.rings < 7 || d.rings > 100000 || d.segments < 3 || d.segments > 100000) return SW_ERR_INVALID_ARGUMENT;
    return SW_OK;
}

size_t sw_twist_tube_vertex_count(const sw_twist_tube_desc* resolved) {
    return (size_t)resolved->rings * (size_t)resolved->segments;
}

float sw_twist_tube_ring_weight(const sw_twist_tube_desc* resolved, int ring) {
    /* x/length in thirds: 0..1 rigid parent, 1..2 blend, 2..3 rigid child. */
    double thirds = 3.0 * (double)ring / (double)(resolved->rings - 1);
    double w = thirds - 1.0;
    return (float)(w < 0.0 ? 0.0 : w > 1.0 ? 1.0 : w);
}

void sw_twist_tube_build(const sw_twist_tube_desc* resolved, float* out_positions, float* out_normals,
                         float* out_tangents, uint8_t* out_joints, float* out_weights) {
    const int rings = resolved->rings, segments = resolved->segments;
    for (int r = 0; r < rings; r++) {
        float x = resolved->length * (float)r / (float)(rings - 1);
        float w = sw_twist_tube_ring_weight(resolved, r);
        for (int s = 0; s < segments; s++) {
            size_t v = (size_t)r * (size_t)segments + (size_t)s;
            double angle = 2.0 * SW_PI * (double)s / (double)segments;
            float c = (float)cos(angle), sn = (float)sin(angle);
            if (out_positions) {
                out_positions[3 * v + 0] = x;
                out_positions[3 * v + 1] = resolved->radius * c;
                out_positions[3 * v + 2] = resolved->radius * sn;
            }
            if (out_normals) {
                out_normals[3 * v + 0] = 0.0f;
                out_normals[3 * v + 1] = c;
                out_normals[3 * v + 2] = sn;
            }
            if (out_tangents) { /* around the tube, so the twist turns it */
                out_tangents[4 * v + 0] = 0.0f;
                out_tangents[4 * v + 1] = -sn;
                out_tangents[4 * v + 2] = c;
                out_tangents[4 * v + 3] = 1.0f;
            }
            if (out_joints) {
                out_joints[2 * v + 0] = 0;
                out_joints[2 * v + 1] = 1;
            }
            if (out_weights) {
                out_weights[2 * v + 0] = 1.0f - w;
                out_weights[2 * v + 1] = w;
            }
        }
    }
}

void sw_twist_tube_pose(const sw_twist_tube_desc* resolved, float twist, sw_transform out_local[2]) {
    out_local[0] = sw_transform_identity();
    out_local[1] = sw_transform_identity();
    out_local[1].translation = (sw_vec3){0.5f * resolved->length, 0.0f, 0.0f};
    out_local[1].rotation = sw_quat_from_axis_angle((sw_vec3){1.0f, 0.0f, 0.0f}, twist);
}

void sw_twist_tube_measure_rings(const sw_twist_tube_desc* resolved, const float* positions, float* out_retention) {
    for (int r = 0; r < resolved->rings; r++) {
        double sum = 0.0;
        for (int s = 0; s < resolved->segments; s++) {
            const float* p = &positions[3 * ((size_t)r * (size_t)resolved->segments + (size_t)s)];
            sum += sqrt((double)p[1] * p[1] + (double)p[2] * p[2]);
        }
        out_retention[r] = (float)(sum / resolved->segments / resolved->radius);
    }
}

/* One block: rest positions, skinned positions, weights, joints. */
size_t sw_twist_tube_measure_scratch_size(const sw_twist_tube_desc* desc) {
    sw_twist_tube_desc tube;
    if (!desc || sw_twist_tube_resolve(&tube, desc) != SW_OK) return 0;
    const size_t vertex_count = sw_twist_tube_vertex_count(&tube); /* bounded by the resolved ranges */
    /* Rounded up to 16 like every other memory size (caller-friendly for aligned_alloc). */
    return (vertex_count * (3 + 3 + 2) * sizeof(float) + 2 * vertex_count + 15) / 16 * 16;
}

sw_result sw_twist_tube_measure(const sw_twist_tube_desc* desc, float twist, sw_skin_method method, void* scratch,
                                size_t scratch_size, float* out_retention) {
    sw_twist_tube_desc tube;
    sw_result result = sw_twist_tube_resolve(&tube, desc);
    if (result != SW_OK) return result;
    const size_t vertex_count = sw_twist_tube_vertex_count(&tube);
    if (!scratch || (uintptr_t)scratch % 16 || scratch_size < sw_twist_tube_measure_scratch_size(&tube))
        return SW_ERR_BUFFER_TOO_SMALL;
    float* rest = (float*)scratch;
    float* skinned = rest + 3 * vertex_count;
    float* weights = skinned + 3 * vertex_count;
    uint8_t* joints = (uint8_t*)(weights + 2 * vertex_count);
    sw_twist_tube_build(&tube, rest, NULL, NULL, joints, weights);

    /* Bind pose → inverse binds; the twisted pose → skin matrices. */
    static const int16_t parents[2] = {SW_NO_PARENT, 0};
    sw_transform local[2];
    sw_mat34 model[2], inverse_bind[2], skin_matrices[2];
    sw_local_to_model_job to_model = {.parents = parents, .joint_count = 2, .local = local, .out_model = model};
    sw_twist_tube_pose(&tube, 0.0f, local);
    sw_local_to_model_job_run(&to_model);
    for (int i = 0; i < 2; i++) sw_mat34_inverse(&inverse_bind[i], &model[i]);
    sw_twist_tube_pose(&tube, twist, local);
    sw_local_to_model_job_run(&to_model);
    sw_skin_matrices(skin_matrices, &(sw_skin){.joint_count = 2, .inverse_bind = inverse_bind}, model);
    sw_dualquat dual_quats[2];
    sw_skin_dual_quats(dual_quats, NULL, skin_matrices, 2);

    sw_skin_job job = {
        .method = method,
        .vertex_count = vertex_count,
        .influence_count = 2,
        .joint_count = 2,
        .matrices = skin_matrices,
        .dual_quats = dual_quats,
        .joints = joints,
        .joint_format = SW_JOINT_U8,
        .weights = weights,
        .in_positions = rest,
        .out_positions = skinned,
    };
    result = sw_skin_job_validate(&job, NULL);
    if (result == SW_OK) {
        sw_skin_job_run(&job, 0, vertex_count);
        sw_twist_tube_measure_rings(&tube, skinned, out_retention);
    }
    return result;
}
