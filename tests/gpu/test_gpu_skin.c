/* GPU skinning against the CPU job: compute and vertex-shader paths, LBS and
   DQS, every joint/weight format and influence count, morph targets, the
   skin cache and previous positions; then the shared glTF assets.

   Runs on whatever EGL gives: Mesa's llvmpipe on a machine without a GPU.
   Skips (saying so) only when no EGL display exists at all. */
#include <epoxy/gl.h>
#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "gl_harness.h"
#include "sinew/gltf.h"
#include "sinew/gpu.h"
#include "sinew/pose.h"
#include "test_random.h"

static sw_gl_context* g_context;
static sw_gpu_skinner* g_skinner;

/* ---- comparison --------------------------------------------------------------- */

static double bbox_diagonal(const float* positions, size_t n) {
    double lo[3] = {DBL_MAX, DBL_MAX, DBL_MAX}, hi[3] = {-DBL_MAX, -DBL_MAX, -DBL_MAX};
    for (size_t v = 0; v < n; v++)
        for (int c = 0; c < 3; c++) {
            double x = positions[3 * v + (size_t)c];
            lo[c] = x < lo[c] ? x : lo[c];
            hi[c] = x > hi[c] ? x : hi[c];
        }
    double d2 = 0.0;
    for (int c = 0; c < 3; c++) d2 += (hi[c] - lo[c]) * (hi[c] - lo[c]);
    return sqrt(d2);
}

/* Largest |a − b| over count×width floats (NaN counts as infinite). */
static double max_abs_diff(const float* a, const float* b, size_t count, int width) {
    double worst = 0.0;
    for (size_t i = 0; i < count * (size_t)width; i++) {
        double d = fabs((double)a[i] - (double)b[i]);
        if (!(d <= worst)) worst = d == d ? d : INFINITY;
    }
    return worst;
}

/* The agreed tolerances: positions within 1e-5 × bounding-box diagonal,
   unit normals and tangents within 1e-4. */
static void check_streams(const char* what, size_t n, const float* cpu_p, const float* gpu_p, const float* cpu_n,
                          const float* gpu_n, const float* cpu_t, const float* gpu_t) {
    double diag = bbox_diagonal(cpu_p, n);
    double dp = max_abs_diff(cpu_p, gpu_p, n, 3);
    if (!(dp <= 1e-5 * diag)) fprintf(stderr, "  %s: positions differ by %.3g (diagonal %.3g)\n", what, dp, diag);
    SW_CHECK(dp <= 1e-5 * diag);
    if (cpu_n) {
        double dn = max_abs_diff(cpu_n, gpu_n, n, 3);
        if (!(dn <= 1e-4)) fprintf(stderr, "  %s: normals differ by %.3g\n", what, dn);
        SW_CHECK(dn <= 1e-4);
    }
    if (cpu_t) {
        double dt = max_abs_diff(cpu_t, gpu_t, n, 4);
        if (!(dt <= 1e-4)) fprintf(stderr, "  %s: tangents differ by %.3g\n", what, dt);
        SW_CHECK(dt <= 1e-4);
    }
}

/* ---- a random skinned mesh ---------------------------------------------------------- */

typedef struct synthetic {
    size_t n, joint_count;
    int influences;
    sw_joint_format joint_format;
    sw_weight_format weight_format;
    float *positions, *normals, *tangents;
    void *joints, *weights;
    sw_mat34* matrices;
    sw_dualquat* dual_quats;
    sw_mat34* stretch;
    size_t scaled;                 /* joints with stretch */
    size_t target_count;
    float* deltas;                 /* target × (positions, normals, tangents) × n × 3 */
    float* morph_weights;
} synthetic;

static sw_vec3 random_unit(rng* r) {
    for (;;) {
        sw_vec3 v = {rng_range(r, -1, 1), rng_range(r, -1, 1), rng_range(r, -1, 1)};
        float l2 = sw_vec3_dot(v, v);
        if (l2 > 0.01f && l2 <= 1.0f) return sw_vec3_scale(v, 1.0f / sqrtf(l2));
    }
}

static void synthetic_palette(synthetic* s, rng* r, bool scaled) {
    for (size_t j = 0; j < s->joint_count; j++) {
        sw_transform t = {{rng_range(r, -2, 2), rng_range(r, -2, 2), rng_range(r, -2, 2)}, rng_quat(r), {1, 1, 1}};
        if (scaled && j % 3 == 1) t.scale = (sw_vec3){rng_range(r, 0.5, 1.5), rng_range(r, 0.5, 1.5), rng_range(r, 0.5, 1.5)};
        s->matrices[j] = sw_transform_to_mat34(&t);
    }
    s->scaled = sw_skin_dual_quats(s->dual_quats, s->stretch, s->matrices, s->joint_count);
}

