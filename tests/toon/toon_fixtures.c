/* The toon reader fixtures (toon_fixtures.h). */
#include "toon/toon_fixtures.h"

#include "test_glb.h"

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static cJSON* int_array(const int* v, int n) {
    cJSON* a = cJSON_CreateArray();
    for (int i = 0; i < n; i++) cJSON_AddItemToArray(a, cJSON_CreateNumber(v[i]));
    return a;
}

uint8_t* sw_toon_fixture_glb(const sw_toon_fixture* f, size_t* out_size) {
    /* Binary chunk: three positions. */
    const float positions[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    cJSON* root = cJSON_CreateObject();
    cJSON* asset = cJSON_AddObjectToObject(root, "asset");
    cJSON_AddStringToObject(asset, "version", "2.0");
    cJSON_AddStringToObject(asset, "generator", "sinew toon test fixture");
    if (f->extensions_used) {
        cJSON* used = cJSON_AddArrayToObject(root, "extensionsUsed");
        char names[256];
        snprintf(names, sizeof names, "%s", f->extensions_used);
        for (char* tok = strtok(names, ","); tok; tok = strtok(NULL, ","))
            cJSON_AddItemToArray(used, cJSON_CreateString(tok));
    }
    cJSON* buffers = cJSON_AddArrayToObject(root, "buffers");
    cJSON* buffer = cJSON_CreateObject();
    cJSON_AddNumberToObject(buffer, "byteLength", sizeof positions);
    cJSON_AddItemToArray(buffers, buffer);
    cJSON* views = cJSON_AddArrayToObject(root, "bufferViews");
    cJSON* view = cJSON_CreateObject();
    cJSON_AddNumberToObject(view, "buffer", 0);
    cJSON_AddNumberToObject(view, "byteLength", sizeof positions);
    cJSON_AddItemToArray(views, view);
    cJSON* accessors = cJSON_AddArrayToObject(root, "accessors");
    cJSON* acc = cJSON_CreateObject();
    cJSON_AddNumberToObject(acc, "bufferView", 0);
    cJSON_AddNumberToObject(acc, "componentType", 5126);
    cJSON_AddNumberToObject(acc, "count", 3);
    cJSON_AddStringToObject(acc, "type", "VEC3");
    const double mn[3] = {0, 0, 0}, mx[3] = {1, 1, 0};
    cJSON_AddItemToObject(acc, "min", cJSON_CreateDoubleArray(mn, 3));
    cJSON_AddItemToObject(acc, "max", cJSON_CreateDoubleArray(mx, 3));
    cJSON_AddItemToArray(accessors, acc);

    cJSON* meshes = cJSON_AddArrayToObject(root, "meshes");
    cJSON* mesh = cJSON_CreateObject();
    cJSON* prims = cJSON_AddArrayToObject(mesh, "primitives");
    cJSON* prim = cJSON_CreateObject();
    cJSON* attrs = cJSON_AddObjectToObject(prim, "attributes");
    cJSON_AddNumberToObject(attrs, "POSITION", 0);
    if (f->material_count > 0) cJSON_AddNumberToObject(prim, "material", 0);
    cJSON_AddItemToArray(prims, prim);
    cJSON_AddItemToArray(meshes, mesh);

    /* Nodes children first: the model stores them parents first. */
    cJSON* nodes = cJSON_AddArrayToObject(root, "nodes");
    cJSON* head = cJSON_CreateObject();
    cJSON_AddStringToObject(head, "name", "head");
    const double t[3] = {0, 1.5, 0};
    cJSON_AddItemToObject(head, "translation", cJSON_CreateDoubleArray(t, 3));
    cJSON_AddItemToArray(nodes, head);
    cJSON* mnode = cJSON_CreateObject();
    cJSON_AddStringToObject(mnode, "name", "mesh");
    cJSON_AddNumberToObject(mnode, "mesh", 0);
    cJSON_AddItemToArray(nodes, mnode);
    cJSON* rnode = cJSON_CreateObject();
    cJSON_AddStringToObject(rnode, "name", "root");
    const int children[2] = {1, 0};
    cJSON_AddItemToObject(rnode, "children", int_array(children, 2));
    cJSON_AddItemToArray(nodes, rnode);
    cJSON* scenes = cJSON_AddArrayToObject(root, "scenes");
    cJSON* scene = cJSON_CreateObject();
    const int roots[1] = {2};
    cJSON_AddItemToObject(scene, "nodes", int_array(roots, 1));
    cJSON_AddItemToArray(scenes, scene);
    cJSON_AddNumberToObject(root, "scene", 0);

    if (f->texture_count > 0) {
        cJSON* textures = cJSON_AddArrayToObject(root, "textures");
        for (int i = 0; i < f->texture_count; i++) cJSON_AddItemToArray(textures, cJSON_CreateObject());
    }
    bool ok = true;
    if (f->material_count > 0) {
        cJSON* materials = cJSON_AddArrayToObject(root, "materials");
        for (int i = 0; i < f->material_count; i++) {
            const sw_toon_fixture_material* m = &f->materials[i];
            cJSON* mat = cJSON_CreateObject();
            if (m->name) cJSON_AddStringToObject(mat, "name", m->name);
            if (m->extension_name) {
                cJSON* value = cJSON_Parse(m->extension_json);
                if (!value) ok = false;
                cJSON* ext = cJSON_AddObjectToObject(mat, "extensions");
                if (value) cJSON_AddItemToObject(ext, m->extension_name, value);
            }
            cJSON_AddItemToArray(materials, mat);
        }
    }
    if (f->root_extensions_json) {
        cJSON* ext = cJSON_Parse(f->root_extensions_json);
        if (!ext) ok = false;
        else cJSON_AddItemToObject(root, "extensions", ext);
    }
    char* json = ok ? cJSON_PrintUnformatted(root) : NULL;
    cJSON_Delete(root);
    if (!json) return NULL;

    uint8_t* out = test_glb_pack(json, positions, sizeof positions, out_size);
    free(json);
    return out;
}

int sw_toon_fixture_write(const char* path, const uint8_t* bytes, size_t size) {
    FILE* file = fopen(path, "wb");
    if (!file) return -1;
    size_t written = fwrite(bytes, 1, size, file);
    int closed = fclose(file);
    return written == size && closed == 0 ? 0 : -1;
}
