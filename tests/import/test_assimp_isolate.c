/* Assimp out of process (src/assimp/assimp_isolate.c, model_stream.c):
   - the model stream round-trips every field of a model the Assimp
     importer made (a BVH and a skinned Collada file written here, the FBX
     files of SINEW_ASSETS), and an isolated load gives the same model as
     an in-process one;
   - the parent turns a child that crashes, hangs, floods the pipe, runs
     out of memory or sends garbage into a one-line error naming the file;
   - the stream reader refuses every truncation and survives every byte
     flipped, and lying counts and offsets give errors, not crashes
     (run under ASan for the proof). Skipped without Assimp. */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "sinew/assimp.h"
#include "../../src/assimp/assimp_isolate.h"
#include "../../src/assimp/model_stream.h"
#include "../../src/base/base_internal.h"

/* ---- test files -------------------------------------------------------------------------------- */

static const char k_bvh[] =
    "HIERARCHY\n"
    "ROOT hips\n{\n OFFSET 0 0 0\n CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n"
    " JOINT spine\n {\n  OFFSET 0 10 0\n  CHANNELS 3 Zrotation Xrotation Yrotation\n"
    "  End Site\n  {\n   OFFSET 0 5 0\n  }\n }\n}\n"
    "MOTION\nFrames: 3\nFrame Time: 0.05\n"
    "0 90 0 0 0 0 0 0 0\n1 90 0 10 20 30 5 0 0\n2 91 0 20 40 60 10 0 0\n";

/* A quad of two triangles skinned to bones r (root) and t (its child):
   vertices 0-1 on r, 2-3 on t and r half each; with a material. */
static const char k_dae[] =
    "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
    "<COLLADA xmlns=\"http://www.collada.org/2005/11/COLLADASchema\" version=\"1.4.1\">\n"
    "<asset><unit name=\"meter\" meter=\"1\"/><up_axis>Y_UP</up_axis></asset>\n"
    "<library_effects><effect id=\"fx\"><profile_COMMON><technique sid=\"t\"><phong>"
    "<diffuse><color>0.5 0.25 1 1</color></diffuse></phong></technique></profile_COMMON></effect></library_effects>\n"
    "<library_materials><material id=\"skin_mat\" name=\"skin_mat\"><instance_effect url=\"#fx\"/></material>"
    "</library_materials>\n"
    "<library_geometries><geometry id=\"g\" name=\"quad\"><mesh>\n"
    "<source id=\"g-p\"><float_array id=\"g-pa\" count=\"12\">0 0 0 1 0 0 1 2 0 0 2 0</float_array>"
    "<technique_common><accessor source=\"#g-pa\" count=\"4\" stride=\"3\"><param name=\"X\" type=\"float\"/>"
    "<param name=\"Y\" type=\"float\"/><param name=\"Z\" type=\"float\"/></accessor></technique_common></source>\n"
    "<vertices id=\"g-v\"><input semantic=\"POSITION\" source=\"#g-p\"/></vertices>\n"
    "<triangles count=\"2\" material=\"m\"><input semantic=\"VERTEX\" source=\"#g-v\" offset=\"0\"/>"
    "<p>0 1 2 0 2 3</p></triangles>\n"
    "</mesh></geometry></library_geometries>\n"
    "<library_controllers><controller id=\"sk\"><skin source=\"#g\">"
    "<bind_shape_matrix>1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1</bind_shape_matrix>\n"
    "<source id=\"sk-j\"><Name_array id=\"sk-ja\" count=\"2\">r t</Name_array><technique_common>"
    "<accessor source=\"#sk-ja\" count=\"2\" stride=\"1\"><param name=\"JOINT\" type=\"name\"/></accessor>"
    "</technique_common></source>\n"
    "<source id=\"sk-b\"><float_array id=\"sk-ba\" count=\"32\">1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1 "
    "1 0 0 0 0 1 0 -1 0 0 1 0 0 0 0 1</float_array><technique_common><accessor source=\"#sk-ba\" count=\"2\" "
    "stride=\"16\"><param name=\"TRANSFORM\" type=\"float4x4\"/></accessor></technique_common></source>\n"
    "<source id=\"sk-w\"><float_array id=\"sk-wa\" count=\"2\">1 0.5</float_array><technique_common>"
    "<accessor source=\"#sk-wa\" count=\"2\" stride=\"1\"><param name=\"WEIGHT\" type=\"float\"/></accessor>"
    "</technique_common></source>\n"
    "<joints><input semantic=\"JOINT\" source=\"#sk-j\"/><input semantic=\"INV_BIND_MATRIX\" source=\"#sk-b\"/>"
    "</joints>\n"
    "<vertex_weights count=\"4\"><input semantic=\"JOINT\" source=\"#sk-j\" offset=\"0\"/>"
    "<input semantic=\"WEIGHT\" source=\"#sk-w\" offset=\"1\"/><vcount>1 1 2 2</vcount>"
    "<v>0 0 0 0 1 1 0 1 1 1 0 1</v></vertex_weights>\n"
    "</skin></controller></library_controllers>\n"
    "<library_visual_scenes><visual_scene id=\"s\" name=\"s\">\n"
    "<node id=\"r\" sid=\"r\" name=\"r\" type=\"JOINT\"><node id=\"t\" sid=\"t\" name=\"t\" type=\"JOINT\">"
    "<translate>0 1 0</translate></node></node>\n"
    "<node id=\"body\" name=\"body\"><instance_controller url=\"#sk\"><skeleton>#r</skeleton>"
    "<bind_material><technique_common><instance_material symbol=\"m\" target=\"#skin_mat\"/></technique_common>"
    "</bind_material></instance_controller></node>\n"
    "</visual_scene></library_visual_scenes>\n"
    "<scene><instance_visual_scene url=\"#s\"/></scene>\n</COLLADA>\n";

