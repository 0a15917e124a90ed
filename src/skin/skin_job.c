/* CPU skinning, scalar reference: LBS and DQS of positions, normals and
   tangents, 1–8 influences, u8/u16 joints, f32/unorm8/unorm16 weights
   (see sinew/skin.h). Written to be read and lifted: one function per
   vertex, no cleverness; the SIMD kernels (skin_sse2.c, skin_avx2.c) are
   checked against this one. Also here: the kernel choice and dispatch. */
#include "skin_internal.h"

#include <string.h>

/* ---- kernels ----------------------------------------------------------------- */

sw_skin_kernel sw_skin_kernel_best(void) {
#if SW__SKIN_X86
    /* libgcc and compiler-rt set these bits once at start-up from cpuid, and
       set AVX2 and FMA only when XGETBV shows the OS saves the YMM state;
       the init call is for callers that run before constructors. */
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return SW_SKIN_KERNEL_AVX2;
    return SW_SKIN_KERNEL_SSE2;
#elif SW__SKIN_SSE2
    return SW_SKIN_KERNEL_SSE2; /* WebAssembly SIMD128 */
#else
    return SW_SKIN_KERNEL_SCALAR;
#endif
}

const char* sw_skin_kernel_name(sw_skin_kernel kernel) {
    switch (kernel) {
    case SW_SKIN_KERNEL_DEFAULT: return "default";
    case SW_SKIN_KERNEL_SCALAR: return "scalar";
    case SW_SKIN_KERNEL_SSE2: return "sse2";
    case SW_SKIN_KERNEL_AVX2: return "avx2";
    case SW_SKIN_KERNEL_SSE2_COLUMNS: return "sse2-columns";
    case SW_SKIN_KERNEL_AVX2_COLUMNS: return "avx2-columns";
    case SW_SKIN_KERNEL_AVX2_ROWS: return "avx2-rows";
    }
    return "unknown";
}

/* SCALAR runs everywhere; SSE2 on every x86-64 CPU; AVX2 where detected. */
static bool sw__kernel_available(sw_skin_kernel kernel) {
    switch (kernel) {
    case SW_SKIN_KERNEL_DEFAULT:
    case SW_SKIN_KERNEL_SCALAR: return true;
    case SW_SKIN_KERNEL_SSE2: return SW__SKIN_SSE2;
    case SW_SKIN_KERNEL_SSE2_COLUMNS: return SW__SKIN_X86;
    case SW_SKIN_KERNEL_AVX2:
    case SW_SKIN_KERNEL_AVX2_ROWS:
    case SW_SKIN_KERNEL_AVX2_COLUMNS: return sw_skin_kernel_best() == SW_SKIN_KERNEL_AVX2;
    }
    return false;
}

/* ---- validation ------------------------------------------------------------ */

typedef struct sw__stream {
    const char* name;
    const void* data;
    size_t stride, element_size;
} sw__stream;

/* Do two strided streams of `count` elements share a byte? Equal strides are
   checked element by element (interleaved outputs are fine); other strides
   conservatively by their whole extent. */
static bool sw__streams_overlap(const sw__stream* a, const sw__stream* b, size_t count) {
    uintptr_t pa = (uintptr_t)a->data, pb = (uintptr_t)b->data;
    uintptr_t end_a = pa + (count - 1) * a->stride + a->element_size;
    uintptr_t end_b = pb + (count - 1) * b->stride + b->element_size;
    if (end_a <= pb || end_b <= pa) return false;
    if (a->stride != b->stride) return true;
    size_t s = a->stride;
    size_t d = (size_t)((pb > pa ? pb - pa : pa - pb) % s); /* distance between element starts, modulo the stride */
    size_t first = pb >= pa ? a->element_size : b->element_size;  /* size of the stream that starts first */
    size_t second = pb >= pa ? b->element_size : a->element_size;
    return d < first || s - d < second;
}

static sw_result sw__check_stream(const sw__stream* s, size_t alignment, size_t count, sw_diag* diag) {
    size_t span;
    if (!sw_mul_size(count - 1, s->stride, &span) || span > SIZE_MAX - s->element_size ||
        (uintptr_t)s->data > UINTPTR_MAX - (span + s->element_size))
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "%s: %zu vertices of stride %zu overflow the address space",
                           s->name, count, s->stride);
    if (s->stride < s->element_size)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "%s stride %zu is smaller than its element (%zu bytes)",
                           s->name, s->stride, s->element_size);
    if ((uintptr_t)s->data % alignment != 0 || s->stride % alignment != 0)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "%s pointer or stride is not %zu-byte aligned", s->name,
                           alignment);
    return SW_OK;
}

