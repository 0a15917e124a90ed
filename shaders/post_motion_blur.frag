// Motion blur, step 2 of 2: per pixel, SW_BLUR_SAMPLES taps of the HDR
// target along the neighbourhood's fastest motion (its tile's neighbour
// max), each weighted by whether it can reach this pixel: a sample in
// front blurs over us as far as its own motion goes, one behind only as
// far as ours does, and two moving pixels blur into each other (after the
// reconstruction filter of McGuire et al. 2012, simplified). Streaks are
// at most 2·SW_BLUR_TILE pixels long, so the 3×3 tile search sees every
// pixel that can reach this one. Names: src/render/render_interface.h.
layout(location = SW_OUT_COLOR) out vec4 out_color;

layout(binding = SW_BLUR_UNIT_HDR) uniform sampler2D t_hdr;
layout(binding = SW_BLUR_UNIT_MOTION) uniform sampler2D t_motion;
layout(binding = SW_BLUR_UNIT_DEPTH) uniform sampler2D t_depth;
layout(binding = SW_BLUR_UNIT_TILES) uniform sampler2D t_tiles;  // neighbour max, pixels

layout(location = SW_BLUR_LOC_SHUTTER) uniform float u_shutter;

const float MAX_LENGTH = float(2 * SW_BLUR_TILE);

vec2 sw_clamp_length(vec2 v) {
    float l = length(v);
    return l > MAX_LENGTH ? v * (MAX_LENGTH / l) : v;
}

// How much of a streak of half-length r covers a point at distance d.
float sw_cone(float d, float r) { return clamp(1.0 - d / max(r, 0.5), 0.0, 1.0); }
float sw_cylinder(float d, float r) { return 1.0 - smoothstep(0.95 * r, 1.05 * r + 0.05, d); }

void main() {
    ivec2 size = textureSize(t_hdr, 0);
    ivec2 p = ivec2(gl_FragCoord.xy);
    vec4 centre = texelFetch(t_hdr, p, 0);
    vec2 vn = sw_clamp_length(texelFetch(t_tiles, p / SW_BLUR_TILE, 0).rg);
    float rn = 0.5 * length(vn);
    if (rn < 0.25) {  // nothing around moves by half a pixel
        out_color = centre;
        return;
    }
    vec2 pixels = vec2(size) * u_shutter;
    float zx = texelFetch(t_depth, p, 0).r;
    float rx = 0.5 * length(sw_clamp_length(texelFetch(t_motion, p, 0).rg * pixels));
    // Per-pixel offset of the taps (interleaved gradient noise, Jimenez
    // 2014): no visible banding from the fixed tap count.
    float noise = fract(52.9829189 * fract(dot(gl_FragCoord.xy, vec2(0.06711056, 0.00583715)))) - 0.5;
    float w_centre = 1.0 / max(rx, 1.0);
    vec3 sum = centre.rgb * w_centre;
    float weights = w_centre;
    for (int i = 0; i < SW_BLUR_SAMPLES; i++) {
        float t = mix(-1.0, 1.0, (float(i) + 0.5 + noise) / float(SW_BLUR_SAMPLES));
        ivec2 q = clamp(ivec2(floor(vec2(p) + 0.5 + vn * (0.5 * t))), ivec2(0), size - 1);
        if (q == p) continue;
        float d = length(vec2(q - p));
        float zy = texelFetch(t_depth, q, 0).r;
        float ry = 0.5 * length(sw_clamp_length(texelFetch(t_motion, q, 0).rg * pixels));
        float front = sw_nearer(zy, zx) ? 1.0 : 0.0;  // shaders/depth.glsl: greater is nearer under reverse-Z
        float w = front * sw_cone(d, ry) + (1.0 - front) * sw_cone(d, rx) + 2.0 * sw_cylinder(d, ry) * sw_cylinder(d, rx);
        sum += texelFetch(t_hdr, q, 0).rgb * w;
        weights += w;
    }
    out_color = vec4(sum / weights, centre.a);
}
