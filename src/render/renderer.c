/* The reference renderer (see sinew/render.h): deferred OpenGL 4.3 core,
   offscreen, drawing the compute-skinned buffers. The GLSL lives in
   shaders/ and is embedded at build time; every location, unit, attribute,
   output, flag and class it shares with this file is a name from
   render_interface.h. */
#include "sinew/render.h"

#include <epoxy/gl.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render_interface.h"

/* The public numbers are the shaders' numbers. */
_Static_assert(SW_RENDER_CLASS_BACKGROUND == SW_CLASS_BACKGROUND && SW_RENDER_CLASS_GROUND == SW_CLASS_GROUND &&
                   SW_RENDER_CLASS_LIT == SW_CLASS_LIT && SW_RENDER_CLASS_UNLIT == SW_CLASS_UNLIT &&
                   SW_RENDER_CLASS_MASK == SW_CLASS_MASK,
               "SW_RENDER_CLASS_* (sinew/render.h) must be the SW_CLASS_* of render_interface.h");
_Static_assert(SW_RENDER_VIEW_SHADED == SW_VIEW_SHADED && SW_RENDER_VIEW_NORMALS == SW_VIEW_NORMALS &&
                   SW_RENDER_VIEW_MOTION == SW_VIEW_MOTION && SW_RENDER_VIEW_UV == SW_VIEW_UV &&
                   SW_RENDER_VIEW_WEIGHTS == SW_VIEW_WEIGHTS,
               "sw_render_view (sinew/render.h) must be the SW_VIEW_* of render_interface.h");
/* Framebuffers with one colour target keep the default draw buffer, which
   is attachment 0: their passes write output location 0. */
_Static_assert(SW_OUT_COLOR == 0, "the HDR and image framebuffers draw into attachment 0 only");

/* shaders/ and render_interface.h, embedded by cmake/embed_shaders.cmake. */
extern const char sw_shader_render_interface_h[];
extern const char sw_shader_gbuffer_vert[];
extern const char sw_shader_gbuffer_frag[];
extern const char sw_shader_fullscreen_vert[];
extern const char sw_shader_lighting_frag[];
extern const char sw_shader_post_frag[];
extern const char sw_shader_shadow_vert[];
extern const char sw_shader_shadow_frag[];
extern const char sw_shader_lines_vert[];
extern const char sw_shader_lines_frag[];

#define SW__PI 3.14159265358979f

/* ---- camera matrices (sw_mat4: column-major, as GL takes them) ------------------ */

static sw_vec3 sw__v3(const float* p) { return sw_vec3_make(p[0], p[1], p[2]); }

/* The look-at basis: s (right), u (up), f (forward). */
static void sw__look_basis(sw_vec3 eye, sw_vec3 target, sw_vec3 up, sw_vec3* s, sw_vec3* u, sw_vec3* f) {
    *f = sw_vec3_normalize(sw_vec3_sub(target, eye));
    *s = sw_vec3_normalize(sw_vec3_cross(*f, up));
    *u = sw_vec3_cross(*s, *f);
}

static sw_mat4 sw__look_at(sw_vec3 eye, sw_vec3 target, sw_vec3 up) {
    sw_vec3 s, u, f;
    sw__look_basis(eye, target, up, &s, &u, &f);
    sw_mat4 r = {{s.x, u.x, -f.x, 0, s.y, u.y, -f.y, 0, s.z, u.z, -f.z, 0, -sw_vec3_dot(s, eye),
                  -sw_vec3_dot(u, eye), sw_vec3_dot(f, eye), 1}};
    return r;
}

/* The look-at matrix's inverse, exactly: rotation transposed, eye as the
   translation (a general inverse loses digits to the translation when the
   scene is far from the origin). */
static sw_mat4 sw__look_at_inverse(sw_vec3 eye, sw_vec3 target, sw_vec3 up) {
    sw_vec3 s, u, f;
    sw__look_basis(eye, target, up, &s, &u, &f);
    sw_mat4 r = {{s.x, s.y, s.z, 0, u.x, u.y, u.z, 0, -f.x, -f.y, -f.z, 0, eye.x, eye.y, eye.z, 1}};
    return r;
}

static sw_mat4 sw__perspective(float fov_y, float aspect, float n, float f) {
    float t = 1.0f / tanf(0.5f * fov_y);
    sw_mat4 r = {{t / aspect, 0, 0, 0, 0, t, 0, 0, 0, 0, (f + n) / (n - f), -1, 0, 0, 2 * f * n / (n - f), 0}};
    return r;
}

static sw_mat4 sw__ortho(float l, float r, float b, float t, float n, float f) {
    sw_mat4 m = {{2 / (r - l), 0, 0, 0, 0, 2 / (t - b), 0, 0, 0, 0, -2 / (f - n), 0, -(r + l) / (r - l),
                  -(t + b) / (t - b), -(f + n) / (f - n), 1}};
    return m;
}

/* (projection · view)⁻¹ = view⁻¹ · projection⁻¹, each factor well
   conditioned on its own. */
static sw_mat4 sw__inverse_view_projection(const sw_camera* camera, float aspect) {
    sw_mat4 projection = sw__perspective(camera->fov_y, aspect, camera->z_near, camera->z_far), inverse_projection;
    sw_mat4_inverse(&inverse_projection, &projection);
    sw_mat4 inverse_view = sw__look_at_inverse(sw__v3(camera->eye), sw__v3(camera->target), sw__v3(camera->up));
    return sw_mat4_mul(&inverse_view, &inverse_projection);
}

void sw_camera_view_projection(const sw_camera* camera, float aspect, float out_matrix[16]) {
    sw_mat4 view = sw__look_at(sw__v3(camera->eye), sw__v3(camera->target), sw__v3(camera->up));
    sw_mat4 projection = sw__perspective(camera->fov_y, aspect, camera->z_near, camera->z_far);
    sw_mat4 vp = sw_mat4_mul(&projection, &view);
    memcpy(out_matrix, vp.m, sizeof vp.m);
}

void sw_camera_frame_bounds(const float bounds_min[3], const float bounds_max[3], float azimuth_degrees,
                            float elevation_degrees, float aspect, sw_camera* out) {
    float center[3], radius = 0.0f;
    for (int i = 0; i < 3; i++) {
        center[i] = 0.5f * (bounds_min[i] + bounds_max[i]);
        float h = 0.5f * (bounds_max[i] - bounds_min[i]);
        radius += h * h;
    }
    radius = sqrtf(radius);
    if (!(radius > 1e-6f)) radius = 1.0f;
    const float fov_y = 35.0f * SW__PI / 180.0f;
    /* The bounding sphere fits the narrower of the two fields of view. */
    float half = 0.5f * fov_y;
    if (aspect < 1.0f) half = atanf(tanf(half) * aspect);
    float distance = radius / sinf(half) * 1.05f;
    float az = azimuth_degrees * SW__PI / 180.0f, el = elevation_degrees * SW__PI / 180.0f;
    float dir[3] = {sinf(az) * cosf(el), sinf(el), cosf(az) * cosf(el)};
    *out = (sw_camera){.fov_y = fov_y, .z_near = distance * 0.05f, .z_far = distance + radius * 4.0f};
    for (int i = 0; i < 3; i++) {
        out->target[i] = center[i];
        out->eye[i] = center[i] + dir[i] * distance;
    }
    out->up[1] = 1.0f;
}

