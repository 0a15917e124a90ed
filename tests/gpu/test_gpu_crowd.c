/* GPU-driven crowds (sinew/gpu_crowd.h) against the CPU: the GPU's poses
   (sampling, local→model, skin matrices) against sw_pose_evaluate for
   several characters, clips and times, every interpolation; the culling's
   visible set and levels against sw_gpu_crowd_classify, its C reference,
   on the bounds the GPU computed; the indirect commands' counts; the
   skinned vertices of the visible characters against sw_deform_primitive.

   Tolerances: float on both sides, the same operations in the same order
   but rounded apart (FMA contraction, the key weight in float on the GPU
   and in double on the CPU): world translations and skin matrices within
   1e-5 of the CPU's on the demo character (1.7 m; measured 5e-7),
   vertices within 5e-5. */
#include <epoxy/gl.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "gl_harness.h"
#include "sinew/demo.h"
#include "sinew/gltf.h"
#include "sinew/gpu_crowd.h"
#include "sinew/render.h"
#include "sinew/pose.h"

#define POSE_TOLERANCE 1e-5
#define VERTEX_TOLERANCE 5e-5

static sw_gl_context* g_context;
static sw_gpu_skinner* g_skinner;
static sw_model* g_demo;

typedef struct cpu_pose {
    sw_pose pose;
    void* memory;
} cpu_pose;

static void cpu_pose_make(cpu_pose* p, const sw_model* m, const sw_clip* clip, float time) {
    sw_pose_sizes sizes = sw_pose_sizes_of(m);
    p->memory = aligned_alloc(16, sw_pose_memory_size(&sizes));
    sw_pose_bind(&p->pose, &sizes, p->memory);
    sw_diag d;
    SW_CHECK(sw_pose_evaluate(m, clip, time, true, &p->pose, &d) == SW_OK);
}

static sw_mat34 placement_of(size_t i) {
    return sw_mat34_translation(sw_vec3_make(1.5f * (float)(i % 8), 0.0f, -1.5f * (float)(i / 8)));
}

/* Largest |GPU − CPU| of every world matrix (all twelve entries) and every
   placed skin matrix, for a crowd posed at frame time 0 (time = phase). */
static void compare_poses(const sw_model* m, size_t n, const uint32_t* clips, const float* phases, double* out_world,
                          double* out_palette) {
    sw_mat34* placements = malloc(n * sizeof *placements);
    for (size_t i = 0; i < n; i++) placements[i] = placement_of(i);
    sw_gpu_crowd_desc desc = {.model = m, .character_count = n, .clips = clips, .phases = phases,
                              .placements = placements};
    sw_gpu_crowd* crowd = NULL;
    sw_diag d;
    SW_CHECK(sw_gpu_crowd_create(g_skinner, &desc, &crowd, &d) == SW_OK);
    if (!crowd) {
        fprintf(stderr, "%s\n", d.message);
        free(placements);
        return;
    }
    SW_CHECK(sw_gpu_crowd_pose(crowd, 0.0f, &d) == SW_OK);
    sw_mat34* world = malloc(n * m->node_count * sizeof *world);
    SW_CHECK(sw_gpu_crowd_read_world(crowd, world, &d) == SW_OK);
    double worst_world = 0.0, worst_palette = 0.0;
    for (size_t i = 0; i < n; i++) {
        cpu_pose p;
        cpu_pose_make(&p, m, clips[i] == SW_GPU_CROWD_REST ? NULL : &m->animations[clips[i]], phases[i]);
        for (size_t nd = 0; nd < m->node_count; nd++)
            for (int r = 0; r < 3; r++)
                for (int c = 0; c < 4; c++) {
                    double e = fabs(world[i * m->node_count + nd].m[r][c] - p.pose.world[nd].m[r][c]);
                    if (!(e <= worst_world)) worst_world = e;
                }
        for (size_t s = 0; s < m->skin_count; s++) {
            const size_t joints = m->skins[s].joint_count;
            sw_mat34* palette = malloc(n * joints * sizeof *palette);
            if (sw_gpu_crowd_read_palette(crowd, s, palette, &d) == SW_OK) {
                for (size_t j = 0; j < joints; j++) {
                    sw_mat34 ref = sw_mat34_mul(&placements[i], &p.pose.skin_matrices[m->skins[s].palette_offset + j]);
                    for (int r = 0; r < 3; r++)
                        for (int c = 0; c < 4; c++) {
                            double e = fabs(palette[i * joints + j].m[r][c] - ref.m[r][c]);
                            if (!(e <= worst_palette)) worst_palette = e;
                        }
                }
            }
            free(palette);
        }
        free(p.memory);
    }
    *out_world = worst_world, *out_palette = worst_palette;
    free(world), free(placements);
    sw_gpu_crowd_destroy(crowd);
}

