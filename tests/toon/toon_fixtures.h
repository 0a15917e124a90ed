/* Small GLB files for the toon reader tests, built in memory with cJSON:
   one triangle drawn with material 0, a few textures without images, three
   nodes stored children first (so file and model node order differ), and
   the materials and root extensions a test asks for. */
#ifndef SINEW_TEST_TOON_FIXTURES_H
#define SINEW_TEST_TOON_FIXTURES_H

#include <stddef.h>
#include <stdint.h>

typedef struct sw_toon_fixture_material {
    const char* name;            /* NULL: no name */
    const char* extension_name;  /* NULL: no material extension */
    const char* extension_json;  /* its value, JSON text */
} sw_toon_fixture_material;

typedef struct sw_toon_fixture {
    int texture_count;
    int material_count;
    const sw_toon_fixture_material* materials;
    const char* root_extensions_json; /* the root "extensions" object as JSON text, or NULL */
    const char* extensions_used;      /* comma-separated names, or NULL */
} sw_toon_fixture;

/* File node indices: 0 "head" (child of 2), 1 "mesh" (child of 2), 2 "root". */
#define SW_TOON_FIXTURE_HEAD_NODE 0

/* The GLB bytes (malloc'd; free()), or NULL when a JSON text does not parse. */
uint8_t* sw_toon_fixture_glb(const sw_toon_fixture* fixture, size_t* out_size);

/* Writes bytes to path; 0 on success. */
int sw_toon_fixture_write(const char* path, const uint8_t* bytes, size_t size);

#endif
