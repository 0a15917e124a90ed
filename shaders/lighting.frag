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
// The character's environment feedback (feedback.comp): the previous
// frame's 70×1 state and where she stands (height 0: off).
layout(binding = SW_LIGHTING_UNIT_FEEDBACK) uniform sampler2D t_feedback;
layout(location = SW_LIGHTING_LOC_FEEDBACK_BODY) uniform vec4 u_feedback_body;

// sw__feedback_read_colour, sw__feedback_read_shadow, sw__feedback_apply
// (src/render/feedback.c).
vec3 sw_feedback(vec3 color, vec3 world, vec3 n) {
    vec4 sum = vec4(0.0);
    float weight = 0.0;
    for (int d = 0; d < SW_FEEDBACK_DIRECTIONS; d++) {
        float phi = 6.2831853 * float(d) / float(SW_FEEDBACK_DIRECTIONS);
        float w = n.x * sin(phi) + n.z * cos(phi);
        if (w <= 0.0) continue;
        w *= w;
        sum += w * texelFetch(t_feedback, ivec2(d, 0), 0);
        weight += w;
    }
    vec4 around = weight > 0.0 ? sum / weight : vec4(0.0);
    vec3 rel = world - u_feedback_body.xyz;
    int ring = clamp(int(floor(rel.y / u_feedback_body.w * float(SW_FEEDBACK_SHADOW_RINGS))), 0, SW_FEEDBACK_SHADOW_RINGS - 1);
    float phi = atan(rel.x, rel.z);
    if (phi < 0.0) phi += 6.2831853;
    int d = int(floor(phi / 6.2831853 * float(SW_FEEDBACK_DIRECTIONS) + 0.5)) % SW_FEEDBACK_DIRECTIONS;
    float shadow = texelFetch(t_feedback, ivec2(SW_FEEDBACK_COLOUR_COLUMNS + ring * SW_FEEDBACK_DIRECTIONS + d, 0), 0).x;
    float luma = dot(around.rgb, vec3(0.2126, 0.7152, 0.0722));
    vec3 tint = luma > 1e-4 ? min(around.rgb / luma, vec3(4.0)) : vec3(1.0);
    float strength = float(SW_FEEDBACK_TINT_PERCENT) / 100.0 * around.a;
    float keep = 1.0 - float(SW_FEEDBACK_SHADOW_PERCENT) / 100.0 * shadow;
    return color * keep * (1.0 - strength + strength * tint);
}

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
    // Only characters' pixels (stage surfaces are SW_CLASS_STAGE).
    if (cls == uint(SW_CLASS_LIT) && u_feedback_body.w > 0.0) out_color.rgb = sw_feedback(out_color.rgb, world, n);
}
