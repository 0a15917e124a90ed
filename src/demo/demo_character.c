/* The built-in demo character (sinew/demo.h): a skeleton, a skinned mesh
   made of closed parametric parts, and seven clips, written as one GLB.

   Everything is generated in three steps:
   1. the skeleton: joint names, parents and rest positions (rest rotations
      are the identity, so local offsets are differences of positions and
      inverse bind matrices are translations);
   2. the mesh: each part is a tube swept along a straight axis with a
      radius profile and rounded (ellipsoidal) ends, sampled as a grid of
      rows × columns; normals and tangents come from central differences on
      that grid, so they are smooth across the UV seam and across material
      borders on the head; weights are a function of the position along the
      axis (a chain of joints that cross-fade with smoothstep) plus a few
      regional blends (shoulders, heels; the skirt's chains by azimuth);
   3. the clips: a pose function per clip, sampled at 30 Hz, over the body
      joints; the ponytail and skirt joints are left to the spring bones
      written in SW_spring_bones (docs/extensions.md).
   4. the look: per material, glTF metallic-roughness values and the toon
      data of SW_materials_toon, with textures painted in texture space
      from the rest pose (base colours, control maps, ramps, the hair's
      glint mask) and the face's shadow map baked by
      sw_toon_bake_face_sdf from a first GLB without it (at build time:
      demo_face_sdf_gen.c).
   The GLB is then assembled here: one bufferView per accessor and per
   PNG image, every view 4-byte aligned, the JSON (built with cJSON) padded
   with spaces and the BIN chunk with zeros. */
#include "sinew/demo.h"

#include "sinew/gltf.h"
#include "sinew/math.h"
#include "sinew/toon.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/base_internal.h"
#include "../base/cjson_alloc_internal.h"
#include "glb_writer.h"

#ifdef SW_DEMO_FACE_SDF_BAKED
#include "demo_face_sdf.h" /* generated at build time by demo_face_sdf_gen.c */
#endif

/* ---- the skeleton ------------------------------------------------------------ */

enum sw__demo_joint {
    SW__J_PELVIS,
    SW__J_SPINE,
    SW__J_CHEST,
    SW__J_NECK,
    SW__J_HEAD,
    SW__J_SHOULDER_L,
    SW__J_UPPER_ARM_L,
    SW__J_UPPER_ARM_TWIST_L,
    SW__J_FOREARM_L,
    SW__J_FOREARM_TWIST_L,
    SW__J_HAND_L,
    SW__J_SHOULDER_R,
    SW__J_UPPER_ARM_R,
    SW__J_UPPER_ARM_TWIST_R,
    SW__J_FOREARM_R,
    SW__J_FOREARM_TWIST_R,
    SW__J_HAND_R,
    SW__J_THIGH_L,
    SW__J_SHIN_L,
    SW__J_FOOT_L,
    SW__J_THIGH_R,
    SW__J_SHIN_R,
    SW__J_FOOT_R,
    /* The spring-bone joints, after the body's (the clips do not animate
       them; SW_spring_bones moves them): a ponytail hanging from the back of
       the head and a skirt of SW__SKIRT_CHAINS two-joint chains on the pelvis. */
    SW__J_PONYTAIL_0,
    SW__J_PONYTAIL_1,
    SW__J_PONYTAIL_2,
    SW__J_PONYTAIL_3,
    SW__J_SKIRT_FIRST,
    SW__JOINT_COUNT = SW__J_SKIRT_FIRST + 16
};

/* The joints the clips animate: the body, every joint before the ponytail. */
#define SW__BODY_JOINT_COUNT SW__J_PONYTAIL_0
#define SW__PONYTAIL_JOINTS 4
#define SW__SKIRT_CHAINS 8
#define SW__SKIRT_JOINTS 2
static int sw__skirt_joint(int chain, int k) { return SW__J_SKIRT_FIRST + chain * SW__SKIRT_JOINTS + k; }

/* Joints of one arm and one leg, in chain order; side 0 is the left (+X). */
#define SW__ARM_JOINTS 6
#define SW__LEG_JOINTS 3
static int sw__arm_joint(int side, int k) { return SW__J_SHOULDER_L + side * SW__ARM_JOINTS + k; }
static int sw__leg_joint(int side, int k) { return SW__J_THIGH_L + side * SW__LEG_JOINTS + k; }
enum { SW__ARM_SHOULDER, SW__ARM_UPPER, SW__ARM_UPPER_TWIST, SW__ARM_FOREARM, SW__ARM_FOREARM_TWIST, SW__ARM_HAND };
enum { SW__LEG_THIGH, SW__LEG_SHIN, SW__LEG_FOOT };
static const float sw__side_sign[2] = {1.0f, -1.0f};

static const char* const sw__joint_names[SW__JOINT_COUNT] = {
    "pelvis",   "spine",    "chest",   "neck",   "head",
    "shoulder_l", "upper_arm_l", "upper_arm_twist_l", "forearm_l", "forearm_twist_l", "hand_l",
    "shoulder_r", "upper_arm_r", "upper_arm_twist_r", "forearm_r", "forearm_twist_r", "hand_r",
    "thigh_l",  "shin_l",   "foot_l",  "thigh_r", "shin_r", "foot_r",
    "ponytail_0", "ponytail_1", "ponytail_2", "ponytail_3",
    "skirt_0_0", "skirt_0_1", "skirt_1_0", "skirt_1_1", "skirt_2_0", "skirt_2_1", "skirt_3_0", "skirt_3_1",
    "skirt_4_0", "skirt_4_1", "skirt_5_0", "skirt_5_1", "skirt_6_0", "skirt_6_1", "skirt_7_0", "skirt_7_1",
};

/* Parents come before their children (the importer's order, unchanged). */
static const int sw__joint_parents[SW__JOINT_COUNT] = {
    -1, SW__J_PELVIS, SW__J_SPINE, SW__J_CHEST, SW__J_NECK,
    SW__J_CHEST, SW__J_SHOULDER_L, SW__J_UPPER_ARM_L, SW__J_UPPER_ARM_TWIST_L, SW__J_FOREARM_L, SW__J_FOREARM_TWIST_L,
    SW__J_CHEST, SW__J_SHOULDER_R, SW__J_UPPER_ARM_R, SW__J_UPPER_ARM_TWIST_R, SW__J_FOREARM_R, SW__J_FOREARM_TWIST_R,
    SW__J_PELVIS, SW__J_THIGH_L, SW__J_SHIN_L,
    SW__J_PELVIS, SW__J_THIGH_R, SW__J_SHIN_R,
    SW__J_HEAD, SW__J_PONYTAIL_0, SW__J_PONYTAIL_1, SW__J_PONYTAIL_2,
    SW__J_PELVIS, SW__J_SKIRT_FIRST + 0, SW__J_PELVIS, SW__J_SKIRT_FIRST + 2, SW__J_PELVIS, SW__J_SKIRT_FIRST + 4,
    SW__J_PELVIS, SW__J_SKIRT_FIRST + 6, SW__J_PELVIS, SW__J_SKIRT_FIRST + 8, SW__J_PELVIS, SW__J_SKIRT_FIRST + 10,
    SW__J_PELVIS, SW__J_SKIRT_FIRST + 12, SW__J_PELVIS, SW__J_SKIRT_FIRST + 14,
};

/* The node of a joint: the body's joints are nodes 0..22 and the mesh's
   node follows them (as before the spring joints were added), so the
   spring joints come after it. */
enum { SW__BODY_NODE = SW__BODY_JOINT_COUNT };
static int sw__joint_node(int joint) { return joint < SW__BODY_JOINT_COUNT ? joint : joint + 1; }

/* Measurements in metres. The arms hang SW__ARM_DROP_DEG below horizontal
   (an A-pose: shoulders are less stretched at rest than in a T-pose, so
   walking and waving stay within what linear blend skinning handles). */
#define SW__ARM_DROP_DEG 50.0
#define SW__UPPER_ARM_LENGTH 0.28f
#define SW__FOREARM_LENGTH 0.25f
#define SW__HAND_LENGTH 0.15f
#define SW__HEAD_TOP_Y 1.70f
/* The ponytail: a straight line from inside the back of the head, down and
   back, joints evenly along it. The skirt's chains stand at azimuths
   k·360°/SW__SKIRT_CHAINS from the front (+Z) towards the left (+X), each from
   a root inside the hips to a tip inside the hem. */
#define SW__PONYTAIL_LENGTH 0.40f
#define SW__SKIRT_ROOT_Y 0.96f
#define SW__SKIRT_TIP_Y 0.72f

static sw_vec3 sw__ponytail_start(void) { return sw_vec3_make(0.0f, 1.64f, -0.075f); }
static sw_vec3 sw__ponytail_direction(void) { return sw_vec3_normalize(sw_vec3_make(0.0f, -0.36f, -0.12f)); }
static double sw__skirt_azimuth(int chain) { return 2.0 * SW_PI * chain / SW__SKIRT_CHAINS; }

typedef struct sw__demo_skeleton {
    sw_vec3 position[SW__JOINT_COUNT]; /* rest, world (= model) space */
    sw_vec3 arm_direction[2];      /* unit, shoulder to wrist, per side */
} sw__demo_skeleton;

static sw_vec3 sw__v3(float x, float y, float z) { return sw_vec3_make(x, y, z); }

static void sw__build_skeleton(sw__demo_skeleton* sk) {
    sk->position[SW__J_PELVIS] = sw__v3(0.0f, 0.95f, 0.0f);
    sk->position[SW__J_SPINE] = sw__v3(0.0f, 1.05f, 0.0f);
    sk->position[SW__J_CHEST] = sw__v3(0.0f, 1.22f, 0.0f);
    sk->position[SW__J_NECK] = sw__v3(0.0f, 1.45f, 0.0f);
    sk->position[SW__J_HEAD] = sw__v3(0.0f, 1.55f, 0.005f);
    double drop = SW__ARM_DROP_DEG * SW_PI / 180.0;
    for (int side = 0; side < 2; side++) {
        float s = sw__side_sign[side];
        sw_vec3 d = sw__v3(s * (float)cos(drop), -(float)sin(drop), 0.0f);
        sw_vec3 shoulder = sw__v3(s * 0.175f, 1.40f, 0.0f);
        sk->arm_direction[side] = d;
        sk->position[sw__arm_joint(side, SW__ARM_SHOULDER)] = sw__v3(s * 0.035f, 1.41f, 0.0f);
        sk->position[sw__arm_joint(side, SW__ARM_UPPER)] = shoulder;
        /* Twist joints halfway along their bone, on its axis. */
        const float along_arm[] = {0.5f * SW__UPPER_ARM_LENGTH, SW__UPPER_ARM_LENGTH,
                                   SW__UPPER_ARM_LENGTH + 0.5f * SW__FOREARM_LENGTH,
                                   SW__UPPER_ARM_LENGTH + SW__FOREARM_LENGTH};
        for (int k = 0; k < 4; k++)
            sk->position[sw__arm_joint(side, SW__ARM_UPPER_TWIST + k)] =
                sw_vec3_add(shoulder, sw_vec3_scale(d, along_arm[k]));
        sk->position[sw__leg_joint(side, SW__LEG_THIGH)] = sw__v3(s * 0.09f, 0.90f, 0.0f);
        sk->position[sw__leg_joint(side, SW__LEG_SHIN)] = sw__v3(s * 0.09f, 0.49f, 0.0f);
        sk->position[sw__leg_joint(side, SW__LEG_FOOT)] = sw__v3(s * 0.09f, 0.08f, 0.0f);
    }
    for (int k = 0; k < SW__PONYTAIL_JOINTS; k++)
        sk->position[SW__J_PONYTAIL_0 + k] = sw_vec3_add(
            sw__ponytail_start(),
            sw_vec3_scale(sw__ponytail_direction(), SW__PONYTAIL_LENGTH * (float)k / (SW__PONYTAIL_JOINTS - 1)));
    for (int c = 0; c < SW__SKIRT_CHAINS; c++) {
        float x = (float)sin(sw__skirt_azimuth(c)), z = (float)cos(sw__skirt_azimuth(c));
        sk->position[sw__skirt_joint(c, 0)] = sw__v3(0.12f * x, SW__SKIRT_ROOT_Y, 0.085f * z);
        sk->position[sw__skirt_joint(c, 1)] = sw__v3(0.215f * x, SW__SKIRT_TIP_Y, 0.165f * z);
    }
}

static sw_vec3 sw__rest_local_translation(const sw__demo_skeleton* sk, int joint) {
    int parent = sw__joint_parents[joint];
    return parent < 0 ? sk->position[joint] : sw_vec3_sub(sk->position[joint], sk->position[parent]);
}

/* ---- small maths ------------------------------------------------------------------ */

static sw_quat sw__rotation_deg(sw_vec3 axis, double degrees) {
    return sw_quat_from_axis_angle(axis, (float)(degrees * SW_PI / 180.0));
}

/* ---- the mesh: parts --------------------------------------------------------------- */

/* The skirt has a material of its own: it is double-sided (open at the
   hem), and only its vertices carry TEXCOORD_1 (the lining's UVs). */
enum sw__demo_material {
    SW__M_SKIN,
    SW__M_FACE,
    SW__M_HAIR,
    SW__M_CLOTH,
    SW__M_SHOES,
    SW__M_SKIRT,
    SW__MATERIAL_COUNT
};

/* The cross-section at distance s along a part's axis: an ellipse with
   half-axes radius_a (along the part's `across` direction) and radius_b
   (along axis × across), its centre moved by `lift` along axis × across. */
typedef struct sw__profile_key {
    float s, radius_a, radius_b, lift;
} sw__profile_key;

/* From s on (to the next key), the weight moves to `joint`. */
typedef struct sw__weight_key {
    float s;
    int joint;
} sw__weight_key;

typedef enum sw__part_kind {
    SW__PART_PLAIN,
    SW__PART_TORSO,
    SW__PART_HEAD,
    SW__PART_FOOT,
    SW__PART_SKIRT
} sw__part_kind;

/* Which part a vertex comes from, for the painted textures. */
typedef enum sw__part_tag {
    SW__TAG_TORSO,
    SW__TAG_NECK,
    SW__TAG_HEAD,
    SW__TAG_ARM,
    SW__TAG_HAND,
    SW__TAG_LEG,
    SW__TAG_FOOT,
    SW__TAG_PONYTAIL,
    SW__TAG_SKIRT
} sw__part_tag;

#define SW__MAX_PROFILE_KEYS 8
#define SW__MAX_WEIGHT_KEYS 12

typedef struct sw__demo_part {
    sw__part_kind kind;
    sw__part_tag tag;
    int material;          /* all of it, except the head (face, hair, skin) */
    int side;              /* 0 left, 1 right; arms, hands, legs, feet */
    sw_vec3 start;         /* the axis point at s = 0 */
    sw_vec3 axis;          /* unit */
    sw_vec3 across;        /* unit, perpendicular to axis */
    float length;          /* s of the far end of the body */
    float cap_start, cap_end; /* depth of the rounded ends before s = 0 and after `length` */
    bool open_end;         /* no cap after `length`: the last row is a free rim (the skirt's hem) */
    int cap_rows, body_rows, columns;
    sw__profile_key profile[SW__MAX_PROFILE_KEYS];
    int profile_count;
    sw__weight_key chain[SW__MAX_WEIGHT_KEYS];
    int chain_count;
    float uv_rect[4];      /* u0, v0, width, height in TEXCOORD_0 (a negative height: v grows along the axis) */
    float uv1_v0;          /* TEXCOORD_1 is TEXCOORD_0 moved down by this (the skirt's lining) */
} sw__demo_part;

static sw__profile_key sw__profile_at(const sw__demo_part* p, float s) {
    const sw__profile_key* k = p->profile;
    if (s <= k[0].s) return k[0];
    for (int i = 0; i + 1 < p->profile_count; i++) {
        if (s <= k[i + 1].s) {
            float t = sw__glb_smoothstep(k[i].s, k[i + 1].s, s);
            sw__profile_key r = {s, k[i].radius_a + (k[i + 1].radius_a - k[i].radius_a) * t,
                             k[i].radius_b + (k[i + 1].radius_b - k[i].radius_b) * t,
                             k[i].lift + (k[i + 1].lift - k[i].lift) * t};
            return r;
        }
    }
    return k[p->profile_count - 1];
}

static int sw__part_rows(const sw__demo_part* p) { return (p->open_end ? 1 : 2) * p->cap_rows + p->body_rows + 1; }

/* Row r's axial position (s, may lie beyond the body in a cap), the profile
   it uses and how much of that profile's radius it has (0 at the poles). */
