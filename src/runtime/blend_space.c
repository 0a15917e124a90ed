/* 2-D blend spaces: Delaunay triangulation at build, weights per frame.
   See sinew/blend_space.h for the manual. */
#include "sinew/blend_space.h"

#include <math.h>
#include <string.h>

/* ---- memory layout ----------------------------------------------------------- */

typedef struct sw__bs_layout {
    size_t points, triangles, hull, order, chain, flags, total;
} sw__bs_layout;

static size_t sw__bs_align(size_t n) { return (n + 15u) & ~(size_t)15u; }

static sw__bs_layout sw__bs_layout_of(size_t n) {
    sw__bs_layout l;
    size_t at = 0;
    l.points = at, at += sw__bs_align(2 * n * sizeof(float));
    l.triangles = at, at += sw__bs_align(3 * 2 * n * sizeof(uint32_t)); /* ≤ 2n − 5 at the end, 2n − 2 while inserting */
    l.hull = at, at += sw__bs_align(n * sizeof(uint32_t));
    l.order = at, at += sw__bs_align(n * sizeof(uint32_t));
    l.chain = at, at += sw__bs_align((2 * n + 1) * sizeof(uint32_t));
    l.flags = at, at += sw__bs_align(n);
    l.total = at;
    return l;
}

size_t sw_blend_space_2d_memory_size(size_t point_count) {
    if (point_count < 3 || point_count > SW_BLEND_SPACE_2D_MAX_POINTS) return 0;
    return sw__bs_layout_of(point_count).total;
}

/* ---- predicates (double on float inputs) ----------------------------------- */

/* Twice the signed area of (a, b, c): > 0 counter-clockwise. */
static double sw__orient(const float* a, const float* b, const float* c) {
    return ((double)b[0] - a[0]) * ((double)c[1] - a[1]) - ((double)b[1] - a[1]) * ((double)c[0] - a[0]);
}

/* > 0 when d lies strictly inside the circumcircle of the counter-clockwise
   triangle (a, b, c), with a margin relative to the terms' size so that
   four points on one circle never count as inside (no endless flips). */
static bool sw__in_circle(const float* a, const float* b, const float* c, const float* d) {
    double ax = (double)a[0] - d[0], ay = (double)a[1] - d[1];
    double bx = (double)b[0] - d[0], by = (double)b[1] - d[1];
    double cx = (double)c[0] - d[0], cy = (double)c[1] - d[1];
    double a2 = ax * ax + ay * ay, b2 = bx * bx + by * by, c2 = cx * cx + cy * cy;
    double det = a2 * (bx * cy - by * cx) - b2 * (ax * cy - ay * cx) + c2 * (ax * by - ay * bx);
    double scale = a2 * (fabs(bx * cy) + fabs(by * cx)) + b2 * (fabs(ax * cy) + fabs(ay * cx)) +
                   c2 * (fabs(ax * by) + fabs(ay * bx));
    return det > 1e-12 * scale;
}

/* ---- build --------------------------------------------------------------------- */

typedef struct sw__bs_build {
    const float* p; /* 2 per point */
    uint32_t* tri;  /* 3 per triangle */
    size_t tri_count;
} sw__bs_build;

static const float* sw__pt(const sw__bs_build* b, uint32_t i) { return b->p + 2 * (size_t)i; }

static void sw__set_tri(sw__bs_build* b, size_t t, uint32_t v0, uint32_t v1, uint32_t v2) {
    b->tri[3 * t] = v0, b->tri[3 * t + 1] = v1, b->tri[3 * t + 2] = v2;
}

/* The triangle other than `skip` with the directed edge (from, to); SIZE_MAX when none. */
static size_t sw__find_edge(const sw__bs_build* b, uint32_t from, uint32_t to, size_t skip) {
    for (size_t t = 0; t < b->tri_count; t++) {
        if (t == skip) continue;
        const uint32_t* v = b->tri + 3 * t;
        for (int e = 0; e < 3; e++)
            if (v[e] == from && v[(e + 1) % 3] == to) return t;
    }
    return SIZE_MAX;
}

