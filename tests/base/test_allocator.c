/* sw_set_allocator (sinew/base.h): every allocation of an import (the
   glTF, VRM, IQM and Assimp readers, the extension readers, image
   decoding, the check), of a pose evaluation, of a spring simulation and
   of the objects built on aligned memory (retargeting, the face map bake)
   goes through the allocator installed, and is given back to it: a
   counting allocator (counting_allocator.h) sees live blocks return to 0
   after each step, after a non-zero number of allocations, and never a
   pointer it did not hand out. An allocator that refuses allocation N
   (from then on, or just that one; every N up to the last allocation an
   import with its readers makes, a sample of them for the demo
   character's 7,700) makes the import fail with SW_ERR_OUT_OF_MEMORY and
   leaves nothing allocated. sw_set_allocator(NULL) puts
   malloc/realloc/free back.

   The in-tree files (tests/data, the demo character) always run; the
   shared assets (a JPEG and PNG textured glTF, IQM, FBX) when SINEW_ASSETS
   is set. The renderer's part is render_test_render_allocator. */
#define _POSIX_C_SOURCE 200809L /* mkstemp, write, unlink */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "base/counting_allocator.h"
#include "sinew/check.h"
#include "sinew/demo.h"
#include "sinew/import.h"
#include "sinew/pose.h"
#include "sinew/retarget.h"
#include "sinew/spring.h"
#include "sinew/toon.h"
#include "sinew/vrm.h"

#include "../../src/base/base_internal.h"

#ifndef SW_TEST_DATA_DIR
#define SW_TEST_DATA_DIR "tests/data"
#endif

/* The in-tree files: VRM 0.x and 1.0 spring bones and humanoids, an
   external buffer (read through the path checks), a missing texture, a
   morphed skin. The demo character (textures, toon materials, spring
   bones) is written to a temporary file and added at run time. */
static const char* const k_in_tree[] = {
    "vrm/hair_vrm0.vrm", "vrm/hair_vrm1.gltf", "gltf/buffer_external.gltf", "gltf/texture_missing.gltf",
    "gltf/morph_skin.gltf",
};
enum { IN_TREE_COUNT = sizeof k_in_tree / sizeof k_in_tree[0] };

static char g_demo_path[4096]; /* the demo character's GLB, written once */

static const char* data_path(const char* relative, char* out, size_t size) {
    snprintf(out, size, "%s/%s", SW_TEST_DATA_DIR, relative);
    return out;
}

/* One step's counts are checked: something was allocated, and all of it
   came back, through this allocator. */
static void check_all_given_back(const counting_allocator* c, const char* what) {
    counting_print(c, what);
    SW_CHECK(c->allocations > 0);
    SW_CHECK(c->frees > 0);
    SW_CHECK_EQ_INT(c->frees, c->allocations);
    SW_CHECK_EQ_INT(c->live_blocks, 0);
    SW_CHECK_EQ_INT(c->live_bytes, 0);
    SW_CHECK_EQ_INT(c->foreign, 0);
}

/* The demo character's GLB (built by sinew-demo, through the allocator in
   use), freed by the caller with sw_demo_character_glb_free. */
static uint8_t* demo_glb(size_t* size) {
    uint8_t* glb = NULL;
    sw_diag d = {0};
    if (sw_demo_character_glb(&glb, size, &d) != SW_OK) {
        fprintf(stderr, "  demo: %s\n", d.message);
        return NULL;
    }
    return glb;
}

static sw_model* load_demo(void) {
    size_t size = 0;
    uint8_t* glb = demo_glb(&size);
    sw_model* model = NULL;
    sw_diag d = {0};
    if (glb && sw_gltf_load_memory(glb, size, SW_DEMO_CHARACTER_NAME, NULL, NULL, &model, &d) != SW_OK)
        fprintf(stderr, "  demo: %s\n", d.message);
    sw_demo_character_glb_free(glb);
    SW_CHECK(model != NULL);
    return model;
}

/* Writes the demo character to a temporary file (once): a textured,
   toon-shaded, spring-boned glTF that sw_import_file reads from disk. */
