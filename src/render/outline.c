/* Outline normals for the toon pass's inverted hull (renderer_internal.h):
   one direction per vertex that stays the same across the vertices a
   mesh splits at one position, so the hull stays closed. CPU only. */
#include "renderer_internal.h"

#include <string.h>

#include "../base/base_internal.h"

static bool sw__is_triangles(sw_model_mode mode) {
    return mode == SW_MODEL_TRIANGLES || mode == SW_MODEL_TRIANGLE_STRIP || mode == SW_MODEL_TRIANGLE_FAN;
}

/* The vertex of corner c (0..2) of triangle k, for the triangle modes. */
static size_t sw__corner(const sw_model_primitive* p, size_t k, int c) {
    size_t e;
    if (p->mode == SW_MODEL_TRIANGLES) e = 3 * k + (size_t)c;
    else if (p->mode == SW_MODEL_TRIANGLE_STRIP) e = k + (size_t)((k & 1) && c < 2 ? 1 - c : c);
    else e = c == 0 ? 0 : k + (size_t)c;
    return p->indices ? p->indices[e] : e;
}

/* One position's bits, -0 as +0: equal positions hash alike. */
static uint32_t sw__position_hash(const float* p) {
    uint32_t h = 2166136261u;
    for (int i = 0; i < 3; i++) {
        float x = p[i] == 0.0f ? 0.0f : p[i];
        uint32_t bits;
        memcpy(&bits, &x, sizeof bits);
        h = (h ^ bits) * 16777619u;
    }
    return h ^ (h >> 15);
}

/* Without normals, the area-weighted face normals around each vertex. */
static void sw__face_normals(const sw_model_primitive* p, float* normal) {
    const size_t n = p->vertex_count;
    size_t elements = p->indices ? p->index_count : n;
    size_t triangles = p->mode == SW_MODEL_TRIANGLES ? elements / 3 : (elements >= 3 ? elements - 2 : 0);
    for (size_t k = 0; k < triangles; k++) {
        size_t v[3] = {sw__corner(p, k, 0), sw__corner(p, k, 1), sw__corner(p, k, 2)};
        if (v[0] >= n || v[1] >= n || v[2] >= n) continue;
        sw_vec3 a = sw__v3(p->positions + 3 * v[0]), b = sw__v3(p->positions + 3 * v[1]),
                c = sw__v3(p->positions + 3 * v[2]);
        sw_vec3 face = sw_vec3_cross(sw_vec3_sub(b, a), sw_vec3_sub(c, a));
        for (int i = 0; i < 3; i++) {
            normal[3 * v[i]] += face.x, normal[3 * v[i] + 1] += face.y, normal[3 * v[i] + 2] += face.z;
        }
    }
}

/* At every vertex the normalised sum of the (unit) normals of all vertices
   at the same position, so that the hull stays closed where the mesh
   splits vertices at hard edges and UV seams. Returns vertex_count × 4
   floats (w = 1, the tangent handedness the skinner keeps). */
float* sw__outline_normals(const sw_model_primitive* p) {
    const size_t n = p->vertex_count;
    if (!sw__is_triangles(p->mode) || n == 0) return NULL;
    size_t capacity = 16;
    while (capacity < 2 * n) capacity *= 2;
    float* normal = (float*)sw__calloc(n * 3, sizeof(float));
    float* sum = (float*)sw__calloc(n * 3, sizeof(float));
    uint32_t* slot = (uint32_t*)sw__malloc(capacity * sizeof(uint32_t));
    uint32_t* group = (uint32_t*)sw__malloc(n * sizeof(uint32_t));
    float* out = (float*)sw__malloc(n * 4 * sizeof(float));
    if (!normal || !sum || !slot || !group || !out || n > UINT32_MAX - 1) {
        sw__free(normal), sw__free(sum), sw__free(slot), sw__free(group), sw__free(out);
        return NULL;
    }
    if (p->normals) memcpy(normal, p->normals, n * 3 * sizeof(float));
    else sw__face_normals(p, normal);
    /* Vertices grouped by position (open addressing); each group sums its unit normals. */
    memset(slot, 0xFF, capacity * sizeof(uint32_t));
    for (size_t v = 0; v < n; v++) {
        const float* pos = p->positions + 3 * v;
        size_t h = sw__position_hash(pos) & (capacity - 1);
        while (slot[h] != UINT32_MAX) {
            const float* q = p->positions + 3 * (size_t)slot[h];
            if (q[0] == pos[0] && q[1] == pos[1] && q[2] == pos[2]) break;
            h = (h + 1) & (capacity - 1);
        }
        if (slot[h] == UINT32_MAX) slot[h] = (uint32_t)v;
        group[v] = slot[h];
        sw_vec3 u = sw__v3(normal + 3 * v);
        float length = sw_vec3_length(u);
        if (length > 1e-20f)
            for (int i = 0; i < 3; i++) sum[3 * (size_t)group[v] + (size_t)i] += normal[3 * v + (size_t)i] / length;
    }
    for (size_t v = 0; v < n; v++) {
        sw_vec3 s = sw__v3(sum + 3 * (size_t)group[v]);
        float length = sw_vec3_length(s);
        s = length > 1e-6f ? sw_vec3_scale(s, 1.0f / length) : sw_vec3_make(0, 0, 0);
        out[4 * v] = s.x, out[4 * v + 1] = s.y, out[4 * v + 2] = s.z, out[4 * v + 3] = 1.0f;
    }
    sw__free(normal), sw__free(sum), sw__free(slot), sw__free(group);
    return out;
}
