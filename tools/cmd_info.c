/* sinew info — what a glTF file holds: scenes, the node tree, meshes and
   their primitives, skins with an influence histogram, animations,
   materials and how they are shaded, VRM data (meta, humanoid bones,
   expressions, look-at, first person), the humanoid bones found from node
   names for other models, spring bones, node constraints and the loader's
   warnings; as text or as one JSON object. */
#include "anim_file.h"
#include "json_writer.h"
#include "text_escape.h"
#include "tool_common.h"

#include "sinew/gltf.h"
#include "sinew/constraint.h"
#include "sinew/vrm.h"
#include "sinew/retarget.h"
#include "sinew/spring.h"
#include "sinew/toon.h"

#include <stdlib.h>
#include <string.h>

const char cmd_info_help[] =
    "usage: sinew info MODEL [--json] [--tree | --no-tree] [--allow-outside-paths]\n"
    "                  [--anim-file FILE [--bone-map MAP.json] [--retarget]]\n"
    "\n"
    "Loads MODEL (glTF, GLB, VRM, IQM, or FBX, Collada, BVH... through Assimp)\n"
    "and prints what it holds: its format, units and axes as read, scenes, nodes\n"
    "and the node tree (each node's index and name, the skins it is a joint\n"
    "of, its mesh and skin, its humanoid bone and spring chain), meshes and\n"
    "primitives (vertex and index counts, attributes, morph targets), skins\n"
    "(joints and a histogram of influences per vertex: how many vertices\n"
    "have 1, 2, ... non-zero weights), animations (name, time range,\n"
    "channels and their interpolations), materials and their shading (MToon,\n"
    "toon, unlit or PBR metallic-roughness), VRM data (meta, licence,\n"
    "humanoid bone -> node, expressions, look-at, first person), the humanoid\n"
    "bones found from node names for a model that is not a VRM, spring bone\n"
    "chains and colliders, node constraints, and the loader's warnings.\n"
    "\n"
    "A file that cannot be loaded gives one line naming the file and the\n"
    "problem (the JSON path, accessor or node) and exit status 1. Every image\n"
    "is decoded: one that is missing or does not decode is a warning on\n"
    "standard error (the image's index, its uri and the reason); the exit\n"
    "status stays 0.\n"
    "\n"
    "options:\n"
    "  --json                  print one JSON object instead of text\n"
    "  --tree                  list every node of the tree (without it, the\n"
    "                          first 2000, then how many more)\n"
    "  --no-tree               leave the node tree out of the text\n"
    "  --allow-outside-paths   let buffer and image URIs be absolute or leave\n"
    "                          the model's folder through '..'\n"
    "  -h, --help              show this help\n"
    "\n"
    ANIM_FILE_OPTIONS_HELP;

static const char* const mode_names[] = {"points",    "lines",          "line loop",     "line strip",
                                         "triangles", "triangle strip", "triangle fan"};
static const char* const path_names[] = {"translation", "rotation", "scale", "weights"};
static const char* const interp_names[] = {"LINEAR", "LINEAR", "STEP", "CUBICSPLINE"};
static const char* const alpha_names[] = {"OPAQUE", "MASK", "BLEND"};

static const char* mode_name(sw_model_mode m) { return (unsigned)m < 7 ? mode_names[m] : "unknown"; }

static size_t primitive_count(const sw_model_mode mode, size_t n) {
    switch (mode) {
    case SW_MODEL_TRIANGLES: return n / 3;
    case SW_MODEL_TRIANGLE_STRIP:
    case SW_MODEL_TRIANGLE_FAN: return n >= 3 ? n - 2 : 0;
    case SW_MODEL_LINES: return n / 2;
    case SW_MODEL_LINE_STRIP: return n >= 2 ? n - 1 : 0;
    case SW_MODEL_LINE_LOOP: return n >= 2 ? n : 0;
    default: return n;
    }
}

/* Triangles (or lines, points) the primitive draws. */
static size_t element_count(const sw_model_primitive* p) {
    return primitive_count(p->mode, p->indices ? p->index_count : p->vertex_count);
}

/* Histogram of non-zero weights per vertex over every primitive drawn with
   this skin (each mesh counted once). out has SW_MODEL_MAX_INFLUENCES + 1 bins. */
static void influence_histogram(const sw_model* a, size_t skin, size_t* out) {
    memset(out, 0, (SW_MODEL_MAX_INFLUENCES + 1) * sizeof *out);
    for (size_t m = 0; m < a->mesh_count; ++m) {
        bool used = false;
        for (size_t n = 0; n < a->node_count && !used; ++n)
            used = a->nodes[n].mesh == (int32_t)m && a->nodes[n].skin == (int32_t)skin;
        if (!used) continue;
        for (size_t p = 0; p < a->meshes[m].primitive_count; ++p) {
            const sw_model_primitive* prim = &a->meshes[m].primitives[p];
            for (size_t v = 0; v < prim->vertex_count && prim->influence_count; ++v) {
                int nonzero = 0;
                for (int k = 0; k < prim->influence_count; ++k)
                    nonzero += prim->weights[v * (size_t)prim->influence_count + (size_t)k] > 0.0f;
                out[nonzero]++;
            }
        }
    }
}

/* Channels per interpolation, indexed by sw_interpolation (DEFAULT folded into LINEAR). */
static void interpolation_counts(const sw_clip* clip, size_t out[4]) {
    memset(out, 0, 4 * sizeof *out);
    for (size_t t = 0; t < clip->track_count; ++t) {
        sw_interpolation i = clip->tracks[t].interpolation;
        out[i == SW_INTERP_DEFAULT ? SW_INTERP_LINEAR : i]++;
    }
}

static const char* or_dash(const char* s) { return s ? s : "-"; }

/* ---- text ------------------------------------------------------------------ */

/* Names, URIs and messages come from the file: printed through
   text_escape_print(), so that none can add a line or reach the terminal
   (see text_escape.h). */
static void print_escaped(const char* s) { text_escape_print(stdout, s); }

/* `"NAME"`, or `"-"` for an unnamed thing. */
static void print_name(const char* name) {
    putchar('"');
    print_escaped(or_dash(name));
    putchar('"');
}

static void print_attributes(const sw_model_primitive* p) {
    printf("POSITION");
    if (p->normals) printf(" NORMAL");
    if (p->tangents) printf(" TANGENT");
    for (int t = 0; t < p->texcoord_count; ++t) printf(" TEXCOORD_%d", t);
    if (p->colors) printf(" COLOR_0");
    for (int s = 0; s < p->influence_sets; ++s) printf(" JOINTS_%d WEIGHTS_%d", s, s);
}

/* ---- names: the node tree, humanoid bones, expressions, spring bones ------- */

/* What info says about the model beyond its glTF core, read once. */
typedef struct info_extras {
    sw_vrm* vrm;                  /* NULL: not a VRM, or unreadable (vrm_error) */
    bool vrm_failed;
    sw_diag vrm_error;
    sw_humanoid_map humanoid;     /* the VRM's, else found from node names */
    bool humanoid_from_names;
    sw_humanoid_naming naming;
    bool humanoid_skipped;        /* too big a model to look names up */
    int8_t* bone_of_node;         /* node_count: the humanoid bone, -1 none */
    uint32_t* joint_start;        /* node_count + 1: skins listing the node as a joint ... */
    uint32_t* joint_skins;        /* ... joint_skins[joint_start[n] .. joint_start[n + 1]) */
    int32_t* chain_of_node;       /* node_count: the first spring chain with the node as a joint, -1 none */
    sw_spring_set* springs;
    bool springs_failed;
    sw_diag springs_error;
    sw_constraint_set* constraints;
    bool constraints_failed;
    sw_diag constraints_error;
    sw_toon_material* toon;       /* material_count; none present when toon_failed */
    bool toon_failed;
    sw_diag toon_error;
} info_extras;

