/* The check API (sinew/check.h) on the hand-written files of
   tests/data/check (written by make_check_files.py there), asserted as
   data: codes, severities, counts, paths and measured values.

   Every file is the same rig: nodes 0 root (0,0,0) → 1 mid (0,1,0) → 2 tip
   (0,1,0) relative to mid, node 3 "points" (a POINTS mesh skinned by skin 0
   = joints [root, mid, tip]), inverse bind matrices T(0,0,0), T(0,−1,0),
   T(0,−2,0), so every skin matrix is the identity at rest. Each file then
   changes one thing; the expected numbers are worked out from that in the
   comments, not read from the program. Rz90: (x,y,z) → (−y,x,z).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/check_util.h"

#define C 0.70710678118654752440 /* √½ */

static sw_model* load(const char* file, bool raw) { return check_load(file, raw); }

static void check_consistent(const sw_check_report* r) {
    size_t by[SW_CHECK_SEVERITY_COUNT] = {0};
    for (size_t i = 0; i < r->finding_count; i++) {
        const sw_check_finding* f = &r->findings[i];
        SW_CHECK(strcmp(f->id, sw_check_code_str(f->code)) == 0);
        SW_CHECK(f->severity == sw_check_code_severity(f->code));
        SW_CHECK(f->message[0] && !strchr(f->message, '\n'));
        SW_CHECK(f->example_count <= SW_CHECK_MAX_EXAMPLES);
        by[f->severity]++;
    }
    SW_CHECK_EQ_INT(r->error_count, by[SW_CHECK_ERROR]);
    SW_CHECK_EQ_INT(r->warning_count, by[SW_CHECK_WARNING]);
    SW_CHECK_EQ_INT(r->note_count, by[SW_CHECK_NOTE]);
}

static void test_codes(void) {
    SW_CHECK(strcmp(sw_check_code_str(SW_CHECK_TOO_MANY_INFLUENCES), "too_many_influences") == 0);
    SW_CHECK(strcmp(sw_check_code_str(SW_CHECK_IMAGE_UNREADABLE), "image_unreadable") == 0);
    SW_CHECK(strcmp(sw_check_code_str(SW_CHECK_CODE_COUNT), "unknown") == 0);
    SW_CHECK(sw_check_code_severity(SW_CHECK_JOINT_DUPLICATE) == SW_CHECK_ERROR);
    SW_CHECK(sw_check_code_severity(SW_CHECK_LBS_VOLUME_LOSS) == SW_CHECK_WARNING);
    SW_CHECK(sw_check_code_severity(SW_CHECK_SKIN_UNUSED) == SW_CHECK_NOTE);
    SW_CHECK(strcmp(sw_check_severity_str(SW_CHECK_WARNING), "warning") == 0);
}

/* One vertex per joint, each weight 1 on it; IBMs invert the rest pose. */
static void test_clean(void) {
    sw_check_report* r = check_file("clean.gltf", NULL);
    if (!r) return;
    SW_CHECK_EQ_INT(r->finding_count, 0);
    SW_CHECK_EQ_INT(r->error_count + r->warning_count + r->note_count, 0);
    SW_CHECK_EQ_INT(r->animation_count, 0);
    /* zero options resolved to the documented defaults */
    SW_CHECK_EQ_INT(r->options.max_influences, 4);
    SW_CHECK_NEAR(r->options.retention_threshold, 0.7, 0.0);
    SW_CHECK_NEAR(r->options.sample_rate_hz, 30.0, 0.0);
    SW_CHECK_EQ_INT(r->options.max_samples, 2000);
    sw_check_report_free(r);
}

/* Vertex 0: joints (1, 1, 0, 0), weights (½, ½, 0, 0): joint 1 twice, ½ + ½ = 1.
   Vertex 1 weights root, vertex 2 tip: every joint used, every sum 1. */
