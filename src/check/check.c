/* Asset checks (sinew/check.h): the model's own promises, the file's
   influences as stored, every skin posed at rest and over every animation,
   the skins against the rest pose, and the images. Findings are collected
   in a growing array and handed over as the report. */
#include "sinew/check.h"
#include "sinew/import.h"

#include "sinew/pose.h"
#include "sinew/skin.h"
#include "sinew/vrm.h"

#include "../math/mat3d_internal.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../base/base_internal.h"

#if defined(__GNUC__)
#define SW__CHECK_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define SW__CHECK_PRINTF(f, a)
#endif

#define SW__CHECK_SUM_TOLERANCE 1e-3   /* weight sums: the importer's tolerance */
#define SW__CHECK_IBM_TOLERANCE 1e-4   /* of the mesh size */
#define SW__CHECK_SCALE_TOLERANCE 1e-3 /* singular value ratio − 1 */
#define SW__CHECK_MAX_SAMPLE_RATE 1e6
#define SW__CHECK_MAX_SAMPLES_LIMIT ((size_t)10000000)
#define SW__CHECK_FEW_SLOTS 16         /* influence slots compared pairwise; more are sorted */
#define SW__CHECK_AXES 12              /* x, y, z of four box corners: the bind-pose search's axes */
#define SW__CHECK_SEARCH_PER_JOINT 256 /* comparisons the bind-pose search may spend per joint... */
#define SW__CHECK_SEARCH_MIN ((size_t)1 << 23) /* ...and at least (every pair up to ~2900 joints) */

/* ---- codes -------------------------------------------------------------------- */

static const char* const sw__check_ids[] = {
#define SW__CHECK_CODE_ID(name, id, severity) id,
    SW_CHECK_CODE_LIST(SW__CHECK_CODE_ID)
#undef SW__CHECK_CODE_ID
};

static const sw_check_severity sw__check_severities[] = {
#define SW__CHECK_CODE_SEVERITY(name, id, severity) severity,
    SW_CHECK_CODE_LIST(SW__CHECK_CODE_SEVERITY)
#undef SW__CHECK_CODE_SEVERITY
};

const char* sw_check_code_str(sw_check_code code) {
    return (unsigned)code < SW_CHECK_CODE_COUNT ? sw__check_ids[code] : "unknown";
}

sw_check_severity sw_check_code_severity(sw_check_code code) {
    return (unsigned)code < SW_CHECK_CODE_COUNT ? sw__check_severities[code] : SW_CHECK_ERROR;
}

const char* sw_check_severity_str(sw_check_severity severity) {
    static const char* const names[] = {"note", "warning", "error"};
    return (unsigned)severity < SW_CHECK_SEVERITY_COUNT ? names[severity] : "unknown";
}

/* malloc that never asks for 0 bytes, so an empty array is not mistaken for a failure. */
static void* sw__alloc_array(size_t count, size_t size) {
    size_t bytes;
    if (!sw_mul_size(count ? count : 1, size, &bytes)) return NULL;
    return sw__malloc(bytes);
}

static void* sw__calloc_array(size_t count, size_t size) { return sw__calloc(count ? count : 1, size); }

/* ---- findings ------------------------------------------------------------------- */

/* The worst examples seen, worst first (ties keep the earlier). */
typedef struct sw__check_worst {
    size_t count;
    double score[SW_CHECK_MAX_EXAMPLES]; /* larger is worse */
    sw_check_example examples[SW_CHECK_MAX_EXAMPLES];
} sw__check_worst;

static sw_check_example sw__example(int64_t vertex, int64_t joint, double value) {
    return (sw_check_example){.vertex = vertex, .joint = joint, .other_joint = -1, .value = value, .animation = -1,
                              .time_s = NAN};
}

static void sw__worst_add(sw__check_worst* w, double score, sw_check_example e) {
    size_t at = w->count;
    while (at > 0 && score > w->score[at - 1]) at--;
    if (at >= SW_CHECK_MAX_EXAMPLES) return;
    size_t last = w->count < SW_CHECK_MAX_EXAMPLES ? w->count : SW_CHECK_MAX_EXAMPLES - 1;
    for (size_t i = last; i > at; i--) w->score[i] = w->score[i - 1], w->examples[i] = w->examples[i - 1];
    w->score[at] = score;
    w->examples[at] = e;
    if (w->count < SW_CHECK_MAX_EXAMPLES) w->count++;
}

static void sw__set_worst(sw_check_finding* f, const sw__check_worst* w) {
    f->example_count = w->count;
    memcpy(f->examples, w->examples, w->count * sizeof *w->examples);
}

/* The findings so far. A disabled code's sw__finding_add returns NULL without
   an error, so every caller reads `if (... && (f = sw__finding_add(...)))`. */
typedef struct sw__check_builder {
    sw_check_finding* items;
    size_t count, capacity;
    size_t by_severity[SW_CHECK_SEVERITY_COUNT];
    uint64_t disabled;
    bool out_of_memory;
} sw__check_builder;

/* A new finding (paths -1, value NaN), or NULL when disabled or out of memory. */
static sw_check_finding* sw__finding_add(sw__check_builder* r, sw_check_code code) {
    if (r->disabled & SW_CHECK_BIT(code)) return NULL;
    if (r->count == r->capacity) {
        size_t capacity = r->capacity ? 2 * r->capacity : 32;
        sw_check_finding* items = sw__realloc(r->items, capacity * sizeof *items);
        if (!items) {
            r->out_of_memory = true;
            return NULL;
        }
        r->items = items, r->capacity = capacity;
    }
    sw_check_finding* f = &r->items[r->count++];
    memset(f, 0, sizeof *f);
    f->code = code;
    f->id = sw_check_code_str(code);
    f->severity = sw_check_code_severity(code);
    f->mesh = f->primitive = f->skin = f->joint = f->node = f->animation = f->image = -1;
    f->value = NAN;
    r->by_severity[f->severity]++;
    return f;
}

static void sw__builder_free(sw__check_builder* r) {
    for (size_t i = 0; i < r->count; i++) sw__free((void*)r->items[i].poses);
    sw__free(r->items);
}

/* Appends printf-style text to a finding's message (cut, never overflowing). */
static void sw__message_add(sw_check_finding* f, const char* format, ...) SW__CHECK_PRINTF(2, 3);
static void sw__message_add(sw_check_finding* f, const char* format, ...) {
    size_t used = strlen(f->message);
    if (used + 1 >= sizeof f->message) return;
    va_list ap;
    va_start(ap, format);
    vsnprintf(f->message + used, sizeof f->message - used, format, ap);
    va_end(ap);
}

/* ---- names ---------------------------------------------------------------------- */

/* A name for messages, by value: `joint 3 "Hand_L"`, or `joint 3` when unnamed. */
typedef struct sw__check_label {
    char s[192];
} sw__check_label;

static sw__check_label sw__joint_label(const sw_model* a, size_t skin, int64_t joint) {
    sw__check_label l;
    const sw_model_skin* s = &a->skins[skin];
    const char* name = joint >= 0 && (size_t)joint < s->joint_count ? a->nodes[s->joints[joint]].name : NULL;
    if (name && *name) snprintf(l.s, sizeof l.s, "joint %lld \"%.160s\"", (long long)joint, name);
    else snprintf(l.s, sizeof l.s, "joint %lld", (long long)joint);
    return l;
}

/* "1 vertex has" / "3 vertices have" (verb = NULL: "1 vertex" / "3 vertices"). */
static sw__check_label sw__counted(size_t n, const char* one, const char* many, const char* verb_one,
                                   const char* verb_many) {
    sw__check_label l;
    const char* verb = n == 1 ? verb_one : verb_many;
    snprintf(l.s, sizeof l.s, "%zu %s%s%s", n, n == 1 ? one : many, verb ? " " : "", verb ? verb : "");
    return l;
}

static sw__check_label sw__vertices_have(size_t n) { return sw__counted(n, "vertex", "vertices", "has", "have"); }

static sw__check_label sw__skin_label(const sw_model* a, size_t skin) {
    sw__check_label l;
    const char* name = a->skins[skin].name;
    if (name && *name) snprintf(l.s, sizeof l.s, "skin %zu \"%.160s\"", skin, name);
    else snprintf(l.s, sizeof l.s, "skin %zu", skin);
    return l;
}

/* " in "walk" at 0.5 s" or " at the rest pose". */
static void sw__message_pose(sw_check_finding* f, const sw_model* a, int64_t animation, double time) {
    if (animation < 0)
        sw__message_add(f, " at the rest pose");
    else if (a->animations[animation].name)
        sw__message_add(f, " in \"%s\" at %.4g s", a->animations[animation].name, time);
    else
        sw__message_add(f, " in animation %lld at %.4g s", (long long)animation, time);
}

/* The text after "name: " when `text` starts with the base name of `path`
   (the importer's messages do). */
static const char* sw__without_name(const char* text, const char* path) {
    if (!path) return text;
    const char* slash = strrchr(path, '/');
    const char* base = slash ? slash + 1 : path;
    size_t n = strlen(base);
    if (strncmp(text, base, n) == 0 && text[n] == ':' && text[n + 1] == ' ') return text + n + 2;
    return text;
}

/* ---- the model's promises ------------------------------------------------------------ */

/* Records the first broken promise as model_invalid; returns false. */
static bool sw__invalid(sw__check_builder* r, int64_t node, const char* format, ...) SW__CHECK_PRINTF(3, 4);
static bool sw__invalid(sw__check_builder* r, int64_t node, const char* format, ...) {
    /* reported even when disabled: nothing else is checked, and an empty report would read as clean */
    uint64_t disabled = r->disabled;
    r->disabled = 0;
    sw_check_finding* f = sw__finding_add(r, SW_CHECK_MODEL_INVALID);
    r->disabled = disabled;
    if (!f) return false;
    f->node = node;
    va_list ap;
    va_start(ap, format);
    vsnprintf(f->message, sizeof f->message, format, ap);
    va_end(ap);
    return false;
}

static bool sw__index_ok(int64_t index, size_t count) { return index >= -1 && index < (int64_t)count; }

static bool sw__texture_ref_ok(const sw_model* a, const sw_model_texture_ref* t) {
    return sw__index_ok(t->texture, a->texture_count) && t->texcoord >= 0;
}

/* ---- the model's own promises --------------------------------------------------------

   What model.h promises and what the checks and pose.h index with: every
   array present for its count, every index in range, nodes a forest stored
   parents first, file indices a permutation, tracks that validate. A model
   an importer made keeps all of it; a hand-made one may not. Each part
   below returns false at the first broken promise, with sw__invalid's
   finding; they run in this order, each relying on the ones before. */

/* File indices a permutation; each node after its parent, its mesh, skin,
   children and morph weights in range. */
static bool sw__check_nodes(sw__check_builder* r, const sw_model* a) {
    size_t n = a->node_count;
    /* file indices first: the messages below name nodes by them */
    for (size_t i = 0; i < n; i++) {
        uint32_t s = a->nodes[i].source_index;
        if (s >= n || a->node_from_source[s] != i)
            return sw__invalid(
                r, -1, "node %zu (in the model's order): its file index %u is out of range or not unique", i, s);
    }
    for (size_t i = 0; i < n; i++) {
        const sw_model_node* node = &a->nodes[i];
        int64_t file = node->source_index;
        if (!(node->parent >= -1 && node->parent < (int64_t)i))
            return sw__invalid(r, file, "node %lld: its parent (%d in the model's order) does not come before it",
                               (long long)file, node->parent);
        if (!sw__index_ok(node->mesh, a->mesh_count) || !sw__index_ok(node->skin, a->skin_count))
            return sw__invalid(r, file, "node %lld: mesh %d or skin %d out of range (%zu meshes, %zu skins)",
                               (long long)file, node->mesh, node->skin, a->mesh_count, a->skin_count);
        if (node->child_count && !node->children)
            return sw__invalid(r, file, "node %lld: %zu children without their array", (long long)file,
                               node->child_count);
        for (size_t k = 0; k < node->child_count; k++)
            if (node->children[k] >= n || a->nodes[node->children[k]].parent != (int32_t)i)
                return sw__invalid(r, file, "node %lld: child %zu is not a node whose parent it is", (long long)file,
                                   k);
        size_t morphs = node->mesh >= 0 ? a->meshes[node->mesh].weight_count : 0;
        if (a->weight_offsets[i] != node->weight_offset || morphs > a->weight_count ||
            node->weight_offset > a->weight_count - morphs)
            return sw__invalid(r, file, "node %lld: its %zu morph weights at offset %u do not fit the model's %zu",
                               (long long)file, morphs, node->weight_offset, a->weight_count);
        if (node->weight_count && !node->weights)
            return sw__invalid(r, file, "node %lld: %zu default weights without their array", (long long)file,
                               node->weight_count);
    }
    return true;
}

