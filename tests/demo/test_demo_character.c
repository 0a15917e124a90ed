/* The built-in demo character (sinew/demo.h), checked through the public
   importer with invariants of its own rather than stored outputs: a valid
   GLB that loads without warnings; the skeleton it promises; a few thousand
   vertices with normalised, smooth weights over every joint; a rest pose
   that skins onto the bind positions; outward normals and tangents;
   regions by material; seven clips, of which walk loops and twist turns
   the forearms 170° so LBS collapses where DQS does not; the same bytes on
   every call; spring bones (SW_spring_bones) on a ponytail below the head
   and a skirt below the pelvis that, simulated over the walk, stay in
   reach of their roots and outside the body's colliders; toon materials
   (SW_materials_toon) on every material, read back by sw_toon_read, with
   textures that decode and hold what the extension says they do (ramp
   rows, region bands, the hair's glint mask and tiers, the baked face
   map), and a double-sided skirt with a second UV set for its lining.

   With arguments `--round-trip SINEW DIR` it instead runs `SINEW
   demo-asset -o DIR/demo.glb` and checks that the file holds the very
   bytes of the in-memory GLB and loads from disk as it does from memory. */
#define _POSIX_C_SOURCE 200809L /* mkdir */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "harness.h"
#include "sinew/demo.h"
#include "sinew/gltf.h"
#include "sinew/import.h"
#include "sinew/pose.h"
#include "sinew/spring.h"
#include "sinew/toon.h"

static const char* const required_joints[] = {
    "pelvis",          "spine",       "chest",           "neck",          "head",
    "shoulder_l",      "shoulder_r",  "upper_arm_l",     "upper_arm_r",   "upper_arm_twist_l",
    "upper_arm_twist_r", "forearm_l", "forearm_r",       "forearm_twist_l", "forearm_twist_r",
    "hand_l",          "hand_r",      "thigh_l",         "thigh_r",       "shin_l",
    "shin_r",          "foot_l",      "foot_r",
};
#define REQUIRED_JOINTS (sizeof required_joints / sizeof required_joints[0])

/* ---- helpers ------------------------------------------------------------------ */

static uint8_t* demo_bytes(size_t* size) {
    uint8_t* data = NULL;
    sw_diag diag;
    sw_result r = sw_demo_character_glb(&data, size, &diag);
    if (r != SW_OK) fprintf(stderr, "  sw_demo_character_glb: %s\n", diag.message);
    return r == SW_OK ? data : NULL;
}

/* The bytes most tests load, made once (a generation bakes the face map;
   test_same_bytes_every_call and the round trip make their own). */
static uint8_t* shared_glb;
static size_t shared_glb_size;

static sw_model* load_demo(bool keep_raw) {
    size_t size = shared_glb_size;
    uint8_t* data = shared_glb ? shared_glb : demo_bytes(&size);
    if (!data) return NULL;
    sw_gltf_options options = {.keep_raw_influences = keep_raw};
    sw_model* asset = NULL;
    sw_diag diag;
    if (sw_gltf_load_memory(data, size, SW_DEMO_CHARACTER_NAME, NULL, &options, &asset, &diag) != SW_OK)
        fprintf(stderr, "  load: %s\n", diag.message);
    if (data != shared_glb) sw_demo_character_glb_free(data);
    return asset;
}

/* The node holding the skinned mesh, or -1. */
static int skinned_node(const sw_model* a) {
    for (size_t n = 0; n < a->node_count; n++)
        if (a->nodes[n].mesh >= 0 && a->nodes[n].skin >= 0) return (int)n;
    return -1;
}

/* Index of the joint named `name` in skin 0, or -1. */
static int skin_joint(const sw_model* a, const char* name) {
    const sw_model_skin* skin = &a->skins[0];
    for (size_t j = 0; j < skin->joint_count; j++) {
        const char* n = a->nodes[skin->joints[j]].name;
        if (n && strcmp(n, name) == 0) return (int)j;
    }
    return -1;
}

static int node_named(const sw_model* a, const char* name) {
    for (size_t n = 0; n < a->node_count; n++)
        if (a->nodes[n].name && strcmp(a->nodes[n].name, name) == 0) return (int)n;
    return -1;
}

static int animation_named(const sw_model* a, const char* name) {
    for (size_t i = 0; i < a->animation_count; i++)
        if (a->animations[i].name && strcmp(a->animations[i].name, name) == 0) return (int)i;
    return -1;
}

static int material_named(const sw_model* a, const char* name) {
    for (size_t i = 0; i < a->material_count; i++)
        if (a->materials[i].name && strcmp(a->materials[i].name, name) == 0) return (int)i;
    return -1;
}

static size_t total_vertices(const sw_model* a) {
    size_t n = 0;
    for (size_t m = 0; m < a->mesh_count; m++)
        for (size_t p = 0; p < a->meshes[m].primitive_count; p++) n += a->meshes[m].primitives[p].vertex_count;
    return n;
}

/* Binds `pose` to a new block of memory for `a` (free() it), or returns NULL. */
static void* pose_new(const sw_model* a, sw_pose* pose) {
    sw_pose_sizes sizes = sw_pose_sizes_of(a);
    size_t bytes = (sw_pose_memory_size(&sizes) + 15) / 16 * 16; /* aligned_alloc wants a multiple of 16 */
    void* memory = aligned_alloc(16, bytes);
    if (memory) sw_pose_bind(pose, &sizes, memory);
    return memory;
}

/* The pose of animation `anim` at `time` (the rest pose for anim < 0):
   locals, world matrices and the skin's palette. */
static bool pose_at(const sw_model* a, int anim, float time, sw_pose* pose) {
    sw_diag diag;
    /* looping = false: `time` is sampled as given */
    if (sw_pose_evaluate(a, anim < 0 ? NULL : &a->animations[anim], time, false, pose, &diag) != SW_OK) {
        fprintf(stderr, "  pose: %s\n", diag.message);
        return false;
    }
    return true;
}

static sw_vec3 origin_of(const sw_mat34* m) { return sw_vec3_make(m->m[0][3], m->m[1][3], m->m[2][3]); }

/* A direction through the transpose of m's 3×3 (its inverse for a rotation). */
static sw_vec3 inverse_rotate(const sw_mat34* m, sw_vec3 d) {
    return sw_vec3_make(m->m[0][0] * d.x + m->m[1][0] * d.y + m->m[2][0] * d.z,
                        m->m[0][1] * d.x + m->m[1][1] * d.y + m->m[2][1] * d.z,
                        m->m[0][2] * d.x + m->m[1][2] * d.y + m->m[2][2] * d.z);
}

/* World positions of one primitive of the skinned node in a pose (morph
   weights: none in this asset). */
static bool deform(const sw_model* a, size_t primitive, const sw_pose* pose, sw_skin_method method,
                   float* out_positions) {
    int node = skinned_node(a);
    size_t size = sw_deform_scratch_size(a, (size_t)node, primitive);
    void* scratch = aligned_alloc(16, (size + 15) / 16 * 16 + 16);
    if (!scratch) return false;
    sw_deform d = {.node = (size_t)node, .primitive = primitive, .method = method, .scratch = scratch,
                   .out_positions = out_positions};
    sw_diag diag;
    sw_result r = sw_deform_primitive(a, pose, &d, &diag);
    free(scratch);
    if (r != SW_OK) fprintf(stderr, "  deform: %s\n", diag.message);
    return r == SW_OK;
}

