/* sinew batch — one line of a JSON Lines manifest rendered by `sinew render`,
   so that a job array (Slurm, a Kubernetes Indexed Job, GNU parallel) runs a
   manifest across machines: job N runs `sinew batch MANIFEST --index N`.

   A line is one JSON object whose keys are render's options without their
   dashes ("size": "160x120", "dqs": true, "ik": ["leftHand:0,1,0", ...]) plus
   "model" and "output". The keys become an argument vector through the one
   table below, and render's own entry (cmd_render) parses and runs it: batch
   renders nothing itself, and a line means exactly what the same options on
   the command line mean. Lines inherit nothing from each other. */
#include "tool_common.h"

#include <cjson/cJSON.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char cmd_batch_help[] =
    "usage: sinew batch MANIFEST.jsonl --index N [--dry-run]\n"
    "       sinew batch MANIFEST.jsonl --count\n"
    "\n"
    "Renders line N of MANIFEST with `sinew render`. Each line is one JSON\n"
    "object: \"model\" (a file; absent: the demo character), \"output\" (-o),\n"
    "and any render option by its name without the dashes, for example\n"
    "  {\"model\": \"a.vrm\", \"anim\": \"walk\", \"frames\": 60, \"size\": \"320x240\",\n"
    "   \"style\": \"toon\", \"dqs\": true, \"output\": \"out/a_walk.mp4\"}\n"
    "A value is a string or a number (\"size\" may be [W, H], and a list of\n"
    "numbers such as \"camera-target\": [0, 1, 0] is joined with commas); a\n"
    "flag is true or false (\"bloom\": false is --no-bloom, \"footprints\":\n"
    "false --no-footprints); a repeatable option (ik, look-at, layer,\n"
    "additive, expression, set) takes a list of values; null is the default.\n"
    "Lines inherit nothing from each other; relative paths are from the\n"
    "current folder, as on the command line. Outputs are written to a\n"
    "temporary file and renamed when complete (sinew render --help).\n"
    "\n"
    "options:\n"
    "  --index N       the line to render, counted from 1 like an editor's line\n"
    "                  numbers (a Kubernetes Indexed Job counts from 0: give\n"
    "                  $((JOB_COMPLETION_INDEX + 1)); a Slurm array: --array=1-N)\n"
    "  --count         print the number of lines (the size of the job array)\n"
    "  --dry-run       print the render command line of line N instead of\n"
    "                  running it\n"
    "  -h, --help      show this help\n"
    "\n"
    "Errors name the manifest and the line (m.jsonl:3: unknown key 'sise',\n"
    "did you mean 'size'?). scripts/sinew-batch runs every line with GNU\n"
    "parallel; docs/scale-out.md has Slurm and Kubernetes recipes.\n";

/* How a key becomes arguments. */
typedef enum batch_key_kind {
    BATCH_MODEL,  /* the positional MODEL */
    BATCH_VALUE,  /* "--opt VALUE": a string or number (a list of numbers joined) */
    BATCH_REPEAT, /* a value or a list of values: "--opt V" for each */
    BATCH_FLAG,   /* true: `on` (if any), false: `off` (if any) */
} batch_key_kind;

typedef struct batch_key {
    const char* key;
    batch_key_kind kind;
    const char* on;  /* the option (VALUE, REPEAT) or the flag given for true */
    const char* off; /* FLAG: the flag given for false */
} batch_key;

