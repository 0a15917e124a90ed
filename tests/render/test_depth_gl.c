/* Reverse-Z and the Hi-Z pyramid drawn (docs/depth.md):
     - the demo character (toon, outlines) walking with TAA and motion blur:
       reverse-Z frames against ordinary-depth frames of the same renderer
       code, within a small tolerance (the numbers are printed);
     - two unlit quads 1 mm apart at 400 m, the farther drawn first:
       reverse-Z shows the nearer everywhere, ordinary depth does not;
     - the GPU pyramid equals the C reduction (sw__hiz_reduce) of its own
       level 0, texel for texel;
     - occlusion culling: a box behind a wall is culled from the second
       frame on, a box beside it never, and the picture with culling is the
       picture without, byte for byte, under both conventions.
   Skips, saying so, only when no EGL display exists at all. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_post_scene.h"

#include "../../src/render/renderer_internal.h"

/* ---- scenes made here ----------------------------------------------------------------- */

static void base64(const uint8_t* in, size_t n, char* out) {
    static const char table[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t o = 0;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)in[i] << 16 | (i + 1 < n ? (uint32_t)in[i + 1] << 8 : 0) | (i + 2 < n ? in[i + 2] : 0);
        out[o++] = table[v >> 18 & 63], out[o++] = table[v >> 12 & 63];
        out[o++] = i + 1 < n ? table[v >> 6 & 63] : '=';
        out[o++] = i + 2 < n ? table[v & 63] : '=';
    }
    out[o] = '\0';
}

/* A unit cube (−0.5..0.5): 24 vertices (positions, normals), 36 indices. */
static size_t cube_buffer(uint8_t* out) {
    float* p = (float*)out;
    float* nrm = p + 72;
    uint16_t* idx = (uint16_t*)(out + 24 * 24);
    for (int face = 0; face < 6; face++) {
        const int axis = face / 2;
        const float s = face % 2 ? 1.0f : -1.0f;
        const int u = (axis + 1) % 3, v = (axis + 2) % 3;
        const float corners[4][2] = {{-0.5f, -0.5f}, {0.5f, -0.5f}, {0.5f, 0.5f}, {-0.5f, 0.5f}};
        for (int c = 0; c < 4; c++) {
            float* q = p + 3 * (face * 4 + c);
            q[axis] = 0.5f * s, q[u] = corners[c][0], q[v] = corners[c][1];
            float* m = nrm + 3 * (face * 4 + c);
            m[0] = m[1] = m[2] = 0.0f;
            m[axis] = s;
        }
        const uint16_t b = (uint16_t)(face * 4);
        const uint16_t front[6] = {b, (uint16_t)(b + 1), (uint16_t)(b + 2), b, (uint16_t)(b + 2), (uint16_t)(b + 3)};
        const uint16_t back[6] = {b, (uint16_t)(b + 2), (uint16_t)(b + 1), b, (uint16_t)(b + 3), (uint16_t)(b + 2)};
        memcpy(idx + 6 * face, s > 0 ? front : back, sizeof front);
    }
    return 24 * 24 + 36 * 2;
}

/* A model from glTF text with the cube buffer as buffer 0 ("%s" in the
   text is its base64). */
static sw_model* cube_model(const char* format, sw_material_set* materials) {
    uint8_t bytes[1024];
    char b64[1500], json[6000];
    const size_t n = cube_buffer(bytes);
    base64(bytes, n, b64);
    snprintf(json, sizeof json, format, n, b64);
    sw_model* model = NULL;
    sw_diag d = {0};
    if (sw_gltf_load_memory(json, strlen(json), "depth.gltf", NULL, NULL, &model, &d) != SW_OK ||
        sw_material_set_read(model, materials, &d) != SW_OK) {
        fprintf(stderr, "  scene: %s\n", d.message);
        sw_model_free(model);
        return NULL;
    }
    return model;
}

#define SW__CUBE_ACCESSORS                                                                                   \
    "\"buffers\":[{\"byteLength\":%zu,\"uri\":\"data:application/octet-stream;base64,%s\"}],"               \
    "\"bufferViews\":[{\"buffer\":0,\"byteLength\":288},{\"buffer\":0,\"byteOffset\":288,\"byteLength\":288}," \
    "{\"buffer\":0,\"byteOffset\":576,\"byteLength\":72}],"                                                  \
    "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":24,\"type\":\"VEC3\","               \
    "\"min\":[-0.5,-0.5,-0.5],\"max\":[0.5,0.5,0.5]},{\"bufferView\":1,\"componentType\":5126,\"count\":24," \
    "\"type\":\"VEC3\"},{\"bufferView\":2,\"componentType\":5123,\"count\":36,\"type\":\"SCALAR\"}]}"