/* sw_humanoid_map_from_names compares each of its tables' candidate names
   (a few thousand) with every node, and a node whose name matches with
   every skin joint: well under a second for any real rig, but seconds for
   a 100,000-node scene and quadratic for a hostile file of same-named
   nodes and joints. Past these sizes info does not look. */
#define INFO_NAME_LOOKUP_MAX_NODES 10000
#define INFO_NAME_LOOKUP_MAX_NODE_JOINTS 100000000.0

static bool extras_read(const sw_model* a, info_extras* x) {
    memset(x, 0, sizeof *x);
    if (sw_vrm_read(a, &x->vrm, &x->vrm_error) != SW_OK) x->vrm = NULL, x->vrm_failed = true;
    sw_humanoid_map_clear(&x->humanoid);
    if (x->vrm) {
        x->humanoid = x->vrm->humanoid;
    } else if (a->node_count > INFO_NAME_LOOKUP_MAX_NODES ||
               (double)a->node_count * (double)a->skin_joint_count > INFO_NAME_LOOKUP_MAX_NODE_JOINTS) {
        x->humanoid_skipped = true;
    } else {
        sw_diag ignored;
        x->humanoid_from_names = sw_humanoid_map_from_names(a, NULL, &x->humanoid, &x->naming, &ignored) == SW_OK;
    }
    if (sw_spring_read(a, &x->springs, &x->springs_error) != SW_OK) x->springs = NULL, x->springs_failed = true;
    if (sw_constraint_read(a, &x->constraints, &x->constraints_error) != SW_OK)
        x->constraints = NULL, x->constraints_failed = true;
    size_t n = a->node_count;
    x->bone_of_node = malloc(n ? n : 1);
    x->joint_start = calloc(n + 1, sizeof *x->joint_start);
    x->toon = calloc(a->material_count ? a->material_count : 1, sizeof *x->toon);
    x->chain_of_node = malloc((n ? n : 1) * sizeof *x->chain_of_node);
    if (!x->bone_of_node || !x->joint_start || !x->toon || !x->chain_of_node) return false;
    for (size_t i = 0; i < n; i++) x->chain_of_node[i] = -1;
    for (size_t c = 0; x->springs && c < x->springs->chain_count; c++)
        for (size_t j = 0; j < x->springs->chains[c].joint_count; j++) {
            uint32_t node = x->springs->joints[x->springs->chains[c].first_joint + j].node;
            if (node < n && x->chain_of_node[node] < 0) x->chain_of_node[node] = (int32_t)c;
        }
    if (a->material_count && sw_toon_read(a, x->toon, &x->toon_error) != SW_OK) {
        memset(x->toon, 0, a->material_count * sizeof *x->toon);
        x->toon_failed = true;
    }
    memset(x->bone_of_node, -1, n);
    for (int b = 0; b < SW_HUMANOID_BONE_COUNT; b++)
        if (x->humanoid.node[b] >= 0 && (size_t)x->humanoid.node[b] < n) x->bone_of_node[x->humanoid.node[b]] = (int8_t)b;
    /* The skins each node is a joint of, as one list per node (counting
       sort: linear in the joints); a joint listed twice by a skin counts once. */
    for (size_t s = 0; s < a->skin_count; s++)
        for (size_t j = 0; j < a->skins[s].joint_count; j++) x->joint_start[a->skins[s].joints[j] + 1]++;
    for (size_t i = 0; i < n; i++) x->joint_start[i + 1] += x->joint_start[i];
    x->joint_skins = malloc((x->joint_start[n] ? x->joint_start[n] : 1) * sizeof *x->joint_skins);
    uint32_t* fill = malloc((n ? n : 1) * sizeof *fill);
    if (!x->joint_skins || !fill) return free(fill), false;
    memcpy(fill, x->joint_start, n * sizeof *fill);
    for (size_t s = 0; s < a->skin_count; s++)
        for (size_t j = 0; j < a->skins[s].joint_count; j++) {
            uint32_t node = a->skins[s].joints[j];
            if (fill[node] > x->joint_start[node] && x->joint_skins[fill[node] - 1] == (uint32_t)s) continue;
            x->joint_skins[fill[node]++] = (uint32_t)s;
        }
    /* the duplicates skipped leave holes: close them up */
    for (size_t i = 0; i < n; i++) fill[i] -= x->joint_start[i];
    uint32_t out = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t start = x->joint_start[i];
        x->joint_start[i] = out;
        memmove(&x->joint_skins[out], &x->joint_skins[start], fill[i] * sizeof *x->joint_skins);
        out += fill[i];
    }
    x->joint_start[n] = out;
    free(fill);
    return true;
}

static void extras_free(info_extras* x) {
    sw_vrm_free(x->vrm);
    sw_spring_set_free(x->springs);
    sw_constraint_set_free(x->constraints);
    free(x->bone_of_node);
    free(x->joint_start);
    free(x->joint_skins);
    free(x->chain_of_node);
    free(x->toon);
}

static const char* const override_names[] = {"none", "block", "blend"};
static const char* const first_person_names[] = {"auto", "both", "thirdPersonOnly", "firstPersonOnly"};
static const char* const shape_names[] = {"sphere", "capsule", "plane"};
static const char* const constraint_names[] = {"rotation", "roll", "aim"};
static const char* const axis_names[] = {"+X", "-X", "+Y", "-Y", "+Z", "-Z"};
static const char* const spring_sources[] = {"none", "VRMC_springBone", "VRM 0.x secondaryAnimation",
                                             "SW_spring_bones"};
static const char* const toon_kinds[] = {"body", "hair", "face", "eye"};

/* What a material is drawn as: MToon (VRM 1.0 or 0.x), sinew's toon,
   unlit, or the core metallic-roughness model. */
static const char* shading_name(const sw_model_material* m, const sw_toon_material* t) {
    if (t && t->present) {
        if (t->source == SW_TOON_SOURCE_MTOON || t->source == SW_TOON_SOURCE_MTOON_VRM0) return "MToon";
        if (t->source == SW_TOON_SOURCE_SW) return "toon";
    }
    return m->unlit ? "unlit" : "PBR metallic-roughness";
}

static const char* shading_source(const sw_model_material* m, const sw_toon_material* t) {
    if (t && t->present) {
        if (t->source == SW_TOON_SOURCE_MTOON) return "VRMC_materials_mtoon";
        if (t->source == SW_TOON_SOURCE_MTOON_VRM0) return "VRM materialProperties";
        if (t->source == SW_TOON_SOURCE_SW) return "SW_materials_toon";
    }
    return m->unlit ? "KHR_materials_unlit" : NULL;
}

/* `node 3 "Hips"`: the file's index and name of model node n. */
static void print_node_ref(const sw_model* a, size_t n) {
    if (n >= a->node_count) {
        printf("node ?");
        return;
    }
    printf("node %u ", (unsigned)a->nodes[n].source_index);
    print_name(a->nodes[n].name);
}

static long long node_file_index(const sw_model* a, size_t n) {
    return n < a->node_count ? (long long)a->nodes[n].source_index : -1;
}

/* Lines of the node tree printed without --tree. */
#define INFO_TREE_DEFAULT_LIMIT 2000

/* Deeper nodes are indented no further, so that a long chain's lines stay short. */
#define INFO_TREE_MAX_INDENT 32

