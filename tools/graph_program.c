/* tools/graph_program.c — `--graph` and `--set` (graph_program.h). */
#include "graph_program.h"

#include "demo_graph_json.h" /* generated from docs/demo-graph.json */

#include "anim_file.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define GRAPH_STEP_S (1.0 / 60.0)
#define GRAPH_STEP_TOLERANCE 1e-4 /* of a step: a float time this close to a step counts as it */
#define GRAPH_MAX_SECONDS 3600.0
#define GRAPH_MAX_BYTES (16u << 20)

static char* copy_text(const char* text, size_t len) {
    char* out = malloc(len + 1);
    if (out) memcpy(out, text, len), out[len] = 0;
    return out;
}

/* NAME=VALUE[@T] */
static bool parse_set(graph_set* s, const char* v, tool_error* err) {
    const char* eq = strchr(v, '=');
    if (!eq || eq == v) return tool_error_set(err, "--set: '%s' is not NAME=VALUE[@T]", v);
    const char* at = strchr(eq + 1, '@');
    size_t value_len = at ? (size_t)(at - eq - 1) : strlen(eq + 1);
    char value[64];
    if (value_len == 0 || value_len >= sizeof value)
        return tool_error_set(err, "--set: '%s': VALUE is empty or too long", v);
    memcpy(value, eq + 1, value_len), value[value_len] = 0;
    if (!(s->text = copy_text(v, strlen(v))) || !(s->name = copy_text(v, (size_t)(eq - v))))
        return tool_error_set(err, "out of memory");
    if (strcmp(value, "true") == 0) s->kind = GRAPH_SET_TRUE;
    else if (strcmp(value, "false") == 0) s->kind = GRAPH_SET_FALSE;
    else if (strcmp(value, "trigger") == 0) s->kind = GRAPH_SET_TRIGGER;
    else {
        double number;
        tool_error e;
        if (!tool_parse_double("--set", value, -1e30, 1e30, &number, &e))
            return tool_error_set(err, "--set: '%s': VALUE '%s' is not a number, true, false or trigger", v, value);
        s->kind = GRAPH_SET_NUMBER, s->value = (float)number;
    }
    s->time = 0.0;
    if (at) {
        tool_error e;
        if (!tool_parse_double("--set", at + 1, 0.0, GRAPH_MAX_SECONDS, &s->time, &e))
            return tool_error_set(err, "--set: '%s': time '%s' is not a number of seconds in [0, %g]", v, at + 1,
                                  GRAPH_MAX_SECONDS);
    }
    return true;
}

int graph_options_take(graph_options* o, tool_args* args, const char* arg, tool_error* err) {
    const char* v;
    if (tool_args_option(args, arg, "--graph")) {
        if (!(v = tool_args_value(args, "--graph", err))) return -1;
        if (o->file) return tool_error_set(err, "--graph: given twice"), -1;
        if (!(o->file = copy_text(v, strlen(v)))) return tool_error_set(err, "out of memory"), -1;
        return 1;
    }
    if (!tool_args_option(args, arg, "--set")) return 0;
    if (!(v = tool_args_value(args, "--set", err))) return -1;
    graph_set* grown = realloc(o->sets, (o->set_count + 1) * sizeof *grown);
    if (!grown) return tool_error_set(err, "out of memory"), -1;
    o->sets = grown;
    graph_set* s = &o->sets[o->set_count++];
    memset(s, 0, sizeof *s);
    return parse_set(s, v, err) ? 1 : -1;
}

bool graph_options_check(const graph_options* o, tool_error* err) {
    if (o->set_count && !o->file) return tool_error_set(err, "--set: needs --graph");
    return true;
}

void graph_options_free(graph_options* o) {
    for (size_t i = 0; i < o->set_count; ++i) free(o->sets[i].text), free(o->sets[i].name);
    free(o->sets), free(o->file);
    memset(o, 0, sizeof *o);
}

/* ---- the program ---------------------------------------------------------- */

