/* What every loaded glTF asset must satisfy, checked after a successful
   load by the fuzz targets and the truncation tests.

   fuzz_check_asset() runs three passes:
   - the library's own checks (sinew/check.h), on every loaded model: they
     must not crash, must not fail but for lack of memory, must find no
     model_invalid (the model's structural promises: every index in range,
     parents first, file indices a permutation, tracks that validate), and
     every finding must be well-formed data with a non-empty one-line
     message;
   - what only the importer promises and the checks do not look at: walks
     everything the asset points to (so ASan sees any array shorter than
     its count says) and requires weights that sum to 1, finite decoded
     values, unit rotations, key times inside their clip …;
   - the scene evaluated: rest pose, a few clip samples, world matrices and
     the deformation of every (node, primitive) instance with LBS and DQS.
   A broken promise prints what broke and aborts, which libFuzzer and ctest
   both report as a failure. Header-only: each user includes it once. */
#ifndef SINEW_FUZZ_CHECK_H
#define SINEW_FUZZ_CHECK_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sinew/check.h"
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

static inline bool fuzz_index_ok(int64_t index, size_t count) { return index >= -1 && index < (int64_t)count; }

/* One finding of sw_check_model, as data: a known code with its id and
   severity, a path inside the model, a one-line message. */
static inline void fuzz_check_finding(const sw_model* a, const sw_check_report* report, const sw_check_finding* f) {
    FUZZ_REQUIRE((unsigned)f->code < SW_CHECK_CODE_COUNT && f->code != SW_CHECK_LOAD);
    if (f->code == SW_CHECK_MODEL_INVALID) fprintf(stderr, "model_invalid: %s\n", f->message);
    FUZZ_REQUIRE(f->code != SW_CHECK_MODEL_INVALID); /* the importer keeps the model's promises */
    FUZZ_REQUIRE(f->id && strcmp(f->id, sw_check_code_str(f->code)) == 0);
    FUZZ_REQUIRE(f->severity == sw_check_code_severity(f->code));
    FUZZ_REQUIRE(memchr(f->message, '\0', sizeof f->message) && f->message[0] != '\0');
    FUZZ_REQUIRE(!strchr(f->message, '\n') && !strchr(f->message, '\r'));
    FUZZ_REQUIRE(fuzz_index_ok(f->mesh, a->mesh_count) && fuzz_index_ok(f->skin, a->skin_count));
    FUZZ_REQUIRE(f->primitive == -1 || (f->mesh >= 0 && f->primitive >= 0 &&
                                        (size_t)f->primitive < a->meshes[f->mesh].primitive_count));
    FUZZ_REQUIRE(f->joint == -1 || (f->skin >= 0 && f->joint >= 0 && (size_t)f->joint < a->skins[f->skin].joint_count));
    FUZZ_REQUIRE(fuzz_index_ok(f->node, a->node_count) && fuzz_index_ok(f->animation, a->animation_count));
    FUZZ_REQUIRE(fuzz_index_ok(f->image, a->image_count));
    FUZZ_REQUIRE(f->example_count <= SW_CHECK_MAX_EXAMPLES);
    for (size_t e = 0; e < f->example_count; e++) {
        const sw_check_example* x = &f->examples[e];
        FUZZ_REQUIRE(fuzz_index_ok(x->animation, a->animation_count));
        FUZZ_REQUIRE(x->animation == -1 || !isnan(x->time_s));
    }
    if (f->poses) {
        volatile size_t last = f->poses[report->animation_count].count;
        (void)last;
    }
}

/* The library's checks on a loaded model (cheap settings: few samples per
   clip, images not decoded: stb_image is not ours to fuzz). */
static inline void fuzz_check_findings(const sw_model* a) {
    sw_check_options options = {.max_samples = 4, .disabled = SW_CHECK_BIT(SW_CHECK_IMAGE_UNREADABLE)};
    sw_check_report* report = (sw_check_report*)1;
    sw_diag diag;
    sw_result r = sw_check_model(a, &options, &report, &diag);
    if (r != SW_OK) {
        FUZZ_REQUIRE(!report && diag.result == r);
        if (r != SW_ERR_OUT_OF_MEMORY) fprintf(stderr, "sw_check_model: %s\n", diag.message);
        FUZZ_REQUIRE(r == SW_ERR_OUT_OF_MEMORY);
        return;
    }
    FUZZ_REQUIRE(report);
    FUZZ_REQUIRE(report->error_count + report->warning_count + report->note_count == report->finding_count);
    FUZZ_REQUIRE(report->animation_count == a->animation_count);
    FUZZ_REQUIRE(!report->finding_count || report->findings);
    size_t import_warnings = 0;
    for (size_t i = 0; i < report->finding_count; i++) {
        fuzz_check_finding(a, report, &report->findings[i]);
        import_warnings += report->findings[i].code == SW_CHECK_IMPORT;
    }
    FUZZ_REQUIRE(import_warnings == a->warning_count);
    sw_check_report_free(report);
}

