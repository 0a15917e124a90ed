// The lighting both paths share: the deferred lighting pass (lighting.frag)
// and the forward path of the transparent pass (gbuffer.frag with
// SW_GBUFFER_FLAG_BLEND). One directional light (the sun) with a 3×3 PCF
// shadow map, the punctual lights of sw_renderer_set_lights
// (KHR_lights_punctual: point and spot with glTF's range window and cone,
// directional), GGX specular and Lambert diffuse, hemisphere ambient. The
// C reference of the punctual lights is src/render/lights.c. Pasted after
// render_interface.h (and the material block) into lighting.frag and
// gbuffer.frag; the uniforms have the same locations in both programs.
layout(binding = SW_LIGHTING_UNIT_SHADOW) uniform sampler2DShadow t_shadow;

layout(location = SW_SHADE_LOC_CASCADE_COUNT) uniform int u_cascade_count;
layout(location = SW_SHADE_LOC_CASCADE_VIEW_PROJECTION) uniform mat4 u_cascade_view_projection[SW_SHADOW_MAX_CASCADES];
layout(location = SW_SHADE_LOC_CASCADE_RECT) uniform vec4 u_cascade_rect[SW_SHADOW_MAX_CASCADES];
layout(location = SW_SHADE_LOC_LIGHT_DIRECTION) uniform vec3 u_light_direction;  // towards the sun
layout(location = SW_SHADE_LOC_LIGHT_COLOR) uniform vec3 u_light_color;
layout(location = SW_SHADE_LOC_SKY_COLOR) uniform vec3 u_sky_color;
layout(location = SW_SHADE_LOC_GROUND_COLOR) uniform vec3 u_ground_color;
layout(location = SW_SHADE_LOC_EYE) uniform vec3 u_eye;
layout(location = SW_SHADE_LOC_SHADOW_TEXEL) uniform float u_shadow_texel;

// The punctual lights (std140), SW_LIGHT_VEC4S vec4 per light as
// src/render/lights.c writes them: position, type; direction (towards
// where the light points), range (0: none); colour × intensity, 0;
// spot angle scale, offset, 0, 0.
layout(std140, binding = SW_LIGHTS_BLOCK) uniform Lights {
    ivec4 u_light_count;
    vec4 u_lights[SW_LIGHT_MAX * SW_LIGHT_VEC4S];
};

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

// Punctual light k at world point p: the unit direction towards it and the
// light arriving (colour × intensity × distance and cone attenuation), as
// sw_render_light_incident (src/render/lights.c).
vec3 sw_punctual(int k, vec3 p, out vec3 l) {
    vec4 a = u_lights[k * SW_LIGHT_VEC4S], b = u_lights[k * SW_LIGHT_VEC4S + 1];
    vec4 c = u_lights[k * SW_LIGHT_VEC4S + 2], s = u_lights[k * SW_LIGHT_VEC4S + 3];
    int type = int(a.w);
    if (type == SW_LIGHT_TYPE_DIRECTIONAL) {
        l = -b.xyz;
        return c.rgb;
    }
    vec3 to_light = a.xyz - p;
    float d2 = max(dot(to_light, to_light), 1e-8);
    l = to_light * inversesqrt(d2);
    float attenuation = 1.0 / d2;
    if (b.w > 0.0) {
        float q = d2 / (b.w * b.w);
        attenuation *= clamp(1.0 - q * q, 0.0, 1.0);
    }
    if (type == SW_LIGHT_TYPE_SPOT) {
        float cone = clamp(dot(b.xyz, -l) * s.x + s.y, 0.0, 1.0);
        attenuation *= cone * cone;
    }
    return c.rgb * attenuation;
}

// The probes' specular (docs/probes.md, "Specular"; probes.c): the
// prefiltered cubes, cube 0 the global one, cube 1 + i probe i.
layout(binding = SW_SHADE_UNIT_PROBE_CUBES) uniform samplerCubeArray t_probe_cubes;

// sw__probe_box_project: from p inside the probe's box, the reflection ray
// r leaves through the nearest far plane; the cube is read towards that
// hit from the probe's position. Outside the box: r itself.
vec3 sw_probe_box_project(int base, vec3 p, vec3 r) {
    vec3 lo = u_probes[base + 1].xyz, hi = u_probes[base + 2].xyz;
    if (any(lessThan(p, lo)) || any(greaterThan(p, hi))) return r;
    float t = 1e30;
    for (int i = 0; i < 3; i++)
        if (r[i] != 0.0) t = min(t, ((r[i] > 0.0 ? hi[i] : lo[i]) - p[i]) / r[i]);
    if (t >= 1e30) t = 0.0;
    return p + t * r - u_probes[base].xyz;
}

