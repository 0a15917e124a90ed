/* The face SDF bake (sw_toon_bake_face_sdf, sinew/toon.h).

   What the renderer does with the map (docs/toon.md): the light direction
   in the head frame gives h = clamp(0.5 − 0.5·forward + offset, 0.03,
   0.97), the texel gives t (R lower half, A upper half), and the texel is
   lit while t > h. For a light turning around the head's up axis by θ
   (0° = from the front, towards the head's right, 180° = from behind),
   forward = cos θ, so a texel with threshold t is lit while θ < θ* with
   t = 0.5 − 0.5·cos θ*. The bake finds θ* for every texel:

   1. Rest pose: world matrices from the rest locals, every (node,
      primitive) drawn with the material deformed there (morph weights and
      skinning as sw_deform_primitive does them; flat triangle normals when
      the primitive has none). The head frame is the head joint's world
      matrix' columns, each normalised: right (x), up (y), forward (z).
   2. Texture space: every triangle is rasterised at its TEXCOORD_0 into
      the size × size grid (texel (x, y) covers u in [x, x+1)/size and v
      in [y, y+1)/size, v = 0 on the top row); a texel is covered when its
      centre is inside a triangle, and gets the triangle's interpolated
      normal in the head frame. UV transforms are not applied; texels
      outside [0,1]² are not drawn; where UV islands overlap the last
      triangle drawn wins.
   3. Masks: for θ_k = k·180°/FACE_SDF_STEPS (181 masks, 1° apart) a
      covered texel is lit when N·L(θ_k) > 0, L(θ) = (sin θ, 0, cos θ).
      (At 2° apart the interpolation of step 4 errs by up to a degree
      where the terminator moves about one texel per mask.)
      Each mask becomes a signed distance field in texels, exact
      Euclidean (the Felzenszwalb–Huttenlocher 1-D squared distance
      transform, down the columns then along the rows): a lit texel gets
      +(distance to the nearest dark covered texel − ½), a dark one
      −(distance to the nearest lit texel − ½), so the zero level runs
      between texel centres. Uncovered texels are neither: the distance is
      to the terminator on the face, not to the face's outline.
   4. Crossing: the first k at which a texel is dark; θ* lies between
      θ_{k−1} and θ_k where the SDF, linear in θ between the two masks,
      crosses zero: θ* = θ_{k−1} + Δθ·s_{k−1}/(s_{k−1} − s_k). Dark at 0°:
      t = 0; lit at every angle: t = 1. Only the first crossing counts, so
      a texel that lights up again later (a normal facing away from the
      front, or a stylised mask that is not nested) stays dark: lit at θ
      implies lit at every smaller θ, as one threshold can only say.
   5. Encoding: t < 0.5 → R = round(255·2t), A = 0; else A = max(1,
      round(255·(2t − 1))) and R = 255 (so that bilinear filtering across
      the 0.5 line blends continuous values). G = B = 0.
   6. Border: an uncovered texel within max(4, size/64) texels of the
      face takes the value of its nearest covered texel, so
      filtering at the face's outline reads face values; farther ones are 0.

   Cost: two distance transforms of the face's bounding box per mask, about
   0.7 s at 512² on one core (optimised build); memory about 30 bytes per
   texel. */
#include "sinew/toon.h"

#include "sinew/pose.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "../base/base_internal.h"

#define FACE_SDF_STEPS 180         /* masks at 0°, 1°, ..., 180° */
#define FACE_SDF_MIN_SIZE 16
#define FACE_SDF_MAX_SIZE 4096
#define FACE_SDF_FAR 1e20f         /* squared distance of "no feature" */