/* Every option of `sinew render --help`, by its manifest key. */
static const batch_key batch_keys[] = {
    {"model", BATCH_MODEL, NULL, NULL},
    {"output", BATCH_VALUE, "-o", NULL},
    {"anim", BATCH_VALUE, "--anim", NULL},
    {"time", BATCH_VALUE, "--time", NULL},
    {"frames", BATCH_VALUE, "--frames", NULL},
    {"fps", BATCH_VALUE, "--fps", NULL},
    {"size", BATCH_VALUE, "--size", NULL},
    {"camera", BATCH_VALUE, "--camera", NULL},
    {"frame", BATCH_VALUE, "--frame", NULL},
    {"camera-target", BATCH_VALUE, "--camera-target", NULL},
    {"camera-distance", BATCH_VALUE, "--camera-distance", NULL},
    {"fov", BATCH_VALUE, "--fov", NULL},
    {"follow", BATCH_FLAG, "--follow", NULL},
    {"dqs", BATCH_FLAG, "--dqs", NULL},
    {"split", BATCH_FLAG, "--split", NULL},
    {"view", BATCH_VALUE, "--view", NULL},
    {"bones", BATCH_FLAG, "--bones", NULL},
    {"aa", BATCH_VALUE, "--aa", NULL},
    {"ao", BATCH_VALUE, "--ao", NULL},
    {"fog", BATCH_VALUE, "--fog", NULL},
    {"fog-height", BATCH_VALUE, "--fog-height", NULL},
    {"env-feedback", BATCH_VALUE, "--env-feedback", NULL},
    {"bloom", BATCH_FLAG, "--bloom", "--no-bloom"},
    {"footprints", BATCH_FLAG, NULL, "--no-footprints"},
    {"motion-blur", BATCH_FLAG, "--motion-blur", NULL},
    {"weather", BATCH_VALUE, "--weather", NULL},
    {"wind", BATCH_VALUE, "--wind", NULL},
    {"style", BATCH_VALUE, "--style", NULL},
    {"night", BATCH_FLAG, "--night", NULL},
    {"time-of-day", BATCH_VALUE, "--time-of-day", NULL},
    {"crowd", BATCH_VALUE, "--crowd", NULL},
    {"stage", BATCH_VALUE, "--stage", NULL},
    {"place", BATCH_VALUE, "--place", NULL},
    {"probes", BATCH_VALUE, "--probes", NULL},
    {"quiet", BATCH_FLAG, "--quiet", NULL},
    {"progress", BATCH_VALUE, "--progress", NULL},
    {"stats", BATCH_FLAG, "--stats", NULL},
    {"allow-outside-paths", BATCH_FLAG, "--allow-outside-paths", NULL},
    /* animation options (anim_program.h) */
    {"graph", BATCH_VALUE, "--graph", NULL},
    {"set", BATCH_REPEAT, "--set", NULL},
    {"blend", BATCH_VALUE, "--blend", NULL},
    {"sync", BATCH_FLAG, "--sync", NULL},
    {"crossfade", BATCH_VALUE, "--crossfade", NULL},
    {"layer", BATCH_REPEAT, "--layer", NULL},
    {"additive", BATCH_REPEAT, "--additive", NULL},
    {"in-place", BATCH_FLAG, "--in-place", NULL},
    {"springs", BATCH_VALUE, "--springs", NULL},
    {"ik", BATCH_REPEAT, "--ik", NULL},
    {"look-at", BATCH_REPEAT, "--look-at", NULL},
    {"anim-file", BATCH_VALUE, "--anim-file", NULL},
    {"bone-map", BATCH_VALUE, "--bone-map", NULL},
    {"bone-map-out", BATCH_VALUE, "--bone-map-out", NULL},
    {"retarget", BATCH_FLAG, "--retarget", NULL},
    {"expression", BATCH_REPEAT, "--expression", NULL},
    {"gaze", BATCH_VALUE, "--gaze", NULL},
    {"first-person", BATCH_FLAG, "--first-person", NULL},
};
#define BATCH_KEY_COUNT (sizeof batch_keys / sizeof batch_keys[0])

/* The longest line a manifest may hold (a line names a few files and options). */
#define BATCH_LINE_MAX (1 << 20)
/* The most arguments one line makes (every key, repeatable ones 64 times). */
#define BATCH_ARGS_MAX 512

/* The argument vector of one line: its strings are owned here. */
typedef struct batch_argv {
    int count;
    char* items[BATCH_ARGS_MAX];
} batch_argv;

static void batch_argv_free(batch_argv* v) {
    for (int i = 0; i < v->count; i++) free(v->items[i]);
    v->count = 0;
}

static bool batch_argv_add(batch_argv* v, const char* text, size_t length) {
    if (v->count >= BATCH_ARGS_MAX) return false;
    char* copy = malloc(length + 1);
    if (!copy) return false;
    memcpy(copy, text, length);
    copy[length] = '\0';
    v->items[v->count++] = copy;
    return true;
}

