/* The compressed static shadow depth without GL (src/render/shadow_codec.c):
   the node packing bit for bit, the half-float fields against hand-computed
   values, hand-built records decoded against hand-computed depths, and the
   encoder's error bound on planes, steps and noise. */
#include <math.h>
#include <string.h>

#include "harness.h"
#include "test_random.h"

#include "../../src/render/shadow_codec.h"

#define TOL (1.0f / 4096.0f)

static void test_node_packing(void) {
    rng r = {0x5eedu};
    for (int trial = 0; trial < 200; trial++) {
        uint32_t words[8], expect[24];
        for (int i = 0; i < 8; i++) words[i] = 0xC0000000u; /* the two bits no node owns, set */
        for (uint32_t n = 0; n < 24; n++) {
            expect[n] = rng_u32(&r) & 0x3FFu;
            sw__shadow_node_set(words, n, expect[n]);
        }
        /* Overwrite a few in random order: the others stay. */
        for (int k = 0; k < 10; k++) {
            const uint32_t n = rng_below(&r, 24);
            expect[n] = rng_u32(&r) & 0x3FFu;
            sw__shadow_node_set(words, n, expect[n]);
        }
        for (uint32_t n = 0; n < 24; n++) SW_CHECK_EQ_INT(sw__shadow_node_get(words, n), expect[n]);
        for (int i = 0; i < 8; i++) {
            SW_CHECK_EQ_INT(words[i] >> 30, 3);
            /* word = n/3, shift = 10·(n%3), by hand */
            const uint32_t packed = expect[3 * i] | (expect[3 * i + 1] << 10) | (expect[3 * i + 2] << 20) | 0xC0000000u;
            SW_CHECK_EQ_INT(words[i], packed);
        }
    }
}

static void test_half_fields(void) {
    SW_CHECK(sw__half_bits_to_float(0x3C00u) == 1.0f);
    SW_CHECK(sw__half_bits_to_float(0xC000u) == -2.0f);
    SW_CHECK(sw__half_bits_to_float(0x0001u) == ldexpf(1.0f, -24));
    SW_CHECK(sw__half_bits_to_float(0x7BFFu) == 65504.0f);
    /* Field 0: half 0x0020 = 32·2⁻²⁴; field 0xF0 (top ten bits of 1.0): 1 + 32/1024. */
    SW_CHECK(sw__shadow_slope(0u) == ldexpf(1.0f, -19));
    SW_CHECK(sw__shadow_slope(0xF0u) == 1.03125f);
    SW_CHECK(sw__shadow_slope(0x2F0u) == -1.03125f);
    /* The nearest field, and increasing values over the finite fields. */
    /* 1.0 lies between 0xEF (0.984375) and 0xF0 (1.03125): the nearer is 0xEF. */
    SW_CHECK_EQ_INT(sw__shadow_slope_field(1.0f), 0xEF);
    SW_CHECK_EQ_INT(sw__shadow_slope_field(-1.0f), 0x2EF);
    SW_CHECK_EQ_INT(sw__shadow_slope_field(1.02f), 0xF0);
    for (uint32_t f = 1; f < 496; f++) SW_CHECK(sw__shadow_slope(f) > sw__shadow_slope(f - 1));
    rng r = {7};
    for (int i = 0; i < 1000; i++) {
        const float s = ldexpf(rng_range(&r, -1.0, 1.0), -(int)rng_below(&r, 14));
        const float q = sw__shadow_slope(sw__shadow_slope_field(s));
        /* four mantissa bits and the half-step fill: within 1/32 relative (plus the subnormal floor) */
        SW_CHECK(fabsf(q - s) <= fabsf(s) / 32.0f + ldexpf(1.0f, -19));
    }
}

/* A hand-built map of one block: root split, quadrant 1 (x ≥ 16, y < 16)
   a plane, the others planes too; payload words by hand. */
