/* The compact skinning layout (see sinew/skin.h): vertices grouped by
   influence count, 8- or 16-bit joints, normalised integer weights with the
   last implied. Built once, in the caller's memory; run as one ordinary
   sw_skin_job per group. */
#include "skin_internal.h"

#include <string.h>

enum { SW__ALIGN = 16 };

static size_t sw__align_up(size_t n) { return (n + SW__ALIGN - 1) / SW__ALIGN * SW__ALIGN; }

static sw_weight_format sw__compact_weights(const sw_skin_compact_desc* desc) {
    if (desc->compact_weights != SW_WEIGHT_FORMAT_DEFAULT) return desc->compact_weights;
    return desc->quantize ? SW_WEIGHT_U8_NORM : SW_WEIGHT_U16_NORM;
}

static bool sw__desc_ok(const sw_skin_compact_desc* d) {
    return d && d->influence_count >= 1 && d->influence_count <= SW_MAX_INFLUENCES && d->joint_count >= 1 &&
           d->joint_count <= 65536 && d->joints && d->weights && d->positions && d->joint_format <= SW_JOINT_U16 &&
           d->weight_format <= SW_WEIGHT_U16_NORM &&
           (sw__compact_weights(d) == SW_WEIGHT_U16_NORM || sw__compact_weights(d) == SW_WEIGHT_U8_NORM) &&
           !(d->quantize && d->tangents);
}

/* The layout's blocks, in order, sized for the worst case (every vertex
   with all its slots used), so the size does not depend on the data. */
typedef struct sw__compact_sizes {
    size_t old_to_new, new_to_old, joints, weights, positions, normals, tangents, total;
} sw__compact_sizes;

static bool sw__compact_sizes_of(const sw_skin_compact_desc* d, sw__compact_sizes* s) {
    const size_t v = d->vertex_count, n = (size_t)d->influence_count;
    const size_t jsize = d->joint_count <= 256 ? 1 : 2, wsize = sw__weight_size(sw__compact_weights(d));
    size_t parts[7];
    const size_t pos = d->quantize ? 8 : 12, nrm = d->normals ? (d->quantize ? 4 : 12) : 0;
    const size_t per_vertex[7] = {4, 4, n * jsize, (n - 1) * wsize, pos, nrm, d->tangents ? 16 : 0};
    size_t total = 0;
    for (int i = 0; i < 7; i++) {
        size_t bytes;
        if (!sw_mul_size(v, per_vertex[i], &bytes) || bytes > SIZE_MAX - 2 * SW__ALIGN) return false;
        parts[i] = sw__align_up(bytes);
        if (parts[i] > SIZE_MAX - total) return false;
        total += parts[i];
    }
    *s = (sw__compact_sizes){parts[0], parts[1], parts[2], parts[3], parts[4], parts[5], parts[6], total};
    return true;
}

size_t sw_skin_compact_memory_size(const sw_skin_compact_desc* desc) {
    sw__compact_sizes s;
    if (!sw__desc_ok(desc) || !sw__compact_sizes_of(desc, &s)) return 0;
    return s.total ? s.total : SW__ALIGN;
}

/* One vertex's influences in compact form: k joints and k codes summing to
   `scale` exactly (the last is stored implied), in slot order, zero
   weights dropped. Returns k (0: no weight, or bad data, see *why). */
