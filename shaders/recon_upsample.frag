// Spatial lighting reconstruction, the joint-bilateral upsample
// (docs/reconstruction.md; frame analysis §2.9): each full-res pixel blends
// its four half-res candidates with bilinear weights; a candidate off its
// surface (relative view-depth difference >= 5 %, normal dot <= 0.5, or the
// far plane) keeps only a floor weight. Mirrors sw__recon_upsample
// (src/render/recon.c); units and locations: src/render/render_interface.h.
layout(location = SW_OUT_COLOR) out vec4 out_value;

layout(binding = SW_RECON_UNIT_DEPTH) uniform sampler2D t_depth;
layout(binding = SW_RECON_UNIT_NORMAL) uniform sampler2D t_normal;
layout(binding = SW_RECON_UNIT_HALF_DEPTH) uniform sampler2D t_half_depth;
layout(binding = SW_RECON_UNIT_HALF_NORMAL) uniform sampler2D t_half_normal;
layout(binding = SW_RECON_UNIT_HALF_VALUE) uniform sampler2D t_half_value;
layout(location = SW_RECON_LOC_COLUMNS) uniform ivec2 u_columns;      // full-res columns drawn
layout(location = SW_RECON_LOC_DEPTH_RANGE) uniform vec2 u_range;     // near, far (far may be +inf)
layout(location = SW_RECON_LOC_REVERSE_Z) uniform int u_reverse_z;

// sw__recon_far
bool sw_recon_far(float d) { return u_reverse_z != 0 ? d <= 0.0 : d >= 1.0; }

// sw__recon_view_depth (not at the far plane)
float sw_recon_view_depth(float d) {
    float n = u_range.x, f = u_range.y;
    if (u_reverse_z != 0) return isinf(f) ? n / d : n * f / (d * (f - n) + n);
    return 2.0 * f * n / ((f + n) - (d * 2.0 - 1.0) * (f - n));
}

void main() {
    ivec2 pixel = ivec2(gl_FragCoord.xy);
    float depth = texelFetch(t_depth, pixel, 0).r;
    if (sw_recon_far(depth)) {
        out_value = vec4(1.0);
        return;
    }
    float z = sw_recon_view_depth(depth);
    vec3 n = normalize(texelFetch(t_normal, pixel, 0).xyz * 2.0 - 1.0);
    ivec2 half_size = textureSize(t_half_depth, 0);
    // sw__recon_candidates: the half-res columns of u_columns, fractions 0.25 / 0.75.
    ivec2 lo = ivec2(u_columns.x / 2, 0), hi = ivec2((u_columns.y + 1) / 2, half_size.y) - 1;
    vec2 uv = (vec2(pixel) + 0.5) * 0.5 - 0.5;
    vec2 base = floor(uv), f = uv - base;
    float depth_limit = float(SW_RECON_DEPTH_PERCENT) / 100.0 * z;
    float dot_limit = float(SW_RECON_NORMAL_DOT_PERCENT) / 100.0;
    vec4 sum = vec4(0.0);
    float total = 0.0;
    for (int i = 0; i < 4; i++) {
        ivec2 t = clamp(ivec2(base) + ivec2(i & 1, i >> 1), lo, hi);
        float w = ((i & 1) != 0 ? f.x : 1.0 - f.x) * ((i >> 1) != 0 ? f.y : 1.0 - f.y);
        float d = texelFetch(t_half_depth, t, 0).r;
        vec3 m = normalize(texelFetch(t_half_normal, t, 0).xyz * 2.0 - 1.0);
        bool same_surface = !sw_recon_far(d) && abs(sw_recon_view_depth(d) - z) < depth_limit && dot(n, m) > dot_limit;
        if (!same_surface) w *= float(SW_RECON_FLOOR_PER_MILLE) / 1000.0;
        sum += w * texelFetch(t_half_value, t, 0);
        total += w;
    }
    out_value = sum / max(total, 1e-6);
}
