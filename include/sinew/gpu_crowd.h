/* sinew/gpu_crowd.h — GPU-driven crowds: N characters of one model posed,
   culled, given a level of detail, skinned and drawn by the GPU, the CPU
   handing it one time per frame and a camera.

       sw_gpu_crowd_desc desc = {.model = model, .character_count = n, .clips = clips,
                                 .phases = phases, .placements = placements};
       sw_gpu_crowd* crowd = NULL;
       sw_gpu_crowd_create(skinner, &desc, &crowd, &diag);            // clips uploaded once
       ...
       sw_gpu_crowd_view view = sw_gpu_crowd_view_make(view_projection, 1 / tan(fov_y / 2), 0.1f);
       sw_gpu_crowd_update(crowd, seconds, &view, &diag);             // pose, cull, LOD, skin
       sw_gpu_crowd_draw(crowd, view_projection, &diag);              // glMultiDrawElementsIndirect

   Every frame is compute dispatches over buffers made at creation:
     1. sample  one invocation per (character, node): the rest TRS, or the
                value of the clip's track at the character's time, with the
                interpolation of sw_track_sample (STEP, LINEAR with
                sw_quat_slerp_fast's series, CUBICSPLINE);
     2. world   one invocation per character: world = parent · local in the
                model's parents-first order (matrix nodes keep their
                matrix), and the character's bounding sphere: the box of its
                skin joints' placed positions, grown by a margin measured on
                the bind pose (below);
     3. skin    per skin, one invocation per (character, joint):
                S = placement · world[joint] · inverse bind, the 3×4 rows
                the skinning shaders read (sw_gpu_palette);
     4. cull    one invocation per character: the sphere against the six
                frustum planes, then the level of detail by projected size
                (sw_gpu_crowd_classify is its C reference), writing one
                glMultiDrawElementsIndirect command per (level, primitive,
                character) (instance count 1 where drawn at that level, 0
                elsewhere) and a list of the visible characters per level;
     5. skinning of the visible characters only, per (level, primitive), by
                glDispatchComputeIndirect over that list (skin.comp, one
                row of work groups per listed character).
   Level 0 is the primitive as imported; level 1 is a coarser mesh made at
   creation by vertex clustering (the bind-pose box cut into 24 cubes
   along its longest side, one vertex per occupied cube, triangles that
   collapse dropped), each vertex bound to its heaviest joint with weight
   1: fewer vertices to skin, one palette read and no blend per vertex,
   fewer triangles to draw.

   What the GPU path leaves out: morph targets (weights 0: no weight
   track is sampled, the rest weights are not applied), DQS (LBS only),
   primitives without a skin (not drawn: a model with no skinned triangles
   is posed and culled, nothing more), and clips must be the model's own.
   The margin is the largest distance of a bind-pose vertex from its
   heaviest joint's bind position; a linear blend can carry a vertex
   further in extreme poses, so the sphere is a close bound, not a proof.

   Part of sinew-render. Every function except sw_gpu_crowd_view_make,
   sw_gpu_crowd_classify and sw_gpu_crowd_shader_sources needs the
   skinner's GL context current (see sinew/gpu.h, THREADS). */
#ifndef SINEW_GPU_CROWD_H
#define SINEW_GPU_CROWD_H

#include "sinew/gpu.h"

SW_EXTERN_C_BEGIN

/* Levels of detail: 0 (full skinning) and 1 (one influence per vertex). */
#define SW_GPU_CROWD_LODS 2
/* Projected diameter, as a fraction of the image height, under which a
   character is drawn at level 1, when the view leaves it at 0. */
#define SW_GPU_CROWD_DEFAULT_LOD_THRESHOLD 0.1f

/* ---- The culling and level-of-detail test (C reference of the shader) ---- */

typedef struct sw_gpu_crowd_view {
    /* Inward planes (a, b, c, d), normalised: a sphere (centre c, radius r)
       is outside when a·cx + b·cy + c·cz + d < −r for any plane. */
    float planes[6][4];
    float depth_row[4];     /* the view-projection's w row: a point's depth in front of the eye */
    float projection_scale; /* the projection's y scale, 1 / tan(fov_y / 2) */
    float lod_threshold;    /* projected diameter / image height under which level 1 is drawn */
} sw_gpu_crowd_view;

/* The view of a column-major OpenGL view-projection (clip z in [−w, w], as
   sw_camera_view_projection gives) by Gribb and Hartmann's plane
   extraction: left w + x, right w − x, bottom w + y, top w − y, near
   w + z, far w − z, each divided by the length of its normal (a plane of
   zero normal, the far plane of an infinite projection, always passes).
   lod_threshold 0: SW_GPU_CROWD_DEFAULT_LOD_THRESHOLD. */
sw_gpu_crowd_view sw_gpu_crowd_view_make(const float view_projection[16], float projection_scale,
                                         float lod_threshold);

