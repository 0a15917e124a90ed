/* The compressed static shadow depth (shadow_codec.h has the layout;
   docs/shadows.md why each field is what it is). */
#include "shadow_codec.h"

#include <math.h>
#include <string.h>

#include "../base/base_internal.h"

#define SW__UNORM16 (1.0f / 65535.0f)

float sw__half_bits_to_float(uint32_t h) {
    const uint32_t exponent = (h >> 10) & 31u, mantissa = h & 1023u;
    float v;
    if (exponent == 0) v = ldexpf((float)mantissa, -24);
    else if (exponent == 31) v = mantissa ? NAN : INFINITY;
    else v = ldexpf((float)(mantissa | 1024u), (int)exponent - 25);
    return (h & 0x8000u) ? -v : v;
}

float sw__shadow_slope(uint32_t field) { return sw__half_bits_to_float(((field & 0x3FFu) << 6) | 0x20u); }

/* Magnitude fields 0..495 are the finite halves (exponent 31 starts at 496),
   in increasing order of value. */
#define SW__SLOPE_MAX_MAGNITUDE 495u

uint32_t sw__shadow_slope_field(float s) {
    const float m = fabsf(s);
    uint32_t lo = 0, hi = SW__SLOPE_MAX_MAGNITUDE; /* the first field whose value is ≥ m, or the last */
    while (lo < hi) {
        const uint32_t mid = (lo + hi) / 2;
        if (sw__shadow_slope(mid) >= m) hi = mid;
        else lo = mid + 1;
    }
    if (lo > 0 && m - sw__shadow_slope(lo - 1) < sw__shadow_slope(lo) - m) lo--;
    return (s < 0.0f ? 0x200u : 0u) | lo;
}

float sw__shadow_plane_depth(uint32_t word, float lo, float range, float dx, float dy) {
    const float a = sw__shadow_slope(word >> 1), b = sw__shadow_slope(word >> 11);
    const float c = lo + range * ((float)(word >> 21) * (1.0f / 2047.0f));
    return c + a * dx + b * dy;
}

float sw__shadow_quad_depth(uint32_t word, uint32_t base_scale, int bx, int by) {
    const uint32_t width = 6u + (uint32_t)bx, shift = 6u + 6u * (uint32_t)bx + 13u * (uint32_t)by;
    const uint32_t q = (word >> shift) & ((1u << width) - 1u);
    const int e = (int)((word >> 1) & 31u);
    const float base = (float)(base_scale & 0xFFFFu) * SW__UNORM16;
    const float scale = (float)(base_scale >> 16) * SW__UNORM16;
    if (e == 0) return base + scale * ((float)q / (float)((1u << width) - 1u));
    /* Two clusters of span s: the sample's top bit picks the far one. */
    const float s = ldexpf(scale, -e);
    const uint32_t v = q & ((1u << (width - 1u)) - 1u);
    const float start = (q >> (width - 1u)) ? base + scale - s : base;
    return start + s * ((float)v / (float)((1u << (width - 1u)) - 1u));
}

/* ---- decoding ------------------------------------------------------------------------ */

float sw__shadow_decode_texel(const uint32_t* data, int blocks_x, int x, int y) {
    const uint32_t entry = data[(size_t)(y >> 5) * (size_t)blocks_x + (size_t)(x >> 5)];
    const uint32_t* block = data + (entry & 0xFFFFFFu);
    const uint32_t* nodes = block + 1;
    const uint32_t* payload = nodes + (entry >> 24);
    const float lo = (float)(block[0] & 0xFFFFu) * SW__UNORM16, range = (float)(block[0] >> 16) * SW__UNORM16;
    const int lx = x & 31, ly = y & 31;
    int size = SW__SHADOW_BLOCK, ox = 0, oy = 0;
    uint32_t n = 0, node = sw__shadow_node_get(nodes, 0);
    while (!(node & SW__SHADOW_NODE_LEAF) && size > 2) {
        size >>= 1;
        const int xb = lx >= ox + size, yb = ly >= oy + size;
        ox += xb * size, oy += yb * size;
        n += (node & SW__SHADOW_NODE_OFFSET) + (uint32_t)(2 * yb + xb);
        node = sw__shadow_node_get(nodes, n);
    }
    const uint32_t* leaf = payload + (node & SW__SHADOW_NODE_OFFSET);
    float z;
    if (leaf[0] & 1u) {
        z = sw__shadow_quad_depth(leaf[0], leaf[1], lx & 1, ly & 1);
    } else {
        const float dx = (float)(2 * (lx - ox) - (size - 1)) * 0.5f, dy = (float)(2 * (ly - oy) - (size - 1)) * 0.5f;
        z = sw__shadow_plane_depth(leaf[0], lo, range, dx, dy);
    }
    return z < 0.0f ? 0.0f : z > 1.0f ? 1.0f : z; /* as a depth target stores it */
}