static bool batch_argv_add_text(batch_argv* v, const char* text) {
    return batch_argv_add(v, text, strlen(text));
}

/* Where the line's messages point: "m.jsonl:3". */
typedef struct batch_line {
    char where[512];   /* "m.jsonl:3" */
    char context[520]; /* "batch: m.jsonl:3", who render's messages are from */
} batch_line;

static int batch_error(const tool_args* args, const batch_line* line, const char* format, ...) TOOL_PRINTF(3, 4);
static int batch_error(const tool_args* args, const batch_line* line, const char* format, ...) {
    char text[1024];
    va_list ap;
    va_start(ap, format);
    vsnprintf(text, sizeof text, format, ap);
    va_end(ap);
    return tool_usage(args, "%s: %s", line->where, text);
}

/* A number as the shortest text that reads back as the same double. */
static void batch_number_text(double value, char* out, size_t size) {
    for (int digits = 15; digits <= 17; digits++) {
        snprintf(out, size, "%.*g", digits, value);
        if (strtod(out, NULL) == value) return;
    }
}

/* One value (a string or a number; with `join`, a list of numbers joined by
   it) as text; false when it has another type. */
static bool batch_value_text(const cJSON* item, const char* join, char* out, size_t size) {
    if (cJSON_IsString(item)) {
        snprintf(out, size, "%s", item->valuestring);
        return strlen(item->valuestring) < size;
    }
    if (cJSON_IsNumber(item)) {
        batch_number_text(item->valuedouble, out, size);
        return true;
    }
    if (!join || !cJSON_IsArray(item) || !cJSON_GetArraySize(item)) return false;
    size_t used = 0;
    out[0] = '\0';
    for (const cJSON* e = item->child; e; e = e->next) {
        if (!cJSON_IsNumber(e)) return false;
        char number[40];
        batch_number_text(e->valuedouble, number, sizeof number);
        int n = snprintf(out + used, size - used, "%s%s", used ? join : "", number);
        if (n < 0 || (size_t)n >= size - used) return false;
        used += (size_t)n;
    }
    return true;
}

static const batch_key* batch_find_key(const char* name) {
    for (size_t i = 0; i < BATCH_KEY_COUNT; i++)
        if (strcmp(batch_keys[i].key, name) == 0) return &batch_keys[i];
    return NULL;
}

/* One key and its value into arguments; 0, else the exit status of the
   usage error printed. */
static int batch_key_arguments(const tool_args* args, const batch_line* line, const cJSON* item, batch_argv* v) {
    const char* name = item->string;
    const batch_key* key = batch_find_key(name);
    if (!key) {
        tool_suggest s;
        tool_suggest_init(&s, name);
        for (size_t i = 0; i < BATCH_KEY_COUNT; i++) tool_suggest_add(&s, batch_keys[i].key, strlen(batch_keys[i].key));
        char hint[300];
        tool_suggest_text(&s, hint, sizeof hint);
        if (hint[0]) return batch_error(args, line, "unknown key '%s', %s", name, hint);
        return batch_error(args, line, "unknown key '%s' (the keys are render's options without dashes, "
                                       "model and output)", name);
    }
    if (cJSON_IsNull(item)) return 0; /* the default */
    bool ok = true;
    char text[4096];
    switch (key->kind) {
    case BATCH_MODEL:
        if (!cJSON_IsString(item) || !item->valuestring[0])
            return batch_error(args, line, "'model' must be a file name (a string)");
        if (item->valuestring[0] == '-') { /* a file named "-x.glb" is not an option */
            snprintf(text, sizeof text, "./%s", item->valuestring);
            ok = strlen(item->valuestring) + 2 < sizeof text && batch_argv_add_text(v, text);
        } else {
            ok = batch_argv_add_text(v, item->valuestring);
        }
        break;
    case BATCH_FLAG:
        if (!cJSON_IsBool(item)) return batch_error(args, line, "'%s' must be true or false", name);
        if (cJSON_IsTrue(item) && key->on) ok = batch_argv_add_text(v, key->on);
        if (cJSON_IsFalse(item) && key->off) ok = batch_argv_add_text(v, key->off);
        break;
    case BATCH_VALUE: {
        const char* join = strcmp(name, "size") == 0 ? "x" : ",";
        if (!batch_value_text(item, join, text, sizeof text))
            return batch_error(args, line, "'%s' must be a string or a number%s", name,
                               strcmp(name, "size") == 0 ? " (or [W, H])" : "");
        ok = batch_argv_add_text(v, key->on) && batch_argv_add_text(v, text);
        break;
    }
    case BATCH_REPEAT: {
        const cJSON* first = cJSON_IsArray(item) ? item->child : item;
        for (const cJSON* e = first; ok && e; e = cJSON_IsArray(item) ? e->next : NULL) {
            if (!batch_value_text(e, NULL, text, sizeof text))
                return batch_error(args, line, "'%s' must be a string or a list of strings", name);
            ok = batch_argv_add_text(v, key->on) && batch_argv_add_text(v, text);
        }
        break;
    }
    }
    if (!ok) return batch_error(args, line, "too many options on one line");
    return 0;
}

