/* sinew render — a character (or the built-in demo) drawn by the reference
   renderer, headless, to a PNG, an MP4, a GIF or numbered PNG frames. */
#include "anim_program.h"
#include "frame_output.h"
#include "scene_options.h"
#include "tool_common.h"

#include "sinew/demo.h"
#include "sinew/render.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FRAMES 100000
#define BOUNDS_SAMPLES 24

/* A signal (Ctrl-C, SIGTERM, SIGHUP) during a render is handled by the
   process's cleanup handler (tool_signals_install): frame_output records
   its temporary, the frames of a sequence and ffmpeg there, so the
   handler removes the partial output, kills ffmpeg and ends the process
   with the signal (status 128 + N). */

const char cmd_render_help[] =
    "usage: sinew render [MODEL] [--anim NAME|INDEX|none] [--time T | --frames N [--fps F]]\n"
    "                    [--size WxH] [--camera auto|orbit:DEG[,ELEV]] [--frame F]\n"
    "                    [--camera-target X,Y,Z] [--camera-distance M] [--fov DEG]\n"
    "                    [--follow] [--dqs] [--split]\n"
    "                    [--view shaded|normals|motion|uv|weights:JOINT|retention|ao|depth|bones]\n"
    "                    [--bones]\n"
    "                    [--aa none|edge|taa|edge+taa] [--ao on|off] [--fog on|off|D[,R,G,B]]\n"
    "                    [--fog-height off|D,BASE,FALLOFF]\n"
    "                    [--env-feedback on|off] [--bloom|--no-bloom] [--motion-blur]\n"
    "                    [--weather none|snow[,DENSITY]] [--wind X,Z]\n"
    "                    [--style auto|toon|pbr] [--night] [--time-of-day H]\n"
    "                    [--crowd N] [--stage FILE|demo [--place X,Z]]\n"
    "                    [-o out.png|out.mp4|out.gif|dir/%04d.png] [--quiet] [--stats]\n"
    "                    [--progress auto|bar|lines|none] [animation options, below]\n"
    "\n"
    "Draws MODEL (glTF, GLB or VRM, or FBX, Collada, IQM, BVH... through the\n"
    "importers; without MODEL the built-in demo character) with the deferred\n"
    "reference renderer: GPU compute skinning, a G-buffer, one directional\n"
    "light with a shadow map, toon materials with outlines (or glTF PBR), then\n"
    "motion blur, bloom, ACES display mapping, edge AA and TAA.\n"
    "Headless (EGL): no window or X server is needed. A texture whose image is\n"
    "missing or does not decode is drawn white, with a warning on stderr.\n"
    "\n"
    "options:\n"
    "  --anim A        animation by name or index (default: 'walk' for the demo,\n"
    "                  else 0; 'none' is the rest pose)\n"
    "  --time T        the time of a single picture in seconds (default 0)\n"
    "  --frames N      render N frames from --time on, at --fps (default 30);\n"
    "                  the clip loops\n"
    "  --size WxH      image size (default 960x540)\n"
    SCENE_CAMERA_HELP
    SCENE_SKY_HELP
    "  --dqs           dual quaternion skinning (default: linear blend)\n"
    "  --split         LBS in the left half, DQS in the right half\n"
    "  --view V        shaded (default), normals, motion, uv, weights:JOINT (the\n"
    "                  weight of one joint, by node name, humanoid bone name\n"
    "                  or index, as a heat map),\n"
    "                  retention (the radius LBS keeps at each vertex in this\n"
    "                  pose, from its weights and its joints' rotations: blue\n"
    "                  all kept, red all lost), ao (the ambient occlusion\n"
    "                  as grey), depth (eye distance, log scale: white near,\n"
    "                  black far) or bones (shaded with the skeleton over it)\n"
    "  --bones         draw the skeleton over any view\n"
    "  --aa A          anti-aliasing: none, edge (morphological, this frame),\n"
    "                  taa (temporal) or edge+taa (default); with TAA, 8\n"
    "                  warm-up frames of the same pose come before the first\n"
    "                  frame, so a still is the converged picture\n"
    "  --ao on|off     ambient occlusion: screen AO and the character's\n"
    "                  contact shadows from capsules fitted to its skeleton\n"
    "                  (default on; docs/ao.md)\n"
    "  --fog on|off|DENSITY[,R,G,B]\n"
    "                  volumetric fog: a medium of DENSITY extinction per unit\n"
    "                  (on: 8.5e-4), scattering R,G,B of the light (default\n"
    "                  white; default: on with --stage, else off; docs/fog.md)\n"
    "  --fog-height off|DENSITY,BASE,FALLOFF\n"
    "                  a ground layer in the fog: DENSITY more per unit at and\n"
    "                  below the height BASE, exp(-(y - BASE)/FALLOFF) of it\n"
    "                  above (alone or with --fog; default off; docs/fog.md)\n"
    "  --weather none|snow[,DENSITY]\n"
    "                  falling snow around the camera, DENSITY flakes per m³\n"
    "                  (default 3, at most 8), lit and fogged; it moves with\n"
    "                  --time (docs/weather.md)\n"
    "  --wind X,Z      the wind the snow drifts with, m/s (default 0,0)\n"
    "  --env-feedback on|off\n"
    "                  the character darkens in the stage's shadow and takes\n"
    "                  the colour of what she faces, one frame late (default:\n"
    "                  on with --stage, else off; docs/feedback.md)\n"
    "  --bloom, --no-bloom\n"
    "                  glow around what is brighter than white (default on)\n"
    "  --no-footprints the snow keeps no track of her feet (default: a\n"
    "                  material with SW_materials_snow does; docs/snow.md)\n"
    "  --motion-blur   blur along the motion of each frame (for videos;\n"
    "                  default off)\n"
    "  --style S       auto (default): toon lighting and outlines for materials\n"
    "                  with toon data (SW_materials_toon, VRM MToon), PBR for the\n"
    "                  others; toon: every material toon (plain ones derived from\n"
    "                  their base colour); pbr: glTF metallic-roughness only\n"
    "  --night         the toon ramps' night rows\n"
    "  --crowd N       N copies of the character on a square grid, copy i playing\n"
    "                  the model's animations in turn from the chosen one, each\n"
    "                  from its own time; skinned in one GPU dispatch and drawn\n"
    "                  with instanced draws (not with animation options)\n"
    SCENE_STAGE_HELP
    "  -o, --output FILE\n"
    "                  .png (one frame), .mp4 (H.264) or .gif (through ffmpeg),\n"
    "                  or a pattern such as frames/%04d.png; missing folders\n"
    "                  are created; written to a temporary file and renamed\n"
    "                  when complete (default render.png, or render.mp4 with\n"
    "                  --frames). Regular files or new ones only (a link is\n"
    "                  followed), never MODEL; not '-': frames do not go to\n"
    "                  standard output. An MP4 or GIF is checked whole after\n"
    "                  ffmpeg exits\n"
    "  --quiet         no progress and no \"wrote FILE (...)\" line on stderr\n"
    "  --progress MODE how --frames shows progress on stderr: auto (default: a\n"
    "                  bar on a terminal, else lines), bar, lines (one per 5 %\n"
    "                  of the frames: count, time elapsed, time left) or none;\n"
    "                  given with --quiet, it still shows\n"
    "  --stats         print what was drawn, the skin cache's counts, the last\n"
    "                  frame's occlusion culling (stage draws tested, culled) and\n"
    "                  each pass's time per frame (GPU timer query, CPU wall time)\n"
    "                  on stderr\n"
    "  --allow-outside-paths   let buffer URIs leave the model's folder\n"
    "  -h, --help      show this help\n"
    "\n"
    ANIM_OPTIONS_HELP
    "The camera's bounds are sampled first; spring bones then start over at the\n"
    "first frame.\n";

