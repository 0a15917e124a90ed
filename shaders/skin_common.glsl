// Shared by skin.comp and skin.vert: the palette, morph targets and the
// LBS / DQS blend, written to match the CPU job (src/skin/skin_job.c)
// operation for operation.
//
// The numbers shared with the C side (bindings, locations, strides) are
// the SW_SKIN_* names of src/gpu/skin_interface.h, which the program
// builder puts in front of this file.
//
// Defines set by the program builder (src/gpu/gpu_skin.c):
//   SW_INFLUENCES     0..8 (0: not skinned)
//   SW_RIGID          not skinned, moved by palette joint 0 (a node's world matrix)
//   SW_DQS            dual quaternion skinning (else LBS)
//   SW_STRETCH        DQS with a bind-space stretch per joint
//   SW_COFACTOR       LBS normals through the cofactor matrix
//   SW_NORMALS, SW_TANGENTS  the streams present
//   SW_MORPH          morph targets present
//   SW_WEIGHTS        the weight format, SW_SKIN_WEIGHTS_*
//   SW_JOINTS_U8      u8 joints (else u16)

// Palette: LBS 3 rows per joint; DQS 2 vec4 (real, dual) per joint, then,
// with SW_STRETCH, 3 stretch rows per joint starting at u_stretch_base.
layout(std430, binding = SW_SKIN_BUFFER_PALETTE) readonly buffer Palette { vec4 palette[]; };

#ifdef SW_MORPH
// The active targets of this dispatch (nonzero weights only): weight i is
// morph_weights[i / 4][i % 4]; morph_offsets[i] holds the float offsets of
// its position, normal and tangent deltas in `deltas` (SW_SKIN_OFFSET_NONE:
// none).
layout(std140, binding = SW_SKIN_UNIFORM_MORPH) uniform Morph {
    uvec4 morph_count;
    vec4 morph_weights[SW_SKIN_MAX_ACTIVE_TARGETS / 4];
    uvec4 morph_offsets[SW_SKIN_MAX_ACTIVE_TARGETS];
};
layout(std430, binding = SW_SKIN_BUFFER_MORPH_DELTAS) readonly buffer MorphDeltas { float deltas[]; };

vec3 sw_delta(uint offset, uint v) {
    uint i = offset + 3u * v;
    return vec3(deltas[i], deltas[i + 1u], deltas[i + 2u]);
}

// Bind-space morph: base + Σ wᵢ·δᵢ for every stream present.
void sw_morph(uint v, inout vec3 position, inout vec3 normal, inout vec3 tangent) {
    const uint none = uint(SW_SKIN_OFFSET_NONE);
    for (uint i = 0u; i < morph_count.x; i++) {
        float w = morph_weights[i >> 2u][i & 3u];
        uvec4 o = morph_offsets[i];
        if (o.x != none) position += w * sw_delta(o.x, v);
#ifdef SW_NORMALS
        if (o.y != none) normal += w * sw_delta(o.y, v);
#endif
#ifdef SW_TANGENTS
        if (o.z != none) tangent += w * sw_delta(o.z, v);
#endif
    }
}
#endif

layout(location = SW_SKIN_LOC_JOINT_COUNT) uniform uint u_joint_count;
layout(location = SW_SKIN_LOC_STRETCH_BASE) uniform uint u_stretch_base;

// Out-of-range joints read joint 0, as on the CPU: bad data cannot read
// outside the palette.
uint sw_clamp_joint(uint j) { return j < u_joint_count ? j : 0u; }

vec3 sw_rotate(vec4 q, vec3 v) {
    vec3 t = 2.0 * cross(q.xyz, v);
    return v + q.w * t + cross(q.xyz, t);
}

vec4 sw_quat_mul(vec4 a, vec4 b) {
    return vec4(a.w * b.xyz + b.w * a.xyz + cross(a.xyz, b.xyz), a.w * b.w - dot(a.xyz, b.xyz));
}

// The blend state of one vertex: LBS rows, or DQS real/dual sums plus the
// stretch rows.
struct SwBlend {
    vec4 r0, r1, r2;
    vec4 real, dual;
};

SwBlend sw_blend_begin() {
    SwBlend b;
    b.r0 = vec4(0.0); b.r1 = vec4(0.0); b.r2 = vec4(0.0);
    b.real = vec4(0.0); b.dual = vec4(0.0);
    return b;
}

