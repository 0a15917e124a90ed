/* Compressed clips (sinew/compress.h): resampling, the virtual-vertex
   error, the bit-rate search and the .swa bytes; compress_sample.c
   reads them back into poses. docs/compression.md has the format byte by
   byte and the search. */
#include "sinew/compress.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../base/base_internal.h"
#include "compress_internal.h"

/* ---- resampling -------------------------------------------------------------- */

size_t sw_clip_resample_count(const sw_clip* clip, float rate) {
    if (!clip || !(rate > 0.0f) || !isfinite(rate)) return 0;
    double span = (double)clip->duration - (double)clip->start;
    if (!(span > 0.0)) return 1;
    double n = ceil(span * (double)rate - 1e-6) + 1.0;
    return n > (double)(1u << 24) ? 0 : (size_t)n;
}

float sw_resample_time(float start, float end, size_t i, size_t n) {
    if (n <= 1 || i == 0) return start;
    if (i >= n - 1) return end;
    return (float)((double)start + ((double)end - (double)start) * (double)i / (double)(n - 1));
}

sw_result sw_clip_resample(const sw_clip* clip, const sw_transform* rest, size_t joint_count, size_t sample_count,
                           sw_transform* out, sw_diag* diag) {
    if (!clip || !rest || !out || joint_count == 0 || sample_count == 0)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "resample needs a clip, a rest pose and samples");
    sw_track* tracks = sw__calloc(clip->track_count ? clip->track_count : 1, sizeof *tracks);
    if (!tracks) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory");
    size_t kept = 0;
    for (size_t i = 0; i < clip->track_count; i++)
        if (clip->tracks[i].path != SW_PATH_WEIGHTS) tracks[kept++] = clip->tracks[i];
    sw_clip trs = *clip;
    trs.tracks = tracks, trs.track_count = kept;
    sw_sample_job job = {.clip = &trs, .target_count = joint_count};
    sw_result res = SW_OK;
    for (size_t s = 0; s < sample_count && res == SW_OK; s++) {
        sw_transform* pose = out + s * joint_count;
        memcpy(pose, rest, joint_count * sizeof *pose);
        job.time = sw_resample_time(clip->start, clip->duration, s, sample_count);
        job.out_local = pose;
        if (s == 0) res = sw_sample_job_validate(&job, diag);
        if (res == SW_OK) sw_sample_job_run(&job);
    }
    sw__free(tracks);
    return res;
}

void sw_clip_channels(const sw_clip* clip, uint8_t* out, size_t joint_count) {
    SW_ASSERT(clip && out);
    memset(out, 0, joint_count);
    for (size_t i = 0; i < clip->track_count; i++) {
        const sw_track* t = &clip->tracks[i];
        if (t->target >= joint_count || t->path == SW_PATH_WEIGHTS) continue;
        out[t->target] |= t->path == SW_PATH_TRANSLATION ? SW_CHANNEL_TRANSLATION
                          : t->path == SW_PATH_ROTATION  ? SW_CHANNEL_ROTATION
                                                         : SW_CHANNEL_SCALE;
    }
}

/* ---- the error metric ---------------------------------------------------------- */

/* World matrices of a local pose, parents first. */
static void sw__model_matrices(const int32_t* parents, size_t joint_count, const sw_transform* local, sw_mat34* out) {
    for (size_t j = 0; j < joint_count; j++) {
        sw_mat34 m = sw_transform_to_mat34(&local[j]);
        out[j] = parents[j] < 0 ? m : sw_mat34_mul(&out[parents[j]], &m);
    }
}

/* The largest distance between the virtual vertices (origin + d · axis k,
   k = x, y, z) of two model matrices. */
static float sw__vertex_distance(const sw_mat34* a, const sw_mat34* b, float d) {
    float worst = 0.0f;
    for (int k = 0; k < 3; k++) {
        float dx = (a->m[0][3] - b->m[0][3]) + d * (a->m[0][k] - b->m[0][k]);
        float dy = (a->m[1][3] - b->m[1][3]) + d * (a->m[1][k] - b->m[1][k]);
        float dz = (a->m[2][3] - b->m[2][3]) + d * (a->m[2][k] - b->m[2][k]);
        float e = sqrtf(dx * dx + dy * dy + dz * dz);
        if (e > worst || e != e) worst = e != e ? INFINITY : e;
    }
    return worst;
}

float sw_virtual_vertex_error(const int32_t* parents, size_t joint_count, const sw_transform* pose,
                              const sw_transform* reference, float distance, sw_mat34* scratch,
                              float* out_per_joint) {
    SW_ASSERT(parents && pose && reference && scratch);
    sw_mat34* a = scratch;
    sw_mat34* b = scratch + joint_count;
    sw__model_matrices(parents, joint_count, pose, a);
    sw__model_matrices(parents, joint_count, reference, b);
    float worst = 0.0f;
    for (size_t j = 0; j < joint_count; j++) {
        float e = sw__vertex_distance(&a[j], &b[j], distance);
        if (out_per_joint) out_per_joint[j] = e;
        if (e > worst) worst = e;
    }
    return worst;
}

/* ---- the compressor ----------------------------------------------------------- */


/* One animated property: its joint, which of T, R, S, and its components
   in the clip-wide component list. */
typedef struct sw__property {
    uint32_t joint;
    int path;          /* SW__T, SW__R, SW__S */
    uint32_t first;    /* first component */
    uint32_t count;    /* 3, or 4 for a rotation that keeps every component */
    uint8_t dropped;   /* rotations: the component rebuilt, 4 = none */
} sw__property;

typedef struct sw__encoder {
    const sw_compress_input* in;
    float tolerance, distance;
    float target;            /* what the search aims at: a little under the tolerance, for times that
                                land a float rounding away from a sample */
    size_t joints, samples;
    uint8_t (*kinds)[3];     /* per joint: sw_compressed_kind of T, R, S */
    uint8_t* dropped;        /* per joint */
    sw__property* props;
    uint32_t prop_count, component_count;
    float* values;           /* component_count × samples: what is quantised (rotations sign-fixed) */
    float *clip_min, *clip_extent;
    float* reach;            /* per joint: model-space radius its rotation moves (vertices included) */
    float* parent_scale;     /* per joint: largest axis length of the parent's model matrix */
    /* the segment being searched */
    uint32_t seg_first, seg_count;
    uint8_t *seg_min, *seg_extent; /* per component */
    uint8_t* bits;                 /* per property: what the search moves */
    uint8_t* save;                 /* per component: bits fewer than its property's (sw__component_savings) */
    uint8_t* comp_bits;            /* per component: what is stored */
    float* decoded;                /* component_count × SEGMENT_SAMPLES, at the current bits (rotations rebuilt: 4 wide) */
    float* prop_error;             /* per property: estimated model error at its current bits */
    sw_mat34 *model, *reference;   /* joints; reference: SEGMENT_SAMPLES × joints */
    float* joint_error;            /* joints */
    /* the output */
    uint8_t* all_bits;             /* segments × components */
    uint8_t *all_min, *all_extent; /* segments × components */
    float* errors;                 /* samples × joints: the final per-joint worst */
    /* closed-loop encoding of the segment (sw__encode) */
    const int32_t* joint_props;    /* joints × 3: the property of each T, R, S, or -1 */
    uint32_t *child_first, *children; /* joints + 1, joints: each joint's children */
    sw_mat34* seg_model;           /* SEGMENT_SAMPLES × joints: decoded model matrices */
    sw_quat *seg_turn, *ref_turn;  /* SEGMENT_SAMPLES × joints: model-space rotations, decoded and raw */
    float* seg_error;              /* SEGMENT_SAMPLES × joints */
    uint32_t* seg_q;               /* components × SEGMENT_SAMPLES: the integers chosen */
    uint32_t* all_q;               /* components × samples */
    uint8_t* fixed;                /* per property: a 4-component rotation's component held constant in this
                                      segment (sw__fix_rotation_component), 4 = none */
    uint8_t* fixed_step;           /* per property: that constant, in 1/255 of the clip range */
    /* writing */
    uint32_t group_count;          /* groups of components (compress_internal.h) */
    uint32_t* group_first;         /* group_count + 1: each group's first component, then the end */
    uint8_t* codes;                /* segments × components: code bytes (sw__segment_codes) */
    size_t segment_bytes;          /* all segments' bytes, for the report */
} sw__encoder;

