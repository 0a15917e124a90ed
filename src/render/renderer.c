/* The reference renderer (see sinew/render.h): deferred OpenGL 4.3 core,
   offscreen, drawing the compute-skinned buffers. This file makes and
   frees it, sets its scene and draws a frame pass by pass; the parts it
   calls are listed in renderer_internal.h. The GLSL lives in shaders/ and
   is embedded at build time; every location, unit, attribute, output,
   flag and class it shares with the C files is a name from
   render_interface.h. */
#include "renderer_internal.h"

#include <stdlib.h>
#include <string.h>

#include "../base/base_internal.h"

/* The public numbers are the shaders' numbers. */
_Static_assert(SW_RENDER_CLASS_BACKGROUND == SW_CLASS_BACKGROUND && SW_RENDER_CLASS_GROUND == SW_CLASS_GROUND &&
                   SW_RENDER_CLASS_LIT == SW_CLASS_LIT && SW_RENDER_CLASS_UNLIT == SW_CLASS_UNLIT &&
                   SW_RENDER_CLASS_MASK == SW_CLASS_MASK,
               "SW_RENDER_CLASS_* (sinew/render.h) must be the SW_CLASS_* of render_interface.h");
_Static_assert(SW_RENDER_VIEW_SHADED == SW_VIEW_SHADED && SW_RENDER_VIEW_NORMALS == SW_VIEW_NORMALS &&
                   SW_RENDER_VIEW_MOTION == SW_VIEW_MOTION && SW_RENDER_VIEW_UV == SW_VIEW_UV &&
                   SW_RENDER_VIEW_WEIGHTS == SW_VIEW_WEIGHTS && SW_RENDER_VIEW_RETENTION == SW_VIEW_RETENTION &&
                   SW_RENDER_VIEW_AO == SW_VIEW_AO && SW_RENDER_VIEW_DEPTH == SW_VIEW_DEPTH,
               "sw_render_view (sinew/render.h) must be the SW_VIEW_* of render_interface.h");
/* Toon lighting: the class, its history bit and the material kinds. */
_Static_assert(SW_RENDER_CLASS_TOON == SW_CLASS_TOON && SW_RENDER_CLASS_HISTORY_SPARKLE == SW_CLASS_HISTORY_SPARKLE &&
                   SW_RENDER_CLASS_HISTORY_TEXTURE_MOTION == SW_CLASS_HISTORY_TEXTURE_MOTION &&
                   (SW_CLASS_HISTORY_SPARKLE & SW_CLASS_MASK) == 0,
               "SW_RENDER_CLASS_TOON / _HISTORY_SPARKLE (sinew/render.h) must be those of render_interface.h");
_Static_assert((int)SW_TOON_BODY == SW_TOON_KIND_BODY && (int)SW_TOON_HAIR == SW_TOON_KIND_HAIR &&
                   (int)SW_TOON_FACE == SW_TOON_KIND_FACE && (int)SW_TOON_EYE == SW_TOON_KIND_EYE,
               "sw_toon_kind (sinew/toon.h) must be the SW_TOON_KIND_* of render_interface.h");
/* Framebuffers with one colour target keep the default draw buffer, which
   is attachment 0: their passes write output location 0. */
_Static_assert(SW_OUT_COLOR == 0, "the HDR and image framebuffers draw into attachment 0 only");

/* ---- making and freeing ---------------------------------------------------------- */

/* The programs; the material block checked against sw__material_block. */
static sw_result sw__make_programs(sw_renderer* r, sw_diag* diag) {
    sw_result res = sw__program(sw_shader_gbuffer_vert, sw_shader_gbuffer_frag, "gbuffer", &r->p_gbuffer, diag);
    if (res == SW_OK) res = sw__program(sw_shader_shadow_vert, sw_shader_shadow_frag, "shadow", &r->p_shadow, diag);
    if (res == SW_OK)
        res = sw__program(sw_shader_fullscreen_vert, sw_shader_lighting_frag, "lighting", &r->p_lighting, diag);
    if (res == SW_OK) res = sw__program(sw_shader_lines_vert, sw_shader_lines_frag, "lines", &r->p_lines, diag);
    if (res == SW_OK) res = sw__program(sw_shader_gbuffer_vert, sw_shader_toon_frag, "toon", &r->p_toon, diag);
    if (res == SW_OK)
        res = sw__program(sw_shader_shadow_vert, sw_shader_shadow_mask_frag, "shadow_mask", &r->p_shadow_mask, diag);
    const GLuint programs[3] = {r->p_gbuffer, r->p_toon, r->p_shadow_mask};
    for (int i = 0; res == SW_OK && i < 3; i++) {
        GLint size = 0;
        GLuint block = glGetUniformBlockIndex(programs[i], "Material");
        if (block != GL_INVALID_INDEX) glGetActiveUniformBlockiv(programs[i], block, GL_UNIFORM_BLOCK_DATA_SIZE, &size);
        if ((size_t)size != sizeof(sw__material_block))
            res = sw_diag_set(diag, SW_ERR_UNSUPPORTED, -1, "the material block is %d bytes in GLSL and %zu in C",
                              (int)size, sizeof(sw__material_block));
    }
    return res;
}

/* The G-buffer, lighting, image and shadow targets and their framebuffers. */
static sw_result sw__make_targets(sw_renderer* r, sw_diag* diag) {
    const int w = r->width, h = r->height;
    r->t_normal = sw__texture2d(GL_RGB10_A2, w, h, GL_NEAREST);
    r->t_albedo = sw__texture2d(GL_SRGB8_ALPHA8, w, h, GL_NEAREST);
    r->t_material = sw__texture2d(GL_RGBA8, w, h, GL_NEAREST);
    r->t_class = sw__texture2d(GL_R8UI, w, h, GL_NEAREST);
    r->t_motion = sw__texture2d(GL_RG16F, w, h, GL_NEAREST);
    r->t_depth = sw__texture2d(GL_DEPTH_COMPONENT32F, w, h, GL_NEAREST);
    r->t_hdr = sw__texture2d(GL_RGBA16F, w, h, GL_NEAREST);
    r->t_image = sw__texture2d(GL_RGBA8, w, h, GL_NEAREST);
    r->t_shadow = sw__texture2d(GL_DEPTH_COMPONENT32F, r->shadow_size, r->shadow_size, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_COMPARE_MODE, GL_COMPARE_REF_TO_TEXTURE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_COMPARE_FUNC, GL_LEQUAL);

    GLuint fbos[4];
    glGenFramebuffers(4, fbos);
    r->gbuffer_fbo = fbos[0], r->lighting_fbo = fbos[1], r->image_fbo = fbos[2], r->shadow_fbo = fbos[3];
    glBindFramebuffer(GL_FRAMEBUFFER, r->gbuffer_fbo);
    /* The G-buffer pass's outputs: attachment i is output location i. The
       emission goes straight into the HDR target. */
    const GLuint targets[SW_GBUFFER_TARGET_COUNT] = {
        [SW_GBUFFER_NORMAL] = r->t_normal, [SW_GBUFFER_ALBEDO] = r->t_albedo, [SW_GBUFFER_MATERIAL] = r->t_material,
        [SW_GBUFFER_CLASS] = r->t_class,   [SW_GBUFFER_MOTION] = r->t_motion, [SW_GBUFFER_EMISSION] = r->t_hdr,
    };
    GLenum buffers[SW_GBUFFER_TARGET_COUNT];
    for (int i = 0; i < SW_GBUFFER_TARGET_COUNT; i++) {
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0 + (GLenum)i, GL_TEXTURE_2D, targets[i], 0);
        buffers[i] = GL_COLOR_ATTACHMENT0 + (GLenum)i;
    }
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, r->t_depth, 0);
    glDrawBuffers(SW_GBUFFER_TARGET_COUNT, buffers);
    sw_result res = sw__framebuffer_complete("G-buffer", diag);
    if (res == SW_OK) {
        glBindFramebuffer(GL_FRAMEBUFFER, r->lighting_fbo);
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0 + SW_OUT_COLOR, GL_TEXTURE_2D, r->t_hdr, 0);
        res = sw__framebuffer_complete("lighting", diag);
    }
    if (res == SW_OK) {
        glBindFramebuffer(GL_FRAMEBUFFER, r->image_fbo);
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0 + SW_OUT_COLOR, GL_TEXTURE_2D, r->t_image, 0);
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, r->t_depth, 0);
        res = sw__framebuffer_complete("image", diag);
    }
    if (res == SW_OK) {
        glBindFramebuffer(GL_FRAMEBUFFER, r->shadow_fbo);
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, r->t_shadow, 0);
        glDrawBuffer(GL_NONE);
        res = sw__framebuffer_complete("shadow", diag);
    }
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    return res;
}

