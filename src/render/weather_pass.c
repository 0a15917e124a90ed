/* Falling snow, drawn (docs/weather.md): each frame the flakes of the cube
   around the eye are placed by weather.c, the ones in view kept and sorted
   back to front, and uploaded as instances; the transparent pass draws
   them in runs between its own draws, so flakes and transparent surfaces
   blend in one back-to-front order (shaders/weather.vert, weather.frag:
   camera-facing quads, alpha-blended, depth-tested, no depth written). The
   program is built the first time a frame has snow. */
#include "renderer_internal.h"

#include <math.h>
#include <stdlib.h>

#include "../base/base_internal.h"
#include "weather.h"

enum { SW__WEATHER_FLOATS = 5 }; /* per instance: x, y, z, drawn radius, fade */

typedef struct sw__weather_key {
    float depth;
    uint32_t index;
} sw__weather_key;

struct sw__weather_state {
    GLuint program, vao, buffer;
    size_t capacity;          /* flakes the arrays and the buffer hold */
    sw__weather_key* order;   /* this frame's flakes in view, back to front */
    float* instances;         /* SW__WEATHER_FLOATS each, in that order */
    size_t count, drawn;      /* in view; drawn so far in this transparent pass */
};

void sw__weather_pass_destroy(sw__weather_state* s) {
    if (!s) return;
    glDeleteProgram(s->program);
    glDeleteVertexArrays(1, &s->vao);
    glDeleteBuffers(1, &s->buffer);
    sw__free(s->order);
    sw__free(s->instances);
    sw__free(s);
}

static sw_result sw__weather_create(sw__weather_state** out, sw_diag* diag) {
    sw__weather_state* s = (sw__weather_state*)sw__calloc(1, sizeof *s);
    if (!s) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for the weather");
    sw_result res = sw__program(sw_shader_weather_vert, sw_shader_weather_frag, "weather", &s->program, diag);
    if (res != SW_OK) {
        sw__weather_pass_destroy(s);
        return res;
    }
    glGenVertexArrays(1, &s->vao);
    glGenBuffers(1, &s->buffer);
    glBindVertexArray(s->vao);
    glBindBuffer(GL_ARRAY_BUFFER, s->buffer);
    const GLsizei stride = SW__WEATHER_FLOATS * sizeof(float);
    glEnableVertexAttribArray(SW_WEATHER_ATTR_FLAKE);
    glVertexAttribPointer(SW_WEATHER_ATTR_FLAKE, 4, GL_FLOAT, GL_FALSE, stride, (const void*)0);
    glVertexAttribDivisor(SW_WEATHER_ATTR_FLAKE, 1);
    glEnableVertexAttribArray(SW_WEATHER_ATTR_FADE);
    glVertexAttribPointer(SW_WEATHER_ATTR_FADE, 1, GL_FLOAT, GL_FALSE, stride, (const void*)(4 * sizeof(float)));
    glVertexAttribDivisor(SW_WEATHER_ATTR_FADE, 1);
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    *out = s;
    return SW_OK;
}

/* Farther first; equal depths by index: a total order, so the picture does
   not depend on qsort. */
static int sw__weather_compare(const void* pa, const void* pb) {
    const sw__weather_key *a = (const sw__weather_key*)pa, *b = (const sw__weather_key*)pb;
    if (a->depth != b->depth) return a->depth > b->depth ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index ? 1 : 0;
}

static sw_result sw__weather_reserve(sw__weather_state* s, size_t count, sw_diag* diag) {
    if (count <= s->capacity) return SW_OK;
    sw__free(s->order);
    sw__free(s->instances);
    s->order = (sw__weather_key*)sw__malloc(count * sizeof *s->order);
    s->instances = (float*)sw__malloc(count * SW__WEATHER_FLOATS * sizeof(float));
    s->capacity = s->order && s->instances ? count : 0;
    if (!s->capacity) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for %zu snowflakes", count);
    glBindBuffer(GL_ARRAY_BUFFER, s->buffer);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(count * SW__WEATHER_FLOATS * sizeof(float)), NULL, GL_STREAM_DRAW);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    return SW_OK;
}

/* The flakes in view: in front of the near plane and inside the frustum
   (with a margin for the quads' size), by view depth. */
static size_t sw__weather_visible(sw__weather_state* s, const sw__weather* w, size_t total, const sw_camera* c,
                                  const float m[16], const float forward[3]) {
    size_t count = 0;
    for (uint32_t i = 0; i < (uint32_t)total; i++) {
        float p[3];
        sw__weather_flake(w, i, p);
        const float depth = (p[0] - c->eye[0]) * forward[0] + (p[1] - c->eye[1]) * forward[1] + (p[2] - c->eye[2]) * forward[2];
        if (!(depth > c->z_near)) continue;
        const float x = m[0] * p[0] + m[4] * p[1] + m[8] * p[2] + m[12];
        const float y = m[1] * p[0] + m[5] * p[1] + m[9] * p[2] + m[13];
        const float clip_w = m[3] * p[0] + m[7] * p[1] + m[11] * p[2] + m[15];
        const float reach = 1.05f * clip_w + 0.1f; /* the quad's half size, generously */
        if (fabsf(x) > reach || fabsf(y) > reach) continue;
        s->order[count++] = (sw__weather_key){depth, i};
    }
    return count;
}