static const sw_transform* sw__raw(const sw__encoder* e, size_t sample) { return e->in->samples + sample * e->joints; }

static float sw__path_value(const sw_transform* t, int path, int k) {
    if (path == SW__T) return (&t->translation.x)[k];
    if (path == SW__S) return (&t->scale.x)[k];
    return (&t->rotation.x)[k];
}

/* Kind of one driven property over every sample: default, constant or animated. */
static uint8_t sw__classify(const sw__encoder* e, size_t joint, int path) {
    const sw_transform* first = &sw__raw(e, 0)[joint];
    const int n = path == SW__R ? 4 : 3;
    bool constant = true;
    for (size_t s = 1; s < e->samples && constant; s++) {
        const sw_transform* t = &sw__raw(e, s)[joint];
        if (path == SW__R) {
            float d = fabsf(sw_quat_dot(t->rotation, first->rotation));
            constant = d >= 1.0f - 1e-7f;
        } else {
            for (int k = 0; k < n; k++) {
                float a = sw__path_value(t, path, k), b = sw__path_value(first, path, k);
                if (fabsf(a - b) > 1e-7f * (1.0f + fabsf(b))) constant = false;
            }
        }
    }
    if (!constant) return SW_COMPRESSED_ANIMATED;
    bool is_default = true;
    for (int k = 0; k < n; k++) {
        float v = sw__path_value(first, path, k);
        float def = path == SW__S || (path == SW__R && k == 3) ? 1.0f : 0.0f;
        if (path == SW__R) {
            if (fabsf(first->rotation.w) < 1.0f - 1e-7f) is_default = false;
        } else if (fabsf(v - def) > 1e-7f) {
            is_default = false;
        }
    }
    return is_default ? SW_COMPRESSED_DEFAULT : SW_COMPRESSED_CONSTANT;
}

/* The rotation component to drop: the one farthest from zero at its
   nearest over the clip, so rebuilding it (sqrt(1 − others²)) stays well
   conditioned; 4 (keep all four) when every component nears zero
   somewhere. */
static uint8_t sw__choose_dropped(const sw__encoder* e, size_t joint) {
    float best = -1.0f;
    uint8_t k_best = 4;
    for (uint8_t k = 0; k < 4; k++) {
        float least = INFINITY;
        for (size_t s = 0; s < e->samples; s++) {
            float v = fabsf((&sw__raw(e, s)[joint].rotation.x)[k]);
            if (v < least) least = v;
        }
        if (least > best) best = least, k_best = k;
    }
    return best >= 0.3f ? k_best : 4;
}

/* Properties, components and their prepared values and clip ranges. */
static bool sw__prepare(sw__encoder* e) {
    const sw_compress_input* in = e->in;
    uint32_t props = 0, comps = 0;
    for (size_t j = 0; j < e->joints; j++) {
        uint8_t ch = in->channels ? in->channels[j] : 7;
        for (int p = 0; p < 3; p++) {
            e->kinds[j][p] = (ch >> p) & 1 ? sw__classify(e, j, p) : SW_COMPRESSED_NONE;
            if (e->kinds[j][p] != SW_COMPRESSED_ANIMATED) continue;
            uint8_t dropped = p == SW__R ? sw__choose_dropped(e, j) : 4;
            if (p == SW__R) e->dropped[j] = dropped;
            props++, comps += sw__property_components(p, dropped);
        }
    }
    e->prop_count = props, e->component_count = comps;
    e->props = sw__calloc(props ? props : 1, sizeof *e->props);
    e->values = sw__calloc((size_t)(comps ? comps : 1) * e->samples, sizeof(float));
    e->clip_min = sw__calloc(comps ? comps : 1, sizeof(float));
    e->clip_extent = sw__calloc(comps ? comps : 1, sizeof(float));
    if (!e->props || !e->values || !e->clip_min || !e->clip_extent) return false;
    uint32_t p = 0, c = 0;
    for (size_t j = 0; j < e->joints; j++) {
        for (int path = 0; path < 3; path++) {
            if (e->kinds[j][path] != SW_COMPRESSED_ANIMATED) continue;
            sw__property* prop = &e->props[p++];
            prop->joint = (uint32_t)j, prop->path = path, prop->first = c;
            prop->dropped = path == SW__R ? e->dropped[j] : 4;
            prop->count = sw__property_components(path, prop->dropped);
            sw_quat previous = {0, 0, 0, 1};
            for (size_t s = 0; s < e->samples; s++) {
                const sw_transform* t = &sw__raw(e, s)[j];
                float v[4];
                if (path == SW__R) {
                    sw_quat q = sw__quat_normalized(t->rotation);
                    /* One hemisphere: the dropped component positive, or, keeping
                       all four, each sample on the side of the one before. */
                    float sign = prop->dropped < 4 ? ((&q.x)[prop->dropped] < 0.0f ? -1.0f : 1.0f)
                                                   : (s > 0 && sw_quat_dot(q, previous) < 0.0f ? -1.0f : 1.0f);
                    q = (sw_quat){sign * q.x, sign * q.y, sign * q.z, sign * q.w};
                    previous = q;
                    int k = 0;
                    for (int i = 0; i < 4; i++)
                        if (i != prop->dropped) v[k++] = (&q.x)[i];
                } else {
                    for (int i = 0; i < 3; i++) v[i] = sw__path_value(t, path, i);
                }
                for (uint32_t i = 0; i < prop->count; i++) e->values[(size_t)(c + i) * e->samples + s] = v[i];
            }
            for (uint32_t i = 0; i < prop->count; i++) {
                if (path == SW__R && prop->count == 4) {
                    /* sw__fix_rotation_component rescales these per segment: they stay within ±1 */
                    e->clip_min[c + i] = -1.0f, e->clip_extent[c + i] = 2.0f;
                    continue;
                }
                const float* x = e->values + (size_t)(c + i) * e->samples;
                float lo = x[0], hi = x[0];
                for (size_t s = 1; s < e->samples; s++) lo = x[s] < lo ? x[s] : lo, hi = x[s] > hi ? x[s] : hi;
                e->clip_min[c + i] = lo;
                e->clip_extent[c + i] = hi - lo;
            }
            c += prop->count;
        }
    }
    return true;
}

/* Per joint, over every sample: the model-space radius within which its
   subtree's virtual vertices lie (what a rotation error of the joint
   moves), and the largest axis length of its parent (what scales a
   translation error). Estimates that order the search; the exact
   evaluation decides. */
static void sw__measure_reach(sw__encoder* e) {
    const int32_t* parents = e->in->parents;
    for (size_t s = 0; s < e->samples; s++) {
        sw__model_matrices(parents, e->joints, sw__raw(e, s), e->model);
        float* r = e->joint_error; /* scratch: this sample's radii */
        for (size_t j = 0; j < e->joints; j++) {
            float axis = 0.0f;
            for (int k = 0; k < 3; k++) {
                float len = sqrtf(e->model[j].m[0][k] * e->model[j].m[0][k] + e->model[j].m[1][k] * e->model[j].m[1][k] +
                                  e->model[j].m[2][k] * e->model[j].m[2][k]);
                axis = len > axis ? len : axis;
            }
            r[j] = e->distance * axis;
        }
        for (size_t j = e->joints; j-- > 0;) {
            if (r[j] > e->reach[j]) e->reach[j] = r[j];
            int32_t p = parents[j];
            if (p < 0) continue;
            float dx = e->model[j].m[0][3] - e->model[p].m[0][3], dy = e->model[j].m[1][3] - e->model[p].m[1][3],
                  dz = e->model[j].m[2][3] - e->model[p].m[2][3];
            float through = sqrtf(dx * dx + dy * dy + dz * dz) + r[j];
            if (through > r[p]) r[p] = through;
        }
        for (size_t j = 0; j < e->joints; j++) {
            float axis = 1.0f;
            if (parents[j] >= 0) {
                const sw_mat34* m = &e->model[parents[j]];
                axis = 0.0f;
                for (int k = 0; k < 3; k++) {
                    float len = sqrtf(m->m[0][k] * m->m[0][k] + m->m[1][k] * m->m[1][k] + m->m[2][k] * m->m[2][k]);
                    axis = len > axis ? len : axis;
                }
            }
            if (axis > e->parent_scale[j]) e->parent_scale[j] = axis;
        }
    }
}