static void sw__row_frame(const sw__demo_part* p, int r, float* out_s, sw__profile_key* out_profile,
                          float* out_factor) {
    int body_first = p->cap_rows, body_last = p->cap_rows + p->body_rows;
    if (r < body_first) {
        double alpha = 0.5 * SW_PI * (double)r / p->cap_rows;
        *out_s = -p->cap_start * (float)cos(alpha);
        *out_profile = sw__profile_at(p, 0.0f);
        *out_factor = (float)sin(alpha);
    } else if (r <= body_last) {
        *out_s = p->length * (float)(r - body_first) / (float)p->body_rows;
        *out_profile = sw__profile_at(p, *out_s);
        *out_factor = 1.0f;
    } else {
        double alpha = 0.5 * SW_PI * (double)(sw__part_rows(p) - 1 - r) / p->cap_rows;
        *out_s = p->length + p->cap_end * (float)cos(alpha);
        *out_profile = sw__profile_at(p, p->length);
        *out_factor = (float)sin(alpha);
    }
}

/* Vertex (row r, column c) of the part's grid. Column `columns` repeats
   column 0 (the UV seam, which sits on the -across side: the back). */
static sw_vec3 sw__part_point(const sw__demo_part* p, int r, int c) {
    float s, factor;
    sw__profile_key k;
    sw__row_frame(p, r, &s, &k, &factor);
    sw_vec3 b = sw_vec3_cross(p->axis, p->across);
    double theta = 2.0 * SW_PI * (double)(c % p->columns) / p->columns + SW_PI;
    sw_vec3 centre = sw_vec3_add(p->start, sw_vec3_add(sw_vec3_scale(p->axis, s), sw_vec3_scale(b, k.lift)));
    return sw_vec3_add(centre, sw_vec3_add(sw_vec3_scale(p->across, k.radius_a * factor * (float)cos(theta)),
                                           sw_vec3_scale(b, k.radius_b * factor * (float)sin(theta))));
}

/* ---- the mesh: weights ----------------------------------------------------------------- */

#define SW__MAX_INFLUENCES 4
/* Weights are multiples of 2^-16, so any four of them add up exactly, in
   any order and in float: the sum is 1, not 1 ± an ulp. */
#define SW__WEIGHT_UNITS 65536

static void sw__chain_weights(const sw__demo_part* p, float s, float* w) {
    const sw__weight_key* k = p->chain;
    int n = p->chain_count;
    if (s <= k[0].s) {
        w[k[0].joint] += 1.0f;
        return;
    }
    for (int i = 0; i + 1 < n; i++) {
        if (s < k[i + 1].s) {
            float t = sw__glb_smoothstep(k[i].s, k[i + 1].s, s);
            w[k[i].joint] += 1.0f - t;
            w[k[i + 1].joint] += t;
            return;
        }
    }
    w[k[n - 1].joint] += 1.0f;
}

/* Dense per-joint weights of a rest position (they sum to 1). */
static void sw__part_weights(const sw__demo_part* p, sw_vec3 position, float* w) {
    memset(w, 0, SW__JOINT_COUNT * sizeof *w);
    sw__chain_weights(p, sw_vec3_dot(sw_vec3_sub(position, p->start), p->axis), w);
    if (p->kind == SW__PART_TORSO) {
        /* The top corners follow the shoulder of their side. */
        float shoulder = sw__glb_smoothstep(0.06f, 0.15f, fabsf(position.x)) * sw__glb_smoothstep(1.28f, 1.40f, position.y);
        for (int j = 0; j < SW__JOINT_COUNT; j++) w[j] *= 1.0f - shoulder;
        w[sw__arm_joint(position.x >= 0.0f ? 0 : 1, SW__ARM_SHOULDER)] += shoulder;
    } else if (p->kind == SW__PART_FOOT) {
        /* The top of the heel, under the ankle, stays partly with the shin. */
        float shin =
            0.6f * sw__glb_smoothstep(0.05f, 0.10f, position.y) * (1.0f - sw__glb_smoothstep(-0.03f, 0.05f, position.z));
        for (int j = 0; j < SW__JOINT_COUNT; j++) w[j] *= 1.0f - shin;
        w[sw__leg_joint(p->side, SW__LEG_SHIN)] += shin;
    } else if (p->kind == SW__PART_SKIRT) {
        /* Around the waist, the pelvis; below, the two nearest chains by
           azimuth, each from its root to its tip along the axis. */
        memset(w, 0, SW__JOINT_COUNT * sizeof *w);
        float s = sw_vec3_dot(sw_vec3_sub(position, p->start), p->axis);
        float below = sw__glb_smoothstep(0.0f, 0.08f, s), tip = sw__glb_smoothstep(0.08f, 0.26f, s);
        w[SW__J_PELVIS] = 1.0f - below;
        double azimuth = atan2(position.x, position.z); /* 0 in front, +90° on the left */
        double turns = azimuth / (2.0 * SW_PI) * SW__SKIRT_CHAINS;
        if (turns < 0.0) turns += SW__SKIRT_CHAINS;
        int first = (int)turns % SW__SKIRT_CHAINS, second = (first + 1) % SW__SKIRT_CHAINS;
        float t = sw__glb_smoothstep(0.0f, 1.0f, (float)(turns - floor(turns)));
        w[sw__skirt_joint(first, 0)] += below * (1.0f - tip) * (1.0f - t);
        w[sw__skirt_joint(first, 1)] += below * tip * (1.0f - t);
        w[sw__skirt_joint(second, 0)] += below * (1.0f - tip) * t;
        w[sw__skirt_joint(second, 1)] += below * tip * t;
    }
}

/* The SW__MAX_INFLUENCES largest weights, renormalised and quantised to
   multiples of 1/SW__WEIGHT_UNITS summing to exactly 1, largest first; unused
   slots get joint 0 and weight 0 (DESIGN.md's padding). */
static void sw__pack_influences(const float* dense, uint8_t* joints, float* weights) {
    int chosen[SW__MAX_INFLUENCES];
    int count = 0;
    for (int slot = 0; slot < SW__MAX_INFLUENCES; slot++) {
        int best = -1;
        for (int j = 0; j < SW__JOINT_COUNT; j++) {
            bool taken = false;
            for (int k = 0; k < count; k++) taken |= chosen[k] == j;
            if (!taken && dense[j] > 0.0f && (best < 0 || dense[j] > dense[best])) best = j;
        }
        if (best < 0) break;
        chosen[count++] = best;
    }
    double total = 0.0;
    for (int k = 0; k < count; k++) total += dense[chosen[k]];
    long units[SW__MAX_INFLUENCES] = {0};
    long sum = 0;
    for (int k = 0; k < count; k++) {
        units[k] = lround(dense[chosen[k]] / total * SW__WEIGHT_UNITS);
        sum += units[k];
    }
    units[0] += SW__WEIGHT_UNITS - sum; /* the largest absorbs the rounding */
    int out = 0;
    for (int k = 0; k < count; k++) {
        if (units[k] <= 0) continue;
        joints[out] = (uint8_t)chosen[k];
        weights[out] = (float)units[k] / (float)SW__WEIGHT_UNITS;
        out++;
    }
    for (; out < SW__MAX_INFLUENCES; out++) joints[out] = 0, weights[out] = 0.0f;
}

/* ---- the mesh: primitives -------------------------------------------------------------- */

typedef struct sw__demo_vertex {
    float position[3];
    float normal[3];
    float tangent[4];
    float uv[2];
    float uv1[2]; /* written for the skirt only */
    sw__part_tag tag; /* not written */
    uint8_t joints[SW__MAX_INFLUENCES];
    float weights[SW__MAX_INFLUENCES];
} sw__demo_vertex;

typedef struct sw__demo_primitive {
    sw__demo_vertex* vertices;
    size_t vertex_count, vertex_capacity;
    uint16_t* indices;
    size_t index_count, index_capacity;
} sw__demo_primitive;

typedef struct sw__demo_mesh {
    sw__demo_primitive primitives[SW__MATERIAL_COUNT];
    bool failed;
} sw__demo_mesh;

static bool sw__grow(void** data, size_t* capacity, size_t need, size_t element) {
    if (need <= *capacity) return true;
    size_t c = *capacity ? *capacity * 2 : 1024;
    while (c < need) c *= 2;
    if (c > SIZE_MAX / element) return false;
    void* grown = sw__realloc(*data, c * element);
    if (!grown) return false;
    *data = grown;
    *capacity = c;
    return true;
}

/* Index of a new vertex, or -1 (out of memory, or past 16-bit indices). */
static long sw__add_vertex(sw__demo_mesh* mesh, int material, const sw__demo_vertex* v) {
    sw__demo_primitive* p = &mesh->primitives[material];
    if (p->vertex_count >= 65535 ||
        !sw__grow((void**)&p->vertices, &p->vertex_capacity, p->vertex_count + 1, sizeof *p->vertices)) {
        mesh->failed = true;
        return -1;
    }
    p->vertices[p->vertex_count] = *v;
    return (long)p->vertex_count++;
}

static void sw__add_triangle(sw__demo_mesh* mesh, int material, long a, long b, long c) {
    sw__demo_primitive* p = &mesh->primitives[material];
    if (a < 0 || b < 0 || c < 0 ||
        !sw__grow((void**)&p->indices, &p->index_capacity, p->index_count + 3, sizeof *p->indices)) {
        mesh->failed = true;
        return;
    }
    p->indices[p->index_count++] = (uint16_t)a;
    p->indices[p->index_count++] = (uint16_t)b;
    p->indices[p->index_count++] = (uint16_t)c;
}

static void sw__free_mesh(sw__demo_mesh* mesh) {
    for (int m = 0; m < SW__MATERIAL_COUNT; m++) {
        sw__free(mesh->primitives[m].vertices);
        sw__free(mesh->primitives[m].indices);
    }
}

/* The unit tangent along the direction in which u grows (made
   perpendicular to the normal), with glTF's handedness: bitangent =
   cross(normal, tangent) · w points the way v decreases (up in the image). */
static void sw__set_tangent(sw__demo_vertex* v, sw_vec3 normal, sw_vec3 du_direction, sw_vec3 dv_direction) {
    sw_vec3 t = sw_vec3_normalize(sw_vec3_sub(du_direction, sw_vec3_scale(normal, sw_vec3_dot(normal, du_direction))));
    float handedness = sw_vec3_dot(sw_vec3_cross(normal, t), dv_direction) > 0.0f ? -1.0f : 1.0f;
    v->tangent[0] = t.x, v->tangent[1] = t.y, v->tangent[2] = t.z, v->tangent[3] = handedness;
}

/* Which primitive a head cell belongs to, from its centre: the face is the
   front between chin and hairline; hair covers the top, the sides above the
   ears and the back down to the nape; the rest (ears' level, under the
   chin) is skin. */
static int sw__head_region(const sw__demo_part* head, sw_vec3 cell_centre) {
    sw_vec3 rel = sw_vec3_sub(cell_centre, head->start);
    double azimuth = fabs(atan2(rel.x, rel.z)) * 180.0 / SW_PI; /* 0 in front, 180 behind */
    float y = cell_centre.y;
    if (azimuth < 62.0 && y > 1.475f && y < 1.625f) return SW__M_FACE;
    if (y >= 1.625f) return SW__M_HAIR;
    if (azimuth >= 62.0 && azimuth < 110.0 && y >= 1.60f) return SW__M_HAIR;
    if (azimuth >= 110.0 && y >= 1.50f) return SW__M_HAIR;
    return SW__M_SKIN;
}

typedef struct sw__grid_vertex {
    sw_vec3 position, normal;
    sw_vec3 along_u, along_v; /* surface directions in which u and v grow */
} sw__grid_vertex;

/* Samples one part and appends its triangles to the primitives. */
static void sw__add_part(sw__demo_mesh* mesh, const sw__demo_part* p) {
    int rows = sw__part_rows(p), columns = p->columns;
    size_t stride = (size_t)columns + 1;
    size_t count = (size_t)rows * stride;
    sw__grid_vertex* grid = sw__calloc(count, sizeof *grid);
    long* remap = sw__malloc(count * SW__MATERIAL_COUNT * sizeof *remap);
    if (!grid || !remap) {
        sw__free(grid), sw__free(remap);
        mesh->failed = true;
        return;
    }
    for (size_t i = 0; i < count * SW__MATERIAL_COUNT; i++) remap[i] = -1;
    for (int r = 0; r < rows; r++)
        for (int c = 0; c <= columns; c++) grid[(size_t)r * stride + (size_t)c].position = sw__part_point(p, r, c);

    /* Central differences on the grid: across columns (wrapping around the
       seam) and rows; u grows with the column, v falls along the axis, so
       the texture stands upright on the surface seen from outside. */
    for (int r = 0; r < rows; r++) {
        for (int c = 0; c <= columns; c++) {
            sw__grid_vertex* g = &grid[(size_t)r * stride + (size_t)c];
            bool end_pole = r == rows - 1 && !p->open_end;
            int ring_row = r == 0 ? 1 : end_pole ? rows - 2 : r;
            sw_vec3 around =
                sw_vec3_sub(sw__part_point(p, ring_row, c + 1), sw__part_point(p, ring_row, c + columns - 1));
            sw_vec3 along =
                sw_vec3_sub(sw__part_point(p, r < rows - 1 ? r + 1 : r, c), sw__part_point(p, r > 0 ? r - 1 : r, c));
            if (r == 0)
                g->normal = sw_vec3_scale(p->axis, -1.0f);
            else if (end_pole)
                g->normal = p->axis;
            else
                g->normal = sw_vec3_normalize(sw_vec3_cross(around, along));
            g->along_u = around;
            g->along_v = sw_vec3_scale(along, p->uv_rect[3] < 0.0f ? 1.0f : -1.0f);
        }
    }

    for (int r = 0; r + 1 < rows; r++) {
        for (int c = 0; c < columns; c++) {
            size_t corner[4] = {(size_t)r * stride + (size_t)c, (size_t)r * stride + (size_t)c + 1,
                                (size_t)(r + 1) * stride + (size_t)c + 1, (size_t)(r + 1) * stride + (size_t)c};
            int material = p->material;
            if (p->kind == SW__PART_HEAD) {
                sw_vec3 centre = sw__v3(0, 0, 0);
                for (int k = 0; k < 4; k++) centre = sw_vec3_add(centre, grid[corner[k]].position);
                material = sw__head_region(p, sw_vec3_scale(centre, 0.25f));
            }
            /* Counter-clockwise seen from outside: triangles (0,1,2) and
               (0,2,3). Next to a pole only one of them has an area. */
            bool first_triangle = r != 0, second_triangle = r + 1 != rows - 1 || p->open_end;
            bool used[4] = {true, first_triangle, true, second_triangle};
            long index[4] = {-1, -1, -1, -1};
            for (int k = 0; k < 4; k++) {
                if (!used[k]) continue;
                long* slot = &remap[corner[k] * SW__MATERIAL_COUNT + (size_t)material];
                if (*slot < 0) {
                    const sw__grid_vertex* g = &grid[corner[k]];
                    int vr = (int)(corner[k] / stride), vc = (int)(corner[k] % stride);
                    sw__demo_vertex v;
                    memset(&v, 0, sizeof v);
                    v.position[0] = g->position.x, v.position[1] = g->position.y, v.position[2] = g->position.z;
                    v.normal[0] = g->normal.x, v.normal[1] = g->normal.y, v.normal[2] = g->normal.z;
                    sw__set_tangent(&v, g->normal, g->along_u, g->along_v);
                    /* A pole vertex serves one cell (the one to its right at
                       the start, to its left at the end): centre its u on it. */
                    float u = vr == 0 ? ((float)vc + 0.5f) / (float)columns
                            : vr == rows - 1 && !p->open_end ? ((float)vc - 0.5f) / (float)columns
                                             : (float)vc / (float)columns;
                    v.uv[0] = p->uv_rect[0] + p->uv_rect[2] * u;
                    v.uv[1] = p->uv_rect[1] + p->uv_rect[3] * (1.0f - (float)vr / (float)(rows - 1));
                    v.tag = p->tag;
                    v.uv1[0] = v.uv[0];
                    v.uv1[1] = v.uv[1] + p->uv1_v0;
                    float dense[SW__JOINT_COUNT];
                    sw__part_weights(p, g->position, dense);
                    sw__pack_influences(dense, v.joints, v.weights);
                    *slot = sw__add_vertex(mesh, material, &v);
                }
                index[k] = *slot;
            }
            if (first_triangle) sw__add_triangle(mesh, material, index[0], index[1], index[2]);
            if (second_triangle) sw__add_triangle(mesh, material, index[0], index[2], index[3]);
        }
    }
    sw__free(grid);
    sw__free(remap);
}

