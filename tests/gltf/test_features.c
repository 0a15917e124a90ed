/* glTF features, one small file each (tests/data/gltf/, written by
   make_features.py there), evaluated through the public API only:

     sw_gltf_load_file → sw_pose_evaluate (rest pose, the clip sampled when
     animated, world matrices and skin palettes)
     → sw_deform_primitive → world-space positions (and normals)

   Every expected number below was worked out by hand from the keys and
   transforms in the file; the arithmetic is in the comment next to it.
   Notation: e0, e1, e2 are the unit axes (the triangle most files use);
   Rz(a) is a rotation by a about +Z: (x,y,z) → (x cos a − y sin a,
   x sin a + y cos a, z); Rz90: (x,y,z) → (−y,x,z); Rx90: (x,y,z) →
   (x,−z,y); c = √½.

   The data folder comes from SW_TEST_DATA_DIR (the build defines it). */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "sinew/gltf.h"
#include "sinew/pose.h"

#ifndef SW_TEST_DATA_DIR
/* Relative fallback: works when the test runs from the repository root. */
#define SW_TEST_DATA_DIR "tests/data"
#endif

#define TOL 1e-5
#define C 0.70710678118654752440 /* √½ = cos 45° = sin 45° */
#define SQRT3 1.73205080756887729353

/* ---- a loaded file and one pose of it -------------------------------------- */

typedef struct scene {
    const char* file;
    sw_model* asset;
    void* memory;    /* the pose's buffers */
    sw_pose pose;
    float time;      /* of the last pose, for messages; < 0 = rest pose */
} scene;

static void scene_close(scene* s) {
    sw_model_free(s->asset);
    free(s->memory);
    memset(s, 0, sizeof(*s));
}

/* Rest pose (clip < 0) or the pose of animations[clip] at clip time t. */
static void scene_pose(scene* s, int clip, float t) {
    const sw_model* a = s->asset;
    s->time = -1.0f;
    /* looping = false: t is already clip time and is sampled as given. */
    sw_diag diag = {0};
    sw_result r = sw_pose_evaluate(a, clip >= 0 ? &a->animations[clip] : NULL, t, false, &s->pose, &diag);
    if (r != SW_OK)
        fprintf(stderr, "  %s: pose at t=%g: %s\n", s->file, (double)t, diag.message);
    SW_CHECK_EQ_INT(r, SW_OK);
    if (clip >= 0)
        s->time = t;
}

static bool scene_open(scene* s, const char* file) {
    memset(s, 0, sizeof(*s));
    s->file = file;
    char path[1024];
    snprintf(path, sizeof(path), "%s/gltf/%s", SW_TEST_DATA_DIR, file);
    sw_diag diag = {0};
    sw_result r = sw_gltf_load_file(path, NULL, &s->asset, &diag);
    if (r != SW_OK || !s->asset) {
        fprintf(stderr, "  cannot load %s: %s (%s)\n", path, sw_result_str(r), diag.message);
        SW_CHECK_EQ_INT(r, SW_OK);
        return false;
    }
    sw_pose_sizes sizes = sw_pose_sizes_of(s->asset);
    size_t bytes = (sw_pose_memory_size(&sizes) + 15) / 16 * 16; /* aligned_alloc wants a multiple of 16 */
    s->memory = aligned_alloc(16, bytes);
    if (!s->memory) {
        SW_CHECK(!"out of memory");
        scene_close(s);
        return false;
    }
    sw_pose_bind(&s->pose, &sizes, s->memory);
    scene_pose(s, -1, 0.0f);
    return true;
}

static int node_named(const scene* s, const char* name) {
    for (size_t i = 0; i < s->asset->node_count; i++)
        if (s->asset->nodes[i].name && strcmp(s->asset->nodes[i].name, name) == 0)
            return (int)i;
    fprintf(stderr, "  %s: no node named %s\n", s->file, name);
    SW_CHECK(!"node not found");
    return -1;
}

/* Deforms (node, primitive) of the current pose into out_pos / out_nrm
   (vertex_count × 3 each; out_nrm may be NULL). */
static bool deform(const scene* s, int node, size_t primitive, sw_skin_method method, float* out_pos,
                   float* out_nrm) {
    size_t size = sw_deform_scratch_size(s->asset, (size_t)node, primitive);
    size_t rounded = (size + 16) / 16 * 16; /* aligned_alloc wants a multiple of the alignment */
    void* scratch = aligned_alloc(16, rounded);
    if (!scratch) {
        SW_CHECK(!"out of memory");
        return false;
    }
    sw_deform d = {
        .node = (size_t)node,
        .primitive = primitive,
        .method = method,
        .scratch = scratch,
        .out_positions = out_pos,
        .out_normals = out_nrm,
    };
    sw_diag diag = {0};
    sw_result r = sw_deform_primitive(s->asset, &s->pose, &d, &diag);
    free(scratch);
    if (r != SW_OK)
        fprintf(stderr, "  %s: deform node %d: %s\n", s->file, node, diag.message);
    SW_CHECK_EQ_INT(r, SW_OK);
    return r == SW_OK;
}

static void check_vec3(const scene* s, const char* node, const char* what, size_t vertex, const float* got,
                       const double* want) {
    bool ok = true;
    for (int i = 0; i < 3; i++)
        ok = ok && fabs((double)got[i] - want[i]) <= TOL;
    if (!ok) {
        char when[32] = "rest pose";
        if (s->time >= 0.0f)
            snprintf(when, sizeof(when), "t=%g", (double)s->time);
        fprintf(stderr, "  %s node %s %s %s %zu: got (%.7g, %.7g, %.7g), expected (%.7g, %.7g, %.7g)\n", s->file,
                node, when, what, vertex, (double)got[0], (double)got[1], (double)got[2], want[0], want[1], want[2]);
    }
    for (int i = 0; i < 3; i++)
        SW_CHECK_NEAR(got[i], want[i], TOL);
}

#define MAX_VERTS 8

/* Deforms (node, primitive) in the current pose and compares every vertex
   with pos[] (and nrm[] unless NULL). */
static void expect_method(const scene* s, const char* node_name, size_t primitive, sw_skin_method method,
                          size_t count, const double (*pos)[3], const double (*nrm)[3]) {
    int node = node_named(s, node_name);
    if (node < 0)
        return;
    const sw_model_node* n = &s->asset->nodes[node];
    SW_CHECK(n->mesh >= 0);
    if (n->mesh < 0)
        return;
    const sw_model_mesh* mesh = &s->asset->meshes[n->mesh];
    SW_CHECK(primitive < mesh->primitive_count);
    if (primitive >= mesh->primitive_count)
        return;
    SW_CHECK_EQ_INT(mesh->primitives[primitive].vertex_count, count);
    if (mesh->primitives[primitive].vertex_count != count || count > MAX_VERTS)
        return;
    float got_pos[MAX_VERTS * 3], got_nrm[MAX_VERTS * 3];
    if (nrm)
        SW_CHECK(mesh->primitives[primitive].normals != NULL);
    if (!deform(s, node, primitive, method, got_pos, nrm ? got_nrm : NULL))
        return;
    for (size_t v = 0; v < count; v++) {
        check_vec3(s, node_name, "position", v, &got_pos[3 * v], pos[v]);
        if (nrm)
            check_vec3(s, node_name, "normal", v, &got_nrm[3 * v], nrm[v]);
    }
}

