/* compress_internal.h — the .swa byte layout, shared by the compressor
   (src/anim/compress.c) and the reader that validates hostile bytes
   (src/import/swa_read.c). Not a public header; docs/compression.md
   describes the same layout for readers of the format. */
#ifndef SINEW_COMPRESS_INTERNAL_H
#define SINEW_COMPRESS_INTERNAL_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "sinew/compress.h"

#define SW__SWA_MAGIC "SWA1"
#define SW__SWA_VERSION 3u
#define SW__SWA_HEADER_SIZE 64u
#define SW__SWA_TRACK_SIZE 8u
/* Zero bytes after every segment's bit stream, so a decoder may load 8
   bytes at any bit it reads. */
#define SW__SWA_STREAM_PAD 8u

/* Header fields, byte offsets. */
enum {
    SW__SWA_OFF_MAGIC = 0,
    SW__SWA_OFF_VERSION = 4,
    SW__SWA_OFF_SIZE = 8,
    SW__SWA_OFF_TRACKS = 12,
    SW__SWA_OFF_TARGETS = 16,
    SW__SWA_OFF_SAMPLES = 20,
    SW__SWA_OFF_SEGMENTS = 24,
    SW__SWA_OFF_ANIMATED = 28,
    SW__SWA_OFF_COMPONENTS = 32,
    SW__SWA_OFF_CONSTANTS = 36,
    SW__SWA_OFF_NAME_SIZE = 40,
    SW__SWA_OFF_START = 44,
    SW__SWA_OFF_END = 48,
    SW__SWA_OFF_WORST = 52,
    SW__SWA_OFF_TOLERANCE = 56,
    SW__SWA_OFF_VIRTUAL = 60,
};

/* Track descriptor bytes: target (u32), kind of T, R, S, dropped rotation
   component (0..3, 4 = none: all four stored). */
enum { SW__TRACK_T = 4, SW__TRACK_R = 5, SW__TRACK_S = 6, SW__TRACK_DROPPED = 7 };