sw_result sw_skin_job_validate(const sw_skin_job* job, sw_diag* diag) {
    if (!job) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "no job");
    if (job->method > SW_SKIN_DQS || job->normal_mode > SW_NORMALS_COFACTOR || job->joint_format > SW_JOINT_U16 ||
        job->weight_format > SW_WEIGHT_U16_NORM || (unsigned)job->kernel > SW_SKIN_KERNEL_AVX2_ROWS)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "unknown method, normal mode, format or kernel");
    {
        const sw_vertex_format pf = sw__vertex_format(job->position_format);
        const sw_vertex_format nf = sw__vertex_format(job->normal_format);
        const sw_vertex_format of = sw__vertex_format(job->out_normal_format);
        if ((pf != SW_VERTEX_F32 && pf != SW_VERTEX_S16) || (nf != SW_VERTEX_F32 && nf != SW_VERTEX_OCT16) ||
            (of != SW_VERTEX_F32 && of != SW_VERTEX_INT_2_10_10_10))
            return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1,
                               "unknown position, normal or output normal format");
        if (sw__job_quantized(job) && (job->method == SW_SKIN_DQS || job->normal_mode == SW_NORMALS_COFACTOR ||
                                       job->in_tangents || job->out_tangents))
            return sw_diag_set(diag, SW_ERR_UNSUPPORTED, -1,
                               "quantised streams need LBS, blended normals and no tangents");
        if (nf == SW_VERTEX_OCT16 && job->unnormalized)
            return sw_diag_set(diag, SW_ERR_UNSUPPORTED, -1, "octahedral normals are always normalised");
    }
    if (!sw__kernel_available(job->kernel))
        return sw_diag_set(diag, SW_ERR_UNSUPPORTED, -1, "the %s skinning kernel does not run %s (best here: %s)",
                           sw_skin_kernel_name(job->kernel), SW__SKIN_X86 ? "on this CPU" : "in this build",
                           sw_skin_kernel_name(sw_skin_kernel_best()));
    if (job->influence_count < 1 || job->influence_count > SW_MAX_INFLUENCES)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "influence_count %d (allowed 1..%d)",
                           job->influence_count, SW_MAX_INFLUENCES);
    if (job->joint_count == 0 || job->joint_count > 65536)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "palette has %zu joints (allowed 1..65536)",
                           job->joint_count);
    bool dqs = job->method == SW_SKIN_DQS;
    if (!dqs && !job->matrices) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "LBS job without matrices");
    if (dqs && !job->dual_quats) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "DQS job without dual_quats");
    if (!job->joints || (!job->weights && sw__stored_weights(job) > 0))
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "job without joints or weights");
    if (!job->in_positions || !job->out_positions)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "positions need both in_positions and out_positions");
    if (!job->in_normals != !job->out_normals)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "normals need both in_normals and out_normals");
    if (!job->in_tangents != !job->out_tangents)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "tangents need both in_tangents and out_tangents");
    if (job->vertex_count == 0) return SW_OK;

    sw__strides st = sw__resolve_strides(job);
    size_t n = (size_t)job->influence_count;
    size_t joint_size = sw__joint_size(sw__joint_format(job)), weight_size = sw__weight_size(sw__weight_format(job));
    size_t matrices_size = job->joint_count * sizeof(sw_mat34);
    size_t dq_size = job->joint_count * sizeof(sw_dualquat);
    sw__stream inputs[] = {
        {"joints", job->joints, st.joints, n * joint_size},
        {"weights", job->weights, st.weights, (size_t)sw__stored_weights(job) * weight_size},
        {"in_positions", job->in_positions, st.in_pos, sw__in_pos_size(job)},
        {"in_normals", job->in_normals, st.in_nrm, sw__in_nrm_size(job)},
        {"in_tangents", job->in_tangents, st.in_tan, 16},
    };
    sw__stream outputs[] = {
        {"out_positions", job->out_positions, st.out_pos, 12},
        {"out_normals", job->out_normals, st.out_nrm, sw__out_nrm_size(job)},
        {"out_tangents", job->out_tangents, st.out_tan, 16},
    };
    /* The palette as one-element streams, so outputs cannot overwrite it. */
    sw__stream palette[] = {
        {"matrices", job->matrices, matrices_size, matrices_size},
        {"dual_quats", job->dual_quats, dq_size, dq_size},
        {"stretch", job->stretch, matrices_size, matrices_size},
    };
    for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
        if (!inputs[i].data || inputs[i].element_size == 0) continue; /* no stored weights: nothing read */
        size_t alignment = i == 0 ? joint_size : i == 1 ? weight_size : 4;
        if ((i == 2 && sw__in_pos_size(job) == 8) || (i == 3 && sw__in_nrm_size(job) == 4)) alignment = 2;
        sw_result r = sw__check_stream(&inputs[i], alignment, job->vertex_count, diag);
        if (r != SW_OK) return r;
    }
    for (size_t o = 0; o < 3; o++) {
        const sw__stream* out = &outputs[o];
        if (!out->data) continue;
        sw_result r = sw__check_stream(out, 4, job->vertex_count, diag);
        if (r != SW_OK) return r;
        for (size_t p = o + 1; p < 3; p++)
            if (outputs[p].data && sw__streams_overlap(out, &outputs[p], job->vertex_count))
                return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "%s overlaps %s", out->name, outputs[p].name);
        for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
            if (!inputs[i].data || inputs[i].element_size == 0) continue;
            /* In place is allowed: an output exactly over its own input. */
            bool own = i == o + 2 && inputs[i].data == out->data && inputs[i].stride == out->stride;
            if (!own && sw__streams_overlap(out, &inputs[i], job->vertex_count))
                return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "%s overlaps %s", out->name, inputs[i].name);
        }
        for (size_t k = 0; k < 3; k++) {
            if (!palette[k].data) continue;
            /* The palette is one block: compare it with the output's whole extent. */
            uintptr_t po = (uintptr_t)out->data, pk = (uintptr_t)palette[k].data;
            uintptr_t end_o = po + (job->vertex_count - 1) * out->stride + out->element_size;
            if (po < pk + palette[k].element_size && pk < end_o)
                return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "%s overlaps %s", out->name, palette[k].name);
        }
    }
    return SW_OK;
}

