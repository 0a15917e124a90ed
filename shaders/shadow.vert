// Shadow map pass: depth only, from the light.
layout(location = 0) in vec3 a_position;
layout(location = 0) uniform mat4 u_light_view_projection;

void main() { gl_Position = u_light_view_projection * vec4(a_position, 1.0); }
