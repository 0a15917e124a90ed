/* sinew check — the importer's contract, enforced and explained.

   UE, Unity and Godot neither renormalise weights nor fix normals when they
   skin (seed 000): they trust what their importer hands them. This command
   is that importer's conscience. It loads the model with the file's own
   influences kept (sw_gltf_options.keep_raw_influences), reads them as the
   file has them, then poses every skin at the rest pose and over every
   animation and measures what an engine would draw: the position error of
   truncating influences, LBS volume loss (seed 000's retention), and
   non-uniform joint scale (which the engines' blended-3×3 normals get
   wrong). Findings come out as linter lines or one JSON object; the exit
   status says whether there were errors (2), only warnings (1) or neither
   (0). */
#include "json_writer.h"
#include "tool_common.h"

#include "sinew/gltf.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK_EXAMPLES 5               /* worst examples kept per finding */
#define CHECK_SAMPLE_RATE_HZ 30.0      /* animation sampling, plus every key time */
#define CHECK_MAX_TIMES 2000           /* sampled times per animation, at most */
#define CHECK_SUM_TOLERANCE 1e-3       /* weight sums: the importer's tolerance */
#define CHECK_IBM_TOLERANCE 1e-4       /* of the mesh size */
#define CHECK_SCALE_TOLERANCE 1e-3     /* singular value ratio − 1 */
#define CHECK_MAX_INFLUENCES_LIMIT 64

const char cmd_check_help[] =
    "usage: sinew check MODEL [--json] [--max-influences N] [--retention-threshold R]\n"
    "                   [--allow-outside-paths]\n"
    "\n"
    "Checks what MODEL (.gltf or .glb) leaves to its importer. UE, Unity and\n"
    "Godot neither renormalise weights nor fix normals when they skin (seed\n"
    "000): they rely on the importer, and this is what it has to catch. The\n"
    "influences are read as the file stores them (JOINTS_n/WEIGHTS_n, before\n"
    "sinew's importer renormalises them); every skin is posed at the rest pose\n"
    "and over every animation (at 30 Hz and at every key time, at most 2000\n"
    "times per animation; morph targets are not applied).\n"
    "\n"
    "Each finding is one line, as a linter prints it, and a summary follows:\n"
    "\n"
    "  MODEL: SEVERITY: WHERE: WHAT (worst: ...) [CODE]\n"
    "  MODEL: E errors, W warnings, N notes\n"
    "\n"
    "Vertices are indices into the primitive's accessors, joints indices into\n"
    "the skin's joints (with the node's name), times in seconds.\n"
    "\n"
    "  error    load                    the file cannot be loaded; the importer's\n"
    "                                   message (broken JSON or buffers, NaN or\n"
    "                                   Inf in an accessor, a joint index out of\n"
    "                                   range with a weight > 0, ...)\n"
    "  error    weights_negative        vertices with a weight < 0\n"
    "  error    joint_out_of_range      vertices with a joint index >= the skin's\n"
    "                                   joint count (whatever its weight)\n"
    "  error    joint_duplicate         vertices naming one joint twice, both\n"
    "                                   times with a weight > 0\n"
    "  warning  weights_not_normalised  vertices whose weights sum to 1 +- more\n"
    "                                   than 0.001\n"
    "  warning  vertex_without_weights  vertices whose weights are all 0\n"
    "  warning  joint_zero_weight       vertices pairing a joint index other\n"
    "                                   than 0 with weight 0\n"
    "  warning  too_many_influences     vertices with more than N weights > 0,\n"
    "                                   and how far keeping the N largest\n"
    "                                   (renormalised) moves them, at the rest\n"
    "                                   pose and over every animation\n"
    "  warning  lbs_volume_loss         vertices where linear blend skinning\n"
    "                                   keeps less than R of a limb's radius\n"
    "                                   in some pose (below)\n"
    "  warning  ibm_not_rest_pose       joints whose inverse bind matrix is not\n"
    "                                   the inverse of their rest-pose world\n"
    "                                   transform, so the mesh is deformed at\n"
    "                                   rest (a box around it moves by more than\n"
    "                                   1e-4 of its diagonal); the world\n"
    "                                   transform may be taken relative to the\n"
    "                                   skinned node, as exporters also write\n"
    "  warning  non_uniform_scale       used joints whose skin matrix scales\n"
    "                                   non-uniformly (singular values differ by\n"
    "                                   more than 0.1 %) at rest or in an\n"
    "                                   animation: normals are then only right\n"
    "                                   with the inverse transpose\n"
    "                                   (SW_NORMALS_COFACTOR), not with the\n"
    "                                   blended 3x3 the engines use\n"
    "  warning  import                  a warning of the importer, verbatim:\n"
    "                                   rotation keys that are not unit,\n"
    "                                   channels on missing nodes or on paths\n"
    "                                   that cannot apply, ...\n"
    "  note     bind_pose_offset        every joint agrees at rest, but on a\n"
    "                                   transform other than the identity or\n"
    "                                   the skinned node's: the whole mesh is\n"
    "                                   drawn moved\n"
    "  note     joint_unused            joints no vertex weights\n"
    "  note     skin_unused             skins no node uses\n"
    "  note     influences_unused       primitives with JOINTS/WEIGHTS that no\n"
    "                                   node skins\n"
    "\n"
    "LBS volume loss: a vertex's linear blend of skin matrices keeps, along\n"
    "its worst direction, the smallest singular value of sum(w_i R_i), R_i\n"
    "the rotation of joint i's skin matrix (scale removed). For two joints\n"
    "phi apart this is seed 000's retention sqrt(1 - 2w(1-w)(1 - cos phi))\n"
    "(sw_lbs_retention), |cos(phi/2)| at w = 1/2: 0.5 at 120 degrees.\n"
    "\n"
    "exit status:\n"
    "  0  no errors and no warnings (notes do not count)\n"
    "  1  warnings, no errors\n"
    "  2  errors, including a file that cannot be loaded (reported as a\n"
    "     finding, on standard output); also a usage error (a message on\n"
    "     standard error, nothing on standard output) or a failure to write\n"
    "\n"
    "options:\n"
    "  --json                   one JSON object instead of lines (below)\n"
    "  --max-influences N       influences an engine keeps per vertex, 1 to 64\n"
    "                           (default 4)\n"
    "  --retention-threshold R  radius retention below which a vertex is an\n"
    "                           LBS volume-loss hot spot, 0 to 1 (default 0.7)\n"
    "  --allow-outside-paths    let buffer URIs leave the model's folder\n"
    "\n"
    "JSON (fields are only ever added):\n"
    "  {\"model\": str, \"max_influences\": int, \"retention_threshold\": num,\n"
    "   \"sample_rate_hz\": num, \"exit_status\": 0|1|2,\n"
    "   \"errors\": int, \"warnings\": int, \"notes\": int,\n"
    "   \"findings\": [{\"severity\": \"error\"|\"warning\"|\"note\", \"code\": str,\n"
    "     \"message\": str (the line's WHERE: WHAT),\n"
    "     \"mesh\", \"primitive\", \"skin\", \"joint\": int or null,\n"
    "     \"count\": int (vertices; joints for the joint and skin codes),\n"
    "     \"value\": num or null (the worst one: the sum furthest from 1, the\n"
    "       lowest weight, the largest joint index, the summed duplicate\n"
    "       weight, the joint index with weight 0, the largest position error\n"
    "       in model units, the lowest retention, the largest IBM error as a\n"
    "       fraction of the mesh size, the largest singular value ratio),\n"
    "     \"examples\": [{\"vertex\", \"joint\", \"other_joint\": int or null,\n"
    "       \"value\": num, \"animation\": int or null (null: rest pose),\n"
    "       \"time\": num or null}] (worst first, at most 5),\n"
    "     \"poses\": [{\"animation\": int or null, \"name\": str or null,\n"
    "       \"count\": int, \"value\": num or null, \"time\": num or null}]\n"
    "       (measured codes only: the rest pose, then each animation)}]}\n";

/* ---- findings ------------------------------------------------------------------ */

typedef enum check_severity { CHECK_NOTE, CHECK_WARNING, CHECK_ERROR } check_severity;

static const char* const severity_names[] = {"note", "warning", "error"};

typedef struct check_example {
    int64_t vertex, joint, other_joint; /* -1 = none */
    double value;
    int64_t animation;                  /* -1 = rest pose (or none when time is NAN) */
    double time;                        /* NAN = none */
} check_example;

/* The worst examples seen, worst first (ties keep the earlier). */
typedef struct check_worst {
    size_t count;
    double score[CHECK_EXAMPLES]; /* larger is worse */
    check_example examples[CHECK_EXAMPLES];
} check_worst;

static check_example example(int64_t vertex, int64_t joint, double value) {
    return (check_example){.vertex = vertex, .joint = joint, .other_joint = -1, .value = value, .animation = -1,
                           .time = NAN};
}

