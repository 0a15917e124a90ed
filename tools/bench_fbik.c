/* sinew bench anim: full-body IK on the model's humanoid (see bench_fbik.h). */
#include "bench_fbik.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sinew/fbik.h"
#include "sinew/pose.h"
#include "sinew/retarget.h"

static sw_vec3 origin_of(const sw_mat34* m) { return sw_vec3_make(m->m[0][3], m->m[1][3], m->m[2][3]); }

/* The worst limit violation of the solved chains, and how many joints break their limits. */
static double measure_limits(const sw_fbik_rig* rig, const sw_transform* local, int* count) {
    double worst = 0;
    for (int c = 0; c < SW_FBIK_CHAIN_COUNT; c++) {
        const sw_fbik_chain* ch = &rig->chains[c];
        for (uint32_t k = 0; k + 1 < ch->count; k++) {
            sw_quat rel = sw_quat_mul(sw_quat_conjugate(ch->rest_rotation[k]), local[ch->node[k]].rotation);
            double v = sw_fbik_limit_violation(&ch->limit[k], rel);
            if (v > 1e-4) (*count)++;
            if (v > worst) worst = v;
        }
    }
    return worst;
}

typedef struct fbik_bench {
    sw_fbik_rig rig;
    sw_humanoid_map map;
    sw_pose pose;
    void* rig_memory;
    void* pose_memory;
    sw_transform* start;  /* the clip's pose, before IK */
    sw_mat34* world;      /* the solver's scratch */
    double* times;
    double* iterations;
} fbik_bench;

static void fbik_bench_free(fbik_bench* b) {
    free(b->rig_memory), free(b->pose_memory), free(b->start), free(b->world), free(b->times), free(b->iterations);
}

static sw_vec3 node_position(const sw_mat34* world, int32_t node) { return origin_of(&world[node]); }

/* The five effectors and the hips at step `rep`, reachable from a standing
   pose of any proportions: the hips 3 cm lower, the head where a lean of
   6-18° forward about the spine's root puts it, each hand at 75 % of its arm's length from the shoulder,
   circling in front of the body, the feet where the rest pose has them. */
static sw_fbik_desc targets(const fbik_bench* b, const sw_mat34* rest_world, int rep) {
    const int32_t* n = b->map.node;
    sw_vec3 hips = node_position(rest_world, n[SW_HUMANOID_HIPS]);
    sw_vec3 head = node_position(rest_world, n[SW_HUMANOID_HEAD]);
    sw_vec3 left = sw_vec3_normalize(sw_vec3_sub(node_position(rest_world, n[SW_HUMANOID_LEFT_UPPER_LEG]),
                                                 node_position(rest_world, n[SW_HUMANOID_RIGHT_UPPER_LEG])));
    sw_vec3 up = sw_vec3_normalize(sw_vec3_sub(head, hips));
    sw_vec3 forward = sw_vec3_normalize(sw_vec3_cross(left, up));
    const float a = (float)rep * 0.2f;
    sw_fbik_desc d = {0};
    sw_vec3 hips_goal = sw_vec3_sub(hips, sw_vec3_scale(up, 0.03f));
    sw_quat lean = sw_quat_from_axis_angle(sw_vec3_cross(up, forward), (12.0f + 6.0f * sinf(0.5f * a)) * (float)(SW_PI / 180));
    d.effectors[SW_FBIK_HIPS].position = hips_goal;
    sw_vec3 spine = node_position(rest_world, n[SW_HUMANOID_SPINE]); /* the lean turns about the spine's root */
    d.effectors[SW_FBIK_HEAD].position = sw_vec3_add(sw_vec3_sub(spine, sw_vec3_scale(up, 0.03f)),
                                                     sw_quat_rotate(lean, sw_vec3_sub(head, spine)));
    for (int side = 0; side < 2; side++) {
        const sw_humanoid_bone* bones = side == 0 ? (const sw_humanoid_bone[]){SW_HUMANOID_LEFT_UPPER_ARM,
                                                                                SW_HUMANOID_LEFT_LOWER_ARM,
                                                                                SW_HUMANOID_LEFT_HAND}
                                                  : (const sw_humanoid_bone[]){SW_HUMANOID_RIGHT_UPPER_ARM,
                                                                                SW_HUMANOID_RIGHT_LOWER_ARM,
                                                                                SW_HUMANOID_RIGHT_HAND};
        sw_vec3 shoulder = node_position(rest_world, n[bones[0]]);
        float length = sw_vec3_length(sw_vec3_sub(node_position(rest_world, n[bones[1]]), shoulder)) +
                       sw_vec3_length(sw_vec3_sub(node_position(rest_world, n[bones[2]]),
                                                  node_position(rest_world, n[bones[1]])));
        float out = side == 0 ? 0.3f : -0.3f, phase = side == 0 ? a : -a;
        sw_vec3 dir = sw_vec3_add(sw_vec3_add(sw_vec3_scale(forward, 0.8f), sw_vec3_scale(up, -0.4f + 0.3f * sinf(phase))),
                                  sw_vec3_scale(left, out + 0.2f * cosf(phase)));
        d.effectors[SW_FBIK_LEFT_HAND + side].position =
            sw_vec3_add(shoulder, sw_vec3_scale(sw_vec3_normalize(dir), 0.75f * length));
    }
    d.effectors[SW_FBIK_LEFT_FOOT].position = node_position(rest_world, n[SW_HUMANOID_LEFT_FOOT]);
    d.effectors[SW_FBIK_RIGHT_FOOT].position = node_position(rest_world, n[SW_HUMANOID_RIGHT_FOOT]);
    for (int e = 0; e < SW_FBIK_EFFECTOR_COUNT; e++) d.effectors[e].weight = 1.0f;
    return d;
}

