/* The probe file (sinew/render.h, sw_render_probe_file_*; docs/probes.md):
   bytes in memory, little-endian whatever the machine. Version 1 holds the
   probes; version 2 adds the prefiltered specular cubes. Also the public
   face of probe_math.c's prefilter. */
#include "sinew/render.h"

#include <math.h>
#include <string.h>

#include "probe_math.h"

#define SW__PROBE_MAGIC "SWPROBES"
#define SW__PROBE_HEADER_V1 24
#define SW__PROBE_HEADER_V2 32
#define SW__PROBE_FLOATS 37

_Static_assert(sizeof(sw_render_probe) == SW__PROBE_FLOATS * sizeof(float), "a probe is 37 floats");

static bool cube_size_valid(int size) {
    return size >= 4 && size <= SW_RENDER_PROBE_CUBE_MAX && (size & (size - 1)) == 0;
}

int sw_render_probe_cube_mips(int size) { return size > 0 ? sw__probe_cube_mips(size) : 0; }

size_t sw_render_probe_cube_floats(int size) { return size > 0 ? sw__probe_cube_floats(size) : 0; }

sw_result sw_render_probe_prefilter(const float* faces, int size, float* out_cube, sw_diag* diag) {
    if (!faces || !out_cube) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "NULL faces or output");
    if (!cube_size_valid(size))
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "cube size %d: a power of two from 4 to %d", size,
                           SW_RENDER_PROBE_CUBE_MAX);
    const float* face_pointers[6];
    for (int f = 0; f < 6; f++) face_pointers[f] = faces + (size_t)f * (size_t)size * (size_t)size * 3;
    if (!sw__probe_prefilter(face_pointers, size, out_cube))
        return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory prefiltering a probe cube");
    return SW_OK;
}

void sw_render_probe_project_sh9(const float* faces, int size, float out_sh9[9][3]) {
    const float* face_pointers[6];
    for (int f = 0; f < 6; f++) face_pointers[f] = faces + (size_t)f * (size_t)size * (size_t)size * 3;
    sw__sh9_project_cube(face_pointers, size, out_sh9);
}

size_t sw_render_probe_file_size(size_t count) { return SW__PROBE_HEADER_V1 + count * SW__PROBE_FLOATS * 4; }

size_t sw_render_probe_file_specular_size(size_t count, int cube_size) {
    size_t cubes = cube_size > 0 ? (count + 1) * sw__probe_cube_floats(cube_size) : 0;
    return SW__PROBE_HEADER_V2 + count * SW__PROBE_FLOATS * 4 + cubes * 4;
}

static void put_u32(uint8_t* p, uint32_t v) {
    for (int k = 0; k < 4; k++) p[k] = (uint8_t)(v >> (8 * k));
}

static uint32_t get_u32(const uint8_t* p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint8_t* put_floats(uint8_t* p, const float* v, size_t n) {
    for (size_t k = 0; k < n; k++, p += 4) {
        uint32_t bits;
        memcpy(&bits, &v[k], 4);
        put_u32(p, bits);
    }
    return p;
}

static float get_float(const uint8_t* p) {
    uint32_t bits = get_u32(p);
    float v;
    memcpy(&v, &bits, 4);
    return v;
}

static sw_result write_file(const sw_render_probe* probes, size_t count, int version, int cube_size,
                            const float* cubes, uint8_t* out, size_t out_size, sw_diag* diag) {
    if ((count && !probes) || !out || (cube_size && !cubes))
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "NULL probes, cubes or output");
    if (count > SW_RENDER_PROBE_MAX)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "%zu probes: at most %d", count, SW_RENDER_PROBE_MAX);
    if (cube_size && !cube_size_valid(cube_size))
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "cube size %d: a power of two from 4 to %d", cube_size,
                           SW_RENDER_PROBE_CUBE_MAX);
    size_t need = version == 1 ? sw_render_probe_file_size(count) : sw_render_probe_file_specular_size(count, cube_size);
    if (out_size < need)
        return sw_diag_set(diag, SW_ERR_BUFFER_TOO_SMALL, -1, "%zu bytes for %zu probes: %zu needed", out_size, count,
                           need);
    memcpy(out, SW__PROBE_MAGIC, 8);
    put_u32(out + 8, (uint32_t)version);
    put_u32(out + 12, (uint32_t)count);
    put_u32(out + 16, SW__PROBE_FLOATS);
    put_u32(out + 20, version == 1 ? 0u : (uint32_t)cube_size);
    if (version == 2) {
        put_u32(out + 24, (uint32_t)sw_render_probe_cube_mips(cube_size));
        put_u32(out + 28, 0);
    }
    uint8_t* p = out + (version == 1 ? SW__PROBE_HEADER_V1 : SW__PROBE_HEADER_V2);
    for (size_t i = 0; i < count; i++) p = put_floats(p, probes[i].position, SW__PROBE_FLOATS);
    if (cube_size) put_floats(p, cubes, (count + 1) * sw__probe_cube_floats(cube_size));
    return SW_OK;
}

sw_result sw_render_probe_file_write(const sw_render_probe* probes, size_t count, uint8_t* out, size_t out_size,
                                     sw_diag* diag) {
    return write_file(probes, count, 1, 0, NULL, out, out_size, diag);
}