static synthetic synthetic_make(uint64_t seed, size_t n, int influences, sw_joint_format jf, sw_weight_format wf,
                                size_t target_count, bool scaled) {
    rng r = {seed};
    synthetic s = {.n = n, .joint_count = 24, .influences = influences, .joint_format = jf, .weight_format = wf,
                   .target_count = target_count};
    s.positions = malloc(n * 12);
    s.normals = malloc(n * 12);
    s.tangents = malloc(n * 16);
    size_t k = (size_t)influences;
    s.joints = malloc(n * k * 2 + 1);
    s.weights = malloc(n * k * 4 + 1);
    for (size_t v = 0; v < n; v++) {
        for (int c = 0; c < 3; c++) s.positions[3 * v + (size_t)c] = rng_range(&r, -1, 1);
        sw_vec3 nrm = random_unit(&r), tan = random_unit(&r);
        memcpy(&s.normals[3 * v], &nrm, 12);
        memcpy(&s.tangents[4 * v], &tan, 12);
        s.tangents[4 * v + 3] = rng_u32(&r) & 1 ? 1.0f : -1.0f;
        float w[SW_MAX_INFLUENCES], sum = 0.0f;
        for (size_t i = 0; i < k; i++) sum += (w[i] = rng_range(&r, 0.05, 1.0));
        for (size_t i = 0; i < k; i++) {
            uint32_t joint = rng_below(&r, (uint32_t)s.joint_count);
            if (jf == SW_JOINT_U8) ((uint8_t*)s.joints)[v * k + i] = (uint8_t)joint;
            else ((uint16_t*)s.joints)[v * k + i] = (uint16_t)joint;
            float wi = w[i] / sum;
            if (wf == SW_WEIGHT_U8_NORM) ((uint8_t*)s.weights)[v * k + i] = (uint8_t)lrintf(wi * 255.0f);
            else if (wf == SW_WEIGHT_U16_NORM) ((uint16_t*)s.weights)[v * k + i] = (uint16_t)lrintf(wi * 65535.0f);
            else ((float*)s.weights)[v * k + i] = wi;
        }
    }
    s.matrices = malloc(s.joint_count * sizeof(sw_mat34));
    s.dual_quats = malloc(s.joint_count * sizeof(sw_dualquat));
    s.stretch = malloc(s.joint_count * sizeof(sw_mat34));
    synthetic_palette(&s, &r, scaled);
    if (target_count) {
        s.deltas = malloc(target_count * 3 * n * 12);
        s.morph_weights = malloc(target_count * sizeof(float));
        for (size_t i = 0; i < target_count * 3 * n * 3; i++) s.deltas[i] = rng_range(&r, -0.2, 0.2);
        for (size_t t = 0; t < target_count; t++) s.morph_weights[t] = t % 3 == 2 ? 0.0f : rng_range(&r, -0.5, 1.0);
    }
    return s;
}

static void synthetic_free(synthetic* s) {
    free(s->positions), free(s->normals), free(s->tangents), free(s->joints), free(s->weights);
    free(s->matrices), free(s->dual_quats), free(s->stretch), free(s->deltas), free(s->morph_weights);
}

static const float* target_stream(const synthetic* s, size_t t, int stream) {
    return s->deltas + (t * 3 + (size_t)stream) * s->n * 3;
}