static uint32_t read_u32(const uint8_t* p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* ---- the container ------------------------------------------------------------------ */

static void test_glb_container(void) {
    size_t size = 0;
    uint8_t* glb = demo_bytes(&size);
    SW_CHECK(glb != NULL);
    if (!glb) return;
    SW_CHECK(size > 28 && size % 4 == 0);
    SW_CHECK(memcmp(glb, "glTF", 4) == 0);
    SW_CHECK_EQ_INT(read_u32(glb + 4), 2);
    SW_CHECK_EQ_INT(read_u32(glb + 8), size);
    uint32_t json_length = read_u32(glb + 12);
    SW_CHECK(memcmp(glb + 16, "JSON", 4) == 0);
    SW_CHECK(json_length % 4 == 0 && 20 + (size_t)json_length + 8 <= size);
    /* JSON padding is spaces (after the closing brace), BIN padding zeros. */
    const uint8_t* json = glb + 20;
    size_t end = json_length;
    while (end > 0 && (json[end - 1] == ' ' || json[end - 1] == '\n')) end--;
    SW_CHECK(end > 0 && json[end - 1] == '}');
    for (size_t i = 0; i < json_length; i++) SW_CHECK(json[i] != 0);
    const uint8_t* bin = json + json_length;
    uint32_t bin_length = read_u32(bin);
    SW_CHECK(memcmp(bin + 4, "BIN\0", 4) == 0);
    SW_CHECK_EQ_INT(20 + (size_t)json_length + 8 + bin_length, size);
    SW_CHECK(bin_length % 4 == 0);
    sw_demo_character_glb_free(glb);
}

static void test_same_bytes_every_call(void) {
    size_t size_a = 0, size_b = 0;
    uint8_t* a = demo_bytes(&size_a);
    uint8_t* b = demo_bytes(&size_b);
    SW_CHECK(a && b);
    SW_CHECK_EQ_INT(size_a, size_b);
    SW_CHECK(a && b && size_a == size_b && memcmp(a, b, size_a) == 0);
    sw_demo_character_glb_free(a);
    sw_demo_character_glb_free(b);
}

static void test_loads_without_warnings(void) {
    sw_model* a = load_demo(false);
    SW_CHECK(a != NULL);
    if (!a) return;
    for (size_t i = 0; i < a->warning_count; i++) fprintf(stderr, "  warning: %s\n", a->warnings[i]);
    SW_CHECK_EQ_INT(a->warning_count, 0);
    SW_CHECK(strcmp(a->path, SW_DEMO_CHARACTER_NAME) == 0);
    SW_CHECK_EQ_INT(a->scene_count, 1);
    SW_CHECK_EQ_INT(a->skin_count, 1);
    SW_CHECK_EQ_INT(a->mesh_count, 1);
    SW_CHECK(skinned_node(a) >= 0);
    sw_model_free(a);
}

/* ---- the skeleton --------------------------------------------------------------------- */

static void test_skeleton(void) {
    sw_model* a = load_demo(false);
    if (!a) {
        SW_CHECK(a != NULL);
        return;
    }
    /* 23 body joints, a ponytail of 3-4 and a skirt of 6-8 chains of 2. */
    size_t joints = a->skins[0].joint_count;
    SW_CHECK(joints >= 23 + 3 + 12 && joints <= 23 + 4 + 16);
    for (size_t i = 0; i < REQUIRED_JOINTS; i++) {
        bool found = skin_joint(a, required_joints[i]) >= 0;
        if (!found) fprintf(stderr, "  missing joint %s\n", required_joints[i]);
        SW_CHECK(found);
    }
    /* Rest pose: about 1.7 m tall, head above neck above chest above
       pelvis, the left side on +X, feet near the ground. */
    sw_pose pose;
    void* memory = pose_new(a, &pose);
    SW_CHECK(memory != NULL);
    if (memory && pose_at(a, -1, 0.0f, &pose)) {
        const sw_mat34* world = pose.world;
        const char* column[] = {"pelvis", "spine", "chest", "neck", "head"};
        for (int i = 0; i + 1 < 5; i++)
            SW_CHECK(origin_of(&world[node_named(a, column[i])]).y < origin_of(&world[node_named(a, column[i + 1])]).y);
        SW_CHECK(origin_of(&world[node_named(a, "hand_l")]).x > 0.2f);
        SW_CHECK(origin_of(&world[node_named(a, "hand_r")]).x < -0.2f);
        SW_CHECK(origin_of(&world[node_named(a, "foot_l")]).y < 0.15f);
        /* Each inverse bind matrix undoes its joint's rest world transform. */
        for (size_t j = 0; j < joints; j++) {
            sw_mat34 product = sw_mat34_mul(&world[a->skins[0].joints[j]], &a->skins[0].inverse_bind[j]);
            sw_mat34 identity = sw_mat34_identity();
            for (int r = 0; r < 3; r++)
                for (int c = 0; c < 4; c++) SW_CHECK_NEAR(product.m[r][c], identity.m[r][c], 1e-6);
        }
    }
    free(memory);
    sw_model_free(a);
}

/* ---- the mesh -------------------------------------------------------------------------- */

static void test_mesh_size_and_extent(void) {
    sw_model* a = load_demo(false);
    if (!a) {
        SW_CHECK(a != NULL);
        return;
    }
    size_t vertices = total_vertices(a);
    fprintf(stderr, "  %zu vertices\n", vertices);
    SW_CHECK(vertices >= 2000 && vertices <= 8000);
    float lo[3] = {1e9f, 1e9f, 1e9f}, hi[3] = {-1e9f, -1e9f, -1e9f};
    const sw_model_mesh* mesh = &a->meshes[0];
    for (size_t p = 0; p < mesh->primitive_count; p++) {
        const sw_model_primitive* prim = &mesh->primitives[p];
        SW_CHECK_EQ_INT(prim->mode, SW_MODEL_TRIANGLES);
        SW_CHECK(prim->indices != NULL && prim->index_count % 3 == 0);
        SW_CHECK(prim->normals && prim->tangents && prim->texcoord_count >= 1);
        SW_CHECK(prim->influence_count == 4);
        /* Every vertex is drawn, every index names a vertex. */
        unsigned char* referenced = calloc(prim->vertex_count, 1);
        size_t unused = 0;
        for (size_t i = 0; i < prim->index_count && referenced; i++) {
            SW_CHECK(prim->indices[i] < prim->vertex_count);
            if (prim->indices[i] < prim->vertex_count) referenced[prim->indices[i]] = 1;
        }
        for (size_t v = 0; v < prim->vertex_count && referenced; v++) unused += !referenced[v];
        SW_CHECK_EQ_INT(unused, 0);
        free(referenced);
        for (int c = 0; c < 3; c++) {
            if (prim->bounds_min[c] < lo[c]) lo[c] = prim->bounds_min[c];
            if (prim->bounds_max[c] > hi[c]) hi[c] = prim->bounds_max[c];
        }
    }
    SW_CHECK_NEAR(hi[1] - lo[1], 1.7, 0.05); /* about 1.7 m tall */
    SW_CHECK_NEAR(lo[1], 0.0, 1e-4);         /* standing on y = 0 */
    SW_CHECK_NEAR(lo[0], -hi[0], 1e-4);      /* symmetric about x = 0 */
    sw_model_free(a);
}

/* The file's own weights (before the importer renormalises): sums of 1,
   every joint used strongly somewhere, many vertices blended. */
static void test_weights(void) {
    sw_model* a = load_demo(true);
    if (!a) {
        SW_CHECK(a != NULL);
        return;
    }
    size_t joints = a->skins[0].joint_count;
    float* strongest = calloc(joints, sizeof *strongest);
    size_t vertices = 0, blended = 0, bad_sums = 0, over_four = 0;
    const sw_model_mesh* mesh = &a->meshes[0];
    for (size_t p = 0; p < mesh->primitive_count && strongest; p++) {
        const sw_model_primitive* prim = &mesh->primitives[p];
        int slots = prim->raw_influence_count;
        SW_CHECK(slots >= 4 && prim->raw_weights && prim->raw_joints);
        if (!prim->raw_weights) continue;
        for (size_t v = 0; v < prim->vertex_count; v++) {
            double sum = 0.0;
            int nonzero = 0;
            for (int k = 0; k < slots; k++) {
                float w = prim->raw_weights[v * (size_t)slots + (size_t)k];
                uint16_t j = prim->raw_joints[v * (size_t)slots + (size_t)k];
                SW_CHECK(w >= 0.0f && j < joints);
                sum += w;
                if (w > 0.0f) {
                    nonzero++;
                    if (j < joints && w > strongest[j]) strongest[j] = w;
                }
            }
            bad_sums += !(fabs(sum - 1.0) <= 1e-6);
            over_four += nonzero > 4;
            blended += nonzero >= 2;
            vertices++;
        }
    }
    SW_CHECK_EQ_INT(bad_sums, 0);
    SW_CHECK_EQ_INT(over_four, 0);
    fprintf(stderr, "  %zu of %zu vertices have 2+ influences\n", blended, vertices);
    SW_CHECK(blended * 5 >= vertices); /* at least a fifth blend joints */
    for (size_t j = 0; j < joints && strongest; j++) {
        if (!(strongest[j] > 0.3f))
            fprintf(stderr, "  joint %zu (%s): strongest weight %g\n", j, a->nodes[a->skins[0].joints[j]].name,
                    strongest[j]);
        SW_CHECK(strongest[j] > 0.3f);
    }
    free(strongest);
    sw_model_free(a);
}

/* Skinned at rest, every vertex lands on its bind position. */
static void test_rest_pose_is_bind_pose(void) {
    sw_model* a = load_demo(false);
    if (!a) {
        SW_CHECK(a != NULL);
        return;
    }
    sw_pose pose;
    void* memory = pose_new(a, &pose);
    SW_CHECK(memory != NULL);
    if (memory && pose_at(a, -1, 0.0f, &pose)) {
        const sw_mat34* skin = pose.skin_matrices + a->skins[0].palette_offset;
        for (size_t j = 0; j < a->skins[0].joint_count; j++)
            for (int r = 0; r < 3; r++)
                for (int c = 0; c < 4; c++) SW_CHECK_NEAR(skin[j].m[r][c], r == c ? 1.0 : 0.0, 1e-6);
        const sw_model_mesh* mesh = &a->meshes[0];
        for (size_t p = 0; p < mesh->primitive_count; p++) {
            const sw_model_primitive* prim = &mesh->primitives[p];
            float* out = malloc(prim->vertex_count * 3 * sizeof *out);
            for (int method = SW_SKIN_LBS; method <= SW_SKIN_DQS && out; method++) {
                SW_CHECK(deform(a, p, &pose, (sw_skin_method)method, out));
                double worst = 0.0;
                for (size_t i = 0; i < prim->vertex_count * 3; i++) {
                    double d = fabs((double)out[i] - prim->positions[i]);
                    if (d > worst) worst = d;
                }
                SW_CHECK(worst <= 1e-5);
            }
            free(out);
        }
    }
    free(memory);
    sw_model_free(a);
}

/* Unit normals that point out of the body: each agrees with the winding of
   its triangles, the winding of the closed parts encloses a positive
   volume (double-sided materials, the skirt, are open surfaces and left
   out of it), and a normal points away from the bone of the joint that
   moves its vertex most. */
static void test_normals_and_tangents(void) {
    sw_model* a = load_demo(false);
    if (!a) {
        SW_CHECK(a != NULL);
        return;
    }
    const sw_model_skin* skin = &a->skins[0];
    size_t joints = skin->joint_count;
    sw_pose pose;
    void* memory = pose_new(a, &pose);
    sw_vec3* bone_end = calloc(joints, sizeof *bone_end);
    if (!memory || !bone_end || !pose_at(a, -1, 0.0f, &pose)) {
        SW_CHECK(false);
        free(memory), free(bone_end);
        sw_model_free(a);
        return;
    }
    const sw_mat34* world = pose.world;
    /* A joint's bone runs to its first child joint (a leaf's is a point). */
    for (size_t j = 0; j < joints; j++) {
        const sw_model_node* n = &a->nodes[skin->joints[j]];
        bone_end[j] = origin_of(&world[skin->joints[j]]);
        if (n->child_count) bone_end[j] = origin_of(&world[n->children[0]]);
    }
    size_t vertices = 0, not_unit = 0, outward = 0, bad_tangents = 0, triangles = 0, against_winding = 0;
    double volume = 0.0;
    const sw_model_mesh* mesh = &a->meshes[0];
    for (size_t p = 0; p < mesh->primitive_count; p++) {
        const sw_model_primitive* prim = &mesh->primitives[p];
        for (size_t v = 0; v < prim->vertex_count; v++) {
            sw_vec3 n = sw_vec3_make(prim->normals[v * 3], prim->normals[v * 3 + 1], prim->normals[v * 3 + 2]);
            sw_vec3 pos = sw_vec3_make(prim->positions[v * 3], prim->positions[v * 3 + 1], prim->positions[v * 3 + 2]);
            const float* t = &prim->tangents[v * 4];
            sw_vec3 tangent = sw_vec3_make(t[0], t[1], t[2]);
            not_unit += fabs(sw_vec3_length(n) - 1.0) > 1e-5;
            bad_tangents += fabs(sw_vec3_length(tangent) - 1.0) > 1e-5 || fabs(sw_vec3_dot(tangent, n)) > 1e-4 ||
                            !(t[3] == 1.0f || t[3] == -1.0f);
            int best = 0;
            for (int k = 1; k < prim->influence_count; k++)
                if (prim->weights[v * 4 + (size_t)k] > prim->weights[v * 4 + (size_t)best]) best = k;
            uint16_t j = prim->joints[v * 4 + (size_t)best];
            sw_vec3 start = origin_of(&world[skin->joints[j]]), along = sw_vec3_sub(bone_end[j], start);
            float length2 = sw_vec3_dot(along, along);
            float s = length2 > 0.0f ? sw_vec3_dot(sw_vec3_sub(pos, start), along) / length2 : 0.0f;
            s = s < 0.0f ? 0.0f : s > 1.0f ? 1.0f : s;
            sw_vec3 from_bone = sw_vec3_sub(pos, sw_vec3_add(start, sw_vec3_scale(along, s)));
            outward += sw_vec3_dot(n, from_bone) > 0.0f;
            vertices++;
        }
        bool open_surface = prim->material >= 0 && a->materials[prim->material].double_sided;
        for (size_t i = 0; i + 2 < prim->index_count; i += 3) {
            sw_vec3 c[3], normal_sum = sw_vec3_make(0, 0, 0);
            for (int k = 0; k < 3; k++) {
                uint32_t v = prim->indices[i + (size_t)k];
                c[k] = sw_vec3_make(prim->positions[v * 3], prim->positions[v * 3 + 1], prim->positions[v * 3 + 2]);
                normal_sum = sw_vec3_add(normal_sum, sw_vec3_make(prim->normals[v * 3], prim->normals[v * 3 + 1],
                                                                  prim->normals[v * 3 + 2]));
            }
            sw_vec3 face = sw_vec3_cross(sw_vec3_sub(c[1], c[0]), sw_vec3_sub(c[2], c[0]));
            against_winding += sw_vec3_dot(face, normal_sum) <= 0.0f;
            if (!open_surface) volume += sw_vec3_dot(c[0], sw_vec3_cross(c[1], c[2])) / 6.0;
            triangles++;
        }
    }
    fprintf(stderr, "  %zu of %zu normals point away from their bone; %zu of %zu triangles against their normals;"
                    " enclosed volume %.4f m^3\n",
            outward, vertices, against_winding, triangles, volume);
    SW_CHECK_EQ_INT(not_unit, 0);
    SW_CHECK_EQ_INT(bad_tangents, 0);
    SW_CHECK_EQ_INT(against_winding, 0);
    SW_CHECK(outward * 100 >= vertices * 95);
    SW_CHECK(volume > 0.03 && volume < 0.15); /* a person: about 0.065 m³ */
    free(memory);
    free(bone_end);
    sw_model_free(a);
}

/* Materials tell the regions apart: the face in front of the head with its
   UVs spanning [0,1]², the hair above and behind it. */
static void test_regions(void) {
    sw_model* a = load_demo(false);
    if (!a) {
        SW_CHECK(a != NULL);
        return;
    }
    const char* names[] = {"skin", "face", "hair", "cloth"};
    for (int i = 0; i < 4; i++) SW_CHECK(material_named(a, names[i]) >= 0);
    int face_material = material_named(a, "face"), hair_material = material_named(a, "hair");
    const sw_model_primitive *face = NULL, *hair = NULL;
    const sw_model_mesh* mesh = &a->meshes[0];
    for (size_t p = 0; p < mesh->primitive_count; p++) {
        if (mesh->primitives[p].material == face_material) face = &mesh->primitives[p];
        if (mesh->primitives[p].material == hair_material) hair = &mesh->primitives[p];
    }
    SW_CHECK(face && hair);
    if (!face || !hair) {
        sw_model_free(a);
        return;
    }
    sw_pose pose;
    void* memory = pose_new(a, &pose);
    SW_CHECK(memory != NULL);
    if (memory && pose_at(a, -1, 0.0f, &pose)) {
        sw_vec3 head = origin_of(&pose.world[node_named(a, "head")]);
        float uv_lo[2] = {1e9f, 1e9f}, uv_hi[2] = {-1e9f, -1e9f};
        size_t facing_front = 0;
        for (size_t v = 0; v < face->vertex_count; v++) {
            for (int c = 0; c < 2; c++) {
                float t = face->texcoords[0][v * 2 + (size_t)c];
                if (t < uv_lo[c]) uv_lo[c] = t;
                if (t > uv_hi[c]) uv_hi[c] = t;
            }
            facing_front += face->normals[v * 3 + 2] > 0.0f && face->positions[v * 3 + 2] > head.z;
        }
        for (int c = 0; c < 2; c++) {
            SW_CHECK_NEAR(uv_lo[c], 0.0, 1e-6);
            SW_CHECK_NEAR(uv_hi[c], 1.0, 1e-6);
        }
        SW_CHECK_EQ_INT(facing_front, face->vertex_count);
        /* u grows to the viewer's right (+X), v downwards, as images are stored. */
        for (size_t v = 0; v + 1 < face->vertex_count; v++) {
            size_t w = v + 1;
            if (face->positions[v * 3] < face->positions[w * 3] - 1e-3f)
                SW_CHECK(face->texcoords[0][v * 2] < face->texcoords[0][w * 2]);
            if (face->positions[v * 3 + 1] < face->positions[w * 3 + 1] - 1e-3f)
                SW_CHECK(face->texcoords[0][v * 2 + 1] > face->texcoords[0][w * 2 + 1]);
        }
        /* Hair: above the face's middle or behind the head, and its normals
           point up and back on average. */
        float face_mid = 0.5f * (face->bounds_min[1] + face->bounds_max[1]);
        sw_vec3 mean = sw_vec3_make(0, 0, 0);
        size_t placed = 0;
        for (size_t v = 0; v < hair->vertex_count; v++) {
            placed += hair->positions[v * 3 + 1] > face_mid || hair->positions[v * 3 + 2] < head.z;
            const float* n = &hair->normals[v * 3];
            mean = sw_vec3_add(mean, sw_vec3_make(n[0], n[1], n[2]));
        }
        SW_CHECK_EQ_INT(placed, hair->vertex_count);
        SW_CHECK(mean.y > 0.0f && mean.z < 0.0f);
        SW_CHECK(hair->bounds_max[1] > face->bounds_max[1]);
    }
    free(memory);
    sw_model_free(a);
}

/* ---- the spring bones -------------------------------------------------------------------- */

/* The spring joints hang where they should: a ponytail below the head, a
   skirt of two-joint chains below the pelvis, and sw_spring_read finds them
   in SW_spring_bones with colliders on the head, chest and thighs. */
static void test_spring_chains(void) {
    sw_model* a = load_demo(false);
    if (!a) {
        SW_CHECK(a != NULL);
        return;
    }
    int head = node_named(a, "head"), pelvis = node_named(a, "pelvis");
    /* The ponytail: ponytail_0 a child of the head, each next one a child of the one before. */
    int ponytail = 0;
    for (int k = 0;; k++) {
        char name[32];
        snprintf(name, sizeof name, "ponytail_%d", k);
        int n = node_named(a, name);
        if (n < 0) break;
        SW_CHECK(skin_joint(a, name) >= 0);
        char parent[32];
        snprintf(parent, sizeof parent, "ponytail_%d", k - 1);
        SW_CHECK_EQ_INT(a->nodes[n].parent, k == 0 ? head : node_named(a, parent));
        ponytail++;
    }
    SW_CHECK(ponytail >= 3 && ponytail <= 4);
    /* The skirt: skirt_K_0 a child of the pelvis, skirt_K_1 of skirt_K_0. */
    int skirt_chains = 0;
    for (int c = 0;; c++) {
        char root[32], tip[32];
        snprintf(root, sizeof root, "skirt_%d_0", c);
        snprintf(tip, sizeof tip, "skirt_%d_1", c);
        int r = node_named(a, root), t = node_named(a, tip);
        if (r < 0) break;
        SW_CHECK(t >= 0 && skin_joint(a, root) >= 0 && skin_joint(a, tip) >= 0);
        SW_CHECK_EQ_INT(a->nodes[r].parent, pelvis);
        if (t >= 0) SW_CHECK_EQ_INT(a->nodes[t].parent, r);
        skirt_chains++;
    }
    SW_CHECK(skirt_chains >= 6 && skirt_chains <= 8);

    sw_spring_set* set = NULL;
    sw_diag diag;
    SW_CHECK(sw_spring_read(a, &set, &diag) == SW_OK);
    if (!set) {
        fprintf(stderr, "  spring read: %s\n", diag.message);
        sw_model_free(a);
        return;
    }
    for (size_t i = 0; i < set->warning_count; i++) fprintf(stderr, "  warning: %s\n", set->warnings[i]);
    SW_CHECK_EQ_INT(set->warning_count, 0);
    SW_CHECK_EQ_INT(set->source, SW_SPRING_SOURCE_SINEW);
    SW_CHECK_EQ_INT(set->chain_count, 1 + (size_t)skirt_chains);
    size_t with_colliders = 0;
    for (size_t c = 0; c < set->chain_count; c++) {
        const sw_spring_chain* chain = &set->chains[c];
        const sw_spring_joint* j = &set->joints[chain->first_joint];
        bool is_ponytail = chain->name && strcmp(chain->name, "ponytail") == 0;
        SW_CHECK_EQ_INT(chain->joint_count, is_ponytail ? (size_t)ponytail : 2);
        SW_CHECK_EQ_INT(chain->tail_length, 0.0);
        /* Its first joint hangs from the head (ponytail) or the pelvis (skirt). */
        SW_CHECK_EQ_INT(a->nodes[j[0].node].parent, is_ponytail ? head : pelvis);
        for (size_t k = 1; k < chain->joint_count; k++) SW_CHECK_EQ_INT(a->nodes[j[k].node].parent, (int)j[k - 1].node);
        for (size_t k = 0; k < chain->joint_count; k++)
            SW_CHECK(j[k].stiffness > 0.0f && j[k].gravity_power > 0.0f && j[k].drag_force > 0.0f &&
                     j[k].drag_force < 1.0f && j[k].hit_radius > 0.0f && j[k].gravity_dir.y < 0.0f);
        with_colliders += chain->group_count > 0;
    }
    SW_CHECK_EQ_INT(with_colliders, set->chain_count);
    /* Spheres on the head, the chest and both thighs. */
    const char* on[] = {"head", "chest", "thigh_l", "thigh_r"};
    for (int i = 0; i < 4; i++) {
        bool found = false;
        for (size_t c = 0; c < set->collider_count; c++)
            found |= (int)set->colliders[c].node == node_named(a, on[i]) &&
                     set->colliders[c].shape == SW_SPRING_SPHERE && set->colliders[c].radius > 0.03f;
        if (!found) fprintf(stderr, "  no collider on %s\n", on[i]);
        SW_CHECK(found);
    }
    sw_spring_sizes sizes;
    SW_CHECK(sw_spring_sizes_of(a, set, &sizes, &diag) == SW_OK);
    SW_CHECK_EQ_INT(sizes.bone_count, (size_t)ponytail - 1 + (size_t)skirt_chains);
    sw_spring_set_free(set);
    sw_model_free(a);
}

/* Two seconds of walking at 30 frames per second (the spring at its 60 Hz
   step): every tail stays within its chain's rest length of the chain's
   root and, within 1 mm, outside every collider of its groups (radius plus
   hit radius); nothing is lost to NaN; and the chains move against the plain
   animation (the springs do something). */
static void test_springs_over_walk(void) {
    sw_model* a = load_demo(false);
    int anim = a ? animation_named(a, "walk") : -1;
    SW_CHECK(anim >= 0);
    sw_spring_set* set = NULL;
    sw_diag diag;
    if (anim < 0 || sw_spring_read(a, &set, &diag) != SW_OK || !set) {
        SW_CHECK(false);
        sw_model_free(a);
        return;
    }
    sw_spring_sizes sizes;
    sw_spring_state state;
    sw_pose pose, plain;
    void* pose_memory = pose_new(a, &pose);
    void* plain_memory = pose_new(a, &plain);
    void* memory = NULL;
    bool ready = pose_memory && plain_memory && sw_spring_sizes_of(a, set, &sizes, &diag) == SW_OK &&
                 (memory = aligned_alloc(16, (sw_spring_memory_size(&sizes) + 15) / 16 * 16)) != NULL &&
                 sw_spring_init(&state, &sizes, memory, a, set, NULL, &diag) == SW_OK;
    SW_CHECK(ready);
    /* The rest length of each chain, root to tip along its bones. */
    double* reach = calloc(set->chain_count, sizeof *reach);
    if (ready && reach && pose_at(a, -1, 0.0f, &pose)) {
        for (size_t c = 0; c < set->chain_count; c++) {
            const sw_spring_joint* j = &set->joints[set->chains[c].first_joint];
            for (size_t k = 1; k < set->chains[c].joint_count; k++)
                reach[c] += sw_vec3_length(sw_vec3_sub(origin_of(&pose.world[j[k].node]),
                                                       origin_of(&pose.world[j[k - 1].node])));
        }
    }
    const sw_clip* clip = anim >= 0 ? &a->animations[anim] : NULL;
    size_t frames = 0, too_far = 0, inside = 0, not_finite = 0;
    double worst_depth = 0.0, moved_ponytail = 0.0, moved_skirt = 0.0;
    for (int f = 0; ready && reach && f <= 60; f++) {
        float t = (float)f / 30.0f;
        /* the walk loops: sample it at t modulo its duration */
        float clip_time = fmodf(t, clip->duration);
        if (sw_pose_sample(a, clip, clip_time, true, &pose, &diag) != SW_OK ||
            sw_pose_sample(a, clip, clip_time, true, &plain, &diag) != SW_OK) {
            SW_CHECK(false);
            break;
        }
        sw_pose_update_world(a, &pose);
        sw_pose_update_world(a, &plain);
        sw_spring_update(&state, a, set, &pose, f == 0 ? 0.0f : 1.0f / 30.0f);
        sw_pose_update_world(a, &pose);
        frames++;
        for (size_t c = 0; c < set->chain_count; c++) {
            const sw_spring_chain* chain = &set->chains[c];
            const sw_spring_joint* j = &set->joints[chain->first_joint];
            sw_vec3 root = origin_of(&pose.world[j[0].node]);
            bool is_ponytail = chain->name && strcmp(chain->name, "ponytail") == 0;
            for (size_t k = 1; k < chain->joint_count; k++) {
                sw_vec3 tail = origin_of(&pose.world[j[k].node]);
                not_finite += !(isfinite(tail.x) && isfinite(tail.y) && isfinite(tail.z));
                too_far += sw_vec3_length(sw_vec3_sub(tail, root)) > reach[c] + 1e-4;
                double moved = sw_vec3_length(sw_vec3_sub(tail, origin_of(&plain.world[j[k].node])));
                double* most = is_ponytail ? &moved_ponytail : &moved_skirt;
                if (moved > *most) *most = moved;
                for (size_t g = 0; g < chain->group_count; g++) {
                    const sw_spring_collider_group* group = &set->groups[set->chain_groups[chain->first_group + g]];
                    for (size_t i = 0; i < group->collider_count; i++) {
                        uint32_t index = set->group_colliders[group->first_collider + i];
                        const sw_spring_collider* col = &set->colliders[index];
                        sw_vec3 centre = sw_mat34_apply_point(&pose.world[col->node], col->offset);
                        double depth = col->radius + j[k - 1].hit_radius - sw_vec3_length(sw_vec3_sub(tail, centre));
                        if (depth > worst_depth) worst_depth = depth;
                        inside += depth > 1e-3;
                    }
                }
            }
        }
    }
    fprintf(stderr, "  %zu frames: deepest tail %.5f m into a collider; tails moved up to %.3f m (ponytail), "
                    "%.3f m (skirt) from the plain walk\n",
            frames, worst_depth, moved_ponytail, moved_skirt);
    SW_CHECK_EQ_INT(frames, 61);
    SW_CHECK_EQ_INT(not_finite, 0);
    SW_CHECK_EQ_INT(too_far, 0);
    SW_CHECK_EQ_INT(inside, 0);
    SW_CHECK(moved_ponytail > 0.01 && moved_skirt > 0.005);
    free(reach);
    free(memory);
    free(pose_memory);
    free(plain_memory);
    sw_spring_set_free(set);
    sw_model_free(a);
}

/* ---- the clips ---------------------------------------------------------------------------- */

static double rotation_angle_deg(sw_quat q) {
    double w = fabs((double)q.w);
    return 2.0 * acos(w > 1.0 ? 1.0 : w) * 180.0 / SW_PI;
}

static void test_clips_exist(void) {
    sw_model* a = load_demo(false);
    if (!a) {
        SW_CHECK(a != NULL);
        return;
    }
    const char* names[] = {"walk", "wave", "twist", "idle", "run", "walk_left", "walk_right"};
    SW_CHECK_EQ_INT(a->animation_count, 7);
    for (int i = 0; i < 7; i++) {
        int anim = animation_named(a, names[i]);
        SW_CHECK(anim >= 0);
        if (anim < 0) continue;
        const sw_clip* clip = &a->animations[anim];
        SW_CHECK(clip->track_count > 0);
        SW_CHECK(clip->duration >= 0.6f && clip->duration <= 3.0f);
        for (size_t t = 0; t < clip->track_count; t++) SW_CHECK(clip->tracks[t].interpolation != SW_INTERP_STEP);
    }
    sw_model_free(a);
}

/* Walk: the last pose is the first (it loops), and between them the legs
   swing and the pelvis moves. */
static void test_walk_loops(void) {
    sw_model* a = load_demo(false);
    int anim = a ? animation_named(a, "walk") : -1;
    SW_CHECK(anim >= 0);
    if (anim < 0) {
        sw_model_free(a);
        return;
    }
    const sw_clip* clip = &a->animations[anim];
    sw_pose first_pose, last_pose, middle_pose;
    void* first_memory = pose_new(a, &first_pose);
    void* last_memory = pose_new(a, &last_pose);
    void* middle_memory = pose_new(a, &middle_pose);
    const sw_transform *first = first_pose.local, *last = last_pose.local, *middle = middle_pose.local;
    if (first_memory && last_memory && middle_memory && pose_at(a, anim, clip->start, &first_pose) &&
        pose_at(a, anim, clip->duration, &last_pose) &&
        pose_at(a, anim, clip->start + 0.25f * (clip->duration - clip->start), &middle_pose)) {
        for (size_t n = 0; n < a->node_count; n++) {
            SW_CHECK_NEAR(sw_vec3_length(sw_vec3_sub(first[n].translation, last[n].translation)), 0.0, 1e-6);
            SW_CHECK_NEAR(fabs(sw_quat_dot(first[n].rotation, last[n].rotation)), 1.0, 1e-6);
        }
        int thigh = node_named(a, "thigh_l"), pelvis = node_named(a, "pelvis");
        sw_quat swing = sw_quat_mul(sw_quat_conjugate(first[thigh].rotation), middle[thigh].rotation);
        SW_CHECK(rotation_angle_deg(swing) > 10.0);
        SW_CHECK(sw_vec3_length(sw_vec3_sub(first[pelvis].translation, middle[pelvis].translation)) > 0.005f);
    }
    free(first_memory);
    free(last_memory);
    free(middle_memory);
    sw_model_free(a);
}

/* The locomotion clips loop (the last pose is the first); walk_left and
   walk_right turn the head to the character's left (+X) and right, and
   lean the body into the turn; run's feet leave the ground higher than
   walk's (its knees come up). */
static void test_locomotion_clips(void) {
    sw_model* a = load_demo(false);
    if (!a) {
        SW_CHECK(a != NULL);
        return;
    }
    sw_pose p0, p1;
    void* m0 = pose_new(a, &p0);
    void* m1 = pose_new(a, &p1);
    const char* loops[] = {"idle", "run", "walk_left", "walk_right"};
    for (int i = 0; i < 4 && m0 && m1; i++) {
        int anim = animation_named(a, loops[i]);
        const sw_clip* clip = &a->animations[anim];
        if (!pose_at(a, anim, clip->start, &p0) || !pose_at(a, anim, clip->duration, &p1)) continue;
        double worst = 0;
        for (size_t n = 0; n < a->node_count; n++)
            worst = fmax(worst, sw_vec3_length(sw_vec3_sub(origin_of(&p0.world[n]), origin_of(&p1.world[n]))));
        SW_CHECK(worst < 1e-6);
    }
    int head = node_named(a, "head"), pelvis = node_named(a, "pelvis"), neck = node_named(a, "neck");
    for (int side = 0; side < 2 && m0; side++) {
        int anim = animation_named(a, side == 0 ? "walk_left" : "walk_right");
        float sign = side == 0 ? 1.0f : -1.0f;
        if (!pose_at(a, anim, 0.25f, &p0)) continue;
        const sw_mat34* h = &p0.world[head];
        SW_CHECK(sign * h->m[0][2] > 0.2f); /* the head's +Z (its face) turned towards the side */
        SW_CHECK(sign * (origin_of(&p0.world[neck]).x - origin_of(&p0.world[pelvis]).x) > 0.02f);
    }
    float lift[2] = {0, 0};
    const char* gaits[2] = {"walk", "run"};
    for (int g = 0; g < 2 && m0; g++) {
        int anim = animation_named(a, gaits[g]);
        for (int k = 0; k <= 20; k++) {
            if (!pose_at(a, anim, a->animations[anim].duration * (float)k / 20.0f, &p0)) break;
            float y = origin_of(&p0.world[node_named(a, "foot_l")]).y - origin_of(&p0.world[node_named(a, "foot_r")]).y;
            lift[g] = fmaxf(lift[g], fabsf(y));
        }
    }
    SW_CHECK(lift[1] > 1.5f * lift[0]);
    free(m0);
    free(m1);
    sw_model_free(a);
}

/* Wave: halfway through, the right hand is above the head and the left
   one is not. */
static void test_wave_raises_right_hand(void) {
    sw_model* a = load_demo(false);
    int anim = a ? animation_named(a, "wave") : -1;
    SW_CHECK(anim >= 0);
    if (anim < 0) {
        sw_model_free(a);
        return;
    }
    sw_pose pose;
    void* memory = pose_new(a, &pose);
    if (memory && pose_at(a, anim, 0.5f * a->animations[anim].duration, &pose)) {
        const sw_mat34* world = pose.world;
        float head_y = origin_of(&world[node_named(a, "head")]).y;
        SW_CHECK(origin_of(&world[node_named(a, "hand_r")]).y > head_y);
        SW_CHECK(origin_of(&world[node_named(a, "hand_l")]).y < head_y);
    }
    free(memory);
    sw_model_free(a);
}

/* Twist: halfway through, each forearm_twist joint has turned ≥ 160° about
   the forearm relative to the forearm, and nothing else has moved. Linear
   blend skinning then pulls the forearm in towards its axis (the candy
   wrapper) while DQS keeps its radius. */
static void test_twist_lbs_collapses_dqs_keeps(void) {
    sw_model* a = load_demo(false);
    int anim = a ? animation_named(a, "twist") : -1;
    SW_CHECK(anim >= 0);
    if (anim < 0) {
        sw_model_free(a);
        return;
    }
    size_t nodes = a->node_count;
    sw_pose rest_pose, posed_pose;
    void* rest_memory = pose_new(a, &rest_pose);
    void* posed_memory = pose_new(a, &posed_pose);
    if (!rest_memory || !posed_memory || !pose_at(a, anim, 0.5f * a->animations[anim].duration, &posed_pose) ||
        !pose_at(a, -1, 0.0f, &rest_pose)) {
        SW_CHECK(false);
        goto done;
    }
    const sw_transform *rest = rest_pose.local, *posed = posed_pose.local;
    const sw_mat34 *rest_world = rest_pose.world, *world = posed_pose.world;

    const char* sides[2][3] = {{"forearm_l", "forearm_twist_l", "hand_l"}, {"forearm_r", "forearm_twist_r", "hand_r"}};
    int twist_nodes[2];
    for (int side = 0; side < 2; side++) {
        int forearm = node_named(a, sides[side][0]), twist = node_named(a, sides[side][1]),
            hand = node_named(a, sides[side][2]);
        twist_nodes[side] = twist;
        /* The twist joint's rotation relative to the forearm, in the forearm's frame. */
        sw_mat34 forearm_inverse;
        SW_CHECK(sw_mat34_inverse(&forearm_inverse, &world[forearm]));
        sw_mat34 relative = sw_mat34_mul(&forearm_inverse, &world[twist]);
        sw_quat q = sw_quat_from_mat34(&relative);
        double angle = rotation_angle_deg(q);
        sw_vec3 axis = sw_vec3_normalize(sw_vec3_make(q.x, q.y, q.z));
        sw_vec3 forearm_axis = sw_vec3_normalize(inverse_rotate(
            &rest_world[forearm], sw_vec3_sub(origin_of(&rest_world[hand]), origin_of(&rest_world[forearm]))));
        fprintf(stderr, "  %s: %.2f degrees, |axis . forearm| = %.6f\n", sides[side][1], angle,
                fabs(sw_vec3_dot(axis, forearm_axis)));
        SW_CHECK(angle >= 160.0);
        SW_CHECK(fabs(sw_vec3_dot(axis, forearm_axis)) > 0.999);
    }
    for (size_t n = 0; n < nodes; n++) {
        if ((int)n == twist_nodes[0] || (int)n == twist_nodes[1]) continue;
        SW_CHECK_NEAR(fabs(sw_quat_dot(rest[n].rotation, posed[n].rotation)), 1.0, 1e-6);
        SW_CHECK_NEAR(sw_vec3_length(sw_vec3_sub(rest[n].translation, posed[n].translation)), 0.0, 1e-6);
    }

    /* Forearm vertices: weighted between forearm and forearm_twist (both
       at least 0.2). Their mean distance from the forearm's axis. */
    for (int side = 0; side < 2; side++) {
        int forearm_joint = skin_joint(a, sides[side][0]), twist_joint = skin_joint(a, sides[side][1]);
        int forearm = node_named(a, sides[side][0]), hand = node_named(a, sides[side][2]);
        double sum_rest = 0.0, sum_lbs = 0.0, sum_dqs = 0.0;
        size_t count = 0;
        const sw_model_mesh* mesh = &a->meshes[0];
        for (size_t p = 0; p < mesh->primitive_count; p++) {
            const sw_model_primitive* prim = &mesh->primitives[p];
            float* lbs = malloc(prim->vertex_count * 3 * sizeof *lbs);
            float* dqs = malloc(prim->vertex_count * 3 * sizeof *dqs);
            if (!lbs || !dqs || !deform(a, p, &posed_pose, SW_SKIN_LBS, lbs) ||
                !deform(a, p, &posed_pose, SW_SKIN_DQS, dqs)) {
                SW_CHECK(false);
                free(lbs), free(dqs);
                continue;
            }
            for (size_t v = 0; v < prim->vertex_count; v++) {
                float w_forearm = 0.0f, w_twist = 0.0f;
                for (int k = 0; k < prim->influence_count; k++) {
                    uint16_t j = prim->joints[v * 4 + (size_t)k];
                    float w = prim->weights[v * 4 + (size_t)k];
                    if (j == forearm_joint) w_forearm += w;
                    if (j == twist_joint) w_twist += w;
                }
                if (!(w_forearm >= 0.2f && w_twist >= 0.2f && w_forearm + w_twist > 0.999f)) continue;
                const float* positions[3] = {&prim->positions[v * 3], &lbs[v * 3], &dqs[v * 3]};
                const sw_mat34* frames[3] = {rest_world, world, world};
                double* sums[3] = {&sum_rest, &sum_lbs, &sum_dqs};
                for (int m = 0; m < 3; m++) {
                    sw_vec3 start = origin_of(&frames[m][forearm]);
                    sw_vec3 axis = sw_vec3_normalize(sw_vec3_sub(origin_of(&frames[m][hand]), start));
                    sw_vec3 d = sw_vec3_sub(sw_vec3_make(positions[m][0], positions[m][1], positions[m][2]), start);
                    *sums[m] += sw_vec3_length(sw_vec3_sub(d, sw_vec3_scale(axis, sw_vec3_dot(d, axis))));
                }
                count++;
            }
            free(lbs);
            free(dqs);
        }
        SW_CHECK(count >= 50);
        if (!count) continue;
        double rest_mean = sum_rest / count, lbs_mean = sum_lbs / count, dqs_mean = sum_dqs / count;
        fprintf(stderr, "  %s: %zu forearm vertices, mean radius rest %.5f, LBS %.5f, DQS %.5f\n", sides[side][0],
                count, rest_mean, lbs_mean, dqs_mean);
        SW_CHECK(fabs(dqs_mean - rest_mean) <= 0.03 * rest_mean);
        SW_CHECK(lbs_mean <= 0.75 * dqs_mean);
    }
done:
    free(rest_memory);
    free(posed_memory);
    sw_model_free(a);
}

/* ---- the toon materials (SW_materials_toon) ---------------------------------------------------- */

/* The GLB's JSON chunk as a string (the shared bytes), or NULL. */
static char* json_chunk(void) {
    if (!shared_glb || shared_glb_size < 20) return NULL;
    const uint8_t* glb = shared_glb;
    uint32_t length = read_u32(glb + 12);
    char* text = malloc((size_t)length + 1);
    if (!text) return NULL;
    memcpy(text, glb + 20, length);
    text[length] = '\0';
    return text;
}

/* The extension is declared as used (viewers that do not know it show the
   metallic-roughness fallback), never as required, and sits on every
   material. */
static void test_toon_extension(void) {
    char* json = json_chunk();
    SW_CHECK(json != NULL);
    if (json) {
        const char* used = strstr(json, "\"extensionsUsed\":[");
        const char* end = used ? strchr(used, ']') : NULL;
        const char* name = used ? strstr(used, "\"SW_materials_toon\"") : NULL;
        SW_CHECK(used && end && name && name < end);
        SW_CHECK(strstr(json, "extensionsRequired") == NULL);
    }
    free(json);
    sw_model* a = load_demo(false);
    SW_CHECK(a != NULL);
    if (!a) return;
    SW_CHECK_EQ_INT(a->material_count, 6);
    for (size_t m = 0; m < a->material_count; m++)
        SW_CHECK(sw_model_find_extension(a, "SW_materials_toon", SW_MODEL_OBJECT_MATERIAL, (uint32_t)m) != NULL);
    sw_model_free(a);
}

static double luma(const float* rgb) { return 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]; }

