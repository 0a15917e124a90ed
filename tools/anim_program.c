/* tools/anim_program.c — the animation options of render and export, and
   the pose they make at a time (anim_program.h). */
#include "anim_program.h"

#include "sinew/ik.h"
#include "sinew/playback.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Spring bones simulate at most this long from the start of the time axis
   (an hour at 60 steps per second); a later time is an error, never
   silently cut short. */
#define SPRING_MAX_SECONDS 3600.0
/* A time this close to a step (in steps) counts as that step: times come
   in float, and 0.7f is a hair below 42 steps of 1/60 s. */
#define SPRING_STEP_TOLERANCE 1e-4

/* ---- parsing --------------------------------------------------------------- */

static char* copy_text(const char* text, size_t len) {
    char* s = malloc(len + 1);
    if (s) memcpy(s, text, len), s[len] = 0;
    return s;
}

/* Grows an array by one zeroed element; NULL when out of memory. */
static void* push(void** items, size_t* count, size_t size) {
    void* grown = realloc(*items, (*count + 1) * size);
    if (!grown) return NULL;
    *items = grown;
    void* item = (char*)grown + *count * size;
    memset(item, 0, size);
    ++*count;
    return item;
}

/* `text` is a whole number (strtod syntax), without reporting. */
static bool looks_numeric(const char* text) {
    char* end = NULL;
    if (!*text) return false;
    (void)strtod(text, &end);
    return end != text && !*end;
}

static bool parse_float(const char* option, const char* text, double min, double max, float* out, tool_error* err) {
    double v;
    if (!tool_parse_double(option, text, min, max, &v, err)) return false;
    *out = (float)v;
    return true;
}

/* "X,Y,Z" (len bytes of text) into out[3]. */
static bool parse_vec3(const char* option, const char* text, size_t len, float out[3], tool_error* err) {
    char buf[192];
    if (len >= sizeof buf) return tool_error_set(err, "%s: '%.*s' is too long for X,Y,Z", option, (int)len, text);
    memcpy(buf, text, len), buf[len] = 0;
    char* p = buf;
    for (int i = 0; i < 3; ++i) {
        char* comma = strchr(p, ',');
        if ((i < 2) != (comma != NULL))
            return tool_error_set(err, "%s: '%.*s' is not three numbers X,Y,Z", option, (int)len, text);
        if (comma) *comma = 0;
        if (!parse_float(option, p, -1e9, 1e9, &out[i], err)) return false;
        p = comma ? comma + 1 : p;
    }
    return true;
}

/* "CLIP:W[,CLIP:W...]" */
static bool parse_blend(anim_options* o, const char* v, tool_error* err) {
    if (o->blend_count) return tool_error_set(err, "--blend: given twice (list every clip in one --blend)");
    const char* p = v;
    for (;;) {
        const char* end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        const char* colon = NULL;
        for (const char* c = p; c < p + len; ++c)
            if (*c == ':') colon = c;
        if (!colon || colon == p || colon + 1 == p + len)
            return tool_error_set(err, "--blend: '%.*s' is not CLIP:W", (int)len, p);
        anim_blend_item* item = push((void**)&o->blends, &o->blend_count, sizeof *item);
        char weight[64];
        size_t wlen = (size_t)(p + len - colon - 1);
        if (!item || !(item->clip = copy_text(p, (size_t)(colon - p)))) return tool_error_set(err, "out of memory");
        if (wlen >= sizeof weight) return tool_error_set(err, "--blend: weight '%.*s' is too long", (int)wlen, colon + 1);
        memcpy(weight, colon + 1, wlen), weight[wlen] = 0;
        if (!parse_float("--blend weight", weight, 0, 1e6, &item->weight, err)) return false;
        if (!end) break;
        p = end + 1;
    }
    return true;
}

/* "FROM,TO,START,DURATION": the numbers from the right (clip names may hold commas). */
static bool parse_crossfade(anim_options* o, const char* v, tool_error* err) {
    if (o->crossfade) return tool_error_set(err, "--crossfade: given twice");
    const char* last = strrchr(v, ',');
    const char* second = NULL;
    for (const char* c = v; last && c < last; ++c)
        if (*c == ',') second = c;
    const char* first = NULL;
    for (const char* c = v; second && c < second; ++c)
        if (*c == ',') first = c;
    if (!first || first == v || first + 1 == second)
        return tool_error_set(err, "--crossfade: '%s' is not FROM,TO,START,DURATION", v);
    char num[64];
    size_t len = (size_t)(last - second - 1);
    if (len >= sizeof num) return tool_error_set(err, "--crossfade: '%s': START is too long", v);
    memcpy(num, second + 1, len), num[len] = 0;
    if (!parse_float("--crossfade START", num, -1e6, 1e6, &o->crossfade_start, err)) return false;
    if (!parse_float("--crossfade DURATION", last + 1, 0, 1e6, &o->crossfade_duration, err)) return false;
    if (!(o->crossfade_clips = copy_text(v, (size_t)(second - v)))) return tool_error_set(err, "out of memory");
    o->crossfade = true;
    return true;
}

