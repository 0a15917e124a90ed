/* Animation graphs: validation, the instance's memory, transitions,
   advancing and evaluating. See sinew/graph.h for the manual. */
#include "sinew/graph.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sinew/inertialize.h"

/* ---- instance data ------------------------------------------------------------ */

typedef struct sw__graph_play {
    uint32_t state;
    sw_clip_instance head; /* time = phase */
    float cycles;          /* normalised time since entered */
} sw__graph_play;

typedef struct sw__graph_runtime {
    const sw_graph_machine* machine;
    uint32_t* children; /* state_count: runtime of a MACHINE state, else SW_GRAPH_NONE */
    uint32_t index;
    sw__graph_play current, source;
    bool has_source, source_frozen;
    uint32_t transition;
    float elapsed;
    bool inertial_pending, inertial_active;
    sw_inertialize_state inertial;
    sw_transform *src, *dst, *frozen, *hist[2];
    int hist_count;
    float hist_dt, since_eval;
} sw__graph_runtime;

typedef struct sw__graph_data sw__graph_data;
struct sw__graph_data {
    size_t runtime_count;
    sw__graph_runtime* runtimes;
    uint32_t* layer_runtime;
    float* params;
    size_t max_members;
    sw_transform** member_poses;
    float* member_weights;
    sw_sync_member* sync;
    uint32_t* sync_member;
    sw_blend_layer* blend_layers;
    float* morph_scratch;
    sw_transform* layer_pose;
    sw_transform* delta;
    float* mask_below;
    float* mask_above;
    sw_mat34* ik_world;  /* node_count, with an IK node */
    sw_fbik_result ik_result;
};

typedef struct sw__carver {
    uint8_t* base;
    size_t at;
} sw__carver;

static void* sw__carve(sw__carver* c, size_t count, size_t size) {
    void* p = c->base ? c->base + c->at : NULL;
    c->at += (count * size + 15u) & ~(size_t)15u;
    return p;
}

/* ---- validation ------------------------------------------------------------- */

static bool sw__param_ok(const sw_graph* g, uint32_t p) { return p < g->parameter_count; }

static sw_result sw__check_members(const sw_graph* g, const sw_graph_state* s, const char* where, sw_diag* diag) {
    if (s->member_count == 0 || !s->members)
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "%s: a blend state needs clips", where);
    for (size_t i = 0; i < s->member_count; i++)
        if (s->members[i] >= g->clip_count)
            return sw_diag_set(diag, SW_ERR_INDEX_OUT_OF_RANGE, (int64_t)i, "%s: clip %u of %zu", where,
                               (unsigned)s->members[i], g->clip_count);
    if (s->kind == SW_GRAPH_STATE_BLEND_1D) {
        if (!s->thresholds || !sw__param_ok(g, s->parameter))
            return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "%s: a 1-D blend needs thresholds and a parameter",
                               where);
        for (size_t i = 0; i < s->member_count; i++)
            if (!isfinite(s->thresholds[i]) || (i > 0 && !(s->thresholds[i] > s->thresholds[i - 1])))
                return sw_diag_set(diag, SW_ERR_INVALID_DATA, (int64_t)i,
                                   "%s: thresholds must be finite and strictly ascending (at %zu)", where, i);
    } else {
        if (!s->space || s->space->point_count != s->member_count || !sw__param_ok(g, s->parameter) ||
            !sw__param_ok(g, s->parameter_y))
            return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1,
                               "%s: a 2-D blend needs a space of its %zu clips and two parameters", where,
                               s->member_count);
    }
    return SW_OK;
}

static sw_result sw__check_machine(const sw_graph* g, const sw_graph_machine* m, int depth, size_t* runtimes,
                                   size_t* max_members, sw_diag* diag);

static sw_result sw__check_state(const sw_graph* g, const sw_graph_state* s, int depth, size_t* runtimes,
                                 size_t* max_members, const char* where, sw_diag* diag) {
    if (!isfinite(s->speed))
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "%s: speed %g is not finite", where, (double)s->speed);
    switch (s->kind) {
    case SW_GRAPH_STATE_CLIP:
        if (s->clip >= g->clip_count)
            return sw_diag_set(diag, SW_ERR_INDEX_OUT_OF_RANGE, -1, "%s: clip %u of %zu", where, (unsigned)s->clip,
                               g->clip_count);
        if (*max_members < 1) *max_members = 1;
        return SW_OK;
    case SW_GRAPH_STATE_BLEND_1D:
    case SW_GRAPH_STATE_BLEND_2D:
        if (*max_members < s->member_count) *max_members = s->member_count;
        return sw__check_members(g, s, where, diag);
    case SW_GRAPH_STATE_MACHINE:
        if (!s->machine) return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "%s: no nested machine", where);
        if (depth + 1 >= SW_GRAPH_MAX_DEPTH)
            return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "%s: machines nested deeper than %d (a cycle?)", where,
                               SW_GRAPH_MAX_DEPTH);
        return sw__check_machine(g, s->machine, depth + 1, runtimes, max_members, diag);
    }
    return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "%s: unknown kind %d", where, (int)s->kind);
}