static double srgb_to_linear(double s) { return s <= 0.04045 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4); }

/* A texture reference's image, decoded (free with sw_model_image_free), or
   NULL when the reference is missing or broken. */
static uint8_t* decode_ref(const sw_model* a, const sw_model_texture_ref* ref, int* w, int* h) {
    if (ref->texture < 0 || (size_t)ref->texture >= a->texture_count) return NULL;
    int32_t image = a->textures[ref->texture].image;
    if (image < 0 || (size_t)image >= a->image_count) return NULL;
    uint8_t* pixels = NULL;
    sw_diag diag;
    if (sw_model_decode_image(a, (size_t)image, &pixels, w, h, &diag) != SW_OK) {
        fprintf(stderr, "  image %d: %s\n", image, diag.message);
        return NULL;
    }
    return pixels;
}

/* The mean linear colour a material shows in light: its base colour
   factor times its base colour texture's mean. */
static void mean_base_color(const sw_model* a, const sw_model_material* mat, float out[3]) {
    double sum[3] = {1.0, 1.0, 1.0};
    int w = 0, h = 0;
    uint8_t* pixels = decode_ref(a, &mat->base_color_texture, &w, &h);
    if (pixels) {
        sum[0] = sum[1] = sum[2] = 0.0;
        for (size_t i = 0; i < (size_t)w * (size_t)h; i++)
            for (int c = 0; c < 3; c++) sum[c] += srgb_to_linear(pixels[i * 4 + (size_t)c] / 255.0);
        for (int c = 0; c < 3; c++) sum[c] /= (double)w * h;
        sw_model_image_free(pixels);
    }
    for (int c = 0; c < 3; c++) out[c] = (float)(sum[c] * mat->base_color_factor[c]);
}

