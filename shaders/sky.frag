// The sky on background pixels, in three layers (docs/sky.md), each one
// draw of this program with its own blend: SW_SKY_LAYER_BACKGROUND
// overwrites (gradient, sun and moon, stars) and writes the background's
// motion; SW_SKY_LAYER_NEBULA is blended C = C_dst + C_src·C_dst;
// SW_SKY_LAYER_TINT C = C_src·α + C_dst·(1 − α). Mirrors src/render/sky.c
// (sw__sky_background, sw__sky_nebula, sw__sky_tint). Names:
// src/render/render_interface.h.
in vec2 v_uv;
layout(location = SW_OUT_COLOR) out vec4 out_color;
layout(location = SW_SKY_OUT_MOTION) out vec4 out_motion;

layout(binding = SW_SKY_UNIT_CLASS) uniform usampler2D t_class;
layout(binding = SW_SKY_UNIT_GRADIENT) uniform sampler2D t_gradient;
layout(binding = SW_SKY_UNIT_NOISE) uniform sampler2D t_noise;
layout(binding = SW_SKY_UNIT_STARS) uniform sampler2D t_stars;

layout(location = SW_SKY_LOC_INVERSE_VIEW_PROJECTION) uniform mat4 u_inverse_view_projection;
layout(location = SW_SKY_LOC_PREVIOUS_VIEW_PROJECTION) uniform mat4 u_previous_view_projection;
layout(location = SW_SKY_LOC_JITTER) uniform vec2 u_jitter;
layout(location = SW_SKY_LOC_LAYER) uniform int u_layer;
layout(location = SW_SKY_LOC_MOTION) uniform int u_motion;
layout(location = SW_SKY_LOC_SUN) uniform vec3 u_sun;
layout(location = SW_SKY_LOC_STARS) uniform float u_stars;
layout(location = SW_SKY_LOC_NEBULA) uniform vec3 u_nebula;
layout(location = SW_SKY_LOC_TINT) uniform vec4 u_tint;

const float PI = 3.14159265358979;

float sw_above(float y) { return clamp(y * 10.0, 0.0, 1.0); }

int sw_noise_at(vec3 d, out vec2 offset) {
    float l1 = abs(d.x) + abs(d.y) + abs(d.z);
    vec2 o = d.xz / l1;
    if (d.y < 0.0) o = (1.0 - abs(o.yx)) * vec2(o.x >= 0.0 ? 1.0 : -1.0, o.y >= 0.0 ? 1.0 : -1.0);
    vec2 uv = (o * 0.5 + 0.5) * float(SW_SKY_NOISE_SIZE);
    offset = uv - floor(uv) - 0.5;
    ivec2 texel = clamp(ivec2(floor(uv)), ivec2(0), ivec2(SW_SKY_NOISE_SIZE - 1));
    return int(round(texelFetch(t_noise, texel, 0).r * 255.0));
}

vec3 sw_background(vec3 d) {
    vec3 sky = textureLod(t_gradient, vec2(0.5 + 0.5 * d.y, 0.25), 0.0).rgb;
    vec3 glow = textureLod(t_gradient, vec2(acos(clamp(dot(d, u_sun), -1.0, 1.0)) / PI, 0.75), 0.0).rgb;
    vec2 o;
    int n = sw_noise_at(d, o);
    float point = exp(-dot(o, o) / (2.0 * 0.15 * 0.15));
    float star = n >= SW_SKY_STAR_THRESHOLD
        ? float(n - SW_SKY_STAR_THRESHOLD + 1) / float(256 - SW_SKY_STAR_THRESHOLD) * 6.0 * point : 0.0;
    vec3 color = texelFetch(t_stars, ivec2(n % SW_SKY_PALETTE_SIZE, 0), 0).rgb;
    return sky + glow + color * (star * u_stars * sw_above(d.y));
}

vec3 sw_nebula(vec3 d) {
    const vec3 pole = vec3(0.3487, 0.5480, 0.7603);
    float h = dot(d, pole) / 0.14;
    float cloud = 0.55 + 0.45 * sin(9.0 * d.x + 4.0 * d.y) * sin(7.0 * d.z - 5.0 * d.y);
    return u_nebula * (exp(-0.5 * h * h) * cloud * sw_above(d.y));
}

void main() {
    ivec2 pixel = ivec2(gl_FragCoord.xy);
    if ((texelFetch(t_class, pixel, 0).r & uint(SW_CLASS_MASK)) != uint(SW_CLASS_BACKGROUND)) discard;
    // The direction through this pixel: its NDC without the jitter, from
    // the near to the far plane.
    vec2 ndc = v_uv * 2.0 - 1.0 - u_jitter;
    vec4 near4 = u_inverse_view_projection * vec4(ndc, -1.0, 1.0);
    vec4 far4 = u_inverse_view_projection * vec4(ndc, 1.0, 1.0);
    vec3 d = normalize(far4.xyz / far4.w - near4.xyz / near4.w);
    if (u_layer == SW_SKY_LAYER_BACKGROUND) {
        out_color = vec4(sw_background(d), 1.0);
        // A direction at infinity moves with the camera's turn only: w = 0
        // drops the previous camera's translation.
        vec4 previous = u_previous_view_projection * vec4(d, 0.0);
        out_motion = vec4(u_motion != 0 && previous.w > 0.0 ? (ndc - previous.xy / previous.w) * 0.5 : vec2(0.0), 0.0, 0.0);
    } else if (u_layer == SW_SKY_LAYER_NEBULA) {
        out_color = vec4(sw_nebula(d), 1.0);
        out_motion = vec4(0.0);
    } else {
        out_color = vec4(u_tint.rgb, u_tint.a * exp(-6.0 * max(d.y, 0.0)));
        out_motion = vec4(0.0);
    }
}