static void worst_add(check_worst* w, double score, check_example e) {
    size_t at = w->count;
    while (at > 0 && score > w->score[at - 1]) at--;
    if (at >= CHECK_EXAMPLES) return;
    size_t last = w->count < CHECK_EXAMPLES ? w->count : CHECK_EXAMPLES - 1;
    for (size_t i = last; i > at; i--) w->score[i] = w->score[i - 1], w->examples[i] = w->examples[i - 1];
    w->score[at] = score;
    w->examples[at] = e;
    if (w->count < CHECK_EXAMPLES) w->count++;
}

/* A measured code's numbers for one pose set: the rest pose or one animation. */
typedef struct check_pose_stat {
    size_t count;
    double value; /* NAN = nothing measured */
    double time;  /* NAN = rest pose */
} check_pose_stat;

typedef struct check_finding {
    check_severity severity;
    const char* code;
    int64_t mesh, primitive, skin, joint; /* -1 = not applicable */
    size_t count;
    double value;                         /* NAN = none */
    char message[768];
    check_worst worst;
    check_pose_stat* poses;               /* 1 + animation_count, or NULL */
} check_finding;

typedef struct check_report {
    check_finding* items;
    size_t count, capacity;
    size_t by_severity[3];
    bool out_of_memory;
} check_report;

/* A new finding (fields not applicable set to -1/NAN), or NULL when out of memory. */
static check_finding* finding_add(check_report* r, check_severity severity, const char* code) {
    if (r->count == r->capacity) {
        size_t capacity = r->capacity ? 2 * r->capacity : 32;
        check_finding* items = realloc(r->items, capacity * sizeof *items);
        if (!items) {
            r->out_of_memory = true;
            return NULL;
        }
        r->items = items, r->capacity = capacity;
    }
    check_finding* f = &r->items[r->count++];
    memset(f, 0, sizeof *f);
    f->severity = severity;
    f->code = code;
    f->mesh = f->primitive = f->skin = f->joint = -1;
    f->value = NAN;
    r->by_severity[severity]++;
    return f;
}

static void report_free(check_report* r) {
    for (size_t i = 0; i < r->count; i++) free(r->items[i].poses);
    free(r->items);
}

/* Appends printf-style text to a finding's message (truncated, never overflowing). */
static void message_add(check_finding* f, const char* format, ...) TOOL_PRINTF(2, 3);
static void message_add(check_finding* f, const char* format, ...) {
    size_t used = strlen(f->message);
    if (used + 1 >= sizeof f->message) return;
    va_list ap;
    va_start(ap, format);
    vsnprintf(f->message + used, sizeof f->message - used, format, ap);
    va_end(ap);
}

/* ---- names --------------------------------------------------------------------- */

/* A name for messages, by value: `joint 3 "Hand_L"`, or `joint 3` when unnamed. */
typedef struct check_label {
    char s[192];
} check_label;

static check_label joint_label(const sw_model* a, size_t skin, int64_t joint) {
    check_label l;
    const sw_model_skin* s = &a->skins[skin];
    const char* name = joint >= 0 && (size_t)joint < s->joint_count ? a->nodes[s->joints[joint]].name : NULL;
    if (name && *name) snprintf(l.s, sizeof l.s, "joint %lld \"%.160s\"", (long long)joint, name);
    else snprintf(l.s, sizeof l.s, "joint %lld", (long long)joint);
    return l;
}

/* "1 vertex has" / "3 vertices have" (verb = NULL: "1 vertex" / "3 vertices"). */
static check_label counted(size_t n, const char* one, const char* many, const char* verb_one, const char* verb_many) {
    check_label l;
    const char* verb = n == 1 ? verb_one : verb_many;
    snprintf(l.s, sizeof l.s, "%zu %s%s%s", n, n == 1 ? one : many, verb ? " " : "", verb ? verb : "");
    return l;
}

static check_label vertices_have(size_t n) { return counted(n, "vertex", "vertices", "has", "have"); }

static check_label skin_label(const sw_model* a, size_t skin) {
    check_label l;
    const char* name = a->skins[skin].name;
    if (name && *name) snprintf(l.s, sizeof l.s, "skin %zu \"%.160s\"", skin, name);
    else snprintf(l.s, sizeof l.s, "skin %zu", skin);
    return l;
}

static const char* animation_name(const sw_model* a, int64_t animation) {
    if (animation < 0) return "rest pose";
    const char* name = a->animations[animation].name;
    return name ? name : "";
}

/* " in "walk" at 0.5 s" or " at the rest pose". */
static void message_pose(check_finding* f, const sw_model* a, int64_t animation, double time) {
    if (animation < 0) message_add(f, " at the rest pose");
    else if (a->animations[animation].name) message_add(f, " in \"%s\" at %.4g s", animation_name(a, animation), time);
    else message_add(f, " in animation %lld at %.4g s", (long long)animation, time);
}

/* ---- 3×3 maths in double --------------------------------------------------------- */

typedef struct m3 {
    double m[3][3];
} m3;

static m3 m3_from(const sw_mat34* s) {
    m3 r;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) r.m[i][j] = s->m[i][j];
    return r;
}

static double m3_det(const m3* a) {
    const double(*m)[3] = a->m;
    return m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
           m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
}

/* Eigenvalues of a symmetric 3×3, largest first (the trigonometric method). */
static void sym3_eigenvalues(const m3* a, double out[3]) {
    const double(*m)[3] = a->m;
    double p1 = m[0][1] * m[0][1] + m[0][2] * m[0][2] + m[1][2] * m[1][2];
    double q = (m[0][0] + m[1][1] + m[2][2]) / 3.0;
    double p2 = (m[0][0] - q) * (m[0][0] - q) + (m[1][1] - q) * (m[1][1] - q) + (m[2][2] - q) * (m[2][2] - q) + 2 * p1;
    if (p2 <= 1e-300) {
        out[0] = out[1] = out[2] = q;
        return;
    }
    double p = sqrt(p2 / 6.0);
    m3 b;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) b.m[i][j] = (m[i][j] - (i == j ? q : 0.0)) / p;
    double r = m3_det(&b) / 2.0;
    double phi = r <= -1.0 ? SW_PI / 3.0 : r >= 1.0 ? 0.0 : acos(r) / 3.0;
    out[0] = q + 2.0 * p * cos(phi);
    out[2] = q + 2.0 * p * cos(phi + 2.0 * SW_PI / 3.0);
    out[1] = 3.0 * q - out[0] - out[2];
}

/* Singular values of a 3×3, largest first. */
static void m3_singular_values(const m3* a, double out[3]) {
    m3 ata;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            ata.m[i][j] = a->m[0][i] * a->m[0][j] + a->m[1][i] * a->m[1][j] + a->m[2][i] * a->m[2][j];
    sym3_eigenvalues(&ata, out);
    for (int i = 0; i < 3; i++) out[i] = sqrt(out[i] > 0.0 ? out[i] : 0.0);
}

/* The orthogonal factor of A = Q·K (polar decomposition) by Higham's
   iteration Q ← (Q + Q⁻ᵀ)/2; identity when A is (nearly) singular. */
static m3 m3_orthogonal_part(const m3* a) {
    m3 q = *a;
    double scale = 0.0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) scale = fmax(scale, fabs(q.m[i][j]));
    double det = m3_det(&q);
    if (!(scale > 0.0) || !(fabs(det) > 1e-12 * scale * scale * scale)) {
        memset(&q, 0, sizeof q);
        q.m[0][0] = q.m[1][1] = q.m[2][2] = 1.0;
        return q;
    }
    for (int iteration = 0; iteration < 40; iteration++) {
        det = m3_det(&q);
        /* Q⁻ᵀ = cofactor(Q) / det */
        m3 c;
        const double(*m)[3] = q.m;
        c.m[0][0] = m[1][1] * m[2][2] - m[1][2] * m[2][1];
        c.m[0][1] = m[1][2] * m[2][0] - m[1][0] * m[2][2];
        c.m[0][2] = m[1][0] * m[2][1] - m[1][1] * m[2][0];
        c.m[1][0] = m[0][2] * m[2][1] - m[0][1] * m[2][2];
        c.m[1][1] = m[0][0] * m[2][2] - m[0][2] * m[2][0];
        c.m[1][2] = m[0][1] * m[2][0] - m[0][0] * m[2][1];
        c.m[2][0] = m[0][1] * m[1][2] - m[0][2] * m[1][1];
        c.m[2][1] = m[0][2] * m[1][0] - m[0][0] * m[1][2];
        c.m[2][2] = m[0][0] * m[1][1] - m[0][1] * m[1][0];
        double change = 0.0;
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) {
                double next = 0.5 * (q.m[i][j] + c.m[i][j] / det);
                change = fmax(change, fabs(next - q.m[i][j]));
                q.m[i][j] = next;
            }
        if (change < 1e-14) break;
    }
    return q;
}

