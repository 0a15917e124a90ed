/* Compressed clips (sinew/compress.h): resampling, the virtual-vertex
   error, the bit-rate search, the .swa bytes and the sampling job.
   docs/compression.md has the format byte by byte and the search. */
#include "sinew/compress.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../base/base_internal.h"
#include "compress_internal.h"

/* The decoder's lanes (SSE2), or its scalar loops under SW_NO_SIMD. */
#if !defined(SW_NO_SIMD) && defined(__SSE2__)
#define SW__DECODE_SSE2 1
#include <emmintrin.h>
#else
#define SW__DECODE_SSE2 0
#endif

/* ---- shared by the compressor and the decoder --------------------------------- */

/* 1 / (2^bits − 1): the step of a bits-wide value over [0, 1]. */
static const float sw__inv_steps[SW_COMPRESS_MAX_BITS + 1] = {
    0.0f,           1.0f,           1.0f / 3,        1.0f / 7,        1.0f / 15,       1.0f / 31,
    1.0f / 63,      1.0f / 127,     1.0f / 255,      1.0f / 511,      1.0f / 1023,     1.0f / 2047,
    1.0f / 4095,    1.0f / 8191,    1.0f / 16383,    1.0f / 32767,    1.0f / 65535,    1.0f / 131071,
    1.0f / 262143,  1.0f / 524287,  1.0f / 1048575,  1.0f / 2097151,  1.0f / 4194303,  1.0f / 8388607,
    1.0f / 16777215,
};

/* A stored value back in the clip's units is offset + scale · q: q (bits
   wide; 0 bits = the middle) within the segment range (8-bit minimum and
   extent of the clip range) within the clip range. The factors depend on
   the segment, not the sample, so the decoder makes them once for the two
   samples it reads. The compressor measures its error with these same
   functions, so what it reports is what the decoder gives. */
typedef struct sw__factors {
    float scale, offset;
} sw__factors;

static inline sw__factors sw__factors_of(unsigned bits, unsigned seg_min, unsigned seg_extent, float clip_min,
                                         float clip_extent) {
    const float lo = (float)seg_min * (1.0f / 255.0f), ext = (float)seg_extent * (1.0f / 255.0f);
    sw__factors f;
    f.scale = clip_extent * (ext * sw__inv_steps[bits]);
    f.offset = clip_min + clip_extent * (bits ? lo : lo + 0.5f * ext);
    return f;
}

static inline float sw__dequantize(uint32_t q, unsigned bits, unsigned seg_min, unsigned seg_extent, float clip_min,
                                   float clip_extent) {
    const sw__factors f = sw__factors_of(bits, seg_min, seg_extent, clip_min, clip_extent);
    return f.offset + f.scale * (float)q;
}

/* The full quaternion of stored components c (3 with a dropped one, else
   4), normalised. */