void sw__shadow_decode_block(const uint32_t* data, int blocks_x, int bx, int by, float* out) {
    for (int y = 0; y < SW__SHADOW_BLOCK; y++)
        for (int x = 0; x < SW__SHADOW_BLOCK; x++)
            out[y * SW__SHADOW_BLOCK + x] =
                sw__shadow_decode_texel(data, blocks_x, bx * SW__SHADOW_BLOCK + x, by * SW__SHADOW_BLOCK + y);
}

/* ---- encoding ------------------------------------------------------------------------ */

/* One node of a block while it is built: a leaf's payload (words 1 or 2),
   or a split (words 0) and its children's indices in the build order. */
typedef struct sw__build_node {
    uint32_t payload[2];
    int words;
    int child[4];
} sw__build_node;

typedef struct sw__block_builder {
    float z[SW__SHADOW_BLOCK * SW__SHADOW_BLOCK]; /* the block, clamped */
    float lo, range;                             /* the header's, as decoded */
    float tolerance;
    sw__build_node nodes[SW__SHADOW_MAX_NODES];
    int count;
    size_t planes, quads;
} sw__block_builder;

static float sw__texel_offset(int i, int size) { return (float)(2 * i - (size - 1)) * 0.5f; }

/* The plane word of region (x0, y0, size) whose decoded depths stay within
   the tolerance of every texel, if there is one: least squares slopes
   (the region is symmetric about its centre, so each slope is its own
   ratio), quantised; then the intercept halfway between the residuals'
   extremes, and its neighbours, by the decoder's own arithmetic. */
static bool sw__fit_plane(const sw__block_builder* b, int x0, int y0, int size, uint32_t* out) {
    double sx = 0.0, sy = 0.0, sdd = 0.0;
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++) {
            const double z = b->z[(y0 + y) * SW__SHADOW_BLOCK + x0 + x];
            const double dx = sw__texel_offset(x, size), dy = sw__texel_offset(y, size);
            sx += z * dx, sy += z * dy, sdd += dx * dx;
        }
    const uint32_t fa = sw__shadow_slope_field((float)(sx / sdd)), fb = sw__shadow_slope_field((float)(sy / sdd));
    const float a = sw__shadow_slope(fa), bs = sw__shadow_slope(fb);
    float rmin = INFINITY, rmax = -INFINITY;
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++) {
            const float r = b->z[(y0 + y) * SW__SHADOW_BLOCK + x0 + x] - a * sw__texel_offset(x, size) -
                            bs * sw__texel_offset(y, size);
            rmin = fminf(rmin, r), rmax = fmaxf(rmax, r);
        }
    if (rmax - rmin > 2.0f * b->tolerance) return false;
    const float c = 0.5f * (rmin + rmax);
    long fc = b->range > 0.0f ? lroundf((c - b->lo) / b->range * 2047.0f) : 0;
    float best_error = INFINITY;
    uint32_t best = 0;
    for (long f = fc - 1; f <= fc + 1; f++) {
        if (f < 0 || f > 2047) continue;
        const uint32_t word = (fa << 1) | (fb << 11) | ((uint32_t)f << 21);
        float error = 0.0f;
        for (int y = 0; y < size && error <= b->tolerance; y++)
            for (int x = 0; x < size; x++) {
                const float d = sw__shadow_plane_depth(word, b->lo, b->range, sw__texel_offset(x, size),
                                                       sw__texel_offset(y, size));
                error = fmaxf(error, fabsf(d - b->z[(y0 + y) * SW__SHADOW_BLOCK + x0 + x]));
            }
        if (error < best_error) best_error = error, best = word;
    }
    *out = best;
    return best_error <= b->tolerance;
}

/* Sample (bx, by) of a 2×2 word for depth z: the smallest code whose
   decoded depth is not nearer the light than z (the largest if none). */
