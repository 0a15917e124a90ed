/* The command line's VRM avatar state (tools/avatar_program.h) on the
   generated avatars tests/data/vrm/avatar_vrm{1.gltf,0.vrm}
   (make_avatar_files.py): what --expression, --gaze and --first-person
   put into the pose and into sw_render_frame_avatar, against values worked
   out by hand from VRMC_vrm-1.0 expressions.md and three-vrm 3.5.5's
   appliers:
     happy  isBinary: 0.6 → 1, 0.4 → 0; FaceMat UV offset (0.5, 0) × w
            (the renderer then samples the texture's blue half), morph
            mouth × 1, overrideMouth block (aa → 0)
     angry  BodyMat colour (0.2, 0.4, 0.6, 1) → (1, 0, 0, 1) and emission
            (0, 0, 0) → (0, 1, 0), at w = 0.5: (0.6, 0.2, 0.3, 1), (0, 0.5, 0)
     morph targets an expression binds take the expressions' sum (three-vrm
     sets them to 0 first): an animation's 0.7 there becomes the sum.
   and, for eight combinations on both files, against what three-vrm 3.5.5
   makes of them (test_against_three_vrm). The pixels are checked by
   tests/tools/test_avatar_render.sh. */
#include <math.h>
#include <string.h>

#include "harness.h"
#include "avatar_program.h"
#include "test_pose.h"
#include "sinew/gltf.h"

typedef struct run {
    sw_model* model;
    avatar_options options;
    avatar_program program;
    posed pose;
    sw_render_frame_avatar frame;
    int status;
    tool_error err;
} run;

/* Parses `argv` as the command would, loads `file`, inits, applies once at
   the rest pose (`preset_weight` written into every morph weight first). */
static bool start(run* r, const char* file, int argc, const char** argv, float preset_weight) {
    memset(r, 0, sizeof *r);
    char path[512];
    snprintf(path, sizeof path, "%s/vrm/%s", SW_TEST_DATA_DIR, file);
    sw_diag diag;
    if (sw_gltf_load_file(path, NULL, &r->model, &diag) != SW_OK) {
        fprintf(stderr, "%s: %s\n", path, diag.message);
        return false;
    }
    static const tool_command command = {.name = "render"};
    tool_args args = {.command = &command, .count = argc, .items = (char**)argv};
    for (const char* arg; (arg = tool_args_next(&args));)
        if (avatar_options_take(&r->options, &args, arg, &r->err) != 1) return false;
    r->status = avatar_program_init(&r->program, r->model, &r->options, &r->err);
    if (r->status != TOOL_EXIT_OK) return true;
    if (!pose_make(r->model, &r->pose)) return false;
    sw_pose_rest(r->model, &r->pose.pose);
    for (size_t i = 0; i < r->model->weight_count; i++) r->pose.pose.weights[i] = preset_weight;
    if (!avatar_program_apply(&r->program, &r->pose.pose, &r->err)) return false;
    avatar_program_render(&r->program, NULL, &r->frame);
    return true;
}

static void stop(run* r) {
    avatar_program_free(&r->program);
    avatar_options_free(&r->options);
    free(r->pose.memory);
    sw_model_free(r->model);
}

static const sw_render_material_override* override_of(const run* r, const char* material_name) {
    for (size_t i = 0; i < r->frame.material_override_count; i++) {
        const sw_render_material_override* o = &r->frame.material_overrides[i];
        if (o->material < r->model->material_count && r->model->materials[o->material].name &&
            strcmp(r->model->materials[o->material].name, material_name) == 0)
            return o;
    }
    return NULL;
}

static int32_t node_named(const sw_model* m, const char* name) {
    for (size_t i = 0; i < m->node_count; i++)
        if (m->nodes[i].name && strcmp(m->nodes[i].name, name) == 0) return (int32_t)i;
    return -1;
}

/* The Face node's morph weights (mouth, blink). */
static void face_weights(const run* r, float out[2]) {
    int32_t face = node_named(r->model, "Face");
    SW_CHECK(face >= 0);
    uint32_t at = r->model->nodes[face].weight_offset;
    out[0] = r->pose.pose.weights[at], out[1] = r->pose.pose.weights[at + 1];
}

