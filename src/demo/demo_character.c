/* The built-in demo character (sinew/demo.h): a skeleton, a skinned mesh
   made of closed parametric parts, and three clips, written as one GLB.

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
   The GLB is then assembled here: one bufferView per accessor, every view
   4-byte aligned, the JSON (built with cJSON) padded with spaces and the
   BIN chunk with zeros. */
#include "sinew/demo.h"

#include "sinew/math.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the skeleton ------------------------------------------------------------ */

enum demo_joint {
    J_PELVIS,
    J_SPINE,
    J_CHEST,
    J_NECK,
    J_HEAD,
    J_SHOULDER_L,
    J_UPPER_ARM_L,
    J_UPPER_ARM_TWIST_L,
    J_FOREARM_L,
    J_FOREARM_TWIST_L,
    J_HAND_L,
    J_SHOULDER_R,
    J_UPPER_ARM_R,
    J_UPPER_ARM_TWIST_R,
    J_FOREARM_R,
    J_FOREARM_TWIST_R,
    J_HAND_R,
    J_THIGH_L,
    J_SHIN_L,
    J_FOOT_L,
    J_THIGH_R,
    J_SHIN_R,
    J_FOOT_R,
    /* The spring-bone joints, after the body's (the clips do not animate
       them; SW_spring_bones moves them): a ponytail hanging from the back of
       the head and a skirt of SKIRT_CHAINS two-joint chains on the pelvis. */
    J_PONYTAIL_0,
    J_PONYTAIL_1,
    J_PONYTAIL_2,
    J_PONYTAIL_3,
    J_SKIRT_FIRST,
    JOINT_COUNT = J_SKIRT_FIRST + 16
};

/* The joints the clips animate: the body, every joint before the ponytail. */
#define BODY_JOINT_COUNT J_PONYTAIL_0
#define PONYTAIL_JOINTS 4
#define SKIRT_CHAINS 8
#define SKIRT_JOINTS 2
static int skirt_joint(int chain, int k) { return J_SKIRT_FIRST + chain * SKIRT_JOINTS + k; }

/* Joints of one arm and one leg, in chain order; side 0 is the left (+X). */
#define ARM_JOINTS 6
#define LEG_JOINTS 3
static int arm_joint(int side, int k) { return J_SHOULDER_L + side * ARM_JOINTS + k; }
static int leg_joint(int side, int k) { return J_THIGH_L + side * LEG_JOINTS + k; }
enum { ARM_SHOULDER, ARM_UPPER, ARM_UPPER_TWIST, ARM_FOREARM, ARM_FOREARM_TWIST, ARM_HAND };
enum { LEG_THIGH, LEG_SHIN, LEG_FOOT };
static const float side_sign[2] = {1.0f, -1.0f};

static const char* const joint_names[JOINT_COUNT] = {
    "pelvis",   "spine",    "chest",   "neck",   "head",
    "shoulder_l", "upper_arm_l", "upper_arm_twist_l", "forearm_l", "forearm_twist_l", "hand_l",
    "shoulder_r", "upper_arm_r", "upper_arm_twist_r", "forearm_r", "forearm_twist_r", "hand_r",
    "thigh_l",  "shin_l",   "foot_l",  "thigh_r", "shin_r", "foot_r",
    "ponytail_0", "ponytail_1", "ponytail_2", "ponytail_3",
    "skirt_0_0", "skirt_0_1", "skirt_1_0", "skirt_1_1", "skirt_2_0", "skirt_2_1", "skirt_3_0", "skirt_3_1",
    "skirt_4_0", "skirt_4_1", "skirt_5_0", "skirt_5_1", "skirt_6_0", "skirt_6_1", "skirt_7_0", "skirt_7_1",
};

/* Parents come before their children (the importer's order, unchanged). */
static const int joint_parents[JOINT_COUNT] = {
    -1, J_PELVIS, J_SPINE, J_CHEST, J_NECK,
    J_CHEST, J_SHOULDER_L, J_UPPER_ARM_L, J_UPPER_ARM_TWIST_L, J_FOREARM_L, J_FOREARM_TWIST_L,
    J_CHEST, J_SHOULDER_R, J_UPPER_ARM_R, J_UPPER_ARM_TWIST_R, J_FOREARM_R, J_FOREARM_TWIST_R,
    J_PELVIS, J_THIGH_L, J_SHIN_L,
    J_PELVIS, J_THIGH_R, J_SHIN_R,
    J_HEAD, J_PONYTAIL_0, J_PONYTAIL_1, J_PONYTAIL_2,
    J_PELVIS, J_SKIRT_FIRST + 0, J_PELVIS, J_SKIRT_FIRST + 2, J_PELVIS, J_SKIRT_FIRST + 4,
    J_PELVIS, J_SKIRT_FIRST + 6, J_PELVIS, J_SKIRT_FIRST + 8, J_PELVIS, J_SKIRT_FIRST + 10,
    J_PELVIS, J_SKIRT_FIRST + 12, J_PELVIS, J_SKIRT_FIRST + 14,
};

/* The node of a joint: the body's joints are nodes 0..22 and the mesh's
   node follows them (as before the spring joints were added), so the
   spring joints come after it. */
enum { BODY_NODE = BODY_JOINT_COUNT };
static int joint_node(int joint) { return joint < BODY_JOINT_COUNT ? joint : joint + 1; }

/* Measurements in metres. The arms hang ARM_DROP_DEG below horizontal
   (an A-pose: shoulders are less stretched at rest than in a T-pose, so
   walking and waving stay within what linear blend skinning handles). */
#define ARM_DROP_DEG 50.0
#define UPPER_ARM_LENGTH 0.28f
#define FOREARM_LENGTH 0.25f
#define HAND_LENGTH 0.15f
#define HEAD_TOP_Y 1.70f
/* The ponytail: a straight line from inside the back of the head, down and
   back, joints evenly along it. The skirt's chains stand at azimuths
   k·360°/SKIRT_CHAINS from the front (+Z) towards the left (+X), each from
   a root inside the hips to a tip inside the hem. */
#define PONYTAIL_LENGTH 0.40f
#define SKIRT_ROOT_Y 0.96f
#define SKIRT_TIP_Y 0.72f

static sw_vec3 ponytail_start(void) { return sw_vec3_make(0.0f, 1.64f, -0.075f); }
static sw_vec3 ponytail_direction(void) { return sw_vec3_normalize(sw_vec3_make(0.0f, -0.36f, -0.12f)); }
static double skirt_azimuth(int chain) { return 2.0 * SW_PI * chain / SKIRT_CHAINS; }

typedef struct demo_skeleton {
    sw_vec3 position[JOINT_COUNT]; /* rest, world (= model) space */
    sw_vec3 arm_direction[2];      /* unit, shoulder to wrist, per side */
} demo_skeleton;

static sw_vec3 v3(float x, float y, float z) { return sw_vec3_make(x, y, z); }

static void build_skeleton(demo_skeleton* sk) {
    sk->position[J_PELVIS] = v3(0.0f, 0.95f, 0.0f);
    sk->position[J_SPINE] = v3(0.0f, 1.05f, 0.0f);
    sk->position[J_CHEST] = v3(0.0f, 1.22f, 0.0f);
    sk->position[J_NECK] = v3(0.0f, 1.45f, 0.0f);
    sk->position[J_HEAD] = v3(0.0f, 1.55f, 0.005f);
    double drop = ARM_DROP_DEG * SW_PI / 180.0;
    for (int side = 0; side < 2; side++) {
        float s = side_sign[side];
        sw_vec3 d = v3(s * (float)cos(drop), -(float)sin(drop), 0.0f);
        sw_vec3 shoulder = v3(s * 0.175f, 1.40f, 0.0f);
        sk->arm_direction[side] = d;
        sk->position[arm_joint(side, ARM_SHOULDER)] = v3(s * 0.035f, 1.41f, 0.0f);
        sk->position[arm_joint(side, ARM_UPPER)] = shoulder;
        /* Twist joints halfway along their bone, on its axis. */
        const float along_arm[] = {0.5f * UPPER_ARM_LENGTH, UPPER_ARM_LENGTH, UPPER_ARM_LENGTH + 0.5f * FOREARM_LENGTH,
                                   UPPER_ARM_LENGTH + FOREARM_LENGTH};
        for (int k = 0; k < 4; k++)
            sk->position[arm_joint(side, ARM_UPPER_TWIST + k)] = sw_vec3_add(shoulder, sw_vec3_scale(d, along_arm[k]));
        sk->position[leg_joint(side, LEG_THIGH)] = v3(s * 0.09f, 0.90f, 0.0f);
        sk->position[leg_joint(side, LEG_SHIN)] = v3(s * 0.09f, 0.49f, 0.0f);
        sk->position[leg_joint(side, LEG_FOOT)] = v3(s * 0.09f, 0.08f, 0.0f);
    }
    for (int k = 0; k < PONYTAIL_JOINTS; k++)
        sk->position[J_PONYTAIL_0 + k] = sw_vec3_add(
            ponytail_start(), sw_vec3_scale(ponytail_direction(), PONYTAIL_LENGTH * (float)k / (PONYTAIL_JOINTS - 1)));
    for (int c = 0; c < SKIRT_CHAINS; c++) {
        float x = (float)sin(skirt_azimuth(c)), z = (float)cos(skirt_azimuth(c));
        sk->position[skirt_joint(c, 0)] = v3(0.12f * x, SKIRT_ROOT_Y, 0.085f * z);
        sk->position[skirt_joint(c, 1)] = v3(0.215f * x, SKIRT_TIP_Y, 0.165f * z);
    }
}

