/* The stage (sinew/render.h, "Stages"; renderer_internal.h): models drawn
   with the character. Each stage model's (node, primitive) pairs become
   draws appended after the character's in the renderer's array, and its
   materials follow the character's, so that every pass that loops over
   the draws draws the stage too; sw__draw_is_stage tells the passes which
   draws are the character's alone. A stage model is skinned once at its
   placed rest pose and only again when a frame poses it. */
#include "renderer_internal.h"

#include <float.h>
#include <stdio.h>
#include <string.h>

#include "../base/base_internal.h"

void sw__place_box(const sw_mat34* placement, float lo[3], float hi[3]) {
    float a[3] = {FLT_MAX, FLT_MAX, FLT_MAX}, b[3] = {-FLT_MAX, -FLT_MAX, -FLT_MAX};
    for (int corner = 0; corner < 8; corner++) {
        const sw_vec3 p = sw_mat34_apply_point(placement, sw_vec3_make(corner & 1 ? hi[0] : lo[0],
                                                                       corner & 2 ? hi[1] : lo[1],
                                                                       corner & 4 ? hi[2] : lo[2]));
        const float q[3] = {p.x, p.y, p.z};
        for (int k = 0; k < 3; k++) a[k] = fminf(a[k], q[k]), b[k] = fmaxf(b[k], q[k]);
    }
    memcpy(lo, a, sizeof a);
    memcpy(hi, b, sizeof b);
}

void sw__clear_stage(sw_renderer* r) {
    if (!r->stage) return;
    for (size_t i = r->character_draw_count; i < r->draw_count; i++) sw__free_draw(&r->draws[i]);
    memset(r->draws + r->character_draw_count, 0, (r->draw_count - r->character_draw_count) * sizeof(sw__draw));
    r->draw_count = r->character_draw_count;
    for (size_t k = 0; k < r->stage_count; k++) {
        sw__stage_model* s = &r->stage[k];
        if (!s->model) continue;
        sw__clear_model_materials(r, s->model, s->material_base, s->textures);
        const size_t palettes = s->model->skin_count + s->model->node_count;
        for (size_t i = 0; s->palettes && i < palettes; i++) sw_gpu_model_palette_destroy(s->palettes[i]);
        sw__free(s->palettes);
        sw__aligned_free(s->rest_memory);
    }
    sw__free(r->stage);
    r->stage = NULL;
    r->stage_count = r->stage_material_count = 0;
    r->have_bounds = false; /* the box is the character's again */
    /* The stats count the character's draws again. */
    r->stats.primitives = r->character_draw_count;
    r->stats.triangles = 0;
    for (size_t i = 0; i < r->character_draw_count; i++) r->stats.triangles += sw__draw_triangles(&r->draws[i]);
}

/* The palette stage draw d is skinned with: its skin's, or its node's. */
static sw_result sw__stage_palette(sw_renderer* r, sw__stage_model* s, sw__draw* d, sw_diag* diag) {
    const sw_model* a = s->model;
    const int32_t skin = a->nodes[d->node].skin;
    const bool skinned = skin >= 0 && d->prim->influence_count > 0;
    const size_t slot = skinned ? (size_t)skin : a->skin_count + d->node;
    sw_result res = SW_OK;
    if (!s->palettes[slot])
        res = skinned ? sw_gpu_model_palette_create_skin(r->skinner, a, (size_t)skin, 1, &s->palettes[slot], diag)
                      : sw_gpu_model_palette_create_node(r->skinner, a, d->node, 1, &s->palettes[slot], diag);
    d->palette = s->palettes[slot];
    return res;
}

/* One stage draw: as the scene's (scene.c, sw__make_draw) from model k's
   streams, palettes and materials. */
