/* sinew/skin.h — skin matrices, dual-quaternion palettes, CPU skinning jobs
   (linear blend and dual quaternion), and the LBS volume-loss analysis.

   The formula (RTR4 §4.4, eq. 4.59):  u = Σᵢ wᵢ · Bᵢ · Mᵢ⁻¹ · p
   - Bᵢ: joint i's current model (world) transform, from the local→model pass;
   - Mᵢ⁻¹: its inverse bind matrix, stored inverted at import so the runtime
     never inverts (as Godot does);
   - Sᵢ = Bᵢ·Mᵢ⁻¹: the skin matrix, 3 rows of 4 floats (sw_mat34), the
     palette uploaded to GPUs and read by the CPU kernels.

   Contracts the kernels rely on (and never re-check per vertex):
   - weights are ≥ 0 and sum to 1 — they are normalised once at import; the
     kernels decode u8/u16 weights (c/255, c/65535) and never divide by the sum;
   - unused influence slots have weight 0 and a valid joint index;
   - joint indices are < the palette's joint_count (sw_skin_check_influences
     verifies a whole stream, for importers and `sinew check`).

   Jobs are stateless structs over caller-owned spans: validate once, then
   run on any vertex range, from any number of threads on disjoint ranges.
   Nothing here allocates except sw_twist_tube_measure (through the caller's
   allocator). */
#ifndef SINEW_SKIN_H
#define SINEW_SKIN_H

#include "sinew/base.h"
#include "sinew/math.h"

SW_EXTERN_C_BEGIN

#define SW_MAX_INFLUENCES 8

/* A skin binds a mesh to joints of a skeleton. */
typedef struct sw_skin {
    size_t joint_count;             /* palette size */
    const uint16_t* joints;         /* skeleton joint of each skin joint; NULL = skin joint i is skeleton joint i */
    const sw_mat34* inverse_bind;   /* Mᵢ⁻¹ per skin joint; NULL = identity for all */
} sw_skin;

/* Every joint reference < skeleton_joint_count; inverse binds finite and invertible. */
sw_result sw_skin_validate(const sw_skin* skin, size_t skeleton_joint_count, sw_diag* diag);

/* out_matrices[i] = model[skin->joints[i]] · skin->inverse_bind[i], for
   i < skin->joint_count. `model` holds the skeleton's model transforms. */
void sw_skin_matrices(sw_mat34* SW_RESTRICT out_matrices, const sw_skin* skin, const sw_mat34* model);

/* The same palette as dual quaternions, for DQS. Each skin matrix is split by
   polar decomposition S = [R|t]·K: out_dual_quats[i] holds the rigid [R|t];
   out_stretch[i] (may be NULL) holds K, the scale/shear in bind space, with
   zero translation. Returns the number of joints whose K differs from the
   identity by more than 1e-5 (0 means the palette is rigid and the DQS job
   may be given stretch = NULL). */
size_t sw_skin_dual_quats(sw_dualquat* SW_RESTRICT out_dual_quats, sw_mat34* SW_RESTRICT out_stretch,
                          const sw_mat34* skin_matrices, size_t joint_count);

typedef enum sw_skin_method {
    SW_SKIN_METHOD_DEFAULT = 0, /* LBS */
    SW_SKIN_LBS,
    SW_SKIN_DQS,
} sw_skin_method;

typedef enum sw_joint_format {
    SW_JOINT_FORMAT_DEFAULT = 0, /* U16 */
    SW_JOINT_U8,
    SW_JOINT_U16,
} sw_joint_format;

typedef enum sw_weight_format {
    SW_WEIGHT_FORMAT_DEFAULT = 0, /* F32 */
    SW_WEIGHT_F32,
    SW_WEIGHT_U8_NORM,  /* c / 255 */
    SW_WEIGHT_U16_NORM, /* c / 65535 */
} sw_weight_format;

