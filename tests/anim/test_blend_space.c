/* 2-D blend spaces: the triangulation against a brute-force Delaunay check,
   weights against hand-computed values and invariants, and the demo
   character's walk/wave/twist space at a sample. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "sinew/blend_space.h"
#include "sinew/demo.h"
#include "sinew/gltf.h"
#include "sinew/pose.h"
#include "test_random.h"

typedef struct built {
    sw_blend_space_2d space;
    void* memory;
} built;

static bool build(built* b, const float* xy, size_t n, sw_diag* diag) {
    size_t bytes = sw_blend_space_2d_memory_size(n);
    b->memory = bytes ? aligned_alloc(16, bytes) : NULL;
    return sw_blend_space_2d_build(&b->space, xy, n, b->memory, bytes, diag) == SW_OK;
}

/* Every triangle's circumcircle holds no point strictly inside (brute force,
   in long double, written apart from the library's predicate), triangles are
   counter-clockwise, and their areas add up to the hull's. */
static void check_delaunay(const sw_blend_space_2d* s) {
    const float* p = s->points;
    long double area_sum = 0;
    for (size_t t = 0; t < s->triangle_count; t++) {
        const uint32_t* v = s->triangles + 3 * t;
        long double ax = p[2 * v[0]], ay = p[2 * v[0] + 1], bx = p[2 * v[1]], by = p[2 * v[1] + 1];
        long double cx = p[2 * v[2]], cy = p[2 * v[2] + 1];
        long double d = 2 * (ax * (by - cy) + bx * (cy - ay) + cx * (ay - by));
        SW_CHECK(d > 0);
        area_sum += d / 4;
        long double ux = ((ax * ax + ay * ay) * (by - cy) + (bx * bx + by * by) * (cy - ay) +
                          (cx * cx + cy * cy) * (ay - by)) / d;
        long double uy = ((ax * ax + ay * ay) * (cx - bx) + (bx * bx + by * by) * (ax - cx) +
                          (cx * cx + cy * cy) * (bx - ax)) / d;
        long double r2 = (ax - ux) * (ax - ux) + (ay - uy) * (ay - uy);
        for (size_t k = 0; k < s->point_count; k++) {
            long double dx = p[2 * k] - ux, dy = p[2 * k + 1] - uy;
            if (dx * dx + dy * dy < r2 * (1 - 1e-9L)) {
                fprintf(stderr, "  point %zu inside circumcircle of triangle %zu\n", k, t);
                SW_CHECK(!"empty circumcircle");
            }
        }
    }
    long double hull_area = 0;
    for (size_t i = 0; i < s->hull_count; i++) {
        const float* a = p + 2 * s->hull[i];
        const float* b = p + 2 * s->hull[(i + 1) % s->hull_count];
        hull_area += ((long double)a[0] * b[1] - (long double)b[0] * a[1]) / 2;
    }
    SW_CHECK_NEAR((double)area_sum, (double)hull_area, 1e-6 * fabs((double)hull_area));
    SW_CHECK_EQ_INT(s->triangle_count, 2 * s->point_count - 2 - s->hull_count);
}

static void test_square_with_centre(void) {
    /* a 3×3 grid: many co-circular quadruples */
    float xy[18];
    for (int i = 0; i < 9; i++) xy[2 * i] = (float)(i % 3) - 1.0f, xy[2 * i + 1] = (float)(i / 3) - 1.0f;
    built b;
    sw_diag diag;
    SW_CHECK(build(&b, xy, 9, &diag));
    SW_CHECK_EQ_INT(b.space.hull_count, 8); /* the edge midpoints are on the boundary */
    SW_CHECK_EQ_INT(b.space.triangle_count, 8);
    check_delaunay(&b.space);
    free(b.memory);
}

static void test_random_sets_are_delaunay(void) {
    rng r = {31};
    for (int set = 0; set < 40; set++) {
        size_t n = 3 + (size_t)(rng_u32(&r) % 40);
        float xy[2 * 43];
        for (size_t i = 0; i < 2 * n; i++) xy[i] = rng_range(&r, -3.0f, 3.0f);
        if (set % 4 == 0) /* snapped to a grid: collinear and co-circular points */
            for (size_t i = 0; i < 2 * n; i++) xy[i] = roundf(xy[i]);
        built b;
        sw_diag diag;
        if (!build(&b, xy, n, &diag)) { /* a snapped set may hold duplicates or one line */
            SW_CHECK(set % 4 == 0 && diag.result == SW_ERR_INVALID_DATA);
            free(b.memory);
            continue;
        }
        check_delaunay(&b.space);
        free(b.memory);
    }
}

