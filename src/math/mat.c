/* 3×4 affine rows and column-major 4×4 matrices (see sinew/math.h); the
   inverses, cofactor and polar decomposition compute in double
   (mat3d_internal.h). */
#include "sinew/math.h"

#include "mat3d_internal.h"

sw_mat34 sw_mat34_identity(void) {
    return (sw_mat34){{{1.0f, 0.0f, 0.0f, 0.0f}, {0.0f, 1.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 1.0f, 0.0f}}};
}

sw_mat34 sw_mat34_translation(sw_vec3 t) {
    return (sw_mat34){{{1.0f, 0.0f, 0.0f, t.x}, {0.0f, 1.0f, 0.0f, t.y}, {0.0f, 0.0f, 1.0f, t.z}}};
}

sw_mat34 sw_mat34_mul(const sw_mat34* a, const sw_mat34* b) {
    sw_mat34 out;
    for (int r = 0; r < 3; r++) {
        for (int c = 0; c < 4; c++) {
            float v = a->m[r][0] * b->m[0][c] + a->m[r][1] * b->m[1][c] + a->m[r][2] * b->m[2][c];
            out.m[r][c] = c == 3 ? v + a->m[r][3] : v; /* b's implicit bottom row is 0 0 0 1 */
        }
    }
    return out;
}

sw_vec3 sw_mat34_apply_point(const sw_mat34* m, sw_vec3 p) {
    return (sw_vec3){
        m->m[0][0] * p.x + m->m[0][1] * p.y + m->m[0][2] * p.z + m->m[0][3],
        m->m[1][0] * p.x + m->m[1][1] * p.y + m->m[1][2] * p.z + m->m[1][3],
        m->m[2][0] * p.x + m->m[2][1] * p.y + m->m[2][2] * p.z + m->m[2][3],
    };
}

sw_vec3 sw_mat34_apply_dir(const sw_mat34* m, sw_vec3 d) {
    return (sw_vec3){
        m->m[0][0] * d.x + m->m[0][1] * d.y + m->m[0][2] * d.z,
        m->m[1][0] * d.x + m->m[1][1] * d.y + m->m[1][2] * d.z,
        m->m[2][0] * d.x + m->m[2][1] * d.y + m->m[2][2] * d.z,
    };
}

/* ---- 3×4 inverse, cofactor, polar (through the double kit, mat3d_internal.h) ------ */

static double sw__mat3d_frobenius2(const sw__mat3d* a) {
    double sum = 0.0;
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) sum += a->m[r][c] * a->m[r][c];
    return sum;
}

/* sw_mat34_inverse's and sw_mat34_polar's rule: singular relative to the
   matrix's own (Frobenius) scale, so tiny uniform scales still invert. */
static bool sw__mat34_singular(const sw__mat3d* a, double det) {
    double norm = sqrt(sw__mat3d_frobenius2(a));
    return !(fabs(det) > 1e-12 * norm * norm * norm);
}

float sw_mat34_determinant(const sw_mat34* m) {
    sw__mat3d a = sw__mat3d_from_mat34(m);
    return (float)sw__mat3d_det(&a);
}

sw_mat34 sw_mat34_cofactor(const sw_mat34* m) {
    sw__mat3d a = sw__mat3d_from_mat34(m);
    sw__mat3d c = sw__mat3d_cofactor(&a);
    sw_mat34 out;
    for (int r = 0; r < 3; r++) {
        for (int col = 0; col < 3; col++) out.m[r][col] = (float)c.m[r][col];
        out.m[r][3] = 0.0f;
    }
    return out;
}

bool sw_mat34_inverse(sw_mat34* out, const sw_mat34* m) {
    sw__mat3d a = sw__mat3d_from_mat34(m);
    double det = sw__mat3d_det(&a);
    if (sw__mat34_singular(&a, det)) {
        *out = sw_mat34_identity();
        return false;
    }
    /* A⁻¹ = cof(A)ᵀ / det; t' = −A⁻¹·t */
    sw__mat3d c = sw__mat3d_cofactor(&a);
    double inv[3][3];
    for (int r = 0; r < 3; r++)
        for (int col = 0; col < 3; col++) inv[r][col] = c.m[col][r] / det;
    for (int r = 0; r < 3; r++) {
        double t = 0.0;
        for (int k = 0; k < 3; k++) {
            out->m[r][k] = (float)inv[r][k];
            t -= inv[r][k] * m->m[k][3];
        }
        out->m[r][3] = (float)t;
    }
    return true;
}

