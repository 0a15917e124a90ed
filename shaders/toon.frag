// Toon pass: the anime-style character materials of include/sinew/toon.h,
// lit here for the one directional light ("part-specific shading" in the
// material pass, as in the frame analysis of an anime-style game). Writes
// the G-buffer like gbuffer.frag and the final colour into the emission
// (HDR) target with class SW_CLASS_TOON, which the lighting pass leaves
// alone. Each rule follows its C twin in src/toon/toon.c (sw_toon_region,
// sw_toon_signed_square, sw_toon_shadow_area, sw_toon_ramp_row,
// sw_toon_face_*, sw_toon_dither, sw_toon_hair_band, sw_toon_hash42).
// Locations, units, flags and classes: src/render/render_interface.h.
in VertexOut {
    vec3 world;
    vec3 normal;
    vec4 tangent;  // the outline normal on toon draws (unused here)
    vec2 uv0;
    vec2 uv1;
    vec4 color;
    float weight;
    vec4 clip;
    vec4 previous_clip;
} i;

layout(location = SW_GBUFFER_NORMAL) out vec4 out_normal;
layout(location = SW_GBUFFER_ALBEDO) out vec4 out_albedo;
layout(location = SW_GBUFFER_MATERIAL) out vec4 out_material;
layout(location = SW_GBUFFER_CLASS) out uint out_class;
layout(location = SW_GBUFFER_MOTION) out vec4 out_motion;  // A: the blend weight
layout(location = SW_GBUFFER_EMISSION) out vec4 out_emission;

layout(binding = SW_MATERIAL_SLOT_BASE_COLOR) uniform sampler2D t_base_color;
layout(binding = SW_MATERIAL_SLOT_NORMAL) uniform sampler2D t_normal;  // RG normal XY, B glint mask
layout(binding = SW_MATERIAL_SLOT_EMISSIVE) uniform sampler2D t_emissive;
layout(binding = SW_TOON_UNIT_RAMP) uniform sampler2D t_ramp;          // 256 × 20, sRGB
layout(binding = SW_TOON_UNIT_CONTROL) uniform sampler2D t_control;    // G threshold, B detail gate, A region
layout(binding = SW_TOON_UNIT_DETAIL_NORMAL) uniform sampler2D t_detail;
layout(binding = SW_TOON_UNIT_FACE_SDF) uniform sampler2D t_face_sdf;
layout(binding = SW_TOON_UNIT_RIM_MASK) uniform sampler2D t_rim_mask;
layout(binding = SW_TOON_UNIT_SHADOW) uniform sampler2DShadow t_shadow;
layout(binding = SW_TOON_UNIT_MATCAP) uniform sampler2D t_matcap;
layout(binding = SW_TOON_UNIT_SHADE_MULTIPLY) uniform sampler2D t_shade_multiply;  // MToon, sRGB
layout(binding = SW_TOON_UNIT_SHADING_SHIFT) uniform sampler2D t_shading_shift;    // MToon, R
layout(binding = SW_TOON_UNIT_ANIMATION_MASK) uniform sampler2D t_animation_mask;  // MToon, B

layout(location = SW_GBUFFER_LOC_FLAGS) uniform int u_flags;
layout(location = SW_TOON_LOC_FLAGS) uniform int u_toon_flags;
layout(location = SW_TOON_LOC_LIGHT_DIRECTION) uniform vec3 u_light_direction;
layout(location = SW_TOON_LOC_LIGHT_COLOR) uniform vec3 u_light_color;
layout(location = SW_TOON_LOC_SKY_COLOR) uniform vec3 u_sky_color;
layout(location = SW_TOON_LOC_GROUND_COLOR) uniform vec3 u_ground_color;
layout(location = SW_TOON_LOC_EYE) uniform vec3 u_eye;
layout(location = SW_TOON_LOC_CASCADE_COUNT) uniform int u_cascade_count;
layout(location = SW_TOON_LOC_CASCADE_VIEW_PROJECTION) uniform mat4 u_cascade_view_projection[SW_SHADOW_MAX_CASCADES];
layout(location = SW_TOON_LOC_CASCADE_RECT) uniform vec4 u_cascade_rect[SW_SHADOW_MAX_CASCADES];
layout(location = SW_TOON_LOC_SHADOW_TEXEL) uniform float u_shadow_texel;
layout(location = SW_TOON_LOC_NIGHT_TIME) uniform vec2 u_night_time;
layout(location = SW_TOON_LOC_HEAD_RIGHT) uniform vec3 u_head_right;
layout(location = SW_TOON_LOC_HEAD_UP) uniform vec3 u_head_up;
layout(location = SW_TOON_LOC_HEAD_FORWARD) uniform vec3 u_head_forward;
layout(location = SW_TOON_LOC_AMBIENT) uniform float u_ambient;
layout(location = SW_TOON_LOC_TIME_STEP) uniform float u_time_step;
// The character's environment feedback (feedback.comp): the previous
// frame's 70×1 state and where she stands (height 0: off); sw_feedback is
// lighting.frag's, the same lines.
layout(binding = SW_TOON_UNIT_FEEDBACK) uniform sampler2D t_feedback;
layout(location = SW_TOON_LOC_FEEDBACK_BODY) uniform vec4 u_feedback_body;

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

