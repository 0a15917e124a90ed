/* The renderer's shader interface: every number that the C files of
   src/render and its shaders (shaders/gbuffer, toon, material_block,
   shadow, fullscreen, lighting, post and the post chain's, lines) must
   agree on, written once.

   The rule: a uniform location, texture unit, vertex attribute, fragment
   output, flag bit, class number or view number that both sides use is
   defined here and nowhere else; the C code and the GLSL use the names,
   never the numbers. This one file is read by both: the renderer's C files
   include it, and the build embeds it unchanged (cmake/embed_shaders.cmake) as the
   source string after "#version" of every renderer shader. So it holds
   only comments, the include guard and "#define SW_NAME integer" lines: no
   casts, no u suffixes, no expressions (C sees int, GLSL sees int; GLSL
   converts with uint(SW_NAME) where it needs a uint). embed_shaders.cmake
   rejects any other line; render_test_shader_interface checks that every
   SW_ name a shader uses is defined and that no literal is left in the
   shaders' layout qualifiers or in the renderer's GL calls. The public enums
   of sinew/render.h (SW_RENDER_CLASS_*, SW_RENDER_VIEW_*) are checked
   against the values here with _Static_assert in renderer.c.

   Uniform locations are per program; each program's names carry its
   prefix (SW_GBUFFER_LOC_*, SW_LIGHTING_LOC_*, ...). */
#ifndef SW_RENDER_INTERFACE_H
#define SW_RENDER_INTERFACE_H

/* ---- The class byte (G-buffer target SW_GBUFFER_CLASS, R8UI) ---- */
/* The low 6 bits select the lighting model (SW_RENDER_CLASS_*); the two
   high bits are reserved for TAA history control. */
#define SW_CLASS_BACKGROUND 0       /* nothing drawn: the sky (sky.c) */
#define SW_CLASS_GROUND 1
#define SW_CLASS_LIT 2              /* glTF metallic-roughness */
#define SW_CLASS_UNLIT 3            /* KHR_materials_unlit: emission holds the colour */
#define SW_CLASS_STAGE 5            /* a stage's glTF metallic-roughness: lit as LIT; decals land on it */
#define SW_CLASS_MASK 63

/* ---- Toon lighting (sinew/toon.h materials; gbuffer.vert + toon.frag) ---- */
/* Class of a pixel the toon pass lit itself: the emission target holds its
   final colour and the lighting pass adds nothing. */
#define SW_CLASS_TOON 4
/* Top bit of the class byte (TAA history control): glints are visible
   here, TAA keeps the per-channel max of history and current colour. */
#define SW_CLASS_HISTORY_SPARKLE 64
/* The other history bit: the texture moves here by a UV animation (MToon
   UV scroll/rotation), carried in the motion target; TAA keeps the short
   history of a moving pixel for it, however slow (docs/post.md). */
#define SW_CLASS_HISTORY_TEXTURE_MOTION 128
/* The normal target's 2-bit alpha: this value (alpha 1.0) on the toon
   outline's pixels, 0 everywhere else. */
#define SW_NORMAL_TAG_OUTLINE 3

/* gbuffer.vert, in both programs that use it (0 = off in the G-buffer
   program). On toon draws the tangent attribute (SW_ATTR_TANGENT) holds
   the skinned outline normal. The hull's width and the fold mask and set
   are the material block's. */
#define SW_GBUFFER_LOC_VERTEX_FLAGS 2    /* int: SW_VERTEX_FLAG_* */
#define SW_GBUFFER_LOC_FOLD_POINT 6      /* vec3: where folded vertices go (world) */
/* gbuffer.vert: crowds (sw_render_frame.crowd_count). An instanced draw
   reads instance gl_InstanceID's skinned vertex from the crowd's output
   buffers, bound as storage buffers, in place of the position, previous
   position, normal and tangent attributes. */
#define SW_GBUFFER_LOC_CROWD_VERTICES 7  /* int: vertices per instance; 0 = not a crowd draw */
#define SW_GBUFFER_LOC_CROWD_FRAMES 8    /* ivec2: float offsets of normals, tangents in the frames buffer; -1 = none */
#define SW_CROWD_BUFFER_POSITIONS 0      /* storage buffer bindings: positions (vec3 as 3 floats) */
#define SW_CROWD_BUFFER_PREVIOUS 1       /* previous positions */
#define SW_CROWD_BUFFER_FRAMES 2         /* normals | tangents (vec4) */
#define SW_VERTEX_FLAG_OUTLINE 1         /* push out along the outline normal */
#define SW_VERTEX_FLAG_FOLD 2            /* collapse tagged vertices */
#define SW_VERTEX_FLAG_OUTLINE_WORLD 4   /* the hull u_outline_world metres out along the normal (MToon world mode) */
#define SW_VERTEX_FLAG_OUTLINE_TEXTURE 8 /* × the outline width texture's G */

/* toon.frag: texture units after the material slots (base colour, normal,
   emissive are the G-buffer pass's slots). */
#define SW_TOON_UNIT_RAMP 5
#define SW_TOON_UNIT_CONTROL 6
#define SW_TOON_UNIT_DETAIL_NORMAL 7
#define SW_TOON_UNIT_FACE_SDF 8
#define SW_TOON_UNIT_RIM_MASK 9
#define SW_TOON_UNIT_SHADOW 10
#define SW_TOON_UNIT_MATCAP 11
#define SW_TOON_UNIT_SHADE_MULTIPLY 12   /* MToon: RGB × the shade colour */
#define SW_TOON_UNIT_SHADING_SHIFT 13    /* MToon: R × scale added to the shading shift */
#define SW_TOON_UNIT_ANIMATION_MASK 14   /* MToon: B × the UV animation */
#define SW_TOON_UNIT_OUTLINE_WIDTH 15    /* MToon: G × the outline width (gbuffer.vert) */
#define SW_TOON_UNIT_COUNT 16

