/* Clips from another file (sinew/retarget.h): merging by joint name, and
   retargeting through world space relative to each rig's rest pose (the
   humanoid maps they use are humanoid_map.c's). docs/retarget.md explains
   the rules. */
#include "sinew/retarget.h"

#include "sinew/pose.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "../base/base_internal.h"
#include "../math/mat3d_internal.h"
#include "../model/model_internal.h"

/* ---- owned clips ------------------------------------------------------------

   One block: the sw_clip, its tracks, then the float data, then the name. */

static size_t sw__round16(size_t n) { return (n + 15) & ~(size_t)15; }

typedef struct sw__clip_block {
    sw_clip* clip;
    sw_track* tracks;
    float* data;
    char* name;
} sw__clip_block;

static sw_result sw__clip_alloc(size_t track_count, size_t float_count, const char* name, sw__clip_block* out,
                                sw_diag* diag) {
    size_t tracks_bytes, floats_bytes, total;
    size_t name_len = name ? strlen(name) + 1 : 0;
    if (!sw_mul_size(track_count, sizeof(sw_track), &tracks_bytes) ||
        !sw_mul_size(float_count, sizeof(float), &floats_bytes) ||
        (total = sw__round16(sizeof(sw_clip)) + sw__round16(tracks_bytes)) < tracks_bytes ||
        total + floats_bytes < floats_bytes || total + floats_bytes + name_len < name_len)
        return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "clip of %zu tracks and %zu values is too large",
                           track_count, float_count);
    size_t tracks_at = sw__round16(sizeof(sw_clip));
    size_t floats_at = tracks_at + sw__round16(tracks_bytes);
    size_t name_at = floats_at + floats_bytes;
    uint8_t* block = sw__calloc(1, name_at + name_len + 1);
    if (!block) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for a clip of %zu tracks", track_count);
    out->clip = (sw_clip*)block;
    out->tracks = (sw_track*)(block + tracks_at);
    out->data = (float*)(block + floats_at);
    out->name = name ? (char*)(block + name_at) : NULL;
    if (name) memcpy(out->name, name, name_len);
    out->clip->name = out->name;
    out->clip->tracks = out->tracks;
    out->clip->track_count = track_count;
    return SW_OK;
}

void sw_clip_free(sw_clip* clip) { sw__free(clip); }

/* ---- merging by name --------------------------------------------------------- */

static size_t sw__floats_of(const sw_track* t) {
    return t->key_count * t->component_count * (t->interpolation == SW_INTERP_CUBICSPLINE ? 3u : 1u);
}

static size_t sw__node_weight_count(const sw_model* model, size_t node) {
    int32_t mesh = model->nodes[node].mesh;
    return mesh >= 0 && (size_t)mesh < model->mesh_count ? model->meshes[mesh].weight_count : 0;
}

sw_result sw_clip_merge_by_name(const sw_model* dst, const sw_model* src, const sw_clip* src_clip,
                                sw_clip** out_clip, size_t* out_dropped, sw_diag* diag) {
    if (out_clip) *out_clip = NULL;
    if (out_dropped) *out_dropped = 0;
    if (!dst || !src || !src_clip || !out_clip || (src_clip->track_count && !src_clip->tracks))
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "merge: models, a clip and an output are needed");
    size_t n = src_clip->track_count;
    int32_t* target = sw__malloc((n ? n : 1) * sizeof *target);
    if (!target) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory");
    size_t kept = 0, floats = 0, dropped = 0;
    uint32_t last_target = UINT32_MAX;
    int32_t last_node = -1;
    for (size_t i = 0; i < n; ++i) {
        const sw_track* t = &src_clip->tracks[i];
        /* Consecutive tracks usually share a target: look it up once. */
        if (t->target != last_target)
            last_node = t->target < src->node_count ? sw_model_find_node_by_name(dst, src->nodes[t->target].name) : -1;
        last_target = t->target;
        target[i] = last_node;
        if (last_node >= 0 && t->path == SW_PATH_WEIGHTS &&
            sw__node_weight_count(dst, (size_t)last_node) != t->component_count)
            target[i] = -1;
        if (target[i] < 0) {
            dropped++;
            continue;
        }
        kept++;
        floats += t->key_count + sw__floats_of(t);
    }
    sw__clip_block b;
    sw_result res = sw__clip_alloc(kept, floats, src_clip->name, &b, diag);
    if (res != SW_OK) {
        sw__free(target);
        return res;
    }
    float* at = b.data;
    size_t k = 0;
    for (size_t i = 0; i < n; ++i) {
        if (target[i] < 0) continue;
        const sw_track* t = &src_clip->tracks[i];
        sw_track* o = &b.tracks[k++];
        *o = *t;
        o->target = (uint32_t)target[i];
        memcpy(at, t->times, t->key_count * sizeof(float));
        o->times = at, at += t->key_count;
        memcpy(at, t->values, sw__floats_of(t) * sizeof(float));
        o->values = at, at += sw__floats_of(t);
    }
    sw__free(target);
    res = sw_clip_finish(b.clip, diag);
    if (res != SW_OK) {
        sw__free(b.clip);
        return res;
    }
    *out_clip = b.clip;
    if (out_dropped) *out_dropped = dropped;
    return SW_OK;
}

