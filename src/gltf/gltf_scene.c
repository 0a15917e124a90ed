/* Scene evaluation for imported glTF assets: rest pose, world matrices,
   skin matrices and the deformation of one (node, primitive) instance
   (see sinew/gltf.h). Everything runs on arrays indexed by node. */
#include "sinew/gltf.h"

#include "../anim/pose_internal.h"

#include <math.h>
#include <string.h>

void sw_gltf_rest_pose(const sw_gltf_asset* asset, sw_transform* out_local) {
    SW_ASSERT(asset && (out_local || asset->node_count == 0));
    for (size_t i = 0; i < asset->node_count; ++i)
        out_local[i] = asset->nodes[i].has_matrix ? sw_transform_identity() : asset->nodes[i].trs;
}

void sw_gltf_weight_offsets(const sw_gltf_asset* asset, uint32_t* out_offsets) {
    SW_ASSERT(asset && (out_offsets || asset->node_count == 0));
    for (size_t i = 0; i < asset->node_count; ++i) out_offsets[i] = asset->nodes[i].weight_offset;
}

void sw_gltf_rest_weights(const sw_gltf_asset* asset, float* out_weights) {
    SW_ASSERT(asset && (out_weights || asset->weight_count == 0));
    for (size_t i = 0; i < asset->node_count; ++i) {
        const sw_gltf_node* node = &asset->nodes[i];
        if (node->mesh < 0) continue;
        const sw_gltf_mesh* mesh = &asset->meshes[node->mesh];
        if (mesh->weight_count == 0) continue;
        /* glTF: node.weights, else mesh.weights (the loader fills zeros when absent). */
        const float* defaults = node->weight_count == mesh->weight_count ? node->weights : mesh->weights;
        for (size_t k = 0; k < mesh->weight_count; ++k)
            out_weights[node->weight_offset + k] = defaults ? defaults[k] : 0.0f;
    }
}

void sw_gltf_world_matrices(const sw_gltf_asset* asset, const sw_transform* local, sw_mat34* out_world) {
    SW_ASSERT(asset && ((local && out_world) || asset->node_count == 0));
    /* node_order puts parents first, so each parent's world matrix is ready.
       The kernels are sw_transform_to_mat34 and sw_mat34_mul, inline. */
    const sw_gltf_node* nodes = asset->nodes;
    for (size_t k = 0; k < asset->node_count; ++k) {
        const uint32_t i = asset->node_order[k];
        const sw_gltf_node* node = &nodes[i];
        const int32_t parent = node->parent;
        if (node->has_matrix) {
            if (parent >= 0)
                sw__pose_mat34_mul(&out_world[i], &out_world[parent], &node->matrix);
            else
                out_world[i] = node->matrix;
        } else if (parent >= 0) {
            sw__pose_mul_trs(&out_world[i], &out_world[parent], &local[i]);
        } else {
            sw__pose_trs_to_mat34(&out_world[i], &local[i]);
        }
    }
}

void sw_gltf_skin_matrices(const sw_gltf_asset* asset, size_t skin, const sw_mat34* world, sw_mat34* out_matrices) {
    SW_ASSERT(asset && skin < asset->skin_count && world && out_matrices);
    const sw_gltf_skin* s = &asset->skins[skin];
    for (size_t j = 0; j < s->joint_count; ++j)
        sw__pose_mat34_mul(&out_matrices[j], &world[s->joints[j]], &s->inverse_bind[j]);
}

/* ---- deforming one instance --------------------------------------------- */

typedef struct sw__deform_layout {
    size_t morphed_positions, morphed_normals; /* byte offsets into scratch, or SIZE_MAX */
    size_t matrices, dual_quats, stretch;
    size_t total;
} sw__deform_layout;

static size_t sw__align16(size_t n) { return (n + 15) & ~(size_t)15; }

