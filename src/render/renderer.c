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

#include "post_chain.h"
#include "render_interface.h"
#include "../base/base_internal.h"

/* The public numbers are the shaders' numbers. */
_Static_assert(SW_RENDER_CLASS_BACKGROUND == SW_CLASS_BACKGROUND && SW_RENDER_CLASS_GROUND == SW_CLASS_GROUND &&
                   SW_RENDER_CLASS_LIT == SW_CLASS_LIT && SW_RENDER_CLASS_UNLIT == SW_CLASS_UNLIT &&
                   SW_RENDER_CLASS_MASK == SW_CLASS_MASK,
               "SW_RENDER_CLASS_* (sinew/render.h) must be the SW_CLASS_* of render_interface.h");
_Static_assert(SW_RENDER_VIEW_SHADED == SW_VIEW_SHADED && SW_RENDER_VIEW_NORMALS == SW_VIEW_NORMALS &&
                   SW_RENDER_VIEW_MOTION == SW_VIEW_MOTION && SW_RENDER_VIEW_UV == SW_VIEW_UV &&
                   SW_RENDER_VIEW_WEIGHTS == SW_VIEW_WEIGHTS && SW_RENDER_VIEW_RETENTION == SW_VIEW_RETENTION,
               "sw_render_view (sinew/render.h) must be the SW_VIEW_* of render_interface.h");
/* Toon lighting: the class, its history bit and the material kinds. */
_Static_assert(SW_RENDER_CLASS_TOON == SW_CLASS_TOON && SW_RENDER_CLASS_HISTORY_SPARKLE == SW_CLASS_HISTORY_SPARKLE &&
                   (SW_CLASS_HISTORY_SPARKLE & SW_CLASS_MASK) == 0,
               "SW_RENDER_CLASS_TOON / _HISTORY_SPARKLE (sinew/render.h) must be those of render_interface.h");
_Static_assert((int)SW_TOON_BODY == SW_TOON_KIND_BODY && (int)SW_TOON_HAIR == SW_TOON_KIND_HAIR &&
                   (int)SW_TOON_FACE == SW_TOON_KIND_FACE && (int)SW_TOON_EYE == SW_TOON_KIND_EYE,
               "sw_toon_kind (sinew/toon.h) must be the SW_TOON_KIND_* of render_interface.h");
/* Framebuffers with one colour target keep the default draw buffer, which
   is attachment 0: their passes write output location 0. */
_Static_assert(SW_OUT_COLOR == 0, "the HDR and image framebuffers draw into attachment 0 only");

/* shaders/ and render_interface.h, embedded by cmake/embed_shaders.cmake. */
extern const char sw_shader_render_interface_h[];
extern const char sw_shader_gbuffer_vert[];
extern const char sw_shader_gbuffer_frag[];
extern const char sw_shader_lighting_frag[];
extern const char sw_shader_shadow_vert[];
extern const char sw_shader_shadow_frag[];
extern const char sw_shader_lines_vert[];
extern const char sw_shader_lines_frag[];
extern const char sw_shader_toon_frag[];

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
        {"lines", "frag", sw_shader_lines_frag},          {"toon", "frag", sw_shader_toon_frag},
        /* the post chain (post_chain.c) */
        {"post_velocity", "frag", sw_shader_post_velocity_frag}, {"post_motion_blur", "frag", sw_shader_post_motion_blur_frag},
        {"post_bloom", "frag", sw_shader_post_bloom_frag},       {"post_edges", "frag", sw_shader_post_edges_frag},
        {"post_edge_weights", "frag", sw_shader_post_edge_weights_frag},
        {"post_edge_blend", "frag", sw_shader_post_edge_blend_frag}, {"post_taa", "frag", sw_shader_post_taa_frag},
    };
    for (size_t i = 0; i < sizeof shaders / sizeof shaders[0]; i++) {
        /* One string, exactly what glShaderSource joins. */
        const char* parts[SW__SOURCE_PARTS];
        sw__shader_parts(shaders[i].body, parts);
        size_t lengths[SW__SOURCE_PARTS], size = 1;
        for (int k = 0; k < SW__SOURCE_PARTS; k++) size += lengths[k] = strlen(parts[k]);
        char* source = (char*)sw__malloc(size);
        if (!source) return;
        char* at = source;
        for (int k = 0; k < SW__SOURCE_PARTS; k++) {
            memcpy(at, parts[k], lengths[k]);
            at += lengths[k];
        }
        *at = '\0';
        visit(shaders[i].name, shaders[i].stage, source, user);
        sw__free(source);
    }
}

static sw_result sw__compile(GLenum stage, const char* body, const char* name, GLuint* out, sw_diag* diag) {
    const GLchar* sources[SW__SOURCE_PARTS];
    sw__shader_parts(body, sources);
    return sw_gl_compile_shader(stage, SW__SOURCE_PARTS, sources, name, out, diag);
}

/* Shared with the post chain (post_chain.h). */
sw_result sw__program(const char* vs, const char* fs, const char* name, GLuint* out, sw_diag* diag) {
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
    r = sw_gl_link_program(p, name, diag);
    glDeleteShader(v);
    glDeleteShader(f);
    if (r == SW_OK) *out = p;
    return r;
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
    /* Toon outlines: the instance whose tangent stream holds the outline
       normals (gpu itself when the primitive has no tangents of its own,
       else a second one, made the first time an outline is drawn), and
       the outline normals (x, y, z, 0 per vertex; NULL for points and lines). */
    sw_gpu_model_primitive* outline_gpu;
    float* outline_normals;
    /* Crowds: the same for the renderer's crowd_size copies (made on the
       first crowd frame), and what the frame being drawn uses: gpu and
       outline_gpu, or these. */
    sw_gpu_model_primitive* crowd_gpu;
    sw_gpu_model_primitive* crowd_outline_gpu;
    const sw_gpu_model_primitive* drawn;
    const sw_gpu_model_primitive* drawn_outline;
} sw__draw;

struct sw_renderer {
    int width, height, shadow_size;
    /* targets */
    GLuint gbuffer_fbo, lighting_fbo, image_fbo, shadow_fbo;
    GLuint t_normal, t_albedo, t_material, t_class, t_motion, t_depth, t_hdr, t_image, t_shadow;
    /* programs */
    GLuint p_gbuffer, p_shadow, p_lighting, p_lines;
    sw__post_chain* post;     /* display mapping and the rest of the post chain */
    GLuint empty_vao;
    GLuint white_texture, flat_normal_texture;
    sw_gpu_skinner* skinner;
    /* scene */
    const sw_model* asset;
    sw__draw* draws;
    size_t draw_count;
    GLuint* textures;         /* one per model texture, 0 = white */
    GLuint ground_vao, ground_buffer;
    int32_t weight_joint;     /* node the weight buffers hold, -1 = none, SW__WEIGHTS_RETENTION */
    /* GPU time of the skinning (sw_renderer_stats.skin_gpu_ms): one timer
       query per half of a split frame, read when the GPU has answered. */
    GLuint skin_queries[2];
    bool skin_query_pending[2];
    double skin_ms[2];
    /* last frame, for readbacks */
    sw_renderer_stats stats;
    float scene_min[3], scene_max[3];
    bool have_bounds;
    float ground_y;
    /* Toon lighting: per material (one more at the end for primitives
       without one) the toon data as read and as derived, and their ramps
       ([2m] read, [2m + 1] derived); the toon program. */
    GLuint p_toon;
    sw_toon_material* toon;
    sw_toon_material* toon_derived;
    GLuint* toon_ramps;
    int32_t head_node;        /* the node named "head", -1 = none */
    size_t crowd_size;        /* copies the draws' crowd primitives hold, 0 = none made */
};