/* ---- comparing models field by field ------------------------------------------------------------ */

static int g_diffs;

#define DIFF(...)                                                                                                 \
    do {                                                                                                          \
        if (g_diffs++ < 10) {                                                                                     \
            fprintf(stderr, "  differs: ");                                                                       \
            fprintf(stderr, __VA_ARGS__);                                                                         \
            fprintf(stderr, "\n");                                                                                \
        }                                                                                                         \
    } while (0)
#define SAME(a, b, what)                                                                                          \
    do {                                                                                                          \
        if ((a) != (b)) DIFF("%s", what);                                                                         \
    } while (0)

static void same_str(const char* a, const char* b, const char* what) {
    if ((a == NULL) != (b == NULL) || (a && strcmp(a, b) != 0)) DIFF("%s: \"%s\" vs \"%s\"", what, a ? a : "(null)",
                                                                    b ? b : "(null)");
}

/* Both NULL, or both set with the same n bytes. */
static void same_bytes(const void* a, const void* b, size_t n, const char* what) {
    if ((a == NULL) != (b == NULL) || (a && n && memcmp(a, b, n) != 0)) DIFF("%s", what);
}

static void same_ref(const sw_model_texture_ref* a, const sw_model_texture_ref* b) {
    SAME(a->texture, b->texture, "texture ref");
    SAME(a->texcoord, b->texcoord, "texture ref texcoord");
    SAME(a->has_transform, b->has_transform, "texture ref transform");
    same_bytes(&a->scale, &b->scale, sizeof a->scale, "texture ref scale");
    same_bytes(a->offset, b->offset, sizeof a->offset, "texture ref offset");
    same_bytes(&a->rotation, &b->rotation, sizeof a->rotation, "texture ref rotation");
    same_bytes(a->uv_scale, b->uv_scale, sizeof a->uv_scale, "texture ref uv_scale");
}