typedef struct render_options {
    const char* model;
    const char* anim;
    double time, fps;
    long frames, width, height;
    scene_camera cam;
    bool dqs, split, bones, quiet, stats;
    bool progress_given; /* --progress given: shown even with --quiet */
    frame_progress_mode progress;
    long crowd;           /* --crowd N, 0 = one character */
    sw_render_aa aa;
    sw_render_ao ao;      /* --ao on|off */
    scene_air air;        /* --fog, --fog-height, --weather, --wind, --env-feedback */
    bool bloom, motion_blur;
    bool no_footprints;   /* --no-footprints */
    sw_render_view view;
    sw_render_style style;
    bool night;
    double time_of_day;   /* --time-of-day, negative: not given */
    const char* weight_joint;
    const char* out;
    sw_gltf_options load;
    scene_stage stage;    /* --stage, --place */
} render_options;

/* The pose at playback time t: the clip loops from its first key. With
   animation options, the program's pose (anim_program.h). */
static bool pose_at(const sw_model* a, long clip_index, anim_program* prog, sw_pose* pose, double t,
                    tool_error* err) {
    if (prog) return anim_program_evaluate(prog, (float)t, pose, err);
    const sw_clip* clip = clip_index >= 0 ? &a->animations[clip_index] : NULL;
    float time = clip ? sw_clip_time_from_start(clip, (float)t, true) : 0.0f;
    sw_diag diag;
    if (sw_pose_evaluate(a, clip, time, false, pose, &diag) != SW_OK)
        return tool_error_set(err, "%s: %s", a->path, diag.message);
    return true;
}

/* "wrote out.mp4 (90 frames, 960×540)"; a sequence names its first and
   last frame. */
static void print_wrote(const render_options* o, frame_output_kind kind) {
    char what[64];
    snprintf(what, sizeof what, "%ld frame%s, %ld×%ld", o->frames, o->frames == 1 ? "" : "s", o->width, o->height);
    if (kind != FRAME_OUTPUT_SEQUENCE) {
        tool_wrote(o->quiet, "%s (%s)", o->out, what);
        return;
    }
    size_t size = strlen(o->out) + 112; /* a number is at most 99 digits wide (%099d) */
    char* first = malloc(size);
    char* last = malloc(size);
    if (first && last && frame_output_frame_path(o->out, 0, first, size) &&
        frame_output_frame_path(o->out, (int)o->frames - 1, last, size)) {
        if (o->frames == 1) tool_wrote(o->quiet, "%s (%s)", first, what);
        else tool_wrote(o->quiet, "%s .. %s (%s)", first, last, what);
    } else {
        tool_wrote(o->quiet, "%s (%s)", o->out, what);
    }
    free(first);
    free(last);
}

