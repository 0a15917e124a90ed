/* Terminal escaping of names from files (tools/text_escape.c): a table of
   byte strings and their exact escaped text, cutting to a short buffer,
   the FILE* variant, and random bytes whose escaped text must hold no
   control character and no invalid UTF-8, and must read back to exactly
   the input when it holds no backslash (backslashes are printed as they
   are, so only then are the escapes unambiguous).
   The UTF-8 check and the reader are written here, independently of the
   decoder under test. */
#include "harness.h"

#include "text_escape.h"
#include "tools/utf8_check.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>


/* Reads escaped text back into bytes (`out` has room for strlen(text));
   returns the byte count, or -1 for an escape text_escape never writes. */
static long unescape(unsigned char* out, const char* text) {
    size_t n = 0;
    for (const char* s = text; *s;) {
        if (*s != '\\') {
            out[n++] = (unsigned char)*s++;
            continue;
        }
        char c = s[1];
        if (c == 'n') out[n++] = '\n', s += 2;
        else if (c == 't') out[n++] = '\t', s += 2;
        else if (c == 'r') out[n++] = '\r', s += 2;
        else if (c == 'e') out[n++] = 0x1b, s += 2;
        else if (c == 'x' && hex_digit(s[2]) >= 0 && hex_digit(s[3]) >= 0) {
            out[n++] = (unsigned char)(hex_digit(s[2]) << 4 | hex_digit(s[3]));
            s += 4;
        } else if (c == 'u') {
            uint32_t cp = 0;
            for (int k = 2; k < 6; k++) {
                if (hex_digit(s[k]) < 0) return -1;
                cp = cp << 4 | (uint32_t)hex_digit(s[k]);
            }
            if (cp < 0x80) return -1;
            if (cp < 0x800) {
                out[n++] = (unsigned char)(0xc0 | cp >> 6), out[n++] = (unsigned char)(0x80 | (cp & 0x3f));
            } else {
                out[n++] = (unsigned char)(0xe0 | cp >> 12), out[n++] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
                out[n++] = (unsigned char)(0x80 | (cp & 0x3f));
            }
            s += 6;
        } else {
            return -1;
        }
    }
    return (long)n;
}

/* No byte below 0x20, no DEL, and (as UTF-8) no C1 control, line or
   paragraph separator or bidi override: nothing a terminal acts on. */
static bool terminal_safe(const char* text) {
    for (const unsigned char* s = (const unsigned char*)text; *s; s++) {
        if (*s < 0x20 || *s == 0x7f) return false;
        if (s[0] == 0xc2 && s[1] >= 0x80 && s[1] <= 0x9f) return false;
        if (s[0] == 0xe2 && s[1] == 0x80 && s[2] >= 0xa8 && s[2] <= 0xae) return false;
        if (s[0] == 0xe2 && s[1] == 0x81 && s[2] >= 0xa6 && s[2] <= 0xa9) return false;
    }
    return true;
}

#define CASE(in, out) {in, sizeof in - 1, out}

typedef struct escape_case {
    const char* in;
    size_t size;
    const char* text;
} escape_case;