typedef enum sw_normal_mode {
    SW_NORMAL_MODE_DEFAULT = 0, /* BLENDED */
    /* n' = normalize(A·n), A the blended 3×3: what UE, Unity and Godot do;
       exact for rotations and uniform scale. */
    SW_NORMALS_BLENDED,
    /* n' = normalize(cof(A)·n), cof(A) = det(A)·A⁻ᵀ, negated when det(A) < 0
       so mirrored joints keep outward normals: exact under non-uniform
       scale, shear and mirroring (about 30 more flops per vertex). */
    SW_NORMALS_COFACTOR,
} sw_normal_mode;

/* The CPU kernels that run a skinning job. They compute the same thing:
   a SIMD kernel's positions are within 1e-6 of the scalar reference's,
   relative to the size of the position and the joint translations, and its
   normals and tangents within 1e-6 (absolute, after normalisation). Each
   kernel gives the same bits for a vertex whatever range it is run in, so
   splitting a job across threads never changes its output.

   The SIMD kernels are fastest with blended normals, 1, 2, 3, 4 or 8
   influences and (DQS) no stretch, on packed streams of positions,
   positions + normals or positions + normals + tangents (any weight
   format: integer and implied weights are decoded a block at a time);
   interleaved streams go through packed copies (about a third slower);
   other jobs (tangents without normals, cofactor normals, 5–7
   influences, DQS with stretch) run a generic SIMD loop, several times
   slower. */
typedef enum sw_skin_kernel {
    SW_SKIN_KERNEL_DEFAULT = 0, /* the best this CPU and build can run (sw_skin_kernel_best) */
    SW_SKIN_KERNEL_SCALAR,      /* plain C, the reference; runs everywhere */
    SW_SKIN_KERNEL_SSE2,        /* x86-64 */
    SW_SKIN_KERNEL_AVX2,        /* x86-64 with AVX2 and FMA, enabled by the OS */
    /* The same instruction sets in a second shape ("columns", ozz-animation's):
       one vertex at a time, the blended matrix built as weighted sums of
       4-wide columns of a column-major copy of the palette, the position as
       Σ column·coordinate, no horizontal adds; normals and tangents are
       normalised four at a time. Within the same tolerance of the scalar
       kernel as the others (different bits from SSE2 / AVX2). DQS,
       cofactor normals and tangents without normals run the SSE2 / AVX2
       kernel of the same instruction set. Quantised streams
       (sw_vertex_format) run only on these and on SCALAR: SSE2 and AVX2
       jobs with quantised streams run here. */
    SW_SKIN_KERNEL_SSE2_COLUMNS,
    SW_SKIN_KERNEL_AVX2_COLUMNS,
    /* AVX2 runs blocks of eight vertices that share their joints in a third
       shape ("broadcast": structure of arrays, each palette entry broadcast
       to the eight lanes, no horizontal adds) and the others in the row
       shape, with the same bits. AVX2_ROWS is the row shape alone, for
       comparison. */
    SW_SKIN_KERNEL_AVX2_ROWS,
} sw_skin_kernel;

/* Vertex stream formats (sw_skin_job.position_format, normal_format,
   out_normal_format). */
typedef enum sw_vertex_format {
    SW_VERTEX_FORMAT_DEFAULT = 0, /* F32 */
    SW_VERTEX_F32,
    /* Positions: 4 signed 16-bit integers per vertex (x, y, z, 1), taken
       as floats by the skin matrices: fold the dequantisation into them
       (sw_skin_matrices_dequantize), as KHR_mesh_quantization allows. */
    SW_VERTEX_S16,
    /* Normals: octahedral, 2 signed 16-bit integers per vertex (u, v)·32767
       (sw_octahedral_encode). The decoded direction is normalised after
       the transform, so outputs are always normalised. */
    SW_VERTEX_OCT16,
    /* Output normals: GL's INT_2_10_10_10_REV, one 32-bit word per vertex:
       x, y, z as 10-bit signed normalised integers (round(511·c)) in bits
       0–9, 10–19, 20–29, w = 0 in bits 30–31. */
    SW_VERTEX_INT_2_10_10_10,
} sw_vertex_format;

