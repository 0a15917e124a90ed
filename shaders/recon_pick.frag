// Spatial lighting reconstruction, the pick (docs/reconstruction.md; frame
// analysis §2.9): per half-res texel, of its full-res 2x2 block the pixel
// nearest the eye where ((x ^ y) & 1) == 0, else the farthest, its depth,
// the normal of the SAME pixel and its index in the block (A2). Mirrors
// sw__recon_pick (src/render/recon.c); units and locations:
// src/render/render_interface.h.
layout(location = SW_RECON_OUT_DEPTH) out float out_depth;   // R32F: the picked depth-buffer value
layout(location = SW_RECON_OUT_NORMAL) out vec4 out_normal;  // RGB10A2: normal x 1/2 + 1/2, A = index / 3

layout(binding = SW_RECON_UNIT_DEPTH) uniform sampler2D t_depth;
layout(binding = SW_RECON_UNIT_NORMAL) uniform sampler2D t_normal;
layout(location = SW_RECON_LOC_COLUMNS) uniform ivec2 u_columns;  // full-res columns read
layout(location = SW_RECON_LOC_REVERSE_Z) uniform int u_reverse_z;

// Stored depths are monotonic in view depth: comparing them is exact.
bool sw_recon_nearer(float a, float b) { return u_reverse_z != 0 ? a > b : a < b; }

void main() {
    ivec2 texel = ivec2(gl_FragCoord.xy);
    int height = textureSize(t_depth, 0).y;
    bool want_nearest = ((texel.x ^ texel.y) & 1) == 0;
    int best = -1;
    float best_depth = 0.0;
    for (int i = 0; i < 4; i++) {
        ivec2 p = 2 * texel + ivec2(i & 1, i >> 1);
        if (p.x < u_columns.x || p.x >= u_columns.y || p.y >= height) continue;
        float d = texelFetch(t_depth, p, 0).r;
        if (best < 0 || (want_nearest ? sw_recon_nearer(d, best_depth) : sw_recon_nearer(best_depth, d))) {
            best = i;
            best_depth = d;
        }
    }
    best = max(best, 0);
    out_depth = best_depth;
    out_normal = vec4(texelFetch(t_normal, 2 * texel + ivec2(best & 1, best >> 1), 0).rgb, float(best) / 3.0);
}