static void expect(const scene* s, const char* node_name, size_t primitive, size_t count, const double (*pos)[3],
                   const double (*nrm)[3]) {
    expect_method(s, node_name, primitive, SW_SKIN_METHOD_DEFAULT, count, pos, nrm);
}

/* The unit axes as positions or normals. */
static const double AXES[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};

/* ---- 1. every interpolation on every path ---------------------------------------

   interp_{step,linear,cubicspline}.gltf: four nodes with keys at t = 1, 2, 4.
     "translation": triangle e0 e1 e2 (normals e0 e1 e2), rest T (0,0,−10);
                    vertex k at e_k + T, normal e_k.
     "rotation":    same triangle, rest rotation 180° about X; vertex k and
                    normal k at R·e_k (column k of R).
     "scale":       same triangle, rest scale 3; vertex k at s_k·e_k, normal
                    e_k (an axis stays an axis under positive scale).
     "weights":     triangle e0 e1 e2 with two targets: target 0 moves vertex
                    k by (k+1, 0, 0), target 1 every vertex by (0, 1, 0);
                    mesh.weights (0.5, 0.5). Vertices (1+w0, w1, 0),
                    (2·w0, 1+w1, 0), (3·w0, w1, 1).
   Rest values differ from the first keys, so a track that does not hold
   its first value before t = 1 shows. */

typedef struct interp_pose {
    float t;
    double translation[3];
    double rotated[3][3]; /* R·e0, R·e1, R·e2 */
    double scale[3];
    double weights[2];
} interp_pose;

#define ROT_IDENTITY {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}
#define ROT_Z90 {{0, 1, 0}, {-1, 0, 0}, {0, 0, 1}}
#define ROT_X90 {{1, 0, 0}, {0, 0, 1}, {0, -1, 0}}

static void expect_interp_pose(scene* s, const interp_pose* p) {
    scene_pose(s, 0, sw_clip_time(&s->asset->animations[0], p->t, false));

    double pos[3][3];
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < 3; i++)
            pos[k][i] = AXES[k][i] + p->translation[i];
    expect(s, "translation", 0, 3, pos, AXES);

    expect(s, "rotation", 0, 3, p->rotated, p->rotated);

    for (int k = 0; k < 3; k++)
        for (int i = 0; i < 3; i++)
            pos[k][i] = AXES[k][i] * p->scale[k];
    expect(s, "scale", 0, 3, pos, AXES);

    double w0 = p->weights[0], w1 = p->weights[1];
    const double morphed[3][3] = {{1 + w0, w1, 0}, {2 * w0, 1 + w1, 0}, {3 * w0, w1, 1}};
    expect(s, "weights", 0, 3, morphed, NULL);
}

static void check_interp_clip(const scene* s, sw_interpolation interp) {
    SW_CHECK_EQ_INT(s->asset->animation_count, 1);
    if (s->asset->animation_count < 1)
        return;
    const sw_clip* clip = &s->asset->animations[0];
    SW_CHECK_NEAR(clip->start, 1.0, 0.0);
    SW_CHECK_NEAR(clip->duration, 4.0, 0.0);
    SW_CHECK_EQ_INT(clip->track_count, 4);
    for (size_t i = 0; i < clip->track_count; i++) {
        SW_CHECK_EQ_INT(clip->tracks[i].interpolation, interp);
        SW_CHECK_EQ_INT(clip->tracks[i].key_count, 3);
    }
    /* Looping wraps into [0, 4): 5 → 1. */
    SW_CHECK_NEAR(sw_clip_time(clip, 5.0f, true), 1.0, 1e-6);
    SW_CHECK_NEAR(sw_clip_time(clip, 5.0f, false), 5.0, 1e-6);
}

static void test_interp_rest_pose(void) {
    scene s;
    if (!scene_open(&s, "interp_linear.gltf"))
        return;
    /* No clip: node rest values. */
    double pos[3][3] = {{1, 0, -10}, {0, 1, -10}, {0, 0, -9}}; /* e_k + (0,0,−10) */
    expect(&s, "translation", 0, 3, pos, AXES);
    /* 180° about X: (x,y,z) → (x,−y,−z) */
    const double flipped[3][3] = {{1, 0, 0}, {0, -1, 0}, {0, 0, -1}};
    expect(&s, "rotation", 0, 3, flipped, flipped);
    const double scaled[3][3] = {{3, 0, 0}, {0, 3, 0}, {0, 0, 3}};
    expect(&s, "scale", 0, 3, scaled, AXES);
    /* mesh.weights (0.5, 0.5): (1+0.5, 0.5, 0), (2·0.5, 1+0.5, 0), (3·0.5, 0.5, 1) */
    const double morphed[3][3] = {{1.5, 0.5, 0}, {1, 1.5, 0}, {1.5, 0.5, 1}};
    expect(&s, "weights", 0, 3, morphed, NULL);
    scene_close(&s);
}

/* STEP keys at t = 1, 2, 4 (the value of the last key at or before t):
     T: (−1,0,1)  (2,2,2)  (4,0,2)
     R: identity  90° about Z  90° about X (stored negated: (−c,0,0,−c))
     S: (1,1,0.5) (2,2,2)  (1,2,3)
     W: (0,0)     (1,0.5)  (0.25,1) */
static void test_interp_step(void) {
    scene s;
    if (!scene_open(&s, "interp_step.gltf"))
        return;
    check_interp_clip(&s, SW_INTERP_STEP);
    static const interp_pose poses[] = {
        /* before the first key: key 0 */
        {0.5f, {-1, 0, 1}, ROT_IDENTITY, {1, 1, 0.5}, {0, 0}},
        /* at key 0 and between keys 0 and 1: key 0 */
        {1.0f, {-1, 0, 1}, ROT_IDENTITY, {1, 1, 0.5}, {0, 0}},
        {1.5f, {-1, 0, 1}, ROT_IDENTITY, {1, 1, 0.5}, {0, 0}},
        /* at key 1 and between keys 1 and 2: key 1 */
        {2.0f, {2, 2, 2}, ROT_Z90, {2, 2, 2}, {1, 0.5}},
        {3.0f, {2, 2, 2}, ROT_Z90, {2, 2, 2}, {1, 0.5}},
        {3.5f, {2, 2, 2}, ROT_Z90, {2, 2, 2}, {1, 0.5}},
        /* at the last key and after it: key 2 */
        {4.0f, {4, 0, 2}, ROT_X90, {1, 2, 3}, {0.25, 1}},
        {5.0f, {4, 0, 2}, ROT_X90, {1, 2, 3}, {0.25, 1}},
    };
    for (size_t i = 0; i < sizeof(poses) / sizeof(poses[0]); i++)
        expect_interp_pose(&s, &poses[i]);
    scene_close(&s);
}

/* LINEAR, the same keys as STEP. Between keys 1 and 2 the rotation keys are
   qa = (0,0,c,c) and qb = (−c,0,0,−c); qa·qb < 0, so slerp takes −qb =
   (c,0,0,c): cos θ = qa·(−qb) = c² = ½, θ = 60°. */