/* The CPU reference: morph (sw_morph_job) then skin (the scalar kernel). */
static void cpu_reference(const synthetic* s, sw_skin_method method, sw_normal_mode normals_mode, float* out_p,
                          float* out_n, float* out_t) {
    const size_t n = s->n;
    float* p = malloc(n * 12);
    float* nr = malloc(n * 12);
    float* tg = malloc(n * 16);
    memcpy(p, s->positions, n * 12), memcpy(nr, s->normals, n * 12), memcpy(tg, s->tangents, n * 16);
    if (s->target_count) {
        const float* deltas[64];
        for (int stream = 0; stream < 3; stream++) {
            for (size_t t = 0; t < s->target_count; t++) deltas[t] = target_stream(s, t, stream);
            float* base = stream == 0 ? p : stream == 1 ? nr : tg;
            sw_morph_job job = {.vertex_count = n, .target_count = s->target_count, .weights = s->morph_weights,
                                .deltas = deltas, .component_count = stream == 2 ? 4 : 3, .base = base, .out = base};
            sw_diag d = {0};
            SW_CHECK(sw_morph_job_validate(&job, &d) == SW_OK);
            sw_morph_job_run(&job, 0, n);
        }
    }
    sw_skin_job job = {
        .method = method, .normal_mode = normals_mode, .kernel = SW_SKIN_KERNEL_SCALAR, .vertex_count = n,
        .influence_count = s->influences, .joint_count = s->joint_count, .matrices = s->matrices,
        .dual_quats = s->dual_quats, .stretch = s->scaled ? s->stretch : NULL,
        .joints = s->joints, .joint_format = s->joint_format, .weights = s->weights, .weight_format = s->weight_format,
        .in_positions = p, .out_positions = out_p, .in_normals = nr, .out_normals = out_n,
        .in_tangents = tg, .out_tangents = out_t,
    };
    sw_diag d = {0};
    SW_CHECK(sw_skin_job_validate(&job, &d) == SW_OK);
    sw_skin_job_run(&job, 0, n);
    free(p), free(nr), free(tg);
}

typedef struct gpu_objects {
    sw_gpu_mesh* mesh;
    sw_gpu_palette* palette;
    sw_gpu_instance* instance;
} gpu_objects;

static bool gpu_make(const synthetic* s, gpu_objects* g) {
    sw_gpu_morph_target targets[64];
    for (size_t t = 0; t < s->target_count; t++)
        targets[t] = (sw_gpu_morph_target){target_stream(s, t, 0), target_stream(s, t, 1), target_stream(s, t, 2)};
    sw_gpu_mesh_desc desc = {
        .vertex_count = s->n, .influence_count = s->influences, .positions = s->positions, .normals = s->normals,
        .tangents = s->tangents, .joints = s->joints, .joint_format = s->joint_format, .weights = s->weights,
        .weight_format = s->weight_format, .target_count = s->target_count, .targets = targets,
    };
    sw_diag d = {0};
    *g = (gpu_objects){0};
    bool ok = sw_gpu_mesh_create(&desc, &g->mesh, &d) == SW_OK &&
              sw_gpu_palette_create(g_skinner, s->joint_count, &g->palette, &d) == SW_OK &&
              sw_gpu_palette_update(g->palette, s->matrices, s->dual_quats, s->scaled ? s->stretch : NULL, &d) == SW_OK &&
              sw_gpu_instance_create(g->mesh, &g->instance, &d) == SW_OK &&
              sw_gpu_instance_set_morph_weights(g->instance, s->morph_weights, s->target_count, &d) == SW_OK;
    if (!ok) fprintf(stderr, "  GPU setup failed: %s\n", d.message);
    SW_CHECK(ok);
    return ok;
}

static void gpu_free(gpu_objects* g) {
    sw_gpu_instance_destroy(g->instance);
    sw_gpu_palette_destroy(g->palette);
    sw_gpu_mesh_destroy(g->mesh);
}

/* Skins `s` on the CPU and on both GPU paths and compares. */
static void compare_synthetic(const char* what, const synthetic* s, sw_skin_method method, sw_normal_mode mode) {
    const size_t n = s->n;
    float* cp = malloc(n * 12), *cn = malloc(n * 12), *ct = malloc(n * 16);
    float* gp = malloc(n * 12), *gn = malloc(n * 12), *gt = malloc(n * 16);
    cpu_reference(s, method, mode, cp, cn, ct);
    gpu_objects g;
    if (gpu_make(s, &g)) {
        for (int path = 0; path < 2; path++) {
            sw_gpu_skin_desc desc = {.method = method, .normal_mode = mode, .path = (sw_gpu_skin_path)path};
            sw_diag d = {0};
            bool dispatched = false;
            sw_result r = sw_gpu_skin(g_skinner, g.instance, g.palette, &desc, &dispatched, &d);
            if (r != SW_OK) fprintf(stderr, "  %s: %s\n", what, d.message);
            SW_CHECK(r == SW_OK);
            SW_CHECK(dispatched);
            memset(gp, 0xff, n * 12), memset(gn, 0xff, n * 12), memset(gt, 0xff, n * 16);
            SW_CHECK(sw_gpu_instance_read(g.instance, gp, NULL, gn, gt, &d) == SW_OK);
            char label[160];
            snprintf(label, sizeof label, "%s (%s)", what, path ? "vertex shader" : "compute");
            check_streams(label, n, cp, gp, cn, gn, ct, gt);
        }
        gpu_free(&g);
    }
    free(cp), free(cn), free(ct), free(gp), free(gn), free(gt);
}

