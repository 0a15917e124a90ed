/* The scene the renderer draws (renderer_internal.h): every (node,
   primitive) of the model as a draw with its vertex array, its GPU
   instance and outline instance, the palettes they are skinned with (one
   per skin, one per rigid node), the ground; skinning it at a pose, its
   bounds, drawing one primitive. */
#include "renderer_internal.h"

#include <float.h>
#include <string.h>

#include "../base/base_internal.h"

GLenum sw__gl_mode(sw_model_mode mode) {
    switch (mode) {
    case SW_MODEL_POINTS: return GL_POINTS;
    case SW_MODEL_LINES: return GL_LINES;
    case SW_MODEL_LINE_LOOP: return GL_LINE_LOOP;
    case SW_MODEL_LINE_STRIP: return GL_LINE_STRIP;
    case SW_MODEL_TRIANGLE_STRIP: return GL_TRIANGLE_STRIP;
    case SW_MODEL_TRIANGLE_FAN: return GL_TRIANGLE_FAN;
    default: return GL_TRIANGLES;
    }
}

/* The static streams a draw reads beside the skinned ones: TEXCOORD_0,
   TEXCOORD_1 and colours in one buffer. */
static void sw__static_streams(sw__draw* d) {
    const sw_model_primitive* p = d->prim;
    const size_t n = p->vertex_count;
    size_t bytes = (p->texcoord_count > 0 ? n * 8 : 0) + (p->texcoord_count > 1 ? n * 8 : 0) + (p->colors ? n * 16 : 0);
    if (!bytes) return;
    glGenBuffers(1, &d->static_buffer);
    glBindBuffer(GL_ARRAY_BUFFER, d->static_buffer);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)bytes, NULL, GL_STATIC_DRAW);
    size_t at = 0;
    if (p->texcoord_count > 0) {
        glBufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)(n * 8), p->texcoords[0]);
        glBindVertexBuffer(SW_ATTR_UV0, d->static_buffer, 0, 8);
        glEnableVertexAttribArray(SW_ATTR_UV0);
        at += n * 8;
    }
    if (p->texcoord_count > 1) {
        glBufferSubData(GL_ARRAY_BUFFER, (GLintptr)at, (GLsizeiptr)(n * 8), p->texcoords[1]);
        glBindVertexBuffer(SW_ATTR_UV1, d->static_buffer, (GLintptr)at, 8);
        glEnableVertexAttribArray(SW_ATTR_UV1);
        at += n * 8;
    }
    if (p->colors) {
        glBufferSubData(GL_ARRAY_BUFFER, (GLintptr)at, (GLsizeiptr)(n * 16), p->colors);
        glBindVertexBuffer(SW_ATTR_COLOR, d->static_buffer, (GLintptr)at, 16);
        glEnableVertexAttribArray(SW_ATTR_COLOR);
    }
}

/* Attribute layout of the G-buffer pass (SW_ATTR_*, gbuffer.vert), each
   attribute reading the binding point of its own number; position,
   previous position, normal and tangent follow the skinned buffers and are
   rebound every draw. */
void sw__setup_vao(sw__draw* d) {
    const sw_model_primitive* p = d->prim;
    static const struct { GLuint attribute; GLint size; } formats[] = {
        {SW_ATTR_POSITION, 3}, {SW_ATTR_PREVIOUS_POSITION, 3}, {SW_ATTR_NORMAL, 3}, {SW_ATTR_TANGENT, 4},
        {SW_ATTR_UV0, 2},      {SW_ATTR_UV1, 2},               {SW_ATTR_COLOR, 4},  {SW_ATTR_WEIGHT, 1},
    };
    glGenVertexArrays(1, &d->vao);
    glBindVertexArray(d->vao);
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
        glVertexAttribFormat(formats[i].attribute, formats[i].size, GL_FLOAT, GL_FALSE, 0);
        glVertexAttribBinding(formats[i].attribute, formats[i].attribute);
    }
    glEnableVertexAttribArray(SW_ATTR_POSITION);
    glEnableVertexAttribArray(SW_ATTR_PREVIOUS_POSITION);
    if (p->normals) glEnableVertexAttribArray(SW_ATTR_NORMAL);
    if (p->tangents) glEnableVertexAttribArray(SW_ATTR_TANGENT);
    sw__static_streams(d);
    if (p->indices) {
        glGenBuffers(1, &d->index_buffer);
        glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, d->index_buffer);
        glBufferData(GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)(p->index_count * 4), p->indices, GL_STATIC_DRAW);
    }
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
}

