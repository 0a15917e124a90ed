/* Dual-quaternion skinning (sw_skin_dual_quats, sw_skin_job DQS) against matrix transforms, LBS for one influence, and a double-precision DQS reference. */
#include <string.h>

#include "harness.h"
#include "test_random.h"
#include "sinew/skin.h"

/* ---- double-precision quaternions --------------------------------------------- */

typedef struct dq4 { double x, y, z, w; } dq4;

static dq4 q_mul(dq4 a, dq4 b) {
    return (dq4){a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                 a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}

static void q_to_rot(dq4 q, double m[3][3]) {
    double x = q.x, y = q.y, z = q.z, w = q.w;
    m[0][0] = 1 - 2 * (y * y + z * z); m[0][1] = 2 * (x * y - w * z);     m[0][2] = 2 * (x * z + w * y);
    m[1][0] = 2 * (x * y + w * z);     m[1][1] = 1 - 2 * (x * x + z * z); m[1][2] = 2 * (y * z - w * x);
    m[2][0] = 2 * (x * z - w * y);     m[2][1] = 2 * (y * z + w * x);     m[2][2] = 1 - 2 * (x * x + y * y);
}

/* A joint of the test palette: rotation q (unit in double), translation t,
   stretch K (symmetric, identity for rigid joints); S = [R(q)|t]·K. */
typedef struct joint_ref {
    dq4 q;
    double t[3];
    double k[3][3];
} joint_ref;

/* Unit quaternion within ~70° of a fixed one, so blends stay well conditioned. */
static dq4 rng_rotation(rng* r) {
    const dq4 base = {0.2, 0.5, -0.1, 0.84};
    double ax[3] = {2 * rng_unit(r) - 1, 2 * rng_unit(r) - 1, 2 * rng_unit(r) - 1};
    double n = sqrt(ax[0] * ax[0] + ax[1] * ax[1] + ax[2] * ax[2]) + 1e-9;
    double half = 0.6 * (2 * rng_unit(r) - 1);
    dq4 local = {ax[0] / n * sin(half), ax[1] / n * sin(half), ax[2] / n * sin(half), cos(half)};
    dq4 q = q_mul(base, local);
    double len = sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    return (dq4){q.x / len, q.y / len, q.z / len, q.w / len};
}

static void make_stretch(rng* r, double k[3][3], int rigid) {
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) k[i][j] = i == j;
    }
    if (rigid) return;
    dq4 qa = rng_rotation(r);
    double q[3][3];
    q_to_rot(qa, q);
    const double s[3] = {0.5 + 1.5 * rng_unit(r), 0.5 + 1.5 * rng_unit(r), 0.5 + 1.5 * rng_unit(r)};
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) k[i][j] = q[i][0] * s[0] * q[j][0] + q[i][1] * s[1] * q[j][1] + q[i][2] * s[2] * q[j][2];
    }
}

static sw_mat34 joint_matrix(const joint_ref* j) {
    double rot[3][3];
    q_to_rot(j->q, rot);
    sw_mat34 m;
    for (int r = 0; r < 3; r++) {
        for (int c = 0; c < 3; c++) m.m[r][c] = (float)(rot[r][0] * j->k[0][c] + rot[r][1] * j->k[1][c] + rot[r][2] * j->k[2][c]);
        m.m[r][3] = (float)j->t[r];
    }
    return m;
}

static void make_joints(rng* r, joint_ref* out, sw_mat34* mats, int count, const int* scaled, int scaled_count) {
    for (int i = 0; i < count; i++) {
        out[i].q = rng_rotation(r);
        for (int k = 0; k < 3; k++) out[i].t[k] = 10.0 * rng_unit(r) - 5.0;
        int is_scaled = 0;
        for (int s = 0; s < scaled_count; s++) is_scaled |= scaled[s] == i;
        make_stretch(r, out[i].k, !is_scaled);
        mats[i] = joint_matrix(&out[i]);
    }
}

/* p' = S·p in double from the float matrix; scale = Σ|terms| per row (max). */
static void apply_mat_d(const sw_mat34* m, const float* p, double out[3], double* scale) {
    *scale = 0.0;
    for (int r = 0; r < 3; r++) {
        out[r] = (double)m->m[r][0] * p[0] + (double)m->m[r][1] * p[1] + (double)m->m[r][2] * p[2] + m->m[r][3];
        *scale = fmax(*scale, fabs(m->m[r][0] * p[0]) + fabs(m->m[r][1] * p[1]) + fabs(m->m[r][2] * p[2]) + fabs(m->m[r][3]));
    }
}