static inline sw_quat sw__rebuild_quat(const float* c, unsigned dropped) {
    float q[4];
    if (dropped < 4) {
        float rest = 1.0f - (c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
        int k = 0;
        for (unsigned i = 0; i < 4; i++) q[i] = i == dropped ? sqrtf(rest > 0.0f ? rest : 0.0f) : c[k++];
    } else {
        memcpy(q, c, sizeof q);
    }
    return (sw_quat){q[0], q[1], q[2], q[3]};
}

static inline sw_quat sw__quat_normalized(sw_quat q) {
    float n2 = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
    if (!(n2 >= 1e-24f)) {
        /* tiny or zero (only hostile ranges decode so): squares of denormals
           keep too few bits to normalise by, so scale by the largest first */
        float m = fmaxf(fmaxf(fabsf(q.x), fabsf(q.y)), fmaxf(fabsf(q.z), fabsf(q.w)));
        if (!(m > 0.0f)) return (sw_quat){0.0f, 0.0f, 0.0f, 1.0f};
        q = (sw_quat){q.x / m, q.y / m, q.z / m, q.w / m};
        n2 = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
    }
    const float inv = 1.0f / sqrtf(n2);
    return (sw_quat){q.x * inv, q.y * inv, q.z * inv, q.w * inv};
}

/* a + s·(b − a) along the shorter arc, normalised (nlerp). */
static inline sw_quat sw__nlerp(sw_quat a, sw_quat b, float s) {
    if (a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w < 0.0f) b = (sw_quat){-b.x, -b.y, -b.z, -b.w};
    return sw__quat_normalized((sw_quat){a.x + (b.x - a.x) * s, a.y + (b.y - a.y) * s, a.z + (b.z - a.z) * s,
                                         a.w + (b.w - a.w) * s});
}

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

#define SW__T 0
#define SW__R 1
#define SW__S 2

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

/* ---- the compressed clip and its sampling job ------------------------------------- */

void sw__compressed_view(const uint8_t* bytes, size_t size, sw_compressed_clip* out) {
    const uint32_t tracks = sw__le32(bytes + SW__SWA_OFF_TRACKS), constants = sw__le32(bytes + SW__SWA_OFF_CONSTANTS),
                   components = sw__le32(bytes + SW__SWA_OFF_COMPONENTS),
                   segments = sw__le32(bytes + SW__SWA_OFF_SEGMENTS), name = sw__le32(bytes + SW__SWA_OFF_NAME_SIZE);
    const sw__swa_layout l = sw__swa_layout_of(tracks, constants, components, segments, name);
    *out = (sw_compressed_clip){
        .bytes = bytes,
        .size = size,
        .name = (const char*)bytes + l.name,
        .track_count = tracks,
        .target_count = sw__le32(bytes + SW__SWA_OFF_TARGETS),
        .sample_count = sw__le32(bytes + SW__SWA_OFF_SAMPLES),
        .segment_count = segments,
        .animated_count = sw__le32(bytes + SW__SWA_OFF_ANIMATED),
        .component_count = components,
        .start = sw__lef32(bytes + SW__SWA_OFF_START),
        .duration = sw__lef32(bytes + SW__SWA_OFF_END),
        .worst_error = sw__lef32(bytes + SW__SWA_OFF_WORST),
        .tolerance = sw__lef32(bytes + SW__SWA_OFF_TOLERANCE),
        .virtual_vertex = sw__lef32(bytes + SW__SWA_OFF_VIRTUAL),
        .tracks = bytes + l.tracks,
        .constants = (const float*)(const void*)(bytes + l.constants),
        .ranges = (const float*)(const void*)(bytes + l.minimums),
        .segments = (const uint32_t*)(const void*)(bytes + l.segments),
    };
}

float sw_compressed_clip_time(const sw_compressed_clip* clip, float t, bool loop) {
    SW_ASSERT(clip);
    sw_clip span = {.start = clip->start, .duration = clip->duration};
    return sw_clip_time(&span, t, loop);
}

size_t sw_compressed_cache_capacity(const sw_compressed_clip* clip) { /* floats */
    SW_ASSERT(clip);
    return (size_t)SW__SWA_BLOCK * ((size_t)clip->component_count + 3u);
}

sw_result sw_compressed_sample_job_validate(const sw_compressed_sample_job* job, sw_diag* diag) {
    if (!job || !job->clip || !job->clip->bytes)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "compressed sample job has no clip");
    if (!job->out_local) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "compressed sample job has no out_local");
    if (job->cache && (!job->cache->values || job->cache->capacity < sw_compressed_cache_capacity(job->clip)))
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1,
                           "compressed sample job: its cache holds %zu floats, the clip needs %zu",
                           job->cache->values ? job->cache->capacity : 0, sw_compressed_cache_capacity(job->clip));
    const sw_compressed_clip* c = job->clip;
    for (uint32_t i = 0; i < c->track_count; i++) {
        uint32_t target = sw__le32(c->tracks + (size_t)i * SW__SWA_TRACK_SIZE);
        if (target >= job->target_count)
            return sw_diag_set(diag, SW_ERR_INDEX_OUT_OF_RANGE, (int64_t)i,
                               "compressed track %u targets %u, outside the %zu targets", i, target, job->target_count);
    }
    return SW_OK;
}

/* One sample's place: its segment's codes and ranges, its block's entry
   in the offset table, its row in the block and the block's rows. */
