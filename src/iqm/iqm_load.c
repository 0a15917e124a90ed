/* The IQM reader (sinew/iqm.h): Inter-Quake Model version 2 → the
   format-neutral model. docs/import.md says what becomes what.

   The file is untrusted: every block is checked against the file's size
   before it is read (counts × sizes in 64-bit arithmetic, so no product
   can wrap), every name against the text block, every index against what
   it indexes, every float for finiteness. Reads go through byte loads
   (little endian, any alignment). The model is built in an arena
   (model_internal.h); load-time tables live in a second arena freed
   before returning. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sinew/iqm.h"
#include "../import/file_internal.h"
#include "../import/importer_internal.h"

#define SW__IQM_MAGIC "INTERQUAKEMODEL" /* and its NUL: 16 bytes */
#define SW__IQM_HEADER_SIZE 124u
#define SW__IQM_DEFAULT_MAX_FILE ((size_t)256 << 20)
#define SW__IQM_DEFAULT_FPS 25.0      /* framerate 0: as Assimp reads ticks per second 0 */
#define SW__IQM_MAX_FPS 100000.0
#define SW__IQM_MAX_JOINTS 65535u     /* influences store joints as uint16 */
/* Bounds on what a small file can make the reader do (a hostile header can
   ask for billions of keys that cost the file nothing), far beyond any
   character: tracks, floats in all keys (256 MiB), joint frames decoded. */
#define SW__IQM_MAX_TRACKS ((uint64_t)1 << 22)
#define SW__IQM_MAX_VALUES ((uint64_t)1 << 26)
#define SW__IQM_MAX_JOINT_FRAMES ((uint64_t)1 << 26)
#define SW__IQM_MAX_WARNINGS 32
#define SW__IQM_ROOT_NAME "iqm_axes"

/* Sizes of the file's records. */
#define SW__IQM_MESH 24u
#define SW__IQM_VERTEXARRAY 20u
#define SW__IQM_TRIANGLE 12u
#define SW__IQM_JOINT 48u
#define SW__IQM_POSE 88u
#define SW__IQM_ANIM 20u

enum { SW__IQM_POSITION = 0, SW__IQM_TEXCOORD, SW__IQM_NORMAL, SW__IQM_TANGENT, SW__IQM_BLENDINDEXES,
       SW__IQM_BLENDWEIGHTS, SW__IQM_COLOR, SW__IQM_ARRAY_TYPES };

enum { SW__IQM_BYTE = 0, SW__IQM_UBYTE, SW__IQM_SHORT, SW__IQM_USHORT, SW__IQM_INT, SW__IQM_UINT, SW__IQM_HALF,
       SW__IQM_FLOAT, SW__IQM_DOUBLE, SW__IQM_FORMATS };

static const char* const sw__iqm_array_names[SW__IQM_ARRAY_TYPES] = {
    "position", "texcoord", "normal", "tangent", "blendindexes", "blendweights", "color"};

typedef struct sw__iqm_header {
    uint32_t version, filesize, flags;
    uint32_t num_text, ofs_text;
    uint32_t num_meshes, ofs_meshes;
    uint32_t num_vertexarrays, num_vertexes, ofs_vertexarrays;
    uint32_t num_triangles, ofs_triangles, ofs_adjacency;
    uint32_t num_joints, ofs_joints;
    uint32_t num_poses, ofs_poses;
    uint32_t num_anims, ofs_anims;
    uint32_t num_frames, num_framechannels, ofs_frames, ofs_bounds;
    uint32_t num_comment, ofs_comment;
    uint32_t num_extensions, ofs_extensions;
} sw__iqm_header;

/* A vertex array the reader uses: where its components start, how many
   per vertex, in which format. */
typedef struct sw__iqm_array {
    bool present;
    uint32_t format, size, offset;
} sw__iqm_array;

typedef struct sw__iqm_pose {
    int32_t parent;
    uint32_t mask;
    float offset[10], scale[10];
} sw__iqm_pose;

typedef struct sw__iqm {
    sw__importer im;              /* the file's base name, the model's arena, the error, the warnings */
    const uint8_t* data;
    size_t size;                  /* bytes of the IQM (the header's filesize) */
    sw__iqm_header h;
    const sw_iqm_options* options;
    sw__model_owner* owner;
    sw__arena scratch;            /* load-time tables */
    size_t joint_count;           /* joints, or poses in an animation file */
    sw__iqm_pose* poses;
    int32_t* parents;             /* per joint: the parent joint or -1 */
    sw__iqm_array arrays[SW__IQM_ARRAY_TYPES];
} sw__iqm;

/* ---- bytes ---------------------------------------------------------------------------------- */

