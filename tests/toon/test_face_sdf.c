/* The face SDF bake (sw_toon_bake_face_sdf) on a model built here: the
   front half of a unit sphere as the face, whose normal at every texel is
   known in closed form, so the lit masks the map reproduces are compared
   with masks computed independently of the bake. */
#include "harness.h"

#include "sinew/gltf.h"
#include "sinew/toon.h"

#include <stdint.h>
#include <string.h>

#define SIZE 128
#define RINGS 64    /* hemisphere: rings from the front pole to the rim */
#define SEGMENTS 128 /* and segments around */
#define DEG (3.14159265358979323846 / 180.0)

/* ---- the model: one GLB in memory ---------------------------------------------------- */

typedef struct bytes {
    uint8_t* data;
    size_t size, capacity;
} bytes;

static void put(bytes* b, const void* data, size_t size) {
    if (b->size + size > b->capacity) {
        size_t cap = b->capacity ? b->capacity : 4096;
        while (cap < b->size + size) cap *= 2;
        b->data = realloc(b->data, cap);
        if (!b->data) abort();
        b->capacity = cap;
    }
    memcpy(b->data + b->size, data, size);
    b->size += size;
}

static void putf(bytes* b, float x) { put(b, &x, sizeof x); }

typedef struct views {
    char json[8192]; /* the bufferViews and accessors, as JSON arrays' contents */
    char accessors[8192];
    int count;
} views;

/* Appends an array already in `bin` from `offset` as a bufferView + accessor; returns its index. */
static int add_view(views* v, const bytes* bin, size_t offset, size_t count, const char* type,
                    int component) {
    size_t n = strlen(v->json), m = strlen(v->accessors);
    snprintf(v->json + n, sizeof v->json - n, "%s{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu}",
             v->count ? "," : "", offset, bin->size - offset);
    snprintf(v->accessors + m, sizeof v->accessors - m,
             "%s{\"bufferView\":%d,\"componentType\":%d,\"count\":%zu,\"type\":\"%s\"}", v->count ? "," : "",
             v->count, component, count, type);
    return v->count++;
}

/* Node 0 "body" (turned −25° about y), 1 "head" under it (turned 40°
   about y), 2 "face" under the head (scale 0.1) drawing mesh 0:
   primitive 0 the hemisphere (material 0 "face"; normals = positions,
   TEXCOORD_0 = the front view, u = (x + 1)/2, v = (1 − y)/2); primitive 1
   a quad whose normals face 45° to the head's right (material 1
   "patch"; UVs in [0.05, 0.45]², the top-left corner); primitive 2 a
   triangle without TEXCOORD_0 (material 2 "no_uv"). Material 3 "unused"
   draws nothing. */