static sw_vec3 rest_local_translation(const demo_skeleton* sk, int joint) {
    int parent = joint_parents[joint];
    return parent < 0 ? sk->position[joint] : sw_vec3_sub(sk->position[joint], sk->position[parent]);
}

/* ---- growable byte buffers ------------------------------------------------------ */

typedef struct byte_buffer {
    unsigned char* data;
    size_t size, capacity;
    bool failed; /* an allocation failed: everything after is dropped */
} byte_buffer;

static bool buffer_reserve(byte_buffer* b, size_t extra) {
    if (b->failed) return false;
    if (extra > SIZE_MAX - b->size) return !(b->failed = true);
    size_t need = b->size + extra;
    if (need <= b->capacity) return true;
    size_t capacity = b->capacity ? b->capacity : 4096;
    while (capacity < need) {
        if (capacity > SIZE_MAX / 2) return !(b->failed = true);
        capacity *= 2;
    }
    unsigned char* grown = realloc(b->data, capacity);
    if (!grown) return !(b->failed = true);
    b->data = grown;
    b->capacity = capacity;
    return true;
}

static void buffer_append(byte_buffer* b, const void* data, size_t size) {
    if (!size || !buffer_reserve(b, size)) return;
    memcpy(b->data + b->size, data, size);
    b->size += size;
}

/* Pads with `fill` bytes up to a multiple of 4 (glTF aligns every chunk and view). */
static void buffer_align4(byte_buffer* b, unsigned char fill) {
    while (b->size % 4 && !b->failed) buffer_append(b, &fill, 1);
}

/* ---- small maths ------------------------------------------------------------------ */

static float clamp01(float x) { return x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x; }

/* 0 below edge0, 1 above edge1, a C1 S-curve between (edge0 < edge1). */
static float smoothstep(float edge0, float edge1, float x) {
    float t = clamp01((x - edge0) / (edge1 - edge0));
    return t * t * (3.0f - 2.0f * t);
}

static sw_quat rotation_deg(sw_vec3 axis, double degrees) {
    return sw_quat_from_axis_angle(axis, (float)(degrees * SW_PI / 180.0));
}

/* ---- the mesh: parts --------------------------------------------------------------- */

enum demo_material { M_SKIN, M_FACE, M_HAIR, M_CLOTH, M_SHOES, MATERIAL_COUNT };

static const struct {
    const char* name;
    float base_color[4]; /* linear RGBA, as glTF's baseColorFactor */
    float roughness;
} materials[MATERIAL_COUNT] = {
    {"skin", {0.80f, 0.53f, 0.42f, 1.0f}, 0.65f},
    {"face", {0.80f, 0.53f, 0.42f, 1.0f}, 0.65f},
    {"hair", {0.10f, 0.06f, 0.045f, 1.0f}, 0.45f},
    {"cloth", {0.16f, 0.26f, 0.55f, 1.0f}, 0.85f},
    {"shoes", {0.09f, 0.08f, 0.07f, 1.0f}, 0.55f},
};

/* The cross-section at distance s along a part's axis: an ellipse with
   half-axes radius_a (along the part's `across` direction) and radius_b
   (along axis × across), its centre moved by `lift` along axis × across. */
typedef struct profile_key {
    float s, radius_a, radius_b, lift;
} profile_key;

/* From s on (to the next key), the weight moves to `joint`. */
typedef struct weight_key {
    float s;
    int joint;
} weight_key;

typedef enum part_kind { PART_PLAIN, PART_TORSO, PART_HEAD, PART_FOOT, PART_SKIRT } part_kind;

#define MAX_PROFILE_KEYS 8
#define MAX_WEIGHT_KEYS 12

typedef struct demo_part {
    part_kind kind;
    int material;          /* all of it, except the head (face, hair, skin) */
    int side;              /* 0 left, 1 right; arms, hands, legs, feet */
    sw_vec3 start;         /* the axis point at s = 0 */
    sw_vec3 axis;          /* unit */
    sw_vec3 across;        /* unit, perpendicular to axis */
    float length;          /* s of the far end of the body */
    float cap_start, cap_end; /* depth of the rounded ends before s = 0 and after `length` */
    int cap_rows, body_rows, columns;
    profile_key profile[MAX_PROFILE_KEYS];
    int profile_count;
    weight_key chain[MAX_WEIGHT_KEYS];
    int chain_count;
    float uv_rect[4];      /* u0, v0, width, height in TEXCOORD_0 */
} demo_part;

static profile_key profile_at(const demo_part* p, float s) {
    const profile_key* k = p->profile;
    if (s <= k[0].s) return k[0];
    for (int i = 0; i + 1 < p->profile_count; i++) {
        if (s <= k[i + 1].s) {
            float t = smoothstep(k[i].s, k[i + 1].s, s);
            profile_key r = {s, k[i].radius_a + (k[i + 1].radius_a - k[i].radius_a) * t,
                             k[i].radius_b + (k[i + 1].radius_b - k[i].radius_b) * t,
                             k[i].lift + (k[i + 1].lift - k[i].lift) * t};
            return r;
        }
    }
    return k[p->profile_count - 1];
}

static int part_rows(const demo_part* p) { return 2 * p->cap_rows + p->body_rows + 1; }

/* Row r's axial position (s, may lie beyond the body in a cap), the profile
   it uses and how much of that profile's radius it has (0 at the poles). */
static void row_frame(const demo_part* p, int r, float* out_s, profile_key* out_profile, float* out_factor) {
    int body_first = p->cap_rows, body_last = p->cap_rows + p->body_rows;
    if (r < body_first) {
        double alpha = 0.5 * SW_PI * (double)r / p->cap_rows;
        *out_s = -p->cap_start * (float)cos(alpha);
        *out_profile = profile_at(p, 0.0f);
        *out_factor = (float)sin(alpha);
    } else if (r <= body_last) {
        *out_s = p->length * (float)(r - body_first) / (float)p->body_rows;
        *out_profile = profile_at(p, *out_s);
        *out_factor = 1.0f;
    } else {
        double alpha = 0.5 * SW_PI * (double)(part_rows(p) - 1 - r) / p->cap_rows;
        *out_s = p->length + p->cap_end * (float)cos(alpha);
        *out_profile = profile_at(p, p->length);
        *out_factor = (float)sin(alpha);
    }
}

/* Vertex (row r, column c) of the part's grid. Column `columns` repeats
   column 0 (the UV seam, which sits on the -across side: the back). */
static sw_vec3 part_point(const demo_part* p, int r, int c) {
    float s, factor;
    profile_key k;
    row_frame(p, r, &s, &k, &factor);
    sw_vec3 b = sw_vec3_cross(p->axis, p->across);
    double theta = 2.0 * SW_PI * (double)(c % p->columns) / p->columns + SW_PI;
    sw_vec3 centre = sw_vec3_add(p->start, sw_vec3_add(sw_vec3_scale(p->axis, s), sw_vec3_scale(b, k.lift)));
    return sw_vec3_add(centre, sw_vec3_add(sw_vec3_scale(p->across, k.radius_a * factor * (float)cos(theta)),
                                           sw_vec3_scale(b, k.radius_b * factor * (float)sin(theta))));
}

/* ---- the mesh: weights ----------------------------------------------------------------- */

#define MAX_INFLUENCES 4
/* Weights are multiples of 2^-16, so any four of them add up exactly, in
   any order and in float: the sum is 1, not 1 ± an ulp. */
#define WEIGHT_UNITS 65536

static void chain_weights(const demo_part* p, float s, float* w) {
    const weight_key* k = p->chain;
    int n = p->chain_count;
    if (s <= k[0].s) {
        w[k[0].joint] += 1.0f;
        return;
    }
    for (int i = 0; i + 1 < n; i++) {
        if (s < k[i + 1].s) {
            float t = smoothstep(k[i].s, k[i + 1].s, s);
            w[k[i].joint] += 1.0f - t;
            w[k[i + 1].joint] += t;
            return;
        }
    }
    w[k[n - 1].joint] += 1.0f;
}