static void test_interp_linear(void) {
    scene s;
    if (!scene_open(&s, "interp_linear.gltf"))
        return;
    check_interp_clip(&s, SW_INTERP_LINEAR);
    static const interp_pose poses[] = {
        {0.5f, {-1, 0, 1}, ROT_IDENTITY, {1, 1, 0.5}, {0, 0}},
        {1.0f, {-1, 0, 1}, ROT_IDENTITY, {1, 1, 0.5}, {0, 0}},
        /* t = 1.5, s = 0.5 between keys 0 and 1:
           T = ((−1+2)/2, (0+2)/2, (1+2)/2) = (0.5, 1, 1.5)
           R = slerp(identity, Rz90, ½) = Rz45: e0 → (c,c,0), e1 → (−c,c,0)
           S = ((1+2)/2, (1+2)/2, (0.5+2)/2) = (1.5, 1.5, 1.25)
           W = ((0+1)/2, (0+0.5)/2) = (0.5, 0.25) */
        {1.5f, {0.5, 1, 1.5}, {{C, C, 0}, {-C, C, 0}, {0, 0, 1}}, {1.5, 1.5, 1.25}, {0.5, 0.25}},
        {2.0f, {2, 2, 2}, ROT_Z90, {2, 2, 2}, {1, 0.5}},
        /* t = 3, s = 0.5 between keys 1 and 2 (d = 2):
           T = ((2+4)/2, (2+0)/2, (2+2)/2) = (3, 1, 2)
           R: at s = ½ slerp = (qa − qb)/|qa − qb| = (c,0,c,2c)/(c·√6)
              = (1,0,1,2)/√6: x² = z² = 1/6, w² = 4/6, xz = 1/6, xw = zw = 2/6:
              R = [1−2z²  −2zw       2xz ]   [2/3  −2/3   1/3]
                  [2zw    1−2x²−2z²  −2xw] = [2/3   1/3  −2/3]
                  [2xz    2xw      1−2x² ]   [1/3   2/3   2/3]
              (its columns are the images of e0, e1, e2)
           S = ((2+1)/2, (2+2)/2, (2+3)/2) = (1.5, 2, 2.5)
           W = ((1+0.25)/2, (0.5+1)/2) = (0.625, 0.75) */
        {3.0f, {3, 1, 2},
         {{2.0 / 3, 2.0 / 3, 1.0 / 3}, {-2.0 / 3, 1.0 / 3, 2.0 / 3}, {1.0 / 3, -2.0 / 3, 2.0 / 3}},
         {1.5, 2, 2.5}, {0.625, 0.75}},
        /* t = 3.5, s = 0.75 between keys 1 and 2:
           T = (2 + 0.75·2, 2 + 0.75·(−2), 2 + 0.75·0) = (3.5, 0.5, 2)
           R: slerp weights sin(¼θ)/sin θ = sin 15°/sin 60° on qa and
              sin(¾θ)/sin θ = sin 45°/sin 60° = √(2/3) on −qb; times c:
              sin 15°·c/sin 60° = ((√6−√2)/4)(1/√2)(2/√3) = (3−√3)/6,
              √(2/3)·c = 1/√3 = 2√3/6, so
              q = (x,0,z,w) = (2√3, 0, 3−√3, 3+√3)/6:
              x² = 1/3, z² = (2−√3)/6, xz = (√3−1)/6, xw = (√3+1)/6, zw = 1/6
              R·e0 = (1−2z², 2zw, 2xz)        = ((1+√3)/3, 1/3, (√3−1)/3)
              R·e1 = (−2zw, 1−2x²−2z², 2xw)   = (−1/3, (√3−1)/3, (√3+1)/3)
              R·e2 = (2xz, −2xw, 1−2x²)       = ((√3−1)/3, −(√3+1)/3, 1/3)
              (nlerp would give (0.588, 0, 0.196, 0.784): 0.02 away.)
           S = (2 + 0.75·(1−2), 2, 2 + 0.75·(3−2)) = (1.25, 2, 2.75)
           W = (1 + 0.75·(0.25−1), 0.5 + 0.75·(1−0.5)) = (0.4375, 0.875) */
        {3.5f, {3.5, 0.5, 2},
         {{(1 + SQRT3) / 3, 1.0 / 3, (SQRT3 - 1) / 3},
          {-1.0 / 3, (SQRT3 - 1) / 3, (SQRT3 + 1) / 3},
          {(SQRT3 - 1) / 3, -(SQRT3 + 1) / 3, 1.0 / 3}},
         {1.25, 2, 2.75}, {0.4375, 0.875}},
        {4.0f, {4, 0, 2}, ROT_X90, {1, 2, 3}, {0.25, 1}},
        {5.0f, {4, 0, 2}, ROT_X90, {1, 2, 3}, {0.25, 1}},
    };
    for (size_t i = 0; i < sizeof(poses) / sizeof(poses[0]); i++)
        expect_interp_pose(&s, &poses[i]);
    scene_close(&s);
}

/* CUBICSPLINE keys at t = 1, 2, 4, each (in-tangent, value, out-tangent)
   (the first in-tangent and last out-tangent are never used):
     T: k0 (·, (−1,0,1), (1,2,0))  k1 ((0,0,4), (2,2,2), (1,0,−1))  k2 ((2,0,0), (4,0,2), ·)
     R: k0 (·, (0,0,0,1), (0,0,4,0))  k1 (0, (0,0,1,0), (0.8,0,0,0))  k2 ((0,0,0,−2.4), (0.6,0,0,0.8), ·)
     S: k0 (·, (1,1,0.5), (0,2,0))  k1 ((2,0,0), (2,2,2), (0,0,1))  k2 ((1,1,1), (1,2,3), ·)
     W: k0 (·, (0,0), (1,0))  k1 ((0,−1), (1,0.5), (0.5,0))  k2 ((1,0), (0.25,1), ·)
   p(s) = h00·v(k) + h10·d·out(k) + h01·v(k+1) + h11·d·in(k+1) with
     s = ½:  h00 = ½, h10 = ⅛, h01 = ½, h11 = −⅛
     s = ¾:  h00 = 2·27/64 − 3·9/16 + 1 = 0.15625, h10 = 27/64 − 18/16 + 3/4 = 0.046875,
             h01 = 0.84375, h11 = 27/64 − 9/16 = −0.140625
   d = 1 between keys 0 and 1, d = 2 between keys 1 and 2.
   A rotation (x,y,z,w), not unit, is R = (1/n)·[w²+x²−y²−z²  2(xy−zw)  2(xz+yw);
   2(xy+zw)  w²−x²+y²−z²  2(yz−xw); 2(xz−yw)  2(yz+xw)  w²−x²−y²+z²],
   n = x²+y²+z²+w² (what normalising the result gives). */
