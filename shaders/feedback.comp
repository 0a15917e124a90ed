// The character's environment feedback (frame analysis §2.15; C reference
// src/render/feedback.c, docs/feedback.md): one work group per column of
// the 70-column state, one invocation per sample. Each invocation places
// its world point as sw__feedback_sample_point does, samples the
// surroundings (colour columns: the G-buffer's material colour where the
// point projects, unless it lands on the sky or a character; shadow
// columns: the sun's shadow atlas, one compare per sample) and writes the
// 70×5 samples; the group's first invocation then reduces its column and
// folds it into the state, previous → next (ping-pong; read one frame later).
layout(local_size_x = SW_FEEDBACK_SAMPLES) in;

layout(binding = SW_FEEDBACK_UNIT_ALBEDO) uniform sampler2D t_albedo;
layout(binding = SW_FEEDBACK_UNIT_CLASS) uniform usampler2D t_class;
layout(binding = SW_FEEDBACK_UNIT_SHADOW) uniform sampler2DShadow t_shadow;
layout(binding = SW_FEEDBACK_IMAGE_PREVIOUS, rgba16f) uniform readonly image2D i_previous;
layout(binding = SW_FEEDBACK_IMAGE_NEXT, rgba16f) uniform writeonly image2D i_next;
layout(binding = SW_FEEDBACK_IMAGE_SAMPLES, rgba16f) uniform writeonly image2D i_samples;

layout(location = SW_FEEDBACK_LOC_BODY) uniform vec4 u_body;  // feet, height
layout(location = SW_FEEDBACK_LOC_RADIUS) uniform float u_radius;
layout(location = SW_FEEDBACK_LOC_VIEW_PROJECTION) uniform mat4 u_view_projection;
layout(location = SW_FEEDBACK_LOC_LIGHT_DIRECTION) uniform vec3 u_light_direction;
layout(location = SW_FEEDBACK_LOC_CASCADE_COUNT) uniform int u_cascade_count;
layout(location = SW_FEEDBACK_LOC_CASCADE_VIEW_PROJECTION) uniform mat4 u_cascade_view_projection[SW_SHADOW_MAX_CASCADES];
layout(location = SW_FEEDBACK_LOC_CASCADE_RECT) uniform vec4 u_cascade_rect[SW_SHADOW_MAX_CASCADES];

shared vec4 s_samples[SW_FEEDBACK_SAMPLES];

const float TAU = 6.2831853;

vec3 sw_feedback_direction(int d) {
    float phi = TAU * float(d) / float(SW_FEEDBACK_DIRECTIONS);
    return vec3(sin(phi), 0.0, cos(phi));
}

vec3 sw_feedback_sample_point(int column, int k) {
    vec3 feet = u_body.xyz;
    float height = u_body.w;
    if (column < SW_FEEDBACK_COLOUR_COLUMNS) {
        vec3 dir = sw_feedback_direction(column);
        float reach = height * (0.5 + 0.5 * float(k));
        return feet + dir * reach + vec3(0.0, 0.4 * height, 0.0);
    }
    int s = column - SW_FEEDBACK_COLOUR_COLUMNS;
    int ring = s / SW_FEEDBACK_DIRECTIONS, d = s % SW_FEEDBACK_DIRECTIONS;
    vec3 dir = sw_feedback_direction(d);
    vec3 tangent = vec3(dir.z, 0.0, -dir.x);
    float side = k == 1 ? -0.25 : k == 2 ? 0.25 : 0.0;
    float up = k == 3 ? 1.0 / 24.0 : k == 4 ? -1.0 / 24.0 : 0.0;
    float h = (float(ring) + 0.5) / float(SW_FEEDBACK_SHADOW_RINGS) + up;
    return feet + dir * u_radius + tangent * (side * u_radius) + vec3(0.0, h * height, 0.0);
}