/* ---- retargeting: quaternions in double --------------------------------------

   Rotations are composed in double (mat3d_internal.h) so that a clip moved
   onto the same rig under other names comes back to float rounding. */

/* The shortest rotation turning unit vector a onto unit vector b: exactly
   the identity when they agree to 1e-15, and when they are opposite half a
   turn about an axis perpendicular to a. */
static sw__quatd sw__arc(sw__vec3d a, sw__vec3d b) {
    double d = sw__vec3d_dot(a, b);
    if (d >= 1.0 - 1e-15) return sw__quatd_identity();
    if (d <= -1.0 + 1e-12) {
        sw__quatd half_turn = fabs(a.x) > 0.9 ? (sw__quatd){-a.y, a.x, 0.0, 0.0} : (sw__quatd){0.0, -a.z, a.y, 0.0};
        return sw__quatd_normalize(half_turn);
    }
    return sw__quatd_arc(a, b);
}

/* The rotation of a matrix node's matrix (its polar factor). */
static sw__quatd sw__matrix_rotation(const sw_mat34* m) {
    sw_mat34 rigid, stretch;
    if (!sw_mat34_polar(m, &rigid, &stretch)) return sw__quatd_identity();
    return sw__quatd_of(sw_quat_from_mat34(&rigid));
}

/* World rotations of every node from local transforms (matrix nodes use
   their matrix's rotation). Scale is left out: chains are taken as
   uniformly scaled. */
static void sw__world_rotations(const sw_model* model, const sw_transform* local, sw__quatd* out) {
    for (size_t i = 0; i < model->node_count; ++i) {
        const sw_model_node* node = &model->nodes[i];
        sw__quatd q = node->has_matrix ? sw__matrix_rotation(&node->matrix) : sw__quatd_of(local[i].rotation);
        out[i] = node->parent >= 0 ? sw__quatd_mul(out[node->parent], q) : q;
    }
}

static sw_vec3 sw__position(const sw_mat34* m) { return sw_vec3_make(m->m[0][3], m->m[1][3], m->m[2][3]); }

/* The bone whose position gives `bone` its direction: its first child in
   the humanoid that both maps have, looking past children either lacks
   (spine → chest, else upperChest, neck, head). A hand points at its
   middle finger (else index, ring, little); head, eyes, jaw and the last
   joint of each chain have none. */
static sw_humanoid_bone sw__direction_bone(sw_humanoid_bone bone, const sw_humanoid_map* a, const sw_humanoid_map* b) {
    const char* name = sw_humanoid_bone_name(bone);
    if (!name) return SW_HUMANOID_NONE;
    if (bone == SW_HUMANOID_HEAD || bone == SW_HUMANOID_LEFT_EYE || bone == SW_HUMANOID_RIGHT_EYE ||
        bone == SW_HUMANOID_JAW)
        return SW_HUMANOID_NONE;
    if (bone == SW_HUMANOID_LEFT_HAND || bone == SW_HUMANOID_RIGHT_HAND) {
        static const char* const fingers[] = {"MiddleProximal", "IndexProximal", "RingProximal", "LittleProximal"};
        const char* side = bone == SW_HUMANOID_LEFT_HAND ? "left" : "right";
        for (int f = 0; f < 4; ++f) {
            char buf[64];
            sw_humanoid_bone c;
            strcpy(buf, side);
            strcat(buf, fingers[f]);
            if (sw_humanoid_bone_from_name(buf, &c) && a->node[c] >= 0 && b->node[c] >= 0) return c;
        }
        return SW_HUMANOID_NONE;
    }
    /* Down the chain through the first child (enum order: spine before the
       legs, neck before the shoulders, a finger's next joint). */
    sw_humanoid_bone at = bone;
    for (;;) {
        sw_humanoid_bone child = SW_HUMANOID_NONE;
        for (int c = 0; c < SW_HUMANOID_BONE_COUNT; ++c)
            if (sw_humanoid_parent_bone((sw_humanoid_bone)c) == at && c != SW_HUMANOID_LEFT_EYE &&
                c != SW_HUMANOID_RIGHT_EYE && c != SW_HUMANOID_JAW) {
                child = (sw_humanoid_bone)c;
                break;
            }
        if (child == SW_HUMANOID_NONE) return SW_HUMANOID_NONE;
        if (a->node[child] >= 0 && b->node[child] >= 0) return child;
        at = child;
    }
}

