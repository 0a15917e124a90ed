/* The reference renderer: deferred OpenGL 4.3 core, offscreen, drawing the
   compute-skinned vertex buffers of sinew/gpu.h (the first steps of an
   anime-style game's frame).

   One frame:
     1. skin every (node, primitive) on the GPU (the skin cache skips
        unchanged ones; previous positions are kept for motion vectors);
     2. a shadow map of the one directional light, fitted to the scene;
     3. the G-buffer: normal (RGB10A2), base colour (RGBA8 sRGB), material
        parameters (RGBA8: metallic, roughness, occlusion, emissive
        strength), class (R8, see SW_RENDER_CLASS_*), motion (RG16F), depth
        (D32F); a ground plane under the character;
     4. lighting into an HDR target (RGBA16F): the light with PCF shadows,
        hemisphere ambient, emissive; a background gradient where nothing
        was drawn;
     5. tone mapping (the ACES filmic fit) and sRGB encoding into an RGBA8
        image; debug views and bones are drawn instead of / over it.

   Every function needs the GL context (sw_gl_context) current. */
#ifndef SINEW_RENDER_H
#define SINEW_RENDER_H

#include "sinew/model.h"
#include "sinew/pose.h"
#include "sinew/gpu.h"

SW_EXTERN_C_BEGIN

/* The class byte: low 6 bits select the lighting model; the two high bits
   are reserved for TAA history control (always 0 here). */
enum {
    SW_RENDER_CLASS_BACKGROUND = 0, /* nothing drawn: the gradient */
    SW_RENDER_CLASS_GROUND = 1,     /* the ground plane */
    SW_RENDER_CLASS_LIT = 2,        /* glTF metallic-roughness materials */
    SW_RENDER_CLASS_UNLIT = 3,      /* KHR_materials_unlit */
    SW_RENDER_CLASS_MASK = 0x3F,
};

typedef enum sw_render_view {
    SW_RENDER_VIEW_SHADED = 0,
    SW_RENDER_VIEW_NORMALS,   /* world normal × ½ + ½ */
    SW_RENDER_VIEW_MOTION,    /* motion vectors: direction as hue, length as brightness */
    SW_RENDER_VIEW_UV,        /* TEXCOORD_0 as red/green */
    SW_RENDER_VIEW_WEIGHTS,   /* the weight of one joint as a heat map (blue 0 → red 1) */
} sw_render_view;

/* A perspective camera. */
typedef struct sw_camera {
    float eye[3], target[3], up[3];
    float fov_y;       /* radians */
    float z_near, z_far;
} sw_camera;

/* A camera that frames the box [bounds_min, bounds_max] from an orbit
   angle around +Y (0° looks at the front, down −Z, as glTF characters
   face +Z) and an elevation, for an image of the given aspect. */
void sw_camera_frame_bounds(const float bounds_min[3], const float bounds_max[3], float azimuth_degrees,
                            float elevation_degrees, float aspect, sw_camera* out_camera);

/* Column-major 4×4 view-projection matrix of the camera (OpenGL clip space). */
void sw_camera_view_projection(const sw_camera* camera, float aspect, float out_matrix[16]);

typedef struct sw_renderer_desc {
    int width, height;        /* pixels, 1..8192 */
    int shadow_map_size;      /* 0 = 2048 */
} sw_renderer_desc;

typedef struct sw_renderer sw_renderer;

/* Creates the targets and programs (context current). */
sw_result sw_renderer_create(const sw_renderer_desc* desc, sw_renderer** out_renderer, sw_diag* diag);
void sw_renderer_destroy(sw_renderer* renderer);

/* Prepares a model for drawing: GPU meshes of every (node, primitive) of
   the default scene, textures (decoded with stb_image; a texture that does
   not decode is replaced by white, with a warning counted in
   sw_renderer_stats), materials. A stored position that is not finite or
   lies beyond SW_MODEL_MAX_EXTENT is SW_ERR_INVALID_DATA, naming the mesh,
   primitive and vertex (no camera can frame it). The model must outlive
   the renderer or the next set_scene. */
sw_result sw_renderer_set_scene(sw_renderer* renderer, const sw_model* model, sw_diag* diag);

typedef struct sw_render_frame {
    const sw_pose* pose;          /* the model's pose after sw_pose_update: world and skin matrices, weights */
    sw_camera camera;
    sw_camera previous_camera;    /* for motion vectors; the same as camera for a still one */
    sw_skin_method method;        /* LBS or DQS */
    bool split;                   /* LBS in the left half, DQS in the right half */
    sw_render_view view;
    int32_t weight_joint;         /* node index (model order) of the joint for SW_RENDER_VIEW_WEIGHTS */
    bool bones;                   /* draw the skeleton's bones over the image */
    /* The first frame of a sequence (or a single picture): there is no
       previous frame, so motion is zero (previous positions = current). */
    bool first_frame;
} sw_render_frame;

/* Renders one frame into the renderer's targets. */
sw_result sw_renderer_draw(sw_renderer* renderer, const sw_render_frame* frame, sw_diag* diag);

/* World-space bounds of the scene at a pose (every drawn vertex, skinned
   on the GPU and read back). Returns SW_ERR_INVALID_DATA for an empty
   scene and for a posed vertex that is not finite or lies beyond
   SW_MODEL_MAX_EXTENT. Does not draw; the skin cache sees the pose. */
sw_result sw_renderer_scene_bounds(sw_renderer* renderer, const sw_pose* pose, float out_min[3], float out_max[3],
                                   sw_diag* diag);

/* The box the ground and the shadow map are fitted to (the ground lies at
   its lowest y). By default the first drawn frame's skinned bounds; a
   sequence whose character travels should give the bounds of all of it
   (sinew render gives those of the whole clip). */
void sw_renderer_set_scene_box(sw_renderer* renderer, const float box_min[3], const float box_max[3]);

/* Readbacks of the last frame, rows bottom to top as OpenGL stores them
   unless said otherwise. */
/* The final image, sRGB-encoded RGBA8, rows top to bottom (ready for a
   PNG): width × height × 4 bytes. */
sw_result sw_renderer_read_image(sw_renderer* renderer, uint8_t* out_rgba, sw_diag* diag);
/* The HDR target (linear RGBA, before tone mapping): × 4 floats. */
sw_result sw_renderer_read_hdr(sw_renderer* renderer, float* out_rgba, sw_diag* diag);
/* The class byte per pixel. */
sw_result sw_renderer_read_class(sw_renderer* renderer, uint8_t* out_class, sw_diag* diag);
/* Motion per pixel: (current − previous) position in texture coordinates
   (0..1 across the image), × 2 floats. */
sw_result sw_renderer_read_motion(sw_renderer* renderer, float* out_motion, sw_diag* diag);

typedef struct sw_renderer_stats {
    size_t primitives;            /* drawn (node, primitive) instances */
    size_t triangles;
    size_t textures, texture_failures;
    sw_gpu_skin_stats skin;       /* the skin cache's counts */
} sw_renderer_stats;
void sw_renderer_get_stats(const sw_renderer* renderer, sw_renderer_stats* out_stats);

/* The GLSL of every renderer stage as compiled (version line included),
   for offline validation: visit(name, stage, source, user), stage "vert"
   or "frag". */
void sw_render_shader_sources(void (*visit)(const char* name, const char* stage, const char* source, void* user),
                              void* user);

SW_EXTERN_C_END

#endif