sw_result sw_render_probe_file_write_specular(const sw_render_probe* probes, size_t count, int cube_size,
                                              const float* cubes, uint8_t* out, size_t out_size, sw_diag* diag) {
    return write_file(probes, count, 2, cube_size, cubes, out, out_size, diag);
}

/* The header's facts, checked against the size: SW_OK or the one-line error. */
typedef struct probe_header {
    uint32_t version, count, cube_size;
    size_t probes_at, cubes_at;
} probe_header;

static sw_result read_header(const uint8_t* bytes, size_t size, probe_header* h, sw_diag* diag) {
    if (size < SW__PROBE_HEADER_V1 || memcmp(bytes, SW__PROBE_MAGIC, 8) != 0)
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "not a probe file (no \"SWPROBES\" header)");
    h->version = get_u32(bytes + 8), h->count = get_u32(bytes + 12);
    uint32_t floats = get_u32(bytes + 16);
    if (h->version != 1 && h->version != 2)
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "probe file version %u: this reader knows versions 1 and 2",
                           h->version);
    if (h->count > SW_RENDER_PROBE_MAX)
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "%u probes: at most %d", h->count, SW_RENDER_PROBE_MAX);
    if (floats != SW__PROBE_FLOATS)
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "%u floats per probe: version %u has %d", floats, h->version,
                           SW__PROBE_FLOATS);
    h->cube_size = 0;
    size_t expected = sw_render_probe_file_size(h->count);
    h->probes_at = SW__PROBE_HEADER_V1;
    if (h->version == 2) {
        if (size < SW__PROBE_HEADER_V2)
            return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "%zu bytes: a version 2 header has %d (truncated)", size,
                               SW__PROBE_HEADER_V2);
        h->cube_size = get_u32(bytes + 20);
        uint32_t mips = get_u32(bytes + 24);
        if (h->cube_size && !cube_size_valid((int)h->cube_size))
            return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "cube size %u: a power of two from 4 to %d, or 0",
                               h->cube_size, SW_RENDER_PROBE_CUBE_MAX);
        if (mips != (uint32_t)sw_render_probe_cube_mips((int)h->cube_size))
            return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "%u mips for cube size %u: should be %d", mips,
                               h->cube_size, sw_render_probe_cube_mips((int)h->cube_size));
        if (get_u32(bytes + 28) != 0)
            return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "the header's reserved word is not 0");
        expected = sw_render_probe_file_specular_size(h->count, (int)h->cube_size);
        h->probes_at = SW__PROBE_HEADER_V2;
    }
    h->cubes_at = h->probes_at + (size_t)h->count * SW__PROBE_FLOATS * 4;
    if (size != expected)
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "%zu bytes for %u probes: the file should have %zu (%s)",
                           size, h->count, expected, size < expected ? "truncated" : "trailing bytes");
    return SW_OK;
}

sw_result sw_render_probe_file_read(const uint8_t* bytes, size_t size, sw_render_probe* out, size_t* out_count,
                                    sw_diag* diag) {
    if ((size && !bytes) || !out || !out_count)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "NULL bytes or output");
    *out_count = 0;
    probe_header h = {0};
    sw_result res = read_header(bytes, size, &h, diag);
    if (res != SW_OK) return res;
    const uint8_t* p = bytes + h.probes_at;
    for (uint32_t i = 0; i < h.count; i++) {
        float v[SW__PROBE_FLOATS];
        for (int k = 0; k < SW__PROBE_FLOATS; k++, p += 4) v[k] = get_float(p);
        memcpy(&out[i], v, sizeof v);
        bool ok = out[i].fade >= 0.0f;
        for (int k = 0; k < SW__PROBE_FLOATS; k++) ok = ok && isfinite(v[k]);
        for (int k = 0; k < 3; k++) ok = ok && out[i].box_min[k] <= out[i].box_max[k];
        if (!ok)
            return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1,
                               "probe %u: a non-finite value, a box with min > max or a negative fade", i);
    }
    if (h.cube_size) {
        const size_t per_cube = sw__probe_cube_floats((int)h.cube_size);
        for (size_t k = 0; k < (h.count + 1) * per_cube; k++, p += 4) {
            float v = get_float(p);
            if (!(v >= 0.0f) || !isfinite(v))
                return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "cube %zu (%s): a negative or non-finite texel",
                                   k / per_cube, k < per_cube ? "the global cube" : "a probe's");
        }
    }
    *out_count = h.count;
    return SW_OK;
}

int sw_render_probe_file_cube_size(const uint8_t* bytes, size_t size) {
    probe_header h = {0};
    if (!bytes || read_header(bytes, size, &h, NULL) != SW_OK) return 0;
    return (int)h.cube_size;
}

sw_result sw_render_probe_file_read_cubes(const uint8_t* bytes, size_t size, float* out, size_t out_floats,
                                          sw_diag* diag) {
    if (!bytes || !out) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "NULL bytes or output");
    probe_header h = {0};
    sw_result res = read_header(bytes, size, &h, diag);
    if (res != SW_OK) return res;
    size_t n = h.cube_size ? (h.count + 1) * sw__probe_cube_floats((int)h.cube_size) : 0;
    if (out_floats < n)
        return sw_diag_set(diag, SW_ERR_BUFFER_TOO_SMALL, -1, "room for %zu floats: the cubes have %zu", out_floats, n);
    const uint8_t* p = bytes + h.cubes_at;
    for (size_t k = 0; k < n; k++, p += 4) out[k] = get_float(p);
    return SW_OK;
}