/* Mean rest length of the legs (upper + lower), over the sides mapped; 0 when none. */
static double sw__leg_length(const sw_humanoid_map* map, const sw_mat34* world) {
    static const sw_humanoid_bone legs[2][3] = {
        {SW_HUMANOID_LEFT_UPPER_LEG, SW_HUMANOID_LEFT_LOWER_LEG, SW_HUMANOID_LEFT_FOOT},
        {SW_HUMANOID_RIGHT_UPPER_LEG, SW_HUMANOID_RIGHT_LOWER_LEG, SW_HUMANOID_RIGHT_FOOT}};
    double sum = 0.0;
    int sides = 0;
    for (int s = 0; s < 2; ++s) {
        if (map->node[legs[s][0]] < 0 || map->node[legs[s][1]] < 0 || map->node[legs[s][2]] < 0) continue;
        sw_vec3 p0 = sw__position(&world[map->node[legs[s][0]]]);
        sw_vec3 p1 = sw__position(&world[map->node[legs[s][1]]]);
        sw_vec3 p2 = sw__position(&world[map->node[legs[s][2]]]);
        sum += (double)sw_vec3_length(sw_vec3_sub(p1, p0)) + (double)sw_vec3_length(sw_vec3_sub(p2, p1));
        sides++;
    }
    return sides ? sum / sides : 0.0;
}

static int sw__float_cmp(const void* a, const void* b) {
    float x = *(const float*)a, y = *(const float*)b;
    return x < y ? -1 : x > y;
}

/* The sample times (see sw_retarget_options.sample_rate) into a new array. */
static sw_result sw__sample_times(const sw_clip* clip, float rate, float** out, size_t* out_count, sw_diag* diag) {
    float start = clip->start, end = clip->duration;
    if (rate > 0.0f) {
        double n = floor(((double)end - (double)start) * (double)rate + 1e-4) + 1.0;
        if (!(n < (double)SW_RETARGET_MAX_SAMPLES))
            return sw_diag_set(diag, SW_ERR_UNSUPPORTED, -1, "clip of %g s at %g samples/s needs more than %u samples",
                               (double)(end - start), (double)rate, SW_RETARGET_MAX_SAMPLES);
        size_t count = (size_t)n;
        bool last = (double)start + (double)(count - 1) / (double)rate < (double)end - 1e-6;
        float* t = sw__malloc((count + 1) * sizeof *t);
        if (!t) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory");
        for (size_t i = 0; i < count; ++i) t[i] = (float)((double)start + (double)i / (double)rate);
        if (last) t[count++] = end;
        *out = t, *out_count = count;
        return SW_OK;
    }
    size_t total = 0;
    bool cubic = false;
    for (size_t i = 0; i < clip->track_count; ++i) {
        total += clip->tracks[i].key_count;
        cubic |= clip->tracks[i].interpolation == SW_INTERP_CUBICSPLINE;
        if (total > (size_t)64 * SW_RETARGET_MAX_SAMPLES)
            return sw_diag_set(diag, SW_ERR_UNSUPPORTED, -1, "clip has more than %u keys to sample",
                               64u * SW_RETARGET_MAX_SAMPLES);
    }
    float* all = sw__malloc((total ? total : 1) * sizeof *all);
    if (!all) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory");
    size_t n = 0;
    for (size_t i = 0; i < clip->track_count; ++i)
        for (size_t k = 0; k < clip->tracks[i].key_count; ++k) all[n++] = clip->tracks[i].times[k];
    if (n == 0) all[n++] = 0.0f;
    qsort(all, n, sizeof *all, sw__float_cmp);
    /* Keys of different tracks a rounding apart are one time. */
    size_t unique = 1;
    for (size_t i = 1; i < n; ++i)
        if (all[i] - all[unique - 1] > 1e-6f * fmaxf(1.0f, fabsf(all[i]))) all[unique++] = all[i];
    size_t count = unique;
    if (cubic)
        for (size_t i = 1; i < unique; ++i) count += (size_t)ceil((double)(all[i] - all[i - 1]) * 30.0 - 1e-6) - 1;
    if (count > SW_RETARGET_MAX_SAMPLES) {
        sw__free(all);
        return sw_diag_set(diag, SW_ERR_UNSUPPORTED, -1, "clip needs %zu samples (at most %u)", count,
                           SW_RETARGET_MAX_SAMPLES);
    }
    if (!cubic) {
        *out = all, *out_count = unique;
        return SW_OK;
    }
    float* t = sw__malloc(count * sizeof *t);
    if (!t) {
        sw__free(all);
        return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory");
    }
    size_t m = 0;
    t[m++] = all[0];
    for (size_t i = 1; i < unique; ++i) {
        size_t steps = (size_t)ceil((double)(all[i] - all[i - 1]) * 30.0 - 1e-6);
        for (size_t s = 1; s < steps; ++s)
            t[m++] = (float)((double)all[i - 1] + ((double)all[i] - (double)all[i - 1]) * (double)s / (double)steps);
        t[m++] = all[i];
    }
    sw__free(all);
    *out = t, *out_count = m;
    return SW_OK;
}

