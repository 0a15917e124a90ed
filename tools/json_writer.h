/* tools/json_writer.h — streaming JSON output for the tools' --json modes
   and `sinew export`: no tree in memory (an export of a 320k-vertex mesh at
   10 times is ~100 MB of text), commas and nesting tracked for the caller.

     json_writer w;
     json_writer_init(&w, stdout_sink, NULL);
     json_begin_object(&w);
     json_key(&w, "count"); json_int(&w, 3);
     json_end_object(&w);
     json_writer_finish(&w);   // false if any write failed

   Floats are written with 9 significant digits, enough to read back the
   same float; NaN and infinities (not JSON) are written as null.

   Strings (keys and values) may hold anything a file gave: the output is
   valid UTF-8 and valid JSON whatever the bytes (RFC 8259). Each invalid
   UTF-8 sequence (overlong forms, surrogates, code points above U+10FFFF,
   stray continuation bytes, bytes C0, C1, F5..FF, a sequence cut short) is
   replaced by one U+FFFD per maximal subpart, as Unicode recommends and
   the WHATWG decoder does (text_utf8_next() in text_escape.h); `"` and `\`
   are escaped, control characters are \n, \r, \t or \u00XX (DEL as
   \u007f), and the code points a terminal may act on (C1 controls, U+2028,
   U+2029, bidi overrides; text_is_format_control()) are \uXXXX, so that
   the JSON is also safe to print. Valid text reads back unchanged. */
#ifndef SINEW_JSON_WRITER_H
#define SINEW_JSON_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define JSON_WRITER_MAX_DEPTH 32

/* Receives output in chunks; returns false on a write error. */
typedef bool (*json_sink_fn)(const void* data, size_t size, void* user);

typedef struct json_writer {
    json_sink_fn sink;
    void* user;
    char buffer[8192];
    size_t used;
    int depth;
    bool first[JSON_WRITER_MAX_DEPTH]; /* no value written yet at this depth */
    bool after_key;
    bool failed;
} json_writer;

void json_writer_init(json_writer* w, json_sink_fn sink, void* user);
/* Flushes; true if every write succeeded and every object/array was closed. */
bool json_writer_finish(json_writer* w);

void json_begin_object(json_writer* w);
void json_end_object(json_writer* w);
void json_begin_array(json_writer* w);
void json_end_array(json_writer* w);
void json_key(json_writer* w, const char* key);
void json_string(json_writer* w, const char* s); /* NULL writes null */
/* `size` bytes of `s`, which may hold NUL bytes (written as \u0000). */
void json_string_n(json_writer* w, const char* s, size_t size);
void json_int(json_writer* w, long long v);
void json_float(json_writer* w, double v);       /* %.9g */
void json_double(json_writer* w, double v);      /* %.17g */
void json_bool(json_writer* w, bool v);
void json_null(json_writer* w);
/* Starts a new line (inside arrays of large data, for readable files). */
void json_newline(json_writer* w);

/* A sink writing to a FILE* given as `user`. */
bool json_file_sink(const void* data, size_t size, void* user);

#endif
