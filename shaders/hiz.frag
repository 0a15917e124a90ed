// Hi-Z pyramid (src/render/hiz.c, docs/depth.md): one level per draw.
// Level 0 copies the depth target; level k + 1 keeps the farthest depth
// (sw_farthest, shaders/depth.glsl) of its 2 × 2 texels of level k, the odd
// last column / row folded into the texel before it, as sw__hiz_reduce.
layout(location = SW_OUT_COLOR) out vec4 out_color;

// The depth target (copy), or the pyramid with level k as its base (reduce).
layout(binding = SW_HIZ_UNIT_SOURCE) uniform sampler2D t_source;
layout(location = SW_HIZ_LOC_MODE) uniform int u_mode;  // SW_HIZ_MODE_*

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    if (u_mode == SW_HIZ_MODE_COPY) {
        out_color = vec4(texelFetch(t_source, p, 0).r, 0.0, 0.0, 1.0);
        return;
    }
    ivec2 source = textureSize(t_source, 0);
    ivec2 size = max(source / 2, ivec2(1));
    ivec2 first = 2 * p;
    ivec2 last = ivec2(p.x == size.x - 1 ? source.x - 1 : first.x + 1, p.y == size.y - 1 ? source.y - 1 : first.y + 1);
    last = min(last, source - 1);
    float far = texelFetch(t_source, first, 0).r;
    for (int y = first.y; y <= last.y; y++)
        for (int x = first.x; x <= last.x; x++) far = sw_farthest(far, texelFetch(t_source, ivec2(x, y), 0).r);
    out_color = vec4(far, 0.0, 0.0, 1.0);
}
