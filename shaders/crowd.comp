// GPU-driven crowds (src/gpu/gpu_crowd.c, sinew/gpu_crowd.h): one stage
// per program, chosen by SW_CROWD_SAMPLE, _WORLD, _SKIN or _CULL. Each
// follows a C function operation for operation: the sampler of
// src/anim/clip.c (sw_track_sample), sw_transform_to_mat34 and
// sw_mat34_mul (src/math), sw_gpu_crowd_classify (src/gpu/crowd_cull.c).
layout(local_size_x = SW_CROWD_GROUP_SIZE) in;

layout(std430, binding = SW_CROWD_BUFFER_CHARACTERS) readonly buffer Characters { vec4 characters[]; };
layout(location = SW_CROWD_LOC_CHARACTERS) uniform uint u_characters;
layout(location = SW_CROWD_LOC_NODE_COUNT) uniform uint u_node_count;

// Rows of a 3×4 matrix.
struct Mat34 { vec4 r0, r1, r2; };

// sw_mat34_mul: a·b, b's implicit bottom row (0 0 0 1) adding a's translation.
Mat34 mat34_mul(Mat34 a, Mat34 b) {
    Mat34 m;
    m.r0 = a.r0.x * b.r0 + a.r0.y * b.r1 + a.r0.z * b.r2 + vec4(0.0, 0.0, 0.0, a.r0.w);
    m.r1 = a.r1.x * b.r0 + a.r1.y * b.r1 + a.r1.z * b.r2 + vec4(0.0, 0.0, 0.0, a.r1.w);
    m.r2 = a.r2.x * b.r0 + a.r2.y * b.r1 + a.r2.z * b.r2 + vec4(0.0, 0.0, 0.0, a.r2.w);
    return m;
}

Mat34 placement_of(uint c) { return Mat34(characters[4u * c + 1u], characters[4u * c + 2u], characters[4u * c + 3u]); }

#ifdef SW_CROWD_SAMPLE
layout(std430, binding = SW_CROWD_BUFFER_TRACKS) readonly buffer Tracks { uvec4 tracks[]; };
layout(std430, binding = SW_CROWD_BUFFER_KEYS) readonly buffer Keys { float keys[]; };
layout(std430, binding = SW_CROWD_BUFFER_NODE_TRACKS) readonly buffer NodeTracks { uint node_tracks[]; };
layout(std430, binding = SW_CROWD_BUFFER_REST) readonly buffer Rest { vec4 rest[]; };
layout(std430, binding = SW_CROWD_BUFFER_LOCALS) writeonly buffer Locals { vec4 locals[]; };
layout(location = SW_CROWD_LOC_TIME) uniform float u_time;
layout(location = SW_CROWD_LOC_LOOPING) uniform uint u_looping;
layout(location = SW_CROWD_LOC_CLIP_COUNT) uniform uint u_clip_count;

// sw_clip_time: wrapped into [0, duration) when looping.
float clip_time(float duration, float t) {
    if (u_looping == 0u) return t;
    if (!(duration > 0.0)) return 0.0;
    float r = t - duration * floor(t / duration);
    if (r < 0.0) r += duration;
    return r < duration ? r : 0.0;
}

// sw__slerp_weight: the series of sw_quat_slerp_fast, in its order.
float slerp_weight(float tau, float d) {
    float tau2 = tau * tau;
    float r = 1.0 + d * ((tau2 - 25.0) * (1.14434643 / 55.0));
    r = 1.0 + d * ((tau2 - 16.0) * (1.0 / 36.0)) * r;
    r = 1.0 + d * ((tau2 - 9.0) * (1.0 / 21.0)) * r;
    r = 1.0 + d * ((tau2 - 4.0) * (1.0 / 10.0)) * r;
    r = 1.0 + d * ((tau2 - 1.0) * (1.0 / 3.0)) * r;
    return tau * r;
}

vec4 slerp_fast(vec4 a, vec4 b, float t) {
    float cos_theta = dot(a, b);
    if (cos_theta < 0.0) {
        b = -b;
        cos_theta = -cos_theta;
    }
    float y = sqrt(0.5 + 0.5 * cos_theta);
    float d = y - 1.0;
    float k = 0.5 / y;
    float wa = slerp_weight(2.0 - 2.0 * t, d) * k;
    float wb = slerp_weight(2.0 * t, d) * k;
    vec4 q = wa * a + wb * b;
    return q * (1.5 - 0.5 * dot(q, q));
}