sw_result sw_renderer_create(const sw_renderer_desc* desc, sw_renderer** out_renderer, sw_diag* diag) {
    if (!out_renderer || !desc) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "NULL desc or out_renderer");
    *out_renderer = NULL;
    if (desc->width < 1 || desc->height < 1 || desc->width > 8192 || desc->height > 8192)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "image size %dx%d is outside 1..8192", desc->width,
                           desc->height);
    sw_renderer* r = (sw_renderer*)sw__calloc(1, sizeof *r);
    if (!r) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for the renderer");
    r->width = desc->width;
    r->height = desc->height;
    r->shadow_size = desc->shadow_map_size > 0 ? desc->shadow_map_size : 2048;
    r->weight_joint = -1;
    r->head_node = -1;
    /* Reverse-Z where the context can map NDC z in [0, 1] to depth (docs/depth.md). */
    r->reverse_z = !desc->ordinary_depth && (epoxy_gl_version() >= 45 || epoxy_has_gl_extension("GL_ARB_clip_control"));

    sw_result res = sw_gpu_skinner_create(&r->skinner, diag);
    if (res == SW_OK) res = sw__make_programs(r, diag);
    if (res == SW_OK) res = sw__make_targets(r, diag);
    glGenVertexArrays(1, &r->empty_vao);
    sw__pass_timer_create(&r->pass_timer);
    r->white_texture = sw__solid_texture((const uint8_t[4]){255, 255, 255, 255});
    r->flat_normal_texture = sw__solid_texture((const uint8_t[4]){128, 128, 255, 255});
    r->ground_block = sw__ground_block();
    if (res == SW_OK) res = sw__post_chain_create(r->width, r->height, &r->post, diag);
    if (res == SW_OK) res = sw__sky_pass_create(r->t_hdr, r->t_motion, &r->sky, diag);
    if (res == SW_OK) res = sw__fog_pass_create(r->t_hdr, &r->fog, diag);
    if (res == SW_OK) res = sw__hiz_create(r->width, r->height, &r->hiz, diag);
    if (res == SW_OK) {
        const GLint convention[4] = {r->reverse_z ? 1 : 0, 0, 0, 0}; /* std140: one int, 16 bytes */
        glGenBuffers(1, &r->depth_block);
        glBindBuffer(GL_UNIFORM_BUFFER, r->depth_block);
        glBufferData(GL_UNIFORM_BUFFER, sizeof convention, convention, GL_STATIC_DRAW);
        glBindBuffer(GL_UNIFORM_BUFFER, 0);
    }
    /* AO at half resolution, brought back by the reconstruction (recon.c). */
    if (res == SW_OK) res = sw__ao_pass_create(sw__recon_half(r->width), sw__recon_half(r->height), &r->ao, diag);
    if (res == SW_OK) res = sw__recon_pass_create(r->width, r->height, &r->recon, diag);
    if (res == SW_OK) res = sw__feedback_pass_create(&r->feedback, diag);
    if (res == SW_OK) res = sw__shadow_cache_create(&r->shadow_cache, diag);
    if (res == SW_OK) res = sw_gl_check("creating the renderer", diag);
    if (res != SW_OK) {
        sw_renderer_destroy(r);
        return res;
    }
    *out_renderer = r;
    return SW_OK;
}

void sw_renderer_destroy(sw_renderer* r) {
    if (!r) return;
    sw__clear_crowd(r);
    sw__clear_scene(r);
    sw__decals_destroy(r);
    GLuint programs[6] = {r->p_gbuffer, r->p_shadow, r->p_lighting, r->p_lines, r->p_toon, r->p_shadow_mask};
    for (int i = 0; i < 6; i++) glDeleteProgram(programs[i]);
    sw__post_chain_destroy(r->post);
    sw__sky_pass_destroy(r->sky);
    sw__fog_pass_destroy(r->fog);
    sw__weather_pass_destroy(r->weather);
    sw__hiz_destroy(r->hiz);
    sw__snow_trail_destroy(r->snow_trail);
    sw__snow_cache_destroy(r->snow_cache);
    glDeleteBuffers(1, &r->depth_block);
    sw__ao_pass_destroy(r->ao);
    sw__recon_pass_destroy(r->recon);
    sw__feedback_pass_destroy(&r->feedback);
    sw__pass_timer_destroy(&r->pass_timer);
    sw__shadow_cache_destroy(r->shadow_cache);
    GLuint fbos[4] = {r->gbuffer_fbo, r->lighting_fbo, r->image_fbo, r->shadow_fbo};
    glDeleteFramebuffers(4, fbos);
    GLuint textures[11] = {r->t_normal, r->t_albedo, r->t_material, r->t_class, r->t_motion, r->t_depth,
                           r->t_hdr, r->t_image, r->t_shadow, r->white_texture, r->flat_normal_texture};
    glDeleteTextures(11, textures);
    glDeleteBuffers(1, &r->ground_block);
    glDeleteBuffers(1, &r->lights_block);
    sw__probes_destroy(r);
    glDeleteVertexArrays(1, &r->empty_vao);
    sw_gpu_skinner_destroy(r->skinner);
    sw__free(r);
}

sw_result sw_renderer_set_scene(sw_renderer* r, const sw_model* asset, const sw_material_set* materials,
                                sw_diag* diag) {
    if (!r || !asset) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "NULL renderer or asset");
    sw__clear_crowd(r);
    sw__clear_scene(r);
    r->ao_rig_count = sw__ao_fit_proxies(asset, r->ao_rig, SW_AO_MAX_PROXIES);
    sw__shadow_cache_clear(r->shadow_cache); /* a new scene: no static casters */
    return sw__prepare_scene(r, asset, materials, diag);
}

sw_result sw_renderer_set_toon_material(sw_renderer* r, uint32_t material, const sw_toon_material* toon,
                                        sw_diag* diag) {
    if (!r || !toon || !r->asset || !r->materials)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "NULL renderer or toon material, or no scene");
    if (material >= r->asset->material_count)
        return sw_diag_set(diag, SW_ERR_INDEX_OUT_OF_RANGE, material, "toon material %u: the model has %zu materials",
                           material, r->asset->material_count);
    sw_result res = sw__set_material_toon(r, material, toon, diag);
    /* Its toon data may draw an outline now: the instances for it. */
    for (size_t i = 0; res == SW_OK && i < r->draw_count; i++) {
        if (r->draws[i].material != material) continue;
        res = sw__make_outline(r, &r->draws[i], diag);
        if (res == SW_OK) res = sw__make_crowd_outline(r, &r->draws[i], diag);
    }
    if (res != SW_OK) return res;
    return sw_gl_check("setting a toon material", diag);
}

/* ---- one frame ------------------------------------------------------------------- */

/* What a frame's view draws the toon materials with: the UV and weight
   views draw everything through the G-buffer program. */
static sw_render_style sw__frame_style(const sw_render_frame* f) {
    const sw_render_view view = f->debug.view;
    return view == SW_RENDER_VIEW_UV || view == SW_RENDER_VIEW_WEIGHTS || view == SW_RENDER_VIEW_RETENTION
               ? SW_RENDER_STYLE_PBR
               : f->shading.style;
}

