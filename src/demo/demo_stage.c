/* The built-in demo stage (sinew/demo.h): static props around the origin,
   written as one GLB with the writer the demo character uses
   (glb_writer.h). docs/demo-stage.md says what each part exercises.

   Every part is built in its own mesh space from a few shapes (boxes,
   prisms, quads, a disc, a grid), one primitive per material, with
   POSITION, NORMAL and TEXCOORD_0 (texture coordinates in metres times a
   repeat rate, so the painted textures tile at the same density on every
   face); the ground alone has COLOR_0, whose alpha is the snow coverage.
   Nodes place the meshes (the crate mesh three times), hold the two
   KHR_lights_punctual lights and the two SW_decal boxes. Textures are
   painted from integer hashes (no random state), so every call writes the
   same bytes. */
#include "sinew/demo.h"

#include "sinew/math.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../base/base_internal.h"
#include "../base/cjson_alloc_internal.h"
#include "glb_writer.h"

/* ---- the parts' materials ---------------------------------------------------------- */

enum {
    SW__SM_GROUND,
    SW__SM_WOOD,
    SW__SM_STONE,
    SW__SM_BRICK,
    SW__SM_RED_PLASTER,
    SW__SM_LANTERN_GLOW,
    SW__SM_BARK,
    SW__SM_LEAVES,
    SW__SM_GRASS,
    SW__SM_GLASS,
    SW__SM_WATER,
    SW__SM_IRON,
    SW__SM_COUNT
};

/* The painted textures (each is one glTF texture, same index). */
enum {
    SW__ST_GROUND,
    SW__ST_WOOD,
    SW__ST_STONE,
    SW__ST_BRICK,
    SW__ST_LEAVES,
    SW__ST_GRASS,
    SW__ST_EMBLEM,
    SW__ST_EMBLEM_NORMAL,
    SW__ST_SIGN,
    SW__ST_COUNT
};

typedef enum sw__stage_alpha { SW__OPAQUE, SW__MASK, SW__BLEND } sw__stage_alpha;

typedef struct sw__stage_look {
    const char* name;
    float base_color[4]; /* linear */
    int texture;         /* SW__ST_*, or -1 */
    float metallic, roughness;
    float emissive[3];
    sw__stage_alpha alpha;
    bool double_sided;
} sw__stage_look;

static const sw__stage_look sw__stage_looks[SW__SM_COUNT] = {
    [SW__SM_GROUND] = {"ground", {1, 1, 1, 1}, SW__ST_GROUND, 0, 0.85f, {0}, SW__OPAQUE, false},
    [SW__SM_WOOD] = {"crate_wood", {1, 1, 1, 1}, SW__ST_WOOD, 0, 0.7f, {0}, SW__OPAQUE, false},
    [SW__SM_STONE] = {"stone", {1, 1, 1, 1}, SW__ST_STONE, 0, 0.9f, {0}, SW__OPAQUE, false},
    [SW__SM_BRICK] = {"brick_wall", {1, 1, 1, 1}, SW__ST_BRICK, 0, 0.9f, {0}, SW__OPAQUE, false},
    [SW__SM_RED_PLASTER] = {"red_plaster", {0.62f, 0.06f, 0.05f, 1}, -1, 0, 0.8f, {0}, SW__OPAQUE, false},
    [SW__SM_LANTERN_GLOW] = {"lantern_glow", {1.0f, 0.8f, 0.55f, 1}, -1, 0, 0.6f, {1.0f, 0.55f, 0.2f}, SW__OPAQUE,
                             false},
    [SW__SM_BARK] = {"bark", {0.22f, 0.13f, 0.07f, 1}, -1, 0, 0.95f, {0}, SW__OPAQUE, false},
    [SW__SM_LEAVES] = {"leaves", {1, 1, 1, 1}, SW__ST_LEAVES, 0, 0.75f, {0}, SW__MASK, true},
    [SW__SM_GRASS] = {"grass", {1, 1, 1, 1}, SW__ST_GRASS, 0, 0.8f, {0}, SW__MASK, true},
    [SW__SM_GLASS] = {"window_glass", {0.70f, 0.85f, 0.95f, 0.25f}, -1, 0, 0.05f, {0}, SW__BLEND, true},
    [SW__SM_WATER] = {"pond_water", {0.05f, 0.16f, 0.22f, 0.7f}, -1, 0, 0.08f, {0}, SW__BLEND, false},
    [SW__SM_IRON] = {"iron", {0.18f, 0.18f, 0.2f, 1}, -1, 1, 0.45f, {0}, SW__OPAQUE, false},
};

/* ---- geometry ---------------------------------------------------------------------------- */

typedef struct sw__stage_vertex {
    float position[3], normal[3], uv[2], color[4];
} sw__stage_vertex;

typedef struct sw__stage_prim {
    int material;
    bool colors; /* COLOR_0 is written */
    sw__stage_vertex* vertices;
    size_t vertex_count, vertex_capacity;
    uint16_t* indices;
    size_t index_count, index_capacity;
} sw__stage_prim;

#define SW__STAGE_MAX_PRIMS 3

typedef struct sw__stage_mesh {
    const char* name;
    sw__stage_prim prims[SW__STAGE_MAX_PRIMS];
    int prim_count;
} sw__stage_mesh;

enum {
    SW__SMESH_GROUND,
    SW__SMESH_CRATE,
    SW__SMESH_LANTERN,
    SW__SMESH_WALL,
    SW__SMESH_RED_WALL,
    SW__SMESH_STEPS,
    SW__SMESH_TREE,
    SW__SMESH_GRASS,
    SW__SMESH_WINDOW,
    SW__SMESH_POND,
    SW__SMESH_COUNT
};

typedef struct sw__stage_geometry {
    sw__stage_mesh meshes[SW__SMESH_COUNT];
    bool failed;
} sw__stage_geometry;

static sw__stage_prim* sw__stage_prim_of(sw__stage_geometry* g, int mesh, int material) {
    sw__stage_mesh* m = &g->meshes[mesh];
    for (int i = 0; i < m->prim_count; i++)
        if (m->prims[i].material == material) return &m->prims[i];
    SW_ASSERT(m->prim_count < SW__STAGE_MAX_PRIMS);
    sw__stage_prim* p = &m->prims[m->prim_count++];
    p->material = material;
    return p;
}

static bool sw__stage_grow(void** data, size_t* capacity, size_t need, size_t element) {
    if (need <= *capacity) return true;
    size_t grown = *capacity ? *capacity * 2 : 256;
    while (grown < need) grown *= 2;
    void* p = sw__realloc(*data, grown * element);
    if (!p) return false;
    *data = p;
    *capacity = grown;
    return true;
}