/* The positions of every mesh a node draws, as stored: the first one
   beyond SW_MODEL_MAX_EXTENT fails (SW_ERR_INVALID_DATA). */
sw_result sw__check_extent(const sw_model* asset, const char* what, sw_diag* diag) {
    bool* seen = (bool*)sw__calloc(asset->mesh_count + 1, sizeof(bool));
    if (!seen) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory");
    for (size_t n = 0; n < asset->node_count; n++) {
        int32_t m = asset->nodes[n].mesh;
        if (m < 0 || seen[m]) continue;
        seen[m] = true;
        for (size_t p = 0; p < asset->meshes[m].primitive_count; p++) {
            const sw_model_primitive* prim = &asset->meshes[m].primitives[p];
            for (size_t i = 0; i < prim->vertex_count * 3; i++) {
                if (!sw__beyond_extent(prim->positions[i])) continue;
                sw__free(seen);
                return sw_diag_set(diag, SW_ERR_INVALID_DATA, (int64_t)(i / 3),
                                   "%s%smesh %d primitive %zu: vertex %zu lies at %g on an axis, beyond the %g model "
                                   "units the renderer can frame (SW_MODEL_MAX_EXTENT)",
                                   what ? what : "", what ? ": " : "", (int)m, p, i / 3, (double)prim->positions[i], SW_MODEL_MAX_EXTENT);
            }
        }
    }
    sw__free(seen);
    return SW_OK;
}

sw_result sw__palette_for(sw_renderer* r, const sw__draw* d, sw_gpu_model_palette** palettes, size_t copies,
                          sw_gpu_model_palette** out, sw_diag* diag) {
    const sw_model* a = r->asset;
    const int32_t skin = a->nodes[d->node].skin;
    const bool skinned = skin >= 0 && d->prim->influence_count > 0;
    const size_t slot = skinned ? (size_t)skin : a->skin_count + d->node;
    sw_result res = SW_OK;
    if (!palettes[slot])
        res = skinned ? sw_gpu_model_palette_create_skin(r->skinner, a, (size_t)skin, copies, &palettes[slot], diag)
                      : sw_gpu_model_palette_create_node(r->skinner, a, d->node, copies, &palettes[slot], diag);
    *out = palettes[slot];
    return res;
}

sw_result sw__make_outline(sw_renderer* r, sw__draw* d, sw_diag* diag) {
    if (d->outline_gpu || !d->outline_normals || !sw__may_outline(r, d)) return SW_OK;
    return sw_gpu_model_primitive_create_shared(r->skinner, d->palette, d->node, d->primitive, d->outline_normals,
                                                &d->outline_gpu, diag);
}

/* One (node, primitive): its palette, instance, outline normals and vertex array. */
static sw_result sw__make_draw(sw_renderer* r, size_t n, size_t p, sw__draw* d, sw_diag* diag) {
    const sw_model* asset = r->asset;
    const sw_model_primitive* prim = &asset->meshes[asset->nodes[n].mesh].primitives[p];
    d->model = asset, d->stage = 0;
    d->node = n, d->primitive = p, d->prim = prim, d->mode = sw__gl_mode(prim->mode);
    d->material = prim->material >= 0 && (size_t)prim->material < asset->material_count ? (size_t)prim->material
                                                                                          : asset->material_count;
    sw_result res = sw__palette_for(r, d, r->palettes, 1, &d->palette, diag);
    if (res != SW_OK) return res;
    /* Outline normals ride in the tangent stream (toon shading uses no
       vertex tangents): in this instance when the primitive has none, else
       in a second one (sw__make_outline). */
    d->outline_normals = sw__outline_normals(prim);
    const bool shared = d->outline_normals && !prim->tangents;
    res = sw_gpu_model_primitive_create_shared(r->skinner, d->palette, n, p, shared ? d->outline_normals : NULL, &d->gpu,
                                               diag);
    if (res != SW_OK) return res;
    if (shared) d->outline_gpu = d->gpu;
    sw__setup_vao(d);
    return SW_OK;
}

