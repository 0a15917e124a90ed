/* LBS volume loss: sw_lbs_retention against the closed-form retention sqrt(1 − 2w(1−w)(1 − cos φ)) and its table, and the twist tube (built, skinned, measured) against the formula in double. */
#include <string.h>

#include "harness.h"
#include "sinew/skin.h"

static double deg(double d) { return d * SW_PI / 180.0; }

/* The closed form, written out again here. */
static double retention_d(double w, double phi) { return sqrt(fmax(0.0, 1.0 - 2.0 * w * (1.0 - w) * (1.0 - cos(phi)))); }

/* Child weight of a ring by the header's description, in double. */
static double ring_weight_d(const sw_twist_tube_desc* d, int ring) {
    double x = (double)ring * d->length / (d->rings - 1);
    double third = d->length / 3.0;
    if (x <= third) return 0.0;
    if (x >= 2.0 * third) return 1.0;
    return (x - third) / third;
}

static void test_retention_formula(void) {
    SW_CHECK_NEAR(sw_lbs_retention(0.5, deg(170)), 0.087156, 5e-7);
    for (int d = 0; d <= 170; d += 10) SW_CHECK_NEAR(sw_lbs_retention(0.5, deg(d)), fabs(cos(deg(d) / 2)), 1e-12);
    /* Seed table at 120°, plus w = ¼ by hand: sqrt(1 − 2·0.1875·1.5) = sqrt(0.4375). */
    SW_CHECK_NEAR(sw_lbs_retention(0.0, deg(120)), 1.0, 1e-12);
    SW_CHECK_NEAR(sw_lbs_retention(0.5, deg(120)), 0.5, 1e-12);
    SW_CHECK_NEAR(sw_lbs_retention(1.0, deg(120)), 1.0, 1e-12);
    SW_CHECK_NEAR(sw_lbs_retention(0.25, deg(120)), sqrt(0.4375), 1e-12);
    SW_CHECK_NEAR(sw_lbs_retention(0.75, deg(120)), sqrt(0.4375), 1e-12);
    /* Symmetric in w ↔ 1−w, and no loss without a twist. */
    for (int k = 0; k <= 20; k++) {
        double w = k / 20.0;
        SW_CHECK_NEAR(sw_lbs_retention(w, deg(77)), sw_lbs_retention(1.0 - w, deg(77)), 1e-12);
        SW_CHECK_NEAR(sw_lbs_retention(w, 0.0), 1.0, 1e-12);
        SW_CHECK_NEAR(sw_lbs_retention(w, deg(77)), retention_d(w, deg(77)), 1e-12);
    }
    /* 180° at w = ½ collapses to the axis: 0, not NaN. */
    SW_CHECK_NEAR(sw_lbs_retention(0.5, SW_PI), 0.0, 1e-7);
}

static void test_tube_resolve(void) {
    sw_twist_tube_desc t;
    memset(&t, 0x55, sizeof t);
    SW_CHECK_EQ_INT(sw_twist_tube_resolve(&t, &(sw_twist_tube_desc){0}), SW_OK);
    SW_CHECK(t.length == 3.0f);
    SW_CHECK(t.radius == 0.5f);
    SW_CHECK_EQ_INT(t.rings, 61);
    SW_CHECK_EQ_INT(t.segments, 32);
    SW_CHECK_EQ_INT(sw_twist_tube_vertex_count(&t), 61 * 32);

    /* Given values are kept. */
    SW_CHECK_EQ_INT(sw_twist_tube_resolve(&t, &(sw_twist_tube_desc){2.0f, 0.25f, 13, 5}), SW_OK);
    SW_CHECK(t.length == 2.0f && t.radius == 0.25f && t.rings == 13 && t.segments == 5);
    SW_CHECK_EQ_INT(sw_twist_tube_vertex_count(&t), 13 * 5);
    SW_CHECK_EQ_INT(sw_twist_tube_resolve(&t, &(sw_twist_tube_desc){0, 0, 7, 3}), SW_OK);
    SW_CHECK(t.length == 3.0f && t.radius == 0.5f && t.rings == 7 && t.segments == 3);

    const sw_twist_tube_desc bad[] = {
        {0, 0, 6, 0},         {0, 0, 0, 2},       {0, 0, -7, 0},       {-1.0f, 0, 0, 0},
        {0, -0.5f, 0, 0},     {NAN, 0, 0, 0},     {0, NAN, 0, 0},      {INFINITY, 0, 0, 0},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        sw_result res = sw_twist_tube_resolve(&t, &bad[i]);
        if (res != SW_ERR_INVALID_ARGUMENT) fprintf(stderr, "  bad desc %zu accepted\n", i);
        SW_CHECK_EQ_INT(res, SW_ERR_INVALID_ARGUMENT);
    }
}

