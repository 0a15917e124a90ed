/* GPU skinning: compute (and vertex-shader) skinning into vertex buffers,
   with a skin cache and previous positions for motion vectors (see
   sinew/gpu.h). The GLSL lives in shaders/ and is embedded at build time;
   every binding, location and layout number it shares with this file is
   a name from skin_interface.h. */
#include "sinew/gpu.h"

#include <epoxy/gl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_internal.h"
#include "skin_interface.h"
#include "../base/base_internal.h"

/* shaders/ and skin_interface.h, embedded by cmake/embed_shaders.cmake. */
extern const char sw_shader_skin_interface_h[];
extern const char sw_shader_skin_common_glsl[];
extern const char sw_shader_skin_comp[];
extern const char sw_shader_skin_vert[];

/* The public limits are the shaders' sizes. */
_Static_assert(SW_MAX_INFLUENCES == SW_SKIN_MAX_INFLUENCES, "skin.vert reads SW_SKIN_MAX_INFLUENCES influences");
_Static_assert(SW_GPU_MAX_ACTIVE_TARGETS == SW_SKIN_MAX_ACTIVE_TARGETS,
               "the morph block holds SW_SKIN_MAX_ACTIVE_TARGETS");
_Static_assert(SW_SKIN_MAX_ACTIVE_TARGETS % 4 == 0, "morph weights are packed in vec4s");
/* The palette's layout in vec4s: what sw_gpu_palette_update uploads is what
   skin_common.glsl indexes. */
_Static_assert(sizeof(sw_mat34) == SW_SKIN_LBS_ROWS * 16 && sizeof(sw_mat34) == SW_SKIN_STRETCH_ROWS * 16,
               "LBS and stretch rows: one vec4 per row");
_Static_assert(sizeof(sw_dualquat) == SW_SKIN_DQS_VEC4S * 16, "DQS: real and dual part, one vec4 each");

#define SW__NONE ((uint32_t)SW_SKIN_OFFSET_NONE)
#define SW__MAX_PROGRAMS 64

/* ---- Program variants ------------------------------------------------------ */

/* Everything that changes the compiled shader, packed in one integer. */
typedef struct sw__variant {
    sw_gpu_skin_path path;
    int influences;        /* 0..8 */
    bool joints_u8;
    int weights;           /* SW_SKIN_WEIGHTS_* */
    bool dqs, stretch, cofactor;
    bool normals, tangents, morph;
    bool rigid;            /* no influences, moved by palette joint 0 */
    bool listed;           /* rows of work groups skin listed instances (GPU-driven crowds) */
} sw__variant;

static uint32_t sw__variant_key(const sw__variant* v) {
    return (uint32_t)v->path | (uint32_t)v->influences << 1 | (uint32_t)v->joints_u8 << 5 |
           (uint32_t)v->weights << 6 | (uint32_t)v->dqs << 8 | (uint32_t)v->stretch << 9 |
           (uint32_t)v->cofactor << 10 | (uint32_t)v->normals << 11 | (uint32_t)v->tangents << 12 |
           (uint32_t)v->morph << 13 | (uint32_t)v->rigid << 14 | (uint32_t)v->listed << 15;
}

/* A variant's source as the strings glShaderSource concatenates: "#version"
   and the variant's defines (source string 0 in compiler messages), the
   interface header (1), the common part (2), the stage (3). `defines`
   receives string 0 and must hold SW__DEFINES_SIZE bytes. */
#define SW__SOURCE_PARTS 6
#define SW__DEFINES_SIZE 512

static void sw__variant_source(const sw__variant* v, char defines[SW__DEFINES_SIZE],
                               const char* out_parts[SW__SOURCE_PARTS]) {
    snprintf(defines, SW__DEFINES_SIZE,
             "#version 430 core\n#define SW_INFLUENCES %d\n#define SW_WEIGHTS %d\n%s%s%s%s%s%s%s%s%s%s",
             v->influences, v->weights, v->joints_u8 ? "#define SW_JOINTS_U8\n" : "",
             v->dqs ? "#define SW_DQS\n" : "", v->stretch ? "#define SW_STRETCH\n" : "",
             v->cofactor ? "#define SW_COFACTOR\n" : "", v->normals ? "#define SW_NORMALS\n" : "",
             v->tangents ? "#define SW_TANGENTS\n" : "", v->morph ? "#define SW_MORPH\n" : "",
             v->rigid ? "#define SW_RIGID\n" : "", v->listed ? "#define SW_INSTANCE_LIST\n" : "", "#line 1 1\n");
    out_parts[0] = defines;
    out_parts[1] = sw_shader_skin_interface_h;
    out_parts[2] = "\n#line 1 2\n";
    out_parts[3] = sw_shader_skin_common_glsl;
    out_parts[4] = "\n#line 1 3\n";
    out_parts[5] = v->path == SW_GPU_PATH_COMPUTE ? sw_shader_skin_comp : sw_shader_skin_vert;
}

static void sw__variant_name(const sw__variant* v, char* out, size_t size) {
    static const char* const weight_names[] = {
        [SW_SKIN_WEIGHTS_F32] = "f32", [SW_SKIN_WEIGHTS_U8] = "u8", [SW_SKIN_WEIGHTS_U16] = "u16"};
    snprintf(out, size, "skin_%s_%s_i%d_j%s_w%s%s%s%s%s%s", v->path == SW_GPU_PATH_COMPUTE ? "comp" : "vert",
             v->rigid ? "rigid" : v->dqs ? (v->stretch ? "dqs_stretch" : "dqs") : "lbs", v->influences, v->joints_u8 ? "u8" : "u16",
             weight_names[v->weights], v->cofactor ? "_cofactor" : "", v->normals ? "_n" : "",
             v->tangents ? "_t" : "", v->morph ? "_morph" : "", v->listed ? "_listed" : "");
}

/* Hands one variant's whole source, as one string, to `visit`; false when
   out of memory. */
static bool sw__visit_variant(const sw__variant* v,
                              void (*visit)(const char* name, const char* stage, const char* source, void* user),
                              void* user) {
    char name[96], defines[SW__DEFINES_SIZE];
    const char* parts[SW__SOURCE_PARTS];
    sw__variant_name(v, name, sizeof name);
    sw__variant_source(v, defines, parts);
    size_t lengths[SW__SOURCE_PARTS], size = 1;
    for (int i = 0; i < SW__SOURCE_PARTS; i++) size += lengths[i] = strlen(parts[i]);
    char* source = (char*)sw__malloc(size);
    if (!source) return false;
    char* at = source;
    for (int i = 0; i < SW__SOURCE_PARTS; i++) {
        memcpy(at, parts[i], lengths[i]);
        at += lengths[i];
    }
    *at = '\0';
    visit(name, v->path == SW_GPU_PATH_COMPUTE ? "comp" : "vert", source, user);
    sw__free(source);
    return true;
}

