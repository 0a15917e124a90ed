/* VRM look-at (sinew/vrm.h) against three-vrm 3.5.5 on the generated
   avatars tests/data/vrm/look_vrm{1,0}_{bone,expression} (make_avatar_files.py):
   per file, head pose and world gaze point, the yaw and pitch, then the
   eyes' local rotations (bone type) or the lookUp, lookDown, lookLeft and
   lookRight weights (expression type). Gaze points go beyond the range
   maps' inputMaxValue (clamped outputs), behind the head and with the head
   turned away from its rest rotation.

   The expected rows are the output of tests/reference/vrm_look_at.mjs
   (three.js 0.180, @pixiv/three-vrm 3.5.5):
       NODE_PATH=.../node_modules node tests/reference/vrm_look_at.mjs
   Regenerate them after changing the generator. */
#include <math.h>
#include <string.h>

#include "harness.h"
#include "test_pose.h"
#include "sinew/gltf.h"
#include "sinew/vrm.h"

static const char* const files[4] = {"look_vrm1_bone.gltf", "look_vrm1_expression.gltf", "look_vrm0_bone.vrm",
                                     "look_vrm0_expression.vrm"};
static const float targets[7][3] = {{0, 1.5f, 2}, {0.6f, 1.6f, 1.0f}, {-0.4f, 1.2f, 1.5f}, {3, 1.45f, 0.2f},
                                    {-2, 3.5f, 0.5f}, {0.2f, 0.0f, 0.5f}, {0.1f, 1.5f, -2}};

typedef struct row {
    int file, head, target;
    float yaw, pitch;
    float out[8]; /* bone: left eye xyzw, right eye xyzw; expression: up, down, left, right */
} row;

