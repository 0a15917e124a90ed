/* sinew/compress.h — compressed clips (.swa): what a shipped game keeps of
   its animations, decompressed straight into a pose.

       size_t n = sw_clip_resample_count(clip, 30.0f);
       sw_transform* raw = malloc(n * model->node_count * sizeof *raw);
       sw_clip_resample(clip, model->rest_local, model->node_count, n, raw);   // the clip at 30 Hz
       sw_compress_input in = {.joint_count = model->node_count, .parents = parents, .samples = raw,
                               .sample_count = n, .start = clip->start, .end = clip->duration,
                               .channels = channels, .name = clip->name};
       sw_compressed_bytes out;
       sw_compress_clip(&in, NULL, &out, &report, &diag);     // out.bytes: the .swa file's bytes
       ...
       sw_compressed_clip c;                                  // a view of validated bytes:
       sw_swa_read(bytes, size, "walk.swa", &c, &diag);       // sinew/import.h (the import library)
       sw_compressed_sample_job job = {.clip = &c, .time = t, .target_count = model->node_count,
                                       .out_local = pose.local};
       sw_compressed_sample_job_run(&job);                    // as sw_sample_job: any time, no allocation
                                                              // (.cache: a decoded block kept for playback)

   A clip is compressed from regular samples of every joint's local TRS
   (the raw clip resampled, sw_clip_resample). Per joint, each of
   translation, rotation and scale is one of: not driven (the clip has no
   track for it: left as the caller set it, as sw_sample_job leaves it),
   default (identity rotation, zero translation, unit scale: no bytes),
   constant (one full-precision value) or animated. Animated values are
   range reduced twice, over the clip (float minimum and extent per
   component) and over each segment of up to 32 samples (8-bit minimum
   and extent within the clip range), then quantised to a bit count chosen
   per segment and per component (0..24 bits; 0 = the middle of the
   segment range; a property's components share one step size, each
   then lowered alone where the error allows). Rotations are made to have
   one component (the one farthest from zero over the whole clip)
   positive and drop it: it is sqrt(1 − the others²) again on
   decompression (a rotation with no such component holds one constant
   per segment instead). The integers are written as Rice-coded
   differences towards the middle sample of 16-sample blocks.

   The bit counts are searched against the error the user sees (see
   docs/compression.md): virtual vertices at `virtual_vertex` from each
   joint along its three axes, in model space (so a parent's error moves
   its children), compared with the raw samples; each value is chosen
   knowing its parent as decoded (closed loop); every sample of the clip
   is within `tolerance` of the raw one when the search succeeds.

   Decompression is a sampling job with sw_sample_job's contract: any time
   (held before the first and after the last sample; loop with
   sw_compressed_clip_time), per-track output into a pose's locals,
   interpolation between the two samples around t (lerp, and nlerp for
   rotations), no allocation, no state: any number may run at once. A
   caller-owned sw_compressed_cache (one per character) keeps a decoded
   block, so playback decodes each block once; the poses are the same.

   The bytes are the clip: sw_compressed_clip is a view into them, made
   by sw_swa_read after validating every count and offset, so a clip
   needs no unpacking. Little-endian; the byte layout is in
   docs/compression.md. */
#ifndef SINEW_COMPRESS_H
#define SINEW_COMPRESS_H

#include "sinew/base.h"
#include "sinew/math.h"
#include "sinew/anim.h"

SW_EXTERN_C_BEGIN

/* ---- resampling a raw clip --------------------------------------------------- */

/* Samples of `clip` at `rate` Hz over [start, duration] that sw_clip_resample
   writes: the span times the rate, rounded up, plus one (1 for a clip of
   zero span), so both ends are samples and the spacing is at most 1/rate.
   0 for a rate that is not positive and finite or a span over 2^24 samples. */
size_t sw_clip_resample_count(const sw_clip* clip, float rate);