static void test_joint_duplicate(void) {
    sw_check_report* r = check_file("joint_duplicate.gltf", NULL);
    if (!r) return;
    check_consistent(r);
    SW_CHECK_EQ_INT(r->finding_count, 1);
    const sw_check_finding* f = only(r, SW_CHECK_JOINT_DUPLICATE);
    if (f) {
        SW_CHECK(f->severity == SW_CHECK_ERROR);
        SW_CHECK_EQ_INT(f->mesh, 0);
        SW_CHECK_EQ_INT(f->primitive, 0);
        SW_CHECK_EQ_INT(f->count, 1);
        SW_CHECK_NEAR(f->value, 1.0, 1e-12);
        SW_CHECK_EQ_INT(f->example_count, 1);
        SW_CHECK_EQ_INT(f->examples[0].vertex, 0);
        SW_CHECK_EQ_INT(f->examples[0].joint, 1);
        SW_CHECK_EQ_INT(f->examples[0].animation, -1);
        SW_CHECK(isnan(f->examples[0].time_s));
    }
    sw_check_report_free(r);
}

/* Vertex 0: weights 1.25 on root, −0.25 on mid (the sum is 1, so it is
   not unnormalised). Besides the error, only the importer's warnings. */
static void test_weight_negative(void) {
    sw_check_report* r = check_file("weight_negative.gltf", NULL);
    if (!r) return;
    check_consistent(r);
    SW_CHECK_EQ_INT(r->error_count, 1);
    SW_CHECK_EQ_INT(r->note_count, 0);
    SW_CHECK_EQ_INT(count_code(r, SW_CHECK_IMPORT), r->warning_count);
    SW_CHECK_EQ_INT(count_code(r, SW_CHECK_WEIGHTS_NOT_NORMALISED), 0);
    const sw_check_finding* f = only(r, SW_CHECK_WEIGHTS_NEGATIVE);
    if (f) {
        SW_CHECK_EQ_INT(f->count, 1);
        SW_CHECK_NEAR(f->value, -0.25, 0.0);
        SW_CHECK_EQ_INT(f->examples[0].vertex, 0);
        SW_CHECK_EQ_INT(f->examples[0].joint, 1);
    }
    sw_check_report_free(r);
}

/* Vertex 0: ½ on root alone (sums to 0.5); vertex 1: all four weights 0;
   vertex 2: 1 on tip. No vertex weights mid (joint 1). The importer warns
   about both vertices (gltf.h: unnormalised weights, all-zero weights). */
static void test_unnormalised(void) {
    sw_check_report* r = check_file("unnormalised.gltf", NULL);
    if (!r) return;
    check_consistent(r);
    SW_CHECK_EQ_INT(r->error_count, 0);
    SW_CHECK_EQ_INT(r->warning_count, 4);
    SW_CHECK_EQ_INT(r->note_count, 1);
    SW_CHECK_EQ_INT(count_code(r, SW_CHECK_IMPORT), 2);
    const sw_check_finding* f = only(r, SW_CHECK_WEIGHTS_NOT_NORMALISED);
    if (f) {
        SW_CHECK(f->severity == SW_CHECK_WARNING);
        SW_CHECK_EQ_INT(f->count, 1);
        SW_CHECK_NEAR(f->value, 0.5, 0.0);
        SW_CHECK_EQ_INT(f->examples[0].vertex, 0);
    }
    if ((f = only(r, SW_CHECK_VERTEX_WITHOUT_WEIGHTS))) {
        SW_CHECK_EQ_INT(f->count, 1);
        SW_CHECK_EQ_INT(f->examples[0].vertex, 1);
    }
    if ((f = only(r, SW_CHECK_JOINT_UNUSED))) {
        SW_CHECK(f->severity == SW_CHECK_NOTE);
        SW_CHECK_EQ_INT(f->skin, 0);
        SW_CHECK_EQ_INT(f->count, 1);
        SW_CHECK_EQ_INT(f->examples[0].joint, 1);
        SW_CHECK(strstr(f->message, "\"mid\"") != NULL);
    }
    sw_check_report_free(r);
}

/* Without the raw influences the (raw) checks see nothing: the importer
   already renormalised vertex 0 and gave vertex 1 weight 1 on joint 0.
   Its two warnings remain, and mid is still unweighted. */