/* Each primitive's mode, material, arrays, indices and morph targets. */
static bool sw__check_meshes(sw__check_builder* r, const sw_model* a) {
    for (size_t m = 0; m < a->mesh_count; m++) {
        const sw_model_mesh* mesh = &a->meshes[m];
        if (mesh->primitive_count && !mesh->primitives)
            return sw__invalid(r, -1, "mesh %zu: %zu primitives without their array", m, mesh->primitive_count);
        for (size_t p = 0; p < mesh->primitive_count; p++) {
            const sw_model_primitive* prim = &mesh->primitives[p];
            int k = prim->influence_count, raw = prim->raw_influence_count;
            if ((unsigned)prim->mode > SW_MODEL_TRIANGLE_FAN || !sw__index_ok(prim->material, a->material_count))
                return sw__invalid(r, -1, "mesh %zu primitive %zu: mode %d or material %d out of range", m, p,
                                   (int)prim->mode, prim->material);
            if (prim->vertex_count && !prim->positions)
                return sw__invalid(r, -1, "mesh %zu primitive %zu: no positions", m, p);
            if (!(k == 0 || k == 4 || k == 8) || (k && (!prim->joints || !prim->weights)))
                return sw__invalid(
                    r, -1, "mesh %zu primitive %zu: %d influences per vertex (0, 4 or 8 with their arrays)", m, p, k);
            if (raw < 0 || (raw && (!prim->raw_joints || !prim->raw_weights)))
                return sw__invalid(r, -1, "mesh %zu primitive %zu: %d raw influences without their arrays", m, p, raw);
            if (prim->index_count && !prim->indices)
                return sw__invalid(r, -1, "mesh %zu primitive %zu: %zu indices without their array", m, p,
                                   prim->index_count);
            for (size_t i = 0; i < prim->index_count; i++)
                if (prim->indices[i] >= prim->vertex_count)
                    return sw__invalid(r, -1, "mesh %zu primitive %zu: index %zu is %u, past the %zu vertices", m, p, i,
                                       prim->indices[i], prim->vertex_count);
            if (prim->target_count != mesh->weight_count || (prim->target_count && !prim->targets))
                return sw__invalid(r, -1, "mesh %zu primitive %zu: %zu morph targets where the mesh has %zu weights", m,
                                   p, prim->target_count, mesh->weight_count);
        }
    }
    return true;
}

/* Each skin's arrays, palette range, skeleton and joints. */
static bool sw__check_skins(sw__check_builder* r, const sw_model* a) {
    size_t n = a->node_count;
    for (size_t k = 0; k < a->skin_count; k++) {
        const sw_model_skin* s = &a->skins[k];
        if (s->joint_count && (!s->joints || !s->inverse_bind))
            return sw__invalid(r, -1, "skin %zu: %zu joints without their arrays", k, s->joint_count);
        if (s->palette_offset > a->skin_joint_count || s->joint_count > a->skin_joint_count - s->palette_offset)
            return sw__invalid(r, -1, "skin %zu: its %zu joints at palette offset %zu do not fit the model's %zu", k,
                               s->joint_count, s->palette_offset, a->skin_joint_count);
        if (!sw__index_ok(s->skeleton, n))
            return sw__invalid(r, -1, "skin %zu: skeleton %d out of range", k, s->skeleton);
        for (size_t j = 0; j < s->joint_count; j++)
            if (s->joints[j] >= n)
                return sw__invalid(r, -1, "skin %zu: joint %zu is node %u of %zu (in the model's order)", k, j,
                                   s->joints[j], n);
    }
    return true;
}

/* The importer's influences index the skin's joints, unused slots
   included: each mesh's largest index is found once (a mesh many nodes
   share is read once), its vertices again only for a node it breaks.
   False also when out of memory (r->out_of_memory). */
static bool sw__check_joint_indices(sw__check_builder* r, const sw_model* a) {
    size_t n = a->node_count;
    int32_t* largest = sw__alloc_array(a->mesh_count, sizeof *largest);
    if (!largest) {
        r->out_of_memory = true;
        return false;
    }
    for (size_t m = 0; m < a->mesh_count; m++) {
        largest[m] = -1;
        for (size_t p = 0; p < a->meshes[m].primitive_count; p++) {
            const sw_model_primitive* prim = &a->meshes[m].primitives[p];
            for (size_t e = 0; e < prim->vertex_count * (size_t)prim->influence_count; e++)
                if (prim->joints[e] > largest[m]) largest[m] = prim->joints[e];
        }
    }
    for (size_t i = 0; i < n; i++) {
        const sw_model_node* node = &a->nodes[i];
        if (node->mesh < 0 || node->skin < 0) continue;
        const sw_model_mesh* mesh = &a->meshes[node->mesh];
        size_t joints = a->skins[node->skin].joint_count;
        if ((int64_t)largest[node->mesh] < (int64_t)joints) continue;
        sw__free(largest);
        for (size_t p = 0; p < mesh->primitive_count; p++) {
            const sw_model_primitive* prim = &mesh->primitives[p];
            size_t slots = (size_t)prim->influence_count;
            for (size_t e = 0; e < prim->vertex_count * slots; e++)
                if (prim->joints[e] >= joints)
                    return sw__invalid(r, (int64_t)node->source_index,
                                       "node %u: mesh %d primitive %zu: vertex %zu names joint %u of skin %d's %zu",
                                       node->source_index, node->mesh, p, e / slots, prim->joints[e], node->skin,
                                       joints);
        }
        return sw__invalid(r, (int64_t)node->source_index, "node %u: a joint index past its skin's",
                           node->source_index);
    }
    sw__free(largest);
    return true;
}

/* Textures, materials and images: references in range. */
static bool sw__check_references(sw__check_builder* r, const sw_model* a) {
    for (size_t t = 0; t < a->texture_count; t++)
        if (!sw__index_ok(a->textures[t].image, a->image_count) ||
            !sw__index_ok(a->textures[t].sampler, a->sampler_count))
            return sw__invalid(r, -1, "texture %zu: image %d or sampler %d out of range", t, a->textures[t].image,
                               a->textures[t].sampler);
    for (size_t m = 0; m < a->material_count; m++) {
        const sw_model_material* mat = &a->materials[m];
        if (!sw__texture_ref_ok(a, &mat->base_color_texture) ||
            !sw__texture_ref_ok(a, &mat->metallic_roughness_texture) || !sw__texture_ref_ok(a, &mat->normal_texture) ||
            !sw__texture_ref_ok(a, &mat->occlusion_texture) || !sw__texture_ref_ok(a, &mat->emissive_texture))
            return sw__invalid(r, -1, "material %zu: a texture reference out of range", m);
    }
    for (size_t i = 0; i < a->image_count; i++) {
        const sw_model_image* im = &a->images[i];
        if ((im->uri != NULL) == (im->data != NULL) || (im->data && !im->data_size))
            return sw__invalid(r, -1, "image %zu: neither a uri nor embedded bytes, or both", i);
    }
    return true;
}

/* The default scene and each scene's roots. */
static bool sw__check_scenes(sw__check_builder* r, const sw_model* a) {
    size_t n = a->node_count;
    if (!sw__index_ok(a->default_scene, a->scene_count) || (a->scene_count && a->default_scene < 0))
        return sw__invalid(r, -1, "model: default scene %d out of range (%zu scenes)", a->default_scene,
                           a->scene_count);
    for (size_t s = 0; s < a->scene_count; s++) {
        if (a->scenes[s].node_count && !a->scenes[s].nodes)
            return sw__invalid(r, -1, "scene %zu: %zu roots without their array", s, a->scenes[s].node_count);
        for (size_t k = 0; k < a->scenes[s].node_count; k++)
            if (a->scenes[s].nodes[k] >= n)
                return sw__invalid(r, -1, "scene %zu: root %zu is node %u of %zu (in the model's order)", s, k,
                                   a->scenes[s].nodes[k], n);
    }
    return true;
}

/* Each track: its node in range, valid (pose.h samples it), and a weights
   track as wide as its mesh's morph weights. */
static bool sw__check_animations(sw__check_builder* r, const sw_model* a) {
    size_t n = a->node_count;
    for (size_t c = 0; c < a->animation_count; c++) {
        const sw_clip* clip = &a->animations[c];
        if (clip->track_count && !clip->tracks)
            return sw__invalid(r, -1, "animation %zu: %zu tracks without their array", c, clip->track_count);
        for (size_t t = 0; t < clip->track_count; t++) {
            const sw_track* track = &clip->tracks[t];
            sw_diag d;
            if (track->target >= n)
                return sw__invalid(r, -1, "animation %zu track %zu: targets node %u of %zu (in the model's order)", c,
                                   t, track->target, n);
            int64_t file = a->nodes[track->target].source_index;
            if (sw_track_validate(track, &d) != SW_OK)
                return sw__invalid(r, file, "animation %zu track %zu (node %lld): %s", c, t, (long long)file,
                                   d.message);
            int32_t mesh = a->nodes[track->target].mesh;
            if (track->path == SW_PATH_WEIGHTS &&
                (mesh < 0 || track->component_count != a->meshes[mesh].weight_count))
                return sw__invalid(r, file, "animation %zu track %zu: %u weights for node %lld, whose mesh has other",
                                   c, t, track->component_count, (long long)file);
        }
    }
    return true;
}

/* Every promise, in order: the arrays first, then each part. */
static bool sw__check_structure(sw__check_builder* r, const sw_model* a) {
    if ((a->node_count && (!a->nodes || !a->node_from_source || !a->weight_offsets)) || (a->mesh_count && !a->meshes) ||
        (a->skin_count && !a->skins) || (a->animation_count && !a->animations) ||
        (a->material_count && !a->materials) || (a->texture_count && !a->textures) || (a->image_count && !a->images) ||
        (a->scene_count && !a->scenes) || (a->warning_count && !a->warnings))
        return sw__invalid(r, -1, "model: an array is missing for its count");
    for (size_t i = 0; i < a->warning_count; i++)
        if (!a->warnings[i]) return sw__invalid(r, -1, "model: warning %zu is missing", i);
    return sw__check_nodes(r, a) && sw__check_meshes(r, a) && sw__check_skins(r, a) && sw__check_joint_indices(r, a) &&
           sw__check_references(r, a) && sw__check_scenes(r, a) && sw__check_animations(r, a);
}

/* ---- the file's influences, as stored ---------------------------------------------- */

static double sw__bounds_diagonal(const sw_model_primitive* p) {
    double d = 0.0;
    for (int c = 0; c < 3; c++)
        d += ((double)p->bounds_max[c] - p->bounds_min[c]) * ((double)p->bounds_max[c] - p->bounds_min[c]);
    return sqrt(d);
}

/* One weighted influence slot, for finding a joint named twice. */
typedef struct sw__check_slot {
    uint16_t joint;
    uint32_t slot;
} sw__check_slot;

static int sw__compare_slots(const void* x, const void* y) {
    const sw__check_slot *a = x, *b = y;
    if (a->joint != b->joint) return a->joint < b->joint ? -1 : 1;
    return (a->slot > b->slot) - (a->slot < b->slot);
}

/* The first slot e, then the first k > e, that name one joint both with a
   weight > 0; false when there are none. Pairwise for a few slots, sorted
   for many (the importer keeps up to 256 per vertex): `scratch` holds
   `slots` entries when slots > SW__CHECK_FEW_SLOTS. */
static bool sw__first_duplicate(const uint16_t* j, const float* w, size_t slots, sw__check_slot* scratch, size_t* out_e,
                                size_t* out_k) {
    if (slots <= SW__CHECK_FEW_SLOTS) {
        for (size_t e = 0; e < slots; e++) {
            if (!(w[e] > 0.0f)) continue;
            for (size_t k = e + 1; k < slots; k++)
                if (w[k] > 0.0f && j[k] == j[e]) {
                    *out_e = e, *out_k = k;
                    return true;
                }
        }
        return false;
    }
    size_t n = 0;
    for (size_t e = 0; e < slots; e++)
        if (w[e] > 0.0f) scratch[n++] = (sw__check_slot){.joint = j[e], .slot = (uint32_t)e};
    qsort(scratch, n, sizeof *scratch, sw__compare_slots);
    /* each repeated joint's first two slots; of these, the earliest first one */
    bool found = false;
    for (size_t i = 0; i + 1 < n; i++) {
        if (scratch[i].joint != scratch[i + 1].joint || (i > 0 && scratch[i - 1].joint == scratch[i].joint)) continue;
        if (!found || scratch[i].slot < *out_e) *out_e = scratch[i].slot, *out_k = scratch[i + 1].slot, found = true;
    }
    return found;
}

/* Weights that do not sum to 1, negative weights, duplicates, zero weights
   on joints other than 0, vertices without weight. Skin-independent. */
