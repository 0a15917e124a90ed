/* The snow's height cache and footprints on the GPU (src/render/snow_cache.c,
   snow_trail.c, shaders/snow_cache.*, gbuffer.frag; docs/snow.md), the demo
   character walking on the demo stage, 160×120:
     - the height cache, read back, against its C reference (snow.h): the
       ground far from everything holds the word of height 0, the top of
       the stacked crate the word of 1.4 (±1 level), its coarse cell that
       layer alone; over the whole window the coarse rule holds (the
       winners' layers of every cell within its bit set and accepted, a
       refused cell has a texel left empty, dirty = a texel won) and the
       CPU copy gives the same heights;
     - the walk (issue 30's done-when): 40 frames of the walk clip at 30
       fps; the last frame drawn with and without footprints: the pixels
       darker by more than 0.04 in luma are where her feet were, i.e. every
       one of them lies on a foot's disc projected into that frame, and
       most of the discs stamped deep that are in view have one; a print's
       rim facing the light may be brighter (the track is a dent,
       sw__snow_trail_normal), but only on a foot's disc too. Frames
       1..38 only update the trail (no picture), as the draw would;
     - the trail's ring: moved 12 units away and back, the old track is
       cleared; only the last frame's stamps stay.
   The GL part skips, saying so, only when no EGL display exists. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "gl_harness.h"
#include "sinew/demo.h"
#include "sinew/gltf.h"
#include "sinew/import.h"
#include "sinew/materials.h"
#include "sinew/render.h"
#include "test_stage_scene.h"

#include "../../src/render/snow_cache.h"

#define W 160
#define H 120
#define FRAMES 40
#define FPS 30.0f

static sw_gl_context* g_context;
static sw_model* g_demo;
static sw_model* g_stage;
static sw_material_set g_materials, g_stage_materials;
static sw_pose g_pose;
static void* g_pose_memory;
static const sw_clip* g_walk;
static sw_renderer* g_renderer;

static bool load(void) {
    if (!test_stage_scene_load(&g_demo, &g_materials, &g_stage, &g_stage_materials)) return false;
    for (size_t i = 0; i < g_demo->animation_count; i++)
        if (g_demo->animations[i].name && strcmp(g_demo->animations[i].name, "walk") == 0) g_walk = &g_demo->animations[i];
    if (!g_walk) {
        fprintf(stderr, "load: the demo character has no walk clip\n");
        return false;
    }
    sw_pose_sizes sizes = sw_pose_sizes_of(g_demo);
    g_pose_memory = aligned_alloc(16, sw_pose_memory_size(&sizes));
    sw_pose_bind(&g_pose, &sizes, g_pose_memory);
    return true;
}

static bool pose_at(int frame) {
    sw_diag d = {0};
    return sw_pose_evaluate(g_demo, g_walk, (float)frame / FPS, true, &g_pose, &d) == SW_OK;
}

/* The skin joints' world positions at the current pose (no placement). */
static size_t joints_of(float (*out)[3], size_t max) {
    size_t n = 0;
    for (size_t s = 0; s < g_demo->skin_count; s++)
        for (size_t j = 0; j < g_demo->skins[s].joint_count && n < max; j++, n++) {
            const sw_mat34* w = &g_pose.world[g_demo->skins[s].joints[j]];
            out[n][0] = w->m[0][3], out[n][1] = w->m[1][3], out[n][2] = w->m[2][3];
        }
    return n;
}

/* ---- the height cache ---- */

static uint32_t fine_at(const uint32_t* fine, float x, float z) {
    int32_t t[2];
    sw__snow_fine_texel(x, z, SW_SNOW_CACHE_EXTENT, t);
    return fine[(size_t)t[1] * SW_SNOW_FINE_SIZE + (size_t)t[0]];
}