/* Skins what the frame draws (the single copy and its outlines, or the
   crowd) with `method` (the skinning pass). */
static sw_result sw__skin_frame(sw_renderer* r, const sw_render_frame* f, sw_skin_method method, sw_diag* diag) {
    sw__pass_begin(&r->pass_timer, SW__PASS_SKIN);
    sw_result res;
    if (f->crowd.count) {
        res = sw__skin_crowd(r, f, method, diag);
    } else {
        res = sw__skin_scene(r, f->pose, f->placement, method, diag);
        if (res == SW_OK) res = sw__skin_outlines(r, f->pose, f->placement, method, f->shading.style, diag);
    }
    if (res == SW_OK) res = sw__skin_stage(r, f, diag);
    sw__pass_end(&r->pass_timer, SW__PASS_SKIN);
    if (res != SW_OK) return res;
    for (size_t i = 0; i < r->draw_count; i++) {
        sw__draw* d = &r->draws[i];
        const bool crowd = f->crowd.count && !sw__draw_is_stage(d); /* the stage is drawn once */
        d->drawn = crowd ? d->crowd_gpu : d->gpu;
        d->drawn_outline = crowd ? d->crowd_outline_gpu : d->outline_gpu;
        d->headless = d->has_headless && f->avatar.headless_nodes && f->avatar.headless_nodes[d->node];
    }
    return SW_OK;
}

/* The casters of the shadow map: every visible draw, or only the static
   or the dynamic ones (shadow_cache.h). */
typedef enum sw__casters { SW__CASTERS_ALL, SW__CASTERS_STATIC, SW__CASTERS_DYNAMIC } sw__casters;

/* How draw d casts (docs/shadows.md, "Casters"): 0 depth only (OPAQUE),
   else the SW_SHADOW_ALPHA_* rule of the alpha-tested program. A
   transmissive draw is blended whatever its alpha mode (sw__transmissive). */
static int sw__shadow_alpha_rule(const sw_renderer* r, const sw__draw* d, sw_render_style style) {
    if (sw__transmissive(r, d, style)) return SW_SHADOW_ALPHA_TRANSMIT;
    const sw_model_alpha_mode mode = r->materials[d->material].core->alpha_mode;
    if (mode == SW_MODEL_ALPHA_MASK) return SW_SHADOW_ALPHA_MASK;
    return mode == SW_MODEL_ALPHA_BLEND ? SW_SHADOW_ALPHA_BLEND : 0;
}

/* Binds what the alpha-tested shadow program reads of draw d's material:
   its block and base colour texture. */
static void sw__bind_shadow_material(const sw_renderer* r, const sw__draw* d, int rule) {
    const sw__material* m = &r->materials[d->material];
    glBindBufferBase(GL_UNIFORM_BUFFER, SW_MATERIAL_BLOCK, sw__block_of(m));
    glActiveTexture(GL_TEXTURE0 + SW_MATERIAL_SLOT_BASE_COLOR);
    const GLuint base = m->gbuffer_textures[SW_MATERIAL_SLOT_BASE_COLOR];
    glBindTexture(GL_TEXTURE_2D, base ? base : r->white_texture);
    glUniform1i(SW_SHADOW_LOC_ALPHA_RULE, rule);
}

static void sw__draw_casters(sw_renderer* r, const sw_render_frame* f, const sw_mat4* light_vp, sw__casters which) {
    const GLuint programs[2] = {r->p_shadow, r->p_shadow_mask};
    for (int p = 0; p < 2; p++) {
        glUseProgram(programs[p]);
        glUniformMatrix4fv(SW_SHADOW_LOC_LIGHT_VIEW_PROJECTION, 1, GL_FALSE, light_vp->m);
    }
    GLuint program = r->p_shadow_mask;
    glEnable(GL_POLYGON_OFFSET_FILL);
    glPolygonOffset(1.5f, 2.0f);
    const sw_render_style style = sw__frame_style(f);
    for (size_t i = 0; i < r->draw_count; i++) {
        const sw__draw* d = &r->draws[i];
        if (sw__hidden(f, d)) continue;
        const bool is_static = sw__shadow_static_draw(r, f, d);
        if ((which == SW__CASTERS_STATIC && !is_static) || (which == SW__CASTERS_DYNAMIC && is_static)) continue;
        /* OPAQUE draws: depth only, no texture fetch; the others test alpha. */
        const int rule = sw__shadow_alpha_rule(r, d, style);
        const GLuint wanted = rule ? r->p_shadow_mask : r->p_shadow;
        if (wanted != program) glUseProgram(program = wanted);
        if (rule) sw__bind_shadow_material(r, d, rule);
        const sw_toon_material* t = sw__toon_of(r, d, style);
        const bool fold = t && sw__folds(d, t);
        float axes[3][3], origin[3] = {0, 0, 0};
        if (fold) sw__head_frame(r, d, f->pose, t, axes, origin);
        glUniform1i(SW_SHADOW_LOC_FOLD_MASK, fold ? (GLint)t->fold_tag_mask : 0);
        glUniform1i(SW_SHADOW_LOC_FOLD_UV_SET, fold ? t->fold_uv_set : 0);
        glUniform3fv(SW_SHADOW_LOC_FOLD_POINT, 1, origin);
        sw__draw_copies(d, d->drawn, false); /* shadow.vert reads attributes: copy after copy */
    }
    glDisable(GL_POLYGON_OFFSET_FILL);
}

/* 1. The shadow atlas, from the light: each cascade (sw__shadow_place)
   in its cell's usable area. Toon faces fold here as in the G-buffer pass
   (same style rule). With static casters (shadow_cache.h) each cascade's
   compressed static depth is decoded into its cell first (drawn and
   compressed again when its light box changed), then the dynamic casters
   drawn over it. */
static void sw__shadow_pass(sw_renderer* r, const sw_render_frame* f) {
    glBindFramebuffer(GL_FRAMEBUFFER, r->shadow_fbo);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, r->shadow_fbo);
    glViewport(0, 0, r->shadow_size, r->shadow_size);
    glDisable(GL_SCISSOR_TEST);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    glDepthMask(GL_TRUE);
    glClear(GL_DEPTH_BUFFER_BIT);
    glDisable(GL_CULL_FACE);
    sw__shadow_cache* cache = r->shadow_cache;
    const bool has_static = sw__shadow_has_static(r, f) && !cache->bypass;
    bool cached[SW_SHADOW_MAX_CASCADES] = {false}, baked = false;
    for (int i = 0; has_static && i < cache->cascade_count; i++) {
        const sw__shadow_cell cell = cache->cells[i];
        cached[i] = sw__shadow_cache_valid(cache, i, cache->view_projections[i].m, cell.size);
        if (cached[i] || cell.size % SW__SHADOW_BLOCK) continue; /* blocks of 32: else drawn every frame */
        int vp[4];
        sw__shadow_cell_viewport(cell, vp);
        glViewport(vp[0], vp[1], vp[2], vp[3]);
        sw__draw_casters(r, f, &cache->view_projections[i], SW__CASTERS_STATIC);
        cached[i] = sw__shadow_cache_bake(cache, i, cell, cache->view_projections[i].m);
        baked = true;
    }
    if (baked) {
        glViewport(0, 0, r->shadow_size, r->shadow_size);
        glClear(GL_DEPTH_BUFFER_BIT);
    }
    for (int i = 0; i < cache->cascade_count; i++) {
        const sw__shadow_cell cell = cache->cells[i];
        if (cached[i]) {
            glViewport(cell.x, cell.y, cell.size, cell.size);
            sw__shadow_cache_decode(cache, i, cell.x, cell.y, r->empty_vao);
        }
        int vp[4];
        sw__shadow_cell_viewport(cell, vp);
        glViewport(vp[0], vp[1], vp[2], vp[3]);
        sw__draw_casters(r, f, &cache->view_projections[i], cached[i] ? SW__CASTERS_DYNAMIC : SW__CASTERS_ALL);
    }
}