static const row rows[] = {
    {0, 0, 0, -0.6250707f, -0.4738604f, {-0.0017688f, -0.0005975f, 0.1733750f, 0.9848541f, -0.0014347f, -0.0013442f, -0.1738909f, 0.9847630f}},
    {0, 0, 1, 32.8301047f, -6.1798396f, {-0.0084324f, 0.0589593f, 0.1595337f, 0.9853942f, -0.0262910f, 0.0391393f, -0.1852573f, 0.9815583f}},
    {0, 0, 2, -16.7499857f, 11.0207369f, {0.0083974f, -0.0257756f, 0.1816069f, 0.9829975f, 0.0173025f, -0.0261018f, -0.1646578f, 0.9858535f}},
    {0, 0, 3, 88.1188397f, 0.6593010f, {0.0233383f, 0.1003973f, 0.1555648f, 0.9824334f, -0.0046980f, 0.0427844f, -0.1805035f, 0.9826321f}},
    {0, 0, 4, -78.8616161f, -44.3841834f, {-0.0749879f, -0.0308273f, 0.1596344f, 0.9838411f, -0.0507256f, -0.1145038f, -0.1795653f, 0.9757418f}},
    {0, 0, 5, 24.2589681f, 73.6166066f, {0.0593286f, 0.0314174f, 0.1775252f, 0.9818237f, 0.0458077f, 0.0429792f, -0.1675193f, 0.9838657f}},
    {0, 0, 6, 177.8397870f, -0.4275321f, {0.0210556f, 0.1008432f, 0.1551982f, 0.9824972f, -0.0069653f, 0.0424026f, -0.1810069f, 0.9825426f}},
    {0, 1, 0, 25.3245589f, -32.4053676f, {-0.0574832f, 0.0547570f, 0.1508999f, 0.9853561f, -0.0716893f, 0.0245472f, -0.1945372f, 0.9779639f}},
    {0, 1, 1, 66.5991933f, -32.1746704f, {-0.0451557f, 0.1135217f, 0.1442001f, 0.9819777f, -0.0726636f, 0.0312371f, -0.1951606f, 0.9775769f}},
    {0, 1, 2, 8.2511482f, -20.3448441f, {-0.0634785f, 0.0257355f, 0.1539972f, 0.9856942f, -0.0681039f, 0.0001103f, -0.1921847f, 0.9789928f}},
    {0, 1, 3, 112.8098555f, -0.1903732f, {0.0218579f, 0.1006866f, 0.1553272f, 0.9824754f, -0.0061684f, 0.0425368f, -0.1808301f, 0.9825747f}},
    {0, 1, 4, -85.8403580f, -44.0466301f, {-0.0749879f, -0.0308273f, 0.1596344f, 0.9838411f, -0.0507256f, -0.1145038f, -0.1795653f, 0.9757418f}},
    {0, 1, 5, 34.7777618f, 43.9050552f, {0.0634349f, 0.0488332f, 0.1734254f, 0.9815880f, 0.0448580f, 0.0510667f, -0.1692520f, 0.9832262f}},
    {0, 1, 6, -158.9418829f, 28.7276700f, {0.0259833f, -0.0478809f, 0.1916701f, 0.9799464f, 0.0477015f, -0.0953506f, -0.1421091f, 0.9840924f}},
    {1, 0, 0, -0.6250707f, -0.4738604f, {0.0071079f, 0.0000000f, 0.0000000f, 0.0093761f}},
    {1, 0, 1, 32.8301047f, -6.1798396f, {0.0926976f, 0.0000000f, 0.4924516f, 0.0000000f}},
    {1, 0, 2, -16.7499857f, 11.0207369f, {0.0000000f, 0.4408295f, 0.0000000f, 0.2512498f}},
    {1, 0, 3, 88.1188397f, 0.6593010f, {0.0000000f, 0.0263720f, 0.9000000f, 0.0000000f}},
    {1, 0, 4, -78.8616161f, -44.3841834f, {0.6000000f, 0.0000000f, 0.0000000f, 0.9000000f}},
    {1, 0, 5, 24.2589681f, 73.6166066f, {0.0000000f, 0.8000000f, 0.3638845f, 0.0000000f}},
    {1, 0, 6, 177.8397870f, -0.4275321f, {0.0064130f, 0.0000000f, 0.9000000f, 0.0000000f}},
    {1, 1, 0, 25.3245589f, -32.4053676f, {0.4860805f, 0.0000000f, 0.3798684f, 0.0000000f}},
    {1, 1, 1, 66.5991933f, -32.1746704f, {0.4826201f, 0.0000000f, 0.9000000f, 0.0000000f}},
    {1, 1, 2, 8.2511482f, -20.3448441f, {0.3051727f, 0.0000000f, 0.1237672f, 0.0000000f}},
    {1, 1, 3, 112.8098555f, -0.1903732f, {0.0028556f, 0.0000000f, 0.9000000f, 0.0000000f}},
    {1, 1, 4, -85.8403580f, -44.0466301f, {0.6000000f, 0.0000000f, 0.0000000f, 0.9000000f}},
    {1, 1, 5, 34.7777618f, 43.9050552f, {0.0000000f, 0.8000000f, 0.5216664f, 0.0000000f}},
    {1, 1, 6, -158.9418829f, 28.7276700f, {0.0000000f, 0.8000000f, 0.0000000f, 0.9000000f}},
    {2, 0, 0, -0.6250707f, -0.4738604f, {0.0017688f, -0.0005975f, -0.1733750f, 0.9848541f, 0.0014347f, -0.0013442f, 0.1738909f, 0.9847630f}},
    {2, 0, 1, 32.8301047f, -6.1798396f, {0.0084324f, 0.0589593f, -0.1595337f, 0.9853942f, 0.0262910f, 0.0391393f, 0.1852573f, 0.9815583f}},
    {2, 0, 2, -16.7499857f, 11.0207369f, {-0.0083974f, -0.0257756f, -0.1816069f, 0.9829975f, -0.0173025f, -0.0261018f, 0.1646578f, 0.9858535f}},
    {2, 0, 3, 88.1188397f, 0.6593010f, {-0.0233383f, 0.1003973f, -0.1555648f, 0.9824334f, 0.0046980f, 0.0427844f, 0.1805035f, 0.9826321f}},
    {2, 0, 4, -78.8616161f, -44.3841834f, {0.0749879f, -0.0308273f, -0.1596344f, 0.9838411f, 0.0507256f, -0.1145038f, 0.1795653f, 0.9757418f}},
    {2, 0, 5, 24.2589681f, 73.6166066f, {-0.0593286f, 0.0314174f, -0.1775252f, 0.9818237f, -0.0458077f, 0.0429792f, 0.1675193f, 0.9838657f}},
    {2, 0, 6, 177.8397870f, -0.4275321f, {-0.0210556f, 0.1008432f, -0.1551982f, 0.9824972f, 0.0069653f, 0.0424026f, 0.1810069f, 0.9825426f}},
    {2, 1, 0, 25.3245589f, -32.4053676f, {0.0574832f, 0.0547570f, -0.1508999f, 0.9853561f, 0.0716893f, 0.0245472f, 0.1945372f, 0.9779639f}},
    {2, 1, 1, 66.5991933f, -32.1746704f, {0.0451557f, 0.1135217f, -0.1442001f, 0.9819777f, 0.0726636f, 0.0312371f, 0.1951606f, 0.9775769f}},
    {2, 1, 2, 8.2511482f, -20.3448441f, {0.0634785f, 0.0257355f, -0.1539972f, 0.9856942f, 0.0681039f, 0.0001103f, 0.1921847f, 0.9789928f}},
    {2, 1, 3, 112.8098555f, -0.1903732f, {-0.0218579f, 0.1006866f, -0.1553272f, 0.9824754f, 0.0061684f, 0.0425368f, 0.1808301f, 0.9825747f}},
    {2, 1, 4, -85.8403580f, -44.0466301f, {0.0749879f, -0.0308273f, -0.1596344f, 0.9838411f, 0.0507256f, -0.1145038f, 0.1795653f, 0.9757418f}},
    {2, 1, 5, 34.7777618f, 43.9050552f, {-0.0634349f, 0.0488332f, -0.1734254f, 0.9815880f, -0.0448580f, 0.0510667f, 0.1692520f, 0.9832262f}},
    {2, 1, 6, -158.9418829f, 28.7276700f, {-0.0259833f, -0.0478809f, -0.1916701f, 0.9799464f, -0.0477015f, -0.0953506f, 0.1421091f, 0.9840924f}},
    {3, 0, 0, -0.6250707f, -0.4738604f, {0.0071079f, 0.0000000f, 0.0000000f, 0.0093761f}},
    {3, 0, 1, 32.8301047f, -6.1798396f, {0.0926976f, 0.0000000f, 0.4924516f, 0.0000000f}},
    {3, 0, 2, -16.7499857f, 11.0207369f, {0.0000000f, 0.4408295f, 0.0000000f, 0.2512498f}},
    {3, 0, 3, 88.1188397f, 0.6593010f, {0.0000000f, 0.0263720f, 0.9000000f, 0.0000000f}},
    {3, 0, 4, -78.8616161f, -44.3841834f, {0.6000000f, 0.0000000f, 0.0000000f, 0.9000000f}},
    {3, 0, 5, 24.2589681f, 73.6166066f, {0.0000000f, 0.8000000f, 0.3638845f, 0.0000000f}},
    {3, 0, 6, 177.8397870f, -0.4275321f, {0.0064130f, 0.0000000f, 0.9000000f, 0.0000000f}},
    {3, 1, 0, 25.3245589f, -32.4053676f, {0.4860805f, 0.0000000f, 0.3798684f, 0.0000000f}},
    {3, 1, 1, 66.5991933f, -32.1746704f, {0.4826201f, 0.0000000f, 0.9000000f, 0.0000000f}},
    {3, 1, 2, 8.2511482f, -20.3448441f, {0.3051727f, 0.0000000f, 0.1237672f, 0.0000000f}},
    {3, 1, 3, 112.8098555f, -0.1903732f, {0.0028556f, 0.0000000f, 0.9000000f, 0.0000000f}},
    {3, 1, 4, -85.8403580f, -44.0466301f, {0.6000000f, 0.0000000f, 0.0000000f, 0.9000000f}},
    {3, 1, 5, 34.7777618f, 43.9050552f, {0.0000000f, 0.8000000f, 0.5216664f, 0.0000000f}},
    {3, 1, 6, -158.9418829f, 28.7276700f, {0.0000000f, 0.8000000f, 0.0000000f, 0.9000000f}},
};