static void same_primitive(const sw_model_primitive* a, const sw_model_primitive* b) {
    size_t vc = a->vertex_count, f = sizeof(float);
    SAME(a->mode, b->mode, "mode");
    SAME(a->material, b->material, "material");
    SAME(a->vertex_count, b->vertex_count, "vertex count");
    if (a->vertex_count != b->vertex_count) return;
    same_bytes(a->positions, b->positions, vc * 3 * f, "positions");
    same_bytes(a->normals, b->normals, vc * 3 * f, "normals");
    same_bytes(a->tangents, b->tangents, vc * 4 * f, "tangents");
    SAME(a->texcoord_count, b->texcoord_count, "texcoord count");
    for (int t = 0; t < SW_MODEL_MAX_TEXCOORDS; t++) same_bytes(a->texcoords[t], b->texcoords[t], vc * 2 * f, "uv");
    same_bytes(a->colors, b->colors, vc * 4 * f, "colors");
    SAME(a->influence_count, b->influence_count, "influence count");
    SAME(a->influence_sets, b->influence_sets, "influence sets");
    SAME(a->raw_influence_count, b->raw_influence_count, "raw influence count");
    if (a->influence_count != b->influence_count || a->raw_influence_count != b->raw_influence_count) return;
    size_t k = vc * (size_t)a->influence_count, raw = vc * (size_t)a->raw_influence_count;
    same_bytes(a->joints, b->joints, k * sizeof(uint16_t), "joints");
    same_bytes(a->weights, b->weights, k * f, "weights");
    same_bytes(a->raw_joints, b->raw_joints, raw * sizeof(uint16_t), "raw joints");
    same_bytes(a->raw_weights, b->raw_weights, raw * f, "raw weights");
    SAME(a->index_count, b->index_count, "index count");
    if (a->index_count == b->index_count) same_bytes(a->indices, b->indices, a->index_count * 4, "indices");
    SAME(a->target_count, b->target_count, "target count");
    if ((a->targets == NULL) != (b->targets == NULL)) DIFF("targets");
    for (size_t t = 0; a->targets && b->targets && t < a->target_count && a->target_count == b->target_count; t++) {
        same_bytes(a->targets[t].positions, b->targets[t].positions, vc * 3 * f, "target positions");
        same_bytes(a->targets[t].normals, b->targets[t].normals, vc * 3 * f, "target normals");
        same_bytes(a->targets[t].tangents, b->targets[t].tangents, vc * 3 * f, "target tangents");
    }
    same_bytes(a->bounds_min, b->bounds_min, sizeof a->bounds_min, "bounds");
    same_bytes(a->bounds_max, b->bounds_max, sizeof a->bounds_max, "bounds");
}

