// Lighting pass: one directional light with a PCF shadow map, hemisphere
// ambient, the background gradient. Adds onto the HDR target, which holds
// the emission already. Units, locations and classes: src/render/render_interface.h.
in vec2 v_uv;
layout(location = SW_OUT_COLOR) out vec4 out_color;

layout(binding = SW_LIGHTING_UNIT_NORMAL) uniform sampler2D t_normal;
layout(binding = SW_LIGHTING_UNIT_ALBEDO) uniform sampler2D t_albedo;
layout(binding = SW_LIGHTING_UNIT_MATERIAL) uniform sampler2D t_material;
layout(binding = SW_LIGHTING_UNIT_CLASS) uniform usampler2D t_class;
layout(binding = SW_LIGHTING_UNIT_DEPTH) uniform sampler2D t_depth;
layout(binding = SW_LIGHTING_UNIT_SHADOW) uniform sampler2DShadow t_shadow;

layout(location = SW_LIGHTING_LOC_INVERSE_VIEW_PROJECTION) uniform mat4 u_inverse_view_projection;
layout(location = SW_LIGHTING_LOC_CASCADE_COUNT) uniform int u_cascade_count;
layout(location = SW_LIGHTING_LOC_CASCADE_VIEW_PROJECTION) uniform mat4 u_cascade_view_projection[SW_SHADOW_MAX_CASCADES];
layout(location = SW_LIGHTING_LOC_CASCADE_RECT) uniform vec4 u_cascade_rect[SW_SHADOW_MAX_CASCADES];
layout(location = SW_LIGHTING_LOC_LIGHT_DIRECTION) uniform vec3 u_light_direction;  // towards the light
layout(location = SW_LIGHTING_LOC_LIGHT_COLOR) uniform vec3 u_light_color;
layout(location = SW_LIGHTING_LOC_SKY_COLOR) uniform vec3 u_sky_color;
layout(location = SW_LIGHTING_LOC_GROUND_COLOR) uniform vec3 u_ground_color;
layout(location = SW_LIGHTING_LOC_EYE) uniform vec3 u_eye;
layout(location = SW_LIGHTING_LOC_BACKGROUND_TOP) uniform vec3 u_background_top;
layout(location = SW_LIGHTING_LOC_BACKGROUND_BOTTOM) uniform vec3 u_background_bottom;
layout(location = SW_LIGHTING_LOC_SHADOW_TEXEL) uniform float u_shadow_texel;

const float PI = 3.14159265358979;

// 3×3 percentage-closer filtering, each tap a hardware 2×2 compare, in
// the first cascade that holds the point (sw__shadow_pick_cascade,
// shadow_atlas.c): its cell's usable area of the atlas, the guard band
// around it catching the filter's reach.
float sw_shadow(vec3 world, vec3 n) {
    vec4 w = vec4(world + n * (2.0 * u_shadow_texel), 1.0);
    float bias = 0.0015;
    for (int c = 0; c < u_cascade_count; c++) {
        vec4 light_clip = u_cascade_view_projection[c] * w;
        vec3 p = light_clip.xyz / light_clip.w * 0.5 + 0.5;
        vec4 rect = u_cascade_rect[c];
        if (any(lessThan(p.xy, vec2(rect.w))) || any(greaterThan(p.xy, vec2(1.0 - rect.w))) || p.z < 0.0 || p.z > 1.0)
            continue;
        vec2 uv = rect.xy + p.xy * rect.z;
        float lit = 0.0;
        for (int y = -1; y <= 1; y++)
            for (int x = -1; x <= 1; x++)
                lit += texture(t_shadow, vec3(uv + vec2(x, y) * u_shadow_texel, p.z - bias));
        return lit / 9.0;
    }
    return 1.0;
}

// GGX distribution with Smith height-correlated visibility and Schlick Fresnel.
vec3 sw_specular(vec3 n, vec3 v, vec3 l, vec3 f0, float roughness) {
    vec3 h = normalize(v + l);
    float nl = max(dot(n, l), 0.0), nv = max(dot(n, v), 1e-4), nh = max(dot(n, h), 0.0), vh = max(dot(v, h), 0.0);
    float a = roughness * roughness, a2 = a * a;
    float d = a2 / (PI * pow(nh * nh * (a2 - 1.0) + 1.0, 2.0));
    float vis = 0.5 / (nl * sqrt(nv * nv * (1.0 - a2) + a2) + nv * sqrt(nl * nl * (1.0 - a2) + a2) + 1e-5);
    vec3 f = f0 + (1.0 - f0) * pow(1.0 - vh, 5.0);
    return d * vis * f;
}

void main() {
    ivec2 pixel = ivec2(gl_FragCoord.xy);
    uint cls = texelFetch(t_class, pixel, 0).r & uint(SW_CLASS_MASK);
    if (cls == uint(SW_CLASS_BACKGROUND)) {
        out_color = vec4(mix(u_background_bottom, u_background_top, smoothstep(0.0, 1.0, v_uv.y)), 1.0);
        return;
    }
    // Unlit and toon pixels: the emission target holds their colour already
    // (toon materials are lit in the G-buffer pass, toon.frag).
    if (cls == uint(SW_CLASS_UNLIT) || cls == uint(SW_CLASS_TOON)) {
        out_color = vec4(0.0);
        return;
    }
    float depth = texelFetch(t_depth, pixel, 0).r;
    vec4 world4 = u_inverse_view_projection * vec4(v_uv * 2.0 - 1.0, depth * 2.0 - 1.0, 1.0);
    vec3 world = world4.xyz / world4.w;
    vec3 n = normalize(texelFetch(t_normal, pixel, 0).xyz * 2.0 - 1.0);
    vec3 albedo = texelFetch(t_albedo, pixel, 0).rgb;
    vec4 material = texelFetch(t_material, pixel, 0);
    float metallic = material.r, roughness = material.g, occlusion = material.b;

    vec3 v = normalize(u_eye - world);
    vec3 l = normalize(u_light_direction);
    float shadow = sw_shadow(world, n);
    float nl = max(dot(n, l), 0.0);
    vec3 diffuse_color = albedo * (1.0 - metallic);
    vec3 f0 = mix(vec3(0.04), albedo, metallic);
    vec3 direct = (diffuse_color / PI + sw_specular(n, v, l, f0, roughness)) * u_light_color * nl * shadow;
    vec3 ambient = mix(u_ground_color, u_sky_color, n.y * 0.5 + 0.5) * (diffuse_color + f0 * 0.25) * occlusion;
    out_color = vec4(direct + ambient, 1.0);
}