/* What DEFAULT runs on this CPU: AVX2 where the CPU and the OS support
   AVX2 and FMA, else SSE2 on x86-64, else SCALAR; always SCALAR in builds
   with SW_NO_SIMD and on other architectures. Cheap: it reads the CPU
   feature bits the compiler runtime detected at start-up. */
sw_skin_kernel sw_skin_kernel_best(void);

/* "default", "scalar", "sse2", "avx2", "sse2-columns", "avx2-columns" or
   "avx2-rows"; "unknown" outside the enum. */
const char* sw_skin_kernel_name(sw_skin_kernel kernel);

/* One skinning job over a vertex stream.

   Defaults (zero fields): method LBS, joint_format U16, weight_format F32,
   normal_mode BLENDED, kernel DEFAULT, strides tightly packed (positions
   and normals 12 bytes, tangents 16, joints influence_count × 1 or 2,
   weights influence_count × 1, 2 or 4).

   Streams: positions are required; normals and tangents are optional, but
   each input needs its output and vice versa. Tangents are xyzw, w (the
   bitangent sign) copied unchanged. Outputs may alias their own input
   exactly (in place, same stride); otherwise they must not overlap anything.

   LBS reads `matrices`. DQS reads `dual_quats` and, when the palette carries
   scale, `stretch` (see sw_skin_dual_quats): the vertex is first deformed by
   the linear blend of the stretches Σwᵢ·Kᵢ (a bind-space 3×3, exact for
   scale and shear that do not vary between the joints), then moved by the
   normalised blend of the rigid dual quaternions, signs aligned to the
   vertex's first influence. With stretch = NULL scale is dropped, and DQS
   equals LBS for a single influence. */
typedef struct sw_skin_job {
    sw_skin_method method;
    sw_normal_mode normal_mode;
    /* DEFAULT = sw_skin_kernel_best(), in the columns shape for jobs with
       last_weight_implied (the compact layouts: grouped by influence
       count, where it was measured 1.03–1.37× faster); a kernel this CPU or
       build cannot run fails validation with SW_ERR_UNSUPPORTED. */
    sw_skin_kernel kernel;
    size_t vertex_count;
    int influence_count; /* 1..SW_MAX_INFLUENCES */

    /* palette: joint_count entries each */
    size_t joint_count;
    const sw_mat34* matrices;       /* LBS */
    const sw_dualquat* dual_quats;  /* DQS */
    const sw_mat34* stretch;        /* DQS; NULL = rigid palette */

    /* influences: influence_count per vertex */
    const void* joints;
    size_t joints_stride;
    sw_joint_format joint_format;
    const void* weights;
    size_t weights_stride;
    sw_weight_format weight_format;

    /* vertex streams (floats) */
    const float* in_positions;  size_t in_positions_stride;
    float* out_positions;       size_t out_positions_stride;
    const float* in_normals;    size_t in_normals_stride;
    float* out_normals;         size_t out_normals_stride;
    const float* in_tangents;   size_t in_tangents_stride;
    float* out_tangents;        size_t out_tangents_stride;

    /* Options added later; zero keeps the behaviour described above. */
    /* weights holds influence_count − 1 weights per vertex (stride default
       (influence_count − 1) × size; influence_count 1 reads none, and
       `weights` may then be NULL); the last weight is
       1 − (((w₀ + w₁) + …) + w_{n−2}), summed in float in that order, so a
       layout with these weights written out in full gives the same bits.
       The compact layout (sw_skin_compact_build) uses it. */
    bool last_weight_implied;
    /* Normals and tangents as the transform leaves them, not normalised:
       shaders normalise after interpolation anyway, and this saves a square
       root and a division per block. Exact directions, length |A·n|
       (cofactor normals keep their sign fix). Positions do not change. */
    bool unnormalized;
    /* Quantised streams (the quantised compact layout uses them); DEFAULT
       is F32. position_format S16: in_positions points to 4 int16 per
       vertex (stride default 8). normal_format OCT16: in_normals points to
       2 int16 per vertex (stride default 4). out_normal_format
       INT_2_10_10_10: out_normals points to one uint32 per vertex (stride
       default 4). Any of them needs LBS, blended normals and no tangents;
       OCT16 needs normalised outputs. */
    sw_vertex_format position_format;
    sw_vertex_format normal_format;
    sw_vertex_format out_normal_format;
} sw_skin_job;

