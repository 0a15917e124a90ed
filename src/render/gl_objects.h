/* gl_objects.h — the GL objects the renderer's parts all make the same
   way: programs from the embedded shaders, textures, framebuffer checks.
   The renderer's files and the post chain use it; it uses none of them.
   Not a public header; every function needs the GL context current. */
#ifndef SINEW_RENDER_GL_OBJECTS_H
#define SINEW_RENDER_GL_OBJECTS_H

#include <epoxy/gl.h>

#include "sinew/base.h"

/* shaders/ and render_interface.h, embedded by cmake/embed_shaders.cmake. */
extern const char sw_shader_render_interface_h[];
extern const char sw_shader_material_block_glsl[];
extern const char sw_shader_lighting_common_glsl[];
extern const char sw_shader_probes_glsl[];
extern const char sw_shader_depth_glsl[];
extern const char sw_shader_gbuffer_vert[];
extern const char sw_shader_gbuffer_frag[];
extern const char sw_shader_toon_frag[];
extern const char sw_shader_lighting_frag[];
extern const char sw_shader_shadow_vert[];
extern const char sw_shader_shadow_frag[];
extern const char sw_shader_shadow_decode_frag[];
extern const char sw_shader_shadow_mask_frag[];
extern const char sw_shader_lines_vert[];
extern const char sw_shader_lines_frag[];
extern const char sw_shader_fullscreen_vert[];
extern const char sw_shader_post_frag[];
extern const char sw_shader_post_velocity_frag[];
extern const char sw_shader_post_motion_blur_frag[];
extern const char sw_shader_post_bloom_frag[];
extern const char sw_shader_post_edges_frag[];
extern const char sw_shader_post_edge_weights_frag[];
extern const char sw_shader_post_edge_blend_frag[];
extern const char sw_shader_post_taa_frag[];
extern const char sw_shader_sky_frag[];
extern const char sw_shader_hiz_frag[];
extern const char sw_shader_decal_frag[];
extern const char sw_shader_ao_frag[];
extern const char sw_shader_recon_pick_frag[], sw_shader_recon_upsample_frag[];
extern const char sw_shader_fog_comp[], sw_shader_fog_frag[];
extern const char sw_shader_weather_vert[], sw_shader_weather_frag[]; /* weather_pass.c */
extern const char sw_shader_feedback_comp[];
extern const char sw_shader_snow_cache_vert[], sw_shader_snow_cache_frag[];

/* A program of two embedded stages (sw_shader_*), each compiled with
   "#version", render_interface.h, the depth convention (shaders/depth.glsl)
   and, for the stages that read it, the material block (shaders/material_block.glsl) before it. On failure
   nothing is kept and diag has the driver's log. */
sw_result sw__program(const char* vs, const char* fs, const char* name, GLuint* out, sw_diag* diag);
/* A compute program from one embedded stage (same source parts). */
sw_result sw__compute_program(const char* cs, const char* name, GLuint* out, sw_diag* diag);

/* An immutable w × h 2D texture, one level, `filter` both ways, clamped to
   the edge; left bound. */
GLuint sw__texture2d(GLenum internal, int w, int h, GLenum filter);

/* A 1 × 1 RGBA8 texture of one colour (nearest). */
GLuint sw__solid_texture(const uint8_t rgba[4]);

/* SW_ERR_UNSUPPORTED, naming the framebuffer, unless the bound one is complete. */
sw_result sw__framebuffer_complete(const char* name, sw_diag* diag);

#endif