typedef struct face_bake {
    const sw_model* model;
    const char* file;          /* for messages */
    uint32_t material;
    int size;
    sw_vec3 axis[3];           /* head right, up, forward (world) */
    /* Per texel (size × size): */
    uint8_t* covered;
    float* normal_x;           /* head-frame normal x and z (y is not needed: L has none) */
    float* normal_z;
    float* t;                  /* the threshold; < 0 while undecided */
    float* sdf_prev;
    float* sdf_cur;
    float* dist;               /* squared distances, one transform's output */
    int32_t* nearest;          /* nearest covered texel (dilation) */
    /* The 1-D transform's work rows (size + 1 entries). */
    double* f;
    double* d;
    double* z;
    int* v;
    int* arg;
    /* The covered texels' bounding box [x0, x1) × [y0, y1). */
    int x0, y0, x1, y1;
} face_bake;

static const char* material_name(const face_bake* b) {
    const char* name = b->model->materials[b->material].name;
    return name ? name : "";
}

/* ---- step 1: the rest pose ------------------------------------------------------------- */

static sw_vec3 column(const sw_mat34* m, int c) { return sw_vec3_make(m->m[0][c], m->m[1][c], m->m[2][c]); }

/* ---- step 2: texture space ------------------------------------------------------------- */

static float clampf(float x, float lo, float hi) { return x < lo ? lo : (x > hi ? hi : x); }

static float edge(float ax, float ay, float bx, float by, float px, float py) {
    return (bx - ax) * (py - ay) - (by - ay) * (px - ax);
}

/* Draws one triangle: uv[3][2] (texture coordinates), n[3] (world normals). */
static void raster_triangle(face_bake* b, const float* uv[3], const sw_vec3 n[3]) {
    float s = (float)b->size;
    float px[3], py[3];
    for (int i = 0; i < 3; i++) {
        px[i] = uv[i][0] * s, py[i] = uv[i][1] * s;
        if (!isfinite(px[i]) || !isfinite(py[i])) return;
    }
    float area = edge(px[0], py[0], px[1], py[1], px[2], py[2]);
    if (fabsf(area) < 1e-12f) return; /* no texel centre can be strictly inside */
    float lo_x = fminf(px[0], fminf(px[1], px[2])), hi_x = fmaxf(px[0], fmaxf(px[1], px[2]));
    float lo_y = fminf(py[0], fminf(py[1], py[2])), hi_y = fmaxf(py[0], fmaxf(py[1], py[2]));
    /* Texel x's centre is x + 0.5: the texels whose centre lies in [lo, hi],
       clamped before the conversion (a far-off UV must not overflow an int). */
    int x_begin = (int)clampf(ceilf(lo_x - 0.5f), 0.0f, s), x_end = (int)clampf(floorf(hi_x - 0.5f), -1.0f, s - 1.0f);
    int y_begin = (int)clampf(ceilf(lo_y - 0.5f), 0.0f, s), y_end = (int)clampf(floorf(hi_y - 0.5f), -1.0f, s - 1.0f);
    float inv = 1.0f / area;
    for (int y = y_begin; y <= y_end; y++) {
        float cy = (float)y + 0.5f;
        for (int x = x_begin; x <= x_end; x++) {
            float cx = (float)x + 0.5f;
            /* Barycentrics; both windings (mirrored UV islands) are drawn. */
            float w0 = edge(px[1], py[1], px[2], py[2], cx, cy) * inv;
            float w1 = edge(px[2], py[2], px[0], py[0], cx, cy) * inv;
            float w2 = 1.0f - w0 - w1;
            if (w0 < 0.0f || w1 < 0.0f || w2 < 0.0f) continue;
            sw_vec3 nw = sw_vec3_add(sw_vec3_add(sw_vec3_scale(n[0], w0), sw_vec3_scale(n[1], w1)),
                                     sw_vec3_scale(n[2], w2));
            float hx = sw_vec3_dot(nw, b->axis[0]), hz = sw_vec3_dot(nw, b->axis[2]);
            float len = sqrtf(sw_vec3_dot(nw, nw));
            if (!(len > 1e-12f)) continue;
            size_t i = (size_t)y * (size_t)b->size + (size_t)x;
            b->covered[i] = 1;
            b->normal_x[i] = hx / len, b->normal_z[i] = hz / len;
        }
    }
}