/* toon.frag: uniform locations of what changes per frame or per draw (it
   also reads SW_GBUFFER_LOC_FLAGS); the material's values are the
   material block's. */
#define SW_TOON_LOC_FLAGS 41             /* int: SW_TOON_FLAG_* */
#define SW_TOON_LOC_LIGHT_DIRECTION 42   /* vec3, towards the light */
#define SW_TOON_LOC_LIGHT_COLOR 43       /* vec3 */
#define SW_TOON_LOC_SKY_COLOR 44         /* vec3: the ambient's upper hemisphere */
#define SW_TOON_LOC_GROUND_COLOR 45      /* vec3 */
#define SW_TOON_LOC_EYE 46               /* vec3 */
#define SW_TOON_LOC_SHADOW_TEXEL 48      /* float */
#define SW_TOON_LOC_NIGHT_TIME 49        /* vec2: night (0 or 1), time (seconds) */
#define SW_TOON_LOC_HEAD_RIGHT 67        /* vec3: the head joint's axes (world, unit) */
#define SW_TOON_LOC_HEAD_UP 68
#define SW_TOON_LOC_HEAD_FORWARD 69
#define SW_TOON_LOC_AMBIENT 72           /* float: the hemisphere ambient's scale */
#define SW_TOON_LOC_CASCADE_COUNT 74             /* the shadow cascades, as the lighting pass's */
#define SW_TOON_LOC_CASCADE_VIEW_PROJECTION 75   /* mat4[SW_SHADOW_MAX_CASCADES]: 75..78 */
#define SW_TOON_LOC_CASCADE_RECT 79              /* vec4[SW_SHADOW_MAX_CASCADES]: 79..82 */
#define SW_TOON_LOC_TIME_STEP 73         /* float: seconds since the previous frame's time (0 on a first frame) */

/* toon.frag: the material kinds (sw_toon_kind of sinew/toon.h). */
#define SW_TOON_KIND_BODY 0
#define SW_TOON_KIND_HAIR 1
#define SW_TOON_KIND_FACE 2
#define SW_TOON_KIND_EYE 3

/* toon.frag: bits of SW_TOON_LOC_FLAGS. */
#define SW_TOON_FLAG_CONTROL 1           /* a control ("ILM") map is bound */
#define SW_TOON_FLAG_REGION_2 2          /* the gates of region groups 2..5 */
#define SW_TOON_FLAG_REGION_3 4
#define SW_TOON_FLAG_REGION_4 8
#define SW_TOON_FLAG_REGION_5 16
#define SW_TOON_FLAG_VERTEX_THRESHOLD 32 /* g *= vertex colour R */
#define SW_TOON_FLAG_VERTEX_WIDTH 64     /* ramp width from vertex colour G */
#define SW_TOON_FLAG_BACK_UV1 128        /* back faces read TEXCOORD_1 */
#define SW_TOON_FLAG_BACK_DARK 256       /* back faces are on the dark side */
#define SW_TOON_FLAG_DETAIL 512          /* a detail normal map is bound */
#define SW_TOON_FLAG_RIM_MASK 1024       /* a rim mask is bound */
#define SW_TOON_FLAG_FACE_SDF 2048       /* a face SDF map is bound (face kind) */
#define SW_TOON_FLAG_SDF_MIRROR 4096     /* mirror the SDF's u when the light is on the head's left */
#define SW_TOON_FLAG_OUTLINE 8192        /* the outline pass: the outline colour only */
#define SW_TOON_FLAG_SHADOW 16384        /* the shadow map takes part in the band logic */
#define SW_TOON_FLAG_MATCAP 32768        /* a matcap texture is bound */
#define SW_TOON_FLAG_MTOON 65536         /* MToon 1.0 lighting instead of the ramp rules */
#define SW_TOON_FLAG_SHADE_MULTIPLY 131072 /* MToon maps bound: */
#define SW_TOON_FLAG_SHADING_SHIFT 262144
#define SW_TOON_FLAG_ANIMATION_MASK 524288

/* toon.frag: the hair's tier glint set (the frame analysis' second hair
   set), picked per pixel by the normal map's A: tier k where A >= its cut,
   tested 1, 2, 3; below the last cut the set adds nothing. Grid (cells per
   UV unit), phase rate (per second) and linear colour per tier; in
   thousandths, as this file holds integers only. Spot scale, active width,
   intensity, luma lerp and camera scale are the hair's first set's. */
#define SW_TOON_TIER_UNIT 1000
#define SW_TOON_TIER1_CUT 750
#define SW_TOON_TIER1_GRID 500000
#define SW_TOON_TIER1_RATE 600
#define SW_TOON_TIER1_RED 1000
#define SW_TOON_TIER1_GREEN 960
#define SW_TOON_TIER1_BLUE 880
#define SW_TOON_TIER2_CUT 500
#define SW_TOON_TIER2_GRID 350100
#define SW_TOON_TIER2_RATE 450
#define SW_TOON_TIER2_RED 800
#define SW_TOON_TIER2_GREEN 900
#define SW_TOON_TIER2_BLUE 1000
#define SW_TOON_TIER3_CUT 250
#define SW_TOON_TIER3_GRID 120000
#define SW_TOON_TIER3_RATE 300
#define SW_TOON_TIER3_RED 1000
#define SW_TOON_TIER3_GREEN 800
#define SW_TOON_TIER3_BLUE 900

/* ---- Views of the post pass (sw_render_view) ---- */
#define SW_VIEW_SHADED 0
#define SW_VIEW_NORMALS 1
#define SW_VIEW_MOTION 2
#define SW_VIEW_UV 3
#define SW_VIEW_WEIGHTS 4
#define SW_VIEW_RETENTION 5           /* per-vertex LBS radius retention as a heat map */
#define SW_VIEW_AO 6                  /* the AO target's R (ambient AO × proxies) as grey */
#define SW_VIEW_DEPTH 7               /* eye distance, log scale: white at the near plane */

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
#define SW_OUT_BLEND_FACTOR_INDEX 1               /* the lighting pass's second (dual-source) output: HDR × it */