static void test_without_raw_influences(void) {
    sw_model* model = load("unnormalised.gltf", false);
    if (!model) return;
    sw_check_report* r = NULL;
    SW_CHECK(sw_check_model(model, NULL, &r, NULL) == SW_OK && r);
    sw_model_free(model);
    if (!r) return;
    check_consistent(r);
    SW_CHECK_EQ_INT(r->finding_count, 3);
    SW_CHECK_EQ_INT(count_code(r, SW_CHECK_IMPORT), 2);
    const sw_check_finding* f = only(r, SW_CHECK_JOINT_UNUSED);
    if (f) SW_CHECK_EQ_INT(f->examples[0].joint, 1);
    sw_check_report_free(r);
}

/* Tip's IBM is T(0,−2.5,0) against its rest world T(0,2,0): its skin
   matrix is T(0,−0.5,0), 0.5 off. The points span y 0..2 at x = 0.5: a
   box diagonal of 2, so 0.5 / 2 = 0.25. Root and mid agree with the
   identity, which therefore wins as the reference (1 joint off). The
   skinned node is node 3 of the file. */
static void test_ibm_mismatch(void) {
    sw_check_report* r = check_file("ibm_mismatch.gltf", NULL);
    if (!r) return;
    check_consistent(r);
    SW_CHECK_EQ_INT(r->finding_count, 1);
    const sw_check_finding* f = only(r, SW_CHECK_IBM_NOT_REST_POSE);
    if (f) {
        SW_CHECK(f->severity == SW_CHECK_WARNING);
        SW_CHECK_EQ_INT(f->skin, 0);
        SW_CHECK_EQ_INT(f->joint, 2);
        SW_CHECK_EQ_INT(f->node, 3);
        SW_CHECK_EQ_INT(f->count, 1);
        SW_CHECK_NEAR(f->value, 0.25, 1e-6);
        SW_CHECK(strstr(f->message, "against the identity") != NULL);
    }
    sw_check_report_free(r);
}

/* animated.gltf: vertices p0 (0.5,0,0) root 1; p1 (0.5,1,0) root ½ mid ½;
   p2 (−0.5,1,0) root 0.5 mid 0.3 tip 0.2; p3 (0.5,2,0) tip 1. Animation 0
   "bend" turns mid 0 → 90° about Z over 1 s, animation 1 "stretch" scales
   tip (1,1,1) → (2,1,1) over 1 s; sampled at 31 times, 1 s included.

   non_uniform_scale: in stretch at 1 s tip's skin matrix has scale
   (2,1,1): singular values 2, 1, 1, ratio 2; nothing else scales.
   too_many_influences (2 kept): p2 keeps root 0.625, mid 0.375; full −
   kept = −0.125·p2 − 0.075·S_mid·p2 + 0.2·S_tip·p2 (S_root = I).
     rest: every S = I, the weights cancel: 0.
     bend at 1 s: S_mid·p2 = S_tip·p2 = (0,1,0) + Rz90(−0.5,0,0) = (0,0.5,0);
       (0.0625,−0.125,0) + (0,0.0625,0) = (0.0625,−0.0625,0), 0.0625·√2.
     stretch at 1 s: S_mid = I, S_tip·p2 = (0,2,0) + (2·−0.5, −1, 0) = (−1,1,0);
       −0.2·p2 + (−0.2,0.2,0) = (−0.1,0,0): 0.1, the worst.
   lbs_volume_loss (threshold 0.75): p1 and p2 blend I and Rz90 half and
   half in bend at 1 s (tip turns with mid): the smallest singular value of
   ½(I + Rz90) is cos 45° = √½ < 0.75; joints 0 and 1 lead. */
