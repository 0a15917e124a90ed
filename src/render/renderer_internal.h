/* renderer_internal.h — the renderer's state and the functions its files
   share (not a public header; every function needs the GL context
   current). The files, each calling only those listed after it:

     renderer.c     create, destroy, set_scene, set_toon_material,
                    sw_renderer_draw (the passes of a frame: skinning,
                    shadow map, G-buffer, lighting, sky, transparent
                    pass, post chain), readbacks, stats
     debug_views.c  the weight and retention views' per-vertex values, bones
     toon_pass.c    the toon draws: per-draw state, surfaces and outlines
                    (the G-buffer pass's, and one at a time for the
                    transparent pass)
     stage.c        sw_renderer_set_stage: the stage models' draws (appended
                    to the scene's), materials, palettes; skinning them
     crowd.c        a crowd's GPU objects (sw_renderer_set_crowd), posing,
                    skinning and bounds
     scene.c        sw_renderer_set_scene: draws, palettes, vertex arrays,
                    outline instances, the ground; skinning the scene, its
                    bounds, drawing one primitive
     material.c     textures, toon ramps and one uniform block per material
                    (sw__material_block, shaders/material_block.glsl); which
                    toon data a draw gets, its head joint
     outline.c      outline normals (CPU only)
     sky_pass.c     the sky on background pixels (its numbers: sky.c, sky.h)
     lights.c       sw_renderer_set_lights, the lighting uniforms both
                    lit paths share
     hiz.c          the Hi-Z pyramid and the occlusion test of rigid
                    draws (hiz.h: the test's CPU reference)
     camera.c       camera and light matrices, the depth convention's C
                    twin (depth_convention.h; CPU only)
     decal.c        sw_renderer_set_decals and the decal pass (decal_math.c
                    is its C reference, no GL)
     ao.c           ambient occlusion: the C reference, proxy fitting, the pass
     recon.c        half-res lighting reconstruction (pick, joint-bilateral upsample)
     gl_objects.c   programs, textures, framebuffer checks (gl_objects.h;
                    the post chain uses it too)
     pass_timer.c   each pass's GPU and CPU time (pass_timer.h) */
#ifndef SINEW_RENDER_RENDERER_INTERNAL_H
#define SINEW_RENDER_RENDERER_INTERNAL_H

#include "sinew/render.h"

#include <epoxy/gl.h>
#include <math.h>

#include "depth_convention.h"
#include "ao.h"
#include "recon.h"
#include "feedback_pass.h"
#include "gl_objects.h"
#include "hiz.h"
#include "pass_timer.h"
#include "post_chain.h"
#include "render_interface.h"
#include "shadow_cache.h"

#define SW__PI 3.14159265358979f

static inline sw_vec3 sw__v3(const float* p) { return sw_vec3_make(p[0], p[1], p[2]); }

/* Whether a coordinate is one no camera can frame: not finite, or beyond
   SW_MODEL_MAX_EXTENT (model.h; sinew check reports it as extent_absurd). */
static inline bool sw__beyond_extent(float x) { return !(fabsf(x) <= (float)SW_MODEL_MAX_EXTENT); }

/* ---- camera.c ---------------------------------------------------------------------- */

sw_mat4 sw__look_at(sw_vec3 eye, sw_vec3 target, sw_vec3 up);
/* (projection · view)⁻¹, each factor inverted on its own; the projection
   reversed or not (depth_convention.h, sw__camera_matrix). */
sw_mat4 sw__inverse_view_projection(const sw_camera* camera, float aspect, bool reverse);
/* The light: the frame's direction, else from the upper front left; an
   orthographic box around the box [lo, hi]'s bounding sphere. */
void sw__light(const float lo[3], const float hi[3], const float towards[3], sw_vec3* direction,
               sw_mat4* view_projection);

/* ---- outline.c --------------------------------------------------------------------- */

/* Outline normals of a triangle primitive (x, y, z, 1 per vertex): the
   normalised sum of the unit normals of all vertices at the same position;
   NULL for points and lines or when out of memory (no outline then). */
float* sw__outline_normals(const sw_model_primitive* primitive);

/* ---- material.c -------------------------------------------------------------------- */

typedef struct sw__draw sw__draw;

/* The material block (std140), member by member as shaders/material_block.glsl
   declares it; offsets are checked in material.c. */