static void test_tube_ring_weights(void) {
    sw_twist_tube_desc t;
    SW_CHECK_EQ_INT(sw_twist_tube_resolve(&t, &(sw_twist_tube_desc){0}), SW_OK);
    for (int r = 0; r <= 20; r++) SW_CHECK(sw_twist_tube_ring_weight(&t, r) == 0.0f);
    for (int r = 40; r <= 60; r++) SW_CHECK(sw_twist_tube_ring_weight(&t, r) == 1.0f);
    SW_CHECK_NEAR(sw_twist_tube_ring_weight(&t, 30), 0.5, 1e-6);
    SW_CHECK_NEAR(sw_twist_tube_ring_weight(&t, 25), 0.25, 1e-6);
    int bad = 0;
    for (int r = 0; r < t.rings; r++) bad += fabs(sw_twist_tube_ring_weight(&t, r) - ring_weight_d(&t, r)) > 1e-6;
    SW_CHECK_EQ_INT(bad, 0);
    /* Monotone, and 0.05 steps over the middle third (default rings). */
    for (int r = 21; r < 40; r++) SW_CHECK_NEAR(sw_twist_tube_ring_weight(&t, r) - sw_twist_tube_ring_weight(&t, r - 1), 0.05, 1e-6);
    /* Another ring count. */
    SW_CHECK_EQ_INT(sw_twist_tube_resolve(&t, &(sw_twist_tube_desc){0, 0, 13, 0}), SW_OK);
    bad = 0;
    for (int r = 0; r < t.rings; r++) bad += fabs(sw_twist_tube_ring_weight(&t, r) - ring_weight_d(&t, r)) > 1e-6;
    SW_CHECK_EQ_INT(bad, 0);
    SW_CHECK_NEAR(sw_twist_tube_ring_weight(&t, 6), 0.5, 1e-6);
}

