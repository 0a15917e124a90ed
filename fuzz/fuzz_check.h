/* What every loaded glTF asset must satisfy, checked after a successful
   load by the fuzz targets and the truncation tests.

   fuzz_check_asset() walks everything the asset points to (so ASan sees
   any array shorter than its count says), checks the promises of
   sinew/gltf.h (indices in range, parents before children, weights that
   sum to 1, finite decoded values, key times strictly increasing …), then
   evaluates the scene: rest pose, a few clip samples, world matrices and
   the deformation of every (node, primitive) instance with LBS and DQS.
   A broken promise prints what broke and aborts, which libFuzzer and ctest
   both report as a failure. Header-only: each user includes it once. */
#ifndef SINEW_FUZZ_CHECK_H
#define SINEW_FUZZ_CHECK_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sinew/gltf.h"
#include "sinew/pose.h"

#define FUZZ_REQUIRE(cond)                                                                        \
    do {                                                                                          \
        if (!(cond)) {                                                                            \
            fprintf(stderr, "%s:%d: asset invariant broken: %s\n", __FILE__, __LINE__, #cond);    \
            abort();                                                                              \
        }                                                                                         \
    } while (0)

/* Sums every float so that each is read (and any NaN/inf is noticed). */
static inline bool fuzz_all_finite(const float* v, size_t count) {
    float acc = 0.0f;
    bool finite = true;
    for (size_t i = 0; i < count; i++) {
        finite = finite && isfinite(v[i]);
        acc += v[i] * 0.0f;
    }
    return finite && acc == 0.0f;
}

static inline void fuzz_check_string(const char* s) {
    if (s) FUZZ_REQUIRE(strlen(s) < ((size_t)1 << 40));
}

static inline void fuzz_check_texture_ref(const sw_model* a, const sw_model_texture_ref* t) {
    FUZZ_REQUIRE(t->texture >= -1 && t->texture < (int64_t)a->texture_count);
    FUZZ_REQUIRE(t->texcoord >= 0);
}

static inline void fuzz_check_primitive(const sw_model* a, const sw_model_mesh* mesh, const sw_model_primitive* p) {
    size_t n = p->vertex_count;
    FUZZ_REQUIRE(n >= 1 && p->positions);
    FUZZ_REQUIRE((unsigned)p->mode <= SW_MODEL_TRIANGLE_FAN);
    FUZZ_REQUIRE(p->material >= -1 && p->material < (int64_t)a->material_count);
    FUZZ_REQUIRE(fuzz_all_finite(p->positions, n * 3));
    for (int c = 0; c < 3; c++) FUZZ_REQUIRE(p->bounds_min[c] <= p->bounds_max[c]);
    if (p->normals) FUZZ_REQUIRE(fuzz_all_finite(p->normals, n * 3));
    if (p->tangents) FUZZ_REQUIRE(fuzz_all_finite(p->tangents, n * 4));
    FUZZ_REQUIRE(p->texcoord_count >= 0 && p->texcoord_count <= SW_MODEL_MAX_TEXCOORDS);
    for (int s = 0; s < p->texcoord_count; s++) FUZZ_REQUIRE(p->texcoords[s] && fuzz_all_finite(p->texcoords[s], n * 2));
    if (p->colors) FUZZ_REQUIRE(fuzz_all_finite(p->colors, n * 4));
    FUZZ_REQUIRE(p->influence_count == 0 || p->influence_count == 4 || p->influence_count == 8);
    if (p->influence_count) {
        FUZZ_REQUIRE(p->joints && p->weights && p->influence_sets >= 1);
        for (size_t v = 0; v < n; v++) {
            const float* w = &p->weights[v * (size_t)p->influence_count];
            double sum = 0.0;
            for (int k = 0; k < p->influence_count; k++) {
                FUZZ_REQUIRE(isfinite(w[k]) && w[k] >= 0.0f);
                sum += w[k];
            }
            FUZZ_REQUIRE(fabs(sum - 1.0) <= 1e-4);
        }
    } else {
        FUZZ_REQUIRE(!p->joints && !p->weights);
    }
    if (p->raw_influence_count) { /* options.keep_raw_influences */
        FUZZ_REQUIRE(p->raw_influence_count == 4 * p->influence_sets && p->raw_joints && p->raw_weights);
        FUZZ_REQUIRE(fuzz_all_finite(p->raw_weights, n * (size_t)p->raw_influence_count));
        volatile uint16_t last = p->raw_joints[n * (size_t)p->raw_influence_count - 1];
        (void)last;
    } else {
        FUZZ_REQUIRE(!p->raw_joints && !p->raw_weights);
    }
    if (p->indices) {
        FUZZ_REQUIRE(p->index_count >= 1);
        for (size_t i = 0; i < p->index_count; i++) FUZZ_REQUIRE(p->indices[i] < n);
    } else {
        FUZZ_REQUIRE(p->index_count == 0);
    }
    FUZZ_REQUIRE(p->target_count == mesh->weight_count);
    FUZZ_REQUIRE(!p->target_count || p->targets);
    for (size_t t = 0; t < p->target_count; t++) {
        const sw_model_morph_target* m = &p->targets[t];
        if (m->positions) FUZZ_REQUIRE(fuzz_all_finite(m->positions, n * 3));
        if (m->normals) FUZZ_REQUIRE(fuzz_all_finite(m->normals, n * 3));
        if (m->tangents) FUZZ_REQUIRE(fuzz_all_finite(m->tangents, n * 3));
    }
}

static inline void fuzz_check_structure(const sw_model* a) {
    FUZZ_REQUIRE(a->path);
    fuzz_check_string(a->generator);
    for (size_t i = 0; i < a->warning_count; i++) {
        FUZZ_REQUIRE(a->warnings[i]);
        fuzz_check_string(a->warnings[i]);
    }

    /* images: embedded bytes readable end to end, or a URI */
    for (size_t i = 0; i < a->image_count; i++) {
        const sw_model_image* im = &a->images[i];
        FUZZ_REQUIRE((im->uri != NULL) != (im->data != NULL));
        if (im->data) {
            FUZZ_REQUIRE(im->data_size >= 1);
            volatile uint8_t first = im->data[0], last = im->data[im->data_size - 1];
            (void)first, (void)last;
        }
        fuzz_check_string(im->name), fuzz_check_string(im->uri), fuzz_check_string(im->mime_type);
    }
    for (size_t i = 0; i < a->extension_count; i++) {
        const sw_model_extension* e = &a->extensions[i];
        FUZZ_REQUIRE(e->name && e->json);
        fuzz_check_string(e->name), fuzz_check_string(e->json);
    }
    for (size_t i = 0; i < a->texture_count; i++) {
        FUZZ_REQUIRE(a->textures[i].image >= -1 && a->textures[i].image < (int64_t)a->image_count);
        FUZZ_REQUIRE(a->textures[i].sampler >= -1 && a->textures[i].sampler < (int64_t)a->sampler_count);
    }
    for (size_t i = 0; i < a->material_count; i++) {
        const sw_model_material* m = &a->materials[i];
        fuzz_check_string(m->name);
        fuzz_check_texture_ref(a, &m->base_color_texture);
        fuzz_check_texture_ref(a, &m->metallic_roughness_texture);
        fuzz_check_texture_ref(a, &m->normal_texture);
        fuzz_check_texture_ref(a, &m->occlusion_texture);
        fuzz_check_texture_ref(a, &m->emissive_texture);
        FUZZ_REQUIRE((unsigned)m->alpha_mode <= SW_MODEL_ALPHA_BLEND);
    }

    /* meshes */
    for (size_t i = 0; i < a->mesh_count; i++) {
        const sw_model_mesh* m = &a->meshes[i];
        fuzz_check_string(m->name);
        FUZZ_REQUIRE(m->primitive_count >= 1 && m->primitives);
        FUZZ_REQUIRE(!m->weight_count || (m->weights && fuzz_all_finite(m->weights, m->weight_count)));
        if (m->target_names)
            for (size_t t = 0; t < m->weight_count; t++) FUZZ_REQUIRE(m->target_names[t]);
        for (size_t p = 0; p < m->primitive_count; p++) fuzz_check_primitive(a, m, &m->primitives[p]);
    }

    /* nodes: a forest stored parents first; source_index a permutation */
    size_t n = a->node_count;
    unsigned char* seen = calloc(n ? n : 1, 1);
    FUZZ_REQUIRE(seen);
    for (size_t i = 0; i < n; i++) {
        const sw_model_node* node = &a->nodes[i];
        fuzz_check_string(node->name);
        FUZZ_REQUIRE(node->parent >= -1 && node->parent < (int64_t)i);
        FUZZ_REQUIRE(node->source_index < n && a->node_from_source[node->source_index] == i);
        FUZZ_REQUIRE(a->weight_offsets[i] == node->weight_offset);
        FUZZ_REQUIRE(node->mesh >= -1 && node->mesh < (int64_t)a->mesh_count);
        FUZZ_REQUIRE(node->skin >= -1 && node->skin < (int64_t)a->skin_count);
        for (size_t k = 0; k < node->child_count; k++) {
            uint32_t c = node->children[k];
            FUZZ_REQUIRE(c < n && a->nodes[c].parent == (int32_t)i);
        }
        for (int r = 0; r < 3; r++) FUZZ_REQUIRE(fuzz_all_finite(node->matrix.m[r], 4));
        FUZZ_REQUIRE(isfinite(node->trs.translation.x) && isfinite(node->trs.translation.y) &&
                     isfinite(node->trs.translation.z));
        FUZZ_REQUIRE(isfinite(node->trs.scale.x) && isfinite(node->trs.scale.y) && isfinite(node->trs.scale.z));
        sw_quat q = node->trs.rotation;
        FUZZ_REQUIRE(fabs(sqrt((double)q.x * q.x + (double)q.y * q.y + (double)q.z * q.z + (double)q.w * q.w) - 1.0) <
                     1e-3);
        size_t morphs = node->mesh >= 0 ? a->meshes[node->mesh].weight_count : 0;
        /* weights on a node without a mesh are kept (with a warning) but unused */
        FUZZ_REQUIRE(node->weight_count == 0 || node->weight_count == morphs || node->mesh < 0);
        if (node->weight_count) FUZZ_REQUIRE(fuzz_all_finite(node->weights, node->weight_count));
        FUZZ_REQUIRE((size_t)node->weight_offset + morphs <= a->weight_count);
        if (node->skin >= 0 && node->mesh >= 0) {
            const sw_model_mesh* m = &a->meshes[node->mesh];
            size_t joints = a->skins[node->skin].joint_count;
            for (size_t p = 0; p < m->primitive_count; p++) {
                const sw_model_primitive* prim = &m->primitives[p];
                for (size_t e = 0; e < prim->vertex_count * (size_t)prim->influence_count; e++)
                    FUZZ_REQUIRE(prim->joints[e] < joints);
            }
        }
    }
    for (size_t i = 0; i < n; i++) {
        uint32_t source = a->nodes[i].source_index;
        FUZZ_REQUIRE(source < n && !seen[source]);
        seen[source] = 1;
    }
    free(seen);

    for (size_t i = 0; i < a->skin_count; i++) {
        const sw_model_skin* s = &a->skins[i];
        fuzz_check_string(s->name);
        FUZZ_REQUIRE(s->joint_count >= 1 && s->joints && s->inverse_bind);
        FUZZ_REQUIRE(s->palette_offset + s->joint_count <= a->skin_joint_count);
        FUZZ_REQUIRE(s->skeleton >= -1 && s->skeleton < (int64_t)n);
        for (size_t j = 0; j < s->joint_count; j++) {
            FUZZ_REQUIRE(s->joints[j] < n);
            for (int r = 0; r < 3; r++) FUZZ_REQUIRE(fuzz_all_finite(s->inverse_bind[j].m[r], 4));
        }
    }
    FUZZ_REQUIRE(a->default_scene >= -1 && a->default_scene < (int64_t)a->scene_count);
    FUZZ_REQUIRE(a->scene_count == 0 || a->default_scene >= 0);
    for (size_t i = 0; i < a->scene_count; i++) {
        fuzz_check_string(a->scenes[i].name);
        for (size_t k = 0; k < a->scenes[i].node_count; k++) FUZZ_REQUIRE(a->scenes[i].nodes[k] < n);
    }

    for (size_t i = 0; i < a->animation_count; i++) {
        const sw_clip* clip = &a->animations[i];
        fuzz_check_string(clip->name);
        FUZZ_REQUIRE(!clip->track_count || clip->tracks);
        for (size_t t = 0; t < clip->track_count; t++) {
            const sw_track* track = &clip->tracks[t];
            FUZZ_REQUIRE(track->target < n && track->key_count >= 1);
            sw_diag d;
            if (sw_track_validate(track, &d) != SW_OK) {
                fprintf(stderr, "animations[%zu] track %zu: %s\n", i, t, d.message);
                FUZZ_REQUIRE(!"a loaded track validates");
            }
            FUZZ_REQUIRE(track->times[0] >= 0.0f && clip->start <= track->times[0]);
            FUZZ_REQUIRE(track->times[track->key_count - 1] <= clip->duration);
            if (track->path == SW_PATH_WEIGHTS) {
                int32_t mesh = a->nodes[track->target].mesh;
                FUZZ_REQUIRE(mesh >= 0 && track->component_count == a->meshes[mesh].weight_count);
            } else {
                FUZZ_REQUIRE(track->component_count == (track->path == SW_PATH_ROTATION ? 4u : 3u));
            }
        }
    }
}

/* Poses the scene (rest pose, then each clip at a few times) and deforms
   every instance. Only crashes count: a deform may refuse an instance
   (more than 65536 joints, non-finite weights after sampling …). */
static inline void fuzz_evaluate(const sw_model* a) {
    size_t n = a->node_count;
    if (n == 0) return;
    sw_pose_sizes sizes = sw_pose_sizes_of(a);
    void* memory = aligned_alloc(16, sw_pose_memory_size(&sizes));
    FUZZ_REQUIRE(memory);
    sw_pose pose;
    sw_pose_bind(&pose, &sizes, memory);
    size_t poses = 1;
    for (size_t c = 0; c < a->animation_count && c < 4; c++) poses += 3;
    for (size_t k = 0; k < poses; k++) {
        const sw_clip* clip = k > 0 ? &a->animations[(k - 1) / 3] : NULL;
        float time = 0.0f;
        if (clip) {
            float times[3] = {clip->start, 0.5f * (clip->start + clip->duration), clip->duration};
            time = times[(k - 1) % 3];
        }
        if (sw_pose_evaluate(a, clip, time, false, &pose, NULL) != SW_OK) continue;
        for (size_t i = 0; i < n; i++) {
            if (a->nodes[i].mesh < 0) continue;
            const sw_model_mesh* mesh = &a->meshes[a->nodes[i].mesh];
            for (size_t p = 0; p < mesh->primitive_count; p++) {
                size_t vertices = mesh->primitives[p].vertex_count;
                size_t scratch_size = sw_deform_scratch_size(a, i, p);
                void* scratch = scratch_size ? aligned_alloc(16, (scratch_size + 15) & ~(size_t)15) : NULL;
                float* positions = malloc(vertices * 3 * sizeof(float));
                float* normals = malloc(vertices * 3 * sizeof(float));
                FUZZ_REQUIRE((scratch || !scratch_size) && positions && normals);
                for (int method = 0; method < 2; method++) {
                    sw_deform d = {.node = i,
                                   .primitive = p,
                                   .method = method ? SW_SKIN_DQS : SW_SKIN_LBS,
                                   .scratch = scratch,
                                   .out_positions = positions,
                                   .out_normals = normals};
                    (void)sw_deform_primitive(a, &pose, &d, NULL);
                }
                free(scratch);
                free(positions);
                free(normals);
            }
        }
    }
    free(memory);
}

static inline void fuzz_check_asset(const sw_model* a) {
    fuzz_check_structure(a);
    fuzz_evaluate(a);
}

/* The outcome of a load of a file called `name`: OK with an asset that
   keeps every promise, or an error code, no asset, and one line of message
   that starts with "<name>: ". */
static inline void fuzz_check_result(sw_result r, const sw_model* a, const sw_diag* d, const char* name) {
    if (r == SW_OK) {
        FUZZ_REQUIRE(a);
        fuzz_check_asset(a);
    } else {
        size_t n = strlen(name);
        FUZZ_REQUIRE(!a);
        FUZZ_REQUIRE(r > SW_OK && r < SW_RESULT_COUNT);
        FUZZ_REQUIRE(d->result == r && memchr(d->message, '\0', sizeof d->message));
        FUZZ_REQUIRE(strncmp(d->message, name, n) == 0 && d->message[n] == ':' && d->message[n + 1] == ' ' &&
                     d->message[n + 2] != '\0');
        FUZZ_REQUIRE(!strchr(d->message, '\n'));
    }
}

#endif