static void test_hand_computed_weights(void) {
    /* walk (0,0), wave (1,0), twist (0,1): one triangle */
    const float xy[6] = {0, 0, 1, 0, 0, 1};
    built b;
    sw_diag diag;
    SW_CHECK(build(&b, xy, 3, &diag));
    float w[3];
    sw_blend_space_2d_weights(&b.space, SW_BLEND_2D_TRIANGLES, 0.25f, 0.5f, w);
    SW_CHECK_NEAR(w[0], 0.25, 1e-7); SW_CHECK_NEAR(w[1], 0.25, 1e-7); SW_CHECK_NEAR(w[2], 0.5, 1e-7);
    sw_blend_space_2d_weights(&b.space, SW_BLEND_2D_TRIANGLES, 1.0f, 0.0f, w);
    SW_CHECK(w[0] == 0.0f && w[1] == 1.0f && w[2] == 0.0f);
    /* outside, beyond the hypotenuse: (1,1) projects to (0.5,0.5) */
    sw_blend_space_2d_weights(&b.space, SW_BLEND_2D_TRIANGLES, 1.0f, 1.0f, w);
    SW_CHECK_NEAR(w[0], 0.0, 1e-7); SW_CHECK_NEAR(w[1], 0.5, 1e-7); SW_CHECK_NEAR(w[2], 0.5, 1e-7);
    /* outside, past a corner: (-2,-1) is nearest to (0,0) */
    sw_blend_space_2d_weights(&b.space, SW_BLEND_2D_TRIANGLES, -2.0f, -1.0f, w);
    SW_CHECK_NEAR(w[0], 1.0, 1e-7);
    /* outside below the x axis: (0.3,-5) projects to (0.3,0) */
    sw_blend_space_2d_weights(&b.space, SW_BLEND_2D_TRIANGLES, 0.3f, -5.0f, w);
    SW_CHECK_NEAR(w[0], 0.7, 1e-6); SW_CHECK_NEAR(w[1], 0.3, 1e-6); SW_CHECK_NEAR(w[2], 0.0, 1e-7);
    /* cartesian gradient band at (0.5, 0): walk: to wave 1 − (0.5,0)·(1,0)/1 = 0.5, to twist 1 − 0 = 1;
       wave: to walk 1 − (−0.5,0)·(−1,0) = 0.5, to twist 1 − (−0.5,0)·(−1,1)/2 = 0.75;
       twist: to walk 1 − (0.5,−1)·(0,−1)/1 = 0. So h = (0.5, 0.5, 0). */
    sw_blend_space_2d_weights(&b.space, SW_BLEND_2D_GRADIENT_BAND, 0.5f, 0.0f, w);
    SW_CHECK_NEAR(w[0], 0.5, 1e-6); SW_CHECK_NEAR(w[1], 0.5, 1e-6); SW_CHECK_NEAR(w[2], 0.0, 1e-7);
    free(b.memory);
}

static void test_polar_band_hand_case(void) {
    /* origin O, forward F (0,1), right R (1,0), at q = (0, 0.5); polar deltas
       (Δr / mean r of the pair, 2·angle):
       O: to F Δ = (2, 0), q (1, 0) → 0.5; to R the same → h = 0.5.
       F: to O Δ = (−2, 0), q (−1, 0) → 0.5; to R Δ = (0, −π), q (−0.5, 0) → 1 → h = 0.5.
       R: to O Δ = (−2, 0), q (−1, π) → 0.5; to F Δ = (0, π), q (−0.5, π) → 0 → h = 0. */
    const float xy[6] = {0, 0, 0, 1, 1, 0};
    built b;
    sw_diag diag;
    SW_CHECK(build(&b, xy, 3, &diag));
    float w[3];
    sw_blend_space_2d_weights(&b.space, SW_BLEND_2D_GRADIENT_BAND_POLAR, 0.0f, 0.5f, w);
    SW_CHECK_NEAR(w[0], 0.5, 1e-6); SW_CHECK_NEAR(w[1], 0.5, 1e-6); SW_CHECK_NEAR(w[2], 0.0, 1e-7);
    free(b.memory);
}