/* Adds a vertex; returns its index, or -1 (memory, or past 16-bit indices). */
static long sw__stage_vertex_add(sw__stage_geometry* g, sw__stage_prim* p, sw_vec3 position, sw_vec3 normal,
                                 float u, float v) {
    if (g->failed || p->vertex_count >= 65535 ||
        !sw__stage_grow((void**)&p->vertices, &p->vertex_capacity, p->vertex_count + 1, sizeof *p->vertices)) {
        g->failed = true;
        return -1;
    }
    sw__stage_vertex* out = &p->vertices[p->vertex_count];
    *out = (sw__stage_vertex){{position.x, position.y, position.z}, {normal.x, normal.y, normal.z}, {u, v}, {1, 1, 1, 1}};
    return (long)p->vertex_count++;
}

static void sw__stage_triangle(sw__stage_geometry* g, sw__stage_prim* p, long a, long b, long c) {
    if (g->failed || a < 0 || b < 0 || c < 0 ||
        !sw__stage_grow((void**)&p->indices, &p->index_capacity, p->index_count + 3, sizeof *p->indices)) {
        g->failed = true;
        return;
    }
    p->indices[p->index_count++] = (uint16_t)a;
    p->indices[p->index_count++] = (uint16_t)b;
    p->indices[p->index_count++] = (uint16_t)c;
}

/* A quad from `corner` along edges `eu` and `ev` (counter-clockwise seen
   from eu × ev), its texture coordinates the edges' lengths in metres ×
   `uv_rate` (or [0,1]² when uv_rate is 0). */
static void sw__stage_quad(sw__stage_geometry* g, sw__stage_prim* p, sw_vec3 corner, sw_vec3 eu, sw_vec3 ev,
                           float uv_rate) {
    sw_vec3 n = sw_vec3_normalize(sw_vec3_cross(eu, ev));
    float us = uv_rate > 0 ? sw_vec3_length(eu) * uv_rate : 1.0f;
    float vs = uv_rate > 0 ? sw_vec3_length(ev) * uv_rate : 1.0f;
    /* v runs down the image: the quad's ev edge goes up the texture */
    long a = sw__stage_vertex_add(g, p, corner, n, 0, vs);
    long b = sw__stage_vertex_add(g, p, sw_vec3_add(corner, eu), n, us, vs);
    long c = sw__stage_vertex_add(g, p, sw_vec3_add(sw_vec3_add(corner, eu), ev), n, us, 0);
    long d = sw__stage_vertex_add(g, p, sw_vec3_add(corner, ev), n, 0, 0);
    sw__stage_triangle(g, p, a, b, c);
    sw__stage_triangle(g, p, a, c, d);
}

/* An axis-aligned box: centre and half extents, six outward quads. */
static void sw__stage_box(sw__stage_geometry* g, sw__stage_prim* p, sw_vec3 c, sw_vec3 h, float uv_rate) {
    sw_vec3 X = sw_vec3_make(2 * h.x, 0, 0), Y = sw_vec3_make(0, 2 * h.y, 0), Z = sw_vec3_make(0, 0, 2 * h.z);
    sw_vec3 lo = sw_vec3_sub(c, h);
    sw_vec3 hi = sw_vec3_add(c, h);
    sw__stage_quad(g, p, sw_vec3_make(lo.x, lo.y, hi.z), X, Y, uv_rate);                       /* +Z */
    sw__stage_quad(g, p, sw_vec3_make(hi.x, lo.y, lo.z), sw_vec3_scale(X, -1), Y, uv_rate);    /* −Z */
    sw__stage_quad(g, p, sw_vec3_make(hi.x, lo.y, hi.z), sw_vec3_scale(Z, -1), Y, uv_rate);    /* +X */
    sw__stage_quad(g, p, sw_vec3_make(lo.x, lo.y, lo.z), Z, Y, uv_rate);                       /* −X */
    sw__stage_quad(g, p, sw_vec3_make(lo.x, hi.y, hi.z), X, sw_vec3_scale(Z, -1), uv_rate);    /* +Y */
    sw__stage_quad(g, p, sw_vec3_make(lo.x, lo.y, lo.z), X, Z, uv_rate);                       /* −Y */
}

/* An upright prism (a faceted cylinder) on `base`, with a top cap. */
static void sw__stage_prism(sw__stage_geometry* g, sw__stage_prim* p, sw_vec3 base, float radius, float height,
                            int sides) {
    for (int s = 0; s < sides; s++) {
        double a0 = 2.0 * SW_PI * s / sides, a1 = 2.0 * SW_PI * (s + 1) / sides;
        sw_vec3 p0 = sw_vec3_add(base, sw_vec3_make(radius * (float)sin(a0), 0, radius * (float)cos(a0)));
        sw_vec3 p1 = sw_vec3_add(base, sw_vec3_make(radius * (float)sin(a1), 0, radius * (float)cos(a1)));
        sw__stage_quad(g, p, p0, sw_vec3_sub(p1, p0), sw_vec3_make(0, height, 0), 2.0f);
        sw_vec3 top = sw_vec3_add(base, sw_vec3_make(0, height, 0)), up = sw_vec3_make(0, 1, 0);
        long c = sw__stage_vertex_add(g, p, top, up, 0.5f, 0.5f);
        long i0 = sw__stage_vertex_add(g, p, sw_vec3_add(p0, sw_vec3_make(0, height, 0)), up, 0, 0);
        long i1 = sw__stage_vertex_add(g, p, sw_vec3_add(p1, sw_vec3_make(0, height, 0)), up, 1, 0);
        sw__stage_triangle(g, p, c, i0, i1);
    }
}

/* ---- the ground: a grid with the snow coverage in COLOR_0's alpha ------------------------- */

#define SW__GROUND_HALF 12.0f /* 24 × 24 m */
#define SW__GROUND_CELLS 48   /* 0.5 m cells */
#define SW__PATH_HALF_WIDTH 0.7f

/* The path's centre line x(z): it passes 1 m to the character's left
   (+X) at z = 0 and bends gently, from the front of the stage to the
   back. */
static float sw__path_x(float z) { return 1.0f + 0.6f * sinf(0.35f * z); }

/* The pond: a disc at (-2.6, 1.6), radius 1 (the ground under it is bare). */
static const float sw__pond_center[2] = {-2.6f, 1.6f};
#define SW__POND_RADIUS 1.0f

/* Snow coverage in [0,1] at ground point (x, z): none on the path and
   under the pond, rising over 0.5 m beyond their edges, thinning towards
   the wall's foot. */
static float sw__snow_coverage(float x, float z) {
    float path = fabsf(x - sw__path_x(z)) - SW__PATH_HALF_WIDTH;
    float pond = hypotf(x - sw__pond_center[0], z - sw__pond_center[1]) - SW__POND_RADIUS;
    float bare = fminf(path, pond);
    float wall = sw__glb_smoothstep(-3.8f, -3.0f, z); /* 0 at the wall's foot, 1 a metre out */
    return sw__glb_smoothstep(0.0f, 0.5f, bare) * (0.35f + 0.65f * wall);
}

