/* Every valid asset under $SINEW_ASSETS/gltf loads with the counts listed
   in the assets' README (vertices = sum of POSITION counts, triangles,
   joints, influences, animations with names, start and duration, channel
   counts, interpolations). Skipped, saying so, when SINEW_ASSETS is unset. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "sinew/gltf.h"
#include "sinew/import.h"

typedef struct anim_expect {
    const char* name;   /* NULL = unnamed */
    double start, duration;
    size_t tracks;
    int interpolation;  /* of every track; 0 = not checked */
} anim_expect;

typedef struct asset_expect {
    const char* path;
    size_t vertices, triangles, primitives;
    size_t joints;          /* of skins[0]; 0 = no skin */
    int max_influences;     /* most non-zero weights on one vertex */
    size_t animation_count;
    anim_expect anims[14];
    const char* warning;    /* a warning that must be there, or NULL for none at all */
} asset_expect;

#define L SW_INTERP_LINEAR
#define C SW_INTERP_CUBICSPLINE
#define S SW_INTERP_STEP
static const asset_expect assets[] = {
    {"khronos/cesium_man.gltf", 3273, 4672, 1, 19, 4, 1, {{NULL, 0, 2.0, 57, L}},
     "210 vertices have weights that do not sum to 1"},
    {"khronos/rigged_simple.gltf", 160, 188, 1, 2, 2, 1, {{NULL, 0.0417, 2.0833, 3, L}}, NULL},
    {"khronos/box_animated.gltf", 320, 254, 2, 0, 0, 1, {{NULL, 0, 3.7083, 2, L}}, NULL},
    {"khronos/interpolation_test.gltf", 220, 110, 10, 0, 0, 9,
     {{"Step Scale", 0.0417, 1.6667, 1, S},
      {"Linear Scale", 0.0417, 1.6667, 1, C}, /* sic: the file uses CUBICSPLINE */
      {"CubicSpline Scale", 0.0417, 1.6667, 1, C},
      {"Step Rotation", 0, 1.7083, 1, S},
      {"CubicSpline Rotation", 0, 1.7083, 1, C},
      {"Linear Rotation", 0, 1.7083, 1, L},
      {"Step Translation", 0, 1.7083, 1, S},
      {"CubicSpline Translation", 0, 1.6667, 1, C},
      {"Linear Translation", 0, 1.6667, 1, L}},
     NULL},
    {"khronos/triangle.gltf", 3, 1, 1, 0, 0, 0, {{0}}, NULL},
    {"assimp/simple_skin/simple_skin.gltf", 10, 8, 1, 2, 2, 1, {{NULL, 0, 5.5, 1, L}}, NULL},
    {"assimp/AnimatedMorphCube-glTF/AnimatedMorphCube.gltf", 24, 12, 1, 0, 0, 1, {{"Square", 0, 4.2, 1, L}}, NULL},
    {"pab/arnaud_locomotion.glb", 3748, 6670, 1, 53, 4, 4,
     {{"crossarms", 0, 8.6, 159, L}, {"jog", 0, 0.8, 159, L}, {"run", 0, 0.6667, 159, L}, {"walk", 0, 1.3333, 159, L}},
     NULL},
    {"pab/crowd_stress.glb", 320162, 640320, 1, 53, 4, 1, {{"walk", 0, 1.3333, 159, L}}, NULL},
    {"synthetic/twist_tube.glb", 4355, 8320, 1, 2, 2, 2, {{"bend", 0, 2, 1, L}, {"twist", 0, 2, 1, L}}, NULL},
    {"synthetic/eight_influences.glb", 2394, 4656, 1, 12, 8, 1, {{"wave", 0, 2, 12, L}}, NULL},
    {"synthetic/morph_skin.glb", 1122, 2112, 1, 2, 2, 1, {{"flex", 0, 2, 2, L}}, NULL},
    {"synthetic/scaled_joint.glb", 1122, 2112, 1, 2, 2, 2, {{"scale", 0, 2, 1, L}, {"shear", 0, 2, 2, L}}, NULL},
    {"synthetic/cubic_spline.glb", 1122, 2112, 1, 2, 2, 1, {{"wiggle", 0, 2, 3, C}}, NULL},
    {"cc0/robot.glb", 7218, 3238, 19, 43, 4, 14,
     {{"Robot_Dance", 0, 3.3333, 129, L}, {"Robot_Death", 0, 0.9583, 129, L}, {"Robot_Idle", 0, 3.3333, 129, L},
      {"Robot_Jump", 0, 0.7083, 129, L}, {"Robot_No", 0, 1.6667, 129, L}, {"Robot_Punch", 0, 0.8333, 129, L},
      {"Robot_Running", 0, 0.9583, 129, L}, {"Robot_Sitting", 0, 0.4167, 129, L},
      {"Robot_Standing", 0, 0.4167, 129, L}, {"Robot_ThumbsUp", 0, 1.5833, 129, L},
      {"Robot_Walking", 0, 0.9583, 129, L}, {"Robot_WalkJump", 0, 0.8333, 129, L}, {"Robot_Wave", 0, 1.8333, 129, L},
      {"Robot_Yes", 0, 1.6667, 129, L}},
     NULL},
    {"cc0/greenman.glb", 196, 356, 1, 12, 4, 4,
     {{"0_pose", 0.0417, 0.1667, 36, L}, {"1_idle", 0.0417, 2.5, 36, L}, {"2_move", 0.0417, 1.25, 36, L},
      {"3_attack", 0.0417, 0.8333, 36, L}},
     NULL},
};
#undef L
#undef C
#undef S