void sw_gpu_shader_sources(void (*visit)(const char* name, const char* stage, const char* source, void* user),
                            void* user) {
    /* Every path × influence count × method × normal mode with all streams,
       then the other joint and weight formats and the stream subsets. */
    static const int weight_codes[3] = {SW_SKIN_WEIGHTS_F32, SW_SKIN_WEIGHTS_U8, SW_SKIN_WEIGHTS_U16};
    for (int path = 0; path < 2; path++) {
        for (int influences = 0; influences <= SW_MAX_INFLUENCES; influences++) {
            for (int method = 0; method < 3; method++) {
                for (int cofactor = 0; cofactor < 2; cofactor++) {
                    for (int formats = 0; formats < 6; formats++) {
                        if (formats > 0 && (influences != 4 || method != 0 || cofactor)) continue;
                        for (int streams = 0; streams < 3; streams++) {
                            if (streams > 0 && formats > 0) continue;
                            sw__variant v = {
                                .path = (sw_gpu_skin_path)path,
                                .influences = influences,
                                .joints_u8 = formats % 2 == 1,
                                .weights = weight_codes[formats / 2],
                                .dqs = method > 0,
                                .stretch = method == 2,
                                .cofactor = cofactor == 1,
                                .normals = streams != 1,
                                .tangents = streams == 0,
                                .morph = streams != 2,
                            };
                            /* Without influences, the LBS variants stand for rigid nodes. */
                            if (influences == 0 && method > 0) continue;
                            v.rigid = influences == 0 && cofactor == 1;
                            if (!sw__visit_variant(&v, visit, user)) return;
                        }
                    }
                }
            }
        }
    }
    /* GPU-driven crowds: LBS from a list of instances, both levels. */
    for (int influences = 1; influences <= 4; influences += 3) {
        sw__variant v = {.path = SW_GPU_PATH_COMPUTE, .influences = influences, .weights = SW_SKIN_WEIGHTS_F32,
                         .normals = true, .tangents = true, .morph = true, .listed = true};
        if (!sw__visit_variant(&v, visit, user)) return;
    }
}

/* ---- Skinner ------------------------------------------------------------------- */

struct sw_gpu_skinner {
    struct { uint32_t key; GLuint program; } programs[SW__MAX_PROGRAMS];
    int program_count;
    /* The vertex-shader path draws (rasterizer discarded) and a draw needs a
       complete framebuffer; a context without a surface has none, so this
       one has no attachments, only a default size (GL 4.3). */
    GLuint empty_framebuffer;
    uint64_t next_palette_id;  /* ids for the skin cache's (palette, revision) key */
    sw_gpu_skin_stats stats;
    GLint max_groups_x;
    GLint max_groups_y;          /* crowds: one row of work groups per instance */
    GLint vertex_storage_blocks; /* GL 4.3 allows 0: then no vertex-shader path */
};

static sw_result sw__build_program(const sw__variant* v, GLuint* out_program, sw_diag* diag) {
    char defines[SW__DEFINES_SIZE];
    const char* parts[SW__SOURCE_PARTS];
    sw__variant_source(v, defines, parts);
    GLenum stage = v->path == SW_GPU_PATH_COMPUTE ? GL_COMPUTE_SHADER : GL_VERTEX_SHADER;
    char name[96], what[112];
    sw__variant_name(v, name, sizeof name);
    snprintf(what, sizeof what, "shader %s", name);
    GLuint shader = 0;
    sw_result r = sw_gl_compile_shader(stage, SW__SOURCE_PARTS, parts, what, &shader, diag);
    if (r != SW_OK) return r;
    GLuint program = glCreateProgram();
    glAttachShader(program, shader);
    if (v->path == SW_GPU_PATH_VERTEX_SHADER) {
        const GLchar* varyings[3];
        GLsizei count = 0;
        varyings[count++] = "tf_position";
        if (v->normals) varyings[count++] = "tf_normal";
        if (v->tangents) varyings[count++] = "tf_tangent";
        glTransformFeedbackVaryings(program, count, varyings, GL_SEPARATE_ATTRIBS);
    }
    snprintf(what, sizeof what, "program %s", name);
    r = sw_gl_link_program(program, what, diag);
    glDeleteShader(shader);
    if (r == SW_OK) *out_program = program;
    return r;
}

static sw_result sw__program(sw_gpu_skinner* skinner, const sw__variant* v, GLuint* out_program, sw_diag* diag) {
    uint32_t key = sw__variant_key(v);
    for (int i = 0; i < skinner->program_count; i++)
        if (skinner->programs[i].key == key) {
            *out_program = skinner->programs[i].program;
            return SW_OK;
        }
    if (skinner->program_count == SW__MAX_PROGRAMS) {
        /* Variants in use at once are few; start over rather than grow. */
        for (int i = 0; i < skinner->program_count; i++) glDeleteProgram(skinner->programs[i].program);
        skinner->program_count = 0;
    }
    GLuint program = 0;
    sw_result r = sw__build_program(v, &program, diag);
    if (r != SW_OK) return r;
    skinner->programs[skinner->program_count].key = key;
    skinner->programs[skinner->program_count].program = program;
    skinner->program_count++;
    skinner->stats.programs_compiled++;
    *out_program = program;
    return SW_OK;
}

sw_result sw_gpu_skinner_create(sw_gpu_skinner** out_skinner, sw_diag* diag) {
    if (!out_skinner) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "out_skinner is NULL");
    *out_skinner = NULL;
    if (epoxy_gl_version() < 43)
        return sw_diag_set(diag, SW_ERR_UNSUPPORTED, -1, "GPU skinning needs OpenGL 4.3 (the context has %d.%d)",
                           epoxy_gl_version() / 10, epoxy_gl_version() % 10);
    GLint ssbo_blocks = 0;
    glGetIntegerv(GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS, &ssbo_blocks);
    if (ssbo_blocks < SW_SKIN_COMPUTE_STORAGE_BLOCKS)
        return sw_diag_set(diag, SW_ERR_UNSUPPORTED, -1, "compute shaders see %d storage buffers, skinning needs %d",
                           (int)ssbo_blocks, SW_SKIN_COMPUTE_STORAGE_BLOCKS);
    sw_gpu_skinner* skinner = (sw_gpu_skinner*)sw__calloc(1, sizeof *skinner);
    if (!skinner) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for the GPU skinner");
    glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_COUNT, 0, &skinner->max_groups_x);
    glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_COUNT, 1, &skinner->max_groups_y);
    if (skinner->max_groups_y < 1) skinner->max_groups_y = 65535;
    glGetIntegerv(GL_MAX_VERTEX_SHADER_STORAGE_BLOCKS, &skinner->vertex_storage_blocks);
    if (skinner->max_groups_x < 1) skinner->max_groups_x = 65535;
    glGenFramebuffers(1, &skinner->empty_framebuffer);
    glBindFramebuffer(GL_FRAMEBUFFER, skinner->empty_framebuffer);
    glFramebufferParameteri(GL_FRAMEBUFFER, GL_FRAMEBUFFER_DEFAULT_WIDTH, 1);
    glFramebufferParameteri(GL_FRAMEBUFFER, GL_FRAMEBUFFER_DEFAULT_HEIGHT, 1);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    skinner->next_palette_id = 1;
    sw_result r = sw_gl_check("creating the GPU skinner", diag);
    if (r != SW_OK) {
        sw_gpu_skinner_destroy(skinner);
        return r;
    }
    *out_skinner = skinner;
    return SW_OK;
}