/* The vertex index of corner c of triangle tri, for the triangle modes. */
static size_t corner(const sw_model_primitive* p, size_t tri, int c) {
    size_t k;
    if (p->mode == SW_MODEL_TRIANGLES) {
        k = 3 * tri + (size_t)c;
    } else if (p->mode == SW_MODEL_TRIANGLE_STRIP) {
        /* Odd triangles swap their first two corners to keep the winding. */
        static const int order[2][3] = {{0, 1, 2}, {1, 0, 2}};
        k = tri + (size_t)order[tri & 1][c];
    } else { /* fan */
        k = c == 0 ? 0 : tri + (size_t)c;
    }
    return p->indices ? p->indices[k] : k;
}

static size_t triangle_count(const sw_model_primitive* p) {
    size_t n = p->indices ? p->index_count : p->vertex_count;
    if (p->mode == SW_MODEL_TRIANGLES) return n / 3;
    return n >= 3 ? n - 2 : 0;
}

static bool is_triangles(const sw_model_primitive* p) {
    return p->mode == SW_MODEL_TRIANGLES || p->mode == SW_MODEL_TRIANGLE_STRIP || p->mode == SW_MODEL_TRIANGLE_FAN;
}

/* Deforms one (node, primitive) at the rest pose and draws its triangles. */
static sw_result raster_primitive(face_bake* b, const sw_pose* pose, size_t node, size_t prim_index,
                                  size_t* out_triangles, sw_diag* diag) {
    const sw_model* m = b->model;
    const sw_model_primitive* p = &m->meshes[m->nodes[node].mesh].primitives[prim_index];
    size_t vc = p->vertex_count;
    size_t bytes;
    if (!sw_mul_size(vc, 3 * sizeof(float), &bytes))
        return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "%s: face SDF: primitive too large", b->file);
    size_t scratch_size = (sw_deform_scratch_size(m, node, prim_index) + 15) / 16 * 16;
    float* positions = sw__malloc(bytes ? bytes : 1);
    float* normals = p->normals ? sw__malloc(bytes ? bytes : 1) : NULL;
    void* scratch = sw__aligned_alloc(16, scratch_size ? scratch_size : 16);
    sw_result r = SW_OK;
    if (!positions || (p->normals && !normals) || !scratch) {
        r = sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "%s: face SDF: out of memory", b->file);
        goto done;
    }
    sw_deform deform = {.node = node, .primitive = prim_index, .scratch = scratch, .out_positions = positions,
                        .out_normals = normals};
    if ((r = sw_deform_primitive(m, pose, &deform, diag)) != SW_OK) goto done;

    size_t tris = triangle_count(p);
    for (size_t t = 0; t < tris; t++) {
        size_t idx[3];
        for (int c = 0; c < 3; c++) idx[c] = corner(p, t, c);
        if (idx[0] >= vc || idx[1] >= vc || idx[2] >= vc) continue; /* the importer checks; stay safe */
        const float* uv[3];
        sw_vec3 pos[3], n[3];
        for (int c = 0; c < 3; c++) {
            uv[c] = &p->texcoords[0][2 * idx[c]];
            pos[c] = sw_vec3_make(positions[3 * idx[c]], positions[3 * idx[c] + 1], positions[3 * idx[c] + 2]);
        }
        if (normals) {
            for (int c = 0; c < 3; c++)
                n[c] = sw_vec3_make(normals[3 * idx[c]], normals[3 * idx[c] + 1], normals[3 * idx[c] + 2]);
        } else {
            /* No normals: the triangle's own (counter-clockwise front, as glTF). */
            sw_vec3 flat = sw_vec3_cross(sw_vec3_sub(pos[1], pos[0]), sw_vec3_sub(pos[2], pos[0]));
            n[0] = n[1] = n[2] = flat;
        }
        raster_triangle(b, uv, n);
    }
    *out_triangles += tris;
done:
    sw__free(positions);
    sw__free(normals);
    sw__aligned_free(scratch);
    return r;
}

