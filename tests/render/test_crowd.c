/* Crowds on the GPU (sinew/gpu.h "Crowds", sw_render_frame.crowd.count):
     - one compute dispatch over N instances with different poses gives,
       instance by instance, what N single-instance dispatches give (within
       1e-6; positions, normals, tangents; LBS and DQS), and a placement
       moves an instance by exactly its translation;
     - the renderer's instanced crowd: two copies on top of each other at
       one pose draw the single character's picture; four copies on a grid
       cover more of the image than one; the same crowd frame twice gives
       the same bytes.
   Uses the built-in demo character (no assets). Skips, saying so, only
   when no EGL display exists at all. */
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

#define COPIES 4

static sw_gl_context* g_context;
static sw_model* g_demo;
static sw_pose g_poses[COPIES];
static void* g_pose_memory;

static const sw_clip* walk_clip(void) {
    for (size_t i = 0; i < g_demo->animation_count; i++)
        if (g_demo->animations[i].name && strcmp(g_demo->animations[i].name, "walk") == 0) return &g_demo->animations[i];
    return g_demo->animation_count ? &g_demo->animations[0] : NULL;
}

/* The demo character, and COPIES poses of its walk at different times. */
static bool load_demo(void) {
    uint8_t* glb = NULL;
    size_t size = 0;
    sw_diag d;
    bool ok = sw_demo_character_glb(&glb, &size, &d) == SW_OK &&
              sw_gltf_load_memory(glb, size, SW_DEMO_CHARACTER_NAME, NULL, NULL, &g_demo, &d) == SW_OK;
    sw_demo_character_glb_free(glb);
    if (!ok) {
        fprintf(stderr, "demo: %s\n", d.message);
        return false;
    }
    sw_pose_sizes sizes = sw_pose_sizes_of(g_demo);
    size_t stride = sw_pose_memory_size(&sizes);
    g_pose_memory = aligned_alloc(16, stride * COPIES);
    for (int i = 0; i < COPIES; i++) {
        sw_pose_bind(&g_poses[i], &sizes, (uint8_t*)g_pose_memory + (size_t)i * stride);
        if (sw_pose_evaluate(g_demo, walk_clip(), 0.23f * (float)i, true, &g_poses[i], &d) != SW_OK) return false;
    }
    return true;
}

static float max_difference(const float* a, const float* b, size_t n, const float* shift) {
    float worst = 0.0f;
    for (size_t i = 0; i < n; i++) {
        float e = fabsf(a[i] - (b[i] + (shift ? shift[i % 3] : 0.0f)));
        if (!(e <= worst)) worst = e; /* NaN sticks */
    }
    return worst;
}

/* ---- one dispatch for all instances = one dispatch per instance ---- */

