// Environment probes' ambient (src/render/probes.c; the C reference is
// src/render/probe_math.c; docs/probes.md): each probe's irradiance from
// its SH9 (sw__sh9_irradiance), weighted by sw__probe_weight (1 inside its
// box, falling over the transition width outside), the weights taken in
// order from a budget of 1 (sw__probe_budget), the hemisphere `fallback`
// filling what is left. Pasted into the programs that shade (lighting,
// G-buffer's forward path, toon).
layout(std140, binding = SW_PROBES_BLOCK) uniform Probes {
    ivec4 u_probe_count;
    vec4 u_probe_depth_row;  // the view-projection's w row: a world point's view depth
    vec4 u_probe_grid;       // width, height, near, far

    // SW_PROBE_VEC4S per probe: position, fade; box min; box max; the nine
    // SH9 coefficients (rgb) in probe_math.h's order.
    vec4 u_probes[SW_PROBE_MAX * SW_PROBE_VEC4S];
};

// The probes that may touch each cluster (sw__probe_cluster_range): probe i
// is bit i % 32 of component i / 32. Read only while there are probes.
layout(std430, binding = SW_PROBE_CLUSTER_BUFFER) readonly buffer ProbeClusters {
    uvec2 u_probe_masks[];
};

// The fragment's window position. A compute stage has none: it reads
// lighting_common.glsl for the shadow alone and never shades with probes.
#ifdef SW_STAGE_COMPUTE
vec2 sw_probe_fragment() { return vec2(0.0); }
#else
vec2 sw_probe_fragment() { return gl_FragCoord.xy; }
#endif

// The cluster of this fragment at world point p (sw__probe_cluster_index,
// y from the bottom).
int sw_probe_cluster(vec3 p) {
    float depth = dot(u_probe_depth_row, vec4(p, 1.0));
    float ratio = depth > u_probe_grid.z ? log(depth / u_probe_grid.z) / log(u_probe_grid.w / u_probe_grid.z) : 0.0;
    int tx = clamp(int(floor(sw_probe_fragment().x * float(SW_PROBE_CLUSTERS_X) / u_probe_grid.x)), 0, SW_PROBE_CLUSTERS_X - 1);
    int ty = clamp(int(floor(sw_probe_fragment().y * float(SW_PROBE_CLUSTERS_Y) / u_probe_grid.y)), 0, SW_PROBE_CLUSTERS_Y - 1);
    int tz = clamp(int(floor(ratio * float(SW_PROBE_CLUSTERS_Z))), 0, SW_PROBE_CLUSTERS_Z - 1);
    return tx + SW_PROBE_CLUSTERS_X * (ty + SW_PROBE_CLUSTERS_Y * tz);
}

vec3 sw_probe_irradiance(int base, vec3 n) {
    float b[9] = float[9](0.282094792, 0.488602512 * n.y, 0.488602512 * n.z, 0.488602512 * n.x,
                          1.092548431 * n.x * n.y, 1.092548431 * n.y * n.z, 0.315391565 * (3.0 * n.z * n.z - 1.0),
                          1.092548431 * n.x * n.z, 0.546274215 * (n.x * n.x - n.y * n.y));
    const float band[3] = float[3](3.14159265, 2.0943951, 0.785398163);  // π, 2π/3, π/4
    vec3 e = vec3(0.0);
    for (int k = 0; k < 9; k++) e += band[k == 0 ? 0 : (k < 4 ? 1 : 2)] * b[k] * u_probes[base + 3 + k].rgb;
    return max(e, vec3(0.0));
}

float sw_probe_weight(vec3 p, int base) {
    vec3 lo = u_probes[base + 1].xyz, hi = u_probes[base + 2].xyz;
    float d = length(max(abs(p - 0.5 * (lo + hi)) - 0.5 * (hi - lo), vec3(0.0)));
    if (d == 0.0) return 1.0;
    float fade = u_probes[base].w;
    return fade > 0.0 ? max(1.0 - d / fade, 0.0) : 0.0;
}

// The next probe of a cluster's two masks in index order (the budget's),
// taken out of them; -1 when none is left.
int sw_probe_next(inout uvec2 masks) {
    if (masks.x != 0u) {
        int k = findLSB(masks.x);
        masks.x &= masks.x - 1u;
        return k;
    }
    if (masks.y != 0u) {
        int k = 32 + findLSB(masks.y);
        masks.y &= masks.y - 1u;
        return k;
    }
    return -1;
}

// The probes' blend at world point p: with `mean`, the ambient averaged
// over every normal (band 0 alone: L00·Y00, sw__sh9_mean_radiance), else at unit normal n (E/π,
// as the hemisphere term it replaces); `fallback` fills the budget left.
// Only the probes of this fragment's cluster, in index order (the budget's).
vec3 sw_probe_blend(vec3 p, vec3 n, vec3 fallback, bool mean) {
    if (u_probe_count.x == 0) return fallback;
    uvec2 masks = u_probe_masks[sw_probe_cluster(p)];
    float acc = 0.0;
    vec3 color = vec3(0.0);
    for (int k = sw_probe_next(masks); k >= 0 && acc < 1.0; k = sw_probe_next(masks)) {
        int base = k * SW_PROBE_VEC4S;
        float w = min(sw_probe_weight(p, base), 1.0 - acc);
        if (w > 0.0)
            color += w * (mean ? 0.282094792 * u_probes[base + 3].rgb : sw_probe_irradiance(base, n) * (1.0 / 3.14159265));
        acc += w;
    }
    return color + (1.0 - acc) * fallback;
}

vec3 sw_probe_ambient(vec3 p, vec3 n, vec3 fallback) { return sw_probe_blend(p, n, fallback, false); }
vec3 sw_probe_ambient_mean(vec3 p, vec3 fallback) { return sw_probe_blend(p, vec3(0.0, 1.0, 0.0), fallback, true); }