/* Every (node, primitive), scene or not, as sinew export lists them. */
static sw_result sw__make_draws(sw_renderer* r, sw_diag* diag) {
    const sw_model* asset = r->asset;
    size_t count = 0;
    for (size_t n = 0; n < asset->node_count; n++)
        if (asset->nodes[n].mesh >= 0) count += asset->meshes[asset->nodes[n].mesh].primitive_count;
    r->palette_count = asset->skin_count + asset->node_count;
    r->draws = (sw__draw*)sw__calloc(count + 1, sizeof(sw__draw));
    r->palettes = (sw_gpu_model_palette**)sw__calloc(r->palette_count + 1, sizeof(sw_gpu_model_palette*));
    r->blend_order = (sw__blend_entry*)sw__calloc(count + 1, sizeof(sw__blend_entry));
    if (!r->draws || !r->palettes || !r->blend_order)
        return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for %zu primitives", count);
    for (size_t n = 0; n < asset->node_count; n++) {
        const sw_model_node* node = &asset->nodes[n];
        if (node->mesh < 0) continue;
        const sw_model_mesh* mesh = &asset->meshes[node->mesh];
        for (size_t p = 0; p < mesh->primitive_count; p++) {
            const sw_model_primitive* prim = &mesh->primitives[p];
            if (prim->vertex_count == 0) continue;
            sw__draw* d = &r->draws[r->draw_count++]; /* counted now: sw__clear_scene frees what it made */
            sw_result res = sw__make_draw(r, n, p, d, diag);
            if (res != SW_OK) return res;
            r->stats.primitives++;
            r->stats.triangles += sw__draw_triangles(d);
        }
    }
    r->character_draw_count = r->draw_count;
    return SW_OK;
}

size_t sw__draw_triangles(const sw__draw* d) {
    const size_t elements = d->prim->indices ? d->prim->index_count : d->prim->vertex_count;
    if (d->mode == GL_TRIANGLES) return elements / 3;
    if (d->mode == GL_TRIANGLE_STRIP || d->mode == GL_TRIANGLE_FAN) return elements > 2 ? elements - 2 : 0;
    return 0;
}

sw_result sw__prepare_scene(sw_renderer* r, const sw_model* asset, const sw_material_set* materials, sw_diag* diag) {
    if (materials && (materials->material_count != asset->material_count || materials->image_count != asset->image_count ||
                      (asset->material_count && !materials->toon) || (asset->image_count && !materials->images)))
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1,
                           "the material set holds %zu materials and %zu images, the model %zu and %zu",
                           materials->material_count, materials->image_count, asset->material_count,
                           asset->image_count);
    sw_result res = sw__check_extent(asset, NULL, diag);
    if (res != SW_OK) return res;
    r->asset = asset;
    res = sw__prepare_materials(r, materials, diag);
    if (res == SW_OK) res = sw__make_draws(r, diag);
    for (size_t i = 0; res == SW_OK && i < r->draw_count; i++) res = sw__make_outline(r, &r->draws[i], diag);
    if (res == SW_OK) {
        glGenVertexArrays(1, &r->ground_vao);
        glGenBuffers(1, &r->ground_buffer);
        res = sw_gl_check("preparing the scene", diag);
    }
    if (res != SW_OK) sw__clear_scene(r); /* no half-made scene stays behind */
    return res;
}

void sw__free_draw(sw__draw* d) {
    if (d->outline_gpu != d->gpu) sw_gpu_model_primitive_destroy(d->outline_gpu);
    sw__free(d->outline_normals);
    sw_gpu_model_primitive_destroy(d->gpu);
    glDeleteVertexArrays(1, &d->vao);
    GLuint buffers[4] = {d->static_buffer, d->index_buffer, d->weight_buffer, d->headless_index_buffer};
    glDeleteBuffers(4, buffers);
}

