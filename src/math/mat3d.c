/* The library's maths in double: 3-vectors, quaternions, 3×3 matrices
   (mat3d_internal.h says who uses what, and why each is computed in the
   order it is). */
#include "mat3d_internal.h"

/* ---- 3-vectors ----------------------------------------------------------------- */

sw__vec3d sw__vec3d_reject(sw__vec3d a, sw__vec3d u) {
    return sw__vec3d_sub(a, sw__vec3d_scale(u, sw__vec3d_dot(a, u)));
}

bool sw__vec3d_unit(sw__vec3d* a, double min_len) {
    double len = sw__vec3d_length(*a);
    if (!(len > min_len)) return false;
    *a = sw__vec3d_scale(*a, 1.0 / len);
    return true;
}

sw__vec3d sw__vec3d_any_perpendicular(sw__vec3d u) {
    double ax = fabs(u.x), ay = fabs(u.y), az = fabs(u.z);
    sw__vec3d e = ax <= ay && ax <= az ? sw__vec3d_make(1, 0, 0)
                  : ay <= az           ? sw__vec3d_make(0, 1, 0)
                                       : sw__vec3d_make(0, 0, 1);
    sw__vec3d p = sw__vec3d_cross(u, e);
    sw__vec3d_unit(&p, 0.0);
    return p;
}

double sw__vec3d_angle(sw__vec3d a, sw__vec3d b) {
    return atan2(sw__vec3d_length(sw__vec3d_cross(a, b)), sw__vec3d_dot(a, b));
}

/* ---- quaternions ------------------------------------------------------------------ */

sw__quatd sw__quatd_normalize(sw__quatd q) {
    double n = sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    if (!(n > 0.0)) return sw__quatd_identity();
    sw__quatd r = {q.x / n, q.y / n, q.z / n, q.w / n};
    return r;
}

sw__quatd sw__quatd_axis_angle(sw__vec3d axis, double angle) {
    double s = sin(0.5 * angle);
    sw__quatd q = {axis.x * s, axis.y * s, axis.z * s, cos(0.5 * angle)};
    return q;
}

sw__quatd sw__quatd_pow(sw__quatd q, double t) {
    if (q.w < 0.0) q = (sw__quatd){-q.x, -q.y, -q.z, -q.w};
    double s = sqrt(q.x * q.x + q.y * q.y + q.z * q.z);
    if (!(s > 0.0)) return sw__quatd_identity();
    double half = t * atan2(s, q.w), k = sin(half) / s;
    sw__quatd r = {q.x * k, q.y * k, q.z * k, cos(half)};
    return r;
}

sw__vec3d sw__quatd_rotate(sw__quatd q, sw__vec3d v) {
    sw__vec3d u = sw__vec3d_make(q.x, q.y, q.z), uv = sw__vec3d_cross(u, v), uuv = sw__vec3d_cross(u, uv);
    return sw__vec3d_add(v, sw__vec3d_add(sw__vec3d_scale(uv, 2.0 * q.w), sw__vec3d_scale(uuv, 2.0)));
}

sw__quatd sw__quatd_arc(sw__vec3d a, sw__vec3d b) {
    sw__vec3d c = sw__vec3d_cross(a, b);
    sw__quatd q = {c.x, c.y, c.z, 1.0 + sw__vec3d_dot(a, b)};
    return sw__quatd_normalize(q);
}

sw__mat3d sw__mat3d_from_quatd(sw__quatd q) {
    double xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z, xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z;
    double wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z;
    sw__mat3d r = {{{1 - 2 * (yy + zz), 2 * (xy - wz), 2 * (xz + wy)},
                    {2 * (xy + wz), 1 - 2 * (xx + zz), 2 * (yz - wx)},
                    {2 * (xz - wy), 2 * (yz + wx), 1 - 2 * (xx + yy)}}};
    return r;
}

