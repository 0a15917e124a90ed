/* GPU-driven crowds (sinew/gpu_crowd.h): the model's clips, nodes and
   skins in storage buffers made once, and per frame the compute stages of
   shaders/crowd.comp (sample, world, skin matrices, cull and level of
   detail), then skinning of the listed characters by indirect dispatch
   and drawing by glMultiDrawElementsIndirect. Every number the shaders
   share is a name from crowd_interface.h. */
#include "sinew/gpu_crowd.h"

#include <epoxy/gl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "crowd_interface.h"
#include "gpu_internal.h"
#include "skin_interface.h"
#include "../base/base_internal.h"

extern const char sw_shader_crowd_interface_h[];
extern const char sw_shader_crowd_comp[];
extern const char sw_shader_crowd_draw_vert[];
extern const char sw_shader_crowd_draw_frag[];

_Static_assert(SW_CROWD_LODS == SW_GPU_CROWD_LODS, "the shaders' levels are the header's");
_Static_assert(SW_CROWD_PATH_TRANSLATION == SW_PATH_TRANSLATION && SW_CROWD_PATH_ROTATION == SW_PATH_ROTATION &&
                   SW_CROWD_PATH_SCALE == SW_PATH_SCALE,
               "track paths keep sw_track_path's numbers");
_Static_assert(sizeof(sw_mat34) == 48, "3 vec4 rows per matrix");

enum { SW__STAGE_SAMPLE, SW__STAGE_WORLD, SW__STAGE_SKIN, SW__STAGE_CULL, SW__STAGES };
static const char* const sw__stage_defines[SW__STAGES] = {"SW_CROWD_SAMPLE", "SW_CROWD_WORLD", "SW_CROWD_SKIN",
                                                           "SW_CROWD_CULL"};

/* One skinned primitive at both levels. */
typedef struct sw__crowd_prim {
    size_t node, primitive;
    int32_t skin;
    size_t vertex_count[SW_CROWD_LODS], index_count[SW_CROWD_LODS];
    GLuint indices[SW_CROWD_LODS];
    sw_gpu_mesh* mesh[SW_CROWD_LODS];
    sw_gpu_instance* instance[SW_CROWD_LODS];
    GLuint vao[SW_CROWD_LODS];
} sw__crowd_prim;

enum {
    SW__BUF_CHARACTERS, SW__BUF_LOCALS, SW__BUF_WORLD, SW__BUF_BOUNDS, SW__BUF_TRACKS, SW__BUF_KEYS,
    SW__BUF_NODE_TRACKS, SW__BUF_REST, SW__BUF_NODES, SW__BUF_NODE_MATRICES, SW__BUF_SKIN_JOINTS,
    SW__BUF_INVERSE_BINDS, SW__BUF_PRIMITIVES, SW__BUF_COMMANDS, SW__BUF_COUNTS, SW__BUF_LISTS, SW__BUF_ARGS,
    SW__BUFFERS
};

struct sw_gpu_crowd {
    const sw_model* model;
    sw_gpu_skinner* skinner;
    size_t n, node_count, clip_count;
    bool looping;
    float margin;
    GLuint programs[SW__STAGES];
    GLuint draw_program;
    GLuint buffers[SW__BUFFERS];
    sw_gpu_palette** palettes;  /* per skin; NULL where no skinned primitive uses it */
    size_t* joint_base;         /* per skin: its first joint in the joint buffers */
    sw__crowd_prim* prims;
    size_t prim_count;
};

/* ---- building ---------------------------------------------------------------------- */

/* A compute stage's source strings: "#version" and its switch (string 0
   in compiler messages), the interface header (1), crowd.comp (2). */
static void sw__crowd_stage_source(int stage, char head[96], const char* parts[4]) {
    snprintf(head, 96, "#version 430 core\n#define %s\n#line 1 1\n", sw__stage_defines[stage]);
    parts[0] = head, parts[1] = sw_shader_crowd_interface_h, parts[2] = "\n#line 1 2\n", parts[3] = sw_shader_crowd_comp;
}

static const char* const sw__stage_names[SW__STAGES] = {"crowd_sample", "crowd_world", "crowd_skin", "crowd_cull"};

static void sw__visit_joined(const char* name, const char* stage, const char* const parts[4],
                             void (*visit)(const char*, const char*, const char*, void*), void* user) {
    size_t size = 1;
    for (int i = 0; i < 4; i++) size += strlen(parts[i]);
    char* source = (char*)sw__malloc(size);
    if (!source) return;
    source[0] = '\0';
    for (int i = 0; i < 4; i++) strcat(source, parts[i]);
    visit(name, stage, source, user);
    sw__free(source);
}

void sw_gpu_crowd_shader_sources(void (*visit)(const char* name, const char* stage, const char* source, void* user),
                                 void* user) {
    for (int s = 0; s < SW__STAGES; s++) {
        char head[96];
        const char* parts[4];
        sw__crowd_stage_source(s, head, parts);
        sw__visit_joined(sw__stage_names[s], "comp", parts, visit, user);
    }
    const char* vs[4] = {"#version 430 core\n#line 1 1\n", sw_shader_crowd_interface_h, "\n#line 1 2\n",
                         sw_shader_crowd_draw_vert};
    const char* fs[4] = {vs[0], vs[1], vs[2], sw_shader_crowd_draw_frag};
    sw__visit_joined("crowd_draw", "vert", vs, visit, user);
    sw__visit_joined("crowd_draw", "frag", fs, visit, user);
}

static sw_result sw__crowd_program(int stage, GLuint* out, sw_diag* diag) {
    char head[96];
    const char* parts[4];
    sw__crowd_stage_source(stage, head, parts);
    GLuint shader = 0;
    char name[64];
    snprintf(name, sizeof name, "crowd.comp (%s)", sw__stage_defines[stage]);
    sw_result r = sw_gl_compile_shader(GL_COMPUTE_SHADER, 4, parts, name, &shader, diag);
    if (r != SW_OK) return r;
    GLuint program = glCreateProgram();
    glAttachShader(program, shader);
    r = sw_gl_link_program(program, name, diag);
    glDeleteShader(shader);
    if (r == SW_OK) *out = program;
    return r;
}

