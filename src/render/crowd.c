/* Crowds (sw_renderer_set_crowd, sw_render_frame.crowd): every draw's
   instance and outline instance for `count` copies, skinned from one
   palette per skin that holds every copy, made when the crowd is set and
   never while drawing; posing and skinning them, their bounds. */
#include "renderer_internal.h"

#include <float.h>

#include "../base/base_internal.h"

void sw__clear_crowd(sw_renderer* r) {
    for (size_t i = 0; i < r->character_draw_count; i++) {
        sw__draw* d = &r->draws[i];
        if (d->crowd_outline_gpu != d->crowd_gpu) sw_gpu_model_primitive_destroy(d->crowd_outline_gpu);
        sw_gpu_model_primitive_destroy(d->crowd_gpu);
        d->crowd_gpu = d->crowd_outline_gpu = NULL;
        d->crowd_palette = NULL;
    }
    for (size_t i = 0; r->crowd_palettes && i < r->palette_count; i++) sw_gpu_model_palette_destroy(r->crowd_palettes[i]);
    sw__free(r->crowd_palettes);
    r->crowd_palettes = NULL;
    r->crowd_size = 0;
}

sw_result sw__make_crowd_outline(sw_renderer* r, sw__draw* d, sw_diag* diag) {
    if (!d->crowd_gpu || d->crowd_outline_gpu || !d->outline_gpu) return SW_OK;
    return sw_gpu_model_primitive_create_shared(r->skinner, d->crowd_palette, d->node, d->primitive, d->outline_normals,
                                                &d->crowd_outline_gpu, diag);
}

/* One draw's crowd objects: as the single copy's, the outline normals in
   the tangent stream when the primitive has no tangents of its own, else
   a second instance where the single copy has one. */
static sw_result sw__make_crowd_draw(sw_renderer* r, sw__draw* d, size_t count, sw_diag* diag) {
    sw_result res = sw__palette_for(r, d, r->crowd_palettes, count, &d->crowd_palette, diag);
    const bool shared = d->outline_gpu && d->outline_gpu == d->gpu;
    if (res == SW_OK)
        res = sw_gpu_model_primitive_create_shared(r->skinner, d->crowd_palette, d->node, d->primitive,
                                                   shared ? d->outline_normals : NULL, &d->crowd_gpu, diag);
    if (res != SW_OK) return res;
    if (shared) d->crowd_outline_gpu = d->crowd_gpu;
    return sw__make_crowd_outline(r, d, diag);
}

sw_result sw_renderer_set_crowd(sw_renderer* r, size_t count, sw_diag* diag) {
    if (!r || !r->asset) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "NULL renderer, or no scene");
    if (count == r->crowd_size) return SW_OK;
    sw__clear_crowd(r);
    if (count == 0) return SW_OK;
    r->crowd_palettes = (sw_gpu_model_palette**)sw__calloc(r->palette_count + 1, sizeof(sw_gpu_model_palette*));
    if (!r->crowd_palettes) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for a crowd");
    r->crowd_size = count;
    sw_result res = SW_OK;
    for (size_t i = 0; res == SW_OK && i < r->character_draw_count; i++) res = sw__make_crowd_draw(r, &r->draws[i], count, diag);
    if (res == SW_OK) res = sw_gl_check("making a crowd", diag);
    if (res != SW_OK) sw__clear_crowd(r); /* no half-made crowd stays behind */
    return res;
}

sw_result sw__skin_crowd(sw_renderer* r, const sw_render_frame* f, sw_skin_method method, sw_diag* diag) {
    const sw_render_frame_crowd* crowd = &f->crowd;
    if (crowd->count != r->crowd_size)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1,
                           "a crowd of %zu, but sw_renderer_set_crowd prepared %zu copies", crowd->count, r->crowd_size);
    if (!crowd->poses) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "a crowd of %zu without poses", crowd->count);
    for (size_t i = 0; i < crowd->count; i++)
        if (!crowd->poses[i] || !crowd->poses[i]->world)
            return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, (int64_t)i, "crowd pose %zu is NULL or has no world matrices", i);
    sw_result res = SW_OK;
    for (size_t i = 0; res == SW_OK && i < r->palette_count; i++)
        if (r->crowd_palettes[i])
            res = sw_gpu_model_palette_pose(r->crowd_palettes[i], crowd->poses, crowd->placements, crowd->count, diag);
    sw_gpu_skin_desc desc = {.method = method == SW_SKIN_DQS ? SW_SKIN_DQS : SW_SKIN_LBS};
    for (size_t i = 0; res == SW_OK && i < r->character_draw_count; i++) {
        sw__draw* d = &r->draws[i];
        /* The morph weights (poses[0]'s): the palettes are posed. */
        res = sw_gpu_model_primitive_pose_crowd(d->crowd_gpu, crowd->poses, crowd->placements, crowd->count, diag);
        if (res == SW_OK) res = sw_gpu_model_primitive_skin(r->skinner, d->crowd_gpu, &desc, NULL, diag);
        const sw_toon_material* t = sw__toon_of(r, d, f->shading.style);
        if (res != SW_OK || !t || !t->outline || !d->crowd_outline_gpu || d->crowd_outline_gpu == d->crowd_gpu) continue;
        res = sw_gpu_model_primitive_pose_crowd(d->crowd_outline_gpu, crowd->poses, crowd->placements, crowd->count,
                                                diag);
        if (res == SW_OK) res = sw_gpu_model_primitive_skin(r->skinner, d->crowd_outline_gpu, &desc, NULL, diag);
    }
    return res;
}

sw_result sw__crowd_bounds(sw_renderer* r, float lo[3], float hi[3], sw_diag* diag) {
    for (int c = 0; c < 3; c++) lo[c] = FLT_MAX, hi[c] = -FLT_MAX;
    for (size_t i = 0; i < r->character_draw_count; i++) {
        const sw__draw* d = &r->draws[i];
        const size_t n = d->prim->vertex_count * r->crowd_size;
        float* p = (float*)sw__malloc(n * 12);
        if (!p) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for %zu vertices", n);
        sw_result res = sw_gpu_instance_read(sw_gpu_model_primitive_instance(d->crowd_gpu), p, NULL, NULL, NULL, diag);
        for (size_t k = 0; res == SW_OK && k < n * 3; k++) {
            if (sw__beyond_extent(p[k])) {
                res = sw_diag_set(diag, SW_ERR_INVALID_DATA, (int64_t)(k / 3),
                                  "crowd: a posed vertex lies at %g on an axis, beyond the %g model units the renderer "
                                  "can frame (SW_MODEL_MAX_EXTENT)", (double)p[k], SW_MODEL_MAX_EXTENT);
                break;
            }
            lo[k % 3] = fminf(lo[k % 3], p[k]), hi[k % 3] = fmaxf(hi[k % 3], p[k]);
        }
        sw__free(p);
        if (res != SW_OK) return res;
    }
    if (!(lo[0] <= hi[0])) return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "the crowd has no vertex to draw");
    return SW_OK;
}
