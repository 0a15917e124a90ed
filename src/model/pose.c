/* Evaluating a model at a time (sinew/pose.h): rest pose, one clip
   sampled, world matrices in parents-first order (all of them, or only
   the marked subtrees), skin palettes, and the deformation of one (node,
   primitive) instance. Everything runs on arrays indexed by node; nothing
   allocates. */
#include "sinew/pose.h"

#include "../anim/local_to_model_internal.h"

#include <math.h>
#include <string.h>

static size_t sw__align16(size_t n) { return (n + 15) & ~(size_t)15; }

sw_pose_sizes sw_pose_sizes_of(const sw_model* model) {
    SW_ASSERT(model);
    sw_pose_sizes s = {model->node_count, model->weight_count, 0, model->skin_count, model->skin_joint_count};
    for (size_t c = 0; c < model->animation_count; ++c)
        if (model->animations[c].track_count > s.cursor_count) s.cursor_count = model->animations[c].track_count;
    return s;
}

/* Byte offsets of each buffer in one block; `total` is the block's size. */
typedef struct sw__pose_layout {
    size_t local, weights, cursors, world, matrices, dual_quats, stretch, scaled, total;
} sw__pose_layout;

static sw__pose_layout sw__pose_layout_of(const sw_pose_sizes* s) {
    sw__pose_layout l;
    size_t at = 0;
    l.local = at, at += sw__align16(s->node_count * sizeof(sw_transform));
    l.weights = at, at += sw__align16(s->weight_count * sizeof(float));
    l.cursors = at, at += sw__align16(s->cursor_count * sizeof(uint32_t));
    l.world = at, at += sw__align16(s->node_count * sizeof(sw_mat34));
    l.matrices = at, at += sw__align16(s->palette_count * sizeof(sw_mat34));
    l.dual_quats = at, at += sw__align16(s->palette_count * sizeof(sw_dualquat));
    l.stretch = at, at += sw__align16(s->palette_count * sizeof(sw_mat34));
    l.scaled = at, at += sw__align16(s->skin_count * sizeof(size_t));
    l.total = at ? at : 16;
    return l;
}

size_t sw_pose_memory_size(const sw_pose_sizes* sizes) {
    SW_ASSERT(sizes);
    return sw__pose_layout_of(sizes).total;
}

void sw_pose_bind(sw_pose* pose, const sw_pose_sizes* sizes, void* memory) {
    SW_ASSERT(pose && sizes && memory && (uintptr_t)memory % 16 == 0);
    sw__pose_layout l = sw__pose_layout_of(sizes);
    uint8_t* m = (uint8_t*)memory;
    pose->local = (sw_transform*)(m + l.local);
    pose->weights = (float*)(m + l.weights);
    pose->cursors = (uint32_t*)(m + l.cursors);
    pose->cursor_count = sizes->cursor_count;
    pose->world = (sw_mat34*)(m + l.world);
    pose->skin_matrices = (sw_mat34*)(m + l.matrices);
    pose->skin_dual_quats = (sw_dualquat*)(m + l.dual_quats);
    pose->skin_stretch = (sw_mat34*)(m + l.stretch);
    pose->skin_scaled = (size_t*)(m + l.scaled);
    memset(pose->cursors, 0, sizes->cursor_count * sizeof(uint32_t));
    memset(pose->skin_scaled, 0, sizes->skin_count * sizeof(size_t));
}

void sw_pose_rest(const sw_model* model, sw_pose* pose) {
    SW_ASSERT(model && pose);
    SW_ASSERT(pose->local || model->node_count == 0);
    SW_ASSERT(pose->weights || model->weight_count == 0);
    SW_ASSERT(model->rest_local || model->node_count == 0);
    if (model->node_count) memcpy(pose->local, model->rest_local, model->node_count * sizeof *pose->local);
    if (model->weight_count) memcpy(pose->weights, model->rest_weights, model->weight_count * sizeof *pose->weights);
}