/* "TEXT[:W]": W is the last ':' field when that is a number and TEXT
   still holds a ':' (need_colon) or anything (!need_colon). */
static bool split_weight(const char* option, const char* v, bool need_colon, char** out_text, float* out_weight,
                         tool_error* err) {
    const char* colon = strrchr(v, ':');
    *out_weight = 1.0f;
    size_t len = strlen(v);
    if (colon && looks_numeric(colon + 1)) {
        bool has_more = memchr(v, ':', (size_t)(colon - v)) != NULL;
        if (!need_colon || has_more) {
            if (!parse_float(option, colon + 1, 0, 1, out_weight, err)) return false;
            len = (size_t)(colon - v);
        }
    }
    if (len == 0) return tool_error_set(err, "%s: '%s' names no clip", option, v);
    if (!(*out_text = copy_text(v, len))) return tool_error_set(err, "out of memory");
    return true;
}

/* "JOINT:X,Y,Z[:PX,PY,PZ]" (pole only when allowed). */
static bool parse_target(const char* option, const char* v, bool pole_allowed, anim_ik_item* item, tool_error* err) {
    const char* colon = strrchr(v, ':');
    if (!colon || colon == v)
        return tool_error_set(err, "%s: '%s' is not JOINT:X,Y,Z%s", option, v, pole_allowed ? "[:PX,PY,PZ]" : "");
    const char* target = colon + 1;
    size_t target_len = strlen(target);
    const char* before = NULL; /* the ':' before the target when a pole follows it */
    if (pole_allowed) {
        for (const char* c = v; c < colon; ++c)
            if (*c == ':') before = c;
        float probe[3];
        if (before && before != v && parse_vec3(option, before + 1, (size_t)(colon - before - 1), probe, NULL)) {
            if (!parse_vec3(option, colon + 1, strlen(colon + 1), item->pole, err)) return false;
            item->has_pole = true;
            target = before + 1, target_len = (size_t)(colon - before - 1);
            colon = before;
        }
    }
    if (!parse_vec3(option, target, target_len, item->target, err)) return false;
    if (!(item->joint = copy_text(v, (size_t)(colon - v)))) return tool_error_set(err, "out of memory");
    return true;
}

int anim_options_take(anim_options* o, tool_args* args, const char* arg, tool_error* err) {
    const char* v;
    int file = anim_file_option_take(&o->file, args, arg, err);
    if (file) return file;
    int avatar = avatar_options_take(&o->avatar, args, arg, err);
    if (avatar) return avatar;
    int graph = graph_options_take(&o->graph, args, arg, err);
    if (graph) return graph;
    if (tool_args_flag(arg, "--sync")) {
        o->sync = true;
        return 1;
    }
    if (tool_args_flag(arg, "--in-place")) {
        o->in_place = true;
        return 1;
    }
    static const char* const valued[] = {"--blend", "--crossfade", "--layer", "--additive",
                                         "--ik",    "--look-at",   "--springs"};
    const char* name = NULL;
    for (size_t i = 0; i < sizeof valued / sizeof valued[0] && !name; ++i)
        if (tool_args_option(args, arg, valued[i])) name = valued[i];
    if (!name) return 0;
    if (!(v = tool_args_value(args, name, err))) return -1;
    bool ok;
    if (strcmp(name, "--blend") == 0) {
        ok = parse_blend(o, v, err);
    } else if (strcmp(name, "--crossfade") == 0) {
        ok = parse_crossfade(o, v, err);
    } else if (strcmp(name, "--layer") == 0) {
        anim_layer_item* item = push((void**)&o->layers, &o->layer_count, sizeof *item);
        ok = item ? split_weight("--layer", v, true, &item->text, &item->weight, err)
                  : tool_error_set(err, "out of memory");
        if (ok && !strchr(item->text, ':')) ok = tool_error_set(err, "--layer: '%s' is not CLIP:MASKROOT[:W]", v);
    } else if (strcmp(name, "--additive") == 0) {
        anim_blend_item* item = push((void**)&o->additives, &o->additive_count, sizeof *item);
        ok = item ? split_weight("--additive", v, false, &item->clip, &item->weight, err)
                  : tool_error_set(err, "out of memory");
    } else if (strcmp(name, "--ik") == 0) {
        anim_ik_item* item = push((void**)&o->iks, &o->ik_count, sizeof *item);
        ok = item ? parse_target("--ik", v, true, item, err) : tool_error_set(err, "out of memory");
    } else if (strcmp(name, "--look-at") == 0) {
        anim_ik_item* item = push((void**)&o->looks, &o->look_count, sizeof *item);
        ok = item ? parse_target("--look-at", v, false, item, err) : tool_error_set(err, "out of memory");
    } else {
        ok = true;
        if (strcmp(v, "on") == 0) o->springs = ANIM_SPRINGS_ON;
        else if (strcmp(v, "off") == 0) o->springs = ANIM_SPRINGS_OFF;
        else ok = tool_error_set(err, "--springs: '%s' is not on or off", v);
    }
    return ok ? 1 : -1;
}

