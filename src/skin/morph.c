/* Morph targets, scalar reference: out = base + Σ wₖ·Δₖ per vertex, with
   dense or sparse deltas (see sinew/skin.h). Targets with zero weight or no
   deltas cost nothing; sparse ones touch only the vertices they move. */
#include "sinew/skin.h"

#include <math.h>

static int sw__morph_components(const sw_morph_job* job) {
    return job->component_count == 0 ? 3 : job->component_count;
}

sw_result sw_morph_job_validate(const sw_morph_job* job, sw_diag* diag) {
    if (!job) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "morph job is NULL");
    int components = sw__morph_components(job);
    if (components != 3 && components != 4)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "morph component_count %d is not 3 or 4",
                           job->component_count);
    if (!job->base || !job->out)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "morph job needs base and out");
    if (job->target_count && (!job->weights || (!job->deltas && !job->sparse)))
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1,
                           "morph job has %zu targets but no weights or no deltas (dense or sparse)",
                           job->target_count);
    size_t element = (size_t)components * sizeof(float);
    size_t base_stride = job->base_stride ? job->base_stride : element;
    size_t out_stride = job->out_stride ? job->out_stride : element;
    if (base_stride < element || out_stride < element || base_stride % 4 || out_stride % 4)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "morph strides must be ≥ %zu bytes and multiples of 4",
                           element);
    if (job->base == job->out && base_stride != out_stride)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "in-place morph needs equal strides");
    size_t span;
    if (job->vertex_count && (!sw_mul_size(job->vertex_count, base_stride > out_stride ? base_stride : out_stride, &span) ||
                              !sw_mul_size(job->vertex_count, 3 * sizeof(float), &span)))
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "morph: %zu vertices overflow the address space",
                           job->vertex_count);
    for (size_t k = 0; k < job->target_count; ++k) {
        if (!isfinite(job->weights[k]))
            return sw_diag_set(diag, SW_ERR_INVALID_DATA, (int64_t)k, "morph weight %zu is not finite", k);
        if (job->deltas) continue;
        const sw_morph_sparse* t = &job->sparse[k];
        if (t->count && (!t->indices || !t->deltas))
            return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, (int64_t)k, "sparse target %zu has no indices or deltas",
                               k);
        for (size_t i = 0; i < t->count; ++i)
            if (t->indices[i] >= job->vertex_count || (i > 0 && t->indices[i] <= t->indices[i - 1]))
                return sw_diag_set(diag, SW_ERR_INVALID_DATA, (int64_t)k,
                                   "sparse target %zu: entry %zu (vertex %u) is out of range or not increasing", k, i,
                                   t->indices[i]);
    }
    return SW_OK;
}

/* First entry of a sparse target at or after `vertex`. */
static size_t sw__lower_bound(const uint32_t* indices, size_t count, size_t vertex) {
    size_t lo = 0, hi = count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (indices[mid] < vertex) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

void sw_morph_job_run(const sw_morph_job* job, size_t first_vertex, size_t vertex_count) {
    SW_ASSERT(job && first_vertex <= job->vertex_count && vertex_count <= job->vertex_count - first_vertex);
    int components = sw__morph_components(job);
    size_t element = (size_t)components * sizeof(float);
    size_t base_stride = job->base_stride ? job->base_stride : element;
    size_t out_stride = job->out_stride ? job->out_stride : element;
    const uint8_t* base = (const uint8_t*)job->base;
    uint8_t* out = (uint8_t*)job->out;
    size_t end = first_vertex + vertex_count;

    /* Copy the base, then accumulate one target at a time: each delta array
       is read front to back, and skipped targets are never touched. */
    for (size_t v = first_vertex; v < end; ++v) {
        const float* b = (const float*)(base + v * base_stride);
        float* o = (float*)(out + v * out_stride);
        for (int c = 0; c < components; ++c) o[c] = b[c];
    }
    for (size_t k = 0; k < job->target_count; ++k) {
        float w = job->weights[k];
        if (w == 0.0f) continue;
        if (job->deltas) {
            const float* d = job->deltas[k];
            if (!d) continue;
            for (size_t v = first_vertex; v < end; ++v) {
                float* o = (float*)(out + v * out_stride);
                o[0] += w * d[3 * v + 0];
                o[1] += w * d[3 * v + 1];
                o[2] += w * d[3 * v + 2];
            }
        } else {
            const sw_morph_sparse* t = &job->sparse[k];
            for (size_t i = sw__lower_bound(t->indices, t->count, first_vertex); i < t->count && t->indices[i] < end;
                 ++i) {
                float* o = (float*)(out + (size_t)t->indices[i] * out_stride);
                o[0] += w * t->deltas[3 * i + 0];
                o[1] += w * t->deltas[3 * i + 1];
                o[2] += w * t->deltas[3 * i + 2];
            }
        }
    }
}

size_t sw_morph_sparse_count(const float* dense, size_t vertex_count) {
    size_t n = 0;
    for (size_t v = 0; v < vertex_count; ++v)
        n += dense[3 * v] != 0.0f || dense[3 * v + 1] != 0.0f || dense[3 * v + 2] != 0.0f;
    return n;
}

size_t sw_morph_sparse_build(uint32_t* out_indices, float* out_deltas, const float* dense, size_t vertex_count) {
    size_t n = 0;
    for (size_t v = 0; v < vertex_count; ++v) {
        if (dense[3 * v] == 0.0f && dense[3 * v + 1] == 0.0f && dense[3 * v + 2] == 0.0f) continue;
        out_indices[n] = (uint32_t)v;
        for (int c = 0; c < 3; ++c) out_deltas[3 * n + (size_t)c] = dense[3 * v + (size_t)c];
        n++;
    }
    return n;
}
