/* A model on the GPU (see sinew/gpu.h, "Model primitives"): palettes by
   skin, shared by every primitive that skin deforms, and one (node,
   primitive) as a mesh and an instance: what sw_deform_primitive does on
   the CPU. */
#include <stdlib.h>
#include <string.h>

#include "sinew/gpu.h"
#include "../base/base_internal.h"

/* ---- Palettes ------------------------------------------------------------------ */

struct sw_gpu_model_palette {
    const sw_model* asset;
    int32_t skin;              /* the skin whose joints it holds, or -1: node's world matrix as joint 0 */
    size_t node;               /* the rigid node (skin -1) */
    size_t joint_count;        /* per copy */
    size_t instance_count;     /* copies (crowds), 1 for one character */
    sw_mat34* matrices;        /* the last pose, copy after copy */
    sw_dualquat* dual_quats;   /* made at the first DQS skinning */
    sw_mat34* stretch;
    sw_gpu_palette* palette;
    bool posed;                /* matrices hold a pose */
    bool uploaded;             /* the GPU palette holds `matrices` ... */
    bool dual_quats_uploaded;  /* ... and their dual quaternions */
};

static sw_result sw__palette_create(sw_gpu_skinner* skinner, const sw_model* asset, int32_t skin, size_t node,
                                    size_t joint_count, size_t instance_count, sw_gpu_model_palette** out,
                                    sw_diag* diag) {
    if (instance_count == 0 || instance_count > (size_t)UINT32_MAX)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "a crowd of %zu instances", instance_count);
    sw_gpu_model_palette* p = (sw_gpu_model_palette*)sw__calloc(1, sizeof *p);
    if (!p) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory");
    p->asset = asset, p->skin = skin, p->node = node;
    p->joint_count = joint_count, p->instance_count = instance_count;
    size_t total = 0;
    if (sw_mul_size(joint_count, instance_count, &total) && total <= SIZE_MAX / sizeof(sw_mat34))
        p->matrices = (sw_mat34*)sw__malloc(total * sizeof(sw_mat34));
    sw_result r = p->matrices ? sw_gpu_palette_create_crowd(skinner, joint_count, instance_count, &p->palette, diag)
                              : sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for a palette of %zu joints",
                                            joint_count);
    if (r != SW_OK) {
        sw_gpu_model_palette_destroy(p);
        return r;
    }
    *out = p;
    return SW_OK;
}

sw_result sw_gpu_model_palette_create_skin(sw_gpu_skinner* skinner, const sw_model* asset, size_t skin,
                                           size_t instance_count, sw_gpu_model_palette** out, sw_diag* diag) {
    if (!out || !asset || !skinner) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "NULL argument");
    *out = NULL;
    if (skin >= asset->skin_count)
        return sw_diag_set(diag, SW_ERR_INDEX_OUT_OF_RANGE, (int64_t)skin, "skin %zu: the model has %zu skins", skin,
                           asset->skin_count);
    return sw__palette_create(skinner, asset, (int32_t)skin, 0, asset->skins[skin].joint_count, instance_count, out,
                              diag);
}

sw_result sw_gpu_model_palette_create_node(sw_gpu_skinner* skinner, const sw_model* asset, size_t node,
                                           size_t instance_count, sw_gpu_model_palette** out, sw_diag* diag) {
    if (!out || !asset || !skinner) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "NULL argument");
    *out = NULL;
    if (node >= asset->node_count)
        return sw_diag_set(diag, SW_ERR_INDEX_OUT_OF_RANGE, (int64_t)node, "node %zu: the model has %zu nodes", node,
                           asset->node_count);
    return sw__palette_create(skinner, asset, -1, node, 1, instance_count, out, diag);
}

void sw_gpu_model_palette_destroy(sw_gpu_model_palette* p) {
    if (!p) return;
    sw_gpu_palette_destroy(p->palette);
    sw__free(p->matrices), sw__free(p->dual_quats), sw__free(p->stretch);
    sw__free(p);
}

size_t sw_gpu_model_palette_instance_count(const sw_gpu_model_palette* p) { return p ? p->instance_count : 0; }

uint64_t sw_gpu_model_palette_revision(const sw_gpu_model_palette* p) {
    return p ? sw_gpu_palette_revision(p->palette) : 0;
}

