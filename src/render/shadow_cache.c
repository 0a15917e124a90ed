/* The static shadow cache (shadow_cache.h). */
#include "shadow_cache.h"

#include <string.h>
#include <time.h>

#include "../base/base_internal.h"
#include "gl_objects.h"
#include "renderer_internal.h"

sw_result sw__shadow_cache_create(sw__shadow_cache** out, sw_diag* diag) {
    *out = NULL;
    sw__shadow_cache* c = (sw__shadow_cache*)sw__calloc(1, sizeof *c);
    if (!c) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for the shadow cache");
    sw_result res = sw__program(sw_shader_fullscreen_vert, sw_shader_shadow_decode_frag, "shadow_decode", &c->program, diag);
    if (res != SW_OK) {
        sw__free(c);
        return res;
    }
    for (int i = 0; i < SW_SHADOW_MAX_CASCADES; i++) glGenBuffers(1, &c->slots[i].buffer);
    *out = c;
    return SW_OK;
}

void sw__shadow_cache_destroy(sw__shadow_cache* c) {
    if (!c) return;
    glDeleteProgram(c->program);
    for (int i = 0; i < SW_SHADOW_MAX_CASCADES; i++) {
        glDeleteBuffers(1, &c->slots[i].buffer);
        sw__shadow_records_free(&c->slots[i].records);
    }
    sw__free(c->readback);
    sw__free(c->static_nodes);
    sw__free(c);
}

bool sw__shadow_cache_valid(const sw__shadow_cache* c, int i, const float light_vp[16], int size) {
    const sw__shadow_slot* s = &c->slots[i];
    return s->valid && s->size == size && memcmp(s->light_vp, light_vp, sizeof s->light_vp) == 0;
}

void sw__shadow_cache_upload(sw__shadow_cache* c, int i, const sw__shadow_records* records) {
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, c->slots[i].buffer);
    glBufferData(GL_SHADER_STORAGE_BUFFER, (GLsizeiptr)(records->word_count * sizeof(uint32_t)), records->data,
                 GL_STATIC_DRAW);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
    c->slots[i].blocks_x = records->blocks_x;
}

static double sw__now_ms(void) {
    struct timespec t;
    timespec_get(&t, TIME_UTC);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

/* The stats of every valid slot together (bytes, texels, worst and mean error). */
static void sw__cache_totals(sw__shadow_cache* c, const sw__shadow_error* latest, int latest_slot) {
    sw_shadow_cache_stats* s = &c->stats;
    s->bytes = 0, s->texels = 0;
    for (int i = 0; i < SW_SHADOW_MAX_CASCADES; i++) {
        if (!c->slots[i].valid && i != latest_slot) continue;
        s->bytes += c->slots[i].records.word_count * sizeof(uint32_t);
        s->texels += (size_t)c->slots[i].size * (size_t)c->slots[i].size;
    }
    s->active = s->bytes > 0;
    s->ratio_float32 = s->bytes ? (double)(s->texels * 4) / (double)s->bytes : 0.0;
    s->ratio_depth16 = s->bytes ? (double)(s->texels * 2) / (double)s->bytes : 0.0;
    /* Worst errors are kept over every bake since the static set was given. */
    s->max_error = latest->max_abs > s->max_error ? latest->max_abs : s->max_error;
    s->max_nearer = latest->max_nearer > s->max_nearer ? latest->max_nearer : s->max_nearer;
    s->mean_error = latest->mean_abs;
}

bool sw__shadow_cache_bake(sw__shadow_cache* c, int i, sw__shadow_cell cell, const float light_vp[16]) {
    const double start = sw__now_ms();
    sw__shadow_slot* slot = &c->slots[i];
    slot->valid = false;
    const size_t texels = (size_t)cell.size * (size_t)cell.size;
    if (c->readback_texels < texels) {
        sw__free(c->readback);
        c->readback = (float*)sw__malloc(texels * sizeof(float));
        c->readback_texels = c->readback ? texels : 0;
        if (!c->readback) return false;
    }
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    glReadPixels(cell.x, cell.y, cell.size, cell.size, GL_DEPTH_COMPONENT, GL_FLOAT, c->readback);
    sw__shadow_records_free(&slot->records);
    if (sw__shadow_encode(c->readback, cell.size, cell.size, SW__SHADOW_CACHE_TOLERANCE, &slot->records) != 0)
        return false;
    sw__shadow_cache_upload(c, i, &slot->records);
    slot->size = cell.size;
    memcpy(slot->light_vp, light_vp, sizeof slot->light_vp);
    const sw__shadow_error e = sw__shadow_measure(c->readback, &slot->records);
    sw__cache_totals(c, &e, i);
    c->stats.bakes++;
    c->stats.bake_ms = sw__now_ms() - start;
    slot->valid = true;
    return true;
}

void sw__shadow_cache_decode(const sw__shadow_cache* c, int i, int x0, int y0, GLuint empty_vao) {
    glUseProgram(c->program);
    glUniform1i(SW_SHADOW_DECODE_LOC_BLOCKS_X, c->slots[i].blocks_x);
    glUniform2i(SW_SHADOW_DECODE_LOC_ORIGIN, x0, y0);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SW_SHADOW_DECODE_BUFFER, c->slots[i].buffer);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_ALWAYS);
    glDepthMask(GL_TRUE);
    glBindVertexArray(empty_vao);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glDepthFunc(GL_LESS);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SW_SHADOW_DECODE_BUFFER, 0);
}