/* ---- programs ------------------------------------------------------------------ */

/* A stage's source as the strings glShaderSource concatenates: "#version"
   (source string 0 in compiler messages), the interface header (1), the
   stage (2). */
#define SW__SOURCE_PARTS 4

static void sw__shader_parts(const char* body, const char* out_parts[SW__SOURCE_PARTS]) {
    out_parts[0] = "#version 430 core\n#line 1 1\n";
    out_parts[1] = sw_shader_render_interface_h;
    out_parts[2] = "\n#line 1 2\n";
    out_parts[3] = body;
}

void sw_render_shader_sources(void (*visit)(const char* name, const char* stage, const char* source, void* user),
                              void* user) {
    static const struct { const char* name; const char* stage; const char* body; } shaders[] = {
        {"gbuffer", "vert", sw_shader_gbuffer_vert},       {"gbuffer", "frag", sw_shader_gbuffer_frag},
        {"fullscreen", "vert", sw_shader_fullscreen_vert}, {"lighting", "frag", sw_shader_lighting_frag},
        {"post", "frag", sw_shader_post_frag},             {"shadow", "vert", sw_shader_shadow_vert},
        {"shadow", "frag", sw_shader_shadow_frag},         {"lines", "vert", sw_shader_lines_vert},
        {"lines", "frag", sw_shader_lines_frag},
    };
    for (size_t i = 0; i < sizeof shaders / sizeof shaders[0]; i++) {
        /* One string, exactly what glShaderSource joins. */
        const char* parts[SW__SOURCE_PARTS];
        sw__shader_parts(shaders[i].body, parts);
        size_t lengths[SW__SOURCE_PARTS], size = 1;
        for (int k = 0; k < SW__SOURCE_PARTS; k++) size += lengths[k] = strlen(parts[k]);
        char* source = (char*)malloc(size);
        if (!source) return;
        char* at = source;
        for (int k = 0; k < SW__SOURCE_PARTS; k++) {
            memcpy(at, parts[k], lengths[k]);
            at += lengths[k];
        }
        *at = '\0';
        visit(shaders[i].name, shaders[i].stage, source, user);
        free(source);
    }
}

static sw_result sw__compile(GLenum stage, const char* body, const char* name, GLuint* out, sw_diag* diag) {
    const GLchar* sources[SW__SOURCE_PARTS];
    sw__shader_parts(body, sources);
    GLuint shader = glCreateShader(stage);
    glShaderSource(shader, SW__SOURCE_PARTS, sources, NULL);
    glCompileShader(shader);
    GLint ok = 0;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[1024] = {0};
        glGetShaderInfoLog(shader, (GLsizei)sizeof log, NULL, log);
        glDeleteShader(shader);
        for (char* c = log; *c; c++)
            if (*c == '\n') *c = ' ';
        return sw_diag_set(diag, SW_ERR_IO, -1, "compiling %s failed: %s", name, log);
    }
    *out = shader;
    return SW_OK;
}

static sw_result sw__program(const char* vs, const char* fs, const char* name, GLuint* out, sw_diag* diag) {
    GLuint v = 0, f = 0;
    sw_result r = sw__compile(GL_VERTEX_SHADER, vs, name, &v, diag);
    if (r == SW_OK) r = sw__compile(GL_FRAGMENT_SHADER, fs, name, &f, diag);
    if (r != SW_OK) {
        glDeleteShader(v);
        return r;
    }
    GLuint p = glCreateProgram();
    glAttachShader(p, v);
    glAttachShader(p, f);
    glLinkProgram(p);
    glDeleteShader(v);
    glDeleteShader(f);
    GLint ok = 0;
    glGetProgramiv(p, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[1024] = {0};
        glGetProgramInfoLog(p, (GLsizei)sizeof log, NULL, log);
        glDeleteProgram(p);
        return sw_diag_set(diag, SW_ERR_IO, -1, "linking %s failed: %s", name, log);
    }
    *out = p;
    return SW_OK;
}

/* ---- scene ------------------------------------------------------------------------ */

typedef struct sw__draw {
    size_t node, primitive;
    const sw_model_primitive* prim;
    sw_gpu_model_primitive* gpu;
    GLuint vao;
    GLuint static_buffer;     /* uv0 | uv1 | colours */
    GLuint index_buffer;
    GLuint weight_buffer;     /* the debug weight view's per-vertex weight */
    GLenum mode;
    size_t uv1_offset, color_offset;
} sw__draw;

struct sw_renderer {
    int width, height, shadow_size;
    /* targets */
    GLuint gbuffer_fbo, lighting_fbo, image_fbo, shadow_fbo;
    GLuint t_normal, t_albedo, t_material, t_class, t_motion, t_depth, t_hdr, t_image, t_shadow;
    /* programs */
    GLuint p_gbuffer, p_shadow, p_lighting, p_post, p_lines;
    GLuint empty_vao;
    GLuint white_texture, flat_normal_texture;
    sw_gpu_skinner* skinner;
    /* scene */
    const sw_model* asset;
    sw__draw* draws;
    size_t draw_count;
    GLuint* textures;         /* one per model texture, 0 = white */
    GLuint ground_vao, ground_buffer;
    int32_t weight_joint;     /* node the weight buffers hold, -1 = none */
    /* last frame, for readbacks */
    sw_renderer_stats stats;
    float scene_min[3], scene_max[3];
    bool have_bounds;
    float ground_y;
};

static GLuint sw__texture2d(GLenum internal, int w, int h, GLenum filter) {
    GLuint t;
    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_2D, t);
    glTexStorage2D(GL_TEXTURE_2D, 1, internal, w, h);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, (GLint)filter);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, (GLint)filter);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    return t;
}

static GLuint sw__solid_texture(const uint8_t rgba[4]) {
    GLuint t;
    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_2D, t);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    return t;
}

static sw_result sw__framebuffer_complete(const char* name, sw_diag* diag) {
    GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    if (status != GL_FRAMEBUFFER_COMPLETE)
        return sw_diag_set(diag, SW_ERR_UNSUPPORTED, -1, "the %s framebuffer is incomplete (0x%x)", name,
                           (unsigned)status);
    return SW_OK;
}

