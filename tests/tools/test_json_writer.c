/* The tools' JSON writer (tools/json_writer.c) with untrusted strings: a
   table of byte strings and the exact JSON each must give (every class of
   invalid UTF-8 becomes U+FFFD, one per maximal subpart, as in Table 3-8 of
   the Unicode standard; control characters are escaped), random bytes whose
   output must always parse, and valid text that must read back unchanged.

   The output is checked by a UTF-8 validator and a JSON parser written
   here, independently of tools/text_escape.c: they decode first and check
   the code point's range afterwards, where the writer's decoder narrows
   each byte's range from the lead byte. */
#include "harness.h"

#include "json_writer.h"
#include "tools/utf8_check.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- an in-memory sink ------------------------------------------------------ */

typedef struct buffer {
    char* data;
    size_t size, capacity;
} buffer;

static bool buffer_sink(const void* data, size_t size, void* user) {
    buffer* b = user;
    if (b->size + size + 1 > b->capacity) {
        size_t capacity = 2 * (b->size + size + 1);
        char* grown = realloc(b->data, capacity);
        if (!grown) return false;
        b->data = grown, b->capacity = capacity;
    }
    memcpy(b->data + b->size, data, size);
    b->size += size;
    b->data[b->size] = '\0';
    return true;
}

/* `size` bytes of `s` written as one JSON string value; the caller frees out->data. */
static bool write_one(buffer* out, const char* s, size_t size) {
    *out = (buffer){0};
    json_writer w;
    json_writer_init(&w, buffer_sink, out);
    json_string_n(&w, s, size);
    return json_writer_finish(&w);
}

/* ---- an independent UTF-8 validator and JSON reader ------------------------------ */