/* Every field of sw_model the importers fill; pointers compared by what they point to. */
static int model_differences(const sw_model* a, const sw_model* b) {
    g_diffs = 0;
    same_str(a->path, b->path, "path");
    same_str(a->generator, b->generator, "generator");
    same_str(a->format, b->format, "format");
    same_str(a->base_dir, b->base_dir, "base_dir");
    SAME(a->allow_outside_paths, b->allow_outside_paths, "allow_outside_paths");
    same_bytes(&a->unit_scale_to_metres, &b->unit_scale_to_metres, sizeof(float), "unit scale");
    same_bytes(a->up_axis_read, b->up_axis_read, 3, "up axis");
    SAME(a->import_dropped_vertices, b->import_dropped_vertices, "dropped vertices");
    same_bytes(&a->import_dropped_weight, &b->import_dropped_weight, sizeof(float), "dropped weight");
    SAME(a->import_collapsed_nodes, b->import_collapsed_nodes, "collapsed nodes");
    SAME(a->default_scene, b->default_scene, "default scene");
    SAME(a->node_count, b->node_count, "node count");
    SAME(a->scene_count, b->scene_count, "scene count");
    SAME(a->mesh_count, b->mesh_count, "mesh count");
    SAME(a->skin_count, b->skin_count, "skin count");
    SAME(a->skin_joint_count, b->skin_joint_count, "skin joint count");
    SAME(a->animation_count, b->animation_count, "clip count");
    SAME(a->material_count, b->material_count, "material count");
    SAME(a->texture_count, b->texture_count, "texture count");
    SAME(a->sampler_count, b->sampler_count, "sampler count");
    SAME(a->image_count, b->image_count, "image count");
    SAME(a->weight_count, b->weight_count, "weight count");
    SAME(a->extension_count, b->extension_count, "extension count");
    SAME(a->warning_count, b->warning_count, "warning count");
    if (g_diffs) return g_diffs;
    size_t nc = a->node_count;
    for (size_t i = 0; i < nc; i++) {
        const sw_model_node *x = &a->nodes[i], *y = &b->nodes[i];
        same_str(x->name, y->name, "node name");
        SAME(x->parent, y->parent, "node parent");
        SAME(x->child_count, y->child_count, "node child count");
        if (x->child_count == y->child_count) same_bytes(x->children, y->children, x->child_count * 4, "children");
        SAME(x->mesh, y->mesh, "node mesh");
        SAME(x->skin, y->skin, "node skin");
        SAME(x->camera, y->camera, "node camera");
        SAME(x->has_matrix, y->has_matrix, "node has_matrix");
        same_bytes(&x->matrix, &y->matrix, sizeof x->matrix, "node matrix");
        same_bytes(&x->trs, &y->trs, sizeof x->trs, "node trs");
        SAME(x->weight_count, y->weight_count, "node weight count");
        if (x->weight_count == y->weight_count) same_bytes(x->weights, y->weights, x->weight_count * 4, "node weights");
        SAME(x->weight_offset, y->weight_offset, "node weight offset");
        SAME(x->source_index, y->source_index, "node source index");
    }
    same_bytes(a->node_from_source, b->node_from_source, nc * 4, "node_from_source");
    same_bytes(a->weight_offsets, b->weight_offsets, nc * 4, "weight_offsets");
    same_bytes(a->rest_local, b->rest_local, nc * sizeof(sw_transform), "rest_local");
    same_bytes(a->rest_weights, b->rest_weights, a->weight_count * 4, "rest_weights");
    for (size_t i = 0; i < a->scene_count; i++) {
        same_str(a->scenes[i].name, b->scenes[i].name, "scene name");
        SAME(a->scenes[i].node_count, b->scenes[i].node_count, "scene nodes");
        if (a->scenes[i].node_count == b->scenes[i].node_count)
            same_bytes(a->scenes[i].nodes, b->scenes[i].nodes, a->scenes[i].node_count * 4, "scene nodes");
    }
    for (size_t i = 0; i < a->mesh_count; i++) {
        const sw_model_mesh *x = &a->meshes[i], *y = &b->meshes[i];
        same_str(x->name, y->name, "mesh name");
        SAME(x->weight_count, y->weight_count, "mesh weight count");
        SAME(x->primitive_count, y->primitive_count, "primitive count");
        if (x->weight_count != y->weight_count || x->primitive_count != y->primitive_count) continue;
        same_bytes(x->weights, y->weights, x->weight_count * 4, "mesh weights");
        if ((x->target_names == NULL) != (y->target_names == NULL)) DIFF("target names");
        for (size_t t = 0; x->target_names && y->target_names && t < x->weight_count; t++)
            same_str(x->target_names[t], y->target_names[t], "target name");
        for (size_t p = 0; p < x->primitive_count; p++) same_primitive(&x->primitives[p], &y->primitives[p]);
    }
    for (size_t i = 0; i < a->skin_count; i++) {
        const sw_model_skin *x = &a->skins[i], *y = &b->skins[i];
        same_str(x->name, y->name, "skin name");
        SAME(x->joint_count, y->joint_count, "skin joint count");
        SAME(x->skeleton, y->skeleton, "skin skeleton");
        SAME(x->palette_offset, y->palette_offset, "skin palette offset");
        if (x->joint_count != y->joint_count) continue;
        same_bytes(x->joints, y->joints, x->joint_count * 4, "skin joints");
        same_bytes(x->inverse_bind, y->inverse_bind, x->joint_count * sizeof(sw_mat34), "inverse binds");
    }
    for (size_t i = 0; i < a->animation_count; i++) {
        const sw_clip *x = &a->animations[i], *y = &b->animations[i];
        same_str(x->name, y->name, "clip name");
        same_bytes(&x->start, &y->start, 4, "clip start");
        same_bytes(&x->duration, &y->duration, 4, "clip duration");
        SAME(x->track_count, y->track_count, "track count");
        for (size_t t = 0; x->track_count == y->track_count && t < x->track_count; t++) {
            const sw_track *s = &x->tracks[t], *u = &y->tracks[t];
            SAME(s->target, u->target, "track target");
            SAME(s->path, u->path, "track path");
            SAME(s->interpolation, u->interpolation, "track interpolation");
            SAME(s->component_count, u->component_count, "track components");
            SAME(s->key_count, u->key_count, "key count");
            if (s->key_count != u->key_count || s->component_count != u->component_count) continue;
            same_bytes(s->times, u->times, s->key_count * 4, "key times");
            size_t n = s->key_count * s->component_count * (s->interpolation == SW_INTERP_CUBICSPLINE ? 3 : 1);
            same_bytes(s->values, u->values, n * 4, "key values");
        }
    }
    for (size_t i = 0; i < a->material_count; i++) {
        const sw_model_material *x = &a->materials[i], *y = &b->materials[i];
        same_str(x->name, y->name, "material name");
        same_bytes(x->base_color_factor, y->base_color_factor, 16, "base colour");
        same_ref(&x->base_color_texture, &y->base_color_texture);
        same_bytes(&x->metallic_factor, &y->metallic_factor, 4, "metallic");
        same_bytes(&x->roughness_factor, &y->roughness_factor, 4, "roughness");
        same_ref(&x->metallic_roughness_texture, &y->metallic_roughness_texture);
        same_ref(&x->normal_texture, &y->normal_texture);
        same_ref(&x->occlusion_texture, &y->occlusion_texture);
        same_bytes(x->emissive_factor, y->emissive_factor, 12, "emissive");
        same_ref(&x->emissive_texture, &y->emissive_texture);
        same_bytes(&x->emissive_strength, &y->emissive_strength, 4, "emissive strength");
        SAME(x->alpha_mode, y->alpha_mode, "alpha mode");
        same_bytes(&x->alpha_cutoff, &y->alpha_cutoff, 4, "alpha cutoff");
        SAME(x->double_sided, y->double_sided, "double sided");
        SAME(x->unlit, y->unlit, "unlit");
    }
    for (size_t i = 0; i < a->texture_count; i++) {
        SAME(a->textures[i].image, b->textures[i].image, "texture image");
        SAME(a->textures[i].sampler, b->textures[i].sampler, "texture sampler");
    }
    same_bytes(a->samplers, b->samplers, a->sampler_count * sizeof(sw_model_sampler), "samplers");
    for (size_t i = 0; i < a->image_count; i++) {
        same_str(a->images[i].name, b->images[i].name, "image name");
        same_str(a->images[i].uri, b->images[i].uri, "image uri");
        same_str(a->images[i].mime_type, b->images[i].mime_type, "image mime type");
        SAME(a->images[i].data_size, b->images[i].data_size, "image size");
        if (a->images[i].data_size == b->images[i].data_size)
            same_bytes(a->images[i].data, b->images[i].data, a->images[i].data_size, "image bytes");
    }
    for (size_t i = 0; i < a->extension_count; i++) {
        same_str(a->extensions[i].name, b->extensions[i].name, "extension name");
        SAME(a->extensions[i].object, b->extensions[i].object, "extension object");
        SAME(a->extensions[i].index, b->extensions[i].index, "extension index");
        same_str(a->extensions[i].json, b->extensions[i].json, "extension json");
    }
    for (size_t i = 0; i < a->warning_count; i++) same_str(a->warnings[i], b->warnings[i], "warning");
    SAME(a->side_file_count, b->side_file_count, "side file count");
    for (size_t i = 0; i < a->side_file_count && i < b->side_file_count; i++)
        same_str(a->side_files[i], b->side_files[i], "side file");
    return g_diffs;
}

