/* One model (node, primitive) on the GPU: what sw_deform_primitive does on
   the CPU, as a mesh, a palette and an instance (see sinew/gpu.h). */
#include <stdlib.h>
#include <string.h>

#include "sinew/gpu.h"
#include "../base/base_internal.h"

struct sw_gpu_model_primitive {
    const sw_model* asset;
    size_t node, primitive;
    size_t joint_count;        /* the skin's joints, or 1 (the node's world matrix) */
    size_t instance_count;     /* crowds: palettes and outputs for this many copies; else 1 */
    bool skinned;
    sw_mat34* matrices;
    sw_dualquat* dual_quats;
    sw_mat34* stretch;
    bool posed;                /* matrices hold the last uploaded palette */
    sw_gpu_mesh* mesh;
    sw_gpu_palette* palette;
    sw_gpu_instance* instance;
};

sw_result sw_gpu_model_primitive_create(sw_gpu_skinner* skinner, const sw_model* asset, size_t node,
                                       size_t primitive, sw_gpu_model_primitive** out, sw_diag* diag) {
    return sw_gpu_model_primitive_create_tangents(skinner, asset, node, primitive, NULL, out, diag);
}

sw_result sw_gpu_model_primitive_create_tangents(sw_gpu_skinner* skinner, const sw_model* asset, size_t node,
                                                 size_t primitive, const float* tangents,
                                                 sw_gpu_model_primitive** out, sw_diag* diag) {
    return sw_gpu_model_primitive_create_crowd(skinner, asset, node, primitive, tangents, 1, out, diag);
}

sw_result sw_gpu_model_primitive_create_crowd(sw_gpu_skinner* skinner, const sw_model* asset, size_t node,
                                              size_t primitive, const float* tangents, size_t instance_count,
                                              sw_gpu_model_primitive** out, sw_diag* diag) {
    if (!out || !asset || !skinner) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "NULL argument");
    *out = NULL;
    if (instance_count == 0 || instance_count > (size_t)UINT32_MAX)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "a crowd of %zu instances", instance_count);
    if (node >= asset->node_count || asset->nodes[node].mesh < 0 ||
        primitive >= asset->meshes[asset->nodes[node].mesh].primitive_count)
        return sw_diag_set(diag, SW_ERR_INDEX_OUT_OF_RANGE, (int64_t)node, "node %zu has no mesh primitive %zu", node,
                           primitive);
    const sw_model_node* nd = &asset->nodes[node];
    const sw_model_primitive* prim = &asset->meshes[nd->mesh].primitives[primitive];
    sw_gpu_model_primitive* p = (sw_gpu_model_primitive*)sw__calloc(1, sizeof *p);
    if (!p) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory");
    p->asset = asset, p->node = node, p->primitive = primitive;
    p->skinned = nd->skin >= 0 && prim->influence_count > 0;
    p->joint_count = p->skinned ? asset->skins[nd->skin].joint_count : 1;
    p->instance_count = instance_count;
    const size_t total = p->joint_count <= SIZE_MAX / sizeof(sw_mat34) / instance_count ? p->joint_count * instance_count : 0;
    p->matrices = total ? (sw_mat34*)sw__malloc(total * sizeof(sw_mat34)) : NULL;
    p->dual_quats = total ? (sw_dualquat*)sw__malloc(total * sizeof(sw_dualquat)) : NULL;
    p->stretch = total ? (sw_mat34*)sw__malloc(total * sizeof(sw_mat34)) : NULL;
    sw_gpu_morph_target* targets = (sw_gpu_morph_target*)sw__malloc((prim->target_count + 1) * sizeof *targets);
    sw_result r = SW_OK;
    if (!p->matrices || !p->dual_quats || !p->stretch || !targets) {
        r = sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for a palette of %zu joints", p->joint_count);
    } else {
        sw_gpu_mesh_desc desc;
        sw_gpu_mesh_desc_from_primitive(prim, targets, &desc);
        if (tangents) {
            desc.tangents = tangents;
            for (size_t t = 0; t < prim->target_count; t++) targets[t].tangents = NULL;
        }
        /* A rigid primitive is moved by the node's world matrix as joint 0. */
        if (!p->skinned) desc.influence_count = 0;
        r = sw_gpu_mesh_create(&desc, &p->mesh, diag);
        if (r == SW_OK) r = sw_gpu_palette_create_instances(skinner, p->joint_count, instance_count, &p->palette, diag);
        if (r == SW_OK) r = sw_gpu_instance_create_instances(p->mesh, instance_count, &p->instance, diag);
    }
    sw__free(targets);
    if (r != SW_OK) {
        sw_gpu_model_primitive_destroy(p);
        return r;
    }
    *out = p;
    return SW_OK;
}