static bool write_demo_file(void) {
    if (g_demo_path[0]) return true;
    const char* tmp = getenv("TMPDIR");
    char path[sizeof g_demo_path];
    snprintf(path, sizeof path, "%s/sinew-allocator-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    int fd = mkstemp(path);
    if (fd < 0) return false;
    size_t size = 0;
    uint8_t* glb = demo_glb(&size);
    bool ok = glb && write(fd, glb, size) == (ssize_t)size;
    close(fd);
    sw_demo_character_glb_free(glb);
    if (ok) snprintf(g_demo_path, sizeof g_demo_path, "%s", path);
    else unlink(path);
    return ok;
}

/* ---- what an import is made of ------------------------------------------------------------ */

/* Every reader above the importer, on one model: VRM, spring bones, toon
   materials, each image decoded, the check. Returns the first result
   that was neither SW_OK nor an error the file explains (a missing or
   unsupported image), so that the out-of-memory runs can see what
   failed. */
static sw_result read_everything(const sw_model* model, const char* name, bool verbose) {
    sw_diag d = {0};
    sw_result worst = SW_OK;
#define SW__KEEP(r, what)                                                                 \
    do {                                                                                  \
        sw_result sw__r = (r);                                                            \
        if (sw__r != SW_OK && worst == SW_OK) worst = sw__r;                              \
        if (sw__r != SW_OK && verbose) fprintf(stderr, "  %s: %s: %s\n", name, what, d.message); \
    } while (0)

    sw_vrm* vrm = NULL;
    SW__KEEP(sw_vrm_read(model, &vrm, &d), "sw_vrm_read");
    sw_vrm_free(vrm);

    sw_spring_set* springs = NULL;
    SW__KEEP(sw_spring_read(model, &springs, &d), "sw_spring_read");
    sw_spring_set_free(springs);

    if (model->material_count) {
        sw_toon_material* toon = calloc(model->material_count, sizeof *toon); /* caller-owned */
        SW__KEEP(toon ? sw_toon_read(model, toon, &d) : SW_ERR_OUT_OF_MEMORY, "sw_toon_read");
        free(toon);
    }

    for (size_t i = 0; i < model->image_count; i++) {
        uint8_t* pixels = NULL;
        int w = 0, h = 0;
        sw_result r = sw_model_decode_image(model, i, &pixels, &w, &h, &d);
        /* A missing file (SW_ERR_IO) or a format stb_image does not take
           is the file's doing; out of memory is not. */
        if (r == SW_ERR_IO || r == SW_ERR_UNSUPPORTED || r == SW_ERR_INVALID_DATA) r = SW_OK;
        SW__KEEP(r, "sw_model_decode_image");
        SW_CHECK(r != SW_OK || pixels != NULL || w == 0);
        sw_model_image_free(pixels);
    }

    sw_check_report* report = NULL;
    SW__KEEP(sw_check_model(model, NULL, &report, &d), "sw_check_model");
    sw_check_report_free(report);
#undef SW__KEEP
    return worst;
}

/* Imports `path` (sw_import_file), reads everything unless import_only,
   frees it. */
static sw_result import_and_read(const char* path, bool import_only, bool verbose) {
    sw_model* model = NULL;
    sw_diag d = {0};
    /* Assimp in this process: an isolated import's conversion allocates in
       the child, where this process's counter cannot see it. */
    sw_import_options options = {.assimp = {.in_process = true}};
    sw_result r = sw_import_file(path, &options, &model, &d);
    if (r != SW_OK) {
        if (verbose) fprintf(stderr, "  %s: %s\n", path, d.message);
        SW_CHECK(model == NULL);
        return r;
    }
    if (!import_only) r = read_everything(model, path, verbose);
    sw_model_free(model);
    return r;
}

/* ---- cJSON's allocations from the first call on -------------------------------------------- */

/* A model built by hand with extension records: the readers parse their
   JSON with cJSON, whose allocations must reach the allocator even when
   no glTF file was ever loaded in the process (cJSON's hooks are set by
   whichever sinew call parses JSON first). Run first, before any import. */
static void test_json_readers_before_any_import(void) {
    static const sw_model_extension ext[] = {
        {"VRMC_springBone", SW_MODEL_OBJECT_MODEL, 0,
         "{\"specVersion\":\"1.0\",\"springs\":[],\"colliders\":[],\"colliderGroups\":[]}"},
        {"VRMC_vrm", SW_MODEL_OBJECT_MODEL, 0, "{\"specVersion\":\"1.0\",\"humanoid\":{\"humanBones\":{}}}"},
        {"VRMC_materials_mtoon", SW_MODEL_OBJECT_MATERIAL, 0, "{\"specVersion\":\"1.0\",\"shadingToonyFactor\":0.5}"},
    };
    static const sw_model_material material = {.name = "skin", .base_color_factor = {1, 1, 1, 1}};
    sw_model model = {.path = "by_hand.vrm", .default_scene = -1, .material_count = 1, .materials = &material,
                      .extension_count = sizeof ext / sizeof ext[0], .extensions = ext};
    static const char* const bone_map = "{\"hips\": null, \"spine\": null, \"head\": null}";
    enum { READERS = 4 };
    static const char* const names[READERS] = {"sw_spring_read", "sw_vrm_read", "sw_toon_read",
                                               "sw_bone_map_read"};
    size_t counted[2][READERS];
    sw_result results[2][READERS];
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            /* Any glTF load sets cJSON's hooks for the rest of the process. */
            char path[1024];
            sw_model* loaded = NULL;
            SW_CHECK(sw_import_file(data_path("gltf/morph_skin.gltf", path, sizeof path), NULL, &loaded, NULL) ==
                     SW_OK);
            sw_model_free(loaded);
        }
        for (int k = 0; k < READERS; k++) {
            counting_allocator c;
            counting_begin(&c);
            sw_diag d = {0};
            if (k == 0) {
                sw_spring_set* set = NULL;
                results[pass][k] = sw_spring_read(&model, &set, &d);
                sw_spring_set_free(set);
            } else if (k == 1) {
                sw_vrm* vrm = NULL;
                results[pass][k] = sw_vrm_read(&model, &vrm, &d);
                sw_vrm_free(vrm);
            } else if (k == 2) {
                sw_toon_material toon;
                results[pass][k] = sw_toon_read(&model, &toon, &d);
            } else {
                sw_bone_map* parsed = NULL;
                results[pass][k] = sw_bone_map_read(bone_map, strlen(bone_map), "bone_map.json", &parsed, &d);
                sw_humanoid_map map;
                if (results[pass][k] == SW_OK)
                    results[pass][k] = sw_humanoid_map_from_names(&model, parsed, &map, NULL, &d);
                sw_bone_map_free(parsed);
            }
            counting_end(&c);
            counted[pass][k] = c.allocations;
            SW_CHECK_EQ_INT(c.live_blocks, 0);
            SW_CHECK_EQ_INT(c.foreign, 0);
        }
    }
    for (int k = 0; k < READERS; k++) {
        fprintf(stderr, "  %s: %zu allocations before any glTF load, %zu after (%s)\n", names[k], counted[0][k],
                counted[1][k], sw_result_str(results[1][k]));
        /* The same work both times: the same allocations, all of them seen. */
        SW_CHECK_EQ_INT(results[0][k], results[1][k]);
        SW_CHECK_EQ_INT(counted[0][k], counted[1][k]);
        SW_CHECK(counted[1][k] > 0);
    }
}