/* The face's texture coordinates: the face seen from the front, fitted to
   [0,1]² (u to the viewer's right, +X; v down), for an SDF face map. */
static void sw__map_face(sw__demo_primitive* face) {
    if (!face->vertex_count) return;
    float lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
    for (size_t i = 0; i < face->vertex_count; i++)
        for (int k = 0; k < 2; k++) {
            float x = face->vertices[i].position[k];
            if (x < lo[k]) lo[k] = x;
            if (x > hi[k]) hi[k] = x;
        }
    for (size_t i = 0; i < face->vertex_count; i++) {
        sw__demo_vertex* v = &face->vertices[i];
        v->uv[0] = (v->position[0] - lo[0]) / (hi[0] - lo[0]);
        v->uv[1] = (hi[1] - v->position[1]) / (hi[1] - lo[1]);
        sw__set_tangent(v, sw__v3(v->normal[0], v->normal[1], v->normal[2]), sw__v3(1, 0, 0), sw__v3(0, -1, 0));
    }
}

static void sw__fill_part(sw__demo_part* p, sw__part_kind kind, sw__part_tag tag, int material, sw_vec3 start,
                          sw_vec3 axis, sw_vec3 across, float length, float cap_start, float cap_end) {
    memset(p, 0, sizeof *p);
    p->kind = kind;
    p->tag = tag;
    p->material = material;
    p->start = start;
    p->axis = sw_vec3_normalize(axis);
    p->across = sw_vec3_normalize(across);
    p->length = length;
    p->cap_start = cap_start;
    p->cap_end = cap_end;
}

static void sw__add_profile(sw__demo_part* p, float s, float radius_a, float radius_b, float lift) {
    if (p->profile_count < SW__MAX_PROFILE_KEYS)
        p->profile[p->profile_count++] = (sw__profile_key){s, radius_a, radius_b, lift};
}

static void sw__add_chain(sw__demo_part* p, float s, int joint) {
    if (p->chain_count < SW__MAX_WEIGHT_KEYS) p->chain[p->chain_count++] = (sw__weight_key){s, joint};
}

static void sw__set_grid(sw__demo_part* p, int cap_rows, int body_rows, int columns, float u0, float v0, float du,
                         float dv) {
    p->cap_rows = cap_rows, p->body_rows = body_rows, p->columns = columns;
    p->uv_rect[0] = u0, p->uv_rect[1] = v0, p->uv_rect[2] = du, p->uv_rect[3] = dv;
}

/* Torso, crotch to the base of the neck (y 1.46), shoulders widest. */
static void sw__add_torso(sw__demo_mesh* mesh) {
    sw__demo_part p;
    sw__fill_part(&p, SW__PART_TORSO, SW__TAG_TORSO, SW__M_CLOTH, sw__v3(0.0f, 0.82f, 0.0f), sw__v3(0, 1, 0),
                  sw__v3(0, 0, 1), 0.60f, 0.07f, 0.04f);
    sw__add_profile(&p, 0.00f, 0.100f, 0.150f, 0.0f);
    sw__add_profile(&p, 0.13f, 0.110f, 0.165f, 0.0f);
    sw__add_profile(&p, 0.28f, 0.095f, 0.135f, 0.0f);
    sw__add_profile(&p, 0.45f, 0.112f, 0.160f, 0.0f);
    sw__add_profile(&p, 0.56f, 0.100f, 0.188f, 0.0f);
    sw__add_profile(&p, 0.60f, 0.090f, 0.178f, 0.0f);
    /* s = y − 0.82: pelvis to y 0.98, spine 1.08–1.17, chest 1.27–1.36, neck from 1.48 */
    sw__add_chain(&p, 0.16f, SW__J_PELVIS);
    sw__add_chain(&p, 0.26f, SW__J_SPINE);
    sw__add_chain(&p, 0.35f, SW__J_SPINE);
    sw__add_chain(&p, 0.45f, SW__J_CHEST);
    sw__add_chain(&p, 0.54f, SW__J_CHEST);
    sw__add_chain(&p, 0.66f, SW__J_NECK);
    sw__set_grid(&p, 6, 22, 24, 0.0f, 0.0f, 0.5f, 0.5f);
    sw__add_part(mesh, &p);
}

/* The neck, from inside the torso to inside the head. */
static void sw__add_neck(sw__demo_mesh* mesh) {
    sw__demo_part p;
    sw__fill_part(&p, SW__PART_PLAIN, SW__TAG_NECK, SW__M_SKIN, sw__v3(0.0f, 1.38f, 0.0f), sw__v3(0, 1, 0),
                  sw__v3(0, 0, 1), 0.18f, 0.02f, 0.02f);
    sw__add_profile(&p, 0.00f, 0.050f, 0.055f, 0.0f);
    sw__add_profile(&p, 0.18f, 0.045f, 0.048f, 0.0f);
    sw__add_chain(&p, 0.03f, SW__J_CHEST);
    sw__add_chain(&p, 0.09f, SW__J_NECK);
    sw__add_chain(&p, 0.14f, SW__J_NECK);
    sw__add_chain(&p, 0.19f, SW__J_HEAD);
    sw__set_grid(&p, 3, 8, 16, 0.0f, 0.5f, 0.25f, 0.125f);
    sw__add_part(mesh, &p);
}

/* The head: chin pole at y 1.465, crown at SW__HEAD_TOP_Y. */
static void sw__add_head(sw__demo_mesh* mesh) {
    sw__demo_part p;
    sw__fill_part(&p, SW__PART_HEAD, SW__TAG_HEAD, SW__M_SKIN, sw__v3(0.0f, 1.50f, 0.012f), sw__v3(0, 1, 0),
                  sw__v3(0, 0, 1), 0.12f, 0.035f, SW__HEAD_TOP_Y - 1.62f);
    sw__add_profile(&p, 0.00f, 0.088f, 0.074f, 0.0f);
    sw__add_profile(&p, 0.07f, 0.102f, 0.086f, 0.0f);
    sw__add_profile(&p, 0.12f, 0.104f, 0.088f, 0.0f);
    sw__add_chain(&p, -0.05f, SW__J_NECK);
    sw__add_chain(&p, 0.04f, SW__J_HEAD);
    sw__set_grid(&p, 8, 10, 28, 0.0f, 0.625f, 0.5f, 0.375f);
    sw__add_part(mesh, &p);
}

/* Arm, shoulder to wrist: the forearm cross-fades over its whole length
   from forearm to forearm_twist (where a twist shows LBS's candy-wrapper
   collapse), the upper arm likewise to its twist joint; elbow and wrist
   get short bands. */
static void sw__add_arm(sw__demo_mesh* mesh, const sw__demo_skeleton* sk, int side) {
    sw__demo_part p;
    sw_vec3 d = sk->arm_direction[side];
    float u_side = 0.5f + 0.25f * (float)side;
    sw__fill_part(&p, SW__PART_PLAIN, SW__TAG_ARM, SW__M_SKIN, sk->position[sw__arm_joint(side, SW__ARM_UPPER)], d,
                  sw__v3(0, 0, 1), SW__UPPER_ARM_LENGTH + SW__FOREARM_LENGTH, 0.05f, 0.03f);
    p.side = side;
    sw__add_profile(&p, 0.00f, 0.052f, 0.052f, 0.0f);
    sw__add_profile(&p, 0.10f, 0.047f, 0.045f, 0.0f);
    sw__add_profile(&p, 0.27f, 0.037f, 0.036f, 0.0f);
    sw__add_profile(&p, 0.34f, 0.040f, 0.037f, 0.0f);
    sw__add_profile(&p, 0.53f, 0.029f, 0.025f, 0.0f);
    sw__add_chain(&p, -0.05f, sw__arm_joint(side, SW__ARM_SHOULDER));
    sw__add_chain(&p, 0.03f, sw__arm_joint(side, SW__ARM_UPPER));
    sw__add_chain(&p, 0.05f, sw__arm_joint(side, SW__ARM_UPPER));
    sw__add_chain(&p, 0.23f, sw__arm_joint(side, SW__ARM_UPPER_TWIST));
    sw__add_chain(&p, 0.25f, sw__arm_joint(side, SW__ARM_UPPER_TWIST));
    sw__add_chain(&p, 0.31f, sw__arm_joint(side, SW__ARM_FOREARM));
    sw__add_chain(&p, 0.32f, sw__arm_joint(side, SW__ARM_FOREARM));
    sw__add_chain(&p, 0.49f, sw__arm_joint(side, SW__ARM_FOREARM_TWIST));
    sw__add_chain(&p, 0.50f, sw__arm_joint(side, SW__ARM_FOREARM_TWIST));
    sw__add_chain(&p, 0.56f, sw__arm_joint(side, SW__ARM_HAND));
    sw__set_grid(&p, 5, 28, 18, u_side, 0.0f, 0.25f, 0.375f);
    sw__add_part(mesh, &p);
}

/* Hand: a mitten, wide front to back, as the palm faces the thigh. */
static void sw__add_hand(sw__demo_mesh* mesh, const sw__demo_skeleton* sk, int side) {
    sw__demo_part p;
    sw_vec3 d = sk->arm_direction[side];
    float u_side = 0.5f + 0.25f * (float)side;
    sw__fill_part(&p, SW__PART_PLAIN, SW__TAG_HAND, SW__M_SKIN, sk->position[sw__arm_joint(side, SW__ARM_HAND)], d,
                  sw__v3(0, 0, 1), SW__HAND_LENGTH, 0.02f, 0.03f);
    p.side = side;
    sw__add_profile(&p, 0.00f, 0.030f, 0.020f, 0.0f);
    sw__add_profile(&p, 0.05f, 0.044f, 0.021f, 0.0f);
    sw__add_profile(&p, 0.10f, 0.042f, 0.017f, 0.0f);
    sw__add_profile(&p, 0.15f, 0.034f, 0.012f, 0.0f);
    sw__add_chain(&p, -0.03f, sw__arm_joint(side, SW__ARM_FOREARM_TWIST));
    sw__add_chain(&p, 0.04f, sw__arm_joint(side, SW__ARM_HAND));
    sw__set_grid(&p, 4, 10, 14, u_side, 0.375f, 0.25f, 0.125f);
    sw__add_part(mesh, &p);
}

/* Leg, hip to ankle. */
static void sw__add_leg(sw__demo_mesh* mesh, const sw__demo_skeleton* sk, int side) {
    sw__demo_part p;
    float u_side = 0.5f + 0.25f * (float)side;
    sw__fill_part(&p, SW__PART_PLAIN, SW__TAG_LEG, SW__M_CLOTH, sk->position[sw__leg_joint(side, SW__LEG_THIGH)],
                  sw__v3(0, -1, 0), sw__v3(0, 0, 1), 0.82f, 0.07f, 0.04f);
    p.side = side;
    sw__add_profile(&p, 0.00f, 0.085f, 0.085f, 0.0f);
    sw__add_profile(&p, 0.12f, 0.078f, 0.075f, 0.0f);
    sw__add_profile(&p, 0.40f, 0.052f, 0.050f, 0.0f);
    sw__add_profile(&p, 0.52f, 0.056f, 0.052f, 0.0f);
    sw__add_profile(&p, 0.82f, 0.040f, 0.038f, 0.0f);
    sw__add_chain(&p, -0.05f, SW__J_PELVIS);
    sw__add_chain(&p, 0.06f, sw__leg_joint(side, SW__LEG_THIGH));
    sw__add_chain(&p, 0.37f, sw__leg_joint(side, SW__LEG_THIGH));
    sw__add_chain(&p, 0.45f, sw__leg_joint(side, SW__LEG_SHIN));
    sw__add_chain(&p, 0.78f, sw__leg_joint(side, SW__LEG_SHIN));
    sw__add_chain(&p, 0.86f, sw__leg_joint(side, SW__LEG_FOOT));
    sw__set_grid(&p, 5, 26, 18, u_side, 0.5f, 0.25f, 0.375f);
    sw__add_part(mesh, &p);
}

/* Foot, heel to toe, along +Z; its centre is lifted by its half height, so
   the sole lies flat on y = 0. */
static void sw__add_foot(sw__demo_mesh* mesh, const sw__demo_skeleton* sk, int side) {
    sw__demo_part p;
    float u_side = 0.5f + 0.25f * (float)side;
    float x = sk->position[sw__leg_joint(side, SW__LEG_FOOT)].x;
    sw__fill_part(&p, SW__PART_FOOT, SW__TAG_FOOT, SW__M_SHOES, sw__v3(x, 0.0f, -0.07f), sw__v3(0, 0, 1),
                  sw__v3(1, 0, 0), 0.22f, 0.03f, 0.03f);
    p.side = side;
    sw__add_profile(&p, 0.00f, 0.038f, 0.040f, 0.040f);
    sw__add_profile(&p, 0.07f, 0.043f, 0.042f, 0.042f);
    sw__add_profile(&p, 0.15f, 0.046f, 0.030f, 0.030f);
    sw__add_profile(&p, 0.22f, 0.040f, 0.020f, 0.020f);
    sw__add_chain(&p, 0.0f, sw__leg_joint(side, SW__LEG_FOOT));
    sw__set_grid(&p, 4, 12, 16, u_side, 0.875f, 0.25f, 0.125f);
    sw__add_part(mesh, &p);
}

/* The ponytail: a tapered tube along its chain, its root end inside the
   head, in the UV cell right of the neck. */
static void sw__add_ponytail(sw__demo_mesh* mesh) {
    sw__demo_part p;
    sw__fill_part(&p, SW__PART_PLAIN, SW__TAG_PONYTAIL, SW__M_HAIR, sw__ponytail_start(), sw__ponytail_direction(),
                  sw__v3(1, 0, 0), SW__PONYTAIL_LENGTH, 0.03f, 0.03f);
    sw__add_profile(&p, 0.00f, 0.036f, 0.040f, 0.0f);
    sw__add_profile(&p, 0.08f, 0.046f, 0.050f, 0.0f);
    sw__add_profile(&p, 0.28f, 0.032f, 0.034f, 0.0f);
    sw__add_profile(&p, 0.40f, 0.012f, 0.012f, 0.0f);
    sw__add_chain(&p, -0.01f, SW__J_HEAD);
    sw__add_chain(&p, 0.04f, SW__J_PONYTAIL_0);
    sw__add_chain(&p, 0.11f, SW__J_PONYTAIL_0);
    sw__add_chain(&p, 0.16f, SW__J_PONYTAIL_1);
    sw__add_chain(&p, 0.24f, SW__J_PONYTAIL_1);
    sw__add_chain(&p, 0.29f, SW__J_PONYTAIL_2);
    sw__add_chain(&p, 0.36f, SW__J_PONYTAIL_2);
    sw__add_chain(&p, 0.41f, SW__J_PONYTAIL_3);
    sw__set_grid(&p, 3, 14, 12, 0.25f, 0.5f, 0.25f, 0.125f);
    sw__add_part(mesh, &p);
}

/* The skirt: an elliptic cone from the waist to above the knees, over the
   hips and thighs, open at the hem (one layer, drawn from both sides).
   TEXCOORD_0 covers the top half of its own textures (v from the waist, 0,
   to the hem, 0.5); TEXCOORD_1, the lining seen from inside, the bottom
   half. */
static void sw__add_skirt(sw__demo_mesh* mesh) {
    sw__demo_part p;
    sw__fill_part(&p, SW__PART_SKIRT, SW__TAG_SKIRT, SW__M_SKIRT, sw__v3(0.0f, 1.00f, 0.0f), sw__v3(0, -1, 0),
                  sw__v3(0, 0, 1), 0.30f, 0.02f, 0.0f);
    p.open_end = true;
    p.uv1_v0 = 0.5f;
    sw__add_profile(&p, 0.00f, 0.122f, 0.174f, 0.0f);
    sw__add_profile(&p, 0.08f, 0.142f, 0.202f, 0.0f);
    sw__add_profile(&p, 0.30f, 0.205f, 0.258f, 0.0f);
    sw__add_chain(&p, 0.0f, SW__J_PELVIS);
    sw__set_grid(&p, 2, 10, 48, 0.0f, 0.5f, 1.0f, -0.5f);
    sw__add_part(mesh, &p);
}

/* The whole body. UV rectangles tile [0,1]² without overlap: torso,
   neck and head down the left, limbs on the right, the ponytail right of
   the neck; the skirt (a material of its own) has its own [0,1]². */