static void put_utf8(buffer* out, uint32_t cp) {
    unsigned char u[4];
    size_t n;
    if (cp < 0x80) u[0] = (unsigned char)cp, n = 1;
    else if (cp < 0x800) u[0] = (unsigned char)(0xc0 | cp >> 6), u[1] = (unsigned char)(0x80 | (cp & 0x3f)), n = 2;
    else {
        u[0] = (unsigned char)(0xe0 | cp >> 12), u[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
        u[2] = (unsigned char)(0x80 | (cp & 0x3f)), n = 3;
    }
    buffer_sink(u, n, out);
}

/* One JSON string (RFC 8259 section 7) at *p; its value is appended to
   `value` (NULL: not kept). The writer never splits a code point into
   \u surrogates, so a \u escape of a surrogate is refused here. */
static bool read_string(const char** p, buffer* value) {
    const char* s = *p;
    if (*s++ != '"') return false;
    for (;;) {
        unsigned char c = (unsigned char)*s;
        if (c == '"') break;
        if (c < 0x20) return false; /* also the end of the text */
        if (c != '\\') {
            if (value) buffer_sink(s, 1, value);
            s++;
            continue;
        }
        s++;
        const char* simple = strchr("\"\\/bfnrt", *s);
        if (*s && simple) {
            static const char decoded[] = "\"\\/\b\f\n\r\t";
            if (value) buffer_sink(&decoded[simple - "\"\\/bfnrt"], 1, value);
            s++;
        } else if (*s == 'u') {
            uint32_t cp = 0;
            for (int k = 1; k <= 4; k++) {
                int d = hex_digit(s[k]);
                if (d < 0) return false;
                cp = cp << 4 | (uint32_t)d;
            }
            if (cp >= 0xd800 && cp <= 0xdfff) return false;
            if (value) put_utf8(value, cp);
            s += 5;
        } else {
            return false;
        }
    }
    *p = s + 1;
    return true;
}

static void skip_space(const char** p) {
    while (**p == ' ' || **p == '\n' || **p == '\r' || **p == '\t') ++*p;
}

/* One JSON value of the kinds the writer makes (objects, arrays, strings,
   numbers, true, false, null). */
static bool read_value(const char** p, int depth) {
    skip_space(p);
    const char* s = *p;
    if (depth > 64) return false;
    if (*s == '"') return read_string(p, NULL);
    if (*s == '{' || *s == '[') {
        char close = *s == '{' ? '}' : ']';
        *p = s + 1;
        skip_space(p);
        if (**p == close) return ++*p, true;
        for (;;) {
            if (close == '}') {
                skip_space(p);
                if (!read_string(p, NULL)) return false;
                skip_space(p);
                if (*(*p)++ != ':') return false;
            }
            if (!read_value(p, depth + 1)) return false;
            skip_space(p);
            if (**p == ',') ++*p;
            else if (**p == close) return ++*p, true;
            else return false;
        }
    }
    for (const char* const* word = (const char* const[]){"true", "false", "null", NULL}; *word; word++)
        if (strncmp(s, *word, strlen(*word)) == 0) return *p = s + strlen(*word), true;
    char* end;
    strtod(s, &end);
    if (end == s) return false;
    *p = end;
    return true;
}

/* The whole text is one JSON document in valid UTF-8. */
static bool parses(const char* text, size_t size) {
    if (!utf8_valid((const unsigned char*)text, size) || strlen(text) != size) return false;
    const char* p = text;
    if (!read_value(&p, 0)) return false;
    skip_space(&p);
    return *p == '\0';
}

/* Nothing a terminal acts on: no C0 control, DEL, C1 control, line or
   paragraph separator or bidi override appears raw. */
static bool terminal_safe(const char* text) {
    for (const unsigned char* s = (const unsigned char*)text; *s; s++) {
        if (*s < 0x20 || *s == 0x7f) return false;
        if (s[0] == 0xc2 && s[1] >= 0x80 && s[1] <= 0x9f) return false;
        if (s[0] == 0xe2 && s[1] == 0x80 && (s[2] == 0xa8 || s[2] == 0xa9 || (s[2] >= 0xaa && s[2] <= 0xae)))
            return false;
        if (s[0] == 0xe2 && s[1] == 0x81 && s[2] >= 0xa6 && s[2] <= 0xa9) return false;
    }
    return true;
}

/* ---- the table ------------------------------------------------------------------ */

#define R "\xef\xbf\xbd" /* U+FFFD */
#define CASE(in, out) {in, sizeof in - 1, "\"" out "\""}

typedef struct string_case {
    const char* in;
    size_t size;
    const char* json;
} string_case;

static const string_case cases[] = {
    CASE("", ""),
    CASE("plain ascii", "plain ascii"),
    CASE("quote \" backslash \\ slash /", "quote \\\" backslash \\\\ slash /"),
    /* control characters */
    CASE("a\nb\rc\td", "a\\nb\\rc\\td"),
    CASE("\x01\x08\x0c\x1f", "\\u0001\\u0008\\u000c\\u001f"),
    CASE("\x1b[31mred\x1b[0m", "\\u001b[31mred\\u001b[0m"),
    CASE("del\x7f", "del\\u007f"),
    CASE("nul\0inside", "nul\\u0000inside"),
    CASE("tip\nm.gltf: 0 errors, 0 warnings, 0 notes", "tip\\nm.gltf: 0 errors, 0 warnings, 0 notes"),
    /* valid UTF-8 is kept, including the boundaries of each length */
    CASE("caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x98\x80",
         "caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x98\x80"),
    CASE("\xc2\xa0\xdf\xbf", "\xc2\xa0\xdf\xbf"),                                 /* U+00A0, U+07FF */
    CASE("\xe0\xa0\x80\xed\x9f\xbf\xee\x80\x80", "\xe0\xa0\x80\xed\x9f\xbf\xee\x80\x80"), /* U+0800, U+D7FF, U+E000 */
    CASE("\xef\xbf\xbd\xef\xbf\xbf", "\xef\xbf\xbd\xef\xbf\xbf"),                 /* U+FFFD, U+FFFF */
    CASE("\xf0\x90\x80\x80\xf4\x8f\xbf\xbf", "\xf0\x90\x80\x80\xf4\x8f\xbf\xbf"), /* U+10000, U+10FFFF */
    /* code points a terminal acts on: escaped, losslessly */
    CASE("\xc2\x80\xc2\x9b", "\\u0080\\u009b"),                         /* C1 controls (CSI) */
    CASE("\xe2\x80\xa8\xe2\x80\xa9", "\\u2028\\u2029"),                 /* line, paragraph separators */
    CASE("abc\xe2\x80\xae" "fed", "abc\\u202efed"),                     /* right-to-left override */
    CASE("\xe2\x80\xaa\xe2\x81\xa6\xe2\x81\xa9", "\\u202a\\u2066\\u2069"), /* embedding, isolates */
    /* stray continuation bytes and bytes that start nothing: one U+FFFD each */
    CASE("\x80", R),
    CASE("a\x80\xbf" "b", "a" R R "b"),
    CASE("\xff\xfe", R R),
    CASE("\xf5\x80\x80\x80", R R R R),
    CASE("\xf8\x88\x80\x80\x80", R R R R R), /* the old 5-byte form */
    /* overlong forms */
    CASE("\xc0\x80", R R),           /* NUL in 2 bytes */
    CASE("\xc0\xaf", R R),           /* '/' in 2 bytes */
    CASE("\xc1\xbf", R R),
    CASE("\xe0\x80\xaf", R R R),     /* '/' in 3 bytes */
    CASE("\xe0\x9f\xbf", R R R),     /* U+07FF in 3 bytes */
    CASE("\xf0\x80\x80\xaf", R R R R),
    CASE("\xf0\x8f\xbf\xbf", R R R R), /* U+FFFF in 4 bytes */
    /* surrogates encoded in UTF-8 (and CESU-8 pairs) */
    CASE("\xed\xa0\x80", R R R),
    CASE("\xed\xbf\xbf", R R R),
    CASE("\xed\xa0\xbd\xed\xb8\x80", R R R R R R),
    /* above U+10FFFF */
    CASE("\xf4\x90\x80\x80", R R R R),
    CASE("\xf7\xbf\xbf\xbf", R R R R),
    /* cut short: one U+FFFD for the lead byte and the continuations that fit */
    CASE("\xc3", R),
    CASE("\xe6\x97", R),
    CASE("\xf0\x9f\x98", R),
    CASE("\xf0\x9f\x98x", R "x"),
    CASE("a\xe2\x82" "b", "a" R "b"),
    CASE("\xc3\xc3\xa9", R "\xc3\xa9"),
    CASE("\xe6\x97\n", R "\\n"),
    CASE("\xe2\x82\"", R "\\\""),
    CASE("\xf0\x9f\x98\0", R "\\u0000"),
    /* Unicode 15, section 3.9, Table 3-8: a, 3 x U+FFFD, b, U+FFFD, c, 2 x U+FFFD, d */
    CASE("\x61\xf1\x80\x80\xe1\x80\xc2\x62\x80\x63\x80\xbf\x64", "a" R R R "b" R "c" R R "d"),
};

static void test_table(void) {
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const string_case* c = &cases[i];
        buffer out;
        bool ok = write_one(&out, c->in, c->size);
        SW_CHECK(ok);
        bool same = out.data && strcmp(out.data, c->json) == 0;
        if (!same)
            fprintf(stderr, "  case %zu: got %s\n       expected %s\n", i, out.data ? out.data : "(nothing)", c->json);
        SW_CHECK(same);
        SW_CHECK(out.data && parses(out.data, out.size));
        SW_CHECK(out.data && terminal_safe(out.data));
        free(out.data);
    }
}

