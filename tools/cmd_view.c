/* sinew view — a window onto the reference renderer: turn the character
   around, scrub its clips, switch skinning methods and debug views.

   The 3D picture is the renderer's own image (sinew/render.h), drawn into
   its offscreen targets exactly as `sinew render` draws it and copied into
   the window with a nearest-pixel blit of the same size; the overlay and
   the timeline bar are drawn over the copy. So with the overlay hidden (H)
   the window holds `sinew render`'s pixels for the same scene, size and
   camera. The renderer runs in the window's GL context (GLFW); it needs
   nothing from EGL.

   Time: interactively, playback follows the wall clock. In a scripted run
   (--script, --frames or --exit) every frame advances the clip by
   speed / --fps seconds, so pictures do not depend on how fast the machine
   draws. */
#define _POSIX_C_SOURCE 200809L /* strdup, access, clock_gettime */

#include "anim_program.h"
#include "frame_output.h"
#include "scene_options.h"
#include "tool_common.h"
#include "view_overlay.h"
#include "view_script.h"

#include "sinew/demo.h"
#include "sinew/render.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifdef SW_HAVE_GLFW
#include <epoxy/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#endif

#define BOUNDS_SAMPLES 24 /* as sinew render samples a clip for its camera */
#define VIEW_PI 3.14159265358979323846

const char cmd_view_help[] =
    "usage: sinew view [MODEL] [--anim NAME|INDEX|none] [--time T] [--fps F]\n"
    "                  [--size WxH] [--camera auto|orbit:DEG[,ELEV]] [--frame F]\n"
    "                  [--camera-target X,Y,Z] [--camera-distance M] [--fov DEG]\n"
    "                  [--follow] [--dqs] [--split]\n"
    "                  [--view shaded|normals|motion|uv|weights:JOINT|retention|ao|depth|bones]\n"
    "                  [--bones] [--aa none|edge|taa|edge+taa] [--ao on|off] [--fog on|off|D[,R,G,B]]\n"
    "                  [--fog-height off|D,BASE,FALLOFF]\n"
    "                  [--env-feedback on|off] [--weather none|snow[,DENSITY]] [--wind X,Z]\n"
    "                  [--bloom|--no-bloom]\n"
    "                  [--motion-blur] [--style auto|toon|pbr] [--night] [--time-of-day H]\n"
    "                  [--screenshot FILE.png] [--frames N] [--exit] [--script KEYS]\n"
    "                  [--no-vsync] [--quiet] [--stage FILE|demo [--place X,Z]]\n"
    "                  [animation options, below]\n"
    "\n"
    "Opens a window (GLFW, OpenGL 4.3 core) showing MODEL (any format sinew\n"
    "reads; without MODEL the built-in demo character) drawn by the same\n"
    "renderer as `sinew render`, with the same scene options: with the overlay\n"
    "hidden the window shows render's pixels for the same size and camera.\n"
    "Drop a model file on the window to open it; one that fails to load leaves\n"
    "the previous one on screen and the error in the overlay. Needs a display\n"
    "(X11 or Wayland); without one, use `sinew render`.\n"
    "\n"
    "keys and mouse:\n"
    "  left drag       orbit           middle drag, shift+left drag: pan\n"
    "  wheel           zoom            F: frame the character (whole clip)\n"
    "  keypad 1, 3, 7  front, right, top view (with ctrl: back, left, bottom)\n"
    "  space           play / pause    left, right: one frame back, forward\n"
    "  home, end       clip start, end [ ]: previous, next clip\n"
    "  - +             half, double playback speed     O: loop on / off\n"
    "  click or drag on the timeline bar: scrub\n"
    "  L D S           linear blend, dual quaternion, split (LBS | DQS)\n"
    "  B               bones on / off\n"
    "  W               weights of the joint under the cursor (ray against the\n"
    "                  skinned mesh); tab, shift+tab: next, previous joint\n"
    "  R               retention: the radius LBS keeps per vertex (red: lost)\n"
    "  1 2 3 4 5 6 7 8 shaded, normals, motion, UV, weights, retention, AO, depth\n"
    "  T               style: auto, toon, PBR       A: anti-aliasing mode\n"
    "  Y               sky: one hour later (from the plain sky: 6:00)\n"
    "  H               hide / show the overlay and the timeline\n"
    "  C               frame cost per pass in the overlay (GPU timer query,\n"
    "                  CPU submit time, ms) on / off\n"
    "  P               screenshot: sinew-view-NNNN.png in the current folder\n"
    "  E X             VRM: next expression, its weight (0, 0.5, 1)\n"
    "  G V             VRM: eyes follow the camera, first-person view\n"
    "  J K             --graph: next, previous parameter (the panel, top right)\n"
    "  N M             --graph: the parameter down, up (a float by 0.25, a bool\n"
    "                  off, on; M fires a trigger), from the time shown on\n"
    "  U               --graph: forget those changes (the --set alone)\n"
    "  esc             quit (so does closing the window)\n"
    "\n"
    "options (the scene options are sinew render's; see sinew render --help):\n"
    "  --size WxH      window size (default 960x540); the picture has the\n"
    "                  window's framebuffer size (larger on high-DPI screens)\n"
    "  --time T        start at T seconds into the clip (default 0)\n"
    "  --fps F         frame step of the arrow keys and of scripted runs\n"
    "                  (default 30)\n"
    "the camera options set the first camera (the keys move it from there):\n"
    SCENE_CAMERA_HELP
    SCENE_SKY_HELP
    "  --screenshot FILE.png\n"
    "                  after the script and --frames frames, write the window\n"
    "                  (overlay included, unless hidden) to FILE.png\n"
    "  --frames N      frames to draw after the script (default 1 with --exit\n"
    "                  or --screenshot, else no limit)\n"
    "  --exit          quit after those frames (exit status 0)\n"
    "  --script KEYS   play KEYS, one step per frame, before the --frames:\n"
    "                  a character (D, ], +), a named key (space, esc, tab,\n"
    "                  left, right, up, down, home, end, kp1, kp3, kp7; shift+\n"
    "                  and ctrl+ prefixes), wait:N, move:X,Y, click:X,Y,\n"
    "                  drag:X0,Y0,X1,Y1, mdrag:X0,Y0,X1,Y1, scroll:DY,\n"
    "                  size:WxH, open:PATH (as if dropped), drop:PATH (a drop\n"
    "                  on the window, opened at the next frame), dump:PATH (the\n"
    "                  weights or retention view's per-vertex values, as text);\n"
    "                  positions in window coordinates from the top left\n"
    "  --no-vsync      do not wait for the display between frames (scripted\n"
    "                  runs never wait)\n"
    "  --quiet         no \"wrote FILE\" lines on stderr\n"
    SCENE_STAGE_HELP
    "  --allow-outside-paths   let buffer URIs leave the model's folder\n"
    "  -h, --help      show this help\n"
    "\n" ANIM_OPTIONS_HELP;

typedef struct view_options {
    const char* model;
    const char* anim;
    double time, fps;
    long width, height;
    scene_camera cam;
    bool dqs, split, bones, quiet;
    sw_render_aa aa;
    sw_render_ao ao;      /* --ao on|off */
    scene_air air;        /* --fog, --fog-height, --weather, --wind, --env-feedback */
    bool bloom, motion_blur;
    sw_render_view view;
    sw_render_style style;
    bool night;
    double time_of_day;   /* --time-of-day, negative: not given */
    const char* weight_joint;
    const char* screenshot;
    long frames;          /* after the script; -1 = no limit */
    bool exit_after, no_vsync;
    const char* script_text;
    sw_gltf_options load;
    scene_stage stage;    /* --stage, --place (loaded by view_run) */
} view_options;

/* 0 when the options are fine, else the exit status (the message printed). */
static int parse_options(tool_args* args, anim_options* program, view_options* o) {
    *o = (view_options){.time_of_day = -1.0, .fps = 30.0, .width = 960, .height = 540, .cam = SCENE_CAMERA_DEFAULTS,
                        .aa = SW_RENDER_AA_EDGE_TAA, .bloom = true, .frames = -1};
    tool_error err;
    bool frames_given = false;
    for (const char* arg; (arg = tool_args_next(args));) {
        const char* v;
        if (tool_args_is_help(arg)) return tool_print_help(args) == TOOL_EXIT_OK ? -1 : TOOL_EXIT_FAILURE;
        int took = anim_options_take(program, args, arg, &err);
        if (took < 0) return tool_usage(args, "%s", err.message);
        if (took) continue;
        if ((took = scene_camera_take(&o->cam, args, arg, &err)) < 0) return tool_usage(args, "%s", err.message);
        if (took) continue;
        if ((took = scene_sky_take(&o->time_of_day, args, arg, &err)) < 0) return tool_usage(args, "%s", err.message);
        if (took) continue;
        if ((took = scene_stage_take(&o->stage, args, arg, &err)) < 0) return tool_usage(args, "%s", err.message);
        if (took) continue;
        if ((took = scene_air_take(&o->air, args, arg, &err)) < 0) return tool_usage(args, "%s", err.message);
        if (took) continue;
        if (tool_args_flag(arg, "--dqs")) o->dqs = true;
        else if (tool_args_flag(arg, "--split")) o->split = true;
        else if (tool_args_flag(arg, "--bones")) o->bones = true;
        else if (tool_args_flag(arg, "--bloom")) o->bloom = true;
        else if (tool_args_flag(arg, "--no-bloom")) o->bloom = false;
        else if (tool_args_flag(arg, "--motion-blur")) o->motion_blur = true;
        else if (tool_args_flag(arg, "--night")) o->night = true;
        else if (tool_args_flag(arg, "--quiet")) o->quiet = true;
        else if (tool_args_flag(arg, "--exit")) o->exit_after = true;
        else if (tool_args_flag(arg, "--no-vsync")) o->no_vsync = true;
        else if (tool_args_flag(arg, "--allow-outside-paths")) o->load.allow_outside_paths = true;
        else if (tool_args_option(args, arg, "--anim")) {
            if (!(o->anim = tool_args_value(args, "--anim", &err))) return tool_usage(args, "%s", err.message);
        } else if (tool_args_option(args, arg, "--time")) {
            if (!(v = tool_args_value(args, "--time", &err)) || !tool_parse_double("--time", v, -1e6, 1e6, &o->time, &err))
                return tool_usage(args, "%s", err.message);
        } else if (tool_args_option(args, arg, "--fps")) {
            if (!(v = tool_args_value(args, "--fps", &err)) || !tool_parse_double("--fps", v, 1, 240, &o->fps, &err))
                return tool_usage(args, "%s", err.message);
        } else if (tool_args_option(args, arg, "--frames")) {
            if (!(v = tool_args_value(args, "--frames", &err)) ||
                !tool_parse_int("--frames", v, 1, 1000000, &o->frames, &err))
                return tool_usage(args, "%s", err.message);
            frames_given = true;
        } else if (tool_args_option(args, arg, "--size")) {
            if (!(v = tool_args_value(args, "--size", &err)) || !scene_parse_size(v, &o->width, &o->height, &err))
                return tool_usage(args, "%s", err.message);
        } else if (tool_args_option(args, arg, "--style")) {
            if (!(v = tool_args_value(args, "--style", &err))) return tool_usage(args, "%s", err.message);
            if (strcmp(v, "auto") == 0) o->style = SW_RENDER_STYLE_AUTO;
            else if (strcmp(v, "toon") == 0) o->style = SW_RENDER_STYLE_TOON;
            else if (strcmp(v, "pbr") == 0) o->style = SW_RENDER_STYLE_PBR;
            else return tool_usage(args, "--style: '%s' is not auto, toon or pbr", v);
        } else if (tool_args_option(args, arg, "--ao")) {
            if (!(v = tool_args_value(args, "--ao", &err)) || !scene_parse_ao(v, &o->ao, &err))
                return tool_usage(args, "%s", err.message);
        } else if (tool_args_option(args, arg, "--aa")) {
            if (!(v = tool_args_value(args, "--aa", &err)) || !scene_parse_aa(v, &o->aa, &err))
                return tool_usage(args, "%s", err.message);
        } else if (tool_args_option(args, arg, "--view")) {
            if (!(v = tool_args_value(args, "--view", &err)) || !scene_parse_view(v, &o->view, &o->bones, &o->weight_joint, &err))
                return tool_usage(args, "%s", err.message);
        } else if (tool_args_option(args, arg, "--screenshot")) {
            if (!(o->screenshot = tool_args_value(args, "--screenshot", &err))) return tool_usage(args, "%s", err.message);
            if (!tool_has_extension(o->screenshot, ".png"))
                return tool_usage(args, "--screenshot: '%s' is not a .png file", o->screenshot);
        } else if (tool_args_option(args, arg, "--script")) {
            if (!(o->script_text = tool_args_value(args, "--script", &err))) return tool_usage(args, "%s", err.message);
        } else if (arg[0] == '-' && arg[1]) {
            return tool_unknown_option(args, arg);
        } else if (o->model) {
            return tool_usage(args, "one MODEL only ('%s' and '%s')", o->model, arg);
        } else {
            o->model = arg;
        }
    }
    if (o->split && o->dqs) return tool_usage(args, "--split shows LBS and DQS side by side; drop --dqs");
    if (!frames_given && (o->exit_after || o->screenshot)) o->frames = 1;
    if (!anim_options_check(program, &err) || !scene_stage_check(&o->stage, &err))
        return tool_usage(args, "%s", err.message);
    scene_air_finish(&o->air, &o->stage);
    return 0;
}

