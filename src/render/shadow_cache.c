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
    glGenBuffers(1, &c->buffer);
    *out = c;
    return SW_OK;
}

void sw__shadow_cache_destroy(sw__shadow_cache* c) {
    if (!c) return;
    glDeleteProgram(c->program);
    glDeleteBuffers(1, &c->buffer);
    sw__shadow_records_free(&c->records);
    sw__free(c->readback);
    sw__free(c->static_nodes);
    sw__free(c);
}

bool sw__shadow_cache_valid(const sw__shadow_cache* c, const float light_vp[16], int size) {
    return c->valid && c->size == size && memcmp(c->light_vp, light_vp, sizeof c->light_vp) == 0;
}

void sw__shadow_cache_upload(sw__shadow_cache* c, const sw__shadow_records* records) {
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, c->buffer);
    glBufferData(GL_SHADER_STORAGE_BUFFER, (GLsizeiptr)(records->word_count * sizeof(uint32_t)), records->data,
                 GL_STATIC_DRAW);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
}

static double sw__now_ms(void) {
    struct timespec t;
    timespec_get(&t, TIME_UTC);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

bool sw__shadow_cache_bake(sw__shadow_cache* c, const float light_vp[16], int size) {
    const double start = sw__now_ms();
    c->valid = false;
    if (c->size != size || !c->readback) {
        sw__free(c->readback);
        c->readback = (float*)sw__malloc((size_t)size * (size_t)size * sizeof(float));
        c->size = c->readback ? size : 0;
        if (!c->readback) return false;
    }
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    glReadPixels(0, 0, size, size, GL_DEPTH_COMPONENT, GL_FLOAT, c->readback);
    sw__shadow_records_free(&c->records);
    if (sw__shadow_encode(c->readback, size, size, SW__SHADOW_CACHE_TOLERANCE, &c->records) != 0) return false;
    sw__shadow_cache_upload(c, &c->records);
    const sw__shadow_error e = sw__shadow_measure(c->readback, &c->records);
    sw_shadow_cache_stats* s = &c->stats;
    s->active = true;
    s->bytes = c->records.word_count * sizeof(uint32_t);
    s->texels = (size_t)size * (size_t)size;
    s->ratio_float32 = (double)(s->texels * 4) / (double)s->bytes;
    s->ratio_depth16 = (double)(s->texels * 2) / (double)s->bytes;
    s->max_error = e.max_abs;
    s->mean_error = e.mean_abs;
    s->max_nearer = e.max_nearer;
    s->bakes++;
    s->bake_ms = sw__now_ms() - start;
    memcpy(c->light_vp, light_vp, sizeof c->light_vp);
    c->valid = true;
    return true;
}

void sw__shadow_cache_decode(const sw__shadow_cache* c, int blocks_x, int x0, int y0, GLuint empty_vao) {
    glUseProgram(c->program);
    glUniform1i(SW_SHADOW_DECODE_LOC_BLOCKS_X, blocks_x);
    glUniform2i(SW_SHADOW_DECODE_LOC_ORIGIN, x0, y0);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SW_SHADOW_DECODE_BUFFER, c->buffer);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_ALWAYS);
    glDepthMask(GL_TRUE);
    glBindVertexArray(empty_vao);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glDepthFunc(GL_LESS);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SW_SHADOW_DECODE_BUFFER, 0);
}

/* ---- the public face ---------------------------------------------------------------- */

sw_result sw_renderer_set_static_casters(sw_renderer* r, const bool* nodes, sw_diag* diag) {
    if (!r || !r->asset || !r->shadow_cache)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "static casters: NULL renderer or no scene");
    sw__shadow_cache* c = r->shadow_cache;
    sw__free(c->static_nodes);
    c->static_nodes = NULL;
    c->node_count = 0;
    c->valid = false;
    c->stats.active = false;
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