static void sw__build_ground(sw__stage_geometry* g) {
    sw__stage_prim* p = sw__stage_prim_of(g, SW__SMESH_GROUND, SW__SM_GROUND);
    p->colors = true;
    const float snow[3] = {0.86f, 0.9f, 0.98f};  /* white-blue */
    const float path[3] = {0.2f, 0.16f, 0.12f};   /* wet stone and dirt */
    const int n = SW__GROUND_CELLS;
    const float cell = 2.0f * SW__GROUND_HALF / (float)n;
    for (int j = 0; j <= n; j++)
        for (int i = 0; i <= n; i++) {
            float x = -SW__GROUND_HALF + cell * (float)i, z = -SW__GROUND_HALF + cell * (float)j;
            long v = sw__stage_vertex_add(g, p, sw_vec3_make(x, 0, z), sw_vec3_make(0, 1, 0), x * 0.5f, z * 0.5f);
            if (v < 0) return;
            float s = sw__snow_coverage(x, z);
            float* color = p->vertices[v].color;
            for (int c = 0; c < 3; c++) color[c] = path[c] + (snow[c] - path[c]) * s;
            color[3] = s;
        }
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            long a = j * (n + 1) + i, b = a + 1, c = a + (n + 1), d = c + 1;
            sw__stage_triangle(g, p, a, c, d); /* counter-clockwise seen from +Y */
            sw__stage_triangle(g, p, a, d, b);
        }
}

/* ---- the props ----------------------------------------------------------------------------- */

#define SW__WALL_Z -4.0f /* the wall's front face */

static void sw__build_props(sw__stage_geometry* g) {
    /* A 0.7 m crate, placed three times by nodes. */
    sw__stage_box(g, sw__stage_prim_of(g, SW__SMESH_CRATE, SW__SM_WOOD), sw_vec3_make(0, 0.35f, 0),
                  sw_vec3_make(0.35f, 0.35f, 0.35f), 0);
    /* A stone lantern: foot, post, a glowing firebox, a wide roof. */
    sw__stage_prim* stone = sw__stage_prim_of(g, SW__SMESH_LANTERN, SW__SM_STONE);
    sw__stage_box(g, stone, sw_vec3_make(0, 0.1f, 0), sw_vec3_make(0.25f, 0.1f, 0.25f), 2.0f);
    sw__stage_prism(g, stone, sw_vec3_make(0, 0.2f, 0), 0.09f, 0.8f, 8);
    sw__stage_box(g, stone, sw_vec3_make(0, 1.04f, 0), sw_vec3_make(0.26f, 0.04f, 0.26f), 2.0f);
    sw__stage_box(g, sw__stage_prim_of(g, SW__SMESH_LANTERN, SW__SM_LANTERN_GLOW), sw_vec3_make(0, 1.24f, 0),
                  sw_vec3_make(0.18f, 0.16f, 0.18f), 0);
    sw__stage_box(g, stone, sw_vec3_make(0, 1.46f, 0), sw_vec3_make(0.36f, 0.06f, 0.36f), 2.0f);
    sw__stage_box(g, stone, sw_vec3_make(0, 1.56f, 0), sw_vec3_make(0.16f, 0.04f, 0.16f), 2.0f);
    /* The wall behind her: 14 m wide, 2.6 m high, 0.4 m thick. */
    sw__stage_box(g, sw__stage_prim_of(g, SW__SMESH_WALL, SW__SM_BRICK), sw_vec3_make(0, 1.3f, SW__WALL_Z - 0.2f),
                  sw_vec3_make(7.0f, 1.3f, 0.2f), 1.0f);
    /* A red low wall to her right (for probes and colour bleeding). */
    sw__stage_box(g, sw__stage_prim_of(g, SW__SMESH_RED_WALL, SW__SM_RED_PLASTER), sw_vec3_make(0, 0.6f, 0),
                  sw_vec3_make(0.15f, 0.6f, 1.1f), 0);
    /* Three stone steps (each 0.18 m higher and 0.35 m shallower). */
    sw__stage_prim* steps = sw__stage_prim_of(g, SW__SMESH_STEPS, SW__SM_STONE);
    for (int s = 0; s < 3; s++)
        sw__stage_box(g, steps, sw_vec3_make(0, 0.09f + 0.18f * (float)s, -0.175f * (float)s),
                      sw_vec3_make(0.9f, 0.09f, 0.525f - 0.175f * (float)s), 2.0f);
}

/* Two crossed vertical cards centred on `base`: width w, height h, turned by `angle` about Y. */
static void sw__stage_cross_cards(sw__stage_geometry* g, sw__stage_prim* p, sw_vec3 base, float w, float h,
                                  float angle) {
    for (int k = 0; k < 2; k++) {
        float a = angle + (float)k * (float)SW_PI * 0.5f;
        sw_vec3 eu = sw_vec3_make(w * cosf(a), 0, -w * sinf(a));
        sw_vec3 corner = sw_vec3_sub(base, sw_vec3_scale(eu, 0.5f));
        sw__stage_quad(g, p, corner, eu, sw_vec3_make(0, h, 0), 0);
    }
}

/* A small deterministic hash in [0,1) (no random state). */
static float sw__hash01(uint32_t x) {
    x ^= x >> 16, x *= 0x7feb352du, x ^= x >> 15, x *= 0x846ca68bu, x ^= x >> 16;
    return (float)(x >> 8) / 16777216.0f;
}

static void sw__build_plants(sw__stage_geometry* g) {
    /* A tree: a trunk and a crown of leaf cards (crossed pairs and flat layers). */
    sw__stage_prism(g, sw__stage_prim_of(g, SW__SMESH_TREE, SW__SM_BARK), sw_vec3_make(0, 0, 0), 0.14f, 2.2f, 7);
    sw__stage_prim* leaves = sw__stage_prim_of(g, SW__SMESH_TREE, SW__SM_LEAVES);
    for (int k = 0; k < 7; k++) {
        float a = (float)k * 2.4f, r = k ? 0.55f : 0.0f;
        sw_vec3 at = sw_vec3_make(r * cosf(a), 1.5f + 0.22f * (float)(k % 3), r * sinf(a));
        sw__stage_cross_cards(g, leaves, at, 1.5f, 1.4f, a);
    }
    /* Grass tufts: crossed cards along the wall's foot, around the tree and
       the lantern, and by the path. */
    sw__stage_prim* grass = sw__stage_prim_of(g, SW__SMESH_GRASS, SW__SM_GRASS);
    for (uint32_t k = 0; k < 40; k++) {
        float x, z;
        if (k < 16)
            x = -6.5f + 13.0f * sw__hash01(k * 3u + 1u), z = SW__WALL_Z + 0.25f + 0.5f * sw__hash01(k * 3u + 2u);
        else if (k < 28)
            x = -4.2f + 1.8f * sw__hash01(k * 3u + 1u) - 0.9f, z = -2.6f + 1.8f * sw__hash01(k * 3u + 2u) - 0.9f;
        else {
            z = -3.0f + 9.0f * sw__hash01(k * 3u + 2u);
            bool far_side = k % 2 || fabsf(z) < 1.5f; /* her side of the path stays clear near her */
            x = sw__path_x(z) + (far_side ? 1.0f : -1.0f) * (SW__PATH_HALF_WIDTH + 0.15f);
        }
        float h = 0.3f + 0.25f * sw__hash01(k * 7u + 5u);
        sw__stage_cross_cards(g, grass, sw_vec3_make(x, 0, z), 0.6f, h, 6.28f * sw__hash01(k * 11u + 3u));
    }
}