sw_result sw__weather_prepare(sw_renderer* r, const sw_render_frame* f, sw_diag* diag) {
    const sw_render_weather* weather = &f->shading.weather;
    const size_t total = weather->kind == SW_RENDER_WEATHER_SNOW
                             ? sw__weather_count(weather->density > 0.0f ? weather->density : SW__WEATHER_DEFAULT_DENSITY)
                             : 0;
    if (r->weather) r->weather->count = r->weather->drawn = 0;
    if (!total) return SW_OK;
    if (!r->weather) {
        sw_result res = sw__weather_create(&r->weather, diag);
        if (res != SW_OK) return res;
    }
    sw__weather_state* s = r->weather;
    sw_result res = sw__weather_reserve(s, total, diag);
    if (res != SW_OK) return res;
    const sw_camera* c = &f->camera.current;
    sw__weather w = {.seed = SW__WEATHER_SEED, .time = isfinite(f->shading.time) ? f->shading.time : 0.0f};
    for (int k = 0; k < 2; k++) w.wind[k] = isfinite(weather->wind[k]) ? weather->wind[k] : 0.0f;
    for (int k = 0; k < 3; k++) w.eye[k] = c->eye[k];
    float forward[3] = {c->target[0] - c->eye[0], c->target[1] - c->eye[1], c->target[2] - c->eye[2]};
    const float length = sqrtf(forward[0] * forward[0] + forward[1] * forward[1] + forward[2] * forward[2]);
    if (!(length > 0.0f)) return SW_OK;
    for (int k = 0; k < 3; k++) forward[k] /= length;
    float m[16];
    sw_camera_view_projection(c, (float)r->width / (float)r->height, m);
    s->count = sw__weather_visible(s, &w, total, c, m, forward);
    qsort(s->order, s->count, sizeof *s->order, sw__weather_compare);
    for (size_t i = 0; i < s->count; i++) {
        float* out = &s->instances[i * SW__WEATHER_FLOATS];
        sw__weather_flake(&w, s->order[i].index, out);
        out[3] = sw__weather_drawn_radius(s->order[i].depth, c->fov_y, r->height, &out[4]);
    }
    glBindBuffer(GL_ARRAY_BUFFER, s->buffer);
    glBufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)(s->count * SW__WEATHER_FLOATS * sizeof(float)), s->instances);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    return SW_OK;
}

bool sw__weather_pending(const sw_renderer* r) { return r->weather && r->weather->drawn < r->weather->count; }

bool sw__weather_draw_beyond(sw_renderer* r, const sw_render_frame* f, float depth, const sw_mat4* vp,
                             sw_vec3 light_direction, const sw_mat4* light_vp) {
    sw__weather_state* s = r->weather;
    if (!s) return false;
    size_t end = s->drawn;
    while (end < s->count && s->order[end].depth > depth) end++;
    if (end == s->drawn) return false;
    sw__pass_end(&r->pass_timer, SW__PASS_TRANSPARENT); /* the flakes' time is the weather's */
    sw__pass_begin(&r->pass_timer, SW__PASS_WEATHER);
    const sw_camera* c = &f->camera.current;
    const sw_vec3 eye = sw_vec3_make(c->eye[0], c->eye[1], c->eye[2]);
    const sw_vec3 forward = sw_vec3_normalize(sw_vec3_sub(sw_vec3_make(c->target[0], c->target[1], c->target[2]), eye));
    const sw_vec3 right = sw_vec3_normalize(sw_vec3_cross(forward, sw_vec3_make(c->up[0], c->up[1], c->up[2])));
    const sw_vec3 up = sw_vec3_cross(right, forward);
    glUseProgram(s->program);
    glUniformMatrix4fv(SW_WEATHER_LOC_VIEW_PROJECTION, 1, GL_FALSE, vp->m);
    glUniform3f(SW_WEATHER_LOC_RIGHT, right.x, right.y, right.z);
    glUniform3f(SW_WEATHER_LOC_UP, up.x, up.y, up.z);
    sw__shade_uniforms(r, f, light_direction, light_vp);
    sw__fog_air_uniforms(r, f);
    glDepthMask(GL_FALSE);
    glDisable(GL_CULL_FACE);
    glBindVertexArray(s->vao);
    glDrawArraysInstancedBaseInstance(GL_TRIANGLE_STRIP, 0, 4, (GLsizei)(end - s->drawn), (GLuint)s->drawn);
    glBindVertexArray(0);
    s->drawn = end;
    sw__pass_end(&r->pass_timer, SW__PASS_WEATHER);
    sw__pass_begin(&r->pass_timer, SW__PASS_TRANSPARENT);
    return true;
}