static sw_result sw__check_transition(const sw_graph* g, const sw_graph_machine* m, size_t i, sw_diag* diag) {
    const sw_graph_transition* t = &m->transitions[i];
    if ((t->from >= m->state_count && t->from != SW_GRAPH_ANY_STATE) || t->to >= m->state_count)
        return sw_diag_set(diag, SW_ERR_INDEX_OUT_OF_RANGE, (int64_t)i, "transition %zu: state out of range", i);
    if (t->condition != SW_GRAPH_NONE && t->condition >= g->condition_count)
        return sw_diag_set(diag, SW_ERR_INDEX_OUT_OF_RANGE, (int64_t)i, "transition %zu: condition %u of %zu", i,
                           (unsigned)t->condition, g->condition_count);
    if (!isfinite(t->duration) || t->duration < 0.0f || !isfinite(t->exit_time) || t->exit_time < 0.0f)
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, (int64_t)i,
                           "transition %zu: duration and exit time must be finite and >= 0", i);
    if ((unsigned)t->blend > SW_GRAPH_INERTIALIZE || (unsigned)t->sync > SW_GRAPH_SYNC_PHASE ||
        (unsigned)t->interrupt > SW_GRAPH_INTERRUPT_DESTINATION || (unsigned)t->curve > SW_FADE_SMOOTH)
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, (int64_t)i, "transition %zu: unknown blend, sync, "
                           "interrupt or curve", i);
    return SW_OK;
}

static sw_result sw__check_machine(const sw_graph* g, const sw_graph_machine* m, int depth, size_t* runtimes,
                                   size_t* max_members, sw_diag* diag) {
    if (!m || m->state_count == 0 || !m->states || m->state_count > 0xffffu)
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "a machine needs 1 to 65535 states");
    if (m->start >= m->state_count)
        return sw_diag_set(diag, SW_ERR_INDEX_OUT_OF_RANGE, -1, "start state %u of %zu", (unsigned)m->start,
                           m->state_count);
    if (m->transition_count && !m->transitions)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "transitions missing");
    ++*runtimes;
    for (size_t i = 0; i < m->state_count; i++) {
        char where[96];
        snprintf(where, sizeof where, "state %zu (%.40s)", i, m->states[i].name ? m->states[i].name : "unnamed");
        sw_result r = sw__check_state(g, &m->states[i], depth, runtimes, max_members, where, diag);
        if (r != SW_OK) return r;
    }
    for (size_t i = 0; i < m->transition_count; i++) {
        sw_result r = sw__check_transition(g, m, i, diag);
        if (r != SW_OK) return r;
    }
    return SW_OK;
}

static sw_result sw__check_conditions(const sw_graph* g, sw_diag* diag) {
    if (g->condition_count && !g->conditions)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "conditions missing");
    for (size_t i = 0; i < g->condition_count; i++) {
        const sw_graph_condition* c = &g->conditions[i];
        bool ok;
        if (c->op <= SW_COND_NOT_EQUAL)
            ok = sw__param_ok(g, c->parameter) && (c->op == SW_COND_PARAMETER || isfinite(c->value));
        else if (c->op == SW_COND_NOT)
            ok = c->left < i;
        else if (c->op == SW_COND_AND || c->op == SW_COND_OR)
            ok = c->left < i && c->right < i;
        else
            ok = false;
        if (!ok)
            return sw_diag_set(diag, SW_ERR_INVALID_DATA, (int64_t)i,
                               "condition %zu: unknown op, parameter out of range, non-finite value, or a child "
                               "not before it", i);
    }
    return SW_OK;
}

static sw_result sw__check_clips(const sw_graph* g, const sw_model* model, sw_diag* diag) {
    if (g->clip_count && !g->clips) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "clips missing");
    for (size_t i = 0; i < g->clip_count; i++) {
        const sw_clip* clip = g->clips[i];
        if (!clip || !isfinite(clip->duration) || clip->duration < 0.0f)
            return sw_diag_set(diag, SW_ERR_INVALID_DATA, (int64_t)i, "clip %zu: missing or bad duration", i);
        for (size_t t = 0; t < clip->track_count; t++) {
            const sw_track* tr = &clip->tracks[t];
            if (tr->target >= model->node_count)
                return sw_diag_set(diag, SW_ERR_INDEX_OUT_OF_RANGE, (int64_t)i,
                                   "clip %zu (%.40s): track %zu targets node %u of %zu", i,
                                   clip->name ? clip->name : "unnamed", t, (unsigned)tr->target, model->node_count);
            if (tr->path == SW_PATH_WEIGHTS &&
                (uint64_t)model->weight_offsets[tr->target] + tr->component_count > model->weight_count)
                return sw_diag_set(diag, SW_ERR_INDEX_OUT_OF_RANGE, (int64_t)i,
                                   "clip %zu: track %zu writes morph weights past the model's", i, t);
            sw_result r = sw_track_validate(tr, diag);
            if (r != SW_OK) return r;
        }
    }
    return SW_OK;
}

static sw_result sw__check_ik(const sw_graph* g, const sw_model* model, sw_diag* diag) {
    const sw_graph_ik* ik = g->ik;
    if (!ik->rig || !ik->rig->parents || ik->rig->node_count != model->node_count)
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "ik: no rig, or a rig built for another model");
    if (ik->iterations < 0 || !(ik->tolerance >= 0.0f && isfinite(ik->tolerance)))
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "ik: iterations and tolerance must be >= 0");
    for (int e = 0; e < SW_FBIK_EFFECTOR_COUNT; e++) {
        const sw_graph_ik_effector* x = &ik->effectors[e];
        bool ok = x->weight >= 0.0f && x->weight <= 1.0f && isfinite(x->position.x) && isfinite(x->position.y) &&
                  isfinite(x->position.z) && (x->weight_parameter == SW_GRAPH_NONE || sw__param_ok(g, x->weight_parameter));
        for (int a = 0; a < 3; a++)
            ok = ok && (x->position_parameter[a] == SW_GRAPH_NONE || sw__param_ok(g, x->position_parameter[a]));
        if (!ok)
            return sw_diag_set(diag, SW_ERR_INVALID_DATA, e,
                               "ik: effector %s: weight must be in [0, 1], position finite, parameters known",
                               sw_fbik_effector_name((sw_fbik_effector_id)e));
    }
    return SW_OK;
}