static void test_tube_build(void) {
    sw_twist_tube_desc t;
    SW_CHECK_EQ_INT(sw_twist_tube_resolve(&t, &(sw_twist_tube_desc){0}), SW_OK);
    size_t n = sw_twist_tube_vertex_count(&t);
    float* pos = malloc(n * 3 * sizeof(float));
    float* nrm = malloc(n * 3 * sizeof(float));
    float* tan = malloc(n * 4 * sizeof(float));
    uint8_t* joints = malloc(n * 2);
    float* weights = malloc(n * 2 * sizeof(float));
    SW_CHECK(pos && nrm && tan && joints && weights);
    if (!(pos && nrm && tan && joints && weights)) return;
    sw_twist_tube_build(&t, pos, nrm, tan, joints, weights);
    int bad_x = 0, bad_radius = 0, bad_normal = 0, bad_tangent = 0, bad_influence = 0, bad_spacing = 0;
    for (int r = 0; r < t.rings; r++) {
        double x = (double)r * t.length / (t.rings - 1);
        double w = ring_weight_d(&t, r);
        double prev_angle = 0.0;
        for (int s = 0; s < t.segments; s++) {
            size_t v = (size_t)r * t.segments + s;
            const float* p = &pos[v * 3];
            const float* nv = &nrm[v * 3];
            const float* tv = &tan[v * 4];
            double rad = sqrt((double)p[1] * p[1] + (double)p[2] * p[2]);
            bad_x += fabs(p[0] - x) > 1e-6;
            bad_radius += fabs(rad - t.radius) > 1e-6;
            /* Unit, radial, outward. */
            bad_normal += fabs(nv[0]) > 1e-6 || fabs(nv[1] - p[1] / rad) > 1e-6 || fabs(nv[2] - p[2] / rad) > 1e-6;
            double tlen = sqrt((double)tv[0] * tv[0] + (double)tv[1] * tv[1] + (double)tv[2] * tv[2]);
            double tdotn = (double)tv[0] * nv[0] + (double)tv[1] * nv[1] + (double)tv[2] * nv[2];
            bad_tangent += fabs(tlen - 1.0) > 1e-6 || fabs(tdotn) > 1e-6 || tv[3] != 1.0f;
            bad_influence += joints[v * 2] != 0 || joints[v * 2 + 1] != 1 ||
                             fabs((double)weights[v * 2] + weights[v * 2 + 1] - 1.0) > 1e-6 ||
                             fabs(weights[v * 2 + 1] - w) > 1e-6 || weights[v * 2] < 0.0f || weights[v * 2 + 1] < 0.0f;
            /* Segments evenly spaced around the ring (one direction, no gaps). */
            double angle = atan2(p[2], p[1]);
            if (s > 0) {
                double step = fmod(angle - prev_angle + 4.0 * SW_PI, 2.0 * SW_PI);
                bad_spacing += fabs(step - 2.0 * SW_PI / t.segments) > 1e-5 &&
                               fabs(step - (2.0 * SW_PI - 2.0 * SW_PI / t.segments)) > 1e-5;
            }
            prev_angle = angle;
        }
    }
    SW_CHECK_EQ_INT(bad_x, 0);
    SW_CHECK_EQ_INT(bad_radius, 0);
    SW_CHECK_EQ_INT(bad_normal, 0);
    SW_CHECK_EQ_INT(bad_tangent, 0);
    SW_CHECK_EQ_INT(bad_influence, 0);
    SW_CHECK_EQ_INT(bad_spacing, 0);

    /* Any output may be NULL, and the others come out the same. */
    float* pos2 = malloc(n * 3 * sizeof(float));
    if (pos2) {
        sw_twist_tube_build(&t, pos2, NULL, NULL, NULL, NULL);
        SW_CHECK(memcmp(pos, pos2, n * 3 * sizeof(float)) == 0);
        free(pos2);
    }
    sw_twist_tube_build(&t, NULL, NULL, NULL, NULL, NULL);

    /* measure_rings: the bind pose measures 1 everywhere; scaling ring r's
       radius by f_r measures f_r. */
    float* ret = malloc((size_t)t.rings * sizeof(float));
    if (ret) {
        sw_twist_tube_measure_rings(&t, pos, ret);
        for (int r = 0; r < t.rings; r++) SW_CHECK_NEAR(ret[r], 1.0, 1e-6);
        for (int r = 0; r < t.rings; r++) {
            float f = 0.2f + 0.01f * (float)r;
            for (int s = 0; s < t.segments; s++) {
                size_t v = (size_t)r * t.segments + s;
                pos[v * 3 + 1] *= f;
                pos[v * 3 + 2] *= f;
            }
        }
        sw_twist_tube_measure_rings(&t, pos, ret);
        for (int r = 0; r < t.rings; r++) SW_CHECK_NEAR(ret[r], 0.2 + 0.01 * r, 1e-6);
        free(ret);
    }
    free(pos);
    free(nrm);
    free(tan);
    free(joints);
    free(weights);
}