sw_result sw_pose_sample(const sw_model* model, const sw_clip* clip, float time, bool looping, sw_pose* pose,
                         sw_diag* diag) {
    if (!model || !pose || (model->node_count && (!pose->local || !pose->world)))
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "pose: a model and a pose with buffers are needed");
    sw_pose_rest(model, pose);
    if (!clip) return SW_OK;
    sw_sample_job job = {
        .clip = clip,
        .time = sw_clip_time(clip, time, looping),
        .cursors = pose->cursors && pose->cursor_count >= clip->track_count ? pose->cursors : NULL,
        .target_count = model->node_count,
        .out_local = pose->local,
        .weight_offsets = model->weight_offsets,
        .out_weights = pose->weights,
        .weight_count = model->weight_count,
    };
    /* The model's own clips were checked against it at import (targets,
       weight ranges, keys); any other clip is validated here, every call. */
    uintptr_t at = (uintptr_t)clip, first = (uintptr_t)model->animations;
    bool own = model->animations && at >= first && at < first + model->animation_count * sizeof(sw_clip);
    if (!own) {
        sw_result r = sw_sample_job_validate(&job, diag);
        if (r != SW_OK) return r;
    }
    sw_sample_job_run(&job);
    return SW_OK;
}

/* World matrix of node i from its parent's (already computed): the one
   body of the full and the partial pass, so both give the same bits. The
   kernels are sw_transform_to_mat34 and sw_mat34_mul, inline. */
static inline void sw__pose_world_of(sw_mat34* world, const sw_transform* local, const sw_model_node* nodes, size_t i) {
    const sw_model_node* node = &nodes[i];
    const int32_t parent = node->parent;
    if (node->has_matrix) {
        if (parent >= 0)
            sw__pose_mat34_mul(&world[i], &world[parent], &node->matrix);
        else
            world[i] = node->matrix;
    } else if (parent >= 0) {
        sw__pose_mul_trs(&world[i], &world[parent], &local[i]);
    } else {
        sw__pose_trs_to_mat34(&world[i], &local[i]);
    }
}

void sw_pose_update_world(const sw_model* model, sw_pose* pose) {
    SW_ASSERT(model && pose);
    SW_ASSERT((pose->local && pose->world) || model->node_count == 0);
    /* Parents come first, so each parent's world matrix is ready. */
    const sw_model_node* nodes = model->nodes;
    sw_mat34* world = pose->world;
    const sw_transform* local = pose->local;
    for (size_t i = 0; i < model->node_count; ++i) sw__pose_world_of(world, local, nodes, i);
}

void sw_pose_update_skins(const sw_model* model, sw_pose* pose) {
    SW_ASSERT(model && pose && (pose->skin_matrices || model->skin_joint_count == 0));
    const sw_mat34* world = pose->world;
    for (size_t s = 0; s < model->skin_count; ++s) {
        const sw_model_skin* skin = &model->skins[s];
        sw_mat34* matrices = pose->skin_matrices + skin->palette_offset;
        for (size_t j = 0; j < skin->joint_count; ++j)
            sw__pose_mat34_mul(&matrices[j], &world[skin->joints[j]], &skin->inverse_bind[j]);
        if (pose->skin_dual_quats && pose->skin_stretch) {
            size_t scaled = sw_skin_dual_quats(pose->skin_dual_quats + skin->palette_offset,
                                               pose->skin_stretch + skin->palette_offset, matrices, skin->joint_count);
            if (pose->skin_scaled) pose->skin_scaled[s] = scaled;
        }
    }
}

void sw_pose_update(const sw_model* model, sw_pose* pose) {
    sw_pose_update_world(model, pose);
    if (pose->skin_matrices) sw_pose_update_skins(model, pose);
}

sw_result sw_pose_evaluate(const sw_model* model, const sw_clip* clip, float time, bool looping, sw_pose* pose,
                           sw_diag* diag) {
    sw_result r = sw_pose_sample(model, clip, time, looping, pose, diag);
    if (r == SW_OK) sw_pose_update(model, pose);
    return r;
}

/* ---- partial update ------------------------------------------------------ */

