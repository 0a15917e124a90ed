// G-buffer pass: glTF metallic-roughness material inputs into the targets
// the anime-style frame analysis describes (normal, base colour, material parameters, class),
// plus motion and emission (emission goes straight to the HDR target; the
// lighting pass adds onto it). In the transparent pass (SW_GBUFFER_FLAG_BLEND)
// it shades forward instead: lit surfaces with lighting_common.glsl. Every location, unit, flag and class is a
// name from src/render/render_interface.h.
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

layout(location = SW_GBUFFER_NORMAL) out vec4 out_normal;      // RGB10A2: n × ½ + ½
layout(location = SW_GBUFFER_ALBEDO) out vec4 out_albedo;      // SRGB8_ALPHA8
layout(location = SW_GBUFFER_MATERIAL) out vec4 out_material;  // metallic, roughness, occlusion, specular on/off
layout(location = SW_GBUFFER_CLASS) out uint out_class;        // R8UI
layout(location = SW_GBUFFER_MOTION) out vec4 out_motion;      // RG16F, texture units (A: the blend weight)
layout(location = SW_GBUFFER_EMISSION) out vec4 out_emission;  // the HDR target

layout(binding = SW_MATERIAL_SLOT_BASE_COLOR) uniform sampler2D t_base_color;
layout(binding = SW_MATERIAL_SLOT_NORMAL) uniform sampler2D t_normal;
layout(binding = SW_MATERIAL_SLOT_METALLIC_ROUGHNESS) uniform sampler2D t_metallic_roughness;
layout(binding = SW_MATERIAL_SLOT_OCCLUSION) uniform sampler2D t_occlusion;
layout(binding = SW_MATERIAL_SLOT_EMISSIVE) uniform sampler2D t_emissive;

layout(location = SW_GBUFFER_LOC_FLAGS) uniform int u_flags;                 // SW_GBUFFER_FLAG_*
// Footprints (src/render/snow_trail.c): the trail field's origin (x, z),
// 1 / extent, 1 when bound; R = how deep the snow was pushed away (0..1).
layout(location = SW_GBUFFER_LOC_SNOW_TRAIL) uniform vec4 u_snow_trail;
layout(binding = SW_GBUFFER_UNIT_SNOW_TRAIL) uniform sampler2D t_snow_trail;
// The surface-height cache (src/render/snow_cache.c): the window's world
// x, z corner, fine texels per unit, 1 when drawn; lowest height, span;
// the fine image, a packed word per texel at its ring address.
layout(location = SW_GBUFFER_LOC_SNOW_HEIGHT_WINDOW) uniform vec4 u_snow_height_window;
layout(location = SW_GBUFFER_LOC_SNOW_HEIGHT_RANGE) uniform vec4 u_snow_height_range;
layout(binding = SW_GBUFFER_UNIT_SNOW_HEIGHT) uniform usampler2D t_snow_height;
// The material's values: the Material block (material_block.glsl).

bool sw_flag(int bit) { return (u_flags & bit) != 0; }