/* The node tree, depth first from each root, one line a node: its index
   and name, the skins it is a joint of, its mesh and skin, its humanoid
   bone, the spring chain it is a joint of. At most `limit` lines (0: no limit), then how many were left out. */
static void print_tree(const sw_model* a, const info_extras* x, size_t limit) {
    size_t n = a->node_count;
    if (!n) return;
    uint32_t* stack = malloc(n * sizeof *stack);
    uint32_t* depth = malloc(n * sizeof *depth);
    if (!stack || !depth) {
        free(stack), free(depth);
        printf("node tree: out of memory\n");
        return;
    }
    /* parents come first in the model: one pass gives every depth */
    for (size_t i = 0; i < n; i++) depth[i] = a->nodes[i].parent >= 0 ? depth[a->nodes[i].parent] + 1 : 0;
    printf("node tree:\n");
    size_t printed = 0, top = 0;
    for (size_t root = n; root-- > 0;)
        if (a->nodes[root].parent < 0) stack[top++] = (uint32_t)root;
    while (top && (limit == 0 || printed < limit)) {
        uint32_t i = stack[--top];
        const sw_model_node* node = &a->nodes[i];
        /* each node is pushed once, by its parent: the stack never holds more than n */
        for (size_t c = node->child_count; c-- > 0 && top < n;) stack[top++] = node->children[c];
        uint32_t d = depth[i] < INFO_TREE_MAX_INDENT ? depth[i] : INFO_TREE_MAX_INDENT;
        printf("%*s", (int)(2 + 2 * d), "");
        if (depth[i] > INFO_TREE_MAX_INDENT) printf("(depth %u) ", (unsigned)depth[i]);
        print_node_ref(a, i);
        uint32_t skins = x->joint_start[i + 1] - x->joint_start[i];
        if (skins) {
            printf(" [joint of skin%s", skins > 1 ? "s" : "");
            for (uint32_t k = 0; k < skins && k < 4; k++) printf("%s %u", k ? "," : "", (unsigned)x->joint_skins[x->joint_start[i] + k]);
            if (skins > 4) printf(" and %u more", (unsigned)(skins - 4));
            printf("]");
        }
        if (node->mesh >= 0) printf(", mesh %d ", node->mesh), print_name(a->meshes[node->mesh].name);
        if (node->skin >= 0) printf(", skin %d", node->skin);
        if (x->bone_of_node[i] >= 0) printf(", humanoid %s", sw_humanoid_bone_name((sw_humanoid_bone)x->bone_of_node[i]));
        if (x->chain_of_node[i] >= 0) printf(", spring chain %d", (int)x->chain_of_node[i]);
        printf("\n");
        printed++;
    }
    if (printed < n) printf("  ... %zu more nodes (--tree lists them all)\n", n - printed);
    free(stack), free(depth);
}

/* One line a mapped bone: `hips: node 3 "Hips"`. */
static void print_humanoid_bones(const sw_model* a, const sw_humanoid_map* map, const char* indent) {
    for (int b = 0; b < SW_HUMANOID_BONE_COUNT; b++)
        if (map->node[b] >= 0) {
            printf("%s%s: ", indent, sw_humanoid_bone_name((sw_humanoid_bone)b));
            print_node_ref(a, (size_t)map->node[b]);
            printf("\n");
        }
}

/* For a model that is not a VRM: the bones sw_humanoid_map_from_names finds. */
static void print_humanoid_from_names(const sw_model* a, const info_extras* x) {
    if (x->vrm) return;
    if (x->humanoid_skipped) {
        printf("humanoid (from node names): not looked for (%zu nodes and %zu skin joints: more than info looks "
               "through)\n",
               a->node_count, a->skin_joint_count);
        return;
    }
    if (!x->humanoid_from_names) return;
    if (x->naming.table == SW_BONE_NAMING_NONE) {
        printf("humanoid (from node names): no name table recognises a bone\n");
        return;
    }
    printf("humanoid (from node names, %s table): %u of %d bones mapped\n", sw_bone_naming_name(x->naming.table),
           (unsigned)x->naming.mapped, (int)SW_HUMANOID_BONE_COUNT);
    print_humanoid_bones(a, &x->humanoid, "  ");
}

/* The VRM's expressions, look-at and first-person annotations, under its summary line. */
static void print_vrm_details(const sw_model* a, const sw_vrm* v) {
    for (size_t i = 0; i < v->expression_count; i++) {
        const sw_vrm_expression* e = &v->expressions[i];
        printf("    expression ");
        print_name(e->name);
        printf(" (%s): %zu morph, %zu colour, %zu UV binds%s, overrides blink %s, look-at %s, mouth %s\n",
               e->preset == SW_VRM_PRESET_CUSTOM ? "custom" : "preset", e->morph_bind_count, e->color_bind_count,
               e->texture_bind_count, e->is_binary ? ", binary" : "", override_names[e->override_blink % 3],
               override_names[e->override_look_at % 3], override_names[e->override_mouth % 3]);
    }
    if (v->look_at.present) {
        const float* o = v->look_at.offset_from_head_bone; /* + 0.0: the 0.x turn leaves -0 */
        printf("    look-at: %s, offset from head (%g, %g, %g)\n",
               v->look_at.type == SW_VRM_LOOK_AT_BONE ? "bone" : "expression", (double)o[0] + 0.0,
               (double)o[1] + 0.0, (double)o[2] + 0.0);
    }
    if (v->first_person_bone >= 0) printf("    first-person bone: "), print_node_ref(a, (size_t)v->first_person_bone), printf("\n");
    for (size_t i = 0; i < v->mesh_annotation_count; i++) {
        printf("    first person: ");
        print_node_ref(a, v->mesh_annotations[i].node);
        printf(" %s\n", first_person_names[v->mesh_annotations[i].type % 4]);
    }
}

static void print_springs(const sw_model* a, const info_extras* x) {
    if (x->springs_failed) {
        printf("spring bones: unreadable: "), print_escaped(x->springs_error.message), printf("\n");
        return;
    }
    const sw_spring_set* s = x->springs;
    if (!s || (s->source == SW_SPRING_SOURCE_NONE && !s->warning_count)) return;
    printf("spring bones (%s): %zu chains, %zu joints, %zu colliders, %zu collider groups\n",
           spring_sources[s->source % 4], s->chain_count, s->joint_count, s->collider_count, s->group_count);
    for (size_t c = 0; c < s->chain_count; c++) {
        const sw_spring_chain* ch = &s->chains[c];
        printf("  chain %zu ", c);
        print_name(ch->name);
        printf(": %zu joints:", ch->joint_count);
        for (size_t j = 0; j < ch->joint_count; j++)
            printf(j ? ", " : " "), print_node_ref(a, s->joints[ch->first_joint + j].node);
        if (ch->group_count) {
            printf("; collider groups:");
            for (size_t g = 0; g < ch->group_count; g++) {
                uint32_t group = s->chain_groups[ch->first_group + g];
                printf(g ? ", %u " : " %u ", (unsigned)group);
                print_name(group < s->group_count ? s->groups[group].name : NULL);
            }
        }
        if (ch->has_center) printf("; center "), print_node_ref(a, ch->center);
        printf("\n");
    }
    for (size_t g = 0; g < s->group_count; g++) {
        printf("  collider group %zu ", g);
        print_name(s->groups[g].name);
        printf(": colliders");
        for (size_t k = 0; k < s->groups[g].collider_count; k++)
            printf(k ? ", %u" : " %u", (unsigned)s->group_colliders[s->groups[g].first_collider + k]);
        printf("\n");
    }
    for (size_t c = 0; c < s->collider_count; c++) {
        const sw_spring_collider* col = &s->colliders[c];
        printf("  collider %zu: %s%s, ", c, shape_names[col->shape % 3], col->inside ? " (inside)" : "");
        print_node_ref(a, col->node);
        printf("\n");
    }
    for (size_t i = 0; i < s->warning_count; i++) printf("    "), print_escaped(s->warnings[i]), printf("\n");
}