/* ---- the allocator setting itself ------------------------------------------------------------ */

static void test_default_allocator_restored(void) {
    sw_allocator before = sw_get_allocator();
    SW_CHECK(before.allocate && before.reallocate && before.deallocate);

    counting_allocator c;
    counting_begin(&c);
    sw_allocator now = sw_get_allocator();
    SW_CHECK(now.allocate == counting_allocate && now.reallocate == counting_reallocate &&
             now.deallocate == counting_deallocate && now.user == &c);

    sw_set_allocator(NULL);
    sw_allocator after = sw_get_allocator();
    SW_CHECK(after.allocate == before.allocate && after.reallocate == before.reallocate &&
             after.deallocate == before.deallocate && after.user == before.user);
    SW_CHECK(after.allocate != counting_allocate);

    /* With the default back, an import leaves the counting allocator alone. */
    char path[1024];
    sw_model* model = NULL;
    SW_CHECK(sw_import_file(data_path("vrm/hair_vrm1.gltf", path, sizeof path), NULL, &model, NULL) == SW_OK);
    sw_model_free(model);
    SW_CHECK_EQ_INT(c.allocations + c.reallocations + c.frees, 0);

    /* The default allocator works on its own: allocate, grow, free. */
    unsigned char* p = after.allocate(after.user, 16);
    SW_CHECK(p != NULL);
    if (p) {
        memset(p, 7, 16);
        unsigned char* q = after.reallocate(after.user, p, 4096);
        SW_CHECK(q != NULL && q[15] == 7);
        after.deallocate(after.user, q ? q : p);
    }
    after.deallocate(after.user, NULL);
    counting_end(&c);
}

