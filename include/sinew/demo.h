/* sinew/demo.h — the built-in demo character and stage, generated at run time. It is
   not part of the core (sinew/sinew.h does not include this header): link
   the sinew_demo library.

       uint8_t* glb = NULL;
       size_t size = 0;
       sw_diag diag;
       if (sw_demo_character_glb(&glb, &size, &diag) != SW_OK) ...;
       sw_model* asset = NULL;
       sw_gltf_load_memory(glb, size, SW_DEMO_CHARACTER_NAME, NULL, NULL, &asset, &diag);
       sw_demo_character_glb_free(glb);
       ...
       sw_model_free(asset);

   The character is built by code (no file is read) as a complete glTF 2.0
   binary (GLB), so that what a program draws and what `sinew demo-asset`
   writes for Blender or three.js are the same bytes, read by the same
   importer. It is:

   - a humanoid about 1.7 m tall in an A-pose, +Y up, facing +Z, feet on
     y = 0, with 43 joints in one skin: 23 for the body (pelvis, spine,
     chest, neck, head, and on each side (_l is +X, the character's left)
     shoulder, upper_arm, upper_arm_twist, forearm, forearm_twist, hand,
     thigh, shin and foot; nodes 0-22, the mesh's node is 23), then 20
     spring-bone joints (nodes 24-43): a ponytail ponytail_0..3 below the
     head, and a skirt of 8 chains skirt_K_0 (below the pelvis) and
     skirt_K_1, K = 0..7 at 45° steps from the front towards the left.
     Rest rotations are the identity, so each inverse bind matrix is a
     translation;
   - one skinned mesh of about 7,000 vertices made of smooth closed parts
     (a torso, neck, head, arms, hands, legs and feet, a ponytail weighted
     along its spring chain) and a skirt open at the hem, weighted along
     its chains, with NORMAL, TANGENT, TEXCOORD_0 and JOINTS_0/WEIGHTS_0
     (at most 4 influences, weights summing to exactly 1, blending
     smoothly across every joint; each forearm is shared between forearm
     and forearm_twist, so a twist shows linear blend skinning's collapse
     next to DQS);
   - one primitive per material, so the regions can be told apart: "skin",
     "face" (the front of the head; its TEXCOORD_0 maps the face, seen from
     the front, onto [0,1]², u to the viewer's right, v down), "hair" (the
     top and back of the head, the ponytail), "cloth" (a sailor top and
     tights: torso and legs), "shoes" and "skirt" (double-sided; it alone
     has TEXCOORD_1, its lining's UVs: TEXCOORD_0 covers the top half of
     its textures, TEXCOORD_1 the bottom half);
   - an anime-style look in SW_materials_toon (docs/toon.md; sinew/toon.h;
     listed in extensionsUsed, not required, so other viewers draw the
     metallic-roughness fallback) on every material: kind "body" (skin,
     cloth, shoes, skirt), "hair" or "face"; warm shade colours; region
     groups in each control map's alpha (the cloth's top, tights and sailor
     collar; the skirt's body, hem stripes and lining; the shoes and their
     soles), darker shadow thresholds (G) in folds; the skirt's two glint
     sets and backUv1; the hair's two specular bands, glints and a glint
     mask (B) with tiers (A) in the extension's own "normalTexture" (the
     core normalTexture would light the hair wrongly in other viewers);
     the face's shadow map baked by sw_toon_bake_face_sdf for the "head"
     joint at build time, exactly as a call would bake it now (sdfMirror,
     steepness 300); outlines darker than each material;
   - textures painted by code in texture space from the rest pose's
     positions and stored as PNG: base colours for the face (eyes, brows,
     fringe, mouth, blush), cloth, shoes and skirt; a 256 × 20 ramp and a
     control map per material; the hair's glint mask; the 64 × 64 face
     map (the face is smooth: its thresholds are, and filter well);
   - spring bones in the root extension SW_spring_bones (docs/extensions.md;
     listed in extensionsUsed, not required), read by sw_spring_read: the
     ponytail and the 8 skirt chains, with sphere colliders on the head,
     neck, chest and thighs;
   - seven LINEAR animations over every body joint's rotation (not the
     spring joints') and the pelvis's translation: "walk" (a 1 s gait cycle whose last key equals its first,
     so it loops), "wave" (2 s, the right arm raises and the hand waves),
     "twist" (2 s, both forearm_twist joints turn about the forearm from 0°
     to 170° at 1 s and back; nothing else moves), and the loops "idle"
     (3 s, breathing), "run" (2/3 s) and "walk_left", "walk_right" (1 s,
     walking while turning), which the demo graph blends.

   Generation is deterministic: every call returns the same bytes. Thread
   safe, no global state. The JSON is written with cJSON, the PNGs with
   stb_image_write. A call takes about 0.05 s (optimised build; most of it
   painting the textures and encoding them). */
#ifndef SINEW_DEMO_H
#define SINEW_DEMO_H

#include <stddef.h>
#include <stdint.h>

#include "sinew/base.h"

SW_EXTERN_C_BEGIN

/* The name to give sw_gltf_load_memory for the demo character's bytes. */
#define SW_DEMO_CHARACTER_NAME "demo character"

/* Builds the demo character as a GLB in memory. On success *out_glb holds
   the file's *out_size bytes, to release with sw_demo_character_glb_free;
   on failure (SW_ERR_OUT_OF_MEMORY) *out_glb is NULL, *out_size 0 and
   diag (may be NULL) says what was being built. */
sw_result sw_demo_character_glb(uint8_t** out_glb, size_t* out_size, sw_diag* diag);

/* Releases the bytes from sw_demo_character_glb (through the allocator of
   sw_set_allocator, as they were allocated); NULL is allowed. */
void sw_demo_character_glb_free(uint8_t* glb);

/* ---- the demo stage ----------------------------------------------------------------

   A static stage for the character, built by code like her (no file is
   read; the same bytes every call; about 0.01 s), as a GLB with:
   - a 24 × 24 m ground at y = 0 (a 48 × 48 grid, so vertex data varies),
     whose COLOR_0 alpha is the snow coverage (1 on the snow field, 0 on a
     path of stone and dirt that passes 1 m to her left, +X, and under a
     pond), its rgb the snow's white-blue or the path's colour;
   - props that cast and receive shadows: three wooden crates, a stone
     lantern with a glowing (emissive) firebox, three stone steps, a
     14 m brick wall behind her (its front face at z = -4), a red low wall
     to her right (x = -3.4);
   - alpha-tested, double-sided cards (alphaMode MASK, textures painted by
     code): a tree's leaves and grass tufts;
   - alphaMode BLEND surfaces: a glass pane in an iron frame (to her left
     and front) and a small pond;
   - KHR_lights_punctual (listed in extensionsUsed): a warm point light in
     the lantern and a spot light from above her front-right;
   - two box decals in SW_decal (docs/extensions.md, docs/decals.md): an
     emblem with a normal map on the path in front of her, a sign on the
     wall.
   docs/demo-stage.md lists what each part exercises. */

/* The name to give the importer for the demo stage's bytes. */
#define SW_DEMO_STAGE_NAME "demo-stage.glb"

/* Builds the demo stage as a GLB in memory, as sw_demo_character_glb
   does the character (same ownership and failure rules). */
sw_result sw_demo_stage_glb(uint8_t** out_glb, size_t* out_size, sw_diag* diag);

/* Releases the bytes from sw_demo_stage_glb; NULL is allowed. */
void sw_demo_stage_glb_free(uint8_t* glb);

SW_EXTERN_C_END

#endif