typedef struct sw__material_block {
    float base_color[4];
    float emissive[3];
    float normal_scale;
    float metallic_roughness[2];
    float occlusion_strength;
    float alpha_cutoff;
    uint32_t class_id;
    int32_t kind;
    int32_t glint_count;
    float view_lift;
    float uv_transform[SW_MATERIAL_UV_COUNT][3][4]; /* mat3: three vec4 columns */
    int32_t uv_set[SW_MATERIAL_UV_COUNT][4];        /* int array: a vec4 stride */
    float shadow_area[4];
    int32_t toon_uv_sets[4];
    float uv_animation[3];
    float toon_normal_scale;
    float glint[2][4];
    float glint_params[2][4];
    float glint_color[2][4];
    float hair_band[2][4];
    float hair_band_color[2][4];
    float rim_color[4];
    float rim[4];
    float outline_color[4];
    float iris[3];
    float padding0;
    float face[2];
    float padding1[2];
    float outline[4];
    int32_t fold_mask;
    int32_t fold_uv_set;
    float outline_world;
    float gi_equalization;
    float shade_color[4];
    float mtoon[4];
    float matcap_color[4];
    float transmission[4];          /* KHR_materials_transmission/volume: factor, thickness, attenuation distance, opaque */
    float attenuation_color[4];
    float snow[4];                  /* SW_materials_snow: threshold, width, sparkle, 1 = on (0 = no snow) */
    float snow_color[4];            /* cover colour (linear RGB), cover roughness */
} sw__material_block;

/* One material as drawn: its values (the block), textures and flags,
   made when the scene is set. Entry material_count of the renderer's array
   is the fallback for primitives without a material. */
typedef struct sw__material {
    const sw_model_material* core;  /* the model's, or the fallback */
    sw_toon_material toon;          /* as given (present: it has toon data) */
    sw_toon_material derived;       /* sw_toon_derive of core, for SW_RENDER_STYLE_TOON */
    GLuint block;                   /* uniform buffer: sw__material_block */
    sw__material_block values;      /* what `block` holds */
    /* A frame's sw_render_material_override: `values` changed, in a
       buffer of its own (made the first time); drawn while `overridden`. */
    GLuint override_block;
    bool overridden;
    GLuint ramp;                    /* the ramp of the toon data it draws with (toon if present, else derived) */
    /* Bound per draw, texture unit by unit (0 = none: white, or a flat
       normal on the normal slot): the G-buffer pass's slots, and the toon
       pass's slots, ramp and maps (SW_TOON_UNIT_SHADOW is the frame's). */
    GLuint gbuffer_textures[SW_MATERIAL_SLOT_COUNT];
    GLuint toon_textures[SW_TOON_UNIT_COUNT];
    int gbuffer_flags;              /* SW_GBUFFER_FLAG_NORMAL_TEXTURE, _DOUBLE_SIDED: the material's bits */
    int toon_gbuffer_flags;         /* the same with the toon pass's normal texture */
    int toon_flags;                 /* SW_TOON_FLAG_*, but the outline pass's */
} sw__material;

/* A stage model's textures (into *out_textures) and materials, into
   renderer->materials[base, base + model->material_count), made as the
   scene's are; the array must have room. Freed by sw__clear_model_materials. */
sw_result sw__prepare_model_materials(sw_renderer* renderer, const sw_model* model, const sw_material_set* set,
                                      size_t base, GLuint** out_textures, sw_diag* diag);
void sw__clear_model_materials(sw_renderer* renderer, const sw_model* model, size_t base, GLuint* textures);
/* Textures from the set's images, every material's toon data, ramps and
   blocks, the ground's block. NULL materials: no textures, no toon data. */
sw_result sw__prepare_materials(sw_renderer* renderer, const sw_material_set* materials, sw_diag* diag);
void sw__clear_materials(sw_renderer* renderer);
/* The ground's block (grey, lit, no textures), made with the renderer. */
GLuint sw__ground_block(void);
/* The toon data a draw gets in `style`, or NULL for the PBR path. Unlit
   materials stay unlit unless they carry toon data themselves. */
const sw_toon_material* sw__toon_of(const sw_renderer* renderer, const sw__draw* draw, sw_render_style style);
/* The head joint's frame (unit axes right, up, forward; origin) for toon
   data t on draw d: the material's joint, else the model's "head", else
   the draw's own node. */
void sw__head_frame(const sw_renderer* renderer, const sw__draw* draw, const sw_pose* pose, const sw_toon_material* t,
                    float axes[3][3], float origin[3]);
/* Whether draw d folds its tagged vertices (a tag set it has, 0 or 1). */
bool sw__folds(const sw__draw* draw, const sw_toon_material* t);
/* Whether the draw's material has toon data (as given, else derived) that
   draws an outline under some style: its outline instances are made. */