/* sw__aligned_alloc on top of the allocator: every alignment honoured, the
   block given back whole (the counting allocator would see a pointer into
   a block as foreign), size arithmetic that cannot overflow. */
static void test_aligned_blocks(void) {
    static const size_t alignments[] = {1, 2, 8, 16, 32, 64, 256, 4096};
    static const size_t sizes[] = {0, 1, 15, 16, 17, 1000};
    counting_allocator c;
    counting_begin(&c);
    for (size_t a = 0; a < sizeof alignments / sizeof alignments[0]; a++) {
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            unsigned char* p = sw__aligned_alloc(alignments[a], sizes[s]);
            SW_CHECK(p != NULL);
            if (!p) continue;
            SW_CHECK_EQ_INT((uintptr_t)p % alignments[a], 0);
            memset(p, 0xA5, sizes[s]);
            sw__aligned_free(p);
        }
    }
    sw__aligned_free(NULL);
    SW_CHECK(sw__aligned_alloc(16, SIZE_MAX - 8) == NULL);
    SW_CHECK(sw__calloc(SIZE_MAX / 2, 4) == NULL);
    counting_fail(&c, 0, COUNTING_NEVER);
    SW_CHECK(sw__aligned_alloc(64, 100) == NULL);
    SW_CHECK(sw__string_copy("refused") == NULL);
    SW_CHECK_EQ_INT(c.refused, 2);
    counting_fail(&c, COUNTING_NEVER, COUNTING_NEVER);
    check_all_given_back(&c, "aligned blocks");
    SW_CHECK_EQ_INT(c.allocations, 8 * 6);
    counting_end(&c);
}

/* ---- every allocation of an import ----------------------------------------------------------- */

static void test_import_in_tree(void) {
    SW_CHECK(write_demo_file());
    counting_allocator c;
    counting_begin(&c);
    char path[1024];
    for (int i = 0; i < IN_TREE_COUNT; i++)
        SW_CHECK_EQ_INT(import_and_read(data_path(k_in_tree[i], path, sizeof path), false, true), SW_OK);
    if (g_demo_path[0]) SW_CHECK_EQ_INT(import_and_read(g_demo_path, false, true), SW_OK);
    /* sw_gltf_load_file and sw_check_file: the other doors in. */
    sw_model* model = NULL;
    SW_CHECK(sw_gltf_load_file(data_path("vrm/hair_vrm0.vrm", path, sizeof path), NULL, &model, NULL) == SW_OK);
    sw_model_free(model);
    sw_check_report* report = NULL;
    SW_CHECK(sw_check_file(data_path("check/image_unreadable.gltf", path, sizeof path), NULL, NULL, &report, NULL) ==
             SW_OK);
    sw_check_report_free(report);
    counting_end(&c);
    check_all_given_back(&c, "in-tree imports");
    SW_CHECK(c.reallocations > 0); /* the readers' growing arrays came through too */
}