/* The textbook DQS (Kavan et al. 2008) in double, with the header's stretch step:
   p_s = Σwᵢ·Kᵢ·p; c = Σ wᵢ·sᵢ·(qᵢ, ½·tᵢ·qᵢ), sᵢ aligning qᵢ to q₀; p' = R(c₀)·p_s + 2·vec(c_ε·c₀*). */
static void dqs_reference(const joint_ref* joints, const int* js, const double* ws, int count,
                          const float* p, const float* n, int use_stretch, double out_p[3], double out_n[3]) {
    double ps[3] = {0, 0, 0};
    for (int i = 0; i < count; i++) {
        const joint_ref* j = &joints[js[i]];
        for (int r = 0; r < 3; r++) {
            if (use_stretch)
                ps[r] += ws[i] * (j->k[r][0] * p[0] + j->k[r][1] * p[1] + j->k[r][2] * p[2]);
            else
                ps[r] += ws[i] * p[r];
        }
    }
    const dq4 q0 = joints[js[0]].q;
    dq4 c0 = {0, 0, 0, 0}, ce = {0, 0, 0, 0};
    for (int i = 0; i < count; i++) {
        const joint_ref* j = &joints[js[i]];
        dq4 q = j->q;
        /* Aligned to the first influence's hemisphere; whatever sign the palette
           stores for a joint cancels out (q and −q are the same rotation). */
        double s = q.x * q0.x + q.y * q0.y + q.z * q0.z + q.w * q0.w < 0 ? -1.0 : 1.0;
        dq4 tq = {j->t[0], j->t[1], j->t[2], 0};
        dq4 d = q_mul(tq, q);
        double f = ws[i] * s;
        c0.x += f * q.x; c0.y += f * q.y; c0.z += f * q.z; c0.w += f * q.w;
        ce.x += f * 0.5 * d.x; ce.y += f * 0.5 * d.y; ce.z += f * 0.5 * d.z; ce.w += f * 0.5 * d.w;
    }
    double len = sqrt(c0.x * c0.x + c0.y * c0.y + c0.z * c0.z + c0.w * c0.w);
    dq4 rr = {c0.x / len, c0.y / len, c0.z / len, c0.w / len};
    dq4 ee = {ce.x / len, ce.y / len, ce.z / len, ce.w / len};
    dq4 tt = q_mul(ee, (dq4){-rr.x, -rr.y, -rr.z, rr.w});
    double rot[3][3];
    q_to_rot(rr, rot);
    const double t[3] = {2 * tt.x, 2 * tt.y, 2 * tt.z};
    for (int r = 0; r < 3; r++) {
        out_p[r] = rot[r][0] * ps[0] + rot[r][1] * ps[1] + rot[r][2] * ps[2] + t[r];
        out_n[r] = rot[r][0] * n[0] + rot[r][1] * n[1] + rot[r][2] * n[2];
    }
}

static sw_dualquat dual_quat_of(const joint_ref* j, double sign) {
    dq4 tq = {j->t[0], j->t[1], j->t[2], 0};
    dq4 d = q_mul(tq, j->q);
    return (sw_dualquat){{(float)(sign * j->q.x), (float)(sign * j->q.y), (float)(sign * j->q.z), (float)(sign * j->q.w)},
                         {(float)(sign * 0.5 * d.x), (float)(sign * 0.5 * d.y), (float)(sign * 0.5 * d.z),
                          (float)(sign * 0.5 * d.w)}};
}

enum { V = 64, J = 10 };

typedef struct dqs_data {
    joint_ref joints[J];
    sw_mat34 mats[J];
    sw_dualquat dqs[J];
    sw_mat34 stretch[J];
    uint16_t jidx[V * 8];
    float weights[V * 8];
    float pos[V * 3], nrm[V * 3];
    float out_pos[V * 3], out_nrm[V * 3];
    float lbs_pos[V * 3], lbs_nrm[V * 3];
} dqs_data;

static sw_skin_job make_job(dqs_data* d, sw_skin_method method, int influences, const sw_mat34* stretch, float* out_pos,
                            float* out_nrm) {
    sw_skin_job job;
    memset(&job, 0, sizeof job);
    job.method = method;
    job.vertex_count = V;
    job.influence_count = influences;
    job.joint_count = J;
    job.matrices = d->mats;
    job.dual_quats = d->dqs;
    job.stretch = stretch;
    job.joints = d->jidx;
    job.weights = d->weights;
    job.in_positions = d->pos;
    job.out_positions = out_pos;
    job.in_normals = d->nrm;
    job.out_normals = out_nrm;
    return job;
}