bool sw__may_outline(const sw_renderer* renderer, const sw__draw* draw);
/* The block a draw of material m binds this frame. */
static inline GLuint sw__block_of(const sw__material* m) { return m->overridden ? m->override_block : m->block; }
/* The frame's material overrides (sinew/render.h, sw_render_frame_avatar)
   into the override blocks; every other material draws its own block. */
sw_result sw__apply_overrides(sw_renderer* renderer, const sw_render_frame* frame, sw_diag* diag);
/* Whether the frame hides draw d's node (sw_render_frame_avatar.hidden_nodes). */
static inline bool sw__hidden(const sw_render_frame* f, const sw__draw* d);
/* Whether the frame draws d in the transparent pass: an alphaMode BLEND
   material (toon, unlit or lit metallic-roughness, shaded forward) or a
   transmissive one (sw__transmissive), in
   the shaded, normals or motion view. Everything else draws into the
   G-buffer. */
bool sw__blended(const sw_renderer* renderer, const sw_render_frame* frame, const sw__draw* draw, sw_render_style style);
/* Whether draw d is a glTF material with KHR_materials_transmission
   (factor > 0) drawn by the G-buffer program: the transparent pass draws
   it, OPAQUE or not (docs/transparency.md, "Transmission"). */
bool sw__transmissive(const sw_renderer* renderer, const sw__draw* draw, sw_render_style style);
/* One transparent draw of a frame, in drawing order (renderer.c): its
   queue (MToon's render queue: z-writing BLEND before the others, each by
   its clamped renderQueueOffsetNumber), its depth along the view. */
typedef struct sw__blend_entry {
    size_t draw;
    int queue;
    bool z_write;
    float depth;
} sw__blend_entry;
/* Replaces material m's toon data and remakes its ramp and block. */
sw_result sw__set_material_toon(sw_renderer* renderer, size_t m, const sw_toon_material* toon, sw_diag* diag);

/* ---- scene.c ----------------------------------------------------------------------- */

struct sw__draw {
    /* Whose draw it is: 0 the character's (the scene of set_scene), k + 1
       stage model k's (stage.c); node, primitive and prim are that
       model's. Stage draws follow the character's in the renderer's array. */
    uint32_t stage;
    const sw_model* model;
    /* Stage draws: world-space bounds at the placed rest pose (read back
       once, when the stage is set). */
    float world_min[3], world_max[3];
    size_t node, primitive;
    const sw_model_primitive* prim;
    size_t material;          /* index into the renderer's materials (material_count: the fallback) */
    GLenum mode;
    GLuint vao;
    GLuint static_buffer;     /* uv0 | uv1 | colours */
    GLuint index_buffer;
    GLuint weight_buffer;     /* the weight and retention views' per-vertex value */
    /* The palette it is skinned with (one per skin, or per rigid node; the
       renderer's), and its instance. */
    sw_gpu_model_palette* palette;
    sw_gpu_model_primitive* gpu;
    /* Toon outlines: the instance whose tangent stream holds the outline
       normals (gpu itself when the primitive has no tangents of its own,
       else a second one; NULL without outline normals or when no toon data
       of its material draws an outline), and the normals (x, y, z, 1 per
       vertex; NULL for points and lines). */
    sw_gpu_model_primitive* outline_gpu;
    float* outline_normals;
    /* Crowds (sw_renderer_set_crowd): the same for the crowd's copies. */
    sw_gpu_model_palette* crowd_palette;
    sw_gpu_model_primitive* crowd_gpu;
    sw_gpu_model_primitive* crowd_outline_gpu;
    /* The first-person copy (sw_renderer_set_erased_joints): the kept
       triangles as a list (GL_TRIANGLES), and how many were erased;
       has_headless false: none made (nothing erased). */
    bool has_headless;
    GLuint headless_index_buffer;
    size_t headless_index_count;
    size_t erased_triangles;
    /* What the frame being drawn uses: gpu and outline_gpu, or the crowd's;
       the first-person copy (sw_render_frame_avatar.headless_nodes). */
    const sw_gpu_model_primitive* drawn;
    const sw_gpu_model_primitive* drawn_outline;
    bool headless;
    /* Occlusion culling (hiz.c): the last frame found it hidden, so the
       G-buffer pass tests it in its second phase instead of drawing it in
       the first. */
    bool occlusion_hidden;
};

static inline bool sw__draw_is_stage(const sw__draw* d) { return d->stage != 0; }

static inline bool sw__hidden(const sw_render_frame* f, const sw__draw* d) {
    return !sw__draw_is_stage(d) && f->avatar.hidden_nodes && f->avatar.hidden_nodes[d->node];
}

/* Skins every draw of the character at a pose, moved by placement (NULL:
   none): each palette posed once, then each primitive skinned. */