// The material's values, toon ones included: the Material block
// (material_block.glsl).

const float PI = 3.14159265358979;

bool sw_flag(int bit) { return (u_flags & bit) != 0; }
bool sw_toon(int bit) { return (u_toon_flags & bit) != 0; }
float sw_sat(float x) { return clamp(x, 0.0, 1.0); }

// The TEXCOORD set `set`: back faces of double-sided cloth read set 1.
vec2 sw_raw_uv(int set, bool back) { return (set == 1 || (back && sw_toon(SW_TOON_FLAG_BACK_UV1))) ? i.uv1 : i.uv0; }

// The UV animation's mask here (the mask texture's B, read without the
// animation; 1 without one): set first thing in main.
float g_animation_mask = 1.0;
// Whether the UV animation moved the texture here since the previous frame.
bool g_texture_moves = false;
// The emission output's alpha: the base alpha in the transparent pass, else 1.
float g_alpha = 1.0;

// The MToon UV animation at time t: the rotation about (0.5, 0.5), then
// the scroll, each × the mask. The rotation turns UV counter-clockwise in
// u-right, v-down space: u' = u cos a + v sin a (the specification's
// matrix, and three-vrm).
vec2 sw_animate(vec2 uv, float t) {
    float m = t * g_animation_mask;
    if (u_uv_animation.z != 0.0) {
        float a = u_uv_animation.z * m, c = cos(a), s = sin(a);
        uv = mat2(c, -s, s, c) * (uv - 0.5) + 0.5;
    }
    return uv + u_uv_animation.xy * m;
}

// Set `set` animated: every texture read with the mesh's UV moves.
vec2 sw_set_uv(int set, bool back) { return sw_animate(sw_raw_uv(set, back), u_night_time.y); }

vec2 sw_slot_uv(int slot, bool back) { return (u_uv_transform[slot] * vec3(sw_set_uv(u_uv_set[slot], back), 1.0)).xy; }

// How far (pixels) the base colour texture's content moved on screen since
// the previous frame through the UV animation alone: the pixel x shows
// texel s(x, t); that texel was at x' with s(x', t − dt) = s(x, t), so
// x − x' = −J⁻¹ (s(x, t) − s(x, t − dt)), J = ∂s/∂x from the screen
// derivatives. TAA reprojects the history by it (docs/post.md). Zero
// without animation, on a first frame and where J is degenerate.
vec2 sw_texture_motion(bool back) {
    if (u_uv_animation == vec3(0.0) || u_time_step == 0.0) return vec2(0.0);
    mat3 transform = u_uv_transform[SW_MATERIAL_SLOT_BASE_COLOR];
    vec2 raw = sw_raw_uv(u_uv_set[SW_MATERIAL_SLOT_BASE_COLOR], back);
    vec2 now = (transform * vec3(sw_animate(raw, u_night_time.y), 1.0)).xy;
    vec2 before = (transform * vec3(sw_animate(raw, u_night_time.y - u_time_step), 1.0)).xy;
    // J with the mask held at this pixel's value: the mask's own gradient
    // (a sheared ring where it fades) would make J huge there and the
    // motion meaningless, growing with time.
    float a = u_uv_animation.z * u_night_time.y * g_animation_mask, c = cos(a), s = sin(a);
    mat2 j = mat2(transform) * mat2(c, -s, s, c) * mat2(dFdx(raw), dFdy(raw));
    float det = determinant(j);
    if (!(abs(det) > 1e-14)) return vec2(0.0);
    vec2 pixels = -(inverse(j) * (now - before));
    g_texture_moves = now != before;
    // A texture seen edge-on moves without bound: such a pixel keeps no history anyway.
    float limit = 0.25 * max(u_outline.z, u_outline.w), length_pixels = length(pixels);
    return length_pixels > limit ? pixels * (limit / length_pixels) : pixels;
}

float sw_linearstep(float a, float b, float x) { return b > a ? sw_sat((x - a) / (b - a)) : (x >= a ? 1.0 : 0.0); }