/* Rotation angle between two orthogonal matrices, radians in [0, π]. */
static double m3_angle_between(const m3* a, const m3* b) {
    double trace = 0.0;
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++) trace += a->m[k][i] * b->m[k][i]; /* tr(Aᵀ·B) */
    double c = (trace - 1.0) / 2.0;
    return acos(c < -1.0 ? -1.0 : c > 1.0 ? 1.0 : c);
}

static void apply34(const sw_mat34* s, const double p[3], double out[3]) {
    for (int r = 0; r < 3; r++) out[r] = s->m[r][0] * p[0] + s->m[r][1] * p[1] + s->m[r][2] * p[2] + s->m[r][3];
}

/* ---- the file's influences, as stored -------------------------------------------- */

static double bounds_diagonal(const sw_model_primitive* p) {
    double d = 0.0;
    for (int c = 0; c < 3; c++) d += ((double)p->bounds_max[c] - p->bounds_min[c]) * ((double)p->bounds_max[c] - p->bounds_min[c]);
    return sqrt(d);
}

/* Weights that do not sum to 1, negative weights, duplicates, zero weights
   on joints other than 0, vertices without weight. Skin-independent. */
static void check_raw_influences(check_report* r, const sw_model* a, size_t mesh, size_t prim_index) {
    const sw_model_primitive* p = &a->meshes[mesh].primitives[prim_index];
    size_t slots = (size_t)p->raw_influence_count;
    if (!slots || !p->raw_joints || !p->raw_weights) return;
    size_t unnormalised = 0, negative = 0, duplicate = 0, zero_joint = 0, zero_joint_slots = 0, no_weight = 0;
    check_worst w_unnormalised = {0}, w_negative = {0}, w_duplicate = {0}, w_zero_joint = {0}, w_no_weight = {0};
    double v_unnormalised = 1.0, v_negative = 0.0, v_duplicate = 0.0;
    for (size_t v = 0; v < p->vertex_count; v++) {
        const uint16_t* j = &p->raw_joints[v * slots];
        const float* w = &p->raw_weights[v * slots];
        double sum = 0.0, most_negative = 0.0;
        int64_t negative_joint = -1, zero_joint_first = -1;
        size_t positive = 0, zero_slots = 0;
        for (size_t e = 0; e < slots; e++) {
            sum += w[e];
            positive += w[e] > 0.0f;
            if (w[e] < most_negative) most_negative = w[e], negative_joint = j[e];
            if (w[e] == 0.0f && j[e] != 0) {
                zero_slots++;
                if (zero_joint_first < 0) zero_joint_first = j[e];
            }
        }
        if (negative_joint >= 0) {
            negative++;
            worst_add(&w_negative, -most_negative, example((int64_t)v, negative_joint, most_negative));
            if (most_negative < v_negative) v_negative = most_negative;
        }
        if (zero_slots) {
            zero_joint++;
            zero_joint_slots += zero_slots;
            /* every example is as bad as the next: the first ones are kept */
            worst_add(&w_zero_joint, 0.0, example((int64_t)v, zero_joint_first, (double)zero_joint_first));
        }
        if (positive == 0) {
            no_weight++;
            worst_add(&w_no_weight, 0.0, example((int64_t)v, -1, sum));
            continue;
        }
        if (fabs(sum - 1.0) > CHECK_SUM_TOLERANCE) {
            unnormalised++;
            worst_add(&w_unnormalised, fabs(sum - 1.0), example((int64_t)v, -1, sum));
            if (fabs(sum - 1.0) > fabs(v_unnormalised - 1.0)) v_unnormalised = sum;
        }
        /* one joint twice, both weighted */
        bool found = false;
        for (size_t e = 0; e < slots && !found; e++) {
            if (!(w[e] > 0.0f)) continue;
            for (size_t k = e + 1; k < slots && !found; k++) {
                if (!(w[k] > 0.0f) || j[k] != j[e]) continue;
                found = true;
                double both = (double)w[e] + w[k];
                duplicate++;
                worst_add(&w_duplicate, both, example((int64_t)v, j[e], both));
                if (both > v_duplicate) v_duplicate = both;
            }
        }
    }
    check_finding* f;
    if (negative && (f = finding_add(r, CHECK_ERROR, "weights_negative"))) {
        f->mesh = (int64_t)mesh, f->primitive = (int64_t)prim_index, f->count = negative, f->value = v_negative;
        f->worst = w_negative;
        message_add(f, "mesh %zu primitive %zu: %s negative weights, which glTF forbids (worst: vertex %lld, joint %lld, "
                       "weight %.6g)",
                    mesh, prim_index, vertices_have(negative).s, (long long)w_negative.examples[0].vertex,
                    (long long)w_negative.examples[0].joint, w_negative.examples[0].value);
    }
    if (duplicate && (f = finding_add(r, CHECK_ERROR, "joint_duplicate"))) {
        f->mesh = (int64_t)mesh, f->primitive = (int64_t)prim_index, f->count = duplicate, f->value = v_duplicate;
        f->worst = w_duplicate;
        message_add(f, "mesh %zu primitive %zu: %s one joint twice, both times with a weight > 0, which glTF forbids "
                       "(worst: vertex %lld, joint %lld twice, %.6g in all)",
                    mesh, prim_index, vertices_have(duplicate).s, (long long)w_duplicate.examples[0].vertex,
                    (long long)w_duplicate.examples[0].joint, w_duplicate.examples[0].value);
    }
    if (unnormalised && (f = finding_add(r, CHECK_WARNING, "weights_not_normalised"))) {
        f->mesh = (int64_t)mesh, f->primitive = (int64_t)prim_index, f->count = unnormalised, f->value = v_unnormalised;
        f->worst = w_unnormalised;
        message_add(f, "mesh %zu primitive %zu: %s weights that do not sum to 1 (worst: vertex %lld, sum %.6g); "
                       "engines that do not renormalise draw them pulled towards the origin",
                    mesh, prim_index, vertices_have(unnormalised).s, (long long)w_unnormalised.examples[0].vertex,
                    w_unnormalised.examples[0].value);
    }
    if (no_weight && (f = finding_add(r, CHECK_WARNING, "vertex_without_weights"))) {
        f->mesh = (int64_t)mesh, f->primitive = (int64_t)prim_index, f->count = no_weight, f->value = 0.0;
        f->worst = w_no_weight;
        message_add(f, "mesh %zu primitive %zu: %s no weight at all (first: vertex %lld); sinew's importer gives them "
                       "weight 1 on their first joint, a shader would collapse them to the origin",
                    mesh, prim_index, vertices_have(no_weight).s, (long long)w_no_weight.examples[0].vertex);
    }
    if (zero_joint && (f = finding_add(r, CHECK_WARNING, "joint_zero_weight"))) {
        f->mesh = (int64_t)mesh, f->primitive = (int64_t)prim_index, f->count = zero_joint;
        f->value = w_zero_joint.examples[0].value;
        f->worst = w_zero_joint;
        message_add(f, "mesh %zu primitive %zu: %s a joint other than 0 with weight 0 (%s; first: vertex %lld, joint "
                       "%lld); unused slots should name joint 0",
                    mesh, prim_index, vertices_have(zero_joint).s, counted(zero_joint_slots, "slot", "slots", NULL, NULL).s, (long long)w_zero_joint.examples[0].vertex,
                    (long long)w_zero_joint.examples[0].joint);
    }
}

/* ---- skinned (mesh, skin) pairs and their per-pose state ---------------------------- */

/* One primitive skinned by one skin, with what the poses measure on it. */
typedef struct check_target {
    size_t mesh, prim_index, skin;
    const sw_model_primitive* prim;
    double diagonal;
    bool posable;             /* influences present and every weighted joint in range */
    /* LBS retention per vertex: over everything, and over the current pose set */
    float* retention;         /* vertex_count; 2.0 = not measured (fewer than 2 influences) */
    int32_t* retention_pose;  /* pose set of the minimum (-1 rest, else animation) */
    float* retention_time;
    float* retention_set;     /* minimum within the current pose set */
    check_pose_stat* retention_poses; /* 1 + animation_count */
    /* worst retention in detail */
    double worst_retention;
    int64_t worst_vertex, worst_joint_a, worst_joint_b, worst_pose;
    double worst_time, worst_weight_a, worst_weight_b, worst_angle;
    /* influence truncation: vertices with more than N weights, as
       (joint, full weight − truncated weight) lists */
    size_t truncated_count;
    uint32_t* truncated_vertices;
    size_t* truncated_offsets; /* truncated_count + 1 */
    uint16_t* truncated_joints;
    double* truncated_deltas;
    double* truncated_error;   /* per truncated vertex: the largest error */
    int32_t* truncated_pose;
    float* truncated_time;
    check_pose_stat* truncated_poses;
} check_target;