/* The graph's text: the built-in demo graph, or the file (NUL-terminated). */
static char* read_graph_text(const char* path, size_t* size, tool_error* err) {
    if (strcmp(path, "demo") == 0) {
        *size = sizeof demo_graph_json;
        char* text = copy_text((const char*)demo_graph_json, sizeof demo_graph_json);
        if (!text) tool_error_set(err, "out of memory");
        return text;
    }
    struct stat st;
    if (stat(path, &st) != 0) return tool_error_set(err, "--graph: cannot open '%s'", path), NULL;
    if (!S_ISREG(st.st_mode) || (unsigned long long)st.st_size > GRAPH_MAX_BYTES)
        return tool_error_set(err, "--graph: '%s' is not a regular file of at most %u bytes", path, GRAPH_MAX_BYTES),
               NULL;
    FILE* f = fopen(path, "rb");
    char* text = f ? malloc((size_t)st.st_size + 1) : NULL;
    size_t n = text ? fread(text, 1, (size_t)st.st_size, f) : 0;
    bool ok = text && !ferror(f);
    if (f) fclose(f);
    if (!ok) {
        free(text);
        return tool_error_set(err, "--graph: cannot read '%s'", path), NULL;
    }
    text[n] = 0;
    if (strlen(text) != n) {
        free(text);
        return tool_error_set(err, "--graph: '%s' holds a NUL byte; it is not JSON text", path), NULL;
    }
    if (!tool_note_read(path)) {
        free(text);
        return tool_error_set(err, "out of memory"), NULL;
    }
    *size = n;
    return text;
}

/* The parameters' names, for "unknown parameter" errors. */
static void parameter_list(const sw_graph* g, char* out, size_t size) {
    size_t used = 0;
    out[0] = 0;
    for (size_t i = 0; i < g->parameter_count && used + 1 < size; ++i) {
        int n = snprintf(out + used, size - used, "%s%s", i ? ", " : "", g->parameters[i].name);
        if (n < 0) break;
        used += (size_t)n;
    }
    if (used >= size && size > 4) memcpy(out + size - 4, "...", 4);
}

/* Each --set against the graph: the parameter exists and the value fits its type. */
static bool resolve_sets(graph_program* p, tool_error* err) {
    const sw_graph* g = &p->file->graph;
    const graph_options* o = p->options;
    for (size_t i = 0; i < o->set_count; ++i) {
        const graph_set* s = &o->sets[i];
        int32_t index = sw_graph_find_parameter(g, s->name);
        if (index < 0) {
            char names[256];
            parameter_list(g, names, sizeof names);
            return tool_error_set(err, "--set: '%s': unknown parameter '%s' (the graph has: %s)", s->text, s->name,
                                  g->parameter_count ? names : "none");
        }
        sw_graph_parameter_type type = g->parameters[index].type;
        bool fits = type == SW_GRAPH_FLOAT ? s->kind != GRAPH_SET_TRIGGER
                    : type == SW_GRAPH_BOOL ? s->kind == GRAPH_SET_TRUE || s->kind == GRAPH_SET_FALSE
                                            : s->kind != GRAPH_SET_NUMBER || s->value == 0.0f || s->value == 1.0f;
        if (!fits)
            return tool_error_set(err, "--set: '%s': '%s' is a %s parameter (give %s)", s->text, s->name,
                                  type == SW_GRAPH_FLOAT ? "float" : type == SW_GRAPH_BOOL ? "bool" : "trigger",
                                  type == SW_GRAPH_FLOAT  ? "a number, true or false"
                                  : type == SW_GRAPH_BOOL ? "true or false"
                                                          : "trigger, true, false, 1 or 0");
        p->set_parameters[i] = (uint32_t)index;
    }
    /* Stable by time: an insertion sort of the indices. */
    for (size_t i = 0; i < o->set_count; ++i) {
        size_t k = i;
        while (k > 0 && o->sets[p->set_order[k - 1]].time > o->sets[i].time) p->set_order[k] = p->set_order[k - 1], --k;
        p->set_order[k] = i;
    }
    return true;
}

int graph_program_init(graph_program* p, const sw_model* model, const graph_options* o, tool_error* err) {
    memset(p, 0, sizeof *p);
    p->model = model, p->options = o, p->fresh = true;
    size_t size = 0;
    char* text = read_graph_text(o->file, &size, err);
    if (!text) return TOOL_EXIT_USAGE;
    sw_diag diag;
    sw_humanoid_map humanoid;
    tool_error why; /* the humanoid bones of masks and IK: a VRM's, else guessed */
    bool mapped = anim_file_humanoid_map(model, NULL, &humanoid, &why);
    sw_result res = sw_graph_read(text, size, o->file, model, mapped ? &humanoid : NULL, &p->file, &diag);
    free(text);
    if (res != SW_OK) {
        if (!mapped && strstr(diag.message, "humanoid"))
            tool_error_set(err, "--graph: %s (the model's humanoid bones: %.300s)", diag.message, why.message);
        else
            tool_error_set(err, "--graph: %s", diag.message);
        return res == SW_ERR_OUT_OF_MEMORY ? TOOL_EXIT_FAILURE : TOOL_EXIT_USAGE;
    }
    int status = TOOL_EXIT_USAGE;
    size_t bytes = sw_graph_memory_size(&p->file->graph, model);
    if (!bytes) {
        (void)sw_graph_validate(&p->file->graph, model, &diag);
        tool_error_set(err, "--graph: %s: %s", o->file, diag.message);
        goto fail;
    }
    status = TOOL_EXIT_FAILURE;
    p->set_parameters = calloc(o->set_count + 1, sizeof *p->set_parameters);
    p->set_order = calloc(o->set_count + 1, sizeof *p->set_order);
    p->memory = aligned_alloc(16, bytes);
    if (!p->set_parameters || !p->set_order || !p->memory || !(p->pose_memory = tool_pose_alloc(model, &p->pose))) {
        tool_error_set(err, "out of memory");
        goto fail;
    }
    if (sw_graph_bind(&p->instance, &p->file->graph, model, p->memory, bytes, &diag) != SW_OK) {
        tool_error_set(err, "--graph: %s: %s", o->file, diag.message);
        status = TOOL_EXIT_USAGE;
        goto fail;
    }
    status = TOOL_EXIT_USAGE;
    if (!resolve_sets(p, err)) goto fail;
    return TOOL_EXIT_OK;
fail:
    graph_program_free(p);
    return status;
}