static uint32_t sw__iqm_u32(const uint8_t* p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint16_t sw__iqm_u16(const uint8_t* p) { return (uint16_t)(p[0] | p[1] << 8); }

static float sw__iqm_f32(const uint8_t* p) {
    uint32_t bits = sw__iqm_u32(p);
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

/* `count` records of `size` bytes at `offset` lie inside the file. A
   block with records at offset 0 (the header) is refused: the format
   writes 0 only for empty blocks. */
static bool sw__iqm_block(sw__iqm* I, const char* what, uint32_t offset, uint64_t count, uint64_t size) {
    if (count == 0) return true;
    if (count > I->size / size) { /* before the product, which could wrap */
        sw__importer_fail(&I->im, SW_ERR_INVALID_DATA, "%llu %s of %llu bytes each: more than the file's %zu bytes",
                     (unsigned long long)count, what, (unsigned long long)size, I->size);
        return false;
    }
    uint64_t bytes = count * size;
    if (offset == 0) {
        sw__importer_fail(&I->im, SW_ERR_INVALID_DATA, "%llu %s at offset 0 (inside the header)", (unsigned long long)count,
                     what);
        return false;
    }
    if (offset > I->size || bytes > I->size - offset) {
        sw__importer_fail(&I->im, SW_ERR_INVALID_DATA, "%llu %s at offset %u need %llu bytes; the file has %zu",
                     (unsigned long long)count, what, offset, (unsigned long long)(offset + bytes), I->size);
        return false;
    }
    return true;
}

/* A name: an offset into the text block, NUL-terminated inside it. */
static sw_result sw__iqm_text(sw__iqm* I, uint32_t offset, const char* what, const char** out) {
    *out = NULL;
    if (I->h.num_text == 0 && offset == 0) {
        *out = "";
        return SW_OK;
    }
    if (offset >= I->h.num_text)
        return sw__importer_fail(&I->im, SW_ERR_INVALID_DATA, "%s: name at text offset %u, outside the %u-byte text block", what,
                            offset, I->h.num_text);
    const char* text = (const char*)I->data + I->h.ofs_text + offset;
    const char* nul = memchr(text, 0, I->h.num_text - offset);
    if (!nul)
        return sw__importer_fail(&I->im, SW_ERR_INVALID_DATA, "%s: name at text offset %u runs past the end of the text block",
                            what, offset);
    *out = sw__importer_strdup(&I->im, text, (size_t)(nul - text));
    return *out ? SW_OK : I->im.diag.result;
}

/* ---- header and blocks ---------------------------------------------------------------------- */

static sw_result sw__iqm_header_read(sw__iqm* I, size_t file_size) {
    if (file_size < 16 || memcmp(I->data, SW__IQM_MAGIC, 16) != 0)
        return sw__importer_fail(&I->im, SW_ERR_INVALID_DATA, "not an IQM file (no \"INTERQUAKEMODEL\" magic)");
    if (file_size < SW__IQM_HEADER_SIZE)
        return sw__importer_fail(&I->im, SW_ERR_INVALID_DATA, "truncated: %zu bytes, less than IQM's %u-byte header", file_size,
                            SW__IQM_HEADER_SIZE);
    uint32_t f[27];
    for (size_t i = 0; i < 27; i++) f[i] = sw__iqm_u32(I->data + 16 + 4 * i);
    I->h = (sw__iqm_header){f[0],  f[1],  f[2],  f[3],  f[4],  f[5],  f[6],  f[7],  f[8],
                            f[9],  f[10], f[11], f[12], f[13], f[14], f[15], f[16], f[17],
                            f[18], f[19], f[20], f[21], f[22], f[23], f[24], f[25], f[26]};
    const sw__iqm_header* h = &I->h;
    if (h->version != 2)
        return sw__importer_fail(&I->im, SW_ERR_UNSUPPORTED, "IQM version %u (only version 2 is read)", h->version);
    if (h->filesize > file_size)
        return sw__importer_fail(&I->im, SW_ERR_INVALID_DATA, "truncated: the header says %u bytes, the file has %zu",
                            h->filesize, file_size);
    if (h->filesize < SW__IQM_HEADER_SIZE)
        return sw__importer_fail(&I->im, SW_ERR_INVALID_DATA, "the header's file size, %u, is smaller than the header",
                            h->filesize);
    I->size = h->filesize;
    if (h->filesize < file_size)
        sw__importer_warn(&I->im, "%zu bytes after the %u the header counts; ignored", file_size - h->filesize, h->filesize);
    /* Every block the reader reads, before any is read. */
    if (!sw__iqm_block(I, "text bytes", h->ofs_text, h->num_text, 1) ||
        !sw__iqm_block(I, "meshes", h->ofs_meshes, h->num_meshes, SW__IQM_MESH) ||
        !sw__iqm_block(I, "vertex arrays", h->ofs_vertexarrays, h->num_vertexarrays, SW__IQM_VERTEXARRAY) ||
        !sw__iqm_block(I, "triangles", h->ofs_triangles, h->num_triangles, SW__IQM_TRIANGLE) ||
        !sw__iqm_block(I, "joints", h->ofs_joints, h->num_joints, SW__IQM_JOINT) ||
        !sw__iqm_block(I, "poses", h->ofs_poses, h->num_poses, SW__IQM_POSE) ||
        !sw__iqm_block(I, "animations", h->ofs_anims, h->num_anims, SW__IQM_ANIM) ||
        !sw__iqm_block(I, "frame channels", h->ofs_frames, (uint64_t)h->num_frames * h->num_framechannels, 2))
        return I->im.diag.result;
    if (h->num_extensions) sw__importer_warn(&I->im, "%u extensions ignored", h->num_extensions);
    return SW_OK;
}

/* ---- joints and poses ------------------------------------------------------------------------- */

static bool sw__iqm_finite(const float* v, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (!isfinite(v[i]) || fabsf(v[i]) > 1e30f) return false;
    return true;
}

/* Reads the poses (their parents checked when they make the tree). */
static sw_result sw__iqm_poses_read(sw__iqm* I) {
    size_t n = I->h.num_poses;
    if (!n) return SW_OK;
    I->poses = sw__importer_array(&I->im, &I->scratch, n, sizeof *I->poses);
    if (!I->poses) return I->im.diag.result;
    size_t channels = 0, stray = 0;
    for (size_t p = 0; p < n; p++) {
        const uint8_t* r = I->data + I->h.ofs_poses + p * SW__IQM_POSE;
        sw__iqm_pose* pose = &I->poses[p];
        pose->parent = (int32_t)sw__iqm_u32(r);
        pose->mask = sw__iqm_u32(r + 4);
        if (pose->mask & ~0x3ffu) stray++;
        pose->mask &= 0x3ffu;
        for (int c = 0; c < 10; c++) {
            pose->offset[c] = sw__iqm_f32(r + 8 + 4 * c);
            pose->scale[c] = sw__iqm_f32(r + 48 + 4 * c);
            if (pose->mask & (1u << c)) channels++;
        }
        if (!sw__iqm_finite(pose->offset, 10) || !sw__iqm_finite(pose->scale, 10))
            return sw__importer_fail(&I->im, SW_ERR_INVALID_DATA, "pose %zu: a channel offset or scale is not finite", p);
    }
    if (stray) sw__importer_warn(&I->im, "%zu poses set channel mask bits beyond IQM's 10 channels; ignored", stray);
    if (channels != I->h.num_framechannels)
        return sw__importer_fail(&I->im, SW_ERR_INVALID_DATA, "the poses animate %zu channels, the header says %u per frame",
                            channels, I->h.num_framechannels);
    return SW_OK;
}

/* Decodes frame `frame`'s channels of every pose into out[pose × 10]
   (the frame is inside the checked frame block). */
static void sw__iqm_decode_frame(const sw__iqm* I, size_t frame, float* out) {
    const uint8_t* at = I->data + I->h.ofs_frames + (size_t)frame * I->h.num_framechannels * 2;
    for (size_t p = 0; p < I->h.num_poses; p++) {
        const sw__iqm_pose* pose = &I->poses[p];
        for (int c = 0; c < 10; c++) {
            float v = pose->offset[c];
            if (pose->mask & (1u << c)) {
                v += pose->scale[c] * (float)sw__iqm_u16(at);
                at += 2;
            }
            out[p * 10 + (size_t)c] = v;
        }
    }
}

static sw_quat sw__iqm_unit_quat(const float* q, bool* off_unit) {
    double length = sqrt((double)q[0] * q[0] + (double)q[1] * q[1] + (double)q[2] * q[2] + (double)q[3] * q[3]);
    if (!(length > 1e-6) || !isfinite(length)) {
        *off_unit = true;
        return sw_quat_identity();
    }
    if (fabs(length - 1.0) > 1e-3) *off_unit = true;
    return (sw_quat){(float)(q[0] / length), (float)(q[1] / length), (float)(q[2] / length), (float)(q[3] / length)};
}

/* An animation file's poses (no joints of its own) are named after the
   skeleton's joints when their count and parents agree: *out_skin is then
   the skeleton's skin, else NULL (with a warning). */
static sw_result sw__iqm_match_skeleton(sw__iqm* I, size_t joints, const sw_model_skin** out_skin) {
    const sw_model* skeleton = I->options ? I->options->skeleton : NULL;
    *out_skin = NULL;
    bool fits = skeleton && skeleton->skin_count && skeleton->skins[0].joint_count == joints && skeleton->rest_local &&
                skeleton->nodes;
    const sw_model_skin* s = fits ? &skeleton->skins[0] : NULL;
    /* the skeleton's node → its joint index (-1: not a joint) */
    int32_t* joint_of = fits ? sw__importer_array(&I->im, &I->scratch, skeleton->node_count + 1, sizeof *joint_of)
                             : NULL;
    if (fits && !joint_of) return I->im.diag.result;
    for (size_t k = 0; fits && k <= skeleton->node_count; k++) joint_of[k] = -1;
    for (size_t j = 0; fits && j < joints; j++) {
        fits = s->joints[j] < skeleton->node_count;
        if (fits) joint_of[s->joints[j]] = (int32_t)j;
    }
    for (size_t j = 0; fits && j < joints; j++) {
        int32_t parent = skeleton->nodes[s->joints[j]].parent;
        int32_t expected = parent >= 0 && (size_t)parent < skeleton->node_count ? joint_of[parent] : -1;
        fits = (I->poses[j].parent < 0 ? -1 : I->poses[j].parent) == expected;
    }
    if (fits) *out_skin = s;
    else if (skeleton)
        sw__importer_warn(&I->im, "an animation file whose %zu poses do not match the skeleton's joints (count or parents); "
                        "named \"pose 0\" ... \"pose %zu\"", joints, joints - 1);
    else
        sw__importer_warn(&I->im, "an animation file without joint names; its %zu poses are named \"pose 0\" ... "
                        "(give the model it animates as the skeleton to name them)", joints);
    return SW_OK;
}

/* What names a joint node and places it at rest. */
typedef struct sw__iqm_rest_source {
    const sw_model_skin* skin; /* an animation file's: the skeleton's skin its poses match, or NULL */
    const float* first;        /* an animation file's without it: its first frame (10 floats per pose), or NULL */
    size_t other_parents;      /* joints whose pose names another parent (counted) */
} sw__iqm_rest_source;

/* Joint j's name, parent (-1: none) and rest transform (translation,
   rotation, scale: 10 floats), from the file's joints or, in an
   animation file, from the skeleton or the poses. */
static sw_result sw__iqm_joint_rest(sw__iqm* I, size_t j, sw__iqm_rest_source* src, sw_model_node* node,
                                    int32_t* out_parent, float trs[10]) {
    const sw__iqm_header* h = &I->h;
    if (h->num_joints) {
        const uint8_t* r = I->data + h->ofs_joints + j * SW__IQM_JOINT;
        char what[48];
        snprintf(what, sizeof what, "joint %zu", j);
        if (sw__iqm_text(I, sw__iqm_u32(r), what, &node->name) != SW_OK) return I->im.diag.result;
        int32_t parent = (int32_t)sw__iqm_u32(r + 4);
        for (int c = 0; c < 10; c++) trs[c] = sw__iqm_f32(r + 8 + 4 * c);
        if (!sw__iqm_finite(trs, 10))
            return sw__importer_fail(&I->im, SW_ERR_INVALID_DATA, "joint %zu '%s': its rest transform is not finite", j,
                                node->name);
        if (I->poses && (I->poses[j].parent < 0 ? -1 : I->poses[j].parent) != (parent < 0 ? -1 : parent))
            src->other_parents++;
        *out_parent = parent;
        return SW_OK;
    }
    *out_parent = I->poses[j].parent;
    if (src->skin) {
        const sw_model* skeleton = I->options->skeleton;
        const char* name = skeleton->nodes[src->skin->joints[j]].name;
        if (!(node->name = sw__importer_strdup(&I->im, name ? name : "", name ? strlen(name) : 0)))
            return I->im.diag.result;
        const sw_transform* t = &skeleton->rest_local[src->skin->joints[j]];
        const float v[10] = {t->translation.x, t->translation.y, t->translation.z, t->rotation.x, t->rotation.y,
                             t->rotation.z,    t->rotation.w,    t->scale.x,       t->scale.y,    t->scale.z};
        memcpy(trs, v, sizeof v);
        return SW_OK;
    }
    char label[32];
    int length = snprintf(label, sizeof label, "pose %zu", j);
    if (!(node->name = sw__importer_strdup(&I->im, label, (size_t)length))) return I->im.diag.result;
    for (int c = 0; c < 10; c++) trs[c] = src->first ? src->first[j * 10 + (size_t)c] : I->poses[j].offset[c];
    if (!sw__iqm_finite(trs, 10))
        return sw__importer_fail(&I->im, SW_ERR_INVALID_DATA, "pose %zu: its first frame is not finite", j);
    return SW_OK;
}

/* Each node's children list, from the parents (node 0 is the root). */
static sw_result sw__iqm_link_children(sw__iqm* I, sw_model_node* nodes, size_t n, size_t* child_counts) {
    for (size_t i = 1; i < n; i++) child_counts[nodes[i].parent]++;
    for (size_t i = 0; i < n; i++) {
        if (!child_counts[i]) continue;
        nodes[i].children = sw__importer_array(&I->im, I->im.arena, child_counts[i], sizeof(uint32_t));
        if (!nodes[i].children) return I->im.diag.result;
    }
    for (size_t i = 1; i < n; i++) {
        sw_model_node* parent = &nodes[nodes[i].parent];
        ((uint32_t*)parent->children)[parent->child_count++] = (uint32_t)i;
    }
    return SW_OK;
}

/* The nodes: the axis node, the joints (or an animation file's poses),
   the mesh nodes. *rest_world_file gets each joint's rest world matrix in
   the file's axes (for the inverse binds). */
static sw_result sw__iqm_nodes(sw__iqm* I, size_t mesh_nodes, sw_mat34** rest_world_file) {
    sw_model* model = &I->owner->model;
    const sw__iqm_header* h = &I->h;
    size_t joints = h->num_joints ? h->num_joints : h->num_poses;
    if (joints > SW__IQM_MAX_JOINTS)
        return sw__importer_fail(&I->im, SW_ERR_UNSUPPORTED, "%zu joints (at most %u)", joints, SW__IQM_MAX_JOINTS);
    if (h->num_joints && h->num_poses && h->num_poses != h->num_joints)
        return sw__importer_fail(&I->im, SW_ERR_INVALID_DATA, "%u poses for %u joints (IQM needs one pose per joint)",
                            h->num_poses, h->num_joints);
    I->joint_count = joints;
    size_t n = 1 + joints + mesh_nodes;
    sw_model_node* nodes = sw__importer_array(&I->im, I->im.arena, n, sizeof *nodes);
    uint32_t* identity = sw__importer_array(&I->im, I->im.arena, n, sizeof *identity);
    size_t* child_counts = sw__importer_array(&I->im, &I->scratch, n, sizeof *child_counts);
    I->parents = sw__importer_array(&I->im, &I->scratch, joints ? joints : 1, sizeof *I->parents);
    sw_mat34* world = sw__importer_array(&I->im, &I->scratch, joints ? joints : 1, sizeof *world);
    if (!nodes || !identity || !child_counts || !I->parents || !world) return I->im.diag.result;
    for (size_t i = 0; i < n; i++) {
        nodes[i] = (sw_model_node){.parent = i ? 0 : -1, .mesh = -1, .skin = -1, .camera = -1,
                                   .matrix = sw_mat34_identity(), .trs = sw_transform_identity(),
                                   .source_index = (uint32_t)i};
        identity[i] = (uint32_t)i;
    }
    /* Z up (x, y, z) → Y up (x, z, −y): −90° about X. */
    nodes[0].name = SW__IQM_ROOT_NAME;
    nodes[0].trs.rotation = (sw_quat){-0.70710678f, 0.0f, 0.0f, 0.70710678f};

    sw__iqm_rest_source src = {0};
    if (!h->num_joints && joints && sw__iqm_match_skeleton(I, joints, &src.skin) != SW_OK) return I->im.diag.result;
    float* first = NULL;
    if (!h->num_joints && joints && !src.skin && h->num_frames) {
        first = sw__importer_array(&I->im, &I->scratch, joints, 10 * sizeof *first);
        if (!first) return I->im.diag.result;
        sw__iqm_decode_frame(I, 0, first);
    }
    src.first = first;
    size_t off_unit = 0;
    for (size_t j = 0; j < joints; j++) {
        sw_model_node* node = &nodes[1 + j];
        int32_t parent = -1;
        float trs[10] = {0}; /* set by sw__iqm_joint_rest on success */
        if (sw__iqm_joint_rest(I, j, &src, node, &parent, trs) != SW_OK) return I->im.diag.result;
        if (parent >= 0 && (size_t)parent >= j)
            return sw__importer_fail(&I->im, SW_ERR_INVALID_DATA, "%s %zu's parent is %d (IQM requires a parent before its child)",
                                h->num_joints ? "joint" : "pose", j, parent);
        I->parents[j] = parent < 0 ? -1 : parent;
        node->parent = parent < 0 ? 0 : 1 + parent;
        bool off = false;
        node->trs.translation = sw_vec3_make(trs[0], trs[1], trs[2]);
        node->trs.rotation = sw__iqm_unit_quat(&trs[3], &off);
        node->trs.scale = sw_vec3_make(trs[7], trs[8], trs[9]);
        off_unit += off;
        sw_mat34 local = sw_transform_to_mat34(&node->trs);
        world[j] = parent < 0 ? local : sw_mat34_mul(&world[parent], &local);
    }
    if (off_unit) sw__importer_warn(&I->im, "%zu joint rotations were not unit quaternions (normalised)", off_unit);
    if (src.other_parents)
        sw__importer_warn(&I->im, "%zu poses have another parent than their joint; the joints' tree is used", src.other_parents);
    if (sw__iqm_link_children(I, nodes, n, child_counts) != SW_OK) return I->im.diag.result;
    model->nodes = nodes;
    model->node_count = n;
    model->node_from_source = identity;
    sw_model_scene* scene = sw__importer_alloc(&I->im, I->im.arena, sizeof *scene);
    uint32_t* roots = sw__importer_alloc(&I->im, I->im.arena, sizeof *roots);
    if (!scene || !roots) return I->im.diag.result;
    scene->node_count = 1;
    scene->nodes = roots; /* node 0 */
    model->scenes = scene;
    model->scene_count = 1;
    model->default_scene = 0;
    *rest_world_file = world;
    return SW_OK;
}

/* ---- vertex arrays ------------------------------------------------------------------------- */

static const uint32_t sw__iqm_format_bytes[SW__IQM_FORMATS] = {1, 1, 2, 2, 4, 4, 2, 4, 8};

/* Which formats and component counts the reader takes for each array. */
static bool sw__iqm_array_usable(uint32_t type, uint32_t format, uint32_t size) {
    switch (type) {
    case SW__IQM_POSITION:
    case SW__IQM_NORMAL: return format == SW__IQM_FLOAT && size >= 3 && size <= 4;
    case SW__IQM_TEXCOORD: return format == SW__IQM_FLOAT && size >= 2 && size <= 4;
    case SW__IQM_TANGENT: return format == SW__IQM_FLOAT && size >= 3 && size <= 4;
    case SW__IQM_BLENDINDEXES:
        return (format == SW__IQM_UBYTE || format == SW__IQM_USHORT || format == SW__IQM_UINT) && size >= 1 &&
               size <= 4;
    case SW__IQM_BLENDWEIGHTS:
        return (format == SW__IQM_UBYTE || format == SW__IQM_USHORT || format == SW__IQM_FLOAT) && size >= 1 &&
               size <= 4;
    case SW__IQM_COLOR: return (format == SW__IQM_UBYTE || format == SW__IQM_FLOAT) && size >= 3 && size <= 4;
    default: return false;
    }
}

static sw_result sw__iqm_arrays_read(sw__iqm* I) {
    const sw__iqm_header* h = &I->h;
    for (uint32_t i = 0; i < h->num_vertexarrays; i++) {
        const uint8_t* r = I->data + h->ofs_vertexarrays + (size_t)i * SW__IQM_VERTEXARRAY;
        uint32_t type = sw__iqm_u32(r), format = sw__iqm_u32(r + 8), size = sw__iqm_u32(r + 12),
                 offset = sw__iqm_u32(r + 16);
        if (type >= SW__IQM_ARRAY_TYPES) {
            /* custom arrays (type ≥ 0x10 names them) and reserved types */
            sw__importer_warn(&I->im, "vertex array %u of type %u ignored (not one sinew reads)", i, type);
            continue;
        }
        const char* what = sw__iqm_array_names[type];
        if (I->arrays[type].present) {
            sw__importer_warn(&I->im, "a second %s array (vertex array %u) ignored", what, i);
            continue;
        }
        if (format >= SW__IQM_FORMATS || !sw__iqm_array_usable(type, format, size)) {
            if (type == SW__IQM_POSITION)
                return sw__importer_fail(&I->im, SW_ERR_UNSUPPORTED, "positions in format %u × %u (sinew reads float × 3)",
                                    format, size);
            sw__importer_warn(&I->im, "the %s array in format %u × %u ignored (not a format sinew reads)", what, format, size);
            continue;
        }
        char label[48];
        snprintf(label, sizeof label, "%s components", what);
        if (!sw__iqm_block(I, label, offset, (uint64_t)h->num_vertexes * size, sw__iqm_format_bytes[format]))
            return I->im.diag.result;
        I->arrays[type] = (sw__iqm_array){true, format, size, offset};
    }
    if (h->num_vertexes && !I->arrays[SW__IQM_POSITION].present)
        return sw__importer_fail(&I->im, SW_ERR_INVALID_DATA, "%u vertices but no position array", h->num_vertexes);
    return SW_OK;
}

/* Component c of vertex v of an array, as a float (normalised integers
   for weights and colours: ubyte / 255, ushort / 65535). */
static float sw__iqm_component(const sw__iqm* I, const sw__iqm_array* a, size_t v, uint32_t c, bool normalised) {
    const uint8_t* p = I->data + a->offset + (v * a->size + c) * sw__iqm_format_bytes[a->format];
    switch (a->format) {
    case SW__IQM_UBYTE: return normalised ? (float)p[0] / 255.0f : (float)p[0];
    case SW__IQM_USHORT: return normalised ? (float)sw__iqm_u16(p) / 65535.0f : (float)sw__iqm_u16(p);
    case SW__IQM_UINT: return (float)sw__iqm_u32(p);
    default: return sw__iqm_f32(p);
    }
}

static uint32_t sw__iqm_index(const sw__iqm* I, const sw__iqm_array* a, size_t v, uint32_t c) {
    const uint8_t* p = I->data + a->offset + (v * a->size + c) * sw__iqm_format_bytes[a->format];
    switch (a->format) {
    case SW__IQM_UBYTE: return p[0];
    case SW__IQM_USHORT: return sw__iqm_u16(p);
    default: return sw__iqm_u32(p);
    }
}

/* ---- meshes -------------------------------------------------------------------------------- */

typedef struct sw__iqm_counts {
    size_t bad_normals, unweighted, negative;
} sw__iqm_counts;

/* POSITION and the bounds of vertices [first, first + count); every
   position must be finite. */
static sw_result sw__iqm_read_positions(sw__iqm* I, size_t first, size_t count, const char* mesh,
                                        sw_model_primitive* p) {
    const sw__iqm_array* A = I->arrays;
    float* positions = sw__importer_array(&I->im, I->im.arena, count, 3 * sizeof(float));
    if (!positions) return I->im.diag.result;
    for (size_t v = 0; v < count; v++)
        for (uint32_t c = 0; c < 3; c++) {
            float x = sw__iqm_component(I, &A[SW__IQM_POSITION], first + v, c, false);
            if (!isfinite(x))
                return sw__importer_fail(&I->im, SW_ERR_INVALID_DATA, "mesh '%s': vertex %zu's position is not finite", mesh,
                                    first + v);
            positions[v * 3 + c] = x;
            if (v == 0 || x < p->bounds_min[c]) p->bounds_min[c] = x;
            if (v == 0 || x > p->bounds_max[c]) p->bounds_max[c] = x;
        }
    p->positions = positions;
    p->vertex_count = count;
    return SW_OK;
}

/* NORMAL, unit length (degenerate ones +Y, counted), and TANGENT with the
   sign of its w, when the file has them. */
static sw_result sw__iqm_read_normals(sw__iqm* I, size_t first, size_t count, sw_model_primitive* p,
                                      sw__iqm_counts* counts) {
    const sw__iqm_array* A = I->arrays;
    if (!A[SW__IQM_NORMAL].present) return SW_OK;
    float* normals = sw__importer_array(&I->im, I->im.arena, count, 3 * sizeof(float));
    if (!normals) return I->im.diag.result;
    for (size_t v = 0; v < count; v++) {
        double n[3], length = 0.0;
        for (uint32_t c = 0; c < 3; c++) {
            n[c] = sw__iqm_component(I, &A[SW__IQM_NORMAL], first + v, c, false);
            length += n[c] * n[c];
        }
        length = sqrt(length);
        if (!(length > 1e-12) || !isfinite(length)) {
            counts->bad_normals++;
            normals[v * 3 + 1] = 1.0f; /* any unit vector draws better than NaN */
            continue;
        }
        for (int c = 0; c < 3; c++) normals[v * 3 + (size_t)c] = (float)(n[c] / length);
    }
    p->normals = normals;
    if (!A[SW__IQM_TANGENT].present) return SW_OK;
    float* tangents = sw__importer_array(&I->im, I->im.arena, count, 4 * sizeof(float));
    if (!tangents) return I->im.diag.result;
    for (size_t v = 0; v < count; v++) {
        const sw__iqm_array* t = &A[SW__IQM_TANGENT];
        sw_vec3 x = sw_vec3_make(sw__iqm_component(I, t, first + v, 0, false),
                                 sw__iqm_component(I, t, first + v, 1, false),
                                 sw__iqm_component(I, t, first + v, 2, false));
        float w = t->size > 3 ? sw__iqm_component(I, t, first + v, 3, false) : 1.0f;
        float length = sw_vec3_length(x);
        if (!(length > 1e-12f) || !isfinite(length)) x = sw_vec3_make(1, 0, 0), length = 1.0f;
        tangents[v * 4] = x.x / length, tangents[v * 4 + 1] = x.y / length, tangents[v * 4 + 2] = x.z / length;
        /* the same sign convention as glTF's: bitangent = cross(n, t) · w */
        tangents[v * 4 + 3] = w < 0.0f ? -1.0f : 1.0f;
    }
    p->tangents = tangents;
    return SW_OK;
}

/* TEXCOORD_0 and COLOR_0 when the file has them; values that are not
   finite become 0 (UVs) or 1 (colours). */
static sw_result sw__iqm_read_texcoords_colors(sw__iqm* I, size_t first, size_t count, sw_model_primitive* p) {
    const sw__iqm_array* A = I->arrays;
    if (A[SW__IQM_TEXCOORD].present) {
        /* IQM's exporters flip V: the origin is the image's top left, as glTF's */
        float* uv = sw__importer_array(&I->im, I->im.arena, count, 2 * sizeof(float));
        if (!uv) return I->im.diag.result;
        for (size_t v = 0; v < count; v++)
            for (uint32_t c = 0; c < 2; c++) {
                float x = sw__iqm_component(I, &A[SW__IQM_TEXCOORD], first + v, c, false);
                uv[v * 2 + c] = isfinite(x) ? x : 0.0f;
            }
        p->texcoords[0] = uv;
        p->texcoord_count = 1;
    }
    if (A[SW__IQM_COLOR].present) {
        float* rgba = sw__importer_array(&I->im, I->im.arena, count, 4 * sizeof(float));
        if (!rgba) return I->im.diag.result;
        const sw__iqm_array* a = &A[SW__IQM_COLOR];
        for (size_t v = 0; v < count; v++)
            for (uint32_t c = 0; c < 4; c++) {
                float x = c < a->size ? sw__iqm_component(I, a, first + v, c, true) : 1.0f;
                rgba[v * 4 + c] = isfinite(x) ? x : 1.0f;
            }
        p->colors = rgba;
    }
    return SW_OK;
}

/* Influences: up to 4 per vertex, strongest first, renormalised (raw ones
   kept as read with keep_raw_influences); only for a file with joints and
   both blend arrays. */
static sw_result sw__iqm_read_influences(sw__iqm* I, size_t first, size_t count, const char* mesh,
                                         sw_model_primitive* p, sw__iqm_counts* counts) {
    const sw__iqm_array* A = I->arrays;
    if (!I->joint_count || !I->h.num_joints || !A[SW__IQM_BLENDINDEXES].present || !A[SW__IQM_BLENDWEIGHTS].present)
        return SW_OK;
    const sw__iqm_array *ai = &A[SW__IQM_BLENDINDEXES], *aw = &A[SW__IQM_BLENDWEIGHTS];
    uint32_t slots = ai->size < aw->size ? ai->size : aw->size;
    uint16_t* joints = sw__importer_array(&I->im, I->im.arena, count, 4 * sizeof *joints);
    float* weights = sw__importer_array(&I->im, I->im.arena, count, 4 * sizeof *weights);
    uint16_t* raw_joints = NULL;
    float* raw_weights = NULL;
    if (!joints || !weights) return I->im.diag.result;
    if (I->options && I->options->keep_raw_influences) {
        raw_joints = sw__importer_array(&I->im, I->im.arena, count, 4 * sizeof *raw_joints);
        raw_weights = sw__importer_array(&I->im, I->im.arena, count, 4 * sizeof *raw_weights);
        if (!raw_joints || !raw_weights) return I->im.diag.result;
    }
    for (size_t v = 0; v < count; v++) {
        uint32_t j[4] = {0, 0, 0, 0};
        float w[4] = {0, 0, 0, 0};
        double sum = 0.0;
        for (uint32_t k = 0; k < slots; k++) {
            j[k] = sw__iqm_index(I, ai, first + v, k);
            w[k] = sw__iqm_component(I, aw, first + v, k, true);
            if (!isfinite(w[k]))
                return sw__importer_fail(&I->im, SW_ERR_INVALID_DATA, "mesh '%s': vertex %zu has a weight that is not finite",
                                    mesh, first + v);
            if (raw_joints) {
                raw_joints[v * 4 + k] = (uint16_t)(j[k] < I->joint_count ? j[k] : 0);
                raw_weights[v * 4 + k] = w[k];
            }
            if (w[k] < 0.0f) counts->negative++;
            if (w[k] <= 0.0f) {
                w[k] = 0.0f, j[k] = 0;
                continue;
            }
            if (j[k] >= I->joint_count)
                return sw__importer_fail(&I->im, SW_ERR_INDEX_OUT_OF_RANGE,
                                    "mesh '%s': vertex %zu is weighted to joint %u of %zu", mesh, first + v, j[k],
                                    I->joint_count);
            sum += w[k];
        }
        /* strongest first (insertion sort of four; ties keep file order) */
        for (int a = 1; a < 4; a++)
            for (int b = a; b > 0 && w[b] > w[b - 1]; b--) {
                float tw = w[b];
                w[b] = w[b - 1], w[b - 1] = tw;
                uint32_t tj = j[b];
                j[b] = j[b - 1], j[b - 1] = tj;
            }
        if (!(sum > 0.0)) {
            counts->unweighted++;
            joints[v * 4] = 0;
            weights[v * 4] = 1.0f;
            continue;
        }
        for (int k = 0; k < 4; k++) {
            joints[v * 4 + (size_t)k] = (uint16_t)j[k];
            weights[v * 4 + (size_t)k] = (float)(w[k] / sum);
        }
    }
    p->influence_count = 4;
    p->influence_sets = 1;
    p->joints = joints;
    p->weights = weights;
    if (raw_joints) {
        p->raw_influence_count = 4;
        p->raw_joints = raw_joints;
        p->raw_weights = raw_weights;
    }
    return SW_OK;
}

/* Vertex attributes of vertices [first, first + count) into `p`. */
static sw_result sw__iqm_vertices(sw__iqm* I, size_t first, size_t count, const char* mesh, sw_model_primitive* p,
                                  sw__iqm_counts* counts) {
    sw_result r;
    if ((r = sw__iqm_read_positions(I, first, count, mesh, p)) != SW_OK ||
        (r = sw__iqm_read_normals(I, first, count, p, counts)) != SW_OK ||
        (r = sw__iqm_read_texcoords_colors(I, first, count, p)) != SW_OK ||
        (r = sw__iqm_read_influences(I, first, count, mesh, p, counts)) != SW_OK)
        return r;
    return SW_OK;
}

/* The triangles [first, first + count): each vertex inside the mesh's
   range, rebased to it, wound counter-clockwise (IQM winds clockwise). */
static sw_result sw__iqm_triangles(sw__iqm* I, size_t first, size_t count, size_t first_vertex, size_t vertex_count,
                                   const char* mesh, sw_model_primitive* p) {
    uint32_t* indices = sw__importer_array(&I->im, I->im.arena, count, 3 * sizeof *indices);
    if (!indices) return I->im.diag.result;
    for (size_t t = 0; t < count; t++) {
        const uint8_t* r = I->data + I->h.ofs_triangles + (first + t) * SW__IQM_TRIANGLE;
        uint32_t v[3];
        for (int c = 0; c < 3; c++) {
            v[c] = sw__iqm_u32(r + 4 * c);
            if (v[c] < first_vertex || v[c] - first_vertex >= vertex_count)
                return sw__importer_fail(&I->im, SW_ERR_INDEX_OUT_OF_RANGE,
                                    "mesh '%s': triangle %zu uses vertex %u, outside the mesh's vertices %zu..%zu",
                                    mesh, first + t, v[c], first_vertex, first_vertex + vertex_count - 1);
        }
        indices[t * 3] = (uint32_t)(v[0] - first_vertex);
        indices[t * 3 + 1] = (uint32_t)(v[2] - first_vertex);
        indices[t * 3 + 2] = (uint32_t)(v[1] - first_vertex);
    }
    p->indices = indices;
    p->index_count = count * 3;
    return SW_OK;
}

static bool sw__iqm_ends_with(const char* s, const char* suffix) {
    size_t a = strlen(s), b = strlen(suffix);
    if (a < b) return false;
    for (size_t i = 0; i < b; i++) {
        char x = s[a - b + i];
        if (x >= 'A' && x <= 'Z') x = (char)(x - 'A' + 'a');
        if (x != suffix[i]) return false;
    }
    return true;
}

typedef struct sw__iqm_named {
    const char* name;
    size_t mesh;
} sw__iqm_named;

static int sw__iqm_named_cmp(const void* a, const void* b) {
    const sw__iqm_named *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->mesh < y->mesh ? -1 : x->mesh > y->mesh);
}

/* Materials: one per distinct material name, in first-use order (found by
   sorting, so that a file of many meshes costs n log n, not n²). A name
   that is an image file (IQM's tools write the texture's file name there)
   becomes the base colour texture, a path relative to the file's folder. */
static sw_result sw__iqm_materials(sw__iqm* I, const char* const* names, size_t count, int32_t* material_of) {
    sw_model* model = &I->owner->model;
    sw_model_material* mats = sw__importer_array(&I->im, I->im.arena, count ? count : 1, sizeof *mats);
    sw_model_image* images = sw__importer_array(&I->im, I->im.arena, count ? count : 1, sizeof *images);
    sw_model_texture* textures = sw__importer_array(&I->im, I->im.arena, count ? count : 1, sizeof *textures);
    if (!mats || !images || !textures) return I->im.diag.result;
    /* first_use[m]: the first mesh with m's material name */
    sw__iqm_named* sorted = sw__importer_array(&I->im, &I->scratch, count ? count : 1, sizeof *sorted);
    size_t* first_use = sw__importer_array(&I->im, &I->scratch, count ? count : 1, sizeof *first_use);
    if (!sorted || !first_use) return I->im.diag.result;
    for (size_t m = 0; m < count; m++) sorted[m] = (sw__iqm_named){names[m] ? names[m] : "", m};
    qsort(sorted, count, sizeof *sorted, sw__iqm_named_cmp);
    for (size_t k = 0; k < count; k++)
        first_use[sorted[k].mesh] = k && strcmp(sorted[k].name, sorted[k - 1].name) == 0 ? first_use[sorted[k - 1].mesh]
                                                                                        : sorted[k].mesh;
    size_t n = 0, image_count = 0;
    static const struct {
        const char* extension;
        const char* mime;
    } kinds[] = {{".png", "image/png"}, {".jpg", "image/jpeg"}, {".jpeg", "image/jpeg"}, {".tga", NULL}};
    for (size_t m = 0; m < count; m++) {
        material_of[m] = -1;
        if (!names[m] || !names[m][0]) continue; /* no material: the default one */
        if (first_use[m] != m) {
            material_of[m] = material_of[first_use[m]];
            continue;
        }
        sw_model_material* mat = &mats[n];
        const sw_model_texture_ref none = {.texture = -1, .scale = 1.0f, .uv_scale = {1, 1}};
        *mat = (sw_model_material){.name = names[m], .base_color_factor = {1, 1, 1, 1}, .metallic_factor = 0.0f,
                                   .roughness_factor = 1.0f, .emissive_strength = 1.0f, .alpha_cutoff = 0.5f,
                                   .base_color_texture = none,
                                   .metallic_roughness_texture = none, .normal_texture = none,
                                   .occlusion_texture = none, .emissive_texture = none};
        for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
            if (!sw__iqm_ends_with(names[m], kinds[k].extension)) continue;
            images[image_count] = (sw_model_image){.name = names[m], .uri = names[m], .mime_type = kinds[k].mime};
            textures[image_count] = (sw_model_texture){.image = (int32_t)image_count, .sampler = -1};
            mat->base_color_texture.texture = (int32_t)image_count++;
            break;
        }
        material_of[m] = (int32_t)n++;
    }
    model->materials = mats;
    model->material_count = n;
    model->images = images;
    model->image_count = image_count;
    model->textures = textures;
    model->texture_count = image_count;
    return SW_OK;
}

