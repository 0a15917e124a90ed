/* The debug views' own data (sw_render_frame.debug): the per-vertex values
   the weight and retention views draw through the weight attribute, and
   the bones drawn over the image. */
#include "renderer_internal.h"

#include <string.h>

#include "../base/base_internal.h"

/* Uploads one draw's per-vertex values into its weight buffer, the
   attribute SW_ATTR_WEIGHT reads. */
static void sw__upload_weights(sw__draw* d, const float* values, GLenum usage) {
    if (!d->weight_buffer) glGenBuffers(1, &d->weight_buffer);
    glBindBuffer(GL_ARRAY_BUFFER, d->weight_buffer);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(d->prim->vertex_count * 4), values, usage);
    glBindVertexArray(d->vao);
    glBindVertexBuffer(SW_ATTR_WEIGHT, d->weight_buffer, 0, 4);
    glEnableVertexAttribArray(SW_ATTR_WEIGHT);
    glBindVertexArray(0);
}

/* The retention of every vertex of one draw (1 for a rigid one), with
   `rotations` the pose's sw_skin_rotations. */
static void sw__draw_retention(const sw_model* a, const sw__draw* d, const double* rotations, float* kept) {
    const sw_model_primitive* p = d->prim;
    const sw_model_node* node = &a->nodes[d->node];
    const bool skinned = node->skin >= 0 && p->influence_count > 0;
    const sw_model_skin* skin = skinned ? &a->skins[node->skin] : NULL;
    for (size_t v = 0; v < p->vertex_count; v++) {
        if (!skinned) {
            kept[v] = 1.0f;
            continue;
        }
        const size_t slot = v * (size_t)p->influence_count;
        kept[v] = (float)sw_skin_vertex_retention(rotations + 9 * skin->palette_offset, skin->joint_count,
                                                  p->joints + slot, p->weights + slot, p->influence_count, NULL);
    }
}

sw_result sw__retention_buffers(sw_renderer* r, const sw_pose* pose, sw_diag* diag) {
    const sw_model* a = r->asset;
    r->weight_joint = -1; /* as for the weights: trusted once all are in */
    if (a->skin_joint_count && !pose->skin_matrices)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "the retention view needs the pose's skin matrices");
    double* rotations = (double*)sw__malloc((a->skin_joint_count + 1) * 9 * sizeof(double));
    if (!rotations) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for joint rotations");
    sw_skin_rotations(pose->skin_matrices, a->skin_joint_count, rotations);
    for (size_t i = 0; i < r->character_draw_count; i++) {
        sw__draw* d = &r->draws[i];
        float* kept = (float*)sw__malloc((d->prim->vertex_count + 1) * sizeof(float));
        if (!kept) {
            sw__free(rotations);
            return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for retention values");
        }
        sw__draw_retention(a, d, rotations, kept);
        sw__upload_weights(d, kept, GL_STREAM_DRAW);
        sw__free(kept);
    }
    sw__free(rotations);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    r->weight_joint = SW__WEIGHTS_RETENTION;
    return sw_gl_check("uploading retention values", diag);
}

/* The weight of one joint (node) at every vertex of a draw; a rigid draw
   is all 1 on its own node. */
static void sw__draw_weights(const sw_model* a, const sw__draw* d, int32_t joint_node, float* w) {
    const sw_model_primitive* p = d->prim;
    const sw_model_node* node = &a->nodes[d->node];
    if (node->skin >= 0 && p->influence_count > 0) {
        const sw_model_skin* skin = &a->skins[node->skin];
        for (size_t v = 0; v < p->vertex_count; v++)
            for (int k = 0; k < p->influence_count; k++) {
                uint16_t j = p->joints[v * (size_t)p->influence_count + (size_t)k];
                if (j < skin->joint_count && (int64_t)skin->joints[j] == (int64_t)joint_node)
                    w[v] += p->weights[v * (size_t)p->influence_count + (size_t)k];
            }
    } else if ((int64_t)d->node == (int64_t)joint_node) {
        for (size_t v = 0; v < p->vertex_count; v++) w[v] = 1.0f;
    }
}