static void test_interp_cubicspline(void) {
    scene s;
    if (!scene_open(&s, "interp_cubicspline.gltf"))
        return;
    check_interp_clip(&s, SW_INTERP_CUBICSPLINE);
    static const interp_pose poses[] = {
        {0.5f, {-1, 0, 1}, ROT_IDENTITY, {1, 1, 0.5}, {0, 0}},
        {1.0f, {-1, 0, 1}, ROT_IDENTITY, {1, 1, 0.5}, {0, 0}},
        /* t = 1.5, s = ½, d = 1:
           T = ½(−1,0,1) + ⅛(1,2,0) + ½(2,2,2) − ⅛(0,0,4)
             = (−0.5+0.125+1, 0.25+1, 0.5+1−0.5) = (0.625, 1.25, 1)
           R: q = ½(0,0,0,1) + ⅛(0,0,4,0) + ½(0,0,1,0) − ⅛·0 = (0,0,1,0.5):
              about Z with cos a = (w²−z²)/n = (0.25−1)/1.25 = −0.6,
              sin a = 2zw/n = 1/1.25 = 0.8: e0 → (−0.6,0.8,0), e1 → (−0.8,−0.6,0)
           S = ½(1,1,0.5) + ⅛(0,2,0) + ½(2,2,2) − ⅛(2,0,0)
             = (0.5+1−0.25, 0.5+0.25+1, 0.25+1) = (1.25, 1.75, 1.25)
           W = ½(0,0) + ⅛(1,0) + ½(1,0.5) − ⅛(0,−1) = (0.625, 0.375) */
        {1.5f, {0.625, 1.25, 1}, {{-0.6, 0.8, 0}, {-0.8, -0.6, 0}, {0, 0, 1}}, {1.25, 1.75, 1.25},
         {0.625, 0.375}},
        /* key 1: R = (0,0,1,0), 180° about Z */
        {2.0f, {2, 2, 2}, {{-1, 0, 0}, {0, -1, 0}, {0, 0, 1}}, {2, 2, 2}, {1, 0.5}},
        /* t = 3, s = ½, d = 2 (tangent terms ⅛·2 = ¼):
           T = ½(2,2,2) + ¼(1,0,−1) + ½(4,0,2) − ¼(2,0,0)
             = (1+0.25+2−0.5, 1, 1−0.25+1) = (2.75, 1, 1.75)
           R: q = ½(0,0,1,0) + ¼(0.8,0,0,0) + ½(0.6,0,0,0.8) − ¼(0,0,0,−2.4)
                = (0.2+0.3, 0, 0.5, 0.4+0.6) = (0.5,0,0.5,1) ∝ (1,0,1,2):
              the same rotation as LINEAR at t = 3 (n = 6, thirds)
           S = ½(2,2,2) + ¼(0,0,1) + ½(1,2,3) − ¼(1,1,1)
             = (1+0.5−0.25, 1+1−0.25, 1+0.25+1.5−0.25) = (1.25, 1.75, 2.5)
           W = ½(1,0.5) + ¼(0.5,0) + ½(0.25,1) − ¼(1,0)
             = (0.5+0.125+0.125−0.25, 0.25+0.5) = (0.5, 0.75) */
        {3.0f, {2.75, 1, 1.75},
         {{2.0 / 3, 2.0 / 3, 1.0 / 3}, {-2.0 / 3, 1.0 / 3, 2.0 / 3}, {1.0 / 3, -2.0 / 3, 2.0 / 3}},
         {1.25, 1.75, 2.5}, {0.5, 0.75}},
        /* t = 3.5, s = ¾, d = 2: 0.15625·v1 + 0.09375·out1 + 0.84375·v2 − 0.28125·in2
           T = (0.3125,0.3125,0.3125) + (0.09375,0,−0.09375) + (3.375,0,1.6875) − (0.5625,0,0)
             = (3.21875, 0.3125, 1.90625)
           R: q = (0,0,0.15625,0) + (0.075,0,0,0) + (0.50625,0,0,0.675) + (0,0,0,0.675)
                = (0.58125, 0, 0.15625, 1.35) = (93, 0, 25, 216)/160;
              with (93,0,25,216): n = 8649+625+46656 = 55930,
              R·e0 = (46656+8649−625, 2·25·216, 2·93·25)/n = (54680, 10800, 4650)/n
              R·e1 = (−10800, 46656−8649−625, 2·93·216)/n = (−10800, 37382, 40176)/n
              R·e2 = (4650, −40176, 46656−8649+625)/n = (4650, −40176, 38632)/n
           S = (0.3125,0.3125,0.3125) + (0,0,0.09375) + (0.84375,1.6875,2.53125) − (0.28125,0.28125,0.28125)
             = (0.875, 1.71875, 2.65625)
           W = (0.15625,0.078125) + (0.046875,0) + (0.2109375,0.84375) − (0.28125,0)
             = (0.1328125, 0.921875) */
        {3.5f, {3.21875, 0.3125, 1.90625},
         {{54680.0 / 55930, 10800.0 / 55930, 4650.0 / 55930},
          {-10800.0 / 55930, 37382.0 / 55930, 40176.0 / 55930},
          {4650.0 / 55930, -40176.0 / 55930, 38632.0 / 55930}},
         {0.875, 1.71875, 2.65625}, {0.1328125, 0.921875}},
        /* key 2 and after: R = (0.6,0,0,0.8) about X, cos a = 0.64−0.36 = 0.28,
           sin a = 2·0.6·0.8 = 0.96: e1 → (0, 0.28, 0.96), e2 → (0, −0.96, 0.28) */
        {4.0f, {4, 0, 2}, {{1, 0, 0}, {0, 0.28, 0.96}, {0, -0.96, 0.28}}, {1, 2, 3}, {0.25, 1}},
        {5.0f, {4, 0, 2}, {{1, 0, 0}, {0, 0.28, 0.96}, {0, -0.96, 0.28}}, {1, 2, 3}, {0.25, 1}},
    };
    for (size_t i = 0; i < sizeof(poses) / sizeof(poses[0]); i++)
        expect_interp_pose(&s, &poses[i]);
    scene_close(&s);
}

/* ---- 2. sparse accessors ---------------------------------------------------------------
   Quad (0,0,0) (1,0,0) (1,1,0) (0,1,0); sparse (u8 indices) replaces vertex
   1 by (2,0,0) and vertex 3 by (0,3,0). One morph target with no
   bufferView (zeros) and a sparse (u16 index) delta (0,0,2) on vertex 2;
   mesh.weights 0.5. */
static void test_sparse(void) {
    scene s;
    if (!scene_open(&s, "sparse.gltf"))
        return;
    const sw_model_primitive* p = &s.asset->meshes[0].primitives[0];
    SW_CHECK_EQ_INT(p->vertex_count, 4);
    SW_CHECK_EQ_INT(p->index_count, 6);
    SW_CHECK_EQ_INT(p->target_count, 1);
    if (p->vertex_count == 4 && p->target_count == 1 && p->targets[0].positions) {
        const float* d = p->targets[0].positions;
        SW_CHECK_NEAR(d[0], 0, 0);  /* vertex 0: zero (no bufferView) */
        SW_CHECK_NEAR(d[5], 0, 0);  /* vertex 1 z */
        SW_CHECK_NEAR(d[8], 2, 0);  /* vertex 2 z: the sparse value */
        SW_CHECK_NEAR(d[11], 0, 0); /* vertex 3 z */
    }
    /* Vertex 2 = (1,1,0) + 0.5·(0,0,2) = (1,1,1). */
    const double pos[4][3] = {{0, 0, 0}, {2, 0, 0}, {1, 1, 1}, {0, 3, 0}};
    expect(&s, "quad", 0, 4, pos, NULL);
    scene_close(&s);
}

/* ---- 3. normalised u8 / u16 weights, u8 / u16 joints -------------------------------------
   Joints: "joint_x" at translation (1,0,0), "joint_z" at (0,0,1), identity
   inverse binds, so a vertex p goes to p + w_x·(1,0,0) + w_z·(0,0,1).
   Primitive 0: JOINTS u8, WEIGHTS u8/255; primitive 1: JOINTS u16, WEIGHTS u16/65535. */