static int sw__quantise(const sw_skin_compact_desc* d, size_t v, uint32_t scale, uint32_t* joints, uint32_t* codes,
                        const char** why) {
    const int n = d->influence_count;
    const sw_joint_format jf = d->joint_format == SW_JOINT_FORMAT_DEFAULT ? SW_JOINT_U16 : d->joint_format;
    const sw_weight_format wf = d->weight_format == SW_WEIGHT_FORMAT_DEFAULT ? SW_WEIGHT_F32 : d->weight_format;
    const unsigned char* jp = (const unsigned char*)d->joints + (size_t)v * (size_t)n * sw__joint_size(jf);
    const unsigned char* wp = (const unsigned char*)d->weights + (size_t)v * (size_t)n * sw__weight_size(wf);
    double w[SW_MAX_INFLUENCES];
    int k = 0;
    for (int s = 0; s < n; s++) {
        uint32_t j;
        double x;
        if (jf == SW_JOINT_U8) {
            j = jp[s];
        } else {
            uint16_t u;
            memcpy(&u, jp + 2 * s, 2);
            j = u;
        }
        if (wf == SW_WEIGHT_F32) {
            float f;
            memcpy(&f, wp + 4 * s, 4);
            x = f;
        } else if (wf == SW_WEIGHT_U8_NORM) {
            x = wp[s] / 255.0;
        } else {
            uint16_t u;
            memcpy(&u, wp + 2 * s, 2);
            x = u / 65535.0;
        }
        if (!(x >= 0.0) || !isfinite(x)) {
            *why = "a negative or non-finite weight";
            return 0;
        }
        if (x == 0.0) continue;
        if (j >= d->joint_count) {
            *why = "a joint index outside the palette";
            return 0;
        }
        joints[k] = j;
        w[k++] = x;
    }
    /* Largest remainder to `scale` codes; an influence rounded to 0 is
       dropped and the rest quantised again. */
    for (;;) {
        if (k == 0) {
            *why = "no non-zero weight";
            return 0;
        }
        double total = 0.0, frac[SW_MAX_INFLUENCES];
        for (int i = 0; i < k; i++) total += w[i];
        uint32_t given = 0;
        for (int i = 0; i < k; i++) {
            const double f = w[i] / total * scale;
            codes[i] = (uint32_t)f;
            frac[i] = f - codes[i];
            given += codes[i];
        }
        for (; given < scale; given++) {
            int best = 0;
            for (int i = 1; i < k; i++)
                if (frac[i] > frac[best]) best = i;
            codes[best]++;
            frac[best] = -1.0;
        }
        int kept = 0;
        for (int i = 0; i < k; i++)
            if (codes[i] > 0) joints[kept] = joints[i], w[kept] = w[i], codes[kept++] = codes[i];
        if (kept == k) return k;
        k = kept;
    }
}

/* ---- quantisation ------------------------------------------------------------- */

/* The bounding box's centre per axis, and one step for all three axes: its
   largest size / 65534 (1 when it is a point). One step makes D a uniform
   scale, so S·D moves normals as S does (they are normalised after). As
   floats: the quantisation and the dequantising matrices use exactly these. */
static void sw__quantization_box(const float* positions, size_t count, sw_vec3* offset, sw_vec3* step) {
    float lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
    for (size_t v = 0; v < count; v++)
        for (int a = 0; a < 3; a++) {
            const float x = positions[3 * v + (size_t)a];
            if (v == 0 || x < lo[a]) lo[a] = x;
            if (v == 0 || x > hi[a]) hi[a] = x;
        }
    float c[3];
    double size = 0.0;
    for (int a = 0; a < 3; a++) {
        c[a] = (float)(0.5 * ((double)lo[a] + (double)hi[a]));
        size = fmax(size, (double)hi[a] - (double)lo[a]);
    }
    float h = size > 0.0 ? (float)(size / 65534.0) : 1.0f;
    /* Rounded to float, h may be a hair short: the far corners must still fit. */
    for (int a = 0; a < 3; a++)
        while (fabs((double)hi[a] - c[a]) / h > 32767.0 || fabs((double)lo[a] - c[a]) / h > 32767.0)
            h = nextafterf(h, INFINITY);
    *offset = sw_vec3_make(c[0], c[1], c[2]);
    *step = sw_vec3_make(h, h, h);
}

static void sw__quantize_position(int16_t* out, const float* p, sw_vec3 offset, sw_vec3 step) {
    const double c[3] = {offset.x, offset.y, offset.z}, h[3] = {step.x, step.y, step.z};
    for (int a = 0; a < 3; a++) {
        double q = nearbyint(((double)p[a] - c[a]) / h[a]);
        q = q < -32767.0 ? -32767.0 : q > 32767.0 ? 32767.0 : q;
        out[a] = (int16_t)q;
    }
    out[3] = 1;
}