bool anim_options_check(const anim_options* o, tool_error* err) {
    if (!anim_file_options_check(&o->file, err)) return false;
    if (o->sync && !o->blend_count) return tool_error_set(err, "--sync: needs --blend");
    if (o->blend_count && o->crossfade) return tool_error_set(err, "--crossfade: give --blend or --crossfade, not both");
    if (!graph_options_check(&o->graph, err)) return false;
    if (o->graph.file && (o->blend_count || o->crossfade))
        return tool_error_set(err, "--graph: give --graph or %s, not both", o->crossfade ? "--crossfade" : "--blend");
    if (o->graph.file && o->in_place)
        return tool_error_set(err, "--in-place: not with --graph (a graph's \"root_motion\" plays its clips in place)");
    if (o->sync) {
        float total = 0.0f;
        for (size_t i = 0; i < o->blend_count; ++i) total += o->blends[i].weight;
        if (!(total > 0.0f)) return tool_error_set(err, "--sync: needs a --blend weight above 0");
    }
    return true;
}

bool anim_options_any(const anim_options* o) {
    return o->blend_count || o->sync || o->crossfade || o->layer_count || o->additive_count || o->in_place ||
           o->ik_count || o->look_count || avatar_options_any(&o->avatar) || o->graph.file;
}

void anim_options_free(anim_options* o) {
    for (size_t i = 0; i < o->blend_count; ++i) free(o->blends[i].clip);
    for (size_t i = 0; i < o->layer_count; ++i) free(o->layers[i].text);
    for (size_t i = 0; i < o->additive_count; ++i) free(o->additives[i].clip);
    for (size_t i = 0; i < o->ik_count; ++i) free(o->iks[i].joint);
    for (size_t i = 0; i < o->look_count; ++i) free(o->looks[i].joint);
    free(o->blends), free(o->layers), free(o->additives), free(o->iks), free(o->looks);
    free(o->crossfade_clips);
    avatar_options_free(&o->avatar);
    graph_options_free(&o->graph);
    memset(o, 0, sizeof *o);
}

/* ---- resolving against a model ------------------------------------------- */

/* A clip by name or index ("none" is not a clip here). */
static bool find_clip(const sw_model* m, const char* option, const char* spec, long* out, tool_error* err) {
    tool_error e;
    if (strcmp(spec, "none") != 0 && tool_find_clip(m, spec, out, &e) && *out >= 0) return true;
    if (strcmp(spec, "none") == 0) return tool_error_set(err, "%s: 'none' is not a clip", option);
    return tool_error_set(err, "%s: %s", option, e.message);
}

/* "LEFT<sep>RIGHT" where LEFT is a clip and RIGHT a clip (want_node false)
   or a node: the first separator that resolves both. */
static bool find_pair(const sw_model* m, const char* option, const char* text, char sep, bool want_node,
                      long* out_clip, long* out_second, tool_error* err) {
    size_t len = strlen(text), seps = 0;
    char* buf = copy_text(text, len);
    if (!buf) return tool_error_set(err, "out of memory");
    bool found = false;
    tool_error first_err = {{0}};
    for (size_t i = 1; i + 1 < len && !found; ++i) {
        if (text[i] != sep) continue;
        ++seps;
        memcpy(buf, text, len + 1);
        buf[i] = 0;
        tool_error e;
        uint32_t node;
        long second = -1;
        bool ok = find_clip(m, option, buf, out_clip, &e) &&
                  (want_node ? tool_find_node(m, option, buf + i + 1, &node, &e)
                             : find_clip(m, option, buf + i + 1, &second, &e));
        if (ok) {
            *out_second = want_node ? (long)node : second;
            found = true;
        } else if (seps == 1) {
            first_err = e;
        }
    }
    free(buf);
    if (found) return true;
    if (seps == 1) return tool_error_set(err, "%s", first_err.message);
    return tool_error_set(err, "%s: '%s' names no clip and %s of %s", option, text, want_node ? "node" : "clip",
                          m->path);
}

static bool alloc_array(void* out, size_t count, size_t size, tool_error* err) {
    void* p = calloc(count ? count : 1, size);
    *(void**)out = p;
    return p ? true : tool_error_set(err, "out of memory");
}

bool anim_program_active(const anim_program* p) {
    return anim_options_any(p->options) || p->springs_on || p->constraints_on || p->avatar.drives_pose ||
           (p->config.file && p->config.file->vrma && p->avatar.vrm); /* a .vrma's expression and look-at tracks */
}

long anim_program_primary_clip(const anim_program* p) {
    if (p->has_graph) return graph_program_clip(&p->graph);
    return p->source_count ? p->source_clips[0] : -1;
}

/* The root joint for --in-place: the top joint of the first skin, else
   the first node the root clip animates. */
static bool choose_root(const sw_model* m, long clip, uint32_t* out) {
    if (m->skin_count && m->skins[0].joint_count) {
        uint32_t best = UINT32_MAX;
        for (size_t j = 0; j < m->skins[0].joint_count; ++j)
            if (m->skins[0].joints[j] < best) best = m->skins[0].joints[j];
        *out = best;
        return true;
    }
    if (clip < 0) return false;
    const sw_clip* c = &m->animations[clip];
    uint32_t best = UINT32_MAX;
    for (size_t t = 0; t < c->track_count; ++t)
        if (c->tracks[t].path != SW_PATH_WEIGHTS && c->tracks[t].target < best) best = c->tracks[t].target;
    *out = best;
    return best != UINT32_MAX;
}

