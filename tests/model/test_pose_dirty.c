/* The partial pose update (sinew/pose.h: sw_pose_update_dirty and
   sw_pose_mark_subtree) against the full one. On every model tried (the
   glTF files of tests/data, a generated model with several skins sharing
   joints and matrix nodes, and the shared assets when SINEW_ASSETS is set)
   a clip is sampled and fully updated, then, trial after trial, random
   nodes get new locals (rotation, translation, sometimes scale, so that
   skins' scaled counts go up and down) and are marked; the partial update
   must give, bit for bit (memcmp), the world matrices, skin matrices, dual
   quaternions, stretch and scaled counts of a full update of the same
   locals, with and without dual quaternions. A third copy of the pose has
   a sentinel written over everything the partial update must neither read
   nor write (world matrices of nodes with no marked ancestor that are no
   marked node's parent, the palette entries of clean joints, the counts of
   clean skins): the sentinel must survive. The marks must come back
   propagated: exactly the marked nodes and their descendants, found by
   walking each node's ancestors (not by the forward pass under test). */
#define _POSIX_C_SOURCE 200809L /* opendir, stat */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "harness.h"
#include "sinew/gltf.h"
#include "sinew/pose.h"
#include "test_random.h"

#define SENTINEL 0xA5

/* A pose in its own block; `bytes` is the block's size, so one pose's
   whole state copies into another's with one memcpy. */
typedef struct pose_block {
    sw_pose pose;
    unsigned char* memory;
    size_t bytes;
} pose_block;

static void pose_block_bind(pose_block* b, const sw_model* model, bool dual) {
    sw_pose_sizes sizes = sw_pose_sizes_of(model);
    b->bytes = sw_pose_memory_size(&sizes);
    b->memory = aligned_alloc(16, b->bytes);
    SW_CHECK(b->memory != NULL);
    memset(b->memory, 0, b->bytes);
    sw_pose_bind(&b->pose, &sizes, b->memory);
    if (!dual) b->pose.skin_dual_quats = NULL;
}

/* `to` takes `from`'s whole state (both bound with the same sizes). */
static void pose_block_copy(pose_block* to, const pose_block* from) { memcpy(to->memory, from->memory, from->bytes); }

static bool is_sentinel(const void* p, size_t size) {
    const unsigned char* c = p;
    for (size_t i = 0; i < size; i++)
        if (c[i] != SENTINEL) return false;
    return true;
}

/* Whether node i or one of its ancestors is marked: the oracle, by
   walking up, independent of the forward pass under test. */
static bool marked_above(const sw_model* model, const uint8_t* marks, size_t i) {
    for (int64_t n = (int64_t)i; n >= 0; n = model->nodes[n].parent)
        if (marks[n]) return true;
    return false;
}

/* Counts of what one model's run covered, for the callers' checks. */
typedef struct dirty_stats {
    size_t models, skinned, trials, rewritten, scaled_changes;
} dirty_stats;

/* Every entry of `a` equals `b`'s (memcmp); the first difference of each
   array is reported with the model and trial. */
static bool same_state(const sw_model* model, const sw_pose* a, const sw_pose* b, const char* name, int trial) {
    bool same = true;
    for (size_t i = 0; i < model->node_count; i++)
        if (memcmp(&a->world[i], &b->world[i], sizeof(sw_mat34)) != 0) {
            fprintf(stderr, "  %s, trial %d: world[%zu] differs from the full update\n", name, trial, i);
            same = false;
            break;
        }
    for (size_t j = 0; j < model->skin_joint_count; j++) {
        bool m = memcmp(&a->skin_matrices[j], &b->skin_matrices[j], sizeof(sw_mat34)) == 0;
        bool d = !a->skin_dual_quats ||
                 memcmp(&a->skin_dual_quats[j], &b->skin_dual_quats[j], sizeof(sw_dualquat)) == 0;
        bool k = !a->skin_dual_quats || memcmp(&a->skin_stretch[j], &b->skin_stretch[j], sizeof(sw_mat34)) == 0;
        if (!(m && d && k)) {
            fprintf(stderr, "  %s, trial %d: palette entry %zu differs (matrix %d, dual quat %d, stretch %d)\n", name,
                    trial, j, !m, !d, !k);
            same = false;
            break;
        }
    }
    for (size_t s = 0; s < model->skin_count; s++)
        if (a->skin_scaled[s] != b->skin_scaled[s]) {
            fprintf(stderr, "  %s, trial %d: skin %zu scaled count %zu, full update %zu\n", name, trial, s,
                    a->skin_scaled[s], b->skin_scaled[s]);
            same = false;
        }
    return same;
}