static uint32_t sw__quad_sample(uint32_t word, uint32_t base_scale, int bx, int by, float z, float* error) {
    const uint32_t width = 6u + (uint32_t)bx, shift = 6u + 6u * (uint32_t)bx + 13u * (uint32_t)by;
    const uint32_t top = (1u << width) - 1u;
    word &= ~(top << shift);
    /* Decoded depths rise with the code inside each cluster (e = 0: one
       cluster of all codes; else codes below and above the top bit): in
       each, the first code not nearer than z, by bisection. */
    const bool two = ((word >> 1) & 31u) != 0;
    const uint32_t ranges[2][2] = {{0, two ? top / 2 : top}, {top / 2 + 1, top}};
    uint32_t best = top;
    float best_d = INFINITY;
    for (int k = 0; k < (two ? 2 : 1); k++) {
        uint32_t lo = ranges[k][0], hi = ranges[k][1] + 1; /* the answer in [lo, hi]; hi: none */
        while (lo < hi) {
            const uint32_t mid = (lo + hi) / 2;
            if (sw__shadow_quad_depth(word | (mid << shift), base_scale, bx, by) >= z) hi = mid;
            else lo = mid + 1;
        }
        if (lo > ranges[k][1]) continue;
        const float d = sw__shadow_quad_depth(word | (lo << shift), base_scale, bx, by);
        if (d < best_d) best_d = d, best = lo;
    }
    if (!(best_d < INFINITY)) best_d = sw__shadow_quad_depth(word | (top << shift), base_scale, bx, by);
    *error = fabsf(best_d - z);
    return word | (best << shift);
}

/* The 2×2 leaf at (x0, y0): base rounded down, scale up, each sample up,
   so no decoded depth lies nearer the light than its source; of the 32
   cluster exponents (0: one cluster) the one with the least error. */
static void sw__fit_quad(const sw__block_builder* b, int x0, int y0, uint32_t out[2]) {
    float zmin = INFINITY, zmax = -INFINITY;
    for (int i = 0; i < 4; i++) {
        const float z = b->z[(y0 + i / 2) * SW__SHADOW_BLOCK + x0 + i % 2];
        zmin = fminf(zmin, z), zmax = fmaxf(zmax, z);
    }
    uint32_t base16 = (uint32_t)floorf(zmin * 65535.0f);
    while (base16 > 0 && (float)base16 * SW__UNORM16 > zmin) base16--;
    const float base = (float)base16 * SW__UNORM16;
    float scale_f = ceilf((zmax - base) * 65535.0f);
    uint32_t scale16 = scale_f > 65535.0f ? 65535u : (uint32_t)scale_f;
    while (scale16 < 65535u && base + (float)scale16 * SW__UNORM16 < zmax) scale16++;
    out[1] = base16 | (scale16 << 16);
    float best_error = INFINITY;
    for (uint32_t e = 0; e < 32; e++) {
        uint32_t word = 1u | (e << 1);
        float error = 0.0f;
        for (int i = 0; i < 4; i++) {
            float sample_error;
            word = sw__quad_sample(word, out[1], i % 2, i / 2, b->z[(y0 + i / 2) * SW__SHADOW_BLOCK + x0 + i % 2],
                                   &sample_error);
            error = fmaxf(error, sample_error);
        }
        if (error < best_error) best_error = error, out[0] = word;
        if (scale16 == 0) break;
    }
}

/* Builds region (x0, y0, size): a plane leaf, a 2×2 leaf, or four children. */
static int sw__build(sw__block_builder* b, int x0, int y0, int size) {
    const int index = b->count++;
    sw__build_node* node = &b->nodes[index];
    if (sw__fit_plane(b, x0, y0, size, &node->payload[0])) {
        node->words = 1;
        b->planes++;
        return index;
    }
    if (size == 2) {
        sw__fit_quad(b, x0, y0, node->payload);
        node->words = 2;
        b->quads++;
        return index;
    }
    node->words = 0;
    const int half = size / 2;
    for (int q = 0; q < 4; q++) {
        const int child = sw__build(b, x0 + (q & 1) * half, y0 + (q >> 1) * half, half);
        b->nodes[index].child[q] = child; /* b->nodes does not move; node stays valid too */
    }
    return index;
}

/* The block's record into out (at most SW__SHADOW_MAX_BLOCK_WORDS); its
   length; *node_words the count of node words. Nodes in breadth-first
   order, so a split's four children are consecutive and follow it. */
static size_t sw__write_block(const sw__block_builder* b, uint32_t header, uint32_t* out, uint32_t* node_words) {
    int order[SW__SHADOW_MAX_NODES];
    int count = 1;
    order[0] = 0;
    for (int n = 0; n < count; n++) {
        const sw__build_node* node = &b->nodes[order[n]];
        if (node->words == 0)
            for (int q = 0; q < 4; q++) order[count++] = node->child[q];
    }
    *node_words = (uint32_t)(count + 2) / 3;
    uint32_t* nodes = out + 1;
    uint32_t* payload = nodes + *node_words;
    memset(nodes, 0, *node_words * sizeof *nodes);
    out[0] = header;
    uint32_t next_child = 1, next_payload = 0;
    for (int n = 0; n < count; n++) {
        const sw__build_node* node = &b->nodes[order[n]];
        if (node->words == 0) {
            sw__shadow_node_set(nodes, (uint32_t)n, next_child - (uint32_t)n);
            next_child += 4;
        } else {
            sw__shadow_node_set(nodes, (uint32_t)n, SW__SHADOW_NODE_LEAF | next_payload);
            for (int w = 0; w < node->words; w++) payload[next_payload++] = node->payload[w];
        }
    }
    return 1 + *node_words + next_payload;
}

