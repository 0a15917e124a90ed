// Deferred box decals (docs/decals.md): one full-screen triangle per
// decal, after the G-buffer's opaque draws and before the lighting. Each
// pixel's world position comes back from depth; inside the box, on a
// receiving class and facing the projection, it takes the decal's colour
// (albedo target) and, with a normal map, its normal (normal target),
// blended "over" by the fixed-function blend. The class, material and
// motion targets are not attached: they keep their values. The maths is
// src/render/decal_math.c's. Units, locations: src/render/render_interface.h.
in vec2 v_uv;
layout(location = SW_GBUFFER_NORMAL) out vec4 out_normal;
layout(location = SW_GBUFFER_ALBEDO) out vec4 out_albedo;

layout(binding = SW_DECAL_UNIT_DEPTH) uniform sampler2D t_depth;
layout(binding = SW_DECAL_UNIT_CLASS) uniform usampler2D t_class;
layout(binding = SW_DECAL_UNIT_BASE_COLOR) uniform sampler2D t_base_color;
layout(binding = SW_DECAL_UNIT_NORMAL) uniform sampler2D t_normal_map;

layout(location = SW_DECAL_LOC_INVERSE_VIEW_PROJECTION) uniform mat4 u_inverse_view_projection;
layout(location = SW_DECAL_LOC_WORLD_TO_BOX) uniform mat4 u_world_to_box;
layout(location = SW_DECAL_LOC_BOX_X) uniform vec3 u_box_x;
layout(location = SW_DECAL_LOC_BOX_UP) uniform vec3 u_box_up;
layout(location = SW_DECAL_LOC_BASE_COLOR) uniform vec4 u_base_color;
layout(location = SW_DECAL_LOC_WEIGHTS) uniform vec2 u_weights;  // opacity, normal strength
layout(location = SW_DECAL_LOC_RECEIVERS) uniform uint u_receivers;
layout(location = SW_DECAL_LOC_EYE) uniform vec3 u_eye;

vec3 sw_world_at(ivec2 pixel) {
    vec2 size = vec2(textureSize(t_depth, 0));
    float depth = texelFetch(t_depth, pixel, 0).r;
    vec4 w = u_inverse_view_projection * vec4((vec2(pixel) + 0.5) / size * 2.0 - 1.0, sw_depth_to_ndc_z(depth), 1.0);
    return w.xyz / w.w;
}

// The surface normal from depth (the normal target is written here, so
// it is not read): on each axis the neighbour nearer in depth, so edges
// take the normal of their own surface; turned towards the eye.
vec3 sw_depth_normal(ivec2 pixel, vec3 world) {
    ivec2 last = textureSize(t_depth, 0) - 1;
    vec3 xp = sw_world_at(min(pixel + ivec2(1, 0), last)) - world;
    vec3 xm = world - sw_world_at(max(pixel - ivec2(1, 0), ivec2(0)));
    vec3 yp = sw_world_at(min(pixel + ivec2(0, 1), last)) - world;
    vec3 ym = world - sw_world_at(max(pixel - ivec2(0, 1), ivec2(0)));
    vec3 dx = dot(xp, xp) < dot(xm, xm) ? xp : xm;
    vec3 dy = dot(yp, yp) < dot(ym, ym) ? yp : ym;
    vec3 n = normalize(cross(dx, dy));
    return dot(n, u_eye - world) < 0.0 ? -n : n;
}

void main() {
    ivec2 pixel = ivec2(gl_FragCoord.xy);
    uint cls = texelFetch(t_class, pixel, 0).r & uint(SW_CLASS_MASK);
    if (((u_receivers >> cls) & 1u) == 0u) discard;
    vec3 world = sw_world_at(pixel);
    vec3 local = (u_world_to_box * vec4(world, 1.0)).xyz;
    if (any(greaterThan(abs(local), vec3(0.5)))) discard;
    vec3 n = sw_depth_normal(pixel, world);
    float lo = float(SW_DECAL_FACING_MIN_PERCENT) / 100.0, hi = float(SW_DECAL_FACING_FULL_PERCENT) / 100.0;
    float facing = smoothstep(lo, hi, dot(n, u_box_up));
    if (facing <= 0.0) discard;
    vec2 uv = local.xz + 0.5;
    vec4 base = u_base_color * texture(t_base_color, uv);
    float coverage = base.a * facing;
    out_albedo = vec4(base.rgb, coverage * u_weights.x);
    // sw__decal_normal: T = box X made tangent, B = n × T (up the picture).
    vec3 t = normalize(u_box_x - n * dot(u_box_x, n));
    vec3 b = cross(n, t);
    vec3 m = texture(t_normal_map, uv).xyz * 2.0 - 1.0;
    vec3 decal_n = normalize(t * m.x + b * m.y + n * m.z);
    out_normal = vec4(decal_n * 0.5 + 0.5, coverage * u_weights.y);
}