/* sw_toon_read takes every material without a warning; kinds, the face's
   head joint and mirror, glints and bands where they belong (the skirt's
   two sets and the hair's bands are the frame analysis' numbers), and an
   outline darker than what it outlines. */
static void test_toon_materials(void) {
    sw_model* a = load_demo(false);
    SW_CHECK(a != NULL);
    if (!a) return;
    sw_toon_material* toon = calloc(a->material_count, sizeof *toon);
    sw_diag diag;
    memset(&diag, 0, sizeof diag);
    sw_result r = sw_toon_read(a, toon, &diag);
    if (r != SW_OK || diag.message[0]) fprintf(stderr, "  sw_toon_read: %s\n", diag.message);
    SW_CHECK(r == SW_OK && diag.message[0] == '\0');
    if (r != SW_OK || !toon) {
        free(toon);
        sw_model_free(a);
        return;
    }
    const struct {
        const char* name;
        sw_toon_kind kind;
        int glints;
    } expected[] = {{"skin", SW_TOON_BODY, 0},  {"face", SW_TOON_FACE, 0},  {"hair", SW_TOON_HAIR, 2},
                    {"cloth", SW_TOON_BODY, 0}, {"shoes", SW_TOON_BODY, 0}, {"skirt", SW_TOON_BODY, 2}};
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++) {
        int m = material_named(a, expected[i].name);
        SW_CHECK(m >= 0);
        if (m < 0) continue;
        const sw_toon_material* t = &toon[m];
        SW_CHECK(t->present && t->source == SW_TOON_SOURCE_SW);
        SW_CHECK_EQ_INT(t->kind, expected[i].kind);
        SW_CHECK_EQ_INT(t->glint_count, expected[i].glints);
        SW_CHECK(t->control_texture.texture >= 0 && t->ramp_texture.texture >= 0);
        SW_CHECK(t->outline && t->outline_width > 0.0f);
        float base[3];
        mean_base_color(a, &a->materials[m], base);
        if (!(luma(t->outline_color) < 0.6 * luma(base)))
            fprintf(stderr, "  %s: outline luma %.4f, material %.4f\n", expected[i].name, luma(t->outline_color),
                    luma(base));
        SW_CHECK(luma(t->outline_color) < 0.6 * luma(base));
        /* The shade colour darkens (a multiplier below 1 on every channel). */
        for (int c = 0; c < 3; c++) SW_CHECK(t->shade_color[c] < 1.0f);
    }
    int face = material_named(a, "face"), skirt = material_named(a, "skirt"), hair = material_named(a, "hair");
    if (face >= 0) {
        SW_CHECK(toon[face].face_sdf_texture.texture >= 0);
        SW_CHECK_EQ_INT(toon[face].head_node, node_named(a, "head"));
        SW_CHECK(toon[face].sdf_mirror);
        SW_CHECK(toon[face].sdf_steepness >= 100.0f);
    }
    if (skirt >= 0) {
        const sw_toon_material* t = &toon[skirt];
        SW_CHECK(t->back_uv1);
        const float grid[2] = {100.0f, 107.69f}, spot[2] = {0.015f, 0.05f}, rate[2] = {0.5f, 0.87f},
                    width[2] = {0.2f, 0.4f}, luma_lerp[2] = {1.0f, 0.0f}, camera[2] = {2.0f, 3.0f},
                    color[2][3] = {{1.472f, 1.211f, 0.944f}, {1.052f, 0.0068f, 0.0497f}};
        for (int g = 0; g < 2 && g < t->glint_count; g++) {
            SW_CHECK_NEAR(t->glints[g].grid, grid[g], 1e-4);
            SW_CHECK_NEAR(t->glints[g].spot_scale, spot[g], 1e-6);
            SW_CHECK_NEAR(t->glints[g].phase_rate, rate[g], 1e-6);
            SW_CHECK_NEAR(t->glints[g].active_width, width[g], 1e-6);
            SW_CHECK_NEAR(t->glints[g].intensity, 1.68, 1e-6);
            SW_CHECK_NEAR(t->glints[g].luma_lerp, luma_lerp[g], 1e-6);
            SW_CHECK_NEAR(t->glints[g].camera_scale, camera[g], 1e-6);
            for (int c = 0; c < 3; c++) SW_CHECK_NEAR(t->glints[g].color[c], color[g][c], 1e-6);
        }
    }
    if (hair >= 0) {
        const sw_toon_material* t = &toon[hair];
        const float exponent[2] = {6.4f, 5.0f}, upper[2] = {0.844f, 0.773f}, intensity[2] = {0.099f, 0.399f};
        for (int i = 0; i < 2; i++) {
            SW_CHECK_NEAR(t->band_exponent[i], exponent[i], 1e-6);
            SW_CHECK_NEAR(t->band_upper[i], upper[i], 1e-6);
            SW_CHECK_NEAR(t->band_intensity[i], intensity[i], 1e-6);
        }
        SW_CHECK_NEAR(t->view_lift, -0.06, 1e-6);
        SW_CHECK(t->glint_count >= 1 && t->glints[0].grid == 100.0f && t->glints[0].active_width == 0.243f);
    }
    free(toon);
    sw_model_free(a);
}