/* A window: an iron frame around a glass pane, 1.2 × 1.5 m, its foot on
   y = 0, in its node's XY plane; and the pond's disc. */
static void sw__build_water_and_glass(sw__stage_geometry* g) {
    sw__stage_prim* iron = sw__stage_prim_of(g, SW__SMESH_WINDOW, SW__SM_IRON);
    const float w = 0.6f, bottom = 0.4f, top = 1.9f, t = 0.04f;
    sw__stage_box(g, iron, sw_vec3_make(-w, (bottom + top) / 2, 0), sw_vec3_make(t, (top - bottom) / 2 + t, t), 0);
    sw__stage_box(g, iron, sw_vec3_make(w, (bottom + top) / 2, 0), sw_vec3_make(t, (top - bottom) / 2 + t, t), 0);
    sw__stage_box(g, iron, sw_vec3_make(0, bottom, 0), sw_vec3_make(w, t, t), 0);
    sw__stage_box(g, iron, sw_vec3_make(0, top, 0), sw_vec3_make(w, t, t), 0);
    sw__stage_box(g, iron, sw_vec3_make(-w, bottom / 2, 0), sw_vec3_make(t, bottom / 2, t), 0); /* legs */
    sw__stage_box(g, iron, sw_vec3_make(w, bottom / 2, 0), sw_vec3_make(t, bottom / 2, t), 0);
    sw__stage_quad(g, sw__stage_prim_of(g, SW__SMESH_WINDOW, SW__SM_GLASS), sw_vec3_make(-w, bottom, 0),
                   sw_vec3_make(2 * w, 0, 0), sw_vec3_make(0, top - bottom, 0), 0);

    sw__stage_prim* water = sw__stage_prim_of(g, SW__SMESH_POND, SW__SM_WATER);
    sw_vec3 up = sw_vec3_make(0, 1, 0);
    long centre = sw__stage_vertex_add(g, water, sw_vec3_make(0, 0, 0), up, 0.5f, 0.5f);
    const int segments = 32;
    for (int s = 0; s < segments; s++) {
        double a0 = 2.0 * SW_PI * s / segments, a1 = 2.0 * SW_PI * (s + 1) / segments;
        float x0 = (float)cos(a0), z0 = (float)sin(a0), x1 = (float)cos(a1), z1 = (float)sin(a1);
        long i0 = sw__stage_vertex_add(g, water, sw_vec3_make(SW__POND_RADIUS * x0, 0, SW__POND_RADIUS * z0), up,
                                       0.5f + 0.5f * x0, 0.5f + 0.5f * z0);
        long i1 = sw__stage_vertex_add(g, water, sw_vec3_make(SW__POND_RADIUS * x1, 0, SW__POND_RADIUS * z1), up,
                                       0.5f + 0.5f * x1, 0.5f + 0.5f * z1);
        sw__stage_triangle(g, water, centre, i1, i0); /* counter-clockwise from above */
    }
}

static void sw__free_geometry(sw__stage_geometry* g) {
    for (int m = 0; m < SW__SMESH_COUNT; m++)
        for (int i = 0; i < g->meshes[m].prim_count; i++) {
            sw__free(g->meshes[m].prims[i].vertices);
            sw__free(g->meshes[m].prims[i].indices);
        }
}

static const char* const sw__stage_mesh_names[SW__SMESH_COUNT] = {
    "ground", "crate", "stone_lantern", "wall", "red_wall", "steps", "tree", "grass", "window", "pond",
};

static void sw__build_geometry(sw__stage_geometry* g) {
    for (int m = 0; m < SW__SMESH_COUNT; m++) g->meshes[m].name = sw__stage_mesh_names[m];
    sw__build_ground(g);
    sw__build_props(g);
    sw__build_plants(g);
    sw__build_water_and_glass(g);
}

/* ---- the textures, painted by code ---------------------------------------------------------- */

/* Value noise on a `period`-cell lattice that wraps (so textures tile):
   smooth in [0,1) at texel (x, y) of a `size`-texel image. */
static float sw__tiled_noise(int x, int y, int size, int period, uint32_t seed) {
    float fx = (float)x * (float)period / (float)size, fy = (float)y * (float)period / (float)size;
    int x0 = (int)fx, y0 = (int)fy;
    float tx = sw__glb_smoothstep(0, 1, fx - (float)x0), ty = sw__glb_smoothstep(0, 1, fy - (float)y0);
    float c[4];
    for (int k = 0; k < 4; k++) {
        uint32_t cx = (uint32_t)((x0 + (k & 1)) % period), cy = (uint32_t)((y0 + (k >> 1)) % period);
        c[k] = sw__hash01(seed * 7919u + cy * 131u + cx);
    }
    float top = c[0] + (c[1] - c[0]) * tx, bottom = c[2] + (c[3] - c[2]) * tx;
    return top + (bottom - top) * ty;
}

static void sw__put_rgba(uint8_t* px, int comp, const float linear[3], float alpha) {
    for (int c = 0; c < 3; c++) px[c] = sw__glb_srgb8(linear[c]);
    if (comp == 4) px[3] = sw__glb_unorm8(alpha);
}

/* The ground's detail (multiplied by the vertex colours): grey speckle
   around 0.9. */
static void sw__paint_ground(uint8_t* out, int size) {
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++) {
            float n = 0.6f * sw__tiled_noise(x, y, size, 8, 1) + 0.4f * sw__tiled_noise(x, y, size, 32, 2);
            float v = 0.78f + 0.22f * n;
            float rgb[3] = {v, v, v * 0.98f};
            sw__put_rgba(&out[(y * size + x) * 3], 3, rgb, 1);
        }
}

/* Crate sides: four planks across, dark gaps and a frame. */
static void sw__paint_wood(uint8_t* out, int size) {
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++) {
            int border = size / 10;
            bool frame = x < border || y < border || x >= size - border || y >= size - border;
            bool gap = (y % (size / 4)) == 0;
            float grain = sw__tiled_noise(x, y * 8, size, 16, frame ? 4u : 3u);
            float k = (frame ? 0.7f : 1.0f) * (gap ? 0.35f : 1.0f) * (0.8f + 0.3f * grain);
            float rgb[3] = {0.42f * k, 0.25f * k, 0.12f * k};
            sw__put_rgba(&out[(y * size + x) * 3], 3, rgb, 1);
        }
}

