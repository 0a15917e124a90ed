/* What the renderer is handed ready instead of making it while drawing:
     - a material set (sinew/materials.h, sw_material_set_read): every
       material's toon data exactly as sw_toon_read gives it, every image a
       texture names decoded once (failed ones marked), and the renderer
       counting failures from it, opening no file itself;
     - one palette per skin (sinew/gpu.h, "Model palettes"): the demo
       character's six primitives on one skin are skinned from one GPU
       palette uploaded once per pose (its revision counts the uploads),
       dual quaternions computed and uploaded only at the first DQS
       skinning of a pose, and every primitive's vertices equal to
       sw_deform_primitive's on the CPU;
     - the retention view's values (sw_skin_vertex_retention) against the
       closed form at two influences.
   Skips, saying so, only when no EGL display exists at all. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "gl_harness.h"
#include "sinew/demo.h"
#include "sinew/gltf.h"
#include "sinew/import.h"
#include "sinew/render.h"

static sw_gl_context* g_context;

static sw_model* load_demo(void) {
    uint8_t* glb = NULL;
    size_t size = 0;
    sw_diag d = {0};
    sw_model* model = NULL;
    bool ok = sw_demo_character_glb(&glb, &size, &d) == SW_OK &&
              sw_gltf_load_memory(glb, size, SW_DEMO_CHARACTER_NAME, NULL, NULL, &model, &d) == SW_OK;
    sw_demo_character_glb_free(glb);
    if (!ok) fprintf(stderr, "  demo: %s\n", d.message);
    SW_CHECK(ok);
    return model;
}

/* ---- material sets ------------------------------------------------------------------ */

/* The demo: the set's toon data is sw_toon_read's, byte for byte; every
   image is decoded, to the size sw_model_decode_image gives. */
static void test_demo_material_set(void) {
    sw_model* model = load_demo();
    if (!model) return;
    sw_material_set set;
    sw_diag d = {0};
    SW_CHECK(sw_material_set_read(model, &set, &d) == SW_OK);
    SW_CHECK_EQ_INT(set.material_count, model->material_count);
    SW_CHECK_EQ_INT(set.image_count, model->image_count);
    sw_toon_material* toon = calloc(model->material_count + 1, sizeof *toon);
    SW_CHECK(toon && sw_toon_read(model, toon, &d) == SW_OK);
    for (size_t m = 0; toon && m < model->material_count; m++) {
        SW_CHECK(set.toon[m].present);
        SW_CHECK(memcmp(&set.toon[m], &toon[m], sizeof toon[m]) == 0);
    }
    for (size_t i = 0; i < set.image_count; i++) {
        uint8_t* pixels = NULL;
        int w = 0, h = 0;
        SW_CHECK(sw_model_decode_image(model, i, &pixels, &w, &h, &d) == SW_OK);
        SW_CHECK(!set.images[i].failed && set.images[i].pixels);
        SW_CHECK(set.images[i].width == w && set.images[i].height == h);
        if (pixels && set.images[i].pixels)
            SW_CHECK(memcmp(pixels, set.images[i].pixels, (size_t)w * (size_t)h * 4) == 0);
        sw_model_image_free(pixels);
    }
    free(toon);
    sw_material_set_free(&set);
    SW_CHECK(set.toon == NULL && set.images == NULL && set.material_count == 0);
    sw_model_free(model);
}

/* texture_missing.gltf: a file that is not there and a data URI that is
   not a PNG. The set marks both failed; the renderer draws them white and
   counts two failures from the set, none without one. A set of another
   model's counts is refused. */
static void test_failed_images(void) {
    sw_model* model = NULL;
    sw_diag d = {0};
    SW_CHECK(sw_gltf_load_file(SW_TEST_DATA_DIR "/gltf/texture_missing.gltf", NULL, &model, &d) == SW_OK);
    if (!model) return;
    sw_material_set set;
    SW_CHECK(sw_material_set_read(model, &set, &d) == SW_OK);
    SW_CHECK_EQ_INT(set.image_count, 2);
    for (size_t i = 0; i < set.image_count; i++) SW_CHECK(set.images[i].failed && !set.images[i].pixels);
    sw_renderer* r = NULL;
    SW_CHECK(sw_renderer_create(&(sw_renderer_desc){.width = 32, .height = 32, .shadow_map_size = 64}, &r, &d) ==
             SW_OK);
    sw_renderer_stats st;
    SW_CHECK(sw_renderer_set_scene(r, model, &set, &d) == SW_OK);
    sw_renderer_get_stats(r, &st);
    SW_CHECK_EQ_INT(st.texture_failures, 2);
    SW_CHECK_EQ_INT(st.textures, 0);
    SW_CHECK(sw_renderer_set_scene(r, model, NULL, &d) == SW_OK);
    sw_renderer_get_stats(r, &st);
    SW_CHECK_EQ_INT(st.texture_failures, 0);
    sw_material_set wrong = set;
    wrong.image_count = 1;
    SW_CHECK(sw_renderer_set_scene(r, model, &wrong, &d) == SW_ERR_INVALID_ARGUMENT);
    sw_renderer_destroy(r);
    sw_material_set_free(&set);
    sw_model_free(model);
}

