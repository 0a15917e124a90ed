// Shadow map pass for draws that are not OPAQUE: depth where the surface
// covers enough of what is behind it, else discarded (docs/shadows.md).
// The base colour alpha as gbuffer.frag reads it: factor × vertex colour ×
// the base colour texture on its TEXCOORD set and KHR_texture_transform
// (the Material block, material_block.glsl).
in ShadowOut {
    vec2 uv0;
    vec2 uv1;
    vec4 color;
} i;

layout(binding = SW_MATERIAL_SLOT_BASE_COLOR) uniform sampler2D t_base_color;
layout(location = SW_SHADOW_LOC_ALPHA_RULE) uniform int u_alpha_rule;  // SW_SHADOW_ALPHA_*

void main() {
    const int slot = SW_MATERIAL_SLOT_BASE_COLOR;
    vec2 uv = (u_uv_transform[slot] * vec3(u_uv_set[slot] == 1 ? i.uv1 : i.uv0, 1.0)).xy;
    float alpha = u_base_color.a * i.color.a * texture(t_base_color, uv).a;
    if (u_alpha_rule == SW_SHADOW_ALPHA_MASK) {
        if (alpha < u_alpha_cutoff) discard;
        return;
    }
    // BLEND and transmission: the share of the light behind that the
    // surface stops, as gbuffer.frag's blend alpha a(1 − t) (OPAQUE
    // transmissive materials: a = 1), cut at a half.
    float covered = alpha;
    if (u_alpha_rule == SW_SHADOW_ALPHA_TRANSMIT)
        covered = (u_transmission.w > 0.5 ? 1.0 : alpha) * (1.0 - u_transmission.x);
    if (covered < float(SW_SHADOW_BLEND_PERCENT) / 100.0) discard;
}