static void check_happy(const char* file, const char* weight, float expected) {
    char arg[32];
    snprintf(arg, sizeof arg, "happy:%s", weight);
    const char* argv[] = {"--expression", arg};
    run r;
    SW_CHECK(start(&r, file, 2, argv, 0.7f));
    SW_CHECK_EQ_INT(r.status, TOOL_EXIT_OK);
    const sw_render_material_override* o = override_of(&r, "FaceMat");
    SW_CHECK(o != NULL);
    if (o) {
        SW_CHECK(o->fields & SW_RENDER_OVERRIDE_UV_TRANSFORM);
        SW_CHECK_NEAR(o->uv_scale[0], 1.0f, 1e-6);
        SW_CHECK_NEAR(o->uv_scale[1], 1.0f, 1e-6);
        SW_CHECK_NEAR(o->uv_offset[0], 0.5f * expected, 1e-6);
        SW_CHECK_NEAR(o->uv_offset[1], 0.0f, 1e-6);
    }
    float w[2];
    face_weights(&r, w);
    SW_CHECK_NEAR(w[0], expected, 1e-6); /* mouth: happy's bind (aa is blocked and not given) */
    SW_CHECK_NEAR(w[1], 0.0f, 1e-6);     /* blink: bound, so the animation's 0.7 is replaced */
    stop(&r);
}

static void test_happy_is_binary(void) {
    const char* files[2] = {"avatar_vrm1.gltf", "avatar_vrm0.vrm"};
    for (int f = 0; f < 2; f++) {
        check_happy(files[f], "0.6", 1.0f);
        check_happy(files[f], "0.4", 0.0f);
        check_happy(files[f], "1", 1.0f);
    }
}

static void test_colour_binds(void) {
    const char* argv[] = {"--expression", "angry:0.5"};
    const char* files[2] = {"avatar_vrm1.gltf", "avatar_vrm0.vrm"};
    for (int f = 0; f < 2; f++) {
        run r;
        SW_CHECK(start(&r, files[f], 2, argv, 0.0f));
        const sw_render_material_override* o = override_of(&r, "BodyMat");
        SW_CHECK(o != NULL);
        if (o) {
            SW_CHECK(o->fields & SW_RENDER_OVERRIDE_BASE_COLOR);
            const float want[4] = {0.6f, 0.2f, 0.3f, 1.0f};
            for (int k = 0; k < 4; k++) SW_CHECK_NEAR(o->base_color[k], want[k], 1e-6);
            if (f == 0) { /* the 0.x file binds no emission */
                SW_CHECK(o->fields & SW_RENDER_OVERRIDE_EMISSIVE);
                SW_CHECK_NEAR(o->emissive[0], 0.0f, 1e-6);
                SW_CHECK_NEAR(o->emissive[1], 0.5f, 1e-6);
                SW_CHECK_NEAR(o->emissive[2], 0.0f, 1e-6);
            } else {
                SW_CHECK(!(o->fields & SW_RENDER_OVERRIDE_EMISSIVE));
            }
        }
        /* FaceMat's UV transform is bound (by happy), at weight 0 */
        const sw_render_material_override* face = override_of(&r, "FaceMat");
        SW_CHECK(face && face->uv_offset[0] == 0.0f && face->uv_scale[0] == 1.0f);
        stop(&r);
    }
}

/* Overrides: happy blocks the mouth (aa → 0); wink (custom) blocks blink;
   angry blends blink by its weight: blink 1 · (1 − 0.25). */
static void test_overrides(void) {
    {
        const char* argv[] = {"--expression", "happy:1", "--expression", "aa:1"};
        run r;
        SW_CHECK(start(&r, "avatar_vrm1.gltf", 4, argv, 0.0f));
        float w[2];
        face_weights(&r, w);
        SW_CHECK_NEAR(w[0], 1.0f, 1e-6); /* happy's 1, aa's 0.5 blocked */
        stop(&r);
    }
    {
        const char* argv[] = {"--expression", "blink:1", "--expression", "angry:0.25"};
        run r;
        SW_CHECK(start(&r, "avatar_vrm1.gltf", 4, argv, 0.0f));
        float w[2];
        face_weights(&r, w);
        SW_CHECK_NEAR(w[1], 0.75f, 1e-6);
        stop(&r);
    }
    {
        const char* argv[] = {"--expression", "blink:1", "--expression", "wink:0.5"};
        run r;
        SW_CHECK(start(&r, "avatar_vrm1.gltf", 4, argv, 0.0f));
        float w[2];
        face_weights(&r, w);
        SW_CHECK_NEAR(w[1], 0.15f, 1e-6); /* blink blocked; wink's 0.3 × 0.5 */
        stop(&r);
    }
}