static sw_model* build_model(void) {
    bytes bin = {0};
    views v = {{0}, {0}, 0};
    char prims[3][256];

    /* The hemisphere: ring i at polar angle 90°·i/RINGS from +z. */
    size_t verts = (size_t)(RINGS + 1) * (SEGMENTS + 1);
    size_t off = bin.size;
    for (int pass = 0; pass < 3; pass++) {
        off = bin.size;
        for (int i = 0; i <= RINGS; i++)
            for (int j = 0; j <= SEGMENTS; j++) {
                double a = 90.0 * DEG * i / RINGS, b = 360.0 * DEG * j / SEGMENTS;
                float x = (float)(sin(a) * cos(b)), y = (float)(sin(a) * sin(b)), z = (float)cos(a);
                if (pass < 2) {
                    putf(&bin, x), putf(&bin, y), putf(&bin, z); /* position, then normal */
                } else {
                    putf(&bin, 0.5f * (x + 1.0f)), putf(&bin, 0.5f * (1.0f - y));
                }
            }
        int acc = add_view(&v, &bin, off, verts, pass < 2 ? "VEC3" : "VEC2", 5126);
        if (pass == 0) snprintf(prims[0], sizeof prims[0], "{\"attributes\":{\"POSITION\":%d", acc);
        else if (pass == 1) snprintf(prims[0] + strlen(prims[0]), 64, ",\"NORMAL\":%d", acc);
        else snprintf(prims[0] + strlen(prims[0]), 64, ",\"TEXCOORD_0\":%d}", acc);
    }
    off = bin.size;
    size_t index_count = 0;
    for (int i = 0; i < RINGS; i++)
        for (int j = 0; j < SEGMENTS; j++) {
            uint32_t a = (uint32_t)(i * (SEGMENTS + 1) + j), b = a + 1, c = a + SEGMENTS + 1, d = c + 1;
            uint32_t tri[6] = {a, c, d, a, d, b};
            put(&bin, tri, sizeof tri);
            index_count += 6;
        }
    int acc = add_view(&v, &bin, off, index_count, "SCALAR", 5125);
    snprintf(prims[0] + strlen(prims[0]), 64, ",\"indices\":%d,\"material\":0}", acc);

    /* The patch. */
    float s = 0.70710678f;
    float quad_pos[12] = {-1, 1, 1, 1, 1, 1, -1, -1, 1, 1, -1, 1};
    float quad_uv[8] = {0.05f, 0.05f, 0.45f, 0.05f, 0.05f, 0.45f, 0.45f, 0.45f};
    uint32_t quad_idx[6] = {0, 2, 3, 0, 3, 1};
    off = bin.size;
    put(&bin, quad_pos, sizeof quad_pos);
    int p_pos = add_view(&v, &bin, off, 4, "VEC3", 5126);
    off = bin.size;
    for (int k = 0; k < 4; k++) putf(&bin, s), putf(&bin, 0.0f), putf(&bin, s);
    int p_nrm = add_view(&v, &bin, off, 4, "VEC3", 5126);
    off = bin.size;
    put(&bin, quad_uv, sizeof quad_uv);
    int p_uv = add_view(&v, &bin, off, 4, "VEC2", 5126);
    off = bin.size;
    put(&bin, quad_idx, sizeof quad_idx);
    int p_idx = add_view(&v, &bin, off, 6, "SCALAR", 5125);
    snprintf(prims[1], sizeof prims[1],
             "{\"attributes\":{\"POSITION\":%d,\"NORMAL\":%d,\"TEXCOORD_0\":%d},\"indices\":%d,\"material\":1}", p_pos,
             p_nrm, p_uv, p_idx);

    /* The triangle without UVs. */
    float tri_pos[9] = {0, 0, 1, 1, 0, 1, 0, 1, 1};
    off = bin.size;
    put(&bin, tri_pos, sizeof tri_pos);
    int t_pos = add_view(&v, &bin, off, 3, "VEC3", 5126);
    snprintf(prims[2], sizeof prims[2], "{\"attributes\":{\"POSITION\":%d},\"material\":2}", t_pos);

    /* Every array is of 4-byte numbers: the chunk stays a multiple of 4. */

    static char json[32768];
    double body = -25.0 * DEG / 2, head = 40.0 * DEG / 2;
    snprintf(json, sizeof json,
             "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],"
             "\"nodes\":[{\"name\":\"body\",\"translation\":[0,1,0],\"rotation\":[0,%.17g,0,%.17g],\"children\":[1]},"
             "{\"name\":\"head\",\"translation\":[0,0.5,0],\"rotation\":[0,%.17g,0,%.17g],\"children\":[2]},"
             "{\"name\":\"face\",\"scale\":[0.1,0.1,0.1],\"mesh\":0}],"
             "\"meshes\":[{\"primitives\":[%s,%s,%s]}],"
             "\"materials\":[{\"name\":\"face\"},{\"name\":\"patch\"},{\"name\":\"no_uv\"},{\"name\":\"unused\"}],"
             "\"buffers\":[{\"byteLength\":%zu}],\"bufferViews\":[%s],\"accessors\":[%s]}",
             sin(body), cos(body), sin(head), cos(head), prims[0], prims[1], prims[2], bin.size, v.json,
             v.accessors);
    size_t json_len = strlen(json);
    while (json_len % 4) json[json_len++] = ' ';
    json[json_len] = '\0';

    bytes glb = {0};
    uint32_t header[3] = {0x46546C67u, 2u, (uint32_t)(12 + 8 + json_len + 8 + bin.size)};
    uint32_t json_chunk[2] = {(uint32_t)json_len, 0x4E4F534Au};
    uint32_t bin_chunk[2] = {(uint32_t)bin.size, 0x004E4942u};
    put(&glb, header, sizeof header);
    put(&glb, json_chunk, sizeof json_chunk);
    put(&glb, json, json_len);
    put(&glb, bin_chunk, sizeof bin_chunk);
    put(&glb, bin.data, bin.size);
    free(bin.data);

    sw_model* model = NULL;
    sw_diag diag;
    if (sw_gltf_load_memory(glb.data, glb.size, "hemisphere.glb", NULL, NULL, &model, &diag) != SW_OK)
        fprintf(stderr, "  load: %s\n", diag.message);
    free(glb.data);
    return model;
}

