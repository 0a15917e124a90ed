/* tools/text_escape.h — text taken from files (names, URIs, messages that
   quote them), made safe to print.

   A glTF file is untrusted input: its names may hold any bytes, including
   line breaks that fake a line of output, terminal escape sequences
   (ESC [ 31 m, ESC ] 0 ; title BEL) and bytes that are not UTF-8. Two
   outputs, two rules:

   - JSON (json_writer.c) must be valid UTF-8: each invalid sequence
     becomes one U+FFFD, and control characters are \u escapes. See
     json_writer.h.
   - Terminal text (text_escape() below) keeps valid UTF-8 as it is, so
     that names in any script stay readable, and writes everything else as
     a visible escape:

       byte / code point                          written as
       line feed, tab, carriage return, ESC       \n  \t  \r  \e
       other C0 controls (< 0x20) and DEL (0x7f)  \xHH
       a byte of an invalid UTF-8 sequence        \xHH, one per byte
       C1 controls U+0080..U+009F, the line and   \uHHHH
       paragraph separators U+2028/U+2029 and
       the bidirectional embeddings, overrides
       and isolates U+202A..U+202E, U+2066..U+2069
                                                  (a terminal may act on
                                                  them: CSI, new lines,
                                                  text drawn reversed)

     A backslash and quotes are printed as they are: the library's
     messages already put quotes around the names they cite and may hold
     backslashes of their own ("\u0000 at byte 12"), which doubling would
     misquote. So a name that holds the text `\n` prints like one that holds
     a line feed; neither can start a line or reach the terminal, and
     --json gives the exact bytes.

   Both use one UTF-8 decoder, text_utf8_next(), strict as RFC 3629 and
   Unicode's "maximal subpart" practice (the WHATWG decoder's): overlong
   forms, surrogates (U+D800..U+DFFF) and code points above U+10FFFF are
   invalid, as is a sequence cut short. Every function here is pure and
   thread-safe. */
#ifndef SINEW_TEXT_ESCAPE_H
#define SINEW_TEXT_ESCAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* What text_utf8_next() gives for an invalid sequence. */
#define TEXT_UTF8_INVALID UINT32_MAX

/* Decodes the UTF-8 sequence at the start of `s` (`size` > 0 bytes; a NUL
   byte is U+0000, not an end). Returns the bytes consumed (1 to 4) and sets
   *out_code_point, or TEXT_UTF8_INVALID for the maximal subpart of an
   invalid sequence: the longest prefix of a well-formed sequence found
   there (a lead byte and the continuation bytes that fit it), or 1 byte
   when even the first byte cannot start one. Each such subpart is one
   replacement character, as the Unicode standard recommends (chapter 3,
   "U+FFFD Substitution of Maximal Subparts"):
     C0 AF -> 2, ED A0 80 -> 3, F0 9F 98 "x" -> 1 then "x", F4 90 80 80 -> 4. */
size_t text_utf8_next(const char* s, size_t size, uint32_t* out_code_point);

/* True for code points text_escape() writes as \uHHHH (C1 controls, line
   and paragraph separators, bidi embeddings, overrides and isolates);
   json_writer escapes them too (losslessly, as \uHHHH). */
bool text_is_format_control(uint32_t code_point);

/* The bytes text_escape() needs for `size` bytes of input, its NUL
   included: every input byte can become at most 4 ("\xHH"). */
#define TEXT_ESCAPE_BOUND(size) (4 * (size_t)(size) + 1)

/* Writes `s` (`size` bytes; NUL bytes are escaped as \x00) escaped for a
   terminal, by the table above, into `out` (`out_size` bytes, NULL when 0),
   cut at a whole escape so that the result is always NUL-terminated and
   never ends in half an escape or half a UTF-8 sequence. Returns the length
   the whole escaped text has (without the NUL), as snprintf does: the
   output was cut when that is >= out_size. `out` and `s` must not overlap. */
size_t text_escape(char* restrict out, size_t out_size, const char* restrict s, size_t size);

/* Writes the NUL-terminated `s` to `f` escaped by text_escape(). Returns
   false on a write error (also reported by ferror(f)). */
bool text_escape_print(FILE* f, const char* s);

#endif