static sw_result sw__crowd_draw_program(GLuint* out, sw_diag* diag) {
    const char* head = "#version 430 core\n#line 1 1\n";
    const char* vs[4] = {head, sw_shader_crowd_interface_h, "\n#line 1 2\n", sw_shader_crowd_draw_vert};
    const char* fs[4] = {head, sw_shader_crowd_interface_h, "\n#line 1 2\n", sw_shader_crowd_draw_frag};
    GLuint v = 0, f = 0;
    sw_result r = sw_gl_compile_shader(GL_VERTEX_SHADER, 4, vs, "crowd_draw.vert", &v, diag);
    if (r == SW_OK) r = sw_gl_compile_shader(GL_FRAGMENT_SHADER, 4, fs, "crowd_draw.frag", &f, diag);
    if (r != SW_OK) {
        glDeleteShader(v);
        return r;
    }
    GLuint program = glCreateProgram();
    glAttachShader(program, v);
    glAttachShader(program, f);
    r = sw_gl_link_program(program, "crowd_draw", diag);
    glDeleteShader(v);
    glDeleteShader(f);
    if (r == SW_OK) *out = program;
    return r;
}

static void sw__buffer(GLuint buffer, size_t bytes, const void* data, GLenum usage) {
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer);
    /* An empty buffer (a model without skins or clips) still binds: 16 bytes, nothing read. */
    glBufferData(GL_SHADER_STORAGE_BUFFER, (GLsizeiptr)(bytes ? bytes : 16), bytes ? data : NULL, usage);
}

static void sw__rows(float* out, const sw_mat34* m) { memcpy(out, m->m, sizeof m->m); }

/* Per character: clip, phase, speed, then the placement's rows. */
static sw_result sw__crowd_characters(sw_gpu_crowd* c, const sw_gpu_crowd_desc* d, sw_diag* diag) {
    float* data = (float*)sw__calloc(c->n, 16 * sizeof(float));
    if (!data) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for %zu characters", c->n);
    const sw_mat34 identity = sw_mat34_identity();
    for (size_t i = 0; i < c->n; i++) {
        float* at = data + 16 * i;
        uint32_t clip = d->clips ? d->clips[i] : (c->clip_count ? 0u : SW_GPU_CROWD_REST);
        memcpy(&at[0], &clip, sizeof clip);
        at[1] = d->phases ? d->phases[i] : 0.0f;
        at[2] = d->speeds ? d->speeds[i] : 1.0f;
        sw__rows(at + 4, d->placements ? &d->placements[i] : &identity);
    }
    sw__buffer(c->buffers[SW__BUF_CHARACTERS], c->n * 64, data, GL_STATIC_DRAW);
    sw__free(data);
    return SW_OK;
}

/* Every clip's durations, then each track's times and values; per track
   two uvec4; per (clip, node) its T, R, S track (the last one wins, as in
   sw_sample_job_run). Weight tracks are left out. */
static sw_result sw__crowd_clips(sw_gpu_crowd* c, sw_diag* diag) {
    const sw_model* m = c->model;
    size_t tracks = 0, floats = c->clip_count;
    for (size_t k = 0; k < c->clip_count; k++)
        for (size_t t = 0; t < m->animations[k].track_count; t++) {
            const sw_track* tr = &m->animations[k].tracks[t];
            if (tr->path == SW_PATH_WEIGHTS) continue;
            tracks++;
            floats += tr->key_count * (1 + tr->component_count * (tr->interpolation == SW_INTERP_CUBICSPLINE ? 3 : 1));
        }
    if (floats > UINT32_MAX / 2)
        return sw_diag_set(diag, SW_ERR_UNSUPPORTED, -1, "the clips hold %zu floats, beyond 32-bit offsets", floats);
    const size_t slots = c->clip_count * c->node_count * 3;
    float* keys = (float*)sw__malloc((floats + 1) * sizeof(float));
    uint32_t* records = (uint32_t*)sw__calloc(tracks + 1, 8 * sizeof(uint32_t));
    uint32_t* node_tracks = (uint32_t*)sw__malloc((slots + 1) * sizeof(uint32_t));
    sw_result r = SW_OK;
    if (!keys || !records || !node_tracks) {
        r = sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for the clips");
        goto done;
    }
    for (size_t i = 0; i < slots; i++) node_tracks[i] = SW_CROWD_NONE;
    size_t at = c->clip_count, index = 0;
    const float* shared_times = NULL;
    size_t shared_count = 0;
    uint32_t shared_at = 0;
    for (size_t k = 0; k < c->clip_count; k++) {
        const sw_clip* clip = &m->animations[k];
        keys[k] = clip->duration;
        for (size_t t = 0; t < clip->track_count; t++) {
            const sw_track* tr = &clip->tracks[t];
            if (tr->path == SW_PATH_WEIGHTS) continue;
            const bool cubic = tr->interpolation == SW_INTERP_CUBICSPLINE;
            const size_t values = tr->key_count * tr->component_count * (cubic ? 3 : 1);
            uint32_t* rec = records + 8 * index;
            rec[0] = (uint32_t)tr->path;
            rec[1] = cubic                                     ? SW_CROWD_INTERP_CUBIC
                     : tr->interpolation == SW_INTERP_STEP ? SW_CROWD_INTERP_STEP
                                                               : SW_CROWD_INTERP_LINEAR;
            rec[2] = (uint32_t)tr->key_count;
            rec[3] = tr->component_count;
            /* Tracks sharing a times array (most exported clips) share its
               copy, so the shader locates a time once for all of them. */
            if (tr->times == shared_times && tr->key_count == shared_count) {
                rec[4] = shared_at;
            } else {
                rec[4] = shared_at = (uint32_t)at;
                shared_times = tr->times, shared_count = tr->key_count;
                memcpy(keys + at, tr->times, tr->key_count * sizeof(float));
                at += tr->key_count;
            }
            rec[5] = (uint32_t)at;
            memcpy(keys + at, tr->values, values * sizeof(float));
            at += values;
            node_tracks[(k * c->node_count + tr->target) * 3 + (size_t)tr->path] = (uint32_t)index;
            index++;
        }
    }
    sw__buffer(c->buffers[SW__BUF_KEYS], floats * 4, keys, GL_STATIC_DRAW);
    sw__buffer(c->buffers[SW__BUF_TRACKS], tracks * 32, records, GL_STATIC_DRAW);
    sw__buffer(c->buffers[SW__BUF_NODE_TRACKS], slots * 4, node_tracks, GL_STATIC_DRAW);
done:
    sw__free(keys), sw__free(records), sw__free(node_tracks);
    return r;
}

