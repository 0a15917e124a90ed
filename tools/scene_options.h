/* tools/scene_options.h — the values of the scene options that `sinew
   render` and `sinew view` share (--size, --camera, --frame, --view, --aa), parsed
   once so the two commands read the same syntax. */
#ifndef SINEW_SCENE_OPTIONS_H
#define SINEW_SCENE_OPTIONS_H

#include <stdbool.h>

#include "sinew/decal.h"
#include "sinew/materials.h"
#include "sinew/model.h"
#include "sinew/pose.h"
#include "sinew/render.h"
#include "tool_common.h"

/* --size WxH, 16..8192 on a side. */
bool scene_parse_size(const char* text, long* width, long* height, tool_error* err);
/* --camera auto|orbit:DEG[,ELEV]: the orbit angle around the vertical
   (0 = front) and the elevation, both in degrees ('auto': 25, 10). */
bool scene_parse_camera(const char* text, double* azimuth, double* elevation, tool_error* err);
/* What the camera frames (--frame). */
typedef enum scene_frame {
    SCENE_FRAME_AUTO = 0, /* the character in place (the whole clip, root travel taken out) */
    SCENE_FRAME_PATH,     /* everything the clip covers, root travel included */
    SCENE_FRAME_FULL,     /* the whole body at the first frame */
    SCENE_FRAME_UPPER,    /* the body from the hips up at the first frame */
    SCENE_FRAME_FACE,     /* the head */
    SCENE_FRAME_JOINT,    /* a joint and what it carries */
} scene_frame;

/* The camera options `sinew render` and `sinew view` share. */
typedef struct scene_camera {
    double azimuth, elevation;   /* --camera: degrees (auto: 25, 10) */
    scene_frame frame;           /* --frame */
    const char* joint;           /* --frame JOINT: a node or humanoid bone name, or a node index */
    bool has_target;             /* --camera-target X,Y,Z */
    float target[3];
    double distance;             /* --camera-distance M; 0: fitted */
    double fov;                  /* --fov DEG (vertical); 0: 35 */
    bool follow;                 /* --follow: the camera moves with the root */
} scene_camera;

#define SCENE_CAMERA_DEFAULTS {.azimuth = 25.0, .elevation = 10.0}

/* The camera options' lines for a command's help. */
#define SCENE_CAMERA_HELP                                                                                     \
    "  --camera C      'auto' looks from the front left; 'orbit:DEG[,ELEV]' from\n"                         \
    "                  DEG degrees around the vertical (0 = front) and ELEV\n"                               \
    "                  degrees up (default 10)\n"                                                           \
    "  --frame F       what the camera fits: auto (default: the character over\n"                          \
    "                  the clip, its root travel taken out), path (everything the\n"                       \
    "                  clip covers, travel included), full (the whole body at the\n"                       \
    "                  first frame), upper (hips up), face (the head: the\n"                               \
    "                  humanoid's, else a joint named like Head), or JOINT (a\n"                           \
    "                  node name or index, or a humanoid bone such as leftHand,\n"                         \
    "                  with the joints below it)\n"                                                        \
    "  --camera-target X,Y,Z  look at this point (model units)\n"                                          \
    "  --camera-distance M    the eye this far from the target (default: fitted)\n"                        \
    "  --fov DEG       vertical field of view, 1..170 (default 35)\n"                                     \
    "  --follow        the camera moves with the character's root (hips) across\n"                         \
    "                  the ground\n"

/* --time-of-day H: the sky's hour (docs/sky.md); the options' time_of_day
   stays negative when not given. */
#define SCENE_SKY_HELP                                                                                        \
    "  --time-of-day H the sky's hour, 0..24 (a day at 45 degrees north, sunrise\n"                         \
    "                  6, sunset 18): sun, sky colours, stars at night; the light\n"                        \
    "                  comes from the sun, at night from the moon (default: a\n"                            \
    "                  plain sky, the light from the upper front left)\n"

/* --time-of-day at `arg` into *hours: 1 when taken, 0 when `arg` is not it,
   -1 on a bad value (err set). */
int scene_sky_take(double* hours, tool_args* args, const char* arg, tool_error* err);

/* The camera option at `arg` (its value taken from args) into *c: 1 when
   taken, 0 when `arg` is not one, -1 on a bad value (err set). */