/* What a draw without a material of its own gets. */
static const sw_model_material sw__fallback_material = {
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

/* The material a draw uses: its own, or the fallback for none. */
static const sw_model_material* sw__material(const sw_renderer* r, const sw__draw* d) {
    const sw_model* a = r->asset;
    return d->prim->material >= 0 && (size_t)d->prim->material < a->material_count ? &a->materials[d->prim->material]
                                                                                    : &sw__fallback_material;
}

GLuint sw__texture2d(GLenum internal, int w, int h, GLenum filter) {
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
    sw_renderer* r = (sw_renderer*)sw__calloc(1, sizeof *r);
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
    if (res == SW_OK) res = sw__program(sw_shader_lines_vert, sw_shader_lines_frag, "lines", &r->p_lines, diag);
    if (res == SW_OK) res = sw__program(sw_shader_gbuffer_vert, sw_shader_toon_frag, "toon", &r->p_toon, diag);
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
    glGenQueries(2, r->skin_queries);
    r->white_texture = sw__solid_texture((const uint8_t[4]){255, 255, 255, 255});
    r->flat_normal_texture = sw__solid_texture((const uint8_t[4]){128, 128, 255, 255});
    if (res == SW_OK) res = sw__post_chain_create(r->width, r->height, &r->post, diag);
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
        if (d->outline_gpu != d->gpu) sw_gpu_model_primitive_destroy(d->outline_gpu);
        sw__free(d->outline_normals);
        sw_gpu_model_primitive_destroy(d->gpu);
        if (d->crowd_outline_gpu != d->crowd_gpu) sw_gpu_model_primitive_destroy(d->crowd_outline_gpu);
        sw_gpu_model_primitive_destroy(d->crowd_gpu);
        glDeleteVertexArrays(1, &d->vao);
        GLuint buffers[3] = {d->static_buffer, d->index_buffer, d->weight_buffer};
        glDeleteBuffers(3, buffers);
    }
    sw__free(r->draws);
    r->draws = NULL;
    r->draw_count = 0;
    r->crowd_size = 0;
    if (r->asset && r->textures) {
        for (size_t i = 0; i < r->asset->texture_count; i++)
            if (r->textures[i]) glDeleteTextures(1, &r->textures[i]);
    }
    sw__free(r->textures);
    r->textures = NULL;
    if (r->asset && r->toon_ramps) glDeleteTextures((GLsizei)(2 * (r->asset->material_count + 1)), r->toon_ramps);
    sw__free(r->toon), sw__free(r->toon_derived), sw__free(r->toon_ramps);
    r->toon = r->toon_derived = NULL;
    r->toon_ramps = NULL;
    r->head_node = -1;
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
    GLuint programs[4] = {r->p_gbuffer, r->p_shadow, r->p_lighting, r->p_lines};
    for (int i = 0; i < 4; i++) glDeleteProgram(programs[i]);
    sw__post_chain_destroy(r->post);
    glDeleteProgram(r->p_toon);
    glDeleteQueries(2, r->skin_queries);
    GLuint fbos[4] = {r->gbuffer_fbo, r->lighting_fbo, r->image_fbo, r->shadow_fbo};
    glDeleteFramebuffers(4, fbos);
    GLuint textures[11] = {r->t_normal, r->t_albedo, r->t_material, r->t_class, r->t_motion, r->t_depth,
                           r->t_hdr, r->t_image, r->t_shadow, r->white_texture, r->flat_normal_texture};
    glDeleteTextures(11, textures);
    glDeleteVertexArrays(1, &r->empty_vao);
    sw_gpu_skinner_destroy(r->skinner);
    sw__free(r);
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
                                   "mesh %d primitive %zu: vertex %zu lies at %g on an axis, beyond the %g model units "
                                   "the renderer can frame (SW_MODEL_MAX_EXTENT)",
                                   (int)m, p, i / 3, (double)prim->positions[i], SW_MODEL_MAX_EXTENT);
            }
        }
    }
    sw__free(seen);
    return SW_OK;
}

/* ---- toon materials: ramps, outline normals, the head ------------------------------ */

/* The toon data a draw gets in `style`, or NULL for the PBR path. Unlit
   materials stay unlit unless they carry toon data themselves. */
static const sw_toon_material* sw__toon_of(const sw_renderer* r, const sw__draw* d, sw_render_style style) {
    if (style == SW_RENDER_STYLE_PBR || !r->toon) return NULL;
    const size_t count = r->asset->material_count;
    const size_t m = d->prim->material >= 0 && (size_t)d->prim->material < count ? (size_t)d->prim->material : count;
    if (r->toon[m].present) return &r->toon[m];
    if (style == SW_RENDER_STYLE_TOON && !sw__material(r, d)->unlit) return &r->toon_derived[m];
    return NULL;
}

/* The ramp texture of one toon material: its own (sRGB, 256 × 20, rows
   as sw_toon_ramp_row), else made from its shade colour. Linear filtering
   without mipmaps and clamped, so a row is read as it is. */
static GLuint sw__ramp_texture(sw_renderer* r, const sw_toon_material* t) {
    const sw_model* a = r->asset;
    uint8_t* pixels = NULL;
    uint8_t* made = NULL;
    const uint8_t* rgba = NULL;
    int w = SW_TOON_RAMP_WIDTH, h = SW_TOON_RAMP_HEIGHT;
    int32_t index = t->ramp_texture.texture;
    if (index >= 0 && (size_t)index < a->texture_count && a->textures[index].image >= 0) {
        sw_diag ignored;
        if (sw_model_decode_image(a, (size_t)a->textures[index].image, &pixels, &w, &h, &ignored) == SW_OK) rgba = pixels;
        else r->stats.texture_failures++;
    }
    if (!rgba) {
        w = SW_TOON_RAMP_WIDTH, h = SW_TOON_RAMP_HEIGHT;
        made = (uint8_t*)sw__malloc((size_t)w * (size_t)h * 4);
        if (!made) return 0; /* the blank texture then: white, a lit dark side */
        sw_toon_ramp_from_shade(t->shade_color, t->shading_shift, t->shading_toony, made);
        rgba = made;
    }
    GLuint tex;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_SRGB8_ALPHA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    sw_model_image_free(pixels);
    sw__free(made);
    return tex;
}

static bool sw__is_triangles(sw_model_mode mode) {
    return mode == SW_MODEL_TRIANGLES || mode == SW_MODEL_TRIANGLE_STRIP || mode == SW_MODEL_TRIANGLE_FAN;
}

/* The vertex of corner c (0..2) of triangle k, for the triangle modes. */
static size_t sw__corner(const sw_model_primitive* p, size_t k, int c) {
    size_t e;
    if (p->mode == SW_MODEL_TRIANGLES) e = 3 * k + (size_t)c;
    else if (p->mode == SW_MODEL_TRIANGLE_STRIP) e = k + (size_t)((k & 1) && c < 2 ? 1 - c : c);
    else e = c == 0 ? 0 : k + (size_t)c;
    return p->indices ? p->indices[e] : e;
}

/* One position's bits, -0 as +0: equal positions hash alike. */
static uint32_t sw__position_hash(const float* p) {
    uint32_t h = 2166136261u;
    for (int i = 0; i < 3; i++) {
        float x = p[i] == 0.0f ? 0.0f : p[i];
        uint32_t bits;
        memcpy(&bits, &x, sizeof bits);
        h = (h ^ bits) * 16777619u;
    }
    return h ^ (h >> 15);
}

/* Outline normals of a triangle primitive: at every vertex the normalised
   sum of the (unit) normals of all vertices at the same position, so that
   the hull stays closed where the mesh splits vertices at hard edges and
   UV seams. Without normals, the area-weighted face normals around each
   vertex stand in. Returns vertex_count × 4 floats (w = 1, the tangent
   handedness the skinner keeps), or NULL for points and lines or when out
   of memory (no outline then). */