void sw__clear_scene(sw_renderer* r) {
    sw__clear_stage(r);
    for (size_t i = 0; i < r->draw_count; i++) sw__free_draw(&r->draws[i]);
    sw__free(r->draws);
    r->draws = NULL;
    sw__free(r->blend_order);
    r->blend_order = NULL;
    r->draw_count = r->character_draw_count = 0;
    for (size_t i = 0; r->palettes && i < r->palette_count; i++) sw_gpu_model_palette_destroy(r->palettes[i]);
    sw__free(r->palettes);
    r->palettes = NULL;
    r->palette_count = 0;
    sw__clear_materials(r);
    glDeleteVertexArrays(1, &r->ground_vao);
    glDeleteBuffers(1, &r->ground_buffer);
    r->ground_vao = r->ground_buffer = 0;
    r->asset = NULL;
    r->weight_joint = -1;
    r->have_bounds = false;
    r->feedback_shaped = false; /* a new character is measured again */
    memset(&r->stats, 0, sizeof r->stats);
}

sw_result sw__skin_scene(sw_renderer* r, const sw_pose* pose, const sw_mat34* placement, sw_skin_method method,
                         sw_diag* diag) {
    for (size_t i = 0; i < r->palette_count; i++) {
        if (!r->palettes[i]) continue;
        sw_result res = sw_gpu_model_palette_pose(r->palettes[i], &pose, placement, 1, diag);
        if (res != SW_OK) return res;
    }
    sw_gpu_skin_desc desc = {.method = method == SW_SKIN_DQS ? SW_SKIN_DQS : SW_SKIN_LBS};
    for (size_t i = 0; i < r->character_draw_count; i++) {
        sw__draw* d = &r->draws[i];
        sw_result res = sw_gpu_model_primitive_pose(d->gpu, pose, diag); /* the morph weights: the palette is posed */
        if (res == SW_OK) res = sw_gpu_model_primitive_skin(r->skinner, d->gpu, &desc, NULL, diag);
        if (res != SW_OK) return res;
    }
    return SW_OK;
}

sw_result sw__skin_outlines(sw_renderer* r, const sw_pose* pose, const sw_mat34* placement, sw_skin_method method,
                            sw_render_style style, sw_diag* diag) {
    (void)placement; /* the outline instances share the posed palettes */
    sw_gpu_skin_desc desc = {.method = method == SW_SKIN_DQS ? SW_SKIN_DQS : SW_SKIN_LBS};
    for (size_t i = 0; i < r->character_draw_count; i++) {
        sw__draw* d = &r->draws[i];
        const sw_toon_material* t = sw__toon_of(r, d, style);
        if (!t || !t->outline || !d->outline_gpu || d->outline_gpu == d->gpu) continue;
        sw_result res = sw_gpu_model_primitive_pose(d->outline_gpu, pose, diag);
        if (res == SW_OK) res = sw_gpu_model_primitive_skin(r->skinner, d->outline_gpu, &desc, NULL, diag);
        if (res != SW_OK) return res;
    }
    return SW_OK;
}

/* The posed positions of one draw, read back, into the box [lo, hi]; a
   position that no camera can frame fails. */
static sw_result sw__draw_bounds(const sw_renderer* r, const sw__draw* d, float lo[3], float hi[3], sw_diag* diag) {
    size_t n = d->prim->vertex_count;
    float* p = (float*)sw__malloc(n * 12);
    if (!p) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for %zu vertices", n);
    sw_result res = sw_gpu_instance_read(sw_gpu_model_primitive_instance(d->gpu), p, NULL, NULL, NULL, diag);
    for (size_t v = 0; res == SW_OK && v < n; v++)
        for (int c = 0; c < 3; c++) {
            float x = p[3 * v + (size_t)c];
            if (sw__beyond_extent(x)) {
                /* not finite, or too far: nothing could frame the scene around it */
                res = sw_diag_set(diag, SW_ERR_INVALID_DATA, (int64_t)v,
                                  "node %u mesh %d primitive %zu: at this pose vertex %zu lies at %g on an axis, "
                                  "beyond the %g model units the renderer can frame (SW_MODEL_MAX_EXTENT)",
                                  r->asset->nodes[d->node].source_index, (int)r->asset->nodes[d->node].mesh,
                                  d->primitive, v, (double)x, SW_MODEL_MAX_EXTENT);
                break;
            }
            lo[c] = x < lo[c] ? x : lo[c];
            hi[c] = x > hi[c] ? x : hi[c];
        }
    sw__free(p);
    return res;
}

