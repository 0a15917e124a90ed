/* The C reference of environment probes (src/render/probe_math.c;
   docs/probes.md), no GL, on closed forms and hand-computed cases. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "sinew/render.h"

#include "../../src/render/probe_math.h"

#define PI 3.14159265358979323846

static void test_cube_directions_and_solid_angles(void) {
    const int size = 8;
    double total = 0.0;
    for (int f = 0; f < 6; f++)
        for (int y = 0; y < size; y++)
            for (int x = 0; x < size; x++) {
                float d[3];
                sw__cube_texel_direction(f, x, y, size, d);
                /* Each face's texels lie around its major axis, with its sign. */
                int axis = f / 2;
                float sign = (f & 1) ? -1.0f : 1.0f;
                SW_CHECK(d[axis] * sign > 0.0f);
                SW_CHECK(fabsf(d[axis]) >= fabsf(d[(axis + 1) % 3]) && fabsf(d[axis]) >= fabsf(d[(axis + 2) % 3]));
                SW_CHECK_NEAR(d[0] * d[0] + d[1] * d[1] + d[2] * d[2], 1.0, 1e-6);
                total += sw__cube_texel_solid_angle(x, y, size);
            }
    SW_CHECK_NEAR(total, 4.0 * PI, 1e-4);
    /* GL's +X face: texel (0, 0) is at s = t = −1, direction (1, −t, −s) → +y, +z. */
    float d[3];
    sw__cube_texel_direction(0, 0, 0, size, d);
    SW_CHECK(d[1] > 0.0f && d[2] > 0.0f);
    /* A 1×1 face is the whole face: 4π/6. */
    SW_CHECK_NEAR(sw__cube_texel_solid_angle(0, 0, 1), 4.0 * PI / 6.0, 1e-6);
}

static void fill_faces(float* storage, int size, const float rgb[3], const float* faces[6]) {
    for (int f = 0; f < 6; f++) {
        faces[f] = storage + (size_t)f * size * size * 3;
        for (int i = 0; i < size * size; i++) memcpy(storage + ((size_t)f * size * size + i) * 3, rgb, sizeof(float) * 3);
    }
}

/* A constant radiance L: L00 = L·√(4π) and E(n) = π·L for every n. */
static void test_constant_environment(void) {
    enum { size = 16 };
    static float storage[6 * size * size * 3];
    const float L[3] = {1.0f, 0.5f, 0.25f};
    const float* faces[6];
    fill_faces(storage, size, L, faces);
    float sh[SW__SH9][3];
    sw__sh9_project_cube(faces, size, sh);
    SW_CHECK_NEAR(sh[0][0], sqrt(4.0 * PI), 1e-4);
    for (int k = 1; k < SW__SH9; k++) SW_CHECK_NEAR(sh[k][0], 0.0, 1e-5);
    const float normals[4][3] = {{0, 1, 0}, {0, -1, 0}, {0.6f, 0, 0.8f}, {-0.48f, 0.6f, -0.64f}};
    for (int i = 0; i < 4; i++) {
        float e[3];
        sw__sh9_irradiance((const float(*)[3])sh, normals[i], e);
        for (int c = 0; c < 3; c++) SW_CHECK_NEAR(e[c], PI * L[c], 1e-4 * PI);
    }
}

/* One bright texel of solid angle Ω in direction d: SH9 keeps bands 0..2 of
   the clamped cosine, E(n) = L·Ω·Σ_l A_l (2l+1)/(4π) P_l(n·d) =
   L·Ω·(1/4 + 1/2·c + 5/16·(3c² − 1)/2), c = n·d: 1.0625 at c = 1, 0.09375 at
   c = 0, 0.0625 at c = −1 (the true lobe: 1, 0, 0). */
