/* sinew/check.h — what a model leaves to its importer, as findings: the
   checks behind `sinew check`, as data.

       sw_check_report* report = NULL;
       sw_diag diag;
       if (sw_check_file("hero.glb", NULL, NULL, &report, &diag) != SW_OK) {
           fprintf(stderr, "%s\n", diag.message);          // out of memory, or a clip that cannot be sampled
           return;
       }
       for (size_t i = 0; i < report->finding_count; i++) {
           const sw_check_finding* f = &report->findings[i];
           printf("%s: %s [%s]\n", sw_check_severity_str(f->severity), f->message, f->id);
       }
       sw_check_report_free(report);

   UE, Unity and Godot neither renormalise weights nor fix normals when they
   skin: they trust what their importer hands them. The checks read the
   file's influences as stored, pose every skin at the rest pose and over
   every animation, and measure what an engine would draw: the position
   error of truncating influences, LBS volume loss, non-uniform joint scale
   (which the engines' blended-3×3 normals get wrong), inverse bind
   matrices that disagree with the rest pose, images that cannot be read.

   WHAT IS CHECKED (code, severity; the code's string is its stable id):
     load                    error    sw_check_file only: the importer refused
                                      the file (its message)
     model_invalid           error    the model breaks a promise of model.h
                                      that the checks and pose.h rely on (an
                                      index out of range, a child before its
                                      parent, a missing array); only the first
                                      is reported and nothing else is checked.
                                      Never for a model an importer made.
     weights_negative        error    (raw) vertices with a weight < 0
     joint_out_of_range      error    vertices with a joint index >= the skin's
                                      joint count, whatever its weight
     joint_duplicate         error    (raw) vertices naming one joint twice,
                                      both times with a weight > 0
     extent_absurd           error    positions that are not finite or lie
                                      more than SW_MODEL_MAX_EXTENT (1e7
                                      model units; model.h says why) from
                                      the origin on an axis: as stored (the
                                      primitive's bounds too), skinned at
                                      rest and over every animation, and,
                                      unskinned, their bounds' corners
                                      placed by their node at rest
     skin_joint_duplicate    error    skins listing one node twice in their
                                      joints (glTF's uniqueItems)
     weights_not_normalised  warning  (raw) weights summing to 1 ± more than 0.001
     vertex_without_weights  warning  (raw) vertices whose weights are all 0
     joint_zero_weight       warning  (raw) a joint other than 0 with weight 0
     too_many_influences     warning  vertices with more than max_influences
                                      weights > 0, and how far keeping the
                                      largest (renormalised) moves them, at
                                      rest and over every animation
     lbs_volume_loss         warning  vertices where linear blend skinning
                                      keeps less than retention_threshold of
                                      a limb's radius in some pose
     ibm_not_rest_pose       warning  joints whose inverse bind matrix does not
                                      invert their rest-pose world transform
                                      (absolute, or relative to the skinned
                                      node): the mesh is deformed at rest
     joint_outside_scene     warning  joints of a skin that are not in the
                                      default scene's trees while a node it
                                      skins is: an engine that instantiates
                                      the scene leaves them out
     non_uniform_scale       warning  used joints whose skin matrix scales
                                      non-uniformly (singular values more than
                                      0.1 % apart) at rest or in an animation
     import                  warning  a warning of the importer, verbatim
     influences_dropped      warning  vertices that had more bone weights than
                                      the importer keeps (Assimp formats:
                                      model->import_dropped_vertices); value is
                                      the largest weight dropped from one
                                      vertex (the importer's own warning line
                                      is an `import` finding too)
     helper_nodes_collapsed  note     FBX pivot helper nodes the importer folded
                                      into the joints they lead to
                                      (model->import_collapsed_nodes)
     humanoid_bone_missing   warning  a VRM avatar lacks bones VRM 1.0 requires
                                      (hips, spine, head, upper/lower leg,
                                      foot, upper/lower arm, hand); count is
                                      how many, the message names them
     vrm_invalid             error    the VRM extension cannot be read
                                      (sw_vrm_read's message)
     image_unreadable        warning  an image that is missing or cannot be
                                      decoded (sw_model_decode_image's reason)
     bind_pose_offset        note     every joint agrees at rest, on a
                                      transform that is neither the identity
                                      nor the skinned node's
     joint_unused            note     joints no vertex weights
     skin_unused             note     skins no node uses
     influences_unused       note     primitives with influences no node skins
   `sinew check --help` explains each one at length.

   RAW INFLUENCES: the checks marked (raw) read JOINTS_n/WEIGHTS_n as the
   file stores them, before the importer drops, truncates and renormalises
   them: load with keep_raw_influences (sw_import_options: each importer's
   options have it; sw_check_file sets it for every format).
   Without them those checks find nothing, and the other influence checks
   read the importer's influences (at most 8 per vertex, renormalised).

   WHERE: each finding names what it is about with indices, -1 where they
   do not apply: mesh and primitive; skin, and joint as an index into that
   skin's joints; node as the node's index in the file (source_index, so
   it matches the file, not the model's parents-first order); animation;
   image (set for image_unreadable; node for model_invalid, the two
   bind-pose codes and joint_outside_scene, whose reference is the skinned
   node, for skin_joint_duplicate (the repeated node) and for the
   extent_absurd of an unskinned primitive (the node placing it)).
   Vertices in examples index the primitive's vertices; a
   skin_joint_duplicate example's value is the joint index the node had
   first.

   BOUNDED WORK: the checks take time linear in the model's size (times
   the poses sampled, and the skins a mesh is drawn with) and
   O(joints · log joints) per skin, whatever the hierarchy. The reference
   of ibm_not_rest_pose (the transform most joints share) is searched
   exactly, but with at most max(256 · joints, 2^23) comparisons: a skin
   made to defeat the search (thousands of joints, each just beyond the
   tolerance of the others) gets the best reference found by then, and
   its message says so.

   ORDER: the importer's warnings, then per primitive the raw-influence
   findings and the stored extents, per skinned primitive the joint
   ranges, then the posed measures (skinned extents last), the extents of
   unskinned primitives placed by their nodes, the skins (repeated
   joints, joints outside the scene, then the rest), unskinned
   influences, and the images. A report is deterministic: the same model
   and options give the same report.

   MEMORY: a report is one object the library allocates; release it with
   sw_check_report_free (never free()). It owns everything it points to
   (copies of the animation names included), so it outlives the model.
   The model is only read; any number of checks may run at once on
   different threads, on one model or several. */