static void test_import_shared_assets(void) {
    const char* root = getenv("SINEW_ASSETS");
    if (!root || !*root)
        SW_SKIP("SINEW_ASSETS is not set: the shared assets (JPEG/PNG textures, IQM, FBX) are not imported");
    static const char* const files[] = {
        "gltf/khronos/cesium_man.gltf", /* a JPEG texture in a data: URI */
        "gltf/cc0/robot.glb",           /* PNG textures in the GLB */
        "gltf/cc0/greenman.glb",
        "iqm/guy.iqm",                  /* the IQM reader */
        "fbx/arnaud.fbx",               /* Assimp: sinew's side of it (Assimp's own C++ allocations are not ours) */
    };
    counting_allocator c;
    counting_begin(&c);
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", root, files[i]);
        if (access(path, R_OK) != 0) {
            fprintf(stderr, "  %s: not in SINEW_ASSETS, not imported\n", files[i]);
            continue;
        }
        size_t before = c.allocations;
        sw_result r = import_and_read(path, false, true);
        /* A build without Assimp says so (SW_ERR_UNSUPPORTED) for the FBX file. */
        SW_CHECK(r == SW_OK || (r == SW_ERR_UNSUPPORTED && strstr(files[i], ".fbx")));
        fprintf(stderr, "  %s: %zu allocations\n", files[i], c.allocations - before);
    }
    counting_end(&c);
    check_all_given_back(&c, "shared assets");
}

/* ---- a pose evaluation and a spring simulation --------------------------------------------- */

/* Caller-owned 16-aligned memory of the test's own (not sinew's). */
static void* test_memory(size_t size) { return aligned_alloc(16, (size + 15) / 16 * 16 + 16); }

static void test_pose_evaluation(void) {
    counting_allocator c;
    counting_begin(&c);
    sw_model* model = load_demo();
    if (model) {
        sw_pose_sizes sizes = sw_pose_sizes_of(model);
        void* memory = test_memory(sw_pose_memory_size(&sizes));
        size_t scratch_size = 16;
        for (size_t n = 0; n < model->node_count; n++) {
            int32_t mesh = model->nodes[n].mesh;
            if (mesh < 0) continue;
            for (size_t p = 0; p < model->meshes[mesh].primitive_count; p++) {
                size_t s = sw_deform_scratch_size(model, n, p);
                if (s > scratch_size) scratch_size = s;
            }
        }
        void* scratch = test_memory(scratch_size);
        float* positions = malloc(sizeof(float) * 3 * 65536);
        float* normals = malloc(sizeof(float) * 3 * 65536);
        uint8_t* dirty = calloc(model->node_count, 1);
        SW_CHECK(memory && scratch && positions && normals && dirty);
        size_t allocations = c.allocations, frees = c.frees, reallocations = c.reallocations;
        sw_pose pose;
        sw_pose_bind(&pose, &sizes, memory);
        sw_diag d = {0};
        size_t deformed = 0;
        for (size_t a = 0; a < model->animation_count; a++) {
            for (int i = 0; i <= 8; i++) {
                float t = model->animations[a].duration * (float)i / 8.0f;
                SW_CHECK(sw_pose_evaluate(model, &model->animations[a], t, true, &pose, &d) == SW_OK);
                dirty[0] = 1;
                sw_pose_update_dirty(model, &pose, dirty);
                memset(dirty, 0, model->node_count);
                for (size_t n = 0; n < model->node_count; n++) {
                    int32_t mesh = model->nodes[n].mesh;
                    if (mesh < 0) continue;
                    for (size_t p = 0; p < model->meshes[mesh].primitive_count; p++) {
                        if (model->meshes[mesh].primitives[p].vertex_count > 65536) continue;
                        sw_deform def = {.node = n, .primitive = p, .method = i % 2 ? SW_SKIN_DQS : SW_SKIN_LBS,
                                         .scratch = scratch, .out_positions = positions, .out_normals = normals};
                        SW_CHECK(sw_deform_primitive(model, &pose, &def, &d) == SW_OK);
                        deformed++;
                    }
                }
            }
        }
        /* pose.h: nothing here allocates. */
        SW_CHECK_EQ_INT(c.allocations - allocations, 0);
        SW_CHECK_EQ_INT(c.reallocations - reallocations, 0);
        SW_CHECK_EQ_INT(c.frees - frees, 0);
        SW_CHECK(deformed > 0);
        free(memory), free(scratch), free(positions), free(normals), free(dirty);
    }
    sw_model_free(model);
    counting_end(&c);
    check_all_given_back(&c, "demo loaded, posed and deformed");
}