/* The head's local rotation of pose `which`: its rest (15° about Y), or
   the rest · Ry(−25°) · Rx(30°); a 0.x file's turned with the avatar. */
static sw_quat head_rotation(int which, bool vrm0) {
    sw_quat q = sw_quat_from_axis_angle((sw_vec3){0, 1, 0}, 15.0f * 3.14159265f / 180.0f);
    if (which == 1) {
        q = sw_quat_mul(q, sw_quat_from_axis_angle((sw_vec3){0, 1, 0}, -25.0f * 3.14159265f / 180.0f));
        q = sw_quat_mul(q, sw_quat_from_axis_angle((sw_vec3){1, 0, 0}, 30.0f * 3.14159265f / 180.0f));
    }
    if (vrm0) q.x = -q.x, q.z = -q.z;
    return q;
}

static void test_against_three_vrm(void) {
    for (int fi = 0; fi < 4; fi++) {
        char path[512];
        snprintf(path, sizeof path, "%s/vrm/%s", SW_TEST_DATA_DIR, files[fi]);
        sw_model* model = NULL;
        sw_vrm* vrm = NULL;
        sw_diag diag;
        SW_CHECK(sw_gltf_load_file(path, NULL, &model, &diag) == SW_OK);
        SW_CHECK(model && sw_vrm_read(model, &vrm, &diag) == SW_OK && vrm);
        if (!vrm) {
            fprintf(stderr, "%s: %s\n", path, diag.message);
            sw_model_free(model);
            continue;
        }
        SW_CHECK(vrm->look_at.present);
        SW_CHECK_EQ_INT(vrm->look_at.type, fi % 2 == 0 ? SW_VRM_LOOK_AT_BONE : SW_VRM_LOOK_AT_EXPRESSION);
        posed tp;
        SW_CHECK(pose_make(model, &tp));
        int32_t head = vrm->humanoid.node[SW_HUMANOID_HEAD];
        int32_t eyes[2] = {vrm->humanoid.node[SW_HUMANOID_LEFT_EYE], vrm->humanoid.node[SW_HUMANOID_RIGHT_EYE]};
        SW_CHECK(head >= 0 && eyes[0] >= 0 && eyes[1] >= 0);
        for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
            const row* e = &rows[r];
            if (e->file != fi) continue;
            sw_pose* pose = &tp.pose;
            sw_pose_rest(model, pose);
            pose->local[head].rotation = head_rotation(e->head, fi >= 2);
            sw_pose_update_world(model, pose);
            float yaw, pitch;
            SW_CHECK(sw_vrm_look_at_angles(vrm, model, pose, targets[e->target], &yaw, &pitch));
            SW_CHECK_NEAR(yaw, e->yaw, 2e-3);
            SW_CHECK_NEAR(pitch, e->pitch, 2e-3);
            if (vrm->look_at.type == SW_VRM_LOOK_AT_BONE) {
                /* from three-vrm's angles, so that only the applier is compared here */
                sw_vrm_look_at_apply_bones(vrm, model, e->yaw, e->pitch, pose->local);
                for (int side = 0; side < 2; side++) {
                    sw_quat q = pose->local[eyes[side]].rotation;
                    const float* x = &e->out[4 * side];
                    float sign = q.x * x[0] + q.y * x[1] + q.z * x[2] + q.w * x[3] < 0.0f ? -1.0f : 1.0f;
                    SW_CHECK_NEAR(sign * q.x, x[0], 1e-5);
                    SW_CHECK_NEAR(sign * q.y, x[1], 1e-5);
                    SW_CHECK_NEAR(sign * q.z, x[2], 1e-5);
                    SW_CHECK_NEAR(sign * q.w, x[3], 1e-5);
                }
            } else {
                float w[64];
                for (size_t i = 0; i < 64; i++) w[i] = -1.0f;
                SW_CHECK(vrm->expression_count <= 64);
                sw_vrm_look_at_apply_expressions(vrm, e->yaw, e->pitch, w);
                const sw_vrm_preset presets[4] = {SW_VRM_PRESET_LOOK_UP, SW_VRM_PRESET_LOOK_DOWN,
                                                  SW_VRM_PRESET_LOOK_LEFT, SW_VRM_PRESET_LOOK_RIGHT};
                for (int k = 0; k < 4; k++) {
                    SW_CHECK(vrm->preset[presets[k]] >= 0);
                    if (vrm->preset[presets[k]] >= 0) SW_CHECK_NEAR(w[vrm->preset[presets[k]]], e->out[k], 1e-5);
                }
            }
        }
        free(tp.memory);
        sw_vrm_free(vrm);
        sw_model_free(model);
    }
}