sw__quatd sw__quatd_from_mat3d(const sw__mat3d* r) {
    const double(*m)[3] = r->m;
    double tr = m[0][0] + m[1][1] + m[2][2];
    sw__quatd q;
    if (tr >= m[0][0] && tr >= m[1][1] && tr >= m[2][2]) {
        double s = 2.0 * sqrt(1.0 + tr);
        q = (sw__quatd){(m[2][1] - m[1][2]) / s, (m[0][2] - m[2][0]) / s, (m[1][0] - m[0][1]) / s, 0.25 * s};
    } else if (m[0][0] >= m[1][1] && m[0][0] >= m[2][2]) {
        double s = 2.0 * sqrt(1.0 + m[0][0] - m[1][1] - m[2][2]);
        q = (sw__quatd){0.25 * s, (m[0][1] + m[1][0]) / s, (m[0][2] + m[2][0]) / s, (m[2][1] - m[1][2]) / s};
    } else if (m[1][1] >= m[2][2]) {
        double s = 2.0 * sqrt(1.0 + m[1][1] - m[0][0] - m[2][2]);
        q = (sw__quatd){(m[0][1] + m[1][0]) / s, 0.25 * s, (m[1][2] + m[2][1]) / s, (m[0][2] - m[2][0]) / s};
    } else {
        double s = 2.0 * sqrt(1.0 + m[2][2] - m[0][0] - m[1][1]);
        q = (sw__quatd){(m[0][2] + m[2][0]) / s, (m[1][2] + m[2][1]) / s, 0.25 * s, (m[1][0] - m[0][1]) / s};
    }
    return sw__quatd_normalize(q);
}

/* ---- 3×3 matrices ----------------------------------------------------------------- */

sw__mat3d sw__mat3d_from_mat34(const sw_mat34* a) {
    sw__mat3d out;
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) out.m[r][c] = a->m[r][c];
    return out;
}

sw__mat3d sw__mat3d_mul(const sw__mat3d* a, const sw__mat3d* b) {
    sw__mat3d r;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            r.m[i][j] = a->m[i][0] * b->m[0][j] + a->m[i][1] * b->m[1][j] + a->m[i][2] * b->m[2][j];
    return r;
}

sw__vec3d sw__mat3d_apply(const sw__mat3d* a, sw__vec3d v) {
    return sw__vec3d_make(a->m[0][0] * v.x + a->m[0][1] * v.y + a->m[0][2] * v.z,
                          a->m[1][0] * v.x + a->m[1][1] * v.y + a->m[1][2] * v.z,
                          a->m[2][0] * v.x + a->m[2][1] * v.y + a->m[2][2] * v.z);
}

double sw__mat3d_det(const sw__mat3d* a) {
    const double(*m)[3] = a->m;
    return m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
           m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
}

double sw__mat3d_max_abs(const sw__mat3d* a) {
    double n = 0.0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) n = fmax(n, fabs(a->m[i][j]));
    return n;
}

sw__mat3d sw__mat3d_cofactor(const sw__mat3d* a) {
    const double(*m)[3] = a->m;
    sw__mat3d c;
    c.m[0][0] = m[1][1] * m[2][2] - m[1][2] * m[2][1];
    c.m[0][1] = m[1][2] * m[2][0] - m[1][0] * m[2][2];
    c.m[0][2] = m[1][0] * m[2][1] - m[1][1] * m[2][0];
    c.m[1][0] = m[0][2] * m[2][1] - m[0][1] * m[2][2];
    c.m[1][1] = m[0][0] * m[2][2] - m[0][2] * m[2][0];
    c.m[1][2] = m[0][1] * m[2][0] - m[0][0] * m[2][1];
    c.m[2][0] = m[0][1] * m[1][2] - m[0][2] * m[1][1];
    c.m[2][1] = m[0][2] * m[1][0] - m[0][0] * m[1][2];
    c.m[2][2] = m[0][0] * m[1][1] - m[0][1] * m[1][0];
    return c;
}

bool sw__mat3d_inverse(sw__mat3d* out, const sw__mat3d* a) {
    double det = sw__mat3d_det(a), n = sw__mat3d_max_abs(a);
    if (!(fabs(det) > 1e-12 * n * n * n)) return false;
    const double k = 1.0 / det;
    const sw__mat3d c = sw__mat3d_cofactor(a);
    for (int r = 0; r < 3; r++)
        for (int col = 0; col < 3; col++) out->m[r][col] = c.m[col][r] * k;
    return true;
}

