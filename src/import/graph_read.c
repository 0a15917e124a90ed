/* Animation graphs from JSON (sinew/graph_read.h, docs/graph.md): the
   format read through the JSON layer (json_internal.h), names resolved
   against the model, and the conditions' recursive-descent parser. */
#include "sinew/graph_read.h"

#include "../base/base_internal.h"
#include "json_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SW__EXPR_MAX_LENGTH 4096
#define SW__EXPR_MAX_DEPTH 64
#define SW__MAX_CONDITIONS (1u << 20)

typedef struct sw__graph_file_block {
    sw_graph_file pub; /* first: the public pointer is the block's */
    sw__json_owned owned;
} sw__graph_file_block;

typedef struct sw__gr {
    sw__json J;
    const sw_model* model;
    const sw_humanoid_map* humanoid;
    sw_graph_parameter* params;
    size_t param_count;
    sw_graph_condition* conds; /* grown with sw__realloc; copied into the file at the end */
    size_t cond_count, cond_cap;
    size_t state_total;
} sw__gr;

/* ---- the condition parser ------------------------------------------------------ */

typedef struct sw__expr {
    sw__gr* R;
    const char* text;
    size_t pos;
    int depth;
} sw__expr;

static sw_result sw__expr_fail(sw__expr* E, size_t at, const char* what) {
    return sw__json_fail(&E->R->J, "when", "column %zu: %s", at + 1, what);
}

static void sw__expr_space(sw__expr* E) {
    while (E->text[E->pos] == ' ' || E->text[E->pos] == '\t') E->pos++;
}

static bool sw__name_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static bool sw__name_char(char c) { return sw__name_start(c) || (c >= '0' && c <= '9') || c == '.'; }

/* and, or, not, true, false: never parameter names. */
static bool sw__keyword(const char* word, size_t n) {
    static const char* const words[] = {"and", "or", "not", "true", "false"};
    for (size_t i = 0; i < 5; i++)
        if (strlen(words[i]) == n && strncmp(words[i], word, n) == 0) return true;
    return false;
}

/* The word at the cursor (a name or keyword): its length, 0 if none. */
static size_t sw__expr_word(const sw__expr* E) {
    size_t n = 0;
    if (!sw__name_start(E->text[E->pos])) return 0;
    while (sw__name_char(E->text[E->pos + n])) n++;
    return n;
}

/* Takes the keyword `word` or the symbol `symbol` at the cursor. */
static bool sw__expr_take(sw__expr* E, const char* word, const char* symbol) {
    sw__expr_space(E);
    size_t n = sw__expr_word(E);
    if (word && n == strlen(word) && strncmp(E->text + E->pos, word, n) == 0) {
        E->pos += n;
        return true;
    }
    size_t s = symbol ? strlen(symbol) : 0;
    if (s && strncmp(E->text + E->pos, symbol, s) == 0) {
        E->pos += s;
        return true;
    }
    return false;
}

static sw_result sw__cond_add(sw__gr* R, sw_graph_condition c, uint32_t* out) {
    if (R->cond_count == R->cond_cap) {
        size_t cap = R->cond_cap ? 2 * R->cond_cap : 16;
        if (cap > SW__MAX_CONDITIONS) return sw__json_fail(&R->J, "when", "more than %u condition nodes",
                                                           SW__MAX_CONDITIONS);
        sw_graph_condition* grown = sw__realloc(R->conds, cap * sizeof *grown);
        if (!grown) {
            R->J.oom = true;
            return SW_ERR_OUT_OF_MEMORY;
        }
        R->conds = grown, R->cond_cap = cap;
    }
    R->conds[R->cond_count] = c;
    *out = (uint32_t)R->cond_count++;
    return SW_OK;
}

static int32_t sw__param_find(const sw__gr* R, const char* name, size_t length) {
    for (size_t i = 0; i < R->param_count; i++)
        if (strlen(R->params[i].name) == length && strncmp(R->params[i].name, name, length) == 0) return (int32_t)i;
    return -1;
}

static sw_result sw__expr_or(sw__expr* E, uint32_t* out);