/* A reader's warning line without its leading "MODEL: ": the command names the file itself. */
static const char* without_model_path(const sw_model* m, const char* line) {
    const size_t path_len = m->path ? strlen(m->path) : 0;
    if (path_len && strncmp(line, m->path, path_len) == 0 && strncmp(line + path_len, ": ", 2) == 0)
        return line + path_len + 2;
    return line;
}

static int init_springs(anim_program* p, tool_error* err) {
    sw_diag diag;
    const sw_model* m = p->model;
    if (p->options->springs == ANIM_SPRINGS_OFF) return TOOL_EXIT_OK;
    if (sw_spring_read(m, &p->spring_set, &diag) != SW_OK) {
        /* By default a model whose spring bones do not read is drawn without them. */
        if (p->options->springs == ANIM_SPRINGS_DEFAULT) {
            tool_error_set(&p->warning, "spring bones not simulated: %s", diag.message);
            p->has_warning = true;
            return TOOL_EXIT_OK;
        }
        tool_error_set(err, "--springs: %s", diag.message);
        return TOOL_EXIT_FAILURE;
    }
    /* What the reader read around (an unknown extended collider, a center out of range, ...): one line. */
    if (p->spring_set && p->spring_set->warning_count) {
        const size_t more = p->spring_set->warning_count - 1;
        const char* first = without_model_path(m, p->spring_set->warnings[0]);
        if (more)
            tool_error_set(&p->warning, "spring bones: %s (and %zu more warning%s)", first, more, more == 1 ? "" : "s");
        else
            tool_error_set(&p->warning, "spring bones: %s", first);
        p->has_warning = true;
    }
    if (!p->spring_set || !p->spring_set->chain_count) return TOOL_EXIT_OK;
    sw_spring_sizes sizes;
    if (sw_spring_sizes_of(m, p->spring_set, &sizes, &diag) != SW_OK) {
        tool_error_set(err, "--springs: %s", diag.message);
        return TOOL_EXIT_FAILURE;
    }
    size_t bytes = (sw_spring_memory_size(&sizes) + 15) / 16 * 16;
    if (!(p->spring_memory = aligned_alloc(16, bytes ? bytes : 16))) {
        tool_error_set(err, "out of memory");
        return TOOL_EXIT_FAILURE;
    }
    /* One step per update (the step loop in spring_pose): max_substeps is for real-time callers. */
    if (sw_spring_init(&p->spring, &sizes, p->spring_memory, m, p->spring_set, NULL, &diag) != SW_OK) {
        tool_error_set(err, "--springs: %s", diag.message);
        return TOOL_EXIT_FAILURE;
    }
    p->springs_on = true;
    p->spring_fresh = true;
    /* The simulation starts where the time axis does: the clip's first key
       for export's clip times, 0 for render's times from the clip start. */
    long clip = p->base_clip >= 0 ? p->base_clip : anim_program_primary_clip(p);
    p->spring_start = !p->config.from_clip_start && clip >= 0 ? (double)m->animations[clip].start : 0.0;
    return TOOL_EXIT_OK;
}

/* The model's node constraints, always applied; a file whose constraints
   do not read is drawn without them, and the first warning is kept. */
static int init_constraints(anim_program* p, tool_error* err) {
    sw_diag diag;
    const sw_model* m = p->model;
    if (sw_constraint_read(m, &p->constraint_set, &diag) != SW_OK) {
        if (!p->has_warning)
            tool_error_set(&p->warning, "node constraints not applied: %s", without_model_path(m, diag.message));
        p->has_warning = true;
        return TOOL_EXIT_OK;
    }
    const sw_constraint_set* set = p->constraint_set;
    if (!set) return TOOL_EXIT_OK;
    if (set->warning_count && !p->has_warning) {
        const char* first = without_model_path(m, set->warnings[0]);
        tool_error_set(&p->warning, "%s", first);
        if (set->warning_count > 1)
            tool_error_set(&p->warning, "%.900s (and %zu more warnings on node constraints)", first,
                           set->warning_count - 1);
        p->has_warning = true;
    }
    if (!set->constraint_count) return TOOL_EXIT_OK;
    size_t bytes = (sw_constraint_memory_size(m, set->constraint_count) + 15) / 16 * 16;
    if (!bytes || !(p->constraint_memory = aligned_alloc(16, bytes))) {
        tool_error_set(err, "out of memory");
        return TOOL_EXIT_FAILURE;
    }
    if (sw_constraint_init(&p->constraints, p->constraint_memory, m, set->constraints, set->constraint_count, &diag) !=
        SW_OK) {
        tool_error_set(err, "node constraints: %s", diag.message);
        return TOOL_EXIT_FAILURE;
    }
    p->constraints_on = p->constraints.order_count > 0;
    return TOOL_EXIT_OK;
}