sw_result sw_renderer_create(const sw_renderer_desc* desc, sw_renderer** out_renderer, sw_diag* diag) {
    if (!out_renderer || !desc) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "NULL desc or out_renderer");
    *out_renderer = NULL;
    if (desc->width < 1 || desc->height < 1 || desc->width > 8192 || desc->height > 8192)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "image size %dx%d is outside 1..8192", desc->width,
                           desc->height);
    sw_renderer* r = (sw_renderer*)calloc(1, sizeof *r);
    if (!r) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for the renderer");
    r->width = desc->width;
    r->height = desc->height;
    r->shadow_size = desc->shadow_map_size > 0 ? desc->shadow_map_size : 2048;
    r->weight_joint = -1;

    sw_result res = sw_gpu_skinner_create(&r->skinner, diag);
    if (res == SW_OK) res = sw__program(sw_shader_gbuffer_vert, sw_shader_gbuffer_frag, "gbuffer", &r->p_gbuffer, diag);
    if (res == SW_OK) res = sw__program(sw_shader_shadow_vert, sw_shader_shadow_frag, "shadow", &r->p_shadow, diag);
    if (res == SW_OK)
        res = sw__program(sw_shader_fullscreen_vert, sw_shader_lighting_frag, "lighting", &r->p_lighting, diag);
    if (res == SW_OK) res = sw__program(sw_shader_fullscreen_vert, sw_shader_post_frag, "post", &r->p_post, diag);
    if (res == SW_OK) res = sw__program(sw_shader_lines_vert, sw_shader_lines_frag, "lines", &r->p_lines, diag);
    if (res != SW_OK) {
        sw_renderer_destroy(r);
        return res;
    }

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
    res = sw__framebuffer_complete("G-buffer", diag);
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
    glGenVertexArrays(1, &r->empty_vao);
    r->white_texture = sw__solid_texture((const uint8_t[4]){255, 255, 255, 255});
    r->flat_normal_texture = sw__solid_texture((const uint8_t[4]){128, 128, 255, 255});
    if (res == SW_OK) res = sw_gl_check("creating the renderer", diag);
    if (res != SW_OK) {
        sw_renderer_destroy(r);
        return res;
    }
    *out_renderer = r;
    return SW_OK;
}

static void sw__clear_scene(sw_renderer* r) {
    for (size_t i = 0; i < r->draw_count; i++) {
        sw__draw* d = &r->draws[i];
        sw_gpu_model_primitive_destroy(d->gpu);
        glDeleteVertexArrays(1, &d->vao);
        GLuint buffers[3] = {d->static_buffer, d->index_buffer, d->weight_buffer};
        glDeleteBuffers(3, buffers);
    }
    free(r->draws);
    r->draws = NULL;
    r->draw_count = 0;
    if (r->asset && r->textures) {
        for (size_t i = 0; i < r->asset->texture_count; i++)
            if (r->textures[i]) glDeleteTextures(1, &r->textures[i]);
    }
    free(r->textures);
    r->textures = NULL;
    glDeleteVertexArrays(1, &r->ground_vao);
    glDeleteBuffers(1, &r->ground_buffer);
    r->ground_vao = r->ground_buffer = 0;
    r->asset = NULL;
    r->weight_joint = -1;
    r->have_bounds = false;
    memset(&r->stats, 0, sizeof r->stats);
}

void sw_renderer_destroy(sw_renderer* r) {
    if (!r) return;
    sw__clear_scene(r);
    GLuint programs[5] = {r->p_gbuffer, r->p_shadow, r->p_lighting, r->p_post, r->p_lines};
    for (int i = 0; i < 5; i++) glDeleteProgram(programs[i]);
    GLuint fbos[4] = {r->gbuffer_fbo, r->lighting_fbo, r->image_fbo, r->shadow_fbo};
    glDeleteFramebuffers(4, fbos);
    GLuint textures[11] = {r->t_normal, r->t_albedo, r->t_material, r->t_class, r->t_motion, r->t_depth,
                           r->t_hdr, r->t_image, r->t_shadow, r->white_texture, r->flat_normal_texture};
    glDeleteTextures(11, textures);
    glDeleteVertexArrays(1, &r->empty_vao);
    sw_gpu_skinner_destroy(r->skinner);
    free(r);
}

static GLenum sw__gl_mode(sw_model_mode mode) {
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

/* A texture of the model: decoded, mipmapped, its sampler's filters
   and wraps. Returns 0 when the image does not decode. */
static GLuint sw__upload_texture(sw_renderer* r, size_t index, bool srgb) {
    const sw_model* a = r->asset;
    const sw_model_texture* t = &a->textures[index];
    if (t->image < 0) return 0;
    uint8_t* pixels = NULL;
    int w = 0, h = 0;
    sw_diag diag;
    if (sw_model_decode_image(a, (size_t)t->image, &pixels, &w, &h, &diag) != SW_OK) {
        r->stats.texture_failures++;
        return 0;
    }
    GLuint tex;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, srgb ? GL_SRGB8_ALPHA8 : GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
    sw_model_image_free(pixels);
    glGenerateMipmap(GL_TEXTURE_2D);
    GLint min_filter = GL_LINEAR_MIPMAP_LINEAR, mag_filter = GL_LINEAR, wrap_s = GL_REPEAT, wrap_t = GL_REPEAT;
    if (t->sampler >= 0 && (size_t)t->sampler < a->sampler_count) {
        const sw_model_sampler* s = &a->samplers[t->sampler];
        if (s->min_filter) min_filter = s->min_filter;
        if (s->mag_filter) mag_filter = s->mag_filter;
        if (s->wrap_s) wrap_s = s->wrap_s;
        if (s->wrap_t) wrap_t = s->wrap_t;
    }
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, min_filter);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, mag_filter);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, wrap_s);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, wrap_t);
    r->stats.textures++;
    return tex;
}

/* Attribute layout of the G-buffer pass (SW_ATTR_*, gbuffer.vert), each
   attribute reading the binding point of its own number; position,
   previous position, normal and tangent follow the skinned buffers and are
   rebound every draw. */
static void sw__setup_vao(sw__draw* d) {
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
    const size_t n = p->vertex_count;
    size_t bytes = (p->texcoord_count > 0 ? n * 8 : 0) + (p->texcoord_count > 1 ? n * 8 : 0) + (p->colors ? n * 16 : 0);
    if (bytes) {
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
    if (p->indices) {
        glGenBuffers(1, &d->index_buffer);
        glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, d->index_buffer);
        glBufferData(GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)(p->index_count * 4), p->indices, GL_STATIC_DRAW);
    }
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
}

/* Whether a coordinate is one no camera can frame: not finite, or beyond
   SW_MODEL_MAX_EXTENT (model.h; sinew check reports it as extent_absurd). */
static bool sw__beyond_extent(float x) { return !(fabsf(x) <= (float)SW_MODEL_MAX_EXTENT); }

/* The positions of every mesh a node draws, as stored: the first one
   beyond SW_MODEL_MAX_EXTENT fails (SW_ERR_INVALID_DATA). */