/* ---- the same as JSON ---- */

static void json_humanoid(const sw_model* a, const info_extras* x, json_writer* w) {
    json_key(w, "humanoid");
    if (!x->vrm && !x->humanoid_from_names) {
        json_null(w);
        return;
    }
    json_begin_object(w);
    json_key(w, "source"), json_string(w, x->vrm ? "VRM" : "node names");
    json_key(w, "naming"), json_string(w, x->vrm ? NULL : sw_bone_naming_name(x->naming.table));
    uint32_t mapped = 0;
    for (int b = 0; b < SW_HUMANOID_BONE_COUNT; b++) mapped += x->humanoid.node[b] >= 0;
    json_key(w, "mapped"), json_int(w, mapped);
    json_key(w, "bones"), json_begin_object(w);
    for (int b = 0; b < SW_HUMANOID_BONE_COUNT; b++)
        if (x->humanoid.node[b] >= 0)
            json_key(w, sw_humanoid_bone_name((sw_humanoid_bone)b)), json_int(w, node_file_index(a, (size_t)x->humanoid.node[b]));
    json_end_object(w);
    json_end_object(w);
}

static void json_vrm_details(const sw_model* a, const sw_vrm* v, json_writer* w) {
    json_key(w, "expression_list"), json_begin_array(w);
    for (size_t i = 0; i < v->expression_count; i++) {
        const sw_vrm_expression* e = &v->expressions[i];
        json_newline(w);
        json_begin_object(w);
        json_key(w, "name"), json_string(w, e->name);
        json_key(w, "preset"), json_bool(w, e->preset != SW_VRM_PRESET_CUSTOM);
        json_key(w, "is_binary"), json_bool(w, e->is_binary);
        json_key(w, "morph_binds"), json_int(w, (long long)e->morph_bind_count);
        json_key(w, "color_binds"), json_int(w, (long long)e->color_bind_count);
        json_key(w, "texture_binds"), json_int(w, (long long)e->texture_bind_count);
        json_key(w, "override_blink"), json_string(w, override_names[e->override_blink % 3]);
        json_key(w, "override_look_at"), json_string(w, override_names[e->override_look_at % 3]);
        json_key(w, "override_mouth"), json_string(w, override_names[e->override_mouth % 3]);
        json_end_object(w);
    }
    json_end_array(w);
    json_key(w, "look_at");
    if (v->look_at.present) {
        json_begin_object(w);
        json_key(w, "type"), json_string(w, v->look_at.type == SW_VRM_LOOK_AT_BONE ? "bone" : "expression");
        json_key(w, "offset_from_head_bone"), json_begin_array(w);
        for (int k = 0; k < 3; k++) json_float(w, v->look_at.offset_from_head_bone[k]);
        json_end_array(w);
        json_end_object(w);
    } else {
        json_null(w);
    }
    json_key(w, "first_person_bone"),
        json_int(w, v->first_person_bone >= 0 ? node_file_index(a, (size_t)v->first_person_bone) : -1);
    json_key(w, "first_person"), json_begin_array(w);
    for (size_t i = 0; i < v->mesh_annotation_count; i++) {
        json_begin_object(w);
        json_key(w, "node"), json_int(w, node_file_index(a, v->mesh_annotations[i].node));
        json_key(w, "type"), json_string(w, first_person_names[v->mesh_annotations[i].type % 4]);
        json_end_object(w);
    }
    json_end_array(w);
}

static void json_springs(const sw_model* a, const info_extras* x, json_writer* w) {
    json_key(w, "spring_bones");
    if (x->springs_failed) {
        json_begin_object(w);
        json_key(w, "error"), json_string(w, x->springs_error.message);
        json_end_object(w);
        return;
    }
    const sw_spring_set* s = x->springs;
    if (!s || (s->source == SW_SPRING_SOURCE_NONE && !s->warning_count)) {
        json_null(w);
        return;
    }
    json_begin_object(w);
    json_key(w, "source"), json_string(w, spring_sources[s->source % 4]);
    json_key(w, "chains"), json_begin_array(w);
    for (size_t c = 0; c < s->chain_count; c++) {
        const sw_spring_chain* ch = &s->chains[c];
        json_newline(w);
        json_begin_object(w);
        json_key(w, "name"), json_string(w, ch->name);
        json_key(w, "joints"), json_begin_array(w);
        for (size_t j = 0; j < ch->joint_count; j++) json_int(w, node_file_index(a, s->joints[ch->first_joint + j].node));
        json_end_array(w);
        json_key(w, "collider_groups"), json_begin_array(w);
        for (size_t g = 0; g < ch->group_count; g++) json_int(w, s->chain_groups[ch->first_group + g]);
        json_end_array(w);
        json_key(w, "center"), json_int(w, ch->has_center ? node_file_index(a, ch->center) : -1);
        json_end_object(w);
    }
    json_end_array(w);
    json_key(w, "collider_groups"), json_begin_array(w);
    for (size_t g = 0; g < s->group_count; g++) {
        json_begin_object(w);
        json_key(w, "name"), json_string(w, s->groups[g].name);
        json_key(w, "colliders"), json_begin_array(w);
        for (size_t k = 0; k < s->groups[g].collider_count; k++)
            json_int(w, s->group_colliders[s->groups[g].first_collider + k]);
        json_end_array(w);
        json_end_object(w);
    }
    json_end_array(w);
    json_key(w, "colliders"), json_begin_array(w);
    for (size_t c = 0; c < s->collider_count; c++) {
        json_begin_object(w);
        json_key(w, "shape"), json_string(w, shape_names[s->colliders[c].shape % 3]);
        json_key(w, "node"), json_int(w, node_file_index(a, s->colliders[c].node));
        json_key(w, "inside"), json_bool(w, s->colliders[c].inside);
        json_end_object(w);
    }
    json_end_array(w);
    json_key(w, "warnings"), json_begin_array(w);
    for (size_t i = 0; i < s->warning_count; i++) json_string(w, s->warnings[i]);
    json_end_array(w);
    json_end_object(w);
}

static void json_constraints(const sw_model* a, const info_extras* x, json_writer* w) {
    json_key(w, "node_constraints");
    if (x->constraints_failed) {
        json_begin_object(w);
        json_key(w, "error"), json_string(w, x->constraints_error.message);
        json_end_object(w);
        return;
    }
    const sw_constraint_set* s = x->constraints;
    if (!s) {
        json_null(w);
        return;
    }
    json_begin_object(w);
    json_key(w, "constraints"), json_begin_array(w);
    for (size_t i = 0; i < s->constraint_count; i++) {
        const sw_constraint* c = &s->constraints[i];
        json_newline(w);
        json_begin_object(w);
        json_key(w, "type"), json_string(w, constraint_names[c->type % 3]);
        json_key(w, "source"), json_int(w, node_file_index(a, c->source));
        json_key(w, "destination"), json_int(w, node_file_index(a, c->destination));
        json_key(w, "axis"), json_string(w, c->type == SW_CONSTRAINT_ROTATION ? NULL : axis_names[c->axis % 6]);
        json_key(w, "weight"), json_float(w, c->weight);
        json_end_object(w);
    }
    json_end_array(w);
    json_key(w, "warnings"), json_begin_array(w);
    for (size_t i = 0; i < s->warning_count; i++) json_string(w, s->warnings[i]);
    json_end_array(w);
    json_end_object(w);
}

