/* VRM 0.x expression names on a big file: 50,000 groups, some names
   repeated, some presets repeated. The expressions kept and the warnings
   (which, in which order) are compared with a list worked out here by
   scanning every earlier name. No timings. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "sinew/gltf.h"
#include "sinew/vrm.h"

enum { GROUPS = 50000 };

/* Group i's name is e<number>: an earlier group's number when i % 97 == 3,
   else i; every 5,000th group is the preset "joy" (the later ones are
   repeats too). */
static size_t group_number(size_t i) { return i % 97 == 3 ? (i * 31) % i : i; }

static void test_many_expression_names(void) {
    size_t cap = 200 + (size_t)GROUPS * 64, at = 0;
    char* text = malloc(cap);
    char(*names)[24] = malloc(GROUPS * sizeof *names);
    bool* number_taken = calloc(GROUPS, sizeof *number_taken);
    if (!text || !names || !number_taken) abort();
    at += (size_t)snprintf(text + at, cap - at,
                           "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],\"nodes\":[{}],"
                           "\"extensionsUsed\":[\"VRM\"],\"extensions\":{\"VRM\":{\"specVersion\":\"0.0\",\"humanoid\":"
                           "{\"humanBones\":[]},\"blendShapeMaster\":{\"blendShapeGroups\":[");
    for (size_t i = 0; i < GROUPS; i++) {
        snprintf(names[i], sizeof names[i], "e%zu", group_number(i));
        at += (size_t)snprintf(text + at, cap - at, "%s{\"name\":\"%s\",\"presetName\":\"%s\"}", i ? "," : "",
                               names[i], i % 5000 == 7 ? "joy" : "unknown");
    }
    at += (size_t)snprintf(text + at, cap - at, "]}}}}");
    sw_model* model = NULL;
    sw_diag diag = {0};
    SW_CHECK(sw_gltf_load_memory(text, at, "names.gltf", NULL, NULL, &model, &diag) == SW_OK);
    sw_vrm* vrm = NULL;
    SW_CHECK(model && sw_vrm_read(model, &vrm, &diag) == SW_OK && vrm);
    if (!vrm) {
        fprintf(stderr, "  %s\n", diag.message);
        sw_model_free(model);
        free(text), free(names), free(number_taken);
        return;
    }
    /* the reference: a group is kept unless its preset is taken or an
       earlier kept expression has its name (a preset's name is the
       preset's: "happy" for joy); names taken are marked by number */
    size_t kept = 0, warning = 0;
    const char** kept_names = malloc(GROUPS * sizeof *kept_names);
    bool joy_taken = false, order_ok = true, names_ok = true;
    char line[200];
    for (size_t i = 0; i < GROUPS; i++) {
        bool joy = i % 5000 == 7;
        const char* name = joy ? "happy" : names[i];
        const char* why = NULL;
        if (joy && joy_taken) {
            why = "the preset happy is given twice; the later one is ignored";
        } else if (!joy && number_taken[group_number(i)]) {
            why = "an expression of this name exists already; ignored";
        }
        if (why) {
            /* the warnings of this read, in file order (humanoid ones come after) */
            snprintf(line, sizeof line, "names.gltf: extensions.VRM.blendShapeMaster.blendShapeGroups[%zu]: %s", i, why);
            while (warning < vrm->warning_count && strstr(vrm->warnings[warning], "blendShapeGroups[") == NULL)
                warning++;
            order_ok &= warning < vrm->warning_count && strcmp(vrm->warnings[warning], line) == 0;
            warning++;
            continue;
        }
        joy_taken |= joy;
        if (!joy) number_taken[group_number(i)] = true;
        kept_names[kept++] = name;
    }
    SW_CHECK(order_ok);
    SW_CHECK_EQ_INT(vrm->expression_count, kept);
    for (size_t k = 0; k < kept && k < vrm->expression_count; k++) names_ok &= strcmp(vrm->expressions[k].name, kept_names[k]) == 0;
    SW_CHECK(names_ok);
    /* no warning about expressions left over */
    size_t expression_warnings = 0;
    for (size_t w = 0; w < vrm->warning_count; w++) expression_warnings += strstr(vrm->warnings[w], "blendShapeGroups[") != NULL;
    SW_CHECK_EQ_INT(expression_warnings, GROUPS - kept);
    SW_CHECK(GROUPS - kept > 500);
    free(kept_names);
    sw_vrm_free(vrm);
    sw_model_free(model);
    free(text), free(names), free(number_taken);
}

int main(void) {
    SW_RUN(test_many_expression_names);
    return sw_test_finish();
}