/* Dense per-joint weights of a rest position (they sum to 1). */
static void part_weights(const demo_part* p, sw_vec3 position, float* w) {
    memset(w, 0, JOINT_COUNT * sizeof *w);
    chain_weights(p, sw_vec3_dot(sw_vec3_sub(position, p->start), p->axis), w);
    if (p->kind == PART_TORSO) {
        /* The top corners follow the shoulder of their side. */
        float shoulder = smoothstep(0.06f, 0.15f, fabsf(position.x)) * smoothstep(1.28f, 1.40f, position.y);
        for (int j = 0; j < JOINT_COUNT; j++) w[j] *= 1.0f - shoulder;
        w[arm_joint(position.x >= 0.0f ? 0 : 1, ARM_SHOULDER)] += shoulder;
    } else if (p->kind == PART_FOOT) {
        /* The top of the heel, under the ankle, stays partly with the shin. */
        float shin = 0.6f * smoothstep(0.05f, 0.10f, position.y) * (1.0f - smoothstep(-0.03f, 0.05f, position.z));
        for (int j = 0; j < JOINT_COUNT; j++) w[j] *= 1.0f - shin;
        w[leg_joint(p->side, LEG_SHIN)] += shin;
    } else if (p->kind == PART_SKIRT) {
        /* Around the waist, the pelvis; below, the two nearest chains by
           azimuth, each from its root to its tip along the axis. */
        memset(w, 0, JOINT_COUNT * sizeof *w);
        float s = sw_vec3_dot(sw_vec3_sub(position, p->start), p->axis);
        float below = smoothstep(0.0f, 0.08f, s), tip = smoothstep(0.08f, 0.26f, s);
        w[J_PELVIS] = 1.0f - below;
        double azimuth = atan2(position.x, position.z); /* 0 in front, +90° on the left */
        double turns = azimuth / (2.0 * SW_PI) * SKIRT_CHAINS;
        if (turns < 0.0) turns += SKIRT_CHAINS;
        int first = (int)turns % SKIRT_CHAINS, second = (first + 1) % SKIRT_CHAINS;
        float t = smoothstep(0.0f, 1.0f, (float)(turns - floor(turns)));
        w[skirt_joint(first, 0)] += below * (1.0f - tip) * (1.0f - t);
        w[skirt_joint(first, 1)] += below * tip * (1.0f - t);
        w[skirt_joint(second, 0)] += below * (1.0f - tip) * t;
        w[skirt_joint(second, 1)] += below * tip * t;
    }
}

/* The MAX_INFLUENCES largest weights, renormalised and quantised to
   multiples of 1/WEIGHT_UNITS summing to exactly 1, largest first; unused
   slots get joint 0 and weight 0 (DESIGN.md's padding). */
static void pack_influences(const float* dense, uint8_t* joints, float* weights) {
    int chosen[MAX_INFLUENCES];
    int count = 0;
    for (int slot = 0; slot < MAX_INFLUENCES; slot++) {
        int best = -1;
        for (int j = 0; j < JOINT_COUNT; j++) {
            bool taken = false;
            for (int k = 0; k < count; k++) taken |= chosen[k] == j;
            if (!taken && dense[j] > 0.0f && (best < 0 || dense[j] > dense[best])) best = j;
        }
        if (best < 0) break;
        chosen[count++] = best;
    }
    double total = 0.0;
    for (int k = 0; k < count; k++) total += dense[chosen[k]];
    long units[MAX_INFLUENCES] = {0};
    long sum = 0;
    for (int k = 0; k < count; k++) {
        units[k] = lround(dense[chosen[k]] / total * WEIGHT_UNITS);
        sum += units[k];
    }
    units[0] += WEIGHT_UNITS - sum; /* the largest absorbs the rounding */
    int out = 0;
    for (int k = 0; k < count; k++) {
        if (units[k] <= 0) continue;
        joints[out] = (uint8_t)chosen[k];
        weights[out] = (float)units[k] / (float)WEIGHT_UNITS;
        out++;
    }
    for (; out < MAX_INFLUENCES; out++) joints[out] = 0, weights[out] = 0.0f;
}

/* ---- the mesh: primitives -------------------------------------------------------------- */

typedef struct demo_vertex {
    float position[3];
    float normal[3];
    float tangent[4];
    float uv[2];
    uint8_t joints[MAX_INFLUENCES];
    float weights[MAX_INFLUENCES];
} demo_vertex;

typedef struct demo_primitive {
    demo_vertex* vertices;
    size_t vertex_count, vertex_capacity;
    uint16_t* indices;
    size_t index_count, index_capacity;
} demo_primitive;

typedef struct demo_mesh {
    demo_primitive primitives[MATERIAL_COUNT];
    bool failed;
} demo_mesh;

static bool grow(void** data, size_t* capacity, size_t need, size_t element) {
    if (need <= *capacity) return true;
    size_t c = *capacity ? *capacity * 2 : 1024;
    while (c < need) c *= 2;
    if (c > SIZE_MAX / element) return false;
    void* grown = realloc(*data, c * element);
    if (!grown) return false;
    *data = grown;
    *capacity = c;
    return true;
}

/* Index of a new vertex, or -1 (out of memory, or past 16-bit indices). */
static long add_vertex(demo_mesh* mesh, int material, const demo_vertex* v) {
    demo_primitive* p = &mesh->primitives[material];
    if (p->vertex_count >= 65535 ||
        !grow((void**)&p->vertices, &p->vertex_capacity, p->vertex_count + 1, sizeof *p->vertices)) {
        mesh->failed = true;
        return -1;
    }
    p->vertices[p->vertex_count] = *v;
    return (long)p->vertex_count++;
}

static void add_triangle(demo_mesh* mesh, int material, long a, long b, long c) {
    demo_primitive* p = &mesh->primitives[material];
    if (a < 0 || b < 0 || c < 0 ||
        !grow((void**)&p->indices, &p->index_capacity, p->index_count + 3, sizeof *p->indices)) {
        mesh->failed = true;
        return;
    }
    p->indices[p->index_count++] = (uint16_t)a;
    p->indices[p->index_count++] = (uint16_t)b;
    p->indices[p->index_count++] = (uint16_t)c;
}

static void free_mesh(demo_mesh* mesh) {
    for (int m = 0; m < MATERIAL_COUNT; m++) {
        free(mesh->primitives[m].vertices);
        free(mesh->primitives[m].indices);
    }
}

/* The unit tangent along the direction in which u grows (made
   perpendicular to the normal), with glTF's handedness: bitangent =
   cross(normal, tangent) · w points the way v decreases (up in the image). */
static void set_tangent(demo_vertex* v, sw_vec3 normal, sw_vec3 du_direction, sw_vec3 dv_direction) {
    sw_vec3 t = sw_vec3_normalize(sw_vec3_sub(du_direction, sw_vec3_scale(normal, sw_vec3_dot(normal, du_direction))));
    float handedness = sw_vec3_dot(sw_vec3_cross(normal, t), dv_direction) > 0.0f ? -1.0f : 1.0f;
    v->tangent[0] = t.x, v->tangent[1] = t.y, v->tangent[2] = t.z, v->tangent[3] = handedness;
}

/* Which primitive a head cell belongs to, from its centre: the face is the
   front between chin and hairline; hair covers the top, the sides above the
   ears and the back down to the nape; the rest (ears' level, under the
   chin) is skin. */
static int head_region(const demo_part* head, sw_vec3 cell_centre) {
    sw_vec3 rel = sw_vec3_sub(cell_centre, head->start);
    double azimuth = fabs(atan2(rel.x, rel.z)) * 180.0 / SW_PI; /* 0 in front, 180 behind */
    float y = cell_centre.y;
    if (azimuth < 62.0 && y > 1.475f && y < 1.625f) return M_FACE;
    if (y >= 1.625f) return M_HAIR;
    if (azimuth >= 62.0 && azimuth < 110.0 && y >= 1.60f) return M_HAIR;
    if (azimuth >= 110.0 && y >= 1.50f) return M_HAIR;
    return M_SKIN;
}

typedef struct grid_vertex {
    sw_vec3 position, normal;
    sw_vec3 along_u, along_v; /* surface directions in which u and v grow */
} grid_vertex;