/* Checks every field once: counts, formats, pointers, strides (at least the
   element size, multiples of 4 bytes for floats), alignment, aliasing
   between outputs, and that the kernel runs here (SW_ERR_UNSUPPORTED).
   O(1): joint indices are not scanned. */
sw_result sw_skin_job_validate(const sw_skin_job* job, sw_diag* diag);

/* Skins vertices first_vertex .. first_vertex+vertex_count-1 of a validated job. */
void sw_skin_job_run(const sw_skin_job* job, size_t first_vertex, size_t vertex_count);

/* Scans a whole influence stream (fields as in sw_skin_job: joints, weights,
   formats, strides, influence_count, vertex_count, joint_count; the rest is
   ignored) for indices ≥ joint_count, negative or non-finite weights and
   weight sums off 1 by more than `sum_tolerance`. Reports the first
   offending vertex in `diag`. */
sw_result sw_skin_check_influences(const sw_skin_job* job, float sum_tolerance, sw_diag* diag);

/* ---- Compact layout ----------------------------------------------------------

   An opt-in layout that moves fewer bytes per vertex than the importer's
   (4 or 8 slots of u16 joints and f32 weights, zero-padded):
   - vertices grouped by their number of non-zero influences, one segment
     per count, so no slot is padded;
   - joint indices in 8 bits when the skin has ≤ 256 joints, else 16;
   - weights as 16-bit (default) or 8-bit normalised integers, the last one
     implied (sw_skin_job.last_weight_implied), so k influences store k − 1;
   - positions, normals and tangents as floats, in the grouped order.
   The outputs come out in the grouped order too: draw them with the index
   buffer remapped once through old_to_new (or read vertex v of the source
   at old_to_new[v]).

   Quantisation: each vertex's non-zero weights (in slot order) are scaled
   to sum to 65535 (or 255) codes by largest remainder; an influence left
   with code 0 is dropped. Given the same decoded weights (c / 65535, the
   last 1 − the others' sum), a compact job's positions and normals have
   exactly the bits of the default layout's on the same explicit kernel
   (DEFAULT runs the columns shape on compact jobs). Against the source
   weights, positions move by at most k·0.5/65535 of the spread of
   the k joints' transforms of the vertex (k·0.5/255 with 8-bit weights),
   and normal directions by less than 0.05° (at most 0.001° over every
   test asset, 16-bit weights). */

typedef struct sw_skin_compact_desc {
    size_t vertex_count;
    int influence_count;            /* slots per vertex in the source, 1..SW_MAX_INFLUENCES */
    size_t joint_count;             /* palette size: 8-bit joints when ≤ 256 */
    const void* joints;             /* packed, influence_count per vertex */
    sw_joint_format joint_format;   /* DEFAULT = U16 */
    const void* weights;            /* packed, influence_count per vertex, summing to 1 */
    sw_weight_format weight_format; /* DEFAULT = F32 */
    const float* positions;         /* packed xyz; required */
    const float* normals;           /* packed xyz, or NULL */
    const float* tangents;          /* packed xyzw, or NULL */
    sw_weight_format compact_weights; /* U16_NORM (DEFAULT; U8_NORM when quantize) or U8_NORM */
    /* The quantised compact layout: positions as S16 over the mesh's
       bounding box, normals as OCT16, 8-bit weights by default; no
       tangents (the build fails when given some). See below. */
    bool quantize;
} sw_skin_compact_desc;

/* One group of vertices with the same influence count. */
typedef struct sw_skin_compact_segment {
    int influence_count;
    size_t first_vertex, vertex_count; /* in the grouped order */
    const void* joints;                /* influence_count per vertex */
    const void* weights;               /* influence_count − 1 per vertex (NULL for 1) */
} sw_skin_compact_segment;

