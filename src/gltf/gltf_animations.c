/* glTF loader: animations — samplers, channels and the clips they become
   (see gltf_internal.h). */
#include <math.h>
#include <string.h>

#include "gltf_internal.h"

/* ---- animations ------------------------------------------------------------------------ */

/* Key times of an input accessor: decoded once, checked finite, ≥ 0 and
   strictly increasing (the spec's MUSTs). */
static const float* sw__key_times(sw__loader* L, const char* where, uint32_t input) {
    if (L->times[input]) return L->times[input];
    const sw__gltf_accessor* a;
    if (sw__use_accessor(L, where, input, SW__SCALAR, SW__FLOAT, &a) != SW_OK) return NULL;
    float* times = sw__decode_floats(L, where, input, a, false);
    if (!times) return NULL;
    if (times[0] < 0.0f) {
        sw__fail(L, SW_ERR_INVALID_DATA, where, "key 0 is at %g s; key times must be >= 0", (double)times[0]);
        return NULL;
    }
    for (size_t k = 1; k < a->count; k++) {
        if (!(times[k] > times[k - 1])) {
            sw__fail(L, SW_ERR_INVALID_DATA, where,
                     "key %zu (%g s) is not after key %zu (%g s): key times must be strictly increasing", k,
                     (double)times[k], k - 1, (double)times[k - 1]);
            L->diag.index = (int64_t)k;
            return NULL;
        }
    }
    L->times[input] = times;
    return times;
}

typedef struct sw__anim_sampler {
    int32_t input, output;
    sw_interpolation interpolation;
} sw__anim_sampler;

/* A rotation channel's keys made unit quaternions (zero ones become the
   identity), with a warning for each kind of change. Only values are
   unit quaternions; CUBICSPLINE tangents are not. */
static void sw__normalise_rotation_keys(sw__loader* L, const char* path, float* values, size_t keys, bool cubic,
                                        size_t node) {
    size_t zero = 0, non_unit = 0, worst = 0;
    double worst_length = 1.0;
    for (size_t k = 0; k < keys; k++) {
        float* q = &values[(cubic ? 3 * k + 1 : k) * 4];
        double length = sqrt((double)q[0] * q[0] + (double)q[1] * q[1] + (double)q[2] * q[2] + (double)q[3] * q[3]);
        if (length < 1e-6) {
            zero++;
            q[0] = q[1] = q[2] = 0.0f;
            q[3] = 1.0f;
            continue;
        }
        /* the node rotation's tolerance; exporters stay within 1e-6 */
        if (fabs(length - 1.0) > 1e-3) {
            if (non_unit++ == 0 || fabs(length - 1.0) > fabs(worst_length - 1.0)) worst = k, worst_length = length;
        }
        for (int c = 0; c < 4; c++) q[c] = (float)(q[c] / length);
    }
    if (zero) sw__warn(L, path, "%zu zero quaternions replaced by identity", zero);
    if (non_unit)
        sw__warn(L, path,
                 "%zu of the %zu rotation keys of nodes[%zu] are not unit quaternions (worst: key %zu, length %g); "
                 "normalised",
                 non_unit, keys, node, worst, worst_length);
}

