/* `--anim-file walk.vrma` (tools/anim_file.h): a VRM animation attached to
   a VRM avatar is retargeted by the humanoids, and the expression and
   look-at tracks of the clip being played are read at clip time t
   (anim_file_expression_weights, anim_file_gaze). Expected values:
   three-vrm-animation's, as in test_vrma.c; a .vrma without a humanoid is
   refused with one line naming the file and the JSON path. */
#include <stdlib.h>
#include <string.h>

#include "anim_file.h"
#include "harness.h"
#include "sinew/import.h"
#include "sinew/pose.h"

static void data_path(char* out, size_t size, const char* name) {
    const char* file = __FILE__;
    const char* cut = strstr(file, "/vrm/test_vrma_tool.c");
    if (cut)
        snprintf(out, size, "%.*s/data/vrm/%s", (int)(cut - file), file, name);
    else
        snprintf(out, size, "tests/data/vrm/%s", name);
}

static sw_model* load(const char* name) {
    char path[1024];
    data_path(path, sizeof path, name);
    sw_model* model = NULL;
    sw_diag diag = {0};
    if (sw_import_file(path, NULL, &model, &diag) != SW_OK) fprintf(stderr, "  %s\n", diag.message);
    return model;
}

/* three-vrm-animation at t = 0.25, 0.8, 1.3 (tests/reference/vrma_reference.mjs) */
static const struct {
    float t, happy, smirk, yaw, pitch;
} EXPECTED[] = {
    {0.25f, 0.5f, 0.25f, 9.961704f, 4.999854f},
    {0.8f, 0.55f, 0.45f, 1.975203f, 0.9831497f},
    {1.3f, 0.1f, 0.9f, 13.81129f, 7.037027f},
};

static void check_file(const char* model_name) {
    sw_model* model = load(model_name);
    SW_CHECK(model != NULL);
    if (!model) return;
    sw_model* loaded = model;
    char anim_path[1024];
    data_path(anim_path, sizeof anim_path, "wave.vrma");
    anim_file_options o = {.path = anim_path};
    anim_file f;
    tool_error err = {{0}};
    bool ok = anim_file_attach(&f, &model, &o, &err);
    if (!ok) fprintf(stderr, "  %s\n", err.message);
    SW_CHECK(ok);
    if (ok) {
        SW_CHECK(strstr(f.summary, "VRM animation, 11 humanoid bones") != NULL);
        SW_CHECK_EQ_INT(model->animation_count, loaded->animation_count + 1);
        const sw_clip* clip = &model->animations[model->animation_count - 1];
        SW_CHECK(clip->name && strcmp(clip->name, "wave") == 0);
        SW_CHECK(anim_file_vrma_of(&f, clip) != NULL);
        for (size_t k = 0; k < sizeof EXPECTED / sizeof EXPECTED[0]; k++) {
            const char* names[4] = {0};
            float weights[4] = {0};
            size_t n = anim_file_expression_weights(&f, clip, EXPECTED[k].t, names, weights, 4);
            SW_CHECK_EQ_INT(n, 2);
            if (n == 2) {
                SW_CHECK(strcmp(names[0], "happy") == 0 && strcmp(names[1], "smirk") == 0);
                SW_CHECK_NEAR(weights[0], EXPECTED[k].happy, 1e-6);
                SW_CHECK_NEAR(weights[1], EXPECTED[k].smirk, 1e-6);
            }
            float yaw = 0, pitch = 0, dir[3];
            SW_CHECK(anim_file_gaze(&f, clip, EXPECTED[k].t, &yaw, &pitch, dir));
            SW_CHECK_NEAR(yaw, EXPECTED[k].yaw, 1e-3);
            SW_CHECK_NEAR(pitch, EXPECTED[k].pitch, 1e-3);
        }
        /* the character's own clips have none */
        sw_clip other = {0};
        SW_CHECK_EQ_INT(anim_file_expression_weights(&f, &other, 0.5f, NULL, NULL, 0), 0);
        float yaw = 1, pitch = 1;
        SW_CHECK(!anim_file_gaze(&f, &other, 0.5f, &yaw, &pitch, NULL));
        SW_CHECK(yaw == 0 && pitch == 0);
    }
    anim_file_detach(&f, &model);
    SW_CHECK(model == loaded);
    sw_model_free(model);
}

