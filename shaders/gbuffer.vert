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