sw_result sw__skin_scene(sw_renderer* renderer, const sw_pose* pose, const sw_mat34* placement, sw_skin_method method,
                         sw_diag* diag);
/* Skins the outline instances that `style` draws, after sw__skin_scene
   posed the palettes. */
sw_result sw__skin_outlines(sw_renderer* renderer, const sw_pose* pose, const sw_mat34* placement,
                            sw_skin_method method, sw_render_style style, sw_diag* diag);
/* Makes the draw's outline instance when it may draw one and has none. */
sw_result sw__make_outline(sw_renderer* renderer, sw__draw* draw, sw_diag* diag);
/* Draws one primitive from the buffers of `gpu` (the draw's instance, or
   its outline instance), every copy of a crowd: with `instanced` in one
   instanced draw (the G-buffer or toon program: gbuffer.vert reads copy
   gl_InstanceID's vertices from the skinned buffers), else copy after copy
   from the attributes (the shadow program). */
void sw__draw_copies(const sw__draw* draw, const sw_gpu_model_primitive* gpu, bool instanced);
/* The palette a draw is skinned with, among `palettes` (the renderer's
   single ones or its crowd's, `copies` copies): its skin's, or its node's,
   made the first time a draw needs it. */
sw_result sw__palette_for(sw_renderer* renderer, const sw__draw* draw, sw_gpu_model_palette** palettes, size_t copies,
                          sw_gpu_model_palette** out, sw_diag* diag);
/* The scene of sw_renderer_set_scene (the renderer holds none before). */
sw_result sw__prepare_scene(sw_renderer* renderer, const sw_model* model, const sw_material_set* materials,
                            sw_diag* diag);
void sw__clear_scene(sw_renderer* renderer);
/* Shared with stage.c: a primitive mode's GL mode; a draw's vertex array
   and static streams; frees a draw's GL objects and instances; the
   positions of every mesh the model's nodes draw, within
   SW_MODEL_MAX_EXTENT (`what` names the model in the message). */
GLenum sw__gl_mode(sw_model_mode mode);
void sw__setup_vao(sw__draw* draw);
void sw__free_draw(sw__draw* draw);
sw_result sw__check_extent(const sw_model* model, const char* what, sw_diag* diag);
/* The triangles a draw's primitive counts (its element count for lists,
   strips and fans), for the stats. */
size_t sw__draw_triangles(const sw__draw* draw);

/* ---- stage.c ----------------------------------------------------------------------- */

/* One stage model as set (sw_renderer_set_stage): its draws are
   draws[first_draw, first_draw + draw_count); its material i is
   materials[material_base + i]. */
typedef struct sw__stage_model {
    const sw_model* model;
    const sw_material_set* materials;
    sw_mat34 placement;
    size_t material_base;
    size_t first_draw, draw_count;
    GLuint* textures;                  /* one per model texture (material.c) */
    sw_gpu_model_palette** palettes;   /* skin_count + node_count, as the scene's */
    void* rest_memory;
    sw_pose rest;                      /* its rest pose, world and skin matrices evaluated */
    const sw_pose* pose;               /* the pose its draws were last skinned at */
    bool at_rest;                      /* skinned at rest: nothing to do until a frame poses it */
} sw__stage_model;

/* Frees the stage's draws, materials, palettes (sw_renderer_set_stage with 0). */
void sw__clear_stage(sw_renderer* renderer);
/* Skins the stage models a frame poses (stage_poses) or that are not at
   rest; a static stage model costs nothing. */
sw_result sw__skin_stage(sw_renderer* renderer, const sw_render_frame* frame, sw_diag* diag);
/* Stage draw d's node's world matrix as drawn (its pose's, placed). */
sw_mat34 sw__stage_node_world(const sw_renderer* renderer, const sw__draw* draw);
/* The box the light and shadow map fit this frame: the scene box, joined
   with the stage's bounds and clamped around the scene box (render.h,
   "Stages"); the scene box itself without a stage. */
void sw__light_box(const sw_renderer* renderer, float lo[3], float hi[3]);
/* The box [lo, hi] moved by a placement: the box of its eight corners. */
void sw__place_box(const sw_mat34* placement, float lo[3], float hi[3]);
/* The number of stage draws. */
static inline size_t sw__stage_draw_count(const sw_renderer* renderer);

/* ---- crowd.c ----------------------------------------------------------------------- */

/* Frees every draw's crowd objects and the crowd's palettes. */
void sw__clear_crowd(sw_renderer* renderer);
/* Makes the draw's crowd outline instance, when it has a single one and
   a crowd is prepared. */
