/* Fuzz target: the bone map (sw_bone_map_read) and the name matching it
   feeds (sw_humanoid_map_from_names, and the guess from names and
   hierarchy, sw_humanoid_map_guess, with the name helpers). The input is the map's JSON text,
   read as bytes (no NUL needed). A map that reads is applied, and the
   table search run, on three models:
   - the fixed humanoid of fuzz_model.h (VRM names);
   - a model made here whose node names are the map's own node names, in
     a chain, every other one a skin joint, so names the fuzzer writes
     meet the tables and the prefix, case and joint-first rules;
   - the same model with each name prefixed "mixamorig:" or "Armature|".
   Every humanoid node must be -1 or in range, the counts must agree with
   the map and the model, and a failure must be one line naming the map. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_model.h"
#include "sinew/retarget.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

static void check_names(const sw_model* model, const sw_bone_map* map) {
    for (int with_map = 0; with_map < 2; with_map++) {
        sw_humanoid_map out;
        sw_humanoid_naming naming;
        sw_diag diag;
        sw_result r = sw_humanoid_map_from_names(model, with_map ? map : NULL, &out, &naming, &diag);
        FUZZ_REQUIRE(r == SW_OK); /* every entry the reader returns names a humanoid bone */
        uint32_t mapped = 0;
        for (int b = 0; b < SW_HUMANOID_BONE_COUNT; b++) {
            FUZZ_REQUIRE(out.node[b] >= -1 && out.node[b] < (int64_t)model->node_count);
            mapped += out.node[b] >= 0;
            for (int o = 0; o < b && out.node[b] >= 0; o++) FUZZ_REQUIRE(out.node[o] != out.node[b]); /* one bone a node */
        }
        FUZZ_REQUIRE(naming.mapped == mapped);
        FUZZ_REQUIRE((unsigned)naming.table < SW_BONE_NAMING_COUNT);
        FUZZ_REQUIRE(naming.table_bones <= SW_HUMANOID_BONE_COUNT);
        FUZZ_REQUIRE((naming.table == SW_BONE_NAMING_NONE) == (naming.table_bones == 0));
        FUZZ_REQUIRE(sw_bone_naming_name(naming.table) != NULL);
        size_t entries = with_map ? map->entry_count : 0;
        FUZZ_REQUIRE(naming.user_bones + naming.user_missing == entries); /* each entry counts once */
        if (!with_map) FUZZ_REQUIRE(naming.mapped == naming.table_bones && naming.user_bones == 0);

        /* The guess from names and hierarchy over the same model: nodes in
           range, one bone a node, the report agreeing with the map. */
        sw_humanoid_guess guess;
        r = sw_humanoid_map_guess(model, with_map ? map : NULL, &out, &guess, &diag);
        FUZZ_REQUIRE(r == SW_OK || r == SW_ERR_OUT_OF_MEMORY);
        if (r != SW_OK) continue;
        mapped = 0;
        for (int b = 0; b < SW_HUMANOID_BONE_COUNT; b++) {
            FUZZ_REQUIRE(out.node[b] >= -1 && out.node[b] < (int64_t)model->node_count);
            FUZZ_REQUIRE((out.node[b] >= 0) == (guess.how[b] != SW_HUMANOID_MATCH_NONE));
            FUZZ_REQUIRE(sw_humanoid_match_name(guess.how[b]) != NULL);
            mapped += out.node[b] >= 0;
            for (int o = 0; o < b && out.node[b] >= 0; o++) FUZZ_REQUIRE(out.node[o] != out.node[b]);
        }
        FUZZ_REQUIRE(guess.mapped == mapped && guess.required_missing <= 15);
        for (size_t i = 0; i < model->node_count; i++) { /* the name helpers on every name, short buffers too */
            char key[8];
            int side = -1;
            if (!model->nodes[i].name) continue;
            size_t n = sw_bone_name_key(model->nodes[i].name, key, sizeof key, &side);
            FUZZ_REQUIRE(strlen(key) < sizeof key && strlen(key) <= n && side >= 0 && side <= 2);
            sw_humanoid_bone g = sw_bone_name_guess(model->nodes[i].name);
            FUZZ_REQUIRE(g == SW_HUMANOID_NONE || (g >= 0 && g < SW_HUMANOID_BONE_COUNT));
        }
    }
}