static void test_height_cache(void) {
    const sw__snow_cache* c = g_renderer->snow_cache;
    SW_CHECK(c && c->built);
    if (!c || !c->built) return;
    SW_CHECK_EQ_INT((int)c->builds, 1); /* a static stage: drawn once for the walk */
    const size_t fine_n = (size_t)SW_SNOW_FINE_SIZE * SW_SNOW_FINE_SIZE, coarse_n = (size_t)SW_SNOW_COARSE_SIZE * SW_SNOW_COARSE_SIZE;
    uint32_t* fine = malloc(fine_n * 4);
    uint32_t* coarse = malloc(coarse_n * 4);
    uint32_t* dirty = malloc(coarse_n * 4);
    sw_diag d = {0};
    SW_CHECK(fine && coarse && dirty && sw__snow_cache_read(c, fine, coarse, dirty, &d) == SW_OK);
    if (!fine || !coarse || !dirty) return;
    const float lowest = c->lowest, span = c->span;
    /* The ground, bare of anything within 2 m: height 0, flat (difference 0). */
    const uint32_t ground = sw__snow_height_pack((0.0f - lowest) / span, 0);
    const uint32_t got_ground = fine_at(fine, 5.0f, 5.0f);
    fprintf(stderr, "  ground word 0x%08x (C 0x%08x), range %.3f + %.3f\n", got_ground, ground, (double)lowest, (double)span);
    SW_CHECK(got_ground >> 16 >= (ground >> 16) - 1 && got_ground >> 16 <= (ground >> 16) + 1 && (got_ground & 0xFFFFu) == 0);
    /* The stacked crate (crate_c at y 0.7, 0.7 m high): its top, 1.4. */
    const uint32_t crate = sw__snow_height_pack((1.4f - lowest) / span, 0);
    const uint32_t got_crate = fine_at(fine, -2.45f, -1.4f);
    fprintf(stderr, "  crate top word 0x%08x (C 0x%08x)\n", got_crate, crate);
    SW_CHECK(got_crate >> 16 >= (crate >> 16) - 1 && got_crate >> 16 <= (crate >> 16) + 1);
    int32_t t[2];
    sw__snow_fine_texel(-2.45f, -1.4f, SW_SNOW_CACHE_EXTENT, t);
    const uint32_t crate_cell = coarse[(size_t)(t[1] >> 3) * SW_SNOW_COARSE_SIZE + (size_t)(t[0] >> 3)];
    SW_CHECK(crate_cell == 1u << sw__snow_coarse_layer((1.4f - lowest) / span));
    /* The CPU copy. */
    float y = -1.0f;
    SW_CHECK(sw__snow_cache_ground(c, -2.45f, -1.4f, &y) && fabsf(y - 1.4f) < 2.0f * span / 65532.0f);
    SW_CHECK(sw__snow_cache_ground(c, 5.0f, 5.0f, &y) && fabsf(y) < 2.0f * span / 65532.0f);
    SW_CHECK(!sw__snow_cache_ground(c, 40.0f, 0.0f, &y)); /* outside the window */
    /* The coarse rule over every cell. */
    size_t refused = 0, refused_with_hole = 0, bad_layers = 0, bad_dirty = 0, winners = 0;
    for (size_t cz = 0; cz < SW_SNOW_COARSE_SIZE; cz++)
        for (size_t cx = 0; cx < SW_SNOW_COARSE_SIZE; cx++) {
            const uint32_t mask = coarse[cz * SW_SNOW_COARSE_SIZE + cx];
            uint32_t won = 0;
            bool hole = false;
            for (size_t j = 0; j < 8; j++)
                for (size_t i = 0; i < 8; i++) {
                    const uint32_t w = fine[(cz * 8 + j) * SW_SNOW_FINE_SIZE + cx * 8 + i];
                    if (!w) {
                        hole = true;
                        continue;
                    }
                    float h;
                    uint32_t diff;
                    sw__snow_height_unpack(w, &h, &diff);
                    won |= 1u << sw__snow_coarse_layer(h);
                    winners++;
                }
            if ((won & ~mask) || !sw__snow_coarse_accept(won)) bad_layers++;
            if ((dirty[cz * SW_SNOW_COARSE_SIZE + cx] != 0) != (won != 0)) bad_dirty++;
            if (!sw__snow_coarse_accept(mask)) refused++, refused_with_hole += hole;
        }
    fprintf(stderr, "  %zu texels won, %zu coarse cells refused a layer\n", winners, refused);
    SW_CHECK(winners > fine_n / 4); /* the 24 m ground covers 56 % of the 32 m window */
    SW_CHECK_EQ_INT((int)bad_layers, 0);
    SW_CHECK_EQ_INT((int)bad_dirty, 0);
    SW_CHECK(refused > 0); /* the crate edges over the ground */
    SW_CHECK_EQ_INT((int)refused_with_hole, (int)refused);
    free(fine), free(coarse), free(dirty);
}