/* ---- the checks ------------------------------------------------------------------------ */

/* The texel's threshold as the renderer reads it. */
static float texel_t(const uint8_t* rgba, size_t i) {
    return sw_toon_face_texel(rgba[4 * i] / 255.0f, rgba[4 * i + 3] / 255.0f);
}

/* The hemisphere's unit normal (head frame) at texel (x, y), from the
   inverse of its UV mapping; false outside the face (with a margin of 1 %
   at the rim, where the 64-gon and the circle differ). */
static bool analytic_normal(int x, int y, double n[3]) {
    double px = 2.0 * (x + 0.5) / SIZE - 1.0, py = 1.0 - 2.0 * (y + 0.5) / SIZE;
    double r2 = px * px + py * py;
    if (r2 > 0.99 * 0.99) return false;
    n[0] = px, n[1] = py, n[2] = sqrt(1.0 - r2);
    return true;
}

static uint8_t* bake(const sw_model* model, uint32_t material, uint32_t head) {
    uint8_t* rgba = malloc((size_t)SIZE * SIZE * 4);
    sw_diag diag;
    sw_result r = sw_toon_bake_face_sdf(model, material, head, SIZE, rgba, &diag);
    if (r != SW_OK) {
        fprintf(stderr, "  bake: %s\n", diag.message);
        free(rgba);
        return NULL;
    }
    return rgba;
}

/* The worst IoU, over light angles 0..180° every 1°, of the mask the map
   reproduces (t > 0.5 − 0.5 cos θ, the threshold before the renderer's
   clamp) and the N·L mask of the analytic normals, where the N·L mask
   holds at least 5 % of the face. Beyond (θ > ~150°) one step of the
   8-bit encoding is worth up to a degree (dh/dθ = ½ sin θ), so a ratio of
   two small counts says little: there *out_small_diff is the most texels,
   as a fraction of the face, on which the masks disagree. */
static double worst_iou(const uint8_t* rgba, int* out_angle, double* out_small_diff) {
    double worst = 1.0, small_diff = 0.0;
    *out_angle = -1;
    for (int deg = 0; deg <= 180; deg++) {
        double th = deg * DEG, h = 0.5 - 0.5 * cos(th);
        long inter = 0, uni = 0, face = 0, source_count = 0;
        for (int y = 0; y < SIZE; y++)
            for (int x = 0; x < SIZE; x++) {
                double n[3];
                if (!analytic_normal(x, y, n)) continue;
                face++;
                bool source = n[0] * sin(th) + n[2] * cos(th) > 0.0;
                bool map = texel_t(rgba, (size_t)y * SIZE + x) > h;
                inter += source && map, uni += source || map, source_count += source;
            }
        if (source_count < face / 20) {
            double diff = (double)(uni - inter) / (double)face;
            if (diff > small_diff) small_diff = diff;
            continue;
        }
        double iou = (double)inter / (double)uni;
        if (iou < worst) worst = iou, *out_angle = deg;
    }
    *out_small_diff = small_diff;
    return worst;
}