static const sw_gltf_primitive* sw__primitive(const sw_gltf_asset* asset, size_t node, size_t primitive) {
    if (!asset || node >= asset->node_count) return NULL;
    int32_t mesh = asset->nodes[node].mesh;
    if (mesh < 0 || (size_t)mesh >= asset->mesh_count) return NULL;
    if (primitive >= asset->meshes[mesh].primitive_count) return NULL;
    return &asset->meshes[mesh].primitives[primitive];
}

static bool sw__is_skinned(const sw_gltf_asset* asset, size_t node, const sw_gltf_primitive* prim) {
    return asset->nodes[node].skin >= 0 && prim->influence_count > 0;
}

static sw__deform_layout sw__layout(const sw_gltf_asset* asset, size_t node, const sw_gltf_primitive* prim) {
    sw__deform_layout l = {SIZE_MAX, SIZE_MAX, SIZE_MAX, SIZE_MAX, SIZE_MAX, 0};
    size_t vec3s = sw__align16(prim->vertex_count * 3 * sizeof(float)); /* the loader bounded vertex_count */
    if (prim->target_count > 0) {
        l.morphed_positions = l.total, l.total += vec3s;
        if (prim->normals) l.morphed_normals = l.total, l.total += vec3s;
    }
    if (sw__is_skinned(asset, node, prim)) {
        size_t joints = asset->skins[asset->nodes[node].skin].joint_count;
        l.matrices = l.total, l.total += sw__align16(joints * sizeof(sw_mat34));
        l.dual_quats = l.total, l.total += sw__align16(joints * sizeof(sw_dualquat));
        l.stretch = l.total, l.total += sw__align16(joints * sizeof(sw_mat34));
    }
    return l;
}

size_t sw_gltf_deform_scratch_size(const sw_gltf_asset* asset, size_t node, size_t primitive) {
    const sw_gltf_primitive* prim = sw__primitive(asset, node, primitive);
    return prim ? sw__layout(asset, node, prim).total : 0;
}

/* Bind-space morph of one stream (3 floats per vertex) into `out`. */
static sw_result sw__morph_stream(const sw_gltf_primitive* prim, const float* weights, const float* base, bool normals,
                                  float* out, sw_diag* diag) {
    const float* deltas[64];
    const float* stack_weights = weights;
    size_t done = 0;
    /* Targets in batches of 64: a fixed array keeps this allocation-free. */
    memcpy(out, base, prim->vertex_count * 3 * sizeof(float));
    while (done < prim->target_count) {
        size_t batch = prim->target_count - done < 64 ? prim->target_count - done : 64;
        for (size_t k = 0; k < batch; ++k)
            deltas[k] = normals ? prim->targets[done + k].normals : prim->targets[done + k].positions;
        sw_morph_job job = {
            .vertex_count = prim->vertex_count,
            .target_count = batch,
            .weights = stack_weights + done,
            .deltas = deltas,
            .base = out,
            .out = out,
        };
        sw_result r = sw_morph_job_validate(&job, diag);
        if (r != SW_OK) return r;
        sw_morph_job_run(&job, 0, prim->vertex_count);
        done += batch;
    }
    return SW_OK;
}