static void test_tube_pose(void) {
    sw_twist_tube_desc t;
    SW_CHECK_EQ_INT(sw_twist_tube_resolve(&t, &(sw_twist_tube_desc){0}), SW_OK);
    for (int d = 0; d <= 170; d += 10) {
        sw_transform local[2];
        sw_twist_tube_pose(&t, (float)deg(d), local);
        SW_CHECK_NEAR(local[0].translation.x, 0.0, 1e-7);
        SW_CHECK_NEAR(local[0].translation.y, 0.0, 1e-7);
        SW_CHECK_NEAR(local[0].translation.z, 0.0, 1e-7);
        SW_CHECK_NEAR(local[0].rotation.w * local[0].rotation.w, 1.0, 1e-7);
        SW_CHECK_NEAR(local[1].translation.x, 1.5, 1e-6);
        SW_CHECK_NEAR(local[1].translation.y, 0.0, 1e-7);
        SW_CHECK_NEAR(local[1].translation.z, 0.0, 1e-7);
        /* Twist about +X: (sin(φ/2), 0, 0, cos(φ/2)), up to sign. */
        double sign = local[1].rotation.w < 0 ? -1.0 : 1.0;
        SW_CHECK_NEAR(sign * local[1].rotation.x, sin(deg(d) / 2), 1e-6);
        SW_CHECK_NEAR(local[1].rotation.y, 0.0, 1e-7);
        SW_CHECK_NEAR(local[1].rotation.z, 0.0, 1e-7);
        SW_CHECK_NEAR(sign * local[1].rotation.w, cos(deg(d) / 2), 1e-6);
        for (int j = 0; j < 2; j++) {
            SW_CHECK_NEAR(local[j].scale.x, 1.0, 0.0);
            SW_CHECK_NEAR(local[j].scale.y, 1.0, 0.0);
            SW_CHECK_NEAR(local[j].scale.z, 1.0, 0.0);
        }
    }
}

/* Scratch for the default tube, from the heap (it is too large for the stack). */
static void* tube_scratch(size_t* out_size) {
    *out_size = sw_twist_tube_measure_scratch_size(&(sw_twist_tube_desc){0});
    return aligned_alloc(16, (*out_size + 15) / 16 * 16);
}

/* The measured LBS radius follows the formula at every ring and twist; the
   middle ring (w = ½) is |cos(φ/2)|. */
static void test_tube_measured_lbs(void) {
    sw_twist_tube_desc t;
    SW_CHECK_EQ_INT(sw_twist_tube_resolve(&t, &(sw_twist_tube_desc){0}), SW_OK);
    float ret[61];
    size_t scratch_size;
    void* scratch = tube_scratch(&scratch_size);
    SW_CHECK(scratch != NULL);
    double worst_mid = 0.0, worst_all = 0.0;
    for (int d = 0; d <= 170; d += 10) {
        memset(ret, 0, sizeof ret);
        SW_CHECK_EQ_INT(sw_twist_tube_measure(&(sw_twist_tube_desc){0}, (float)deg(d), SW_SKIN_LBS, scratch, scratch_size,
                                              ret), SW_OK);
        double mid = fabs(cos(deg(d) / 2));
        worst_mid = fmax(worst_mid, fabs(ret[30] - mid) / mid);
        SW_CHECK_NEAR(ret[30], sw_lbs_retention(0.5, deg(d)), 0.005 * mid);
        for (int r = 0; r < t.rings; r++) {
            double e = retention_d(ring_weight_d(&t, r), deg(d));
            worst_all = fmax(worst_all, fabs(ret[r] - e) / e);
        }
    }
    free(scratch);
    fprintf(stderr, "  LBS: worst relative error %.3g at the middle ring, %.3g over all rings\n", worst_mid, worst_all);
    SW_CHECK(worst_mid < 0.005);
    SW_CHECK(worst_all < 0.005);
}