/* The weight of `joint` in vertex v's row (0 if absent). */
static double weight_of(const sw_model_primitive* p, size_t v, unsigned joint) {
    double w = 0;
    for (int i = 0; i < p->influence_count; i++)
        if (p->joints[v * (size_t)p->influence_count + (size_t)i] == joint)
            w += p->weights[v * (size_t)p->influence_count + (size_t)i];
    return w;
}

static void test_weights_normalized(void) {
    scene s;
    if (!scene_open(&s, "weights_normalized.gltf"))
        return;
    const sw_model_mesh* m = &s.asset->meshes[0];
    SW_CHECK_EQ_INT(m->primitive_count, 2);
    if (m->primitive_count != 2)
        goto done;
    for (size_t i = 0; i < 2; i++) {
        const sw_model_primitive* p = &m->primitives[i];
        SW_CHECK(p->influence_count == 4 || p->influence_count == 8);
        SW_CHECK(p->joints != NULL && p->weights != NULL);
        if (!p->joints || !p->weights)
            goto done;
    }
    const sw_model_primitive* p0 = &m->primitives[0];
    const sw_model_primitive* p1 = &m->primitives[1];
    /* u8: vertex 1 has joint 1 at 128/255 and joint 0 at 127/255 (sum 255/255 = 1). */
    SW_CHECK_NEAR(weight_of(p0, 1, 1), 128.0 / 255, 1e-6);
    SW_CHECK_NEAR(weight_of(p0, 1, 0), 127.0 / 255, 1e-6);
    /* vertex 2: 51/255 = 0.2, 204/255 = 0.8 */
    SW_CHECK_NEAR(weight_of(p0, 2, 0), 0.2, 1e-6);
    SW_CHECK_NEAR(weight_of(p0, 2, 1), 0.8, 1e-6);
    /* u16: 13107/65535 = 1/5, 52428/65535 = 4/5 (65535 = 5·13107) */
    SW_CHECK_NEAR(weight_of(p1, 1, 0), 0.2, 1e-6);
    SW_CHECK_NEAR(weight_of(p1, 1, 1), 0.8, 1e-6);
    SW_CHECK_NEAR(weight_of(p1, 2, 1), 32768.0 / 65535, 1e-6);
    SW_CHECK_NEAR(weight_of(p1, 2, 0), 32767.0 / 65535, 1e-6);
    {
        /* primitive 0, vertices (0,0,0) (1,0,0) (0,1,0):
           v0: joint 0 at 255/255 → (0,0,0) + (1,0,0) = (1,0,0)
           v1: joint 1 at 128/255, joint 0 at 127/255 → (1 + 127/255, 0, 128/255)
           v2: joint 0 at 0.2, joint 1 at 0.8 → (0.2, 1, 0.8) */
        const double pos0[3][3] = {{1, 0, 0}, {1 + 127.0 / 255, 0, 128.0 / 255}, {0.2, 1, 0.8}};
        expect(&s, "mesh", 0, 3, pos0, NULL);
        /* primitive 1, vertices (0,0,1) (1,0,1) (0,1,1):
           v0: joint 1 at 65535/65535 → (0,0,2)
           v1: joint 0 at 0.2, joint 1 at 0.8 → (1.2, 0, 1.8)
           v2: joint 1 at 32768/65535, joint 0 at 32767/65535
               → (32767/65535, 1, 1 + 32768/65535) */
        const double pos1[3][3] = {{0, 0, 2}, {1.2, 0, 1.8}, {32767.0 / 65535, 1, 1 + 32768.0 / 65535}};
        expect(&s, "mesh", 1, 3, pos1, NULL);
    }
done:
    scene_close(&s);
}

/* ---- 4. external .bin buffer and GLB container ---------------------------------------
   Both hold the same scene: an indexed triangle (0,0,0) (1,0,0) (0,1,0) on a
   node with translation (1,2,3) and scale 2: p → 2p + (1,2,3). */
static void expect_container(const char* file) {
    scene s;
    if (!scene_open(&s, file))
        return;
    SW_CHECK_EQ_INT(s.asset->meshes[0].primitives[0].index_count, 3);
    const double pos[3][3] = {{1, 2, 3}, {3, 2, 3}, {1, 4, 3}};
    expect(&s, "tri", 0, 3, pos, NULL);
    scene_close(&s);
}

static void test_buffer_external(void) { expect_container("buffer_external.gltf"); }
static void test_glb(void) { expect_container("container.glb"); }

/* ---- 5. matrix vs TRS ----------------------------------------------------------------------
   "trs": T (1,2,3), R 90° about Z, S (2,1,0.5); "matrix": the same as a
   matrix, M = T·R·S = [0 −1 0 1; 2 0 0 2; 0 0 0.5 3], so M·(x,y,z) =
   (1−y, 2+2x, 3+0.5z). Each has a child (T (0,1,0), R 45° about Z) with
   the same mesh: the parent's non-uniform scale shears the child, which
   only the matrix path gets right. Mesh: e0 e1 e2 with normals
   n0 = (c,c,0), n1 = (0,c,c), n2 = (0,0,1). Normals transform by
   A⁻ᵀ = R·S⁻¹·(child rotation), S⁻¹ = diag(0.5, 1, 2). */
static void test_matrix_vs_trs(void) {
    scene s;
    if (!scene_open(&s, "matrix_vs_trs.gltf"))
        return;
    int trs = node_named(&s, "trs"), mat = node_named(&s, "matrix");
    int trs_child = node_named(&s, "trs_child"), mat_child = node_named(&s, "matrix_child");
    if (trs < 0 || mat < 0 || trs_child < 0 || mat_child < 0)
        goto done;
    SW_CHECK(s.asset->nodes[mat].has_matrix);
    SW_CHECK(!s.asset->nodes[trs].has_matrix);
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 4; c++) {
            SW_CHECK_NEAR(s.pose.world[trs].m[r][c], s.pose.world[mat].m[r][c], TOL);
            SW_CHECK_NEAR(s.pose.world[trs_child].m[r][c], s.pose.world[mat_child].m[r][c], TOL);
        }
    {
        /* e0 → (1−0, 2+2, 3) = (1,4,3); e1 → (1−1, 2, 3) = (0,2,3);
           e2 → (1, 2, 3+0.5) = (1,2,3.5).
           n0 → Rz90·(0.5c, c, 0) ∝ Rz90·(1,2,0) = (−2,1,0)/√5
           n1 → Rz90·(0, c, 2c) ∝ Rz90·(0,1,2) = (−1,0,2)/√5
           n2 → Rz90·(0,0,2) ∝ (0,0,1)
           (M·n0 would give (−1,2,0)/√5: wrong for a non-uniform scale.) */
        const double pos[3][3] = {{1, 4, 3}, {0, 2, 3}, {1, 2, 3.5}};
        const double s5 = sqrt(5.0);
        const double nrm[3][3] = {{-2 / s5, 1 / s5, 0}, {-1 / s5, 0, 2 / s5}, {0, 0, 1}};
        expect(&s, "trs", 0, 3, pos, nrm);
        expect(&s, "matrix", 0, 3, pos, nrm);
    }
    {
        /* child local: p → Rz45·p + (0,1,0):
             e0 → (c, 1+c, 0), e1 → (−c, 1+c, 0), e2 → (0, 1, 1);
           then M: (1−y, 2+2x, 3+0.5z):
             (1−1−c, 2+2c, 3) = (−c, 2+2c, 3)
             (1−1−c, 2−2c, 3) = (−c, 2−2c, 3)
             (1−1, 2, 3.5)    = (0, 2, 3.5)
           normals Rz90·S⁻¹·Rz45·n:
             n0: Rz45·(c,c,0) = (0,1,0) → S⁻¹ (0,1,0) → Rz90 (−1,0,0)
             n1: Rz45·(0,c,c) = (−½, ½, c) → S⁻¹ (−¼, ½, √2) → Rz90 (−½, −¼, √2)
                 ∝ (−2, −1, 4√2), length √(4+1+32) = √37
             n2: (0,0,1) → (0,0,2) → (0,0,1) */
        const double pos[3][3] = {{-C, 2 + 2 * C, 3}, {-C, 2 - 2 * C, 3}, {0, 2, 3.5}};
        const double s37 = sqrt(37.0);
        const double nrm[3][3] = {{-1, 0, 0}, {-2 / s37, -1 / s37, 4 * sqrt(2.0) / s37}, {0, 0, 1}};
        expect(&s, "trs_child", 0, 3, pos, nrm);
        expect(&s, "matrix_child", 0, 3, pos, nrm);
    }
