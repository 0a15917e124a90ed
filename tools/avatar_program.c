/* tools/avatar_program.c — VRM expressions, gaze and first person on the
   command line (avatar_program.h). */
#include "avatar_program.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- parsing --------------------------------------------------------------- */

static bool parse_expression(avatar_options* o, const char* v, tool_error* err) {
    const char* colon = strrchr(v, ':');
    size_t len = colon ? (size_t)(colon - v) : strlen(v);
    float weight = 1.0f;
    if (colon) {
        double w;
        if (!tool_parse_double("--expression weight", colon + 1, 0.0, 1.0, &w, err)) return false;
        weight = (float)w;
    }
    if (len == 0) return tool_error_set(err, "--expression: '%s' names no expression (NAME[:W])", v);
    avatar_expression_item* grown = realloc(o->expressions, (o->expression_count + 1) * sizeof *grown);
    if (!grown) return tool_error_set(err, "out of memory");
    o->expressions = grown;
    char* name = malloc(len + 1);
    if (!name) return tool_error_set(err, "out of memory");
    memcpy(name, v, len), name[len] = 0;
    o->expressions[o->expression_count++] = (avatar_expression_item){.name = name, .weight = weight};
    return true;
}

static bool parse_gaze(avatar_options* o, const char* v, tool_error* err) {
    if (o->has_gaze) return tool_error_set(err, "--gaze: given twice");
    char buf[192];
    if (strlen(v) >= sizeof buf) return tool_error_set(err, "--gaze: '%.40s...' is too long for X,Y,Z", v);
    strcpy(buf, v);
    char* p = buf;
    for (int i = 0; i < 3; ++i) {
        char* comma = strchr(p, ',');
        if ((i < 2) != (comma != NULL)) return tool_error_set(err, "--gaze: '%s' is not three numbers X,Y,Z", v);
        if (comma) *comma = 0;
        double x;
        if (!tool_parse_double("--gaze", p, -1e9, 1e9, &x, err)) return false;
        o->gaze[i] = (float)x;
        p = comma ? comma + 1 : p;
    }
    o->has_gaze = true;
    return true;
}

int avatar_options_take(avatar_options* o, tool_args* args, const char* arg, tool_error* err) {
    if (tool_args_flag(arg, "--first-person")) {
        o->first_person = true;
        return 1;
    }
    const char* name = tool_args_option(args, arg, "--expression") ? "--expression"
                       : tool_args_option(args, arg, "--gaze")     ? "--gaze"
                                                                   : NULL;
    if (!name) return 0;
    const char* v = tool_args_value(args, name, err);
    if (!v) return -1;
    bool ok = strcmp(name, "--gaze") == 0 ? parse_gaze(o, v, err) : parse_expression(o, v, err);
    return ok ? 1 : -1;
}

bool avatar_options_any(const avatar_options* o) {
    return o->expression_count > 0 || o->has_gaze;
}

void avatar_options_free(avatar_options* o) {
    for (size_t i = 0; i < o->expression_count; ++i) free(o->expressions[i].name);
    free(o->expressions);
    memset(o, 0, sizeof *o);
}

/* ---- resolving ------------------------------------------------------------- */

/* "--expression: 'hapy' is not an expression of MODEL (did you mean
   'happy'?); it has: happy, angry, ..." (at most 24 names listed). */