sw_result sw_renderer_scene_bounds(sw_renderer* r, const sw_pose* pose, float out_min[3], float out_max[3],
                                   sw_diag* diag) {
    if (!r || !r->asset || !pose || !pose->world) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "no scene or pose");
    sw_result res = sw__skin_scene(r, pose, NULL, SW_SKIN_LBS, diag);
    if (res != SW_OK) return res;
    float lo[3] = {FLT_MAX, FLT_MAX, FLT_MAX}, hi[3] = {-FLT_MAX, -FLT_MAX, -FLT_MAX};
    for (size_t i = 0; i < r->character_draw_count; i++) {
        res = sw__draw_bounds(r, &r->draws[i], lo, hi, diag);
        if (res != SW_OK) return res;
    }
    if (!(lo[0] <= hi[0])) return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "the scene has no vertex to draw");
    memcpy(out_min, lo, sizeof lo);
    memcpy(out_max, hi, sizeof hi);
    return SW_OK;
}

void sw_renderer_set_scene_box(sw_renderer* r, const float box_min[3], const float box_max[3]) {
    if (!r || !r->asset) return;
    memcpy(r->scene_min, box_min, sizeof r->scene_min);
    memcpy(r->scene_max, box_max, sizeof r->scene_max);
    r->have_bounds = true;
    sw__ground_geometry(r, box_min, box_max);
}

void sw__draw_copies(const sw__draw* d, const sw_gpu_model_primitive* gpu, bool instanced) {
    sw_gpu_instance_buffers b;
    sw_gpu_instance_get_buffers(sw_gpu_model_primitive_instance(gpu), &b);
    const size_t n = b.vertex_count, copies = b.instance_count > 1 ? b.instance_count : 1;
    glBindVertexArray(d->vao);
    if (!d->prim->colors) glVertexAttrib4f(SW_ATTR_COLOR, 1, 1, 1, 1);
    if (!d->weight_buffer) glVertexAttrib1f(SW_ATTR_WEIGHT, 0.0f);
    const bool together = copies > 1 && instanced;
    /* The first-person copy: its own triangle list, bound in the vertex
       array for this draw only. */
    const GLenum mode = d->headless ? GL_TRIANGLES : d->mode;
    const GLuint index_buffer = d->headless ? d->headless_index_buffer : d->index_buffer;
    const size_t elements = d->headless       ? d->headless_index_count
                            : d->index_buffer ? d->prim->index_count
                                              : d->prim->vertex_count;
    if (d->headless) {
        if (!elements) return;
        glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, index_buffer);
    }
    for (size_t c = 0; c < (together ? 1 : copies); c++) {
        /* Copy c's vertices: c · n further along each stream. */
        glBindVertexBuffer(SW_ATTR_POSITION, b.positions, (GLintptr)(c * n * 12), 12);
        glBindVertexBuffer(SW_ATTR_PREVIOUS_POSITION, b.previous_positions, (GLintptr)(c * n * 12), 12);
        if (b.normals_offset != SIZE_MAX)
            glBindVertexBuffer(SW_ATTR_NORMAL, b.normals_tangents, (GLintptr)(b.normals_offset + c * n * 12), 12);
        if (b.tangents_offset != SIZE_MAX)
            glBindVertexBuffer(SW_ATTR_TANGENT, b.normals_tangents, (GLintptr)(b.tangents_offset + c * n * 16), 16);
        if (!together) {
            if (index_buffer) glDrawElements(mode, (GLsizei)elements, GL_UNSIGNED_INT, NULL);
            else glDrawArrays(mode, 0, (GLsizei)elements);
        }
    }
    if (!together) {
        if (d->headless) glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, d->index_buffer);
        return;
    }
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SW_CROWD_BUFFER_POSITIONS, b.positions);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SW_CROWD_BUFFER_PREVIOUS, b.previous_positions);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SW_CROWD_BUFFER_FRAMES, b.normals_tangents ? b.normals_tangents : b.positions);
    glUniform1i(SW_GBUFFER_LOC_CROWD_VERTICES, (GLint)n);
    glUniform2i(SW_GBUFFER_LOC_CROWD_FRAMES, b.normals_offset == SIZE_MAX ? -1 : (GLint)(b.normals_offset / 4),
                b.tangents_offset == SIZE_MAX ? -1 : (GLint)(b.tangents_offset / 4));
    if (index_buffer)
        glDrawElementsInstanced(mode, (GLsizei)elements, GL_UNSIGNED_INT, NULL, (GLsizei)copies);
    else
        glDrawArraysInstanced(mode, 0, (GLsizei)elements, (GLsizei)copies);
    glUniform1i(SW_GBUFFER_LOC_CROWD_VERTICES, 0);
    if (d->headless) glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, d->index_buffer);
}

