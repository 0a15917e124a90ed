/* sinew/toon.h — anime-style ("toon") character materials: the parameters
   the renderer's toon lighting model reads, where they come from, and the
   shading rules as plain C functions (the GLSL of the renderer follows
   them; the tests check both).

       sw_toon_material* toon = calloc(model->material_count, sizeof *toon);
       sw_toon_read(model, toon, &diag);   // SW_materials_toon, VRMC_materials_mtoon or VRM 0.x MToon
       ... toon[i].present says which materials have toon data ...

   SOURCES, in order of preference per material:
     1. SW_materials_toon, sinew's own material extension (docs/toon.md,
        docs/SW_materials_toon.schema.json): every field below;
     2. VRMC_materials_mtoon (VRM 1.0) on the material;
     3. the VRM 0.x root extension "VRM", materialProperties[] whose shader
        is "VRM/MToon", matched by material name;
   a material with none of them has present = false. sw_toon_derive fills a
   toon material from a metallic-roughness one (`sinew render --style
   toon` on a plain glTF): ramps from the base colour.

   The shading rules come from the frame analysis of an anime-style game
   (docs/toon.md gives each formula, its numbers and which parts are
   reconstructions).

   Threads: the rules (defaults, derivation, ramps, regions, the shadow
   area, the hash) are pure functions in the core: no state, no
   allocation, thread-safe. sw_toon_read (sinew-import) keeps no state
   and only reads the model; sw_toon_bake_face_sdf allocates its working
   memory per call. Any of them may run on any thread at once. */
#ifndef SINEW_TOON_H
#define SINEW_TOON_H

#include "sinew/model.h"

SW_EXTERN_C_BEGIN

/* The ramp texture layout: 256 × 20 texels, 10 bands of 2 rows; group g
   (1..5) uses row sw_toon_ramp_row(g, night). */
#define SW_TOON_RAMP_WIDTH 256
#define SW_TOON_RAMP_HEIGHT 20
#define SW_TOON_REGION_COUNT 5

typedef enum sw_toon_kind {
    SW_TOON_BODY = 0,   /* skin, clothes: region bands, ramps, glints */
    SW_TOON_HAIR,       /* + two specular bands and hair glint tiers */
    SW_TOON_FACE,       /* SDF face shadow instead of N·L */
    SW_TOON_EYE,        /* parallax iris + matcap */
} sw_toon_kind;

typedef enum sw_toon_source {
    SW_TOON_SOURCE_NONE = 0,
    SW_TOON_SOURCE_SW,          /* SW_materials_toon */
    SW_TOON_SOURCE_MTOON,       /* VRMC_materials_mtoon (VRM 1.0) */
    SW_TOON_SOURCE_MTOON_VRM0,  /* VRM 0.x materialProperties */
    SW_TOON_SOURCE_DERIVED,     /* sw_toon_derive */
} sw_toon_source;

/* One set of procedural glints (a UV grid with two random spots per cell). */
typedef struct sw_toon_glint {
    float grid;             /* cells per UV unit */
    float spot_scale;       /* s: a spot covers squared distance < s·r3 */
    float phase_rate;       /* pulse phase per second */
    float active_width;     /* w: the part of the phase cycle a spot is on */
    float intensity;
    float luma_lerp;        /* 0 = random colours, 1 = luma × colour */
    float color[3];         /* linear RGB */
    float camera_scale;     /* the camera position's horizontal pair scale in the phase */
} sw_toon_glint;

