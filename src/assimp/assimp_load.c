/* The Assimp importer (sinew/assimp.h): Assimp's aiScene → the
   format-neutral model. docs/import.md lists the post-processing steps
   and the conversions.

   Assimp's scene is untrusted like the file it came from: every count is
   bounded, every pointer checked before it is followed, every index
   checked against what it indexes, every float checked finite. The model
   is built in an arena (model_internal.h); load-time tables live in a
   second arena freed before returning. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sinew/assimp.h"
#include "../import/file_internal.h"
#include "../import/importer_internal.h"

#ifdef SW_HAVE_ASSIMP
#include <assimp/cimport.h>
#include <assimp/config.h>
#include <assimp/material.h>
#include <assimp/metadata.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include "../base/base_internal.h"
#include "../base/hash_internal.h"
#include "assimp_io.h"
#include "assimp_isolate.h"
#endif

#define SW__AI_DEFAULT_MAX_FILE ((size_t)256 << 20)

#ifndef SW_HAVE_ASSIMP

bool sw_assimp_available(void) { return false; }

bool sw_assimp_reads_extension(const char* extension) {
    (void)extension;
    return false;
}

sw_result sw_assimp_load_memory(const void* data, size_t size, const char* name, const char* base_dir,
                                const sw_assimp_options* options, sw_model** out_model, sw_diag* diag) {
    (void)data, (void)size, (void)base_dir, (void)options;
    if (out_model) *out_model = NULL;
    return sw_diag_set(diag, SW_ERR_UNSUPPORTED, -1,
                       "%s: this build of sinew has no Assimp importer (built with -DSW_ASSIMP=OFF)",
                       name ? sw__path_base_name(name) : "<memory>");
}

sw_result sw_assimp_load_file(const char* path, const sw_assimp_options* options, sw_model** out_model,
                              sw_diag* diag) {
    return sw_assimp_load_memory(NULL, 0, path, NULL, options, out_model, diag);
}

#else

/* The extension of a name, without the dot, or "". */
static const char* sw__ai_extension(const char* name) {
    const char* base = sw__path_base_name(name);
    const char* dot = strrchr(base, '.');
    return dot && dot != base ? dot + 1 : "";
}

/* ---- limits ------------------------------------------------------------------------------ */

/* Bounds on what a scene may hold, far beyond any character, so that a
   hostile file cannot make the model's arrays overflow or explode. */
#define SW__AI_MAX_NODES ((size_t)1 << 20)
#define SW__AI_MAX_VERTICES ((size_t)1 << 26)           /* per mesh */
#define SW__AI_MAX_INSTANCED_VERTICES ((size_t)1 << 28) /* summed over every node's meshes */
#define SW__AI_MAX_KEYS ((size_t)1 << 26)               /* per channel */
#define SW__AI_MAX_RAW 64                               /* raw influences kept per vertex */
#define SW__AI_MAX_WARNINGS 64
#define SW__AI_HELPER "_$AssimpFbx$_"

/* ---- the loader --------------------------------------------------------------------------- */

typedef struct sw__ai_name {
    const char* name;
    uint32_t node; /* Assimp preorder index */
} sw__ai_name;

/* One geometry per aiMesh, shared by every node that draws it. */
typedef struct sw__ai_geometry {
    bool done;
    sw_model_primitive prim; /* without influences */
} sw__ai_geometry;

typedef struct sw__ai {
    sw__importer im;                  /* the file's base name, the model's arena, the error, the warnings */
    const struct aiScene* scene;
    sw__model_owner* owner;
    sw__arena scratch;                /* load-time tables */
    int max_influences;
    bool keep_raw;
    /* the node tree, depth first */
    size_t ai_count;
    const struct aiNode** ai_nodes;
    int32_t* ai_parent;
    int32_t* model_of;                /* Assimp node → model node (helpers: the node they fold into) */
    bool* helper;
    sw__ai_name* names;               /* sorted by name, for channel and bone lookup */
    size_t model_count;
    uint32_t* ai_of;                  /* model node → Assimp node */
    sw_mat34 root_conversion;         /* units and axes, applied on the root */
    bool has_conversion;
    sw__ai_geometry* geometry;
    uint32_t image_count, image_capacity;
    const char** image_keys;
} sw__ai;

/* An aiString as model text: its declared length, bounded by the buffer. */
static const char* sw__ai_string(sw__ai* A, const struct aiString* s) {
    size_t length = s->length < MAXLEN ? s->length : MAXLEN - 1;
    const char* nul = memchr(s->data, 0, length);
    if (nul) length = (size_t)(nul - s->data);
    return sw__importer_strdup(&A->im, s->data, length);
}

/* An aiString's text for comparisons: NUL-terminated within the buffer. */
static const char* sw__ai_cstr(const struct aiString* s) {
    return memchr(s->data, 0, MAXLEN) ? s->data : "";
}

/* ---- math ------------------------------------------------------------------------------- */

static bool sw__ai_finite(double x) { return isfinite(x); }

/* aiMatrix4x4 is row-major with the translation in the last column, as
   sw_mat34's rows. The bottom row must be 0 0 0 1 (within 1e-5). */
static bool sw__ai_matrix(const struct aiMatrix4x4* m, sw_mat34* out) {
    const ai_real r[3][4] = {{m->a1, m->a2, m->a3, m->a4}, {m->b1, m->b2, m->b3, m->b4}, {m->c1, m->c2, m->c3, m->c4}};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++) {
            if (!sw__ai_finite(r[i][j]) || fabs((double)r[i][j]) > 1e30) return false;
            out->m[i][j] = (float)r[i][j];
        }
    return fabs((double)m->d1) <= 1e-5 && fabs((double)m->d2) <= 1e-5 && fabs((double)m->d3) <= 1e-5 &&
           fabs((double)m->d4 - 1.0) <= 1e-5;
}

/* M = T·R·S (sw_transform_from_mat34), the rotation renormalised. */
static sw_transform sw__ai_decompose(const sw_mat34* m, bool* exact) {
    sw_transform t = sw_transform_from_mat34(m, exact);
    t.rotation = sw_quat_normalize(t.rotation);
    return t;
}

static sw_quat sw__ai_quat(const struct aiQuaternion* q) {
    return (sw_quat){(float)q->x, (float)q->y, (float)q->z, (float)q->w};
}

/* ---- the node tree ------------------------------------------------------------------------ */

static bool sw__ai_is_helper(const struct aiNode* n, bool root) {
    return !root && n->mNumChildren == 1 && n->mNumMeshes == 0 && strstr(sw__ai_cstr(&n->mName), SW__AI_HELPER);
}

static int sw__ai_name_cmp(const void* a, const void* b) {
    const sw__ai_name *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->node < y->node ? -1 : x->node > y->node);
}

/* The Assimp node called `name`, or -1 (the first in depth-first order). */
static int32_t sw__ai_find(const sw__ai* A, const char* name) {
    size_t lo = 0, hi = A->ai_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(A->names[mid].name, name) < 0) lo = mid + 1;
        else hi = mid;
    }
    return lo < A->ai_count && strcmp(A->names[lo].name, name) == 0 ? (int32_t)A->names[lo].node : -1;
}

/* Depth first, children in file order: parents come first. Iterative, so
   a deep hierarchy cannot overflow the stack; bounded, so a malformed
   graph cannot run forever. */
static sw_result sw__ai_walk_nodes(sw__ai* A) {
    const struct aiNode* root = A->scene->mRootNode;
    if (!root) return sw__importer_fail(&A->im, SW_ERR_INVALID_DATA, "Assimp returned a scene without a root node");
    size_t capacity = 1024, count = 0, top = 0;
    const struct aiNode** order = sw__malloc(capacity * sizeof *order);
    int32_t* parents = sw__malloc(capacity * sizeof *parents);
    struct {
        const struct aiNode* node;
        int32_t parent;
    }* stack = sw__malloc(capacity * sizeof *stack);
    size_t stack_capacity = capacity;
    sw_result r = SW_OK;
    if (!order || !parents || !stack) {
        r = sw__importer_fail(&A->im, SW_ERR_OUT_OF_MEMORY, "out of memory");
        goto done;
    }
    stack[top].node = root;
    stack[top++].parent = -1;
    while (top) {
        top--;
        const struct aiNode* n = stack[top].node;
        int32_t parent = stack[top].parent;
        if (count >= SW__AI_MAX_NODES) {
            r = sw__importer_fail(&A->im, SW_ERR_UNSUPPORTED, "more than %zu nodes", SW__AI_MAX_NODES);
            goto done;
        }
        if (count == capacity) {
            capacity *= 2;
            const struct aiNode** o = sw__realloc(order, capacity * sizeof *o);
            if (o) order = o;
            int32_t* p = sw__realloc(parents, capacity * sizeof *p);
            if (p) parents = p;
            if (!o || !p) {
                r = sw__importer_fail(&A->im, SW_ERR_OUT_OF_MEMORY, "out of memory");
                goto done;
            }
        }
        order[count] = n;
        parents[count] = parent;
        uint32_t index = (uint32_t)count++;
        if (n->mNumChildren && !n->mChildren) {
            r = sw__importer_fail(&A->im, SW_ERR_INVALID_DATA, "node '%s' has %u children but no list", sw__ai_cstr(&n->mName),
                            n->mNumChildren);
            goto done;
        }
        if (n->mNumChildren > SW__AI_MAX_NODES) {
            r = sw__importer_fail(&A->im, SW_ERR_UNSUPPORTED, "node '%s' has %u children", sw__ai_cstr(&n->mName),
                            n->mNumChildren);
            goto done;
        }
        if (top + n->mNumChildren > stack_capacity) {
            size_t want = (top + n->mNumChildren) * 2;
            void* s = sw__realloc(stack, want * sizeof *stack);
            if (!s) {
                r = sw__importer_fail(&A->im, SW_ERR_OUT_OF_MEMORY, "out of memory");
                goto done;
            }
            stack = s;
            stack_capacity = want;
        }
        /* pushed last-first, so the first child is visited first */
        for (unsigned c = n->mNumChildren; c-- > 0;) {
            if (!n->mChildren[c]) {
                r = sw__importer_fail(&A->im, SW_ERR_INVALID_DATA, "node '%s': child %u is missing", sw__ai_cstr(&n->mName), c);
                goto done;
            }
            stack[top].node = n->mChildren[c];
            stack[top++].parent = (int32_t)index;
        }
    }
    A->ai_count = count;
    A->ai_nodes = sw__importer_array(&A->im, &A->scratch, count, sizeof *A->ai_nodes);
    A->ai_parent = sw__importer_array(&A->im, &A->scratch, count, sizeof *A->ai_parent);
    A->model_of = sw__importer_array(&A->im, &A->scratch, count, sizeof *A->model_of);
    A->helper = sw__importer_array(&A->im, &A->scratch, count, sizeof *A->helper);
    A->names = sw__importer_array(&A->im, &A->scratch, count, sizeof *A->names);
    A->ai_of = sw__importer_array(&A->im, &A->scratch, count, sizeof *A->ai_of);
    if (!A->ai_nodes || !A->ai_parent || !A->model_of || !A->helper || !A->names || !A->ai_of) {
        r = A->im.diag.result;
        goto done;
    }
    memcpy(A->ai_nodes, order, count * sizeof *order);
    memcpy(A->ai_parent, parents, count * sizeof *parents);
    for (size_t i = 0; i < count; i++) {
        A->names[i].name = sw__ai_cstr(&order[i]->mName);
        A->names[i].node = (uint32_t)i;
    }
    qsort(A->names, count, sizeof *A->names, sw__ai_name_cmp);
done:
    sw__free(order);
    sw__free(parents);
    sw__free(stack);
    return r;
}

/* Marks the FBX pivot helpers and numbers the other nodes: a helper has
   one child and no mesh, so each chain of helpers ends at the node it
   belongs to. Helpers point (model_of) at that node. */
static void sw__ai_number_nodes(sw__ai* A) {
    size_t kept = 0;
    for (size_t i = 0; i < A->ai_count; i++) {
        A->helper[i] = sw__ai_is_helper(A->ai_nodes[i], i == 0);
        if (A->helper[i]) continue;
        A->model_of[i] = (int32_t)kept;
        A->ai_of[kept++] = (uint32_t)i;
    }
    /* children come after parents: walk back up each chain from its end */
    for (size_t i = A->ai_count; i-- > 0;) {
        if (A->helper[i]) continue;
        for (int32_t p = A->ai_parent[i]; p >= 0 && A->helper[p]; p = A->ai_parent[p]) A->model_of[p] = A->model_of[i];
    }
    A->model_count = kept;
}