static inline uint32_t sw__le32(const uint8_t* p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline float sw__lef32(const uint8_t* p) {
    uint32_t u = sw__le32(p);
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static inline size_t sw__align4(size_t n) { return (n + 3u) & ~(size_t)3u; }

/* Samples in segment s of a clip of n samples. */
static inline uint32_t sw__segment_samples(uint32_t n, uint32_t s) {
    uint32_t first = s * SW_COMPRESS_SEGMENT_SAMPLES;
    return n - first < SW_COMPRESS_SEGMENT_SAMPLES ? n - first : SW_COMPRESS_SEGMENT_SAMPLES;
}

/* Stored components of a property of this kind (rotation: by dropped). */
static inline uint32_t sw__property_components(int property, uint8_t dropped) {
    return property == 1 ? (dropped < 4 ? 3u : 4u) : 3u;
}

/* A segment (SW_COMPRESS_SEGMENT_SAMPLES samples, fewer in the last) is
   cut into blocks of SW__SWA_BLOCK samples. A block of R samples stores
   its middle one (row R / 2) as it is (the raw row: each component's
   integer at its bit count, in component order) and every other as the
   difference from its neighbour towards the middle, Rice-coded
   (sw__lane_read): rows below the middle backwards (q[r] = q[r + 1] + d),
   rows above it forwards (q[r] = q[r − 1] + d). A sample is then at most
   R / 2 differences from the raw row. The components are cut into groups
   at property boundaries (at most SW__SWA_GROUP components each,
   sw__next_group); a group's differences go into four backward and four
   forward lanes (its components with bits, in order, dealt round-robin),
   so that a decoder runs four independent bit cursors.

   The segment: u32 bits of a raw row, u32 the segment's bytes; per
   component a code byte (bits in the low 5, the Rice choice in the high
   3, sw__code_k); per component u8 minimum and u8 extent; padding to 4;
   then per block a u32 (the raw row's offset from the segment's start)
   and per group SW__SWA_GROUP_ENTRY bytes: u32 the offset of its first
   lane, u16 × 7 the other lanes' offsets from that one, 2 zero bytes;
   then the rows and lanes in that order (raw row, each group's backward
   lanes 0-3 and forward lanes 0-3, next block), each starting on a byte;
   SW__SWA_STREAM_PAD zero bytes, padding to 4. */
#define SW__SWA_BLOCK 16u
#define SW__SWA_GROUP 256u
#define SW__SWA_LANES 4u        /* per direction */
#define SW__SWA_GROUP_ENTRY 20u /* u32 + 7 × u16 + 2 */
#define SW__SWA_ESCAPE 16u      /* a quotient this long is written as an escape and the difference in full */

static inline size_t sw__segment_head_size(uint32_t component_count) {
    return sw__align4(8u + 3u * (size_t)component_count);
}
static inline uint32_t sw__segment_blocks(uint32_t samples_in_segment) {
    return (samples_in_segment + SW__SWA_BLOCK - 1u) / SW__SWA_BLOCK;
}
/* Bytes of one block's entry in the offset table, and of the table. */
static inline size_t sw__block_entry_size(uint32_t groups) { return 4u + (size_t)SW__SWA_GROUP_ENTRY * groups; }
static inline size_t sw__segment_table_size(uint32_t blocks, uint32_t groups) {
    return (size_t)blocks * sw__block_entry_size(groups);
}
/* Rows in block b of a segment of n samples, and its raw (middle) row. */
static inline uint32_t sw__block_rows(uint32_t n, uint32_t b) {
    return n - b * SW__SWA_BLOCK < SW__SWA_BLOCK ? n - b * SW__SWA_BLOCK : SW__SWA_BLOCK;
}
static inline uint32_t sw__block_middle(uint32_t rows) { return rows / 2u; }
static inline unsigned sw__code_bits(uint8_t code) { return code & 31u; }
/* The Rice parameter: bits − 1 − choice (0 at least); differences of
   values that move by about a quarter of their range want k near bits − 2. */
static inline unsigned sw__code_k(uint8_t code) {
    const unsigned bits = code & 31u, choice = code >> 5;
    return bits > choice + 1u ? bits - 1u - choice : 0u;
}

/* 64 stream bits from bit `pos` on (a stream is read LSB first: bit k of
   byte b is bit 8b + k); at least 57 of them are the stream's. */
static inline uint64_t sw__stream_word(const uint8_t* stream, uint64_t pos) {
    uint64_t word;
    memcpy(&word, stream + (pos >> 3), 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    word = __builtin_bswap64(word);
#endif
    return word >> (pos & 7u);
}

/* How one component's differences are read: its masks made once per
   group rather than once per read. */
typedef struct sw__lane_code {
    uint64_t low_mask;    /* (1 << k) − 1 */
    uint64_t escape_mask; /* (1 << (bits + 1)) − 1 */
    uint16_t index;       /* the component, from its group's first */
    uint8_t k, escape_length;
} sw__lane_code;

static inline sw__lane_code sw__lane_code_of(uint8_t code, uint32_t index) {
    const unsigned bits = sw__code_bits(code), k = sw__code_k(code);
    sw__lane_code c = {(1ull << k) - 1u, (1ull << (bits + 1u)) - 1u, (uint16_t)index, (uint8_t)k,
                       (uint8_t)(SW__SWA_ESCAPE + bits + 1u)};
    return c;
}

/* One Rice-coded difference at *pos, as a 32-bit two's-complement value:
   the quotient z >> k in unary (that many 0 bits, then a 1), then the k
   low bits of z; a quotient of SW__SWA_ESCAPE or more is that many 0 bits
   and z in bits + 1 bits. z is the difference zigzagged (0, -1, 1, -2, ...
   as 0, 1, 2, 3, ...). At most 16 + 25 bits, inside the 57 of one word. */
static inline uint32_t sw__lane_read(const uint8_t* stream, uint64_t* pos, const sw__lane_code* code) {
    const uint64_t word = sw__stream_word(stream, *pos);
    const unsigned zeros = (unsigned)__builtin_ctzll(word | (1ull << SW__SWA_ESCAPE));
    uint64_t z;
    if (zeros < SW__SWA_ESCAPE) {
        z = (uint64_t)zeros << code->k | ((word >> (zeros + 1u)) & code->low_mask);
        *pos += zeros + 1u + code->k;
    } else {
        z = (word >> SW__SWA_ESCAPE) & code->escape_mask;
        *pos += code->escape_length;
    }
    return (uint32_t)(z >> 1) ^ (0u - (uint32_t)(z & 1u));
}

/* The groups of components, in track order: consecutive animated
   properties while their components number at most SW__SWA_GROUP. */
typedef struct sw__group_walk {
    const uint8_t* tracks;
    uint32_t track_count, track, comp;
    int path;
} sw__group_walk;

static inline sw__group_walk sw__group_walk_of(const uint8_t* tracks, uint32_t track_count) {
    sw__group_walk w = {tracks, track_count, 0, 0, 0};
    return w;
}

/* The next group's components [*first, *end); false when none is left. */
static inline bool sw__next_group(sw__group_walk* w, uint32_t* first, uint32_t* end) {
    uint32_t n = 0;
    *first = w->comp;
    for (; w->track < w->track_count; w->track++, w->path = 0) {
        const uint8_t* d = w->tracks + (size_t)w->track * SW__SWA_TRACK_SIZE;
        for (; w->path < 3; w->path++) {
            if (d[SW__TRACK_T + w->path] != SW_COMPRESSED_ANIMATED) continue;
            const uint32_t count = sw__property_components(w->path, d[SW__TRACK_DROPPED]);
            if (n + count > SW__SWA_GROUP) {
                *end = w->comp;
                return true;
            }
            n += count, w->comp += count;
        }
    }
    *end = w->comp;
    return n > 0;
}

static inline uint32_t sw__group_count(const uint8_t* tracks, uint32_t track_count) {
    sw__group_walk w = sw__group_walk_of(tracks, track_count);
    uint32_t groups = 0, first, end;
    while (sw__next_group(&w, &first, &end)) groups++;
    return groups;
}

/* Offsets of the arrays after the header, from the counts. */
typedef struct sw__swa_layout {
    size_t tracks, constants, minimums, extents, segments, name, data; /* byte offsets */
} sw__swa_layout;

static inline sw__swa_layout sw__swa_layout_of(uint64_t tracks, uint64_t constants, uint64_t components,
                                               uint64_t segments, uint64_t name_size) {
    sw__swa_layout l;
    uint64_t at = SW__SWA_HEADER_SIZE;
    l.tracks = (size_t)at, at += tracks * SW__SWA_TRACK_SIZE;
    l.constants = (size_t)at, at += constants * 4u;
    l.minimums = (size_t)at, at += components * 4u;
    l.extents = (size_t)at, at += components * 4u;
    l.segments = (size_t)at, at += segments * 4u;
    l.name = (size_t)at, at += (name_size + 3u) & ~(uint64_t)3u;
    l.data = (size_t)at;
    return l;
}

/* ---- values: shared by the compressor (compress.c) and the decoder (compress_sample.c) ---- */

#define SW__T 0 /* a track's translation, rotation, scale */
#define SW__R 1
#define SW__S 2

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

/* The view of bytes already checked (the reader) or just written (the
   compressor). */
void sw__compressed_view(const uint8_t* bytes, size_t size, sw_compressed_clip* out);

#endif