/* The usage part of init: every name and value against the model. */
static bool resolve(anim_program* p, tool_error* err) {
    const sw_model* m = p->model;
    const anim_options* o = p->options;
    if (o->blend_count) {
        p->source_count = o->blend_count;
        if (!alloc_array(&p->source_clips, o->blend_count, sizeof(long), err) ||
            !alloc_array(&p->source_weights, o->blend_count, sizeof(float), err))
            return false;
        for (size_t i = 0; i < o->blend_count; ++i) {
            if (!find_clip(m, "--blend", o->blends[i].clip, &p->source_clips[i], err)) return false;
            p->source_weights[i] = o->blends[i].weight;
        }
    } else if (o->crossfade) {
        p->source_count = 2;
        if (!alloc_array(&p->source_clips, 2, sizeof(long), err) || !alloc_array(&p->source_weights, 2, sizeof(float), err))
            return false;
        if (!find_pair(m, "--crossfade", o->crossfade_clips, ',', false, &p->source_clips[0], &p->source_clips[1], err))
            return false;
    }
    if (!alloc_array(&p->layer_clips, o->layer_count, sizeof(long), err) ||
        !alloc_array(&p->layer_masks, o->layer_count, sizeof(float*), err) ||
        !alloc_array(&p->layer_base_masks, o->layer_count, sizeof(float*), err))
        return false;
    uint8_t* marks = calloc(m->node_count ? m->node_count : 1, 1);
    if (!marks) return tool_error_set(err, "out of memory");
    for (size_t i = 0; i < o->layer_count; ++i) {
        long node;
        if (!find_pair(m, "--layer", o->layers[i].text, ':', true, &p->layer_clips[i], &node, err) ||
            !alloc_array(&p->layer_masks[i], m->node_count, sizeof(float), err) ||
            !alloc_array(&p->layer_base_masks[i], m->node_count, sizeof(float), err)) {
            free(marks);
            return false;
        }
        memset(marks, 0, m->node_count);
        sw_pose_mark_subtree(m, marks, (size_t)node);
        for (size_t j = 0; j < m->node_count; ++j) {
            float w = marks[j] ? o->layers[i].weight : 0.0f;
            p->layer_masks[i][j] = w;
            p->layer_base_masks[i][j] = 1.0f - w;
        }
    }
    free(marks);
    if (!alloc_array(&p->additive_clips, o->additive_count, sizeof(long), err)) return false;
    for (size_t i = 0; i < o->additive_count; ++i)
        if (!find_clip(m, "--additive", o->additives[i].clip, &p->additive_clips[i], err)) return false;
    if (!alloc_array(&p->ik_nodes, 3 * o->ik_count, sizeof(uint32_t), err)) return false;
    for (size_t i = 0; i < o->ik_count; ++i) {
        uint32_t end;
        if (!tool_find_node(m, "--ik", o->iks[i].joint, &end, err)) return false;
        int32_t mid = m->nodes[end].parent, start = mid >= 0 ? m->nodes[mid].parent : -1;
        if (start < 0)
            return tool_error_set(err, "--ik: node '%s' has no grandparent (two-bone IK needs JOINT, its parent and "
                                       "its grandparent)", o->iks[i].joint);
        p->ik_nodes[3 * i] = (uint32_t)start, p->ik_nodes[3 * i + 1] = (uint32_t)mid, p->ik_nodes[3 * i + 2] = end;
    }
    if (!alloc_array(&p->look_nodes, o->look_count, sizeof(uint32_t), err)) return false;
    for (size_t i = 0; i < o->look_count; ++i)
        if (!tool_find_node(m, "--look-at", o->looks[i].joint, &p->look_nodes[i], err)) return false;
    return true;
}