// A colour sample: (material colour, valid).
vec4 sw_feedback_colour_sample(vec3 world) {
    vec4 clip = u_view_projection * vec4(world, 1.0);
    if (clip.w <= 0.0) return vec4(0.0);
    vec2 uv = clip.xy / clip.w * 0.5 + 0.5;
    if (any(lessThan(uv, vec2(0.0))) || any(greaterThan(uv, vec2(1.0)))) return vec4(0.0);
    ivec2 size = textureSize(t_class, 0);
    ivec2 pixel = min(ivec2(uv * vec2(size)), size - 1);
    uint cls = texelFetch(t_class, pixel, 0).r & uint(SW_CLASS_MASK);
    // The sky and the characters (lit, toon, unlit) are not surroundings.
    if (cls != uint(SW_CLASS_GROUND) && cls != uint(SW_CLASS_STAGE)) return vec4(0.0);
    return vec4(texelFetch(t_albedo, pixel, 0).rgb, 1.0);
}

// A shadow sample: (pass rate, validity, control). The point is lifted
// towards the sun past her body so that she does not shadow her own samples.
vec4 sw_feedback_shadow_sample(vec3 world) {
    vec4 w = vec4(world + normalize(u_light_direction) * (3.0 * u_radius), 1.0);
    for (int c = 0; c < u_cascade_count; c++) {
        vec4 light_clip = u_cascade_view_projection[c] * w;
        vec3 p = light_clip.xyz / light_clip.w * 0.5 + 0.5;
        vec4 rect = u_cascade_rect[c];
        if (any(lessThan(p.xy, vec2(rect.w))) || any(greaterThan(p.xy, vec2(1.0 - rect.w))) || p.z < 0.0 || p.z > 1.0)
            continue;
        float lit = texture(t_shadow, vec3(rect.xy + p.xy * rect.z, p.z - 0.0015));
        return vec4(lit, 1.0, 1.0, 0.0);
    }
    return vec4(0.0);
}

void main() {
    int column = int(gl_WorkGroupID.x), k = int(gl_LocalInvocationID.x);
    vec3 world = sw_feedback_sample_point(column, k);
    vec4 s = column < SW_FEEDBACK_COLOUR_COLUMNS ? sw_feedback_colour_sample(world) : sw_feedback_shadow_sample(world);
    s_samples[k] = s;
    imageStore(i_samples, ivec2(column, k), s);
    barrier();
    if (k != 0) return;
    vec4 state = imageLoad(i_previous, ivec2(column, 0));
    if (column < SW_FEEDBACK_COLOUR_COLUMNS) {
        // sw__feedback_colour_mean, sw__feedback_colour_update.
        vec3 sum = vec3(0.0);
        int n = 0;
        for (int i = 0; i < SW_FEEDBACK_SAMPLES; i++)
            if (s_samples[i].a > 0.5) sum += s_samples[i].rgb, n++;
        if (n > 0) state += float(SW_FEEDBACK_UPDATE_PERCENT) / 100.0 * (vec4(sum / float(n), 1.0) - state);
    } else {
        // sw__feedback_shadow_mean, sw__feedback_shadow_update.
        float sum = 0.0, c = 1.0;
        int n = 0;
        for (int i = 0; i < SW_FEEDBACK_SAMPLES; i++)
            if (s_samples[i].g > 0.001) sum += s_samples[i].r, c = s_samples[i].b, n++;
        float drive = n > 0 ? c * (1.0 - sum / float(n)) - state.x : 0.0;
        if (n > 0 && c > 999.0) {
            state.xy = vec2(clamp(drive, 0.0, 1.0));
        } else {
            float v = 2.0 * state.y - 1.0;
            float v_new = (1.0 + 2.0 * v * v) * (v + drive);
            state.xy = clamp(vec2(state.x, 0.5) + 0.5 * v_new, 0.0, 1.0);
        }
    }
    imageStore(i_next, ivec2(column, 0), state);
}