// The snow glint hash, sw__snow_glint (src/render/snow.c) in uint arithmetic.
float sw_snow_glint(ivec3 c) {
    uint h = uint(c.x) * 0x8da6b343u ^ uint(c.y) * 0xd8163841u ^ uint(c.z) * 0xcb1ab31fu;
    h ^= h >> 16u;
    h *= 0x7feb352du;
    h ^= h >> 15u;
    h *= 0x846ca68bu;
    h ^= h >> 16u;
    return float(h >> 8u) * (1.0 / 16777216.0);
}

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
    vec4 base = u_base_color * i.color * texture(t_base_color, sw_uv(SW_MATERIAL_SLOT_BASE_COLOR));
    bool blend = sw_flag(SW_GBUFFER_FLAG_BLEND);  // the transparent pass: alpha-blended, no cutout
    // MASK: the alpha test, but in the colour pass after the depth
    // pre-pass, where the depth test EQUAL keeps exactly the pixels it kept.
    bool tested = !blend && !sw_flag(SW_GBUFFER_FLAG_DEPTH_EQUAL);
    if (tested && u_alpha_cutoff >= 0.0 && base.a < u_alpha_cutoff) discard;
    if (sw_flag(SW_GBUFFER_FLAG_PREPASS)) return;  // depth only (no colour target written)

    // The surface normal: the mesh's, or the face's when it has none.
    vec3 n = sw_flag(SW_GBUFFER_FLAG_NORMALS) ? i.normal : cross(dFdx(i.world), dFdy(i.world));
    n = normalize(n);
    if (sw_flag(SW_GBUFFER_FLAG_DOUBLE_SIDED) && !gl_FrontFacing) n = -n;
    if (sw_flag(SW_GBUFFER_FLAG_TANGENTS) && sw_flag(SW_GBUFFER_FLAG_NORMAL_TEXTURE)) {
        vec3 t = normalize(i.tangent.xyz - n * dot(n, i.tangent.xyz));
        vec3 b = cross(n, t) * (i.tangent.w < 0.0 ? -1.0 : 1.0);
        vec3 m = texture(t_normal, sw_uv(SW_MATERIAL_SLOT_NORMAL)).xyz * 2.0 - 1.0;
        m.xy *= u_normal_scale;
        n = normalize(mat3(t, b, n) * m);
    }

    vec4 mr = texture(t_metallic_roughness, sw_uv(SW_MATERIAL_SLOT_METALLIC_ROUGHNESS));
    float metallic = clamp(u_metallic_roughness.x * mr.b, 0.0, 1.0);
    float roughness = clamp(u_metallic_roughness.y * mr.g, 0.04, 1.0);
    float occlusion = 1.0 + u_occlusion_strength * (texture(t_occlusion, sw_uv(SW_MATERIAL_SLOT_OCCLUSION)).r - 1.0);
    vec3 emission = u_emissive * texture(t_emissive, sw_uv(SW_MATERIAL_SLOT_EMISSIVE)).rgb;

    if (sw_flag(SW_GBUFFER_FLAG_VIEW_UV)) base = vec4(fract(i.uv0), 0.0, 1.0);
    if (sw_flag(SW_GBUFFER_FLAG_VIEW_WEIGHTS)) base = vec4(sw_heat(i.weight), 1.0);
    // Retention view: the attribute is the radius kept; the heat is the radius lost.
    if (sw_flag(SW_GBUFFER_FLAG_VIEW_RETENTION)) base = vec4(sw_heat(1.0 - i.weight), 1.0);

    // SW_materials_snow (src/render/snow.c, docs/snow.md): the cover layer
    // over the base, its amount from COLOR_0's alpha and the geometry
    // normal's slope; colour, normal and response all follow the coverage.
    uint history_bits = 0u;
    if (u_snow.w > 0.5 && !blend) {
        vec3 n_cover = normalize(sw_flag(SW_GBUFFER_FLAG_NORMALS) ? i.normal : cross(dFdx(i.world), dFdy(i.world)));
        float a = clamp(i.color.a, 0.0, 1.0);
        float threshold = 1.0 - a * (1.0 - u_snow.x);
        float up = n_cover.y;
        float cov = u_snow.y > 0.0 ? a * clamp((up - threshold) / u_snow.y, 0.0, 1.0) : (up >= threshold ? a : 0.0);
        // Footprints: the trail's depth removes cover and darkens
        // (sw__snow_trail_coverage, sw__snow_trail_shade).
        float track = 0.0;
        vec2 track_slope = vec2(0.0); // d one texel on along +x and +z, minus d
        if (u_snow_trail.w > 0.5) {
            // The trail is a ring (snow_trail.c): inside its window, read
            // at the world position with the texture repeating.
            vec2 tuv = (i.world.xz - u_snow_trail.xy) * u_snow_trail.z;
            if (all(greaterThanEqual(tuv, vec2(0.0))) && all(lessThanEqual(tuv, vec2(1.0)))) {
                vec2 uv = i.world.xz * u_snow_trail.z;
                const float step_uv = 1.0 / float(SW_SNOW_TRAIL_TEXELS);
                track = texture(t_snow_trail, uv).r;
                track_slope = vec2(texture(t_snow_trail, uv + vec2(step_uv, 0.0)).r,
                                   texture(t_snow_trail, uv + vec2(0.0, step_uv)).r) - track;
            }
            // Only on the walkable surface the height cache holds there (a
            // snow surface more than 10 cm under it, or over it, is not
            // where the feet were); no surface cached: the trail as is.
            if (u_snow_height_window.w > 0.5) {
                ivec2 texel = ivec2(floor(i.world.xz * u_snow_height_window.z));
                ivec2 corner = ivec2(floor(u_snow_height_window.xy * u_snow_height_window.z + 0.5));
                if (all(greaterThanEqual(texel - corner, ivec2(0))) && all(lessThan(texel - corner, ivec2(SW_SNOW_CACHE_FINE_SIZE)))) {
                    uint word = texelFetch(t_snow_height, texel & (SW_SNOW_CACHE_FINE_SIZE - 1), 0).r;
                    float ground = u_snow_height_range.x + float(min(word >> 16, 65532u)) / 65532.0 * u_snow_height_range.y;
                    if (word != 0u && abs(i.world.y - ground) > 0.1) track = 0.0, track_slope = vec2(0.0);
                }
            }
        }
        float shade = 1.0 - 0.5 * track * cov;  // only where there was snow
        float snow_before = cov;
        cov *= 1.0 - track;
        vec3 blended = mix(n, n_cover, cov);
        if (dot(blended, blended) > 1e-24) n = normalize(blended);
        // The track's slopes tilt the normal (sw__snow_trail_normal): a dent.
        float texel = 1.0 / (u_snow_trail.z * float(SW_SNOW_TRAIL_TEXELS));
        float k = float(SW_SNOW_TRACK_DEPTH_MM) / 1000.0 * snow_before / texel;
        n = normalize(n + vec3(k * track_slope.x, 0.0, k * track_slope.y));
        base.rgb = mix(base.rgb, u_snow_color.rgb, cov);
        roughness = mix(roughness, u_snow_color.a, cov);
        metallic = mix(metallic, 0.0, cov);
        base.rgb *= shade;
        // Sparkle (sw__snow_sparkle without the rim): two glint cells at
        // 40 and 23 per unit, their product to the 0.71, damped by the
        // cells' screen derivatives so that minified snow does not flicker.
        vec3 p = i.world * 40.0;
        float g1 = sw_snow_glint(ivec3(floor(p))), g2 = sw_snow_glint(ivec3(floor(p * 0.575 + 17.0)));
        float d = fwidth(p.x) + fwidth(p.z);
        float glint = pow(clamp(g1 * g2, 0.0, 1.0), 0.71);
        float sparkle = u_snow.z * cov * step(0.8, glint)  /* SW_SNOW_GLINT_CUT */ * glint / (1.0 + 3.0 * d);
        emission += u_snow_color.rgb * sparkle;
        if (sparkle > 0.0) history_bits = uint(SW_CLASS_HISTORY_SPARKLE);
    }

    out_normal = vec4(n * 0.5 + 0.5, 0.0);
    out_albedo = vec4(base.rgb, 1.0);
    out_material = vec4(metallic, roughness, occlusion, 1.0);
    out_class = u_class | history_bits;
    vec2 current = i.clip.xy / i.clip.w;
    vec2 previous = i.previous_clip.xy / i.previous_clip.w;
    out_motion.xy = sw_flag(SW_GBUFFER_FLAG_FIRST_FRAME) ? vec2(0.0) : (current - previous) * 0.5;
    out_motion.zw = vec2(0.0, blend ? step(float(SW_BLEND_MOTION_PERCENT) / 100.0, base.a) : 1.0);
    vec3 color = u_class == uint(SW_CLASS_UNLIT) ? base.rgb : emission;
    // The transparent pass lights a metallic-roughness surface here, with
    // the lighting pass's own code and lights (lighting_common.glsl).
    if (blend && u_class == uint(SW_CLASS_LIT))
        color = sw_air(emission + sw_shade(i.world, n, base.rgb, metallic, roughness, occlusion, vec2(1.0)), i.world);
    float alpha = blend ? base.a : 1.0;
    if (blend && u_transmission.x > 0.0) {
        // KHR_materials_transmission / _volume, as sw_render_transmit
        // (src/render/lights.c): of the light behind, t × base colour ×
        // Beer–Lambert over the thickness passes; the surface covers
        // a(1 − t). The filter draw scales what is behind so that the
        // over operator of the second draw, alpha a(1 − t), gives
        // a(1 − t)·S + ((1 − a) + a·t·T)·behind.
        float a = u_transmission.w > 0.5 ? 1.0 : base.a, t = u_transmission.x;
        vec3 through = base.rgb;
        if (u_transmission.z > 0.0)
            through *= pow(max(u_attenuation_color.rgb, vec3(1e-6)), vec3(u_transmission.y / u_transmission.z));
        alpha = a * (1.0 - t);
        if (sw_flag(SW_GBUFFER_FLAG_TRANSMIT_FILTER)) {
            out_emission = vec4(((1.0 - a) + a * t * through) / (1.0 - alpha), 1.0);
            out_motion.w = 0.0;  // the second draw writes the motion
            return;
        }
        out_motion.w = step(float(SW_BLEND_MOTION_PERCENT) / 100.0, alpha);
    }
    out_emission = vec4(color, alpha);
}