void sw_pose_mark_subtree(const sw_model* model, uint8_t* dirty, size_t node) {
    SW_ASSERT(model && dirty && node < model->node_count);
    const sw_model_node* nodes = model->nodes;
    dirty[node] = 1;
    for (size_t i = node + 1; i < model->node_count; ++i)
        if (!dirty[i] && nodes[i].parent >= 0 && dirty[nodes[i].parent]) dirty[i] = 1;
}

size_t sw_pose_update_world_dirty(const sw_model* model, sw_pose* pose, uint8_t* dirty) {
    SW_ASSERT(model && pose);
    SW_ASSERT((pose->local && pose->world && dirty) || model->node_count == 0);
    const sw_model_node* nodes = model->nodes;
    sw_mat34* world = pose->world;
    const sw_transform* local = pose->local;
    size_t rewritten = 0;
    /* Propagation and update in one forward pass: a parent's mark (and
       its world matrix) is final before any child is reached. */
    for (size_t i = 0; i < model->node_count; ++i) {
        if (!dirty[i]) {
            const int32_t parent = nodes[i].parent;
            if (parent < 0 || !dirty[parent]) continue;
            dirty[i] = 1;
        }
        sw__pose_world_of(world, local, nodes, i);
        ++rewritten;
    }
    return rewritten;
}

/* Whether sw_skin_dual_quats counted this stretch as scaled: any entry of
   its 3×3 off the identity by more than 1e-5 (the test of
   src/skin/palette.c, written the same way so that NaN compares alike).
   tests/model/test_pose_dirty.c compares the counts with a full update. */
static bool sw__pose_stretch_scaled(const sw_mat34* k) {
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            if (fabsf(k->m[r][c] - (r == c ? 1.0f : 0.0f)) > 1e-5f) return true;
    return false;
}

void sw_pose_update_skins_dirty(const sw_model* model, sw_pose* pose, const uint8_t* dirty) {
    SW_ASSERT(model && pose && (pose->skin_matrices || model->skin_joint_count == 0));
    SW_ASSERT(dirty || model->skin_joint_count == 0);
    const sw_mat34* world = pose->world;
    const bool dual = pose->skin_dual_quats && pose->skin_stretch;
    for (size_t s = 0; s < model->skin_count; ++s) {
        const sw_model_skin* skin = &model->skins[s];
        sw_mat34* matrices = pose->skin_matrices + skin->palette_offset;
        bool any = false;
        /* Runs of consecutive marked joints: one sw_skin_dual_quats call
           each. Joints are independent, so a run gives the bits of the
           whole-skin call. */
        for (size_t j = 0; j < skin->joint_count;) {
            if (!dirty[skin->joints[j]]) {
                ++j;
                continue;
            }
            size_t first = j;
            for (; j < skin->joint_count && dirty[skin->joints[j]]; ++j)
                sw__pose_mat34_mul(&matrices[j], &world[skin->joints[j]], &skin->inverse_bind[j]);
            if (dual)
                sw_skin_dual_quats(pose->skin_dual_quats + skin->palette_offset + first,
                                   pose->skin_stretch + skin->palette_offset + first, matrices + first, j - first);
            any = true;
        }
        if (any && dual && pose->skin_scaled) {
            const sw_mat34* stretch = pose->skin_stretch + skin->palette_offset;
            size_t scaled = 0;
            for (size_t j = 0; j < skin->joint_count; ++j) scaled += sw__pose_stretch_scaled(&stretch[j]);
            pose->skin_scaled[s] = scaled;
        }
    }
}

size_t sw_pose_update_dirty(const sw_model* model, sw_pose* pose, uint8_t* dirty) {
    size_t rewritten = sw_pose_update_world_dirty(model, pose, dirty);
    if (pose->skin_matrices && rewritten) sw_pose_update_skins_dirty(model, pose, dirty);
    return rewritten;
}

/* ---- deforming one instance --------------------------------------------- */

typedef struct sw__deform_layout {
    size_t morphed_positions, morphed_normals; /* byte offsets into scratch, or SIZE_MAX */
    size_t total;
} sw__deform_layout;