/* The nearest ancestor that is a model node (helpers skipped). */
static int32_t sw__ai_model_parent(const sw__ai* A, uint32_t ai) {
    int32_t p = A->ai_parent[ai];
    while (p >= 0 && A->helper[p]) p = A->ai_parent[p];
    return p < 0 ? -1 : A->model_of[p];
}

/* The chain whose product is model node `ai`'s local transform: the
   helpers above it, top first, then the node. */
static size_t sw__ai_chain(const sw__ai* A, uint32_t ai, uint32_t* out, size_t capacity) {
    size_t n = 0;
    for (int32_t p = A->ai_parent[ai]; p >= 0 && A->helper[p]; p = A->ai_parent[p]) n++;
    if (n + 1 > capacity) n = capacity - 1; /* a chain longer than FBX makes: its top is dropped (warned) */
    size_t k = n;
    out[k] = ai;
    for (int32_t p = A->ai_parent[ai]; p >= 0 && A->helper[p] && k > 0; p = A->ai_parent[p]) out[--k] = (uint32_t)p;
    return n + 1;
}

#define SW__AI_MAX_CHAIN 16

/* ---- units and axes ------------------------------------------------------------------------- */

static bool sw__ai_meta_number(const struct aiMetadata* meta, const char* key, double* out) {
    if (!meta || !meta->mKeys || !meta->mValues) return false;
    for (unsigned i = 0; i < meta->mNumProperties; i++) {
        if (strcmp(sw__ai_cstr(&meta->mKeys[i]), key) != 0) continue;
        const struct aiMetadataEntry* e = &meta->mValues[i];
        if (!e->mData) return false;
        switch (e->mType) {
        case AI_BOOL: *out = *(const bool*)e->mData; return true;
        case AI_INT32: *out = *(const int32_t*)e->mData; return true;
        case AI_UINT64: *out = (double)*(const uint64_t*)e->mData; return true;
        case AI_FLOAT: *out = *(const float*)e->mData; return isfinite(*out);
        case AI_DOUBLE: *out = *(const double*)e->mData; return isfinite(*out);
        default: return false;
        }
    }
    return false;
}

static const char* sw__ai_meta_string(const struct aiMetadata* meta, const char* key) {
    if (!meta || !meta->mKeys || !meta->mValues) return NULL;
    for (unsigned i = 0; i < meta->mNumProperties; i++)
        if (strcmp(sw__ai_cstr(&meta->mKeys[i]), key) == 0 && meta->mValues[i].mType == AI_AISTRING &&
            meta->mValues[i].mData)
            return sw__ai_cstr((const struct aiString*)meta->mValues[i].mData);
    return NULL;
}

/* FBX states its units (UnitScaleFactor: centimetres per unit) and its
   axes (which axis, with which sign, is up, front and right). The root
   gets the transform that takes them to metres, +Y up, +Z front, +X
   right. Other formats: what Assimp did is kept (Collada's <unit> and
   <up_axis> are applied by Assimp itself). */
static void sw__ai_units(sw__ai* A, bool fbx) {
    sw_model* model = &A->owner->model;
    const struct aiMetadata* meta = A->scene->mMetaData;
    A->root_conversion = sw_mat34_identity();
    if (!fbx) return;
    double unit;
    float scale = 1.0f;
    if (sw__ai_meta_number(meta, "UnitScaleFactor", &unit)) {
        if (unit > 0.0 && unit < 1e7) {
            model->unit_scale_to_metres = (float)(unit / 100.0);
            scale = model->unit_scale_to_metres;
        } else {
            sw__importer_warn(&A->im, "UnitScaleFactor %g is not a unit; units kept as they are", unit);
        }
    }
    double up = 1, up_sign = 1, front = 2, front_sign = 1, coord = 0, coord_sign = 1;
    bool has_up = sw__ai_meta_number(meta, "UpAxis", &up);
    sw__ai_meta_number(meta, "UpAxisSign", &up_sign);
    sw__ai_meta_number(meta, "FrontAxis", &front);
    sw__ai_meta_number(meta, "FrontAxisSign", &front_sign);
    sw__ai_meta_number(meta, "CoordAxis", &coord);
    sw__ai_meta_number(meta, "CoordAxisSign", &coord_sign);
    int axes[3] = {(int)coord, (int)up, (int)front};
    double signs[3] = {coord_sign < 0 ? -1 : 1, up_sign < 0 ? -1 : 1, front_sign < 0 ? -1 : 1};
    bool valid = true;
    for (int i = 0; i < 3; i++) valid = valid && axes[i] >= 0 && axes[i] <= 2;
    valid = valid && axes[0] != axes[1] && axes[1] != axes[2] && axes[0] != axes[2];
    if (has_up && valid) {
        model->up_axis_read[0] = signs[1] < 0 ? '-' : '+';
        model->up_axis_read[1] = (char)('X' + axes[1]);
    } else if (has_up) {
        sw__importer_warn(&A->im, "axis settings (up %g, front %g, right %g) are not three distinct axes; axes kept", up, front,
                    coord);
    }
    sw_mat34 c = sw_mat34_identity();
    if (valid) {
        /* row i of the rotation picks the file's axis that becomes sinew's X, Y, Z */
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) c.m[i][j] = j == axes[i] ? (float)signs[i] : 0.0f;
        if (sw_mat34_determinant(&c) < 0.0f)
            sw__importer_warn(&A->im, "the file's axes are left-handed; converted with a mirror on Z (triangles wind the "
                           "other way)");
    }
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) c.m[i][j] *= scale;
    A->root_conversion = c;
    A->has_conversion = memcmp(&c, &(sw_mat34){{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}}}, sizeof c) != 0;
}

/* ---- nodes ------------------------------------------------------------------------------- */

/* The static local transform of model node `m`: the product of its chain
   (root: the unit conversion first). */
static sw_result sw__ai_static_local(sw__ai* A, size_t m, sw_mat34* out) {
    uint32_t chain[SW__AI_MAX_CHAIN];
    size_t n = sw__ai_chain(A, A->ai_of[m], chain, SW__AI_MAX_CHAIN);
    sw_mat34 local = m == 0 ? A->root_conversion : sw_mat34_identity();
    for (size_t k = 0; k < n; k++) {
        sw_mat34 x;
        const struct aiNode* node = A->ai_nodes[chain[k]];
        if (!sw__ai_matrix(&node->mTransformation, &x))
            return sw__importer_fail(&A->im, SW_ERR_INVALID_DATA, "node '%s': its transformation is not a finite affine matrix",
                               sw__ai_cstr(&node->mName));
        local = sw_mat34_mul(&local, &x);
    }
    *out = local;
    return SW_OK;
}

static sw_result sw__ai_nodes(sw__ai* A) {
    sw_model* model = &A->owner->model;
    size_t n = A->model_count;
    sw_model_node* nodes = sw__importer_array(&A->im, A->im.arena, n, sizeof *nodes);
    uint32_t* identity = sw__importer_array(&A->im, A->im.arena, n, sizeof *identity);
    size_t* child_counts = sw__importer_array(&A->im, &A->scratch, n, sizeof *child_counts);
    if (!nodes || !identity || !child_counts) return A->im.diag.result;
    size_t helpers = 0, long_chains = 0;
    for (size_t i = 0; i < A->ai_count; i++) helpers += A->helper[i];
    for (size_t m = 0; m < n; m++) {
        uint32_t ai = A->ai_of[m];
        const struct aiNode* src = A->ai_nodes[ai];
        sw_model_node* node = &nodes[m];
        *node = (sw_model_node){.parent = sw__ai_model_parent(A, ai), .mesh = -1, .skin = -1, .camera = -1,
                                .matrix = sw_mat34_identity(), .source_index = (uint32_t)m};
        if (!(node->name = sw__ai_string(A, &src->mName))) return A->im.diag.result;
        size_t depth = 0;
        for (int32_t p = A->ai_parent[ai]; p >= 0 && A->helper[p]; p = A->ai_parent[p]) depth++;
        if (depth + 1 > SW__AI_MAX_CHAIN) long_chains++;
        sw_mat34 local;
        if (sw__ai_static_local(A, m, &local) != SW_OK) return A->im.diag.result;
        bool exact;
        node->trs = sw__ai_decompose(&local, &exact);
        if (!exact) {
            node->has_matrix = true;
            node->matrix = local;
            node->trs = sw_transform_identity();
        }
        if (node->parent >= 0) child_counts[node->parent]++;
        identity[m] = (uint32_t)m;
    }
    for (size_t m = 0; m < n; m++) {
        if (!child_counts[m]) continue;
        nodes[m].children = sw__importer_array(&A->im, A->im.arena, child_counts[m], sizeof(uint32_t));
        if (!nodes[m].children) return A->im.diag.result;
    }
    for (size_t m = 1; m < n; m++) {
        sw_model_node* parent = &nodes[nodes[m].parent];
        ((uint32_t*)parent->children)[parent->child_count++] = (uint32_t)m;
    }
    if (long_chains) sw__importer_warn(&A->im, "%zu chains of more than %d helper nodes; their top transforms are dropped",
                                 long_chains, SW__AI_MAX_CHAIN - 1);
    model->nodes = nodes;
    model->node_count = n;
    model->node_from_source = identity;
    model->import_collapsed_nodes = helpers;
    /* no warning: folding loses nothing (info and check report the count) */
    sw_model_scene* scene = sw__importer_alloc(&A->im, A->im.arena, sizeof *scene);
    uint32_t* roots = sw__importer_alloc(&A->im, A->im.arena, sizeof *roots);
    if (!scene || !roots) return A->im.diag.result;
    scene->node_count = 1;
    scene->nodes = roots;
    model->scenes = scene;
    model->scene_count = 1;
    model->default_scene = 0;
    return SW_OK;
}

/* ---- geometry ------------------------------------------------------------------------------- */

/* POSITION and the bounds; every position must be finite. */
static sw_result sw__ai_read_positions(sw__ai* A, uint32_t index, const struct aiMesh* mesh, sw_model_primitive* p) {
    const char* name = sw__ai_cstr(&mesh->mName);
    size_t vc = mesh->mNumVertices;
    float* positions = sw__importer_array(&A->im, A->im.arena, vc, 3 * sizeof(float));
    if (!positions) return A->im.diag.result;
    for (size_t v = 0; v < vc; v++) {
        const struct aiVector3D* x = &mesh->mVertices[v];
        if (!sw__ai_finite(x->x) || !sw__ai_finite(x->y) || !sw__ai_finite(x->z))
            return sw__importer_fail(&A->im, SW_ERR_INVALID_DATA, "mesh %u '%s': vertex %zu's position is not finite", index,
                               name, v);
        positions[v * 3] = (float)x->x, positions[v * 3 + 1] = (float)x->y, positions[v * 3 + 2] = (float)x->z;
        for (int c = 0; c < 3; c++) {
            if (v == 0 || positions[v * 3 + c] < p->bounds_min[c]) p->bounds_min[c] = positions[v * 3 + c];
            if (v == 0 || positions[v * 3 + c] > p->bounds_max[c]) p->bounds_max[c] = positions[v * 3 + c];
        }
    }
    p->positions = positions;
    p->vertex_count = vc;
    return SW_OK;
}

/* NORMAL, unit length (degenerate ones +Y, with a warning), and TANGENT
   with glTF's handedness in w when Assimp gives tangents and bitangents. */
