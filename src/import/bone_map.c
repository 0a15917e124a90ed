/* The bone map reader (sw_bone_map_read, sinew/retarget.h): JSON
   {"hips": "Bip01_Pelvis", "leftUpperArm": null, ...} into plain data the
   core applies (sw_humanoid_map_from_names). The map is one block: the
   struct, its entries, then the node names. */
#include "sinew/retarget.h"

#include "../base/base_internal.h"
#include "json_internal.h"

#include <string.h>

static int sw__ascii_lower(int c) { return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c; }

/* A humanoid bone name, VRM 1.0 spelling, ASCII case-insensitive. */
static bool sw__bone_of_name(const char* name, sw_humanoid_bone* out) {
    if (sw_humanoid_bone_from_name(name, out)) return true;
    for (int b = 0; b < SW_HUMANOID_BONE_COUNT; ++b) {
        const char* a = sw_humanoid_bone_name((sw_humanoid_bone)b);
        const char* s = name;
        while (*a && *s && sw__ascii_lower((unsigned char)*a) == sw__ascii_lower((unsigned char)*s)) a++, s++;
        if (!*a && !*s) {
            *out = (sw_humanoid_bone)b;
            return true;
        }
    }
    return false;
}

/* Checks every member (the first bad one is the error) and adds up the
   bytes of the names to keep. */
static sw_result sw__check_members(sw__json* J, const cJSON* root, size_t* name_bytes) {
    *name_bytes = 0;
    for (sw__json_each it = sw__json_each_of(J, root); sw__json_next(J, &it);) {
        sw_humanoid_bone bone;
        const char* node = sw__json_text(it.value);
        sw__json_pop(J, it.mark); /* the messages name the key in their text */
        if (!sw__bone_of_name(it.key, &bone))
            return sw__json_fail(J, NULL,
                                 "bone map: \"%.64s\" is not a VRM humanoid bone name (hips, spine, leftUpperArm, ...)",
                                 it.key);
        if (node) *name_bytes += strlen(node) + 1;
        else if (!sw__json_is_null(it.value))
            return sw__json_fail(J, NULL, "bone map: the value of \"%.64s\" is not a node name or null", it.key);
    }
    return SW_OK;
}

sw_result sw_bone_map_read(const char* json, size_t size, const char* name, sw_bone_map** out, sw_diag* diag) {
    if (out) *out = NULL;
    if ((!json && size) || !out)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "bone map: text and an output are needed");
    sw__json J;
    sw__json_begin(&J, name, "bone map", diag, NULL);
    /* The parser wants NUL-terminated text; a NUL inside is not JSON. */
    const char* nul = size ? memchr(json, '\0', size) : NULL;
    char* text = sw__malloc(size + 1);
    if (!text) return sw__json_out_of_memory(&J);
    if (size) memcpy(text, json, size);
    text[size] = '\0';
    size_t at = 0;
    cJSON* root = nul ? NULL : sw__json_parse(&J, text, &at);
    sw__free(text);
    if (!root && J.oom) return sw__json_out_of_memory(&J);
    if (!root) {
        J.error_index = (int64_t)(nul ? (size_t)(nul - json) : at);
        return sw__json_fail(&J, NULL, "bone map is not valid JSON (near byte %zu)", (size_t)J.error_index);
    }
    sw_result r = SW_OK;
    size_t name_bytes = 0, count = sw__json_count(root);
    if (!sw__json_is_object(root))
        r = sw__json_fail(&J, NULL, "bone map is not a JSON object of humanoid bone names to node names");
    else
        r = sw__check_members(&J, root, &name_bytes);
    /* One block: the map, its entries, then the names. */
    sw_bone_map* map = NULL;
    if (r == SW_OK) {
        size_t head = sizeof(sw_bone_map) + count * sizeof(sw_bone_map_entry);
        map = sw__malloc(head + name_bytes);
        if (!map) r = sw__json_out_of_memory(&J);
    }
    if (r == SW_OK) {
        sw_bone_map_entry* entries = (sw_bone_map_entry*)(map + 1);
        char* names = (char*)(entries + count);
        size_t i = 0;
        for (sw__json_each it = sw__json_each_of(&J, root); sw__json_next(&J, &it); i++) {
            const char* node = sw__json_text(it.value);
            sw__bone_of_name(it.key, &entries[i].bone);
            entries[i].node = NULL;
            if (node) {
                size_t length = strlen(node) + 1;
                memcpy(names, node, length);
                entries[i].node = names;
                names += length;
            }
        }
        map->entry_count = count;
        map->entries = entries;
        *out = map;
    }
    sw__json_delete(root);
    return r;
}

void sw_bone_map_free(sw_bone_map* map) { sw__free(map); }
