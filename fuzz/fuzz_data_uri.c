/* libFuzzer target: data: URIs (sw_gltf_decode_data_uri) and the URI
   helpers behind buffer and image references (percent-decoding, the path
   rules of sw__uri_to_path). Checks, beyond "no crash":
   - the size pass and the decoding pass agree, and decoding into one byte
     less than the size is refused with SW_ERR_BUFFER_TOO_SMALL;
   - a failure writes 0 to out_size and says why;
   - with allow_outside = false, a path that is accepted stays under the
     base folder (no absolute path, no ".." climbing out of it). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/gltf/gltf_internal.h"
#include "fuzz_check.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

static void check_data_uri(const char* uri, size_t size) {
    sw_diag diag;
    size_t needed = 12345;
    sw_result r = sw_gltf_decode_data_uri(uri, size, NULL, 0, &needed, &diag);
    if (r != SW_OK) {
        FUZZ_REQUIRE(needed == 0 && diag.result == r && diag.message[0]);
        return;
    }
    FUZZ_REQUIRE(needed <= size);
    uint8_t* out = malloc(needed ? needed : 1);
    FUZZ_REQUIRE(out);
    size_t got = 0;
    FUZZ_REQUIRE(sw_gltf_decode_data_uri(uri, size, out, needed, &got, &diag) == SW_OK);
    FUZZ_REQUIRE(got == needed);
    free(out);
    if (needed > 0) {
        uint8_t* small = malloc(needed - 1 ? needed - 1 : 1);
        FUZZ_REQUIRE(small);
        FUZZ_REQUIRE(sw_gltf_decode_data_uri(uri, size, small, needed - 1, &got, &diag) == SW_ERR_BUFFER_TOO_SMALL);
        FUZZ_REQUIRE(got == 0);
        free(small);
    }
}

static void check_percent_decode(const char* in, size_t size) {
    char* out = malloc(size ? size : 1);
    FUZZ_REQUIRE(out);
    size_t length = 0, counted = 0;
    bool ok = sw__percent_decode(in, size, out, &length);
    FUZZ_REQUIRE(ok == sw__percent_decode(in, size, NULL, &counted));
    if (ok) FUZZ_REQUIRE(length == counted && length <= size);
    free(out);
}

static void check_uri_to_path(const char* uri) {
    for (int allow = 0; allow < 2; allow++) {
        char* path = NULL;
        sw_diag diag;
        sw_result r = sw__uri_to_path(uri, "base", allow, &path, &diag);
        if (r != SW_OK) {
            FUZZ_REQUIRE(!path && diag.message[0]);
            continue;
        }
        FUZZ_REQUIRE(path);
        if (!allow) {
            FUZZ_REQUIRE(strncmp(path, "base/", 5) == 0);
            /* no segment walk may climb above base/ */
            long depth = 0;
            for (const char* s = path + 5; *s;) {
                size_t n = strcspn(s, "/\\");
                if (n == 2 && s[0] == '.' && s[1] == '.') FUZZ_REQUIRE(--depth >= 0);
                else if (n > 0 && !(n == 1 && s[0] == '.')) depth++;
                s += n;
                if (*s) s++;
            }
        }
        free(path);
        /* no base folder: relative paths are refused */
        r = sw__uri_to_path(uri, NULL, allow, &path, &diag);
        if (r == SW_OK) {
            FUZZ_REQUIRE(path && (path[0] == '/' || path[0] == '\\' || (path[0] && path[1] == ':')));
            free(path);
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const char* uri = (const char*)data;
    check_data_uri(uri, size);
    check_percent_decode(uri, size);
    char* text = malloc(size + 1);
    if (!text) return 0;
    if (size) memcpy(text, data, size);
    text[size] = '\0';
    check_uri_to_path(text);
    free(text);
    return 0;
}