typedef struct sw__sample_at {
    const uint8_t* seg;     /* NULL: nothing is animated */
    const uint8_t* codes;   /* per component */
    const uint8_t* ranges;  /* per component: 8-bit minimum, extent */
    const uint8_t* entry;   /* the block's: raw-row offset, then one entry per group */
    uint32_t row, rows;
} sw__sample_at;

static sw__sample_at sw__sample_in_segment(const sw_compressed_clip* c, uint32_t sample, uint32_t groups) {
    sw__sample_at at = {0};
    if (!c->segment_count) return at;
    const uint32_t s = sample / SW_COMPRESS_SEGMENT_SAMPLES, j = sample % SW_COMPRESS_SEGMENT_SAMPLES;
    at.seg = c->bytes + c->segments[s];
    at.codes = at.seg + 8;
    at.ranges = at.codes + c->component_count;
    at.entry = at.seg + sw__segment_head_size(c->component_count) + (size_t)(j / SW__SWA_BLOCK) * sw__block_entry_size(groups);
    at.row = j % SW__SWA_BLOCK;
    at.rows = sw__block_rows(sw__segment_samples(c->sample_count, s), j / SW__SWA_BLOCK);
    return at;
}

/* `steps` rows of one direction's four lanes (bit positions p) applied to
   q; after `snap_a` and `snap_b` steps (0 = never) q is copied out, and,
   with `every`, after each step r to every + r · stride. */
static void sw__lane_pass(const uint8_t* seg, uint64_t p0, uint64_t p1, uint64_t p2, uint64_t p3,
                          const sw__lane_code* codes, uint32_t n, uint32_t* q, uint32_t steps, uint32_t snap_a,
                          uint32_t* qa, uint32_t snap_b, uint32_t* qb, size_t count, uint32_t* every,
                          ptrdiff_t stride) {
    const uint32_t whole = n & ~3u;
    for (uint32_t r = 1; r <= steps; r++) {
        uint32_t j = 0;
        for (; j < whole; j += 4) {
            const uint32_t d0 = sw__lane_read(seg, &p0, &codes[j]), d1 = sw__lane_read(seg, &p1, &codes[j + 1]);
            const uint32_t d2 = sw__lane_read(seg, &p2, &codes[j + 2]), d3 = sw__lane_read(seg, &p3, &codes[j + 3]);
            q[codes[j].index] += d0, q[codes[j + 1].index] += d1;
            q[codes[j + 2].index] += d2, q[codes[j + 3].index] += d3;
        }
        if (j < n) q[codes[j].index] += sw__lane_read(seg, &p0, &codes[j]);
        if (j + 1 < n) q[codes[j + 1].index] += sw__lane_read(seg, &p1, &codes[j + 1]);
        if (j + 2 < n) q[codes[j + 2].index] += sw__lane_read(seg, &p2, &codes[j + 2]);
        if (r == snap_a) memcpy(qa, q, count);
        if (r == snap_b) memcpy(qb, q, count);
        if (every) memcpy(every + (ptrdiff_t)r * stride, q, count);
    }
}

/* The integers of components [first, end) (group g) at rows row_a ≤
   row_b of one block: the raw (middle) row, then the differences away
   from it, four bit cursors at a time. qa and qb hold SW__SWA_GROUP + 3
   (the SSE2 path loads four from any component). With `rows`, every row
   of the block instead: row r at rows + r · stride (qa, qb unused).
   *raw_pos: where the group starts in the raw row, then where it ends
   (groups are decoded in order, so the next one starts there). */