static sw_result sw__iqm_meshes(sw__iqm* I, const sw_mat34* rest_world_file) {
    sw_model* model = &I->owner->model;
    const sw__iqm_header* h = &I->h;
    size_t count = h->num_meshes;
    if (!count) return SW_OK;
    sw_model_mesh* meshes = sw__importer_array(&I->im, I->im.arena, count, sizeof *meshes);
    const char** materials = sw__importer_array(&I->im, &I->scratch, count, sizeof *materials);
    int32_t* material_of = sw__importer_array(&I->im, &I->scratch, count, sizeof *material_of);
    if (!meshes || !materials || !material_of) return I->im.diag.result;
    sw__iqm_counts counts = {0};
    size_t kept = 0, skinned = 0;
    uint64_t vertex_sum = 0, triangle_sum = 0;
    sw_model_node* nodes = (sw_model_node*)model->nodes;
    for (size_t m = 0; m < count; m++) {
        const uint8_t* r = I->data + h->ofs_meshes + m * SW__IQM_MESH;
        char what[32];
        snprintf(what, sizeof what, "mesh %zu", m);
        const char* name;
        if (sw__iqm_text(I, sw__iqm_u32(r), what, &name) != SW_OK ||
            sw__iqm_text(I, sw__iqm_u32(r + 4), what, &materials[m]) != SW_OK)
            return I->im.diag.result;
        uint64_t fv = sw__iqm_u32(r + 8), nv = sw__iqm_u32(r + 12), ft = sw__iqm_u32(r + 16),
                 nt = sw__iqm_u32(r + 20);
        if (fv + nv > h->num_vertexes)
            return sw__importer_fail(&I->im, SW_ERR_INDEX_OUT_OF_RANGE, "mesh '%s': vertices %llu..%llu of %u", name,
                                (unsigned long long)fv, (unsigned long long)(fv + nv), h->num_vertexes);
        if (ft + nt > h->num_triangles)
            return sw__importer_fail(&I->im, SW_ERR_INDEX_OUT_OF_RANGE, "mesh '%s': triangles %llu..%llu of %u", name,
                                (unsigned long long)ft, (unsigned long long)(ft + nt), h->num_triangles);
        /* IQM's meshes share the file's arrays, each a range of them; ranges
           may overlap, but each is copied, so a small file could ask for
           the same vertices millions of times: bounded */
        vertex_sum += nv, triangle_sum += nt;
        if (vertex_sum > 2 * (uint64_t)h->num_vertexes + 65536 || triangle_sum > 2 * (uint64_t)h->num_triangles + 65536)
            return sw__importer_fail(&I->im, SW_ERR_UNSUPPORTED,
                                "the meshes' ranges add up to more than twice the file's %u vertices or %u triangles",
                                h->num_vertexes, h->num_triangles);
        sw_model_node* node = &nodes[1 + I->joint_count + m];
        node->name = name;
        if (nv == 0 || nt == 0) {
            sw__importer_warn(&I->im, "mesh '%s' has no %s; skipped", name, nv == 0 ? "vertices" : "triangles");
            continue;
        }
        sw_model_primitive* prim = sw__importer_alloc(&I->im, I->im.arena, sizeof *prim);
        if (!prim) return I->im.diag.result;
        *prim = (sw_model_primitive){.mode = SW_MODEL_TRIANGLES, .material = -1};
        if (sw__iqm_vertices(I, (size_t)fv, (size_t)nv, name, prim, &counts) != SW_OK ||
            sw__iqm_triangles(I, (size_t)ft, (size_t)nt, (size_t)fv, (size_t)nv, name, prim) != SW_OK)
            return I->im.diag.result;
        prim->material = (int32_t)m; /* the mesh index for now: materials are numbered below */
        meshes[kept] = (sw_model_mesh){.name = name, .primitive_count = 1, .primitives = prim};
        node->mesh = (int32_t)kept++;
        if (prim->influence_count) {
            node->skin = 0;
            skinned++;
        }
    }
    if (sw__iqm_materials(I, materials, count, material_of) != SW_OK) return I->im.diag.result;
    for (size_t k = 0; k < kept; k++) {
        sw_model_primitive* prim = (sw_model_primitive*)meshes[k].primitives;
        prim->material = material_of[prim->material];
    }
    if (counts.bad_normals)
        sw__importer_warn(&I->im, "%zu normals of zero length or not finite (set to +Y)", counts.bad_normals);
    if (counts.unweighted)
        sw__importer_warn(&I->im, "%zu vertices have no blend weight (given weight 1 on the first joint)", counts.unweighted);
    if (counts.negative) sw__importer_warn(&I->im, "%zu negative blend weights dropped", counts.negative);
    if (I->h.num_joints && !skinned && kept)
        sw__importer_warn(&I->im, "the file has %u joints but no mesh has blend indices and weights; nothing is skinned",
                     I->h.num_joints);
    if (!I->h.num_joints && (I->arrays[SW__IQM_BLENDINDEXES].present || I->arrays[SW__IQM_BLENDWEIGHTS].present))
        sw__importer_warn(&I->im, "blend weights without joints ignored");
    model->meshes = meshes;
    model->mesh_count = kept;
    if (skinned) {
        size_t n = I->joint_count;
        sw_model_skin* skin = sw__importer_alloc(&I->im, I->im.arena, sizeof *skin);
        uint32_t* joints = sw__importer_array(&I->im, I->im.arena, n, sizeof *joints);
        sw_mat34* ibm = sw__importer_array(&I->im, I->im.arena, n, sizeof *ibm);
        if (!skin || !joints || !ibm) return I->im.diag.result;
        size_t singular = 0;
        for (size_t j = 0; j < n; j++) {
            joints[j] = (uint32_t)(1 + j);
            /* in the file's axes: the conversion on node 0 then moves the skinned vertices */
            /* a tiny scale inverts in double precision but may not fit a float */
            bool invertible = sw_mat34_inverse(&ibm[j], &rest_world_file[j]);
            for (int r = 0; r < 3; r++) invertible = invertible && sw__iqm_finite(ibm[j].m[r], 4);
            if (!invertible) {
                ibm[j] = sw_mat34_identity();
                singular++;
            }
        }
        if (singular) sw__importer_warn(&I->im, "%zu joints have a rest transform that cannot be inverted (scale 0); their "
                                      "inverse binds are the identity", singular);
        *skin = (sw_model_skin){.name = "joints", .joint_count = n, .joints = joints, .inverse_bind = ibm,
                                .skeleton = -1};
        model->skins = skin;
        model->skin_count = 1;
    }
    return SW_OK;
}