// sw_toon_region: group 1 unless an open gate's band holds a, in the order 2, 3, 4, 5.
int sw_region(float a) {
    int group = 1;
    if (sw_toon(SW_TOON_FLAG_REGION_2) && a >= 0.8) group = 2;
    if (sw_toon(SW_TOON_FLAG_REGION_3) && a >= 0.4 && a < 0.6) group = 3;
    if (sw_toon(SW_TOON_FLAG_REGION_4) && a >= 0.2 && a < 0.4) group = 4;
    if (sw_toon(SW_TOON_FLAG_REGION_5) && a >= 0.6 && a < 0.8) group = 5;
    return group;
}

float sw_signed_square(float g) {
    float x = g - 0.5;
    return 0.5 + 2.0 * x * abs(x);
}

// sw_toon_ramp_row, as the GL texture coordinate t = 1 − v (the ramp's
// bytes go up top row first).
float sw_ramp_t(int group, bool night) {
    float v = 1.0 - (float(group - 1) * 0.1 + 0.05);
    return 1.0 - (night ? v - 0.5 : v);
}

// sw_toon_shadow_area; force_dark puts the pixel at the dark end (c = 0).
bool sw_shadow_area(float hl, float g, float light_area, float width, bool force_dark, out float depth,
                    out float ramp_u) {
    float c = (hl + g) * 0.5;
    if (g < 0.05) c = 0.0;
    if (g > 0.95) c = 1.0;
    if (force_dark) c = 0.0;
    bool in_shadow = c < light_area;
    depth = light_area > 0.0 ? (light_area - c) / light_area : 0.0;
    float w = max(width, 1e-4);
    ramp_u = in_shadow ? 1.0 - min(depth / w, 1.0) : 1.0;
    return in_shadow;
}

// sw_toon_dither: the 4×4 table of the frame analysis / 17.
float sw_dither(ivec2 p) {
    const float table[16] = float[16](1.0, 13.0, 4.0, 16.0, 9.0, 5.0, 12.0, 8.0, 3.0, 15.0, 2.0, 14.0, 11.0, 7.0,
                                      10.0, 6.0);
    return table[(p.y & 3) * 4 + (p.x & 3)] / 17.0;
}

float sw_hair_band(float n_dot_h, vec4 band) {  // exponent, lower, upper, intensity
    float p = pow(sw_sat(n_dot_h), band.x);
    float t = band.z > band.y ? sw_sat((p - band.y) / (band.z - band.y)) : (p >= band.z ? 1.0 : 0.0);
    return band.w * t * t * (3.0 - 2.0 * t);
}

// sw_toon_hash42 ("hash without sine").
// Its numbers reach thousands before the last fract, so one rounding
// moves an output by ~0.002: `precise` and the dot product written out in
// the C function's order keep the compiler from fusing or reordering.
vec4 sw_hash42(vec2 c) {
    precise vec4 p = fract(vec4(c.x * 0.1031, c.y * 0.1030, c.x * 0.0973, c.y * 0.1099));
    precise float d = p.x * (p.w + 33.33) + p.y * (p.z + 33.33) + p.z * (p.x + 33.33) + p.w * (p.y + 33.33);
    p += d;
    precise vec4 q = (p.xxyz + p.yzzw) * p.zywx;
    return fract(q);
}

// 3×3 percentage-closer filtering in the first cascade that holds the
// point, as the lighting pass.
float sw_shadow(vec3 world, vec3 n) {
    vec4 w = vec4(world + n * (2.0 * u_shadow_texel), 1.0);
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
                lit += texture(t_shadow, vec3(uv + vec2(x, y) * u_shadow_texel, p.z - 0.0015));
        return lit / 9.0;
    }
    return 1.0;
}

// The cotangent frame of position p and texture coordinate uv around n
// (no vertex tangents), each axis scaled by the same factor.
mat3 sw_cotangent_frame(vec3 n, vec3 p, vec2 uv) {
    vec3 dp1 = dFdx(p), dp2 = dFdy(p);
    vec2 du1 = dFdx(uv), du2 = dFdy(uv);
    vec3 a = cross(dp2, n), b = cross(n, dp1);
    vec3 t = a * du1.x + b * du2.x, bt = a * du1.y + b * du2.y;
    float d = max(dot(t, t), dot(bt, bt));
    float s = d > 1e-30 ? inversesqrt(d) : 0.0;
    return mat3(t * s, bt * s, n);
}

