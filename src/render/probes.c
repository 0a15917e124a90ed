/* Environment probes (sinew/render.h, sw_renderer_set_probes and
   sw_renderer_capture_probe; shaders/probes.glsl; docs/probes.md): the
   probes' uniform block, and the capture of one probe's SH9 from six
   renders of the current stage. The maths is probe_math.c's. */
#include "renderer_internal.h"

#include <math.h>
#include <string.h>

#include "../base/base_internal.h"
#include "probe_math.h"

_Static_assert(SW_RENDER_PROBE_MAX == SW_PROBE_MAX, "SW_RENDER_PROBE_MAX (sinew/render.h) must be SW_PROBE_MAX");

/* The block as probes.glsl declares it (std140). */
typedef struct sw__probes_block {
    int32_t count[4]; /* probes, specular on (1/0), the cubes' mip count, 0 */
    float depth_row[4]; /* the view-projection's w row: view depth of a world point */
    float grid[4];      /* width, height, near, far of the cluster grid */
    float probes[SW_PROBE_MAX * SW_PROBE_VEC4S][4];
} sw__probes_block;

static bool sw__probe_valid(const sw_render_probe* p) {
    const float* v = p->position;
    for (size_t k = 0; k < sizeof *p / sizeof(float); k++)
        if (!isfinite(v[k])) return false;
    for (int k = 0; k < 3; k++)
        if (p->box_min[k] > p->box_max[k]) return false;
    return p->fade >= 0.0f;
}

sw_result sw_renderer_set_probes(sw_renderer* r, const sw_render_probe* probes, size_t count, sw_diag* diag) {
    if (!r || (count && !probes)) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "NULL renderer or probes");
    if (count > SW_PROBE_MAX)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "%zu probes: at most %d", count, SW_PROBE_MAX);
    for (size_t i = 0; i < count; i++)
        if (!sw__probe_valid(&probes[i]))
            return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1,
                               "probe %zu: a non-finite value, a box with min > max or a negative fade", i);
    sw__probes_block* block = sw__calloc(1, sizeof *block);
    if (!block) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for the probes");
    block->count[0] = (int32_t)count;
    for (size_t i = 0; i < count; i++) {
        float(*v)[4] = &block->probes[i * SW_PROBE_VEC4S];
        memcpy(v[0], probes[i].position, sizeof(float) * 3);
        v[0][3] = probes[i].fade;
        memcpy(v[1], probes[i].box_min, sizeof(float) * 3);
        memcpy(v[2], probes[i].box_max, sizeof(float) * 3);
        for (int k = 0; k < SW__SH9; k++) memcpy(v[3 + k], probes[i].sh9[k], sizeof(float) * 3);
    }
    glDeleteTextures(1, &r->probe_cubes); /* the cubes belong to the probes they were set with */
    r->probe_cubes = 0;
    if (!r->probes_block) glGenBuffers(1, &r->probes_block);
    glBindBuffer(GL_UNIFORM_BUFFER, r->probes_block);
    glBufferData(GL_UNIFORM_BUFFER, sizeof *block, block, GL_STATIC_DRAW);
    glBindBuffer(GL_UNIFORM_BUFFER, 0);
    sw__free(block);
    sw__free(r->probes);
    r->probes = NULL;
    if (count && !(r->probes = sw__malloc(count * sizeof *probes))) {
        r->probe_count = 0;
        return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for the probes");
    }
    if (count) memcpy(r->probes, probes, count * sizeof *probes);
    r->probe_count = count;
    return sw_gl_check("setting the probes", diag);
}