/* Samples one part and appends its triangles to the primitives. */
static void add_part(demo_mesh* mesh, const demo_part* p) {
    int rows = part_rows(p), columns = p->columns;
    size_t stride = (size_t)columns + 1;
    size_t count = (size_t)rows * stride;
    grid_vertex* grid = calloc(count, sizeof *grid);
    long* remap = malloc(count * MATERIAL_COUNT * sizeof *remap);
    if (!grid || !remap) {
        free(grid), free(remap);
        mesh->failed = true;
        return;
    }
    for (size_t i = 0; i < count * MATERIAL_COUNT; i++) remap[i] = -1;
    for (int r = 0; r < rows; r++)
        for (int c = 0; c <= columns; c++) grid[(size_t)r * stride + (size_t)c].position = part_point(p, r, c);

    /* Central differences on the grid: across columns (wrapping around the
       seam) and rows; u grows with the column, v falls along the axis, so
       the texture stands upright on the surface seen from outside. */
    for (int r = 0; r < rows; r++) {
        for (int c = 0; c <= columns; c++) {
            grid_vertex* g = &grid[(size_t)r * stride + (size_t)c];
            int ring_row = r == 0 ? 1 : r == rows - 1 ? rows - 2 : r;
            sw_vec3 around = sw_vec3_sub(part_point(p, ring_row, c + 1), part_point(p, ring_row, c + columns - 1));
            sw_vec3 along =
                sw_vec3_sub(part_point(p, r < rows - 1 ? r + 1 : r, c), part_point(p, r > 0 ? r - 1 : r, c));
            if (r == 0)
                g->normal = sw_vec3_scale(p->axis, -1.0f);
            else if (r == rows - 1)
                g->normal = p->axis;
            else
                g->normal = sw_vec3_normalize(sw_vec3_cross(around, along));
            g->along_u = around;
            g->along_v = sw_vec3_scale(along, -1.0f);
        }
    }

    for (int r = 0; r + 1 < rows; r++) {
        for (int c = 0; c < columns; c++) {
            size_t corner[4] = {(size_t)r * stride + (size_t)c, (size_t)r * stride + (size_t)c + 1,
                                (size_t)(r + 1) * stride + (size_t)c + 1, (size_t)(r + 1) * stride + (size_t)c};
            int material = p->material;
            if (p->kind == PART_HEAD) {
                sw_vec3 centre = v3(0, 0, 0);
                for (int k = 0; k < 4; k++) centre = sw_vec3_add(centre, grid[corner[k]].position);
                material = head_region(p, sw_vec3_scale(centre, 0.25f));
            }
            /* Counter-clockwise seen from outside: triangles (0,1,2) and
               (0,2,3). Next to a pole only one of them has an area. */
            bool first_triangle = r != 0, second_triangle = r + 1 != rows - 1;
            bool used[4] = {true, first_triangle, true, second_triangle};
            long index[4] = {-1, -1, -1, -1};
            for (int k = 0; k < 4; k++) {
                if (!used[k]) continue;
                long* slot = &remap[corner[k] * MATERIAL_COUNT + (size_t)material];
                if (*slot < 0) {
                    const grid_vertex* g = &grid[corner[k]];
                    int vr = (int)(corner[k] / stride), vc = (int)(corner[k] % stride);
                    demo_vertex v;
                    memset(&v, 0, sizeof v);
                    v.position[0] = g->position.x, v.position[1] = g->position.y, v.position[2] = g->position.z;
                    v.normal[0] = g->normal.x, v.normal[1] = g->normal.y, v.normal[2] = g->normal.z;
                    set_tangent(&v, g->normal, g->along_u, g->along_v);
                    /* A pole vertex serves one cell (the one to its right at
                       the start, to its left at the end): centre its u on it. */
                    float u = vr == 0 ? ((float)vc + 0.5f) / (float)columns
                            : vr == rows - 1 ? ((float)vc - 0.5f) / (float)columns
                                             : (float)vc / (float)columns;
                    v.uv[0] = p->uv_rect[0] + p->uv_rect[2] * u;
                    v.uv[1] = p->uv_rect[1] + p->uv_rect[3] * (1.0f - (float)vr / (float)(rows - 1));
                    float dense[JOINT_COUNT];
                    part_weights(p, g->position, dense);
                    pack_influences(dense, v.joints, v.weights);
                    *slot = add_vertex(mesh, material, &v);
                }
                index[k] = *slot;
            }
            if (first_triangle) add_triangle(mesh, material, index[0], index[1], index[2]);
            if (second_triangle) add_triangle(mesh, material, index[0], index[2], index[3]);
        }
    }
    free(grid);
    free(remap);
}

/* The face's texture coordinates: the face seen from the front, fitted to
   [0,1]² (u to the viewer's right, +X; v down), for an SDF face map. */
static void map_face(demo_primitive* face) {
    if (!face->vertex_count) return;
    float lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
    for (size_t i = 0; i < face->vertex_count; i++)
        for (int k = 0; k < 2; k++) {
            float x = face->vertices[i].position[k];
            if (x < lo[k]) lo[k] = x;
            if (x > hi[k]) hi[k] = x;
        }
    for (size_t i = 0; i < face->vertex_count; i++) {
        demo_vertex* v = &face->vertices[i];
        v->uv[0] = (v->position[0] - lo[0]) / (hi[0] - lo[0]);
        v->uv[1] = (hi[1] - v->position[1]) / (hi[1] - lo[1]);
        set_tangent(v, v3(v->normal[0], v->normal[1], v->normal[2]), v3(1, 0, 0), v3(0, -1, 0));
    }
}

static void fill_part(demo_part* p, part_kind kind, int material, sw_vec3 start, sw_vec3 axis, sw_vec3 across,
                      float length, float cap_start, float cap_end) {
    memset(p, 0, sizeof *p);
    p->kind = kind;
    p->material = material;
    p->start = start;
    p->axis = sw_vec3_normalize(axis);
    p->across = sw_vec3_normalize(across);
    p->length = length;
    p->cap_start = cap_start;
    p->cap_end = cap_end;
}

static void add_profile(demo_part* p, float s, float radius_a, float radius_b, float lift) {
    if (p->profile_count < MAX_PROFILE_KEYS)
        p->profile[p->profile_count++] = (profile_key){s, radius_a, radius_b, lift};
}

static void add_chain(demo_part* p, float s, int joint) {
    if (p->chain_count < MAX_WEIGHT_KEYS) p->chain[p->chain_count++] = (weight_key){s, joint};
}

static void set_grid(demo_part* p, int cap_rows, int body_rows, int columns, float u0, float v0, float du, float dv) {
    p->cap_rows = cap_rows, p->body_rows = body_rows, p->columns = columns;
    p->uv_rect[0] = u0, p->uv_rect[1] = v0, p->uv_rect[2] = du, p->uv_rect[3] = dv;
}

/* The whole body. UV rectangles tile [0,1]² without overlap: torso,
   neck and head down the left, limbs on the right. */