/* The rest pose, the parents and flags, matrix nodes' matrices; every
   skin's joints and inverse binds. */
static sw_result sw__crowd_nodes(sw_gpu_crowd* c, sw_diag* diag) {
    const sw_model* m = c->model;
    const size_t nodes = c->node_count;
    size_t joints = 0;
    for (size_t s = 0; s < m->skin_count; s++) joints += m->skins[s].joint_count;
    float* rest = (float*)sw__calloc(nodes + 1, 12 * sizeof(float));
    float* matrices = (float*)sw__calloc(nodes + 1, 12 * sizeof(float));
    uint32_t* info = (uint32_t*)sw__calloc(nodes + 1, 4 * sizeof(uint32_t));
    uint32_t* joint_nodes = (uint32_t*)sw__calloc(joints + 1, sizeof(uint32_t));
    float* inverse_binds = (float*)sw__calloc(joints + 1, 12 * sizeof(float));
    c->joint_base = (size_t*)sw__calloc(m->skin_count + 1, sizeof(size_t));
    sw_result r = SW_OK;
    if (!rest || !matrices || !info || !joint_nodes || !inverse_binds || !c->joint_base) {
        r = sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for the nodes");
        goto done;
    }
    for (size_t i = 0; i < nodes; i++) {
        const sw_transform* t = &m->rest_local[i];
        float* at = rest + 12 * i;
        at[0] = t->translation.x, at[1] = t->translation.y, at[2] = t->translation.z;
        at[4] = t->rotation.x, at[5] = t->rotation.y, at[6] = t->rotation.z, at[7] = t->rotation.w;
        at[8] = t->scale.x, at[9] = t->scale.y, at[10] = t->scale.z;
        const sw_model_node* node = &m->nodes[i];
        info[4 * i] = node->parent >= 0 ? (uint32_t)node->parent : SW_CROWD_NONE;
        info[4 * i + 1] = node->has_matrix ? SW_CROWD_NODE_MATRIX : 0u;
        sw__rows(matrices + 12 * i, &node->matrix);
    }
    size_t at = 0;
    for (size_t s = 0; s < m->skin_count; s++) {
        const sw_model_skin* skin = &m->skins[s];
        c->joint_base[s] = at;
        for (size_t j = 0; j < skin->joint_count; j++, at++) {
            joint_nodes[at] = skin->joints[j];
            info[4 * skin->joints[j] + 1] |= SW_CROWD_NODE_BOUNDS;
            sw__rows(inverse_binds + 12 * at, &skin->inverse_bind[j]);
        }
    }
    sw__buffer(c->buffers[SW__BUF_REST], nodes * 48, rest, GL_STATIC_DRAW);
    sw__buffer(c->buffers[SW__BUF_NODES], nodes * 16, info, GL_STATIC_DRAW);
    sw__buffer(c->buffers[SW__BUF_NODE_MATRICES], nodes * 48, matrices, GL_STATIC_DRAW);
    sw__buffer(c->buffers[SW__BUF_SKIN_JOINTS], joints * 4, joint_nodes, GL_STATIC_DRAW);
    sw__buffer(c->buffers[SW__BUF_INVERSE_BINDS], joints * 48, inverse_binds, GL_STATIC_DRAW);
done:
    sw__free(rest), sw__free(matrices), sw__free(info), sw__free(joint_nodes), sw__free(inverse_binds);
    return r;
}

/* Level 1 by vertex clustering (Rossignac and Borrel): the primitive's
   bind-pose box cut into cubes, SW__LOD1_CELLS across its longest side;
   the first vertex in a cube stands for every vertex in it, and a
   triangle whose corners land in fewer than three cubes disappears.
   source[i] is new vertex i's original vertex. */
#define SW__LOD1_CELLS 24

typedef struct sw__lod1 {
    size_t vertex_count, index_count;
    uint32_t* source;
    uint32_t* indices;
} sw__lod1;

