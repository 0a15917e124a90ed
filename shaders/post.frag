// Display mapping: the HDR target (motion-blurred when that stage ran)
// plus bloom, through the ACES filmic curve as fitted by Narkowicz, then
// sRGB encoding: display-referred values for edge AA and TAA. Or one of
// the debug views of the G-buffer. Units, locations, views and classes:
// src/render/render_interface.h.
in vec2 v_uv;
layout(location = SW_OUT_COLOR) out vec4 out_color;

layout(binding = SW_POST_UNIT_HDR) uniform sampler2D t_hdr;
layout(binding = SW_POST_UNIT_NORMAL) uniform sampler2D t_normal;
layout(binding = SW_POST_UNIT_ALBEDO) uniform sampler2D t_albedo;
layout(binding = SW_POST_UNIT_CLASS) uniform usampler2D t_class;
layout(binding = SW_POST_UNIT_MOTION) uniform sampler2D t_motion;
layout(binding = SW_POST_UNIT_BLOOM) uniform sampler2D t_bloom;  // half size, bilinear
layout(binding = SW_POST_UNIT_DEPTH) uniform sampler2D t_depth;
layout(binding = SW_POST_UNIT_AO) uniform sampler2D t_ao;        // R ambient, G contact

layout(location = SW_POST_LOC_VIEW) uniform int u_view;  // SW_VIEW_*
layout(location = SW_POST_LOC_EXPOSURE) uniform float u_exposure;
layout(location = SW_POST_LOC_MOTION_SCALE) uniform float u_motion_scale;
layout(location = SW_POST_LOC_BLOOM_STRENGTH) uniform float u_bloom_strength;
layout(location = SW_POST_LOC_DEPTH_RANGE) uniform vec3 u_depth_range;  // near, far (0: infinite), scale's far end

vec3 sw_aces(vec3 x) {
    return clamp((x * (2.51 * x + 0.03)) / (x * (2.43 * x + 0.59) + 0.14), 0.0, 1.0);
}

vec3 sw_srgb_encode(vec3 c) {
    c = clamp(c, 0.0, 1.0);
    return mix(c * 12.92, 1.055 * pow(c, vec3(1.0 / 2.4)) - 0.055, step(vec3(0.0031308), c));
}

vec3 sw_hue(float h) {
    return clamp(abs(fract(h + vec3(0.0, 2.0 / 3.0, 1.0 / 3.0)) * 6.0 - 3.0) - 1.0, 0.0, 1.0);
}

// The depth view (the C twin: src/render/depth_view.c): the eye distance
// of a depth-buffer value, either convention (shaders/depth.glsl), then a
// log-scale grey, white at the near plane, black at the scale's far end,
// shown sRGB-encoded.
float sw_depth_view_grey(float depth) {
    if (depth == sw_depth_far()) return 0.0;
    float n = u_depth_range.x, f = u_depth_range.y;
    float d;
    if (sw_depth_reverse != 0) d = f > 0.0 ? n * f / (depth * (f - n) + n) : n / depth;
    else d = f > 0.0 ? n * f / (f - depth * (f - n)) : n / (1.0 - depth);
    return clamp(1.0 - log(d / n) / log(u_depth_range.z / n), 0.0, 1.0);
}

void main() {
    ivec2 pixel = ivec2(gl_FragCoord.xy);
    uint cls = texelFetch(t_class, pixel, 0).r & uint(SW_CLASS_MASK);
    vec3 c;
    if (u_view == SW_VIEW_SHADED) {
        vec3 hdr = texelFetch(t_hdr, pixel, 0).rgb;
        // The strength test keeps the bloom texture unread (and unneeded) when off.
        if (u_bloom_strength > 0.0) hdr += u_bloom_strength * textureLod(t_bloom, v_uv, 0.0).rgb;
        c = sw_srgb_encode(sw_aces(hdr * u_exposure));
    } else if (u_view == SW_VIEW_AO) {  // the target's byte, unencoded: the image byte equals it
        c = vec3(texelFetch(t_ao, pixel, 0).r);
    } else if (u_view == SW_VIEW_DEPTH) {
        c = sw_srgb_encode(vec3(sw_depth_view_grey(texelFetch(t_depth, pixel, 0).r)));
    } else if (cls == uint(SW_CLASS_BACKGROUND)) {
        c = vec3(0.08);
    } else if (u_view == SW_VIEW_NORMALS) {
        c = texelFetch(t_normal, pixel, 0).rgb;
    } else if (u_view == SW_VIEW_MOTION) {
        vec2 m = texelFetch(t_motion, pixel, 0).rg;
        float angle = atan(m.y, m.x) / 6.28318530718 + 0.5;
        c = sw_hue(angle) * clamp(length(m) * u_motion_scale, 0.0, 1.0);
    } else {  // SW_VIEW_UV, SW_VIEW_WEIGHTS: the G-buffer pass wrote them as albedo
        c = sw_srgb_encode(texelFetch(t_albedo, pixel, 0).rgb);
    }
    out_color = vec4(c, 1.0);
}