static void sw__decode_group(const sw__sample_at* at, uint32_t g, uint32_t first, uint32_t end, uint32_t row_a,
                             uint32_t row_b, uint32_t* qa, uint32_t* qb, uint32_t* rows, size_t stride,
                             uint64_t* raw_pos) {
    uint32_t q[SW__SWA_GROUP + 3];
    sw__lane_code codes[SW__SWA_GROUP];
    uint64_t pos = *raw_pos;
    const uint8_t* raw = at->seg + sw__le32(at->entry);
    uint32_t n = 0;
    for (uint32_t c = first; c < end; c++) {
        const unsigned bits = sw__code_bits(at->codes[c]);
        q[c - first] = bits ? (uint32_t)(sw__stream_word(raw, pos) & ((1ull << bits) - 1u)) : 0u;
        pos += bits;
        if (!bits) continue;
        codes[n++] = sw__lane_code_of(at->codes[c], c - first);
    }
    *raw_pos = pos;
    q[end - first] = q[end - first + 1] = q[end - first + 2] = 0; /* what the SSE2 lanes read past the end */
    const size_t count = (size_t)(end - first + 3) * sizeof(uint32_t);
    const uint32_t middle = sw__block_middle(at->rows);
    uint32_t* every = rows ? rows + (size_t)middle * stride : NULL;
    if (rows) {
        row_a = 0, row_b = at->rows - 1u;
        memcpy(every, q, (size_t)(end - first) * sizeof(uint32_t));
    } else {
        if (row_a == middle) memcpy(qa, q, count);
        if (row_b == middle) memcpy(qb, q, count);
    }
    const size_t copied = rows ? (size_t)(end - first) * sizeof(uint32_t) : count;
    const uint8_t* lanes = at->entry + 4u + (size_t)SW__SWA_GROUP_ENTRY * g;
    const uint64_t base = sw__le32(lanes);
    uint64_t p[2 * SW__SWA_LANES];
    p[0] = base * 8u;
    for (uint32_t k = 1; k < 2 * SW__SWA_LANES; k++) p[k] = (base + (uint32_t)(lanes[2 + 2 * k] | lanes[3 + 2 * k] << 8)) * 8u;
    if (row_b > middle) { /* forward; row_a too when it lies above the middle */
        uint32_t f[SW__SWA_GROUP + 3];
        memcpy(f, q, count);
        sw__lane_pass(at->seg, p[4], p[5], p[6], p[7], codes, n, f, row_b - middle,
                      !rows && row_a > middle ? row_a - middle : 0, qa, rows ? 0 : row_b - middle, qb, copied, every,
                      (ptrdiff_t)stride);
    }
    if (row_a < middle) /* backward, the last use of q */
        sw__lane_pass(at->seg, p[0], p[1], p[2], p[3], codes, n, q, middle - row_a, rows ? 0 : middle - row_a, qa,
                      !rows && row_b < middle ? middle - row_b : 0, qb, copied, every, -(ptrdiff_t)stride);
}

/* A property's `count` components from comp on, dequantised (scalar):
   q from the group's integers (group starts at component `first`). */
static inline void sw__dequantize_property(const sw_compressed_clip* c, const sw__sample_at* at, uint32_t comp,
                                           uint32_t count, const uint32_t* q, float* out) {
    const float* mins = c->ranges;
    const float* extents = c->ranges + c->component_count;
    for (uint32_t k = 0; k < count; k++) {
        const uint32_t i = comp + k;
        const unsigned bits = sw__code_bits(at->codes[i]);
        const sw__factors f = sw__factors_of(bits, at->ranges[2 * i], at->ranges[2 * i + 1], mins[i], extents[i]);
        out[k] = f.offset + f.scale * (float)q[k];
    }
}

/* Rotations are finished four at a time: rebuilt, nlerped and normalised
   in SIMD lanes (SSE2), where the scalar chain of square roots and a
   division per rotation would leave the core waiting. Entry i holds the
   three stored components of both samples (the dropped one is rebuilt as
   the fourth and written back to its place). */

typedef struct sw__rotation_batch {
    int count;
    float a[4][4], b[4][4]; /* [entry][component]: the stored x y z (the fourth unused) */
    float s[4];
    uint8_t dropped[4];
    sw_quat* out[4];
} sw__rotation_batch;