typedef struct check_skin_state {
    bool used_by_node;        /* a node with a mesh uses this skin */
    bool* joint_used;         /* a vertex of a skinned primitive weights it */
    double bounds_min[3], bounds_max[3];
    bool has_bounds;
    sw_mat34* matrices;       /* per joint, at the current pose */
    m3* rotations;            /* orthogonal part of each skin matrix */
    double* scale_ratio;      /* per joint: largest σmax/σmin so far */
    int32_t* scale_pose;
    float* scale_time;
    double* scale_ratio_set;  /* within the current pose set */
    check_pose_stat* scale_poses;
} check_skin_state;

typedef struct check_state {
    const sw_model* a;
    int max_influences;
    double threshold;
    check_target* targets;
    size_t target_count;
    check_skin_state* skins;
    size_t pose_sets;         /* 1 + animation_count */
    /* pose scratch */
    sw_pose pose;
    void* pose_memory;
} check_state;

static void state_free(check_state* s) {
    for (size_t t = 0; t < s->target_count; t++) {
        check_target* g = &s->targets[t];
        free(g->retention), free(g->retention_pose), free(g->retention_time), free(g->retention_set);
        free(g->retention_poses);
        free(g->truncated_vertices), free(g->truncated_offsets), free(g->truncated_joints);
        free(g->truncated_deltas), free(g->truncated_error), free(g->truncated_pose), free(g->truncated_time);
        free(g->truncated_poses);
    }
    free(s->targets);
    for (size_t k = 0; s->skins && k < s->a->skin_count; k++) {
        check_skin_state* k_state = &s->skins[k];
        free(k_state->joint_used), free(k_state->matrices), free(k_state->rotations), free(k_state->scale_ratio);
        free(k_state->scale_pose), free(k_state->scale_time), free(k_state->scale_ratio_set), free(k_state->scale_poses);
    }
    free(s->skins);
    free(s->pose_memory);
}

static check_pose_stat* pose_stats_new(size_t n) {
    check_pose_stat* p = malloc(n * sizeof *p);
    if (p)
        for (size_t i = 0; i < n; i++) p[i] = (check_pose_stat){.count = 0, .value = NAN, .time = NAN};
    return p;
}

/* Vertices with more than N weights > 0: the difference between their
   full influence list (renormalised) and the N largest (renormalised; the
   earlier on ties, as sinew's importer chooses). */
static bool prepare_truncation(check_target* g, int max_influences) {
    const sw_model_primitive* p = g->prim;
    size_t slots = (size_t)p->raw_influence_count;
    size_t count = 0, entries = 0;
    for (size_t v = 0; v < p->vertex_count; v++) {
        size_t positive = 0;
        for (size_t e = 0; e < slots; e++) positive += p->raw_weights[v * slots + e] > 0.0f;
        if (positive > (size_t)max_influences) count++, entries += positive;
    }
    g->truncated_count = count;
    if (!count) return true;
    g->truncated_vertices = malloc(count * sizeof *g->truncated_vertices);
    g->truncated_offsets = malloc((count + 1) * sizeof *g->truncated_offsets);
    g->truncated_joints = malloc(entries * sizeof *g->truncated_joints);
    g->truncated_deltas = malloc(entries * sizeof *g->truncated_deltas);
    g->truncated_error = calloc(count, sizeof *g->truncated_error);
    g->truncated_pose = malloc(count * sizeof *g->truncated_pose);
    g->truncated_time = malloc(count * sizeof *g->truncated_time);
    bool* chosen = malloc(slots * sizeof *chosen);
    if (!g->truncated_vertices || !g->truncated_offsets || !g->truncated_joints || !g->truncated_deltas ||
        !g->truncated_error || !g->truncated_pose || !g->truncated_time || !chosen) {
        free(chosen);
        return false;
    }
    size_t k = 0, at = 0;
    for (size_t v = 0; v < p->vertex_count; v++) {
        const uint16_t* j = &p->raw_joints[v * slots];
        const float* w = &p->raw_weights[v * slots];
        size_t positive = 0;
        double full = 0.0;
        for (size_t e = 0; e < slots; e++)
            if (w[e] > 0.0f) positive++, full += w[e];
        if (positive <= (size_t)max_influences) continue;
        memset(chosen, 0, slots * sizeof *chosen);
        double kept = 0.0;
        for (int c = 0; c < max_influences; c++) {
            size_t best = slots;
            for (size_t e = 0; e < slots; e++)
                if (w[e] > 0.0f && !chosen[e] && (best == slots || w[e] > w[best])) best = e;
            chosen[best] = true;
            kept += w[best];
        }
        g->truncated_vertices[k] = (uint32_t)v;
        g->truncated_offsets[k] = at;
        g->truncated_pose[k] = -1;
        g->truncated_time[k] = NAN;
        for (size_t e = 0; e < slots; e++) {
            if (!(w[e] > 0.0f)) continue;
            g->truncated_joints[at] = j[e];
            g->truncated_deltas[at] = w[e] / full - (chosen[e] ? w[e] / kept : 0.0);
            at++;
        }
        k++;
    }
    g->truncated_offsets[k] = at;
    free(chosen);
    return true;
}

/* Finds the (mesh, skin) pairs, marks used joints, checks joint ranges,
   and allocates the per-pose state. False when out of memory. */
static bool prepare(check_state* s, check_report* r) {
    const sw_model* a = s->a;
    s->pose_sets = 1 + a->animation_count;
    s->skins = calloc(a->skin_count ? a->skin_count : 1, sizeof *s->skins);
    if (!s->skins) return false;
    /* at most one target per (node, primitive); duplicates of a (mesh, skin) pair are skipped */
    size_t capacity = 0;
    for (size_t n = 0; n < a->node_count; n++)
        if (a->nodes[n].mesh >= 0 && a->nodes[n].skin >= 0) capacity += a->meshes[a->nodes[n].mesh].primitive_count;
    s->targets = calloc(capacity ? capacity : 1, sizeof *s->targets);
    if (!s->targets) return false;
    for (size_t n = 0; n < a->node_count; n++) {
        const sw_model_node* node = &a->nodes[n];
        if (node->mesh < 0 || node->skin < 0) continue;
        size_t mesh = (size_t)node->mesh, skin = (size_t)node->skin;
        s->skins[skin].used_by_node = true;
        bool seen = false;
        for (size_t t = 0; t < s->target_count && !seen; t++) seen = s->targets[t].mesh == mesh && s->targets[t].skin == skin;
        if (seen) continue;
        for (size_t p = 0; p < a->meshes[mesh].primitive_count; p++) {
            const sw_model_primitive* prim = &a->meshes[mesh].primitives[p];
            if (!prim->influence_count || !prim->raw_influence_count) continue;
            check_target* g = &s->targets[s->target_count++];
            g->mesh = mesh, g->prim_index = p, g->skin = skin, g->prim = prim;
            g->diagonal = bounds_diagonal(prim);
            g->worst_retention = 2.0;
            g->worst_vertex = -1;
        }
    }
    for (size_t k = 0; k < a->skin_count; k++) {
        check_skin_state* ks = &s->skins[k];
        size_t joints = a->skins[k].joint_count;
        ks->joint_used = calloc(joints, sizeof *ks->joint_used);
        ks->matrices = malloc(joints * sizeof *ks->matrices);
        ks->rotations = malloc(joints * sizeof *ks->rotations);
        ks->scale_ratio = malloc(joints * sizeof *ks->scale_ratio);
        ks->scale_pose = malloc(joints * sizeof *ks->scale_pose);
        ks->scale_time = malloc(joints * sizeof *ks->scale_time);
        ks->scale_ratio_set = malloc(joints * sizeof *ks->scale_ratio_set);
        ks->scale_poses = pose_stats_new(s->pose_sets);
        if (!ks->joint_used || !ks->matrices || !ks->rotations || !ks->scale_ratio || !ks->scale_pose ||
            !ks->scale_time || !ks->scale_ratio_set || !ks->scale_poses)
            return false;
        for (size_t j = 0; j < joints; j++) ks->scale_ratio[j] = 1.0, ks->scale_pose[j] = -1, ks->scale_time[j] = NAN;
    }
    for (size_t t = 0; t < s->target_count; t++) {
        check_target* g = &s->targets[t];
        const sw_model_primitive* p = g->prim;
        check_skin_state* ks = &s->skins[g->skin];
        size_t joint_count = a->skins[g->skin].joint_count;
        size_t slots = (size_t)p->raw_influence_count;
        size_t out_of_range = 0;
        int64_t largest = -1;
        check_worst w_range = {0};
        bool weighted_out_of_range = false;
        for (size_t v = 0; v < p->vertex_count; v++) {
            bool bad = false;
            for (size_t e = 0; e < slots; e++) {
                uint16_t j = p->raw_joints[v * slots + e];
                float w = p->raw_weights[v * slots + e];
                if (j >= joint_count) {
                    if (!bad) worst_add(&w_range, (double)j, example((int64_t)v, j, (double)j));
                    bad = true;
                    if ((int64_t)j > largest) largest = j;
                    weighted_out_of_range = weighted_out_of_range || w > 0.0f;
                } else if (w > 0.0f) {
                    ks->joint_used[j] = true;
                }
            }
            out_of_range += bad;
        }
        check_finding* f;
        if (out_of_range && (f = finding_add(r, CHECK_ERROR, "joint_out_of_range"))) {
            f->mesh = (int64_t)g->mesh, f->primitive = (int64_t)g->prim_index, f->skin = (int64_t)g->skin;
            f->count = out_of_range, f->value = (double)largest, f->worst = w_range;
            message_add(f, "mesh %zu primitive %zu (skin %zu): %s joint indices past the skin's %zu joints (worst: vertex "
                           "%lld, joint %lld)%s",
                        g->mesh, g->prim_index, g->skin, vertices_have(out_of_range).s, joint_count,
                        (long long)w_range.examples[0].vertex, (long long)w_range.examples[0].joint,
                        weighted_out_of_range ? "" : "; all with weight 0, but a GPU still reads the palette there");
        }
        /* The importer rejects weighted indices out of range, so a loaded
           asset never gets here with one; stay safe anyway. */
        g->posable = !weighted_out_of_range;
        for (int c = 0; c < 3; c++) {
            ks->bounds_min[c] = ks->has_bounds ? fmin(ks->bounds_min[c], p->bounds_min[c]) : p->bounds_min[c];
            ks->bounds_max[c] = ks->has_bounds ? fmax(ks->bounds_max[c], p->bounds_max[c]) : p->bounds_max[c];
        }
        ks->has_bounds = true;
        if (!g->posable) continue;
        size_t n = p->vertex_count ? p->vertex_count : 1;
        g->retention = malloc(n * sizeof *g->retention);
        g->retention_pose = malloc(n * sizeof *g->retention_pose);
        g->retention_time = malloc(n * sizeof *g->retention_time);
        g->retention_set = malloc(n * sizeof *g->retention_set);
        g->retention_poses = pose_stats_new(s->pose_sets);
        g->truncated_poses = pose_stats_new(s->pose_sets);
        if (!g->retention || !g->retention_pose || !g->retention_time || !g->retention_set || !g->retention_poses ||
            !g->truncated_poses || !prepare_truncation(g, s->max_influences))
            return false;
        for (size_t v = 0; v < p->vertex_count; v++)
            g->retention[v] = 2.0f, g->retention_pose[v] = -1, g->retention_time[v] = NAN;
    }
    s->pose_memory = tool_pose_alloc(a, &s->pose);
    return s->pose_memory != NULL;
}