/* VRM avatars (sinew/vrm.h): meta, licence, the humanoid bones, expressions,
   look-at and first-person annotations. */
static void print_vrm_text(const sw_model* a, const info_extras* x) {
    if (x->vrm_failed) {
        printf("vrm: unreadable: "), print_escaped(x->vrm_error.message), printf("\n");
        return;
    }
    const sw_vrm* v = x->vrm;
    if (!v) return;
    const sw_vrm_meta* m = &v->meta;
    printf("vrm: %s", v->version == SW_VRM_1 ? "1.0 (VRMC_vrm)" : "0.x (VRM, turned to face +Z at load)");
    printf(", name "), print_name(m->name);
    printf(", version "), print_name(m->version);
    printf("\n  authors:");
    for (size_t i = 0; i < m->author_count; i++) printf(i ? ", " : " "), print_escaped(m->authors[i]);
    /* the meta's other fields, those the file gives */
    const char* const texts[4] = {m->copyright, m->contact, m->third_party_licenses, m->other_permission_url};
    const char* const labels[4] = {"copyright", "contact", "third-party licences", "other permission"};
    for (int i = 0; i < 4; i++)
        if (texts[i]) printf("\n  %s: ", labels[i]), print_name(texts[i]);
    if (m->reference_count) {
        printf("\n  references:");
        for (size_t i = 0; i < m->reference_count; i++) printf(i ? ", " : " "), print_name(m->references[i]);
    }
    if (m->thumbnail >= 0) printf("\n  thumbnail: %s %d", v->version == SW_VRM_1 ? "image" : "texture", m->thumbnail);
    printf("\n  licence: ");
    if (v->version == SW_VRM_1) {
        print_name(m->license_url);
        printf(", avatar %s, commercial %s, credit %s, modification %s, redistribution %s, violent %s, sexual %s, "
               "political/religious %s, antisocial/hate %s",
               m->avatar_permission, m->commercial_usage, m->credit_notation, m->modification,
               m->allow_redistribution ? "allowed" : "no", m->allow_excessively_violent_usage ? "allowed" : "no",
               m->allow_excessively_sexual_usage ? "allowed" : "no",
               m->allow_political_or_religious_usage ? "allowed" : "no",
               m->allow_antisocial_or_hate_usage ? "allowed" : "no");
    } else {
        /* 0.x's own fields as the file states them; redistribution follows from licenseName */
        const char* redistribution = !m->license_name                     ? "not stated"
                                     : m->allow_redistribution            ? "allowed"
                                     : strcmp(m->license_name, "Other") == 0 ? "see other licence"
                                                                          : "no";
        printf("%s (redistribution %s), users %s, violent %s, sexual %s, commercial %s", or_dash(m->license_name),
               redistribution, or_dash(m->allowed_user_name), or_dash(m->violent_usage), or_dash(m->sexual_usage),
               or_dash(m->commercial_usage_name));
    }
    if (m->other_license_url && *m->other_license_url) printf(", other "), print_name(m->other_license_url);
    printf("\n  humanoid: %u of %d bones mapped", (unsigned)v->humanoid_mapped, (int)SW_HUMANOID_BONE_COUNT);
    if (v->humanoid_required_missing) {
        printf(", required missing:");
        for (int b = 0; b < SW_HUMANOID_BONE_COUNT; b++)
            if (v->humanoid.node[b] < 0 && sw_humanoid_bone_required((sw_humanoid_bone)b))
                printf(" %s", sw_humanoid_bone_name((sw_humanoid_bone)b));
    }
    printf("\n");
    print_humanoid_bones(a, &v->humanoid, "    ");
    printf("  expressions: %zu, look-at: %s, first-person annotations: %zu, VRM warnings: %zu\n",
           v->expression_count,
           !v->look_at.present ? "none" : v->look_at.type == SW_VRM_LOOK_AT_BONE ? "bone" : "expression",
           v->mesh_annotation_count, v->warning_count);
    print_vrm_details(a, v);
    for (size_t i = 0; i < v->warning_count; i++) printf("    "), print_escaped(v->warnings[i]), printf("\n");
}

static void json_vrm(const sw_model* a, const info_extras* x, json_writer* w) {
    const sw_vrm* v = x->vrm;
    json_key(w, "vrm");
    if (x->vrm_failed) {
        json_begin_object(w);
        json_key(w, "error"), json_string(w, x->vrm_error.message);
        json_end_object(w);
        return;
    }
    if (!v) {
        json_null(w);
        return;
    }
    const sw_vrm_meta* m = &v->meta;
    json_begin_object(w);
    json_key(w, "version"), json_string(w, v->version == SW_VRM_1 ? "1.0" : "0.x");
    json_key(w, "name"), json_string(w, m->name);
    json_key(w, "model_version"), json_string(w, m->version);
    json_key(w, "authors"), json_begin_array(w);
    for (size_t i = 0; i < m->author_count; i++) json_string(w, m->authors[i]);
    json_end_array(w);
    json_key(w, "copyright"), json_string(w, m->copyright);
    json_key(w, "contact"), json_string(w, m->contact);
    json_key(w, "references"), json_begin_array(w);
    for (size_t i = 0; i < m->reference_count; i++) json_string(w, m->references[i]);
    json_end_array(w);
    json_key(w, "third_party_licenses"), json_string(w, m->third_party_licenses);
    json_key(w, "thumbnail");
    if (m->thumbnail >= 0) json_int(w, m->thumbnail);
    else json_null(w);
    json_key(w, "other_license_url"), json_string(w, m->other_license_url);
    /* Each version's own licence fields; the other version's are null. */
    bool v1 = v->version == SW_VRM_1;
    const char* const strings1[5][2] = {{"license_url", m->license_url},
                                        {"avatar_permission", m->avatar_permission},
                                        {"commercial_usage", m->commercial_usage},
                                        {"credit_notation", m->credit_notation},
                                        {"modification", m->modification}};
    for (int i = 0; i < 5; i++) json_key(w, strings1[i][0]), json_string(w, v1 ? strings1[i][1] : NULL);
    /* 0.x: from licenseName (true for CC0 and CC_BY*, false for
       Redistribution_Prohibited, null for Other or none) */
    json_key(w, "allow_redistribution");
    if (v1 || (m->license_name && strcmp(m->license_name, "Other") != 0)) json_bool(w, m->allow_redistribution);
    else json_null(w);
    const struct { const char* key; bool value; } bools1[4] = {
        {"allow_excessively_violent_usage", m->allow_excessively_violent_usage},
        {"allow_excessively_sexual_usage", m->allow_excessively_sexual_usage},
        {"allow_political_or_religious_usage", m->allow_political_or_religious_usage},
        {"allow_antisocial_or_hate_usage", m->allow_antisocial_or_hate_usage}};
    for (int i = 0; i < 4; i++) {
        json_key(w, bools1[i].key);
        if (v1) json_bool(w, bools1[i].value);
        else json_null(w);
    }
    json_key(w, "license_name"), json_string(w, m->license_name);
    json_key(w, "allowed_user_name"), json_string(w, m->allowed_user_name);
    json_key(w, "violent_usage"), json_string(w, m->violent_usage);
    json_key(w, "sexual_usage"), json_string(w, m->sexual_usage);
    json_key(w, "commercial_usage_name"), json_string(w, m->commercial_usage_name);
    json_key(w, "other_permission_url"), json_string(w, m->other_permission_url);
    json_key(w, "humanoid_mapped"), json_int(w, v->humanoid_mapped);
    json_key(w, "humanoid_required_missing"), json_begin_array(w);
    for (int b = 0; b < SW_HUMANOID_BONE_COUNT; b++)
        if (v->humanoid.node[b] < 0 && sw_humanoid_bone_required((sw_humanoid_bone)b))
            json_string(w, sw_humanoid_bone_name((sw_humanoid_bone)b));
    json_end_array(w);
    json_key(w, "expressions"), json_int(w, (long long)v->expression_count);
    json_key(w, "warnings"), json_begin_array(w);
    for (size_t i = 0; i < v->warning_count; i++) json_string(w, v->warnings[i]);
    json_end_array(w);
    json_vrm_details(a, v, w);
    json_end_object(w);
}