static void test_single_bright_direction(void) {
    enum { size = 16 };
    static float storage[6 * size * size * 3];
    const float* faces[6];
    fill_faces(storage, size, (const float[3]){0, 0, 0}, faces);
    const int face = 2, x = 5, y = 9; /* on +Y, off the centre */
    const float L = 50.0f;
    storage[((size_t)face * size * size + (size_t)y * size + x) * 3 + 0] = L;
    float d[3];
    sw__cube_texel_direction(face, x, y, size, d);
    float omega = sw__cube_texel_solid_angle(x, y, size);
    float sh[SW__SH9][3];
    sw__sh9_project_cube(faces, size, sh);
    float perp[3] = {d[1], -d[0], 0}; /* ⊥ d */
    float len = sqrtf(perp[0] * perp[0] + perp[1] * perp[1]);
    perp[0] /= len, perp[1] /= len;
    const float back[3] = {-d[0], -d[1], -d[2]};
    float e[3];
    sw__sh9_irradiance((const float(*)[3])sh, d, e);
    SW_CHECK_NEAR(e[0], 1.0625 * L * omega, 1e-4 * L * omega);
    SW_CHECK_NEAR(e[1], 0.0, 1e-7);
    sw__sh9_irradiance((const float(*)[3])sh, perp, e);
    SW_CHECK_NEAR(e[0], 0.09375 * L * omega, 1e-4 * L * omega);
    sw__sh9_irradiance((const float(*)[3])sh, back, e);
    SW_CHECK_NEAR(e[0], 0.0625 * L * omega, 1e-4 * L * omega);
}

/* The mean of E(n)/π over the sphere's normals (a Fibonacci lattice) is
   band 0 alone, as sw__sh9_mean_radiance says. */
static void test_mean_radiance(void) {
    float sh[SW__SH9][3];
    for (int k = 0; k < SW__SH9; k++)
        for (int c = 0; c < 3; c++) sh[k][c] = 0.1f * (float)((k * 7 + c * 3) % 5) + (k == 0 ? 2.0f : 0.0f);
    const int n = 20000;
    double sum[3] = {0, 0, 0};
    for (int i = 0; i < n; i++) {
        double z = 1.0 - (2.0 * i + 1.0) / n, r = sqrt(1.0 - z * z), phi = i * 2.39996322972865332;
        float normal[3] = {(float)(r * cos(phi)), (float)(r * sin(phi)), (float)z}, e[3];
        sw__sh9_irradiance((const float(*)[3])sh, normal, e);
        for (int c = 0; c < 3; c++) sum[c] += e[c] / PI / n;
    }
    float mean[3];
    sw__sh9_mean_radiance((const float(*)[3])sh, mean);
    for (int c = 0; c < 3; c++) SW_CHECK_NEAR(mean[c], sum[c], 1e-3);
}

static void test_box_projection(void) {
    const sw__probe_box probe = {{0, 1, 0}, {-2, 0, -1}, {2, 3, 1}, 0.5f};
    float out[3];
    sw__probe_box_project(&probe, (const float[3]){1, 1, 0}, (const float[3]){1, 0, 0}, out);
    SW_CHECK(out[0] == 2.0f && out[1] == 0.0f && out[2] == 0.0f); /* hit (2, 1, 0) */
    const float diag = (float)(1.0 / sqrt(2.0));
    sw__probe_box_project(&probe, (const float[3]){1, 1, 0}, (const float[3]){diag, diag, 0}, out);
    SW_CHECK_NEAR(out[0], 2.0, 1e-6); /* x wall at t = √2 before y at 2√2: hit (2, 2, 0) */
    SW_CHECK_NEAR(out[1], 1.0, 1e-6);
    SW_CHECK_NEAR(out[2], 0.0, 1e-6);
    sw__probe_box_project(&probe, (const float[3]){1, 1, 0}, (const float[3]){0, -1, 0}, out);
    SW_CHECK(out[0] == 1.0f && out[1] == -1.0f && out[2] == 0.0f); /* hit the floor (1, 0, 0) */
    sw__probe_box_project(&probe, (const float[3]){-1.5f, 2.5f, 0.5f}, (const float[3]){0, 0, -1}, out);
    SW_CHECK(out[0] == -1.5f && out[1] == 1.5f && out[2] == -1.0f); /* hit (−1.5, 2.5, −1) */
    /* Outside the box: the ray itself. */
    sw__probe_box_project(&probe, (const float[3]){3, 1, 0}, (const float[3]){0, 0, 1}, out);
    SW_CHECK(out[0] == 0.0f && out[1] == 0.0f && out[2] == 1.0f);
}

