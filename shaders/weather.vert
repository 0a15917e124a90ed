// Falling snow (docs/weather.md; weather_pass.c): one camera-facing quad
// per flake, instanced. The flakes' positions, drawn radii and fades come
// from weather.c on the CPU, sorted back to front; gl_VertexID 0..3 makes
// the quad's corners (a triangle strip).
layout(location = SW_WEATHER_ATTR_FLAKE) in vec4 a_flake;  // world position, drawn radius (m)
layout(location = SW_WEATHER_ATTR_FADE) in float a_fade;

layout(location = SW_WEATHER_LOC_VIEW_PROJECTION) uniform mat4 u_view_projection;
layout(location = SW_WEATHER_LOC_RIGHT) uniform vec3 u_right;
layout(location = SW_WEATHER_LOC_UP) uniform vec3 u_up;

out vec2 v_corner;        // −1..1 across the quad: the disc's radius is 1
flat out vec3 v_centre;   // the flake's world position: its light and its air
flat out float v_fade;

void main() {
    vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1)) * 2.0 - 1.0;
    vec3 world = a_flake.xyz + (u_right * corner.x + u_up * corner.y) * a_flake.w;
    v_corner = corner;
    v_centre = a_flake.xyz;
    v_fade = a_fade;
    gl_Position = u_view_projection * vec4(world, 1.0);
}