static sw_result sw__cluster(const sw_model_primitive* prim, const uint32_t* indices, size_t index_count,
                             sw__lod1* out, sw_diag* diag) {
    const size_t n = prim->vertex_count;
    size_t slots = 16;
    while (slots < 2 * n) slots *= 2;
    uint64_t* keys = (uint64_t*)sw__malloc(slots * sizeof(uint64_t));
    uint32_t* values = (uint32_t*)sw__malloc(slots * sizeof(uint32_t));
    uint32_t* remap = (uint32_t*)sw__malloc(n * sizeof(uint32_t));
    out->source = (uint32_t*)sw__malloc(n * sizeof(uint32_t));
    out->indices = (uint32_t*)sw__malloc((index_count + 1) * sizeof(uint32_t));
    if (!keys || !values || !remap || !out->source || !out->indices) {
        sw__free(keys), sw__free(values), sw__free(remap);
        return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for a level of detail");
    }
    float extent = 0.0f;
    for (int a = 0; a < 3; a++) extent = fmaxf(extent, prim->bounds_max[a] - prim->bounds_min[a]);
    const float inverse_cell = extent > 0.0f ? (float)SW__LOD1_CELLS / extent : 0.0f;
    for (size_t i = 0; i < slots; i++) keys[i] = UINT64_MAX;
    out->vertex_count = 0;
    for (size_t v = 0; v < n; v++) {
        uint64_t key = 0;
        for (int a = 0; a < 3; a++) {
            float cell = floorf((prim->positions[3 * v + (size_t)a] - prim->bounds_min[a]) * inverse_cell);
            key |= (uint64_t)(cell > 0.0f ? (cell < (float)SW__LOD1_CELLS ? cell : (float)SW__LOD1_CELLS) : 0.0f)
                   << (16 * a);
        }
        size_t at = (size_t)((key * 0x9E3779B97F4A7C15ull) >> 20) & (slots - 1);
        while (keys[at] != UINT64_MAX && keys[at] != key) at = (at + 1) & (slots - 1);
        if (keys[at] == UINT64_MAX) {
            keys[at] = key;
            values[at] = (uint32_t)out->vertex_count;
            out->source[out->vertex_count++] = (uint32_t)v;
        }
        remap[v] = values[at];
    }
    out->index_count = 0;
    for (size_t t = 0; t + 2 < index_count; t += 3) {
        const uint32_t a = remap[indices[t]], b = remap[indices[t + 1]], c = remap[indices[t + 2]];
        if (a == b || b == c || a == c) continue;
        out->indices[out->index_count++] = a;
        out->indices[out->index_count++] = b;
        out->indices[out->index_count++] = c;
    }
    sw__free(keys), sw__free(values), sw__free(remap);
    return SW_OK;
}

/* The bounds margin over a primitive: the farthest bind-pose vertex from
   its heaviest joint's bind position, in bind space (the mesh's units). */
static size_t sw__heaviest(const sw_model_primitive* prim, size_t v) {
    const size_t k = (size_t)prim->influence_count;
    size_t best = 0;
    for (size_t i = 1; i < k; i++)
        if (prim->weights[v * k + i] > prim->weights[v * k + best]) best = i;
    return prim->joints[v * k + best];
}

static void sw__crowd_margin(sw_gpu_crowd* c, const sw_model_primitive* prim, const sw_model_skin* skin) {
    for (size_t v = 0; v < prim->vertex_count; v++) {
        const size_t joint = sw__heaviest(prim, v), j = joint < skin->joint_count ? joint : 0;
        sw_mat34 bind; /* the joint's bind pose: the inverse bind's inverse */
        sw_mat34_inverse(&bind, &skin->inverse_bind[j]);
        const float dx = prim->positions[3 * v] - bind.m[0][3], dy = prim->positions[3 * v + 1] - bind.m[1][3],
                    dz = prim->positions[3 * v + 2] - bind.m[2][3];
        c->margin = fmaxf(c->margin, sqrtf(dx * dx + dy * dy + dz * dz));
    }
}

/* Level 1's mesh: the clustered vertices, each bound to its heaviest joint
   with weight 1, no morph targets. */
static sw_result sw__crowd_level1(const sw_model_primitive* prim, const sw__lod1* lod, sw_gpu_mesh** out,
                                  sw_diag* diag) {
    const size_t n = lod->vertex_count;
    float* positions = (float*)sw__malloc(n * 12);
    float* normals = prim->normals ? (float*)sw__malloc(n * 12) : NULL;
    float* tangents = prim->tangents ? (float*)sw__malloc(n * 16) : NULL;
    uint16_t* joints = (uint16_t*)sw__malloc(n * sizeof(uint16_t));
    float* weights = (float*)sw__malloc(n * sizeof(float));
    sw_result r = SW_OK;
    if (!positions || !joints || !weights || (prim->normals && !normals) || (prim->tangents && !tangents)) {
        r = sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for a level of detail");
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        const size_t v = lod->source[i];
        memcpy(positions + 3 * i, prim->positions + 3 * v, 12);
        if (normals) memcpy(normals + 3 * i, prim->normals + 3 * v, 12);
        if (tangents) memcpy(tangents + 4 * i, prim->tangents + 4 * v, 16);
        joints[i] = (uint16_t)sw__heaviest(prim, v);
        weights[i] = 1.0f;
    }
    const sw_gpu_mesh_desc desc = {.vertex_count = n, .influence_count = 1, .positions = positions,
                                   .normals = normals, .tangents = tangents, .joints = joints,
                                   .joint_format = SW_JOINT_U16, .weights = weights, .weight_format = SW_WEIGHT_F32};
    r = sw_gpu_mesh_create(&desc, out, diag);
done:
    sw__free(positions), sw__free(normals), sw__free(tangents), sw__free(joints), sw__free(weights);
    return r;
}

/* Vertex arrays of a level's outputs and its indices. */
static void sw__crowd_vertex_array(sw__crowd_prim* p, int level) {
    sw_gpu_instance_buffers b;
    sw_gpu_instance_get_buffers(p->instance[level], &b);
    glGenVertexArrays(1, &p->vao[level]);
    glBindVertexArray(p->vao[level]);
    glBindBuffer(GL_ARRAY_BUFFER, b.positions);
    glEnableVertexAttribArray(SW_CROWD_ATTR_POSITION);
    glVertexAttribPointer(SW_CROWD_ATTR_POSITION, 3, GL_FLOAT, GL_FALSE, 12, (const void*)0);
    if (b.normals_offset != SIZE_MAX) {
        glBindBuffer(GL_ARRAY_BUFFER, b.normals_tangents);
        glEnableVertexAttribArray(SW_CROWD_ATTR_NORMAL);
        glVertexAttribPointer(SW_CROWD_ATTR_NORMAL, 3, GL_FLOAT, GL_FALSE, 12, (const void*)b.normals_offset);
    } else {
        glVertexAttrib3f(SW_CROWD_ATTR_NORMAL, 0.0f, 1.0f, 0.0f);
    }
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, p->indices[level]);
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
}

