// Motion blur, step 1 of 2: velocity tiles. SW_BLUR_MODE_TILE_MAX keeps
// the longest motion (in pixels, scaled by the shutter) of each
// SW_BLUR_TILE² tile; SW_BLUR_MODE_NEIGHBOUR_MAX the longest of the 3×3
// tiles around, so every pixel knows the fastest motion that can reach it.
// Names: src/render/render_interface.h; docs/post.md.
layout(location = SW_OUT_COLOR) out vec2 out_velocity;

layout(binding = SW_BLUR_UNIT_MOTION) uniform sampler2D t_motion;  // texture units per frame
layout(binding = SW_BLUR_UNIT_TILES) uniform sampler2D t_tiles;    // pixels

layout(location = SW_BLUR_LOC_MODE) uniform int u_mode;
layout(location = SW_BLUR_LOC_SHUTTER) uniform float u_shutter;

void main() {
    ivec2 tile = ivec2(gl_FragCoord.xy);
    vec2 best = vec2(0.0);
    float best_length = -1.0;
    if (u_mode == SW_BLUR_MODE_TILE_MAX) {
        ivec2 size = textureSize(t_motion, 0);
        vec2 pixels = vec2(size) * u_shutter;
        for (int y = 0; y < SW_BLUR_TILE; y++)
            for (int x = 0; x < SW_BLUR_TILE; x++) {
                ivec2 p = tile * SW_BLUR_TILE + ivec2(x, y);
                if (p.x >= size.x || p.y >= size.y) continue;
                vec2 v = texelFetch(t_motion, p, 0).rg * pixels;
                float l = dot(v, v);
                if (l > best_length) best = v, best_length = l;
            }
    } else {
        ivec2 size = textureSize(t_tiles, 0);
        for (int y = -1; y <= 1; y++)
            for (int x = -1; x <= 1; x++) {
                ivec2 p = clamp(tile + ivec2(x, y), ivec2(0), size - 1);
                vec2 v = texelFetch(t_tiles, p, 0).rg;
                float l = dot(v, v);
                if (l > best_length) best = v, best_length = l;
            }
    }
    out_velocity = best;
}