static void sw__build_mesh(sw__demo_mesh* mesh, const sw__demo_skeleton* sk) {
    sw__add_torso(mesh);
    sw__add_neck(mesh);
    sw__add_head(mesh);
    for (int side = 0; side < 2; side++) {
        sw__add_arm(mesh, sk, side);
        sw__add_hand(mesh, sk, side);
        sw__add_leg(mesh, sk, side);
        sw__add_foot(mesh, sk, side);
    }
    sw__add_ponytail(mesh);
    sw__add_skirt(mesh);
    sw__map_face(&mesh->primitives[SW__M_FACE]);
}

/* ---- the clips ---------------------------------------------------------------------------- */

#define SW__CLIP_RATE_HZ 30
#define SW__WALK_DURATION_S 1.0f
#define SW__WAVE_DURATION_S 2.0f
#define SW__TWIST_DURATION_S 2.0f
#define SW__RUN_DURATION_S (2.0f / 3.0f)
#define SW__IDLE_DURATION_S 3.0f
#define SW__TWIST_DEG 170.0

typedef void (*sw__pose_fn)(const sw__demo_skeleton* sk, float time, sw_transform* local);

/* The rest pose: offsets from the parent, no rotation. */
static void sw__rest_pose(const sw__demo_skeleton* sk, sw_transform* local) {
    for (int j = 0; j < SW__JOINT_COUNT; j++) {
        local[j] = sw_transform_identity();
        local[j].translation = sw__rest_local_translation(sk, j);
    }
}

/* The axis about which the elbow bends the forearm forward (towards +Z):
   perpendicular to the rest arm and to Z. */
static sw_vec3 sw__elbow_axis(const sw__demo_skeleton* sk, int side) {
    return sw_vec3_normalize(sw_vec3_cross(sk->arm_direction[side], sw__v3(0, 0, 1)));
}

/* A gait: walk, run and the turning walks are this with other numbers. */
typedef struct sw__gait {
    float duration_s;      /* one cycle */
    double sway, bob, dip; /* pelvis: side sway, up-down bob, how much lower (m) */
    double hip_yaw, chest_yaw; /* degrees, against the legs */
    double stride, knee, knee_swing; /* thigh swing; knee bend at stance and added on the forward swing */
    double arm_swing, elbow, elbow_swing;
    double lean;           /* degrees forward, at the spine */
    double turn;           /* -1 (right) .. 1 (left): lean and look into the turn, legs turned in */
} sw__gait;

static const sw__gait sw__walk_gait = {SW__WALK_DURATION_S, 0.012, 0.012, 0.02, 6.0, 7.0, 22.0, 5.0, 50.0,
                                       18.0, 12.0, 10.0, 0.0, 0.0};

/* One gait cycle: the left leg swings forward over the first half. */
static void sw__gait_pose(const sw__demo_skeleton* sk, const sw__gait* g, float time, sw_transform* local) {
    sw__rest_pose(sk, local);
    double phase = 2.0 * SW_PI * time / g->duration_s;
    double s = sin(phase), c = cos(phase);
    const sw_vec3 x_back = sw__v3(-1, 0, 0), x_axis = sw__v3(1, 0, 0), y_axis = sw__v3(0, 1, 0);
    /* Over the stance leg, lowest when the legs are furthest apart. */
    local[SW__J_PELVIS].translation.x += (float)(-g->sway * c);
    local[SW__J_PELVIS].translation.y += (float)(-g->dip + g->bob * cos(2.0 * phase));
    local[SW__J_PELVIS].rotation = sw__rotation_deg(y_axis, -g->hip_yaw * s);
    /* The chest turns against the hips; the head keeps looking ahead. */
    local[SW__J_SPINE].rotation = sw__rotation_deg(y_axis, 2.0 * s);
    local[SW__J_CHEST].rotation = sw__rotation_deg(y_axis, g->chest_yaw * s);
    local[SW__J_NECK].rotation = sw__rotation_deg(y_axis, -2.0 * s);
    local[SW__J_HEAD].rotation = sw__rotation_deg(y_axis, -1.0 * s);
    if (g->lean != 0.0)
        local[SW__J_SPINE].rotation = sw_quat_mul(sw__rotation_deg(x_axis, g->lean), local[SW__J_SPINE].rotation);
    if (g->turn != 0.0) {
        /* into the turn (+X is the character's left): the body leans, the
           chest and head look, the legs point */
        const sw_vec3 z_axis = sw__v3(0, 0, 1);
        local[SW__J_PELVIS].rotation =
            sw_quat_mul(sw__rotation_deg(z_axis, -6.0 * g->turn), local[SW__J_PELVIS].rotation);
        local[SW__J_CHEST].rotation = sw_quat_mul(sw__rotation_deg(y_axis, 10.0 * g->turn), local[SW__J_CHEST].rotation);
        local[SW__J_HEAD].rotation = sw_quat_mul(sw__rotation_deg(y_axis, 15.0 * g->turn), local[SW__J_HEAD].rotation);
    }
    for (int side = 0; side < 2; side++) {
        double leg_phase = phase + SW_PI * side;
        /* the outer leg of a turn strides further */
        double stride = g->turn != 0.0 ? g->stride * (1.0 - 0.25 * g->turn * sw__side_sign[side]) : g->stride;
        double swing = stride * sin(leg_phase); /* thigh forward */
        double swing_forward = cos(leg_phase); /* > 0 while the leg moves forward */
        double knee = g->knee + g->knee_swing * (swing_forward > 0.0 ? swing_forward * swing_forward : 0.0);
        local[sw__leg_joint(side, SW__LEG_THIGH)].rotation = sw__rotation_deg(x_back, swing);
        if (g->turn != 0.0)
            local[sw__leg_joint(side, SW__LEG_THIGH)].rotation = sw_quat_mul(
                sw__rotation_deg(y_axis, 12.0 * g->turn), local[sw__leg_joint(side, SW__LEG_THIGH)].rotation);
        local[sw__leg_joint(side, SW__LEG_SHIN)].rotation = sw__rotation_deg(x_axis, knee);
        local[sw__leg_joint(side, SW__LEG_FOOT)].rotation = sw__rotation_deg(x_back, 0.6 * (knee - swing));

        /* Arms hang 30° lower than at rest and swing against the legs. */
        double arm_swing = -g->arm_swing * sin(leg_phase);
        sw_quat lower = sw__rotation_deg(sw__v3(0, 0, sw__side_sign[side]), -30.0);
        local[sw__arm_joint(side, SW__ARM_UPPER)].rotation = sw_quat_mul(sw__rotation_deg(x_back, arm_swing), lower);
        local[sw__arm_joint(side, SW__ARM_FOREARM)].rotation = sw__rotation_deg(
            sw__elbow_axis(sk, side), g->elbow + g->elbow_swing * (arm_swing > 0.0 ? arm_swing / g->arm_swing : 0.0));
    }
}

static void sw__walk_pose(const sw__demo_skeleton* sk, float time, sw_transform* local) {
    sw__gait_pose(sk, &sw__walk_gait, time, local);
}

/* Walking while turning left (right): walk's timing, so the three blend in step. */
static void sw__walk_left_pose(const sw__demo_skeleton* sk, float time, sw_transform* local) {
    sw__gait g = sw__walk_gait;
    g.turn = 1.0;
    sw__gait_pose(sk, &g, time, local);
}

static void sw__walk_right_pose(const sw__demo_skeleton* sk, float time, sw_transform* local) {
    sw__gait g = sw__walk_gait;
    g.turn = -1.0;
    sw__gait_pose(sk, &g, time, local);
}

/* A run: a shorter cycle, longer strides, knees high, elbows bent, leaning in. */
static void sw__run_pose(const sw__demo_skeleton* sk, float time, sw_transform* local) {
    static const sw__gait run = {SW__RUN_DURATION_S, 0.015, 0.03, 0.07, 8.0, 12.0, 38.0, 10.0, 75.0,
                                 35.0, 70.0, 15.0, 10.0, 0.0};
    sw__gait_pose(sk, &run, time, local);
}

/* Standing and breathing: the chest rises and falls, the weight shifts a
   little from foot to foot, the arms hang. */
static void sw__idle_pose(const sw__demo_skeleton* sk, float time, sw_transform* local) {
    sw__rest_pose(sk, local);
    double phase = 2.0 * SW_PI * time / SW__IDLE_DURATION_S;
    const sw_vec3 x_axis = sw__v3(1, 0, 0), z_axis = sw__v3(0, 0, 1);
    local[SW__J_PELVIS].translation.x += (float)(0.01 * sin(phase));
    local[SW__J_PELVIS].translation.y += (float)(-0.005 - 0.003 * cos(2.0 * phase));
    local[SW__J_PELVIS].rotation = sw__rotation_deg(z_axis, 1.5 * sin(phase));
    local[SW__J_SPINE].rotation = sw__rotation_deg(z_axis, -1.5 * sin(phase));
    local[SW__J_CHEST].rotation = sw__rotation_deg(x_axis, -1.5 * sin(2.0 * phase)); /* breathing */
    local[SW__J_HEAD].rotation = sw__rotation_deg(x_axis, 2.0 + 1.0 * sin(2.0 * phase + 0.5));
    for (int side = 0; side < 2; side++) {
        local[sw__arm_joint(side, SW__ARM_UPPER)].rotation =
            sw__rotation_deg(sw__v3(0, 0, sw__side_sign[side]), -42.0 + 1.5 * sin(2.0 * phase));
        local[sw__arm_joint(side, SW__ARM_FOREARM)].rotation = sw__rotation_deg(sw__elbow_axis(sk, side), 10.0);
        local[sw__leg_joint(side, SW__LEG_SHIN)].rotation = sw__rotation_deg(x_axis, 3.0);
    }
}

/* The right arm rises (0–0.5 s), the hand waves, and the arm comes down
   (1.5–2 s). Elbow bends stay under 90°, where LBS keeps ~70 % of the
   radius (linear blend skinning keeps |cos(φ/2)| of it), so only `twist` shows the collapse. */
static void sw__wave_pose(const sw__demo_skeleton* sk, float time, sw_transform* local) {
    sw__rest_pose(sk, local);
    double up = sw__glb_smoothstep(0.0f, 0.5f, time) * (1.0f - sw__glb_smoothstep(1.5f, SW__WAVE_DURATION_S, time));
    double wave = sin(2.0 * SW_PI * 2.5 * time) * up * up;
    const int side = 1;
    sw_vec3 raise = sw__v3(0, 0, sw__side_sign[side]); /* positive angles lift the arm */
    local[sw__arm_joint(side, SW__ARM_SHOULDER)].rotation = sw__rotation_deg(raise, 15.0 * up);
    local[sw__arm_joint(side, SW__ARM_UPPER)].rotation =
        sw_quat_mul(sw__rotation_deg(raise, 72.0 * up), sw__rotation_deg(sw__v3(-1, 0, 0), 12.0 * up));
    local[sw__arm_joint(side, SW__ARM_FOREARM)].rotation = sw__rotation_deg(raise, 70.0 * up + 12.0 * wave);
    local[sw__arm_joint(side, SW__ARM_HAND)].rotation = sw__rotation_deg(raise, 25.0 * wave);
    local[SW__J_HEAD].rotation = sw__rotation_deg(sw__v3(0, 0, 1), 6.0 * up);
    local[sw__arm_joint(0, SW__ARM_UPPER)].rotation = sw__rotation_deg(sw__v3(0, 0, sw__side_sign[0]), -20.0 * up);
}

/* Both forearm_twist joints turn about the forearm, 0 → 170° → 0, mirrored
   (both pronate); nothing else moves. */
static void sw__twist_pose(const sw__demo_skeleton* sk, float time, sw_transform* local) {
    sw__rest_pose(sk, local);
    double angle = SW__TWIST_DEG * 0.5 * (1.0 - cos(SW_PI * time / (0.5 * SW__TWIST_DURATION_S)));
    for (int side = 0; side < 2; side++)
        local[sw__arm_joint(side, SW__ARM_FOREARM_TWIST)].rotation =
            sw__rotation_deg(sk->arm_direction[side], sw__side_sign[side] * angle);
}

typedef struct sw__demo_clip {
    const char* name;
    float duration_s;
    bool loops; /* the last key repeats the first exactly */
    sw__pose_fn pose;
} sw__demo_clip;

static const sw__demo_clip sw__clips[] = {
    {"walk", SW__WALK_DURATION_S, true, sw__walk_pose},
    {"wave", SW__WAVE_DURATION_S, false, sw__wave_pose},
    {"twist", SW__TWIST_DURATION_S, false, sw__twist_pose},
    {"idle", SW__IDLE_DURATION_S, true, sw__idle_pose},
    {"run", SW__RUN_DURATION_S, true, sw__run_pose},
    {"walk_left", SW__WALK_DURATION_S, true, sw__walk_left_pose},
    {"walk_right", SW__WALK_DURATION_S, true, sw__walk_right_pose},
};
#define SW__CLIP_COUNT (sizeof sw__clips / sizeof sw__clips[0])

/* Keys of one clip: times, the pelvis's translation, every joint's rotation. */
typedef struct sw__clip_keys {
    int key_count;
    float* times;        /* key_count */
    float* translations; /* key_count × 3 (pelvis) */
    float* rotations;    /* SW__JOINT_COUNT × key_count × 4 */
} sw__clip_keys;

static bool sw__sample_clip(const sw__demo_skeleton* sk, const sw__demo_clip* clip, sw__clip_keys* out) {
    int keys = (int)lround(clip->duration_s * SW__CLIP_RATE_HZ) + 1;
    out->key_count = keys;
    out->times = sw__malloc((size_t)keys * sizeof(float));
    out->translations = sw__malloc((size_t)keys * 3 * sizeof(float));
    out->rotations = sw__malloc((size_t)SW__JOINT_COUNT * (size_t)keys * 4 * sizeof(float));
    if (!out->times || !out->translations || !out->rotations) return false;
    sw_transform local[SW__JOINT_COUNT];
    for (int k = 0; k < keys; k++) {
        int source = (clip->loops && k == keys - 1) ? 0 : k;
        out->times[k] = (float)((double)clip->duration_s * k / (keys - 1));
        clip->pose(sk, (float)((double)clip->duration_s * source / (keys - 1)), local);
        memcpy(&out->translations[k * 3], &local[SW__J_PELVIS].translation, 3 * sizeof(float));
        for (int j = 0; j < SW__JOINT_COUNT; j++) {
            float* q = &out->rotations[((size_t)j * (size_t)keys + (size_t)k) * 4];
            sw_quat r = sw_quat_normalize(local[j].rotation);
            /* Neighbouring keys in one hemisphere, for players that lerp. */
            if (k > 0 && !(clip->loops && k == keys - 1)) {
                const float* prev = q - 4;
                if (prev[0] * r.x + prev[1] * r.y + prev[2] * r.z + prev[3] * r.w < 0.0f)
                    r.x = -r.x, r.y = -r.y, r.z = -r.z, r.w = -r.w;
            }
            if (clip->loops && k == keys - 1) {
                memcpy(q, &out->rotations[(size_t)j * (size_t)keys * 4], 4 * sizeof(float));
            } else {
                q[0] = r.x, q[1] = r.y, q[2] = r.z, q[3] = r.w;
            }
        }
    }
    return true;
}

static void sw__free_clip_keys(sw__clip_keys* keys) {
    sw__free(keys->times);
    sw__free(keys->translations);
    sw__free(keys->rotations);
}

/* ---- the look: materials ------------------------------------------------------------------------ */

/* The middle of the control map's alpha bands for region groups 1..3
   (sw_toon_region: group 1 below 0.2, group 2 from 0.8, group 3 in 0.4..0.6). */
#define SW__REGION_1 0.1f
#define SW__REGION_2 0.9f
#define SW__REGION_3 0.5f
#define SW__LOOK_GROUPS 3

/* Per material: the glTF metallic-roughness fallback and the toon data of
   SW_materials_toon. Colours are linear RGB. */
typedef struct sw__demo_look {
    const char* name;
    float base_color[4];      /* white where the base colour texture holds the colours */
    float roughness;
    bool base_texture;        /* a painted base colour texture */
    sw_toon_kind kind;
    float shade[SW__LOOK_GROUPS][3]; /* the dark side (a multiplier of the base colour) of region groups 1..3 */
    float edge[3];            /* the narrow band between lit and dark (warmer, more saturated) */
    float outline_color[3];   /* darker than the material */
    float outline_width;      /* pixels at 1080 lines */
    float rim_color[3];
} sw__demo_look;