/* ---- G-buffer pass: material texture slots ---- */
/* Slot i is texture unit i, sampler binding i, and entry i of the
   material block's u_uv_transform and u_uv_set arrays. */
#define SW_MATERIAL_SLOT_BASE_COLOR 0
#define SW_MATERIAL_SLOT_NORMAL 1
#define SW_MATERIAL_SLOT_METALLIC_ROUGHNESS 2
#define SW_MATERIAL_SLOT_OCCLUSION 3
#define SW_MATERIAL_SLOT_EMISSIVE 4
#define SW_MATERIAL_SLOT_COUNT 5

/* ---- G-buffer and toon passes: the material block ---- */
/* Uniform block binding (std140) of the Material block
   (shaders/material_block.glsl): one uniform buffer per material, made
   when the scene is set (material.c); a draw binds its material's. */
#define SW_MATERIAL_BLOCK 0
/* ---- Every pass: the depth convention (shaders/depth.glsl) ---- */
/* Uniform block binding (std140) of the DepthConvention block: one int,
   1 under reverse-Z, 0 under ordinary depth; bound by the renderer once per
   frame (docs/depth.md). */
#define SW_DEPTH_BLOCK 1
/* Entries of its u_uv_transform and u_uv_set arrays: the material slots
   (SW_MATERIAL_SLOT_*), then the toon pass's normal map (the toon normal
   texture where the toon data names one, else the core one), then the
   toon maps read through their own texture transform. */
#define SW_MATERIAL_UV_TOON_NORMAL 5
#define SW_MATERIAL_UV_RIM_MASK 6         /* rim mask (MToon rimMultiplyTexture) */
#define SW_MATERIAL_UV_SHADE_MULTIPLY 7   /* MToon shadeMultiplyTexture */
#define SW_MATERIAL_UV_SHADING_SHIFT 8    /* MToon shadingShiftTexture */
#define SW_MATERIAL_UV_OUTLINE_WIDTH 9    /* MToon outlineWidthMultiplyTexture (read by gbuffer.vert) */
#define SW_MATERIAL_UV_ANIMATION_MASK 10  /* MToon uvAnimationMaskTexture */
#define SW_MATERIAL_UV_MATCAP 11          /* the matcap, on its sphere coordinates */
#define SW_MATERIAL_UV_COUNT 12

/* ---- G-buffer pass: uniform locations ---- */
#define SW_GBUFFER_LOC_VIEW_PROJECTION 0          /* mat4 */
#define SW_GBUFFER_LOC_PREVIOUS_VIEW_PROJECTION 1 /* mat4 */
#define SW_GBUFFER_LOC_FLAGS 17                   /* int: SW_GBUFFER_FLAG_* (frame, primitive and material bits) */
/* Footprints (src/render/snow_trail.c): vec4 = the trail field's world
   x, z origin, 1 / its extent, 1 when there is one; its R8 texture. */
#define SW_GBUFFER_LOC_SNOW_TRAIL 40
#define SW_GBUFFER_UNIT_SNOW_TRAIL 6
/* The trail's texels across (= SW_SNOW_TRAIL_SIZE, snow.h) and how deep a
   full track is (sw__snow_trail_normal: the track's slopes tilt the normal). */
#define SW_SNOW_TRAIL_TEXELS 512
#define SW_SNOW_TRACK_DEPTH_MM 40
/* The surface-height cache (src/render/snow_cache.c): vec4 = the window's
   world x, z corner, fine texels per unit, 1 when there is one; vec4 =
   the lowest height, the height span; its fine r32ui image as a usampler. */
#define SW_GBUFFER_LOC_SNOW_HEIGHT_WINDOW 38
#define SW_GBUFFER_LOC_SNOW_HEIGHT_RANGE 39
#define SW_GBUFFER_UNIT_SNOW_HEIGHT 8

/* ---- The surface-height cache (snow_cache.c, shaders/snow_cache.*) ---- */
#define SW_SNOW_CACHE_FINE_SIZE 2048     /* = SW_SNOW_FINE_SIZE (snow.h) */
#define SW_SNOW_CACHE_COARSE_SHIFT 3     /* one coarse cell per 8 × 8 fine texels */
#define SW_SNOW_CACHE_LOC_WINDOW 0       /* vec4: the window's world x, z corner, texels per unit, 0 */
#define SW_SNOW_CACHE_LOC_HEIGHTS 1      /* vec4: lowest height, 1 / span, 1 = the mesh has normals, 1 = candidates (0: depth) */
#define SW_SNOW_CACHE_LOC_RING 2         /* ivec2: the window corner's world texel index */
#define SW_SNOW_CACHE_IMAGE_FINE 0       /* r32ui image units */
#define SW_SNOW_CACHE_IMAGE_COARSE 1
#define SW_SNOW_CACHE_IMAGE_DIRTY 2

/* ---- G-buffer pass: bits of SW_GBUFFER_LOC_FLAGS ---- */
#define SW_GBUFFER_FLAG_NORMALS 1        /* the mesh has normals (else face normals) */
#define SW_GBUFFER_FLAG_TANGENTS 2       /* the mesh has tangents */
#define SW_GBUFFER_FLAG_NORMAL_TEXTURE 4 /* a normal texture is bound */
#define SW_GBUFFER_FLAG_DOUBLE_SIDED 8
#define SW_GBUFFER_FLAG_VIEW_UV 16       /* debug view: TEXCOORD_0 as colour */
#define SW_GBUFFER_FLAG_VIEW_WEIGHTS 32  /* debug view: the joint weight as a heat map */
#define SW_GBUFFER_FLAG_FIRST_FRAME 64   /* no previous frame: no motion */
#define SW_GBUFFER_FLAG_VIEW_RETENTION 128 /* debug view: the weight attribute is the LBS retention;
                                           heat of 1 − retention (lost radius is red) */