/* ---- clips ------------------------------------------------------------------------------------ */

/* The animations' sizes, bounded before anything is allocated: tracks,
   and the floats of their keys. *out_animated_groups counts the poses'
   animated channel groups (translation, rotation, scale). */
static sw_result sw__iqm_anims_bounded(sw__iqm* I, uint64_t* out_animated_groups) {
    const sw__iqm_header* h = &I->h;
    size_t count = h->num_anims, poses = h->num_poses;
    uint64_t animated_groups = 0;
    for (size_t p = 0; p < poses; p++)
        animated_groups += ((I->poses[p].mask & 0x7u) != 0) + ((I->poses[p].mask & 0x78u) != 0) +
                           ((I->poses[p].mask & 0x380u) != 0);
    if ((uint64_t)count * poses * 3 > SW__IQM_MAX_TRACKS)
        return sw__importer_fail(&I->im, SW_ERR_UNSUPPORTED, "%zu animations of %zu joints make more than %llu tracks", count,
                            poses, (unsigned long long)SW__IQM_MAX_TRACKS);
    uint64_t values = 0, joint_frames = 0;
    for (size_t a = 0; a < count; a++) {
        const uint8_t* r = I->data + h->ofs_anims + a * SW__IQM_ANIM;
        uint64_t frames = animated_groups ? (uint64_t)sw__iqm_u32(r + 8) + 1 : 2; /* nothing animated: 2 keys */
        values += (frames + 1) * (animated_groups * 4 + 1) + poses * 3 * 8;
        joint_frames += frames * poses;
        if (values > SW__IQM_MAX_VALUES || joint_frames > SW__IQM_MAX_JOINT_FRAMES)
            return sw__importer_fail(&I->im, SW_ERR_UNSUPPORTED,
                                "the animations' keys need more than %llu floats or %llu joint frames",
                                (unsigned long long)SW__IQM_MAX_VALUES, (unsigned long long)SW__IQM_MAX_JOINT_FRAMES);
    }
    *out_animated_groups = animated_groups;
    return SW_OK;
}

