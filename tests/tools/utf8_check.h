/* A UTF-8 validator written apart from tools/text_escape.c (bit patterns
   first, ranges after), so the escaping tests do not check the decoder
   with itself; shared by test_json_writer.c and test_text_escape.c. */
#ifndef SINEW_TEST_UTF8_CHECK_H
#define SINEW_TEST_UTF8_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Well-formed UTF-8 (RFC 3629): decode by the bit pattern, then check the range. */
static inline bool utf8_valid(const unsigned char* s, size_t n) {
    for (size_t i = 0; i < n;) {
        unsigned char b = s[i];
        if (b < 0x80) {
            i++;
            continue;
        }
        size_t len;
        uint32_t cp, min;
        if ((b & 0xe0) == 0xc0) len = 2, cp = b & 0x1fu, min = 0x80;
        else if ((b & 0xf0) == 0xe0) len = 3, cp = b & 0x0fu, min = 0x800;
        else if ((b & 0xf8) == 0xf0) len = 4, cp = b & 0x07u, min = 0x10000;
        else return false;
        if (n - i < len) return false;
        for (size_t k = 1; k < len; k++) {
            if ((s[i + k] & 0xc0) != 0x80) return false;
            cp = cp << 6 | (s[i + k] & 0x3fu);
        }
        if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return false;
        i += len;
    }
    return true;
}

/* A hexadecimal digit's value (either case), or -1. */
static inline int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

#endif