int anim_program_init(anim_program* p, const sw_model* model, const anim_options* o, long base_clip,
                      const anim_program_config* config, tool_error* err) {
    memset(p, 0, sizeof *p);
    p->model = model, p->options = o, p->base_clip = base_clip, p->config = *config;
    if (!anim_options_check(o, err) || !resolve(p, err)) {
        anim_program_free(p);
        return TOOL_EXIT_USAGE;
    }
    int status = avatar_program_init(&p->avatar, model, &o->avatar, err);
    if (status == TOOL_EXIT_OK && o->graph.file && (status = graph_program_init(&p->graph, model, &o->graph, err)) ==
                                                       TOOL_EXIT_OK)
        p->has_graph = true;
    if (status != TOOL_EXIT_OK) {
        anim_program_free(p);
        return status;
    }
    status = TOOL_EXIT_FAILURE;
    sw_diag diag;
    size_t n = p->source_count;
    p->scratch_count = n + 3;
    if (!alloc_array(&p->scratch, p->scratch_count, sizeof(sw_pose), err) ||
        !alloc_array(&p->scratch_memory, p->scratch_count, sizeof(void*), err) ||
        !alloc_array(&p->source_times, n, sizeof(float), err) ||
        !alloc_array(&p->members, n, sizeof(sw_sync_member), err) ||
        !alloc_array(&p->blend_layers, n > 2 ? n : 2, sizeof(sw_blend_layer), err) ||
        !alloc_array(&p->source_locals, n, sizeof(sw_transform*), err))
        goto fail;
    for (size_t i = 0; i < p->scratch_count; ++i)
        if (!(p->scratch_memory[i] = tool_pose_alloc(model, &p->scratch[i]))) {
            tool_error_set(err, "out of memory");
            goto fail;
        }
    for (size_t i = 0; i < n; ++i) {
        const sw_clip* c = &model->animations[p->source_clips[i]];
        float start = config->from_clip_start ? c->start : 0.0f;
        p->members[i] = (sw_sync_member){.start = start, .duration = c->duration - start, .weight = p->source_weights[i]};
        p->source_locals[i] = p->scratch[i].local;
    }

    if (o->in_place) {
        /* The clip whose start the root keeps: --anim, the heaviest blend clip, or the crossfade's FROM. */
        p->root_clip = base_clip;
        if (n) {
            size_t best = 0;
            for (size_t i = 1; i < n && o->blend_count; ++i)
                if (p->source_weights[i] > p->source_weights[best]) best = i;
            p->root_clip = p->source_clips[best];
        }
        uint32_t joint;
        if (p->root_clip >= 0 && choose_root(model, p->root_clip, &joint)) {
            p->has_root = true;
            p->root.joint = joint;
            p->root.rest = model->rest_local[joint];
            int32_t parent = model->nodes[joint].parent;
            if (parent >= 0) {
                sw_pose* rest = &p->scratch[n];
                sw_pose_rest(model, rest);
                sw_pose_update_world(model, rest);
                p->root.parent = rest->world[parent];
            }
            if (sw_root_motion_validate(&p->root, &model->animations[p->root_clip], &diag) != SW_OK) {
                tool_error_set(err, "--in-place: %s", diag.message);
                goto fail;
            }
        }
    }
    /* Look-at: the joint's local +Z (glTF's front) aims. */
    if (!alloc_array(&p->look_forward, o->look_count, sizeof(sw_vec3), err)) goto fail;
    for (size_t i = 0; i < o->look_count; ++i) p->look_forward[i] = (sw_vec3){0.0f, 0.0f, 1.0f};

    if ((status = init_springs(p, err)) != TOOL_EXIT_OK) goto fail;
    if ((status = init_constraints(p, err)) != TOOL_EXIT_OK) goto fail;
    return TOOL_EXIT_OK;
fail:
    anim_program_free(p);
    return status == TOOL_EXIT_OK ? TOOL_EXIT_FAILURE : status;
}

void anim_program_restart(anim_program* p) {
    p->spring_fresh = true;
    if (p->has_graph) graph_program_restart(&p->graph);
}

void anim_program_free(anim_program* p) {
    for (size_t i = 0; p->scratch_memory && i < p->scratch_count; ++i) free(p->scratch_memory[i]);
    for (size_t i = 0; p->options && i < p->options->layer_count; ++i) {
        if (p->layer_masks) free(p->layer_masks[i]);
        if (p->layer_base_masks) free(p->layer_base_masks[i]);
    }
    free(p->scratch_memory), free(p->scratch);
    free(p->source_clips), free(p->source_weights), free(p->source_times), free(p->members);
    free(p->blend_layers), free(p->source_locals);
    free(p->layer_clips), free(p->layer_masks), free(p->layer_base_masks), free(p->additive_clips);
    free(p->ik_nodes), free(p->look_nodes), free(p->look_forward);
    sw_spring_set_free(p->spring_set);
    free(p->spring_memory);
    sw_constraint_set_free(p->constraint_set);
    free(p->constraint_memory);
    avatar_program_free(&p->avatar);
    if (p->has_graph) graph_program_free(&p->graph);
    memset(p, 0, sizeof *p);
}

/* ---- evaluation ---------------------------------------------------------- */

/* One clip at the command's time (rest pose for -1). */
static sw_result sample_clip(const anim_program* p, long clip, float time, sw_pose* pose, sw_diag* diag) {
    const sw_clip* c = clip >= 0 ? &p->model->animations[clip] : NULL;
    if (c && p->config.from_clip_start)
        return sw_pose_sample(p->model, c, sw_clip_time_from_start(c, time, p->config.loop), false, pose, diag);
    return sw_pose_sample(p->model, c, time, p->config.loop, pose, diag);
}

/* Morph weights of the sources, by weight (one non-zero weight: copied). */
static void blend_morph_weights(const anim_program* p, const float* weights, float* out) {
    size_t count = p->model->weight_count, nonzero = 0, only = 0;
    float total = 0.0f;
    for (size_t i = 0; i < p->source_count; ++i)
        if (weights[i] > 0.0f) total += weights[i], ++nonzero, only = i;
    if (nonzero == 1) {
        memcpy(out, p->scratch[only].weights, count * sizeof *out);
        return;
    }
    for (size_t k = 0; k < count; ++k) {
        float sum = 0.0f;
        for (size_t i = 0; i < p->source_count; ++i) sum += weights[i] * p->scratch[i].weights[k];
        out[k] = total > 0.0f ? sum / total : p->model->rest_weights[k];
    }
}