static float* sw__outline_normals(const sw_model_primitive* p) {
    const size_t n = p->vertex_count;
    if (!sw__is_triangles(p->mode) || n == 0) return NULL;
    size_t capacity = 16;
    while (capacity < 2 * n) capacity *= 2;
    float* normal = (float*)sw__calloc(n * 3, sizeof(float));
    float* sum = (float*)sw__calloc(n * 3, sizeof(float));
    uint32_t* slot = (uint32_t*)sw__malloc(capacity * sizeof(uint32_t));
    uint32_t* group = (uint32_t*)sw__malloc(n * sizeof(uint32_t));
    float* out = (float*)sw__malloc(n * 4 * sizeof(float));
    if (!normal || !sum || !slot || !group || !out || n > UINT32_MAX - 1) {
        sw__free(normal), sw__free(sum), sw__free(slot), sw__free(group), sw__free(out);
        return NULL;
    }
    if (p->normals) {
        memcpy(normal, p->normals, n * 3 * sizeof(float));
    } else {
        size_t elements = p->indices ? p->index_count : n;
        size_t triangles = p->mode == SW_MODEL_TRIANGLES ? elements / 3 : (elements >= 3 ? elements - 2 : 0);
        for (size_t k = 0; k < triangles; k++) {
            size_t v[3] = {sw__corner(p, k, 0), sw__corner(p, k, 1), sw__corner(p, k, 2)};
            if (v[0] >= n || v[1] >= n || v[2] >= n) continue;
            sw_vec3 a = sw__v3(p->positions + 3 * v[0]), b = sw__v3(p->positions + 3 * v[1]),
                    c = sw__v3(p->positions + 3 * v[2]);
            sw_vec3 face = sw_vec3_cross(sw_vec3_sub(b, a), sw_vec3_sub(c, a));
            for (int i = 0; i < 3; i++) {
                normal[3 * v[i]] += face.x, normal[3 * v[i] + 1] += face.y, normal[3 * v[i] + 2] += face.z;
            }
        }
    }
    /* Vertices grouped by position (open addressing); each group sums its unit normals. */
    memset(slot, 0xFF, capacity * sizeof(uint32_t));
    for (size_t v = 0; v < n; v++) {
        const float* pos = p->positions + 3 * v;
        size_t h = sw__position_hash(pos) & (capacity - 1);
        while (slot[h] != UINT32_MAX) {
            const float* q = p->positions + 3 * (size_t)slot[h];
            if (q[0] == pos[0] && q[1] == pos[1] && q[2] == pos[2]) break;
            h = (h + 1) & (capacity - 1);
        }
        if (slot[h] == UINT32_MAX) slot[h] = (uint32_t)v;
        group[v] = slot[h];
        sw_vec3 u = sw__v3(normal + 3 * v);
        float length = sw_vec3_length(u);
        if (length > 1e-20f)
            for (int i = 0; i < 3; i++) sum[3 * (size_t)group[v] + (size_t)i] += normal[3 * v + (size_t)i] / length;
    }
    for (size_t v = 0; v < n; v++) {
        sw_vec3 s = sw__v3(sum + 3 * (size_t)group[v]);
        float length = sw_vec3_length(s);
        s = length > 1e-6f ? sw_vec3_scale(s, 1.0f / length) : sw_vec3_make(0, 0, 0);
        out[4 * v] = s.x, out[4 * v + 1] = s.y, out[4 * v + 2] = s.z, out[4 * v + 3] = 1.0f;
    }
    sw__free(normal), sw__free(sum), sw__free(slot), sw__free(group);
    return out;
}

/* Whether `name` is `word`, or ends with it, ignoring ASCII case. */
static bool sw__name_ends_with(const char* name, const char* word, bool exact) {
    if (!name) return false;
    size_t n = strlen(name), w = strlen(word);
    if (n < w || (exact && n != w)) return false;
    for (size_t i = 0; i < w; i++) {
        char c = name[n - w + i];
        if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
        if (c != word[i]) return false;
    }
    return true;
}

/* The head joint for face materials whose head_node is -1: the node named
   "head" (any case), else the first whose name ends in "head". */
static int32_t sw__find_head(const sw_model* a) {
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < a->node_count; i++)
            if (sw__name_ends_with(a->nodes[i].name, "head", pass == 0)) return (int32_t)i;
    return -1;
}

/* Reads and derives every material's toon data and makes their ramps. */
static sw_result sw__prepare_toon(sw_renderer* r, sw_diag* diag) {
    const sw_model* a = r->asset;
    const size_t count = a->material_count;
    r->toon = (sw_toon_material*)sw__calloc(count + 1, sizeof(sw_toon_material));
    r->toon_derived = (sw_toon_material*)sw__calloc(count + 1, sizeof(sw_toon_material));
    r->toon_ramps = (GLuint*)sw__calloc(2 * (count + 1), sizeof(GLuint));
    if (!r->toon || !r->toon_derived || !r->toon_ramps)
        return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for %zu toon materials", count);
    sw_result res = sw_toon_read(a, r->toon, diag);
    if (res != SW_OK) return res;
    sw_toon_defaults(SW_TOON_BODY, &r->toon[count]);
    for (size_t m = 0; m <= count; m++) {
        sw_toon_derive(m < count ? &a->materials[m] : &sw__fallback_material, &r->toon_derived[m]);
        if (r->toon[m].present) r->toon_ramps[2 * m] = sw__ramp_texture(r, &r->toon[m]);
        r->toon_ramps[2 * m + 1] = sw__ramp_texture(r, &r->toon_derived[m]);
    }
    r->head_node = sw__find_head(a);
    return SW_OK;
}

sw_result sw_renderer_set_toon_material(sw_renderer* r, uint32_t material, const sw_toon_material* toon,
                                        sw_diag* diag) {
    if (!r || !toon || !r->asset || !r->toon)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "NULL renderer or toon material, or no scene");
    if (material >= r->asset->material_count)
        return sw_diag_set(diag, SW_ERR_INDEX_OUT_OF_RANGE, material, "toon material %u: the model has %zu materials",
                           material, r->asset->material_count);
    r->toon[material] = *toon;
    glDeleteTextures(1, &r->toon_ramps[2 * (size_t)material]);
    r->toon_ramps[2 * (size_t)material] = toon->present ? sw__ramp_texture(r, toon) : 0;
    return sw_gl_check("setting a toon material", diag);
}

sw_result sw_renderer_set_scene(sw_renderer* r, const sw_model* asset, sw_diag* diag) {
    if (!r || !asset) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "NULL renderer or asset");
    sw__clear_scene(r);
    sw_result checked = sw__check_extent(asset, diag);
    if (checked != SW_OK) return checked;
    r->asset = asset;
    r->textures = (GLuint*)sw__calloc(asset->texture_count + 1, sizeof(GLuint));
    size_t count = 0;
    for (size_t n = 0; n < asset->node_count; n++)
        if (asset->nodes[n].mesh >= 0) count += asset->meshes[asset->nodes[n].mesh].primitive_count;
    r->draws = (sw__draw*)sw__calloc(count + 1, sizeof(sw__draw));
    if (!r->textures || !r->draws) {
        sw__clear_scene(r);
        return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for %zu primitives", count);
    }
    /* Textures: base colour and emissive are sRGB, the others linear. */
    bool* srgb = (bool*)sw__calloc(asset->texture_count + 1, sizeof(bool));
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
    sw__free(srgb);

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
            /* Outline normals ride in the tangent stream (toon shading uses
               no vertex tangents): in this instance when the primitive has
               none, else in a second one made when first drawn. */
            d->outline_normals = sw__outline_normals(prim);
            sw_result res;
            if (d->outline_normals && !prim->tangents) {
                res = sw_gpu_model_primitive_create_tangents(r->skinner, asset, n, p, d->outline_normals, &d->gpu, diag);
                d->outline_gpu = d->gpu;
            } else {
                res = sw_gpu_model_primitive_create(r->skinner, asset, n, p, &d->gpu, diag);
            }
            if (res != SW_OK) {
                sw__free(d->outline_normals); /* not counted yet: sw__clear_scene would miss it */
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
    sw_result res = sw__prepare_toon(r, diag);
    if (res != SW_OK) {
        sw__clear_scene(r);
        return res;
    }
    glGenVertexArrays(1, &r->ground_vao);
    glGenBuffers(1, &r->ground_buffer);
    res = sw_gl_check("preparing the scene", diag);
    if (res != SW_OK) sw__clear_scene(r); /* no half-made scene stays behind */
    return res;
}

static void sw__ground_geometry(sw_renderer* r, const float lo[3], const float hi[3]);

/* weight_joint when the weight buffers hold the retention view's values. */
#define SW__WEIGHTS_RETENTION (-2)

/* Uploads one draw's per-vertex values into its weight buffer, the
   attribute SW_ATTR_WEIGHT reads. */
