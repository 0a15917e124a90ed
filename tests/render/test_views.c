/* The AO and depth debug views (SW_RENDER_VIEW_AO, SW_RENDER_VIEW_DEPTH;
   docs/ao.md, docs/depth.md):
     - the depth view's C maths (depth_view.c) without GL: the distance
       read back inverts sw__depth_at_distance under both conventions,
       finite and infinite far planes; the grey at hand-computed
       distances; strictly decreasing in distance;
     - drawn, the demo character on its ground at 160 × 120: every pixel
       of the depth view is the C reference of the depth buffer read back
       (within 1/255); along the image's middle column the ground gets
       darker towards the horizon; reverse-Z and ordinary depth give the
       same picture within 1/255;
     - the AO view's grey is the AO target's R byte for byte, and white
       everywhere with AO off.
   Skips, saying so, only when no EGL display exists at all. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_post_scene.h"

#include "../../src/render/depth_convention.h"
#include "../../src/render/depth_view.h"
#include "../../src/render/renderer_internal.h"

enum { W = 160, H = 120 };

/* ---- C maths ------------------------------------------------------------------------------ */

static void test_distance_inverts_the_depth(void) {
    const float n = 0.1f, fars[2] = {50.0f, INFINITY};
    for (int reverse = 0; reverse < 2; reverse++)
        for (int k = 0; k < 2; k++) {
            const float f = fars[k];
            for (float d = 0.1f; d < 40.0f; d *= 1.5f) {
                const float back = sw__depth_view_distance(sw__depth_at_distance(d, n, f, reverse), n, f, reverse);
                /* ordinary depth keeps ~d²/n · 2⁻²⁴ of distance: relative 4e-4 at 40 m */
                SW_CHECK(fabsf(back - d) <= 5e-4f * d);
            }
            SW_CHECK(isinf(sw__depth_view_distance(sw__depth_far(reverse), n, f, reverse)));
        }
}

static void test_grey_by_hand(void) {
    /* near 0.1, scale's far end 1000 (10⁴ near distances): 1 − log(d/0.1)/log(10⁴) */
    SW_CHECK(fabsf(sw__depth_view_grey(0.1f, 0.1f, 1000.0f) - 1.0f) < 1e-6f);
    SW_CHECK(fabsf(sw__depth_view_grey(1.0f, 0.1f, 1000.0f) - 0.75f) < 1e-6f);
    SW_CHECK(fabsf(sw__depth_view_grey(10.0f, 0.1f, 1000.0f) - 0.5f) < 1e-6f);
    SW_CHECK(fabsf(sw__depth_view_grey(1000.0f, 0.1f, 1000.0f)) < 1e-6f);
    SW_CHECK(sw__depth_view_grey(5000.0f, 0.1f, 1000.0f) == 0.0f);
    SW_CHECK(sw__depth_view_grey(INFINITY, 0.1f, 1000.0f) == 0.0f);
    SW_CHECK(sw__depth_view_scale_far(0.1f, INFINITY) == 1000.0f);
    SW_CHECK(sw__depth_view_scale_far(0.1f, 30.0f) == 30.0f);
    /* sRGB: 0.5 → 1.055 · 0.5^(1/2.4) − 0.055 = 0.7354 */
    SW_CHECK(fabsf(sw__depth_view_encode(0.5f) - 0.73536f) < 1e-4f);
    SW_CHECK(sw__depth_view_encode(0.0f) == 0.0f && fabsf(sw__depth_view_encode(1.0f) - 1.0f) < 1e-6f);
    /* strictly decreasing between near and the far end: a nearer surface is brighter */
    float last = 2.0f;
    for (float d = 0.1f; d <= 1000.0f; d *= 1.1f) {
        const float g = sw__depth_view_grey(d, 0.1f, 1000.0f);
        SW_CHECK(g < last);
        last = g;
    }
}

/* ---- drawn ---------------------------------------------------------------------------------- */