static void test_weight(void) {
    sw__probe_box probe = {{0, 1, 0}, {-2, 0, -1}, {2, 3, 1}, 0.5f};
    SW_CHECK(sw__probe_weight(&probe, (const float[3]){0, 1, 0}) == 1.0f);
    SW_CHECK(sw__probe_weight(&probe, (const float[3]){2, 3, 1}) == 1.0f);          /* on the corner */
    SW_CHECK_NEAR(sw__probe_weight(&probe, (const float[3]){2.25f, 1, 0}), 0.5, 1e-6); /* 0.25 out */
    SW_CHECK_NEAR(sw__probe_weight(&probe, (const float[3]){2.3f, 3.2f, 0}), 1.0 - sqrt(0.13) / 0.5, 1e-5);
    SW_CHECK(sw__probe_weight(&probe, (const float[3]){2.3f, 3.4f, 0}) < 1e-6f);    /* 0.5 out */
    SW_CHECK(sw__probe_weight(&probe, (const float[3]){0, -5, 0}) == 0.0f);
    probe.fade = 0.0f;
    SW_CHECK(sw__probe_weight(&probe, (const float[3]){2.01f, 1, 0}) == 0.0f);
    SW_CHECK(sw__probe_weight(&probe, (const float[3]){1.99f, 1, 0}) == 1.0f);
}

static void test_budget(void) {
    float used[3];
    float global = sw__probe_budget(0.3f, (const float[3]){0.5f, 0.4f, 1.0f}, 3, used);
    SW_CHECK_NEAR(used[0], 0.5, 1e-6);
    SW_CHECK_NEAR(used[1], 0.2, 1e-6); /* only 0.2 left */
    SW_CHECK(used[2] == 0.0f);
    SW_CHECK_NEAR(global, 0.0, 1e-6);
    global = sw__probe_budget(0.0f, (const float[1]){0.25f}, 1, used);
    SW_CHECK_NEAR(used[0], 0.25, 1e-6);
    SW_CHECK_NEAR(global, 0.75, 1e-6); /* too little coverage is not black */
    global = sw__probe_budget(1.0f, (const float[2]){1, 1}, 2, used);
    SW_CHECK(used[0] == 0.0f && used[1] == 0.0f && global == 0.0f);
    global = sw__probe_budget(0.1f, (const float[2]){0.2f, 0.3f}, 2, used);
    SW_CHECK_NEAR(0.1 + used[0] + used[1] + global, 1.0, 1e-6);
    SW_CHECK_NEAR(global, 0.4, 1e-6);
}

static void test_clusters(void) {
    const float near_z = 0.1f, far_z = 100.0f; /* far/near = 1000 */
    SW_CHECK_EQ_INT(sw__probe_cluster_index(0, 0, 160, 120, 0.1f, near_z, far_z), 0);
    SW_CHECK_EQ_INT(sw__probe_cluster_index(159.5f, 119.5f, 160, 120, 100.0f, near_z, far_z), 32 * 24 * 16 - 1);
    /* Depth 1: ln 10 / ln 1000 = 1/3 → slice floor(16/3) = 5; tile (16, 12). */
    SW_CHECK_EQ_INT(sw__probe_cluster_index(80, 60, 160, 120, 1.0f, near_z, far_z), 16 + 32 * (12 + 24 * 5));
    /* Tile width 5 px: x = 14.9 → 2, x = 15 → 3; tile height 5 px: y = 4.9 → 0. */
    SW_CHECK_EQ_INT(sw__probe_cluster_index(14.9f, 4.9f, 160, 120, 0.1f, near_z, far_z), 2);
    SW_CHECK_EQ_INT(sw__probe_cluster_index(15.0f, 5.0f, 160, 120, 0.1f, near_z, far_z), 3 + 32);
    /* Slice 8 starts at 0.1·1000^½ = 3.1623; beyond far and before near clamp. */
    SW_CHECK_NEAR(sw__probe_slice_depth(8, near_z, far_z), 3.16228, 1e-4);
    SW_CHECK_EQ_INT(sw__probe_cluster_index(0, 0, 160, 120, 3.17f, near_z, far_z), 32 * 24 * 8);
    SW_CHECK_EQ_INT(sw__probe_cluster_index(0, 0, 160, 120, 3.15f, near_z, far_z), 32 * 24 * 7);
    SW_CHECK_EQ_INT(sw__probe_cluster_index(0, 0, 160, 120, 500.0f, near_z, far_z), 32 * 24 * 15);
    SW_CHECK_EQ_INT(sw__probe_cluster_index(-3, 200, 160, 120, 0.01f, near_z, far_z), 32 * 23);

    sw__probe_masks masks = {{0, 0}};
    sw__probe_masks_add(&masks, 0);
    sw__probe_masks_add(&masks, 31);
    sw__probe_masks_add(&masks, 32);
    sw__probe_masks_add(&masks, 63);
    sw__probe_masks_add(&masks, 64); /* beyond the two masks: ignored */
    SW_CHECK(masks.mask[0] == 0x80000001u && masks.mask[1] == 0x80000001u);
    SW_CHECK(sw__probe_masks_has(&masks, 32) && sw__probe_masks_has(&masks, 63) && !sw__probe_masks_has(&masks, 33));
    SW_CHECK(!sw__probe_masks_has(&masks, 64) && !sw__probe_masks_has(&masks, -1));
}