/* Normalised value of component c at sample s in the clip range, [0, 1]. */
static float sw__unit(const sw__encoder* e, uint32_t c, size_t s) {
    float ext = e->clip_extent[c];
    float x = ext > 0.0f ? (e->values[(size_t)c * e->samples + s] - e->clip_min[c]) / ext : 0.0f;
    return x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x;
}

/* The segment's 8-bit range of each component within its clip range. */
static void sw__segment_ranges(sw__encoder* e) {
    for (uint32_t c = 0; c < e->component_count; c++) {
        float lo = 1.0f, hi = 0.0f;
        for (uint32_t i = 0; i < e->seg_count; i++) {
            float x = sw__unit(e, c, e->seg_first + i);
            lo = x < lo ? x : lo, hi = x > hi ? x : hi;
        }
        int q_lo = (int)floorf(lo * 255.0f), q_hi = (int)ceilf(hi * 255.0f);
        q_lo = q_lo < 0 ? 0 : q_lo > 255 ? 255 : q_lo;
        q_hi = q_hi < q_lo ? q_lo : q_hi > 255 ? 255 : q_hi;
        e->seg_min[c] = (uint8_t)q_lo;
        e->seg_extent[c] = (uint8_t)(q_hi - q_lo);
    }
}

/* A rotation that keeps all four components (none stays away from zero
   over the clip) still has one that does over a segment. The decoder
   normalises what it reads, so any positive multiple of a quaternion is
   the same rotation: per segment, each sample is scaled so that its
   component k, the one largest against the others throughout, is one
   constant c. That component then has an empty segment range and stores
   no bits, as a dropped one would, and the decoder is unchanged. c (a
   step of the ±1 clip range) is at most 1/2 and at most the least ratio
   of q_k to the largest component, so the others stay within ±1. */
static void sw__fix_rotation_component(sw__encoder* e) {
    for (uint32_t p = 0; p < e->prop_count; p++) {
        const sw__property* prop = &e->props[p];
        e->fixed[p] = 4;
        if (prop->path != SW__R || prop->count != 4) continue;
        float best = 0.0f;
        for (uint32_t k = 0; k < 4; k++) {
            float least = INFINITY;
            for (uint32_t i = 0; i < e->seg_count; i++) {
                const float* r = &sw__raw(e, e->seg_first + i)[prop->joint].rotation.x;
                float q[4], largest = 0.0f;
                for (uint32_t n = 0; n < 4; n++) q[n] = fabsf(r[n]), largest = q[n] > largest ? q[n] : largest;
                float ratio = largest > 0.0f ? q[k] / largest : 0.0f;
                least = ratio < least ? ratio : least;
            }
            if (least > best) best = least, e->fixed[p] = (uint8_t)k;
        }
        /* the largest step of [-1, 1] at or under min(1/2, best), and positive */
        int m = (int)floorf((fminf(0.5f, best) + 1.0f) * 127.5f);
        while (m > 128 && sw__dequantize(0, 0, (unsigned)m, 0, -1.0f, 2.0f) > fminf(0.5f, best)) m--;
        if (m <= 128 || e->fixed[p] == 4) {
            e->fixed[p] = 4;
            continue;
        }
        e->fixed_step[p] = (uint8_t)m;
        const float c = sw__dequantize(0, 0, (unsigned)m, 0, -1.0f, 2.0f);
        const uint32_t k = e->fixed[p];
        for (uint32_t i = 0; i < e->seg_count; i++) {
            const size_t s = e->seg_first + i;
            sw_quat r = sw__quat_normalized(sw__raw(e, s)[prop->joint].rotation);
            const float scale = c / (&r.x)[k]; /* the sign too: component k positive */
            for (uint32_t n = 0; n < 4; n++) {
                float v = n == k ? c : (&r.x)[n] * scale;
                e->values[(size_t)(prop->first + n) * e->samples + s] = v < -1.0f ? -1.0f : v > 1.0f ? 1.0f : v;
            }
        }
    }
}

/* A property's components share one step size, not one bit count: a
   component whose segment range (in the clip's units) is 2^k times
   smaller than its property's widest one stores k bits fewer, so its
   step is no coarser than the widest one's. The search moves the
   property's bit count; its components follow. */
static void sw__component_savings(sw__encoder* e) {
    for (uint32_t p = 0; p < e->prop_count; p++) {
        const sw__property* prop = &e->props[p];
        float widest = 0.0f;
        for (uint32_t k = 0; k < prop->count; k++) {
            uint32_t c = prop->first + k;
            float ext = e->clip_extent[c] * (float)e->seg_extent[c];
            widest = ext > widest ? ext : widest;
        }
        for (uint32_t k = 0; k < prop->count; k++) {
            uint32_t c = prop->first + k;
            float ext = e->clip_extent[c] * (float)e->seg_extent[c];
            int save = ext > 0.0f ? (int)floorf(log2f(widest / ext)) : SW_COMPRESS_MAX_BITS;
            e->save[c] = (uint8_t)(save < 0 ? 0 : save > SW_COMPRESS_MAX_BITS ? SW_COMPRESS_MAX_BITS : save);
        }
    }
}

/* Component c of segment sample i as a bits-wide integer. */
static uint32_t sw__quantize(const sw__encoder* e, uint32_t c, uint32_t i, unsigned bits) {
    if (bits == 0) return 0;
    float x = sw__unit(e, c, e->seg_first + i);
    float lo = (float)e->seg_min[c] * (1.0f / 255.0f), ext = (float)e->seg_extent[c] * (1.0f / 255.0f);
    float y = ext > 0.0f ? (x - lo) / ext : 0.0f;
    y = y < 0.0f ? 0.0f : y > 1.0f ? 1.0f : y;
    const float steps = (float)((1u << bits) - 1u);
    /* the nearer of the two integers around y, measured as the decoder
       rebuilds them */
    uint32_t q = (uint32_t)floorf(y * steps);
    if (q < (1u << bits) - 1u) {
        float v = e->values[(size_t)c * e->samples + e->seg_first + i];
        float a = sw__dequantize(q, bits, e->seg_min[c], e->seg_extent[c], e->clip_min[c], e->clip_extent[c]);
        float b = sw__dequantize(q + 1, bits, e->seg_min[c], e->seg_extent[c], e->clip_min[c], e->clip_extent[c]);
        if (fabsf(b - v) < fabsf(a - v)) q++;
    }
    return q;
}

/* Property p's decoded values over the segment at its current bits:
   4 floats per sample (a rotation rebuilt and normalised). */
static void sw__decode_property(sw__encoder* e, uint32_t p) {
    const sw__property* prop = &e->props[p];
    for (uint32_t i = 0; i < e->seg_count; i++) {
        float v[4] = {0, 0, 0, 0};
        for (uint32_t k = 0; k < prop->count; k++) {
            uint32_t c = prop->first + k;
            const unsigned bits = e->comp_bits[c];
            v[k] = sw__dequantize(sw__quantize(e, c, i, bits), bits, e->seg_min[c], e->seg_extent[c], e->clip_min[c],
                                  e->clip_extent[c]);
        }
        float* out = e->decoded + ((size_t)p * SW_COMPRESS_SEGMENT_SAMPLES + i) * 4;
        if (prop->path == SW__R) {
            sw_quat q = sw__quat_normalized(sw__rebuild_quat(v, prop->dropped));
            out[0] = q.x, out[1] = q.y, out[2] = q.z, out[3] = q.w;
        } else {
            memcpy(out, v, sizeof v);
        }
    }
}

/* Property p's estimated model-space error at its current bits: its own
   value error times how far that error reaches (sw__measure_reach). */