static void sw__paint_stone(uint8_t* out, int size) {
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++) {
            float n = 0.5f * sw__tiled_noise(x, y, size, 4, 5) + 0.5f * sw__tiled_noise(x, y, size, 16, 6);
            float v = 0.3f + 0.2f * n;
            float rgb[3] = {v, v * 0.98f, v * 0.95f};
            sw__put_rgba(&out[(y * size + x) * 3], 3, rgb, 1);
        }
}

/* Bricks 32 × 16 texels (0.25 × 0.125 m at the wall's rate), every other row offset by half. */
static void sw__paint_brick(uint8_t* out, int size) {
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++) {
            int row = y / 16, shifted = (x + (row % 2) * 16) % size;
            bool mortar = y % 16 < 2 || shifted % 32 < 2;
            float k = 0.85f + 0.3f * sw__hash01((uint32_t)(row * 64 + shifted / 32) + 99u);
            float n = 0.9f + 0.1f * sw__tiled_noise(x, y, size, 32, 7);
            float brick[3] = {0.42f * k * n, 0.17f * k * n, 0.11f * k * n};
            float grey[3] = {0.5f * n, 0.49f * n, 0.46f * n};
            sw__put_rgba(&out[(y * size + x) * 3], 3, mortar ? grey : brick, 1);
        }
}

/* Leaf clumps: 60 leaves (ellipses at hashed places and angles) inside a
   round crown; alpha 1 on leaves, 0 between them (alpha-tested). */
static void sw__paint_leaves(uint8_t* out, int size) {
    memset(out, 0, (size_t)size * size * 4);
    for (uint32_t k = 0; k < 60; k++) {
        float r = 0.42f * sqrtf(sw__hash01(k * 5u + 1u)), a = 6.2832f * sw__hash01(k * 5u + 2u);
        float cx = 0.5f + r * cosf(a), cy = 0.5f + r * sinf(a);
        float turn = 3.1416f * sw__hash01(k * 5u + 3u), shade = 0.7f + 0.5f * sw__hash01(k * 5u + 4u);
        float c = cosf(turn), s = sinf(turn);
        float rgb[3] = {0.06f * shade, 0.2f * shade, 0.05f * shade};
        for (int y = 0; y < size; y++)
            for (int x = 0; x < size; x++) {
                float dx = ((float)x + 0.5f) / (float)size - cx, dy = ((float)y + 0.5f) / (float)size - cy;
                float u = (c * dx + s * dy) / 0.07f, v = (-s * dx + c * dy) / 0.03f;
                if (u * u + v * v <= 1.0f) sw__put_rgba(&out[(y * size + x) * 4], 4, rgb, 1);
            }
    }
}

/* Grass blades from the bottom row (the ground) up: 24 tapering blades. */
static void sw__paint_grass(uint8_t* out, int size) {
    memset(out, 0, (size_t)size * size * 4);
    for (uint32_t k = 0; k < 24; k++) {
        float base = 0.08f + 0.84f * sw__hash01(k * 3u + 11u), lean = 0.3f * (sw__hash01(k * 3u + 12u) - 0.5f);
        float height = 0.5f + 0.5f * sw__hash01(k * 3u + 13u), shade = 0.75f + 0.4f * sw__hash01(k * 3u + 14u);
        for (int y = 0; y < size; y++) {
            float h = 1.0f - ((float)y + 0.5f) / (float)size; /* 0 at the ground */
            if (h > height) continue;
            float t = h / height, centre = base + lean * t * t, half = 0.022f * (1.0f - t);
            float rgb[3] = {(0.1f + 0.15f * t) * shade, (0.25f + 0.2f * t) * shade, 0.06f * shade};
            for (int x = 0; x < size; x++)
                if (fabsf(((float)x + 0.5f) / (float)size - centre) <= half)
                    sw__put_rgba(&out[(y * size + x) * 4], 4, rgb, 1);
        }
    }
}

/* The path's emblem decal: a ring and a four-pointed star in worn ochre
   paint; alpha is the paint's coverage (with wear). Its normal map
   (tangent space: red +u, green up the image, blue out) raises the ring. */
static float sw__emblem_height(float u, float v) {
    float r = hypotf(u, v);
    return sw__glb_smoothstep(0.58f, 0.66f, r) * (1.0f - sw__glb_smoothstep(0.8f, 0.88f, r));
}

static void sw__paint_emblem(uint8_t* out, int size, bool normal_map) {
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++) {
            float u = 2.0f * ((float)x + 0.5f) / (float)size - 1.0f, v = 2.0f * ((float)y + 0.5f) / (float)size - 1.0f;
            if (normal_map) {
                float e = 1.0f / (float)size, k = 0.15f;
                float du = (sw__emblem_height(u + e, v) - sw__emblem_height(u - e, v)) / (2 * e);
                float dv = (sw__emblem_height(u, v + e) - sw__emblem_height(u, v - e)) / (2 * e);
                sw_vec3 n = sw_vec3_normalize(sw_vec3_make(-k * du, k * dv, 1)); /* green: up the image = −v */
                uint8_t* px = &out[(y * size + x) * 3];
                px[0] = sw__glb_unorm8(0.5f + 0.5f * n.x), px[1] = sw__glb_unorm8(0.5f + 0.5f * n.y);
                px[2] = sw__glb_unorm8(0.5f + 0.5f * n.z);
                continue;
            }
            float ring = sw__emblem_height(u, v);
            float au = fabsf(u), av = fabsf(v);
            float star = (au + 4.0f * av < 0.55f || av + 4.0f * au < 0.55f) ? 1.0f : 0.0f;
            float wear = 0.75f + 0.25f * sw__tiled_noise(x, y, size, 16, 9);
            float rgb[3] = {0.62f, 0.38f, 0.08f};
            sw__put_rgba(&out[(y * size + x) * 4], 4, rgb, fmaxf(ring, star) * wear);
        }
}

/* The wall's sign decal (width 2 × height): a dark blue board with a
   light frame and two rows of "lettering" bars; alpha 0 round it. */
static void sw__paint_sign(uint8_t* out, int width, int height) {
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++) {
            float u = ((float)x + 0.5f) / (float)width, v = ((float)y + 0.5f) / (float)height;
            float edge = fminf(fminf(u, 1 - u) * 2.0f, fminf(v, 1 - v)); /* in board heights */
            bool board = edge > 0.06f, frame = edge < 0.12f;
            int column = x / 6, row = (int)(v * 4.0f);
            bool letter = (row == 1 || row == 2) && u > 0.12f && u < 0.88f && x % 6 < 4 &&
                          sw__hash01((uint32_t)(row * 40 + column) + 17u) < 0.7f;
            float blue[3] = {0.03f, 0.06f, 0.2f}, light[3] = {0.85f, 0.82f, 0.7f};
            sw__put_rgba(&out[(y * width + x) * 4], 4, frame || letter ? light : blue, board ? 1.0f : 0.0f);
        }
}