static sw_camera g_wide; /* the demo framed for 160 × 120 */
static sw_renderer *g_reverse, *g_ordinary;

static sw_renderer* renderer_of(bool ordinary) {
    sw_renderer* r = NULL;
    sw_diag d = {0};
    sw_renderer_desc desc = {.width = W, .height = H, .shadow_map_size = 512, .ordinary_depth = ordinary};
    if (sw_renderer_create(&desc, &r, &d) != SW_OK || sw_renderer_set_scene(r, g_asset, &g_materials, &d) != SW_OK) {
        fprintf(stderr, "  renderer: %s\n", d.message);
        sw_renderer_destroy(r);
        return NULL;
    }
    return r;
}

static bool view_frame(sw_renderer* r, sw_render_view view, sw_render_ao ao, uint8_t* image) {
    sw_render_frame f = {.camera = {g_wide, g_wide}, .first_frame = true, .debug.view = view, .shading.ao = ao};
    return draw(r, f, image);
}

/* The depth target, image rows (top first). */
static void read_depth(sw_renderer* r, float* out) {
    float* gl = malloc(sizeof(float) * W * H);
    if (!gl) return;
    glBindTexture(GL_TEXTURE_2D, r->t_depth);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glGetTexImage(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT, GL_FLOAT, gl);
    for (int y = 0; y < H; y++) memcpy(out + y * W, gl + (H - 1 - y) * W, sizeof(float) * W);
    free(gl);
}

static void test_depth_view(void) {
    sw_renderer *reverse = g_reverse, *ordinary = g_ordinary;
    uint8_t* images[2] = {malloc(4 * W * H), malloc(4 * W * H)};
    float* depth = malloc(sizeof(float) * W * H);
    uint8_t* classes = malloc(W * H);
    sw_renderer* rs[2] = {reverse, ordinary};
    SW_CHECK(images[0] && images[1] && depth && classes);
    if (!images[0] || !images[1] || !depth || !classes) goto done;
    const float n = g_wide.z_near, f = g_wide.z_far, g = sw__depth_view_scale_far(n, f);
    for (int k = 0; k < 2; k++) {
        if (!view_frame(rs[k], SW_RENDER_VIEW_DEPTH, SW_RENDER_AO_ON, images[k])) goto done;
        read_depth(rs[k], depth);
        int off = 0, drawn = 0;
        for (int i = 0; i < W * H; i++) {
            const float grey = sw__depth_view_grey(sw__depth_view_distance(depth[i], n, f, k == 0), n, g);
            const int want = (int)lrintf(255.0f * sw__depth_view_encode(grey));
            off += abs((int)images[k][4 * i] - want) > 1 || images[k][4 * i + 1] != images[k][4 * i] ||
                   images[k][4 * i + 2] != images[k][4 * i];
            drawn += depth[i] != sw__depth_far(k == 0);
        }
        sw_renderer_stats st;
        sw_renderer_get_stats(rs[k], &st);
        SW_CHECK(st.reverse_z == (k == 0)); /* the context has clip control (llvmpipe does) */
        printf("  depth view (%s): %d of %d pixels off the C reference by more than 1/255 (%d drawn)\n",
               k == 0 ? "reverse-Z" : "ordinary", off, W * H, drawn);
        SW_CHECK_EQ_INT(off, 0);
        SW_CHECK(drawn > W * H / 2);
    }
    /* The ground along the middle column: nearer (lower) rows brighter. */
    sw_diag d = {0};
    SW_CHECK(sw_renderer_read_class(reverse, classes, &d) == SW_OK); /* GL rows: bottom first */
    int steps = 0, brighter_up = 0, first = -1, last = -1;
    for (int y = 0; y < H; y++) { /* y from the bottom of the image */
        const uint8_t cls = classes[y * W + W / 4] & SW_RENDER_CLASS_MASK;
        if (cls != SW_RENDER_CLASS_GROUND) continue;
        const int v = images[0][4 * ((H - 1 - y) * W + W / 4)];
        if (last >= 0) steps++, brighter_up += v > last;
        if (first < 0) first = v;
        last = v;
    }
    printf("  ground at x = %d: %d steps up the picture, %d brighter; grey %d at the bottom, %d at the top\n", W / 4,
           steps, brighter_up, first, last);
    SW_CHECK(steps > 10);
    SW_CHECK_EQ_INT(brighter_up, 0);
    SW_CHECK(first - last > 20);
    /* The two conventions: the same picture. */
    int worst = 0;
    for (int i = 0; i < 4 * W * H; i++) {
        const int diff = abs((int)images[0][i] - (int)images[1][i]);
        worst = diff > worst ? diff : worst;
    }
    printf("  depth view, reverse-Z against ordinary depth: largest difference %d/255\n", worst);
    SW_CHECK(worst <= 1);
done:
    free(images[0]);
    free(images[1]);
    free(depth);
    free(classes);
}