static void sw__check_raw_influences(sw__check_builder* r, const sw_model* a, size_t mesh, size_t prim_index) {
    const sw_model_primitive* p = &a->meshes[mesh].primitives[prim_index];
    size_t slots = (size_t)p->raw_influence_count;
    if (!slots || !p->raw_joints || !p->raw_weights) return;
    sw__check_slot* scratch = NULL;
    if (slots > SW__CHECK_FEW_SLOTS && !(scratch = sw__alloc_array(slots, sizeof *scratch))) {
        r->out_of_memory = true;
        return;
    }
    size_t unnormalised = 0, negative = 0, duplicate = 0, zero_joint = 0, zero_joint_slots = 0, no_weight = 0;
    sw__check_worst w_unnormalised = {0}, w_negative = {0}, w_duplicate = {0}, w_zero_joint = {0}, w_no_weight = {0};
    double v_unnormalised = 1.0, v_negative = 0.0, v_duplicate = 0.0;
    for (size_t v = 0; v < p->vertex_count; v++) {
        const uint16_t* j = &p->raw_joints[v * slots];
        const float* w = &p->raw_weights[v * slots];
        double sum = 0.0, most_negative = 0.0;
        int64_t negative_joint = -1, zero_joint_first = -1;
        size_t positive = 0, zero_slots = 0;
        for (size_t e = 0; e < slots; e++) {
            sum += w[e];
            positive += w[e] > 0.0f;
            if (w[e] < most_negative) most_negative = w[e], negative_joint = j[e];
            if (w[e] == 0.0f && j[e] != 0) {
                zero_slots++;
                if (zero_joint_first < 0) zero_joint_first = j[e];
            }
        }
        if (negative_joint >= 0) {
            negative++;
            sw__worst_add(&w_negative, -most_negative, sw__example((int64_t)v, negative_joint, most_negative));
            if (most_negative < v_negative) v_negative = most_negative;
        }
        if (zero_slots) {
            zero_joint++;
            zero_joint_slots += zero_slots;
            /* every example is as bad as the next: the first ones are kept */
            sw__worst_add(&w_zero_joint, 0.0, sw__example((int64_t)v, zero_joint_first, (double)zero_joint_first));
        }
        if (positive == 0) {
            no_weight++;
            sw__worst_add(&w_no_weight, 0.0, sw__example((int64_t)v, -1, sum));
            continue;
        }
        if (fabs(sum - 1.0) > SW__CHECK_SUM_TOLERANCE) {
            unnormalised++;
            sw__worst_add(&w_unnormalised, fabs(sum - 1.0), sw__example((int64_t)v, -1, sum));
            if (fabs(sum - 1.0) > fabs(v_unnormalised - 1.0)) v_unnormalised = sum;
        }
        /* one joint twice, both weighted */
        size_t e = 0, k = 0;
        if (sw__first_duplicate(j, w, slots, scratch, &e, &k)) {
            double both = (double)w[e] + w[k];
            duplicate++;
            sw__worst_add(&w_duplicate, both, sw__example((int64_t)v, j[e], both));
            if (both > v_duplicate) v_duplicate = both;
        }
    }
    sw__free(scratch);
    sw_check_finding* f;
    if (negative && (f = sw__finding_add(r, SW_CHECK_WEIGHTS_NEGATIVE))) {
        f->mesh = (int64_t)mesh, f->primitive = (int64_t)prim_index, f->count = negative, f->value = v_negative;
        sw__set_worst(f, &w_negative);
        sw__message_add(
            f,
            "mesh %zu primitive %zu: %s negative weights, which glTF forbids (worst: vertex %lld, joint %lld, "
            "weight %.6g)",
            mesh, prim_index, sw__vertices_have(negative).s, (long long)w_negative.examples[0].vertex,
            (long long)w_negative.examples[0].joint, w_negative.examples[0].value);
    }
    if (duplicate && (f = sw__finding_add(r, SW_CHECK_JOINT_DUPLICATE))) {
        f->mesh = (int64_t)mesh, f->primitive = (int64_t)prim_index, f->count = duplicate, f->value = v_duplicate;
        sw__set_worst(f, &w_duplicate);
        sw__message_add(f,
                        "mesh %zu primitive %zu: %s one joint twice, both times with a weight > 0, which glTF forbids "
                        "(worst: vertex %lld, joint %lld twice, %.6g in all)",
                        mesh, prim_index, sw__vertices_have(duplicate).s, (long long)w_duplicate.examples[0].vertex,
                        (long long)w_duplicate.examples[0].joint, w_duplicate.examples[0].value);
    }
    if (unnormalised && (f = sw__finding_add(r, SW_CHECK_WEIGHTS_NOT_NORMALISED))) {
        f->mesh = (int64_t)mesh, f->primitive = (int64_t)prim_index, f->count = unnormalised, f->value = v_unnormalised;
        sw__set_worst(f, &w_unnormalised);
        sw__message_add(f,
                        "mesh %zu primitive %zu: %s weights that do not sum to 1 (worst: vertex %lld, sum %.6g); "
                        "engines that do not renormalise draw them pulled towards the origin",
                        mesh, prim_index, sw__vertices_have(unnormalised).s,
                        (long long)w_unnormalised.examples[0].vertex, w_unnormalised.examples[0].value);
    }
    if (no_weight && (f = sw__finding_add(r, SW_CHECK_VERTEX_WITHOUT_WEIGHTS))) {
        f->mesh = (int64_t)mesh, f->primitive = (int64_t)prim_index, f->count = no_weight, f->value = 0.0;
        sw__set_worst(f, &w_no_weight);
        sw__message_add(f,
                        "mesh %zu primitive %zu: %s no weight at all (first: vertex %lld); sinew's importer gives them "
                        "weight 1 on their first joint, a shader would collapse them to the origin",
                        mesh, prim_index, sw__vertices_have(no_weight).s, (long long)w_no_weight.examples[0].vertex);
    }
    if (zero_joint && (f = sw__finding_add(r, SW_CHECK_JOINT_ZERO_WEIGHT))) {
        f->mesh = (int64_t)mesh, f->primitive = (int64_t)prim_index, f->count = zero_joint;
        f->value = w_zero_joint.examples[0].value;
        sw__set_worst(f, &w_zero_joint);
        sw__message_add(f,
                        "mesh %zu primitive %zu: %s a joint other than 0 with weight 0 (%s; first: vertex %lld, joint "
                        "%lld); unused slots should name joint 0",
                        mesh, prim_index, sw__vertices_have(zero_joint).s,
                        sw__counted(zero_joint_slots, "slot", "slots", NULL, NULL).s,
                        (long long)w_zero_joint.examples[0].vertex, (long long)w_zero_joint.examples[0].joint);
    }
}

/* ---- positions as stored ------------------------------------------------------------- */

/* |x|, infinite when x is not finite: a coordinate's distance for the extent check. */
static double sw__extent_of(double x) { return isfinite(x) ? fabs(x) : INFINITY; }

static bool sw__beyond_extent(double magnitude) { return !(magnitude <= SW_MODEL_MAX_EXTENT); }

/* Positions (or bounds) that are not finite or beyond SW_MODEL_MAX_EXTENT.
   True when the primitive has them (reported, unless disabled). */
static bool sw__check_stored_extent(sw__check_builder* r, const sw_model* a, size_t mesh, size_t prim_index) {
    const sw_model_primitive* p = &a->meshes[mesh].primitives[prim_index];
    size_t count = 0;
    double worst = 0.0, bounds = 0.0;
    sw__check_worst w = {0};
    for (size_t v = 0; v < p->vertex_count; v++) {
        const float* x = &p->positions[v * 3];
        double m = fmax(sw__extent_of(x[0]), fmax(sw__extent_of(x[1]), sw__extent_of(x[2])));
        if (!sw__beyond_extent(m)) continue;
        count++;
        sw__worst_add(&w, m, sw__example((int64_t)v, -1, m));
        worst = fmax(worst, m);
    }
    for (int c = 0; c < 3; c++)
        bounds = fmax(bounds, fmax(sw__extent_of(p->bounds_min[c]), sw__extent_of(p->bounds_max[c])));
    if (!count && !sw__beyond_extent(bounds)) return false;
    sw_check_finding* f = sw__finding_add(r, SW_CHECK_EXTENT_ABSURD);
    if (!f) return true;
    sw__set_worst(f, &w);
    f->mesh = (int64_t)mesh, f->primitive = (int64_t)prim_index, f->count = count, f->value = fmax(worst, bounds);
    if (count)
        sw__message_add(f,
                        "mesh %zu primitive %zu: %s a coordinate more than %g model units from the origin, or not "
                        "finite (worst: vertex %lld, %.4g): no camera can frame it (SW_MODEL_MAX_EXTENT)",
                        mesh, prim_index, sw__vertices_have(count).s, SW_MODEL_MAX_EXTENT,
                        (long long)w.examples[0].vertex, w.examples[0].value);
    else
        sw__message_add(
            f,
            "mesh %zu primitive %zu: its bounds reach %.4g, more than %g model units from the origin or not "
            "finite, though no vertex does (SW_MODEL_MAX_EXTENT)",
            mesh, prim_index, bounds, SW_MODEL_MAX_EXTENT);
    return true;
}

/* ---- skinned (mesh, skin) pairs and their per-pose state ------------------------------ */

/* One primitive skinned by one skin, with what the poses measure on it. */
typedef struct sw__check_target {
    size_t mesh, prim_index, skin;
    const sw_model_primitive* prim;
    /* the influences measured: the file's (raw) when kept, else the importer's */
    size_t slots;
    const uint16_t* joints;
    const float* weights;
    double diagonal;
    bool posable;             /* influences present and every weighted joint in range */
    /* LBS retention per vertex: over everything, and over the current pose set */
    float* retention;         /* vertex_count; 2.0 = not measured (fewer than 2 influences) */
    int32_t* retention_pose;  /* pose set of the minimum (-1 rest, else animation) */
    float* retention_time;
    float* retention_set;     /* minimum within the current pose set */
    sw_check_pose_stat* retention_poses; /* 1 + animation_count */
    /* worst retention in detail */
    double worst_retention;
    int64_t worst_vertex, worst_joint_a, worst_joint_b, worst_pose;
    double worst_time, worst_weight_a, worst_weight_b, worst_angle;
    /* influence truncation: vertices with more than N weights, as
       (joint, full weight − truncated weight) lists */
    size_t truncated_count;
    uint32_t* truncated_vertices;
    size_t* truncated_offsets; /* truncated_count + 1 */
    uint16_t* truncated_joints;
    double* truncated_deltas;
    double* truncated_error;   /* per truncated vertex: the largest error */
    int32_t* truncated_pose;
    float* truncated_time;
    sw_check_pose_stat* truncated_poses;
    /* skinned positions beyond SW_MODEL_MAX_EXTENT (NULL when the stored
       ones already are): per vertex the largest coordinate magnitude, 0
       while within, and when */
    double* extent;
    int32_t* extent_pose;
    float* extent_time;
} sw__check_target;

typedef struct sw__check_skin_state {
    bool used_by_node;        /* a node with a mesh uses this skin */
    bool* joint_used;         /* a vertex of a skinned primitive weights it */
    double bounds_min[3], bounds_max[3];
    bool has_bounds;
    sw_mat34* matrices;       /* per joint, at the current pose */
    double* rotations;        /* orthogonal part of each skin matrix: 9 per joint (sw_skin_rotations) */
    double* scale_ratio;      /* per joint: largest σmax/σmin so far */
    int32_t* scale_pose;
    float* scale_time;
    double* scale_ratio_set;  /* within the current pose set */
    sw_check_pose_stat* scale_poses;
} sw__check_skin_state;

typedef struct sw__check_state {
    const sw_model* a;
    const sw_check_options* options;
    sw__check_target* targets;
    size_t target_count;
    sw__check_skin_state* skins;
    size_t pose_sets;         /* 1 + animation_count */
    sw_pose pose;
    void* pose_memory;
    /* found once, so that nothing loops over nodes per skin or mesh */
    int64_t* skin_node;       /* per skin: its first node with a mesh (model order), or -1 */
    int64_t* skin_scene_node; /* per skin: its first such node in the default scene, or -1 */
    bool* in_scene;           /* per node: in the default scene's trees; NULL without a scene */
    bool* mesh_skinned;       /* per mesh: some node gives it a skin */
    size_t* prim_first;       /* per mesh: its first primitive's entry in stored_absurd */
    bool* stored_absurd;      /* per primitive: its stored positions are beyond SW_MODEL_MAX_EXTENT */
} sw__check_state;

static void sw__state_free(sw__check_state* s) {
    for (size_t t = 0; t < s->target_count; t++) {
        sw__check_target* g = &s->targets[t];
        sw__free(g->retention), sw__free(g->retention_pose), sw__free(g->retention_time), sw__free(g->retention_set);
        sw__free(g->retention_poses);
        sw__free(g->truncated_vertices), sw__free(g->truncated_offsets), sw__free(g->truncated_joints);
        sw__free(g->truncated_deltas), sw__free(g->truncated_error), sw__free(g->truncated_pose), sw__free(g->truncated_time);
        sw__free(g->truncated_poses);
        sw__free(g->extent), sw__free(g->extent_pose), sw__free(g->extent_time);
    }
    sw__free(s->targets);
    for (size_t k = 0; s->skins && k < s->a->skin_count; k++) {
        sw__check_skin_state* ks = &s->skins[k];
        sw__free(ks->joint_used), sw__free(ks->matrices), sw__free(ks->rotations), sw__free(ks->scale_ratio);
        sw__free(ks->scale_pose), sw__free(ks->scale_time), sw__free(ks->scale_ratio_set), sw__free(ks->scale_poses);
    }
    sw__free(s->skins);
    sw__aligned_free(s->pose_memory);
    sw__free(s->skin_node), sw__free(s->skin_scene_node), sw__free(s->in_scene), sw__free(s->mesh_skinned);
    sw__free(s->prim_first), sw__free(s->stored_absurd);
}

/* The per-node facts the checks use per skin and per mesh. False when out of memory. */
static bool sw__prepare_maps(sw__check_state* s) {
    const sw_model* a = s->a;
    size_t primitives = 0;
    s->skin_node = sw__alloc_array(a->skin_count, sizeof *s->skin_node);
    s->skin_scene_node = sw__alloc_array(a->skin_count, sizeof *s->skin_scene_node);
    s->mesh_skinned = sw__calloc_array(a->mesh_count, sizeof *s->mesh_skinned);
    s->prim_first = sw__alloc_array(a->mesh_count, sizeof *s->prim_first);
    if (!s->skin_node || !s->skin_scene_node || !s->mesh_skinned || !s->prim_first) return false;
    for (size_t m = 0; m < a->mesh_count; m++)
        s->prim_first[m] = primitives, primitives += a->meshes[m].primitive_count;
    if (!(s->stored_absurd = sw__calloc_array(primitives, sizeof *s->stored_absurd))) return false;
    if (a->scene_count && a->default_scene >= 0) {
        /* parents come first: one forward pass finds every node under the roots */
        const sw_model_scene* scene = &a->scenes[a->default_scene];
        if (!(s->in_scene = sw__calloc_array(a->node_count, sizeof *s->in_scene))) return false;
        for (size_t i = 0; i < scene->node_count; i++) s->in_scene[scene->nodes[i]] = true;
        for (size_t n = 0; n < a->node_count; n++)
            if (a->nodes[n].parent >= 0 && s->in_scene[a->nodes[n].parent]) s->in_scene[n] = true;
    }
    for (size_t k = 0; k < a->skin_count; k++) s->skin_node[k] = s->skin_scene_node[k] = -1;
    for (size_t n = 0; n < a->node_count; n++) {
        const sw_model_node* node = &a->nodes[n];
        if (node->mesh < 0 || node->skin < 0) continue;
        s->mesh_skinned[node->mesh] = true;
        if (s->skin_node[node->skin] < 0) s->skin_node[node->skin] = (int64_t)n;
        if (s->in_scene && s->in_scene[n] && s->skin_scene_node[node->skin] < 0)
            s->skin_scene_node[node->skin] = (int64_t)n;
    }
    return true;
}