static const char* assets_dir(void) {
    const char* dir = getenv("SINEW_ASSETS");
    return dir && *dir ? dir : NULL;
}

#define NEED_ASSETS()                                                                     \
    do {                                                                                  \
        if (!assets_dir()) SW_SKIP("SINEW_ASSETS is not set: the glTF asset tests need it"); \
    } while (0)

static sw_model* load_asset(const char* relative) {
    char path[1024];
    snprintf(path, sizeof path, "%s/gltf/%s", assets_dir(), relative);
    sw_model* a = NULL;
    sw_diag d;
    sw_result r = sw_gltf_load_file(path, NULL, &a, &d);
    if (r != SW_OK) fprintf(stderr, "  %s: %s\n", relative, d.message);
    SW_CHECK_EQ_INT(r, SW_OK);
    return a;
}

/* Non-zero weights per vertex, over all primitives: hist[n] vertices have n. */
static int influence_histogram(const sw_model* a, size_t hist[9]) {
    int most = 0;
    memset(hist, 0, 9 * sizeof hist[0]);
    for (size_t m = 0; m < a->mesh_count; m++) {
        for (size_t p = 0; p < a->meshes[m].primitive_count; p++) {
            const sw_model_primitive* prim = &a->meshes[m].primitives[p];
            for (size_t v = 0; v < prim->vertex_count && prim->influence_count; v++) {
                int n = 0;
                double sum = 0;
                for (int i = 0; i < prim->influence_count; i++) {
                    float w = prim->weights[v * (size_t)prim->influence_count + (size_t)i];
                    n += w > 0.0f;
                    sum += w;
                }
                SW_CHECK_NEAR(sum, 1.0, 1e-5);
                hist[n]++;
                if (n > most) most = n;
            }
        }
    }
    return most;
}