bool sw_mat34_polar(const sw_mat34* m, sw_mat34* out_rigid, sw_mat34* out_stretch) {
    sw__mat3d a = sw__mat3d_from_mat34(m);
    double det = sw__mat3d_det(&a);
    if (det <= 0.0 || sw__mat34_singular(&a, det)) {
        *out_rigid = sw_mat34_translation((sw_vec3){m->m[0][3], m->m[1][3], m->m[2][3]});
        *out_stretch = *m;
        for (int r = 0; r < 3; r++) out_stretch->m[r][3] = 0.0f;
        return false;
    }
    /* Higham's scaled Newton iteration R ← ½(γR + R⁻ᵀ/γ), γ = |det R|^(−1/3):
       converges quadratically to the orthogonal polar factor, and the
       scaling makes large or tiny uniform scales converge in a few steps. */
    sw__mat3d r = a;
    for (int iteration = 0; iteration < 32; iteration++) {
        double d = sw__mat3d_det(&r), change;
        sw__mat3d_polar_step(&r, d, pow(fabs(d), -1.0 / 3.0), &change);
        if (change < 1e-14) break;
    }
    /* K = Rᵀ·A, symmetrised to remove the last rounding. */
    double k[3][3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) k[i][j] = r.m[0][i] * a.m[0][j] + r.m[1][i] * a.m[1][j] + r.m[2][i] * a.m[2][j];
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) {
            out_rigid->m[i][j] = (float)r.m[i][j];
            out_stretch->m[i][j] = (float)(0.5 * (k[i][j] + k[j][i]));
        }
        out_rigid->m[i][3] = m->m[i][3];
        out_stretch->m[i][3] = 0.0f;
    }
    return true;
}

sw_mat34 sw_mat34_from_mat4(const sw_mat4* m) {
    sw_mat34 out;
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 4; c++) out.m[r][c] = m->m[c * 4 + r];
    return out;
}

sw_mat4 sw_mat4_from_mat34(const sw_mat34* m) {
    sw_mat4 out;
    for (int c = 0; c < 4; c++) {
        for (int r = 0; r < 3; r++) out.m[c * 4 + r] = m->m[r][c];
        out.m[c * 4 + 3] = c == 3 ? 1.0f : 0.0f;
    }
    return out;
}

sw_mat4 sw_mat4_identity(void) {
    sw_mat4 out = {{0}};
    out.m[0] = out.m[5] = out.m[10] = out.m[15] = 1.0f;
    return out;
}

sw_mat4 sw_mat4_mul(const sw_mat4* a, const sw_mat4* b) {
    sw_mat4 out;
    for (int c = 0; c < 4; c++) {
        for (int r = 0; r < 4; r++) {
            float v = 0.0f;
            for (int k = 0; k < 4; k++) v += a->m[k * 4 + r] * b->m[c * 4 + k];
            out.m[c * 4 + r] = v;
        }
    }
    return out;
}

sw_mat4 sw_mat4_transpose(const sw_mat4* m) {
    sw_mat4 out;
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 4; r++) out.m[c * 4 + r] = m->m[r * 4 + c];
    return out;
}

sw_vec4 sw_mat4_apply(const sw_mat4* m, sw_vec4 v) {
    const float* a = m->m;
    return (sw_vec4){
        a[0] * v.x + a[4] * v.y + a[8] * v.z + a[12] * v.w,
        a[1] * v.x + a[5] * v.y + a[9] * v.z + a[13] * v.w,
        a[2] * v.x + a[6] * v.y + a[10] * v.z + a[14] * v.w,
        a[3] * v.x + a[7] * v.y + a[11] * v.z + a[15] * v.w,
    };
}

/* Determinant of the 3×3 minor of a (column-major 4×4, in double) without
   row `skip_r` and column `skip_c`. */
static double sw__mat4_minor(const double* a, int skip_r, int skip_c) {
    sw__mat3d m;
    for (int r = 0, i = 0; r < 4; r++) {
        if (r == skip_r) continue;
        for (int c = 0, j = 0; c < 4; c++) {
            if (c == skip_c) continue;
            m.m[i][j++] = a[c * 4 + r];
        }
        i++;
    }
    return sw__mat3d_det(&m);
}

bool sw_mat4_inverse(sw_mat4* out, const sw_mat4* m) {
    double a[16], norm2 = 0.0;
    for (int i = 0; i < 16; i++) {
        a[i] = m->m[i];
        norm2 += a[i] * a[i];
    }
    double cof[16]; /* cof[c*4+r] = (−1)^(r+c) · minor(r, c) */
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++) cof[c * 4 + r] = ((r + c) & 1 ? -1.0 : 1.0) * sw__mat4_minor(a, r, c);
    double det = 0.0;
    for (int c = 0; c < 4; c++) det += a[c * 4 + 0] * cof[c * 4 + 0]; /* expansion along row 0 */
    if (!(fabs(det) > 1e-12 * norm2 * norm2)) {
        *out = sw_mat4_identity();
        return false;
    }
    /* inverse = adj / det, adj = cofᵀ */
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++) out->m[c * 4 + r] = (float)(cof[r * 4 + c] / det);
    return true;
}