static void test_spring_simulation(void) {
    counting_allocator c;
    counting_begin(&c);
    sw_model* model = load_demo();
    sw_spring_set* set = NULL;
    sw_diag d = {0};
    SW_CHECK(model && sw_spring_read(model, &set, &d) == SW_OK && set && set->chain_count > 0);
    if (set && set->chain_count > 0) {
        sw_spring_sizes sizes;
        SW_CHECK(sw_spring_sizes_of(model, set, &sizes, &d) == SW_OK);
        sw_pose_sizes pose_sizes = sw_pose_sizes_of(model);
        void* spring_memory = test_memory(sw_spring_memory_size(&sizes));
        void* pose_memory = test_memory(sw_pose_memory_size(&pose_sizes));
        size_t allocations = c.allocations, frees = c.frees;
        sw_spring_state state;
        sw_pose pose;
        sw_pose_bind(&pose, &pose_sizes, pose_memory);
        SW_CHECK(sw_spring_init(&state, &sizes, spring_memory, model, set, NULL, &d) == SW_OK);
        uint32_t steps = 0;
        const sw_clip* walk = model->animation_count ? &model->animations[0] : NULL;
        for (int frame = 0; frame < 120; frame++) {
            SW_CHECK(sw_pose_sample(model, walk, (float)frame / 60.0f, true, &pose, &d) == SW_OK);
            sw_pose_update_world(model, &pose);
            steps += sw_spring_update(&state, model, set, &pose, 1.0f / 60.0f);
            sw_pose_update(model, &pose);
        }
        sw_spring_reset(&state, &pose);
        SW_CHECK(steps >= 119);
        /* spring.h: sw_spring_read is the only function that allocates. */
        SW_CHECK_EQ_INT(c.allocations - allocations, 0);
        SW_CHECK_EQ_INT(c.frees - frees, 0);
        free(spring_memory), free(pose_memory);
    }
    sw_spring_set_free(set);
    sw_model_free(model);
    counting_end(&c);
    check_all_given_back(&c, "demo's spring bones read and simulated");
}

/* ---- objects on aligned memory: retargeting, the face map bake, the check ------------------- */

static void test_aligned_objects(void) {
    counting_allocator c;
    counting_begin(&c);
    sw_model* model = load_demo();
    if (model) {
        sw_diag d = {0};
        sw_humanoid_map map;
        SW_CHECK(sw_humanoid_map_from_names(model, NULL, &map, NULL, &d) == SW_OK);
        size_t before = c.allocations;
        for (size_t a = 0; a < model->animation_count; a++) {
            sw_clip* clip = NULL;
            SW_CHECK(sw_retarget_clip(model, &map, &model->animations[a], model, &map, NULL, &clip, NULL, &d) == SW_OK);
            SW_CHECK(clip != NULL && clip->track_count > 0);
            sw_clip_free(clip);
        }
        SW_CHECK(c.allocations > before);

        int32_t face = -1, head = sw_model_find_node_by_name(model, "head");
        for (size_t m = 0; m < model->material_count; m++)
            if (model->materials[m].name && strcmp(model->materials[m].name, "face") == 0) face = (int32_t)m;
        SW_CHECK(face >= 0 && head >= 0);
        if (face >= 0 && head >= 0) {
            enum { SIZE = 16 };
            uint8_t* rgba = malloc(SIZE * SIZE * 4);
            before = c.allocations;
            SW_CHECK(sw_toon_bake_face_sdf(model, (uint32_t)face, (uint32_t)head, SIZE, rgba, &d) == SW_OK);
            SW_CHECK(c.allocations > before);
            free(rgba);
        }

        sw_check_report* report = NULL;
        SW_CHECK(sw_check_model(model, NULL, &report, &d) == SW_OK);
        sw_check_report_free(report);
    }
    sw_model_free(model);
    counting_end(&c);
    check_all_given_back(&c, "retargeted clips, face map, check");
}

/* ---- out of memory at every allocation ----------------------------------------------------- */

/* One call to run again and again: its result, verbose or not, and a
   fingerprint of what it made. */
