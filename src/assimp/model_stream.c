/* A finished model as one byte string and back (model_stream.h). The
   writer runs in the Assimp import child; the reader runs in the parent
   and trusts nothing: the child may have been subverted by the file it
   read, so every count is checked against the bytes left before it is
   allocated, every index against what it indexes, every float finite, and
   the fields other fields derive from (weight offsets, palette offsets,
   node_from_source, the rest pose) are recomputed rather than read.

   Byte order is the host's: the stream only passes between a process and
   the child it forked. docs/import.md gives the layout. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "model_stream.h"
#include "../base/base_internal.h"
#include "../model/model_internal.h"

static const uint8_t sw__ms_magic[8] = {'S', 'W', 'M', 'O', 'D', 'E', 'L', 0};
#define SW__MS_NO_STRING 0xFFFFFFFFu

/* ---- writing ------------------------------------------------------------------------------------ */

typedef struct sw__ms_writer {
    uint8_t* data;
    size_t size, capacity;
    bool failed;
} sw__ms_writer;

static void sw__ms_put(sw__ms_writer* w, const void* bytes, size_t n) {
    if (w->failed || n == 0) return;
    if (w->capacity - w->size < n) {
        size_t capacity = w->capacity ? w->capacity : 4096;
        while (capacity - w->size < n) {
            if (capacity > SIZE_MAX / 2) {
                w->failed = true;
                return;
            }
            capacity *= 2;
        }
        uint8_t* grown = sw__realloc(w->data, capacity);
        if (!grown) {
            w->failed = true;
            return;
        }
        w->data = grown;
        w->capacity = capacity;
    }
    memcpy(w->data + w->size, bytes, n);
    w->size += n;
}

static void sw__ms_u8(sw__ms_writer* w, uint8_t v) { sw__ms_put(w, &v, 1); }
static void sw__ms_u32(sw__ms_writer* w, uint32_t v) { sw__ms_put(w, &v, 4); }
static void sw__ms_i32(sw__ms_writer* w, int32_t v) { sw__ms_put(w, &v, 4); }
static void sw__ms_u64(sw__ms_writer* w, size_t v) {
    uint64_t x = (uint64_t)v;
    sw__ms_put(w, &x, 8);
}
static void sw__ms_f32s(sw__ms_writer* w, const float* v, size_t n) { sw__ms_put(w, v, n * sizeof(float)); }

static void sw__ms_str(sw__ms_writer* w, const char* s) {
    if (!s) {
        sw__ms_u32(w, SW__MS_NO_STRING);
        return;
    }
    size_t n = strlen(s);
    if (n >= SW__MS_NO_STRING) {
        w->failed = true;
        return;
    }
    sw__ms_u32(w, (uint32_t)n);
    sw__ms_put(w, s, n);
}

/* An optional array of n elements of `size` bytes: a presence byte, then the elements. */
static void sw__ms_array(sw__ms_writer* w, const void* v, size_t n, size_t size) {
    sw__ms_u8(w, v ? 1 : 0);
    if (v) sw__ms_put(w, v, n * size);
}

static void sw__ms_texture_ref(sw__ms_writer* w, const sw_model_texture_ref* t) {
    sw__ms_i32(w, t->texture);
    sw__ms_i32(w, t->texcoord);
    sw__ms_f32s(w, &t->scale, 1);
    sw__ms_u8(w, t->has_transform);
    sw__ms_f32s(w, t->offset, 2);
    sw__ms_f32s(w, &t->rotation, 1);
    sw__ms_f32s(w, t->uv_scale, 2);
}

static void sw__ms_transform(sw__ms_writer* w, const sw_transform* t) {
    float v[10] = {t->translation.x, t->translation.y, t->translation.z, t->rotation.x, t->rotation.y,
                   t->rotation.z,    t->rotation.w,    t->scale.x,       t->scale.y,    t->scale.z};
    sw__ms_f32s(w, v, 10);
}

static void sw__ms_primitive(sw__ms_writer* w, const sw_model_primitive* p, size_t weight_count) {
    size_t vc = p->vertex_count;
    sw__ms_u32(w, (uint32_t)p->mode);
    sw__ms_i32(w, p->material);
    sw__ms_u64(w, vc);
    sw__ms_array(w, p->positions, vc * 3, sizeof(float));
    sw__ms_array(w, p->normals, vc * 3, sizeof(float));
    sw__ms_array(w, p->tangents, vc * 4, sizeof(float));
    sw__ms_i32(w, p->texcoord_count);
    for (int t = 0; t < p->texcoord_count && t < SW_MODEL_MAX_TEXCOORDS; t++)
        sw__ms_array(w, p->texcoords[t], vc * 2, sizeof(float));
    sw__ms_array(w, p->colors, vc * 4, sizeof(float));
    sw__ms_i32(w, p->influence_count);
    sw__ms_array(w, p->joints, vc * (size_t)p->influence_count, sizeof(uint16_t));
    sw__ms_array(w, p->weights, vc * (size_t)p->influence_count, sizeof(float));
    sw__ms_i32(w, p->influence_sets);
    sw__ms_i32(w, p->raw_influence_count);
    sw__ms_array(w, p->raw_joints, vc * (size_t)p->raw_influence_count, sizeof(uint16_t));
    sw__ms_array(w, p->raw_weights, vc * (size_t)p->raw_influence_count, sizeof(float));
    sw__ms_u64(w, p->index_count);
    sw__ms_array(w, p->indices, p->index_count, sizeof(uint32_t));
    (void)weight_count;
    sw__ms_u64(w, p->target_count);
    sw__ms_u8(w, p->targets ? 1 : 0);
    for (size_t t = 0; p->targets && t < p->target_count; t++) {
        sw__ms_array(w, p->targets[t].positions, vc * 3, sizeof(float));
        sw__ms_array(w, p->targets[t].normals, vc * 3, sizeof(float));
        sw__ms_array(w, p->targets[t].tangents, vc * 3, sizeof(float));
    }
    sw__ms_f32s(w, p->bounds_min, 3);
    sw__ms_f32s(w, p->bounds_max, 3);
}