static sw_result sw__check_graph(const sw_graph* g, const sw_model* model, size_t* runtimes, size_t* max_members,
                                 sw_diag* diag) {
    *runtimes = 0, *max_members = 1;
    if (!g || !model || model->node_count == 0)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "no graph or an empty model");
    if (g->parameter_count > SW_GRAPH_MAX_PARAMETERS || (g->parameter_count && !g->parameters))
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "at most %d parameters", SW_GRAPH_MAX_PARAMETERS);
    for (size_t i = 0; i < g->parameter_count; i++)
        if ((unsigned)g->parameters[i].type > SW_GRAPH_TRIGGER || !isfinite(g->parameters[i].default_value))
            return sw_diag_set(diag, SW_ERR_INVALID_DATA, (int64_t)i, "parameter %zu: bad type or default", i);
    sw_result r = sw__check_conditions(g, diag);
    if (r == SW_OK) r = sw__check_clips(g, model, diag);
    if (r == SW_OK && g->ik) r = sw__check_ik(g, model, diag);
    if (r != SW_OK) return r;
    if (g->layer_count == 0 || !g->layers) return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "no layers");
    for (size_t k = 0; k < g->layer_count; k++) {
        const sw_graph_layer* l = &g->layers[k];
        if (!(l->weight >= 0.0f && l->weight <= 1.0f) || (unsigned)l->mode > SW_GRAPH_LAYER_ADDITIVE ||
            (l->weight_parameter != SW_GRAPH_NONE && !sw__param_ok(g, l->weight_parameter)))
            return sw_diag_set(diag, SW_ERR_INVALID_DATA, (int64_t)k,
                               "layer %zu: weight must be in [0, 1], mode and weight parameter known", k);
        for (size_t j = 0; l->mask && j < model->node_count; j++)
            if (!(l->mask[j] >= 0.0f && l->mask[j] <= 1.0f))
                return sw_diag_set(diag, SW_ERR_INVALID_DATA, (int64_t)k, "layer %zu: mask of node %zu not in [0, 1]",
                                   k, j);
        sw_diag inner;
        r = sw__check_machine(g, l->machine, 0, runtimes, max_members, &inner);
        if (r != SW_OK) return sw_diag_set(diag, r, inner.index, "layer %zu: %s", k, inner.message);
    }
    if (g->root_motion) {
        for (size_t i = 0; i < g->clip_count; i++) {
            r = sw_root_motion_validate(g->root_motion, g->clips[i], diag);
            if (r != SW_OK) return r;
        }
    }
    return SW_OK;
}

sw_result sw_graph_validate(const sw_graph* graph, const sw_model* model, sw_diag* diag) {
    size_t runtimes, members;
    return sw__check_graph(graph, model, &runtimes, &members, diag);
}

/* ---- memory ------------------------------------------------------------------- */

static uint32_t sw__assign(sw__graph_data* d, sw__carver* c, const sw_graph_machine* m, uint32_t* next,
                           size_t joints) {
    uint32_t idx = (*next)++;
    sw__graph_runtime* r = d ? &d->runtimes[idx] : NULL;
    uint32_t* children = sw__carve(c, m->state_count, sizeof(uint32_t));
    sw_inertialize_joint* ij = sw__carve(c, joints, sizeof(sw_inertialize_joint));
    sw_transform* buffers[5];
    for (int i = 0; i < 5; i++) buffers[i] = sw__carve(c, joints, sizeof(sw_transform));
    if (r) {
        memset(r, 0, sizeof *r);
        r->machine = m, r->children = children, r->index = idx, r->inertial.joints = ij;
        r->src = buffers[0], r->dst = buffers[1], r->frozen = buffers[2], r->hist[0] = buffers[3];
        r->hist[1] = buffers[4];
    }
    for (size_t s = 0; s < m->state_count; s++) {
        uint32_t child = SW_GRAPH_NONE;
        if (m->states[s].kind == SW_GRAPH_STATE_MACHINE) child = sw__assign(d, c, m->states[s].machine, next, joints);
        if (children) children[s] = child;
    }
    return idx;
}

static size_t sw__layout(const sw_graph* g, const sw_model* model, size_t runtimes, size_t max_members, void* memory,
                         sw__graph_data** out) {
    sw__carver c = {memory, 0};
    size_t n = model->node_count;
    sw__graph_data* d = sw__carve(&c, 1, sizeof(sw__graph_data));
    if (d) memset(d, 0, sizeof *d), d->runtime_count = runtimes, d->max_members = max_members;
    sw__graph_runtime* rt = sw__carve(&c, runtimes, sizeof(sw__graph_runtime));
    uint32_t* layer_runtime = sw__carve(&c, g->layer_count, sizeof(uint32_t));
    float* params = sw__carve(&c, g->parameter_count ? g->parameter_count : 1, sizeof(float));
    sw_transform** member_poses = sw__carve(&c, max_members, sizeof(sw_transform*));
    float* weights = sw__carve(&c, max_members, sizeof(float));
    sw_sync_member* sync = sw__carve(&c, max_members, sizeof(sw_sync_member));
    uint32_t* sync_member = sw__carve(&c, max_members, sizeof(uint32_t));
    sw_blend_layer* blend_layers = sw__carve(&c, max_members > 2 ? max_members : 2, sizeof(sw_blend_layer));
    float* morph = sw__carve(&c, model->weight_count ? model->weight_count : 1, sizeof(float));
    sw_transform* layer_pose = sw__carve(&c, n, sizeof(sw_transform));
    sw_transform* delta = sw__carve(&c, n, sizeof(sw_transform));
    float* below = sw__carve(&c, n, sizeof(float));
    float* above = sw__carve(&c, n, sizeof(float));
    sw_mat34* ik_world = g->ik ? sw__carve(&c, n, sizeof(sw_mat34)) : NULL;
    if (d) {
        d->ik_world = ik_world;
        d->runtimes = rt, d->layer_runtime = layer_runtime, d->params = params, d->member_poses = member_poses;
        d->member_weights = weights, d->sync = sync, d->sync_member = sync_member, d->blend_layers = blend_layers;
        d->morph_scratch = morph, d->layer_pose = layer_pose, d->delta = delta, d->mask_below = below;
        d->mask_above = above;
    }
    for (size_t i = 0; i < max_members; i++) {
        sw_transform* p = sw__carve(&c, n, sizeof(sw_transform));
        if (d) member_poses[i] = p;
    }
    uint32_t next = 0;
    for (size_t k = 0; k < g->layer_count; k++) {
        uint32_t idx = sw__assign(d, &c, g->layers[k].machine, &next, n);
        if (d) layer_runtime[k] = idx;
    }
    if (out) *out = d;
    return c.at;
}