/* The group (1..3 used) of a control texel's alpha, with groups 1-3 on. */
static int control_group(uint8_t alpha) {
    const bool enabled[SW_TOON_REGION_COUNT] = {true, true, true, false, false};
    return sw_toon_region(alpha / 255.0f, enabled);
}

/* Each texture holds what its role says: ramps of sinew/toon.h's layout
   (two equal rows per band, dark end darker than the lit end, night rows
   darker than day rows); control maps with G = 0.5 on most texels and some
   darker, the skirt's with three region groups (body, hem stripes, lining);
   the hair map's B a sparse glint mask and A several tiers; the face map
   baked for the head (a threshold near 0.5 down the middle of the face,
   and the two sides on opposite sides of it). */
static void test_toon_textures(void) {
    sw_model* a = load_demo(false);
    SW_CHECK(a != NULL);
    if (!a) return;
    sw_toon_material* toon = calloc(a->material_count, sizeof *toon);
    sw_diag diag;
    if (!toon || sw_toon_read(a, toon, &diag) != SW_OK) {
        SW_CHECK(false);
        free(toon);
        sw_model_free(a);
        return;
    }
    for (size_t m = 0; m < a->material_count; m++) {
        int w = 0, h = 0;
        uint8_t* ramp = decode_ref(a, &toon[m].ramp_texture, &w, &h);
        SW_CHECK(ramp != NULL);
        if (ramp) {
            SW_CHECK(w == SW_TOON_RAMP_WIDTH && h == SW_TOON_RAMP_HEIGHT);
            size_t row_bytes = (size_t)w * 4;
            for (int band = 0; band < 10 && h == SW_TOON_RAMP_HEIGHT; band++) {
                const uint8_t* first = ramp + (size_t)(2 * band) * row_bytes;
                SW_CHECK(memcmp(first, first + row_bytes, row_bytes) == 0);
                SW_CHECK(first[0] + first[1] + first[2] < first[row_bytes - 4] + first[row_bytes - 3] +
                                                              first[row_bytes - 2]);
                if (band < 5) {
                    const uint8_t* night = ramp + (size_t)(2 * band + 10) * row_bytes;
                    for (int c = 0; c < 3; c++) SW_CHECK(night[c] <= first[c]);
                    SW_CHECK(night[0] + night[1] + night[2] < first[0] + first[1] + first[2]);
                }
            }
            /* The lit end of a day row is white: the lit side is not tinted. */
            for (int c = 0; c < 3; c++) SW_CHECK(ramp[row_bytes - 4 + (size_t)c] >= 250);
            sw_model_image_free(ramp);
        }
        uint8_t* control = decode_ref(a, &toon[m].control_texture, &w, &h);
        SW_CHECK(control != NULL);
        if (control) {
            size_t n = (size_t)w * (size_t)h, half = 0, darker = 0, groups[4] = {0, 0, 0, 0};
            for (size_t i = 0; i < n; i++) {
                half += control[i * 4 + 1] == 128;
                darker += control[i * 4 + 1] < 110;
                int g = control_group(control[i * 4 + 3]);
                groups[g <= 3 ? g : 0]++;
            }
            SW_CHECK(half * 2 > n);
            if (strcmp(a->materials[m].name, "skirt") == 0) {
                fprintf(stderr, "  skirt control: %zu / %zu / %zu texels in groups 1 / 2 / 3, %zu darker\n", groups[1],
                        groups[2], groups[3], darker);
                SW_CHECK(groups[1] > 0 && groups[2] > 0 && groups[3] > 0);
                SW_CHECK(darker > 0);
            }
            sw_model_image_free(control);
        }
    }
    int hair = material_named(a, "hair");
    const sw_model_extension* ext =
        hair >= 0 ? sw_model_find_extension(a, "SW_materials_toon", SW_MODEL_OBJECT_MATERIAL, (uint32_t)hair) : NULL;
    /* The glint mask map: the extension's normalTexture (not the core one). */
    const char* key = ext ? strstr(ext->json, "\"normalTexture\":{\"index\":") : NULL;
    SW_CHECK(key != NULL);
    if (key && hair >= 0) {
        SW_CHECK(a->materials[hair].normal_texture.texture < 0);
        sw_model_texture_ref ref = {.texture = atoi(key + strlen("\"normalTexture\":{\"index\":"))};
        int w = 0, h = 0;
        uint8_t* map = decode_ref(a, &ref, &w, &h);
        SW_CHECK(map != NULL);
        if (map) {
            size_t n = (size_t)w * (size_t)h, on = 0, off = 0;
            bool tier[4] = {false, false, false, false};
            for (size_t i = 0; i < n; i++) {
                on += map[i * 4 + 2] > 200;
                off += map[i * 4 + 2] < 20;
                tier[map[i * 4 + 3] >= 191 ? 3 : map[i * 4 + 3] >= 128 ? 2 : map[i * 4 + 3] >= 64 ? 1 : 0] = true;
            }
            fprintf(stderr, "  hair glint mask: %zu texels on, %zu off of %zu\n", on, off, n);
            SW_CHECK(on > n / 200 && off > n / 3); /* the hair covers a small part of the atlas */
            SW_CHECK(tier[0] && tier[1] && tier[2] && tier[3]);
            sw_model_image_free(map);
        }
    }
    int face = material_named(a, "face");
    int w = 0, h = 0;
    uint8_t* sdf = face >= 0 ? decode_ref(a, &toon[face].face_sdf_texture, &w, &h) : NULL;
    SW_CHECK(sdf != NULL);
    if (sdf) {
        /* The threshold across the row at the eyes' height, 40 % down the face. */
        int y = (int)(0.4f * (float)h);
        float t[3];
        const float u[3] = {0.2f, 0.5f, 0.8f};
        for (int k = 0; k < 3; k++) {
            const uint8_t* texel = &sdf[((size_t)y * (size_t)w + (size_t)(u[k] * (float)w)) * 4];
            t[k] = sw_toon_face_texel(texel[0] / 255.0f, texel[3] / 255.0f);
        }
        fprintf(stderr, "  face map %dx%d: thresholds %.3f %.3f %.3f across the eyes\n", w, h, t[0], t[1], t[2]);
        SW_CHECK(w == h && w >= 64);
        SW_CHECK_NEAR(t[1], 0.5, 0.08);
        SW_CHECK((t[0] - 0.5f) * (t[2] - 0.5f) < 0.0f);
        SW_CHECK(fabsf(t[0] - 0.5f) > 0.15f && fabsf(t[2] - 0.5f) > 0.15f);
        /* The map is baked at build time (demo_face_sdf_gen): it must be
           what sw_toon_bake_face_sdf makes of this face now, byte for byte. */
        int32_t head = -1;
        for (size_t n = 0; n < a->node_count; n++)
            if (a->nodes[n].name && strcmp(a->nodes[n].name, "head") == 0) head = (int32_t)n;
        uint8_t* fresh = malloc((size_t)w * (size_t)h * 4);
        SW_CHECK(head >= 0 && fresh);
        if (head >= 0 && fresh) {
            SW_CHECK_EQ_INT(sw_toon_bake_face_sdf(a, (uint32_t)face, (uint32_t)head, w, fresh, &diag), SW_OK);
            size_t differ = 0;
            for (size_t i = 0; i < (size_t)w * (size_t)h * 4; i++) differ += fresh[i] != sdf[i];
            fprintf(stderr, "  face map against a fresh bake: %zu bytes differ\n", differ);
            SW_CHECK_EQ_INT(differ, 0);
        }
        free(fresh);
        sw_model_image_free(sdf);
    }
    free(toon);
    sw_model_free(a);
}