static void build_mesh(demo_mesh* mesh, const demo_skeleton* sk) {
    demo_part p;

    /* Torso, crotch to the base of the neck (y 1.46), shoulders widest. */
    fill_part(&p, PART_TORSO, M_CLOTH, v3(0.0f, 0.82f, 0.0f), v3(0, 1, 0), v3(0, 0, 1), 0.60f, 0.07f, 0.04f);
    add_profile(&p, 0.00f, 0.100f, 0.150f, 0.0f);
    add_profile(&p, 0.13f, 0.110f, 0.165f, 0.0f);
    add_profile(&p, 0.28f, 0.095f, 0.135f, 0.0f);
    add_profile(&p, 0.45f, 0.112f, 0.160f, 0.0f);
    add_profile(&p, 0.56f, 0.100f, 0.188f, 0.0f);
    add_profile(&p, 0.60f, 0.090f, 0.178f, 0.0f);
    /* s = y − 0.82: pelvis to y 0.98, spine 1.08–1.17, chest 1.27–1.36, neck from 1.48 */
    add_chain(&p, 0.16f, J_PELVIS);
    add_chain(&p, 0.26f, J_SPINE);
    add_chain(&p, 0.35f, J_SPINE);
    add_chain(&p, 0.45f, J_CHEST);
    add_chain(&p, 0.54f, J_CHEST);
    add_chain(&p, 0.66f, J_NECK);
    set_grid(&p, 6, 22, 24, 0.0f, 0.0f, 0.5f, 0.5f);
    add_part(mesh, &p);

    fill_part(&p, PART_PLAIN, M_SKIN, v3(0.0f, 1.38f, 0.0f), v3(0, 1, 0), v3(0, 0, 1), 0.18f, 0.02f, 0.02f);
    add_profile(&p, 0.00f, 0.050f, 0.055f, 0.0f);
    add_profile(&p, 0.18f, 0.045f, 0.048f, 0.0f);
    add_chain(&p, 0.03f, J_CHEST);
    add_chain(&p, 0.09f, J_NECK);
    add_chain(&p, 0.14f, J_NECK);
    add_chain(&p, 0.19f, J_HEAD);
    set_grid(&p, 3, 8, 16, 0.0f, 0.5f, 0.25f, 0.125f);
    add_part(mesh, &p);

    /* The head: chin pole at y 1.465, crown at HEAD_TOP_Y. */
    fill_part(&p, PART_HEAD, M_SKIN, v3(0.0f, 1.50f, 0.012f), v3(0, 1, 0), v3(0, 0, 1), 0.12f, 0.035f,
              HEAD_TOP_Y - 1.62f);
    add_profile(&p, 0.00f, 0.088f, 0.074f, 0.0f);
    add_profile(&p, 0.07f, 0.102f, 0.086f, 0.0f);
    add_profile(&p, 0.12f, 0.104f, 0.088f, 0.0f);
    add_chain(&p, -0.05f, J_NECK);
    add_chain(&p, 0.04f, J_HEAD);
    set_grid(&p, 8, 10, 28, 0.0f, 0.625f, 0.5f, 0.375f);
    add_part(mesh, &p);

    for (int side = 0; side < 2; side++) {
        sw_vec3 d = sk->arm_direction[side];
        float u_side = 0.5f + 0.25f * (float)side;

        /* Arm, shoulder to wrist: the forearm cross-fades over its whole
           length from forearm to forearm_twist (where a twist shows LBS's
           candy-wrapper collapse), the upper arm likewise to its twist
           joint; elbow and wrist get short bands. */
        fill_part(&p, PART_PLAIN, M_SKIN, sk->position[arm_joint(side, ARM_UPPER)], d, v3(0, 0, 1),
                  UPPER_ARM_LENGTH + FOREARM_LENGTH, 0.05f, 0.03f);
        p.side = side;
        add_profile(&p, 0.00f, 0.052f, 0.052f, 0.0f);
        add_profile(&p, 0.10f, 0.047f, 0.045f, 0.0f);
        add_profile(&p, 0.27f, 0.037f, 0.036f, 0.0f);
        add_profile(&p, 0.34f, 0.040f, 0.037f, 0.0f);
        add_profile(&p, 0.53f, 0.029f, 0.025f, 0.0f);
        add_chain(&p, -0.05f, arm_joint(side, ARM_SHOULDER));
        add_chain(&p, 0.03f, arm_joint(side, ARM_UPPER));
        add_chain(&p, 0.05f, arm_joint(side, ARM_UPPER));
        add_chain(&p, 0.23f, arm_joint(side, ARM_UPPER_TWIST));
        add_chain(&p, 0.25f, arm_joint(side, ARM_UPPER_TWIST));
        add_chain(&p, 0.31f, arm_joint(side, ARM_FOREARM));
        add_chain(&p, 0.32f, arm_joint(side, ARM_FOREARM));
        add_chain(&p, 0.49f, arm_joint(side, ARM_FOREARM_TWIST));
        add_chain(&p, 0.50f, arm_joint(side, ARM_FOREARM_TWIST));
        add_chain(&p, 0.56f, arm_joint(side, ARM_HAND));
        set_grid(&p, 5, 28, 18, u_side, 0.0f, 0.25f, 0.375f);
        add_part(mesh, &p);

        /* Hand: a mitten, wide front to back, as the palm faces the thigh. */
        fill_part(&p, PART_PLAIN, M_SKIN, sk->position[arm_joint(side, ARM_HAND)], d, v3(0, 0, 1), HAND_LENGTH,
                  0.02f, 0.03f);
        p.side = side;
        add_profile(&p, 0.00f, 0.030f, 0.020f, 0.0f);
        add_profile(&p, 0.05f, 0.044f, 0.021f, 0.0f);
        add_profile(&p, 0.10f, 0.042f, 0.017f, 0.0f);
        add_profile(&p, 0.15f, 0.034f, 0.012f, 0.0f);
        add_chain(&p, -0.03f, arm_joint(side, ARM_FOREARM_TWIST));
        add_chain(&p, 0.04f, arm_joint(side, ARM_HAND));
        set_grid(&p, 4, 10, 14, u_side, 0.375f, 0.25f, 0.125f);
        add_part(mesh, &p);

        /* Leg, hip to ankle. */
        fill_part(&p, PART_PLAIN, M_CLOTH, sk->position[leg_joint(side, LEG_THIGH)], v3(0, -1, 0), v3(0, 0, 1),
                  0.82f, 0.07f, 0.04f);
        p.side = side;
        add_profile(&p, 0.00f, 0.085f, 0.085f, 0.0f);
        add_profile(&p, 0.12f, 0.078f, 0.075f, 0.0f);
        add_profile(&p, 0.40f, 0.052f, 0.050f, 0.0f);
        add_profile(&p, 0.52f, 0.056f, 0.052f, 0.0f);
        add_profile(&p, 0.82f, 0.040f, 0.038f, 0.0f);
        add_chain(&p, -0.05f, J_PELVIS);
        add_chain(&p, 0.06f, leg_joint(side, LEG_THIGH));
        add_chain(&p, 0.37f, leg_joint(side, LEG_THIGH));
        add_chain(&p, 0.45f, leg_joint(side, LEG_SHIN));
        add_chain(&p, 0.78f, leg_joint(side, LEG_SHIN));
        add_chain(&p, 0.86f, leg_joint(side, LEG_FOOT));
        set_grid(&p, 5, 26, 18, u_side, 0.5f, 0.25f, 0.375f);
        add_part(mesh, &p);

        /* Foot, heel to toe, along +Z; its centre is lifted by its half
           height, so the sole lies flat on y = 0. */
        float x = sk->position[leg_joint(side, LEG_FOOT)].x;
        fill_part(&p, PART_FOOT, M_SHOES, v3(x, 0.0f, -0.07f), v3(0, 0, 1), v3(1, 0, 0), 0.22f, 0.03f, 0.03f);
        p.side = side;
        add_profile(&p, 0.00f, 0.038f, 0.040f, 0.040f);
        add_profile(&p, 0.07f, 0.043f, 0.042f, 0.042f);
        add_profile(&p, 0.15f, 0.046f, 0.030f, 0.030f);
        add_profile(&p, 0.22f, 0.040f, 0.020f, 0.020f);
        add_chain(&p, 0.0f, leg_joint(side, LEG_FOOT));
        set_grid(&p, 4, 12, 16, u_side, 0.875f, 0.25f, 0.125f);
        add_part(mesh, &p);
    }

    /* The ponytail: a tapered tube along its chain, its root end inside the
       head. It and the skirt share the UV cell right of the neck. */
    fill_part(&p, PART_PLAIN, M_HAIR, ponytail_start(), ponytail_direction(), v3(1, 0, 0), PONYTAIL_LENGTH, 0.03f,
              0.03f);
    add_profile(&p, 0.00f, 0.032f, 0.036f, 0.0f);
    add_profile(&p, 0.08f, 0.036f, 0.040f, 0.0f);
    add_profile(&p, 0.28f, 0.024f, 0.026f, 0.0f);
    add_profile(&p, 0.40f, 0.010f, 0.010f, 0.0f);
    add_chain(&p, -0.01f, J_HEAD);
    add_chain(&p, 0.04f, J_PONYTAIL_0);
    add_chain(&p, 0.11f, J_PONYTAIL_0);
    add_chain(&p, 0.16f, J_PONYTAIL_1);
    add_chain(&p, 0.24f, J_PONYTAIL_1);
    add_chain(&p, 0.29f, J_PONYTAIL_2);
    add_chain(&p, 0.36f, J_PONYTAIL_2);
    add_chain(&p, 0.41f, J_PONYTAIL_3);
    set_grid(&p, 3, 14, 12, 0.25f, 0.5f, 0.25f, 0.0625f);
    add_part(mesh, &p);

    /* The skirt: an elliptic cone from the waist to above the knees, over
       the hips and thighs, with a flat hem. */
    fill_part(&p, PART_SKIRT, M_CLOTH, v3(0.0f, 1.00f, 0.0f), v3(0, -1, 0), v3(0, 0, 1), 0.30f, 0.02f, 0.012f);
    add_profile(&p, 0.00f, 0.122f, 0.174f, 0.0f);
    add_profile(&p, 0.08f, 0.142f, 0.202f, 0.0f);
    add_profile(&p, 0.30f, 0.205f, 0.258f, 0.0f);
    add_chain(&p, 0.0f, J_PELVIS);
    set_grid(&p, 2, 10, 48, 0.25f, 0.5625f, 0.25f, 0.0625f);
    add_part(mesh, &p);

    map_face(&mesh->primitives[M_FACE]);
}

/* ---- the clips ---------------------------------------------------------------------------- */

#define CLIP_RATE_HZ 30
#define WALK_DURATION_S 1.0f
#define WAVE_DURATION_S 2.0f
#define TWIST_DURATION_S 2.0f
#define TWIST_DEG 170.0

typedef void (*pose_fn)(const demo_skeleton* sk, float time, sw_transform* local);

/* The rest pose: offsets from the parent, no rotation. */
static void rest_pose(const demo_skeleton* sk, sw_transform* local) {
    for (int j = 0; j < JOINT_COUNT; j++) {
        local[j] = sw_transform_identity();
        local[j].translation = rest_local_translation(sk, j);
    }
}

/* The axis about which the elbow bends the forearm forward (towards +Z):
   perpendicular to the rest arm and to Z. */
static sw_vec3 elbow_axis(const demo_skeleton* sk, int side) {
    return sw_vec3_normalize(sw_vec3_cross(sk->arm_direction[side], v3(0, 0, 1)));
}

/* One gait cycle: the left leg swings forward over the first half. */
static void walk_pose(const demo_skeleton* sk, float time, sw_transform* local) {
    rest_pose(sk, local);
    double phase = 2.0 * SW_PI * time / WALK_DURATION_S;
    double s = sin(phase), c = cos(phase);
    const sw_vec3 x_back = v3(-1, 0, 0), x_axis = v3(1, 0, 0), y_axis = v3(0, 1, 0);
    /* Over the stance leg, lowest when the legs are furthest apart. */
    local[J_PELVIS].translation.x += (float)(-0.012 * c);
    local[J_PELVIS].translation.y += (float)(-0.02 + 0.012 * cos(2.0 * phase));
    local[J_PELVIS].rotation = rotation_deg(y_axis, -6.0 * s);
    /* The chest turns against the hips; the head keeps looking ahead. */
    local[J_SPINE].rotation = rotation_deg(y_axis, 2.0 * s);
    local[J_CHEST].rotation = rotation_deg(y_axis, 7.0 * s);
    local[J_NECK].rotation = rotation_deg(y_axis, -2.0 * s);
    local[J_HEAD].rotation = rotation_deg(y_axis, -1.0 * s);
    for (int side = 0; side < 2; side++) {
        double leg_phase = phase + SW_PI * side;
        double swing = 22.0 * sin(leg_phase); /* thigh forward */
        double swing_forward = cos(leg_phase); /* > 0 while the leg moves forward */
        double knee = 5.0 + 50.0 * (swing_forward > 0.0 ? swing_forward * swing_forward : 0.0);
        local[leg_joint(side, LEG_THIGH)].rotation = rotation_deg(x_back, swing);
        local[leg_joint(side, LEG_SHIN)].rotation = rotation_deg(x_axis, knee);
        local[leg_joint(side, LEG_FOOT)].rotation = rotation_deg(x_back, 0.6 * (knee - swing));

        /* Arms hang 30° lower than at rest and swing against the legs. */
        double arm_swing = -18.0 * sin(leg_phase);
        sw_quat lower = rotation_deg(v3(0, 0, side_sign[side]), -30.0);
        local[arm_joint(side, ARM_UPPER)].rotation = sw_quat_mul(rotation_deg(x_back, arm_swing), lower);
        local[arm_joint(side, ARM_FOREARM)].rotation =
            rotation_deg(elbow_axis(sk, side), 12.0 + 10.0 * (arm_swing > 0.0 ? arm_swing / 18.0 : 0.0));
    }
}