static float sw__clamp_depth(float z) { return z >= 0.0f ? (z <= 1.0f ? z : 1.0f) : (z < 0.0f ? 0.0f : 1.0f); }

int sw__shadow_encode(const float* depth, int width, int height, float tolerance, sw__shadow_records* out) {
    memset(out, 0, sizeof *out);
    if (width <= 0 || height <= 0 || width % SW__SHADOW_BLOCK || height % SW__SHADOW_BLOCK || width > 16384 ||
        height > 16384)
        return -1;
    const int blocks_x = width / SW__SHADOW_BLOCK, blocks_y = height / SW__SHADOW_BLOCK;
    const size_t blocks = (size_t)blocks_x * (size_t)blocks_y;
    sw__block_builder* b = (sw__block_builder*)sw__malloc(sizeof *b);
    size_t capacity = blocks + blocks * 8;
    uint32_t* data = (uint32_t*)sw__malloc(capacity * sizeof *data);
    if (!b || !data) {
        sw__free(b), sw__free(data);
        return -2;
    }
    b->tolerance = tolerance > 0.0f ? tolerance : 0.0f;
    b->planes = 0, b->quads = 0;
    size_t used = blocks;
    for (int by = 0; by < blocks_y; by++)
        for (int bx = 0; bx < blocks_x; bx++) {
            float zmin = INFINITY, zmax = -INFINITY;
            for (int y = 0; y < SW__SHADOW_BLOCK; y++)
                for (int x = 0; x < SW__SHADOW_BLOCK; x++) {
                    const float z = sw__clamp_depth(
                        depth[(size_t)(by * SW__SHADOW_BLOCK + y) * (size_t)width + (size_t)(bx * SW__SHADOW_BLOCK + x)]);
                    b->z[y * SW__SHADOW_BLOCK + x] = z;
                    zmin = fminf(zmin, z), zmax = fmaxf(zmax, z);
                }
            const uint32_t lo16 = (uint32_t)floorf(zmin * 65535.0f);
            b->lo = (float)lo16 * SW__UNORM16;
            const float range_f = ceilf((zmax - b->lo) * 65535.0f);
            const uint32_t range16 = range_f > 65535.0f ? 65535u : (uint32_t)range_f;
            b->range = (float)range16 * SW__UNORM16;
            b->count = 0;
            sw__build(b, 0, 0, SW__SHADOW_BLOCK);
            if (used + SW__SHADOW_MAX_BLOCK_WORDS > capacity) {
                capacity = capacity * 2 + SW__SHADOW_MAX_BLOCK_WORDS;
                uint32_t* grown = (uint32_t*)sw__realloc(data, capacity * sizeof *data);
                if (!grown) {
                    sw__free(b), sw__free(data);
                    return -2;
                }
                data = grown;
            }
            uint32_t node_words = 0;
            const size_t length = sw__write_block(b, lo16 | (range16 << 16), data + used, &node_words);
            data[(size_t)by * (size_t)blocks_x + (size_t)bx] = (uint32_t)used | (node_words << 24);
            used += length;
            out->nodes += (size_t)b->count;
        }
    out->plane_leaves = b->planes, out->quad_leaves = b->quads;
    sw__free(b);
    out->width = width, out->height = height, out->blocks_x = blocks_x, out->blocks_y = blocks_y;
    out->data = data;
    out->word_count = used;
    return 0;
}

void sw__shadow_records_free(sw__shadow_records* records) {
    if (!records) return;
    sw__free(records->data);
    memset(records, 0, sizeof *records);
}

sw__shadow_error sw__shadow_measure(const float* depth, const sw__shadow_records* r) {
    sw__shadow_error e = {0};
    double sum = 0.0;
    for (int y = 0; y < r->height; y++)
        for (int x = 0; x < r->width; x++) {
            const double source = sw__clamp_depth(depth[(size_t)y * (size_t)r->width + (size_t)x]);
            const double d = (double)sw__shadow_decode_texel(r->data, r->blocks_x, x, y) - source;
            sum += fabs(d);
            e.max_abs = fmax(e.max_abs, fabs(d));
            e.max_nearer = fmax(e.max_nearer, -d);
            e.max_farther = fmax(e.max_farther, d);
        }
    e.mean_abs = r->width > 0 ? sum / ((double)r->width * (double)r->height) : 0.0;
    return e;
}