static void check_primitive(sw_gpu_skinner* skinner, size_t node, size_t primitive, sw_skin_method method) {
    const sw_model_primitive* prim = &g_demo->meshes[g_demo->nodes[node].mesh].primitives[primitive];
    const size_t n = prim->vertex_count;
    sw_diag d;
    sw_gpu_model_primitive* crowd = NULL;
    sw_gpu_model_primitive* placed = NULL;
    sw_gpu_model_primitive* single[COPIES] = {NULL};
    float* got = malloc(n * COPIES * 10 * sizeof(float));
    float* moved = malloc(n * COPIES * 3 * sizeof(float));
    float* want = malloc(n * 10 * sizeof(float));
    const sw_pose* poses[COPIES];
    sw_mat34 placements[COPIES];
    float shifts[COPIES][3];
    for (int i = 0; i < COPIES; i++) {
        poses[i] = &g_poses[i];
        shifts[i][0] = 2.0f * (float)i, shifts[i][1] = 0.0f, shifts[i][2] = -1.5f * (float)(i % 2);
        placements[i] = sw_mat34_translation(sw_vec3_make(shifts[i][0], shifts[i][1], shifts[i][2]));
    }
    sw_gpu_skin_desc desc = {.method = method};
    bool ok = got && moved && want &&
              sw_gpu_model_primitive_create_crowd(skinner, g_demo, node, primitive, NULL, COPIES, &crowd, &d) == SW_OK &&
              sw_gpu_model_primitive_create_crowd(skinner, g_demo, node, primitive, NULL, COPIES, &placed, &d) == SW_OK &&
              sw_gpu_model_primitive_pose_crowd(crowd, poses, NULL, COPIES, &d) == SW_OK &&
              sw_gpu_model_primitive_pose_crowd(placed, poses, placements, COPIES, &d) == SW_OK &&
              sw_gpu_model_primitive_skin(skinner, crowd, &desc, NULL, &d) == SW_OK &&
              sw_gpu_model_primitive_skin(skinner, placed, &desc, NULL, &d) == SW_OK;
    float* normals = got + n * COPIES * 3;
    float* tangents = got + n * COPIES * 6;
    ok = ok && sw_gpu_instance_read(sw_gpu_model_primitive_instance(crowd), got, NULL, prim->normals ? normals : NULL,
                                    prim->tangents ? tangents : NULL, &d) == SW_OK;
    ok = ok && sw_gpu_instance_read(sw_gpu_model_primitive_instance(placed), moved, NULL, NULL, NULL, &d) == SW_OK;
    SW_CHECK(sw_gpu_model_primitive_instance_count(crowd) == COPIES);
    for (int i = 0; ok && i < COPIES; i++) {
        ok = sw_gpu_model_primitive_create(skinner, g_demo, node, primitive, &single[i], &d) == SW_OK &&
             sw_gpu_model_primitive_pose(single[i], poses[i], &d) == SW_OK &&
             sw_gpu_model_primitive_skin(skinner, single[i], &desc, NULL, &d) == SW_OK &&
             sw_gpu_instance_read(sw_gpu_model_primitive_instance(single[i]), want, NULL,
                                  prim->normals ? want + n * 3 : NULL, prim->tangents ? want + n * 6 : NULL, &d) == SW_OK;
        if (!ok) break;
        SW_CHECK_NEAR(max_difference(got + (size_t)i * n * 3, want, n * 3, NULL), 0.0, 1e-6);
        if (prim->normals) SW_CHECK_NEAR(max_difference(normals + (size_t)i * n * 3, want + n * 3, n * 3, NULL), 0.0, 1e-6);
        if (prim->tangents) SW_CHECK_NEAR(max_difference(tangents + (size_t)i * n * 4, want + n * 6, n * 4, NULL), 0.0, 1e-6);
        /* Placed: the same shape, moved by the placement's translation
           (a few ulps of the 2..6 m offsets). */
        SW_CHECK_NEAR(max_difference(moved + (size_t)i * n * 3, want, n * 3, shifts[i]), 0.0, 4e-6);
    }
    /* Different times, different shapes: copy 1 is not copy 0. */
    if (ok) SW_CHECK(max_difference(got, got + n * 3, n * 3, NULL) > 1e-3f);
    if (!ok) fprintf(stderr, "  node %zu primitive %zu: %s\n", node, primitive, d.message);
    SW_CHECK(ok);
    for (int i = 0; i < COPIES; i++) sw_gpu_model_primitive_destroy(single[i]);
    sw_gpu_model_primitive_destroy(crowd);
    sw_gpu_model_primitive_destroy(placed);
    free(got), free(moved), free(want);
}

