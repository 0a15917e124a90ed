/* tools/view_overlay.c — see view_overlay.h. */
#include "view_overlay.h"

#include "view_font.h"

#include "sinew/gpu.h"

#include <epoxy/gl.h>
#include <stdlib.h>
#include <string.h>

/* One vertex: position (pixels), atlas texel (u < 0: a solid fill), colour. */
#define FLOATS_PER_VERTEX 8

struct view_overlay {
    GLuint program, vao, buffer, font;
    int width, height, scale;
    float* vertices;
    size_t count, capacity; /* vertices */
};

static const char vertex_source[] =
    "#version 430 core\n"
    "layout(location = 0) in vec2 a_position;\n"
    "layout(location = 1) in vec2 a_texel;\n"
    "layout(location = 2) in vec4 a_color;\n"
    "layout(location = 0) uniform vec2 u_size;\n"
    "out vec2 v_texel;\n"
    "out vec4 v_color;\n"
    "void main() {\n"
    "    v_texel = a_texel;\n"
    "    v_color = a_color;\n"
    "    vec2 ndc = a_position / u_size * 2.0 - 1.0;\n"
    "    gl_Position = vec4(ndc.x, -ndc.y, 0.0, 1.0);\n"
    "}\n";

/* Texels are fetched, not filtered: the font stays sharp at any integer scale. */
static const char fragment_source[] =
    "#version 430 core\n"
    "layout(binding = 0) uniform sampler2D t_font;\n"
    "in vec2 v_texel;\n"
    "in vec4 v_color;\n"
    "layout(location = 0) out vec4 out_color;\n"
    "void main() {\n"
    "    float ink = v_texel.x < 0.0 ? 1.0 : texelFetch(t_font, ivec2(floor(v_texel)), 0).r;\n"
    "    out_color = vec4(v_color.rgb, v_color.a * ink);\n"
    "}\n";

bool view_overlay_create(view_overlay** out, tool_error* err) {
    *out = NULL;
    view_overlay* o = calloc(1, sizeof *o);
    if (!o) return tool_error_set(err, "out of memory for the overlay");
    const char* vertex[1] = {vertex_source};
    const char* fragment[1] = {fragment_source};
    GLuint vs = 0, fs = 0;
    sw_diag diag;
    sw_result r = sw_gl_compile_shader(GL_VERTEX_SHADER, 1, vertex, "the overlay", &vs, &diag);
    if (r == SW_OK) r = sw_gl_compile_shader(GL_FRAGMENT_SHADER, 1, fragment, "the overlay", &fs, &diag);
    if (r == SW_OK) {
        o->program = glCreateProgram();
        glAttachShader(o->program, vs);
        glAttachShader(o->program, fs);
        r = sw_gl_link_program(o->program, "the overlay", &diag);
    }
    glDeleteShader(vs);
    glDeleteShader(fs);
    if (r != SW_OK) {
        free(o);
        return tool_error_set(err, "%s", diag.message);
    }
    glGenVertexArrays(1, &o->vao);
    glGenBuffers(1, &o->buffer);
    glBindVertexArray(o->vao);
    glBindBuffer(GL_ARRAY_BUFFER, o->buffer);
    const GLsizei stride = FLOATS_PER_VERTEX * sizeof(float);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, stride, (const void*)0);
    glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, stride, (const void*)(2 * sizeof(float)));
    glVertexAttribPointer(2, 4, GL_FLOAT, GL_FALSE, stride, (const void*)(4 * sizeof(float)));
    for (GLuint a = 0; a < 3; a++) glEnableVertexAttribArray(a);
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);

    glGenTextures(1, &o->font);
    glBindTexture(GL_TEXTURE_2D, o->font);
    glTexStorage2D(GL_TEXTURE_2D, 1, GL_R8, VIEW_FONT_ATLAS_W, VIEW_FONT_ATLAS_H);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, VIEW_FONT_ATLAS_W, VIEW_FONT_ATLAS_H, GL_RED, GL_UNSIGNED_BYTE,
                    view_font_atlas);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glBindTexture(GL_TEXTURE_2D, 0);
    if (glGetError() != GL_NO_ERROR) {
        view_overlay_destroy(o);
        return tool_error_set(err, "could not make the overlay's GL objects");
    }
    *out = o;
    return true;
}