static const sw_model_primitive* sw__primitive(const sw_model* model, size_t node, size_t primitive) {
    if (!model || node >= model->node_count) return NULL;
    int32_t mesh = model->nodes[node].mesh;
    if (mesh < 0 || (size_t)mesh >= model->mesh_count) return NULL;
    if (primitive >= model->meshes[mesh].primitive_count) return NULL;
    return &model->meshes[mesh].primitives[primitive];
}

static bool sw__is_skinned(const sw_model* model, size_t node, const sw_model_primitive* prim) {
    return model->nodes[node].skin >= 0 && prim->influence_count > 0;
}

static sw__deform_layout sw__layout(const sw_model_primitive* prim) {
    sw__deform_layout l = {SIZE_MAX, SIZE_MAX, 0};
    size_t vec3s = sw__align16(prim->vertex_count * 3 * sizeof(float)); /* the importer bounded vertex_count */
    if (prim->target_count > 0) {
        l.morphed_positions = l.total, l.total += vec3s;
        if (prim->normals) l.morphed_normals = l.total, l.total += vec3s;
    }
    return l;
}

size_t sw_deform_scratch_size(const sw_model* model, size_t node, size_t primitive) {
    const sw_model_primitive* prim = sw__primitive(model, node, primitive);
    return prim ? sw__layout(prim).total : 0;
}

/* Bind-space morph of one stream (3 floats per vertex) into `out`. */
static sw_result sw__morph_stream(const sw_model_primitive* prim, const float* weights, const float* base, bool normals,
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

sw_result sw_deform_primitive(const sw_model* model, const sw_pose* pose, const sw_deform* d, sw_diag* diag) {
    if (!model || !pose || !d || !pose->world || !d->out_positions)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "deform needs a model, a pose and out_positions");
    const sw_model_primitive* prim = sw__primitive(model, d->node, d->primitive);
    if (!prim)
        return sw_diag_set(diag, SW_ERR_INDEX_OUT_OF_RANGE, (int64_t)d->node, "node %zu has no mesh primitive %zu",
                           d->node, d->primitive);
    const sw_model_node* node = &model->nodes[d->node];
    sw__deform_layout l = sw__layout(prim);
    if (l.total && (!d->scratch || (uintptr_t)d->scratch % 16))
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "deform needs %zu bytes of 16-aligned scratch", l.total);
    uint8_t* scratch = (uint8_t*)d->scratch;
    if (prim->vertex_count == 0) return SW_OK;

    /* 1. Morph targets, in bind space. */
    const float* positions = prim->positions;
    const float* normals = prim->normals;
    if (prim->target_count > 0) {
        if (!pose->weights && model->weight_count)
            return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "deform of a morphed mesh needs pose weights");
        const float* weights = pose->weights + node->weight_offset;
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
    if (sw__is_skinned(model, d->node, prim)) {
        size_t skin = (size_t)node->skin;
        const sw_model_skin* s = &model->skins[skin];
        if (!pose->skin_matrices)
            return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "deform of a skinned mesh needs the pose's skin matrices");
        sw_skin_job job = {
            .method = d->method == SW_SKIN_DQS ? SW_SKIN_DQS : SW_SKIN_LBS,
            .vertex_count = prim->vertex_count,
            .influence_count = prim->influence_count,
            .joint_count = s->joint_count,
            .matrices = pose->skin_matrices + s->palette_offset,
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
            if (!pose->skin_dual_quats || !pose->skin_stretch || !pose->skin_scaled)
                return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "DQS deform needs the pose's dual quaternions");
            job.dual_quats = pose->skin_dual_quats + s->palette_offset;
            job.stretch = pose->skin_scaled[skin] ? pose->skin_stretch + s->palette_offset : NULL;
        }
        sw_result r = sw_skin_job_validate(&job, diag);
        if (r != SW_OK) return r;
        sw_skin_job_run(&job, 0, prim->vertex_count);
        return SW_OK;
    }

    /* 2b. Rigid: the node's world matrix; normals by M⁻ᵀ, taken as the
       cofactor det·M⁻ᵀ (no inverse, defined even when M is singular) with
       the sign of det removed, so mirrored nodes keep outward normals. */
    const sw_mat34* world = &pose->world[d->node];
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
