// The surface-height cache (src/render/snow_cache.c, docs/snow.md): the
// stage's skinned buffers (world space) drawn from above, orthographic in
// world XZ, one pixel per fine texel of the window. The depth keeps the
// highest surface: higher is nearer.
layout(location = SW_ATTR_POSITION) in vec3 a_position;
layout(location = SW_ATTR_NORMAL) in vec3 a_normal;
layout(location = SW_SNOW_CACHE_LOC_WINDOW) uniform vec4 u_window;
layout(location = SW_SNOW_CACHE_LOC_HEIGHTS) uniform vec4 u_heights;

out SnowCacheOut {
    vec3 world;
    vec3 normal;
    float height;  // normalised: (y − lowest) / span
} o;

void main() {
    vec2 texels = (a_position.xz - u_window.xy) * u_window.z;
    float h = (a_position.y - u_heights.x) * u_heights.y;
    o.world = a_position;
    o.normal = a_normal;
    o.height = h;
    // z in [0.1, 0.9] under either clip-control depth convention.
    gl_Position = vec4(texels / float(SW_SNOW_CACHE_FINE_SIZE) * 2.0 - 1.0, 0.9 - 0.8 * clamp(h, 0.0, 1.0), 1.0);
}
