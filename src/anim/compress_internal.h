/* compress_internal.h — the .swa byte layout, shared by the compressor
   (src/anim/compress.c) and the reader that validates hostile bytes
   (src/import/swa_read.c). Not a public header; docs/compression.md
   describes the same layout for readers of the format. */
#ifndef SINEW_COMPRESS_INTERNAL_H
#define SINEW_COMPRESS_INTERNAL_H

#include <stdint.h>
#include <string.h>

#include "sinew/compress.h"

#define SW__SWA_MAGIC "SWA1"
#define SW__SWA_VERSION 2u
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

/* A segment's data: u32 bits per sample, component_count bit counts,
   component_count × (u8 minimum, u8 extent), padded to 4, then the bit
   stream (sample-major) and SW__SWA_STREAM_PAD zero bytes, padded to 4.
   Bytes of the part before the stream: */
static inline size_t sw__segment_head_size(uint32_t component_count) {
    return sw__align4(4u + 3u * (size_t)component_count);
}
static inline size_t sw__segment_stream_size(uint64_t stride_bits, uint32_t samples) {
    return sw__align4((size_t)((stride_bits * samples + 7u) / 8u) + SW__SWA_STREAM_PAD);
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

/* The view of bytes already checked (the reader) or just written (the
   compressor). */
void sw__compressed_view(const uint8_t* bytes, size_t size, sw_compressed_clip* out);

#endif
