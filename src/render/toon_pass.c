/* The toon pass (sinew/toon.h materials, shaders/toon.frag): the toon
   draws of a frame into the G-buffer, lit already, then their outline
   hulls; the transparent pass (renderer.c) draws its toon draws one at a
   time through sw__draw_toon_one. A draw binds its material's block and
   textures (material.c) and sets what changes per draw: its flags, the
   head joint's frame, folding. */
#include "renderer_internal.h"

/* The toon light: the scene light's colour normalised to 1 in red (a
   shade of 1 shows the base colour as it is), and a hemisphere ambient of
   the lighting pass's sky and ground colours at this scale, so that the
   dark side keeps some colour. */
static const float sw__toon_light_color[3] = {1.0f, 2.5f / 2.6f, 2.35f / 2.6f};
static const float sw__toon_ambient = 0.3f;

void sw__toon_frame(const sw_renderer* r, const sw_render_frame* f, const sw_mat4* vp, const sw_mat4* previous_vp,
                    sw_vec3 light_direction, const sw_mat4* light_vp) {
    glUseProgram(r->p_toon);
    sw__probes_bind_shading(r); /* the probes' masks (probes.c) */
    glUniformMatrix4fv(SW_GBUFFER_LOC_VIEW_PROJECTION, 1, GL_FALSE, vp->m);
    glUniformMatrix4fv(SW_GBUFFER_LOC_PREVIOUS_VIEW_PROJECTION, 1, GL_FALSE, f->first_frame ? vp->m : previous_vp->m);
    glUniform3f(SW_TOON_LOC_LIGHT_DIRECTION, light_direction.x, light_direction.y, light_direction.z);
    float light[3], ambient[3]; /* the time of day's (sky_pass.c), else 1 */
    sw__frame_light_scale(f, light, ambient);
    glUniform3f(SW_TOON_LOC_LIGHT_COLOR, sw__toon_light_color[0] * light[0], sw__toon_light_color[1] * light[1],
                sw__toon_light_color[2] * light[2]);
    glUniform3f(SW_TOON_LOC_SKY_COLOR, 0.55f * ambient[0], 0.62f * ambient[1], 0.75f * ambient[2]);
    glUniform3f(SW_TOON_LOC_GROUND_COLOR, 0.22f * ambient[0], 0.2f * ambient[1], 0.18f * ambient[2]);
    glUniform1f(SW_TOON_LOC_AMBIENT, sw__toon_ambient);
    glUniform3fv(SW_TOON_LOC_EYE, 1, f->camera.current.eye);
    (void)light_vp; /* the cascades' (shadow_cache.h) */
    sw__shadow_cascade_uniforms(r->shadow_cache, SW_TOON_LOC_CASCADE_COUNT, SW_TOON_LOC_CASCADE_VIEW_PROJECTION,
                                SW_TOON_LOC_CASCADE_RECT);
    glUniform1f(SW_TOON_LOC_SHADOW_TEXEL, 1.0f / (float)r->shadow_size);
    const float time = isfinite(f->shading.time) ? f->shading.time : 0.0f;
    glUniform2f(SW_TOON_LOC_NIGHT_TIME, f->shading.night ? 1.0f : 0.0f, time);
    /* The UV animation's step since the previous frame, for its motion
       vectors (none on a first frame, whose motion is zero). */
    glUniform1f(SW_TOON_LOC_TIME_STEP, f->first_frame ? 0.0f : time - r->previous_time);
    glActiveTexture(GL_TEXTURE0 + SW_TOON_UNIT_SHADOW);
    glBindTexture(GL_TEXTURE_2D, r->t_shadow);
}

/* One toon draw's state: its material's block and textures, the flags
   of this frame, primitive and pass, the head joint's frame, folding, and
   the face culling it needs (back faces culled, none for double-sided
   materials, front faces for the outline hull; `faces` may ask for the
   back or front faces only). */
