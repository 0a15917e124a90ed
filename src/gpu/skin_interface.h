/* The GPU skinner's shader interface: every number that src/gpu/gpu_skin.c
   and shaders/skin_common.glsl, skin.comp and skin.vert must agree on,
   written once.

   The rule: a binding point, uniform location, attribute location, layout
   stride, format code or size that both sides use is defined here and
   nowhere else; the C code and the GLSL use the names, never the numbers.
   This one file is read by both: gpu_skin.c includes it, and the build
   embeds it unchanged (cmake/embed_shaders.cmake) as the source string
   after "#version" of every skinning program. So it holds only comments,
   the include guard and "#define SW_NAME integer" lines: no casts, no u
   suffixes, no expressions (C sees int, GLSL sees int; GLSL converts with
   uint(SW_NAME) where it needs a uint). embed_shaders.cmake rejects any
   other line; render_test_shader_interface checks that every SW_ name a
   shader uses is defined and that no literal is left in the shaders'
   layout qualifiers or in gpu_skin.c's GL calls. Public values that must
   match (SW_MAX_INFLUENCES, SW_GPU_MAX_ACTIVE_TARGETS) are checked with
   _Static_assert in gpu_skin.c.

   Besides these, the program builder (gpu_skin.c, sw__variant_source)
   defines the variant switches before this file: SW_INFLUENCES (0..8),
   SW_WEIGHTS (an SW_SKIN_WEIGHTS_* code), SW_JOINTS_U8, SW_DQS, SW_STRETCH,
   SW_COFACTOR, SW_NORMALS, SW_TANGENTS, SW_MORPH, SW_RIGID, SW_INSTANCE_LIST. */
#ifndef SW_SKIN_INTERFACE_H
#define SW_SKIN_INTERFACE_H

/* ---- Storage buffer bindings (std430) ---- */
/* The palette: SW_SKIN_LBS_ROWS vec4 per joint, or SW_SKIN_DQS_VEC4S per
   joint followed by SW_SKIN_STRETCH_ROWS stretch rows per joint. */
#define SW_SKIN_BUFFER_PALETTE 0
/* Bind-pose positions | normals | tangents, floats. */
#define SW_SKIN_BUFFER_REST 1
/* Joints (u8 or u16, packed) | weights from a word boundary. */
#define SW_SKIN_BUFFER_INFLUENCES 2
/* Dense morph deltas, floats. */
#define SW_SKIN_BUFFER_MORPH_DELTAS 3
/* Outputs of the compute path: positions, then normals | tangents. */
#define SW_SKIN_BUFFER_OUT_POSITIONS 4
#define SW_SKIN_BUFFER_OUT_FRAMES 5
/* GPU-driven crowds (SW_INSTANCE_LIST variants): the characters to skin,
   work group row y skinning instance_list[u_list_offset + y]. */
#define SW_SKIN_BUFFER_INSTANCES 6
/* Storage blocks the compute program declares, and the vertex-shader
   program (palette and morph deltas). */
#define SW_SKIN_COMPUTE_STORAGE_BLOCKS 6
#define SW_SKIN_VERTEX_STORAGE_BLOCKS 2

/* ---- Uniform block bindings (std140) ---- */
/* The morph block: active count, weights, per-target delta offsets. */
#define SW_SKIN_UNIFORM_MORPH 0

/* ---- Uniform locations ---- */
#define SW_SKIN_LOC_VERTEX_COUNT 0  /* uint */
#define SW_SKIN_LOC_JOINT_COUNT 1   /* uint: joints past it read joint 0 */
#define SW_SKIN_LOC_STRETCH_BASE 2  /* uint: vec4 index of the first stretch row */
/* uvec4: rest normals, rest tangents (floats), weights (words), output
   tangents (floats). */
#define SW_SKIN_LOC_OFFSETS 3
#define SW_SKIN_LOC_FIRST_VERTEX 4  /* uint: first vertex of this dispatch */
#define SW_SKIN_LOC_LIST_OFFSET 5   /* uint: SW_INSTANCE_LIST's first entry */

/* ---- Vertex attributes of the vertex-shader path (skin.vert) ---- */
#define SW_SKIN_ATTR_POSITION 0
#define SW_SKIN_ATTR_NORMAL 1
#define SW_SKIN_ATTR_TANGENT 2
#define SW_SKIN_ATTR_JOINTS0 3      /* joints 0-3, integer attribute */
#define SW_SKIN_ATTR_JOINTS1 4      /* joints 4-7 */
#define SW_SKIN_ATTR_WEIGHTS0 5     /* weights 0-3, u8/u16 normalised by the fetch */
#define SW_SKIN_ATTR_WEIGHTS1 6     /* weights 4-7 */

/* ---- Layouts and sizes ---- */
/* Compute work group size (invocations along x). */
#define SW_SKIN_GROUP_SIZE 64
/* Influences per vertex at most (SW_MAX_INFLUENCES): two attributes of 4. */
#define SW_SKIN_MAX_INFLUENCES 8
/* Morph targets with nonzero weights per dispatch (SW_GPU_MAX_ACTIVE_TARGETS):
   the block holds their weights as vec4s and one uvec4 of offsets each. */
#define SW_SKIN_MAX_ACTIVE_TARGETS 256
/* A morph offset meaning "this target has no such stream" (all bits set;
   GLSL reads the literal as int -1, uint() gives back 0xFFFFFFFF). */
#define SW_SKIN_OFFSET_NONE 0xFFFFFFFF
/* vec4 per joint in the palette: LBS matrix rows (sw_mat34), DQS real and
   dual parts (sw_dualquat), stretch rows (sw_mat34). */
#define SW_SKIN_LBS_ROWS 3
#define SW_SKIN_DQS_VEC4S 2
#define SW_SKIN_STRETCH_ROWS 3

/* ---- SW_WEIGHTS: the weight format ---- */
#define SW_SKIN_WEIGHTS_F32 0
#define SW_SKIN_WEIGHTS_U8 1        /* normalised: c / 255 */
#define SW_SKIN_WEIGHTS_U16 2       /* normalised: c / 65535 */

#endif