/* One draw of the G-buffer program: its material's block and textures,
   the flags of this frame, primitive and material, face culling (the
   material's, or the back or front faces only). */
static void sw__draw_gbuffer(const sw_renderer* r, const sw__draw* d, int flags, sw__faces faces) {
    const sw__material* m = &r->materials[d->material];
    glBindBufferBase(GL_UNIFORM_BUFFER, SW_MATERIAL_BLOCK, sw__block_of(m));
    for (int s = 0; s < SW_MATERIAL_SLOT_COUNT; s++) {
        const GLuint blank = s == SW_MATERIAL_SLOT_NORMAL ? r->flat_normal_texture : r->white_texture;
        glActiveTexture(GL_TEXTURE0 + (GLenum)s);
        glBindTexture(GL_TEXTURE_2D, m->gbuffer_textures[s] ? m->gbuffer_textures[s] : blank);
    }
    const int primitive = (d->prim->normals ? SW_GBUFFER_FLAG_NORMALS : 0) | (d->prim->tangents ? SW_GBUFFER_FLAG_TANGENTS : 0);
    glUniform1i(SW_GBUFFER_LOC_FLAGS, flags | primitive | m->gbuffer_flags);
    glCullFace(faces == SW__FACES_BACK ? GL_FRONT : GL_BACK);
    if (m->core->double_sided && faces == SW__FACES_MATERIAL) glDisable(GL_CULL_FACE);
    else glEnable(GL_CULL_FACE);
    sw__draw_copies(d, d->drawn, true);
}

/* The ground: grey, lit, no textures. */
static void sw__draw_ground(const sw_renderer* r, int first_frame) {
    glDisable(GL_CULL_FACE);
    for (int s = 0; s < SW_MATERIAL_SLOT_COUNT; s++) {
        glActiveTexture(GL_TEXTURE0 + (GLenum)s);
        glBindTexture(GL_TEXTURE_2D, s == SW_MATERIAL_SLOT_NORMAL ? r->flat_normal_texture : r->white_texture);
    }
    glBindBufferBase(GL_UNIFORM_BUFFER, SW_MATERIAL_BLOCK, r->ground_block);
    glUniform1i(SW_GBUFFER_LOC_FLAGS, SW_GBUFFER_FLAG_NORMALS | first_frame);
    glBindVertexArray(r->ground_vao);
    glVertexAttrib4f(SW_ATTR_COLOR, 1, 1, 1, 1);
    glVertexAttrib1f(SW_ATTR_WEIGHT, 0.0f);
    glVertexAttrib2f(SW_ATTR_UV0, 0, 0);
    glDrawArrays(GL_TRIANGLES, 0, 6);
}

/* Whether draw d's material is alpha-tested (glTF MASK). */
static bool sw__masked(const sw_renderer* r, const sw__draw* d) {
    return r->materials[d->material].core->alpha_mode == SW_MODEL_ALPHA_MASK;
}

/* Whether occlusion culling may skip draw d this frame: a rigid draw
   (no skin, no morph targets: its primitive's box at its node's world
   transform holds it) of the G-buffer program, one copy (no crowd), whole
   (not the first-person copy). Stage draws are such draws. */
static bool sw__cullable(const sw_renderer* r, const sw_render_frame* f, const sw__draw* d) {
    if (f->crowd.count || d->headless) return false;
    /* A stage model posed this frame has moved away from its box. */
    if (sw__draw_is_stage(d)) return !(f->stage_poses && f->stage_poses[d->stage - 1]);
    const sw_model_node* node = &r->asset->nodes[d->node];
    return !(node->skin >= 0 && d->prim->influence_count > 0) && !d->prim->target_count;
}

/* The draw's world box: a stage draw's, kept from when the stage was set;
   a character's rigid draw: its primitive's box at its node's world
   transform, moved by the frame's placement. */
static void sw__world_box(const sw_render_frame* f, const sw__draw* d, float lo[3], float hi[3]) {
    if (sw__draw_is_stage(d)) {
        for (int k = 0; k < 3; k++) lo[k] = d->world_min[k], hi[k] = d->world_max[k];
        return;
    }
    const sw_mat34 world = f->placement ? sw_mat34_mul(f->placement, &f->pose->world[d->node]) : f->pose->world[d->node];
    sw__hiz_transform_box((const float(*)[4])world.m, d->prim->bounds_min, d->prim->bounds_max, lo, hi);
}

/* The G-buffer program's draws of one phase (sw__gbuffer_pass): the
   first draws every draw but the culling candidates the last frame found
   hidden (and, when `prepassed`, the alpha-tested draws, whose colour
   sw__mask_colour draws), the second tests those against the pyramid and draws the ones
   it cannot prove hidden. Counts toon draws (drawn by the toon pass) and
   culling candidates. */
static size_t sw__gbuffer_draws(sw_renderer* r, const sw_render_frame* f, sw_render_style style, int flags,
                                const sw_mat4* vp, bool culling, int phase, bool prepassed, size_t* candidates) {
    size_t toon_draws = 0;
    *candidates = 0;
    for (size_t i = 0; i < r->draw_count; i++) {
        sw__draw* d = &r->draws[i];
        if (sw__hidden(f, d) || sw__blended(r, f, d, style)) continue;
        if (sw__toon_of(r, d, style)) {
            toon_draws++;
            continue;
        }
        const bool candidate = culling && sw__cullable(r, f, d);
        *candidates += candidate;
        if (phase == 1) {
            /* alpha-tested draws with a pre-pass: their colour pass comes after (sw__mask_colour) */
            if ((!candidate || !d->occlusion_hidden) && !(prepassed && sw__masked(r, d)))
                sw__draw_gbuffer(r, d, flags, SW__FACES_MATERIAL);
            continue;
        }
        if (!candidate) continue;
        /* The next frame's hint for every candidate; this frame's culling
           for those not drawn yet. */
        float lo[3], hi[3];
        sw__world_box(f, d, lo, hi);
        const bool hidden = sw__hiz_box_hidden(sw__hiz_pyramid(r->hiz), vp->m, lo, hi);
        if (d->occlusion_hidden) {
            r->stats.occlusion_tested++;
            if (hidden) r->stats.occlusion_culled++;
            else sw__draw_gbuffer(r, d, flags, SW__FACES_MATERIAL);
        }
        d->occlusion_hidden = hidden;
    }
    return toon_draws;
}

/* Whether draw d takes the alpha-tested pre-pass this frame: a MASK draw
   of the G-buffer program that the first phase draws (a culling candidate
   held back draws in one alpha-tested pass in the second phase). */
static bool sw__prepass_draw(const sw_renderer* r, const sw_render_frame* f, const sw__draw* d, sw_render_style style,
                             bool culling) {
    if (sw__hidden(f, d) || sw__blended(r, f, d, style) || sw__toon_of(r, d, style) || !sw__masked(r, d)) return false;
    return !(culling && sw__cullable(r, f, d) && d->occlusion_hidden);
}

/* Plants as the frame analysis draws them (SEED-002 notes §2.6): the
   G-buffer program's MASK draws write depth alone, with the alpha test
   and nothing else (SW_GBUFFER_FLAG_PREPASS), before every other draw;
   their colour pass (sw__mask_colour) then runs with the depth test
   EQUAL, no depth write and no alpha test, so the material shader runs
   once per visible pixel and the edges are the pre-pass's. Toon MASK
   draws keep one pass. The number of draws that took the pre-pass. */
static size_t sw__mask_prepass(sw_renderer* r, const sw_render_frame* f, int flags, sw_render_style style, bool culling) {
    size_t count = 0;
    glColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE);
    for (size_t i = 0; i < r->draw_count; i++) {
        const sw__draw* d = &r->draws[i];
        if (!sw__prepass_draw(r, f, d, style, culling)) continue;
        sw__draw_gbuffer(r, d, flags | SW_GBUFFER_FLAG_PREPASS, SW__FACES_MATERIAL);
        count++;
    }
    glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    return count;
}