/* ---- one palette per skin ------------------------------------------------------------- */

typedef struct demo_gpu {
    sw_gpu_skinner* skinner;
    sw_gpu_model_palette* palette;
    sw_gpu_model_primitive* prims[8];
    size_t nodes[8], primitives[8];
    size_t count;
} demo_gpu;

/* Skins every primitive with `method`; returns how many dispatched. */
static size_t skin_all(demo_gpu* g, const sw_pose* pose, sw_skin_method method) {
    size_t dispatched = 0;
    sw_diag d = {0};
    for (size_t i = 0; i < g->count; i++) {
        bool ran = false;
        sw_gpu_skin_desc desc = {.method = method};
        SW_CHECK(sw_gpu_model_primitive_pose(g->prims[i], pose, &d) == SW_OK);
        SW_CHECK(sw_gpu_model_primitive_skin(g->skinner, g->prims[i], &desc, &ran, &d) == SW_OK);
        dispatched += ran;
    }
    return dispatched;
}

/* The largest difference between every primitive's GPU positions and
   sw_deform_primitive's at `pose`. */
static float worst_against_cpu(const demo_gpu* g, const sw_model* model, const sw_pose* pose, sw_skin_method method) {
    float worst = 0.0f;
    sw_diag d = {0};
    for (size_t i = 0; i < g->count; i++) {
        const sw_model_primitive* prim = &model->meshes[model->nodes[g->nodes[i]].mesh].primitives[g->primitives[i]];
        const size_t n = prim->vertex_count;
        float* cpu = malloc(n * 12);
        float* gpu = malloc(n * 12);
        void* scratch = aligned_alloc(16, (sw_deform_scratch_size(model, g->nodes[i], g->primitives[i]) + 16) & ~(size_t)15);
        sw_deform def = {.node = g->nodes[i], .primitive = g->primitives[i], .method = method, .scratch = scratch,
                         .out_positions = cpu};
        bool ok = cpu && gpu && scratch && sw_deform_primitive(model, pose, &def, &d) == SW_OK &&
                  sw_gpu_instance_read(sw_gpu_model_primitive_instance(g->prims[i]), gpu, NULL, NULL, NULL, &d) == SW_OK;
        SW_CHECK(ok);
        for (size_t k = 0; ok && k < n * 3; k++) worst = fmaxf(worst, fabsf(cpu[k] - gpu[k]));
        free(cpu), free(gpu), free(scratch);
    }
    return worst;
}