void sw__ground_geometry(sw_renderer* r, const float lo[3], const float hi[3]) {
    float cx = 0.5f * (lo[0] + hi[0]), cz = 0.5f * (lo[2] + hi[2]);
    float extent = 0.0f;
    for (int i = 0; i < 3; i++) extent = fmaxf(extent, hi[i] - lo[i]);
    /* Wide enough that its far edge lies near the horizon, not in the picture. */
    float s = extent * 12.0f + 1e-3f, y = lo[1];
    r->ground_y = y;
    /* position, previous position (the same: the ground does not move), normal, as interleaved triples */
    float v[6][9];
    const float corners[6][2] = {{-1, -1}, {-1, 1}, {1, 1}, {-1, -1}, {1, 1}, {1, -1}};
    for (int i = 0; i < 6; i++) {
        float p[3] = {cx + corners[i][0] * s, y, cz + corners[i][1] * s};
        memcpy(&v[i][0], p, 12), memcpy(&v[i][3], p, 12);
        v[i][6] = 0, v[i][7] = 1, v[i][8] = 0;
    }
    glBindVertexArray(r->ground_vao);
    glBindBuffer(GL_ARRAY_BUFFER, r->ground_buffer);
    glBufferData(GL_ARRAY_BUFFER, sizeof v, v, GL_DYNAMIC_DRAW);
    glVertexAttribPointer(SW_ATTR_POSITION, 3, GL_FLOAT, GL_FALSE, 36, (const void*)0);
    glVertexAttribPointer(SW_ATTR_PREVIOUS_POSITION, 3, GL_FLOAT, GL_FALSE, 36, (const void*)12);
    glVertexAttribPointer(SW_ATTR_NORMAL, 3, GL_FLOAT, GL_FALSE, 36, (const void*)24);
    glEnableVertexAttribArray(SW_ATTR_POSITION), glEnableVertexAttribArray(SW_ATTR_PREVIOUS_POSITION);
    glEnableVertexAttribArray(SW_ATTR_NORMAL);
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
}

/* Element e of a primitive's vertex stream (its index, or e itself). */
static size_t sw__element(const sw_model_primitive* p, size_t e) { return p->indices ? p->indices[e] : e; }

/* Triangle t of a triangle primitive as three vertices: lists, strips (odd
   triangles with their first two swapped, as GL draws them) and fans. */
static void sw__triangle(const sw_model_primitive* p, size_t t, uint32_t v[3]) {
    size_t a, b, c;
    if (p->mode == SW_MODEL_TRIANGLE_STRIP) a = t + (t & 1), b = t + 1 - (t & 1), c = t + 2;
    else if (p->mode == SW_MODEL_TRIANGLE_FAN) a = 0, b = t + 1, c = t + 2;
    else a = 3 * t, b = 3 * t + 1, c = 3 * t + 2;
    v[0] = (uint32_t)sw__element(p, a), v[1] = (uint32_t)sw__element(p, b), v[2] = (uint32_t)sw__element(p, c);
}

