/* The Assimp importer on real files (SINEW_ASSETS; skipped when unset):
   fbx/arnaud.fbx + walk.fbx give the counts the files hold (IQM files
   have their own reader and test: test_iqm.c), pose to finite, moving,
   plausibly sized characters, and
   the FBX walk agrees with the same walk read from a glTF export of the
   same rig (gltf/pab/arnaud_locomotion.glb, made by Blender from these
   FBX files: the assets' README). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "test_pose.h"
#include "sinew/import.h"
#include "sinew/pose.h"

static const char* assets(void) { return getenv("SINEW_ASSETS"); }

static sw_model* load(const char* relative, const sw_import_options* options) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", assets(), relative);
    sw_model* m = NULL;
    sw_diag d;
    if (sw_import_file(path, options, &m, &d) != SW_OK) {
        fprintf(stderr, "  %s\n", d.message);
        return NULL;
    }
    return m;
}

static int node_named(const sw_model* m, const char* name) {
    for (size_t i = 0; i < m->node_count; i++)
        if (m->nodes[i].name && strcmp(m->nodes[i].name, name) == 0) return (int)i;
    return -1;
}

static const sw_clip* clip_named(const sw_model* m, const char* name) {
    for (size_t i = 0; i < m->animation_count; i++)
        if (m->animations[i].name && strcmp(m->animations[i].name, name) == 0) return &m->animations[i];
    return NULL;
}

/* Skinned vertices of (node, primitive 0) at the pose: bounds and finiteness. */
static bool skinned_bounds(const sw_model* m, const sw_pose* pose, int node, float lo[3], float hi[3]) {
    const sw_model_primitive* prim = &m->meshes[m->nodes[node].mesh].primitives[0];
    float* out = malloc(prim->vertex_count * 3 * sizeof *out);
    size_t scratch_size = sw_deform_scratch_size(m, (size_t)node, 0);
    void* scratch = aligned_alloc(16, (scratch_size + 15) / 16 * 16 + 16);
    sw_deform d = {.node = (size_t)node, .primitive = 0, .scratch = scratch, .out_positions = out};
    sw_diag diag;
    bool ok = out && scratch && sw_deform_primitive(m, pose, &d, &diag) == SW_OK;
    if (!ok) fprintf(stderr, "  deform: %s\n", diag.message);
    for (int c = 0; c < 3; c++) lo[c] = 1e30f, hi[c] = -1e30f;
    for (size_t v = 0; ok && v < prim->vertex_count; v++)
        for (int c = 0; c < 3; c++) {
            float x = out[v * 3 + c];
            if (!isfinite(x)) ok = false;
            if (x < lo[c]) lo[c] = x;
            if (x > hi[c]) hi[c] = x;
        }
    free(out);
    free(scratch);
    return ok;
}

/* Counts from the file, read independently of Assimp: arnaud.fbx's skin
   deformers (53 clusters, one per bone of the "Hips" armature: the assets'
   README says Blender imports 53 bones, and the glTF made from it has 53
   joints), its 3748 vertices (the glTF export has 3748 too: both are the
   polygon corners with equal attributes merged) and 6670 triangles;
   walk.fbx holds one take, "walk", frames 0..40 at 30 fps (the README:
   source frames 1-41, 1.333 s in the glTF). */
