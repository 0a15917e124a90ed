// The material block (std140): every value of one material that the
// G-buffer and toon passes read, written once per material when the scene
// is set (src/render/material.c, sw__material_block, which holds this
// layout member by member), so a draw binds a block instead of setting
// uniforms. Pasted after render_interface.h into gbuffer.vert,
// gbuffer.frag and toon.frag. The toon values are those of the toon data
// the material draws with (as read, else derived); the G-buffer pass
// reads the glTF ones.
layout(std140, binding = SW_MATERIAL_BLOCK) uniform Material {
    vec4 u_base_color;
    vec3 u_emissive;
    float u_normal_scale;          // the core normal texture's
    vec2 u_metallic_roughness;
    float u_occlusion_strength;    // 0 without an occlusion texture
    float u_alpha_cutoff;          // < 0: opaque
    uint u_class;                  // SW_CLASS_LIT or SW_CLASS_UNLIT
    int u_kind;                    // SW_TOON_KIND_*
    int u_glint_count;             // 0..2
    float u_view_lift;
    // Per material texture slot, and the toon normal map's
    // (SW_MATERIAL_UV_TOON_NORMAL): KHR_texture_transform as a 3×3
    // (column-major 2D affine) and the TEXCOORD set.
    mat3 u_uv_transform[SW_MATERIAL_UV_COUNT];
    int u_uv_set[SW_MATERIAL_UV_COUNT];
    vec4 u_shadow_area;            // light area, ramp width, detail gate, fade
    ivec4 u_toon_uv_sets;          // TEXCOORD set of control, detail, face SDF, rim mask
    vec3 u_uv_animation;           // scroll u, v (per second), rotation (rad/s)
    float u_toon_normal_scale;     // the toon pass's normal texture's
    vec4 u_glint[2];               // grid, spot scale, phase rate, active width
    vec4 u_glint_params[2];        // intensity, luma lerp, camera scale, 0
    vec3 u_glint_color[2];
    vec4 u_hair_band[2];           // exponent, lower, upper, intensity
    vec3 u_hair_band_color[2];
    vec3 u_rim_color;
    vec3 u_rim;                    // width, power, lift
    vec3 u_outline_color;
    vec3 u_iris;                   // matcap mix, parallax height, iris radius
    vec2 u_face;                   // SDF steepness, offset
    vec4 u_outline;                // hull width (pixels), max distance, viewport width, height
    int u_fold_mask;               // bit k folds the vertices tagged k
    int u_fold_uv_set;             // the TEXCOORD set holding the tag
    // MToon 1.0 (SW_TOON_FLAG_MTOON).
    float u_outline_world;         // world outline width, metres
    float u_gi_equalization;
    vec4 u_shade_color;            // shade colour (linear RGB), shading shift texture scale
    vec4 u_mtoon;                  // shading shift, shading toony, rim lighting mix, outline lighting mix
    vec4 u_matcap_color;           // matcapFactor (RGB), 0
    // KHR_materials_transmission / _volume (glTF materials): transmission
    // factor, thickness factor, attenuation distance (0: none), 1 when the
    // material is OPAQUE (its alpha ignored); the attenuation colour.
    vec4 u_transmission;
    vec4 u_attenuation_color;
    // SW_materials_snow (src/render/snow.c, docs/snow.md): threshold,
    // width, sparkle, 1 when the material has snow; the cover colour
    // (linear RGB) and roughness.
    vec4 u_snow;
    vec4 u_snow_color;
};