/* ---- the walk ---- */

typedef struct stamp {
    float p[3];
} stamp;

static sw_camera g_camera;

static float luma(const uint8_t* p) { return (0.2126f * p[0] + 0.7152f * p[1] + 0.0722f * p[2]) / 255.0f; }

/* World point → pixel (x right, y down) in the last frame. */
static bool project(const float m[16], const float p[3], float out[2]) {
    const float x = m[0] * p[0] + m[4] * p[1] + m[8] * p[2] + m[12];
    const float y = m[1] * p[0] + m[5] * p[1] + m[9] * p[2] + m[13];
    const float w = m[3] * p[0] + m[7] * p[1] + m[11] * p[2] + m[15];
    if (!(w > 1e-4f)) return false;
    out[0] = (x / w * 0.5f + 0.5f) * W;
    out[1] = (1.0f - (y / w * 0.5f + 0.5f)) * H;
    return true;
}

/* `least`: the fewest darker pixels asked for; `darker_out`: how many
   there were (NULL: the walk's checks, else only the position check). */
static void test_walk(uint8_t* with, uint8_t* without, const stamp* stamps, size_t stamp_count, size_t least,
                      size_t* darker_out) {
    float vp[16];
    sw_camera_view_projection(&g_camera, (float)W / H, vp);
    /* Each stamp's disc in the picture: its centre and a radius from its
       rim points (+1.5 px for filtering). */
    float(*disc)[3] = calloc(stamp_count ? stamp_count : 1, sizeof *disc);
    size_t in_view = 0;
    for (size_t s = 0; s < stamp_count; s++) {
        float centre[2], rim[2];
        disc[s][2] = -1.0f;
        if (!project(vp, stamps[s].p, centre)) continue;
        float r = 0.0f;
        for (int k = 0; k < 4; k++) {
            const float q[3] = {stamps[s].p[0] + (k == 0 ? SW_SNOW_FOOT_RADIUS : k == 1 ? -SW_SNOW_FOOT_RADIUS : 0.0f), 0.0f,
                                stamps[s].p[2] + (k == 2 ? SW_SNOW_FOOT_RADIUS : k == 3 ? -SW_SNOW_FOOT_RADIUS : 0.0f)};
            if (project(vp, q, rim)) r = fmaxf(r, hypotf(rim[0] - centre[0], rim[1] - centre[1]));
        }
        disc[s][0] = centre[0], disc[s][1] = centre[1], disc[s][2] = r + 1.5f;
        if (centre[0] >= 0 && centre[0] < W && centre[1] >= 0 && centre[1] < H) in_view++;
    }
    size_t darker = 0, brighter = 0, off_track = 0, brighter_off = 0;
    float deepest = 0.0f;
    bool* near = calloc(stamp_count ? stamp_count : 1, 1);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            const size_t i = ((size_t)y * W + (size_t)x) * 4;
            const float drop = luma(&without[i]) - luma(&with[i]);
            const bool dark = drop > 0.04f;
            if (!dark && drop >= -0.04f) continue;
            bool on = false;
            for (size_t s = 0; s < stamp_count; s++) {
                if (disc[s][2] < 0.0f) continue;
                if (hypotf((float)x + 0.5f - disc[s][0], (float)y + 0.5f - disc[s][1]) <= disc[s][2]) {
                    on = true;
                    if (dark) near[s] = true;
                }
            }
            if (!dark) {
                brighter++, brighter_off += !on;
                continue;
            }
            darker++;
            deepest = fmaxf(deepest, drop);
            off_track += !on;
        }
    size_t found = 0;
    for (size_t s = 0; s < stamp_count; s++) found += near[s];
    fprintf(stderr, "  %zu pixels darker (deepest %.3f), %zu off the feet's discs; %zu brighter, %zu of them off the discs; "
                    "%zu of %zu deep stamps in view have a darker pixel\n",
            darker, (double)deepest, off_track, brighter, brighter_off, found, in_view);
    SW_CHECK_EQ_INT((int)off_track, 0);    /* every darker pixel is where a foot was */
    SW_CHECK_EQ_INT((int)brighter_off, 0); /* and every brighter one */
    if (darker_out) {
        *darker_out = darker;
    } else {
        SW_CHECK(darker >= least);
        SW_CHECK(deepest > 0.07f);
        SW_CHECK(found * 2 >= in_view); /* and most of the footprints in view show */
    }
    free(disc), free(near);
}