sw_result sw__weight_buffers(sw_renderer* r, int32_t joint_node, sw_diag* diag) {
    if (r->weight_joint == joint_node) return SW_OK;
    /* Until every buffer holds the new joint's weights, none is trusted: a
       failure half-way makes the next call start over. */
    r->weight_joint = -1;
    for (size_t i = 0; i < r->character_draw_count; i++) {
        sw__draw* d = &r->draws[i];
        float* w = (float*)sw__calloc(d->prim->vertex_count, sizeof(float));
        if (!w) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for joint weights");
        sw__draw_weights(r->asset, d, joint_node, w);
        sw__upload_weights(d, w, GL_STATIC_DRAW);
        sw__free(w);
    }
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    r->weight_joint = joint_node;
    return sw_gl_check("uploading joint weights", diag);
}

sw_result sw_renderer_read_vertex_values(sw_renderer* r, size_t node, size_t primitive, float* out, sw_diag* diag) {
    if (!r || !out) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "NULL renderer or output");
    if (r->weight_joint == -1)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "no frame was drawn with the weights or retention view");
    for (size_t i = 0; i < r->character_draw_count; i++) {
        const sw__draw* d = &r->draws[i];
        if (d->node != node || d->primitive != primitive) continue;
        glBindBuffer(GL_ARRAY_BUFFER, d->weight_buffer);
        glGetBufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)(d->prim->vertex_count * 4), out);
        glBindBuffer(GL_ARRAY_BUFFER, 0);
        return sw_gl_check("reading the vertex values back", diag);
    }
    return sw_diag_set(diag, SW_ERR_INDEX_OUT_OF_RANGE, (int64_t)node, "node %zu primitive %zu is not drawn", node,
                       primitive);
}

/* One bone from head to tail as a wireframe octahedron (the shape Blender
   draws): widest a fifth of the way along, a tenth of its length across.
   Appends 12 edges (24 vertices of position + colour) to `v`. */
static size_t sw__octahedron(float* v, const float head[3], const float tail[3]) {
    const sw_vec3 d = sw_vec3_sub(sw__v3(tail), sw__v3(head));
    const float length = sw_vec3_length(d);
    if (!(length > 1e-6f)) return 0;
    /* Two directions across the bone: from the axis least along it. */
    sw_vec3 axis = fabsf(d.x) <= fabsf(d.y) && fabsf(d.x) <= fabsf(d.z) ? sw_vec3_make(1, 0, 0)
                   : fabsf(d.y) <= fabsf(d.z)                          ? sw_vec3_make(0, 1, 0)
                                                                        : sw_vec3_make(0, 0, 1);
    const sw_vec3 u = sw_vec3_normalize(sw_vec3_cross(d, axis)), w = sw_vec3_normalize(sw_vec3_cross(d, u));
    float ring[4][3];
    const float across = 0.1f * length, sign[4][2] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}};
    for (int k = 0; k < 4; k++) {
        sw_vec3 p = sw_vec3_add(sw__v3(head), sw_vec3_scale(d, 0.2f));
        p = sw_vec3_add(p, sw_vec3_scale(sw_vec3_add(sw_vec3_scale(u, sign[k][0]), sw_vec3_scale(w, sign[k][1])), across));
        ring[k][0] = p.x, ring[k][1] = p.y, ring[k][2] = p.z;
    }
    static const float head_colour[3] = {1.0f, 0.85f, 0.2f}, tail_colour[3] = {1.0f, 0.45f, 0.1f};
    size_t n = 0;
    for (int k = 0; k < 4; k++) {
        const float* ends[3][2] = {{head, ring[k]}, {ring[k], ring[(k + 1) % 4]}, {ring[k], tail}};
        for (int e = 0; e < 3; e++)
            for (int end = 0; end < 2; end++) {
                memcpy(v + n * 6, ends[e][end], 3 * sizeof(float));
                memcpy(v + n * 6 + 3, ends[e][end] == tail ? tail_colour : head_colour, 3 * sizeof(float));
                n++;
            }
    }
    return n;
}