/* --crowd N: the copies' poses, clips, time offsets and grid places. */
typedef struct render_crowd {
    size_t count;
    sw_pose* poses;
    const sw_pose** pointers;
    void** memory;
    long* clips;
    double* offsets;
    sw_mat34* placements;
} render_crowd;

static void crowd_free(render_crowd* c) {
    for (size_t i = 0; c->memory && i < c->count; i++) free(c->memory[i]);
    free(c->poses), free(c->pointers), free(c->memory), free(c->clips), free(c->offsets), free(c->placements);
    memset(c, 0, sizeof *c);
}

/* Copy i plays clip (first + i) mod the model's count from 0.37·i s on
   (a different phase for each), at cell i of a square grid `spacing` apart. */
static bool crowd_init(render_crowd* c, const sw_model* a, long first, size_t count, float spacing) {
    c->count = count;
    c->poses = calloc(count, sizeof *c->poses);
    c->pointers = calloc(count, sizeof *c->pointers);
    c->memory = calloc(count, sizeof *c->memory);
    c->clips = calloc(count, sizeof *c->clips);
    c->offsets = calloc(count, sizeof *c->offsets);
    c->placements = calloc(count, sizeof *c->placements);
    if (!c->poses || !c->pointers || !c->memory || !c->clips || !c->offsets || !c->placements) return false;
    const size_t side = (size_t)ceil(sqrt((double)count));
    for (size_t i = 0; i < count; i++) {
        if (!(c->memory[i] = tool_pose_alloc(a, &c->poses[i]))) return false;
        c->pointers[i] = &c->poses[i];
        c->clips[i] = first < 0 || a->animation_count == 0 ? first
                                                            : (long)(((size_t)first + i) % a->animation_count);
        c->offsets[i] = 0.37 * (double)i;
        c->placements[i] =
            sw_mat34_translation(sw_vec3_make(spacing * (float)(i % side), 0.0f, spacing * (float)(i / side)));
    }
    return true;
}

/* Everything a render holds, freed by render_session_free. */
typedef struct render_session {
    render_options o;
    frame_output_kind kind;
    sw_model* asset;
    sw_material_set materials;
    anim_file anim_src;   /* --anim-file */
    anim_program prog;
    anim_program* active; /* &prog when it does anything, else NULL */
    long clip;
    int32_t weight_node;
    sw_pose pose;
    void* pose_memory;
    render_crowd crowd;
    uint8_t* image;
    frame_output* output;
    sw_gl_context* gl;
    sw_renderer* renderer;
    sw_camera camera;          /* the first frame's */
    sw_camera previous_camera; /* the last frame drawn's (--follow moves it) */
    scene_frame_nodes framing; /* the root, the joint --frame names */
    float anchor[3];           /* the root's place at the first frame */
    float shift[3];            /* --place: the character's move onto the stage */
    sw_mat34 placement;        /* the same as a placement */
    sw_renderer_stats before; /* the counts before the first frame */
} render_session;

static void render_session_free(render_session* s) {
    anim_program_free(&s->prog);
    scene_frame_nodes_free(&s->framing);
    if (s->output) frame_output_abort(s->output);
    free(s->image);
    free(s->pose_memory);
    crowd_free(&s->crowd);
    sw_renderer_destroy(s->renderer);
    scene_stage_free(&s->o.stage);
    sw_material_set_free(&s->materials);
    sw_gl_context_destroy(s->gl);
    anim_file_detach(&s->anim_src, &s->asset);
    sw_model_free(s->asset);
}

/* What parse_render_options returns when the render goes on. */
#define RENDER_GO_ON (-1)

/* The command line into *o; RENDER_GO_ON, else the exit status (help
   printed, or a usage error). */