static float sw__estimate(sw__encoder* e, uint32_t p) {
    const sw__property* prop = &e->props[p];
    double worst = 0.0;
    for (uint32_t i = 0; i < e->seg_count; i++) {
        const sw_transform* t = &sw__raw(e, e->seg_first + i)[prop->joint];
        const float* d = e->decoded + ((size_t)p * SW_COMPRESS_SEGMENT_SAMPLES + i) * 4;
        double err = 0.0;
        if (prop->path == SW__R) {
            sw_quat r = sw__quat_normalized(t->rotation);
            double dot = (double)r.x * d[0] + (double)r.y * d[1] + (double)r.z * d[2] + (double)r.w * d[3];
            double sign = dot < 0.0 ? -1.0 : 1.0, chord2 = 0.0;
            for (int k = 0; k < 4; k++) {
                double diff = (double)d[k] - sign * (double)(&r.x)[k];
                chord2 += diff * diff;
            }
            double half_chord = sqrt(chord2) * 0.5;
            err = 4.0 * asin(half_chord < 1.0 ? half_chord : 1.0) * e->reach[prop->joint];
        } else {
            for (int k = 0; k < 3; k++) {
                double v = sw__path_value(t, prop->path, k), diff = fabs((double)d[k] - v);
                double scale = prop->path == SW__T ? e->parent_scale[prop->joint]
                                                   : e->reach[prop->joint] / (fabs(v) > 1e-6 ? fabs(v) : 1e-6);
                if (diff * scale > err) err = diff * scale;
            }
        }
        if (err > worst) worst = err;
    }
    return (float)worst;
}

/* Joint j's stored value of one property (constant or default). */
static void sw__fixed_value(const sw__encoder* e, size_t j, int path, sw_transform* t) {
    const sw_transform* first = &sw__raw(e, 0)[j];
    bool is_default = e->kinds[j][path] == SW_COMPRESSED_DEFAULT;
    if (path == SW__T) t->translation = is_default ? sw_vec3_make(0, 0, 0) : first->translation;
    if (path == SW__R) t->rotation = is_default ? sw_quat_identity() : sw__quat_normalized(first->rotation);
    if (path == SW__S) t->scale = is_default ? sw_vec3_make(1, 1, 1) : first->scale;
}

/* ---- closed-loop quantisation --------------------------------------------------
   A joint's stored value is chosen knowing what the decoder will make of
   its ancestors: a rotation aims at the raw model-space orientation from
   the decoded parent's (so a parent's rounding is undone one joint down,
   not carried to the hands), a translation at the raw model-space
   position, and of the integers around that aim (each component rounded
   down or up) the one is kept that moves the joint's virtual vertices and
   its children's origins least. The decoder is unchanged: it reads
   integers, however they were chosen. */

/* Model-space points of joint j that its own value moves and no later
   joint can put back: its virtual vertices and its children's origins.
   Returns the largest squared distance of those from the raw ones. */
static float sw__joint_cost(const sw__encoder* e, size_t j, const sw_mat34* m, const sw_mat34* ref,
                            const sw_transform* raw) {
    sw_mat34 d;
    for (int r = 0; r < 3; r++)
        for (int k = 0; k < 4; k++) d.m[r][k] = m->m[r][k] - ref->m[r][k];
    float worst = 0.0f;
    for (int k = 0; k < 3; k++) {
        float x = d.m[0][3] + e->distance * d.m[0][k], y = d.m[1][3] + e->distance * d.m[1][k],
              z = d.m[2][3] + e->distance * d.m[2][k];
        float s = x * x + y * y + z * z;
        worst = s > worst ? s : worst;
    }
    for (uint32_t n = e->child_first[j]; n < e->child_first[j + 1]; n++) {
        const sw_vec3 t = raw[e->children[n]].translation;
        float x = d.m[0][3] + d.m[0][0] * t.x + d.m[0][1] * t.y + d.m[0][2] * t.z;
        float y = d.m[1][3] + d.m[1][0] * t.x + d.m[1][1] * t.y + d.m[1][2] * t.z;
        float z = d.m[2][3] + d.m[2][0] * t.x + d.m[2][1] * t.y + d.m[2][2] * t.z;
        float s = x * x + y * y + z * z;
        worst = s > worst ? s : worst;
    }
    return worst;
}

/* Sets property p of joint j at segment sample i: of the integers around
   `aim` (the values to store, in the clip's units), the ones whose decoded
   value costs least; records them in e->seg_q. */
static void sw__choose(sw__encoder* e, uint32_t p, uint32_t i, const float* aim, sw_transform* t,
                       const sw_mat34* parent, const sw_mat34* ref, const sw_transform* raw) {
    const sw__property* prop = &e->props[p];
    uint32_t low[4], count[4], total = 1;
    for (uint32_t k = 0; k < prop->count; k++) {
        const uint32_t c = prop->first + k;
        const unsigned bits = e->comp_bits[c];
        low[k] = 0, count[k] = 1;
        if (bits == 0) continue;
        const float ext = e->clip_extent[c];
        float x = ext > 0.0f ? (aim[k] - e->clip_min[c]) / ext : 0.0f;
        float lo = (float)e->seg_min[c] * (1.0f / 255.0f), sext = (float)e->seg_extent[c] * (1.0f / 255.0f);
        float y = sext > 0.0f ? (x - lo) / sext : 0.0f;
        const uint32_t top = (1u << bits) - 1u;
        float f = floorf(y * (float)top);
        /* the integers just below and above the aim, or the end it lies past */
        low[k] = f <= 0.0f ? 0u : f >= (float)top ? top : (uint32_t)f;
        count[k] = f >= 0.0f && f < (float)top ? 2u : 1u;
        total *= count[k];
    }
    float best = INFINITY;
    uint32_t best_q[4] = {0, 0, 0, 0};
    sw_transform best_t = *t;
    for (uint32_t combo = 0; combo < total; combo++) {
        uint32_t q[4];
        float v[4] = {0, 0, 0, 0};
        uint32_t rest = combo;
        for (uint32_t k = 0; k < prop->count; k++) {
            q[k] = low[k] + rest % count[k];
            rest /= count[k];
            const uint32_t c = prop->first + k;
            v[k] = sw__dequantize(q[k], e->comp_bits[c], e->seg_min[c], e->seg_extent[c], e->clip_min[c],
                                  e->clip_extent[c]);
        }
        sw_transform candidate = *t;
        if (prop->path == SW__T) candidate.translation = sw_vec3_make(v[0], v[1], v[2]);
        if (prop->path == SW__S) candidate.scale = sw_vec3_make(v[0], v[1], v[2]);
        if (prop->path == SW__R) candidate.rotation = sw__quat_normalized(sw__rebuild_quat(v, prop->dropped));
        sw_mat34 local = sw_transform_to_mat34(&candidate);
        sw_mat34 m = parent ? sw_mat34_mul(parent, &local) : local;
        float cost = sw__joint_cost(e, prop->joint, &m, ref, raw);
        if (combo == 0 || cost < best) {
            best = cost, best_t = candidate;
            memcpy(best_q, q, sizeof q);
        }
    }
    *t = best_t;
    for (uint32_t k = 0; k < prop->count; k++) e->seg_q[(size_t)(prop->first + k) * SW_COMPRESS_SEGMENT_SAMPLES + i] = best_q[k];
}

/* The stored components of a rotation aimed at, on the side sw__prepare
   put sample s on: the dropped component positive, or, keeping all four,
   the side of the prepared value. */
static void sw__rotation_aim(const sw__encoder* e, uint32_t p, size_t s, sw_quat q, float* out) {
    const sw__property* prop = &e->props[p];
    if (e->fixed[p] < 4) {
        const uint32_t k = e->fixed[p];
        const float scale = sw__dequantize(0, 0, e->fixed_step[p], 0, -1.0f, 2.0f) / (&q.x)[k];
        for (uint32_t n = 0; n < 4; n++) out[n] = (&q.x)[n] * scale;
        return;
    }
    float sign;
    if (prop->dropped < 4) {
        sign = (&q.x)[prop->dropped] < 0.0f ? -1.0f : 1.0f;
    } else {
        float dot = 0.0f;
        for (uint32_t k = 0; k < 4; k++) dot += (&q.x)[k] * e->values[(size_t)(prop->first + k) * e->samples + s];
        sign = dot < 0.0f ? -1.0f : 1.0f;
    }
    int k = 0;
    for (int i = 0; i < 4; i++)
        if (i != prop->dropped) out[k++] = sign * (&q.x)[i];
}