static void check_asset(const asset_expect* e) {
    sw_model* a = load_asset(e->path);
    if (!a) return;
    size_t vertices = 0, triangles = 0, primitives = 0;
    for (size_t m = 0; m < a->mesh_count; m++) {
        for (size_t p = 0; p < a->meshes[m].primitive_count; p++) {
            const sw_model_primitive* prim = &a->meshes[m].primitives[p];
            vertices += prim->vertex_count;
            if (prim->mode == SW_MODEL_TRIANGLES)
                triangles += (prim->indices ? prim->index_count : prim->vertex_count) / 3;
            primitives++;
        }
    }
    SW_CHECK_EQ_INT(vertices, e->vertices);
    SW_CHECK_EQ_INT(triangles, e->triangles);
    SW_CHECK_EQ_INT(primitives, e->primitives);
    SW_CHECK_EQ_INT(a->skin_count ? a->skins[0].joint_count : 0, e->joints);
    size_t hist[9];
    SW_CHECK_EQ_INT(influence_histogram(a, hist), e->max_influences);
    SW_CHECK_EQ_INT(a->animation_count, e->animation_count);
    for (size_t i = 0; i < a->animation_count && i < e->animation_count; i++) {
        const sw_clip* c = &a->animations[i];
        const anim_expect* x = &e->anims[i];
        SW_CHECK((c->name == NULL) == (x->name == NULL));
        SW_CHECK(!c->name || !x->name || strcmp(c->name, x->name) == 0);
        SW_CHECK_NEAR(c->start, x->start, 1e-4);
        SW_CHECK_NEAR(c->duration, x->duration, 1e-4);
        SW_CHECK_EQ_INT(c->track_count, x->tracks);
        for (size_t t = 0; t < c->track_count; t++) {
            const sw_track* tr = &c->tracks[t];
            if (x->interpolation) SW_CHECK_EQ_INT(tr->interpolation, x->interpolation);
            SW_CHECK(tr->target < a->node_count && tr->key_count >= 1);
            for (size_t k = 1; k < tr->key_count; k++) SW_CHECK(tr->times[k] > tr->times[k - 1]);
        }
    }
    if (e->warning) {
        bool found = false;
        for (size_t w = 0; w < a->warning_count; w++) found = found || strstr(a->warnings[w], e->warning);
        SW_CHECK(found);
    } else {
        for (size_t w = 0; w < a->warning_count; w++) fprintf(stderr, "  unexpected warning: %s\n", a->warnings[w]);
        SW_CHECK_EQ_INT(a->warning_count, 0);
    }
    /* nodes are stored parents first, and source_index is a permutation of
       the file's nodes that node_from_source inverts */
    bool* seen = calloc(a->node_count + 1, sizeof *seen);
    SW_CHECK(seen != NULL);
    for (size_t n = 0; n < a->node_count && seen; n++) {
        SW_CHECK(a->nodes[n].parent < (int32_t)n);
        uint32_t source = a->nodes[n].source_index;
        SW_CHECK(source < a->node_count);
        if (source >= a->node_count) continue;
        SW_CHECK(!seen[source]);
        seen[source] = true;
        SW_CHECK_EQ_INT(a->node_from_source[source], n);
    }
    free(seen);
    sw_model_free(a);
}

static void test_asset_table(void) {
    NEED_ASSETS();
    for (size_t i = 0; i < sizeof assets / sizeof assets[0]; i++) check_asset(&assets[i]);
}

static void test_cesium_man(void) {
    NEED_ASSETS();
    sw_model* a = load_asset("khronos/cesium_man.gltf");
    if (!a) return;
    const sw_model_primitive* p = &a->meshes[0].primitives[0];
    SW_CHECK(p->normals && p->texcoord_count == 1 && p->influence_count == 4 && p->influence_sets == 1);
    SW_CHECK(a->skins[0].inverse_bind != NULL && strcmp(a->skins[0].name, "Armature") == 0);
    /* 19 T/R/S triples */
    size_t paths[4] = {0};
    for (size_t t = 0; t < a->animations[0].track_count; t++) paths[a->animations[0].tracks[t].path]++;
    SW_CHECK(paths[SW_PATH_TRANSLATION] == 19 && paths[SW_PATH_ROTATION] == 19 && paths[SW_PATH_SCALE] == 19);
    /* the embedded JPEG decodes */
    SW_CHECK_EQ_INT(a->image_count, 1);
    uint8_t* pixels = NULL;
    int w = 0, h = 0;
    sw_diag d;
    SW_CHECK_EQ_INT(sw_model_decode_image(a, 0, &pixels, &w, &h, &d), SW_OK);
    SW_CHECK(pixels && w > 0 && h > 0);
    sw_model_image_free(pixels);
    sw_model_free(a);
}

