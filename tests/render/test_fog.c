/* The volumetric fog's numbers (src/render/fog.c; docs/fog.md), no GL:
     - the slicing at hand-computed boundaries (z(16) = 5, z(72) = 50,
       z(128) = 500, the first exponential slice 0.21 deep) and both ways;
     - the medium's two terms at hand-computed heights;
     - the integration against the closed form of a uniform medium:
       transmittance exp(−σd) and in-scatter (1 − exp(−σd))·L within 1 %
       at slice ends and between them (as the composite reads it), on and
       off the view axis, and through the far fade;
     - energy: a lit, non-absorbing medium of any varying density gives
       S + T·L = L exactly (what is taken out is scattered back). */
#include "harness.h"

#include <math.h>

#include "../../src/render/fog.h"

static void test_slicing(void) {
    SW_CHECK_NEAR(sw__fog_slice_depth(0.0f), 0.0f, 1e-6f);
    SW_CHECK_NEAR(sw__fog_slice_depth(1.0f), 0.3125f, 1e-6f);
    SW_CHECK_NEAR(sw__fog_slice_depth(8.0f), 2.5f, 1e-6f);
    SW_CHECK_NEAR(sw__fog_slice_depth(16.0f), 5.0f, 1e-6f);
    /* 5·100^(1/112) = 5·1.041987 = 5.20994: slice 16 is 0.210 deep. */
    SW_CHECK_NEAR(sw__fog_slice_depth(17.0f), 5.20994f, 1e-4f);
    /* 5·100^(56/112) = 5·10 = 50. */
    SW_CHECK_NEAR(sw__fog_slice_depth(72.0f), 50.0f, 1e-3f);
    SW_CHECK_NEAR(sw__fog_slice_depth(128.0f), 500.0f, 1e-2f);
    /* 5·100^(28/112) = 5·√10 = 15.8114. */
    SW_CHECK_NEAR(sw__fog_slice_depth(44.0f), 15.8114f, 1e-3f);

    SW_CHECK_NEAR(sw__fog_depth_slice(0.0f), 0.0f, 1e-6f);
    SW_CHECK_NEAR(sw__fog_depth_slice(-3.0f), 0.0f, 1e-6f);
    SW_CHECK_NEAR(sw__fog_depth_slice(2.5f), 8.0f, 1e-5f);
    SW_CHECK_NEAR(sw__fog_depth_slice(5.0f), 16.0f, 1e-5f);
    SW_CHECK_NEAR(sw__fog_depth_slice(50.0f), 72.0f, 1e-3f);
    SW_CHECK_NEAR(sw__fog_depth_slice(500.0f), 128.0f, 1e-3f);
    SW_CHECK_NEAR(sw__fog_depth_slice(5000.0f), 128.0f, 1e-6f);
    /* Both ways, everywhere (quarter slices). */
    for (int q = 0; q <= 4 * SW__FOG_SLICES; q++) {
        float i = 0.25f * (float)q;
        SW_CHECK_NEAR(sw__fog_depth_slice(sw__fog_slice_depth(i)), i, 2e-3f);
    }
    /* Monotonic boundaries. */
    for (int i = 0; i < SW__FOG_SLICES; i++)
        SW_CHECK(sw__fog_slice_depth((float)(i + 1)) > sw__fog_slice_depth((float)i));
}

static void test_medium(void) {
    sw__fog_medium m = sw__fog_default_medium();
    SW_CHECK_NEAR(sw__fog_extinction(&m, -10.0f), 8.5e-4f, 1e-9f);
    SW_CHECK_NEAR(sw__fog_extinction(&m, 100.0f), 8.5e-4f, 1e-9f);
    m.height_density = 0.02f;
    m.height_base = 1.0f;
    m.height_falloff = 2.0f;
    /* At and below the base: both terms whole. */
    SW_CHECK_NEAR(sw__fog_extinction(&m, 1.0f), 0.02085f, 1e-7f);
    SW_CHECK_NEAR(sw__fog_extinction(&m, -5.0f), 0.02085f, 1e-7f);
    /* One falloff above: 8.5e-4 + 0.02/e = 8.5e-4 + 0.0073576. */
    SW_CHECK_NEAR(sw__fog_extinction(&m, 3.0f), 0.0082076f, 1e-6f);
    /* The fade. */
    SW_CHECK_NEAR(sw__fog_fade(100.0f), 1.0f, 0.0f);
    SW_CHECK_NEAR(sw__fog_fade(450.0f), 1.0f, 0.0f);
    SW_CHECK_NEAR(sw__fog_fade(475.0f), 0.5f, 1e-6f);
    SW_CHECK_NEAR(sw__fog_fade(600.0f), 0.0f, 0.0f);
}

