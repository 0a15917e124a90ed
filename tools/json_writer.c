/* Streaming JSON writer (see json_writer.h). */
#include "json_writer.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void json_writer_init(json_writer* w, json_sink_fn sink, void* user) {
    memset(w, 0, sizeof *w);
    w->sink = sink;
    w->user = user;
    w->first[0] = true;
}

static void flush(json_writer* w) {
    if (w->used && !w->failed && !w->sink(w->buffer, w->used, w->user)) w->failed = true;
    w->used = 0;
}

static void put(json_writer* w, const char* s, size_t n) {
    while (n) {
        if (w->used == sizeof w->buffer) flush(w);
        size_t chunk = sizeof w->buffer - w->used;
        if (chunk > n) chunk = n;
        memcpy(w->buffer + w->used, s, chunk);
        w->used += chunk, s += chunk, n -= chunk;
    }
}

static void put_text(json_writer* w, const char* s) { put(w, s, strlen(s)); }

/* Before any value: the comma that separates it from the previous one. */
static void before_value(json_writer* w) {
    if (w->after_key) {
        w->after_key = false;
        return;
    }
    if (!w->first[w->depth]) put(w, ",", 1);
    w->first[w->depth] = false;
}

static void open_container(json_writer* w, char c) {
    before_value(w);
    put(w, &c, 1);
    if (w->depth + 1 >= JSON_WRITER_MAX_DEPTH) {
        w->failed = true; /* a tool bug, reported by finish() */
        return;
    }
    w->first[++w->depth] = true;
}

static void close_container(json_writer* w, char c) {
    if (w->depth == 0) {
        w->failed = true;
        return;
    }
    w->depth--;
    put(w, &c, 1);
}

void json_begin_object(json_writer* w) { open_container(w, '{'); }
void json_end_object(json_writer* w) { close_container(w, '}'); }
void json_begin_array(json_writer* w) { open_container(w, '['); }
void json_end_array(json_writer* w) { close_container(w, ']'); }

static void write_string(json_writer* w, const char* s) {
    put(w, "\"", 1);
    for (const unsigned char* p = (const unsigned char*)s; *p; ++p) {
        char esc[8];
        switch (*p) {
        case '"': put_text(w, "\\\""); break;
        case '\\': put_text(w, "\\\\"); break;
        case '\n': put_text(w, "\\n"); break;
        case '\r': put_text(w, "\\r"); break;
        case '\t': put_text(w, "\\t"); break;
        default:
            if (*p < 0x20) {
                snprintf(esc, sizeof esc, "\\u%04x", *p);
                put_text(w, esc);
            } else {
                put(w, (const char*)p, 1);
            }
        }
    }
    put(w, "\"", 1);
}

void json_key(json_writer* w, const char* key) {
    before_value(w);
    write_string(w, key);
    put(w, ":", 1);
    w->after_key = true;
}

void json_string(json_writer* w, const char* s) {
    if (!s) {
        json_null(w);
        return;
    }
    before_value(w);
    write_string(w, s);
}

void json_int(json_writer* w, long long v) {
    char text[32];
    before_value(w);
    put_text(w, (snprintf(text, sizeof text, "%lld", v), text));
}

static void write_number(json_writer* w, double v, const char* format) {
    char text[40];
    before_value(w);
    if (!isfinite(v)) {
        put_text(w, "null");
        return;
    }
    if (v == 0.0) v = 0.0; /* no "-0" */
    snprintf(text, sizeof text, format, v);
    put_text(w, text);
}

void json_float(json_writer* w, double v) { write_number(w, v, "%.9g"); }
void json_double(json_writer* w, double v) { write_number(w, v, "%.17g"); }

void json_bool(json_writer* w, bool v) {
    before_value(w);
    put_text(w, v ? "true" : "false");
}

void json_null(json_writer* w) {
    before_value(w);
    put_text(w, "null");
}

void json_newline(json_writer* w) { put(w, "\n", 1); }

bool json_writer_finish(json_writer* w) {
    flush(w);
    return !w->failed && w->depth == 0;
}

bool json_file_sink(const void* data, size_t size, void* user) {
    return fwrite(data, 1, size, (FILE*)user) == size;
}