static void sw__flush_rotations(sw__rotation_batch* batch) {
    const int n = batch->count;
    if (n == 0) return;
    float q[4][4]; /* [component][entry], stored order with the rebuilt one last */
#if SW__DECODE_SSE2
    const __m128 one = _mm_set1_ps(1.0f), zero = _mm_setzero_ps();
    __m128 ax = _mm_loadu_ps(batch->a[0]), ay = _mm_loadu_ps(batch->a[1]), az = _mm_loadu_ps(batch->a[2]),
           aw = _mm_loadu_ps(batch->a[3]);
    __m128 bx = _mm_loadu_ps(batch->b[0]), by = _mm_loadu_ps(batch->b[1]), bz = _mm_loadu_ps(batch->b[2]),
           bw = _mm_loadu_ps(batch->b[3]);
    _MM_TRANSPOSE4_PS(ax, ay, az, aw);
    _MM_TRANSPOSE4_PS(bx, by, bz, bw);
    aw = _mm_sqrt_ps(_mm_max_ps(zero, _mm_sub_ps(one, _mm_add_ps(_mm_add_ps(_mm_mul_ps(ax, ax), _mm_mul_ps(ay, ay)),
                                                                 _mm_mul_ps(az, az)))));
    bw = _mm_sqrt_ps(_mm_max_ps(zero, _mm_sub_ps(one, _mm_add_ps(_mm_add_ps(_mm_mul_ps(bx, bx), _mm_mul_ps(by, by)),
                                                                 _mm_mul_ps(bz, bz)))));
    /* sums in sw__nlerp's order, so the lanes give the scalar values */
    const __m128 dot = _mm_add_ps(_mm_add_ps(_mm_add_ps(_mm_mul_ps(ax, bx), _mm_mul_ps(ay, by)), _mm_mul_ps(az, bz)),
                                  _mm_mul_ps(aw, bw));
    const __m128 flip = _mm_and_ps(_mm_cmplt_ps(dot, zero), _mm_set1_ps(-0.0f));
    bx = _mm_xor_ps(bx, flip), by = _mm_xor_ps(by, flip), bz = _mm_xor_ps(bz, flip), bw = _mm_xor_ps(bw, flip);
    const __m128 t = _mm_loadu_ps(batch->s);
    __m128 x = _mm_add_ps(ax, _mm_mul_ps(_mm_sub_ps(bx, ax), t)), y = _mm_add_ps(ay, _mm_mul_ps(_mm_sub_ps(by, ay), t));
    __m128 z = _mm_add_ps(az, _mm_mul_ps(_mm_sub_ps(bz, az), t)), w = _mm_add_ps(aw, _mm_mul_ps(_mm_sub_ps(bw, aw), t));
    const __m128 n2 = _mm_add_ps(_mm_add_ps(_mm_add_ps(_mm_mul_ps(x, x), _mm_mul_ps(y, y)), _mm_mul_ps(z, z)),
                                 _mm_mul_ps(w, w));
    const __m128 inv = _mm_div_ps(one, _mm_sqrt_ps(_mm_max_ps(n2, _mm_set1_ps(1e-30f))));
    _mm_storeu_ps(q[0], _mm_mul_ps(x, inv));
    _mm_storeu_ps(q[1], _mm_mul_ps(y, inv));
    _mm_storeu_ps(q[2], _mm_mul_ps(z, inv));
    _mm_storeu_ps(q[3], _mm_mul_ps(w, inv));
#else
    for (int i = 0; i < n; i++) {
        sw_quat r = sw__nlerp(sw__rebuild_quat(batch->a[i], 3), sw__rebuild_quat(batch->b[i], 3), batch->s[i]);
        q[0][i] = r.x, q[1][i] = r.y, q[2][i] = r.z, q[3][i] = r.w;
    }
#endif
    for (int i = 0; i < n; i++) {
        float* out = &batch->out[i]->x;
        const unsigned d = batch->dropped[i];
        if (d == 3) { /* w dropped, the usual case: the stored order */
            out[0] = q[0][i], out[1] = q[1][i], out[2] = q[2][i], out[3] = q[3][i];
            continue;
        }
        int k = 0;
        for (unsigned c = 0; c < 4; c++) out[c] = c == d ? q[3][i] : q[k++][i];
    }
    batch->count = 0;
}

