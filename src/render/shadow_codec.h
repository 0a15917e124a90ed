/* shadow_codec.h — the compressed static shadow depth (docs/shadows.md,
   frame analysis §2.7): a depth map cut into 32×32 blocks, each a
   quadtree of 10-bit nodes packed three to a 32-bit word, whose leaves
   are planes (one word) or 2×2 quantised payloads (two words). Pure C, no
   GL, no I/O: the encoder, and the decoder shaders/shadow_decode.frag
   follows line by line. Not a public header.

   The records, one array of 32-bit words:
     [table: one entry per block, row by row]  entry = word offset of the
         block's record (bits 0–23) | its node word count (bits 24–31)
     [block records]  header | node words | payload words
       header   bits 0–15 the block's lowest depth, unorm16 rounded down;
                bits 16–31 its depth range above that, unorm16 rounded up
       node n   bits 10·(n%3) .. +9 of node word n/3 (bits 30–31 unused):
                bit 9 leaf; bits 0–8 an offset: a split node's four
                children are nodes n + offset + quadrant (quadrant = 2·y bit
                + x bit, y below x above); a leaf's payload is payload word
                `offset`. Node 0 is the block; each split halves the size
                (32 → 16 → 8 → 4 → 2), a 2×2 node is always a leaf.
       plane    one word, bit 0 = 0; bits 1–10 slope along x, 11–20 slope
                along y (each the top ten bits of a half float, the low six
                filled with 100000b), in depth per texel; bits 21–31 the
                depth at the leaf's centre, c = lo + range·f/2047 (lo, range
                from the header). Depth at texel centre (x + ½, y + ½):
                c + a·(x + ½ − cx) + b·(y + ½ − cy).
       2×2      two words. The first as the analysis lays it out: bit 0 = 1
                (the mode), bits 1–5 a cluster exponent e; sample (bx, by)
                of width w = 6 + bx at bit 6 + 6·bx + 13·by. The second:
                base (bits 0–15) and scale (bits 16–31), unorm16. e = 0:
                depth = base + scale·q/(2^w − 1). e > 0: two clusters of
                span s = scale·2^−e, the near one from base, the far one
                ending at base + scale; q's top bit picks the cluster, its
                other w − 1 bits v the depth: start + s·v/(2^(w−1) − 1). */
#ifndef SINEW_RENDER_SHADOW_CODEC_H
#define SINEW_RENDER_SHADOW_CODEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "render_interface.h"

#define SW__SHADOW_BLOCK 32
#define SW__SHADOW_NODE_BITS 10
#define SW__SHADOW_NODE_LEAF 0x200u
#define SW__SHADOW_NODE_OFFSET 0x1FFu
#define SW__SHADOW_MAX_NODES 341  /* 1 + 4 + 16 + 64 + 256 */
/* A block's record at most: header, 114 node words, 256 two-word leaves. */
#define SW__SHADOW_MAX_BLOCK_WORDS (1 + (SW__SHADOW_MAX_NODES + 2) / 3 + 2 * 256)

/* Node n of a block's node words (bits 10·(n%3) of word n/3), and setting it
   (the other nodes' bits kept). */
static inline uint32_t sw__shadow_node_get(const uint32_t* node_words, uint32_t n) {
    return (node_words[n / 3] >> (SW__SHADOW_NODE_BITS * (n % 3))) & 0x3FFu;
}
static inline void sw__shadow_node_set(uint32_t* node_words, uint32_t n, uint32_t node) {
    const uint32_t shift = SW__SHADOW_NODE_BITS * (n % 3);
    node_words[n / 3] = (node_words[n / 3] & ~(0x3FFu << shift)) | ((node & 0x3FFu) << shift);
}

/* A half float's bits as a float (exactly as GLSL's unpackHalf2x16). */
float sw__half_bits_to_float(uint32_t h);
/* A slope field (ten bits) as the decoder reads it: half float (f << 6) | 0x20. */
float sw__shadow_slope(uint32_t field);
/* The field whose slope is nearest to s (never an infinity or NaN pattern). */
uint32_t sw__shadow_slope_field(float s);

/* A plane word's depth at offset (dx, dy) texels from the leaf's centre,
   in a block whose header says lo, range. */
float sw__shadow_plane_depth(uint32_t word, float lo, float range, float dx, float dy);
/* A 2×2 leaf's depth of sample (bx, by). */
float sw__shadow_quad_depth(uint32_t word, uint32_t base_scale, int bx, int by);

/* Encoded maps. data holds the table and the block records (word_count
   words); sw__shadow_records_free releases it. */
typedef struct sw__shadow_records {
    int width, height;       /* texels, multiples of 32 */
    int blocks_x, blocks_y;
    uint32_t* data;
    size_t word_count;
    size_t plane_leaves, quad_leaves, nodes;
} sw__shadow_records;

/* Encodes depth (width × height floats, row y = 0 first, each 0..1; NaN
   and values outside are clamped, NaN to 1) with planes that stay within
   `tolerance` of every texel; nodes that no plane fits are split, and a 2×2
   no plane fits becomes a quantised leaf whose samples are rounded away
   from the light (never below the true depth). Returns 0, -1 when the size
   is not a positive multiple of 32 (or too large), -2 when out of memory. */
int sw__shadow_encode(const float* depth, int width, int height, float tolerance, sw__shadow_records* out);
void sw__shadow_records_free(sw__shadow_records* records);

/* The decoded depth of texel (x, y), clamped to 0..1 as a depth target
   stores it: the reference the shader follows. */
float sw__shadow_decode_texel(const uint32_t* data, int blocks_x, int x, int y);
/* Block (bx, by) into out (32 × 32, row by row). */
void sw__shadow_decode_block(const uint32_t* data, int blocks_x, int bx, int by, float* out);

/* The decoded map against the source: largest and mean |error|, the
   largest amount by which a decoded depth lies nearer the light than the
   source (decoded < source), and the largest amount beyond it. */
typedef struct sw__shadow_error {
    double max_abs, mean_abs, max_nearer, max_farther;
} sw__shadow_error;
sw__shadow_error sw__shadow_measure(const float* depth, const sw__shadow_records* records);

#endif