/* NAME [op value] */
static sw_result sw__expr_comparison(sw__expr* E, uint32_t* out) {
    size_t at = E->pos, n = sw__expr_word(E);
    char msg[160];
    if (n == 0) return sw__expr_fail(E, at, E->text[at] ? "expected a parameter name, 'not' or '('"
                                                         : "expected a parameter name at the end");
    if (sw__keyword(E->text + at, n)) {
        snprintf(msg, sizeof msg, "expected a parameter name, not '%.*s'", (int)n, E->text + at);
        return sw__expr_fail(E, at, msg);
    }
    int32_t p = sw__param_find(E->R, E->text + at, n);
    if (p < 0) {
        snprintf(msg, sizeof msg, "unknown parameter \"%.*s\"", (int)(n < 48 ? n : 48), E->text + at);
        return sw__expr_fail(E, at, msg);
    }
    E->pos += n;
    sw__expr_space(E);
    static const struct { const char* text; sw_graph_condition_op op; } ops[] = {
        {"<=", SW_COND_LESS_EQUAL}, {">=", SW_COND_GREATER_EQUAL}, {"==", SW_COND_EQUAL},
        {"!=", SW_COND_NOT_EQUAL},  {"<", SW_COND_LESS},            {">", SW_COND_GREATER}};
    sw_graph_condition c = {.op = SW_COND_PARAMETER, .parameter = (uint32_t)p};
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        size_t len = strlen(ops[i].text);
        if (strncmp(E->text + E->pos, ops[i].text, len) != 0) continue;
        c.op = ops[i].op;
        E->pos += len;
        sw__expr_space(E);
        size_t vat = E->pos;
        if (sw__expr_take(E, "true", NULL)) {
            c.value = 1.0f;
        } else if (sw__expr_take(E, "false", NULL)) {
            c.value = 0.0f;
        } else {
            char* end = NULL;
            double v = strtod(E->text + vat, &end);
            if (end == E->text + vat || sw__name_char(*end)) return sw__expr_fail(E, vat, "expected a number");
            if (!isfinite(v) || fabs(v) > 3.4e38) return sw__expr_fail(E, vat, "the number is not a finite float");
            c.value = (float)v;
            E->pos = (size_t)(end - E->text);
        }
        break;
    }
    return sw__cond_add(E->R, c, out);
}

static sw_result sw__expr_unary(sw__expr* E, uint32_t* out) {
    sw__expr_space(E);
    size_t at = E->pos;
    if (++E->depth > SW__EXPR_MAX_DEPTH) return sw__expr_fail(E, at, "nested too deep");
    sw_result r;
    if (sw__expr_take(E, "not", "!") && E->text[E->pos] != '=') {
        uint32_t inner;
        r = sw__expr_unary(E, &inner);
        if (r == SW_OK) r = sw__cond_add(E->R, (sw_graph_condition){.op = SW_COND_NOT, .left = inner}, out);
    } else if (E->text[E->pos] == '(') {
        E->pos++;
        r = sw__expr_or(E, out);
        sw__expr_space(E);
        if (r == SW_OK && E->text[E->pos] != ')') r = sw__expr_fail(E, E->pos, "expected ')'");
        if (r == SW_OK) E->pos++;
    } else {
        r = sw__expr_comparison(E, out);
    }
    E->depth--;
    return r;
}

static sw_result sw__expr_binary(sw__expr* E, bool is_or, uint32_t* out) {
    sw_result r = is_or ? sw__expr_binary(E, false, out) : sw__expr_unary(E, out);
    while (r == SW_OK && (is_or ? sw__expr_take(E, "or", "||") : sw__expr_take(E, "and", "&&"))) {
        uint32_t right;
        r = is_or ? sw__expr_binary(E, false, &right) : sw__expr_unary(E, &right);
        if (r == SW_OK)
            r = sw__cond_add(E->R, (sw_graph_condition){.op = is_or ? SW_COND_OR : SW_COND_AND, .left = *out,
                                                        .right = right}, out);
    }
    return r;
}

static sw_result sw__expr_or(sw__expr* E, uint32_t* out) { return sw__expr_binary(E, true, out); }

/* Parses `text` (the transition's "when") into condition nodes. */
static sw_result sw__parse_when(sw__gr* R, const char* text, uint32_t* out) {
    sw__expr E = {R, text, 0, 0};
    size_t length = strlen(text);
    if (length > SW__EXPR_MAX_LENGTH)
        return sw__json_fail(&R->J, "when", "longer than %d characters", SW__EXPR_MAX_LENGTH);
    for (size_t i = 0; i < length; i++)
        if ((unsigned char)text[i] < 0x20) return sw__expr_fail(&E, i, "a control character");
    sw_result r = sw__expr_or(&E, out);
    sw__expr_space(&E);
    if (r == SW_OK && text[E.pos] != '\0') {
        size_t n = sw__expr_word(&E);
        r = sw__expr_fail(&E, E.pos, n ? "expected 'and', 'or' or the end (a comparison needs an operator)"
                                       : "expected 'and', 'or' or the end");
    }
    return r;
}

/* ---- names ---------------------------------------------------------------------- */

/* An optional string from names[count] (absent: *out unchanged); an
   unknown one is an error listing the choices. */
static sw_result sw__choice(sw__json* J, const cJSON* object, const char* key, const char* const* names, int count,
                            int* out) {
    const char* text = NULL;
    if (sw__json_string(J, object, key, false, &text) != SW_OK) return SW_ERR_INVALID_DATA;
    if (!text) return SW_OK;
    int i = sw__json_find_name(text, names, count);
    if (i < 0) {
        char list[120] = "";
        for (int k = 0; k < count; k++)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s\"%s\"", k ? ", " : "", names[k]);
        return sw__json_fail(J, key, "\"%.32s\" is not one of %s", text, list);
    }
    *out = i;
    return SW_OK;
}