static const sw__demo_look sw__looks[SW__MATERIAL_COUNT] = {
    [SW__M_SKIN] = {"skin", {0.96f, 0.72f, 0.60f, 1.0f}, 0.6f, false, SW_TOON_BODY,
                {{0.93f, 0.62f, 0.55f}, {0.93f, 0.62f, 0.55f}, {0.93f, 0.62f, 0.55f}}, {0.98f, 0.48f, 0.40f},
                {0.26f, 0.09f, 0.06f}, 1.6f, {0.25f, 0.18f, 0.16f}},
    [SW__M_FACE] = {"face", {1.0f, 1.0f, 1.0f, 1.0f}, 0.6f, true, SW_TOON_FACE,
                {{0.93f, 0.62f, 0.55f}, {0.93f, 0.62f, 0.55f}, {0.93f, 0.62f, 0.55f}}, {0.98f, 0.48f, 0.40f},
                {0.26f, 0.09f, 0.06f}, 1.4f, {0.0f, 0.0f, 0.0f}},
    [SW__M_HAIR] = {"hair", {0.33f, 0.15f, 0.09f, 1.0f}, 0.45f, false, SW_TOON_HAIR,
                {{0.55f, 0.42f, 0.55f}, {0.55f, 0.42f, 0.55f}, {0.55f, 0.42f, 0.55f}}, {0.80f, 0.45f, 0.45f},
                {0.06f, 0.022f, 0.014f}, 2.2f, {0.30f, 0.22f, 0.18f}},
    /* The top (blouse, group 1), the tights on the legs (group 2), the
       sailor collar and ribbon (group 3). */
    [SW__M_CLOTH] = {"cloth", {1.0f, 1.0f, 1.0f, 1.0f}, 0.85f, true, SW_TOON_BODY,
                 {{0.72f, 0.74f, 0.92f}, {0.55f, 0.50f, 0.65f}, {0.55f, 0.62f, 0.88f}}, {0.80f, 0.76f, 0.95f},
                 {0.03f, 0.03f, 0.07f}, 2.0f, {0.20f, 0.20f, 0.25f}},
    /* The shoe (group 1) and its sole (group 2). */
    [SW__M_SHOES] = {"shoes", {1.0f, 1.0f, 1.0f, 1.0f}, 0.5f, true, SW_TOON_BODY,
                 {{0.60f, 0.50f, 0.52f}, {0.70f, 0.70f, 0.75f}, {0.60f, 0.50f, 0.52f}}, {0.75f, 0.55f, 0.50f},
                 {0.025f, 0.012f, 0.008f}, 2.0f, {0.20f, 0.16f, 0.14f}},
    /* The pleated skirt (group 1), its hem stripes (group 2) and its
       lining (group 3, seen on back faces through TEXCOORD_1). */
    [SW__M_SKIRT] = {"skirt", {1.0f, 1.0f, 1.0f, 1.0f}, 0.8f, true, SW_TOON_BODY,
                 {{0.55f, 0.62f, 0.90f}, {0.75f, 0.78f, 0.95f}, {0.50f, 0.50f, 0.68f}}, {0.70f, 0.72f, 0.98f},
                 {0.012f, 0.016f, 0.05f}, 2.0f, {0.18f, 0.20f, 0.30f}},
};

static const char* sw__toon_kind_name(sw_toon_kind kind) {
    return kind == SW_TOON_HAIR ? "hair" : kind == SW_TOON_FACE ? "face" : kind == SW_TOON_EYE ? "eye" : "body";
}

/* ---- the look: painted textures ------------------------------------------------------------------ */

/* Every texture but the ramps is painted in texture space: each triangle
   of a primitive is rasterised at its UVs, and a paint function gives the
   texel's value from the rest position and normal interpolated there, so
   features sit where they belong on the body whatever the UV layout. */

#define SW__MAX_MAP_SIZE 256
#define SW__FACE_SDF_SIZE 64
/* The face's shadow edge: the logistic's 10-90 % width is 2 ln 9 / 300 ≈
   0.015 of the threshold range, a few texels of the 256² map, where the
   analysis' 100 gives a soft 0.044. */
#define SW__FACE_SDF_STEEPNESS 300.0f

typedef enum sw__map_kind { SW__MAP_CONTROL, SW__MAP_BASE, SW__MAP_HAIR } sw__map_kind;

typedef struct sw__texel_point {
    sw_vec3 position, normal; /* rest pose */
    sw__part_tag tag;
    bool lining;              /* painted through TEXCOORD_1: the inside of the skirt */
} sw__texel_point;

static float sw__mixf(float a, float b, float t) { return a + (b - a) * t; }

static void sw__mix3(float* rgb, const float* to, float t) {
    for (int c = 0; c < 3; c++) rgb[c] = sw__mixf(rgb[c], to[c], t);
}

/* Coverage of a shape from its signed distance d (negative inside), over
   `soft` of blur (about a texel). */
static float sw__inside(float d, float soft) { return 1.0f - sw__glb_smoothstep(-soft, soft, d); }

/* An ellipse's approximate signed distance (exact on the axes). */
static float sw__ellipse_distance(float x, float y, float cx, float cy, float rx, float ry) {
    float dx = (x - cx) / rx, dy = (y - cy) / ry;
    return (sqrtf(dx * dx + dy * dy) - 1.0f) * fminf(rx, ry);
}

/* ---- the face: eyes, brows, mouth and blush, painted on the front view
   (x to the character's left, y up; metres). */

#define SW__FACE_AA 0.0006f /* about a texel of the face texture */
#define SW__EYE_Y 1.556f
#define SW__EYE_X 0.034f

static const float sw__skin_rgb[3] = {0.96f, 0.72f, 0.60f};

static void sw__paint_eye(float x, float y, float side, float* rgb) {
    float cx = side * SW__EYE_X, cy = SW__EYE_Y;
    if (fabsf(x - cx) > 0.024f || fabsf(y - cy - 0.008f) > 0.026f) return; /* nothing of the eye or brow here */
    float outward = side * (x - cx); /* > 0 towards the temple */
    /* The opening: an ellipse, tilted so the outer corner is a little higher. */
    float ty = y - 0.12f * outward;
    float open = sw__ellipse_distance(x, ty, cx, cy, 0.0135f, 0.0105f);
    float white = sw__inside(open, SW__FACE_AA);
    if (white > 0.0f) {
        float eye[3] = {0.95f, 0.95f, 0.97f};
        /* The upper lid's shadow on the white. */
        const float lid[3] = {0.72f, 0.74f, 0.86f};
        sw__mix3(eye, lid, sw__glb_smoothstep(cy + 2e-3f, cy + 0.008f, ty));
        /* The iris: tall, darker at the top, a darker ring, the pupil and two highlights. */
        float iris = sw__ellipse_distance(x, y, cx, cy - 0.0006f, 0.0078f, 0.0102f);
        float t = sw__glb_clamp01((y - (cy - 0.0108f)) / 0.0204f);
        float iris_rgb[3] = {sw__mixf(0.30f, 0.03f, t), sw__mixf(0.62f, 0.09f, t), sw__mixf(0.80f, 0.24f, t)};
        float ring = sw__glb_smoothstep(-1.6e-3f, -2e-4f, iris);
        for (int c = 0; c < 3; c++) iris_rgb[c] *= 1.0f - 0.55f * ring;
        const float pupil_rgb[3] = {0.01f, 0.015f, 0.05f};
        sw__mix3(iris_rgb, pupil_rgb,
                 sw__inside(sw__ellipse_distance(x, y, cx, cy - 0.0004f, 0.0030f, 0.0048f), SW__FACE_AA));
        sw__mix3(eye, iris_rgb, sw__inside(iris, SW__FACE_AA));
        const float shine[3] = {1.0f, 1.0f, 1.0f};
        sw__mix3(
            eye, shine,
            sw__inside(sw__ellipse_distance(x, y, cx - side * 0.0030f, cy + 0.0042f, 2.4e-3f, 2.4e-3f), SW__FACE_AA));
        sw__mix3(eye, shine,
                 0.85f * sw__inside(sw__ellipse_distance(x, y, cx + side * 2.6e-3f, cy - 0.0046f, 0.0012f, 0.0012f),
                                    SW__FACE_AA));
        sw__mix3(rgb, eye, white);
    }
    /* The upper lash line: a thick band along the top of the opening,
       thickest and winged at the outer corner; a short thin lower line. */
    const float lash[3] = {0.05f, 0.02f, 0.025f};
    float upper = sw__ellipse_distance(x, ty, cx, cy + 0.0006f, 0.0150f, 0.0124f);
    float thickness = 0.0016f + 0.0012f * sw__glb_smoothstep(-0.004f, 0.012f, outward);
    float band = fabsf(upper + 0.0008f) - thickness;
    float upper_side = sw__glb_smoothstep(cy - 0.0035f, cy - 0.0005f, ty + 0.25f * fmaxf(outward, 0.0f));
    sw__mix3(rgb, lash, sw__inside(band, SW__FACE_AA) * upper_side);
    float lower = fabsf(sw__ellipse_distance(x, ty, cx, cy, 0.0140f, 0.0112f)) - 0.0005f;
    sw__mix3(rgb, lash, 0.7f * sw__inside(lower, SW__FACE_AA) * sw__glb_smoothstep(cy - 0.005f, cy - 0.009f, ty) *
                        sw__glb_smoothstep(2e-3f, 0.008f, outward));
    /* The brow: a thin arc, thinning towards its ends. */
    const float brow[3] = {0.16f, 0.07f, 0.04f};
    float bx = (x - cx - side * 0.001f) / 0.0145f;
    if (fabsf(bx) < 1.0f) {
        float arc = cy + 0.0235f + 0.0035f * (1.0f - bx * bx) - 2e-3f * side * bx;
        float width = 0.0011f * (1.0f - 0.6f * bx * bx);
        sw__mix3(rgb, brow, sw__inside(fabsf(y - arc) - width, SW__FACE_AA));
    }
}

/* The fringe over the forehead: pointed locks whose tips stop above the
   brows, parted in the middle, longer at the sides where they frame the
   face; under its edge, a band of the skin's shade. */
static void sw__paint_fringe(float x, float y, float* rgb) {
    float ax = fabsf(x);
    float saw = fabsf(ax / 0.019f - floorf(ax / 0.019f) - 0.5f) * 2.0f; /* 0 at a tip, 1 between */
    float edge = 1.600f + 0.011f * saw + 0.012f * (1.0f - sw__glb_smoothstep(0.0f, 0.012f, ax)) -
                 0.055f * sw__glb_smoothstep(0.052f, 0.085f, ax);
    const float shade[3] = {sw__skin_rgb[0] * 0.93f, sw__skin_rgb[1] * 0.62f, sw__skin_rgb[2] * 0.55f};
    sw__mix3(rgb, shade, 0.8f * sw__inside(edge - 0.005f - y, 0.0015f));
    float hair[3] = {0.33f, 0.15f, 0.09f};
    float strand = 0.5f + 0.5f * cosf(x * 420.0f + 3.0f * sinf(y * 90.0f));
    for (int c = 0; c < 3; c++) hair[c] *= 0.8f + 0.2f * strand;
    sw__mix3(rgb, hair, sw__inside(edge - y, SW__FACE_AA));
}

static void sw__paint_face(const sw__texel_point* p, float* rgb) {
    float x = p->position.x, y = p->position.y;
    memcpy(rgb, sw__skin_rgb, sizeof sw__skin_rgb);
    /* Blush: soft pink ovals. */
    const float blush[3] = {1.0f, 0.45f, 0.45f};
    for (int side = 0; side < 2; side++) {
        float s = sw__side_sign[side];
        if (fabsf(x - s * 0.044f) > 0.016f || fabsf(y - 1.533f) > 0.009f) continue;
        float d = sw__ellipse_distance(x, y, s * 0.044f, 1.533f, 0.0125f, 0.0060f);
        sw__mix3(rgb, blush, 0.40f * (1.0f - sw__glb_smoothstep(-0.006f, 2e-3f, d)));
    }
    sw__paint_eye(x, y, 1.0f, rgb);
    sw__paint_eye(x, y, -1.0f, rgb);
    /* The nose: a small shade; the mouth: a short, slightly smiling line. */
    const float nose[3] = {0.80f, 0.48f, 0.40f};
    sw__mix3(rgb, nose, 0.6f * sw__inside(sw__ellipse_distance(x, y, 0.0f, 1.527f, 0.0012f, 0.0009f), SW__FACE_AA));
    const float mouth[3] = {0.45f, 0.10f, 0.10f};
    float mx = x / 0.0065f;
    if (fabsf(mx) < 1.0f)
        sw__mix3(rgb, mouth, sw__inside(fabsf(y - (1.5035f + 0.0014f * mx * mx)) - 0.00065f, SW__FACE_AA));
    if (y > 1.53f) sw__paint_fringe(x, y, rgb);
}

/* ---- the clothes. */

/* The sailor collar: a square flap on the back, two bands from the
   shoulders down to a V on the chest. Returns 0 outside, 1 on the navy, 2
   on its white stripe. */
static int sw__sailor_collar(sw_vec3 pos) {
    float ax = fabsf(pos.x);
    if (pos.z < 0.0f) {
        if (pos.y < 1.285f || ax > 0.15f) return 0;
        float edge = fminf(pos.y - 1.285f, 0.15f - ax); /* distance to the flap's free edges */
        return edge > 0.008f && edge < 0.014f ? 2 : 1;
    }
    /* The V: the collar's lower edge runs from (0, 1.27) to (±0.15, 1.42). */
    float v_line = 1.27f + ax * 1.0f;
    float d = pos.y - v_line; /* above the edge, towards the neck */
    if (d < 0.0f || d > 0.045f) return 0;
    return d > 0.008f && d < 0.014f ? 2 : 1;
}

static void sw__paint_cloth(const sw__texel_point* p, sw__map_kind kind, float* out) {
    sw_vec3 pos = p->position;
    const float blouse[3] = {0.88f, 0.89f, 0.94f}, navy[3] = {0.02f, 0.035f, 0.12f}, stripe[3] = {0.90f, 0.90f, 0.92f},
                ribbon[3] = {0.62f, 0.03f, 0.05f}, tights[3] = {0.030f, 0.030f, 0.042f};
    float g = 0.5f, a = SW__REGION_1, b = 0.0f;
    const float* rgb = blouse;
    if (p->tag == SW__TAG_LEG) {
        rgb = tights;
        a = SW__REGION_2;
        /* The fold behind the knee. */
        if (pos.z < 0.0f && pos.y > 0.43f && pos.y < 0.55f) g = 0.3f;
    } else {
        int collar = sw__sailor_collar(pos);
        /* The bow under the V: two lobes, a knot and two tails. */
        float ax = fabsf(pos.x);
        float ribbon_d = fminf(sw__ellipse_distance(ax, pos.y, 0.024f, 1.266f, 0.024f, 0.014f),
                               sw__ellipse_distance(ax, pos.y, 0.0f, 1.266f, 0.008f, 0.009f));
        if (pos.y < 1.262f && pos.y > 1.20f) {
            float centre = 0.006f + 0.25f * (1.262f - pos.y); /* the tails part downwards */
            ribbon_d = fminf(ribbon_d, fabsf(ax - centre) - 0.007f);
        }
        if (collar) {
            rgb = collar == 2 ? stripe : navy;
            a = SW__REGION_3;
            b = 1.0f;
        }
        if (pos.z > 0.0f && ribbon_d < 0.0f) {
            rgb = ribbon;
            a = SW__REGION_3;
            b = 1.0f;
            g = ax < 0.008f ? 0.3f : 0.5f; /* the knot's folds */
        }
        /* Under the arms, the sides of the chest stay darker. */
        if (fabsf(pos.x) > 0.125f && pos.y > 1.22f && pos.y < 1.37f) g = 0.3f;
    }
    if (kind == SW__MAP_BASE) {
        memcpy(out, rgb, 3 * sizeof *out);
        out[3] = 1.0f;
    } else {
        out[0] = 0.0f, out[1] = g, out[2] = b, out[3] = a;
    }
}

/* The skirt: 16 pleats whose folds are darker, two white stripes above
   the hem; the lining plain. */
#define SW__SKIRT_PLEATS 16
#define SW__SKIRT_HEM_Y 0.70f

