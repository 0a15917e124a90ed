/* Files and URIs for the importers and the model module (see
   file_internal.h): reading a whole file, turning a relative URI reference
   into a path under the asset's folder, percent-escapes and data: URIs.
   Nothing here knows a file format. */
#define _XOPEN_SOURCE 700 /* POSIX.1-2008 with XSI: fstat, realpath, strerror_r, O_CLOEXEC */

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file_internal.h"
#include "../base/base_internal.h"

/* Said after every refusal of a path outside the asset's folder: how to
   allow it from the library and from the command line, without telling
   either reader to do something that only the other can. */
#define SW__OUTSIDE_HINT "(allowed only with allow_outside_paths, --allow-outside-paths on the command line)"

/* ---- files ------------------------------------------------------------------ */

static void sw__errno_text(int error, char* out, size_t size) {
    if (strerror_r(error, out, size) != 0) snprintf(out, size, "error %d", error);
}

/* What a file that is not a regular file is, for messages. */
static const char* sw__file_kind(mode_t mode) {
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISSOCK(mode)) return "a socket";
    if (S_ISLNK(mode)) return "a symbolic link";
    return "of an unknown kind";
}

sw_result sw__read_file(const char* path, const char* label, size_t max_size, size_t read_size,
                        void* (*alloc)(void* user, size_t size), void (*release)(void* user, void* ptr), void* user,
                        uint8_t** out_data, size_t* out_size, sw_diag* diag) {
    char reason[128];
    *out_data = NULL;
    *out_size = 0;
    /* Looked at before opening, so that no device is opened at all (opening
       one can have effects of its own); the descriptor is checked again
       below, since the path may name something else by then. */
    struct stat st;
    if (stat(path, &st) != 0) {
        sw__errno_text(errno, reason, sizeof reason);
        return sw_diag_set(diag, SW_ERR_IO, -1, "%s: cannot open (%s)", label, reason);
    }
    if (!S_ISREG(st.st_mode))
        return sw_diag_set(diag, SW_ERR_IO, -1, "%s: not a regular file (%s)", label, sw__file_kind(st.st_mode));
    /* O_NONBLOCK: a FIFO put in the file's place meanwhile must not make
       open() wait for a writer; it is cleared once the descriptor is known
       to be a regular file (where it changes nothing anyway). */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        sw__errno_text(errno, reason, sizeof reason);
        return sw_diag_set(diag, SW_ERR_IO, -1, "%s: cannot open (%s)", label, reason);
    }
    int flags;
    if (fstat(fd, &st) != 0 || (flags = fcntl(fd, F_GETFL)) == -1 ||
        (S_ISREG(st.st_mode) && fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == -1)) {
        sw__errno_text(errno, reason, sizeof reason);
        close(fd);
        return sw_diag_set(diag, SW_ERR_IO, -1, "%s: cannot read (%s)", label, reason);
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return sw_diag_set(diag, SW_ERR_IO, -1, "%s: not a regular file (%s)", label, sw__file_kind(st.st_mode));
    }
    if (st.st_size < 0) {
        close(fd);
        return sw_diag_set(diag, SW_ERR_IO, -1, "%s: cannot read (size %jd)", label, (intmax_t)st.st_size);
    }
    size_t size = (uintmax_t)st.st_size < read_size ? (size_t)st.st_size : read_size;
    if (size > max_size) {
        close(fd);
        return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1,
                           "%s: %zu bytes is more than the memory allowed (%zu bytes left of max_memory)", label,
                           size, max_size);
    }
    uint8_t* data = alloc(user, size ? size : 1);
    if (!data) {
        close(fd);
        return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "%s: no memory for %zu bytes", label, size);
    }
    size_t got = 0;
    int error = 0;
    while (got < size) {
        ssize_t n = read(fd, data + got, size - got);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) error = errno;
        if (n <= 0) break;
        got += (size_t)n;
    }
    close(fd);
    if (got != size) {
        if (release) release(user, data);
        if (error) sw__errno_text(error, reason, sizeof reason);
        else snprintf(reason, sizeof reason, "file shrank to %zu bytes", got);
        return sw_diag_set(diag, SW_ERR_IO, -1, "%s: cannot read (%s)", label, reason);
    }
    *out_data = data;
    *out_size = size;
    return SW_OK;
}

/* realpath() into memory from sinew's allocator (realpath(path, NULL)
   would return libc's malloc memory, which sw__free must not be given).
   NULL with errno set on failure: ENOMEM when out of memory. */
static char* sw__real_path(const char* path) {
    char buffer[PATH_MAX];
    if (!realpath(path, buffer)) return NULL;
    char* copy = sw__string_copy(buffer);
    if (!copy) errno = ENOMEM;
    return copy;
}

sw_result sw__path_inside(const char* path, const char* base_dir, const char* label, char** out_path,
                          sw_diag* diag) {
    char reason[128];
    *out_path = NULL;
    char* real = sw__real_path(path);
    if (!real) {
        if (errno == ENOMEM) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "%s: out of memory", label);
        sw__errno_text(errno, reason, sizeof reason);
        return sw_diag_set(diag, SW_ERR_IO, -1, "%s: cannot open (%s)", label, reason);
    }
    char* base = sw__real_path(base_dir);
    if (!base) {
        int error = errno;
        sw__free(real);
        if (error == ENOMEM) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "%s: out of memory", label);
        sw__errno_text(error, reason, sizeof reason);
        return sw_diag_set(diag, SW_ERR_IO, -1, "%s: cannot open the asset's folder (%s)", label, reason);
    }
    size_t n = strlen(base);
    bool inside = (n == 1 && base[0] == '/') || (strncmp(real, base, n) == 0 && (real[n] == '/' || real[n] == '\0'));
    sw__free(base);
    if (!inside) {
        sw__free(real);
        /* The URI passed sw__uri_to_path's checks, so a symbolic link is
           what leads out. Where it leads is not said: the message may
           reach whoever sent the file. */
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1,
                           "%s leads outside the asset's folder through a symbolic link " SW__OUTSIDE_HINT, label);
    }
    *out_path = real;
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