static void fill_vertices(rng* r, dqs_data* d, int influences, int single) {
    for (int v = 0; v < V; v++) {
        float sum = 0.0f;
        for (int i = 0; i < influences; i++) {
            d->jidx[v * influences + i] = (uint16_t)rng_below(r, J);
            /* single: all weight on the first slot, the others 0 (still valid joints). */
            d->weights[v * influences + i] = single ? (i == 0 ? 1.0f : 0.0f) : rng_range(r, 0.05, 1.0);
            sum += d->weights[v * influences + i];
        }
        for (int i = 0; i < influences; i++) d->weights[v * influences + i] /= sum;
        sw_vec3 p = rng_vec3(r, -2, 2), n = sw_vec3_normalize(rng_vec3(r, -1, 1));
        memcpy(&d->pos[v * 3], &p, sizeof p);
        memcpy(&d->nrm[v * 3], &n, sizeof n);
    }
}

/* ---- tests ------------------------------------------------------------------------ */

static void test_dual_quats_rigid_palette(void) {
    static dqs_data d;
    rng r = {0xD45};
    make_joints(&r, d.joints, d.mats, J, NULL, 0);
    SW_CHECK_EQ_INT(sw_skin_dual_quats(d.dqs, d.stretch, d.mats, J), 0);
    SW_CHECK_EQ_INT(sw_skin_dual_quats(d.dqs, NULL, d.mats, J), 0);
    for (int j = 0; j < J; j++) {
        for (int rr = 0; rr < 3; rr++) {
            for (int c = 0; c < 4; c++) SW_CHECK_NEAR(d.stretch[j].m[rr][c], rr == c ? 1.0 : 0.0, 1e-5);
        }
        for (int k = 0; k < 20; k++) {
            sw_vec3 p = rng_vec3(&r, -2, 2);
            double e[3], scale;
            apply_mat_d(&d.mats[j], &p.x, e, &scale);
            sw_vec3 got = sw_dualquat_apply_point(d.dqs[j], p);
            SW_CHECK_NEAR(got.x, e[0], 1e-6 * scale);
            SW_CHECK_NEAR(got.y, e[1], 1e-6 * scale);
            SW_CHECK_NEAR(got.z, e[2], 1e-6 * scale);
        }
    }
}

/* One influence per vertex (also as 4 slots with weights 1, 0, 0, 0): DQS is
   the matrix transform, and equals LBS. */
static void test_dqs_single_influence_equals_matrix_and_lbs(void) {
    static dqs_data d;
    rng r = {0xD46};
    make_joints(&r, d.joints, d.mats, J, NULL, 0);
    SW_CHECK_EQ_INT(sw_skin_dual_quats(d.dqs, NULL, d.mats, J), 0);
    const int slots[2] = {1, 4};
    for (int s = 0; s < 2; s++) {
        int n = slots[s];
        fill_vertices(&r, &d, n, 1);
        sw_skin_job dqs = make_job(&d, SW_SKIN_DQS, n, NULL, d.out_pos, d.out_nrm);
        sw_skin_job lbs = make_job(&d, SW_SKIN_LBS, n, NULL, d.lbs_pos, d.lbs_nrm);
        SW_CHECK_EQ_INT(sw_skin_job_validate(&dqs, NULL), SW_OK);
        SW_CHECK_EQ_INT(sw_skin_job_validate(&lbs, NULL), SW_OK);
        sw_skin_job_run(&dqs, 0, V);
        sw_skin_job_run(&lbs, 0, V);
        double worst_pos = 0.0, worst_lbs = 0.0, worst_nrm = 0.0;
        for (int v = 0; v < V; v++) {
            const sw_mat34* m = &d.mats[d.jidx[v * n]];
            double e[3], scale;
            apply_mat_d(m, &d.pos[v * 3], e, &scale);
            double rn[3], rlen = 0.0;
            for (int k = 0; k < 3; k++) {
                rn[k] = (double)m->m[k][0] * d.nrm[v * 3] + (double)m->m[k][1] * d.nrm[v * 3 + 1] + (double)m->m[k][2] * d.nrm[v * 3 + 2];
                rlen += rn[k] * rn[k];
            }
            for (int k = 0; k < 3; k++) {
                worst_pos = fmax(worst_pos, fabs(d.out_pos[v * 3 + k] - e[k]) / scale);
                worst_lbs = fmax(worst_lbs, fabs(d.out_pos[v * 3 + k] - d.lbs_pos[v * 3 + k]) / scale);
                worst_nrm = fmax(worst_nrm, fabs(d.out_nrm[v * 3 + k] - rn[k] / sqrt(rlen)));
                worst_nrm = fmax(worst_nrm, fabs(d.out_nrm[v * 3 + k] - d.lbs_nrm[v * 3 + k]));
            }
        }
        if (worst_pos >= 1e-6 || worst_lbs >= 1e-6 || worst_nrm >= 1e-5)
            fprintf(stderr, "  %d slots: vs matrix %.3g, vs LBS %.3g, normals %.3g\n", n, worst_pos, worst_lbs, worst_nrm);
        SW_CHECK(worst_pos < 1e-6);
        SW_CHECK(worst_lbs < 1e-6);
        SW_CHECK(worst_nrm < 1e-5);
    }
}