static sw_result sw__make_stage_draw(sw_renderer* r, size_t k, size_t n, size_t p, sw__draw* d, sw_diag* diag) {
    sw__stage_model* s = &r->stage[k];
    const sw_model* a = s->model;
    const sw_model_primitive* prim = &a->meshes[a->nodes[n].mesh].primitives[p];
    d->stage = (uint32_t)k + 1, d->model = a;
    d->node = n, d->primitive = p, d->prim = prim, d->mode = sw__gl_mode(prim->mode);
    d->material = prim->material >= 0 && (size_t)prim->material < a->material_count
                      ? s->material_base + (size_t)prim->material
                      : r->asset->material_count; /* the scene's fallback */
    sw_result res = sw__stage_palette(r, s, d, diag);
    if (res != SW_OK) return res;
    d->outline_normals = sw__outline_normals(prim);
    const bool shared = d->outline_normals && !prim->tangents;
    res = sw_gpu_model_primitive_create_shared(r->skinner, d->palette, n, p, shared ? d->outline_normals : NULL, &d->gpu,
                                               diag);
    if (res != SW_OK) return res;
    if (shared) d->outline_gpu = d->gpu;
    sw__setup_vao(d);
    d->drawn = d->gpu, d->drawn_outline = d->outline_gpu;
    res = sw__make_outline(r, d, diag);
    r->stats.primitives++;
    r->stats.triangles += sw__draw_triangles(d);
    return res;
}

/* How many draws model a makes (every (node, primitive) with vertices). */
static size_t sw__model_draw_count(const sw_model* a) {
    size_t count = 0;
    for (size_t n = 0; n < a->node_count; n++) {
        if (a->nodes[n].mesh < 0) continue;
        const sw_model_mesh* mesh = &a->meshes[a->nodes[n].mesh];
        for (size_t p = 0; p < mesh->primitive_count; p++) count += mesh->primitives[p].vertex_count > 0;
    }
    return count;
}

/* Stage model k's rest pose, its materials and draws. */
static sw_result sw__make_stage_model(sw_renderer* r, size_t k, sw_diag* diag) {
    sw__stage_model* s = &r->stage[k];
    const sw_model* a = s->model;
    const sw_pose_sizes sizes = sw_pose_sizes_of(a);
    s->rest_memory = sw__aligned_alloc(16, sw_pose_memory_size(&sizes));
    s->palettes = (sw_gpu_model_palette**)sw__calloc(a->skin_count + a->node_count + 1, sizeof(sw_gpu_model_palette*));
    if (!s->rest_memory || !s->palettes)
        return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, (int64_t)k, "stage model %zu: out of memory", k);
    sw_pose_bind(&s->rest, &sizes, s->rest_memory);
    sw_pose_rest(a, &s->rest);
    sw_pose_update(a, &s->rest);
    s->pose = &s->rest;
    sw_result res = sw__prepare_model_materials(r, a, s->materials, s->material_base, &s->textures, diag);
    s->first_draw = r->draw_count;
    for (size_t n = 0; res == SW_OK && n < a->node_count; n++) {
        if (a->nodes[n].mesh < 0) continue;
        const sw_model_mesh* mesh = &a->meshes[a->nodes[n].mesh];
        for (size_t p = 0; res == SW_OK && p < mesh->primitive_count; p++) {
            if (!mesh->primitives[p].vertex_count) continue;
            sw__draw* d = &r->draws[r->draw_count++]; /* counted now: sw__clear_stage frees what it made */
            res = sw__make_stage_draw(r, k, n, p, d, diag);
        }
    }
    s->draw_count = r->draw_count - s->first_draw;
    return res;
}

/* Poses stage model k (placed) and skins its draws and outline instances
   with linear blend skinning. */
static sw_result sw__skin_stage_model(sw_renderer* r, sw__stage_model* s, const sw_pose* pose, sw_diag* diag) {
    const size_t palettes = s->model->skin_count + s->model->node_count;
    sw_result res = SW_OK;
    for (size_t i = 0; res == SW_OK && i < palettes; i++)
        if (s->palettes[i]) res = sw_gpu_model_palette_pose(s->palettes[i], &pose, &s->placement, 1, diag);
    const sw_gpu_skin_desc desc = {.method = SW_SKIN_LBS};
    for (size_t i = s->first_draw; res == SW_OK && i < s->first_draw + s->draw_count; i++) {
        sw__draw* d = &r->draws[i];
        res = sw_gpu_model_primitive_pose(d->gpu, pose, diag);
        if (res == SW_OK) res = sw_gpu_model_primitive_skin(r->skinner, d->gpu, &desc, NULL, diag);
        if (res != SW_OK || !d->outline_gpu || d->outline_gpu == d->gpu) continue;
        res = sw_gpu_model_primitive_pose(d->outline_gpu, pose, diag);
        if (res == SW_OK) res = sw_gpu_model_primitive_skin(r->skinner, d->outline_gpu, &desc, NULL, diag);
    }
    s->pose = pose;
    return res;
}