/* The right arm rises (0–0.5 s), the hand waves, and the arm comes down
   (1.5–2 s). Elbow bends stay under 90°, where LBS keeps ~70 % of the
   radius (linear blend skinning keeps |cos(φ/2)| of it), so only `twist` shows the collapse. */
static void wave_pose(const demo_skeleton* sk, float time, sw_transform* local) {
    rest_pose(sk, local);
    double up = smoothstep(0.0f, 0.5f, time) * (1.0f - smoothstep(1.5f, WAVE_DURATION_S, time));
    double wave = sin(2.0 * SW_PI * 2.5 * time) * up * up;
    const int side = 1;
    sw_vec3 raise = v3(0, 0, side_sign[side]); /* positive angles lift the arm */
    local[arm_joint(side, ARM_SHOULDER)].rotation = rotation_deg(raise, 15.0 * up);
    local[arm_joint(side, ARM_UPPER)].rotation =
        sw_quat_mul(rotation_deg(raise, 72.0 * up), rotation_deg(v3(-1, 0, 0), 12.0 * up));
    local[arm_joint(side, ARM_FOREARM)].rotation = rotation_deg(raise, 70.0 * up + 12.0 * wave);
    local[arm_joint(side, ARM_HAND)].rotation = rotation_deg(raise, 25.0 * wave);
    local[J_HEAD].rotation = rotation_deg(v3(0, 0, 1), 6.0 * up);
    local[arm_joint(0, ARM_UPPER)].rotation = rotation_deg(v3(0, 0, side_sign[0]), -20.0 * up);
}

/* Both forearm_twist joints turn about the forearm, 0 → 170° → 0, mirrored
   (both pronate); nothing else moves. */
static void twist_pose(const demo_skeleton* sk, float time, sw_transform* local) {
    rest_pose(sk, local);
    double angle = TWIST_DEG * 0.5 * (1.0 - cos(SW_PI * time / (0.5 * TWIST_DURATION_S)));
    for (int side = 0; side < 2; side++)
        local[arm_joint(side, ARM_FOREARM_TWIST)].rotation =
            rotation_deg(sk->arm_direction[side], side_sign[side] * angle);
}

typedef struct demo_clip {
    const char* name;
    float duration_s;
    bool loops; /* the last key repeats the first exactly */
    pose_fn pose;
} demo_clip;

static const demo_clip clips[] = {
    {"walk", WALK_DURATION_S, true, walk_pose},
    {"wave", WAVE_DURATION_S, false, wave_pose},
    {"twist", TWIST_DURATION_S, false, twist_pose},
};
#define CLIP_COUNT (sizeof clips / sizeof clips[0])

/* Keys of one clip: times, the pelvis's translation, every joint's rotation. */
typedef struct clip_keys {
    int key_count;
    float* times;        /* key_count */
    float* translations; /* key_count × 3 (pelvis) */
    float* rotations;    /* JOINT_COUNT × key_count × 4 */
} clip_keys;

