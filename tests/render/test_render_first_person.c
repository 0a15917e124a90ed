/* The first-person copy of skinned VRM `auto` meshes
   (sw_renderer_set_erased_joints, sw_render_frame_avatar.headless_nodes)
   on tests/data/vrm/avatar_erase.gltf (make_avatar_files.py). The
   triangles erased per node are three-vrm 3.5.5's: VRMFirstPerson.setup()
   makes each skinned primitive a copy without the triangles that have a
   vertex weighted (> 0) to the head or a joint below it; its copies keep
   Cape 3 of 16 triangles, Cloak 2 of 2 and 3 of 4 (a strip), Helmet 2 and
   2, Visor 2 (tests/reference/vrm_first_person.mjs prints them:
     NODE_PATH=/path/to/node_modules node tests/reference/vrm_first_person.mjs).
   The pictures: looking at the Cape, the centre of a kept triangle draws
   the mesh in both views and in every style, the centre of an erased one
   only in the third-person view; hidden_nodes wins; a frame without
   headless_nodes draws bit for bit what it drew before the copies were
   made. Skips, saying so, only when no EGL display exists at all. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "gl_harness.h"
#include "sinew/gltf.h"
#include "sinew/import.h"
#include "sinew/pose.h"
#include "sinew/render.h"

static sw_gl_context* g_context;

enum { W = 96, H = 96 };

static int32_t node_named(const sw_model* m, const char* name) {
    for (size_t i = 0; i < m->node_count; i++)
        if (m->nodes[i].name && strcmp(m->nodes[i].name, name) == 0) return (int32_t)i;
    return -1;
}

static sw_camera camera(void) {
    sw_camera c = {.eye = {0, 1.4f, 3}, .target = {0, 1.4f, 0}, .up = {0, 1, 0}, .fov_y = 30.0f * 3.14159265f / 180.0f,
                   .z_near = 0.05f, .z_far = 50.0f};
    return c;
}

/* The pixel (rows bottom to top, as read back) where world point (x, y, z) lands. */
static size_t pixel_of(float x, float y, float z) {
    sw_camera c = camera();
    float m[16], clip[4], p[3] = {x, y, z};
    sw_camera_view_projection(&c, (float)W / H, m);
    for (int r = 0; r < 4; r++) clip[r] = m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r];
    const int px = (int)floorf((clip[0] / clip[3] * 0.5f + 0.5f) * W);
    const int py = (int)floorf((clip[1] / clip[3] * 0.5f + 0.5f) * H);
    return (size_t)py * W + (size_t)px;
}

/* The Cape's triangle centres (z 0.2): three its first-person copy keeps,
   three it erases (make_avatar_files.py's grid: vertex rows y 1.0, 1.4,
   1.8, columns x -0.4 .. 0.4 by 0.2). */
static const float k_kept[3][2] = {{-0.2f / 3, 3.4f / 3}, {1.0f / 3, 3.4f / 3}, {0.2f / 3, 5.0f / 3}};
static const float k_erased[3][2] = {{-0.8f / 3, 3.4f / 3}, {0.4f / 3, 3.4f / 3}, {-0.8f / 3, 4.6f / 3}};

typedef struct scene {
    sw_model* model;
    sw_material_set materials;
    void* pose_memory;
    sw_pose pose;
    sw_renderer* renderer;
} scene;

static bool scene_load(scene* s) {
    memset(s, 0, sizeof *s);
    char path[512];
    snprintf(path, sizeof path, "%s/vrm/avatar_erase.gltf", SW_TEST_DATA_DIR);
    sw_diag d = {0};
    if (sw_gltf_load_file(path, NULL, &s->model, &d) != SW_OK || sw_material_set_read(s->model, &s->materials, &d) != SW_OK) {
        fprintf(stderr, "  %s: %s\n", path, d.message);
        return false;
    }
    sw_pose_sizes sizes = sw_pose_sizes_of(s->model);
    s->pose_memory = aligned_alloc(16, (sw_pose_memory_size(&sizes) + 15) / 16 * 16);
    sw_pose_bind(&s->pose, &sizes, s->pose_memory);
    if (sw_pose_evaluate(s->model, NULL, 0.0f, false, &s->pose, &d) != SW_OK ||
        sw_renderer_create(&(sw_renderer_desc){.width = W, .height = H, .shadow_map_size = 256}, &s->renderer, &d) != SW_OK ||
        sw_renderer_set_scene(s->renderer, s->model, &s->materials, &d) != SW_OK) {
        fprintf(stderr, "  %s: %s\n", path, d.message);
        return false;
    }
    return true;
}

static void scene_free(scene* s) {
    sw_renderer_destroy(s->renderer);
    sw_material_set_free(&s->materials);
    sw_model_free(s->model);
    free(s->pose_memory);
}