typedef struct sw_skin_compact {
    size_t vertex_count, joint_count;
    sw_joint_format joint_format;   /* U8 or U16 */
    sw_weight_format weight_format; /* U16_NORM or U8_NORM */
    size_t segment_count;
    sw_skin_compact_segment segments[SW_MAX_INFLUENCES]; /* by increasing influence count */
    const uint32_t* old_to_new;     /* vertex_count: the grouped index of source vertex v */
    const uint32_t* new_to_old;     /* vertex_count: the source index of grouped vertex i */
    const float* positions;         /* grouped order */
    const float* normals;           /* or NULL */
    const float* tangents;          /* or NULL */
    size_t influence_bytes;         /* joints + weights of all segments */
    /* Quantised layout (desc.quantize): positions and normals are NULL,
       these hold them instead, in the grouped order. */
    bool quantized;
    const int16_t* quantized_positions; /* 4 per vertex: q, 1 */
    const int16_t* quantized_normals;   /* 2 per vertex (octahedral), or NULL */
    sw_vec3 dequantize_offset, dequantize_step; /* p ≈ offset + step ∘ q (step: the same on every axis) */
} sw_skin_compact;

/* Bytes of (16-aligned) memory sw_skin_compact_build needs, or 0 when the
   description is invalid. */
size_t sw_skin_compact_memory_size(const sw_skin_compact_desc* desc);

/* Builds the compact layout in the caller's memory (16-aligned, at least
   sw_skin_compact_memory_size bytes; nothing is allocated). Fails on
   joints ≥ joint_count, negative or non-finite weights, or a vertex whose
   weights are all zero. */
sw_result sw_skin_compact_build(const sw_skin_compact_desc* desc, void* memory, size_t memory_size,
                                sw_skin_compact* out, sw_diag* diag);

/* ---- The quantised compact layout --------------------------------------------

   With desc.quantize the compact layout also quantises the vertices:
   - positions: q = round((p − c) / h) per axis in [−32767, 32767], c the
     centre of the mesh's bounding box and h its largest size / 65534, one
     step for all axes (so D is a uniform scale and S·D turns normals as S
     does), stored as (qx, qy, qz, 1); the dequantisation p' = c + h·q is
     folded into the skin matrices once per pose: S·D, with D = [h·I | c]
     (sw_skin_matrices_dequantize), so it costs nothing per vertex;
   - normals octahedral in two int16 (sw_octahedral_encode);
   - joints 8-bit (≤ 256 joints), weights 8-bit by default.
   8 + 4 + (k + k − 1) bytes in per vertex of k influences (19 at k = 4,
   against 51.9 for the float compact layout with its outputs); with
   positions out as floats and normals as INT_2_10_10_10 that is 35 bytes
   moved per vertex.

   Error against the float layout on the same kernel (the same weights):
   positions move by at most Σ_c |A_rc|·h_c/2 per output coordinate r (A
   the blended matrix, |A_rc| ≤ max over the vertex's joints of |S_rc|),
   plus float rounding of a few ulp of the position's size; octahedral
   normals' directions by at most 2.2/32767 rad (0.004°) before the
   transform, times the transform's condition number after it (1 for
   rotations); INT_2_10_10_10 adds 0.5/511 per component. */

/* out[j] = matrices[j] · D, D = [diag(step) | offset] (computed in double):
   the palette a quantised compact layout's jobs read. A step that differs
   between axes would turn normals too (the layout's is uniform). */
void sw_skin_matrices_dequantize(sw_mat34* SW_RESTRICT out, const sw_mat34* matrices, size_t count,
                                 sw_vec3 offset, sw_vec3 step);

/* Octahedral encoding of a direction (need not be unit; zero gives (0, 0)
   decoding to +z): u, v = round(32767·(x, y)/(|x|+|y|+|z|)), folded when
   z < 0. */
void sw_octahedral_encode(int16_t out[2], sw_vec3 direction);
/* The decoded direction as the kernels see it, unnormalised and scaled by
   32767 (integers, exact in float): (u, v, 32767 − |u| − |v|), folded.
   Normalise for the unit vector. */