/* ---- round trips -------------------------------------------------------------------------------- */

static sw_model* load(const void* data, size_t size, const char* name, bool in_process, sw_diag* d) {
    sw_assimp_options o = {.in_process = in_process, .keep_raw_influences = true};
    sw_model* m = NULL;
    if (sw_assimp_load_memory(data, size, name, "/nowhere", &o, &m, d) != SW_OK) return NULL;
    return m;
}

/* In process → stream → model: every field the same; and an isolated
   load of the same bytes: the same model again. */
static void check_round_trip(const void* data, size_t size, const char* name) {
    sw_diag d = {0};
    sw_model* here = load(data, size, name, true, &d);
    if (!here) fprintf(stderr, "  %s\n", d.message);
    SW_CHECK(here != NULL);
    if (!here) return;
    uint8_t* stream = NULL;
    size_t stream_size = 0;
    SW_CHECK(sw__model_stream_write(here, &stream, &stream_size) == SW_OK);
    sw_model* back = NULL;
    SW_CHECK(sw__model_stream_read(stream, stream_size, name, &back, &d) == SW_OK);
    if (!back) fprintf(stderr, "  %s\n", d.message);
    if (back) SW_CHECK_EQ_INT(model_differences(here, back), 0);
    sw_model* isolated = load(data, size, name, false, &d);
    if (!isolated) fprintf(stderr, "  %s\n", d.message);
    SW_CHECK(isolated != NULL);
    if (isolated) SW_CHECK_EQ_INT(model_differences(here, isolated), 0);
    fprintf(stderr, "  %s: %zu nodes, %zu meshes, %zu skins, %zu clips, %zu materials, %zu warnings: %zu-byte stream\n",
            name, here->node_count, here->mesh_count, here->skin_count, here->animation_count, here->material_count,
            here->warning_count, stream_size);
    sw__free(stream);
    sw_model_free(back);
    sw_model_free(isolated);
    sw_model_free(here);
}

