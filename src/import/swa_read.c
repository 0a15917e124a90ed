/* The .swa reader (sinew/swa.h): hostile bytes in, a validated view of a
   compressed clip out. The layout is compress_internal.h's; here every
   field is checked before sw__compressed_view trusts it. */
#include "sinew/swa.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../anim/compress_internal.h"
#include "../base/base_internal.h"
#include "file_internal.h"

static sw_result sw__swa_fail(sw_diag* diag, const char* name, const char* format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static sw_result sw__swa_fail(sw_diag* diag, const char* name, const char* format, ...) {
    va_list args;
    va_start(args, format);
    sw_result r = sw__diag_vset_at(diag, SW_ERR_INVALID_DATA, -1, name && *name ? name : "swa", NULL, 200, format, args);
    va_end(args);
    return r;
}

bool sw_swa_sniff(const uint8_t* bytes, size_t size) {
    return bytes && size >= 4 && memcmp(bytes, SW__SWA_MAGIC, 4) == 0;
}

/* The header's counts and times. */
static sw_result sw__swa_check_header(const uint8_t* b, size_t size, const char* name, sw_diag* diag) {
    if (size < SW__SWA_HEADER_SIZE)
        return sw__swa_fail(diag, name, "%zu bytes is shorter than the %u-byte header", size, SW__SWA_HEADER_SIZE);
    if (!sw_swa_sniff(b, size)) return sw__swa_fail(diag, name, "not a compressed clip (no SWA1 magic)");
    if (sw__le32(b + SW__SWA_OFF_VERSION) != SW__SWA_VERSION)
        return sw__swa_fail(diag, name, "version %u (this sinew reads %u)", sw__le32(b + SW__SWA_OFF_VERSION),
                            SW__SWA_VERSION);
    if (sw__le32(b + SW__SWA_OFF_SIZE) != size)
        return sw__swa_fail(diag, name, "the header says %u bytes, the file has %zu", sw__le32(b + SW__SWA_OFF_SIZE),
                            size);
    const uint32_t tracks = sw__le32(b + SW__SWA_OFF_TRACKS), targets = sw__le32(b + SW__SWA_OFF_TARGETS),
                   samples = sw__le32(b + SW__SWA_OFF_SAMPLES), segments = sw__le32(b + SW__SWA_OFF_SEGMENTS),
                   animated = sw__le32(b + SW__SWA_OFF_ANIMATED);
    if (tracks > SW_MAX_JOINTS || targets > SW_MAX_JOINTS || tracks > targets)
        return sw__swa_fail(diag, name, "%u tracks for %u targets (at most %d, tracks <= targets)", tracks, targets,
                            SW_MAX_JOINTS);
    if (samples == 0 || samples >= (1u << 24)) return sw__swa_fail(diag, name, "%u samples (1..2^24 - 1)", samples);
    uint32_t expected = animated ? (samples + SW_COMPRESS_SEGMENT_SAMPLES - 1) / SW_COMPRESS_SEGMENT_SAMPLES : 0;
    if (segments != expected)
        return sw__swa_fail(diag, name, "%u segments for %u samples (needs %u)", segments, samples, expected);
    const float start = sw__lef32(b + SW__SWA_OFF_START), end = sw__lef32(b + SW__SWA_OFF_END);
    /* the span too: sampling divides by it */
    if (!isfinite(start) || !isfinite(end) || !(end >= start) || !isfinite(end - start))
        return sw__swa_fail(diag, name, "times %g..%g are not a span", (double)start, (double)end);
    for (int off = SW__SWA_OFF_WORST; off <= SW__SWA_OFF_VIRTUAL; off += 4)
        if (!isfinite(sw__lef32(b + off))) return sw__swa_fail(diag, name, "header value at byte %d is not finite", off);
    return SW_OK;
}

/* The track descriptors against the counts of animated properties,
   components and constants. */
static sw_result sw__swa_check_tracks(const uint8_t* b, const sw__swa_layout* l, const char* name, sw_diag* diag) {
    const uint32_t tracks = sw__le32(b + SW__SWA_OFF_TRACKS), targets = sw__le32(b + SW__SWA_OFF_TARGETS);
    uint64_t animated = 0, components = 0, constants = 0;
    for (uint32_t i = 0; i < tracks; i++) {
        const uint8_t* d = b + l->tracks + (size_t)i * SW__SWA_TRACK_SIZE;
        uint32_t target = sw__le32(d);
        if (target >= targets) return sw__swa_fail(diag, name, "track %u: target %u is not under %u", i, target, targets);
        if (d[SW__TRACK_DROPPED] > 4)
            return sw__swa_fail(diag, name, "track %u: dropped component %u (0..4)", i, d[SW__TRACK_DROPPED]);
        for (int path = 0; path < 3; path++) {
            uint8_t kind = d[SW__TRACK_T + path];
            if (kind > SW_COMPRESSED_ANIMATED) return sw__swa_fail(diag, name, "track %u: kind %u (0..3)", i, kind);
            if (kind == SW_COMPRESSED_CONSTANT) constants += path == 1 ? 4 : 3;
            if (kind == SW_COMPRESSED_ANIMATED) animated++, components += sw__property_components(path, d[SW__TRACK_DROPPED]);
        }
    }
    if (animated != sw__le32(b + SW__SWA_OFF_ANIMATED) || components != sw__le32(b + SW__SWA_OFF_COMPONENTS) ||
        constants != sw__le32(b + SW__SWA_OFF_CONSTANTS))
        return sw__swa_fail(diag, name,
                            "the tracks hold %llu animated properties, %llu components, %llu constants; the header "
                            "says %u, %u, %u",
                            (unsigned long long)animated, (unsigned long long)components,
                            (unsigned long long)constants, sw__le32(b + SW__SWA_OFF_ANIMATED),
                            sw__le32(b + SW__SWA_OFF_COMPONENTS), sw__le32(b + SW__SWA_OFF_CONSTANTS));
    /* Constant rotations are written as they are: they must be unit. A
       rotation's stored components are a unit quaternion's: their clip
       ranges must lie in [-1, 1] (to float rounding), or the rebuild and
       the normalisation could overflow. */
    uint32_t at = 0, comp = 0;
    for (uint32_t i = 0; i < tracks; i++) {
        const uint8_t* d = b + l->tracks + (size_t)i * SW__SWA_TRACK_SIZE;
        for (int path = 0; path < 3; path++) {
            if (d[SW__TRACK_T + path] == SW_COMPRESSED_ANIMATED) {
                const uint32_t count = sw__property_components(path, d[SW__TRACK_DROPPED]);
                for (uint32_t k = 0; path == 1 && k < count; k++) {
                    const float lo = sw__lef32(b + l->minimums + 4u * (comp + k));
                    const float ext = sw__lef32(b + l->extents + 4u * (comp + k));
                    if (!(lo >= -1.001f && ext >= 0.0f && lo + ext <= 1.001f))
                        return sw__swa_fail(diag, name, "track %u: rotation component %u's range %g + %g is outside "
                                            "[-1, 1]", i, comp + k, (double)lo, (double)ext);
                }
                comp += count;
            }
            if (d[SW__TRACK_T + path] != SW_COMPRESSED_CONSTANT) continue;
            if (path == 1) {
                double n2 = 0.0;
                for (uint32_t k = 0; k < 4; k++) {
                    double v = sw__lef32(b + l->constants + 4u * (at + k));
                    n2 += v * v;
                }
                if (!(fabs(n2 - 1.0) <= 1e-3))
                    return sw__swa_fail(diag, name, "track %u: its constant rotation is not a unit quaternion", i);
            }
            at += path == 1 ? 4u : 3u;
        }
    }
    return SW_OK;
}

/* Floats finite, clip extents ≥ 0, the name NUL-terminated. */
static sw_result sw__swa_check_values(const uint8_t* b, const sw__swa_layout* l, const char* name, sw_diag* diag) {
    const uint32_t constants = sw__le32(b + SW__SWA_OFF_CONSTANTS), components = sw__le32(b + SW__SWA_OFF_COMPONENTS);
    for (uint32_t i = 0; i < constants; i++)
        if (!isfinite(sw__lef32(b + l->constants + 4u * i)))
            return sw__swa_fail(diag, name, "constant %u is not finite", i);
    for (uint32_t i = 0; i < components; i++) {
        float lo = sw__lef32(b + l->minimums + 4u * i), ext = sw__lef32(b + l->extents + 4u * i);
        if (!isfinite(lo) || !isfinite(ext) || ext < 0.0f || !isfinite(lo + ext))
            return sw__swa_fail(diag, name, "component %u: range %g + %g is not finite and positive", i, (double)lo,
                                (double)ext);
    }
    const uint32_t name_size = sw__le32(b + SW__SWA_OFF_NAME_SIZE);
    if (name_size == 0 || b[l->name + name_size - 1] != '\0' || memchr(b + l->name, '\0', name_size) != b + l->name + name_size - 1)
        return sw__swa_fail(diag, name, "the clip name (%u bytes) does not end in its one NUL", name_size);
    return SW_OK;
}

/* One block's group decoded as sw_compressed_sample_job will, both ways
   from the raw row: every read inside its lane and every integer inside
   its bit count. lanes: the eight lanes' bit positions and ends (bytes). */
static sw_result sw__swa_check_group(const uint8_t* seg, const uint8_t* codes, uint32_t first, uint32_t end,
                                     uint32_t rows, uint64_t raw_pos, const uint8_t* raw, uint64_t lanes[8],
                                     const uint32_t ends[8], const char* name, uint32_t s, sw_diag* diag) {
    int64_t raw_q[SW__SWA_GROUP], q[SW__SWA_GROUP];
    uint32_t active[SW__SWA_GROUP], n = 0;
    for (uint32_t c = first; c < end; c++) {
        const unsigned bits = sw__code_bits(codes[c]);
        raw_q[c - first] = bits ? (int64_t)(sw__stream_word(raw, raw_pos) & ((1ull << bits) - 1u)) : 0;
        raw_pos += bits;
        if (bits) active[n++] = c;
    }
    const uint32_t middle = sw__block_middle(rows);
    for (int forward = 0; forward < 2; forward++) {
        memcpy(q, raw_q, sizeof q);
        const uint32_t steps = forward ? rows - 1u - middle : middle;
        for (uint32_t r = 1; r <= steps; r++) {
            for (uint32_t j = 0; j < n; j++) {
                const uint32_t lane = (uint32_t)forward * SW__SWA_LANES + j % SW__SWA_LANES, c = active[j];
                const unsigned bits = sw__code_bits(codes[c]);
                const sw__lane_code code = sw__lane_code_of(codes[c], c - first);
                q[c - first] += (int32_t)sw__lane_read(seg, &lanes[lane], &code);
                if (lanes[lane] > (uint64_t)ends[lane] * 8u)
                    return sw__swa_fail(diag, name, "segment %u: component %u's differences run past their lane", s, c);
                if (q[c - first] < 0 || q[c - first] >= (int64_t)1 << bits)
                    return sw__swa_fail(diag, name, "segment %u: component %u leaves its %u bits", s, c, bits);
            }
        }
    }
    return SW_OK;
}

/* Each segment: inside the file, its code bytes (bits ≤ 24) and raw-row
   bits agreeing, its 8-bit ranges inside [0, 255], its offsets in the
   order they were written and inside it, every block decoded
   (sw__swa_check_group). */
static sw_result sw__swa_check_segments(const uint8_t* b, size_t size, const sw__swa_layout* l, const char* name,
                                        sw_diag* diag) {
    const uint32_t segments = sw__le32(b + SW__SWA_OFF_SEGMENTS), samples = sw__le32(b + SW__SWA_OFF_SAMPLES),
                   components = sw__le32(b + SW__SWA_OFF_COMPONENTS), tracks = sw__le32(b + SW__SWA_OFF_TRACKS);
    const size_t head = sw__segment_head_size(components);
    const uint32_t groups = sw__group_count(b + l->tracks, tracks);
    for (uint32_t s = 0; s < segments; s++) {
        const uint32_t at = sw__le32(b + l->segments + 4u * s);
        const uint32_t n = sw__segment_samples(samples, s), blocks = sw__segment_blocks(n);
        const size_t table = sw__segment_table_size(blocks, groups);
        if (at < l->data || at % 4 || at > size || size - at < head + table)
            return sw__swa_fail(diag, name, "segment %u: offset %u is outside the data (%zu..%zu)", s, at, l->data, size);
        const uint8_t* seg = b + at;
        const uint32_t seg_size = sw__le32(seg + 4);
        if (seg_size > size - at || seg_size < head + table + SW__SWA_STREAM_PAD)
            return sw__swa_fail(diag, name, "segment %u: %u bytes at %u do not fit the file", s, seg_size, at);
        const uint8_t* codes = seg + 8;
        uint64_t raw_bits = 0;
        for (uint32_t c = 0; c < components; c++) {
            const unsigned bits = sw__code_bits(codes[c]);
            if (bits > SW_COMPRESS_MAX_BITS)
                return sw__swa_fail(diag, name, "segment %u: component %u's bit count %u is over %d", s, c, bits,
                                    SW_COMPRESS_MAX_BITS);
            raw_bits += bits;
        }
        if (raw_bits != sw__le32(seg))
            return sw__swa_fail(diag, name, "segment %u: %u bits per raw row, its bit counts make %llu", s, sw__le32(seg),
                                (unsigned long long)raw_bits);
        for (uint32_t c = 0; c < components; c++)
            if ((unsigned)codes[components + 2 * c] + codes[components + 2 * c + 1] > 255)
                return sw__swa_fail(diag, name, "segment %u: component %u's range ends past 255", s, c);
        /* Every stream's start, in the order written (raw row, then eight
           lanes per group, per block); each ends where the next begins. */
        const uint32_t per_block = 1u + 8u * groups, streams = blocks * per_block;
        const uint32_t limit = seg_size - SW__SWA_STREAM_PAD;
        uint32_t previous = (uint32_t)(head + table);
        for (uint32_t k = 0; k < streams; k++) {
            const uint8_t* entry = seg + head + (size_t)(k / per_block) * sw__block_entry_size(groups);
            const uint32_t i = k % per_block, g = (i - 1u) / 8u, lane = (i - 1u) % 8u;
            uint64_t off = i == 0 ? sw__le32(entry) : sw__le32(entry + 4u + (size_t)SW__SWA_GROUP_ENTRY * g);
            if (i > 0 && lane > 0) {
                const uint8_t* delta = entry + 4u + (size_t)SW__SWA_GROUP_ENTRY * g + 2u + 2u * lane;
                off += (uint32_t)(delta[0] | delta[1] << 8);
            }
            if (off < previous || off > limit)
                return sw__swa_fail(diag, name, "segment %u: stream %u starts at %llu, out of order or outside it", s, k,
                                    (unsigned long long)off);
            if (i == 0 && limit - off < (raw_bits + 7u) / 8u)
                return sw__swa_fail(diag, name, "segment %u: a raw row runs past the end", s);
            previous = (uint32_t)off;
        }
        for (uint32_t blk = 0; blk < blocks; blk++) {
            const uint8_t* entry = seg + head + (size_t)blk * sw__block_entry_size(groups);
            const uint32_t raw_off = sw__le32(entry), rows = sw__block_rows(n, blk);
            sw__group_walk walk = sw__group_walk_of(b + l->tracks, tracks);
            uint32_t first, end, g = 0, prefix = 0;
            while (sw__next_group(&walk, &first, &end)) {
                const uint8_t* lanes_at = entry + 4u + (size_t)SW__SWA_GROUP_ENTRY * g;
                uint64_t lanes[8];
                uint32_t ends[8];
                for (uint32_t lane = 0; lane < 8; lane++)
                    lanes[lane] = (uint64_t)sw__le32(lanes_at) +
                                  (lane ? (uint32_t)(lanes_at[2 + 2 * lane] | lanes_at[3 + 2 * lane] << 8) : 0u);
                for (uint32_t lane = 0; lane < 8; lane++) {
                    /* the next stream's start: the next lane, the next group's first, the next block's raw row, the end */
                    const uint8_t* next = g + 1 < groups ? entry + 4u + (size_t)SW__SWA_GROUP_ENTRY * (g + 1) : NULL;
                    ends[lane] = lane < 7 ? (uint32_t)lanes[lane + 1]
                                 : next ? sw__le32(next)
                                 : blk + 1 < blocks ? sw__le32(entry + sw__block_entry_size(groups))
                                                    : limit;
                    lanes[lane] *= 8u;
                }
                if (raw_off + (raw_bits + 7u) / 8u > lanes[0] / 8u)
                    return sw__swa_fail(diag, name, "segment %u: a raw row overlaps its lanes", s);
                sw_result r = sw__swa_check_group(seg, codes, first, end, rows, prefix, seg + raw_off, lanes, ends, name,
                                                  s, diag);
                if (r != SW_OK) return r;
                for (uint32_t c = first; c < end; c++) prefix += sw__code_bits(codes[c]);
                g++;
            }
        }
    }
    return SW_OK;
}

sw_result sw_swa_read(const uint8_t* bytes, size_t size, const char* name, sw_compressed_clip* out, sw_diag* diag) {
    if (out) memset(out, 0, sizeof *out);
    if (!bytes || !out) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "%s: no bytes or no output", name ? name : "swa");
    if ((uintptr_t)bytes % 4)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "%s: bytes not 4-byte aligned", name ? name : "swa");
    sw_result r = sw__swa_check_header(bytes, size, name, diag);
    if (r != SW_OK) return r;
    const sw__swa_layout l =
        sw__swa_layout_of(sw__le32(bytes + SW__SWA_OFF_TRACKS), sw__le32(bytes + SW__SWA_OFF_CONSTANTS),
                          sw__le32(bytes + SW__SWA_OFF_COMPONENTS), sw__le32(bytes + SW__SWA_OFF_SEGMENTS),
                          sw__le32(bytes + SW__SWA_OFF_NAME_SIZE));
    if (l.data > size) return sw__swa_fail(diag, name, "its tables need %zu bytes, the file has %zu", l.data, size);
    if ((r = sw__swa_check_tracks(bytes, &l, name, diag)) != SW_OK) return r;
    if ((r = sw__swa_check_values(bytes, &l, name, diag)) != SW_OK) return r;
    if ((r = sw__swa_check_segments(bytes, size, &l, name, diag)) != SW_OK) return r;
    sw__compressed_view(bytes, size, out);
    return SW_OK;
}

static void* sw__swa_alloc(void* user, size_t size) {
    (void)user;
    return sw__malloc(size ? size : 1);
}
static void sw__swa_release(void* user, void* ptr) {
    (void)user;
    sw__free(ptr);
}

sw_result sw_swa_load(const char* path, uint8_t** out_bytes, size_t* out_size, sw_compressed_clip* out,
                      sw_diag* diag) {
    if (out_bytes) *out_bytes = NULL;
    if (out_size) *out_size = 0;
    if (!path || !out_bytes || !out_size || !out)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "swa: no path or no output");
    const char* name = sw__path_base_name(path);
    uint8_t* bytes = NULL;
    size_t size = 0;
    sw_result r = sw__read_file(path, name, (size_t)1 << 30, SIZE_MAX, sw__swa_alloc, sw__swa_release, NULL, &bytes,
                                &size, diag);
    if (r != SW_OK) return r;
    r = sw_swa_read(bytes, size, name, out, diag);
    if (r != SW_OK) {
        sw__free(bytes);
        return r;
    }
    *out_bytes = bytes, *out_size = size;
    return SW_OK;
}

void sw_swa_free(uint8_t* bytes) { sw__free(bytes); }