static sw_result sw__ai_read_normals(sw__ai* A, uint32_t index, const struct aiMesh* mesh, sw_model_primitive* p) {
    const char* name = sw__ai_cstr(&mesh->mName);
    size_t vc = mesh->mNumVertices;
    if (!mesh->mNormals) return SW_OK;
    float* normals = sw__importer_array(&A->im, A->im.arena, vc, 3 * sizeof(float));
    if (!normals) return A->im.diag.result;
    size_t bad = 0;
    for (size_t v = 0; v < vc; v++) {
        const struct aiVector3D* x = &mesh->mNormals[v];
        double length = sqrt((double)x->x * x->x + (double)x->y * x->y + (double)x->z * x->z);
        if (!(length > 1e-12) || !isfinite(length)) {
            bad++;
            normals[v * 3 + 1] = 1.0f; /* degenerate: any unit vector draws better than NaN */
            continue;
        }
        normals[v * 3] = (float)(x->x / length), normals[v * 3 + 1] = (float)(x->y / length),
        normals[v * 3 + 2] = (float)(x->z / length);
    }
    if (bad) sw__importer_warn(&A->im, "mesh %u '%s': %zu normals of zero length or not finite (set to +Y)", index, name, bad);
    p->normals = normals;
    if (!mesh->mTangents || !mesh->mBitangents) return SW_OK;
    float* tangents = sw__importer_array(&A->im, A->im.arena, vc, 4 * sizeof(float));
    if (!tangents) return A->im.diag.result;
    for (size_t v = 0; v < vc; v++) {
        const struct aiVector3D *t = &mesh->mTangents[v], *b = &mesh->mBitangents[v];
        sw_vec3 tv = sw_vec3_make((float)t->x, (float)t->y, (float)t->z);
        sw_vec3 bv = sw_vec3_make((float)b->x, (float)b->y, (float)b->z);
        sw_vec3 nv = sw_vec3_make(normals[v * 3], normals[v * 3 + 1], normals[v * 3 + 2]);
        float length = sw_vec3_length(tv);
        if (!(length > 1e-12f) || !isfinite(length)) tv = sw_vec3_make(1, 0, 0), length = 1.0f;
        tangents[v * 4] = tv.x / length, tangents[v * 4 + 1] = tv.y / length,
        tangents[v * 4 + 2] = tv.z / length;
        /* glTF's w: the bitangent is cross(n, t) · w */
        tangents[v * 4 + 3] = sw_vec3_dot(sw_vec3_cross(nv, tv), bv) < 0.0f ? -1.0f : 1.0f;
    }
    p->tangents = tangents;
    return SW_OK;
}

/* TEXCOORD_n (the first sets in a row) and COLOR_0; values that are not
   finite become 0 (UVs) or 1 (colours). */
static sw_result sw__ai_read_texcoords_colors(sw__ai* A, const struct aiMesh* mesh, sw_model_primitive* p) {
    size_t vc = mesh->mNumVertices;
    for (int s = 0; s < SW_MODEL_MAX_TEXCOORDS && s < AI_MAX_NUMBER_OF_TEXTURECOORDS; s++) {
        if (!mesh->mTextureCoords[s]) break;
        float* uv = sw__importer_array(&A->im, A->im.arena, vc, 2 * sizeof(float));
        if (!uv) return A->im.diag.result;
        for (size_t v = 0; v < vc; v++) {
            const struct aiVector3D* x = &mesh->mTextureCoords[s][v];
            uv[v * 2] = sw__ai_finite(x->x) ? (float)x->x : 0.0f;
            uv[v * 2 + 1] = sw__ai_finite(x->y) ? (float)x->y : 0.0f;
        }
        p->texcoords[s] = uv;
        p->texcoord_count = s + 1;
    }
    if (mesh->mColors[0]) {
        float* rgba = sw__importer_array(&A->im, A->im.arena, vc, 4 * sizeof(float));
        if (!rgba) return A->im.diag.result;
        for (size_t v = 0; v < vc; v++) {
            const struct aiColor4D* c = &mesh->mColors[0][v];
            const ai_real x[4] = {c->r, c->g, c->b, c->a};
            for (int k = 0; k < 4; k++) rgba[v * 4 + k] = sw__ai_finite(x[k]) ? (float)x[k] : 1.0f;
        }
        p->colors = rgba;
    }
    return SW_OK;
}

/* The indices. Triangles only: SortByPType with points and lines removed
   leaves triangles; anything else Assimp hands back is skipped. */
static sw_result sw__ai_read_triangles(sw__ai* A, uint32_t index, const struct aiMesh* mesh, sw_model_primitive* p) {
    const char* name = sw__ai_cstr(&mesh->mName);
    size_t vc = mesh->mNumVertices;
    if (mesh->mNumFaces && !mesh->mFaces)
        return sw__importer_fail(&A->im, SW_ERR_INVALID_DATA, "mesh %u '%s' has %u faces but no list", index, name,
                           mesh->mNumFaces);
    size_t triangles = 0, skipped = 0;
    for (unsigned f = 0; f < mesh->mNumFaces; f++) {
        if (mesh->mFaces[f].mNumIndices == 3 && mesh->mFaces[f].mIndices) triangles++;
        else skipped++;
    }
    uint32_t* indices = sw__importer_array(&A->im, A->im.arena, triangles ? triangles : 1, 3 * sizeof(uint32_t));
    if (!indices) return A->im.diag.result;
    size_t k = 0;
    for (unsigned f = 0; f < mesh->mNumFaces; f++) {
        const struct aiFace* face = &mesh->mFaces[f];
        if (face->mNumIndices != 3 || !face->mIndices) continue;
        for (int c = 0; c < 3; c++) {
            if (face->mIndices[c] >= vc)
                return sw__importer_fail(&A->im, SW_ERR_INDEX_OUT_OF_RANGE, "mesh %u '%s': face %u uses vertex %u of %zu", index,
                                   name, f, face->mIndices[c], vc);
            indices[k++] = face->mIndices[c];
        }
    }
    if (skipped) sw__importer_warn(&A->im, "mesh %u '%s': %zu faces that are not triangles skipped", index, name, skipped);
    p->indices = indices;
    p->index_count = k;
    return SW_OK;
}

/* Morph targets: Assimp gives each target's absolute positions and
   normals; glTF's targets (and sinew's) are differences from the base. */
static sw_result sw__ai_read_morph_targets(sw__ai* A, uint32_t index, const struct aiMesh* mesh,
                                           sw_model_primitive* p) {
    const char* name = sw__ai_cstr(&mesh->mName);
    size_t vc = mesh->mNumVertices;
    if (!mesh->mNumAnimMeshes || !mesh->mAnimMeshes) return SW_OK;
    size_t n = mesh->mNumAnimMeshes;
    sw_model_morph_target* targets = sw__importer_array(&A->im, A->im.arena, n, sizeof *targets);
    if (!targets) return A->im.diag.result;
    for (size_t t = 0; t < n; t++) {
        const struct aiAnimMesh* am = mesh->mAnimMeshes[t];
        if (!am || am->mNumVertices != vc) {
            sw__importer_warn(&A->im, "mesh %u '%s': morph target %zu does not match the mesh's %zu vertices; left empty",
                        index, name, t, vc);
            continue;
        }
        if (am->mVertices) {
            float* d = sw__importer_array(&A->im, A->im.arena, vc, 3 * sizeof(float));
            if (!d) return A->im.diag.result;
            for (size_t v = 0; v < vc; v++) {
                const struct aiVector3D* x = &am->mVertices[v];
                float dx = (float)x->x - p->positions[v * 3], dy = (float)x->y - p->positions[v * 3 + 1],
                      dz = (float)x->z - p->positions[v * 3 + 2];
                bool ok = isfinite(dx) && isfinite(dy) && isfinite(dz);
                d[v * 3] = ok ? dx : 0.0f, d[v * 3 + 1] = ok ? dy : 0.0f, d[v * 3 + 2] = ok ? dz : 0.0f;
            }
            targets[t].positions = d;
        }
        if (am->mNormals && mesh->mNormals) {
            float* d = sw__importer_array(&A->im, A->im.arena, vc, 3 * sizeof(float));
            if (!d) return A->im.diag.result;
            for (size_t v = 0; v < vc; v++) {
                const struct aiVector3D* x = &am->mNormals[v];
                for (int c = 0; c < 3; c++) {
                    float value = c == 0 ? (float)x->x : c == 1 ? (float)x->y : (float)x->z;
                    float delta = value - p->normals[v * 3 + c];
                    d[v * 3 + c] = isfinite(delta) ? delta : 0.0f;
                }
            }
            targets[t].normals = d;
        }
    }
    p->targets = targets;
    p->target_count = n;
    return SW_OK;
}

static sw_result sw__ai_read_geometry(sw__ai* A, uint32_t index, const sw_model_primitive** out) {
    sw__ai_geometry* g = &A->geometry[index];
    *out = &g->prim;
    if (g->done) return SW_OK;
    const struct aiMesh* mesh = A->scene->mMeshes[index];
    const char* name = sw__ai_cstr(&mesh->mName);
    sw_model_primitive* p = &g->prim;
    *p = (sw_model_primitive){.mode = SW_MODEL_TRIANGLES, .material = -1};
    size_t vc = mesh->mNumVertices;
    if (vc == 0 || !mesh->mVertices)
        return sw__importer_fail(&A->im, SW_ERR_INVALID_DATA, "mesh %u '%s' has no vertices", index, name);
    if (vc > SW__AI_MAX_VERTICES)
        return sw__importer_fail(&A->im, SW_ERR_UNSUPPORTED, "mesh %u '%s' has %zu vertices (at most %zu)", index, name, vc,
                           SW__AI_MAX_VERTICES);
    if (mesh->mMaterialIndex < A->scene->mNumMaterials) p->material = (int32_t)mesh->mMaterialIndex;
    sw_result r;
    if ((r = sw__ai_read_positions(A, index, mesh, p)) != SW_OK ||
        (r = sw__ai_read_normals(A, index, mesh, p)) != SW_OK ||
        (r = sw__ai_read_texcoords_colors(A, mesh, p)) != SW_OK ||
        (r = sw__ai_read_triangles(A, index, mesh, p)) != SW_OK ||
        (r = sw__ai_read_morph_targets(A, index, mesh, p)) != SW_OK)
        return r;
    g->done = true;
    return SW_OK;
}

/* ---- influences ---------------------------------------------------------------------------- */

typedef struct sw__ai_influence {
    uint16_t joint;
    float weight;
} sw__ai_influence;

static int sw__ai_influence_cmp(const void* a, const void* b) {
    const sw__ai_influence *x = a, *y = b;
    if (x->weight != y->weight) return x->weight > y->weight ? -1 : 1;
    return x->joint < y->joint ? -1 : x->joint > y->joint;
}

/* The joint list of a skin: bone names, in first-seen order over the
   node's meshes, and a hash table over them (open addressing: joint + 1
   per slot, 0 empty; 2 × capacity slots, so at most half full), so that
   finding a bone's joint is O(1) expected, not a scan of the list. */
typedef struct sw__ai_joints {
    size_t count, capacity;
    const char** names;
    uint32_t* nodes;
    sw_mat34* inverse_bind;
    uint32_t* slots;   /* slot_count (a power of two), in A->scratch */
    size_t slot_count;
} sw__ai_joints;