/* A wall (6 × 2 × 0.2 m at z = 0), a box behind it (x = −1.5, z = −4)
   and one beside it (x = 6, z = −4), all on y = 0. */
static const char walls[] =
    "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0,1,2]}],"
    "\"nodes\":[{\"mesh\":0,\"translation\":[0,1,0],\"scale\":[6,2,0.2]},{\"mesh\":0,\"translation\":[-1.5,0.5,-4]},"
    "{\"mesh\":0,\"translation\":[6,0.5,-4]}],"
    "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"NORMAL\":1},\"indices\":2,\"material\":0}]}],"
    "\"materials\":[{\"pbrMetallicRoughness\":{\"baseColorFactor\":[0.7,0.6,0.5,1],\"metallicFactor\":0}}]," SW__CUBE_ACCESSORS;

/* Two flat boxes 200 × 200 m, 1 cm thick, unlit: green whose front face
   is at z = −400.001, drawn first, and red whose front face is at z = −400. */
static const char far_quads[] =
    "{\"asset\":{\"version\":\"2.0\"},\"extensionsUsed\":[\"KHR_materials_unlit\"],\"scene\":0,"
    "\"scenes\":[{\"nodes\":[0,1]}],"
    "\"nodes\":[{\"mesh\":1,\"translation\":[0,0,-400.006],\"scale\":[200,200,0.01]},"
    "{\"mesh\":0,\"translation\":[0,0,-400.005],\"scale\":[200,200,0.01]}],"
    "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"NORMAL\":1},\"indices\":2,\"material\":0}]},"
    "{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"NORMAL\":1},\"indices\":2,\"material\":1}]}],"
    "\"materials\":[{\"pbrMetallicRoughness\":{\"baseColorFactor\":[1,0,0,1]},\"extensions\":{\"KHR_materials_unlit\":{}}},"
    "{\"pbrMetallicRoughness\":{\"baseColorFactor\":[0,1,0,1]},\"extensions\":{\"KHR_materials_unlit\":{}}}]," SW__CUBE_ACCESSORS;

enum { W = 160, H = 120 };

/* A renderer for `model`, reverse-Z unless `ordinary`. */
static sw_renderer* renderer_for(const sw_model* model, const sw_material_set* materials, bool ordinary, int w, int h) {
    sw_renderer* r = NULL;
    sw_diag d = {0};
    sw_renderer_desc desc = {.width = w, .height = h, .shadow_map_size = 512, .ordinary_depth = ordinary};
    if (sw_renderer_create(&desc, &r, &d) != SW_OK || sw_renderer_set_scene(r, model, materials, &d) != SW_OK) {
        fprintf(stderr, "  renderer: %s\n", d.message);
        sw_renderer_destroy(r);
        return NULL;
    }
    return r;
}

/* The rest pose of a static model (memory caller-freed). */
static bool rest_pose(const sw_model* model, sw_pose* pose, void** memory) {
    sw_pose_sizes sizes = sw_pose_sizes_of(model);
    *memory = aligned_alloc(16, (sw_pose_memory_size(&sizes) + 15) / 16 * 16);
    if (!*memory) return false;
    sw_pose_bind(pose, &sizes, *memory);
    sw_diag d = {0};
    return sw_pose_evaluate(model, NULL, 0.0f, false, pose, &d) == SW_OK;
}

static bool frame(sw_renderer* r, sw_render_frame f, uint8_t* image) {
    sw_diag d = {0};
    const bool ok = sw_renderer_draw(r, &f, &d) == SW_OK && (!image || sw_renderer_read_image(r, image, &d) == SW_OK);
    if (!ok) fprintf(stderr, "  draw: %s\n", d.message);
    return ok;
}

/* ---- tests -------------------------------------------------------------------------------- */