static sw__fog_froxel column[SW__FOG_SLICES];
static float integrated[SW__FOG_SLICES][4];

static void fill_uniform(float sigma, const float light[3]) {
    for (int i = 0; i < SW__FOG_SLICES; i++) {
        column[i].extinction = sigma;
        for (int c = 0; c < 3; c++) column[i].scatter[c] = sigma * light[c];
    }
}

static void check_closed_form(const float got[4], float sigma, float distance, const float light[3]) {
    float t = expf(-sigma * distance);
    SW_CHECK(fabsf(got[3] - t) <= 0.01f * t);
    for (int c = 0; c < 3; c++) {
        float s = (1.0f - t) * light[c];
        SW_CHECK(fabsf(got[c] - s) <= 0.01f * s + 1e-7f);
    }
}

static void test_uniform_slice_ends(void) {
    const float light[3] = {0.5f, 1.0f, 2.0f};
    const float sigmas[] = {8.5e-4f, 0.01f, 0.08f, 1.0f};
    const float scales[] = {1.0f, 1.4f};
    for (int s = 0; s < 4; s++)
        for (int r = 0; r < 2; r++) {
            fill_uniform(sigmas[s], light);
            sw__fog_integrate_column(column, scales[r], integrated);
            for (int i = 0; i < SW__FOG_SLICES; i++) {
                float d = sw__fog_slice_depth((float)(i + 1)) * scales[r];
                if (d > SW__FOG_FADE_START) break;
                check_closed_form(integrated[i], sigmas[s], d, light);
            }
        }
    /* The hand numbers: σ = 8.5e-4 at depth 5 → T = e^(−0.00425) = 0.99576,
       at 50 → e^(−0.0425) = 0.95839 (the analysis read 0.9956 and 0.9604). */
    fill_uniform(8.5e-4f, light);
    sw__fog_integrate_column(column, 1.0f, integrated);
    SW_CHECK_NEAR(integrated[15][3], 0.99576f, 1e-5f);
    SW_CHECK_NEAR(integrated[71][3], 0.95839f, 1e-4f);
    /* Through the fade the path is 450 + 50/2 = 475: T = e^(−0.40375) =
       0.66786 (the analysis: 0.656–0.7925 in the last slice). */
    check_closed_form(integrated[SW__FOG_SLICES - 1], 8.5e-4f, 475.0f, light);
}

static void test_uniform_between_slices(void) {
    /* As the composite reads it: at pixel depths that fall inside slices. */
    const float light[3] = {1.0f, 0.8f, 0.6f};
    const float depths[] = {0.1f, 1.0f, 3.3f, 5.1f, 7.7f, 23.0f, 50.0f, 123.4f, 300.0f, 449.0f};
    const float sigmas[] = {8.5e-4f, 0.01f};
    for (int s = 0; s < 2; s++) {
        fill_uniform(sigmas[s], light);
        sw__fog_integrate_column(column, 1.0f, integrated);
        for (int k = 0; k < 10; k++) {
            float got[4];
            sw__fog_sample_column(integrated, depths[k], got);
            check_closed_form(got, sigmas[s], depths[k], light);
        }
    }
    /* At the eye: no fog. */
    float got[4];
    sw__fog_sample_column(integrated, 0.0f, got);
    SW_CHECK_NEAR(got[3], 1.0f, 0.0f);
    SW_CHECK_NEAR(got[0], 0.0f, 0.0f);
    /* Applied over a colour c: c·T + S. */
    const float colour[3] = {0.2f, 0.4f, 0.0f};
    float fogged[3];
    sw__fog_sample_column(integrated, 50.0f, got);
    sw__fog_apply(got, colour, fogged);
    float t = expf(-0.5f);
    SW_CHECK_NEAR(fogged[0], 0.2f * t + (1.0f - t) * 1.0f, 0.01f);
    SW_CHECK_NEAR(fogged[2], (1.0f - t) * 0.6f, 0.01f);
}

