/* The reference renderer: deferred OpenGL 4.3 core, offscreen, drawing the
   compute-skinned vertex buffers of sinew/gpu.h (the first steps of an
   anime-style game's frame). It draws what it is given: a model and its
   materials made ready beforehand (sinew/materials.h; sw_material_set_read
   in sinew-import reads the toon records and decodes the images), and
   opens no file.

   One frame:
     1. skin every (node, primitive) on the GPU (one palette per skin; the
        skin cache skips unchanged ones; previous positions are kept for
        motion vectors);
     2. a shadow map of the one directional light, fitted to the scene;
     3. the G-buffer: normal (RGB10A2), base colour (RGBA8 sRGB), material
        parameters (RGBA8: metallic, roughness, occlusion, emissive
        strength), class (R8, see SW_RENDER_CLASS_*), motion (RG16F), depth
        (D32F); a ground plane under the character; toon materials
        (sinew/toon.h) are lit here already, with an outline hull. Each
        material's values sit in a uniform block made when the scene is
        set;
     4. lighting into an HDR target (RGBA16F): the light with PCF shadows,
        hemisphere ambient, emissive; a background gradient where nothing
        was drawn;
     5. the transparent draws (alphaMode BLEND, toon or unlit materials),
        lit as in 3 and blended over the HDR target in MToon's render
        queue order, back to front (docs/toon.md, "Transparency");
     6. the post chain (docs/post.md): motion blur, bloom, display mapping
        (the ACES filmic fit, sRGB), edge AA, TAA into an RGBA8 image;
        debug views and bones are drawn instead of / over it.

   THREADS. Every function except sw_camera_frame_bounds, sw_camera_frame,
   sw_camera_view_projection and sw_render_shader_sources needs a GL
   context current on the calling thread: the one the renderer was made in
   (or one sharing its objects). A renderer is used by one thread at a
   time; two renderers in two contexts on two threads are independent. The
   model, its material set and the poses a frame names are only read (a
   frame reads its poses during sw_renderer_draw, the scene's model and
   materials until the next set_scene or destroy), so they may be shared
   with other readers. sw_camera_* and sw_render_shader_sources touch no GL
   and may run on any thread. */
#ifndef SINEW_RENDER_H
#define SINEW_RENDER_H

#include "sinew/model.h"
#include "sinew/pose.h"
#include "sinew/gpu.h"
#include "sinew/materials.h"
#include "sinew/toon.h"

SW_EXTERN_C_BEGIN

/* The class byte: low 6 bits select the lighting model; the two high bits
   are TAA history control (SW_RENDER_CLASS_HISTORY_*). */
enum {
    SW_RENDER_CLASS_BACKGROUND = 0, /* nothing drawn: the gradient */
    SW_RENDER_CLASS_GROUND = 1,     /* the ground plane */
    SW_RENDER_CLASS_LIT = 2,        /* glTF metallic-roughness materials */
    SW_RENDER_CLASS_UNLIT = 3,      /* KHR_materials_unlit */
    SW_RENDER_CLASS_TOON = 4,       /* toon materials (sinew/toon.h), lit in the G-buffer pass */
    SW_RENDER_CLASS_STAGE = 5,      /* a stage's metallic-roughness materials: lit as LIT; decals land on it */
    SW_RENDER_CLASS_MASK = 0x3F,
    /* Glints are visible at this pixel (TAA keeps the per-channel max). */
    SW_RENDER_CLASS_HISTORY_SPARKLE = 0x40,
    /* A UV animation moves the texture here (the motion target holds that
       motion; TAA keeps a moving pixel's short history). */
    SW_RENDER_CLASS_HISTORY_TEXTURE_MOTION = 0x80,
};