static sw_check_pose_stat* sw__pose_stats_new(size_t n) {
    sw_check_pose_stat* p = sw__alloc_array(n, sizeof *p);
    if (p)
        for (size_t i = 0; i < n; i++) p[i] = (sw_check_pose_stat){.count = 0, .value = NAN, .time_s = NAN};
    return p;
}

/* Vertices with more than N weights > 0: the difference between their
   full influence list (renormalised) and the N largest (renormalised; the
   earlier on ties, as sinew's importer chooses). */
static bool sw__prepare_truncation(sw__check_target* g, int max_influences) {
    const sw_model_primitive* p = g->prim;
    size_t slots = g->slots;
    size_t count = 0, entries = 0;
    for (size_t v = 0; v < p->vertex_count; v++) {
        size_t positive = 0;
        for (size_t e = 0; e < slots; e++) positive += g->weights[v * slots + e] > 0.0f;
        if (positive > (size_t)max_influences) count++, entries += positive;
    }
    g->truncated_count = count;
    if (!count) return true;
    g->truncated_vertices = sw__alloc_array(count, sizeof *g->truncated_vertices);
    g->truncated_offsets = sw__alloc_array(count + 1, sizeof *g->truncated_offsets);
    g->truncated_joints = sw__alloc_array(entries, sizeof *g->truncated_joints);
    g->truncated_deltas = sw__alloc_array(entries, sizeof *g->truncated_deltas);
    g->truncated_error = sw__calloc_array(count, sizeof *g->truncated_error);
    g->truncated_pose = sw__alloc_array(count, sizeof *g->truncated_pose);
    g->truncated_time = sw__alloc_array(count, sizeof *g->truncated_time);
    bool* chosen = sw__alloc_array(slots, sizeof *chosen);
    if (!g->truncated_vertices || !g->truncated_offsets || !g->truncated_joints || !g->truncated_deltas ||
        !g->truncated_error || !g->truncated_pose || !g->truncated_time || !chosen) {
        sw__free(chosen);
        return false;
    }
    size_t k = 0, at = 0;
    for (size_t v = 0; v < p->vertex_count; v++) {
        const uint16_t* j = &g->joints[v * slots];
        const float* w = &g->weights[v * slots];
        size_t positive = 0;
        double full = 0.0;
        for (size_t e = 0; e < slots; e++)
            if (w[e] > 0.0f) positive++, full += w[e];
        if (positive <= (size_t)max_influences) continue;
        memset(chosen, 0, slots * sizeof *chosen);
        double kept = 0.0;
        for (int c = 0; c < max_influences; c++) {
            size_t best = slots;
            for (size_t e = 0; e < slots; e++)
                if (w[e] > 0.0f && !chosen[e] && (best == slots || w[e] > w[best])) best = e;
            chosen[best] = true;
            kept += w[best];
        }
        g->truncated_vertices[k] = (uint32_t)v;
        g->truncated_offsets[k] = at;
        g->truncated_pose[k] = -1;
        g->truncated_time[k] = NAN;
        for (size_t e = 0; e < slots; e++) {
            if (!(w[e] > 0.0f)) continue;
            g->truncated_joints[at] = j[e];
            g->truncated_deltas[at] = w[e] / full - (chosen[e] ? w[e] / kept : 0.0);
            at++;
        }
        k++;
    }
    g->truncated_offsets[k] = at;
    sw__free(chosen);
    return true;
}

/* A node with both a mesh and a skin, for finding each pair's first node. */
typedef struct sw__check_pair {
    int32_t mesh, skin;
    size_t node;
} sw__check_pair;

static int sw__compare_pairs(const void* x, const void* y) {
    const sw__check_pair *a = x, *b = y;
    if (a->mesh != b->mesh) return a->mesh < b->mesh ? -1 : 1;
    if (a->skin != b->skin) return a->skin < b->skin ? -1 : 1;
    return (a->node > b->node) - (a->node < b->node);
}

/* Per node: true for the first node (in the model's order) with its
   (mesh, skin) pair. Sorted, so many nodes sharing a mesh stay cheap. NULL
   when out of memory. */
static bool* sw__first_of_pairs(const sw_model* a) {
    bool* first = sw__calloc_array(a->node_count, sizeof *first);
    sw__check_pair* pairs = sw__alloc_array(a->node_count, sizeof *pairs);
    if (!first || !pairs) {
        sw__free(first), sw__free(pairs);
        return NULL;
    }
    size_t count = 0;
    for (size_t n = 0; n < a->node_count; n++)
        if (a->nodes[n].mesh >= 0 && a->nodes[n].skin >= 0)
            pairs[count++] = (sw__check_pair){.mesh = a->nodes[n].mesh, .skin = a->nodes[n].skin, .node = n};
    qsort(pairs, count, sizeof *pairs, sw__compare_pairs);
    for (size_t i = 0; i < count; i++)
        first[pairs[i].node] = i == 0 || pairs[i].mesh != pairs[i - 1].mesh || pairs[i].skin != pairs[i - 1].skin;
    sw__free(pairs);
    return first;
}

/* Finds the (mesh, skin) pairs, marks used joints, checks joint ranges,
   and allocates the per-pose state. False when out of memory. */
static bool sw__prepare(sw__check_state* s, sw__check_builder* r) {
    const sw_model* a = s->a;
    s->pose_sets = 1 + a->animation_count;
    s->skins = sw__calloc_array(a->skin_count, sizeof *s->skins);
    if (!s->skins) return false;
    /* at most one target per (node, primitive); duplicates of a (mesh, skin) pair are skipped */
    size_t capacity = 0;
    for (size_t n = 0; n < a->node_count; n++)
        if (a->nodes[n].mesh >= 0 && a->nodes[n].skin >= 0) capacity += a->meshes[a->nodes[n].mesh].primitive_count;
    s->targets = sw__calloc_array(capacity, sizeof *s->targets);
    bool* first = sw__first_of_pairs(a);
    if (!s->targets || !first) {
        sw__free(first);
        return false;
    }
    for (size_t n = 0; n < a->node_count; n++) {
        const sw_model_node* node = &a->nodes[n];
        if (node->mesh < 0 || node->skin < 0) continue;
        size_t mesh = (size_t)node->mesh, skin = (size_t)node->skin;
        s->skins[skin].used_by_node = true;
        if (!first[n]) continue;
        for (size_t p = 0; p < a->meshes[mesh].primitive_count; p++) {
            const sw_model_primitive* prim = &a->meshes[mesh].primitives[p];
            if (!prim->influence_count) continue;
            sw__check_target* g = &s->targets[s->target_count++];
            g->mesh = mesh, g->prim_index = p, g->skin = skin, g->prim = prim;
            bool raw = prim->raw_influence_count > 0;
            g->slots = (size_t)(raw ? prim->raw_influence_count : prim->influence_count);
            g->joints = raw ? prim->raw_joints : prim->joints;
            g->weights = raw ? prim->raw_weights : prim->weights;
            g->diagonal = sw__bounds_diagonal(prim);
            g->worst_retention = 2.0;
            g->worst_vertex = -1;
        }
    }
    sw__free(first);
    for (size_t k = 0; k < a->skin_count; k++) {
        sw__check_skin_state* ks = &s->skins[k];
        size_t joints = a->skins[k].joint_count;
        ks->joint_used = sw__calloc_array(joints, sizeof *ks->joint_used);
        ks->matrices = sw__alloc_array(joints, sizeof *ks->matrices);
        ks->rotations = sw__alloc_array(joints, 9 * sizeof *ks->rotations);
        ks->scale_ratio = sw__alloc_array(joints, sizeof *ks->scale_ratio);
        ks->scale_pose = sw__alloc_array(joints, sizeof *ks->scale_pose);
        ks->scale_time = sw__alloc_array(joints, sizeof *ks->scale_time);
        ks->scale_ratio_set = sw__alloc_array(joints, sizeof *ks->scale_ratio_set);
        ks->scale_poses = sw__pose_stats_new(s->pose_sets);
        if (!ks->joint_used || !ks->matrices || !ks->rotations || !ks->scale_ratio || !ks->scale_pose ||
            !ks->scale_time || !ks->scale_ratio_set || !ks->scale_poses)
            return false;
        for (size_t j = 0; j < joints; j++) ks->scale_ratio[j] = 1.0, ks->scale_pose[j] = -1, ks->scale_time[j] = NAN;
    }
    for (size_t t = 0; t < s->target_count; t++) {
        sw__check_target* g = &s->targets[t];
        const sw_model_primitive* p = g->prim;
        sw__check_skin_state* ks = &s->skins[g->skin];
        size_t joint_count = a->skins[g->skin].joint_count;
        size_t slots = g->slots;
        size_t out_of_range = 0;
        int64_t largest = -1;
        sw__check_worst w_range = {0};
        bool weighted_out_of_range = false;
        for (size_t v = 0; v < p->vertex_count; v++) {
            bool bad = false;
            for (size_t e = 0; e < slots; e++) {
                uint16_t j = g->joints[v * slots + e];
                float w = g->weights[v * slots + e];
                if (j >= joint_count) {
                    if (!bad) sw__worst_add(&w_range, (double)j, sw__example((int64_t)v, j, (double)j));
                    bad = true;
                    if ((int64_t)j > largest) largest = j;
                    weighted_out_of_range = weighted_out_of_range || w > 0.0f;
                } else if (w > 0.0f) {
                    ks->joint_used[j] = true;
                }
            }
            out_of_range += bad;
        }
        sw_check_finding* f;
        if (out_of_range && (f = sw__finding_add(r, SW_CHECK_JOINT_OUT_OF_RANGE))) {
            f->mesh = (int64_t)g->mesh, f->primitive = (int64_t)g->prim_index, f->skin = (int64_t)g->skin;
            f->count = out_of_range, f->value = (double)largest;
            sw__set_worst(f, &w_range);
            sw__message_add(
                f,
                "mesh %zu primitive %zu (skin %zu): %s joint indices past the skin's %zu joints (worst: "
                "vertex %lld, joint %lld)%s",
                g->mesh, g->prim_index, g->skin, sw__vertices_have(out_of_range).s, joint_count,
                (long long)w_range.examples[0].vertex, (long long)w_range.examples[0].joint,
                weighted_out_of_range ? "" : "; all with weight 0, but a GPU still reads the palette there");
        }
        /* The importer rejects weighted indices out of range, so a loaded
           model never gets here with one; stay safe anyway. */
        g->posable = !weighted_out_of_range;
        for (int c = 0; c < 3; c++) {
            ks->bounds_min[c] = ks->has_bounds ? fmin(ks->bounds_min[c], p->bounds_min[c]) : p->bounds_min[c];
            ks->bounds_max[c] = ks->has_bounds ? fmax(ks->bounds_max[c], p->bounds_max[c]) : p->bounds_max[c];
        }
        ks->has_bounds = true;
        if (!g->posable) continue;
        size_t n = p->vertex_count;
        g->retention = sw__alloc_array(n, sizeof *g->retention);
        g->retention_pose = sw__alloc_array(n, sizeof *g->retention_pose);
        g->retention_time = sw__alloc_array(n, sizeof *g->retention_time);
        g->retention_set = sw__alloc_array(n, sizeof *g->retention_set);
        g->retention_poses = sw__pose_stats_new(s->pose_sets);
        g->truncated_poses = sw__pose_stats_new(s->pose_sets);
        if (!g->retention || !g->retention_pose || !g->retention_time || !g->retention_set || !g->retention_poses ||
            !g->truncated_poses || !sw__prepare_truncation(g, s->options->max_influences))
            return false;
        if (!s->stored_absurd[s->prim_first[g->mesh] + g->prim_index]) {
            g->extent = sw__calloc_array(n, sizeof *g->extent);
            g->extent_pose = sw__alloc_array(n, sizeof *g->extent_pose);
            g->extent_time = sw__alloc_array(n, sizeof *g->extent_time);
            if (!g->extent || !g->extent_pose || !g->extent_time) return false;
        }
        for (size_t v = 0; v < p->vertex_count; v++)
            g->retention[v] = 2.0f, g->retention_pose[v] = -1, g->retention_time[v] = NAN;
    }
    sw_pose_sizes sizes = sw_pose_sizes_of(a);
    s->pose_memory = sw__aligned_alloc(16, sw_pose_memory_size(&sizes)); /* a multiple of 16 */
    if (s->pose_memory) sw_pose_bind(&s->pose, &sizes, s->pose_memory);
    return s->pose_memory != NULL;
}

/* ---- one pose ---------------------------------------------------------------------------- */

/* Skin matrices, their rotations and scale ratios for every skin a node uses. */
static void sw__pose_skins(sw__check_state* s, int64_t pose_set, double time) {
    const sw_model* a = s->a;
    for (size_t k = 0; k < a->skin_count; k++) {
        sw__check_skin_state* ks = &s->skins[k];
        if (!ks->used_by_node) continue;
        memcpy(ks->matrices, s->pose.skin_matrices + a->skins[k].palette_offset,
               a->skins[k].joint_count * sizeof *ks->matrices);
        sw_skin_rotations(ks->matrices, a->skins[k].joint_count, ks->rotations);
        for (size_t j = 0; j < a->skins[k].joint_count; j++) {
            if (!ks->joint_used[j]) continue;
            sw__mat3d m = sw__mat3d_from_mat34(&ks->matrices[j]);
            double sv[3];
            sw__mat3d_singular_values(&m, sv);
            double ratio = sv[2] > 1e-12 * sv[0] ? sv[0] / sv[2] : 1e12;
            if (ratio > ks->scale_ratio_set[j]) ks->scale_ratio_set[j] = ratio;
            if (ratio > ks->scale_ratio[j])
                ks->scale_ratio[j] = ratio, ks->scale_pose[j] = (int32_t)pose_set, ks->scale_time[j] = (float)time;
            sw_check_pose_stat* ps = &ks->scale_poses[pose_set + 1];
            if (isnan(ps->value) || ratio > ps->value) ps->value = ratio, ps->time_s = pose_set < 0 ? NAN : time;
        }
    }
}