static void test_hand_built_record(void) {
    uint32_t data[1 + 1 + 2 + 5];
    data[0] = 1u | (2u << 24);             /* block at word 1, two node words */
    data[1] = 0u | (65535u << 16);         /* lo 0, range 1 */
    uint32_t* nodes = data + 2;
    nodes[0] = nodes[1] = 0;
    sw__shadow_node_set(nodes, 0, 1);      /* split: children are nodes 1..4 */
    for (uint32_t q = 0; q < 4; q++) sw__shadow_node_set(nodes, 1 + q, SW__SHADOW_NODE_LEAF | q);
    uint32_t* payload = data + 4;
    for (uint32_t q = 0; q < 4; q++) payload[q] = (0x50u << 1) | (0x0u << 11) | ((q * 500u) << 21); /* a = 2⁻¹⁰·1.03125 */
    payload[1] = (0x50u << 1) | (0x250u << 11) | (1023u << 21); /* a = 2⁻¹⁰·1.03125, b = −a, c = 1023/2047 */
    /* Nodes packed by hand: node 0 = 1, node 1 = 0x200, node 2 = 0x201 | node 3 = 0x202, node 4 = 0x203. */
    SW_CHECK_EQ_INT(nodes[0], 1u | (0x200u << 10) | (0x201u << 20));
    SW_CHECK_EQ_INT(nodes[1], 0x202u | (0x203u << 10));
    /* Texel (20, 3): quadrant 1 (16..31, 0..15), centre (24, 8); offsets (−3.5, −4.5). */
    const float a = ldexpf(1.03125f, -10);
    const float expect = 1023.0f / 2047.0f + a * -3.5f + -a * -4.5f;
    SW_CHECK_NEAR(sw__shadow_decode_texel(data, 1, 20, 3), expect, 1e-7f);
    /* Texel (2, 30): quadrant 2 (centre (8, 24)), c = 1000/2047, offsets (−5.5, 6.5), b = 2⁻¹⁹ (field 0). */
    SW_CHECK_NEAR(sw__shadow_decode_texel(data, 1, 2, 30), 1000.0f / 2047.0f + a * -5.5f + ldexpf(1.0f, -19) * 6.5f, 1e-7f);
    /* A 2×2 leaf: samples 10/63, 100/127, 0, 127/127 of base 0.25, scale 0.5. */
    const uint32_t word = 1u | (10u << 6) | (100u << 12) | (0u << 19) | (127u << 25);
    const uint32_t base_scale = 16384u | (32768u << 16);
    const float base = 16384.0f / 65535.0f, scale = 32768.0f / 65535.0f;
    SW_CHECK_NEAR(sw__shadow_quad_depth(word, base_scale, 0, 0), base + scale * 10.0f / 63.0f, 1e-7f);
    SW_CHECK_NEAR(sw__shadow_quad_depth(word, base_scale, 1, 0), base + scale * 100.0f / 127.0f, 1e-7f);
    SW_CHECK_NEAR(sw__shadow_quad_depth(word, base_scale, 0, 1), base, 1e-7f);
    SW_CHECK_NEAR(sw__shadow_quad_depth(word, base_scale, 1, 1), base + scale, 1e-7f);
}

/* Encodes, checks the bounds and the decoders agree; returns the error. */
static sw__shadow_error encode_check(const float* z, int w, int h, sw__shadow_records* rec) {
    SW_CHECK_EQ_INT(sw__shadow_encode(z, w, h, TOL, rec), 0);
    sw__shadow_error e = sw__shadow_measure(z, rec);
    float block[32 * 32];
    sw__shadow_decode_block(rec->data, rec->blocks_x, rec->blocks_x - 1, rec->blocks_y - 1, block);
    for (int y = 0; y < 32; y++)
        for (int x = 0; x < 32; x++)
            SW_CHECK(block[y * 32 + x] ==
                     sw__shadow_decode_texel(rec->data, rec->blocks_x, w - 32 + x, h - 32 + y));
    return e;
}

static void test_plane_block(void) {
    float z[32 * 32];
    for (int y = 0; y < 32; y++)
        for (int x = 0; x < 32; x++) z[y * 32 + x] = 0.3f + 0.001f * ((float)x + 0.5f) + 0.0005f * ((float)y + 0.5f);
    sw__shadow_records rec;
    sw__shadow_error e = encode_check(z, 32, 32, &rec);
    /* One node, one plane: table entry, header, a node word, the plane. */
    SW_CHECK_EQ_INT(rec.word_count, 4);
    SW_CHECK_EQ_INT(rec.plane_leaves, 1);
    SW_CHECK(e.max_abs <= TOL);
    sw__shadow_records_free(&rec);
}