static void test_unknown_name(void) {
    const char* argv[] = {"--expression", "hapy:1"};
    run r;
    SW_CHECK(start(&r, "avatar_vrm1.gltf", 2, argv, 0.0f));
    SW_CHECK_EQ_INT(r.status, TOOL_EXIT_USAGE);
    SW_CHECK(strstr(r.err.message, "did you mean 'happy'") != NULL);
    SW_CHECK(strstr(r.err.message, "wink") != NULL); /* the list names the custom one */
    stop(&r);
    const char* far[] = {"--expression", "zzzzzzzz"};
    SW_CHECK(start(&r, "avatar_vrm1.gltf", 2, far, 0.0f));
    SW_CHECK_EQ_INT(r.status, TOOL_EXIT_USAGE);
    SW_CHECK(strstr(r.err.message, "did you mean") == NULL);
    stop(&r);
    const char* bad[] = {"--expression", "happy:2"};
    memset(&r, 0, sizeof r);
    SW_CHECK(!start(&r, "avatar_vrm1.gltf", 2, bad, 0.0f)); /* the weight is outside 0..1 */
    stop(&r);
}

/* three-vrm's layers: a third-person view does not draw firstPersonOnly
   meshes, a first-person view does not draw thirdPersonOnly ones. */
static void test_first_person(void) {
    const char* files[2] = {"avatar_vrm1.gltf", "avatar_vrm0.vrm"};
    for (int f = 0; f < 2; f++) {
        for (int fp = 0; fp < 2; fp++) {
            const char* argv[] = {"--first-person"};
            run r;
            SW_CHECK(start(&r, files[f], fp, argv, 0.0f));
            int32_t hair = node_named(r.model, "Hair"), arms = node_named(r.model, "Arms");
            int32_t face = node_named(r.model, "Face"), body = node_named(r.model, "Body");
            int32_t hat = node_named(r.model, "Hat"), ears = node_named(r.model, "Ears");
            SW_CHECK(r.frame.hidden_nodes != NULL);
            if (r.frame.hidden_nodes) {
                SW_CHECK_EQ_INT(r.frame.hidden_nodes[hair], fp ? 1 : 0);
                SW_CHECK_EQ_INT(r.frame.hidden_nodes[arms], fp ? 0 : 1);
                /* auto (three-vrm: tests/reference/vrm_first_person.mjs):
                   rigid below the head (Hat) third person only; rigid
                   elsewhere (Face) both; skinned with every triangle on
                   the head (Ears) hidden in first person; with some
                   (Body) drawn as the copy without them */
                SW_CHECK_EQ_INT(r.frame.hidden_nodes[hat], fp ? 1 : 0);
                SW_CHECK_EQ_INT(r.frame.hidden_nodes[ears], fp ? 1 : 0);
                SW_CHECK_EQ_INT(r.frame.hidden_nodes[face], 0);
                SW_CHECK_EQ_INT(r.frame.hidden_nodes[body], 0);
            }
            /* Body: three-vrm's copy keeps 1 of its 2 triangles in first
               person (the renderer draws it: headless_nodes) */
            SW_CHECK_EQ_INT((int)r.program.warning_count, 0);
            SW_CHECK(r.program.erase_joints != NULL && r.program.erased != NULL);
            if (r.program.erased) {
                SW_CHECK_EQ_INT((int)r.program.erased[body], 1);
                SW_CHECK_EQ_INT((int)r.program.triangles[body], 2);
                SW_CHECK_EQ_INT((int)r.program.erased[ears], 2);
            }
            SW_CHECK_EQ_INT(r.frame.headless_nodes != NULL, fp);
            if (r.frame.headless_nodes) {
                SW_CHECK_EQ_INT(r.frame.headless_nodes[body], 1);
                SW_CHECK_EQ_INT(r.frame.headless_nodes[ears], 0); /* hidden instead */
                SW_CHECK_EQ_INT(r.frame.headless_nodes[face], 0);
            }
            stop(&r);
        }
    }
}

