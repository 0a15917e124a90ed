/* hash_internal.h — a string map for the readers' name checks: open
   addressing with linear probing over sw__malloc, so that "is this name
   taken?" costs O(1) expected instead of a scan of every earlier name.
   Not a public header.

   Keys are borrowed C strings (the caller keeps them alive while the map
   is used); each maps to a uint32_t value. The first value put for a key
   stays: a later put of the same key reports the one already there, as
   the linear scans it replaces found the first match. The table doubles
   when it would be more than half full. */
#ifndef SINEW_HASH_INTERNAL_H
#define SINEW_HASH_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct sw__str_map {
    const char** keys; /* capacity slots; NULL: empty */
    uint32_t* values;
    uint64_t* hashes;  /* each key's sw__hash_string, so growth and probes rarely compare strings */
    size_t capacity;   /* 0 or a power of two */
    size_t count;
} sw__str_map;

typedef enum sw__str_map_put_result {
    SW__STR_MAP_ADDED,   /* the key was new; it now maps to the value */
    SW__STR_MAP_PRESENT, /* the key was there already; nothing changed */
    SW__STR_MAP_NO_MEMORY /* growing failed; nothing changed */
} sw__str_map_put_result;

/* FNV-1a over the bytes of s (64 bits): the table's hash, exposed so that
   tests can make keys that collide. */
uint64_t sw__hash_string(const char* s);

/* Room for `count` keys in all without growing; false when out of memory
   (the map unchanged). */
bool sw__str_map_reserve(sw__str_map* map, size_t count);

/* key → value, unless key is there: then *out_existing (when not NULL)
   gets the value it has. */
sw__str_map_put_result sw__str_map_put(sw__str_map* map, const char* key, uint32_t value, uint32_t* out_existing);

/* The value of key into *out (when not NULL); false when key is absent. */
bool sw__str_map_get(const sw__str_map* map, const char* key, uint32_t* out);

/* Frees the table (the keys are the caller's) and leaves an empty map. */
void sw__str_map_free(sw__str_map* map);

#endif