/* An animation's keys: frames [first, first + n) decoded into the values
   of its tracks (3 per pose: translation, rotation, scale; a track of 2
   keys takes the first and last), the loop's closing key frame 0 again;
   rotations normalised, counted in *off_unit. */
static sw_result sw__iqm_fill_keys(sw__iqm* I, const char* name, uint64_t first, uint64_t n, size_t keys,
                                   bool animated, float* frame, const sw_track* tracks, float* const* group_values,
                                   size_t* off_unit) {
    size_t poses = I->h.num_poses;
    for (size_t k = 0; k < keys; k = animated || k + 1 == keys ? k + 1 : keys - 1) {
        size_t f = k < n ? (size_t)(first + k) : (size_t)first; /* the loop's closing key: frame 0 */
        sw__iqm_decode_frame(I, f, frame);
        for (size_t p = 0; p < poses; p++) {
            const float* c = &frame[p * 10];
            if (!sw__iqm_finite(c, 10))
                return sw__importer_fail(&I->im, SW_ERR_INVALID_DATA, "animation '%s': frame %zu of joint %zu is not finite",
                                    name, f, p);
            for (int g = 0; g < 3; g++) {
                const sw_track* t = &tracks[p * 3 + (size_t)g];
                size_t slot = t->key_count == keys ? k : (k == 0 ? 0 : k == keys - 1 ? 1 : SIZE_MAX);
                if (slot == SIZE_MAX) continue;
                float* out = group_values[p * 3 + (size_t)g] + slot * t->component_count;
                if (g == 1) {
                    bool off = false;
                    sw_quat q = sw__iqm_unit_quat(&c[3], &off);
                    *off_unit += off;
                    out[0] = q.x, out[1] = q.y, out[2] = q.z, out[3] = q.w;
                } else {
                    memcpy(out, &c[g == 0 ? 0 : 7], 3 * sizeof *out);
                }
            }
        }
    }
    return SW_OK;
}