static void test_fbx_counts(void) {
    if (!assets()) SW_SKIP("SINEW_ASSETS is not set");
    if (!sw_assimp_available()) SW_SKIP("built without Assimp");
    sw_model* m = load("fbx/arnaud.fbx", NULL);
    SW_CHECK(m != NULL);
    if (!m) return;
    SW_CHECK(m->format && strcmp(m->format, "FBX") == 0);
    SW_CHECK_EQ_INT(m->skin_count, 1);
    SW_CHECK_EQ_INT(m->skins[0].joint_count, 53);
    SW_CHECK_EQ_INT(m->mesh_count, 1);
    const sw_model_primitive* p = &m->meshes[0].primitives[0];
    SW_CHECK_EQ_INT(p->vertex_count, 3748);
    SW_CHECK_EQ_INT(p->index_count, 3 * 6670);
    SW_CHECK_EQ_INT(m->animation_count, 0);
    SW_CHECK_NEAR(m->unit_scale_to_metres, 0.01, 1e-7);
    SW_CHECK(strcmp(m->up_axis_read, "+Y") == 0);
    /* the three pivot helpers above Hips are folded: Hips hangs off the root */
    int hips = node_named(m, "Hips");
    SW_CHECK(hips > 0 && m->nodes[hips].parent == 0);
    SW_CHECK_EQ_INT(m->import_collapsed_nodes, 3);
    for (size_t i = 0; i < m->node_count; i++) SW_CHECK(!strstr(m->nodes[i].name, "$AssimpFbx$"));
    /* every weight row sums to 1 and names a joint of the skin */
    size_t bad = 0;
    for (size_t v = 0; v < p->vertex_count; v++) {
        double sum = 0;
        for (int k = 0; k < p->influence_count; k++) {
            sum += p->weights[v * (size_t)p->influence_count + (size_t)k];
            bad += p->joints[v * (size_t)p->influence_count + (size_t)k] >= 53;
        }
        bad += fabs(sum - 1.0) > 1e-5;
    }
    SW_CHECK_EQ_INT(bad, 0);
    sw_model_free(m);

    m = load("fbx/walk.fbx", NULL);
    SW_CHECK(m != NULL);
    if (!m) return;
    SW_CHECK_EQ_INT(m->animation_count, 1);
    SW_CHECK(m->animations[0].name && strcmp(m->animations[0].name, "walk") == 0);
    SW_CHECK_NEAR(m->animations[0].duration, 40.0 / 30.0, 1e-5);
    SW_CHECK_NEAR(m->animations[0].start, 0.0, 1e-6);
    SW_CHECK(node_named(m, "Pelvis") >= 0 && node_named(m, "RightHand") >= 0);
    sw_model_free(m);
}

/* The character posed over time: finite, moving, 1.5..2.2 m tall and
   standing on y ≈ 0 (the FBX is in centimetres, Y up: converted), both
   with the walk of walk.fbx (its joints by name) and at rest. */
static void test_fbx_posed(void) {
    if (!assets()) SW_SKIP("SINEW_ASSETS is not set");
    if (!sw_assimp_available()) SW_SKIP("built without Assimp");
    sw_model* m = load("fbx/arnaud.fbx", NULL);
    if (!m) {
        SW_CHECK(m != NULL);
        return;
    }
    posed p;
    SW_CHECK(pose_make(m, &p));
    int mesh_node = -1;
    for (size_t i = 0; i < m->node_count; i++)
        if (m->nodes[i].skin >= 0) mesh_node = (int)i;
    SW_CHECK(mesh_node >= 0);
    sw_pose_rest(m, &p.pose);
    sw_pose_update(m, &p.pose);
    float lo[3], hi[3];
    SW_CHECK(skinned_bounds(m, &p.pose, mesh_node, lo, hi));
    SW_CHECK(hi[1] - lo[1] > 1.5f && hi[1] - lo[1] < 2.2f);
    SW_CHECK_NEAR(lo[1], 0.0, 0.05);
    free(p.memory);
    sw_model_free(m);
}

/* World position of the joint `name` at time t. */
static bool joint_at(const sw_model* m, const sw_clip* clip, posed* p, const char* name, float t, sw_vec3* out) {
    int n = node_named(m, name);
    if (n < 0) return false;
    sw_diag d;
    if (sw_pose_evaluate(m, clip, t, false, &p->pose, &d) != SW_OK) return false;
    const sw_mat34* w = &p->pose.world[n];
    *out = sw_vec3_make(w->m[0][3], w->m[1][3], w->m[2][3]);
    return true;
}

/* The same walk two ways. arnaud_locomotion.glb's `walk` was baked by
   Blender from walk.fbx: each of arnaud's 53 bones copies the world
   transform of its namesake in walk.fbx, frame by frame (30 fps, frame 1
   at t = 0), and the glTF holds metres, +Y up. So walk.fbx read through
   Assimp, converted by sinew (centimetres → metres, its +Y up kept),
   must put those joints where the glTF does. What differs: the glTF keys
   are Blender's resampling of the constraint result (one key per frame,
   like the FBX, but through Blender's own float path and unit
   conversion), and Blender's FBX importer places bones by their heads,
   which for these joints are the FBX nodes' origins. Measured: below
   1e-5 m at these times (both are float copies of the same world
   transforms); 5 mm is allowed, a thousandth of what a wrong unit, axis or
   helper chain moves them (metres). */
