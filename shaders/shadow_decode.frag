// The static shadow casters' compressed depth (src/render/shadow_codec.c,
// docs/shadows.md) decoded into the shadow map's depth, one fragment per
// texel, before the dynamic casters are drawn over it. Line by line the C
// decoder sw__shadow_decode_texel (the reference of the GL test).
layout(std430, binding = SW_SHADOW_DECODE_BUFFER) readonly buffer Records { uint words[]; };
layout(location = SW_SHADOW_DECODE_LOC_BLOCKS_X) uniform int u_blocks_x;
layout(location = SW_SHADOW_DECODE_LOC_ORIGIN) uniform ivec2 u_origin; // the map's texel (0, 0) in the target

uint sw_node(uint nodes, uint n) { return (words[nodes + n / 3u] >> (10u * (n % 3u))) & 1023u; }

float sw_half_field(uint field) { return unpackHalf2x16(((field & 1023u) << 6) | 32u).x; }

float sw_quad_depth(uint word, uint base_scale, uint bx, uint by) {
    uint width = 6u + bx, shift = 6u + 6u * bx + 13u * by;
    uint q = (word >> shift) & ((1u << width) - 1u);
    int e = int((word >> 1) & 31u);
    float base = float(base_scale & 65535u) * (1.0 / 65535.0);
    float scale = float(base_scale >> 16) * (1.0 / 65535.0);
    if (e == 0) return base + scale * (float(q) / float((1u << width) - 1u));
    float s = ldexp(scale, -e);
    uint v = q & ((1u << (width - 1u)) - 1u);
    float start = (q >> (width - 1u)) != 0u ? base + scale - s : base;
    return start + s * (float(v) / float((1u << (width - 1u)) - 1u));
}

float sw_decode(int x, int y) {
    uint entry = words[uint((y >> 5) * u_blocks_x + (x >> 5))];
    uint block = entry & 16777215u;
    uint nodes = block + 1u;
    uint payload = nodes + (entry >> 24);
    uint header = words[block];
    float lo = float(header & 65535u) * (1.0 / 65535.0), range = float(header >> 16) * (1.0 / 65535.0);
    int lx = x & 31, ly = y & 31;
    int size = 32, ox = 0, oy = 0;
    uint n = 0u, node = sw_node(nodes, 0u);
    while ((node & 512u) == 0u && size > 2) {
        size >>= 1;
        int xb = lx >= ox + size ? 1 : 0, yb = ly >= oy + size ? 1 : 0;
        ox += xb * size;
        oy += yb * size;
        n += (node & 511u) + uint(2 * yb + xb);
        node = sw_node(nodes, n);
    }
    uint leaf = payload + (node & 511u);
    uint word = words[leaf];
    if ((word & 1u) != 0u) return sw_quad_depth(word, words[leaf + 1u], uint(lx & 1), uint(ly & 1));
    float dx = float(2 * (lx - ox) - (size - 1)) * 0.5, dy = float(2 * (ly - oy) - (size - 1)) * 0.5;
    float a = sw_half_field(word >> 1), b = sw_half_field(word >> 11);
    precise float c = lo + range * (float(word >> 21) * (1.0 / 2047.0));
    precise float z = c + a * dx + b * dy;
    return z;
}

void main() {
    ivec2 texel = ivec2(gl_FragCoord.xy) - u_origin;
    gl_FragDepth = clamp(sw_decode(texel.x, texel.y), 0.0, 1.0);
}
