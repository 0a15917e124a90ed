/* The renderer's GL objects (gl_objects.h): programs built from the
   embedded shaders, the list of every stage for offline validation
   (sw_render_shader_sources), textures and framebuffer checks. */
#include "gl_objects.h"

#include <string.h>

#include "sinew/gpu.h"
#include "sinew/render.h"
#include "../base/base_internal.h"

/* A stage's source as the strings glShaderSource concatenates: "#version"
   (source string 0 in compiler messages), the interface header (1), the
   depth convention (2, shaders/depth.glsl), the material block for the
   stages that read it, else nothing (3), the shared lighting for the
   stages that shade metallic-roughness surfaces, else nothing (4), the
   stage (5). */
#define SW__SOURCE_PARTS 12

static void sw__shader_parts(const char* body, const char* out_parts[SW__SOURCE_PARTS]) {
    const bool material = body == sw_shader_gbuffer_vert || body == sw_shader_gbuffer_frag ||
                          body == sw_shader_toon_frag || body == sw_shader_shadow_mask_frag;
    out_parts[0] = "#version 430 core\n#line 1 1\n";
    out_parts[1] = sw_shader_render_interface_h;
    out_parts[2] = "\n#line 1 2\n";
    out_parts[3] = sw_shader_depth_glsl;
    out_parts[4] = "\n#line 1 3\n";
    out_parts[5] = material ? sw_shader_material_block_glsl : "";
    const bool lighting = body == sw_shader_gbuffer_frag || body == sw_shader_lighting_frag || body == sw_shader_fog_comp ||
                          body == sw_shader_weather_frag;
    /* the probes' ambient (probes.glsl) for the programs that shade */
    /* compute stages say so: probes.glsl reads the fragment position elsewhere */
    out_parts[6] = body == sw_shader_fog_comp ? "\n#define SW_STAGE_COMPUTE 1\n#line 1 6\n" : "\n#line 1 6\n";
    out_parts[7] = lighting || body == sw_shader_toon_frag ? sw_shader_probes_glsl : "";
    out_parts[8] = "\n#line 1 4\n";
    out_parts[9] = lighting ? sw_shader_lighting_common_glsl : "";
    out_parts[10] = "\n#line 1 5\n";
    out_parts[11] = body;
}

void sw_render_shader_sources(void (*visit)(const char* name, const char* stage, const char* source, void* user),
                              void* user) {
    static const struct { const char* name; const char* stage; const char* body; } shaders[] = {
        {"gbuffer", "vert", sw_shader_gbuffer_vert},       {"gbuffer", "frag", sw_shader_gbuffer_frag},
        {"fullscreen", "vert", sw_shader_fullscreen_vert}, {"lighting", "frag", sw_shader_lighting_frag},
        {"post", "frag", sw_shader_post_frag},             {"shadow", "vert", sw_shader_shadow_vert},
        {"shadow", "frag", sw_shader_shadow_frag},         {"lines", "vert", sw_shader_lines_vert},
        {"lines", "frag", sw_shader_lines_frag},          {"toon", "frag", sw_shader_toon_frag},
        {"decal", "frag", sw_shader_decal_frag},
        {"shadow_decode", "frag", sw_shader_shadow_decode_frag},
        {"shadow_mask", "frag", sw_shader_shadow_mask_frag},
        /* the post chain (post_chain.c) */
        {"post_velocity", "frag", sw_shader_post_velocity_frag}, {"post_motion_blur", "frag", sw_shader_post_motion_blur_frag},
        {"post_bloom", "frag", sw_shader_post_bloom_frag},       {"post_edges", "frag", sw_shader_post_edges_frag},
        {"post_edge_weights", "frag", sw_shader_post_edge_weights_frag},
        {"post_edge_blend", "frag", sw_shader_post_edge_blend_frag}, {"post_taa", "frag", sw_shader_post_taa_frag},
        {"sky", "frag", sw_shader_sky_frag},
        /* the Hi-Z pyramid (hiz.c) */
        {"hiz", "frag", sw_shader_hiz_frag},
        {"ao", "frag", sw_shader_ao_frag}, /* ambient occlusion (ao.c) */
        {"fog", "comp", sw_shader_fog_comp}, {"fog", "frag", sw_shader_fog_frag}, /* fog_pass.c */
        {"feedback", "comp", sw_shader_feedback_comp}, /* environment feedback (feedback_pass.c) */
        {"weather", "vert", sw_shader_weather_vert}, {"weather", "frag", sw_shader_weather_frag}, /* weather_pass.c */
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

sw_result sw__compute_program(const char* cs, const char* name, GLuint* out, sw_diag* diag) {
    GLuint c = 0;
    sw_result r = sw__compile(GL_COMPUTE_SHADER, cs, name, &c, diag);
    if (r != SW_OK) return r;
    GLuint p = glCreateProgram();
    glAttachShader(p, c);
    r = sw_gl_link_program(p, name, diag);
    glDeleteShader(c);
    if (r == SW_OK) *out = p;
    else glDeleteProgram(p);
    return r;
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

GLuint sw__solid_texture(const uint8_t rgba[4]) {
    GLuint t;
    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_2D, t);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    return t;
}

sw_result sw__framebuffer_complete(const char* name, sw_diag* diag) {
    GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    if (status != GL_FRAMEBUFFER_COMPLETE)
        return sw_diag_set(diag, SW_ERR_UNSUPPORTED, -1, "the %s framebuffer is incomplete (0x%x)", name,
                           (unsigned)status);
    return SW_OK;
}