/* The importer's promises beyond the checks' structural ones (which
   fuzz_check_findings has verified, so every index below is in range). */
static inline void fuzz_check_primitive(const sw_model_primitive* p) {
    size_t n = p->vertex_count;
    FUZZ_REQUIRE(n >= 1);
    FUZZ_REQUIRE(fuzz_all_finite(p->positions, n * 3));
    for (int c = 0; c < 3; c++) FUZZ_REQUIRE(p->bounds_min[c] <= p->bounds_max[c]);
    if (p->normals) FUZZ_REQUIRE(fuzz_all_finite(p->normals, n * 3));
    if (p->tangents) FUZZ_REQUIRE(fuzz_all_finite(p->tangents, n * 4));
    FUZZ_REQUIRE(p->texcoord_count >= 0 && p->texcoord_count <= SW_MODEL_MAX_TEXCOORDS);
    for (int s = 0; s < p->texcoord_count; s++) FUZZ_REQUIRE(p->texcoords[s] && fuzz_all_finite(p->texcoords[s], n * 2));
    if (p->colors) FUZZ_REQUIRE(fuzz_all_finite(p->colors, n * 4));
    if (p->influence_count) {
        FUZZ_REQUIRE(p->influence_sets >= 1);
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
        FUZZ_REQUIRE(p->raw_influence_count == 4 * p->influence_sets);
        FUZZ_REQUIRE(fuzz_all_finite(p->raw_weights, n * (size_t)p->raw_influence_count));
        volatile uint16_t last = p->raw_joints[n * (size_t)p->raw_influence_count - 1];
        (void)last;
    } else {
        FUZZ_REQUIRE(!p->raw_joints && !p->raw_weights);
    }
    FUZZ_REQUIRE(!p->indices == !p->index_count);
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
    for (size_t i = 0; i < a->warning_count; i++) fuzz_check_string(a->warnings[i]);

    /* images: embedded bytes readable end to end */
    for (size_t i = 0; i < a->image_count; i++) {
        const sw_model_image* im = &a->images[i];
        if (im->data) {
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
    for (size_t i = 0; i < a->material_count; i++) {
        fuzz_check_string(a->materials[i].name);
        FUZZ_REQUIRE((unsigned)a->materials[i].alpha_mode <= SW_MODEL_ALPHA_BLEND);
        /* the emissive multiplier: what the renderer multiplies by */
        FUZZ_REQUIRE(isfinite(a->materials[i].emissive_strength) && a->materials[i].emissive_strength >= 0.0f);
    }

    for (size_t i = 0; i < a->mesh_count; i++) {
        const sw_model_mesh* m = &a->meshes[i];
        fuzz_check_string(m->name);
        FUZZ_REQUIRE(m->primitive_count >= 1);
        FUZZ_REQUIRE(!m->weight_count || (m->weights && fuzz_all_finite(m->weights, m->weight_count)));
        if (m->target_names)
            for (size_t t = 0; t < m->weight_count; t++) FUZZ_REQUIRE(m->target_names[t]);
        for (size_t p = 0; p < m->primitive_count; p++) fuzz_check_primitive(&m->primitives[p]);
    }

    for (size_t i = 0; i < a->node_count; i++) {
        const sw_model_node* node = &a->nodes[i];
        fuzz_check_string(node->name);
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
        /* the stored rest pose is the node's TRS, identity for matrix nodes */
        const sw_transform identity = {{0, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}};
        FUZZ_REQUIRE(a->rest_local &&
                     memcmp(&a->rest_local[i], node->has_matrix ? &identity : &node->trs, sizeof identity) == 0);
        if (morphs) {
            const float* defaults = node->weight_count == morphs ? node->weights : a->meshes[node->mesh].weights;
            FUZZ_REQUIRE(memcmp(&a->rest_weights[node->weight_offset], defaults, morphs * sizeof(float)) == 0);
        }
    }

    for (size_t i = 0; i < a->skin_count; i++) {
        const sw_model_skin* s = &a->skins[i];
        fuzz_check_string(s->name);
        FUZZ_REQUIRE(s->joint_count >= 1);
        for (size_t j = 0; j < s->joint_count; j++)
            for (int r = 0; r < 3; r++) FUZZ_REQUIRE(fuzz_all_finite(s->inverse_bind[j].m[r], 4));
    }
    for (size_t i = 0; i < a->scene_count; i++) fuzz_check_string(a->scenes[i].name);

    for (size_t i = 0; i < a->animation_count; i++) {
        const sw_clip* clip = &a->animations[i];
        fuzz_check_string(clip->name);
        for (size_t t = 0; t < clip->track_count; t++) {
            const sw_track* track = &clip->tracks[t];
            FUZZ_REQUIRE(track->times[0] >= 0.0f && clip->start <= track->times[0]);
            FUZZ_REQUIRE(track->times[track->key_count - 1] <= clip->duration);
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

/* The checks' structural pass comes first: the other two index freely. */
static inline void fuzz_check_asset(const sw_model* a) {
    fuzz_check_findings(a);
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
