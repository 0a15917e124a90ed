/* The ground under a point (sinew/pose.h, sw_model_ground_height): the
   highest walkable triangle of a posed model under (x, z), the frame
   analysis' walkable test (normal within 50° of up). Linear in the
   model's triangles; the vertices of each primitive are deformed as
   sw_deform_primitive draws them. */
#include "sinew/pose.h"

#include <math.h>
#include <string.h>

#include "../base/base_internal.h"

/* Element e of a primitive's vertex stream (its index, or e itself). */
static size_t sw__ground_element(const sw_model_primitive* p, size_t e) { return p->indices ? p->indices[e] : e; }

static size_t sw__ground_triangle_count(const sw_model_primitive* p) {
    const size_t elements = p->indices ? p->index_count : p->vertex_count;
    if (p->mode == SW_MODEL_TRIANGLES) return elements / 3;
    if (p->mode == SW_MODEL_TRIANGLE_STRIP || p->mode == SW_MODEL_TRIANGLE_FAN) return elements > 2 ? elements - 2 : 0;
    return 0;
}

/* Triangle t as three vertex indices, wound as GL draws it. */
static void sw__ground_triangle(const sw_model_primitive* p, size_t t, size_t v[3]) {
    size_t a, b, c;
    if (p->mode == SW_MODEL_TRIANGLE_STRIP) a = t + (t & 1), b = t + 1 - (t & 1), c = t + 2;
    else if (p->mode == SW_MODEL_TRIANGLE_FAN) a = 0, b = t + 1, c = t + 2;
    else a = 3 * t, b = 3 * t + 1, c = 3 * t + 2;
    v[0] = sw__ground_element(p, a), v[1] = sw__ground_element(p, b), v[2] = sw__ground_element(p, c);
}

/* The height of triangle (a, b, c) over (x, z) when it is walkable from
   above (either side when double-sided) and (x, z) lies inside its
   footprint, edges included. */
static bool sw__ground_hit(const float* a, const float* b, const float* c, bool double_sided, float x, float z,
                           float* out_y) {
    const float e1[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
    const float e2[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    const float n[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]};
    const float length = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    if (!(length > 0.0f)) return false;
    const float up = (double_sided ? fabsf(n[1]) : n[1]) / length;
    if (!(up > SW_GROUND_WALKABLE_COS)) return false;
    /* Barycentric coordinates of (x, z) in the footprint (its area is n.y / 2). */
    const float px = x - a[0], pz = z - a[2];
    const float u = (px * e2[2] - pz * e2[0]) / -n[1];
    const float w = (pz * e1[0] - px * e1[2]) / -n[1];
    const float eps = 1e-6f;
    if (u < -eps || w < -eps || u + w > 1.0f + eps) return false;
    *out_y = a[1] + u * e1[1] + w * e2[1];
    return true;
}

/* The walkable triangles of one deformed primitive (positions placed). */
static void sw__ground_primitive(const sw_model_primitive* p, const float* positions, bool double_sided, float x,
                                 float z, float* best, bool* found) {
    const size_t triangles = sw__ground_triangle_count(p);
    for (size_t t = 0; t < triangles; t++) {
        size_t v[3];
        sw__ground_triangle(p, t, v);
        if (v[0] >= p->vertex_count || v[1] >= p->vertex_count || v[2] >= p->vertex_count) continue;
        float y;
        if (!sw__ground_hit(&positions[3 * v[0]], &positions[3 * v[1]], &positions[3 * v[2]], double_sided, x, z, &y))
            continue;
        if (!*found || y > *best) *best = y;
        *found = true;
    }
}

sw_result sw_model_ground_height(const sw_model* model, const sw_pose* pose, const sw_mat34* placement, float x,
                                 float z, float* out_y, bool* out_found, sw_diag* diag) {
    if (!model || !pose || !pose->world || !out_y || !out_found)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "NULL model, pose or output");
    *out_found = false;
    *out_y = 0.0f;
    const sw_mat34 place = placement ? *placement : sw_mat34_identity();
    float best = 0.0f;
    bool found = false;
    sw_result res = SW_OK;
    for (size_t n = 0; res == SW_OK && n < model->node_count; n++) {
        const int32_t mesh = model->nodes[n].mesh;
        if (mesh < 0) continue;
        for (size_t k = 0; res == SW_OK && k < model->meshes[mesh].primitive_count; k++) {
            const sw_model_primitive* p = &model->meshes[mesh].primitives[k];
            if (!p->vertex_count || !sw__ground_triangle_count(p)) continue;
            const size_t scratch_size = sw_deform_scratch_size(model, n, k);
            float* positions = (float*)sw__malloc(p->vertex_count * 3 * sizeof(float));
            void* scratch = scratch_size ? sw__aligned_alloc(16, scratch_size) : NULL;
            if (!positions || (scratch_size && !scratch)) {
                res = sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for %zu vertices", p->vertex_count);
            } else {
                const sw_deform d = {.node = n, .primitive = k, .scratch = scratch, .out_positions = positions};
                res = sw_deform_primitive(model, pose, &d, diag);
            }
            if (res == SW_OK) {
                for (size_t v = 0; v < p->vertex_count; v++) {
                    sw_vec3 q = sw_mat34_apply_point(&place, sw_vec3_make(positions[3 * v], positions[3 * v + 1],
                                                                           positions[3 * v + 2]));
                    positions[3 * v] = q.x, positions[3 * v + 1] = q.y, positions[3 * v + 2] = q.z;
                }
                const bool double_sided = p->material >= 0 && (size_t)p->material < model->material_count &&
                                          model->materials[p->material].double_sided;
                sw__ground_primitive(p, positions, double_sided, x, z, &best, &found);
            }
            sw__free(positions);
            sw__aligned_free(scratch);
        }
    }
    if (res != SW_OK) return res;
    *out_y = best;
    *out_found = found;
    return SW_OK;
}