static sw_result sw__check_extent(const sw_model* asset, sw_diag* diag) {
    bool* seen = (bool*)calloc(asset->mesh_count + 1, sizeof(bool));
    if (!seen) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory");
    for (size_t n = 0; n < asset->node_count; n++) {
        int32_t m = asset->nodes[n].mesh;
        if (m < 0 || seen[m]) continue;
        seen[m] = true;
        for (size_t p = 0; p < asset->meshes[m].primitive_count; p++) {
            const sw_model_primitive* prim = &asset->meshes[m].primitives[p];
            for (size_t i = 0; i < prim->vertex_count * 3; i++) {
                if (!sw__beyond_extent(prim->positions[i])) continue;
                free(seen);
                return sw_diag_set(diag, SW_ERR_INVALID_DATA, (int64_t)(i / 3),
                                   "mesh %d primitive %zu: vertex %zu lies at %g on an axis, beyond the %g model units "
                                   "the renderer can frame (SW_MODEL_MAX_EXTENT)",
                                   (int)m, p, i / 3, (double)prim->positions[i], SW_MODEL_MAX_EXTENT);
            }
        }
    }
    free(seen);
    return SW_OK;
}

sw_result sw_renderer_set_scene(sw_renderer* r, const sw_model* asset, sw_diag* diag) {
    if (!r || !asset) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "NULL renderer or asset");
    sw__clear_scene(r);
    sw_result checked = sw__check_extent(asset, diag);
    if (checked != SW_OK) return checked;
    r->asset = asset;
    r->textures = (GLuint*)calloc(asset->texture_count + 1, sizeof(GLuint));
    size_t count = 0;
    for (size_t n = 0; n < asset->node_count; n++)
        if (asset->nodes[n].mesh >= 0) count += asset->meshes[asset->nodes[n].mesh].primitive_count;
    r->draws = (sw__draw*)calloc(count + 1, sizeof(sw__draw));
    if (!r->textures || !r->draws) {
        sw__clear_scene(r);
        return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for %zu primitives", count);
    }
    /* Textures: base colour and emissive are sRGB, the others linear. */
    bool* srgb = (bool*)calloc(asset->texture_count + 1, sizeof(bool));
    if (!srgb) {
        sw__clear_scene(r);
        return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory");
    }
    for (size_t m = 0; m < asset->material_count; m++) {
        const sw_model_material* mat = &asset->materials[m];
        if (mat->base_color_texture.texture >= 0) srgb[mat->base_color_texture.texture] = true;
        if (mat->emissive_texture.texture >= 0) srgb[mat->emissive_texture.texture] = true;
    }
    for (size_t t = 0; t < asset->texture_count; t++) r->textures[t] = sw__upload_texture(r, t, srgb[t]);
    free(srgb);

    /* Every (node, primitive), scene or not, as sinew export lists them. */
    for (size_t n = 0; n < asset->node_count; n++) {
        const sw_model_node* node = &asset->nodes[n];
        if (node->mesh < 0) continue;
        const sw_model_mesh* mesh = &asset->meshes[node->mesh];
        for (size_t p = 0; p < mesh->primitive_count; p++) {
            const sw_model_primitive* prim = &mesh->primitives[p];
            if (prim->vertex_count == 0) continue;
            sw__draw* d = &r->draws[r->draw_count];
            d->node = n, d->primitive = p, d->prim = prim, d->mode = sw__gl_mode(prim->mode);
            sw_result res = sw_gpu_model_primitive_create(r->skinner, asset, n, p, &d->gpu, diag);
            if (res != SW_OK) {
                sw__clear_scene(r);
                return res;
            }
            sw__setup_vao(d);
            r->draw_count++;
            r->stats.primitives++;
            size_t elements = prim->indices ? prim->index_count : prim->vertex_count;
            if (d->mode == GL_TRIANGLES) r->stats.triangles += elements / 3;
            else if (d->mode == GL_TRIANGLE_STRIP || d->mode == GL_TRIANGLE_FAN)
                r->stats.triangles += elements > 2 ? elements - 2 : 0;
        }
    }
    glGenVertexArrays(1, &r->ground_vao);
    glGenBuffers(1, &r->ground_buffer);
    sw_result res = sw_gl_check("preparing the scene", diag);
    if (res != SW_OK) sw__clear_scene(r); /* no half-made scene stays behind */
    return res;
}

static void sw__ground_geometry(sw_renderer* r, const float lo[3], const float hi[3]);

/* Per-vertex weight of one joint (node) for the weight view. */
static sw_result sw__weight_buffers(sw_renderer* r, int32_t joint_node, sw_diag* diag) {
    if (r->weight_joint == joint_node) return SW_OK;
    /* Until every buffer holds the new joint's weights, none is trusted: a
       failure half-way makes the next call start over. */
    r->weight_joint = -1;
    const sw_model* a = r->asset;
    for (size_t i = 0; i < r->draw_count; i++) {
        sw__draw* d = &r->draws[i];
        const sw_model_primitive* p = d->prim;
        const sw_model_node* node = &a->nodes[d->node];
        float* w = (float*)calloc(p->vertex_count, sizeof(float));
        if (!w) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for joint weights");
        if (node->skin >= 0 && p->influence_count > 0) {
            const sw_model_skin* skin = &a->skins[node->skin];
            for (size_t v = 0; v < p->vertex_count; v++)
                for (int k = 0; k < p->influence_count; k++) {
                    uint16_t j = p->joints[v * (size_t)p->influence_count + (size_t)k];
                    if (j < skin->joint_count && (int64_t)skin->joints[j] == (int64_t)joint_node)
                        w[v] += p->weights[v * (size_t)p->influence_count + (size_t)k];
                }
        } else if ((int64_t)d->node == (int64_t)joint_node) {
            for (size_t v = 0; v < p->vertex_count; v++) w[v] = 1.0f;
        }
        if (!d->weight_buffer) glGenBuffers(1, &d->weight_buffer);
        glBindBuffer(GL_ARRAY_BUFFER, d->weight_buffer);
        glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(p->vertex_count * 4), w, GL_STATIC_DRAW);
        free(w);
        glBindVertexArray(d->vao);
        glBindVertexBuffer(SW_ATTR_WEIGHT, d->weight_buffer, 0, 4);
        glEnableVertexAttribArray(SW_ATTR_WEIGHT);
        glBindVertexArray(0);
    }
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    r->weight_joint = joint_node;
    return sw_gl_check("uploading joint weights", diag);
}

static sw_result sw__skin_all(sw_renderer* r, const sw_pose* pose, sw_skin_method method,
                              sw_diag* diag) {
    sw_gpu_skin_desc desc = {.method = method == SW_SKIN_DQS ? SW_SKIN_DQS : SW_SKIN_LBS};
    for (size_t i = 0; i < r->draw_count; i++) {
        sw__draw* d = &r->draws[i];
        sw_result res = sw_gpu_model_primitive_pose(d->gpu, pose, diag);
        if (res == SW_OK) res = sw_gpu_model_primitive_skin(r->skinner, d->gpu, &desc, NULL, diag);
        if (res != SW_OK) return res;
    }
    return SW_OK;
}