/* ---- step 3: distance transforms ---------------------------------------------------------- */

/* The 1-D squared distance transform of f[0..n) (Felzenszwalb and
   Huttenlocher, "Distance Transforms of Sampled Functions", 2012): d[q] =
   min over p of (q − p)² + f[p], arg[q] the minimising p. Samples at
   FACE_SDF_FAR are no feature and left out of the envelope, so that no
   arithmetic is done on them; without any feature d = FACE_SDF_FAR and
   arg = -1. v (n entries) and z (n + 1) are work space: the parabolas of
   the lower envelope and where each takes over. */
static void transform_1d(const double* f, int n, double* d, int* arg, int* v, double* z) {
    int k = -1;
    for (int q = 0; q < n; q++) {
        if (f[q] >= (double)FACE_SDF_FAR) continue;
        if (k < 0) {
            k = 0, v[0] = q, z[0] = -DBL_MAX, z[1] = DBL_MAX;
            continue;
        }
        double s;
        for (;;) {
            int p = v[k];
            s = ((f[q] + (double)q * q) - (f[p] + (double)p * p)) / (2.0 * (q - p));
            if (s > z[k] || k == 0) break;
            k--;
        }
        k++;
        v[k] = q, z[k] = s, z[k + 1] = DBL_MAX;
    }
    if (k < 0) {
        for (int q = 0; q < n; q++) {
            d[q] = (double)FACE_SDF_FAR;
            if (arg) arg[q] = -1;
        }
        return;
    }
    k = 0;
    for (int q = 0; q < n; q++) {
        while (z[k + 1] < q) k++;
        double dq = (double)(q - v[k]);
        d[q] = dq * dq + f[v[k]];
        if (arg) arg[q] = v[k];
    }
}

/* Squared distances, over the window [x0, x1) × [y0, y1), from every texel
   to the nearest texel whose feature[] byte equals `want` and whose
   covered[] byte is set, into b->dist (FACE_SDF_FAR where there is none).
   With `nearest`, also the index of that texel. */
static void transform_2d(face_bake* b, const uint8_t* feature, uint8_t want, int x0, int y0, int x1, int y1,
                         bool nearest) {
    size_t w = (size_t)b->size;
    /* Down each column: the squared distance to the nearest feature in the
       column, and (kept in b->nearest) its row. Two sweeps over whole rows
       (all columns at once, memory in order): from the top, the last
       feature above; from the bottom, the first one below if nearer. */
    int* near = b->v; /* per column: the row of the last feature seen, or -1 */
    for (int x = x0; x < x1; x++) near[x - x0] = -1;
    for (int y = y0; y < y1; y++) {
        size_t row = (size_t)y * w;
        for (int x = x0; x < x1; x++) {
            size_t i = row + (size_t)x;
            if (b->covered[i] && feature[i] == want) near[x - x0] = y;
            int r = near[x - x0];
            b->dist[i] = r < 0 ? FACE_SDF_FAR : (float)(y - r) * (float)(y - r);
            if (nearest) b->nearest[i] = r;
        }
    }
    for (int x = x0; x < x1; x++) near[x - x0] = -1;
    for (int y = y1 - 1; y >= y0; y--) {
        size_t row = (size_t)y * w;
        for (int x = x0; x < x1; x++) {
            size_t i = row + (size_t)x;
            if (b->covered[i] && feature[i] == want) near[x - x0] = y;
            int r = near[x - x0];
            if (r < 0) continue;
            float d2 = (float)(r - y) * (float)(r - y);
            if (d2 < b->dist[i]) {
                b->dist[i] = d2;
                if (nearest) b->nearest[i] = r;
            }
        }
    }
    /* Along each row, over the column distances. */
    int n = x1 - x0;
    for (int y = y0; y < y1; y++) {
        size_t row = (size_t)y * w;
        for (int x = x0; x < x1; x++) b->f[x - x0] = b->dist[row + (size_t)x];
        transform_1d(b->f, n, b->d, nearest ? b->arg : NULL, b->v, b->z);
        if (nearest) {
            /* The nearest texel is (column x', the row found down column x'),
               read before this row is overwritten: keep the rows aside. */
            for (int x = x0; x < x1; x++) b->v[x - x0] = b->nearest[row + (size_t)x];
            for (int x = x0; x < x1; x++) {
                int a = b->arg[x - x0];
                b->nearest[row + (size_t)x] = a < 0 ? -1 : (int32_t)((size_t)b->v[a] * w + (size_t)(x0 + a));
            }
        }
        for (int x = x0; x < x1; x++) b->dist[row + (size_t)x] = (float)b->d[x - x0];
    }
}