/* A palette with scale: sw_skin_dual_quats counts the stretched joints and
   splits S = [R|t]·K; with the stretch array a single-influence vertex gets the
   full S·p, without it only [R|t]·p. */
static void test_dqs_scaled_palette(void) {
    static dqs_data d;
    rng r = {0xD47};
    const int scaled[3] = {1, 4, 6};
    make_joints(&r, d.joints, d.mats, J, scaled, 3);
    SW_CHECK_EQ_INT(sw_skin_dual_quats(d.dqs, d.stretch, d.mats, J), 3);
    SW_CHECK_EQ_INT(sw_skin_dual_quats(d.dqs, NULL, d.mats, J), 3);
    SW_CHECK_EQ_INT(sw_skin_dual_quats(d.dqs, d.stretch, d.mats, J), 3);
    for (int j = 0; j < J; j++) {
        for (int rr = 0; rr < 3; rr++) {
            for (int c = 0; c < 3; c++) SW_CHECK_NEAR(d.stretch[j].m[rr][c], d.joints[j].k[rr][c], 1e-5);
            SW_CHECK(d.stretch[j].m[rr][3] == 0.0f);
        }
        /* The rigid part is [R|t]: check it moves points like R(q)·p + t. */
        double rot[3][3];
        q_to_rot(d.joints[j].q, rot);
        sw_vec3 p = rng_vec3(&r, -2, 2);
        sw_vec3 got = sw_dualquat_apply_point(d.dqs[j], p);
        const float g[3] = {got.x, got.y, got.z};
        for (int k = 0; k < 3; k++)
            SW_CHECK_NEAR(g[k], rot[k][0] * p.x + rot[k][1] * p.y + rot[k][2] * p.z + d.joints[j].t[k], 1e-5);
    }
    fill_vertices(&r, &d, 1, 1);
    sw_skin_job job = make_job(&d, SW_SKIN_DQS, 1, d.stretch, d.out_pos, d.out_nrm);
    SW_CHECK_EQ_INT(sw_skin_job_validate(&job, NULL), SW_OK);
    sw_skin_job_run(&job, 0, V);
    double worst = 0.0;
    for (int v = 0; v < V; v++) {
        double e[3], scale;
        apply_mat_d(&d.mats[d.jidx[v]], &d.pos[v * 3], e, &scale);
        for (int k = 0; k < 3; k++) worst = fmax(worst, fabs(d.out_pos[v * 3 + k] - e[k]) / scale);
    }
    if (worst >= 1e-5) fprintf(stderr, "  with stretch: worst relative error %.3g\n", worst);
    SW_CHECK(worst < 1e-5);

    /* Without the stretch array the scale is dropped: [R|t]·p. */
    job.stretch = NULL;
    SW_CHECK_EQ_INT(sw_skin_job_validate(&job, NULL), SW_OK);
    sw_skin_job_run(&job, 0, V);
    worst = 0.0;
    double moved = 0.0;
    for (int v = 0; v < V; v++) {
        const joint_ref* jr = &d.joints[d.jidx[v]];
        double rot[3][3];
        q_to_rot(jr->q, rot);
        const float* p = &d.pos[v * 3];
        double full[3], scale;
        apply_mat_d(&d.mats[d.jidx[v]], p, full, &scale);
        for (int k = 0; k < 3; k++) {
            double e = rot[k][0] * p[0] + rot[k][1] * p[1] + rot[k][2] * p[2] + jr->t[k];
            worst = fmax(worst, fabs(d.out_pos[v * 3 + k] - e) / scale);
            moved = fmax(moved, fabs(d.out_pos[v * 3 + k] - full[k]));
        }
    }
    SW_CHECK(worst < 1e-5);
    SW_CHECK(moved > 0.1); /* the stretch really was there to drop */
}