void sw_gpu_skinner_destroy(sw_gpu_skinner* skinner) {
    if (!skinner) return;
    for (int i = 0; i < skinner->program_count; i++) glDeleteProgram(skinner->programs[i].program);
    glDeleteFramebuffers(1, &skinner->empty_framebuffer);
    sw__free(skinner);
}

void sw_gpu_skinner_get_stats(const sw_gpu_skinner* skinner, sw_gpu_skin_stats* out_stats) {
    *out_stats = skinner ? skinner->stats : (sw_gpu_skin_stats){0};
}

/* ---- Mesh ------------------------------------------------------------------------ */

struct sw_gpu_mesh {
    size_t vertex_count;
    int influence_count;
    sw_joint_format joint_format;
    sw_weight_format weight_format;
    bool normals, tangents;
    GLuint rest;         /* positions | normals | tangents */
    uint32_t rest_normals, rest_tangents;   /* float offsets */
    GLuint influences;   /* joints | weights */
    uint32_t weights_word;                  /* word offset of the weights */
    GLuint deltas;       /* dense morph deltas */
    size_t target_count;
    uint32_t* target_offsets;               /* 3 per target: float offsets, SW__NONE = none */
    GLuint vao;          /* attributes for the vertex-shader path */
    size_t bytes;
};

static size_t sw__joint_size(sw_joint_format f) { return f == SW_JOINT_U8 ? 1 : 2; }
static size_t sw__weight_size(sw_weight_format f) {
    return f == SW_WEIGHT_U8_NORM ? 1 : f == SW_WEIGHT_U16_NORM ? 2 : 4;
}
static size_t sw__align4(size_t n) { return (n + 3) & ~(size_t)3; }

/* a·b + c into *out, false on overflow. */
static bool sw__mul_add(size_t a, size_t b, size_t c, size_t* out) {
    if (b && a > (SIZE_MAX - c) / b) return false;
    *out = a * b + c;
    return true;
}

/* The sizes of a mesh's buffers, checked against the largest storage
   block the GPU allows (the shaders index in 32-bit words). */
typedef struct sw__mesh_sizes {
    size_t rest_bytes, joint_bytes, weight_bytes, influence_bytes, delta_floats;
} sw__mesh_sizes;

static sw_result sw__mesh_sizes_of(const sw_gpu_mesh_desc* desc, sw_joint_format jf, sw_weight_format wf,
                                   sw__mesh_sizes* out, sw_diag* diag) {
    const size_t n = desc->vertex_count;
    GLint64 max_block = 0;
    glGetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &max_block);
    size_t limit = max_block > 0 ? (size_t)max_block : (size_t)1 << 27;
    if (limit > (size_t)UINT32_MAX) limit = (size_t)UINT32_MAX;
    size_t floats_per_vertex = 3 + (desc->normals ? 3 : 0) + (desc->tangents ? 4 : 0);
    *out = (sw__mesh_sizes){0};
    bool ok = sw__mul_add(n, floats_per_vertex * 4, 0, &out->rest_bytes) &&
              sw__mul_add(n, (size_t)desc->influence_count * sw__joint_size(jf), 0, &out->joint_bytes) &&
              sw__mul_add(n, (size_t)desc->influence_count * sw__weight_size(wf), 0, &out->weight_bytes);
    for (size_t t = 0; ok && t < desc->target_count; t++) {
        const sw_gpu_morph_target* tg = &desc->targets[t];
        size_t streams = (tg->positions ? 1u : 0u) + (tg->normals && desc->normals ? 1u : 0u) +
                         (tg->tangents && desc->tangents ? 1u : 0u);
        ok = sw__mul_add(n, 3 * streams, out->delta_floats, &out->delta_floats);
    }
    out->influence_bytes = sw__align4(out->joint_bytes) + sw__align4(out->weight_bytes);
    if (!ok || out->rest_bytes > limit || out->influence_bytes > limit || out->delta_floats > limit / 4)
        return sw_diag_set(diag, SW_ERR_UNSUPPORTED, -1,
                           "mesh of %zu vertices is larger than the GPU's %zu-byte storage buffers", n, limit);
    return SW_OK;
}

/* Bind pose (positions | normals | tangents), then the influences in their
   own formats: joints, then weights from a word boundary. */
static void sw__mesh_upload_rest(sw_gpu_mesh* mesh, const sw_gpu_mesh_desc* desc, const sw__mesh_sizes* sizes) {
    const size_t n = desc->vertex_count;
    glGenBuffers(1, &mesh->rest);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, mesh->rest);
    glBufferData(GL_SHADER_STORAGE_BUFFER, (GLsizeiptr)sizes->rest_bytes, NULL, GL_STATIC_DRAW);
    glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, (GLsizeiptr)(n * 12), desc->positions);
    size_t at = n * 3;
    if (desc->normals) {
        mesh->rest_normals = (uint32_t)at;
        glBufferSubData(GL_SHADER_STORAGE_BUFFER, (GLintptr)(at * 4), (GLsizeiptr)(n * 12), desc->normals);
        at += n * 3;
    }
    if (desc->tangents) {
        mesh->rest_tangents = (uint32_t)at;
        glBufferSubData(GL_SHADER_STORAGE_BUFFER, (GLintptr)(at * 4), (GLsizeiptr)(n * 16), desc->tangents);
    }
    glGenBuffers(1, &mesh->influences);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, mesh->influences);
    glBufferData(GL_SHADER_STORAGE_BUFFER, (GLsizeiptr)(sizes->influence_bytes ? sizes->influence_bytes : 4), NULL,
                 GL_STATIC_DRAW);
    mesh->weights_word = (uint32_t)(sw__align4(sizes->joint_bytes) / 4);
    if (sizes->joint_bytes) {
        glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, (GLsizeiptr)sizes->joint_bytes, desc->joints);
        glBufferSubData(GL_SHADER_STORAGE_BUFFER, (GLintptr)sw__align4(sizes->joint_bytes),
                        (GLsizeiptr)sizes->weight_bytes, desc->weights);
    }
}