static sw_result sw__iqm_anims(sw__iqm* I) {
    sw_model* model = &I->owner->model;
    const sw__iqm_header* h = &I->h;
    size_t count = h->num_anims, poses = h->num_poses;
    if (!count) return SW_OK;
    if (!poses) {
        sw__importer_warn(&I->im, "%zu animations but no poses; ignored", count);
        return SW_OK;
    }
    uint64_t animated_groups = 0;
    if (sw__iqm_anims_bounded(I, &animated_groups) != SW_OK) return I->im.diag.result;
    sw_clip* clips = sw__importer_array(&I->im, I->im.arena, count, sizeof *clips);
    float* frame = sw__importer_array(&I->im, &I->scratch, poses, 10 * sizeof *frame);
    float** group_values = sw__importer_array(&I->im, &I->scratch, poses * 3, sizeof *group_values);
    if (!clips || !frame || !group_values) return I->im.diag.result;
    size_t clip_count = 0, off_unit = 0, odd_rates = 0;
    for (size_t a = 0; a < count; a++) {
        const uint8_t* r = I->data + h->ofs_anims + a * SW__IQM_ANIM;
        char what[40];
        snprintf(what, sizeof what, "animation %zu", a);
        const char* name;
        if (sw__iqm_text(I, sw__iqm_u32(r), what, &name) != SW_OK) return I->im.diag.result;
        uint64_t first = sw__iqm_u32(r + 4), n = sw__iqm_u32(r + 8);
        double fps = sw__iqm_f32(r + 12);
        bool loop = (sw__iqm_u32(r + 16) & 1u) != 0;
        if (first + n > h->num_frames)
            return sw__importer_fail(&I->im, SW_ERR_INDEX_OUT_OF_RANGE, "animation '%s': frames %llu..%llu of %u", name,
                                (unsigned long long)first, (unsigned long long)(first + n), h->num_frames);
        if (n == 0) {
            sw__importer_warn(&I->im, "animation '%s' has no frames; skipped", name);
            continue;
        }
        if (fps == 0.0) fps = SW__IQM_DEFAULT_FPS;
        else if (!(fps > 0.0 && fps <= SW__IQM_MAX_FPS)) fps = SW__IQM_DEFAULT_FPS, odd_rates++;
        /* key k at k / fps; a looping clip closes with frame 0 again at n / fps */
        size_t keys = (size_t)n + (loop && n > 1 ? 1 : 0);
        /* every key's time only when some group is animated (then the
           frames, in the file, bound n) */
        float* times = animated_groups ? sw__importer_array(&I->im, I->im.arena, keys, sizeof *times) : NULL;
        float* ends = sw__importer_array(&I->im, I->im.arena, 2, sizeof *ends);
        sw_track* tracks = sw__importer_array(&I->im, I->im.arena, poses * 3, sizeof *tracks);
        if ((animated_groups && !times) || !ends || !tracks) return I->im.diag.result;
        for (size_t k = 0; times && k < keys; k++) times[k] = (float)((double)k / fps);
        ends[0] = 0.0f, ends[1] = (float)((double)(keys - 1) / fps);
        for (size_t p = 0; p < poses; p++) {
            static const uint32_t groups[3] = {0x7u, 0x78u, 0x380u};
            static const sw_track_path paths[3] = {SW_PATH_TRANSLATION, SW_PATH_ROTATION, SW_PATH_SCALE};
            for (int g = 0; g < 3; g++) {
                uint32_t width = g == 1 ? 4 : 3;
                bool animated = (I->poses[p].mask & groups[g]) != 0;
                /* a constant group: two keys (0 and the end) so that every track spans the clip */
                size_t track_keys = animated ? keys : (keys > 1 ? 2 : 1);
                float* v = sw__importer_array(&I->im, I->im.arena, track_keys, width * sizeof *v);
                if (!v) return I->im.diag.result;
                group_values[p * 3 + (size_t)g] = v;
                tracks[p * 3 + (size_t)g] = (sw_track){.target = (uint32_t)(1 + p), .path = paths[g],
                                                       .interpolation = SW_INTERP_LINEAR, .component_count = width,
                                                       .key_count = track_keys, .times = animated ? times : ends,
                                                       .values = v};
            }
        }
        if (sw__iqm_fill_keys(I, name, first, n, keys, animated_groups != 0, frame, tracks, group_values, &off_unit) !=
            SW_OK)
            return I->im.diag.result;
        sw_clip* clip = &clips[clip_count];
        *clip = (sw_clip){.name = name, .track_count = poses * 3, .tracks = tracks};
        sw_diag inner = {0};
        if (sw_clip_finish(clip, &inner) != SW_OK)
            return sw__importer_fail(&I->im, SW_ERR_INVALID_DATA, "animation '%s': %s", name, inner.message);
        clip_count++;
    }
    if (off_unit) sw__importer_warn(&I->im, "%zu animated rotations were not unit quaternions (normalised)", off_unit);
    if (odd_rates)
        sw__importer_warn(&I->im, "%zu animations have a frame rate that is negative, not finite or above %g; %g used", odd_rates,
                     SW__IQM_MAX_FPS, SW__IQM_DEFAULT_FPS);
    model->animations = clips;
    model->animation_count = clip_count;
    return SW_OK;
}