/* A pose bound to one new 16-aligned block; NULL when out of memory. */
static void* sw__pose_alloc(const sw_model* model, sw_pose* pose) {
    sw_pose_sizes sizes = sw_pose_sizes_of(model);
    void* memory = sw__aligned_alloc(16, sw_pose_memory_size(&sizes)); /* a multiple of 16 */
    if (memory) sw_pose_bind(pose, &sizes, memory);
    return memory;
}

/* One retargeting: the two rigs, the bones both maps have, both poses, the
   world rotations, and the clip being written. */
typedef struct sw__retarget {
    const sw_model *src, *dst;
    const sw_humanoid_map *src_map, *dst_map;
    int bones[SW_HUMANOID_BONE_COUNT]; /* humanoid bones, in destination order (parents first) */
    int bone_count;
    bool move_hips;
    sw_pose sp, dp;
    void *src_memory, *dst_memory;
    sw__quatd *src_rest_q, *src_q, *dst_rest_q, *dst_q; /* world rotations per node */
    int* drive;                                         /* per destination node: index into bones[], or -1 */
    sw__quatd fix[SW_HUMANOID_BONE_COUNT];              /* per bone: q_dst_world = q_src_world · fix */
    sw_vec3 src_hips_rest, dst_hips_rest;
    float hips_scale;
    uint32_t aligned; /* bones whose rest directions were turned to match */
    sw__clip_block blk;
} sw__retarget;

/* The bones both maps have, in destination order (parents first); a
   destination node takes one bone (the first), matrix nodes none. */
static sw_result sw__retarget_bones(sw__retarget* rt, sw_diag* diag) {
    const sw_model *src = rt->src, *dst = rt->dst;
    rt->bone_count = 0;
    for (int b = 0; b < SW_HUMANOID_BONE_COUNT; ++b) {
        int32_t s = rt->src_map->node[b], d = rt->dst_map->node[b];
        if (s < -1 || s >= (int64_t)src->node_count)
            return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, b, "retarget: source map's %s is node %d of %zu",
                               sw_humanoid_bone_name((sw_humanoid_bone)b), (int)s, src->node_count);
        if (d < -1 || d >= (int64_t)dst->node_count)
            return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, b, "retarget: destination map's %s is node %d of %zu",
                               sw_humanoid_bone_name((sw_humanoid_bone)b), (int)d, dst->node_count);
        if (s < 0 || d < 0 || dst->nodes[d].has_matrix) continue; /* matrix nodes are not animated */
        bool taken = false;
        for (int k = 0; k < rt->bone_count; ++k) taken |= rt->dst_map->node[rt->bones[k]] == d;
        if (!taken) rt->bones[rt->bone_count++] = b;
    }
    if (rt->bone_count == 0)
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "retarget: the two humanoid maps share no bone");
    return SW_OK;
}