/* 1–8 influences, palette signs flipped at random, with and without stretch:
   against the double-precision DQS reference. */
static void test_dqs_blend_vs_double_reference(void) {
    static dqs_data d;
    rng r = {0xD48};
    const int scaled[4] = {0, 3, 5, 9};
    for (int with_stretch = 0; with_stretch < 2; with_stretch++) {
        make_joints(&r, d.joints, d.mats, J, scaled, with_stretch ? 4 : 0);
        double signs[J];
        for (int j = 0; j < J; j++) {
            signs[j] = rng_below(&r, 2) ? -1.0 : 1.0;
            d.dqs[j] = dual_quat_of(&d.joints[j], signs[j]);
            for (int rr = 0; rr < 3; rr++) {
                for (int c = 0; c < 3; c++) d.stretch[j].m[rr][c] = (float)d.joints[j].k[rr][c];
                d.stretch[j].m[rr][3] = 0.0f;
            }
        }
        for (int n = 1; n <= SW_MAX_INFLUENCES; n++) {
            fill_vertices(&r, &d, n, 0);
            sw_skin_job job = make_job(&d, SW_SKIN_DQS, n, with_stretch ? d.stretch : NULL, d.out_pos, d.out_nrm);
            SW_CHECK_EQ_INT(sw_skin_job_validate(&job, NULL), SW_OK);
            sw_skin_job_run(&job, 0, V);
            double worst_pos = 0.0, worst_nrm = 0.0;
            for (int v = 0; v < V; v++) {
                int js[8];
                double ws[8];
                for (int i = 0; i < n; i++) {
                    js[i] = d.jidx[v * n + i];
                    ws[i] = d.weights[v * n + i];
                }
                double e[3], en[3];
                dqs_reference(d.joints, js, ws, n, &d.pos[v * 3], &d.nrm[v * 3], with_stretch, e, en);
                for (int k = 0; k < 3; k++) {
                    worst_pos = fmax(worst_pos, fabs(d.out_pos[v * 3 + k] - e[k]) / (fabs(e[k]) + 5.0));
                    if (!with_stretch) worst_nrm = fmax(worst_nrm, fabs(d.out_nrm[v * 3 + k] - en[k]));
                }
            }
            if (worst_pos >= 2e-6 || worst_nrm >= 1e-5)
                fprintf(stderr, "  stretch %d, %d influences: pos %.3g, normals %.3g\n", with_stretch, n, worst_pos, worst_nrm);
            SW_CHECK(worst_pos < 2e-6);
            SW_CHECK(worst_nrm < 1e-5);
        }
    }
}

/* Two joints with the same rotation stored with opposite signs, translations
   (0,0,0) and (2,0,0): half and half must land halfway, not at a zero quaternion. */
static void test_dqs_antipodal_palette(void) {
    const double h = sqrt(0.5);
    joint_ref j0 = {{h, 0, 0, h}, {0, 0, 0}, {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}};
    joint_ref j1 = {{h, 0, 0, h}, {2, 0, 0}, {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}};
    const sw_dualquat dqs[2] = {dual_quat_of(&j0, 1.0), dual_quat_of(&j1, -1.0)};
    const uint16_t joints[2] = {0, 1};
    const float weights[2] = {0.5f, 0.5f};
    const float pos[3] = {0, 1, 0};
    float out[3];
    sw_skin_job job;
    memset(&job, 0, sizeof job);
    job.method = SW_SKIN_DQS;
    job.vertex_count = 1;
    job.influence_count = 2;
    job.joint_count = 2;
    job.dual_quats = dqs;
    job.joints = joints;
    job.weights = weights;
    job.in_positions = pos;
    job.out_positions = out;
    SW_CHECK_EQ_INT(sw_skin_job_validate(&job, NULL), SW_OK);
    sw_skin_job_run(&job, 0, 1);
    /* 90° about X takes (0,1,0) to (0,0,1); then the mean translation (1,0,0). */
    SW_CHECK_NEAR(out[0], 1.0, 1e-6);
    SW_CHECK_NEAR(out[1], 0.0, 1e-6);
    SW_CHECK_NEAR(out[2], 1.0, 1e-6);
}

int main(void) {
    SW_RUN(test_dual_quats_rigid_palette);
    SW_RUN(test_dqs_single_influence_equals_matrix_and_lbs);
    SW_RUN(test_dqs_scaled_palette);
    SW_RUN(test_dqs_blend_vs_double_reference);
    SW_RUN(test_dqs_antipodal_palette);
    return sw_test_finish();
}