/* A joint's origin where it is drawn: moved by the frame's placement. */
static void sw__joint_place(const sw_renderer* r, const sw_mat34* m, float out[3]) {
    sw_vec3 p = sw_vec3_make(m->m[0][3], m->m[1][3], m->m[2][3]);
    if (r->placed) p = sw_mat34_apply_point(&r->placement, p);
    out[0] = p.x, out[1] = p.y, out[2] = p.z;
}

/* The bones' line vertices (position + colour): an octahedron from every
   skin joint's parent to the joint when the parent is a joint too, and a
   small cross at every joint. Returns the vertex count. */
static size_t sw__bone_lines(const sw_renderer* r, const sw_pose* pose, const bool* is_joint, float* v) {
    const sw_model* a = r->asset;
    float size = 0.0f;
    for (int i = 0; i < 3; i++) size = fmaxf(size, r->scene_max[i] - r->scene_min[i]);
    float cross = size * 0.008f;
    size_t count = 0;
    for (size_t n = 0; n < a->node_count; n++) {
        if (!is_joint[n]) continue;
        float p[3];
        sw__joint_place(r, &pose->world[n], p);
        int32_t parent = a->nodes[n].parent;
        if (parent >= 0 && is_joint[parent]) {
            float q[3];
            sw__joint_place(r, &pose->world[parent], q);
            count += sw__octahedron(v + count * 6, q, p);
        }
        for (int axis = 0; axis < 3; axis++) {
            float lo[3] = {p[0], p[1], p[2]}, hi[3] = {p[0], p[1], p[2]};
            lo[axis] -= cross, hi[axis] += cross;
            float line[12] = {lo[0], lo[1], lo[2], 0.2f, 0.9f, 1.0f, hi[0], hi[1], hi[2], 0.2f, 0.9f, 1.0f};
            memcpy(v + count * 6, line, sizeof line);
            count += 2;
        }
    }
    return count;
}

sw_result sw__draw_bones(sw_renderer* r, const sw_pose* pose, const sw_mat4* vp, sw_diag* diag) {
    const sw_model* a = r->asset;
    size_t joints = 0;
    for (size_t s = 0; s < a->skin_count; s++) joints += a->skins[s].joint_count;
    if (joints == 0) return SW_OK;
    /* Per joint: 24 octahedron vertices and 6 for the cross. */
    float* v = (float*)sw__malloc(joints * 30 * 6 * sizeof(float));
    bool* is_joint = (bool*)sw__calloc(a->node_count + 1, sizeof(bool));
    if (!v || !is_joint) {
        sw__free(v), sw__free(is_joint);
        return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for bones");
    }
    for (size_t s = 0; s < a->skin_count; s++)
        for (size_t j = 0; j < a->skins[s].joint_count; j++) is_joint[a->skins[s].joints[j]] = true;
    const size_t count = sw__bone_lines(r, pose, is_joint, v);
    GLuint vao, buffer;
    glGenVertexArrays(1, &vao);
    glGenBuffers(1, &buffer);
    glBindVertexArray(vao);
    glBindBuffer(GL_ARRAY_BUFFER, buffer);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(count * 24), v, GL_STREAM_DRAW);
    glVertexAttribPointer(SW_LINES_ATTR_POSITION, 3, GL_FLOAT, GL_FALSE, 24, (const void*)0);
    glVertexAttribPointer(SW_LINES_ATTR_COLOR, 3, GL_FLOAT, GL_FALSE, 24, (const void*)12);
    glEnableVertexAttribArray(SW_LINES_ATTR_POSITION), glEnableVertexAttribArray(SW_LINES_ATTR_COLOR);
    glBindFramebuffer(GL_FRAMEBUFFER, r->image_fbo);
    glDisable(GL_DEPTH_TEST);
    glUseProgram(r->p_lines);
    glUniformMatrix4fv(SW_LINES_LOC_VIEW_PROJECTION, 1, GL_FALSE, vp->m);
    glDrawArrays(GL_LINES, 0, (GLsizei)count);
    glBindVertexArray(0);
    glDeleteBuffers(1, &buffer);
    glDeleteVertexArrays(1, &vao);
    sw__free(v), sw__free(is_joint);
    return sw_gl_check("drawing bones", diag);
}
