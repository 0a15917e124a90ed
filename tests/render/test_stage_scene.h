/* The demo character and the demo stage for the GL tests of the stage's
   air and ground (fog, probes, snow, feedback): both built from their GLB
   bytes (sinew_demo) and read with their materials, once per test program. */
#ifndef SINEW_TEST_STAGE_SCENE_H
#define SINEW_TEST_STAGE_SCENE_H

#include <stdio.h>

#include "sinew/demo.h"
#include "sinew/gltf.h"
#include "sinew/import.h"
#include "sinew/materials.h"

/* Loads her into *demo with her materials, the stage into *stage and, when
   stage_materials is not NULL, its materials (NULL: the renderer's plain
   ones). False after saying why on stderr. */
static inline bool test_stage_scene_load(sw_model** demo, sw_material_set* materials, sw_model** stage,
                                         sw_material_set* stage_materials) {
    uint8_t *glb = NULL, *stage_glb = NULL;
    size_t size = 0, stage_size = 0;
    sw_diag d = {0};
    bool ok = sw_demo_character_glb(&glb, &size, &d) == SW_OK &&
              sw_gltf_load_memory(glb, size, SW_DEMO_CHARACTER_NAME, NULL, NULL, demo, &d) == SW_OK &&
              sw_material_set_read(*demo, materials, &d) == SW_OK &&
              sw_demo_stage_glb(&stage_glb, &stage_size, &d) == SW_OK &&
              sw_gltf_load_memory(stage_glb, stage_size, SW_DEMO_STAGE_NAME, NULL, NULL, stage, &d) == SW_OK &&
              (!stage_materials || sw_material_set_read(*stage, stage_materials, &d) == SW_OK);
    sw_demo_character_glb_free(glb);
    sw_demo_stage_glb_free(stage_glb);
    if (!ok) fprintf(stderr, "load: %s\n", d.message);
    return ok;
}

#endif