static void sw__upload_weights(sw__draw* d, const float* values) {
    if (!d->weight_buffer) glGenBuffers(1, &d->weight_buffer);
    glBindBuffer(GL_ARRAY_BUFFER, d->weight_buffer);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(d->prim->vertex_count * 4), values, GL_STREAM_DRAW);
    glBindVertexArray(d->vao);
    glBindVertexBuffer(SW_ATTR_WEIGHT, d->weight_buffer, 0, 4);
    glEnableVertexAttribArray(SW_ATTR_WEIGHT);
    glBindVertexArray(0);
}

/* The rotation in a skin matrix: the orthogonal polar factor of its 3×3,
   by Newton's iteration X ← (X + X⁻ᵀ) / 2 (a rotation is its own factor;
   scale and shear drop out). X⁻ᵀ is the cofactor matrix over the
   determinant. A singular matrix gives the identity. */
static void sw__polar_rotation(const sw_mat34* m, double out[9]) {
    double x[9];
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) x[3 * r + c] = m->m[r][c];
    for (int iteration = 0; iteration < 30; iteration++) {
        const double cof[9] = {
            x[4] * x[8] - x[5] * x[7], x[5] * x[6] - x[3] * x[8], x[3] * x[7] - x[4] * x[6],
            x[2] * x[7] - x[1] * x[8], x[0] * x[8] - x[2] * x[6], x[1] * x[6] - x[0] * x[7],
            x[1] * x[5] - x[2] * x[4], x[2] * x[3] - x[0] * x[5], x[0] * x[4] - x[1] * x[3],
        };
        const double det = x[0] * cof[0] + x[1] * cof[1] + x[2] * cof[2];
        if (!(fabs(det) > 1e-30) || !isfinite(det)) {
            for (int k = 0; k < 9; k++) x[k] = k % 4 == 0 ? 1.0 : 0.0;
            break;
        }
        double change = 0.0;
        for (int k = 0; k < 9; k++) {
            const double next = 0.5 * (x[k] + cof[k] / det);
            change += fabs(next - x[k]);
            x[k] = next;
        }
        if (change < 1e-13) break;
    }
    memcpy(out, x, sizeof x);
}

/* The smallest singular value of a 3×3 matrix: the square root of the
   smallest eigenvalue of MᵀM, by the closed form for symmetric 3×3
   matrices (trigonometric solution of the characteristic cubic). */
static double sw__smallest_singular_value(const double m[9]) {
    double a[3][3];
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) a[r][c] = m[r] * m[c] + m[3 + r] * m[3 + c] + m[6 + r] * m[6 + c];
    const double off = a[0][1] * a[0][1] + a[0][2] * a[0][2] + a[1][2] * a[1][2];
    const double q = (a[0][0] + a[1][1] + a[2][2]) / 3.0;
    const double d0 = a[0][0] - q, d1 = a[1][1] - q, d2 = a[2][2] - q;
    const double p = sqrt((d0 * d0 + d1 * d1 + d2 * d2 + 2.0 * off) / 6.0);
    double smallest = q;
    if (p > 1e-300) {
        const double b00 = d0 / p, b11 = d1 / p, b22 = d2 / p, b01 = a[0][1] / p, b02 = a[0][2] / p,
                     b12 = a[1][2] / p;
        double half_det = 0.5 * (b00 * (b11 * b22 - b12 * b12) - b01 * (b01 * b22 - b12 * b02) +
                                 b02 * (b01 * b12 - b11 * b02));
        half_det = half_det < -1.0 ? -1.0 : half_det > 1.0 ? 1.0 : half_det;
        smallest = q + 2.0 * p * cos(acos(half_det) / 3.0 + 2.0 * 3.14159265358979323846 / 3.0);
    }
    return sqrt(smallest > 0.0 ? smallest : 0.0);
}

/* The retention view's values (SW_RENDER_VIEW_RETENTION in sinew/render.h)
   at this pose, into every draw's weight buffer. */
static sw_result sw__retention_buffers(sw_renderer* r, const sw_pose* pose, sw_diag* diag) {
    const sw_model* a = r->asset;
    r->weight_joint = -1; /* as for the weights: trusted once all are in */
    double* rotations = (double*)sw__malloc((a->skin_joint_count + 1) * 9 * sizeof(double));
    if (!rotations) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for joint rotations");
    for (size_t j = 0; j < a->skin_joint_count; j++) sw__polar_rotation(&pose->skin_matrices[j], rotations + 9 * j);
    for (size_t i = 0; i < r->draw_count; i++) {
        sw__draw* d = &r->draws[i];
        const sw_model_primitive* p = d->prim;
        const sw_model_node* node = &a->nodes[d->node];
        float* kept = (float*)sw__malloc((p->vertex_count + 1) * sizeof(float));
        if (!kept) {
            sw__free(rotations);
            return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for retention values");
        }
        const bool skinned = node->skin >= 0 && p->influence_count > 0;
        const sw_model_skin* skin = skinned ? &a->skins[node->skin] : NULL;
        for (size_t v = 0; v < p->vertex_count; v++) {
            double sum[9] = {0};
            int used = 0;
            for (int k = 0; skinned && k < p->influence_count; k++) {
                const size_t slot = v * (size_t)p->influence_count + (size_t)k;
                const float w = p->weights[slot];
                const uint16_t j = p->joints[slot];
                if (!(w > 0.0f) || j >= skin->joint_count) continue;
                const double* rot = rotations + 9 * (skin->palette_offset + j);
                for (int e = 0; e < 9; e++) sum[e] += (double)w * rot[e];
                used++;
            }
            kept[v] = used < 2 ? 1.0f : (float)sw__smallest_singular_value(sum);
        }
        sw__upload_weights(d, kept);
        sw__free(kept);
    }
    sw__free(rotations);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    r->weight_joint = SW__WEIGHTS_RETENTION;
    return sw_gl_check("uploading retention values", diag);
}

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
        float* w = (float*)sw__calloc(p->vertex_count, sizeof(float));
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
        sw__free(w);
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
        float* p = (float*)sw__malloc(n * 12);
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
        sw__free(p);
        if (res != SW_OK) return res;
    }
    if (!any) return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "the scene has no vertex to draw");
    memcpy(out_min, lo, sizeof lo);
    memcpy(out_max, hi, sizeof hi);
    return SW_OK;
}

/* Binds a material's textures to their slots (blank ones where it has
   none) and fills each slot's UV transform and set; returns whether a
   normal texture is bound. */
static bool sw__bind_slots(const sw_renderer* r, const sw_model_material* m,
                           float transforms[SW_MATERIAL_SLOT_COUNT][9], GLint sets[SW_MATERIAL_SLOT_COUNT]) {
    const sw_model* a = r->asset;
    const sw_model_texture_ref* refs[SW_MATERIAL_SLOT_COUNT] = {
        [SW_MATERIAL_SLOT_BASE_COLOR] = &m->base_color_texture,
        [SW_MATERIAL_SLOT_NORMAL] = &m->normal_texture,
        [SW_MATERIAL_SLOT_METALLIC_ROUGHNESS] = &m->metallic_roughness_texture,
        [SW_MATERIAL_SLOT_OCCLUSION] = &m->occlusion_texture,
        [SW_MATERIAL_SLOT_EMISSIVE] = &m->emissive_texture,
    };
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
    return normal_map;
}

/* Uniforms of one material (SW_GBUFFER_LOC_*, gbuffer.frag), textures
   bound. `flags` holds the frame's SW_GBUFFER_FLAG_* bits. */