static void test_one_palette_per_skin(void) {
    sw_model* model = load_demo();
    if (!model) return;
    demo_gpu g = {0};
    sw_diag d = {0};
    SW_CHECK(sw_gpu_skinner_create(&g.skinner, &d) == SW_OK);
    SW_CHECK(model->skin_count == 1);
    SW_CHECK(sw_gpu_model_palette_create_skin(g.skinner, model, 0, 1, &g.palette, &d) == SW_OK);
    for (size_t n = 0; g.palette && n < model->node_count; n++) {
        if (model->nodes[n].mesh < 0) continue;
        for (size_t p = 0; p < model->meshes[model->nodes[n].mesh].primitive_count && g.count < 8; p++) {
            g.nodes[g.count] = n, g.primitives[g.count] = p;
            SW_CHECK(sw_gpu_model_primitive_create_shared(g.skinner, g.palette, n, p, NULL, &g.prims[g.count], &d) ==
                     SW_OK);
            g.count++;
        }
    }
    SW_CHECK_EQ_INT(g.count, 6);
    /* A rigid node's palette does not fit a skinned primitive. */
    sw_gpu_model_palette* rigid = NULL;
    sw_gpu_model_primitive* misfit = NULL;
    SW_CHECK(sw_gpu_model_palette_create_node(g.skinner, model, g.nodes[0], 1, &rigid, &d) == SW_OK);
    SW_CHECK(sw_gpu_model_primitive_create_shared(g.skinner, rigid, g.nodes[0], 0, NULL, &misfit, &d) ==
             SW_ERR_INVALID_ARGUMENT);
    SW_CHECK(misfit == NULL);
    sw_gpu_model_palette_destroy(rigid);

    sw_pose_sizes sizes = sw_pose_sizes_of(model);
    void* memory = aligned_alloc(16, (sw_pose_memory_size(&sizes) * 2 + 15) / 16 * 16);
    sw_pose a, b;
    sw_pose_bind(&a, &sizes, memory);
    sw_pose_bind(&b, &sizes, (uint8_t*)memory + sw_pose_memory_size(&sizes));
    const sw_clip* twist = NULL;
    for (size_t i = 0; i < model->animation_count; i++)
        if (model->animations[i].name && strcmp(model->animations[i].name, "twist") == 0) twist = &model->animations[i];
    SW_CHECK(twist && sw_pose_evaluate(model, twist, 0.8f, false, &a, &d) == SW_OK &&
             sw_pose_evaluate(model, twist, 1.1f, false, &b, &d) == SW_OK);
    const sw_pose* pa = &a;
    const sw_pose* pb = &b;

    /* Posing uploads nothing; the first LBS skinning uploads the
       matrices once for all six primitives. */
    const uint64_t start = sw_gpu_model_palette_revision(g.palette);
    SW_CHECK(sw_gpu_model_palette_pose(g.palette, &pa, NULL, 1, &d) == SW_OK);
    SW_CHECK_EQ_INT(sw_gpu_model_palette_revision(g.palette) - start, 0);
    SW_CHECK_EQ_INT(skin_all(&g, &a, SW_SKIN_LBS), 6);
    SW_CHECK_EQ_INT(sw_gpu_model_palette_revision(g.palette) - start, 1);
    float lbs = worst_against_cpu(&g, model, &a, SW_SKIN_LBS);
    /* The same pose again: no upload, and the skin cache skips all six. */
    SW_CHECK(sw_gpu_model_palette_pose(g.palette, &pa, NULL, 1, &d) == SW_OK);
    SW_CHECK_EQ_INT(skin_all(&g, &a, SW_SKIN_LBS), 0);
    SW_CHECK_EQ_INT(sw_gpu_model_palette_revision(g.palette) - start, 1);
    /* DQS at that pose: its dual quaternions once, for all six. */
    SW_CHECK_EQ_INT(skin_all(&g, &a, SW_SKIN_DQS), 6);
    SW_CHECK_EQ_INT(sw_gpu_model_palette_revision(g.palette) - start, 2);
    float dqs = worst_against_cpu(&g, model, &a, SW_SKIN_DQS);
    SW_CHECK_EQ_INT(skin_all(&g, &a, SW_SKIN_LBS), 6); /* the method changed: dispatched, nothing uploaded */
    SW_CHECK_EQ_INT(sw_gpu_model_palette_revision(g.palette) - start, 2);
    /* A new pose skinned DQS: matrices and dual quaternions in one upload. */
    SW_CHECK(sw_gpu_model_palette_pose(g.palette, &pb, NULL, 1, &d) == SW_OK);
    SW_CHECK_EQ_INT(skin_all(&g, &b, SW_SKIN_DQS), 6);
    SW_CHECK_EQ_INT(sw_gpu_model_palette_revision(g.palette) - start, 3);
    float dqs_b = worst_against_cpu(&g, model, &b, SW_SKIN_DQS);
    fprintf(stderr, "  largest difference from the CPU: LBS %g, DQS %g and %g (m)\n", (double)lbs, (double)dqs,
            (double)dqs_b);
    SW_CHECK(lbs < 1e-4f && dqs < 1e-4f && dqs_b < 1e-4f);
    /* Twisted forearms: DQS and LBS differ there, so the two were compared apart. */
    SW_CHECK_EQ_INT(skin_all(&g, &b, SW_SKIN_LBS), 6);
    SW_CHECK(worst_against_cpu(&g, model, &b, SW_SKIN_DQS) > 1e-3f);

    free(memory);
    for (size_t i = 0; i < g.count; i++) sw_gpu_model_primitive_destroy(g.prims[i]);
    sw_gpu_model_palette_destroy(g.palette);
    sw_gpu_skinner_destroy(g.skinner);
    sw_model_free(model);
}

/* ---- the retention view ---------------------------------------------------------------- */

/* The angle between two skin matrices' rotations (the demo's joints do not
   scale): acos((tr(AᵀB) − 1) / 2). */