static void test_lbs_and_dqs_every_influence_count(void) {
    for (int k = 1; k <= SW_MAX_INFLUENCES; k++) {
        synthetic s = synthetic_make(100 + (uint64_t)k, 1001, k, SW_JOINT_U16, SW_WEIGHT_F32, 0, false);
        char what[64];
        snprintf(what, sizeof what, "LBS, %d influences", k);
        compare_synthetic(what, &s, SW_SKIN_LBS, SW_NORMALS_BLENDED);
        snprintf(what, sizeof what, "DQS, %d influences", k);
        compare_synthetic(what, &s, SW_SKIN_DQS, SW_NORMALS_BLENDED);
        synthetic_free(&s);
    }
}

static void test_joint_and_weight_formats(void) {
    const sw_joint_format joint_formats[] = {SW_JOINT_U8, SW_JOINT_U16};
    const sw_weight_format weight_formats[] = {SW_WEIGHT_F32, SW_WEIGHT_U8_NORM, SW_WEIGHT_U16_NORM};
    for (int j = 0; j < 2; j++)
        for (int w = 0; w < 3; w++)
            for (int k = 3; k <= 8; k += 5) { /* 3 and 8: odd byte offsets and the second attribute */
                synthetic s = synthetic_make(200 + (uint64_t)(j * 10 + w), 777, k, joint_formats[j], weight_formats[w], 0,
                                             false);
                char what[64];
                snprintf(what, sizeof what, "joints %s, weights %s, %d influences", j ? "u16" : "u8",
                         w == 0 ? "f32" : w == 1 ? "u8" : "u16", k);
                compare_synthetic(what, &s, SW_SKIN_LBS, SW_NORMALS_BLENDED);
                synthetic_free(&s);
            }
}

static void test_scaled_palette_cofactor_and_stretch(void) {
    synthetic s = synthetic_make(300, 1500, 4, SW_JOINT_U16, SW_WEIGHT_F32, 0, true);
    SW_CHECK(s.scaled > 0);
    compare_synthetic("LBS cofactor normals, scaled joints", &s, SW_SKIN_LBS, SW_NORMALS_COFACTOR);
    compare_synthetic("LBS blended normals, scaled joints", &s, SW_SKIN_LBS, SW_NORMALS_BLENDED);
    compare_synthetic("DQS with stretch", &s, SW_SKIN_DQS, SW_NORMALS_BLENDED);
    synthetic_free(&s);
}

static void test_morph_targets_before_skinning(void) {
    synthetic s = synthetic_make(400, 900, 4, SW_JOINT_U16, SW_WEIGHT_F32, 5, false);
    compare_synthetic("morph + LBS", &s, SW_SKIN_LBS, SW_NORMALS_BLENDED);
    compare_synthetic("morph + DQS", &s, SW_SKIN_DQS, SW_NORMALS_BLENDED);
    synthetic_free(&s);
}

/* A vertex shader job of 5 vertices against values worked by hand: joint 0
   translates by (1,2,3), joint 1 turns 90° about z; half of each. */