/* The time of sample i of n over [start, end]: start + i·(end − start)/(n − 1)
   (start for n = 1; end exactly for i = n − 1). */
float sw_resample_time(float start, float end, size_t i, size_t n);

/* sample_count local poses of joint_count transforms, sample i being `rest`
   with the clip sampled over it (sw_sample_job, translation, rotation and
   scale tracks; weight tracks are skipped) at sw_resample_time(clip->start,
   clip->duration, i, sample_count). Tracks must target joints < joint_count. */
sw_result sw_clip_resample(const sw_clip* clip, const sw_transform* rest, size_t joint_count, size_t sample_count,
                           sw_transform* out, sw_diag* diag);

/* Which properties of a joint the clip drives (sw_compress_input.channels). */
enum {
    SW_CHANNEL_TRANSLATION = 1,
    SW_CHANNEL_ROTATION = 2,
    SW_CHANNEL_SCALE = 4,
};

/* out[j] = the SW_CHANNEL_* bits of the clip's tracks on joint j (weight
   tracks and targets ≥ joint_count are ignored). */
void sw_clip_channels(const sw_clip* clip, uint8_t* out, size_t joint_count);

/* ---- compressing ------------------------------------------------------------- */

typedef struct sw_compress_input {
    size_t joint_count;          /* joints of each sample (a model's nodes), 1..SW_MAX_JOINTS */
    const int32_t* parents;      /* joint_count; parents[i] < i, or −1 for a root (model node order) */
    const sw_transform* samples; /* sample_count × joint_count local transforms, sample-major */
    size_t sample_count;         /* ≥ 1, < 2^24 */
    float start, end;            /* clip times of the first and last sample (end ≥ start) */
    const uint8_t* channels;     /* joint_count SW_CHANNEL_* masks; NULL = every property driven */
    const char* name;            /* the clip's name, kept in the bytes (may be NULL) */
} sw_compress_input;

/* Zero = default. */
typedef struct sw_compress_settings {
    float tolerance;      /* metres of virtual-vertex error allowed; default 1e-4 (0.01 cm) */
    float virtual_vertex; /* metres from each joint along its axes; default 0.03 */
} sw_compress_settings;

#define SW_COMPRESS_DEFAULT_TOLERANCE 1e-4f
#define SW_COMPRESS_DEFAULT_VIRTUAL_VERTEX 0.03f
#define SW_COMPRESS_SEGMENT_SAMPLES 32
#define SW_COMPRESS_MAX_BITS 24

/* What the compressor reached. Errors are virtual-vertex displacements
   in model space, in the samples' units, over every sample and every
   joint's three vertices (the worst per joint and sample enters the
   percentile). */
typedef struct sw_compress_report {
    float worst_error;       /* the largest over every sample */
    float p99_error;         /* 99th percentile of the per-joint, per-sample worst */
    size_t worst_joint;      /* where the worst was */
    size_t worst_sample;
    bool met;                /* worst_error ≤ tolerance (false only where 24 bits were not enough) */
    size_t raw_bytes;        /* 40 bytes × driven joints × samples */
    size_t compressed_bytes; /* the .swa bytes */
    size_t driven_joints;    /* joints with a channel */
    size_t animated_tracks, constant_tracks, default_tracks; /* of the driven T, R, S properties */
    double mean_bits;        /* the segments' bits per animated component and sample */
} sw_compress_report;

/* Bytes the compressor made (sw_compress_bytes_free them). */
typedef struct sw_compressed_bytes {
    uint8_t* bytes;
    size_t size;
} sw_compressed_bytes;

/* Compresses the samples; `report` (may be NULL) says what was reached.
   Allocates its scratch and the bytes (sw_set_allocator); O(samples ×
   joints × searched bit counts). Fails on counts, non-finite values, a
   parent order that is not parents first, or running out of memory. */
sw_result sw_compress_clip(const sw_compress_input* input, const sw_compress_settings* settings,
                           sw_compressed_bytes* out, sw_compress_report* report, sw_diag* diag);
