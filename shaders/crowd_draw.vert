// GPU-driven crowds: the skinned outputs drawn as they are (world space),
// one glMultiDrawElementsIndirect command per character.
layout(location = SW_CROWD_ATTR_POSITION) in vec3 a_position;
layout(location = SW_CROWD_ATTR_NORMAL) in vec3 a_normal;
layout(location = SW_CROWD_LOC_VIEW_PROJECTION) uniform mat4 u_view_projection;
out vec3 v_normal;

void main() {
    v_normal = a_normal;
    gl_Position = u_view_projection * vec4(a_position, 1.0);
}