/* LBS retention of vertex v over the importer's kept influences
   (sw_skin_vertex_retention: the smallest singular value of Σ wᵢRᵢ); 2.0,
   the report's "not measured", with fewer than two influences. */
static double sw__vertex_retention(const sw__check_skin_state* ks, size_t joint_count, const sw_model_primitive* p,
                                   size_t v, int* out_influences) {
    size_t n = (size_t)p->influence_count;
    double retention = sw_skin_vertex_retention(ks->rotations, joint_count, &p->joints[v * n], &p->weights[v * n],
                                                p->influence_count, out_influences);
    return *out_influences < 2 ? 2.0 : retention;
}

/* Joint j's rotation as a 3×3 (rows of 9 doubles, sw_skin_rotations). */
static sw__mat3d sw__joint_rotation(const sw__check_skin_state* ks, size_t j) {
    sw__mat3d r;
    for (int row = 0; row < 3; row++)
        for (int c = 0; c < 3; c++) r.m[row][c] = ks->rotations[9 * j + 3 * (size_t)row + (size_t)c];
    return r;
}

static void sw__apply34(const sw_mat34* s, const double p[3], double out[3]) {
    for (int r = 0; r < 3; r++) out[r] = s->m[r][0] * p[0] + s->m[r][1] * p[1] + s->m[r][2] * p[2] + s->m[r][3];
}

/* Linear blend skinning of every vertex, as an engine draws it (the
   importer's influences), against SW_MODEL_MAX_EXTENT. */
static void sw__pose_extent(sw__check_target* g, const sw__check_skin_state* ks, int64_t pose_set, double time) {
    const sw_model_primitive* p = g->prim;
    size_t slots = (size_t)p->influence_count;
    for (size_t v = 0; v < p->vertex_count; v++) {
        const uint16_t* j = &p->joints[v * slots];
        const float* w = &p->weights[v * slots];
        double bind[3] = {p->positions[v * 3], p->positions[v * 3 + 1], p->positions[v * 3 + 2]}, out[3] = {0, 0, 0};
        for (size_t e = 0; e < slots; e++) {
            if (!(w[e] > 0.0f)) continue;
            double q[3];
            sw__apply34(&ks->matrices[j[e]], bind, q);
            for (int c = 0; c < 3; c++) out[c] += w[e] * q[c];
        }
        double m = fmax(sw__extent_of(out[0]), fmax(sw__extent_of(out[1]), sw__extent_of(out[2])));
        if (sw__beyond_extent(m) && m > g->extent[v])
            g->extent[v] = m, g->extent_pose[v] = (int32_t)pose_set, g->extent_time[v] = (float)time;
    }
}

static void sw__pose_targets(sw__check_state* s, int64_t pose_set, double time) {
    for (size_t t = 0; t < s->target_count; t++) {
        sw__check_target* g = &s->targets[t];
        if (!g->posable) continue;
        const sw_model_primitive* p = g->prim;
        const sw__check_skin_state* ks = &s->skins[g->skin];
        const size_t joint_count = s->a->skins[g->skin].joint_count;
        for (size_t v = 0; v < p->vertex_count; v++) {
            int influences;
            double ret = sw__vertex_retention(ks, joint_count, p, v, &influences);
            if (influences < 2) continue;
            if (ret < g->retention_set[v]) g->retention_set[v] = (float)ret;
            if (ret < g->retention[v]) {
                g->retention[v] = (float)ret;
                g->retention_pose[v] = (int32_t)pose_set;
                g->retention_time[v] = (float)time;
            }
            sw_check_pose_stat* ps = &g->retention_poses[pose_set + 1];
            if (isnan(ps->value) || ret < ps->value) ps->value = ret, ps->time_s = pose_set < 0 ? NAN : time;
            if (ret < g->worst_retention) {
                /* the two largest weights, and how far apart their joints turned */
                size_t n = (size_t)p->influence_count, first = n, second = n;
                const float* w = &p->weights[v * n];
                for (size_t e = 0; e < n; e++) {
                    if (!(w[e] > 0.0f)) continue;
                    if (first == n || w[e] > w[first]) second = first, first = e;
                    else if (second == n || w[e] > w[second]) second = e;
                }
                uint16_t ja = p->joints[v * n + first], jb = p->joints[v * n + second];
                g->worst_retention = ret, g->worst_vertex = (int64_t)v, g->worst_pose = pose_set, g->worst_time = time;
                g->worst_joint_a = ja, g->worst_joint_b = jb;
                g->worst_weight_a = w[first], g->worst_weight_b = w[second];
                const sw__mat3d ra = sw__joint_rotation(ks, ja), rb = sw__joint_rotation(ks, jb);
                g->worst_angle = sw__mat3d_angle_between(&ra, &rb);
            }
        }
        for (size_t k = 0; k < g->truncated_count; k++) {
            double bind[3];
            size_t v = g->truncated_vertices[k];
            for (int c = 0; c < 3; c++) bind[c] = p->positions[v * 3 + (size_t)c];
            double d[3] = {0, 0, 0};
            for (size_t e = g->truncated_offsets[k]; e < g->truncated_offsets[k + 1]; e++) {
                double q[3];
                sw__apply34(&ks->matrices[g->truncated_joints[e]], bind, q);
                for (int c = 0; c < 3; c++) d[c] += g->truncated_deltas[e] * q[c];
            }
            double error = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
            /* round-off of two sums of the same matrices is no error */
            if (error < 1e-9 * (g->diagonal + 1.0)) error = 0.0;
            if (error > g->truncated_error[k]) {
                g->truncated_error[k] = error;
                g->truncated_pose[k] = (int32_t)pose_set;
                g->truncated_time[k] = (float)time;
            }
            sw_check_pose_stat* ps = &g->truncated_poses[pose_set + 1];
            if (isnan(ps->value) || error > ps->value) ps->value = error, ps->time_s = pose_set < 0 ? NAN : time;
        }
        if (g->extent) sw__pose_extent(g, ks, pose_set, time);
    }
}

static void sw__pose_set_begin(sw__check_state* s) {
    for (size_t t = 0; t < s->target_count; t++) {
        sw__check_target* g = &s->targets[t];
        if (!g->posable) continue;
        for (size_t v = 0; v < g->prim->vertex_count; v++) g->retention_set[v] = 2.0f;
    }
    for (size_t k = 0; k < s->a->skin_count; k++)
        for (size_t j = 0; j < s->a->skins[k].joint_count; j++) s->skins[k].scale_ratio_set[j] = 1.0;
}

static void sw__pose_set_end(sw__check_state* s, int64_t pose_set) {
    for (size_t t = 0; t < s->target_count; t++) {
        sw__check_target* g = &s->targets[t];
        if (!g->posable) continue;
        size_t below = 0;
        for (size_t v = 0; v < g->prim->vertex_count; v++)
            below += g->retention_set[v] < s->options->retention_threshold;
        g->retention_poses[pose_set + 1].count = below;
        g->truncated_poses[pose_set + 1].count = g->truncated_count;
    }
    for (size_t k = 0; k < s->a->skin_count; k++) {
        size_t scaled = 0;
        for (size_t j = 0; j < s->a->skins[k].joint_count; j++)
            scaled += s->skins[k].scale_ratio_set[j] - 1.0 > SW__CHECK_SCALE_TOLERANCE;
        s->skins[k].scale_poses[pose_set + 1].count = scaled;
    }
}

static int sw__compare_floats(const void* x, const void* y) {
    float a = *(const float*)x, b = *(const float*)y;
    return (a > b) - (a < b);
}

/* Times to sample a clip: every 1/rate s from 0 to its end, and every key
   time; at most max_samples, evenly thinned. *out is malloc'd. */
static bool sw__clip_times(const sw_clip* clip, const sw_check_options* o, float** out, size_t* out_count) {
    double duration = clip->duration > 0.0f ? clip->duration : 0.0;
    double grid = ceil(duration * o->sample_rate_hz - 1e-9);
    size_t steps = grid > (double)o->max_samples ? o->max_samples : (size_t)grid;
    size_t keys = 0;
    for (size_t t = 0; t < clip->track_count; t++)
        if (t == 0 || clip->tracks[t].times != clip->tracks[t - 1].times) keys += clip->tracks[t].key_count;
    float* times = sw__alloc_array(steps + 1 + keys, sizeof *times);
    if (!times) return false;
    size_t n = 0;
    for (size_t i = 0; i <= steps; i++) times[n++] = steps ? (float)(duration * (double)i / (double)steps) : 0.0f;
    for (size_t t = 0; t < clip->track_count; t++)
        if (t == 0 || clip->tracks[t].times != clip->tracks[t - 1].times)
            for (size_t k = 0; k < clip->tracks[t].key_count; k++) times[n++] = clip->tracks[t].times[k];
    qsort(times, n, sizeof *times, sw__compare_floats);
    size_t unique = 0;
    for (size_t i = 0; i < n; i++)
        if (unique == 0 || times[i] - times[unique - 1] > 1e-6f) times[unique++] = times[i];
    if (unique > o->max_samples) {
        for (size_t i = 0; i < o->max_samples; i++)
            times[i] = times[(size_t)((double)i * (double)(unique - 1) / (double)(o->max_samples - 1) + 0.5)];
        unique = o->max_samples;
    }
    *out = times, *out_count = unique;
    return true;
}

/* The rest pose, then every animation. False (with `diag`) on failure. */
static bool sw__run_poses(sw__check_state* s, sw_diag* diag) {
    const sw_model* a = s->a;
    sw__pose_set_begin(s);
    sw_pose_rest(a, &s->pose);
    sw_pose_update(a, &s->pose);
    sw__pose_skins(s, -1, NAN);
    sw__pose_targets(s, -1, NAN);
    sw__pose_set_end(s, -1);
    for (size_t i = 0; i < a->animation_count; i++) {
        const sw_clip* clip = &a->animations[i];
        float* times;
        size_t count;
        if (!sw__clip_times(clip, s->options, &times, &count)) {
            sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory");
            return false;
        }
        sw__pose_set_begin(s);
        for (size_t k = 0; k < count; k++) {
            /* Key times and an even grid, as written: no wrapping. */
            if (sw_pose_evaluate(a, clip, times[k], false, &s->pose, diag) != SW_OK) {
                sw__free(times);
                return false;
            }
            sw__pose_skins(s, (int64_t)i, times[k]);
            sw__pose_targets(s, (int64_t)i, times[k]);
        }
        sw__pose_set_end(s, (int64_t)i);
        sw__free(times);
    }
    return true;
}

/* ---- findings of the poses ------------------------------------------------------------------ */

static const sw_check_pose_stat* sw__pose_stats_copy(sw__check_builder* r, const sw_check_pose_stat* p, size_t n) {
    sw_check_pose_stat* copy = sw__alloc_array(n, sizeof *copy);
    if (copy) memcpy(copy, p, n * sizeof *copy);
    else r->out_of_memory = true;
    return copy;
}

/* " (by animation: twist 1365, bend 1200)" for the pose sets with a count. */
static void sw__message_by_animation(sw_check_finding* f, const sw_model* a, const sw_check_pose_stat* poses,
                                     size_t sets) {
    if (!poses) return;
    size_t listed = 0;
    for (size_t i = 0; i < sets; i++) {
        if (!poses[i].count) continue;
        if (listed == 8) {
            sw__message_add(f, ", ...");
            break;
        }
        if (i == 0)
            sw__message_add(f, "%srest pose %zu", listed ? ", " : "; by pose: ", poses[i].count);
        else if (a->animations[i - 1].name)
            sw__message_add(f, "%s\"%s\" %zu", listed ? ", " : "; by pose: ", a->animations[i - 1].name,
                            poses[i].count);
        else
            sw__message_add(f, "%sanimation %zu %zu", listed ? ", " : "; by pose: ", i - 1, poses[i].count);
        listed++;
    }
}

static void sw__report_skinned_extent(const sw__check_state* s, sw__check_builder* r, const sw__check_target* g);