static void sw__paint_skirt(const sw__texel_point* p, sw__map_kind kind, float* out) {
    const float navy[3] = {0.025f, 0.040f, 0.150f}, stripe[3] = {0.90f, 0.90f, 0.93f},
                lining[3] = {0.05f, 0.07f, 0.20f};
    float rgb[3];
    float g = 0.5f, a = SW__REGION_1, b = 0.0f;
    if (p->lining) {
        memcpy(rgb, lining, sizeof rgb);
        a = SW__REGION_3;
    } else {
        sw_vec3 pos = p->position;
        double azimuth = atan2(pos.x, pos.z);
        /* Fold lines, fading in below the waistband. */
        float fold =
            powf(0.5f + 0.5f * (float)cos(azimuth * SW__SKIRT_PLEATS), 12.0f) * sw__glb_smoothstep(0.97f, 0.90f, pos.y);
        memcpy(rgb, navy, sizeof rgb);
        for (int c = 0; c < 3; c++) rgb[c] *= 1.0f - 0.45f * fold;
        g = 0.5f - 0.28f * fold;
        float h = pos.y - SW__SKIRT_HEM_Y;
        if ((h > 0.012f && h < 0.022f) || (h > 0.030f && h < 0.036f)) {
            memcpy(rgb, stripe, sizeof rgb);
            a = SW__REGION_2;
            b = 1.0f;
        }
    }
    if (kind == SW__MAP_BASE) {
        memcpy(out, rgb, sizeof rgb);
        out[3] = 1.0f;
    } else {
        out[0] = 0.0f, out[1] = g, out[2] = b, out[3] = a;
    }
}

static void sw__paint_shoes(const sw__texel_point* p, sw__map_kind kind, float* out) {
    const float leather[3] = {0.11f, 0.045f, 0.022f}, sole[3] = {0.035f, 0.028f, 0.024f};
    bool is_sole = p->position.y < 0.016f;
    if (kind == SW__MAP_BASE) {
        memcpy(out, is_sole ? sole : leather, 3 * sizeof *out);
        out[3] = 1.0f;
    } else {
        out[0] = 0.0f, out[1] = 0.5f, out[2] = is_sole ? 1.0f : 0.0f, out[3] = is_sole ? SW__REGION_2 : SW__REGION_1;
    }
}

/* Skin: folds under the chin and in the armpits. */
static void sw__paint_skin_control(const sw__texel_point* p, float* out) {
    sw_vec3 pos = p->position, n = p->normal;
    float g = 0.5f;
    if (p->tag == SW__TAG_NECK && pos.y > 1.43f) g = 0.32f;
    if (p->tag == SW__TAG_ARM && fabsf(pos.x) < 0.25f && n.y < -0.3f) g = 0.35f;
    out[0] = 0.0f, out[1] = g, out[2] = 0.0f, out[3] = SW__REGION_1;
}

/* Hair: the underside darker. */
static void sw__paint_hair_control(const sw__texel_point* p, float* out) {
    out[0] = 0.0f;
    out[1] = 0.5f - 0.18f * sw__glb_smoothstep(-0.1f, -0.6f, p->normal.y);
    out[2] = 0.0f;
    out[3] = SW__REGION_1;
}

/* The hair's normal-map-shaped texture: RG a flat normal, B the glint mask
   (thin strands, lit on the upper head and the ponytail's top), A the
   glint tier (0.875: the crown, 0.625: above the ears, 0.375: lower, 0.125: none). */
static void sw__paint_hair_map(const sw__texel_point* p, float* out) {
    sw_vec3 pos = p->position;
    float angle, strength;
    if (p->tag == SW__TAG_PONYTAIL) {
        sw_vec3 d = sw_vec3_sub(pos, sw__ponytail_start()), dir = sw__ponytail_direction();
        sw_vec3 r = sw_vec3_sub(d, sw_vec3_scale(dir, sw_vec3_dot(d, dir)));
        sw_vec3 side = sw_vec3_normalize(sw_vec3_cross(dir, sw__v3(1, 0, 0)));
        angle = atan2f(sw_vec3_dot(r, side), r.x);
        strength = sw__glb_smoothstep(0.0f, 0.5f, sw_vec3_dot(p->normal, sw__v3(0, 1, 0)) + 0.3f);
    } else {
        angle = atan2f(pos.x, pos.z);
        strength = sw__glb_smoothstep(1.54f, 1.64f, pos.y);
    }
    /* Strands: narrow stripes along the hair, wavy so they do not look ruled. */
    float strand = 0.5f + 0.5f * cosf(angle * 24.0f + 2.2f * sinf(angle * 5.0f + pos.y * 40.0f));
    float mask = sw__glb_smoothstep(0.72f, 0.92f, strand) * strength;
    float tier = p->tag == SW__TAG_PONYTAIL ? 0.125f
               : pos.y > 1.665f         ? 0.875f
               : pos.y > 1.615f         ? 0.625f
               : pos.y > 1.56f          ? 0.375f
                                        : 0.125f;
    out[0] = 0.5f, out[1] = 0.5f, out[2] = mask, out[3] = tier;
}

static void sw__paint_texel(int material, sw__map_kind kind, const sw__texel_point* p, float* out) {
    switch (material) {
    case SW__M_CLOTH: sw__paint_cloth(p, kind, out); return;
    case SW__M_SKIRT: sw__paint_skirt(p, kind, out); return;
    case SW__M_SHOES: sw__paint_shoes(p, kind, out); return;
    case SW__M_FACE:
        if (kind == SW__MAP_BASE) {
            sw__paint_face(p, out);
            out[3] = 1.0f;
        } else {
            out[0] = 0.0f, out[1] = 0.5f, out[2] = 0.0f, out[3] = SW__REGION_1;
        }
        return;
    case SW__M_HAIR:
        if (kind == SW__MAP_HAIR)
            sw__paint_hair_map(p, out);
        else
            sw__paint_hair_control(p, out);
        return;
    default: sw__paint_skin_control(p, out); return;
    }
}

/* A float RGBA map being painted, with the texels some triangle covered. */
typedef struct sw__paint_map {
    int width, height;
    float* texels;     /* width × height × 4 */
    uint8_t* covered;  /* width × height */
} sw__paint_map;

/* Rasterises primitive `prim` at UV set 0 (or its lining's TEXCOORD_1):
   every texel whose centre lies in a triangle gets the paint at the
   interpolated rest position and normal. (Plain float arithmetic: this
   runs on every `sinew render` without a model, debug builds included.) */
static void sw__paint_primitive(sw__paint_map* map, const sw__demo_primitive* prim, int material, sw__map_kind kind,
                                bool lining) {
    int width = map->width, height = map->height;
    for (size_t t = 0; t + 2 < prim->index_count; t += 3) {
        const sw__demo_vertex* v[3];
        float x[3], y[3];
        for (int k = 0; k < 3; k++) {
            v[k] = &prim->vertices[prim->indices[t + (size_t)k]];
            const float* uv = lining ? v[k]->uv1 : v[k]->uv;
            x[k] = uv[0] * (float)width - 0.5f; /* texel centres at integers */
            y[k] = uv[1] * (float)height - 0.5f;
        }
        float area = (x[1] - x[0]) * (y[2] - y[0]) - (x[2] - x[0]) * (y[1] - y[0]);
        if (fabsf(area) < 1e-12f) continue;
        int x0 = (int)ceilf(fminf(x[0], fminf(x[1], x[2]))), x1 = (int)floorf(fmaxf(x[0], fmaxf(x[1], x[2])));
        int y0 = (int)ceilf(fminf(y[0], fminf(y[1], y[2]))), y1 = (int)floorf(fmaxf(y[0], fmaxf(y[1], y[2])));
        if (x0 < 0) x0 = 0;
        if (y0 < 0) y0 = 0;
        if (x1 > width - 1) x1 = width - 1;
        if (y1 > height - 1) y1 = height - 1;
        sw__texel_point p;
        p.tag = v[0]->tag;
        p.lining = lining;
        for (int ty = y0; ty <= y1; ty++) {
            for (int tx = x0; tx <= x1; tx++) {
                float px = (float)tx, py = (float)ty;
                float w1 = ((px - x[0]) * (y[2] - y[0]) - (x[2] - x[0]) * (py - y[0])) / area;
                float w2 = ((x[1] - x[0]) * (py - y[0]) - (px - x[0]) * (y[1] - y[0])) / area;
                float w0 = 1.0f - w1 - w2;
                const float eps = -1e-5f;
                if (w0 < eps || w1 < eps || w2 < eps) continue;
                float pos[3], nrm[3];
                for (int c = 0; c < 3; c++) {
                    pos[c] = w0 * v[0]->position[c] + w1 * v[1]->position[c] + w2 * v[2]->position[c];
                    nrm[c] = w0 * v[0]->normal[c] + w1 * v[1]->normal[c] + w2 * v[2]->normal[c];
                }
                float length = sqrtf(nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2]);
                if (length > 0.0f) nrm[0] /= length, nrm[1] /= length, nrm[2] /= length;
                p.position.x = pos[0], p.position.y = pos[1], p.position.z = pos[2];
                p.normal.x = nrm[0], p.normal.y = nrm[1], p.normal.z = nrm[2];
                size_t i = (size_t)ty * (size_t)width + (size_t)tx;
                sw__paint_texel(material, kind, &p, &map->texels[i * 4]);
                map->covered[i] = 1;
            }
        }
    }
}

/* Texels no triangle covers: a few rings get the mean of their covered
   neighbours (so bilinear filtering and small mipmaps at a UV border do not
   pull in the background), the rest `fill`. */
static void sw__dilate(sw__paint_map* map, const float fill[4]) {
    int width = map->width, height = map->height;
    size_t count_all = (size_t)width * (size_t)height;
    for (int pass = 0; pass < 3; pass++) {
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                size_t i = (size_t)y * (size_t)width + (size_t)x;
                if (map->covered[i]) continue;
                float sum[4] = {0, 0, 0, 0};
                int count = 0;
                const int dx[4] = {-1, 1, 0, 0}, dy[4] = {0, 0, -1, 1};
                for (int k = 0; k < 4; k++) {
                    int nx = x + dx[k], ny = y + dy[k];
                    if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
                    size_t j = (size_t)ny * (size_t)width + (size_t)nx;
                    if (map->covered[j] != 1) continue; /* covered before this pass */
                    for (int c = 0; c < 4; c++) sum[c] += map->texels[j * 4 + (size_t)c];
                    count++;
                }
                if (!count) continue;
                for (int c = 0; c < 4; c++) map->texels[i * 4 + (size_t)c] = sum[c] / (float)count;
                map->covered[i] = 2;
            }
        }
        for (size_t i = 0; i < count_all; i++)
            if (map->covered[i] == 2) map->covered[i] = 1;
    }
    for (size_t i = 0; i < count_all; i++)
        if (!map->covered[i]) memcpy(&map->texels[i * 4], fill, 4 * sizeof *fill);
}

/* The sRGB code of a linear value: the nearest of the 256 codes, found by
   bisection on the midpoints between codes (`bounds`, from
   sw__srgb_bounds), so texels cost no powf. */
static void sw__srgb_bounds(float bounds[255]) {
    for (int k = 0; k < 255; k++) bounds[k] = sw__glb_srgb_decode(((float)k + 0.5f) / 255.0f);
}

static uint8_t sw__srgb8_table(const float bounds[255], float linear) {
    int lo = 0, hi = 255; /* the code is the number of bounds below `linear` */
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (bounds[mid] < linear)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (uint8_t)lo;
}

/* The size of material `material`'s map of `kind`: the face's features,
   the cloth's collar stripes and the hair's strands need 256 texels
   across, the skirt's hem stripes 256 down (its pleats are wide); the rest
   is plain. */
static void sw__map_size(int material, sw__map_kind kind, int* width, int* height) {
    *width = *height = 128;
    if (kind == SW__MAP_HAIR || (kind == SW__MAP_BASE && (material == SW__M_FACE || material == SW__M_CLOTH)))
        *width = *height = 256;
    if (kind == SW__MAP_BASE && material == SW__M_SKIRT) *height = 256;
}

/* Paints material `material`'s map of `kind` into out (width × height ×
   channels bytes): base colours sRGB-encoded RGB, data linear RGBA. */
static bool sw__paint_texture(const sw__demo_mesh* mesh, int material, sw__map_kind kind, int width, int height,
                              int channels, uint8_t* out) {
    size_t texels = (size_t)width * (size_t)height;
    sw__paint_map map = {width, height, sw__malloc(texels * 4 * sizeof(float)), sw__calloc(texels, 1)};
    if (!map.texels || !map.covered) {
        sw__free(map.texels), sw__free(map.covered);
        return false;
    }
    sw__paint_primitive(&map, &mesh->primitives[material], material, kind, false);
    if (material == SW__M_SKIRT) sw__paint_primitive(&map, &mesh->primitives[material], material, kind, true);
    const float control_fill[4] = {0.0f, 0.5f, 0.0f, SW__REGION_1}, hair_fill[4] = {0.5f, 0.5f, 0.0f, 0.0f};
    float base_fill[4] = {sw__skin_rgb[0], sw__skin_rgb[1], sw__skin_rgb[2], 1.0f};
    sw__dilate(&map, kind == SW__MAP_CONTROL ? control_fill : kind == SW__MAP_HAIR ? hair_fill : base_fill);
    float bounds[255];
    sw__srgb_bounds(bounds);
    for (size_t i = 0; i < texels; i++)
        for (int c = 0; c < channels; c++) {
            float x = map.texels[i * 4 + (size_t)c];
            out[i * (size_t)channels + (size_t)c] = kind == SW__MAP_BASE ? sw__srgb8_table(bounds, x) : sw__glb_unorm8(x);
        }
    sw__free(map.texels);
    sw__free(map.covered);
    return true;
}

/* The shading ramp (sinew/toon.h's layout, 256 × 20, sRGB RGB): rows 0-9 the
   day bands of groups 1..5, two rows each, rows 10-19 the night bands. u
   runs from the deepest shadow (0) to the terminator (1): the shade
   colour, a little darker deep in the shadow, then over the last tenth a
   narrow warm band and a quick step to white. The night rows are darker
   and bluer. Groups 4 and 5 repeat group 1 (their gates stay closed). */
static void sw__paint_ramp(const sw__demo_look* look, uint8_t* out) {
    static const float night[3] = {0.55f, 0.6f, 0.8f};
    for (int band = 0; band < 10; band++) {
        int group = band % 5;
        const float* shade = look->shade[group < SW__LOOK_GROUPS ? group : 0];
        for (int x = 0; x < SW_TOON_RAMP_WIDTH; x++) {
            float u = ((float)x + 0.5f) / SW_TOON_RAMP_WIDTH;
            float rgb[3];
            for (int c = 0; c < 3; c++) rgb[c] = shade[c] * (0.9f + 0.1f * sw__glb_smoothstep(0.4f, 0.9f, u));
            sw__mix3(rgb, look->edge, sw__glb_smoothstep(0.90f, 0.965f, u));
            const float white[3] = {1.0f, 1.0f, 1.0f};
            sw__mix3(rgb, white, sw__glb_smoothstep(0.965f, 0.995f, u));
            for (int row = 2 * band; row < 2 * band + 2; row++) {
                uint8_t* texel = &out[((size_t)row * SW_TOON_RAMP_WIDTH + (size_t)x) * 3];
                for (int c = 0; c < 3; c++) texel[c] = sw__glb_srgb8(band >= 5 ? rgb[c] * night[c] : rgb[c]);
            }
        }
    }
}

/* ---- the GLB ---------------------------------------------------------------------------------- */

/* The samplers: ramps and the face map are read at their texels' values
   (no mipmaps, clamped); the painted maps are mipmapped. */
enum { SW__SAMPLER_EXACT, SW__SAMPLER_MIPMAPPED, SW__SAMPLER_COUNT };
static const sw__glb_sampler sw__samplers[SW__SAMPLER_COUNT] = {
    [SW__SAMPLER_EXACT] = {9729, 9729, 33071, 33071},     /* LINEAR, CLAMP_TO_EDGE */
    [SW__SAMPLER_MIPMAPPED] = {9729, 9987, 33071, 33071}, /* LINEAR_MIPMAP_LINEAR */
};

/* The textures of one material (indices; -1 = none). */
typedef struct sw__material_textures {
    int base, control, ramp, hair_map, face_sdf;
} sw__material_textures;

typedef struct sw__primitive_accessors {
    int position, normal, tangent, texcoord, texcoord1, joints, weights, indices; /* texcoord1: -1 = none */
} sw__primitive_accessors;