/* ---- per-vertex work ---------------------------------------------------------- */

static const void* sw__at(const void* base, size_t stride, size_t index) {
    return (const unsigned char*)base + stride * index;
}

static float* sw__at_mut(float* base, size_t stride, size_t index) {
    return (float*)(void*)((unsigned char*)base + stride * index);
}

/* Decodes one vertex's influences: raw joint indices and weights as floats
   (an implied last weight is 1 minus the others, summed in order). */
static void sw__read_influences(const sw_skin_job* job, const sw__strides* st, size_t v, uint32_t* joints,
                                float* weights) {
    const void* j = sw__at(job->joints, st->joints, v);
    const void* w = job->weights ? sw__at(job->weights, st->weights, v) : NULL;
    const sw_joint_format joint_format = sw__joint_format(job);
    const sw_weight_format weight_format = sw__weight_format(job);
    const int stored = sw__stored_weights(job);
    float sum = 0.0f;
    for (int k = 0; k < job->influence_count; k++) {
        joints[k] = joint_format == SW_JOINT_U8 ? ((const uint8_t*)j)[k] : ((const uint16_t*)j)[k];
        if (k == stored) {
            weights[k] = k == 0 ? 1.0f : 1.0f - sum;
            break;
        }
        switch (weight_format) {
        case SW_WEIGHT_U8_NORM: weights[k] = sw_unorm8_to_float(((const uint8_t*)w)[k]); break;
        case SW_WEIGHT_U16_NORM: weights[k] = sw_unorm16_to_float(((const uint16_t*)w)[k]); break;
        default: weights[k] = ((const float*)w)[k]; break;
        }
        sum = k == 0 ? weights[0] : sum + weights[k];
    }
}

/* Σ wₖ·palette[jₖ]: the weights sum to 1, so nothing is divided. */
static sw_mat34 sw__blend_matrices(const sw_mat34* palette, const uint32_t* joints, const float* weights, int n) {
    sw_mat34 out = {{{0.0f}}};
    for (int k = 0; k < n; k++) {
        const sw_mat34* m = &palette[joints[k]];
        float w = weights[k];
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 4; c++) out.m[r][c] += w * m->m[r][c];
    }
    return out;
}

static sw_vec3 sw__load3(const float* p) { return (sw_vec3){p[0], p[1], p[2]}; }
static void sw__store3(float* p, sw_vec3 v) { p[0] = v.x; p[1] = v.y; p[2] = v.z; }