static bool unknown_expression(const avatar_program* a, const char* name, tool_error* err) {
    const sw_vrm* vrm = a->vrm;
    tool_suggest near;
    tool_suggest_init(&near, name);
    char list[640] = "";
    size_t used = 0, shown = 0;
    for (size_t i = 0; i < vrm->expression_count && shown < 24; ++i, ++shown) {
        int n = snprintf(list + used, sizeof list - used, "%s%.40s", i ? ", " : "", vrm->expressions[i].name);
        if (n < 0 || (size_t)n >= sizeof list - used) break;
        used += (size_t)n;
    }
    char more[48] = "";
    if (shown < vrm->expression_count) snprintf(more, sizeof more, " and %zu more", vrm->expression_count - shown);
    /* VRM 0.x preset names, read under 1.0's (vrm.md) */
    static const char* const vrm0_names[][2] = {
        {"joy", "happy"},  {"sorrow", "sad"},  {"fun", "relaxed"},   {"a", "aa"},
        {"i", "ih"},       {"u", "ou"},        {"e", "ee"},          {"o", "oh"},
        {"blink_l", "blinkLeft"}, {"blink_r", "blinkRight"}, {"lookup", "lookUp"}, {"lookdown", "lookDown"},
        {"lookleft", "lookLeft"}, {"lookright", "lookRight"}};
    for (size_t i = 0; i < sizeof vrm0_names / sizeof vrm0_names[0]; ++i)
        if (tool_name_distance(name, strlen(name), vrm0_names[i][0], strlen(vrm0_names[i][0]), 0) == 0 &&
            sw_vrm_find_expression(vrm, vrm0_names[i][1]) >= 0)
            tool_suggest_init(&near, vrm0_names[i][1]); /* the 1.0 name, and only it, is near */
    for (size_t i = 0; i < vrm->expression_count; ++i)
        tool_suggest_add(&near, vrm->expressions[i].name, strlen(vrm->expressions[i].name));
    char said[300], hint[320] = "";
    if (tool_suggest_text(&near, said, sizeof said)[0]) snprintf(hint, sizeof hint, " (%s)", said);
    if (!vrm->expression_count)
        return tool_error_set(err, "--expression: '%.80s': %s has no expressions", name, a->model->path);
    return tool_error_set(err, "--expression: '%.80s' is not an expression of %s%s; it has: %s%s", name,
                          a->model->path, hint, list, more);
}

static void warn(avatar_program* a, const char* text) {
    if (a->warning_count < sizeof a->warnings / sizeof a->warnings[0])
        tool_error_set(&a->warnings[a->warning_count++], "%s", text);
}

/* A vertex weighted (> 0) to a joint below the head. */
static bool vertex_on_head(const sw_model_primitive* prim, const sw_model_skin* skin, size_t v,
                           const uint8_t* below_head) {
    size_t k = (size_t)prim->influence_count;
    for (size_t i = v * k; i < (v + 1) * k; ++i)
        if (prim->weights[i] > 0.0f && prim->joints[i] < skin->joint_count && below_head[skin->joints[prim->joints[i]]])
            return true;
    return false;
}

/* Triangle t's element positions in a triangle list, strip or fan (as
   the renderer's first-person copy reads them). */
static void triangle_elements(sw_model_mode mode, size_t t, size_t e[3]) {
    if (mode == SW_MODEL_TRIANGLE_STRIP) e[0] = t, e[1] = t + 1, e[2] = t + 2;
    else if (mode == SW_MODEL_TRIANGLE_FAN) e[0] = 0, e[1] = t + 1, e[2] = t + 2;
    else e[0] = 3 * t, e[1] = 3 * t + 1, e[2] = 3 * t + 2;
}

/* How many triangles three-vrm's first-person copy of a skinned `auto`
   mesh drops (those with a vertex weighted > 0 to a joint below the head:
   VRMFirstPerson's headless copy; sw_renderer_set_erased_joints draws the
   same), and how many the node's mesh draws. Points and lines are kept.
   Linear in the mesh's indices. */
static void triangles_on_head(const sw_model* model, uint32_t node, const uint8_t* below_head, size_t* erased,
                              size_t* total) {
    const sw_model_node* n = &model->nodes[node];
    *erased = *total = 0;
    if (n->skin < 0 || n->mesh < 0) return;
    const sw_model_skin* skin = &model->skins[n->skin];
    const sw_model_mesh* mesh = &model->meshes[n->mesh];
    for (size_t p = 0; p < mesh->primitive_count; ++p) {
        const sw_model_primitive* prim = &mesh->primitives[p];
        size_t count = prim->indices ? prim->index_count : prim->vertex_count;
        size_t triangles = prim->mode == SW_MODEL_TRIANGLES ? count / 3
                         : prim->mode == SW_MODEL_TRIANGLE_STRIP || prim->mode == SW_MODEL_TRIANGLE_FAN
                             ? (count > 2 ? count - 2 : 0) : 0;
        if (!prim->vertex_count) triangles = 0;
        *total += triangles;
        for (size_t t = 0; prim->influence_count && t < triangles; ++t) {
            size_t e[3];
            triangle_elements(prim->mode, t, e);
            bool on_head = false;
            for (size_t c = 0; c < 3 && !on_head; ++c) {
                size_t v = prim->indices ? prim->indices[e[c]] : e[c];
                on_head = v < prim->vertex_count && vertex_on_head(prim, skin, v, below_head);
            }
            *erased += on_head;
        }
    }
}

/* Each mesh node's first-person type, as three-vrm reads them: the
   node's first annotation; a mesh node without one is `auto` in a 1.0 file
   (and a 0.x one with first-person data), else drawn in both views. */