// One glint set: per UV cell (the grid shifted by `shift` cells, hashed
// `seed` cells away) a random spot, the squared distance against s·r3,
// pulsing while the phase from time, rate and the camera term is below the
// active width; luma-lerped towards its colour.
vec3 sw_glint_set(vec2 uv, float grid, float shift, float seed, float spot_scale, float rate, float width, float camera,
                  vec3 colour, float intensity, float luma_lerp) {
    vec2 cell = uv * grid + shift;
    vec2 f = fract(cell);
    vec4 r = sw_hash42(floor(cell) + seed);
    vec2 d = f - r.xy;
    float spot = sw_sat(1.0 - dot(d, d) / max(spot_scale * r.z, 1e-6));
    float phase = fract(r.w + u_night_time.y * rate + camera);
    float pulse = phase < width ? sin(PI * phase / width) : 0.0;
    vec3 c = r.rgb * spot * pulse * colour * intensity;
    float luma = dot(c, vec3(0.2126, 0.7152, 0.0722));
    return mix(c, luma * colour, luma_lerp);
}

// The hair's tier set: grid, rate and colour by the normal map's A
// (render_interface.h's table); the rest from the hair's first set.
vec3 sw_hair_tiers(vec2 uv, float a) {
    const float unit = float(SW_TOON_TIER_UNIT);
    vec4 tier;  // grid, rate (per second), and a colour below
    vec3 colour;
    if (a >= float(SW_TOON_TIER1_CUT) / unit) {
        tier = vec4(float(SW_TOON_TIER1_GRID), float(SW_TOON_TIER1_RATE), 0.0, 0.0) / unit;
        colour = vec3(float(SW_TOON_TIER1_RED), float(SW_TOON_TIER1_GREEN), float(SW_TOON_TIER1_BLUE)) / unit;
    } else if (a >= float(SW_TOON_TIER2_CUT) / unit) {
        tier = vec4(float(SW_TOON_TIER2_GRID), float(SW_TOON_TIER2_RATE), 0.0, 0.0) / unit;
        colour = vec3(float(SW_TOON_TIER2_RED), float(SW_TOON_TIER2_GREEN), float(SW_TOON_TIER2_BLUE)) / unit;
    } else if (a >= float(SW_TOON_TIER3_CUT) / unit) {
        tier = vec4(float(SW_TOON_TIER3_GRID), float(SW_TOON_TIER3_RATE), 0.0, 0.0) / unit;
        colour = vec3(float(SW_TOON_TIER3_RED), float(SW_TOON_TIER3_GREEN), float(SW_TOON_TIER3_BLUE)) / unit;
    } else {
        return vec3(0.0);  // the lowest tier: intensity 0
    }
    vec4 g = u_glint[0], q = u_glint_params[0];
    return sw_glint_set(uv, tier.x, 0.0, 37.0, g.y, tier.y, g.w, length(u_eye.xz * q.z), colour, q.x, q.y);
}

// The material's glint sets (the first shifted half a cell, the second
// hashed 37 cells away), plus on hair the tier set where a normal map's
// A picks one (normal_a < 0: no normal map).
vec3 sw_glints(vec2 uv, float normal_a) {
    vec3 sum = vec3(0.0);
    for (int j = 0; j < 2; j++) {
        if (j >= u_glint_count) break;
        vec4 g = u_glint[j], q = u_glint_params[j];  // grid, spot, rate, width / intensity, luma lerp, camera scale
        sum += sw_glint_set(uv, g.x, j == 0 ? 0.5 : 0.0, 37.0 * float(j), g.y, g.z, g.w, length(u_eye.xz * q.z),
                            u_glint_color[j], q.x, q.y);
    }
    if (u_kind == SW_TOON_KIND_HAIR && normal_a >= 0.0) sum += sw_hair_tiers(uv, normal_a);
    return sum;
}

// Eyes: the iris bowl's depth below the surface at uv, h·(1 − (ρ/R)²),
// ρ the distance to the iris centre (the UV square's centre; the
// analysis lost it), zero outside the radius.
float sw_iris_depth(vec2 uv) {
    float rho = length(uv - vec2(0.5)) / max(u_iris.z, 1e-4);
    return u_iris.y * (1.0 - min(rho * rho, 1.0));
}

// The parallax iris: the view ray in the UV frame (t, b, n) marched into
// the bowl in 4 steps head-on up to 16 at grazing angles, the hit refined
// between the last two steps by their depth gaps. Returns the UV to read.
vec2 sw_iris_uv(vec2 uv, vec3 n, vec3 v, vec3 t, vec3 b) {
    vec3 tv = normalize(vec3(dot(v, t), dot(v, b), dot(v, n)));
    int steps = int(mix(16.0, 4.0, sw_sat(dot(n, v))));
    float dz = u_iris.y / float(steps);
    vec2 duv = -tv.xy / max(tv.z, 0.05) * dz;
    vec2 previous = uv;
    float previous_gap = sw_iris_depth(uv);  // bowl depth − ray depth: > 0 while above the bowl
    if (previous_gap <= 0.0) return uv;
    for (int k = 1; k <= 16; k++) {
        if (k > steps) break;
        vec2 current = uv + float(k) * duv;
        float gap = sw_iris_depth(current) - float(k) * dz;
        if (gap <= 0.0) return mix(previous, current, previous_gap / (previous_gap - gap));
        previous = current, previous_gap = gap;
    }
    return previous;
}

