/* The readers' string map (src/base/hash_internal.h): colliding keys,
   growth, duplicates (the first value stays), running out of memory, all
   against a plain array searched from the start (the scan the map
   replaces). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/base/hash_internal.h"
#include "harness.h"
#include "sinew/base.h"

/* The scan the map replaces: the first of keys[0 .. count) equal to key. */
static int64_t scan(char (*keys)[16], size_t count, const char* key) {
    for (size_t i = 0; i < count; i++)
        if (strcmp(keys[i], key) == 0) return (int64_t)i;
    return -1;
}

static void test_empty(void) {
    sw__str_map map = {0};
    uint32_t v = 7;
    SW_CHECK(!sw__str_map_get(&map, "x", &v));
    SW_CHECK(v == 7);
    SW_CHECK(!sw__str_map_get(&map, "", NULL));
    sw__str_map_free(&map);
    SW_CHECK(map.capacity == 0 && map.count == 0);
    /* the empty string is a key like any other */
    SW_CHECK(sw__str_map_put(&map, "", 3, NULL) == SW__STR_MAP_ADDED);
    SW_CHECK(sw__str_map_get(&map, "", &v) && v == 3);
    sw__str_map_free(&map);
}

/* FNV-1a, computed here from its definition for a known value. */
static void test_hash_value(void) {
    SW_CHECK(sw__hash_string("") == 14695981039346656037ull);
    SW_CHECK(sw__hash_string("a") == 0xaf63dc4c8601ec8cull);
}

/* Keys that all fall in the same slot of a 16-slot table, and keys whose
   probes wrap around the table's end. */
static void test_collisions(void) {
    static char keys[64][16];
    size_t n = 0;
    for (unsigned i = 0; n < 7 && i < 100000; i++) {
        char k[16];
        snprintf(k, sizeof k, "k%u", i);
        if ((sw__hash_string(k) & 15) == 15) strcpy(keys[n++], k); /* the last slot: probes wrap */
    }
    SW_CHECK(n == 7);
    sw__str_map map = {0};
    SW_CHECK(sw__str_map_reserve(&map, 8));
    SW_CHECK(map.capacity == 16);
    for (size_t i = 0; i < n; i++) SW_CHECK(sw__str_map_put(&map, keys[i], (uint32_t)i, NULL) == SW__STR_MAP_ADDED);
    SW_CHECK(map.capacity == 16); /* seven keys fit without growing */
    for (size_t i = 0; i < n; i++) {
        uint32_t v = 99;
        SW_CHECK(sw__str_map_get(&map, keys[i], &v) && v == i);
    }
    /* an absent key with the same slot walks the whole run and stops at the gap */
    for (unsigned i = 100000; i < 200000; i++) {
        char k[16];
        snprintf(k, sizeof k, "k%u", i);
        if ((sw__hash_string(k) & 15) != 15) continue;
        SW_CHECK(!sw__str_map_get(&map, k, NULL));
        break;
    }
    sw__str_map_free(&map);
}

/* Many keys, duplicates among them: the map agrees with the scan after
   every put, through every doubling. */
static void test_growth_and_duplicates(void) {
    enum { N = 5000 };
    static char keys[N][16];
    sw__str_map map = {0};
    size_t grew = 0, last_capacity = 0;
    for (size_t i = 0; i < N; i++) {
        /* every third key repeats an earlier one */
        snprintf(keys[i], sizeof keys[i], "n%zu", i % 3 == 2 ? (i * 7919) % i : i);
        int64_t first = scan(keys, i, keys[i]);
        uint32_t existing = UINT32_MAX;
        sw__str_map_put_result r = sw__str_map_put(&map, keys[i], (uint32_t)i, &existing);
        if (first >= 0) {
            SW_CHECK(r == SW__STR_MAP_PRESENT);
            SW_CHECK(existing == (uint32_t)first);
        } else {
            SW_CHECK(r == SW__STR_MAP_ADDED);
            SW_CHECK(existing == UINT32_MAX);
        }
        if (map.capacity != last_capacity) grew++, last_capacity = map.capacity;
        SW_CHECK(map.count * 2 <= map.capacity);
    }
    SW_CHECK(grew >= 8);
    size_t distinct = 0;
    for (size_t i = 0; i < N; i++) {
        uint32_t v = UINT32_MAX;
        SW_CHECK(sw__str_map_get(&map, keys[i], &v));
        SW_CHECK(v == (uint32_t)scan(keys, N, keys[i]));
        distinct += v == i;
    }
    SW_CHECK(map.count == distinct);
    SW_CHECK(!sw__str_map_get(&map, "n5000", NULL));
    sw__str_map_free(&map);
}

/* An allocator that refuses from the n-th request on. */
static int refuse_from, requests;
static void* counting_allocate(void* user, size_t size) {
    (void)user;
    return ++requests >= refuse_from ? NULL : malloc(size);
}
static void* counting_reallocate(void* user, void* p, size_t size) {
    (void)user;
    return ++requests >= refuse_from ? NULL : realloc(p, size);
}
static void counting_deallocate(void* user, void* p) {
    (void)user;
    free(p);
}

/* Growing fails: nothing changes, every key put so far still there. */
static void test_out_of_memory(void) {
    static char keys[40][16];
    for (int refuse = 1; refuse < 12; refuse++) {
        sw_allocator a = {counting_allocate, counting_reallocate, counting_deallocate, NULL};
        requests = 0, refuse_from = refuse;
        sw_set_allocator(&a);
        sw__str_map map = {0};
        size_t kept = 0;
        bool refused = false;
        for (size_t i = 0; i < 40; i++) {
            snprintf(keys[i], sizeof keys[i], "m%zu", i);
            sw__str_map_put_result r = sw__str_map_put(&map, keys[i], (uint32_t)i, NULL);
            if (r == SW__STR_MAP_NO_MEMORY) {
                refused = true;
                SW_CHECK(!sw__str_map_get(&map, keys[i], NULL));
                break;
            }
            SW_CHECK(r == SW__STR_MAP_ADDED);
            kept++;
        }
        SW_CHECK(refused);
        SW_CHECK(map.count == kept);
        for (size_t i = 0; i < kept; i++) {
            uint32_t v = 99;
            SW_CHECK(sw__str_map_get(&map, keys[i], &v) && v == i);
        }
        sw__str_map_free(&map);
        sw_set_allocator(NULL);
    }
}

int main(void) {
    SW_RUN(test_empty);
    SW_RUN(test_hash_value);
    SW_RUN(test_collisions);
    SW_RUN(test_growth_and_duplicates);
    SW_RUN(test_out_of_memory);
    return sw_test_finish();
}