/* ---- one pose ------------------------------------------------------------------------ */

/* Skin matrices, their rotations and scale ratios for every skin a node uses. */
static void pose_skins(check_state* s, int64_t pose_set, double time) {
    const sw_model* a = s->a;
    for (size_t k = 0; k < a->skin_count; k++) {
        check_skin_state* ks = &s->skins[k];
        if (!ks->used_by_node) continue;
        memcpy(ks->matrices, s->pose.skin_matrices + a->skins[k].palette_offset,
               a->skins[k].joint_count * sizeof *ks->matrices);
        for (size_t j = 0; j < a->skins[k].joint_count; j++) {
            m3 m = m3_from(&ks->matrices[j]);
            ks->rotations[j] = m3_orthogonal_part(&m);
            if (!ks->joint_used[j]) continue;
            double sv[3];
            m3_singular_values(&m, sv);
            double ratio = sv[2] > 1e-12 * sv[0] ? sv[0] / sv[2] : 1e12;
            if (ratio > ks->scale_ratio_set[j]) ks->scale_ratio_set[j] = ratio;
            if (ratio > ks->scale_ratio[j]) ks->scale_ratio[j] = ratio, ks->scale_pose[j] = (int32_t)pose_set, ks->scale_time[j] = (float)time;
            check_pose_stat* ps = &ks->scale_poses[pose_set + 1];
            if (isnan(ps->value) || ratio > ps->value) ps->value = ratio, ps->time = pose_set < 0 ? NAN : time;
        }
    }
}

/* Smallest singular value of Σ wᵢRᵢ over the importer's kept influences. */
static double vertex_retention(const check_skin_state* ks, const sw_model_primitive* p, size_t v, int* out_influences) {
    size_t n = (size_t)p->influence_count;
    const uint16_t* j = &p->joints[v * n];
    const float* w = &p->weights[v * n];
    m3 sum = {{{0}}};
    int used = 0;
    for (size_t e = 0; e < n; e++) {
        if (!(w[e] > 0.0f)) continue;
        used++;
        const m3* rot = &ks->rotations[j[e]];
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++) sum.m[r][c] += w[e] * rot->m[r][c];
    }
    *out_influences = used;
    if (used < 2) return 2.0;
    double sv[3];
    m3_singular_values(&sum, sv);
    return sv[2];
}

static void pose_targets(check_state* s, int64_t pose_set, double time) {
    for (size_t t = 0; t < s->target_count; t++) {
        check_target* g = &s->targets[t];
        if (!g->posable) continue;
        const sw_model_primitive* p = g->prim;
        const check_skin_state* ks = &s->skins[g->skin];
        for (size_t v = 0; v < p->vertex_count; v++) {
            int influences;
            double ret = vertex_retention(ks, p, v, &influences);
            if (influences < 2) continue;
            if (ret < g->retention_set[v]) g->retention_set[v] = (float)ret;
            if (ret < g->retention[v]) g->retention[v] = (float)ret, g->retention_pose[v] = (int32_t)pose_set, g->retention_time[v] = (float)time;
            check_pose_stat* ps = &g->retention_poses[pose_set + 1];
            if (isnan(ps->value) || ret < ps->value) ps->value = ret, ps->time = pose_set < 0 ? NAN : time;
            if (ret < g->worst_retention) {
                /* the two largest weights, and how far apart their joints turned */
                size_t n = (size_t)p->influence_count, first = n, second = n;
                const float* w = &p->weights[v * n];
                for (size_t e = 0; e < n; e++) {
                    if (!(w[e] > 0.0f)) continue;
                    if (first == n || w[e] > w[first]) second = first, first = e;
                    else if (second == n || w[e] > w[second]) second = e;
                }
                uint16_t ja = p->joints[v * n + first], jb = p->joints[v * n + second];
                g->worst_retention = ret, g->worst_vertex = (int64_t)v, g->worst_pose = pose_set, g->worst_time = time;
                g->worst_joint_a = ja, g->worst_joint_b = jb;
                g->worst_weight_a = w[first], g->worst_weight_b = w[second];
                g->worst_angle = m3_angle_between(&ks->rotations[ja], &ks->rotations[jb]);
            }
        }
        for (size_t k = 0; k < g->truncated_count; k++) {
            double bind[3];
            size_t v = g->truncated_vertices[k];
            for (int c = 0; c < 3; c++) bind[c] = p->positions[v * 3 + (size_t)c];
            double d[3] = {0, 0, 0};
            for (size_t e = g->truncated_offsets[k]; e < g->truncated_offsets[k + 1]; e++) {
                double q[3];
                apply34(&ks->matrices[g->truncated_joints[e]], bind, q);
                for (int c = 0; c < 3; c++) d[c] += g->truncated_deltas[e] * q[c];
            }
            double error = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
            /* round-off of two sums of the same matrices is no error */
            if (error < 1e-9 * (g->diagonal + 1.0)) error = 0.0;
            if (error > g->truncated_error[k])
                g->truncated_error[k] = error, g->truncated_pose[k] = (int32_t)pose_set, g->truncated_time[k] = (float)time;
            check_pose_stat* ps = &g->truncated_poses[pose_set + 1];
            if (isnan(ps->value) || error > ps->value) ps->value = error, ps->time = pose_set < 0 ? NAN : time;
        }
    }
}

static void pose_set_begin(check_state* s) {
    for (size_t t = 0; t < s->target_count; t++) {
        check_target* g = &s->targets[t];
        if (!g->posable) continue;
        for (size_t v = 0; v < g->prim->vertex_count; v++) g->retention_set[v] = 2.0f;
    }
    for (size_t k = 0; k < s->a->skin_count; k++)
        for (size_t j = 0; j < s->a->skins[k].joint_count; j++) s->skins[k].scale_ratio_set[j] = 1.0;
}