static double rotation_between(const sw_mat34* a, const sw_mat34* b) {
    double trace = 0.0;
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) trace += (double)a->m[r][c] * (double)b->m[r][c];
    double cosine = (trace - 1.0) / 2.0;
    return acos(cosine < -1.0 ? -1.0 : cosine > 1.0 ? 1.0 : cosine);
}

/* The values the retention view draws, read back, against the closed form
   at two influences, sqrt(1 − 2w(1−w)(1 − cos φ)) (sw_lbs_retention), φ
   the angle between the two joints' rotations; 1 at one influence. The
   twist clip turns the forearms far apart, so some vertices lose most of
   their radius. */
static void test_retention_view(void) {
    sw_model* model = load_demo();
    if (!model) return;
    sw_material_set set;
    sw_renderer* r = NULL;
    sw_diag d = {0};
    SW_CHECK(sw_material_set_read(model, &set, &d) == SW_OK);
    SW_CHECK(sw_renderer_create(&(sw_renderer_desc){.width = 64, .height = 64, .shadow_map_size = 64}, &r, &d) == SW_OK &&
             sw_renderer_set_scene(r, model, &set, &d) == SW_OK);
    sw_pose_sizes sizes = sw_pose_sizes_of(model);
    void* memory = aligned_alloc(16, (sw_pose_memory_size(&sizes) + 15) / 16 * 16);
    sw_pose pose;
    sw_pose_bind(&pose, &sizes, memory);
    const sw_clip* twist = NULL;
    for (size_t i = 0; i < model->animation_count; i++)
        if (model->animations[i].name && strcmp(model->animations[i].name, "twist") == 0) twist = &model->animations[i];
    SW_CHECK(twist && sw_pose_evaluate(model, twist, 1.0f, false, &pose, &d) == SW_OK);
    sw_render_frame frame = {.pose = &pose, .first_frame = true, .debug.view = SW_RENDER_VIEW_RETENTION};
    const float lo[3] = {-1, 0, -1}, hi[3] = {1, 2, 1};
    sw_camera_frame_bounds(lo, hi, 0.0f, 10.0f, 1.0f, &frame.camera.current);
    frame.camera.previous = frame.camera.current;
    SW_CHECK(sw_renderer_draw(r, &frame, &d) == SW_OK);
    size_t two = 0, one = 0;
    float worst = 0.0f, least = 1.0f;
    for (size_t n = 0; n < model->node_count; n++) {
        const sw_model_node* node = &model->nodes[n];
        if (node->mesh < 0 || node->skin < 0) continue;
        const sw_model_skin* skin = &model->skins[node->skin];
        for (size_t p = 0; p < model->meshes[node->mesh].primitive_count; p++) {
            const sw_model_primitive* prim = &model->meshes[node->mesh].primitives[p];
            float* values = malloc(prim->vertex_count * sizeof(float));
            SW_CHECK(values && sw_renderer_read_vertex_values(r, n, p, values, &d) == SW_OK);
            for (size_t v = 0; values && v < prim->vertex_count; v++) {
                const size_t k = (size_t)prim->influence_count;
                size_t used[8], count = 0;
                for (size_t e = 0; e < k && e < 8; e++)
                    if (prim->weights[v * k + e] > 0.0f) used[count++] = e;
                least = fminf(least, values[v]);
                if (count == 1) {
                    one++;
                    worst = fmaxf(worst, fabsf(values[v] - 1.0f));
                } else if (count == 2) {
                    two++;
                    const sw_mat34* palette = pose.skin_matrices + skin->palette_offset;
                    const double w = prim->weights[v * k + used[0]];
                    const double phi = rotation_between(&palette[prim->joints[v * k + used[0]]],
                                                        &palette[prim->joints[v * k + used[1]]]);
                    worst = fmaxf(worst, fabsf(values[v] - (float)sw_lbs_retention(w, phi)));
                }
            }
            free(values);
        }
    }
    fprintf(stderr, "  %zu vertices of one influence, %zu of two; least retention %.3f; largest difference %g\n", one,
            two, (double)least, (double)worst);
    SW_CHECK(one > 100 && two > 100);
    SW_CHECK(least < 0.3f);
    SW_CHECK(worst < 1e-4f);
    free(memory);
    sw_renderer_destroy(r);
    sw_material_set_free(&set);
    sw_model_free(model);
}

int main(void) {
    int early = sw_test_gl_begin(&g_context);
    if (early >= 0) return early;
    SW_RUN(test_demo_material_set);
    SW_RUN(test_failed_images);
    SW_RUN(test_one_palette_per_skin);
    SW_RUN(test_retention_view);
    sw_gl_context_destroy(g_context);
    return sw_test_finish();
}