/* The signed distance field of mask `lit` over the covered texels' box. */
static void signed_field(face_bake* b, const uint8_t* lit, float* out) {
    size_t w = (size_t)b->size;
    /* Farther than any texel can be: where one side of the mask is empty. */
    float cap = 2.0f * (float)b->size;
    /* Lit texels: distance to the nearest dark covered texel. */
    transform_2d(b, lit, 0, b->x0, b->y0, b->x1, b->y1, false);
    for (int y = b->y0; y < b->y1; y++)
        for (int x = b->x0; x < b->x1; x++) {
            size_t i = (size_t)y * w + (size_t)x;
            if (b->covered[i] && lit[i]) out[i] = fminf(sqrtf(b->dist[i]), cap) - 0.5f;
        }
    /* Dark texels: distance to the nearest lit texel. */
    transform_2d(b, lit, 1, b->x0, b->y0, b->x1, b->y1, false);
    for (int y = b->y0; y < b->y1; y++)
        for (int x = b->x0; x < b->x1; x++) {
            size_t i = (size_t)y * w + (size_t)x;
            if (b->covered[i] && !lit[i]) out[i] = -(fminf(sqrtf(b->dist[i]), cap) - 0.5f);
        }
}

/* ---- step 4: the sweep ---------------------------------------------------------------------- */

static void sweep(face_bake* b, uint8_t* lit) {
    size_t w = (size_t)b->size;
    double step = SW_PI / FACE_SDF_STEPS;
    for (int k = 0; k <= FACE_SDF_STEPS; k++) {
        double theta = step * k;
        float sx = (float)sin(theta), cz = (float)cos(theta);
        bool undecided = false;
        for (int y = b->y0; y < b->y1; y++)
            for (int x = b->x0; x < b->x1; x++) {
                size_t i = (size_t)y * w + (size_t)x;
                lit[i] = b->covered[i] && b->normal_x[i] * sx + b->normal_z[i] * cz > 0.0f;
                if (b->covered[i] && b->t[i] < 0.0f) undecided = true;
            }
        if (!undecided) return;
        signed_field(b, lit, b->sdf_cur);
        for (int y = b->y0; y < b->y1; y++)
            for (int x = b->x0; x < b->x1; x++) {
                size_t i = (size_t)y * w + (size_t)x;
                if (!b->covered[i] || b->t[i] >= 0.0f || b->sdf_cur[i] > 0.0f) continue;
                if (k == 0) {
                    b->t[i] = 0.0f; /* dark with the light in front: dark always */
                    continue;
                }
                float s0 = b->sdf_prev[i], s1 = b->sdf_cur[i];
                double frac = (double)s0 / ((double)s0 - (double)s1); /* s0 > 0 >= s1 */
                double crossing = step * ((k - 1) + frac);
                b->t[i] = (float)(0.5 - 0.5 * cos(crossing));
            }
        float* swap = b->sdf_prev;
        b->sdf_prev = b->sdf_cur, b->sdf_cur = swap;
    }
    /* Lit at every angle, 180° included. */
    for (size_t i = 0; i < w * w; i++)
        if (b->covered[i] && b->t[i] < 0.0f) b->t[i] = 1.0f;
}

