/* snow_trail.c — footprints (docs/snow.md): a trail field over the ground
   in world XZ around the character. The field is a ring: a texel holds
   world texel index (i, j) at (i mod 512, j mod 512), and the window
   follows the character every frame; the texels that wrap in on the side
   it moves towards are cleared. Each frame the refill fades it
   (sw__snow_refill) and every skin joint near the ground (the feet and
   toes when she walks) stamps a disc into it (sw__snow_stamp), its depth
   measured from the ground under it: the surface-height cache's CPU copy
   (snow_cache.c: the crate tops and steps as well as the ground), else
   the plane y = 0. The field goes to an R8 texture (repeating, as the
   ring) that the snow material reads in the G-buffer pass (gbuffer.frag:
   coverage removed, darker). */
#include "renderer_internal.h"

#include <math.h>
#include <string.h>

#include "../base/base_internal.h"
#include "snow.h"
#include "snow_cache.h"

#define SW__TRAIL_MASK (SW_SNOW_TRAIL_SIZE - 1)
_Static_assert((SW_SNOW_TRAIL_SIZE & SW__TRAIL_MASK) == 0, "the trail's ring needs a power-of-two size");

struct sw__snow_trail {
    float depth[SW_SNOW_TRAIL_SIZE * SW_SNOW_TRAIL_SIZE];
    uint8_t texels[SW_SNOW_TRAIL_SIZE * SW_SNOW_TRAIL_SIZE];
    int32_t corner[2]; /* world texel index (x, z) of the window's corner */
    bool placed;
    float time;        /* the last frame's shading time */
    GLuint texture;
};

static float sw__trail_per_unit(void) { return (float)SW_SNOW_TRAIL_SIZE / SW_SNOW_TRAIL_EXTENT; }

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

/* The stamp of a foot at (x, z): the texels of its disc that lie in the
   window, at their ring addresses. */
static void sw__trail_stamp_at(sw__snow_trail* t, float x, float z, float depth) {
    const float per = sw__trail_per_unit(), radius = SW_SNOW_FOOT_RADIUS;
    int32_t i0 = (int32_t)floorf((x - radius) * per), i1 = (int32_t)floorf((x + radius) * per);
    int32_t j0 = (int32_t)floorf((z - radius) * per), j1 = (int32_t)floorf((z + radius) * per);
    if (i0 < t->corner[0]) i0 = t->corner[0];
    if (j0 < t->corner[1]) j0 = t->corner[1];
    if (i1 >= t->corner[0] + SW_SNOW_TRAIL_SIZE) i1 = t->corner[0] + SW_SNOW_TRAIL_SIZE - 1;
    if (j1 >= t->corner[1] + SW_SNOW_TRAIL_SIZE) j1 = t->corner[1] + SW_SNOW_TRAIL_SIZE - 1;
    for (int32_t j = j0; j <= j1; j++)
        for (int32_t i = i0; i <= i1; i++) {
            const float cx = ((float)i + 0.5f) / per, cz = ((float)j + 0.5f) / per;
            float* d = &t->depth[(size_t)(j & SW__TRAIL_MASK) * SW_SNOW_TRAIL_SIZE + (size_t)(i & SW__TRAIL_MASK)];
            *d = sw__snow_stamp(*d, hypotf(cx - x, cz - z), radius, depth);
        }
}

/* Moves the window's corner to `corner`: every column (row) whose ring
   address now holds another world texel than before is cleared. */