done:
    scene_close(&s);
}

/* ---- 6. skin without inverseBindMatrices -------------------------------------------------
   "root_joint": T (1,0,0), R 90° about Z; "child_joint": T (0,2,0). Inverse
   binds are identity, so skin matrices are the joint world matrices:
     S0·p = Rz90·p + (1,0,0)
     S1·p = S0·(p + (0,2,0)) = Rz90·p + Rz90·(0,2,0) + (1,0,0) = Rz90·p + (−1,0,0)
   Vertices e0 (joint 0), e1 (joint 1), e2 (½ each); normals (1,0,0). */
static void test_skin_no_ibm(void) {
    scene s;
    if (!scene_open(&s, "skin_no_ibm.gltf"))
        return;
    SW_CHECK_EQ_INT(s.asset->skin_count, 1);
    if (s.asset->skin_count != 1)
        goto done;
    const sw_model_skin* skin = &s.asset->skins[0];
    SW_CHECK_EQ_INT(skin->joint_count, 2);
    for (size_t j = 0; j < skin->joint_count && j < 2; j++)
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 4; c++)
                SW_CHECK_NEAR(skin->inverse_bind[j].m[r][c], r == c ? 1.0 : 0.0, 0);
    {
        const sw_mat34* palette = s.pose.skin_matrices + skin->palette_offset;
        SW_CHECK_NEAR(palette[0].m[0][3], 1, TOL);  /* S0 translation (1,0,0) */
        SW_CHECK_NEAR(palette[1].m[0][3], -1, TOL); /* S1 translation (−1,0,0) */
        SW_CHECK_NEAR(palette[1].m[1][0], 1, TOL);  /* Rz90: row 1 = (1,0,0) */
    }
    {
        /* e0: S0 → (0,1,0) + (1,0,0) = (1,1,0)
           e1: S1 → (−1,0,0) + (−1,0,0) = (−2,0,0)
           e2: ½·((0,0,1)+(1,0,0)) + ½·((0,0,1)+(−1,0,0)) = (0,0,1)
           normals: both joints turn by Rz90: (1,0,0) → (0,1,0) */
        const double pos[3][3] = {{1, 1, 0}, {-2, 0, 0}, {0, 0, 1}};
        const double nrm[3][3] = {{0, 1, 0}, {0, 1, 0}, {0, 1, 0}};
        expect(&s, "mesh", 0, 3, pos, nrm);
        /* Both joints share one rotation, so dual quaternions blend to the
           same place. */
        expect_method(&s, "mesh", 0, SW_SKIN_DQS, 3, pos, nrm);
    }
done:
    scene_close(&s);
}

/* ---- 7. a skinned mesh node's own and parents' transforms are ignored ---------------------
   "parent": T (100,0,0), S 3, with child "mesh" (T (0,50,0), R 90° about X),
   which has the skin. Joints are elsewhere: "joint0" T (0,0,3), its child
   "joint1" T (0,1,0), R 90° about Z. Inverse binds translate (0,0,−1) and
   (0,−1,0):
     S0·p = p + (0,0,3) − (0,0,1) = p + (0,0,2)
     S1·p = T(0,1,3)·Rz90·(p − (0,1,0)) = Rz90·(p − (0,1,0)) + (0,1,3) */
static void test_skin_mesh_transform_ignored(void) {
    scene s;
    if (!scene_open(&s, "skin_mesh_transform_ignored.gltf"))
        return;
    int mesh = node_named(&s, "mesh");
    if (mesh < 0)
        goto done;
    /* The mesh node itself is far away: parent·local translation =
       (100,0,0) + 3·(0,50,0) = (100,150,0). */
    SW_CHECK_NEAR(s.pose.world[mesh].m[0][3], 100, TOL);
    SW_CHECK_NEAR(s.pose.world[mesh].m[1][3], 150, TOL);
    {
        /* v0 (0,0,0), joint 0: (0,0,2)
           v1 (1,0,0), joint 1: Rz90·(1,−1,0) + (0,1,3) = (1,1,0) + (0,1,3) = (1,2,3)
           v2 (0,1,0), ¼ joint 0 + ¾ joint 1:
               S0·v2 = (0,1,2); S1·v2 = Rz90·(0,0,0) + (0,1,3) = (0,1,3)
               ¼(0,1,2) + ¾(0,1,3) = (0, 1, 0.5+2.25) = (0,1,2.75) */
        const double pos[3][3] = {{0, 0, 2}, {1, 2, 3}, {0, 1, 2.75}};
        expect(&s, "mesh", 0, 3, pos, NULL);
    }
done:
    scene_close(&s);
}

/* ---- 8. joints in their own branch, under a transformed root ---------------------------------
   "rig_root": T (10,0,0), S 2 → "joint0": T (0,1,0) → "joint1": T (0,1,0),
   R 90° about X. The mesh node is a separate root. Inverse binds translate
   (0,−1,0) and (0,−2,0) (they leave the root's transform in):
     joint0 world: p → 2(p + (0,1,0)) + (10,0,0) = 2p + (10,2,0)
     joint1 world: p → joint0(Rx90·p + (0,1,0)) = 2·Rx90·p + (10,4,0)
     S0·p = 2(p − (0,1,0)) + (10,2,0) = 2p + (10,0,0)
     S1·p = 2·Rx90·(p − (0,2,0)) + (10,4,0) */
static void test_skin_joints_separate_branch(void) {
    scene s;
    if (!scene_open(&s, "skin_joints_separate_branch.gltf"))
        return;
    /* v0 (0,1,0), joint 0: (0,2,0) + (10,0,0) = (10,2,0)
       v1 (0,2,0), joint 1: 2·Rx90·(0,0,0) + (10,4,0) = (10,4,0)
       v2 (1,3,0), ½ + ½: S0 → (2,6,0) + (10,0,0) = (12,6,0);
                          S1 → 2·Rx90·(1,1,0) + (10,4,0) = 2·(1,0,1) + (10,4,0) = (12,4,2);
                          mean (12,5,1) */
    const double pos[3][3] = {{10, 2, 0}, {10, 4, 0}, {12, 5, 1}};
    expect(&s, "mesh", 0, 3, pos, NULL);
    scene_close(&s);
}