/* Each stage draw's world bounds (its skinned positions read back) and
   the stage's. */
static sw_result sw__stage_bounds(sw_renderer* r, sw_diag* diag) {
    for (int c = 0; c < 3; c++) r->stage_min[c] = FLT_MAX, r->stage_max[c] = -FLT_MAX;
    for (size_t i = r->character_draw_count; i < r->draw_count; i++) {
        sw__draw* d = &r->draws[i];
        const size_t n = d->prim->vertex_count;
        float* p = (float*)sw__malloc(n * 12);
        if (!p) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for %zu vertices", n);
        sw_result res = sw_gpu_instance_read(sw_gpu_model_primitive_instance(d->gpu), p, NULL, NULL, NULL, diag);
        for (int c = 0; c < 3; c++) d->world_min[c] = FLT_MAX, d->world_max[c] = -FLT_MAX;
        for (size_t v = 0; res == SW_OK && v < n * 3; v++) {
            if (sw__beyond_extent(p[v])) {
                res = sw_diag_set(diag, SW_ERR_INVALID_DATA, (int64_t)(v / 3),
                                  "stage model %u: placed, a vertex lies at %g on an axis, beyond the %g model units "
                                  "the renderer can frame (SW_MODEL_MAX_EXTENT)",
                                  d->stage - 1, (double)p[v], SW_MODEL_MAX_EXTENT);
                break;
            }
            d->world_min[v % 3] = fminf(d->world_min[v % 3], p[v]);
            d->world_max[v % 3] = fmaxf(d->world_max[v % 3], p[v]);
        }
        sw__free(p);
        if (res != SW_OK) return res;
        for (int c = 0; c < 3; c++)
            r->stage_min[c] = fminf(r->stage_min[c], d->world_min[c]),
            r->stage_max[c] = fmaxf(r->stage_max[c], d->world_max[c]);
    }
    return SW_OK;
}

/* Checks the models and their material sets as set_scene does. */
static sw_result sw__check_stage(const sw_render_stage_model* models, size_t count, sw_diag* diag) {
    if (!models) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "%zu stage models and no array", count);
    for (size_t k = 0; k < count; k++) {
        const sw_model* a = models[k].model;
        const sw_material_set* m = models[k].materials;
        if (!a) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, (int64_t)k, "stage model %zu: no model", k);
        if (m && (m->material_count != a->material_count || m->image_count != a->image_count ||
                  (a->material_count && !m->toon) || (a->image_count && !m->images)))
            return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, (int64_t)k,
                               "stage model %zu: the material set holds %zu materials and %zu images, the model %zu "
                               "and %zu", k, m->material_count, m->image_count, a->material_count, a->image_count);
        char what[48];
        snprintf(what, sizeof what, "stage model %zu", k);
        sw_result res = sw__check_extent(a, what, diag);
        if (res != SW_OK) return res;
    }
    return SW_OK;
}

/* Room for the stage's draws and materials after the scene's. */
static sw_result sw__grow_for_stage(sw_renderer* r, size_t draws, size_t materials, sw_diag* diag) {
    const size_t total = r->character_draw_count + draws;
    const size_t scene_materials = r->asset->material_count + 1;
    sw__draw* d = (sw__draw*)sw__realloc(r->draws, (total + 1) * sizeof *d);
    if (d) r->draws = d;
    sw__blend_entry* b = d ? (sw__blend_entry*)sw__realloc(r->blend_order, (total + 1) * sizeof *b) : NULL;
    if (b) r->blend_order = b;
    sw__material* m = b ? (sw__material*)sw__realloc(r->materials, (scene_materials + materials + 1) * sizeof *m) : NULL;
    if (m) r->materials = m;
    if (!m) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for a stage of %zu primitives", draws);
    memset(r->draws + r->character_draw_count, 0, (draws + 1) * sizeof *d);
    memset(r->materials + scene_materials, 0, (materials + 1) * sizeof *m);
    return SW_OK;
}