void sw_compress_bytes_free(sw_compressed_bytes* bytes);

/* ---- the compressed clip and its sampling --------------------------------------- */

/* Per joint track, how one property is stored. */
typedef enum sw_compressed_kind {
    SW_COMPRESSED_NONE = 0,     /* not driven: not written */
    SW_COMPRESSED_DEFAULT = 1,  /* identity value, written */
    SW_COMPRESSED_CONSTANT = 2, /* one stored value, written */
    SW_COMPRESSED_ANIMATED = 3,
} sw_compressed_kind;

/* A view of validated .swa bytes (sw_swa_read, sinew/import.h). Plain
   pointers into the bytes, which must outlive it. */
typedef struct sw_compressed_clip {
    const uint8_t* bytes;
    size_t size;
    const char* name;          /* NUL-terminated inside the bytes */
    uint32_t track_count;      /* joint tracks */
    uint32_t target_count;     /* targets of the pose it was made for (node count) */
    uint32_t sample_count;
    uint32_t segment_count;
    uint32_t animated_count;   /* animated T/R/S properties of all tracks */
    uint32_t component_count;  /* their stored components */
    float start, duration;     /* clip time of the first and last sample (as sw_clip) */
    float worst_error;         /* what the compressor reported */
    float tolerance, virtual_vertex;
    const uint8_t* tracks;     /* track_count × 8 bytes: target u32, kinds T R S, dropped component */
    const float* constants;    /* stored constant values, track order */
    const float* ranges;       /* component_count × (minimum, extent) */
    const uint32_t* segments;  /* segment_count byte offsets of each segment's data */
} sw_compressed_clip;

/* sw_clip_time for a compressed clip: t, or with `loop` t wrapped into
   [0, duration). */
float sw_compressed_clip_time(const sw_compressed_clip* clip, float t, bool loop);

/* Caller-owned memory that keeps one block (16 samples) of one clip
   decoded and dequantised, so that a character playing forward or
   backward through the clip decodes each block once; a pose inside it
   then only interpolates (stateless sampling decodes up to 8 differences
   per component a pose). One per character, not shared between jobs
   running at once. Zero it, point `values` at
   sw_compressed_cache_capacity(clip) floats; zero `block` again before
   giving it another clip whose bytes may sit at the same address. */
typedef struct sw_compressed_cache {
    float* values;            /* caller's memory */
    size_t capacity;          /* floats at values */
    const uint8_t* block;     /* the block held (its place in the clip's bytes), NULL: none */
} sw_compressed_cache;

size_t sw_compressed_cache_capacity(const sw_compressed_clip* clip);

typedef struct sw_compressed_sample_job {
    const sw_compressed_clip* clip;
    float time;               /* clip time (see sw_compressed_clip_time) */
    size_t target_count;      /* every track's target must be < target_count */
    sw_transform* out_local;  /* target_count transforms */
    sw_compressed_cache* cache; /* optional: NULL samples without state; the pose is the same either way */
} sw_compressed_sample_job;

sw_result sw_compressed_sample_job_validate(const sw_compressed_sample_job* job, sw_diag* diag);
void sw_compressed_sample_job_run(const sw_compressed_sample_job* job);

/* ---- the error metric ----------------------------------------------------------- */

/* The worst virtual-vertex displacement between two local poses of one
   hierarchy: for every joint, the points at distance d along its three
   axes in model space (world = parent world · local, with scale), the
   largest distance between the pose's and the reference's. `scratch`:
   2 × joint_count sw_mat34. Writes each joint's worst into
   out_per_joint (joint_count floats; may be NULL). */
float sw_virtual_vertex_error(const int32_t* parents, size_t joint_count, const sw_transform* pose,
                              const sw_transform* reference, float distance, sw_mat34* scratch,
                              float* out_per_joint);

SW_EXTERN_C_END

#endif