#if SW__DECODE_SSE2
/* sw__dequantize_property in four lanes: the same operations in the same
   order as sw__factors_of, so the same values. Reads four code bytes, 8
   range bytes and 4 floats of the minimums and extents from the
   property's first component on: past its last component they are the
   next component's or, at the end, the bytes after them, inside the
   file (the layout guarantees it); a fourth lane of a 3-component
   property is computed and not used. */
typedef struct sw__factors4 {
    __m128 scale, offset;
} sw__factors4;

static inline sw__factors4 sw__factors_sse2(const sw_compressed_clip* c, const sw__sample_at* at, uint32_t comp,
                                            uint32_t count) {
    const uint8_t* cb = at->codes + comp;
    /* a 3-component property's fourth lane reads the byte after its codes
       (the next component's, or a range byte): 0 bits there */
    const unsigned bits[4] = {cb[0] & 31u, cb[1] & 31u, cb[2] & 31u, count == 4 ? cb[3] & 31u : 0u};
    const __m128i zero = _mm_setzero_si128();
    const __m128i bytes = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i*)(const void*)(at->ranges + 2u * comp)), zero);
    const __m128 lo_ext01 = _mm_cvtepi32_ps(_mm_unpacklo_epi16(bytes, zero)); /* min0 ext0 min1 ext1 */
    const __m128 lo_ext23 = _mm_cvtepi32_ps(_mm_unpackhi_epi16(bytes, zero));
    const __m128 inv255 = _mm_set1_ps(1.0f / 255.0f);
    const __m128 lo = _mm_mul_ps(_mm_shuffle_ps(lo_ext01, lo_ext23, _MM_SHUFFLE(2, 0, 2, 0)), inv255);
    const __m128 ext = _mm_mul_ps(_mm_shuffle_ps(lo_ext01, lo_ext23, _MM_SHUFFLE(3, 1, 3, 1)), inv255);
    const __m128 clip_min = _mm_loadu_ps(c->ranges + comp);
    const __m128 clip_ext = _mm_loadu_ps(c->ranges + c->component_count + comp);
    const __m128 steps = _mm_set_ps(sw__inv_steps[bits[3]], sw__inv_steps[bits[2]], sw__inv_steps[bits[1]],
                                    sw__inv_steps[bits[0]]);
    sw__factors4 f;
    f.scale = _mm_mul_ps(clip_ext, _mm_mul_ps(ext, steps));
    /* 0 bits: the middle of the range (lo + ext / 2), else lo */
    const __m128i widths = _mm_set_epi32((int)bits[3], (int)bits[2], (int)bits[1], (int)bits[0]);
    const __m128 none = _mm_castsi128_ps(_mm_cmpeq_epi32(widths, zero));
    const __m128 x = _mm_add_ps(lo, _mm_and_ps(none, _mm_mul_ps(_mm_set1_ps(0.5f), ext)));
    f.offset = _mm_add_ps(clip_min, _mm_mul_ps(clip_ext, x));
    return f;
}

/* The integers are below 2^24: exact as signed 32-bit and as floats. */
static inline __m128 sw__dequantize_sse2(sw__factors4 f, const uint32_t* q) {
    const __m128i qi = _mm_loadu_si128((const __m128i*)(const void*)q);
    return _mm_add_ps(f.offset, _mm_mul_ps(f.scale, _mm_cvtepi32_ps(qi)));
}
#endif

/* The cache: every row of sample at's block, every group decoded, then
   each value dequantised in place (row r at values + r · stride; 3 zero
   floats after each row for the SSE2 loads past its last component). */
static void sw__fill_cache(const sw_compressed_clip* c, const sw__sample_at* at, float* values, size_t stride) {
    uint32_t* rows = (uint32_t*)(void*)values; /* integers first, then floats in their place */
    sw__group_walk all = sw__group_walk_of(c->tracks, c->track_count);
    uint32_t first, end;
    uint64_t raw_pos = 0;
    for (uint32_t g = 0; sw__next_group(&all, &first, &end); g++)
        sw__decode_group(at, g, first, end, 0, 0, NULL, NULL, rows + first, stride, &raw_pos);
    const uint32_t C = c->component_count;
    for (uint32_t r = 0; r < at->rows; r++) {
        float* row = values + (size_t)r * stride;
        uint32_t q[4];
        for (uint32_t i = 0; i < C; i += 4) {
            const uint32_t n = C - i < 4 ? C - i : 4;
            memcpy(q, rows + (size_t)r * stride + i, n * sizeof(uint32_t));
            float v[4];
            sw__dequantize_property(c, at, i, n, q, v);
            memcpy(row + i, v, n * sizeof(float));
        }
        row[C] = row[C + 1] = row[C + 2] = 0.0f;
    }
}