sw_result sw_renderer_set_stage(sw_renderer* r, const sw_render_stage_model* models, size_t count, sw_diag* diag) {
    if (!r || !r->asset) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "NULL renderer, or no scene set");
    sw__clear_stage(r);
    sw__shadow_cache_invalidate(r->shadow_cache); /* the static casters changed */
    sw__snow_cache_invalidate(r->snow_cache);     /* and the surfaces */
    if (count == 0) return SW_OK;
    sw_result res = sw__check_stage(models, count, diag);
    if (res != SW_OK) return res;
    size_t draws = 0, materials = 0;
    for (size_t k = 0; k < count; k++) {
        draws += sw__model_draw_count(models[k].model);
        materials += models[k].model->material_count;
    }
    res = sw__grow_for_stage(r, draws, materials, diag);
    if (res != SW_OK) return res;
    r->stage = (sw__stage_model*)sw__calloc(count, sizeof *r->stage);
    if (!r->stage) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for %zu stage models", count);
    r->stage_count = count;
    size_t base = r->asset->material_count + 1;
    for (size_t k = 0; k < count; k++) {
        sw__stage_model* s = &r->stage[k];
        s->model = models[k].model, s->materials = models[k].materials, s->placement = models[k].placement;
        s->material_base = base;
        base += s->model->material_count;
    }
    r->stage_material_count = materials;
    for (size_t k = 0; res == SW_OK && k < count; k++) res = sw__make_stage_model(r, k, diag);
    for (size_t k = 0; res == SW_OK && k < count; k++) {
        res = sw__skin_stage_model(r, &r->stage[k], &r->stage[k].rest, diag);
        r->stage[k].at_rest = true;
    }
    if (res == SW_OK) res = sw__stage_bounds(r, diag);
    if (res == SW_OK) res = sw_gl_check("setting the stage", diag);
    if (res != SW_OK) sw__clear_stage(r); /* no half-made stage stays behind */
    r->have_bounds = false; /* the scene box is recomputed with the stage */
    return res;
}

sw_result sw__skin_stage(sw_renderer* r, const sw_render_frame* f, sw_diag* diag) {
    for (size_t k = 0; k < r->stage_count; k++) {
        sw__stage_model* s = &r->stage[k];
        const sw_pose* pose = f->stage_poses ? f->stage_poses[k] : NULL;
        if (pose && !pose->world)
            return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, (int64_t)k, "stage pose %zu has no world matrices", k);
        if (!pose && s->at_rest) continue; /* static: skinned when the stage was set */
        sw_result res = sw__skin_stage_model(r, s, pose ? pose : &s->rest, diag);
        if (res != SW_OK) return res;
        s->at_rest = !pose;
    }
    return SW_OK;
}

sw_mat34 sw__stage_node_world(const sw_renderer* r, const sw__draw* d) {
    const sw__stage_model* s = &r->stage[d->stage - 1];
    return sw_mat34_mul(&s->placement, &s->pose->world[d->node]);
}

void sw__light_box(const sw_renderer* r, float lo[3], float hi[3]) {
    memcpy(lo, r->scene_min, sizeof r->scene_min);
    memcpy(hi, r->scene_max, sizeof r->scene_max);
    if (!r->stage_count || !(r->stage_min[0] <= r->stage_max[0])) return;
    float extent = 0.0f, centre[3];
    for (int c = 0; c < 3; c++) extent = fmaxf(extent, hi[c] - lo[c]), centre[c] = 0.5f * (lo[c] + hi[c]);
    const float reach = 0.5f * (float)SW_RENDER_STAGE_SHADOW_REACH * fmaxf(extent, 1.0f);
    for (int c = 0; c < 3; c++) {
        lo[c] = fmaxf(fminf(lo[c], r->stage_min[c]), centre[c] - reach);
        hi[c] = fminf(fmaxf(hi[c], r->stage_max[c]), centre[c] + reach);
    }
}

bool sw_renderer_stage_bounds(const sw_renderer* r, float out_min[3], float out_max[3]) {
    if (!r || !r->stage_count || !(r->stage_min[0] <= r->stage_max[0])) return false;
    memcpy(out_min, r->stage_min, sizeof r->stage_min);
    memcpy(out_max, r->stage_max, sizeof r->stage_max);
    return true;
}