/* The demo character's three clips at times between keys, past the end
   (looping wraps them) and the rest pose. */
static void test_demo_poses_match_cpu(void) {
    const uint32_t clips[8] = {0, 1, 2, 0, 1, 2, SW_GPU_CROWD_REST, 1};
    const float phases[8] = {0.13f, 0.47f, 0.91f, 1.37f, 1.62f, 3.3f, 0.5f, 0.0f};
    double world = 0, palette = 0;
    compare_poses(g_demo, 8, clips, phases, &world, &palette);
    printf("  demo, 8 characters: world max |GPU - CPU| %.3g, skin matrices %.3g (tolerance %g)\n", world, palette,
           POSE_TOLERANCE);
    SW_CHECK(world <= POSE_TOLERANCE);
    SW_CHECK(palette <= POSE_TOLERANCE);
}

/* Small files with STEP and CUBICSPLINE tracks on translation, rotation and scale. */
static void test_step_and_cubic_match_cpu(void) {
#ifndef SW_TEST_DATA_DIR
    SW_SKIP("SW_TEST_DATA_DIR is not defined");
#else
    static const char* const files[2] = {SW_TEST_DATA_DIR "/gltf/interp_step.gltf",
                                         SW_TEST_DATA_DIR "/gltf/interp_cubicspline.gltf"};
    for (int f = 0; f < 2; f++) {
        sw_model* m = NULL;
        sw_diag d;
        SW_CHECK(sw_gltf_load_file(files[f], NULL, &m, &d) == SW_OK);
        if (!m) continue;
        const uint32_t clips[5] = {0, 0, 0, 0, 0};
        const float phases[5] = {0.0f, 0.25f, 0.5f, 0.8f, 1.9f};
        double world = 0, palette = 0;
        compare_poses(m, 5, clips, phases, &world, &palette);
        printf("  %s: world max |GPU - CPU| %.3g\n", f ? "cubic" : "step", world);
        SW_CHECK(world <= POSE_TOLERANCE);
        sw_model_free(m);
    }
#endif
}

/* A real clip set: arnaud_locomotion.glb's four clips (many keys per
   track, joints under a scaled armature). */
static void test_shared_asset_poses(void) {
    const char* assets = getenv("SINEW_ASSETS");
    if (!assets || !*assets) SW_SKIP("SINEW_ASSETS is not set");
    char path[1024];
    snprintf(path, sizeof path, "%s/gltf/pab/arnaud_locomotion.glb", assets);
    sw_model* m = NULL;
    sw_diag d;
    if (sw_gltf_load_file(path, NULL, &m, &d) != SW_OK) SW_SKIP("arnaud_locomotion.glb is not in SINEW_ASSETS");
    uint32_t clips[8];
    float phases[8];
    for (size_t i = 0; i < 8; i++) {
        clips[i] = (uint32_t)(i % m->animation_count);
        phases[i] = 0.123f + 0.61f * (float)i;
    }
    double world = 0, palette = 0;
    compare_poses(m, 8, clips, phases, &world, &palette);
    printf("  arnaud, 8 characters: world max |GPU - CPU| %.3g, skin matrices %.3g\n", world, palette);
    SW_CHECK(world <= POSE_TOLERANCE);
    SW_CHECK(palette <= POSE_TOLERANCE);
    sw_model_free(m);
}

/* Hand cases of the C reference: in front and near (level 0), far (1),
   behind the eye and beside the frustum (culled). */
