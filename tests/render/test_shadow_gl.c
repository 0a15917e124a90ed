/* The static shadow cache on llvmpipe (or whatever EGL gives):
     - the GPU decoder (shaders/shadow_decode.frag) against the C decoder
       (sw__shadow_decode_texel) on a map of planes, steps and noise,
       decoded at an offset into a larger depth target;
     - the demo character with every node a static caster: baked once,
       decoded every frame, the picture within a few levels of the one
       drawn without the cache; its stats (docs/shadows.md prints them).
   Skips, saying so, only when no EGL display exists at all. */
#include "test_post_scene.h"
#include "test_random.h"

#include <epoxy/gl.h>

#include "../../src/render/shadow_cache.h"

static void test_gpu_decode_matches_c(void) {
    enum { S = 256, PAD = 32, T = S + 2 * PAD };
    float* z = malloc(sizeof(float) * S * S);
    float* gpu = malloc(sizeof(float) * T * T);
    SW_CHECK(z && gpu);
    if (!z || !gpu) return;
    rng r = {99};
    for (int y = 0; y < S; y++)
        for (int x = 0; x < S; x++) {
            float v = 0.3f + 0.0011f * (float)x - 0.0007f * (float)y;                 /* a plane */
            if ((x - 128) * (x - 128) + (y - 100) * (y - 100) < 40 * 40) v = 0.25f + 0.002f * (float)y; /* a disc over it */
            if (x > 200) v = 1.0f;                                                    /* nothing */
            if (y > 220) v = rng_range(&r, 0.5, 0.6);                                 /* noise */
            z[y * S + x] = v;
        }
    sw__shadow_records rec;
    SW_CHECK_EQ_INT(sw__shadow_encode(z, S, S, SW__SHADOW_CACHE_TOLERANCE, &rec), 0);
    sw__shadow_cache* cache = NULL;
    sw_diag d = {0};
    SW_CHECK(sw__shadow_cache_create(&cache, &d) == SW_OK);
    if (!cache) {
        fprintf(stderr, "  %s\n", d.message);
        free(z), free(gpu);
        return;
    }
    sw__shadow_cache_upload(cache, 0, &rec);
    GLuint tex, fbo, vao;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexStorage2D(GL_TEXTURE_2D, 1, GL_DEPTH_COMPONENT32F, T, T);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, tex, 0);
    glDrawBuffer(GL_NONE);
    glReadBuffer(GL_NONE);
    SW_CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
    glGenVertexArrays(1, &vao);
    glClearDepth(0.5);
    glClear(GL_DEPTH_BUFFER_BIT);
    glClearDepth(1.0);
    glViewport(PAD, PAD, S, S); /* an atlas cell's place */
    sw__shadow_cache_decode(cache, 0, PAD, PAD, vao);
    glReadPixels(0, 0, T, T, GL_DEPTH_COMPONENT, GL_FLOAT, gpu);
    SW_CHECK(glGetError() == GL_NO_ERROR);
    double worst = 0.0;
    int outside_changed = 0;
    for (int y = 0; y < T; y++)
        for (int x = 0; x < T; x++) {
            const float g = gpu[y * T + x];
            if (x < PAD || y < PAD || x >= PAD + S || y >= PAD + S) {
                outside_changed += g != 0.5f; /* the viewport bounds the decode */
                continue;
            }
            const float c = sw__shadow_decode_texel(rec.data, rec.blocks_x, x - PAD, y - PAD);
            worst = fmax(worst, fabs((double)g - (double)c));
        }
    printf("  GPU decode against the C decoder: max |difference| %.3g over %d texels (%zu bytes for %d)\n", worst,
           S * S, rec.word_count * 4, S * S * 4);
    /* Two float steps at most near 1: GLSL's division need not be
       correctly rounded, and the driver may fuse multiply-adds. */
    SW_CHECK(worst <= 2.5e-7);
    SW_CHECK_EQ_INT(outside_changed, 0);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &fbo);
    glDeleteTextures(1, &tex);
    glDeleteVertexArrays(1, &vao);
    sw__shadow_cache_destroy(cache);
    sw__shadow_records_free(&rec);
    free(z), free(gpu);
}

/* The demo character with every node a static caster: the cascades of a
   stage (SW__SHADOW_STAGE_CASCADES), each baked once and decoded after,
   against the same cascades drawn every frame (bypass). */