sw_result sw__model_stream_write(const sw_model* m, uint8_t** out_data, size_t* out_size) {
    *out_data = NULL;
    *out_size = 0;
    sw__ms_writer w = {0};
    sw__ms_put(&w, sw__ms_magic, 8);
    sw__ms_u32(&w, SW__MODEL_STREAM_VERSION);
    sw__ms_u32(&w, 0);
    sw__ms_u64(&w, 0); /* the body's size, filled in at the end */

    sw__ms_str(&w, m->path);
    sw__ms_str(&w, m->generator);
    sw__ms_str(&w, m->format);
    sw__ms_str(&w, m->base_dir);
    sw__ms_u8(&w, m->allow_outside_paths);
    sw__ms_f32s(&w, &m->unit_scale_to_metres, 1);
    sw__ms_put(&w, m->up_axis_read, 3);
    sw__ms_u64(&w, m->import_dropped_vertices);
    sw__ms_f32s(&w, &m->import_dropped_weight, 1);
    sw__ms_u64(&w, m->import_collapsed_nodes);
    sw__ms_i32(&w, m->default_scene);

    sw__ms_u64(&w, m->node_count);
    for (size_t i = 0; i < m->node_count; i++) {
        const sw_model_node* n = &m->nodes[i];
        sw__ms_str(&w, n->name);
        sw__ms_i32(&w, n->parent);
        sw__ms_u64(&w, n->child_count);
        sw__ms_array(&w, n->children, n->child_count, sizeof(uint32_t));
        sw__ms_i32(&w, n->mesh);
        sw__ms_i32(&w, n->skin);
        sw__ms_i32(&w, n->camera);
        sw__ms_u8(&w, n->has_matrix);
        sw__ms_f32s(&w, &n->matrix.m[0][0], 12);
        sw__ms_transform(&w, &n->trs);
        sw__ms_u64(&w, n->weight_count);
        sw__ms_array(&w, n->weights, n->weight_count, sizeof(float));
        sw__ms_u32(&w, n->source_index);
    }
    sw__ms_u64(&w, m->scene_count);
    for (size_t i = 0; i < m->scene_count; i++) {
        sw__ms_str(&w, m->scenes[i].name);
        sw__ms_u64(&w, m->scenes[i].node_count);
        sw__ms_array(&w, m->scenes[i].nodes, m->scenes[i].node_count, sizeof(uint32_t));
    }
    sw__ms_u64(&w, m->mesh_count);
    for (size_t i = 0; i < m->mesh_count; i++) {
        const sw_model_mesh* mesh = &m->meshes[i];
        sw__ms_str(&w, mesh->name);
        sw__ms_u64(&w, mesh->weight_count);
        sw__ms_array(&w, mesh->weights, mesh->weight_count, sizeof(float));
        sw__ms_u8(&w, mesh->target_names ? 1 : 0);
        for (size_t t = 0; mesh->target_names && t < mesh->weight_count; t++) sw__ms_str(&w, mesh->target_names[t]);
        sw__ms_u64(&w, mesh->primitive_count);
        for (size_t p = 0; p < mesh->primitive_count; p++) sw__ms_primitive(&w, &mesh->primitives[p], mesh->weight_count);
    }
    sw__ms_u64(&w, m->skin_count);
    for (size_t i = 0; i < m->skin_count; i++) {
        const sw_model_skin* s = &m->skins[i];
        sw__ms_str(&w, s->name);
        sw__ms_u64(&w, s->joint_count);
        sw__ms_array(&w, s->joints, s->joint_count, sizeof(uint32_t));
        sw__ms_array(&w, s->inverse_bind, s->joint_count, sizeof(sw_mat34));
        sw__ms_i32(&w, s->skeleton);
    }
    sw__ms_u64(&w, m->animation_count);
    for (size_t i = 0; i < m->animation_count; i++) {
        const sw_clip* c = &m->animations[i];
        sw__ms_str(&w, c->name);
        sw__ms_f32s(&w, &c->start, 1);
        sw__ms_f32s(&w, &c->duration, 1);
        sw__ms_u64(&w, c->track_count);
        for (size_t t = 0; t < c->track_count; t++) {
            const sw_track* k = &c->tracks[t];
            sw__ms_u32(&w, k->target);
            sw__ms_u32(&w, (uint32_t)k->path);
            sw__ms_u32(&w, (uint32_t)k->interpolation);
            sw__ms_u32(&w, k->component_count);
            sw__ms_u64(&w, k->key_count);
            sw__ms_f32s(&w, k->times, k->key_count);
            size_t values = k->key_count * k->component_count * (k->interpolation == SW_INTERP_CUBICSPLINE ? 3 : 1);
            sw__ms_f32s(&w, k->values, values);
        }
    }
    sw__ms_u64(&w, m->material_count);
    for (size_t i = 0; i < m->material_count; i++) {
        const sw_model_material* mat = &m->materials[i];
        sw__ms_str(&w, mat->name);
        sw__ms_f32s(&w, mat->base_color_factor, 4);
        sw__ms_texture_ref(&w, &mat->base_color_texture);
        sw__ms_f32s(&w, &mat->metallic_factor, 1);
        sw__ms_f32s(&w, &mat->roughness_factor, 1);
        sw__ms_texture_ref(&w, &mat->metallic_roughness_texture);
        sw__ms_texture_ref(&w, &mat->normal_texture);
        sw__ms_texture_ref(&w, &mat->occlusion_texture);
        sw__ms_f32s(&w, mat->emissive_factor, 3);
        sw__ms_texture_ref(&w, &mat->emissive_texture);
        sw__ms_u32(&w, (uint32_t)mat->alpha_mode);
        sw__ms_f32s(&w, &mat->alpha_cutoff, 1);
        sw__ms_u8(&w, mat->double_sided);
        sw__ms_u8(&w, mat->unlit);
    }
    sw__ms_u64(&w, m->texture_count);
    for (size_t i = 0; i < m->texture_count; i++) {
        sw__ms_i32(&w, m->textures[i].image);
        sw__ms_i32(&w, m->textures[i].sampler);
    }
    sw__ms_u64(&w, m->sampler_count);
    for (size_t i = 0; i < m->sampler_count; i++) {
        const sw_model_sampler* s = &m->samplers[i];
        int32_t v[4] = {s->mag_filter, s->min_filter, s->wrap_s, s->wrap_t};
        sw__ms_put(&w, v, sizeof v);
    }
    sw__ms_u64(&w, m->image_count);
    for (size_t i = 0; i < m->image_count; i++) {
        const sw_model_image* im = &m->images[i];
        sw__ms_str(&w, im->name);
        sw__ms_str(&w, im->uri);
        sw__ms_str(&w, im->mime_type);
        sw__ms_u64(&w, im->data_size);
        sw__ms_array(&w, im->data, im->data_size, 1);
    }
    sw__ms_u64(&w, m->extension_count);
    for (size_t i = 0; i < m->extension_count; i++) {
        const sw_model_extension* e = &m->extensions[i];
        sw__ms_str(&w, e->name);
        sw__ms_u32(&w, (uint32_t)e->object);
        sw__ms_u32(&w, e->index);
        sw__ms_str(&w, e->json);
    }
    sw__ms_u64(&w, m->warning_count);
    for (size_t i = 0; i < m->warning_count; i++) sw__ms_str(&w, m->warnings[i]);
    sw__ms_u64(&w, m->side_file_count);
    for (size_t i = 0; i < m->side_file_count; i++) sw__ms_str(&w, m->side_files[i]);

    if (w.failed) {
        sw__free(w.data);
        return SW_ERR_OUT_OF_MEMORY;
    }
    uint64_t body = (uint64_t)(w.size - SW__MODEL_STREAM_HEADER);
    memcpy(w.data + 16, &body, 8);
    *out_data = w.data;
    *out_size = w.size;
    return SW_OK;
}