/* Exit status 1, saying so, when there is no display to open a window on; else 0. */
static int no_display(const tool_args* args) {
    const char* x11 = getenv("DISPLAY");
    const char* wayland = getenv("WAYLAND_DISPLAY");
    if ((!x11 || !*x11) && (!wayland || !*wayland))
        return tool_fail(args, "no display (DISPLAY and WAYLAND_DISPLAY are unset): a window cannot open here; "
                               "use sinew render to draw without one");
    return 0;
}

#ifndef SW_HAVE_GLFW

int cmd_view(tool_args* args) {
    anim_options program = {0};
    view_options o;
    int status = parse_options(args, &program, &o);
    anim_options_free(&program);
    if (status) return status < 0 ? TOOL_EXIT_OK : status;
    if ((status = no_display(args))) return status;
    return tool_fail(args, "this sinew was built without GLFW (install libglfw3-dev and rebuild); "
                           "use sinew render to draw without a window");
}

#else

/* ---- the scene: a model, its clip and program, its pose and bounds ---------------- */

/* A scene is moved by plain assignment (open_model builds the next one on
   its stack, then copies it into the viewer), so it holds no pointer into
   itself: what its parts point at (model, materials, the program's
   buffers) is on the heap, owned by the scene and freed by scene_free. */
typedef struct view_scene {
    sw_model* model;                /* with --anim-file's clips (anim_file.h) */
    /* Its materials made ready to draw; on the heap, so that the renderer's
       pointer to them stays valid when the scene is copied. */
    sw_material_set* materials;
    anim_file anim_src;
    const anim_options* options;    /* the program's options (the command line's for the first model) */
    anim_program prog;
    bool prog_ready;                /* prog is made (scene_active_program says whether it poses) */
    bool bad_name;                  /* the load failed on a name or value of the command line (a usage error) */
    long clip;                      /* -1 = the rest pose */
    sw_pose pose;
    void* pose_memory;
    float lo[3], hi[3];             /* the whole clip's bounds */
    int32_t root;                   /* the node --follow follows (scene_frame_resolve), or -1 */
    float place_lo[3], place_hi[3]; /* the same with the root's travel taken out (x, z) */
    float travel;                   /* the root's farthest distance from where it starts */
    const scene_stage* stage;       /* --stage, --place: the command line's */
    float shift[3];                 /* --place: the character's move onto the stage */
    sw_mat34 placement;             /* the same as a placement */
    uint32_t* joints;               /* skin joint nodes, ascending, each once */
    size_t joint_count;
    size_t vertex_count;            /* every drawn (node, primitive) */
} view_scene;

static void scene_free(view_scene* sc) {
    if (sc->prog_ready) anim_program_free(&sc->prog);
    free(sc->pose_memory);
    free(sc->joints);
    sw_material_set_free(sc->materials);
    free(sc->materials);
    anim_file_detach(&sc->anim_src, &sc->model);
    sw_model_free(sc->model);
    *sc = (view_scene){0};
}

/* The timeline's length: the clip's span, as time counts from its first key
   (sw_clip_time_from_start). */
static double clip_duration(const view_scene* sc) {
    if (sc->prog_ready && sc->prog.has_graph) /* --graph: past its last change by 3 s, at least 5 s */
        return fmax(5.0, graph_program_last_change(&sc->prog.graph) + 3.0);
    const sw_clip* c = sc->clip >= 0 ? &sc->model->animations[sc->clip] : NULL;
    return c ? (double)c->duration - (double)c->start : 0.0;
}

static const char* clip_name(const view_scene* sc) {
    if (sc->prog_ready && sc->prog.has_graph) return "graph";
    if (sc->clip < 0) return "rest pose";
    const char* name = sc->model->animations[sc->clip].name;
    return name && *name ? name : "(unnamed)";
}

/* The scene's program when it changes the pose, else NULL: asked each
   time from the scene at hand, never kept (the scene may have moved). */
static anim_program* scene_active_program(view_scene* sc) {
    if (!sc->prog_ready) return NULL;
    sc->prog.config.file = &sc->anim_src; /* the scene struct may have moved since the program was made */
    return anim_program_active(&sc->prog) ? &sc->prog : NULL;
}

/* The pose at playback time t, as sinew render poses its frames. */
static bool scene_pose(view_scene* sc, double t, bool loop, tool_error* err) {
    anim_program* active = scene_active_program(sc);
    if (active) {
        active->config.loop = loop;
        return anim_program_evaluate(active, (float)t, &sc->pose, err);
    }
    const sw_clip* clip = sc->clip >= 0 ? &sc->model->animations[sc->clip] : NULL;
    float time = clip ? sw_clip_time_from_start(clip, (float)t, loop) : 0.0f;
    sw_diag diag;
    if (sw_pose_evaluate(sc->model, clip, time, false, &sc->pose, &diag) != SW_OK)
        return tool_error_set(err, "%s: %s", sc->model->path, diag.message);
    return true;
}

/* (Re)makes the animation program for the scene's clip. */
static bool scene_program(view_scene* sc, tool_error* err) {
    if (sc->prog_ready) anim_program_free(&sc->prog);
    sc->prog_ready = false;
    anim_program_config config = {.loop = true, .from_clip_start = true, .file = &sc->anim_src};
    int status = anim_program_init(&sc->prog, sc->model, sc->options, sc->clip, &config, err);
    sc->bad_name = status == TOOL_EXIT_USAGE;
    if (status != TOOL_EXIT_OK) return false;
    sc->prog_ready = true;
    return true;
}

/* Loads a model (NULL: the demo character) and resolves its clip and
   program; no GL. `anim` is the --anim text or NULL. */
static bool scene_load(view_scene* sc, const char* path, const sw_gltf_options* load, const anim_options* options,
                       const char* anim, tool_error* err) {
    *sc = (view_scene){.options = options, .clip = -1, .root = -1};
    sw_diag diag;
    if (path) {
        if (tool_load_model(path, load, &sc->model, &diag) != SW_OK) return tool_error_set(err, "%s", diag.message);
    } else {
        uint8_t* glb = NULL;
        size_t size = 0;
        sw_result res = sw_demo_character_glb(&glb, &size, &diag);
        if (res == SW_OK) res = sw_gltf_load_memory(glb, size, SW_DEMO_CHARACTER_NAME, NULL, NULL, &sc->model, &diag);
        sw_demo_character_glb_free(glb);
        if (res != SW_OK) return tool_error_set(err, "demo character: %s", diag.message);
    }
    if (!anim_file_attach(&sc->anim_src, &sc->model, &options->file, err)) {
        scene_free(sc);
        return false;
    }
    if (sc->anim_src.view) fprintf(stderr, "%s\n", sc->anim_src.summary);
    if (!(sc->materials = calloc(1, sizeof *sc->materials))) {
        scene_free(sc);
        return tool_error_set(err, "out of memory");
    }
    if (sw_material_set_read(sc->model, sc->materials, &diag) != SW_OK) {
        tool_error_set(err, "%s: %s", sc->model->path, diag.message);
        scene_free(sc);
        return false;
    }
    bool clip_found = tool_find_clip(sc->model, anim ? anim : path ? NULL : "walk", &sc->clip, err);
    if (!clip_found || !scene_program(sc, err)) {
        bool bad_name = !clip_found || sc->bad_name; /* the clip, or a name the program resolves */
        scene_free(sc);
        sc->bad_name = bad_name;
        return false;
    }
    if (sc->prog.has_warning) fprintf(stderr, "sinew view: warning: %s: %s\n", sc->model->path, sc->prog.warning.message);
    for (size_t i = 0; i < sc->prog.avatar.warning_count; i++)
        fprintf(stderr, "sinew view: warning: %s: %s\n", sc->model->path, sc->prog.avatar.warnings[i].message);
    /* Without --anim, a blend or crossfade's clip sets the time range. */
    if (!anim && path && anim_program_primary_clip(&sc->prog) >= 0) sc->clip = anim_program_primary_clip(&sc->prog);
    if (!(sc->pose_memory = tool_pose_alloc(sc->model, &sc->pose))) {
        scene_free(sc);
        return tool_error_set(err, "out of memory for a pose");
    }
    const scene_camera plain = SCENE_CAMERA_DEFAULTS;
    scene_frame_nodes nodes;
    tool_error ignored;
    if (scene_frame_resolve(sc->model, &plain, &nodes, &ignored)) sc->root = nodes.root; /* for --follow and auto */
    scene_frame_nodes_free(&nodes);
    const sw_model* a = sc->model;
    bool* is_joint = calloc(a->node_count + 1, sizeof *is_joint);
    if (!is_joint) {
        scene_free(sc);
        return tool_error_set(err, "out of memory");
    }
    for (size_t s = 0; s < a->skin_count; s++)
        for (size_t j = 0; j < a->skins[s].joint_count; j++) is_joint[a->skins[s].joints[j]] = true;
    for (size_t n = 0; n < a->node_count; n++) sc->joint_count += is_joint[n];
    sc->joints = malloc((sc->joint_count + 1) * sizeof *sc->joints);
    if (!sc->joints) {
        free(is_joint);
        scene_free(sc);
        return tool_error_set(err, "out of memory");
    }
    for (size_t n = 0, k = 0; n < a->node_count; n++)
        if (is_joint[n]) sc->joints[k++] = (uint32_t)n;
    free(is_joint);
    for (size_t n = 0; n < a->node_count; n++)
        if (a->nodes[n].mesh >= 0) {
            const sw_model_mesh* mesh = &a->meshes[a->nodes[n].mesh];
            for (size_t p = 0; p < mesh->primitive_count; p++) sc->vertex_count += mesh->primitives[p].vertex_count;
        }
    return true;
}

