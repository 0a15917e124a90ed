// The volumetric fog's composite (docs/fog.md; frame analysis §2.13): the
// integrated volume read at each pixel's depth, F = (V.rgb + A.rgb·V.a,
// V.a·A.a) with the air beyond the volume A = (0, 0, 0, 1), blended
// ONE, SRC_ALPHA onto the lit colour (colour·T + S). Mirrors
// sw__fog_sample_column / sw__fog_apply (src/render/fog.c).
in vec2 v_uv;
layout(location = SW_OUT_COLOR) out vec4 out_fog;

layout(binding = SW_FOG_UNIT_DEPTH) uniform sampler2D t_depth;
layout(binding = SW_FOG_UNIT_VOLUME) uniform sampler3D t_volume;

layout(location = SW_FOG_LOC_INVERSE_VIEW_PROJECTION) uniform mat4 u_inverse_view_projection;
layout(location = SW_FOG_LOC_EYE) uniform vec3 u_eye;
layout(location = SW_FOG_LOC_FORWARD) uniform vec3 u_forward;

const float LINEAR_DEPTH = 5.0, FAR_DEPTH = 500.0;

float fog_depth_slice(float z) {
    if (!(z > 0.0)) return 0.0;
    if (z <= LINEAR_DEPTH) return z * float(SW_FOG_LINEAR_SLICES) / LINEAR_DEPTH;
    float s = float(SW_FOG_LINEAR_SLICES) +
              float(SW_FOG_SLICES - SW_FOG_LINEAR_SLICES) * log(z / LINEAR_DEPTH) / log(FAR_DEPTH / LINEAR_DEPTH);
    return min(s, float(SW_FOG_SLICES));
}

void main() {
    float d = texelFetch(t_depth, ivec2(gl_FragCoord.xy), 0).r;
    float z = FAR_DEPTH; // the background: all of the volume
    if (d != sw_depth_far()) {
        vec4 p = u_inverse_view_projection * vec4(v_uv * 2.0 - 1.0, sw_depth_to_ndc_z(d), 1.0);
        z = dot(p.xyz / p.w - u_eye, u_forward);
    }
    // Slice end k is stored in slice k − 1 (texel centre (k − 0.5)/128);
    // before the first end, towards (0, 0, 0, 1) at the eye.
    float e = fog_depth_slice(z);
    vec4 v;
    if (e < 1.0) v = mix(vec4(0.0, 0.0, 0.0, 1.0), texture(t_volume, vec3(v_uv, 0.5 / float(SW_FOG_SLICES))), e);
    else v = texture(t_volume, vec3(v_uv, (e - 0.5) / float(SW_FOG_SLICES)));
    const vec4 air = vec4(0.0, 0.0, 0.0, 1.0);
    out_fog = vec4(v.rgb + air.rgb * v.a, v.a * air.a);
}