// The matcap's texture coordinate of world normal m, in a view frame made
// from the pixel's view direction and world up (the pass has no view
// matrix); the image's top is up.
vec2 sw_matcap_uv(vec3 m, vec3 v) {
    vec3 right = cross(vec3(0.0, 1.0, 0.0), v);
    right = dot(right, right) > 1e-8 ? normalize(right) : vec3(1.0, 0.0, 0.0);
    vec3 up = cross(v, right);
    return vec2(dot(m, right), dot(m, up)) * 0.5 + 0.5;
}

// The matcap texture's coordinate of sphere coordinate m (up = image top),
// through the matcap's texture transform.
vec2 sw_matcap_texture_uv(vec2 m) { return (u_uv_transform[SW_MATERIAL_UV_MATCAP] * vec3(m.x, 1.0 - m.y, 1.0)).xy; }

// The transparent pass's air (docs/fog.md): a blended draw passes its
// colour through the fog volume at its depth, colour·T + S, as
// gbuffer.frag's forward path does with sw_air (lighting_common.glsl,
// which this program does not include; the same uniforms, set by
// sw__fog_air_uniforms). Opaque draws are fogged by the composite.
layout(binding = SW_SHADE_UNIT_FOG) uniform sampler3D t_fog;
layout(location = SW_SHADE_LOC_FOG) uniform int u_fog;
layout(location = SW_SHADE_LOC_FOG_FORWARD) uniform vec3 u_fog_forward;
layout(location = SW_SHADE_LOC_FOG_VIEW_PROJECTION) uniform mat4 u_fog_view_projection;

// sw__fog_depth_slice (src/render/fog.c), as lighting_common.glsl's sw_fog_depth_slice.
float sw_toon_fog_depth_slice(float z) {
    if (!(z > 0.0)) return 0.0;
    if (z <= 5.0) return z * float(SW_FOG_LINEAR_SLICES) / 5.0;
    return min(float(SW_FOG_LINEAR_SLICES) + float(SW_FOG_SLICES - SW_FOG_LINEAR_SLICES) * log(z / 5.0) / log(100.0),
               float(SW_FOG_SLICES));
}

vec3 sw_toon_air(vec3 color) {
    if (u_fog == 0 || !sw_flag(SW_GBUFFER_FLAG_BLEND)) return color;
    vec4 clip = u_fog_view_projection * vec4(i.world, 1.0);
    vec2 uv = clip.xy / clip.w * 0.5 + 0.5;
    float e = sw_toon_fog_depth_slice(dot(i.world - u_eye, u_fog_forward));
    vec4 v = e < 1.0 ? mix(vec4(0.0, 0.0, 0.0, 1.0), texture(t_fog, vec3(uv, 0.5 / float(SW_FOG_SLICES))), e)
                     : texture(t_fog, vec3(uv, (e - 0.5) / float(SW_FOG_SLICES)));
    return color * v.a + v.rgb;
}