/* ---- the whole load ----------------------------------------------------------------------------- */

static sw_result sw__iqm_finish(sw__iqm* I) {
    sw_model* model = &I->owner->model;
    size_t n = model->node_count;
    uint32_t* offsets = sw__importer_array(&I->im, I->im.arena, n, sizeof *offsets);
    sw_transform* rest = sw__importer_array(&I->im, I->im.arena, n, sizeof *rest);
    float* rest_weights = sw__importer_alloc(&I->im, I->im.arena, sizeof *rest_weights);
    if (!offsets || !rest || !rest_weights) return I->im.diag.result;
    for (size_t i = 0; i < n; i++) ((sw_model_node*)&model->nodes[i])->weight_offset = 0; /* IQM has no morphs */
    model->weight_offsets = offsets;
    model->weight_count = 0;
    model->skin_joint_count = model->skin_count ? model->skins[0].joint_count : 0;
    sw__model_rest_pose(model, rest, rest_weights);
    model->rest_local = rest;
    model->rest_weights = rest_weights;
    return sw__importer_finish_warnings(&I->im, model);
}

static sw_result sw__iqm_convert(sw__iqm* I, size_t file_size) {
    sw_model* model = &I->owner->model;
    model->format = "IQM";
    model->unit_scale_to_metres = 0.0f; /* IQM states no unit */
    model->up_axis_read[0] = '+';       /* IQM states no axis either; its tools' convention is Z up */
    model->up_axis_read[1] = 'Z';
    if (sw__iqm_header_read(I, file_size) != SW_OK || sw__iqm_poses_read(I) != SW_OK ||
        sw__iqm_arrays_read(I) != SW_OK)
        return I->im.diag.result;
    sw_mat34* rest_world = NULL;
    if (sw__iqm_nodes(I, I->h.num_meshes, &rest_world) != SW_OK || sw__iqm_meshes(I, rest_world) != SW_OK ||
        sw__iqm_anims(I) != SW_OK || sw__iqm_finish(I) != SW_OK)
        return I->im.diag.result;
    return SW_OK;
}