size_t sw_graph_memory_size(const sw_graph* graph, const sw_model* model) {
    size_t runtimes, members;
    if (sw__check_graph(graph, model, &runtimes, &members, NULL) != SW_OK) return 0;
    return sw__layout(graph, model, runtimes, members, NULL, NULL);
}

static void sw__reset_runtime(sw_graph_instance* g, uint32_t idx) {
    sw__graph_runtime* r = &g->data->runtimes[idx];
    r->current = (sw__graph_play){.state = r->machine->start};
    r->has_source = r->source_frozen = false;
    r->transition = SW_GRAPH_NONE;
    r->elapsed = 0.0f;
    r->inertial_pending = r->inertial_active = false;
    r->hist_count = 0;
    r->hist_dt = r->since_eval = 0.0f;
    uint32_t child = r->children[r->current.state];
    if (child != SW_GRAPH_NONE) sw__reset_runtime(g, child);
}

void sw_graph_reset(sw_graph_instance* g) {
    SW_ASSERT(g && g->data);
    for (size_t i = 0; i < g->graph->parameter_count; i++) g->data->params[i] = g->graph->parameters[i].default_value;
    for (size_t i = 0; i < g->data->runtime_count; i++) sw__reset_runtime(g, (uint32_t)i);
    g->data->ik_result = (sw_fbik_result){0, 0};
}

sw_result sw_graph_bind(sw_graph_instance* g, const sw_graph* graph, const sw_model* model, void* memory,
                        size_t memory_size, sw_diag* diag) {
    SW_ASSERT(g);
    size_t runtimes, members;
    sw_result r = sw__check_graph(graph, model, &runtimes, &members, diag);
    if (r != SW_OK) return r;
    size_t need = sw__layout(graph, model, runtimes, members, NULL, NULL);
    if (!memory || ((uintptr_t)memory & 15u) || memory_size < need)
        return sw_diag_set(diag, SW_ERR_BUFFER_TOO_SMALL, -1, "graph memory: %zu bytes, 16-aligned, needed", need);
    g->graph = graph, g->model = model;
    sw__layout(graph, model, runtimes, members, memory, &g->data);
    sw_graph_reset(g);
    return SW_OK;
}

/* ---- parameters and conditions ---------------------------------------------- */

int32_t sw_graph_find_parameter(const sw_graph* graph, const char* name) {
    for (size_t i = 0; graph && name && i < graph->parameter_count; i++)
        if (graph->parameters[i].name && strcmp(graph->parameters[i].name, name) == 0) return (int32_t)i;
    return -1;
}

void sw_graph_set_float(sw_graph_instance* g, uint32_t p, float value) {
    if (p < g->graph->parameter_count) g->data->params[p] = value;
}
void sw_graph_set_bool(sw_graph_instance* g, uint32_t p, bool value) { sw_graph_set_float(g, p, value ? 1.0f : 0.0f); }
void sw_graph_set_trigger(sw_graph_instance* g, uint32_t p) { sw_graph_set_float(g, p, 1.0f); }
float sw_graph_get(const sw_graph_instance* g, uint32_t p) {
    return p < g->graph->parameter_count ? g->data->params[p] : 0.0f;
}

/* Children come before their parents (checked at bind), so this recursion
   is bounded by the node count. */
static bool sw__condition(const sw_graph* graph, const float* params, uint32_t i) {
    const sw_graph_condition* c = &graph->conditions[i];
    float x = c->op <= SW_COND_NOT_EQUAL ? params[c->parameter] : 0.0f;
    switch (c->op) {
    case SW_COND_PARAMETER: return x != 0.0f;
    case SW_COND_LESS: return x < c->value;
    case SW_COND_LESS_EQUAL: return x <= c->value;
    case SW_COND_GREATER: return x > c->value;
    case SW_COND_GREATER_EQUAL: return x >= c->value;
    case SW_COND_EQUAL: return x == c->value;
    case SW_COND_NOT_EQUAL: return x != c->value;
    case SW_COND_AND: return sw__condition(graph, params, c->left) && sw__condition(graph, params, c->right);
    case SW_COND_OR: return sw__condition(graph, params, c->left) || sw__condition(graph, params, c->right);
    case SW_COND_NOT: return !sw__condition(graph, params, c->left);
    }
    return false;
}

/* Resets the triggers a condition reads. */
static void sw__consume(const sw_graph* graph, float* params, uint32_t i) {
    const sw_graph_condition* c = &graph->conditions[i];
    if (c->op <= SW_COND_NOT_EQUAL) {
        if (graph->parameters[c->parameter].type == SW_GRAPH_TRIGGER) params[c->parameter] = 0.0f;
        return;
    }
    sw__consume(graph, params, c->left);
    if (c->op != SW_COND_NOT) sw__consume(graph, params, c->right);
}