static sw_result sw__ai_joint_of(sw__ai* A, sw__ai_joints* J, const struct aiBone* bone, const char* mesh_name,
                                 uint16_t* out) {
    const char* name = sw__ai_cstr(&bone->mName);
    const uint64_t hash = sw__hash_string(name);
    size_t slot = SIZE_MAX;
    if (J->slot_count) {
        for (slot = (size_t)hash & (J->slot_count - 1); J->slots[slot]; slot = (slot + 1) & (J->slot_count - 1))
            if (strcmp(J->names[J->slots[slot] - 1], name) == 0) {
                *out = (uint16_t)(J->slots[slot] - 1);
                return SW_OK;
            }
    }
    int32_t ai = sw__ai_find(A, name);
    if (ai < 0)
        return sw__importer_fail(&A->im, SW_ERR_INVALID_DATA, "mesh '%s': bone '%s' names no node", mesh_name, name);
    if (J->count >= 65535)
        return sw__importer_fail(&A->im, SW_ERR_UNSUPPORTED, "mesh '%s': more than 65535 bones in one skin", mesh_name);
    sw_mat34 offset;
    if (!sw__ai_matrix(&bone->mOffsetMatrix, &offset))
        return sw__importer_fail(&A->im, SW_ERR_INVALID_DATA, "mesh '%s': bone '%s' has an offset matrix that is not finite and "
                                                   "affine", mesh_name, name);
    if (J->count == J->capacity) {
        size_t capacity = J->capacity ? J->capacity * 2 : 64;
        const char** names = sw__importer_array(&A->im, &A->scratch, capacity, sizeof *names);
        uint32_t* nodes = sw__importer_array(&A->im, &A->scratch, capacity, sizeof *nodes);
        sw_mat34* ibm = sw__importer_array(&A->im, &A->scratch, capacity, sizeof *ibm);
        if (!names || !nodes || !ibm) return A->im.diag.result;
        if (J->count) {
            memcpy(names, J->names, J->count * sizeof *names);
            memcpy(nodes, J->nodes, J->count * sizeof *nodes);
            memcpy(ibm, J->inverse_bind, J->count * sizeof *ibm);
        }
        J->names = names, J->nodes = nodes, J->inverse_bind = ibm, J->capacity = capacity;
        /* a larger table, the names so far placed again */
        uint32_t* slots = sw__importer_array(&A->im, &A->scratch, 2 * capacity, sizeof *slots);
        if (!slots) return A->im.diag.result;
        memset(slots, 0, 2 * capacity * sizeof *slots);
        J->slots = slots, J->slot_count = 2 * capacity;
        for (size_t j = 0; j < J->count; j++) {
            size_t s = (size_t)sw__hash_string(J->names[j]) & (J->slot_count - 1);
            while (J->slots[s]) s = (s + 1) & (J->slot_count - 1);
            J->slots[s] = (uint32_t)j + 1;
        }
        for (slot = (size_t)hash & (J->slot_count - 1); J->slots[slot]; slot = (slot + 1) & (J->slot_count - 1)) {}
    }
    J->slots[slot] = (uint32_t)J->count + 1;
    J->names[J->count] = name;
    J->nodes[J->count] = (uint32_t)A->model_of[ai];
    J->inverse_bind[J->count] = offset;
    *out = (uint16_t)J->count++;
    return SW_OK;
}

/* Gathers each vertex's bone weights, keeps the strongest, renormalises. */
/* Every vertex's influences, gathered from the bones that list them:
   vertex v's are (*out_list)[start[v] .. start[v + 1]), strongest first
   (zero and negative weights last, and only with keep_raw); *out_most is
   the most any vertex has, *out_negative the negative weights seen. */
static sw_result sw__ai_gather_influences(sw__ai* A, const struct aiMesh* mesh, sw__ai_joints* J, size_t vc,
                                          sw__ai_influence** out_list, uint32_t** out_start, size_t* out_most,
                                          size_t* out_negative) {
    const char* name = sw__ai_cstr(&mesh->mName);
    if (!mesh->mBones) return sw__importer_fail(&A->im, SW_ERR_INVALID_DATA, "mesh '%s' has %u bones but no list", name,
                                          mesh->mNumBones);
    uint32_t* counts = sw__importer_array(&A->im, &A->scratch, vc + 1, sizeof *counts);
    if (!counts) return A->im.diag.result;
    size_t total = 0, negative = 0;
    for (unsigned b = 0; b < mesh->mNumBones; b++) {
        const struct aiBone* bone = mesh->mBones[b];
        if (!bone) return sw__importer_fail(&A->im, SW_ERR_INVALID_DATA, "mesh '%s': bone %u is missing", name, b);
        if (bone->mNumWeights && !bone->mWeights)
            return sw__importer_fail(&A->im, SW_ERR_INVALID_DATA, "mesh '%s': bone '%s' has %u weights but no list", name,
                               sw__ai_cstr(&bone->mName), bone->mNumWeights);
        for (unsigned w = 0; w < bone->mNumWeights; w++) {
            const struct aiVertexWeight* x = &bone->mWeights[w];
            if (x->mVertexId >= vc)
                return sw__importer_fail(&A->im, SW_ERR_INDEX_OUT_OF_RANGE, "mesh '%s': bone '%s' weights vertex %u of %zu", name,
                                   sw__ai_cstr(&bone->mName), x->mVertexId, vc);
            if (!sw__ai_finite(x->mWeight))
                return sw__importer_fail(&A->im, SW_ERR_INVALID_DATA, "mesh '%s': bone '%s' gives vertex %u a weight that is not "
                                                           "finite", name, sw__ai_cstr(&bone->mName), x->mVertexId);
            if (x->mWeight < 0) negative++;
            if (x->mWeight <= 0 && !A->keep_raw) continue;
            counts[x->mVertexId]++;
            total++;
        }
    }
    /* prefix sums: vertex v's influences are list[start[v] .. start[v+1]) */
    uint32_t* start = counts;
    size_t sum = 0;
    for (size_t v = 0; v < vc; v++) {
        size_t c = start[v];
        start[v] = (uint32_t)sum;
        sum += c;
    }
    start[vc] = (uint32_t)sum;
    sw__ai_influence* list = sw__importer_array(&A->im, &A->scratch, total ? total : 1, sizeof *list);
    uint32_t* fill = sw__importer_array(&A->im, &A->scratch, vc, sizeof *fill);
    if (!list || !fill) return A->im.diag.result;
    size_t most = 0;
    for (unsigned b = 0; b < mesh->mNumBones; b++) {
        const struct aiBone* bone = mesh->mBones[b];
        uint16_t joint = 0; /* set by sw__ai_joint_of on success */
        if (sw__ai_joint_of(A, J, bone, name, &joint) != SW_OK) return A->im.diag.result;
        for (unsigned w = 0; w < bone->mNumWeights; w++) {
            const struct aiVertexWeight* x = &bone->mWeights[w];
            if (x->mWeight <= 0 && !A->keep_raw) continue;
            uint32_t v = x->mVertexId;
            list[start[v] + fill[v]++] = (sw__ai_influence){joint, (float)x->mWeight};
        }
    }
    for (size_t v = 0; v < vc; v++) {
        size_t n = start[v + 1] - start[v];
        if (n > 1) qsort(&list[start[v]], n, sizeof *list, sw__ai_influence_cmp);
        if (n > most) most = n;
    }
    *out_list = list;
    *out_start = start;
    *out_most = most;
    *out_negative = negative;
    return SW_OK;
}

/* keep_raw: every vertex's influences as gathered, in sets of 4 (up to
   SW__AI_MAX_RAW per vertex). */
static sw_result sw__ai_keep_raw_influences(sw__ai* A, const sw__ai_influence* list, const uint32_t* start, size_t vc,
                                            size_t most, sw_model_primitive* p) {
    size_t raw = (most + 3) / 4 * 4;
    if (raw > SW__AI_MAX_RAW) raw = SW__AI_MAX_RAW;
    if (raw == 0) raw = 4;
    uint16_t* rj = sw__importer_array(&A->im, A->im.arena, vc, raw * sizeof *rj);
    float* rw = sw__importer_array(&A->im, A->im.arena, vc, raw * sizeof *rw);
    if (!rj || !rw) return A->im.diag.result;
    for (size_t v = 0; v < vc; v++)
        for (size_t k = 0; k < raw && start[v] + k < start[v + 1]; k++) {
            rj[v * raw + k] = list[start[v] + k].joint;
            rw[v * raw + k] = list[start[v] + k].weight;
        }
    p->raw_influence_count = (int)raw;
    p->raw_joints = rj;
    p->raw_weights = rw;
    return SW_OK;
}

static sw_result sw__ai_influences(sw__ai* A, const struct aiMesh* mesh, sw__ai_joints* J, sw_model_primitive* p) {
    const char* name = sw__ai_cstr(&mesh->mName);
    size_t vc = p->vertex_count;
    sw__ai_influence* list = NULL;
    uint32_t* start = NULL;
    size_t most = 0, negative = 0;
    if (sw__ai_gather_influences(A, mesh, J, vc, &list, &start, &most, &negative) != SW_OK) return A->im.diag.result;
    int kept_max = most > 4 && A->max_influences == 8 ? 8 : 4;
    uint16_t* joints = sw__importer_array(&A->im, A->im.arena, vc, (size_t)kept_max * sizeof *joints);
    float* weights = sw__importer_array(&A->im, A->im.arena, vc, (size_t)kept_max * sizeof *weights);
    if (!joints || !weights) return A->im.diag.result;
    if (A->keep_raw && sw__ai_keep_raw_influences(A, list, start, vc, most, p) != SW_OK) return A->im.diag.result;
    /* The kept_max strongest per vertex, renormalised. */
    size_t dropped = 0, unweighted = 0;
    float dropped_most = 0.0f;
    for (size_t v = 0; v < vc; v++) {
        const sw__ai_influence* in = &list[start[v]];
        size_t n = start[v + 1] - start[v];
        while (n && in[n - 1].weight <= 0) n--; /* sorted: zero and negative weights last */
        double kept = 0.0, lost = 0.0;
        for (size_t k = 0; k < n; k++) {
            if (k < (size_t)kept_max) kept += in[k].weight;
            else lost += in[k].weight;
        }
        if (n > (size_t)kept_max) {
            dropped++;
            if ((float)lost > dropped_most) dropped_most = (float)lost;
        }
        if (n == 0 || !(kept > 0)) {
            unweighted++;
            joints[v * (size_t)kept_max] = 0;
            weights[v * (size_t)kept_max] = 1.0f;
            continue;
        }
        for (size_t k = 0; k < n && k < (size_t)kept_max; k++) {
            joints[v * (size_t)kept_max + k] = in[k].joint;
            weights[v * (size_t)kept_max + k] = (float)(in[k].weight / kept);
        }
    }
    sw_model* model = &A->owner->model;
    if (dropped) {
        model->import_dropped_vertices += dropped;
        if (dropped_most > model->import_dropped_weight) model->import_dropped_weight = dropped_most;
        sw__importer_warn(&A->im, "mesh '%s': %zu vertices have more than %d bone weights (the %d largest kept, renormalised; up "
                       "to %.3g of a vertex's weight dropped)", name, dropped, kept_max, kept_max,
                    (double)dropped_most);
    }
    if (unweighted)
        sw__importer_warn(&A->im, "mesh '%s': %zu vertices have no bone weight (given weight 1 on the skin's first joint)", name,
                    unweighted);
    if (negative)
        sw__importer_warn(&A->im, "mesh '%s': %zu negative bone weights dropped", name, negative);
    p->influence_count = kept_max;
    p->influence_sets = (int)((most + 3) / 4);
    p->joints = joints;
    p->weights = weights;
    return SW_OK;
}

/* ---- meshes and skins ------------------------------------------------------------------------ */