static void test_classify_by_hand(void) {
    /* Eye at the origin looking down −Z, 90° vertical field of view, square. */
    const sw_camera camera = {.eye = {0, 0, 0}, .target = {0, 0, -1}, .up = {0, 1, 0}, .fov_y = 1.5707964f,
                              .z_near = 0.1f, .z_far = 1000.0f};
    float vp[16];
    sw_camera_view_projection(&camera, 1.0f, vp);
    const sw_gpu_crowd_view v = sw_gpu_crowd_view_make(vp, 1.0f, 0.1f);
    const float near[4] = {0, 0, -5, 1}, far[4] = {0, 0, -50, 1}, behind[4] = {0, 0, 5, 1}, beside[4] = {20, 0, -5, 1};
    const float edge[4] = {5.5f, 0, -5, 1}; /* 0.35 beyond the right plane x = −z, within its radius */
    SW_CHECK_EQ_INT(sw_gpu_crowd_classify(&v, near), 0);  /* 1 · 1 / 5 = 0.2 ≥ 0.1 */
    SW_CHECK_EQ_INT(sw_gpu_crowd_classify(&v, far), 1);   /* 1 / 50 = 0.02 */
    SW_CHECK_EQ_INT(sw_gpu_crowd_classify(&v, behind), -1);
    SW_CHECK_EQ_INT(sw_gpu_crowd_classify(&v, beside), -1);
    SW_CHECK_EQ_INT(sw_gpu_crowd_classify(&v, edge), 0);
}

/* 64 characters on a grid, a camera that sees some near, some far and
   misses others: the GPU's levels against the C reference on the GPU's
   own bounds, the counts, the commands, and the vertices. */