/* New locals on the marked nodes of one trial: a rotation, an offset,
   and now and then a non-uniform scale or back to unit scale. One mark in
   eight changes nothing (marking an unchanged node is allowed). */
static void change_local(rng* r, sw_transform* t) {
    if (rng_below(r, 8) == 0) return;
    t->rotation = rng_quat(r);
    if (rng_below(r, 2)) t->translation = sw_vec3_add(t->translation, rng_vec3(r, -0.3, 0.3));
    switch (rng_below(r, 4)) {
    case 0: t->scale = rng_vec3(r, 0.5, 2.0); break;
    case 1: t->scale = sw_vec3_make(1.0f, 1.0f, 1.0f); break;
    default: break;
    }
}

/* Picks the nodes of one trial into `marks` (cleared first): none, every
   node, the first root, or one to four random nodes. */
static void pick_marks(rng* r, size_t node_count, uint8_t* marks) {
    memset(marks, 0, node_count);
    switch (rng_below(r, 10)) {
    case 0: break;
    case 1: memset(marks, 1, node_count); break;
    case 2: marks[0] = 1; break;
    default:
        for (uint32_t k = 1 + rng_below(r, 4); k > 0; k--) marks[rng_below(r, (uint32_t)node_count)] = 1;
        break;
    }
}

static bool skin_marked(const sw_model_skin* skin, const uint8_t* expect) {
    for (size_t j = 0; j < skin->joint_count; j++)
        if (expect[skin->joints[j]]) return true;
    return false;
}

/* Writes the sentinel over everything the partial update of `marks`
   (with `expect` their propagation) must not touch: world matrices of
   clean nodes that no marked node reads as its parent, skin matrices and
   dual quaternions of clean joints, and the stretch and scaled count of
   skins without a marked joint (a skin with one has its count taken again
   from every joint's stretch, which is read). */
static void write_sentinel(const sw_model* model, sw_pose* pose, const uint8_t* expect, uint8_t* reads) {
    memset(reads, 0, model->node_count);
    for (size_t i = 0; i < model->node_count; i++)
        if (expect[i] && model->nodes[i].parent >= 0) reads[model->nodes[i].parent] = 1;
    for (size_t i = 0; i < model->node_count; i++)
        if (!expect[i] && !reads[i]) memset(&pose->world[i], SENTINEL, sizeof(sw_mat34));
    for (size_t s = 0; s < model->skin_count; s++) {
        const sw_model_skin* skin = &model->skins[s];
        bool any = skin_marked(skin, expect);
        for (size_t j = 0; j < skin->joint_count; j++) {
            size_t at = skin->palette_offset + j;
            if (expect[skin->joints[j]]) continue;
            memset(&pose->skin_matrices[at], SENTINEL, sizeof(sw_mat34));
            if (pose->skin_dual_quats) {
                memset(&pose->skin_dual_quats[at], SENTINEL, sizeof(sw_dualquat));
                if (!any) memset(&pose->skin_stretch[at], SENTINEL, sizeof(sw_mat34));
            }
        }
        if (!any) memset(&pose->skin_scaled[s], SENTINEL, sizeof(size_t));
    }
}

/* After the partial update of the sentinel copy: the sentinel is intact
   wherever it was written, and everything rewritten equals the full
   update `full`. */