/* The skirt: double-sided, with TEXCOORD_1 (the lining) on its vertices
   only, in the other half of its textures than TEXCOORD_0; open at the hem
   (edges used by one triangle only), where every other part is closed. */
static void test_double_sided_skirt(void) {
    sw_model* a = load_demo(false);
    SW_CHECK(a != NULL);
    if (!a) return;
    int skirt = material_named(a, "skirt");
    SW_CHECK(skirt >= 0 && a->materials[skirt].double_sided);
    const sw_model_mesh* mesh = &a->meshes[0];
    for (size_t p = 0; p < mesh->primitive_count; p++) {
        const sw_model_primitive* prim = &mesh->primitives[p];
        bool is_skirt = prim->material == skirt;
        SW_CHECK_EQ_INT(prim->texcoord_count, is_skirt ? 2 : 1);
        if (prim->material >= 0 && !is_skirt) SW_CHECK(!a->materials[prim->material].double_sided);
        if (!is_skirt || prim->texcoord_count < 2) continue;
        size_t outside = 0;
        for (size_t v = 0; v < prim->vertex_count; v++) {
            float v0 = prim->texcoords[0][v * 2 + 1], v1 = prim->texcoords[1][v * 2 + 1];
            outside += !(v0 >= 0.0f && v0 <= 0.5f && v1 >= 0.5f && v1 <= 1.0f);
            outside += prim->texcoords[0][v * 2] != prim->texcoords[1][v * 2];
        }
        SW_CHECK_EQ_INT(outside, 0);
        /* Boundary edges: each (a, b) pair used once. Count by matching
           every edge against all others (a few thousand: fine here). */
        size_t edges = prim->index_count, boundary = 0;
        for (size_t e = 0; e < edges; e++) {
            uint32_t ea = prim->indices[e], eb = prim->indices[e % 3 == 2 ? e - 2 : e + 1];
            bool shared = false;
            for (size_t f = 0; f < edges && !shared; f++) {
                uint32_t fa = prim->indices[f], fb = prim->indices[f % 3 == 2 ? f - 2 : f + 1];
                shared = fa == eb && fb == ea;
            }
            boundary += !shared;
        }
        fprintf(stderr, "  skirt: %zu vertices, %zu open edges\n", prim->vertex_count, boundary);
        SW_CHECK(boundary >= 40); /* the hem's ring (the UV seam splits vertices too, on both rims) */
    }
    sw_model_free(a);
}