/* The samplers: tiling textures repeat; cards, crates and decals clamp. */
enum { SW__SS_REPEAT, SW__SS_CLAMP, SW__SS_COUNT };
static const sw__glb_sampler sw__stage_samplers[SW__SS_COUNT] = {
    [SW__SS_REPEAT] = {9729, 9987, 10497, 10497}, /* LINEAR, LINEAR_MIPMAP_LINEAR, REPEAT */
    [SW__SS_CLAMP] = {9729, 9987, 33071, 33071},  /* CLAMP_TO_EDGE */
};

static bool sw__add_stage_textures(sw__glb_writer* w) {
    uint8_t* px = sw__malloc(128 * 128 * 4);
    if (!px) return false;
    static const char* const names[SW__ST_COUNT] = {"ground", "crate_wood", "stone", "brick", "leaves",
                                                    "grass", "emblem", "emblem_normal", "sign"};
    for (int t = 0; t < SW__ST_COUNT && !w->failed; t++) {
        int width = 128, height = 128, comp = 3, sampler = SW__SS_CLAMP;
        switch (t) {
        case SW__ST_GROUND: sw__paint_ground(px, 128), sampler = SW__SS_REPEAT; break;
        case SW__ST_WOOD: width = height = 64, sw__paint_wood(px, 64); break;
        case SW__ST_STONE: width = height = 64, sw__paint_stone(px, 64), sampler = SW__SS_REPEAT; break;
        case SW__ST_BRICK: sw__paint_brick(px, 128), sampler = SW__SS_REPEAT; break;
        case SW__ST_LEAVES: comp = 4, sw__paint_leaves(px, 128); break;
        case SW__ST_GRASS: comp = 4, sw__paint_grass(px, 128); break;
        case SW__ST_EMBLEM: comp = 4, sw__paint_emblem(px, 128, false); break;
        case SW__ST_EMBLEM_NORMAL: sw__paint_emblem(px, 128, true); break;
        default: comp = 4, height = 64, sw__paint_sign(px, 128, 64); break;
        }
        sw__glb_add_png(w, names[t], px, width, height, comp, sampler);
    }
    sw__free(px);
    return !w->failed;
}

/* ---- nodes, lights and decals ---------------------------------------------------------------- */

enum { SW__LIGHT_LANTERN, SW__LIGHT_SPOT, SW__LIGHT_COUNT };

typedef struct sw__stage_decal {
    float base_color[4];
    int base_texture, normal_texture; /* -1 = none */
    float opacity, normal_strength;
} sw__stage_decal;

typedef struct sw__stage_node {
    const char* name;
    int mesh;          /* -1 = none */
    float translation[3];
    float yaw_deg;     /* about +Y; ignored when `aim` is set */
    bool aim;          /* turn the node's −Z towards `target` (the spot light) */
    float target[3];
    float pitch_deg;   /* about +X, after yaw (the wall decal stands up) */
    float scale[3];    /* 0 = 1 */
    int light;         /* -1 = none */
    const sw__stage_decal* decal;
} sw__stage_node;

static const sw__stage_decal sw__path_emblem = {{1, 1, 1, 1}, SW__ST_EMBLEM, SW__ST_EMBLEM_NORMAL, 0.9f, 1.0f};
static const sw__stage_decal sw__wall_sign = {{1, 1, 1, 1}, SW__ST_SIGN, -1, 1.0f, 0.0f};

#define SW__STAGE_NODE_COUNT 16

/* The path emblem sits on the path 1.5 m in front of her; its x is
   sw__path_x(1.5) = 1.0 + 0.6 sin(0.525) ≈ 1.3006. */
static const sw__stage_node sw__stage_nodes[SW__STAGE_NODE_COUNT] = {
    {"ground", SW__SMESH_GROUND, {0, 0, 0}, 0, false, {0}, 0, {0}, -1, NULL},
    {"crate_a", SW__SMESH_CRATE, {-2.1f, 0, -1.2f}, 20, false, {0}, 0, {0}, -1, NULL},
    {"crate_b", SW__SMESH_CRATE, {-2.8f, 0, -1.65f}, -10, false, {0}, 0, {0}, -1, NULL},
    {"crate_c", SW__SMESH_CRATE, {-2.45f, 0.7f, -1.4f}, 35, false, {0}, 0, {0}, -1, NULL},
    {"stone_lantern", SW__SMESH_LANTERN, {2.3f, 0, -1.6f}, 0, false, {0}, 0, {0}, -1, NULL},
    {"lantern_light", -1, {2.3f, 1.24f, -1.6f}, 0, false, {0}, 0, {0}, SW__LIGHT_LANTERN, NULL},
    {"wall", SW__SMESH_WALL, {0, 0, 0}, 0, false, {0}, 0, {0}, -1, NULL},
    {"red_wall", SW__SMESH_RED_WALL, {-3.4f, 0, 0.4f}, 0, false, {0}, 0, {0}, -1, NULL},
    {"steps", SW__SMESH_STEPS, {4.3f, 0, -2.9f}, 0, false, {0}, 0, {0}, -1, NULL},
    {"tree", SW__SMESH_TREE, {-4.3f, 0, -2.6f}, 0, false, {0}, 0, {0}, -1, NULL},
    {"grass", SW__SMESH_GRASS, {0, 0, 0}, 0, false, {0}, 0, {0}, -1, NULL},
    {"window", SW__SMESH_WINDOW, {3.1f, 0, 0.3f}, -35, false, {0}, 0, {0}, -1, NULL},
    {"pond", SW__SMESH_POND, {-2.6f, 0.02f, 1.6f}, 0, false, {0}, 0, {0}, -1, NULL},
    {"spot_light", -1, {-1.5f, 3.6f, 2.5f}, 0, true, {0.5f, 0.0f, -1.5f}, 0, {0}, SW__LIGHT_SPOT, NULL},
    {"decal_path_emblem", -1, {1.3006f, 0, 1.5f}, 0, false, {0}, 0, {1.2f, 0.4f, 1.2f}, -1, &sw__path_emblem},
    {"decal_wall_sign", -1, {0, 1.75f, SW__WALL_Z}, 0, false, {0}, 90, {2.0f, 0.4f, 1.0f}, -1, &sw__wall_sign},
};

/* The node's rotation: yaw about +Y then pitch about +X (q = yaw · pitch),
   or the shortest turn of −Z onto the direction to its target. */