/* The line's JSON object into render's arguments; 0, else the exit status. */
static int batch_line_arguments(const tool_args* args, const batch_line* line, const char* text, size_t length,
                                batch_argv* v) {
    const char* end = NULL;
    cJSON* root = cJSON_ParseWithLengthOpts(text, length, &end, false);
    if (!root) {
        long column = end ? (long)(end - text) + 1 : 1;
        return batch_error(args, line, "not valid JSON (column %ld)", column);
    }
    int status = 0;
    size_t rest = (size_t)(end - text);
    while (rest < length && strchr(" \t\r", text[rest])) rest++;
    if (rest < length) status = batch_error(args, line, "text after the JSON object (column %ld)", (long)rest + 1);
    else if (!cJSON_IsObject(root)) status = batch_error(args, line, "not a JSON object ({\"model\": ..., ...})");
    for (const cJSON* item = root->child; !status && item; item = item->next) {
        for (const cJSON* before = root->child; before != item; before = before->next)
            if (strcmp(before->string, item->string) == 0) {
                status = batch_error(args, line, "key '%s' given twice", item->string);
                break;
            }
        if (!status) status = batch_key_arguments(args, line, item, v);
    }
    cJSON_Delete(root);
    return status;
}

/* The manifest's bytes; NULL after printing why. */
static char* batch_read(const tool_args* args, const char* path, size_t* length) {
    FILE* f = fopen(path, "rb");
    if (!f) {
        tool_fail(args, "%s: %s", path, strerror(errno));
        return NULL;
    }
    size_t capacity = 1 << 16, used = 0;
    char* data = malloc(capacity);
    while (data) {
        used += fread(data + used, 1, capacity - used, f);
        if (used < capacity) break;
        char* bigger = capacity < ((size_t)1 << 30) ? realloc(data, capacity * 2) : NULL;
        if (!bigger) {
            free(data);
            data = NULL;
            break;
        }
        data = bigger;
        capacity *= 2;
    }
    bool failed = ferror(f) != 0;
    fclose(f);
    if (!data || failed) {
        free(data);
        tool_fail(args, "%s: %s", path, failed ? "read error" : "too large (over 1 GiB) or out of memory");
        return NULL;
    }
    *length = used;
    return data;
}

/* The number of lines: a final newline ends the last line, starts none. */
static long batch_line_count(const char* data, size_t length) {
    long lines = 0;
    for (size_t i = 0; i < length; i++)
        if (data[i] == '\n') lines++;
    if (length && data[length - 1] != '\n') lines++;
    return lines;
}

/* Line `number` (from 1): its start and length without the newline. */
static void batch_find_line(const char* data, size_t length, long number, const char** start, size_t* line_length) {
    size_t at = 0;
    for (long n = 1; n < number; n++) {
        const char* nl = memchr(data + at, '\n', length - at);
        at = (size_t)(nl - data) + 1;
    }
    const char* nl = memchr(data + at, '\n', length - at);
    *start = data + at;
    *line_length = nl ? (size_t)(nl - (data + at)) : length - at;
    if (*line_length && (*start)[*line_length - 1] == '\r') (*line_length)--;
}