static const escape_case cases[] = {
    CASE("", ""),
    CASE("Hand_L", "Hand_L"),
    CASE("a\"b", "a\"b"),                      /* quotes stay */
    CASE("C:\\rig\\hand", "C:\\rig\\hand"),   /* backslashes stay */
    CASE("\\u0000 at byte 12", "\\u0000 at byte 12"),
    CASE("a\nb\tc\rd", "a\\nb\\tc\\rd"),
    CASE("\x1b[31mred\x1b[0m", "\\e[31mred\\e[0m"),
    CASE("\x1b]0;title\x07", "\\e]0;title\\x07"),
    CASE("\x01\x08\x0b\x0c\x1f\x7f", "\\x01\\x08\\x0b\\x0c\\x1f\\x7f"),
    CASE("nul\0after", "nul\\x00after"),
    CASE("tip\nm.gltf: 0 errors, 0 warnings, 0 notes", "tip\\nm.gltf: 0 errors, 0 warnings, 0 notes"),
    /* valid UTF-8 stays readable */
    CASE("caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac \xd0\xbf\xd1\x80\xd0\xb0\xd0\xb2\xd0\xb0\xd1\x8f \xf0\x9f\x98\x80",
         "caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac \xd0\xbf\xd1\x80\xd0\xb0\xd0\xb2\xd0\xb0\xd1\x8f \xf0\x9f\x98\x80"),
    /* Hebrew, drawn right to left by the terminal's own rules: kept */
    CASE("\xd7\xa9\xd7\x9c\xd7\x95\xd7\x9d", "\xd7\xa9\xd7\x9c\xd7\x95\xd7\x9d"),
    CASE("\xef\xbf\xbd\xf4\x8f\xbf\xbf", "\xef\xbf\xbd\xf4\x8f\xbf\xbf"),
    /* what a terminal acts on although it is valid UTF-8 */
    CASE("\xc2\x9b" "31m", "\\u009b31m"),
    CASE("\xe2\x80\xa8\xe2\x80\xa9", "\\u2028\\u2029"),
    CASE("abc\xe2\x80\xae" "fed", "abc\\u202efed"),
    CASE("\xe2\x81\xa6x\xe2\x81\xa9", "\\u2066x\\u2069"),
    /* invalid UTF-8: each byte of the invalid sequence as \xHH */
    CASE("bad\xff\xfe", "bad\\xff\\xfe"),
    CASE("\x80\xbf", "\\x80\\xbf"),
    CASE("\xc0\xaf", "\\xc0\\xaf"),
    CASE("\xe0\x80\xaf", "\\xe0\\x80\\xaf"),
    CASE("\xed\xa0\x80", "\\xed\\xa0\\x80"),
    CASE("\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80"),
    CASE("\xe6\x97", "\\xe6\\x97"),
    CASE("\xf0\x9f\x98x", "\\xf0\\x9f\\x98x"),
    CASE("\xc3\xc3\xa9", "\\xc3\xc3\xa9"),
};

static void test_table(void) {
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const escape_case* c = &cases[i];
        char out[256];
        size_t n = text_escape(out, sizeof out, c->in, c->size);
        bool same = n == strlen(c->text) && strcmp(out, c->text) == 0;
        if (!same) fprintf(stderr, "  case %zu: got '%s', expected '%s'\n", i, out, c->text);
        SW_CHECK(same);
        SW_CHECK(terminal_safe(out));
        SW_CHECK(utf8_valid((const unsigned char*)out, strlen(out)));
        SW_CHECK(strlen(out) < TEXT_ESCAPE_BOUND(c->size));
        unsigned char back[256];
        if (!memchr(c->in, '\\', c->size)) {
            long m = unescape(back, out);
            SW_CHECK(m == (long)c->size && memcmp(back, c->in, c->size) == 0);
        }
    }
}

/* The decoder's unit for each kind of sequence: its length and code point. */
static void test_decoder(void) {
    static const struct {
        const char* s;
        size_t size, length;
        uint32_t cp;
    } units[] = {
        {"A", 1, 1, 'A'},
        {"", 1, 1, 0}, /* a NUL byte inside the size is U+0000 */
        {"\xc3\xa9", 2, 2, 0xe9},
        {"\xe2\x82\xac", 3, 3, 0x20ac},
        {"\xf4\x8f\xbf\xbf", 4, 4, 0x10ffff},
        {"\xc3\xa9", 1, 1, TEXT_UTF8_INVALID},     /* cut by `size` */
        {"\xf0\x9f\x98\x80", 3, 3, TEXT_UTF8_INVALID},
        {"\xe0\x9f\xbf", 3, 1, TEXT_UTF8_INVALID}, /* overlong: the lead byte alone */
        {"\xed\xa0\x80", 3, 1, TEXT_UTF8_INVALID}, /* surrogate */
        {"\xf4\x90\x80\x80", 4, 1, TEXT_UTF8_INVALID},
        {"\xf1\x80\x80\xe1", 4, 3, TEXT_UTF8_INVALID},
        {"\xc1\xbf", 2, 1, TEXT_UTF8_INVALID},
        {"\xbf", 1, 1, TEXT_UTF8_INVALID},
    };
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        uint32_t cp = 0;
        size_t length = text_utf8_next(units[i].s, units[i].size, &cp);
        if (length != units[i].length || cp != units[i].cp)
            fprintf(stderr, "  unit %zu: %zu bytes, U+%04X\n", i, length, (unsigned)cp);
        SW_CHECK(length == units[i].length && cp == units[i].cp);
    }
}