/* The file, its format and generator; for files read through Assimp or
   IQM, the units and axes read. */
static void print_source(const sw_model* a) {
    print_escaped(a->path);
    bool gltf = !a->format || strcmp(a->format, "glTF") == 0 || strcmp(a->format, "GLB") == 0;
    if (gltf) printf(": glTF 2.0");
    else if (strcmp(a->format, "IQM") == 0) printf(": IQM version 2"); /* sinew's own reader */
    else printf(": %s (through Assimp)", a->format);
    if (a->generator) printf(", generator "), print_name(a->generator);
    printf("\n");
    if (!gltf) {
        /* what the file said, and what sinew made of it (docs/import.md) */
        printf("units: ");
        if (a->unit_scale_to_metres > 0.0f) printf("%g m per unit", (double)a->unit_scale_to_metres);
        else printf("not stated");
        printf(", up axis: %s (as read); sinew's: metres, +Y up, right-handed\n",
               a->up_axis_read[0] ? a->up_axis_read : "not stated");
        if (a->import_dropped_vertices || a->import_collapsed_nodes)
            printf("import: %zu vertices lost weights beyond the 8 kept (up to %g), %zu helper nodes folded\n",
                   a->import_dropped_vertices, (double)a->import_dropped_weight, a->import_collapsed_nodes);
    }
}

static void print_scenes_and_nodes(const sw_model* a) {
    printf("scenes: %zu", a->scene_count);
    if (a->default_scene >= 0) printf(" (default %d)", a->default_scene);
    printf("\n");
    for (size_t s = 0; s < a->scene_count; ++s) {
        printf("  scene %zu ", s);
        print_name(a->scenes[s].name);
        printf(": %zu root nodes\n", a->scenes[s].node_count);
    }

    size_t roots = 0, with_mesh = 0, with_skin = 0, with_matrix = 0;
    for (size_t n = 0; n < a->node_count; ++n) {
        roots += a->nodes[n].parent < 0;
        with_mesh += a->nodes[n].mesh >= 0;
        with_skin += a->nodes[n].skin >= 0;
        with_matrix += a->nodes[n].has_matrix;
    }
    printf("nodes: %zu (%zu roots, %zu with a mesh, %zu skinned, %zu given as matrices)\n", a->node_count, roots,
           with_mesh, with_skin, with_matrix);
}

static void print_meshes(const sw_model* a) {
    printf("meshes: %zu\n", a->mesh_count);
    for (size_t m = 0; m < a->mesh_count; ++m) {
        const sw_model_mesh* mesh = &a->meshes[m];
        printf("  mesh %zu ", m);
        print_name(mesh->name);
        printf(": %zu primitive%s", mesh->primitive_count, mesh->primitive_count == 1 ? "" : "s");
        if (mesh->weight_count) printf(", %zu morph targets", mesh->weight_count);
        printf("\n");
        for (size_t p = 0; p < mesh->primitive_count; ++p) {
            const sw_model_primitive* prim = &mesh->primitives[p];
            printf("    primitive %zu: %s, %zu vertices, %zu %s", p, mode_name(prim->mode), prim->vertex_count,
                   element_count(prim),
                   prim->mode >= SW_MODEL_TRIANGLES ? "triangles" : prim->mode == SW_MODEL_POINTS ? "points" : "lines");
            if (prim->indices) printf(" (%zu indices)", prim->index_count);
            printf(", material %d\n      attributes: ", prim->material);
            print_attributes(prim);
            if (prim->influence_count) printf(" (kept %d influences per vertex)", prim->influence_count);
            if (prim->target_count) printf("; %zu morph targets", prim->target_count);
            printf("\n      bounds: (%g, %g, %g) .. (%g, %g, %g)\n", prim->bounds_min[0], prim->bounds_min[1],
                   prim->bounds_min[2], prim->bounds_max[0], prim->bounds_max[1], prim->bounds_max[2]);
        }
    }
}

static void print_skins(const sw_model* a) {
    printf("skins: %zu\n", a->skin_count);
    for (size_t s = 0; s < a->skin_count; ++s) {
        size_t hist[SW_MODEL_MAX_INFLUENCES + 1];
        influence_histogram(a, s, hist);
        printf("  skin %zu ", s);
        print_name(a->skins[s].name);
        printf(": %zu joints", a->skins[s].joint_count);
        if (a->skins[s].skeleton >= 0) printf(", skeleton node %u", (unsigned)a->nodes[a->skins[s].skeleton].source_index);
        printf("\n    vertices by influence count:");
        bool any = false;
        for (int k = 0; k <= SW_MODEL_MAX_INFLUENCES; ++k)
            if (hist[k]) printf("%s %d: %zu", any ? "," : "", k, hist[k]), any = true;
        printf("%s\n", any ? "" : " (no skinned mesh uses this skin)");
    }
}

static void print_animations(const sw_model* a) {
    printf("animations: %zu\n", a->animation_count);
    for (size_t i = 0; i < a->animation_count; ++i) {
        const sw_clip* clip = &a->animations[i];
        size_t counts[4];
        interpolation_counts(clip, counts);
        printf("  animation %zu ", i);
        print_name(clip->name);
        printf(": %.4g s (keys from %.4g s), %zu channels:", clip->duration, clip->start, clip->track_count);
        for (int k = 1; k < 4; ++k)
            if (counts[k]) printf(" %s %zu", interp_names[k], counts[k]);
        printf("\n");
    }
}

static void print_materials(const sw_model* a, const info_extras* x) {
    printf("materials: %zu\n", a->material_count);
    for (size_t i = 0; i < a->material_count; ++i) {
        const sw_model_material* m = &a->materials[i];
        printf("  material %zu ", i);
        print_name(m->name);
        printf(": base colour (%g, %g, %g, %g)", m->base_color_factor[0], m->base_color_factor[1],
               m->base_color_factor[2], m->base_color_factor[3]);
        if (m->base_color_texture.texture >= 0) printf(" × texture %d", m->base_color_texture.texture);
        if (m->normal_texture.texture >= 0) printf(", normal map %d", m->normal_texture.texture);
        if (m->occlusion_texture.texture >= 0) printf(", occlusion %d", m->occlusion_texture.texture);
        if (m->emissive_texture.texture >= 0 || m->emissive_factor[0] > 0 || m->emissive_factor[1] > 0 ||
            m->emissive_factor[2] > 0)
            printf(", emissive");
        printf(", alpha %s%s%s\n", alpha_names[m->alpha_mode % 3], m->double_sided ? ", double-sided" : "",
               m->unlit ? ", unlit" : "");
        /* an MToon material usually carries KHR_materials_unlit too, for viewers without MToon */
        const sw_toon_material* t = &x->toon[i];
        const char* source = shading_source(m, t);
        printf("    shading: %s", shading_name(m, t));
        if (source) printf(" (%s)", source);
        if (t->present && t->source == SW_TOON_SOURCE_SW) printf(", %s", toon_kinds[t->kind % 4]);
        printf("\n");
    }
    if (x->toon_failed) printf("  toon materials: unreadable: "), print_escaped(x->toon_error.message), printf("\n");
}