static sw_result sw__ai_meshes(sw__ai* A) {
    sw_model* model = &A->owner->model;
    const struct aiScene* S = A->scene;
    if (S->mNumMeshes && !S->mMeshes) return sw__importer_fail(&A->im, SW_ERR_INVALID_DATA, "meshes listed but missing");
    for (unsigned i = 0; i < S->mNumMeshes; i++)
        if (!S->mMeshes[i]) return sw__importer_fail(&A->im, SW_ERR_INVALID_DATA, "mesh %u is missing", i);
    A->geometry = sw__importer_array(&A->im, &A->scratch, S->mNumMeshes ? S->mNumMeshes : 1, sizeof *A->geometry);
    if (!A->geometry) return A->im.diag.result;
    sw_model_node* nodes = (sw_model_node*)model->nodes;
    size_t mesh_count = 0, skin_count = 0, instanced = 0;
    for (size_t m = 0; m < A->model_count; m++) {
        const struct aiNode* src = A->ai_nodes[A->ai_of[m]];
        if (!src->mNumMeshes) continue;
        if (!src->mMeshes)
            return sw__importer_fail(&A->im, SW_ERR_INVALID_DATA, "node '%s' lists %u meshes but no indices",
                               sw__ai_cstr(&src->mName), src->mNumMeshes);
        bool skinned = false;
        for (unsigned k = 0; k < src->mNumMeshes; k++) {
            unsigned mi = src->mMeshes[k];
            if (mi >= S->mNumMeshes)
                return sw__importer_fail(&A->im, SW_ERR_INDEX_OUT_OF_RANGE, "node '%s' uses mesh %u of %u",
                                   sw__ai_cstr(&src->mName), mi, S->mNumMeshes);
            skinned = skinned || S->mMeshes[mi]->mNumBones > 0;
            instanced += S->mMeshes[mi]->mNumVertices;
            if (instanced > SW__AI_MAX_INSTANCED_VERTICES)
                return sw__importer_fail(&A->im, SW_ERR_UNSUPPORTED, "the nodes draw more than %zu vertices in all",
                                   SW__AI_MAX_INSTANCED_VERTICES);
        }
        mesh_count++;
        skin_count += skinned;
    }
    if (!mesh_count) return SW_OK;
    sw_model_mesh* meshes = sw__importer_array(&A->im, A->im.arena, mesh_count, sizeof *meshes);
    sw_model_skin* skins = skin_count ? sw__importer_array(&A->im, A->im.arena, skin_count, sizeof *skins) : NULL;
    if (!meshes || (skin_count && !skins)) return A->im.diag.result;
    size_t mesh_index = 0, skin_index = 0;
    for (size_t m = 0; m < A->model_count; m++) {
        const struct aiNode* src = A->ai_nodes[A->ai_of[m]];
        if (!src->mNumMeshes) continue;
        sw_model_mesh* out = &meshes[mesh_index];
        sw_model_primitive* prims = sw__importer_array(&A->im, A->im.arena, src->mNumMeshes, sizeof *prims);
        if (!prims) return A->im.diag.result;
        sw__ai_joints J = {0};
        size_t targets = 0;
        const struct aiMesh* first = S->mMeshes[src->mMeshes[0]];
        for (unsigned k = 0; k < src->mNumMeshes; k++) {
            const struct aiMesh* mesh = S->mMeshes[src->mMeshes[k]];
            const sw_model_primitive* g;
            if (sw__ai_read_geometry(A, src->mMeshes[k], &g) != SW_OK) return A->im.diag.result;
            prims[k] = *g;
            if (mesh->mNumBones && sw__ai_influences(A, mesh, &J, &prims[k]) != SW_OK) return A->im.diag.result;
            if (prims[k].target_count > targets) targets = prims[k].target_count;
        }
        /* every primitive of a mesh has the same morph targets: pad with empty ones */
        for (unsigned k = 0; k < src->mNumMeshes && targets; k++) {
            if (prims[k].target_count == targets) continue;
            sw_model_morph_target* padded = sw__importer_array(&A->im, A->im.arena, targets, sizeof *padded);
            if (!padded) return A->im.diag.result;
            if (prims[k].target_count) memcpy(padded, prims[k].targets, prims[k].target_count * sizeof *padded);
            prims[k].targets = padded;
            prims[k].target_count = targets;
        }
        if (targets) {
            float* weights = sw__importer_array(&A->im, A->im.arena, targets, sizeof *weights);
            const char** names = sw__importer_array(&A->im, A->im.arena, targets, sizeof *names);
            if (!weights || !names) return A->im.diag.result;
            for (unsigned k = 0; k < src->mNumMeshes; k++) {
                const struct aiMesh* mesh = S->mMeshes[src->mMeshes[k]];
                for (unsigned t = 0; t < mesh->mNumAnimMeshes && mesh->mAnimMeshes && t < targets; t++) {
                    const struct aiAnimMesh* am = mesh->mAnimMeshes[t];
                    if (!am || names[t]) continue;
                    weights[t] = isfinite(am->mWeight) ? am->mWeight : 0.0f;
                    if (!(names[t] = sw__ai_string(A, &am->mName))) return A->im.diag.result;
                }
            }
            for (size_t t = 0; t < targets; t++)
                if (!names[t] && !(names[t] = sw__importer_strdup(&A->im, "", 0))) return A->im.diag.result;
            out->weights = weights;
            out->target_names = names;
            out->weight_count = targets;
        }
        out->name = sw__ai_string(A, src->mNumMeshes == 1 && first->mName.length ? &first->mName : &src->mName);
        if (!out->name) return A->im.diag.result;
        out->primitives = prims;
        out->primitive_count = src->mNumMeshes;
        nodes[m].mesh = (int32_t)mesh_index++;
        if (J.count) {
            sw_model_skin* skin = &skins[skin_index];
            uint32_t* joints = sw__importer_array(&A->im, A->im.arena, J.count, sizeof *joints);
            sw_mat34* ibm = sw__importer_array(&A->im, A->im.arena, J.count, sizeof *ibm);
            if (!joints || !ibm) return A->im.diag.result;
            memcpy(joints, J.nodes, J.count * sizeof *joints);
            memcpy(ibm, J.inverse_bind, J.count * sizeof *ibm);
            *skin = (sw_model_skin){.joints = joints, .joint_count = J.count, .inverse_bind = ibm, .skeleton = -1};
            skin->name = nodes[m].name;
            nodes[m].skin = (int32_t)skin_index++;
        }
    }
    model->meshes = meshes;
    model->mesh_count = mesh_count;
    model->skins = skins;
    model->skin_count = skin_index;
    return SW_OK;
}

/* ---- materials and images -------------------------------------------------------------------- */

static const char* sw__ai_mime(const char* hint) {
    if (strncmp(hint, "png", 3) == 0) return "image/png";
    if (strncmp(hint, "jpg", 3) == 0 || strncmp(hint, "jpeg", 4) == 0) return "image/jpeg";
    return NULL;
}

/* The image a texture path names: an embedded texture ("*N", or a file
   name an embedded texture carries) or a file next to the model. Images
   are shared between materials; returns the texture index or -1. */
static int32_t sw__ai_texture(sw__ai* A, const char* path, sw_model_image* images, sw_model_texture* textures) {
    if (!path[0]) return -1;
    const struct aiScene* S = A->scene;
    for (uint32_t i = 0; i < A->image_count; i++)
        if (strcmp(A->image_keys[i], path) == 0) return (int32_t)i;
    if (A->image_count >= A->image_capacity) return -1;
    sw_model_image* image = &images[A->image_count];
    int64_t embedded = -1;
    if (path[0] == '*') {
        char* end;
        long n = strtol(path + 1, &end, 10);
        if (*end || n < 0 || (unsigned long)n >= S->mNumTextures || !S->mTextures) {
            sw__importer_warn(&A->im, "texture '%s' names no embedded texture; ignored", path);
            return -1;
        }
        embedded = n;
    } else if (S->mTextures) {
        const char* base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
        for (unsigned t = 0; t < S->mNumTextures && embedded < 0; t++) {
            const struct aiTexture* x = S->mTextures[t];
            if (!x) continue;
            const char* name = sw__ai_cstr(&x->mFilename);
            const char* xb = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
            if (name[0] && strcmp(xb, base) == 0) embedded = t;
        }
    }
    if (embedded >= 0) {
        const struct aiTexture* x = S->mTextures[embedded];
        if (!x || x->mHeight != 0 || !x->pcData || x->mWidth == 0) {
            sw__importer_warn(&A->im, "texture '%s' is embedded as raw texels, which sinew does not read; ignored", path);
            return -1;
        }
        uint8_t* data = sw__importer_alloc(&A->im, A->im.arena, x->mWidth);
        if (!data) return -1;
        memcpy(data, x->pcData, x->mWidth);
        char hint[HINTMAXTEXTURELEN + 1] = {0};
        memcpy(hint, x->achFormatHint, HINTMAXTEXTURELEN);
        image->data = data;
        image->data_size = x->mWidth;
        image->mime_type = sw__ai_mime(hint);
    } else {
        char* uri = (char*)sw__importer_strdup(&A->im, path, strlen(path));
        if (!uri) return -1;
        for (char* c = uri; *c; c++)
            if (*c == '\\') *c = '/'; /* Windows separators, as exporters write them */
        image->uri = uri;
    }
    image->name = sw__importer_strdup(&A->im, path, strlen(path));
    A->image_keys[A->image_count] = image->name;
    textures[A->image_count] = (sw_model_texture){.image = (int32_t)A->image_count, .sampler = -1};
    return (int32_t)A->image_count++;
}

static sw_model_texture_ref sw__ai_texture_ref(sw__ai* A, const struct aiMaterial* m, const enum aiTextureType* types,
                                               size_t type_count, sw_model_image* images,
                                               sw_model_texture* textures) {
    sw_model_texture_ref ref = {.texture = -1, .scale = 1.0f, .uv_scale = {1, 1}};
    for (size_t t = 0; t < type_count; t++) {
        if (aiGetMaterialTextureCount(m, types[t]) == 0) continue;
        struct aiString path;
        unsigned uv = 0;
        memset(&path, 0, sizeof path);
        if (aiGetMaterialTexture(m, types[t], 0, &path, NULL, &uv, NULL, NULL, NULL, NULL) != aiReturn_SUCCESS)
            continue;
        ref.texture = sw__ai_texture(A, sw__ai_cstr(&path), images, textures);
        ref.texcoord = uv < SW_MODEL_MAX_TEXCOORDS ? (int32_t)uv : 0;
        if (ref.texture >= 0) break;
    }
    return ref;
}

static float sw__ai_unit(float x, float fallback) { return isfinite(x) && x >= 0.0f && x <= 1.0f ? x : fallback; }

static sw_result sw__ai_materials(sw__ai* A) {
    sw_model* model = &A->owner->model;
    const struct aiScene* S = A->scene;
    if (!S->mNumMaterials) return SW_OK;
    if (!S->mMaterials) return sw__importer_fail(&A->im, SW_ERR_INVALID_DATA, "materials listed but missing");
    size_t n = S->mNumMaterials;
    sw_model_material* out = sw__importer_array(&A->im, A->im.arena, n, sizeof *out);
    A->image_capacity = (uint32_t)(n * 4 < 65536 ? n * 4 : 65536);
    sw_model_image* images = sw__importer_array(&A->im, A->im.arena, A->image_capacity, sizeof *images);
    sw_model_texture* textures = sw__importer_array(&A->im, A->im.arena, A->image_capacity, sizeof *textures);
    A->image_keys = sw__importer_array(&A->im, &A->scratch, A->image_capacity, sizeof *A->image_keys);
    if (!out || !images || !textures || !A->image_keys) return A->im.diag.result;
    static const enum aiTextureType base_types[] = {aiTextureType_BASE_COLOR, aiTextureType_DIFFUSE};
    static const enum aiTextureType normal_types[] = {aiTextureType_NORMALS, aiTextureType_NORMAL_CAMERA};
    static const enum aiTextureType emissive_types[] = {aiTextureType_EMISSIVE, aiTextureType_EMISSION_COLOR};
    static const enum aiTextureType ao_types[] = {aiTextureType_AMBIENT_OCCLUSION, aiTextureType_LIGHTMAP};
    for (size_t i = 0; i < n; i++) {
        const struct aiMaterial* m = S->mMaterials[i];
        sw_model_material* mat = &out[i];
        *mat = (sw_model_material){.base_color_factor = {1, 1, 1, 1}, .metallic_factor = 0.0f,
                                   .roughness_factor = 1.0f, .emissive_strength = 1.0f, .alpha_cutoff = 0.5f};
        if (!m) continue;
        struct aiString name;
        memset(&name, 0, sizeof name);
        if (aiGetMaterialString(m, AI_MATKEY_NAME, &name) == aiReturn_SUCCESS &&
            !(mat->name = sw__ai_string(A, &name)))
            return A->im.diag.result;
        struct aiColor4D c;
        if (aiGetMaterialColor(m, AI_MATKEY_BASE_COLOR, &c) == aiReturn_SUCCESS ||
            aiGetMaterialColor(m, AI_MATKEY_COLOR_DIFFUSE, &c) == aiReturn_SUCCESS) {
            const float v[4] = {c.r, c.g, c.b, c.a};
            for (int k = 0; k < 4; k++) mat->base_color_factor[k] = sw__ai_unit(v[k], 1.0f);
        }
        ai_real opacity;
        if (aiGetMaterialFloatArray(m, AI_MATKEY_OPACITY, &opacity, NULL) == aiReturn_SUCCESS && isfinite(opacity) &&
            opacity >= 0 && opacity < 1.0f) {
            mat->base_color_factor[3] = (float)opacity;
            mat->alpha_mode = SW_MODEL_ALPHA_BLEND;
        }
        if (aiGetMaterialColor(m, AI_MATKEY_COLOR_EMISSIVE, &c) == aiReturn_SUCCESS) {
            const float v[3] = {c.r, c.g, c.b};
            for (int k = 0; k < 3; k++) mat->emissive_factor[k] = isfinite(v[k]) && v[k] > 0 ? v[k] : 0.0f;
        }
        ai_real f;
        if (aiGetMaterialFloatArray(m, AI_MATKEY_METALLIC_FACTOR, &f, NULL) == aiReturn_SUCCESS)
            mat->metallic_factor = sw__ai_unit((float)f, 0.0f);
        if (aiGetMaterialFloatArray(m, AI_MATKEY_ROUGHNESS_FACTOR, &f, NULL) == aiReturn_SUCCESS)
            mat->roughness_factor = sw__ai_unit((float)f, 1.0f);
        int two_sided = 0;
        if (aiGetMaterialIntegerArray(m, AI_MATKEY_TWOSIDED, &two_sided, NULL) == aiReturn_SUCCESS)
            mat->double_sided = two_sided != 0;
        mat->base_color_texture = sw__ai_texture_ref(A, m, base_types, 2, images, textures);
        mat->normal_texture = sw__ai_texture_ref(A, m, normal_types, 2, images, textures);
        mat->emissive_texture = sw__ai_texture_ref(A, m, emissive_types, 2, images, textures);
        mat->metallic_roughness_texture = (sw_model_texture_ref){.texture = -1, .scale = 1.0f, .uv_scale = {1, 1}};
        mat->occlusion_texture = sw__ai_texture_ref(A, m, ao_types, 2, images, textures);
        if (A->im.diag.result != SW_OK) return A->im.diag.result;
        if (mat->emissive_texture.texture >= 0 && !mat->emissive_factor[0] && !mat->emissive_factor[1] &&
            !mat->emissive_factor[2])
            mat->emissive_factor[0] = mat->emissive_factor[1] = mat->emissive_factor[2] = 1.0f;
    }
    model->materials = out;
    model->material_count = n;
    model->images = images;
    model->image_count = A->image_count;
    model->textures = textures;
    model->texture_count = A->image_count;
    return SW_OK;
}

