// G-buffer pass: draws the skinned buffers (already in world space, written
// by skin.comp) and the ground. Previous positions and the previous camera
// give each vertex its motion. Locations: src/render/render_interface.h.
layout(location = SW_ATTR_POSITION) in vec3 a_position;
layout(location = SW_ATTR_PREVIOUS_POSITION) in vec3 a_previous_position;
layout(location = SW_ATTR_NORMAL) in vec3 a_normal;
layout(location = SW_ATTR_TANGENT) in vec4 a_tangent;
layout(location = SW_ATTR_UV0) in vec2 a_uv0;
layout(location = SW_ATTR_UV1) in vec2 a_uv1;
layout(location = SW_ATTR_COLOR) in vec4 a_color;
layout(location = SW_ATTR_WEIGHT) in float a_weight;

layout(location = SW_GBUFFER_LOC_VIEW_PROJECTION) uniform mat4 u_view_projection;
layout(location = SW_GBUFFER_LOC_PREVIOUS_VIEW_PROJECTION) uniform mat4 u_previous_view_projection;
// Toon draws (0 in the G-buffer program): the outline hull and the face's
// vertex folding. On toon draws a_tangent.xyz is the skinned outline normal.
// The hull's width and the fold mask are the material's (u_outline,
// u_fold_mask, u_fold_uv_set: the Material block, material_block.glsl).
layout(location = SW_GBUFFER_LOC_VERTEX_FLAGS) uniform int u_vertex_flags;  // SW_VERTEX_FLAG_*
layout(location = SW_GBUFFER_LOC_FOLD_POINT) uniform vec3 u_fold_point;
// MToon's outline width multiply texture (G), on the mesh's UV.
layout(binding = SW_TOON_UNIT_OUTLINE_WIDTH) uniform sampler2D t_outline_width;
// Crowds: instance gl_InstanceID's vertex from the crowd's skinned buffers
// (vertex v of instance i at i × u_crowd_vertices + v), not the attributes.
layout(location = SW_GBUFFER_LOC_CROWD_VERTICES) uniform int u_crowd_vertices;  // 0 = not a crowd draw
layout(location = SW_GBUFFER_LOC_CROWD_FRAMES) uniform ivec2 u_crowd_frames;    // normals, tangents offsets; -1 = none
layout(std430, binding = SW_CROWD_BUFFER_POSITIONS) readonly buffer CrowdPositions { float crowd_positions[]; };
layout(std430, binding = SW_CROWD_BUFFER_PREVIOUS) readonly buffer CrowdPrevious { float crowd_previous[]; };
layout(std430, binding = SW_CROWD_BUFFER_FRAMES) readonly buffer CrowdFrames { float crowd_frames[]; };

out VertexOut {
    vec3 world;
    vec3 normal;
    vec4 tangent;
    vec2 uv0;
    vec2 uv1;
    vec4 color;
    float weight;
    vec4 clip;
    vec4 previous_clip;
} o;

// The hull: the vertex moves across the screen along its outline normal's
// projection by `width` pixels, a constant on-screen width up to the max
// distance, beyond which the width stays constant in world units.
vec4 sw_outline_push(vec4 clip, vec4 normal_clip, float width) {
    vec2 d = (normal_clip.xy * clip.w - clip.xy * normal_clip.w) * u_outline.zw;  // d(ndc)/ds in pixels, × w²
    float len = length(d);
    if (!(len > 1e-20) || clip.w <= 0.0) return clip;
    float pixels = width * min(1.0, u_outline.y / clip.w);
    clip.xy += d / len * pixels * 2.0 / u_outline.zw * clip.w;
    return clip;
}

void main() {
    vec3 position = a_position, previous = a_previous_position, normal = a_normal;
    vec4 tangent = a_tangent;
    if (u_crowd_vertices > 0) {
        uint v = uint(gl_InstanceID * u_crowd_vertices + gl_VertexID);
        position = vec3(crowd_positions[3u * v], crowd_positions[3u * v + 1u], crowd_positions[3u * v + 2u]);
        previous = vec3(crowd_previous[3u * v], crowd_previous[3u * v + 1u], crowd_previous[3u * v + 2u]);
        if (u_crowd_frames.x >= 0) {
            uint n = uint(u_crowd_frames.x) + 3u * v;
            normal = vec3(crowd_frames[n], crowd_frames[n + 1u], crowd_frames[n + 2u]);
        }
        if (u_crowd_frames.y >= 0) {
            uint t = uint(u_crowd_frames.y) + 4u * v;
            tangent = vec4(crowd_frames[t], crowd_frames[t + 1u], crowd_frames[t + 2u], crowd_frames[t + 3u]);
        }
    }
    if ((u_vertex_flags & SW_VERTEX_FLAG_FOLD) != 0) {
        // A face vertex whose tag bit is set collapses to one point: its
        // triangles vanish (hidden patches of the face mesh).
        float tag = floor(u_fold_uv_set == 1 ? a_uv1.x : a_uv0.x);
        if (tag >= 0.0 && tag < 31.5 && ((u_fold_mask >> int(tag)) & 1) != 0) position = previous = u_fold_point;
    }
    o.world = position;
    o.normal = normal;
    o.tangent = tangent;
    o.uv0 = a_uv0;
    o.uv1 = a_uv1;
    o.color = a_color;
    o.weight = a_weight;
    o.clip = u_view_projection * vec4(position, 1.0);
    o.previous_clip = u_previous_view_projection * vec4(previous, 1.0);
    if ((u_vertex_flags & SW_VERTEX_FLAG_OUTLINE) != 0) {
        vec3 n = tangent.xyz;
        float scale = 1.0;
        if ((u_vertex_flags & SW_VERTEX_FLAG_OUTLINE_TEXTURE) != 0) {
            int entry = SW_MATERIAL_UV_OUTLINE_WIDTH;
            vec2 uv = (u_uv_transform[entry] * vec3(u_uv_set[entry] == 1 ? a_uv1 : a_uv0, 1.0)).xy;
            scale = textureLod(t_outline_width, uv, 0.0).g;
        }
        if ((u_vertex_flags & SW_VERTEX_FLAG_OUTLINE_WORLD) != 0) {
            // MToon worldCoordinates: metres along the normal, in world space.
            vec3 offset = n * (u_outline_world * scale);
            o.clip = u_view_projection * vec4(position + offset, 1.0);
            o.previous_clip = u_previous_view_projection * vec4(previous + offset, 1.0);
        } else {
            o.clip = sw_outline_push(o.clip, u_view_projection * vec4(n, 0.0), u_outline.x * scale);
            o.previous_clip = sw_outline_push(o.previous_clip, u_previous_view_projection * vec4(n, 0.0), u_outline.x * scale);
        }
    }
    gl_Position = o.clip;
}