/* Valid input reads back byte for byte: the escapes lose nothing. */
static void test_valid_text_round_trips(void) {
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const string_case* c = &cases[i];
        if (!utf8_valid((const unsigned char*)c->in, c->size)) continue;
        buffer out, back = {0};
        SW_CHECK(write_one(&out, c->in, c->size));
        const char* p = out.data;
        SW_CHECK(read_string(&p, &back));
        SW_CHECK(back.size == c->size && (c->size == 0 || memcmp(back.data, c->in, c->size) == 0));
        free(out.data), free(back.data);
    }
}

/* NULL is null; json_string stops at the first NUL; keys are checked too. */
static void test_document(void) {
    buffer out = {0};
    json_writer w;
    json_writer_init(&w, buffer_sink, &out);
    json_begin_object(&w);
    json_key(&w, "k\xff\n"), json_string(&w, "v\xc0\xaf\x1b");
    json_key(&w, "none"), json_string(&w, NULL);
    json_key(&w, "list"), json_begin_array(&w);
    json_newline(&w);
    json_string(&w, "\xed\xa0\x80"), json_int(&w, 3);
    json_end_array(&w);
    json_end_object(&w);
    SW_CHECK(json_writer_finish(&w));
    const char* expected = "{\"k" R "\\n\":\"v" R R "\\u001b\",\"none\":null,\"list\":[\n\"" R R R "\",3]}";
    SW_CHECK(out.data && strcmp(out.data, expected) == 0);
    SW_CHECK(out.data && parses(out.data, out.size));
    free(out.data);
}