typedef struct sw_toon_material {
    bool present;
    sw_toon_source source;
    sw_toon_kind kind;

    /* Region bands and ramps. Control ("ILM") map: G = shadow threshold,
       B = detail-normal gate, A = region band. Without it G = 0.5, B = 0,
       A = 0 (group 1). Without a ramp texture the renderer derives one
       from shade_color, shading_shift and shading_toony (sw_toon_ramp_from_shade). */
    sw_model_texture_ref control_texture;
    sw_model_texture_ref ramp_texture;         /* 256×20, rows as sw_toon_ramp_row */
    float shade_color[3];                      /* linear RGB multiplier of the dark side */
    float shading_shift;                       /* MToon: moves the terminator, −1..1 */
    float shading_toony;                       /* MToon: 0 soft .. 1 hard */
    bool region_enabled[SW_TOON_REGION_COUNT]; /* [0] (group 1) is always on */
    float light_area;                          /* 0.55 */
    float ramp_width;                          /* 1 */
    bool vertex_color_threshold;               /* g *= vertex colour R */
    bool vertex_color_width;                   /* width from vertex colour G */

    /* Double-sided cloth: back faces read TEXCOORD_1 and a flipped normal. */
    bool back_uv1;
    bool back_force_dark;

    /* The toon normal map (the analysis' layout: RG = normal XY, B = glint
       mask, A = hair glint tier), preferred over the material's core
       normalTexture, whose B other viewers read as Z. Without either, the
       glint mask is 1. */
    sw_model_texture_ref normal_texture;

    /* Detail normals from screen derivatives (cotangent frame). */
    sw_model_texture_ref detail_normal_texture; /* RG normal, A mask */
    float detail_gate;                          /* applies where control B <= detail_gate (0.95) */

    /* Glints: mask = the toon normal texture's B (above). */
    int glint_count;                 /* 0..2 */
    sw_toon_glint glints[2];

    /* Hair: two specular bands from H' = normalize(normalize(V + (0, view_lift, 0)) + L). */
    float view_lift;                 /* −0.06 */
    float band_exponent[2];          /* 6.4, 5 */
    float band_lower[2];             /* 0, 0 */
    float band_upper[2];             /* 0.844, 0.773 */
    float band_intensity[2];         /* 0.099, 0.399 */
    float band_color[2][3];

    /* Rim light: rim_color · sat((1 − N·V + rim_lift − (1 − rim_width)) / rim_width)^rim_power
       (× the rim mask's R; under MToon lighting × its RGB, an sRGB
       texture); rim_width = 1 is MToon's parametric rim. */
    float rim_color[3];
    float rim_width;                 /* fraction of the N·V range lit from the silhouette */
    float rim_power;
    float rim_lift;                  /* MToon parametricRimLiftFactor */
    sw_model_texture_ref rim_mask_texture;

    /* Face: the SDF threshold map (R lower half, A upper half). */
    sw_model_texture_ref face_sdf_texture;
    int32_t head_node;               /* the head joint (model order); -1: the node named "head" */
    float sdf_steepness;             /* 100 */
    float sdf_offset;                /* 0 */
    bool sdf_mirror;                 /* light-side UV mirror; off by default */
    uint32_t fold_tag_mask;          /* vertices whose UV tag bit is set collapse (0 = off) */
    int fold_uv_set;                 /* the TEXCOORD set holding the tag (its u, as an integer) */
    float fade;                      /* 1 = opaque; below 1 the 4×4 ordered dither discards */

    /* Eyes. */
    sw_model_texture_ref matcap_texture;
    float matcap_mix;                /* 0.3 */
    float parallax_height;           /* 0.3 */
    float iris_radius;               /* 0.5 */

    /* Outline (inverted hull). */
    bool outline;
    float outline_width;             /* pixels at 1080 lines of height (at least 1 pixel on screen) */
    float outline_color[3];
    float outline_max_distance;      /* beyond this distance from the camera the width stops growing in world units */

    /* MToon UV animation (scroll in UV/s, rotation in rad/s), applied to
       every texture read with the mesh's UV, each speed × the mask's B. */
    float uv_scroll[2];
    float uv_rotation;
    sw_model_texture_ref uv_animation_mask_texture;

    /* ---- MToon 1.0 (VRMC_materials_mtoon; VRM 0.x mapped to it) ----
       A material whose source is SW_TOON_SOURCE_MTOON or _MTOON_VRM0 is
       lit by MToon 1.0's own model (docs/toon.md, "MToon lighting"), not
       by the ramp rules above: kind, regions, ramps, glints and hair bands
       do not apply to it. */
    sw_model_texture_ref shade_multiply_texture; /* RGB (sRGB) × shade_color */
    sw_model_texture_ref shading_shift_texture;  /* R (linear) × its `scale` added to shading_shift */
    float gi_equalization;           /* 0..1: the ambient's direction evened out (0.9) */
    float matcap_color[3];           /* matcapFactor: × the matcap texel (1, 1, 1) */
    float rim_lighting_mix;          /* 0..1: rim and matcap × the light they sit in (1) */
    float outline_lighting_mix;      /* 0..1: outline colour × the surface's lit colour (1) */
    sw_model_texture_ref outline_width_texture; /* G (linear) × the outline width */
    /* true: the outline is outline_world_width metres along the normal in
       world space (MToon worldCoordinates); false: outline_width pixels. */
    bool outline_world;
    float outline_world_width;
    int32_t render_queue_offset;     /* renderQueueOffsetNumber, −9..9 */
    bool transparent_with_z_write;
} sw_toon_material;