/* Both poses and the per-node rotation arrays; false when out of memory. */
static bool sw__retarget_alloc(sw__retarget* rt) {
    rt->src_memory = sw__pose_alloc(rt->src, &rt->sp);
    rt->dst_memory = sw__pose_alloc(rt->dst, &rt->dp);
    size_t sn = rt->src->node_count ? rt->src->node_count : 1, dn = rt->dst->node_count ? rt->dst->node_count : 1;
    rt->src_rest_q = sw__malloc(sn * sizeof *rt->src_rest_q), rt->src_q = sw__malloc(sn * sizeof *rt->src_q);
    rt->dst_rest_q = sw__malloc(dn * sizeof *rt->dst_rest_q), rt->dst_q = sw__malloc(dn * sizeof *rt->dst_q);
    rt->drive = sw__malloc(dn * sizeof *rt->drive);
    return rt->src_memory && rt->dst_memory && rt->src_rest_q && rt->src_q && rt->dst_rest_q && rt->dst_q && rt->drive;
}

static void sw__retarget_free(sw__retarget* rt) {
    sw__free(rt->blk.clip);
    sw__aligned_free(rt->src_memory), sw__aligned_free(rt->dst_memory);
    sw__free(rt->src_rest_q), sw__free(rt->src_q), sw__free(rt->dst_rest_q), sw__free(rt->dst_q), sw__free(rt->drive);
}

/* Both rigs at rest: their world rotations, the hips' rest positions and
   scale, and per bone fix = q_src_rest⁻¹ · A · q_dst_rest (A turns the
   destination's rest direction onto the source's with MATCH_REST), so
   that q_dst_world(t) = q_src_world(t) · fix. dp.world keeps the
   destination's rest until the first sample. */
static void sw__retarget_rest(sw__retarget* rt, const sw_retarget_options* opt) {
    const sw_model *src = rt->src, *dst = rt->dst;
    const sw_humanoid_map *src_map = rt->src_map, *dst_map = rt->dst_map;
    sw_pose_rest(src, &rt->sp);
    sw_pose_update_world(src, &rt->sp);
    sw__world_rotations(src, rt->sp.local, rt->src_rest_q);
    sw_pose_rest(dst, &rt->dp);
    sw_pose_update_world(dst, &rt->dp);
    sw__world_rotations(dst, rt->dp.local, rt->dst_rest_q);
    rt->src_hips_rest = sw_vec3_make(0, 0, 0), rt->dst_hips_rest = sw_vec3_make(0, 0, 0);
    rt->hips_scale = 1.0f;
    if (rt->move_hips) {
        rt->src_hips_rest = sw__position(&rt->sp.world[src_map->node[SW_HUMANOID_HIPS]]);
        rt->dst_hips_rest = sw__position(&rt->dp.world[dst_map->node[SW_HUMANOID_HIPS]]);
        if (opt->hips == SW_RETARGET_HIPS_SCALED) {
            double ls = sw__leg_length(src_map, rt->sp.world), ld = sw__leg_length(dst_map, rt->dp.world);
            if (!(ls > 0.0 && ld > 0.0)) ls = rt->src_hips_rest.y, ld = rt->dst_hips_rest.y; /* hip heights */
            if (ls > 1e-9 && ld > 1e-9 && isfinite(ld / ls)) rt->hips_scale = (float)(ld / ls);
        }
    }
    rt->aligned = 0;
    for (size_t i = 0; i < dst->node_count; ++i) rt->drive[i] = -1;
    for (int k = 0; k < rt->bone_count; ++k) {
        sw_humanoid_bone b = (sw_humanoid_bone)rt->bones[k];
        int32_t s = src_map->node[b], d = dst_map->node[b];
        sw__quatd align = sw__quatd_identity();
        sw_humanoid_bone c =
            opt->reference == SW_RETARGET_MATCH_REST ? sw__direction_bone(b, src_map, dst_map) : SW_HUMANOID_NONE;
        if (c != SW_HUMANOID_NONE) {
            sw_vec3 vs = sw_vec3_sub(sw__position(&rt->sp.world[src_map->node[c]]), sw__position(&rt->sp.world[s]));
            sw_vec3 vd = sw_vec3_sub(sw__position(&rt->dp.world[dst_map->node[c]]), sw__position(&rt->dp.world[d]));
            double ls = sw_vec3_length(vs), ld = sw_vec3_length(vd);
            if (ls > 1e-12 && ld > 1e-12) {
                align = sw__arc(sw__vec3d_make(vd.x / ld, vd.y / ld, vd.z / ld),
                                sw__vec3d_make(vs.x / ls, vs.y / ls, vs.z / ls));
                if (fabs(align.w) < cos(0.5 * 0.01 * 3.14159265358979323846 / 180.0)) rt->aligned++;
            }
        }
        rt->fix[k] = sw__quatd_mul(sw__quatd_mul(sw__quatd_conj(rt->src_rest_q[s]), align), rt->dst_rest_q[d]);
        rt->drive[d] = k;
    }
}