int scene_camera_take(scene_camera* c, tool_args* args, const char* arg, tool_error* err);
/* --frame's value: auto|path|full|upper|face, or any other text as JOINT. */
bool scene_parse_frame(const char* text, scene_frame* frame, const char** joint, tool_error* err);
/* --camera-target's X,Y,Z. */
bool scene_parse_point(const char* option, const char* text, float out[3], tool_error* err);

/* What the framing needs from a model: its root (humanoid hips, else the
   first skin's skeleton root; -1: none) and, for full, upper, face and
   JOINT, the nodes whose vertices are framed (`framed`, node_count flags;
   all of them for full and upper). */
typedef struct scene_frame_nodes {
    int32_t root;
    int32_t joint;      /* face: the head; JOINT: the joint; else -1 */
    const char* joint_name; /* how the head or joint was found, for messages */
    uint8_t* framed;    /* node_count flags, malloc'd; NULL for auto and path */
    float min_weight;   /* a skinned vertex counts when the framed joints' weights sum above it (½) */
} scene_frame_nodes;

/* Finds the nodes --frame names on `model`: an unknown JOINT, or face on a
   model with no head, is an error naming the option and the model. */
bool scene_frame_resolve(const sw_model* model, const scene_camera* c, scene_frame_nodes* out, tool_error* err);
void scene_frame_nodes_free(scene_frame_nodes* n);

/* The vertices the framed nodes carry at `pose` (world and skin matrices
   evaluated) into out (3 floats each; NULL: only counted): a skinned
   vertex counts when the framed joints' weights sum above n->min_weight, placed by
   linear blend skinning without morph targets; a mesh on a framed node
   counts whole. Returns how many; at most the model's vertex count. */
size_t scene_frame_points(const sw_model* model, const sw_pose* pose, const scene_frame_nodes* n, float* out);

/* The vertices --frame fits (full, upper: those from the hips up, face,
   JOINT) at `pose` into *points (malloc'd, 3 floats each). No vertex is an
   error naming the option and the model. */
bool scene_frame_collect(const sw_model* model, const sw_pose* pose, const scene_frame_nodes* nodes,
                         const scene_camera* c, float** points, size_t* point_count, tool_error* err);

/* The camera for box [lo, hi] (or, when given, the points in it) with the
   options' angles, target, distance and field of view: the bounding sphere
   for auto and path, the box's corners or the points (tighter) for the
   others. */
void scene_camera_place(const scene_camera* c, const float lo[3], const float hi[3], const float* points,
                        size_t point_count, float aspect, sw_camera* out);

/* --stage FILE|demo and --place X,Z (docs/stage.md), shared by render
   and view: the stage model, its materials and rest pose, the placement. */
typedef struct scene_stage {
    const char* file;            /* --stage: a model file of any format sinew imports, or "demo" */
    bool has_place;              /* --place X,Z */
    float place[2];
    sw_model* model;
    sw_material_set materials;
    sw_pose rest;
    void* rest_memory;
    sw_decal_set* decals;        /* its SW_decal boxes, NULL: none */
    const char* probes_file;     /* --probes: a probe file of `sinew bake probes` (docs/probes.md) */
    sw_render_probe* probes;     /* its probes (loaded with the stage), NULL: none */
    size_t probe_count;
    int probe_cube_size;         /* its specular cubes' base size (0: none, a version 1 file) */
    float* probe_cubes;          /* 1 + probe_count prefiltered cubes, the global first */
} scene_stage;

#define SCENE_STAGE_HELP                                                                                     \
    "  --stage FILE    draw the character on a stage: a model file of any format\n"                          \
    "                  sinew imports (its meshes and materials, at rest), or\n"                             \
    "                  'demo' for the built-in demo stage\n"                                                 \
    "  --place X,Z     stand the character's root at X,Z on the stage, its feet\n"                           \
    "                  (the lowest point of the first frame) on the stage's\n"                              \
    "                  highest walkable ground there (needs --stage)\n"                             \
    "  --probes FILE   light the scene's ambient from the environment probes of\n"                          \
    "                  FILE (sinew bake probes; needs --stage)\n"

/* --stage or --place at `arg` into *s: 1 when taken, 0 when `arg` is not
   one, -1 on a bad value (err set). */
int scene_stage_take(scene_stage* s, tool_args* args, const char* arg, tool_error* err);
/* The options go together: --place needs --stage. */
bool scene_stage_check(const scene_stage* s, tool_error* err);

/* ---- the air: fog, weather, the environment feedback ------------------------------ */

/* The options render and view share for the air around the character
   (docs/fog.md, docs/weather.md, docs/feedback.md). Zero: none of it. */