static void test_round_trip_written_files(void) {
    if (!sw_assimp_available()) SW_SKIP("built without Assimp");
    check_round_trip(k_bvh, sizeof k_bvh - 1, "walk.bvh");
    check_round_trip(k_dae, sizeof k_dae - 1, "quad.dae");
}

static uint8_t* read_whole(const char* path, size_t* size) {
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
    *size = (size_t)n;
    return data;
}

static double seconds_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* What the child costs: the best of 5 loads, in process and isolated, taken in turn. */
static void measure(const void* data, size_t size, const char* name) {
    double best[2] = {1e9, 1e9};
    for (int rep = 0; rep < 5; rep++)
        for (int isolated = 0; isolated < 2; isolated++) {
            double t0 = seconds_now();
            sw_model* m = load(data, size, name, !isolated, NULL);
            double t = seconds_now() - t0;
            SW_CHECK(m != NULL);
            sw_model_free(m);
            if (t < best[isolated]) best[isolated] = t;
        }
    fprintf(stderr, "  %s: load in process %.1f ms, isolated %.1f ms (best of 5)\n", name, best[0] * 1e3,
            best[1] * 1e3);
}

static void test_round_trip_shared_fbx(void) {
    if (!sw_assimp_available()) SW_SKIP("built without Assimp");
    const char* root = getenv("SINEW_ASSETS");
    if (!root || !*root) SW_SKIP("SINEW_ASSETS is not set");
    static const char* const files[] = {"fbx/arnaud.fbx", "fbx/walk.fbx"};
    for (size_t i = 0; i < 2; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", root, files[i]);
        size_t size = 0;
        uint8_t* data = read_whole(path, &size);
        if (!data) {
            fprintf(stderr, "  %s: not in SINEW_ASSETS\n", files[i]);
            continue;
        }
        check_round_trip(data, size, files[i] + 4);
        measure(data, size, files[i] + 4);
        free(data);
    }
}

/* ---- the parent's handling of a child that fails --------------------------------------------------- */

static void hook_segv(int fd) {
    (void)fd;
    raise(SIGSEGV);
}
static void hook_hang(int fd) {
    (void)fd;
    for (;;) pause();
}
static void hook_garbage(int fd) {
    static const char text[] = "SWMODEL\0 this is not a model";
    if (write(fd, text, sizeof text) < 0) _exit(3);
    _exit(0);
}
static void hook_nothing(int fd) {
    (void)fd;
    _exit(0);
}
static void hook_exit_status(int fd) {
    (void)fd;
    _exit(7);
}
static void hook_flood(int fd) {
    static uint8_t block[1 << 16];
    for (;;)
        if (write(fd, block, sizeof block) < 0) _exit(3);
}
/* What std::bad_alloc does to a process: memory taken until none is
   left, then an abort. */
