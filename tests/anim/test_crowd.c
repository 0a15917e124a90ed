/* Crowds (sinew/crowd.h): N characters with different poses, skinned as
   (character, vertex range) items on several threads in any order, give
   bit for bit what N separate sw_skin_job runs give; the crowd's poses are
   those of sw_pose_evaluate. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "harness.h"
#include "sinew/crowd.h"
#include "sinew/gltf.h"

/* ---- a parallel callback over pthreads, items taken from a shared counter ---- */

#define THREADS 3

typedef struct parallel_run {
    atomic_size_t next;
    size_t count;
    sw_crowd_item_fn item;
    void* context;
    bool reverse; /* hand items out last first: the order must not matter */
} parallel_run;

static void* parallel_worker(void* arg) {
    parallel_run* run = arg;
    for (size_t i; (i = atomic_fetch_add(&run->next, 1)) < run->count;)
        run->item(run->context, run->reverse ? run->count - 1 - i : i);
    return NULL;
}

static void parallel_for(void* user, size_t count, sw_crowd_item_fn item, void* context) {
    parallel_run run = {.count = count, .item = item, .context = context, .reverse = user != NULL};
    atomic_init(&run.next, 0);
    pthread_t threads[THREADS - 1];
    int started = 0;
    for (int t = 0; t < THREADS - 1; t++)
        if (pthread_create(&threads[t], NULL, parallel_worker, &run) == 0) started++;
    parallel_worker(&run);
    for (int t = 0; t < started; t++) pthread_join(threads[t], NULL);
}

/* ---- the twist tube: 8 characters twisted by different angles ---- */

#define TUBE_INSTANCES 8

static void check_tube(sw_skin_method method) {
    sw_twist_tube_desc tube;
    SW_CHECK(sw_twist_tube_resolve(&tube, &(sw_twist_tube_desc){0}) == SW_OK);
    const size_t n = sw_twist_tube_vertex_count(&tube);
    float* positions = malloc(n * 12);
    float* normals = malloc(n * 12);
    float* tangents = malloc(n * 16);
    uint8_t* joints = malloc(n * 2);
    float* weights = malloc(n * 8);
    float* crowd = calloc(TUBE_INSTANCES * n, 40); /* positions | normals | tangents, per stream */
    float* single = calloc(TUBE_INSTANCES * n, 40);
    SW_CHECK(positions && normals && tangents && joints && weights && crowd && single);
    if (!positions || !normals || !tangents || !joints || !weights || !crowd || !single) goto done;
    sw_twist_tube_build(&tube, positions, normals, tangents, joints, weights);

    /* Each instance's palette: the tube's two joints twisted by its own angle. */
    sw_mat34 matrices[TUBE_INSTANCES][2];
    sw_dualquat dual_quats[TUBE_INSTANCES][2];
    const sw_mat34* matrix_ptrs[TUBE_INSTANCES];
    const sw_dualquat* dq_ptrs[TUBE_INSTANCES];
    for (int i = 0; i < TUBE_INSTANCES; i++) {
        sw_transform local[2];
        sw_twist_tube_pose(&tube, 0.35f * (float)(i + 1), local);
        sw_mat34 world[2] = {sw_transform_to_mat34(&local[0]), sw_transform_to_mat34(&local[1])};
        world[1] = sw_mat34_mul(&world[0], &world[1]);
        /* Bind: joint 0 at the origin, joint 1 at length/2 (inverse binds). */
        sw_mat34 inverse_bind[2] = {sw_mat34_identity(), sw_mat34_translation(sw_vec3_make(-0.5f * tube.length, 0, 0))};
        for (int j = 0; j < 2; j++) matrices[i][j] = sw_mat34_mul(&world[j], &inverse_bind[j]);
        sw_skin_dual_quats(dual_quats[i], NULL, matrices[i], 2);
        matrix_ptrs[i] = matrices[i];
        dq_ptrs[i] = dual_quats[i];
    }

    sw_skin_job job = {
        .method = method, .vertex_count = n, .influence_count = 2, .joint_count = 2,
        .joints = joints, .joint_format = SW_JOINT_U8, .weights = weights,
        .in_positions = positions, .in_normals = normals, .in_tangents = tangents,
    };
    /* The crowd: items of 97 vertices (ranges that cut SIMD blocks), three
       threads, items handed out last first. */
    job.out_positions = crowd, job.out_normals = crowd + TUBE_INSTANCES * n * 3;
    job.out_tangents = crowd + TUBE_INSTANCES * n * 6;
    sw_crowd_skin_job cj = {.skin = job, .instance_count = TUBE_INSTANCES, .matrices = matrix_ptrs,
                            .dual_quats = dq_ptrs, .grain = 97};
    sw_diag diag;
    SW_CHECK(sw_crowd_skin_validate(&cj, &diag) == SW_OK);
    SW_CHECK_EQ_INT(sw_crowd_skin_item_count(&cj), TUBE_INSTANCES * ((n + 96) / 97));
    sw_crowd_skin_run(&cj, parallel_for, (void*)1);

    /* One plain job per character, whole mesh at once. */
    for (int i = 0; i < TUBE_INSTANCES; i++) {
        sw_skin_job s = job;
        s.matrices = matrices[i], s.dual_quats = dual_quats[i];
        s.out_positions = single + (size_t)i * n * 3;
        s.out_normals = single + TUBE_INSTANCES * n * 3 + (size_t)i * n * 3;
        s.out_tangents = single + TUBE_INSTANCES * n * 6 + (size_t)i * n * 4;
        SW_CHECK(sw_skin_job_validate(&s, &diag) == SW_OK);
        sw_skin_job_run(&s, 0, n);
    }
    SW_CHECK(memcmp(crowd, single, TUBE_INSTANCES * n * 40) == 0);
    /* The instances really differ: the tip ring of character 0 is not character 1's. */
    SW_CHECK(memcmp(crowd + (n - 1) * 3, crowd + (2 * n - 1) * 3, 12) != 0);
done:
    free(positions), free(normals), free(tangents), free(joints), free(weights), free(crowd), free(single);
}