/* ---- states: weights, phase, advancing ---------------------------------------- */

/* Writes the member weights of a clip or blend state; returns the count. */
static size_t sw__state_weights(const sw_graph_instance* g, const sw_graph_state* s, float* w,
                                const uint32_t** clips) {
    const float* p = g->data->params;
    if (s->kind == SW_GRAPH_STATE_CLIP) {
        w[0] = 1.0f, *clips = &s->clip;
        return 1;
    }
    *clips = s->members;
    if (s->kind == SW_GRAPH_STATE_BLEND_1D) {
        if (sw_blend_space_1d(w, s->thresholds, s->member_count, p[s->parameter], NULL) != SW_OK) {
            memset(w, 0, s->member_count * sizeof(float));
            w[0] = 1.0f; /* a non-finite parameter */
        }
    } else {
        sw_blend_space_2d_weights(s->space, s->method, p[s->parameter], p[s->parameter_y], w);
    }
    return s->member_count;
}

static float sw__transition_weight(const sw_graph_transition* t, float elapsed) {
    sw_crossfade fade = {.start = 0.0f, .duration = t->duration, .curve = t->curve};
    return sw_crossfade_weight(&fade, elapsed);
}

static void sw__add_motion(sw_root_motion_delta* acc, sw_root_motion_delta d, float w) {
    acc->translation.x += w * d.translation.x, acc->translation.y += w * d.translation.y;
    acc->translation.z += w * d.translation.z, acc->yaw += w * d.yaw;
}

typedef struct sw__step {
    float dt;
    sw_event_buffer* events;
    sw_root_motion_delta* motion; /* NULL: not wanted (or not layer 0) */
    sw_diag* diag;
} sw__step;

static sw_result sw__advance_runtime(sw_graph_instance* g, uint32_t idx, const sw__step* step, float factor);

/* Advances one playing state by dt; `factor` is its weight in the output
   (root motion). */
static sw_result sw__advance_state(sw_graph_instance* g, sw__graph_runtime* r, sw__graph_play* play,
                                   const sw__step* step, float factor) {
    const sw_graph_state* s = &r->machine->states[play->state];
    if (s->kind == SW_GRAPH_STATE_MACHINE) {
        uint32_t child = r->children[play->state];
        sw_result res = sw__advance_runtime(g, child, step, factor);
        const sw__graph_runtime* c = &g->data->runtimes[child];
        play->head.time = c->current.head.time, play->cycles = c->current.cycles;
        return res;
    }
    sw__graph_data* d = g->data;
    const uint32_t* clips;
    size_t n = sw__state_weights(g, s, d->member_weights, &clips);
    size_t used = 0;
    for (size_t i = 0; i < n; i++) {
        if (!(d->member_weights[i] > 0.0f)) continue;
        const sw_clip* clip = g->graph->clips[clips[i]];
        const sw_clip_events* ev = g->graph->clip_events ? g->graph->clip_events[clips[i]] : NULL;
        d->sync[used] = (sw_sync_member){.start = 0.0f, .duration = clip->duration, .weight = d->member_weights[i],
                                         .events = ev};
        d->sync_member[used++] = clips[i];
    }
    float cycle = sw_sync_group_cycle(d->sync, used);
    float speed = s->speed == 0.0f ? 1.0f : s->speed;
    if (!(cycle > 0.0f) || step->dt == 0.0f) return SW_OK;
    float phase0 = play->head.time, dphase = step->dt * speed / cycle;
    play->head.speed = speed;
    play->head.wrap = s->once ? SW_WRAP_CLAMP : SW_WRAP_LOOP;
    size_t first_event = step->events ? step->events->count : 0;
    sw_result res = sw_sync_group_advance(&play->head, d->sync, used, step->dt, step->events, step->diag);
    if (res != SW_OK) return res;
    for (size_t e = first_event; step->events && e < step->events->count; e++)
        step->events->events[e].source = ((size_t)r->index << 16) | play->state;
    play->cycles = s->once ? play->head.time : play->cycles + dphase;
    if (step->motion && g->graph->root_motion) {
        for (size_t i = 0; i < used; i++) {
            const sw_clip* clip = g->graph->clips[d->sync_member[i]];
            float from = phase0 * clip->duration, to = (phase0 + dphase) * clip->duration;
            sw_root_motion_delta m = sw_root_motion_extract(g->graph->root_motion, clip, from, to, !s->once);
            sw__add_motion(step->motion, m, factor * d->sync[i].weight);
        }
    }
    return SW_OK;
}

/* The best candidate transition now, or SW_GRAPH_NONE. */
static uint32_t sw__pick(const sw_graph_instance* g, const sw__graph_runtime* r) {
    const sw_graph_machine* m = r->machine;
    if (r->transition != SW_GRAPH_NONE && m->transitions[r->transition].interrupt != SW_GRAPH_INTERRUPT_DESTINATION)
        return SW_GRAPH_NONE;
    uint32_t best = SW_GRAPH_NONE;
    for (size_t i = 0; i < m->transition_count; i++) {
        const sw_graph_transition* t = &m->transitions[i];
        if (t->from != r->current.state && !(t->from == SW_GRAPH_ANY_STATE && t->to != r->current.state)) continue;
        if (t->has_exit_time && !(r->current.cycles >= t->exit_time)) continue;
        if (t->condition != SW_GRAPH_NONE && !sw__condition(g->graph, g->data->params, t->condition)) continue;
        if (best == SW_GRAPH_NONE || t->priority < m->transitions[best].priority) best = (uint32_t)i;
    }
    return best;
}