#define SW_GBUFFER_FLAG_BLEND 256        /* the transparent pass (alphaMode BLEND): no cutout; the
                                           emission output's alpha is the base alpha and the
                                           motion output's alpha its weight (SW_BLEND_MOTION_PERCENT) */
/* The transparent pass writes a pixel's motion where its alpha is at
   least this many hundredths (the layer that dominates the pixel), else
   keeps the motion of what is behind (docs/post.md, "Transparent pixels"). */
#define SW_BLEND_MOTION_PERCENT 50
/* Alpha-tested (MASK) draws of the G-buffer program: a depth pre-pass
   with the alpha test alone, then the colour pass with depth test EQUAL
   and no alpha test (SEED-002 notes §2.6, "Plants"; docs/transparency.md). */
#define SW_GBUFFER_FLAG_PREPASS 512       /* the pre-pass: alpha test, nothing else */
#define SW_GBUFFER_FLAG_DEPTH_EQUAL 1024  /* the colour pass after it: the depth test did the alpha test */
/* KHR_materials_transmission in the transparent pass: a first draw that
   multiplies what is behind by the light the surface lets through
   (blend ZERO, SRC_COLOR), before the draw that adds the surface over it
   (docs/transparency.md, "Transmission"). */
#define SW_GBUFFER_FLAG_TRANSMIT_FILTER 2048

/* ---- Shadow pass ---- */
#define SW_SHADOW_LOC_LIGHT_VIEW_PROJECTION 0     /* mat4 */
/* Toon face folding, as gbuffer.vert's (folded vertices cast no shadow). */
#define SW_SHADOW_LOC_FOLD_MASK 1                 /* int: bit k folds the vertices tagged k; 0 = off */
#define SW_SHADOW_LOC_FOLD_UV_SET 2               /* int: the TEXCOORD set holding the tag */
#define SW_SHADOW_LOC_FOLD_POINT 3                /* vec3: where folded vertices go (world) */
/* The alpha-tested shadow program (shadow.vert + shadow_mask.frag, with
   the material block and base colour texture; docs/shadows.md): MASK
   draws cast where base alpha >= the cutoff; BLEND and transmissive draws
   where their coverage (alpha, × (1 − transmission)) >= BLEND_PERCENT/100. */
#define SW_SHADOW_LOC_ALPHA_RULE 4                /* int: SW_SHADOW_ALPHA_* */
#define SW_SHADOW_ALPHA_MASK 1
#define SW_SHADOW_ALPHA_BLEND 2
#define SW_SHADOW_ALPHA_TRANSMIT 3
#define SW_SHADOW_BLEND_PERCENT 50

/* ---- Decal pass (decal.c, decal.frag; decal_math.h) ---- */
/* The surface turns away from a decal's projection: facing is 0 below
   n · up = MIN/100 and 1 above FULL/100 (smoothstep between). */
#define SW_DECAL_FACING_MIN_PERCENT 20
#define SW_DECAL_FACING_FULL_PERCENT 50
#define SW_DECAL_UNIT_DEPTH 0
#define SW_DECAL_UNIT_CLASS 1
#define SW_DECAL_UNIT_BASE_COLOR 2
#define SW_DECAL_UNIT_NORMAL 3
#define SW_DECAL_LOC_INVERSE_VIEW_PROJECTION 0    /* mat4 */
#define SW_DECAL_LOC_WORLD_TO_BOX 1               /* mat4: the box's inverse */
#define SW_DECAL_LOC_BOX_X 2                      /* vec3: the box's +X axis, world */
#define SW_DECAL_LOC_BOX_UP 3                     /* vec3: the box's unit +Y, world */
#define SW_DECAL_LOC_BASE_COLOR 4                 /* vec4: linear factor */
#define SW_DECAL_LOC_WEIGHTS 5                    /* vec2: opacity, normal strength (0: no normal map) */
#define SW_DECAL_LOC_RECEIVERS 6                  /* uint: bit k set = class k takes decals */
#define SW_DECAL_LOC_EYE 7                        /* vec3 */

/* ---- Shadow atlas and cascades (shadow_atlas.h) ---- */
#define SW_SHADOW_MAX_CASCADES 4

/* ---- Static shadow decode (shadow_decode.frag, shadow_cache.c) ---- */
#define SW_SHADOW_DECODE_BUFFER 0                 /* shader storage binding: the records (shadow_codec.h) */
#define SW_SHADOW_DECODE_LOC_BLOCKS_X 0           /* int: blocks per row */
#define SW_SHADOW_DECODE_LOC_ORIGIN 1             /* ivec2: the map's texel (0, 0) in the target */

/* ---- Lighting pass: texture units ---- */
#define SW_LIGHTING_UNIT_NORMAL 0
#define SW_LIGHTING_UNIT_ALBEDO 1
#define SW_LIGHTING_UNIT_MATERIAL 2
#define SW_LIGHTING_UNIT_CLASS 3
#define SW_LIGHTING_UNIT_DEPTH 4
#define SW_LIGHTING_UNIT_SHADOW 5
#define SW_LIGHTING_UNIT_AO 6                     /* RG8: ambient occlusion, contact shadow (ao.frag) */
#define SW_LIGHTING_UNIT_COUNT 7

/* ---- Lighting pass: uniform locations ---- */
#define SW_LIGHTING_LOC_INVERSE_VIEW_PROJECTION 0 /* mat4 */

/* ---- The lighting both the lighting pass and the transparent pass's
   forward path read (shaders/lighting_common.glsl): uniform locations,
   the same in the lighting and G-buffer programs; the shadow map on
   texture unit SW_LIGHTING_UNIT_SHADOW in both. ---- */
#define SW_SHADE_LOC_LIGHT_DIRECTION 21           /* vec3, towards the sun */
#define SW_SHADE_LOC_LIGHT_COLOR 22               /* vec3 */
#define SW_SHADE_LOC_SKY_COLOR 23                 /* vec3 */
#define SW_SHADE_LOC_GROUND_COLOR 24              /* vec3 */
#define SW_SHADE_LOC_EYE 25                       /* vec3 */
#define SW_SHADE_LOC_SHADOW_TEXEL 26              /* float: 1 / shadow map size */
/* The shadow cascades (shadow_atlas.h): count, then per cascade its
   light view-projection and its cell's usable area in atlas texture space
   (x, y, size; w = the pick margin in the cell's units). */