/* ---- steps 5 and 6: border and encoding ------------------------------------------------------- */

static void encode(float t, uint8_t* rgba) {
    t = t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
    if (t < 0.5f) {
        rgba[0] = (uint8_t)lroundf(255.0f * 2.0f * t), rgba[3] = 0;
    } else {
        long a = lroundf(255.0f * (2.0f * t - 1.0f));
        rgba[0] = 255, rgba[3] = (uint8_t)(a < 1 ? 1 : a);
    }
    rgba[1] = rgba[2] = 0;
}

static void write_out(face_bake* b, uint8_t* lit, uint8_t* out_rgba) {
    int size = b->size;
    size_t w = (size_t)size;
    int pad = size / 64 > 4 ? size / 64 : 4;
    int x0 = b->x0 - pad > 0 ? b->x0 - pad : 0, y0 = b->y0 - pad > 0 ? b->y0 - pad : 0;
    int x1 = b->x1 + pad < size ? b->x1 + pad : size, y1 = b->y1 + pad < size ? b->y1 + pad : size;
    /* Every covered texel is a feature: `lit` all ones. */
    memset(lit, 1, w * w);
    transform_2d(b, lit, 1, x0, y0, x1, y1, true);
    float pad2 = (float)pad * (float)pad;
    for (size_t i = 0; i < w * w; i++) {
        int x = (int)(i % w), y = (int)(i / w);
        float t = 0.0f;
        if (b->covered[i])
            t = b->t[i];
        else if (x >= x0 && x < x1 && y >= y0 && y < y1 && b->dist[i] <= pad2)
            t = b->t[b->nearest[i]];
        encode(t, &out_rgba[4 * i]);
    }
}

/* ---- the bake ------------------------------------------------------------------------------- */

static void bake_free(face_bake* b) {
    sw__free(b->covered);
    sw__free(b->normal_x);
    sw__free(b->normal_z);
    sw__free(b->t);
    sw__free(b->sdf_prev);
    sw__free(b->sdf_cur);
    sw__free(b->dist);
    sw__free(b->nearest);
    sw__free(b->f);
    sw__free(b->d);
    sw__free(b->z);
    sw__free(b->v);
    sw__free(b->arg);
}