static sw_quat sw__stage_node_rotation(const sw__stage_node* n) {
    if (n->aim) {
        sw_vec3 d = sw_vec3_normalize(sw_vec3_make(n->target[0] - n->translation[0], n->target[1] - n->translation[1],
                                                   n->target[2] - n->translation[2]));
        sw_vec3 from = sw_vec3_make(0, 0, -1), axis = sw_vec3_cross(from, d);
        sw_quat q = {axis.x, axis.y, axis.z, 1.0f + sw_vec3_dot(from, d)};
        return sw_quat_normalize(q);
    }
    sw_quat yaw = sw_quat_from_axis_angle(sw_vec3_make(0, 1, 0), n->yaw_deg * (float)SW_PI / 180.0f);
    sw_quat pitch = sw_quat_from_axis_angle(sw_vec3_make(1, 0, 0), n->pitch_deg * (float)SW_PI / 180.0f);
    return sw_quat_mul(yaw, pitch);
}

/* ---- the JSON ------------------------------------------------------------------------------------ */

typedef struct sw__stage_prim_accessors {
    int position, normal, texcoord, color, indices; /* color: -1 = none */
} sw__stage_prim_accessors;

typedef struct sw__stage_build {
    sw__stage_geometry geometry;
    sw__glb_writer* w; /* large: on the heap */
    sw__stage_prim_accessors prims[SW__SMESH_COUNT][SW__STAGE_MAX_PRIMS];
} sw__stage_build;

static bool sw__write_stage_buffers(sw__stage_build* d) {
    sw__glb_writer* w = d->w;
    for (int m = 0; m < SW__SMESH_COUNT; m++)
        for (int i = 0; i < d->geometry.meshes[m].prim_count; i++) {
            const sw__stage_prim* p = &d->geometry.meshes[m].prims[i];
            sw__stage_prim_accessors* a = &d->prims[m][i];
            size_t n = p->vertex_count;
            float* floats = sw__malloc(n * 4 * sizeof(float));
            if (!floats) return false;
            for (size_t v = 0; v < n; v++) memcpy(&floats[v * 3], p->vertices[v].position, 3 * sizeof(float));
            a->position = sw__glb_add_float_accessor(w, floats, n, "VEC3", SW__GL_ARRAY_BUFFER, true);
            for (size_t v = 0; v < n; v++) memcpy(&floats[v * 3], p->vertices[v].normal, 3 * sizeof(float));
            a->normal = sw__glb_add_float_accessor(w, floats, n, "VEC3", SW__GL_ARRAY_BUFFER, false);
            for (size_t v = 0; v < n; v++) memcpy(&floats[v * 2], p->vertices[v].uv, 2 * sizeof(float));
            a->texcoord = sw__glb_add_float_accessor(w, floats, n, "VEC2", SW__GL_ARRAY_BUFFER, false);
            a->color = -1;
            if (p->colors) {
                for (size_t v = 0; v < n; v++) memcpy(&floats[v * 4], p->vertices[v].color, 4 * sizeof(float));
                a->color = sw__glb_add_float_accessor(w, floats, n, "VEC4", SW__GL_ARRAY_BUFFER, false);
            }
            sw__free(floats);
            a->indices = sw__glb_add_accessor(w, p->indices, p->index_count * sizeof(uint16_t), SW__GL_UNSIGNED_SHORT,
                                              p->index_count, "SCALAR", SW__GL_ELEMENT_ARRAY_BUFFER);
        }
    return !w->failed;
}

static void sw__json_stage_meshes(sw__glb_json* b, cJSON* root, const sw__stage_build* d) {
    cJSON* meshes = sw__glb_json_array(b, root, "meshes");
    for (int m = 0; m < SW__SMESH_COUNT; m++) {
        const sw__stage_mesh* mesh = &d->geometry.meshes[m];
        cJSON* mesh_json = sw__glb_json_object(b, meshes, NULL);
        sw__glb_json_string(b, mesh_json, "name", mesh->name);
        cJSON* primitives = sw__glb_json_array(b, mesh_json, "primitives");
        for (int i = 0; i < mesh->prim_count; i++) {
            const sw__stage_prim_accessors* a = &d->prims[m][i];
            cJSON* primitive = sw__glb_json_object(b, primitives, NULL);
            cJSON* attributes = sw__glb_json_object(b, primitive, "attributes");
            sw__glb_json_int(b, attributes, "POSITION", a->position);
            sw__glb_json_int(b, attributes, "NORMAL", a->normal);
            sw__glb_json_int(b, attributes, "TEXCOORD_0", a->texcoord);
            if (a->color >= 0) sw__glb_json_int(b, attributes, "COLOR_0", a->color);
            sw__glb_json_int(b, primitive, "indices", a->indices);
            sw__glb_json_int(b, primitive, "material", mesh->prims[i].material);
            sw__glb_json_int(b, primitive, "mode", 4);
        }
    }
}

static void sw__json_stage_materials(sw__glb_json* b, cJSON* root) {
    static const char* const modes[] = {"OPAQUE", "MASK", "BLEND"};
    cJSON* materials = sw__glb_json_array(b, root, "materials");
    for (int m = 0; m < SW__SM_COUNT; m++) {
        const sw__stage_look* look = &sw__stage_looks[m];
        cJSON* material = sw__glb_json_object(b, materials, NULL);
        sw__glb_json_string(b, material, "name", look->name);
        cJSON* pbr = sw__glb_json_object(b, material, "pbrMetallicRoughness");
        sw__glb_json_add(b, pbr, "baseColorFactor", sw__glb_json_floats(b, look->base_color, 4));
        sw__glb_json_texture_info(b, pbr, "baseColorTexture", look->texture, 0);
        sw__glb_json_add(b, pbr, "metallicFactor", sw__glb_json_float(look->metallic));
        sw__glb_json_add(b, pbr, "roughnessFactor", sw__glb_json_float(look->roughness));
        if (look->emissive[0] > 0 || look->emissive[1] > 0 || look->emissive[2] > 0)
            sw__glb_json_add(b, material, "emissiveFactor", sw__glb_json_floats(b, look->emissive, 3));
        if (look->alpha != SW__OPAQUE) sw__glb_json_string(b, material, "alphaMode", modes[look->alpha]);
        if (look->alpha == SW__MASK) sw__glb_json_add(b, material, "alphaCutoff", sw__glb_json_float(0.5f));
        if (look->double_sided) sw__glb_json_bool(b, material, "doubleSided", true);
        if (m == SW__SM_GROUND) { /* the snow over the ground (docs/snow.md) */
            static const float cover[3] = {0.86f, 0.9f, 0.98f};
            cJSON* snow = sw__glb_json_object(b, sw__glb_json_object(b, material, "extensions"), "SW_materials_snow");
            sw__glb_json_add(b, snow, "coverColor", sw__glb_json_floats(b, cover, 3));
            sw__glb_json_add(b, snow, "threshold", sw__glb_json_float(0.53f));
            sw__glb_json_add(b, snow, "width", sw__glb_json_float(0.34f));
            sw__glb_json_add(b, snow, "roughness", sw__glb_json_float(0.8f));
            sw__glb_json_add(b, snow, "sparkle", sw__glb_json_float(1.0f));
        }
    }
}