static sw_result sw__clip_named(sw__gr* R, const cJSON* object, const char* key, uint32_t* out) {
    const char* name = NULL;
    if (sw__json_string(&R->J, object, key, true, &name) != SW_OK) return SW_ERR_INVALID_DATA;
    int32_t c = sw_model_find_clip(R->model, name);
    if (c < 0) {
        char list[120] = "";
        for (size_t i = 0; i < R->model->animation_count && strlen(list) < 90; i++) {
            const char* n = R->model->animations[i].name;
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%.24s", i ? ", " : "", n ? n : "?");
        }
        return sw__json_fail(&R->J, key, "no clip \"%.48s\" in the model (clips: %s)", name,
                             R->model->animation_count ? list : "none");
    }
    *out = (uint32_t)c;
    return SW_OK;
}

static sw_result sw__param_named(sw__gr* R, const cJSON* object, const char* key, bool required, uint32_t* out) {
    const char* name = NULL;
    if (sw__json_string(&R->J, object, key, required, &name) != SW_OK) return SW_ERR_INVALID_DATA;
    if (!name) return SW_OK;
    int32_t p = sw__param_find(R, name, strlen(name));
    if (p < 0) return sw__json_fail(&R->J, key, "unknown parameter \"%.48s\" (declare it in \"parameters\")", name);
    *out = (uint32_t)p;
    return SW_OK;
}

static sw_result sw__read_parameters(sw__gr* R, const cJSON* root) {
    sw__json* J = &R->J;
    const cJSON* params = NULL;
    if (sw__json_object(J, root, "parameters", false, &params) != SW_OK) return SW_ERR_INVALID_DATA;
    size_t count = params ? sw__json_count(params) : 0;
    if (count > SW_GRAPH_MAX_PARAMETERS)
        return sw__json_fail(J, "parameters", "more than %d parameters", SW_GRAPH_MAX_PARAMETERS);
    R->params = count ? sw__json_alloc(J, count, sizeof(sw_graph_parameter)) : NULL;
    if (count && !R->params) return SW_ERR_OUT_OF_MEMORY;
    if (!params) return SW_OK;
    size_t mark = sw__json_push(J, "parameters");
    for (sw__json_each it = sw__json_each_of(J, params); sw__json_next(J, &it);) {
        sw_graph_parameter* p = &R->params[it.index];
        const char* text = sw__json_text(it.value);
        if (!sw__name_start(it.key[0]) || sw__keyword(it.key, strlen(it.key))) goto bad_name;
        for (const char* c = it.key; *c; c++)
            if (!sw__name_char(*c)) goto bad_name;
        bool flag = false;
        if (sw__json_is_bool(it.value)) {
            sw__json_bool_value(J, it.value, &flag);
            p->type = SW_GRAPH_BOOL, p->default_value = flag ? 1.0f : 0.0f;
        } else if (text && strcmp(text, "trigger") == 0) {
            p->type = SW_GRAPH_TRIGGER;
        } else if (text || sw__json_float_value(J, it.value, &p->default_value) != SW_OK) {
            sw__json_pop(J, mark);
            return sw__json_fail(J, "parameters", "\"%.48s\": expected a number, true, false or \"trigger\"",
                                 it.key);
        }
        p->name = sw__json_copy(J, it.key);
        if (!p->name) return SW_ERR_OUT_OF_MEMORY;
        R->param_count++;
        continue;
    bad_name:
        sw__json_pop(J, mark);
        return sw__json_fail(J, "parameters", "\"%.48s\" is not a name (letters, digits, _ and ., not a keyword)", it.key);
    }
    sw__json_pop(J, mark);
    return SW_OK;
}

/* ---- states and machines ---------------------------------------------------------- */

static sw_result sw__read_machine(sw__gr* R, const cJSON* object, int depth, sw_graph_machine* out);

static sw_result sw__read_points(sw__gr* R, const cJSON* blend, int dims, sw_graph_state* s, float** out_at) {
    sw__json* J = &R->J;
    const cJSON* points = NULL;
    if (sw__json_array(J, blend, "points", true, &points) != SW_OK) return SW_ERR_INVALID_DATA;
    size_t n = sw__json_count(points);
    if (n < (size_t)(dims == 1 ? 1 : 3) || n > SW_BLEND_SPACE_2D_MAX_POINTS)
        return sw__json_fail(J, "points", "expected %d to %d points", dims == 1 ? 1 : 3, SW_BLEND_SPACE_2D_MAX_POINTS);
    uint32_t* members = sw__json_alloc(J, n, sizeof(uint32_t));
    float* at = sw__json_alloc(J, n * (size_t)dims, sizeof(float));
    if (!members || !at) return SW_ERR_OUT_OF_MEMORY;
    size_t mark = sw__json_push(J, "points");
    for (sw__json_each it = sw__json_each_of(J, points); sw__json_next(J, &it);) {
        if (sw__json_expect_object(J, it.value) != SW_OK || sw__clip_named(R, it.value, "clip", &members[it.index]) ||
            (dims == 1 ? sw__json_float(J, it.value, "at", true, &at[it.index])
                       : sw__json_floats(J, it.value, "at", 2, true, &at[2 * it.index])) != SW_OK)
            return SW_ERR_INVALID_DATA;
        if (dims == 1 && it.index > 0 && !(at[it.index] > at[it.index - 1]))
            return sw__json_fail(J, "at", "points must be in strictly ascending order of \"at\"");
    }
    sw__json_pop(J, mark);
    s->member_count = n, s->members = members;
    *out_at = at;
    return SW_OK;
}