typedef enum sw_render_view {
    SW_RENDER_VIEW_SHADED = 0,
    SW_RENDER_VIEW_NORMALS,   /* world normal × ½ + ½ */
    SW_RENDER_VIEW_MOTION,    /* motion vectors: direction as hue, length as brightness */
    SW_RENDER_VIEW_UV,        /* TEXCOORD_0 as red/green */
    SW_RENDER_VIEW_WEIGHTS,   /* the weight of one joint as a heat map (blue 0 → red 1) */
    /* LBS volume loss per vertex at this pose, as a heat map of the radius
       lost (blue: all kept → red: all lost). A vertex's retention is the
       smallest singular value of Σ wᵢRᵢ over its influences, Rᵢ the
       rotation (polar factor) of joint i's skin matrix: for two joints
       turned φ apart, sqrt(1 − 2w(1−w)(1 − cos φ)) (sw_lbs_retention),
       0.087 at w = ½, φ = 170°. One influence, or none: 1. Evaluated on the
       CPU every frame and drawn through the weight attribute
       (sw_renderer_read_vertex_values reads it back), with
       sw_skin_rotations and sw_skin_vertex_retention (sinew/skin.h). */
    SW_RENDER_VIEW_RETENTION,
    /* The ambient-occlusion target's R (screen AO × the shape proxies, what
       the ambient light is multiplied by; docs/ao.md) as grey: the byte is
       the target's byte. White everywhere with SW_RENDER_AO_OFF. */
    SW_RENDER_VIEW_AO,
    /* The eye distance d read back from the depth buffer (either depth
       convention) as grey on a log scale, 1 − log(d/near)/log(far/near):
       white at the near plane, black at the far plane and where nothing
       was drawn (an infinite far plane: 10⁴ near distances). Draws the
       Hi-Z test culled are not in the buffer (sw_renderer_stats counts
       them). docs/depth.md. */
    SW_RENDER_VIEW_DEPTH,
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

/* How sw_camera_frame places a camera; zero fields take the defaults. */
typedef struct sw_camera_framing {
    float azimuth_degrees;   /* around +Y; 0 looks at the front (down −Z) */
    float elevation_degrees; /* up from the horizontal, in (−90, 90) */
    float fov_y_degrees;     /* vertical field of view; 0: 35 */
    float distance;          /* eye to target; 0: the nearest that shows the box */
    bool has_target;         /* look at `target`; else at the box's centre */
    float target[3];
    /* false: the box's bounding sphere fits the narrower field of view
       (any orbit angle shows all of it; sw_camera_frame_bounds); true:
       the box's eight corners fit both fields of view, a tighter close-up. */
    bool fit_corners;
    float margin;            /* the fitted size is multiplied by this; 0: 1.05 */
} sw_camera_framing;

/* A camera looking at the box [bounds_min, bounds_max] (or at the given
   target) as `framing` says, for an image of the given aspect. With no
   distance, every corner of the box projects inside the image (both
   fits); the corner fit without a target also moves the target across
   the view until the margins are even. Near and far planes hold the
   whole box. */
void sw_camera_frame(const float bounds_min[3], const float bounds_max[3], const sw_camera_framing* framing,
                     float aspect, sw_camera* out_camera);

/* The same for a cloud of points (point_count × 3 floats): the target
   defaults to their box's centre and, with no distance, the nearest
   distance at which every point projects inside the image (the margin
   kept); the tightest close-up of, say, a head's vertices. */
void sw_camera_frame_points(const float* points, size_t point_count, const sw_camera_framing* framing, float aspect,
                            sw_camera* out_camera);

/* Column-major 4×4 view-projection matrix of the camera (OpenGL clip space). */
void sw_camera_view_projection(const sw_camera* camera, float aspect, float out_matrix[16]);

typedef struct sw_renderer_desc {
    int width, height;        /* pixels, 1..8192 */
    int shadow_map_size;      /* 0 = 2048 */
    /* Depth convention (docs/depth.md): reverse-Z (near 1, far 0, float
       depth, glClipControl) where the context has clip control (GL 4.5 or
       ARB_clip_control), else ordinary depth; true: ordinary depth always. */
    bool ordinary_depth;
} sw_renderer_desc;

typedef struct sw_renderer sw_renderer;

/* Creates the targets and programs (context current). */
sw_result sw_renderer_create(const sw_renderer_desc* desc, sw_renderer** out_renderer, sw_diag* diag);
void sw_renderer_destroy(sw_renderer* renderer);

/* Prepares a model for drawing: GPU meshes of every (node, primitive) of
   the model (in any scene or none, as sinew export lists them), one
   palette per skin, textures (from the set's images; a texture whose image
   is absent or failed is drawn white, and counted in sw_renderer_stats
   when it failed), materials (one uniform block each, every value the
   G-buffer and toon passes read), toon ramps (the toon data's ramp texture,
   else sw_toon_ramp_from_shade), outline normals and outline instances.

   `materials` (sinew/materials.h) gives each material's toon data and the
   decoded images; its counts must be the model's (SW_ERR_INVALID_ARGUMENT
   otherwise). NULL draws without textures, every material's toon data
   absent (toon only under SW_RENDER_STYLE_TOON, derived). A stored
   position that is not finite or lies beyond SW_MODEL_MAX_EXTENT is
   SW_ERR_INVALID_DATA, naming the mesh, primitive and vertex (no camera can
   frame it). The model and the set must outlive the renderer or the next
   set_scene; the renderer copies the toon values. Ends any crowd
   (sw_renderer_set_crowd). */
sw_result sw_renderer_set_scene(sw_renderer* renderer, const sw_model* model, const sw_material_set* materials,
                                sw_diag* diag);

/* The joints whose triangles a first-person view erases from skinned
   meshes (three-vrm's `auto` first-person annotation: VRMFirstPerson's
   headless copy). erase_nodes holds node_count flags (model order): for
   every skinned primitive of the scene (triangles, strips and fans), an
   alternate triangle list is made without the triangles that have a
   vertex weighted (> 0) to a flagged joint; a frame selects it per node
   through sw_render_frame_avatar.headless_nodes. A primitive that loses
   no triangle gets none (it draws whole). NULL clears them. Call after
   sw_renderer_set_scene (which clears them); a later call replaces them.
   out_erased, when not NULL, receives node_count counts: the triangles
   erased from each node's mesh. */
sw_result sw_renderer_set_erased_joints(sw_renderer* renderer, const uint8_t* erase_nodes, size_t* out_erased,
                                        sw_diag* diag);

/* Replaces the toon data of material `material` (present = true makes it
   toon under SW_RENDER_STYLE_AUTO) and remakes its ramp and uniform block:
   for programs that build their materials in code. The textures it names
   are the model's, drawn from the scene's material set. */
sw_result sw_renderer_set_toon_material(sw_renderer* renderer, uint32_t material, const sw_toon_material* toon,
                                        sw_diag* diag);

/* ---- Stages (docs/stage.md) ----

   A stage is a set of models drawn with the character: the ground it
   stands on, walls, props. Each stage model is drawn whole (every (node,
   primitive), its own materials) at its rest pose, or at a frame's
   stage_poses entry, then moved by its placement. A static stage model is
   skinned once and never again (the skin cache is not even asked). Every
   pass draws it as it draws the character (shadow map, G-buffer, toon,
   transparent pass); what belongs to the character alone stays so:
   hidden and headless nodes, crowds, material overrides, the weight and
   retention views, sw_renderer_scene_bounds. While a stage is set the
   built-in ground is not drawn, and the light's shadow box covers the
   character's scene box joined with the stage, clamped to a cube of side
   SW_RENDER_STAGE_SHADOW_REACH × the character box's largest side (at
   least 1 unit) around the character (a large stage keeps the shadow map's
   detail on the character's surroundings). */
typedef struct sw_render_stage_model {
    const sw_model* model;
    const sw_material_set* materials; /* as in sw_renderer_set_scene; NULL: no textures, no toon data */
    sw_mat34 placement;               /* world transform after its pose (sw_mat34_identity(): none) */
} sw_render_stage_model;

#define SW_RENDER_STAGE_SHADOW_REACH 8

/* Sets the stage (count models, copied; their models and material sets
   must outlive the renderer, the next set_stage or set_scene): call after
   sw_renderer_set_scene, which clears it. count 0 clears it. Checks the
   material counts and extents as set_scene does, naming the stage model.
   The scene box is recomputed at the next frame unless
   sw_renderer_set_scene_box is called again. */
sw_result sw_renderer_set_stage(sw_renderer* renderer, const sw_render_stage_model* models, size_t count,
                                sw_diag* diag);
/* The world-space bounds of the stage as drawn at rest (false: no stage). */
bool sw_renderer_stage_bounds(const sw_renderer* renderer, float out_min[3], float out_max[3]);

/* Makes the GPU objects of a crowd of `count` copies of the scene (palettes
   per skin, output buffers, outline instances; see sw_render_frame's
   crowd), so that frames with crowd.count = count draw; 0 frees them.
   Call after set_scene, before the crowd's first frame: sw_renderer_draw
   makes nothing, and a frame whose crowd.count is not the prepared count
   is SW_ERR_INVALID_ARGUMENT. */
sw_result sw_renderer_set_crowd(sw_renderer* renderer, size_t count, sw_diag* diag);

/* Which lighting model the character's materials get. */
typedef enum sw_render_style {
    SW_RENDER_STYLE_AUTO = 0,  /* toon where the material set gives toon data, PBR elsewhere */
    SW_RENDER_STYLE_TOON,      /* toon everywhere: materials without toon data via sw_toon_derive */
    SW_RENDER_STYLE_PBR,       /* glTF metallic-roughness everywhere, toon data ignored */
} sw_render_style;

/* Ambient occlusion (docs/ao.md): the 18-direction screen AO and the
   characters' shape proxies (capsules fitted to the skeleton), multiplied
   into the lit (non-toon) pixels' ambient light; the proxies also soften
   the direct light (contact shadows). DEFAULT is on. */
typedef enum sw_render_ao {
    SW_RENDER_AO_DEFAULT = 0,
    SW_RENDER_AO_ON,
    SW_RENDER_AO_OFF,
} sw_render_ao;

/* Anti-aliasing of the post chain (docs/post.md): a set of two bits. */
typedef enum sw_render_aa {
    SW_RENDER_AA_NONE = 0,
    SW_RENDER_AA_EDGE = 1,        /* morphological edge AA on the current frame (SMAA 1x-style) */
    SW_RENDER_AA_TAA = 2,         /* temporal: jittered frames accumulated into a history */
    SW_RENDER_AA_EDGE_TAA = 3,    /* edge AA, then TAA (the frame analysis's order) */
} sw_render_aa;

/* The cameras of a frame. */
typedef struct sw_render_frame_camera {
    sw_camera current;
    sw_camera previous;           /* for motion vectors; the same as current for a still one */
} sw_render_frame_camera;

/* What is drawn instead of (or over) the shaded picture. */
typedef struct sw_render_frame_debug {
    sw_render_view view;
    int32_t weight_joint;         /* node index (model order) of the joint for SW_RENDER_VIEW_WEIGHTS */
    bool bones;                   /* draw the skeleton's bones over the image */
    bool split;                   /* LBS in the left half, DQS in the right half */
    /* Draw every rigid draw, tested or not against the Hi-Z pyramid
       (docs/depth.md): the same picture, for comparison. */
    bool no_occlusion_culling;
} sw_render_frame_debug;

/* Weather (docs/weather.md): falling snow around the camera, drawn with
   the transparent draws. */
typedef enum sw_render_weather_kind {
    SW_RENDER_WEATHER_NONE = 0,
    SW_RENDER_WEATHER_SNOW,
} sw_render_weather_kind;

typedef struct sw_render_weather {
    sw_render_weather_kind kind;
    /* Flakes per cubic metre in the 20 m cube around the eye (0: the
       default, 3; at most 8). */
    float density;
    /* The wind, m/s along world x and z: the flakes drift with it. */
    float wind[2];
} sw_render_weather;

/* Toon lighting (docs/DESIGN.md, "Toon lighting in the renderer"). A toon
   material is lit in the G-buffer pass for the one directional light: HDR
   colour = base × (shade × light colour + hemisphere ambient) + hair bands
   + rim + glints, where shade is white on the lit side and the ramp texel
   the rules of sinew/toon.h pick on the dark side (the shadow map moves
   pixels to the dark side; it never darkens the lit colour). An
   inverted-hull outline is drawn around it. A material read from MToon
   (VRM 1.0 or 0.x) is lit by MToon 1.0's own model instead
   (docs/toon.md, "MToon lighting"). */
typedef struct sw_render_frame_shading {
    sw_render_style style;
    bool night;                   /* the ramps' night rows */
    /* Seconds: glint pulses, UV animation. The step from the previous
       frame's time gives the UV animation's motion vectors (TAA, motion
       blur; none on a first frame). */
    float time;
    /* Towards the light; all zero: the default (from the upper front left),
       or with a time of day the sun above the horizon, else the moon. */
    float light_direction[3];
    /* MASK materials without the depth pre-pass (one alpha-tested pass, as
       before it): for comparisons; the picture is the same. */
    bool no_mask_prepass;
    /* The sky (docs/sky.md): with time_of_day_given, the hour 0..24 of a
       day at 45° north on an equinox sets the sun, the sky's colours, the
       stars (at night) and the light's direction; otherwise the default
       sky, a gradient from a pale horizon to a blue zenith. */
    bool time_of_day_given;
    float time_of_day;
    sw_render_ao ao;              /* ambient occlusion; zero: on */
    /* Volumetric fog (docs/fog.md): a uniform medium of `fog_density`
       extinction per unit (0: no fog, the picture as without it), lit by
       the light and the ambient, scattering `fog_colour` (all zero: white)
       of what it takes out, composited after the sky. */
    float fog_density;
    float fog_colour[3];
    /* A ground layer in the same medium: fog_height_density more
       extinction per unit at or below the height fog_height_base, falling
       off above it as exp(−(y − base)/fog_height_falloff) (0: a sharp
       top). Fog is drawn when either density is above 0. */
    float fog_height_density;
    float fog_height_base;
    float fog_height_falloff;
    /* The character's environment feedback (docs/feedback.md): she darkens
       in the stage's shadow and takes the colour of the surroundings she
       faces, from the state the previous frames left (the first frame is
       unaffected). Off: the state is reset. */
    bool env_feedback;
    /* Snow (SW_materials_snow, docs/snow.md) keeps the footprints of the
       character's feet unless this is set. */
    bool no_footprints;
    /* Falling snow (docs/weather.md): flakes that fall at their own
       speeds, drift with the wind and sway, placed by `time` alone (any
       time renders the same flakes); lit by the sun and the ambient and
       read through the fog at their depth. */
    sw_render_weather weather;
} sw_render_frame_shading;

/* The post chain (docs/post.md). After the lighting: motion blur and bloom
   on the HDR target, display mapping (ACES fit, sRGB), then edge AA and
   TAA on display-referred values. All zero: display mapping alone. Debug
   views skip the chain. */
typedef struct sw_render_frame_post {
    sw_render_aa aa;
    bool bloom;                   /* bright pass, down and up chain, added before display mapping */
    bool motion_blur;             /* along the motion vectors (a 180° shutter); for sequences */
    /* TAA: the jitter phase (frame_index mod 8 of a Halton(2,3) sequence).
       Count up by one per frame; first_frame (or a frame without TAA before
       it) starts the history over. A converged still needs warm-up frames
       of the same pose and camera: SW_RENDER_TAA_WARM_UP. */
    uint32_t frame_index;
} sw_render_frame_post;

/* Crowds: count > 0 draws that many copies of the scene instead of one
   (sw_renderer_set_crowd must have prepared as many): copy i posed by
   poses[i] and moved by placements[i] (a world transform applied after
   the pose; NULL: every copy where its pose puts it). Each skin is posed
   for all copies at once and each (node, primitive) skinned for all of
   them in one compute dispatch (sinew/gpu.h, "Crowds") and drawn with one
   instanced draw in the G-buffer and toon passes (the shadow map draws
   copy after copy). The frame's `pose` stays required: the bones are drawn
   for it, and toon faces of every copy are shaded with its head's frame.
   Morph weights are poses[0]'s; split views and the weight view draw the
   crowd too. The ground and shadow map cover the box given to
   sw_renderer_set_scene_box, else the first crowd frame's skinned
   bounds. */
typedef struct sw_render_frame_crowd {
    size_t count;
    const sw_pose* const* poses;
    const sw_mat34* placements;
} sw_render_frame_crowd;

/* An avatar's per-frame state that is not in the pose: what VRM
   expressions bind to materials, and which meshes (or, for skinned ones,
   which triangles) a first-person or third-person view hides. All zero: the materials as prepared, every mesh
   drawn. */
typedef enum sw_render_override_field {
    SW_RENDER_OVERRIDE_BASE_COLOR   = 1u << 0, /* base_color (RGBA, linear) replaces baseColorFactor */
    SW_RENDER_OVERRIDE_EMISSIVE     = 1u << 1, /* emissive replaces emissiveFactor */
    SW_RENDER_OVERRIDE_SHADE_COLOR  = 1u << 2, /* MToon shadeColorFactor */
    SW_RENDER_OVERRIDE_MATCAP_COLOR = 1u << 3, /* MToon matcapFactor */
    SW_RENDER_OVERRIDE_RIM_COLOR    = 1u << 4, /* MToon parametricRimColorFactor */
    SW_RENDER_OVERRIDE_OUTLINE_COLOR = 1u << 5, /* MToon outlineColorFactor */
    /* uv_scale, uv_offset applied after each texture's own transform, to
       the textures three-vrm's texture-transform bind moves: base colour,
       normal (and the toon normal map), emissive, MToon's shade multiply,
       rim multiply, outline width and UV animation mask, glTF's
       metallic-roughness; not the shading shift, matcap or occlusion
       textures (docs/toon.md, "Expression binds and hidden meshes"). */
    SW_RENDER_OVERRIDE_UV_TRANSFORM = 1u << 6,
} sw_render_override_field;

typedef struct sw_render_material_override {
    uint32_t material;            /* model material index */
    uint32_t fields;              /* sw_render_override_field bits: which values below apply */
    float base_color[4];
    float emissive[3];
    float shade_color[3];
    float matcap_color[3];
    float rim_color[3];
    float outline_color[3];
    float uv_scale[2];            /* VRM textureTransformBind: uv' = uv · scale + offset */
    float uv_offset[2];
} sw_render_material_override;

/* sw_renderer_draw refuses an override naming a material the model lacks
   (SW_ERR_INDEX_OUT_OF_RANGE) and two for one material
   (SW_ERR_INVALID_ARGUMENT). */
typedef struct sw_render_frame_avatar {
    size_t material_override_count;
    const sw_render_material_override* material_overrides; /* at most one per material */
    /* node_count flags (model order), NULL: none. A node whose flag is
       non-zero does not draw its mesh (in any pass, shadows included). */
    const uint8_t* hidden_nodes;
    /* node_count flags (model order), NULL: none. A node whose flag is
       non-zero draws its skinned primitives without the triangles
       sw_renderer_set_erased_joints erased (in every pass); hidden_nodes
       wins. */
    const uint8_t* headless_nodes;
} sw_render_frame_avatar;

/* One frame: zero means default in every part. */
typedef struct sw_render_frame {
    const sw_pose* pose;          /* the model's pose after sw_pose_update: world and skin matrices, weights */
    sw_skin_method method;        /* LBS (default) or DQS */
    /* The first frame of a sequence (or a single picture): there is no
       previous frame, so motion is zero (previous positions = current) and
       TAA starts over. */
    bool first_frame;
    sw_render_frame_camera camera;
    sw_render_frame_debug debug;
    sw_render_frame_shading shading;
    sw_render_frame_post post;
    sw_render_frame_crowd crowd;
    sw_render_frame_avatar avatar;
    /* Where the character stands: a world transform applied after its pose
       (its palettes are placement · skin matrices, as a crowd copy's, so
       motion vectors, shadows and toon head frames follow). NULL: none.
       Crowd frames ignore it (their copies carry placements). */
    const sw_mat34* placement;
    /* The stage (sw_renderer_set_stage): stage model k drawn at
       stage_poses[k] (a pose of that model after sw_pose_update) · its
       placement; NULL, or a NULL entry: its rest pose, skinned once. */
    const sw_pose* const* stage_poses;
} sw_render_frame;

/* Frames to draw before a single TAA picture, frame_index 0, 1, ...,
   the same pose and camera: one whole jitter cycle, so the picture
   averages every phase. */
#define SW_RENDER_TAA_WARM_UP 8

/* Renders one frame into the renderer's targets. */
sw_result sw_renderer_draw(sw_renderer* renderer, const sw_render_frame* frame, sw_diag* diag);

/* World-space bounds of the scene at a pose (every drawn vertex, skinned
   on the GPU and read back). Returns SW_ERR_INVALID_DATA for an empty
   scene and for a posed vertex that is not finite or lies beyond
   SW_MODEL_MAX_EXTENT. Does not draw; the skin cache sees the pose. The
   character's alone (not the stage), without a frame's placement. */
sw_result sw_renderer_scene_bounds(sw_renderer* renderer, const sw_pose* pose, float out_min[3], float out_max[3],
                                   sw_diag* diag);

/* The box the ground and the shadow map are fitted to (the ground lies at
   its lowest y), in world space (a placed character's box placed; a
   stage joins it for the shadow map, see "Stages"). By default the first
   drawn frame's skinned bounds, moved by its placement; a
   sequence whose character travels should give the bounds of all of it
   (sinew render gives those of the whole clip). */
void sw_renderer_set_scene_box(sw_renderer* renderer, const float box_min[3], const float box_max[3]);

/* Punctual lights (KHR_lights_punctual; docs/transparency.md, "Lights"),
   added to the default sun, which stays. World space. Units as glTF's,
   scaled by 1: the renderer has no physical exposure, and a light's
   colour × intensity is the light arriving in the units of the sun's
   colour (about 2.5): a directional light of intensity 1 (lux) adds what
   a sun of colour 1 adds; a point or spot light of 1 cd adds colour / d²
   (d in metres) with glTF's range window max(min(1 − (d/range)⁴, 1), 0)
   (range 0: none) and, for a spot, glTF's smooth cone
   (sat(cos θ · scale + offset))², scale = 1 / max(0.001, cos inner − cos
   outer), offset = −cos outer · scale. They cast no shadow. */
typedef enum sw_render_light_type {
    SW_RENDER_LIGHT_DIRECTIONAL = 0,
    SW_RENDER_LIGHT_POINT = 1,
    SW_RENDER_LIGHT_SPOT = 2,
} sw_render_light_type;
typedef struct sw_render_light {
    sw_render_light_type type;
    float position[3];            /* point, spot */
    float direction[3];           /* directional, spot: where the light points (unit or not; normalised here) */
    float color[3];               /* linear RGB */
    float intensity;              /* candela (point, spot), lux (directional) */
    float range;                  /* metres; 0 = unbounded */
    float inner_cone, outer_cone; /* spot: radians, 0 ≤ inner < outer ≤ π/2 */
} sw_render_light;
#define SW_RENDER_LIGHT_MAX 16
/* Replaces the punctual lights (count 0: none). More than
   SW_RENDER_LIGHT_MAX: SW_ERR_INVALID_ARGUMENT (the caller picks). A light
   with a non-finite value, a negative intensity or range, or cones out of
   order: SW_ERR_INVALID_ARGUMENT naming it. Read by the lighting pass and
   the transparent pass's forward path alike. */
sw_result sw_renderer_set_lights(sw_renderer* renderer, const sw_render_light* lights, size_t count, sw_diag* diag);
/* A model's light (sinew/model.h, KHR_lights_punctual) placed by its
   node's world matrix (e.g. a pose's world[light->node]): the position is
   the matrix's translation, the direction its −Z axis. */
void sw_render_light_from_model(const sw_model_light* light, const sw_mat34* world, sw_render_light* out);
/* The C reference of the shaders' punctual light (lighting_common.glsl):
   at world point p, the unit direction towards the light and the light
   arriving there (colour × intensity × distance and cone attenuation). */
void sw_render_light_incident(const sw_render_light* light, const float p[3], float out_direction[3],
                              float out_light[3]);

/* KHR_materials_transmission and KHR_materials_volume as the transparent
   pass approximates them (docs/transparency.md, "Transmission"), the C
   reference of gbuffer.frag: a surface of lit colour `surface`, alpha a
   (1 for an OPAQUE material), transmission t, base colour `base`, over
   `behind` (the HDR colour already there):
     T   = base × attenuation_color^(thickness / attenuation_distance)
           (Beer–Lambert along the thickness; distance 0: no attenuation)
     out = a·(1 − t)·surface + ((1 − a) + a·t·T)·behind
   No refraction offset, no roughness blur, the thickness as the path
   length at any angle; the textures of both extensions are not read. */
void sw_render_transmit(const float surface[3], float alpha, float transmission, const float base[3], float thickness,
                        float attenuation_distance, const float attenuation_color[3], const float behind[3],
                        float out[3]);

/* Deferred box decals (docs/decals.md): drawn after the G-buffer's opaque
   draws and before the lighting, they change the base colour and (with a
   normal map) the normal of what lies inside their box, and nothing else:
   the class byte, material and motion targets keep their values. A decal
   is the world transform of the unit cube [-0.5, 0.5]^3 and projects
   along its local -Y: its picture lies on the local XZ square (u = x +
   0.5 to the right, v = z + 0.5 down the picture), its +Y faces out of
   the surfaces it lands on; surfaces turned away from +Y by more than
   about 70 degrees are left alone (a smooth fade from 60). It lands only
   on pixels of the receiving classes: by default the ground and stage
   classes, never a character's. Colour weight = baseColor alpha (factor x
   texture) x opacity; normal weight = that alpha x normal_strength;
   "over" blending in linear colour. */
typedef struct sw_render_decal {
    sw_mat34 box;                     /* world from decal space */
    float base_color[4];              /* linear RGB and alpha, times the texture */
    const sw_material_image* base_color_image; /* sRGB colour, linear alpha; NULL or no pixels: white */
    const sw_material_image* normal_image;     /* tangent space (red +u, green up the picture, blue
                                                  out); NULL or no pixels: the normal is kept */
    float opacity;                    /* 0..1 */
    float normal_strength;            /* 0..1 */
    uint32_t receivers;               /* bit k: class k (SW_RENDER_CLASS_*) takes it; 0 = ground and stage */
} sw_render_decal;
#define SW_RENDER_DECAL_MAX 64
/* Replaces the decals (count 0: none); the images are uploaded now and
   need not outlive the call. More than SW_RENDER_DECAL_MAX, a box without
   an inverse, a non-finite value or a weight outside 0..1:
   SW_ERR_INVALID_ARGUMENT naming the decal. Kept across set_scene. */
sw_result sw_renderer_set_decals(sw_renderer* renderer, const sw_render_decal* decals, size_t count, sw_diag* diag);

/* ---- Environment probes (docs/probes.md) ----
   A probe is a point where the stage's light was captured as six cube
   faces, kept as its radiance projected on the nine spherical harmonics of
   bands 0..2 (SH9), and an axis-aligned box: inside it the probe's weight
   is 1, outside it falls to 0 over `fade` metres. Surfaces lit by the
   lighting and toon passes take their ambient from the probes (weights
   taken in order from a budget of 1) instead of the sky/ground
   hemisphere, which fills whatever the probes leave. */
#define SW_RENDER_PROBE_MAX 64
typedef struct sw_render_probe {
    float position[3];                /* where it was captured (world) */
    float box_min[3], box_max[3];     /* its box (world, axis-aligned) */
    float fade;                       /* the transition width outside the box, metres (≥ 0) */
    float sh9[9][3];                  /* linear radiance on SH9: Y00, Y1-1, Y10, Y11, Y2-2, Y2-1, Y20, Y21, Y22 */
} sw_render_probe;
/* Replaces the probes (count 0: none). More than SW_RENDER_PROBE_MAX, a
   non-finite value, an inverted box or a negative fade:
   SW_ERR_INVALID_ARGUMENT naming the probe. Kept across set_scene. */
sw_result sw_renderer_set_probes(sw_renderer* renderer, const sw_render_probe* probes, size_t count, sw_diag* diag);
/* Captures a probe at `position`: draws `frame` six times with its camera
   replaced by the 90° cube cameras there (GL's face order and
   orientation; no post chain), reads the HDR target and projects it on
   SH9 into out_sh9. The renderer must be square (its width is the face
   size) and hold no probes (the capture would see them). The frame's
   character is drawn too: place her away (frame->placement) to leave her
   out. */
sw_result sw_renderer_capture_probe(sw_renderer* renderer, const sw_render_frame* frame, const float position[3],
                                    float out_sh9[9][3], sw_diag* diag);
/* Specular (docs/probes.md, "Specular"): a probe's six HDR cube faces
   (base face size N, a power of two from 4 to SW_RENDER_PROBE_CUBE_MAX)
   prefiltered by roughness into log2(N) + 1 mips, mip m for the
   perceptual roughness m / (mips − 1) (mip 0 the mirror). A cube's floats:
   mip by mip, the six faces in GL's order (+X, −X, +Y, −Y, +Z, −Z), rows
   (row 0 at t = −1), rgb. */
#define SW_RENDER_PROBE_CUBE_MAX 64
int sw_render_probe_cube_mips(int size);
size_t sw_render_probe_cube_floats(int size);
/* Prefilters `faces` (6 × size² × rgb, as sw_renderer_capture_probe_faces
   reads them) into out_cube (sw_render_probe_cube_floats(size) floats):
   each mip the GGX lobe's average of the faces (docs/probes.md). A size
   that is not a power of two from 4 to SW_RENDER_PROBE_CUBE_MAX:
   SW_ERR_INVALID_ARGUMENT. */
sw_result sw_render_probe_prefilter(const float* faces, int size, float* out_cube, sw_diag* diag);
/* Projects six faces (as sw_render_probe_prefilter takes them) on SH9, as
   sw_renderer_capture_probe does. */
void sw_render_probe_project_sh9(const float* faces, int size, float out_sh9[9][3]);
/* As sw_renderer_capture_probe, but keeps the six HDR faces (6 × size² ×
   rgb floats, size the renderer's width; non-finite values as 0) instead
   of projecting them. */
sw_result sw_renderer_capture_probe_faces(sw_renderer* renderer, const sw_render_frame* frame, const float position[3],
                                          float* out_faces, sw_diag* diag);
/* The probes' specular: 1 + the probe count prefiltered cubes of base
   size `size` (cube 0 the global cube, which fills whatever the probes'
   weights leave; cube 1 + i probe i of sw_renderer_set_probes). Surfaces
   of the lighting pass then reflect them (box-projected, the mip chosen by
   roughness) instead of the hemisphere. size 0: none (the ambient's
   specular is the hemisphere's again). sw_renderer_set_probes drops them:
   set the probes first. */
sw_result sw_renderer_set_probe_cubes(sw_renderer* renderer, int size, const float* cubes, sw_diag* diag);
/* The probe file (docs/probes.md, "The file"), little-endian: the 8 bytes
   "SWPROBES", u32 version, u32 probe count (≤ SW_RENDER_PROBE_MAX), u32
   floats per probe (37), then version 1: u32 reserved (0); version 2: u32
   cube size (0: no specular), u32 mips, u32 reserved (0). Then per probe
   37 float32: position, box_min, box_max, fade, sh9 (27); version 2 with a
   cube size: 1 + count cubes of float32 (sw_render_probe_cube_floats),
   the global cube first. sw_render_probe_file_write writes version 1 (no
   specular), sw_render_probe_file_write_specular version 2; the readers
   read both. Their sizes in bytes: */
#define SW_RENDER_PROBE_FILE_VERSION 2
size_t sw_render_probe_file_size(size_t count);
size_t sw_render_probe_file_specular_size(size_t count, int cube_size);
/* Writes `count` probes into out (sw_render_probe_file_size(count) bytes), version 1. */
sw_result sw_render_probe_file_write(const sw_render_probe* probes, size_t count, uint8_t* out, size_t out_size,
                                     sw_diag* diag);
/* Writes a version 2 file: `count` probes and, with cube_size > 0, their
   1 + count cubes (as sw_renderer_set_probe_cubes takes them) into out
   (sw_render_probe_file_specular_size(count, cube_size) bytes). */
sw_result sw_render_probe_file_write_specular(const sw_render_probe* probes, size_t count, int cube_size,
                                              const float* cubes, uint8_t* out, size_t out_size, sw_diag* diag);
/* Reads a probe file (version 1 or 2) of `size` bytes into out (room for
   SW_RENDER_PROBE_MAX). A wrong magic, another version, a size that is not
   the header's, a probe sw_renderer_set_probes would refuse, a bad cube
   size or a cube texel that is negative or not finite: SW_ERR_INVALID_DATA
   with a message saying which. */
sw_result sw_render_probe_file_read(const uint8_t* bytes, size_t size, sw_render_probe* out, size_t* out_count,
                                    sw_diag* diag);
/* The cube size of a file sw_render_probe_file_read took (0: none, as
   every version 1 file), and its cubes into out (out_floats ≥ (1 + count)
   × sw_render_probe_cube_floats(cube size); else SW_ERR_BUFFER_TOO_SMALL). */
int sw_render_probe_file_cube_size(const uint8_t* bytes, size_t size);
sw_result sw_render_probe_file_read_cubes(const uint8_t* bytes, size_t size, float* out, size_t out_floats,
                                          sw_diag* diag);

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
/* The TAA history state after the last frame (docs/post.md): per pixel
   (retention 0..1, accumulated frames / 12), × 2 floats.
   SW_ERR_INVALID_ARGUMENT when the last frame had no TAA. */
sw_result sw_renderer_read_taa_state(sw_renderer* renderer, float* out_state, sw_diag* diag);
/* The per-vertex values the weight attribute held in the last frame drawn
   with SW_RENDER_VIEW_WEIGHTS or SW_RENDER_VIEW_RETENTION (a joint's
   weight, or the retention), read back from the GPU, for one (node,
   primitive): vertex_count floats. SW_ERR_INVALID_ARGUMENT before any
   such frame; SW_ERR_INDEX_OUT_OF_RANGE when the pair is not drawn. */
sw_result sw_renderer_read_vertex_values(sw_renderer* renderer, size_t node, size_t primitive, float* out_values,
                                         sw_diag* diag);

/* The GL texture (RGBA8, width × height, rows bottom to top) that holds
   the last frame's final image, for a program that shows it in a window
   of its own context (sinew view blits it): read it, never write it. */
uint32_t sw_renderer_image_texture(const sw_renderer* renderer);

typedef struct sw_renderer_stats {
    size_t primitives;            /* drawn (node, primitive) instances */
    size_t triangles;
    size_t textures, texture_failures;
    sw_gpu_skin_stats skin;       /* the skin cache's counts */
    /* GPU time of a recent frame's skinning dispatches (a GL timer query,
       read once the GPU has it, without waiting), milliseconds; 0 until
       the first result. The "skinning" pass of sw_renderer_get_pass_times. */
    double skin_gpu_ms;
    /* Alpha-tested (MASK) draws the last frame drew with a depth pre-pass
       and a depth-equal colour pass (docs/transparency.md, "Plants"). */
    size_t mask_prepass_draws;
    /* The last frame's occlusion culling (docs/depth.md): rigid draws
       tested against the Hi-Z pyramid in the G-buffer pass's second phase,
       and those of them found hidden and not drawn. */
    size_t occlusion_tested, occlusion_culled;
    bool reverse_z;               /* the renderer draws with reverse-Z depth */
} sw_renderer_stats;
void sw_renderer_get_stats(const sw_renderer* renderer, sw_renderer_stats* out_stats);

/* Frame cost per pass. Every pass of sw_renderer_draw (in frame order:
   "skinning", "shadow", "gbuffer", "lighting", "transparent", "post"; more
   as the renderer grows) is timed twice:
   - gpu_ms: a GL_TIME_ELAPSED timer query around the pass, read once the
     driver has answered (a few frames late; drawing never waits for it).
     On a hardware GPU it is the pass's execution time on the GPU; on Mesa
     llvmpipe (software GL) it is the CPU time its rasteriser threads spent
     executing the pass.
   - cpu_ms: the wall time the pass took on the calling thread. Normally
     the time to submit its GL calls (a driver runs them later); with
     sw_renderer_set_exact_pass_times on, each pass ends in glFinish, so it
     is the pass's whole cost including its execution (and every pass pays
     a pipeline drain: for measuring, not for shipping).
   The _ms values are the newest answered frame (gpu) and the last drawn
   frame (cpu); the _average_ms values average every frame timed so far,
   over gpu_frames / cpu_frames frames (0 until the first). A pass drawn
   twice in a frame (the split LBS|DQS view) counts both. A pass a frame
   did not run keeps its older values. */
typedef struct sw_render_pass_time {
    const char* name; /* static, lower case */
    double gpu_ms, cpu_ms;
    double gpu_average_ms, cpu_average_ms;
    uint64_t gpu_frames, cpu_frames;
} sw_render_pass_time;
/* Writes the first min(capacity, count) passes to out (NULL: none) and
   returns the count of passes. */
size_t sw_renderer_get_pass_times(const sw_renderer* renderer, sw_render_pass_time* out, size_t capacity);
/* Waits for every timer query not answered yet and adds it to the pass
   times (a stall: call once drawing is over, before reading them). */
void sw_renderer_wait_pass_times(sw_renderer* renderer);
/* On: a glFinish before and after every pass, so cpu_ms is each pass's
   whole cost (see sw_render_pass_time). Off by default. */
void sw_renderer_set_exact_pass_times(sw_renderer* renderer, bool exact);

/* Static shadow casters (docs/shadows.md): the draws of the nodes flagged
   in `nodes` (the scene model's node_count flags; NULL: none) cast a
   shadow that is drawn once from the light, compressed and decoded into
   the shadow map every frame, under the other casters. The caller
   promises they do not move; they are re-drawn when the light or the
   scene box changes. SW_ERR_INVALID_ARGUMENT without a scene. */
sw_result sw_renderer_set_static_casters(sw_renderer* renderer, const bool* nodes, sw_diag* diag);

/* The static shadow cache's last bake. */
typedef struct sw_shadow_cache_stats {
    bool active;                  /* static casters were baked and are decoded each frame */
    size_t bytes;                 /* the compressed records */
    size_t texels;                /* of the map they replace */
    double ratio_float32;         /* texels·4 / bytes */
    double ratio_depth16;         /* texels·2 / bytes */
    double max_error, mean_error; /* |decoded − drawn depth| over the map, light depth units */
    double max_nearer;            /* the most a decoded depth lies nearer the light than drawn */
    uint64_t bakes;               /* how many times it was drawn and compressed */
    double bake_ms;               /* CPU time of the last bake (read back, encode, upload) */
} sw_shadow_cache_stats;
void sw_renderer_get_shadow_cache_stats(const sw_renderer* renderer, sw_shadow_cache_stats* out_stats);

/* The GLSL of every renderer stage as compiled (version line included),
   for offline validation: visit(name, stage, source, user), stage "vert"
   or "frag" (sw_gpu_shader_sources does the same for the skinner's). */
void sw_render_shader_sources(void (*visit)(const char* name, const char* stage, const char* source, void* user),
                              void* user);

SW_EXTERN_C_END

#endif