static sw_result sw__parse_channel(sw__loader* L, const cJSON* j, const char* path, const char* anim_path,
                                   const sw__anim_sampler* samplers, size_t sampler_count, uint8_t* targeted,
                                   sw_track* track, bool* kept) {
    *kept = false;
    const cJSON* target;
    const char* path_name;
    size_t sampler = 0;
    if (sw__get_uint(L, j, path, "sampler", true, sw__max_size, &sampler) != SW_OK ||
        sw__get_object(L, j, path, "target", true, &target) != SW_OK)
        return L->diag.result;
    if (sampler >= sampler_count)
        return sw__fail(L, SW_ERR_INDEX_OUT_OF_RANGE, sw__at(path, "sampler").s, "%zu is out of range (%zu samplers)",
                        sampler, sampler_count);
    sw__path tp = sw__at(path, "target");
    if (sw__get_string(L, target, tp.s, "path", true, &path_name) != SW_OK) return L->diag.result;
    const cJSON* node_value = sw__member(target, "node");
    size_t node = 0;
    if (node_value && sw__value_uint(L, node_value, sw__at(tp.s, "node").s, sw__max_size, &node) != SW_OK)
        return L->diag.result;

    sw_track_path track_path;
    if (strcmp(path_name, "translation") == 0) track_path = SW_PATH_TRANSLATION;
    else if (strcmp(path_name, "rotation") == 0) track_path = SW_PATH_ROTATION;
    else if (strcmp(path_name, "scale") == 0) track_path = SW_PATH_SCALE;
    else if (strcmp(path_name, "weights") == 0) track_path = SW_PATH_WEIGHTS;
    else {
        sw__warn(L, sw__at(tp.s, "path").s, "'%s' is not supported; channel skipped", path_name);
        return SW_OK;
    }
    if (!node_value) {
        sw__warn(L, tp.s, "no node (an extension's target?); channel skipped");
        return SW_OK;
    }
    if (node >= L->nodes.count) {
        sw__warn(L, sw__at(tp.s, "node").s, "nodes[%zu] does not exist (%zu nodes); channel skipped", node,
                 L->nodes.count);
        return SW_OK;
    }
    sw_model_node* n = &L->nodes_out[node];
    size_t components = track_path == SW_PATH_ROTATION ? 4 : 3;
    if (track_path == SW_PATH_WEIGHTS) {
        components = n->mesh >= 0 ? L->meshes_out[n->mesh].weight_count : 0;
        if (components == 0) {
            sw__warn(L, tp.s, "weights of nodes[%zu], whose mesh has no morph targets; channel skipped", node);
            return SW_OK;
        }
    }
    uint8_t bit = (uint8_t)(1u << track_path);
    if (targeted[node] & bit)
        sw__warn(L, tp.s, "a second channel for the %s of nodes[%zu] (the later one wins)", path_name, node);
    targeted[node] |= bit;

    const sw__anim_sampler* s = &samplers[sampler];
    sw__path sp = sw__pathf("%s.samplers[%zu]", anim_path, sampler);
    const float* times = sw__key_times(L, sw__at(sp.s, "input").s, (uint32_t)s->input);
    if (!times) return L->diag.result;
    size_t keys = L->acc[s->input].count;
    bool cubic = s->interpolation == SW_INTERP_CUBICSPLINE;
    if (cubic && keys < 2)
        return sw__fail(L, SW_ERR_INVALID_DATA, sw__at(sp.s, "input").s, "CUBICSPLINE needs at least 2 keys, has %zu",
                        keys);
    sw__path op = sw__at(sp.s, "output");
    unsigned type = track_path == SW_PATH_WEIGHTS ? SW__SCALAR : track_path == SW_PATH_ROTATION ? SW__VEC4 : SW__VEC3;
    unsigned allow = track_path == SW_PATH_ROTATION || track_path == SW_PATH_WEIGHTS ? SW__FLOAT | SW__NORM : SW__FLOAT;
    const sw__gltf_accessor* out;
    if (sw__use_accessor(L, op.s, (uint32_t)s->output, type, allow, &out) != SW_OK) return L->diag.result;
    size_t expected = keys * (cubic ? 3 : 1) * (track_path == SW_PATH_WEIGHTS ? components : 1);
    if (out->count != expected)
        return sw__fail(L, SW_ERR_INVALID_DATA, op.s, "accessors[%d] has %zu elements; %zu keys%s%s need %zu",
                        (int)s->output, out->count, keys, cubic ? " (CUBICSPLINE: 3 per key)" : "",
                        track_path == SW_PATH_WEIGHTS ? " of morph weights" : "", expected);
    float* values = sw__decode_floats(L, op.s, (uint32_t)s->output, out, false);
    if (!values) return L->diag.result;
    if (track_path == SW_PATH_ROTATION) sw__normalise_rotation_keys(L, op.s, values, keys, cubic, node);
    if (track_path != SW_PATH_WEIGHTS && n->has_matrix) {
        /* glTF forbids animating a matrix node; turn it into TRS so the
           animation has something to drive. */
        bool exact;
        n->trs = sw_transform_from_mat34(&n->matrix, &exact);
        n->matrix = sw_mat34_identity();
        n->has_matrix = false;
        sw__warn(L, sw__pathf("nodes[%zu]", node).s,
                 "animated but given as a matrix; decomposed into translation/rotation/scale%s",
                 exact ? "" : " (its shear is lost)");
    }
    *track = (sw_track){.target = (uint32_t)node,
                        .path = track_path,
                        .interpolation = s->interpolation,
                        .component_count = (uint32_t)components,
                        .key_count = keys,
                        .times = times,
                        .values = values};
    *kept = true;
    return SW_OK;
}