static void sw__take(sw_graph_instance* g, sw__graph_runtime* r, uint32_t ti) {
    const sw_graph_transition* t = &r->machine->transitions[ti];
    size_t joints = g->model->node_count;
    if (t->condition != SW_GRAPH_NONE) sw__consume(g->graph, g->data->params, t->condition);
    float phase = r->current.head.time;
    if (r->transition != SW_GRAPH_NONE && r->hist_count > 0) {
        /* interrupted: blend from the last output, frozen */
        memcpy(r->frozen, r->hist[1], joints * sizeof(sw_transform));
        r->has_source = false, r->source_frozen = true;
    } else {
        /* no transition playing, or interrupted before any evaluate: the
           state being left keeps playing as the source */
        r->source = r->current, r->has_source = true, r->source_frozen = false;
    }
    r->current = (sw__graph_play){.state = t->to};
    if (t->sync == SW_GRAPH_SYNC_PHASE) r->current.head.time = phase - floorf(phase) < 1.0f ? phase - floorf(phase) : 0;
    uint32_t child = r->children[t->to];
    if (child != SW_GRAPH_NONE) {
        sw__reset_runtime(g, child);
        g->data->runtimes[child].current.head.time = r->current.head.time;
    }
    r->transition = ti, r->elapsed = 0.0f;
    r->inertial_pending = t->blend == SW_GRAPH_INERTIALIZE, r->inertial_active = false;
    if (t->blend == SW_GRAPH_INERTIALIZE) r->has_source = r->source_frozen = false;
}

static void sw__finish_transition(sw__graph_runtime* r) {
    r->transition = SW_GRAPH_NONE;
    r->has_source = r->source_frozen = false;
    r->inertial_pending = r->inertial_active = false;
}

static sw_result sw__advance_runtime(sw_graph_instance* g, uint32_t idx, const sw__step* step, float factor) {
    sw__graph_runtime* r = &g->data->runtimes[idx];
    uint32_t ti = sw__pick(g, r);
    if (ti != SW_GRAPH_NONE) sw__take(g, r, ti);
    float w = 1.0f;
    if (r->transition != SW_GRAPH_NONE) {
        const sw_graph_transition* t = &r->machine->transitions[r->transition];
        if (t->duration == 0.0f) sw__finish_transition(r);
        else if (t->blend == SW_GRAPH_CROSSFADE) w = sw__transition_weight(t, r->elapsed);
    }
    sw_result res = sw__advance_state(g, r, &r->current, step, factor * w);
    if (res == SW_OK && r->has_source) res = sw__advance_state(g, r, &r->source, step, factor * (1.0f - w));
    if (res != SW_OK) return res;
    r->since_eval += step->dt;
    if (r->transition != SW_GRAPH_NONE) {
        r->elapsed += step->dt;
        if (r->elapsed >= r->machine->transitions[r->transition].duration) sw__finish_transition(r);
    }
    return SW_OK;
}

sw_result sw_graph_update(sw_graph_instance* g, float dt, sw_event_buffer* events, sw_root_motion_delta* motion,
                          sw_diag* diag) {
    SW_ASSERT(g && g->data);
    if (!isfinite(dt) || dt < 0.0f)
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "graph update: dt %g (must be finite, >= 0)", (double)dt);
    if (motion) *motion = (sw_root_motion_delta){{0, 0, 0}, 0};
    for (size_t k = 0; k < g->graph->layer_count; k++) {
        sw__step step = {dt, events, k == 0 ? motion : NULL, diag};
        sw_result r = sw__advance_runtime(g, g->data->layer_runtime[k], &step, 1.0f);
        if (r != SW_OK) return r;
    }
    return SW_OK;
}

/* ---- evaluating ---------------------------------------------------------------- */

static void sw__sample(const sw_graph_instance* g, const sw_clip* clip, float time, sw_transform* out) {
    const sw_model* model = g->model;
    memcpy(out, model->rest_local, model->node_count * sizeof(sw_transform));
    sw_sample_job job = {.clip = clip, .time = time, .target_count = model->node_count, .out_local = out,
                         .weight_offsets = model->weight_offsets, .out_weights = g->data->morph_scratch,
                         .weight_count = model->weight_count};
    sw_sample_job_run(&job);
    if (g->graph->root_motion) {
        const sw_root_motion* rm = g->graph->root_motion;
        if (rm->joint < model->node_count) sw_root_motion_remove(rm, clip, &out[rm->joint]);
    }
}

static sw_result sw__eval_runtime(sw_graph_instance* g, uint32_t idx, sw_transform* out, sw_diag* diag);

static sw_result sw__eval_state(sw_graph_instance* g, const sw__graph_runtime* r, const sw__graph_play* play,
                                sw_transform* out, sw_diag* diag) {
    const sw_graph_state* s = &r->machine->states[play->state];
    if (s->kind == SW_GRAPH_STATE_MACHINE) return sw__eval_runtime(g, r->children[play->state], out, diag);
    sw__graph_data* d = g->data;
    const uint32_t* clips;
    size_t n = sw__state_weights(g, s, d->member_weights, &clips);
    size_t nonzero = 0, last = 0;
    for (size_t i = 0; i < n; i++)
        if (d->member_weights[i] > 0.0f) nonzero++, last = i;
    float phase = play->head.time;
    if (nonzero <= 1) {
        const sw_clip* clip = g->graph->clips[clips[last]];
        sw__sample(g, clip, phase * clip->duration, out);
        return SW_OK;
    }
    const sw_transform* poses[SW_BLEND_SPACE_2D_MAX_POINTS];
    size_t count = n < SW_BLEND_SPACE_2D_MAX_POINTS ? n : SW_BLEND_SPACE_2D_MAX_POINTS;
    for (size_t i = 0; i < count; i++) {
        poses[i] = d->member_poses[i];
        if (d->member_weights[i] > 0.0f) {
            const sw_clip* clip = g->graph->clips[clips[i]];
            sw__sample(g, clip, phase * clip->duration, d->member_poses[i]);
        }
    }
    return sw_blend_poses(out, g->model->node_count, g->model->rest_local, poses, d->member_weights, count,
                          d->blend_layers, diag);
}

