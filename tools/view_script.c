/* tools/view_script.c — see view_script.h. */
#include "view_script.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char* name;
    view_key key;
} named_keys[] = {
    {"space", VIEW_KEY_SPACE}, {"esc", VIEW_KEY_ESCAPE}, {"tab", VIEW_KEY_TAB},   {"left", VIEW_KEY_LEFT},
    {"right", VIEW_KEY_RIGHT}, {"up", VIEW_KEY_UP},      {"down", VIEW_KEY_DOWN}, {"home", VIEW_KEY_HOME},
    {"end", VIEW_KEY_END},     {"kp1", VIEW_KEY_KP1},    {"kp3", VIEW_KEY_KP3},   {"kp7", VIEW_KEY_KP7},
};

/* `count` numbers separated by `separator` (',' or 'x'), the whole text. */
static bool parse_numbers(const char* text, size_t length, int count, char separator, double* out) {
    char buffer[128];
    if (length == 0 || length >= sizeof buffer) return false;
    memcpy(buffer, text, length);
    buffer[length] = '\0';
    const char* at = buffer;
    for (int i = 0; i < count; i++) {
        char* end = NULL;
        out[i] = strtod(at, &end);
        if (end == at || !isfinite(out[i]) || fabs(out[i]) > 1e6) return false;
        if (i + 1 < count) {
            if (*end != separator) return false;
            at = end + 1;
        } else if (*end) {
            return false;
        }
    }
    return true;
}

static bool add_step(view_script* s, const view_step* step) {
    view_step* grown = realloc(s->steps, (s->count + 1) * sizeof *grown);
    if (!grown) return false;
    s->steps = grown;
    s->steps[s->count++] = *step;
    return true;
}

/* One step `text` (`length` bytes, no white space unless quoted). */
static bool parse_step(const char* text, size_t length, view_step* st, tool_error* err) {
    *st = (view_step){0};
    const char* colon = memchr(text, ':', length);
    if (colon && colon > text && length > 1) {
        size_t head = (size_t)(colon - text);
        const char* value = colon + 1;
        size_t value_length = length - head - 1;
        static const struct {
            const char* name;
            view_step_kind kind;
            int numbers;
            char separator;
        } forms[] = {
            {"move", VIEW_STEP_MOVE, 2, ','},   {"click", VIEW_STEP_CLICK, 2, ','}, {"drag", VIEW_STEP_DRAG, 4, ','},
            {"mdrag", VIEW_STEP_MDRAG, 4, ','}, {"scroll", VIEW_STEP_SCROLL, 1, 0}, {"size", VIEW_STEP_SIZE, 2, 'x'},
        };
        for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
            if (strlen(forms[i].name) != head || strncmp(text, forms[i].name, head) != 0) continue;
            st->kind = forms[i].kind;
            if (!parse_numbers(value, value_length, forms[i].numbers, forms[i].separator, st->at))
                return tool_error_set(err, "'%.*s' wants %d number%s after '%s:'%s", (int)length, text,
                                      forms[i].numbers, forms[i].numbers == 1 ? "" : "s", forms[i].name,
                                      forms[i].kind == VIEW_STEP_SIZE ? " as WxH" : " separated by commas");
            if (st->kind == VIEW_STEP_SIZE && !(st->at[0] >= 16 && st->at[1] >= 16 && st->at[0] <= 8192 &&
                                                st->at[1] <= 8192))
                return tool_error_set(err, "'%.*s': the size must be 16..8192 on a side", (int)length, text);
            return true;
        }
        if (head == 4 && strncmp(text, "wait", 4) == 0) {
            double n = 0;
            if (!parse_numbers(value, value_length, 1, 0, &n) || n < 1 || n > 100000 || n != floor(n))
                return tool_error_set(err, "'%.*s': wait:N wants a whole number of frames, 1..100000", (int)length,
                                      text);
            st->kind = VIEW_STEP_WAIT, st->count = (long)n;
            return true;
        }
        if (head == 4 && (strncmp(text, "open", 4) == 0 || strncmp(text, "drop", 4) == 0 ||
                          strncmp(text, "dump", 4) == 0)) {
            st->kind = text[1] == 'p' ? VIEW_STEP_OPEN : text[1] == 'r' ? VIEW_STEP_DROP : VIEW_STEP_DUMP;
            if (value_length >= 2 && value[0] == '"' && value[value_length - 1] == '"') value++, value_length -= 2;
            if (value_length == 0) return tool_error_set(err, "'%.*s' names no file", (int)length, text);
            if (!(st->path = malloc(value_length + 1))) return tool_error_set(err, "out of memory");
            memcpy(st->path, value, value_length);
            st->path[value_length] = '\0';
            return true;
        }
    }
    /* A key, with modifiers. */
    for (;;) {
        if (length > 6 && strncmp(text, "shift+", 6) == 0) st->mods |= VIEW_MOD_SHIFT, text += 6, length -= 6;
        else if (length > 5 && strncmp(text, "ctrl+", 5) == 0) st->mods |= VIEW_MOD_CTRL, text += 5, length -= 5;
        else break;
    }
    if (length == 1 && isprint((unsigned char)text[0])) {
        st->kind = VIEW_STEP_CHAR;
        st->ch = (char)tolower((unsigned char)text[0]);
        return true;
    }
    for (size_t i = 0; i < sizeof named_keys / sizeof named_keys[0]; i++)
        if (strlen(named_keys[i].name) == length && strncmp(text, named_keys[i].name, length) == 0) {
            st->kind = VIEW_STEP_KEY, st->key = named_keys[i].key;
            return true;
        }
    return tool_error_set(err,
                          "'%.*s' is not a key (one character, or space, esc, tab, left, right, up, down, home, "
                          "end, kp1, kp3, kp7, with shift+ or ctrl+) nor wait:N, move:X,Y, click:X,Y, "
                          "drag:X0,Y0,X1,Y1, mdrag:..., scroll:DY, size:WxH, open:PATH, drop:PATH or dump:PATH",
                          (int)length, text);
}

bool view_script_parse(const char* text, view_script* out, tool_error* err) {
    *out = (view_script){0};
    const char* at = text;
    for (size_t number = 1;; number++) {
        while (*at && isspace((unsigned char)*at)) at++;
        if (!*at) return true;
        /* A step runs to white space outside double quotes. */
        const char* start = at;
        bool quoted = false;
        while (*at && (quoted || !isspace((unsigned char)*at))) {
            if (*at == '"') quoted = !quoted;
            at++;
        }
        if (quoted) {
            view_script_free(out);
            return tool_error_set(err, "--script: step %zu ('%s') opens a quote it does not close", number, start);
        }
        view_step step;
        tool_error why;
        if (!parse_step(start, (size_t)(at - start), &step, &why)) {
            view_script_free(out);
            return tool_error_set(err, "--script: step %zu: %s", number, why.message);
        }
        if (!add_step(out, &step)) {
            free(step.path);
            view_script_free(out);
            return tool_error_set(err, "--script: out of memory");
        }
    }
}

void view_script_free(view_script* s) {
    for (size_t i = 0; i < s->count; i++) free(s->steps[i].path);
    free(s->steps);
    *s = (view_script){0};
}
