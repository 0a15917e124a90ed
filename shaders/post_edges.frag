// Edge AA, step 1 of 3: luma edges. A pixel's left (R) and bottom (G)
// boundaries are edges where the Rec. 709 luma of the display-referred
// colour steps by the threshold or more, unless both pixels belong to a
// class that opts out (SW_EDGE_SKIP_CLASSES). Names:
// src/render/render_interface.h; docs/post.md.
layout(location = SW_OUT_COLOR) out vec2 out_edges;

layout(binding = SW_EDGE_UNIT_COLOR) uniform sampler2D t_color;
layout(binding = SW_EDGE_UNIT_CLASS) uniform usampler2D t_class;

layout(location = SW_EDGE_LOC_THRESHOLD) uniform float u_threshold;

const vec3 LUMA = vec3(0.2126, 0.7152, 0.0722);

float sw_luma(ivec2 p) { return dot(texelFetch(t_color, p, 0).rgb, LUMA); }

bool sw_skips(ivec2 p) {
    uint cls = texelFetch(t_class, p, 0).r & uint(SW_CLASS_MASK);
    return ((uint(SW_EDGE_SKIP_CLASSES) >> cls) & 1u) != 0u;
}

float sw_edge(ivec2 p, ivec2 q, float luma) {
    if (sw_skips(p) && sw_skips(q)) return 0.0;
    return abs(luma - sw_luma(q)) >= u_threshold ? 1.0 : 0.0;
}

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    float luma = sw_luma(p);
    out_edges = vec2(p.x > 0 ? sw_edge(p, p - ivec2(1, 0), luma) : 0.0,
                     p.y > 0 ? sw_edge(p, p - ivec2(0, 1), luma) : 0.0);
}
