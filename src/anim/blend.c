/* Pose blending: weighted and masked layers, the rest pose below the
   threshold, additive layers on top (see sinew/anim.h). */
#include "sinew/anim.h"

#define SW__BLEND_DEFAULT_THRESHOLD 0.1f

static float sw__blend_threshold(const sw_blend_job* job) {
    return job->threshold == 0.0f ? SW__BLEND_DEFAULT_THRESHOLD : job->threshold;
}

/* One layer: pointers, coverage and weights. `max_weight` is 1 for
   additive layers (their weights interpolate deltas), +∞ for normal ones. */
static sw_result sw__blend_layer_check(const sw_blend_layer* layer, size_t joint_count, float max_weight,
                                       const char* kind, size_t index, int64_t diag_index, sw_diag* diag) {
    if (!layer->pose)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, diag_index, "%s layer %zu has no pose", kind, index);
    if (layer->pose_count < joint_count)
        return sw_diag_set(diag, SW_ERR_BUFFER_TOO_SMALL, diag_index,
                           "%s layer %zu has a pose of %zu transforms for %zu joints", kind, index,
                           layer->pose_count, joint_count);
    if (!isfinite(layer->weight) || layer->weight < 0.0f || layer->weight > max_weight)
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, diag_index, "%s layer %zu has weight %g (allowed 0..%s)", kind,
                           index, (double)layer->weight, max_weight > 1.0f ? "any finite" : "1");
    if (!layer->joint_weights) {
        if (layer->joint_weight_count != 0)
            return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, diag_index,
                               "%s layer %zu has joint_weight_count %zu but no joint_weights", kind, index,
                               layer->joint_weight_count);
        return SW_OK;
    }
    if (layer->joint_weight_count < joint_count)
        return sw_diag_set(diag, SW_ERR_BUFFER_TOO_SMALL, diag_index,
                           "%s layer %zu has %zu joint weights for %zu joints", kind, index, layer->joint_weight_count,
                           joint_count);
    for (size_t j = 0; j < joint_count; j++) {
        float w = layer->joint_weights[j];
        if (!isfinite(w) || w < 0.0f || w > max_weight)
            return sw_diag_set(diag, SW_ERR_INVALID_DATA, diag_index,
                               "%s layer %zu: joint weight %zu is %g (allowed 0..%s)", kind, index, j, (double)w,
                               max_weight > 1.0f ? "any finite" : "1");
    }
    return SW_OK;
}

sw_result sw_blend_job_validate(const sw_blend_job* job, sw_diag* diag) {
    if (!job) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "blend job is NULL");
    if (job->joint_count == 0 || job->joint_count > SW_MAX_JOINTS)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "blend job has %zu joints (allowed 1..%d)",
                           job->joint_count, SW_MAX_JOINTS);
    if (!job->rest_pose || !job->out_local)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "blend job needs rest_pose and out_local");
    if ((job->layer_count > 0 && !job->layers) || (job->additive_layer_count > 0 && !job->additive_layers))
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "blend job has a layer count but no layer array");
    const float threshold = sw__blend_threshold(job);
    if (!isfinite(threshold) || !(threshold > 0.0f))
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "blend threshold %g must be finite and > 0",
                           (double)job->threshold);
    for (size_t i = 0; i < job->layer_count; i++) {
        sw_result res = sw__blend_layer_check(&job->layers[i], job->joint_count, INFINITY, "blend", i, (int64_t)i, diag);
        if (res != SW_OK) return res;
    }
    for (size_t i = 0; i < job->additive_layer_count; i++) {
        sw_result res = sw__blend_layer_check(&job->additive_layers[i], job->joint_count, 1.0f, "additive", i,
                                              (int64_t)(job->layer_count + i), diag);
        if (res != SW_OK) return res;
    }
    return SW_OK;
}

static float sw__layer_weight(const sw_blend_layer* layer, size_t joint) {
    return layer->joint_weights ? layer->weight * layer->joint_weights[joint] : layer->weight;
}

