/* The probe file (sinew/render.h, sw_render_probe_file_*; docs/probes.md):
   bytes in memory, little-endian whatever the machine. */
#include "sinew/render.h"

#include <math.h>
#include <string.h>

#define SW__PROBE_MAGIC "SWPROBES"
#define SW__PROBE_HEADER 24
#define SW__PROBE_FLOATS 37

_Static_assert(sizeof(sw_render_probe) == SW__PROBE_FLOATS * sizeof(float), "a probe is 37 floats");

size_t sw_render_probe_file_size(size_t count) { return SW__PROBE_HEADER + count * SW__PROBE_FLOATS * 4; }

static void put_u32(uint8_t* p, uint32_t v) {
    for (int k = 0; k < 4; k++) p[k] = (uint8_t)(v >> (8 * k));
}

static uint32_t get_u32(const uint8_t* p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The probe's floats in the file's order (the struct's). */
static const float* probe_floats(const sw_render_probe* p) { return p->position; }

sw_result sw_render_probe_file_write(const sw_render_probe* probes, size_t count, uint8_t* out, size_t out_size,
                                     sw_diag* diag) {
    if ((count && !probes) || !out) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "NULL probes or output");
    if (count > SW_RENDER_PROBE_MAX)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "%zu probes: at most %d", count, SW_RENDER_PROBE_MAX);
    if (out_size < sw_render_probe_file_size(count))
        return sw_diag_set(diag, SW_ERR_BUFFER_TOO_SMALL, -1, "%zu bytes for %zu probes: %zu needed", out_size, count,
                           sw_render_probe_file_size(count));
    memcpy(out, SW__PROBE_MAGIC, 8);
    put_u32(out + 8, SW_RENDER_PROBE_FILE_VERSION);
    put_u32(out + 12, (uint32_t)count);
    put_u32(out + 16, SW__PROBE_FLOATS);
    put_u32(out + 20, 0);
    uint8_t* p = out + SW__PROBE_HEADER;
    for (size_t i = 0; i < count; i++) {
        const float* v = probe_floats(&probes[i]);
        for (int k = 0; k < SW__PROBE_FLOATS; k++, p += 4) {
            uint32_t bits;
            memcpy(&bits, &v[k], 4);
            put_u32(p, bits);
        }
    }
    return SW_OK;
}

sw_result sw_render_probe_file_read(const uint8_t* bytes, size_t size, sw_render_probe* out, size_t* out_count,
                                    sw_diag* diag) {
    if ((size && !bytes) || !out || !out_count)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "NULL bytes or output");
    *out_count = 0;
    if (size < SW__PROBE_HEADER || memcmp(bytes, SW__PROBE_MAGIC, 8) != 0)
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "not a probe file (no \"SWPROBES\" header)");
    uint32_t version = get_u32(bytes + 8), count = get_u32(bytes + 12), floats = get_u32(bytes + 16);
    if (version != SW_RENDER_PROBE_FILE_VERSION)
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "probe file version %u: this reader knows version %d",
                           version, SW_RENDER_PROBE_FILE_VERSION);
    if (count > SW_RENDER_PROBE_MAX)
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "%u probes: at most %d", count, SW_RENDER_PROBE_MAX);
    if (floats != SW__PROBE_FLOATS)
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "%u floats per probe: version 1 has %d", floats,
                           SW__PROBE_FLOATS);
    if (size != sw_render_probe_file_size(count))
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "%zu bytes for %u probes: the file should have %zu (%s)",
                           size, count, sw_render_probe_file_size(count),
                           size < sw_render_probe_file_size(count) ? "truncated" : "trailing bytes");
    const uint8_t* p = bytes + SW__PROBE_HEADER;
    for (uint32_t i = 0; i < count; i++) {
        float v[SW__PROBE_FLOATS];
        for (int k = 0; k < SW__PROBE_FLOATS; k++, p += 4) {
            uint32_t bits = get_u32(p);
            memcpy(&v[k], &bits, 4);
        }
        memcpy(&out[i], v, sizeof v);
        bool ok = out[i].fade >= 0.0f;
        for (int k = 0; k < SW__PROBE_FLOATS; k++) ok = ok && isfinite(v[k]);
        for (int k = 0; k < 3; k++) ok = ok && out[i].box_min[k] <= out[i].box_max[k];
        if (!ok)
            return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1,
                               "probe %u: a non-finite value, a box with min > max or a negative fade", i);
    }
    *out_count = count;
    return SW_OK;
}