static void test_animated(void) {
    sw_check_report* r = check_file("animated.gltf", &(sw_check_options){.max_influences = 2,
                                                                          .retention_threshold = 0.75});
    if (!r) return;
    check_consistent(r);
    SW_CHECK_EQ_INT(r->finding_count, 3);
    SW_CHECK_EQ_INT(r->warning_count, 3);
    SW_CHECK_EQ_INT(r->animation_count, 2);
    SW_CHECK(r->animation_names[0] && strcmp(r->animation_names[0], "bend") == 0);
    SW_CHECK(r->animation_names[1] && strcmp(r->animation_names[1], "stretch") == 0);
    /* order: the posed measures per primitive, then the skins */
    SW_CHECK(r->finding_count == 3 && r->findings[0].code == SW_CHECK_TOO_MANY_INFLUENCES &&
             r->findings[1].code == SW_CHECK_LBS_VOLUME_LOSS && r->findings[2].code == SW_CHECK_NON_UNIFORM_SCALE);

    const sw_check_finding* f = only(r, SW_CHECK_TOO_MANY_INFLUENCES);
    if (f) {
        SW_CHECK_EQ_INT(f->skin, 0);
        SW_CHECK_EQ_INT(f->count, 1);
        SW_CHECK_NEAR(f->value, 0.1, 1e-6);
        SW_CHECK_EQ_INT(f->examples[0].vertex, 2);
        SW_CHECK_EQ_INT(f->examples[0].animation, 1);
        SW_CHECK_NEAR(f->examples[0].time_s, 1.0, 0.0);
        SW_CHECK(f->poses != NULL);
        if (f->poses) {
            SW_CHECK_NEAR(f->poses[0].value, 0.0, 1e-9);
            SW_CHECK(isnan(f->poses[0].time_s));
            SW_CHECK_NEAR(f->poses[1].value, 0.0625 * sqrt(2.0), 1e-6);
            SW_CHECK_NEAR(f->poses[1].time_s, 1.0, 0.0);
            SW_CHECK_NEAR(f->poses[2].value, 0.1, 1e-6);
            for (int p = 0; p < 3; p++) SW_CHECK_EQ_INT(f->poses[p].count, 1);
        }
    }
    if ((f = only(r, SW_CHECK_LBS_VOLUME_LOSS))) {
        SW_CHECK_EQ_INT(f->count, 2);
        SW_CHECK_NEAR(f->value, C, 1e-6);
        SW_CHECK_EQ_INT(f->example_count, 2);
        int64_t v0 = f->examples[0].vertex, v1 = f->example_count > 1 ? f->examples[1].vertex : -1;
        SW_CHECK((v0 == 1 && v1 == 2) || (v0 == 2 && v1 == 1));
        SW_CHECK_EQ_INT(f->examples[0].joint, 0);
        SW_CHECK_EQ_INT(f->examples[0].other_joint, 1);
        SW_CHECK_EQ_INT(f->examples[0].animation, 0);
        SW_CHECK_NEAR(f->examples[0].time_s, 1.0, 0.0);
        SW_CHECK(strstr(f->message, "90.0 degrees apart") != NULL);
        if (f->poses) {
            SW_CHECK_EQ_INT(f->poses[0].count, 0);
            SW_CHECK_EQ_INT(f->poses[1].count, 2);
            SW_CHECK_EQ_INT(f->poses[2].count, 0);
        }
    }
    if ((f = only(r, SW_CHECK_NON_UNIFORM_SCALE))) {
        SW_CHECK_EQ_INT(f->skin, 0);
        SW_CHECK_EQ_INT(f->joint, 2);
        SW_CHECK_EQ_INT(f->count, 1);
        SW_CHECK_NEAR(f->value, 2.0, 1e-6);
        SW_CHECK_EQ_INT(f->examples[0].animation, 1);
        SW_CHECK_NEAR(f->examples[0].time_s, 1.0, 0.0);
        if (f->poses) {
            SW_CHECK_EQ_INT(f->poses[0].count, 0);
            SW_CHECK_EQ_INT(f->poses[1].count, 0);
            SW_CHECK_EQ_INT(f->poses[2].count, 1);
        }
    }
    sw_check_report_free(r);

    /* defaults (4 kept, threshold 0.7 < √½): the scale only; disabled: nothing */
    r = check_file("animated.gltf", NULL);
    if (r) {
        SW_CHECK_EQ_INT(r->finding_count, 1);
        SW_CHECK_EQ_INT(count_code(r, SW_CHECK_NON_UNIFORM_SCALE), 1);
        sw_check_report_free(r);
    }
    r = check_file("animated.gltf", &(sw_check_options){.disabled = SW_CHECK_BIT(SW_CHECK_NON_UNIFORM_SCALE)});
    if (r) {
        SW_CHECK_EQ_INT(r->finding_count, 0);
        sw_check_report_free(r);
    }
}