static void test_step_block(void) {
    float z[64 * 64];
    for (int y = 0; y < 64; y++)
        for (int x = 0; x < 64; x++) z[y * 64 + x] = x < 13 + y / 4 ? 0.2f + 0.0003f * (float)y : 1.0f;
    sw__shadow_records rec;
    sw__shadow_error e = encode_check(z, 64, 64, &rec);
    /* A two-level step: every 2×2 on the edge is exact to the unorm16 rounding. */
    SW_CHECK(e.max_nearer <= TOL);
    SW_CHECK(e.max_abs <= 2.0f / 65535.0f + TOL);
    SW_CHECK(rec.quad_leaves > 0 && rec.plane_leaves > 0);
    printf("  step: %zu words for 4096 texels, max error %.3g\n", rec.word_count, e.max_abs);
    sw__shadow_records_free(&rec);
}

static void test_random_maps(void) {
    rng r = {42};
    enum { W = 128, H = 96 };
    static float z[W * H];
    for (int trial = 0; trial < 6; trial++) {
        /* Random planes per 16×16 tile, with random steps in some rows. */
        for (int ty = 0; ty < H / 16; ty++)
            for (int tx = 0; tx < W / 16; tx++) {
                const float c = rng_range(&r, 0.1, 0.9), a = rng_range(&r, -0.004, 0.004), b = rng_range(&r, -0.004, 0.004);
                const int step = trial >= 3 ? (int)rng_below(&r, 16) : 99;
                for (int y = 0; y < 16; y++)
                    for (int x = 0; x < 16; x++) {
                        float v = c + a * (float)x + b * (float)y + (x > step ? 0.1f : 0.0f);
                        z[(ty * 16 + y) * W + tx * 16 + x] = v;
                    }
            }
        sw__shadow_records rec;
        sw__shadow_error e = encode_check(z, W, H, &rec);
        SW_CHECK(e.max_nearer <= TOL);
        SW_CHECK(e.max_abs <= TOL + 2.0f / 65535.0f);
        sw__shadow_records_free(&rec);
    }
    /* Noise: nothing planar (but a 2×2 a plane fits by chance); 2×2 leaves
       never nearer than the source, farther by at most a quantisation step
       of the 2×2's own range. */
    for (int i = 0; i < W * H; i++) z[i] = rng_range(&r, 0.4, 0.6);
    sw__shadow_records rec;
    sw__shadow_error e = encode_check(z, W, H, &rec);
    SW_CHECK(e.max_nearer <= TOL);
    SW_CHECK(e.max_farther <= 0.2 / 63.0 + 2.0 / 65535.0);
    SW_CHECK_EQ_INT(rec.quad_leaves + rec.plane_leaves, (size_t)W * H / 4);
    SW_CHECK(rec.quad_leaves > (size_t)W * H / 4 * 99 / 100);
    sw__shadow_records_free(&rec);
}

static void test_bad_input(void) {
    float z[32 * 32];
    for (int i = 0; i < 32 * 32; i++) z[i] = (float)i;  /* clamped to 1 beyond 1 */
    z[5] = NAN, z[6] = -3.0f;
    sw__shadow_records rec;
    SW_CHECK_EQ_INT(sw__shadow_encode(z, 31, 32, TOL, &rec), -1);
    SW_CHECK_EQ_INT(sw__shadow_encode(z, 0, 32, TOL, &rec), -1);
    SW_CHECK_EQ_INT(sw__shadow_encode(z, 32, 32, TOL, &rec), 0);
    SW_CHECK_NEAR(sw__shadow_decode_texel(rec.data, 1, 5, 0), 1.0f, TOL);
    SW_CHECK(sw__shadow_decode_texel(rec.data, 1, 6, 0) >= 0.0f);
    SW_CHECK(sw__shadow_decode_texel(rec.data, 1, 6, 0) <= 1.5f / 63.0f);
    sw__shadow_records_free(&rec);
}

int main(void) {
    SW_RUN(test_node_packing);
    SW_RUN(test_half_fields);
    SW_RUN(test_hand_built_record);
    SW_RUN(test_plane_block);
    SW_RUN(test_step_block);
    SW_RUN(test_random_maps);
    SW_RUN(test_bad_input);
    return sw_test_finish();
}