typedef struct scene_air {
    float fog_density;                  /* --fog: extinction per unit, 0 none */
    float fog_colour[3];                /* all zero: white */
    float fog_height[3];                /* --fog-height: density, base, falloff; density 0 none */
    sw_render_weather weather;          /* --weather, --wind */
    bool env_feedback;                  /* --env-feedback */
    bool fog_given, env_feedback_given; /* the options were given (scene_air_finish) */
} scene_air;

/* --fog, --fog-height, --weather, --wind or --env-feedback at `arg` into
   *a: 1 when taken, 0 when `arg` is not one, -1 on a bad value (err set). */
int scene_air_take(scene_air* a, tool_args* args, const char* arg, tool_error* err);
/* A stage brings the analysed frame's air (docs/stage.md): fog at
   SCENE_FOG_DEFAULT_DENSITY unless --fog was given, the environment
   feedback unless --env-feedback was given. No stage: nothing changes. */
void scene_air_finish(scene_air* a, const scene_stage* s);
/* The air's fields of a frame's shading. */
void scene_air_shade(const scene_air* a, sw_render_frame_shading* shading);
/* Loads --stage's model (load: the command's glTF options), its materials
   and rest pose; nothing without --stage. Errors name the file. */
bool scene_stage_load(scene_stage* s, const sw_gltf_options* load, tool_error* err);
/* Gives the loaded stage and its decals to the renderer (after
   sw_renderer_set_scene). */
bool scene_stage_set(const scene_stage* s, sw_renderer* renderer, tool_error* err);
/* The stage into the renderer: its models, its KHR_lights_punctual lights
   at its rest pose, its SW_decal boxes (also with no stage: clears the
   stage). */
sw_result scene_stage_apply(const scene_stage* s, sw_renderer* renderer, sw_diag* diag);
/* --place: the translation that moves `root` (the character's root in the
   first frame) to X,Z and its lowest point `feet_y` onto the stage's
   ground there; the identity without --place. No walkable ground under
   X,Z is an error naming the stage. */
bool scene_stage_placement(const scene_stage* s, const float root[3], float feet_y, float out_shift[3],
                           tool_error* err);
void scene_stage_free(scene_stage* s);

/* --view shaded|normals|motion|uv|retention|weights:JOINT|bones; JOINT is
   left in *weight_joint (pointing into text), bones sets *bones. */
bool scene_parse_view(const char* text, sw_render_view* view, bool* bones, const char** weight_joint,
                      tool_error* err);
/* --aa none|edge|taa|edge+taa. */
bool scene_parse_aa(const char* text, sw_render_aa* aa, tool_error* err);
/* --ao on|off (ambient occlusion, docs/ao.md). */
bool scene_parse_ao(const char* text, sw_render_ao* ao, tool_error* err);
/* --fog on|off|DENSITY[,R,G,B] (volumetric fog, docs/fog.md): the medium's
   extinction per unit (0 or off: none; on: SCENE_FOG_DEFAULT_DENSITY, the
   frame analysis' mean) and the colour it scatters (R,G,B 0..1; not
   given: all zero, which the renderer reads as white). */
#define SCENE_FOG_DEFAULT_DENSITY 8.5e-4f
bool scene_parse_fog(const char* text, float* density, float colour[3], tool_error* err);
/* --fog-height off|DENSITY,BASE,FALLOFF (docs/fog.md): a ground layer of
   the fog, DENSITY (0..10) more extinction per unit at and below the
   height BASE, falling off above it as exp(−(y − BASE)/FALLOFF), FALLOFF
   > 0 (units); out: density, base, falloff (off: all 0). */
bool scene_parse_fog_height(const char* text, float out[3], tool_error* err);
/* --weather none|snow[,DENSITY] (falling snow, docs/weather.md): sets
   weather->kind and ->density (flakes per m³, 0 < DENSITY <= 8; not given:
   0, the renderer's default 3); the wind is left as it is. */
bool scene_parse_weather(const char* text, sw_render_weather* weather, tool_error* err);
/* --wind X,Z: the wind in m/s along world x and z (each -50..50). */
bool scene_parse_wind(const char* text, float wind[2], tool_error* err);
/* "on" or "off" for `option` (named in the error). */
bool scene_parse_switch(const char* option, const char* text, bool* on, tool_error* err);

/* The option names of a view ("weights" for SW_RENDER_VIEW_WEIGHTS) and of
   an AA mode. */
const char* scene_view_name(sw_render_view view);
const char* scene_aa_name(sw_render_aa aa);

#endif