/* ---- the file written by `sinew demo-asset` ------------------------------------------------ */

static const char* round_trip_sinew;
static const char* round_trip_dir;

static void test_round_trip_through_file(void) {
    char path[4096], command[9000];
    snprintf(path, sizeof path, "%s/demo.glb", round_trip_dir);
    if (strchr(round_trip_sinew, '\'') || strchr(path, '\'')) SW_SKIP("paths with quotes");
    mkdir(round_trip_dir, 0777);
    remove(path);
    snprintf(command, sizeof command, "'%s' demo-asset -o '%s'", round_trip_sinew, path);
    SW_CHECK_EQ_INT(system(command), 0);

    size_t size = 0;
    uint8_t* memory = demo_bytes(&size);
    FILE* f = fopen(path, "rb");
    SW_CHECK(memory && f);
    if (memory && f) {
        void* file = malloc(size + 1);
        size_t got = file ? fread(file, 1, size + 1, f) : 0;
        SW_CHECK_EQ_INT(got, size);
        SW_CHECK(file && got == size && memcmp(file, memory, size) == 0);
        free(file);
    }
    if (f) fclose(f);

    /* Loaded from disk, it is the asset loaded from memory. */
    sw_model *from_file = NULL, *from_memory = load_demo(false);
    sw_diag diag;
    if (sw_gltf_load_file(path, NULL, &from_file, &diag) != SW_OK) fprintf(stderr, "  %s\n", diag.message);
    SW_CHECK(from_file && from_memory);
    if (from_file && from_memory) {
        SW_CHECK_EQ_INT(from_file->warning_count, 0);
        SW_CHECK_EQ_INT(from_file->node_count, from_memory->node_count);
        SW_CHECK_EQ_INT(from_file->animation_count, from_memory->animation_count);
        SW_CHECK_EQ_INT(total_vertices(from_file), total_vertices(from_memory));
        const sw_model_mesh *mf = &from_file->meshes[0], *mm = &from_memory->meshes[0];
        SW_CHECK_EQ_INT(mf->primitive_count, mm->primitive_count);
        for (size_t p = 0; p < mf->primitive_count && p < mm->primitive_count; p++) {
            const sw_model_primitive *a = &mf->primitives[p], *b = &mm->primitives[p];
            SW_CHECK(a->vertex_count == b->vertex_count && a->index_count == b->index_count);
            if (a->vertex_count != b->vertex_count || a->index_count != b->index_count) continue;
            SW_CHECK(memcmp(a->positions, b->positions, a->vertex_count * 3 * sizeof(float)) == 0);
            SW_CHECK(memcmp(a->normals, b->normals, a->vertex_count * 3 * sizeof(float)) == 0);
            SW_CHECK(memcmp(a->weights, b->weights, a->vertex_count * 4 * sizeof(float)) == 0);
            SW_CHECK(memcmp(a->joints, b->joints, a->vertex_count * 4 * sizeof(uint16_t)) == 0);
            SW_CHECK(memcmp(a->indices, b->indices, a->index_count * sizeof(uint32_t)) == 0);
        }
        for (size_t i = 0; i < from_file->animation_count && i < from_memory->animation_count; i++) {
            const sw_clip *a = &from_file->animations[i], *b = &from_memory->animations[i];
            SW_CHECK(strcmp(a->name, b->name) == 0 && a->track_count == b->track_count && a->duration == b->duration);
        }
    }
    sw_model_free(from_file);
    sw_model_free(from_memory);
    sw_demo_character_glb_free(memory);
}