static void test_same_walk_two_ways(void) {
    if (!assets()) SW_SKIP("SINEW_ASSETS is not set");
    if (!sw_assimp_available()) SW_SKIP("built without Assimp");
    sw_model* fbx = load("fbx/walk.fbx", NULL);
    sw_model* glb = load("gltf/pab/arnaud_locomotion.glb", NULL);
    SW_CHECK(fbx && glb);
    if (!fbx || !glb) {
        sw_model_free(fbx);
        sw_model_free(glb);
        return;
    }
    const sw_clip* a = &fbx->animations[0];
    const sw_clip* b = clip_named(glb, "walk");
    SW_CHECK(b != NULL);
    posed pa, pb;
    SW_CHECK(pose_make(fbx, &pa) && pose_make(glb, &pb));
    static const char* const joints[] = {"Pelvis", "Spine2", "Head", "LeftHand" /* FBX: Lefthand */, "RightHand",
                                         "LeftFoot", "RightFoot", "LeftForeArm", "RightLeg", "RightHandIndex3"};
    static const float times[] = {0.0f, 0.25f, 0.5f, 0.8f, 1.3f};
    double worst = 0.0, moved = 0.0;
    size_t compared = 0;
    for (size_t t = 0; b && t < sizeof times / sizeof times[0]; t++) {
        for (size_t j = 0; j < sizeof joints / sizeof joints[0]; j++) {
            const char* name = joints[j];
            const char* fbx_name = strcmp(name, "LeftHand") == 0 && node_named(fbx, name) < 0 ? "Lefthand" : name;
            const char* glb_name = node_named(glb, name) < 0 ? fbx_name : name;
            sw_vec3 x, y, x0;
            if (!joint_at(fbx, a, &pa, fbx_name, times[t], &x) || !joint_at(glb, b, &pb, glb_name, times[t], &y)) {
                fprintf(stderr, "  joint %s missing at %g s\n", name, (double)times[t]);
                SW_CHECK(false);
                continue;
            }
            double e = sw_vec3_length(sw_vec3_sub(x, y));
            if (e > worst) worst = e;
            if (joint_at(fbx, a, &pa, fbx_name, 0.0f, &x0)) {
                double d = sw_vec3_length(sw_vec3_sub(x, x0));
                if (d > moved) moved = d;
            }
            compared++;
        }
    }
    fprintf(stderr, "  %zu joint positions compared, worst %.2g m apart; joints moved up to %.3f m\n", compared, worst,
            moved);
    SW_CHECK(compared == 50);
    SW_CHECK(worst < 0.005);
    SW_CHECK(moved > 0.2); /* a walk moves the feet and the pelvis forward */
    free(pa.memory);
    free(pb.memory);
    sw_model_free(fbx);
    sw_model_free(glb);
}

/* Folding the pivot helpers ourselves or letting Assimp fold them gives
   the same joints, at rest and over the walk. */
static void test_helper_folding_matches_assimp(void) {
    if (!assets()) SW_SKIP("SINEW_ASSETS is not set");
    if (!sw_assimp_available()) SW_SKIP("built without Assimp");
    sw_import_options o = {0};
    o.assimp.assimp_folds_pivots = true;
    sw_model* ours = load("fbx/walk.fbx", NULL);
    sw_model* theirs = load("fbx/walk.fbx", &o);
    SW_CHECK(ours && theirs);
    if (!ours || !theirs) {
        sw_model_free(ours);
        sw_model_free(theirs);
        return;
    }
    SW_CHECK_EQ_INT(ours->import_collapsed_nodes, 26);
    SW_CHECK_EQ_INT(theirs->import_collapsed_nodes, 0);
    SW_CHECK_EQ_INT(ours->node_count, theirs->node_count);
    posed pa, pb;
    SW_CHECK(pose_make(ours, &pa) && pose_make(theirs, &pb));
    double worst = 0.0;
    for (float t = 0.0f; t <= 1.34f; t += 0.1f) {
        sw_diag d;
        SW_CHECK(sw_pose_evaluate(ours, &ours->animations[0], t, false, &pa.pose, &d) == SW_OK);
        SW_CHECK(sw_pose_evaluate(theirs, &theirs->animations[0], t, false, &pb.pose, &d) == SW_OK);
        for (size_t i = 0; i < ours->node_count; i++) {
            int k = node_named(theirs, ours->nodes[i].name);
            SW_CHECK(k >= 0);
            if (k < 0) continue;
            for (int r = 0; r < 3; r++) {
                double e = fabs(pa.pose.world[i].m[r][3] - pb.pose.world[k].m[r][3]);
                if (e > worst) worst = e;
            }
        }
    }
    fprintf(stderr, "  folded by sinew vs by Assimp: worst joint coordinate %.2g m apart\n", worst);
    SW_CHECK(worst < 1e-4);
    free(pa.memory);
    free(pb.memory);
    sw_model_free(ours);
    sw_model_free(theirs);
}

int main(void) {
    SW_RUN(test_fbx_counts);
    SW_RUN(test_fbx_posed);
    SW_RUN(test_same_walk_two_ways);
    SW_RUN(test_helper_folding_matches_assimp);
    return sw_test_finish();
}
