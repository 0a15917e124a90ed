// Bones over the image: world-space points, one colour per vertex.
layout(location = SW_LINES_ATTR_POSITION) in vec3 a_position;
layout(location = SW_LINES_ATTR_COLOR) in vec3 a_color;
layout(location = SW_LINES_LOC_VIEW_PROJECTION) uniform mat4 u_view_projection;
out vec3 v_color;

void main() {
    v_color = a_color;
    gl_Position = u_view_projection * vec4(a_position, 1.0);
}