void sw_compressed_sample_job_run(const sw_compressed_sample_job* job) {
    SW_ASSERT(job && job->clip && job->out_local);
    const sw_compressed_clip* c = job->clip;
    const uint32_t n = c->sample_count;
    const float t = job->time;
    uint32_t i0 = 0, i1 = 0;
    float s = 0.0f;
    if (n > 1 && t > c->start) {
        if (t >= c->duration) {
            i0 = i1 = n - 1;
        } else {
            float f = (t - c->start) * ((float)(n - 1) / (c->duration - c->start));
            i0 = f < (float)(n - 2) ? (uint32_t)f : n - 2;
            s = f - (float)i0;
            s = s < 0.0f ? 0.0f : s > 1.0f ? 1.0f : s;
            i1 = i0 + 1;
        }
    }
    const uint32_t groups = c->segment_count ? sw__group_count(c->tracks, c->track_count) : 0u;
    const sw__sample_at a = sw__sample_in_segment(c, i0, groups), b = sw__sample_in_segment(c, i1, groups);
    sw__group_walk walk = sw__group_walk_of(c->tracks, c->track_count);
    uint32_t group = 0, group_first = 0, group_end = 0;
    uint64_t raw_a = 0, raw_b = 0; /* where the next group starts in each sample's raw row */
    uint32_t qa[SW__SWA_GROUP + 3], qb[SW__SWA_GROUP + 3];
    /* base_a[comp], base_b[comp]: a component's integer at each sample; or,
       from the cache, values_a[comp], values_b[comp]: its value */
    const uint32_t *base_a = NULL, *base_b = NULL;
    const float *values_a = NULL, *values_b = NULL;
    sw_compressed_cache* cache = job->cache;
    if (cache && a.seg) {
        const size_t stride = (size_t)c->component_count + 3u;
        if (cache->block != a.entry) sw__fill_cache(c, &a, cache->values, stride);
        cache->block = a.entry;
        values_a = cache->values + (size_t)a.row * stride;
        if (b.entry == a.entry) values_b = cache->values + (size_t)b.row * stride;
    }
    const bool cached_a = values_a != NULL, cached_b = values_b != NULL;
    const float* constant = c->constants;
    uint32_t comp = 0;
    sw__rotation_batch batch;
    memset(&batch, 0, sizeof batch); /* lanes past the count compute on zeros and are dropped */
    for (uint32_t i = 0; i < c->track_count; i++) {
        const uint8_t* d = c->tracks + (size_t)i * SW__SWA_TRACK_SIZE;
        const uint32_t target = sw__le32(d);
        SW_ASSERT(target < job->target_count);
        sw_transform* out = &job->out_local[target];
        for (int path = 0; path < 3; path++) {
            const uint8_t kind = d[SW__TRACK_T + path];
            float* dst = path == SW__T ? &out->translation.x : path == SW__R ? &out->rotation.x : &out->scale.x;
            if (kind == SW_COMPRESSED_NONE) continue;
            if (kind == SW_COMPRESSED_DEFAULT) {
                if (path == SW__R) out->rotation = (sw_quat){0, 0, 0, 1};
                else dst[0] = dst[1] = dst[2] = path == SW__S ? 1.0f : 0.0f;
                continue;
            }
            if (kind == SW_COMPRESSED_CONSTANT) {
                const int count = path == SW__R ? 4 : 3;
                memcpy(dst, constant, (size_t)count * sizeof(float));
                constant += count;
                continue;
            }
            if (comp >= group_end) {
                /* the next group's integers where no cache holds them: one pass
                   for both samples when they share a block */
                if (!sw__next_group(&walk, &group_first, &group_end)) SW_ASSERT(false);
                if (!cached_a && a.entry == b.entry) {
                    sw__decode_group(&a, group, group_first, group_end, a.row, b.row, qa, qb, NULL, 0, &raw_a);
                } else {
                    if (!cached_a)
                        sw__decode_group(&a, group, group_first, group_end, a.row, a.row, qa, qa, NULL, 0, &raw_a);
                    if (!cached_b)
                        sw__decode_group(&b, group, group_first, group_end, b.row, b.row, qb, qb, NULL, 0, &raw_b);
                }
                if (!cached_a) base_a = qa - group_first;
                if (!cached_b) base_b = qb - group_first;
                group++;
            }
            const uint8_t dropped = d[SW__TRACK_DROPPED];
            const uint32_t count = sw__property_components(path, dropped);
            const bool rotation3 = path == SW__R && dropped < 4;
            const uint32_t* pa = base_a ? base_a + comp : NULL;
            const uint32_t* pb = base_b ? base_b + comp : NULL;
#if SW__DECODE_SSE2
            {
                /* one segment's factors serve both samples (31 times in 32) */
                __m128 va, vb;
                if (cached_a) {
                    va = _mm_loadu_ps(values_a + comp);
                } else {
                    const sw__factors4 fa = sw__factors_sse2(c, &a, comp, count);
                    va = sw__dequantize_sse2(fa, pa);
                    if (!cached_b && b.codes == a.codes) vb = sw__dequantize_sse2(fa, pb);
                }
                if (cached_b) vb = _mm_loadu_ps(values_b + comp);
                else if (cached_a || b.codes != a.codes) vb = sw__dequantize_sse2(sw__factors_sse2(c, &b, comp, count), pb);
                comp += count;
                if (rotation3) {
                    _mm_storeu_ps(batch.a[batch.count], va);
                    _mm_storeu_ps(batch.b[batch.count], vb);
                    batch.s[batch.count] = s, batch.dropped[batch.count] = dropped;
                    batch.out[batch.count] = &out->rotation;
                    if (++batch.count == 4) sw__flush_rotations(&batch);
                } else if (path == SW__R) {
                    float fa[4], fb[4];
                    _mm_storeu_ps(fa, va), _mm_storeu_ps(fb, vb);
                    out->rotation = sw__nlerp(sw__rebuild_quat(fa, dropped), sw__rebuild_quat(fb, dropped), s);
                } else {
                    const __m128 v = _mm_add_ps(va, _mm_mul_ps(_mm_sub_ps(vb, va), _mm_set1_ps(s)));
                    _mm_storel_pi((__m64*)(void*)dst, v);
                    _mm_store_ss(dst + 2, _mm_movehl_ps(v, v));
                }
                continue;
            }
#else
            float* va = rotation3 ? batch.a[batch.count] : (float[4]){0};
            float* vb = rotation3 ? batch.b[batch.count] : (float[4]){0};
            if (cached_a) memcpy(va, values_a + comp, count * sizeof(float));
            else sw__dequantize_property(c, &a, comp, count, pa, va);
            if (cached_b) memcpy(vb, values_b + comp, count * sizeof(float));
            else sw__dequantize_property(c, &b, comp, count, pb, vb);
            comp += count;
            if (rotation3) {
                batch.s[batch.count] = s, batch.dropped[batch.count] = dropped, batch.out[batch.count] = &out->rotation;
                if (++batch.count == 4) sw__flush_rotations(&batch);
            } else if (path == SW__R) {
                out->rotation = sw__nlerp(sw__rebuild_quat(va, dropped), sw__rebuild_quat(vb, dropped), s);
            } else {
                const float a0 = va[0], a1 = va[1], a2 = va[2], b0 = vb[0], b1 = vb[1], b2 = vb[2];
                dst[0] = a0 + (b0 - a0) * s, dst[1] = a1 + (b1 - a1) * s, dst[2] = a2 + (b2 - a2) * s;
            }
#endif
        }
    }
    sw__flush_rotations(&batch);
}
