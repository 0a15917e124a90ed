/* The renderer's shader interface: every number that src/render/renderer.c
   and its shaders (shaders/gbuffer, shadow, fullscreen, lighting, post,
   lines) must agree on, written once.

   The rule: a uniform location, texture unit, vertex attribute, fragment
   output, flag bit, class number or view number that both sides use is
   defined here and nowhere else; the C code and the GLSL use the names,
   never the numbers. This one file is read by both: renderer.c includes
   it, and the build embeds it unchanged (cmake/embed_shaders.cmake) as the
   source string after "#version" of every renderer shader. So it holds
   only comments, the include guard and "#define SW_NAME integer" lines: no
   casts, no u suffixes, no expressions (C sees int, GLSL sees int; GLSL
   converts with uint(SW_NAME) where it needs a uint). embed_shaders.cmake
   rejects any other line; render_test_shader_interface checks that every
   SW_ name a shader uses is defined and that no literal is left in the
   shaders' layout qualifiers or in renderer.c's GL calls. The public enums
   of sinew/render.h (SW_RENDER_CLASS_*, SW_RENDER_VIEW_*) are checked
   against the values here with _Static_assert in renderer.c.

   Uniform locations are per program; each program's names carry its
   prefix (SW_GBUFFER_LOC_*, SW_LIGHTING_LOC_*, ...). */
#ifndef SW_RENDER_INTERFACE_H
#define SW_RENDER_INTERFACE_H

/* ---- The class byte (G-buffer target SW_GBUFFER_CLASS, R8UI) ---- */
/* The low 6 bits select the lighting model (SW_RENDER_CLASS_*); the two
   high bits are reserved for TAA history control. */
#define SW_CLASS_BACKGROUND 0       /* nothing drawn: the gradient */
#define SW_CLASS_GROUND 1
#define SW_CLASS_LIT 2              /* glTF metallic-roughness */
#define SW_CLASS_UNLIT 3            /* KHR_materials_unlit: emission holds the colour */
#define SW_CLASS_MASK 63

/* ---- Views of the post pass (sw_render_view) ---- */
#define SW_VIEW_SHADED 0
#define SW_VIEW_NORMALS 1
#define SW_VIEW_MOTION 2
#define SW_VIEW_UV 3
#define SW_VIEW_WEIGHTS 4

/* ---- Vertex attributes of the scene (gbuffer.vert, shadow.vert) ---- */
/* Each attribute reads the vertex buffer binding point of the same number. */
#define SW_ATTR_POSITION 0          /* vec3, world space (skinned) */
#define SW_ATTR_PREVIOUS_POSITION 1 /* vec3, last frame's */
#define SW_ATTR_NORMAL 2            /* vec3 */
#define SW_ATTR_TANGENT 3           /* vec4 */
#define SW_ATTR_UV0 4               /* vec2 */
#define SW_ATTR_UV1 5               /* vec2 */
#define SW_ATTR_COLOR 6             /* vec4 */
#define SW_ATTR_WEIGHT 7            /* float: the weight view's joint weight */

/* ---- Fragment outputs ---- */
/* The G-buffer pass: colour attachment i of the G-buffer framebuffer. */
#define SW_GBUFFER_NORMAL 0         /* RGB10A2: n * 0.5 + 0.5 */
#define SW_GBUFFER_ALBEDO 1         /* SRGB8_ALPHA8 */
#define SW_GBUFFER_MATERIAL 2       /* RGBA8: metallic, roughness, occlusion, 1 */
#define SW_GBUFFER_CLASS 3          /* R8UI: SW_CLASS_* */
#define SW_GBUFFER_MOTION 4         /* RG16F, texture units */
#define SW_GBUFFER_EMISSION 5       /* the HDR target, which lighting adds onto */
#define SW_GBUFFER_TARGET_COUNT 6
/* The one output of the lighting, post and lines passes: colour
   attachment 0 of the HDR and image framebuffers, their only draw buffer
   (so it stays 0). */
#define SW_OUT_COLOR 0

/* ---- G-buffer pass: material texture slots ---- */
/* Slot i is texture unit i, sampler binding i, and entry i of the
   u_uv_transform and u_uv_set arrays. */
#define SW_MATERIAL_SLOT_BASE_COLOR 0
#define SW_MATERIAL_SLOT_NORMAL 1
#define SW_MATERIAL_SLOT_METALLIC_ROUGHNESS 2
#define SW_MATERIAL_SLOT_OCCLUSION 3
#define SW_MATERIAL_SLOT_EMISSIVE 4
#define SW_MATERIAL_SLOT_COUNT 5