void sw_renderer_set_scene_box(sw_renderer* r, const float box_min[3], const float box_max[3]) {
    if (!r || !r->asset) return;
    memcpy(r->scene_min, box_min, sizeof r->scene_min);
    memcpy(r->scene_max, box_max, sizeof r->scene_max);
    r->have_bounds = true;
    sw__ground_geometry(r, box_min, box_max);
}

sw_result sw_renderer_scene_bounds(sw_renderer* r, const sw_pose* pose, float out_min[3],
                                   float out_max[3], sw_diag* diag) {
    if (!r || !r->asset || !pose || !pose->world) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "no scene or pose");
    sw_result res = sw__skin_all(r, pose, SW_SKIN_LBS, diag);
    if (res != SW_OK) return res;
    float lo[3] = {FLT_MAX, FLT_MAX, FLT_MAX}, hi[3] = {-FLT_MAX, -FLT_MAX, -FLT_MAX};
    bool any = false;
    for (size_t i = 0; i < r->draw_count; i++) {
        const sw__draw* d = &r->draws[i];
        size_t n = d->prim->vertex_count;
        float* p = (float*)malloc(n * 12);
        if (!p) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for %zu vertices", n);
        res = sw_gpu_instance_read(sw_gpu_model_primitive_instance(d->gpu), p, NULL, NULL, NULL, diag);
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
                any = true;
            }
        free(p);
        if (res != SW_OK) return res;
    }
    if (!any) return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "the scene has no vertex to draw");
    memcpy(out_min, lo, sizeof lo);
    memcpy(out_max, hi, sizeof hi);
    return SW_OK;
}

/* Uniforms of one material (SW_GBUFFER_LOC_*, gbuffer.frag), textures
   bound. `flags` holds the frame's SW_GBUFFER_FLAG_* bits. */
static void sw__bind_material(const sw_renderer* r, const sw__draw* d, int flags) {
    const sw_model* a = r->asset;
    static const sw_model_material fallback = {
        .base_color_factor = {1, 1, 1, 1},
        .metallic_factor = 0.0f,
        .roughness_factor = 0.6f,
        .base_color_texture = {.texture = -1},
        .metallic_roughness_texture = {.texture = -1},
        .normal_texture = {.texture = -1},
        .occlusion_texture = {.texture = -1},
        .emissive_texture = {.texture = -1},
        .alpha_cutoff = 0.5f,
    };
    const sw_model_material* m =
        d->prim->material >= 0 && (size_t)d->prim->material < a->material_count ? &a->materials[d->prim->material] : &fallback;
    const sw_model_texture_ref* refs[SW_MATERIAL_SLOT_COUNT] = {
        [SW_MATERIAL_SLOT_BASE_COLOR] = &m->base_color_texture,
        [SW_MATERIAL_SLOT_NORMAL] = &m->normal_texture,
        [SW_MATERIAL_SLOT_METALLIC_ROUGHNESS] = &m->metallic_roughness_texture,
        [SW_MATERIAL_SLOT_OCCLUSION] = &m->occlusion_texture,
        [SW_MATERIAL_SLOT_EMISSIVE] = &m->emissive_texture,
    };
    float transforms[SW_MATERIAL_SLOT_COUNT][9];
    GLint sets[SW_MATERIAL_SLOT_COUNT];
    bool normal_map = false;
    for (int s = 0; s < SW_MATERIAL_SLOT_COUNT; s++) {
        const sw_model_texture_ref* ref = refs[s];
        GLuint tex = ref->texture >= 0 && (size_t)ref->texture < a->texture_count ? r->textures[ref->texture] : 0;
        if (s == SW_MATERIAL_SLOT_NORMAL) normal_map = tex != 0;
        glActiveTexture(GL_TEXTURE0 + (GLenum)s);
        GLuint blank = s == SW_MATERIAL_SLOT_NORMAL ? r->flat_normal_texture : r->white_texture;
        glBindTexture(GL_TEXTURE_2D, tex ? tex : blank);
        sets[s] = ref->texcoord == 1 ? 1 : 0;
        /* KHR_texture_transform: T · R · S, as a column-major 3×3. */
        float c = 1.0f, sn = 0.0f, sx = 1.0f, sy = 1.0f, ox = 0.0f, oy = 0.0f;
        if (ref->has_transform) {
            c = cosf(ref->rotation), sn = sinf(ref->rotation);
            sx = ref->uv_scale[0], sy = ref->uv_scale[1], ox = ref->offset[0], oy = ref->offset[1];
        }
        float t[9] = {c * sx, -sn * sx, 0, sn * sy, c * sy, 0, ox, oy, 1};
        memcpy(transforms[s], t, sizeof t);
    }
    glUniform4fv(SW_GBUFFER_LOC_BASE_COLOR, 1, m->base_color_factor);
    glUniform3fv(SW_GBUFFER_LOC_EMISSIVE, 1, m->emissive_factor);
    glUniform2f(SW_GBUFFER_LOC_METALLIC_ROUGHNESS, m->metallic_factor, m->roughness_factor);
    glUniform1f(SW_GBUFFER_LOC_OCCLUSION_STRENGTH,
                m->occlusion_texture.texture >= 0 ? m->occlusion_texture.scale : 0.0f);
    glUniform1f(SW_GBUFFER_LOC_NORMAL_SCALE, m->normal_texture.scale);
    glUniform1f(SW_GBUFFER_LOC_ALPHA_CUTOFF, m->alpha_mode == SW_MODEL_ALPHA_OPAQUE ? -1.0f
                                             : m->alpha_mode == SW_MODEL_ALPHA_MASK ? m->alpha_cutoff
                                                                                   : 0.5f);
    glUniform1ui(SW_GBUFFER_LOC_CLASS, m->unlit ? SW_CLASS_UNLIT : SW_CLASS_LIT);
    int f = flags;
    f |= (d->prim->normals ? SW_GBUFFER_FLAG_NORMALS : 0) | (d->prim->tangents ? SW_GBUFFER_FLAG_TANGENTS : 0);
    f |= (normal_map ? SW_GBUFFER_FLAG_NORMAL_TEXTURE : 0) | (m->double_sided ? SW_GBUFFER_FLAG_DOUBLE_SIDED : 0);
    glUniform1i(SW_GBUFFER_LOC_FLAGS, f);
    glUniformMatrix3fv(SW_GBUFFER_LOC_UV_TRANSFORM, SW_MATERIAL_SLOT_COUNT, GL_FALSE, &transforms[0][0]);
    glUniform1iv(SW_GBUFFER_LOC_UV_SET, SW_MATERIAL_SLOT_COUNT, sets);
    if (m->double_sided) glDisable(GL_CULL_FACE);
    else glEnable(GL_CULL_FACE);
}