/* The root's KHR_lights_punctual: a warm point light in the lantern
   (range 8 m) and a cool spot light over the scene. */
static void sw__json_stage_lights(sw__glb_json* b, cJSON* root) {
    cJSON* lights = sw__glb_json_array(
        b, sw__glb_json_object(b, sw__glb_json_object(b, root, "extensions"), "KHR_lights_punctual"), "lights");
    const float warm[3] = {1.0f, 0.62f, 0.3f}, cool[3] = {0.85f, 0.9f, 1.0f};
    cJSON* point = sw__glb_json_object(b, lights, NULL);
    sw__glb_json_string(b, point, "name", "lantern");
    sw__glb_json_string(b, point, "type", "point");
    sw__glb_json_add(b, point, "color", sw__glb_json_floats(b, warm, 3));
    sw__glb_json_int(b, point, "intensity", 6);
    sw__glb_json_int(b, point, "range", 8);
    cJSON* spot = sw__glb_json_object(b, lights, NULL);
    sw__glb_json_string(b, spot, "name", "spot");
    sw__glb_json_string(b, spot, "type", "spot");
    sw__glb_json_add(b, spot, "color", sw__glb_json_floats(b, cool, 3));
    sw__glb_json_int(b, spot, "intensity", 40);
    sw__glb_json_int(b, spot, "range", 14);
    cJSON* cone = sw__glb_json_object(b, spot, "spot");
    sw__glb_json_add(b, cone, "innerConeAngle", sw__glb_json_float(0.3f));
    sw__glb_json_add(b, cone, "outerConeAngle", sw__glb_json_float(0.5f));
}

static void sw__json_stage_decal(sw__glb_json* b, cJSON* node, const sw__stage_decal* decal) {
    cJSON* x = sw__glb_json_object(b, sw__glb_json_object(b, node, "extensions"), "SW_decal");
    sw__glb_json_add(b, x, "baseColorFactor", sw__glb_json_floats(b, decal->base_color, 4));
    if (decal->base_texture >= 0) sw__glb_json_int(b, x, "baseColorTexture", decal->base_texture);
    if (decal->normal_texture >= 0) sw__glb_json_int(b, x, "normalTexture", decal->normal_texture);
    sw__glb_json_add(b, x, "opacity", sw__glb_json_float(decal->opacity));
    sw__glb_json_add(b, x, "normalStrength", sw__glb_json_float(decal->normal_strength));
}

static void sw__json_stage_nodes(sw__glb_json* b, cJSON* root) {
    cJSON* asset = sw__glb_json_object(b, root, "asset");
    sw__glb_json_string(b, asset, "version", "2.0");
    sw__glb_json_string(b, asset, "generator", "sinew " SW_VERSION_STRING " built-in demo stage");
    sw__glb_json_int(b, root, "scene", 0);
    cJSON* scene = sw__glb_json_object(b, sw__glb_json_array(b, root, "scenes"), NULL);
    sw__glb_json_string(b, scene, "name", "demo stage");
    cJSON* roots = sw__glb_json_array(b, scene, "nodes");
    cJSON* nodes = sw__glb_json_array(b, root, "nodes");
    for (int i = 0; i < SW__STAGE_NODE_COUNT; i++) {
        const sw__stage_node* n = &sw__stage_nodes[i];
        sw__glb_json_int(b, roots, NULL, i);
        cJSON* node = sw__glb_json_object(b, nodes, NULL);
        sw__glb_json_string(b, node, "name", n->name);
        if (n->mesh >= 0) sw__glb_json_int(b, node, "mesh", n->mesh);
        sw__glb_json_add(b, node, "translation", sw__glb_json_floats(b, n->translation, 3));
        if (n->aim || n->yaw_deg != 0 || n->pitch_deg != 0) {
            sw_quat q = sw__stage_node_rotation(n);
            const float rotation[4] = {q.x, q.y, q.z, q.w};
            sw__glb_json_add(b, node, "rotation", sw__glb_json_floats(b, rotation, 4));
        }
        if (n->scale[0] > 0) sw__glb_json_add(b, node, "scale", sw__glb_json_floats(b, n->scale, 3));
        if (n->light >= 0) {
            cJSON* x = sw__glb_json_object(b, sw__glb_json_object(b, node, "extensions"), "KHR_lights_punctual");
            sw__glb_json_int(b, x, "light", n->light);
        }
        if (n->decal) sw__json_stage_decal(b, node, n->decal);
    }
}

static cJSON* sw__build_stage_json(const sw__stage_build* d) {
    sw__glb_json b = {false};
    sw__cjson_use_allocator();
    cJSON* root = cJSON_CreateObject();
    if (!root) return NULL;
    sw__json_stage_nodes(&b, root);
    sw__json_stage_meshes(&b, root, d);
    sw__json_stage_materials(&b, root);
    sw__glb_json_images(&b, root, d->w, sw__stage_samplers, SW__SS_COUNT);
    sw__glb_json_buffers(&b, root, d->w);
    sw__json_stage_lights(&b, root);
    cJSON* used = sw__glb_json_array(&b, root, "extensionsUsed");
    sw__glb_json_string(&b, used, NULL, "KHR_lights_punctual");
    sw__glb_json_string(&b, used, NULL, "SW_decal");
    sw__glb_json_string(&b, used, NULL, "SW_materials_snow");
    if (b.failed) {
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}

sw_result sw_demo_stage_glb(uint8_t** out_glb, size_t* out_size, sw_diag* diag) {
    SW_ASSERT(out_glb && out_size);
    *out_glb = NULL;
    *out_size = 0;
    sw__stage_build d;
    memset(&d, 0, sizeof d);
    const char* stage = "the writer";
    bool ok = (d.w = sw__calloc(1, sizeof *d.w)) != NULL;
    if (ok) {
        stage = "the geometry";
        sw__build_geometry(&d.geometry);
        ok = !d.geometry.failed;
    }
    if (ok) stage = "the buffers", ok = sw__write_stage_buffers(&d);
    if (ok) stage = "the textures", ok = sw__add_stage_textures(d.w);
    if (ok) {
        stage = "the GLB";
        cJSON* tree = sw__build_stage_json(&d);
        ok = sw__glb_assemble(tree, d.w, out_glb, out_size);
        cJSON_Delete(tree);
    }
    sw__free_geometry(&d.geometry);
    sw__glb_writer_free(d.w);
    if (!ok) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "demo stage: out of memory while building %s", stage);
    return SW_OK;
}

void sw_demo_stage_glb_free(uint8_t* glb) { sw__free(glb); }