static void sw__bind_material(const sw_renderer* r, const sw__draw* d, int flags) {
    const sw_model_material* m = sw__material(r, d);
    float transforms[SW_MATERIAL_SLOT_COUNT][9];
    GLint sets[SW_MATERIAL_SLOT_COUNT];
    const bool normal_map = sw__bind_slots(r, m, transforms, sets);
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

/* Draws one primitive from the buffers of `gpu` (the draw's instance, or
   its outline instance), every copy of a crowd: with `instanced` in one
   instanced draw (the program is the G-buffer or toon one: gbuffer.vert
   reads copy gl_InstanceID's vertices from the skinned buffers), else copy
   after copy from the attributes (the shadow program). */
static void sw__draw_copies(const sw__draw* d, const sw_gpu_model_primitive* gpu, bool instanced) {
    sw_gpu_instance_buffers b;
    sw_gpu_instance_get_buffers(sw_gpu_model_primitive_instance(gpu), &b);
    const size_t n = b.vertex_count, copies = b.instance_count > 1 ? b.instance_count : 1;
    glBindVertexArray(d->vao);
    if (!d->prim->colors) glVertexAttrib4f(SW_ATTR_COLOR, 1, 1, 1, 1);
    if (!d->weight_buffer) glVertexAttrib1f(SW_ATTR_WEIGHT, 0.0f);
    const bool together = copies > 1 && instanced;
    for (size_t c = 0; c < (together ? 1 : copies); c++) {
        /* Copy c's vertices: c · n further along each stream. */
        glBindVertexBuffer(SW_ATTR_POSITION, b.positions, (GLintptr)(c * n * 12), 12);
        glBindVertexBuffer(SW_ATTR_PREVIOUS_POSITION, b.previous_positions, (GLintptr)(c * n * 12), 12);
        if (b.normals_offset != SIZE_MAX)
            glBindVertexBuffer(SW_ATTR_NORMAL, b.normals_tangents, (GLintptr)(b.normals_offset + c * n * 12), 12);
        if (b.tangents_offset != SIZE_MAX)
            glBindVertexBuffer(SW_ATTR_TANGENT, b.normals_tangents, (GLintptr)(b.tangents_offset + c * n * 16), 16);
        if (!together) {
            if (d->index_buffer) glDrawElements(d->mode, (GLsizei)d->prim->index_count, GL_UNSIGNED_INT, NULL);
            else glDrawArrays(d->mode, 0, (GLsizei)d->prim->vertex_count);
        }
    }
    if (!together) return;
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SW_CROWD_BUFFER_POSITIONS, b.positions);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SW_CROWD_BUFFER_PREVIOUS, b.previous_positions);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SW_CROWD_BUFFER_FRAMES, b.normals_tangents ? b.normals_tangents : b.positions);
    glUniform1i(SW_GBUFFER_LOC_CROWD_VERTICES, (GLint)n);
    glUniform2i(SW_GBUFFER_LOC_CROWD_FRAMES, b.normals_offset == SIZE_MAX ? -1 : (GLint)(b.normals_offset / 4),
                b.tangents_offset == SIZE_MAX ? -1 : (GLint)(b.tangents_offset / 4));
    if (d->index_buffer)
        glDrawElementsInstanced(d->mode, (GLsizei)d->prim->index_count, GL_UNSIGNED_INT, NULL, (GLsizei)copies);
    else
        glDrawArraysInstanced(d->mode, 0, (GLsizei)d->prim->vertex_count, (GLsizei)copies);
    glUniform1i(SW_GBUFFER_LOC_CROWD_VERTICES, 0);
}

static void sw__draw_instance(const sw__draw* d, const sw_gpu_model_primitive* gpu) { sw__draw_copies(d, gpu, true); }

static void sw__draw_primitive(const sw__draw* d) { sw__draw_instance(d, d->drawn ? d->drawn : d->gpu); }

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
static void sw__light(const float lo[3], const float hi[3], const float towards[3], sw_vec3* direction,
                      sw_mat4* view_projection) {
    /* The frame's direction when it gives one (sw_render_frame.light_direction). */
    sw_vec3 given = sw__v3(towards);
    const sw_vec3 d = sw_vec3_length(given) > 1e-6f ? sw_vec3_normalize(given)
                                                    : sw_vec3_normalize(sw_vec3_make(-0.45f, 0.8f, 0.55f));
    *direction = d;
    sw_vec3 center = sw_vec3_scale(sw_vec3_add(sw__v3(lo), sw__v3(hi)), 0.5f);
    float radius = 0.0f;
    for (int i = 0; i < 3; i++) radius = fmaxf(radius, hi[i] - lo[i]);
    radius *= 1.5f;
    sw_vec3 eye = sw_vec3_add(center, sw_vec3_scale(d, radius * 2));
    sw_mat4 view = sw__look_at(eye, center, fabsf(d.y) > 0.999f ? sw_vec3_make(0, 0, 1) : sw_vec3_make(0, 1, 0));
    sw_mat4 proj = sw__ortho(-radius, radius, -radius, radius, 0.01f, radius * 4);
    *view_projection = sw_mat4_mul(&proj, &view);
}

/* ---- the toon pass ----------------------------------------------------------------- */

/* The toon light: the scene light's colour normalised to 1 in red (a
   shade of 1 shows the base colour as it is), and a hemisphere ambient of
   the lighting pass's sky and ground colours at this scale, so that the
   dark side keeps some colour. */
static const float sw__toon_light_color[3] = {1.0f, 2.5f / 2.6f, 2.35f / 2.6f};
static const float sw__toon_ambient = 0.3f;

static GLuint sw__texture_of(const sw_renderer* r, const sw_model_texture_ref* ref) {
    const sw_model* a = r->asset;
    return ref->texture >= 0 && (size_t)ref->texture < a->texture_count ? r->textures[ref->texture] : 0;
}

/* Skins the outline instances the frame needs, making each the first time. */
static sw_result sw__skin_outlines(sw_renderer* r, const sw_render_frame* f, sw_skin_method method, sw_diag* diag) {
    sw_gpu_skin_desc desc = {.method = method == SW_SKIN_DQS ? SW_SKIN_DQS : SW_SKIN_LBS};
    for (size_t i = 0; i < r->draw_count; i++) {
        sw__draw* d = &r->draws[i];
        const sw_toon_material* t = sw__toon_of(r, d, f->style);
        if (!t || !t->outline || !d->outline_normals || d->outline_gpu == d->gpu) continue;
        sw_result res = SW_OK;
        if (!d->outline_gpu)
            res = sw_gpu_model_primitive_create_tangents(r->skinner, r->asset, d->node, d->primitive,
                                                         d->outline_normals, &d->outline_gpu, diag);
        if (res == SW_OK) res = sw_gpu_model_primitive_pose(d->outline_gpu, f->pose, diag);
        if (res == SW_OK) res = sw_gpu_model_primitive_skin(r->skinner, d->outline_gpu, &desc, NULL, diag);
        if (res != SW_OK) return res;
    }
    return SW_OK;
}

/* The unit axes of a node's world matrix (right, up, forward) and its origin. */
static void sw__node_frame(const sw_pose* pose, int32_t node, float axes[3][3], float origin[3]) {
    const sw_mat34* m = &pose->world[node];
    for (int c = 0; c < 3; c++) {
        sw_vec3 a = sw_vec3_make(m->m[0][c], m->m[1][c], m->m[2][c]);
        float length = sw_vec3_length(a);
        a = length > 1e-12f ? sw_vec3_scale(a, 1.0f / length) : sw_vec3_make(c == 0, c == 1, c == 2);
        axes[c][0] = a.x, axes[c][1] = a.y, axes[c][2] = a.z;
        origin[c] = m->m[c][3];
    }
}

/* The head joint's frame for toon data t on draw d: the material's joint,
   else the model's "head", else the draw's own node. */
static void sw__head_frame(const sw_renderer* r, const sw__draw* d, const sw_render_frame* f, const sw_toon_material* t,
                           float axes[3][3], float origin[3]) {
    int32_t head = t->head_node >= 0 && (size_t)t->head_node < r->asset->node_count ? t->head_node : r->head_node;
    if (head < 0) head = (int32_t)d->node;
    sw__node_frame(f->pose, head, axes, origin);
}

/* Whether draw d folds its tagged vertices (a tag set it has, 0 or 1). */
static bool sw__folds(const sw__draw* d, const sw_toon_material* t) {
    return t->fold_tag_mask != 0 && t->fold_uv_set >= 0 && t->fold_uv_set < d->prim->texcoord_count &&
           t->fold_uv_set <= 1;
}

/* Uniforms and textures of one toon draw (toon.frag, gbuffer.vert), and
   the face culling it needs: back faces culled, none for double-sided
   materials, front faces for the outline hull. */