static void sw__draw_primitive(const sw__draw* d) {
    sw_gpu_instance_buffers b;
    sw_gpu_instance_get_buffers(sw_gpu_model_primitive_instance(d->gpu), &b);
    glBindVertexArray(d->vao);
    glBindVertexBuffer(SW_ATTR_POSITION, b.positions, 0, 12);
    glBindVertexBuffer(SW_ATTR_PREVIOUS_POSITION, b.previous_positions, 0, 12);
    if (b.normals_offset != SIZE_MAX)
        glBindVertexBuffer(SW_ATTR_NORMAL, b.normals_tangents, (GLintptr)b.normals_offset, 12);
    if (b.tangents_offset != SIZE_MAX)
        glBindVertexBuffer(SW_ATTR_TANGENT, b.normals_tangents, (GLintptr)b.tangents_offset, 16);
    if (!d->prim->colors) glVertexAttrib4f(SW_ATTR_COLOR, 1, 1, 1, 1);
    if (!d->weight_buffer) glVertexAttrib1f(SW_ATTR_WEIGHT, 0.0f);
    if (d->index_buffer) glDrawElements(d->mode, (GLsizei)d->prim->index_count, GL_UNSIGNED_INT, NULL);
    else glDrawArrays(d->mode, 0, (GLsizei)d->prim->vertex_count);
}

/* The ground: a square under the scene, at its lowest point. */
static void sw__ground_geometry(sw_renderer* r, const float lo[3], const float hi[3]) {
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

/* The light: from the upper front left, an orthographic box around the
   scene's bounding sphere (ground included). */
static void sw__light(const float lo[3], const float hi[3], sw_vec3* direction, sw_mat4* view_projection) {
    const sw_vec3 d = sw_vec3_normalize(sw_vec3_make(-0.45f, 0.8f, 0.55f));
    *direction = d;
    sw_vec3 center = sw_vec3_scale(sw_vec3_add(sw__v3(lo), sw__v3(hi)), 0.5f);
    float radius = 0.0f;
    for (int i = 0; i < 3; i++) radius = fmaxf(radius, hi[i] - lo[i]);
    radius *= 1.5f;
    sw_vec3 eye = sw_vec3_add(center, sw_vec3_scale(d, radius * 2));
    sw_mat4 view = sw__look_at(eye, center, sw_vec3_make(0, 1, 0));
    sw_mat4 proj = sw__ortho(-radius, radius, -radius, radius, 0.01f, radius * 4);
    *view_projection = sw_mat4_mul(&proj, &view);
}

static sw_result sw__draw_scene_half(sw_renderer* r, const sw_render_frame* f, sw_skin_method method, int x0, int x1,
                                     const sw_mat4* vp, const sw_mat4* previous_vp, sw_diag* diag) {
    /* Scene bounds for the ground and the light, unless the caller gave a
       box: the skinned positions' bounds of the first drawn frame, kept (a
       ground that follows the feet would slide under a walking character). */
    sw_result res;
    if (!r->have_bounds) {
        float lo[3], hi[3];
        res = sw_renderer_scene_bounds(r, f->pose, lo, hi, diag);
        if (res != SW_OK) return res;
        sw_renderer_set_scene_box(r, lo, hi);
    }
    res = sw__skin_all(r, f->pose, method, diag);
    if (res != SW_OK) return res;
    sw_vec3 light_direction;
    sw_mat4 light_vp;
    sw__light(r->scene_min, r->scene_max, &light_direction, &light_vp);

    /* 1. Shadow map. */
    glBindFramebuffer(GL_FRAMEBUFFER, r->shadow_fbo);
    glViewport(0, 0, r->shadow_size, r->shadow_size);
    glDisable(GL_SCISSOR_TEST);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    glDepthMask(GL_TRUE);
    glClear(GL_DEPTH_BUFFER_BIT);
    glDisable(GL_CULL_FACE);
    glEnable(GL_POLYGON_OFFSET_FILL);
    glPolygonOffset(1.5f, 2.0f);
    glUseProgram(r->p_shadow);
    glUniformMatrix4fv(SW_SHADOW_LOC_LIGHT_VIEW_PROJECTION, 1, GL_FALSE, light_vp.m);
    for (size_t i = 0; i < r->draw_count; i++) sw__draw_primitive(&r->draws[i]);
    glDisable(GL_POLYGON_OFFSET_FILL);

    /* 2. G-buffer (this half only). */
    glBindFramebuffer(GL_FRAMEBUFFER, r->gbuffer_fbo);
    glViewport(0, 0, r->width, r->height);
    glEnable(GL_SCISSOR_TEST);
    glScissor(x0, 0, x1 - x0, r->height);
    glEnable(GL_FRAMEBUFFER_SRGB);
    const float zero[4] = {0, 0, 0, 0};
    const GLuint background_class[4] = {SW_CLASS_BACKGROUND, 0, 0, 0};
    for (int i = 0; i < SW_GBUFFER_TARGET_COUNT; i++)
        if (i == SW_GBUFFER_CLASS) glClearBufferuiv(GL_COLOR, i, background_class);
        else glClearBufferfv(GL_COLOR, i, zero);
    glClear(GL_DEPTH_BUFFER_BIT);
    glUseProgram(r->p_gbuffer);
    glUniformMatrix4fv(SW_GBUFFER_LOC_VIEW_PROJECTION, 1, GL_FALSE, vp->m);
    glUniformMatrix4fv(SW_GBUFFER_LOC_PREVIOUS_VIEW_PROJECTION, 1, GL_FALSE, f->first_frame ? vp->m : previous_vp->m);
    const int first_frame = f->first_frame ? SW_GBUFFER_FLAG_FIRST_FRAME : 0;
    int flags = (f->view == SW_RENDER_VIEW_UV ? SW_GBUFFER_FLAG_VIEW_UV : 0) |
                (f->view == SW_RENDER_VIEW_WEIGHTS ? SW_GBUFFER_FLAG_VIEW_WEIGHTS : 0) | first_frame;
    glCullFace(GL_BACK);
    glFrontFace(GL_CCW);
    for (size_t i = 0; i < r->draw_count; i++) {
        sw__bind_material(r, &r->draws[i], flags);
        sw__draw_primitive(&r->draws[i]);
    }
    /* The ground: grey, lit, no textures. */
    glDisable(GL_CULL_FACE);
    for (int s = 0; s < SW_MATERIAL_SLOT_COUNT; s++) {
        glActiveTexture(GL_TEXTURE0 + (GLenum)s);
        glBindTexture(GL_TEXTURE_2D, s == SW_MATERIAL_SLOT_NORMAL ? r->flat_normal_texture : r->white_texture);
    }
    glUniform4f(SW_GBUFFER_LOC_BASE_COLOR, 0.42f, 0.43f, 0.45f, 1.0f);
    glUniform3f(SW_GBUFFER_LOC_EMISSIVE, 0, 0, 0);
    glUniform2f(SW_GBUFFER_LOC_METALLIC_ROUGHNESS, 0.0f, 0.9f);
    glUniform1f(SW_GBUFFER_LOC_OCCLUSION_STRENGTH, 0.0f);
    glUniform1f(SW_GBUFFER_LOC_ALPHA_CUTOFF, -1.0f);
    glUniform1ui(SW_GBUFFER_LOC_CLASS, SW_CLASS_GROUND);
    glUniform1i(SW_GBUFFER_LOC_FLAGS, SW_GBUFFER_FLAG_NORMALS | first_frame);
    glBindVertexArray(r->ground_vao);
    glVertexAttrib4f(SW_ATTR_COLOR, 1, 1, 1, 1);
    glVertexAttrib1f(SW_ATTR_WEIGHT, 0.0f);
    glVertexAttrib2f(SW_ATTR_UV0, 0, 0);
    glDrawArrays(GL_TRIANGLES, 0, 6);
    glDisable(GL_FRAMEBUFFER_SRGB);

    /* 3. Lighting, added onto the emission already in the HDR target. */
    glBindFramebuffer(GL_FRAMEBUFFER, r->lighting_fbo);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_CULL_FACE);
    glEnable(GL_BLEND);
    glBlendFunc(GL_ONE, GL_ONE);
    glUseProgram(r->p_lighting);
    const sw_mat4 inverse_vp = sw__inverse_view_projection(&f->camera, (float)r->width / (float)r->height);
    glUniformMatrix4fv(SW_LIGHTING_LOC_INVERSE_VIEW_PROJECTION, 1, GL_FALSE, inverse_vp.m);
    glUniformMatrix4fv(SW_LIGHTING_LOC_LIGHT_VIEW_PROJECTION, 1, GL_FALSE, light_vp.m);
    glUniform3f(SW_LIGHTING_LOC_LIGHT_DIRECTION, light_direction.x, light_direction.y, light_direction.z);
    glUniform3f(SW_LIGHTING_LOC_LIGHT_COLOR, 2.6f, 2.5f, 2.35f);
    glUniform3f(SW_LIGHTING_LOC_SKY_COLOR, 0.55f, 0.62f, 0.75f);
    glUniform3f(SW_LIGHTING_LOC_GROUND_COLOR, 0.22f, 0.2f, 0.18f);
    glUniform3fv(SW_LIGHTING_LOC_EYE, 1, f->camera.eye);
    glUniform3f(SW_LIGHTING_LOC_BACKGROUND_TOP, 0.32f, 0.42f, 0.58f);
    glUniform3f(SW_LIGHTING_LOC_BACKGROUND_BOTTOM, 0.78f, 0.8f, 0.84f);
    glUniform1f(SW_LIGHTING_LOC_SHADOW_TEXEL, 1.0f / (float)r->shadow_size);
    const GLuint inputs[SW_LIGHTING_UNIT_COUNT] = {
        [SW_LIGHTING_UNIT_NORMAL] = r->t_normal, [SW_LIGHTING_UNIT_ALBEDO] = r->t_albedo,
        [SW_LIGHTING_UNIT_MATERIAL] = r->t_material, [SW_LIGHTING_UNIT_CLASS] = r->t_class,
        [SW_LIGHTING_UNIT_DEPTH] = r->t_depth, [SW_LIGHTING_UNIT_SHADOW] = r->t_shadow,
    };
    for (int i = 0; i < SW_LIGHTING_UNIT_COUNT; i++) {
        glActiveTexture(GL_TEXTURE0 + (GLenum)i);
        glBindTexture(GL_TEXTURE_2D, inputs[i]);
    }
    glBindVertexArray(r->empty_vao);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glDisable(GL_BLEND);
    glDisable(GL_SCISSOR_TEST);
    return sw_gl_check("drawing the scene", diag);
}