/* The clip: one rotation track per bone, then a translation track for the
   hips, all on the sample times (copied in), STEP when every source track
   is, else LINEAR. */
static sw_result sw__retarget_layout(sw__retarget* rt, const sw_clip* src_clip, const float* times, size_t sample_count,
                                     sw_diag* diag) {
    size_t track_count = (size_t)rt->bone_count + (rt->move_hips ? 1u : 0u);
    size_t floats = sample_count * (1u + 4u * (size_t)rt->bone_count + (rt->move_hips ? 3u : 0u));
    sw_result res = sw__clip_alloc(track_count, floats, src_clip->name, &rt->blk, diag);
    if (res != SW_OK) return res;
    bool all_step = src_clip->track_count > 0;
    for (size_t i = 0; i < src_clip->track_count; ++i) all_step &= src_clip->tracks[i].interpolation == SW_INTERP_STEP;
    float* out_times = rt->blk.data;
    memcpy(out_times, times, sample_count * sizeof *times);
    float* values = out_times + sample_count;
    for (size_t k = 0; k < track_count; ++k) {
        sw_track* t = &rt->blk.tracks[k];
        bool hips_track = k == (size_t)rt->bone_count;
        t->target = (uint32_t)(hips_track ? rt->dst_map->node[SW_HUMANOID_HIPS] : rt->dst_map->node[rt->bones[k]]);
        t->path = hips_track ? SW_PATH_TRANSLATION : SW_PATH_ROTATION;
        t->interpolation = all_step ? SW_INTERP_STEP : SW_INTERP_LINEAR;
        t->component_count = hips_track ? 3u : 4u;
        t->key_count = sample_count;
        t->times = out_times;
        t->values = values;
        values += sample_count * t->component_count;
    }
    return SW_OK;
}

/* Key `si` of every track, from the source posed at that time (rt->sp):
   the destination, parents first, each driven bone's world rotation made
   local through its parent's world rotation at this time, and the hips'
   displacement from rest. */