static sw_result sw__read_blend2d(sw__gr* R, const cJSON* blend, sw_graph_state* s) {
    sw__json* J = &R->J;
    float* at = NULL;
    static const char* const methods[] = {"triangles", "gradient_band", "gradient_band_polar"};
    int method = 0;
    if (sw__param_named(R, blend, "x", true, &s->parameter) || sw__param_named(R, blend, "y", true, &s->parameter_y) ||
        sw__choice(J, blend, "method", methods, 3, &method) || sw__read_points(R, blend, 2, s, &at))
        return sw__json_result(J);
    s->method = (sw_blend_2d_method)(SW_BLEND_2D_TRIANGLES + method);
    size_t bytes = sw_blend_space_2d_memory_size(s->member_count);
    uint8_t* raw = sw__json_alloc(J, bytes + 16, 1);
    sw_blend_space_2d* space = sw__json_alloc(J, 1, sizeof *space);
    if (!raw || !space) return SW_ERR_OUT_OF_MEMORY;
    void* memory = raw + ((16u - ((uintptr_t)raw & 15u)) & 15u);
    sw_diag built;
    if (sw_blend_space_2d_build(space, at, s->member_count, memory, bytes, &built) != SW_OK)
        return sw__json_fail(J, "points", "%s", built.message);
    s->space = space;
    return SW_OK;
}

static sw_result sw__read_state(sw__gr* R, const cJSON* object, int depth, sw_graph_state* s) {
    sw__json* J = &R->J;
    if (sw__json_expect_object(J, object) != SW_OK) return SW_ERR_INVALID_DATA;
    static const char* const kinds[] = {"clip", "blend1d", "blend2d", "graph"};
    int kind = -1;
    for (int k = 0; k < 4; k++) {
        if (!sw__json_member(object, kinds[k])) continue;
        if (kind >= 0) return sw__json_fail(J, kinds[k], "a state has one of \"clip\", \"blend1d\", \"blend2d\", "
                                                         "\"graph\", not both \"%s\" and \"%s\"", kinds[kind], kinds[k]);
        kind = k;
    }
    if (kind < 0) return sw__json_fail(J, NULL, "a state needs \"clip\", \"blend1d\", \"blend2d\" or \"graph\"");
    bool loop = true;
    s->speed = 1.0f;
    if (sw__json_float(J, object, "speed", false, &s->speed) || sw__json_bool(J, object, "loop", &loop))
        return SW_ERR_INVALID_DATA;
    s->once = !loop;
    s->kind = (sw_graph_state_kind)kind;
    const cJSON* inner = NULL;
    if (kind > 0 && sw__json_object(J, object, kinds[kind], true, &inner) != SW_OK) return SW_ERR_INVALID_DATA;
    size_t mark = sw__json_push(J, kinds[kind]);
    sw_result r = SW_OK;
    if (kind == 0) {
        sw__json_pop(J, mark);
        return sw__clip_named(R, object, "clip", &s->clip);
    } else if (kind == 1) {
        float* at = NULL;
        r = sw__param_named(R, inner, "parameter", true, &s->parameter);
        if (r == SW_OK) r = sw__read_points(R, inner, 1, s, &at);
        s->thresholds = at;
    } else if (kind == 2) {
        r = sw__read_blend2d(R, inner, s);
    } else {
        if (depth + 1 >= SW_GRAPH_MAX_DEPTH) return sw__json_fail(J, NULL, "graphs nested deeper than %d",
                                                                   SW_GRAPH_MAX_DEPTH);
        sw_graph_machine* m = sw__json_alloc(J, 1, sizeof *m);
        if (!m) return SW_ERR_OUT_OF_MEMORY;
        r = sw__read_machine(R, inner, depth + 1, m);
        s->machine = m;
    }
    if (r == SW_OK) sw__json_pop(J, mark);
    return r;
}

static sw_result sw__state_named(sw__gr* R, const cJSON* object, const char* key, const sw_graph_machine* m,
                                 bool any, uint32_t* out) {
    const char* name = NULL;
    if (sw__json_string(&R->J, object, key, true, &name) != SW_OK) return SW_ERR_INVALID_DATA;
    if (any && strcmp(name, "*") == 0) {
        *out = SW_GRAPH_ANY_STATE;
        return SW_OK;
    }
    for (size_t i = 0; i < m->state_count; i++)
        if (strcmp(m->states[i].name, name) == 0) {
            *out = (uint32_t)i;
            return SW_OK;
        }
    return sw__json_fail(&R->J, key, "no state \"%.48s\" in this graph", name);
}

