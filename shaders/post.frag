// Tone mapping (the ACES filmic curve as fitted by Narkowicz) and sRGB
// encoding into the 8-bit image; or one of the debug views.
in vec2 v_uv;
layout(location = 0) out vec4 out_color;

layout(binding = 0) uniform sampler2D t_hdr;
layout(binding = 1) uniform sampler2D t_normal;
layout(binding = 2) uniform sampler2D t_albedo;
layout(binding = 3) uniform usampler2D t_class;
layout(binding = 4) uniform sampler2D t_motion;

// 0 shaded, 1 normals, 2 motion, 3 UV, 4 weights (SW_RENDER_VIEW_*).
layout(location = 0) uniform int u_view;
layout(location = 1) uniform float u_exposure;
layout(location = 2) uniform float u_motion_scale;

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

void main() {
    ivec2 pixel = ivec2(gl_FragCoord.xy);
    uint cls = texelFetch(t_class, pixel, 0).r & 63u;
    vec3 c;
    if (u_view == 0) {
        c = sw_srgb_encode(sw_aces(texelFetch(t_hdr, pixel, 0).rgb * u_exposure));
    } else if (cls == 0u) {
        c = vec3(0.08);
    } else if (u_view == 1) {
        c = texelFetch(t_normal, pixel, 0).rgb;
    } else if (u_view == 2) {
        vec2 m = texelFetch(t_motion, pixel, 0).rg;
        float angle = atan(m.y, m.x) / 6.28318530718 + 0.5;
        c = sw_hue(angle) * clamp(length(m) * u_motion_scale, 0.0, 1.0);
    } else {
        c = sw_srgb_encode(texelFetch(t_albedo, pixel, 0).rgb);
    }
    out_color = vec4(c, 1.0);
}