#define SW_SHADE_LOC_CASCADE_COUNT 27             /* int */
#define SW_SHADE_LOC_CASCADE_VIEW_PROJECTION 28   /* mat4[SW_SHADOW_MAX_CASCADES]: 28..31 */
#define SW_SHADE_LOC_CASCADE_RECT 32              /* vec4[SW_SHADOW_MAX_CASCADES]: 32..35 */
/* The punctual lights (sw_renderer_set_lights): a uniform block of a
   count and SW_LIGHT_VEC4S vec4 per light (src/render/lights.c). */
#define SW_LIGHTS_BLOCK 2                         /* uniform buffer binding */
#define SW_LIGHT_MAX 16                           /* = SW_RENDER_LIGHT_MAX (sinew/render.h) */
#define SW_LIGHT_VEC4S 4
#define SW_LIGHT_TYPE_DIRECTIONAL 0               /* = sw_render_light_type */
#define SW_LIGHT_TYPE_POINT 1
#define SW_LIGHT_TYPE_SPOT 2

/* ---- Ambient occlusion pass (ao.frag; src/render/ao.h, docs/ao.md) ---- */
#define SW_AO_DIRECTION_COUNT 18                  /* the stored directions, one sample each */
#define SW_AO_MAX_PROXIES 32                      /* shape proxies (capsules) looped over per pixel */
#define SW_AO_PROXY_REACH 4                       /* a proxy occludes up to 4 radii from its axis */
#define SW_AO_TOON_PERCENT 50                     /* toon pixels (lit in the G-buffer pass) × mix(1, AO, this / 100) */
#define SW_AO_UNIT_DEPTH 0
#define SW_AO_UNIT_NORMAL 1
#define SW_AO_LOC_VIEW 0                          /* mat4: world -> view */
#define SW_AO_LOC_LENS 1                          /* vec4: focal, aspect, near, far */
#define SW_AO_LOC_SETTINGS 2                      /* vec3: radius, strength, bias */
#define SW_AO_LOC_FRAME 3                         /* int: the frame index (noise) */
#define SW_AO_LOC_PROXY_COUNT 4                   /* int */
#define SW_AO_LOC_LIGHT 5                         /* vec3: towards the light, view space (unit) */
#define SW_AO_LOC_PROXY_MIN 6                     /* vec3: the box (view space) outside which no proxy reaches */
#define SW_AO_LOC_PROXY_MAX 7                     /* vec3 */
#define SW_AO_LOC_DIRECTIONS 8                    /* vec2[SW_AO_DIRECTION_COUNT] */
#define SW_AO_LOC_COLUMNS 26                      /* ivec2: the columns drawn (x0, x1): samples stay inside */
#define SW_AO_LOC_REVERSE_Z 27                    /* int: 1 = reverse-Z depth (the lens's convention; not the depth block, so a test can feed its own) */
#define SW_AO_LOC_PROXIES 32                      /* vec4[2 * SW_AO_MAX_PROXIES]: (a, radius), (b, 0), view space */

/* ---- Spatial lighting reconstruction (recon_pick.frag, recon_upsample.frag;
   src/render/recon.h, docs/reconstruction.md; frame analysis §2.9) ---- */
#define SW_RECON_DEPTH_PERCENT 5                  /* a candidate |z_i - z| >= 5 % of z (view depth) keeps only the floor weight */
#define SW_RECON_NORMAL_DOT_PERCENT 50            /* ... and one whose normal dot(n_i, n) <= 0.5 */
#define SW_RECON_FLOOR_PER_MILLE 1                /* the floor: bilinear weight x 1e-3 */
#define SW_RECON_OUT_DEPTH 0                      /* pick: R32F, the picked depth-buffer value */
#define SW_RECON_OUT_NORMAL 1                     /* pick: RGB10A2, the picked normal x 1/2 + 1/2, A2 = its index in the block */
#define SW_RECON_UNIT_DEPTH 0                     /* full-res depth target */
#define SW_RECON_UNIT_NORMAL 1                    /* full-res normal target (G-buffer) */
#define SW_RECON_UNIT_HALF_DEPTH 2                /* the pick's R32F */
#define SW_RECON_UNIT_HALF_NORMAL 3               /* the pick's RGB10A2 */
#define SW_RECON_UNIT_HALF_VALUE 4                /* the half-res result to upsample (the AO target) */
#define SW_RECON_LOC_COLUMNS 0                    /* ivec2: the full-res columns (x0, x1) read and drawn */
#define SW_RECON_LOC_DEPTH_RANGE 1                /* vec2: near, far (far may be +inf with reverse-Z) */
#define SW_RECON_LOC_REVERSE_Z 2                  /* int: 1 = reverse-Z depth values */

/* ---- Post pass: texture units ---- */
#define SW_POST_UNIT_HDR 0
#define SW_POST_UNIT_NORMAL 1
#define SW_POST_UNIT_ALBEDO 2
#define SW_POST_UNIT_CLASS 3
#define SW_POST_UNIT_MOTION 4
#define SW_POST_UNIT_BLOOM 5                      /* the bloom chain's finest level */
#define SW_POST_UNIT_DEPTH 6                      /* the depth target (the depth view) */
#define SW_POST_UNIT_AO 7                         /* the AO target, RG8 (the AO view) */
#define SW_POST_UNIT_COUNT 8

/* ---- Post pass: uniform locations ---- */
#define SW_POST_LOC_VIEW 0                        /* int: SW_VIEW_* */
#define SW_POST_LOC_EXPOSURE 1                    /* float */
#define SW_POST_LOC_MOTION_SCALE 2                /* float */
#define SW_POST_LOC_BLOOM_STRENGTH 3              /* float: 0 = no bloom */
#define SW_POST_LOC_DEPTH_RANGE 4                 /* vec3: near, far (0 = infinite), the grey scale's far end (depth_view.h) */