sw_result sw_gpu_model_palette_pose(sw_gpu_model_palette* p, const sw_pose* const* poses, const sw_mat34* placements,
                                    size_t count, sw_diag* diag) {
    if (!p || !poses) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "NULL palette or poses");
    if (count != p->instance_count)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "%zu poses for a crowd of %zu", count, p->instance_count);
    const size_t joints = p->joint_count;
    bool changed = !p->posed;
    for (size_t i = 0; i < count; i++) {
        const sw_pose* pose = poses[i];
        if (!pose || !pose->world || (p->skin >= 0 && !pose->skin_matrices)) {
            if (count == 1)
                return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "a pose without world or skin matrices");
            return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, (int64_t)i,
                               "crowd pose %zu: NULL, or without world or skin matrices", i);
        }
        const sw_mat34* fresh = p->skin >= 0 ? pose->skin_matrices + p->asset->skins[p->skin].palette_offset
                                             : &pose->world[p->node];
        /* Copy i's palette, placed; compared joint by joint so that an
           unchanged pose keeps the revision (and the skin cache skips). */
        for (size_t j = 0; j < joints; j++) {
            sw_mat34 m = placements ? sw_mat34_mul(&placements[i], &fresh[j]) : fresh[j];
            sw_mat34* slot = &p->matrices[i * joints + j];
            if (!changed && memcmp(&m, slot, sizeof m) != 0) changed = true;
            *slot = m;
        }
    }
    if (changed) p->uploaded = p->dual_quats_uploaded = false;
    p->posed = true;
    return SW_OK;
}

/* Uploads what a skinning with `method` reads, if the GPU does not hold it
   yet: the matrices, and for DQS on a skin their dual quaternions,
   computed here once per pose. Nothing before the first pose (the
   dispatch then says the palette holds nothing). */
static sw_result sw__palette_prepare(sw_gpu_model_palette* p, sw_skin_method method, sw_diag* diag) {
    if (!p->posed) return SW_OK;
    const bool dqs = method == SW_SKIN_DQS && p->skin >= 0;
    if (p->uploaded && (!dqs || p->dual_quats_uploaded)) return SW_OK;
    const size_t total = p->joint_count * p->instance_count;
    if (!dqs) {
        sw_result r = sw_gpu_palette_update(p->palette, p->matrices, NULL, NULL, diag);
        p->uploaded = r == SW_OK;
        p->dual_quats_uploaded = false;
        return r;
    }
    if (!p->dual_quats) p->dual_quats = (sw_dualquat*)sw__malloc(total * sizeof(sw_dualquat));
    if (!p->stretch) p->stretch = (sw_mat34*)sw__malloc(total * sizeof(sw_mat34));
    if (!p->dual_quats || !p->stretch)
        return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for %zu dual quaternions", total);
    size_t scaled = sw_skin_dual_quats(p->dual_quats, p->stretch, p->matrices, total);
    sw_result r = sw_gpu_palette_update(p->palette, p->matrices, p->dual_quats, scaled ? p->stretch : NULL, diag);
    p->uploaded = p->dual_quats_uploaded = r == SW_OK;
    return r;
}

sw_result sw_gpu_model_palette_upload(sw_gpu_model_palette* p, sw_skin_method method, sw_diag* diag) {
    if (!p) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "palette is NULL");
    if (!p->posed) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "the palette was never posed");
    return sw__palette_prepare(p, method, diag);
}

/* ---- Primitives ------------------------------------------------------------------ */

struct sw_gpu_model_primitive {
    const sw_model* asset;
    size_t node, primitive;
    sw_gpu_model_palette* palette;
    bool owns_palette;         /* made with it (sw_gpu_model_primitive_create*), else shared */
    sw_gpu_mesh* mesh;
    sw_gpu_instance* instance;
};

/* The (node, primitive) pair, checked. */
static sw_result sw__find_primitive(const sw_model* asset, size_t node, size_t primitive,
                                    const sw_model_primitive** out, sw_diag* diag) {
    if (node >= asset->node_count || asset->nodes[node].mesh < 0 ||
        primitive >= asset->meshes[asset->nodes[node].mesh].primitive_count)
        return sw_diag_set(diag, SW_ERR_INDEX_OUT_OF_RANGE, (int64_t)node, "node %zu has no mesh primitive %zu", node,
                           primitive);
    *out = &asset->meshes[asset->nodes[node].mesh].primitives[primitive];
    return SW_OK;
}

static bool sw__skinned(const sw_model* asset, size_t node, const sw_model_primitive* prim) {
    return asset->nodes[node].skin >= 0 && prim->influence_count > 0;
}