static sw_result sw__read_transition(sw__gr* R, const cJSON* object, const sw_graph_machine* m,
                                     sw_graph_transition* t) {
    sw__json* J = &R->J;
    static const char* const blends[] = {"crossfade", "inertialize"};
    static const char* const curves[] = {"linear", "smooth"};
    static const char* const syncs[] = {"start", "phase"};
    static const char* const interrupts[] = {"none", "destination"};
    int blend = 0, curve = 0, sync = 0, interrupt = 0;
    int64_t priority = 0;
    const char* when = NULL;
    *t = (sw_graph_transition){.condition = SW_GRAPH_NONE};
    bool has_exit = sw__json_member(object, "exit_time") != NULL;
    if (sw__json_expect_object(J, object) || sw__state_named(R, object, "from", m, true, &t->from) ||
        sw__state_named(R, object, "to", m, false, &t->to) ||
        sw__json_float(J, object, "duration", false, &t->duration) ||
        sw__json_float(J, object, "exit_time", false, &t->exit_time) ||
        sw__json_integer(J, object, "priority", false, NULL, &priority) ||
        sw__choice(J, object, "blend", blends, 2, &blend) || sw__choice(J, object, "curve", curves, 2, &curve) ||
        sw__choice(J, object, "sync", syncs, 2, &sync) ||
        sw__choice(J, object, "interrupt", interrupts, 2, &interrupt) ||
        sw__json_string(J, object, "when", false, &when))
        return sw__json_result(J);
    if (!(t->duration >= 0.0f)) return sw__json_fail(J, "duration", "must be >= 0");
    if (!(t->exit_time >= 0.0f)) return sw__json_fail(J, "exit_time", "must be >= 0");
    if (priority < INT32_MIN || priority > INT32_MAX) return sw__json_fail(J, "priority", "out of range");
    if (!when && !has_exit) return sw__json_fail(J, NULL, "a transition needs \"when\", \"exit_time\" or both");
    t->has_exit_time = has_exit, t->priority = (int32_t)priority;
    t->blend = (sw_graph_blend)blend, t->curve = curve ? SW_FADE_SMOOTH : SW_FADE_LINEAR;
    t->sync = (sw_graph_sync)sync, t->interrupt = (sw_graph_interrupt)interrupt;
    if (when) return sw__parse_when(R, when, &t->condition);
    return SW_OK;
}

static sw_result sw__read_machine(sw__gr* R, const cJSON* object, int depth, sw_graph_machine* out) {
    sw__json* J = &R->J;
    const cJSON *states = NULL, *transitions = NULL;
    const char* start = NULL;
    if (sw__json_expect_object(J, object) || sw__json_object(J, object, "states", true, &states) ||
        sw__json_array(J, object, "transitions", false, &transitions) ||
        sw__json_string(J, object, "start", false, &start))
        return sw__json_result(J);
    size_t n = sw__json_count(states);
    if (n == 0 || n > 0xffffu) return sw__json_fail(J, "states", "expected 1 to 65535 states");
    sw_graph_state* s = sw__json_alloc(J, n, sizeof *s);
    if (!s) return SW_ERR_OUT_OF_MEMORY;
    size_t mark = sw__json_push(J, "states");
    for (sw__json_each it = sw__json_each_of(J, states); sw__json_next(J, &it);) {
        s[it.index].name = sw__json_copy(J, it.key);
        if (!s[it.index].name) return SW_ERR_OUT_OF_MEMORY;
        if (sw__read_state(R, it.value, depth, &s[it.index]) != SW_OK) return sw__json_result(J);
    }
    sw__json_pop(J, mark);
    R->state_total += n;
    *out = (sw_graph_machine){.state_count = n, .states = s};
    if (start && sw__state_named(R, object, "start", out, false, &out->start) != SW_OK) return SW_ERR_INVALID_DATA;
    size_t tn = sw__json_count(transitions);
    sw_graph_transition* t = tn ? sw__json_alloc(J, tn, sizeof *t) : NULL;
    if (tn && !t) return SW_ERR_OUT_OF_MEMORY;
    mark = sw__json_push(J, "transitions");
    for (sw__json_each it = transitions ? sw__json_each_of(J, transitions) : (sw__json_each){0};
         transitions && sw__json_next(J, &it);)
        if (sw__read_transition(R, it.value, out, &t[it.index]) != SW_OK) return sw__json_result(J);
    sw__json_pop(J, mark);
    out->transition_count = tn, out->transitions = t;
    return SW_OK;
}

/* ---- layers and masks ----------------------------------------------------------- */