/* Morph deltas, dense, target after target. */
static sw_result sw__mesh_upload_targets(sw_gpu_mesh* mesh, const sw_gpu_mesh_desc* desc, size_t delta_floats,
                                         sw_diag* diag) {
    if (desc->target_count == 0) return SW_OK;
    const size_t n = desc->vertex_count;
    mesh->target_offsets = (uint32_t*)sw__malloc(desc->target_count * 3 * sizeof(uint32_t));
    if (!mesh->target_offsets)
        return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for morph target offsets");
    glGenBuffers(1, &mesh->deltas);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, mesh->deltas);
    glBufferData(GL_SHADER_STORAGE_BUFFER, (GLsizeiptr)(delta_floats ? delta_floats * 4 : 4), NULL, GL_STATIC_DRAW);
    size_t offset = 0;
    for (size_t t = 0; t < desc->target_count; t++) {
        const sw_gpu_morph_target* tg = &desc->targets[t];
        const float* streams[3] = {tg->positions, desc->normals ? tg->normals : NULL,
                                   desc->tangents ? tg->tangents : NULL};
        for (int s = 0; s < 3; s++) {
            mesh->target_offsets[3 * t + (size_t)s] = streams[s] ? (uint32_t)offset : SW__NONE;
            if (!streams[s]) continue;
            glBufferSubData(GL_SHADER_STORAGE_BUFFER, (GLintptr)(offset * 4), (GLsizeiptr)(n * 12), streams[s]);
            offset += n * 3;
        }
    }
    return SW_OK;
}

/* The vertex-shader path's attributes (SW_SKIN_ATTR_*, shaders/skin.vert). */
static void sw__mesh_vertex_array(sw_gpu_mesh* mesh) {
    glGenVertexArrays(1, &mesh->vao);
    glBindVertexArray(mesh->vao);
    glBindBuffer(GL_ARRAY_BUFFER, mesh->rest);
    glEnableVertexAttribArray(SW_SKIN_ATTR_POSITION);
    glVertexAttribPointer(SW_SKIN_ATTR_POSITION, 3, GL_FLOAT, GL_FALSE, 12, (const void*)0);
    if (mesh->normals) {
        glEnableVertexAttribArray(SW_SKIN_ATTR_NORMAL);
        glVertexAttribPointer(SW_SKIN_ATTR_NORMAL, 3, GL_FLOAT, GL_FALSE, 12,
                              (const void*)((size_t)mesh->rest_normals * 4));
    }
    if (mesh->tangents) {
        glEnableVertexAttribArray(SW_SKIN_ATTR_TANGENT);
        glVertexAttribPointer(SW_SKIN_ATTR_TANGENT, 4, GL_FLOAT, GL_FALSE, 16,
                              (const void*)((size_t)mesh->rest_tangents * 4));
    }
    if (mesh->influence_count > 0) {
        const int k = mesh->influence_count;
        const sw_joint_format jf = mesh->joint_format;
        const sw_weight_format wf = mesh->weight_format;
        const size_t js = sw__joint_size(jf), ws = sw__weight_size(wf);
        const GLenum joint_type = jf == SW_JOINT_U8 ? GL_UNSIGNED_BYTE : GL_UNSIGNED_SHORT;
        const GLenum weight_type = wf == SW_WEIGHT_U8_NORM    ? GL_UNSIGNED_BYTE
                                   : wf == SW_WEIGHT_U16_NORM ? GL_UNSIGNED_SHORT
                                                              : GL_FLOAT;
        const size_t weights_at = (size_t)mesh->weights_word * 4;
        glBindBuffer(GL_ARRAY_BUFFER, mesh->influences);
        /* Influences 0-3 in the first joint and weight attributes, 4-7 in the second. */
        static const GLuint joint_attributes[2] = {SW_SKIN_ATTR_JOINTS0, SW_SKIN_ATTR_JOINTS1};
        static const GLuint weight_attributes[2] = {SW_SKIN_ATTR_WEIGHTS0, SW_SKIN_ATTR_WEIGHTS1};
        for (int half = 0; half < 2; half++) {
            int size = k - 4 * half;
            if (size <= 0) break;
            if (size > 4) size = 4;
            glEnableVertexAttribArray(joint_attributes[half]);
            glVertexAttribIPointer(joint_attributes[half], size, joint_type, (GLsizei)(js * (size_t)k),
                                   (const void*)(js * 4 * (size_t)half));
            glEnableVertexAttribArray(weight_attributes[half]);
            /* u8/u16 weights are normalised by the fetch: c/255, c/65535. */
            glVertexAttribPointer(weight_attributes[half], size, weight_type, weight_type != GL_FLOAT,
                                  (GLsizei)(ws * (size_t)k), (const void*)(weights_at + ws * 4 * (size_t)half));
        }
    }
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
}

sw_result sw_gpu_mesh_create(const sw_gpu_mesh_desc* desc, sw_gpu_mesh** out_mesh, sw_diag* diag) {
    if (!out_mesh) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "out_mesh is NULL");
    *out_mesh = NULL;
    if (!desc || !desc->positions) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "mesh without positions");
    if (desc->vertex_count == 0) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "mesh with no vertices");
    if (desc->influence_count < 0 || desc->influence_count > SW_MAX_INFLUENCES)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "influence count %d is outside 0..%d",
                           desc->influence_count, SW_MAX_INFLUENCES);
    if (desc->influence_count > 0 && (!desc->joints || !desc->weights))
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "skinned mesh without joints or weights");
    if (desc->target_count > 0 && !desc->targets)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "%zu morph targets but no target array",
                           desc->target_count);
    if (desc->target_count > SIZE_MAX / (3 * sizeof(uint32_t)))
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "%zu morph targets is too many", desc->target_count);

    const sw_joint_format jf = desc->joint_format == SW_JOINT_FORMAT_DEFAULT ? SW_JOINT_U16 : desc->joint_format;
    const sw_weight_format wf =
        desc->weight_format == SW_WEIGHT_FORMAT_DEFAULT ? SW_WEIGHT_F32 : desc->weight_format;
    sw__mesh_sizes sizes;
    sw_result r = sw__mesh_sizes_of(desc, jf, wf, &sizes, diag);
    if (r != SW_OK) return r;

    sw_gpu_mesh* mesh = (sw_gpu_mesh*)sw__calloc(1, sizeof *mesh);
    if (!mesh) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for a GPU mesh");
    mesh->vertex_count = desc->vertex_count;
    mesh->influence_count = desc->influence_count;
    mesh->joint_format = jf;
    mesh->weight_format = wf;
    mesh->normals = desc->normals != NULL;
    mesh->tangents = desc->tangents != NULL;
    mesh->target_count = desc->target_count;
    mesh->rest_normals = mesh->rest_tangents = SW__NONE;
    sw__mesh_upload_rest(mesh, desc, &sizes);
    r = sw__mesh_upload_targets(mesh, desc, sizes.delta_floats, diag);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
    if (r == SW_OK) {
        mesh->bytes = sizes.rest_bytes + sizes.influence_bytes + sizes.delta_floats * 4;
        sw__mesh_vertex_array(mesh);
        r = sw_gl_check("uploading a GPU mesh", diag);
    }
    if (r != SW_OK) {
        sw_gpu_mesh_destroy(mesh);
        return r;
    }
    *out_mesh = mesh;
    return SW_OK;
}

void sw_gpu_mesh_destroy(sw_gpu_mesh* mesh) {
    if (!mesh) return;
    GLuint buffers[3] = {mesh->rest, mesh->influences, mesh->deltas};
    glDeleteBuffers(3, buffers);
    glDeleteVertexArrays(1, &mesh->vao);
    sw__free(mesh->target_offsets);
    sw__free(mesh);
}