#define TYPE_NONE 0xFF
static bool init_types(avatar_program* a, tool_error* err) {
    const sw_vrm* vrm = a->vrm;
    const sw_model* model = a->model;
    if (!(a->fp_types = malloc(model->node_count ? model->node_count : 1))) return tool_error_set(err, "out of memory");
    memset(a->fp_types, TYPE_NONE, model->node_count);
    for (size_t i = 0; i < vrm->mesh_annotation_count; ++i) {
        const sw_vrm_mesh_annotation* m = &vrm->mesh_annotations[i];
        if (m->node < model->node_count && a->fp_types[m->node] == TYPE_NONE) a->fp_types[m->node] = (uint8_t)m->type;
    }
    const bool default_auto = vrm->version == SW_VRM_1 || vrm->mesh_annotation_count || vrm->first_person_bone >= 0;
    for (size_t n = 0; n < model->node_count; ++n)
        if (a->fp_types[n] == TYPE_NONE)
            a->fp_types[n] = default_auto && model->nodes[n].mesh >= 0 ? SW_VRM_FIRST_PERSON_AUTO : SW_VRM_FIRST_PERSON_BOTH;
    return true;
}

/* The joints a first-person view erases from skinned `auto` meshes: the
   humanoid head and every node below it (three-vrm's erase bones), and
   per `auto` node the triangles that erases (a->erased, a->triangles:
   kept only when some mesh loses a triangle). */
static bool init_erase(avatar_program* a, tool_error* err) {
    const sw_model* model = a->model;
    if (!init_types(a, err)) return false;
    int32_t head = a->vrm->humanoid.node[SW_HUMANOID_HEAD];
    if (head < 0 || (size_t)head >= model->node_count) return true;
    uint8_t* below_head = calloc(model->node_count, 1);
    size_t* erased = calloc(model->node_count, sizeof *erased);
    size_t* triangles = calloc(model->node_count, sizeof *triangles);
    if (!below_head || !erased || !triangles) {
        free(below_head), free(erased), free(triangles);
        return tool_error_set(err, "out of memory");
    }
    sw_pose_mark_subtree(model, below_head, (size_t)head);
    size_t any = 0;
    for (uint32_t n = 0; n < model->node_count; ++n) {
        if (a->fp_types[n] != SW_VRM_FIRST_PERSON_AUTO) continue;
        triangles_on_head(model, n, below_head, &erased[n], &triangles[n]);
        any += erased[n];
    }
    if (!any) {
        free(erased), free(triangles);
        erased = triangles = NULL;
    }
    a->erase_joints = below_head;
    a->erased = erased;
    a->triangles = triangles;
    return true;
}

/* The nodes this view hides, as three-vrm's layers do for its camera: a
   third-person one does not see firstPersonOnly meshes; a first-person one
   does not see thirdPersonOnly meshes, nor `auto` ones that are rigid
   below the humanoid head, nor the head-weighted triangles of skinned
   `auto` ones (all of them: the node is hidden; some: the node draws the
   renderer's headless copy, a->headless). */
static bool init_hidden(avatar_program* a, tool_error* err) {
    const sw_model* model = a->model;
    free(a->hidden), free(a->headless);
    a->hidden = a->headless = NULL;
    const uint8_t* below_head = a->first_person ? a->erase_joints : NULL;
    uint8_t* hidden = calloc(model->node_count ? model->node_count : 1, 1);
    uint8_t* headless = calloc(model->node_count ? model->node_count : 1, 1);
    if (!hidden || !headless) {
        free(hidden), free(headless);
        return tool_error_set(err, "out of memory");
    }
    size_t hidden_count = 0, headless_count = 0;
    for (size_t n = 0; n < model->node_count; ++n) {
        const uint8_t type = a->fp_types[n];
        bool hide = false;
        if (!a->first_person) {
            hide = type == SW_VRM_FIRST_PERSON_FIRST_PERSON_ONLY;
        } else if (type != SW_VRM_FIRST_PERSON_AUTO || !below_head) {
            hide = type == SW_VRM_FIRST_PERSON_THIRD_PERSON_ONLY;
        } else if (model->nodes[n].skin < 0) {
            hide = below_head[n] != 0;
        } else if (a->erased && a->erased[n]) {
            hide = a->erased[n] == a->triangles[n];
            if (!hide) headless[n] = 1, headless_count++;
        }
        if (hide) hidden[n] = 1, hidden_count++;
    }
    if (hidden_count) a->hidden = hidden;
    else free(hidden);
    if (headless_count) a->headless = headless;
    else free(headless);
    return true;
}