static void pose_set_end(check_state* s, int64_t pose_set) {
    for (size_t t = 0; t < s->target_count; t++) {
        check_target* g = &s->targets[t];
        if (!g->posable) continue;
        size_t below = 0;
        for (size_t v = 0; v < g->prim->vertex_count; v++) below += g->retention_set[v] < s->threshold;
        g->retention_poses[pose_set + 1].count = below;
        g->truncated_poses[pose_set + 1].count = g->truncated_count;
    }
    for (size_t k = 0; k < s->a->skin_count; k++) {
        size_t scaled = 0;
        for (size_t j = 0; j < s->a->skins[k].joint_count; j++) scaled += s->skins[k].scale_ratio_set[j] - 1.0 > CHECK_SCALE_TOLERANCE;
        s->skins[k].scale_poses[pose_set + 1].count = scaled;
    }
}

static int compare_floats(const void* x, const void* y) {
    float a = *(const float*)x, b = *(const float*)y;
    return (a > b) - (a < b);
}

/* Times to sample a clip: every 1/30 s from 0 to its end, and every key
   time; at most CHECK_MAX_TIMES, evenly thinned. *out is malloc'd. */
static bool clip_times(const sw_clip* clip, float** out, size_t* out_count) {
    double duration = clip->duration > 0.0f ? clip->duration : 0.0;
    size_t steps = (size_t)ceil(duration * CHECK_SAMPLE_RATE_HZ - 1e-9);
    if (steps > CHECK_MAX_TIMES) steps = CHECK_MAX_TIMES;
    size_t keys = 0;
    for (size_t t = 0; t < clip->track_count; t++)
        if (t == 0 || clip->tracks[t].times != clip->tracks[t - 1].times) keys += clip->tracks[t].key_count;
    float* times = malloc((steps + 1 + keys) * sizeof *times);
    if (!times) return false;
    size_t n = 0;
    for (size_t i = 0; i <= steps; i++) times[n++] = steps ? (float)(duration * (double)i / (double)steps) : 0.0f;
    for (size_t t = 0; t < clip->track_count; t++)
        if (t == 0 || clip->tracks[t].times != clip->tracks[t - 1].times)
            for (size_t k = 0; k < clip->tracks[t].key_count; k++) times[n++] = clip->tracks[t].times[k];
    qsort(times, n, sizeof *times, compare_floats);
    size_t unique = 0;
    for (size_t i = 0; i < n; i++)
        if (unique == 0 || times[i] - times[unique - 1] > 1e-6f) times[unique++] = times[i];
    if (unique > CHECK_MAX_TIMES) {
        for (size_t i = 0; i < CHECK_MAX_TIMES; i++)
            times[i] = times[(size_t)((double)i * (double)(unique - 1) / (CHECK_MAX_TIMES - 1) + 0.5)];
        unique = CHECK_MAX_TIMES;
    }
    *out = times, *out_count = unique;
    return true;
}

/* The rest pose, then every animation. False (with `diag`) on failure. */
static bool run_poses(check_state* s, sw_diag* diag) {
    const sw_model* a = s->a;
    pose_set_begin(s);
    sw_pose_rest(a, &s->pose);
    sw_pose_update(a, &s->pose);
    pose_skins(s, -1, NAN);
    pose_targets(s, -1, NAN);
    pose_set_end(s, -1);
    for (size_t i = 0; i < a->animation_count; i++) {
        const sw_clip* clip = &a->animations[i];
        float* times;
        size_t count;
        if (!clip_times(clip, &times, &count)) {
            sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory");
            return false;
        }
        pose_set_begin(s);
        for (size_t k = 0; k < count; k++) {
            /* Key times and an even grid, as written: no wrapping. */
            if (sw_pose_evaluate(a, clip, times[k], false, &s->pose, diag) != SW_OK) {
                free(times);
                return false;
            }
            pose_skins(s, (int64_t)i, times[k]);
            pose_targets(s, (int64_t)i, times[k]);
        }
        pose_set_end(s, (int64_t)i);
        free(times);
    }
    return true;
}

/* ---- findings of the poses ------------------------------------------------------------ */

static check_pose_stat* pose_stats_copy(const check_pose_stat* p, size_t n) {
    check_pose_stat* copy = malloc(n * sizeof *copy);
    if (copy) memcpy(copy, p, n * sizeof *copy);
    return copy;
}

/* " (by animation: twist 1365, bend 1200)" for the pose sets with a count. */
static void message_by_animation(check_finding* f, const sw_model* a, const check_pose_stat* poses, size_t sets) {
    size_t listed = 0;
    for (size_t i = 0; i < sets; i++) {
        if (!poses[i].count) continue;
        if (listed == 8) {
            message_add(f, ", ...");
            break;
        }
        if (i == 0) message_add(f, "%srest pose %zu", listed ? ", " : "; by pose: ", poses[i].count);
        else if (a->animations[i - 1].name)
            message_add(f, "%s\"%s\" %zu", listed ? ", " : "; by pose: ", a->animations[i - 1].name, poses[i].count);
        else message_add(f, "%sanimation %zu %zu", listed ? ", " : "; by pose: ", i - 1, poses[i].count);
        listed++;
    }
}

static void report_targets(check_state* s, check_report* r) {
    const sw_model* a = s->a;
    for (size_t t = 0; t < s->target_count; t++) {
        check_target* g = &s->targets[t];
        if (!g->posable) continue;
        const sw_model_primitive* p = g->prim;
        check_finding* f;
        if (g->truncated_count && (f = finding_add(r, CHECK_WARNING, "too_many_influences"))) {
            double worst = 0.0;
            for (size_t k = 0; k < g->truncated_count; k++) {
                check_example e = example(g->truncated_vertices[k], -1, g->truncated_error[k]);
                e.animation = g->truncated_pose[k], e.time = g->truncated_time[k];
                worst_add(&f->worst, g->truncated_error[k], e);
                if (g->truncated_error[k] > worst) worst = g->truncated_error[k];
            }
            f->mesh = (int64_t)g->mesh, f->primitive = (int64_t)g->prim_index, f->skin = (int64_t)g->skin;
            f->count = g->truncated_count, f->value = worst;
            f->poses = pose_stats_copy(g->truncated_poses, s->pose_sets);
            const check_example* e = &f->worst.examples[0];
            message_add(f, "mesh %zu primitive %zu (skin %zu): %s more than %d influences; keeping the %d largest moves "
                           "them by up to %.4g (%.3g %% of the mesh size; worst: vertex %lld",
                        g->mesh, g->prim_index, g->skin, vertices_have(g->truncated_count).s, s->max_influences,
                        s->max_influences,
                        worst, g->diagonal > 0.0 ? 100.0 * worst / g->diagonal : 0.0, (long long)e->vertex);
            message_pose(f, a, e->animation, e->time);
            message_add(f, "; %.4g at the rest pose)", g->truncated_poses[0].value);
        }
        size_t below = 0;
        for (size_t v = 0; v < p->vertex_count; v++) below += g->retention[v] < s->threshold;
        if (below && (f = finding_add(r, CHECK_WARNING, "lbs_volume_loss"))) {
            /* the worst vertex leads, with its two main joints */
            check_example lead = example(g->worst_vertex, g->worst_joint_a, g->worst_retention);
            lead.other_joint = g->worst_joint_b, lead.animation = g->worst_pose, lead.time = g->worst_time;
            worst_add(&f->worst, INFINITY, lead);
            for (size_t v = 0; v < p->vertex_count; v++) {
                if (!(g->retention[v] < s->threshold) || (int64_t)v == g->worst_vertex) continue;
                check_example e = example((int64_t)v, -1, g->retention[v]);
                e.animation = g->retention_pose[v], e.time = g->retention_time[v];
                worst_add(&f->worst, 1.0 - g->retention[v], e);
            }
            f->mesh = (int64_t)g->mesh, f->primitive = (int64_t)g->prim_index, f->skin = (int64_t)g->skin;
            f->count = below, f->value = g->worst_retention;
            f->poses = pose_stats_copy(g->retention_poses, s->pose_sets);
            double pair_w = g->worst_weight_a / (g->worst_weight_a + g->worst_weight_b);
            message_add(f, "mesh %zu primitive %zu (skin %zu): linear blend skinning keeps less than %.3g of the radius "
                           "at %s (worst: vertex %lld, %.4g",
                        g->mesh, g->prim_index, g->skin, s->threshold,
                        counted(below, "vertex", "vertices", NULL, NULL).s, (long long)g->worst_vertex,
                        g->worst_retention);
            message_pose(f, a, g->worst_pose, g->worst_time);
            message_add(f, ", weights %.3g on %s and %.3g on %s, %.1f degrees apart; seed 000's formula for the two: "
                           "%.4g)",
                        g->worst_weight_a, joint_label(a, g->skin, g->worst_joint_a).s, g->worst_weight_b,
                        joint_label(a, g->skin, g->worst_joint_b).s,
                        g->worst_angle * 180.0 / SW_PI, sw_lbs_retention(pair_w, g->worst_angle));
            message_by_animation(f, a, f->poses, s->pose_sets);
        }
    }
}

