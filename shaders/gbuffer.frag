// G-buffer pass: glTF metallic-roughness material inputs into the targets
// seed 002 describes (normal, base colour, material parameters, class),
// plus motion and emission (emission goes straight to the HDR target; the
// lighting pass adds onto it).
in VertexOut {
    vec3 world;
    vec3 normal;
    vec4 tangent;
    vec2 uv0;
    vec2 uv1;
    vec4 color;
    float weight;
    vec4 clip;
    vec4 previous_clip;
} i;

layout(location = 0) out vec4 out_normal;    // RGB10A2: n × ½ + ½
layout(location = 1) out vec4 out_albedo;    // SRGB8_ALPHA8
layout(location = 2) out vec4 out_material;  // metallic, roughness, occlusion, specular on/off
layout(location = 3) out uint out_class;     // R8UI
layout(location = 4) out vec2 out_motion;    // RG16F, texture units
layout(location = 5) out vec4 out_emission;  // the HDR target

// Texture slots: 0 base colour, 1 normal, 2 metallic-roughness, 3 occlusion, 4 emissive.
layout(binding = 0) uniform sampler2D t_base_color;
layout(binding = 1) uniform sampler2D t_normal;
layout(binding = 2) uniform sampler2D t_metallic_roughness;
layout(binding = 3) uniform sampler2D t_occlusion;
layout(binding = 4) uniform sampler2D t_emissive;

layout(location = 10) uniform vec4 u_base_color;
layout(location = 11) uniform vec3 u_emissive;
layout(location = 12) uniform vec2 u_metallic_roughness;
layout(location = 13) uniform float u_occlusion_strength;
layout(location = 14) uniform float u_normal_scale;
layout(location = 15) uniform float u_alpha_cutoff;      // < 0: opaque
layout(location = 16) uniform uint u_class;
// Bits: 1 the mesh has normals, 2 tangents, 4 a normal texture, 8 double-sided,
// 16 debug UV view, 32 debug weight view, 64 first frame (no motion).
layout(location = 17) uniform int u_flags;
// Per slot: KHR_texture_transform as a 3×3 (column-major 2D affine) and
// the TEXCOORD set.
layout(location = 20) uniform mat3 u_uv_transform[5];
layout(location = 25) uniform int u_uv_set[5];

vec2 sw_uv(int slot) {
    vec2 uv = u_uv_set[slot] == 1 ? i.uv1 : i.uv0;
    return (u_uv_transform[slot] * vec3(uv, 1.0)).xy;
}

// Blue (0) → cyan → green → yellow → red (1): the hue runs from 240° to 0°.
vec3 sw_heat(float w) {
    float hue = (1.0 - clamp(w, 0.0, 1.0)) * (2.0 / 3.0);
    return clamp(abs(fract(hue + vec3(0.0, 2.0 / 3.0, 1.0 / 3.0)) * 6.0 - 3.0) - 1.0, 0.0, 1.0);
}

void main() {
    vec4 base = u_base_color * i.color * texture(t_base_color, sw_uv(0));
    if (u_alpha_cutoff >= 0.0 && base.a < u_alpha_cutoff) discard;

    // The surface normal: the mesh's, or the face's when it has none.
    vec3 n = (u_flags & 1) != 0 ? i.normal : cross(dFdx(i.world), dFdy(i.world));
    n = normalize(n);
    if ((u_flags & 8) != 0 && !gl_FrontFacing) n = -n;
    if ((u_flags & 6) == 6) {
        vec3 t = normalize(i.tangent.xyz - n * dot(n, i.tangent.xyz));
        vec3 b = cross(n, t) * (i.tangent.w < 0.0 ? -1.0 : 1.0);
        vec3 m = texture(t_normal, sw_uv(1)).xyz * 2.0 - 1.0;
        m.xy *= u_normal_scale;
        n = normalize(mat3(t, b, n) * m);
    }

    vec4 mr = texture(t_metallic_roughness, sw_uv(2));
    float metallic = clamp(u_metallic_roughness.x * mr.b, 0.0, 1.0);
    float roughness = clamp(u_metallic_roughness.y * mr.g, 0.04, 1.0);
    float occlusion = 1.0 + u_occlusion_strength * (texture(t_occlusion, sw_uv(3)).r - 1.0);
    vec3 emission = u_emissive * texture(t_emissive, sw_uv(4)).rgb;

    if ((u_flags & 16) != 0) base = vec4(fract(i.uv0), 0.0, 1.0);
    if ((u_flags & 32) != 0) base = vec4(sw_heat(i.weight), 1.0);

    out_normal = vec4(n * 0.5 + 0.5, 0.0);
    out_albedo = vec4(base.rgb, 1.0);
    out_material = vec4(metallic, roughness, occlusion, 1.0);
    out_class = u_class;
    vec2 current = i.clip.xy / i.clip.w;
    vec2 previous = i.previous_clip.xy / i.previous_clip.w;
    out_motion = (u_flags & 64) != 0 ? vec2(0.0) : (current - previous) * 0.5;
    out_emission = vec4(u_class == 3u ? base.rgb : emission, 1.0);
}