static void sw__report_targets(sw__check_state* s, sw__check_builder* r) {
    const sw_model* a = s->a;
    const sw_check_options* o = s->options;
    for (size_t t = 0; t < s->target_count; t++) {
        sw__check_target* g = &s->targets[t];
        if (!g->posable) continue;
        const sw_model_primitive* p = g->prim;
        sw_check_finding* f;
        if (g->truncated_count && (f = sw__finding_add(r, SW_CHECK_TOO_MANY_INFLUENCES))) {
            double worst = 0.0;
            sw__check_worst w = {0};
            for (size_t k = 0; k < g->truncated_count; k++) {
                sw_check_example e = sw__example(g->truncated_vertices[k], -1, g->truncated_error[k]);
                e.animation = g->truncated_pose[k], e.time_s = g->truncated_time[k];
                sw__worst_add(&w, g->truncated_error[k], e);
                if (g->truncated_error[k] > worst) worst = g->truncated_error[k];
            }
            sw__set_worst(f, &w);
            f->mesh = (int64_t)g->mesh, f->primitive = (int64_t)g->prim_index, f->skin = (int64_t)g->skin;
            f->count = g->truncated_count, f->value = worst;
            f->poses = sw__pose_stats_copy(r, g->truncated_poses, s->pose_sets);
            const sw_check_example* e = &f->examples[0];
            sw__message_add(
                f,
                "mesh %zu primitive %zu (skin %zu): %s more than %d influences; keeping the %d largest moves "
                "them by up to %.4g (%.3g %% of the mesh size; worst: vertex %lld",
                g->mesh, g->prim_index, g->skin, sw__vertices_have(g->truncated_count).s, o->max_influences,
                o->max_influences, worst, g->diagonal > 0.0 ? 100.0 * worst / g->diagonal : 0.0, (long long)e->vertex);
            sw__message_pose(f, a, e->animation, e->time_s);
            sw__message_add(f, "; %.4g at the rest pose)", g->truncated_poses[0].value);
        }
        size_t below = 0;
        for (size_t v = 0; v < p->vertex_count; v++) below += g->retention[v] < o->retention_threshold;
        if (below && (f = sw__finding_add(r, SW_CHECK_LBS_VOLUME_LOSS))) {
            /* the worst vertex leads, with its two main joints */
            sw__check_worst w = {0};
            sw_check_example lead = sw__example(g->worst_vertex, g->worst_joint_a, g->worst_retention);
            lead.other_joint = g->worst_joint_b, lead.animation = g->worst_pose, lead.time_s = g->worst_time;
            sw__worst_add(&w, INFINITY, lead);
            for (size_t v = 0; v < p->vertex_count; v++) {
                if (!(g->retention[v] < o->retention_threshold) || (int64_t)v == g->worst_vertex) continue;
                sw_check_example e = sw__example((int64_t)v, -1, g->retention[v]);
                e.animation = g->retention_pose[v], e.time_s = g->retention_time[v];
                sw__worst_add(&w, 1.0 - g->retention[v], e);
            }
            sw__set_worst(f, &w);
            f->mesh = (int64_t)g->mesh, f->primitive = (int64_t)g->prim_index, f->skin = (int64_t)g->skin;
            f->count = below, f->value = g->worst_retention;
            f->poses = sw__pose_stats_copy(r, g->retention_poses, s->pose_sets);
            double pair_w = g->worst_weight_a / (g->worst_weight_a + g->worst_weight_b);
            sw__message_add(
                f,
                "mesh %zu primitive %zu (skin %zu): linear blend skinning keeps less than %.3g of the radius "
                "at %s (worst: vertex %lld, %.4g",
                g->mesh, g->prim_index, g->skin, o->retention_threshold,
                sw__counted(below, "vertex", "vertices", NULL, NULL).s, (long long)g->worst_vertex, g->worst_retention);
            sw__message_pose(f, a, g->worst_pose, g->worst_time);
            sw__message_add(f,
                            ", weights %.3g on %s and %.3g on %s, %.1f degrees apart; the two-joint LBS formula: "
                            "%.4g)",
                            g->worst_weight_a, sw__joint_label(a, g->skin, g->worst_joint_a).s, g->worst_weight_b,
                            sw__joint_label(a, g->skin, g->worst_joint_b).s, g->worst_angle * 180.0 / SW_PI,
                            sw_lbs_retention(pair_w, g->worst_angle));
            sw__message_by_animation(f, a, f->poses, s->pose_sets);
        }
        sw__report_skinned_extent(s, r, g);
    }
}

/* Vertices the skin carries beyond SW_MODEL_MAX_EXTENT in some pose. */
static void sw__report_skinned_extent(const sw__check_state* s, sw__check_builder* r, const sw__check_target* g) {
    if (!g->extent) return;
    size_t count = 0;
    double worst = 0.0;
    sw__check_worst w = {0};
    for (size_t v = 0; v < g->prim->vertex_count; v++) {
        if (!(g->extent[v] > 0.0)) continue;
        count++;
        sw_check_example e = sw__example((int64_t)v, -1, g->extent[v]);
        e.animation = g->extent_pose[v], e.time_s = g->extent_time[v];
        sw__worst_add(&w, g->extent[v], e);
        worst = fmax(worst, g->extent[v]);
    }
    sw_check_finding* f;
    if (!count || !(f = sw__finding_add(r, SW_CHECK_EXTENT_ABSURD))) return;
    const sw_check_example* e = &w.examples[0];
    sw__set_worst(f, &w);
    f->mesh = (int64_t)g->mesh, f->primitive = (int64_t)g->prim_index, f->skin = (int64_t)g->skin;
    f->count = count, f->value = worst;
    sw__message_add(f,
                    "mesh %zu primitive %zu (skin %zu): skinned, %s a coordinate more than %g model units from the "
                    "origin, or not finite (worst: vertex %lld, %.4g",
                    g->mesh, g->prim_index, g->skin, sw__vertices_have(count).s, SW_MODEL_MAX_EXTENT,
                    (long long)e->vertex, e->value);
    sw__message_pose(f, s->a, e->animation, e->time_s);
    sw__message_add(f, "): its joints carry it where no camera can frame it (SW_MODEL_MAX_EXTENT)");
}

/* Unskinned primitives that their node places, at rest, beyond
   SW_MODEL_MAX_EXTENT: the corners of their bounds moved by the node's
   world transform (one box per (node, primitive), never every vertex). */
static void sw__report_placed_extent(const sw__check_state* s, sw__check_builder* r, const sw_mat34* rest_world) {
    const sw_model* a = s->a;
    for (size_t n = 0; n < a->node_count; n++) {
        const sw_model_node* node = &a->nodes[n];
        if (node->mesh < 0) continue;
        const sw_model_mesh* mesh = &a->meshes[node->mesh];
        for (size_t p = 0; p < mesh->primitive_count; p++) {
            const sw_model_primitive* prim = &mesh->primitives[p];
            if ((node->skin >= 0 && prim->influence_count > 0) || !prim->vertex_count ||
                s->stored_absurd[s->prim_first[node->mesh] + p])
                continue;
            double m = 0.0;
            for (int corner = 0; corner < 8; corner++) {
                double c[3], q[3];
                for (int k = 0; k < 3; k++) c[k] = corner & (1 << k) ? prim->bounds_max[k] : prim->bounds_min[k];
                sw__apply34(&rest_world[n], c, q);
                m = fmax(m, fmax(sw__extent_of(q[0]), fmax(sw__extent_of(q[1]), sw__extent_of(q[2]))));
            }
            sw_check_finding* f;
            if (!sw__beyond_extent(m) || !(f = sw__finding_add(r, SW_CHECK_EXTENT_ABSURD))) continue;
            f->mesh = node->mesh, f->primitive = (int64_t)p, f->node = node->source_index;
            f->count = prim->vertex_count, f->value = m;
            sw__message_add(f,
                            "node %u places mesh %d primitive %zu at rest up to %.4g from the origin on an axis (its "
                            "bounds' corners), more than %g model units, or not finite: no camera can frame it "
                            "(SW_MODEL_MAX_EXTENT)",
                            node->source_index, node->mesh, p, m, SW_MODEL_MAX_EXTENT);
        }
    }
}

/* How far skin matrix `m` moves the corners of a box, relative to `ref`,
   as a fraction of the box's diagonal. */
static double sw__box_deviation(const sw_mat34* m, const sw_mat34* ref, const double lo[3], const double hi[3],
                                double diagonal) {
    double moved = 0.0;
    for (int corner = 0; corner < 8; corner++) {
        double c[3] = {corner & 1 ? hi[0] : lo[0], corner & 2 ? hi[1] : lo[1], corner & 4 ? hi[2] : lo[2]}, q[3], e[3];
        sw__apply34(m, c, q);
        sw__apply34(ref, c, e);
        moved = fmax(moved, sqrt((q[0] - e[0]) * (q[0] - e[0]) + (q[1] - e[1]) * (q[1] - e[1]) +
                                 (q[2] - e[2]) * (q[2] - e[2])));
    }
    return moved / diagonal;
}

/* The box the skin matrices are compared on: its corners (in
   sw__box_deviation's order) and its diagonal. */
typedef struct sw__check_box {
    double lo[3], hi[3], diagonal;
    double corners[8][3];
} sw__check_box;

/* Whether skin matrix `m` agrees with `ref` (NaN corners count as agreeing, as they always have). */
static bool sw__agrees(const sw_mat34* m, const sw_mat34* ref, const sw__check_box* b) {
    return !(sw__box_deviation(m, ref, b->lo, b->hi, b->diagonal) > SW__CHECK_IBM_TOLERANCE);
}

/* sw__agrees(m, ref, b) with ref's corners (`moved`, sw__apply34 of b's corners) given: the same sums, half the work.
 */
static bool sw__agrees_moved(const sw_mat34* m, const double moved[8][3], const sw__check_box* b) {
    double farthest = 0.0;
    for (int corner = 0; corner < 8; corner++) {
        double q[3];
        const double* e = moved[corner];
        sw__apply34(m, b->corners[corner], q);
        farthest = fmax(farthest, sqrt((q[0] - e[0]) * (q[0] - e[0]) + (q[1] - e[1]) * (q[1] - e[1]) +
                                       (q[2] - e[2]) * (q[2] - e[2])));
    }
    return !(farthest / b->diagonal > SW__CHECK_IBM_TOLERANCE);
}

/* A sort key and the joint it belongs to. */
typedef struct sw__check_keyed {
    double key;
    size_t index;
} sw__check_keyed;

static int sw__compare_keyed(const void* x, const void* y) {
    const sw__check_keyed *a = x, *b = y;
    if (a->key != b->key) return a->key < b->key ? -1 : 1;
    return (a->index > b->index) - (a->index < b->index);
}

/* A candidate joint and the most joints that can agree with it. */
typedef struct sw__check_candidate {
    size_t bound, joint;
} sw__check_candidate;

static int sw__compare_candidates(const void* x, const void* y) {
    const sw__check_candidate *a = x, *b = y;
    if (a->bound != b->bound) return a->bound > b->bound ? -1 : 1; /* the most promising first */
    return (a->joint > b->joint) - (a->joint < b->joint);
}

/* The corners whose x, y and z are the search's axes: every other corner
   of the box, so no rotation about the box's centre leaves all four still. */
static const int sw__check_axis_corners[SW__CHECK_AXES / 3] = {0, 3, 5, 6};

/* Of the joints' own rest skin matrices as the reference, the one the most
   joints agree with, when it beats the reference so far (candidate *best
   with *best_good joints agreeing; candidates are 0 the identity, 1 the
   skinned node, 2 + j joint j, and ties go to the lower). Trying every
   joint against every other is quadratic; instead each joint's box
   corners are projected on SW__CHECK_AXES axes and sorted. Joints that
   agree with a candidate are within the tolerance of it on every axis, so
   they lie in a window of each sorted axis: the narrowest window bounds
   the candidate's count, the candidates are tried most promising first
   (stopping when the bound cannot beat the best), and each is counted
   only over its window (and the joints with a corner that is not finite,
   which no window holds). Exact; the comparisons stop after `budget`,
   which only a file made for it reaches (thousands of joints, each just
   beyond the tolerance of the others): *exhausted says so. False when out
   of memory. */
static bool sw__search_reference(const sw_mat34* rest, size_t n, const sw__check_box* b, size_t budget, size_t* best,
                                 size_t* best_good, bool* exhausted) {
    *exhausted = false;
    if (*best_good >= n) return true;
    const double(*corners)[3] = b->corners;
    bool* wild = sw__calloc_array(n, sizeof *wild);
    size_t* wild_list = sw__alloc_array(n, sizeof *wild_list);
    size_t* bound = sw__alloc_array(n, sizeof *bound);
    size_t* start = sw__alloc_array(n, sizeof *start);
    unsigned char* axis = sw__alloc_array(n, sizeof *axis);
    sw__check_keyed* keyed = sw__alloc_array(n, sizeof *keyed);
    sw__check_candidate* order = sw__alloc_array(n, sizeof *order);
    size_t* sorted = NULL; /* per axis, the tame joints in key order */
    size_t wild_count = 0, tame = 0, sorted_size;
    bool ok = wild && wild_list && bound && start && axis && keyed && order;
    /* wild: a corner that is not finite; magnitude: of sw__apply34's terms, for its rounding */
    double magnitude = 0.0;
    for (size_t j = 0; ok && j < n; j++) {
        for (int corner = 0; corner < 8 && !wild[j]; corner++) {
            double q[3];
            sw__apply34(&rest[j], corners[corner], q);
            wild[j] = !isfinite(q[0]) || !isfinite(q[1]) || !isfinite(q[2]);
            for (int row = 0; row < 3; row++) {
                const float* m = rest[j].m[row];
                const double* p = corners[corner];
                magnitude = fmax(magnitude, fabs(m[0] * p[0]) + fabs(m[1] * p[1]) + fabs(m[2] * p[2]) + fabs(m[3]));
            }
        }
        if (wild[j]) wild_list[wild_count++] = j;
    }
    tame = n - wild_count;
    ok = ok && sw_mul_size(tame ? tame : 1, SW__CHECK_AXES, &sorted_size) &&
         (sorted = sw__alloc_array(sorted_size, sizeof *sorted));
    if (!ok) goto done;
    /* |Δx| > w on one axis ⇒ the deviation exceeds the tolerance, whatever
       the rounding of its squares, root and division; tiny w would square
       below the normal range, where that stops holding */
    double w = SW__CHECK_IBM_TOLERANCE * b->diagonal * (1.0 + 1e-9) + 64.0 * DBL_EPSILON * magnitude;
    if (!(w >= 1e-150)) w = isnan(w) ? INFINITY : 1e-150;
    for (size_t j = 0; j < n; j++) bound[j] = wild[j] ? n : SIZE_MAX;
    for (int x = 0; x < SW__CHECK_AXES; x++) {
        const double* p = corners[sw__check_axis_corners[x / 3]];
        size_t m = 0;
        for (size_t j = 0; j < n; j++) {
            if (wild[j]) continue;
            double q[3];
            sw__apply34(&rest[j], p, q);
            keyed[m++] = (sw__check_keyed){.key = q[x % 3], .index = j};
        }
        qsort(keyed, m, sizeof *keyed, sw__compare_keyed);
        size_t* column = sorted + (size_t)x * tame;
        for (size_t i = 0, left = 0, right = 0; i < m; i++) {
            while (keyed[left].key - keyed[i].key < -w) left++;
            if (right < i) right = i;
            while (right + 1 < m && !(keyed[right + 1].key - keyed[i].key > w)) right++;
            size_t j = keyed[i].index, count = right - left + 1;
            if (count < bound[j]) bound[j] = count, start[j] = left, axis[j] = (unsigned char)x;
            column[i] = j;
        }
    }
    for (size_t j = 0; j < n; j++) {
        if (!wild[j]) bound[j] += wild_count;
        order[j] = (sw__check_candidate){.bound = bound[j], .joint = j};
    }
    qsort(order, n, sizeof *order, sw__compare_candidates);
    size_t spent = 0;
    for (size_t i = 0; i < n && *best_good < n && !*exhausted; i++) {
        size_t j = order[i].joint, candidate = j + 2;
        if (order[i].bound < *best_good) break; /* nor can any after it */
        if (order[i].bound == *best_good && candidate > *best) continue;
        size_t need = candidate < *best ? *best_good : *best_good + 1;
        /* the window on its narrowest axis, then the wild joints; all of them when it is wild */
        const size_t* window = wild[j] ? NULL : sorted + (size_t)axis[j] * tame + start[j];
        size_t in_window = wild[j] ? n : bound[j] - wild_count, total = bound[j], good = 0;
        double moved[8][3];
        for (int corner = 0; corner < 8; corner++) sw__apply34(&rest[j], corners[corner], moved[corner]);
        for (size_t t = 0; t < total && good + (total - t) >= need; t++) {
            if (spent == budget) {
                *exhausted = true;
                break;
            }
            spent++;
            /* the window's ends first: far on its axis, they are the likeliest to disagree */
            size_t at = t % 2 ? in_window - 1 - t / 2 : t / 2;
            size_t other = t < in_window ? (window ? window[at] : at) : wild_list[t - in_window];
            good += sw__agrees_moved(&rest[other], moved, b);
        }
        if (!*exhausted && good >= need) *best = candidate, *best_good = good;
    }
done:
    sw__free(wild), sw__free(wild_list), sw__free(bound), sw__free(start), sw__free(axis), sw__free(keyed), sw__free(order), sw__free(sorted);
    return ok;
}