sw_result sw_gltf_deform_primitive(const sw_gltf_deform* d, sw_diag* diag) {
    if (!d || !d->asset || !d->world || !d->out_positions)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "deform needs an asset, world matrices and out_positions");
    const sw_gltf_asset* asset = d->asset;
    const sw_gltf_primitive* prim = sw__primitive(asset, d->node, d->primitive);
    if (!prim)
        return sw_diag_set(diag, SW_ERR_INDEX_OUT_OF_RANGE, (int64_t)d->node, "node %zu has no mesh primitive %zu",
                           d->node, d->primitive);
    const sw_gltf_node* node = &asset->nodes[d->node];
    sw__deform_layout l = sw__layout(asset, d->node, prim);
    if (l.total && (!d->scratch || (uintptr_t)d->scratch % 16))
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "deform needs %zu bytes of 16-aligned scratch", l.total);
    uint8_t* scratch = (uint8_t*)d->scratch;
    if (prim->vertex_count == 0) return SW_OK;

    /* 1. Morph targets, in bind space. */
    const float* positions = prim->positions;
    const float* normals = prim->normals;
    if (prim->target_count > 0) {
        if (!d->weights && asset->weight_count)
            return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "deform of a morphed mesh needs pose weights");
        const float* weights = d->weights + node->weight_offset;
        float* p = (float*)(scratch + l.morphed_positions);
        sw_result r = sw__morph_stream(prim, weights, prim->positions, false, p, diag);
        if (r != SW_OK) return r;
        positions = p;
        if (normals && d->out_normals) {
            float* n = (float*)(scratch + l.morphed_normals);
            r = sw__morph_stream(prim, weights, prim->normals, true, n, diag);
            if (r != SW_OK) return r;
            normals = n;
        }
    }
    float* out_normals = normals ? d->out_normals : NULL;

    /* 2a. Skinned: joint matrices carry the mesh; the node's own transform is ignored. */
    if (sw__is_skinned(asset, d->node, prim)) {
        size_t skin = (size_t)node->skin;
        size_t joint_count = asset->skins[skin].joint_count;
        sw_mat34* matrices = (sw_mat34*)(scratch + l.matrices);
        sw_gltf_skin_matrices(asset, skin, d->world, matrices);
        sw_skin_job job = {
            .method = d->method == SW_SKIN_DQS ? SW_SKIN_DQS : SW_SKIN_LBS,
            .vertex_count = prim->vertex_count,
            .influence_count = prim->influence_count,
            .joint_count = joint_count,
            .matrices = matrices,
            .joints = prim->joints,
            .joint_format = SW_JOINT_U16,
            .weights = prim->weights,
            .weight_format = SW_WEIGHT_F32,
            .in_positions = positions,
            .out_positions = d->out_positions,
            .in_normals = out_normals ? normals : NULL,
            .out_normals = out_normals,
        };
        if (job.method == SW_SKIN_DQS) {
            sw_dualquat* dual_quats = (sw_dualquat*)(scratch + l.dual_quats);
            sw_mat34* stretch = (sw_mat34*)(scratch + l.stretch);
            size_t scaled = sw_skin_dual_quats(dual_quats, stretch, matrices, joint_count);
            job.dual_quats = dual_quats;
            job.stretch = scaled ? stretch : NULL;
        }
        sw_result r = sw_skin_job_validate(&job, diag);
        if (r != SW_OK) return r;
        sw_skin_job_run(&job, 0, prim->vertex_count);
        return SW_OK;
    }

    /* 2b. Rigid: the node's world matrix; normals by M⁻ᵀ, taken as the
       cofactor det·M⁻ᵀ (no inverse, defined even when M is singular) with
       the sign of det removed, so mirrored nodes keep outward normals. */
    const sw_mat34* world = &d->world[d->node];
    sw_mat34 cofactor = sw_mat34_cofactor(world);
    if (sw_mat34_determinant(world) < 0.0f)
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 3; ++c) cofactor.m[r][c] = -cofactor.m[r][c];
    for (size_t v = 0; v < prim->vertex_count; ++v) {
        sw_vec3 p = sw_vec3_make(positions[3 * v], positions[3 * v + 1], positions[3 * v + 2]);
        p = sw_mat34_apply_point(world, p);
        d->out_positions[3 * v] = p.x, d->out_positions[3 * v + 1] = p.y, d->out_positions[3 * v + 2] = p.z;
        if (out_normals) {
            sw_vec3 n = sw_vec3_make(normals[3 * v], normals[3 * v + 1], normals[3 * v + 2]);
            n = sw_vec3_normalize(sw_mat34_apply_dir(&cofactor, n));
            out_normals[3 * v] = n.x, out_normals[3 * v + 1] = n.y, out_normals[3 * v + 2] = n.z;
        }
    }
    return SW_OK;
}