static void sw__index_buffer(GLuint* buffer, const uint32_t* indices, size_t count) {
    glGenBuffers(1, buffer);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, *buffer);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)(count ? count * 4 : 4), count ? indices : NULL, GL_STATIC_DRAW);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, 0);
}

/* Both levels of one primitive: meshes, instances of N copies, indices. */
static sw_result sw__crowd_prim_make(sw_gpu_crowd* c, sw__crowd_prim* p, sw_diag* diag) {
    const sw_model* m = c->model;
    const sw_model_primitive* prim = &m->meshes[m->nodes[p->node].mesh].primitives[p->primitive];
    const size_t index_count = prim->indices ? prim->index_count : prim->vertex_count;
    uint32_t* sequence = NULL;
    const uint32_t* indices = prim->indices;
    sw__lod1 lod = {0};
    sw_gpu_morph_target* targets = (sw_gpu_morph_target*)sw__malloc((prim->target_count + 1) * sizeof *targets);
    if (!indices) {
        indices = sequence = (uint32_t*)sw__malloc(index_count * 4 + 4);
        for (size_t i = 0; sequence && i < index_count; i++) sequence[i] = (uint32_t)i;
    }
    sw_result r = targets && indices ? sw__cluster(prim, indices, index_count, &lod, diag)
                                     : sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for a primitive");
    if (r == SW_OK) {
        p->vertex_count[0] = prim->vertex_count, p->index_count[0] = index_count;
        p->vertex_count[1] = lod.vertex_count, p->index_count[1] = lod.index_count;
        sw__index_buffer(&p->indices[0], indices, index_count);
        sw__index_buffer(&p->indices[1], lod.indices, lod.index_count);
        sw__crowd_margin(c, prim, &m->skins[p->skin]);
        sw_gpu_mesh_desc desc;
        sw_gpu_mesh_desc_from_primitive(prim, targets, &desc);
        r = sw_gpu_mesh_create(&desc, &p->mesh[0], diag);
    }
    if (r == SW_OK) r = sw__crowd_level1(prim, &lod, &p->mesh[1], diag);
    for (int level = 0; r == SW_OK && level < SW_CROWD_LODS; level++) {
        r = sw_gpu_instance_create_crowd(p->mesh[level], c->n, &p->instance[level], diag);
        if (r == SW_OK) sw__crowd_vertex_array(p, level);
    }
    if (r == SW_OK && prim->vertex_count > sw__gpu_max_groups_x(c->skinner) * SW_SKIN_GROUP_SIZE)
        r = sw_diag_set(diag, SW_ERR_UNSUPPORTED, -1, "a primitive of %zu vertices is more than one dispatch skins",
                        prim->vertex_count);
    sw__free(targets), sw__free(sequence), sw__free(lod.source), sw__free(lod.indices);
    return r;
}

/* Every triangle primitive with influences on a skinned node, and the
   palette of its skin. */
static sw_result sw__crowd_prims(sw_gpu_crowd* c, sw_diag* diag) {
    const sw_model* m = c->model;
    size_t count = 0;
    for (int pass = 0; pass < 2; pass++) {
        count = 0;
        for (size_t nd = 0; nd < m->node_count; nd++) {
            const sw_model_node* node = &m->nodes[nd];
            if (node->mesh < 0 || node->skin < 0) continue;
            const sw_model_mesh* mesh = &m->meshes[node->mesh];
            for (size_t p = 0; p < mesh->primitive_count; p++) {
                if (mesh->primitives[p].influence_count == 0 || mesh->primitives[p].mode != SW_MODEL_TRIANGLES) continue;
                if (pass == 1) c->prims[count] = (sw__crowd_prim){.node = nd, .primitive = p, .skin = node->skin};
                count++;
            }
        }
        if (pass == 0) {
            c->prims = (sw__crowd_prim*)sw__calloc(count + 1, sizeof *c->prims);
            c->palettes = (sw_gpu_palette**)sw__calloc(m->skin_count + 1, sizeof *c->palettes);
            if (!c->prims || !c->palettes) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory");
        }
    }
    c->prim_count = count;
    sw_result r = SW_OK;
    for (size_t i = 0; r == SW_OK && i < count; i++) {
        sw__crowd_prim* p = &c->prims[i];
        if (!c->palettes[p->skin])
            r = sw_gpu_palette_create_crowd(c->skinner, m->skins[p->skin].joint_count, c->n, &c->palettes[p->skin], diag);
        if (r == SW_OK) r = sw__crowd_prim_make(c, p, diag);
    }
    return r;
}

/* The command, count, list and dispatch buffers, and the primitive table. */
static sw_result sw__crowd_frame_buffers(sw_gpu_crowd* c, sw_diag* diag) {
    const size_t table = SW_CROWD_LODS * c->prim_count;
    uint32_t* prims = (uint32_t*)sw__calloc(table, 4 * sizeof(uint32_t));
    uint32_t* args = (uint32_t*)sw__calloc(table, 3 * sizeof(uint32_t));
    if (!prims || !args) {
        sw__free(prims), sw__free(args);
        return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory");
    }
    for (size_t level = 0; level < SW_CROWD_LODS; level++)
        for (size_t p = 0; p < c->prim_count; p++) {
            const size_t i = level * c->prim_count + p;
            prims[4 * i] = (uint32_t)c->prims[p].index_count[level];
            prims[4 * i + 1] = (uint32_t)c->prims[p].vertex_count[level];
            args[3 * i] = (uint32_t)((c->prims[p].vertex_count[level] + SW_SKIN_GROUP_SIZE - 1) / SW_SKIN_GROUP_SIZE);
            args[3 * i + 1] = 0;
            args[3 * i + 2] = 1;
        }
    sw__buffer(c->buffers[SW__BUF_PRIMITIVES], table * 16, prims, GL_STATIC_DRAW);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, c->buffers[SW__BUF_ARGS]);
    glBufferData(GL_SHADER_STORAGE_BUFFER, (GLsizeiptr)(table * 12), args, GL_DYNAMIC_COPY);
    sw__free(prims), sw__free(args);
    sw__buffer(c->buffers[SW__BUF_COMMANDS], table * c->n * SW_CROWD_COMMAND_UINTS * 4, NULL, GL_DYNAMIC_COPY);
    sw__buffer(c->buffers[SW__BUF_COUNTS], SW_CROWD_LODS * 4, NULL, GL_DYNAMIC_COPY);
    sw__buffer(c->buffers[SW__BUF_LISTS], SW_CROWD_LODS * c->n * 4, NULL, GL_DYNAMIC_COPY);
    sw__buffer(c->buffers[SW__BUF_LOCALS], c->n * c->node_count * 48, NULL, GL_DYNAMIC_COPY);
    sw__buffer(c->buffers[SW__BUF_WORLD], c->n * c->node_count * 48, NULL, GL_DYNAMIC_COPY);
    sw__buffer(c->buffers[SW__BUF_BOUNDS], c->n * 16, NULL, GL_DYNAMIC_COPY);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
    return SW_OK;
}

