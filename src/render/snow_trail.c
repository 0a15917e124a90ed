/* snow_trail.c — footprints (docs/snow.md): a trail field over the ground
   in world XZ around the character. Each frame the refill fades it
   (sw__snow_refill) and every skin joint near the ground (the feet and
   toes when she walks) stamps a disc into it (sw__snow_stamp); the field
   goes to an R8 texture that the snow material reads in the G-buffer pass
   (gbuffer.frag: coverage removed, darker). The ground is taken to be the
   plane y = 0 (the demo stage's). */
#include "renderer_internal.h"

#include <math.h>
#include <string.h>

#include "../base/base_internal.h"
#include "snow.h"

struct sw__snow_trail {
    float depth[SW_SNOW_TRAIL_SIZE * SW_SNOW_TRAIL_SIZE];
    uint8_t texels[SW_SNOW_TRAIL_SIZE * SW_SNOW_TRAIL_SIZE];
    float origin[2];   /* world x, z of texel (0, 0)'s corner */
    bool placed;
    float time;        /* the last frame's shading time */
    GLuint texture;
};

bool sw__snow_any(const sw_renderer* r) {
    const size_t count = r->asset ? r->asset->material_count + 1 + r->stage_material_count : 0;
    for (size_t m = 0; r->materials && m < count; m++)
        if (r->materials[m].values.snow[3] > 0.0f) return true;
    return false;
}

void sw__snow_trail_destroy(sw__snow_trail* t) {
    if (!t) return;
    if (t->texture) glDeleteTextures(1, &t->texture);
    sw__free(t);
}

/* The texel rectangle a stamp at (x, z) touches, and the stamp. */
static void sw__trail_stamp_at(sw__snow_trail* t, float x, float z, float depth) {
    const float per = (float)SW_SNOW_TRAIL_SIZE / SW_SNOW_TRAIL_EXTENT, radius = SW_SNOW_FOOT_RADIUS;
    const int x0 = (int)floorf((x - radius - t->origin[0]) * per), x1 = (int)floorf((x + radius - t->origin[0]) * per);
    const int z0 = (int)floorf((z - radius - t->origin[1]) * per), z1 = (int)floorf((z + radius - t->origin[1]) * per);
    for (int j = z0 < 0 ? 0 : z0; j <= z1 && j < SW_SNOW_TRAIL_SIZE; j++)
        for (int i = x0 < 0 ? 0 : x0; i <= x1 && i < SW_SNOW_TRAIL_SIZE; i++) {
            const float cx = t->origin[0] + ((float)i + 0.5f) / per, cz = t->origin[1] + ((float)j + 0.5f) / per;
            float* d = &t->depth[j * SW_SNOW_TRAIL_SIZE + i];
            *d = sw__snow_stamp(*d, hypotf(cx - x, cz - z), radius, depth);
        }
}

/* A joint's world position under the frame's placement. */
static void sw__joint_place(const sw_render_frame* f, uint32_t node, float out[3]) {
    const sw_mat34* w = &f->pose->world[node];
    float p[3] = {w->m[0][3], w->m[1][3], w->m[2][3]};
    if (f->placement) {
        const sw_mat34* m = f->placement;
        for (int k = 0; k < 3; k++) out[k] = m->m[k][0] * p[0] + m->m[k][1] * p[1] + m->m[k][2] * p[2] + m->m[k][3];
    } else {
        memcpy(out, p, sizeof p);
    }
}

sw_result sw__snow_trail_update(sw_renderer* r, const sw_render_frame* f, sw_diag* diag) {
    if (!f->pose || !f->pose->world || f->crowd.count) return SW_OK;
    sw__snow_trail* t = r->snow_trail;
    if (!t) {
        t = r->snow_trail = (sw__snow_trail*)sw__calloc(1, sizeof *t);
        if (!t) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for the snow trail");
    }
    const sw_model* a = r->asset;
    if (!t->placed || f->first_frame) {
        /* Centred on the first frame's lowest joint; a new first frame starts over. */
        float centre[3] = {0, 0, 0}, lowest = INFINITY;
        for (size_t s = 0; s < a->skin_count; s++)
            for (size_t j = 0; j < a->skins[s].joint_count; j++) {
                float p[3];
                sw__joint_place(f, a->skins[s].joints[j], p);
                if (p[1] < lowest) lowest = p[1], memcpy(centre, p, sizeof p);
            }
        memset(t->depth, 0, sizeof t->depth);
        t->origin[0] = centre[0] - 0.5f * SW_SNOW_TRAIL_EXTENT;
        t->origin[1] = centre[2] - 0.5f * SW_SNOW_TRAIL_EXTENT;
        t->placed = true;
        t->time = f->shading.time;
    }
    const float step = f->shading.time - t->time;
    t->time = f->shading.time;
    if (step > 0.0f)
        for (size_t k = 0; k < sizeof t->depth / sizeof t->depth[0]; k++)
            t->depth[k] = sw__snow_refill(t->depth[k], SW_SNOW_REFILL_RATE, step);
    for (size_t s = 0; s < a->skin_count; s++)
        for (size_t j = 0; j < a->skins[s].joint_count; j++) {
            float p[3];
            sw__joint_place(f, a->skins[s].joints[j], p);
            /* Depth 1 at or under SW_SNOW_CONTACT_LOW, 0 from SW_SNOW_CONTACT_HIGH up. */
            const float d = (SW_SNOW_CONTACT_HIGH - p[1]) / (SW_SNOW_CONTACT_HIGH - SW_SNOW_CONTACT_LOW);
            if (d > 0.0f) sw__trail_stamp_at(t, p[0], p[2], d > 1.0f ? 1.0f : d);
        }
    for (size_t k = 0; k < sizeof t->depth / sizeof t->depth[0]; k++)
        t->texels[k] = (uint8_t)lrintf(fminf(fmaxf(t->depth[k], 0.0f), 1.0f) * 255.0f);
    if (!t->texture) {
        glGenTextures(1, &t->texture);
        glBindTexture(GL_TEXTURE_2D, t->texture);
        glTexStorage2D(GL_TEXTURE_2D, 1, GL_R8, SW_SNOW_TRAIL_SIZE, SW_SNOW_TRAIL_SIZE);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    }
    glBindTexture(GL_TEXTURE_2D, t->texture);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, SW_SNOW_TRAIL_SIZE, SW_SNOW_TRAIL_SIZE, GL_RED, GL_UNSIGNED_BYTE, t->texels);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    return SW_OK;
}

void sw__snow_trail_bind(const sw_renderer* r, bool on) {
    const sw__snow_trail* t = on ? r->snow_trail : NULL;
    glActiveTexture(GL_TEXTURE0 + SW_GBUFFER_UNIT_SNOW_TRAIL);
    glBindTexture(GL_TEXTURE_2D, t && t->texture ? t->texture : 0);
    if (t && t->texture)
        glUniform4f(SW_GBUFFER_LOC_SNOW_TRAIL, t->origin[0], t->origin[1], 1.0f / SW_SNOW_TRAIL_EXTENT, 1.0f);
    else
        glUniform4f(SW_GBUFFER_LOC_SNOW_TRAIL, 0.0f, 0.0f, 0.0f, 0.0f);
}
