/* A round trip through Collada: a skinned, animated glTF is read by
   Assimp, written out as Collada by Assimp's exporter (aiExportScene), and
   the .dae read back through sinew's Assimp importer must deform to the
   vertices sinew's glTF reader gives for the original, at rest and in the
   poses of the original's animation (applied to the .dae's joints by name:
   Assimp 5.2's Collada exporter writes animations its own importer cannot
   read back, "Unable to resolve library reference", so the animations are
   left out of the export). Files: tests/data/gltf/joint_chain.gltf (always) and
   gltf/synthetic/twist_tube.glb from SINEW_ASSETS (when set). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "test_pose.h"
#include "sinew/import.h"
#include "sinew/pose.h"

#ifdef SW_HAVE_ASSIMP
#include <assimp/cexport.h>
#include <assimp/cimport.h>
#include <assimp/scene.h>
#endif

/* The deformed vertices of every skinned (node, primitive), in order, at
   time t of clip `clip` of `source` (-1: rest), whose local transforms are
   copied to m's nodes of the same name. */
static float* deformed(const sw_model* m, const sw_model* source, int clip, float t, size_t* count) {
    posed p, q;
    if (!pose_make(m, &p)) return NULL;
    if (!pose_make(source, &q)) {
        free(p.memory);
        return NULL;
    }
    sw_diag d;
    sw_pose_rest(m, &p.pose);
    if (sw_pose_sample(source, clip >= 0 ? &source->animations[clip] : NULL, t, false, &q.pose, &d) != SW_OK) {
        free(p.memory);
        free(q.memory);
        return NULL;
    }
    for (size_t i = 0; i < m->node_count; i++)
        for (size_t j = 0; j < source->node_count && m->nodes[i].name && clip >= 0; j++)
            if (source->nodes[j].name && strcmp(m->nodes[i].name, source->nodes[j].name) == 0)
                p.pose.local[i] = q.pose.local[j];
    free(q.memory);
    sw_pose_update(m, &p.pose);
    size_t total = 0;
    for (size_t n = 0; n < m->node_count; n++)
        if (m->nodes[n].skin >= 0)
            for (size_t k = 0; k < m->meshes[m->nodes[n].mesh].primitive_count; k++)
                total += m->meshes[m->nodes[n].mesh].primitives[k].vertex_count;
    float* out = malloc((total ? total : 1) * 3 * sizeof *out);
    size_t at = 0;
    for (size_t n = 0; out && n < m->node_count; n++) {
        if (m->nodes[n].skin < 0) continue;
        for (size_t k = 0; k < m->meshes[m->nodes[n].mesh].primitive_count; k++) {
            size_t size = sw_deform_scratch_size(m, n, k);
            void* scratch = aligned_alloc(16, (size + 15) / 16 * 16 + 16);
            sw_deform def = {.node = n, .primitive = k, .scratch = scratch, .out_positions = out + at * 3};
            if (!scratch || sw_deform_primitive(m, &p.pose, &def, &d) != SW_OK) {
                free(scratch);
                free(out);
                free(p.memory);
                return NULL;
            }
            free(scratch);
            at += m->meshes[m->nodes[n].mesh].primitives[k].vertex_count;
        }
    }
    free(p.memory);
    *count = total;
    return out;
}

/* Each vertex of `a` against the nearest of `b` (vertex order may change:
   Assimp joins identical vertices and the exporter splits them again).
   b is sorted along its longest axis and searched outwards from a's
   coordinate, stopping once that axis alone is farther than the best. */
static int sw__axis;
static const float* sw__sorted;
static int by_axis(const void* x, const void* y) {
    float a = sw__sorted[*(const size_t*)x * 3 + (size_t)sw__axis], b = sw__sorted[*(const size_t*)y * 3 + (size_t)sw__axis];
    return a < b ? -1 : a > b;
}

static double worst_distance(const float* a, size_t na, const float* b, size_t nb) {
    float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (size_t j = 0; j < nb; j++)
        for (int c = 0; c < 3; c++) lo[c] = fminf(lo[c], b[j * 3 + c]), hi[c] = fmaxf(hi[c], b[j * 3 + c]);
    int axis = 0;
    for (int c = 1; c < 3; c++)
        if (hi[c] - lo[c] > hi[axis] - lo[axis]) axis = c;
    size_t* order = malloc(nb * sizeof *order);
    if (!order) return INFINITY;
    for (size_t j = 0; j < nb; j++) order[j] = j;
    sw__axis = axis, sw__sorted = b;
    qsort(order, nb, sizeof *order, by_axis);
    double worst = 0.0;
    for (size_t i = 0; i < na; i++) {
        const float* p = &a[i * 3];
        size_t l = 0, h = nb;
        while (l < h) {
            size_t mid = (l + h) / 2;
            if (b[order[mid] * 3 + (size_t)axis] < p[axis]) l = mid + 1;
            else h = mid;
        }
        double best = INFINITY;
        for (size_t k = l; k < nb; k++) { /* upwards */
            const float* q = &b[order[k] * 3];
            double d0 = q[axis] - p[axis], dx = p[0] - q[0], dy = p[1] - q[1], dz = p[2] - q[2];
            if (d0 * d0 > best) break;
            best = fmin(best, dx * dx + dy * dy + dz * dz);
        }
        for (size_t k = l; k-- > 0;) { /* downwards */
            const float* q = &b[order[k] * 3];
            double d0 = q[axis] - p[axis], dx = p[0] - q[0], dy = p[1] - q[1], dz = p[2] - q[2];
            if (d0 * d0 > best) break;
            best = fmin(best, dx * dx + dy * dy + dz * dz);
        }
        if (sqrt(best) > worst) worst = sqrt(best);
    }
    free(order);
    return worst;
}