void sw_skin_matrices_dequantize(sw_mat34* SW_RESTRICT out, const sw_mat34* matrices, size_t count, sw_vec3 offset,
                                 sw_vec3 step) {
    const double c[3] = {offset.x, offset.y, offset.z}, h[3] = {step.x, step.y, step.z};
    for (size_t j = 0; j < count; j++)
        for (int r = 0; r < 3; r++) {
            const float* m = matrices[j].m[r];
            double t = m[3];
            for (int a = 0; a < 3; a++) {
                out[j].m[r][a] = (float)((double)m[a] * h[a]);
                t += (double)m[a] * c[a];
            }
            out[j].m[r][3] = (float)t;
        }
}

void sw_octahedral_encode(int16_t out[2], sw_vec3 d) {
    double x = d.x, y = d.y, z = d.z;
    const double l1 = fabs(x) + fabs(y) + fabs(z);
    if (!(l1 > 0.0) || !isfinite(l1)) {
        out[0] = out[1] = 0;
        return;
    }
    x /= l1, y /= l1, z /= l1;
    if (z < 0.0) {
        const double fx = (1.0 - fabs(y)) * (x >= 0.0 ? 1.0 : -1.0), fy = (1.0 - fabs(x)) * (y >= 0.0 ? 1.0 : -1.0);
        x = fx, y = fy;
    }
    out[0] = (int16_t)nearbyint(x * 32767.0);
    out[1] = (int16_t)nearbyint(y * 32767.0);
}

sw_vec3 sw_octahedral_decode(const int16_t code[2]) {
    const float u = code[0], v = code[1];
    const float z = 32767.0f - fabsf(u) - fabsf(v);
    const float t = z < 0.0f ? -z : 0.0f;
    return sw_vec3_make(u >= 0.0f ? u - t : u + t, v >= 0.0f ? v - t : v + t, z);
}

uint32_t sw_pack_int_2_10_10_10(sw_vec3 unit) {
    const float c[3] = {unit.x, unit.y, unit.z};
    uint32_t word = 0;
    for (int a = 0; a < 3; a++) {
        /* fmaxf(NaN, −1) is −1, as the kernels' MAXPS(x, −1) */
        const float x = fminf(fmaxf(c[a], -1.0f), 1.0f);
        const int32_t q = (int32_t)lrintf(x * 511.0f);
        word |= ((uint32_t)q & 1023u) << (10 * a);
    }
    return word;
}

sw_vec3 sw_unpack_int_2_10_10_10(uint32_t word) {
    float c[3];
    for (int a = 0; a < 3; a++) {
        int32_t q = (int32_t)((word >> (10 * a)) & 1023u);
        if (q >= 512) q -= 1024;
        c[a] = fmaxf((float)q / 511.0f, -1.0f);
    }
    return sw_vec3_make(c[0], c[1], c[2]);
}