static bool sw__write_primitive(sw__glb_writer* w, const sw__demo_primitive* p, bool with_uv1,
                                sw__primitive_accessors* out) {
    size_t n = p->vertex_count;
    float* floats = sw__calloc(n ? n * 4 : 1, sizeof(float)); /* zeroed: GCC cannot see every read follows a write */
    uint8_t* joints = sw__malloc(n * 4);
    if (!floats || !joints) {
        sw__free(floats), sw__free(joints);
        return false;
    }
    for (size_t i = 0; i < n; i++) memcpy(&floats[i * 3], p->vertices[i].position, 3 * sizeof(float));
    out->position = sw__glb_add_float_accessor(w, floats, n, "VEC3", SW__GL_ARRAY_BUFFER, true);
    for (size_t i = 0; i < n; i++) memcpy(&floats[i * 3], p->vertices[i].normal, 3 * sizeof(float));
    out->normal = sw__glb_add_float_accessor(w, floats, n, "VEC3", SW__GL_ARRAY_BUFFER, false);
    for (size_t i = 0; i < n; i++) memcpy(&floats[i * 4], p->vertices[i].tangent, 4 * sizeof(float));
    out->tangent = sw__glb_add_float_accessor(w, floats, n, "VEC4", SW__GL_ARRAY_BUFFER, false);
    for (size_t i = 0; i < n; i++) memcpy(&floats[i * 2], p->vertices[i].uv, 2 * sizeof(float));
    out->texcoord = sw__glb_add_float_accessor(w, floats, n, "VEC2", SW__GL_ARRAY_BUFFER, false);
    out->texcoord1 = -1;
    if (with_uv1) {
        for (size_t i = 0; i < n; i++) memcpy(&floats[i * 2], p->vertices[i].uv1, 2 * sizeof(float));
        out->texcoord1 = sw__glb_add_float_accessor(w, floats, n, "VEC2", SW__GL_ARRAY_BUFFER, false);
    }
    for (size_t i = 0; i < n; i++) memcpy(&joints[i * 4], p->vertices[i].joints, 4);
    out->joints = sw__glb_add_accessor(w, joints, n * 4, SW__GL_UNSIGNED_BYTE, n, "VEC4", SW__GL_ARRAY_BUFFER);
    for (size_t i = 0; i < n; i++) memcpy(&floats[i * 4], p->vertices[i].weights, 4 * sizeof(float));
    out->weights = sw__glb_add_float_accessor(w, floats, n, "VEC4", SW__GL_ARRAY_BUFFER, false);
    out->indices = sw__glb_add_accessor(w, p->indices, p->index_count * sizeof(uint16_t), SW__GL_UNSIGNED_SHORT,
                                    p->index_count, "SCALAR", SW__GL_ELEMENT_ARRAY_BUFFER);
    sw__free(floats);
    sw__free(joints);
    return !w->failed;
}

typedef struct sw__clip_accessors {
    int times, translation, rotation[SW__JOINT_COUNT];
} sw__clip_accessors;

/* ---- the JSON (cJSON) ----------------------------------------------------------------------- */

/* ---- the spring bones (SW_spring_bones, docs/extensions.md) ------------------------------------ */

/* Sphere colliders on body joints, in the joint's space (rest rotations are
   the identity, so offsets are world directions at rest). */
static const struct {
    int joint;
    float offset[3], radius;
} spring_colliders[] = {
    {SW__J_HEAD, {0.0f, 0.03f, 0.01f}, 0.095f},    /* 0: the skull */
    {SW__J_NECK, {0.0f, 0.04f, -0.01f}, 0.055f},   /* 1: the neck */
    {SW__J_CHEST, {0.0f, 0.08f, -0.01f}, 0.115f},  /* 2: the upper back and chest */
    {SW__J_CHEST, {0.0f, -0.08f, -0.005f}, 0.105f}, /* 3: the lower back */
    {SW__J_THIGH_L, {0.0f, -0.06f, 0.0f}, 0.082f}, /* 4, 5: the left thigh, hip and lower */
    {SW__J_THIGH_L, {0.0f, -0.19f, 0.0f}, 0.072f},
    {SW__J_THIGH_R, {0.0f, -0.06f, 0.0f}, 0.082f}, /* 6, 7: the right thigh */
    {SW__J_THIGH_R, {0.0f, -0.19f, 0.0f}, 0.072f},
};
#define SW__SPRING_COLLIDER_COUNT (int)(sizeof spring_colliders / sizeof spring_colliders[0])

/* Per chain kind: VRM's parameters (stiffness and gravity power in metres
   per second, drag the fraction of velocity lost per step, hit radius the
   tail's radius in metres), and the collider group it collides with. */
typedef struct sw__spring_params {
    float stiffness, gravity_power, drag_force, hit_radius;
    int group; /* 0: upper body, 1: legs */
} sw__spring_params;

static const sw__spring_params sw__ponytail_params = {0.9f, 0.35f, 0.25f, 0.025f, 0};
static const sw__spring_params sw__skirt_params = {1.4f, 0.2f, 0.35f, 0.02f, 1};

static void sw__json_spring(sw__glb_json* b, cJSON* springs, const char* name, const int* chain, int count,
                        const sw__spring_params* params) {
    cJSON* spring = sw__glb_json_object(b, springs, NULL);
    sw__glb_json_string(b, spring, "name", name);
    cJSON* joints = sw__glb_json_array(b, spring, "joints");
    const float down[3] = {0.0f, -1.0f, 0.0f};
    for (int k = 0; k < count; k++) {
        cJSON* joint = sw__glb_json_object(b, joints, NULL);
        sw__glb_json_int(b, joint, "node", sw__joint_node(chain[k]));
        sw__glb_json_add(b, joint, "stiffness", sw__glb_json_float(params->stiffness));
        sw__glb_json_add(b, joint, "gravityPower", sw__glb_json_float(params->gravity_power));
        sw__glb_json_add(b, joint, "gravityDir", sw__glb_json_floats(b, down, 3));
        sw__glb_json_add(b, joint, "dragForce", sw__glb_json_float(params->drag_force));
        sw__glb_json_add(b, joint, "hitRadius", sw__glb_json_float(params->hit_radius));
    }
    sw__glb_json_int(b, sw__glb_json_array(b, spring, "colliderGroups"), NULL, params->group);
}

/* extensions.SW_spring_bones: the shape of VRMC_springBone 1.0. */
static void sw__json_spring_bones(sw__glb_json* b, cJSON* root, cJSON* used) {
    sw__glb_json_string(b, used, NULL, "SW_spring_bones");
    cJSON* ext = sw__glb_json_object(b, sw__glb_json_object(b, root, "extensions"), "SW_spring_bones");
    sw__glb_json_string(b, ext, "specVersion", "1.0");
    cJSON* colliders = sw__glb_json_array(b, ext, "colliders");
    for (int i = 0; i < SW__SPRING_COLLIDER_COUNT; i++) {
        cJSON* collider = sw__glb_json_object(b, colliders, NULL);
        sw__glb_json_int(b, collider, "node", sw__joint_node(spring_colliders[i].joint));
        cJSON* sphere = sw__glb_json_object(b, sw__glb_json_object(b, collider, "shape"), "sphere");
        sw__glb_json_add(b, sphere, "offset", sw__glb_json_floats(b, spring_colliders[i].offset, 3));
        sw__glb_json_add(b, sphere, "radius", sw__glb_json_float(spring_colliders[i].radius));
    }
    cJSON* groups = sw__glb_json_array(b, ext, "colliderGroups");
    cJSON* upper = sw__glb_json_object(b, groups, NULL);
    sw__glb_json_string(b, upper, "name", "upper_body");
    cJSON* upper_list = sw__glb_json_array(b, upper, "colliders");
    for (int i = 0; i < 4; i++) sw__glb_json_int(b, upper_list, NULL, i);
    cJSON* legs = sw__glb_json_object(b, groups, NULL);
    sw__glb_json_string(b, legs, "name", "legs");
    cJSON* legs_list = sw__glb_json_array(b, legs, "colliders");
    for (int i = 4; i < SW__SPRING_COLLIDER_COUNT; i++) sw__glb_json_int(b, legs_list, NULL, i);

    cJSON* springs = sw__glb_json_array(b, ext, "springs");
    int chain[SW__PONYTAIL_JOINTS];
    for (int k = 0; k < SW__PONYTAIL_JOINTS; k++) chain[k] = SW__J_PONYTAIL_0 + k;
    sw__json_spring(b, springs, "ponytail", chain, SW__PONYTAIL_JOINTS, &sw__ponytail_params);
    for (int c = 0; c < SW__SKIRT_CHAINS; c++) {
        char name[16];
        snprintf(name, sizeof name, "skirt_%d", c);
        for (int k = 0; k < SW__SKIRT_JOINTS; k++) chain[k] = sw__skirt_joint(c, k);
        sw__json_spring(b, springs, name, chain, SW__SKIRT_JOINTS, &sw__skirt_params);
    }
}

/* ---- the toon materials (SW_materials_toon, docs/toon.md) ------------------------------------ */

static void sw__json_glint(sw__glb_json* b, cJSON* glints, const sw_toon_glint* g) {
    cJSON* set = sw__glb_json_object(b, glints, NULL);
    sw__glb_json_add(b, set, "grid", sw__glb_json_float(g->grid));
    sw__glb_json_add(b, set, "spotScale", sw__glb_json_float(g->spot_scale));
    sw__glb_json_add(b, set, "phaseRate", sw__glb_json_float(g->phase_rate));
    sw__glb_json_add(b, set, "activeWidth", sw__glb_json_float(g->active_width));
    sw__glb_json_add(b, set, "intensity", sw__glb_json_float(g->intensity));
    sw__glb_json_add(b, set, "lumaLerp", sw__glb_json_float(g->luma_lerp));
    sw__glb_json_add(b, set, "color", sw__glb_json_floats(b, g->color, 3));
    sw__glb_json_add(b, set, "cameraScale", sw__glb_json_float(g->camera_scale));
}

/* The skirt's two glint sets: the frame analysis' table. */
static const sw_toon_glint sw__skirt_glints[2] = {
    {100.0f, 0.015f, 0.5f, 0.2f, 1.68f, 1.0f, {1.472f, 1.211f, 0.944f}, 2.0f},
    {107.69f, 0.05f, 0.87f, 0.4f, 1.68f, 0.0f, {1.052f, 0.0068f, 0.0497f}, 3.0f},
};
/* The hair's: the analysis' set (grid 100, spot 0.03, time multiplier
   0.25, on for 0.243 of the cycle, intensity 1.5), tinted warm white; and
   the tier set, whose grid the hair map's A picks (500 / 350.1 / 120);
   its time multiplier and colour are ours. */
static const sw_toon_glint sw__hair_glints[2] = {
    {100.0f, 0.03f, 0.25f, 0.243f, 1.5f, 1.0f, {1.0f, 0.92f, 0.80f}, 1.0f},
    {350.1f, 0.03f, 0.4f, 0.243f, 1.5f, 1.0f, {1.0f, 0.80f, 0.62f}, 1.0f},
};

/* materials[m].extensions.SW_materials_toon. */
static void sw__json_toon(sw__glb_json* b, cJSON* material, int m, const sw__material_textures* t, int head_node) {
    const sw__demo_look* look = &sw__looks[m];
    cJSON* toon = sw__glb_json_object(b, sw__glb_json_object(b, material, "extensions"), "SW_materials_toon");
    sw__glb_json_string(b, toon, "kind", sw__toon_kind_name(look->kind));
    sw__glb_json_texture_info(b, toon, "controlTexture", t->control, 0);
    sw__glb_json_texture_info(b, toon, "rampTexture", t->ramp, 0);
    sw__glb_json_add(b, toon, "shadeColor", sw__glb_json_floats(b, look->shade[0], 3));
    cJSON* regions = sw__glb_json_array(b, toon, "regionEnabled");
    for (int g = 0; g < SW_TOON_REGION_COUNT; g++)
        sw__glb_json_add(b, regions, NULL, cJSON_CreateBool(g < SW__LOOK_GROUPS));
    sw__glb_json_add(b, toon, "lightArea", sw__glb_json_float(0.55f));
    sw__glb_json_add(b, toon, "rampWidth", sw__glb_json_float(1.0f));
    if (m == SW__M_SKIRT) {
        /* Back faces: the lining's UVs, always on the dark side (as the
           analysis' frame draws its skirt). */
        sw__glb_json_bool(b, toon, "backUv1", true);
        sw__glb_json_bool(b, toon, "backForceDark", true);
    }
    cJSON* glints = sw__glb_json_array(b, toon, "glints"); /* empty: none (the body kind's default is the skirt's) */
    const sw_toon_glint* sets = m == SW__M_SKIRT ? sw__skirt_glints : m == SW__M_HAIR ? sw__hair_glints : NULL;
    for (int i = 0; sets && i < 2; i++) sw__json_glint(b, glints, &sets[i]);
    if (look->kind == SW_TOON_HAIR) {
        /* The glint mask (B) and tier (A), kept out of the core
           normalTexture: its B is no normal's Z, so PBR viewers would light
           the hair from inside. */
        sw__glb_json_texture_info(b, toon, "normalTexture", t->hair_map, 0);
        /* The analysis' two bands (lower bounds lost: 0), coloured warm. */
        static const float exponent[2] = {6.4f, 5.0f}, upper[2] = {0.844f, 0.773f}, intensity[2] = {0.099f, 0.399f},
                           color[2][3] = {{1.0f, 0.92f, 0.85f}, {1.0f, 0.72f, 0.56f}};
        sw__glb_json_add(b, toon, "viewLift", sw__glb_json_float(-0.06f));
        cJSON* bands = sw__glb_json_array(b, toon, "bands");
        for (int i = 0; i < 2; i++) {
            cJSON* band = sw__glb_json_object(b, bands, NULL);
            sw__glb_json_add(b, band, "exponent", sw__glb_json_float(exponent[i]));
            sw__glb_json_add(b, band, "lower", sw__glb_json_float(0.0f));
            sw__glb_json_add(b, band, "upper", sw__glb_json_float(upper[i]));
            sw__glb_json_add(b, band, "intensity", sw__glb_json_float(intensity[i]));
            sw__glb_json_add(b, band, "color", sw__glb_json_floats(b, color[i], 3));
        }
    }
    sw__glb_json_add(b, toon, "rimColor", sw__glb_json_floats(b, look->rim_color, 3));
    sw__glb_json_add(b, toon, "rimWidth", sw__glb_json_float(0.3f));
    sw__glb_json_add(b, toon, "rimPower", sw__glb_json_float(2.0f));
    if (look->kind == SW_TOON_FACE) {
        sw__glb_json_texture_info(b, toon, "faceSdfTexture", t->face_sdf, 0);
        sw__glb_json_int(b, toon, "headNode", head_node);
        sw__glb_json_add(b, toon, "sdfSteepness", sw__glb_json_float(SW__FACE_SDF_STEEPNESS));
        sw__glb_json_bool(b, toon, "sdfMirror", true);
    }
    sw__glb_json_bool(b, toon, "outline", true);
    sw__glb_json_add(b, toon, "outlineWidth", sw__glb_json_float(look->outline_width));
    sw__glb_json_add(b, toon, "outlineColor", sw__glb_json_floats(b, look->outline_color, 3));
}

/* Everything the GLB is assembled from. */
typedef struct sw__demo_build {
    sw__demo_skeleton sk;
    sw__demo_mesh mesh;
    sw__glb_writer* w; /* large: on the heap */
    sw__clip_keys keys[SW__CLIP_COUNT];
    int inverse_binds; /* accessor */
    sw__primitive_accessors prims[SW__MATERIAL_COUNT];
    sw__clip_accessors anims[SW__CLIP_COUNT];
    sw__material_textures textures[SW__MATERIAL_COUNT];
} sw__demo_build;

/* "asset", "scene", "scenes" and "nodes": the joints in their order,
   the body's node between the body joints and the spring joints. */
