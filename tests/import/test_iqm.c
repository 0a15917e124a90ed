/* sinew's IQM reader (sinew/iqm.h).

   - A small IQM written here byte by byte (two joints, a quad, a looping
     clip at framerate 0): names, tree, the axis node, winding, weights,
     material, and posed vertices against hand-computed positions.
   - iqm/guy.iqm and guyanim.iqm (SINEW_ASSETS; skipped when unset): the
     counts and clips against the file's header, anims and text read here
     with plain byte reads (not the reader), and the character posed over
     both clips against the per-frame bounding boxes the exporter stored in
     the file; guyanim's clips (an animation file: poses, no joint names)
     named by guy's skeleton and merged by name give guy's own poses.
   - Hostile input: the fixture and guy.iqm truncated at every 16th of
     their length and with 200 random bit flips (fixed seeds), plus
     targeted damage: a clear one-line error naming the file, or a model
     that poses and skins without a crash (run under ASan/UBSan too). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "test_pose.h"
#include "test_random.h"
#include "sinew/import.h"
#include "sinew/iqm.h"
#include "sinew/pose.h"
#include "sinew/retarget.h"

static const char* assets(void) { return getenv("SINEW_ASSETS"); }

/* ---- little-endian bytes, read and written here (not by the reader) ---- */