/* Node constraints (sinew/constraint.h), when the model has any. */
static void print_constraints_text(const sw_model* a, const info_extras* x) {
    if (x->constraints_failed) {
        printf("node constraints: unreadable: "), print_escaped(x->constraints_error.message), printf("\n");
        return;
    }
    const sw_constraint_set* set = x->constraints;
    if (!set) return;
    size_t kinds[3] = {0};
    for (size_t i = 0; i < set->constraint_count; i++) kinds[set->constraints[i].type % 3]++;
    printf("node constraints: %zu (roll %zu, aim %zu, rotation %zu)\n", set->constraint_count,
           kinds[SW_CONSTRAINT_ROLL], kinds[SW_CONSTRAINT_AIM], kinds[SW_CONSTRAINT_ROTATION]);
    for (size_t i = 0; i < set->constraint_count; i++) {
        const sw_constraint* c = &set->constraints[i];
        printf("  %s: ", constraint_names[c->type % 3]);
        print_node_ref(a, c->source);
        printf(" -> ");
        print_node_ref(a, c->destination);
        if (c->type != SW_CONSTRAINT_ROTATION) printf(", axis %s", axis_names[c->axis % 6]);
        printf(", weight %g\n", (double)c->weight);
    }
    for (size_t i = 0; i < set->warning_count; i++) printf("    "), print_escaped(set->warnings[i]), printf("\n");
}

static void print_text(const sw_model* a, const info_extras* x, size_t tree_limit, bool tree) {
    print_source(a);
    print_scenes_and_nodes(a);
    if (tree) print_tree(a, x, tree_limit);
    print_meshes(a);
    print_skins(a);
    print_animations(a);
    print_materials(a, x);
    printf("textures: %zu, images: %zu\n", a->texture_count, a->image_count);
    print_vrm_text(a, x);
    print_humanoid_from_names(a, x);
    print_springs(a, x);
    print_constraints_text(a, x);

    printf("warnings: %zu\n", a->warning_count);
    for (size_t i = 0; i < a->warning_count; ++i) {
        printf("  ");
        print_escaped(a->warnings[i]);
        printf("\n");
    }
}

/* ---- JSON ------------------------------------------------------------------- */

static void json_floats(json_writer* w, const float* v, int n) {
    json_begin_array(w);
    for (int i = 0; i < n; ++i) json_float(w, v[i]);
    json_end_array(w);
}

static void json_texture_ref(json_writer* w, const char* key, const sw_model_texture_ref* t) {
    json_key(w, key);
    if (t->texture < 0) {
        json_null(w);
        return;
    }
    json_begin_object(w);
    json_key(w, "texture"), json_int(w, t->texture);
    json_key(w, "texcoord"), json_int(w, t->texcoord);
    json_key(w, "scale"), json_float(w, t->scale);
    if (t->has_transform) {
        json_key(w, "offset"), json_floats(w, t->offset, 2);
        json_key(w, "rotation"), json_float(w, t->rotation);
        json_key(w, "uv_scale"), json_floats(w, t->uv_scale, 2);
    }
    json_end_object(w);
}

static void json_scenes(const sw_model* a, json_writer* w) {
    json_key(w, "scenes"), json_begin_array(w);
    for (size_t s = 0; s < a->scene_count; ++s) {
        json_begin_object(w);
        json_key(w, "name"), json_string(w, a->scenes[s].name);
        json_key(w, "nodes"), json_begin_array(w);
        for (size_t i = 0; i < a->scenes[s].node_count; ++i) json_int(w, a->nodes[a->scenes[s].nodes[i]].source_index);
        json_end_array(w);
        json_end_object(w);
    }
    json_end_array(w);
}

static void json_nodes(const sw_model* a, const info_extras* x, json_writer* w) {
    json_key(w, "nodes"), json_begin_array(w);
    /* Nodes in the file's order, with the file's indices (the model stores them parents first). */
    for (size_t source = 0; source < a->node_count; ++source) {
        const sw_model_node* node = &a->nodes[a->node_from_source[source]];
        json_newline(w);
        json_begin_object(w);
        json_key(w, "name"), json_string(w, node->name);
        json_key(w, "parent"), json_int(w, node->parent >= 0 ? (long long)a->nodes[node->parent].source_index : -1);
        json_key(w, "mesh"), json_int(w, node->mesh);
        json_key(w, "skin"), json_int(w, node->skin);
        json_key(w, "matrix"), json_bool(w, node->has_matrix);
        size_t n = a->node_from_source[source];
        json_key(w, "joint_of_skins"), json_begin_array(w);
        for (uint32_t k = x->joint_start[n]; k < x->joint_start[n + 1]; k++) json_int(w, x->joint_skins[k]);
        json_end_array(w);
        json_key(w, "humanoid_bone");
        json_string(w, x->bone_of_node[n] >= 0 ? sw_humanoid_bone_name((sw_humanoid_bone)x->bone_of_node[n]) : NULL);
        json_key(w, "spring_chain"), json_int(w, x->chain_of_node[n]);
        json_end_object(w);
    }
    json_end_array(w);
}

static void json_meshes(const sw_model* a, json_writer* w) {
    json_key(w, "meshes"), json_begin_array(w);
    for (size_t m = 0; m < a->mesh_count; ++m) {
        const sw_model_mesh* mesh = &a->meshes[m];
        json_newline(w);
        json_begin_object(w);
        json_key(w, "name"), json_string(w, mesh->name);
        json_key(w, "morph_targets"), json_int(w, (long long)mesh->weight_count);
        json_key(w, "primitives"), json_begin_array(w);
        for (size_t p = 0; p < mesh->primitive_count; ++p) {
            const sw_model_primitive* prim = &mesh->primitives[p];
            json_begin_object(w);
            json_key(w, "mode"), json_string(w, mode_name(prim->mode));
            json_key(w, "vertex_count"), json_int(w, (long long)prim->vertex_count);
            json_key(w, "index_count"), json_int(w, (long long)prim->index_count);
            json_key(w, "element_count"), json_int(w, (long long)element_count(prim));
            json_key(w, "material"), json_int(w, prim->material);
            json_key(w, "normals"), json_bool(w, prim->normals != NULL);
            json_key(w, "tangents"), json_bool(w, prim->tangents != NULL);
            json_key(w, "texcoords"), json_int(w, prim->texcoord_count);
            json_key(w, "colors"), json_bool(w, prim->colors != NULL);
            json_key(w, "influence_sets"), json_int(w, prim->influence_sets);
            json_key(w, "influence_count"), json_int(w, prim->influence_count);
            json_key(w, "morph_targets"), json_int(w, (long long)prim->target_count);
            json_key(w, "bounds_min"), json_floats(w, prim->bounds_min, 3);
            json_key(w, "bounds_max"), json_floats(w, prim->bounds_max, 3);
            json_end_object(w);
        }
        json_end_array(w);
        json_end_object(w);
    }
    json_end_array(w);
}

static void json_skins(const sw_model* a, json_writer* w) {
    json_key(w, "skins"), json_begin_array(w);
    for (size_t s = 0; s < a->skin_count; ++s) {
        size_t hist[SW_MODEL_MAX_INFLUENCES + 1];
        influence_histogram(a, s, hist);
        json_newline(w);
        json_begin_object(w);
        json_key(w, "name"), json_string(w, a->skins[s].name);
        json_key(w, "joint_count"), json_int(w, (long long)a->skins[s].joint_count);
        json_key(w, "skeleton"),
            json_int(w, a->skins[s].skeleton >= 0 ? (long long)a->nodes[a->skins[s].skeleton].source_index : -1);
        json_key(w, "influence_histogram"), json_begin_array(w);
        for (int k = 0; k <= SW_MODEL_MAX_INFLUENCES; ++k) json_int(w, (long long)hist[k]);
        json_end_array(w);
        json_end_object(w);
    }
    json_end_array(w);
}