/* ---- reading ------------------------------------------------------------------------------------ */

typedef struct sw__ms_reader {
    const uint8_t* start;
    const uint8_t* at;
    size_t left;
    sw__arena* arena;
    bool failed, out_of_memory;
    char why[160];
} sw__ms_reader;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void sw__ms_fail(sw__ms_reader* r, const char* format, ...) {
    if (r->failed) return;
    r->failed = true;
    int n = snprintf(r->why, sizeof r->why, "byte %zu: ", (size_t)(r->at - r->start));
    if (n < 0 || (size_t)n >= sizeof r->why) n = 0;
    va_list args;
    va_start(args, format);
    vsnprintf(r->why + n, sizeof r->why - (size_t)n, format, args);
    va_end(args);
}

/* n bytes from the stream, or NULL (and the reader failed) when fewer are left. */
static const uint8_t* sw__ms_get(sw__ms_reader* r, size_t n, const char* what) {
    if (r->failed) return NULL;
    if (n > r->left) {
        sw__ms_fail(r, "%s: %zu bytes wanted, %zu left", what, n, r->left);
        return NULL;
    }
    const uint8_t* p = r->at;
    r->at += n;
    r->left -= n;
    return p;
}

static void* sw__ms_alloc(sw__ms_reader* r, size_t count, size_t size) {
    if (r->failed) return NULL;
    void* p = sw__arena_take_array(r->arena, count ? count : 1, size);
    if (!p) {
        r->out_of_memory = true;
        sw__ms_fail(r, "out of memory");
    }
    return p;
}

static uint8_t sw__ms_read_u8(sw__ms_reader* r, const char* what) {
    const uint8_t* p = sw__ms_get(r, 1, what);
    return p ? *p : 0;
}
static bool sw__ms_read_bool(sw__ms_reader* r, const char* what) {
    uint8_t v = sw__ms_read_u8(r, what);
    if (v > 1) sw__ms_fail(r, "%s is %u (0 or 1 expected)", what, (unsigned)v);
    return v == 1;
}
static uint32_t sw__ms_read_u32(sw__ms_reader* r, const char* what) {
    uint32_t v = 0;
    const uint8_t* p = sw__ms_get(r, 4, what);
    if (p) memcpy(&v, p, 4);
    return v;
}
static int32_t sw__ms_read_i32(sw__ms_reader* r, const char* what) {
    int32_t v = 0;
    const uint8_t* p = sw__ms_get(r, 4, what);
    if (p) memcpy(&v, p, 4);
    return v;
}
/* An index in [-1, count). */
static int32_t sw__ms_read_ref(sw__ms_reader* r, size_t count, const char* what) {
    int32_t v = sw__ms_read_i32(r, what);
    if (v < -1 || (v >= 0 && (size_t)v >= count)) {
        sw__ms_fail(r, "%s %d is out of range (%zu)", what, (int)v, count);
        return -1;
    }
    return v;
}
/* A count of things each at least `min_bytes` long in the stream: never
   more than the bytes left could hold, so a lying count cannot make the
   reader allocate beyond a multiple of the stream's size. */
static size_t sw__ms_read_count(sw__ms_reader* r, size_t min_bytes, const char* what) {
    uint64_t v = 0;
    const uint8_t* p = sw__ms_get(r, 8, what);
    if (p) memcpy(&v, p, 8);
    if (min_bytes && v > r->left / min_bytes) {
        sw__ms_fail(r, "%s %llu is more than the %zu bytes left hold", what, (unsigned long long)v, r->left);
        return 0;
    }
    return (size_t)v;
}
static void sw__ms_read_floats(sw__ms_reader* r, float* out, size_t n, const char* what) {
    size_t bytes;
    if (!sw_mul_size(n, sizeof(float), &bytes)) {
        sw__ms_fail(r, "%s: too many floats", what);
        return;
    }
    const uint8_t* p = sw__ms_get(r, bytes, what);
    if (!p) return;
    memcpy(out, p, bytes);
    for (size_t i = 0; i < n; i++)
        if (!isfinite(out[i])) {
            sw__ms_fail(r, "%s[%zu] is not finite", what, i);
            return;
        }
}
static const char* sw__ms_read_str(sw__ms_reader* r, const char* what) {
    uint32_t n = sw__ms_read_u32(r, what);
    if (r->failed || n == SW__MS_NO_STRING) return NULL;
    const uint8_t* p = sw__ms_get(r, n, what);
    if (!p) return NULL;
    if (memchr(p, 0, n)) {
        sw__ms_fail(r, "%s holds a NUL byte", what);
        return NULL;
    }
    char* s = sw__ms_alloc(r, (size_t)n + 1, 1);
    if (!s) return NULL;
    memcpy(s, p, n);
    s[n] = '\0';
    return s;
}
/* An optional array of n elements of `size` bytes (presence byte first);
   floats are checked finite. */