typedef struct oom_call {
    const char* name;
    sw_result (*run)(const struct oom_call* call, bool verbose, uint64_t* fingerprint);
    bool may_recover;            /* a refusal it can do without is no error (below) */
    const char* path;            /* import: the file */
    bool import_only;            /* import: without the readers */
    const sw_model* model;       /* decode: the model and image */
    size_t image;
    size_t stride;               /* > 1: every N of the first and last 256, every stride-th between */
} oom_call;

/* Whether allocation n of total is refused in a sweep with this stride. */
static bool oom_tried(size_t n, size_t total, size_t stride) {
    return stride <= 1 || n < 256 || n + 256 >= total || n % stride == 0;
}

static sw_result run_import(const oom_call* call, bool verbose, uint64_t* fingerprint) {
    *fingerprint = 0;
    return import_and_read(call->path, call->import_only, verbose);
}

/* FNV-1a of the pixels and their size. */
static uint64_t pixels_fingerprint(const uint8_t* pixels, int w, int h) {
    uint64_t f = 14695981039346656037ull ^ (uint64_t)w ^ ((uint64_t)h << 32);
    for (size_t i = 0; pixels && i < (size_t)w * (size_t)h * 4; i++) f = (f ^ pixels[i]) * 1099511628211ull;
    return f;
}

static sw_result run_decode(const oom_call* call, bool verbose, uint64_t* fingerprint) {
    uint8_t* pixels = NULL;
    int w = 0, h = 0;
    sw_diag d = {0};
    sw_result r = sw_model_decode_image(call->model, call->image, &pixels, &w, &h, &d);
    if (r != SW_OK && verbose) fprintf(stderr, "  %s: %s\n", call->name, d.message);
    SW_CHECK((r == SW_OK) == (pixels != NULL));
    *fingerprint = pixels_fingerprint(pixels, w, h);
    sw_model_image_free(pixels);
    return r;
}

/* Every N below the allocations the call makes: refused from call N on,
   and refused at call N only. Each run must fail with
   SW_ERR_OUT_OF_MEMORY and leave nothing allocated; except that a call
   that may_recover may succeed when only call N was refused, if what it
   made is the same (stb_image's format probe allocates, and a refusal
   there just moves it on to the right decoder). */
static void out_of_memory_sweep(const oom_call* call) {
    counting_allocator c;
    counting_begin(&c);
    uint64_t expected = 0, made = 0;
    SW_CHECK_EQ_INT(call->run(call, true, &expected), SW_OK);
    size_t total = c.calls;
    SW_CHECK_EQ_INT(c.live_blocks, 0);
    size_t wrong = 0, leaked = 0, recovered = 0, tried = 0;
    for (int once = 0; once < 2; once++) {
        for (size_t n = 0; n < total; n++) {
            if (!oom_tried(n, total, call->stride)) continue;
            tried += !once;
            counting_fail(&c, n, once ? 1 : COUNTING_NEVER);
            sw_result r = call->run(call, false, &made);
            bool recovers = once && call->may_recover && r == SW_OK && c.refused == 1 && made == expected;
            recovered += recovers;
            if (!recovers && (r != SW_ERR_OUT_OF_MEMORY || c.refused == 0) && wrong++ < 8) {
                fprintf(stderr, "  %s: allocation %zu refused%s: %s (%zu refused)\n", call->name, n,
                        once ? " (only that one)" : " (and every one after)", sw_result_str(r), c.refused);
                counting_fail(&c, n, once ? 1 : COUNTING_NEVER);
                call->run(call, true, &made);
            }
            if (c.live_blocks != 0 && leaked++ < 8)
                fprintf(stderr, "  %s: allocation %zu refused: %zu blocks left alive\n", call->name, n, c.live_blocks);
        }
    }
    counting_end(&c);
    fprintf(stderr, "  %s: %zu allocations, %zu of them refused in turn (from then on, and alone): %zu wrong results, "
            "%zu leaks%s\n", call->name, total, tried, wrong, leaked,
            recovered ? " (a refusal it did without: same result)" : "");
    SW_CHECK(total > 0);
    SW_CHECK_EQ_INT(wrong, 0);
    SW_CHECK_EQ_INT(leaked, 0);
    SW_CHECK_EQ_INT(c.live_blocks, 0);
    SW_CHECK_EQ_INT(c.foreign, 0);
}