static sw_result sw__read_mask(sw__gr* R, const cJSON* layer, const float** out) {
    sw__json* J = &R->J;
    const cJSON* names = NULL;
    if (sw__json_array(J, layer, "mask", false, &names) != SW_OK) return SW_ERR_INVALID_DATA;
    if (!names) return SW_OK;
    size_t n = R->model->node_count;
    float* mask = sw__json_alloc(J, n, sizeof(float));
    if (!mask) return SW_ERR_OUT_OF_MEMORY;
    size_t mark = sw__json_push(J, "mask");
    for (sw__json_each it = sw__json_each_of(J, names); sw__json_next(J, &it);) {
        const char* name = sw__json_text(it.value);
        if (!name) return sw__json_fail(J, NULL, "expected a joint or humanoid bone name");
        int32_t node = sw_model_find_node_by_name(R->model, name);
        sw_humanoid_bone bone;
        if (node < 0 && R->humanoid && sw_humanoid_bone_from_name(name, &bone)) node = R->humanoid->node[bone];
        if (node < 0)
            return sw__json_fail(J, NULL, "no joint \"%.48s\" in the model%s", name,
                                 R->humanoid ? " and no mapped humanoid bone of that name" : "");
        mask[node] = 1.0f;
    }
    sw__json_pop(J, mark);
    /* a named joint brings its descendants (parents come first) */
    for (size_t j = 0; j < n; j++) {
        int32_t p = R->model->nodes[j].parent;
        if (p >= 0 && mask[p] > 0.0f) mask[j] = 1.0f;
    }
    *out = mask;
    return SW_OK;
}

static sw_result sw__read_layer(sw__gr* R, const cJSON* object, sw_graph_layer* l) {
    sw__json* J = &R->J;
    static const char* const modes[] = {"override", "additive"};
    int mode = 0;
    const char* name = NULL;
    l->weight = 1.0f, l->weight_parameter = SW_GRAPH_NONE;
    if (sw__json_expect_object(J, object) || sw__json_string(J, object, "name", false, &name) ||
        sw__choice(J, object, "mode", modes, 2, &mode) || sw__json_float(J, object, "weight", false, &l->weight) ||
        sw__param_named(R, object, "weight_parameter", false, &l->weight_parameter) || sw__read_mask(R, object, &l->mask))
        return sw__json_result(J);
    if (!(l->weight >= 0.0f && l->weight <= 1.0f)) return sw__json_fail(J, "weight", "must be in [0, 1]");
    l->mode = (sw_graph_layer_mode)mode;
    l->name = name ? sw__json_copy(J, name) : NULL;
    sw_graph_machine* m = sw__json_alloc(J, 1, sizeof *m);
    if (!m || (name && !l->name)) return SW_ERR_OUT_OF_MEMORY;
    l->machine = m;
    return sw__read_machine(R, object, 0, m);
}

/* "root_motion": {"joint": a joint or humanoid bone name, "components":
   ["x", "y", "z", "yaw"]}; the joint's parent space is taken from the
   model's rest pose (its ancestors' transforms). */
static sw_result sw__read_root_motion(sw__gr* R, const cJSON* root, const sw_root_motion** out) {
    sw__json* J = &R->J;
    const cJSON *object = NULL, *components = NULL;
    const char* name = NULL;
    if (sw__json_object(J, root, "root_motion", false, &object) != SW_OK) return SW_ERR_INVALID_DATA;
    if (!object) return SW_OK;
    size_t mark = sw__json_push(J, "root_motion");
    if (sw__json_string(J, object, "joint", true, &name) || sw__json_array(J, object, "components", false, &components))
        return SW_ERR_INVALID_DATA;
    int32_t node = sw_model_find_node_by_name(R->model, name);
    sw_humanoid_bone bone;
    if (node < 0 && R->humanoid && sw_humanoid_bone_from_name(name, &bone)) node = R->humanoid->node[bone];
    if (node < 0) return sw__json_fail(J, "joint", "no joint \"%.48s\" in the model", name);
    sw_root_motion* rm = sw__json_alloc(J, 1, sizeof *rm);
    if (!rm) return SW_ERR_OUT_OF_MEMORY;
    rm->joint = (uint32_t)node;
    rm->rest = R->model->rest_local[node];
    static const char* const names[] = {"x", "y", "z", "yaw"};
    size_t mark2 = sw__json_push(J, "components");
    for (sw__json_each it = components ? sw__json_each_of(J, components) : (sw__json_each){0};
         components && sw__json_next(J, &it);) {
        const char* c = sw__json_text(it.value);
        int k = c ? sw__json_find_name(c, names, 4) : -1;
        if (k < 0) return sw__json_fail(J, NULL, "expected \"x\", \"y\", \"z\" or \"yaw\"");
        rm->components |= 1u << k; /* SW_ROOT_MOTION_X, _Y, _Z, _YAW */
    }
    sw__json_pop(J, mark2);
    if (components && rm->components == 0) return sw__json_fail(J, "components", "no component chosen");
    sw_mat34 parent = {{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}}};
    for (int32_t p = R->model->nodes[node].parent; p >= 0; p = R->model->nodes[p].parent) {
        const sw_model_node* n = &R->model->nodes[p];
        sw_mat34 local = n->has_matrix ? n->matrix : sw_transform_to_mat34(&R->model->rest_local[p]);
        parent = sw_mat34_mul(&local, &parent);
    }
    rm->parent = parent;
    sw__json_pop(J, mark);
    *out = rm;
    return SW_OK;
}

/* ---- the full-body IK node ------------------------------------------------------ */

/* One axis of a target: a number, or the name of a float parameter. */
static sw_result sw__ik_axis(sw__gr* R, const cJSON* value, float* number, uint32_t* parameter) {
    const char* name = sw__json_text(value);
    if (!name) return sw__json_float_value(&R->J, value, number);
    int32_t p = sw__param_find(R, name, strlen(name));
    if (p < 0) return sw__json_fail(&R->J, NULL, "unknown parameter \"%.48s\" (declare it in \"parameters\")", name);
    *parameter = (uint32_t)p;
    return SW_OK;
}

