/* The GPU-driven crowd's shader interface: every number that
   src/gpu/gpu_crowd.c and shaders/crowd.comp, crowd_draw.vert and
   crowd_draw.frag agree on, written once (the rule of skin_interface.h:
   only comments, the include guard and "#define SW_NAME integer" lines;
   embedded unchanged in front of every crowd program).

   The program builder defines one stage switch before this file:
   SW_CROWD_SAMPLE, SW_CROWD_WORLD, SW_CROWD_SKIN or SW_CROWD_CULL.
   Storage bindings are reused between stages (a stage declares only what
   it reads and writes), so that none exceeds the eight bindings GL 4.3
   guarantees. */
#ifndef SW_CROWD_INTERFACE_H
#define SW_CROWD_INTERFACE_H

/* ---- Storage buffer bindings (std430) ---- */
/* Per character 4 vec4: (clip as uint bits, phase, speed, 0), then the
   placement's 3 rows. Every stage. */
#define SW_CROWD_BUFFER_CHARACTERS 0
/* Per (character, node) 3 vec4: translation, rotation (xyzw), scale. */
#define SW_CROWD_BUFFER_LOCALS 1
/* Per (character, node) 3 vec4: the world matrix's rows. */
#define SW_CROWD_BUFFER_WORLD 2
/* Per character a vec4: bounding sphere (centre, radius). */
#define SW_CROWD_BUFFER_BOUNDS 3
/* Sample: per track 2 uvec4: (path, interpolation, keys, components),
   (first time, first value, 0, 0), offsets in floats into KEYS. */
#define SW_CROWD_BUFFER_TRACKS 4
/* Sample: floats: every clip's duration (clip_count), then key times and values. */
#define SW_CROWD_BUFFER_KEYS 5
/* Sample: per (clip, node) 3 ints: its translation, rotation and scale
   track (SW_CROWD_NONE: the rest value). */
#define SW_CROWD_BUFFER_NODE_TRACKS 6
/* Sample: per node 3 vec4: the rest translation, rotation, scale. */
#define SW_CROWD_BUFFER_REST 7
/* World: per node a uvec4 (parent or SW_CROWD_NONE, flags, 0, 0). */
#define SW_CROWD_BUFFER_NODES 4
/* World: per node 3 vec4, the matrix of a matrix node. */
#define SW_CROWD_BUFFER_NODE_MATRICES 5
/* Skin: node index of each skin joint, every skin's after the last. */
#define SW_CROWD_BUFFER_SKIN_JOINTS 4
/* Skin: 3 vec4 rows per skin joint. */
#define SW_CROWD_BUFFER_INVERSE_BINDS 5
/* Skin: the output palette, 3 vec4 rows per (character, joint). */
#define SW_CROWD_BUFFER_PALETTE 6
/* Cull: per (level, primitive) a uvec4 (index count, vertex count, 0, 0). */
#define SW_CROWD_BUFFER_PRIMITIVES 4
/* Cull: the draw commands, 5 uints each, (level, primitive, character). */
#define SW_CROWD_BUFFER_COMMANDS 5
/* Cull: per level the visible count (atomic), SW_CROWD_LODS uints. */
#define SW_CROWD_BUFFER_COUNTS 6
/* Cull: per level character_count slots, the visible characters. */
#define SW_CROWD_BUFFER_LISTS 7

/* ---- Uniform locations ---- */
#define SW_CROWD_LOC_CHARACTERS 0    /* uint */
#define SW_CROWD_LOC_NODE_COUNT 1    /* uint */
#define SW_CROWD_LOC_TIME 2          /* float: frame time */
#define SW_CROWD_LOC_LOOPING 3       /* uint */
#define SW_CROWD_LOC_CLIP_COUNT 4    /* uint */
#define SW_CROWD_LOC_JOINT_BASE 5    /* uint: the skin's first joint in SKIN_JOINTS */
#define SW_CROWD_LOC_JOINT_COUNT 6   /* uint */
#define SW_CROWD_LOC_MARGIN 7        /* float: added to the joints' box half-diagonal */
#define SW_CROWD_LOC_PRIMITIVES 8    /* uint: skinned primitives per level */
#define SW_CROWD_LOC_DEPTH_ROW 9     /* vec4 */
#define SW_CROWD_LOC_LOD 10          /* vec2: projection scale, threshold */
#define SW_CROWD_LOC_PLANES 11       /* vec4[6]: locations 11..16 */
#define SW_CROWD_LOC_VIEW_PROJECTION 17 /* mat4 (drawing) */

/* ---- Vertex attributes (drawing) ---- */
#define SW_CROWD_ATTR_POSITION 0
#define SW_CROWD_ATTR_NORMAL 1

/* ---- Sizes and codes ---- */
#define SW_CROWD_GROUP_SIZE 64
#define SW_CROWD_LODS 2
#define SW_CROWD_PLANES 6
#define SW_CROWD_NONE 0xFFFFFFFF
#define SW_CROWD_COMMAND_UINTS 5
/* Node flags. */
#define SW_CROWD_NODE_BOUNDS 1       /* a skin joint: its position grows the bounds */
#define SW_CROWD_NODE_MATRIX 2       /* local transform given as a matrix */
/* Track paths and interpolations (sw_track_path, sw_interpolation). */
#define SW_CROWD_PATH_TRANSLATION 0
#define SW_CROWD_PATH_ROTATION 1
#define SW_CROWD_PATH_SCALE 2
#define SW_CROWD_INTERP_LINEAR 0
#define SW_CROWD_INTERP_STEP 1
#define SW_CROWD_INTERP_CUBIC 2

#endif