/* The mesh and instance of a primitive whose palette is set. */
static sw_result sw__primitive_buffers(sw_gpu_model_primitive* p, const sw_model_primitive* prim, const float* tangents,
                                       sw_diag* diag) {
    sw_gpu_morph_target* targets = (sw_gpu_morph_target*)sw__malloc((prim->target_count + 1) * sizeof *targets);
    if (!targets) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for morph targets");
    sw_gpu_mesh_desc desc;
    sw_gpu_mesh_desc_from_primitive(prim, targets, &desc);
    if (tangents) {
        desc.tangents = tangents;
        for (size_t t = 0; t < prim->target_count; t++) targets[t].tangents = NULL;
    }
    /* A rigid primitive is moved by the node's world matrix as joint 0. */
    if (!sw__skinned(p->asset, p->node, prim)) desc.influence_count = 0;
    sw_result r = sw_gpu_mesh_create(&desc, &p->mesh, diag);
    if (r == SW_OK) r = sw_gpu_instance_create_crowd(p->mesh, p->palette->instance_count, &p->instance, diag);
    sw__free(targets);
    return r;
}

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
    const sw_model_primitive* prim = NULL;
    sw_result r = sw__find_primitive(asset, node, primitive, &prim, diag);
    if (r != SW_OK) return r;
    sw_gpu_model_palette* palette = NULL;
    r = sw__skinned(asset, node, prim)
            ? sw_gpu_model_palette_create_skin(skinner, asset, (size_t)asset->nodes[node].skin, instance_count,
                                               &palette, diag)
            : sw_gpu_model_palette_create_node(skinner, asset, node, instance_count, &palette, diag);
    if (r != SW_OK) return r;
    r = sw_gpu_model_primitive_create_shared(skinner, palette, node, primitive, tangents, out, diag);
    if (r != SW_OK) {
        sw_gpu_model_palette_destroy(palette);
        return r;
    }
    (*out)->owns_palette = true;
    return SW_OK;
}

sw_result sw_gpu_model_primitive_create_shared(sw_gpu_skinner* skinner, sw_gpu_model_palette* palette, size_t node,
                                               size_t primitive, const float* tangents, sw_gpu_model_primitive** out,
                                               sw_diag* diag) {
    if (!out || !palette || !skinner) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "NULL argument");
    *out = NULL;
    const sw_model* asset = palette->asset;
    const sw_model_primitive* prim = NULL;
    sw_result r = sw__find_primitive(asset, node, primitive, &prim, diag);
    if (r != SW_OK) return r;
    const bool fits = sw__skinned(asset, node, prim) ? palette->skin == asset->nodes[node].skin
                                                    : palette->skin < 0 && palette->node == node;
    if (!fits)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, (int64_t)node,
                           "node %zu primitive %zu is not skinned with this palette (%s)", node, primitive,
                           palette->skin >= 0 ? "a skin's" : "another node's");
    sw_gpu_model_primitive* p = (sw_gpu_model_primitive*)sw__calloc(1, sizeof *p);
    if (!p) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory");
    p->asset = asset, p->node = node, p->primitive = primitive, p->palette = palette;
    r = sw__primitive_buffers(p, prim, tangents, diag);
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
    sw_gpu_mesh_destroy(p->mesh);
    if (p->owns_palette) sw_gpu_model_palette_destroy(p->palette);
    sw__free(p);
}

/* The morph weights of poses[0] (every copy shares them). */
static sw_result sw__primitive_morph(sw_gpu_model_primitive* p, const sw_pose* pose, sw_diag* diag) {
    const sw_model_node* nd = &p->asset->nodes[p->node];
    const sw_model_primitive* prim = &p->asset->meshes[nd->mesh].primitives[p->primitive];
    if (prim->target_count == 0) return SW_OK;
    if (!pose || !pose->weights)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "a morphed primitive needs pose weights");
    return sw_gpu_instance_set_morph_weights(p->instance, pose->weights + nd->weight_offset, prim->target_count, diag);
}

sw_result sw_gpu_model_primitive_pose(sw_gpu_model_primitive* p, const sw_pose* pose, sw_diag* diag) {
    if (!p || !pose) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "NULL primitive or pose");
    return sw_gpu_model_primitive_pose_crowd(p, &pose, NULL, 1, diag);
}

sw_result sw_gpu_model_primitive_pose_crowd(sw_gpu_model_primitive* p, const sw_pose* const* poses,
                                            const sw_mat34* placements, size_t count, sw_diag* diag) {
    if (!p || !poses) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "NULL primitive or poses");
    if (count != p->palette->instance_count)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "%zu poses for a crowd of %zu", count,
                           p->palette->instance_count);
    if (p->owns_palette) {
        sw_result r = sw_gpu_model_palette_pose(p->palette, poses, placements, count, diag);
        if (r != SW_OK) return r;
    }
    return sw__primitive_morph(p, poses[0], diag);
}

sw_result sw_gpu_model_primitive_skin(sw_gpu_skinner* skinner, sw_gpu_model_primitive* p, const sw_gpu_skin_desc* desc,
                                      bool* out_dispatched, sw_diag* diag) {
    if (out_dispatched) *out_dispatched = false;
    if (!p) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "primitive is NULL");
    sw_result r = sw__palette_prepare(p->palette, desc ? desc->method : SW_SKIN_METHOD_DEFAULT, diag);
    if (r != SW_OK) return r;
    return sw_gpu_skin(skinner, p->instance, p->palette->palette, desc, out_dispatched, diag);
}

sw_gpu_instance* sw_gpu_model_primitive_instance(const sw_gpu_model_primitive* p) { return p ? p->instance : NULL; }

size_t sw_gpu_model_primitive_instance_count(const sw_gpu_model_primitive* p) {
    return p ? p->palette->instance_count : 0;
}