/* Sorts indices by (x, y): insertion sort, n is small. */
static void sw__sort_points(const float* p, uint32_t* order, size_t n) {
    for (size_t i = 0; i < n; i++) order[i] = (uint32_t)i;
    for (size_t i = 1; i < n; i++) {
        uint32_t k = order[i];
        size_t j = i;
        while (j > 0) {
            const float* q = p + 2 * (size_t)order[j - 1];
            const float* r = p + 2 * (size_t)k;
            if (q[0] < r[0] || (q[0] == r[0] && q[1] <= r[1])) break;
            order[j] = order[j - 1];
            j--;
        }
        order[j] = k;
    }
}

/* Strict convex hull, counter-clockwise (collinear points left out). */
static size_t sw__monotone_chain(const float* p, const uint32_t* order, size_t n, uint32_t* chain) {
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        while (k >= 2 && sw__orient(p + 2 * chain[k - 2], p + 2 * chain[k - 1], p + 2 * order[i]) <= 0.0) k--;
        chain[k++] = order[i];
    }
    for (size_t i = n - 1, lower = k + 1; i-- > 0;) {
        while (k >= lower && sw__orient(p + 2 * chain[k - 2], p + 2 * chain[k - 1], p + 2 * order[i]) <= 0.0) k--;
        chain[k++] = order[i];
    }
    return k - 1; /* the last point repeats the first */
}

/* Splits triangle t at point v: in three, or, when v lies on the edge
   opposite vertex `on_edge`, the two triangles beside that edge (or the one
   of a hull edge) in two each. */
static void sw__split(sw__bs_build* b, size_t t, uint32_t v, int on_edge) {
    uint32_t a = b->tri[3 * t], c1 = b->tri[3 * t + 1], c2 = b->tri[3 * t + 2];
    if (on_edge < 0) {
        sw__set_tri(b, t, a, c1, v);
        sw__set_tri(b, b->tri_count++, c1, c2, v);
        sw__set_tri(b, b->tri_count++, c2, a, v);
        return;
    }
    uint32_t w = b->tri[3 * t + on_edge], e0 = b->tri[3 * t + (on_edge + 1) % 3],
             e1 = b->tri[3 * t + (on_edge + 2) % 3];
    size_t u = sw__find_edge(b, e1, e0, t);
    sw__set_tri(b, t, w, e0, v);
    sw__set_tri(b, b->tri_count++, e1, w, v);
    if (u != SIZE_MAX) {
        uint32_t z = 0;
        for (int e = 0; e < 3; e++)
            if (b->tri[3 * u + e] != e0 && b->tri[3 * u + e] != e1) z = b->tri[3 * u + e];
        sw__set_tri(b, u, z, e1, v);
        sw__set_tri(b, b->tri_count++, e0, z, v);
    }
}

/* Inserts point `v` (inside the hull or on it) into the triangulation: into
   the triangle that holds it, or, should rounding leave it in none, the one
   it is least outside of, on that triangle's nearest edge. */
static void sw__insert(sw__bs_build* b, uint32_t v) {
    const float* q = sw__pt(b, v);
    size_t best = 0;
    double best_min = -INFINITY;
    int best_edge = -1;
    for (size_t t = 0; t < b->tri_count; t++) {
        uint32_t a = b->tri[3 * t], c1 = b->tri[3 * t + 1], c2 = b->tri[3 * t + 2];
        double o[3] = {sw__orient(sw__pt(b, c1), sw__pt(b, c2), q), sw__orient(sw__pt(b, c2), sw__pt(b, a), q),
                       sw__orient(sw__pt(b, a), sw__pt(b, c1), q)};
        int low = o[0] <= o[1] && o[0] <= o[2] ? 0 : o[1] <= o[2] ? 1 : 2;
        if (o[low] > best_min) best_min = o[low], best = t, best_edge = low;
        if (o[low] >= 0.0) break;
    }
    sw__split(b, best, v, best_min > 0.0 ? -1 : best_edge);
}

