/* Helpers shared by the sinew subcommands (see tool_common.h). */

/* getpid, open, fdopen, fsync, mkdir, rmdir, stat: POSIX, not C11. */
#define _POSIX_C_SOURCE 200809L

#include "tool_common.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool tool_error_set(tool_error* err, const char* format, ...) {
    if (err) {
        va_list ap;
        va_start(ap, format);
        vsnprintf(err->message, sizeof err->message, format, ap);
        va_end(ap);
    }
    return false;
}

/* ---- arguments ------------------------------------------------------------ */

const char* tool_args_next(tool_args* args) {
    if (args->next >= args->count) return NULL;
    return args->items[args->next++];
}

bool tool_args_is_help(const char* arg) {
    return strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0;
}

bool tool_args_flag(const char* arg, const char* name) {
    return strcmp(arg, name) == 0;
}

bool tool_args_option(tool_args* args, const char* arg, const char* name) {
    size_t n = strlen(name);
    if (strncmp(arg, name, n) != 0) return false;
    if (arg[n] == '\0') {
        args->value = NULL;
        return true;
    }
    if (arg[n] == '=') {
        args->value = arg + n + 1;
        return true;
    }
    return false;
}

const char* tool_args_value(tool_args* args, const char* name, tool_error* err) {
    const char* value = args->value;
    args->value = NULL;
    if (!value) value = tool_args_next(args);
    if (!value || value[0] == '\0') {
        tool_error_set(err, "option %s needs a value", name);
        return NULL;
    }
    return value;
}

const char* tool_args_output(tool_args* args, const char* arg, const char* alias) {
    if (tool_args_option(args, arg, "-o")) return "-o";
    if (tool_args_option(args, arg, "--output")) return "--output";
    if (alias && tool_args_option(args, arg, alias)) return alias;
    return NULL;
}

int tool_print_help(const tool_args* args) {
    fputs(args->command->help, stdout);
    return TOOL_EXIT_OK;
}

int tool_usage(const tool_args* args, const char* format, ...) {
    va_list ap;
    va_start(ap, format);
    fprintf(stderr, "sinew %s: ", args->command->name);
    vfprintf(stderr, format, ap);
    fprintf(stderr, " (see sinew %s --help)\n", args->command->name);
    va_end(ap);
    return TOOL_EXIT_USAGE;
}

int tool_fail(const tool_args* args, const char* format, ...) {
    va_list ap;
    va_start(ap, format);
    fprintf(stderr, "sinew %s: ", args->command->name);
    vfprintf(stderr, format, ap);
    fputc('\n', stderr);
    va_end(ap);
    return TOOL_EXIT_FAILURE;
}

void tool_warn(const tool_args* args, const char* format, ...) {
    va_list ap;
    va_start(ap, format);
    fprintf(stderr, "sinew %s: warning: ", args->command->name);
    vfprintf(stderr, format, ap);
    fputc('\n', stderr);
    va_end(ap);
}