/* A short buffer: NUL-terminated, whole escapes and whole characters only,
   a prefix of the full text, and the return value is the full length. */
static void test_cut(void) {
    const char in[] = "ab\n\xe6\x97\xa5\xff";
    const char* full = "ab\\n\xe6\x97\xa5\\xff";
    size_t full_length = strlen(full);
    SW_CHECK_EQ_INT(text_escape(NULL, 0, in, sizeof in - 1), full_length);
    static const size_t kept[] = {0, 0, 1, 2, 2, 4, 4, 4, 7, 7, 7, 7, 11};
    for (size_t size = 1; size <= full_length + 1; size++) {
        char out[32];
        memset(out, '#', sizeof out);
        SW_CHECK_EQ_INT(text_escape(out, size, in, sizeof in - 1), full_length);
        SW_CHECK_EQ_INT(strlen(out), kept[size]);
        SW_CHECK(strncmp(out, full, strlen(out)) == 0);
        SW_CHECK(out[size] == '#'); /* nothing past out_size */
    }
}

/* text_escape_print writes what text_escape gives. */
static void test_print(void) {
    FILE* f = tmpfile();
    SW_CHECK(f != NULL);
    if (!f) return;
    const char* in = "j\x1b[2J\nx\xff\\";
    SW_CHECK(text_escape_print(f, in));
    char expected[64], got[64] = {0};
    text_escape(expected, sizeof expected, in, strlen(in));
    rewind(f);
    size_t n = fread(got, 1, sizeof got - 1, f);
    SW_CHECK(n == strlen(expected) && strcmp(got, expected) == 0);
    fclose(f);
}

/* Random bytes: the escaped text is safe, valid UTF-8, and reads back
   (without backslashes in the input, which print as they are). */
static void test_random_bytes(void) {
    static const unsigned char interesting[] = {0x00, 0x0a, 0x1b, 0x5c, 0x7f, 0x80, 0x9f, 0xa0, 0xa8, 0xae,
                                                0xbf, 0xc0, 0xc2, 0xdf, 0xe0, 0xe2, 0xed, 0xf0, 0xf4, 0xff, 'x'};
    uint32_t state = 777;
    int failures = 0, read_back = 0;
    for (int round = 0; round < 20000 && failures < 5; round++) {
        unsigned char in[24];
        size_t size = (size_t)(round % 24);
        for (size_t i = 0; i < size; i++) {
            state = state * 1664525u + 1013904223u;
            unsigned r = state >> 24;
            in[i] = (r & 1) ? interesting[(r >> 1) % sizeof interesting] : (unsigned char)(state >> 8);
        }
        char out[TEXT_ESCAPE_BOUND(24)];
        size_t n = text_escape(out, sizeof out, (const char*)in, size);
        unsigned char back[sizeof out];
        bool ok = n < sizeof out && terminal_safe(out) && utf8_valid((const unsigned char*)out, n);
        if (ok && !memchr(in, '\\', size)) {
            ok = unescape(back, out) == (long)size && memcmp(back, in, size) == 0;
            read_back++;
        }
        if (!ok) {
            failures++;
            fprintf(stderr, "  random input %d (%zu bytes) gave '%s'\n", round, size, out);
        }
    }
    SW_CHECK_EQ_INT(failures, 0);
    SW_CHECK(read_back > 5000);
}

int main(void) {
    SW_RUN(test_decoder);
    SW_RUN(test_table);
    SW_RUN(test_cut);
    SW_RUN(test_print);
    SW_RUN(test_random_bytes);
    return sw_test_finish();
}