static void* zeroed(size_t count, size_t size) {
    return calloc(count ? count : 1, size);
}

int avatar_program_init(avatar_program* a, const sw_model* model, const avatar_options* o, tool_error* err) {
    memset(a, 0, sizeof *a);
    a->model = model, a->options = o;
    a->has_gaze = o->has_gaze, a->first_person = o->first_person;
    memcpy(a->gaze, o->gaze, sizeof a->gaze);
    bool wanted = avatar_options_any(o) || o->first_person;
    sw_diag diag;
    if (sw_vrm_read(model, &a->vrm, &diag) != SW_OK) {
        a->vrm = NULL;
        if (wanted) {
            tool_error_set(err, "%s: %s", o->has_gaze ? "--gaze" : o->expression_count ? "--expression" : "--first-person",
                           diag.message);
            return TOOL_EXIT_USAGE;
        }
        char line[1100];
        snprintf(line, sizeof line, "VRM not read (first-person annotations ignored): %s", diag.message);
        warn(a, line);
        return TOOL_EXIT_OK;
    }
    if (!a->vrm) {
        if (!wanted) return TOOL_EXIT_OK;
        tool_error_set(err, "%s: %s is not a VRM avatar (no VRMC_vrm or VRM extension)",
                       o->has_gaze ? "--gaze" : o->expression_count ? "--expression" : "--first-person", model->path);
        return TOOL_EXIT_USAGE;
    }
    const sw_vrm* vrm = a->vrm;
    int status = TOOL_EXIT_FAILURE;
    if (!(a->input = zeroed(vrm->expression_count, sizeof(float))) ||
        !(a->given = zeroed(vrm->expression_count, 1)) ||
        !(a->anim_weights = zeroed(vrm->expression_count, sizeof(float))) ||
        !(a->weights = zeroed(vrm->expression_count, sizeof(float))) ||
        !(a->final_weights = zeroed(vrm->expression_count, sizeof(float))) ||
        !(a->morph = zeroed(vrm->morph_slot_count, sizeof(float))) ||
        !(a->colors = zeroed(vrm->color_slot_count, sizeof(sw_vrm_color_value))) ||
        !(a->textures = zeroed(vrm->texture_slot_count, sizeof(sw_vrm_texture_value)))) {
        tool_error_set(err, "out of memory");
        goto fail;
    }
    for (size_t i = 0; i < o->expression_count; ++i) {
        int32_t e = sw_vrm_find_expression(vrm, o->expressions[i].name);
        if (e < 0) {
            unknown_expression(a, o->expressions[i].name, err);
            status = TOOL_EXIT_USAGE;
            goto fail;
        }
        a->input[e] = o->expressions[i].weight; /* a name given twice: the last weight */
        a->given[e] = 1;
    }
    if (o->has_gaze) {
        if (vrm->humanoid.node[SW_HUMANOID_HEAD] < 0) {
            tool_error_set(err, "--gaze: %s maps no humanoid head (VRM look-at starts at the head)", model->path);
            status = TOOL_EXIT_USAGE;
            goto fail;
        }
        if (!vrm->look_at.present)
            warn(a, "--gaze: the VRM has no look-at settings; using the defaults (bone type, 90 degrees -> 10)");
        else if (vrm->look_at.type == SW_VRM_LOOK_AT_BONE && vrm->humanoid.node[SW_HUMANOID_LEFT_EYE] < 0 &&
                 vrm->humanoid.node[SW_HUMANOID_RIGHT_EYE] < 0)
            warn(a, "--gaze: bone look-at, but the humanoid maps no eye; nothing turns");
    }
    a->drives_morphs = o->expression_count > 0 || (o->has_gaze && vrm->look_at.type == SW_VRM_LOOK_AT_EXPRESSION);
    a->drives_pose = avatar_options_any(o);
    if (!init_erase(a, err) || !init_hidden(a, err)) goto fail;
    /* The state of no apply yet: the expressions' weights as given, no gaze. */
    memcpy(a->weights, a->input, vrm->expression_count * sizeof(float));
    sw_vrm_expression_result r = {.expression_weights = a->final_weights, .morph_weights = a->morph,
                                  .colors = a->colors, .textures = a->textures};
    sw_vrm_expression_weights(vrm, a->weights, &r);
    return TOOL_EXIT_OK;
fail:
    avatar_program_free(a);
    return status;
}