static void test_cached_character(void) {
    const size_t count = (size_t)N * N * 4;
    uint8_t* drawn = malloc(count), *cached = malloc(count), *plain = malloc(count);
    bool* all = malloc(g_asset->node_count);
    SW_CHECK(drawn && cached && plain && all);
    if (drawn && cached && plain && all) {
        g_style = SW_RENDER_STYLE_PBR; /* the PBR path shows the shadow on the ground plainly */
        pose_at(0.0f);
        SW_CHECK(still(g_small, SW_RENDER_AA_NONE, plain));
        for (size_t i = 0; i < g_asset->node_count; i++) all[i] = true;
        sw_diag d = {0};
        sw__shadow_cache* cache = sw__renderer_shadow_cache(g_small);
        SW_CHECK(sw_renderer_set_static_casters(g_small, all, &d) == SW_OK);
        cache->bypass = true;
        SW_CHECK(still(g_small, SW_RENDER_AA_NONE, drawn));
        cache->bypass = false;
        SW_CHECK(still(g_small, SW_RENDER_AA_NONE, NULL));
        SW_CHECK(still(g_small, SW_RENDER_AA_NONE, cached));
        sw_shadow_cache_stats s;
        sw_renderer_get_shadow_cache_stats(g_small, &s);
        printf("  demo character from the light, %d cascades of 256²: %zu bytes (%.1f:1 against float32, %.1f:1 "
               "against 16-bit), max error %.3g, mean %.3g, nearer at most %.3g, %.1f ms last bake\n",
               SW__SHADOW_STAGE_CASCADES, s.bytes, s.ratio_float32, s.ratio_depth16, s.max_error, s.mean_error,
               s.max_nearer, s.bake_ms);
        SW_CHECK(s.active);
        SW_CHECK_EQ_INT(s.bakes, SW__SHADOW_STAGE_CASCADES); /* light and camera did not move: each baked once */
        SW_CHECK(s.max_nearer <= SW__SHADOW_CACHE_TOLERANCE);
        SW_CHECK(s.ratio_float32 > 8.0);
        int differ = 0, worst = 0, cascades_changed = 0;
        for (size_t i = 0; i < count; i++) {
            const int diff = abs((int)drawn[i] - (int)cached[i]);
            differ += diff > 2;
            worst = diff > worst ? diff : worst;
            cascades_changed += drawn[i] != plain[i];
        }
        printf("  picture with the cache against drawn: %d channel values differ by more than 2, worst %d; "
               "the cascades changed %d values against one map\n", differ, worst, cascades_changed);
        SW_CHECK(differ <= (int)(count / 1000));
        /* No static casters: the cache is off again; a new scene clears them too. */
        SW_CHECK(sw_renderer_set_static_casters(g_small, NULL, &d) == SW_OK);
        sw_renderer_get_shadow_cache_stats(g_small, &s);
        SW_CHECK(!s.active);
        SW_CHECK(sw_renderer_set_static_casters(g_small, all, &d) == SW_OK);
        SW_CHECK(still(g_small, SW_RENDER_AA_NONE, NULL));
        SW_CHECK(sw_renderer_set_scene(g_small, g_asset, &g_materials, &d) == SW_OK);
        sw_renderer_get_shadow_cache_stats(g_small, &s);
        SW_CHECK(!s.active && s.bakes == 0);
        SW_CHECK(!cache->static_nodes);
        SW_CHECK(sw_renderer_set_static_casters(NULL, all, &d) == SW_ERR_INVALID_ARGUMENT);
        g_style = SW_RENDER_STYLE_AUTO;
    }
    free(drawn), free(cached), free(plain), free(all);
}

/* The demo stage: its draws are static casters without being flagged;
   cached and drawn every frame give the same picture; clearing the stage
   turns the cache off. */
static void test_stage_casters(void) {
    uint8_t* glb = NULL;
    size_t size = 0;
    sw_diag d = {0};
    sw_model* stage = NULL;
    sw_material_set materials = {0};
    bool ok = sw_demo_stage_glb(&glb, &size, &d) == SW_OK &&
              sw_gltf_load_memory(glb, size, SW_DEMO_STAGE_NAME, NULL, NULL, &stage, &d) == SW_OK &&
              sw_material_set_read(stage, &materials, &d) == SW_OK;
    sw_demo_stage_glb_free(glb);
    SW_CHECK(ok);
    const size_t count = (size_t)N * N * 4;
    uint8_t* drawn = malloc(count), *cached = malloc(count);
    SW_CHECK(drawn && cached);
    if (ok && drawn && cached) {
        const sw_render_stage_model model = {.model = stage, .materials = &materials, .placement = sw_mat34_identity()};
        SW_CHECK(sw_renderer_set_stage(g_small, &model, 1, &d) == SW_OK);
        sw__shadow_cache* cache = sw__renderer_shadow_cache(g_small);
        pose_at(0.0f);
        cache->bypass = true;
        SW_CHECK(still(g_small, SW_RENDER_AA_NONE, drawn));
        cache->bypass = false;
        SW_CHECK(still(g_small, SW_RENDER_AA_NONE, NULL));
        SW_CHECK(still(g_small, SW_RENDER_AA_NONE, cached));
        sw_shadow_cache_stats s;
        sw_renderer_get_shadow_cache_stats(g_small, &s);
        printf("  demo stage, %d cascades of 256²: %zu bytes (%.1f:1 against float32), max error %.3g, nearer at most "
               "%.3g\n", SW__SHADOW_STAGE_CASCADES, s.bytes, s.ratio_float32, s.max_error, s.max_nearer);
        SW_CHECK(s.active);
        SW_CHECK_EQ_INT(s.bakes, SW__SHADOW_STAGE_CASCADES);
        SW_CHECK(s.max_nearer <= SW__SHADOW_CACHE_TOLERANCE);
        int differ = 0;
        for (size_t i = 0; i < count; i++) differ += abs((int)drawn[i] - (int)cached[i]) > 2;
        printf("  stage picture with the cache against drawn: %d channel values differ by more than 2\n", differ);
        SW_CHECK(differ <= (int)(count / 1000));
        SW_CHECK(sw_renderer_set_stage(g_small, NULL, 0, &d) == SW_OK);
        SW_CHECK(still(g_small, SW_RENDER_AA_NONE, NULL));
        sw_renderer_get_shadow_cache_stats(g_small, &s);
        SW_CHECK(!s.active);
    }
    free(drawn), free(cached);
    sw_material_set_free(&materials);
    sw_model_free(stage);
}

int main(void) {
    int early = sw_test_gl_begin(&g_context);
    if (early >= 0) return early;
    SW_RUN(test_gpu_decode_matches_c);
    if (!post_scene_begin()) {
        fprintf(stderr, "could not set up the demo scene\n");
        return 1;
    }
    SW_RUN(test_cached_character);
    SW_RUN(test_stage_casters);
    post_scene_end();
    return sw_test_finish();
}