// The specular ambient along the reflection ray r at perceptual roughness
// `roughness` (mip roughness·(mips − 1)): the probes of this fragment's
// cluster in order, each taking min(weight, 1 − acc) (sw__probe_budget),
// the global cube filling 1 − acc.
vec3 sw_probe_specular(vec3 p, vec3 r, float roughness) {
    float lod = roughness * float(u_probe_count.z - 1);
    float acc = 0.0;
    vec3 color = vec3(0.0);
    if (u_probe_count.x > 0) {
        uvec2 masks = u_probe_masks[sw_probe_cluster(p)];
        for (int k = sw_probe_next(masks); k >= 0 && acc < 1.0; k = sw_probe_next(masks)) {
            int base = k * SW_PROBE_VEC4S;
            float w = min(sw_probe_weight(p, base), 1.0 - acc);
            if (w > 0.0)
                color += w * textureLod(t_probe_cubes, vec4(sw_probe_box_project(base, p, r), float(k + 1)), lod).rgb;
            acc += w;
        }
    }
    if (acc < 1.0) color += (1.0 - acc) * textureLod(t_probe_cubes, vec4(r, 0.0), lod).rgb;
    return color;
}

// sw__probe_specular_fresnel: Schlick's with the grazing reflectance
// limited by roughness.
vec3 sw_probe_fresnel(vec3 f0, float roughness, float nv) {
    return f0 + (max(vec3(1.0 - roughness), f0) - f0) * pow(1.0 - clamp(nv, 0.0, 1.0), 5.0);
}

// The light leaving a metallic-roughness surface towards the eye: the sun
// (shadowed), the punctual lights (unshadowed), the ambient: the probes'
// (else the hemisphere's) irradiance, and with the probes' cubes their
// reflection.
vec3 sw_shade(vec3 world, vec3 n, vec3 albedo, float metallic, float roughness, float occlusion, vec2 ao) {
    vec3 v = normalize(u_eye - world);
    vec3 diffuse_color = albedo * (1.0 - metallic);
    vec3 f0 = mix(vec3(0.04), albedo, metallic);
    vec3 l = normalize(u_light_direction);
    float nl = max(dot(n, l), 0.0);
    float shadow = nl > 0.0 ? sw_shadow(world, n) : 0.0;
    vec3 direct = (diffuse_color / PI + sw_specular(n, v, l, f0, roughness)) * u_light_color * nl * shadow * ao.y;
    for (int k = 0; k < min(u_light_count.x, SW_LIGHT_MAX); k++) {
        vec3 lk;
        vec3 arriving = sw_punctual(k, world, lk);
        float nlk = max(dot(n, lk), 0.0);
        if (nlk > 0.0) direct += (diffuse_color / PI + sw_specular(n, v, lk, f0, roughness)) * arriving * nlk;
    }
    vec3 diffuse_ambient = sw_probe_ambient(world, n, mix(u_ground_color, u_sky_color, n.y * 0.5 + 0.5));
    vec3 ambient;
    if (u_probe_count.y != 0)  // the cubes: the reflection, box-projected, mip by roughness
        ambient = (diffuse_ambient * diffuse_color +
                   sw_probe_fresnel(f0, roughness, dot(n, v)) * sw_probe_specular(world, reflect(-v, n), roughness)) *
                  occlusion * ao.x;
    else  // none: the hemisphere's (or the probes' SH9) colour stands in for the reflection
        ambient = diffuse_ambient * (diffuse_color + f0 * 0.25) * occlusion * ao.x;
    return direct + ambient;
}

// The air between the surface and the eye, for forward-shaded surfaces
// (the transparent pass): the volumetric fog's integrated volume
// (fog_pass.c, docs/fog.md) read at the surface's depth, colour·T + S, as
// the fog's composite does for the opaque pixels (fog.frag).
layout(binding = SW_SHADE_UNIT_FOG) uniform sampler3D t_fog;
layout(location = SW_SHADE_LOC_FOG) uniform int u_fog;
layout(location = SW_SHADE_LOC_FOG_FORWARD) uniform vec3 u_fog_forward;
layout(location = SW_SHADE_LOC_FOG_VIEW_PROJECTION) uniform mat4 u_fog_view_projection;

// sw__fog_depth_slice (src/render/fog.c): the volume's slice coordinate of view depth z.
float sw_fog_depth_slice(float z) {
    if (!(z > 0.0)) return 0.0;
    if (z <= 5.0) return z * float(SW_FOG_LINEAR_SLICES) / 5.0;
    return min(float(SW_FOG_LINEAR_SLICES) + float(SW_FOG_SLICES - SW_FOG_LINEAR_SLICES) * log(z / 5.0) / log(100.0),
               float(SW_FOG_SLICES));
}

vec3 sw_air(vec3 color, vec3 world) {
    if (u_fog == 0) return color;
    vec4 clip = u_fog_view_projection * vec4(world, 1.0);
    vec2 uv = clip.xy / clip.w * 0.5 + 0.5;
    float e = sw_fog_depth_slice(dot(world - u_eye, u_fog_forward));
    vec4 v = e < 1.0 ? mix(vec4(0.0, 0.0, 0.0, 1.0), texture(t_fog, vec3(uv, 0.5 / float(SW_FOG_SLICES))), e)
                     : texture(t_fog, vec3(uv, (e - 0.5) / float(SW_FOG_SLICES)));
    return color * v.a + v.rgb;
}