/* The probe file: written and read back bit for bit; each kind of damage
   refused with its own message. */
static void test_file(void) {
    sw_render_probe probes[3];
    for (int i = 0; i < 3; i++) {
        float* v = probes[i].position;
        for (int k = 0; k < 37; k++) v[k] = (float)(i * 37 + k) * 0.37f - 5.0f;
        for (int k = 0; k < 3; k++) probes[i].box_min[k] = -1.0f - (float)k, probes[i].box_max[k] = 2.0f + (float)i;
        probes[i].fade = 0.25f * (float)i;
    }
    probes[1].sh9[8][2] = -0.0f;
    enum { SIZE = 24 + 3 * 148 };
    SW_CHECK_EQ_INT((int)sw_render_probe_file_size(3), SIZE);
    uint8_t bytes[SIZE + 4];
    sw_diag d;
    SW_CHECK(sw_render_probe_file_write(probes, 3, bytes, sizeof bytes, &d) == SW_OK);
    SW_CHECK(memcmp(bytes, "SWPROBES\x01\0\0\0\x03\0\0\0\x25\0\0\0\0\0\0\0", 24) == 0);
    /* Little-endian floats: the first is −5 = 0xC0A00000. */
    SW_CHECK(bytes[24] == 0x00 && bytes[25] == 0x00 && bytes[26] == 0xA0 && bytes[27] == 0xC0);
    sw_render_probe back[SW_RENDER_PROBE_MAX];
    size_t count = 99;
    SW_CHECK(sw_render_probe_file_read(bytes, SIZE, back, &count, &d) == SW_OK);
    SW_CHECK_EQ_INT((int)count, 3);
    SW_CHECK(memcmp(back, probes, sizeof probes) == 0);
    SW_CHECK(sw_render_probe_file_read(bytes, 24, back, &count, &d) == SW_ERR_INVALID_DATA);
    SW_CHECK(strstr(d.message, "truncated") != NULL && count == 0);
    SW_CHECK(sw_render_probe_file_read(bytes, SIZE - 1, back, &count, &d) == SW_ERR_INVALID_DATA);
    SW_CHECK(strstr(d.message, "truncated") != NULL);
    SW_CHECK(sw_render_probe_file_read(bytes, SIZE + 4, back, &count, &d) == SW_ERR_INVALID_DATA);
    SW_CHECK(strstr(d.message, "trailing") != NULL);
    SW_CHECK(sw_render_probe_file_read(bytes, 10, back, &count, &d) == SW_ERR_INVALID_DATA);
    SW_CHECK(strstr(d.message, "not a probe file") != NULL);
    uint8_t bad[SIZE];
    memcpy(bad, bytes, SIZE);
    bad[8] = 3;
    SW_CHECK(sw_render_probe_file_read(bad, SIZE, back, &count, &d) == SW_ERR_INVALID_DATA);
    SW_CHECK(strstr(d.message, "version 3") != NULL);
    SW_CHECK_EQ_INT(sw_render_probe_file_cube_size(bytes, SIZE), 0); /* version 1: no specular */
    memcpy(bad, bytes, SIZE);
    bad[12] = 65;
    SW_CHECK(sw_render_probe_file_read(bad, SIZE, back, &count, &d) == SW_ERR_INVALID_DATA);
    SW_CHECK(strstr(d.message, "at most 64") != NULL);
    memcpy(bad, bytes, SIZE);
    bad[16] = 36;
    SW_CHECK(sw_render_probe_file_read(bad, SIZE, back, &count, &d) == SW_ERR_INVALID_DATA);
    memcpy(bad, bytes, SIZE);
    bad[0] = 'X';
    SW_CHECK(sw_render_probe_file_read(bad, SIZE, back, &count, &d) == SW_ERR_INVALID_DATA);
    /* Probe 2's fade (float 9) made NaN. */
    memcpy(bad, bytes, SIZE);
    memset(bad + 24 + 2 * 148 + 9 * 4, 0xFF, 4);
    SW_CHECK(sw_render_probe_file_read(bad, SIZE, back, &count, &d) == SW_ERR_INVALID_DATA);
    SW_CHECK(strstr(d.message, "probe 2") != NULL && count == 0);
    SW_CHECK(sw_render_probe_file_write(probes, 3, bytes, SIZE - 1, &d) == SW_ERR_BUFFER_TOO_SMALL);
}