/* ---- G-buffer pass: uniform locations ---- */
#define SW_GBUFFER_LOC_VIEW_PROJECTION 0          /* mat4 */
#define SW_GBUFFER_LOC_PREVIOUS_VIEW_PROJECTION 1 /* mat4 */
#define SW_GBUFFER_LOC_BASE_COLOR 10              /* vec4 */
#define SW_GBUFFER_LOC_EMISSIVE 11                /* vec3 */
#define SW_GBUFFER_LOC_METALLIC_ROUGHNESS 12      /* vec2 */
#define SW_GBUFFER_LOC_OCCLUSION_STRENGTH 13      /* float */
#define SW_GBUFFER_LOC_NORMAL_SCALE 14            /* float */
#define SW_GBUFFER_LOC_ALPHA_CUTOFF 15            /* float, < 0: opaque */
#define SW_GBUFFER_LOC_CLASS 16                   /* uint: SW_CLASS_* */
#define SW_GBUFFER_LOC_FLAGS 17                   /* int: SW_GBUFFER_FLAG_* */
/* mat3[SW_MATERIAL_SLOT_COUNT]: KHR_texture_transform per slot (column-
   major 2D affine); takes locations 20..24. */
#define SW_GBUFFER_LOC_UV_TRANSFORM 20
/* int[SW_MATERIAL_SLOT_COUNT]: the TEXCOORD set per slot; 25..29. */
#define SW_GBUFFER_LOC_UV_SET 25

/* ---- G-buffer pass: bits of SW_GBUFFER_LOC_FLAGS ---- */
#define SW_GBUFFER_FLAG_NORMALS 1        /* the mesh has normals (else face normals) */
#define SW_GBUFFER_FLAG_TANGENTS 2       /* the mesh has tangents */
#define SW_GBUFFER_FLAG_NORMAL_TEXTURE 4 /* a normal texture is bound */
#define SW_GBUFFER_FLAG_DOUBLE_SIDED 8
#define SW_GBUFFER_FLAG_VIEW_UV 16       /* debug view: TEXCOORD_0 as colour */
#define SW_GBUFFER_FLAG_VIEW_WEIGHTS 32  /* debug view: the joint weight as a heat map */
#define SW_GBUFFER_FLAG_FIRST_FRAME 64   /* no previous frame: no motion */

/* ---- Shadow pass ---- */
#define SW_SHADOW_LOC_LIGHT_VIEW_PROJECTION 0     /* mat4 */

/* ---- Lighting pass: texture units ---- */
#define SW_LIGHTING_UNIT_NORMAL 0
#define SW_LIGHTING_UNIT_ALBEDO 1
#define SW_LIGHTING_UNIT_MATERIAL 2
#define SW_LIGHTING_UNIT_CLASS 3
#define SW_LIGHTING_UNIT_DEPTH 4
#define SW_LIGHTING_UNIT_SHADOW 5
#define SW_LIGHTING_UNIT_COUNT 6

/* ---- Lighting pass: uniform locations ---- */
#define SW_LIGHTING_LOC_INVERSE_VIEW_PROJECTION 0 /* mat4 */
#define SW_LIGHTING_LOC_LIGHT_VIEW_PROJECTION 1   /* mat4 */
#define SW_LIGHTING_LOC_LIGHT_DIRECTION 2         /* vec3, towards the light */
#define SW_LIGHTING_LOC_LIGHT_COLOR 3             /* vec3 */
#define SW_LIGHTING_LOC_SKY_COLOR 4               /* vec3 */
#define SW_LIGHTING_LOC_GROUND_COLOR 5            /* vec3 */
#define SW_LIGHTING_LOC_EYE 6                     /* vec3 */
#define SW_LIGHTING_LOC_BACKGROUND_TOP 7          /* vec3 */
#define SW_LIGHTING_LOC_BACKGROUND_BOTTOM 8       /* vec3 */
#define SW_LIGHTING_LOC_SHADOW_TEXEL 9            /* float: 1 / shadow map size */

/* ---- Post pass: texture units ---- */
#define SW_POST_UNIT_HDR 0
#define SW_POST_UNIT_NORMAL 1
#define SW_POST_UNIT_ALBEDO 2
#define SW_POST_UNIT_CLASS 3
#define SW_POST_UNIT_MOTION 4
#define SW_POST_UNIT_COUNT 5

/* ---- Post pass: uniform locations ---- */
#define SW_POST_LOC_VIEW 0                        /* int: SW_VIEW_* */
#define SW_POST_LOC_EXPOSURE 1                    /* float */
#define SW_POST_LOC_MOTION_SCALE 2                /* float */

/* ---- Lines pass (bones) ---- */
#define SW_LINES_ATTR_POSITION 0                  /* vec3, world space */
#define SW_LINES_ATTR_COLOR 1                     /* vec3 */
#define SW_LINES_LOC_VIEW_PROJECTION 0            /* mat4 */

#endif