/* Fills *out with the defaults of `kind` (present = false, textures -1). */
void sw_toon_defaults(sw_toon_kind kind, sw_toon_material* out);

/* sinew-import: reads every material's toon data (out:
   model->material_count entries). A malformed block is SW_ERR_INVALID_DATA
   naming the file, the material and the field; a value out of range is
   clamped with a warning in diag. */
sw_result sw_toon_read(const sw_model* model, sw_toon_material* out, sw_diag* diag);

/* A toon material from a metallic-roughness one (shade = base colour ×
   0.6, kind from the name: "hair", "face", else body; no glints, whose
   mask would be a plain normal map's Z). */
void sw_toon_derive(const sw_model_material* material, sw_toon_material* out);

/* A 256×20 RGBA8 ramp (sRGB) whose every row is the MToon-style
   transition from shade_color to white, position set by shift and
   hardness by toony; night rows darker. Rows are stored top first, like
   an image file (rows 0-9 day, 10-19 night, group g's day row v on the
   edge between memory rows 2(g-1) and 2(g-1)+1): after a plain GL upload
   sample at t = 1 - v. With light_area = (3 - toony - shift)/4, ramp
   width 1 and no control map the toon rule reproduces MToon 1.0's
   lighting (docs/toon.md). */
void sw_toon_ramp_from_shade(const float shade_color[3], float shading_shift, float shading_toony,
                             uint8_t out_rgba[SW_TOON_RAMP_WIDTH * SW_TOON_RAMP_HEIGHT * 4]);

/* ---- The shading rules (the GLSL follows these) ---- */

/* The region group (1..5) of control alpha `a`, with the gates of groups
   2..5 (enabled[1..4]); a closed gate keeps the earlier choice. */
int sw_toon_region(float a, const bool enabled[SW_TOON_REGION_COUNT]);
/* 0.5 + 2x|x|, x = g − 0.5. */
float sw_toon_signed_square(float g);
/* The ramp texture's v coordinate (0 bottom .. 1 top) of group 1..5, day or night. */
float sw_toon_ramp_row(int group, bool night);
/* The lit/dark decision of §2.1: from half-Lambert hl and the remapped
   threshold g: writes the dark-side depth and the ramp's u coordinate;
   returns true in shadow. */
bool sw_toon_shadow_area(float half_lambert, float g, float light_area, float width, float* out_depth,
                         float* out_ramp_u);
/* The face SDF: threshold of the light direction (head frame, x right, y
   up, z forward), the sampled threshold of a texel, and the logistic. */
float sw_toon_face_threshold(const float light_head[3], float offset);
float sw_toon_face_texel(float sdf_r, float sdf_a);
float sw_toon_face_lit(float texel, float threshold, float steepness);
/* The 4×4 ordered dither threshold (1..16)/17 at pixel (x, y). */
float sw_toon_dither(int x, int y);
/* A hair band's strength: intensity · smoothstep(lower, upper, sat(N·H')^exponent). */
float sw_toon_hair_band(float n_dot_h, float exponent, float lower, float upper, float intensity);
/* The glint hash: four numbers in [0,1) from a cell coordinate. */
void sw_toon_hash42(float x, float y, float out[4]);

/* ---- Face SDF baking ---- */

/* Bakes the face threshold map of `material` (every primitive drawn with
   it, at the model's rest pose) for the head joint `head_node`: for light
   angles 0°..180° around the head's up axis (0° = from the front, towards
   the head's right), the lit mask in texture space (TEXCOORD_0) is turned
   into a signed distance field, and the masks are combined into the
   threshold at which each texel turns dark, stored as R (lower half) / A
   (upper half), G = B = 0. out_rgba: size × size × 4, rows top to bottom. */
sw_result sw_toon_bake_face_sdf(const sw_model* model, uint32_t material, uint32_t head_node, int size,
                                uint8_t* out_rgba, sw_diag* diag);

SW_EXTERN_C_END

#endif
