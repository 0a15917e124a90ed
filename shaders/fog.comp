// The volumetric fog's volume (docs/fog.md; frame analysis §2.13): one
// invocation per froxel column, in three stages (u_stage): the sources
// (the medium and its light in each slice, blended with the history), the
// 27-neighbour repair where the history was invalid, and the near→far
// integration in the energy-conserving form. Mirrors
// src/render/fog.c (sw__fog_slice_depth, sw__fog_extinction, sw__fog_fade,
// sw__fog_integrate_column; tests/render/test_fog.c). The sun's shadow
// comes from the cascades of lighting_common.glsl (pasted before this
// stage, with u_eye, the camera's position): the medium scatters the light
// × (ambient share + (1 − ambient share) × the sun's visibility), so the
// shadows of the stage and the character cut shafts into the fog.
layout(local_size_x = SW_FOG_GROUP, local_size_y = SW_FOG_GROUP) in;
layout(binding = SW_FOG_IMAGE_VOLUME, rgba16f) writeonly uniform image3D u_volume;
layout(binding = SW_FOG_IMAGE_RAW, rgba16f) uniform image3D u_raw;
layout(binding = SW_FOG_IMAGE_INVALID, r8) uniform image3D u_invalid;
layout(binding = SW_FOG_IMAGE_SOURCE, rgba16f) uniform image3D u_source;
layout(binding = SW_FOG_UNIT_HISTORY) uniform sampler3D t_history;

layout(location = SW_FOG_LOC_INVERSE_VIEW_PROJECTION) uniform mat4 u_inverse_view_projection;
layout(location = SW_FOG_LOC_FORWARD) uniform vec3 u_forward;
layout(location = SW_FOG_LOC_MEDIUM) uniform vec4 u_medium; // density, height density, base, falloff
layout(location = SW_FOG_LOC_LIGHT) uniform vec3 u_light;
layout(location = SW_FOG_LOC_PREVIOUS_VIEW_PROJECTION) uniform mat4 u_previous_view_projection;
layout(location = SW_FOG_LOC_PREVIOUS_EYE) uniform vec3 u_previous_eye;
layout(location = SW_FOG_LOC_PREVIOUS_FORWARD) uniform vec3 u_previous_forward;
layout(location = SW_FOG_LOC_HISTORY) uniform int u_history;
layout(location = SW_FOG_LOC_JITTER) uniform float u_jitter;
layout(location = SW_FOG_LOC_STAGE) uniform int u_stage;

const float LINEAR_DEPTH = 5.0, FAR_DEPTH = 500.0, FADE_START = 450.0;

float fog_slice_depth(float i) {
    if (i <= float(SW_FOG_LINEAR_SLICES)) return LINEAR_DEPTH / float(SW_FOG_LINEAR_SLICES) * max(i, 0.0);
    float t = (i - float(SW_FOG_LINEAR_SLICES)) / float(SW_FOG_SLICES - SW_FOG_LINEAR_SLICES);
    return LINEAR_DEPTH * pow(FAR_DEPTH / LINEAR_DEPTH, t);
}

float fog_extinction(float y) {
    return u_medium.x + u_medium.y * exp(-max(y - u_medium.z, 0.0) / max(u_medium.w, 1e-6));
}

float fog_fade(float d) { return clamp((FAR_DEPTH - d) / (FAR_DEPTH - FADE_START), 0.0, 1.0); }

// The sun's visibility at a point of the medium: one hardware 2×2 compare
// in the first cascade that holds it (sw_shadow without the 3×3 filter:
// the volume's cells are coarser than the shadow map's texels).
float fog_sun_visibility(vec3 world) {
    for (int c = 0; c < u_cascade_count; c++) {
        vec4 light_clip = u_cascade_view_projection[c] * vec4(world, 1.0);
        vec3 p = light_clip.xyz / light_clip.w * 0.5 + 0.5;
        vec4 rect = u_cascade_rect[c];
        if (any(lessThan(p.xy, vec2(rect.w))) || any(greaterThan(p.xy, vec2(1.0 - rect.w))) || p.z < 0.0 || p.z > 1.0)
            continue;
        return texture(t_shadow, vec3(rect.xy + p.xy * rect.z, p.z - 0.0015));
    }
    return 1.0;
}