static void test_eight_influences(void) {
    NEED_ASSETS();
    sw_model* a = load_asset("synthetic/eight_influences.glb");
    if (!a) return;
    const sw_model_primitive* p = &a->meshes[0].primitives[0];
    SW_CHECK_EQ_INT(p->influence_count, 8);
    SW_CHECK_EQ_INT(p->influence_sets, 2);
    size_t hist[9];
    influence_histogram(a, hist);
    const size_t expect[9] = {0, 0, 0, 0, 114, 384, 384, 384, 1128};
    for (int n = 0; n < 9; n++) SW_CHECK_EQ_INT(hist[n], expect[n]);
    SW_CHECK_EQ_INT(a->animations[0].tracks[0].key_count, 31);
    sw_model_free(a);
    /* with max_influences 4 every vertex keeps 4, with warnings */
    char path[1024];
    snprintf(path, sizeof path, "%s/gltf/synthetic/eight_influences.glb", assets_dir());
    sw_diag d;
    SW_CHECK_EQ_INT(sw_gltf_load_file(path, &(sw_gltf_options){.max_influences = 4}, &a, &d), SW_OK);
    if (!a) return;
    SW_CHECK_EQ_INT(a->meshes[0].primitives[0].influence_count, 4);
    SW_CHECK_EQ_INT(influence_histogram(a, hist), 4);
    SW_CHECK_EQ_INT(hist[4], 2394);
    SW_CHECK(a->warning_count == 1 && strstr(a->warnings[0], "2280 vertices have more than 4 non-zero weights"));
    sw_model_free(a);
}

static void test_crowd_stress(void) {
    NEED_ASSETS();
    sw_model* a = load_asset("pab/crowd_stress.glb");
    if (!a) return;
    const sw_model_primitive* p = &a->meshes[0].primitives[0];
    SW_CHECK_EQ_INT(p->index_count, 3 * 640320);
    SW_CHECK(p->normals && p->texcoord_count == 0);
    size_t hist[9];
    influence_histogram(a, hist);
    SW_CHECK(hist[1] == 87892 && hist[2] == 120801 && hist[3] == 75440 && hist[4] == 36029);
    sw_model_free(a);
}

static void test_morph_assets(void) {
    NEED_ASSETS();
    sw_model* a = load_asset("assimp/AnimatedMorphCube-glTF/AnimatedMorphCube.gltf");
    if (a) {
        const sw_model_primitive* p = &a->meshes[0].primitives[0];
        SW_CHECK_EQ_INT(p->target_count, 2);
        SW_CHECK(p->targets[0].positions && p->targets[0].normals && p->targets[0].tangents);
        SW_CHECK_EQ_INT(a->meshes[0].weight_count, 2);
        SW_CHECK_EQ_INT(a->weight_count, 2);
        const sw_track* t = &a->animations[0].tracks[0];
        SW_CHECK(t->path == SW_PATH_WEIGHTS && t->component_count == 2 && t->key_count == 127);
        sw_model_free(a);
    }
    a = load_asset("synthetic/morph_skin.glb");
    if (a) {
        const sw_model_mesh* m = &a->meshes[0];
        SW_CHECK(m->weight_count == 2 && m->weights[0] == 0.0f && m->weights[1] == 0.0f);
        SW_CHECK(m->target_names && strcmp(m->target_names[0], "bulge") == 0 &&
                 strcmp(m->target_names[1], "flatten") == 0);
        SW_CHECK(m->primitives[0].targets[1].positions && m->primitives[0].targets[1].normals);
        size_t weights = 0;
        for (size_t t = 0; t < a->animations[0].track_count; t++)
            weights += a->animations[0].tracks[t].path == SW_PATH_WEIGHTS;
        SW_CHECK_EQ_INT(weights, 1);
        sw_model_free(a);
    }
}