static void* sw__ms_read_array(sw__ms_reader* r, size_t n, size_t size, bool floats, const char* what) {
    if (!sw__ms_read_bool(r, what)) return NULL;
    size_t bytes;
    if (!sw_mul_size(n, size, &bytes) || bytes > r->left) {
        sw__ms_fail(r, "%s: %zu × %zu bytes wanted, %zu left", what, n, size, r->left);
        return NULL;
    }
    void* out = sw__ms_alloc(r, bytes ? bytes : 1, 1);
    if (!out) return NULL;
    if (floats) {
        sw__ms_read_floats(r, out, bytes / sizeof(float), what);
    } else {
        const uint8_t* p = sw__ms_get(r, bytes, what);
        if (p) memcpy(out, p, bytes);
    }
    return r->failed ? NULL : out;
}
/* sw__ms_read_array for an array that must be there when n > 0. */
static void* sw__ms_read_required(sw__ms_reader* r, size_t n, size_t size, bool floats, const char* what) {
    void* v = sw__ms_read_array(r, n, size, floats, what);
    if (!r->failed && !v && n) sw__ms_fail(r, "%s: %zu counted, none given", what, n);
    return v;
}

/* An array of n node indices, each < node_count. */
static const uint32_t* sw__ms_read_nodes(sw__ms_reader* r, size_t n, size_t node_count, const char* what) {
    uint32_t* v = sw__ms_read_required(r, n, sizeof(uint32_t), false, what);
    for (size_t i = 0; v && i < n; i++)
        if (v[i] >= node_count) {
            sw__ms_fail(r, "%s[%zu] = %u is not a node (%zu nodes)", what, i, v[i], node_count);
            return NULL;
        }
    return v;
}

static sw_model_texture_ref sw__ms_read_texture_ref(sw__ms_reader* r, size_t texture_count) {
    sw_model_texture_ref t;
    memset(&t, 0, sizeof t);
    t.texture = sw__ms_read_ref(r, texture_count, "material texture");
    t.texcoord = sw__ms_read_i32(r, "material texcoord");
    if (t.texcoord < 0 || t.texcoord >= SW_MODEL_MAX_TEXCOORDS)
        sw__ms_fail(r, "material texcoord %d is out of range", (int)t.texcoord);
    sw__ms_read_floats(r, &t.scale, 1, "material texture scale");
    t.has_transform = sw__ms_read_bool(r, "material has_transform");
    sw__ms_read_floats(r, t.offset, 2, "material texture offset");
    sw__ms_read_floats(r, &t.rotation, 1, "material texture rotation");
    sw__ms_read_floats(r, t.uv_scale, 2, "material texture uv_scale");
    return t;
}

static void sw__ms_read_primitive(sw__ms_reader* r, sw_model_primitive* p, size_t material_count,
                                  size_t weight_count) {
    uint32_t mode = sw__ms_read_u32(r, "primitive mode");
    if (mode > SW_MODEL_TRIANGLE_FAN) sw__ms_fail(r, "primitive mode %u is unknown", mode);
    p->mode = (sw_model_mode)mode;
    p->material = sw__ms_read_ref(r, material_count, "primitive material");
    size_t vc = p->vertex_count = sw__ms_read_count(r, 12, "vertex count");
    p->positions = sw__ms_read_array(r, vc * 3, sizeof(float), true, "positions");
    if (!r->failed && !p->positions) sw__ms_fail(r, "a primitive without positions");
    p->normals = sw__ms_read_array(r, vc * 3, sizeof(float), true, "normals");
    p->tangents = sw__ms_read_array(r, vc * 4, sizeof(float), true, "tangents");
    p->texcoord_count = sw__ms_read_i32(r, "texcoord count");
    if (p->texcoord_count < 0 || p->texcoord_count > SW_MODEL_MAX_TEXCOORDS) {
        sw__ms_fail(r, "texcoord count %d is out of range", p->texcoord_count);
        p->texcoord_count = 0;
    }
    for (int t = 0; t < p->texcoord_count; t++)
        p->texcoords[t] = sw__ms_read_required(r, vc * 2, sizeof(float), true, "texcoords");
    p->colors = sw__ms_read_array(r, vc * 4, sizeof(float), true, "colors");
    p->influence_count = sw__ms_read_i32(r, "influence count");
    if (p->influence_count != 0 && p->influence_count != 4 && p->influence_count != 8) {
        sw__ms_fail(r, "influence count %d is not 0, 4 or 8", p->influence_count);
        p->influence_count = 0;
    }
    p->joints = sw__ms_read_required(r, vc * (size_t)p->influence_count, sizeof(uint16_t), false, "joints");
    p->weights = sw__ms_read_required(r, vc * (size_t)p->influence_count, sizeof(float), true, "weights");
    if (!r->failed && p->influence_count && (!p->joints || !p->weights))
        sw__ms_fail(r, "a skinned primitive without joints or weights");
    p->influence_sets = sw__ms_read_i32(r, "influence sets");
    p->raw_influence_count = sw__ms_read_i32(r, "raw influence count");
    if (p->influence_sets < 0 || p->raw_influence_count < 0 ||
        p->raw_influence_count > 64) {
        sw__ms_fail(r, "influence sets %d or raw influence count %d out of range", p->influence_sets,
                    p->raw_influence_count);
        p->raw_influence_count = 0;
    }
    p->raw_joints = sw__ms_read_required(r, vc * (size_t)p->raw_influence_count, sizeof(uint16_t), false, "raw joints");
    p->raw_weights = sw__ms_read_required(r, vc * (size_t)p->raw_influence_count, sizeof(float), true, "raw weights");
    p->index_count = sw__ms_read_count(r, 4, "index count");
    uint32_t* indices = sw__ms_read_required(r, p->index_count, sizeof(uint32_t), false, "indices");
    for (size_t i = 0; indices && i < p->index_count; i++)
        if (indices[i] >= vc) {
            sw__ms_fail(r, "index %u is not a vertex (%zu vertices)", indices[i], vc);
            break;
        }
    p->indices = indices;
    p->target_count = sw__ms_read_count(r, 3, "morph target count");
    if (!r->failed && p->target_count != weight_count)
        sw__ms_fail(r, "%zu morph targets in a mesh of %zu weights", p->target_count, weight_count);
    if (sw__ms_read_bool(r, "morph targets")) {
        sw_model_morph_target* targets = sw__ms_alloc(r, p->target_count, sizeof *targets);
        for (size_t t = 0; targets && t < p->target_count && !r->failed; t++) {
            targets[t].positions = sw__ms_read_array(r, vc * 3, sizeof(float), true, "target positions");
            targets[t].normals = sw__ms_read_array(r, vc * 3, sizeof(float), true, "target normals");
            targets[t].tangents = sw__ms_read_array(r, vc * 3, sizeof(float), true, "target tangents");
        }
        p->targets = targets;
    }
    sw__ms_read_floats(r, p->bounds_min, 3, "bounds");
    sw__ms_read_floats(r, p->bounds_max, 3, "bounds");
}