static void test_energy(void) {
    /* A lit medium that scatters all it takes out, density varying by 10⁴
       along the column: the eye sees S + T·L = L at every slice end. */
    const float light = 0.75f;
    for (int i = 0; i < SW__FOG_SLICES; i++) {
        float sigma = 1e-4f * powf(10.0f, (float)(i % 5));
        column[i].extinction = sigma;
        for (int c = 0; c < 3; c++) column[i].scatter[c] = sigma * light;
    }
    sw__fog_integrate_column(column, 1.0f, integrated);
    for (int i = 0; i < SW__FOG_SLICES; i++) SW_CHECK_NEAR(integrated[i][0] + integrated[i][3] * light, light, 1e-5f);
    /* An empty medium with a glow (σ = 0, source 0.01): S = 0.01·depth. */
    for (int i = 0; i < SW__FOG_SLICES; i++) {
        column[i].extinction = 0.0f;
        for (int c = 0; c < 3; c++) column[i].scatter[c] = 0.01f;
    }
    sw__fog_integrate_column(column, 1.0f, integrated);
    SW_CHECK_NEAR(integrated[71][1], 0.5f, 1e-4f);
    SW_CHECK_NEAR(integrated[71][3], 1.0f, 0.0f);
}

static void test_reproject(void) {
    /* A camera at the origin looking down −z, 90° field of view, aspect 1
       (hand-built perspective: x_clip = x, y_clip = y, w_clip = −z; z_clip
       is not read). */
    const float vp[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, -1, -1, 0, 0, 0, 0};
    const float eye[3] = {0, 0, 0}, forward[3] = {0, 0, -1};
    float uvw[3];
    /* On the axis at depth 50: the centre, slice 72 of 128. */
    const float p[3] = {0.0f, 0.0f, -50.0f};
    SW_CHECK(sw__fog_reproject(p, vp, eye, forward, uvw));
    SW_CHECK_NEAR(uvw[0], 0.5f, 1e-6f);
    SW_CHECK_NEAR(uvw[1], 0.5f, 1e-6f);
    SW_CHECK_NEAR(uvw[2], 72.0f / 128.0f, 1e-4f);
    /* Half way to the right edge at depth 2.5: u = 0.75, slice 8. */
    const float q[3] = {1.25f, 0.0f, -2.5f};
    SW_CHECK(sw__fog_reproject(q, vp, eye, forward, uvw));
    SW_CHECK_NEAR(uvw[0], 0.75f, 1e-6f);
    SW_CHECK_NEAR(uvw[2], 8.0f / 128.0f, 1e-5f);
    /* The previous camera 45 units further back (the camera moved
       forward): the point at depth 5 now was at depth 50. */
    const float back[3] = {0.0f, 0.0f, 45.0f};
    const float vp_back[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, -1, -1, 0, 0, 45, 45};
    const float r[3] = {0.0f, 0.0f, -5.0f};
    SW_CHECK(sw__fog_reproject(r, vp_back, back, forward, uvw));
    SW_CHECK_NEAR(uvw[2], 72.0f / 128.0f, 1e-4f);
    /* Outside: behind the camera, beyond the side, beyond 500. */
    const float behind[3] = {0.0f, 0.0f, 3.0f}, side[3] = {6.0f, 0.0f, -5.0f}, far[3] = {0.0f, 0.0f, -600.0f};
    SW_CHECK(!sw__fog_reproject(behind, vp, eye, forward, uvw));
    SW_CHECK(!sw__fog_reproject(side, vp, eye, forward, uvw));
    SW_CHECK(!sw__fog_reproject(far, vp, eye, forward, uvw));
}

static void test_repair(void) {
    /* A 3×3×3 volume whose value is x + 10y + 100z (in every channel). */
    enum { S = 3 };
    float volume[S * S * S * 4];
    for (int z = 0; z < S; z++)
        for (int y = 0; y < S; y++)
            for (int x = 0; x < S; x++)
                for (int c = 0; c < 4; c++) volume[((z * S + y) * S + x) * 4 + c] = (float)(x + 10 * y + 100 * z);
    float out[4];
    /* The centre: the mean of a linear field around it, its own value. */
    sw__fog_repair_27(volume, S, S, S, 1, 1, 1, out);
    SW_CHECK_NEAR(out[0], 111.0f, 1e-4f);
    /* The corner (0,0,0): per axis the clamped neighbours are 0, 0, 1
       (mean 1/3): 1/3 + 10/3 + 100/3 = 37. */
    sw__fog_repair_27(volume, S, S, S, 0, 0, 0, out);
    SW_CHECK_NEAR(out[3], 37.0f, 1e-4f);
    /* The far corner: per axis 1, 2, 2 (mean 5/3): 5/3·111 = 185. */
    sw__fog_repair_27(volume, S, S, S, 2, 2, 2, out);
    SW_CHECK_NEAR(out[1], 185.0f, 1e-4f);
}

int main(void) {
    SW_RUN(test_slicing);
    SW_RUN(test_medium);
    SW_RUN(test_uniform_slice_ends);
    SW_RUN(test_uniform_between_slices);
    SW_RUN(test_energy);
    SW_RUN(test_reproject);
    SW_RUN(test_repair);
    return sw_test_finish();
}