static uint32_t get_u32(const uint8_t* p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static float get_f32(const uint8_t* p) {
    uint32_t u = get_u32(p);
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static void put_u32(uint8_t* p, uint32_t v) {
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static void put_f32(uint8_t* p, float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    put_u32(p, u);
}

static uint8_t* read_all(const char* path, size_t* size) {
    FILE* f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t* data = n > 0 ? malloc((size_t)n) : NULL;
    if (data && fread(data, 1, (size_t)n, f) != (size_t)n) {
        free(data);
        data = NULL;
    }
    fclose(f);
    *size = data ? (size_t)n : 0;
    return data;
}

/* ---- posing ----------------------------------------------------------------------------- */

/* World positions of (node, primitive 0)'s vertices at the pose, into out
   (vertex_count × 3); false when deforming fails. */
static bool deform(const sw_model* m, const sw_pose* pose, size_t node, float* out) {
    size_t scratch_size = sw_deform_scratch_size(m, node, 0);
    void* scratch = aligned_alloc(16, (scratch_size + 15) / 16 * 16 + 16);
    sw_deform d = {.node = node, .primitive = 0, .scratch = scratch, .out_positions = out};
    sw_diag diag;
    bool ok = scratch && sw_deform_primitive(m, pose, &d, &diag) == SW_OK;
    if (scratch && !ok) fprintf(stderr, "  deform: %s\n", diag.message);
    free(scratch);
    return ok;
}

static int node_with_mesh(const sw_model* m) {
    for (size_t i = 0; i < m->node_count; i++)
        if (m->nodes[i].mesh >= 0) return (int)i;
    return -1;
}

static const sw_clip* clip_named(const sw_model* m, const char* name) {
    for (size_t i = 0; i < m->animation_count; i++)
        if (m->animations[i].name && strcmp(m->animations[i].name, name) == 0) return &m->animations[i];
    return NULL;
}

/* ---- the fixture --------------------------------------------------------------------------- */

/* Offsets of the fixture's blocks (each 4-aligned, in file order). */
enum {
    FX_TEXT = 124,                 /* 40 bytes */
    FX_MESHES = FX_TEXT + 40,      /* 1 × 24 */
    FX_ARRAYS = FX_MESHES + 24,    /* 5 × 20 */
    FX_POS = FX_ARRAYS + 100,      /* 4 × 12 */
    FX_NORMAL = FX_POS + 48,       /* 4 × 12 */
    FX_TEX = FX_NORMAL + 48,       /* 4 × 8 */
    FX_INDEX = FX_TEX + 32,        /* 4 × 4 */
    FX_WEIGHT = FX_INDEX + 16,     /* 4 × 4 */
    FX_TRIS = FX_WEIGHT + 16,      /* 2 × 12 */
    FX_JOINTS = FX_TRIS + 24,      /* 2 × 48 */
    FX_POSES = FX_JOINTS + 96,     /* 2 × 88 */
    FX_ANIMS = FX_POSES + 176,     /* 1 × 20 */
    FX_FRAMES = FX_ANIMS + 20,     /* 3 × 1 ushort, padded to 8 */
    FX_SIZE = FX_FRAMES + 8,
};

/* "\0root\0tip\0quad\0skin.png\0wave\0" and where each name starts. */
static const char fx_text[40] = "\0root\0tip\0quad\0skin.png\0wave";
enum { T_ROOT = 1, T_TIP = 6, T_QUAD = 10, T_SKIN = 15, T_WAVE = 24 };

/* Two joints (root at the origin, tip 1 up Z), a 2 × 2 quad in the XZ
   plane facing −Y (Blender's front), bottom corners on root, top right
   128/255 tip + 127/255 root, top left 100 + 100 (renormalised to ½, ½),
   two triangles wound clockwise as IQM's tools write them; one clip
   "wave" of 3 frames at framerate 0 (25 fps), looping, moving the tip's
   z from 1 to 1.5 to 2. */
static void fixture(uint8_t* b) {
    memset(b, 0, FX_SIZE);
    memcpy(b, "INTERQUAKEMODEL", 16);
    const uint32_t header[27] = {2,          FX_SIZE,   0, 40, FX_TEXT, 1, FX_MESHES, 5,         4,
                                 FX_ARRAYS,  2,         FX_TRIS, 0, 2, FX_JOINTS, 2, FX_POSES, 1,
                                 FX_ANIMS,   3,         1,         FX_FRAMES, 0, 0, 0, 0, 0};
    for (int i = 0; i < 27; i++) put_u32(b + 16 + 4 * i, header[i]);
    memcpy(b + FX_TEXT, fx_text, sizeof fx_text);
    const uint32_t mesh[6] = {T_QUAD, T_SKIN, 0, 4, 0, 2};
    for (int i = 0; i < 6; i++) put_u32(b + FX_MESHES + 4 * i, mesh[i]);
    /* type, flags, format, size, offset: position, normal, texcoord, blend indexes, blend weights */
    const uint32_t arrays[5][5] = {
        {0, 0, 7, 3, FX_POS}, {2, 0, 7, 3, FX_NORMAL}, {1, 0, 7, 2, FX_TEX}, {4, 0, 1, 4, FX_INDEX},
        {5, 0, 1, 4, FX_WEIGHT}};
    for (int a = 0; a < 5; a++)
        for (int i = 0; i < 5; i++) put_u32(b + FX_ARRAYS + 20 * a + 4 * i, arrays[a][i]);
    const float pos[4][3] = {{-1, 0, 0}, {1, 0, 0}, {1, 0, 2}, {-1, 0, 2}};
    const float uv[4][2] = {{0, 1}, {1, 1}, {1, 0}, {0, 0}};
    for (int v = 0; v < 4; v++) {
        for (int c = 0; c < 3; c++) put_f32(b + FX_POS + 12 * v + 4 * c, pos[v][c]);
        put_f32(b + FX_NORMAL + 12 * v + 4, -1.0f);
        for (int c = 0; c < 2; c++) put_f32(b + FX_TEX + 8 * v + 4 * c, uv[v][c]);
    }
    const uint8_t index[4][4] = {{0, 0, 0, 0}, {0, 0, 0, 0}, {1, 0, 0, 0}, {1, 0, 0, 0}};
    const uint8_t weight[4][4] = {{255, 0, 0, 0}, {255, 0, 0, 0}, {128, 127, 0, 0}, {100, 100, 0, 0}};
    memcpy(b + FX_INDEX, index, 16);
    memcpy(b + FX_WEIGHT, weight, 16);
    const uint32_t tris[2][3] = {{0, 2, 1}, {0, 3, 2}};
    for (int t = 0; t < 2; t++)
        for (int c = 0; c < 3; c++) put_u32(b + FX_TRIS + 12 * t + 4 * c, tris[t][c]);
    /* joints: name, parent, translate, rotate (x y z w), scale */
    const float rest[2][10] = {{0, 0, 0, 0, 0, 0, 1, 1, 1, 1}, {0, 0, 1, 0, 0, 0, 1, 1, 1, 1}};
    for (int j = 0; j < 2; j++) {
        put_u32(b + FX_JOINTS + 48 * j, j ? T_TIP : T_ROOT);
        put_u32(b + FX_JOINTS + 48 * j + 4, j ? 0u : 0xFFFFFFFFu);
        for (int c = 0; c < 10; c++) put_f32(b + FX_JOINTS + 48 * j + 8 + 4 * c, rest[j][c]);
        /* poses: parent, mask, offsets = the rest values; the tip animates translate z */
        put_u32(b + FX_POSES + 88 * j, j ? 0u : 0xFFFFFFFFu);
        put_u32(b + FX_POSES + 88 * j + 4, j ? 0x4u : 0u);
        for (int c = 0; c < 10; c++) put_f32(b + FX_POSES + 88 * j + 8 + 4 * c, rest[j][c]);
        if (j) put_f32(b + FX_POSES + 88 * j + 48 + 4 * 2, 0.001f);
    }
    const uint32_t anim[5] = {T_WAVE, 0, 3, 0 /* framerate 0.0f */, 1 /* loop */};
    for (int i = 0; i < 5; i++) put_u32(b + FX_ANIMS + 4 * i, anim[i]);
    const uint16_t frames[3] = {0, 500, 1000};
    for (int f = 0; f < 3; f++) b[FX_FRAMES + 2 * f] = (uint8_t)frames[f], b[FX_FRAMES + 2 * f + 1] = (uint8_t)(frames[f] >> 8);
}

static sw_model* load_fixture(const uint8_t* b, size_t size, const sw_iqm_options* o, sw_diag* d) {
    sw_model* m = NULL;
    if (sw_iqm_load_memory(b, size, "fixture.iqm", NULL, o, &m, d) != SW_OK) return NULL;
    return m;
}

static void test_fixture_structure(void) {
    uint8_t b[FX_SIZE];
    fixture(b);
    sw_diag d;
    sw_model* m = load_fixture(b, sizeof b, NULL, &d);
    if (!m) fprintf(stderr, "  %s\n", d.message);
    SW_CHECK(m != NULL);
    if (!m) return;
    SW_CHECK(strcmp(m->format, "IQM") == 0);
    SW_CHECK(strcmp(m->up_axis_read, "+Z") == 0);
    SW_CHECK_EQ_INT(m->warning_count, 0);
    SW_CHECK_EQ_INT(m->node_count, 4);
    SW_CHECK(strcmp(m->nodes[0].name, "iqm_axes") == 0 && m->nodes[0].parent == -1);
    SW_CHECK(strcmp(m->nodes[1].name, "root") == 0 && m->nodes[1].parent == 0);
    SW_CHECK(strcmp(m->nodes[2].name, "tip") == 0 && m->nodes[2].parent == 1);
    SW_CHECK(strcmp(m->nodes[3].name, "quad") == 0 && m->nodes[3].mesh == 0 && m->nodes[3].skin == 0);
    SW_CHECK_EQ_INT(m->skin_count, 1);
    SW_CHECK_EQ_INT(m->skins[0].joint_count, 2);
    const sw_model_primitive* p = &m->meshes[0].primitives[0];
    SW_CHECK_EQ_INT(p->vertex_count, 4);
    SW_CHECK_EQ_INT(p->index_count, 6);
    /* IQM's clockwise (0 2 1), (0 3 2) read counter-clockwise */
    static const uint32_t ccw[6] = {0, 1, 2, 0, 2, 3};
    for (int i = 0; i < 6 && p->index_count == 6; i++) SW_CHECK_EQ_INT(p->indices[i], ccw[i]);
    SW_CHECK_EQ_INT(p->influence_count, 4);
    SW_CHECK_EQ_INT(p->joints[2 * 4], 1);
    SW_CHECK_NEAR(p->weights[2 * 4], 128.0 / 255.0, 1e-6);
    SW_CHECK_NEAR(p->weights[2 * 4 + 1], 127.0 / 255.0, 1e-6);
    SW_CHECK_NEAR(p->weights[3 * 4], 0.5, 1e-6); /* 100/255 + 100/255 renormalised */
    SW_CHECK_NEAR(p->weights[3 * 4 + 1], 0.5, 1e-6);
    SW_CHECK_NEAR(p->weights[0], 1.0, 0.0);
    SW_CHECK(p->texcoord_count == 1 && p->texcoords[0][1] == 1.0f); /* as stored: IQM's origin is glTF's */
    SW_CHECK_EQ_INT(m->material_count, 1);
    SW_CHECK(strcmp(m->materials[0].name, "skin.png") == 0);
    SW_CHECK(m->materials[0].base_color_texture.texture == 0 && m->image_count == 1 &&
             strcmp(m->images[0].uri, "skin.png") == 0);
    SW_CHECK_EQ_INT(m->animation_count, 1);
    SW_CHECK(strcmp(m->animations[0].name, "wave") == 0);
    SW_CHECK_NEAR(m->animations[0].duration, 3.0 / 25.0, 1e-6); /* framerate 0 → 25, looping: 3 frames */
    sw_model_free(m);
}

/* The quad skinned: at rest the file's (x, y, z) lands at (x, z, −y);
   posed, the tip's z (1 → 1.5 → 2, then back to 1 when the loop closes)
   lifts the top corners by their tip weight. */
static void test_fixture_posed(void) {
    uint8_t b[FX_SIZE];
    fixture(b);
    sw_diag d;
    sw_model* m = load_fixture(b, sizeof b, NULL, &d);
    SW_CHECK(m != NULL);
    if (!m) return;
    posed p;
    SW_CHECK(pose_make(m, &p));
    float out[12];
    sw_pose_rest(m, &p.pose);
    sw_pose_update(m, &p.pose);
    SW_CHECK(deform(m, &p.pose, 3, out));
    static const float rest[4][3] = {{-1, 0, 0}, {1, 0, 0}, {1, 2, 0}, {-1, 2, 0}};
    for (int v = 0; v < 4; v++)
        for (int c = 0; c < 3; c++) SW_CHECK_NEAR(out[v * 3 + c], rest[v][c], 1e-5);
    /* the tip's world position: (0, 1, 0) at rest */
    SW_CHECK_NEAR(p.pose.world[2].m[1][3], 1.0, 1e-6);
    static const struct {
        float t, lift; /* the tip's z − 1 */
    } at[] = {{0.0f, 0.0f}, {0.04f, 0.5f}, {0.06f, 0.75f}, {0.08f, 1.0f}, {0.10f, 0.5f}};
    for (size_t k = 0; k < sizeof at / sizeof at[0]; k++) {
        SW_CHECK(sw_pose_evaluate(m, &m->animations[0], at[k].t, false, &p.pose, &d) == SW_OK);
        SW_CHECK(deform(m, &p.pose, 3, out));
        SW_CHECK_NEAR(out[2 * 3 + 1], 2.0 + at[k].lift * 128.0 / 255.0, 1e-4);
        SW_CHECK_NEAR(out[3 * 3 + 1], 2.0 + at[k].lift * 0.5, 1e-4);
        SW_CHECK_NEAR(out[0 * 3 + 1], 0.0, 1e-6);
        SW_CHECK_NEAR(out[2 * 3 + 2], 0.0, 1e-6);
    }
    free(p.memory);
    sw_model_free(m);
}

/* Targeted damage: each a clear error naming the file and the problem. */
static void test_fixture_damage(void) {
    static const struct {
        size_t offset;
        uint32_t value;
        const char* expect;
    } cases[] = {
        {FX_JOINTS + 48 + 4, 1, "parent"},                  /* tip is its own parent */
        {FX_JOINTS + 48 + 4, 7, "parent"},                  /* a parent after it */
        {FX_MESHES, 9999, "outside the 40-byte text"},     /* a name beyond the text */
        {16 + 4 * 3, 28, "runs past the end"},              /* the text cut inside "wave" */
        {FX_TRIS + 4, 4, "outside the mesh's vertices"},    /* a triangle beyond the mesh */
        {16, 1, "version 1"},                                /* IQM 1 */
        {16 + 4, FX_SIZE + 4, "truncated"},                  /* the header's size beyond the file */
        {16 + 4 * 19, 0xFFFFFFFFu, "frame channels"},       /* num_frames 2^32 − 1 */
        {16 + 4 * 20, 2, "channels"},                        /* poses animate 1 channel, not 2 */
        {16 + 4 * 8, 1u << 30, "position components"},       /* 2^30 vertices */
        {16 + 4 * 14, 0, "offset 0"},                        /* the joints inside the header */
        {FX_ARRAYS + 8, 3, "positions in format"},           /* positions as ushort */
        {FX_POS + 4, 0x7FC00000u, "not finite"},             /* a NaN position */
        {FX_MESHES + 8, 2, "vertices 2..6 of 4"},           /* the mesh's vertices beyond the file's */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint8_t b[FX_SIZE];
        fixture(b);
        put_u32(b + cases[i].offset, cases[i].value);
        sw_diag d;
        sw_model* m = load_fixture(b, sizeof b, NULL, &d);
        if (m) fprintf(stderr, "  case %zu (\"%s\") loaded\n", i, cases[i].expect);
        SW_CHECK(m == NULL);
        sw_model_free(m);
        if (m) continue;
        bool ok = strncmp(d.message, "fixture.iqm: ", 13) == 0 && strstr(d.message, cases[i].expect) &&
                  !strchr(d.message, '\n');
        if (!ok) fprintf(stderr, "  case %zu: \"%s\" (expected \"%s\")\n", i, d.message, cases[i].expect);
        SW_CHECK(ok);
    }
    /* a blend index beyond the joints, with weight */
    uint8_t b[FX_SIZE];
    fixture(b);
    b[FX_INDEX] = 2;
    sw_diag d;
    sw_model* m = load_fixture(b, sizeof b, NULL, &d);
    SW_CHECK(m == NULL && strstr(d.message, "weighted to joint 2 of 2"));
    sw_model_free(m);
    /* ...and with weight 0 it is no error (the exporter pads with any joint) */
    fixture(b);
    b[FX_INDEX + 3] = 200;
    m = load_fixture(b, sizeof b, NULL, &d);
    SW_CHECK(m != NULL);
    sw_model_free(m);
    /* a clip of 2^32 − 16 frames that animates nothing costs the file no
       bytes: it loads at once, as two keys per track, lasting its frames */
    fixture(b);
    put_u32(b + 16 + 4 * 19, 0xFFFFFFFFu); /* num_frames */
    put_u32(b + 16 + 4 * 20, 0);           /* num_framechannels */
    put_u32(b + FX_POSES + 88 + 4, 0);     /* the tip's mask */
    put_u32(b + FX_ANIMS + 8, 0xFFFFFFF0u);
    m = load_fixture(b, sizeof b, NULL, &d);
    SW_CHECK(m != NULL);
    if (m) {
        SW_CHECK_NEAR(m->animations[0].duration, 4294967280.0 / 25.0, 1e3);
        SW_CHECK_EQ_INT(m->animations[0].tracks[0].key_count, 2);
    }
    sw_model_free(m);
}

/* ---- guy.iqm and guyanim.iqm -------------------------------------------------------------- */

/* What the file says, read with plain byte reads. */
typedef struct iqm_facts {
    uint32_t joints, vertexes, triangles, anims, poses, frames, ofs_bounds;
    char anim_name[4][32];
    uint32_t anim_first[4], anim_frames[4], anim_flags[4];
    float anim_fps[4];
} iqm_facts;

static bool facts_of(const uint8_t* b, size_t size, iqm_facts* f) {
    memset(f, 0, sizeof *f);
    if (size < 124 || memcmp(b, "INTERQUAKEMODEL", 16) != 0) return false;
    const uint8_t* h = b + 16; /* version, filesize, flags, then the counts and offsets */
    uint32_t num_text = get_u32(h + 12), ofs_text = get_u32(h + 16);
    f->vertexes = get_u32(h + 32), f->triangles = get_u32(h + 40), f->joints = get_u32(h + 52);
    f->poses = get_u32(h + 60), f->anims = get_u32(h + 68), f->frames = get_u32(h + 76);
    f->ofs_bounds = get_u32(h + 88);
    uint32_t ofs_anims = get_u32(h + 72);
    for (uint32_t a = 0; a < f->anims && a < 4; a++) {
        const uint8_t* r = b + ofs_anims + 20 * a;
        uint32_t name = get_u32(r);
        if (name >= num_text) return false;
        snprintf(f->anim_name[a], sizeof f->anim_name[a], "%s", (const char*)b + ofs_text + name);
        f->anim_first[a] = get_u32(r + 4), f->anim_frames[a] = get_u32(r + 8);
        f->anim_fps[a] = get_f32(r + 12), f->anim_flags[a] = get_u32(r + 16);
    }
    return true;
}

static sw_model* load_asset(const char* relative, const sw_import_options* o) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", assets(), relative);
    sw_model* m = NULL;
    sw_diag d;
    if (sw_import_file(path, o, &m, &d) != SW_OK) {
        fprintf(stderr, "  %s\n", d.message);
        return NULL;
    }
    return m;
}

/* guy.iqm: 14 joints, 240 vertices, 120 triangles, clips "jump" and
   "dance" (61 frames each at 24 fps, not looping: 60/24 = 2.5 s), all as
   the header says; guyanim.iqm: the same clips on 14 poses. */
static void test_guy_counts(void) {
    if (!assets()) SW_SKIP("SINEW_ASSETS is not set");
    char path[1024];
    size_t size;
    iqm_facts f;
    for (int file = 0; file < 2; file++) {
        snprintf(path, sizeof path, "%s/iqm/%s", assets(), file ? "guyanim.iqm" : "guy.iqm");
        uint8_t* b = read_all(path, &size);
        SW_CHECK(b && facts_of(b, size, &f));
        free(b);
        if (!b) return;
        sw_model* m = load_asset(file ? "iqm/guyanim.iqm" : "iqm/guy.iqm", NULL);
        SW_CHECK(m != NULL);
        if (!m) return;
        SW_CHECK(strcmp(m->format, "IQM") == 0);
        size_t vertices = 0, triangles = 0;
        for (size_t i = 0; i < m->mesh_count; i++)
            for (size_t k = 0; k < m->meshes[i].primitive_count; k++) {
                vertices += m->meshes[i].primitives[k].vertex_count;
                triangles += m->meshes[i].primitives[k].index_count / 3;
            }
        SW_CHECK_EQ_INT(vertices, f.vertexes);
        SW_CHECK_EQ_INT(triangles, f.triangles);
        if (f.joints) {
            SW_CHECK_EQ_INT(m->skin_count, 1);
            SW_CHECK_EQ_INT(m->skins[0].joint_count, f.joints);
        } else {
            SW_CHECK_EQ_INT(m->skin_count, 0);
            SW_CHECK_EQ_INT(m->node_count, 1 + f.poses); /* the axis node and one node per pose */
        }
        SW_CHECK_EQ_INT(m->animation_count, f.anims);
        for (uint32_t a = 0; a < f.anims && a < m->animation_count && a < 4; a++) {
            const sw_clip* c = &m->animations[a];
            SW_CHECK(strcmp(c->name, f.anim_name[a]) == 0);
            double fps = f.anim_fps[a] > 0 ? f.anim_fps[a] : 25.0;
            double frames = (f.anim_flags[a] & 1) ? f.anim_frames[a] : f.anim_frames[a] - 1.0;
            SW_CHECK_NEAR(c->duration, frames / fps, 1e-5);
            SW_CHECK_NEAR(c->start, 0.0, 0.0);
        }
        fprintf(stderr, "  %s: %u joints, %u poses, %u vertices, %u triangles, %u clips (%s %u frames at %g fps)\n",
                file ? "guyanim.iqm" : "guy.iqm", f.joints, f.poses, f.vertexes, f.triangles, f.anims, f.anim_name[0],
                f.anim_frames[0], (double)f.anim_fps[0]);
        sw_model_free(m);
    }
}

/* Rest geometry: triangles face where the file's normals point (the
   winding is turned), and the character stands +Y up, feet at 0, as tall
   as the file's Z extent. */
static void test_guy_rest(void) {
    if (!assets()) SW_SKIP("SINEW_ASSETS is not set");
    sw_model* m = load_asset("iqm/guy.iqm", NULL);
    SW_CHECK(m != NULL);
    if (!m) return;
    const sw_model_primitive* p = &m->meshes[0].primitives[0];
    size_t facing = 0;
    for (size_t t = 0; t + 2 < p->index_count; t += 3) {
        const uint32_t* i = &p->indices[t];
        sw_vec3 a = sw_vec3_make(p->positions[i[0] * 3], p->positions[i[0] * 3 + 1], p->positions[i[0] * 3 + 2]);
        sw_vec3 b = sw_vec3_make(p->positions[i[1] * 3], p->positions[i[1] * 3 + 1], p->positions[i[1] * 3 + 2]);
        sw_vec3 c = sw_vec3_make(p->positions[i[2] * 3], p->positions[i[2] * 3 + 1], p->positions[i[2] * 3 + 2]);
        sw_vec3 n = sw_vec3_cross(sw_vec3_sub(b, a), sw_vec3_sub(c, a));
        sw_vec3 avg = sw_vec3_make(0, 0, 0);
        for (int k = 0; k < 3; k++)
            avg = sw_vec3_add(avg, sw_vec3_make(p->normals[i[k] * 3], p->normals[i[k] * 3 + 1], p->normals[i[k] * 3 + 2]));
        facing += sw_vec3_dot(n, avg) > 0.0f;
    }
    SW_CHECK_EQ_INT(facing, p->index_count / 3);
    posed ps;
    SW_CHECK(pose_make(m, &ps));
    sw_pose_rest(m, &ps.pose);
    sw_pose_update(m, &ps.pose);
    float* out = malloc(p->vertex_count * 3 * sizeof *out);
    int node = node_with_mesh(m);
    SW_CHECK(out && node >= 0 && deform(m, &ps.pose, (size_t)node, out));
    float lo[3] = {1e30f, 1e30f, 1e30f}, hi[3] = {-1e30f, -1e30f, -1e30f};
    for (size_t v = 0; out && v < p->vertex_count; v++)
        for (int c = 0; c < 3; c++) {
            if (out[v * 3 + c] < lo[c]) lo[c] = out[v * 3 + c];
            if (out[v * 3 + c] > hi[c]) hi[c] = out[v * 3 + c];
        }
    /* file z ∈ [bounds_min[2], bounds_max[2]] is sinew's y; file −y is z */
    SW_CHECK_NEAR(lo[1], p->bounds_min[2], 1e-3);
    SW_CHECK_NEAR(hi[1], p->bounds_max[2], 1e-3);
    SW_CHECK_NEAR(lo[2], -p->bounds_max[1], 1e-3);
    SW_CHECK(hi[1] - lo[1] > 9.0f && hi[1] - lo[1] < 9.5f); /* 9.17 units tall, standing on y = 0 */
    SW_CHECK_NEAR(lo[1], 0.0, 0.05);
    free(out);
    free(ps.memory);
    sw_model_free(m);
}

/* Both clips posed every half second: finite, moving, and the skinned
   vertices' bounding box within 0.05 units (of a 9.2-unit character) of
   the box the exporter stored for that frame (file axes, turned here). */
static void test_guy_posed_against_file_bounds(void) {
    if (!assets()) SW_SKIP("SINEW_ASSETS is not set");
    char path[1024];
    snprintf(path, sizeof path, "%s/iqm/guy.iqm", assets());
    size_t size;
    uint8_t* b = read_all(path, &size);
    iqm_facts f;
    SW_CHECK(b && facts_of(b, size, &f) && f.ofs_bounds && f.ofs_bounds + 32ull * f.frames <= size);
    sw_model* m = load_asset("iqm/guy.iqm", NULL);
    SW_CHECK(m != NULL);
    if (!m || !b || !f.ofs_bounds) {
        free(b);
        sw_model_free(m);
        return;
    }
    const sw_model_primitive* p = &m->meshes[0].primitives[0];
    int node = node_with_mesh(m);
    posed ps;
    SW_CHECK(pose_make(m, &ps));
    float* out = malloc(p->vertex_count * 3 * sizeof *out);
    float* first = malloc(p->vertex_count * 3 * sizeof *first);
    double worst = 0.0, moved = 0.0;
    size_t compared = 0;
    for (uint32_t a = 0; a < f.anims && a < 2; a++) {
        const sw_clip* clip = clip_named(m, f.anim_name[a]);
        SW_CHECK(clip != NULL);
        for (uint32_t k = 0; clip && k < f.anim_frames[a]; k += 12) {
            float t = (float)k / f.anim_fps[a];
            sw_diag d;
            SW_CHECK(sw_pose_evaluate(m, clip, t, false, &ps.pose, &d) == SW_OK);
            SW_CHECK(deform(m, &ps.pose, (size_t)node, out));
            float lo[3] = {1e30f, 1e30f, 1e30f}, hi[3] = {-1e30f, -1e30f, -1e30f};
            bool finite = true;
            for (size_t v = 0; v < p->vertex_count; v++)
                for (int c = 0; c < 3; c++) {
                    float x = out[v * 3 + c];
                    finite = finite && isfinite(x);
                    if (x < lo[c]) lo[c] = x;
                    if (x > hi[c]) hi[c] = x;
                }
            SW_CHECK(finite);
            if (k == 0) memcpy(first, out, p->vertex_count * 3 * sizeof *out);
            for (size_t v = 0; v < p->vertex_count * 3; v++)
                if (fabs(out[v] - first[v]) > moved) moved = fabs(out[v] - first[v]);
            const uint8_t* r = b + f.ofs_bounds + 32 * (f.anim_first[a] + k);
            /* the file's box (x, y, z) is sinew's (x, z, −y) */
            const float want_lo[3] = {get_f32(r), get_f32(r + 8), -get_f32(r + 16)};
            const float want_hi[3] = {get_f32(r + 12), get_f32(r + 20), -get_f32(r + 4)};
            for (int c = 0; c < 3; c++) {
                double e = fmax(fabs(lo[c] - want_lo[c]), fabs(hi[c] - want_hi[c]));
                if (e > worst) worst = e;
            }
            compared++;
        }
    }
    fprintf(stderr, "  %zu frames: boxes within %.3g units of the file's; vertices moved up to %.2f units\n", compared,
            worst, moved);
    SW_CHECK(compared == 12);
    SW_CHECK(worst < 0.05);
    SW_CHECK(moved > 1.0);
    free(out);
    free(first);
    free(ps.memory);
    free(b);
    sw_model_free(m);
}

/* guyanim.iqm names no joints: with guy as its skeleton its poses take
   guy's joint names, and its clips merged by name pose guy exactly as
   guy's own clips (the two files hold the same frames); without one they
   are "pose N" and a warning says so. */
static void test_guyanim_merged_by_name(void) {
    if (!assets()) SW_SKIP("SINEW_ASSETS is not set");
    sw_model* guy = load_asset("iqm/guy.iqm", NULL);
    SW_CHECK(guy != NULL);
    if (!guy) return;
    sw_model* bare = load_asset("iqm/guyanim.iqm", NULL);
    SW_CHECK(bare && strcmp(bare->nodes[1].name, "pose 0") == 0 && bare->warning_count == 1 &&
             strstr(bare->warnings[0], "without joint names"));
    sw_model_free(bare);
    sw_import_options o = {0};
    o.iqm.skeleton = guy;
    sw_model* anim = load_asset("iqm/guyanim.iqm", &o);
    SW_CHECK(anim != NULL);
    if (!anim) {
        sw_model_free(guy);
        return;
    }
    SW_CHECK_EQ_INT(anim->warning_count, 0);
    for (size_t j = 0; j < guy->skins[0].joint_count; j++)
        SW_CHECK(strcmp(anim->nodes[1 + j].name, guy->nodes[guy->skins[0].joints[j]].name) == 0);
    posed a, b;
    SW_CHECK(pose_make(guy, &a) && pose_make(guy, &b));
    double worst = 0.0;
    for (size_t c = 0; c < anim->animation_count; c++) {
        sw_clip* merged = NULL;
        size_t dropped = 99;
        sw_diag d;
        SW_CHECK(sw_clip_merge_by_name(guy, anim, &anim->animations[c], &merged, &dropped, &d) == SW_OK);
        SW_CHECK_EQ_INT(dropped, 0);
        const sw_clip* own = clip_named(guy, anim->animations[c].name);
        SW_CHECK(own && merged);
        for (float t = 0.0f; own && merged && t < 2.5f; t += 0.37f) {
            SW_CHECK(sw_pose_evaluate(guy, own, t, false, &a.pose, &d) == SW_OK);
            SW_CHECK(sw_pose_evaluate(guy, merged, t, false, &b.pose, &d) == SW_OK);
            for (size_t n = 0; n < guy->node_count; n++)
                for (int r = 0; r < 3; r++)
                    for (int k = 0; k < 4; k++) {
                        double e = fabs(a.pose.world[n].m[r][k] - b.pose.world[n].m[r][k]);
                        if (e > worst) worst = e;
                    }
        }
        sw_clip_free(merged);
    }
    SW_CHECK(worst == 0.0);
    free(a.memory);
    free(b.memory);
    sw_model_free(anim);
    sw_model_free(guy);
}

/* ---- hostile input --------------------------------------------------------------------------- */

/* A load of damaged bytes: an error of one line starting with the name, or
   a model whose clips pose and whose meshes skin (finite or not: no crash
   is what is asked of a damaged file). */
static bool survives(const uint8_t* data, size_t size, const char* name, size_t* loaded) {
    sw_model* m = NULL;
    sw_diag d;
    if (sw_iqm_load_memory(data, size, name, NULL, NULL, &m, &d) != SW_OK) {
        size_t n = strlen(name);
        bool ok = m == NULL && strncmp(d.message, name, n) == 0 && d.message[n] == ':' && d.message[n + 2] &&
                  !strchr(d.message, '\n');
        if (!ok) fprintf(stderr, "  unclear error: \"%s\"\n", d.message);
        return ok;
    }
    (*loaded)++;
    posed p;
    bool ok = pose_make(m, &p);
    float* out = NULL;
    for (size_t c = 0; ok && c <= m->animation_count; c++) {
        sw_diag d2;
        if (c < m->animation_count) ok = sw_pose_evaluate(m, &m->animations[c], 0.3f, true, &p.pose, &d2) == SW_OK;
        else sw_pose_rest(m, &p.pose), sw_pose_update(m, &p.pose);
        for (size_t n = 0; ok && n < m->node_count; n++) {
            if (m->nodes[n].mesh < 0) continue;
            const sw_model_primitive* prim = &m->meshes[m->nodes[n].mesh].primitives[0];
            float* grown = realloc(out, prim->vertex_count * 3 * sizeof *out);
            if (!grown) break;
            out = grown;
            ok = deform(m, &p.pose, n, out);
        }
    }
    if (!ok) fprintf(stderr, "  a damaged %s loaded but does not pose\n", name);
    free(out);
    free(p.memory);
    sw_model_free(m);
    return ok;
}

static void damage(const uint8_t* data, size_t size, const char* name) {
    uint8_t* copy = malloc(size);
    SW_CHECK(copy != NULL);
    if (!copy) return;
    size_t loaded = 0, failures = 0;
    for (int k = 0; k < 16; k++) {
        size_t cut = size * (size_t)k / 16;
        uint8_t* part = malloc(cut ? cut : 1); /* its own block, so ASan sees reads past the cut */
        if (!part) break;
        memcpy(part, data, cut);
        failures += !survives(part, cut, name, &loaded);
        free(part);
    }
    rng r = {0x9E3779B97F4A7C15ull ^ size}; /* fixed per file: a failure reproduces */
    for (int k = 0; k < 200; k++) {
        memcpy(copy, data, size);
        int flips = 1 + (int)(rng_below(&r, 4));
        for (int i = 0; i < flips; i++) {
            size_t at = (size_t)rng_below(&r, (uint32_t)size);
            copy[at] ^= (uint8_t)(1u << (rng_below(&r, 8)));
        }
        failures += !survives(copy, size, name, &loaded);
    }
    fprintf(stderr, "  %s: 16 cuts and 200 flipped copies, %zu loaded (posed and skinned), the rest refused\n", name,
            loaded);
    SW_CHECK_EQ_INT(failures, 0);
    SW_CHECK(loaded > 0 && loaded < 216); /* some flips hit padding or values; cuts never load */
    free(copy);
}

static void test_hostile_fixture(void) {
    uint8_t b[FX_SIZE];
    fixture(b);
    damage(b, sizeof b, "fixture.iqm");
}

static void test_hostile_guy(void) {
    if (!assets()) SW_SKIP("SINEW_ASSETS is not set");
    char path[1024];
    snprintf(path, sizeof path, "%s/iqm/guy.iqm", assets());
    size_t size;
    uint8_t* b = read_all(path, &size);
    SW_CHECK(b != NULL);
    if (b) damage(b, size, "guy.iqm");
    free(b);
}

int main(void) {
    SW_RUN(test_fixture_structure);
    SW_RUN(test_fixture_posed);
    SW_RUN(test_fixture_damage);
    SW_RUN(test_guy_counts);
    SW_RUN(test_guy_rest);
    SW_RUN(test_guy_posed_against_file_bounds);
    SW_RUN(test_guyanim_merged_by_name);
    SW_RUN(test_hostile_fixture);
    SW_RUN(test_hostile_guy);
    return sw_test_finish();
}