void tool_wrote(bool quiet, const char* format, ...) {
    if (quiet) return;
    va_list ap;
    va_start(ap, format);
    fputs("wrote ", stderr);
    vfprintf(stderr, format, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* ---- option values ---------------------------------------------------------- */

bool tool_parse_int(const char* option, const char* text, long min, long max, long* out, tool_error* err) {
    char* end = NULL;
    errno = 0;
    /* strtol would skip leading spaces and accept "+"; neither belongs in a count. */
    long v = (text[0] == '-' || (text[0] >= '0' && text[0] <= '9')) ? strtol(text, &end, 10) : 0;
    if (!end || end == text || *end != '\0' || errno == ERANGE || v < min || v > max) {
        *out = 0;
        return tool_error_set(err, "%s expects an integer from %ld to %ld, got '%s'", option, min, max, text);
    }
    *out = v;
    return true;
}

bool tool_parse_double(const char* option, const char* text, double min, double max, double* out,
                       tool_error* err) {
    char* end = NULL;
    errno = 0;
    double v = (text[0] != '\0' && text[0] != ' ' && text[0] != '\t') ? strtod(text, &end) : 0.0;
    if (!end || end == text || *end != '\0' || errno == ERANGE || !isfinite(v) || v < min || v > max) {
        *out = 0.0;
        return tool_error_set(err, "%s expects a number from %g to %g, got '%s'", option, min, max, text);
    }
    *out = v;
    return true;
}

static char ascii_lower(char c) {
    return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
}

bool tool_has_extension(const char* path, const char* ext) {
    size_t n = strlen(path), e = strlen(ext);
    if (n <= e) return false; /* ".svg" alone names no file */
    const char* tail = path + n - e;
    for (size_t i = 0; i < e; i++)
        if (ascii_lower(tail[i]) != ascii_lower(ext[i])) return false;
    return tail[-1] != '/';
}

/* ---- output folders --------------------------------------------------------------- */

static bool is_dir(const char* path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

bool tool_make_parent_dirs(const char* path, char** out_created, tool_error* err) {
    if (out_created) *out_created = NULL;
    const char* slash = strrchr(path, '/');
    size_t length = slash ? (size_t)(slash - path) : 0;
    while (length > 0 && path[length - 1] == '/') length--;
    if (length == 0) return true; /* the current folder, or "/" */
    char* dir = malloc(length + 1);
    if (!dir) return tool_error_set(err, "cannot write '%s': out of memory", path);
    memcpy(dir, path, length);
    dir[length] = '\0';
    if (is_dir(dir)) { /* the usual case: nothing to make */
        free(dir);
        return true;
    }
    /* The folders made, as "a\0a/b\0\0": at most one per component, each
       at most `length` bytes. */
    size_t components = 1;
    for (size_t i = 0; i < length; i++) components += dir[i] == '/';
    size_t capacity = components * (length + 1) + 1, used = 0;
    char* created = calloc(capacity, 1);
    if (!created) {
        free(dir);
        return tool_error_set(err, "cannot write '%s': out of memory", path);
    }
    bool ok = true;
    /* Component by component from the top: stat each prefix, make it when
       it is missing, leave alone any that exists. */
    for (size_t end = 1; end <= length && ok; end++) {
        if (end < length && (dir[end] != '/' || dir[end - 1] == '/')) continue;
        char saved = dir[end];
        dir[end] = '\0';
        struct stat st;
        int e = 0;
        if (stat(dir, &st) == 0) {
            if (!S_ISDIR(st.st_mode))
                ok = tool_error_set(err, "cannot write '%s': '%s' exists and is not a folder", path, dir);
        } else if ((e = errno) != ENOENT) {
            ok = tool_error_set(err, "cannot write '%s': '%s': %s", path, dir, strerror(e));
        } else if (mkdir(dir, 0777) == 0) { /* the kernel applies the umask */
            memcpy(created + used, dir, end + 1);
            used += end + 1;
        } else if (!((e = errno) == EEXIST && is_dir(dir))) { /* EEXIST: made by someone else meanwhile */
            ok = tool_error_set(err, "cannot write '%s': cannot create the folder '%s': %s", path, dir,
                                strerror(e));
        }
        dir[end] = saved;
    }
    free(dir);
    if (!ok || !out_created || used == 0) {
        if (!ok) tool_remove_created_dirs(created);
        else free(created);
        return ok;
    }
    *out_created = created;
    return true;
}

void tool_remove_created_dirs(char* created) {
    if (!created) return;
    /* The names are parents first: walk the list backwards, deepest first. */
    char* end = created;
    while (*end) end += strlen(end) + 1;
    while (end > created) {
        char* name = end - 1; /* the NUL ending the last name */
        while (name > created && name[-1] != '\0') name--;
        if (rmdir(name) != 0) break; /* not empty: something else is in it now */
        end = name;
    }
    free(created);
}

/* ---- atomic file output --------------------------------------------------------- */

bool tool_atomic_open(tool_atomic_file* out, const char* path, tool_error* err) {
    memset(out, 0, sizeof *out);
    char* created_dirs = NULL;
    if (!tool_make_parent_dirs(path, &created_dirs, err)) return false;
    size_t size = strlen(path) + 32;
    char* temp_path = malloc(size);
    if (!temp_path) {
        tool_remove_created_dirs(created_dirs);
        return tool_error_set(err, "cannot write '%s': out of memory", path);
    }
    snprintf(temp_path, size, "%s.tmp.%ld", path, (long)getpid());

    /* O_EXCL: never write through a link someone left under our name. A
       leftover from an earlier process with our pid is ours to replace. */
    int fd = open(temp_path, O_WRONLY | O_CREAT | O_EXCL, 0666);
    if (fd < 0 && errno == EEXIST && unlink(temp_path) == 0)
        fd = open(temp_path, O_WRONLY | O_CREAT | O_EXCL, 0666);
    if (fd < 0) {
        int e = errno;
        tool_error_set(err, "cannot write '%s': cannot create temporary file '%s': %s", path, temp_path,
                       strerror(e));
        free(temp_path);
        tool_remove_created_dirs(created_dirs);
        return false;
    }
    FILE* stream = fdopen(fd, "wb");
    if (!stream) {
        int e = errno;
        close(fd);
        unlink(temp_path);
        tool_error_set(err, "cannot write '%s': %s", path, strerror(e));
        free(temp_path);
        tool_remove_created_dirs(created_dirs);
        return false;
    }
    out->path = path;
    out->temp_path = temp_path;
    out->stream = stream;
    out->created_dirs = created_dirs;
    return true;
}

bool tool_atomic_write(tool_atomic_file* file, const void* data, size_t size) {
    if (file->write_errno) return false;
    if (size && fwrite(data, 1, size, file->stream) != size) {
        file->write_errno = errno ? errno : EIO;
        return false;
    }
    return true;
}

static void atomic_release(tool_atomic_file* file) {
    free(file->temp_path);
    free(file->created_dirs); /* committed: the folders stay */
    memset(file, 0, sizeof *file);
}

void tool_atomic_abort(tool_atomic_file* file) {
    if (file->stream) fclose(file->stream);
    if (file->temp_path) unlink(file->temp_path);
    tool_remove_created_dirs(file->created_dirs);
    file->created_dirs = NULL;
    atomic_release(file);
}

bool tool_atomic_commit(tool_atomic_file* file, tool_error* err) {
    int e = file->write_errno;
    errno = 0;
    if (!e && fflush(file->stream) != 0) e = errno ? errno : EIO;
    /* Sync before the rename so a crash cannot leave the new name on empty data. */
    if (!e && fsync(fileno(file->stream)) != 0 && errno != EINVAL && errno != ENOTSUP) e = errno;
    if (fclose(file->stream) != 0 && !e) e = errno ? errno : EIO;
    file->stream = NULL;
    if (e) {
        tool_error_set(err, "cannot write '%s': %s", file->path, strerror(e));
        tool_atomic_abort(file);
        return false;
    }
    if (rename(file->temp_path, file->path) != 0) {
        e = errno;
        tool_error_set(err, "cannot write '%s': cannot rename '%s' over it: %s", file->path, file->temp_path,
                       strerror(e));
        tool_atomic_abort(file);
        return false;
    }
    atomic_release(file);
    return true;
}

bool tool_find_clip(const sw_model* a, const char* spec, long* out, tool_error* err) {
    if (!spec) {
        *out = a->animation_count ? 0 : -1;
        return true;
    }
    if (strcmp(spec, "none") == 0) {
        *out = -1;
        return true;
    }
    for (size_t i = 0; i < a->animation_count; ++i)
        if (a->animations[i].name && strcmp(a->animations[i].name, spec) == 0) {
            *out = (long)i;
            return true;
        }
    char* end;
    errno = 0;
    long index = strtol(spec, &end, 10);
    if (*spec && !*end && errno == 0 && index >= 0 && (size_t)index < a->animation_count) {
        *out = index;
        return true;
    }
    tool_error_set(err, "%s has no animation '%s' (it has %zu", a->path, spec, a->animation_count);
    size_t len = strlen(err->message);
    for (size_t i = 0; i < a->animation_count && i < 20 && len + 40 < sizeof err->message; ++i) {
        snprintf(err->message + len, sizeof err->message - len, "%s%zu \"%s\"", i ? ", " : ": ", i,
                 a->animations[i].name ? a->animations[i].name : "");
        len = strlen(err->message);
    }
    snprintf(err->message + len, sizeof err->message - len, ")");
    return false;
}

void* tool_pose_alloc(const sw_model* model, sw_pose* pose) {
    sw_pose_sizes sizes = sw_pose_sizes_of(model);
    size_t bytes = sw_pose_memory_size(&sizes); /* a multiple of 16, as aligned_alloc wants */
    void* memory = aligned_alloc(16, bytes);
    if (memory) sw_pose_bind(pose, &sizes, memory);
    return memory;
}

/* The reason in an sw_model_decode_image message, without the
   "images[I]: " or "images[I].uri: " (and "'URI': ") the warning's own
   prefix already says. */
static const char* image_reason(const char* message, size_t index, const char* uri) {
    char prefix[64];
    const char* suffixes[] = {"]: ", "].uri: "};
    for (size_t k = 0; k < 2; k++) {
        snprintf(prefix, sizeof prefix, "images[%zu%s", index, suffixes[k]);
        size_t n = strlen(prefix);
        if (strncmp(message, prefix, n) != 0) continue;
        message += n;
        if (uri && message[0] == '\'') {
            size_t u = strlen(uri);
            /* the file reader quotes at most 96 characters of the URI */
            if (u > 96) u = 96;
            if (strncmp(message + 1, uri, u) == 0 && strncmp(message + 1 + u, "': ", 3) == 0) message += u + 4;
        }
        break;
    }
    return message;
}

size_t tool_warn_bad_images(const tool_args* args, const sw_model* model, bool only_textured, const char* suffix) {
    size_t failed = 0;
    for (size_t i = 0; i < model->image_count; i++) {
        bool used = !only_textured;
        for (size_t t = 0; t < model->texture_count && !used; t++) used = model->textures[t].image == (int32_t)i;
        if (!used) continue;
        uint8_t* pixels = NULL;
        int width = 0, height = 0;
        sw_diag diag = {0};
        if (sw_model_decode_image(model, i, &pixels, &width, &height, &diag) == SW_OK) {
            sw_model_image_free(pixels);
            continue;
        }
        failed++;
        const sw_model_image* image = &model->images[i];
        char where[160];
        if (image->uri && strncmp(image->uri, "data:", 5) == 0) {
            /* a data: URI is the image itself: its head names the type */
            const char* comma = strchr(image->uri, ',');
            int head = comma ? (int)(comma - image->uri) : (int)strlen(image->uri);
            snprintf(where, sizeof where, "uri \"%.*s,...\"", head > 64 ? 64 : head, image->uri);
        } else if (image->uri) {
            snprintf(where, sizeof where, "uri \"%.120s\"", image->uri);
        } else {
            snprintf(where, sizeof where, "embedded%s%.64s", image->mime_type ? ", " : "",
                     image->mime_type ? image->mime_type : "");
        }
        tool_warn(args, "%s: images[%zu] (%s): %s%s", model->path, i, where,
                  image_reason(diag.message, i, image->uri), suffix ? suffix : "");
    }
    return failed;
}