/* The range map (docs: output_scale · clamp(a / input_max_value, 0, 1)),
   by hand; inputMaxValue below 0.01 acts as 0.01 (three-vrm's floor). */
static void test_range_map(void) {
    sw_vrm_range_map m = {.input_max_value = 40.0f, .output_scale = 6.0f};
    SW_CHECK_NEAR(sw_vrm_range_map_apply(&m, 10.0f), 1.5f, 1e-6);
    SW_CHECK_NEAR(sw_vrm_range_map_apply(&m, 40.0f), 6.0f, 1e-6);
    SW_CHECK_NEAR(sw_vrm_range_map_apply(&m, 100.0f), 6.0f, 1e-6);
    SW_CHECK_NEAR(sw_vrm_range_map_apply(&m, -5.0f), 0.0f, 1e-6);
    SW_CHECK_NEAR(sw_vrm_range_map_apply(&m, NAN), 0.0f, 1e-6);
    sw_vrm_range_map zero = {.input_max_value = 0.0f, .output_scale = 2.0f};
    SW_CHECK_NEAR(sw_vrm_range_map_apply(&zero, 0.005f), 1.0f, 1e-5);
}

int main(void) {
    SW_RUN(test_against_three_vrm);
    SW_RUN(test_range_map);
    return sw_test_finish();
}