static int parse_render_options(tool_args* args, anim_options* program, render_options* o) {
    *o = (render_options){.time_of_day = -1.0, .fps = 30.0, .frames = 1, .width = 960, .height = 540, .cam = SCENE_CAMERA_DEFAULTS,
                          .aa = SW_RENDER_AA_EDGE_TAA, .bloom = true};
    tool_error err;
    for (const char* arg; (arg = tool_args_next(args));) {
        const char *v, *name;
        if (tool_args_is_help(arg)) return tool_print_help(args);
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
        else if (tool_args_flag(arg, "--no-footprints")) o->no_footprints = true;
        else if (tool_args_flag(arg, "--night")) o->night = true;
        else if (tool_args_flag(arg, "--quiet")) o->quiet = true;
        else if (tool_args_flag(arg, "--stats")) o->stats = true;
        else if (tool_args_flag(arg, "--allow-outside-paths")) o->load.allow_outside_paths = true;
        else if (tool_args_option(args, arg, "--anim")) {
            if (!(o->anim = tool_args_value(args, "--anim", &err))) return tool_usage(args, "%s", err.message);
        } else if (tool_args_option(args, arg, "--time")) {
            if (!(v = tool_args_value(args, "--time", &err)) || !tool_parse_double("--time", v, -1e6, 1e6, &o->time, &err))
                return tool_usage(args, "%s", err.message);
        } else if (tool_args_option(args, arg, "--frames")) {
            if (!(v = tool_args_value(args, "--frames", &err)) ||
                !tool_parse_int("--frames", v, 1, MAX_FRAMES, &o->frames, &err))
                return tool_usage(args, "%s", err.message);
        } else if (tool_args_option(args, arg, "--progress")) {
            if (!(v = tool_args_value(args, "--progress", &err))) return tool_usage(args, "%s", err.message);
            if (!frame_progress_mode_parse(v, &o->progress))
                return tool_usage(args, "--progress: '%s' is not auto, bar, lines or none", v);
            o->progress_given = true;
        } else if (tool_args_option(args, arg, "--fps")) {
            if (!(v = tool_args_value(args, "--fps", &err)) || !tool_parse_double("--fps", v, 1, 240, &o->fps, &err))
                return tool_usage(args, "%s", err.message);
        } else if (tool_args_option(args, arg, "--crowd")) {
            if (!(v = tool_args_value(args, "--crowd", &err)) || !tool_parse_int("--crowd", v, 1, 10000, &o->crowd, &err))
                return tool_usage(args, "%s", err.message);
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
            if (!(v = tool_args_value(args, "--view", &err)) ||
                !scene_parse_view(v, &o->view, &o->bones, &o->weight_joint, &err))
                return tool_usage(args, "%s", err.message);
        } else if ((name = tool_args_output(args, arg, "--out"))) { /* --out: before 0.2; kept through 0.2 */
            if (o->out) return tool_usage(args, "one output file only");
            if (!(o->out = tool_args_value(args, name, &err))) return tool_usage(args, "%s", err.message);
        } else if (arg[0] == '-' && arg[1]) {
            return tool_unknown_option(args, arg);
        } else if (o->model) {
            return tool_usage(args, "one MODEL only ('%s' and '%s')", o->model, arg);
        } else {
            o->model = arg;
        }
    }
    return RENDER_GO_ON;
}

/* The options that go together, and every file the render will write,
   before anything is loaded: a device, a FIFO, a folder, or the model (or
   a file it names) is refused now. */
static int check_render_options(tool_args* args, anim_options* program, render_options* o, frame_output_kind* kind) {
    tool_error err;
    if (!o->out) o->out = o->frames > 1 ? "render.mp4" : "render.png";
    if (tool_is_stdout(o->out))
        return tool_usage(args, "frames go to files, not to standard output ('-'): give -o FILE.png, .mp4, .gif "
                                "or a pattern such as frames/%%04d.png");
    if (!frame_output_kind_of(o->out, kind, &err)) return tool_usage(args, "%s", err.message);
    if (*kind == FRAME_OUTPUT_PNG && o->frames > 1)
        return tool_usage(args, "%ld frames do not fit in one PNG: write .mp4, .gif or a pattern such as frames/%%04d.png",
                          o->frames);
    if (o->split && o->dqs) return tool_usage(args, "--split shows LBS and DQS side by side; drop --dqs");
    if (!anim_options_check(program, &err) || !scene_stage_check(&o->stage, &err))
        return tool_usage(args, "%s", err.message);
    scene_air_finish(&o->air, &o->stage);
    if (o->crowd > 0 && o->stage.has_place) return tool_usage(args, "--place stands one character; drop --crowd");
    if (o->crowd > 0 && (o->cam.frame != SCENE_FRAME_AUTO || o->cam.follow))
        return tool_usage(args, "--crowd frames the whole grid; --frame and --follow are for one character");
    if (o->crowd > 0 && anim_options_any(program))
        return tool_usage(args, "--crowd plays the model's animations; animation options are for one character");
    tool_inputs inputs = {0};
    bool listed = !o->model || tool_inputs_add_model(&inputs, o->model);
    listed = listed && (!program->file.path || tool_inputs_add_model(&inputs, program->file.path));
    bool ok = listed && frame_output_check(o->out, (int)o->frames, &inputs, &err);
    tool_inputs_free(&inputs);
    if (!ok) return tool_fail(args, "%s", listed ? err.message : "out of memory");
    return TOOL_EXIT_OK;
}

/* 1. The model (a file, or the demo character's GLB bytes), the clips of
   --anim-file, the clip and joint named, the animation program, a pose. */