static bool base_pose(anim_program* p, float time, sw_pose* pose, tool_error* err) {
    const sw_model* m = p->model;
    const anim_options* o = p->options;
    sw_diag diag;
    size_t n = p->source_count;
    if (p->has_graph) return graph_program_pose(&p->graph, time, pose, err);
    if (!n) {
        if (sample_clip(p, p->base_clip, time, pose, &diag) != SW_OK) return tool_error_set(err, "%s", diag.message);
        return true;
    }
    float weights[2];
    const float* w = p->source_weights;
    if (o->sync) {
        sw_clip_instance group = {.time = 0.0f, .speed = 1.0f, .wrap = p->config.loop ? SW_WRAP_LOOP : SW_WRAP_CLAMP};
        if (sw_sync_group_advance(&group, p->members, n, time, NULL, &diag) != SW_OK)
            return tool_error_set(err, "--sync: %s", diag.message);
        for (size_t i = 0; i < n; ++i)
            if (sw_pose_sample(m, &m->animations[p->source_clips[i]], p->members[i].time, false, &p->scratch[i], &diag) !=
                SW_OK)
                return tool_error_set(err, "--blend: %s", diag.message);
    } else if (o->crossfade) {
        sw_crossfade fade = {.start = o->crossfade_start, .duration = o->crossfade_duration, .curve = SW_FADE_LINEAR};
        weights[1] = sw_crossfade_weight(&fade, time);
        weights[0] = 1.0f - weights[1];
        w = weights;
        if (sample_clip(p, p->source_clips[0], time, &p->scratch[0], &diag) != SW_OK ||
            sample_clip(p, p->source_clips[1], time - o->crossfade_start, &p->scratch[1], &diag) != SW_OK)
            return tool_error_set(err, "--crossfade: %s", diag.message);
    } else {
        for (size_t i = 0; i < n; ++i)
            if (sample_clip(p, p->source_clips[i], time, &p->scratch[i], &diag) != SW_OK)
                return tool_error_set(err, "--blend: %s", diag.message);
    }
    if (sw_blend_poses(pose->local, m->node_count, m->rest_local, p->source_locals, w, n, p->blend_layers, &diag) !=
        SW_OK)
        return tool_error_set(err, "%s: %s", o->crossfade ? "--crossfade" : "--blend", diag.message);
    blend_morph_weights(p, w, pose->weights);
    return true;
}

static bool run_blend(const sw_model* m, sw_blend_job* job, const char* option, tool_error* err) {
    sw_diag diag;
    job->joint_count = m->node_count;
    job->rest_pose = m->rest_local;
    if (sw_blend_job_validate(job, &diag) != SW_OK) return tool_error_set(err, "%s: %s", option, diag.message);
    sw_blend_job_run(job);
    return true;
}

static bool layers_and_additives(anim_program* p, float time, sw_pose* pose, tool_error* err) {
    const sw_model* m = p->model;
    const anim_options* o = p->options;
    size_t nodes = m->node_count;
    sw_pose* layer = &p->scratch[p->source_count];
    sw_pose* reference = &p->scratch[p->source_count + 1];
    sw_diag diag;
    for (size_t i = 0; i < o->layer_count; ++i) {
        if (sample_clip(p, p->layer_clips[i], time, layer, &diag) != SW_OK)
            return tool_error_set(err, "--layer: %s", diag.message);
        sw_blend_layer l[2] = {
            {.pose = pose->local, .pose_count = nodes, .weight = 1.0f, .joint_weights = p->layer_base_masks[i],
             .joint_weight_count = nodes},
            {.pose = layer->local, .pose_count = nodes, .weight = 1.0f, .joint_weights = p->layer_masks[i],
             .joint_weight_count = nodes},
        };
        sw_blend_job job = {.layers = l, .layer_count = 2, .out_local = pose->local};
        if (!run_blend(m, &job, "--layer", err)) return false;
    }
    for (size_t i = 0; i < o->additive_count; ++i) {
        const sw_clip* c = &m->animations[p->additive_clips[i]];
        if (sample_clip(p, p->additive_clips[i], time, layer, &diag) != SW_OK ||
            sw_pose_sample(m, c, c->start, false, reference, &diag) != SW_OK)
            return tool_error_set(err, "--additive: %s", diag.message);
        sw_additive_delta(layer->local, layer->local, reference->local, nodes);
        sw_blend_layer base = {.pose = pose->local, .pose_count = nodes, .weight = 1.0f};
        sw_blend_layer add = {.pose = layer->local, .pose_count = nodes, .weight = o->additives[i].weight};
        sw_blend_job job = {.layers = &base, .layer_count = 1, .additive_layers = &add, .additive_layer_count = 1,
                            .out_local = pose->local};
        if (!run_blend(m, &job, "--additive", err)) return false;
    }
    return true;
}

