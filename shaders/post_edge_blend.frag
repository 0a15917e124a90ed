// Edge AA, step 3 of 3: neighbourhood blend. Each pixel mixes in its four
// neighbours by the weights of the edges between them: its own bottom and
// left edges (this pixel's side) and the bottom edge of the pixel above and
// the left edge of the pixel to the right (their other side). Names:
// src/render/render_interface.h; docs/post.md.
layout(location = SW_OUT_COLOR) out vec4 out_color;

layout(binding = SW_EDGE_UNIT_COLOR) uniform sampler2D t_color;
layout(binding = SW_EDGE_UNIT_WEIGHTS) uniform sampler2D t_weights;

void main() {
    ivec2 size = textureSize(t_color, 0);
    ivec2 p = ivec2(gl_FragCoord.xy);
    vec4 own = texelFetch(t_weights, p, 0);
    ivec2 above = min(p + ivec2(0, 1), size - 1), right = min(p + ivec2(1, 0), size - 1);
    float w_below = own.r, w_left = own.b;
    float w_above = above != p ? texelFetch(t_weights, above, 0).g : 0.0;
    float w_right = right != p ? texelFetch(t_weights, right, 0).a : 0.0;
    float total = w_below + w_left + w_above + w_right;
    vec3 c = texelFetch(t_color, p, 0).rgb;
    if (total > 0.0) {
        vec3 mixed = w_below * texelFetch(t_color, max(p - ivec2(0, 1), ivec2(0)), 0).rgb +
                     w_left * texelFetch(t_color, max(p - ivec2(1, 0), ivec2(0)), 0).rgb +
                     w_above * texelFetch(t_color, above, 0).rgb + w_right * texelFetch(t_color, right, 0).rgb;
        // Weights past 1 (a pixel on several short edges) are normalised.
        c = total > 1.0 ? mixed / total : c * (1.0 - total) + mixed;
    }
    out_color = vec4(c, 1.0);
}