static void test_dispatch_equals_single(void) {
    sw_gpu_skinner* skinner = NULL;
    sw_diag d;
    SW_CHECK(sw_gpu_skinner_create(&skinner, &d) == SW_OK);
    if (!skinner) return;
    size_t checked = 0;
    for (size_t node = 0; node < g_demo->node_count; node++) {
        if (g_demo->nodes[node].mesh < 0 || g_demo->nodes[node].skin < 0) continue;
        const sw_model_mesh* mesh = &g_demo->meshes[g_demo->nodes[node].mesh];
        /* Two primitives each way keep the test short; every one in the render test below. */
        for (size_t p = 0; p < mesh->primitive_count && p < 2; p++) {
            check_primitive(skinner, node, p, SW_SKIN_LBS);
            check_primitive(skinner, node, p, SW_SKIN_DQS);
            checked++;
        }
    }
    SW_CHECK(checked > 0);

    /* A palette of the wrong size and the vertex-shader path are refused. */
    const sw_model_primitive* prim = &g_demo->meshes[0].primitives[0];
    sw_gpu_morph_target* targets = calloc(prim->target_count + 1, sizeof *targets);
    sw_gpu_mesh_desc md;
    sw_gpu_mesh_desc_from_primitive(prim, targets, &md);
    md.target_count = 0, md.targets = NULL;
    free(targets);
    sw_gpu_mesh* mesh = NULL;
    sw_gpu_instance* instance = NULL;
    sw_gpu_palette* one = NULL;
    sw_gpu_palette* three = NULL;
    SW_CHECK(sw_gpu_mesh_create(&md, &mesh, &d) == SW_OK);
    SW_CHECK(sw_gpu_instance_create_crowd(mesh, 3, &instance, &d) == SW_OK);
    SW_CHECK(sw_gpu_palette_create(skinner, 64, &one, &d) == SW_OK);
    SW_CHECK(sw_gpu_palette_create_crowd(skinner, 64, 3, &three, &d) == SW_OK);
    sw_mat34 identity[3 * 64];
    for (int j = 0; j < 3 * 64; j++) identity[j] = sw_mat34_identity();
    SW_CHECK(sw_gpu_palette_update(one, identity, NULL, NULL, &d) == SW_OK);
    SW_CHECK(sw_gpu_palette_update(three, identity, NULL, NULL, &d) == SW_OK);
    SW_CHECK(sw_gpu_skin(skinner, instance, one, NULL, NULL, &d) == SW_ERR_INVALID_ARGUMENT);
    SW_CHECK(sw_gpu_skin(skinner, instance, three, &(sw_gpu_skin_desc){.path = SW_GPU_PATH_VERTEX_SHADER}, NULL, &d) ==
             SW_ERR_UNSUPPORTED);
    SW_CHECK(sw_gpu_skin(skinner, instance, three, NULL, NULL, &d) == SW_OK);
    sw_gpu_instance_buffers b;
    sw_gpu_instance_get_buffers(instance, &b);
    SW_CHECK(b.instance_count == 3 && b.vertex_count == prim->vertex_count);
    sw_gpu_palette_destroy(one), sw_gpu_palette_destroy(three);
    sw_gpu_instance_destroy(instance);
    sw_gpu_mesh_destroy(mesh);
    sw_gpu_skinner_destroy(skinner);
}

/* ---- the renderer's instanced crowd ---- */

#define W 128
#define H 96

typedef struct picture {
    uint8_t rgba[W * H * 4];
    uint8_t classes[W * H];
} picture;

static bool draw(sw_renderer* r, const sw_render_frame* f, picture* out) {
    sw_diag d;
    bool ok = sw_renderer_draw(r, f, &d) == SW_OK && sw_renderer_read_image(r, out->rgba, &d) == SW_OK &&
              sw_renderer_read_class(r, out->classes, &d) == SW_OK;
    if (!ok) fprintf(stderr, "  draw: %s\n", d.message);
    return ok;
}

static size_t character_pixels(const picture* p) {
    size_t count = 0;
    for (size_t i = 0; i < W * H; i++) {
        int c = p->classes[i] & SW_RENDER_CLASS_MASK;
        count += c != SW_RENDER_CLASS_BACKGROUND && c != SW_RENDER_CLASS_GROUND;
    }
    return count;
}