static void sw__skin_run_scalar(const sw_skin_job* job, size_t first_vertex, size_t vertex_count) {
    const sw__strides st = sw__resolve_strides(job);
    const int n = job->influence_count;
    const bool dqs = job->method == SW_SKIN_DQS;
    const bool cofactor = job->normal_mode == SW_NORMALS_COFACTOR;
    /* LBS: one blended affine matrix A moves everything. DQS: a bind-space
       stretch K, then the blended rigid dual quaternion; a rigid palette
       (stretch = NULL) has no linear step at all. */
    const sw_mat34* linear_palette = dqs ? job->stretch : job->matrices;
    const bool qpos = sw__vertex_format(job->position_format) == SW_VERTEX_S16;
    const bool qnrm = sw__vertex_format(job->normal_format) == SW_VERTEX_OCT16;
    const bool pack_nrm = sw__vertex_format(job->out_normal_format) == SW_VERTEX_INT_2_10_10_10;

    for (size_t v = first_vertex; v < first_vertex + vertex_count; v++) {
        uint32_t joints[SW_MAX_INFLUENCES];
        float weights[SW_MAX_INFLUENCES];
        sw__read_influences(job, &st, v, joints, weights);
        /* Out-of-range indices (which importers reject) become joint 0, so
           bad data cannot read outside the palette. */
        for (int k = 0; k < n; k++)
            if (joints[k] >= job->joint_count) joints[k] = 0;

        /* Read every input before writing: outputs may be the inputs (in place). */
        sw_vec3 position, normal = {0}, tangent = {0};
        if (qpos) {
            int16_t q[3];
            memcpy(q, sw__at(job->in_positions, st.in_pos, v), 6);
            position = sw_vec3_make((float)q[0], (float)q[1], (float)q[2]);
        } else {
            position = sw__load3(sw__at(job->in_positions, st.in_pos, v));
        }
        float tangent_w = 0.0f;
        if (job->in_normals && qnrm) {
            int16_t q[2];
            memcpy(q, sw__at(job->in_normals, st.in_nrm, v), 4);
            normal = sw_octahedral_decode(q);
        } else if (job->in_normals) {
            normal = sw__load3(sw__at(job->in_normals, st.in_nrm, v));
        }
        if (job->in_tangents) {
            const float* t = sw__at(job->in_tangents, st.in_tan, v);
            tangent = sw__load3(t);
            tangent_w = t[3];
        }

        sw_mat34 blended;
        if (linear_palette) blended = sw__blend_matrices(linear_palette, joints, weights, n);
        sw_dualquat rigid = sw_dualquat_identity();
        if (dqs) {
            sw_dualquat gathered[SW_MAX_INFLUENCES];
            for (int k = 0; k < n; k++) gathered[k] = job->dual_quats[joints[k]];
            rigid = sw_dualquat_blend(gathered, weights, n);
        }

        sw_vec3 out_position = linear_palette ? sw_mat34_apply_point(&blended, position) : position;
        if (dqs) out_position = sw_dualquat_apply_point(rigid, out_position);
        sw__store3(sw__at_mut(job->out_positions, st.out_pos, v), out_position);

        if (job->in_normals) {
            /* No inverse transpose by default (as UE, Unity and Godot skin): exact for rotation
               and uniform scale; the cofactor is exact for any linear map. */
            sw_vec3 out_normal = normal;
            if (linear_palette) {
                sw_mat34 normal_matrix = cofactor ? sw_mat34_cofactor(&blended) : blended;
                out_normal = sw_mat34_apply_dir(&normal_matrix, normal);
                /* cof(A) = det(A)·A⁻ᵀ: a mirroring A (det < 0) would turn normals inward. */
                if (cofactor && sw_mat34_determinant(&blended) < 0.0f) out_normal = sw_vec3_scale(out_normal, -1.0f);
            }
            if (dqs) out_normal = sw_dualquat_apply_dir(rigid, out_normal);
            if (!job->unnormalized) out_normal = sw_vec3_normalize(out_normal);
            if (pack_nrm) {
                const uint32_t word = sw_pack_int_2_10_10_10(out_normal);
                memcpy(sw__at_mut(job->out_normals, st.out_nrm, v), &word, 4);
            } else {
                sw__store3(sw__at_mut(job->out_normals, st.out_nrm, v), out_normal);
            }
        }
        if (job->in_tangents) {
            sw_vec3 out_tangent = linear_palette ? sw_mat34_apply_dir(&blended, tangent) : tangent;
            if (dqs) out_tangent = sw_dualquat_apply_dir(rigid, out_tangent);
            float* t = sw__at_mut(job->out_tangents, st.out_tan, v);
            sw__store3(t, job->unnormalized ? out_tangent : sw_vec3_normalize(out_tangent));
            t[3] = tangent_w;
        }
    }
}