static void sw__begin_inertial(sw_graph_instance* g, sw__graph_runtime* r, const sw_transform* dest, float duration) {
    size_t joints = g->model->node_count;
    r->inertial_pending = false;
    if (r->hist_count == 0) return; /* nothing shown yet: nothing to hide */
    const sw_transform* now = r->hist[1];
    const sw_transform* prev = r->hist_count >= 2 && r->hist_dt > 0.0f ? r->hist[0] : now;
    float dt = r->hist_count >= 2 && r->hist_dt > 0.0f ? r->hist_dt : 1.0f;
    r->inertial_active =
        sw_inertialize_begin(&r->inertial, joints, prev, now, dest, dt, duration, NULL, NULL) == SW_OK;
}

static sw_result sw__eval_runtime(sw_graph_instance* g, uint32_t idx, sw_transform* out, sw_diag* diag) {
    sw__graph_runtime* r = &g->data->runtimes[idx];
    size_t joints = g->model->node_count;
    sw_result res = SW_OK;
    if (r->transition == SW_GRAPH_NONE) {
        res = sw__eval_state(g, r, &r->current, out, diag);
    } else {
        const sw_graph_transition* t = &r->machine->transitions[r->transition];
        if (t->blend == SW_GRAPH_INERTIALIZE) {
            res = sw__eval_state(g, r, &r->current, r->dst, diag);
            if (res == SW_OK && r->inertial_pending) sw__begin_inertial(g, r, r->dst, t->duration);
            if (r->inertial_active) sw_inertialize_apply(&r->inertial, r->elapsed, r->dst, out);
            else memcpy(out, r->dst, joints * sizeof(sw_transform));
        } else {
            float w = sw__transition_weight(t, r->elapsed);
            const sw_transform* from = r->frozen;
            if (!r->source_frozen) {
                res = r->has_source ? sw__eval_state(g, r, &r->source, r->src, diag) : SW_OK;
                from = r->has_source ? r->src : g->model->rest_local;
            }
            if (res == SW_OK) res = sw__eval_state(g, r, &r->current, r->dst, diag);
            const sw_transform* poses[2] = {from, r->dst};
            float weights[2] = {1.0f - w, w};
            sw_blend_layer layers[2];
            if (res == SW_OK)
                res = sw_blend_poses(out, joints, g->model->rest_local, poses, weights, 2, layers, diag);
        }
    }
    if (res != SW_OK) return res;
    sw_transform* oldest = r->hist[0];
    r->hist[0] = r->hist[1], r->hist[1] = oldest;
    memcpy(r->hist[1], out, joints * sizeof(sw_transform));
    r->hist_dt = r->since_eval, r->since_eval = 0.0f;
    if (r->hist_count < 2) r->hist_count++;
    return SW_OK;
}

static float sw__layer_weight(const sw_graph_instance* g, const sw_graph_layer* l) {
    float w = l->weight;
    if (l->weight_parameter != SW_GRAPH_NONE) {
        float p = g->data->params[l->weight_parameter];
        w *= p > 0.0f ? (p < 1.0f ? p : 1.0f) : 0.0f;
    }
    return w;
}

/* out = per joint lerp/nlerp from out to `pose` by w × mask[j]. */
static sw_result sw__override(sw_graph_instance* g, sw_transform* out, const sw_transform* pose, float w,
                              const float* mask, sw_diag* diag) {
    size_t n = g->model->node_count;
    if (w >= 1.0f && !mask) {
        memcpy(out, pose, n * sizeof(sw_transform));
        return SW_OK;
    }
    sw__graph_data* d = g->data;
    for (size_t j = 0; j < n; j++) {
        float a = w * (mask ? mask[j] : 1.0f);
        d->mask_above[j] = a, d->mask_below[j] = 1.0f - a;
    }
    sw_blend_layer layers[2] = {
        {.pose = out, .pose_count = n, .weight = 1.0f, .joint_weights = d->mask_below, .joint_weight_count = n},
        {.pose = pose, .pose_count = n, .weight = 1.0f, .joint_weights = d->mask_above, .joint_weight_count = n}};
    sw_blend_job job = {.joint_count = n, .rest_pose = g->model->rest_local, .layers = layers, .layer_count = 2,
                        .out_local = out};
    sw_result r = sw_blend_job_validate(&job, diag);
    if (r == SW_OK) sw_blend_job_run(&job);
    return r;
}

static sw_result sw__additive(sw_graph_instance* g, sw_transform* out, const sw_transform* pose, float w,
                              const float* mask, sw_diag* diag) {
    size_t n = g->model->node_count;
    sw__graph_data* d = g->data;
    sw_additive_delta(d->delta, pose, g->model->rest_local, n);
    sw_blend_layer base = {.pose = out, .pose_count = n, .weight = 1.0f};
    sw_blend_layer add = {.pose = d->delta, .pose_count = n, .weight = w, .joint_weights = mask,
                          .joint_weight_count = mask ? n : 0};
    sw_blend_job job = {.joint_count = n, .rest_pose = g->model->rest_local, .layers = &base, .layer_count = 1,
                        .additive_layers = &add, .additive_layer_count = 1, .out_local = out};
    sw_result r = sw_blend_job_validate(&job, diag);
    if (r == SW_OK) sw_blend_job_run(&job);
    return r;
}