static int render_load(tool_args* args, anim_options* program, render_session* s) {
    const render_options* o = &s->o;
    sw_diag diag;
    tool_error err;
    if (o->model) {
        if (tool_load_model(o->model, &o->load, &s->asset, &diag) != SW_OK) return tool_fail(args, "%s", diag.message);
    } else {
        uint8_t* glb = NULL;
        size_t size = 0;
        sw_result res = sw_demo_character_glb(&glb, &size, &diag);
        if (res == SW_OK) res = sw_gltf_load_memory(glb, size, SW_DEMO_CHARACTER_NAME, NULL, NULL, &s->asset, &diag);
        sw_demo_character_glb_free(glb);
        if (res != SW_OK) return tool_fail(args, "demo character: %s", diag.message);
    }
    if (!anim_file_attach(&s->anim_src, &s->asset, &program->file, &err)) return tool_fail(args, "%s", err.message);
    if (!scene_stage_load(&s->o.stage, &o->load, &err)) return tool_fail(args, "%s", err.message);
    if (s->anim_src.view && !o->quiet) fprintf(stderr, "%s\n", s->anim_src.summary);
    const sw_model* asset = s->asset;
    uint32_t weight_found = 0;
    s->clip = -1;
    if (!tool_find_clip(asset, o->anim ? o->anim : o->model ? NULL : "walk", &s->clip, &err) ||
        (o->weight_joint && !tool_find_node(asset, "--view weights", o->weight_joint, &weight_found, &err)))
        return tool_usage(args, "%s", err.message);
    s->weight_node = o->weight_joint ? (int32_t)weight_found : -1;
    anim_program_config config = {.loop = true, .from_clip_start = true, .file = &s->anim_src};
    int status = anim_program_init(&s->prog, asset, program, s->clip, &config, &err);
    if (status != TOOL_EXIT_OK)
        return status == TOOL_EXIT_USAGE ? tool_usage(args, "%s", err.message) : tool_fail(args, "%s", err.message);
    if (s->prog.has_warning) tool_warn(args, "%s: %s", asset->path, s->prog.warning.message);
    for (size_t i = 0; i < s->prog.avatar.warning_count; i++)
        tool_warn(args, "%s: %s", asset->path, s->prog.avatar.warnings[i].message);
    if (anim_program_active(&s->prog)) s->active = &s->prog;
    /* Without --anim, a blend or crossfade's clip sets the camera's time range. */
    if (!o->anim && o->model && anim_program_primary_clip(&s->prog) >= 0) s->clip = anim_program_primary_clip(&s->prog);
    if (!(s->pose_memory = tool_pose_alloc(asset, &s->pose))) return tool_fail(args, "out of memory");
    return TOOL_EXIT_OK;
}

/* 2. The output, opened before anything costly: a bad name, a missing
   ffmpeg or an unwritable folder fails now, not after the frames.
   3. The GL context, the renderer and its scene: the model and its
   materials (toon data read, images decoded once). */
static int render_open(tool_args* args, render_session* s) {
    const render_options* o = &s->o;
    sw_diag diag;
    tool_error err;
    s->image = malloc((size_t)o->width * (size_t)o->height * 4);
    if (!s->image) return tool_fail(args, "out of memory for a %ldx%ld image", o->width, o->height);
    if (!frame_output_open(&s->output, o->out, (int)o->width, (int)o->height, o->fps, (int)o->frames, &err))
        return tool_fail(args, "%s", err.message);
    if (sw_gl_context_create(NULL, &s->gl, &diag) != SW_OK) return tool_fail(args, "%s", diag.message);
    sw_renderer_desc desc = {.width = (int)o->width, .height = (int)o->height};
    if (sw_renderer_create(&desc, &s->renderer, &diag) != SW_OK ||
        sw_material_set_read(s->asset, &s->materials, &diag) != SW_OK)
        return tool_fail(args, "%s: %s", s->asset->path, diag.message);
    if (diag.message[0]) tool_warn(args, "%s", diag.message); /* what the materials have and sinew does not draw */
    sw_renderer_set_exact_pass_times(s->renderer, o->stats); /* --stats: each pass's whole cost */
    if (sw_renderer_set_scene(s->renderer, s->asset, &s->materials, &diag) != SW_OK ||
        sw_renderer_set_erased_joints(s->renderer, s->prog.avatar.erase_joints, NULL, &diag) != SW_OK)
        return tool_fail(args, "%s: %s", s->asset->path, diag.message);
    if (!scene_stage_set(&o->stage, s->renderer, &err)) return tool_fail(args, "%s", err.message);
    /* The renderer counts the textures it drew white; which images and why,
       the tool finds out by decoding them again (only when there are any). */
    sw_renderer_stats loaded;
    sw_renderer_get_stats(s->renderer, &loaded);
    if (loaded.texture_failures > 0 && tool_warn_bad_images(args, s->asset, true, "; drawn white") == 0)
        tool_warn(args, "%s: %zu textures did not decode (drawn white)", s->asset->path, loaded.texture_failures);
    return TOOL_EXIT_OK;
}

/* Where the followed root is in `pose` (its world translation); the
   origin when the model has none. */
static void root_place(const render_session* s, const sw_pose* pose, float out[3]) {
    const int32_t root = s->framing.root;
    for (int k = 0; k < 3; k++) out[k] = root >= 0 ? pose->world[root].m[k][3] : 0.0f;
}

/* The bounds of a clip: everything it covers, and the same with the root's
   travel across the ground (x, z) since the first frame taken out. */
typedef struct clip_extent {
    float lo[3], hi[3];             /* the path */
    float place_lo[3], place_hi[3]; /* in place, at the first frame's spot */
    float travel;                   /* the root's farthest distance from there */
} clip_extent;

/* The skinned bounds of clip `clip` (sampled over its length, or the one
   pose at `time`) grown into *e. */