static void hook_memory(int fd) {
    (void)fd;
    for (;;) {
        char* p = malloc((size_t)16 << 20);
        if (!p) abort();
        memset(p, 1, (size_t)16 << 20);
    }
}
/* A child that says what went wrong in its own words. */
static void hook_error_record(int fd) {
    uint8_t head[16] = {'S', 'W', 'E', 'R', 'R', 'O', 'R', 0};
    uint32_t code = SW_ERR_INVALID_DATA;
    const char text[] = "walk.bvh: a\nbad line";
    uint32_t n = (uint32_t)strlen(text);
    memcpy(head + 8, &code, 4);
    memcpy(head + 12, &n, 4);
    if (write(fd, head, 16) < 0 || write(fd, text, n) < 0) _exit(3);
    _exit(1);
}

/* The descriptors open in the child besides stdin, stdout, stderr and the
   pipe (3), sent as its error message. */
static void hook_descriptors(int fd) {
    char text[256] = "walk.bvh: open:";
    size_t n = strlen(text);
    for (int d = 0; d < 1024 && n + 8 < sizeof text; d++)
        if (d > 3 && fcntl(d, F_GETFD) != -1) n += (size_t)snprintf(text + n, sizeof text - n, " %d", d);
    uint8_t head[16] = {'S', 'W', 'E', 'R', 'R', 'O', 'R', 0};
    uint32_t code = SW_ERR_INVALID_DATA, length = (uint32_t)n;
    memcpy(head + 8, &code, 4);
    memcpy(head + 12, &length, 4);
    if (write(fd, head, 16) < 0 || write(fd, text, n) < 0) _exit(3);
    _exit(1);
}

static void check_child(void (*hook)(int), double seconds, size_t max_memory, const char* expected,
                        double max_wall) {
    sw__assimp_child_hook = hook;
    sw_assimp_options o = {.time_limit_s = seconds, .max_memory = max_memory};
    sw_model* m = NULL;
    sw_diag d = {0};
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    sw_result r = sw_assimp_load_memory(k_bvh, sizeof k_bvh - 1, "dir/walk.bvh", NULL, &o, &m, &d);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    sw__assimp_child_hook = NULL;
    double wall = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    fprintf(stderr, "  %.2f s: %s\n", wall, d.message);
    SW_CHECK(r != SW_OK && m == NULL);
    SW_CHECK(strstr(d.message, expected) != NULL);
    SW_CHECK(strncmp(d.message, "walk.bvh: ", 10) == 0);
    SW_CHECK(strchr(d.message, '\n') == NULL);
    SW_CHECK(wall < max_wall);
    sw_model_free(m);
}

static void test_child_failures(void) {
    if (!sw_assimp_available()) SW_SKIP("built without Assimp");
    check_child(hook_segv, 0, 0, "Assimp crashed reading it (SIGSEGV)", 5);
    check_child(hook_hang, 0.5, 0, "Assimp took longer than 0.5 s reading it", 3);
    check_child(hook_garbage, 0, 0, "the import process sent a malformed model", 5);
    check_child(hook_nothing, 0, 0, "malformed model (byte 0: header: 24 bytes wanted, 0 left)", 5);
    check_child(hook_exit_status, 0, 0, "ended with status 7 and no model", 5);
    check_child(hook_flood, 0, 4096, "the import process sent more than 512 MB", 20);
    check_child(hook_memory, 0, 4096, "Assimp used more than 512 MB reading it", 20);
    check_child(hook_error_record, 0, 0, "walk.bvh: a bad line", 5);
    /* a descriptor of the caller's, not close-on-exec, is not the child's */
    int opened = open("/dev/null", O_RDONLY);
    int mine = dup2(opened, 10);
    close(opened);
    SW_CHECK(mine == 10 && fcntl(mine, F_GETFD) == 0);
    check_child(hook_descriptors, 0, 0, "walk.bvh: open:", 5);
    sw__assimp_child_hook = hook_descriptors;
    sw_diag d = {0};
    sw_model* none = NULL;
    sw_assimp_load_memory(k_bvh, sizeof k_bvh - 1, "walk.bvh", NULL, NULL, &none, &d);
    sw__assimp_child_hook = NULL;
    SW_CHECK(strcmp(d.message, "walk.bvh: open:") == 0);
    close(mine);
    /* and the next load, without a hook, works */
    sw_model* m = NULL;
    SW_CHECK(sw_assimp_load_memory(k_bvh, sizeof k_bvh - 1, "walk.bvh", NULL, NULL, &m, NULL) == SW_OK);
    sw_model_free(m);
}

