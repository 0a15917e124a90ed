/* sinew info — what a glTF file holds: scenes, nodes, meshes and their
   primitives, skins with an influence histogram, animations, materials and
   the loader's warnings; as text or as one JSON object. */
#include "anim_file.h"
#include "json_writer.h"
#include "text_escape.h"
#include "tool_common.h"

#include "sinew/gltf.h"
#include "sinew/constraint.h"
#include "sinew/vrm.h"

#include <stdlib.h>
#include <string.h>

const char cmd_info_help[] =
    "usage: sinew info MODEL [--json] [--allow-outside-paths]\n"
    "                  [--anim-file FILE [--bone-map MAP.json] [--retarget]]\n"
    "\n"
    "Loads MODEL (glTF, GLB, VRM, IQM, or FBX, Collada, BVH... through Assimp)\n"
    "and prints what it holds: its format, units and axes as read, scenes, nodes,\n"
    "meshes and primitives (vertex and index counts, attributes, morph\n"
    "targets), skins (joints and a histogram of influences per vertex: how\n"
    "many vertices have 1, 2, ... non-zero weights), animations (name, time\n"
    "range, channels and their interpolations), materials, and the loader's\n"
    "warnings.\n"
    "\n"
    "A file that cannot be loaded gives one line naming the file and the\n"
    "problem (the JSON path, accessor or node) and exit status 1. Every image\n"
    "is decoded: one that is missing or does not decode is a warning on\n"
    "standard error (the image's index, its uri and the reason); the exit\n"
    "status stays 0.\n"
    "\n"
    "options:\n"
    "  --json                  print one JSON object instead of text\n"
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

/* VRM avatars (sinew/vrm.h): meta, licence and humanoid coverage. */
static void print_vrm_text(const sw_model* a) {
    sw_vrm* v = NULL;
    sw_diag diag;
    if (sw_vrm_read(a, &v, &diag) != SW_OK) {
        printf("vrm: unreadable: "), print_escaped(diag.message), printf("\n");
        return;
    }
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
    printf("\n  expressions: %zu, look-at: %s, first-person annotations: %zu, VRM warnings: %zu\n",
           v->expression_count,
           !v->look_at.present ? "none" : v->look_at.type == SW_VRM_LOOK_AT_BONE ? "bone" : "expression",
           v->mesh_annotation_count, v->warning_count);
    for (size_t i = 0; i < v->warning_count; i++) printf("    "), print_escaped(v->warnings[i]), printf("\n");
    sw_vrm_free(v);
}

static void json_vrm(const sw_model* a, json_writer* w) {
    sw_vrm* v = NULL;
    sw_diag diag;
    json_key(w, "vrm");
    if (sw_vrm_read(a, &v, &diag) != SW_OK) {
        json_begin_object(w);
        json_key(w, "error"), json_string(w, diag.message);
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
    json_end_object(w);
    sw_vrm_free(v);
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

static void print_materials(const sw_model* a) {
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
    }
}

/* Node constraints (sinew/constraint.h), when the model has any. */
static void print_constraints_text(const sw_model* a) {
    sw_constraint_set* set = NULL;
    sw_diag diag;
    if (sw_constraint_read(a, &set, &diag) != SW_OK) {
        printf("node constraints: unreadable: "), print_escaped(diag.message), printf("\n");
        return;
    }
    if (!set) return;
    size_t kinds[3] = {0};
    for (size_t i = 0; i < set->constraint_count; i++) kinds[set->constraints[i].type % 3]++;
    printf("node constraints: %zu (roll %zu, aim %zu, rotation %zu)\n", set->constraint_count,
           kinds[SW_CONSTRAINT_ROLL], kinds[SW_CONSTRAINT_AIM], kinds[SW_CONSTRAINT_ROTATION]);
    for (size_t i = 0; i < set->warning_count; i++) printf("    "), print_escaped(set->warnings[i]), printf("\n");
    sw_constraint_set_free(set);
}

static void print_text(const sw_model* a) {
    print_source(a);
    print_scenes_and_nodes(a);
    print_meshes(a);
    print_skins(a);
    print_animations(a);
    print_materials(a);
    printf("textures: %zu, images: %zu\n", a->texture_count, a->image_count);
    print_vrm_text(a);
    print_constraints_text(a);

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

static void json_nodes(const sw_model* a, json_writer* w) {
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

static void json_materials(const sw_model* a, json_writer* w) {
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
        json_end_object(w);
    }
    json_end_array(w);
}

static void print_json(const sw_model* a, json_writer* w) {
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
    json_nodes(a, w);
    json_meshes(a, w);
    json_skins(a, w);
    json_animations(a, w);
    json_materials(a, w);
    json_key(w, "textures"), json_int(w, (long long)a->texture_count);
    json_key(w, "images"), json_int(w, (long long)a->image_count);
    json_vrm(a, w);

    json_key(w, "warnings"), json_begin_array(w);
    for (size_t i = 0; i < a->warning_count; ++i) json_newline(w), json_string(w, a->warnings[i]);
    json_end_array(w);
    json_end_object(w);
    json_newline(w);
}

int cmd_info(tool_args* args) {
    const char* model = NULL;
    bool json = false;
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

    bool ok = true;
    if (json) {
        json_writer w;
        json_writer_init(&w, json_file_sink, stdout);
        print_json(asset, &w);
        ok = json_writer_finish(&w);
    } else {
        print_text(asset);
        if (extra.view) printf("anim file: %s\n", extra.summary);
    }
    /* After the report, so that the warnings end up where the reader looks last. */
    tool_warn_bad_images(args, asset, false, NULL);
    anim_file_detach(&extra, &asset);
    sw_model_free(asset);
    if (fflush(stdout) != 0 || !ok) return tool_fail(args, "cannot write to standard output");
    return TOOL_EXIT_OK;
}