/* One bone from head to tail as a wireframe octahedron (the shape Blender
   draws): widest a fifth of the way along, a tenth of its length across.
   Appends 12 edges (24 vertices of position + colour) to `v`. */
static size_t sw__octahedron(float* v, const float head[3], const float tail[3]) {
    const sw_vec3 d = sw_vec3_sub(sw__v3(tail), sw__v3(head));
    const float length = sw_vec3_length(d);
    if (!(length > 1e-6f)) return 0;
    /* Two directions across the bone: from the axis least along it. */
    sw_vec3 axis = fabsf(d.x) <= fabsf(d.y) && fabsf(d.x) <= fabsf(d.z) ? sw_vec3_make(1, 0, 0)
                   : fabsf(d.y) <= fabsf(d.z)                          ? sw_vec3_make(0, 1, 0)
                                                                        : sw_vec3_make(0, 0, 1);
    const sw_vec3 u = sw_vec3_normalize(sw_vec3_cross(d, axis)), w = sw_vec3_normalize(sw_vec3_cross(d, u));
    float ring[4][3];
    const float across = 0.1f * length, sign[4][2] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}};
    for (int k = 0; k < 4; k++) {
        sw_vec3 p = sw_vec3_add(sw__v3(head), sw_vec3_scale(d, 0.2f));
        p = sw_vec3_add(p, sw_vec3_scale(sw_vec3_add(sw_vec3_scale(u, sign[k][0]), sw_vec3_scale(w, sign[k][1])), across));
        ring[k][0] = p.x, ring[k][1] = p.y, ring[k][2] = p.z;
    }
    static const float head_colour[3] = {1.0f, 0.85f, 0.2f}, tail_colour[3] = {1.0f, 0.45f, 0.1f};
    size_t n = 0;
    for (int k = 0; k < 4; k++) {
        const float* ends[3][2] = {{head, ring[k]}, {ring[k], ring[(k + 1) % 4]}, {ring[k], tail}};
        for (int e = 0; e < 3; e++)
            for (int end = 0; end < 2; end++) {
                memcpy(v + n * 6, ends[e][end], 3 * sizeof(float));
                memcpy(v + n * 6 + 3, ends[e][end] == tail ? tail_colour : head_colour, 3 * sizeof(float));
                n++;
            }
    }
    return n;
}

/* Bones over the image: an octahedron from every skin joint's parent to
   the joint when the parent is a joint too, and a small cross at every
   joint. */