/* Image 0 names a file that is not there, image 1 is text in a data: URI;
   image 2 is a valid 1×1 PNG. */
static void test_image_unreadable(void) {
    sw_check_report* r = check_file("image_unreadable.gltf", NULL);
    if (!r) return;
    check_consistent(r);
    SW_CHECK_EQ_INT(r->finding_count, 2);
    SW_CHECK_EQ_INT(r->warning_count, 2);
    SW_CHECK_EQ_INT(count_code(r, SW_CHECK_IMAGE_UNREADABLE), 2);
    if (r->finding_count == 2) {
        SW_CHECK_EQ_INT(r->findings[0].image, 0);
        SW_CHECK(strstr(r->findings[0].message, "missing_texture.png") != NULL);
        SW_CHECK_EQ_INT(r->findings[1].image, 1);
        SW_CHECK(strstr(r->findings[1].message, "not a PNG or JPEG") != NULL);
    }
    sw_check_report_free(r);
    /* disabled: not decoded, not reported */
    r = check_file("image_unreadable.gltf", &(sw_check_options){.disabled = SW_CHECK_BIT(SW_CHECK_IMAGE_UNREADABLE)});
    if (r) {
        SW_CHECK_EQ_INT(r->finding_count, 0);
        sw_check_report_free(r);
    }
}

/* A file that does not load is one `load` error, not a failure. */
static void test_load_error(void) {
    sw_check_report* r = check_file("no_such_file.gltf", NULL);
    if (!r) return;
    SW_CHECK_EQ_INT(r->finding_count, 1);
    SW_CHECK_EQ_INT(r->error_count, 1);
    SW_CHECK(r->finding_count == 1 && r->findings[0].code == SW_CHECK_LOAD);
    SW_CHECK(r->finding_count == 1 && strncmp(r->findings[0].message, "no_such_file.gltf", 17) != 0);
    sw_check_report_free(r);
}

/* sw_check_file's load options reach each importer (here their memory
   ceilings), and raw influences are kept whatever they say: a negative
   weight, which only a raw load accepts, is a finding, not a load error. */
static void test_load_options(void) {
    char path[1200];
    check_data_path(path, sizeof path, "clean.gltf");
    sw_check_report* r = NULL;
    sw_diag diag;
    sw_import_options small = {.gltf = {.max_memory = 1024}};
    SW_CHECK_EQ_INT(sw_check_file(path, &small, NULL, &r, &diag), SW_OK);
    if (r) {
        SW_CHECK(r->finding_count == 1 && r->findings[0].code == SW_CHECK_LOAD);
        SW_CHECK(r->finding_count == 1 && strstr(r->findings[0].message, "max_memory"));
        sw_check_report_free(r), r = NULL;
    }
    check_data_path(path, sizeof path, "weight_negative.gltf");
    const sw_import_options plain = {.gltf = {.keep_raw_influences = false}};
    SW_CHECK_EQ_INT(sw_check_file(path, &plain, NULL, &r, &diag), SW_OK);
    if (r) {
        SW_CHECK_EQ_INT(count_code(r, SW_CHECK_LOAD), 0);
        SW_CHECK_EQ_INT(count_code(r, SW_CHECK_WEIGHTS_NEGATIVE), 1);
        sw_check_report_free(r), r = NULL;
    }
}