/* The ring: the trail moved 12 units (exactly 512 texels) away and back
   clears every column twice, so the old track, whose ring addresses the
   moved window reuses, is gone; only the last frame's stamps (her planted
   foot) stay. Without the clearing the track would come back. */
static void test_ring(uint8_t* with, uint8_t* without, stamp* stamps, size_t stamp_count) {
    (void)stamp_count;
    sw_diag d = {0};
    const sw_mat34 away = sw_mat34_translation(sw_vec3_make(SW_SNOW_TRAIL_EXTENT, 0.0f, 0.0f));
    sw_render_frame frame = {.pose = &g_pose, .camera = {.current = g_camera, .previous = g_camera},
                             .shading = {.time = (float)FRAMES / FPS}, .post = {.aa = SW_RENDER_AA_NONE}};
    bool ok = pose_at(FRAMES - 1);
    frame.placement = &away;
    ok = ok && sw__snow_trail_update(g_renderer, &frame, &d) == SW_OK;
    frame.placement = NULL, frame.shading.time += 1.0f / FPS;
    ok = ok && sw_renderer_draw(g_renderer, &frame, &d) == SW_OK && sw_renderer_read_image(g_renderer, with, &d) == SW_OK;
    frame.shading.no_footprints = true; /* the same time: what moves with it (the water) stays out */
    ok = ok && sw_renderer_draw(g_renderer, &frame, &d) == SW_OK && sw_renderer_read_image(g_renderer, without, &d) == SW_OK;
    SW_CHECK(ok);
    if (!ok) return;
    /* The last frame's stamps only, shallow ones included. */
    float(*joints)[3] = calloc(512, sizeof *joints);
    size_t n = joints ? joints_of(joints, 512) : 0, last = 0;
    for (size_t j = 0; j < n; j++)
        if (joints[j][1] < SW_SNOW_CONTACT_HIGH) memcpy(stamps[last++].p, joints[j], 12);
    size_t darker = 0;
    test_walk(with, without, stamps, last, 0, &darker);
    fprintf(stderr, "  after 12 units away and back: %zu pixels darker (the last frame has %zu stamps)\n", darker, last);
    SW_CHECK(darker < 70 / 2);
    free(joints);
}