/* Inverse bind matrices against the rest pose. When the rest pose is the
   bind pose every skin matrix Wᵢ·IBMᵢ is the same at the rest pose: the
   identity when the IBMs invert the joints' world transforms, the skinned
   node's world transform when they invert the joints' transforms relative
   to that node (exporters write both), or some other transform shared by
   every joint (the skinned mesh is then placed by it: a note). Joints that
   disagree with the reference (of these, the one most joints match; the
   identity, then the node's transform, on ties) deform the mesh before any
   animation plays: a warning. */
static void sw__report_bind_pose(const sw__check_state* s, sw__check_builder* r, size_t k, const sw_mat34* rest,
                                 const sw_mat34* rest_world) {
    const sw_model* a = s->a;
    const sw_model_skin* skin = &a->skins[k];
    const sw__check_skin_state* ks = &s->skins[k];
    size_t n = skin->joint_count;
    sw__check_box b = {.diagonal = 0.0};
    for (int c = 0; c < 3; c++) {
        b.lo[c] = ks->has_bounds ? ks->bounds_min[c] : -0.5;
        b.hi[c] = ks->has_bounds ? ks->bounds_max[c] : 0.5;
        b.diagonal += (b.hi[c] - b.lo[c]) * (b.hi[c] - b.lo[c]);
    }
    b.diagonal = sqrt(b.diagonal);
    if (!(b.diagonal > 0.0)) b.diagonal = 1.0;
    for (int corner = 0; corner < 8; corner++)
        for (int c = 0; c < 3; c++) b.corners[corner][c] = corner & (1 << c) ? b.hi[c] : b.lo[c];
    sw_mat34 identity = sw_mat34_identity(), node_world = identity;
    int64_t node_file = -1;
    if (s->skin_node[k] >= 0) {
        node_world = rest_world[s->skin_node[k]];
        node_file = a->nodes[s->skin_node[k]].source_index;
    }
    /* candidates: identity, node, then each joint's own matrix */
    size_t best = 0, best_good = 0, node_good = 0;
    for (size_t j = 0; j < n; j++) best_good += sw__agrees(&rest[j], &identity, &b);
    if (best_good < n) {
        for (size_t j = 0; j < n; j++) node_good += sw__agrees(&rest[j], &node_world, &b);
        if (node_good > best_good) best = 1, best_good = node_good;
    }
    size_t budget = n > SW__CHECK_SEARCH_MIN / SW__CHECK_SEARCH_PER_JOINT ? n * SW__CHECK_SEARCH_PER_JOINT
                                                                          : SW__CHECK_SEARCH_MIN;
    bool exhausted = false;
    if (!sw__search_reference(rest, n, &b, budget, &best, &best_good, &exhausted)) {
        r->out_of_memory = true;
        return;
    }
    size_t best_bad = n - best_good;
    const sw_mat34* ref = best == 0 ? &identity : best == 1 ? &node_world : &rest[best - 2];
    sw__check_worst w = {0};
    double worst = 0.0;
    for (size_t j = 0; j < n; j++) {
        double d = sw__box_deviation(&rest[j], ref, b.lo, b.hi, b.diagonal);
        if (!(d > SW__CHECK_IBM_TOLERANCE)) continue;
        sw__worst_add(&w, d, sw__example(-1, (int64_t)j, d));
        worst = fmax(worst, d);
    }
    sw_check_finding* f;
    if (best_bad == 0 && best >= 2) {
        /* every joint agrees on a transform that is neither: where the mesh goes at rest */
        if (!(f = sw__finding_add(r, SW_CHECK_BIND_POSE_OFFSET))) return;
        double moved = sw__box_deviation(ref, &identity, b.lo, b.hi, b.diagonal);
        double from_node = sw__box_deviation(ref, &node_world, b.lo, b.hi, b.diagonal);
        f->skin = (int64_t)k, f->node = node_file, f->count = n, f->value = fmin(moved, from_node);
        sw__message_add(
            f,
            "%s: at the rest pose every joint's skin matrix is one transform that is neither the identity nor "
            "the skinned node's: the mesh is drawn moved as a whole by %.3g of its size from its bind-space "
            "positions (%.3g from where its node would put it)",
            sw__skin_label(a, k).s, moved, from_node);
        return;
    }
    if (!best_bad || !(f = sw__finding_add(r, SW_CHECK_IBM_NOT_REST_POSE))) return;
    sw__set_worst(f, &w);
    f->skin = (int64_t)k, f->node = node_file, f->count = best_bad, f->value = worst, f->joint = w.examples[0].joint;
    sw__message_add(
        f,
        "%s: the inverse bind matrices of %zu of %zu joints are not the inverse of their rest-pose world "
        "transform (worst: %s moves the mesh by %.3g of its size, against %s); the rest pose is not the bind "
        "pose, so the mesh is deformed before any animation plays",
        sw__skin_label(a, k).s, best_bad, n, sw__joint_label(a, k, f->joint).s, worst,
        best == 0   ? "the identity"
        : best == 1 ? "the skinned node's world transform"
                    : "the transform the other joints share");
    if (exhausted)
        sw__message_add(f, " (the transform most joints share was looked for with %zu comparisons, and may be missed)",
                        budget);
}

/* Skin joints naming a node listed before them. `seen` and `seen_at` hold
   node_count entries, `seen` never k + 1 for a node before the call. */
static void sw__report_skin_duplicates(sw__check_state* s, sw__check_builder* r, size_t k, size_t* seen,
                                       size_t* seen_at) {
    const sw_model* a = s->a;
    const sw_model_skin* skin = &a->skins[k];
    size_t repeated = 0;
    sw__check_worst w = {0};
    for (size_t j = 0; j < skin->joint_count; j++) {
        uint32_t node = skin->joints[j];
        if (seen[node] != k + 1) {
            seen[node] = k + 1, seen_at[node] = j;
            continue;
        }
        repeated++;
        sw__worst_add(&w, 0.0, sw__example(-1, (int64_t)j, (double)seen_at[node]));
    }
    sw_check_finding* f;
    if (!repeated || !(f = sw__finding_add(r, SW_CHECK_SKIN_JOINT_DUPLICATE))) return;
    const sw_check_example* e = &w.examples[0];
    sw__set_worst(f, &w);
    f->skin = (int64_t)k, f->joint = e->joint, f->count = repeated;
    f->node = a->nodes[skin->joints[e->joint]].source_index;
    sw__message_add(f, "%s: %s a node already listed, which glTF forbids (first: %s is node %lld, as is joint %lld)",
                    sw__skin_label(a, k).s, sw__counted(repeated, "joint repeats", "joints repeat", NULL, NULL).s,
                    sw__joint_label(a, k, e->joint).s, (long long)f->node, (long long)e->value);
}

/* Joints outside the default scene of a skin whose mesh is in it. */
static void sw__report_outside_scene(sw__check_state* s, sw__check_builder* r, size_t k) {
    const sw_model* a = s->a;
    const sw_model_skin* skin = &a->skins[k];
    if (!s->in_scene || s->skin_scene_node[k] < 0) return;
    size_t outside = 0;
    sw__check_worst w = {0};
    for (size_t j = 0; j < skin->joint_count; j++)
        if (!s->in_scene[skin->joints[j]]) outside++, sw__worst_add(&w, 0.0, sw__example(-1, (int64_t)j, (double)j));
    sw_check_finding* f;
    if (!outside || !(f = sw__finding_add(r, SW_CHECK_JOINT_OUTSIDE_SCENE))) return;
    sw__set_worst(f, &w);
    f->skin = (int64_t)k, f->joint = w.examples[0].joint, f->count = outside;
    f->node = a->nodes[s->skin_scene_node[k]].source_index;
    sw__message_add(
        f,
        "%s: %zu of %zu joints are not in the default scene (scene %d), though node %lld, whose mesh it "
        "skins, is (first: %s); an engine that instantiates the scene leaves them out, and the mesh follows "
        "joints nothing animates",
        sw__skin_label(a, k).s, outside, skin->joint_count, a->default_scene, (long long)f->node,
        sw__joint_label(a, k, f->joint).s);
}

/* Per skin: repeated joints, then (for a skin a node uses) joints outside
   the scene, IBMs against the rest pose, unused joints, non-uniform scale;
   else skin_unused. */
static void sw__report_skins(sw__check_state* s, sw__check_builder* r, const sw_mat34* rest_world) {
    const sw_model* a = s->a;
    size_t* seen = sw__calloc_array(a->node_count, sizeof *seen);
    size_t* seen_at = sw__alloc_array(a->node_count, sizeof *seen_at);
    if (!seen || !seen_at) {
        sw__free(seen), sw__free(seen_at);
        r->out_of_memory = true;
        return;
    }
    for (size_t k = 0; k < a->skin_count; k++) {
        const sw_model_skin* skin = &a->skins[k];
        sw__check_skin_state* ks = &s->skins[k];
        sw_check_finding* f;
        sw__report_skin_duplicates(s, r, k, seen, seen_at);
        if (!ks->used_by_node) {
            if ((f = sw__finding_add(r, SW_CHECK_SKIN_UNUSED))) {
                f->skin = (int64_t)k, f->count = skin->joint_count;
                sw__message_add(f, "%s: no node uses it", sw__skin_label(a, k).s);
            }
            continue;
        }
        sw__report_outside_scene(s, r, k);
        sw_mat34* rest = sw__alloc_array(skin->joint_count, sizeof *rest);
        if (!rest) {
            r->out_of_memory = true;
            break;
        }
        for (size_t j = 0; j < skin->joint_count; j++)
            rest[j] = sw_mat34_mul(&rest_world[skin->joints[j]], &skin->inverse_bind[j]);
        sw__report_bind_pose(s, r, k, rest, rest_world);
        sw__free(rest);
        size_t unused = 0;
        sw__check_worst w_unused = {0};
        for (size_t j = 0; j < skin->joint_count; j++)
            if (!ks->joint_used[j]) unused++, sw__worst_add(&w_unused, 0.0, sw__example(-1, (int64_t)j, (double)j));
        if (unused && (f = sw__finding_add(r, SW_CHECK_JOINT_UNUSED))) {
            f->skin = (int64_t)k, f->count = unused;
            sw__set_worst(f, &w_unused);
            sw__message_add(f, "%s: joints that weight no vertex: %zu of %zu (", sw__skin_label(a, k).s, unused,
                            skin->joint_count);
            for (size_t e = 0; e < w_unused.count; e++)
                sw__message_add(f, "%s%s", e ? ", " : "", sw__joint_label(a, k, w_unused.examples[e].joint).s);
            sw__message_add(f, "%s)", unused > w_unused.count ? ", ..." : "");
        }
        size_t scaled = 0;
        sw__check_worst w_scale = {0};
        for (size_t j = 0; j < skin->joint_count; j++) {
            if (!(ks->scale_ratio[j] - 1.0 > SW__CHECK_SCALE_TOLERANCE)) continue;
            scaled++;
            sw_check_example e = sw__example(-1, (int64_t)j, ks->scale_ratio[j]);
            e.animation = ks->scale_pose[j], e.time_s = ks->scale_time[j];
            sw__worst_add(&w_scale, ks->scale_ratio[j], e);
        }
        if (scaled && (f = sw__finding_add(r, SW_CHECK_NON_UNIFORM_SCALE))) {
            const sw_check_example* e = &w_scale.examples[0];
            sw__set_worst(f, &w_scale);
            f->skin = (int64_t)k, f->joint = e->joint, f->count = scaled, f->value = e->value;
            f->poses = sw__pose_stats_copy(r, ks->scale_poses, s->pose_sets);
            sw__message_add(f, "%s: %s non-uniformly (worst: %s, largest/smallest scale %.4g", sw__skin_label(a, k).s,
                            sw__counted(scaled, "joint", "joints", "scales", "scale").s,
                            sw__joint_label(a, k, e->joint).s, e->value);
            sw__message_pose(f, a, e->animation, e->time_s);
            sw__message_add(
                f,
                "); normals need the inverse transpose (SW_NORMALS_COFACTOR), the blended 3x3 of UE, Unity and "
                "Godot bends them");
            sw__message_by_animation(f, a, f->poses, s->pose_sets);
        }
    }
    sw__free(seen), sw__free(seen_at);
}