/* How far skin matrix `m` moves the corners of a box, relative to `ref`,
   as a fraction of the box's diagonal. */
static double box_deviation(const sw_mat34* m, const sw_mat34* ref, const double lo[3], const double hi[3],
                            double diagonal) {
    double moved = 0.0;
    for (int corner = 0; corner < 8; corner++) {
        double c[3] = {corner & 1 ? hi[0] : lo[0], corner & 2 ? hi[1] : lo[1], corner & 4 ? hi[2] : lo[2]}, q[3], e[3];
        apply34(m, c, q);
        apply34(ref, c, e);
        moved = fmax(moved, sqrt((q[0] - e[0]) * (q[0] - e[0]) + (q[1] - e[1]) * (q[1] - e[1]) +
                                 (q[2] - e[2]) * (q[2] - e[2])));
    }
    return moved / diagonal;
}

/* Inverse bind matrices against the rest pose. When the rest pose is the
   bind pose every skin matrix Wᵢ·IBMᵢ is the same at the rest pose: the
   identity when the IBMs invert the joints' world transforms, the skinned
   node's world transform when they invert the joints' transforms relative
   to that node (exporters write both), or some other transform shared by
   every joint (the skinned mesh is then placed by it: a note). Joints that
   disagree with the reference (of these, the one most joints match; the
   identity, then the node's transform, on ties) deform the mesh before any
   animation plays: a warning. */
static void report_bind_pose(const check_state* s, check_report* r, size_t k, const sw_mat34* rest,
                             const sw_mat34* rest_world) {
    const sw_model* a = s->a;
    const sw_model_skin* skin = &a->skins[k];
    const check_skin_state* ks = &s->skins[k];
    double lo[3], hi[3], diagonal = 0.0;
    for (int c = 0; c < 3; c++) {
        lo[c] = ks->has_bounds ? ks->bounds_min[c] : -0.5;
        hi[c] = ks->has_bounds ? ks->bounds_max[c] : 0.5;
        diagonal += (hi[c] - lo[c]) * (hi[c] - lo[c]);
    }
    diagonal = sqrt(diagonal);
    if (!(diagonal > 0.0)) diagonal = 1.0;
    sw_mat34 identity = sw_mat34_identity(), node_world = identity;
    for (size_t n = 0; n < a->node_count; n++)
        if (a->nodes[n].skin == (int32_t)k && a->nodes[n].mesh >= 0) {
            node_world = rest_world[n];
            break;
        }
    /* candidates: identity, node, then each joint's own matrix */
    size_t best_bad = SIZE_MAX, best = 0;
    for (size_t c = 0; c < skin->joint_count + 2 && best_bad > 0; c++) {
        const sw_mat34* ref = c == 0 ? &identity : c == 1 ? &node_world : &rest[c - 2];
        size_t bad = 0;
        for (size_t j = 0; j < skin->joint_count && bad < best_bad; j++)
            bad += box_deviation(&rest[j], ref, lo, hi, diagonal) > CHECK_IBM_TOLERANCE;
        if (bad < best_bad) best_bad = bad, best = c;
    }
    const sw_mat34* ref = best == 0 ? &identity : best == 1 ? &node_world : &rest[best - 2];
    check_worst w = {0};
    double worst = 0.0;
    for (size_t j = 0; j < skin->joint_count; j++) {
        double d = box_deviation(&rest[j], ref, lo, hi, diagonal);
        if (!(d > CHECK_IBM_TOLERANCE)) continue;
        worst_add(&w, d, example(-1, (int64_t)j, d));
        worst = fmax(worst, d);
    }
    check_finding* f;
    if (best_bad == 0 && best >= 2) {
        /* every joint agrees on a transform that is neither: where the mesh goes at rest */
        if (!(f = finding_add(r, CHECK_NOTE, "bind_pose_offset"))) return;
        double moved = box_deviation(ref, &identity, lo, hi, diagonal);
        double from_node = box_deviation(ref, &node_world, lo, hi, diagonal);
        f->skin = (int64_t)k, f->count = skin->joint_count, f->value = fmin(moved, from_node);
        message_add(f, "%s: at the rest pose every joint's skin matrix is one transform that is neither the identity nor "
                       "the skinned node's: the mesh is drawn moved as a whole by %.3g of its size from its bind-space "
                       "positions (%.3g from where its node would put it)",
                    skin_label(a, k).s, moved, from_node);
        return;
    }
    if (!best_bad || !(f = finding_add(r, CHECK_WARNING, "ibm_not_rest_pose"))) return;
    f->skin = (int64_t)k, f->count = best_bad, f->value = worst, f->worst = w, f->joint = w.examples[0].joint;
    message_add(f, "%s: the inverse bind matrices of %zu of %zu joints are not the inverse of their rest-pose world "
                   "transform (worst: %s moves the mesh by %.3g of its size, against %s); the rest pose is not the bind "
                   "pose, so the mesh is deformed before any animation plays",
                skin_label(a, k).s, best_bad, skin->joint_count, joint_label(a, k, f->joint).s, worst,
                best == 0 ? "the identity" : best == 1 ? "the skinned node's world transform"
                                                      : "the transform the other joints share");
}

/* IBM against the rest pose, unused joints, non-uniform scale, unused skins. */
static void report_skins(check_state* s, check_report* r, const sw_mat34* rest_world) {
    const sw_model* a = s->a;
    for (size_t k = 0; k < a->skin_count; k++) {
        const sw_model_skin* skin = &a->skins[k];
        check_skin_state* ks = &s->skins[k];
        check_finding* f;
        if (!ks->used_by_node) {
            if ((f = finding_add(r, CHECK_NOTE, "skin_unused"))) {
                f->skin = (int64_t)k, f->count = skin->joint_count;
                message_add(f, "%s: no node uses it", skin_label(a, k).s);
            }
            continue;
        }
        sw_mat34* rest = malloc(skin->joint_count * sizeof *rest);
        if (!rest) {
            r->out_of_memory = true;
            return;
        }
        for (size_t j = 0; j < skin->joint_count; j++)
            rest[j] = sw_mat34_mul(&rest_world[skin->joints[j]], &skin->inverse_bind[j]);
        report_bind_pose(s, r, k, rest, rest_world);
        free(rest);
        size_t unused = 0;
        check_worst w_unused = {0};
        for (size_t j = 0; j < skin->joint_count; j++)
            if (!ks->joint_used[j]) unused++, worst_add(&w_unused, 0.0, example(-1, (int64_t)j, (double)j));
        if (unused && (f = finding_add(r, CHECK_NOTE, "joint_unused"))) {
            f->skin = (int64_t)k, f->count = unused, f->worst = w_unused;
            message_add(f, "%s: joints that weight no vertex: %zu of %zu (", skin_label(a, k).s, unused, skin->joint_count);
            for (size_t e = 0; e < w_unused.count; e++)
                message_add(f, "%s%s", e ? ", " : "", joint_label(a, k, w_unused.examples[e].joint).s);
            message_add(f, "%s)", unused > w_unused.count ? ", ..." : "");
        }
        size_t scaled = 0;
        check_worst w_scale = {0};
        for (size_t j = 0; j < skin->joint_count; j++) {
            if (!(ks->scale_ratio[j] - 1.0 > CHECK_SCALE_TOLERANCE)) continue;
            scaled++;
            check_example e = example(-1, (int64_t)j, ks->scale_ratio[j]);
            e.animation = ks->scale_pose[j], e.time = ks->scale_time[j];
            worst_add(&w_scale, ks->scale_ratio[j], e);
        }
        if (scaled && (f = finding_add(r, CHECK_WARNING, "non_uniform_scale"))) {
            const check_example* e = &w_scale.examples[0];
            f->skin = (int64_t)k, f->joint = e->joint, f->count = scaled, f->value = e->value, f->worst = w_scale;
            f->poses = pose_stats_copy(ks->scale_poses, s->pose_sets);
            message_add(f, "%s: %s non-uniformly (worst: %s, largest/smallest scale %.4g",
                        skin_label(a, k).s, counted(scaled, "joint", "joints", "scales", "scale").s, joint_label(a, k, e->joint).s, e->value);
            message_pose(f, a, e->animation, e->time);
            message_add(f, "); normals need the inverse transpose (SW_NORMALS_COFACTOR), the blended 3x3 of UE, Unity and "
                           "Godot bends them");
            message_by_animation(f, a, f->poses, s->pose_sets);
        }
    }
}