/* A box's cluster range holds the cluster of every point of the box a
   camera sees (the points' own projection through sw__probe_cluster_index);
   a box behind the camera or beyond far touches none. */
static void test_cluster_range(void) {
    const sw_camera camera = {.eye = {0.5f, 1.5f, 4.0f}, .target = {0, 1, 0}, .up = {0, 1, 0}, .fov_y = 0.9f,
                              .z_near = 0.1f, .z_far = 50.0f};
    const int width = 320, height = 240;
    float vp[16];
    sw_camera_view_projection(&camera, (float)width / height, vp);
    const float near_z = 0.1f, far_z = 50.0f;
    const float boxes[4][2][3] = {{{-1, 0, -1}, {1, 2, 1}}, {{-3.5f, 0.2f, -0.5f}, {-2.0f, 1.4f, 1.5f}},
                                  {{0, 0, 3.5f}, {1, 2, 5}} /* around the eye */, {{2, 0, -20}, {6, 3, -12}}};
    unsigned seed = 12345;
    for (int b = 0; b < 4; b++) {
        sw__cluster_range range;
        SW_CHECK(sw__probe_cluster_range(vp, near_z, far_z, boxes[b][0], boxes[b][1], 0, &range));
        int inside = 0, seen = 0;
        for (int i = 0; i < 4000; i++) {
            float p[3], clip[4];
            for (int k = 0; k < 3; k++) {
                seed = seed * 1103515245u + 12345u;
                float t = (float)((seed >> 8) & 0xFFFF) / 65535.0f;
                p[k] = boxes[b][0][k] + t * (boxes[b][1][k] - boxes[b][0][k]);
            }
            for (int row = 0; row < 4; row++) clip[row] = vp[row] * p[0] + vp[4 + row] * p[1] + vp[8 + row] * p[2] + vp[12 + row];
            if (clip[3] < near_z || fabsf(clip[0]) > clip[3] || fabsf(clip[1]) > clip[3]) continue;
            seen++;
            float x = (clip[0] / clip[3] * 0.5f + 0.5f) * width, y = (clip[1] / clip[3] * 0.5f + 0.5f) * height;
            int index = sw__probe_cluster_index(x, y, width, height, clip[3], near_z, far_z);
            int tx = index % 32, ty = index / 32 % 24, tz = index / (32 * 24);
            if (tx >= range.x0 && tx <= range.x1 && ty >= range.y0 && ty <= range.y1 && tz >= range.z0 && tz <= range.z1)
                inside++;
        }
        SW_CHECK(seen > 50); /* the box around the eye: 69 of 4000 in view */
        SW_CHECK_EQ_INT(inside, seen);
    }
    /* Behind the camera, and beyond far. */
    sw__cluster_range range;
    SW_CHECK(!sw__probe_cluster_range(vp, near_z, far_z, (const float[3]){-1, 0, 8}, (const float[3]){1, 2, 9}, 0, &range));
    SW_CHECK(!sw__probe_cluster_range(vp, near_z, far_z, (const float[3]){-1, 0, -80}, (const float[3]){1, 2, -60}, 0,
                                      &range));
    /* A margin widens the tiles, clamped to the grid. */
    sw__cluster_range narrow, wide;
    SW_CHECK(sw__probe_cluster_range(vp, near_z, far_z, boxes[1][0], boxes[1][1], 0, &narrow));
    SW_CHECK(sw__probe_cluster_range(vp, near_z, far_z, boxes[1][0], boxes[1][1], 1, &wide));
    SW_CHECK(wide.x1 == narrow.x1 + 1 && wide.y0 == (narrow.y0 > 0 ? narrow.y0 - 1 : 0));
}

/* ---- specular: the prefiltered cube ---- */