sw_result sw__parse_animations(sw__loader* L) {
    size_t n = L->animations.count;
    if (n == 0) return SW_OK;
    sw_clip* clips = sw__array(L, L->arena, n, sizeof *clips);
    uint8_t* targeted = sw__array(L, &L->scratch, L->nodes.count ? L->nodes.count : 1, 1);
    if (!clips || !targeted) return L->diag.result;
    for (size_t i = 0; i < n; i++) {
        const cJSON* j = L->animations.items[i];
        sw__path path = sw__pathf("animations[%zu]", i);
        const cJSON *channels, *samplers;
        if (sw__get_name(L, j, path.s, &clips[i].name) != SW_OK ||
            sw__get_array(L, j, path.s, "channels", true, &channels) != SW_OK ||
            sw__get_array(L, j, path.s, "samplers", true, &samplers) != SW_OK)
            return L->diag.result;
        size_t sampler_count = (size_t)cJSON_GetArraySize(samplers);
        size_t channel_count = (size_t)cJSON_GetArraySize(channels);
        sw__anim_sampler* s = sw__array(L, &L->scratch, sampler_count ? sampler_count : 1, sizeof *s);
        sw_track* tracks = sw__array(L, L->arena, channel_count ? channel_count : 1, sizeof *tracks);
        if (!s || !tracks) return L->diag.result;
        size_t k = 0;
        const cJSON* e;
        cJSON_ArrayForEach(e, samplers) {
            sw__path sp = sw__pathf("%s.samplers[%zu]", path.s, k);
            const char* interpolation;
            if (!cJSON_IsObject(e)) return sw__fail(L, SW_ERR_INVALID_DATA, sp.s, "expected an object");
            if (sw__get_index(L, e, sp.s, "input", true, &L->accessors, "accessors", &s[k].input) != SW_OK ||
                sw__get_index(L, e, sp.s, "output", true, &L->accessors, "accessors", &s[k].output) != SW_OK ||
                sw__get_string(L, e, sp.s, "interpolation", false, &interpolation) != SW_OK)
                return L->diag.result;
            if (!interpolation || strcmp(interpolation, "LINEAR") == 0) s[k].interpolation = SW_INTERP_LINEAR;
            else if (strcmp(interpolation, "STEP") == 0) s[k].interpolation = SW_INTERP_STEP;
            else if (strcmp(interpolation, "CUBICSPLINE") == 0) s[k].interpolation = SW_INTERP_CUBICSPLINE;
            else
                return sw__fail(L, SW_ERR_INVALID_DATA, sw__at(sp.s, "interpolation").s,
                                "'%s' is not LINEAR, STEP or CUBICSPLINE", interpolation);
            k++;
        }
        memset(targeted, 0, L->nodes.count);
        size_t kept_count = 0, c = 0;
        cJSON_ArrayForEach(e, channels) {
            sw__path cp = sw__pathf("%s.channels[%zu]", path.s, c++);
            bool kept;
            if (!cJSON_IsObject(e)) return sw__fail(L, SW_ERR_INVALID_DATA, cp.s, "expected an object");
            if (sw__parse_channel(L, e, cp.s, path.s, s, sampler_count, targeted, &tracks[kept_count], &kept) != SW_OK)
                return L->diag.result;
            kept_count += kept;
        }
        clips[i].tracks = tracks;
        clips[i].track_count = kept_count;
        /* Start and duration from the core. Its track validation cannot
           fail here: every key time and value was checked above, with
           messages that name the file's accessors. */
        sw_diag inner = {0};
        if (sw_clip_finish(&clips[i], &inner) != SW_OK) return sw__fail_from(L, path.s, &inner);
    }
    L->owner->model.animations = clips;
    L->owner->model.animation_count = n;
    return SW_OK;
}


/* ---- the memory plan: animations ---------------------------------------------------- */

/* Key times without a bufferView are zeros but for their sparse values,
   and zeros cannot increase strictly: at most sparse.count + 1 of them can
   be valid. Checked here, before a single one is decoded. */
