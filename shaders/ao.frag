// Ambient occlusion (docs/ao.md; frame analysis §2.11), into an RG8 target
// the lighting pass multiplies in: R = the 18-direction screen AO times the
// shape proxies' visibility along the normal (ambient light), G = the
// proxies' visibility along the half-way of normal and light (the direct
// light's contact shadow). Mirrors src/render/ao.c (the C reference,
// tests/render/test_ao.c); units and locations: src/render/render_interface.h.
in vec2 v_uv;
layout(location = SW_OUT_COLOR) out vec4 out_ao;

layout(binding = SW_AO_UNIT_DEPTH) uniform sampler2D t_depth;
layout(binding = SW_AO_UNIT_NORMAL) uniform sampler2D t_normal;

layout(location = SW_AO_LOC_VIEW) uniform mat4 u_view;             // world -> view
layout(location = SW_AO_LOC_LENS) uniform vec4 u_lens;             // focal, aspect, near, far
layout(location = SW_AO_LOC_REVERSE_Z) uniform int u_reverse_z;      // sw__ao_lens.reverse_z
layout(location = SW_AO_LOC_SETTINGS) uniform vec3 u_settings;     // radius, strength, bias
layout(location = SW_AO_LOC_FRAME) uniform int u_frame;
layout(location = SW_AO_LOC_PROXY_COUNT) uniform int u_proxy_count;
layout(location = SW_AO_LOC_LIGHT) uniform vec3 u_light;           // towards the light, view space
layout(location = SW_AO_LOC_PROXY_MIN) uniform vec3 u_proxy_min;   // no proxy reaches outside this box
layout(location = SW_AO_LOC_PROXY_MAX) uniform vec3 u_proxy_max;
layout(location = SW_AO_LOC_DIRECTIONS) uniform vec2 u_directions[SW_AO_DIRECTION_COUNT];
layout(location = SW_AO_LOC_COLUMNS) uniform ivec2 u_columns;      // a split frame's half: samples stay inside
layout(location = SW_AO_LOC_PROXIES) uniform vec4 u_proxies[2 * SW_AO_MAX_PROXIES];

const float TAU = 6.28318530717959;

// sw__ao_noise: interleaved gradient noise, shifted per frame.
float sw_noise(vec2 p) {
    float shift = 5.588238 * float(u_frame);
    return fract(52.9829189 * fract(0.06711056 * (p.x + shift) + 0.00583715 * (p.y + shift)));
}

// sw__ao_far
bool sw_far(float depth) { return u_reverse_z != 0 ? depth <= 0.0 : depth >= 1.0; }

// sw__ao_view_position
vec3 sw_view_position(vec2 pixel, float depth) {
    float n = u_lens.z, f = u_lens.w;
    float z = u_reverse_z != 0 ? -(isinf(f) ? n / depth : n * f / (depth * (f - n) + n))
                               : -2.0 * f * n / ((f + n) - (depth * 2.0 - 1.0) * (f - n));
    vec2 ndc = pixel / vec2(textureSize(t_depth, 0)) * 2.0 - 1.0;
    return vec3(ndc.x * -z * u_lens.y / u_lens.x, ndc.y * -z / u_lens.x, z);
}

// sw__ao_screen
float sw_screen_ao(ivec2 pixel, vec3 p, vec3 n) {
    ivec2 size = textureSize(t_depth, 0);
    float radius = u_settings.x;
    float angle = TAU * sw_noise(vec2(pixel));
    float jitter = sw_noise(vec2(pixel) + vec2(47.0, 17.0));
    float c = cos(angle), s = sin(angle);
    float radius_px = min(radius * u_lens.x / -p.z * 0.5 * float(size.y), 0.25 * float(size.y));
    float occlusion = 0.0;
    for (int i = 0; i < SW_AO_DIRECTION_COUNT; i++) {
        vec2 d = vec2(u_directions[i].x * c - u_directions[i].y * s, u_directions[i].x * s + u_directions[i].y * c);
        float t = (float(i) + jitter) / float(SW_AO_DIRECTION_COUNT);
        float reach = 1.0 + t * max(radius_px - 1.0, 0.0);
        ivec2 q = ivec2(floor(vec2(pixel) + 0.5 + d * reach));
        if (q.x < u_columns.x || q.y < 0 || q.x >= u_columns.y || q.y >= size.y) continue;
        float dq = texelFetch(t_depth, q, 0).r;
        if (sw_far(dq)) continue;
        vec3 v = sw_view_position(vec2(q) + 0.5, dq) - p;
        float vv = dot(v, v);
        if (vv < 1e-12) continue;
        float cosine = dot(v, n) / sqrt(vv);
        float falloff = max(0.0, 1.0 - vv / (radius * radius));
        occlusion += max(0.0, cosine - u_settings.z) * falloff;
    }
    float open = clamp(1.0 - 2.0 * occlusion / float(SW_AO_DIRECTION_COUNT), 0.0, 1.0);
    return pow(max(open, 1e-4), u_settings.y);
}

// sw__ao_sphere: Quilez's sphere occlusion, faded out at SW_AO_PROXY_REACH radii.
float sw_sphere(vec3 p, vec3 n, vec3 centre, float r) {
    vec3 d = centre - p;
    float l = length(d);
    float reach = float(SW_AO_PROXY_REACH);
    if (!(r > 0.0) || l >= reach * r || l < 1e-6) return 0.0;
    float h = max(l / r, 1.0);
    float facing = max(0.0, dot(n, d) / l);
    float fade = clamp((reach - h) / (reach - 1.0), 0.0, 1.0);
    return min(facing / (h * h), 1.0) * fade;
}

// sw__ao_proxies: capsules as the sphere at the axis point closest to p.
float sw_proxies(vec3 p, vec3 n) {
    float visibility = 1.0;
    for (int i = 0; i < u_proxy_count; i++) {
        vec3 a = u_proxies[2 * i].xyz, b = u_proxies[2 * i + 1].xyz;
        vec3 ab = b - a;
        float length2 = dot(ab, ab);
        float t = length2 > 0.0 ? clamp(dot(p - a, ab) / length2, 0.0, 1.0) : 0.0;
        visibility *= 1.0 - sw_sphere(p, n, a + ab * t, u_proxies[2 * i].w);
    }
    return visibility;
}

void main() {
    ivec2 pixel = ivec2(gl_FragCoord.xy);
    float depth = texelFetch(t_depth, pixel, 0).r;
    if (sw_far(depth)) {
        out_ao = vec4(1.0);
        return;
    }
    vec3 p = sw_view_position(vec2(pixel) + 0.5, depth);
    vec3 n = normalize(mat3(u_view) * normalize(texelFetch(t_normal, pixel, 0).xyz * 2.0 - 1.0));
    // Outside the proxies' box every proxy gives 0: the loops are skipped.
    bool near_proxies = all(greaterThanEqual(p, u_proxy_min)) && all(lessThanEqual(p, u_proxy_max));
    float ambient = near_proxies ? sw_proxies(p, n) : 1.0;
    float contact = near_proxies ? sw_proxies(p, normalize(n + u_light)) : 1.0;
    out_ao = vec4(sw_screen_ao(pixel, p, n) * ambient, contact, 0.0, 1.0);
}