/* The bounds of the whole clip (sampled as sinew render samples them),
   given to the renderer as its scene box; the program starts over. */
static bool scene_bounds(view_scene* sc, sw_renderer* r, double time, tool_error* err) {
    float lo[3] = {FLT_MAX, FLT_MAX, FLT_MAX}, hi[3] = {-FLT_MAX, -FLT_MAX, -FLT_MAX};
    const double duration = clip_duration(sc);
    const int samples = duration > 0.0 ? BOUNDS_SAMPLES : 1;
    float anchor[3] = {0, 0, 0};
    if (!scene_pose(sc, time, true, err)) return false;
    for (int k = 0; sc->root >= 0 && k < 3; k++) anchor[k] = sc->pose.world[sc->root].m[k][3];
    sc->travel = 0.0f;
    for (int k = 0; k < 3; k++) sc->place_lo[k] = FLT_MAX, sc->place_hi[k] = -FLT_MAX;
    for (int i = 0; i < samples; i++) {
        double t = samples == 1 ? time : duration * i / (samples - 1);
        float a[3], b[3];
        sw_diag diag;
        if (!scene_pose(sc, t, true, err)) return false;
        if (sw_renderer_scene_bounds(r, &sc->pose, a, b, &diag) != SW_OK)
            return tool_error_set(err, "%s: %s", sc->model->path, diag.message);
        float shift[3] = {0, 0, 0};
        if (sc->root >= 0)
            shift[0] = sc->pose.world[sc->root].m[0][3] - anchor[0], shift[2] = sc->pose.world[sc->root].m[2][3] - anchor[2];
        sc->travel = fmaxf(sc->travel, sqrtf(shift[0] * shift[0] + shift[2] * shift[2]));
        for (int k = 0; k < 3; k++) {
            lo[k] = fminf(lo[k], a[k]), hi[k] = fmaxf(hi[k], b[k]);
            sc->place_lo[k] = fminf(sc->place_lo[k], a[k] - shift[k]);
            sc->place_hi[k] = fmaxf(sc->place_hi[k], b[k] - shift[k]);
        }
    }
    /* --place: the root to X,Z, the first pose's lowest point onto the
       stage's ground; every box the camera frames moves with her. */
    float feet[3], ignored[3];
    sw_diag diag;
    if (!scene_pose(sc, time, true, err)) return false;
    if (sc->stage && sc->stage->has_place && sw_renderer_scene_bounds(r, &sc->pose, feet, ignored, &diag) != SW_OK)
        return tool_error_set(err, "%s: %s", sc->model->path, diag.message);
    if (sc->stage && !scene_stage_placement(sc->stage, anchor, feet[1], sc->shift, err)) return false;
    sc->placement = sw_mat34_translation(sw_vec3_make(sc->shift[0], sc->shift[1], sc->shift[2]));
    for (int k = 0; k < 3; k++) {
        lo[k] += sc->shift[k], hi[k] += sc->shift[k];
        sc->place_lo[k] += sc->shift[k], sc->place_hi[k] += sc->shift[k];
    }
    memcpy(sc->lo, lo, sizeof lo);
    memcpy(sc->hi, hi, sizeof hi);
    sw_renderer_set_scene_box(r, lo, hi);
    anim_program* active = scene_active_program(sc);
    if (active) anim_program_restart(active);
    return true;
}

/* ---- the viewer's state ------------------------------------------------------------- */

typedef struct viewer {
    const view_options* o;
    GLFWwindow* window;
    sw_renderer* renderer;
    int width, height;              /* framebuffer = renderer image, pixels */
    GLuint blit_fbo;                /* reads the renderer's image */
    view_overlay* overlay;
    view_scene scene;
    bool scripted;                  /* fixed time steps, no vsync */
    /* camera: an orbit around target */
    sw_camera camera, previous_camera;
    bool camera_moved;              /* else it follows the framing (resizes re-frame) */
    float target[3], distance, radius, azimuth, elevation;
    /* The command line's camera (--frame, --camera-target, ...): the
       points or box it fits, kept for re-framing after a resize. */
    bool option_framing;
    float* frame_points;
    size_t frame_point_count;
    float frame_lo[3], frame_hi[3];
    float follow_from[3];           /* --follow: the root's place at the last frame */
    bool follow_started;
    /* playback */
    double time, speed;
    /* The playback time of the loops already played: the animation program
       gets time + laps, so spring bones keep simulating across the loop's
       end instead of starting over (they restart only on a jump back). */
    double laps;
    bool playing, loop;
    /* what is drawn */
    sw_skin_method method;
    bool split, bones, overlay_hidden, bloom, motion_blur, night;
    double time_of_day;   /* the sky's hour, negative: the plain sky; Y steps it */
    bool pass_times; /* C: the frame cost per pass in the overlay */
    sw_render_view view;
    int32_t weight_node;
    sw_render_style style;
    sw_render_aa aa;
    uint32_t frame_index;
    bool first_frame;
    /* input */
    double cursor_x, cursor_y;      /* window coordinates */
    int drag;                       /* 0 none, 1 orbit, 2 pan, 3 scrub */
    bool skip_char;                 /* the key just pressed was handled as a key */
    char* pending_open;             /* a dropped file, opened at the next frame */
    bool quit;
    bool screenshot_now;
    /* numbers for the overlay */
    double frame_ms, pose_ms, last_frame_start;
    uint64_t skinned_before, skipped_before, skinned, skipped;
    char message[320];
    bool message_error;
    double message_until;
    /* VRM avatar keys (E, X, G, V), applied to the scene's program each frame once used */
    bool avatar_keys;
    int32_t expression;             /* the expression E selected, -1 none */
    uint32_t graph_parameter;       /* J/K: the graph parameter N/M change */
    float expression_weight;        /* X: 0, 0.5, 1 */
    bool gaze_camera, first_person;
    int status;                     /* a fatal error's exit status */
} viewer;

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void say(viewer* v, bool error, const char* format, ...) TOOL_PRINTF(3, 4);
/* A line in the overlay for a few seconds; errors also go to stderr. */
static void say(viewer* v, bool error, const char* format, ...) {
    va_list ap;
    va_start(ap, format);
    vsnprintf(v->message, sizeof v->message, format, ap);
    va_end(ap);
    v->message_error = error;
    v->message_until = now_s() + (error ? 8.0 : 3.0);
    if (error) fprintf(stderr, "sinew view: %s\n", v->message);
}

/* ---- camera ---------------------------------------------------------------------------- */

static float aspect_of(const viewer* v) { return (float)v->width / (float)v->height; }

/* The orbit's camera: the framing's formulas (sw_camera_frame_bounds) for
   the orbit's target, distance and angles. */
static void camera_from_orbit(viewer* v) {
    const float az = v->azimuth * (float)VIEW_PI / 180.0f, el = v->elevation * (float)VIEW_PI / 180.0f;
    const float dir[3] = {sinf(az) * cosf(el), sinf(el), cosf(az) * cosf(el)};
    v->camera = (sw_camera){.fov_y = v->camera.fov_y, .z_near = v->distance * 0.05f,
                            .z_far = v->distance + v->radius * 4.0f, .up = {0.0f, 1.0f, 0.0f}};
    for (int i = 0; i < 3; i++) v->camera.target[i] = v->target[i], v->camera.eye[i] = v->target[i] + dir[i] * v->distance;
}

/* Frames the whole clip's bounds from the orbit's angles, as sinew render does. */
static void camera_frame(viewer* v) {
    const view_scene* sc = &v->scene;
    sw_camera_frame_bounds(sc->lo, sc->hi, v->azimuth, v->elevation, aspect_of(v), &v->camera);
    v->radius = 0.0f;
    for (int i = 0; i < 3; i++) {
        const float h = 0.5f * (sc->hi[i] - sc->lo[i]);
        v->radius += h * h;
        v->target[i] = v->camera.target[i];
    }
    v->radius = sqrtf(v->radius);
    if (!(v->radius > 1e-6f)) v->radius = 1.0f;
    float d2 = 0.0f;
    for (int i = 0; i < 3; i++) d2 += (v->camera.eye[i] - v->camera.target[i]) * (v->camera.eye[i] - v->camera.target[i]);
    v->distance = sqrtf(d2);
    v->camera_moved = false;
}

/* The camera the command line asks for (scene_camera_place), its orbit
   (target, distance, angles) taken from it; the scene's radius as
   camera_frame sets it, for the zoom's limits. */
static void camera_from_options(viewer* v) {
    const view_scene* sc = &v->scene;
    scene_camera c = v->o->cam;
    c.azimuth = v->azimuth, c.elevation = v->elevation;
    scene_camera_place(&c, v->frame_lo, v->frame_hi, v->frame_points, v->frame_point_count, aspect_of(v), &v->camera);
    v->radius = 0.0f;
    float d2 = 0.0f;
    for (int i = 0; i < 3; i++) {
        const float h = 0.5f * (sc->hi[i] - sc->lo[i]);
        v->radius += h * h;
        v->target[i] = v->camera.target[i];
        d2 += (v->camera.eye[i] - v->camera.target[i]) * (v->camera.eye[i] - v->camera.target[i]);
    }
    v->radius = sqrtf(v->radius);
    if (!(v->radius > 1e-6f)) v->radius = 1.0f;
    v->distance = sqrtf(d2);
    v->camera_moved = false;
}

/* The first camera: as sinew render places it for the same options
   (auto takes the root's travel out beyond a tenth of the character's
   size, or with --follow). */
static bool camera_start(viewer* v, tool_error* err) {
    const scene_camera* c = &v->o->cam;
    view_scene* sc = &v->scene;
    scene_frame_nodes nodes;
    if (!scene_frame_resolve(sc->model, c, &nodes, err)) return false;
    bool ok = true;
    if (c->frame == SCENE_FRAME_AUTO || c->frame == SCENE_FRAME_PATH) {
        float size = 0.0f;
        for (int k = 0; k < 3; k++) size = fmaxf(size, sc->place_hi[k] - sc->place_lo[k]);
        const bool in_place = c->frame == SCENE_FRAME_AUTO && (c->follow || sc->travel > 0.1f * size);
        memcpy(v->frame_lo, in_place ? sc->place_lo : sc->lo, sizeof v->frame_lo);
        memcpy(v->frame_hi, in_place ? sc->place_hi : sc->hi, sizeof v->frame_hi);
        v->option_framing = in_place || c->has_target || c->distance > 0.0 || c->fov > 0.0;
    } else {
        ok = scene_pose(sc, v->o->time, true, err) &&
             scene_frame_collect(sc->model, &sc->pose, &nodes, c, &v->frame_points, &v->frame_point_count, err);
        for (size_t i = 0; ok && i < v->frame_point_count * 3; i++) v->frame_points[i] += sc->shift[i % 3]; /* --place */
        v->option_framing = true;
    }
    scene_frame_nodes_free(&nodes);
    if (!ok) return false;
    if (v->option_framing) camera_from_options(v);
    else camera_frame(v);
    return true;
}