void sw__shadow_cascade_uniforms(const sw__shadow_cache* c, GLint count_location, GLint vp_location,
                                 GLint rect_location) {
    glUniform1i(count_location, c->cascade_count);
    for (int i = 0; i < c->cascade_count; i++) {
        glUniformMatrix4fv(vp_location + i, 1, GL_FALSE, c->view_projections[i].m);
        glUniform4fv(rect_location + i, 1, c->rects[i]);
    }
}

/* ---- the public face ---------------------------------------------------------------- */

void sw__shadow_cache_clear(sw__shadow_cache* c) {
    if (!c) return;
    sw__free(c->static_nodes);
    c->static_nodes = NULL;
    c->node_count = 0;
    for (int i = 0; i < SW_SHADOW_MAX_CASCADES; i++) c->slots[i].valid = false;
    c->stats = (sw_shadow_cache_stats){0};
}

sw_result sw_renderer_set_static_casters(sw_renderer* r, const bool* nodes, sw_diag* diag) {
    if (!r || !r->asset || !r->shadow_cache)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "static casters: NULL renderer or no scene");
    sw__shadow_cache* c = r->shadow_cache;
    sw__shadow_cache_clear(c);
    if (!nodes) return SW_OK;
    c->static_nodes = (bool*)sw__malloc(r->asset->node_count * sizeof(bool) + 1);
    if (!c->static_nodes) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for the static casters");
    memcpy(c->static_nodes, nodes, r->asset->node_count * sizeof(bool));
    c->node_count = r->asset->node_count;
    return SW_OK;
}

void sw_renderer_get_shadow_cache_stats(const sw_renderer* r, sw_shadow_cache_stats* out) {
    *out = (sw_shadow_cache_stats){0};
    if (r && r->shadow_cache) *out = r->shadow_cache->stats;
}

/* ---- which casters are static ------------------------------------------------------- */

/* Whether stage model k (sw__draw.stage = k + 1) holds still this frame:
   a stage model the frame poses (stage_poses) casts as a dynamic caster. */
static bool sw__stage_still(const sw_render_frame* f, uint32_t stage) {
    return !(f->stage_poses && f->stage_poses[stage - 1]);
}

bool sw__shadow_has_static(const sw_renderer* r, const sw_render_frame* f) {
    if (!r->shadow_cache) return false;
    if (r->shadow_cache->static_nodes) return true;
    for (size_t i = r->character_draw_count; i < r->draw_count; i++)
        if (sw__stage_still(f, r->draws[i].stage)) return true;
    return false;
}

bool sw__shadow_static_draw(const sw_renderer* r, const sw_render_frame* f, const sw__draw* d) {
    if (sw__draw_is_stage(d)) return sw__stage_still(f, d->stage); /* the stage: static unless posed */
    const sw__shadow_cache* c = r->shadow_cache;
    return c && c->static_nodes && d->node < c->node_count && c->static_nodes[d->node];
}

void sw__shadow_cache_invalidate(sw__shadow_cache* c) {
    if (!c) return;
    for (int i = 0; i < SW_SHADOW_MAX_CASCADES; i++) c->slots[i].valid = false;
}

/* ---- placing the cascades ------------------------------------------------------------ */

/* The static casters' box at this pose (rigid draws at their nodes' world
   transforms); false when there are none. */