/* ---- per pose ------------------------------------------------------------ */

bool avatar_program_apply(avatar_program* a, sw_pose* pose, tool_error* err) {
    (void)err;
    const sw_vrm* vrm = a->vrm;
    if (!vrm || (!a->drives_pose && !a->anim_active)) return true;
    const sw_model* m = a->model;
    /* --expression wins over an animation's track for the same expression. */
    for (size_t e = 0; e < vrm->expression_count; ++e)
        a->weights[e] = a->given[e] || !a->anim_active ? a->input[e] : a->anim_weights[e];
    bool look = false;
    if (a->has_gaze) {
        sw_pose_update_world(m, pose);
        a->gazed = sw_vrm_look_at_angles(vrm, m, pose, a->gaze, &a->yaw, &a->pitch);
        look = true;
    } else if (a->anim_active && a->anim_has_look) {
        a->yaw = a->anim_yaw, a->pitch = a->anim_pitch, a->gazed = true; /* the track's angles, as three-vrm */
        look = true;
    }
    if (look) {
        if (vrm->look_at.type == SW_VRM_LOOK_AT_BONE) sw_vrm_look_at_apply_bones(vrm, m, a->yaw, a->pitch, pose->local);
        else sw_vrm_look_at_apply_expressions(vrm, a->yaw, a->pitch, a->weights);
    }
    sw_vrm_expression_result r = {.expression_weights = a->final_weights, .morph_weights = a->morph,
                                  .colors = a->colors, .textures = a->textures};
    sw_vrm_expression_weights(vrm, a->weights, &r);
    if (a->drives_morphs || a->anim_drives_morphs)
        for (size_t s = 0; s < vrm->morph_slot_count; ++s) {
            const sw_vrm_morph_slot* slot = &vrm->morph_slots[s];
            const sw_model_node* node = &m->nodes[slot->node];
            size_t at = (size_t)node->weight_offset + slot->index;
            if (at < m->weight_count) pose->weights[at] = a->morph[s];
        }
    return true;
}

/* The material's own value of a colour type (linear RGBA; alpha 1 where
   the parameter has none). */
static void base_color_of(const sw_model* m, const sw_material_set* set, uint32_t material, sw_vrm_color_type type,
                          float out[4]) {
    const sw_model_material* mat = &m->materials[material];
    const sw_toon_material* toon = set && material < set->material_count && set->toon[material].present
                                       ? &set->toon[material] : NULL;
    out[0] = out[1] = out[2] = out[3] = 1.0f;
    switch (type) {
    case SW_VRM_COLOR: memcpy(out, mat->base_color_factor, 4 * sizeof(float)); break;
    case SW_VRM_EMISSION_COLOR: memcpy(out, mat->emissive_factor, 3 * sizeof(float)); break;
    case SW_VRM_SHADE_COLOR: if (toon) memcpy(out, toon->shade_color, 3 * sizeof(float)); break;
    case SW_VRM_RIM_COLOR:
        if (toon) memcpy(out, toon->rim_color, 3 * sizeof(float));
        else out[0] = out[1] = out[2] = 0.0f; /* MToon parametricRimColorFactor default */
        break;
    case SW_VRM_OUTLINE_COLOR:
        if (toon) memcpy(out, toon->outline_color, 3 * sizeof(float));
        else out[0] = out[1] = out[2] = 0.0f; /* MToon outlineColorFactor default */
        break;
    case SW_VRM_MATCAP_COLOR: /* MToon matcapFactor; its default (1, 1, 1) without toon data */
        if (toon) memcpy(out, toon->matcap_color, 3 * sizeof(float));
        break;
    default: break;
    }
}

/* The override of `material`, made on first use (at most one per
   material; found through a per-material index, so a frame's work is
   linear in the slots). */
static sw_render_material_override* override_for(avatar_program* a, uint32_t material) {
    int32_t at = a->override_index[material];
    if (at >= 0) return &a->overrides[at];
    a->override_index[material] = (int32_t)a->override_count;
    sw_render_material_override* o = &a->overrides[a->override_count++];
    *o = (sw_render_material_override){.material = material, .uv_scale = {1.0f, 1.0f}};
    return o;
}