/* ---- The post chain around the display mapping (src/render/post_chain.c,
   shaders/post_*.frag; docs/post.md). Every pass draws the fullscreen
   triangle into colour attachment SW_OUT_COLOR unless said otherwise. ---- */
/* Motion blur: velocity tiles (post_velocity.frag), then the gather
   (post_motion_blur.frag). */
#define SW_BLUR_TILE 8                            /* pixels on a tile's side */
#define SW_BLUR_SAMPLES 9                         /* taps along the velocity, centre included */
#define SW_BLUR_UNIT_HDR 0
#define SW_BLUR_UNIT_MOTION 1
#define SW_BLUR_UNIT_DEPTH 2
#define SW_BLUR_UNIT_TILES 3                      /* RG16F tile velocities, pixels */
#define SW_BLUR_LOC_MODE 0                        /* int: SW_BLUR_MODE_* (post_velocity.frag) */
#define SW_BLUR_LOC_SHUTTER 1                     /* float: the part of a frame the shutter is open */
#define SW_BLUR_MODE_TILE_MAX 0                   /* the longest velocity of each tile */
#define SW_BLUR_MODE_NEIGHBOUR_MAX 1              /* the longest of the 3×3 tiles around */
/* Bloom (post_bloom.frag): a bright pass into the first half-size level,
   box-filtered halvings, tent-filtered upsamples added back. */
#define SW_BLOOM_LEVELS 5                         /* at most; fewer on small images */
#define SW_BLOOM_UNIT_SOURCE 0
#define SW_BLOOM_LOC_MODE 0                       /* int: SW_BLOOM_MODE_* */
#define SW_BLOOM_LOC_THRESHOLD 1                  /* vec2: threshold, soft knee (linear HDR) */
#define SW_BLOOM_MODE_BRIGHT 0
#define SW_BLOOM_MODE_DOWN 1
#define SW_BLOOM_MODE_UP 2
/* Edge AA: edges (post_edges.frag, RG8: left and bottom boundary of each
   pixel), blend weights (post_edge_weights.frag, RGBA8: bottom edge's
   weight for this pixel and for the one below, left edge's for this pixel
   and for the one to the left), neighbourhood blend (post_edge_blend.frag). */
#define SW_EDGE_MAX_DISTANCE 16                   /* pixels searched each way along an edge */
#define SW_EDGE_DISTANCES 17                      /* 0..SW_EDGE_MAX_DISTANCE */
#define SW_EDGE_CROSS_NONE 0                      /* crossing edges at a line's end */
#define SW_EDGE_CROSS_NEGATIVE 1                  /* on the side below / left of the line */
#define SW_EDGE_CROSS_POSITIVE 2                  /* on the side above / right of it */
#define SW_EDGE_CROSS_BOTH 3
#define SW_EDGE_CROSSINGS 4
#define SW_EDGE_AREA_SIZE 68                      /* SW_EDGE_DISTANCES × SW_EDGE_CROSSINGS */
#define SW_EDGE_SEARCH_CODES 5                    /* fetched values 0, ¼, ½, ¾, 1 */
#define SW_EDGE_SKIP_CLASSES 1                    /* bit c: class c opts out (SW_CLASS_BACKGROUND) */
#define SW_EDGE_UNIT_COLOR 0                      /* display-referred RGBA8 */
#define SW_EDGE_UNIT_CLASS 1
#define SW_EDGE_UNIT_EDGES 2
#define SW_EDGE_UNIT_AREA 3                       /* RG32F, sw__edge_area_table */
#define SW_EDGE_UNIT_SEARCH 4                     /* R8UI, sw__edge_search_table */
#define SW_EDGE_UNIT_WEIGHTS 5
#define SW_EDGE_LOC_THRESHOLD 0                   /* float: luma step that makes an edge */
/* TAA (post_taa.frag): three outputs. */
#define SW_TAA_OUT_HISTORY 0                      /* RGBA16F: the new history colour */
#define SW_TAA_OUT_STATE 1                        /* RG16F: retention, accumulation / 12 */
#define SW_TAA_OUT_IMAGE 2                        /* the renderer's RGBA8 image */
#define SW_TAA_HISTORY_MASK 192                   /* the class byte's two history bits */
#define SW_TAA_UNIT_COLOR 0                       /* the current display-referred colour */
#define SW_TAA_UNIT_MOTION 1
#define SW_TAA_UNIT_DEPTH 2
#define SW_TAA_UNIT_CLASS 3
#define SW_TAA_UNIT_HISTORY 4                     /* last frame's history colour, bilinear */
#define SW_TAA_UNIT_STATE 5                       /* last frame's state */
#define SW_TAA_LOC_JITTER 0                       /* vec2: this frame's jitter, pixels */
#define SW_TAA_LOC_SHARPNESS 1                    /* float: s of the 5-tap history filter */
#define SW_TAA_LOC_ACCUMULATION 2                 /* vec3: cap still, cap moving, px of motion for "moving" */
#define SW_TAA_LOC_RETENTION_STEP 3               /* float: retention lost per frame */
#define SW_TAA_LOC_RESET 4                        /* int: 1 = no history (first frame) */