static void test_cube_layout(void) {
    SW_CHECK_EQ_INT(sw__probe_cube_mips(16), 5);
    SW_CHECK_EQ_INT(sw__probe_cube_mips(1), 1);
    /* 16² + 8² + 4² + 2² + 1² = 341 texels a face. */
    SW_CHECK_EQ_INT((int)sw__probe_cube_floats(16), 6 * 3 * 341);
    SW_CHECK_EQ_INT((int)sw__probe_cube_mip_offset(16, 2), 6 * 3 * (256 + 64));
    /* Face coordinates invert the texel directions: every texel's centre. */
    int wrong = 0;
    for (int f = 0; f < 6; f++)
        for (int y = 0; y < 4; y++)
            for (int x = 0; x < 4; x++) {
                float d[3], u, v;
                sw__cube_texel_direction(f, x, y, 4, d);
                int face = sw__cube_face_coordinates(d, &u, &v);
                if (face != f || fabsf(u * 4 - (x + 0.5f)) > 1e-4f || fabsf(v * 4 - (y + 0.5f)) > 1e-4f) wrong++;
            }
    SW_CHECK_EQ_INT(wrong, 0);
}

/* GGX's D is a distribution of normals: ∫ D(n·h)·(n·h) dω = 1 over the
   hemisphere (summed over a 64² cube's texels). */
static void test_ggx_normalised(void) {
    const float roughness[3] = {0.5f, 0.75f, 1.0f};
    for (int k = 0; k < 3; k++) {
        double sum = 0.0;
        for (int f = 0; f < 6; f++)
            for (int y = 0; y < 64; y++)
                for (int x = 0; x < 64; x++) {
                    float d[3];
                    sw__cube_texel_direction(f, x, y, 64, d);
                    if (d[2] > 0.0f) sum += sw__ggx_distribution(d[2], roughness[k]) * d[2] * sw__cube_texel_solid_angle(x, y, 64);
                }
        SW_CHECK_NEAR(sum, 1.0, 2e-3);
    }
}

static void test_prefilter_constant(void) {
    enum { N = 16 };
    static float storage[6 * N * N * 3], cube[6 * 3 * 341];
    const float* faces[6];
    fill_faces(storage, N, (const float[3]){0.2f, 1.5f, 3.0f}, faces);
    SW_CHECK(sw__probe_prefilter(faces, N, cube));
    double worst = 0.0;
    for (size_t i = 0; i < sw__probe_cube_floats(N); i++) {
        double want = i % 3 == 0 ? 0.2 : i % 3 == 1 ? 1.5 : 3.0;
        worst = fmax(worst, fabs(cube[i] - want) / want);
    }
    printf("  constant environment: worst relative error %.2e over every mip\n", worst);
    SW_CHECK(worst < 1e-5);
}

/* One bright texel (radiance L, solid angle Ω) on +Z: mip 0 is the faces;
   as the roughness grows the lobe widens: the value along the texel's
   direction falls, the share of the mip's energy within 25° of it falls,
   and the energy Σ value·dω stays about L·Ω (the kernel is normalised
   and the same around every direction). Checked on the mips of 4² texels
   and more (coarser ones are too coarse to place a lobe). */
static void test_prefilter_bright_texel(void) {
    enum { N = 32 };
    static float storage[6 * N * N * 3], cube[6 * 3 * 1365];
    const float* faces[6];
    fill_faces(storage, N, (const float[3]){0, 0, 0}, faces);
    const int bx = 16, by = 16;
    storage[((size_t)4 * N * N + by * N + bx) * 3 + 0] = 1000.0f;
    float d[3];
    sw__cube_texel_direction(4, bx, by, N, d);
    const double source = 1000.0 * sw__cube_texel_solid_angle(bx, by, N);
    SW_CHECK(sw__probe_prefilter(faces, N, cube));
    SW_CHECK(memcmp(cube, storage, sizeof storage) == 0);
    double last_peak = INFINITY, last_share = 2.0;
    for (int m = 1; (N >> m) >= 4; m++) {
        const int n = N >> m;
        const float* mip = cube + sw__probe_cube_mip_offset(N, m);
        double energy = 0.0, near = 0.0;
        for (int f = 0; f < 6; f++)
            for (int y = 0; y < n; y++)
                for (int x = 0; x < n; x++) {
                    float t[3];
                    sw__cube_texel_direction(f, x, y, n, t);
                    double e = mip[(((size_t)f * n + y) * n + x) * 3] * sw__cube_texel_solid_angle(x, y, n);
                    energy += e;
                    if (t[0] * d[0] + t[1] * d[1] + t[2] * d[2] > cos(25.0 * PI / 180.0)) near += e;
                }
        float peak[3];
        sw__probe_cube_sample(cube, N, d, (float)m, peak);
        printf("  mip %d (roughness %.2f): peak %.2f, energy / L·Omega %.3f, share within 25 deg %.3f\n", m,
               m / 5.0, peak[0], energy / source, near / energy);
        SW_CHECK(peak[0] < last_peak);
        SW_CHECK(near / energy < last_share);
        SW_CHECK_NEAR(energy / source, 1.0, 0.05);
        last_peak = peak[0], last_share = near / energy;
    }
}

