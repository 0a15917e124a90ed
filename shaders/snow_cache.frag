// The surface-height cache (src/render/snow_cache.c, docs/snow.md;
// SEED-002-NOTES §2.6). Drawn twice: depth only, then with the depth test
// "equal or nearer" and early tests, so that only the highest surface of a
// fine texel is a candidate. A candidate (sw__snow_cache_insert in
// src/render/snow.c is its C reference): a surface flatter than 50°, its
// layer's bit OR-ed into the coarse cell, accepted while the cell's layers
// stay within the lowest two adjacent ones, the packed height and
// difference max-ed into the fine texel; a winner marks its coarse cell
// dirty. Addresses: the world texel index modulo 2048 (a ring).
layout(early_fragment_tests) in;

in SnowCacheOut {
    vec3 world;
    vec3 normal;
    float height;
} i;

layout(location = SW_SNOW_CACHE_LOC_HEIGHTS) uniform vec4 u_heights;
layout(location = SW_SNOW_CACHE_LOC_RING) uniform ivec2 u_ring;
layout(binding = SW_SNOW_CACHE_IMAGE_FINE, r32ui) uniform coherent uimage2D u_fine;
layout(binding = SW_SNOW_CACHE_IMAGE_COARSE, r32ui) uniform coherent uimage2D u_coarse;
layout(binding = SW_SNOW_CACHE_IMAGE_DIRTY, r32ui) uniform writeonly uimage2D u_dirty;

void main() {
    if (u_heights.w < 0.5) return;  // the depth pass
    // The normal: the mesh's, else the face's (from above its y is never negative).
    vec3 n = u_heights.z > 0.5 ? i.normal : cross(dFdy(i.world), dFdx(i.world));
    if (!(dot(n, n) > 0.0) || !(normalize(n).y > 0.642788)) return;  // SW_SNOW_MIN_NORMAL_Y = cos 50°
    float h = clamp(i.height, 0.0, 1.0);
    // The height difference across the texel, in height levels.
    uint diff = min(uint(fwidth(i.height) * 65532.0), 0xFFFFu);
    ivec2 fine = (ivec2(gl_FragCoord.xy) + u_ring) & (SW_SNOW_CACHE_FINE_SIZE - 1);
    ivec2 coarse = fine >> SW_SNOW_CACHE_COARSE_SHIFT;
    uint bit = 1u << min(uint(h * 32.0), 31u);  // sw__snow_coarse_layer
    uint mask = imageAtomicOr(u_coarse, coarse, bit) | bit;
    if ((mask >> uint(findLSB(mask))) > 3u) return;  // sw__snow_coarse_accept
    uint word = (min(uint(h * 65532.0), 65532u) << 16) | diff;  // sw__snow_height_pack
    if (imageAtomicMax(u_fine, fine, word) < word) imageStore(u_dirty, coarse, uvec4(1u));
}