static void test_cull_commands_and_vertices(void) {
    const sw_model* m = g_demo;
    enum { N = 64 };
    uint32_t clips[N];
    float phases[N];
    sw_mat34 placements[N];
    for (size_t i = 0; i < N; i++) {
        clips[i] = (uint32_t)(i % 3);
        phases[i] = 0.05f + 0.11f * (float)i;
        placements[i] = placement_of(i);
    }
    sw_gpu_crowd_desc desc = {.model = m, .character_count = N, .clips = clips, .phases = phases,
                              .placements = placements};
    sw_gpu_crowd* crowd = NULL;
    sw_diag d;
    SW_CHECK(sw_gpu_crowd_create(g_skinner, &desc, &crowd, &d) == SW_OK);
    if (!crowd) return;
    const size_t prims = sw_gpu_crowd_primitive_count(crowd);
    SW_CHECK(prims > 0);
    /* From beside the grid's first row, looking along it into the rows behind. */
    const sw_camera camera = {.eye = {3.0f, 1.5f, 3.0f}, .target = {6.0f, 1.0f, -6.0f}, .up = {0, 1, 0},
                              .fov_y = 0.7f, .z_near = 0.1f, .z_far = 100.0f};
    float vp[16];
    sw_camera_view_projection(&camera, 160.0f / 120.0f, vp);
    const sw_gpu_crowd_view view = sw_gpu_crowd_view_make(vp, 1.0f / tanf(0.35f), 0.25f);
    SW_CHECK(sw_gpu_crowd_update(crowd, 0.0f, &view, &d) == SW_OK);

    float bounds[4 * N];
    uint32_t counts[SW_GPU_CROWD_LODS];
    uint32_t* commands = malloc(SW_GPU_CROWD_LODS * prims * N * 5 * sizeof(uint32_t));
    SW_CHECK(sw_gpu_crowd_read_bounds(crowd, bounds, &d) == SW_OK);
    SW_CHECK(sw_gpu_crowd_read_commands(crowd, commands, counts, &d) == SW_OK);
    int expected[N], per_level[3] = {0, 0, 0};
    for (size_t i = 0; i < N; i++) {
        expected[i] = sw_gpu_crowd_classify(&view, &bounds[4 * i]);
        per_level[expected[i] + 1]++;
    }
    printf("  64 characters: %d culled, %d at level 0, %d at level 1 (GPU counts %u, %u)\n", per_level[0],
           per_level[1], per_level[2], counts[0], counts[1]);
    /* The view is meant to exercise all three outcomes. */
    SW_CHECK(per_level[0] > 0 && per_level[1] > 0 && per_level[2] > 0);
    SW_CHECK_EQ_INT(counts[0], per_level[1]);
    SW_CHECK_EQ_INT(counts[1], per_level[2]);
    int mismatches = 0;
    for (size_t level = 0; level < SW_GPU_CROWD_LODS; level++)
        for (size_t p = 0; p < prims; p++) {
            sw_gpu_instance_buffers b;
            sw_gpu_instance_get_buffers(sw_gpu_crowd_instance(crowd, level, p), &b);
            for (size_t i = 0; i < N; i++) {
                const uint32_t* cmd = commands + 5 * ((level * prims + p) * N + i);
                mismatches += cmd[1] != (expected[i] == (int)level ? 1u : 0u);
                mismatches += cmd[2] != 0 || cmd[3] != i * b.vertex_count || cmd[4] != i || cmd[0] == 0;
            }
        }
    SW_CHECK_EQ_INT(mismatches, 0);
    /* Level 1 is coarser: fewer vertices and triangles in every primitive,
       and the characters drawn at it are skinned into their spheres. */
    size_t vertices[2] = {0, 0}, triangles[2] = {0, 0};
    for (size_t level = 0; level < SW_GPU_CROWD_LODS; level++)
        for (size_t p = 0; p < prims; p++) {
            sw_gpu_instance_buffers b;
            sw_gpu_instance_get_buffers(sw_gpu_crowd_instance(crowd, level, p), &b);
            vertices[level] += b.vertex_count;
            const uint32_t count = commands[5 * ((level * prims + p) * N)];
            SW_CHECK(count % 3 == 0);
            triangles[level] += count / 3;
        }
    printf("  level 1: %zu of %zu vertices, %zu of %zu triangles\n", vertices[1], vertices[0], triangles[1],
           triangles[0]);
    SW_CHECK(vertices[1] < vertices[0] / 2 && triangles[1] < triangles[0] / 2 && triangles[1] > 0);
    double level1_outside = -1e30;
    for (size_t p = 0; p < prims; p++) {
        sw_gpu_instance* inst = sw_gpu_crowd_instance(crowd, 1, p);
        sw_gpu_instance_buffers b;
        sw_gpu_instance_get_buffers(inst, &b);
        float* out = malloc(b.vertex_count * N * 12);
        SW_CHECK(sw_gpu_instance_read(inst, out, NULL, NULL, NULL, &d) == SW_OK);
        for (size_t i = 0; i < N; i++) {
            if (expected[i] != 1) continue;
            for (size_t v = 0; v < b.vertex_count; v++) {
                const float* q = out + 3 * (i * b.vertex_count + v);
                double ox = q[0] - bounds[4 * i], oy = q[1] - bounds[4 * i + 1], oz = q[2] - bounds[4 * i + 2];
                level1_outside = fmax(level1_outside, sqrt(ox * ox + oy * oy + oz * oz) - bounds[4 * i + 3]);
            }
        }
        free(out);
    }
    printf("  level 1's farthest vertex from its sphere's surface: %.3g\n", level1_outside);
    SW_CHECK(level1_outside <= 1e-4 && level1_outside > -1e30);

    /* Bounds hold every placed skin joint of the CPU pose, and, with the
       margin, every vertex of the visible characters' first primitive. */
    double worst_outside = 0.0, worst_vertex = 0.0, worst_vertex_outside = -1e30;
    sw_gpu_instance_buffers b;
    sw_gpu_instance* level0 = sw_gpu_crowd_instance(crowd, 0, 0);
    sw_gpu_instance_get_buffers(level0, &b);
    float* gpu = malloc(b.vertex_count * N * 12);
    SW_CHECK(sw_gpu_instance_read(level0, gpu, NULL, NULL, NULL, &d) == SW_OK);
    for (size_t i = 0; i < N; i++) {
        cpu_pose p;
        cpu_pose_make(&p, m, &m->animations[clips[i]], phases[i]);
        const sw_model_skin* skin = &m->skins[0];
        for (size_t j = 0; j < skin->joint_count; j++) {
            const sw_mat34* w = &p.pose.world[skin->joints[j]];
            sw_vec3 at = sw_mat34_apply_point(&placements[i], sw_vec3_make(w->m[0][3], w->m[1][3], w->m[2][3]));
            double dx = at.x - bounds[4 * i], dy = at.y - bounds[4 * i + 1], dz = at.z - bounds[4 * i + 2];
            double outside = sqrt(dx * dx + dy * dy + dz * dz) - bounds[4 * i + 3];
            if (outside > worst_outside) worst_outside = outside;
        }
        /* Level 0's vertices of a visible character against the CPU's deformation, placed. */
        if (expected[i] == 0) {
            float* cpu = malloc(b.vertex_count * 12);
            size_t node = 0, primitive = 0;
            for (size_t nd = 0; nd < m->node_count; nd++)
                if (m->nodes[nd].mesh >= 0 && m->nodes[nd].skin >= 0) { node = nd; break; }
            sw_deform def = {.node = node, .primitive = primitive, .out_positions = cpu};
            SW_CHECK(sw_deform_primitive(m, &p.pose, &def, &d) == SW_OK);
            for (size_t v = 0; v < b.vertex_count; v++) {
                sw_vec3 q = sw_mat34_apply_point(&placements[i], sw_vec3_make(cpu[3 * v], cpu[3 * v + 1], cpu[3 * v + 2]));
                double ox = q.x - bounds[4 * i], oy = q.y - bounds[4 * i + 1], oz = q.z - bounds[4 * i + 2];
                double outside = sqrt(ox * ox + oy * oy + oz * oz) - bounds[4 * i + 3];
                if (outside > worst_vertex_outside) worst_vertex_outside = outside;
                const float* g = gpu + 3 * (i * b.vertex_count + v);
                double e = fmax(fabs(g[0] - q.x), fmax(fabs(g[1] - q.y), fabs(g[2] - q.z)));
                if (!(e <= worst_vertex)) worst_vertex = e;
            }
            free(cpu);
        }
        free(p.memory);
    }
    free(gpu);
    printf("  joints outside their sphere by at most %.3g; visible vertices max |GPU - CPU| %.3g\n", worst_outside,
           worst_vertex);
    printf("  the farthest visible vertex from its sphere's surface: %.3g (negative: inside)\n", worst_vertex_outside);
    SW_CHECK(worst_outside <= 1e-4);
    SW_CHECK(worst_vertex_outside <= 1e-4);
    SW_CHECK(worst_vertex <= VERTEX_TOLERANCE);

    /* Drawn: the multi-draw fills part of a small image. */
    GLuint fbo, colour, depth;
    glGenFramebuffers(1, &fbo);
    glGenRenderbuffers(1, &colour);
    glGenRenderbuffers(1, &depth);
    glBindRenderbuffer(GL_RENDERBUFFER, colour);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 160, 120);
    glBindRenderbuffer(GL_RENDERBUFFER, depth);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, 160, 120);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, colour);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, depth);
    glViewport(0, 0, 160, 120);
    glClearColor(0, 0, 0, 0);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    SW_CHECK(sw_gpu_crowd_draw(crowd, vp, &d) == SW_OK);
    unsigned char* pixels = malloc(160 * 120 * 4);
    glReadPixels(0, 0, 160, 120, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
    size_t covered = 0;
    for (size_t k = 0; k < 160 * 120; k++) covered += pixels[4 * k + 3] != 0;
    printf("  drawn: %zu of %d pixels covered\n", covered, 160 * 120);
    SW_CHECK(covered > 500);
    free(pixels);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &fbo);
    glDeleteRenderbuffers(1, &colour);
    glDeleteRenderbuffers(1, &depth);
    free(commands);
    sw_gpu_crowd_destroy(crowd);
}

