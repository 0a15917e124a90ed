// Shadow map pass: depth only, from the light.
layout(location = SW_ATTR_POSITION) in vec3 a_position;
layout(location = SW_SHADOW_LOC_LIGHT_VIEW_PROJECTION) uniform mat4 u_light_view_projection;

void main() { gl_Position = u_light_view_projection * vec4(a_position, 1.0); }