static int clip_bounds(tool_args* args, render_session* s, long clip, anim_program* prog, double time,
                       clip_extent* e) {
    const sw_model* asset = s->asset;
    const sw_clip* c = clip >= 0 ? &asset->animations[clip] : NULL;
    const int samples = c && c->duration > 0.0f ? BOUNDS_SAMPLES : 1;
    sw_diag diag;
    tool_error err;
    for (int i = 0; i < samples; i++) {
        double t = samples == 1 ? time : (double)c->duration * i / (samples - 1);
        float a[3], b[3], root[3];
        if (!pose_at(asset, clip, prog, &s->pose, t, &err)) return tool_fail(args, "%s", err.message);
        if (sw_renderer_scene_bounds(s->renderer, &s->pose, a, b, &diag) != SW_OK)
            return tool_fail(args, "%s: %s", asset->path, diag.message);
        root_place(s, &s->pose, root);
        const float dx = root[0] - s->anchor[0], dz = root[2] - s->anchor[2];
        e->travel = fmaxf(e->travel, sqrtf(dx * dx + dz * dz));
        const float shift[3] = {dx, 0.0f, dz};
        for (int k = 0; k < 3; k++) {
            e->lo[k] = fminf(e->lo[k], a[k]), e->hi[k] = fmaxf(e->hi[k], b[k]);
            e->place_lo[k] = fminf(e->place_lo[k], a[k] - shift[k]);
            e->place_hi[k] = fmaxf(e->place_hi[k], b[k] - shift[k]);
        }
    }
    return TOOL_EXIT_OK;
}

static int frame_the_rest(tool_args* args, render_session* s, const float* points, size_t point_count);

/* 4. The camera frames what --frame asks (auto: the whole clip in place,
   or the one pose); for a crowd, the grid, spaced by the character's
   footprint, and every clip it plays at every place. The ground and the
   shadow map cover everything the clip covers. */
static int render_frame_camera(tool_args* args, render_session* s) {
    const render_options* o = &s->o;
    const sw_model* asset = s->asset;
    tool_error err;
    if (!scene_frame_resolve(asset, &o->cam, &s->framing, &err)) {
        /* An unknown joint, or no head: a usage error, as an unknown option is. */
        return s->framing.joint < 0 ? tool_usage(args, "%s", err.message) : tool_fail(args, "%s", err.message);
    }
    /* The first frame: where the root starts, and the vertices --frame fits. */
    if (!pose_at(asset, s->clip, s->active, &s->pose, o->time, &err)) return tool_fail(args, "%s", err.message);
    root_place(s, &s->pose, s->anchor);
    /* --place: the root to X,Z, the first frame's lowest point onto the stage's ground. */
    s->placement = sw_mat34_identity();
    if (o->stage.has_place) {
        float lo[3], hi[3];
        sw_diag diag;
        if (sw_renderer_scene_bounds(s->renderer, &s->pose, lo, hi, &diag) != SW_OK)
            return tool_fail(args, "%s: %s", asset->path, diag.message);
        if (!scene_stage_placement(&o->stage, s->anchor, lo[1], s->shift, &err)) return tool_fail(args, "%s", err.message);
        s->placement = sw_mat34_translation(sw_vec3_make(s->shift[0], s->shift[1], s->shift[2]));
        if (!o->quiet)
            fprintf(stderr, "--place: the root at %g, %g, %g; the feet at y %g on the stage\n",
                    (double)(s->anchor[0] + s->shift[0]), (double)(s->anchor[1] + s->shift[1]),
                    (double)(s->anchor[2] + s->shift[2]), (double)(lo[1] + s->shift[1]));
    }
    float* points = NULL;
    size_t point_count = 0;
    int status = o->cam.frame == SCENE_FRAME_AUTO || o->cam.frame == SCENE_FRAME_PATH
                     ? TOOL_EXIT_OK
                 : scene_frame_collect(asset, &s->pose, &s->framing, &o->cam, &points, &point_count, &err)
                     ? TOOL_EXIT_OK
                     : tool_fail(args, "%s", err.message);
    if (status == TOOL_EXIT_OK) status = frame_the_rest(args, s, points, point_count);
    free(points);
    return status;
}

/* render_frame_camera's second half: the clip's bounds, the crowd, the
   scene box and the camera. */