static size_t sw__triangle_count(const sw_model_primitive* p) {
    const size_t elements = p->indices ? p->index_count : p->vertex_count;
    if (p->mode == SW_MODEL_TRIANGLES) return elements / 3;
    if (p->mode == SW_MODEL_TRIANGLE_STRIP || p->mode == SW_MODEL_TRIANGLE_FAN) return elements > 2 ? elements - 2 : 0;
    return 0;
}

/* Draw d's first-person copy: erased[v] marks a vertex weighted (> 0) to
   an erased joint (scratch: vertex_count bytes); the kept triangles go to
   a new index buffer when any triangle is erased. Linear in the
   primitive's vertices and elements. */
static sw_result sw__make_headless(sw__draw* d, const sw_model* asset, const uint8_t* erase_nodes, uint8_t* erased,
                                   uint32_t* kept, sw_diag* diag) {
    const sw_model_primitive* p = d->prim;
    const sw_model_skin* skin = &asset->skins[asset->nodes[d->node].skin];
    const size_t k = (size_t)p->influence_count;
    for (size_t v = 0; v < p->vertex_count; v++) {
        erased[v] = 0;
        for (size_t i = v * k; i < (v + 1) * k && !erased[v]; i++)
            erased[v] = p->weights[i] > 0.0f && p->joints[i] < skin->joint_count && erase_nodes[skin->joints[p->joints[i]]];
    }
    const size_t triangles = sw__triangle_count(p);
    size_t count = 0;
    for (size_t t = 0; t < triangles; t++) {
        uint32_t v[3];
        sw__triangle(p, t, v);
        bool drop = false;
        for (int c = 0; c < 3; c++) drop = drop || (v[c] < p->vertex_count && erased[v[c]]);
        if (drop) continue;
        memcpy(&kept[count], v, sizeof v);
        count += 3;
    }
    d->erased_triangles = triangles - count / 3;
    if (!d->erased_triangles) return SW_OK;
    d->has_headless = true;
    d->headless_index_count = count;
    glGenBuffers(1, &d->headless_index_buffer);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, d->headless_index_buffer);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)(count ? count * 4 : 4), count ? kept : NULL, GL_STATIC_DRAW);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, 0);
    (void)diag;
    return SW_OK;
}

sw_result sw_renderer_set_erased_joints(sw_renderer* r, const uint8_t* erase_nodes, size_t* out_erased, sw_diag* diag) {
    if (!r || !r->asset) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "NULL renderer or no scene set");
    const sw_model* asset = r->asset;
    if (out_erased) memset(out_erased, 0, asset->node_count * sizeof *out_erased);
    size_t most_vertices = 1, most_indices = 3;
    for (size_t i = 0; i < r->character_draw_count; i++) {
        sw__draw* d = &r->draws[i];
        glDeleteBuffers(1, &d->headless_index_buffer);
        d->headless_index_buffer = 0, d->headless_index_count = 0, d->erased_triangles = 0;
        d->has_headless = d->headless = false;
        if (most_vertices < d->prim->vertex_count) most_vertices = d->prim->vertex_count;
        if (most_indices < 3 * sw__triangle_count(d->prim)) most_indices = 3 * sw__triangle_count(d->prim);
    }
    if (!erase_nodes) return SW_OK;
    glBindVertexArray(0); /* the index buffers are bound below: into no draw's vertex array */
    uint8_t* erased = (uint8_t*)sw__malloc(most_vertices);
    uint32_t* kept = (uint32_t*)sw__malloc(most_indices * sizeof(uint32_t));
    sw_result res = erased && kept ? SW_OK : sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory");
    for (size_t i = 0; res == SW_OK && i < r->character_draw_count; i++) {
        sw__draw* d = &r->draws[i];
        if (asset->nodes[d->node].skin < 0 || !d->prim->influence_count || !sw__triangle_count(d->prim)) continue;
        res = sw__make_headless(d, asset, erase_nodes, erased, kept, diag);
        if (out_erased) out_erased[d->node] += d->erased_triangles;
    }
    sw__free(erased);
    sw__free(kept);
    if (res == SW_OK) res = sw_gl_check("making the first-person index buffers", diag);
    return res;
}