/* Encodes the segment at the current bits, joints `from` onwards (the
   ones before keep what the last call chose: they do not depend on later
   joints), and measures it exactly: every sample decoded as the decoder
   will, its model matrices against the raw ones. Per-joint worst in
   e->joint_error; returns the worst and where. */
static float sw__encode(sw__encoder* e, size_t from, size_t* out_joint, uint32_t* out_sample) {
    const size_t J = e->joints;
    const int32_t* parents = e->in->parents;
    for (uint32_t i = 0; i < e->seg_count; i++) {
        const sw_transform* raw = sw__raw(e, e->seg_first + i);
        sw_mat34* model = e->seg_model + (size_t)i * J;
        sw_quat* turn = e->seg_turn + (size_t)i * J;
        const sw_mat34* ref = e->reference + (size_t)i * J;
        const sw_quat* ref_turn = e->ref_turn + (size_t)i * J;
        for (size_t j = from; j < J; j++) {
            sw_transform t = raw[j];
            for (int path = 0; path < 3; path++) {
                uint8_t kind = e->kinds[j][path];
                if (kind == SW_COMPRESSED_DEFAULT || kind == SW_COMPRESSED_CONSTANT) sw__fixed_value(e, j, path, &t);
            }
            const int32_t up = parents[j];
            const sw_mat34* parent = up >= 0 ? &model[up] : NULL;
            /* the raw model-space rotation from the decoded parent's */
            sw_quat aim_rotation = sw__quat_normalized(raw[j].rotation);
            if (up >= 0)
                aim_rotation = sw__quat_normalized(
                    sw_quat_mul(sw_quat_conjugate(turn[up]), sw_quat_mul(ref_turn[up], aim_rotation)));
            if (e->kinds[j][SW__R] == SW_COMPRESSED_ANIMATED) t.rotation = aim_rotation;
            for (int path = 0; path < 3; path++) {
                const int32_t p = e->joint_props[j * 3 + (size_t)path];
                if (p < 0) continue;
                float aim[4];
                if (path == SW__T) {
                    /* the raw model-space origin from the decoded parent's */
                    sw_vec3 v = raw[j].translation;
                    if (parent) {
                        sw_mat34 inv;
                        if (sw_mat34_inverse(&inv, parent))
                            v = sw_mat34_apply_point(&inv, sw_vec3_make(ref[j].m[0][3], ref[j].m[1][3], ref[j].m[2][3]));
                    }
                    aim[0] = v.x, aim[1] = v.y, aim[2] = v.z;
                } else if (path == SW__R) {
                    sw__rotation_aim(e, (uint32_t)p, e->seg_first + i, aim_rotation, aim);
                } else {
                    aim[0] = raw[j].scale.x, aim[1] = raw[j].scale.y, aim[2] = raw[j].scale.z;
                }
                sw__choose(e, (uint32_t)p, i, aim, &t, parent, &ref[j], raw);
            }
            sw_mat34 local = sw_transform_to_mat34(&t);
            model[j] = parent ? sw_mat34_mul(parent, &local) : local;
            turn[j] = up >= 0 ? sw_quat_mul(turn[up], t.rotation) : t.rotation;
            e->seg_error[(size_t)i * J + j] = sw__vertex_distance(&model[j], &ref[j], e->distance);
        }
    }
    float worst = 0.0f;
    *out_joint = 0, *out_sample = 0;
    for (size_t j = 0; j < J; j++) e->joint_error[j] = 0.0f;
    for (uint32_t i = 0; i < e->seg_count; i++)
        for (size_t j = 0; j < J; j++) {
            float err = e->seg_error[(size_t)i * J + j];
            if (err > e->joint_error[j]) e->joint_error[j] = err;
            if (err > worst || err != err) worst = err != err ? INFINITY : err, *out_joint = j, *out_sample = i;
        }
    return worst;
}

static void sw__set_bits(sw__encoder* e, uint32_t p, unsigned bits) {
    e->bits[p] = (uint8_t)bits;
    for (uint32_t k = 0; k < e->props[p].count; k++) {
        const uint32_t c = e->props[p].first + k;
        e->comp_bits[c] = (uint8_t)(bits > e->save[c] ? bits - e->save[c] : 0u);
    }
    sw__decode_property(e, p);
    e->prop_error[p] = sw__estimate(e, p);
}

/* The bit counts of one segment: each property alone to half the
   tolerance by its estimate; then, while the exact error is over, one
   more bit for the property on the worst joint's chain with the largest
   estimate; then each property one bit lower where the exact error stays
   within. Returns the worst exact error. */
static float sw__search_segment(sw__encoder* e) {
    const float budget = 0.5f * e->target;
    for (uint32_t p = 0; p < e->prop_count; p++) {
        unsigned b = 0;
        for (;; b++) {
            sw__set_bits(e, p, b);
            if (e->prop_error[p] <= budget || b == SW_COMPRESS_MAX_BITS) break;
        }
    }
    size_t joint;
    uint32_t sample;
    float worst = sw__encode(e, 0, &joint, &sample);
    for (size_t guard = 0; worst > e->target && guard < (size_t)e->prop_count * SW_COMPRESS_MAX_BITS; guard++) {
        int32_t pick = -1;
        for (int64_t j = (int64_t)joint; j >= 0; j = e->in->parents[j]) {
            for (int path = 0; path < 3; path++) {
                int32_t p = e->joint_props[j * 3 + path];
                if (p < 0 || e->bits[p] >= SW_COMPRESS_MAX_BITS) continue;
                if (pick < 0 || e->prop_error[p] > e->prop_error[pick]) pick = p;
            }
        }
        if (pick < 0) break; /* 24 bits everywhere on the chain: as good as it gets */
        sw__set_bits(e, (uint32_t)pick, e->bits[pick] + 1u);
        worst = sw__encode(e, e->props[pick].joint, &joint, &sample);
    }
    if (worst > e->target) return worst;
    for (uint32_t p = 0; p < e->prop_count; p++) {
        while (e->bits[p] > 0) {
            unsigned was = e->bits[p];
            sw__set_bits(e, p, was - 1u);
            float w = sw__encode(e, e->props[p].joint, &joint, &sample);
            if (w > e->target) {
                sw__set_bits(e, p, was);
                sw__encode(e, e->props[p].joint, &joint, &sample);
                break;
            }
            worst = w;
        }
    }
    /* then each component alone, where one of a property's components
       matters less than its range says (a rotation axis the hierarchy
       hides, a near-constant coordinate) */
    for (uint32_t p = 0; p < e->prop_count; p++) {
        for (uint32_t k = 0; k < e->props[p].count; k++) {
            const uint32_t c = e->props[p].first + k;
            while (e->comp_bits[c] > 0) {
                e->comp_bits[c]--;
                float w = sw__encode(e, e->props[p].joint, &joint, &sample);
                if (w > e->target) {
                    e->comp_bits[c]++;
                    sw__encode(e, e->props[p].joint, &joint, &sample);
                    break;
                }
                worst = w;
            }
        }
    }
    return worst;
}

/* ---- writing the bytes ---------------------------------------------------------- */

static void sw__put32(uint8_t* p, uint32_t v) {
    p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16), p[3] = (uint8_t)(v >> 24);
}
static void sw__putf32(uint8_t* p, float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    sw__put32(p, u);
}

/* ---- the segment bytes: raw rows and Rice-coded lanes (compress_internal.h) ---- */

typedef struct sw__bit_writer {
    uint8_t* out; /* NULL: only count */
    uint64_t pos;
} sw__bit_writer;

static void sw__put_bits(sw__bit_writer* w, uint64_t value, unsigned bits) {
    if (w->out)
        for (unsigned b = 0; b < bits; b++)
            if (value >> b & 1u) w->out[(w->pos + b) >> 3] |= (uint8_t)(1u << ((w->pos + b) & 7u));
    w->pos += bits;
}

