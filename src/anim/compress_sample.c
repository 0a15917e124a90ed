/* Compressed clips (sinew/compress.h), the reading side: the view of
   .swa bytes, the sampling job (Rice-coded lanes decoded, dequantised and
   interpolated into a pose) and its playback cache. compress.c writes
   the bytes; docs/compression.md has them byte by byte. */
#include "sinew/compress.h"

#include <math.h>
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