static void test_ao_view(void) {
    sw_renderer* r = g_reverse;
    uint8_t* image = malloc(4 * W * H);
    uint8_t* ao = malloc(2 * W * H);
    SW_CHECK(image && ao);
    if (image && ao && view_frame(r, SW_RENDER_VIEW_AO, SW_RENDER_AO_ON, image)) {
        glBindTexture(GL_TEXTURE_2D, sw__recon_pass_output(r->recon)); /* full res, upsampled (recon.h) */
        glPixelStorei(GL_PACK_ALIGNMENT, 1);
        glGetTexImage(GL_TEXTURE_2D, 0, GL_RG, GL_UNSIGNED_BYTE, ao); /* GL rows: bottom first */
        int off = 0, occluded = 0;
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                const uint8_t* p = image + 4 * ((H - 1 - y) * W + x);
                const uint8_t want = ao[2 * (y * W + x)];
                off += p[0] != want || p[1] != want || p[2] != want;
                occluded += want < 230;
            }
        printf("  AO view: %d of %d pixels differ from the AO target's R (%d darker than 230)\n", off, W * H, occluded);
        SW_CHECK_EQ_INT(off, 0);
        SW_CHECK(occluded > 20);
        if (view_frame(r, SW_RENDER_VIEW_AO, SW_RENDER_AO_OFF, image)) {
            int white = 0;
            for (int i = 0; i < W * H; i++)
                white += image[4 * i] == 255 && image[4 * i + 1] == 255 && image[4 * i + 2] == 255;
            SW_CHECK_EQ_INT(white, W * H);
        }
    }
    free(image);
    free(ao);
}

int main(void) {
    SW_RUN(test_distance_inverts_the_depth);
    SW_RUN(test_grey_by_hand);
    int skip = sw_test_gl_begin(&g_context);
    if (skip >= 0) return skip == 0 ? sw_test_finish() : skip;
    if (!load_demo()) {
        fprintf(stderr, "the demo scene failed\n");
        return 1;
    }
    sw_renderer* reverse = g_reverse = renderer_of(false);
    sw_renderer* ordinary = g_ordinary = renderer_of(true);
    SW_CHECK(reverse && ordinary);
    if (reverse && ordinary) {
        sw_diag d = {0};
        float lo[3], hi[3];
        pose_at(0.0f);
        SW_CHECK(sw_renderer_scene_bounds(reverse, &g_pose, lo, hi, &d) == SW_OK);
        sw_camera_frame_bounds(lo, hi, 25.0f, 25.0f, (float)W / (float)H, &g_wide);
        SW_RUN(test_depth_view);
        SW_RUN(test_ao_view);
    }
    sw_renderer_destroy(reverse);
    sw_renderer_destroy(ordinary);
    sw_material_set_free(&g_materials);
    free(g_pose_memory);
    sw_model_free(g_asset);
    sw_gl_context_destroy(g_context);
    return sw_test_finish();
}