static void test_cube_sample_and_fresnel(void) {
    enum { N = 4 };
    static float storage[6 * N * N * 3], cube[6 * 3 * 21];
    const float* faces[6];
    fill_faces(storage, N, (const float[3]){0, 0, 0}, faces);
    for (size_t i = 0; i < sizeof storage / sizeof *storage; i++) storage[i] = (float)i;
    SW_CHECK(sw__probe_prefilter(faces, N, cube));
    /* At a texel's centre, level 0: that texel. */
    float d[3], out[3];
    sw__cube_texel_direction(1, 2, 1, N, d);
    sw__probe_cube_sample(cube, N, d, 0.0f, out);
    for (int c = 0; c < 3; c++) SW_CHECK_NEAR(out[c], storage[((1 * N + 1) * N + 2) * 3 + c], 1e-3);
    /* Half-way between levels 0 and 1: the mean of the two. */
    float a[3], b[3];
    sw__probe_cube_sample(cube, N, d, 1.0f, b);
    sw__probe_cube_sample(cube, N, d, 0.5f, a);
    for (int c = 0; c < 3; c++) SW_CHECK_NEAR(a[c], 0.5f * (out[c] + b[c]), 1e-3);

    const float one[3] = {1, 1, 1}, dielectric[3] = {0.04f, 0.04f, 0.04f};
    float f[3];
    sw__probe_specular_fresnel(one, 0.3f, 0.2f, f);
    SW_CHECK_NEAR(f[0], 1.0, 1e-6);
    sw__probe_specular_fresnel(dielectric, 0.0f, 1.0f, f);
    SW_CHECK_NEAR(f[0], 0.04, 1e-6);
    sw__probe_specular_fresnel(dielectric, 0.0f, 0.0f, f);
    SW_CHECK_NEAR(f[0], 1.0, 1e-6);
    /* Rough: grazing limited to max(1 − 0.8, f0) = 0.2; at n·v = 0.5: 0.04 + 0.16/32. */
    sw__probe_specular_fresnel(dielectric, 0.8f, 0.5f, f);
    SW_CHECK_NEAR(f[0], 0.04 + 0.16 / 32.0, 1e-6);
}

/* Version 2: the probes, then 1 + count prefiltered cubes (the global
   first), byte by byte as docs/probes.md says; refusals name the problem. */