static void test_partition_of_unity_on_a_grid(void) {
    const float xy[] = {0, 0, 0, 1.5f, 0, 4, -1, 1.5f, 1, 1.5f, -2, 4, 2, 4, -0.8f, -1, 0.8f, -1, 0.3f, 2.7f};
    const size_t n = sizeof xy / sizeof xy[0] / 2;
    built b;
    sw_diag diag;
    SW_CHECK(build(&b, xy, n, &diag));
    check_delaunay(&b.space);
    const sw_blend_2d_method methods[3] = {SW_BLEND_2D_TRIANGLES, SW_BLEND_2D_GRADIENT_BAND,
                                            SW_BLEND_2D_GRADIENT_BAND_POLAR};
    float w[16];
    for (int m = 0; m < 3; m++) {
        double worst_sum = 0, worst_neg = 0, worst_sample = 0;
        for (int iy = 0; iy <= 120; iy++)
            for (int ix = 0; ix <= 120; ix++) {
                float x = -3.0f + 6.0f * (float)ix / 120.0f, y = -2.0f + 7.0f * (float)iy / 120.0f;
                sw_blend_space_2d_weights(&b.space, methods[m], x, y, w);
                double sum = 0;
                for (size_t k = 0; k < n; k++) {
                    sum += w[k];
                    if (w[k] < worst_neg) worst_neg = w[k];
                }
                if (fabs(sum - 1) > worst_sum) worst_sum = fabs(sum - 1);
            }
        for (size_t i = 0; i < n; i++) {
            sw_blend_space_2d_weights(&b.space, methods[m], xy[2 * i], xy[2 * i + 1], w);
            for (size_t k = 0; k < n; k++) worst_sample = fmax(worst_sample, fabs(w[k] - (k == i ? 1.0 : 0.0)));
        }
        SW_CHECK(worst_sum < 1e-6);
        SW_CHECK(worst_neg == 0.0);
        SW_CHECK(worst_sample == 0.0);
    }
    /* the triangle weights are continuous inside the hull: a small step moves them a little */
    float w2[16];
    double jump = 0;
    for (int i = 0; i < 2000; i++) {
        float x = -1.9f + 3.8f * (float)i / 2000.0f, y = 2.2f;
        sw_blend_space_2d_weights(&b.space, SW_BLEND_2D_TRIANGLES, x, y, w);
        sw_blend_space_2d_weights(&b.space, SW_BLEND_2D_TRIANGLES, x + 1e-4f, y, w2);
        for (size_t k = 0; k < n; k++) jump = fmax(jump, fabs(w[k] - w2[k]));
    }
    SW_CHECK(jump < 1e-3);
    free(b.memory);
}

static void test_degenerate_inputs(void) {
    sw_diag diag;
    built b;
    const float line[8] = {0, 0, 1, 1, 2, 2, 3, 3};
    SW_CHECK(!build(&b, line, 4, &diag));
    SW_CHECK(diag.result == SW_ERR_INVALID_DATA && strstr(diag.message, "one line"));
    free(b.memory);
    const float dup[8] = {0, 0, 1, 0, 0, 1, 1, 0};
    SW_CHECK(!build(&b, dup, 4, &diag));
    SW_CHECK(diag.result == SW_ERR_INVALID_DATA && strstr(diag.message, "points 1 and 3"));
    free(b.memory);
    const float nan_point[6] = {0, 0, NAN, 0, 0, 1};
    SW_CHECK(!build(&b, nan_point, 3, &diag));
    SW_CHECK(diag.result == SW_ERR_INVALID_DATA && diag.index == 1);
    free(b.memory);
    SW_CHECK(!build(&b, line, 2, &diag));
    SW_CHECK(diag.result == SW_ERR_INVALID_DATA);
    free(b.memory);
    SW_CHECK(sw_blend_space_2d_memory_size(SW_BLEND_SPACE_2D_MAX_POINTS + 1) == 0);
    /* collinear points plus one off the line: a fan, with every point on the boundary */
    const float fan[10] = {0, 0, 1, 0, 2, 0, 3, 0, 1.5f, 1};
    SW_CHECK(build(&b, fan, 5, &diag));
    SW_CHECK_EQ_INT(b.space.hull_count, 5);
    SW_CHECK_EQ_INT(b.space.triangle_count, 3);
    check_delaunay(&b.space);
    float w[5];
    sw_blend_space_2d_weights(&b.space, SW_BLEND_2D_TRIANGLES, 1.5f, -1.0f, w); /* below the line: between 1 and 2 */
    SW_CHECK_NEAR(w[1], 0.5, 1e-6); SW_CHECK_NEAR(w[2], 0.5, 1e-6);
    free(b.memory);
}

