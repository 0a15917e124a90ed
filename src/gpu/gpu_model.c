/* One model (node, primitive) on the GPU: what sw_deform_primitive does on
   the CPU, as a mesh, a palette and an instance (see sinew/gpu.h). */
#include <stdlib.h>
#include <string.h>

#include "sinew/gpu.h"

struct sw_gpu_model_primitive {
    const sw_model* asset;
    size_t node, primitive;
    size_t joint_count;        /* the skin's joints, or 1 (the node's world matrix) */
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
    if (!out || !asset || !skinner) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "NULL argument");
    *out = NULL;
    if (node >= asset->node_count || asset->nodes[node].mesh < 0 ||
        primitive >= asset->meshes[asset->nodes[node].mesh].primitive_count)
        return sw_diag_set(diag, SW_ERR_INDEX_OUT_OF_RANGE, (int64_t)node, "node %zu has no mesh primitive %zu", node,
                           primitive);
    const sw_model_node* nd = &asset->nodes[node];
    const sw_model_primitive* prim = &asset->meshes[nd->mesh].primitives[primitive];
    sw_gpu_model_primitive* p = (sw_gpu_model_primitive*)calloc(1, sizeof *p);
    if (!p) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory");
    p->asset = asset, p->node = node, p->primitive = primitive;
    p->skinned = nd->skin >= 0 && prim->influence_count > 0;
    p->joint_count = p->skinned ? asset->skins[nd->skin].joint_count : 1;
    p->matrices = (sw_mat34*)malloc(p->joint_count * sizeof(sw_mat34));
    p->dual_quats = (sw_dualquat*)malloc(p->joint_count * sizeof(sw_dualquat));
    p->stretch = (sw_mat34*)malloc(p->joint_count * sizeof(sw_mat34));
    sw_gpu_morph_target* targets = (sw_gpu_morph_target*)malloc((prim->target_count + 1) * sizeof *targets);
    sw_result r = SW_OK;
    if (!p->matrices || !p->dual_quats || !p->stretch || !targets) {
        r = sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for a palette of %zu joints", p->joint_count);
    } else {
        sw_gpu_mesh_desc desc;
        sw_gpu_mesh_desc_from_primitive(prim, targets, &desc);
        /* A rigid primitive is moved by the node's world matrix as joint 0. */
        if (!p->skinned) desc.influence_count = 0;
        r = sw_gpu_mesh_create(&desc, &p->mesh, diag);
        if (r == SW_OK) r = sw_gpu_palette_create(skinner, p->joint_count, &p->palette, diag);
        if (r == SW_OK) r = sw_gpu_instance_create(p->mesh, &p->instance, diag);
    }
    free(targets);
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
    free(p->matrices), free(p->dual_quats), free(p->stretch);
    free(p);
}

sw_result sw_gpu_model_primitive_pose(sw_gpu_model_primitive* p, const sw_pose* pose, sw_diag* diag) {
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
