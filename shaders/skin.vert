// Vertex-shader skinning (the classic path of animation cores): the bind pose and influences arrive as
// vertex attributes (joints as integers through glVertexAttribIPointer,
// u8/u16 weights normalised by the attribute fetch), the palette from the
// same buffer as the compute path. Drawn as points with transform feedback
// capturing the outputs, it fills the same buffers as skin.comp.
layout(location = SW_SKIN_ATTR_POSITION) in vec3 a_position;
layout(location = SW_SKIN_ATTR_NORMAL) in vec3 a_normal;
layout(location = SW_SKIN_ATTR_TANGENT) in vec4 a_tangent;
layout(location = SW_SKIN_ATTR_JOINTS0) in uvec4 a_joints0;
layout(location = SW_SKIN_ATTR_JOINTS1) in uvec4 a_joints1;
layout(location = SW_SKIN_ATTR_WEIGHTS0) in vec4 a_weights0;
layout(location = SW_SKIN_ATTR_WEIGHTS1) in vec4 a_weights1;

out vec3 tf_position;
out vec3 tf_normal;
out vec4 tf_tangent;

void main() {
    vec3 position = a_position, normal = vec3(0.0), tangent = vec3(0.0);
#ifdef SW_NORMALS
    normal = a_normal;
#endif
#ifdef SW_TANGENTS
    tangent = a_tangent.xyz;
#endif
#ifdef SW_MORPH
    sw_morph(uint(gl_VertexID), position, normal, tangent);
#endif

#if SW_INFLUENCES > 0
    // Two attributes of 4 hold SW_SKIN_MAX_INFLUENCES (8) influences.
    uint joints[SW_SKIN_MAX_INFLUENCES] = uint[SW_SKIN_MAX_INFLUENCES](
        a_joints0.x, a_joints0.y, a_joints0.z, a_joints0.w, a_joints1.x, a_joints1.y, a_joints1.z, a_joints1.w);
    float weights[SW_SKIN_MAX_INFLUENCES] = float[SW_SKIN_MAX_INFLUENCES](
        a_weights0.x, a_weights0.y, a_weights0.z, a_weights0.w, a_weights1.x, a_weights1.y, a_weights1.z, a_weights1.w);
    SwBlend b = sw_blend_begin();
    vec4 pivot = sw_pivot(sw_clamp_joint(joints[0]));
    for (int k = 0; k < SW_INFLUENCES; k++) sw_blend_add(b, sw_clamp_joint(joints[k]), weights[k], pivot);
    sw_blend_apply(b, position, normal, tangent);
#elif defined(SW_RIGID)
    SwBlend b = sw_blend_begin();
    sw_blend_add(b, 0u, 1.0, sw_pivot(0u));
    sw_blend_apply(b, position, normal, tangent);
#endif

    tf_position = position;
    tf_normal = sw_normalize_or_zero(normal);
    tf_tangent = vec4(sw_normalize_or_zero(tangent), a_tangent.w);
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