static void test_bad_input(void) {
    sw_gpu_crowd* crowd = NULL;
    sw_diag d;
    const uint32_t clips[2] = {0, 7};
    sw_gpu_crowd_desc desc = {.model = g_demo, .character_count = 2, .clips = clips};
    SW_CHECK(sw_gpu_crowd_create(g_skinner, &desc, &crowd, &d) == SW_ERR_INDEX_OUT_OF_RANGE && !crowd);
    desc.character_count = 0;
    SW_CHECK(sw_gpu_crowd_create(g_skinner, &desc, &crowd, &d) == SW_ERR_INVALID_ARGUMENT && !crowd);
}

int main(void) {
    int early = sw_test_gl_begin(&g_context);
    if (early >= 0) return early;
    sw_diag d;
    uint8_t* glb = NULL;
    size_t size = 0;
    if (sw_gpu_skinner_create(&g_skinner, &d) != SW_OK || sw_demo_character_glb(&glb, &size, &d) != SW_OK ||
        sw_gltf_load_memory(glb, size, SW_DEMO_CHARACTER_NAME, NULL, NULL, &g_demo, &d) != SW_OK) {
        fprintf(stderr, "setup: %s\n", d.message);
        return 1;
    }
    sw_demo_character_glb_free(glb);
    SW_RUN(test_demo_poses_match_cpu);
    SW_RUN(test_step_and_cubic_match_cpu);
    SW_RUN(test_shared_asset_poses);
    SW_RUN(test_classify_by_hand);
    SW_RUN(test_cull_commands_and_vertices);
    SW_RUN(test_bad_input);
    sw_model_free(g_demo);
    sw_gpu_skinner_destroy(g_skinner);
    sw_gl_context_destroy(g_context);
    return sw_test_finish();
}