vec4 read4(uint at, uint n) {
    return vec4(keys[at], keys[at + 1u], keys[at + 2u], n == 4u ? keys[at + 3u] : 0.0);
}

// Where a time falls in a track's keys (sw__locate in src/anim/clip.c):
// the ends held, else the one interval times[key] <= t < times[key + 1].
// Where the CPU's cursor remembers the last interval, this guesses it from
// the keys' mean spacing and probes it first; a wrong guess still narrows
// the binary search, so the interval found is the same.
struct KeyPos { uint key; bool at_key; float s; };

KeyPos locate(uint times, uint n, float t) {
    KeyPos pos = KeyPos(0u, true, 0.0);
    if (n == 1u || !(t > keys[times])) return pos;
    if (t >= keys[times + n - 1u]) {
        pos.key = n - 1u;
        return pos;
    }
    float first = keys[times], last = keys[times + n - 1u];
    uint guess = uint(clamp((t - first) / (last - first) * float(n - 1u), 0.0, float(n - 2u)));
    uint lo = 0u, hi = n - 1u;
    if (keys[times + guess] <= t) {
        lo = guess;
        if (t < keys[times + guess + 1u]) hi = guess + 1u;
    } else {
        hi = guess;
    }
    while (hi - lo > 1u) {
        uint mid = lo + (hi - lo) / 2u;
        if (keys[times + mid] <= t) lo = mid;
        else hi = mid;
    }
    pos.key = lo;
    pos.at_key = t == keys[times + lo];
    pos.s = (t - keys[times + lo]) / (keys[times + lo + 1u] - keys[times + lo]);
    return pos;
}

// sw__evaluate for translation, rotation and scale tracks.
vec4 evaluate(uint track, KeyPos pos, vec4 rest_value) {
    uvec4 a = tracks[2u * track], b = tracks[2u * track + 1u];
    uint path = a.x, interpolation = a.y, cc = a.w;
    uint times = b.x;
    bool cubic = interpolation == uint(SW_CROWD_INTERP_CUBIC);
    uint stride = cubic ? 3u * cc : cc;
    uint values = b.y + (cubic ? cc : 0u);
    uint key = pos.key;
    float s = pos.s;
    vec4 va = read4(values + key * stride, cc);
    vec4 result;
    if (pos.at_key || interpolation == uint(SW_CROWD_INTERP_STEP)) {
        result = va;
    } else if (!cubic) {
        vec4 vb = read4(values + (key + 1u) * stride, cc);
        result = path == uint(SW_CROWD_PATH_ROTATION) ? slerp_fast(va, vb, s) : va + (vb - va) * s;
    } else {
        vec4 vb = read4(values + (key + 1u) * stride, cc);
        vec4 out_tangent = read4(values + key * stride + cc, cc);
        vec4 in_tangent = read4(values + (key + 1u) * stride - cc, cc);
        float s2 = s * s, s3 = s2 * s, df = keys[times + key + 1u] - keys[times + key];
        float h00 = 2.0 * s3 - 3.0 * s2 + 1.0;
        float h10 = (s3 - 2.0 * s2 + s) * df;
        float h01 = -2.0 * s3 + 3.0 * s2;
        float h11 = (s3 - s2) * df;
        result = h00 * va + h10 * out_tangent + h01 * vb + h11 * in_tangent;
        if (path == uint(SW_CROWD_PATH_ROTATION)) {
            float len2 = dot(result, result);
            result = len2 > 0.0 ? result * (1.0 / sqrt(len2)) : vec4(0.0, 0.0, 0.0, 1.0);
        }
    }
    return cc == 4u ? result : vec4(result.xyz, rest_value.w);
}