// sw__fog_reproject (fog.c): where a world point was in the previous
// frame's source volume; false outside it.
bool fog_reproject(vec3 world, out vec3 uvw) {
    vec4 clip = u_previous_view_projection * vec4(world, 1.0);
    float depth = dot(world - u_previous_eye, u_previous_forward);
    if (!(clip.w > 0.0) || !(depth > 0.0)) return false;
    float s;
    if (depth <= LINEAR_DEPTH) s = depth * float(SW_FOG_LINEAR_SLICES) / LINEAR_DEPTH;
    else s = min(float(SW_FOG_LINEAR_SLICES) + float(SW_FOG_SLICES - SW_FOG_LINEAR_SLICES) * log(depth / LINEAR_DEPTH) /
                                              log(FAR_DEPTH / LINEAR_DEPTH), float(SW_FOG_SLICES));
    uvw = vec3(clip.xy / clip.w * 0.5 + 0.5, s / float(SW_FOG_SLICES));
    return all(greaterThanEqual(uvw, vec3(0.0))) && all(lessThanEqual(uvw, vec3(1.0))) && depth <= FAR_DEPTH;
}

// Stage SOURCE: the medium and its light at a point of each slice of the
// column (its midpoint without history; jittered per frame with it),
// blended with the same world point's source of the previous frame.
void fog_sources(ivec2 cell, vec3 ray, float ray_scale) {
    for (int i = 0; i < SW_FOG_SLICES; i++) {
        vec3 world = u_eye + ray * (fog_slice_depth(float(i) + u_jitter) * ray_scale);
        float sigma = fog_extinction(world.y);
        const float ambient = float(SW_FOG_AMBIENT_PERCENT) / 100.0;
        float lit = ambient + (1.0 - ambient) * fog_sun_visibility(world);
        vec4 source = vec4(sigma * u_light * lit, sigma);
        vec3 uvw;
        bool valid = u_history == 0 || fog_reproject(world, uvw);
        if (u_history != 0 && valid)
            source = mix(source, texture(t_history, uvw), float(SW_FOG_HISTORY_PERCENT) / 100.0);
        imageStore(u_raw, ivec3(cell, i), source);
        imageStore(u_invalid, ivec3(cell, i), vec4(valid ? 0.0 : 1.0));
    }
}

// Stage REPAIR: sw__fog_repair_27 (fog.c) where the history was invalid,
// gathered from the raw volume into the source volume (no read after write).
void fog_repair(ivec2 cell) {
    const ivec3 last = ivec3(SW_FOG_WIDTH - 1, SW_FOG_HEIGHT - 1, SW_FOG_SLICES - 1);
    for (int i = 0; i < SW_FOG_SLICES; i++) {
        ivec3 at = ivec3(cell, i);
        vec4 value = imageLoad(u_raw, at);
        if (imageLoad(u_invalid, at).r > 0.5) {
            value = vec4(0.0);
            for (int dz = -1; dz <= 1; dz++)
                for (int dy = -1; dy <= 1; dy++)
                    for (int dx = -1; dx <= 1; dx++)
                        value += imageLoad(u_raw, clamp(at + ivec3(dx, dy, dz), ivec3(0), last));
            value /= 27.0;
        }
        imageStore(u_source, at, value);
    }
}

// Stage INTEGRATE: sw__fog_integrate_column (fog.c), near -> far.
void fog_integrate(ivec2 cell, float ray_scale) {
    vec3 s = vec3(0.0);
    float transmittance = 1.0, z_near = 0.0;
    for (int i = 0; i < SW_FOG_SLICES; i++) {
        float z_far = fog_slice_depth(float(i + 1));
        float d_mid = 0.5 * (z_near + z_far) * ray_scale;
        float len = fog_fade(d_mid) * (z_far - z_near) * ray_scale;
        vec4 source = imageLoad(u_source, ivec3(cell, i));
        float sigma = source.a;
        float tau = exp(-sigma * len);
        float through = sigma * len > 1e-4 ? (1.0 - tau) / sigma : len * (1.0 - 0.5 * sigma * len);
        s += transmittance * source.rgb * through;
        transmittance *= tau;
        imageStore(u_volume, ivec3(cell, i), vec4(s, transmittance));
        z_near = z_far;
    }
}

void main() {
    ivec2 cell = ivec2(gl_GlobalInvocationID.xy);
    if (cell.x >= SW_FOG_WIDTH || cell.y >= SW_FOG_HEIGHT) return;
    // The column's ray through its centre, from a point on the near plane.
    vec2 ndc = (vec2(cell) + 0.5) / vec2(SW_FOG_WIDTH, SW_FOG_HEIGHT) * 2.0 - 1.0;
    vec4 p = u_inverse_view_projection * vec4(ndc, sw_depth_to_ndc_z(1.0 - sw_depth_far()), 1.0);
    vec3 ray = normalize(p.xyz / p.w - u_eye);
    float ray_scale = 1.0 / max(dot(ray, u_forward), 1e-4); // ray length per unit of depth
    if (u_stage == SW_FOG_STAGE_SOURCE) fog_sources(cell, ray, ray_scale);
    else if (u_stage == SW_FOG_STAGE_REPAIR) fog_repair(cell);
    else fog_integrate(cell, ray_scale);
}