static void test_reverse_z_pictures_equal_ordinary(void) {
    /* The demo character walking (toon surfaces and outline hulls), TAA
       and motion blur on, six frames of a walk seen by a moving camera. */
    sw_renderer* reverse = renderer_for(g_asset, &g_materials, false, N, N);
    sw_renderer* ordinary = renderer_for(g_asset, &g_materials, true, N, N);
    uint8_t* a = malloc(4 * N * N);
    uint8_t* b = malloc(4 * N * N);
    SW_CHECK(reverse && ordinary && a && b);
    if (reverse && ordinary && a && b) {
        sw_renderer_stats st;
        sw_renderer_get_stats(reverse, &st);
        int worst = 0;
        size_t differing = 0;
        for (int i = 0; i < 6; i++) {
            pose_at(0.05f * (float)i);
            sw_camera c = g_camera, previous = g_camera;
            c.eye[0] += 0.02f * (float)i, previous.eye[0] += 0.02f * (float)(i > 0 ? i - 1 : 0);
            sw_render_frame f = {.pose = &g_pose, .camera = {c, previous}, .first_frame = i == 0,
                                 .post = {.aa = SW_RENDER_AA_TAA, .motion_blur = true, .frame_index = (uint32_t)i}};
            SW_CHECK(frame(reverse, f, a) && frame(ordinary, f, b));
            for (size_t p = 0; p < 4u * N * N; p++) {
                const int diff = abs((int)a[p] - (int)b[p]);
                worst = diff > worst ? diff : worst;
                differing += diff > 2;
            }
        }
        sw_renderer_get_stats(reverse, &st);
        SW_CHECK(st.reverse_z);
        sw_renderer_get_stats(ordinary, &st);
        SW_CHECK(!st.reverse_z);
        printf("  reverse-Z against ordinary depth, 6 frames %d x %d: largest channel difference %d/255, "
               "%zu of %d channel values differ by more than 2\n",
               N, N, worst, differing, 6 * 4 * N * N);
        /* A few outline-edge pixels may flip (the hull's polygon offset is
           a different distance under each convention); nothing else. */
        SW_CHECK(worst <= 16);
        SW_CHECK((double)differing <= 1e-4 * 6 * 4 * N * N);
    }
    free(a);
    free(b);
    sw_renderer_destroy(reverse);
    sw_renderer_destroy(ordinary);
}

static void test_one_millimetre_at_400_metres_drawn(void) {
    sw_material_set materials = {0};
    sw_model* model = cube_model(far_quads, &materials);
    SW_CHECK(model != NULL);
    if (!model) return;
    sw_pose pose;
    void* memory = NULL;
    SW_CHECK(rest_pose(model, &pose, &memory));
    const sw_camera c = {.eye = {0, 0, 0}, .target = {0, 0, -1}, .up = {0, 1, 0}, .fov_y = 0.6f, .z_near = 0.1f,
                         .z_far = 1000.0f};
    uint8_t* image = malloc(4 * W * H);
    int red[2] = {0, 0}, pixels = 0;
    for (int convention = 0; convention < 2 && image; convention++) {
        sw_renderer* r = renderer_for(model, &materials, convention == 1, W, H);
        SW_CHECK(r != NULL);
        if (!r) continue;
        sw_render_frame f = {.pose = &pose, .camera = {c, c}, .first_frame = true};
        SW_CHECK(frame(r, f, image));
        pixels = 0;
        for (int y = H / 4; y < 3 * H / 4; y++)
            for (int x = W / 4; x < 3 * W / 4; x++, pixels++) {
                const uint8_t* p = image + 4 * (y * W + x);
                red[convention] += p[0] > 128 && p[1] < 64;
            }
        sw_renderer_destroy(r);
    }
    printf("  1 mm at 400 m: the nearer (red) face shows on %d of %d pixels under reverse-Z, %d under ordinary depth\n",
           red[0], pixels, red[1]);
    SW_CHECK_EQ_INT(red[0], pixels);
    SW_CHECK(red[1] < pixels / 2);
    free(image);
    free(memory);
    sw_material_set_free(&materials);
    sw_model_free(model);
}

/* The wall scene's camera: the wall ahead, one box behind it. */
static const sw_camera wall_camera = {.eye = {0, 1, 8}, .target = {0, 1, -4}, .up = {0, 1, 0}, .fov_y = 0.8f,
                                      .z_near = 0.1f, .z_far = 100.0f};