/* ---- animations --------------------------------------------------------------------------------- */

/* Keys of one property of one channel, as (ticks, values). */
typedef struct sw__ai_keys {
    size_t count;
    const double* times;      /* ticks, strictly increasing (sanitised) */
    const float* values;      /* count × 3 or 4 (quaternions xyzw, unit) */
    int width;
} sw__ai_keys;

/* Copies one key list: non-finite keys are an error; keys not after the
   one before are dropped (counted in *dropped). */
static sw_result sw__ai_read_keys(sw__ai* A, const char* what, const char* node, const void* keys, size_t count,
                                  bool rotation, sw__ai_keys* out, size_t* dropped) {
    *out = (sw__ai_keys){.width = rotation ? 4 : 3};
    if (!count) return SW_OK;
    if (!keys) return sw__importer_fail(&A->im, SW_ERR_INVALID_DATA, "channel '%s': %zu %s keys but no list", node, count, what);
    if (count > SW__AI_MAX_KEYS)
        return sw__importer_fail(&A->im, SW_ERR_UNSUPPORTED, "channel '%s': %zu %s keys (at most %zu)", node, count, what,
                           SW__AI_MAX_KEYS);
    double* times = sw__importer_array(&A->im, &A->scratch, count, sizeof *times);
    float* values = sw__importer_array(&A->im, &A->scratch, count, (size_t)out->width * sizeof *values);
    if (!times || !values) return A->im.diag.result;
    size_t n = 0;
    for (size_t k = 0; k < count; k++) {
        double t;
        float v[4];
        if (rotation) {
            const struct aiQuatKey* q = &((const struct aiQuatKey*)keys)[k];
            t = q->mTime;
            sw_quat x = sw__ai_quat(&q->mValue);
            v[0] = x.x, v[1] = x.y, v[2] = x.z, v[3] = x.w;
        } else {
            const struct aiVectorKey* x = &((const struct aiVectorKey*)keys)[k];
            t = x->mTime;
            v[0] = (float)x->mValue.x, v[1] = (float)x->mValue.y, v[2] = (float)x->mValue.z;
        }
        bool finite = isfinite(t);
        for (int c = 0; c < out->width; c++) finite = finite && isfinite(v[c]) && fabsf(v[c]) < 1e30f;
        if (!finite)
            return sw__importer_fail(&A->im, SW_ERR_INVALID_DATA, "channel '%s': %s key %zu is not finite", node, what, k);
        if (n && !(t > times[n - 1])) {
            (*dropped)++;
            continue;
        }
        if (rotation) {
            double length = sqrt((double)v[0] * v[0] + (double)v[1] * v[1] + (double)v[2] * v[2] + (double)v[3] * v[3]);
            if (length < 1e-6) v[0] = v[1] = v[2] = 0.0f, v[3] = 1.0f, length = 1.0;
            for (int c = 0; c < 4; c++) v[c] = (float)(v[c] / length);
        }
        times[n] = t;
        memcpy(&values[n * (size_t)out->width], v, (size_t)out->width * sizeof *v);
        n++;
    }
    out->count = n;
    out->times = times;
    out->values = values;
    return SW_OK;
}

/* Assimp's own interpolation: linear, rotations by slerp, held at the ends. */
static void sw__ai_sample(const sw__ai_keys* k, double t, float* out) {
    if (t <= k->times[0] || k->count == 1) {
        memcpy(out, k->values, (size_t)k->width * sizeof *out);
        return;
    }
    if (t >= k->times[k->count - 1]) {
        memcpy(out, &k->values[(k->count - 1) * (size_t)k->width], (size_t)k->width * sizeof *out);
        return;
    }
    size_t lo = 0, hi = k->count - 1;
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (k->times[mid] <= t) lo = mid;
        else hi = mid;
    }
    float s = (float)((t - k->times[lo]) / (k->times[hi] - k->times[lo]));
    const float *a = &k->values[lo * (size_t)k->width], *b = &k->values[hi * (size_t)k->width];
    if (k->width == 4) {
        sw_quat q = sw_quat_slerp((sw_quat){a[0], a[1], a[2], a[3]}, (sw_quat){b[0], b[1], b[2], b[3]}, s);
        out[0] = q.x, out[1] = q.y, out[2] = q.z, out[3] = q.w;
    } else {
        for (int c = 0; c < 3; c++) out[c] = a[c] + (b[c] - a[c]) * s;
    }
}

/* One channel's three key lists. */
typedef struct sw__ai_channel {
    bool present;
    sw__ai_keys position, rotation, scale;
} sw__ai_channel;

/* A track straight from one key list (seconds = ticks / rate). */
static sw_result sw__ai_track(sw__ai* A, const sw__ai_keys* k, double rate, uint32_t target, sw_track_path path,
                              sw_track* out) {
    float* times = sw__importer_array(&A->im, A->im.arena, k->count, sizeof *times);
    float* values = sw__importer_array(&A->im, A->im.arena, k->count, (size_t)k->width * sizeof *values);
    if (!times || !values) return A->im.diag.result;
    size_t n = 0;
    for (size_t i = 0; i < k->count; i++) {
        float t = (float)(k->times[i] / rate);
        if (n && !(t > times[n - 1])) continue; /* ticks that round to one float second */
        times[n] = t;
        memcpy(&values[n * (size_t)k->width], &k->values[i * (size_t)k->width], (size_t)k->width * sizeof(float));
        n++;
    }
    *out = (sw_track){.target = target, .path = path, .interpolation = SW_INTERP_LINEAR,
                      .component_count = (uint32_t)k->width, .key_count = n, .times = times, .values = values};
    return SW_OK;
}

static int sw__ai_double_cmp(const void* a, const void* b) {
    double x = *(const double*)a, y = *(const double*)b;
    return x < y ? -1 : x > y;
}

/* Tracks of a node whose local transform is a product (helpers folded
   into it, or the root's unit conversion): the product is evaluated at
   every key time of every channel in the chain and split into T, R, S. */
static sw_result sw__ai_chain_tracks(sw__ai* A, size_t m, const sw__ai_channel* channels, double rate,
                                     sw_track* out, size_t* out_count) {
    uint32_t chain[SW__AI_MAX_CHAIN];
    size_t n = sw__ai_chain(A, A->ai_of[m], chain, SW__AI_MAX_CHAIN);
    /* Assimp writes a joint's channel as its whole local transform, pivots
       included, when the helpers above it carry no keys of their own: the
       helpers' static transforms are then not applied on top. */
    bool helper_keys = false;
    for (size_t k = 0; k + 1 < n; k++) helper_keys = helper_keys || channels[chain[k]].present;
    if (!helper_keys && channels[chain[n - 1]].present) {
        chain[0] = chain[n - 1];
        n = 1;
    }
    size_t total = 0;
    for (size_t k = 0; k < n; k++) {
        const sw__ai_channel* c = &channels[chain[k]];
        if (!c->present) continue;
        total += c->position.count + c->rotation.count + c->scale.count;
    }
    double* times = sw__importer_array(&A->im, &A->scratch, total ? total : 1, sizeof *times);
    if (!times) return A->im.diag.result;
    size_t count = 0;
    for (size_t k = 0; k < n; k++) {
        const sw__ai_channel* c = &channels[chain[k]];
        if (!c->present) continue;
        const sw__ai_keys* lists[3] = {&c->position, &c->rotation, &c->scale};
        for (int l = 0; l < 3; l++) {
            memcpy(&times[count], lists[l]->times, lists[l]->count * sizeof *times);
            count += lists[l]->count;
        }
    }
    qsort(times, count, sizeof *times, sw__ai_double_cmp);
    size_t unique = 0;
    for (size_t i = 0; i < count; i++)
        if (!unique || times[i] > times[unique - 1]) times[unique++] = times[i];
    /* the static parts of each chain element, as TRS */
    sw_transform statics[SW__AI_MAX_CHAIN];
    for (size_t k = 0; k < n; k++) {
        sw_mat34 x;
        if (!sw__ai_matrix(&A->ai_nodes[chain[k]]->mTransformation, &x))
            return sw__importer_fail(&A->im, SW_ERR_INVALID_DATA, "node '%s': its transformation is not a finite affine matrix",
                               sw__ai_cstr(&A->ai_nodes[chain[k]]->mName));
        bool exact;
        statics[k] = sw__ai_decompose(&x, &exact);
    }
    float* ft = sw__importer_array(&A->im, A->im.arena, unique ? unique : 1, sizeof *ft);
    float* tv = sw__importer_array(&A->im, A->im.arena, unique ? unique : 1, 3 * sizeof *tv);
    float* rv = sw__importer_array(&A->im, A->im.arena, unique ? unique : 1, 4 * sizeof *rv);
    float* sv = sw__importer_array(&A->im, A->im.arena, unique ? unique : 1, 3 * sizeof *sv);
    if (!ft || !tv || !rv || !sv) return A->im.diag.result;
    size_t keys = 0, sheared = 0;
    sw_quat previous = sw_quat_identity();
    for (size_t i = 0; i < unique; i++) {
        float t = (float)(times[i] / rate);
        if (keys && !(t > ft[keys - 1])) continue;
        sw_mat34 local = m == 0 ? A->root_conversion : sw_mat34_identity();
        for (size_t k = 0; k < n; k++) {
            const sw__ai_channel* c = &channels[chain[k]];
            sw_transform x = statics[k];
            if (c->present) {
                float v[4];
                if (c->position.count) sw__ai_sample(&c->position, times[i], v), x.translation = sw_vec3_make(v[0], v[1], v[2]);
                if (c->rotation.count) sw__ai_sample(&c->rotation, times[i], v), x.rotation = (sw_quat){v[0], v[1], v[2], v[3]};
                if (c->scale.count) sw__ai_sample(&c->scale, times[i], v), x.scale = sw_vec3_make(v[0], v[1], v[2]);
            }
            sw_mat34 xm = sw_transform_to_mat34(&x);
            local = sw_mat34_mul(&local, &xm);
        }
        bool exact;
        sw_transform trs = sw__ai_decompose(&local, &exact);
        sheared += !exact;
        /* keep consecutive quaternions in one hemisphere, so LINEAR keys slerp the short way as before */
        if (sw_quat_dot(previous, trs.rotation) < 0.0f)
            trs.rotation = (sw_quat){-trs.rotation.x, -trs.rotation.y, -trs.rotation.z, -trs.rotation.w};
        previous = trs.rotation;
        ft[keys] = t;
        tv[keys * 3] = trs.translation.x, tv[keys * 3 + 1] = trs.translation.y, tv[keys * 3 + 2] = trs.translation.z;
        rv[keys * 4] = trs.rotation.x, rv[keys * 4 + 1] = trs.rotation.y, rv[keys * 4 + 2] = trs.rotation.z,
        rv[keys * 4 + 3] = trs.rotation.w;
        sv[keys * 3] = trs.scale.x, sv[keys * 3 + 1] = trs.scale.y, sv[keys * 3 + 2] = trs.scale.z;
        keys++;
    }
    if (!keys) return SW_OK;
    if (sheared)
        sw__importer_warn(&A->im, "node '%s': %zu keys of its folded transform carry shear, which TRS cannot hold (nearest TRS "
                       "kept)", A->owner->model.nodes[m].name, sheared);
    out[0] = (sw_track){.target = (uint32_t)m, .path = SW_PATH_TRANSLATION, .interpolation = SW_INTERP_LINEAR,
                        .component_count = 3, .key_count = keys, .times = ft, .values = tv};
    out[1] = (sw_track){.target = (uint32_t)m, .path = SW_PATH_ROTATION, .interpolation = SW_INTERP_LINEAR,
                        .component_count = 4, .key_count = keys, .times = ft, .values = rv};
    out[2] = (sw_track){.target = (uint32_t)m, .path = SW_PATH_SCALE, .interpolation = SW_INTERP_LINEAR,
                        .component_count = 3, .key_count = keys, .times = ft, .values = sv};
    *out_count = 3;
    return SW_OK;
}