static void test_tube_lbs(void) { check_tube(SW_SKIN_LBS); }
static void test_tube_dqs(void) { check_tube(SW_SKIN_DQS); }

/* ---- validation ---- */

static void test_validation(void) {
    float in[12] = {0}, out[24];
    uint16_t joints[4] = {0};
    float weights[4] = {1, 1, 1, 1};
    sw_mat34 palette = sw_mat34_identity();
    const sw_mat34* palettes[2] = {&palette, &palette};
    sw_crowd_skin_job cj = {
        .skin = {.vertex_count = 4, .influence_count = 1, .joint_count = 1, .joints = joints, .weights = weights,
                 .in_positions = in, .out_positions = out},
        .instance_count = 2, .matrices = palettes,
    };
    sw_diag diag;
    SW_CHECK(sw_crowd_skin_validate(&cj, &diag) == SW_OK);
    SW_CHECK_EQ_INT(sw_crowd_skin_item_count(&cj), 2);
    sw_crowd_skin_job bad = cj;
    bad.out_instance_vertices = 3; /* instances would overlap */
    SW_CHECK(sw_crowd_skin_validate(&bad, &diag) == SW_ERR_INVALID_ARGUMENT);
    bad = cj;
    bad.skin.out_positions = in; /* in place: instance 1 would read instance 0's output */
    SW_CHECK(sw_crowd_skin_validate(&bad, &diag) == SW_ERR_INVALID_ARGUMENT);
    const sw_mat34* missing[2] = {&palette, NULL};
    bad = cj;
    bad.matrices = missing;
    SW_CHECK(sw_crowd_skin_validate(&bad, &diag) == SW_ERR_INVALID_ARGUMENT);
    SW_CHECK(strstr(diag.message, "instance 1") != NULL);
    bad = cj;
    bad.skin.method = SW_SKIN_DQS; /* no dual quaternion palettes */
    SW_CHECK(sw_crowd_skin_validate(&bad, &diag) == SW_ERR_INVALID_ARGUMENT);
    bad = cj;
    bad.skin.influence_count = 0; /* what sw_skin_job_validate rejects, the crowd does too */
    SW_CHECK(sw_crowd_skin_validate(&bad, &diag) == SW_ERR_INVALID_ARGUMENT);
}

/* ---- a real character: poses and skinning of 8 walkers ---- */

#define WALKERS 8