static bool setup(fbik_bench* b, const sw_model* model, int reps, bench_fbik_report* out) {
    sw_diag diag;
    if (sw_humanoid_map_guess(model, NULL, &b->map, NULL, &diag) != SW_OK) {
        snprintf(out->reason, sizeof out->reason, "no humanoid map: %s", diag.message);
        return true;
    }
    size_t bytes = sw_fbik_memory_size(model->node_count);
    sw_pose_sizes sizes = sw_pose_sizes_of(model);
    size_t pose_bytes = sw_pose_memory_size(&sizes);
    b->rig_memory = bytes ? aligned_alloc(16, bytes) : NULL;
    b->pose_memory = aligned_alloc(16, pose_bytes);
    b->start = malloc(model->node_count * sizeof *b->start);
    b->world = malloc(model->node_count * sizeof *b->world);
    b->times = malloc((size_t)reps * sizeof *b->times);
    b->iterations = malloc((size_t)reps * sizeof *b->iterations);
    if (!b->rig_memory || !b->pose_memory || !b->start || !b->world || !b->times || !b->iterations) return false;
    sw_pose_bind(&b->pose, &sizes, b->pose_memory);
    if (sw_fbik_rig_build(&b->rig, model, &b->map, b->rig_memory, bytes, &diag) != SW_OK) {
        snprintf(out->reason, sizeof out->reason, "%s", diag.message);
        return true;
    }
    out->ran = true;
    return true;
}

bool bench_fbik_run(const sw_model* model, const sw_clip* clip, int reps, bench_fbik_report* out) {
    memset(out, 0, sizeof *out);
    out->reps = reps;
    fbik_bench b = {0};
    if (!setup(&b, model, reps, out)) {
        fbik_bench_free(&b);
        return false;
    }
    if (!out->ran) {
        fbik_bench_free(&b);
        return true;
    }
    sw_diag diag;
    sw_pose_rest(model, &b.pose);
    sw_pose_update_world(model, &b.pose);
    sw_mat34* rest_world = malloc(model->node_count * sizeof *rest_world);
    if (!rest_world) {
        fbik_bench_free(&b);
        return false;
    }
    memcpy(rest_world, b.pose.world, model->node_count * sizeof *rest_world);
    for (int rep = 0; rep < reps; rep++) {
        if (clip) sw_pose_sample(model, clip, (float)rep / 60.0f, true, &b.pose, &diag);
        else sw_pose_rest(model, &b.pose);
        sw_fbik_desc d = targets(&b, rest_world, rep);
        double t0 = now_seconds();
        sw_fbik_result r = sw_fbik_solve(&b.rig, &d, b.pose.local, b.world);
        b.times[rep] = (now_seconds() - t0) * 1e6;
        b.iterations[rep] = r.iterations;
        if (r.residual > out->worst_residual) out->worst_residual = r.residual;
        if (r.residual <= 1e-3f) out->reached++;
        double v = measure_limits(&b.rig, b.pose.local, &out->violations);
        if (v > out->worst_violation) out->worst_violation = v;
    }
    out->microseconds = summarise(b.times, reps);
    out->median_iterations = summarise(b.iterations, reps).median;
    free(rest_world);
    fbik_bench_free(&b);
    return true;
}

void bench_fbik_print_text(const bench_fbik_report* r) {
    if (!r->ran) {
        printf("  full-body IK: skipped (%s)\n", r->reason);
        return;
    }
    printf("  full-body IK (FABRIK, 5 effectors + hips, limits), %d solves from the clip's poses:\n", r->reps);
    printf("  microseconds per character   min      median   max\n");
    printf("  %-26s %8.3f %8.3f %8.3f\n", "sw_fbik_solve", r->microseconds.min, r->microseconds.median,
           r->microseconds.max);
    printf("  residual: worst %.3g m, %d of %d solves within 1 mm; median %.0f iterations\n", r->worst_residual,
           r->reached, r->reps, r->median_iterations);
    printf("  limit violations: %d joints over 1e-4 rad, worst %.3g rad\n", r->violations, r->worst_violation);
}

void bench_fbik_print_json(json_writer* w, const bench_fbik_report* r) {
    json_key(w, "fbik");
    if (!r->ran) {
        json_begin_object(w);
        json_key(w, "skipped"), json_string(w, r->reason);
        json_end_object(w);
        return;
    }
    json_begin_object(w);
    json_key(w, "solves"), json_int(w, r->reps);
    json_stats(w, "microseconds_per_character", r->microseconds);
    json_key(w, "worst_residual_m"), json_double(w, r->worst_residual);
    json_key(w, "solves_within_1mm"), json_int(w, r->reached);
    json_key(w, "median_iterations"), json_double(w, r->median_iterations);
    json_key(w, "limit_violations"), json_int(w, r->violations);
    json_key(w, "worst_violation_rad"), json_double(w, r->worst_violation);
    json_end_object(w);
}