static sw_result sw__crowd_check(sw_gpu_skinner* skinner, const sw_gpu_crowd_desc* d, sw_diag* diag) {
    if (!skinner || !d || !d->model) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "NULL skinner, desc or model");
    const sw_model* m = d->model;
    GLint max_y = 0;
    glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_COUNT, 1, &max_y);
    if (d->character_count == 0 || d->character_count > (size_t)(max_y > 0 ? max_y : 65535))
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "a GPU crowd of %zu characters (1..%d)", d->character_count,
                           max_y > 0 ? max_y : 65535);
    const size_t per_dispatch = sw__gpu_max_groups_x(skinner) * SW_CROWD_GROUP_SIZE;
    size_t joints = 0;
    for (size_t s = 0; s < m->skin_count; s++) joints = m->skins[s].joint_count > joints ? m->skins[s].joint_count : joints;
    if (m->node_count == 0 || d->character_count > per_dispatch / m->node_count ||
        d->character_count > per_dispatch / (joints ? joints : 1))
        return sw_diag_set(diag, SW_ERR_UNSUPPORTED, -1, "%zu characters of %zu nodes are more than one dispatch poses",
                           d->character_count, m->node_count);
    for (size_t i = 0; i < d->character_count; i++) {
        if (d->clips && d->clips[i] != SW_GPU_CROWD_REST && d->clips[i] >= m->animation_count)
            return sw_diag_set(diag, SW_ERR_INDEX_OUT_OF_RANGE, (int64_t)i, "character %zu plays clip %u of %zu", i,
                               (unsigned)d->clips[i], m->animation_count);
        if ((d->phases && !isfinite(d->phases[i])) || (d->speeds && !isfinite(d->speeds[i])))
            return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, (int64_t)i, "character %zu: phase or speed not finite", i);
    }
    return SW_OK;
}

sw_result sw_gpu_crowd_create(sw_gpu_skinner* skinner, const sw_gpu_crowd_desc* d, sw_gpu_crowd** out,
                              sw_diag* diag) {
    if (!out) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "out_crowd is NULL");
    *out = NULL;
    sw_result r = sw__crowd_check(skinner, d, diag);
    if (r != SW_OK) return r;
    sw_gpu_crowd* c = (sw_gpu_crowd*)sw__calloc(1, sizeof *c);
    if (!c) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for a GPU crowd");
    c->model = d->model, c->skinner = skinner, c->n = d->character_count;
    c->node_count = d->model->node_count, c->clip_count = d->model->animation_count;
    c->looping = !d->hold;
    glGenBuffers(SW__BUFFERS, c->buffers);
    for (int s = 0; r == SW_OK && s < SW__STAGES; s++) r = sw__crowd_program(s, &c->programs[s], diag);
    if (r == SW_OK) r = sw__crowd_draw_program(&c->draw_program, diag);
    if (r == SW_OK) r = sw__crowd_characters(c, d, diag);
    if (r == SW_OK) r = sw__crowd_clips(c, diag);
    if (r == SW_OK) r = sw__crowd_nodes(c, diag);
    if (r == SW_OK) r = sw__crowd_prims(c, diag);
    if (r == SW_OK) r = sw__crowd_frame_buffers(c, diag);
    if (r == SW_OK) r = sw_gl_check("making a GPU crowd", diag);
    if (r != SW_OK) {
        sw_gpu_crowd_destroy(c);
        return r;
    }
    *out = c;
    return SW_OK;
}

void sw_gpu_crowd_destroy(sw_gpu_crowd* c) {
    if (!c) return;
    for (size_t i = 0; c->prims && i < c->prim_count; i++) {
        sw__crowd_prim* p = &c->prims[i];
        for (int level = 0; level < SW_CROWD_LODS; level++) {
            sw_gpu_instance_destroy(p->instance[level]);
            sw_gpu_mesh_destroy(p->mesh[level]);
            glDeleteVertexArrays(1, &p->vao[level]);
            glDeleteBuffers(1, &p->indices[level]);
        }
    }
    for (size_t s = 0; c->palettes && s < c->model->skin_count; s++) sw_gpu_palette_destroy(c->palettes[s]);
    for (int s = 0; s < SW__STAGES; s++) glDeleteProgram(c->programs[s]);
    glDeleteProgram(c->draw_program);
    glDeleteBuffers(SW__BUFFERS, c->buffers);
    sw__free(c->prims), sw__free(c->palettes), sw__free(c->joint_base);
    sw__free(c);
}

/* ---- a frame -------------------------------------------------------------------------- */

static void sw__bind(const sw_gpu_crowd* c, GLuint binding, int buffer) {
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, binding, c->buffers[buffer]);
}

static GLuint sw__groups(size_t invocations) {
    return (GLuint)((invocations + SW_CROWD_GROUP_SIZE - 1) / SW_CROWD_GROUP_SIZE);
}