static void sw__trail_move(sw__snow_trail* t, const int32_t corner[2]) {
    for (int axis = 0; axis < 2; axis++) {
        const int32_t from = t->corner[axis], to = corner[axis];
        const int32_t moved = to - from;
        if (moved == 0) continue;
        const int32_t count = moved > SW_SNOW_TRAIL_SIZE || moved < -SW_SNOW_TRAIL_SIZE ? SW_SNOW_TRAIL_SIZE
                                                                                       : (moved < 0 ? -moved : moved);
        /* The world texels that enter: [from + SIZE, to + SIZE) moving up, [to, from) moving down. */
        const int32_t first = moved > 0 ? to + SW_SNOW_TRAIL_SIZE - count : to;
        for (int32_t k = 0; k < count; k++) {
            const size_t a = (size_t)((first + k) & SW__TRAIL_MASK);
            for (size_t b = 0; b < SW_SNOW_TRAIL_SIZE; b++) {
                const size_t index = axis == 0 ? b * SW_SNOW_TRAIL_SIZE + a : a * SW_SNOW_TRAIL_SIZE + b;
                t->depth[index] = 0.0f;
            }
        }
    }
    t->corner[0] = corner[0], t->corner[1] = corner[1];
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

bool sw__snow_feet(const sw_renderer* r, const sw_render_frame* f, float out[3]) {
    if (!f->pose || !f->pose->world || f->crowd.count || !r->asset) return false;
    const sw_model* a = r->asset;
    float lowest = INFINITY;
    for (size_t s = 0; s < a->skin_count; s++)
        for (size_t j = 0; j < a->skins[s].joint_count; j++) {
            float p[3];
            sw__joint_place(f, a->skins[s].joints[j], p);
            if (p[1] < lowest) lowest = p[1], memcpy(out, p, sizeof p);
        }
    return lowest < INFINITY;
}

sw_result sw__snow_cache_update(sw_renderer* r, const sw_render_frame* f, sw_diag* diag) {
    float feet[3];
    if (!sw__snow_feet(r, f, feet)) return SW_OK;
    return sw__snow_cache_frame(r, feet, diag);
}

/* The ground under (x, z): the height cache's, else y = 0. */
static float sw__trail_ground(const sw_renderer* r, float x, float z) {
    float y;
    return sw__snow_cache_ground(r->snow_cache, x, z, &y) ? y : 0.0f;
}

static void sw__trail_upload(sw__snow_trail* t) {
    for (size_t k = 0; k < sizeof t->depth / sizeof t->depth[0]; k++)
        t->texels[k] = (uint8_t)lrintf(fminf(fmaxf(t->depth[k], 0.0f), 1.0f) * 255.0f);
    if (!t->texture) {
        glGenTextures(1, &t->texture);
        glBindTexture(GL_TEXTURE_2D, t->texture);
        glTexStorage2D(GL_TEXTURE_2D, 1, GL_R8, SW_SNOW_TRAIL_SIZE, SW_SNOW_TRAIL_SIZE);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_REPEAT); /* the ring */
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_REPEAT);
    }
    glBindTexture(GL_TEXTURE_2D, t->texture);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, SW_SNOW_TRAIL_SIZE, SW_SNOW_TRAIL_SIZE, GL_RED, GL_UNSIGNED_BYTE, t->texels);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
}

sw_result sw__snow_trail_update(sw_renderer* r, const sw_render_frame* f, sw_diag* diag) {
    float feet[3];
    if (!sw__snow_feet(r, f, feet)) return SW_OK;
    sw__snow_trail* t = r->snow_trail;
    if (!t) {
        t = r->snow_trail = (sw__snow_trail*)sw__calloc(1, sizeof *t);
        if (!t) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for the snow trail");
    }
    const float per = sw__trail_per_unit();
    /* The window: centred on her feet, on whole texels. */
    const int32_t corner[2] = {(int32_t)floorf(feet[0] * per) - SW_SNOW_TRAIL_SIZE / 2,
                               (int32_t)floorf(feet[2] * per) - SW_SNOW_TRAIL_SIZE / 2};
    if (!t->placed || f->first_frame) { /* a new first frame starts over */
        memset(t->depth, 0, sizeof t->depth);
        t->corner[0] = corner[0], t->corner[1] = corner[1];
        t->placed = true;
        t->time = f->shading.time;
    }
    sw__trail_move(t, corner);
    const float step = f->shading.time - t->time;
    t->time = f->shading.time;
    if (step > 0.0f)
        for (size_t k = 0; k < sizeof t->depth / sizeof t->depth[0]; k++)
            t->depth[k] = sw__snow_refill(t->depth[k], SW_SNOW_REFILL_RATE, step);
    const sw_model* a = r->asset;
    for (size_t s = 0; s < a->skin_count; s++)
        for (size_t j = 0; j < a->skins[s].joint_count; j++) {
            float p[3];
            sw__joint_place(f, a->skins[s].joints[j], p);
            /* Over the ground under it: depth 1 at or under SW_SNOW_CONTACT_LOW, 0 from SW_SNOW_CONTACT_HIGH up. */
            const float y = p[1] - sw__trail_ground(r, p[0], p[2]);
            const float d = (SW_SNOW_CONTACT_HIGH - y) / (SW_SNOW_CONTACT_HIGH - SW_SNOW_CONTACT_LOW);
            if (d > 0.0f) sw__trail_stamp_at(t, p[0], p[2], d > 1.0f ? 1.0f : d);
        }
    sw__trail_upload(t);
    return SW_OK;
}

void sw__snow_trail_bind(const sw_renderer* r, bool on) {
    const sw__snow_trail* t = on ? r->snow_trail : NULL;
    glActiveTexture(GL_TEXTURE0 + SW_GBUFFER_UNIT_SNOW_TRAIL);
    glBindTexture(GL_TEXTURE_2D, t && t->texture ? t->texture : 0);
    if (t && t->texture) {
        const float per = sw__trail_per_unit();
        glUniform4f(SW_GBUFFER_LOC_SNOW_TRAIL, (float)t->corner[0] / per, (float)t->corner[1] / per,
                    1.0f / SW_SNOW_TRAIL_EXTENT, 1.0f);
    } else {
        glUniform4f(SW_GBUFFER_LOC_SNOW_TRAIL, 0.0f, 0.0f, 0.0f, 0.0f);
    }
    sw__snow_cache_bind(on ? r->snow_cache : NULL);
}