double sw__mat3d_orthogonality_defect(const sw__mat3d* a) {
    double worst = 0.0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double d = a->m[0][i] * a->m[0][j] + a->m[1][i] * a->m[1][j] + a->m[2][i] * a->m[2][j];
            worst = fmax(worst, fabs(d - (i == j ? 1.0 : 0.0)));
        }
    return worst;
}

void sw__mat3d_sym_eigenvalues(const sw__mat3d* a, double out[3]) {
    const double(*m)[3] = a->m;
    double p1 = m[0][1] * m[0][1] + m[0][2] * m[0][2] + m[1][2] * m[1][2];
    double q = (m[0][0] + m[1][1] + m[2][2]) / 3.0;
    double p2 = (m[0][0] - q) * (m[0][0] - q) + (m[1][1] - q) * (m[1][1] - q) + (m[2][2] - q) * (m[2][2] - q) + 2 * p1;
    if (p2 <= 1e-300) {
        out[0] = out[1] = out[2] = q;
        return;
    }
    /* B = (A − qI)/p has eigenvalues 2·cos(φ + 2πk/3) with cos 3φ = det(B)/2 */
    double p = sqrt(p2 / 6.0);
    sw__mat3d b;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) b.m[i][j] = (m[i][j] - (i == j ? q : 0.0)) / p;
    double r = sw__mat3d_det(&b) / 2.0;
    double phi = r <= -1.0 ? SW_PI / 3.0 : r >= 1.0 ? 0.0 : acos(r) / 3.0;
    out[0] = q + 2.0 * p * cos(phi);
    out[2] = q + 2.0 * p * cos(phi + 2.0 * SW_PI / 3.0);
    out[1] = 3.0 * q - out[0] - out[2];
}

void sw__mat3d_singular_values(const sw__mat3d* a, double out[3]) {
    sw__mat3d ata;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            ata.m[i][j] = a->m[0][i] * a->m[0][j] + a->m[1][i] * a->m[1][j] + a->m[2][i] * a->m[2][j];
    sw__mat3d_sym_eigenvalues(&ata, out);
    for (int i = 0; i < 3; i++) out[i] = sqrt(out[i] > 0.0 ? out[i] : 0.0);
}

/* x·1 and d·1 are exact, so γ = 1 is the plain step bit for bit. */
double sw__mat3d_polar_step(sw__mat3d* q, double det, double gamma, double* out_sum) {
    sw__mat3d c = sw__mat3d_cofactor(q);
    double largest = 0.0, sum = 0.0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double next = 0.5 * (gamma * q->m[i][j] + c.m[i][j] / (det * gamma));
            double change = fabs(next - q->m[i][j]);
            largest = fmax(largest, change);
            sum += change;
            q->m[i][j] = next;
        }
    *out_sum = sum;
    return largest;
}

sw__mat3d sw__mat3d_orthogonal(const sw__mat3d* a) {
    sw__mat3d q = *a;
    double scale = sw__mat3d_max_abs(&q);
    double det = sw__mat3d_det(&q);
    if (!(scale > 0.0) || !(fabs(det) > 1e-12 * scale * scale * scale)) return sw__mat3d_identity();
    for (int iteration = 0; iteration < 40; iteration++) {
        double sum;
        if (sw__mat3d_polar_step(&q, sw__mat3d_det(&q), 1.0, &sum) < 1e-14) break;
    }
    return q;
}

sw__mat3d sw__mat3d_nearest_rotation(sw__mat3d x) {
    for (int iteration = 0; iteration < 40; iteration++) {
        sw__mat3d inv;
        double det = sw__mat3d_det(&x);
        if (!(det > 0.0) || !sw__mat3d_inverse(&inv, &x)) break;
        double g = pow(det, -1.0 / 3.0), change = 0.0;
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) {
                double v = 0.5 * (g * x.m[i][j] + inv.m[j][i] / g);
                change = fmax(change, fabs(v - x.m[i][j]));
                x.m[i][j] = v;
            }
        if (change < 1e-15) break;
    }
    return x;
}

double sw__mat3d_angle_between(const sw__mat3d* a, const sw__mat3d* b) {
    double trace = 0.0;
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++) trace += a->m[k][i] * b->m[k][i]; /* tr(Aᵀ·B) */
    double c = (trace - 1.0) / 2.0;
    return acos(c < -1.0 ? -1.0 : c > 1.0 ? 1.0 : c);
}