static void test_masks(void) {
    sw_model* model = build_model();
    SW_CHECK(model != NULL);
    if (!model) return;
    uint8_t* rgba = bake(model, 0, 1);
    SW_CHECK(rgba != NULL);
    if (rgba) {
        int angle;
        double diff;
        double iou = worst_iou(rgba, &angle, &diff);
        printf("  head frame: min IoU %.4f (at %d deg); where under 5 %% is lit, at most %.4f of the face differs\n",
               iou, angle, diff);
        SW_CHECK(iou >= 0.98);
        SW_CHECK(diff <= 0.002);
        /* G and B are zero everywhere; texels far outside the face are 0. */
        bool gb_zero = true;
        for (size_t i = 0; i < (size_t)SIZE * SIZE; i++) gb_zero = gb_zero && !rgba[4 * i + 1] && !rgba[4 * i + 2];
        SW_CHECK(gb_zero);
        SW_CHECK_EQ_INT(rgba[0], 0);
        SW_CHECK_EQ_INT(rgba[3], 0);
        /* The face's centre faces the front: dark from θ* = 90°, t = 0.5. */
        float centre = texel_t(rgba, (size_t)(SIZE / 2) * SIZE + SIZE / 2);
        SW_CHECK_NEAR(centre, 0.5 - 0.5 * cos(90.0 * DEG + atan2(0.5 / (SIZE / 2.0), 1.0)), 0.004);
        free(rgba);
    }
    /* Baked with the body's frame (40° off the head's), the masks are
       off by 40°: the bake must use the head frame it is given. */
    rgba = bake(model, 0, 0);
    SW_CHECK(rgba != NULL);
    if (rgba) {
        int angle;
        double diff;
        double iou = worst_iou(rgba, &angle, &diff);
        printf("  body frame: min IoU %.4f (at %d deg)\n", iou, angle);
        SW_CHECK(iou < 0.8);
        free(rgba);
    }
    sw_model_free(model);
}

/* The light turning around the head in 5° steps, shaded with the
   reference functions at steepness 3460: the lit part of the face only
   shrinks, from nearly all to nearly none; each texel turns dark once and
   stays dark, and the edge is sharp. */
static void test_sweep(void) {
    sw_model* model = build_model();
    SW_CHECK(model != NULL);
    if (!model) return;
    uint8_t* rgba = bake(model, 0, 1);
    SW_CHECK(rgba != NULL);
    if (rgba) {
        static uint8_t was_lit[SIZE * SIZE], flips[SIZE * SIZE];
        memset(flips, 0, sizeof flips);
        double previous = 2.0, first = 0.0, last = 0.0, most_changed = 0.0;
        long soft = 0, samples = 0, face = 0;
        bool monotonic = true;
        for (int deg = 0; deg <= 180; deg += 5) {
            float light[3] = {(float)sin(deg * DEG), 0.0f, (float)cos(deg * DEG)};
            float h = sw_toon_face_threshold(light, 0.0f);
            double sum = 0.0;
            long changed = 0;
            face = 0;
            for (int y = 0; y < SIZE; y++)
                for (int x = 0; x < SIZE; x++) {
                    double n[3];
                    if (!analytic_normal(x, y, n)) continue;
                    size_t i = (size_t)y * SIZE + x;
                    float w = sw_toon_face_lit(texel_t(rgba, i), h, 3460.0f);
                    face++, samples++;
                    sum += w;
                    soft += w > 0.1f && w < 0.9f;
                    uint8_t lit = w > 0.5f;
                    if (deg > 0 && lit != was_lit[i]) changed++, flips[i]++;
                    was_lit[i] = lit;
                }
            double fraction = sum / (double)face;
            if (deg == 0) first = fraction;
            last = fraction;
            if (fraction > previous + 1e-9) monotonic = false;
            previous = fraction;
            if ((double)changed / (double)face > most_changed) most_changed = (double)changed / (double)face;
            printf("  %3d deg: lit %.4f\n", deg, fraction);
        }
        int most_flips = 0;
        for (size_t i = 0; i < (size_t)SIZE * SIZE; i++)
            if (flips[i] > most_flips) most_flips = flips[i];
        printf("  lit %.4f -> %.4f; most texels changing in one 5 deg step %.4f; most flips of a texel %d; "
               "soft samples %.5f\n",
               first, last, most_changed, most_flips, (double)soft / (double)samples);
        SW_CHECK(monotonic);
        SW_CHECK(first >= 0.95);
        SW_CHECK(last <= 0.05);
        SW_CHECK(most_flips <= 1);
        /* A 5° step moves the terminator over at most half of sin(5°) of
           the face (a meridian band of the sphere's front view). */
        SW_CHECK(most_changed <= 0.5 * sin(5.0 * DEG) + 0.01);
        SW_CHECK((double)soft / (double)samples < 0.005);
        free(rgba);
    }
    sw_model_free(model);
}