size_t sw_gpu_mesh_vertex_count(const sw_gpu_mesh* mesh) { return mesh ? mesh->vertex_count : 0; }
size_t sw_gpu_mesh_bytes(const sw_gpu_mesh* mesh) { return mesh ? mesh->bytes : 0; }

/* ---- Palette ------------------------------------------------------------------------ */

struct sw_gpu_palette {
    size_t joint_count;    /* per instance */
    size_t instance_count; /* palettes one after another (crowds), 1 for one character */
    uint64_t id;           /* unique per skinner: the "buffer" half of the cache key */
    uint64_t revision;
    GLuint matrices;       /* 3 vec4 rows per joint */
    GLuint dual_quats;     /* 2 vec4 per joint, then 3 stretch rows per joint */
    bool has_matrices, has_dual_quats, has_stretch;
};

sw_result sw_gpu_palette_create(sw_gpu_skinner* skinner, size_t joint_count, sw_gpu_palette** out_palette,
                                sw_diag* diag) {
    return sw_gpu_palette_create_crowd(skinner, joint_count, 1, out_palette, diag);
}

sw_result sw_gpu_palette_create_crowd(sw_gpu_skinner* skinner, size_t joint_count, size_t instance_count,
                                          sw_gpu_palette** out_palette, sw_diag* diag) {
    if (!out_palette || !skinner) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "NULL skinner or out_palette");
    *out_palette = NULL;
    if (joint_count == 0 || joint_count > 65536)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "palette of %zu joints (1..65536)", joint_count);
    /* The shader indexes the palette in 32-bit vec4 counts. */
    if (instance_count == 0 || instance_count > (size_t)UINT32_MAX / (joint_count * 5))
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "palettes for %zu instances of %zu joints", instance_count,
                           joint_count);
    sw_gpu_palette* palette = (sw_gpu_palette*)sw__calloc(1, sizeof *palette);
    if (!palette) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for a GPU palette");
    palette->instance_count = instance_count;
    palette->joint_count = joint_count;
    const size_t total = joint_count * instance_count; /* the buffers hold every instance's palette */
    palette->id = skinner->next_palette_id++;
    GLuint buffers[2];
    glGenBuffers(2, buffers);
    palette->matrices = buffers[0];
    palette->dual_quats = buffers[1];
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, palette->matrices);
    glBufferData(GL_SHADER_STORAGE_BUFFER, (GLsizeiptr)(total * sizeof(sw_mat34)), NULL, GL_DYNAMIC_DRAW);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, palette->dual_quats);
    glBufferData(GL_SHADER_STORAGE_BUFFER, (GLsizeiptr)(total * (sizeof(sw_dualquat) + sizeof(sw_mat34))),
                 NULL, GL_DYNAMIC_DRAW);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
    sw_result r = sw_gl_check("creating a GPU palette", diag);
    if (r != SW_OK) {
        sw_gpu_palette_destroy(palette);
        return r;
    }
    *out_palette = palette;
    return SW_OK;
}

void sw_gpu_palette_destroy(sw_gpu_palette* palette) {
    if (!palette) return;
    GLuint buffers[2] = {palette->matrices, palette->dual_quats};
    glDeleteBuffers(2, buffers);
    sw__free(palette);
}

sw_result sw_gpu_palette_update(sw_gpu_palette* palette, const sw_mat34* matrices, const sw_dualquat* dual_quats,
                                const sw_mat34* stretch, sw_diag* diag) {
    if (!palette) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "palette is NULL");
    if (!matrices && !dual_quats) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "palette update with no data");
    const size_t j = palette->joint_count * palette->instance_count;
    palette->has_matrices = matrices != NULL;
    palette->has_dual_quats = dual_quats != NULL;
    palette->has_stretch = dual_quats && stretch;
    if (matrices) {
        glBindBuffer(GL_SHADER_STORAGE_BUFFER, palette->matrices);
        glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, (GLsizeiptr)(j * sizeof(sw_mat34)), matrices);
    }
    if (dual_quats) {
        glBindBuffer(GL_SHADER_STORAGE_BUFFER, palette->dual_quats);
        glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, (GLsizeiptr)(j * sizeof(sw_dualquat)), dual_quats);
        if (stretch)
            glBufferSubData(GL_SHADER_STORAGE_BUFFER, (GLintptr)(j * sizeof(sw_dualquat)),
                            (GLsizeiptr)(j * sizeof(sw_mat34)), stretch);
    }
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
    palette->revision++;
    return sw_gl_check("uploading a palette", diag);
}

uint64_t sw_gpu_palette_revision(const sw_gpu_palette* palette) { return palette ? palette->revision : 0; }

/* ---- Instance --------------------------------------------------------------------------- */

/* The morph uniform block of shaders/skin_common.glsl (std140: the
   weights as vec4s, one uvec4 of offsets per target). */
typedef struct sw__morph_block {
    uint32_t count[4];
    float weights[SW_SKIN_MAX_ACTIVE_TARGETS];
    uint32_t offsets[SW_SKIN_MAX_ACTIVE_TARGETS][4];
} sw__morph_block;
_Static_assert(sizeof(sw__morph_block) == 16 + 16 * (SW_SKIN_MAX_ACTIVE_TARGETS / 4) + 16 * SW_SKIN_MAX_ACTIVE_TARGETS,
               "the std140 size of the Morph block");

/* What the last dispatch was made from; equal keys mean nothing changed. */
typedef struct sw__cache_key {
    uint64_t palette_id, palette_revision, morph_revision;
    uint32_t variant;
} sw__cache_key;

struct sw_gpu_instance {
    const sw_gpu_mesh* mesh;
    size_t instance_count; /* copies of the mesh in the outputs (crowds), 1 for one character */
    GLuint positions[2];   /* current and previous swap on every dispatch */
    GLuint frames;         /* normals | tangents */
    GLuint morph_block;    /* uniform buffer */
    int current;           /* index of the last output in positions[] */
    bool moved;            /* the last sw_gpu_skin dispatched after an earlier dispatch */
    bool skinned;          /* at least one dispatch happened */
    float* morph_weights;
    uint64_t morph_revision;
    sw__cache_key key;
};

sw_result sw_gpu_instance_create(const sw_gpu_mesh* mesh, sw_gpu_instance** out_instance, sw_diag* diag) {
    return sw_gpu_instance_create_crowd(mesh, 1, out_instance, diag);
}