/* --follow: the orbit's target moves across the ground with the root. */
static void camera_follow(viewer* v) {
    const view_scene* sc = &v->scene;
    if (!v->o->cam.follow || sc->root < 0) return;
    const float* at = &sc->pose.world[sc->root].m[0][0];
    const float now[3] = {at[3], 0.0f, at[11]};
    if (v->follow_started) {
        v->target[0] += now[0] - v->follow_from[0], v->target[2] += now[2] - v->follow_from[2];
        camera_from_orbit(v);
    }
    memcpy(v->follow_from, now, sizeof now);
    v->follow_started = true;
}

static void camera_orbit(viewer* v, double dx, double dy) {
    v->azimuth -= (float)dx * 0.4f;
    v->elevation = fminf(89.0f, fmaxf(-89.0f, v->elevation + (float)dy * 0.4f));
    v->camera_moved = true;
    camera_from_orbit(v);
}

/* Moves the target across the view by a drag of (dx, dy) framebuffer pixels. */
static void camera_pan(viewer* v, double dx, double dy) {
    float f[3], s[3], u[3];
    for (int i = 0; i < 3; i++) f[i] = v->camera.target[i] - v->camera.eye[i];
    float fl = sqrtf(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
    for (int i = 0; i < 3; i++) f[i] /= fl;
    s[0] = -f[2], s[1] = 0.0f, s[2] = f[0]; /* f × up, up = +Y */
    float sl = sqrtf(s[0] * s[0] + s[2] * s[2]);
    if (!(sl > 1e-6f)) s[0] = 1.0f, s[2] = 0.0f, sl = 1.0f;
    s[0] /= sl, s[2] /= sl;
    u[0] = s[1] * f[2] - s[2] * f[1], u[1] = s[2] * f[0] - s[0] * f[2], u[2] = s[0] * f[1] - s[1] * f[0];
    const float per_pixel = 2.0f * v->distance * tanf(0.5f * v->camera.fov_y) / (float)v->height;
    for (int i = 0; i < 3; i++) v->target[i] += (-(float)dx * s[i] + (float)dy * u[i]) * per_pixel;
    v->camera_moved = true;
    camera_from_orbit(v);
}

static void camera_zoom(viewer* v, double notches) {
    v->distance *= powf(0.88f, (float)notches);
    v->distance = fminf(fmaxf(v->distance, v->radius * 0.05f), v->radius * 200.0f);
    v->camera_moved = true;
    camera_from_orbit(v);
}

static void camera_preset(viewer* v, float azimuth, float elevation) {
    v->azimuth = azimuth, v->elevation = elevation;
    camera_frame(v);
    v->camera_moved = true;
}

/* ---- picking: the joint under the cursor ------------------------------------------- */

/* Ray (origin, direction) against triangle (a, b, c), Möller–Trumbore: the
   distance along the ray, or -1; the barycentric (u, v) of the hit. */
static float ray_triangle(const float o[3], const float d[3], const float* a, const float* b, const float* c,
                          float* out_u, float* out_v) {
    float e1[3], e2[3], p[3], t[3], q[3];
    for (int i = 0; i < 3; i++) e1[i] = b[i] - a[i], e2[i] = c[i] - a[i], t[i] = o[i] - a[i];
    p[0] = d[1] * e2[2] - d[2] * e2[1], p[1] = d[2] * e2[0] - d[0] * e2[2], p[2] = d[0] * e2[1] - d[1] * e2[0];
    const float det = e1[0] * p[0] + e1[1] * p[1] + e1[2] * p[2];
    if (fabsf(det) < 1e-12f) return -1.0f;
    const float inv = 1.0f / det;
    const float u = (t[0] * p[0] + t[1] * p[1] + t[2] * p[2]) * inv;
    if (u < 0.0f || u > 1.0f) return -1.0f;
    q[0] = t[1] * e1[2] - t[2] * e1[1], q[1] = t[2] * e1[0] - t[0] * e1[2], q[2] = t[0] * e1[1] - t[1] * e1[0];
    const float w = (d[0] * q[0] + d[1] * q[1] + d[2] * q[2]) * inv;
    if (w < 0.0f || u + w > 1.0f) return -1.0f;
    *out_u = u, *out_v = w;
    return (e2[0] * q[0] + e2[1] * q[1] + e2[2] * q[2]) * inv;
}

/* The node whose weight dominates the vertex nearest the first surface
   under framebuffer pixel (px, py), skinned on the CPU at the current
   pose (sw_deform_primitive, linear blend); -1 when the ray hits nothing. */
static int32_t pick_joint(viewer* v, double px, double py) {
    const sw_camera* c = &v->camera;
    float f[3], s[3], u[3], dir[3];
    for (int i = 0; i < 3; i++) f[i] = c->target[i] - c->eye[i];
    float fl = sqrtf(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
    for (int i = 0; i < 3; i++) f[i] /= fl;
    s[0] = f[1] * c->up[2] - f[2] * c->up[1], s[1] = f[2] * c->up[0] - f[0] * c->up[2],
    s[2] = f[0] * c->up[1] - f[1] * c->up[0];
    float sl = sqrtf(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
    for (int i = 0; i < 3; i++) s[i] /= sl;
    u[0] = s[1] * f[2] - s[2] * f[1], u[1] = s[2] * f[0] - s[0] * f[2], u[2] = s[0] * f[1] - s[1] * f[0];
    const float th = tanf(0.5f * c->fov_y);
    const float nx = (float)(2.0 * px / v->width - 1.0), ny = (float)(1.0 - 2.0 * py / v->height);
    for (int i = 0; i < 3; i++) dir[i] = f[i] + s[i] * nx * th * aspect_of(v) + u[i] * ny * th;

    const sw_model* a = v->scene.model;
    float best = FLT_MAX;
    int32_t picked = -1;
    for (size_t n = 0; n < a->node_count; n++) {
        if (a->nodes[n].mesh < 0) continue;
        const sw_model_mesh* mesh = &a->meshes[a->nodes[n].mesh];
        for (size_t p = 0; p < mesh->primitive_count; p++) {
            const sw_model_primitive* prim = &mesh->primitives[p];
            if (prim->mode != SW_MODEL_TRIANGLES || prim->vertex_count == 0) continue;
            size_t scratch_size = sw_deform_scratch_size(a, n, p);
            void* scratch = aligned_alloc(16, (scratch_size + 15) / 16 * 16 + 16);
            float* positions = malloc(prim->vertex_count * 3 * sizeof(float));
            sw_deform d = {.node = n, .primitive = p, .method = SW_SKIN_LBS, .scratch = scratch,
                           .out_positions = positions};
            sw_diag diag;
            if (!scratch || !positions || sw_deform_primitive(a, &v->scene.pose, &d, &diag) != SW_OK) {
                free(scratch), free(positions);
                continue;
            }
            const size_t corners = prim->indices ? prim->index_count : prim->vertex_count;
            for (size_t t = 0; t + 3 <= corners; t += 3) {
                uint32_t k[3];
                for (int e = 0; e < 3; e++) k[e] = prim->indices ? prim->indices[t + (size_t)e] : (uint32_t)(t + (size_t)e);
                if (k[0] >= prim->vertex_count || k[1] >= prim->vertex_count || k[2] >= prim->vertex_count) continue;
                float bu, bv;
                float hit = ray_triangle(c->eye, dir, positions + 3 * k[0], positions + 3 * k[1], positions + 3 * k[2],
                                         &bu, &bv);
                if (!(hit > 0.0f) || hit >= best) continue;
                best = hit;
                /* The corner nearest the hit, and its heaviest influence. */
                const float bary[3] = {1.0f - bu - bv, bu, bv};
                int corner = bary[1] > bary[0] ? 1 : 0;
                if (bary[2] > bary[corner]) corner = 2;
                const size_t vertex = k[corner];
                const sw_model_node* node = &a->nodes[n];
                picked = (int32_t)n;
                if (node->skin >= 0 && prim->influence_count > 0) {
                    const sw_model_skin* skin = &a->skins[node->skin];
                    const size_t slots = (size_t)prim->influence_count;
                    size_t heaviest = 0;
                    for (size_t e = 1; e < slots; e++)
                        if (prim->weights[vertex * slots + e] > prim->weights[vertex * slots + heaviest]) heaviest = e;
                    const uint16_t j = prim->joints[vertex * slots + heaviest];
                    if (j < skin->joint_count) picked = (int32_t)skin->joints[j];
                }
            }
            free(scratch), free(positions);
        }
    }
    return picked;
}

/* ---- renderer and scene changes --------------------------------------------------- */

/* The scene into the renderer, with the first-person copies of its VRM's
   skinned `auto` meshes (avatar_program.h). */
static sw_result set_renderer_scene(sw_renderer* r, const view_scene* sc, sw_diag* diag) {
    sw_result res = sw_renderer_set_scene(r, sc->model, sc->materials, diag);
    if (res == SW_OK)
        res = sw_renderer_set_erased_joints(r, sc->prog_ready ? sc->prog.avatar.erase_joints : NULL, NULL, diag);
    if (res == SW_OK && sc->stage && sc->stage->model) res = scene_stage_apply(sc->stage, r, diag); /* --stage */
    return res;
}

/* A renderer of the framebuffer's size for the scene (after a resize). */
static bool make_renderer(viewer* v, tool_error* err) {
    sw_renderer_destroy(v->renderer);
    v->renderer = NULL;
    sw_diag diag;
    sw_renderer_desc desc = {.width = v->width, .height = v->height};
    if (sw_renderer_create(&desc, &v->renderer, &diag) != SW_OK ||
        set_renderer_scene(v->renderer, &v->scene, &diag) != SW_OK)
        return tool_error_set(err, "%s: %s", v->scene.model->path, diag.message);
    sw_renderer_set_scene_box(v->renderer, v->scene.lo, v->scene.hi);
    glBindFramebuffer(GL_FRAMEBUFFER, v->blit_fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D,
                           sw_renderer_image_texture(v->renderer), 0);
    GLenum complete = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    if (complete != GL_FRAMEBUFFER_COMPLETE) return tool_error_set(err, "cannot read the renderer's image (0x%x)", complete);
    v->first_frame = true;
    return true;
}

static void reset_weight_joint(viewer* v) {
    const view_scene* sc = &v->scene;
    v->weight_node = sc->joint_count ? (int32_t)sc->joints[0] : 0;
    if (v->view == SW_RENDER_VIEW_WEIGHTS && sc->model->node_count == 0) v->view = SW_RENDER_VIEW_SHADED;
}

/* Opens `path` in place of the current model. On failure the current
   model stays (in the renderer too) and the overlay says why. */
static void open_model(viewer* v, const char* path) {
    static const anim_options no_options; /* a dropped model gets plain playback */
    view_scene next;
    tool_error err;
    if (!scene_load(&next, path, &v->o->load, &no_options, NULL, &err)) {
        say(v, true, "%s", err.message);
        return;
    }
    next.stage = v->scene.stage;
    sw_diag diag;
    bool ok = set_renderer_scene(v->renderer, &next, &diag) == SW_OK;
    if (!ok) tool_error_set(&err, "%s: %s", next.model->path, diag.message);
    else ok = scene_bounds(&next, v->renderer, 0.0, &err);
    if (!ok) {
        say(v, true, "%s", err.message);
        /* The renderer had dropped the old scene (and may still point at the
           new model): the old one comes back before the new one goes. */
        const bool restored = set_renderer_scene(v->renderer, &v->scene, &diag) == SW_OK;
        scene_free(&next);
        if (!restored) {
            say(v, true, "%s: %s", v->scene.model->path, diag.message);
            v->status = TOOL_EXIT_FAILURE, v->quit = true;
            return;
        }
        sw_renderer_set_scene_box(v->renderer, v->scene.lo, v->scene.hi);
        v->first_frame = true;
        return;
    }
    scene_free(&v->scene);
    v->scene = next;
    v->laps = 0.0, v->time = 0.0;
    v->option_framing = false, v->follow_started = false; /* a dropped model gets the plain framing */
    v->playing = v->scene.clip >= 0;
    reset_weight_joint(v);
    camera_frame(v);
    v->first_frame = true;
    say(v, false, "opened %s", path);
}

static void change_clip(viewer* v, int step) {
    view_scene* sc = &v->scene;
    const long n = (long)sc->model->animation_count;
    if (n == 0) {
        say(v, false, "%s has no animations", sc->model->path);
        return;
    }
    const long before = sc->clip;
    sc->clip = ((sc->clip < 0 ? (step > 0 ? -1 : 0) : sc->clip) + step + n) % n;
    tool_error err;
    if (!scene_program(sc, &err) || !scene_bounds(sc, v->renderer, 0.0, &err)) {
        say(v, true, "%s", err.message);
        sc->clip = before;
        if (!scene_program(sc, &err)) v->status = TOOL_EXIT_FAILURE, v->quit = true;
        return;
    }
    v->laps = 0.0, v->time = 0.0; /* playing or paused as before */
    if (!v->camera_moved && !v->option_framing) camera_frame(v);
    v->follow_started = false;
    v->first_frame = true;
}

/* Spring bones simulate every step from the start (anim_program.h), up to
   an hour: a viewer left looping longer starts them over once. */
#define VIEW_MAX_LAPS_S 1800.0

/* Wraps or clamps the time into the clip. */
static void settle_time(viewer* v) {
    const double d = clip_duration(&v->scene);
    if (!(d > 0.0)) return;
    if (v->loop) {
        if (v->time >= d) v->laps += floor(v->time / d) * d;
        if (v->time < 0.0 || v->laps > VIEW_MAX_LAPS_S) v->laps = 0.0;
        if (v->time >= d || v->time < 0.0) v->time = fmod(fmod(v->time, d) + d, d);
    } else if (v->time > d) {
        v->time = d, v->playing = false;
    } else if (v->time < 0.0) {
        v->time = 0.0;
    }
}

static void step_frames(viewer* v, int frames) {
    v->playing = false;
    v->time += frames / v->o->fps;
    if (v->time < 0.0 && !v->loop) v->time = 0.0;
    settle_time(v);
}

/* ---- screenshots and dumps -------------------------------------------------------------- */

/* Writes the framebuffer's back buffer (what the next swap shows) as a PNG. */
static bool write_screenshot(viewer* v, const char* path, tool_error* err) {
    const size_t row = (size_t)v->width * 4;
    uint8_t* pixels = malloc(row * (size_t)v->height);
    uint8_t* flipped = malloc(row * (size_t)v->height);
    if (!pixels || !flipped) {
        free(pixels), free(flipped);
        return tool_error_set(err, "out of memory for a %dx%d screenshot", v->width, v->height);
    }
    glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
    glReadBuffer(GL_BACK);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, v->width, v->height, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    for (int y = 0; y < v->height; y++) memcpy(flipped + (size_t)y * row, pixels + (size_t)(v->height - 1 - y) * row, row);
    free(pixels);
    frame_output* out = NULL;
    bool ok = frame_output_open(&out, path, v->width, v->height, 30.0, 1, err) && frame_output_write(out, flipped, err);
    if (ok) {
        ok = frame_output_finish(out, err);
    } else if (out) {
        frame_output_abort(out);
    }
    free(flipped);
    if (ok) tool_wrote(v->o->quiet, "%s (%d×%d)", path, v->width, v->height);
    return ok;
}

/* P: the first free sinew-view-NNNN.png in the current folder. */
static void screenshot_key(viewer* v) {
    char name[64];
    for (int i = 1; i < 10000; i++) {
        snprintf(name, sizeof name, "sinew-view-%04d.png", i);
        if (access(name, F_OK) != 0 && errno == ENOENT) {
            tool_error err;
            if (write_screenshot(v, name, &err)) say(v, false, "wrote %s", name);
            else say(v, true, "%s", err.message);
            return;
        }
    }
    say(v, true, "no free name for a screenshot (sinew-view-0001..9999.png all exist)");
}

/* dump:PATH — the weights or retention view's values, one line per vertex. */
static bool write_dump(viewer* v, const char* path, tool_error* err) {
    const sw_model* a = v->scene.model;
    tool_atomic_file f;
    if (!tool_atomic_open(&f, path, err)) return false;
    char line[400];
    const char* joint = v->weight_node >= 0 && (size_t)v->weight_node < a->node_count ? a->nodes[v->weight_node].name
                                                                                      : NULL;
    int n = v->view == SW_RENDER_VIEW_RETENTION
                ? snprintf(line, sizeof line, "# retention view: node primitive vertex retention\n")
                : snprintf(line, sizeof line, "# weights view of node %d '%.200s': node primitive vertex weight\n",
                           (int)v->weight_node, joint ? joint : "");
    bool ok = tool_atomic_write(&f, line, (size_t)n);
    for (size_t node = 0; ok && node < a->node_count; node++) {
        if (a->nodes[node].mesh < 0) continue;
        const sw_model_mesh* mesh = &a->meshes[a->nodes[node].mesh];
        for (size_t p = 0; ok && p < mesh->primitive_count; p++) {
            const size_t count = mesh->primitives[p].vertex_count;
            float* values = malloc((count + 1) * sizeof(float));
            sw_diag diag;
            if (!values) {
                ok = tool_error_set(err, "out of memory");
            } else if (sw_renderer_read_vertex_values(v->renderer, node, p, values, &diag) != SW_OK) {
                ok = tool_error_set(err, "dump: %s", diag.message);
            }
            for (size_t i = 0; ok && i < count; i++) {
                n = snprintf(line, sizeof line, "%zu %zu %zu %.6f\n", node, p, i, (double)values[i]);
                ok = tool_atomic_write(&f, line, (size_t)n);
            }
            free(values);
        }
    }
    if (!ok) {
        if (f.write_errno) tool_error_set(err, "cannot write '%s': %s", path, strerror(f.write_errno));
        tool_atomic_abort(&f);
        return false;
    }
    if (!tool_atomic_commit(&f, err)) return false;
    tool_wrote(v->o->quiet, "%s", path);
    return true;
}

/* ---- input ------------------------------------------------------------------------------ */

/* The timeline bar's rectangle, framebuffer pixels. */
static void timeline_rect(const viewer* v, int scale, float* x, float* y, float* w, float* h) {
    const float margin = 4.0f * (float)scale;
    *h = 6.0f * (float)scale;
    *x = margin, *w = (float)v->width - 2.0f * margin;
    *y = (float)v->height - margin - *h;
}

static int overlay_scale(const viewer* v) {
    float sx = 1.0f, sy = 1.0f;
    glfwGetWindowContentScale(v->window, &sx, &sy);
    int s = (int)lroundf(fmaxf(sx, sy));
    return s < 1 ? 1 : s > 8 ? 8 : s;
}

/* Window coordinates to framebuffer pixels (they differ on high-DPI screens). */
static void to_pixels(const viewer* v, double wx, double wy, double* px, double* py) {
    int ww = 1, wh = 1;
    glfwGetWindowSize(v->window, &ww, &wh);
    *px = wx * v->width / (ww > 0 ? ww : 1);
    *py = wy * v->height / (wh > 0 ? wh : 1);
}

static bool on_timeline(const viewer* v, double px, double py) {
    if (v->overlay_hidden || !(clip_duration(&v->scene) > 0.0)) return false;
    float x, y, w, h;
    timeline_rect(v, overlay_scale(v), &x, &y, &w, &h);
    return px >= x && px <= x + w && py >= y - h && py <= y + 2.0 * h; /* a little slack above and below */
}

static void scrub(viewer* v, double px) {
    float x, y, w, h;
    timeline_rect(v, overlay_scale(v), &x, &y, &w, &h);
    double f = (px - x) / w;
    f = f < 0.0 ? 0.0 : f > 1.0 ? 1.0 : f;
    v->laps = 0.0, v->time = f * clip_duration(&v->scene);
    if (v->loop && v->time >= clip_duration(&v->scene)) v->time = 0.0; /* the end is the start */
}

static void set_view(viewer* v, sw_render_view view) {
    if (view == SW_RENDER_VIEW_WEIGHTS && v->weight_node < 0) reset_weight_joint(v);
    v->view = view;
}

static void cycle_joint(viewer* v, int step) {
    const view_scene* sc = &v->scene;
    if (sc->joint_count == 0) {
        say(v, false, "%s has no skin joints", sc->model->path);
        return;
    }
    size_t at = 0;
    while (at < sc->joint_count && (int64_t)sc->joints[at] < (int64_t)v->weight_node) at++;
    if (at < sc->joint_count && (int64_t)sc->joints[at] == (int64_t)v->weight_node)
        at = (at + sc->joint_count + (size_t)(step > 0 ? 1 : sc->joint_count - 1)) % sc->joint_count;
    else if (step < 0)
        at = (at + sc->joint_count - 1) % sc->joint_count;
    else
        at %= sc->joint_count;
    v->weight_node = (int32_t)sc->joints[at];
    v->view = SW_RENDER_VIEW_WEIGHTS;
}

static void handle_key(viewer* v, view_key key, int mods) {
    switch (key) {
    case VIEW_KEY_ESCAPE: v->quit = true; break;
    case VIEW_KEY_SPACE:
        v->playing = !v->playing && v->scene.clip >= 0;
        if (v->playing && !v->loop && v->time >= clip_duration(&v->scene)) v->time = 0.0;
        break;
    case VIEW_KEY_LEFT: step_frames(v, -1); break;
    case VIEW_KEY_RIGHT: step_frames(v, 1); break;
    case VIEW_KEY_HOME: v->laps = 0.0, v->time = 0.0; break;
    case VIEW_KEY_END:
        v->laps = 0.0, v->time = clip_duration(&v->scene), v->playing = false;
        if (v->loop) v->time = fmax(0.0, v->time - 1.0 / v->o->fps); /* the end of a loop is its start */
        break;
    case VIEW_KEY_TAB: cycle_joint(v, mods & VIEW_MOD_SHIFT ? -1 : 1); break;
    case VIEW_KEY_UP: camera_orbit(v, 0.0, 15.0 / 0.4); break;
    case VIEW_KEY_DOWN: camera_orbit(v, 0.0, -15.0 / 0.4); break;
    case VIEW_KEY_KP1: camera_preset(v, mods & VIEW_MOD_CTRL ? 180.0f : 0.0f, 0.0f); break;
    case VIEW_KEY_KP3: camera_preset(v, mods & VIEW_MOD_CTRL ? -90.0f : 90.0f, 0.0f); break;
    case VIEW_KEY_KP7: camera_preset(v, 0.0f, mods & VIEW_MOD_CTRL ? -88.0f : 88.0f); break;
    case VIEW_KEY_NONE: break;
    }
}

/* E, X, G, V: the VRM avatar's expression, its weight, eyes on the camera,
   first-person view (avatar_program.h). */
static void avatar_key(viewer* v, char c) {
    const sw_vrm* vrm = v->scene.prog_ready ? v->scene.prog.avatar.vrm : NULL;
    if (!vrm) {
        say(v, false, "not a VRM avatar: no expressions, gaze or first person");
        return;
    }
    v->avatar_keys = true;
    if (c == 'e') {
        if (v->expression >= 0) avatar_program_set_weight(&v->scene.prog.avatar, (size_t)v->expression, 0.0f);
        v->expression = v->expression + 1 < (int32_t)vrm->expression_count ? v->expression + 1 : -1;
        if (v->expression >= 0 && v->expression_weight == 0.0f) v->expression_weight = 1.0f;
    } else if (c == 'x') {
        v->expression_weight = v->expression_weight >= 1.0f ? 0.0f : v->expression_weight + 0.5f;
    } else if (c == 'g') {
        v->gaze_camera = !v->gaze_camera;
    } else {
        v->first_person = !v->first_person;
    }
    if (!avatar_program_set_first_person(&v->scene.prog.avatar, v->first_person)) say(v, true, "out of memory");
}

/* The keys' state into the scene's program (remade when the clip or model changes). */
static void avatar_keys_apply(viewer* v) {
    avatar_program* a = &v->scene.prog.avatar;
    if (!v->avatar_keys || !v->scene.prog_ready || !a->vrm) return;
    if (v->expression >= 0 && (size_t)v->expression < a->vrm->expression_count)
        avatar_program_set_weight(a, (size_t)v->expression, v->expression_weight);
    avatar_program_set_gaze(a, v->gaze_camera ? v->camera.eye : NULL);
    if (a->first_person != v->first_person) (void)avatar_program_set_first_person(a, v->first_person);
}

#define GRAPH_KEY_STEP 0.25f

/* J K N M U: the graph's parameters, changed from the time shown on
   (graph_program_set_live: replays repeat them, like a recording). */
static void graph_key(viewer* v, char c) {
    view_scene* sc = &v->scene;
    if (!sc->prog_ready || !sc->prog.has_graph) {
        say(v, false, "no --graph: J K N M U change a graph's parameters");
        return;
    }
    graph_program* g = &sc->prog.graph;
    const sw_graph* graph = &g->file->graph;
    const uint32_t count = (uint32_t)graph->parameter_count;
    if (count == 0) {
        say(v, false, "the graph has no parameters");
        return;
    }
    if (c == 'u') {
        graph_program_clear_live(g);
        say(v, false, "graph parameters: the --set alone");
        return;
    }
    if (c == 'j' || c == 'k') {
        v->graph_parameter = (v->graph_parameter + (c == 'j' ? 1u : count - 1u)) % count;
        return;
    }
    const uint32_t i = v->graph_parameter % count;
    const sw_graph_parameter* p = &graph->parameters[i];
    float value = graph_program_value(g, i);
    if (p->type == SW_GRAPH_FLOAT) value += c == 'm' ? GRAPH_KEY_STEP : -GRAPH_KEY_STEP;
    else if (p->type == SW_GRAPH_BOOL) value = c == 'm' ? 1.0f : 0.0f;
    else if (c == 'm') value = 1.0f;
    else return;
    if (!graph_program_set_live(g, i, value, v->time)) say(v, true, "out of memory");
}

static void handle_char(viewer* v, char c) {
    switch (c) {
    case 'j': case 'k': case 'n': case 'm': case 'u': graph_key(v, c); break;
    case 'e': case 'x': case 'g': case 'v': avatar_key(v, c); break;
    case '[': change_clip(v, -1); break;
    case ']': change_clip(v, 1); break;
    case '-': case '_': v->speed = fmax(1.0 / 16.0, v->speed * 0.5); break;
    case '+': case '=': v->speed = fmin(16.0, v->speed * 2.0); break;
    case 'o': v->loop = !v->loop, v->laps = 0.0, settle_time(v); break;
    case 'l': v->method = SW_SKIN_LBS, v->split = false; break;
    case 'd': v->method = SW_SKIN_DQS, v->split = false; break;
    case 's': v->split = !v->split; break;
    case 'b': v->bones = !v->bones; break;
    case 'w': {
        double px, py;
        to_pixels(v, v->cursor_x, v->cursor_y, &px, &py);
        int32_t node = pick_joint(v, px, py);
        if (node >= 0) v->weight_node = node;
        else if (v->weight_node < 0) reset_weight_joint(v);
        set_view(v, SW_RENDER_VIEW_WEIGHTS);
        break;
    }
    case 'r': v->view = v->view == SW_RENDER_VIEW_RETENTION ? SW_RENDER_VIEW_SHADED : SW_RENDER_VIEW_RETENTION; break;
    case '1': case '2': case '3': case '4': case '5': case '6': case '7': case '8':
        set_view(v, (const sw_render_view[]){SW_RENDER_VIEW_SHADED, SW_RENDER_VIEW_NORMALS, SW_RENDER_VIEW_MOTION,
                                              SW_RENDER_VIEW_UV, SW_RENDER_VIEW_WEIGHTS,
                                              SW_RENDER_VIEW_RETENTION, SW_RENDER_VIEW_AO,
                                              SW_RENDER_VIEW_DEPTH}[c - '1']);
        break;
    case 't': v->style = (sw_render_style)((v->style + 1) % 3); break;
    case 'a': v->aa = (sw_render_aa)((v->aa + 1) % 4), v->first_frame = true; break;
    case 'h': v->overlay_hidden = !v->overlay_hidden; break;
    case 'c': v->pass_times = !v->pass_times; break;
    case 'p': v->screenshot_now = true; break;
    case 'f': camera_frame(v); break;
    case 'y': v->time_of_day = v->time_of_day < 0.0 ? 6.0 : fmod(v->time_of_day + 1.0, 24.0); break;
    default: break;
    }
}

static void handle_button(viewer* v, int button, bool press, int mods) {
    if (!press) {
        v->drag = 0;
        return;
    }
    double px, py;
    to_pixels(v, v->cursor_x, v->cursor_y, &px, &py);
    if (button == GLFW_MOUSE_BUTTON_LEFT && on_timeline(v, px, py)) {
        v->drag = 3;
        scrub(v, px);
    } else if (button == GLFW_MOUSE_BUTTON_MIDDLE || (button == GLFW_MOUSE_BUTTON_LEFT && (mods & VIEW_MOD_SHIFT))) {
        v->drag = 2;
    } else if (button == GLFW_MOUSE_BUTTON_LEFT) {
        v->drag = 1;
    }
}

static void handle_cursor(viewer* v, double x, double y) {
    double px0, py0, px1, py1;
    to_pixels(v, v->cursor_x, v->cursor_y, &px0, &py0);
    to_pixels(v, x, y, &px1, &py1);
    v->cursor_x = x, v->cursor_y = y;
    if (v->drag == 1) camera_orbit(v, px1 - px0, py1 - py0);
    else if (v->drag == 2) camera_pan(v, px1 - px0, py1 - py0);
    else if (v->drag == 3) scrub(v, px1);
}

static int view_mods(int glfw_mods) {
    return (glfw_mods & GLFW_MOD_SHIFT ? VIEW_MOD_SHIFT : 0) | (glfw_mods & GLFW_MOD_CONTROL ? VIEW_MOD_CTRL : 0);
}

static void on_key(GLFWwindow* window, int key, int scancode, int action, int mods) {
    (void)scancode;
    viewer* v = glfwGetWindowUserPointer(window);
    if (action == GLFW_RELEASE) return;
    v->skip_char = false;
    static const struct { int glfw; view_key key; } keys[] = {
        {GLFW_KEY_ESCAPE, VIEW_KEY_ESCAPE}, {GLFW_KEY_SPACE, VIEW_KEY_SPACE}, {GLFW_KEY_TAB, VIEW_KEY_TAB},
        {GLFW_KEY_LEFT, VIEW_KEY_LEFT},     {GLFW_KEY_RIGHT, VIEW_KEY_RIGHT}, {GLFW_KEY_UP, VIEW_KEY_UP},
        {GLFW_KEY_DOWN, VIEW_KEY_DOWN},     {GLFW_KEY_HOME, VIEW_KEY_HOME},   {GLFW_KEY_END, VIEW_KEY_END},
        {GLFW_KEY_KP_1, VIEW_KEY_KP1},      {GLFW_KEY_KP_3, VIEW_KEY_KP3},    {GLFW_KEY_KP_7, VIEW_KEY_KP7},
    };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (keys[i].glfw == key) {
            if (action == GLFW_REPEAT && key != GLFW_KEY_LEFT && key != GLFW_KEY_RIGHT && key != GLFW_KEY_UP &&
                key != GLFW_KEY_DOWN)
                return;
            handle_key(v, keys[i].key, view_mods(mods));
            /* Keypad digits and space also type a character: not a second command. */
            v->skip_char = true;
            return;
        }
}

/* Printable keys arrive as characters, so [ ] - + follow the keyboard layout. */
static void on_char(GLFWwindow* window, unsigned int codepoint) {
    viewer* v = glfwGetWindowUserPointer(window);
    if (v->skip_char) {
        v->skip_char = false;
        return;
    }
    if (codepoint < 128 && codepoint > ' ') handle_char(v, (char)tolower((int)codepoint));
}

static void on_button(GLFWwindow* window, int button, int action, int mods) {
    handle_button(glfwGetWindowUserPointer(window), button, action == GLFW_PRESS, view_mods(mods));
}

static void on_cursor(GLFWwindow* window, double x, double y) { handle_cursor(glfwGetWindowUserPointer(window), x, y); }

static void on_scroll(GLFWwindow* window, double dx, double dy) {
    (void)dx;
    camera_zoom(glfwGetWindowUserPointer(window), dy);
}

static void on_drop(GLFWwindow* window, int count, const char** paths) {
    viewer* v = glfwGetWindowUserPointer(window);
    if (count < 1) return;
    free(v->pending_open);
    v->pending_open = strdup(paths[0]);
}

/* One script step (before its frame is drawn). */
static void play_step(viewer* v, const view_step* st) {
    switch (st->kind) {
    case VIEW_STEP_CHAR:
        if (st->ch == ' ') handle_key(v, VIEW_KEY_SPACE, st->mods);
        else handle_char(v, st->ch);
        break;
    case VIEW_STEP_KEY: handle_key(v, st->key, st->mods); break;
    case VIEW_STEP_WAIT: break;
    case VIEW_STEP_MOVE: handle_cursor(v, st->at[0], st->at[1]); break;
    case VIEW_STEP_CLICK:
        handle_cursor(v, st->at[0], st->at[1]);
        handle_button(v, GLFW_MOUSE_BUTTON_LEFT, true, st->mods);
        handle_button(v, GLFW_MOUSE_BUTTON_LEFT, false, st->mods);
        break;
    case VIEW_STEP_DRAG:
    case VIEW_STEP_MDRAG: {
        const int button = st->kind == VIEW_STEP_DRAG ? GLFW_MOUSE_BUTTON_LEFT : GLFW_MOUSE_BUTTON_MIDDLE;
        handle_cursor(v, st->at[0], st->at[1]);
        handle_button(v, button, true, st->mods);
        for (int i = 1; i <= 8; i++) /* in steps, as a hand would move */
            handle_cursor(v, st->at[0] + (st->at[2] - st->at[0]) * i / 8, st->at[1] + (st->at[3] - st->at[1]) * i / 8);
        handle_button(v, button, false, st->mods);
        break;
    }
    case VIEW_STEP_SCROLL: camera_zoom(v, st->at[0]); break;
    case VIEW_STEP_SIZE: glfwSetWindowSize(v->window, (int)st->at[0], (int)st->at[1]); break;
    case VIEW_STEP_OPEN: open_model(v, st->path); break;
    case VIEW_STEP_DROP: {
        const char* paths[1] = {st->path};
        on_drop(v->window, 1, paths);
        break;
    }
    case VIEW_STEP_DUMP: {
        tool_error err;
        if (!write_dump(v, st->path, &err)) say(v, true, "%s", err.message);
        break;
    }
    }
}

/* ---- one frame ---------------------------------------------------------------------------- */

static const char* method_name(const viewer* v) { return v->split ? "LBS|DQS" : v->method == SW_SKIN_DQS ? "DQS" : "LBS"; }

/* The frame cost per pass, two lines: the GPU timer queries' answers (on
   llvmpipe: its rasteriser threads' time) and the CPU time to submit each
   pass, newest frame. Returns 2. */
static int pass_time_lines(const sw_renderer* r, char* gpu, char* cpu, size_t size) {
    sw_render_pass_time times[16];
    size_t n = sw_renderer_get_pass_times(r, times, 16);
    if (n > 16) n = 16;
    int g = snprintf(gpu, size, "GPU ms"), c = snprintf(cpu, size, "CPU ms");
    for (size_t i = 0; i < n; i++) {
        if (g > 0 && (size_t)g < size) g += snprintf(gpu + g, size - (size_t)g, "  %s %.2f", times[i].name, times[i].gpu_ms);
        if (c > 0 && (size_t)c < size) c += snprintf(cpu + c, size - (size_t)c, "  %s %.2f", times[i].name, times[i].cpu_ms);
    }
    return 2;
}

/* --graph: the parameters, top right, the one J/K selected marked. */
static void draw_graph_panel(viewer* v, int scale, float pad, float line) {
    const view_scene* sc = &v->scene;
    if (!sc->prog_ready || !sc->prog.has_graph) return;
    view_overlay* o = v->overlay;
    const graph_program* g = &sc->prog.graph;
    const sw_graph* graph = &g->file->graph;
    enum { shown = 12 };
    char lines[shown + 1][96];
    int n = 0;
    snprintf(lines[n++], sizeof lines[0], "parameters  J K  N M  U");
    const uint32_t count = (uint32_t)graph->parameter_count, selected = count ? v->graph_parameter % count : 0;
    const uint32_t first = selected >= shown ? selected - shown + 1 : 0;
    for (uint32_t i = first; i < count && n <= shown; ++i) {
        const sw_graph_parameter* p = &graph->parameters[i];
        float value = sw_graph_get(&g->instance, i);
        char text[24];
        if (p->type == SW_GRAPH_FLOAT) snprintf(text, sizeof text, "%.2f", (double)value);
        else snprintf(text, sizeof text, "%s", value != 0.0f ? (p->type == SW_GRAPH_BOOL ? "on" : "set") : "off");
        snprintf(lines[n++], sizeof lines[0], "%s %.40s  %s", i == selected ? ">" : " ", p->name, text);
    }
    float widest = 0.0f;
    for (int i = 0; i < n; i++) widest = fmaxf(widest, view_overlay_text_width(o, lines[i]));
    static const float panel[4] = {0.0f, 0.0f, 0.0f, 0.55f}, text[4] = {0.92f, 0.94f, 0.96f, 1.0f},
                       mark[4] = {1.0f, 0.85f, 0.35f, 1.0f};
    const float x = (float)v->width - widest - 2.0f * pad;
    view_overlay_rect(o, x, 0.0f, widest + 2.0f * pad, (float)n * line + 2.0f * pad - 2.0f * (float)scale, panel);
    for (int i = 0; i < n; i++)
        view_overlay_text(o, x + pad, pad + (float)i * line, lines[i], lines[i][0] == '>' ? mark : text);
}

static void draw_overlay(viewer* v) {
    const int scale = overlay_scale(v);
    view_overlay* o = v->overlay;
    view_overlay_begin(o, v->width, v->height, scale);
    const view_scene* sc = &v->scene;
    const float pad = 3.0f * (float)scale, line = view_overlay_line_height(o);
    char lines[10][360];
    int n = 0;
    sw_renderer_stats st;
    sw_renderer_get_stats(v->renderer, &st);
    snprintf(lines[n++], sizeof lines[0], "%.1f ms  pose %.2f ms CPU  skin %.2f ms GPU", v->frame_ms, v->pose_ms,
             st.skin_gpu_ms);
    if (v->pass_times) n += pass_time_lines(v->renderer, lines[n], lines[n + 1], sizeof lines[0]);
    const double d = clip_duration(sc);
    snprintf(lines[n++], sizeof lines[0], "%s  %.2f/%.2f s  x%g%s%s", clip_name(sc), v->time, d, v->speed,
             v->loop ? "  loop" : "", v->playing ? "" : "  paused");
    char view_text[96];
    if (v->view == SW_RENDER_VIEW_WEIGHTS) {
        const char* name = v->weight_node >= 0 && (size_t)v->weight_node < sc->model->node_count
                               ? sc->model->nodes[v->weight_node].name
                               : NULL;
        snprintf(view_text, sizeof view_text, "weights:%s", name ? name : "?");
    } else {
        snprintf(view_text, sizeof view_text, "%s", scene_view_name(v->view));
    }
    static const char* const styles[] = {"auto", "toon", "pbr"};
    snprintf(lines[n++], sizeof lines[0], "%s  %s  %s  aa %s%s", method_name(v), view_text, styles[v->style],
             scene_aa_name(v->aa), v->bones ? "  bones" : "");
    snprintf(lines[n++], sizeof lines[0], "%zu verts  %zu joints  %zu tris", sc->vertex_count, sc->joint_count,
             st.triangles);
    snprintf(lines[n++], sizeof lines[0], "skin cache: %llu skinned, %llu hits", (unsigned long long)v->skinned,
             (unsigned long long)v->skipped);
    const avatar_program* av = sc->prog_ready ? &sc->prog.avatar : NULL;
    if (av && av->vrm) {
        const char* e = v->expression >= 0 && (size_t)v->expression < av->vrm->expression_count
                            ? av->vrm->expressions[v->expression].name : "-";
        snprintf(lines[n++], sizeof lines[0], "vrm: expression %.60s %.1f%s%s", e, v->expression >= 0 ? v->expression_weight : 0.0,
                 av->has_gaze ? "  gaze" : "", av->first_person ? "  first person" : "");
    }
    if (sc->prog_ready && sc->prog.has_graph) { /* --graph: layer 0's state and transition */
        char state[200];
        graph_program_describe(&sc->prog.graph, state, sizeof state);
        snprintf(lines[n++], sizeof lines[0], "graph: %s", state);
    }
    if (v->message[0] && now_s() < v->message_until) snprintf(lines[n++], sizeof lines[0], "%s", v->message);
    float widest = 0.0f;
    for (int i = 0; i < n; i++) widest = fmaxf(widest, view_overlay_text_width(o, lines[i]));
    static const float panel[4] = {0.0f, 0.0f, 0.0f, 0.55f}, text[4] = {0.92f, 0.94f, 0.96f, 1.0f},
                       error[4] = {1.0f, 0.35f, 0.3f, 1.0f}, note[4] = {1.0f, 0.85f, 0.35f, 1.0f};
    view_overlay_rect(o, 0.0f, 0.0f, widest + 2.0f * pad, (float)n * line + 2.0f * pad - 2.0f * (float)scale, panel);
    for (int i = 0; i < n; i++) {
        const bool is_message = v->message[0] && i == n - 1 && now_s() < v->message_until;
        view_overlay_text(o, pad, pad + (float)i * line, lines[i], is_message ? (v->message_error ? error : note) : text);
    }
    draw_graph_panel(v, scale, pad, line);
    if (d > 0.0) {
        float x, y, w, h;
        timeline_rect(v, scale, &x, &y, &w, &h);
        const double at = fmin(1.0, fmax(0.0, v->time / d));
        static const float track[4] = {0.0f, 0.0f, 0.0f, 0.55f}, done[4] = {0.3f, 0.62f, 1.0f, 0.85f},
                           head[4] = {1.0f, 1.0f, 1.0f, 1.0f};
        view_overlay_rect(o, x, y, w, h, track);
        view_overlay_rect(o, x, y, (float)(w * at), h, done);
        view_overlay_rect(o, x + (float)(w * at) - (float)scale, y - (float)scale, 2.0f * (float)scale,
                          h + 2.0f * (float)scale, head);
    }
    view_overlay_end(o);
}

/* Poses, renders, copies the image into the window and draws the overlay. */
static bool draw_frame(viewer* v, tool_error* err) {
    view_scene* sc = &v->scene;
    double t0 = now_s();
    avatar_keys_apply(v);
    if (!scene_pose(sc, v->time + v->laps, v->loop, err)) return false;
    v->pose_ms = 0.8 * v->pose_ms + 0.2 * (now_s() - t0) * 1e3;
    camera_follow(v);
    if (v->view == SW_RENDER_VIEW_WEIGHTS && (v->weight_node < 0 || (size_t)v->weight_node >= sc->model->node_count))
        reset_weight_joint(v);
    sw_render_frame frame = {
        .pose = &sc->pose,
        .method = v->method,
        .first_frame = v->first_frame,
        .camera = {.current = v->camera, .previous = v->first_frame ? v->camera : v->previous_camera},
        .debug = {.view = v->view, .weight_joint = v->weight_node, .bones = v->bones, .split = v->split},
        .shading = {.style = v->style, .night = v->night, .time = (float)v->time, .ao = v->o->ao,
                    .time_of_day_given = v->time_of_day >= 0.0, .time_of_day = (float)v->time_of_day},
        .post = {.aa = v->aa, .bloom = v->bloom, .motion_blur = v->motion_blur, .frame_index = v->frame_index},
        .placement = sc->stage && sc->stage->has_place ? &sc->placement : NULL,
    };
    scene_air_shade(&v->o->air, &frame.shading);
    if (sc->prog_ready) avatar_program_render(&sc->prog.avatar, sc->materials, &frame.avatar);
    sw_renderer_stats before, after;
    sw_renderer_get_stats(v->renderer, &before);
    sw_diag diag;
    if (sw_renderer_draw(v->renderer, &frame, &diag) != SW_OK)
        return tool_error_set(err, "%s: %s", sc->model->path, diag.message);
    sw_renderer_get_stats(v->renderer, &after);
    v->skinned = after.skin.dispatched - before.skin.dispatched;
    v->skipped = after.skin.skipped - before.skin.skipped;
    v->previous_camera = v->camera;
    v->first_frame = false;
    v->frame_index++;

    /* The renderer's image, pixel for pixel, then the overlay over it. */
    glBindFramebuffer(GL_READ_FRAMEBUFFER, v->blit_fbo);
    glReadBuffer(GL_COLOR_ATTACHMENT0);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
    glDrawBuffer(GL_BACK);
    glDisable(GL_SCISSOR_TEST);
    glDisable(GL_FRAMEBUFFER_SRGB);
    glBlitFramebuffer(0, 0, v->width, v->height, 0, 0, v->width, v->height, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    if (!v->overlay_hidden) draw_overlay(v);
    if (glGetError() != GL_NO_ERROR) return tool_error_set(err, "a GL error while drawing the window");
    return true;
}

/* ---- the command ---------------------------------------------------------------------------- */

static void on_glfw_error(int code, const char* description) {
    (void)code, (void)description; /* reported where the call fails */
}

static int view_run(tool_args* args, const view_options* o, const anim_options* program, const view_script* script);

int cmd_view(tool_args* args) {
    anim_options program = {0};
    view_options o;
    int status = parse_options(args, &program, &o);
    if (status) {
        anim_options_free(&program);
        return status < 0 ? TOOL_EXIT_OK : status;
    }
    view_script script = {0};
    tool_error err;
    if (o.script_text && !view_script_parse(o.script_text, &script, &err)) {
        anim_options_free(&program);
        return tool_usage(args, "%s", err.message);
    }
    if (!scene_stage_load(&o.stage, &o.load, &err)) status = tool_fail(args, "%s", err.message);
    else status = view_run(args, &o, &program, &script);
    scene_stage_free(&o.stage);
    view_script_free(&script);
    anim_options_free(&program);
    return status;
}

/* A window of the asked size with a GL 4.3 core context, current, with
   the viewer's callbacks; TOOL_EXIT_OK or the failure's status. */
static int open_window(tool_args* args, viewer* v) {
    const view_options* o = v->o;
    glfwSetErrorCallback(on_glfw_error);
    if (!glfwInit()) {
        const char* why = NULL;
        glfwGetError(&why);
        return tool_fail(args, "no display: %s; use sinew render to draw without a window",
                         why ? why : "GLFW could not start");
    }
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
    glfwWindowHint(GLFW_SRGB_CAPABLE, GLFW_FALSE);
    glfwWindowHint(GLFW_SAMPLES, 0);
    char title[256];
    snprintf(title, sizeof title, "sinew view - %s", o->model ? o->model : SW_DEMO_CHARACTER_NAME);
    /* The context through EGL first, as sinew render's (the same driver
       path on X11 and Wayland alike), else the window system's own (GLX). */
    glfwWindowHint(GLFW_CONTEXT_CREATION_API, GLFW_EGL_CONTEXT_API);
    v->window = glfwCreateWindow((int)o->width, (int)o->height, title, NULL, NULL);
    if (!v->window) {
        glfwWindowHint(GLFW_CONTEXT_CREATION_API, GLFW_NATIVE_CONTEXT_API);
        v->window = glfwCreateWindow((int)o->width, (int)o->height, title, NULL, NULL);
    }
    if (!v->window) {
        const char* why = NULL;
        glfwGetError(&why);
        glfwTerminate();
        return tool_fail(args, "cannot open a window with OpenGL 4.3 core: %s; use sinew render to draw without one",
                         why ? why : "unknown reason");
    }
    glfwMakeContextCurrent(v->window);
    if (epoxy_gl_version() < 43) {
        glfwDestroyWindow(v->window);
        v->window = NULL;
        glfwTerminate();
        return tool_fail(args, "the window's OpenGL is %d.%d, below 4.3", epoxy_gl_version() / 10,
                         epoxy_gl_version() % 10);
    }
    glfwSwapInterval(v->scripted || o->no_vsync ? 0 : 1);
    glfwSetWindowUserPointer(v->window, v);
    glfwSetKeyCallback(v->window, on_key);
    glfwSetCharCallback(v->window, on_char);
    glfwSetMouseButtonCallback(v->window, on_button);
    glfwSetCursorPosCallback(v->window, on_cursor);
    glfwSetScrollCallback(v->window, on_scroll);
    glfwSetDropCallback(v->window, on_drop);
    glfwGetFramebufferSize(v->window, &v->width, &v->height);
    if (v->width < 1) v->width = 1;
    if (v->height < 1) v->height = 1;
    glGenFramebuffers(1, &v->blit_fbo);
    return TOOL_EXIT_OK;
}

/* The first model, its renderer, bounds, overlay and camera. */
static int start_scene(tool_args* args, viewer* v, const anim_options* program) {
    const view_options* o = v->o;
    tool_error err;
    if (!scene_load(&v->scene, o->model, &o->load, program, o->anim, &err))
        return v->scene.bad_name ? tool_usage(args, "%s", err.message) : tool_fail(args, "%s", err.message);
    v->scene.stage = &o->stage;
    uint32_t weight_found = 0;
    if (o->weight_joint && !tool_find_node(v->scene.model, "--view weights", o->weight_joint, &weight_found, &err))
        return tool_usage(args, "%s", err.message);
    if (o->weight_joint) v->weight_node = (int32_t)weight_found;
    if (v->weight_node < 0) reset_weight_joint(v);
    v->playing = v->scene.clip >= 0;
    sw_diag diag;
    sw_renderer_desc desc = {.width = v->width, .height = v->height};
    if (sw_renderer_create(&desc, &v->renderer, &diag) != SW_OK ||
        set_renderer_scene(v->renderer, &v->scene, &diag) != SW_OK)
        return tool_fail(args, "%s: %s", v->scene.model->path, diag.message);
    if (!scene_bounds(&v->scene, v->renderer, o->time, &err) || !make_renderer(v, &err) ||
        !view_overlay_create(&v->overlay, &err))
        return tool_fail(args, "%s", err.message);
    if (!camera_start(v, &err))
        return v->o->cam.frame == SCENE_FRAME_FACE || v->o->cam.frame == SCENE_FRAME_JOINT
                   ? tool_usage(args, "%s", err.message)
                   : tool_fail(args, "%s", err.message);
    v->camera_moved = false;
    return TOOL_EXIT_OK;
}

/* One script step (the step's index moves on in *next_step); a size step
   waits for the window system to apply the size. */
static void run_script_step(viewer* v, const view_script* script, size_t* next_step, long* waited) {
    const view_step* st = &script->steps[*next_step];
    play_step(v, st);
    /* wait:N holds this step for N frames */
    if (st->kind != VIEW_STEP_WAIT || ++*waited >= st->count) *waited = 0, ++*next_step;
    if (st->kind != VIEW_STEP_SIZE) return;
    for (int i = 0; i < 100; i++) {
        int w, h;
        glfwGetWindowSize(v->window, &w, &h);
        if (w == (int)st->at[0] && h == (int)st->at[1]) break;
        glfwWaitEventsTimeout(0.01);
    }
}

/* The window's frames until it closes, the script and its frames end, or
   something fails; returns the exit status. */
static int run_loop(tool_args* args, viewer* v, const view_script* script) {
    const view_options* o = v->o;
    tool_error err;
    size_t next_step = 0;
    long frames_after = 0, waited = 0;
    v->last_frame_start = now_s();
    double last_advance = v->last_frame_start;
    while (!v->quit && !glfwWindowShouldClose(v->window)) {
        glfwPollEvents();
        if (v->pending_open) {
            char* path = v->pending_open;
            v->pending_open = NULL;
            open_model(v, path);
            free(path);
        }
        bool script_done = next_step >= script->count;
        if (!script_done) run_script_step(v, script, &next_step, &waited);
        if (v->quit) break;
        int fw = 0, fh = 0;
        glfwGetFramebufferSize(v->window, &fw, &fh);
        if (fw > 0 && fh > 0 && (fw != v->width || fh != v->height)) {
            v->width = fw, v->height = fh;
            if (!make_renderer(v, &err)) return tool_fail(args, "%s", err.message);
            if (!v->camera_moved) v->option_framing ? camera_from_options(v) : camera_frame(v);
        }
        if (fw == 0 || fh == 0) { /* minimised */
            glfwWaitEventsTimeout(0.1);
            continue;
        }
        const double start = now_s();
        const double dt = start - v->last_frame_start;
        v->frame_ms = v->frame_ms > 0.0 ? 0.9 * v->frame_ms + 0.1 * dt * 1e3 : dt * 1e3;
        v->last_frame_start = start;
        if (!draw_frame(v, &err)) return tool_fail(args, "%s", err.message);
        if (v->screenshot_now) {
            v->screenshot_now = false;
            screenshot_key(v);
        }
        if (script_done && o->frames > 0 && ++frames_after >= o->frames) {
            if (o->screenshot && !write_screenshot(v, o->screenshot, &err)) return tool_fail(args, "%s", err.message);
            if (o->exit_after) v->quit = true;
            frames_after = LONG_MIN; /* once */
        }
        glfwSwapBuffers(v->window);
        /* The clip moves on by a fixed step per frame in scripted runs, else
           by the clock (at most a quarter second at once: a stall is not a jump). */
        const double clock = now_s(), elapsed = fmin(clock - last_advance, 0.25);
        last_advance = clock;
        if (v->playing) {
            v->time += (v->scripted ? 1.0 / o->fps : elapsed) * v->speed;
            settle_time(v);
        }
        if (v->status) return v->status;
    }
    return TOOL_EXIT_OK;
}

static int view_run(tool_args* args, const view_options* o, const anim_options* program, const view_script* script) {
    int early = no_display(args);
    if (early) return early;
    if (o->screenshot) {
        tool_inputs inputs = {0};
        tool_error err;
        bool listed = !o->model || tool_inputs_add_model(&inputs, o->model);
        bool ok = listed && frame_output_check(o->screenshot, 1, &inputs, &err);
        tool_inputs_free(&inputs);
        if (!ok) return tool_fail(args, "%s", listed ? err.message : "out of memory");
    }

    viewer v = {.o = o, .speed = 1.0, .loop = true, .method = o->dqs ? SW_SKIN_DQS : SW_SKIN_LBS, .split = o->split,
                .bones = o->bones, .bloom = o->bloom, .motion_blur = o->motion_blur, .night = o->night,
                .time_of_day = o->time_of_day, .view = o->view, .weight_node = -1, .expression = -1, .style = o->style, .aa = o->aa, .time = o->time,
                .azimuth = (float)o->cam.azimuth, .elevation = (float)o->cam.elevation, .first_frame = true,
                .scripted = script->count > 0 || o->frames > 0 || o->exit_after};
    int status = open_window(args, &v);
    if (status != TOOL_EXIT_OK) return status;
    status = start_scene(args, &v, program);
    if (status == TOOL_EXIT_OK) status = run_loop(args, &v, script);

    free(v.pending_open);
    free(v.frame_points);
    view_overlay_destroy(v.overlay);
    sw_renderer_destroy(v.renderer);
    if (v.blit_fbo) glDeleteFramebuffers(1, &v.blit_fbo);
    scene_free(&v.scene);
    glfwDestroyWindow(v.window);
    /* No glfwTerminate: it unloads the GL driver (as eglTerminate would,
       see sw_gl_context_destroy), whose one-time blocks then look leaked;
       the process ends here and the window system closes the rest. */
    return status;
}

#endif