static void sw__bind_toon(const sw_renderer* r, const sw__draw* d, const sw_render_frame* f, const sw_toon_material* t,
                          int flags, bool outline) {
    /* The toon normal map (B glint mask, A hair tier) replaces the core one. */
    sw_model_material toon_slots = *sw__material(r, d);
    if (t->normal_texture.texture >= 0 && (size_t)t->normal_texture.texture < r->asset->texture_count)
        toon_slots.normal_texture = t->normal_texture;
    const sw_model_material* m = &toon_slots;
    float transforms[SW_MATERIAL_SLOT_COUNT][9];
    GLint sets[SW_MATERIAL_SLOT_COUNT];
    const bool normal_map = sw__bind_slots(r, m, transforms, sets);
    glUniform4fv(SW_GBUFFER_LOC_BASE_COLOR, 1, m->base_color_factor);
    glUniform3fv(SW_GBUFFER_LOC_EMISSIVE, 1, m->emissive_factor);
    glUniform1f(SW_GBUFFER_LOC_NORMAL_SCALE, m->normal_texture.scale);
    glUniform1f(SW_GBUFFER_LOC_ALPHA_CUTOFF, m->alpha_mode == SW_MODEL_ALPHA_OPAQUE ? -1.0f
                                             : m->alpha_mode == SW_MODEL_ALPHA_MASK ? m->alpha_cutoff
                                                                                   : 0.5f);
    int gflags = flags | (d->prim->normals ? SW_GBUFFER_FLAG_NORMALS : 0) |
                 (normal_map ? SW_GBUFFER_FLAG_NORMAL_TEXTURE : 0) | (m->double_sided ? SW_GBUFFER_FLAG_DOUBLE_SIDED : 0);
    glUniform1i(SW_GBUFFER_LOC_FLAGS, gflags);
    glUniformMatrix3fv(SW_GBUFFER_LOC_UV_TRANSFORM, SW_MATERIAL_SLOT_COUNT, GL_FALSE, &transforms[0][0]);
    glUniform1iv(SW_GBUFFER_LOC_UV_SET, SW_MATERIAL_SLOT_COUNT, sets);

    /* Textures: the ramp ([2m] as read, [2m + 1] derived), then the maps. */
    const size_t count = r->asset->material_count;
    const size_t mi = d->prim->material >= 0 && (size_t)d->prim->material < count ? (size_t)d->prim->material : count;
    const GLuint ramp = r->toon_ramps[2 * mi + (t == &r->toon_derived[mi] ? 1 : 0)];
    const struct { int unit; GLuint texture; int flag; } maps[] = {
        {SW_TOON_UNIT_RAMP, ramp, 0},
        {SW_TOON_UNIT_CONTROL, sw__texture_of(r, &t->control_texture), SW_TOON_FLAG_CONTROL},
        {SW_TOON_UNIT_DETAIL_NORMAL, sw__texture_of(r, &t->detail_normal_texture), SW_TOON_FLAG_DETAIL},
        {SW_TOON_UNIT_FACE_SDF, sw__texture_of(r, &t->face_sdf_texture), SW_TOON_FLAG_FACE_SDF},
        {SW_TOON_UNIT_RIM_MASK, sw__texture_of(r, &t->rim_mask_texture), SW_TOON_FLAG_RIM_MASK},
        {SW_TOON_UNIT_MATCAP, sw__texture_of(r, &t->matcap_texture), SW_TOON_FLAG_MATCAP},
    };
    int toon_flags = 0;
    for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++) {
        glActiveTexture(GL_TEXTURE0 + (GLenum)maps[i].unit);
        glBindTexture(GL_TEXTURE_2D, maps[i].texture ? maps[i].texture : r->white_texture);
        if (maps[i].texture) toon_flags |= maps[i].flag;
    }
    static const int region_flags[SW_TOON_REGION_COUNT] = {0, SW_TOON_FLAG_REGION_2, SW_TOON_FLAG_REGION_3,
                                                           SW_TOON_FLAG_REGION_4, SW_TOON_FLAG_REGION_5};
    for (int g = 1; g < SW_TOON_REGION_COUNT; g++)
        if (t->region_enabled[g]) toon_flags |= region_flags[g];
    toon_flags |= (t->vertex_color_threshold ? SW_TOON_FLAG_VERTEX_THRESHOLD : 0) |
                  (t->vertex_color_width ? SW_TOON_FLAG_VERTEX_WIDTH : 0) | (t->back_uv1 ? SW_TOON_FLAG_BACK_UV1 : 0) |
                  (t->back_force_dark ? SW_TOON_FLAG_BACK_DARK : 0) | (t->sdf_mirror ? SW_TOON_FLAG_SDF_MIRROR : 0) |
                  (outline ? SW_TOON_FLAG_OUTLINE : 0) | SW_TOON_FLAG_SHADOW;
    glUniform1i(SW_TOON_LOC_FLAGS, toon_flags);
    glUniform1i(SW_TOON_LOC_KIND, (int)t->kind);
    glUniform4f(SW_TOON_LOC_SHADOW_AREA, t->light_area, t->ramp_width, t->detail_gate, t->fade);
    const int uv_sets[4] = {t->control_texture.texcoord == 1, t->detail_normal_texture.texcoord == 1,
                            t->face_sdf_texture.texcoord == 1, t->rim_mask_texture.texcoord == 1};
    glUniform4iv(SW_TOON_LOC_UV_SETS, 1, uv_sets);
    glUniform3f(SW_TOON_LOC_UV_ANIMATION, t->uv_scroll[0], t->uv_scroll[1], t->uv_rotation);
    float glint[2][4] = {{0}}, glint_params[2][4] = {{0}}, glint_color[2][3] = {{0}};
    const int glints = t->glint_count < 0 ? 0 : t->glint_count > 2 ? 2 : t->glint_count;
    for (int j = 0; j < glints; j++) {
        const sw_toon_glint* g = &t->glints[j];
        const float a[4] = {g->grid, g->spot_scale, g->phase_rate, g->active_width};
        const float b[4] = {g->intensity, g->luma_lerp, g->camera_scale, 0.0f};
        memcpy(glint[j], a, sizeof a), memcpy(glint_params[j], b, sizeof b), memcpy(glint_color[j], g->color, sizeof g->color);
    }
    glUniform4fv(SW_TOON_LOC_GLINT, 2, &glint[0][0]);
    glUniform4fv(SW_TOON_LOC_GLINT_PARAMS, 2, &glint_params[0][0]);
    glUniform3fv(SW_TOON_LOC_GLINT_COLOR, 2, &glint_color[0][0]);
    glUniform1i(SW_TOON_LOC_GLINT_COUNT, glints);
    const float bands[2][4] = {{t->band_exponent[0], t->band_lower[0], t->band_upper[0], t->band_intensity[0]},
                               {t->band_exponent[1], t->band_lower[1], t->band_upper[1], t->band_intensity[1]}};
    glUniform4fv(SW_TOON_LOC_HAIR_BAND, 2, &bands[0][0]);
    glUniform3fv(SW_TOON_LOC_HAIR_BAND_COLOR, 2, &t->band_color[0][0]);
    glUniform1f(SW_TOON_LOC_VIEW_LIFT, t->view_lift);
    glUniform3fv(SW_TOON_LOC_RIM_COLOR, 1, t->rim_color);
    glUniform3f(SW_TOON_LOC_RIM, t->rim_width, t->rim_power, t->rim_lift);
    glUniform2f(SW_TOON_LOC_FACE, t->sdf_steepness, t->sdf_offset);
    glUniform3fv(SW_TOON_LOC_OUTLINE_COLOR, 1, t->outline_color);
    glUniform3f(SW_TOON_LOC_IRIS, t->matcap_mix, t->parallax_height, t->iris_radius);

    /* The head joint's frame; folded face vertices go to its origin. */
    float axes[3][3], origin[3];
    sw__head_frame(r, d, f, t, axes, origin);
    glUniform3fv(SW_TOON_LOC_HEAD_RIGHT, 1, axes[0]);
    glUniform3fv(SW_TOON_LOC_HEAD_UP, 1, axes[1]);
    glUniform3fv(SW_TOON_LOC_HEAD_FORWARD, 1, axes[2]);
    const bool fold = sw__folds(d, t);
    glUniform1i(SW_GBUFFER_LOC_VERTEX_FLAGS, (outline ? SW_VERTEX_FLAG_OUTLINE : 0) | (fold ? SW_VERTEX_FLAG_FOLD : 0));
    glUniform1i(SW_GBUFFER_LOC_FOLD_MASK, (GLint)t->fold_tag_mask);
    glUniform1i(SW_GBUFFER_LOC_FOLD_UV_SET, t->fold_uv_set);
    glUniform3fv(SW_GBUFFER_LOC_FOLD_POINT, 1, origin);
    /* Width in pixels at 1080 lines, scaled to this image's height, and
       never thinner than a pixel: below that the hull breaks into dots
       that edge AA and TAA can only smear. */
    const float outline_pixels = t->outline_width * (float)r->height / 1080.0f;
    glUniform4f(SW_GBUFFER_LOC_OUTLINE, outline_pixels > 0.0f ? fmaxf(outline_pixels, 1.0f) : 0.0f,
                t->outline_max_distance,
                (float)r->width, (float)r->height);
    if (outline) {
        glEnable(GL_CULL_FACE);
        glCullFace(GL_FRONT);
    } else {
        glCullFace(GL_BACK);
        if (m->double_sided) glDisable(GL_CULL_FACE);
        else glEnable(GL_CULL_FACE);
    }
}