#ifdef SW_HAVE_ASSIMP
/* glTF → Collada with Assimp's importer and exporter. */
static bool to_collada(const char* gltf, const char* dae) {
    const struct aiScene* s = aiImportFile(gltf, 0);
    if (!s) {
        fprintf(stderr, "  Assimp cannot read %s: %s\n", gltf, aiGetErrorString());
        return false;
    }
    struct aiScene* copy = NULL;
    aiCopyScene(s, &copy);
    aiReleaseImport(s);
    if (!copy) return false;
    unsigned animations = copy->mNumAnimations;
    copy->mNumAnimations = 0; /* see the top of the file */
    bool ok = aiExportScene(copy, "collada", dae, 0) == aiReturn_SUCCESS;
    if (!ok) fprintf(stderr, "  Assimp cannot write %s: %s\n", dae, aiGetErrorString());
    copy->mNumAnimations = animations;
    aiFreeScene(copy);
    return ok;
}
#endif

/* The tolerance: Collada stores matrices and positions as decimal text
   with Assimp's 9 significant digits, so each number is exact to ~1e-7
   relative; skinning a vertex multiplies a few of them: 1e-4 of the
   model's size is generous and still catches a wrong joint, bind matrix or
   unit (measured: about 1e-6). */
static void round_trip(const char* gltf, const char* name) {
#ifndef SW_HAVE_ASSIMP
    (void)gltf, (void)name;
    SW_SKIP("built without Assimp");
#else
    char dae[256];
    snprintf(dae, sizeof dae, "round_trip_%s_%d.dae", name, (int)getpid());
    SW_CHECK(to_collada(gltf, dae));
    sw_model *a = NULL, *b = NULL;
    sw_diag d;
    SW_CHECK(sw_gltf_load_file(gltf, NULL, &a, &d) == SW_OK);
    if (sw_import_file(dae, NULL, &b, &d) != SW_OK) fprintf(stderr, "  %s\n", d.message);
    remove(dae);
    SW_CHECK(a && b);
    if (!a || !b) {
        sw_model_free(a);
        sw_model_free(b);
        return;
    }
    SW_CHECK(b->format && strcmp(b->format, "Collada") == 0);
    SW_CHECK_EQ_INT(b->skin_count, a->skin_count);
    float size = 0.0f;
    for (int c = 0; c < 3; c++)
        size = fmaxf(size, a->meshes[0].primitives[0].bounds_max[c] - a->meshes[0].primitives[0].bounds_min[c]);
    double worst = 0.0;
    SW_CHECK(a->animation_count > 0);
    for (int clip = -1; clip < (int)a->animation_count; clip++) {
        float duration = clip >= 0 ? a->animations[clip].duration : 0.0f;
        for (int k = 0; k < 4; k++) {
            float t = duration * (float)k / 3.0f;
            size_t na = 0, nb = 0;
            float* va = deformed(a, a, clip, t, &na);
            float* vb = deformed(b, a, clip, t, &nb);
            SW_CHECK(va && vb && na > 0 && nb > 0);
            if (va && vb) {
                double e = fmax(worst_distance(va, na, vb, nb), worst_distance(vb, nb, va, na));
                if (e > worst) worst = e;
            }
            free(va);
            free(vb);
            if (clip < 0) break;
        }
    }
    fprintf(stderr, "  %s: skinned vertices within %.3g of the glTF reader's (model size %g)\n", name, worst,
            (double)size);
    SW_CHECK(worst <= 1e-4 * size);
    sw_model_free(a);
    sw_model_free(b);
#endif
}

static void test_round_trip_joint_chain(void) { round_trip(SW_TEST_DATA_DIR "/gltf/joint_chain.gltf", "joint_chain"); }

static void test_round_trip_twist_tube(void) {
    const char* assets = getenv("SINEW_ASSETS");
    if (!assets) SW_SKIP("SINEW_ASSETS is not set");
    char path[1024];
    snprintf(path, sizeof path, "%s/gltf/synthetic/twist_tube.glb", assets);
    round_trip(path, "twist_tube");
}

int main(void) {
    SW_RUN(test_round_trip_joint_chain);
    SW_RUN(test_round_trip_twist_tube);
    return sw_test_finish();
}