/* The alpha-tested draws' colour, where the pre-pass left their depth. */
static void sw__mask_colour(sw_renderer* r, const sw_render_frame* f, int flags, sw_render_style style, bool culling) {
    glDepthFunc(GL_EQUAL);
    glDepthMask(GL_FALSE);
    for (size_t i = 0; i < r->draw_count; i++) {
        const sw__draw* d = &r->draws[i];
        if (sw__prepass_draw(r, f, d, style, culling))
            sw__draw_gbuffer(r, d, flags | SW_GBUFFER_FLAG_DEPTH_EQUAL, SW__FACES_MATERIAL);
    }
    glDepthFunc(sw__depth_nearer(r));
    glDepthMask(GL_TRUE);
}

/* 2. The G-buffer of columns x0..x1: the glTF materials, the toon pass
   (but in the UV and weight views), the ground; not the transparent draws
   (sw__blended: the transparent pass, 4). With occlusion culling (not in
   a split frame, a crowd or when the frame turns it off), in two phases
   (docs/depth.md): first every draw but the rigid ones the last frame
   found hidden; then the Hi-Z pyramid of that depth, and each of those
   drawn unless its world box is hidden behind it. A draw that is visible
   is never skipped: the pyramid holds only depth drawn this frame. */
static sw_result sw__gbuffer_pass(sw_renderer* r, const sw_render_frame* f, int x0, int x1, const sw_mat4* vp,
                                  const sw_mat4* previous_vp, sw_vec3 light_direction, const sw_mat4* light_vp,
                                  sw_diag* diag) {
    glBindFramebuffer(GL_FRAMEBUFFER, r->gbuffer_fbo);
    glViewport(0, 0, r->width, r->height);
    glEnable(GL_SCISSOR_TEST);
    glScissor(x0, 0, x1 - x0, r->height);
    glEnable(GL_FRAMEBUFFER_SRGB);
    sw__camera_depth_begin(r);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(sw__depth_nearer(r));
    glDepthMask(GL_TRUE);
    const float zero[4] = {0, 0, 0, 0}, far = sw__depth_far(r->reverse_z);
    const GLuint background_class[4] = {SW_CLASS_BACKGROUND, 0, 0, 0};
    for (int i = 0; i < SW_GBUFFER_TARGET_COUNT; i++)
        if (i == SW_GBUFFER_CLASS) glClearBufferuiv(GL_COLOR, i, background_class);
        else glClearBufferfv(GL_COLOR, i, zero);
    glClearDepth(far);
    glClear(GL_DEPTH_BUFFER_BIT);
    glClearDepth(1.0); /* GL's default, which the shadow pass clears to */
    glUseProgram(r->p_gbuffer);
    if (!f->shading.no_footprints && sw__snow_any(r)) {
        sw_result trail = sw__snow_trail_update(r, f, diag);
        if (trail != SW_OK) return trail;
    }
    sw__snow_trail_bind(r, !f->shading.no_footprints);
    glUniformMatrix4fv(SW_GBUFFER_LOC_VIEW_PROJECTION, 1, GL_FALSE, vp->m);
    glUniformMatrix4fv(SW_GBUFFER_LOC_PREVIOUS_VIEW_PROJECTION, 1, GL_FALSE, f->first_frame ? vp->m : previous_vp->m);
    const sw_render_view view = f->debug.view;
    const int first_frame = f->first_frame ? SW_GBUFFER_FLAG_FIRST_FRAME : 0;
    const int flags = (view == SW_RENDER_VIEW_UV ? SW_GBUFFER_FLAG_VIEW_UV : 0) |
                      (view == SW_RENDER_VIEW_WEIGHTS ? SW_GBUFFER_FLAG_VIEW_WEIGHTS : 0) |
                      (view == SW_RENDER_VIEW_RETENTION ? SW_GBUFFER_FLAG_VIEW_RETENTION : 0) | first_frame;
    glCullFace(GL_BACK);
    glFrontFace(GL_CCW);
    const sw_render_style style = sw__frame_style(f);
    const bool culling = r->hiz && !f->debug.split && !f->debug.no_occlusion_culling && !f->crowd.count;
    const size_t masked = f->shading.no_mask_prepass ? 0 : sw__mask_prepass(r, f, flags, style, culling);
    size_t candidates = 0;
    const size_t toon_draws = sw__gbuffer_draws(r, f, style, flags, vp, culling, 1, masked > 0, &candidates);
    if (masked) sw__mask_colour(r, f, flags, style, culling);
    r->stats.mask_prepass_draws = masked;
    if (toon_draws) {
        sw__draw_toon(r, f, style, vp, previous_vp, light_direction, light_vp, flags);
        glUseProgram(r->p_gbuffer);
    }
    if (!r->stage_count) sw__draw_ground(r, first_frame); /* a stage brings its own ground */
    sw_result res = SW_OK;
    if (candidates) { /* no rigid draw, no pyramid */
        res = sw__hiz_build(r->hiz, r->t_depth, r->reverse_z, r->empty_vao, diag);
        /* Back to the G-buffer pass's state. */
        glBindFramebuffer(GL_FRAMEBUFFER, r->gbuffer_fbo);
        glViewport(0, 0, r->width, r->height);
        glEnable(GL_SCISSOR_TEST);
        glEnable(GL_DEPTH_TEST);
        glUseProgram(r->p_gbuffer);
        if (res == SW_OK) sw__gbuffer_draws(r, f, style, flags, vp, culling, 2, false, &candidates);
    }
    glDisable(GL_FRAMEBUFFER_SRGB);
    sw__camera_depth_end(r);
    return res;
}

/* 3. Lighting, added onto the emission already in the HDR target. */
void sw__feedback_bind(const sw_renderer* r, const sw_render_frame* f, GLint location, GLenum unit) {
    sw__feedback_body body;
    const bool feedback = f->shading.env_feedback && sw__feedback_body_of(r, &body);
    glUniform4f(location, body.feet[0], body.feet[1], body.feet[2], feedback ? body.height : 0.0f);
    glActiveTexture(GL_TEXTURE0 + unit);
    glBindTexture(GL_TEXTURE_2D, sw__feedback_pass_state(&r->feedback));
}

/* The feedback update after the lighting (it reads the G-buffer and the
   shadow atlas; the state it writes is read from the next frame on). */
static void sw__feedback_frame(sw_renderer* r, const sw_render_frame* f, sw_vec3 light_direction, const sw_mat4* vp) {
    sw__feedback_body body;
    if (!f->shading.env_feedback || !sw__feedback_body_of(r, &body)) {
        if (r->feedback_dirty) sw__feedback_pass_reset(&r->feedback);
        r->feedback_dirty = false;
        return;
    }
    const float towards[3] = {light_direction.x, light_direction.y, light_direction.z};
    sw__feedback_pass_update(&r->feedback, &body, vp->m, towards, r->t_albedo, r->t_class, r->t_shadow,
                             r->shadow_cache);
    r->feedback_dirty = true;
}