/* `arg` quoted for a POSIX shell when it needs it. */
static void batch_print_quoted(const char* arg) {
    bool plain = arg[0] != '\0';
    for (const char* p = arg; *p; p++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=,%+@", *p)) plain = false;
    if (plain) {
        fputs(arg, stdout);
        return;
    }
    putchar('\'');
    for (const char* p = arg; *p; p++) {
        if (*p == '\'') fputs("'\\''", stdout);
        else putchar(*p);
    }
    putchar('\'');
}

typedef struct batch_options {
    const char* manifest;
    long index; /* 0: not given */
    bool count, dry_run;
} batch_options;

/* The command line; -1 to go on, else the exit status. */
static int batch_parse(tool_args* args, batch_options* o) {
    tool_error err;
    for (const char* arg; (arg = tool_args_next(args));) {
        const char* v;
        if (tool_args_is_help(arg)) return tool_print_help(args);
        if (tool_args_flag(arg, "--count")) o->count = true;
        else if (tool_args_flag(arg, "--dry-run")) o->dry_run = true;
        else if (tool_args_option(args, arg, "--index")) {
            if (!(v = tool_args_value(args, "--index", &err))) return tool_usage(args, "%s", err.message);
            if (strcmp(v, "0") == 0)
                return tool_usage(args, "--index counts lines from 1, like an editor; 0 is no line (a Kubernetes "
                                        "Indexed Job gives --index $((JOB_COMPLETION_INDEX + 1)))");
            if (!tool_parse_int("--index", v, 1, 1000000000, &o->index, &err)) return tool_usage(args, "%s", err.message);
        } else if (arg[0] == '-' && arg[1]) {
            return tool_unknown_option(args, arg);
        } else if (o->manifest) {
            return tool_usage(args, "one MANIFEST only ('%s' and '%s')", o->manifest, arg);
        } else {
            o->manifest = arg;
        }
    }
    if (!o->manifest) return tool_usage(args, "no MANIFEST given");
    if (o->count && (o->index || o->dry_run)) return tool_usage(args, "--count prints the line count; drop --index");
    if (!o->count && !o->index) return tool_usage(args, "give --index N (the line to render, from 1) or --count");
    return -1;
}

/* Runs render on the arguments, its messages pointing at the line. */
static int batch_run_render(const batch_line* line, batch_argv* v) {
    static const tool_command render = {"render", "", cmd_render, cmd_render_help};
    tool_args render_args = {.command = &render, .count = v->count, .items = v->items, .context = line->context};
    return cmd_render(&render_args);
}

int cmd_batch(tool_args* args) {
    batch_options o = {0};
    int status = batch_parse(args, &o);
    if (status >= 0) return status;
    size_t length = 0;
    char* data = batch_read(args, o.manifest, &length);
    if (!data) return TOOL_EXIT_FAILURE;
    long lines = batch_line_count(data, length);
    if (o.count) {
        printf("%ld\n", lines);
        free(data);
        return TOOL_EXIT_OK;
    }
    batch_line line;
    snprintf(line.where, sizeof line.where, "%s:%ld", o.manifest, o.index);
    snprintf(line.context, sizeof line.context, "batch: %s", line.where);
    if (o.index > lines) {
        free(data);
        return tool_usage(args, "%s: --index %ld is past the last line (%ld line%s)", o.manifest, o.index, lines,
                          lines == 1 ? "" : "s");
    }
    const char* text;
    size_t text_length;
    batch_find_line(data, length, o.index, &text, &text_length);
    batch_argv v = {0};
    size_t blank = 0;
    while (blank < text_length && strchr(" \t", text[blank])) blank++;
    if (blank == text_length) status = batch_error(args, &line, "the line is empty");
    else if (text_length > BATCH_LINE_MAX) status = batch_error(args, &line, "the line is over 1 MiB");
    else status = batch_line_arguments(args, &line, text, text_length, &v);
    free(data);
    if (status == 0 && o.dry_run) {
        fputs("sinew render", stdout);
        for (int i = 0; i < v.count; i++) {
            putchar(' ');
            batch_print_quoted(v.items[i]);
        }
        putchar('\n');
    } else if (status == 0) {
        status = batch_run_render(&line, &v);
    }
    batch_argv_free(&v);
    return status;
}