/* A path from '/', '\\' or a Windows drive letter. */
static bool sw__is_absolute(const char* path) {
    return path[0] == '/' || path[0] == '\\' || (sw__is_alpha(path[0]) && path[1] == ':');
}

/* ".." is checked lexically: any prefix of the path that climbs above
   the asset's folder counts, whatever follows ('\\' separates too, so
   that a Windows-style name cannot slip past). */
static bool sw__climbs_out(const char* path, size_t n) {
    long depth = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && path[j] != '/' && path[j] != '\\') j++;
        size_t segment = j - i;
        if (segment == 2 && path[i] == '.' && path[i + 1] == '.') {
            if (--depth < 0) return true;
        } else if (segment > 0 && !(segment == 1 && path[i] == '.')) {
            depth++;
        }
        i = j + 1;
    }
    return false;
}

/* base_dir + '/' + name, from sinew's allocator; NULL when out of memory. */
static char* sw__join_path(const char* base_dir, const char* name, size_t n) {
    size_t base_length = strlen(base_dir);
    char* path = sw__malloc(base_length + n + 2);
    if (!path) return NULL;
    memcpy(path, base_dir, base_length);
    size_t at = base_length;
    if (base_length > 0 && base_dir[base_length - 1] != '/') path[at++] = '/';
    memcpy(path + at, name, n);
    path[at + n] = '\0';
    return path;
}

sw_result sw__check_uri_text(const char* uri, size_t length, sw_diag* diag) {
    for (size_t i = 0; i < length; i++) {
        unsigned char c = (unsigned char)uri[i];
        if (c == 0)
            return sw_diag_set(diag, SW_ERR_INVALID_DATA, (int64_t)i, "contains a NUL character (at byte %zu)", i);
        if (c < 0x20 || c == 0x7f)
            return sw_diag_set(diag, SW_ERR_INVALID_DATA, (int64_t)i,
                               "contains a control character (0x%02x at byte %zu)", c, i);
    }
    return SW_OK;
}

/* The path a checked name (`path`, n bytes: a decoded URI or a side file's
   name) stands for under base_dir, by the path rules: absolute paths and
   ".." out of the folder only when allowed. Messages quote `shown`, the
   name as the file wrote it. *out_path is a new string. */
static sw_result sw__resolve_under(const char* shown, const char* path, size_t n, const char* base_dir,
                                   bool allow_outside, char** out_path, sw_diag* diag) {
    bool absolute = sw__is_absolute(path);
    if ((absolute || sw__climbs_out(path, n)) && !allow_outside)
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "'%.120s' %s " SW__OUTSIDE_HINT, shown,
                           absolute ? "is an absolute path" : "leaves the asset's folder");
    if (!absolute && !base_dir)
        return sw_diag_set(diag, SW_ERR_IO, -1,
                           "'%.120s' is an external file, but no base folder was given to read it from", shown);
    char* joined = absolute ? sw__string_copy(path) : sw__join_path(base_dir, path, n);
    if (!joined) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory");
    *out_path = joined;
    return SW_OK;
}

sw_result sw__uri_to_path(const char* uri, const char* base_dir, bool allow_outside, char** out_path,
                          sw_diag* diag) {
    *out_path = NULL;
    size_t length = strlen(uri);
    if (length == 0) return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "empty uri");
    sw_diag inner;
    if (sw__check_uri_text(uri, length, &inner) != SW_OK)
        return sw_diag_set(diag, inner.result, -1, "'%.120s' %s", uri, inner.message);
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
    char* decoded = sw__malloc(length + 1);
    if (!decoded) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory");
    size_t n;
    if (!sw__percent_decode(uri, length, decoded, &n)) {
        sw__free(decoded);
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "'%.120s' has a malformed %%-escape", uri);
    }
    decoded[n] = '\0';
    /* %00 and %0A name no file anyone meant: refused like the raw bytes. */
    if (sw__check_uri_text(decoded, n, &inner) != SW_OK) {
        sw__free(decoded);
        return sw_diag_set(diag, inner.result, -1, "'%.120s' %s once %%-escapes are decoded", uri, inner.message);
    }
    sw_result r = sw__resolve_under(uri, decoded, n, base_dir, allow_outside, out_path, diag);
    sw__free(decoded);
    return r;
}

sw_result sw__side_path(const char* name, const char* base_dir, bool allow_outside, char** out_path,
                        sw_diag* diag) {
    *out_path = NULL;
    size_t length = strlen(name);
    if (length == 0) return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "empty file name");
    sw_diag inner;
    if (sw__check_uri_text(name, length, &inner) != SW_OK)
        return sw_diag_set(diag, inner.result, -1, "'%.120s' %s", name, inner.message);
    return sw__resolve_under(name, name, length, base_dir, allow_outside, out_path, diag);
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

const char* sw__path_base_name(const char* path) {
    const char* slash = strrchr(path, '/');
    /* "dir/" has no base name: name it whole, so a message names something */
    return slash && slash[1] ? slash + 1 : path;
}