static void test_hand_computed_lbs(void) {
    const float positions[] = {1, 0, 0};
    const float normals[] = {1, 0, 0};
    const uint16_t joints[] = {0, 1};
    const float weights[] = {0.5f, 0.5f};
    sw_mat34 palette[2] = {{{{1, 0, 0, 1}, {0, 1, 0, 2}, {0, 0, 1, 3}}}, {{{0, -1, 0, 0}, {1, 0, 0, 0}, {0, 0, 1, 0}}}};
    sw_gpu_mesh_desc desc = {.vertex_count = 1, .influence_count = 2, .positions = positions, .normals = normals,
                             .joints = joints, .weights = weights};
    sw_gpu_mesh* mesh = NULL;
    sw_gpu_palette* pal = NULL;
    sw_gpu_instance* inst = NULL;
    sw_diag d = {0};
    SW_CHECK(sw_gpu_mesh_create(&desc, &mesh, &d) == SW_OK);
    SW_CHECK(sw_gpu_palette_create(g_skinner, 2, &pal, &d) == SW_OK);
    SW_CHECK(sw_gpu_palette_update(pal, palette, NULL, NULL, &d) == SW_OK);
    SW_CHECK(sw_gpu_instance_create(mesh, &inst, &d) == SW_OK);
    for (int path = 0; path < 2; path++) {
        sw_gpu_skin_desc sd = {.path = (sw_gpu_skin_path)path, .force = true};
        SW_CHECK(sw_gpu_skin(g_skinner, inst, pal, &sd, NULL, &d) == SW_OK);
        float p[3], nrm[3];
        SW_CHECK(sw_gpu_instance_read(inst, p, NULL, nrm, NULL, &d) == SW_OK);
        /* ½·(2,2,3) + ½·(0,1,0) = (1, 1.5, 1.5); normal ½(1,0,0)+½(0,1,0) normalised. */
        SW_CHECK_NEAR(p[0], 1.0, 1e-6);
        SW_CHECK_NEAR(p[1], 1.5, 1e-6);
        SW_CHECK_NEAR(p[2], 1.5, 1e-6);
        SW_CHECK_NEAR(nrm[0], sqrt(0.5), 1e-6);
        SW_CHECK_NEAR(nrm[1], sqrt(0.5), 1e-6);
        SW_CHECK_NEAR(nrm[2], 0.0, 1e-6);
    }
    sw_gpu_instance_destroy(inst), sw_gpu_palette_destroy(pal), sw_gpu_mesh_destroy(mesh);
}

/* Skin cache (skip unchanged palettes, as engines do) and previous positions. */
static void test_skin_cache_and_previous_positions(void) {
    synthetic s = synthetic_make(500, 640, 4, SW_JOINT_U16, SW_WEIGHT_F32, 2, false);
    gpu_objects g;
    if (!gpu_make(&s, &g)) return;
    const size_t n = s.n;
    float* frame1 = malloc(n * 12), *frame2 = malloc(n * 12), *cur = malloc(n * 12), *prev = malloc(n * 12);
    sw_gpu_skin_stats before, after;
    sw_gpu_skinner_get_stats(g_skinner, &before);
    sw_diag d = {0};
    bool dispatched = false;
    sw_gpu_skin_desc desc = {0};

    SW_CHECK(sw_gpu_skin(g_skinner, g.instance, g.palette, &desc, &dispatched, &d) == SW_OK);
    SW_CHECK(dispatched);
    SW_CHECK(sw_gpu_instance_read(g.instance, frame1, prev, NULL, NULL, &d) == SW_OK);
    /* First frame: no history, the previous positions are the current ones. */
    SW_CHECK(memcmp(frame1, prev, n * 12) == 0);

    /* Same palette revision, same weights: skipped. */
    SW_CHECK(sw_gpu_skin(g_skinner, g.instance, g.palette, &desc, &dispatched, &d) == SW_OK);
    SW_CHECK(!dispatched);
    SW_CHECK(sw_gpu_instance_read(g.instance, cur, prev, NULL, NULL, &d) == SW_OK);
    SW_CHECK(memcmp(cur, frame1, n * 12) == 0 && memcmp(prev, frame1, n * 12) == 0);

    /* A new palette: re-skinned, and the previous positions are frame 1. */
    rng r = {501};
    synthetic_palette(&s, &r, false);
    SW_CHECK(sw_gpu_palette_update(g.palette, s.matrices, s.dual_quats, NULL, &d) == SW_OK);
    SW_CHECK(sw_gpu_skin(g_skinner, g.instance, g.palette, &desc, &dispatched, &d) == SW_OK);
    SW_CHECK(dispatched);
    SW_CHECK(sw_gpu_instance_read(g.instance, frame2, prev, NULL, NULL, &d) == SW_OK);
    SW_CHECK(memcmp(prev, frame1, n * 12) == 0);
    SW_CHECK(memcmp(frame2, frame1, n * 12) != 0);
    float* cp = malloc(n * 12), *cn = malloc(n * 12), *ct = malloc(n * 16);
    cpu_reference(&s, SW_SKIN_LBS, SW_NORMALS_BLENDED, cp, cn, ct);
    check_streams("after a palette update", n, cp, frame2, NULL, NULL, NULL, NULL);

    /* Unchanged again: skipped, and nothing moved. */
    SW_CHECK(sw_gpu_skin(g_skinner, g.instance, g.palette, &desc, &dispatched, &d) == SW_OK);
    SW_CHECK(!dispatched);
    SW_CHECK(sw_gpu_instance_read(g.instance, cur, prev, NULL, NULL, &d) == SW_OK);
    SW_CHECK(memcmp(cur, frame2, n * 12) == 0 && memcmp(prev, frame2, n * 12) == 0);

    /* Setting the same morph weights changes nothing; new ones re-skin. */
    SW_CHECK(sw_gpu_instance_set_morph_weights(g.instance, s.morph_weights, s.target_count, &d) == SW_OK);
    SW_CHECK(sw_gpu_skin(g_skinner, g.instance, g.palette, &desc, &dispatched, &d) == SW_OK);
    SW_CHECK(!dispatched);
    s.morph_weights[0] += 0.25f;
    SW_CHECK(sw_gpu_instance_set_morph_weights(g.instance, s.morph_weights, s.target_count, &d) == SW_OK);
    SW_CHECK(sw_gpu_skin(g_skinner, g.instance, g.palette, &desc, &dispatched, &d) == SW_OK);
    SW_CHECK(dispatched);
    SW_CHECK(sw_gpu_instance_read(g.instance, cur, prev, NULL, NULL, &d) == SW_OK);
    SW_CHECK(memcmp(prev, frame2, n * 12) == 0);
    cpu_reference(&s, SW_SKIN_LBS, SW_NORMALS_BLENDED, cp, cn, ct);
    check_streams("after a morph weight change", n, cp, cur, NULL, NULL, NULL, NULL);

    /* A change of method is a change of output: re-skinned. */
    desc.method = SW_SKIN_DQS;
    SW_CHECK(sw_gpu_skin(g_skinner, g.instance, g.palette, &desc, &dispatched, &d) == SW_OK);
    SW_CHECK(dispatched);

    sw_gpu_skinner_get_stats(g_skinner, &after);
    SW_CHECK_EQ_INT(after.dispatched - before.dispatched, 4);
    SW_CHECK_EQ_INT(after.skipped - before.skipped, 3);
    SW_CHECK_EQ_INT(after.vertices_skinned - before.vertices_skinned, 4 * n);
    free(frame1), free(frame2), free(cur), free(prev), free(cp), free(cn), free(ct);
    gpu_free(&g);
    synthetic_free(&s);
}