// One node's property: located once for tracks that share their times
// with the one before (as the CPU shares a lookup), then evaluated.
void sample_property(uint track, float t, inout uint last_times, inout KeyPos pos, inout vec4 value) {
    if (track == uint(SW_CROWD_NONE)) return;
    uvec4 a = tracks[2u * track], b = tracks[2u * track + 1u];
    if (b.x != last_times) {
        pos = locate(b.x, a.z, t);
        last_times = b.x;
    }
    value = evaluate(track, pos, value);
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= u_characters * u_node_count) return;
    uint c = i / u_node_count, node = i % u_node_count;
    vec4 t = rest[3u * node], r = rest[3u * node + 1u], s = rest[3u * node + 2u];
    uint clip = floatBitsToUint(characters[4u * c].x);
    if (clip < u_clip_count) {
        float time = clip_time(keys[clip], characters[4u * c].y + characters[4u * c].z * u_time);
        uint at = 3u * (clip * u_node_count + node);
        uint last_times = uint(SW_CROWD_NONE);
        KeyPos pos = KeyPos(0u, true, 0.0);
        sample_property(node_tracks[at], time, last_times, pos, t);
        sample_property(node_tracks[at + 1u], time, last_times, pos, r);
        sample_property(node_tracks[at + 2u], time, last_times, pos, s);
    }
    locals[3u * i] = t;
    locals[3u * i + 1u] = r;
    locals[3u * i + 2u] = s;
}
#endif

#ifdef SW_CROWD_WORLD
layout(std430, binding = SW_CROWD_BUFFER_NODES) readonly buffer Nodes { uvec4 nodes[]; };
layout(std430, binding = SW_CROWD_BUFFER_NODE_MATRICES) readonly buffer NodeMatrices { vec4 node_matrices[]; };
layout(std430, binding = SW_CROWD_BUFFER_LOCALS) readonly buffer Locals { vec4 locals[]; };
layout(std430, binding = SW_CROWD_BUFFER_WORLD) buffer World { vec4 world[]; };
layout(std430, binding = SW_CROWD_BUFFER_BOUNDS) writeonly buffer Bounds { vec4 bounds[]; };
layout(location = SW_CROWD_LOC_MARGIN) uniform float u_margin;

// sw_transform_to_mat34: the rotation's columns scaled, then the translation.
Mat34 trs_to_mat34(vec4 t, vec4 q, vec4 s) {
    float xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z;
    float xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z;
    float wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z;
    Mat34 m;
    m.r0 = vec4((1.0 - 2.0 * (yy + zz)) * s.x, 2.0 * (xy - wz) * s.y, 2.0 * (xz + wy) * s.z, t.x);
    m.r1 = vec4(2.0 * (xy + wz) * s.x, (1.0 - 2.0 * (xx + zz)) * s.y, 2.0 * (yz - wx) * s.z, t.y);
    m.r2 = vec4(2.0 * (xz - wy) * s.x, 2.0 * (yz + wx) * s.y, (1.0 - 2.0 * (xx + yy)) * s.z, t.z);
    return m;
}

void main() {
    uint c = gl_GlobalInvocationID.x;
    if (c >= u_characters) return;
    Mat34 place = placement_of(c);
    uint base = c * u_node_count;
    vec3 lo = vec3(3.0e38), hi = vec3(-3.0e38);
    for (uint node = 0u; node < u_node_count; node++) {
        uvec4 info = nodes[node];
        uint i = base + node;
        Mat34 local = (info.y & uint(SW_CROWD_NODE_MATRIX)) != 0u
                          ? Mat34(node_matrices[3u * node], node_matrices[3u * node + 1u], node_matrices[3u * node + 2u])
                          : trs_to_mat34(locals[3u * i], locals[3u * i + 1u], locals[3u * i + 2u]);
        Mat34 m = local;
        if (info.x != uint(SW_CROWD_NONE)) {
            uint p = 3u * (base + info.x);
            m = mat34_mul(Mat34(world[p], world[p + 1u], world[p + 2u]), local);
        }
        world[3u * i] = m.r0;
        world[3u * i + 1u] = m.r1;
        world[3u * i + 2u] = m.r2;
        if ((info.y & uint(SW_CROWD_NODE_BOUNDS)) != 0u) {
            vec4 p = vec4(m.r0.w, m.r1.w, m.r2.w, 1.0);
            vec3 placed = vec3(dot(place.r0, p), dot(place.r1, p), dot(place.r2, p));
            lo = min(lo, placed);
            hi = max(hi, placed);
        }
    }
    bounds[c] = lo.x <= hi.x ? vec4(0.5 * (lo + hi), 0.5 * length(hi - lo) + u_margin) : vec4(place.r0.w, place.r1.w, place.r2.w, u_margin);
}
#endif