/* Lawson's flips until every edge is locally Delaunay. */
static void sw__flip_all(sw__bs_build* b) {
    size_t max_passes = b->tri_count * b->tri_count + 8; /* never reached: a bound, not a budget */
    for (size_t pass = 0; pass < max_passes; pass++) {
        bool flipped = false;
        for (size_t t = 0; t < b->tri_count; t++) {
            for (int e = 0; e < 3; e++) {
                uint32_t a = b->tri[3 * t + e], c = b->tri[3 * t + (e + 1) % 3], o = b->tri[3 * t + (e + 2) % 3];
                size_t u = sw__find_edge(b, c, a, t);
                if (u == SIZE_MAX) continue;
                uint32_t d = 0;
                for (int k = 0; k < 3; k++)
                    if (b->tri[3 * u + k] != a && b->tri[3 * u + k] != c) d = b->tri[3 * u + k];
                if (!sw__in_circle(sw__pt(b, a), sw__pt(b, c), sw__pt(b, o), sw__pt(b, d))) continue;
                /* Quad a, d, c, o counter-clockwise: edge a–c becomes o–d. */
                sw__set_tri(b, t, a, d, o);
                sw__set_tri(b, u, d, c, o);
                flipped = true;
                break;
            }
        }
        if (!flipped) return;
    }
}

/* The boundary: the strict hull with the points on its edges put back in order. */
static size_t sw__boundary(const float* p, size_t n, const uint32_t* strict, size_t h, uint32_t* out,
                           uint8_t* on_hull) {
    size_t k = 0;
    for (size_t i = 0; i < h; i++) {
        uint32_t a = strict[i], b = strict[(i + 1) % h];
        out[k++] = a;
        size_t first = k;
        const float* pa = p + 2 * (size_t)a;
        const float* pb = p + 2 * (size_t)b;
        double dx = (double)pb[0] - pa[0], dy = (double)pb[1] - pa[1];
        for (size_t v = 0; v < n; v++) {
            if (on_hull[v] || sw__orient(pa, pb, p + 2 * v) != 0.0) continue;
            double s = ((p[2 * v] - (double)pa[0]) * dx + (p[2 * v + 1] - (double)pa[1]) * dy);
            if (s <= 0.0 || s >= dx * dx + dy * dy) continue;
            /* insertion by parameter along the edge */
            size_t j = k++;
            while (j > first) {
                const float* q = p + 2 * (size_t)out[j - 1];
                double sq = ((q[0] - (double)pa[0]) * dx + (q[1] - (double)pa[1]) * dy);
                if (sq < s) break;
                out[j] = out[j - 1];
                j--;
            }
            out[j] = (uint32_t)v;
        }
        for (size_t j = first; j < k; j++) on_hull[out[j]] = 2; /* collinear boundary point */
    }
    return k;
}

static sw_result sw__bs_check(const float* points, size_t n, void* memory, size_t memory_size, sw_diag* diag) {
    if (n < 3)
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1,
                           "2-D blend space has %zu points; it needs at least 3 not on one line", n);
    if (n > SW_BLEND_SPACE_2D_MAX_POINTS)
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "2-D blend space has %zu points; at most %d", n,
                           SW_BLEND_SPACE_2D_MAX_POINTS);
    if (!points || !memory || memory_size < sw_blend_space_2d_memory_size(n) || ((uintptr_t)memory & 15u))
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1,
                           "2-D blend space needs points and %zu bytes of 16-aligned memory",
                           sw_blend_space_2d_memory_size(n));
    for (size_t i = 0; i < n; i++)
        if (!isfinite(points[2 * i]) || !isfinite(points[2 * i + 1]))
            return sw_diag_set(diag, SW_ERR_INVALID_DATA, (int64_t)i, "2-D blend space point %zu is not finite", i);
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++)
            if (points[2 * i] == points[2 * j] && points[2 * i + 1] == points[2 * j + 1])
                return sw_diag_set(diag, SW_ERR_INVALID_DATA, (int64_t)j,
                                   "2-D blend space points %zu and %zu are both at (%g, %g)", i, j,
                                   (double)points[2 * i], (double)points[2 * i + 1]);
    return SW_OK;
}