sw_result sw_gpu_instance_create_crowd(const sw_gpu_mesh* mesh, size_t instance_count,
                                           sw_gpu_instance** out_instance, sw_diag* diag) {
    if (!out_instance || !mesh) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "NULL mesh or out_instance");
    *out_instance = NULL;
    /* Every output buffer within the largest storage block (the shader
       indexes them in 32-bit float counts). */
    GLint64 max_block = 0;
    glGetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &max_block);
    size_t limit = max_block > 0 ? (size_t)max_block : (size_t)1 << 27;
    if (limit > (size_t)UINT32_MAX) limit = (size_t)UINT32_MAX;
    const size_t frame_size = (mesh->normals ? 12u : 0u) + (mesh->tangents ? 16u : 0u);
    size_t largest = frame_size > 12 ? frame_size : 12, bytes = 0;
    if (instance_count == 0) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "an instance of 0 copies");
    if (!sw__mul_add(mesh->vertex_count * largest, instance_count, 0, &bytes) || bytes > limit)
        return sw_diag_set(diag, SW_ERR_UNSUPPORTED, -1,
                           "%zu instances of %zu vertices do not fit the GPU's %zu-byte storage buffers", instance_count,
                           mesh->vertex_count, limit);
    sw_gpu_instance* inst = (sw_gpu_instance*)sw__calloc(1, sizeof *inst);
    if (!inst) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for a GPU instance");
    inst->mesh = mesh;
    inst->instance_count = instance_count;
    if (mesh->target_count) {
        inst->morph_weights = (float*)sw__calloc(mesh->target_count, sizeof(float));
        if (!inst->morph_weights) {
            sw__free(inst);
            return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for morph weights");
        }
    }
    const size_t n = mesh->vertex_count * instance_count;
    glGenBuffers(2, inst->positions);
    for (int i = 0; i < 2; i++) {
        glBindBuffer(GL_ARRAY_BUFFER, inst->positions[i]);
        glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(n * 12), NULL, GL_DYNAMIC_COPY);
    }
    size_t frame_bytes = n * ((mesh->normals ? 12u : 0u) + (mesh->tangents ? 16u : 0u));
    if (frame_bytes) {
        glGenBuffers(1, &inst->frames);
        glBindBuffer(GL_ARRAY_BUFFER, inst->frames);
        glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)frame_bytes, NULL, GL_DYNAMIC_COPY);
    }
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glGenBuffers(1, &inst->morph_block);
    glBindBuffer(GL_UNIFORM_BUFFER, inst->morph_block);
    sw__morph_block empty = {{0}, {0}, {{0}}};
    glBufferData(GL_UNIFORM_BUFFER, sizeof empty, &empty, GL_DYNAMIC_DRAW);
    glBindBuffer(GL_UNIFORM_BUFFER, 0);
    sw_result r = sw_gl_check("creating a GPU instance", diag);
    if (r != SW_OK) {
        sw_gpu_instance_destroy(inst);
        return r;
    }
    *out_instance = inst;
    return SW_OK;
}

void sw_gpu_instance_destroy(sw_gpu_instance* instance) {
    if (!instance) return;
    GLuint buffers[4] = {instance->positions[0], instance->positions[1], instance->frames, instance->morph_block};
    glDeleteBuffers(4, buffers);
    sw__free(instance->morph_weights);
    sw__free(instance);
}

sw_result sw_gpu_instance_set_morph_weights(sw_gpu_instance* instance, const float* weights, size_t count,
                                            sw_diag* diag) {
    if (!instance || (count && !weights)) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "NULL instance or weights");
    const sw_gpu_mesh* mesh = instance->mesh;
    if (count != mesh->target_count)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "%zu morph weights for a mesh with %zu targets", count,
                           mesh->target_count);
    if (count == 0 || memcmp(weights, instance->morph_weights, count * sizeof(float)) == 0) return SW_OK;
    for (size_t t = 0; t < count; t++)
        if (!(weights[t] == weights[t] && weights[t] - weights[t] == 0.0f))
            return sw_diag_set(diag, SW_ERR_INVALID_DATA, (int)t, "morph weight %zu is not finite", t);

    /* Only nonzero weights reach the shader. */
    sw__morph_block block;
    memset(&block, 0, sizeof block);
    uint32_t active = 0;
    for (size_t t = 0; t < count; t++) {
        if (weights[t] == 0.0f) continue;
        if (active == SW_SKIN_MAX_ACTIVE_TARGETS)
            return sw_diag_set(diag, SW_ERR_UNSUPPORTED, -1, "more than %d morph targets have nonzero weights",
                               SW_SKIN_MAX_ACTIVE_TARGETS);
        block.weights[active] = weights[t];
        for (int s = 0; s < 3; s++) block.offsets[active][s] = mesh->target_offsets[3 * t + (size_t)s];
        active++;
    }
    block.count[0] = active;
    glBindBuffer(GL_UNIFORM_BUFFER, instance->morph_block);
    glBufferSubData(GL_UNIFORM_BUFFER, 0, sizeof block, &block);
    glBindBuffer(GL_UNIFORM_BUFFER, 0);
    memcpy(instance->morph_weights, weights, count * sizeof(float));
    instance->morph_revision++;
    return sw_gl_check("uploading morph weights", diag);
}

void sw_gpu_instance_get_buffers(const sw_gpu_instance* instance, sw_gpu_instance_buffers* out) {
    *out = (sw_gpu_instance_buffers){0};
    if (!instance) return;
    const sw_gpu_mesh* mesh = instance->mesh;
    out->positions = instance->positions[instance->current];
    out->previous_positions = instance->moved ? instance->positions[instance->current ^ 1] : out->positions;
    out->normals_tangents = instance->frames;
    out->normals_offset = mesh->normals ? 0 : SIZE_MAX;
    out->tangents_offset =
        mesh->tangents ? mesh->vertex_count * instance->instance_count * (mesh->normals ? 12u : 0u) : SIZE_MAX;
    out->vertex_count = mesh->vertex_count;
    out->instance_count = instance->instance_count;
}

sw_result sw_gpu_instance_read(const sw_gpu_instance* instance, float* positions, float* previous_positions,
                               float* normals, float* tangents, sw_diag* diag) {
    if (!instance) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "instance is NULL");
    sw_gpu_instance_buffers b;
    sw_gpu_instance_get_buffers(instance, &b);
    const size_t n = b.vertex_count * b.instance_count;
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    if (positions) {
        glBindBuffer(GL_COPY_READ_BUFFER, b.positions);
        glGetBufferSubData(GL_COPY_READ_BUFFER, 0, (GLsizeiptr)(n * 12), positions);
    }
    if (previous_positions) {
        glBindBuffer(GL_COPY_READ_BUFFER, b.previous_positions);
        glGetBufferSubData(GL_COPY_READ_BUFFER, 0, (GLsizeiptr)(n * 12), previous_positions);
    }
    if (normals) {
        if (b.normals_offset == SIZE_MAX) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "the mesh has no normals");
        glBindBuffer(GL_COPY_READ_BUFFER, b.normals_tangents);
        glGetBufferSubData(GL_COPY_READ_BUFFER, (GLintptr)b.normals_offset, (GLsizeiptr)(n * 12), normals);
    }
    if (tangents) {
        if (b.tangents_offset == SIZE_MAX) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "the mesh has no tangents");
        glBindBuffer(GL_COPY_READ_BUFFER, b.normals_tangents);
        glGetBufferSubData(GL_COPY_READ_BUFFER, (GLintptr)b.tangents_offset, (GLsizeiptr)(n * 16), tangents);
    }
    glBindBuffer(GL_COPY_READ_BUFFER, 0);
    return sw_gl_check("reading skinned vertices back", diag);
}

