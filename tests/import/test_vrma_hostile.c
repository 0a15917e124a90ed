/* Hostile VRM animation files found by fuzz/fuzz_vrma.c, each reduced to
   a document written here, with what sinew must do instead of what it
   did:
     - a hips translation whose keys are finite but leave the float range
       once scaled to the character's hips height (3e38 × 2): the
       retarget fails with SW_ERR_INVALID_DATA and one line that names the
       file (it named only the track);
     - a humanoid bone named twice in humanBones (a JSON key given twice)
       with two nodes: the second one was mapped too, counted twice, and
       the bone's track could be the other node's: now the first is used
       and the second is a warning. */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "sinew/gltf.h"
#include "sinew/retarget.h"
#include "sinew/vrma.h"

/* hips (node 1) 1 m above its parent; one LINEAR clip moving it from
   (0, 1, 0) to (3e38, 3e38, 3e38) in 1 s. */
static const char huge_hips_vrma[] =
    "{\"asset\":{\"version\":\"2.0\"},\"extensionsUsed\":[\"VRMC_vrm_animation\"],"
    "\"extensions\":{\"VRMC_vrm_animation\":{\"specVersion\":\"1.0\",\"humanoid\":{\"humanBones\":{"
    "\"hips\":{\"node\":1}}}}},"
    "\"scene\":0,\"scenes\":[{\"nodes\":[0]}],"
    "\"nodes\":[{\"name\":\"root\",\"children\":[1]},{\"name\":\"hips\",\"translation\":[0,1,0]}],"
    "\"buffers\":[{\"byteLength\":32,\"uri\":\"data:application/octet-stream;base64,"
    "AAAAAAAAgD8AAAAAAACAPwAAAADmsWF/5rFhf+axYX8=\"}],"
    "\"bufferViews\":[{\"buffer\":0,\"byteLength\":8},{\"buffer\":0,\"byteOffset\":8,\"byteLength\":24}],"
    "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\",\"min\":[0],"
    "\"max\":[1]},{\"bufferView\":1,\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"}],"
    "\"animations\":[{\"samplers\":[{\"input\":0,\"output\":1}],"
    "\"channels\":[{\"sampler\":0,\"target\":{\"node\":1,\"path\":\"translation\"}}]}]}";

/* The character: hips 2 m above the origin. */
static const char character_gltf[] =
    "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],"
    "\"nodes\":[{\"name\":\"hips\",\"translation\":[0,2,0]}]}";

static void test_retarget_past_float_range(void) {
    sw_model *anim = NULL, *character = NULL;
    sw_diag d = {0};
    SW_CHECK_EQ_INT(sw_gltf_load_memory(huge_hips_vrma, sizeof huge_hips_vrma - 1, "huge.vrma", NULL, NULL, &anim, &d),
                    SW_OK);
    SW_CHECK_EQ_INT(
        sw_gltf_load_memory(character_gltf, sizeof character_gltf - 1, "character.gltf", NULL, NULL, &character, &d),
        SW_OK);
    sw_vrma* v = NULL;
    if (anim && character && sw_vrma_read(anim, 0, &v, &d) == SW_OK && v) {
        SW_CHECK_EQ_INT(v->hips_translation_track, 0);
        sw_humanoid_map map;
        sw_humanoid_map_clear(&map);
        map.node[SW_HUMANOID_HIPS] = 0;
        sw_clip* clip = (sw_clip*)&map; /* must come back NULL */
        sw_result r = sw_vrma_retarget(v, character, &map, &clip, NULL, &d);
        SW_CHECK_EQ_INT(r, SW_ERR_INVALID_DATA);
        SW_CHECK(clip == NULL);
        SW_CHECK(d.result == r && strncmp(d.message, "huge.vrma: ", 11) == 0 && !strchr(d.message, '\n'));
        if (strncmp(d.message, "huge.vrma: ", 11) != 0) fprintf(stderr, "  message: %s\n", d.message);
        sw_clip_free(clip);
    } else {
        fprintf(stderr, "  %s\n", d.message);
        SW_CHECK(false);
    }
    sw_vrma_free(v);
    sw_model_free(anim);
    sw_model_free(character);
}

/* hips on node 1, then "spine" twice: nodes 2 and 3, each with a rotation track. */
static const char twice_vrma[] =
    "{\"asset\":{\"version\":\"2.0\"},\"extensionsUsed\":[\"VRMC_vrm_animation\"],"
    "\"extensions\":{\"VRMC_vrm_animation\":{\"specVersion\":\"1.0\",\"humanoid\":{\"humanBones\":{"
    "\"hips\":{\"node\":1},\"spine\":{\"node\":2},\"spine\":{\"node\":3}}}}},"
    "\"scene\":0,\"scenes\":[{\"nodes\":[0]}],"
    "\"nodes\":[{\"name\":\"root\",\"children\":[1]},{\"name\":\"hips\",\"translation\":[0,1,0],"
    "\"children\":[2]},{\"name\":\"a\",\"children\":[3]},{\"name\":\"b\"}],"
    "\"buffers\":[{\"byteLength\":40,\"uri\":\"data:application/octet-stream;base64,"
    "AAAAAAAAgD8AAAAAAAAAAAAAAAAAAIA/AAAAAAAAAAAAAAAAAACAPw==\"}],"
    "\"bufferViews\":[{\"buffer\":0,\"byteLength\":8},{\"buffer\":0,\"byteOffset\":8,\"byteLength\":32}],"
    "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\",\"min\":[0],"
    "\"max\":[1]},{\"bufferView\":1,\"componentType\":5126,\"count\":2,\"type\":\"VEC4\"}],"
    "\"animations\":[{\"samplers\":[{\"input\":0,\"output\":1}],"
    "\"channels\":[{\"sampler\":0,\"target\":{\"node\":3,\"path\":\"rotation\"}},"
    "{\"sampler\":0,\"target\":{\"node\":2,\"path\":\"rotation\"}}]}]}";

static void test_bone_given_twice(void) {
    sw_model* anim = NULL;
    sw_diag d = {0};
    SW_CHECK_EQ_INT(sw_gltf_load_memory(twice_vrma, sizeof twice_vrma - 1, "twice.vrma", NULL, NULL, &anim, &d), SW_OK);
    sw_vrma* v = NULL;
    if (anim && sw_vrma_read(anim, 0, &v, &d) == SW_OK && v) {
        const int32_t first = (int32_t)anim->node_from_source[2];
        SW_CHECK_EQ_INT(v->humanoid.node[SW_HUMANOID_SPINE], first);
        SW_CHECK_EQ_INT(v->humanoid_mapped, 2);
        /* the spine's track is the one on the first node */
        const int32_t k = v->rotation_track[SW_HUMANOID_SPINE];
        SW_CHECK(k >= 0 && v->clip->tracks[k].target == (uint32_t)first);
        bool warned = false;
        for (size_t i = 0; i < v->warning_count; i++) warned |= strstr(v->warnings[i], "given twice") != NULL;
        SW_CHECK(warned);
    } else {
        fprintf(stderr, "  %s\n", d.message);
        SW_CHECK(false);
    }
    sw_vrma_free(v);
    sw_model_free(anim);
}

int main(void) {
    SW_RUN(test_retarget_past_float_range);
    SW_RUN(test_bone_given_twice);
    return sw_test_finish();
}