sw_result sw_gpu_crowd_pose(sw_gpu_crowd* c, float seconds, sw_diag* diag) {
    if (!c || !isfinite(seconds)) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "NULL crowd or a time not finite");
    sw__bind(c, SW_CROWD_BUFFER_CHARACTERS, SW__BUF_CHARACTERS);
    /* 1. sample: one invocation per (character, node). */
    glUseProgram(c->programs[SW__STAGE_SAMPLE]);
    sw__bind(c, SW_CROWD_BUFFER_TRACKS, SW__BUF_TRACKS);
    sw__bind(c, SW_CROWD_BUFFER_KEYS, SW__BUF_KEYS);
    sw__bind(c, SW_CROWD_BUFFER_NODE_TRACKS, SW__BUF_NODE_TRACKS);
    sw__bind(c, SW_CROWD_BUFFER_REST, SW__BUF_REST);
    sw__bind(c, SW_CROWD_BUFFER_LOCALS, SW__BUF_LOCALS);
    glUniform1ui(SW_CROWD_LOC_CHARACTERS, (GLuint)c->n);
    glUniform1ui(SW_CROWD_LOC_NODE_COUNT, (GLuint)c->node_count);
    glUniform1f(SW_CROWD_LOC_TIME, seconds);
    glUniform1ui(SW_CROWD_LOC_LOOPING, c->looping ? 1u : 0u);
    glUniform1ui(SW_CROWD_LOC_CLIP_COUNT, (GLuint)c->clip_count);
    glDispatchCompute(sw__groups(c->n * c->node_count), 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    /* 2. world and bounds: one invocation per character, parents first. */
    glUseProgram(c->programs[SW__STAGE_WORLD]);
    sw__bind(c, SW_CROWD_BUFFER_NODES, SW__BUF_NODES);
    sw__bind(c, SW_CROWD_BUFFER_NODE_MATRICES, SW__BUF_NODE_MATRICES);
    sw__bind(c, SW_CROWD_BUFFER_WORLD, SW__BUF_WORLD);
    sw__bind(c, SW_CROWD_BUFFER_BOUNDS, SW__BUF_BOUNDS);
    glUniform1ui(SW_CROWD_LOC_CHARACTERS, (GLuint)c->n);
    glUniform1ui(SW_CROWD_LOC_NODE_COUNT, (GLuint)c->node_count);
    glUniform1f(SW_CROWD_LOC_MARGIN, c->margin);
    glDispatchCompute(sw__groups(c->n), 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    /* 3. skin matrices: per skin, one invocation per (character, joint). */
    glUseProgram(c->programs[SW__STAGE_SKIN]);
    sw__bind(c, SW_CROWD_BUFFER_SKIN_JOINTS, SW__BUF_SKIN_JOINTS);
    sw__bind(c, SW_CROWD_BUFFER_INVERSE_BINDS, SW__BUF_INVERSE_BINDS);
    glUniform1ui(SW_CROWD_LOC_CHARACTERS, (GLuint)c->n);
    glUniform1ui(SW_CROWD_LOC_NODE_COUNT, (GLuint)c->node_count);
    for (size_t s = 0; s < c->model->skin_count; s++) {
        if (!c->palettes[s]) continue;
        const size_t joints = c->model->skins[s].joint_count;
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SW_CROWD_BUFFER_PALETTE, sw__gpu_palette_matrix_buffer(c->palettes[s]));
        glUniform1ui(SW_CROWD_LOC_JOINT_BASE, (GLuint)c->joint_base[s]);
        glUniform1ui(SW_CROWD_LOC_JOINT_COUNT, (GLuint)joints);
        glDispatchCompute(sw__groups(c->n * joints), 1, 1);
    }
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    glUseProgram(0);
    return sw_gl_check("posing a GPU crowd", diag);
}

/* 4. cull and level: commands, counts and lists; the counts then become
   the y of every level's indirect skinning dispatches. */
static void sw__crowd_cull(sw_gpu_crowd* c, const sw_gpu_crowd_view* view) {
    static const sw_gpu_crowd_view everything = {.planes = {{0, 0, 0, 1}, {0, 0, 0, 1}, {0, 0, 0, 1}, {0, 0, 0, 1},
                                                            {0, 0, 0, 1}, {0, 0, 0, 1}},
                                                 .lod_threshold = 1.0f};
    const sw_gpu_crowd_view* v = view ? view : &everything; /* depth 0: always level 0 */
    const GLuint zero = 0;
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, c->buffers[SW__BUF_COUNTS]);
    glClearBufferData(GL_SHADER_STORAGE_BUFFER, GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, &zero);
    glUseProgram(c->programs[SW__STAGE_CULL]);
    sw__bind(c, SW_CROWD_BUFFER_BOUNDS, SW__BUF_BOUNDS);
    sw__bind(c, SW_CROWD_BUFFER_PRIMITIVES, SW__BUF_PRIMITIVES);
    sw__bind(c, SW_CROWD_BUFFER_COMMANDS, SW__BUF_COMMANDS);
    sw__bind(c, SW_CROWD_BUFFER_COUNTS, SW__BUF_COUNTS);
    sw__bind(c, SW_CROWD_BUFFER_LISTS, SW__BUF_LISTS);
    glUniform1ui(SW_CROWD_LOC_CHARACTERS, (GLuint)c->n);
    glUniform1ui(SW_CROWD_LOC_PRIMITIVES, (GLuint)c->prim_count);
    glUniform4fv(SW_CROWD_LOC_DEPTH_ROW, 1, v->depth_row);
    glUniform2f(SW_CROWD_LOC_LOD, v->projection_scale, v->lod_threshold);
    glUniform4fv(SW_CROWD_LOC_PLANES, SW_CROWD_PLANES, &v->planes[0][0]);
    glDispatchCompute(sw__groups(c->n), 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT | GL_COMMAND_BARRIER_BIT);
    glBindBuffer(GL_COPY_READ_BUFFER, c->buffers[SW__BUF_COUNTS]);
    glBindBuffer(GL_COPY_WRITE_BUFFER, c->buffers[SW__BUF_ARGS]);
    for (size_t level = 0; level < SW_CROWD_LODS; level++)
        for (size_t p = 0; p < c->prim_count; p++)
            glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, (GLintptr)(level * 4),
                                (GLintptr)(((level * c->prim_count + p) * 3 + 1) * 4), 4);
    glBindBuffer(GL_COPY_READ_BUFFER, 0);
    glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
    glUseProgram(0);
}

