// Shadow map pass: depth only, from the light. Toon faces fold their
// tagged vertices here too, as in gbuffer.vert, so hidden patches cast no
// shadow. The UVs and colour are for the alpha-tested program
// (shadow_mask.frag), whose Material block names u_fold_mask: hence
// u_caster_*; the depth-only program ignores them.
layout(location = SW_ATTR_POSITION) in vec3 a_position;
layout(location = SW_ATTR_UV0) in vec2 a_uv0;
layout(location = SW_ATTR_UV1) in vec2 a_uv1;
layout(location = SW_ATTR_COLOR) in vec4 a_color;
layout(location = SW_SHADOW_LOC_LIGHT_VIEW_PROJECTION) uniform mat4 u_light_view_projection;
layout(location = SW_SHADOW_LOC_FOLD_MASK) uniform int u_caster_fold_mask;
layout(location = SW_SHADOW_LOC_FOLD_UV_SET) uniform int u_caster_fold_uv_set;
layout(location = SW_SHADOW_LOC_FOLD_POINT) uniform vec3 u_caster_fold_point;

out ShadowOut {
    vec2 uv0;
    vec2 uv1;
    vec4 color;
} o;

void main() {
    vec3 position = a_position;
    if (u_caster_fold_mask != 0) {
        float tag = floor(u_caster_fold_uv_set == 1 ? a_uv1.x : a_uv0.x);
        if (tag >= 0.0 && tag < 31.5 && ((u_caster_fold_mask >> int(tag)) & 1) != 0) position = u_caster_fold_point;
    }
    o.uv0 = a_uv0;
    o.uv1 = a_uv1;
    o.color = a_color;
    gl_Position = u_light_view_projection * vec4(position, 1.0);
}