// MToon 1.0's lighting (docs/toon.md, "MToon lighting"; the specification's
// shading model, three-vrm's behaviour) for the one directional light and
// the hemisphere ambient; the outline hull's colour from it. Writes the
// normal, class and emission outputs.
void sw_mtoon(vec4 base, vec3 n, vec3 v, bool back, bool outline) {
    // The hull lights with the surface's outward normal; the surface with
    // the core normal map (tangent-space XYZ) in the cotangent frame.
    if (outline) {
        n = normalize(i.normal);
    } else if (sw_flag(SW_GBUFFER_FLAG_NORMAL_TEXTURE)) {
        vec2 uv = sw_slot_uv(SW_MATERIAL_UV_TOON_NORMAL, back);
        vec3 m = texture(t_normal, uv).xyz * 2.0 - 1.0;
        m.xy *= u_toon_normal_scale;
        n = normalize(sw_cotangent_frame(n, i.world, uv) * m);
    }
    vec3 l = normalize(u_light_direction);
    vec3 shade = u_shade_color.rgb;
    if (sw_toon(SW_TOON_FLAG_SHADE_MULTIPLY))
        shade *= texture(t_shade_multiply, sw_slot_uv(SW_MATERIAL_UV_SHADE_MULTIPLY, back)).rgb;
    float shift = u_mtoon.x;
    if (sw_toon(SW_TOON_FLAG_SHADING_SHIFT))
        shift += texture(t_shading_shift, sw_slot_uv(SW_MATERIAL_UV_SHADING_SHIFT, back)).r * u_shade_color.a;
    float toony = u_mtoon.y;
    float shading = sw_linearstep(-1.0 + toony, 1.0 - toony, clamp(dot(n, l), -1.0, 1.0) + shift);
    if (sw_toon(SW_TOON_FLAG_SHADOW)) shading *= sw_shadow(i.world, n);
    vec3 color = u_light_color * mix(shade, base.rgb, shading);
    // Global illumination: the probes' (else the hemisphere's) at n, evened
    // out towards their mean (what it is for every direction) by the GI
    // equalisation.
    vec3 gi_n = sw_probe_ambient(i.world, n, mix(u_ground_color, u_sky_color, n.y * 0.5 + 0.5));
    vec3 gi_mean = sw_probe_ambient_mean(i.world, 0.5 * (u_ground_color + u_sky_color));
    vec3 gi = mix(gi_n, gi_mean, u_gi_equalization) * u_ambient;
    color += gi * base.rgb;
    // Rim and matcap, × the light they sit in by the rim lighting mix.
    vec3 rim = u_rim_color * pow(sw_sat(1.0 - dot(n, v) + u_rim.z), max(u_rim.y, 1e-5));
    if (sw_toon(SW_TOON_FLAG_MATCAP)) rim += u_matcap_color.rgb * texture(t_matcap, sw_matcap_texture_uv(sw_matcap_uv(n, v))).rgb;
    if (sw_toon(SW_TOON_FLAG_RIM_MASK)) rim *= texture(t_rim_mask, sw_slot_uv(SW_MATERIAL_UV_RIM_MASK, back)).rgb;
    color += mix(vec3(1.0), u_light_color + gi, u_mtoon.z) * rim;
    color += u_emissive * texture(t_emissive, sw_slot_uv(SW_MATERIAL_SLOT_EMISSIVE, back)).rgb;
    if (outline) {
        color = u_outline_color * mix(vec3(1.0), color, u_mtoon.w);
        out_normal = vec4(n * 0.5 + 0.5, float(SW_NORMAL_TAG_OUTLINE) / 3.0);
    } else {
        out_normal = vec4(n * 0.5 + 0.5, 0.0);
        if (u_feedback_body.w > 0.0) color = sw_feedback(color, i.world, n);
    }
    out_class = uint(SW_CLASS_TOON) | (g_texture_moves ? uint(SW_CLASS_HISTORY_TEXTURE_MOTION) : 0u);
    out_emission = vec4(sw_toon_air(color), g_alpha);
}