static void json_animations(const sw_model* a, json_writer* w) {
    json_key(w, "animations"), json_begin_array(w);
    for (size_t i = 0; i < a->animation_count; ++i) {
        const sw_clip* clip = &a->animations[i];
        size_t counts[4];
        interpolation_counts(clip, counts);
        json_newline(w);
        json_begin_object(w);
        json_key(w, "name"), json_string(w, clip->name);
        json_key(w, "start"), json_float(w, clip->start);
        json_key(w, "duration"), json_float(w, clip->duration);
        json_key(w, "channels"), json_int(w, (long long)clip->track_count);
        json_key(w, "interpolations"), json_begin_object(w);
        for (int k = 1; k < 4; ++k) json_key(w, interp_names[k]), json_int(w, (long long)counts[k]);
        json_end_object(w);
        json_key(w, "paths"), json_begin_object(w);
        for (int path = 0; path < 4; ++path) {
            long long c = 0;
            for (size_t t = 0; t < clip->track_count; ++t) c += clip->tracks[t].path == (sw_track_path)path;
            json_key(w, path_names[path]), json_int(w, c);
        }
        json_end_object(w);
        json_end_object(w);
    }
    json_end_array(w);
}

static void json_materials(const sw_model* a, const info_extras* x, json_writer* w) {
    json_key(w, "materials"), json_begin_array(w);
    for (size_t i = 0; i < a->material_count; ++i) {
        const sw_model_material* m = &a->materials[i];
        json_newline(w);
        json_begin_object(w);
        json_key(w, "name"), json_string(w, m->name);
        json_key(w, "base_color_factor"), json_floats(w, m->base_color_factor, 4);
        json_texture_ref(w, "base_color_texture", &m->base_color_texture);
        json_key(w, "metallic_factor"), json_float(w, m->metallic_factor);
        json_key(w, "roughness_factor"), json_float(w, m->roughness_factor);
        json_texture_ref(w, "normal_texture", &m->normal_texture);
        json_texture_ref(w, "occlusion_texture", &m->occlusion_texture);
        json_key(w, "emissive_factor"), json_floats(w, m->emissive_factor, 3);
        json_texture_ref(w, "emissive_texture", &m->emissive_texture);
        json_key(w, "alpha_mode"), json_string(w, alpha_names[m->alpha_mode % 3]);
        json_key(w, "alpha_cutoff"), json_float(w, m->alpha_cutoff);
        json_key(w, "double_sided"), json_bool(w, m->double_sided);
        json_key(w, "shading"), json_string(w, shading_name(m, &x->toon[i]));
        json_key(w, "shading_source"), json_string(w, shading_source(m, &x->toon[i]));
        json_key(w, "toon_kind");
        json_string(w, x->toon[i].present && x->toon[i].source == SW_TOON_SOURCE_SW ? toon_kinds[x->toon[i].kind % 4] : NULL);
        json_end_object(w);
    }
    json_end_array(w);
}

static void print_json(const sw_model* a, const info_extras* x, json_writer* w) {
    json_begin_object(w);
    json_key(w, "model"), json_string(w, a->path);
    json_key(w, "generator"), json_string(w, a->generator);
    json_key(w, "format"), json_string(w, a->format);
    json_key(w, "unit_scale_to_metres"), json_float(w, a->unit_scale_to_metres);
    json_key(w, "up_axis_read"), json_string(w, a->up_axis_read[0] ? a->up_axis_read : NULL);
    json_key(w, "import_dropped_vertices"), json_int(w, (long long)a->import_dropped_vertices);
    json_key(w, "import_collapsed_nodes"), json_int(w, (long long)a->import_collapsed_nodes);
    json_key(w, "default_scene"), json_int(w, a->default_scene);
    json_scenes(a, w);
    json_nodes(a, x, w);
    json_meshes(a, w);
    json_skins(a, w);
    json_animations(a, w);
    json_materials(a, x, w);
    json_key(w, "textures"), json_int(w, (long long)a->texture_count);
    json_key(w, "images"), json_int(w, (long long)a->image_count);
    json_vrm(a, x, w);
    json_humanoid(a, x, w);
    json_springs(a, x, w);
    json_constraints(a, x, w);

    json_key(w, "warnings"), json_begin_array(w);
    for (size_t i = 0; i < a->warning_count; ++i) json_newline(w), json_string(w, a->warnings[i]);
    json_end_array(w);
    json_end_object(w);
    json_newline(w);
}

int cmd_info(tool_args* args) {
    const char* model = NULL;
    bool json = false;
    bool tree = true;
    size_t tree_limit = INFO_TREE_DEFAULT_LIMIT;
    sw_gltf_options options = {0};
    anim_file_options file = {0};
    tool_error err;
    for (const char* arg; (arg = tool_args_next(args));) {
        if (tool_args_is_help(arg)) return tool_print_help(args);
        int took = anim_file_option_take(&file, args, arg, &err);
        if (took < 0) return tool_usage(args, "%s", err.message);
        if (took) continue;
        if (tool_args_flag(arg, "--json")) json = true;
        else if (tool_args_flag(arg, "--allow-outside-paths")) options.allow_outside_paths = true;
        else if (tool_args_flag(arg, "--tree")) tree = true, tree_limit = 0;
        else if (tool_args_flag(arg, "--no-tree")) tree = false;
        else if (arg[0] == '-' && arg[1]) return tool_unknown_option(args, arg);
        else if (model) return tool_usage(args, "one MODEL only ('%s' and '%s')", model, arg);
        else model = arg;
    }
    if (!model) return tool_usage(args, "no MODEL given");
    if (!anim_file_options_check(&file, &err)) return tool_usage(args, "%s", err.message);

    sw_model* asset = NULL;
    sw_diag diag;
    if (tool_load_model(model, &options, &asset, &diag) != SW_OK) {
        /* the loader's message quotes the file's strings */
        char message[TEXT_ESCAPE_BOUND(sizeof diag.message)];
        text_escape(message, sizeof message, diag.message, strlen(diag.message));
        return tool_fail(args, "%s", message);
    }
    anim_file extra = {0}; /* --anim-file: its clips are listed with the model's */
    if (!anim_file_attach(&extra, &asset, &file, &err)) {
        sw_model_free(asset);
        return tool_fail(args, "%s", err.message);
    }

    info_extras extras;
    if (!extras_read(asset, &extras)) {
        extras_free(&extras);
        anim_file_detach(&extra, &asset);
        sw_model_free(asset);
        return tool_fail(args, "out of memory");
    }
    bool ok = true;
    if (json) {
        json_writer w;
        json_writer_init(&w, json_file_sink, stdout);
        print_json(asset, &extras, &w);
        ok = json_writer_finish(&w);
    } else {
        print_text(asset, &extras, tree_limit, tree);
        if (extra.view) printf("anim file: %s\n", extra.summary);
    }
    extras_free(&extras);
    /* After the report, so that the warnings end up where the reader looks last. */
    tool_warn_bad_images(args, asset, false, NULL);
    anim_file_detach(&extra, &asset);
    sw_model_free(asset);
    if (fflush(stdout) != 0 || !ok) return tool_fail(args, "cannot write to standard output");
    return TOOL_EXIT_OK;
}