/* ---- 9. morph targets before skinning --------------------------------------------------------
   Mesh e0 e1 e2, normals (0,0,1); one target: position deltas (1,0,0),
   (1,0,0), (0,2,0), normal deltas (1,0,−1), 0, (0,2,−1); node.weights 0.5
   (mesh.weights 0). "joint0": R 90° about Z; "joint1" its child at T
   (2,0,0); identity inverse binds:
     S0·p = Rz90·p,  S1·p = Rz90·(p + (2,0,0)).
   v0, v1 on joint 0, v2 on joint 1. */
static void test_morph_skin(void) {
    scene s;
    if (!scene_open(&s, "morph_skin.gltf"))
        return;
    int mesh = node_named(&s, "mesh");
    if (mesh < 0)
        goto done;
    SW_CHECK_EQ_INT(s.asset->weight_count, 1);
    SW_CHECK_NEAR(s.pose.weights[s.asset->weight_offsets[mesh]], 0.5, 0); /* node.weights over mesh.weights */
    {
        /* bind space: v0 = (1,0,0) + ½(1,0,0) = (1.5,0,0); v1 = (0,1,0) + ½(1,0,0) = (0.5,1,0);
           v2 = (0,0,1) + ½(0,2,0) = (0,1,1). Skinned:
             v0 → Rz90 (0,1.5,0); v1 → Rz90 (−1,0.5,0); v2 → Rz90·(2,1,1) = (−1,2,1)
           (adding the delta after skinning would give v0 = (0,1,0) + (0.5,0,0) = (0.5,1,0).)
           normals: v0 (0,0,1) + ½(1,0,−1) = (½,0,½) → (c,0,c) → Rz90 (0,c,c);
                    v1 (0,0,1);
                    v2 (0,0,1) + ½(0,2,−1) = (0,1,½) → Rz90 (−1,0,½) → (−2,0,1)/√5 */
        const double pos[3][3] = {{0, 1.5, 0}, {-1, 0.5, 0}, {-1, 2, 1}};
        const double s5 = sqrt(5.0);
        const double nrm[3][3] = {{0, C, C}, {0, 0, 1}, {-2 / s5, 0, 1 / s5}};
        expect(&s, "mesh", 0, 3, pos, nrm);
    }
done:
    scene_close(&s);
}

/* ---- 10. a clip that starts after 0 ---------------------------------------------------------
   "a" (rest T (0,0,−7)): translation keys t=1 (1,0,0), t=3 (3,0,0).
   "b" (rest R 180° about X): rotation keys t=2 90° about Z, t=4 180° about Z.
   Both carry the triangle e0 e1 e2. Clip start 1, duration 4. */
static void expect_late(const scene* s, double tx, const double (*rotated)[3]) {
    /* a: e_k + (tx,0,0) */
    const double pos[3][3] = {{1 + tx, 0, 0}, {tx, 1, 0}, {tx, 0, 1}};
    expect(s, "a", 0, 3, pos, AXES);
    expect(s, "b", 0, 3, rotated, rotated);
}

static void test_clip_late_start(void) {
    scene s;
    if (!scene_open(&s, "clip_late_start.gltf"))
        return;
    SW_CHECK_EQ_INT(s.asset->animation_count, 1);
    if (s.asset->animation_count != 1)
        goto done;
    const sw_clip* clip = &s.asset->animations[0];
    SW_CHECK_NEAR(clip->start, 1.0, 0);
    SW_CHECK_NEAR(clip->duration, 4.0, 0);
    static const double z90[3][3] = ROT_Z90;
    /* 135° about Z: e0 → (cos 135°, sin 135°, 0) = (−c,c,0), e1 → (−sin, cos, 0) = (−c,−c,0) */
    static const double z135[3][3] = {{-C, C, 0}, {-C, -C, 0}, {0, 0, 1}};
    static const double z180[3][3] = {{-1, 0, 0}, {0, -1, 0}, {0, 0, 1}};

    /* t = 0.5: both before their first keys: a (1,0,0), b Rz90 */
    scene_pose(&s, 0, sw_clip_time(clip, 0.5f, false));
    expect_late(&s, 1, z90);
    /* t = 1.5: a between its keys at s = (1.5−1)/2 = ¼: 1 + ¼·(3−1) = 1.5; b still before its first key (2) */
    scene_pose(&s, 0, sw_clip_time(clip, 1.5f, false));
    expect_late(&s, 1.5, z90);
    /* t = 3: a at its last key (3,0,0); b halfway: slerp(Rz90, Rz180, ½) = Rz135 */
    scene_pose(&s, 0, sw_clip_time(clip, 3.0f, false));
    expect_late(&s, 3, z135);
    /* t = 5: after both: a (3,0,0), b Rz180 */
    scene_pose(&s, 0, sw_clip_time(clip, 5.0f, false));
    expect_late(&s, 3, z180);
    /* looping: 4.5 wraps to 0.5, before both first keys again */
    SW_CHECK_NEAR(sw_clip_time(clip, 4.5f, true), 0.5, 1e-6);
    scene_pose(&s, 0, sw_clip_time(clip, 4.5f, true));
    expect_late(&s, 1, z90);
done:
    scene_close(&s);
}

/* ---- 11. rigid animated mesh; node.weights over mesh.weights ---------------------------------
   rigid_animated.gltf: "parent" rotates about Z, identity at t=0 to 90° at
   t=1 (LINEAR); its child "child" at T (1,0,0) has the triangle (0,0,0)
   (1,0,0) (0,1,0), normals (1,0,0). World: Rz(a)·(p + (1,0,0)). */
static void test_rigid_animated(void) {
    scene s;
    if (!scene_open(&s, "rigid_animated.gltf"))
        return;
    const sw_clip* clip = &s.asset->animations[0];
    {
        /* t = 0: identity: (1,0,0) (2,0,0) (1,1,0) */
        scene_pose(&s, 0, sw_clip_time(clip, 0.0f, false));
        const double pos[3][3] = {{1, 0, 0}, {2, 0, 0}, {1, 1, 0}};
        const double nrm[3][3] = {{1, 0, 0}, {1, 0, 0}, {1, 0, 0}};
        expect(&s, "child", 0, 3, pos, nrm);
    }
    {
        /* t = 0.5: Rz45, (x,y) → (c(x−y), c(x+y)):
           (1,0,0) → (c,c,0); (2,0,0) → (2c,2c,0); (1,1,0) → (0,2c,0); normals (c,c,0) */
        scene_pose(&s, 0, sw_clip_time(clip, 0.5f, false));
        const double pos[3][3] = {{C, C, 0}, {2 * C, 2 * C, 0}, {0, 2 * C, 0}};
        const double nrm[3][3] = {{C, C, 0}, {C, C, 0}, {C, C, 0}};
        expect(&s, "child", 0, 3, pos, nrm);
    }
    /* t = 1 (last key) and t = 2 (after): Rz90, (x,y,z) → (−y,x,z):
       (1,0,0) → (0,1,0); (2,0,0) → (0,2,0); (1,1,0) → (−1,1,0); normals (0,1,0) */
    for (int i = 0; i < 2; i++) {
        scene_pose(&s, 0, sw_clip_time(clip, i == 0 ? 1.0f : 2.0f, false));
        const double pos[3][3] = {{0, 1, 0}, {0, 2, 0}, {-1, 1, 0}};
        const double nrm[3][3] = {{0, 1, 0}, {0, 1, 0}, {0, 1, 0}};
        expect(&s, "child", 0, 3, pos, nrm);
    }
    scene_close(&s);
}