void avatar_program_render(avatar_program* a, const sw_material_set* materials, sw_render_frame_avatar* out) {
    *out = (sw_render_frame_avatar){.hidden_nodes = a->hidden, .headless_nodes = a->headless};
    const sw_vrm* vrm = a->vrm;
    if (!vrm || (!a->drives_morphs && !a->anim_drives_morphs)) return;
    const sw_model* m = a->model;
    size_t slots = vrm->color_slot_count + vrm->texture_slot_count;
    if (!slots) return;
    if (!a->overrides) {
        a->overrides = calloc(slots, sizeof *a->overrides);
        a->override_index = malloc((m->material_count ? m->material_count : 1) * sizeof *a->override_index);
        if (!a->overrides || !a->override_index) {
            free(a->overrides), free(a->override_index);
            a->overrides = NULL, a->override_index = NULL;
            return; /* out of memory: the materials as prepared */
        }
    }
    for (size_t i = 0; i < m->material_count; ++i) a->override_index[i] = -1;
    a->override_count = 0;
    for (size_t s = 0; s < vrm->color_slot_count; ++s) {
        const sw_vrm_color_slot* slot = &vrm->color_slots[s];
        if (slot->material >= m->material_count) continue;
        float base[4], value[4];
        base_color_of(m, materials, slot->material, slot->type, base);
        sw_vrm_color_apply(&a->colors[s], base, value);
        sw_render_material_override* o = override_for(a, slot->material);
        static const uint32_t fields[SW_VRM_COLOR_TYPE_COUNT] = {
            SW_RENDER_OVERRIDE_BASE_COLOR,   SW_RENDER_OVERRIDE_EMISSIVE,  SW_RENDER_OVERRIDE_SHADE_COLOR,
            SW_RENDER_OVERRIDE_MATCAP_COLOR, SW_RENDER_OVERRIDE_RIM_COLOR, SW_RENDER_OVERRIDE_OUTLINE_COLOR};
        float* dst[SW_VRM_COLOR_TYPE_COUNT] = {o->base_color, o->emissive, o->shade_color, o->matcap_color,
                                                o->rim_color, o->outline_color};
        o->fields |= fields[slot->type];
        memcpy(dst[slot->type], value, (slot->type == SW_VRM_COLOR ? 4 : 3) * sizeof(float));
    }
    for (size_t s = 0; s < vrm->texture_slot_count; ++s) {
        uint32_t material = vrm->texture_slots[s];
        if (material >= m->material_count) continue;
        sw_render_material_override* o = override_for(a, material);
        o->fields |= SW_RENDER_OVERRIDE_UV_TRANSFORM;
        memcpy(o->uv_scale, a->textures[s].scale, sizeof o->uv_scale);
        memcpy(o->uv_offset, a->textures[s].offset, sizeof o->uv_offset);
    }
    out->material_override_count = a->override_count;
    out->material_overrides = a->overrides;
}

/* ---- interactive changes (sinew view) ---------------------------------------- */

void avatar_program_set_weight(avatar_program* a, size_t expression, float weight) {
    if (!a->vrm || expression >= a->vrm->expression_count) return;
    a->input[expression] = weight;
    a->drives_pose = a->drives_morphs = true;
}

void avatar_program_set_gaze(avatar_program* a, const float* target) {
    if (!a->vrm) return;
    a->has_gaze = target != NULL;
    if (target) {
        memcpy(a->gaze, target, sizeof a->gaze);
        a->drives_pose = true;
        if (a->vrm->look_at.type == SW_VRM_LOOK_AT_EXPRESSION) a->drives_morphs = true;
    }
}

bool avatar_program_set_first_person(avatar_program* a, bool first_person) {
    a->first_person = first_person;
    if (!a->vrm) return true;
    tool_error err;
    return init_hidden(a, &err);
}

/* ---- export -------------------------------------------------------------- */