static unsigned sw__rice_size(int64_t difference, unsigned k, unsigned bits) {
    const uint64_t z = difference < 0 ? (uint64_t)(-2 * difference - 1) : (uint64_t)(2 * difference);
    const uint64_t quotient = z >> k;
    return quotient < SW__SWA_ESCAPE ? (unsigned)quotient + 1u + k : SW__SWA_ESCAPE + bits + 1u;
}

static void sw__rice_write(sw__bit_writer* w, int64_t difference, unsigned k, unsigned bits) {
    const uint64_t z = difference < 0 ? (uint64_t)(-2 * difference - 1) : (uint64_t)(2 * difference);
    const uint64_t quotient = z >> k;
    if (quotient < SW__SWA_ESCAPE) {
        w->pos += quotient;
        sw__put_bits(w, 1u, 1);
        sw__put_bits(w, z & ((1ull << k) - 1u), k);
    } else {
        w->pos += SW__SWA_ESCAPE;
        sw__put_bits(w, z, bits + 1u);
    }
}

/* Component c's integer at sample i of the clip. */
static int64_t sw__q(const sw__encoder* e, uint32_t c, size_t i) { return (int64_t)e->all_q[(size_t)c * e->samples + i]; }

/* Segment s's code bytes: each component's bits and the Rice choice that
   makes its differences shortest. */
static void sw__segment_codes(const sw__encoder* e, uint32_t s, uint8_t* codes) {
    const uint32_t n = sw__segment_samples((uint32_t)e->samples, s), first = s * SW_COMPRESS_SEGMENT_SAMPLES;
    for (uint32_t c = 0; c < e->component_count; c++) {
        const unsigned bits = e->all_bits[(size_t)s * e->component_count + c];
        uint64_t best = UINT64_MAX;
        codes[c] = (uint8_t)bits;
        for (unsigned choice = 0; bits > 0 && choice < 8; choice++) {
            const uint8_t code = (uint8_t)(bits | choice << 5);
            uint64_t size = 0;
            for (uint32_t i = 1; i < n; i++)
                if (i % SW__SWA_BLOCK) size += sw__rice_size(sw__q(e, c, first + i) - sw__q(e, c, first + i - 1), sw__code_k(code), bits);
            if (size < best) best = size, codes[c] = code;
        }
    }
}

/* One lane of block rows [row0, row0 + rows): every `lane`-th component
   with bits of group g, the differences towards the middle row, backward
   (rows middle − 1 down to 0) or forward (rows middle + 1 up). */
static void sw__write_lane(const sw__encoder* e, const uint8_t* codes, uint32_t g, uint32_t lane, bool forward,
                           uint32_t row0, uint32_t rows, sw__bit_writer* w) {
    const uint32_t middle = sw__block_middle(rows);
    const uint32_t steps = forward ? rows - 1u - middle : middle;
    for (uint32_t n = 1; n <= steps; n++) {
        const uint32_t r = forward ? middle + n : middle - n, from = forward ? r - 1u : r + 1u;
        uint32_t active = 0;
        for (uint32_t c = e->group_first[g]; c < e->group_first[g + 1]; c++) {
            const unsigned bits = sw__code_bits(codes[c]);
            if (bits == 0 || active++ % SW__SWA_LANES != lane) continue;
            sw__rice_write(w, sw__q(e, c, row0 + r) - sw__q(e, c, row0 + from), sw__code_k(codes[c]), bits);
        }
    }
}

/* Writes segment s at `out` (or only measures it, out NULL): returns its
   bytes, padding included. */
static size_t sw__write_segment(const sw__encoder* e, uint32_t s, uint8_t* out) {
    const uint32_t C = e->component_count, n = sw__segment_samples((uint32_t)e->samples, s);
    const uint32_t first = s * SW_COMPRESS_SEGMENT_SAMPLES, blocks = sw__segment_blocks(n), G = e->group_count;
    const uint8_t* codes = e->codes + (size_t)s * C;
    const size_t head = sw__segment_head_size(C);
    uint64_t raw_bits = 0;
    for (uint32_t c = 0; c < C; c++) raw_bits += sw__code_bits(codes[c]);
    size_t at = head + sw__segment_table_size(blocks, G);
    for (uint32_t b = 0; b < blocks; b++) {
        const uint32_t row0 = first + b * SW__SWA_BLOCK, rows = sw__block_rows(n, b);
        uint8_t* entry = out ? out + head + (size_t)b * sw__block_entry_size(G) : NULL;
        if (entry) sw__put32(entry, (uint32_t)at);
        sw__bit_writer w = {out ? out + at : NULL, 0};
        for (uint32_t c = 0; c < C; c++)
            sw__put_bits(&w, (uint64_t)sw__q(e, c, row0 + sw__block_middle(rows)), sw__code_bits(codes[c]));
        at += (size_t)((w.pos + 7u) / 8u);
        for (uint32_t g = 0; g < G; g++) {
            uint8_t* lanes = entry ? entry + 4u + (size_t)SW__SWA_GROUP_ENTRY * g : NULL;
            const size_t base = at;
            for (uint32_t k = 0; k < 2u * SW__SWA_LANES; k++) {
                if (lanes && k == 0) sw__put32(lanes, (uint32_t)at);
                if (lanes && k > 0) lanes[2u + 2u * k] = (uint8_t)(at - base), lanes[3u + 2u * k] = (uint8_t)((at - base) >> 8);
                sw__bit_writer lw = {out ? out + at : NULL, 0};
                sw__write_lane(e, codes, g, k % SW__SWA_LANES, k >= SW__SWA_LANES, row0, rows, &lw);
                at += (size_t)((lw.pos + 7u) / 8u);
            }
        }
    }
    const size_t size = sw__align4(at + SW__SWA_STREAM_PAD);
    if (out) {
        sw__put32(out, (uint32_t)raw_bits);
        sw__put32(out + 4, (uint32_t)size);
        memcpy(out + 8, codes, C);
        for (uint32_t c = 0; c < C; c++) {
            out[8 + C + 2 * c] = e->all_min[(size_t)s * C + c];
            out[8 + C + 2 * c + 1] = e->all_extent[(size_t)s * C + c];
        }
    }
    return size;
}

/* Everything after the header's counts: returns the total size, or
   writes into `out` when it is not NULL. */
static size_t sw__write(sw__encoder* e, uint32_t tracks, uint32_t constants, uint32_t segments, const char* name,
                        uint8_t* out) {
    const size_t name_size = strlen(name) + 1;
    const sw__swa_layout l = sw__swa_layout_of(tracks, constants, e->component_count, segments, name_size);
    size_t at = l.data;
    uint32_t track = 0, constant = 0;
    for (size_t j = 0; j < e->joints; j++) {
        if (!e->kinds[j][0] && !e->kinds[j][1] && !e->kinds[j][2]) continue;
        if (out) {
            uint8_t* d = out + l.tracks + (size_t)track * SW__SWA_TRACK_SIZE;
            sw__put32(d, (uint32_t)j);
            d[SW__TRACK_T] = e->kinds[j][0], d[SW__TRACK_R] = e->kinds[j][1], d[SW__TRACK_S] = e->kinds[j][2];
            d[SW__TRACK_DROPPED] = e->kinds[j][1] == SW_COMPRESSED_ANIMATED ? e->dropped[j] : 4;
            for (int path = 0; path < 3; path++) {
                if (e->kinds[j][path] != SW_COMPRESSED_CONSTANT) continue;
                sw_transform t;
                sw__fixed_value(e, j, path, &t);
                const int n = path == SW__R ? 4 : 3;
                for (int k = 0; k < n; k++) sw__putf32(out + l.constants + 4u * (constant + (uint32_t)k), sw__path_value(&t, path, k));
                constant += (uint32_t)n;
            }
        }
        track++;
    }
    for (uint32_t s = 0; s < segments; s++) {
        if (out) sw__put32(out + l.segments + 4u * s, (uint32_t)at);
        at += sw__write_segment(e, s, out ? out + at : NULL);
    }
    e->segment_bytes = at - l.data;
    if (out) {
        memcpy(out, SW__SWA_MAGIC, 4);
        sw__put32(out + SW__SWA_OFF_VERSION, SW__SWA_VERSION);
        sw__put32(out + SW__SWA_OFF_SIZE, (uint32_t)at);
        sw__put32(out + SW__SWA_OFF_TRACKS, tracks);
        sw__put32(out + SW__SWA_OFF_TARGETS, (uint32_t)e->joints);
        sw__put32(out + SW__SWA_OFF_SAMPLES, (uint32_t)e->samples);
        sw__put32(out + SW__SWA_OFF_SEGMENTS, segments);
        sw__put32(out + SW__SWA_OFF_ANIMATED, e->prop_count);
        sw__put32(out + SW__SWA_OFF_COMPONENTS, e->component_count);
        sw__put32(out + SW__SWA_OFF_CONSTANTS, constants);
        sw__put32(out + SW__SWA_OFF_NAME_SIZE, (uint32_t)name_size);
        sw__putf32(out + SW__SWA_OFF_START, e->in->start);
        sw__putf32(out + SW__SWA_OFF_END, e->in->end);
        sw__putf32(out + SW__SWA_OFF_TOLERANCE, e->tolerance);
        sw__putf32(out + SW__SWA_OFF_VIRTUAL, e->distance);
        for (uint32_t c = 0; c < e->component_count; c++) {
            sw__putf32(out + l.minimums + 4u * c, e->clip_min[c]);
            sw__putf32(out + l.extents + 4u * c, e->clip_extent[c]);
        }
        memcpy(out + l.name, name, name_size);
    }
    return at;
}

