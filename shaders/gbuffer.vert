// G-buffer pass: draws the skinned buffers (already in world space, written
// by skin.comp) and the ground. Previous positions and the previous camera
// give each vertex its motion.
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_previous_position;
layout(location = 2) in vec3 a_normal;
layout(location = 3) in vec4 a_tangent;
layout(location = 4) in vec2 a_uv0;
layout(location = 5) in vec2 a_uv1;
layout(location = 6) in vec4 a_color;
layout(location = 7) in float a_weight;

layout(location = 0) uniform mat4 u_view_projection;
layout(location = 1) uniform mat4 u_previous_view_projection;

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

void main() {
    o.world = a_position;
    o.normal = a_normal;
    o.tangent = a_tangent;
    o.uv0 = a_uv0;
    o.uv1 = a_uv1;
    o.color = a_color;
    o.weight = a_weight;
    o.clip = u_view_projection * vec4(a_position, 1.0);
    o.previous_clip = u_previous_view_projection * vec4(a_previous_position, 1.0);
    gl_Position = o.clip;
}