bool avatar_program_keep(avatar_program* a, size_t index) {
    if (!a->vrm || !(a->drives_pose || a->anim_seen)) return true;
    size_t n = a->vrm->expression_count;
    if (index >= a->kept_capacity) { /* doubling: linear in the times */
        size_t capacity = index + 1 > 2 * a->kept_capacity ? index + 1 : 2 * a->kept_capacity;
        float* grown = realloc(a->kept, capacity * (n ? n : 1) * sizeof(float));
        if (!grown) return false;
        a->kept = grown;
        a->kept_capacity = capacity;
    }
    if (index >= a->kept_count) {
        memset(a->kept + a->kept_count * n, 0, (index + 1 - a->kept_count) * n * sizeof(float));
        a->kept_count = index + 1;
    }
    memcpy(a->kept + index * n, a->final_weights, n * sizeof(float));
    /* the material overrides the renderer would get, over the toon data's colours */
    const sw_model* m = a->model;
    size_t slots = a->vrm->color_slot_count + a->vrm->texture_slot_count;
    if (!slots) return true;
    if (!a->toon_read) {
        a->toon_read = true;
        sw_diag diag;
        a->toon = calloc(m->material_count ? m->material_count : 1, sizeof *a->toon);
        if (a->toon && sw_toon_read(m, a->toon, &diag) != SW_OK) memset(a->toon, 0, m->material_count * sizeof *a->toon);
    }
    sw_material_set set = {.material_count = a->toon ? m->material_count : 0, .toon = a->toon};
    sw_render_frame_avatar frame;
    avatar_program_render(a, a->toon ? &set : NULL, &frame);
    if (index >= a->kept_override_capacity) {
        size_t capacity = a->kept_capacity > index ? a->kept_capacity : index + 1;
        sw_render_material_override* grown = realloc(a->kept_overrides, capacity * slots * sizeof *grown);
        if (!grown) return false;
        a->kept_overrides = grown;
        a->kept_override_capacity = capacity;
    }
    a->kept_override_count = frame.material_override_count; /* the same materials at every time */
    memcpy(a->kept_overrides + index * slots, frame.material_overrides,
           frame.material_override_count * sizeof *frame.material_overrides);
    return true;
}

void avatar_program_write_json(const avatar_program* a, const sw_pose* poses, size_t time_count, json_writer* w) {
    const sw_vrm* vrm = a->vrm;
    if (!vrm || !(a->drives_pose || a->anim_seen || a->options->first_person)) return;
    const sw_model* m = a->model;
    json_key(w, "avatar"), json_begin_object(w);
    if (a->options->has_gaze) {
        json_key(w, "gaze"), json_begin_array(w);
        for (int k = 0; k < 3; ++k) json_float(w, a->options->gaze[k]);
        json_end_array(w);
        json_key(w, "look_at_type"), json_string(w, vrm->look_at.type == SW_VRM_LOOK_AT_BONE ? "bone" : "expression");
    }
    /* expressions: the weights after isBinary and overrides, per time */
    json_key(w, "expressions"), json_begin_array(w);
    for (size_t e = 0; e < vrm->expression_count; ++e) {
        bool any = false;
        for (size_t t = 0; t < a->kept_count && !any; ++t) any = a->kept[t * vrm->expression_count + e] != 0.0f;
        if (!any) continue;
        json_newline(w), json_begin_object(w);
        json_key(w, "name"), json_string(w, vrm->expressions[e].name);
        json_key(w, "weight_by_time"), json_begin_array(w);
        for (size_t t = 0; t < time_count; ++t)
            json_float(w, t < a->kept_count ? a->kept[t * vrm->expression_count + e] : 0.0f);
        json_end_array(w);
        json_end_object(w);
    }
    json_end_array(w);
    /* morph weights of every morphed node, per time (the pose's, expressions applied) */
    json_key(w, "morph_weights"), json_begin_array(w);
    for (size_t source = 0; source < m->node_count; ++source) {
        const sw_model_node* node = &m->nodes[m->node_from_source[source]];
        if (node->mesh < 0) continue;
        size_t count = m->meshes[node->mesh].weight_count;
        if (!count) continue;
        json_newline(w), json_begin_object(w);
        json_key(w, "node_index"), json_int(w, (long long)source);
        json_key(w, "weights_by_time"), json_begin_array(w);
        for (size_t t = 0; t < time_count; ++t) {
            json_begin_array(w);
            for (size_t k = 0; k < count; ++k) json_float(w, poses[t].weights[node->weight_offset + k]);
            json_end_array(w);
        }
        json_end_array(w);
        json_end_object(w);
    }
    json_end_array(w);
    /* material overrides, per material and field, per time (what the renderer gets) */
    json_key(w, "material_overrides"), json_begin_array(w);
    size_t slots = vrm->color_slot_count + vrm->texture_slot_count;
    for (size_t i = 0; a->kept_overrides && i < a->kept_override_count; ++i) {
        const sw_render_material_override* first = &a->kept_overrides[i];
        json_newline(w), json_begin_object(w);
        json_key(w, "material_index"), json_int(w, first->material);
        static const struct { uint32_t field; const char* key; int count; } fields[] = {
            {SW_RENDER_OVERRIDE_BASE_COLOR, "base_color_by_time", 4},
            {SW_RENDER_OVERRIDE_EMISSIVE, "emissive_by_time", 3},
            {SW_RENDER_OVERRIDE_SHADE_COLOR, "shade_color_by_time", 3},
            {SW_RENDER_OVERRIDE_MATCAP_COLOR, "matcap_color_by_time", 3},
            {SW_RENDER_OVERRIDE_RIM_COLOR, "rim_color_by_time", 3},
            {SW_RENDER_OVERRIDE_OUTLINE_COLOR, "outline_color_by_time", 3},
            {SW_RENDER_OVERRIDE_UV_TRANSFORM, "uv_scale_by_time", 2},
            {SW_RENDER_OVERRIDE_UV_TRANSFORM, "uv_offset_by_time", 2},
        };
        for (size_t f = 0; f < sizeof fields / sizeof fields[0]; ++f) {
            if (!(first->fields & fields[f].field)) continue;
            json_key(w, fields[f].key), json_begin_array(w);
            for (size_t t = 0; t < time_count && t < a->kept_count; ++t) {
                const sw_render_material_override* o = &a->kept_overrides[t * slots + i];
                const float* v = f == 0 ? o->base_color : f == 1 ? o->emissive : f == 2 ? o->shade_color
                               : f == 3 ? o->matcap_color : f == 4 ? o->rim_color : f == 5 ? o->outline_color
                               : f == 6 ? o->uv_scale : o->uv_offset;
                json_begin_array(w);
                for (int k = 0; k < fields[f].count; ++k) json_float(w, v[k]);
                json_end_array(w);
            }
            json_end_array(w);
        }
        json_end_object(w);
    }
    json_end_array(w);
    json_key(w, "hidden_node_indices"), json_begin_array(w);
    for (size_t source = 0; a->hidden && source < m->node_count; ++source)
        if (a->hidden[m->node_from_source[source]]) json_int(w, (long long)source);
    json_end_array(w);
    /* What the first-person view erases from skinned `auto` meshes, per node. */
    json_key(w, "erased_triangles"), json_begin_array(w);
    for (size_t source = 0; a->first_person && a->erased && source < m->node_count; ++source) {
        size_t node = m->node_from_source[source];
        if (!a->erased[node]) continue;
        json_begin_object(w);
        json_key(w, "node"), json_int(w, (long long)source);
        json_key(w, "erased"), json_int(w, (long long)a->erased[node]);
        json_key(w, "triangles"), json_int(w, (long long)a->triangles[node]);
        json_end_object(w);
    }
    json_end_array(w);
    json_end_object(w);
}

