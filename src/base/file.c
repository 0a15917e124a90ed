/* Files and URIs for the importers and the model module (see
   file_internal.h): reading a whole file, turning a relative URI reference
   into a path under the asset's folder, percent-escapes and data: URIs.
   Nothing here knows a file format. */
#define _POSIX_C_SOURCE 200809L /* fstat, strerror_r */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "file_internal.h"

/* ---- files ------------------------------------------------------------------ */

static void sw__errno_text(int error, char* out, size_t size) {
    if (strerror_r(error, out, size) != 0) snprintf(out, size, "error %d", error);
}

sw_result sw__read_file(const char* path, const char* label, size_t max_size, void* (*alloc)(void* user, size_t size),
                        void* user, uint8_t** out_data, size_t* out_size, sw_diag* diag) {
    char reason[128];
    *out_data = NULL;
    *out_size = 0;
    FILE* f = fopen(path, "rb");
    if (!f) {
        sw__errno_text(errno, reason, sizeof reason);
        return sw_diag_set(diag, SW_ERR_IO, -1, "%s: cannot open (%s)", label, reason);
    }
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
        fclose(f);
        return sw_diag_set(diag, SW_ERR_IO, -1, "%s: not a regular file", label);
    }
    if (st.st_size < 0 || (uintmax_t)st.st_size > max_size) {
        fclose(f);
        return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1,
                           "%s: %jd bytes is more than the memory allowed (%zu bytes left of max_memory)", label,
                           (intmax_t)st.st_size, max_size);
    }
    size_t size = (size_t)st.st_size;
    uint8_t* data = alloc(user, size ? size : 1);
    if (!data) {
        fclose(f);
        return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "%s: no memory for %zu bytes", label, size);
    }
    size_t got = size ? fread(data, 1, size, f) : 0;
    int error = ferror(f) ? errno : 0;
    fclose(f);
    if (got != size) {
        if (error) sw__errno_text(error, reason, sizeof reason);
        else snprintf(reason, sizeof reason, "file shrank to %zu bytes", got);
        return sw_diag_set(diag, SW_ERR_IO, -1, "%s: cannot read (%s)", label, reason);
    }
    *out_data = data;
    *out_size = size;
    return SW_OK;
}

/* ---- URIs ------------------------------------------------------------------- */

static int sw__hex(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

bool sw__percent_decode(const char* in, size_t length, char* out, size_t* out_length) {
    size_t n = 0;
    for (size_t i = 0; i < length; i++) {
        if (in[i] != '%') {
            if (out) out[n] = in[i];
            n++;
            continue;
        }
        int hi = i + 2 < length ? sw__hex(in[i + 1]) : -1, lo = i + 2 < length ? sw__hex(in[i + 2]) : -1;
        if (hi < 0 || lo < 0) return false;
        if (out) out[n] = (char)(hi * 16 + lo);
        n++;
        i += 2;
    }
    *out_length = n;
    return true;
}

static bool sw__is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

sw_result sw__uri_to_path(const char* uri, const char* base_dir, bool allow_outside, char** out_path,
                          sw_diag* diag) {
    *out_path = NULL;
    size_t length = strlen(uri);
    if (length == 0) return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "empty uri");
    /* A scheme (RFC 3986: ALPHA *(ALPHA / DIGIT / + - .) ":"); one letter
       before ':' is a Windows drive, an absolute path. */
    size_t s = 0;
    if (sw__is_alpha(uri[0])) {
        s = 1;
        while (sw__is_alpha(uri[s]) || (uri[s] >= '0' && uri[s] <= '9') || uri[s] == '+' || uri[s] == '-' ||
               uri[s] == '.')
            s++;
        if (uri[s] == ':' && s > 1)
            return sw_diag_set(diag, SW_ERR_UNSUPPORTED, -1,
                               "'%.*s:' URIs are not supported (only relative paths and data: URIs)", (int)s, uri);
    }
    char* decoded = malloc(length + 1);
    if (!decoded) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory");
    size_t n;
    if (!sw__percent_decode(uri, length, decoded, &n)) {
        free(decoded);
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "'%s' has a malformed %%-escape", uri);
    }
    decoded[n] = '\0';
    if (strlen(decoded) != n) {
        free(decoded);
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "'%s' contains a NUL byte", uri);
    }
    bool absolute = decoded[0] == '/' || decoded[0] == '\\' || (sw__is_alpha(decoded[0]) && decoded[1] == ':');
    /* ".." is checked lexically: any prefix of the path that climbs above
       the asset's folder counts, whatever follows. */
    bool outside = absolute;
    long depth = 0;
    for (size_t i = 0; i < n && !outside;) {
        size_t j = i;
        while (j < n && decoded[j] != '/' && decoded[j] != '\\') j++;
        size_t segment = j - i;
        if (segment == 2 && decoded[i] == '.' && decoded[i + 1] == '.') {
            if (--depth < 0) outside = true;
        } else if (segment > 0 && !(segment == 1 && decoded[i] == '.')) {
            depth++;
        }
        i = j + 1;
    }
    if (outside && !allow_outside) {
        sw_result r = sw_diag_set(diag, SW_ERR_INVALID_DATA, -1,
                                  "'%s' %s (set options.allow_outside_paths to allow it)", uri,
                                  absolute ? "is an absolute path" : "leaves the asset's folder");
        free(decoded);
        return r;
    }
    if (absolute) {
        *out_path = decoded;
        return SW_OK;
    }
    if (!base_dir) {
        sw_result r = sw_diag_set(diag, SW_ERR_IO, -1,
                                  "'%s' is an external file, but no base folder was given to read it from", uri);
        free(decoded);
        return r;
    }
    size_t base_length = strlen(base_dir);
    char* path = malloc(base_length + n + 2);
    if (!path) {
        free(decoded);
        return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory");
    }
    memcpy(path, base_dir, base_length);
    size_t at = base_length;
    if (base_length > 0 && base_dir[base_length - 1] != '/') path[at++] = '/';
    memcpy(path + at, decoded, n + 1);
    free(decoded);
    *out_path = path;
    return SW_OK;
}