static void sw__bind_toon(const sw_renderer* r, const sw__draw* d, const sw_render_frame* f, const sw_toon_material* t,
                          int flags, bool outline, sw__faces faces) {
    const sw__material* m = &r->materials[d->material];
    glBindBufferBase(GL_UNIFORM_BUFFER, SW_MATERIAL_BLOCK, sw__block_of(m));
    for (int unit = 0; unit < SW_TOON_UNIT_COUNT; unit++) {
        if (unit == SW_TOON_UNIT_SHADOW) continue; /* the frame's */
        const GLuint blank = unit == SW_MATERIAL_SLOT_NORMAL ? r->flat_normal_texture : r->white_texture;
        glActiveTexture(GL_TEXTURE0 + (GLenum)unit);
        glBindTexture(GL_TEXTURE_2D, m->toon_textures[unit] ? m->toon_textures[unit] : blank);
    }
    glUniform1i(SW_GBUFFER_LOC_FLAGS, flags | (d->prim->normals ? SW_GBUFFER_FLAG_NORMALS : 0) | m->toon_gbuffer_flags);
    glUniform1i(SW_TOON_LOC_FLAGS, m->toon_flags | (outline ? SW_TOON_FLAG_OUTLINE : 0));
    /* The environment feedback is the character's: a stage draw reads none. */
    if (sw__draw_is_stage(d)) glUniform4f(SW_TOON_LOC_FEEDBACK_BODY, 0.0f, 0.0f, 0.0f, 0.0f);
    else sw__feedback_bind(r, f, SW_TOON_LOC_FEEDBACK_BODY, SW_TOON_UNIT_FEEDBACK);
    /* The head joint's frame; folded face vertices go to its origin. */
    float axes[3][3], origin[3];
    sw__head_frame(r, d, f->pose, t, axes, origin);
    glUniform3fv(SW_TOON_LOC_HEAD_RIGHT, 1, axes[0]);
    glUniform3fv(SW_TOON_LOC_HEAD_UP, 1, axes[1]);
    glUniform3fv(SW_TOON_LOC_HEAD_FORWARD, 1, axes[2]);
    const bool fold = sw__folds(d, t);
    const int outline_flags = !outline ? 0
                              : SW_VERTEX_FLAG_OUTLINE | (t->outline_world ? SW_VERTEX_FLAG_OUTLINE_WORLD : 0) |
                                    (m->toon_textures[SW_TOON_UNIT_OUTLINE_WIDTH] ? SW_VERTEX_FLAG_OUTLINE_TEXTURE : 0);
    glUniform1i(SW_GBUFFER_LOC_VERTEX_FLAGS, outline_flags | (fold ? SW_VERTEX_FLAG_FOLD : 0));
    glUniform3fv(SW_GBUFFER_LOC_FOLD_POINT, 1, origin);
    if (outline) {
        glEnable(GL_CULL_FACE);
        glCullFace(GL_FRONT);
    } else if (faces != SW__FACES_MATERIAL) {
        glEnable(GL_CULL_FACE);
        glCullFace(faces == SW__FACES_BACK ? GL_FRONT : GL_BACK);
    } else {
        glCullFace(GL_BACK);
        if (m->core->double_sided) glDisable(GL_CULL_FACE);
        else glEnable(GL_CULL_FACE);
    }
}

void sw__draw_toon_one(const sw_renderer* r, const sw__draw* d, const sw_render_frame* f, const sw_toon_material* t,
                       int flags, bool outline, sw__faces faces) {
    const sw_gpu_model_primitive* gpu = d->drawn;
    if (outline) {
        if (!t->outline || !d->drawn_outline || !(t->outline_width > 0.0f)) return;
        gpu = d->drawn_outline;
    }
    sw__bind_toon(r, d, f, t, flags, outline, faces);
    glBindVertexArray(d->vao);
    if (d->outline_normals) glEnableVertexAttribArray(SW_ATTR_TANGENT);
    sw__draw_copies(d, gpu, true);
}

void sw__draw_toon(sw_renderer* r, const sw_render_frame* f, sw_render_style style, const sw_mat4* vp,
                   const sw_mat4* previous_vp, sw_vec3 light_direction, const sw_mat4* light_vp, int flags) {
    sw__toon_frame(r, f, vp, previous_vp, light_direction, light_vp);
    for (int pass = 0; pass < 2; pass++) {
        const bool outline = pass == 1;
        /* The hull a little farther than the surface: where both meet, the surface wins. */
        if (outline) glEnable(GL_POLYGON_OFFSET_FILL), sw__depth_offset_away(r, 1.0f, 1.0f);
        for (size_t i = 0; i < r->draw_count; i++) {
            const sw__draw* d = &r->draws[i];
            const sw_toon_material* t = sw__toon_of(r, d, style);
            if (!t || sw__hidden(f, d) || sw__blended(r, f, d, style)) continue;
            sw__draw_toon_one(r, d, f, t, flags, outline, SW__FACES_MATERIAL);
        }
        if (outline) glDisable(GL_POLYGON_OFFSET_FILL);
    }
    glCullFace(GL_BACK);
}