/* The expression names of a VRM animation are looked up once per
   animation, not per frame. */
static bool map_animation(avatar_program* a, const sw_vrma* anim) {
    int32_t* map = NULL;
    if (anim->expression_track_count &&
        !(map = malloc(anim->expression_track_count * sizeof *map)))
        return false;
    for (size_t k = 0; k < anim->expression_track_count; ++k)
        map[k] = sw_vrm_find_expression(a->vrm, anim->expressions[anim->expression_tracks[k].expression].name);
    free(a->anim_map);
    a->anim_map = map, a->anim = anim;
    return true;
}

bool avatar_program_set_animation(avatar_program* a, const sw_vrma* anim, float t) {
    const sw_vrm* vrm = a->vrm;
    a->anim_active = false, a->anim_has_look = false, a->anim_drives_morphs = false;
    if (!vrm || !anim) return true;
    if (anim != a->anim && !map_animation(a, anim)) return false;
    memset(a->anim_weights, 0, vrm->expression_count * sizeof(float));
    for (size_t k = 0; k < anim->expression_track_count; ++k) /* track order: a later track wins */
        if (a->anim_map[k] >= 0) {
            a->anim_weights[a->anim_map[k]] = sw_vrma_expression_weight(anim, k, t);
            a->anim_drives_morphs = true;
        }
    a->anim_has_look = sw_vrma_look_at(anim, t, &a->anim_yaw, &a->anim_pitch, NULL);
    a->anim_active = a->anim_seen = true;
    return true;
}

void avatar_program_free(avatar_program* a) {
    sw_vrm_free(a->vrm);
    free(a->given), free(a->anim_weights), free(a->anim_map);
    free(a->input), free(a->weights), free(a->final_weights), free(a->morph), free(a->colors), free(a->textures);
    free(a->hidden), free(a->headless), free(a->erase_joints), free(a->erased), free(a->triangles), free(a->fp_types);
    free(a->overrides), free(a->override_index), free(a->kept), free(a->kept_overrides), free(a->toon);
    memset(a, 0, sizeof *a);
}