/* ---- a lying stream ------------------------------------------------------------------------------ */

static void expect_refused(const uint8_t* data, size_t size, const char* expected) {
    sw_model* m = NULL;
    sw_diag d = {0};
    sw_result r = sw__model_stream_read(data, size, "x.dae", &m, &d);
    SW_CHECK(r == SW_ERR_INVALID_DATA && m == NULL);
    if (expected && !strstr(d.message, expected)) {
        fprintf(stderr, "  expected \"%s\" in: %s\n", expected, d.message);
        SW_CHECK(false);
    }
    SW_CHECK(strncmp(d.message, "x.dae: the import process sent a malformed model (byte ", 55) == 0);
    sw_model_free(m);
}

static void test_lying_streams(void) {
    if (!sw_assimp_available()) SW_SKIP("built without Assimp");
    sw_model* model = load(k_dae, sizeof k_dae - 1, "quad.dae", true, NULL);
    SW_CHECK(model != NULL);
    if (!model) return;
    uint8_t* stream = NULL;
    size_t size = 0;
    SW_CHECK(sw__model_stream_write(model, &stream, &size) == SW_OK);
    sw_model_free(model);
    uint8_t* copy = malloc(size + 8);
    SW_CHECK(copy != NULL);
    if (!copy || !stream) return;
    /* every truncation */
    for (size_t n = 0; n < size; n++) {
        memcpy(copy, stream, n);
        expect_refused(copy, n, NULL);
    }
    /* bytes added at the end (the header's length fixed up, then not) */
    memcpy(copy, stream, size);
    memset(copy + size, 0, 8);
    expect_refused(copy, size + 8, "the header says");
    uint64_t body = size + 8 - SW__MODEL_STREAM_HEADER;
    memcpy(copy + 16, &body, 8);
    expect_refused(copy, size + 8, "bytes after the model");
    /* another version */
    memcpy(copy, stream, size);
    copy[8] = 2;
    expect_refused(copy, size, "version 2");
    /* a node count of 2^40, a vertex count past the end: said, not allocated */
    memcpy(copy, stream, size);
    size_t node_count_at = SW__MODEL_STREAM_HEADER + 4 + strlen("quad.dae") + 4 + 4 + strlen("Collada") + 4 +
                           strlen("/nowhere") + 1 + 4 + 3 + 8 + 4 + 8 + 4;
    uint64_t nodes = 0;
    memcpy(&nodes, copy + node_count_at, 8);
    SW_CHECK(nodes >= 3 && nodes < 100);
    uint64_t huge = (uint64_t)1 << 40;
    memcpy(copy + node_count_at, &huge, 8);
    expect_refused(copy, size, "node count 1099511627776 is more than the");
    /* every byte flipped, one at a time: an error or a model, never a crash
       (the reader's checks and ASan say which bytes were trusted) */
    size_t accepted = 0;
    for (size_t i = 0; i < size; i++) {
        memcpy(copy, stream, size);
        copy[i] ^= 0xA5;
        sw_model* m = NULL;
        sw_diag d = {0};
        sw_result r = sw__model_stream_read(copy, size, "x.dae", &m, &d);
        SW_CHECK((r == SW_OK) == (m != NULL));
        if (r == SW_OK) {
            accepted++;
            /* what was accepted holds together: every index in range */
            for (size_t n = 0; n < m->node_count; n++) {
                SW_CHECK(m->nodes[n].parent < (int32_t)n);
                SW_CHECK(m->nodes[n].mesh < (int32_t)m->mesh_count);
                SW_CHECK(m->node_from_source[m->nodes[n].source_index] == n);
            }
        } else {
            SW_CHECK(strchr(d.message, '\n') == NULL);
        }
        sw_model_free(m);
    }
    fprintf(stderr, "  %zu-byte stream: every truncation refused; %zu of %zu flipped bytes still a valid model "
            "(names, floats)\n", size, accepted, size);
    free(copy);
    sw__free(stream);
}

int main(void) {
    SW_RUN(test_round_trip_written_files);
    SW_RUN(test_round_trip_shared_fbx);
    SW_RUN(test_child_failures);
    SW_RUN(test_lying_streams);
    return sw_test_finish();
}
