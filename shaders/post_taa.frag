// Temporal reconstruction (TAA) on display-referred colour, as the frame
// analysis describes it (docs/post.md):
//   - motion from the frontmost of this pixel and its four diagonal
//     neighbours (sw_nearer, shaders/depth.glsl: the largest depth under
//     reverse-Z, the smallest under ordinary depth), the class byte read here;
//   - the current colour from the 4×4 jittered samples around the pixel's
//     un-jittered centre with the negative-lobe kernel L(x²), the weight
//     sum guarded, clamped to the 16 samples' per-channel range;
//   - the history from the 5-tap bicubic filter (sharpness s) at the
//     reprojected position, none when that lies off-screen;
//   - the class byte's history bits: a sparkle pixel keeps the per-channel
//     max for its retention time (reset by the sparkle class, lost by a
//     step a frame and faster with motion); the others, once retention has
//     run out, clamp the history to the range of this pixel and its
//     diagonal neighbours;
//   - a pixel whose class differs from its history's (kept in the history's
//     alpha) loses its retention: sparkle does not trail a disocclusion;
//   - accumulation H capped at 12 still, falling to 2 with motion; the
//     state target keeps (retention, H / 12).
// Names: src/render/render_interface.h.
layout(location = SW_TAA_OUT_HISTORY) out vec4 out_history;
layout(location = SW_TAA_OUT_STATE) out vec2 out_state;
layout(location = SW_TAA_OUT_IMAGE) out vec4 out_image;

layout(binding = SW_TAA_UNIT_COLOR) uniform sampler2D t_color;
layout(binding = SW_TAA_UNIT_MOTION) uniform sampler2D t_motion;
layout(binding = SW_TAA_UNIT_DEPTH) uniform sampler2D t_depth;
layout(binding = SW_TAA_UNIT_CLASS) uniform usampler2D t_class;
layout(binding = SW_TAA_UNIT_HISTORY) uniform sampler2D t_history;  // bilinear, clamped
layout(binding = SW_TAA_UNIT_STATE) uniform sampler2D t_state;

layout(location = SW_TAA_LOC_JITTER) uniform vec2 u_jitter;  // pixels
layout(location = SW_TAA_LOC_SHARPNESS) uniform float u_sharpness;
layout(location = SW_TAA_LOC_ACCUMULATION) uniform vec3 u_accumulation;  // cap still, cap moving, px for moving
layout(location = SW_TAA_LOC_RETENTION_STEP) uniform float u_retention_step;
layout(location = SW_TAA_LOC_RESET) uniform int u_reset;

ivec2 g_size;

vec3 sw_color(ivec2 p) { return texelFetch(t_color, clamp(p, ivec2(0), g_size - 1), 0).rgb; }

// (25/16·(2x²/5 − 1)² − 9/16)·(x²/4 − 1)²: 1 at 0, 0 at 1 and 2, negative between.
float sw_kernel(float x2) {
    x2 = min(x2, 4.0);
    float a = 0.4 * x2 - 1.0, b = 0.25 * x2 - 1.0;
    return (25.0 / 16.0 * a * a - 9.0 / 16.0) * b * b;
}

vec3 sw_history_tap(vec2 pixel) { return textureLod(t_history, pixel / vec2(g_size), 0.0).rgb; }

// The 5-tap bicubic history (see sw__bicubic_weights in post_math.c).
vec3 sw_history(vec2 position) {
    vec2 b = floor(position - 0.5) + 0.5, f = position - b, s = vec2(u_sharpness);
    vec2 w0 = -s * f * (1.0 - f) * (1.0 - f), w3 = -s * f * f * (1.0 - f);
    vec2 w1 = (2.0 - s) * f * f * f - (3.0 - s) * f * f + 1.0;
    vec2 w2 = -(2.0 - s) * f * f * f + (3.0 - 2.0 * s) * f * f + s * f;
    vec2 pc = b + w2 / (w1 + w2);
    vec3 c = sw_history_tap(pc) + w0.x * sw_history_tap(vec2(b.x - 1.0, pc.y)) +
             w3.x * sw_history_tap(vec2(b.x + 2.0, pc.y)) + w0.y * sw_history_tap(vec2(pc.x, b.y - 1.0)) +
             w3.y * sw_history_tap(vec2(pc.x, b.y + 2.0));
    return max(c / (1.0 + w0.x + w3.x + w0.y + w3.y), 0.0);
}

const ivec2 DIAGONALS[4] = ivec2[4](ivec2(-1, -1), ivec2(1, -1), ivec2(-1, 1), ivec2(1, 1));

