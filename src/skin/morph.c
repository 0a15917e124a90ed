/* Morph targets, scalar reference: out = base + Σ wₖ·Δₖ per vertex
   (see sinew/skin.h). Targets with zero weight or no deltas cost nothing. */
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
    if (job->target_count && (!job->weights || !job->deltas))
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "morph job has %zu targets but no weights or deltas",
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
    for (size_t k = 0; k < job->target_count; ++k)
        if (!isfinite(job->weights[k]))
            return sw_diag_set(diag, SW_ERR_INVALID_DATA, (int64_t)k, "morph weight %zu is not finite", k);
    return SW_OK;
}

void sw_morph_job_run(const sw_morph_job* job, size_t first_vertex, size_t vertex_count) {
    SW_ASSERT(job && first_vertex <= job->vertex_count && vertex_count <= job->vertex_count - first_vertex);
    int components = sw__morph_components(job);
    size_t element = (size_t)components * sizeof(float);
    size_t base_stride = job->base_stride ? job->base_stride : element;
    size_t out_stride = job->out_stride ? job->out_stride : element;
    const uint8_t* base = (const uint8_t*)job->base;
    uint8_t* out = (uint8_t*)job->out;

    /* Copy the base, then accumulate one target at a time: each delta array
       is then read front to back, and skipped targets are never touched. */
    for (size_t v = first_vertex; v < first_vertex + vertex_count; ++v) {
        const float* b = (const float*)(base + v * base_stride);
        float* o = (float*)(out + v * out_stride);
        for (int c = 0; c < components; ++c) o[c] = b[c];
    }
    for (size_t k = 0; k < job->target_count; ++k) {
        float w = job->weights[k];
        const float* d = job->deltas[k];
        if (w == 0.0f || !d) continue;
        for (size_t v = first_vertex; v < first_vertex + vertex_count; ++v) {
            float* o = (float*)(out + v * out_stride);
            o[0] += w * d[3 * v + 0];
            o[1] += w * d[3 * v + 1];
            o[2] += w * d[3 * v + 2];
        }
    }
}