/* The checks that tie the parts together, once all are read. */
static void sw__ms_check_model(sw__ms_reader* r, sw_model* m) {
    for (size_t i = 0; i < m->node_count && !r->failed; i++) {
        const sw_model_node* n = &m->nodes[i];
        if (n->mesh >= 0 && n->weight_count && n->weight_count != m->meshes[n->mesh].weight_count)
            sw__ms_fail(r, "node %zu has %zu weights, its mesh %zu", i, n->weight_count,
                        m->meshes[n->mesh].weight_count);
        for (size_t c = 0; c < n->child_count; c++)
            if (n->children[c] <= i || m->nodes[n->children[c]].parent != (int32_t)i)
                sw__ms_fail(r, "node %zu's child %u does not name it as parent", i, n->children[c]);
        /* the joints of a skinned mesh index its skin */
        if (n->mesh < 0) continue;
        const sw_model_mesh* mesh = &m->meshes[n->mesh];
        size_t joints = n->skin >= 0 ? m->skins[n->skin].joint_count : 0;
        for (size_t p = 0; p < mesh->primitive_count; p++) {
            const sw_model_primitive* prim = &mesh->primitives[p];
            size_t slots = prim->vertex_count * (size_t)prim->influence_count;
            if (prim->influence_count && n->skin < 0)
                sw__ms_fail(r, "node %zu draws skinned mesh %d without a skin", i, n->mesh);
            for (size_t k = 0; k < slots && !r->failed; k++)
                if (prim->joints[k] >= joints) sw__ms_fail(r, "joint %u is not in skin %d", prim->joints[k], n->skin);
        }
    }
    /* a track's values drive a node; weights tracks as many as its mesh has targets */
    for (size_t a = 0; a < m->animation_count && !r->failed; a++) {
        const sw_clip* c = &m->animations[a];
        for (size_t t = 0; t < c->track_count; t++) {
            const sw_track* k = &c->tracks[t];
            if (k->path != SW_PATH_WEIGHTS) continue;
            const sw_model_node* n = &m->nodes[k->target];
            if (n->mesh < 0 || m->meshes[n->mesh].weight_count != k->component_count)
                sw__ms_fail(r, "clip %zu: a weights track of %u on node %u", a, k->component_count, k->target);
        }
    }
    for (size_t i = 0; i < m->texture_count; i++)
        if (m->textures[i].image >= (int32_t)m->image_count || m->textures[i].image < -1 ||
            m->textures[i].sampler >= (int32_t)m->sampler_count || m->textures[i].sampler < -1)
            sw__ms_fail(r, "texture %zu: image or sampler out of range", i);
    for (size_t i = 0; i < m->extension_count; i++) {
        const sw_model_extension* e = &m->extensions[i];
        size_t count = e->object == SW_MODEL_OBJECT_MODEL      ? 1
                       : e->object == SW_MODEL_OBJECT_NODE     ? m->node_count
                       : e->object == SW_MODEL_OBJECT_MESH     ? m->mesh_count
                                                               : m->material_count;
        if (e->index >= count) sw__ms_fail(r, "extension %zu's index %u is out of range", i, e->index);
    }
}

/* Derived fields, recomputed as the importer computes them (sw__ai_finish). */
static void sw__ms_derive(sw__ms_reader* r, sw_model* m) {
    uint32_t* from_source = sw__ms_alloc(r, m->node_count, sizeof *from_source);
    uint8_t* seen = sw__ms_alloc(r, m->node_count, 1);
    uint32_t* offsets = sw__ms_alloc(r, m->node_count, sizeof *offsets);
    if (r->failed) return;
    size_t offset = 0;
    for (size_t i = 0; i < m->node_count; i++) {
        sw_model_node* n = (sw_model_node*)&m->nodes[i];
        if (n->source_index >= m->node_count || seen[n->source_index]) {
            sw__ms_fail(r, "node %zu's source index %u is out of range or taken", i, n->source_index);
            return;
        }
        seen[n->source_index] = 1;
        from_source[n->source_index] = (uint32_t)i;
        if (offset > UINT32_MAX) {
            sw__ms_fail(r, "too many morph weights");
            return;
        }
        n->weight_offset = offsets[i] = (uint32_t)offset;
        if (n->mesh >= 0) offset += m->meshes[n->mesh].weight_count;
    }
    m->node_from_source = from_source;
    m->weight_offsets = offsets;
    m->weight_count = offset;
    size_t palette = 0;
    for (size_t s = 0; s < m->skin_count; s++) {
        ((sw_model_skin*)&m->skins[s])->palette_offset = palette;
        palette += m->skins[s].joint_count;
    }
    m->skin_joint_count = palette;
    sw_transform* rest = sw__ms_alloc(r, m->node_count, sizeof *rest);
    float* rest_weights = sw__ms_alloc(r, offset, sizeof *rest_weights);
    if (r->failed) return;
    sw__model_rest_pose(m, rest, rest_weights);
    m->rest_local = rest;
    m->rest_weights = rest_weights;
}