static void sw__lighting_pass(sw_renderer* r, const sw_render_frame* f, sw_vec3 light_direction, const sw_mat4* light_vp,
                              GLuint ao) {
    glBindFramebuffer(GL_FRAMEBUFFER, r->lighting_fbo);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_CULL_FACE);
    glEnable(GL_BLEND);
    /* HDR × the second output (toon pixels' AO; 1 elsewhere) + the first. */
    glBlendFuncSeparate(GL_ONE, GL_SRC1_COLOR, GL_ONE, GL_ONE);
    glUseProgram(r->p_lighting);
    const sw_mat4 inverse_vp =
        sw__inverse_view_projection(&f->camera.current, (float)r->width / (float)r->height, r->reverse_z);
    glUniformMatrix4fv(SW_LIGHTING_LOC_INVERSE_VIEW_PROJECTION, 1, GL_FALSE, inverse_vp.m);
    sw__shade_uniforms(r, f, light_direction, light_vp);
    const GLuint inputs[SW_LIGHTING_UNIT_COUNT] = {
        [SW_LIGHTING_UNIT_NORMAL] = r->t_normal, [SW_LIGHTING_UNIT_ALBEDO] = r->t_albedo,
        [SW_LIGHTING_UNIT_MATERIAL] = r->t_material, [SW_LIGHTING_UNIT_CLASS] = r->t_class,
        [SW_LIGHTING_UNIT_DEPTH] = r->t_depth, [SW_LIGHTING_UNIT_SHADOW] = r->t_shadow,
        [SW_LIGHTING_UNIT_AO] = ao,
    };
    for (int i = 0; i < SW_LIGHTING_UNIT_COUNT; i++) {
        glActiveTexture(GL_TEXTURE0 + (GLenum)i);
        glBindTexture(GL_TEXTURE_2D, inputs[i]);
    }
    sw__feedback_bind(r, f, SW_LIGHTING_LOC_FEEDBACK_BODY, SW_LIGHTING_UNIT_FEEDBACK);
    glBindVertexArray(r->empty_vao);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glBlendFunc(GL_ONE, GL_ONE); /* no dual-source factor left for the passes with several draw buffers */
    glDisable(GL_BLEND);
    glDisable(GL_SCISSOR_TEST);
}

/* ---- 4. the transparent pass --------------------------------------------------------- */

/* MToon's render queue (VRMC_materials_mtoon 1.0, "Render Queue"): after
   opaque and MASK, first the BLEND materials that write depth, then those
   that do not; within each, by renderQueueOffsetNumber, which the
   specification bounds to 0..+9 with transparentWithZWrite and −9..0
   without (clamped here; glTF and other toon data: 0). */
static int sw__blend_queue(const sw_toon_material* t, bool* z_write) {
    *z_write = t && t->transparent_with_z_write;
    const int offset = t ? (int)t->render_queue_offset : 0;
    const int clamped = *z_write ? (offset < 0 ? 0 : offset > 9 ? 9 : offset) : (offset < -9 ? -9 : offset > 0 ? 0 : offset);
    return (*z_write ? 0 : 100) + clamped;
}

/* The snowflakes (weather_pass.c) sort as in queue 100 (glTF's BLEND and
   MToon's without depth write, offset 0): after every draw of an earlier
   queue, by depth among the draws of theirs. */
#define SW__WEATHER_QUEUE 100

/* Queue, then back to front (the larger depth first), then the draws'
   own order: a total order, so the picture does not depend on qsort. */
static int sw__blend_compare(const void* pa, const void* pb) {
    const sw__blend_entry *a = (const sw__blend_entry*)pa, *b = (const sw__blend_entry*)pb;
    if (a->queue != b->queue) return a->queue < b->queue ? -1 : 1;
    if (a->depth != b->depth) return a->depth > b->depth ? -1 : 1;
    return a->draw < b->draw ? -1 : a->draw > b->draw ? 1 : 0;
}

/* A draw's depth along the view: its primitive's bounding-box centre, at
   its node's world transform for a rigid draw, as stored (the bind pose)
   for a skinned one; as three.js sorts, by the object's centre. */
static float sw__draw_depth(const sw_renderer* r, const sw__draw* d, const sw_pose* pose, const float eye[3],
                            const float forward[3]) {
    float c[3], w[3];
    for (int k = 0; k < 3; k++) c[k] = 0.5f * (d->prim->bounds_min[k] + d->prim->bounds_max[k]);
    if (sw__draw_is_stage(d)) { /* its world bounds' centre */
        for (int k = 0; k < 3; k++) w[k] = 0.5f * (d->world_min[k] + d->world_max[k]);
        return (w[0] - eye[0]) * forward[0] + (w[1] - eye[1]) * forward[1] + (w[2] - eye[2]) * forward[2];
    }
    const bool skinned = r->asset->nodes[d->node].skin >= 0 && d->prim->influence_count > 0;
    for (int k = 0; k < 3; k++) {
        const float* row = pose->world[d->node].m[k];
        w[k] = skinned ? c[k] : row[0] * c[0] + row[1] * c[1] + row[2] * c[2] + row[3];
    }
    if (r->placed) { /* the character's placement follows its pose */
        const sw_vec3 p = sw_mat34_apply_point(&r->placement, sw_vec3_make(w[0], w[1], w[2]));
        w[0] = p.x, w[1] = p.y, w[2] = p.z;
    }
    return (w[0] - eye[0]) * forward[0] + (w[1] - eye[1]) * forward[1] + (w[2] - eye[2]) * forward[2];
}

/* The frame's transparent draws into r->blend_order, in drawing order;
   their count. */
static size_t sw__blend_order(sw_renderer* r, const sw_render_frame* f, sw_render_style style) {
    const sw_camera* c = &f->camera.current;
    float forward[3] = {c->target[0] - c->eye[0], c->target[1] - c->eye[1], c->target[2] - c->eye[2]};
    const float length = sqrtf(forward[0] * forward[0] + forward[1] * forward[1] + forward[2] * forward[2]);
    for (int k = 0; k < 3; k++) forward[k] = length > 0.0f ? forward[k] / length : 0.0f;
    size_t count = 0;
    for (size_t i = 0; i < r->draw_count; i++) {
        const sw__draw* d = &r->draws[i];
        if (sw__hidden(f, d) || !sw__blended(r, f, d, style)) continue;
        sw__blend_entry* e = &r->blend_order[count++];
        e->draw = i;
        e->queue = sw__blend_queue(sw__toon_of(r, d, style), &e->z_write);
        e->depth = sw__draw_depth(r, d, f->pose, c->eye, forward);
    }
    qsort(r->blend_order, count, sizeof *r->blend_order, sw__blend_compare);
    return count;
}

/* The transparent pass of columns x0..x1, after the lighting: the
   alphaMode BLEND draws (sw__blended), lit forward (toon: as in the
   G-buffer pass; glTF metallic-roughness: the lighting pass's code and
   lights, lighting_common.glsl; the same programs, SW_GBUFFER_FLAG_BLEND)
   and blended over the HDR target
   with the over operator (glTF's colours are not premultiplied), in the
   order of sw__blend_order. Depth test on; depth written only by a
   material with transparentWithZWrite. A double-sided material draws its
   back faces, then its front faces; its outline hull (MToon) follows its
   surface, blended the same way, as three-vrm draws the hull after the
   surface with a clone of its material. Of the other targets only the
   motion changes, where the draw's alpha reaches SW_BLEND_MOTION_PERCENT / 100
   (docs/post.md). */