/* The toon draws of the frame (G-buffer framebuffer bound): the surfaces,
   then the outline hulls behind them. */
static void sw__draw_toon(sw_renderer* r, const sw_render_frame* f, const sw_mat4* vp, const sw_mat4* previous_vp,
                          sw_vec3 light_direction, const sw_mat4* light_vp, int flags) {
    glUseProgram(r->p_toon);
    glUniformMatrix4fv(SW_GBUFFER_LOC_VIEW_PROJECTION, 1, GL_FALSE, vp->m);
    glUniformMatrix4fv(SW_GBUFFER_LOC_PREVIOUS_VIEW_PROJECTION, 1, GL_FALSE, f->first_frame ? vp->m : previous_vp->m);
    glUniform3f(SW_TOON_LOC_LIGHT_DIRECTION, light_direction.x, light_direction.y, light_direction.z);
    glUniform3fv(SW_TOON_LOC_LIGHT_COLOR, 1, sw__toon_light_color);
    glUniform3f(SW_TOON_LOC_SKY_COLOR, 0.55f, 0.62f, 0.75f);
    glUniform3f(SW_TOON_LOC_GROUND_COLOR, 0.22f, 0.2f, 0.18f);
    glUniform1f(SW_TOON_LOC_AMBIENT, sw__toon_ambient);
    glUniform3fv(SW_TOON_LOC_EYE, 1, f->camera.eye);
    glUniformMatrix4fv(SW_TOON_LOC_LIGHT_VIEW_PROJECTION, 1, GL_FALSE, light_vp->m);
    glUniform1f(SW_TOON_LOC_SHADOW_TEXEL, 1.0f / (float)r->shadow_size);
    glUniform2f(SW_TOON_LOC_NIGHT_TIME, f->night ? 1.0f : 0.0f, isfinite(f->time) ? f->time : 0.0f);
    glActiveTexture(GL_TEXTURE0 + SW_TOON_UNIT_SHADOW);
    glBindTexture(GL_TEXTURE_2D, r->t_shadow);
    for (int pass = 0; pass < 2; pass++) {
        const bool outline = pass == 1;
        /* The hull a little farther than the surface: where both meet, the surface wins. */
        if (outline) glEnable(GL_POLYGON_OFFSET_FILL), glPolygonOffset(1.0f, 1.0f);
        for (size_t i = 0; i < r->draw_count; i++) {
            const sw__draw* d = &r->draws[i];
            const sw_toon_material* t = sw__toon_of(r, d, f->style);
            if (!t) continue;
            const sw_gpu_model_primitive* gpu = d->drawn;
            if (outline) {
                if (!t->outline || !d->drawn_outline || !(t->outline_width > 0.0f)) continue;
                gpu = d->drawn_outline;
            }
            sw__bind_toon(r, d, f, t, flags, outline);
            glBindVertexArray(d->vao);
            if (d->outline_normals) glEnableVertexAttribArray(SW_ATTR_TANGENT);
            sw__draw_instance(d, gpu);
        }
        if (outline) glDisable(GL_POLYGON_OFFSET_FILL);
    }
    glCullFace(GL_BACK);
}

/* ---- crowds (sw_render_frame.crowd_count) ---------------------------------------- */

/* Every draw's crowd primitive for `count` copies, made again when the
   count changes (outline crowds are made when first needed). */
static sw_result sw__prepare_crowd(sw_renderer* r, size_t count, sw_diag* diag) {
    if (r->crowd_size == count) return SW_OK;
    for (size_t i = 0; i < r->draw_count; i++) {
        sw__draw* d = &r->draws[i];
        if (d->crowd_outline_gpu != d->crowd_gpu) sw_gpu_model_primitive_destroy(d->crowd_outline_gpu);
        sw_gpu_model_primitive_destroy(d->crowd_gpu);
        d->crowd_gpu = d->crowd_outline_gpu = NULL;
    }
    r->crowd_size = 0;
    for (size_t i = 0; i < r->draw_count; i++) {
        sw__draw* d = &r->draws[i];
        /* As the single copy: outline normals in the tangent stream when the primitive has no tangents. */
        const bool shared = d->outline_gpu == d->gpu;
        sw_result res = sw_gpu_model_primitive_create_crowd(r->skinner, r->asset, d->node, d->primitive,
                                                            shared ? d->outline_normals : NULL, count, &d->crowd_gpu,
                                                            diag);
        if (res != SW_OK) return res;
        if (shared) d->crowd_outline_gpu = d->crowd_gpu;
    }
    r->crowd_size = count;
    return SW_OK;
}

/* Poses and skins every copy of every draw, outlines included. */
static sw_result sw__skin_crowd(sw_renderer* r, const sw_render_frame* f, sw_skin_method method, sw_diag* diag) {
    if (!f->crowd_poses) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "a crowd of %zu without poses", f->crowd_count);
    for (size_t i = 0; i < f->crowd_count; i++)
        if (!f->crowd_poses[i] || !f->crowd_poses[i]->world)
            return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, (int64_t)i, "crowd pose %zu is NULL or has no world matrices", i);
    sw_result res = sw__prepare_crowd(r, f->crowd_count, diag);
    sw_gpu_skin_desc desc = {.method = method == SW_SKIN_DQS ? SW_SKIN_DQS : SW_SKIN_LBS};
    for (size_t i = 0; res == SW_OK && i < r->draw_count; i++) {
        sw__draw* d = &r->draws[i];
        res = sw_gpu_model_primitive_pose_crowd(d->crowd_gpu, f->crowd_poses, f->crowd_placements, f->crowd_count, diag);
        if (res == SW_OK) res = sw_gpu_model_primitive_skin(r->skinner, d->crowd_gpu, &desc, NULL, diag);
        const sw_toon_material* t = sw__toon_of(r, d, f->style);
        if (res != SW_OK || !t || !t->outline || !d->outline_normals || d->crowd_outline_gpu == d->crowd_gpu) continue;
        if (!d->crowd_outline_gpu)
            res = sw_gpu_model_primitive_create_crowd(r->skinner, r->asset, d->node, d->primitive, d->outline_normals,
                                                      f->crowd_count, &d->crowd_outline_gpu, diag);
        if (res == SW_OK)
            res = sw_gpu_model_primitive_pose_crowd(d->crowd_outline_gpu, f->crowd_poses, f->crowd_placements,
                                                    f->crowd_count, diag);
        if (res == SW_OK) res = sw_gpu_model_primitive_skin(r->skinner, d->crowd_outline_gpu, &desc, NULL, diag);
    }
    return res;
}

