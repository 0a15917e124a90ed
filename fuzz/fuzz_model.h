/* What the extension-reader fuzz targets (vrm, toon, bone_map) share: a
   small model loaded once from the glTF below, a copy of it carrying one
   extension record whose JSON text is the fuzz input, and the checks on a
   reader's error. Header-only: each target includes it once.

   The model (file node indices): 0 "face" (a mesh with 3 morph targets,
   material 0; a child of the head, stored before its parents so file and
   model order differ), 1 "hips" … 17 "rightFoot" and 18
   "leftThumbMetacarpal" (VRM 1.0 humanoid names, a plausible skeleton),
   19 "body" (a mesh, material 1), 20 "root"; materials "Skin", "Cloth",
   "Hair", "Face"; 3 textures without images. Node indices 1-17 are
   those of the VRM test avatars (tests/vrm/vrm_fixtures.c). */
#ifndef SINEW_FUZZ_MODEL_H
#define SINEW_FUZZ_MODEL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_check.h"
#include "sinew/gltf.h"

static const char fuzz_base_gltf[] =
    "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[20]}],\"nodes\":[{\"name\":\"face\",\"translation\""
    ":[0,0.05,0.05],\"mesh\":0},{\"name\":\"hips\",\"children\":[2,12,15,19],\"translation\":[0,1,0]},{\"name\":\"spin"
    "e\",\"children\":[3],\"translation\":[0,0.1,0]},{\"name\":\"chest\",\"children\":[4,6,9],\"translation\":[0,0.15,"
    "0]},{\"name\":\"neck\",\"children\":[5],\"translation\":[0,0.2,0]},{\"name\":\"head\",\"children\":[0],\"translatio"
    "n\":[0,0.1,0]},{\"name\":\"leftUpperArm\",\"children\":[7],\"translation\":[0.2,0,0]},{\"name\":\"leftLowerArm\","
    "\"children\":[8],\"translation\":[0.25,0,0]},{\"name\":\"leftHand\",\"children\":[18],\"translation\":[0.25,0,0]"
    "},{\"name\":\"rightUpperArm\",\"children\":[10],\"translation\":[-0.2,0,0]},{\"name\":\"rightLowerArm\",\"childre"
    "n\":[11],\"translation\":[-0.25,0,0]},{\"name\":\"rightHand\",\"translation\":[-0.25,0,0]},{\"name\":\"leftUpper"
    "Leg\",\"children\":[13],\"translation\":[0.1,-0.05,0]},{\"name\":\"leftLowerLeg\",\"children\":[14],\"translatio"
    "n\":[0,-0.4,0]},{\"name\":\"leftFoot\",\"translation\":[0,-0.4,0]},{\"name\":\"rightUpperLeg\",\"children\":[16],"
    "\"translation\":[-0.1,-0.05,0]},{\"name\":\"rightLowerLeg\",\"children\":[17],\"translation\":[0,-0.4,0]},{\"na"
    "me\":\"rightFoot\",\"translation\":[0,-0.4,0]},{\"name\":\"leftThumbMetacarpal\",\"translation\":[0.02,0,0.02]}"
    ",{\"name\":\"body\",\"mesh\":1},{\"name\":\"root\",\"children\":[1]}],\"meshes\":[{\"name\":\"face\",\"primitives\":[{\"a"
    "ttributes\":{\"POSITION\":0},\"material\":0,\"targets\":[{\"POSITION\":1},{\"POSITION\":2},{\"POSITION\":3}]}],\"e"
    "xtras\":{\"targetNames\":[\"A\",\"Blink\",\"Joy\"]}},{\"name\":\"body\",\"primitives\":[{\"attributes\":{\"POSITION\":0"
    "},\"material\":1}]}],\"materials\":[{\"name\":\"Skin\",\"pbrMetallicRoughness\":{\"baseColorFactor\":[0.5,0.5,0."
    "5,1]}},{\"name\":\"Cloth\",\"emissiveFactor\":[0.1,0.1,0.1]},{\"name\":\"Hair\"},{\"name\":\"Face\"}],\"textures\":["
    "{},{},{}],\"buffers\":[{\"byteLength\":144,\"uri\":\"data:application/octet-stream;base64,AAAAAAAAAAAAAAAAz"
    "czMPQAAAAAAAAAAAAAAAM3MzD0AAAAAAAAAAAAAAAAK1yM8AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
    "ArXIzwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAACtcjPAAAAAAAAAAA\"}],\"bufferViews\":[{\"buff"
    "er\":0,\"byteOffset\":0,\"byteLength\":36},{\"buffer\":0,\"byteOffset\":36,\"byteLength\":36},{\"buffer\":0,\"byte"
    "Offset\":72,\"byteLength\":36},{\"buffer\":0,\"byteOffset\":108,\"byteLength\":36}],\"accessors\":[{\"bufferView"
    "\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\",\"min\":[0,0,0],\"max\":[0.1,0.1,0]},{\"bufferView\":1,\"c"
    "omponentType\":5126,\"count\":3,\"type\":\"VEC3\",\"min\":[0,0,0],\"max\":[0.01,0.01,0.01]},{\"bufferView\":2,\"co"
    "mponentType\":5126,\"count\":3,\"type\":\"VEC3\",\"min\":[0,0,0],\"max\":[0.01,0.01,0.01]},{\"bufferView\":3,\"com"
    "ponentType\":5126,\"count\":3,\"type\":\"VEC3\",\"min\":[0,0,0],\"max\":[0.01,0.01,0.01]}]}";