/* One frame's class bytes and image. */
static bool draw(scene* s, sw_render_style style, const uint8_t* hidden, const uint8_t* headless, uint8_t* cls,
                 uint8_t* rgba) {
    sw_camera c = camera();
    sw_render_frame f = {.pose = &s->pose, .first_frame = true, .camera = {c, c}};
    f.shading.style = style;
    f.avatar.hidden_nodes = hidden;
    f.avatar.headless_nodes = headless;
    sw_diag d = {0};
    bool ok = sw_renderer_draw(s->renderer, &f, &d) == SW_OK && sw_renderer_read_class(s->renderer, cls, &d) == SW_OK &&
              sw_renderer_read_image(s->renderer, rgba, &d) == SW_OK;
    if (!ok) fprintf(stderr, "  draw: %s\n", d.message);
    return ok;
}

static bool drawn_at(const uint8_t* cls, const float p[2]) {
    const int c = cls[pixel_of(p[0], p[1], 0.2f)] & SW_RENDER_CLASS_MASK;
    return c == SW_RENDER_CLASS_LIT || c == SW_RENDER_CLASS_TOON;
}

static void test_erased_triangles(void) {
    scene s;
    SW_CHECK(scene_load(&s));
    const sw_model* m = s.model;
    const int32_t head = m ? node_named(m, "Head") : -1;
    SW_CHECK(head >= 0);
    if (head < 0) {
        scene_free(&s);
        return;
    }
    uint8_t* erase = calloc(m->node_count, 1);
    uint8_t* headless = calloc(m->node_count, 1);
    uint8_t* hidden = calloc(m->node_count, 1);
    size_t* erased = calloc(m->node_count, sizeof *erased);
    uint8_t *cls = malloc((size_t)W * H), *before = malloc((size_t)W * H * 4), *rgba = malloc((size_t)W * H * 4);
    SW_CHECK(erase && headless && hidden && erased && cls && before && rgba);
    sw_pose_mark_subtree(m, erase, (size_t)head);
    const int32_t cape = node_named(m, "Cape"), cloak = node_named(m, "Cloak");
    const int32_t helmet = node_named(m, "Helmet"), visor = node_named(m, "Visor");
    SW_CHECK(cape >= 0 && cloak >= 0 && helmet >= 0 && visor >= 0);

    /* Third person before any copy exists: the reference picture. */
    SW_CHECK(draw(&s, SW_RENDER_STYLE_AUTO, NULL, NULL, cls, before));
    for (int k = 0; k < 3; k++) SW_CHECK(drawn_at(cls, k_kept[k]) && drawn_at(cls, k_erased[k]));

    sw_diag d = {0};
    SW_CHECK(sw_renderer_set_erased_joints(s.renderer, erase, erased, &d) == SW_OK);
    /* three-vrm's copies: Cape keeps 3 of 16, Cloak 2 + 3 of 6, Helmet and Visor all */
    SW_CHECK_EQ_INT((int)erased[cape], 13);
    SW_CHECK_EQ_INT((int)erased[cloak], 1);
    SW_CHECK_EQ_INT((int)erased[helmet], 0);
    SW_CHECK_EQ_INT((int)erased[visor], 0);

    /* Third person after: bit for bit the same. */
    SW_CHECK(draw(&s, SW_RENDER_STYLE_AUTO, NULL, NULL, cls, rgba));
    SW_CHECK(memcmp(before, rgba, (size_t)W * H * 4) == 0);

    /* First person, PBR and toon: the erased triangles vanish, the kept stay. */
    headless[cape] = headless[cloak] = 1;
    const sw_render_style styles[2] = {SW_RENDER_STYLE_AUTO, SW_RENDER_STYLE_TOON};
    for (int st = 0; st < 2; st++) {
        SW_CHECK(draw(&s, styles[st], NULL, headless, cls, rgba));
        for (int k = 0; k < 3; k++) {
            SW_CHECK(drawn_at(cls, k_kept[k]));
            SW_CHECK(!drawn_at(cls, k_erased[k]));
        }
    }
    /* hidden_nodes wins over the copy. */
    hidden[cape] = 1;
    SW_CHECK(draw(&s, SW_RENDER_STYLE_AUTO, hidden, headless, cls, rgba));
    for (int k = 0; k < 3; k++) SW_CHECK(!drawn_at(cls, k_kept[k]));

    /* Without copies (NULL clears them) the flags draw the whole mesh. */
    SW_CHECK(sw_renderer_set_erased_joints(s.renderer, NULL, erased, &d) == SW_OK);
    SW_CHECK_EQ_INT((int)erased[cape], 0);
    SW_CHECK(draw(&s, SW_RENDER_STYLE_AUTO, NULL, headless, cls, rgba));
    for (int k = 0; k < 3; k++) SW_CHECK(drawn_at(cls, k_kept[k]) && drawn_at(cls, k_erased[k]));
    SW_CHECK(memcmp(before, rgba, (size_t)W * H * 4) == 0);

    free(erase), free(headless), free(hidden), free(erased), free(cls), free(before), free(rgba);
    scene_free(&s);
}

static void test_no_scene(void) {
    sw_diag d = {0};
    SW_CHECK(sw_renderer_set_erased_joints(NULL, NULL, NULL, &d) == SW_ERR_INVALID_ARGUMENT);
}

int main(void) {
    int early = sw_test_gl_begin(&g_context);
    if (early >= 0) return early;
    SW_RUN(test_no_scene);
    SW_RUN(test_erased_triangles);
    sw_gl_context_destroy(g_context);
    return sw_test_finish();
}