static bool sample_clip(const demo_skeleton* sk, const demo_clip* clip, clip_keys* out) {
    int keys = (int)lround(clip->duration_s * CLIP_RATE_HZ) + 1;
    out->key_count = keys;
    out->times = malloc((size_t)keys * sizeof(float));
    out->translations = malloc((size_t)keys * 3 * sizeof(float));
    out->rotations = malloc((size_t)JOINT_COUNT * (size_t)keys * 4 * sizeof(float));
    if (!out->times || !out->translations || !out->rotations) return false;
    sw_transform local[JOINT_COUNT];
    for (int k = 0; k < keys; k++) {
        int source = (clip->loops && k == keys - 1) ? 0 : k;
        out->times[k] = (float)((double)clip->duration_s * k / (keys - 1));
        clip->pose(sk, (float)((double)clip->duration_s * source / (keys - 1)), local);
        memcpy(&out->translations[k * 3], &local[J_PELVIS].translation, 3 * sizeof(float));
        for (int j = 0; j < JOINT_COUNT; j++) {
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

static void free_clip_keys(clip_keys* keys) {
    free(keys->times);
    free(keys->translations);
    free(keys->rotations);
}

/* ---- the GLB ---------------------------------------------------------------------------------- */

#define GL_UNSIGNED_BYTE 5121
#define GL_UNSIGNED_SHORT 5123
#define GL_FLOAT 5126
#define GL_ARRAY_BUFFER 34962
#define GL_ELEMENT_ARRAY_BUFFER 34963

#define MAX_ACCESSORS 256

typedef struct gltf_accessor {
    size_t view_offset, view_length;
    int view_target;      /* 0 = none */
    int component_type;
    size_t count;
    const char* type;     /* "SCALAR", "VEC3", ... */
    int bound_count;      /* components in min/max; 0 = none */
    float min[4], max[4];
} gltf_accessor;

typedef struct glb_writer {
    byte_buffer bin;
    gltf_accessor accessors[MAX_ACCESSORS];
    int accessor_count;
    bool failed;
} glb_writer;

static int type_components(const char* type) {
    return strcmp(type, "SCALAR") == 0 ? 1 : strcmp(type, "VEC2") == 0 ? 2 : strcmp(type, "VEC3") == 0 ? 3
         : strcmp(type, "VEC4") == 0 ? 4 : 16;
}

/* Appends `size` bytes to BIN as one bufferView and accessor; returns the
   accessor's index (or -1 once anything failed). */
static int add_accessor(glb_writer* w, const void* data, size_t size, int component_type, size_t count,
                        const char* type, int target) {
    if (w->failed || w->accessor_count >= MAX_ACCESSORS) {
        w->failed = true;
        return -1;
    }
    buffer_align4(&w->bin, 0);
    gltf_accessor* a = &w->accessors[w->accessor_count];
    memset(a, 0, sizeof *a);
    a->view_offset = w->bin.size;
    a->view_length = size;
    a->view_target = target;
    a->component_type = component_type;
    a->count = count;
    a->type = type;
    buffer_append(&w->bin, data, size);
    if (w->bin.failed) w->failed = true;
    return w->accessor_count++;
}

/* Float accessor with min/max per component (POSITION and animation
   inputs must have them). */
static int add_float_accessor(glb_writer* w, const float* data, size_t count, const char* type, int target,
                              bool bounds) {
    int components = type_components(type);
    int index = add_accessor(w, data, count * (size_t)components * sizeof(float), GL_FLOAT, count, type, target);
    if (index < 0 || !bounds) return index;
    gltf_accessor* a = &w->accessors[index];
    a->bound_count = components;
    for (int c = 0; c < components; c++) a->min[c] = INFINITY, a->max[c] = -INFINITY;
    for (size_t i = 0; i < count; i++)
        for (int c = 0; c < components; c++) {
            float x = data[i * (size_t)components + (size_t)c];
            if (x < a->min[c]) a->min[c] = x;
            if (x > a->max[c]) a->max[c] = x;
        }
    return index;
}

typedef struct primitive_accessors {
    int position, normal, tangent, texcoord, joints, weights, indices;
} primitive_accessors;

static bool write_primitive(glb_writer* w, const demo_primitive* p, primitive_accessors* out) {
    size_t n = p->vertex_count;
    float* floats = malloc(n * 4 * sizeof(float));
    uint8_t* joints = malloc(n * 4);
    if (!floats || !joints) {
        free(floats), free(joints);
        return false;
    }
    for (size_t i = 0; i < n; i++) memcpy(&floats[i * 3], p->vertices[i].position, 3 * sizeof(float));
    out->position = add_float_accessor(w, floats, n, "VEC3", GL_ARRAY_BUFFER, true);
    for (size_t i = 0; i < n; i++) memcpy(&floats[i * 3], p->vertices[i].normal, 3 * sizeof(float));
    out->normal = add_float_accessor(w, floats, n, "VEC3", GL_ARRAY_BUFFER, false);
    for (size_t i = 0; i < n; i++) memcpy(&floats[i * 4], p->vertices[i].tangent, 4 * sizeof(float));
    out->tangent = add_float_accessor(w, floats, n, "VEC4", GL_ARRAY_BUFFER, false);
    for (size_t i = 0; i < n; i++) memcpy(&floats[i * 2], p->vertices[i].uv, 2 * sizeof(float));
    out->texcoord = add_float_accessor(w, floats, n, "VEC2", GL_ARRAY_BUFFER, false);
    for (size_t i = 0; i < n; i++) memcpy(&joints[i * 4], p->vertices[i].joints, 4);
    out->joints = add_accessor(w, joints, n * 4, GL_UNSIGNED_BYTE, n, "VEC4", GL_ARRAY_BUFFER);
    for (size_t i = 0; i < n; i++) memcpy(&floats[i * 4], p->vertices[i].weights, 4 * sizeof(float));
    out->weights = add_float_accessor(w, floats, n, "VEC4", GL_ARRAY_BUFFER, false);
    out->indices = add_accessor(w, p->indices, p->index_count * sizeof(uint16_t), GL_UNSIGNED_SHORT, p->index_count,
                                "SCALAR", GL_ELEMENT_ARRAY_BUFFER);
    free(floats);
    free(joints);
    return !w->failed;
}

typedef struct clip_accessors {
    int times, translation, rotation[JOINT_COUNT];
} clip_accessors;

/* ---- the JSON (cJSON) ----------------------------------------------------------------------- */

/* A failed cJSON allocation returns NULL: json_add then records the
   failure, drops the item and adds nothing more below a missing parent;
   the caller checks `failed` once at the end and deletes the tree either
   way. */
typedef struct json_builder {
    bool failed;
} json_builder;

/* Adds `item` to an object under `key`, or to an array (key NULL). */
static cJSON* json_add(json_builder* b, cJSON* parent, const char* key, cJSON* item) {
    bool added =
        item && parent && (key ? cJSON_AddItemToObject(parent, key, item) : cJSON_AddItemToArray(parent, item));
    if (!added) {
        cJSON_Delete(item);
        b->failed = true;
        return NULL;
    }
    return item;
}

/* cJSON prints integral doubles as integers and others so that they read
   back as the same double, hence the same float. It prints −0 as 0, so a
   negative zero is written raw to keep its sign. */
static cJSON* json_float(float value) {
    return value == 0.0f && signbit(value) ? cJSON_CreateRaw("-0") : cJSON_CreateNumber((double)value);
}

static cJSON* json_floats(json_builder* b, const float* values, int count) {
    cJSON* array = cJSON_CreateArray();
    for (int i = 0; i < count && array; i++) json_add(b, array, NULL, json_float(values[i]));
    return array;
}

static void json_int(json_builder* b, cJSON* parent, const char* key, double value) {
    json_add(b, parent, key, cJSON_CreateNumber(value));
}

static void json_string(json_builder* b, cJSON* parent, const char* key, const char* value) {
    json_add(b, parent, key, cJSON_CreateString(value));
}

static cJSON* json_object(json_builder* b, cJSON* parent, const char* key) {
    return json_add(b, parent, key, cJSON_CreateObject());
}

static cJSON* json_array(json_builder* b, cJSON* parent, const char* key) {
    return json_add(b, parent, key, cJSON_CreateArray());
}

/* ---- the spring bones (SW_spring_bones, docs/extensions.md) ------------------------------------ */

/* Sphere colliders on body joints, in the joint's space (rest rotations are
   the identity, so offsets are world directions at rest). */
static const struct {
    int joint;
    float offset[3], radius;
} spring_colliders[] = {
    {J_HEAD, {0.0f, 0.03f, 0.01f}, 0.095f},    /* 0: the skull */
    {J_NECK, {0.0f, 0.04f, -0.01f}, 0.055f},   /* 1: the neck */
    {J_CHEST, {0.0f, 0.08f, -0.01f}, 0.115f},  /* 2: the upper back and chest */
    {J_CHEST, {0.0f, -0.08f, -0.005f}, 0.105f}, /* 3: the lower back */
    {J_THIGH_L, {0.0f, -0.06f, 0.0f}, 0.082f}, /* 4, 5: the left thigh, hip and lower */
    {J_THIGH_L, {0.0f, -0.19f, 0.0f}, 0.072f},
    {J_THIGH_R, {0.0f, -0.06f, 0.0f}, 0.082f}, /* 6, 7: the right thigh */
    {J_THIGH_R, {0.0f, -0.19f, 0.0f}, 0.072f},
};
#define SPRING_COLLIDER_COUNT (int)(sizeof spring_colliders / sizeof spring_colliders[0])

/* Per chain kind: VRM's parameters (stiffness and gravity power in metres
   per second, drag the fraction of velocity lost per step, hit radius the
   tail's radius in metres), and the collider group it collides with. */
typedef struct spring_params {
    float stiffness, gravity_power, drag_force, hit_radius;
    int group; /* 0: upper body, 1: legs */
} spring_params;

static const spring_params ponytail_params = {0.9f, 0.35f, 0.25f, 0.025f, 0};
static const spring_params skirt_params = {1.4f, 0.2f, 0.35f, 0.02f, 1};

static void json_spring(json_builder* b, cJSON* springs, const char* name, const int* chain, int count,
                        const spring_params* params) {
    cJSON* spring = json_object(b, springs, NULL);
    json_string(b, spring, "name", name);
    cJSON* joints = json_array(b, spring, "joints");
    const float down[3] = {0.0f, -1.0f, 0.0f};
    for (int k = 0; k < count; k++) {
        cJSON* joint = json_object(b, joints, NULL);
        json_int(b, joint, "node", joint_node(chain[k]));
        json_add(b, joint, "stiffness", json_float(params->stiffness));
        json_add(b, joint, "gravityPower", json_float(params->gravity_power));
        json_add(b, joint, "gravityDir", json_floats(b, down, 3));
        json_add(b, joint, "dragForce", json_float(params->drag_force));
        json_add(b, joint, "hitRadius", json_float(params->hit_radius));
    }
    json_int(b, json_array(b, spring, "colliderGroups"), NULL, params->group);
}

/* extensions.SW_spring_bones: the shape of VRMC_springBone 1.0. */
static void json_spring_bones(json_builder* b, cJSON* root) {
    json_string(b, json_array(b, root, "extensionsUsed"), NULL, "SW_spring_bones");
    cJSON* ext = json_object(b, json_object(b, root, "extensions"), "SW_spring_bones");
    json_string(b, ext, "specVersion", "1.0");
    cJSON* colliders = json_array(b, ext, "colliders");
    for (int i = 0; i < SPRING_COLLIDER_COUNT; i++) {
        cJSON* collider = json_object(b, colliders, NULL);
        json_int(b, collider, "node", joint_node(spring_colliders[i].joint));
        cJSON* sphere = json_object(b, json_object(b, collider, "shape"), "sphere");
        json_add(b, sphere, "offset", json_floats(b, spring_colliders[i].offset, 3));
        json_add(b, sphere, "radius", json_float(spring_colliders[i].radius));
    }
    cJSON* groups = json_array(b, ext, "colliderGroups");
    cJSON* upper = json_object(b, groups, NULL);
    json_string(b, upper, "name", "upper_body");
    cJSON* upper_list = json_array(b, upper, "colliders");
    for (int i = 0; i < 4; i++) json_int(b, upper_list, NULL, i);
    cJSON* legs = json_object(b, groups, NULL);
    json_string(b, legs, "name", "legs");
    cJSON* legs_list = json_array(b, legs, "colliders");
    for (int i = 4; i < SPRING_COLLIDER_COUNT; i++) json_int(b, legs_list, NULL, i);

    cJSON* springs = json_array(b, ext, "springs");
    int chain[PONYTAIL_JOINTS];
    for (int k = 0; k < PONYTAIL_JOINTS; k++) chain[k] = J_PONYTAIL_0 + k;
    json_spring(b, springs, "ponytail", chain, PONYTAIL_JOINTS, &ponytail_params);
    for (int c = 0; c < SKIRT_CHAINS; c++) {
        char name[16];
        snprintf(name, sizeof name, "skirt_%d", c);
        for (int k = 0; k < SKIRT_JOINTS; k++) chain[k] = skirt_joint(c, k);
        json_spring(b, springs, name, chain, SKIRT_JOINTS, &skirt_params);
    }
}

/* The glTF JSON; NULL when an allocation failed. */
static cJSON* build_json(const demo_skeleton* sk, const glb_writer* w, int inverse_binds,
                         const primitive_accessors* prims, const clip_accessors* anims) {
    json_builder b = {false};
    cJSON* root = cJSON_CreateObject();
    if (!root) return NULL;

    cJSON* asset = json_object(&b, root, "asset");
    json_string(&b, asset, "version", "2.0");
    json_string(&b, asset, "generator", "sinew " SW_VERSION_STRING " built-in demo character");
    json_int(&b, root, "scene", 0);
    cJSON* scene = json_object(&b, json_array(&b, root, "scenes"), NULL);
    json_string(&b, scene, "name", "demo character");
    cJSON* roots = json_array(&b, scene, "nodes");
    json_int(&b, roots, NULL, J_PELVIS);
    json_int(&b, roots, NULL, BODY_NODE);

    cJSON* nodes = json_array(&b, root, "nodes");
    for (int node_index = 0; node_index <= JOINT_COUNT; node_index++) {
        if (node_index == BODY_NODE) {
            cJSON* body = json_object(&b, nodes, NULL);
            json_string(&b, body, "name", "body");
            json_int(&b, body, "mesh", 0);
            json_int(&b, body, "skin", 0);
            continue;
        }
        int n = node_index < BODY_NODE ? node_index : node_index - 1;
        cJSON* node = json_object(&b, nodes, NULL);
        sw_vec3 t = rest_local_translation(sk, n);
        float translation[3] = {t.x, t.y, t.z};
        json_string(&b, node, "name", joint_names[n]);
        json_add(&b, node, "translation", json_floats(&b, translation, 3));
        cJSON* children = NULL;
        for (int c = 0; c < JOINT_COUNT; c++) {
            if (joint_parents[c] != n) continue;
            if (!children) children = json_array(&b, node, "children");
            json_int(&b, children, NULL, joint_node(c));
        }
    }

    cJSON* skin = json_object(&b, json_array(&b, root, "skins"), NULL);
    json_string(&b, skin, "name", "skeleton");
    json_int(&b, skin, "inverseBindMatrices", inverse_binds);
    json_int(&b, skin, "skeleton", J_PELVIS);
    cJSON* joints = json_array(&b, skin, "joints");
    for (int n = 0; n < JOINT_COUNT; n++) json_int(&b, joints, NULL, joint_node(n));

    cJSON* mesh = json_object(&b, json_array(&b, root, "meshes"), NULL);
    json_string(&b, mesh, "name", "body");
    cJSON* primitives = json_array(&b, mesh, "primitives");
    for (int m = 0; m < MATERIAL_COUNT; m++) {
        const primitive_accessors* a = &prims[m];
        cJSON* primitive = json_object(&b, primitives, NULL);
        cJSON* attributes = json_object(&b, primitive, "attributes");
        json_int(&b, attributes, "POSITION", a->position);
        json_int(&b, attributes, "NORMAL", a->normal);
        json_int(&b, attributes, "TANGENT", a->tangent);
        json_int(&b, attributes, "TEXCOORD_0", a->texcoord);
        json_int(&b, attributes, "JOINTS_0", a->joints);
        json_int(&b, attributes, "WEIGHTS_0", a->weights);
        json_int(&b, primitive, "indices", a->indices);
        json_int(&b, primitive, "material", m);
        json_int(&b, primitive, "mode", 4);
    }

    cJSON* materials_json = json_array(&b, root, "materials");
    for (int m = 0; m < MATERIAL_COUNT; m++) {
        cJSON* material = json_object(&b, materials_json, NULL);
        json_string(&b, material, "name", materials[m].name);
        cJSON* pbr = json_object(&b, material, "pbrMetallicRoughness");
        json_add(&b, pbr, "baseColorFactor", json_floats(&b, materials[m].base_color, 4));
        json_int(&b, pbr, "metallicFactor", 0);
        json_add(&b, pbr, "roughnessFactor", json_float(materials[m].roughness));
    }

    /* One sampler per channel: the pelvis's translation, then every body joint's rotation. */
    cJSON* animations = json_array(&b, root, "animations");
    for (size_t c = 0; c < CLIP_COUNT; c++) {
        const clip_accessors* a = &anims[c];
        cJSON* animation = json_object(&b, animations, NULL);
        json_string(&b, animation, "name", clips[c].name);
        cJSON* channels = json_array(&b, animation, "channels");
        cJSON* samplers = json_array(&b, animation, "samplers");
        for (int k = 0; k <= BODY_JOINT_COUNT; k++) {
            /* k = 0: the pelvis's translation; k ≥ 1: joint k − 1's rotation */
            cJSON* channel = json_object(&b, channels, NULL);
            json_int(&b, channel, "sampler", k);
            cJSON* target = json_object(&b, channel, "target");
            json_int(&b, target, "node", k == 0 ? J_PELVIS : k - 1);
            json_string(&b, target, "path", k == 0 ? "translation" : "rotation");
            cJSON* sampler = json_object(&b, samplers, NULL);
            json_int(&b, sampler, "input", a->times);
            json_int(&b, sampler, "output", k == 0 ? a->translation : a->rotation[k - 1]);
            json_string(&b, sampler, "interpolation", "LINEAR");
        }
    }

    cJSON* accessors = json_array(&b, root, "accessors");
    for (int i = 0; i < w->accessor_count; i++) {
        const gltf_accessor* a = &w->accessors[i];
        cJSON* accessor = json_object(&b, accessors, NULL);
        json_int(&b, accessor, "bufferView", i);
        json_int(&b, accessor, "componentType", a->component_type);
        json_int(&b, accessor, "count", (double)a->count);
        json_string(&b, accessor, "type", a->type);
        if (a->bound_count) {
            json_add(&b, accessor, "min", json_floats(&b, a->min, a->bound_count));
            json_add(&b, accessor, "max", json_floats(&b, a->max, a->bound_count));
        }
    }
    cJSON* views = json_array(&b, root, "bufferViews");
    for (int i = 0; i < w->accessor_count; i++) {
        const gltf_accessor* a = &w->accessors[i];
        cJSON* view = json_object(&b, views, NULL);
        json_int(&b, view, "buffer", 0);
        json_int(&b, view, "byteOffset", (double)a->view_offset);
        json_int(&b, view, "byteLength", (double)a->view_length);
        if (a->view_target) json_int(&b, view, "target", a->view_target);
    }
    cJSON* buffer = json_object(&b, json_array(&b, root, "buffers"), NULL);
    json_int(&b, buffer, "byteLength", (double)w->bin.size);
    json_spring_bones(&b, root);

    if (b.failed) {
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}

static void put_u32(unsigned char* p, uint32_t v) {
    p[0] = (unsigned char)(v & 0xff), p[1] = (unsigned char)((v >> 8) & 0xff);
    p[2] = (unsigned char)((v >> 16) & 0xff), p[3] = (unsigned char)(v >> 24);
}

sw_result sw_demo_character_glb(void** out_data, size_t* out_size, sw_diag* diag) {
    SW_ASSERT(out_data && out_size);
    *out_data = NULL;
    *out_size = 0;

    demo_skeleton sk;
    build_skeleton(&sk);
    demo_mesh mesh;
    memset(&mesh, 0, sizeof mesh);
    glb_writer* w = calloc(1, sizeof *w);
    clip_keys keys[CLIP_COUNT];
    memset(keys, 0, sizeof keys);
    byte_buffer json = {0};
    const char* stage = "the writer";
    if (!w) goto fail;

    stage = "the mesh";
    build_mesh(&mesh, &sk);
    if (mesh.failed) goto fail;

    stage = "the buffers";
    float inverse_bind[JOINT_COUNT][16];
    for (int n = 0; n < JOINT_COUNT; n++) {
        /* Column-major identity with the translation −p in the last column. */
        memset(inverse_bind[n], 0, sizeof inverse_bind[n]);
        inverse_bind[n][0] = inverse_bind[n][5] = inverse_bind[n][10] = inverse_bind[n][15] = 1.0f;
        inverse_bind[n][12] = -sk.position[n].x;
        inverse_bind[n][13] = -sk.position[n].y;
        inverse_bind[n][14] = -sk.position[n].z;
    }
    int inverse_binds = add_float_accessor(w, &inverse_bind[0][0], JOINT_COUNT, "MAT4", 0, false);
    primitive_accessors prims[MATERIAL_COUNT];
    for (int m = 0; m < MATERIAL_COUNT; m++)
        if (!write_primitive(w, &mesh.primitives[m], &prims[m])) goto fail;

    stage = "the clips";
    clip_accessors anims[CLIP_COUNT];
    for (size_t c = 0; c < CLIP_COUNT; c++) {
        if (!sample_clip(&sk, &clips[c], &keys[c])) goto fail;
        size_t n = (size_t)keys[c].key_count;
        anims[c].times = add_float_accessor(w, keys[c].times, n, "SCALAR", 0, true);
        anims[c].translation = add_float_accessor(w, keys[c].translations, n, "VEC3", 0, false);
        for (int j = 0; j < BODY_JOINT_COUNT; j++)
            anims[c].rotation[j] = add_float_accessor(w, &keys[c].rotations[(size_t)j * n * 4], n, "VEC4", 0, false);
    }
    buffer_align4(&w->bin, 0);
    if (w->failed || w->bin.failed) goto fail;

    stage = "the JSON";
    cJSON* tree = build_json(&sk, w, inverse_binds, prims, anims);
    char* text = tree ? cJSON_PrintUnformatted(tree) : NULL;
    cJSON_Delete(tree);
    if (!text) goto fail;
    buffer_append(&json, text, strlen(text));
    cJSON_free(text);
    buffer_align4(&json, ' ');
    if (json.failed) goto fail;

    stage = "the GLB";
    size_t total = 12 + 8 + json.size + 8 + w->bin.size;
    if (total > UINT32_MAX) goto fail;
    unsigned char* glb = malloc(total);
    if (!glb) goto fail;
    put_u32(glb, 0x46546C67u); /* "glTF" */
    put_u32(glb + 4, 2);
    put_u32(glb + 8, (uint32_t)total);
    put_u32(glb + 12, (uint32_t)json.size);
    put_u32(glb + 16, 0x4E4F534Au); /* "JSON" */
    memcpy(glb + 20, json.data, json.size);
    unsigned char* bin = glb + 20 + json.size;
    put_u32(bin, (uint32_t)w->bin.size);
    put_u32(bin + 4, 0x004E4942u); /* "BIN\0" */
    memcpy(bin + 8, w->bin.data, w->bin.size);

    free_mesh(&mesh);
    for (size_t c = 0; c < CLIP_COUNT; c++) free_clip_keys(&keys[c]);
    free(w->bin.data);
    free(w);
    free(json.data);
    *out_data = glb;
    *out_size = total;
    return SW_OK;

fail:
    free_mesh(&mesh);
    for (size_t c = 0; c < CLIP_COUNT; c++) free_clip_keys(&keys[c]);
    if (w) free(w->bin.data);
    free(w);
    free(json.data);
    return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "demo character: out of memory while building %s", stage);
}

void sw_demo_free(void* data) { free(data); }