void view_overlay_destroy(view_overlay* o) {
    if (!o) return;
    glDeleteProgram(o->program);
    glDeleteVertexArrays(1, &o->vao);
    glDeleteBuffers(1, &o->buffer);
    glDeleteTextures(1, &o->font);
    free(o->vertices);
    free(o);
}

void view_overlay_begin(view_overlay* o, int width, int height, int scale) {
    o->width = width, o->height = height, o->scale = scale < 1 ? 1 : scale;
    o->count = 0;
}

/* Appends a quad: pixels (x, y, w, h), atlas texels (u, v, tw, th; u < 0 = solid). */
static void quad(view_overlay* o, float x, float y, float w, float h, float u, float v, float tw, float th,
                 const float rgba[4]) {
    if (o->count + 6 > o->capacity) {
        size_t capacity = o->capacity ? o->capacity * 2 : 6 * 256;
        float* grown = realloc(o->vertices, capacity * FLOATS_PER_VERTEX * sizeof(float));
        if (!grown) return; /* the overlay loses a quad, nothing worse */
        o->vertices = grown, o->capacity = capacity;
    }
    const float corners[6][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 0}, {1, 1}, {0, 1}};
    for (int i = 0; i < 6; i++) {
        float* p = o->vertices + (o->count + (size_t)i) * FLOATS_PER_VERTEX;
        p[0] = x + corners[i][0] * w, p[1] = y + corners[i][1] * h;
        p[2] = u < 0.0f ? -1.0f : u + corners[i][0] * tw, p[3] = v + corners[i][1] * th;
        memcpy(p + 4, rgba, 4 * sizeof(float));
    }
    o->count += 6;
}

void view_overlay_rect(view_overlay* o, float x, float y, float w, float h, const float rgba[4]) {
    if (w > 0.0f && h > 0.0f) quad(o, x, y, w, h, -1.0f, 0.0f, 0.0f, 0.0f, rgba);
}

float view_overlay_text_width(const view_overlay* o, const char* text) {
    return (float)(strlen(text) * VIEW_FONT_CELL_W * (size_t)o->scale);
}

float view_overlay_line_height(const view_overlay* o) { return (float)(VIEW_FONT_CELL_H * o->scale); }

float view_overlay_text(view_overlay* o, float x, float y, const char* text, const float rgba[4]) {
    const float s = (float)o->scale;
    float at = x;
    for (const unsigned char* c = (const unsigned char*)text; *c; c++, at += VIEW_FONT_CELL_W * s) {
        if (*c == ' ') continue;
        int index = *c >= VIEW_FONT_FIRST && *c < VIEW_FONT_FIRST + VIEW_FONT_COUNT - 1 ? *c - VIEW_FONT_FIRST
                                                                                        : VIEW_FONT_COUNT - 1;
        float u = (float)((index % VIEW_FONT_COLUMNS) * VIEW_FONT_CELL_W);
        float v = (float)((index / VIEW_FONT_COLUMNS) * VIEW_FONT_CELL_H);
        quad(o, at, y, VIEW_FONT_GLYPH_W * s, VIEW_FONT_GLYPH_H * s, u, v, VIEW_FONT_GLYPH_W, VIEW_FONT_GLYPH_H,
             rgba);
    }
    return at - x;
}

void view_overlay_end(view_overlay* o) {
    if (o->count == 0) return;
    glViewport(0, 0, o->width, o->height);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_CULL_FACE);
    glDisable(GL_SCISSOR_TEST);
    glDisable(GL_FRAMEBUFFER_SRGB);
    glEnable(GL_BLEND);
    glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ZERO, GL_ONE);
    glUseProgram(o->program);
    glUniform2f(0, (float)o->width, (float)o->height);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, o->font);
    glBindVertexArray(o->vao);
    glBindBuffer(GL_ARRAY_BUFFER, o->buffer);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(o->count * FLOATS_PER_VERTEX * sizeof(float)), o->vertices,
                 GL_STREAM_DRAW);
    glDrawArrays(GL_TRIANGLES, 0, (GLsizei)o->count);
    /* Back to the state the renderer starts from. */
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glBindVertexArray(0);
    glBindTexture(GL_TEXTURE_2D, 0);
    glUseProgram(0);
    glDisable(GL_BLEND);
    glBlendFunc(GL_ONE, GL_ZERO);
}