#ifdef SW_CROWD_SKIN
layout(std430, binding = SW_CROWD_BUFFER_SKIN_JOINTS) readonly buffer SkinJoints { uint skin_joints[]; };
layout(std430, binding = SW_CROWD_BUFFER_INVERSE_BINDS) readonly buffer InverseBinds { vec4 inverse_binds[]; };
layout(std430, binding = SW_CROWD_BUFFER_WORLD) readonly buffer World { vec4 world[]; };
layout(std430, binding = SW_CROWD_BUFFER_PALETTE) writeonly buffer Palette { vec4 palette[]; };
layout(location = SW_CROWD_LOC_JOINT_BASE) uniform uint u_joint_base;
layout(location = SW_CROWD_LOC_JOINT_COUNT) uniform uint u_joint_count;

// S = placement · (world · inverse bind), as sw_pose_update_skins and
// sw_gpu_model_palette_pose multiply.
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= u_characters * u_joint_count) return;
    uint c = i / u_joint_count, j = i % u_joint_count;
    uint w = 3u * (c * u_node_count + skin_joints[u_joint_base + j]);
    uint b = 3u * (u_joint_base + j);
    Mat34 s = mat34_mul(Mat34(world[w], world[w + 1u], world[w + 2u]),
                        Mat34(inverse_binds[b], inverse_binds[b + 1u], inverse_binds[b + 2u]));
    s = mat34_mul(placement_of(c), s);
    palette[3u * i] = s.r0;
    palette[3u * i + 1u] = s.r1;
    palette[3u * i + 2u] = s.r2;
}
#endif

#ifdef SW_CROWD_CULL
layout(std430, binding = SW_CROWD_BUFFER_BOUNDS) readonly buffer Bounds { vec4 bounds[]; };
layout(std430, binding = SW_CROWD_BUFFER_PRIMITIVES) readonly buffer Primitives { uvec4 primitives[]; };
layout(std430, binding = SW_CROWD_BUFFER_COMMANDS) writeonly buffer Commands { uint commands[]; };
layout(std430, binding = SW_CROWD_BUFFER_COUNTS) buffer Counts { uint counts[]; };
layout(std430, binding = SW_CROWD_BUFFER_LISTS) writeonly buffer Lists { uint lists[]; };
layout(location = SW_CROWD_LOC_PRIMITIVES) uniform uint u_primitives;
layout(location = SW_CROWD_LOC_DEPTH_ROW) uniform vec4 u_depth_row;
layout(location = SW_CROWD_LOC_LOD) uniform vec2 u_lod; // projection scale, threshold
layout(location = SW_CROWD_LOC_PLANES) uniform vec4 u_planes[SW_CROWD_PLANES];

// sw_gpu_crowd_classify: −1 outside, else the level.
int classify(vec4 sphere) {
    for (int p = 0; p < SW_CROWD_PLANES; p++) {
        vec4 pl = u_planes[p];
        if (pl.x * sphere.x + pl.y * sphere.y + pl.z * sphere.z + pl.w < -sphere.w) return -1;
    }
    float depth = u_depth_row.x * sphere.x + u_depth_row.y * sphere.y + u_depth_row.z * sphere.z + u_depth_row.w;
    if (depth <= sphere.w) return 0;
    return sphere.w * u_lod.x / depth >= u_lod.y ? 0 : 1;
}

void main() {
    uint c = gl_GlobalInvocationID.x;
    if (c >= u_characters) return;
    int lod = classify(bounds[c]);
    for (uint level = 0u; level < uint(SW_CROWD_LODS); level++) {
        for (uint p = 0u; p < u_primitives; p++) {
            uvec4 prim = primitives[level * u_primitives + p];
            uint at = uint(SW_CROWD_COMMAND_UINTS) * ((level * u_primitives + p) * u_characters + c);
            commands[at] = prim.x;
            commands[at + 1u] = lod == int(level) ? 1u : 0u;
            commands[at + 2u] = 0u;
            commands[at + 3u] = c * prim.y;
            commands[at + 4u] = c;
        }
    }
    if (lod >= 0) {
        uint slot = atomicAdd(counts[lod], 1u);
        lists[uint(lod) * u_characters + slot] = c;
    }
}
#endif