sw_vec3 sw_octahedral_decode(const int16_t code[2]);

/* INT_2_10_10_10_REV of a unit vector (w = 0), as the kernels pack it, and back. */
uint32_t sw_pack_int_2_10_10_10(sw_vec3 unit);
sw_vec3 sw_unpack_int_2_10_10_10(uint32_t packed);

/* One job per segment: `base` gives the method, normal mode, kernel,
   palette and options (unnormalized), and the outputs — packed, in the
   grouped order, vertex_count each. Normals (tangents) are skinned when
   base->out_normals (out_tangents) is set, which the compact layout must
   then have (else the job fails validation); a layout with normals also
   serves positions-only passes. The rest comes from the compact layout.
   A quantised layout's jobs read S16 positions and OCT16 normals, and
   base->matrices must be the dequantised palette
   (sw_skin_matrices_dequantize); base->out_normal_format may ask for
   INT_2_10_10_10 normals (out_normals then points to uint32 words).
   Returns the number of jobs (compact->segment_count). */
size_t sw_skin_compact_jobs(const sw_skin_compact* compact, const sw_skin_job* base,
                            sw_skin_job out_jobs[SW_MAX_INFLUENCES]);

/* ---- Morph targets ---------------------------------------------------------

   out = base + Σₖ weights[k] · deltas[k], per vertex, in bind space, before
   skinning (glTF order). Works on positions, normals (renormalised later by
   the skinning job or the caller) and tangents (component_count 4: xyz are
   morphed, w is copied). Targets are added in order, and zero weights are
   skipped.

   Deltas come dense (vertex_count × 3 floats per target, `deltas`) or
   sparse (`sparse`: only the vertices a target moves, which for face
   shapes is a few percent of the mesh). Both give the same floats (a
   sparse target is its dense twin without the exact zeros; adding a zero
   changes at most the sign of a zero result). */

/* One sparse target: `count` vertices, indices strictly increasing. */
typedef struct sw_morph_sparse {
    size_t count;
    const uint32_t* indices;        /* count vertex indices, strictly increasing */
    const float* deltas;            /* count × 3 floats */
} sw_morph_sparse;

typedef struct sw_morph_job {
    size_t vertex_count;
    size_t target_count;
    const float* weights;           /* target_count weights */
    const float* const* deltas;     /* dense: target_count pointers (entries may be NULL), or NULL */
    const sw_morph_sparse* sparse;  /* sparse: target_count entries (used when deltas is NULL) */
    int component_count;            /* 3 (positions, normals) or 4 (tangents); 0 = 3 */
    const float* base;  size_t base_stride;  /* bytes; 0 = packed */
    float* out;         size_t out_stride;   /* may equal base (in place, same stride) */
} sw_morph_job;

/* Checks counts, strides, finite weights and, for sparse targets, that
   indices are strictly increasing and < vertex_count (O(sparse entries)). */
sw_result sw_morph_job_validate(const sw_morph_job* job, sw_diag* diag);
/* Morphs vertices first_vertex .. first_vertex+vertex_count-1 (sparse
   targets find their first entry in the range by binary search). */
void sw_morph_job_run(const sw_morph_job* job, size_t first_vertex, size_t vertex_count);

/* Number of vertices a dense delta stream moves (any component ≠ 0). */
size_t sw_morph_sparse_count(const float* dense_deltas, size_t vertex_count);
/* Writes the sparse form of a dense delta stream: out_indices
   (sw_morph_sparse_count entries) and out_deltas (× 3 floats). Returns the
   count. */
size_t sw_morph_sparse_build(uint32_t* out_indices, float* out_deltas, const float* dense_deltas,
                             size_t vertex_count);

/* ---- LBS volume loss (Kavan et al. 2008) ----------------------------------

   Two joints whose rotations differ by φ about an axis, blended with weights
   w and 1−w, scale the distance from that axis by
       retention(w, φ) = sqrt(1 − 2w(1−w)(1 − cos φ)),
   which is |cos(φ/2)| at w = ½ (8.7 % of the radius left at 170°). DQS keeps
   it at 1. */