/* avatar_erase.gltf: the triangles three-vrm 3.5.5's first-person copies
   erase (tests/reference/vrm_first_person.mjs: Cape keeps 3 of 16, Cloak
   2 of 2 and 3 of 4 (a strip), Helmet 2 and 2, Visor 2): a skinned mesh
   below the head is never hidden by its place; a mesh without annotation
   in a 1.0 file is auto. */
static void test_erase(void) {
    for (int fp = 0; fp < 2; fp++) {
        const char* argv[] = {"--first-person"};
        run r;
        SW_CHECK(start(&r, "avatar_erase.gltf", fp, argv, 0.0f));
        int32_t cape = node_named(r.model, "Cape"), cloak = node_named(r.model, "Cloak");
        int32_t helmet = node_named(r.model, "Helmet"), visor = node_named(r.model, "Visor");
        SW_CHECK(r.program.erased != NULL);
        if (r.program.erased) {
            SW_CHECK_EQ_INT((int)r.program.erased[cape], 13);
            SW_CHECK_EQ_INT((int)r.program.triangles[cape], 16);
            SW_CHECK_EQ_INT((int)r.program.erased[cloak], 1);
            SW_CHECK_EQ_INT((int)r.program.triangles[cloak], 6);
            SW_CHECK_EQ_INT((int)r.program.erased[helmet], 0);
            SW_CHECK_EQ_INT((int)r.program.erased[visor], 0);
        }
        SW_CHECK(r.frame.hidden_nodes == NULL);
        SW_CHECK_EQ_INT(r.frame.headless_nodes != NULL, fp);
        if (r.frame.headless_nodes) {
            SW_CHECK_EQ_INT(r.frame.headless_nodes[cape], 1);
            SW_CHECK_EQ_INT(r.frame.headless_nodes[cloak], 1);
            SW_CHECK_EQ_INT(r.frame.headless_nodes[helmet], 0);
        }
        stop(&r);
    }
}

/* --gaze: bone type turns the eyes as sw_vrm_look_at_apply_bones does (the
   numbers are checked against three-vrm in tests/vrm/test_vrm_look_at.c);
   expression type (the 0.x file) sets lookLeft / lookUp, whose binds move
   morph weights: lookUp binds blink × 0.25. */
static void test_gaze(void) {
    const char* argv[] = {"--gaze", "0.6,1.6,1.0"};
    run r;
    SW_CHECK(start(&r, "avatar_vrm1.gltf", 2, argv, 0.0f));
    int32_t eye = node_named(r.model, "LeftEye");
    sw_quat rest = r.model->rest_local[eye].rotation, q = r.pose.pose.local[eye].rotation;
    SW_CHECK(fabsf(sw_quat_dot(rest, q)) < 0.99999f); /* turned */
    SW_CHECK(r.program.yaw > 0.0f && r.program.pitch < 0.0f); /* left and up */
    stop(&r);

    SW_CHECK(start(&r, "avatar_vrm0.vrm", 2, argv, 0.0f));
    const sw_vrm* vrm = r.program.vrm;
    float up = r.program.final_weights[vrm->preset[SW_VRM_PRESET_LOOK_UP]];
    float left = r.program.final_weights[vrm->preset[SW_VRM_PRESET_LOOK_LEFT]];
    /* range maps: up 40° → 0.6, outer 60° → 0.9 */
    SW_CHECK_NEAR(up, 0.6f * fminf(-r.program.pitch / 40.0f, 1.0f), 1e-5);
    SW_CHECK_NEAR(left, 0.9f * fminf(r.program.yaw / 60.0f, 1.0f), 1e-5);
    SW_CHECK_NEAR(r.program.final_weights[vrm->preset[SW_VRM_PRESET_LOOK_RIGHT]], 0.0f, 1e-6);
    float w[2];
    face_weights(&r, w);
    SW_CHECK_NEAR(w[1], 0.25f * up, 1e-5);
    stop(&r);
}