bool sw_iqm_is_iqm(const void* data, size_t size) {
    return data && size >= 16 && memcmp(data, SW__IQM_MAGIC, 16) == 0;
}

sw_result sw_iqm_load_memory(const void* data, size_t size, const char* name, const char* base_dir,
                             const sw_iqm_options* options, sw_model** out_model, sw_diag* diag) {
    if (out_model) *out_model = NULL;
    const char* label = name ? sw__path_base_name(name) : "<memory>";
    if (!out_model || (!data && size))
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "sw_iqm_load_memory: no data or no out_model");
    size_t max_file = options && options->max_memory ? options->max_memory : SW__IQM_DEFAULT_MAX_FILE;
    if (size > max_file || size > UINT32_MAX)
        return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1,
                           "%s: %zu bytes is more than the importer reads (options.max_memory: %zu)", label, size,
                           max_file);
    sw__iqm I;
    memset(&I, 0, sizeof I);
    sw__importer_init(&I.im, label, SW__IQM_MAX_WARNINGS);
    I.data = data;
    I.size = size;
    I.options = options;
    I.owner = sw__importer_new_model(&I.im, options && options->allow_outside_paths);
    sw_result r = I.owner ? sw__iqm_convert(&I, size) : I.im.diag.result;
    sw__arena_free(&I.scratch);
    return sw__importer_end(&I.im, I.owner, r, name, base_dir, out_model, diag);
}

/* sw_iqm_load_memory for sw__importer_load_file. */
static sw_result sw__iqm_load_memory_any(const void* data, size_t size, const char* name, const char* base_dir,
                                         const void* options, sw_model** out_model, sw_diag* diag) {
    return sw_iqm_load_memory(data, size, name, base_dir, options, out_model, diag);
}

sw_result sw_iqm_load_file(const char* path, const sw_iqm_options* options, sw_model** out_model, sw_diag* diag) {
    if (out_model) *out_model = NULL;
    if (!path || !out_model)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "sw_iqm_load_file: no path or no out_model");
    size_t max_file = options && options->max_memory ? options->max_memory : SW__IQM_DEFAULT_MAX_FILE;
    return sw__importer_load_file(path, max_file, sw__iqm_load_memory_any, options, out_model, diag);
}