/* The image of `model` of type `mime` (stored in the file or as a data:
   URI) with the fewest bytes, or SIZE_MAX. */
static size_t smallest_image(const sw_model* model, const char* mime) {
    size_t best = SIZE_MAX, best_size = SIZE_MAX;
    for (size_t i = 0; i < model->image_count; i++) {
        const sw_model_image* im = &model->images[i];
        size_t size = im->data ? im->data_size : im->uri ? strlen(im->uri) : SIZE_MAX;
        bool typed = (im->mime_type && strcmp(im->mime_type, mime) == 0) ||
                     (im->uri && strncmp(im->uri, "data:", 5) == 0 && strncmp(im->uri + 5, mime, strlen(mime)) == 0);
        if (typed && size < best_size) best = i, best_size = size;
    }
    return best;
}

static void test_out_of_memory(void) {
    char paths[3][1024];
    static const char* const files[] = {"vrm/hair_vrm0.vrm", "vrm/hair_vrm1.gltf", "gltf/buffer_external.gltf"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        out_of_memory_sweep(&(oom_call){.name = files[i], .run = run_import,
                                        .path = data_path(files[i], paths[i], sizeof paths[i])});
    /* The demo character's import alone (its readers are the small files'
       readers): the first and last 256 allocations and every 13th between
       (most are cJSON's nodes, alike; 13 is prime to their pattern), then
       one of its PNG images decoded. */
    if (!write_demo_file()) return;
    out_of_memory_sweep(&(oom_call){.name = "the demo character's import", .run = run_import, .path = g_demo_path,
                                    .import_only = true, .stride = 13});
    sw_model* demo = NULL;
    SW_CHECK(sw_import_file(g_demo_path, NULL, &demo, NULL) == SW_OK);
    size_t png = demo ? smallest_image(demo, "image/png") : SIZE_MAX;
    SW_CHECK(png != SIZE_MAX);
    if (png != SIZE_MAX)
        out_of_memory_sweep(&(oom_call){.name = "a PNG image of the demo decoded", .run = run_decode,
                                        .may_recover = true, .model = demo, .image = png});
    sw_model_free(demo);
    /* From the shared assets: the IQM reader, sinew's side of an Assimp
       import, a JPEG image. */
    const char* root = getenv("SINEW_ASSETS");
    if (!root || !*root) return;
    char path[4096];
    static const char* const others[] = {"iqm/guy.iqm", "fbx/walk.fbx"};
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", root, others[i]);
        sw_model* model = NULL;
        if (sw_import_file(path, NULL, &model, NULL) != SW_OK) {
            fprintf(stderr, "  %s: not imported here (no Assimp, or not in SINEW_ASSETS)\n", others[i]);
            continue;
        }
        sw_model_free(model);
        out_of_memory_sweep(&(oom_call){.name = others[i], .run = run_import, .path = path, .import_only = true});
    }
    snprintf(path, sizeof path, "%s/gltf/khronos/cesium_man.gltf", root);
    sw_model* cesium = NULL;
    if (sw_import_file(path, NULL, &cesium, NULL) != SW_OK) return;
    size_t jpeg = smallest_image(cesium, "image/jpeg");
    if (jpeg != SIZE_MAX)
        out_of_memory_sweep(&(oom_call){.name = "cesium_man's JPEG image decoded", .run = run_decode,
                                        .may_recover = true, .model = cesium, .image = jpeg});
    sw_model_free(cesium);
}

int main(void) {
    SW_RUN(test_json_readers_before_any_import); /* first: no JSON parsed before it */
    SW_RUN(test_default_allocator_restored);
    SW_RUN(test_aligned_blocks);
    SW_RUN(test_import_in_tree);
    SW_RUN(test_import_shared_assets);
    SW_RUN(test_pose_evaluation);
    SW_RUN(test_spring_simulation);
    SW_RUN(test_aligned_objects);
    SW_RUN(test_out_of_memory);
    if (g_demo_path[0]) unlink(g_demo_path);
    return sw_test_finish();
}