/* The model above, loaded on first use and kept for the process's life
   (libFuzzer's leak check ignores what is still reachable). */
static inline const sw_model* fuzz_base_model(void) {
    static sw_model* model;
    if (!model) {
        sw_diag diag;
        if (sw_gltf_load_memory(fuzz_base_gltf, sizeof fuzz_base_gltf - 1, "fuzz.vrm", NULL, NULL, &model, &diag) !=
            SW_OK) {
            fprintf(stderr, "fuzz base model: %s\n", diag.message);
            abort();
        }
    }
    return model;
}

/* The fuzz input as NUL-terminated text in an exact-size heap block (a
   NUL inside ends the text early, as it would in a model's record). */
static inline char* fuzz_text(const uint8_t* data, size_t size) {
    char* text = malloc(size + 1);
    FUZZ_REQUIRE(text);
    if (size) memcpy(text, data, size);
    text[size] = '\0';
    return text;
}

/* A shallow copy of `base` whose only extension record is `record`. */
static inline sw_model fuzz_model_with(const sw_model* base, const sw_model_extension* record) {
    sw_model model = *base;
    model.extension_count = record ? 1 : 0;
    model.extensions = record;
    return model;
}

/* A reader's failure: a known error code, one line of message that starts
   with "<prefix>: " (prefix NULL: any). */
static inline void fuzz_check_error(sw_result r, const sw_diag* diag, const char* prefix) {
    FUZZ_REQUIRE(r > SW_OK && r < SW_RESULT_COUNT);
    FUZZ_REQUIRE(diag->result == r && memchr(diag->message, '\0', sizeof diag->message));
    FUZZ_REQUIRE(diag->message[0] != '\0' && !strchr(diag->message, '\n') && !strchr(diag->message, '\r'));
    if (prefix) {
        size_t n = strlen(prefix);
        if (strncmp(diag->message, prefix, n) != 0 || diag->message[n] != ':')
            fprintf(stderr, "message: [%s]\n", diag->message);
        FUZZ_REQUIRE(strncmp(diag->message, prefix, n) == 0 && diag->message[n] == ':');
    }
}

/* A warning or message line: present, non-empty, one line. */
static inline void fuzz_check_line(const char* line) {
    FUZZ_REQUIRE(line && line[0] != '\0');
    if (strchr(line, '\n') || strchr(line, '\r')) fprintf(stderr, "line: [%s]\n", line);
    FUZZ_REQUIRE(!strchr(line, '\n') && !strchr(line, '\r'));
}

#endif
