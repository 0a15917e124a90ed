/* UTF-8 decoding and terminal escaping of text from files (see text_escape.h). */
#include "text_escape.h"

#include <string.h>

size_t text_utf8_next(const char* s, size_t size, uint32_t* out_code_point) {
    const unsigned char* p = (const unsigned char*)s;
    unsigned char b = p[0];
    *out_code_point = TEXT_UTF8_INVALID;
    if (b < 0x80) {
        *out_code_point = b;
        return 1;
    }
    /* The lead byte fixes the length and the range of the second byte
       (RFC 3629's table), which rules out overlongs (E0 80..9F, F0 80..8F),
       surrogates (ED A0..BF) and code points past U+10FFFF (F4 90..BF). */
    size_t length;
    unsigned char low = 0x80, high = 0xbf;
    uint32_t cp;
    if (b >= 0xc2 && b <= 0xdf) length = 2, cp = b & 0x1fu;
    else if (b >= 0xe0 && b <= 0xef) length = 3, cp = b & 0x0fu;
    else if (b >= 0xf0 && b <= 0xf4) length = 4, cp = b & 0x07u;
    else return 1; /* a continuation byte, C0/C1 (always overlong) or F5..FF */
    if (b == 0xe0) low = 0xa0;
    else if (b == 0xed) high = 0x9f;
    else if (b == 0xf0) low = 0x90;
    else if (b == 0xf4) high = 0x8f;

    for (size_t i = 1; i < length; i++) {
        /* The maximal subpart ends before the first byte that does not fit:
           that byte starts the next sequence. */
        if (i >= size || p[i] < low || p[i] > high) return i;
        cp = cp << 6 | (p[i] & 0x3fu);
        low = 0x80, high = 0xbf;
    }
    *out_code_point = cp;
    return length;
}

bool text_is_format_control(uint32_t cp) {
    return (cp >= 0x80 && cp <= 0x9f) || cp == 0x2028 || cp == 0x2029 || (cp >= 0x202a && cp <= 0x202e) ||
           (cp >= 0x2066 && cp <= 0x2069);
}

/* The escape for one decoded unit (`n` bytes at `s`, code point `cp`) into
   `e` (16 bytes: at most 3 invalid bytes, 4 each); returns its length.
   Valid, printable UTF-8 is copied as it is. */
static size_t escape_unit(char* e, const char* s, size_t n, uint32_t cp) {
    static const char hex[] = "0123456789abcdef";
    if (cp == TEXT_UTF8_INVALID) {
        /* each byte of the invalid subpart on its own */
        for (size_t i = 0; i < n; i++) {
            unsigned char b = (unsigned char)s[i];
            e[4 * i] = '\\', e[4 * i + 1] = 'x', e[4 * i + 2] = hex[b >> 4], e[4 * i + 3] = hex[b & 15];
        }
        return 4 * n;
    }
    switch (cp) {
    case '\n': memcpy(e, "\\n", 2); return 2;
    case '\t': memcpy(e, "\\t", 2); return 2;
    case '\r': memcpy(e, "\\r", 2); return 2;
    case 0x1b: memcpy(e, "\\e", 2); return 2;
    default: break;
    }
    if (cp < 0x20 || cp == 0x7f) {
        e[0] = '\\', e[1] = 'x', e[2] = hex[cp >> 4], e[3] = hex[cp & 15];
        return 4;
    }
    if (text_is_format_control(cp)) {
        e[0] = '\\', e[1] = 'u';
        for (int k = 0; k < 4; k++) e[2 + k] = hex[(cp >> (12 - 4 * k)) & 15];
        return 6;
    }
    memcpy(e, s, n);
    return n;
}

size_t text_escape(char* restrict out, size_t out_size, const char* restrict s, size_t size) {
    size_t total = 0, written = 0;
    bool cut = out_size == 0;
    for (size_t i = 0; i < size;) {
        uint32_t cp;
        size_t n = text_utf8_next(s + i, size - i, &cp);
        char e[16];
        size_t len = escape_unit(e, s + i, n, cp);
        /* Once one escape does not fit, nothing after it is written either,
           so the output is a prefix of the whole text made of whole escapes. */
        if (!cut && written + len < out_size) {
            memcpy(out + written, e, len);
            written += len;
        } else {
            cut = true;
        }
        total += len;
        i += n;
    }
    if (out_size) out[written] = '\0';
    return total;
}

bool text_escape_print(FILE* f, const char* s) {
    size_t size = strlen(s);
    for (size_t i = 0; i < size;) {
        uint32_t cp;
        size_t n = text_utf8_next(s + i, size - i, &cp);
        char e[16];
        size_t len = escape_unit(e, s + i, n, cp);
        if (fwrite(e, 1, len, f) != len) return false;
        i += n;
    }
    return true;
}