sw_result sw__make_crowd_outline(sw_renderer* renderer, sw__draw* draw, sw_diag* diag);
/* Poses and skins every copy of every draw, the outlines `style` draws included. */
sw_result sw__skin_crowd(sw_renderer* renderer, const sw_render_frame* frame, sw_skin_method method, sw_diag* diag);
/* The skinned bounds of every copy (read back), as sw_renderer_scene_bounds. */
sw_result sw__crowd_bounds(sw_renderer* renderer, float lo[3], float hi[3], sw_diag* diag);

/* ---- toon_pass.c ------------------------------------------------------------------- */

/* Which faces a surface draw shows: the material's rule (back faces culled
   unless double-sided), or the back or the front faces only (the
   transparent pass draws a double-sided material's back faces first). */
typedef enum sw__faces { SW__FACES_MATERIAL, SW__FACES_BACK, SW__FACES_FRONT } sw__faces;

/* The toon program and its state of this frame (the shadow map bound). */
void sw__toon_frame(const sw_renderer* renderer, const sw_render_frame* frame, const sw_mat4* vp,
                    const sw_mat4* previous_vp, sw_vec3 light_direction, const sw_mat4* light_vp);
/* One toon draw with the toon program in use: its surface (`faces`), or
   with `outline` its outline hull (nothing when it draws none). */
void sw__draw_toon_one(const sw_renderer* renderer, const sw__draw* draw, const sw_render_frame* frame,
                       const sw_toon_material* t, int flags, bool outline, sw__faces faces);
/* The toon draws of the frame (G-buffer framebuffer bound): the surfaces,
   then the outline hulls behind them; not the transparent ones. */
void sw__draw_toon(sw_renderer* renderer, const sw_render_frame* frame, sw_render_style style, const sw_mat4* vp,
                   const sw_mat4* previous_vp, sw_vec3 light_direction, const sw_mat4* light_vp, int flags);

/* ---- ao.c ------------------------------------------------------------------------- */

/* The frame's ambient occlusion from the finished G-buffer (screen AO ×
   the scene's shape proxies at f->pose; none for a crowd; the contact
   term towards light_direction, world), in columns x0..x1 (a split
   frame's half: its samples stay in them). Computed at half resolution
   on the reconstruction's pick and upsampled (recon.h): returns the
   full-res target (recon output: R ambient, G contact), cleared to 1
   with SW_RENDER_AO_OFF. Times its passes ("recon", "ao"). */
GLuint sw__ao_frame(sw_renderer* renderer, const sw_render_frame* frame, sw_vec3 light_direction, int x0, int x1);

/* ---- debug_views.c ----------------------------------------------------------------- */

/* The weight view's per-vertex weights of one joint (node), into every
   draw's weight buffer (kept while the joint stays). */
sw_result sw__weight_buffers(sw_renderer* renderer, int32_t joint_node, sw_diag* diag);
/* The retention view's values at this pose, into every draw's weight buffer. */
sw_result sw__retention_buffers(sw_renderer* renderer, const sw_pose* pose, sw_diag* diag);
/* Bones over the image (the image framebuffer). */
sw_result sw__draw_bones(sw_renderer* renderer, const sw_pose* pose, const sw_mat4* vp, sw_diag* diag);

/* weight_joint when the weight buffers hold the retention view's values. */
#define SW__WEIGHTS_RETENTION (-2)

/* ---- fog_pass.c --------------------------------------------------------------------- */

typedef struct sw__fog_state sw__fog_state;
typedef struct sw__weather_state sw__weather_state; /* weather_pass.c */
/* The fog's programs, volume and framebuffer (the HDR target). */
sw_result sw__fog_pass_create(GLuint hdr, sw__fog_state** out, sw_diag* diag);
void sw__fog_pass_destroy(sw__fog_state* fog);
/* The volume of the frame's medium (lit by the sun through its shadow
   cascades), then its composite over columns x0..x1 of the HDR target;
   nothing when the frame has no fog. */
void sw__fog_pass(sw_renderer* renderer, const sw_render_frame* frame, int x0, int x1, sw_vec3 light_direction,
                  const sw_mat4* light_vp);
/* The transparent pass's fog (sw_air in lighting_common.glsl) for the
   G-buffer program in use: the volume and the camera, or off. */
void sw__fog_air_uniforms(sw_renderer* renderer, const sw_render_frame* frame);

/* ---- sky_pass.c --------------------------------------------------------------------- */

typedef struct sw__sky_state sw__sky_state;
/* The sky's program, tables and framebuffer (the HDR and motion targets). */
sw_result sw__sky_pass_create(GLuint hdr, GLuint motion, sw__sky_state** out, sw_diag* diag);
void sw__sky_pass_destroy(sw__sky_state* sky);
/* The sky on the background pixels of columns x0..x1, after the lighting
   and before the transparent draws (which blend over it): colour into
   the HDR target, the camera's turn into the motion target. */