/* ---- Sky pass (src/render/sky.c, shaders/sky.frag; docs/sky.md) ---- */
#define SW_SKY_OUT_MOTION 1                       /* layer 1 also writes the background's motion (RG16F) */
#define SW_SKY_UNIT_CLASS 0                       /* usampler2D: the class byte */
#define SW_SKY_UNIT_GRADIENT 1                    /* SW_SKY_GRADIENT_WIDTH × 2, RGBA32F, linear */
#define SW_SKY_UNIT_NOISE 2                       /* SW_SKY_NOISE_SIZE², R8, fetched */
#define SW_SKY_UNIT_STARS 3                       /* SW_SKY_PALETTE_SIZE × 1, RGBA32F, fetched */
#define SW_SKY_LOC_INVERSE_VIEW_PROJECTION 0      /* mat4, without the jitter */
#define SW_SKY_LOC_PREVIOUS_VIEW_PROJECTION 1     /* mat4, without the jitter */
#define SW_SKY_LOC_JITTER 2                       /* vec2: the TAA jitter in NDC */
#define SW_SKY_LOC_LAYER 3                        /* int: SW_SKY_LAYER_* */
#define SW_SKY_LOC_MOTION 4                       /* int: 1 = the camera turned (motion written), 0 = zero motion */
#define SW_SKY_LOC_SUN 5                          /* vec3: towards the sun */
#define SW_SKY_LOC_STARS 6                        /* float: star visibility 0..1 */
#define SW_SKY_LOC_NEBULA 7                       /* vec3: the nebula's gain colour */
#define SW_SKY_LOC_TINT 8                         /* vec4: tint colour, largest alpha */
#define SW_SKY_LAYER_BACKGROUND 0                 /* gradient, sun and moon, stars: overwrite */
#define SW_SKY_LAYER_NEBULA 1                     /* C = C_dst + C_src·C_dst */
#define SW_SKY_LAYER_TINT 2                       /* C = C_src·α + C_dst·(1 − α) */
#define SW_SKY_GRADIENT_WIDTH 1024
#define SW_SKY_NOISE_SIZE 256
#define SW_SKY_PALETTE_SIZE 16
#define SW_SKY_STAR_THRESHOLD 251                 /* noise bytes at or above it are stars */
/* ---- Hi-Z pyramid (hiz.c, hiz.frag) ---- */
#define SW_HIZ_UNIT_SOURCE 0                      /* the depth target, or the pyramid with the level read as its base */
#define SW_HIZ_LOC_MODE 0                         /* int: SW_HIZ_MODE_* */
#define SW_HIZ_MODE_COPY 0                        /* level 0: the depth target's value */
#define SW_HIZ_MODE_REDUCE 1                      /* level k + 1: the farthest of level k's texels it covers */

/* ---- Character environment feedback (feedback.c; docs/feedback.md) ---- */
/* The 70-column state: columns 0..9 colour (one per direction around the
   character), 10..69 shadow (6 height rings of 10 directions); five
   samples per column in the intermediate 70×5 texture. */
#define SW_FEEDBACK_COLUMNS 70
#define SW_FEEDBACK_SAMPLES 5
#define SW_FEEDBACK_DIRECTIONS 10
#define SW_FEEDBACK_COLOUR_COLUMNS 10
#define SW_FEEDBACK_SHADOW_RINGS 6
#define SW_FEEDBACK_UPDATE_PERCENT 10             /* C' = C + 0.1·(mean − C) */
#define SW_FEEDBACK_SNAP_CONTROL 1000             /* a shadow control above 999 snaps the state */

/* The feedback pass (feedback_pass.c, feedback.comp): one work group of
   SW_FEEDBACK_SAMPLES invocations per column. */
#define SW_FEEDBACK_UNIT_ALBEDO 0                 /* the G-buffer's material colour */
#define SW_FEEDBACK_UNIT_CLASS 1                  /* the class byte */
#define SW_FEEDBACK_UNIT_SHADOW 2                 /* the shadow atlas (compare sampler) */
#define SW_FEEDBACK_IMAGE_PREVIOUS 0              /* rgba16f 70×1: the state read */
#define SW_FEEDBACK_IMAGE_NEXT 1                  /* rgba16f 70×1: the state written */
#define SW_FEEDBACK_IMAGE_SAMPLES 2               /* rgba16f 70×5: the samples */
#define SW_FEEDBACK_LOC_BODY 0                    /* vec4: feet xyz, height */
#define SW_FEEDBACK_LOC_RADIUS 1                  /* float: body radius */
#define SW_FEEDBACK_LOC_VIEW_PROJECTION 2         /* mat4: the camera's, this frame */
#define SW_FEEDBACK_LOC_LIGHT_DIRECTION 3         /* vec3, towards the sun */
#define SW_FEEDBACK_LOC_CASCADE_COUNT 4
#define SW_FEEDBACK_LOC_CASCADE_VIEW_PROJECTION 5 /* mat4[SW_SHADOW_MAX_CASCADES]: 5..8 */
#define SW_FEEDBACK_LOC_CASCADE_RECT 9            /* vec4[SW_SHADOW_MAX_CASCADES]: 9..12 */
/* What character pixels read (lighting.frag for LIT characters): */
#define SW_LIGHTING_UNIT_FEEDBACK 7               /* rgba16f 70×1: the previous frame's state */
#define SW_LIGHTING_LOC_FEEDBACK_BODY 1           /* vec4: feet xyz, height; height 0 = off */
/* ... and toon.frag for toon characters (a unit past the toon maps'). GL 4.3
   allows it: a unit need only be below GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS
   (at least 80); the per-stage minimum of 16 counts the samplers a stage
   uses (toon.frag: 14), not unit numbers. */
#define SW_TOON_UNIT_FEEDBACK 16
#define SW_TOON_LOC_FEEDBACK_BODY 90
#define SW_FEEDBACK_SHADOW_PERCENT 50             /* colour × (1 − 0.5·x) */
#define SW_FEEDBACK_TINT_PERCENT 35               /* × lerp(1, rgb / luma, 0.35·confidence) */

/* ---- Lines pass (bones) ---- */
#define SW_LINES_ATTR_POSITION 0                  /* vec3, world space */
#define SW_LINES_ATTR_COLOR 1                     /* vec3 */
#define SW_LINES_LOC_VIEW_PROJECTION 0            /* mat4 */


/* ---- the volumetric fog (fog_pass.c, shaders/fog.comp + fog.frag; docs/fog.md).
   The froxel volume's sizes and slicing rule: src/render/fog.h (SW__FOG_*). ---- */