sw_result sw_gpu_crowd_update(sw_gpu_crowd* c, float seconds, const sw_gpu_crowd_view* view, sw_diag* diag) {
    sw_result r = sw_gpu_crowd_pose(c, seconds, diag);
    if (r != SW_OK) return r;
    sw__crowd_cull(c, view);
    /* 5. skinning of the listed characters, per (level, primitive). */
    for (size_t level = 0; r == SW_OK && level < SW_CROWD_LODS; level++)
        for (size_t p = 0; r == SW_OK && p < c->prim_count; p++) {
            const sw__crowd_prim* prim = &c->prims[p];
            r = sw__gpu_skin_listed(c->skinner, prim->instance[level], c->palettes[prim->skin],
                                    c->buffers[SW__BUF_LISTS], (uint32_t)(level * c->n), c->buffers[SW__BUF_ARGS],
                                    ((level * c->prim_count + p) * 3) * 4, diag);
        }
    glMemoryBarrier(GL_VERTEX_ATTRIB_ARRAY_BARRIER_BIT | GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    return r == SW_OK ? sw_gl_check("updating a GPU crowd", diag) : r;
}

sw_result sw_gpu_crowd_draw(sw_gpu_crowd* c, const float view_projection[16], sw_diag* diag) {
    if (!c || !view_projection) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "NULL crowd or matrix");
    glUseProgram(c->draw_program);
    glUniformMatrix4fv(SW_CROWD_LOC_VIEW_PROJECTION, 1, GL_FALSE, view_projection);
    const GLboolean depth_test = glIsEnabled(GL_DEPTH_TEST);
    glEnable(GL_DEPTH_TEST);
    glBindBuffer(GL_DRAW_INDIRECT_BUFFER, c->buffers[SW__BUF_COMMANDS]);
    for (size_t level = 0; level < SW_CROWD_LODS; level++)
        for (size_t p = 0; p < c->prim_count; p++) {
            glBindVertexArray(c->prims[p].vao[level]);
            const size_t first = (level * c->prim_count + p) * c->n * SW_CROWD_COMMAND_UINTS * 4;
            glMultiDrawElementsIndirect(GL_TRIANGLES, GL_UNSIGNED_INT, (const void*)first, (GLsizei)c->n, 0);
        }
    glBindVertexArray(0);
    glBindBuffer(GL_DRAW_INDIRECT_BUFFER, 0);
    glUseProgram(0);
    if (!depth_test) glDisable(GL_DEPTH_TEST);
    return sw_gl_check("drawing a GPU crowd", diag);
}

/* ---- reading back ---------------------------------------------------------------------- */

size_t sw_gpu_crowd_character_count(const sw_gpu_crowd* c) { return c ? c->n : 0; }
size_t sw_gpu_crowd_primitive_count(const sw_gpu_crowd* c) { return c ? c->prim_count : 0; }

sw_gpu_instance* sw_gpu_crowd_instance(const sw_gpu_crowd* c, size_t lod, size_t primitive) {
    return c && lod < SW_CROWD_LODS && primitive < c->prim_count ? c->prims[primitive].instance[lod] : NULL;
}

static sw_result sw__read(GLuint buffer, size_t offset, size_t bytes, void* out, sw_diag* diag) {
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glBindBuffer(GL_COPY_READ_BUFFER, buffer);
    glGetBufferSubData(GL_COPY_READ_BUFFER, (GLintptr)offset, (GLsizeiptr)bytes, out);
    glBindBuffer(GL_COPY_READ_BUFFER, 0);
    return sw_gl_check("reading a GPU crowd back", diag);
}

sw_result sw_gpu_crowd_read_world(const sw_gpu_crowd* c, sw_mat34* out, sw_diag* diag) {
    if (!c || !out) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "NULL crowd or output");
    return sw__read(c->buffers[SW__BUF_WORLD], 0, c->n * c->node_count * sizeof(sw_mat34), out, diag);
}

sw_result sw_gpu_crowd_read_palette(const sw_gpu_crowd* c, size_t skin, sw_mat34* out, sw_diag* diag) {
    if (!c || !out || skin >= c->model->skin_count || !c->palettes[skin])
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "no crowd palette for skin %zu", skin);
    return sw__read(sw__gpu_palette_matrix_name(c->palettes[skin]), 0,
                    c->n * c->model->skins[skin].joint_count * sizeof(sw_mat34), out, diag);
}

sw_result sw_gpu_crowd_read_bounds(const sw_gpu_crowd* c, float* out, sw_diag* diag) {
    if (!c || !out) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "NULL crowd or output");
    return sw__read(c->buffers[SW__BUF_BOUNDS], 0, c->n * 16, out, diag);
}

sw_result sw_gpu_crowd_read_commands(const sw_gpu_crowd* c, uint32_t* commands, uint32_t* counts, sw_diag* diag) {
    if (!c) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "NULL crowd");
    sw_result r = SW_OK;
    if (commands)
        r = sw__read(c->buffers[SW__BUF_COMMANDS], 0, SW_CROWD_LODS * c->prim_count * c->n * SW_CROWD_COMMAND_UINTS * 4,
                     commands, diag);
    if (r == SW_OK && counts) r = sw__read(c->buffers[SW__BUF_COUNTS], 0, SW_CROWD_LODS * 4, counts, diag);
    return r;
}