static void test_arnaud(void) {
    const char* assets = getenv("SINEW_ASSETS");
    if (!assets) SW_SKIP("SINEW_ASSETS is not set (the shared test assets)");
    char path[1024];
    snprintf(path, sizeof path, "%s/gltf/pab/arnaud_locomotion.glb", assets);
    sw_model* model = NULL;
    sw_diag diag;
    if (sw_gltf_load_file(path, NULL, &model, &diag) != SW_OK) {
        fprintf(stderr, "%s\n", diag.message);
        SW_CHECK(0);
        return;
    }
    SW_CHECK(model->animation_count >= 2);
    const sw_pose_sizes sizes = sw_pose_sizes_of(model);
    const size_t stride = sw_pose_memory_size(&sizes);
    uint8_t* memory = aligned_alloc(16, stride * 2 * WALKERS);
    sw_pose poses[2 * WALKERS]; /* the crowd's, then the reference's */
    const sw_clip* clips[WALKERS];
    float times[WALKERS];
    for (size_t i = 0; i < 2 * WALKERS; i++) sw_pose_bind(&poses[i], &sizes, memory + i * stride);
    for (size_t i = 0; i < WALKERS; i++) {
        clips[i] = &model->animations[i % model->animation_count];
        times[i] = 0.173f * (float)i;
    }
    sw_crowd_pose_job pj = {.model = model, .instance_count = WALKERS, .poses = poses, .clips = clips,
                            .times = times, .looping = true};
    SW_CHECK(sw_crowd_pose_validate(&pj, &diag) == SW_OK);
    sw_crowd_pose_run(&pj, 0, WALKERS / 2);
    sw_crowd_pose_run(&pj, WALKERS / 2, WALKERS - WALKERS / 2);
    for (size_t i = 0; i < WALKERS; i++) {
        SW_CHECK(sw_pose_evaluate(model, clips[i], times[i], true, &poses[WALKERS + i], &diag) == SW_OK);
        SW_CHECK(memcmp(poses[i].skin_matrices, poses[WALKERS + i].skin_matrices,
                        sizes.palette_count * sizeof(sw_mat34)) == 0);
    }
    /* A clip that is not the model's own is refused. */
    sw_clip foreign = model->animations[0];
    sw_crowd_pose_job bad = pj;
    bad.clips = NULL, bad.clip = &foreign;
    SW_CHECK(sw_crowd_pose_validate(&bad, &diag) == SW_ERR_INVALID_ARGUMENT);

    /* Every skinned (node, primitive): the crowd against one job per walker. */
    size_t skinned = 0;
    for (size_t nd = 0; nd < model->node_count; nd++) {
        const sw_model_node* node = &model->nodes[nd];
        if (node->mesh < 0 || node->skin < 0) continue;
        const sw_model_skin* skin = &model->skins[node->skin];
        const sw_model_mesh* mesh = &model->meshes[node->mesh];
        for (size_t p = 0; p < mesh->primitive_count; p++) {
            const sw_model_primitive* prim = &mesh->primitives[p];
            if (prim->influence_count == 0) continue;
            skinned++;
            const size_t n = prim->vertex_count;
            float* crowd = malloc(WALKERS * n * 24);
            float* single = malloc(WALKERS * n * 24);
            const sw_mat34* palettes[WALKERS];
            for (size_t i = 0; i < WALKERS; i++) palettes[i] = poses[i].skin_matrices + skin->palette_offset;
            sw_skin_job job = {
                .vertex_count = n, .influence_count = prim->influence_count, .joint_count = skin->joint_count,
                .joints = prim->joints, .weights = prim->weights, .in_positions = prim->positions,
                .in_normals = prim->normals, .out_positions = crowd, .out_normals = prim->normals ? crowd + WALKERS * n * 3 : NULL,
            };
            sw_crowd_skin_job cj = {.skin = job, .instance_count = WALKERS, .matrices = palettes, .grain = 1000};
            SW_CHECK(sw_crowd_skin_validate(&cj, &diag) == SW_OK);
            sw_crowd_skin_run(&cj, parallel_for, NULL);
            for (size_t i = 0; i < WALKERS; i++) {
                sw_skin_job s = job;
                s.matrices = poses[WALKERS + i].skin_matrices + skin->palette_offset;
                s.out_positions = single + i * n * 3;
                s.out_normals = prim->normals ? single + WALKERS * n * 3 + i * n * 3 : NULL;
                SW_CHECK(sw_skin_job_validate(&s, &diag) == SW_OK);
                sw_skin_job_run(&s, 0, n);
            }
            SW_CHECK(memcmp(crowd, single, WALKERS * n * (prim->normals ? 24 : 12)) == 0);
            /* Different times, different shapes. */
            SW_CHECK(memcmp(crowd, crowd + n * 3, n * 12) != 0);
            free(crowd), free(single);
        }
    }
    SW_CHECK(skinned > 0);
    free(memory);
    sw_model_free(model);
}

int main(void) {
    SW_RUN(test_tube_lbs);
    SW_RUN(test_tube_dqs);
    SW_RUN(test_validation);
    SW_RUN(test_arnaud);
    return sw_test_finish();
}