/* Not a VRM: a usage error naming the option. */
static void test_not_a_vrm(void) {
    const char* argv[] = {"--expression", "happy"};
    run r;
    memset(&r, 0, sizeof r);
    char path[512];
    snprintf(path, sizeof path, "%s/vrm/../check/clean.gltf", SW_TEST_DATA_DIR);
    sw_diag diag;
    SW_CHECK(sw_gltf_load_file(path, NULL, &r.model, &diag) == SW_OK);
    static const tool_command command = {.name = "render"};
    tool_args args = {.command = &command, .count = 2, .items = (char**)argv};
    for (const char* arg; (arg = tool_args_next(&args));) SW_CHECK(avatar_options_take(&r.options, &args, arg, &r.err) == 1);
    SW_CHECK_EQ_INT(avatar_program_init(&r.program, r.model, &r.options, &r.err), TOOL_EXIT_USAGE);
    SW_CHECK(strstr(r.err.message, "is not a VRM avatar") != NULL);
    stop(&r);
}

/* ---- against three-vrm ------------------------------------------------------
   The same cases applied by three-vrm 3.5.5's expression manager over morph
   weights an animation left at 0.7 (tests/reference/vrm_expressions.mjs,
   three.js 0.180; regenerate with
       NODE_PATH=.../node_modules node tests/reference/vrm_expressions.mjs
   after changing the generator). Per row: file (0: 1.0, 1: 0.x), case,
   then Face's morph weights (mouth, blink), FaceMat's UV offset and scale,
   BodyMat's colour (RGBA) and emissive (RGB). */
typedef struct expression_case {
    int count;
    const char* args[3];
} expression_case;

static const expression_case cases[] = {
    {1, {"happy:0.6"}},         {1, {"happy:0.4"}},
    {1, {"angry:0.5"}},         {2, {"happy:1", "aa:1"}},
    {2, {"blink:1", "angry:0.25"}}, {2, {"blink:1", "wink:0.5"}},
    {2, {"aa:0.3", "lookUp:0.8"}}, {3, {"angry:1", "happy:0.7", "blink:0.2"}},
};

typedef struct three_vrm_row {
    int file, which;
    float out[13];
} three_vrm_row;

static const three_vrm_row three_vrm_rows[] = {
    {0, 0, {1.0000000f, 0.0000000f, 0.5000000f, 0.0000000f, 1.0000000f, 1.0000000f, 0.2000000f, 0.4000000f, 0.6000000f, 1.0000000f, 0.0000000f, 0.0000000f, 0.0000000f}},
    {0, 1, {0.0000000f, 0.0000000f, 0.0000000f, 0.0000000f, 1.0000000f, 1.0000000f, 0.2000000f, 0.4000000f, 0.6000000f, 1.0000000f, 0.0000000f, 0.0000000f, 0.0000000f}},
    {0, 2, {0.0000000f, 0.0000000f, 0.0000000f, 0.0000000f, 1.0000000f, 1.0000000f, 0.6000000f, 0.2000000f, 0.3000000f, 1.0000000f, 0.0000000f, 0.5000000f, 0.0000000f}},
    {0, 3, {1.0000000f, 0.0000000f, 0.5000000f, 0.0000000f, 1.0000000f, 1.0000000f, 0.2000000f, 0.4000000f, 0.6000000f, 1.0000000f, 0.0000000f, 0.0000000f, 0.0000000f}},
    {0, 4, {0.0000000f, 0.7500000f, 0.0000000f, 0.0000000f, 1.0000000f, 1.0000000f, 0.4000000f, 0.3000000f, 0.4500000f, 1.0000000f, 0.0000000f, 0.2500000f, 0.0000000f}},
    {0, 5, {0.0000000f, 0.1500000f, 0.0000000f, 0.0000000f, 1.0000000f, 1.0000000f, 0.2000000f, 0.4000000f, 0.6000000f, 1.0000000f, 0.0000000f, 0.0000000f, 0.0000000f}},
    {0, 6, {0.1500000f, 0.2000000f, 0.0000000f, 0.0000000f, 1.0000000f, 1.0000000f, 0.2000000f, 0.4000000f, 0.6000000f, 1.0000000f, 0.0000000f, 0.0000000f, 0.0000000f}},
    {0, 7, {1.0000000f, 0.0000000f, 0.5000000f, 0.0000000f, 1.0000000f, 1.0000000f, 1.0000000f, 0.0000000f, 0.0000000f, 1.0000000f, 0.0000000f, 1.0000000f, 0.0000000f}},
    {1, 0, {1.0000000f, 0.0000000f, 0.5000000f, 0.0000000f, 1.0000000f, 1.0000000f, 0.2000000f, 0.4000000f, 0.6000000f, 1.0000000f, 0.0000000f, 0.0000000f, 0.0000000f}},
    {1, 1, {0.0000000f, 0.0000000f, 0.0000000f, 0.0000000f, 1.0000000f, 1.0000000f, 0.2000000f, 0.4000000f, 0.6000000f, 1.0000000f, 0.0000000f, 0.0000000f, 0.0000000f}},
    {1, 2, {0.0000000f, 0.0000000f, 0.0000000f, 0.0000000f, 1.0000000f, 1.0000000f, 0.6000000f, 0.2000000f, 0.3000000f, 1.0000000f, 0.0000000f, 0.0000000f, 0.0000000f}},
    {1, 3, {1.5000000f, 0.0000000f, 0.5000000f, 0.0000000f, 1.0000000f, 1.0000000f, 0.2000000f, 0.4000000f, 0.6000000f, 1.0000000f, 0.0000000f, 0.0000000f, 0.0000000f}},
    {1, 4, {0.0000000f, 1.0000000f, 0.0000000f, 0.0000000f, 1.0000000f, 1.0000000f, 0.4000000f, 0.3000000f, 0.4500000f, 1.0000000f, 0.0000000f, 0.0000000f, 0.0000000f}},
    {1, 5, {0.0000000f, 1.1500000f, 0.0000000f, 0.0000000f, 1.0000000f, 1.0000000f, 0.2000000f, 0.4000000f, 0.6000000f, 1.0000000f, 0.0000000f, 0.0000000f, 0.0000000f}},
    {1, 6, {0.1500000f, 0.2000000f, 0.0000000f, 0.0000000f, 1.0000000f, 1.0000000f, 0.2000000f, 0.4000000f, 0.6000000f, 1.0000000f, 0.0000000f, 0.0000000f, 0.0000000f}},
    {1, 7, {1.0000000f, 0.2000000f, 0.5000000f, 0.0000000f, 1.0000000f, 1.0000000f, 1.0000000f, 0.0000000f, 0.0000000f, 1.0000000f, 0.0000000f, 0.0000000f, 0.0000000f}},
};