/* Primitives with JOINTS/WEIGHTS that no node skins. */
static void report_unskinned(const check_state* s, check_report* r) {
    const sw_model* a = s->a;
    for (size_t m = 0; m < a->mesh_count; m++) {
        bool skinned = false;
        for (size_t n = 0; n < a->node_count && !skinned; n++) skinned = a->nodes[n].mesh == (int32_t)m && a->nodes[n].skin >= 0;
        if (skinned) continue;
        for (size_t p = 0; p < a->meshes[m].primitive_count; p++) {
            check_finding* f;
            if (!a->meshes[m].primitives[p].influence_count) continue;
            if (!(f = finding_add(r, CHECK_NOTE, "influences_unused"))) return;
            f->mesh = (int64_t)m, f->primitive = (int64_t)p, f->count = a->meshes[m].primitives[p].vertex_count;
            message_add(f, "mesh %zu primitive %zu: has JOINTS/WEIGHTS, but no node gives its mesh a skin", m, p);
        }
    }
}

/* ---- output ----------------------------------------------------------------------------- */

/* The text after "name: " when `text` starts with the model's file name
   (the importer's messages do). */
static const char* without_name(const char* text, const char* model) {
    const char* slash = strrchr(model, '/');
    const char* base = slash ? slash + 1 : model;
    size_t n = strlen(base);
    if (strncmp(text, base, n) == 0 && text[n] == ':' && text[n + 1] == ' ') return text + n + 2;
    return text;
}

static int exit_status(const check_report* r) {
    return r->by_severity[CHECK_ERROR] ? 2 : r->by_severity[CHECK_WARNING] ? 1 : 0;
}

static void print_text(const char* model, const check_report* r) {
    for (size_t i = 0; i < r->count; i++) {
        const check_finding* f = &r->items[i];
        printf("%s: %s: %s [%s]\n", model, severity_names[f->severity], f->message, f->code);
    }
    size_t e = r->by_severity[CHECK_ERROR], w = r->by_severity[CHECK_WARNING], n = r->by_severity[CHECK_NOTE];
    printf("%s: %zu error%s, %zu warning%s, %zu note%s\n", model, e, e == 1 ? "" : "s", w, w == 1 ? "" : "s", n,
           n == 1 ? "" : "s");
}

static void json_index(json_writer* w, const char* key, int64_t v) {
    json_key(w, key);
    if (v < 0) json_null(w);
    else json_int(w, (long long)v);
}

static void json_number(json_writer* w, const char* key, double v) {
    json_key(w, key);
    if (isnan(v)) json_null(w);
    else json_float(w, v);
}

static void print_json(json_writer* w, const char* model, const check_report* r, const sw_model* a,
                       int max_influences, double threshold) {
    json_begin_object(w);
    json_key(w, "model"), json_string(w, model);
    json_key(w, "max_influences"), json_int(w, max_influences);
    json_key(w, "retention_threshold"), json_double(w, threshold);
    json_key(w, "sample_rate_hz"), json_double(w, CHECK_SAMPLE_RATE_HZ);
    json_key(w, "exit_status"), json_int(w, exit_status(r));
    json_key(w, "errors"), json_int(w, (long long)r->by_severity[CHECK_ERROR]);
    json_key(w, "warnings"), json_int(w, (long long)r->by_severity[CHECK_WARNING]);
    json_key(w, "notes"), json_int(w, (long long)r->by_severity[CHECK_NOTE]);
    json_key(w, "findings"), json_begin_array(w);
    for (size_t i = 0; i < r->count; i++) {
        const check_finding* f = &r->items[i];
        json_newline(w);
        json_begin_object(w);
        json_key(w, "severity"), json_string(w, severity_names[f->severity]);
        json_key(w, "code"), json_string(w, f->code);
        json_key(w, "message"), json_string(w, f->message);
        json_index(w, "mesh", f->mesh);
        json_index(w, "primitive", f->primitive);
        json_index(w, "skin", f->skin);
        json_index(w, "joint", f->joint);
        json_key(w, "count"), json_int(w, (long long)f->count);
        json_number(w, "value", f->value);
        json_key(w, "examples"), json_begin_array(w);
        for (size_t e = 0; e < f->worst.count; e++) {
            const check_example* x = &f->worst.examples[e];
            json_begin_object(w);
            json_index(w, "vertex", x->vertex);
            json_index(w, "joint", x->joint);
            json_index(w, "other_joint", x->other_joint);
            json_number(w, "value", x->value);
            json_index(w, "animation", isnan(x->time) ? -1 : x->animation);
            json_number(w, "time", x->time);
            json_end_object(w);
        }
        json_end_array(w);
        if (f->poses && a) {
            json_key(w, "poses"), json_begin_array(w);
            for (size_t p = 0; p < 1 + a->animation_count; p++) {
                json_begin_object(w);
                json_index(w, "animation", (int64_t)p - 1);
                json_key(w, "name"), json_string(w, p ? a->animations[p - 1].name : NULL);
                json_key(w, "count"), json_int(w, (long long)f->poses[p].count);
                json_number(w, "value", f->poses[p].value);
                json_number(w, "time", f->poses[p].time);
                json_end_object(w);
            }
            json_end_array(w);
        }
        json_end_object(w);
    }
    json_end_array(w);
    json_end_object(w);
    json_newline(w);
}

/* ---- the command -------------------------------------------------------------------------- */

/* Everything about a loaded asset. False when out of memory or a clip
   cannot be sampled (`diag` says why). */
static bool check_asset(const sw_model* a, int max_influences, double threshold, check_report* r, sw_diag* diag) {
    for (size_t i = 0; i < a->warning_count; i++) {
        check_finding* f = finding_add(r, CHECK_WARNING, "import");
        if (f) message_add(f, "%s", without_name(a->warnings[i], a->path));
    }
    for (size_t m = 0; m < a->mesh_count; m++)
        for (size_t p = 0; p < a->meshes[m].primitive_count; p++) check_raw_influences(r, a, m, p);
    check_state s = {.a = a, .max_influences = max_influences, .threshold = threshold};
    bool ok = prepare(&s, r) || (sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory"), false);
    if (ok) ok = run_poses(&s, diag);
    if (ok) {
        /* the rest pose's world matrices, for the IBM check */
        sw_pose_rest(a, &s.pose);
        sw_pose_update(a, &s.pose);
        report_targets(&s, r);
        report_skins(&s, r, s.pose.world);
        report_unskinned(&s, r);
        if (r->out_of_memory) ok = false, sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory");
    }
    state_free(&s);
    return ok;
}

int cmd_check(tool_args* args) {
    const char* model = NULL;
    bool json = false;
    long max_influences = 4;
    double threshold = 0.7;
    sw_gltf_options options = {.keep_raw_influences = true};
    tool_error err;
    for (const char* arg; (arg = tool_args_next(args));) {
        const char* v;
        if (tool_args_is_help(arg)) return tool_print_help(args);
        if (tool_args_flag(arg, "--json")) json = true;
        else if (tool_args_flag(arg, "--allow-outside-paths")) options.allow_outside_paths = true;
        else if (tool_args_option(args, arg, "--max-influences")) {
            if (!(v = tool_args_value(args, "--max-influences", &err)) ||
                !tool_parse_int("--max-influences", v, 1, CHECK_MAX_INFLUENCES_LIMIT, &max_influences, &err))
                return tool_usage(args, "%s", err.message);
        } else if (tool_args_option(args, arg, "--retention-threshold")) {
            if (!(v = tool_args_value(args, "--retention-threshold", &err)) ||
                !tool_parse_double("--retention-threshold", v, 0.0, 1.0, &threshold, &err))
                return tool_usage(args, "%s", err.message);
        } else if (arg[0] == '-' && arg[1]) {
            return tool_usage(args, "unknown option '%s'", arg);
        } else if (model) {
            return tool_usage(args, "one MODEL only ('%s' and '%s')", model, arg);
        } else {
            model = arg;
        }
    }
    if (!model) return tool_usage(args, "no MODEL given");

    check_report report = {0};
    sw_model* asset = NULL;
    sw_diag diag;
    int status;
    if (sw_gltf_load_file(model, &options, &asset, &diag) != SW_OK) {
        check_finding* f = finding_add(&report, CHECK_ERROR, "load");
        if (f) message_add(f, "%s", without_name(diag.message, model));
    } else if (!check_asset(asset, (int)max_influences, threshold, &report, &diag)) {
        tool_fail(args, "%s: %s", model, diag.message);
        report_free(&report);
        sw_model_free(asset);
        return 2;
    }
    if (report.out_of_memory) {
        report_free(&report);
        sw_model_free(asset);
        tool_fail(args, "out of memory");
        return 2;
    }
    bool written = true;
    if (json) {
        json_writer w;
        json_writer_init(&w, json_file_sink, stdout);
        print_json(&w, model, &report, asset, (int)max_influences, threshold);
        written = json_writer_finish(&w);
    } else {
        print_text(model, &report);
    }
    status = exit_status(&report);
    report_free(&report);
    sw_model_free(asset);
    if (fflush(stdout) != 0 || ferror(stdout) || !written) {
        tool_fail(args, "cannot write to standard output");
        return 2;
    }
    return status;
}