static bool sw__static_bounds(const sw_renderer* r, const sw_render_frame* f, float lo[3], float hi[3]) {
    bool any = false;
    for (size_t i = 0; i < r->draw_count; i++) {
        const sw__draw* d = &r->draws[i];
        if (!sw__shadow_static_draw(r, f, d)) continue;
        float dlo[3], dhi[3];
        if (sw__draw_is_stage(d)) { /* its box, kept from when the stage was set */
            memcpy(dlo, d->world_min, sizeof dlo), memcpy(dhi, d->world_max, sizeof dhi);
        } else if (r->asset->nodes[d->node].skin >= 0 && d->prim->influence_count > 0) { /* skinned: its bind box */
            memcpy(dlo, d->prim->bounds_min, sizeof dlo), memcpy(dhi, d->prim->bounds_max, sizeof dhi);
        } else {
            sw__hiz_transform_box((const float(*)[4])f->pose->world[d->node].m, d->prim->bounds_min, d->prim->bounds_max,
                                  dlo, dhi);
        }
        for (int k = 0; k < 3; k++) {
            lo[k] = any && lo[k] < dlo[k] ? lo[k] : dlo[k];
            hi[k] = any && hi[k] > dhi[k] ? hi[k] : dhi[k];
        }
        any = true;
    }
    return any;
}

void sw__shadow_place(sw_renderer* r, const sw_render_frame* f, sw_vec3 light_direction, const sw_mat4* light_vp) {
    sw__shadow_cache* c = r->shadow_cache;
    const int atlas = r->shadow_size;
    float lo[3], hi[3];
    const bool stage = sw__shadow_has_static(r, f) && atlas >= 64 && (atlas & (atlas - 1)) == 0 &&
                       sw__static_bounds(r, f, lo, hi);
    if (!sw__shadow_has_static(r, f)) c->stats.active = false; /* e.g. the stage cleared or posed */
    if (!stage) { /* one cell, the whole atlas: the scene box's light box */
        c->cascade_count = 1;
        c->cells[0] = (sw__shadow_cell){0, 0, atlas};
        c->view_projections[0] = *light_vp;
    } else {
        c->cascade_count = SW__SHADOW_STAGE_CASCADES;
        int sizes[SW_SHADOW_MAX_CASCADES];
        for (int i = 0; i < c->cascade_count; i++) sizes[i] = atlas / 2;
        sw__shadow_atlas_layout(atlas, sizes, c->cascade_count, c->cells);
        for (int k = 0; k < 3; k++) lo[k] = fminf(lo[k], r->scene_min[k]), hi[k] = fmaxf(hi[k], r->scene_max[k]);
        /* The camera's depth range over the scene box. */
        const sw_camera* cam = &f->camera.current;
        const sw_vec3 eye = sw__v3(cam->eye);
        const sw_vec3 forward = sw_vec3_normalize(sw_vec3_sub(sw__v3(cam->target), eye));
        float far = cam->z_near * 2.0f;
        for (int k = 0; k < 8; k++) {
            const sw_vec3 p = sw_vec3_make(k & 1 ? hi[0] : lo[0], k & 2 ? hi[1] : lo[1], k & 4 ? hi[2] : lo[2]);
            far = fmaxf(far, sw_vec3_dot(sw_vec3_sub(p, eye), forward));
        }
        far = fminf(far, cam->z_far);
        float splits[SW_SHADOW_MAX_CASCADES + 1];
        sw__shadow_cascade_splits(cam->z_near, far, c->cascade_count, 0.75f, splits);
        const float aspect = (float)r->width / (float)r->height;
        for (int i = 0; i < c->cascade_count; i++)
            c->view_projections[i] = sw__shadow_fit_cascade(cam, aspect, splits[i], splits[i + 1], light_direction, lo, hi,
                                                            i == 0 ? r->scene_min : NULL, i == 0 ? r->scene_max : NULL,
                                                            c->cells[i].size - 2 * SW__SHADOW_GUARD);
    }
    for (int i = 0; i < c->cascade_count; i++) {
        int vp[4];
        sw__shadow_cell_viewport(c->cells[i], vp);
        c->rects[i][0] = (float)vp[0] / (float)atlas;
        c->rects[i][1] = (float)vp[1] / (float)atlas;
        c->rects[i][2] = (float)vp[2] / (float)atlas;
        c->rects[i][3] = 1.5f / (float)vp[2]; /* the pick margin: the 3×3 PCF's reach, in the cell's units */
    }
}

sw__shadow_cache* sw__renderer_shadow_cache(sw_renderer* r) { return r ? r->shadow_cache : NULL; }