static sw_result sw__plan_key_times(sw__loader* L, const char* where, uint32_t input) {
    const sw__gltf_accessor* a = &L->acc[input];
    if (a->data || a->count <= a->sparse_count + 1) return SW_OK;
    sw__fail(L, SW_ERR_INVALID_DATA, where,
             "accessors[%u]: %zu key times (%zu bytes decoded) without a bufferView: zeros but for %zu sparse values, "
             "so at most %zu can increase strictly",
             (unsigned)input, a->count, sw__decoded_bytes(a), a->sparse_count, a->sparse_count + 1);
    L->diag.index = (int64_t)input;
    return L->diag.result;
}

/* What sw__parse_channel decodes for each channel it keeps: the key times
   of its input (once per accessor: they are cached) and the values of its
   output, whose count its input fixes. */
sw_result sw__plan_animations(sw__loader* L, sw__plan* plan) {
    size_t n = L->animations.count;
    if (n == 0) return SW_OK;
    uint8_t* counted = sw__temp_alloc(L, L->accessors.count ? L->accessors.count : 1, 1);
    if (!counted) return L->diag.result;
    memset(counted, 0, L->accessors.count);
    sw_result r = SW_OK;
    for (size_t i = 0; i < n && r == SW_OK; i++) {
        const cJSON* samplers = sw__member(L->animations.items[i], "samplers");
        const cJSON* channels = sw__member(L->animations.items[i], "channels");
        if (!cJSON_IsArray(samplers) || !cJSON_IsArray(channels)) continue;
        size_t sampler_count = (size_t)cJSON_GetArraySize(samplers), k = 0;
        const cJSON** by_index = sw__temp_alloc(L, sampler_count ? sampler_count : 1, sizeof *by_index);
        if (!by_index) {
            r = L->diag.result;
            break;
        }
        const cJSON* e;
        cJSON_ArrayForEach(e, samplers) by_index[k++] = e;
        cJSON_ArrayForEach(e, channels) {
            const cJSON* target = sw__member(e, "target");
            const cJSON* sampler = sw__member(e, "sampler");
            const cJSON* path = cJSON_IsObject(target) ? sw__member(target, "path") : NULL;
            const cJSON* node = cJSON_IsObject(target) ? sw__member(target, "node") : NULL;
            if (!cJSON_IsNumber(sampler) || !(sampler->valuedouble >= 0) ||
                sampler->valuedouble >= (double)sampler_count || !cJSON_IsString(path) || !path->valuestring ||
                !cJSON_IsNumber(node) || !(node->valuedouble >= 0) || node->valuedouble >= (double)L->nodes.count)
                continue;
            bool weights = strcmp(path->valuestring, "weights") == 0;
            if (!weights && strcmp(path->valuestring, "translation") != 0 &&
                strcmp(path->valuestring, "rotation") != 0 && strcmp(path->valuestring, "scale") != 0)
                continue;
            size_t s = (size_t)sampler->valuedouble;
            uint32_t input, output;
            if (!sw__plan_index(L, sw__member(by_index[s], "input"), &input) ||
                !sw__plan_index(L, sw__member(by_index[s], "output"), &output))
                continue;
            sw__path sp = sw__pathf("animations[%zu].samplers[%zu]", i, s);
            if (!counted[input]) {
                sw__path where = sw__at(sp.s, "input");
                if ((r = sw__plan_key_times(L, where.s, input)) != SW_OK) break;
                counted[input] = 1;
                sw__plan_add(plan, where.s, input, sw__decoded_bytes(&L->acc[input]), false);
            }
            const cJSON* interpolation = sw__member(by_index[s], "interpolation");
            bool cubic = cJSON_IsString(interpolation) && interpolation->valuestring &&
                         strcmp(interpolation->valuestring, "CUBICSPLINE") == 0;
            /* the pass refuses an output whose count the input does not fix */
            size_t per_key = sw__plan_mul(L->acc[input].count, cubic ? 3 : 1), count = L->acc[output].count;
            if (weights ? count % per_key == 0 : count == per_key)
                sw__plan_add(plan, sw__at(sp.s, "output").s, output, sw__decoded_bytes(&L->acc[output]), false);
        }
        sw__temp_free(L, by_index);
    }
    sw__temp_free(L, counted);
    return r;
}