static bool sentinel_kept(const sw_model* model, const sw_pose* pose, const sw_pose* full, const uint8_t* expect,
                          const uint8_t* reads, const char* name, int trial) {
    bool ok = true;
    for (size_t i = 0; i < model->node_count && ok; i++) {
        bool sentinel = !expect[i] && !reads[i];
        if (sentinel ? !is_sentinel(&pose->world[i], sizeof(sw_mat34))
                     : memcmp(&pose->world[i], &full->world[i], sizeof(sw_mat34)) != 0) {
            fprintf(stderr, "  %s, trial %d: world[%zu] %s\n", name, trial, i,
                    sentinel ? "written though nothing above it is marked" : "differs from the full update");
            ok = false;
        }
    }
    for (size_t s = 0; s < model->skin_count && ok; s++) {
        const sw_model_skin* skin = &model->skins[s];
        bool any = skin_marked(skin, expect);
        for (size_t j = 0; j < skin->joint_count && ok; j++) {
            size_t at = skin->palette_offset + j;
            bool dirty = expect[skin->joints[j]] != 0;
            bool m = dirty ? memcmp(&pose->skin_matrices[at], &full->skin_matrices[at], sizeof(sw_mat34)) == 0
                           : is_sentinel(&pose->skin_matrices[at], sizeof(sw_mat34));
            bool d = true, k = true;
            if (pose->skin_dual_quats) {
                d = dirty ? memcmp(&pose->skin_dual_quats[at], &full->skin_dual_quats[at], sizeof(sw_dualquat)) == 0
                          : is_sentinel(&pose->skin_dual_quats[at], sizeof(sw_dualquat));
                k = dirty || any ? memcmp(&pose->skin_stretch[at], &full->skin_stretch[at], sizeof(sw_mat34)) == 0
                                 : is_sentinel(&pose->skin_stretch[at], sizeof(sw_mat34));
            }
            if (!(m && d && k)) {
                fprintf(stderr, "  %s, trial %d: skin %zu joint %zu (%s): matrix %d, dual quat %d, stretch %d wrong\n",
                        name, trial, s, j, dirty ? "marked" : "clean, sentinel", !m, !d, !k);
                ok = false;
            }
        }
        bool count_ok = any ? pose->skin_scaled[s] == full->skin_scaled[s]
                            : is_sentinel(&pose->skin_scaled[s], sizeof(size_t));
        if (!count_ok) {
            fprintf(stderr, "  %s, trial %d: skin %zu scaled count %s\n", name, trial, s,
                    any ? "differs from the full update" : "written though no joint is marked");
            ok = false;
        }
    }
    return ok;
}

/* The whole comparison on one model: `trials` rounds of random marks,
   chained (each partial update starts from the previous one's result). */