/* A morph weight channel: "node" or "node*mesh" (Assimp's glTF naming). */
static sw_result sw__ai_morph_track(sw__ai* A, const struct aiMeshMorphAnim* ch, double rate, sw_track* out,
                                    bool* kept) {
    *kept = false;
    char name[MAXLEN];
    snprintf(name, sizeof name, "%s", sw__ai_cstr(&ch->mName));
    int32_t ai = sw__ai_find(A, name);
    char* star = strrchr(name, '*');
    if (ai < 0 && star) *star = '\0', ai = sw__ai_find(A, name);
    const sw_model* model = &A->owner->model;
    if (ai < 0) {
        sw__importer_warn(&A->im, "morph channel '%s' names no node; skipped", sw__ai_cstr(&ch->mName));
        return SW_OK;
    }
    uint32_t m = (uint32_t)A->model_of[ai];
    size_t width = model->nodes[m].mesh >= 0 ? model->meshes[model->nodes[m].mesh].weight_count : 0;
    if (!width || !ch->mNumKeys || !ch->mKeys) {
        sw__importer_warn(&A->im, "morph channel '%s': no keys, or its node has no morph targets; skipped", name);
        return SW_OK;
    }
    if (ch->mNumKeys > SW__AI_MAX_KEYS)
        return sw__importer_fail(&A->im, SW_ERR_UNSUPPORTED, "morph channel '%s': %u keys", name, ch->mNumKeys);
    float* times = sw__importer_array(&A->im, A->im.arena, ch->mNumKeys, sizeof *times);
    float* values = sw__importer_array(&A->im, A->im.arena, ch->mNumKeys, width * sizeof *values);
    if (!times || !values) return A->im.diag.result;
    size_t n = 0;
    for (unsigned k = 0; k < ch->mNumKeys; k++) {
        const struct aiMeshMorphKey* key = &ch->mKeys[k];
        float t = (float)(key->mTime / rate);
        if (!isfinite(t)) return sw__importer_fail(&A->im, SW_ERR_INVALID_DATA, "morph channel '%s': key %u is not finite", name, k);
        if (n && !(t > times[n - 1])) continue;
        times[n] = t;
        if (key->mNumValuesAndWeights && (!key->mValues || !key->mWeights))
            return sw__importer_fail(&A->im, SW_ERR_INVALID_DATA, "morph channel '%s': key %u has no values", name, k);
        for (unsigned j = 0; j < key->mNumValuesAndWeights; j++)
            if (key->mValues[j] < width && isfinite(key->mWeights[j]))
                values[n * width + key->mValues[j]] = (float)key->mWeights[j];
        n++;
    }
    *out = (sw_track){.target = m, .path = SW_PATH_WEIGHTS, .interpolation = SW_INTERP_LINEAR,
                      .component_count = (uint32_t)width, .key_count = n, .times = times, .values = values};
    *kept = true;
    return SW_OK;
}

static sw_result sw__ai_animations(sw__ai* A) {
    sw_model* model = &A->owner->model;
    const struct aiScene* S = A->scene;
    if (!S->mNumAnimations) return SW_OK;
    if (!S->mAnimations) return sw__importer_fail(&A->im, SW_ERR_INVALID_DATA, "animations listed but missing");
    sw_clip* clips = sw__importer_array(&A->im, A->im.arena, S->mNumAnimations, sizeof *clips);
    sw__ai_channel* channels = sw__importer_array(&A->im, &A->scratch, A->ai_count, sizeof *channels);
    bool* animated = sw__importer_array(&A->im, &A->scratch, A->model_count, sizeof *animated);
    if (!clips || !channels || !animated) return A->im.diag.result;
    size_t clip_count = 0;
    for (unsigned a = 0; a < S->mNumAnimations; a++) {
        const struct aiAnimation* anim = S->mAnimations[a];
        if (!anim) return sw__importer_fail(&A->im, SW_ERR_INVALID_DATA, "animation %u is missing", a);
        const char* aname = sw__ai_cstr(&anim->mName);
        double rate = anim->mTicksPerSecond;
        /* A BVH always states its frame time; Assimp gives 1 / (the time as
           a float), so 0 is a time too long for a float (inf, 1e300). */
        if (rate == 0.0 && strcmp(model->format, "BVH") == 0)
            return sw__importer_fail(&A->im, SW_ERR_INVALID_DATA,
                                     "animation '%s': the frame time is infinite or too long (0 ticks per second)",
                                     aname);
        if (rate == 0.0 && !signbit(rate)) {
            rate = 25.0; /* Assimp: 0 means "not specified", 25 ticks per second assumed */
        } else if (isfinite(rate) && (rate < 0.0 || rate == 0.0)) {
            /* negative (or -0): as an IQM framerate, Assimp's unstated rate with a warning */
            sw__importer_warn(&A->im, "animation '%s': %g ticks per second, negative; read as 25", aname, rate);
            rate = 25.0;
        }
        /* a tick longer than 1e6 s (11 days) is no frame of an animation */
        if (!(rate >= 1e-6) || !isfinite(rate) || rate > 1e9)
            return sw__importer_fail(&A->im, SW_ERR_INVALID_DATA, "animation '%s': %g ticks per second", aname, rate);
        if ((anim->mNumChannels && !anim->mChannels) || (anim->mNumMorphMeshChannels && !anim->mMorphMeshChannels))
            return sw__importer_fail(&A->im, SW_ERR_INVALID_DATA, "animation '%s': channels listed but missing", aname);
        memset(channels, 0, A->ai_count * sizeof *channels);
        memset(animated, 0, A->model_count * sizeof *animated);
        size_t dropped = 0, unknown = 0;
        for (unsigned c = 0; c < anim->mNumChannels; c++) {
            const struct aiNodeAnim* ch = anim->mChannels[c];
            if (!ch) return sw__importer_fail(&A->im, SW_ERR_INVALID_DATA, "animation '%s': channel %u is missing", aname, c);
            const char* node = sw__ai_cstr(&ch->mNodeName);
            int32_t ai = sw__ai_find(A, node);
            if (ai < 0) {
                unknown++;
                continue;
            }
            sw__ai_channel* out = &channels[ai];
            if (out->present) sw__importer_warn(&A->im, "animation '%s': a second channel for '%s' (the later one wins)", aname, node);
            if (sw__ai_read_keys(A, "position", node, ch->mPositionKeys, ch->mNumPositionKeys, false, &out->position,
                                 &dropped) != SW_OK ||
                sw__ai_read_keys(A, "rotation", node, ch->mRotationKeys, ch->mNumRotationKeys, true, &out->rotation,
                                 &dropped) != SW_OK ||
                sw__ai_read_keys(A, "scaling", node, ch->mScalingKeys, ch->mNumScalingKeys, false, &out->scale,
                                 &dropped) != SW_OK)
                return A->im.diag.result;
            out->present = out->position.count || out->rotation.count || out->scale.count;
            if (out->present) animated[A->model_of[ai]] = true;
        }
        if (unknown) sw__importer_warn(&A->im, "animation '%s': %zu channels name no node; skipped", aname, unknown);
        if (dropped) sw__importer_warn(&A->im, "animation '%s': %zu keys not after the key before them dropped", aname, dropped);
        size_t capacity = 3 * (size_t)anim->mNumChannels + anim->mNumMorphMeshChannels;
        sw_track* tracks = sw__importer_array(&A->im, A->im.arena, capacity ? capacity : 1, sizeof *tracks);
        if (!tracks) return A->im.diag.result;
        size_t count = 0;
        for (size_t m = 0; m < A->model_count && count + 3 <= capacity; m++) {
            if (!animated[m]) continue;
            uint32_t ai = A->ai_of[m];
            bool folded = (m == 0 && A->has_conversion) || (A->ai_parent[ai] >= 0 && A->helper[A->ai_parent[ai]]);
            if (folded) {
                size_t added = 0;
                if (sw__ai_chain_tracks(A, m, channels, rate, &tracks[count], &added) != SW_OK) return A->im.diag.result;
                count += added;
                continue;
            }
            const sw__ai_channel* c = &channels[ai];
            const sw__ai_keys* lists[3] = {&c->position, &c->rotation, &c->scale};
            const sw_track_path paths[3] = {SW_PATH_TRANSLATION, SW_PATH_ROTATION, SW_PATH_SCALE};
            for (int l = 0; l < 3; l++) {
                if (!lists[l]->count) continue;
                if (sw__ai_track(A, lists[l], rate, (uint32_t)m, paths[l], &tracks[count]) != SW_OK)
                    return A->im.diag.result;
                count++;
            }
            /* an animated node is TRS: a node that had to be a matrix (shear) loses the shear */
            sw_model_node* node = (sw_model_node*)&model->nodes[m];
            if (node->has_matrix) {
                bool exact;
                node->trs = sw__ai_decompose(&node->matrix, &exact);
                node->has_matrix = false;
                node->matrix = sw_mat34_identity();
                sw__importer_warn(&A->im, "node '%s' is animated but its rest transform has shear; the shear is lost", node->name);
            }
        }
        for (unsigned c = 0; c < anim->mNumMorphMeshChannels && count < capacity; c++) {
            const struct aiMeshMorphAnim* ch = anim->mMorphMeshChannels[c];
            if (!ch) return sw__importer_fail(&A->im, SW_ERR_INVALID_DATA, "animation '%s': morph channel %u is missing", aname, c);
            bool kept;
            if (sw__ai_morph_track(A, ch, rate, &tracks[count], &kept) != SW_OK) return A->im.diag.result;
            count += kept;
        }
        if (anim->mNumMeshChannels) sw__importer_warn(&A->im, "animation '%s': mesh (vertex) animation channels skipped", aname);
        sw_clip* clip = &clips[clip_count];
        clip->name = sw__ai_string(A, &anim->mName);
        if (!clip->name) return A->im.diag.result;
        clip->tracks = tracks;
        clip->track_count = count;
        sw_diag inner = {0};
        if (sw_clip_finish(clip, &inner) != SW_OK)
            return sw__importer_fail(&A->im, SW_ERR_INVALID_DATA, "animation '%s': %s", aname, inner.message);
        clip_count++;
    }
    model->animations = clips;
    model->animation_count = clip_count;
    return SW_OK;
}

/* ---- the whole load ------------------------------------------------------------------------------- */

static sw_result sw__ai_finish(sw__ai* A) {
    sw_model* model = &A->owner->model;
    size_t offset = 0;
    uint32_t* offsets = sw__importer_array(&A->im, A->im.arena, model->node_count ? model->node_count : 1, sizeof *offsets);
    if (!offsets) return A->im.diag.result;
    for (size_t i = 0; i < model->node_count; i++) {
        sw_model_node* node = (sw_model_node*)&model->nodes[i];
        if (offset > UINT32_MAX) return sw__importer_fail(&A->im, SW_ERR_UNSUPPORTED, "too many morph weights");
        node->weight_offset = offsets[i] = (uint32_t)offset;
        if (node->mesh >= 0) offset += model->meshes[node->mesh].weight_count;
    }
    model->weight_offsets = offsets;
    model->weight_count = offset;
    size_t palette = 0;
    for (size_t s = 0; s < model->skin_count; s++) {
        ((sw_model_skin*)&model->skins[s])->palette_offset = palette;
        palette += model->skins[s].joint_count;
    }
    model->skin_joint_count = palette;
    sw_transform* rest = sw__importer_array(&A->im, A->im.arena, model->node_count ? model->node_count : 1, sizeof *rest);
    float* rest_weights = sw__importer_array(&A->im, A->im.arena, offset ? offset : 1, sizeof *rest_weights);
    if (!rest || !rest_weights) return A->im.diag.result;
    sw__model_rest_pose(model, rest, rest_weights);
    model->rest_local = rest;
    model->rest_weights = rest_weights;
    return sw__importer_finish_warnings(&A->im, model);
}