static void test_pyramid_matches_the_c_reduction(void) {
    /* The wall scene: rigid draws, so the G-buffer pass builds the pyramid. */
    sw_material_set materials = {0};
    sw_model* model = cube_model(walls, &materials);
    SW_CHECK(model != NULL);
    if (!model) return;
    sw_pose pose;
    void* memory = NULL;
    SW_CHECK(rest_pose(model, &pose, &memory));
    sw_renderer* r = renderer_for(model, &materials, false, W, H);
    SW_CHECK(r != NULL);
    sw_render_frame f = {.pose = &pose, .camera = {wall_camera, wall_camera}, .first_frame = true};
    if (r && frame(r, f, NULL)) {
        const sw__hiz_levels* l = sw__hiz_pyramid(r->hiz);
        SW_CHECK_EQ_INT(l->first_level, 0);
        SW_CHECK_EQ_INT(l->level_count, 8);
        SW_CHECK(l->reverse);
        size_t mismatches = 0, far_texels = 0, near_texels = 0;
        float* expected = malloc(sizeof(float) * W * H);
        for (int k = 1; expected && k < l->level_count; k++) {
            const int w = sw__hiz_level_size(W, k), h = sw__hiz_level_size(H, k);
            sw__hiz_reduce(l->texels[k - 1], sw__hiz_level_size(W, k - 1), sw__hiz_level_size(H, k - 1), expected, w, h,
                           true);
            for (int i = 0; i < w * h; i++) mismatches += expected[i] != l->texels[k][i];
        }
        for (int i = 0; i < W * H; i++) far_texels += l->texels[0][i] == 0.0f, near_texels += l->texels[0][i] > 0.0f;
        SW_CHECK_EQ_INT((int)mismatches, 0);
        SW_CHECK(far_texels > 0 && near_texels > 0); /* background, and the wall and ground, in level 0 */
        free(expected);
    }
    sw_renderer_destroy(r);
    free(memory);
    sw_material_set_free(&materials);
    sw_model_free(model);
}

static void test_box_behind_the_wall_is_culled(void) {
    sw_material_set materials = {0};
    sw_model* model = cube_model(walls, &materials);
    SW_CHECK(model != NULL);
    if (!model) return;
    sw_pose pose;
    void* memory = NULL;
    SW_CHECK(rest_pose(model, &pose, &memory));
    const sw_camera c = wall_camera;
    uint8_t* culled = malloc(4 * W * H);
    uint8_t* all = malloc(4 * W * H);
    for (int convention = 0; convention < 2 && culled && all; convention++) {
        sw_renderer* r = renderer_for(model, &materials, convention == 1, W, H);
        sw_renderer* plain = renderer_for(model, &materials, convention == 1, W, H);
        SW_CHECK(r && plain);
        if (r && plain) {
            sw_renderer_stats st;
            for (int i = 0; i < 3; i++) {
                sw_render_frame f = {.pose = &pose, .camera = {c, c}, .first_frame = i == 0,
                                     .post = {.aa = SW_RENDER_AA_TAA, .frame_index = (uint32_t)i}};
                SW_CHECK(frame(r, f, culled));
                sw_renderer_get_stats(r, &st);
                /* The first frame draws everything (no hint yet) and finds
                   the box hidden; later frames test it and skip it. */
                SW_CHECK_EQ_INT((int)st.occlusion_tested, (i == 0 ? 0 : 1));
                SW_CHECK_EQ_INT((int)st.occlusion_culled, (i == 0 ? 0 : 1));
                f.debug.no_occlusion_culling = true;
                SW_CHECK(frame(plain, f, all));
                sw_renderer_get_stats(plain, &st);
                SW_CHECK_EQ_INT((int)st.occlusion_culled, 0);
                SW_CHECK(memcmp(culled, all, 4 * W * H) == 0);
            }
        }
        sw_renderer_destroy(r);
        sw_renderer_destroy(plain);
    }
    free(culled);
    free(all);
    free(memory);
    sw_material_set_free(&materials);
    sw_model_free(model);
}

int main(void) {
    int skip = sw_test_gl_begin(&g_context);
    if (skip >= 0) return skip;
    if (!post_scene_begin()) {
        fprintf(stderr, "the demo scene failed\n");
        return 1;
    }
    SW_RUN(test_reverse_z_pictures_equal_ordinary);
    SW_RUN(test_one_millimetre_at_400_metres_drawn);
    SW_RUN(test_pyramid_matches_the_c_reduction);
    SW_RUN(test_box_behind_the_wall_is_culled);
    sw_material_set_free(&g_materials);
    post_scene_end();
    return sw_test_finish();
}