void sw_gpu_model_primitive_destroy(sw_gpu_model_primitive* p) {
    if (!p) return;
    sw_gpu_instance_destroy(p->instance);
    sw_gpu_palette_destroy(p->palette);
    sw_gpu_mesh_destroy(p->mesh);
    sw__free(p->matrices), sw__free(p->dual_quats), sw__free(p->stretch);
    sw__free(p);
}

sw_result sw_gpu_model_primitive_pose(sw_gpu_model_primitive* p, const sw_pose* pose, sw_diag* diag) {
    if (p && p->instance_count != 1) return sw_gpu_model_primitive_pose_crowd(p, &pose, NULL, 1, diag);
    if (!p || !pose || !pose->world || (p->skinned && !pose->skin_matrices))
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "NULL primitive, or a pose without world or skin matrices");
    const sw_model* asset = p->asset;
    const sw_model_node* nd = &asset->nodes[p->node];
    const sw_model_primitive* prim = &asset->meshes[nd->mesh].primitives[p->primitive];
    const float* weights = pose->weights;
    /* An unchanged palette keeps its revision, so the skin cache skips. */
    const sw_mat34* fresh = p->skinned ? pose->skin_matrices + asset->skins[nd->skin].palette_offset
                                       : &pose->world[p->node];
    sw_result r = SW_OK;
    if (!p->posed || memcmp(fresh, p->matrices, p->joint_count * sizeof(sw_mat34)) != 0) {
        memcpy(p->matrices, fresh, p->joint_count * sizeof(sw_mat34));
        size_t scaled = sw_skin_dual_quats(p->dual_quats, p->stretch, p->matrices, p->joint_count);
        r = sw_gpu_palette_update(p->palette, p->matrices, p->dual_quats, scaled ? p->stretch : NULL, diag);
        p->posed = r == SW_OK;
    }
    if (r != SW_OK || prim->target_count == 0) return r;
    if (!weights) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "a morphed primitive needs pose weights");
    return sw_gpu_instance_set_morph_weights(p->instance, weights + nd->weight_offset, prim->target_count, diag);
}

sw_result sw_gpu_model_primitive_skin(sw_gpu_skinner* skinner, sw_gpu_model_primitive* p, const sw_gpu_skin_desc* desc,
                                     bool* out_dispatched, sw_diag* diag) {
    if (!p) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "primitive is NULL");
    return sw_gpu_skin(skinner, p->instance, p->palette, desc, out_dispatched, diag);
}

sw_gpu_instance* sw_gpu_model_primitive_instance(const sw_gpu_model_primitive* p) { return p ? p->instance : NULL; }

size_t sw_gpu_model_primitive_instance_count(const sw_gpu_model_primitive* p) { return p ? p->instance_count : 0; }

sw_result sw_gpu_model_primitive_pose_crowd(sw_gpu_model_primitive* p, const sw_pose* const* poses,
                                            const sw_mat34* placements, size_t count, sw_diag* diag) {
    if (!p || !poses) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "NULL primitive or poses");
    if (count != p->instance_count)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "%zu poses for a crowd of %zu", count, p->instance_count);
    const sw_model* asset = p->asset;
    const sw_model_node* nd = &asset->nodes[p->node];
    const sw_model_primitive* prim = &asset->meshes[nd->mesh].primitives[p->primitive];
    const size_t joints = p->joint_count;
    bool changed = !p->posed;
    for (size_t i = 0; i < count; i++) {
        const sw_pose* pose = poses[i];
        if (!pose || !pose->world || (p->skinned && !pose->skin_matrices))
            return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, (int64_t)i, "crowd pose %zu: NULL, or without world or skin matrices", i);
        const sw_mat34* fresh = p->skinned ? pose->skin_matrices + asset->skins[nd->skin].palette_offset
                                           : &pose->world[p->node];
        /* Instance i's palette, placed; compared joint by joint so that an
           unchanged crowd keeps its revision (and the skin cache skips). */
        for (size_t j = 0; j < joints; j++) {
            sw_mat34 m = placements ? sw_mat34_mul(&placements[i], &fresh[j]) : fresh[j];
            sw_mat34* slot = &p->matrices[i * joints + j];
            if (!changed && memcmp(&m, slot, sizeof m) != 0) changed = true;
            *slot = m;
        }
    }
    sw_result r = SW_OK;
    if (changed) {
        p->posed = false;
        size_t scaled = sw_skin_dual_quats(p->dual_quats, p->stretch, p->matrices, joints * count);
        r = sw_gpu_palette_update(p->palette, p->matrices, p->dual_quats, scaled ? p->stretch : NULL, diag);
        p->posed = r == SW_OK;
    }
    if (r != SW_OK || prim->target_count == 0) return r;
    if (!poses[0]->weights) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "a morphed primitive needs pose weights");
    return sw_gpu_instance_set_morph_weights(p->instance, poses[0]->weights + nd->weight_offset, prim->target_count, diag);
}