/* The IQM importer's ceiling is its own: the glTF one does not limit it. */
static void test_load_options_iqm(void) {
    const char* assets = getenv("SINEW_ASSETS");
    if (!assets) SW_SKIP("SINEW_ASSETS not set");
    char path[1200];
    sw_check_report* r = NULL;
    sw_diag diag;
    snprintf(path, sizeof path, "%s/iqm/guy.iqm", assets);
    sw_import_options tiny_iqm = {.iqm = {.max_memory = 1000}};
    SW_CHECK_EQ_INT(sw_check_file(path, &tiny_iqm, NULL, &r, &diag), SW_OK);
    if (r) {
        SW_CHECK(r->finding_count == 1 && r->findings[0].code == SW_CHECK_LOAD);
        SW_CHECK(r->finding_count == 1 && strstr(r->findings[0].message, "max_memory"));
        sw_check_report_free(r), r = NULL;
    }
    sw_import_options tiny_gltf = {.gltf = {.max_memory = 1000}};
    SW_CHECK_EQ_INT(sw_check_file(path, &tiny_gltf, NULL, &r, &diag), SW_OK);
    if (r) {
        SW_CHECK_EQ_INT(count_code(r, SW_CHECK_LOAD), 0);
        sw_check_report_free(r);
    }
}

/* A hand-broken model: the first broken promise, and nothing else. */
static void test_model_invalid(void) {
    sw_model* model = load("clean.gltf", true);
    if (!model) return;
    sw_model_node nodes[16];
    SW_CHECK(model->node_count == 4);
    if (model->node_count != 4) {
        sw_model_free(model);
        return;
    }
    memcpy(nodes, model->nodes, 4 * sizeof *nodes);
    /* the skinned node ("points", file index 3) names mesh 5 of 1 */
    size_t points = 0;
    while (points < 4 && nodes[points].mesh < 0) points++;
    SW_CHECK(points < 4);
    if (points == 4) {
        sw_model_free(model);
        return;
    }
    nodes[points].mesh = 5;
    sw_model broken = *model;
    broken.nodes = nodes;
    sw_check_report* r = NULL;
    sw_diag diag;
    SW_CHECK(sw_check_model(&broken, NULL, &r, &diag) == SW_OK && r);
    if (r) {
        SW_CHECK_EQ_INT(r->finding_count, 1);
        SW_CHECK_EQ_INT(r->error_count, 1);
        const sw_check_finding* f = only(r, SW_CHECK_MODEL_INVALID);
        if (f) SW_CHECK_EQ_INT(f->node, 3);
        sw_check_report_free(r);
    }
    /* a skin joint past the nodes */
    sw_model_skin skin = model->skins[0];
    uint32_t joints[3] = {0, 1, 99};
    skin.joints = joints;
    broken = *model;
    broken.skins = &skin;
    SW_CHECK(sw_check_model(&broken, NULL, &r, &diag) == SW_OK && r);
    if (r) {
        SW_CHECK_EQ_INT(r->finding_count, 1);
        SW_CHECK_EQ_INT(count_code(r, SW_CHECK_MODEL_INVALID), 1);
        sw_check_report_free(r);
    }
    /* options out of range: a failure, no report */
    r = (sw_check_report*)&diag;
    SW_CHECK(sw_check_model(model, &(sw_check_options){.max_influences = SW_CHECK_MAX_INFLUENCES + 1}, &r, &diag) ==
             SW_ERR_INVALID_ARGUMENT);
    SW_CHECK(r == NULL);
    SW_CHECK(sw_check_model(model, &(sw_check_options){.retention_threshold = 1.5}, &r, NULL) ==
             SW_ERR_INVALID_ARGUMENT);
    SW_CHECK(sw_check_model(model, &(sw_check_options){.max_samples = 1}, &r, NULL) == SW_ERR_INVALID_ARGUMENT);
    sw_model_free(model);
}

int main(void) {
    SW_RUN(test_codes);
    SW_RUN(test_clean);
    SW_RUN(test_joint_duplicate);
    SW_RUN(test_weight_negative);
    SW_RUN(test_unnormalised);
    SW_RUN(test_without_raw_influences);
    SW_RUN(test_ibm_mismatch);
    SW_RUN(test_animated);
    SW_RUN(test_image_unreadable);
    SW_RUN(test_load_error);
    SW_RUN(test_load_options);
    SW_RUN(test_load_options_iqm);
    SW_RUN(test_model_invalid);
    return sw_test_finish();
}