static void sw__json_scene_nodes(sw__glb_json* b, cJSON* root, const sw__demo_skeleton* sk) {
    cJSON* asset = sw__glb_json_object(b, root, "asset");
    sw__glb_json_string(b, asset, "version", "2.0");
    sw__glb_json_string(b, asset, "generator", "sinew " SW_VERSION_STRING " built-in demo character");
    sw__glb_json_int(b, root, "scene", 0);
    cJSON* scene = sw__glb_json_object(b, sw__glb_json_array(b, root, "scenes"), NULL);
    sw__glb_json_string(b, scene, "name", "demo character");
    cJSON* roots = sw__glb_json_array(b, scene, "nodes");
    sw__glb_json_int(b, roots, NULL, SW__J_PELVIS);
    sw__glb_json_int(b, roots, NULL, SW__BODY_NODE);

    cJSON* nodes = sw__glb_json_array(b, root, "nodes");
    for (int node_index = 0; node_index <= SW__JOINT_COUNT; node_index++) {
        if (node_index == SW__BODY_NODE) {
            cJSON* body = sw__glb_json_object(b, nodes, NULL);
            sw__glb_json_string(b, body, "name", "body");
            sw__glb_json_int(b, body, "mesh", 0);
            sw__glb_json_int(b, body, "skin", 0);
            continue;
        }
        int n = node_index < SW__BODY_NODE ? node_index : node_index - 1;
        cJSON* node = sw__glb_json_object(b, nodes, NULL);
        sw_vec3 t = sw__rest_local_translation(sk, n);
        float translation[3] = {t.x, t.y, t.z};
        sw__glb_json_string(b, node, "name", sw__joint_names[n]);
        sw__glb_json_add(b, node, "translation", sw__glb_json_floats(b, translation, 3));
        cJSON* children = NULL;
        for (int c = 0; c < SW__JOINT_COUNT; c++) {
            if (sw__joint_parents[c] != n) continue;
            if (!children) children = sw__glb_json_array(b, node, "children");
            sw__glb_json_int(b, children, NULL, sw__joint_node(c));
        }
    }
}

/* "skins": one skin over every joint. */
static void sw__json_skin(sw__glb_json* b, cJSON* root, int inverse_binds) {
    cJSON* skin = sw__glb_json_object(b, sw__glb_json_array(b, root, "skins"), NULL);
    sw__glb_json_string(b, skin, "name", "skeleton");
    sw__glb_json_int(b, skin, "inverseBindMatrices", inverse_binds);
    sw__glb_json_int(b, skin, "skeleton", SW__J_PELVIS);
    cJSON* joints = sw__glb_json_array(b, skin, "joints");
    for (int n = 0; n < SW__JOINT_COUNT; n++) sw__glb_json_int(b, joints, NULL, sw__joint_node(n));
}

/* "meshes": the body, one primitive per material. */
static void sw__json_mesh(sw__glb_json* b, cJSON* root, const sw__primitive_accessors* prims) {
    cJSON* mesh = sw__glb_json_object(b, sw__glb_json_array(b, root, "meshes"), NULL);
    sw__glb_json_string(b, mesh, "name", "body");
    cJSON* primitives = sw__glb_json_array(b, mesh, "primitives");
    for (int m = 0; m < SW__MATERIAL_COUNT; m++) {
        const sw__primitive_accessors* a = &prims[m];
        cJSON* primitive = sw__glb_json_object(b, primitives, NULL);
        cJSON* attributes = sw__glb_json_object(b, primitive, "attributes");
        sw__glb_json_int(b, attributes, "POSITION", a->position);
        sw__glb_json_int(b, attributes, "NORMAL", a->normal);
        sw__glb_json_int(b, attributes, "TANGENT", a->tangent);
        sw__glb_json_int(b, attributes, "TEXCOORD_0", a->texcoord);
        if (a->texcoord1 >= 0) sw__glb_json_int(b, attributes, "TEXCOORD_1", a->texcoord1);
        sw__glb_json_int(b, attributes, "JOINTS_0", a->joints);
        sw__glb_json_int(b, attributes, "WEIGHTS_0", a->weights);
        sw__glb_json_int(b, primitive, "indices", a->indices);
        sw__glb_json_int(b, primitive, "material", m);
        sw__glb_json_int(b, primitive, "mode", 4);
    }
}

/* "materials": metallic-roughness and SW_materials_toon. */
static void sw__json_materials(sw__glb_json* b, cJSON* root, const sw__material_textures* textures) {
    cJSON* materials_json = sw__glb_json_array(b, root, "materials");
    for (int m = 0; m < SW__MATERIAL_COUNT; m++) {
        cJSON* material = sw__glb_json_object(b, materials_json, NULL);
        sw__glb_json_string(b, material, "name", sw__looks[m].name);
        cJSON* pbr = sw__glb_json_object(b, material, "pbrMetallicRoughness");
        sw__glb_json_add(b, pbr, "baseColorFactor", sw__glb_json_floats(b, sw__looks[m].base_color, 4));
        sw__glb_json_texture_info(b, pbr, "baseColorTexture", textures[m].base, 0);
        sw__glb_json_int(b, pbr, "metallicFactor", 0);
        sw__glb_json_add(b, pbr, "roughnessFactor", sw__glb_json_float(sw__looks[m].roughness));
        if (m == SW__M_SKIRT) sw__glb_json_bool(b, material, "doubleSided", true);
        sw__json_toon(b, material, m, &textures[m], sw__joint_node(SW__J_HEAD));
    }
}

/* "animations": one sampler per channel, the pelvis's translation, then
   every body joint's rotation. */
static void sw__json_animations(sw__glb_json* b, cJSON* root, const sw__clip_accessors* anims) {
    cJSON* animations = sw__glb_json_array(b, root, "animations");
    for (size_t c = 0; c < SW__CLIP_COUNT; c++) {
        const sw__clip_accessors* a = &anims[c];
        cJSON* animation = sw__glb_json_object(b, animations, NULL);
        sw__glb_json_string(b, animation, "name", sw__clips[c].name);
        cJSON* channels = sw__glb_json_array(b, animation, "channels");
        cJSON* samplers = sw__glb_json_array(b, animation, "samplers");
        for (int k = 0; k <= SW__BODY_JOINT_COUNT; k++) {
            /* k = 0: the pelvis's translation; k ≥ 1: joint k − 1's rotation */
            cJSON* channel = sw__glb_json_object(b, channels, NULL);
            sw__glb_json_int(b, channel, "sampler", k);
            cJSON* target = sw__glb_json_object(b, channel, "target");
            sw__glb_json_int(b, target, "node", k == 0 ? SW__J_PELVIS : k - 1);
            sw__glb_json_string(b, target, "path", k == 0 ? "translation" : "rotation");
            cJSON* sampler = sw__glb_json_object(b, samplers, NULL);
            sw__glb_json_int(b, sampler, "input", a->times);
            sw__glb_json_int(b, sampler, "output", k == 0 ? a->translation : a->rotation[k - 1]);
            sw__glb_json_string(b, sampler, "interpolation", "LINEAR");
        }
    }
}

/* The glTF JSON; NULL when an allocation failed. */
static cJSON* sw__build_json(const sw__demo_build* d) {
    sw__glb_json b = {false};
    sw__cjson_use_allocator();
    cJSON* root = cJSON_CreateObject();
    if (!root) return NULL;
    sw__json_scene_nodes(&b, root, &d->sk);
    sw__json_skin(&b, root, d->inverse_binds);
    sw__json_mesh(&b, root, d->prims);
    sw__json_materials(&b, root, d->textures);
    sw__glb_json_images(&b, root, d->w, sw__samplers, SW__SAMPLER_COUNT);
    sw__json_animations(&b, root, d->anims);
    sw__glb_json_buffers(&b, root, d->w);
    cJSON* used = sw__glb_json_array(&b, root, "extensionsUsed");
    sw__json_spring_bones(&b, root, used);
    sw__glb_json_string(&b, used, NULL, "SW_materials_toon");

    if (b.failed) {
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}

/* Every material's painted maps and ramp, as PNG images (not the face's
   shadow map, which needs the GLB). */
static bool sw__add_textures(sw__glb_writer* w, const sw__demo_mesh* mesh, sw__material_textures* textures) {
    uint8_t* pixels = sw__malloc((size_t)SW__MAX_MAP_SIZE * SW__MAX_MAP_SIZE * 4);
    if (!pixels) return false;
    char name[24];
    bool ok = true;
    int width, height;
    for (int m = 0; m < SW__MATERIAL_COUNT && ok; m++) {
        sw__material_textures* t = &textures[m];
        t->base = t->control = t->ramp = t->hair_map = t->face_sdf = -1;
        const char* material = sw__looks[m].name;
        if (sw__looks[m].base_texture) {
            sw__map_size(m, SW__MAP_BASE, &width, &height);
            ok &= sw__paint_texture(mesh, m, SW__MAP_BASE, width, height, 3, pixels);
            snprintf(name, sizeof name, "%s_base", material);
            t->base = sw__glb_add_png(w, name, pixels, width, height, 3, SW__SAMPLER_MIPMAPPED);
        }
        sw__map_size(m, SW__MAP_CONTROL, &width, &height);
        ok &= sw__paint_texture(mesh, m, SW__MAP_CONTROL, width, height, 4, pixels);
        snprintf(name, sizeof name, "%s_control", material);
        t->control = sw__glb_add_png(w, name, pixels, width, height, 4, SW__SAMPLER_MIPMAPPED);
        sw__paint_ramp(&sw__looks[m], pixels);
        snprintf(name, sizeof name, "%s_ramp", material);
        t->ramp = sw__glb_add_png(w, name, pixels, SW_TOON_RAMP_WIDTH, SW_TOON_RAMP_HEIGHT, 3, SW__SAMPLER_EXACT);
        if (m == SW__M_HAIR) {
            sw__map_size(m, SW__MAP_HAIR, &width, &height);
            ok &= sw__paint_texture(mesh, m, SW__MAP_HAIR, width, height, 4, pixels);
            t->hair_map = sw__glb_add_png(w, "hair_glint_mask", pixels, width, height, 4, SW__SAMPLER_MIPMAPPED);
        }
    }
    sw__free(pixels);
    return ok && !w->failed;
}

/* The GLB of the writer's buffers and images: a block for free() in
   *out_glb, or false when memory ran out. */
static bool sw__assemble_glb(sw__demo_build* d, uint8_t** out_glb, size_t* out_size) {
    cJSON* tree = sw__build_json(d);
    bool ok = sw__glb_assemble(tree, d->w, out_glb, out_size);
    cJSON_Delete(tree);
    return ok;
}

static void sw__free_build(sw__demo_build* d) {
    sw__free_mesh(&d->mesh);
    for (size_t c = 0; c < SW__CLIP_COUNT; c++) sw__free_clip_keys(&d->keys[c]);
    sw__glb_writer_free(d->w);
    d->w = NULL;
}

/* The inverse bind matrices and every primitive's vertex streams and
   indices; false when memory ran out. */
static bool sw__write_mesh_buffers(sw__demo_build* d) {
    float inverse_bind[SW__JOINT_COUNT][16];
    for (int n = 0; n < SW__JOINT_COUNT; n++) {
        /* Column-major identity with the translation −p in the last column. */
        memset(inverse_bind[n], 0, sizeof inverse_bind[n]);
        inverse_bind[n][0] = inverse_bind[n][5] = inverse_bind[n][10] = inverse_bind[n][15] = 1.0f;
        inverse_bind[n][12] = -d->sk.position[n].x;
        inverse_bind[n][13] = -d->sk.position[n].y;
        inverse_bind[n][14] = -d->sk.position[n].z;
    }
    d->inverse_binds = sw__glb_add_float_accessor(d->w, &inverse_bind[0][0], SW__JOINT_COUNT, "MAT4", 0, false);
    for (int m = 0; m < SW__MATERIAL_COUNT; m++)
        if (!sw__write_primitive(d->w, &d->mesh.primitives[m], m == SW__M_SKIRT, &d->prims[m])) return false;
    return true;
}

/* Every clip sampled, and its keys written as accessors; false when
   memory ran out. */
static bool sw__write_clips(sw__demo_build* d) {
    sw__glb_writer* w = d->w;
    for (size_t c = 0; c < SW__CLIP_COUNT; c++) {
        sw__clip_keys* keys = &d->keys[c];
        sw__clip_accessors* anim = &d->anims[c];
        if (!sw__sample_clip(&d->sk, &sw__clips[c], keys)) return false;
        size_t n = (size_t)keys->key_count;
        anim->times = sw__glb_add_float_accessor(w, keys->times, n, "SCALAR", 0, true);
        anim->translation = sw__glb_add_float_accessor(w, keys->translations, n, "VEC3", 0, false);
        for (int j = 0; j < SW__BODY_JOINT_COUNT; j++)
            anim->rotation[j] = sw__glb_add_float_accessor(w, &keys->rotations[(size_t)j * n * 4], n, "VEC4", 0, false);
    }
    sw__glb_bytes_align4(&w->bin, 0);
    return !w->failed && !w->bin.failed;
}

/* The face's shadow map, baked from the face as the importer reads it: a
   first GLB without it, loaded, baked, and the map added. The library
   does this once, at build time (demo_face_sdf_gen.c writes the map into
   demo_face_sdf.h), so that generating the character stays cheap; the
   generator itself runs the bake here. On failure, the face has no map
   (textures[SW__M_FACE].face_sdf < 0) and *result and detail say why. */
static void sw__add_face_sdf(sw__demo_build* d, sw_result* result, char* detail, size_t detail_size) {
#ifdef SW_DEMO_FACE_SDF_BAKED
    (void)result, (void)detail, (void)detail_size;
    _Static_assert(sizeof sw__demo_face_sdf_rgba == (size_t)SW__FACE_SDF_SIZE * SW__FACE_SDF_SIZE * 4,
                   "demo_face_sdf.h was made for another SW__FACE_SDF_SIZE");
    d->textures[SW__M_FACE].face_sdf = sw__glb_add_png(d->w, "face_sdf", sw__demo_face_sdf_rgba, SW__FACE_SDF_SIZE,
                                                   SW__FACE_SDF_SIZE, 4, SW__SAMPLER_EXACT);
#else
    uint8_t* sdf = sw__malloc((size_t)SW__FACE_SDF_SIZE * SW__FACE_SDF_SIZE * 4);
    sw_model* model = NULL;
    uint8_t* glb = NULL;
    size_t total = 0;
    if (sdf && sw__assemble_glb(d, &glb, &total)) {
        sw_diag bake_diag;
        *result = sw_gltf_load_memory(glb, total, SW_DEMO_CHARACTER_NAME, NULL, NULL, &model, &bake_diag);
        if (*result == SW_OK)
            *result = sw_toon_bake_face_sdf(model, SW__M_FACE, model->node_from_source[sw__joint_node(SW__J_HEAD)],
                                            SW__FACE_SDF_SIZE, sdf, &bake_diag);
        if (*result == SW_OK)
            d->textures[SW__M_FACE].face_sdf =
                sw__glb_add_png(d->w, "face_sdf", sdf, SW__FACE_SDF_SIZE, SW__FACE_SDF_SIZE, 4, SW__SAMPLER_EXACT);
        else /* our own GLB: only memory should fail, but say what did */
            snprintf(detail, detail_size, ": %s", bake_diag.message);
    }
    sw_model_free(model);
    sw__free(sdf);
    sw__free(glb);
#endif
}

sw_result sw_demo_character_glb(uint8_t** out_glb, size_t* out_size, sw_diag* diag) {
    SW_ASSERT(out_glb && out_size);
    *out_glb = NULL;
    *out_size = 0;

    sw__demo_build d;
    memset(&d, 0, sizeof d);
    sw__build_skeleton(&d.sk);
    d.w = sw__calloc(1, sizeof *d.w);
    uint8_t* glb = NULL;
    size_t total = 0;
    const char* stage = "the writer";
    sw_result result = SW_ERR_OUT_OF_MEMORY;
    char detail[sizeof diag->message + 2] = "";
    if (!d.w) goto fail;

    stage = "the mesh";
    sw__build_mesh(&d.mesh, &d.sk);
    if (d.mesh.failed) goto fail;
    stage = "the buffers";
    if (!sw__write_mesh_buffers(&d)) goto fail;
    stage = "the clips";
    if (!sw__write_clips(&d)) goto fail;
    stage = "the textures";
    if (!sw__add_textures(d.w, &d.mesh, d.textures)) goto fail;
    stage = "the face shadow map";
    sw__add_face_sdf(&d, &result, detail, sizeof detail);
    if (d.textures[SW__M_FACE].face_sdf < 0) goto fail;
    stage = "the GLB";
    if (!sw__assemble_glb(&d, &glb, &total)) goto fail;

    sw__free_build(&d);
    *out_glb = glb;
    *out_size = total;
    return SW_OK;

fail:
    sw__free(glb);
    sw__free_build(&d);
    if (result == SW_OK) result = SW_ERR_OUT_OF_MEMORY;
    if (result != SW_ERR_OUT_OF_MEMORY)
        return sw_diag_set(diag, result, -1, "demo character: building %s failed%s", stage, detail);
    return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "demo character: out of memory while building %s%s", stage,
                       detail);
}

void sw_demo_character_glb_free(uint8_t* glb) { sw__free(glb); }