static float sw__clamp01(float x) { return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f; }

/* Where the pose `local` puts each effector, in model space. */
static void sw__effector_positions(const sw_graph_instance* g, const sw_transform* local, sw_vec3* out) {
    const sw_fbik_rig* rig = g->graph->ik->rig;
    sw_local_to_model_job fk = {.parents = rig->parents, .joint_count = rig->node_count, .local = local,
                                .out_model = g->data->ik_world};
    sw_local_to_model_job_run(&fk);
    for (int e = 0; e < SW_FBIK_EFFECTOR_COUNT; e++) out[e] = (sw_vec3){0, 0, 0};
    const sw_mat34* w = g->data->ik_world;
    out[SW_FBIK_HIPS] = (sw_vec3){w[rig->hips].m[0][3], w[rig->hips].m[1][3], w[rig->hips].m[2][3]};
    for (int c = 0; c < SW_FBIK_CHAIN_COUNT; c++) {
        const sw_fbik_chain* ch = &rig->chains[c];
        if (ch->count == 0) continue;
        const sw_mat34* m = &w[ch->node[ch->count - 1]];
        out[ch->effector] = (sw_vec3){m->m[0][3], m->m[1][3], m->m[2][3]};
    }
}

/* The IK node: targets from the parameters, then one solve in place. */
static void sw__apply_ik(sw_graph_instance* g, sw_transform* local) {
    const sw_graph_ik* ik = g->graph->ik;
    const float* params = g->data->params;
    sw_fbik_desc desc = {.iterations = ik->iterations, .tolerance = ik->tolerance, .pin_hips = ik->pin_hips};
    bool any = false, relative = false;
    for (int e = 0; e < SW_FBIK_EFFECTOR_COUNT; e++) {
        const sw_graph_ik_effector* x = &ik->effectors[e];
        float w = x->weight;
        if (x->weight_parameter != SW_GRAPH_NONE) w *= sw__clamp01(params[x->weight_parameter]);
        float p[3] = {x->position.x, x->position.y, x->position.z};
        for (int a = 0; a < 3; a++)
            if (x->position_parameter[a] != SW_GRAPH_NONE) p[a] = params[x->position_parameter[a]];
        desc.effectors[e] = (sw_fbik_effector){{p[0], p[1], p[2]}, w};
        any = any || w > 0.0f;
        relative = relative || (w > 0.0f && x->relative);
    }
    g->data->ik_result = (sw_fbik_result){0, 0};
    if (!any) return;
    if (relative) {
        sw_vec3 at[SW_FBIK_EFFECTOR_COUNT];
        sw__effector_positions(g, local, at);
        for (int e = 0; e < SW_FBIK_EFFECTOR_COUNT; e++)
            if (ik->effectors[e].relative) desc.effectors[e].position = sw_vec3_add(desc.effectors[e].position, at[e]);
    }
    g->data->ik_result = sw_fbik_solve(ik->rig, &desc, local, g->data->ik_world);
}

sw_fbik_result sw_graph_ik_result(const sw_graph_instance* g) {
    return g && g->data ? g->data->ik_result : (sw_fbik_result){0, 0};
}

sw_result sw_graph_evaluate(sw_graph_instance* g, sw_pose* pose, sw_diag* diag) {
    SW_ASSERT(g && g->data && pose && pose->local);
    const sw_model* model = g->model;
    size_t n = model->node_count;
    memcpy(pose->local, model->rest_local, n * sizeof(sw_transform));
    if (pose->weights && model->weight_count)
        memcpy(pose->weights, model->rest_weights, model->weight_count * sizeof(float));
    for (size_t k = 0; k < g->graph->layer_count; k++) {
        const sw_graph_layer* l = &g->graph->layers[k];
        sw_result r = sw__eval_runtime(g, g->data->layer_runtime[k], g->data->layer_pose, diag);
        float w = sw__layer_weight(g, l);
        if (r == SW_OK && w > 0.0f) {
            if (k > 0 && l->mode == SW_GRAPH_LAYER_ADDITIVE)
                r = sw__additive(g, pose->local, g->data->layer_pose, w, l->mask, diag);
            else
                r = sw__override(g, pose->local, g->data->layer_pose, w, l->mask, diag);
        }
        if (r != SW_OK) return r;
    }
    if (g->graph->ik) sw__apply_ik(g, pose->local);
    return SW_OK;
}

sw_graph_status sw_graph_layer_status(const sw_graph_instance* g, size_t layer) {
    sw_graph_status st = {SW_GRAPH_NONE, 0, 0, SW_GRAPH_NONE, SW_GRAPH_NONE, 1, 1};
    if (!g || !g->data || layer >= g->graph->layer_count) {
        memset(&st, 0, sizeof st);
        return st;
    }
    const sw__graph_runtime* r = &g->data->runtimes[g->data->layer_runtime[layer]];
    st.state = r->current.state, st.phase = r->current.head.time, st.normalized_time = r->current.cycles;
    if (r->transition != SW_GRAPH_NONE) {
        const sw_graph_transition* t = &r->machine->transitions[r->transition];
        st.transition = r->transition;
        st.from_state = r->has_source ? r->source.state : SW_GRAPH_NONE;
        st.progress = t->duration > 0.0f ? fminf(r->elapsed / t->duration, 1.0f) : 1.0f;
        st.weight = t->blend == SW_GRAPH_CROSSFADE ? sw__transition_weight(t, r->elapsed) : st.progress;
    }
    return st;
}