void main() {
    bool back = !gl_FrontFacing;
    bool outline = sw_toon(SW_TOON_FLAG_OUTLINE);
    bool mtoon = sw_toon(SW_TOON_FLAG_MTOON);
    if (sw_toon(SW_TOON_FLAG_ANIMATION_MASK)) {
        int entry = SW_MATERIAL_UV_ANIMATION_MASK;
        vec2 uv = (u_uv_transform[entry] * vec3(sw_raw_uv(u_uv_set[entry], back && !outline), 1.0)).xy;
        g_animation_mask = texture(t_animation_mask, uv).b;
    }
    // Before any discard: the screen derivatives need the whole quad.
    vec2 texture_motion = sw_texture_motion(back && !outline);
    vec2 base_uv = sw_slot_uv(SW_MATERIAL_SLOT_BASE_COLOR, back && !outline);
    // Normal: the mesh's (flipped on back faces) or the face's.
    vec3 n = normalize(sw_flag(SW_GBUFFER_FLAG_NORMALS) ? i.normal : cross(dFdx(i.world), dFdy(i.world)));
    if (back) n = -n;
    vec3 v = normalize(u_eye - i.world);
    // Eyes read the base colour where the view ray meets the iris bowl.
    vec2 iris_uv = base_uv;
    vec3 eye_t = vec3(1.0, 0.0, 0.0), eye_b = vec3(0.0, 1.0, 0.0);
    if (u_kind == SW_TOON_KIND_EYE && !outline && !mtoon) {
        mat3 frame = sw_cotangent_frame(n, i.world, base_uv);
        if (dot(frame[0], frame[0]) > 1e-12) eye_t = normalize(frame[0]);
        if (dot(frame[1], frame[1]) > 1e-12) eye_b = normalize(frame[1]);
        iris_uv = sw_iris_uv(base_uv, n, v, eye_t, eye_b);
    }
    vec4 base = u_base_color * i.color * texture(t_base_color, iris_uv);
    // The transparent pass (alphaMode BLEND): no cutout, blended by the base alpha.
    bool blend = sw_flag(SW_GBUFFER_FLAG_BLEND);
    if (!blend && u_alpha_cutoff >= 0.0 && base.a < u_alpha_cutoff) discard;
    g_alpha = blend ? base.a : 1.0;
    // Fade: the 4×4 ordered dither keeps a pixel while fade reaches its cell's threshold.
    if (u_shadow_area.w < 1.0 && u_shadow_area.w < sw_dither(ivec2(gl_FragCoord.xy))) discard;

    vec2 current = i.clip.xy / i.clip.w, previous = i.previous_clip.xy / i.previous_clip.w;
    out_motion.xy = sw_flag(SW_GBUFFER_FLAG_FIRST_FRAME) ? vec2(0.0) : (current - previous) * 0.5 + texture_motion / u_outline.zw;
    out_motion.zw = vec2(0.0, blend ? step(float(SW_BLEND_MOTION_PERCENT) / 100.0, base.a) : 1.0);
    out_albedo = vec4(base.rgb, 1.0);
    out_material = vec4(0.0, 1.0, 1.0, 1.0);
    if (mtoon) {
        sw_mtoon(base, n, v, back, outline);
        return;
    }
    if (outline) {
        // The hull's back faces: the outline colour times the part's base colour.
        vec3 n = normalize(i.normal);
        out_normal = vec4(n * 0.5 + 0.5, float(SW_NORMAL_TAG_OUTLINE) / 3.0);
        out_class = uint(SW_CLASS_TOON) | (g_texture_moves ? uint(SW_CLASS_HISTORY_TEXTURE_MOTION) : 0u);
        out_emission = vec4(sw_toon_air(u_outline_color * base.rgb), g_alpha);
        return;
    }

    float glint_mask = 1.0, normal_a = -1.0;
    if (sw_flag(SW_GBUFFER_FLAG_NORMAL_TEXTURE)) {
        // RG is the normal's XY (B is the glint mask, not Z), in the cotangent frame.
        vec2 uv = sw_slot_uv(SW_MATERIAL_UV_TOON_NORMAL, back);
        vec4 texel = texture(t_normal, uv);
        vec2 d = (texel.rg * 2.0 - 1.0) * u_toon_normal_scale;
        vec3 m = vec3(d, sqrt(sw_sat(1.0 - dot(d, d))));
        n = normalize(sw_cotangent_frame(n, i.world, uv) * m);
        glint_mask = texel.b, normal_a = texel.a;
    }
    vec4 control = sw_toon(SW_TOON_FLAG_CONTROL) ? texture(t_control, sw_set_uv(u_toon_uv_sets.x, back))
                                                  : vec4(0.0, 0.5, 0.0, 0.0);
    if (sw_toon(SW_TOON_FLAG_DETAIL) && control.b <= u_shadow_area.z) {
        vec2 uv = sw_set_uv(u_toon_uv_sets.y, back);
        vec4 texel = texture(t_detail, uv);
        vec2 d = texel.rg * 2.0 - 1.0;
        vec3 detail = sw_cotangent_frame(n, i.world, uv) * vec3(d, sqrt(sw_sat(1.0 - dot(d, d))));
        n = normalize(n + detail * texel.a);
    }

    vec3 l = normalize(u_light_direction);
    bool night = u_night_time.x > 0.5;
    int group = sw_region(control.a);
    float ramp_t = sw_ramp_t(group, night);
    vec3 shade;
    bool in_shadow;
    if (u_kind == SW_TOON_KIND_FACE && sw_toon(SW_TOON_FLAG_FACE_SDF)) {
        // The light in the head's frame; the SDF texel against the threshold
        // of its horizontal direction (no N·L, no shadow map on the face).
        vec3 lh = vec3(dot(l, u_head_right), dot(l, u_head_up), dot(l, u_head_forward));
        float len = max(length(lh.xz), 1e-4);
        float h = clamp(0.5 - 0.5 * lh.z / len + u_face.y, 0.03, 0.97);
        vec2 uv = sw_set_uv(u_toon_uv_sets.z, back);
        if (sw_toon(SW_TOON_FLAG_SDF_MIRROR) && lh.x < 0.0) uv.x = 1.0 - uv.x;
        vec4 sdf = texture(t_face_sdf, uv);
        float t = sdf.a > 0.0 ? 0.5 + 0.5 * sdf.a : 0.5 * sdf.r;
        float lit = 1.0 / (1.0 + exp(-u_face.x * (t - h)));
        shade = mix(texture(t_ramp, vec2(0.0, ramp_t)).rgb, vec3(1.0), lit);
        in_shadow = lit < 0.5;
    } else {
        float g = sw_signed_square(control.g);
        if (sw_toon(SW_TOON_FLAG_VERTEX_THRESHOLD)) g *= i.color.r;
        float width = u_shadow_area.y;
        if (sw_toon(SW_TOON_FLAG_VERTEX_WIDTH)) width *= max(0.01, 2.0 * i.color.g);
        float hl = 0.5 * dot(n, l) + 0.5;
        // A cast shadow moves the pixel to the dark side through the same
        // rule: half-Lambert at most that of the terminator (N·L = 0), so
        // surfaces already turned away keep their gradient and the edge of
        // a self-shadow meets the terminator without a step.
        if (sw_toon(SW_TOON_FLAG_SHADOW)) hl = min(hl, mix(0.5, 1.0, sw_shadow(i.world, n)));
        float depth, ramp_u;
        in_shadow = sw_shadow_area(hl, g, u_shadow_area.x, width, back && sw_toon(SW_TOON_FLAG_BACK_DARK), depth,
                                   ramp_u);
        shade = in_shadow ? texture(t_ramp, vec2(ramp_u, ramp_t)).rgb : vec3(1.0);
    }

    vec3 ambient = sw_probe_ambient(i.world, n, mix(u_ground_color, u_sky_color, n.y * 0.5 + 0.5)) * u_ambient;
    vec3 color = base.rgb * (shade * u_light_color + ambient);

    // Hair: two specular bands around H' (the view lifted by view_lift), lit side only.
    if (u_kind == SW_TOON_KIND_HAIR && !in_shadow) {
        vec3 h = normalize(normalize(v + vec3(0.0, u_view_lift, 0.0)) + l);
        float nh = dot(n, h);
        color += (u_hair_band_color[0] * sw_hair_band(nh, u_hair_band[0]) +
                  u_hair_band_color[1] * sw_hair_band(nh, u_hair_band[1])) * u_light_color;
    }

    // Rim: the outer rim_width of the N·V range, lifted, to the power.
    float rim_width = max(u_rim.x, 1e-3);
    float rim = pow(sw_sat((1.0 - sw_sat(dot(n, v)) + u_rim.z - (1.0 - rim_width)) / rim_width), max(u_rim.y, 1e-3));
    if (sw_toon(SW_TOON_FLAG_RIM_MASK)) rim *= texture(t_rim_mask, sw_slot_uv(SW_MATERIAL_UV_RIM_MASK, back)).r;
    color += u_rim_color * rim;

    // Matcap, added unlit: the normal, on eyes mixed with the eyeball's
    // sphere normal (from the UV offset to the iris centre); an eye without
    // a matcap texture gets a generated soft white highlight (upper left).
    bool matcap = sw_toon(SW_TOON_FLAG_MATCAP);
    if (matcap || u_kind == SW_TOON_KIND_EYE) {
        vec3 m = n;
        if (u_kind == SW_TOON_KIND_EYE) {
            vec2 q = (base_uv - 0.5) / max(u_iris.z, 1e-4);
            if (dot(q, q) > 1.0) q = normalize(q);
            vec3 sphere = normalize(eye_t * q.x + eye_b * q.y + n * sqrt(sw_sat(1.0 - dot(q, q))));
            m = normalize(mix(n, sphere, u_iris.x));
        }
        vec2 muv = sw_matcap_uv(m, v), d = muv - vec2(0.42, 0.58);
        color += matcap ? texture(t_matcap, sw_matcap_texture_uv(muv)).rgb : vec3(0.6 * exp(-dot(d, d) / 0.0072));
    }

    // Glints (× the normal map's B).
    vec3 glint = u_glint_count > 0 ? sw_glints(base_uv, normal_a) * glint_mask : vec3(0.0);
    color += glint + u_emissive * texture(t_emissive, sw_slot_uv(SW_MATERIAL_SLOT_EMISSIVE, back)).rgb;
    if (u_feedback_body.w > 0.0) color = sw_feedback(color, i.world, n);

    out_normal = vec4(n * 0.5 + 0.5, 0.0);
    bool sparkle = max(glint.r, max(glint.g, glint.b)) > 0.02;
    out_class = uint(SW_CLASS_TOON) | (sparkle ? uint(SW_CLASS_HISTORY_SPARKLE)
                                               : g_texture_moves ? uint(SW_CLASS_HISTORY_TEXTURE_MOTION) : 0u);
    out_emission = vec4(sw_toon_air(color), g_alpha);
}