int main(int argc, char** argv) {
    if (argc == 4 && strcmp(argv[1], "--round-trip") == 0) {
        round_trip_sinew = argv[2];
        round_trip_dir = argv[3];
        SW_RUN(test_round_trip_through_file);
        return sw_test_finish();
    }
    if (argc != 1) {
        fprintf(stderr, "usage: %s [--round-trip SINEW DIR]\n", argv[0]);
        return 2;
    }
    shared_glb = demo_bytes(&shared_glb_size);
    SW_RUN(test_glb_container);
    SW_RUN(test_same_bytes_every_call);
    SW_RUN(test_loads_without_warnings);
    SW_RUN(test_skeleton);
    SW_RUN(test_mesh_size_and_extent);
    SW_RUN(test_weights);
    SW_RUN(test_rest_pose_is_bind_pose);
    SW_RUN(test_normals_and_tangents);
    SW_RUN(test_regions);
    SW_RUN(test_clips_exist);
    SW_RUN(test_walk_loops);
    SW_RUN(test_locomotion_clips);
    SW_RUN(test_wave_raises_right_hand);
    SW_RUN(test_twist_lbs_collapses_dqs_keeps);
    SW_RUN(test_spring_chains);
    SW_RUN(test_springs_over_walk);
    SW_RUN(test_toon_extension);
    SW_RUN(test_toon_materials);
    SW_RUN(test_toon_textures);
    SW_RUN(test_double_sided_skirt);
    sw_demo_character_glb_free(shared_glb);
    return sw_test_finish();
}