void sw_skin_job_run(const sw_skin_job* job, size_t first_vertex, size_t vertex_count) {
    SW_ASSERT(job && first_vertex <= job->vertex_count && vertex_count <= job->vertex_count - first_vertex);
    SW_ASSERT(sw__kernel_available(job->kernel));
    if (vertex_count == 0) return;
    sw_skin_kernel kernel = job->kernel == SW_SKIN_KERNEL_DEFAULT ? sw_skin_kernel_best() : job->kernel;
#if SW__SKIN_X86
    /* DEFAULT on a compact layout's job (grouped by influence count, the
       last weight implied): the columns shape, measured faster there. */
    if (job->kernel == SW_SKIN_KERNEL_DEFAULT && job->last_weight_implied) {
        if (kernel == SW_SKIN_KERNEL_SSE2) kernel = SW_SKIN_KERNEL_SSE2_COLUMNS;
        if (kernel == SW_SKIN_KERNEL_AVX2) kernel = SW_SKIN_KERNEL_AVX2_COLUMNS;
    }
    /* Quantised streams run on the columns shape of the same instruction set. */
    if (sw__job_quantized(job) && kernel == SW_SKIN_KERNEL_SSE2) kernel = SW_SKIN_KERNEL_SSE2_COLUMNS;
    if (sw__job_quantized(job) && (kernel == SW_SKIN_KERNEL_AVX2 || kernel == SW_SKIN_KERNEL_AVX2_ROWS))
        kernel = SW_SKIN_KERNEL_AVX2_COLUMNS;
#else
    /* The columns shape is x86's: quantised streams take the scalar reference. */
    if (sw__job_quantized(job)) kernel = SW_SKIN_KERNEL_SCALAR;
#endif
    switch (kernel) {
#if SW__SKIN_X86
    case SW_SKIN_KERNEL_AVX2: sw__skin_run_avx2(job, first_vertex, vertex_count); return;
    case SW_SKIN_KERNEL_AVX2_ROWS: sw__skin_run_avx2_rows(job, first_vertex, vertex_count); return;
    case SW_SKIN_KERNEL_AVX2_COLUMNS: sw__skin_run_avx2_columns(job, first_vertex, vertex_count); return;
    case SW_SKIN_KERNEL_SSE2_COLUMNS: sw__skin_run_sse2_columns(job, first_vertex, vertex_count); return;
#endif
#if SW__SKIN_SSE2
    case SW_SKIN_KERNEL_SSE2: sw__skin_run_sse2(job, first_vertex, vertex_count); return;
#endif
    default: sw__skin_run_scalar(job, first_vertex, vertex_count); return;
    }
}

sw_result sw_skin_check_influences(const sw_skin_job* job, float sum_tolerance, sw_diag* diag) {
    if (!job || !job->joints || (!job->weights && sw__stored_weights(job) > 0) || job->influence_count < 1 ||
        job->influence_count > SW_MAX_INFLUENCES || job->joint_format > SW_JOINT_U16 ||
        job->weight_format > SW_WEIGHT_U16_NORM)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "influence check needs joints, weights and formats");
    const sw__strides st = sw__resolve_strides(job);
    const int n = job->influence_count;
    for (size_t v = 0; v < job->vertex_count; v++) {
        uint32_t joints[SW_MAX_INFLUENCES];
        float weights[SW_MAX_INFLUENCES];
        sw__read_influences(job, &st, v, joints, weights);
        float sum = 0.0f;
        for (int k = 0; k < n; k++) {
            if (joints[k] >= job->joint_count)
                return sw_diag_set(diag, SW_ERR_INDEX_OUT_OF_RANGE, (int64_t)v,
                                   "vertex %zu influence %d uses joint %u of %zu", v, k, (unsigned)joints[k],
                                   job->joint_count);
            if (!isfinite(weights[k]) || weights[k] < 0.0f)
                return sw_diag_set(diag, SW_ERR_INVALID_DATA, (int64_t)v, "vertex %zu influence %d has weight %g", v,
                                   k, (double)weights[k]);
            sum += weights[k];
        }
        if (!(fabsf(sum - 1.0f) <= sum_tolerance))
            return sw_diag_set(diag, SW_ERR_INVALID_DATA, (int64_t)v, "vertex %zu weights sum to %g, not 1", v,
                               (double)sum);
    }
    return SW_OK;
}