/* ---- Dispatch ------------------------------------------------------------------------- */

static void sw__dispatch_compute(const sw_gpu_skinner* skinner, const sw_gpu_instance* inst, GLuint output) {
    const sw_gpu_mesh* mesh = inst->mesh;
    const size_t n = mesh->vertex_count, instances = inst->instance_count;
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SW_SKIN_BUFFER_REST, mesh->rest);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SW_SKIN_BUFFER_INFLUENCES, mesh->influences);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SW_SKIN_BUFFER_OUT_POSITIONS, output);
    if (inst->frames) glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SW_SKIN_BUFFER_OUT_FRAMES, inst->frames);
    glUniform1ui(SW_SKIN_LOC_VERTEX_COUNT, (GLuint)n);
    /* Output tangents follow every instance's normals. */
    glUniform4ui(SW_SKIN_LOC_OFFSETS, mesh->rest_normals, mesh->rest_tangents, mesh->weights_word,
                 (GLuint)(mesh->normals ? n * instances * 3 : 0));
    /* One dispatch covers at most max_groups_x × SW_SKIN_GROUP_SIZE vertices. */
    const size_t group = SW_SKIN_GROUP_SIZE, per_dispatch = (size_t)skinner->max_groups_x * group;
    for (size_t first = 0; first < n; first += per_dispatch) {
        size_t count = n - first < per_dispatch ? n - first : per_dispatch;
        glUniform1ui(SW_SKIN_LOC_FIRST_VERTEX, (GLuint)first);
        /* One row of groups per instance (skin.comp reads gl_WorkGroupID.y). */
        glDispatchCompute((GLuint)((count + group - 1) / group), (GLuint)instances, 1);
    }
}

static void sw__dispatch_vertex_shader(const sw_gpu_skinner* skinner, const sw_gpu_instance* inst, GLuint output) {
    const sw_gpu_mesh* mesh = inst->mesh;
    const size_t n = mesh->vertex_count;
    GLuint binding = 0;
    glBindBufferRange(GL_TRANSFORM_FEEDBACK_BUFFER, binding++, output, 0, (GLsizeiptr)(n * 12));
    if (mesh->normals) glBindBufferRange(GL_TRANSFORM_FEEDBACK_BUFFER, binding++, inst->frames, 0, (GLsizeiptr)(n * 12));
    if (mesh->tangents)
        glBindBufferRange(GL_TRANSFORM_FEEDBACK_BUFFER, binding++, inst->frames,
                          (GLintptr)(mesh->normals ? n * 12 : 0), (GLsizeiptr)(n * 16));
    GLint framebuffer = 0;
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &framebuffer);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, skinner->empty_framebuffer);
    glBindVertexArray(mesh->vao);
    glEnable(GL_RASTERIZER_DISCARD);
    glBeginTransformFeedback(GL_POINTS);
    glDrawArrays(GL_POINTS, 0, (GLsizei)n);
    glEndTransformFeedback();
    glDisable(GL_RASTERIZER_DISCARD);
    glBindVertexArray(0);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, (GLuint)framebuffer);
    for (GLuint i = 0; i < binding; i++) glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, i, 0);
}

sw_result sw_gpu_skin(sw_gpu_skinner* skinner, sw_gpu_instance* instance, const sw_gpu_palette* palette,
                      const sw_gpu_skin_desc* desc, bool* out_dispatched, sw_diag* diag) {
    if (out_dispatched) *out_dispatched = false;
    if (!skinner || !instance) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "NULL skinner or instance");
    const sw_gpu_skin_desc d = desc ? *desc : (sw_gpu_skin_desc){0};
    const sw_gpu_mesh* mesh = instance->mesh;
    const bool skinned = mesh->influence_count > 0;
    /* A mesh without influences is moved by palette joint 0 when a palette
       is given (a rigid node: its world matrix, normals by the cofactor as
       on the CPU), and left in bind space otherwise. */
    const bool rigid = !skinned && palette != NULL;
    const bool dqs = skinned && d.method == SW_SKIN_DQS;
    if (d.method != SW_SKIN_METHOD_DEFAULT && d.method != SW_SKIN_LBS && d.method != SW_SKIN_DQS)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "unknown skinning method %d", (int)d.method);
    if (d.path != SW_GPU_PATH_COMPUTE && d.path != SW_GPU_PATH_VERTEX_SHADER)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "unknown GPU skinning path %d", (int)d.path);
    if (skinned && !palette) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "a skinned mesh needs a palette");
    if (d.path == SW_GPU_PATH_VERTEX_SHADER && skinner->vertex_storage_blocks < SW_SKIN_VERTEX_STORAGE_BLOCKS)
        return sw_diag_set(diag, SW_ERR_UNSUPPORTED, -1,
                           "vertex-shader skinning reads the palette from a storage buffer, and this GPU allows "
                           "%d in vertex shaders (%d needed); use the compute path",
                           (int)skinner->vertex_storage_blocks, SW_SKIN_VERTEX_STORAGE_BLOCKS);
    if (palette && (dqs ? !palette->has_dual_quats : !palette->has_matrices))
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "the palette holds no %s",
                           dqs ? "dual quaternions (DQS)" : "matrices (LBS)");
    /* Crowds: one palette per instance, one compute dispatch for all. */
    if (palette && palette->instance_count != instance->instance_count)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "a palette of %zu instances for %zu instances",
                           palette->instance_count, instance->instance_count);
    if (instance->instance_count > 1 && d.path != SW_GPU_PATH_COMPUTE)
        return sw_diag_set(diag, SW_ERR_UNSUPPORTED, -1, "%zu instances at once need the compute path",
                           instance->instance_count);
    if (instance->instance_count > (size_t)skinner->max_groups_y)
        return sw_diag_set(diag, SW_ERR_UNSUPPORTED, -1, "%zu instances in one dispatch (this GPU allows %d)",
                           instance->instance_count, (int)skinner->max_groups_y);

    sw__variant v = {
        .path = d.path,
        .influences = mesh->influence_count,
        .joints_u8 = mesh->joint_format == SW_JOINT_U8,
        .weights = mesh->weight_format == SW_WEIGHT_U8_NORM    ? SW_SKIN_WEIGHTS_U8
                   : mesh->weight_format == SW_WEIGHT_U16_NORM ? SW_SKIN_WEIGHTS_U16
                                                               : SW_SKIN_WEIGHTS_F32,
        .dqs = dqs,
        .stretch = dqs && palette->has_stretch,
        .cofactor = rigid || (skinned && d.normal_mode == SW_NORMALS_COFACTOR),
        .normals = mesh->normals,
        .tangents = mesh->tangents,
        .morph = mesh->target_count > 0,
        .rigid = rigid,
    };
    const sw__cache_key key = {
        .palette_id = palette ? palette->id : 0,
        .palette_revision = palette ? palette->revision : 0,
        .morph_revision = instance->morph_revision,
        .variant = sw__variant_key(&v),
    };
    const sw__cache_key* last = &instance->key;
    if (!d.force && instance->skinned && key.palette_id == last->palette_id &&
        key.palette_revision == last->palette_revision && key.morph_revision == last->morph_revision &&
        key.variant == last->variant) {
        /* Nothing changed: the output stands, and nothing moved since. */
        instance->moved = false;
        skinner->stats.skipped++;
        return SW_OK;
    }

    GLuint program = 0;
    sw_result r = sw__program(skinner, &v, &program, diag);
    if (r != SW_OK) return r;
    glUseProgram(program);
    if (palette) {
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SW_SKIN_BUFFER_PALETTE,
                         dqs ? palette->dual_quats : palette->matrices);
        glUniform1ui(SW_SKIN_LOC_JOINT_COUNT, (GLuint)palette->joint_count);
        /* The stretch rows follow the dual quaternions. */
        glUniform1ui(SW_SKIN_LOC_STRETCH_BASE,
                     (GLuint)(palette->joint_count * palette->instance_count * SW_SKIN_DQS_VEC4S));
    }
    if (v.morph) {
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SW_SKIN_BUFFER_MORPH_DELTAS, mesh->deltas);
        glBindBufferBase(GL_UNIFORM_BUFFER, SW_SKIN_UNIFORM_MORPH, instance->morph_block);
    }

    /* Write into the buffer that is not the last output: that one becomes
       the previous positions, without a copy. */
    const int target = instance->skinned ? instance->current ^ 1 : instance->current;
    if (d.path == SW_GPU_PATH_COMPUTE) sw__dispatch_compute(skinner, instance, instance->positions[target]);
    else sw__dispatch_vertex_shader(skinner, instance, instance->positions[target]);
    /* Later passes read the outputs as vertex attributes or read them back. */
    glMemoryBarrier(GL_VERTEX_ATTRIB_ARRAY_BARRIER_BIT | GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    glUseProgram(0);

    r = sw_gl_check("GPU skinning dispatch", diag);
    if (r != SW_OK) return r;
    instance->moved = instance->skinned;
    instance->skinned = true;
    instance->current = target;
    instance->key = key;
    skinner->stats.dispatched++;
    skinner->stats.vertices_skinned += mesh->vertex_count * instance->instance_count;
    if (out_dispatched) *out_dispatched = true;
    return SW_OK;
}