static void sw__retarget_keys(sw__retarget* rt, size_t si) {
    const sw_model* dst = rt->dst;
    int32_t src_hips = rt->src_map->node[SW_HUMANOID_HIPS], dst_hips = rt->dst_map->node[SW_HUMANOID_HIPS];
    sw__world_rotations(rt->src, rt->sp.local, rt->src_q);
    sw_pose_rest(dst, &rt->dp);
    for (size_t i = 0; i < dst->node_count; ++i) {
        const sw_model_node* node = &dst->nodes[i];
        int k = rt->drive[i];
        if (k < 0 || node->has_matrix) {
            sw__quatd q =
                node->has_matrix ? sw__matrix_rotation(&node->matrix) : sw__quatd_of(rt->dp.local[i].rotation);
            rt->dst_q[i] = node->parent >= 0 ? sw__quatd_mul(rt->dst_q[node->parent], q) : q;
        } else {
            sw__quatd world =
                sw__quatd_normalize(sw__quatd_mul(rt->src_q[rt->src_map->node[rt->bones[k]]], rt->fix[k]));
            sw__quatd local = node->parent >= 0 ? sw__quatd_mul(sw__quatd_conj(rt->dst_q[node->parent]), world) : world;
            local = sw__quatd_normalize(local);
            rt->dst_q[i] = world;
            float* v = (float*)rt->blk.tracks[k].values + si * 4u;
            /* Continuous signs, so that keys interpolate the short way. */
            if (si > 0 && v[-4] * local.x + v[-3] * local.y + v[-2] * local.z + v[-1] * local.w < 0.0)
                local = (sw__quatd){-local.x, -local.y, -local.z, -local.w};
            v[0] = (float)local.x, v[1] = (float)local.y, v[2] = (float)local.z, v[3] = (float)local.w;
            rt->dp.local[i].rotation = (sw_quat){(float)local.x, (float)local.y, (float)local.z, (float)local.w};
        }
        if (rt->move_hips && (int32_t)i == dst_hips) {
            /* The source's displacement from rest, in world axes, scaled. */
            sw_vec3 move = sw_vec3_sub(sw__position(&rt->sp.world[src_hips]), rt->src_hips_rest);
            sw_vec3 want = sw_vec3_add(rt->dst_hips_rest, sw_vec3_scale(move, rt->hips_scale));
            if (node->parent >= 0) {
                sw_mat34 inv;
                if (sw_mat34_inverse(&inv, &rt->dp.world[node->parent])) want = sw_mat34_apply_point(&inv, want);
            }
            float* v = (float*)rt->blk.tracks[rt->bone_count].values + si * 3u;
            v[0] = want.x, v[1] = want.y, v[2] = want.z;
            rt->dp.local[i].translation = want;
        }
        /* World matrices, for the hips' parent at this time. */
        if (node->has_matrix) {
            rt->dp.world[i] =
                node->parent >= 0 ? sw_mat34_mul(&rt->dp.world[node->parent], &node->matrix) : node->matrix;
        } else {
            sw_mat34 m = sw_transform_to_mat34(&rt->dp.local[i]);
            rt->dp.world[i] = node->parent >= 0 ? sw_mat34_mul(&rt->dp.world[node->parent], &m) : m;
        }
    }
}

sw_result sw_retarget_clip(const sw_model* src, const sw_humanoid_map* src_map, const sw_clip* src_clip,
                           const sw_model* dst, const sw_humanoid_map* dst_map, const sw_retarget_options* options,
                           sw_clip** out_clip, sw_retarget_info* out_info, sw_diag* diag) {
    if (out_clip) *out_clip = NULL;
    if (out_info) *out_info = (sw_retarget_info){0};
    if (!src || !src_map || !src_clip || !dst || !dst_map || !out_clip)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1,
                           "retarget: models, maps, a clip and an output are needed");
    sw_retarget_options opt = options ? *options : (sw_retarget_options){0};
    if (!(opt.sample_rate >= 0.0f) || !isfinite(opt.sample_rate))
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "retarget: sample rate %g is not finite and ≥ 0",
                           (double)opt.sample_rate);
    sw__retarget rt = {.src = src, .dst = dst, .src_map = src_map, .dst_map = dst_map};
    sw_result res = sw__retarget_bones(&rt, diag);
    if (res != SW_OK) return res;
    rt.move_hips = opt.hips != SW_RETARGET_HIPS_NONE && src_map->node[SW_HUMANOID_HIPS] >= 0 &&
                   dst_map->node[SW_HUMANOID_HIPS] >= 0 && !dst->nodes[dst_map->node[SW_HUMANOID_HIPS]].has_matrix;

    float* times = NULL;
    size_t sample_count = 0;
    res = sw__sample_times(src_clip, opt.sample_rate, &times, &sample_count, diag);
    if (res != SW_OK) return res;
    if (!sw__retarget_alloc(&rt)) {
        res = sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory");
        goto done;
    }
    sw__retarget_rest(&rt, &opt);
    res = sw__retarget_layout(&rt, src_clip, times, sample_count, diag);
    if (res != SW_OK) goto done;
    for (size_t si = 0; si < sample_count; ++si) {
        res = sw_pose_sample(src, src_clip, times[si], false, &rt.sp, diag);
        if (res != SW_OK) goto done;
        sw_pose_update_world(src, &rt.sp);
        sw__retarget_keys(&rt, si);
    }
    res = sw_clip_finish(rt.blk.clip, diag);
    if (res != SW_OK) goto done;
    *out_clip = rt.blk.clip;
    rt.blk.clip = NULL;
    if (out_info) {
        out_info->bones = (uint32_t)rt.bone_count;
        out_info->aligned = rt.aligned;
        out_info->hips_scale = rt.move_hips ? rt.hips_scale : 1.0f;
        out_info->sample_count = sample_count;
    }
done:
    sw__free(times);
    sw__retarget_free(&rt);
    return res;
}