static int frame_the_rest(tool_args* args, render_session* s, const float* points, size_t point_count) {
    const render_options* o = &s->o;
    const sw_model* asset = s->asset;
    int status;
    clip_extent e;
    for (int k = 0; k < 3; k++) e.lo[k] = e.place_lo[k] = FLT_MAX, e.hi[k] = e.place_hi[k] = -FLT_MAX;
    e.travel = 0.0f;
    status = clip_bounds(args, s, s->clip, s->active, o->time, &e);
    if (status != TOOL_EXIT_OK) return status;
    float* lo = e.lo;
    float* hi = e.hi;
    if (o->crowd > 0) {
        render_crowd* crowd = &s->crowd;
        const float spacing = 1.25f * fmaxf(fmaxf(hi[0] - lo[0], hi[2] - lo[2]), 1e-3f);
        if (!crowd_init(crowd, asset, s->clip, (size_t)o->crowd, spacing))
            return tool_fail(args, "out of memory for a crowd of %ld", o->crowd);
        for (size_t k = 1; k < crowd->count && k < asset->animation_count; k++) {
            const sw_clip* other = crowd->clips[k] >= 0 ? &asset->animations[crowd->clips[k]] : NULL;
            if (!other || !(other->duration > 0.0f)) continue;
            status = clip_bounds(args, s, crowd->clips[k], NULL, 0.0, &e);
            if (status != TOOL_EXIT_OK) return status;
        }
        const size_t side = (size_t)ceil(sqrt((double)crowd->count));
        hi[0] += spacing * (float)(side - 1), hi[2] += spacing * (float)((crowd->count - 1) / side);
        sw_diag diag;
        if (sw_renderer_set_crowd(s->renderer, crowd->count, &diag) != SW_OK)
            return tool_fail(args, "%s: %s", asset->path, diag.message);
    }
    float placed_lo[3], placed_hi[3]; /* the box where --place moves the character */
    for (int k = 0; k < 3; k++) placed_lo[k] = lo[k] + s->shift[k], placed_hi[k] = hi[k] + s->shift[k];
    sw_renderer_set_scene_box(s->renderer, placed_lo, placed_hi);
    const float* box_lo = lo;
    const float* box_hi = hi;
    if (o->cam.frame == SCENE_FRAME_AUTO && o->crowd == 0) {
        /* Root travel beyond a tenth of the character's size: the camera
           frames the character in place (a walk across the scene would
           leave it small). */
        float size = 0.0f;
        for (int k = 0; k < 3; k++) size = fmaxf(size, e.place_hi[k] - e.place_lo[k]);
        if (o->cam.follow || e.travel > 0.1f * size) {
            box_lo = e.place_lo, box_hi = e.place_hi;
            if (!o->cam.follow && !o->quiet)
                fprintf(stderr,
                        "the character travels %.3g units in the clip: the camera frames it at its first frame's "
                        "place (--follow keeps it in view, --frame path shows the whole path)\n",
                        (double)e.travel);
        }
    }
    /* full, upper, face, JOINT: the points (box_lo, box_hi unused) */
    scene_camera_place(&o->cam, box_lo, box_hi, points, point_count, (float)o->width / (float)o->height, &s->camera);
    for (int k = 0; k < 3; k++) s->camera.eye[k] += s->shift[k], s->camera.target[k] += s->shift[k]; /* --place */
    s->previous_camera = s->camera;
    return TOOL_EXIT_OK;
}

/* The camera of a frame whose pose is in s->pose: the first frame's, moved
   across the ground with the root for --follow. */
static sw_camera frame_camera(const render_session* s) {
    sw_camera c = s->camera;
    if (!s->o.cam.follow) return c;
    float root[3];
    root_place(s, &s->pose, root);
    const float shift[3] = {root[0] - s->anchor[0], 0.0f, root[2] - s->anchor[2]};
    for (int k = 0; k < 3; k++) c.eye[k] += shift[k], c.target[k] += shift[k];
    return c;
}

/* Frame f at time t: its pose(s), the TAA warm-up before the first one,
   the frame itself read back and written out. */
static int render_one_frame(tool_args* args, render_session* s, long f, frame_progress* progress) {
    const render_options* o = &s->o;
    const double t = o->time + (double)f / o->fps;
    sw_diag diag;
    tool_error err;
    if (!pose_at(s->asset, s->clip, s->active, &s->pose, t, &err)) return tool_fail(args, "%s", err.message);
    for (size_t i = 0; i < s->crowd.count; i++)
        if (!pose_at(s->asset, s->crowd.clips[i], NULL, &s->crowd.poses[i], t + s->crowd.offsets[i], &err))
            return tool_fail(args, "%s", err.message);
    sw_render_frame frame = {
        .pose = &s->pose,
        .method = o->dqs ? SW_SKIN_DQS : SW_SKIN_LBS,
        .first_frame = f == 0,
        .camera = {.current = frame_camera(s), .previous = s->previous_camera},
        .debug = {.view = o->view, .weight_joint = s->weight_node, .bones = o->bones, .split = o->split},
        .shading = {.style = o->style, .night = o->night, .time = (float)t, .ao = o->ao,
                    .no_footprints = o->no_footprints,
                    .time_of_day_given = o->time_of_day >= 0.0, .time_of_day = (float)o->time_of_day},
        .post = {.aa = o->aa, .bloom = o->bloom, .motion_blur = o->motion_blur},
        .crowd = {.count = s->crowd.count, .poses = s->crowd.pointers, .placements = s->crowd.placements},
        .placement = o->stage.has_place ? &s->placement : NULL,
    };
    scene_air_shade(&o->air, &frame.shading);
    avatar_program_render(&s->prog.avatar, &s->materials, &frame.avatar); /* VRM expression binds, first person */
    /* TAA: the first frame comes after warm-up frames of its own pose and
       camera (the jitter advancing), so it is the converged one. */
    const uint32_t warm_up = (o->aa & SW_RENDER_AA_TAA) && o->view == SW_RENDER_VIEW_SHADED ? SW_RENDER_TAA_WARM_UP : 0;
    bool warm = true;
    for (uint32_t w = 0; f == 0 && w < warm_up && warm; w++) {
        sw_render_frame early = frame;
        early.first_frame = w == 0, early.post.frame_index = w;
        warm = sw_renderer_draw(s->renderer, &early, &diag) == SW_OK;
    }
    frame.first_frame = f == 0 && warm_up == 0;
    if (f == 0) frame.camera.previous = frame.camera.current;
    frame.post.frame_index = warm_up + (uint32_t)f;
    if (!warm || sw_renderer_draw(s->renderer, &frame, &diag) != SW_OK ||
        sw_renderer_read_image(s->renderer, s->image, &diag) != SW_OK) {
        frame_progress_end(progress);
        return tool_fail(args, "frame %ld: %s", f, diag.message);
    }
    if (!frame_output_write(s->output, s->image, &err)) {
        frame_progress_end(progress);
        return tool_fail(args, "%s", err.message);
    }
    s->previous_camera = frame.camera.current;
    frame_progress_update(progress, (int)f + 1);
    return TOOL_EXIT_OK;
}