/* A flat patch facing 45° to the head's right turns dark at 135° (t =
   0.5 − 0.5 cos 135° = 0.854: A = 180), in the texture's top-left corner:
   v = 0 is the top row, u = 0 the left column. */
static void test_patch_orientation(void) {
    sw_model* model = build_model();
    SW_CHECK(model != NULL);
    if (!model) return;
    uint8_t* rgba = bake(model, 1, 1);
    SW_CHECK(rgba != NULL);
    if (rgba) {
        size_t inside = (size_t)(SIZE / 4) * SIZE + SIZE / 4;
        SW_CHECK_EQ_INT(rgba[4 * inside], 255);
        SW_CHECK_NEAR(rgba[4 * inside + 3], 180, 2);
        size_t corners[3] = {(size_t)(SIZE / 4) * SIZE + 3 * SIZE / 4, (size_t)(3 * SIZE / 4) * SIZE + SIZE / 4,
                             (size_t)(3 * SIZE / 4) * SIZE + 3 * SIZE / 4};
        for (int k = 0; k < 3; k++) SW_CHECK(rgba[4 * corners[k]] == 0 && rgba[4 * corners[k] + 3] == 0);
        /* Dilation: a texel just outside the patch (u = 0.46 + 1 texel) has its value. */
        size_t border = (size_t)(SIZE / 4) * SIZE + (size_t)(0.45 * SIZE) + 1;
        SW_CHECK_NEAR(rgba[4 * border + 3], 180, 2);
        free(rgba);
    }
    sw_model_free(model);
}

static void test_errors(void) {
    sw_model* model = build_model();
    SW_CHECK(model != NULL);
    if (!model) return;
    uint8_t* rgba = malloc((size_t)SIZE * SIZE * 4);
    sw_diag diag;
    diag.message[0] = '\0';
    SW_CHECK_EQ_INT(sw_toon_bake_face_sdf(model, 2, 1, SIZE, rgba, &diag), SW_ERR_INVALID_DATA);
    printf("  no UVs: %s\n", diag.message);
    SW_CHECK(strstr(diag.message, "hemisphere.glb") && strstr(diag.message, "no_uv") &&
             strstr(diag.message, "TEXCOORD_0"));
    diag.message[0] = '\0';
    SW_CHECK_EQ_INT(sw_toon_bake_face_sdf(model, 3, 1, SIZE, rgba, &diag), SW_ERR_INVALID_DATA);
    printf("  no triangles: %s\n", diag.message);
    SW_CHECK(strstr(diag.message, "hemisphere.glb") && strstr(diag.message, "unused"));
    static const int bad_sizes[] = {0, 15, 4097, -1};
    for (int k = 0; k < 4; k++) {
        diag.message[0] = '\0';
        SW_CHECK_EQ_INT(sw_toon_bake_face_sdf(model, 0, 1, bad_sizes[k], rgba, &diag), SW_ERR_INVALID_ARGUMENT);
        SW_CHECK(diag.message[0] != '\0');
    }
    printf("  bad size: %s\n", diag.message);
    diag.message[0] = '\0';
    SW_CHECK(sw_toon_bake_face_sdf(model, 0, 3, SIZE, rgba, &diag) != SW_OK);
    printf("  bad head: %s\n", diag.message);
    SW_CHECK(diag.message[0] != '\0');
    diag.message[0] = '\0';
    SW_CHECK(sw_toon_bake_face_sdf(model, 4, 1, SIZE, rgba, &diag) != SW_OK);
    SW_CHECK(diag.message[0] != '\0');
    free(rgba);
    sw_model_free(model);
}

int main(void) {
    SW_RUN(test_masks);
    SW_RUN(test_sweep);
    SW_RUN(test_patch_orientation);
    SW_RUN(test_errors);
    return sw_test_finish();
}