static void run_walk(void) {
    sw_diag d = {0};
    const sw_render_stage_model stage = {.model = g_stage, .materials = &g_stage_materials,
                                         .placement = sw_mat34_identity()};
    if (sw_renderer_create(&(sw_renderer_desc){.width = W, .height = H, .shadow_map_size = 512}, &g_renderer, &d) != SW_OK ||
        sw_renderer_set_scene(g_renderer, g_demo, &g_materials, &d) != SW_OK ||
        sw_renderer_set_stage(g_renderer, &stage, 1, &d) != SW_OK) {
        fprintf(stderr, "renderer: %s\n", d.message);
        SW_CHECK(false);
        return;
    }
    /* Where she walks: her joints' mean at the first and last frame. */
    float (*joints)[3] = calloc(512, sizeof *joints);
    float start[3] = {0}, end[3] = {0};
    for (int f = 0; f < FRAMES; f += FRAMES - 1) {
        SW_CHECK(pose_at(f));
        const size_t n = joints_of(joints, 512);
        float* m = f == 0 ? start : end;
        for (size_t j = 0; j < n; j++)
            for (int k = 0; k < 3; k++) m[k] += joints[j][k] / (float)n;
    }
    float dir[2] = {end[0] - start[0], end[2] - start[2]};
    const float len = hypotf(dir[0], dir[1]);
    dir[0] /= len > 1e-3f ? len : 1.0f, dir[1] /= len > 1e-3f ? len : 1.0f;
    /* The camera: behind her and to her side, above, looking at the track. */
    g_camera = (sw_camera){.eye = {end[0] - 2.6f * dir[0] + 1.4f * dir[1], 2.2f, end[2] - 2.6f * dir[1] - 1.4f * dir[0]},
                           .target = {end[0] - 0.6f * dir[0], 0.0f, end[2] - 0.6f * dir[1]},
                           .up = {0, 1, 0}, .fov_y = 0.9f, .z_near = 0.05f, .z_far = 100.0f};
    /* The frames; the deep stamps (depth over 0.5 on the flat ground
       where she walks: y under 0.12) recorded as the trail makes them. */
    stamp* stamps = calloc((size_t)FRAMES * 512, sizeof *stamps);
    size_t stamp_count = 0;
    uint8_t* with = malloc(W * H * 4);
    uint8_t* without = malloc(W * H * 4);
    bool ok = joints && stamps && with && without;
    for (int f = 0; ok && f < FRAMES; f++) {
        ok = pose_at(f);
        const size_t n = joints_of(joints, 512);
        for (size_t j = 0; j < n; j++)
            if (joints[j][1] < 0.5f * (SW_SNOW_CONTACT_LOW + SW_SNOW_CONTACT_HIGH)) memcpy(stamps[stamp_count++].p, joints[j], 12);
        sw_render_frame frame = {.pose = &g_pose, .first_frame = f == 0, .camera = {.current = g_camera, .previous = g_camera},
                                 .shading = {.time = (float)f / FPS}, .post = {.aa = SW_RENDER_AA_NONE, .bloom = false}};
        if (f == 0 || f == FRAMES - 1) {
            ok = ok && sw_renderer_draw(g_renderer, &frame, &d) == SW_OK;
            if (f == FRAMES - 1) {
                ok = ok && sw_renderer_read_image(g_renderer, with, &d) == SW_OK;
                frame.shading.no_footprints = true;
                ok = ok && sw_renderer_draw(g_renderer, &frame, &d) == SW_OK &&
                     sw_renderer_read_image(g_renderer, without, &d) == SW_OK;
            }
        } else {
            /* What the draw does for the snow before its G-buffer pass. */
            ok = ok && sw__snow_cache_update(g_renderer, &frame, &d) == SW_OK &&
                 sw__snow_trail_update(g_renderer, &frame, &d) == SW_OK;
        }
    }
    if (!ok) fprintf(stderr, "  walk: %s\n", d.message);
    SW_CHECK(ok);
    if (ok) {
        test_height_cache();
        test_walk(with, without, stamps, stamp_count, 70 / 2, NULL);
        test_ring(with, without, stamps, stamp_count);
    }
    free(joints), free(stamps), free(with), free(without);
}

int main(void) {
    int early = sw_test_gl_begin(&g_context);
    if (early >= 0) return early;
    if (!load()) return EXIT_FAILURE;
    SW_RUN(run_walk);
    sw_renderer_destroy(g_renderer);
    sw_gl_context_destroy(g_context);
    sw_model_free(g_stage);
    sw_model_free(g_demo);
    sw_material_set_free(&g_materials);
    sw_material_set_free(&g_stage_materials);
    free(g_pose_memory);
    return sw_test_finish();
}