static void test_vrm1(void) { check_file("vrma_model1.vrm"); }
static void test_vrm0(void) { check_file("vrma_model0.vrm"); }

/* A plain glTF character (vrma_model1.vrm without VRMC_vrm): its humanoid
   from its joint names, the same joints as the VRM's, so the same pose as
   three-vrm-animation's on the VRM at t = 0.5. */
static void test_plain_gltf(void) {
    static const struct {
        const char* name;
        double p[3];
    } expected[] = {
        {"HeadTip", {0.1055729, 1.464987, 0.2317201}},
        {"LeftHandTip", {0.3816893, 1.57168, -0.103099}},
        {"RightToesTip", {-0.1037461, -0.02330575, -0.05554237}},
        {"Hips", {0.04499997, 0.8550001, 0.08999947}},
    };
    sw_model* model = load("vrma_plain.glb");
    SW_CHECK(model != NULL);
    if (!model) return;
    char anim_path[1024];
    data_path(anim_path, sizeof anim_path, "wave.vrma");
    anim_file_options o = {.path = anim_path};
    anim_file f;
    tool_error err = {{0}};
    bool ok = anim_file_attach(&f, &model, &o, &err);
    if (!ok) fprintf(stderr, "  %s\n", err.message);
    SW_CHECK(ok);
    if (ok) {
        SW_CHECK(strstr(f.summary, "onto VRM names") != NULL);
        sw_pose_sizes sizes = sw_pose_sizes_of(model);
        void* memory = malloc(sw_pose_memory_size(&sizes));
        sw_pose pose;
        sw_diag diag;
        if (memory) {
            sw_pose_bind(&pose, &sizes, memory);
            SW_CHECK_EQ_INT(sw_pose_evaluate(model, &model->animations[model->animation_count - 1], 0.5f, false, &pose,
                                             &diag),
                            SW_OK);
            for (size_t k = 0; k < sizeof expected / sizeof expected[0]; k++) {
                int32_t n = sw_model_find_node_by_name(model, expected[k].name);
                SW_CHECK(n >= 0);
                for (int i = 0; n >= 0 && i < 3; i++) SW_CHECK_NEAR(pose.world[n].m[i][3], expected[k].p[i], 1e-4);
            }
        }
        free(memory);
    }
    anim_file_detach(&f, &model);
    sw_model_free(model);
}

static void test_no_humanoid(void) {
    sw_model* model = load("vrma_model1.vrm");
    SW_CHECK(model != NULL);
    if (!model) return;
    sw_model* loaded = model;
    char anim_path[1024];
    data_path(anim_path, sizeof anim_path, "vrma_no_humanoid.vrma");
    anim_file_options o = {.path = anim_path};
    anim_file f;
    tool_error err = {{0}};
    SW_CHECK(!anim_file_attach(&f, &model, &o, &err));
    SW_CHECK(model == loaded);
    char want[1200];
    snprintf(want, sizeof want, "--anim-file: %s: extensions.VRMC_vrm_animation.humanoid: missing", anim_path);
    if (!strstr(err.message, want)) fprintf(stderr, "  got: %s\n", err.message);
    SW_CHECK(strstr(err.message, want) != NULL);
    SW_CHECK(strchr(err.message, '\n') == NULL);
    sw_model_free(model);
}

int main(void) {
    SW_RUN(test_vrm1);
    SW_RUN(test_vrm0);
    SW_RUN(test_plain_gltf);
    SW_RUN(test_no_humanoid);
    return sw_test_finish();
}