void sw__sky_pass(sw_renderer* renderer, const sw_render_frame* frame, int x0, int x1);
/* Towards the frame's light (sw__light's `towards`): the frame's
   light_direction, or when that is zero and a time of day is given the
   sun's (the moon's at night). */
void sw__frame_light_towards(const sw_render_frame* frame, float out[3]);
/* Factors on the light's colour and the ambient of the lighting and toon
   passes: 1 without a time of day (sw__sky_light_scale). */
void sw__frame_light_scale(const sw_render_frame* frame, float light[3], float ambient[3]);
/* ---- hiz.c ------------------------------------------------------------------------- */

typedef struct sw__hiz sw__hiz;
/* The pyramid's texture (R32F, every level) and framebuffer for a
   width × height depth target, its program, the readback memory. */
sw_result sw__hiz_create(int width, int height, sw__hiz** out, sw_diag* diag);
void sw__hiz_destroy(sw__hiz* hiz);

/* Footprints (snow_trail.c, docs/snow.md): the trail field refilled by
   the time step, stamped by the frame's skin joints near the ground and
   uploaded; bound (texture and uniform) for the G-buffer program in use. */
typedef struct sw__snow_trail sw__snow_trail;
bool sw__snow_any(const sw_renderer* r); /* a material of the scene or stage has snow */
sw_result sw__snow_trail_update(sw_renderer* r, const sw_render_frame* f, sw_diag* diag);
void sw__snow_trail_bind(const sw_renderer* r, bool on);
void sw__snow_trail_destroy(sw__snow_trail* t);
/* The surface-height cache (snow_cache.c, snow_cache.h): drawn once per
   stage from above, read by the trail and the snow shading. */
typedef struct sw__snow_cache sw__snow_cache;
/* Where the character's feet are (its lowest skin joint, world); false
   without a pose or skin. */
bool sw__snow_feet(const sw_renderer* r, const sw_render_frame* f, float out[3]);
/* The cache for this frame (pass SW__PASS_SNOW_CACHE): drawn when needed. */
sw_result sw__snow_cache_update(sw_renderer* r, const sw_render_frame* f, sw_diag* diag);
void sw__snow_cache_invalidate(sw__snow_cache* c); /* the stage changed */
void sw__snow_cache_destroy(sw__snow_cache* c);
/* Builds every level from the depth texture and reads the test's levels
   back (sw__hiz_pyramid). Leaves depth test, face culling, scissor and
   blending off and no framebuffer bound. */
sw_result sw__hiz_build(sw__hiz* hiz, GLuint depth, bool reverse, GLuint empty_vao, sw_diag* diag);
const sw__hiz_levels* sw__hiz_pyramid(const sw__hiz* hiz);
/* For the other screen passes (ambient occlusion, reflections): the R32F
   pyramid of this frame's G-buffer depth, the farthest depth per texel. */
GLuint sw__hiz_texture(const sw__hiz* hiz);
/* ---- decal.c ----------------------------------------------------------------------- */

/* The decals (sw_renderer_set_decals): made by the first call. */
typedef struct sw__decals sw__decals;
/* The decal pass: after the G-buffer pass (its framebuffer's scissor
   kept), before the lighting; nothing without decals or in the UV and
   weight views. */
void sw__decal_pass(sw_renderer* renderer, const sw_render_frame* frame);
void sw__decals_destroy(sw_renderer* renderer);

/* ---- the renderer ------------------------------------------------------------------- */

