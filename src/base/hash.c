/* The string map of hash_internal.h. */
#include "hash_internal.h"

#include "base_internal.h"

#include <string.h>

uint64_t sw__hash_string(const char* s) {
    uint64_t h = 14695981039346656037ull;
    for (const unsigned char* p = (const unsigned char*)s; *p; p++) {
        h ^= *p;
        h *= 1099511628211ull;
    }
    return h;
}

/* The slot holding key, or the empty slot where it would go. */
static size_t sw__slot(const sw__str_map* map, const char* key, uint64_t hash) {
    size_t mask = map->capacity - 1;
    for (size_t i = (size_t)hash & mask;; i = (i + 1) & mask)
        if (!map->keys[i] || (map->hashes[i] == hash && strcmp(map->keys[i], key) == 0)) return i;
}

/* A table of `capacity` slots (a power of two) holding map's keys. */
static bool sw__rehash(sw__str_map* map, size_t capacity) {
    sw__str_map next = {0};
    next.keys = sw__calloc(capacity, sizeof *next.keys);
    next.values = sw__calloc(capacity, sizeof *next.values);
    next.hashes = sw__calloc(capacity, sizeof *next.hashes);
    next.capacity = capacity;
    if (!next.keys || !next.values || !next.hashes) {
        sw__str_map_free(&next);
        return false;
    }
    for (size_t i = 0; i < map->capacity; i++) {
        if (!map->keys[i]) continue;
        size_t s = sw__slot(&next, map->keys[i], map->hashes[i]);
        next.keys[s] = map->keys[i];
        next.values[s] = map->values[i];
        next.hashes[s] = map->hashes[i];
    }
    next.count = map->count;
    sw__str_map_free(map);
    *map = next;
    return true;
}

bool sw__str_map_reserve(sw__str_map* map, size_t count) {
    /* at most half full: probes stay short */
    size_t capacity = map->capacity ? map->capacity : 16;
    while (capacity / 2 < count) {
        if (capacity > SIZE_MAX / 4) return false;
        capacity *= 2;
    }
    return capacity == map->capacity || sw__rehash(map, capacity);
}

sw__str_map_put_result sw__str_map_put(sw__str_map* map, const char* key, uint32_t value, uint32_t* out_existing) {
    uint64_t hash = sw__hash_string(key);
    if (map->capacity) {
        size_t s = sw__slot(map, key, hash);
        if (map->keys[s]) {
            if (out_existing) *out_existing = map->values[s];
            return SW__STR_MAP_PRESENT;
        }
    }
    if (!sw__str_map_reserve(map, map->count + 1)) return SW__STR_MAP_NO_MEMORY;
    size_t s = sw__slot(map, key, hash);
    map->keys[s] = key;
    map->values[s] = value;
    map->hashes[s] = hash;
    map->count++;
    return SW__STR_MAP_ADDED;
}

bool sw__str_map_get(const sw__str_map* map, const char* key, uint32_t* out) {
    if (!map->capacity) return false;
    size_t s = sw__slot(map, key, sw__hash_string(key));
    if (!map->keys[s]) return false;
    if (out) *out = map->values[s];
    return true;
}

void sw__str_map_free(sw__str_map* map) {
    sw__free(map->keys);
    sw__free(map->values);
    sw__free(map->hashes);
    memset(map, 0, sizeof *map);
}