static void test_bad_arguments(void) {
    sw_diag d = {0};
    sw_gpu_mesh* mesh = NULL;
    const float p[3] = {0};
    sw_gpu_mesh_desc desc = {.vertex_count = 1, .influence_count = 9, .positions = p};
    SW_CHECK(sw_gpu_mesh_create(&desc, &mesh, &d) == SW_ERR_INVALID_ARGUMENT && mesh == NULL);
    SW_CHECK(strstr(d.message, "influence count 9") != NULL);
    desc.influence_count = 4;
    SW_CHECK(sw_gpu_mesh_create(&desc, &mesh, &d) == SW_ERR_INVALID_ARGUMENT);
    desc = (sw_gpu_mesh_desc){.vertex_count = (size_t)1 << 40, .positions = p};
    SW_CHECK(sw_gpu_mesh_create(&desc, &mesh, &d) == SW_ERR_UNSUPPORTED && mesh == NULL);
    SW_CHECK(strstr(d.message, "storage buffers") != NULL);

    /* A DQS dispatch with a palette that only has matrices. */
    const uint16_t j[1] = {0};
    const float w[1] = {1};
    desc = (sw_gpu_mesh_desc){.vertex_count = 1, .influence_count = 1, .positions = p, .joints = j, .weights = w};
    SW_CHECK(sw_gpu_mesh_create(&desc, &mesh, &d) == SW_OK);
    sw_gpu_palette* pal = NULL;
    sw_gpu_instance* inst = NULL;
    sw_mat34 identity = {{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}}};
    SW_CHECK(sw_gpu_palette_create(g_skinner, 1, &pal, &d) == SW_OK);
    SW_CHECK(sw_gpu_palette_update(pal, &identity, NULL, NULL, &d) == SW_OK);
    SW_CHECK(sw_gpu_instance_create(mesh, &inst, &d) == SW_OK);
    sw_gpu_skin_desc sd = {.method = SW_SKIN_DQS};
    SW_CHECK(sw_gpu_skin(g_skinner, inst, pal, &sd, NULL, &d) == SW_ERR_INVALID_ARGUMENT);
    SW_CHECK(strstr(d.message, "dual quaternions") != NULL);
    SW_CHECK(sw_gpu_skin(g_skinner, inst, NULL, NULL, NULL, &d) == SW_ERR_INVALID_ARGUMENT);
    const float nan_weight = NAN;
    SW_CHECK(sw_gpu_instance_set_morph_weights(inst, &nan_weight, 1, &d) == SW_ERR_INVALID_ARGUMENT);
    SW_CHECK(sw_gl_check("after the bad arguments", &d) == SW_OK);
    sw_gpu_instance_destroy(inst), sw_gpu_palette_destroy(pal), sw_gpu_mesh_destroy(mesh);
}

