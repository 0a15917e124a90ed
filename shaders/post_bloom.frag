// Bloom on the HDR target, in three modes (docs/post.md):
//   SW_BLOOM_MODE_BRIGHT  the bright part of the HDR image into the first
//                         half-size level: a 4×4 box (four bilinear taps),
//                         each tap weighted by 1/(1 + luma) so one hot
//                         pixel does not flicker into a blob, then a soft
//                         threshold;
//   SW_BLOOM_MODE_DOWN    the next level down, the same 4×4 box;
//   SW_BLOOM_MODE_UP      a 3×3 tent of the coarser level, added (blending)
//                         onto the finer one.
// Names: src/render/render_interface.h.
in vec2 v_uv;
layout(location = SW_OUT_COLOR) out vec4 out_color;

layout(binding = SW_BLOOM_UNIT_SOURCE) uniform sampler2D t_source;  // bilinear, clamped

layout(location = SW_BLOOM_LOC_MODE) uniform int u_mode;
layout(location = SW_BLOOM_LOC_THRESHOLD) uniform vec2 u_threshold;  // threshold, knee

const vec3 LUMA = vec3(0.2126, 0.7152, 0.0722);

vec3 sw_tap(vec2 uv) { return textureLod(t_source, uv, 0.0).rgb; }

void main() {
    vec2 texel = 1.0 / vec2(textureSize(t_source, 0));
    if (u_mode == SW_BLOOM_MODE_UP) {
        vec3 c = 4.0 * sw_tap(v_uv);
        c += 2.0 * (sw_tap(v_uv + vec2(texel.x, 0.0)) + sw_tap(v_uv - vec2(texel.x, 0.0)) +
                    sw_tap(v_uv + vec2(0.0, texel.y)) + sw_tap(v_uv - vec2(0.0, texel.y)));
        c += sw_tap(v_uv + texel) + sw_tap(v_uv - texel) + sw_tap(v_uv + vec2(texel.x, -texel.y)) +
             sw_tap(v_uv + vec2(-texel.x, texel.y));
        out_color = vec4(c / 16.0, 1.0);
        return;
    }
    vec3 taps[4] = vec3[4](sw_tap(v_uv + vec2(-texel.x, -texel.y)), sw_tap(v_uv + vec2(texel.x, -texel.y)),
                           sw_tap(v_uv + vec2(-texel.x, texel.y)), sw_tap(v_uv + texel));
    vec3 c = vec3(0.0);
    if (u_mode == SW_BLOOM_MODE_BRIGHT) {
        float weights = 0.0;
        for (int i = 0; i < 4; i++) {
            float w = 1.0 / (1.0 + dot(max(taps[i], 0.0), LUMA));
            c += max(taps[i], 0.0) * w;
            weights += w;
        }
        c /= weights;
        // Soft threshold: a quadratic ramp over [threshold − knee, threshold + knee], linear above.
        float luma = dot(c, LUMA), t = u_threshold.x, knee = max(u_threshold.y, 1e-4);
        float ramp = clamp(luma - t + knee, 0.0, 2.0 * knee);
        float bright = max(ramp * ramp / (4.0 * knee), luma - t);
        c *= bright / max(luma, 1e-4);
    } else {
        c = 0.25 * (taps[0] + taps[1] + taps[2] + taps[3]);
    }
    out_color = vec4(c, 1.0);
}