sw_result sw_blend_space_2d_build(sw_blend_space_2d* space, const float* points, size_t point_count, void* memory,
                                  size_t memory_size, sw_diag* diag) {
    SW_ASSERT(space);
    memset(space, 0, sizeof *space);
    sw_result r = sw__bs_check(points, point_count, memory, memory_size, diag);
    if (r != SW_OK) return r;
    const size_t n = point_count;
    sw__bs_layout l = sw__bs_layout_of(n);
    uint8_t* base = (uint8_t*)memory;
    float* p = (float*)(void*)(base + l.points);
    uint32_t* order = (uint32_t*)(void*)(base + l.order);
    uint32_t* chain = (uint32_t*)(void*)(base + l.chain);
    uint32_t* hull = (uint32_t*)(void*)(base + l.hull);
    uint8_t* on_hull = base + l.flags;
    memcpy(p, points, 2 * n * sizeof(float));

    sw__sort_points(p, order, n);
    size_t h = sw__monotone_chain(p, order, n, chain);
    if (h < 3)
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1,
                           "2-D blend space: all %zu points lie on one line (use a 1-D blend space)", n);
    memset(on_hull, 0, n);
    for (size_t i = 0; i < h; i++) on_hull[chain[i]] = 1;

    sw__bs_build b = {.p = p, .tri = (uint32_t*)(void*)(base + l.triangles), .tri_count = 0};
    for (size_t i = 1; i + 1 < h; i++) sw__set_tri(&b, b.tri_count++, chain[0], chain[i], chain[i + 1]);
    size_t hull_count = sw__boundary(p, n, chain, h, hull, on_hull);
    for (size_t v = 0; v < n; v++)
        if (on_hull[v] != 1) sw__insert(&b, (uint32_t)v);
    sw__flip_all(&b);

    space->point_count = n;
    space->points = p;
    space->triangle_count = b.tri_count;
    space->triangles = b.tri;
    space->hull_count = hull_count;
    space->hull = hull;
    return SW_OK;
}

/* ---- weights --------------------------------------------------------------------- */

static void sw__one_hot(float* w, size_t n, size_t i) {
    for (size_t k = 0; k < n; k++) w[k] = 0.0f;
    w[i] = 1.0f;
}

static size_t sw__nearest(const sw_blend_space_2d* s, double x, double y) {
    size_t best = 0;
    double best_d = INFINITY;
    for (size_t i = 0; i < s->point_count; i++) {
        double dx = s->points[2 * i] - x, dy = s->points[2 * i + 1] - y, d = dx * dx + dy * dy;
        if (d < best_d) best_d = d, best = i;
    }
    return best;
}

static void sw__weights_triangles(const sw_blend_space_2d* s, const float* q, float* w) {
    const size_t n = s->point_count;
    for (size_t t = 0; t < s->triangle_count; t++) {
        const uint32_t* v = s->triangles + 3 * t;
        const float *a = s->points + 2 * v[0], *b = s->points + 2 * v[1], *c = s->points + 2 * v[2];
        double area = sw__orient(a, b, c);
        double l0 = sw__orient(q, b, c) / area, l1 = sw__orient(a, q, c) / area, l2 = sw__orient(a, b, q) / area;
        const double eps = -1e-9;
        if (l0 < eps || l1 < eps || l2 < eps) continue;
        l0 = l0 < 0.0 ? 0.0 : l0, l1 = l1 < 0.0 ? 0.0 : l1, l2 = l2 < 0.0 ? 0.0 : l2;
        double sum = l0 + l1 + l2;
        for (size_t k = 0; k < n; k++) w[k] = 0.0f;
        w[v[0]] = (float)(l0 / sum), w[v[1]] = (float)(l1 / sum), w[v[2]] = (float)(l2 / sum);
        return;
    }
    /* Outside the hull: the nearest point on the boundary. */
    double best_d = INFINITY, best_s = 0.0;
    size_t best_e = 0;
    for (size_t e = 0; e < s->hull_count; e++) {
        const float* a = s->points + 2 * s->hull[e];
        const float* b = s->points + 2 * s->hull[(e + 1) % s->hull_count];
        double dx = (double)b[0] - a[0], dy = (double)b[1] - a[1];
        double u = (((double)q[0] - a[0]) * dx + ((double)q[1] - a[1]) * dy) / (dx * dx + dy * dy);
        u = u < 0.0 ? 0.0 : u > 1.0 ? 1.0 : u;
        double ex = a[0] + u * dx - q[0], ey = a[1] + u * dy - q[1], d = ex * ex + ey * ey;
        if (d < best_d) best_d = d, best_s = u, best_e = e;
    }
    for (size_t k = 0; k < n; k++) w[k] = 0.0f;
    w[s->hull[best_e]] += (float)(1.0 - best_s);
    w[s->hull[(best_e + 1) % s->hull_count]] += (float)best_s;
}