/* --stats: each pass's time, averaged over the frames drawn (TAA's warm-up
   frames included). The renderer closes every pass with glFinish under
   --stats (sw_renderer_set_exact_pass_times), so the CPU column is the
   pass's whole cost; on llvmpipe the GPU column is CPU time too (its
   rasteriser threads'). */
static void print_pass_times(const render_session* s) {
    sw_renderer_wait_pass_times(s->renderer);
    sw_render_pass_time times[32];
    size_t n = sw_renderer_get_pass_times(s->renderer, times, 32);
    if (n > 32) n = 32;
    fprintf(stderr, "%-14s %9s %9s   (ms per frame, average of %llu frames drawn, TAA warm-up included)\n", "pass", "GPU ms", "CPU ms",
            (unsigned long long)(n ? times[0].cpu_frames : 0));
    double gpu = 0.0, cpu = 0.0;
    for (size_t i = 0; i < n; i++) {
        if (times[i].gpu_frames) /* "-": the driver gave no possible answer */
            fprintf(stderr, "%-14s %9.3f %9.3f\n", times[i].name, times[i].gpu_average_ms, times[i].cpu_average_ms);
        else
            fprintf(stderr, "%-14s %9s %9.3f\n", times[i].name, "-", times[i].cpu_average_ms);
        gpu += times[i].gpu_average_ms;
        cpu += times[i].cpu_average_ms;
    }
    fprintf(stderr, "%-14s %9.3f %9.3f\n", "total", gpu, cpu);
}

/* --stats: what was drawn and what the skin cache did during the frames. */
static void print_render_stats(const render_session* s) {
    sw_renderer_stats st;
    sw_renderer_get_stats(s->renderer, &st);
    fprintf(stderr, "drew %zu primitives (%zu triangles, %zu textures, %zu failed to decode) in %ld frames\n",
            st.primitives, st.triangles, st.textures, st.texture_failures, s->o.frames);
    fprintf(stderr, "skin cache: %llu dispatched, %llu skipped (unchanged palette and weights)\n",
            (unsigned long long)(st.skin.dispatched - s->before.skin.dispatched),
            (unsigned long long)(st.skin.skipped - s->before.skin.skipped));
    if (s->crowd.count)
        fprintf(stderr, "crowd: %zu copies, %llu vertices skinned\n", s->crowd.count,
                (unsigned long long)(st.skin.vertices_skinned - s->before.skin.vertices_skinned));
    fprintf(stderr, "occlusion culling (last frame): %zu tested, %zu culled\n", st.occlusion_tested,
            st.occlusion_culled);
    sw_shadow_cache_stats sc;
    sw_renderer_get_shadow_cache_stats(s->renderer, &sc);
    if (sc.active)
        fprintf(stderr,
                "static shadows: %zu bytes for %zu texels (%.1f:1 against 32-bit float, %.1f:1 against 16-bit depth), "
                "worst depth error %.3g (nearer the light at most %.3g), mean %.3g; %llu bakes, the last %.1f ms\n",
                sc.bytes, sc.texels, sc.ratio_float32, sc.ratio_depth16, sc.max_error, sc.max_nearer, sc.mean_error,
                (unsigned long long)sc.bakes, sc.bake_ms);
    print_pass_times(s);
}

/* 5. The frames, then the output finished and named. */
static int render_frames(tool_args* args, render_session* s) {
    const render_options* o = &s->o;
    tool_error err;
    sw_renderer_get_stats(s->renderer, &s->before); /* the bounds' skinning is not the frames' */
    if (s->active) anim_program_restart(s->active); /* spring bones start over at the first frame */
    frame_progress progress;
    frame_progress_begin(&progress, stderr, (int)o->frames,
                         o->quiet && !o->progress_given ? FRAME_PROGRESS_NONE : o->progress);
    for (long f = 0; f < o->frames; f++) {
        int status = render_one_frame(args, s, f, &progress);
        if (status != TOOL_EXIT_OK) return status;
    }
    frame_progress_end(&progress);
    frame_output* finishing = s->output;
    s->output = NULL;
    if (!frame_output_finish(finishing, &err)) return tool_fail(args, "%s", err.message);
    print_wrote(o, s->kind);
    if (o->stats) print_render_stats(s);
    return TOOL_EXIT_OK;
}

int cmd_render(tool_args* args) {
    anim_options program = {0};
    render_session s = {0};
    int status = parse_render_options(args, &program, &s.o);
    if (status != RENDER_GO_ON) {
        anim_options_free(&program);
        return status; /* help, or a usage error */
    }
    status = check_render_options(args, &program, &s.o, &s.kind);
    if (status == TOOL_EXIT_OK) status = render_load(args, &program, &s);
    if (status == TOOL_EXIT_OK) status = render_open(args, &s);
    if (status == TOOL_EXIT_OK) status = render_frame_camera(args, &s);
    if (status == TOOL_EXIT_OK) status = render_frames(args, &s);
    render_session_free(&s);
    anim_options_free(&program);
    return status;
}