static sw_result sw__read_effector(sw__gr* R, const cJSON* object, sw_graph_ik_effector* e) {
    sw__json* J = &R->J;
    const cJSON* target = NULL;
    *e = (sw_graph_ik_effector){.weight = 1.0f, .weight_parameter = SW_GRAPH_NONE,
                                .position_parameter = {SW_GRAPH_NONE, SW_GRAPH_NONE, SW_GRAPH_NONE}};
    if (sw__json_expect_object(J, object) || sw__json_array(J, object, "target", true, &target) ||
        sw__json_bool(J, object, "relative", &e->relative) || sw__json_float(J, object, "weight", false, &e->weight) ||
        sw__param_named(R, object, "weight_parameter", false, &e->weight_parameter))
        return sw__json_result(J);
    if (!(e->weight >= 0.0f && e->weight <= 1.0f)) return sw__json_fail(J, "weight", "must be in [0, 1]");
    if (sw__json_count(target) != 3) return sw__json_fail(J, "target", "expected [x, y, z] (numbers or parameter names)");
    float p[3] = {0, 0, 0};
    size_t mark = sw__json_push(J, "target");
    for (sw__json_each it = sw__json_each_of(J, target); sw__json_next(J, &it);)
        if (sw__ik_axis(R, it.value, &p[it.index], &e->position_parameter[it.index]) != SW_OK) return sw__json_result(J);
    sw__json_pop(J, mark);
    e->position = (sw_vec3){p[0], p[1], p[2]};
    return SW_OK;
}

/* "ik": {"effectors": {"rightHand": {"target": [x, y, z], ...}}, ...}; the
   rig is built here, on the humanoid map, in memory the file owns. */
static sw_result sw__read_ik(sw__gr* R, const cJSON* root, const sw_graph_ik** out) {
    sw__json* J = &R->J;
    const cJSON *object = NULL, *effectors = NULL;
    if (sw__json_object(J, root, "ik", false, &object) != SW_OK) return SW_ERR_INVALID_DATA;
    if (!object) return SW_OK;
    size_t mark = sw__json_push(J, "ik");
    sw_graph_ik* ik = sw__json_alloc(J, 1, sizeof *ik);
    if (!ik) return SW_ERR_OUT_OF_MEMORY;
    memset(ik, 0, sizeof *ik);
    bool present = false;
    int64_t iterations = 0;
    if (sw__json_object(J, object, "effectors", true, &effectors) ||
        sw__json_integer(J, object, "iterations", false, &present, &iterations) ||
        sw__json_float(J, object, "tolerance", false, &ik->tolerance) || sw__json_bool(J, object, "pin_hips", &ik->pin_hips))
        return sw__json_result(J);
    if (iterations < 0 || iterations > 1000) return sw__json_fail(J, "iterations", "must be in [0, 1000]");
    if (!(ik->tolerance >= 0.0f && ik->tolerance < 1.0f)) return sw__json_fail(J, "tolerance", "must be in [0, 1) metres");
    ik->iterations = (int)iterations;
    for (int e = 0; e < SW_FBIK_EFFECTOR_COUNT; e++) ik->effectors[e] = (sw_graph_ik_effector){
        .weight_parameter = SW_GRAPH_NONE, .position_parameter = {SW_GRAPH_NONE, SW_GRAPH_NONE, SW_GRAPH_NONE}};
    size_t mark2 = sw__json_push(J, "effectors");
    for (sw__json_each it = sw__json_each_of(J, effectors); sw__json_next(J, &it);) {
        int e = 0;
        while (e < SW_FBIK_EFFECTOR_COUNT && strcmp(it.key, sw_fbik_effector_name((sw_fbik_effector_id)e)) != 0) e++;
        if (e == SW_FBIK_EFFECTOR_COUNT)
            return sw__json_fail(J, NULL, "not an effector (hips, head, leftHand, rightHand, leftFoot, rightFoot)");
        if (sw__read_effector(R, it.value, &ik->effectors[e]) != SW_OK) return sw__json_result(J);
    }
    sw__json_pop(J, mark2);
    if (!R->humanoid) return sw__json_fail(J, NULL, "full-body IK needs the model's humanoid bones, and none were given");
    size_t bytes = sw_fbik_memory_size(R->model->node_count);
    uint8_t* memory = bytes ? sw__json_alloc(J, bytes + 15u, 1) : NULL;
    sw_fbik_rig* rig = sw__json_alloc(J, 1, sizeof *rig);
    if (!memory || !rig) return bytes ? SW_ERR_OUT_OF_MEMORY : sw__json_fail(J, NULL, "the model has too many nodes");
    memory += (16u - ((uintptr_t)memory & 15u)) & 15u;
    sw_diag built;
    if (sw_fbik_rig_build(rig, R->model, R->humanoid, memory, bytes, &built) != SW_OK)
        return sw__json_fail(J, NULL, "%s", built.message);
    ik->rig = rig;
    sw__json_pop(J, mark);
    *out = ik;
    return SW_OK;
}