static void test_against_three_vrm(void) {
    const char* files[2] = {"avatar_vrm1.gltf", "avatar_vrm0.vrm"};
    for (size_t i = 0; i < sizeof three_vrm_rows / sizeof three_vrm_rows[0]; i++) {
        const three_vrm_row* e = &three_vrm_rows[i];
        const expression_case* c = &cases[e->which];
        const char* argv[6];
        for (int k = 0; k < c->count; k++) argv[2 * k] = "--expression", argv[2 * k + 1] = c->args[k];
        run r;
        SW_CHECK(start(&r, files[e->file], 2 * c->count, argv, 0.7f));
        float got[13] = {0, 0, 0, 0, 1, 1, 0.2f, 0.4f, 0.6f, 1, 0, 0, 0};
        face_weights(&r, got);
        const sw_render_material_override* face = override_of(&r, "FaceMat");
        const sw_render_material_override* body = override_of(&r, "BodyMat");
        if (face && (face->fields & SW_RENDER_OVERRIDE_UV_TRANSFORM))
            memcpy(&got[2], face->uv_offset, 2 * sizeof(float)), memcpy(&got[4], face->uv_scale, 2 * sizeof(float));
        if (body && (body->fields & SW_RENDER_OVERRIDE_BASE_COLOR)) memcpy(&got[6], body->base_color, 4 * sizeof(float));
        if (body && (body->fields & SW_RENDER_OVERRIDE_EMISSIVE)) memcpy(&got[10], body->emissive, 3 * sizeof(float));
        for (int k = 0; k < 13; k++) {
            if (fabsf(got[k] - e->out[k]) > 1e-5f)
                fprintf(stderr, "  %s case %d value %d: %g, three-vrm %g\n", files[e->file], e->which, k, got[k],
                        e->out[k]);
            SW_CHECK_NEAR(got[k], e->out[k], 1e-5);
        }
        stop(&r);
    }
}

int main(void) {
    SW_RUN(test_happy_is_binary);
    SW_RUN(test_colour_binds);
    SW_RUN(test_overrides);
    SW_RUN(test_unknown_name);
    SW_RUN(test_first_person);
    SW_RUN(test_erase);
    SW_RUN(test_gaze);
    SW_RUN(test_not_a_vrm);
    SW_RUN(test_against_three_vrm);
    return sw_test_finish();
}