/* Longer than the writer's 8 KiB buffer, with sequences across its edge. */
static void test_long_string(void) {
    enum { COUNT = 9000 };
    char* in = malloc(COUNT * 3 + 1);
    char* expected = malloc(COUNT * 5 + 3);
    SW_CHECK(in && expected);
    if (!in || !expected) {
        free(in), free(expected);
        return;
    }
    size_t n = 0, e = 0;
    expected[e++] = '"';
    for (int i = 0; i < COUNT; i++) {
        if (i % 3 == 2) {
            memcpy(in + n, "\xe2\x82", 2), n += 2; /* cut-short euro sign */
            memcpy(expected + e, R, 3), e += 3;
        } else {
            memcpy(in + n, "\xc3\xa9", 2), n += 2;
            memcpy(expected + e, "\xc3\xa9", 2), e += 2;
        }
    }
    expected[e++] = '"';
    buffer out;
    SW_CHECK(write_one(&out, in, n));
    SW_CHECK(out.size == e && memcmp(out.data, expected, e) == 0);
    SW_CHECK(parses(out.data, out.size));
    free(out.data), free(in), free(expected);
}

/* Random bytes, mostly from the ranges that matter (continuations, lead
   bytes, controls): the output always parses, is terminal-safe, and valid
   input reads back unchanged. Seeded: the same strings every run. */
static void test_random_bytes(void) {
    static const unsigned char interesting[] = {0x00, 0x0a, 0x1b, 0x22, 0x5c, 0x7f, 0x80, 0x8f, 0x90, 0x9f,
                                                0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xe2, 0xed, 0xef,
                                                0xf0, 0xf4, 0xf5, 0xff, 'a'};
    uint32_t state = 12345;
    int failures = 0, valid_inputs = 0;
    for (int round = 0; round < 20000 && failures < 5; round++) {
        unsigned char in[24];
        size_t size = (size_t)(round % 24);
        for (size_t i = 0; i < size; i++) {
            state = state * 1664525u + 1013904223u;
            unsigned r = state >> 24;
            in[i] = (r & 1) ? interesting[(r >> 1) % sizeof interesting] : (unsigned char)(state >> 8);
        }
        buffer out;
        bool ok = write_one(&out, (const char*)in, size) && parses(out.data, out.size) && terminal_safe(out.data);
        if (ok && utf8_valid(in, size)) {
            valid_inputs++;
            buffer back = {0};
            const char* p = out.data;
            ok = read_string(&p, &back) && back.size == size && (size == 0 || memcmp(back.data, in, size) == 0);
            free(back.data);
        }
        if (!ok) {
            failures++;
            fprintf(stderr, "  random input %d (%zu bytes) gave %s\n", round, size, out.data ? out.data : "(nothing)");
        }
        free(out.data);
    }
    SW_CHECK_EQ_INT(failures, 0);
    SW_CHECK(valid_inputs > 1000); /* the round trip was exercised */
}

/* The checker itself accepts and refuses what it should. */
static void test_checker(void) {
    SW_CHECK(utf8_valid((const unsigned char*)"\xf4\x8f\xbf\xbf", 4));
    SW_CHECK(!utf8_valid((const unsigned char*)"\xed\xa0\x80", 3));
    SW_CHECK(!utf8_valid((const unsigned char*)"\xc0\xaf", 2));
    SW_CHECK(!utf8_valid((const unsigned char*)"\xf4\x90\x80\x80", 4));
    SW_CHECK(!utf8_valid((const unsigned char*)"\xe6\x97", 2));
    const char* good = "{\"a\":[1,\"x\\u00e9\",null,-2.5e3,true]}";
    SW_CHECK(parses(good, strlen(good)));
    SW_CHECK(!parses("\"a\nb\"", 5));
    SW_CHECK(!parses("\"a\\x\"", 5));
    SW_CHECK(!parses("\"\xff\"", 3));
    SW_CHECK(!parses("\"a\0\"", 4));
    SW_CHECK(!parses("{\"a\" 1}", 8));
    SW_CHECK(!terminal_safe("\xe2\x80\xae"));
}

int main(void) {
    SW_RUN(test_checker);
    SW_RUN(test_table);
    SW_RUN(test_valid_text_round_trips);
    SW_RUN(test_document);
    SW_RUN(test_long_string);
    SW_RUN(test_random_bytes);
    return sw_test_finish();
}