// Adds one influence. `pivot` is the first influence's real part: q and −q
// are the same rotation, so weights of the other hemisphere are negated.
void sw_blend_add(inout SwBlend b, uint joint, float w, vec4 pivot) {
#ifdef SW_DQS
    uint q = uint(SW_SKIN_DQS_VEC4S) * joint;
    vec4 real = palette[q], dual = palette[q + 1u];
    float signed_w = dot(real, pivot) < 0.0 ? -w : w;
    b.real += signed_w * real;
    b.dual += signed_w * dual;
#ifdef SW_STRETCH
    uint s = u_stretch_base + uint(SW_SKIN_STRETCH_ROWS) * joint;
    b.r0 += w * palette[s]; b.r1 += w * palette[s + 1u]; b.r2 += w * palette[s + 2u];
#endif
#else
    uint s = uint(SW_SKIN_LBS_ROWS) * joint;
    b.r0 += w * palette[s]; b.r1 += w * palette[s + 1u]; b.r2 += w * palette[s + 2u];
#endif
}

vec4 sw_pivot(uint joint) {
#ifdef SW_DQS
    return palette[uint(SW_SKIN_DQS_VEC4S) * joint];
#else
    return vec4(0.0);
#endif
}

vec3 sw_apply_point(vec4 r0, vec4 r1, vec4 r2, vec3 p) {
    return vec3(dot(r0.xyz, p) + r0.w, dot(r1.xyz, p) + r1.w, dot(r2.xyz, p) + r2.w);
}
vec3 sw_apply_dir(vec4 r0, vec4 r1, vec4 r2, vec3 d) { return vec3(dot(r0.xyz, d), dot(r1.xyz, d), dot(r2.xyz, d)); }

vec3 sw_normalize_or_zero(vec3 v) {
    float len2 = dot(v, v);
    return len2 > 0.0 ? v * inversesqrt(len2) : vec3(0.0);
}

// The normal under the blended linear part A: A·n (no inverse transpose,
// as UE, Unity and Godot skin), or with SW_COFACTOR cof(A)·n, cof(A) = det(A)·A⁻ᵀ with columns
// a1×a2, a2×a0, a0×a1, negated when A mirrors so normals stay outward.
vec3 sw_linear_normal(SwBlend b, vec3 normal) {
#ifdef SW_COFACTOR
    vec3 a0 = vec3(b.r0.x, b.r1.x, b.r2.x), a1 = vec3(b.r0.y, b.r1.y, b.r2.y), a2 = vec3(b.r0.z, b.r1.z, b.r2.z);
    vec3 c0 = cross(a1, a2), c1 = cross(a2, a0), c2 = cross(a0, a1);
    vec3 n = normal.x * c0 + normal.y * c1 + normal.z * c2;
    return dot(a0, c0) < 0.0 ? -n : n;
#else
    return sw_apply_dir(b.r0, b.r1, b.r2, normal);
#endif
}

// Moves one vertex by the finished blend.
void sw_blend_apply(SwBlend b, inout vec3 position, inout vec3 normal, inout vec3 tangent) {
#ifdef SW_DQS
#ifdef SW_STRETCH
    position = sw_apply_point(b.r0, b.r1, b.r2, position);
    normal = sw_linear_normal(b, normal);
    tangent = sw_apply_dir(b.r0, b.r1, b.r2, tangent);
#endif
    // Normalise the blended dual quaternion (real·dual = 0 as well).
    float len2 = dot(b.real, b.real);
    vec4 real = vec4(0.0, 0.0, 0.0, 1.0), dual = vec4(0.0);
    if (len2 > 0.0) {
        float inv = 1.0 / sqrt(len2);
        real = b.real * inv;
        dual = b.dual * inv;
        dual -= dot(real, dual) * real;
    }
    vec3 translation = 2.0 * sw_quat_mul(dual, vec4(-real.xyz, real.w)).xyz;
    position = sw_rotate(real, position) + translation;
    normal = sw_rotate(real, normal);
    tangent = sw_rotate(real, tangent);
#else
    position = sw_apply_point(b.r0, b.r1, b.r2, position);
    normal = sw_linear_normal(b, normal);
    tangent = sw_apply_dir(b.r0, b.r1, b.r2, tangent);
#endif
}