/* ---- data: URIs -------------------------------------------------------------- */

/* 0..63 for a base64 character (RFC 4648 alphabet), -1 otherwise. */
static int sw__base64_value(char c) {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
}

static bool sw__starts_with_nocase(const char* s, size_t length, const char* prefix) {
    size_t n = strlen(prefix);
    if (length < n) return false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
        if (c != prefix[i]) return false;
    }
    return true;
}

sw_result sw__decode_data_uri(const char* uri, size_t uri_length, void* out, size_t capacity, size_t* out_size,
                              sw_diag* diag) {
    if (out_size) *out_size = 0;
    if (!uri || !out_size) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "no URI or no out_size");
    if (!sw__starts_with_nocase(uri, uri_length, "data:"))
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "not a data: URI");
    const char* comma = memchr(uri, ',', uri_length);
    if (!comma) return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "data: URI without ','");
    size_t header_length = (size_t)(comma - uri);
    const char* payload = comma + 1;
    size_t payload_length = uri_length - header_length - 1;
    bool base64 = header_length >= 12 && sw__starts_with_nocase(comma - 7, 7, ";base64");

    if (!base64) {
        size_t size;
        if (!sw__percent_decode(payload, payload_length, NULL, &size))
            return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "data: URI has a malformed %%-escape");
        if (out) {
            if (capacity < size)
                return sw_diag_set(diag, SW_ERR_BUFFER_TOO_SMALL, -1, "data: URI holds %zu bytes, room for %zu",
                                   size, capacity);
            sw__percent_decode(payload, payload_length, out, &size);
        }
        *out_size = size;
        return SW_OK;
    }

    /* Strict base64: whole quanta, '=' only as one or two final pads, no
       whitespace (a data: URI in JSON has no reason to contain any). */
    if (payload_length % 4 != 0)
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "base64 data has %zu characters, not a multiple of 4",
                           payload_length);
    size_t pad = 0;
    if (payload_length >= 1 && payload[payload_length - 1] == '=') pad++;
    if (payload_length >= 2 && payload[payload_length - 2] == '=') pad++;
    for (size_t i = 0; i < payload_length - pad; i++)
        if (sw__base64_value(payload[i]) < 0)
            return sw_diag_set(diag, SW_ERR_INVALID_DATA, (int64_t)i, "invalid base64 character at offset %zu", i);
    size_t size = payload_length / 4 * 3 - pad;
    if (out) {
        if (capacity < size)
            return sw_diag_set(diag, SW_ERR_BUFFER_TOO_SMALL, -1, "data: URI holds %zu bytes, room for %zu", size,
                               capacity);
        uint8_t* dst = out;
        size_t n = 0;
        for (size_t i = 0; i < payload_length; i += 4) {
            uint32_t quantum = 0;
            for (size_t k = 0; k < 4; k++) {
                int v = sw__base64_value(payload[i + k]);
                quantum = quantum << 6 | (uint32_t)(v < 0 ? 0 : v); /* '=' pads count as zero bits */
            }
            for (size_t k = 0; k < 3 && n < size; k++) dst[n++] = (uint8_t)(quantum >> (16 - 8 * k));
        }
    }
    *out_size = size;
    return SW_OK;
}