static void check_model(const sw_model* model, const char* name, uint64_t seed, int trials, bool dual,
                        dirty_stats* stats) {
    if (model->node_count == 0) return;
    rng r = {seed};
    size_t n = model->node_count;
    pose_block part, full, sentinel;
    pose_block_bind(&part, model, dual);
    pose_block_bind(&full, model, dual);
    pose_block_bind(&sentinel, model, dual);
    uint8_t* marks = calloc(n, 1);
    uint8_t* dirty = calloc(n, 1);
    uint8_t* dirty_copy = calloc(n, 1);
    uint8_t* expect = calloc(n, 1);
    uint8_t* reads = calloc(n, 1);
    SW_CHECK(part.memory && full.memory && sentinel.memory && marks && dirty && dirty_copy && expect && reads);
    if (!(part.memory && full.memory && sentinel.memory && marks && dirty && dirty_copy && expect && reads)) goto done;

    const sw_clip* clip = NULL;
    if (model->animation_count) clip = &model->animations[rng_below(&r, (uint32_t)model->animation_count)];
    float time = clip ? rng_range(&r, 0.0, clip->duration + 0.25) : 0.0f;
    sw_diag diag;
    SW_CHECK_EQ_INT(sw_pose_evaluate(model, clip, time, true, &part.pose, &diag), SW_OK);
    stats->models++;
    if (model->skin_count) stats->skinned++;

    for (int trial = 0; trial < trials; trial++) {
        pick_marks(&r, n, marks);
        for (size_t i = 0; i < n; i++)
            if (marks[i]) change_local(&r, &part.pose.local[i]);
        size_t expected = 0;
        for (size_t i = 0; i < n; i++) expected += expect[i] = marked_above(model, marks, i);

        /* The sentinel copy: the state before this update, sentinel on top. */
        pose_block_copy(&sentinel, &part);
        write_sentinel(model, &sentinel.pose, expect, reads);
        memcpy(dirty_copy, marks, n);
        sw_pose_update_dirty(model, &sentinel.pose, dirty_copy);

        size_t scaled_before = 0;
        for (size_t s = 0; s < model->skin_count; s++) scaled_before += part.pose.skin_scaled[s];
        memcpy(dirty, marks, n);
        size_t rewritten = sw_pose_update_dirty(model, &part.pose, dirty);
        SW_CHECK_EQ_INT(rewritten, expected);
        bool marks_ok = true;
        for (size_t i = 0; i < n; i++) marks_ok = marks_ok && (dirty[i] != 0) == (expect[i] != 0);
        if (!marks_ok) fprintf(stderr, "  %s, trial %d: marks not propagated to exactly the subtrees\n", name, trial);
        SW_CHECK(marks_ok);

        /* The reference: the same locals, fully updated. */
        memcpy(full.pose.local, part.pose.local, n * sizeof(sw_transform));
        if (model->weight_count) memcpy(full.pose.weights, part.pose.weights, model->weight_count * sizeof(float));
        sw_pose_update(model, &full.pose);
        SW_CHECK(same_state(model, &part.pose, &full.pose, name, trial));
        SW_CHECK(sentinel_kept(model, &sentinel.pose, &full.pose, expect, reads, name, trial));

        size_t scaled_after = 0;
        for (size_t s = 0; s < model->skin_count; s++) scaled_after += part.pose.skin_scaled[s];
        if (scaled_after != scaled_before) stats->scaled_changes++;
        stats->trials++;
        stats->rewritten += rewritten;
    }
done:
    free(marks), free(dirty), free(dirty_copy), free(expect), free(reads);
    free(part.memory), free(full.memory), free(sentinel.memory);
}

static uint64_t seed_of(const char* name) {
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (const char* c = name; *c; c++) h = (h ^ (unsigned char)*c) * 1099511628211ull;
    return h | 1;
}

static void check_file(const char* path, const char* name, int trials, dirty_stats* stats) {
    sw_model* model = NULL;
    sw_diag diag;
    if (sw_gltf_load_file(path, NULL, &model, &diag) != SW_OK) {
        fprintf(stderr, "  %s: not loaded (%s), not tried\n", name, diag.message);
        return;
    }
    check_model(model, name, seed_of(name), trials, true, stats);
    check_model(model, name, seed_of(name) ^ 0x5555, trials / 2, false, stats);
    sw_model_free(model);
}

static bool has_suffix(const char* s, const char* suffix) {
    size_t n = strlen(s), k = strlen(suffix);
    return n > k && strcmp(s + n - k, suffix) == 0;
}

/* Every .gltf/.glb under `dir` (depth-limited, `skip` folders left out). */
static void check_folder(const char* dir, const char* relative, int depth, const char* skip, int trials,
                         dirty_stats* stats) {
    DIR* d = opendir(dir);
    if (!d) return;
    struct dirent* e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        char path[2048], rel[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        snprintf(rel, sizeof rel, "%s%s%s", relative, *relative ? "/" : "", e->d_name);
        struct stat st;
        if (stat(path, &st) != 0) continue;
        if (S_ISDIR(st.st_mode)) {
            if (depth < 4 && !(skip && strcmp(e->d_name, skip) == 0))
                check_folder(path, rel, depth + 1, skip, trials, stats);
        } else if (has_suffix(e->d_name, ".gltf") || has_suffix(e->d_name, ".glb")) {
            check_file(path, rel, trials, stats);
        }
    }
    closedir(d);
}

/* The hand-made chain: a child listed before its parent, a matrix node,
   one skin of two joints. */
static void test_pose_chain(void) {
    dirty_stats stats = {0};
    check_file(SW_TEST_DATA_DIR "/gltf/pose_chain.gltf", "pose_chain.gltf", 200, &stats);
    SW_CHECK_EQ_INT(stats.models, 2);
    SW_CHECK(stats.rewritten > 0);
    SW_CHECK(stats.scaled_changes > 0);
}

