// Lighting pass: the lights of lighting_common.glsl (the sun with its PCF
// shadow map, the punctual lights, hemisphere ambient) with the ambient
// occlusion (ao.frag); background pixels add nothing (the sky pass,
// sky.frag, draws them next). Adds onto the HDR target, which holds the
// emission already. Units, locations and classes: src/render/render_interface.h.
in vec2 v_uv;
layout(location = SW_OUT_COLOR) out vec4 out_color;
// Dual-source blending (ONE, SRC1_COLOR): the HDR target, which holds the
// emission and the toon pixels' colour, is multiplied by this, then
// out_color is added: toon pixels get their ambient occlusion here.
layout(location = SW_OUT_COLOR, index = SW_OUT_BLEND_FACTOR_INDEX) out vec4 out_factor;

layout(binding = SW_LIGHTING_UNIT_NORMAL) uniform sampler2D t_normal;
layout(binding = SW_LIGHTING_UNIT_ALBEDO) uniform sampler2D t_albedo;
layout(binding = SW_LIGHTING_UNIT_MATERIAL) uniform sampler2D t_material;
layout(binding = SW_LIGHTING_UNIT_CLASS) uniform usampler2D t_class;
layout(binding = SW_LIGHTING_UNIT_DEPTH) uniform sampler2D t_depth;
layout(binding = SW_LIGHTING_UNIT_AO) uniform sampler2D t_ao;  // ao.frag: R ambient occlusion, G contact shadow; 1 = open

layout(location = SW_LIGHTING_LOC_INVERSE_VIEW_PROJECTION) uniform mat4 u_inverse_view_projection;
// The lights, the shadow map and sw_shade: lighting_common.glsl.

void main() {
    ivec2 pixel = ivec2(gl_FragCoord.xy);
    uint cls = texelFetch(t_class, pixel, 0).r & uint(SW_CLASS_MASK);
    out_factor = vec4(1.0);
    // Background pixels: the sky pass (sky.frag) overwrites them. Unlit and toon pixels: the emission target holds their colour already
    // (toon materials are lit in the G-buffer pass, toon.frag).
    if (cls == uint(SW_CLASS_BACKGROUND) || cls == uint(SW_CLASS_UNLIT) || cls == uint(SW_CLASS_TOON)) {
        out_color = vec4(0.0);
        // Toon pixels: their colour darkened by part of the ambient occlusion
        // (the toon model has no separate ambient term to multiply).
        if (cls == uint(SW_CLASS_TOON))
            out_factor = vec4(vec3(mix(1.0, texelFetch(t_ao, pixel, 0).r, float(SW_AO_TOON_PERCENT) / 100.0)), 1.0);
        return;
    }
    float depth = texelFetch(t_depth, pixel, 0).r;
    vec4 world4 = u_inverse_view_projection * vec4(v_uv * 2.0 - 1.0, sw_depth_to_ndc_z(depth), 1.0);
    vec3 world = world4.xyz / world4.w;
    vec3 n = normalize(texelFetch(t_normal, pixel, 0).xyz * 2.0 - 1.0);
    vec3 albedo = texelFetch(t_albedo, pixel, 0).rgb;
    vec4 material = texelFetch(t_material, pixel, 0);
    float metallic = material.r, roughness = material.g, occlusion = material.b;

    vec2 ao = texelFetch(t_ao, pixel, 0).rg;  // ambient, contact (the sun's direct light)
    out_color = vec4(sw_shade(world, n, albedo, metallic, roughness, occlusion, ao), 1.0);
}