/* A model of `count` nodes named names[i] (NULL names skipped by the
   caller), node i the child of node i - 1, joints at even indices. */
static void check_made_model(const sw_bone_map* map, const char* const* names, size_t count) {
    if (!count) return;
    sw_model_node* nodes = calloc(count, sizeof *nodes);
    uint32_t* joints = calloc(count, sizeof *joints);
    uint32_t* children = calloc(count, sizeof *children);
    FUZZ_REQUIRE(nodes && joints && children);
    size_t joint_count = 0;
    for (size_t i = 0; i < count; i++) {
        nodes[i].name = names[i];
        nodes[i].parent = (int32_t)i - 1;
        nodes[i].mesh = nodes[i].skin = nodes[i].camera = -1;
        nodes[i].source_index = (uint32_t)i;
        if (i + 1 < count) {
            children[i] = (uint32_t)i + 1;
            nodes[i].child_count = 1;
            nodes[i].children = &children[i];
        }
        if (i % 2 == 0) joints[joint_count++] = (uint32_t)i;
    }
    sw_model_skin skin = {.name = "skin", .joint_count = joint_count, .joints = joints, .skeleton = -1};
    sw_model model = {.path = "made", .node_count = count, .nodes = nodes, .node_from_source = children,
                      .skin_count = 1, .skins = &skin, .skin_joint_count = joint_count, .default_scene = -1};
    check_names(&model, map);
    free(nodes), free(joints), free(children);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    sw_bone_map* map = (sw_bone_map*)1;
    sw_diag diag;
    /* an exact-size copy without a NUL: the reader must not look past size */
    char* json = malloc(size ? size : 1);
    FUZZ_REQUIRE(json);
    if (size) memcpy(json, data, size);
    sw_result r = sw_bone_map_read(json, size, "map.json", &map, &diag);
    free(json);
    if (r != SW_OK) {
        FUZZ_REQUIRE(!map);
        fuzz_check_error(r, &diag, "map.json");
        FUZZ_REQUIRE(r != SW_ERR_INVALID_DATA || diag.index >= -1);
        return 0;
    }
    FUZZ_REQUIRE(map && (!map->entry_count || map->entries));
    size_t names = 0;
    for (size_t i = 0; i < map->entry_count; i++) {
        FUZZ_REQUIRE((unsigned)map->entries[i].bone < SW_HUMANOID_BONE_COUNT);
        FUZZ_REQUIRE(sw_humanoid_bone_name(map->entries[i].bone));
        fuzz_check_string(map->entries[i].node);
        names += map->entries[i].node != NULL;
    }
    check_names(fuzz_base_model(), map);

    /* the map's node names as a model's, plain and prefixed (at most 256) */
    if (names > 256) names = 256;
    const char** plain = calloc(names + 1, sizeof *plain);
    char** prefixed = calloc(names + 1, sizeof *prefixed);
    FUZZ_REQUIRE(plain && prefixed);
    size_t n = 0;
    for (size_t i = 0; i < map->entry_count && n < names; i++) {
        const char* node = map->entries[i].node;
        if (!node) continue;
        const char* prefix = n % 2 ? "Armature|" : "mixamorig:";
        size_t length = strlen(prefix) + strlen(node) + 1;
        prefixed[n] = malloc(length);
        FUZZ_REQUIRE(prefixed[n]);
        snprintf(prefixed[n], length, "%s%s", prefix, node);
        plain[n++] = node;
    }
    check_made_model(map, plain, n);
    check_made_model(map, (const char* const*)prefixed, n);
    for (size_t i = 0; i < n; i++) free(prefixed[i]);
    free(prefixed);
    free(plain);
    sw_bone_map_free(map);
    return 0;
}