/* Every glTF file of tests/data that loads (most have a skin). */
static void test_data_files(void) {
    dirty_stats stats = {0};
    check_folder(SW_TEST_DATA_DIR "/gltf", "", 0, NULL, 64, &stats);
    fprintf(stderr, "  tests/data: %zu model runs (%zu skinned), %zu trials\n", stats.models, stats.skinned,
            stats.trials);
    SW_CHECK(stats.skinned >= 10);
}

/* The shared assets (arnaud, crowd_stress, robot, cesium_man ...), all
   but invalid/. */
static void test_shared_assets(void) {
    const char* assets = getenv("SINEW_ASSETS");
    if (!assets || !*assets) SW_SKIP("SINEW_ASSETS is not set: the shared assets are not tried");
    char dir[2048];
    snprintf(dir, sizeof dir, "%s/gltf", assets);
    dirty_stats stats = {0};
    check_folder(dir, "", 0, "invalid", 64, &stats);
    fprintf(stderr, "  %s: %zu model runs (%zu skinned), %zu trials, %zu with a scaled count changed\n", dir,
            stats.models, stats.skinned, stats.trials, stats.scaled_changes);
    SW_CHECK(stats.skinned >= 10);
}

/* A generated model the files do not have: 300 nodes under several roots
   with subtrees scattered through the order (each parent drawn from all
   earlier nodes), one node in ten a matrix node, three skins whose joints
   overlap and repeat; one rest transform and one inverse bind in eight
   scaled, so that scaled counts move as marked nodes change scale. */
typedef struct generated {
    sw_model model;
    sw_model_node nodes[300];
    sw_transform rest[300];
    sw_model_skin skins[3];
    uint32_t joints[40 + 70 + 1];
    sw_mat34 inverse_bind[40 + 70 + 1];
} generated;

static void generate(generated* g, uint64_t seed) {
    rng r = {seed};
    memset(g, 0, sizeof *g);
    const size_t n = sizeof g->nodes / sizeof g->nodes[0];
    for (size_t i = 0; i < n; i++) {
        sw_model_node* node = &g->nodes[i];
        node->parent = i == 0 || rng_below(&r, 20) == 0 ? -1 : (int32_t)rng_below(&r, (uint32_t)i);
        node->mesh = node->skin = node->camera = -1;
        node->has_matrix = rng_below(&r, 10) == 0;
        sw_transform t = rng_transform(&r, 1.0, 0.8, 1.25);
        if (rng_below(&r, 8)) t.scale = sw_vec3_make(1.0f, 1.0f, 1.0f);
        node->matrix = node->has_matrix ? sw_transform_to_mat34(&t) : sw_mat34_identity();
        node->trs = node->has_matrix ? sw_transform_identity() : t;
        g->rest[i] = node->trs;
        node->source_index = (uint32_t)i;
    }
    static const size_t counts[3] = {40, 70, 1};
    size_t at = 0;
    for (size_t s = 0; s < 3; s++) {
        g->skins[s].joint_count = counts[s];
        g->skins[s].joints = &g->joints[at];
        g->skins[s].inverse_bind = &g->inverse_bind[at];
        g->skins[s].skeleton = -1;
        g->skins[s].palette_offset = at;
        for (size_t j = 0; j < counts[s]; j++, at++) {
            g->joints[at] = rng_below(&r, (uint32_t)n);
            sw_transform t = rng_transform(&r, 1.0, 0.9, 1.1);
            if (rng_below(&r, 8)) t.scale = sw_vec3_make(1.0f, 1.0f, 1.0f);
            g->inverse_bind[at] = sw_transform_to_mat34(&t);
        }
    }
    g->model.path = "generated";
    g->model.node_count = n;
    g->model.nodes = g->nodes;
    g->model.rest_local = g->rest;
    g->model.skin_count = 3;
    g->model.skins = g->skins;
    g->model.skin_joint_count = at;
    g->model.default_scene = -1;
}