void sw_blend_job_run(const sw_blend_job* job) {
    SW_ASSERT(job && job->rest_pose && job->out_local);
    const float threshold = sw__blend_threshold(job);
    for (size_t j = 0; j < job->joint_count; j++) {
        /* 1. Normal layers: weighted sums, rotations sign-aligned to the sum so far. */
        sw_vec3 t = {0.0f, 0.0f, 0.0f}, s = {0.0f, 0.0f, 0.0f};
        sw_quat q = {0.0f, 0.0f, 0.0f, 0.0f};
        float total = 0.0f;
        for (size_t i = 0; i < job->layer_count; i++) {
            const sw_blend_layer* layer = &job->layers[i];
            SW_ASSERT(layer->pose && layer->pose_count >= job->joint_count);
            const float w = sw__layer_weight(layer, j);
            if (!(w > 0.0f)) continue;
            const sw_transform* x = &layer->pose[j];
            t = sw_vec3_add(t, sw_vec3_scale(x->translation, w));
            s = sw_vec3_add(s, sw_vec3_scale(x->scale, w));
            const float wq = sw_quat_dot(q, x->rotation) < 0.0f ? -w : w;
            q = (sw_quat){q.x + wq * x->rotation.x, q.y + wq * x->rotation.y, q.z + wq * x->rotation.z,
                          q.w + wq * x->rotation.w};
            total += w;
        }

        /* 2. The rest pose: all of it with no weight, topped up to the
           threshold below it. */
        const sw_transform* rest = &job->rest_pose[j];
        sw_transform out;
        if (total == 0.0f) {
            out = *rest;
        } else {
            if (total < threshold) {
                const float w = threshold - total;
                t = sw_vec3_add(t, sw_vec3_scale(rest->translation, w));
                s = sw_vec3_add(s, sw_vec3_scale(rest->scale, w));
                const float wq = sw_quat_dot(q, rest->rotation) < 0.0f ? -w : w;
                q = (sw_quat){q.x + wq * rest->rotation.x, q.y + wq * rest->rotation.y, q.z + wq * rest->rotation.z,
                              q.w + wq * rest->rotation.w};
                total = threshold;
            }
            out.translation = sw_vec3_make(t.x / total, t.y / total, t.z / total);
            out.scale = sw_vec3_make(s.x / total, s.y / total, s.z / total);
            /* Aligned terms never cancel, so |q| ≥ the largest weight > 0. */
            out.rotation = sw_quat_normalize(q);
        }

        /* 3. Additive layers, in order. */
        bool added = false;
        for (size_t i = 0; i < job->additive_layer_count; i++) {
            const sw_blend_layer* layer = &job->additive_layers[i];
            SW_ASSERT(layer->pose && layer->pose_count >= job->joint_count);
            const float w = sw__layer_weight(layer, j);
            if (!(w > 0.0f)) continue;
            const sw_transform* d = &layer->pose[j];
            out.translation = sw_vec3_add(out.translation, sw_vec3_scale(d->translation, w));
            /* slerp from identity takes the shorter arc: Δq or −Δq, whichever has w ≥ 0. */
            const sw_quat turn = w == 1.0f ? d->rotation : sw_quat_slerp_fast(sw_quat_identity(), d->rotation, w);
            out.rotation = sw_quat_mul(turn, out.rotation);
            out.scale = sw_vec3_mul(out.scale, sw_vec3_make(1.0f + (d->scale.x - 1.0f) * w, 1.0f + (d->scale.y - 1.0f) * w,
                                                            1.0f + (d->scale.z - 1.0f) * w));
            added = true;
        }
        if (added) out.rotation = sw_quat_normalize(out.rotation);
        job->out_local[j] = out;
    }
}

void sw_additive_delta(sw_transform* out_delta, const sw_transform* pose, const sw_transform* reference,
                       size_t joint_count) {
    SW_ASSERT((out_delta && pose && reference) || joint_count == 0);
    for (size_t j = 0; j < joint_count; j++) {
        const sw_transform p = pose[j], r = reference[j];
        out_delta[j].translation = sw_vec3_sub(p.translation, r.translation);
        out_delta[j].rotation = sw_quat_normalize(sw_quat_mul(p.rotation, sw_quat_conjugate(r.rotation)));
        out_delta[j].scale = sw_vec3_make(p.scale.x / r.scale.x, p.scale.y / r.scale.y, p.scale.z / r.scale.z);
    }
}