static void test_phase_sync(void) {
    sw_sync_member m[3] = {{.start = 0, .duration = 1.0f}, {.start = 0, .duration = 2.0f}, {.start = 0.5f, .duration = 0.8f}};
    const float w[3] = {0.5f, 0.25f, 0.25f};
    float cycle = sw_blend_space_2d_sync(m, w, 3, 1.25f);
    SW_CHECK_NEAR(cycle, 0.5 * 1 + 0.25 * 2 + 0.25 * 0.8, 1e-6);
    SW_CHECK_NEAR(m[0].time, 0.25, 1e-6); SW_CHECK_NEAR(m[1].time, 0.5, 1e-6); SW_CHECK_NEAR(m[2].time, 0.7, 1e-6);
    SW_CHECK(m[1].weight == 0.25f);
}

/* The check: walk (0,0), wave (1,0), twist (0,1) at (1,0) is wave's pose. */
static void test_demo_space_at_a_sample_is_that_clip(void) {
    uint8_t* glb = NULL;
    size_t size = 0;
    sw_diag diag;
    sw_model* model = NULL;
    if (sw_demo_character_glb(&glb, &size, &diag) != SW_OK ||
        sw_gltf_load_memory(glb, size, SW_DEMO_CHARACTER_NAME, NULL, NULL, &model, &diag) != SW_OK) {
        SW_CHECK(!"demo character");
        sw_demo_character_glb_free(glb);
        return;
    }
    sw_demo_character_glb_free(glb);
    const char* names[3] = {"walk", "wave", "twist"};
    sw_pose_sizes sizes = sw_pose_sizes_of(model);
    size_t bytes = sw_pose_memory_size(&sizes);
    sw_pose poses[4];
    void* mem[4];
    for (int i = 0; i < 4; i++) mem[i] = aligned_alloc(16, bytes), sw_pose_bind(&poses[i], &sizes, mem[i]);
    const float xy[6] = {0, 0, 1, 0, 0, 1};
    built b;
    SW_CHECK(build(&b, xy, 3, &diag));
    float w[3];
    sw_blend_space_2d_weights(&b.space, SW_BLEND_2D_TRIANGLES, 1.0f, 0.0f, w);
    const float t = 0.7f;
    const sw_transform* locals[3];
    for (int i = 0; i < 3; i++) {
        int32_t c = sw_model_find_clip(model, names[i]);
        SW_CHECK(c >= 0);
        SW_CHECK(sw_pose_sample(model, &model->animations[c], t, true, &poses[i], &diag) == SW_OK);
        locals[i] = poses[i].local;
    }
    sw_blend_layer layers[3];
    SW_CHECK(sw_blend_poses(poses[3].local, model->node_count, model->rest_local, locals, w, 3, layers, &diag) == SW_OK);
    sw_pose_update_world(model, &poses[1]);
    sw_pose_update_world(model, &poses[3]);
    double worst = 0;
    for (size_t j = 0; j < model->node_count; j++)
        for (int r = 0; r < 3; r++) worst = fmax(worst, fabs(poses[1].world[j].m[r][3] - poses[3].world[j].m[r][3]));
    fprintf(stderr, "  blend at (1,0) vs wave: %.3g m\n", worst);
    SW_CHECK(worst <= 1e-5);
    free(b.memory);
    for (int i = 0; i < 4; i++) free(mem[i]);
    sw_model_free(model);
}

int main(void) {
    SW_RUN(test_square_with_centre);
    SW_RUN(test_random_sets_are_delaunay);
    SW_RUN(test_hand_computed_weights);
    SW_RUN(test_polar_band_hand_case);
    SW_RUN(test_partition_of_unity_on_a_grid);
    SW_RUN(test_degenerate_inputs);
    SW_RUN(test_phase_sync);
    SW_RUN(test_demo_space_at_a_sample_is_that_clip);
    return sw_test_finish();
}