static void test_generated(void) {
    static generated g;
    dirty_stats stats = {0};
    for (uint64_t seed = 1; seed <= 4; seed++) {
        generate(&g, seed * 0x9E3779B97F4A7C15ull);
        check_model(&g.model, "generated", seed, 100, true, &stats);
        check_model(&g.model, "generated", seed + 100, 40, false, &stats);
    }
    SW_CHECK_EQ_INT(stats.trials, 4 * 140);
    SW_CHECK(stats.scaled_changes > 0);
}

/* sw_pose_mark_subtree marks the node and its descendants (walked up from
   each node), keeps earlier marks, and adds nothing beyond what the update
   itself would mark. */
static void test_mark_subtree(void) {
    static generated g;
    generate(&g, 7);
    const sw_model* model = &g.model;
    size_t n = model->node_count;
    uint8_t marks[300], before[300], one[300], closure[300];
    rng r = {11};
    for (int trial = 0; trial < 200; trial++) {
        size_t node = rng_below(&r, (uint32_t)n);
        memset(marks, 0, n);
        memset(one, 0, n);
        one[node] = 1;
        sw_pose_mark_subtree(model, marks, node);
        bool exact = true;
        for (size_t i = 0; i < n; i++) exact = exact && (marks[i] != 0) == marked_above(model, one, i);
        SW_CHECK(exact);

        /* With earlier marks: subtree ∪ earlier ⊆ result ⊆ closure of both. */
        memset(before, 0, n);
        for (int k = 0; k < 3; k++) before[rng_below(&r, (uint32_t)n)] = 1;
        memcpy(marks, before, n);
        sw_pose_mark_subtree(model, marks, node);
        memcpy(closure, before, n);
        closure[node] = 1;
        bool bounded = true;
        for (size_t i = 0; i < n; i++) {
            bool lower = before[i] || marked_above(model, one, i);
            bool upper = marked_above(model, closure, i);
            bounded = bounded && (!lower || marks[i]) && (!marks[i] || upper);
        }
        SW_CHECK(bounded);
    }
}

/* Nothing marked: nothing is read or written, and 0 comes back; every
   node marked: the full update, bit for bit. */
static void test_none_and_all(void) {
    static generated g;
    generate(&g, 3);
    const sw_model* model = &g.model;
    pose_block a, b;
    pose_block_bind(&a, model, true);
    pose_block_bind(&b, model, true);
    if (!a.memory || !b.memory) return;
    sw_diag diag;
    SW_CHECK_EQ_INT(sw_pose_evaluate(model, NULL, 0.0f, false, &a.pose, &diag), SW_OK);
    uint8_t dirty[300] = {0};
    unsigned char* saved = malloc(a.bytes);
    SW_CHECK(saved != NULL);
    if (saved) {
        memcpy(saved, a.memory, a.bytes);
        SW_CHECK_EQ_INT(sw_pose_update_dirty(model, &a.pose, dirty), 0);
        SW_CHECK(memcmp(saved, a.memory, a.bytes) == 0);
        free(saved);
    }

    /* b: rest locals, every output the sentinel; all marked must fill it all. */
    sw_pose_rest(model, &b.pose);
    memset(b.pose.world, SENTINEL, model->node_count * sizeof(sw_mat34));
    memset(b.pose.skin_matrices, SENTINEL, model->skin_joint_count * sizeof(sw_mat34));
    memset(b.pose.skin_dual_quats, SENTINEL, model->skin_joint_count * sizeof(sw_dualquat));
    memset(b.pose.skin_stretch, SENTINEL, model->skin_joint_count * sizeof(sw_mat34));
    memset(b.pose.skin_scaled, SENTINEL, model->skin_count * sizeof(size_t));
    memset(dirty, 1, sizeof dirty);
    SW_CHECK_EQ_INT(sw_pose_update_dirty(model, &b.pose, dirty), model->node_count);
    SW_CHECK(same_state(model, &b.pose, &a.pose, "generated, all marked", 0));
    free(a.memory), free(b.memory);
}

int main(void) {
    SW_RUN(test_mark_subtree);
    SW_RUN(test_none_and_all);
    SW_RUN(test_pose_chain);
    SW_RUN(test_data_files);
    SW_RUN(test_generated);
    SW_RUN(test_shared_assets);
    return sw_test_finish();
}