static sw_result sw__draw_bones(sw_renderer* r, const sw_render_frame* f, const sw_mat4* vp, sw_diag* diag) {
    const sw_model* a = r->asset;
    size_t joints = 0;
    for (size_t s = 0; s < a->skin_count; s++) joints += a->skins[s].joint_count;
    if (joints == 0) return SW_OK;
    /* Per joint: 24 octahedron vertices and 6 for the cross. */
    float* v = (float*)malloc(joints * 30 * 6 * sizeof(float));
    bool* is_joint = (bool*)calloc(a->node_count + 1, sizeof(bool));
    if (!v || !is_joint) {
        free(v), free(is_joint);
        return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for bones");
    }
    for (size_t s = 0; s < a->skin_count; s++)
        for (size_t j = 0; j < a->skins[s].joint_count; j++) is_joint[a->skins[s].joints[j]] = true;
    float size = 0.0f;
    for (int i = 0; i < 3; i++) size = fmaxf(size, r->scene_max[i] - r->scene_min[i]);
    float cross = size * 0.008f;
    size_t count = 0;
    for (size_t n = 0; n < a->node_count; n++) {
        if (!is_joint[n]) continue;
        const sw_mat34* m = &f->pose->world[n];
        float p[3] = {m->m[0][3], m->m[1][3], m->m[2][3]};
        int32_t parent = a->nodes[n].parent;
        if (parent >= 0 && is_joint[parent]) {
            const sw_mat34* pm = &f->pose->world[parent];
            float q[3] = {pm->m[0][3], pm->m[1][3], pm->m[2][3]};
            count += sw__octahedron(v + count * 6, q, p);
        }
        for (int axis = 0; axis < 3; axis++) {
            float lo[3] = {p[0], p[1], p[2]}, hi[3] = {p[0], p[1], p[2]};
            lo[axis] -= cross, hi[axis] += cross;
            float line[12] = {lo[0], lo[1], lo[2], 0.2f, 0.9f, 1.0f, hi[0], hi[1], hi[2], 0.2f, 0.9f, 1.0f};
            memcpy(v + count * 6, line, sizeof line);
            count += 2;
        }
    }
    GLuint vao, buffer;
    glGenVertexArrays(1, &vao);
    glGenBuffers(1, &buffer);
    glBindVertexArray(vao);
    glBindBuffer(GL_ARRAY_BUFFER, buffer);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(count * 24), v, GL_STREAM_DRAW);
    glVertexAttribPointer(SW_LINES_ATTR_POSITION, 3, GL_FLOAT, GL_FALSE, 24, (const void*)0);
    glVertexAttribPointer(SW_LINES_ATTR_COLOR, 3, GL_FLOAT, GL_FALSE, 24, (const void*)12);
    glEnableVertexAttribArray(SW_LINES_ATTR_POSITION), glEnableVertexAttribArray(SW_LINES_ATTR_COLOR);
    glBindFramebuffer(GL_FRAMEBUFFER, r->image_fbo);
    glDisable(GL_DEPTH_TEST);
    glUseProgram(r->p_lines);
    glUniformMatrix4fv(SW_LINES_LOC_VIEW_PROJECTION, 1, GL_FALSE, vp->m);
    glDrawArrays(GL_LINES, 0, (GLsizei)count);
    glBindVertexArray(0);
    glDeleteBuffers(1, &buffer);
    glDeleteVertexArrays(1, &vao);
    free(v), free(is_joint);
    return sw_gl_check("drawing bones", diag);
}

sw_result sw_renderer_draw(sw_renderer* r, const sw_render_frame* f, sw_diag* diag) {
    if (!r || !f || !r->asset || !f->pose || !f->pose->world) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "no scene or frame");
    if (f->view == SW_RENDER_VIEW_WEIGHTS) {
        if (f->weight_joint < 0 || (size_t)f->weight_joint >= r->asset->node_count)
            return sw_diag_set(diag, SW_ERR_INDEX_OUT_OF_RANGE, f->weight_joint, "weight view: node %d does not exist",
                               (int)f->weight_joint);
        sw_result res = sw__weight_buffers(r, f->weight_joint, diag);
        if (res != SW_OK) return res;
    }
    const float aspect = (float)r->width / (float)r->height;
    sw_mat4 vp, previous_vp;
    sw_camera_view_projection(&f->camera, aspect, vp.m);
    sw_camera_view_projection(&f->previous_camera, aspect, previous_vp.m);
    sw_result res;
    if (f->split) {
        int middle = r->width / 2;
        res = sw__draw_scene_half(r, f, SW_SKIN_LBS, 0, middle, &vp, &previous_vp, diag);
        if (res == SW_OK) res = sw__draw_scene_half(r, f, SW_SKIN_DQS, middle, r->width, &vp, &previous_vp, diag);
    } else {
        res = sw__draw_scene_half(r, f, f->method, 0, r->width, &vp, &previous_vp, diag);
    }
    if (res != SW_OK) return res;

    /* 4. Tone mapping or a debug view into the 8-bit image. */
    glBindFramebuffer(GL_FRAMEBUFFER, r->image_fbo);
    glViewport(0, 0, r->width, r->height);
    glDisable(GL_DEPTH_TEST);
    glUseProgram(r->p_post);
    glUniform1i(SW_POST_LOC_VIEW, (int)f->view);
    glUniform1f(SW_POST_LOC_EXPOSURE, 1.0f);
    glUniform1f(SW_POST_LOC_MOTION_SCALE, 20.0f);
    const GLuint inputs[SW_POST_UNIT_COUNT] = {
        [SW_POST_UNIT_HDR] = r->t_hdr,       [SW_POST_UNIT_NORMAL] = r->t_normal, [SW_POST_UNIT_ALBEDO] = r->t_albedo,
        [SW_POST_UNIT_CLASS] = r->t_class,   [SW_POST_UNIT_MOTION] = r->t_motion,
    };
    for (int i = 0; i < SW_POST_UNIT_COUNT; i++) {
        glActiveTexture(GL_TEXTURE0 + (GLenum)i);
        glBindTexture(GL_TEXTURE_2D, inputs[i]);
    }
    glBindVertexArray(r->empty_vao);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    if (f->split) {
        /* A thin divider between the LBS and DQS halves. */
        glEnable(GL_SCISSOR_TEST);
        glScissor(r->width / 2, 0, r->width >= 200 ? 2 : 1, r->height);
        glClearColor(1, 1, 1, 1);
        glClear(GL_COLOR_BUFFER_BIT);
        glDisable(GL_SCISSOR_TEST);
    }
    if (f->bones) {
        res = sw__draw_bones(r, f, &vp, diag);
        if (res != SW_OK) return res;
    }
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glUseProgram(0);
    glBindVertexArray(0);
    return sw_gl_check("finishing the frame", diag);
}

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
    uint8_t* tmp = (uint8_t*)malloc(row);
    if (!tmp) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory");
    for (int y = 0; y < r->height / 2; y++) {
        uint8_t* a = out + (size_t)y * row;
        uint8_t* b = out + (size_t)(r->height - 1 - y) * row;
        memcpy(tmp, a, row), memcpy(a, b, row), memcpy(b, tmp, row);
    }
    free(tmp);
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

void sw_renderer_get_stats(const sw_renderer* r, sw_renderer_stats* out) {
    *out = (sw_renderer_stats){0};
    if (!r) return;
    *out = r->stats;
    sw_gpu_skinner_get_stats(r->skinner, &out->skin);
}
