/* Broken and edge-case files: each file under $SINEW_ASSETS/gltf/invalid
   gives the expected result code and a message naming the file and what is
   wrong (or loads, for the valid edge cases). Every file in that folder
   must have an entry here, so a new one cannot slip through untested. */
#define _POSIX_C_SOURCE 200809L /* opendir, stat */

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "harness.h"
#include "sinew/gltf.h"

typedef struct invalid_case {
    const char* path;      /* under gltf/invalid/ */
    sw_result result;
    const char* message;   /* substring of diag.message (SW_OK: of a warning), or NULL */
} invalid_case;

static const invalid_case cases[] = {
    /* Zero-length and 0.1-long normals: the spec requires unit normals, but
       the geometry is usable, so it loads with a warning. */
    {"BoxBadNormals-glTF-Binary/BoxBadNormals.glb", SW_OK,
     "BoxBadNormals.glb: meshes[0].primitives[0].attributes.NORMAL: 8 normals are not unit length"},
    {"BoxWithInfinites-glTF-Binary/BoxWithInfinites.glb", SW_ERR_INVALID_DATA,
     "BoxWithInfinites.glb: meshes[0].primitives[0].attributes.POSITION: accessors[2]: element 0 is not finite"},
    /* Its bufferViews run past the 514-byte buffer: nothing can be read safely. */
    {"IncorrectVertexArrays/Cube.gltf", SW_ERR_INVALID_DATA,
     "Cube.gltf: bufferViews[2]: byteOffset 504 + byteLength 432 runs past the end of buffers[0] (514 bytes)"},
    {"IndexOutOfRange/IndexOutOfRange.gltf", SW_ERR_INDEX_OUT_OF_RANGE,
     "IndexOutOfRange.gltf: meshes[0].primitives[0].indices: index 255 at position 0 is out of range (24 vertices)"},
    {"IndexOutOfRange/AllIndicesOutOfRange.gltf", SW_ERR_INDEX_OUT_OF_RANGE,
     "index 65535 at position 0 is out of range (24 vertices); it is the primitive-restart value"},
    {"MissingBin/BoxTextured.gltf", SW_ERR_IO, "BoxTextured.gltf: buffers[0]: 'BoxTextured0.bin': cannot open"},
    {"RecursiveNodes/RecursiveNodes.gltf", SW_ERR_CYCLE,
     "RecursiveNodes.gltf: nodes[0]: the node hierarchy has a cycle through this node (children: 0 -> 1 -> 0)"},
    /* the type error is reported before the missing BoxTextured0.bin */
    {"SchemaFailures/sceneWrongType.gltf", SW_ERR_INVALID_DATA, "sceneWrongType.gltf: scene: expected an integer"},
    {"TestNoRootNode/NoScene.gltf", SW_ERR_INDEX_OUT_OF_RANGE, "NoScene.gltf: scene: 0 is out of range (0 scenes)"},
    /* valid: one scene without nodes, nothing to draw */
    {"TestNoRootNode/SceneWithoutNodes.gltf", SW_OK, NULL},
    {"glTF1-IncorrectVertexArrays/Cube_v1.gltf", SW_ERR_UNSUPPORTED,
     "Cube_v1.gltf: asset.version: glTF 1.0 is not supported"},
    /* TEXCOORD_1 without TEXCOORD_0: an error, see sw__parse_primitive */
    {"issue_3269/texcoord_crash.gltf", SW_ERR_INVALID_DATA,
     "texcoord_crash.gltf: meshes[0].primitives[0].attributes: TEXCOORD_1 without TEXCOORD_0"},
    {"wrongTypes/badArray.gltf", SW_ERR_INVALID_DATA, "badArray.gltf: meshes[0].primitives: expected an array"},
    {"wrongTypes/badExtension.gltf", SW_ERR_INVALID_DATA,
     "badExtension.gltf: materials[0].pbrMetallicRoughness.baseColorTexture.extensions.KHR_texture_transform: "
     "expected an object"},
    {"wrongTypes/badNumber.gltf", SW_ERR_INVALID_DATA,
     "badNumber.gltf: materials[0].normalTexture.scale: expected a number"},
    {"wrongTypes/badObject.gltf", SW_ERR_INVALID_DATA,
     "badObject.gltf: materials[0].pbrMetallicRoughness: expected an object"},
    {"wrongTypes/badString.gltf", SW_ERR_INVALID_DATA, "badString.gltf: scenes[0].name: expected a string"},
    {"wrongTypes/badUint.gltf", SW_ERR_INVALID_DATA,
     "badUint.gltf: materials[0].pbrMetallicRoughness.baseColorTexture.index: expected an index"},
};

static const char* invalid_dir(void) {
    static char dir[1024];
    const char* assets = getenv("SINEW_ASSETS");
    if (!assets || !*assets) return NULL;
    snprintf(dir, sizeof dir, "%s/gltf/invalid", assets);
    return dir;
}