void graph_program_restart(graph_program* p) { p->fresh = true; }

bool graph_program_set_live(graph_program* p, uint32_t parameter, float value, double time) {
    if (!p->file || parameter >= p->file->graph.parameter_count) return true;
    time = fmax(time, (double)p->steps * GRAPH_STEP_S);
    size_t kept = 0; /* the later changes of this parameter go: the user has changed the future */
    for (size_t i = 0; i < p->live_count; ++i) {
        const graph_live_set* l = &p->live[i];
        if (l->parameter == parameter && l->time >= time && i >= p->next_live) continue;
        p->live[kept++] = *l;
    }
    p->live_count = kept;
    if (p->live_count == p->live_cap) {
        size_t cap = p->live_cap ? 2 * p->live_cap : 16;
        graph_live_set* grown = realloc(p->live, cap * sizeof *grown);
        if (!grown) return false;
        p->live = grown, p->live_cap = cap;
    }
    size_t at = p->live_count; /* after every change at or before `time` */
    while (at > p->next_live && p->live[at - 1].time > time) at--;
    memmove(&p->live[at + 1], &p->live[at], (p->live_count - at) * sizeof *p->live);
    p->live[at] = (graph_live_set){parameter, value, time};
    p->live_count++;
    return true;
}

float graph_program_value(const graph_program* p, uint32_t parameter) {
    for (size_t i = p->live_count; i > p->next_live; --i)
        if (p->live[i - 1].parameter == parameter) return p->live[i - 1].value;
    return sw_graph_get(&p->instance, parameter);
}

void graph_program_clear_live(graph_program* p) {
    p->live_count = 0, p->next_live = 0;
    p->fresh = true;
}

double graph_program_last_change(const graph_program* p) {
    double last = 0.0;
    for (size_t i = 0; p->options && i < p->options->set_count; ++i) last = fmax(last, p->options->sets[i].time);
    for (size_t i = 0; i < p->live_count; ++i) last = fmax(last, p->live[i].time);
    return last;
}

void graph_program_free(graph_program* p) {
    sw_graph_file_free(p->file);
    free(p->live);
    free(p->memory), free(p->pose_memory), free(p->set_parameters), free(p->set_order);
    memset(p, 0, sizeof *p);
}

/* Every --set due at or before `time` (seconds), in time order. */
static void apply_sets(graph_program* p, double time) {
    const graph_options* o = p->options;
    while (p->next_set < o->set_count) {
        size_t i = p->set_order[p->next_set];
        const graph_set* s = &o->sets[i];
        if (s->time > time + GRAPH_STEP_TOLERANCE * GRAPH_STEP_S) break;
        uint32_t param = p->set_parameters[i];
        if (s->kind == GRAPH_SET_TRIGGER) sw_graph_set_trigger(&p->instance, param);
        else if (s->kind == GRAPH_SET_NUMBER && p->file->graph.parameters[param].type == SW_GRAPH_FLOAT)
            sw_graph_set_float(&p->instance, param, s->value);
        else if (s->kind == GRAPH_SET_NUMBER && p->file->graph.parameters[param].type == SW_GRAPH_TRIGGER) {
            if (s->value != 0.0f) sw_graph_set_trigger(&p->instance, param);
            else sw_graph_set_bool(&p->instance, param, false);
        } else if (p->file->graph.parameters[param].type == SW_GRAPH_FLOAT)
            sw_graph_set_float(&p->instance, param, s->kind == GRAPH_SET_TRUE ? 1.0f : 0.0f);
        else
            sw_graph_set_bool(&p->instance, param, s->kind == GRAPH_SET_TRUE);
        p->next_set++;
    }
    /* then the live changes due (made after the command line's) */
    while (p->next_live < p->live_count && p->live[p->next_live].time <= time + GRAPH_STEP_TOLERANCE * GRAPH_STEP_S) {
        const graph_live_set* l = &p->live[p->next_live++];
        if (p->file->graph.parameters[l->parameter].type == SW_GRAPH_TRIGGER && l->value != 0.0f)
            sw_graph_set_trigger(&p->instance, l->parameter);
        else
            sw_graph_set_float(&p->instance, l->parameter, l->value);
    }
}