struct sw_renderer {
    int width, height, shadow_size;
    /* targets */
    GLuint gbuffer_fbo, lighting_fbo, image_fbo, shadow_fbo;
    GLuint t_normal, t_albedo, t_material, t_class, t_motion, t_depth, t_hdr, t_image, t_shadow;
    /* programs */
    GLuint p_gbuffer, p_shadow, p_lighting, p_lines, p_toon;
    GLuint p_shadow_mask;           /* the shadow pass's alpha-tested casters (shadow_mask.frag) */
    sw__post_chain* post;     /* display mapping and the rest of the post chain */
    sw__fog_state* fog;       /* the volumetric fog (fog_pass.c) */
    sw__weather_state* weather; /* falling snow (weather_pass.c); made on the first frame with snow */
    sw__sky_state* sky;       /* the sky on background pixels (sky_pass.c) */
    sw__ao_pass* ao;          /* ambient occlusion (ao.c), half resolution */
    sw__recon_pass* recon;    /* its pick and upsample (recon.c) */
    sw__feedback_pass feedback; /* the character's environment feedback (feedback_pass.c) */
    bool feedback_dirty;      /* the state holds updates: reset it when the feedback is off */
    /* Her shape, measured once per scene, and where she stands this frame (feedback_body.c). */
    int32_t feedback_joint;   /* the joint that carries her (sw__feedback_joint); -1: the model's origin */
    sw__feedback_shape feedback_shape;
    bool feedback_shaped;
    sw__feedback_body feedback_body;
    bool feedback_have_body;
    sw__ao_rig_proxy ao_rig[SW_AO_MAX_PROXIES]; /* the scene's shape proxies, fitted by set_scene */
    size_t ao_rig_count;
    sw__shadow_cache* shadow_cache; /* the static casters' compressed depth (shadow_cache.h) */
    GLuint empty_vao;
    GLuint white_texture, flat_normal_texture;
    GLuint ground_block;      /* the ground's material block */
    sw_gpu_skinner* skinner;
    /* scene */
    const sw_model* asset;
    const sw_material_set* material_set; /* NULL: none given */
    sw__draw* draws;
    size_t draw_count;        /* the character's draws, then the stage's */
    size_t character_draw_count; /* draws[0, this): the character's (set_scene) */
    /* The stage (stage.c): its models; their materials follow the scene's
       (material_count + 1) in `materials`. */
    sw__stage_model* stage;
    size_t stage_count;
    size_t stage_material_count;
    float stage_min[3], stage_max[3]; /* the stage's bounds at rest, placed */
    /* The frame's character placement (sw_render_frame.placement); placed
       false: none. Read by sw__head_frame and the transparent sort. */
    sw_mat34 placement;
    bool placed;
    sw__blend_entry* blend_order; /* draw_count + 1: the transparent pass's draws, sorted each frame */
    /* The palettes the draws are skinned with: one per skin (skin s at s),
       then one per node drawn rigidly (node n at skin_count + n); NULL where
       nothing uses one. The crowd's the same for crowd_size copies. */
    sw_gpu_model_palette** palettes;
    sw_gpu_model_palette** crowd_palettes;
    size_t palette_count;
    GLuint* textures;         /* one per model texture, 0 = white */
    sw__material* materials;  /* material_count + 1 (the fallback last) */
    int32_t head_node;        /* the node named "head", -1 = none */
    GLuint ground_vao, ground_buffer;
    int32_t weight_joint;     /* node the weight buffers hold, -1 = none, SW__WEIGHTS_RETENTION */
    size_t crowd_size;        /* copies the crowd objects hold, 0 = none */
    sw__pass_timer pass_timer; /* each pass's GPU and CPU time (pass_timer.h) */
    /* last frame, for readbacks */
    sw_renderer_stats stats;
    float scene_min[3], scene_max[3];
    bool have_bounds;
    float ground_y;
    /* Reverse-Z (docs/depth.md): the camera passes draw with GL_ZERO_TO_ONE
       clip control and the reversed projection; false where the context
       has no clip control or the desc asked for ordinary depth. The
       shaders read it from depth_block (SW_DEPTH_BLOCK), bound each frame. */
    bool reverse_z;
    GLuint depth_block;
    sw__hiz* hiz;             /* the Hi-Z pyramid and occlusion culling (hiz.c) */
    sw__snow_trail* snow_trail; /* footprints in the snow (snow_trail.c); NULL until a frame has snow */
    sw__snow_cache* snow_cache; /* the surface-height cache (snow_cache.c); NULL until a frame has snow on a stage */
    /* The last drawn frame's shading time: the UV animation's step for
       motion vectors (toon_pass.c). */
    float previous_time;
    /* The punctual lights (lights.c, sw_renderer_set_lights): the block
       (0 until the first frame or call) and its count. */
    GLuint lights_block;
    size_t light_count;
    sw__decals* decals;       /* NULL: none set */
    /* The environment probes (probes.c, sw_renderer_set_probes): the block
       (0 until the first frame or call) and its count. */
    GLuint probes_block;
    size_t probe_count;
    sw_render_probe* probes;  /* a copy, for the per-frame cluster masks */
    GLuint probe_clusters;    /* the masks' storage buffer (0 until probes are drawn) */
    GLuint probe_cubes;       /* the prefiltered cubes' cube-map array (sw_renderer_set_probe_cubes), 0: none */
};

static inline size_t sw__stage_draw_count(const sw_renderer* r) { return r->draw_count - r->character_draw_count; }

/* ---- lights.c ---------------------------------------------------------------------- */