/* ---- the shared glTF assets --------------------------------------------------------- */

/* Every (node, primitive) of the default scene at a few times of each
   clip: sw_deform_primitive on the CPU against the GPU (skinned
   primitives by their skin's palette, rigid ones by the node's world
   matrix as joint 0). Returns the number of primitives compared. */
static size_t compare_asset(const char* relative, sw_skin_method method) {
    const char* root = getenv("SINEW_ASSETS");
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", root, relative);
    sw_model* asset = NULL;
    sw_diag d = {0};
    if (sw_gltf_load_file(path, NULL, &asset, &d) != SW_OK) {
        fprintf(stderr, "  %s: %s\n", relative, d.message);
        SW_CHECK(!"asset loads");
        return 0;
    }
    size_t compared = 0;
    sw_pose_sizes sizes = sw_pose_sizes_of(asset);
    void* memory = aligned_alloc(16, (sw_pose_memory_size(&sizes) + 15) / 16 * 16);
    if (!memory) {
        SW_CHECK(!"out of memory");
        sw_model_free(asset);
        return 0;
    }
    sw_pose pose;
    sw_pose_bind(&pose, &sizes, memory);
    size_t clip_count = asset->animation_count ? asset->animation_count : 1;
    for (size_t clip = 0; clip < clip_count; clip++) {
        for (int step = 0; step < 3; step++) {
            /* rest pose, the clip sampled at t as given (looping = false), world matrices, palettes */
            const sw_clip* c = asset->animation_count ? &asset->animations[clip] : NULL;
            float t = c ? c->start + c->duration * (0.15f + 0.35f * (float)step) : 0.0f;
            SW_CHECK(sw_pose_evaluate(asset, c, t, false, &pose, &d) == SW_OK);
            for (size_t node = 0; node < asset->node_count; node++) {
                const sw_model_node* nd = &asset->nodes[node];
                if (nd->mesh < 0) continue;
                const sw_model_mesh* mesh = &asset->meshes[nd->mesh];
                for (size_t pi = 0; pi < mesh->primitive_count; pi++) {
                    const sw_model_primitive* prim = &mesh->primitives[pi];
                    const size_t n = prim->vertex_count;
                    if (n == 0) continue;
                    /* CPU */
                    float* cp = malloc(n * 12), *cn = prim->normals ? malloc(n * 12) : NULL;
                    void* scratch = aligned_alloc(16, (sw_deform_scratch_size(asset, node, pi) + 16) & ~(size_t)15);
                    sw_deform def = {.node = node, .primitive = pi, .method = method, .scratch = scratch,
                                     .out_positions = cp, .out_normals = cn};
                    SW_CHECK(sw_deform_primitive(asset, &pose, &def, &d) == SW_OK);
                    /* GPU */
                    sw_gpu_model_primitive* gpu = NULL;
                    bool ok = sw_gpu_model_primitive_create(g_skinner, asset, node, pi, &gpu, &d) == SW_OK &&
                              sw_gpu_model_primitive_pose(gpu, &pose, &d) == SW_OK;
                    float* gp = malloc(n * 12), *gn = prim->normals ? malloc(n * 12) : NULL;
                    for (int route = 0; ok && route < 2; route++) {
                        sw_gpu_skin_desc sd = {.method = method, .path = (sw_gpu_skin_path)route};
                        ok = sw_gpu_model_primitive_skin(g_skinner, gpu, &sd, NULL, &d) == SW_OK &&
                             sw_gpu_instance_read(sw_gpu_model_primitive_instance(gpu), gp, NULL, gn, NULL, &d) == SW_OK;
                        if (!ok) break;
                        char label[256];
                        snprintf(label, sizeof label, "%s clip %zu step %d node %zu prim %zu %s %s", relative, clip, step,
                                 node, pi, method == SW_SKIN_DQS ? "DQS" : "LBS", route ? "vertex shader" : "compute");
                        check_streams(label, n, cp, gp, cn, gn, NULL, NULL);
                        compared++;
                    }
                    if (!ok) fprintf(stderr, "  %s: %s\n", relative, d.message);
                    SW_CHECK(ok);
                    sw_gpu_model_primitive_destroy(gpu);
                    free(cp), free(cn), free(gp), free(gn), free(scratch);
                }
            }
        }
    }
    free(memory);
    sw_model_free(asset);
    return compared;
}