static int sw__float_order(const void* a, const void* b) {
    float x = *(const float*)a, y = *(const float*)b;
    return x < y ? -1 : x > y;
}

static void sw__encoder_free(sw__encoder* e) {
    sw__free(e->kinds), sw__free(e->dropped), sw__free(e->props), sw__free(e->values);
    sw__free(e->clip_min), sw__free(e->clip_extent), sw__free(e->reach), sw__free(e->parent_scale);
    sw__free(e->seg_min), sw__free(e->seg_extent), sw__free(e->bits), sw__free(e->save), sw__free(e->comp_bits), sw__free(e->decoded), sw__free(e->prop_error);
    sw__free(e->model), sw__free(e->reference), sw__free(e->joint_error);
    sw__free(e->all_bits), sw__free(e->all_min), sw__free(e->all_extent), sw__free(e->errors);
    sw__free(e->child_first), sw__free(e->children), sw__free(e->seg_model), sw__free(e->seg_turn);
    sw__free(e->ref_turn), sw__free(e->seg_error), sw__free(e->seg_q), sw__free(e->all_q);
    sw__free(e->fixed), sw__free(e->fixed_step), sw__free(e->group_first), sw__free(e->codes);
}

static sw_result sw__check_input(const sw_compress_input* in, const sw_compress_settings* settings, sw_diag* diag) {
    if (!in || !in->parents || !in->samples)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "compress: no input, parents or samples");
    if (in->joint_count == 0 || in->joint_count > SW_MAX_JOINTS)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "compress: %zu joints (1..%d)", in->joint_count,
                           SW_MAX_JOINTS);
    if (in->sample_count == 0 || in->sample_count >= (1u << 24))
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "compress: %zu samples (1..2^24 - 1)", in->sample_count);
    if (!isfinite(in->start) || !isfinite(in->end) || !(in->end >= in->start) || !isfinite(in->end - in->start))
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "compress: times %g..%g are not a span", (double)in->start,
                           (double)in->end);
    for (size_t j = 0; j < in->joint_count; j++)
        if (in->parents[j] >= (int32_t)j || in->parents[j] < -1)
            return sw_diag_set(diag, SW_ERR_JOINT_ORDER, (int64_t)j, "compress: joint %zu has parent %d", j,
                               (int)in->parents[j]);
    const float* f = &in->samples[0].translation.x;
    size_t floats = in->sample_count * in->joint_count * (sizeof(sw_transform) / sizeof(float));
    for (size_t i = 0; i < floats; i++)
        if (!isfinite(f[i]))
            return sw_diag_set(diag, SW_ERR_INVALID_DATA, (int64_t)i, "compress: sample value %zu is not finite", i);
    if (settings && (settings->tolerance < 0.0f || !isfinite(settings->tolerance) || settings->virtual_vertex < 0.0f ||
                     !isfinite(settings->virtual_vertex)))
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "compress: tolerance and virtual vertex must be >= 0");
    return SW_OK;
}

static bool sw__encoder_alloc(sw__encoder* e) {
    const size_t J = e->joints;
    e->kinds = sw__calloc(J, sizeof *e->kinds);
    e->dropped = sw__calloc(J, 1);
    e->reach = sw__calloc(J, sizeof(float));
    e->parent_scale = sw__calloc(J, sizeof(float));
    e->model = sw__calloc(J, sizeof *e->model);
    e->reference = sw__calloc(J * SW_COMPRESS_SEGMENT_SAMPLES, sizeof *e->reference);
    e->joint_error = sw__calloc(J, sizeof(float));
    e->errors = sw__calloc(J * e->samples, sizeof(float));
    e->child_first = sw__calloc(J + 1, sizeof(uint32_t));
    e->children = sw__calloc(J, sizeof(uint32_t));
    e->seg_model = sw__calloc(J * SW_COMPRESS_SEGMENT_SAMPLES, sizeof *e->seg_model);
    e->seg_turn = sw__calloc(J * SW_COMPRESS_SEGMENT_SAMPLES, sizeof *e->seg_turn);
    e->ref_turn = sw__calloc(J * SW_COMPRESS_SEGMENT_SAMPLES, sizeof *e->ref_turn);
    e->seg_error = sw__calloc(J * SW_COMPRESS_SEGMENT_SAMPLES, sizeof(float));
    if (!e->kinds || !e->dropped || !e->reach || !e->parent_scale || !e->model || !e->reference ||
        !e->joint_error || !e->errors || !e->child_first || !e->children || !e->seg_model || !e->seg_turn ||
        !e->ref_turn || !e->seg_error)
        return false;
    /* children grouped by parent (counting sort: parents come first) */
    for (size_t j = 0; j < J; j++)
        if (e->in->parents[j] >= 0) e->child_first[e->in->parents[j] + 1]++;
    for (size_t j = 0; j < J; j++) e->child_first[j + 1] += e->child_first[j];
    uint32_t* cursor = sw__malloc((J + 1) * sizeof *cursor);
    if (!cursor) return false;
    memcpy(cursor, e->child_first, (J + 1) * sizeof *cursor);
    for (size_t j = 0; j < J; j++)
        if (e->in->parents[j] >= 0) e->children[cursor[e->in->parents[j]]++] = (uint32_t)j;
    sw__free(cursor);
    return true;
}

static bool sw__segment_alloc(sw__encoder* e, uint32_t segments) {
    const size_t P = e->prop_count ? e->prop_count : 1, C = e->component_count ? e->component_count : 1;
    e->seg_min = sw__calloc(C, 1), e->seg_extent = sw__calloc(C, 1), e->bits = sw__calloc(P, 1);
    e->save = sw__calloc(C, 1), e->comp_bits = sw__calloc(C, 1);
    e->decoded = sw__calloc(P * SW_COMPRESS_SEGMENT_SAMPLES * 4, sizeof(float));
    e->prop_error = sw__calloc(P, sizeof(float));
    e->all_bits = sw__calloc(C * (segments ? segments : 1), 1);
    e->all_min = sw__calloc(C * (segments ? segments : 1), 1);
    e->all_extent = sw__calloc(C * (segments ? segments : 1), 1);
    e->seg_q = sw__calloc(C * SW_COMPRESS_SEGMENT_SAMPLES, sizeof(uint32_t));
    e->fixed = sw__calloc(P, 1), e->fixed_step = sw__calloc(P, 1);
    e->codes = sw__calloc(C * (segments ? segments : 1), 1), e->group_first = sw__calloc(P + 1, sizeof(uint32_t));
    /* groups as compress_internal.h's sw__next_group cuts them: whole
       properties, at most SW__SWA_GROUP components */
    if (e->group_first) {
        uint32_t in_group = 0;
        for (uint32_t p = 0; p < e->prop_count; p++) {
            if (p == 0 || in_group + e->props[p].count > SW__SWA_GROUP)
                e->group_first[e->group_count++] = e->props[p].first, in_group = 0;
            in_group += e->props[p].count;
        }
        e->group_first[e->group_count] = e->component_count;
    }
    e->all_q = sw__calloc(C * e->samples, sizeof(uint32_t));
    return e->seg_min && e->seg_extent && e->bits && e->save && e->comp_bits && e->decoded && e->prop_error && e->all_bits && e->all_min &&
           e->all_extent && e->seg_q && e->all_q && e->fixed && e->fixed_step && e->codes && e->group_first;
}