/* Back to time 0: start states, defaults, the sets due at 0, one evaluate. */
static bool start_over(graph_program* p, tool_error* err) {
    sw_graph_reset(&p->instance);
    p->next_set = 0, p->next_live = 0, p->steps = 0, p->fresh = false;
    p->character = (sw_root_motion_character){{0.0f, 0.0f, 0.0f}, 0.0f};
    apply_sets(p, 0.0);
    sw_diag diag;
    if (sw_graph_evaluate(&p->instance, &p->pose, &diag) != SW_OK)
        return tool_error_set(err, "--graph: %s", diag.message);
    return true;
}

/* The character's accumulated motion above the model's top nodes. */
static void apply_root_motion(const graph_program* p, sw_pose* pose) {
    sw_quat turn = sw_quat_from_axis_angle((sw_vec3){0.0f, 1.0f, 0.0f}, p->character.yaw);
    for (size_t n = 0; n < p->model->node_count; ++n) {
        if (p->model->nodes[n].parent >= 0) continue;
        sw_transform* t = &pose->local[n];
        sw_vec3 moved = sw_quat_rotate(turn, t->translation);
        t->translation = (sw_vec3){moved.x + p->character.position.x, moved.y + p->character.position.y,
                                   moved.z + p->character.position.z};
        t->rotation = sw_quat_mul(turn, t->rotation);
    }
}

bool graph_program_pose(graph_program* p, float time, sw_pose* pose, tool_error* err) {
    const double h = GRAPH_STEP_S;
    if (!(time <= GRAPH_MAX_SECONDS))
        return tool_error_set(err, "--graph: time %g s is past the %g s a graph is run for", (double)time,
                              GRAPH_MAX_SECONDS);
    const uint64_t target = time > 0.0f ? (uint64_t)floor((double)time / h + GRAPH_STEP_TOLERANCE) : 0;
    if ((p->fresh || target < p->steps) && !start_over(p, err)) return false;
    sw_diag diag;
    while (p->steps < target) {
        apply_sets(p, (double)p->steps * h);
        sw_root_motion_delta motion = {{0.0f, 0.0f, 0.0f}, 0.0f};
        if (sw_graph_update(&p->instance, (float)h, NULL, &motion, &diag) != SW_OK ||
            sw_graph_evaluate(&p->instance, &p->pose, &diag) != SW_OK)
            return tool_error_set(err, "--graph: %s", diag.message);
        if (p->file->graph.root_motion) p->character = sw_root_motion_apply(p->character, motion);
        p->steps++;
    }
    const sw_model* m = p->model;
    memcpy(pose->local, p->pose.local, m->node_count * sizeof *pose->local);
    if (m->weight_count) memcpy(pose->weights, p->pose.weights, m->weight_count * sizeof *pose->weights);
    if (p->file->graph.root_motion) apply_root_motion(p, pose);
    return true;
}

void graph_program_describe(const graph_program* p, char* out, size_t size) {
    const sw_graph* g = &p->file->graph;
    sw_graph_status st = sw_graph_layer_status(&p->instance, 0);
    const sw_graph_machine* machine = g->layers[0].machine;
    const char* to = st.state < machine->state_count ? machine->states[st.state].name : "?";
    if (st.transition == SW_GRAPH_NONE) {
        snprintf(out, size, "%s", to);
        return;
    }
    const char* from = st.from_state < machine->state_count ? machine->states[st.from_state].name : "(frozen)";
    snprintf(out, size, "%s -> %s %.0f%%", from, to, (double)(st.progress * 100.0f));
}

long graph_program_clip(const graph_program* p) {
    const sw_graph* g = &p->file->graph;
    const sw_graph_machine* machine = g->layers[0].machine;
    const sw_graph_state* start = &machine->states[machine->start];
    if (start->kind != SW_GRAPH_STATE_CLIP || start->clip >= g->clip_count) return -1;
    return (long)(g->clips[start->clip] - p->model->animations);
}
