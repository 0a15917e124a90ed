/* Ambient occlusion (ao.h, docs/ao.md): the C reference of shaders/ao.frag,
   the shape-proxy fitting, and the pass. */
#include "ao.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../base/base_internal.h"
#include "renderer_internal.h"

/* ---- C reference ---------------------------------------------------------------- */

#define SW__AO_TAU 6.28318530717959f

static float sw__ao_fract(float x) { return x - floorf(x); }
static float sw__ao_saturate(float x) { return x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x; }
static float sw__ao_dot(const float a[3], const float b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

void sw__ao_directions(float out[SW_AO_DIRECTION_COUNT][2]) {
    for (int i = 0; i < SW_AO_DIRECTION_COUNT; i++) {
        const float angle = SW__AO_TAU * (float)(i * 7 % SW_AO_DIRECTION_COUNT) / (float)SW_AO_DIRECTION_COUNT;
        out[i][0] = cosf(angle);
        out[i][1] = sinf(angle);
    }
}

float sw__ao_noise(float x, float y, uint32_t frame) {
    const float shift = 5.588238f * (float)(frame % 64u);
    return sw__ao_fract(52.9829189f * sw__ao_fract(0.06711056f * (x + shift) + 0.00583715f * (y + shift)));
}

/* Whether a depth-buffer value is the far plane's (nothing drawn there). */
static bool sw__ao_far(const sw__ao_lens* lens, float depth) { return lens->reverse_z ? depth <= 0.0f : depth >= 1.0f; }

void sw__ao_view_position(const sw__ao_lens* lens, float px, float py, float depth, float out[3]) {
    const float n = lens->z_near, f = lens->z_far;
    /* View z from the stored depth: ordinary depth through NDC z = 2d − 1;
       reverse-Z stores n(f − e)/(e(f − n)) at eye distance e (n/e with no
       far plane). */
    const float z = lens->reverse_z ? -(isfinite(f) ? n * f / (depth * (f - n) + n) : n / depth)
                                    : -2.0f * f * n / ((f + n) - (depth * 2.0f - 1.0f) * (f - n));
    const float x_ndc = px / (float)lens->width * 2.0f - 1.0f, y_ndc = py / (float)lens->height * 2.0f - 1.0f;
    out[0] = x_ndc * -z * lens->aspect / lens->focal;
    out[1] = y_ndc * -z / lens->focal;
    out[2] = z;
}

float sw__ao_screen(const sw__ao_lens* lens, const sw__ao_settings* s, const float* depth, const float* normals, int x,
                    int y, uint32_t frame) {
    const int w = lens->width, h = lens->height;
    const float d0 = depth[(size_t)y * (size_t)w + (size_t)x];
    if (sw__ao_far(lens, d0)) return 1.0f;
    float p[3];
    sw__ao_view_position(lens, (float)x + 0.5f, (float)y + 0.5f, d0, p);
    const float* n = normals + ((size_t)y * (size_t)w + (size_t)x) * 3;
    float directions[SW_AO_DIRECTION_COUNT][2];
    sw__ao_directions(directions);
    /* Rotation and spacing jitter from two noise values (decorrelated by an offset). */
    const float angle = SW__AO_TAU * sw__ao_noise((float)x, (float)y, frame);
    const float jitter = sw__ao_noise((float)x + 47.0f, (float)y + 17.0f, frame);
    const float c = cosf(angle), sn = sinf(angle);
    /* The radius in pixels at this depth, capped at a quarter of the height. */
    const float radius_px = fminf(s->radius * lens->focal / -p[2] * 0.5f * (float)h, 0.25f * (float)h);
    float occlusion = 0.0f;
    for (int i = 0; i < SW_AO_DIRECTION_COUNT; i++) {
        const float dx = directions[i][0] * c - directions[i][1] * sn;
        const float dy = directions[i][0] * sn + directions[i][1] * c;
        /* Each sample a step further out than the last: the spiral. */
        const float t = ((float)i + jitter) / (float)SW_AO_DIRECTION_COUNT;
        const float reach = 1.0f + t * fmaxf(radius_px - 1.0f, 0.0f);
        const int qx = (int)floorf((float)x + 0.5f + dx * reach), qy = (int)floorf((float)y + 0.5f + dy * reach);
        if (qx < 0 || qy < 0 || qx >= w || qy >= h) continue;
        const float dq = depth[(size_t)qy * (size_t)w + (size_t)qx];
        if (sw__ao_far(lens, dq)) continue;
        float q[3];
        sw__ao_view_position(lens, (float)qx + 0.5f, (float)qy + 0.5f, dq, q);
        const float v[3] = {q[0] - p[0], q[1] - p[1], q[2] - p[2]};
        const float vv = sw__ao_dot(v, v);
        if (vv < 1e-12f) continue;
        const float cosine = sw__ao_dot(v, n) / sqrtf(vv);
        const float falloff = fmaxf(0.0f, 1.0f - vv / (s->radius * s->radius));
        occlusion += fmaxf(0.0f, cosine - s->bias) * falloff;
    }
    const float open = sw__ao_saturate(1.0f - 2.0f * occlusion / (float)SW_AO_DIRECTION_COUNT);
    return powf(fmaxf(open, 1e-4f), s->strength);
}

float sw__ao_sphere(const float p[3], const float n[3], const float c[3], float r) {
    const float d[3] = {c[0] - p[0], c[1] - p[1], c[2] - p[2]};
    const float l = sqrtf(sw__ao_dot(d, d));
    const float reach = (float)SW_AO_PROXY_REACH;
    if (!(r > 0.0f) || l >= reach * r || l < 1e-6f) return 0.0f;
    const float h = fmaxf(l / r, 1.0f);
    const float facing = fmaxf(0.0f, sw__ao_dot(n, d) / l);
    const float fade = sw__ao_saturate((reach - h) / (reach - 1.0f));
    return fminf(facing / (h * h), 1.0f) * fade;
}

float sw__ao_capsule_occlusion(const float p[3], const float n[3], const sw__ao_capsule* c) {
    const float ab[3] = {c->b[0] - c->a[0], c->b[1] - c->a[1], c->b[2] - c->a[2]};
    const float ap[3] = {p[0] - c->a[0], p[1] - c->a[1], p[2] - c->a[2]};
    const float length2 = sw__ao_dot(ab, ab);
    const float t = length2 > 0.0f ? sw__ao_saturate(sw__ao_dot(ap, ab) / length2) : 0.0f;
    const float closest[3] = {c->a[0] + ab[0] * t, c->a[1] + ab[1] * t, c->a[2] + ab[2] * t};
    return sw__ao_sphere(p, n, closest, c->radius);
}

float sw__ao_proxies(const float p[3], const float n[3], const sw__ao_capsule* capsules, size_t count) {
    float visibility = 1.0f;
    for (size_t i = 0; i < count; i++) visibility *= 1.0f - sw__ao_capsule_occlusion(p, n, &capsules[i]);
    return visibility;
}

void sw__ao_proxy_box(const sw__ao_capsule* capsules, size_t count, float lo[3], float hi[3]) {
    for (int k = 0; k < 3; k++) lo[k] = 1e30f, hi[k] = -1e30f; /* empty: nothing is inside */
    for (size_t i = 0; i < count; i++) {
        const float reach = (float)SW_AO_PROXY_REACH * capsules[i].radius;
        for (int k = 0; k < 3; k++) {
            lo[k] = fminf(lo[k], fminf(capsules[i].a[k], capsules[i].b[k]) - reach);
            hi[k] = fmaxf(hi[k], fmaxf(capsules[i].a[k], capsules[i].b[k]) + reach);
        }
    }
}

/* ---- shape proxies ---------------------------------------------------------------- */

/* The joint's origin in bind space: the inverse bind matrix's inverse, applied to 0. */
static void sw__ao_bind_origin(const sw_mat34* inverse_bind, float out[3]) {
    sw_mat34 bind;
    if (!sw_mat34_inverse(&bind, inverse_bind)) {
        out[0] = out[1] = out[2] = 0.0f;
        return;
    }
    for (int k = 0; k < 3; k++) out[k] = bind.m[k][3];
}

static float sw__ao_segment_distance(const float p[3], const float a[3], const float b[3]) {
    const float ab[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
    const float ap[3] = {p[0] - a[0], p[1] - a[1], p[2] - a[2]};
    const float length2 = sw__ao_dot(ab, ab);
    const float t = length2 > 0.0f ? sw__ao_saturate(sw__ao_dot(ap, ab) / length2) : 0.0f;
    const float d[3] = {ap[0] - ab[0] * t, ap[1] - ab[1] * t, ap[2] - ab[2] * t};
    return sqrtf(sw__ao_dot(d, d));
}

/* Index in skin s of node `node`, or -1. */
static long sw__ao_joint_index(const sw_model_skin* skin, uint32_t node) {
    for (size_t j = 0; j < skin->joint_count; j++)
        if (skin->joints[j] == node) return (long)j;
    return -1;
}

static float sw__ao_capsule_size(const sw__ao_capsule* c) {
    const float d[3] = {c->b[0] - c->a[0], c->b[1] - c->a[1], c->b[2] - c->a[2]};
    return c->radius * c->radius * (sqrtf(sw__ao_dot(d, d)) + c->radius);
}

static int sw__ao_larger_first(const void* pa, const void* pb) {
    const sw__ao_rig_proxy *a = (const sw__ao_rig_proxy*)pa, *b = (const sw__ao_rig_proxy*)pb;
    const float sa = sw__ao_capsule_size(&a->bind), sb = sw__ao_capsule_size(&b->bind);
    if (sa != sb) return sa > sb ? -1 : 1;
    if (a->skin != b->skin) return a->skin < b->skin ? -1 : 1;
    return a->joint < b->joint ? -1 : a->joint > b->joint ? 1 : 0;
}

/* Joint j of skin s's segment (bind space): to its child joint with the
   most descendants, or a point at a leaf. */
static void sw__ao_joint_segment(const sw_model* model, size_t s, size_t j, const size_t* descendants,
                                 sw__ao_capsule* out) {
    const sw_model_skin* skin = &model->skins[s];
    const sw_model_node* node = &model->nodes[skin->joints[j]];
    sw__ao_bind_origin(&skin->inverse_bind[j], out->a);
    memcpy(out->b, out->a, sizeof out->b);
    size_t best = 0;
    for (size_t c = 0; c < node->child_count; c++) {
        const long k = sw__ao_joint_index(skin, node->children[c]);
        if (k < 0 || (best && descendants[node->children[c]] + 1 <= best)) continue;
        best = descendants[node->children[c]] + 1;
        sw__ao_bind_origin(&skin->inverse_bind[k], out->b);
    }
    out->radius = 0.0f;
}

/* One pass over the skinned vertices: each vertex whose largest weight
   (≥ 0.5) is a joint adds its distance to that joint's segment. `first`
   is each skin's first entry in the per-joint arrays. */
static void sw__ao_accumulate(const sw_model* model, const size_t* first, const sw__ao_capsule* segments, double* sums,
                              size_t* counts) {
    for (size_t ni = 0; ni < model->node_count; ni++) {
        const sw_model_node* node = &model->nodes[ni];
        if (node->mesh < 0 || node->skin < 0) continue;
        const size_t s = (size_t)node->skin, joints = model->skins[s].joint_count;
        const sw_model_mesh* mesh = &model->meshes[node->mesh];
        for (size_t pi = 0; pi < mesh->primitive_count; pi++) {
            const sw_model_primitive* prim = &mesh->primitives[pi];
            const size_t k = prim->influence_count > 0 ? (size_t)prim->influence_count : 0;
            if (!k || !prim->joints || !prim->weights) continue;
            for (size_t v = 0; v < prim->vertex_count; v++) {
                size_t best = 0;
                for (size_t e = 1; e < k; e++)
                    if (prim->weights[v * k + e] > prim->weights[v * k + best]) best = e;
                const size_t j = prim->joints[v * k + best];
                if (j >= joints || !(prim->weights[v * k + best] >= 0.5f)) continue;
                const sw__ao_capsule* c = &segments[first[s] + j];
                sums[first[s] + j] += sw__ao_segment_distance(prim->positions + v * 3, c->a, c->b);
                counts[first[s] + j]++;
            }
        }
    }
}

size_t sw__ao_fit_proxies(const sw_model* model, sw__ao_rig_proxy* out, size_t capacity) {
    if (!model || !model->skin_count || !capacity) return 0;
    size_t total = 0;
    size_t* first = (size_t*)sw__calloc(model->skin_count, sizeof *first);
    for (size_t s = 0; first && s < model->skin_count; s++) first[s] = total, total += model->skins[s].joint_count;
    const size_t slots = total ? total : 1;
    size_t* descendants = (size_t*)sw__calloc(model->node_count ? model->node_count : 1, sizeof *descendants);
    sw__ao_rig_proxy* all = (sw__ao_rig_proxy*)sw__calloc(slots, sizeof *all);
    sw__ao_capsule* segments = (sw__ao_capsule*)sw__calloc(slots, sizeof *segments);
    double* sums = (double*)sw__calloc(slots, sizeof *sums);
    size_t* counts = (size_t*)sw__calloc(slots, sizeof *counts);
    size_t count = 0;
    if (first && descendants && all && segments && sums && counts) {
        /* Parents come first: children add into their parents from the end. */
        for (size_t i = model->node_count; i-- > 0;)
            if (model->nodes[i].parent >= 0) descendants[model->nodes[i].parent] += descendants[i] + 1;
        for (size_t s = 0; s < model->skin_count; s++)
            for (size_t j = 0; j < model->skins[s].joint_count; j++)
                sw__ao_joint_segment(model, s, j, descendants, &segments[first[s] + j]);
        sw__ao_accumulate(model, first, segments, sums, counts);
        for (size_t s = 0; s < model->skin_count; s++)
            for (size_t j = 0; j < model->skins[s].joint_count; j++) {
                const size_t i = first[s] + j;
                const float radius = counts[i] ? (float)(sums[i] / (double)counts[i]) : 0.0f;
                if (counts[i] < 4 || !(radius > 0.0f) || !isfinite(radius)) continue;
                all[count] = (sw__ao_rig_proxy){(uint32_t)s, (uint32_t)j, segments[i]};
                all[count++].bind.radius = radius;
            }
        qsort(all, count, sizeof *all, sw__ao_larger_first);
        if (count > capacity) count = capacity;
        memcpy(out, all, count * sizeof *all);
    }
    sw__free(counts);
    sw__free(sums);
    sw__free(segments);
    sw__free(all);
    sw__free(descendants);
    sw__free(first);
    return count;
}

static void sw__ao_apply34(const sw_mat34* m, const float p[3], float out[3]) {
    for (int k = 0; k < 3; k++) out[k] = m->m[k][0] * p[0] + m->m[k][1] * p[1] + m->m[k][2] * p[2] + m->m[k][3];
}

static void sw__ao_apply44(const float* m, const float p[3], float out[3]) {
    for (int k = 0; k < 3; k++) out[k] = m[k] * p[0] + m[4 + k] * p[1] + m[8 + k] * p[2] + m[12 + k];
}

void sw__ao_pose_proxies(const sw_model* model, const sw_pose* pose, const sw__ao_rig_proxy* rig, size_t count,
                         const float* to_space, sw__ao_capsule* out) {
    for (size_t i = 0; i < count; i++) {
        const sw_model_skin* skin = &model->skins[rig[i].skin];
        const sw_mat34 m = sw_mat34_mul(&pose->world[skin->joints[rig[i].joint]], &skin->inverse_bind[rig[i].joint]);
        float a[3], b[3];
        sw__ao_apply34(&m, rig[i].bind.a, a);
        sw__ao_apply34(&m, rig[i].bind.b, b);
        /* The skin matrix's scale (first column), for scaled rigs. */
        const float scale = sqrtf(m.m[0][0] * m.m[0][0] + m.m[1][0] * m.m[1][0] + m.m[2][0] * m.m[2][0]);
        if (to_space) {
            sw__ao_apply44(to_space, a, out[i].a);
            sw__ao_apply44(to_space, b, out[i].b);
        } else {
            memcpy(out[i].a, a, sizeof a);
            memcpy(out[i].b, b, sizeof b);
        }
        out[i].radius = rig[i].bind.radius * scale;
    }
}

/* ---- the pass (GL) ----------------------------------------------------------------- */

struct sw__ao_pass {
    int width, height;
    GLuint program, target, fbo;
};

sw_result sw__ao_pass_create(int width, int height, sw__ao_pass** out, sw_diag* diag) {
    *out = NULL;
    sw__ao_pass* pass = (sw__ao_pass*)sw__calloc(1, sizeof *pass);
    if (!pass) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for the AO pass");
    pass->width = width, pass->height = height;
    sw_result res = sw__program(sw_shader_fullscreen_vert, sw_shader_ao_frag, "ao", &pass->program, diag);
    if (res == SW_OK) {
        pass->target = sw__texture2d(GL_RG8, width, height, GL_NEAREST);
        glGenFramebuffers(1, &pass->fbo);
        glBindFramebuffer(GL_FRAMEBUFFER, pass->fbo);
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0 + SW_OUT_COLOR, GL_TEXTURE_2D, pass->target, 0);
        res = sw__framebuffer_complete("ambient occlusion", diag);
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
    }
    if (res != SW_OK) {
        sw__ao_pass_destroy(pass);
        return res;
    }
    *out = pass;
    return SW_OK;
}

void sw__ao_pass_destroy(sw__ao_pass* pass) {
    if (!pass) return;
    glDeleteProgram(pass->program);
    glDeleteFramebuffers(1, &pass->fbo);
    glDeleteTextures(1, &pass->target);
    sw__free(pass);
}

void sw__ao_pass_run(sw__ao_pass* pass, const sw__ao_inputs* in) {
    glBindFramebuffer(GL_FRAMEBUFFER, pass->fbo);
    glViewport(0, 0, pass->width, pass->height);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_BLEND);
    glDisable(GL_CULL_FACE);
    const int x0 = in->x1 > in->x0 ? in->x0 : 0, x1 = in->x1 > in->x0 ? in->x1 : pass->width;
    glEnable(GL_SCISSOR_TEST);
    glScissor(x0, 0, x1 - x0, pass->height);
    glUseProgram(pass->program);
    glUniform2i(SW_AO_LOC_COLUMNS, x0, x1);
    glUniformMatrix4fv(SW_AO_LOC_VIEW, 1, GL_FALSE, in->view);
    glUniform4f(SW_AO_LOC_LENS, in->lens.focal, in->lens.aspect, in->lens.z_near, in->lens.z_far);
    glUniform1i(SW_AO_LOC_REVERSE_Z, in->lens.reverse_z ? 1 : 0);
    glUniform3f(SW_AO_LOC_SETTINGS, in->settings.radius, in->settings.strength, in->settings.bias);
    glUniform1i(SW_AO_LOC_FRAME, (GLint)(in->frame % 64u));
    glUniform3fv(SW_AO_LOC_LIGHT, 1, in->light);
    float directions[SW_AO_DIRECTION_COUNT][2];
    sw__ao_directions(directions);
    glUniform2fv(SW_AO_LOC_DIRECTIONS, SW_AO_DIRECTION_COUNT, &directions[0][0]);
    const size_t count = in->capsule_count < SW_AO_MAX_PROXIES ? in->capsule_count : SW_AO_MAX_PROXIES;
    float proxies[2 * SW_AO_MAX_PROXIES][4];
    for (size_t i = 0; i < count; i++) {
        const sw__ao_capsule* c = &in->capsules[i];
        memcpy(proxies[2 * i], c->a, sizeof c->a);
        proxies[2 * i][3] = c->radius;
        memcpy(proxies[2 * i + 1], c->b, sizeof c->b);
        proxies[2 * i + 1][3] = 0.0f;
    }
    glUniform1i(SW_AO_LOC_PROXY_COUNT, (GLint)count);
    float lo[3], hi[3];
    sw__ao_proxy_box(in->capsules, count, lo, hi);
    glUniform3fv(SW_AO_LOC_PROXY_MIN, 1, lo);
    glUniform3fv(SW_AO_LOC_PROXY_MAX, 1, hi);
    if (count) glUniform4fv(SW_AO_LOC_PROXIES, (GLsizei)(2 * count), &proxies[0][0]);
    glActiveTexture(GL_TEXTURE0 + SW_AO_UNIT_DEPTH);
    glBindTexture(GL_TEXTURE_2D, in->depth);
    glActiveTexture(GL_TEXTURE0 + SW_AO_UNIT_NORMAL);
    glBindTexture(GL_TEXTURE_2D, in->normal);
    glBindVertexArray(in->empty_vao);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glDisable(GL_SCISSOR_TEST);
}