/* Searches every segment (chunks of SEGMENT_SAMPLES samples, also when
   nothing is animated and no segment is written), keeping each one's
   errors for the report. */
static void sw__search(sw__encoder* e, uint32_t segments) {
    const uint32_t chunks = (uint32_t)((e->samples + SW_COMPRESS_SEGMENT_SAMPLES - 1) / SW_COMPRESS_SEGMENT_SAMPLES);
    const size_t J = e->joints;
    for (uint32_t s = 0; s < chunks; s++) {
        e->seg_first = s * SW_COMPRESS_SEGMENT_SAMPLES;
        e->seg_count = sw__segment_samples((uint32_t)e->samples, s);
        for (uint32_t i = 0; i < e->seg_count; i++) {
            const sw_transform* raw = sw__raw(e, e->seg_first + i);
            sw__model_matrices(e->in->parents, J, raw, e->reference + (size_t)i * J);
            sw_quat* turn = e->ref_turn + (size_t)i * J;
            for (size_t j = 0; j < J; j++) {
                sw_quat r = sw__quat_normalized(raw[j].rotation);
                turn[j] = e->in->parents[j] >= 0 ? sw_quat_mul(turn[e->in->parents[j]], r) : r;
            }
        }
        if (segments) {
            sw__fix_rotation_component(e);
            sw__segment_ranges(e);
            for (uint32_t p = 0; p < e->prop_count; p++)
                if (e->fixed[p] < 4) {
                    e->seg_min[e->props[p].first + e->fixed[p]] = e->fixed_step[p];
                    e->seg_extent[e->props[p].first + e->fixed[p]] = 0;
                }
            sw__component_savings(e);
            sw__search_segment(e);
            memcpy(e->all_bits + (size_t)s * e->component_count, e->comp_bits, e->component_count);
            memcpy(e->all_min + (size_t)s * e->component_count, e->seg_min, e->component_count);
            memcpy(e->all_extent + (size_t)s * e->component_count, e->seg_extent, e->component_count);
        }
        size_t j;
        uint32_t i;
        sw__encode(e, 0, &j, &i);
        for (uint32_t n = 0; n < e->seg_count; n++)
            memcpy(e->errors + (size_t)(e->seg_first + n) * J, e->seg_error + (size_t)n * J, J * sizeof(float));
        for (uint32_t c = 0; c < e->component_count; c++)
            memcpy(e->all_q + (size_t)c * e->samples + e->seg_first, e->seg_q + (size_t)c * SW_COMPRESS_SEGMENT_SAMPLES,
                   e->seg_count * sizeof(uint32_t));
        if (segments) sw__segment_codes(e, s, e->codes + (size_t)s * e->component_count);
    }
}

sw_result sw_compress_clip(const sw_compress_input* input, const sw_compress_settings* settings,
                           sw_compressed_bytes* out, sw_compress_report* report, sw_diag* diag) {
    if (!out) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "compress: no output");
    out->bytes = NULL, out->size = 0;
    sw_result res = sw__check_input(input, settings, diag);
    if (res != SW_OK) return res;
    sw__encoder e = {0};
    e.in = input;
    e.joints = input->joint_count, e.samples = input->sample_count;
    e.tolerance = settings && settings->tolerance > 0.0f ? settings->tolerance : SW_COMPRESS_DEFAULT_TOLERANCE;
    e.target = e.tolerance * 0.995f;
    e.distance = settings && settings->virtual_vertex > 0.0f ? settings->virtual_vertex
                                                              : SW_COMPRESS_DEFAULT_VIRTUAL_VERTEX;
    int32_t* joint_props = NULL;
    float* sorted = NULL;
    if (!sw__encoder_alloc(&e) || !sw__prepare(&e)) goto oom;
    const uint32_t segments =
        e.prop_count ? (uint32_t)((e.samples + SW_COMPRESS_SEGMENT_SAMPLES - 1) / SW_COMPRESS_SEGMENT_SAMPLES) : 0;
    joint_props = sw__malloc(e.joints * 3 * sizeof *joint_props);
    if (!joint_props || !sw__segment_alloc(&e, segments)) goto oom;
    for (size_t j = 0; j < e.joints * 3; j++) joint_props[j] = -1;
    for (uint32_t p = 0; p < e.prop_count; p++) joint_props[e.props[p].joint * 3 + (uint32_t)e.props[p].path] = (int32_t)p;
    e.joint_props = joint_props;
    sw__measure_reach(&e);
    sw__search(&e, segments);

    uint32_t tracks = 0, constants = 0;
    size_t driven = 0, animated = 0, constant = 0, defaults = 0;
    for (size_t j = 0; j < e.joints; j++) {
        if (!e.kinds[j][0] && !e.kinds[j][1] && !e.kinds[j][2]) continue;
        tracks++, driven++;
        for (int path = 0; path < 3; path++) {
            animated += e.kinds[j][path] == SW_COMPRESSED_ANIMATED;
            defaults += e.kinds[j][path] == SW_COMPRESSED_DEFAULT;
            if (e.kinds[j][path] == SW_COMPRESSED_CONSTANT) constant++, constants += path == SW__R ? 4u : 3u;
        }
    }
    const char* name = input->name ? input->name : "";
    size_t size = sw__write(&e, tracks, constants, segments, name, NULL);
    if (size > UINT32_MAX) {
        sw__encoder_free(&e), sw__free(joint_props);
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "compress: %zu bytes is over the format's 4 GiB", size);
    }
    out->bytes = sw__calloc(size, 1);
    sorted = sw__malloc(e.samples * e.joints * sizeof *sorted);
    if (!out->bytes || !sorted) goto oom;
    sw__write(&e, tracks, constants, segments, name, out->bytes);
    out->size = size;

    memcpy(sorted, e.errors, e.samples * e.joints * sizeof *sorted);
    size_t worst_at = 0;
    for (size_t i = 0; i < e.samples * e.joints; i++)
        if (sorted[i] > sorted[worst_at]) worst_at = i;
    const float worst = sorted[worst_at];
    sw__putf32(out->bytes + SW__SWA_OFF_WORST, worst);
    if (report) {
        qsort(sorted, e.samples * e.joints, sizeof *sorted, sw__float_order);
        size_t n = e.samples * e.joints, k = (size_t)ceil(0.99 * (double)n);
        const double bits = 8.0 * (double)e.segment_bytes;
        *report = (sw_compress_report){
            .worst_error = worst, .p99_error = sorted[k ? k - 1 : 0], .worst_joint = worst_at % e.joints,
            .worst_sample = worst_at / e.joints, .met = worst <= e.tolerance,
            .raw_bytes = 40u * driven * e.samples, .compressed_bytes = size, .driven_joints = driven,
            .animated_tracks = animated, .constant_tracks = constant, .default_tracks = defaults,
            .mean_bits = e.component_count ? bits / ((double)e.component_count * (double)e.samples) : 0.0,
        };
    }
    sw__encoder_free(&e), sw__free(joint_props), sw__free(sorted);
    return SW_OK;
oom:
    sw__encoder_free(&e), sw__free(joint_props), sw__free(sorted);
    sw__free(out->bytes), out->bytes = NULL, out->size = 0;
    return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "compress: out of memory");
}

void sw_compress_bytes_free(sw_compressed_bytes* bytes) {
    if (!bytes) return;
    sw__free(bytes->bytes);
    bytes->bytes = NULL, bytes->size = 0;
}