void sw_gpu_mesh_desc_from_primitive(const sw_model_primitive* prim, sw_gpu_morph_target* targets,
                                sw_gpu_mesh_desc* out_desc) {
    for (size_t t = 0; t < prim->target_count; t++)
        targets[t] = (sw_gpu_morph_target){prim->targets[t].positions, prim->targets[t].normals,
                                           prim->targets[t].tangents};
    *out_desc = (sw_gpu_mesh_desc){
        .vertex_count = prim->vertex_count,
        .influence_count = prim->influence_count,
        .positions = prim->positions,
        .normals = prim->normals,
        .tangents = prim->tangents,
        .joints = prim->joints,
        .joint_format = SW_JOINT_U16,
        .weights = prim->weights,
        .weight_format = SW_WEIGHT_F32,
        .target_count = prim->target_count,
        .targets = prim->target_count ? targets : NULL,
    };
}

/* ---- GPU-driven crowds (gpu_internal.h) ------------------------------------------------ */

uint32_t sw__gpu_palette_matrix_buffer(sw_gpu_palette* palette) {
    palette->has_matrices = true;
    palette->revision++;
    return palette->matrices;
}

uint32_t sw__gpu_palette_matrix_name(const sw_gpu_palette* palette) { return palette->matrices; }

size_t sw__gpu_max_groups_x(const sw_gpu_skinner* skinner) { return (size_t)skinner->max_groups_x; }

sw_result sw__gpu_skin_listed(sw_gpu_skinner* skinner, sw_gpu_instance* instance, const sw_gpu_palette* palette,
                              uint32_t list_buffer, uint32_t list_offset, uint32_t args_buffer, size_t args_offset,
                              sw_diag* diag) {
    const sw_gpu_mesh* mesh = instance->mesh;
    if (mesh->influence_count == 0 || palette->instance_count != instance->instance_count)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "listed skinning needs influences and a palette per instance");
    sw__variant v = {
        .path = SW_GPU_PATH_COMPUTE,
        .influences = mesh->influence_count,
        .joints_u8 = mesh->joint_format == SW_JOINT_U8,
        .weights = mesh->weight_format == SW_WEIGHT_U8_NORM    ? SW_SKIN_WEIGHTS_U8
                   : mesh->weight_format == SW_WEIGHT_U16_NORM ? SW_SKIN_WEIGHTS_U16
                                                               : SW_SKIN_WEIGHTS_F32,
        .normals = mesh->normals,
        .tangents = mesh->tangents,
        .morph = mesh->target_count > 0,
        .listed = true,
    };
    GLuint program = 0;
    sw_result r = sw__program(skinner, &v, &program, diag);
    if (r != SW_OK) return r;
    glUseProgram(program);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SW_SKIN_BUFFER_PALETTE, palette->matrices);
    glUniform1ui(SW_SKIN_LOC_JOINT_COUNT, (GLuint)palette->joint_count);
    if (v.morph) {
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SW_SKIN_BUFFER_MORPH_DELTAS, mesh->deltas);
        glBindBufferBase(GL_UNIFORM_BUFFER, SW_SKIN_UNIFORM_MORPH, instance->morph_block);
    }
    const GLuint output = instance->positions[instance->current];
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SW_SKIN_BUFFER_REST, mesh->rest);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SW_SKIN_BUFFER_INFLUENCES, mesh->influences);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SW_SKIN_BUFFER_OUT_POSITIONS, output);
    if (instance->frames) glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SW_SKIN_BUFFER_OUT_FRAMES, instance->frames);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SW_SKIN_BUFFER_INSTANCES, list_buffer);
    glUniform1ui(SW_SKIN_LOC_VERTEX_COUNT, (GLuint)mesh->vertex_count);
    glUniform4ui(SW_SKIN_LOC_OFFSETS, mesh->rest_normals, mesh->rest_tangents, mesh->weights_word,
                 (GLuint)(mesh->normals ? mesh->vertex_count * instance->instance_count * 3 : 0));
    glUniform1ui(SW_SKIN_LOC_FIRST_VERTEX, 0);
    glUniform1ui(SW_SKIN_LOC_LIST_OFFSET, list_offset);
    glBindBuffer(GL_DISPATCH_INDIRECT_BUFFER, args_buffer);
    glDispatchComputeIndirect((GLintptr)args_offset);
    glBindBuffer(GL_DISPATCH_INDIRECT_BUFFER, 0);
    glUseProgram(0);
    r = sw_gl_check("listed skinning dispatch", diag);
    if (r != SW_OK) return r;
    instance->moved = false;
    instance->skinned = true;
    skinner->stats.dispatched++;
    return SW_OK;
}