static sw_result sw__read_root(sw__gr* R, const cJSON* root, sw_graph* g) {
    sw__json* J = &R->J;
    const cJSON* layers = NULL;
    if (sw__json_expect_object(J, root) || sw__read_parameters(R, root) ||
        sw__json_array(J, root, "layers", false, &layers))
        return sw__json_result(J);
    size_t extra = sw__json_count(layers);
    bool base = sw__json_member(root, "states") != NULL;
    size_t count = (base ? 1 : 0) + extra;
    if (count == 0) return sw__json_fail(J, NULL, "a graph needs \"states\" or \"layers\"");
    sw_graph_layer* l = sw__json_alloc(J, count, sizeof *l);
    if (!l) return SW_ERR_OUT_OF_MEMORY;
    if (base) {
        sw_graph_machine* m = sw__json_alloc(J, 1, sizeof *m);
        if (!m) return SW_ERR_OUT_OF_MEMORY;
        l[0] = (sw_graph_layer){.name = "base", .machine = m, .weight = 1, .weight_parameter = SW_GRAPH_NONE};
        if (sw__read_machine(R, root, 0, m) != SW_OK) return sw__json_result(J);
    }
    size_t mark = sw__json_push(J, "layers");
    for (sw__json_each it = layers ? sw__json_each_of(J, layers) : (sw__json_each){0};
         layers && sw__json_next(J, &it);)
        if (sw__read_layer(R, it.value, &l[(base ? 1 : 0) + it.index]) != SW_OK) return sw__json_result(J);
    sw__json_pop(J, mark);
    const sw_clip** clips = R->model->animation_count ? sw__json_alloc(J, R->model->animation_count, sizeof *clips)
                                                      : NULL;
    if (R->model->animation_count && !clips) return SW_ERR_OUT_OF_MEMORY;
    for (size_t i = 0; i < R->model->animation_count; i++) clips[i] = &R->model->animations[i];
    sw_graph_condition* conds = R->cond_count ? sw__json_alloc(J, R->cond_count, sizeof *conds) : NULL;
    if (R->cond_count && !conds) return SW_ERR_OUT_OF_MEMORY;
    if (R->cond_count) memcpy(conds, R->conds, R->cond_count * sizeof *conds);
    *g = (sw_graph){.parameter_count = R->param_count, .parameters = R->params, .condition_count = R->cond_count,
                    .conditions = conds, .clip_count = R->model->animation_count, .clips = clips,
                    .layer_count = count, .layers = l};
    if (sw__read_root_motion(R, root, &g->root_motion) != SW_OK) return sw__json_result(J);
    return sw__read_ik(R, root, &g->ik);
}

sw_result sw_graph_read(const char* json, size_t size, const char* name, const sw_model* model,
                        const sw_humanoid_map* humanoid, sw_graph_file** out, sw_diag* diag) {
    if (out) *out = NULL;
    if ((!json && size) || !out || !model)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "graph: text, a model and an output are needed");
    sw__graph_file_block* block = sw__calloc(1, sizeof *block);
    sw__gr R = {.model = model, .humanoid = humanoid};
    sw__json_begin(&R.J, name, "graph", diag, block ? &block->owned : NULL);
    if (!block) return sw__json_out_of_memory(&R.J);
    const char* nul = size ? memchr(json, '\0', size) : NULL;
    char* text = sw__malloc(size + 1);
    if (!text) {
        sw__free(block);
        return sw__json_out_of_memory(&R.J);
    }
    if (size) memcpy(text, json, size);
    text[size] = '\0';
    size_t at = 0;
    cJSON* root = nul ? NULL : sw__json_parse(&R.J, text, &at);
    sw__free(text);
    sw_result r = SW_OK;
    if (!root && R.J.oom) r = sw__json_out_of_memory(&R.J);
    else if (!root) {
        R.J.error_index = (int64_t)(nul ? (size_t)(nul - json) : at);
        r = sw__json_fail(&R.J, NULL, "graph is not valid JSON (near byte %zu)", (size_t)R.J.error_index);
    } else if (sw__read_root(&R, root, &block->pub.graph) != SW_OK) {
        r = sw__json_result(&R.J);
    }
    if (r == SW_OK) {
        sw_diag check;
        r = sw_graph_validate(&block->pub.graph, model, &check);
        if (r != SW_OK) r = sw__json_fail(&R.J, NULL, "%s", check.message);
    }
    sw__json_delete(root);
    sw__free(R.conds);
    if (r != SW_OK) {
        sw__json_owned_free(&block->owned);
        sw__free(block);
        return r;
    }
    block->pub.state_count = R.state_total;
    *out = &block->pub;
    return SW_OK;
}

void sw_graph_file_free(sw_graph_file* file) {
    if (!file) return;
    sw__graph_file_block* block = (sw__graph_file_block*)file;
    sw__json_owned_free(&block->owned);
    sw__free(block);
}