/* The skinned bounds of every copy (read back), as sw_renderer_scene_bounds. */
static sw_result sw__crowd_bounds(sw_renderer* r, float lo[3], float hi[3], sw_diag* diag) {
    for (int c = 0; c < 3; c++) lo[c] = FLT_MAX, hi[c] = -FLT_MAX;
    for (size_t i = 0; i < r->draw_count; i++) {
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

/* What this frame draws: the single copy's instances or the crowd's. */
static void sw__select_draws(sw_renderer* r, bool crowd) {
    for (size_t i = 0; i < r->draw_count; i++) {
        sw__draw* d = &r->draws[i];
        d->drawn = crowd ? d->crowd_gpu : d->gpu;
        d->drawn_outline = crowd ? d->crowd_outline_gpu : d->outline_gpu;
    }
}

static sw_result sw__draw_scene_half(sw_renderer* r, const sw_render_frame* f, sw_skin_method method, int x0, int x1,
                                     const sw_mat4* vp, const sw_mat4* previous_vp, sw_diag* diag) {
    /* Scene bounds for the ground and the light, unless the caller gave a
       box: the skinned positions' bounds of the first drawn frame, kept (a
       ground that follows the feet would slide under a walking character). */
    sw_result res;
    if (!r->have_bounds && !f->crowd_count) { /* a crowd's: once skinned, below */
        float lo[3], hi[3];
        res = sw_renderer_scene_bounds(r, f->pose, lo, hi, diag);
        if (res != SW_OK) return res;
        sw_renderer_set_scene_box(r, lo, hi);
    }
    /* The skinning's GPU time: the last query's result when the GPU has
       it (never waited for), then a new query around this skinning. */
    const int half = x0 == 0 ? 0 : 1;
    GLuint available = 0;
    if (r->skin_query_pending[half]) glGetQueryObjectuiv(r->skin_queries[half], GL_QUERY_RESULT_AVAILABLE, &available);
    if (available) {
        GLuint64 ns = 0;
        glGetQueryObjectui64v(r->skin_queries[half], GL_QUERY_RESULT, &ns);
        r->skin_ms[half] = (double)ns * 1e-6;
        r->skin_query_pending[half] = false;
    }
    const bool timed = !r->skin_query_pending[half];
    if (timed) glBeginQuery(GL_TIME_ELAPSED, r->skin_queries[half]);
    res = f->crowd_count ? sw__skin_crowd(r, f, method, diag) : sw__skin_all(r, f->pose, method, diag);
    if (res == SW_OK && !f->crowd_count) res = sw__skin_outlines(r, f, method, diag);
    if (timed) glEndQuery(GL_TIME_ELAPSED);
    r->skin_query_pending[half] = r->skin_query_pending[half] || timed;
    if (res != SW_OK) return res;
    if (f->crowd_count && !r->have_bounds) {
        float lo[3], hi[3];
        res = sw__crowd_bounds(r, lo, hi, diag);
        if (res != SW_OK) return res;
        sw_renderer_set_scene_box(r, lo, hi);
    }
    sw__select_draws(r, f->crowd_count > 0);
    sw_vec3 light_direction;
    sw_mat4 light_vp;
    sw__light(r->scene_min, r->scene_max, f->light_direction, &light_direction, &light_vp);

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
    /* Toon faces fold here as in the G-buffer pass (same style rule). */
    const sw_render_style shadow_style =
        f->view == SW_RENDER_VIEW_UV || f->view == SW_RENDER_VIEW_WEIGHTS || f->view == SW_RENDER_VIEW_RETENTION
            ? SW_RENDER_STYLE_PBR
            : f->style;
    for (size_t i = 0; i < r->draw_count; i++) {
        const sw__draw* d = &r->draws[i];
        const sw_toon_material* t = sw__toon_of(r, d, shadow_style);
        const bool fold = t && sw__folds(d, t);
        float axes[3][3], origin[3] = {0, 0, 0};
        if (fold) sw__head_frame(r, d, f, t, axes, origin);
        glUniform1i(SW_SHADOW_LOC_FOLD_MASK, fold ? (GLint)t->fold_tag_mask : 0);
        glUniform1i(SW_SHADOW_LOC_FOLD_UV_SET, fold ? t->fold_uv_set : 0);
        glUniform3fv(SW_SHADOW_LOC_FOLD_POINT, 1, origin);
        sw__draw_copies(d, d->drawn, false); /* shadow.vert reads attributes: copy after copy */
    }
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
                (f->view == SW_RENDER_VIEW_WEIGHTS ? SW_GBUFFER_FLAG_VIEW_WEIGHTS : 0) |
                (f->view == SW_RENDER_VIEW_RETENTION ? SW_GBUFFER_FLAG_VIEW_RETENTION : 0) | first_frame;
    glCullFace(GL_BACK);
    glFrontFace(GL_CCW);
    /* Toon materials go through the toon pass, except in the UV and weight
       views (which the G-buffer program draws). */
    sw_render_frame toon_frame = *f;
    if (f->view == SW_RENDER_VIEW_UV || f->view == SW_RENDER_VIEW_WEIGHTS || f->view == SW_RENDER_VIEW_RETENTION)
        toon_frame.style = SW_RENDER_STYLE_PBR;
    size_t toon_draws = 0;
    for (size_t i = 0; i < r->draw_count; i++) {
        if (sw__toon_of(r, &r->draws[i], toon_frame.style)) {
            toon_draws++;
            continue;
        }
        sw__bind_material(r, &r->draws[i], flags);
        sw__draw_primitive(&r->draws[i]);
    }
    if (toon_draws) {
        sw__draw_toon(r, &toon_frame, vp, previous_vp, light_direction, &light_vp, flags);
        glUseProgram(r->p_gbuffer);
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
    float* v = (float*)sw__malloc(joints * 30 * 6 * sizeof(float));
    bool* is_joint = (bool*)sw__calloc(a->node_count + 1, sizeof(bool));
    if (!v || !is_joint) {
        sw__free(v), sw__free(is_joint);
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
    sw__free(v), sw__free(is_joint);
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
    if (f->view == SW_RENDER_VIEW_RETENTION) {
        sw_result res = sw__retention_buffers(r, f->pose, diag);
        if (res != SW_OK) return res;
    }
    if (!f->split) r->skin_ms[1] = 0.0; /* one half's time only */
    const float aspect = (float)r->width / (float)r->height;
    sw_mat4 vp, previous_vp;
    sw_camera_view_projection(&f->camera, aspect, vp.m);
    sw_camera_view_projection(&f->previous_camera, aspect, previous_vp.m);
    /* The scene is drawn with the TAA jitter; the bones (below) without it. */
    sw_mat4 scene_vp = vp, scene_previous_vp = previous_vp;
    sw__post_chain_jitter(r->post, f, scene_vp.m, scene_previous_vp.m);
    sw_result res;
    if (f->split) {
        int middle = r->width / 2;
        res = sw__draw_scene_half(r, f, SW_SKIN_LBS, 0, middle, &scene_vp, &scene_previous_vp, diag);
        if (res == SW_OK)
            res = sw__draw_scene_half(r, f, SW_SKIN_DQS, middle, r->width, &scene_vp, &scene_previous_vp, diag);
    } else {
        res = sw__draw_scene_half(r, f, f->method, 0, r->width, &scene_vp, &scene_previous_vp, diag);
    }
    if (res != SW_OK) return res;

    /* 4. The post chain (post_chain.c): display mapping, AA ... or a debug view, into the 8-bit image. */
    const sw__post_inputs post_inputs = {
        .hdr = r->t_hdr, .normal = r->t_normal, .albedo = r->t_albedo, .classes = r->t_class, .motion = r->t_motion,
        .depth = r->t_depth, .image = r->t_image, .image_fbo = r->image_fbo, .empty_vao = r->empty_vao,
    };
    res = sw__post_chain_run(r->post, f, &post_inputs, diag);
    if (res != SW_OK) return res;
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
    out->skin_gpu_ms = r->skin_ms[0] + r->skin_ms[1];
}

sw_result sw_renderer_read_vertex_values(sw_renderer* r, size_t node, size_t primitive, float* out, sw_diag* diag) {
    if (!r || !out) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "NULL renderer or output");
    if (r->weight_joint == -1)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "no frame was drawn with the weights or retention view");
    for (size_t i = 0; i < r->draw_count; i++) {
        const sw__draw* d = &r->draws[i];
        if (d->node != node || d->primitive != primitive) continue;
        glBindBuffer(GL_ARRAY_BUFFER, d->weight_buffer);
        glGetBufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)(d->prim->vertex_count * 4), out);
        glBindBuffer(GL_ARRAY_BUFFER, 0);
        return sw_gl_check("reading the vertex values back", diag);
    }
    return sw_diag_set(diag, SW_ERR_INDEX_OUT_OF_RANGE, (int64_t)node, "node %zu primitive %zu is not drawn", node,
                       primitive);
}

uint32_t sw_renderer_image_texture(const sw_renderer* r) { return r ? r->t_image : 0; }