/* morph_node_weights.gltf: triangle (0,0,0) (1,0,0) (0,1,0); target 0 moves
   every vertex by (0,0,1), target 1 moves them by (1,0,0), (0,1,0), 0;
   mesh.weights (0.25, 0.75). "own_weights" has node.weights (1, 0);
   "mesh_weights" has none and sits at T (5,0,0). */
static void test_morph_node_weights(void) {
    scene s;
    if (!scene_open(&s, "morph_node_weights.gltf"))
        return;
    int own = node_named(&s, "own_weights"), defaults = node_named(&s, "mesh_weights");
    if (own < 0 || defaults < 0)
        goto done;
    SW_CHECK_EQ_INT(s.asset->weight_count, 4); /* two nodes × two targets */
    SW_CHECK(s.asset->weight_offsets[own] != s.asset->weight_offsets[defaults]);
    SW_CHECK_NEAR(s.pose.weights[s.asset->weight_offsets[own] + 0], 1, 0);
    SW_CHECK_NEAR(s.pose.weights[s.asset->weight_offsets[own] + 1], 0, 0);
    SW_CHECK_NEAR(s.pose.weights[s.asset->weight_offsets[defaults] + 0], 0.25, 0);
    SW_CHECK_NEAR(s.pose.weights[s.asset->weight_offsets[defaults] + 1], 0.75, 0);
    {
        /* (1, 0): every vertex + (0,0,1) */
        const double pos[3][3] = {{0, 0, 1}, {1, 0, 1}, {0, 1, 1}};
        expect(&s, "own_weights", 0, 3, pos, NULL);
    }
    {
        /* (0.25, 0.75), then + (5,0,0):
           v0 (0,0,0) + (0,0,0.25) + 0.75·(1,0,0) = (0.75,0,0.25) → (5.75,0,0.25)
           v1 (1,0,0) + (0,0,0.25) + 0.75·(0,1,0) = (1,0.75,0.25) → (6,0.75,0.25)
           v2 (0,1,0) + (0,0,0.25)                = (0,1,0.25)    → (5,1,0.25) */
        const double pos[3][3] = {{5.75, 0, 0.25}, {6, 0.75, 0.25}, {5, 1, 0.25}};
        expect(&s, "mesh_weights", 0, 3, pos, NULL);
    }
done:
    scene_close(&s);
}

/* ---- 12. rotation keys that are not unit in the file ---------------------------------------
   "spin" (triangle e0 e1 e2, normals e0 e1 e2): LINEAR keys t=0 (0,0,0,3)
   and t=1 (0,0,2,2), i.e. identity and 90° about Z scaled by 3 and 2√2.
   The importer normalises them. */
static void test_rotation_unnormalized(void) {
    scene s;
    if (!scene_open(&s, "rotation_unnormalized.gltf"))
        return;
    const sw_clip* clip = &s.asset->animations[0];
    SW_CHECK_EQ_INT(clip->track_count, 1);
    if (clip->track_count == 1 && clip->tracks[0].key_count == 2) {
        const float* q = clip->tracks[0].values;
        /* (0,0,0,3)/3 = (0,0,0,1); (0,0,2,2)/(2√2) = (0,0,c,c) */
        SW_CHECK_NEAR(q[3], 1, 1e-6);
        SW_CHECK_NEAR(q[6], C, 1e-6);
        SW_CHECK_NEAR(q[7], C, 1e-6);
    }
    {
        scene_pose(&s, 0, 0.0f);
        expect(&s, "spin", 0, 3, AXES, AXES);
    }
    {
        /* t = 0.25: Rz22.5: cos(π/8) = √(2+√2)/2, sin(π/8) = √(2−√2)/2 */
        scene_pose(&s, 0, 0.25f);
        const double co = sqrt(2 + sqrt(2.0)) / 2, si = sqrt(2 - sqrt(2.0)) / 2;
        const double rot[3][3] = {{co, si, 0}, {-si, co, 0}, {0, 0, 1}};
        expect(&s, "spin", 0, 3, rot, rot);
    }
    {
        /* t = 0.5: Rz45 */
        scene_pose(&s, 0, 0.5f);
        const double rot[3][3] = {{C, C, 0}, {-C, C, 0}, {0, 0, 1}};
        expect(&s, "spin", 0, 3, rot, rot);
    }
    {
        /* t = 1: Rz90 (an unnormalised (0,0,2,2) would scale by |q|² = 8) */
        scene_pose(&s, 0, 1.0f);
        const double rot[3][3] = ROT_Z90;
        expect(&s, "spin", 0, 3, rot, rot);
    }
    scene_close(&s);
}

/* ---- 13. KHR_mesh_quantization --------------------------------------------------------------
   "i16": POSITION i16 normalised, (32767,0,−32768) (0,16384,0)
   (−16384,0,32767): c/32767 with −32768 clamped to −1; node T (0,0,1), S 2.
   "u8": POSITION u8 integers (0,0,0) (10,0,0) (0,20,0), NORMAL i8 normalised
   (0,0,127) (0,127,0) (−127,0,0); node T (1,0,0), S 0.1. */
static void test_quantized(void) {
    scene s;
    if (!scene_open(&s, "quantized.gltf"))
        return;
    {
        const float* p = s.asset->meshes[0].primitives[0].positions;
        SW_CHECK_NEAR(p[0], 1, 0);                 /* 32767/32767 */
        SW_CHECK_NEAR(p[2], -1, 0);                /* max(−32768/32767, −1) */
        SW_CHECK_NEAR(p[4], 16384.0 / 32767, 1e-7);
    }
    {
        /* 2p + (0,0,1): (2,0,−2+1) = (2,0,−1); (0, 2·16384/32767, 1) = (0, 32768/32767, 1);
           (−32768/32767, 0, 2+1) */
        const double pos[3][3] = {{2, 0, -1}, {0, 32768.0 / 32767, 1}, {-32768.0 / 32767, 0, 3}};
        expect(&s, "i16", 0, 3, pos, NULL);
    }
    {
        /* 0.1p + (1,0,0): (1,0,0), (1+1,0,0) = (2,0,0), (1,2,0); normals c/127 = ±1, uniform scale */
        const double pos[3][3] = {{1, 0, 0}, {2, 0, 0}, {1, 2, 0}};
        const double nrm[3][3] = {{0, 0, 1}, {0, 1, 0}, {-1, 0, 0}};
        expect(&s, "u8", 0, 3, pos, nrm);
    }
    scene_close(&s);
}

int main(void) {
    SW_RUN(test_interp_rest_pose);
    SW_RUN(test_interp_step);
    SW_RUN(test_interp_linear);
    SW_RUN(test_interp_cubicspline);
    SW_RUN(test_sparse);
    SW_RUN(test_weights_normalized);
    SW_RUN(test_buffer_external);
    SW_RUN(test_glb);
    SW_RUN(test_matrix_vs_trs);
    SW_RUN(test_skin_no_ibm);
    SW_RUN(test_skin_mesh_transform_ignored);
    SW_RUN(test_skin_joints_separate_branch);
    SW_RUN(test_morph_skin);
    SW_RUN(test_clip_late_start);
    SW_RUN(test_rigid_animated);
    SW_RUN(test_morph_node_weights);
    SW_RUN(test_rotation_unnormalized);
    SW_RUN(test_quantized);
    return sw_test_finish();
}