static void test_file_v2(void) {
    enum { CUBE = 6 * 3 * 21, SIZE = 32 + 2 * 148 + 3 * CUBE * 4 }; /* 4² base: 16 + 4 + 1 texels a face */
    sw_render_probe probes[2];
    memset(probes, 0, sizeof probes);
    for (int i = 0; i < 2; i++) probes[i].position[0] = (float)i, probes[i].box_max[1] = 1.0f, probes[i].fade = 0.5f;
    static float cubes[3 * CUBE];
    for (int k = 0; k < 3 * CUBE; k++) cubes[k] = (float)k * 0.01f;
    SW_CHECK_EQ_INT((int)sw_render_probe_cube_floats(4), CUBE);
    SW_CHECK_EQ_INT((int)sw_render_probe_file_specular_size(2, 4), SIZE);
    SW_CHECK_EQ_INT((int)sw_render_probe_file_specular_size(2, 0), 32 + 2 * 148);
    static uint8_t bytes[SIZE], bad[SIZE];
    sw_diag d;
    SW_CHECK(sw_render_probe_file_write_specular(probes, 2, 4, cubes, bytes, SIZE, &d) == SW_OK);
    SW_CHECK(memcmp(bytes, "SWPROBES\x02\0\0\0\x02\0\0\0\x25\0\0\0\x04\0\0\0\x03\0\0\0\0\0\0\0", 32) == 0);
    /* The cubes after the probes: the global cube's second float, 0.01 = 0x3C23D70A. */
    const uint8_t* second = bytes + 32 + 2 * 148 + 4;
    SW_CHECK(second[0] == 0x0A && second[1] == 0xD7 && second[2] == 0x23 && second[3] == 0x3C);
    sw_render_probe back[SW_RENDER_PROBE_MAX];
    size_t count = 0;
    SW_CHECK(sw_render_probe_file_read(bytes, SIZE, back, &count, &d) == SW_OK);
    SW_CHECK_EQ_INT((int)count, 2);
    SW_CHECK(memcmp(back, probes, sizeof probes) == 0);
    SW_CHECK_EQ_INT(sw_render_probe_file_cube_size(bytes, SIZE), 4);
    static float cubes_back[3 * CUBE];
    SW_CHECK(sw_render_probe_file_read_cubes(bytes, SIZE, cubes_back, 3 * CUBE, &d) == SW_OK);
    SW_CHECK(memcmp(cubes_back, cubes, sizeof cubes) == 0);
    SW_CHECK(sw_render_probe_file_read_cubes(bytes, SIZE, cubes_back, 3 * CUBE - 1, &d) == SW_ERR_BUFFER_TOO_SMALL);
    /* Without cubes: a 32-byte header and the probes. */
    SW_CHECK(sw_render_probe_file_write_specular(probes, 2, 0, NULL, bad, SIZE, &d) == SW_OK);
    SW_CHECK(sw_render_probe_file_read(bad, 32 + 2 * 148, back, &count, &d) == SW_OK && count == 2);
    SW_CHECK_EQ_INT(sw_render_probe_file_cube_size(bad, 32 + 2 * 148), 0);

    struct {
        size_t at, size;
        uint8_t value;
        const char* says;
    } cases[] = {
        {20, SIZE, 5, "cube size 5"},                /* not a power of two */
        {20, SIZE, 128, "cube size 128"},            /* larger than SW_RENDER_PROBE_CUBE_MAX */
        {24, SIZE, 4, "4 mips for cube size 4"},
        {28, SIZE, 1, "reserved"},
        {0, SIZE - 4, 'S', "truncated"},
        {0, 28, 'S', "version 2 header"},
        {32 + 2 * 148 + CUBE * 4 + 3, SIZE, 0xBF, "cube 1 (a probe's): a negative"}, /* sign bit of the probe cube's first float */
        {32 + 2 * 148 + 7, SIZE, 0x7F, "cube 0 (the global cube)"},                 /* exponent all ones: 1.0e-2's high byte → NaN/Inf */
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        memcpy(bad, bytes, SIZE);
        bad[cases[c].at] = cases[c].value;
        if (cases[c].at == 32 + 2 * 148 + 7) bad[cases[c].at - 1] = 0xFF;
        count = 99;
        SW_CHECK(sw_render_probe_file_read(bad, cases[c].size, back, &count, &d) == SW_ERR_INVALID_DATA);
        SW_CHECK(count == 0 && strstr(d.message, cases[c].says) != NULL && !strchr(d.message, '\n'));
        if (!strstr(d.message, cases[c].says)) printf("  case %zu said: %s\n", c, d.message);
    }
    SW_CHECK(sw_render_probe_file_write_specular(probes, 2, 4, cubes, bytes, SIZE - 1, &d) == SW_ERR_BUFFER_TOO_SMALL);
    SW_CHECK(sw_render_probe_file_write_specular(probes, 2, 6, cubes, bytes, SIZE, &d) == SW_ERR_INVALID_ARGUMENT);
    float faces[6 * 16 * 3] = {0};
    SW_CHECK(sw_render_probe_prefilter(faces, 3, cubes, &d) == SW_ERR_INVALID_ARGUMENT);
}

int main(void) {
    SW_RUN(test_cluster_range);
    SW_RUN(test_file);
    SW_RUN(test_file_v2);
    SW_RUN(test_cube_directions_and_solid_angles);
    SW_RUN(test_constant_environment);
    SW_RUN(test_single_bright_direction);
    SW_RUN(test_mean_radiance);
    SW_RUN(test_box_projection);
    SW_RUN(test_weight);
    SW_RUN(test_budget);
    SW_RUN(test_clusters);
    SW_RUN(test_cube_layout);
    SW_RUN(test_ggx_normalised);
    SW_RUN(test_prefilter_constant);
    SW_RUN(test_prefilter_bright_texel);
    SW_RUN(test_cube_sample_and_fresnel);
    return sw_test_finish();
}