static void test_key_values(void) {
    NEED_ASSETS();
    /* twist: (0,0,0,1) → (0,0.9962,0,0.0872) on `tip` */
    sw_model* a = load_asset("synthetic/twist_tube.glb");
    if (a) {
        const sw_clip* twist = strcmp(a->animations[0].name, "twist") == 0 ? &a->animations[0] : &a->animations[1];
        const sw_track* t = &twist->tracks[0];
        SW_CHECK(t->path == SW_PATH_ROTATION && t->key_count == 2);
        SW_CHECK(strcmp(a->nodes[t->target].name, "tip") == 0);
        SW_CHECK_NEAR(t->values[3], 1.0, 1e-6);
        SW_CHECK_NEAR(t->values[5], 0.9962, 1e-4);
        SW_CHECK_NEAR(t->values[7], 0.0872, 1e-4);
        sw_model_free(a);
    }
    /* cubic_spline: 4 keys at 0, 2/3, 4/3, 2 s, 3 values per key */
    a = load_asset("synthetic/cubic_spline.glb");
    if (a) {
        for (size_t i = 0; i < a->animations[0].track_count; i++) {
            const sw_track* t = &a->animations[0].tracks[i];
            SW_CHECK_EQ_INT(t->key_count, 4);
            SW_CHECK_NEAR(t->times[1], 2.0 / 3.0, 1e-4);
            SW_CHECK_NEAR(t->times[3], 2.0, 1e-6);
            if (t->path == SW_PATH_ROTATION) {
                for (size_t k = 0; k < 4; k++) {
                    const float* q = &t->values[(3 * k + 1) * 4];
                    SW_CHECK_NEAR(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3], 1.0, 1e-6);
                }
            }
        }
        sw_model_free(a);
    }
    /* interpolation_test: its texture l.jpg is missing, which only decoding reports */
    a = load_asset("khronos/interpolation_test.gltf");
    if (a) {
        SW_CHECK(a->image_count >= 1);
        uint8_t* pixels;
        int w, h;
        sw_diag d;
        SW_CHECK_EQ_INT(sw_model_decode_image(a, 0, &pixels, &w, &h, &d), SW_ERR_IO);
        SW_CHECK(strstr(d.message, "l.jpg"));
        for (size_t i = 0; i < a->animation_count; i++) SW_CHECK_EQ_INT(a->animations[i].tracks[0].key_count, 5);
        sw_model_free(a);
    }
    /* arnaud: key counts 259, 25, 21, 41; the root `Hips` has scale 0.01 */
    a = load_asset("pab/arnaud_locomotion.glb");
    if (a) {
        const size_t keys[4] = {259, 25, 21, 41};
        for (size_t i = 0; i < 4 && i < a->animation_count; i++)
            SW_CHECK_EQ_INT(a->animations[i].tracks[0].key_count, keys[i]);
        bool found = false;
        for (size_t n = 0; n < a->node_count; n++) {
            if (a->nodes[n].name && strcmp(a->nodes[n].name, "Hips") == 0) {
                found = true;
                SW_CHECK_NEAR(a->nodes[n].trs.scale.x, 0.01, 1e-6);
            }
        }
        SW_CHECK(found);
        sw_model_free(a);
    }
}

/* robot.glb: 14 mesh nodes, each skinned by the one skin (the file has no
   rigid meshes and no images, whatever its description suggests). */
static void test_robot(void) {
    NEED_ASSETS();
    sw_model* a = load_asset("cc0/robot.glb");
    if (!a) return;
    SW_CHECK_EQ_INT(a->mesh_count, 14);
    size_t skinned = 0;
    for (size_t n = 0; n < a->node_count; n++)
        if (a->nodes[n].mesh >= 0 && a->nodes[n].skin == 0) skinned++;
    SW_CHECK_EQ_INT(skinned, 14);
    SW_CHECK_EQ_INT(a->image_count, 0);
    SW_CHECK(strcmp(a->skins[0].name, "RobotArmature") == 0);
    sw_model_free(a);
}

int main(void) {
    SW_RUN(test_asset_table);
    SW_RUN(test_cesium_man);
    SW_RUN(test_eight_influences);
    SW_RUN(test_crowd_stress);
    SW_RUN(test_morph_assets);
    SW_RUN(test_key_values);
    SW_RUN(test_robot);
    return sw_test_finish();
}
