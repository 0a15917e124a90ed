// Compute skinning: one invocation per vertex, 64 per group (the group size
// UE, Unity and Godot use). Reads the bind-pose streams and the
// influences in their imported formats, writes the deformed streams into
// buffers the renderer binds as vertex attributes.
layout(local_size_x = SW_SKIN_GROUP_SIZE) in;

// Bind pose: positions (3 floats per vertex) at 0, normals at
// u_offsets.x, tangents (4 floats) at u_offsets.y, in floats.
layout(std430, binding = SW_SKIN_BUFFER_REST) readonly buffer Rest { float rest[]; };
// Joints (u8 or u16, packed) from byte 0, weights (f32, u8 or u16) from
// word u_offsets.z.
layout(std430, binding = SW_SKIN_BUFFER_INFLUENCES) readonly buffer Influences { uint influences[]; };
layout(std430, binding = SW_SKIN_BUFFER_OUT_POSITIONS) writeonly buffer OutPositions { float out_positions[]; };
// Normals at 0, tangents at u_offsets.w (floats).
layout(std430, binding = SW_SKIN_BUFFER_OUT_FRAMES) writeonly buffer OutFrames { float out_frames[]; };

layout(location = SW_SKIN_LOC_VERTEX_COUNT) uniform uint u_vertex_count;
layout(location = SW_SKIN_LOC_OFFSETS) uniform uvec4 u_offsets;
layout(location = SW_SKIN_LOC_FIRST_VERTEX) uniform uint u_first_vertex;
#ifdef SW_INSTANCE_LIST
// GPU-driven crowds: the rows of work groups skin the listed instances
// (the visible characters at one level of detail), dispatched indirectly.
layout(std430, binding = SW_SKIN_BUFFER_INSTANCES) readonly buffer InstanceList { uint instance_list[]; };
layout(location = SW_SKIN_LOC_LIST_OFFSET) uniform uint u_list_offset;
#endif

uint sw_read_u8(uint byte_index) { return (influences[byte_index >> 2u] >> ((byte_index & 3u) * 8u)) & 0xFFu; }
uint sw_read_u16(uint byte_index) { return (influences[byte_index >> 2u] >> ((byte_index & 2u) * 8u)) & 0xFFFFu; }

#if SW_INFLUENCES > 0
uint sw_joint(uint v, uint k) {
#ifdef SW_JOINTS_U8
    return sw_read_u8(v * uint(SW_INFLUENCES) + k);
#else
    return sw_read_u16(2u * (v * uint(SW_INFLUENCES) + k));
#endif
}

float sw_weight(uint v, uint k) {
    uint i = v * uint(SW_INFLUENCES) + k;
#if SW_WEIGHTS == SW_SKIN_WEIGHTS_U8
    return float(sw_read_u8(4u * u_offsets.z + i)) / 255.0;
#elif SW_WEIGHTS == SW_SKIN_WEIGHTS_U16
    return float(sw_read_u16(4u * u_offsets.z + 2u * i)) / 65535.0;
#else
    return uintBitsToFloat(influences[u_offsets.z + i]);
#endif
}
#endif

void main() {
    uint v = u_first_vertex + gl_GlobalInvocationID.x;
    if (v >= u_vertex_count) return;
    // Crowds: work group row y skins instance y, with its own palette
    // (u_joint_count joints further on per instance) into its own outputs
    // (u_vertex_count vertices further on). Row 0 is the one character.
#ifdef SW_INSTANCE_LIST
    uint instance = instance_list[u_list_offset + gl_WorkGroupID.y];
#else
    uint instance = gl_WorkGroupID.y;
#endif
    uint joint0 = instance * u_joint_count;
    uint o = instance * u_vertex_count + v;

    vec3 position = vec3(rest[3u * v], rest[3u * v + 1u], rest[3u * v + 2u]);
    vec3 normal = vec3(0.0), tangent = vec3(0.0);
    float handedness = 0.0;
#ifdef SW_NORMALS
    uint n = u_offsets.x + 3u * v;
    normal = vec3(rest[n], rest[n + 1u], rest[n + 2u]);
#endif
#ifdef SW_TANGENTS
    uint t = u_offsets.y + 4u * v;
    tangent = vec3(rest[t], rest[t + 1u], rest[t + 2u]);
    handedness = rest[t + 3u];
#endif
#ifdef SW_MORPH
    sw_morph(v, position, normal, tangent);
#endif

#if SW_INFLUENCES > 0
    SwBlend b = sw_blend_begin();
    vec4 pivot = sw_pivot(joint0 + sw_clamp_joint(sw_joint(v, 0u)));
    for (uint k = 0u; k < uint(SW_INFLUENCES); k++)
        sw_blend_add(b, joint0 + sw_clamp_joint(sw_joint(v, k)), sw_weight(v, k), pivot);
    sw_blend_apply(b, position, normal, tangent);
#elif defined(SW_RIGID)
    SwBlend b = sw_blend_begin();
    sw_blend_add(b, joint0, 1.0, sw_pivot(joint0));
    sw_blend_apply(b, position, normal, tangent);
#endif

    out_positions[3u * o] = position.x;
    out_positions[3u * o + 1u] = position.y;
    out_positions[3u * o + 2u] = position.z;
#ifdef SW_NORMALS
    normal = sw_normalize_or_zero(normal);
    out_frames[3u * o] = normal.x;
    out_frames[3u * o + 1u] = normal.y;
    out_frames[3u * o + 2u] = normal.z;
#endif
#ifdef SW_TANGENTS
    tangent = sw_normalize_or_zero(tangent);
    uint t_out = u_offsets.w + 4u * o;
    out_frames[t_out] = tangent.x;
    out_frames[t_out + 1u] = tangent.y;
    out_frames[t_out + 2u] = tangent.z;
    out_frames[t_out + 3u] = handedness;
#endif
}