static void sw__transparent_pass(sw_renderer* r, const sw_render_frame* f, int x0, int x1, const sw_mat4* vp,
                                 const sw_mat4* previous_vp, sw_vec3 light_direction, const sw_mat4* light_vp) {
    const sw_render_style style = sw__frame_style(f);
    const size_t count = sw__blend_order(r, f, style);
    if (!count && !sw__weather_pending(r)) return;
    glBindFramebuffer(GL_FRAMEBUFFER, r->gbuffer_fbo);
    glViewport(0, 0, r->width, r->height);
    glEnable(GL_SCISSOR_TEST);
    glScissor(x0, 0, x1 - x0, r->height);
    for (int i = 0; i < SW_GBUFFER_TARGET_COUNT; i++) { /* the HDR colour and the motion (RG) only */
        const GLboolean hdr = i == SW_GBUFFER_EMISSION, rg = hdr || i == SW_GBUFFER_MOTION;
        glColorMaski((GLuint)i, rg, rg, hdr, hdr);
    }
    glEnablei(GL_BLEND, SW_GBUFFER_EMISSION);
    glBlendFuncSeparatei(SW_GBUFFER_EMISSION, GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    glEnablei(GL_BLEND, SW_GBUFFER_MOTION); /* the motion output's alpha is 0 or 1: keep or replace */
    glBlendFunci(SW_GBUFFER_MOTION, GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    sw__camera_depth_begin(r);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(sw__depth_nearer(r));
    const int flags = SW_GBUFFER_FLAG_BLEND | (f->first_frame ? SW_GBUFFER_FLAG_FIRST_FRAME : 0);
    GLuint program = 0;
    for (size_t i = 0; i < count; i++) {
        /* the snowflakes farther than this draw, in its queue (weather_pass.c) */
        if (r->blend_order[i].queue >= SW__WEATHER_QUEUE &&
            sw__weather_draw_beyond(r, f, r->blend_order[i].depth, vp, light_direction, light_vp))
            program = 0;
        const sw__draw* d = &r->draws[r->blend_order[i].draw];
        const sw_toon_material* t = sw__toon_of(r, d, style);
        const bool double_sided = r->materials[d->material].core->double_sided;
        glDepthMask(r->blend_order[i].z_write ? GL_TRUE : GL_FALSE);
        if (!t) { /* glTF: the G-buffer program shades it forward (unlit: its colour) into the emission */
            if (program != r->p_gbuffer) {
                glUseProgram(program = r->p_gbuffer);
                sw__shade_uniforms(r, f, light_direction, light_vp);
                sw__fog_air_uniforms(r, f); /* the fog volume at the surface's depth (fog_pass.c) */
            }
            if (sw__transmissive(r, d, style)) { /* first scale what is behind by what passes */
                glBlendFuncSeparatei(SW_GBUFFER_EMISSION, GL_ZERO, GL_SRC_COLOR, GL_ZERO, GL_ONE);
                sw__draw_gbuffer(r, d, flags | SW_GBUFFER_FLAG_TRANSMIT_FILTER, SW__FACES_MATERIAL);
                glBlendFuncSeparatei(SW_GBUFFER_EMISSION, GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE,
                                     GL_ONE_MINUS_SRC_ALPHA);
            }
            if (double_sided) sw__draw_gbuffer(r, d, flags, SW__FACES_BACK);
            sw__draw_gbuffer(r, d, flags, double_sided ? SW__FACES_FRONT : SW__FACES_MATERIAL);
            continue;
        }
        if (program != r->p_toon) {
            sw__toon_frame(r, f, vp, previous_vp, light_direction, light_vp);
            sw__fog_air_uniforms(r, f); /* the fog volume at the surface's depth (toon.frag's sw_toon_air) */
            program = r->p_toon;
        }
        if (double_sided) sw__draw_toon_one(r, d, f, t, flags, false, SW__FACES_BACK);
        sw__draw_toon_one(r, d, f, t, flags, false, double_sided ? SW__FACES_FRONT : SW__FACES_MATERIAL);
        glEnable(GL_POLYGON_OFFSET_FILL); /* as in the G-buffer pass: the surface wins where both meet */
        sw__depth_offset_away(r, 1.0f, 1.0f);
        sw__draw_toon_one(r, d, f, t, flags, true, SW__FACES_MATERIAL);
        glDisable(GL_POLYGON_OFFSET_FILL);
    }
    sw__weather_draw_beyond(r, f, -INFINITY, vp, light_direction, light_vp); /* the nearest flakes */
    glDepthMask(GL_TRUE);
    sw__camera_depth_end(r);
    glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    glDisablei(GL_BLEND, SW_GBUFFER_EMISSION);
    glDisablei(GL_BLEND, SW_GBUFFER_MOTION);
    glCullFace(GL_BACK);
    /* The state the lighting pass leaves, as before this pass. */
    glDisable(GL_CULL_FACE);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_SCISSOR_TEST);
}

/* The scene in columns x0..x1, skinned with `method`: skinning, shadow
   map, G-buffer, lighting, the transparent draws. */
static sw_result sw__draw_scene_half(sw_renderer* r, const sw_render_frame* f, sw_skin_method method, int x0, int x1,
                                     const sw_mat4* vp, const sw_mat4* previous_vp, sw_diag* diag) {
    /* Scene bounds for the ground and the light, unless the caller gave a
       box: the skinned positions' bounds of the first drawn frame, kept (a
       ground that follows the feet would slide under a walking character). */
    sw_result res;
    if (!r->have_bounds && !f->crowd.count) { /* a crowd's: once skinned, below */
        float lo[3], hi[3];
        res = sw_renderer_scene_bounds(r, f->pose, lo, hi, diag);
        if (res != SW_OK) return res;
        sw__feedback_measure(r, f->pose, lo, hi); /* her shape for the feedback, from the same bounds */
        if (f->placement) sw__place_box(f->placement, lo, hi);
        sw_renderer_set_scene_box(r, lo, hi);
    }
    res = sw__feedback_follow(r, f, diag); /* where she stands this frame (feedback_body.c) */
    if (res != SW_OK) return res;
    res = sw__skin_frame(r, f, method, diag);
    if (res != SW_OK) return res;
    if (f->crowd.count && !r->have_bounds) {
        float lo[3], hi[3];
        res = sw__crowd_bounds(r, lo, hi, diag);
        if (res != SW_OK) return res;
        sw_renderer_set_scene_box(r, lo, hi);
    }
    sw_vec3 light_direction;
    sw_mat4 light_vp;
    float towards[3], light_lo[3], light_hi[3];
    sw__frame_light_towards(f, towards);
    sw__light_box(r, light_lo, light_hi);
    sw__light(light_lo, light_hi, towards, &light_direction, &light_vp);
    sw__pass_timer* timer = &r->pass_timer;
    sw__pass_begin(timer, SW__PASS_SNOW_CACHE); /* the snow's height cache: drawn when needed */
    if (!f->shading.no_footprints && sw__snow_any(r)) res = sw__snow_cache_update(r, f, diag);
    sw__pass_end(timer, SW__PASS_SNOW_CACHE);
    if (res != SW_OK) return res;
    sw__pass_begin(timer, SW__PASS_SHADOW);
    sw__shadow_place(r, f, light_direction, &light_vp);
    sw__shadow_pass(r, f);
    sw__pass_end(timer, SW__PASS_SHADOW);
    sw__pass_begin(timer, SW__PASS_GBUFFER);
    res = sw__gbuffer_pass(r, f, x0, x1, vp, previous_vp, light_direction, &light_vp, diag);
    sw__pass_end(timer, SW__PASS_GBUFFER);
    if (res != SW_OK) return res;
    sw__pass_begin(timer, SW__PASS_DECAL);
    sw__decal_pass(r, f);
    sw__pass_end(timer, SW__PASS_DECAL);
    /* Ambient occlusion (ao.c), over the decals' normals: times its own
       passes (the AO at half resolution, the reconstruction around it). */
    const GLuint ao = sw__ao_frame(r, f, light_direction, x0, x1);
    sw__pass_begin(timer, SW__PASS_LIGHTING);
    sw__lighting_pass(r, f, light_direction, &light_vp, ao);
    sw__pass_end(timer, SW__PASS_LIGHTING);
    sw__pass_begin(timer, SW__PASS_FEEDBACK);
    sw__feedback_frame(r, f, light_direction, vp);
    sw__pass_end(timer, SW__PASS_FEEDBACK);
    sw__pass_begin(timer, SW__PASS_SKY);
    sw__sky_pass(r, f, x0, x1);
    sw__pass_end(timer, SW__PASS_SKY);
    sw__pass_begin(timer, SW__PASS_FOG);
    sw__fog_pass(r, f, x0, x1, light_direction, &light_vp);
    sw__pass_end(timer, SW__PASS_FOG);
    sw__pass_begin(timer, SW__PASS_WEATHER); /* the flakes placed; drawn in the transparent pass */
    res = sw__weather_prepare(r, f, diag);
    sw__pass_end(timer, SW__PASS_WEATHER);
    if (res != SW_OK) return res;
    sw__pass_begin(timer, SW__PASS_TRANSPARENT);
    sw__transparent_pass(r, f, x0, x1, vp, previous_vp, light_direction, &light_vp);
    sw__pass_end(timer, SW__PASS_TRANSPARENT);
    return sw_gl_check("drawing the scene", diag);
}

/* The per-vertex values the weight and retention views draw. */
static sw_result sw__debug_values(sw_renderer* r, const sw_render_frame* f, sw_diag* diag) {
    if (f->debug.view == SW_RENDER_VIEW_WEIGHTS) {
        const int32_t joint = f->debug.weight_joint;
        if (joint < 0 || (size_t)joint >= r->asset->node_count)
            return sw_diag_set(diag, SW_ERR_INDEX_OUT_OF_RANGE, joint, "weight view: node %d does not exist", (int)joint);
        return sw__weight_buffers(r, joint, diag);
    }
    if (f->debug.view == SW_RENDER_VIEW_RETENTION) return sw__retention_buffers(r, f->pose, diag);
    return SW_OK;
}

static sw_result sw__draw_frame(sw_renderer* r, const sw_render_frame* f, sw_diag* diag) {
    r->placed = f->placement && !f->crowd.count;
    r->placement = r->placed ? *f->placement : sw_mat34_identity();
    sw_result res = sw__debug_values(r, f, diag);
    if (res == SW_OK) res = sw__apply_overrides(r, f, diag);
    if (res != SW_OK) return res;
    r->stats.occlusion_tested = r->stats.occlusion_culled = 0;
    r->stats.reverse_z = r->reverse_z;
    /* Every pass's shaders read the depth convention here (shaders/depth.glsl). */
    glBindBufferBase(GL_UNIFORM_BUFFER, SW_DEPTH_BLOCK, r->depth_block);
    const float aspect = (float)r->width / (float)r->height;
    sw_mat4 vp, scene_vp, scene_previous_vp;
    sw_camera_view_projection(&f->camera.current, aspect, vp.m);
    /* The scene is drawn with the depth convention's matrices and the TAA
       jitter; the bones (below) with OpenGL's, without it, under GL's
       default clip control. */
    sw__camera_matrix(&f->camera.current, aspect, r->reverse_z, scene_vp.m);
    sw__camera_matrix(&f->camera.previous, aspect, r->reverse_z, scene_previous_vp.m);
    sw__post_chain_jitter(r->post, f, scene_vp.m, scene_previous_vp.m);
    if (f->debug.split) {
        int middle = r->width / 2;
        res = sw__draw_scene_half(r, f, SW_SKIN_LBS, 0, middle, &scene_vp, &scene_previous_vp, diag);
        if (res == SW_OK)
            res = sw__draw_scene_half(r, f, SW_SKIN_DQS, middle, r->width, &scene_vp, &scene_previous_vp, diag);
    } else {
        res = sw__draw_scene_half(r, f, f->method, 0, r->width, &scene_vp, &scene_previous_vp, diag);
    }
    if (res != SW_OK) return res;

    /* 5. The post chain (post_chain.c): display mapping, AA ... or a debug view, into the 8-bit image. */
    const sw__post_inputs post_inputs = {
        .hdr = r->t_hdr, .normal = r->t_normal, .albedo = r->t_albedo, .classes = r->t_class, .motion = r->t_motion,
        .depth = r->t_depth, .image = r->t_image, .image_fbo = r->image_fbo, .empty_vao = r->empty_vao,
        .ao = sw__recon_pass_output(r->recon),
    };
    sw__pass_begin(&r->pass_timer, SW__PASS_POST);
    res = sw__post_chain_run(r->post, f, &post_inputs, diag);
    sw__pass_end(&r->pass_timer, SW__PASS_POST);
    if (res != SW_OK) return res;
    if (f->debug.split) {
        /* A thin divider between the LBS and DQS halves. */
        glEnable(GL_SCISSOR_TEST);
        glScissor(r->width / 2, 0, r->width >= 200 ? 2 : 1, r->height);
        glClearColor(1, 1, 1, 1);
        glClear(GL_COLOR_BUFFER_BIT);
        glDisable(GL_SCISSOR_TEST);
    }
    if (f->debug.bones) {
        res = sw__draw_bones(r, f->pose, &vp, diag);
        if (res != SW_OK) return res;
    }
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glUseProgram(0);
    glBindVertexArray(0);
    r->previous_time = isfinite(f->shading.time) ? f->shading.time : 0.0f;
    return sw_gl_check("finishing the frame", diag);
}

sw_result sw_renderer_draw(sw_renderer* r, const sw_render_frame* f, sw_diag* diag) {
    if (!r || !f || !r->asset || !f->pose || !f->pose->world) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "no scene or frame");
    sw__pass_timer_frame_begin(&r->pass_timer);
    sw__probes_bind(r, f);
    sw_result res = sw__draw_frame(r, f, diag);
    sw__pass_timer_frame_end(&r->pass_timer);
    return res;
}