void sw__ao_pass_clear(sw__ao_pass* pass) {
    glBindFramebuffer(GL_FRAMEBUFFER, pass->fbo);
    glDisable(GL_SCISSOR_TEST);
    const float one[4] = {1, 1, 1, 1};
    glClearBufferfv(GL_COLOR, SW_OUT_COLOR, one);
}

uint32_t sw__ao_pass_texture(const sw__ao_pass* pass) { return pass ? pass->target : 0; }

void sw__ao_contact_direction(const float view[16], const float towards_light[3], float out[3]) {
    float v[3];
    for (int k = 0; k < 3; k++) v[k] = view[k] * towards_light[0] + view[4 + k] * towards_light[1] + view[8 + k] * towards_light[2];
    const float length = sqrtf(sw__ao_dot(v, v));
    for (int k = 0; k < 3; k++) out[k] = length > 0.0f ? v[k] / length : 0.0f;
}

/* The scissor as the G-buffer pass leaves it for the lighting pass. */
static void sw__ao_scissor(const sw_renderer* r, int x0, int x1) {
    glEnable(GL_SCISSOR_TEST);
    glScissor(x0, 0, x1 - x0, r->height);
}

GLuint sw__ao_frame(sw_renderer* r, const sw_render_frame* f, sw_vec3 light_direction, int x0, int x1) {
    if (f->shading.ao == SW_RENDER_AO_OFF) { /* the target cleared to 1: the lighting pass reads it the same way */
        sw__recon_pass_clear(r->recon);
        sw__ao_scissor(r, x0, x1);
        return sw__recon_pass_output(r->recon);
    }
    sw__pass_timer* timer = &r->pass_timer;
    const sw_camera* camera = &f->camera.current;
    const sw__recon_depth_range range = {camera->z_near, camera->z_far, r->reverse_z};
    /* 1. The half-res depth and normal (recon.c). */
    sw__pass_begin(timer, SW__PASS_RECON);
    sw__recon_pass_pick(r->recon, r->t_depth, r->t_normal, &range, r->empty_vao, x0, x1);
    sw__pass_end(timer, SW__PASS_RECON);
    /* 2. The AO on them, at half resolution. */
    sw__pass_begin(timer, SW__PASS_AO);
    const int half_width = sw__recon_pass_half_width(r->recon), half_height = sw__recon_pass_half_height(r->recon);
    const sw_mat4 view = sw__look_at(sw__v3(camera->eye), sw__v3(camera->target), sw__v3(camera->up));
    /* The radius: a fifth of the scene's height (about 35 cm on a person). */
    const float height = r->scene_max[1] - r->scene_min[1];
    sw__ao_inputs in = {
        .depth = sw__recon_pass_half_depth(r->recon), .normal = sw__recon_pass_half_normal(r->recon),
        .empty_vao = r->empty_vao,
        .lens = {1.0f / tanf(0.5f * camera->fov_y), (float)r->width / (float)r->height, camera->z_near, camera->z_far,
                 half_width, half_height, r->reverse_z},
        .settings = {height > 0.0f && isfinite(height) ? 0.2f * height : 0.35f, 2.0f, 0.1f},
        /* The noise turns with the frame only where TAA averages it; without
           TAA a still pattern (it would crawl, and a frame would depend on its index). */
        .frame = (f->post.aa & SW_RENDER_AA_TAA) ? f->post.frame_index : 0,
        .x0 = x0 / 2, .x1 = (x1 + 1) / 2, /* the half-res columns of the pick */
    };
    memcpy(in.view, view.m, sizeof in.view);
    const float towards_light[3] = {light_direction.x, light_direction.y, light_direction.z};
    sw__ao_contact_direction(view.m, towards_light, in.light);
    sw__ao_capsule capsules[SW_AO_MAX_PROXIES];
    if (!f->crowd.count && r->ao_rig_count) {
        sw__ao_pose_proxies(r->asset, f->pose, r->ao_rig, r->ao_rig_count, view.m, capsules);
        in.capsules = capsules;
        in.capsule_count = r->ao_rig_count;
    }
    sw__ao_pass_run(r->ao, &in);
    sw__pass_end(timer, SW__PASS_AO);
    /* 3. Back to full resolution, without blending across depth or normal edges. */
    sw__pass_begin(timer, SW__PASS_RECON);
    sw__recon_pass_upsample(r->recon, r->t_depth, r->t_normal, sw__ao_pass_texture(r->ao), &range, r->empty_vao, x0, x1);
    sw__pass_end(timer, SW__PASS_RECON);
    sw__ao_scissor(r, x0, x1);
    return sw__recon_pass_output(r->recon);
}