static void test_tube_measured_dqs(void) {
    sw_twist_tube_desc t;
    SW_CHECK_EQ_INT(sw_twist_tube_resolve(&t, &(sw_twist_tube_desc){0}), SW_OK);
    float ret[61];
    size_t scratch_size;
    void* scratch = tube_scratch(&scratch_size);
    SW_CHECK(scratch != NULL);
    double worst = 0.0;
    for (int d = 0; d <= 170; d += 10) {
        memset(ret, 0, sizeof ret);
        SW_CHECK_EQ_INT(sw_twist_tube_measure(&(sw_twist_tube_desc){0}, (float)deg(d), SW_SKIN_DQS, scratch, scratch_size,
                                              ret), SW_OK);
        for (int r = 0; r < t.rings; r++) worst = fmax(worst, fabs(ret[r] - 1.0));
    }
    free(scratch);
    fprintf(stderr, "  DQS: worst |retention − 1| %.3g\n", worst);
    SW_CHECK(worst <= 1e-5);
}

/* The measurement runs in the caller's scratch: its size follows the
   tube (8 floats and 2 joint bytes a vertex), what is in it before does
   not matter, and too little or misaligned scratch is refused. */
static void test_tube_measure_scratch_and_errors(void) {
    const sw_twist_tube_desc small = {0, 0, 13, 8};
    size_t size = sw_twist_tube_measure_scratch_size(&small);
    SW_CHECK_EQ_INT(size, 13 * 8 * (8 * sizeof(float) + 2));
    unsigned char* scratch = aligned_alloc(16, (size + 16 + 15) / 16 * 16);
    SW_CHECK(scratch != NULL);
    float ret[13], again[13];
    memset(scratch, 0, size + 16);
    SW_CHECK_EQ_INT(sw_twist_tube_measure(&small, (float)deg(90), SW_SKIN_LBS, scratch, size, ret), SW_OK);
    SW_CHECK_NEAR(ret[6], sqrt(0.5), 0.005 * sqrt(0.5));
    memset(scratch, 0xff, size + 16); /* NaN patterns everywhere */
    SW_CHECK_EQ_INT(sw_twist_tube_measure(&small, (float)deg(90), SW_SKIN_LBS, scratch, size, again), SW_OK);
    SW_CHECK(memcmp(ret, again, sizeof ret) == 0);
    SW_CHECK_EQ_INT(sw_twist_tube_measure(&small, (float)deg(90), SW_SKIN_LBS, scratch, size - 1, ret),
                    SW_ERR_BUFFER_TOO_SMALL);
    SW_CHECK_EQ_INT(sw_twist_tube_measure(&small, (float)deg(90), SW_SKIN_LBS, scratch + 4, size, ret),
                    SW_ERR_BUFFER_TOO_SMALL);
    SW_CHECK_EQ_INT(sw_twist_tube_measure(&small, (float)deg(90), SW_SKIN_LBS, NULL, size, ret),
                    SW_ERR_BUFFER_TOO_SMALL);
    const sw_twist_tube_desc bad = {0, 0, 5, 8};
    SW_CHECK_EQ_INT(sw_twist_tube_measure_scratch_size(&bad), 0);
    SW_CHECK_EQ_INT(sw_twist_tube_measure(&bad, 1.0f, SW_SKIN_LBS, scratch, size, ret), SW_ERR_INVALID_ARGUMENT);
    free(scratch);
}

int main(void) {
    SW_RUN(test_retention_formula);
    SW_RUN(test_tube_resolve);
    SW_RUN(test_tube_ring_weights);
    SW_RUN(test_tube_build);
    SW_RUN(test_tube_pose);
    SW_RUN(test_tube_measured_lbs);
    SW_RUN(test_tube_measured_dqs);
    SW_RUN(test_tube_measure_scratch_and_errors);
    return sw_test_finish();
}