/* A bounding sphere (x, y, z, radius) against the view: −1 outside the
   frustum, else its level: 0 when its projected diameter, radius ·
   projection_scale / depth (a fraction of the image height), is at least
   lod_threshold or the eye is within radius of its depth, else 1. */
int sw_gpu_crowd_classify(const sw_gpu_crowd_view* view, const float sphere[4]);

/* ---- The crowd ---------------------------------------------------------------- */

typedef struct sw_gpu_crowd_desc {
    const sw_model* model;       /* outlives the crowd */
    size_t character_count;      /* 1..the GPU's work group count along y (65535 at least) */
    /* Character i plays model->animations[clips[i]] (SW_GPU_CROWD_REST: the
       rest pose); clips NULL: clip 0 for all (the rest pose without clips). */
    const uint32_t* clips;
    /* Character i's time at frame time t: phases[i] + speeds[i] · t
       (phases NULL: 0; speeds NULL: 1), wrapped into the clip when looping. */
    const float* phases;
    const float* speeds;
    const sw_mat34* placements;  /* where each character stands; NULL: all at the origin */
    bool hold;                   /* hold the clip's ends instead of looping */
} sw_gpu_crowd_desc;

#define SW_GPU_CROWD_REST 0xFFFFFFFFu

typedef struct sw_gpu_crowd sw_gpu_crowd;

/* Uploads the model's clips, nodes and skins, makes the palettes, the two
   levels of every skinned primitive, the command and list buffers, and
   builds the programs. */
sw_result sw_gpu_crowd_create(sw_gpu_skinner* skinner, const sw_gpu_crowd_desc* desc, sw_gpu_crowd** out_crowd,
                              sw_diag* diag);
void sw_gpu_crowd_destroy(sw_gpu_crowd* crowd);

/* One frame: steps 1–5 above at frame time `seconds` for `view` (NULL:
   every character visible at level 0). Nothing is read back. */
sw_result sw_gpu_crowd_update(sw_gpu_crowd* crowd, float seconds, const sw_gpu_crowd_view* view, sw_diag* diag);

/* Steps 1–3 only (the poses and palettes), for tests and timing. */
sw_result sw_gpu_crowd_pose(sw_gpu_crowd* crowd, float seconds, sw_diag* diag);

/* Draws the last update's commands into the bound framebuffer and
   viewport (depth test on while drawing, a normal-shaded colour): one
   glMultiDrawElementsIndirect per (level, skinned primitive).
   view_projection column-major. */
sw_result sw_gpu_crowd_draw(sw_gpu_crowd* crowd, const float view_projection[16], sw_diag* diag);

/* ---- Reading back (tests, tools) --------------------------------------------- */

size_t sw_gpu_crowd_character_count(const sw_gpu_crowd* crowd);
/* Skinned primitives drawn per level: the command arrays per level. */
size_t sw_gpu_crowd_primitive_count(const sw_gpu_crowd* crowd);
/* World matrices: character_count × model->node_count, character after character. */
sw_result sw_gpu_crowd_read_world(const sw_gpu_crowd* crowd, sw_mat34* out_world, sw_diag* diag);
/* Skin `skin`'s palettes: character_count × that skin's joint_count. */
sw_result sw_gpu_crowd_read_palette(const sw_gpu_crowd* crowd, size_t skin, sw_mat34* out_matrices, sw_diag* diag);
/* Bounding spheres: character_count × 4 floats (x, y, z, radius). */
sw_result sw_gpu_crowd_read_bounds(const sw_gpu_crowd* crowd, float* out_spheres, sw_diag* diag);
/* The draw commands: SW_GPU_CROWD_LODS × primitive_count × character_count
   commands of 5 uint32 (count, instance count, first index, base vertex,
   base instance), level-major, then primitive, then character; and the
   visible characters per level (out_counts[SW_GPU_CROWD_LODS]). Either may
   be NULL. */
sw_result sw_gpu_crowd_read_commands(const sw_gpu_crowd* crowd, uint32_t* out_commands, uint32_t* out_counts,
                                     sw_diag* diag);
/* The instance holding level `lod` of skinned primitive `primitive`'s
   outputs (character i's vertices at i × vertex_count). */
sw_gpu_instance* sw_gpu_crowd_instance(const sw_gpu_crowd* crowd, size_t lod, size_t primitive);

/* The GLSL of every crowd program as compiled, for offline validation
   (as sw_gpu_shader_sources): names crowd_sample, crowd_world, crowd_skin,
   crowd_cull (stage "comp") and crowd_draw ("vert", "frag"). No GL. */
void sw_gpu_crowd_shader_sources(void (*visit)(const char* name, const char* stage, const char* source, void* user),
                                 void* user);

SW_EXTERN_C_END

#endif