/* ---- readbacks --------------------------------------------------------------------- */

static sw_result sw__read(sw_renderer* r, GLuint fbo, GLenum attachment, GLenum format, GLenum type, void* out,
                          sw_diag* diag) {
    if (!r || !out) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "NULL renderer or output");
    glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
    glReadBuffer(attachment);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, r->width, r->height, format, type, out);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
    return sw_gl_check("reading the frame back", diag);
}

sw_result sw_renderer_read_image(sw_renderer* r, uint8_t* out, sw_diag* diag) {
    sw_result res =
        sw__read(r, r ? r->image_fbo : 0, GL_COLOR_ATTACHMENT0 + SW_OUT_COLOR, GL_RGBA, GL_UNSIGNED_BYTE, out, diag);
    if (res != SW_OK) return res;
    /* GL rows go bottom to top; images top to bottom. */
    size_t row = (size_t)r->width * 4;
    uint8_t* tmp = (uint8_t*)sw__malloc(row);
    if (!tmp) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory");
    for (int y = 0; y < r->height / 2; y++) {
        uint8_t* a = out + (size_t)y * row;
        uint8_t* b = out + (size_t)(r->height - 1 - y) * row;
        memcpy(tmp, a, row), memcpy(a, b, row), memcpy(b, tmp, row);
    }
    sw__free(tmp);
    return SW_OK;
}

sw_result sw_renderer_read_hdr(sw_renderer* r, float* out, sw_diag* diag) {
    return sw__read(r, r ? r->lighting_fbo : 0, GL_COLOR_ATTACHMENT0 + SW_OUT_COLOR, GL_RGBA, GL_FLOAT, out, diag);
}

sw_result sw_renderer_read_class(sw_renderer* r, uint8_t* out, sw_diag* diag) {
    return sw__read(r, r ? r->gbuffer_fbo : 0, GL_COLOR_ATTACHMENT0 + SW_GBUFFER_CLASS, GL_RED_INTEGER,
                    GL_UNSIGNED_BYTE, out, diag);
}

sw_result sw_renderer_read_motion(sw_renderer* r, float* out, sw_diag* diag) {
    return sw__read(r, r ? r->gbuffer_fbo : 0, GL_COLOR_ATTACHMENT0 + SW_GBUFFER_MOTION, GL_RG, GL_FLOAT, out, diag);
}

sw_result sw_renderer_read_taa_state(sw_renderer* r, float* out, sw_diag* diag) {
    if (!r) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "NULL renderer");
    return sw__post_chain_read_state(r->post, out, diag);
}

void sw_renderer_get_stats(const sw_renderer* r, sw_renderer_stats* out) {
    *out = (sw_renderer_stats){0};
    if (!r) return;
    *out = r->stats;
    sw_gpu_skinner_get_stats(r->skinner, &out->skin);
    out->skin_gpu_ms = r->pass_timer.gpu_ms[SW__PASS_SKIN];
}

size_t sw_renderer_get_pass_times(const sw_renderer* r, sw_render_pass_time* out, size_t capacity) {
    if (!r) return 0;
    return sw__pass_timer_get(&r->pass_timer, out, capacity);
}

void sw_renderer_wait_pass_times(sw_renderer* r) {
    if (r) sw__pass_timer_wait(&r->pass_timer);
}

void sw_renderer_set_exact_pass_times(sw_renderer* r, bool exact) {
    if (r) r->pass_timer.exact = exact;
}

uint32_t sw_renderer_image_texture(const sw_renderer* r) { return r ? r->t_image : 0; }