/* sw_gl_compile_shader / sw_gl_link_program: a good compute shader builds;
   a broken one fails with one line naming it, and leaves nothing bound. */
static void test_shader_helpers(void) {
    const char* good[2] = {"#version 430\nlayout(local_size_x = 1) in;\n",
                           "layout(std430, binding = 0) buffer B { float v[]; };\nvoid main() { v[0] = 1.0; }\n"};
    uint32_t shader = 0;
    sw_diag d = {0};
    SW_CHECK(sw_gl_compile_shader(GL_COMPUTE_SHADER, 2, good, "good", &shader, &d) == SW_OK && shader != 0);
    uint32_t program = glCreateProgram();
    glAttachShader(program, shader);
    SW_CHECK(sw_gl_link_program(program, "good", &d) == SW_OK);
    SW_CHECK(glIsProgram(program));
    glDeleteProgram(program);
    glDeleteShader(shader);
    const char* bad[1] = {"#version 430\nlayout(local_size_x = 1) in;\nvoid main() { undeclared = 1; }\n"};
    shader = 7;
    SW_CHECK(sw_gl_compile_shader(GL_COMPUTE_SHADER, 1, bad, "broken", &shader, &d) == SW_ERR_IO);
    SW_CHECK(shader == 7); /* untouched */
    SW_CHECK(strncmp(d.message, "compiling broken failed: ", 25) == 0 && strchr(d.message, '\n') == NULL);
    /* A program with no shader attached does not link. */
    program = glCreateProgram();
    SW_CHECK(sw_gl_link_program(program, "empty", &d) == SW_ERR_IO);
    SW_CHECK(strncmp(d.message, "linking empty failed: ", 22) == 0 && strchr(d.message, '\n') == NULL);
    SW_CHECK(!glIsProgram(program)); /* deleted */
    SW_CHECK(sw_gl_check("shader helpers", &d) == SW_OK);
}

static void test_shared_assets(void) {
    if (!getenv("SINEW_ASSETS")) SW_SKIP("SINEW_ASSETS is not set (the shared test assets)");
    static const char* const files[] = {
        "gltf/khronos/cesium_man.gltf",
        "gltf/khronos/rigged_simple.gltf",
        "gltf/synthetic/eight_influences.glb",
        "gltf/synthetic/morph_skin.glb",
        "gltf/assimp/AnimatedMorphCube-glTF/AnimatedMorphCube.gltf",
        "gltf/cc0/robot.glb",
        "gltf/cc0/greenman.glb",
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        size_t lbs = compare_asset(files[i], SW_SKIN_LBS);
        size_t dqs = compare_asset(files[i], SW_SKIN_DQS);
        fprintf(stderr, "  %s: %zu LBS and %zu DQS comparisons\n", files[i], lbs, dqs);
        SW_CHECK(lbs > 0 && dqs > 0);
    }
}

int main(void) {
    int early = sw_test_gl_begin(&g_context);
    sw_diag d = {0};
    if (early >= 0) return early;
    sw_gl_context_info info;
    sw_gl_context_get_info(g_context, &info);
    fprintf(stderr, "GL %s on %s (EGL platform %s)\n", info.gl_version, info.gl_renderer, info.platform);
    if (sw_gpu_skinner_create(&g_skinner, &d) != SW_OK) {
        fprintf(stderr, "GPU skinner: %s\n", d.message);
        return 1;
    }
    SW_RUN(test_hand_computed_lbs);
    SW_RUN(test_lbs_and_dqs_every_influence_count);
    SW_RUN(test_joint_and_weight_formats);
    SW_RUN(test_scaled_palette_cofactor_and_stretch);
    SW_RUN(test_morph_targets_before_skinning);
    SW_RUN(test_skin_cache_and_previous_positions);
    SW_RUN(test_bad_arguments);
    SW_RUN(test_shader_helpers);
    SW_RUN(test_shared_assets);
    sw_gpu_skinner_destroy(g_skinner);
    sw_gl_context_destroy(g_context);
    return sw_test_finish();
}