static bool solve_ik(anim_program* p, sw_pose* pose, tool_error* err) {
    const sw_model* m = p->model;
    const anim_options* o = p->options;
    sw_diag diag;
    for (size_t i = 0; i < o->ik_count; ++i) {
        const anim_ik_item* it = &o->iks[i];
        sw_pose_update_world(m, pose);
        sw_ik_two_bone_job job = {
            .local = pose->local, .world = pose->world, .node_count = m->node_count,
            .start = p->ik_nodes[3 * i], .mid = p->ik_nodes[3 * i + 1], .end = p->ik_nodes[3 * i + 2],
            .target = {it->target[0], it->target[1], it->target[2]},
            .pole_mode = it->has_pole ? SW_IK_POLE_POINT : SW_IK_POLE_NONE,
            .pole = {it->pole[0], it->pole[1], it->pole[2]},
            .weight = 1.0f,
        };
        if (sw_ik_two_bone_job_validate(&job, &diag) != SW_OK)
            return tool_error_set(err, "--ik %s: %s", it->joint, diag.message);
        (void)sw_ik_two_bone_job_run(&job);
    }
    for (size_t i = 0; i < o->look_count; ++i) {
        const anim_ik_item* it = &o->looks[i];
        sw_pose_update_world(m, pose);
        sw_ik_aim_job job = {
            .local = pose->local, .world = pose->world, .node_count = m->node_count,
            .joints = &p->look_nodes[i], .joint_count = 1,
            .target = {it->target[0], it->target[1], it->target[2]},
            .forward = p->look_forward[i],
            .weight = 1.0f,
        };
        if (sw_ik_aim_job_validate(&job, &diag) != SW_OK)
            return tool_error_set(err, "--look-at %s: %s", it->joint, diag.message);
        (void)sw_ik_aim_job_run(&job);
    }
    return true;
}

/* A VRM animation's expression and look-at tracks, when the clip played
   (--anim, else the primary clip) is one of a .vrma's, at the clip time
   the pose is sampled at. */
static bool vrma_tracks(anim_program* p, float time, tool_error* err) {
    const long clip = p->base_clip >= 0 ? p->base_clip : anim_program_primary_clip(p);
    const sw_clip* c = clip >= 0 ? &p->model->animations[clip] : NULL;
    const sw_vrma* anim = p->config.file && c ? anim_file_vrma_of(p->config.file, c) : NULL;
    float t = 0.0f;
    if (anim) t = p->config.from_clip_start ? sw_clip_time_from_start(c, time, p->config.loop)
                                            : sw_clip_time(c, time, p->config.loop);
    if (!avatar_program_set_animation(&p->avatar, anim, t)) return tool_error_set(err, "out of memory");
    return true;
}

/* The kinematic pose at `time`, before spring bones: the base pose,
   layers, additive layers, in place, the VRM gaze and expressions, node
   constraints (three-vrm's order). The spring step loop samples it at
   every step. */
static bool kinematic_pose(anim_program* p, float time, sw_pose* pose, tool_error* err) {
    const sw_model* m = p->model;
    if (!base_pose(p, time, pose, err) || !layers_and_additives(p, time, pose, err)) return false;
    if (p->has_root) sw_root_motion_remove(&p->root, &m->animations[p->root_clip], &pose->local[p->root.joint]);
    if (!vrma_tracks(p, time, err) || !avatar_program_apply(&p->avatar, pose, err)) return false;
    if (p->constraints_on) sw_constraint_apply(&p->constraints, pose); /* after animation, before springs */
    return true;
}

/* Spring bones at `time` (anim_program.h): from the start of the time axis,
   one fixed step at a time, each on the kinematic pose at its own time;
   the state of the last step at or before `time`, drawn on the kinematic
   pose at `time` itself. A time before the simulated one starts over. */
static bool spring_pose(anim_program* p, float time, sw_pose* pose, tool_error* err) {
    const sw_model* m = p->model;
    const double h = (double)p->spring.step_s, since = (double)time - p->spring_start;
    if (since > SPRING_MAX_SECONDS)
        return tool_error_set(err, "spring bones: time %g s is %g s past the start; they simulate at most %g s "
                                   "(--springs off to go without)",
                              (double)time, since, SPRING_MAX_SECONDS);
    const uint64_t target = since > 0.0 ? (uint64_t)floor(since / h + SPRING_STEP_TOLERANCE) : 0;
    if (p->spring_fresh || target < p->spring_steps) {
        if (!kinematic_pose(p, (float)p->spring_start, pose, err)) return false;
        sw_pose_update_world(m, pose);
        sw_spring_reset(&p->spring, pose);
        p->spring_steps = 0;
        p->spring_fresh = false;
    }
    while (p->spring_steps < target) {
        p->spring_steps++;
        if (!kinematic_pose(p, (float)(p->spring_start + (double)p->spring_steps * h), pose, err)) return false;
        sw_pose_update_world(m, pose);
        (void)sw_spring_update(&p->spring, m, p->spring_set, pose, p->spring.step_s); /* exactly one step */
    }
    if (!kinematic_pose(p, time, pose, err)) return false;
    sw_pose_update_world(m, pose);
    (void)sw_spring_update(&p->spring, m, p->spring_set, pose, 0.0f); /* no step: the rotations written */
    return true;
}

bool anim_program_evaluate(anim_program* p, float time, sw_pose* pose, tool_error* err) {
    const sw_model* m = p->model;
    if (p->springs_on) {
        if (!spring_pose(p, time, pose, err)) return false;
    } else if (!kinematic_pose(p, time, pose, err)) {
        return false;
    }
    if (!solve_ik(p, pose, err)) return false;
    sw_pose_update(m, pose);
    return true;
}