void main() {
    g_size = textureSize(t_color, 0);
    ivec2 p = ivec2(gl_FragCoord.xy);
    vec2 centre = vec2(p) + 0.5;

    // Motion of the frontmost of the centre and the diagonals on screen.
    ivec2 nearest = p;
    float depth = texelFetch(t_depth, p, 0).r;
    for (int i = 0; i < 4; i++) {
        ivec2 q = p + DIAGONALS[i];
        if (any(lessThan(q, ivec2(0))) || any(greaterThanEqual(q, g_size))) continue;
        float z = texelFetch(t_depth, q, 0).r;
        if (sw_nearer(z, depth)) depth = z, nearest = q;
    }
    uint class_byte = texelFetch(t_class, p, 0).r;
    // A texture moved by a UV animation, here or at the neighbour whose
    // motion would be taken: that motion is the texture's, not the mesh's,
    // so it does not carry over to the pixels around (a still silhouette
    // stays where it is) and each pixel keeps its own; and the pixel keeps a
    // moving pixel's short history and exact clamp however slowly it moves.
    const uint texture_bit = uint(SW_CLASS_HISTORY_TEXTURE_MOTION);
    bool texture_motion = ((class_byte | texelFetch(t_class, nearest, 0).r) & texture_bit) != 0u;
    if (texture_motion) nearest = p;
    vec2 motion = texelFetch(t_motion, nearest, 0).rg;  // texture units
    float motion_pixels = length(motion * vec2(g_size));
    uint history_bits = class_byte & uint(SW_TAA_HISTORY_MASK);
    uint lighting_class = class_byte & uint(SW_CLASS_MASK);
    bool sparkle = history_bits == uint(SW_CLASS_HISTORY_SPARKLE);
    float moving_pixels = texture_motion ? max(motion_pixels, u_accumulation.z) : motion_pixels;

    // Current colour: pixel i shows the scene at i + ½ − jitter.
    ivec2 base = ivec2(floor(centre + u_jitter - 0.5));
    vec3 sum = vec3(0.0), lo = vec3(1e9), hi = vec3(-1e9);
    float weight = 0.0;
    for (int y = -1; y <= 2; y++)
        for (int x = -1; x <= 2; x++) {
            ivec2 i = base + ivec2(x, y);
            vec3 c = sw_color(i);
            vec2 o = vec2(i) + 0.5 - u_jitter - centre;
            float w = sw_kernel(dot(o, o));
            sum += c * w;
            weight += w;
            lo = min(lo, c), hi = max(hi, c);
        }
    vec3 current = weight > 1e-3 ? clamp(sum / weight, lo, hi) : sw_color(p);
    float w_current = clamp(weight, 1e-3, 1.0);

    // History at the reprojected position.
    vec2 previous = centre - motion * vec2(g_size);
    bool valid = u_reset == 0 && all(greaterThanEqual(previous, vec2(0.0))) && all(lessThan(previous, vec2(g_size)));
    vec3 history = current;
    float retention = 0.0, accumulated = 0.0;
    if (valid) {
        history = sw_history(previous);
        // State and the history's alpha (the class it was made of) are read
        // unfiltered: a pixel whose class changed keeps no retention.
        ivec2 at = ivec2(floor(previous));
        vec2 state = texelFetch(t_state, at, 0).rg;
        uint previous_class = uint(round(texelFetch(t_history, at, 0).a * 255.0));
        retention = previous_class == lighting_class ? state.x : 0.0;
        accumulated = state.y * u_accumulation.x;
    }
    // Retention runs out by a step a frame, and by a step per pixel of
    // motion more: what a sparkle left behind does not trail a fast move.
    retention = sparkle ? 1.0 : max(retention - u_retention_step * (1.0 + motion_pixels), 0.0);
    if (retention > 0.0) {
        history = max(history, current);
    } else {
        // The range of this pixel and its diagonal neighbours (this frame's
        // samples), a quarter wider when still, exact when moving.
        vec3 nlo = sw_color(p), nhi = nlo;
        for (int i = 0; i < 4; i++) {
            vec3 c = sw_color(p + DIAGONALS[i]);
            nlo = min(nlo, c), nhi = max(nhi, c);
        }
        float widen = 0.25 * (1.0 - clamp(moving_pixels, 0.0, 1.0));
        vec3 extent = (nhi - nlo) * widen;
        history = clamp(history, nlo - extent, nhi + extent);
    }
    float total = accumulated + w_current;
    vec3 result = mix(history, current, w_current / total);
    float cap = mix(u_accumulation.x, u_accumulation.y, clamp(moving_pixels / u_accumulation.z, 0.0, 1.0));
    out_history = vec4(result, float(lighting_class) / 255.0);
    out_state = vec2(retention, min(total, cap) / u_accumulation.x);
    out_image = vec4(clamp(result, 0.0, 1.0), 1.0);
}