static void test_renderer_crowd(void) {
    sw_diag d;
    sw_renderer* r = NULL;
    static picture single, stacked, grid, again;
    sw_material_set materials = {0};
    SW_CHECK(sw_renderer_create(&(sw_renderer_desc){.width = W, .height = H, .shadow_map_size = 256}, &r, &d) == SW_OK);
    if (!r || sw_material_set_read(g_demo, &materials, &d) != SW_OK ||
        sw_renderer_set_scene(r, g_demo, &materials, &d) != SW_OK) {
        fprintf(stderr, "  renderer: %s\n", d.message);
        SW_CHECK(0);
        sw_renderer_destroy(r);
        sw_material_set_free(&materials);
        return;
    }
    /* One box for all pictures: a 2 × 2 grid 1.2 m apart around the character. */
    float lo[3], hi[3];
    SW_CHECK(sw_renderer_scene_bounds(r, &g_poses[0], lo, hi, &d) == SW_OK);
    hi[0] += 1.2f, hi[2] += 1.2f;
    sw_renderer_set_scene_box(r, lo, hi);
    sw_camera camera;
    sw_camera_frame_bounds(lo, hi, 25.0f, 20.0f, (float)W / H, &camera);
    /* AO off: the single character's shape proxies darken what is near
       her (a crowd has none; two copies in one place would occlude twice). */
    sw_render_frame frame = {.pose = &g_poses[0], .camera.current = camera, .camera.previous = camera, .first_frame = true,
                             .shading.style = SW_RENDER_STYLE_AUTO, .shading.ao = SW_RENDER_AO_OFF};
    bool ok = draw(r, &frame, &single);

    /* Two copies at the same pose, at the same place: the same picture. */
    const sw_pose* same[2] = {&g_poses[0], &g_poses[0]};
    sw_render_frame crowd = frame;
    crowd.crowd.count = 2, crowd.crowd.poses = same;
    /* The crowd's GPU objects are made before its frames, never by a draw. */
    SW_CHECK(sw_renderer_draw(r, &crowd, &d) == SW_ERR_INVALID_ARGUMENT);
    SW_CHECK(sw_renderer_set_crowd(r, 2, &d) == SW_OK);
    ok = ok && draw(r, &crowd, &stacked);
    if (ok) {
        int worst = 0;
        for (size_t i = 0; i < sizeof single.rgba; i++) {
            int e = abs((int)single.rgba[i] - (int)stacked.rgba[i]);
            worst = e > worst ? e : worst;
        }
        SW_CHECK_EQ_INT(worst, 0);
        SW_CHECK(memcmp(single.classes, stacked.classes, sizeof single.classes) == 0);
    }

    /* Four copies, four poses, on the grid: more character on screen, and
       the same bytes when drawn again. */
    const sw_pose* poses[COPIES];
    sw_mat34 placements[COPIES];
    for (int i = 0; i < COPIES; i++) {
        poses[i] = &g_poses[i];
        placements[i] = sw_mat34_translation(sw_vec3_make(1.2f * (float)(i % 2), 0.0f, 1.2f * (float)(i / 2)));
    }
    crowd.crowd.count = COPIES, crowd.crowd.poses = poses, crowd.crowd.placements = placements;
    SW_CHECK(sw_renderer_set_crowd(r, COPIES, &d) == SW_OK);
    ok = ok && draw(r, &crowd, &grid) && draw(r, &crowd, &again);
    if (ok) {
        size_t one = character_pixels(&single), four = character_pixels(&grid);
        fprintf(stderr, "  character pixels: one %zu, crowd of four %zu\n", one, four);
        SW_CHECK(one > 100);
        SW_CHECK(four > 2 * one);
        SW_CHECK(memcmp(grid.rgba, again.rgba, sizeof grid.rgba) == 0);
        sw_renderer_stats st;
        sw_renderer_get_stats(r, &st);
        SW_CHECK(st.skin.dispatched > 0);
    }
    /* A crowd without poses is refused. */
    crowd.crowd.poses = NULL;
    SW_CHECK(sw_renderer_draw(r, &crowd, &d) == SW_ERR_INVALID_ARGUMENT);
    SW_CHECK(ok);
    sw_renderer_destroy(r);
    sw_material_set_free(&materials);
}

int main(void) {
    int early = sw_test_gl_begin(&g_context);
    if (early >= 0) return early;
    if (!load_demo()) {
        fprintf(stderr, "could not load the demo character\n");
        return 1;
    }
    SW_RUN(test_dispatch_equals_single);
    SW_RUN(test_renderer_crowd);
    free(g_pose_memory);
    sw_model_free(g_demo);
    sw_gl_context_destroy(g_context);
    return sw_test_finish();
}