#ifndef SINEW_CHECK_H
#define SINEW_CHECK_H

#include "sinew/base.h"
#include "sinew/import.h"
#include "sinew/model.h"

SW_EXTERN_C_BEGIN

#define SW_CHECK_MAX_EXAMPLES 5     /* examples kept per finding, worst first */
#define SW_CHECK_MESSAGE_SIZE 768   /* a finding's message, NUL included (longer ones are cut) */
#define SW_CHECK_MAX_INFLUENCES 64  /* the largest max_influences */

typedef enum sw_check_severity {
    SW_CHECK_NOTE = 0,  /* worth knowing; does not count against the model */
    SW_CHECK_WARNING,   /* an engine will draw something other than intended */
    SW_CHECK_ERROR,     /* the file breaks glTF, or cannot be loaded */
    SW_CHECK_SEVERITY_COUNT
} sw_check_severity;

/* Every code, its stable id and its severity, in one list. New codes are
   appended, so a code's number (and its SW_CHECK_BIT) never changes. */
#define SW_CHECK_CODE_LIST(X)                                                       \
    X(SW_CHECK_LOAD, "load", SW_CHECK_ERROR)                                        \
    X(SW_CHECK_MODEL_INVALID, "model_invalid", SW_CHECK_ERROR)                      \
    X(SW_CHECK_WEIGHTS_NEGATIVE, "weights_negative", SW_CHECK_ERROR)                \
    X(SW_CHECK_JOINT_OUT_OF_RANGE, "joint_out_of_range", SW_CHECK_ERROR)            \
    X(SW_CHECK_JOINT_DUPLICATE, "joint_duplicate", SW_CHECK_ERROR)                  \
    X(SW_CHECK_WEIGHTS_NOT_NORMALISED, "weights_not_normalised", SW_CHECK_WARNING)  \
    X(SW_CHECK_VERTEX_WITHOUT_WEIGHTS, "vertex_without_weights", SW_CHECK_WARNING)  \
    X(SW_CHECK_JOINT_ZERO_WEIGHT, "joint_zero_weight", SW_CHECK_WARNING)            \
    X(SW_CHECK_TOO_MANY_INFLUENCES, "too_many_influences", SW_CHECK_WARNING)        \
    X(SW_CHECK_LBS_VOLUME_LOSS, "lbs_volume_loss", SW_CHECK_WARNING)                \
    X(SW_CHECK_IBM_NOT_REST_POSE, "ibm_not_rest_pose", SW_CHECK_WARNING)            \
    X(SW_CHECK_NON_UNIFORM_SCALE, "non_uniform_scale", SW_CHECK_WARNING)            \
    X(SW_CHECK_IMPORT, "import", SW_CHECK_WARNING)                                  \
    X(SW_CHECK_IMAGE_UNREADABLE, "image_unreadable", SW_CHECK_WARNING)              \
    X(SW_CHECK_BIND_POSE_OFFSET, "bind_pose_offset", SW_CHECK_NOTE)                 \
    X(SW_CHECK_JOINT_UNUSED, "joint_unused", SW_CHECK_NOTE)                         \
    X(SW_CHECK_SKIN_UNUSED, "skin_unused", SW_CHECK_NOTE)                           \
    X(SW_CHECK_INFLUENCES_UNUSED, "influences_unused", SW_CHECK_NOTE)              \
    X(SW_CHECK_EXTENT_ABSURD, "extent_absurd", SW_CHECK_ERROR)                      \
    X(SW_CHECK_SKIN_JOINT_DUPLICATE, "skin_joint_duplicate", SW_CHECK_ERROR)        \
    X(SW_CHECK_JOINT_OUTSIDE_SCENE, "joint_outside_scene", SW_CHECK_WARNING) \
    X(SW_CHECK_INFLUENCES_DROPPED, "influences_dropped", SW_CHECK_WARNING)          \
    X(SW_CHECK_HELPER_NODES_COLLAPSED, "helper_nodes_collapsed", SW_CHECK_NOTE) \
    X(SW_CHECK_HUMANOID_BONE_MISSING, "humanoid_bone_missing", SW_CHECK_WARNING)    \
    X(SW_CHECK_VRM_INVALID, "vrm_invalid", SW_CHECK_ERROR)