sw_result sw_skin_compact_build(const sw_skin_compact_desc* desc, void* memory, size_t memory_size,
                                sw_skin_compact* out, sw_diag* diag) {
    sw__compact_sizes sz;
    if (desc && desc->quantize && desc->tangents)
        return sw_diag_set(diag, SW_ERR_UNSUPPORTED, -1, "compact skin: the quantised layout keeps no tangents");
    if (!out || !sw__desc_ok(desc))
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1,
                           "compact skin: influence count, palette size, streams or formats invalid");
    if (!sw__compact_sizes_of(desc, &sz))
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "compact skin: %zu vertices overflow the address space",
                           desc->vertex_count);
    if (!memory || (uintptr_t)memory % SW__ALIGN != 0 || memory_size < sz.total)
        return sw_diag_set(diag, SW_ERR_BUFFER_TOO_SMALL, -1,
                           "compact skin: memory must be 16-aligned and at least %zu bytes (given %zu)", sz.total,
                           memory_size);
    const size_t v_count = desc->vertex_count;
    const int n = desc->influence_count;
    const sw_joint_format jf = desc->joint_count <= 256 ? SW_JOINT_U8 : SW_JOINT_U16;
    const sw_weight_format wf = sw__compact_weights(desc);
    const uint32_t scale = wf == SW_WEIGHT_U8_NORM ? 255u : 65535u;
    const size_t jsize = sw__joint_size(jf), wsize = sw__weight_size(wf);
    unsigned char* at = memory;
    uint32_t* old_to_new = (uint32_t*)(void*)at;
    uint32_t* new_to_old = (uint32_t*)(void*)(at += sz.old_to_new);
    unsigned char* joints = (at += sz.new_to_old);
    unsigned char* weights = (at += sz.joints);
    float* positions = (float*)(void*)(at += sz.weights);
    float* normals = desc->normals ? (float*)(void*)(at + sz.positions) : NULL;
    float* tangents = desc->tangents ? (float*)(void*)(at + sz.positions + sz.normals) : NULL;
    /* Quantised: the same blocks hold int16 positions (4) and normals (2). */
    int16_t* qpositions = desc->quantize ? (int16_t*)(void*)positions : NULL;
    int16_t* qnormals = desc->quantize && normals ? (int16_t*)(void*)normals : NULL;
    sw_vec3 offset = {0}, step = {1.0f, 1.0f, 1.0f};
    if (desc->quantize) sw__quantization_box(desc->positions, v_count, &offset, &step);

    /* Pass 1: how many vertices per influence count. */
    size_t per_count[SW_MAX_INFLUENCES + 1] = {0};
    for (size_t v = 0; v < v_count; v++) {
        uint32_t j[SW_MAX_INFLUENCES], c[SW_MAX_INFLUENCES];
        const char* why = "";
        const int k = sw__quantise(desc, v, scale, j, c, &why);
        if (k == 0)
            return sw_diag_set(diag, SW_ERR_INVALID_DATA, (int64_t)v, "compact skin: vertex %zu has %s", v, why);
        per_count[k]++;
    }
    memset(out, 0, sizeof *out);
    out->vertex_count = v_count;
    out->joint_count = desc->joint_count;
    out->joint_format = jf;
    out->weight_format = wf;
    size_t first = 0, joint_at = 0, weight_at = 0;
    size_t next[SW_MAX_INFLUENCES + 1] = {0};
    for (int k = 1; k <= n; k++) {
        if (per_count[k] == 0) continue;
        sw_skin_compact_segment* seg = &out->segments[out->segment_count++];
        seg->influence_count = k;
        seg->first_vertex = first;
        seg->vertex_count = per_count[k];
        seg->joints = joints + joint_at;
        seg->weights = k > 1 ? weights + weight_at : NULL;
        next[k] = first;
        first += per_count[k];
        joint_at += per_count[k] * (size_t)k * jsize;
        weight_at += per_count[k] * (size_t)(k - 1) * wsize;
    }
    out->influence_bytes = joint_at + weight_at;

    /* Pass 2: every vertex to the next place of its group (source order kept within a group). */
    for (size_t v = 0; v < v_count; v++) {
        uint32_t j[SW_MAX_INFLUENCES], c[SW_MAX_INFLUENCES];
        const char* why = "";
        const int k = sw__quantise(desc, v, scale, j, c, &why);
        const sw_skin_compact_segment* seg = NULL;
        for (size_t s = 0; s < out->segment_count; s++)
            if (out->segments[s].influence_count == k) seg = &out->segments[s];
        const size_t i = next[k]++, local = i - seg->first_vertex;
        old_to_new[v] = (uint32_t)i;
        new_to_old[i] = (uint32_t)v;
        unsigned char* jo = (unsigned char*)(uintptr_t)seg->joints + local * (size_t)k * jsize;
        for (int e = 0; e < k; e++) {
            if (jf == SW_JOINT_U8) {
                jo[e] = (uint8_t)j[e];
            } else {
                const uint16_t u = (uint16_t)j[e];
                memcpy(jo + 2 * e, &u, 2);
            }
        }
        if (k > 1) {
            unsigned char* wo = (unsigned char*)(uintptr_t)seg->weights + local * (size_t)(k - 1) * wsize;
            for (int e = 0; e < k - 1; e++) {
                if (wf == SW_WEIGHT_U8_NORM) {
                    wo[e] = (uint8_t)c[e];
                } else {
                    const uint16_t u = (uint16_t)c[e];
                    memcpy(wo + 2 * e, &u, 2);
                }
            }
        }
        if (qpositions) {
            sw__quantize_position(qpositions + 4 * i, desc->positions + 3 * v, offset, step);
            if (qnormals) {
                const float* nv = desc->normals + 3 * v;
                sw_octahedral_encode(qnormals + 2 * i, sw_vec3_make(nv[0], nv[1], nv[2]));
            }
        } else {
            memcpy(positions + 3 * i, desc->positions + 3 * v, 12);
            if (normals) memcpy(normals + 3 * i, desc->normals + 3 * v, 12);
        }
        if (tangents) memcpy(tangents + 4 * i, desc->tangents + 4 * v, 16);
    }
    out->old_to_new = old_to_new;
    out->new_to_old = new_to_old;
    out->positions = qpositions ? NULL : positions;
    out->normals = qpositions ? NULL : normals;
    out->tangents = tangents;
    out->quantized = desc->quantize;
    out->quantized_positions = qpositions;
    out->quantized_normals = qnormals;
    out->dequantize_offset = offset;
    out->dequantize_step = step;
    return SW_OK;
}