static void sw__ms_read_model(sw__ms_reader* r, sw_model* m) {
    m->path = sw__ms_read_str(r, "path");
    m->generator = sw__ms_read_str(r, "generator");
    m->format = sw__ms_read_str(r, "format");
    m->base_dir = sw__ms_read_str(r, "base_dir");
    m->allow_outside_paths = sw__ms_read_bool(r, "allow_outside_paths");
    sw__ms_read_floats(r, &m->unit_scale_to_metres, 1, "unit_scale_to_metres");
    const uint8_t* axis = sw__ms_get(r, 3, "up_axis_read");
    if (axis) {
        memcpy(m->up_axis_read, axis, 3);
        if (m->up_axis_read[2] != '\0') sw__ms_fail(r, "up_axis_read is not NUL-terminated");
    }
    m->import_dropped_vertices = sw__ms_read_count(r, 0, "import_dropped_vertices");
    sw__ms_read_floats(r, &m->import_dropped_weight, 1, "import_dropped_weight");
    m->import_collapsed_nodes = sw__ms_read_count(r, 0, "import_collapsed_nodes");
    int32_t default_scene = sw__ms_read_i32(r, "default_scene");

    /* Nodes are read before what they index is known: their mesh and skin
       indices are checked once meshes and skins are read. */
    size_t node_count = m->node_count = sw__ms_read_count(r, 64, "node count");
    sw_model_node* nodes = sw__ms_alloc(r, node_count, sizeof *nodes);
    int32_t* meshes_of = sw__ms_alloc(r, node_count, 2 * sizeof(int32_t));
    for (size_t i = 0; nodes && i < node_count && !r->failed; i++) {
        sw_model_node* n = &nodes[i];
        n->name = sw__ms_read_str(r, "node name");
        n->parent = sw__ms_read_i32(r, "node parent");
        if (n->parent < -1 || (n->parent >= 0 && (size_t)n->parent >= i))
            sw__ms_fail(r, "node %zu's parent %d is not before it", i, (int)n->parent);
        n->child_count = sw__ms_read_count(r, 4, "child count");
        n->children = sw__ms_read_nodes(r, n->child_count, node_count, "children");
        meshes_of[2 * i] = n->mesh = sw__ms_read_i32(r, "node mesh");
        meshes_of[2 * i + 1] = n->skin = sw__ms_read_i32(r, "node skin");
        n->camera = sw__ms_read_i32(r, "node camera");
        if (n->camera != -1) sw__ms_fail(r, "node %zu has camera %d (the importer makes none)", i, (int)n->camera);
        n->has_matrix = sw__ms_read_bool(r, "node has_matrix");
        sw__ms_read_floats(r, &n->matrix.m[0][0], 12, "node matrix");
        float trs[10] = {0};
        sw__ms_read_floats(r, trs, 10, "node trs");
        n->trs = (sw_transform){{trs[0], trs[1], trs[2]}, {trs[3], trs[4], trs[5], trs[6]}, {trs[7], trs[8], trs[9]}};
        n->weight_count = sw__ms_read_count(r, 4, "node weight count");
        n->weights = sw__ms_read_array(r, n->weight_count, sizeof(float), true, "node weights");
        if (n->weight_count && !n->weights) sw__ms_fail(r, "node %zu: weights counted, not given", i);
        n->source_index = sw__ms_read_u32(r, "node source index");
    }
    m->nodes = nodes;
    if (default_scene < -1) sw__ms_fail(r, "default scene %d", (int)default_scene);
    m->scene_count = sw__ms_read_count(r, 13, "scene count");
    if (default_scene >= 0 && (size_t)default_scene >= m->scene_count)
        sw__ms_fail(r, "default scene %d is not a scene", (int)default_scene);
    m->default_scene = default_scene;
    sw_model_scene* scenes = sw__ms_alloc(r, m->scene_count, sizeof *scenes);
    for (size_t i = 0; scenes && i < m->scene_count && !r->failed; i++) {
        scenes[i].name = sw__ms_read_str(r, "scene name");
        scenes[i].node_count = sw__ms_read_count(r, 4, "scene node count");
        scenes[i].nodes = sw__ms_read_nodes(r, scenes[i].node_count, node_count, "scene nodes");
    }
    m->scenes = scenes;

    /* materials come after meshes in the stream: primitives' material
       indices are checked against the count once it is known */
    m->mesh_count = sw__ms_read_count(r, 22, "mesh count");
    sw_model_mesh* meshes = sw__ms_alloc(r, m->mesh_count, sizeof *meshes);
    for (size_t i = 0; meshes && i < m->mesh_count && !r->failed; i++) {
        sw_model_mesh* mesh = &meshes[i];
        mesh->name = sw__ms_read_str(r, "mesh name");
        mesh->weight_count = sw__ms_read_count(r, 4, "mesh weight count");
        mesh->weights = sw__ms_read_array(r, mesh->weight_count, sizeof(float), true, "mesh weights");
        if (sw__ms_read_bool(r, "target names")) {
            const char** names = sw__ms_alloc(r, mesh->weight_count, sizeof *names);
            for (size_t t = 0; names && t < mesh->weight_count; t++) names[t] = sw__ms_read_str(r, "target name");
            mesh->target_names = names;
        }
        mesh->primitive_count = sw__ms_read_count(r, 40, "primitive count");
        sw_model_primitive* prims = sw__ms_alloc(r, mesh->primitive_count, sizeof *prims);
        for (size_t p = 0; prims && p < mesh->primitive_count && !r->failed; p++)
            sw__ms_read_primitive(r, &prims[p], (size_t)INT32_MAX, mesh->weight_count);
        mesh->primitives = prims;
    }
    m->meshes = meshes;
    m->skin_count = sw__ms_read_count(r, 14, "skin count");
    sw_model_skin* skins = sw__ms_alloc(r, m->skin_count, sizeof *skins);
    for (size_t i = 0; skins && i < m->skin_count && !r->failed; i++) {
        skins[i].name = sw__ms_read_str(r, "skin name");
        skins[i].joint_count = sw__ms_read_count(r, 4, "skin joint count");
        skins[i].joints = sw__ms_read_nodes(r, skins[i].joint_count, node_count, "skin joints");
        skins[i].inverse_bind = sw__ms_read_required(r, skins[i].joint_count, sizeof(sw_mat34), true, "inverse binds");
        if (!r->failed && skins[i].joint_count && (!skins[i].joints || !skins[i].inverse_bind))
            sw__ms_fail(r, "skin %zu: joints or inverse binds missing", i);
        skins[i].skeleton = sw__ms_read_ref(r, node_count, "skin skeleton");
    }
    m->skins = skins;
    for (size_t i = 0; !r->failed && i < node_count; i++) {
        if (meshes_of[2 * i] < -1 || (meshes_of[2 * i] >= 0 && (size_t)meshes_of[2 * i] >= m->mesh_count))
            sw__ms_fail(r, "node %zu's mesh %d is out of range", i, (int)meshes_of[2 * i]);
        if (meshes_of[2 * i + 1] < -1 || (meshes_of[2 * i + 1] >= 0 && (size_t)meshes_of[2 * i + 1] >= m->skin_count))
            sw__ms_fail(r, "node %zu's skin %d is out of range", i, (int)meshes_of[2 * i + 1]);
    }

    m->animation_count = sw__ms_read_count(r, 20, "clip count");
    sw_clip* clips = sw__ms_alloc(r, m->animation_count, sizeof *clips);
    for (size_t i = 0; clips && i < m->animation_count && !r->failed; i++) {
        sw_clip* c = &clips[i];
        c->name = sw__ms_read_str(r, "clip name");
        sw__ms_read_floats(r, &c->start, 1, "clip start");
        sw__ms_read_floats(r, &c->duration, 1, "clip duration");
        c->track_count = sw__ms_read_count(r, 32, "track count");
        sw_track* tracks = sw__ms_alloc(r, c->track_count, sizeof *tracks);
        for (size_t t = 0; tracks && t < c->track_count && !r->failed; t++) {
            sw_track* k = &tracks[t];
            k->target = sw__ms_read_u32(r, "track target");
            if (k->target >= node_count) sw__ms_fail(r, "track target %u is not a node", k->target);
            uint32_t path = sw__ms_read_u32(r, "track path");
            uint32_t interpolation = sw__ms_read_u32(r, "track interpolation");
            k->component_count = sw__ms_read_u32(r, "track component count");
            if (path > SW_PATH_WEIGHTS || interpolation > SW_INTERP_CUBICSPLINE)
                sw__ms_fail(r, "track path %u or interpolation %u is unknown", path, interpolation);
            k->path = (sw_track_path)path;
            k->interpolation = (sw_interpolation)interpolation;
            uint32_t expected = k->path == SW_PATH_ROTATION ? 4u : 3u;
            if ((k->path != SW_PATH_WEIGHTS && k->component_count != expected) ||
                (k->path == SW_PATH_WEIGHTS && k->component_count == 0))
                sw__ms_fail(r, "track of %u components", k->component_count);
            k->key_count = sw__ms_read_count(r, 4, "key count");
            if (!r->failed && k->key_count == 0) sw__ms_fail(r, "a track without keys");
            float* times = sw__ms_alloc(r, k->key_count, sizeof *times);
            if (times) sw__ms_read_floats(r, times, k->key_count, "key times");
            for (size_t j = 1; times && !r->failed && j < k->key_count; j++)
                if (!(times[j] > times[j - 1])) sw__ms_fail(r, "key times not increasing");
            size_t values = 0;
            if (!r->failed &&
                (!sw_mul_size(k->key_count, k->component_count, &values) ||
                 !sw_mul_size(values, k->interpolation == SW_INTERP_CUBICSPLINE ? 3 : 1, &values) ||
                 values > r->left / sizeof(float)))
                sw__ms_fail(r, "track values past the end");
            float* v = sw__ms_alloc(r, values, sizeof *v);
            if (v) sw__ms_read_floats(r, v, values, "key values");
            k->times = times;
            k->values = v;
        }
        c->tracks = tracks;
    }
    m->animations = clips;

    m->material_count = sw__ms_read_count(r, 100, "material count");
    /* textures are read next: a texture reference is checked against the
       count once it is known, below */
    sw_model_material* materials = sw__ms_alloc(r, m->material_count, sizeof *materials);
    for (size_t i = 0; materials && i < m->material_count && !r->failed; i++) {
        sw_model_material* mat = &materials[i];
        mat->name = sw__ms_read_str(r, "material name");
        sw__ms_read_floats(r, mat->base_color_factor, 4, "base colour");
        mat->base_color_texture = sw__ms_read_texture_ref(r, (size_t)INT32_MAX);
        sw__ms_read_floats(r, &mat->metallic_factor, 1, "metallic");
        sw__ms_read_floats(r, &mat->roughness_factor, 1, "roughness");
        mat->metallic_roughness_texture = sw__ms_read_texture_ref(r, (size_t)INT32_MAX);
        mat->normal_texture = sw__ms_read_texture_ref(r, (size_t)INT32_MAX);
        mat->occlusion_texture = sw__ms_read_texture_ref(r, (size_t)INT32_MAX);
        sw__ms_read_floats(r, mat->emissive_factor, 3, "emissive");
        mat->emissive_texture = sw__ms_read_texture_ref(r, (size_t)INT32_MAX);
        mat->emissive_strength = 1.0f; /* not streamed: Assimp's models have none */
        uint32_t alpha = sw__ms_read_u32(r, "alpha mode");
        if (alpha > SW_MODEL_ALPHA_BLEND) sw__ms_fail(r, "alpha mode %u is unknown", alpha);
        mat->alpha_mode = (sw_model_alpha_mode)alpha;
        sw__ms_read_floats(r, &mat->alpha_cutoff, 1, "alpha cutoff");
        mat->double_sided = sw__ms_read_bool(r, "double_sided");
        mat->unlit = sw__ms_read_bool(r, "unlit");
    }
    m->materials = materials;
    m->texture_count = sw__ms_read_count(r, 8, "texture count");
    sw_model_texture* textures = sw__ms_alloc(r, m->texture_count, sizeof *textures);
    for (size_t i = 0; textures && i < m->texture_count && !r->failed; i++) {
        textures[i].image = sw__ms_read_i32(r, "texture image");
        textures[i].sampler = sw__ms_read_i32(r, "texture sampler");
    }
    m->textures = textures;
    for (size_t i = 0; materials && !r->failed && i < m->material_count; i++) {
        const sw_model_material* mat = &materials[i];
        const sw_model_texture_ref* refs[5] = {&mat->base_color_texture, &mat->metallic_roughness_texture,
                                                &mat->normal_texture, &mat->occlusion_texture,
                                                &mat->emissive_texture};
        for (int k = 0; k < 5; k++)
            if (refs[k]->texture >= (int32_t)m->texture_count)
                sw__ms_fail(r, "material %zu's texture %d is out of range", i, (int)refs[k]->texture);
    }
    for (size_t i = 0; meshes && !r->failed && i < m->mesh_count; i++)
        for (size_t p = 0; p < meshes[i].primitive_count; p++)
            if (meshes[i].primitives[p].material >= (int32_t)m->material_count)
                sw__ms_fail(r, "mesh %zu's material %d is out of range", i, (int)meshes[i].primitives[p].material);
    m->sampler_count = sw__ms_read_count(r, 16, "sampler count");
    sw_model_sampler* samplers = sw__ms_alloc(r, m->sampler_count, sizeof *samplers);
    for (size_t i = 0; samplers && i < m->sampler_count && !r->failed; i++) {
        samplers[i].mag_filter = sw__ms_read_i32(r, "sampler");
        samplers[i].min_filter = sw__ms_read_i32(r, "sampler");
        samplers[i].wrap_s = sw__ms_read_i32(r, "sampler");
        samplers[i].wrap_t = sw__ms_read_i32(r, "sampler");
    }
    m->samplers = samplers;
    m->image_count = sw__ms_read_count(r, 21, "image count");
    sw_model_image* images = sw__ms_alloc(r, m->image_count, sizeof *images);
    for (size_t i = 0; images && i < m->image_count && !r->failed; i++) {
        images[i].name = sw__ms_read_str(r, "image name");
        images[i].uri = sw__ms_read_str(r, "image uri");
        images[i].mime_type = sw__ms_read_str(r, "image mime type");
        images[i].data_size = sw__ms_read_count(r, 1, "image size");
        images[i].data = sw__ms_read_array(r, images[i].data_size, 1, false, "image bytes");
        if (!r->failed && !images[i].data && images[i].data_size) sw__ms_fail(r, "image %zu: size without bytes", i);
    }
    m->images = images;
    m->extension_count = sw__ms_read_count(r, 16, "extension count");
    sw_model_extension* extensions = sw__ms_alloc(r, m->extension_count, sizeof *extensions);
    for (size_t i = 0; extensions && i < m->extension_count && !r->failed; i++) {
        extensions[i].name = sw__ms_read_str(r, "extension name");
        uint32_t object = sw__ms_read_u32(r, "extension object");
        if (object > SW_MODEL_OBJECT_MATERIAL) sw__ms_fail(r, "extension object %u is unknown", object);
        extensions[i].object = (sw_model_object)object;
        extensions[i].index = sw__ms_read_u32(r, "extension index");
        extensions[i].json = sw__ms_read_str(r, "extension json");
        if (!r->failed && (!extensions[i].name || !extensions[i].json)) sw__ms_fail(r, "extension %zu is empty", i);
    }
    m->extensions = extensions;
    m->warning_count = sw__ms_read_count(r, 4, "warning count");
    const char** warnings = sw__ms_alloc(r, m->warning_count, sizeof *warnings);
    for (size_t i = 0; warnings && i < m->warning_count && !r->failed; i++) {
        warnings[i] = sw__ms_read_str(r, "warning");
        if (!r->failed && !warnings[i]) sw__ms_fail(r, "warning %zu is missing", i);
    }
    m->warnings = m->warning_count ? warnings : NULL;
    m->side_file_count = sw__ms_read_count(r, 4, "side file count");
    const char** side_files = sw__ms_alloc(r, m->side_file_count, sizeof *side_files);
    for (size_t i = 0; side_files && i < m->side_file_count && !r->failed; i++) {
        side_files[i] = sw__ms_read_str(r, "side file");
        if (!r->failed && !side_files[i]) sw__ms_fail(r, "side file %zu is missing", i);
    }
    m->side_files = m->side_file_count ? side_files : NULL;
    /* the importer leaves empty collections NULL */
    if (!m->scene_count) m->scenes = NULL;
    if (!m->mesh_count) m->meshes = NULL;
    if (!m->skin_count) m->skins = NULL;
    if (!m->animation_count) m->animations = NULL;
    if (!m->material_count) m->materials = NULL;
    if (!m->texture_count) m->textures = NULL;
    if (!m->sampler_count) m->samplers = NULL;
    if (!m->image_count) m->images = NULL;
    if (!m->extension_count) m->extensions = NULL;
    if (!r->failed && r->left) sw__ms_fail(r, "%zu bytes after the model", r->left);
    if (!r->failed) sw__ms_check_model(r, m);
    if (!r->failed) sw__ms_derive(r, m);
}