typedef enum sw_check_code {
#define SW__CHECK_CODE_ENUM(name, id, severity) name,
    SW_CHECK_CODE_LIST(SW__CHECK_CODE_ENUM)
#undef SW__CHECK_CODE_ENUM
    SW_CHECK_CODE_COUNT
} sw_check_code;

/* For sw_check_options.disabled. */
#define SW_CHECK_BIT(code) ((uint64_t)1 << (code))

/* The code's id ("too_many_influences"); "unknown" outside the list. */
const char* sw_check_code_str(sw_check_code code);
/* The severity every finding with this code has (SW_CHECK_ERROR outside the list). */
sw_check_severity sw_check_code_severity(sw_check_code code);
/* "note", "warning", "error"; "unknown" outside the list. */
const char* sw_check_severity_str(sw_check_severity severity);

/* Zero means default for every field. */
typedef struct sw_check_options {
    /* Influences an engine keeps per vertex, 1..SW_CHECK_MAX_INFLUENCES.
       0 = default, 4. */
    int max_influences;
    /* LBS radius retention below which a vertex is a volume-loss hot spot,
       in (0, 1]. 0 = default, 0.7. (A threshold of 0 would flag nothing:
       disable SW_CHECK_LBS_VOLUME_LOSS instead.) */
    double retention_threshold;
    /* Animations are sampled every 1/sample_rate_hz s from 0 to their end,
       and at every key time. 0 = default, 30; at most 1e6. */
    double sample_rate_hz;
    /* Times sampled per animation at most (the union above, evenly thinned
       when longer); >= 2. 0 = default, 2000. */
    size_t max_samples;
    /* SW_CHECK_BIT(code) for each code not to report (load and
       model_invalid are reported regardless). Disabling
       SW_CHECK_IMAGE_UNREADABLE also skips decoding the images (stb_image
       is not hardened against hostile files: model.h). */
    uint64_t disabled;
} sw_check_options;