sw_result sw_toon_bake_face_sdf(const sw_model* model, uint32_t material, uint32_t head_node, int size,
                                uint8_t* out_rgba, sw_diag* diag) {
    if (!model || !out_rgba)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "face SDF: a model and an output are needed");
    const char* file = model->path ? model->path : "model";
    if (size < FACE_SDF_MIN_SIZE || size > FACE_SDF_MAX_SIZE)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, size, "%s: face SDF: size %d is outside %d..%d", file, size,
                           FACE_SDF_MIN_SIZE, FACE_SDF_MAX_SIZE);
    if (material >= model->material_count)
        return sw_diag_set(diag, SW_ERR_INDEX_OUT_OF_RANGE, material,
                           "%s: face SDF: material %u does not exist (the model has %zu)", file, material,
                           model->material_count);
    if (head_node >= model->node_count)
        return sw_diag_set(diag, SW_ERR_INDEX_OUT_OF_RANGE, head_node,
                           "%s: face SDF: head node %u does not exist (the model has %zu nodes)", file, head_node,
                           model->node_count);

    face_bake b = {.model = model, .file = file, .material = material, .size = size};
    size_t texels = (size_t)size * (size_t)size;
    sw_pose pose;
    void* pose_memory = NULL;
    uint8_t* lit = NULL;
    sw_result r = SW_OK;

    sw_pose_sizes sizes = sw_pose_sizes_of(model);
    pose_memory = sw__aligned_alloc(16, sw_pose_memory_size(&sizes) + 16); /* a multiple of 16, never 0 */
    b.covered = sw__calloc(texels, 1);
    lit = sw__malloc(texels);
    b.normal_x = sw__malloc(texels * sizeof(float));
    b.normal_z = sw__malloc(texels * sizeof(float));
    b.t = sw__malloc(texels * sizeof(float));
    b.sdf_prev = sw__malloc(texels * sizeof(float));
    b.sdf_cur = sw__malloc(texels * sizeof(float));
    b.dist = sw__malloc(texels * sizeof(float));
    b.nearest = sw__malloc(texels * sizeof(int32_t));
    b.f = sw__malloc(((size_t)size + 1) * sizeof(double));
    b.d = sw__malloc(((size_t)size + 1) * sizeof(double));
    b.z = sw__malloc(((size_t)size + 2) * sizeof(double));
    b.v = sw__malloc(((size_t)size + 1) * sizeof(int));
    b.arg = sw__malloc(((size_t)size + 1) * sizeof(int));
    if (!pose_memory || !b.covered || !lit || !b.normal_x || !b.normal_z || !b.t || !b.sdf_prev || !b.sdf_cur ||
        !b.dist || !b.nearest || !b.f || !b.d || !b.z || !b.v || !b.arg) {
        r = sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "%s: face SDF: out of memory for a %d x %d bake", file, size,
                        size);
        goto done;
    }
    sw_pose_bind(&pose, &sizes, pose_memory);
    sw_pose_rest(model, &pose);
    sw_pose_update(model, &pose);

    /* The head frame. */
    const sw_mat34* head = &pose.world[head_node];
    for (int c = 0; c < 3; c++) {
        sw_vec3 a = column(head, c);
        float len = sw_vec3_length(a);
        if (!(len > 1e-12f) || !isfinite(len)) {
            r = sw_diag_set(diag, SW_ERR_INVALID_DATA, head_node,
                            "%s: face SDF: head node %u has a degenerate world matrix at rest", file, head_node);
            goto done;
        }
        b.axis[c] = sw_vec3_scale(a, 1.0f / len);
    }

    /* Every instance of every primitive drawn with the material. */
    size_t primitives = 0, without_uv = 0, triangles = 0;
    for (size_t n = 0; n < model->node_count; n++) {
        int32_t mesh = model->nodes[n].mesh;
        if (mesh < 0) continue;
        for (size_t k = 0; k < model->meshes[mesh].primitive_count; k++) {
            const sw_model_primitive* p = &model->meshes[mesh].primitives[k];
            if (p->material != (int32_t)material || !is_triangles(p)) continue;
            primitives++;
            if (p->texcoord_count < 1 || !p->texcoords[0]) {
                without_uv++;
                continue;
            }
            if ((r = raster_primitive(&b, &pose, n, k, &triangles, diag)) != SW_OK) goto done;
        }
    }
    if (primitives == 0 || triangles == 0) {
        r = sw_diag_set(diag, SW_ERR_INVALID_DATA, material,
                        "%s: face SDF: material %u \"%s\" draws no triangles%s", file, material, material_name(&b),
                        without_uv ? " with TEXCOORD_0" : "");
        goto done;
    }

    /* The covered texels' box: the transforms need nothing else. */
    b.x0 = b.y0 = size, b.x1 = b.y1 = 0;
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++)
            if (b.covered[(size_t)y * (size_t)size + (size_t)x]) {
                if (x < b.x0) b.x0 = x;
                if (y < b.y0) b.y0 = y;
                if (x + 1 > b.x1) b.x1 = x + 1;
                if (y + 1 > b.y1) b.y1 = y + 1;
            }
    if (b.x1 == 0) {
        r = sw_diag_set(diag, SW_ERR_INVALID_DATA, material,
                        "%s: face SDF: material %u \"%s\": its TEXCOORD_0 covers no texel of [0,1]x[0,1] at %d x %d",
                        file, material, material_name(&b), size, size);
        goto done;
    }

    for (size_t i = 0; i < texels; i++) b.t[i] = -1.0f;
    sweep(&b, lit);
    write_out(&b, lit, out_rgba);

done:
    sw__aligned_free(pose_memory);
    sw__free(lit);
    bake_free(&b);
    return r;
}