static const struct {
    const char* extension;
    const char* format;
} sw__ai_formats[] = {
    {"fbx", "FBX"},   {"dae", "Collada"}, {"bvh", "BVH"},         {"x", "DirectX X"}, {"smd", "Valve SMD"},
    {"md5mesh", "MD5"}, {"md5anim", "MD5"}, {"ms3d", "MilkShape 3D"}, {"iqm", "IQM"},   {"obj", "Wavefront OBJ"},
    {"3ds", "3DS"},   {"blend", "Blender"}, {"gltf", "glTF"},     {"glb", "GLB"},     {"md2", "MD2"},
    {"md3", "MD3"},   {"ply", "PLY"},     {"stl", "STL"},         {"b3d", "Blitz3D"}, {"xml", "Ogre XML"},
};

/* ASCII case-insensitive equality (strcasecmp is POSIX, not C11). */
static bool sw__ai_same_text(const char* a, const char* b) {
    for (; *a && *b; a++, b++) {
        char x = *a >= 'A' && *a <= 'Z' ? (char)(*a - 'A' + 'a') : *a;
        char y = *b >= 'A' && *b <= 'Z' ? (char)(*b - 'A' + 'a') : *b;
        if (x != y) return false;
    }
    return *a == *b;
}

static const char* sw__ai_format_name(const char* extension) {
    for (size_t i = 0; i < sizeof sw__ai_formats / sizeof sw__ai_formats[0]; i++)
        if (sw__ai_same_text(extension, sw__ai_formats[i].extension)) return sw__ai_formats[i].format;
    return "Assimp";
}

/* The post-processing asked of Assimp (docs/import.md says why each). */
static const unsigned sw__ai_steps = aiProcess_ValidateDataStructure | aiProcess_Triangulate |
                                     aiProcess_SortByPType | aiProcess_JoinIdenticalVertices |
                                     aiProcess_GenSmoothNormals | aiProcess_FlipUVs | aiProcess_FindInvalidData;

static sw_result sw__ai_convert(sw__ai* A, const char* extension) {
    sw_model* model = &A->owner->model;
    bool fbx = sw__ai_same_text(extension, "fbx");
    model->format = sw__ai_format_name(extension);
    const char* generator = sw__ai_meta_string(A->scene->mMetaData, "SourceAsset_Generator");
    if (generator && !(model->generator = sw__importer_strdup(&A->im, generator, strlen(generator)))) return A->im.diag.result;
    sw__ai_units(A, fbx);
    if (sw__ai_walk_nodes(A) != SW_OK) return A->im.diag.result;
    sw__ai_number_nodes(A);
    if (sw__ai_nodes(A) != SW_OK || sw__ai_materials(A) != SW_OK || sw__ai_meshes(A) != SW_OK ||
        sw__ai_animations(A) != SW_OK || sw__ai_finish(A) != SW_OK)
        return A->im.diag.result;
    return SW_OK;
}

bool sw_assimp_available(void) { return true; }

bool sw_assimp_reads_extension(const char* extension) {
    if (!extension || !extension[0]) return false;
    char dotted[32];
    int n = snprintf(dotted, sizeof dotted, "%s%s", extension[0] == '.' ? "" : ".", extension);
    if (n <= 1 || (size_t)n >= sizeof dotted) return false;
    for (char* c = dotted; *c; c++)
        if (*c >= 'A' && *c <= 'Z') *c = (char)(*c - 'A' + 'a');
    return aiIsExtensionSupported(dotted) != 0;
}

/* The import itself, in this process: Assimp, then the conversion. An
   isolated load runs it in the child (assimp_isolate.c). */
static sw_result sw__ai_load_in_process(const void* data, size_t size, const char* name, const char* base_dir,
                                        const sw_assimp_options* options, sw_model** out_model, sw_diag* diag) {
    const char* label = name ? sw__path_base_name(name) : "<memory>";
    sw__ai A;
    memset(&A, 0, sizeof A);
    sw__importer_init(&A.im, label, SW__AI_MAX_WARNINGS);
    A.max_influences = options && options->max_influences ? options->max_influences : 8;
    A.keep_raw = options && options->keep_raw_influences;
    size_t max_file = options && options->max_memory ? options->max_memory : SW__AI_DEFAULT_MAX_FILE;
    if (A.max_influences != 4 && A.max_influences != 8)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "%s: options.max_influences is %d (allowed: 0, 4 or 8)",
                           label, A.max_influences);
    if (size == 0) return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "%s: empty file", label);
    if (size > max_file || size > UINT32_MAX)
        return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1,
                           "%s: %zu bytes is more than the importer reads (options.max_memory: %zu)", label, size,
                           max_file);
    const char* extension = name ? sw__ai_extension(name) : "";
    char hint[16] = "";
    if (strlen(extension) < sizeof hint) {
        for (size_t i = 0; extension[i]; i++)
            hint[i] = (char)(extension[i] >= 'A' && extension[i] <= 'Z' ? extension[i] - 'A' + 'a' : extension[i]);
    }
    struct aiPropertyStore* props = aiCreatePropertyStore();
    if (!props) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "%s: out of memory", label);
    /* lines and points are not drawn: SortByPType drops them */
    aiSetImportPropertyInteger(props, AI_CONFIG_PP_SBP_REMOVE, aiPrimitiveType_POINT | aiPrimitiveType_LINE);
    aiSetImportPropertyInteger(props, AI_CONFIG_IMPORT_FBX_PRESERVE_PIVOTS,
                               options && options->assimp_folds_pivots ? 0 : 1);
    /* no weight limit in Assimp: sinew keeps the strongest and says so */
    aiSetImportPropertyInteger(props, AI_CONFIG_PP_LBW_MAX_WEIGHTS, 0x7fffffff);
    aiSetImportPropertyInteger(props, AI_CONFIG_IMPORT_REMOVE_EMPTY_BONES, 0);
    /* Untrusted input (docs/import.md, "Assimp's options for untrusted
       files"): a caller may name any extension Assimp knows, or none (then
       Assimp picks the importer by the content), so every importer's extra
       files and multiplied work are switched off, not only those of the
       formats the sinew command names. */
    /* SMD: every line of the file taken as an animation file's name, the
       buffer re-read per line (lines × size work, clips named after lines) */
    aiSetImportPropertyInteger(props, AI_CONFIG_IMPORT_SMD_LOAD_ANIMATION_LIST, 0);
    /* MD5: a .md5mesh reads a sibling .md5anim (sinew reads that file when named) */
    aiSetImportPropertyInteger(props, AI_CONFIG_IMPORT_MD5_NO_ANIM_AUTOLOAD, 1);
    /* MD3: _lower/_upper/_head sibling files and Quake 3 shader scripts */
    aiSetImportPropertyInteger(props, AI_CONFIG_IMPORT_MD3_HANDLE_MULTIPART, 0);
    aiSetImportPropertyInteger(props, AI_CONFIG_IMPORT_MD3_LOAD_SHADERS, 0);
    /* Quake 1 MDL: a palette file ("colormap.lmp" in the working folder);
       no name opens none and the built-in palette is used */
    aiSetImportPropertyString(props, AI_CONFIG_IMPORT_MDL_COLORMAP, &(struct aiString){.length = 0});
    /* Ogre: a fallback material file ("Scene.material") */
    aiSetImportPropertyString(props, AI_CONFIG_IMPORT_OGRE_MATERIAL_FILE, &(struct aiString){.length = 0});
    /* AC3D: Catmull-Clark subdivision to the level the file asks (4× faces per level) */
    aiSetImportPropertyInteger(props, AI_CONFIG_IMPORT_AC_EVAL_SUBDIVISION, 0);
    /* The model from these bytes, every side file through sinew's rules (assimp_io.h). */
    sw__ai_io io;
    sw__ai_io_init(&io, data, size, hint, base_dir, options && options->allow_outside_paths, max_file);
    const struct aiScene* scene = aiImportFileExWithProperties(io.main_name, sw__ai_steps, &io.io, props);
    aiReleasePropertyStore(props);
    if (io.failed || io.out_of_memory) {
        if (scene) aiReleaseImport(scene);
        sw_result failed = io.failed ? sw_diag_set(diag, io.error.result, -1, "%s: %s", label, io.error.message)
                                     : sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "%s: out of memory", label);
        sw__ai_io_free(&io);
        return failed;
    }
    if (!scene) {
        sw__ai_io_free(&io);
        const char* why = aiGetErrorString();
        char line[200];
        size_t k = 0;
        /* Assimp's message may span lines or hold control bytes: one line.
           The message already starts with the file's name, so Assimp's name
           for the buffer becomes "line N" before a line number (BVH's
           "NAME:N - ...") and "the file" elsewhere, not the name again. */
        static const char magic[] = "$$$___magic___$$$."; /* Assimp's name for a file read from memory */
        for (const char* c = why ? why : ""; *c && k + 1 < sizeof line; c++) {
            if (strncmp(c, magic, sizeof magic - 1) == 0) {
                c += sizeof magic - 1;
                while ((c[1] >= 'a' && c[1] <= 'z') || (c[1] >= '0' && c[1] <= '9')) c++;
                const bool at_line = c[1] == ':' && c[2] >= '0' && c[2] <= '9';
                if (at_line) c++; /* the colon */
                for (const char* l = at_line ? "line " : "the file"; *l && k + 1 < sizeof line; l++) line[k++] = *l;
                continue;
            }
            line[k++] = (unsigned char)*c < 0x20 || *c == 0x7f ? ' ' : *c;
        }
        line[k] = '\0';
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "%s: Assimp cannot read it: %s", label,
                           k ? line : "no reason given");
    }
    A.scene = scene;
    A.owner = sw__importer_new_model(&A.im, options && options->allow_outside_paths);
    /* first, so that its warnings are among the model's */
    sw_result r = A.owner ? sw__ai_io_finish(&io, &A.im, &A.owner->model) : A.im.diag.result;
    sw__ai_io_free(&io);
    if (r == SW_OK) r = sw__ai_convert(&A, extension);
    aiReleaseImport(scene);
    sw__arena_free(&A.scratch);
    return sw__importer_end(&A.im, A.owner, r, name, base_dir, out_model, diag);
}

sw_result sw_assimp_load_memory(const void* data, size_t size, const char* name, const char* base_dir,
                                const sw_assimp_options* options, sw_model** out_model, sw_diag* diag) {
    if (out_model) *out_model = NULL;
    if (!out_model || (!data && size))
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "sw_assimp_load_memory: no data or no out_model");
    if (options && options->in_process)
        return sw__ai_load_in_process(data, size, name, base_dir, options, out_model, diag);
    return sw__assimp_isolated_load(data, size, name, base_dir, options, sw__ai_load_in_process, out_model, diag);
}

/* sw_assimp_load_memory for sw__importer_load_file. */
static sw_result sw__ai_load_memory_any(const void* data, size_t size, const char* name, const char* base_dir,
                                        const void* options, sw_model** out_model, sw_diag* diag) {
    return sw_assimp_load_memory(data, size, name, base_dir, options, out_model, diag);
}

sw_result sw_assimp_load_file(const char* path, const sw_assimp_options* options, sw_model** out_model,
                              sw_diag* diag) {
    if (out_model) *out_model = NULL;
    if (!path || !out_model)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "sw_assimp_load_file: no path or no out_model");
    size_t max_file = options && options->max_memory ? options->max_memory : SW__AI_DEFAULT_MAX_FILE;
    return sw__importer_load_file(path, max_file, sw__ai_load_memory_any, options, out_model, diag);
}

#endif