double sw_lbs_retention(double weight, double twist_radians);

/* LBS volume loss of one vertex at a pose, measured: the smallest singular
   value of Σ wᵢRᵢ, where Rᵢ is the rotation of influence i's skin matrix
   (its orthogonal polar factor). 1 where nothing is lost (the rotations
   agree, or the vertex has one influence), down to 0 where they cancel;
   at two joints it is sw_lbs_retention's value. `sw check` and the
   renderer's retention view both measure with it.

   rotations: 9 doubles per joint (row-major 3×3), from sw_skin_rotations
   once per pose. Influences with weight ≤ 0 or a joint ≥ joint_count are
   skipped; *out_used (may be NULL) counts the rest, and with fewer than
   two the result is 1. Pure and thread-safe. */
void sw_skin_rotations(const sw_mat34* skin_matrices, size_t count, double* out_rotations);
double sw_skin_vertex_retention(const double* rotations, size_t joint_count, const uint16_t* joints,
                                const float* weights, int influence_count, int* out_used);

/* A procedural tube along +X with two joints: joint 0 at the origin, joint 1
   (its child) at length/2. Rings are evenly spaced from x = 0 to x = length;
   the child's weight is 0 over the first third, rises linearly over the
   middle third and is 1 over the last third, so the ring at length/2 has
   w = ½.

   Defaults (zero fields): length 3 m, radius 0.5 m, 61 rings (a ring at
   every third and at the middle; weight steps of 0.05), 32 segments. */
typedef struct sw_twist_tube_desc {
    float length;
    float radius;
    int rings;    /* ≥ 7; (rings − 1) divisible by 6 puts rings exactly at w = 0, ½, 1 */
    int segments; /* ≥ 3 */
} sw_twist_tube_desc;

/* Resolves defaults; returns SW_ERR_INVALID_ARGUMENT for out-of-range fields. */
sw_result sw_twist_tube_resolve(sw_twist_tube_desc* out, const sw_twist_tube_desc* desc);
size_t sw_twist_tube_vertex_count(const sw_twist_tube_desc* resolved);
/* Child-joint weight at a ring. */
float sw_twist_tube_ring_weight(const sw_twist_tube_desc* resolved, int ring);
/* Writes vertex_count vertices: positions (3 floats), normals (3),
   tangents (4, w = +1), joints (2 × u8: 0, 1), weights (2 × f32, summing to 1).
   Vertex (ring r, segment s) is at index r·segments + s. Any output may be NULL. */
void sw_twist_tube_build(const sw_twist_tube_desc* resolved, float* out_positions, float* out_normals,
                         float* out_tangents, uint8_t* out_joints, float* out_weights);
/* Local transforms of the two joints with the child twisted by `twist`
   radians about +X (twist 0 is the bind pose). */
void sw_twist_tube_pose(const sw_twist_tube_desc* resolved, float twist, sw_transform out_local[2]);
/* Mean distance from the X axis of each ring's vertices, divided by the
   tube radius: out_retention has `rings` entries. */
void sw_twist_tube_measure_rings(const sw_twist_tube_desc* resolved, const float* positions,
                                 float* out_retention);
/* Bytes of scratch sw_twist_tube_measure needs for a tube (resolved or not;
   0 for an invalid description). */
size_t sw_twist_tube_measure_scratch_size(const sw_twist_tube_desc* desc);
/* The whole pipeline on the tube: pose → local→model → skin matrices (and
   dual quaternions) → skinning job → ring radii. The vertex buffers live in
   the caller's `scratch` (16-aligned, at least
   sw_twist_tube_measure_scratch_size bytes; SW_ERR_BUFFER_TOO_SMALL
   otherwise): nothing is allocated. */
sw_result sw_twist_tube_measure(const sw_twist_tube_desc* desc, float twist, sw_skin_method method, void* scratch,
                                size_t scratch_size, float* out_retention);

SW_EXTERN_C_END

#endif