sw_result sw_renderer_set_probe_cubes(sw_renderer* r, int size, const float* cubes, sw_diag* diag) {
    if (!r || (size && !cubes)) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "NULL renderer or cubes");
    if (size && (size < 4 || size > SW_RENDER_PROBE_CUBE_MAX || (size & (size - 1))))
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "cube size %d: a power of two from 4 to %d", size,
                           SW_RENDER_PROBE_CUBE_MAX);
    const size_t cube_count = r->probe_count + 1, per_cube = sw__probe_cube_floats(size);
    for (size_t k = 0; size && k < cube_count * per_cube; k++)
        if (!(cubes[k] >= 0.0f) || !isfinite(cubes[k]))
            return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "cube %zu: a negative or non-finite texel",
                               k / per_cube);
    if (!r->probes_block) (void)sw_renderer_set_probes(r, NULL, 0, NULL); /* the empty block */
    glDeleteTextures(1, &r->probe_cubes);
    r->probe_cubes = 0;
    const int mips = size ? sw__probe_cube_mips(size) : 0;
    if (size) {
        glGenTextures(1, &r->probe_cubes);
        glBindTexture(GL_TEXTURE_CUBE_MAP_ARRAY, r->probe_cubes);
        glTexStorage3D(GL_TEXTURE_CUBE_MAP_ARRAY, mips, GL_RGBA16F, size, size, (GLsizei)(6 * cube_count));
        glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
        /* Each cube's mip m is six faces of (size >> m)² rgb: layers 6c..6c+5. */
        for (size_t c = 0; c < cube_count; c++)
            for (int m = 0; m < mips; m++)
                glTexSubImage3D(GL_TEXTURE_CUBE_MAP_ARRAY, m, 0, 0, (GLint)(6 * c), size >> m, size >> m, 6, GL_RGB,
                                GL_FLOAT, cubes + c * per_cube + sw__probe_cube_mip_offset(size, m));
        glTexParameteri(GL_TEXTURE_CUBE_MAP_ARRAY, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
        glTexParameteri(GL_TEXTURE_CUBE_MAP_ARRAY, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
        glTexParameteri(GL_TEXTURE_CUBE_MAP_ARRAY, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
        glTexParameteri(GL_TEXTURE_CUBE_MAP_ARRAY, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
        glBindTexture(GL_TEXTURE_CUBE_MAP_ARRAY, 0);
        glEnable(GL_TEXTURE_CUBE_MAP_SEAMLESS); /* filter across face edges, as the lobe does */
    }
    const int32_t specular[2] = {size ? 1 : 0, mips};
    glBindBuffer(GL_UNIFORM_BUFFER, r->probes_block);
    glBufferSubData(GL_UNIFORM_BUFFER, 4, sizeof specular, specular);
    glBindBuffer(GL_UNIFORM_BUFFER, 0);
    return sw_gl_check("setting the probe cubes", diag);
}

void sw__probes_bind_shading(const sw_renderer* r) {
    /* The masks again: the skinning pass's output buffers share the
       storage bindings (SW_SKIN_BUFFER_OUT_POSITIONS is 4 too). */
    if (r->probe_count && r->probe_clusters)
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SW_PROBE_CLUSTER_BUFFER, r->probe_clusters);
    if (r->probes_block) glBindBufferBase(GL_UNIFORM_BUFFER, SW_PROBES_BLOCK, r->probes_block);
    if (!r->probe_cubes) return;
    glActiveTexture(GL_TEXTURE0 + SW_SHADE_UNIT_PROBE_CUBES);
    glBindTexture(GL_TEXTURE_CUBE_MAP_ARRAY, r->probe_cubes);
}

void sw__probes_destroy(sw_renderer* r) {
    glDeleteTextures(1, &r->probe_cubes);
    r->probe_cubes = 0;
    glDeleteBuffers(1, &r->probes_block);
    glDeleteBuffers(1, &r->probe_clusters);
    sw__free(r->probes);
    r->probes = NULL, r->probe_count = 0;
}

enum { SW__CLUSTERS = SW_PROBE_CLUSTERS_X * SW_PROBE_CLUSTERS_Y * SW_PROBE_CLUSTERS_Z };

/* This frame's cluster masks: each probe (its box widened by its fade) in
   every cluster its range may touch, one tile of margin for TAA's jitter. */
static void sw__probes_cluster(sw_renderer* r, const sw_render_frame* f) {
    static sw__probe_masks masks[SW__CLUSTERS]; /* one frame's scratch, as the GL context: one thread */
    memset(masks, 0, sizeof masks);
    const sw_camera* camera = &f->camera.current;
    float vp[16];
    sw_camera_view_projection(camera, (float)r->width / (float)r->height, vp);
    const float near_z = camera->z_near, far_z = camera->z_far > camera->z_near ? camera->z_far : camera->z_near * 2.0f;
    for (size_t i = 0; i < r->probe_count; i++) {
        const sw_render_probe* p = &r->probes[i];
        float lo[3], hi[3];
        for (int k = 0; k < 3; k++) lo[k] = p->box_min[k] - p->fade, hi[k] = p->box_max[k] + p->fade;
        sw__cluster_range range;
        if (!sw__probe_cluster_range(vp, near_z, far_z, lo, hi, 1, &range)) continue;
        for (int z = range.z0; z <= range.z1; z++)
            for (int y = range.y0; y <= range.y1; y++)
                for (int x = range.x0; x <= range.x1; x++)
                    sw__probe_masks_add(&masks[x + SW_PROBE_CLUSTERS_X * (y + SW_PROBE_CLUSTERS_Y * z)], (int)i);
    }
    const float header[8] = {vp[3], vp[7], vp[11], vp[15], (float)r->width, (float)r->height, near_z, far_z};
    glBindBuffer(GL_UNIFORM_BUFFER, r->probes_block);
    glBufferSubData(GL_UNIFORM_BUFFER, 16, sizeof header, header);
    glBindBuffer(GL_UNIFORM_BUFFER, 0);
    if (!r->probe_clusters) glGenBuffers(1, &r->probe_clusters);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, r->probe_clusters);
    glBufferData(GL_SHADER_STORAGE_BUFFER, sizeof masks, masks, GL_STREAM_DRAW);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SW_PROBE_CLUSTER_BUFFER, r->probe_clusters);
}