/* One place a finding was seen. */
typedef struct sw_check_example {
    int64_t vertex;       /* in the primitive, or -1 */
    int64_t joint;        /* in the skin's joints, or -1 */
    int64_t other_joint;  /* the second joint (lbs_volume_loss), or -1 */
    double value;         /* what was measured there, in the finding's `value` terms */
    int64_t animation;    /* -1 with time_s NaN: at rest, or not posed */
    double time_s;        /* NaN: at rest, or not posed */
} sw_check_example;

/* A measured code's numbers for one pose set: the rest pose or one animation. */
typedef struct sw_check_pose_stat {
    size_t count;         /* vertices (joints for non_uniform_scale) flagged in this set */
    double value;         /* the worst measured in this set; NaN = nothing measured */
    double time_s;        /* when; NaN for the rest pose */
} sw_check_pose_stat;

typedef struct sw_check_finding {
    sw_check_code code;
    const char* id;               /* sw_check_code_str(code) (static) */
    sw_check_severity severity;   /* sw_check_code_severity(code) */
    /* where, -1 = not applicable (see WHERE above) */
    int64_t mesh, primitive, skin, joint, node, animation, image;
    /* vertices concerned (for an unskinned primitive placed too far, all
       of its vertices); joints for the joint and skin codes */
    size_t count;
    /* the worst one, NaN = none: the sum furthest from 1, the lowest
       weight, the largest joint index, the summed duplicate weight, the
       joint index with weight 0, the largest position error in model
       units, the lowest retention, the largest IBM error as a fraction of
       the mesh size, the largest singular value ratio, the largest
       coordinate magnitude (infinite when one is not finite) */
    double value;
    /* one line, "WHERE: WHAT", without the file's name or a newline */
    char message[SW_CHECK_MESSAGE_SIZE];
    size_t example_count;         /* <= SW_CHECK_MAX_EXAMPLES */
    sw_check_example examples[SW_CHECK_MAX_EXAMPLES];
    /* measured codes (too_many_influences, lbs_volume_loss,
       non_uniform_scale): 1 + report->animation_count entries, the rest
       pose then each animation; NULL for the others */
    const sw_check_pose_stat* poses;
} sw_check_finding;

typedef struct sw_check_report {
    size_t finding_count;
    const sw_check_finding* findings;
    size_t error_count, warning_count, note_count;
    /* the model's animations (0 when it could not be loaded) and their
       names (copies; an entry is NULL for an unnamed animation) */
    size_t animation_count;
    const char* const* animation_names;
    sw_check_options options;     /* as applied: defaults filled in */
} sw_check_report;

/* Checks a loaded model. `options` may be NULL (defaults). On success
   *out_report holds the findings (possibly none). Fails, with
   *out_report NULL and `diag` saying why, on options out of range
   (SW_ERR_INVALID_ARGUMENT), out of memory, or a clip that pose.h
   cannot sample. A model whose raw influences were not kept is checked
   without the (raw) checks (see RAW INFLUENCES). */
sw_result sw_check_model(const sw_model* model, const sw_check_options* options, sw_check_report** out_report,
                         sw_diag* diag);

/* Loads a file of any format sinew reads (sw_import_file, import.h) and
   checks it. `load_options` may be NULL (defaults);
   keep_raw_influences is forced on for every importer. A file the
   importer refuses is not a failure: the report holds one `load` error
   with the importer's message (without the file's name), and
   animation_count 0. Failures as sw_check_model's. */
sw_result sw_check_file(const char* path, const sw_import_options* load_options, const sw_check_options* options,
                        sw_check_report** out_report, sw_diag* diag);

/* Releases a report and everything it points to; NULL is allowed. */
void sw_check_report_free(sw_check_report* report);

SW_EXTERN_C_END

#endif