sw_result sw__model_stream_read(const uint8_t* data, size_t size, const char* label, sw_model** out_model,
                                sw_diag* diag) {
    *out_model = NULL;
    sw__model_owner* owner = sw__calloc(1, sizeof *owner);
    if (!owner) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "%s: out of memory", label);
    sw__ms_reader r = {.start = data, .at = data, .left = data ? size : 0, .arena = &owner->arena};
    const uint8_t* head = sw__ms_get(&r, SW__MODEL_STREAM_HEADER, "header");
    if (head) {
        uint32_t version;
        uint64_t body;
        memcpy(&version, head + 8, 4);
        memcpy(&body, head + 16, 8);
        if (memcmp(head, sw__ms_magic, 8) != 0)
            sw__ms_fail(&r, "not a model stream");
        else if (version != SW__MODEL_STREAM_VERSION)
            sw__ms_fail(&r, "version %u (this sinew reads %u)", version, SW__MODEL_STREAM_VERSION);
        else if (body != (uint64_t)r.left)
            sw__ms_fail(&r, "the header says %llu bytes follow, %zu do", (unsigned long long)body, r.left);
    }
    if (!r.failed) sw__ms_read_model(&r, &owner->model);
    if (r.failed) {
        sw__arena_free(&owner->arena);
        sw__free(owner);
        if (r.out_of_memory) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "%s: out of memory", label);
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "%s: the import process sent a malformed model (%s)", label,
                           r.why);
    }
    *out_model = &owner->model;
    return SW_OK;
}