#define SW_FOG_WIDTH 160                          /* froxels across the screen */
#define SW_FOG_HEIGHT 68                          /* froxels up the screen */
#define SW_FOG_SLICES 128                         /* depth slices */
#define SW_FOG_LINEAR_SLICES 16                   /* 0.3125 deep each, up to depth 5; then exponential to 500 */
#define SW_FOG_GROUP 8                            /* fog.comp: 8 × 8 columns per work group */
#define SW_FOG_IMAGE_VOLUME 0                     /* fog.comp: image3D rgba16f, (in-scatter, transmittance) at each slice's far end */
#define SW_FOG_UNIT_DEPTH 0                       /* fog.frag: sampler2D, the depth target */
#define SW_FOG_UNIT_VOLUME 1                      /* fog.frag: sampler3D, the integrated volume, linear */
#define SW_FOG_LOC_INVERSE_VIEW_PROJECTION 0      /* mat4: the drawing matrix's inverse */
#define SW_FOG_LOC_EYE 1                          /* vec3: the camera's position */
#define SW_FOG_LOC_FORWARD 2                      /* vec3: the camera's unit forward axis */
#define SW_FOG_LOC_MEDIUM 3                       /* vec4: density, height density, height base, height falloff */
#define SW_FOG_AMBIENT_PERCENT 25                 /* the share of the light the medium scatters in the sun's shadow */
#define SW_FOG_LOC_LIGHT 4                        /* vec3: the light the medium scatters, colour × the light scale */
#define SW_FOG_IMAGE_RAW 1                        /* fog.comp: image3D rgba16f, this frame's per-froxel source (scatter, extinction) before the repair */
#define SW_FOG_IMAGE_INVALID 2                    /* fog.comp: image3D r8, 1 where the history was invalid (repaired) */
#define SW_FOG_IMAGE_SOURCE 3                     /* fog.comp: image3D rgba16f, the repaired source: integrated, and next frame's history */
#define SW_FOG_LOC_STAGE 13                       /* int: SW_FOG_STAGE_* */
#define SW_FOG_STAGE_SOURCE 0                     /* medium, light and history per froxel -> raw, invalid */
#define SW_FOG_STAGE_REPAIR 1                     /* invalid froxels: the mean of 27 raw neighbours -> source (others copied) */
#define SW_FOG_STAGE_INTEGRATE 2                  /* source, near -> far per column -> volume */
#define SW_FOG_UNIT_HISTORY 8                     /* fog.comp: sampler3D, the previous frame's source volume, linear */
#define SW_FOG_LOC_PREVIOUS_VIEW_PROJECTION 5     /* mat4 (5..8): the previous frame's world -> clip */
#define SW_FOG_LOC_PREVIOUS_EYE 9                 /* vec3 */
#define SW_FOG_LOC_PREVIOUS_FORWARD 10            /* vec3 */
#define SW_FOG_LOC_HISTORY 11                     /* int: 1 = blend with the history, 0 = none (first frame) */
#define SW_FOG_LOC_JITTER 12                      /* float: where in each slice the medium is sampled, 0..1 (0.5 without history) */
#define SW_FOG_HISTORY_PERCENT 90                 /* the history's weight (sw__fog_reproject, fog.h) */
/* The transparent pass's forward path reads the volume through sw_air
   (lighting_common.glsl), in the G-buffer program, the snow's (weather.frag)
   and the toon program (toon.frag's sw_toon_air): a unit and locations free
   in all of them. */
#define SW_SHADE_UNIT_FOG 17                      /* sampler3D: the integrated volume */
#define SW_SHADE_LOC_FOG 100                      /* int: 1 = read the fog volume, 0 = no fog */
#define SW_SHADE_LOC_FOG_FORWARD 101              /* vec3: the camera's unit forward axis */
#define SW_SHADE_LOC_FOG_VIEW_PROJECTION 102      /* mat4: world -> clip, for the volume's uv (102..105) */

/* ---- Falling snow (weather.h, weather_pass.c; docs/weather.md) ---- */
#define SW_WEATHER_ATTR_FLAKE 0                   /* vec4 per instance: world position, drawn radius (m) */
#define SW_WEATHER_ATTR_FADE 1                    /* float per instance: the disc's fade (drawn bigger than it is) */
#define SW_WEATHER_LOC_VIEW_PROJECTION 0          /* mat4 (0..3): world -> clip, the scene's (jittered) */
#define SW_WEATHER_LOC_RIGHT 4                    /* vec3: the camera's unit right axis, world */
#define SW_WEATHER_LOC_UP 5                       /* vec3: the camera's unit up axis, world */
#define SW_WEATHER_CORE_ALPHA_PERCENT 90          /* a flake's opacity inside half its radius */
#define SW_WEATHER_ALBEDO_PERCENT 90              /* snow's albedo */

/* ---- environment probes (probe_math.h; docs/probes.md) ---- */
#define SW_PROBE_CLUSTERS_X 32                    /* screen tiles across */
#define SW_PROBE_CLUSTERS_Y 24                    /* screen tiles down */
#define SW_PROBE_CLUSTERS_Z 16                    /* logarithmic depth slices */
#define SW_PROBE_MAX 64                           /* two 32-bit masks per cluster; = SW_RENDER_PROBE_MAX */
#define SW_PROBES_BLOCK 3                         /* uniform buffer binding (probes.glsl) */
#define SW_PROBE_CLUSTER_BUFFER 4                 /* shader storage binding: uvec2 masks per cluster */
#define SW_PROBE_VEC4S 12                         /* per probe: position+fade, box min, box max, 9 SH9 */
/* The probes' prefiltered cubes (sw_renderer_set_probe_cubes): a cube-map
   array, cube 0 the global cube, cube 1 + i probe i, read by sw_shade
   (lighting_common.glsl) in the lighting and G-buffer programs. */
#define SW_SHADE_UNIT_PROBE_CUBES 9               /* samplerCubeArray (free in gbuffer.frag and lighting.frag) */

#endif