/* The lighting every lit path shares (lighting_common.glsl), for the
   program in use (the lighting or the G-buffer program): the sun, its
   shadow map (unit SW_LIGHTING_UNIT_SHADOW), the hemisphere, the eye, the
   punctual lights' block. */
/* ---- feedback_body.c: where the character stands for the environment feedback ---- */
/* Her shape (sw__feedback_shape) from her skinned bounds [lo, hi] at `pose`
   (model space, before the placement). */
void sw__feedback_measure(sw_renderer* renderer, const sw_pose* pose, const float lo[3], const float hi[3]);
/* This frame's body: the shape at the carrying joint of this frame's pose,
   placed (measured first when not yet; a crowd: the scene box). Nothing
   when the feedback is off. */
sw_result sw__feedback_follow(sw_renderer* renderer, const sw_render_frame* frame, sw_diag* diag);
/* This frame's body; false: none (no feedback this frame). */
bool sw__feedback_body_of(const sw_renderer* renderer, sw__feedback_body* body);
/* The feedback's uniform (feet, height; height 0 = off) at `location` and
   its state texture on `unit`, for a pass that shades character pixels. */
void sw__feedback_bind(const sw_renderer* renderer, const sw_render_frame* frame, GLint location, GLenum unit);

void sw__shade_uniforms(sw_renderer* renderer, const sw_render_frame* frame, sw_vec3 light_direction,
                        const sw_mat4* light_vp);

/* The ground: a square under the box [lo, hi] (scene.c). */
void sw__ground_geometry(sw_renderer* renderer, const float lo[3], const float hi[3]);

/* ---- weather_pass.c ------------------------------------------------------------------ */

void sw__weather_pass_destroy(sw__weather_state* weather);
/* This frame's snowflakes in view (weather.c), sorted back to front and
   uploaded; none without weather. Builds the program on the first frame
   with snow. */
sw_result sw__weather_prepare(sw_renderer* renderer, const sw_render_frame* frame, sw_diag* diag);
/* Flakes prepared and not drawn yet. */
bool sw__weather_pending(const sw_renderer* renderer);
/* Inside the transparent pass (its targets, blending and depth test set):
   draws the flakes not drawn yet whose view depth is beyond `depth`
   (-INFINITY: all of them), timed as the weather pass; true when it drew
   (its program is then bound, no longer the caller's). */
bool sw__weather_draw_beyond(sw_renderer* renderer, const sw_render_frame* frame, float depth, const sw_mat4* vp,
                             sw_vec3 light_direction, const sw_mat4* light_vp);

/* ---- the depth convention of the camera passes (docs/depth.md) ------------------- */

/* Around every pass that draws with the camera's matrix (G-buffer,
   transparent, and any later one): begin sets the clip control the
   renderer's convention needs, end gives back GL's default, under which
   the shadow map and everything else draw. */
static inline void sw__camera_depth_begin(const sw_renderer* r) {
    if (r->reverse_z) glClipControl(GL_LOWER_LEFT, GL_ZERO_TO_ONE);
}
static inline void sw__camera_depth_end(const sw_renderer* r) {
    if (r->reverse_z) glClipControl(GL_LOWER_LEFT, GL_NEGATIVE_ONE_TO_ONE);
}
/* The depth test that keeps the nearer fragment (GL_LESS's meaning), and
   its "or equal" form. */
static inline GLenum sw__depth_nearer(const sw_renderer* r) { return r->reverse_z ? GL_GREATER : GL_LESS; }
static inline GLenum sw__depth_nearer_or_equal(const sw_renderer* r) { return r->reverse_z ? GL_GEQUAL : GL_LEQUAL; }
/* A polygon offset that pushes away from the eye by (factor, units) as
   glPolygonOffset does under ordinary depth: the signs flip under reverse-Z. */
static inline void sw__depth_offset_away(const sw_renderer* r, float factor, float units) {
    glPolygonOffset(r->reverse_z ? -factor : factor, r->reverse_z ? -units : units);
}

/* ---- probes.c ------------------------------------------------------------------------ */

/* Makes the (possibly empty) probe block and binds it (SW_PROBES_BLOCK)
   for the lighting and toon programs; with probes, this frame's cluster
   masks (SW_PROBE_CLUSTER_BUFFER) for the frame's camera. */
void sw__probes_bind(sw_renderer* renderer, const sw_render_frame* frame);
void sw__probes_destroy(sw_renderer* renderer);
/* Binds the probes' block, this frame's masks and the cube-map array (if
   any, on SW_SHADE_UNIT_PROBE_CUBES) for a program that shades with them
   (lighting, the transparent pass, toon): other passes reuse the bindings. */
void sw__probes_bind_shading(const sw_renderer* renderer);

#endif