static void check_case(const invalid_case* c) {
    char path[2048];
    snprintf(path, sizeof path, "%s/%s", invalid_dir(), c->path);
    sw_model* a = NULL;
    sw_diag d;
    sw_result r = sw_gltf_load_file(path, NULL, &a, &d);
    if (r != c->result) fprintf(stderr, "  %s: got %s (%s)\n", c->path, sw_result_str(r), d.message);
    SW_CHECK_EQ_INT(r, c->result);
    if (r != SW_OK) {
        SW_CHECK(a == NULL);
        SW_CHECK_EQ_INT(d.result, r);
        if (c->message && !strstr(d.message, c->message))
            fprintf(stderr, "  %s: message '%s'\n  lacks '%s'\n", c->path, d.message, c->message);
        SW_CHECK(!c->message || strstr(d.message, c->message));
        /* messages start with the file's name */
        const char* name = strrchr(c->path, '/') + 1;
        SW_CHECK(strncmp(d.message, name, strlen(name)) == 0);
        return;
    }
    if (!a) return;
    if (c->message) {
        bool found = false;
        for (size_t i = 0; i < a->warning_count; i++) found = found || strstr(a->warnings[i], c->message);
        SW_CHECK(found);
    } else {
        SW_CHECK_EQ_INT(a->warning_count, 0);
    }
    sw_model_free(a);
}

static void test_invalid_files(void) {
    if (!invalid_dir()) SW_SKIP("SINEW_ASSETS is not set: the invalid-file tests need it");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) check_case(&cases[i]);
}

static void test_scene_without_nodes(void) {
    if (!invalid_dir()) SW_SKIP("SINEW_ASSETS is not set: the invalid-file tests need it");
    char path[2048];
    snprintf(path, sizeof path, "%s/TestNoRootNode/SceneWithoutNodes.gltf", invalid_dir());
    sw_model* a;
    sw_diag d;
    SW_CHECK_EQ_INT(sw_gltf_load_file(path, NULL, &a, &d), SW_OK);
    if (!a) return;
    SW_CHECK(a->scene_count == 1 && a->scenes[0].node_count == 0 && a->default_scene == 0);
    SW_CHECK(a->node_count == 0 && a->mesh_count == 0 && a->animation_count == 0);
    sw_model_free(a);
}

/* Every .gltf/.glb below `dir` (depth-limited) must be in the table. */
static int count_unlisted(const char* dir, const char* relative, int depth) {
    DIR* d = opendir(dir);
    if (!d) return 0;
    int unlisted = 0;
    struct dirent* e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        char path[2048], rel[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        snprintf(rel, sizeof rel, "%s%s%s", relative, *relative ? "/" : "", e->d_name);
        struct stat st;
        if (stat(path, &st) != 0) continue;
        if (S_ISDIR(st.st_mode)) {
            if (depth < 4) unlisted += count_unlisted(path, rel, depth + 1);
            continue;
        }
        size_t n = strlen(e->d_name);
        bool gltf =
            (n > 5 && strcmp(e->d_name + n - 5, ".gltf") == 0) || (n > 4 && strcmp(e->d_name + n - 4, ".glb") == 0);
        if (!gltf) continue;
        bool listed = false;
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) listed = listed || strcmp(cases[i].path, rel) == 0;
        if (!listed) {
            fprintf(stderr, "  %s has no expected result in test_invalid.c\n", rel);
            unlisted++;
        }
    }
    closedir(d);
    return unlisted;
}

static void test_every_file_listed(void) {
    if (!invalid_dir()) SW_SKIP("SINEW_ASSETS is not set: the invalid-file tests need it");
    SW_CHECK_EQ_INT(count_unlisted(invalid_dir(), "", 0), 0);
}

/* Valid glTF that needs an extension we do not implement (as the Khronos
   2CylinderEngine sample does): refused up front, naming the extension. */
static void test_draco_required(void) {
    const char* json =
        "{\"asset\":{\"version\":\"2.0\"},"
        "\"extensionsUsed\":[\"KHR_draco_mesh_compression\"],"
        "\"extensionsRequired\":[\"KHR_draco_mesh_compression\"],"
        "\"accessors\":[{\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"}],"
        "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0},\"extensions\":{\"KHR_draco_mesh_compression\":"
        "{\"bufferView\":0,\"attributes\":{\"POSITION\":0}}}}]}]}";
    sw_model* a = NULL;
    sw_diag d;
    SW_CHECK_EQ_INT(sw_gltf_load_memory(json, strlen(json), "engine.gltf", NULL, NULL, &a, &d), SW_ERR_UNSUPPORTED);
    SW_CHECK(a == NULL);
    SW_CHECK(strstr(d.message, "engine.gltf: extensionsRequired[0]: the file requires KHR_draco_mesh_compression"));
}

int main(void) {
    SW_RUN(test_invalid_files);
    SW_RUN(test_scene_without_nodes);
    SW_RUN(test_every_file_listed);
    SW_RUN(test_draco_required);
    return sw_test_finish();
}