/* The polar difference of q from p (relative to the pair's mean radius r̄),
   as Johansen's directional gradient band measures it. */
static void sw__polar_delta(const float* p, const float* q, double mean_radius, double* out) {
    double rp = hypot(p[0], p[1]), rq = hypot(q[0], q[1]);
    double angle = 0.0;
    if (rp > 0.0 && rq > 0.0) /* a point at the origin takes the other's direction */
        angle = atan2((double)p[0] * q[1] - (double)p[1] * q[0], (double)p[0] * q[0] + (double)p[1] * q[1]);
    out[0] = (rq - rp) / mean_radius;
    out[1] = SW_BLEND_2D_POLAR_ANGLE_WEIGHT * angle;
}

static void sw__weights_gradient_band(const sw_blend_space_2d* s, bool polar, const float* q, float* w) {
    const size_t n = s->point_count;
    double sum = 0.0;
    for (size_t i = 0; i < n; i++) {
        const float* pi = s->points + 2 * i;
        double h = 1.0;
        for (size_t j = 0; j < n && h > 0.0; j++) {
            if (j == i) continue;
            const float* pj = s->points + 2 * j;
            double ij[2], iq[2];
            if (polar) {
                double mean = 0.5 * (hypot(pi[0], pi[1]) + hypot(pj[0], pj[1]));
                sw__polar_delta(pi, pj, mean, ij);
                sw__polar_delta(pi, q, mean, iq);
            } else {
                ij[0] = (double)pj[0] - pi[0], ij[1] = (double)pj[1] - pi[1];
                iq[0] = (double)q[0] - pi[0], iq[1] = (double)q[1] - pi[1];
            }
            double len2 = ij[0] * ij[0] + ij[1] * ij[1];
            double hj = len2 > 0.0 ? 1.0 - (iq[0] * ij[0] + iq[1] * ij[1]) / len2 : 1.0;
            if (hj < h) h = hj;
        }
        h = h < 0.0 ? 0.0 : h;
        w[i] = (float)h;
        sum += h;
    }
    if (!(sum > 0.0)) {
        sw__one_hot(w, n, sw__nearest(s, q[0], q[1]));
        return;
    }
    for (size_t i = 0; i < n; i++) w[i] = (float)(w[i] / sum);
}

void sw_blend_space_2d_weights(const sw_blend_space_2d* space, sw_blend_2d_method method, float x, float y,
                               float* out_weights) {
    SW_ASSERT(space && space->point_count >= 3 && out_weights);
    const size_t n = space->point_count;
    if (!isfinite(x) || !isfinite(y)) {
        sw__one_hot(out_weights, n, 0);
        return;
    }
    for (size_t i = 0; i < n; i++) /* exactly a sample: that sample alone, whatever the method */
        if (space->points[2 * i] == x && space->points[2 * i + 1] == y) {
            sw__one_hot(out_weights, n, i);
            return;
        }
    const float q[2] = {x, y};
    switch (method) {
    case SW_BLEND_2D_GRADIENT_BAND: sw__weights_gradient_band(space, false, q, out_weights); break;
    case SW_BLEND_2D_GRADIENT_BAND_POLAR: sw__weights_gradient_band(space, true, q, out_weights); break;
    case SW_BLEND_2D_DEFAULT:
    case SW_BLEND_2D_TRIANGLES:
    default: sw__weights_triangles(space, q, out_weights); break;
    }
}

float sw_blend_space_2d_sync(sw_sync_member* members, const float* weights, size_t count, float phase) {
    SW_ASSERT(count == 0 || (members && weights));
    float f = isfinite(phase) ? phase - floorf(phase) : 0.0f;
    if (f >= 1.0f) f = 0.0f;
    for (size_t i = 0; i < count; i++) {
        members[i].weight = weights[i];
        members[i].time = members[i].start + f * members[i].duration;
    }
    return sw_sync_group_cycle(members, count);
}