void sw__probes_bind(sw_renderer* r, const sw_render_frame* f) {
    if (!r->probes_block) (void)sw_renderer_set_probes(r, NULL, 0, NULL); /* the empty block */
    if (r->probe_count) sw__probes_cluster(r, f);
    glBindBufferBase(GL_UNIFORM_BUFFER, SW_PROBES_BLOCK, r->probes_block);
}

/* GL's cube faces (+X, −X, +Y, −Y, +Z, −Z): the look direction and the
   camera's up, so that the readback (rows bottom to top) is the face's
   texel rows (probe_math.h's sw__cube_texel_direction). */
static const float sw__cube_forward[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
static const float sw__cube_up[6][3] = {{0, -1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}, {0, -1, 0}, {0, -1, 0}};

sw_result sw_renderer_capture_probe_faces(sw_renderer* r, const sw_render_frame* frame, const float position[3],
                                          float* faces, sw_diag* diag) {
    if (!r || !frame || !position || !faces)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "NULL renderer, frame, position or output");
    if (r->width != r->height)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "capturing a probe needs a square renderer (%d x %d)",
                           r->width, r->height);
    if (r->probe_count || r->probe_cubes)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "capturing a probe with probes set: clear them first");
    const int size = r->width;
    const size_t texels = (size_t)size * (size_t)size;
    float* rgba = sw__malloc(texels * 4 * sizeof(float));
    if (!rgba) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for a probe capture");
    sw_result res = SW_OK;
    for (int f = 0; f < 6 && res == SW_OK; f++) {
        sw_render_frame face = *frame;
        sw_camera camera = {.fov_y = 1.57079633f, .z_near = 0.05f, .z_far = 500.0f};
        for (int k = 0; k < 3; k++) {
            camera.eye[k] = position[k];
            camera.target[k] = position[k] + sw__cube_forward[f][k];
            camera.up[k] = sw__cube_up[f][k];
        }
        face.camera.current = face.camera.previous = camera;
        face.first_frame = true;
        face.post = (sw_render_frame_post){0};
        res = sw_renderer_draw(r, &face, diag);
        if (res == SW_OK) res = sw_renderer_read_hdr(r, rgba, diag);
        if (res != SW_OK) break;
        float* out = faces + (size_t)f * texels * 3;
        for (size_t i = 0; i < texels; i++)
            for (int c = 0; c < 3; c++) out[i * 3 + c] = isfinite(rgba[i * 4 + c]) ? rgba[i * 4 + c] : 0.0f;
    }
    sw__free(rgba);
    return res;
}

sw_result sw_renderer_capture_probe(sw_renderer* r, const sw_render_frame* frame, const float position[3],
                                    float out_sh9[9][3], sw_diag* diag) {
    if (!r || !frame || !position || !out_sh9)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "NULL renderer, frame, position or output");
    if (r->width != r->height)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "capturing a probe needs a square renderer (%d x %d)",
                           r->width, r->height);
    const size_t texels = (size_t)r->width * (size_t)r->width;
    float* faces = sw__malloc(6 * texels * 3 * sizeof(float));
    if (!faces) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for a probe capture");
    sw_result res = sw_renderer_capture_probe_faces(r, frame, position, faces, diag);
    if (res == SW_OK) {
        const float* face_pointers[6];
        for (int f = 0; f < 6; f++) face_pointers[f] = faces + (size_t)f * texels * 3;
        sw__sh9_project_cube(face_pointers, r->width, out_sh9);
    }
    sw__free(faces);
    return res;
}