size_t sw_skin_compact_jobs(const sw_skin_compact* compact, const sw_skin_job* base,
                            sw_skin_job out_jobs[SW_MAX_INFLUENCES]) {
    SW_ASSERT(compact && base && out_jobs);
    for (size_t s = 0; s < compact->segment_count; s++) {
        const sw_skin_compact_segment* seg = &compact->segments[s];
        const size_t f = seg->first_vertex;
        sw_skin_job* job = &out_jobs[s];
        *job = *base;
        job->vertex_count = seg->vertex_count;
        job->influence_count = seg->influence_count;
        job->joint_count = compact->joint_count;
        job->joints = seg->joints;
        job->joints_stride = 0;
        job->joint_format = compact->joint_format;
        job->weights = seg->weights;
        job->weights_stride = 0;
        job->weight_format = compact->weight_format;
        job->last_weight_implied = true;
        job->in_positions = compact->quantized ? (const float*)(const void*)(compact->quantized_positions + 4 * f)
                                               : compact->positions + 3 * f;
        job->in_positions_stride = 0;
        job->position_format = compact->quantized ? SW_VERTEX_S16 : SW_VERTEX_F32;
        job->normal_format = compact->quantized ? SW_VERTEX_OCT16 : SW_VERTEX_F32;
        job->out_positions = base->out_positions ? base->out_positions + 3 * f : NULL;
        job->out_positions_stride = 0;
        /* Normals and tangents when the caller asks for them (a shadow
           pass over the same layout skins positions only). */
        const int16_t* qn = compact->quantized_normals;
        const size_t on = sw__vertex_format(base->out_normal_format) == SW_VERTEX_INT_2_10_10_10 ? 1 : 3;
        job->in_normals = !base->out_normals ? NULL
                          : qn               ? (const float*)(const void*)(qn + 2 * f)
                          : compact->normals ? compact->normals + 3 * f
                                             : NULL;
        job->out_normals = base->out_normals ? base->out_normals + on * f : NULL;
        job->in_normals_stride = job->out_normals_stride = 0;
        job->in_tangents = base->out_tangents ? compact->tangents ? compact->tangents + 4 * f : NULL : NULL;
        job->out_tangents = base->out_tangents ? base->out_tangents + 4 * f : NULL;
        job->in_tangents_stride = job->out_tangents_stride = 0;
    }
    return compact->segment_count;
}
