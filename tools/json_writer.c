/* Streaming JSON writer (see json_writer.h). */
#include "json_writer.h"

#include "text_escape.h"

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

/* `s` as a JSON string, valid UTF-8 whatever the bytes: an invalid sequence
   becomes one U+FFFD per maximal subpart (text_utf8_next()), and control
   characters become escapes, so that the output is also safe in a terminal. */
static void write_string(json_writer* w, const char* s, size_t size) {
    static const char replacement[] = "\xef\xbf\xbd"; /* U+FFFD */
    put(w, "\"", 1);
    size_t run = 0; /* bytes before s + i copied as they are, not yet put */
    for (size_t i = 0; i < size;) {
        uint32_t cp;
        size_t n = text_utf8_next(s + i, size - i, &cp);
        const char* esc = NULL;
        char hex[8];
        if (cp == TEXT_UTF8_INVALID) esc = replacement;
        else if (cp == '"') esc = "\\\"";
        else if (cp == '\\') esc = "\\\\";
        else if (cp == '\n') esc = "\\n";
        else if (cp == '\r') esc = "\\r";
        else if (cp == '\t') esc = "\\t";
        else if (cp < 0x20 || cp == 0x7f || text_is_format_control(cp)) {
            snprintf(hex, sizeof hex, "\\u%04x", (unsigned)cp);
            esc = hex;
        }
        if (esc) {
            put(w, s + i - run, run);
            put_text(w, esc);
            run = 0;
        } else {
            run += n;
        }
        i += n;
    }
    put(w, s + size - run, run);
    put(w, "\"", 1);
}

void json_key(json_writer* w, const char* key) {
    before_value(w);
    write_string(w, key, strlen(key));
    put(w, ":", 1);
    w->after_key = true;
}

void json_string(json_writer* w, const char* s) {
    if (!s) {
        json_null(w);
        return;
    }
    before_value(w);
    write_string(w, s, strlen(s));
}

void json_string_n(json_writer* w, const char* s, size_t size) {
    before_value(w);
    write_string(w, s, size);
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