/* Primitives with influences that no node skins. */
static void sw__report_unskinned(const sw__check_state* s, sw__check_builder* r) {
    const sw_model* a = s->a;
    for (size_t m = 0; m < a->mesh_count; m++) {
        if (s->mesh_skinned[m]) continue;
        for (size_t p = 0; p < a->meshes[m].primitive_count; p++) {
            sw_check_finding* f;
            if (!a->meshes[m].primitives[p].influence_count) continue;
            if (!(f = sw__finding_add(r, SW_CHECK_INFLUENCES_UNUSED))) return;
            f->mesh = (int64_t)m, f->primitive = (int64_t)p, f->count = a->meshes[m].primitives[p].vertex_count;
            sw__message_add(f, "mesh %zu primitive %zu: has JOINTS/WEIGHTS, but no node gives its mesh a skin", m, p);
        }
    }
}

/* Images that are missing or cannot be decoded, with the decoder's reason. */
static void sw__report_images(sw__check_builder* r, const sw_model* a) {
    if (r->disabled & SW_CHECK_BIT(SW_CHECK_IMAGE_UNREADABLE)) return;
    for (size_t i = 0; i < a->image_count; i++) {
        const sw_model_image* im = &a->images[i];
        uint8_t* pixels = NULL;
        int width, height;
        sw_diag d;
        sw_result res = sw_model_decode_image(a, i, &pixels, &width, &height, &d);
        sw_model_image_free(pixels);
        /* out of memory included: an image too large to read is unreadable too */
        if (res == SW_OK) continue;
        sw_check_finding* f = sw__finding_add(r, SW_CHECK_IMAGE_UNREADABLE);
        if (!f) return;
        f->image = (int64_t)i;
        /* the decoder's message names the image as "images[i]" (and the uri): said once, here */
        char prefix[48];
        const char* reason = d.message;
        int n = snprintf(prefix, sizeof prefix, "images[%zu]", i);
        if (n > 0 && strncmp(reason, prefix, (size_t)n) == 0) {
            if (strncmp(reason + n, ": ", 2) == 0) reason += n + 2;
            else if (strncmp(reason + n, ".uri: ", 6) == 0) reason += n + 6;
        }
        if (im->uri && strncmp(im->uri, "data:", 5) != 0) {
            size_t uri_length = strlen(im->uri);
            if (reason[0] == '\'' && uri_length <= 96 && strncmp(reason + 1, im->uri, uri_length) == 0 &&
                strncmp(reason + 1 + uri_length, "': ", 3) == 0)
                reason += uri_length + 4;
            sw__message_add(f, "image %zu \"%.200s\": %s", i, im->uri, reason);
        } else {
            sw__message_add(f, "image %zu (%s): %s", i, im->uri ? "a data: URI" : "embedded in the file", reason);
        }
        sw__message_add(f, "; materials that use it are drawn without it");
    }
}

/* ---- the report ---------------------------------------------------------------------------- */

static sw_result sw__resolve_options(const sw_check_options* in, sw_check_options* out, sw_diag* diag) {
    sw_check_options o = in ? *in : (sw_check_options){0};
    if (o.max_influences == 0) o.max_influences = 4;
    if (o.retention_threshold == 0.0) o.retention_threshold = 0.7;
    if (o.sample_rate_hz == 0.0) o.sample_rate_hz = 30.0;
    if (o.max_samples == 0) o.max_samples = 2000;
    *out = o;
    if (o.max_influences < 1 || o.max_influences > SW_CHECK_MAX_INFLUENCES)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "check: max_influences %d is outside 1..%d",
                           o.max_influences, SW_CHECK_MAX_INFLUENCES);
    if (!(o.retention_threshold > 0.0 && o.retention_threshold <= 1.0))
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "check: retention_threshold %g is outside (0, 1]",
                           o.retention_threshold);
    if (!(o.sample_rate_hz > 0.0 && o.sample_rate_hz <= SW__CHECK_MAX_SAMPLE_RATE))
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "check: sample_rate_hz %g is outside (0, %g]",
                           o.sample_rate_hz, SW__CHECK_MAX_SAMPLE_RATE);
    if (o.max_samples < 2 || o.max_samples > SW__CHECK_MAX_SAMPLES_LIMIT)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "check: max_samples %zu is outside 2..%zu",
                           o.max_samples, SW__CHECK_MAX_SAMPLES_LIMIT);
    return SW_OK;
}

/* Hands the findings over to a new report (the builder is left empty).
   NULL when out of memory. */
static sw_check_report* sw__report_make(sw__check_builder* r, const sw_model* a, const sw_check_options* o) {
    sw_check_report* report = sw__calloc(1, sizeof *report);
    size_t animations = a ? a->animation_count : 0;
    char** names = sw__calloc_array(animations, sizeof *names);
    if (!report || !names) {
        sw__free(report), sw__free(names);
        return NULL;
    }
    for (size_t i = 0; i < animations; i++) {
        const char* name = a->animations[i].name;
        if (!name) continue;
        size_t size = strlen(name) + 1;
        if (!(names[i] = sw__malloc(size))) {
            for (size_t k = 0; k < i; k++) sw__free(names[k]);
            sw__free(names), sw__free(report);
            return NULL;
        }
        memcpy(names[i], name, size);
    }
    for (size_t i = 0; i < r->count; i++) {
        sw_check_finding* f = &r->items[i];
        /* one line, whatever the names in the file hold */
        for (char* c = f->message; *c; c++)
            if (*c == '\n' || *c == '\r' || *c == '\v' || *c == '\f') *c = ' ';
        for (size_t e = 0; e < f->example_count; e++)
            if (isnan(f->examples[e].time_s)) f->examples[e].animation = -1;
    }
    report->finding_count = r->count;
    report->findings = r->items;
    report->error_count = r->by_severity[SW_CHECK_ERROR];
    report->warning_count = r->by_severity[SW_CHECK_WARNING];
    report->note_count = r->by_severity[SW_CHECK_NOTE];
    report->animation_count = animations;
    report->animation_names = (const char* const*)names;
    report->options = *o;
    *r = (sw__check_builder){0};
    return report;
}

void sw_check_report_free(sw_check_report* report) {
    if (!report) return;
    for (size_t i = 0; i < report->finding_count; i++) sw__free((void*)report->findings[i].poses);
    sw__free((void*)report->findings);
    for (size_t i = 0; i < report->animation_count; i++) sw__free((void*)report->animation_names[i]);
    sw__free((void*)report->animation_names);
    sw__free(report);
}

/* Everything about a model, into `r`. False (with `diag`) when out of
   memory or a clip cannot be sampled. */
/* A VRM avatar's humanoid (sinew/vrm.h): the bones VRM 1.0 requires, or
   why the extension cannot be read. No VRM extension: nothing. */
static void sw__check_vrm(sw__check_builder* r, const sw_model* a) {
    sw_vrm* v = NULL;
    sw_diag diag;
    sw_result read = sw_vrm_read(a, &v, &diag);
    if (read == SW_ERR_OUT_OF_MEMORY) {
        r->out_of_memory = true; /* the check's failure, not a finding about the file */
        return;
    }
    if (read != SW_OK) {
        sw_check_finding* f = sw__finding_add(r, SW_CHECK_VRM_INVALID);
        if (f) sw__message_add(f, "%s", sw__without_name(diag.message, a->path));
        return;
    }
    if (v && v->humanoid_required_missing) {
        sw_check_finding* f = sw__finding_add(r, SW_CHECK_HUMANOID_BONE_MISSING);
        if (f) {
            f->count = v->humanoid_required_missing;
            char names[200] = "";
            size_t used = 0;
            for (int b = 0; b < SW_HUMANOID_BONE_COUNT && used < sizeof names; b++)
                if (v->humanoid.node[b] < 0 && sw_humanoid_bone_required((sw_humanoid_bone)b))
                    used += (size_t)snprintf(names + used, sizeof names - used, " %s",
                                             sw_humanoid_bone_name((sw_humanoid_bone)b));
            sw__message_add(f, "humanoid: %u required bones missing:%s", (unsigned)v->humanoid_required_missing, names);
        }
    }
    sw_vrm_free(v);
}

static bool sw__check_model(sw__check_builder* r, const sw_model* a, const sw_check_options* o, sw_diag* diag) {
    if (!sw__check_structure(r, a)) {
        if (r->out_of_memory) sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory");
        return !r->out_of_memory;
    }
    for (size_t i = 0; i < a->warning_count; i++) {
        sw_check_finding* f = sw__finding_add(r, SW_CHECK_IMPORT);
        if (f) sw__message_add(f, "%s", sw__without_name(a->warnings[i], a->path));
    }
    if (a->import_dropped_vertices) {
        sw_check_finding* f = sw__finding_add(r, SW_CHECK_INFLUENCES_DROPPED);
        if (f) {
            f->count = a->import_dropped_vertices;
            f->value = a->import_dropped_weight;
            sw__message_add(f,
                            "%zu vertices had more bone weights than the importer keeps (up to %.3g of a vertex's "
                            "weight dropped before renormalising)",
                            a->import_dropped_vertices, (double)a->import_dropped_weight);
        }
    }
    if (a->import_collapsed_nodes) {
        sw_check_finding* f = sw__finding_add(r, SW_CHECK_HELPER_NODES_COLLAPSED);
        if (f) {
            f->count = a->import_collapsed_nodes;
            sw__message_add(f,
                            "%zu FBX pivot helper nodes folded into the joints they lead to (their transforms and "
                            "keys composed into the joints')",
                            a->import_collapsed_nodes);
        }
    }
    sw__check_vrm(r, a);
    sw__check_state s = {.a = a, .options = o};
    bool ok = sw__prepare_maps(&s);
    for (size_t m = 0; ok && m < a->mesh_count; m++)
        for (size_t p = 0; p < a->meshes[m].primitive_count; p++) {
            sw__check_raw_influences(r, a, m, p);
            s.stored_absurd[s.prim_first[m] + p] = sw__check_stored_extent(r, a, m, p);
        }
    ok = (ok && sw__prepare(&s, r)) || (sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory"), false);
    if (ok) ok = sw__run_poses(&s, diag);
    if (ok) {
        /* the rest pose's world matrices, for the IBM check */
        sw_pose_rest(a, &s.pose);
        sw_pose_update(a, &s.pose);
        sw__report_targets(&s, r);
        sw__report_placed_extent(&s, r, s.pose.world);
        sw__report_skins(&s, r, s.pose.world);
        sw__report_unskinned(&s, r);
        sw__report_images(r, a);
    }
    sw__state_free(&s);
    return ok;
}

sw_result sw_check_model(const sw_model* model, const sw_check_options* options, sw_check_report** out_report,
                         sw_diag* diag) {
    if (out_report) *out_report = NULL;
    if (!model || !out_report)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "sw_check_model: a model and out_report are needed");
    sw_check_options o;
    sw_result res = sw__resolve_options(options, &o, diag);
    if (res != SW_OK) return res;
    sw__check_builder r = {.disabled = o.disabled};
    sw_diag inner = {0};
    if (!sw__check_model(&r, model, &o, &inner)) {
        sw__builder_free(&r);
        if (inner.result == SW_OK) sw_diag_set(&inner, SW_ERR_OUT_OF_MEMORY, -1, "out of memory");
        if (diag) *diag = inner;
        return inner.result;
    }
    if (r.out_of_memory || !(*out_report = sw__report_make(&r, model, &o))) {
        sw__builder_free(&r);
        return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory");
    }
    return SW_OK;
}

sw_result sw_check_file(const char* path, const sw_import_options* load_options, const sw_check_options* options,
                        sw_check_report** out_report, sw_diag* diag) {
    if (out_report) *out_report = NULL;
    if (!path || !out_report)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "sw_check_file: a path and out_report are needed");
    sw_check_options o;
    sw_result res = sw__resolve_options(options, &o, diag);
    if (res != SW_OK) return res;
    sw_import_options io = load_options ? *load_options : (sw_import_options){0};
    io.gltf.keep_raw_influences = io.assimp.keep_raw_influences = io.iqm.keep_raw_influences = true;
    sw_model* model = NULL;
    sw_diag load_diag;
    if (sw_import_file(path, &io, &model, &load_diag) == SW_OK) {
        res = sw_check_model(model, &o, out_report, diag);
        sw_model_free(model);
        return res;
    }
    /* a file the importer refuses is the check's first finding, not its failure */
    sw__check_builder r = {.disabled = o.disabled & ~SW_CHECK_BIT(SW_CHECK_LOAD)};
    sw_check_finding* f = sw__finding_add(&r, SW_CHECK_LOAD);
    if (f) sw__message_add(f, "%s", sw__without_name(load_diag.message, path));
    if (r.out_of_memory || !(*out_report = sw__report_make(&r, NULL, &o))) {
        sw__builder_free(&r);
        return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory");
    }
    return SW_OK;
}
