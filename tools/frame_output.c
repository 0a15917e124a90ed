/* Rendered frames to PNG files or through ffmpeg (see frame_output.h). */

/* posix_spawnp, pipe, fcntl, waitpid, waitid, kill, pthread_sigmask,
   sigtimedwait, clock_gettime, isatty, fileno, fstat, pread, strsignal:
   POSIX, not C11. */
#define _POSIX_C_SOURCE 200809L

#include "frame_output.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* A private, static copy of stb_image_write: Debian's libstb (which the
   library links for stb_image) exports the same names, and its tuning
   knobs (stbi_write_png_compression_level…) are process-wide variables.
   Static, they are this file's alone and keep their defaults. (Only the
   callback writer is used; STBI_WRITE_NO_STDIO would leave a static
   declaration without a body, which -Werror refuses.) */
#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>

extern char** environ; /* for posix_spawnp: ffmpeg gets our environment (PATH, locale) */

struct frame_output {
    frame_output_kind kind;
    int width, height, frame_count;
    int written; /* frames accepted so far */
    double fps;
    size_t frame_size; /* bytes of one RGBA frame */
    bool failed;       /* a write failed: nothing more is accepted */
    char* path;        /* the target as given (the pattern for a sequence) */
    char* created_dirs; /* folders above the output this run made (removed by an abort), or NULL */

    /* Sequence: the name of the frame being written, and its number width. */
    char* frame_path;
    size_t frame_path_size;
    int digits;

    /* The pending output: a PNG being written, or the temporary that ffmpeg
       fills. Zeroed when none is open. */
    tool_atomic_file file;

    /* ffmpeg: its pid (0 once reaped), the write end of its stdin (-1 once
       closed) and the anonymous file its stderr goes to. */
    pid_t ffmpeg;
    int pipe_fd;
    FILE* ffmpeg_log;

    /* Entries in the signal cleanup table (tool_common.h): ffmpeg, and the
       frames of a sequence already renamed into place; -1 when none. */
    int ffmpeg_cleanup;
    int sequence_cleanup;
};

/* ---- names ------------------------------------------------------------------ */

/* Checks a name holding '%' as a frame pattern (see frame_output.h); on
   success `*digits` is the zero-padded width of the number (0 for %d). */
static bool pattern_check(const char* path, int* digits, tool_error* err) {
    const char* slash = strrchr(path, '/');
    const char* name = slash ? slash + 1 : path;
    int conversions = 0;
    for (const char* c = path; *c; c++) {
        if (*c != '%') continue;
        if (c[1] == '%') {
            c++;
            continue;
        }
        const char* d = c + 1;
        int width = 0;
        if (*d == '0' && d[1] >= '1' && d[1] <= '9') {
            width = d[1] - '0';
            d += 2;
            if (*d >= '0' && *d <= '9') width = width * 10 + (*d++ - '0');
        }
        if (*d != 'd')
            return tool_error_set(err,
                                  "output '%s': bad frame pattern: a '%%' must start %%d or %%0Nd (N from 1 to 99, "
                                  "as in %%04d), or be doubled (%%%%) to stand for itself",
                                  path);
        if (c < name)
            return tool_error_set(err, "output '%s': the frame number must be in the file name, not in a directory",
                                  path);
        conversions++;
        *digits = width;
        c = d;
    }
    if (conversions != 1)
        return tool_error_set(err, "output '%s': a frame pattern takes exactly one %%d or %%0Nd (as in %%04d), found %d",
                              path, conversions);
    if (!tool_has_extension(path, ".png"))
        return tool_error_set(err, "output '%s': a frame pattern writes PNG files, so its name must end in .png", path);
    return true;
}

/* The name of frame `number` of the checked pattern: "%%" becomes '%' and
   the conversion the number. Built by hand, so the user's text is never a
   printf format. `size` ≥ strlen(pattern) + digits + 12. */
static void pattern_name(char* out, size_t size, const char* pattern, int digits, int number) {
    size_t n = 0;
    for (const char* c = pattern; *c; c++) {
        if (*c != '%') {
            out[n++] = *c;
        } else if (c[1] == '%') {
            out[n++] = '%';
            c++;
        } else {
            n += (size_t)snprintf(out + n, size - n, "%0*d", digits, number);
            c = strchr(c, 'd');
        }
    }
    out[n] = '\0';
}

bool frame_output_frame_path(const char* pattern, int number, char* out, size_t size) {
    int digits = 0;
    if (number < 0 || !strchr(pattern, '%') || !pattern_check(pattern, &digits, NULL)) return false;
    if (size < strlen(pattern) + (size_t)digits + 12) return false;
    pattern_name(out, size, pattern, digits, number);
    return true;
}

bool frame_output_kind_of(const char* path, frame_output_kind* out, tool_error* err) {
    *out = FRAME_OUTPUT_PNG;
    if (strchr(path, '%')) {
        int digits = 0;
        if (!pattern_check(path, &digits, err)) return false;
        *out = FRAME_OUTPUT_SEQUENCE;
    } else if (tool_has_extension(path, ".png")) {
        *out = FRAME_OUTPUT_PNG;
    } else if (tool_has_extension(path, ".mp4")) {
        *out = FRAME_OUTPUT_MP4;
    } else if (tool_has_extension(path, ".gif")) {
        *out = FRAME_OUTPUT_GIF;
    } else if (tool_is_folder(path)) {
        size_t n = strlen(path);
        const char* sep = n && path[n - 1] == '/' ? "" : "/";
        return tool_error_set(err,
                              "output '%s' is a folder; name a file in it: %s%srender.png (one frame), .mp4, .gif, "
                              "or %s%s%%04d.png (PNG frames)",
                              path, path, sep, path, sep);
    } else {
        return tool_error_set(err,
                              "output '%s': unknown kind of file; name it .png (one frame), .mp4, .gif, or a "
                              "PNG frame pattern such as frames/%%04d.png",
                              path);
    }
    return true;
}

static bool is_video(frame_output_kind kind) {
    return kind == FRAME_OUTPUT_MP4 || kind == FRAME_OUTPUT_GIF;
}

/* The literal text before and after the frame number of a checked
   pattern, "%%" made '%' ("a%%/f_%03d.png" → "a%/f_", ".png"). Each of
   `prefix` and `suffix` has room for strlen(pattern) + 1 bytes. */
static void pattern_parts(const char* pattern, char* prefix, char* suffix) {
    char* out = prefix;
    for (const char* c = pattern; *c; c++) {
        if (*c != '%') {
            *out++ = *c;
        } else if (c[1] == '%') {
            *out++ = '%';
            c++;
        } else {
            *out = '\0';
            out = suffix;
            c = strchr(c, 'd');
        }
    }
    *out = '\0';
}

bool frame_output_check(const char* path, int frame_count, const tool_inputs* inputs, tool_error* err) {
    frame_output_kind kind;
    if (!frame_output_kind_of(path, &kind, err)) return false;
    if (kind != FRAME_OUTPUT_SEQUENCE) return tool_output_check(path, inputs, err);
    int digits = 0;
    pattern_check(path, &digits, NULL);
    size_t size = strlen(path) + (size_t)digits + 16;
    char* name = malloc(size);
    if (!name) return tool_error_set(err, "cannot write '%s': out of memory", path);
    bool ok = true;
    for (int i = 0; i < frame_count && ok; i++) {
        pattern_name(name, size, path, digits, i);
        ok = tool_output_check(name, inputs, err);
    }
    free(name);
    return ok;
}

/* ---- what ffmpeg wrote ------------------------------------------------------------ */

/* Reads exactly `size` bytes at `offset`; false (errno set, or 0 at the
   end of the file) otherwise. */
static bool read_at(int fd, void* out, size_t size, uint64_t offset) {
    uint8_t* p = out;
    while (size > 0) {
        ssize_t n = pread(fd, p, size, (off_t)offset);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            if (n == 0) errno = 0;
            return false;
        }
        p += n;
        size -= (size_t)n;
        offset += (uint64_t)n;
    }
    return true;
}

static uint64_t big_endian(const uint8_t* p, int bytes) {
    uint64_t v = 0;
    for (int i = 0; i < bytes; i++) v = v << 8 | p[i];
    return v;
}

static bool read_failed(tool_error* err) {
    return tool_error_set(err, "the file cannot be read back: %s",
                          errno ? strerror(errno) : "it is shorter than it was");
}

/* The top-level boxes of an ISO base media file (ISO/IEC 14496-12 §4.2):
   each starts with a 32-bit big-endian size (header included) and a
   4-character type; size 1 means a 64-bit size follows the type, size 0
   that the box runs to the end of the file. They must tile the file
   exactly, the first must be 'ftyp', one must be 'mdat' (the frames) and
   one 'moov' (the index without which no player can read them; ffmpeg
   writes it last, or moves it to the front at the very end with
   +faststart). So no prefix of a good file passes. */
static bool verify_mp4(int fd, uint64_t size, tool_error* err) {
    uint64_t offset = 0;
    size_t boxes = 0;
    bool moov = false, mdat = false;
    while (offset < size) {
        uint8_t header[16];
        uint64_t left = size - offset, header_size = 8;
        if (left < 8)
            return tool_error_set(err,
                                  "the MP4 is truncated: %llu bytes at byte %llu are too few for a box header",
                                  (unsigned long long)left, (unsigned long long)offset);
        if (!read_at(fd, header, 8, offset)) return read_failed(err);
        char type[5];
        for (int i = 0; i < 4; i++) /* printable, for messages: a truncated file's "type" may be any bytes */
            type[i] = header[4 + i] >= 0x20 && header[4 + i] < 0x7f ? (char)header[4 + i] : '?';
        type[4] = '\0';
        uint64_t box = big_endian(header, 4);
        if (box == 1) {
            if (left < 16)
                return tool_error_set(err, "the MP4 is truncated: the box '%s' at byte %llu has no room for its size",
                                      type, (unsigned long long)offset);
            if (!read_at(fd, header + 8, 8, offset + 8)) return read_failed(err);
            box = big_endian(header + 8, 8);
            header_size = 16;
        } else if (box == 0) {
            box = left;
        }
        if (box < header_size)
            return tool_error_set(err, "the MP4 is damaged: the box '%s' at byte %llu has the impossible size %llu",
                                  type, (unsigned long long)offset, (unsigned long long)box);
        if (box > left)
            return tool_error_set(err,
                                  "the MP4 is truncated: the box '%s' at byte %llu should be %llu bytes long, but "
                                  "the file ends %llu bytes after its start",
                                  type, (unsigned long long)offset, (unsigned long long)box,
                                  (unsigned long long)left);
        if (boxes == 0 && memcmp(type, "ftyp", 4) != 0)
            return tool_error_set(err, "the file is not an MP4: it starts with a '%s' box, not 'ftyp'", type);
        if (memcmp(type, "moov", 4) == 0) moov = true;
        if (memcmp(type, "mdat", 4) == 0) mdat = true;
        boxes++;
        offset += box;
    }
    if (!moov)
        return tool_error_set(err,
                              "the MP4 has no 'moov' box among its %zu top-level boxes: it is incomplete (was the "
                              "disk full?)",
                              boxes);
    if (!mdat)
        return tool_error_set(err,
                              "the MP4 has no 'mdat' box (the frames) among its %zu top-level boxes: it is incomplete",
                              boxes);
    return true;
}

/* A GIF starts "GIF87a" or "GIF89a" and ends with the trailer byte 0x3B
   (GIF89a §27), which ffmpeg writes last. */
static bool verify_gif(int fd, uint64_t size, tool_error* err) {
    uint8_t head[6], last;
    if (size < 14) /* header, logical screen descriptor, trailer */
        return tool_error_set(err, "the GIF is truncated: %llu bytes", (unsigned long long)size);
    if (!read_at(fd, head, sizeof head, 0) || !read_at(fd, &last, 1, size - 1)) return read_failed(err);
    if (memcmp(head, "GIF87a", 6) != 0 && memcmp(head, "GIF89a", 6) != 0)
        return tool_error_set(err, "the file is not a GIF: it does not start with GIF87a or GIF89a");
    if (last != 0x3B)
        return tool_error_set(err,
                              "the GIF is truncated: it does not end with the trailer byte 0x3B (was the disk full?)");
    return true;
}

bool frame_output_verify(const char* path, frame_output_kind kind, tool_error* err) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return tool_error_set(err, "the file cannot be read back: %s", strerror(errno));
    struct stat st;
    bool ok;
    if (fstat(fd, &st) != 0) ok = read_failed(err);
    else if (st.st_size == 0) ok = tool_error_set(err, "wrote nothing (an empty file)");
    else if (kind == FRAME_OUTPUT_MP4) ok = verify_mp4(fd, (uint64_t)st.st_size, err);
    else if (kind == FRAME_OUTPUT_GIF) ok = verify_gif(fd, (uint64_t)st.st_size, err);
    else ok = true;
    close(fd);
    return ok;
}

/* ---- ffmpeg ------------------------------------------------------------------ */

/* `fd` moved to a number above stdin/stdout/stderr, close-on-exec: the
   child's dup2 onto 0 or 2 is then always a real copy, and no other child
   inherits it. Closes `fd`; -1 on failure. */
static int fd_above_stdio(int fd) {
    int moved = fcntl(fd, F_DUPFD_CLOEXEC, 3);
    int e = errno;
    close(fd);
    errno = e;
    return moved;
}

/* The last non-empty line ffmpeg wrote to its log, control characters
   blanked; "" when there is none. */
static void ffmpeg_last_line(FILE* log, char* out, size_t size) {
    out[0] = '\0';
    char text[2048];
    if (!log || fseek(log, 0, SEEK_END) != 0) return;
    long end = ftell(log);
    if (end <= 0 || fseek(log, end > (long)sizeof text ? end - (long)sizeof text : 0, SEEK_SET) != 0) return;
    size_t n = fread(text, 1, sizeof text - 1, log);
    while (n > 0 && (text[n - 1] == '\n' || text[n - 1] == '\r' || text[n - 1] == ' ')) n--;
    text[n] = '\0';
    char* line = strrchr(text, '\n');
    line = line ? line + 1 : text;
    for (char* c = line; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f) *c = ' ';
    size_t length = strlen(line); /* cut to fit (snprintf would draw a truncation warning at -O2) */
    if (length >= size) length = size - 1;
    memcpy(out, line, length);
    out[length] = '\0';
}

/* Closes ffmpeg's stdin (end of input) and waits for it. True when it
   exited with status 0; otherwise `how` says how it ended. */
static bool ffmpeg_wait(frame_output* o, char* how, size_t how_size) {
    if (o->pipe_fd >= 0) close(o->pipe_fd);
    o->pipe_fd = -1;
    /* Waits without reaping (a signal meanwhile still finds ffmpeg in the
       cleanup table, and kills it), then forgets and reaps it with the
       signals held, so that the table never holds a pid already reaped
       (and perhaps reused). */
    siginfo_t info;
    int w;
    do w = waitid(P_PID, (id_t)o->ffmpeg, &info, WEXITED | WNOWAIT);
    while (w < 0 && errno == EINTR);
    int status = 0;
    pid_t r;
    tool_cleanup_block(true);
    tool_cleanup_forget(o->ffmpeg_cleanup);
    o->ffmpeg_cleanup = -1;
    do r = waitpid(o->ffmpeg, &status, 0);
    while (r < 0 && errno == EINTR);
    tool_cleanup_block(false);
    o->ffmpeg = 0;
    if (r < 0) {
        snprintf(how, how_size, "cannot wait for it: %s", strerror(errno));
        return false;
    }
    if (WIFEXITED(status)) {
        snprintf(how, how_size, "exit status %d", WEXITSTATUS(status));
        return WEXITSTATUS(status) == 0;
    }
    if (WIFSIGNALED(status))
        snprintf(how, how_size, "killed by signal %d, %s", WTERMSIG(status), strsignal(WTERMSIG(status)));
    else snprintf(how, how_size, "wait status %d", status);
    return false;
}

/* Waits for ffmpeg and fills `err` with `what`, how it ended and its last
   line. Returns false. */
static bool ffmpeg_failed(frame_output* o, const char* what, tool_error* err) {
    char how[128], line[512];
    ffmpeg_wait(o, how, sizeof how);
    ffmpeg_last_line(o->ffmpeg_log, line, sizeof line);
    return tool_error_set(err, "cannot write '%s': %s (%s)%s%s", o->path, what, how, line[0] ? ": " : "", line);
}

/* Abandons a running ffmpeg: killed rather than drained, so an abort does
   not wait for the frames already sent to be encoded. */
static void ffmpeg_stop(frame_output* o) {
    if (o->pipe_fd >= 0) close(o->pipe_fd);
    o->pipe_fd = -1;
    if (o->ffmpeg > 0) {
        tool_cleanup_block(true);
        kill(o->ffmpeg, SIGKILL);
        pid_t r;
        do r = waitpid(o->ffmpeg, NULL, 0);
        while (r < 0 && errno == EINTR);
        tool_cleanup_forget(o->ffmpeg_cleanup);
        o->ffmpeg_cleanup = -1;
        tool_cleanup_block(false);
        o->ffmpeg = 0;
    }
}

/* At most this many arguments (and the NULL after them) for ffmpeg. */
#define FFMPEG_MAX_ARGS 48

/* ffmpeg's command line: raw RGBA frames of `size` ("WxH") at `rate` fps
   on its standard input, H.264 in MP4 or a GIF with one palette into
   `target`; NULL-terminated in args. */
static void ffmpeg_arguments(const frame_output* o, const char* size, const char* rate, const char* target,
                             const char* args[FFMPEG_MAX_ARGS]) {
    const bool mp4 = o->kind == FRAME_OUTPUT_MP4;
    int n = 0;
    const char* common[] = {"ffmpeg", "-hide_banner", "-nostdin", "-nostats", "-loglevel", "error", "-y",
                            "-f", "rawvideo", "-pix_fmt", "rgba", "-s", size, "-r", rate, "-i", "-"};
    for (size_t i = 0; i < sizeof common / sizeof common[0]; i++) args[n++] = common[i];
    if (mp4) {
        /* yuv420p halves the chroma resolution, so x264 needs even sizes:
           odd ones get one black column or row. The RGB→YUV matrix is set
           to BT.709 and tagged as such, or players (which assume 709)
           shift the colours of an untagged BT.601 conversion. */
        args[n++] = "-vf";
        args[n++] = (o->width % 2 || o->height % 2)
                        ? "pad=ceil(iw/2)*2:ceil(ih/2)*2,scale=out_color_matrix=bt709:out_range=tv,format=yuv420p"
                        : "scale=out_color_matrix=bt709:out_range=tv,format=yuv420p";
        const char* h264[] = {"-c:v", "libx264", "-pix_fmt", "yuv420p", "-crf", "18", "-preset", "medium",
                              "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709",
                              "-movflags", "+faststart", "-f", "mp4"};
        for (size_t i = 0; i < sizeof h264 / sizeof h264[0]; i++) args[n++] = h264[i];
    } else {
        /* One palette for the whole clip, computed from every frame in one
           pass (ffmpeg buffers the frames until the palette is known). */
        const char* gif[] = {"-filter_complex", "[0:v]split[a][b];[a]palettegen[p];[b][p]paletteuse",
                             "-loop", "0", "-f", "gif"};
        for (size_t i = 0; i < sizeof gif / sizeof gif[0]; i++) args[n++] = gif[i];
    }
    args[n++] = target;
    args[n] = NULL;
    assert(n < FFMPEG_MAX_ARGS);
}

/* Starts ffmpeg reading raw RGBA frames on its stdin and writing the
   video to the temporary file already open in o->file. */
static bool ffmpeg_start(frame_output* o, tool_error* err) {
    const bool mp4 = o->kind == FRAME_OUTPUT_MP4;
    const char* ext = mp4 ? ".mp4" : ".gif";
    char size[32], rate[32];
    snprintf(size, sizeof size, "%dx%d", o->width, o->height);
    snprintf(rate, sizeof rate, "%.10g", o->fps);
    /* "file:" so that a name with ':' is not read as a protocol, nor one
       starting with '-' as an option; -f because the temporary's name does
       not end in the container's extension. */
    size_t target_size = strlen(o->file.temp_path) + 6;
    char* target = malloc(target_size);
    if (!target) return tool_error_set(err, "cannot write '%s': out of memory", o->path);
    snprintf(target, target_size, "file:%s", o->file.temp_path);

    const char* args[FFMPEG_MAX_ARGS];
    ffmpeg_arguments(o, size, rate, target, args);

    int fds[2] = {-1, -1}, log_fd = -1, e = 0;
    bool ok = false;
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attr;
    bool have_actions = false, have_attr = false;

    /* ffmpeg's stderr goes to an anonymous file, not a pipe: nobody has to
       drain it while we block writing frames, and it vanishes by itself. */
    o->ffmpeg_log = tmpfile();
    if (!o->ffmpeg_log) {
        e = errno;
        tool_error_set(err, "cannot write '%s': cannot create a file for ffmpeg's messages: %s", o->path, strerror(e));
        goto done;
    }
    fcntl(fileno(o->ffmpeg_log), F_SETFD, FD_CLOEXEC);
    if ((log_fd = fcntl(fileno(o->ffmpeg_log), F_DUPFD_CLOEXEC, 3)) < 0 || pipe(fds) != 0 ||
        (fds[0] = fd_above_stdio(fds[0])) < 0 || (fds[1] = fd_above_stdio(fds[1])) < 0) {
        e = errno;
        tool_error_set(err, "cannot write '%s': cannot make a pipe to ffmpeg: %s", o->path, strerror(e));
        goto done;
    }
    if ((e = posix_spawn_file_actions_init(&actions)) != 0) goto spawn_error;
    have_actions = true;
    if ((e = posix_spawn_file_actions_adddup2(&actions, fds[0], 0)) != 0 ||
        (e = posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)) != 0 ||
        (e = posix_spawn_file_actions_adddup2(&actions, log_fd, 2)) != 0)
        goto spawn_error;
    if ((e = posix_spawnattr_init(&attr)) != 0) goto spawn_error;
    have_attr = true;
    /* Its own process group: a Ctrl-C reaches only us, and we decide
       (frame_output_abort kills it). Default SIGPIPE and an empty mask,
       whatever the caller set for itself. */
    sigset_t none, pipe_only;
    sigemptyset(&none);
    sigemptyset(&pipe_only);
    sigaddset(&pipe_only, SIGPIPE);
    if ((e = posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |
                                                 POSIX_SPAWN_SETSIGDEF)) != 0 ||
        (e = posix_spawnattr_setpgroup(&attr, 0)) != 0 || (e = posix_spawnattr_setsigmask(&attr, &none)) != 0 ||
        (e = posix_spawnattr_setsigdefault(&attr, &pipe_only)) != 0)
        goto spawn_error;
    /* Started and recorded in one step: a signal in between would leave
       ffmpeg running. (Its own mask is set empty above.) */
    tool_cleanup_block(true);
    e = posix_spawnp(&o->ffmpeg, "ffmpeg", &actions, &attr, (char* const*)args, environ);
    if (e == 0) o->ffmpeg_cleanup = tool_cleanup_add_child((long)o->ffmpeg);
    tool_cleanup_block(false);
    if (e == ENOENT) {
        o->ffmpeg = 0;
        tool_error_set(err,
                       "cannot write '%s': writing %s needs ffmpeg (Debian package ffmpeg), which is not on PATH; "
                       "install it or write PNG frames with -o dir/%%04d.png",
                       o->path, ext);
        goto done;
    }
    if (e != 0) {
        o->ffmpeg = 0;
        goto spawn_error;
    }
    o->pipe_fd = fds[1];
    fds[1] = -1;
    ok = true;
    goto done;

spawn_error:
    tool_error_set(err, "cannot write '%s': cannot start ffmpeg: %s", o->path, strerror(e));
done:
    if (have_actions) posix_spawn_file_actions_destroy(&actions);
    if (have_attr) posix_spawnattr_destroy(&attr);
    if (fds[0] >= 0) close(fds[0]);
    if (fds[1] >= 0) close(fds[1]);
    if (log_fd >= 0) close(log_fd);
    free(target);
    return ok;
}

/* Pipes one frame to ffmpeg. SIGPIPE is blocked in this thread only (a
   write to a pipe raises it in the writing thread), so the process-wide
   disposition stays the caller's; a SIGPIPE our own write raised is taken
   off the pending set before the mask is restored. */
static bool ffmpeg_write(frame_output* o, const uint8_t* rgba, tool_error* err) {
    sigset_t pipe_only, old_mask, pending;
    sigemptyset(&pipe_only);
    sigaddset(&pipe_only, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_only, &old_mask);
    bool was_pending = sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE) == 1;

    const uint8_t* p = rgba;
    size_t left = o->frame_size;
    int e = 0;
    while (left > 0) {
        ssize_t n = write(o->pipe_fd, p, left);
        if (n < 0) {
            if (errno == EINTR) continue;
            e = errno;
            break;
        }
        p += n;
        left -= (size_t)n;
    }
    if (e == EPIPE && !was_pending) {
        struct timespec zero = {0, 0};
        while (sigtimedwait(&pipe_only, NULL, &zero) < 0 && errno == EINTR) {
        }
    }
    pthread_sigmask(SIG_SETMASK, &old_mask, NULL);

    if (e == EPIPE) return ffmpeg_failed(o, "ffmpeg stopped reading frames", err);
    if (e != 0) {
        char what[160];
        snprintf(what, sizeof what, "cannot send a frame to ffmpeg: %s", strerror(e));
        return ffmpeg_failed(o, what, err);
    }
    return true;
}

/* All frames are sent: lets ffmpeg finish, then commits its file. */
static bool ffmpeg_finish(frame_output* o, tool_error* err) {
    char how[128];
    if (!ffmpeg_wait(o, how, sizeof how)) {
        char line[512];
        ffmpeg_last_line(o->ffmpeg_log, line, sizeof line);
        tool_atomic_abort(&o->file);
        return tool_error_set(err, "cannot write '%s': ffmpeg failed (%s)%s%s", o->path, how, line[0] ? ": " : "",
                              line);
    }
    /* ffmpeg's exit status is not enough: 5.1 exits 0 when the disk fills
       up while it writes the trailer. The file must be whole. */
    tool_error why;
    if (!frame_output_verify(o->file.temp_path, o->kind, &why)) {
        char line[512];
        ffmpeg_last_line(o->ffmpeg_log, line, sizeof line);
        tool_atomic_abort(&o->file);
        return tool_error_set(err, "cannot write '%s': ffmpeg exited with status 0 but %s%s%s", o->path, why.message,
                              line[0] ? "; ffmpeg said: " : "", line);
    }
    /* ffmpeg wrote through its own descriptor to the very file (same inode:
       -y truncates, it does not replace) that o->file holds open, so the
       commit's fsync makes ffmpeg's data durable before the rename. */
    return tool_atomic_commit(&o->file, err);
}

/* ---- PNG -------------------------------------------------------------------------- */

static void png_sink(void* context, void* data, int size) {
    tool_atomic_write(context, data, (size_t)size); /* a failure is kept in write_errno for the commit */
}

/* Encodes a frame into the open o->file (not committed). */
static bool png_encode(frame_output* o, const uint8_t* rgba, tool_error* err) {
    if (!stbi_write_png_to_func(png_sink, &o->file, o->width, o->height, 4, rgba, o->width * 4)) {
        tool_error_set(err, "cannot write '%s': PNG encoding failed (out of memory)", o->file.path);
        tool_atomic_abort(&o->file);
        return false;
    }
    return true;
}

/* ---- the output -------------------------------------------------------------------- */

static void output_free(frame_output* o) {
    tool_cleanup_forget(o->sequence_cleanup);
    tool_keep_created_dirs(o->created_dirs); /* finished: the folders stay */
    if (o->ffmpeg_log) fclose(o->ffmpeg_log);
    free(o->frame_path);
    free(o->path);
    free(o);
}

bool frame_output_open(frame_output** out, const char* path, int width, int height, double fps, int frame_count,
                       tool_error* err) {
    *out = NULL;
    frame_output_kind kind;
    if (!frame_output_kind_of(path, &kind, err)) return false;
    if (width < 1 || height < 1 || width > FRAME_OUTPUT_MAX_SIZE || height > FRAME_OUTPUT_MAX_SIZE)
        return tool_error_set(err, "cannot write '%s': frame size %dx%d is outside 1..%d", path, width, height,
                              FRAME_OUTPUT_MAX_SIZE);
    if (frame_count < 1) return tool_error_set(err, "cannot write '%s': no frames to write", path);
    if (kind == FRAME_OUTPUT_PNG && frame_count > 1)
        return tool_error_set(err,
                              "cannot write '%s': a .png holds one frame, not %d; use .mp4, .gif or a frame "
                              "pattern such as frames/%%04d.png",
                              path, frame_count);
    if (is_video(kind) && !(fps >= FRAME_OUTPUT_MIN_FPS && fps <= FRAME_OUTPUT_MAX_FPS))
        return tool_error_set(err, "cannot write '%s': frame rate %g is outside %g..%g", path, fps,
                              FRAME_OUTPUT_MIN_FPS, FRAME_OUTPUT_MAX_FPS);

    /* Every file it will write, before anything is: a device, a FIFO or a
       folder under the name is refused here. */
    if (!frame_output_check(path, frame_count, NULL, err)) return false;

    frame_output* o = calloc(1, sizeof *o);
    if (!o) return tool_error_set(err, "cannot write '%s': out of memory", path);
    o->ffmpeg_cleanup = -1;
    o->sequence_cleanup = -1;
    o->kind = kind;
    o->width = width;
    o->height = height;
    o->frame_count = frame_count;
    o->fps = fps;
    o->frame_size = (size_t)width * (size_t)height * 4;
    o->pipe_fd = -1;
    o->path = malloc(strlen(path) + 1);
    if (!o->path) {
        output_free(o);
        return tool_error_set(err, "cannot write '%s': out of memory", path);
    }
    strcpy(o->path, path);

    /* The first output's temporary is created now, so that a directory
       that is missing or read-only fails before anything is rendered. */
    bool ok;
    if (kind == FRAME_OUTPUT_SEQUENCE) {
        pattern_check(path, &o->digits, NULL);
        o->frame_path_size = strlen(path) + (size_t)o->digits + 16;
        o->frame_path = malloc(o->frame_path_size);
        if (!o->frame_path) {
            output_free(o);
            return tool_error_set(err, "cannot write '%s': out of memory", path);
        }
        /* The frames renamed into place are recorded for a signal to remove
           (the count grows with each, frame_output_write). */
        char* parts = malloc(2 * (strlen(path) + 1));
        if (!parts) {
            output_free(o);
            return tool_error_set(err, "cannot write '%s': out of memory", path);
        }
        pattern_parts(path, parts, parts + strlen(path) + 1);
        o->sequence_cleanup = tool_cleanup_add_sequence(parts, parts + strlen(path) + 1, o->digits);
        free(parts);
        pattern_name(o->frame_path, o->frame_path_size, o->path, o->digits, 0);
        ok = tool_atomic_open(&o->file, o->frame_path, err);
    } else {
        ok = tool_atomic_open(&o->file, o->path, err);
    }
    if (ok) {
        /* The folders are the output's, not one file's: they stay until the
           whole output is aborted (a sequence commits its frames one by one). */
        o->created_dirs = o->file.created_dirs;
        o->file.created_dirs = NULL;
    }
    if (ok && is_video(kind)) {
        fcntl(fileno(o->file.stream), F_SETFD, FD_CLOEXEC); /* ffmpeg opens the file by name */
        ok = ffmpeg_start(o, err);
    }
    if (!ok) {
        frame_output_abort(o);
        return false;
    }
    *out = o;
    return true;
}

bool frame_output_write(frame_output* o, const uint8_t* rgba, tool_error* err) {
    assert(o && rgba);
    if (o->failed) return tool_error_set(err, "cannot write '%s': an earlier frame failed", o->path);
    if (o->written >= o->frame_count)
        return tool_error_set(err, "cannot write '%s': all %d frames are already written", o->path, o->frame_count);
    bool ok;
    switch (o->kind) {
    case FRAME_OUTPUT_PNG: /* committed by frame_output_finish */
        ok = png_encode(o, rgba, err);
        break;
    case FRAME_OUTPUT_SEQUENCE:
        /* Each frame is committed as soon as it is complete (a long render
           can be watched, or resumed by hand, frame by frame); an abort
           removes them all again (frame_output_abort). */
        tool_cleanup_set_count(o->sequence_cleanup, o->written + 1); /* before its rename */
        ok = png_encode(o, rgba, err) && tool_atomic_commit(&o->file, err);
        break;
    default:
        ok = ffmpeg_write(o, rgba, err);
        break;
    }
    if (!ok) {
        o->failed = true;
        return false;
    }
    o->written++;
    if (o->kind == FRAME_OUTPUT_SEQUENCE && o->written < o->frame_count) {
        pattern_name(o->frame_path, o->frame_path_size, o->path, o->digits, o->written);
        if (!tool_atomic_open(&o->file, o->frame_path, err)) {
            o->failed = true;
            return false;
        }
    }
    return true;
}

bool frame_output_finish(frame_output* o, tool_error* err) {
    bool ok;
    if (o->failed) ok = tool_error_set(err, "cannot write '%s': an earlier frame failed", o->path);
    else if (o->written != o->frame_count)
        ok = tool_error_set(err, "cannot write '%s': only %d of %d frames were written", o->path, o->written,
                            o->frame_count);
    else if (o->kind == FRAME_OUTPUT_PNG) ok = tool_atomic_commit(&o->file, err);
    else if (o->kind == FRAME_OUTPUT_SEQUENCE) ok = true; /* every frame is in place */
    else ok = ffmpeg_finish(o, err);
    if (!ok) {
        frame_output_abort(o);
        return false;
    }
    output_free(o);
    return true;
}

void frame_output_abort(frame_output* o) {
    if (!o) return;
    ffmpeg_stop(o);
    tool_atomic_abort(&o->file);
    /* The frames of a sequence this run renamed into place. A frame that
       replaced one from an earlier run cannot be given back; removing it
       still leaves no mix of old and new frames that looks like a render. */
    if (o->kind == FRAME_OUTPUT_SEQUENCE)
        for (int i = 0; i < o->written; i++) {
            pattern_name(o->frame_path, o->frame_path_size, o->path, o->digits, i);
            unlink(o->frame_path);
        }
    tool_remove_created_dirs(o->created_dirs);
    o->created_dirs = NULL;
    output_free(o);
}

/* ---- progress bar ------------------------------------------------------------------ */

/* m:ss or h:mm:ss, rounded to the second; "--:--" for what cannot be a time
   or is 100 hours or more. */
static void format_duration(char* out, size_t size, double seconds) {
    if (!isfinite(seconds) || seconds < 0.0 || seconds >= 360000.0) {
        snprintf(out, size, "--:--");
        return;
    }
    long t = lround(seconds);
    if (t >= 3600) snprintf(out, size, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
    else snprintf(out, size, "%ld:%02ld", t / 60, t % 60);
}

size_t frame_progress_format(char* out, size_t size, int done, int total, double elapsed_s) {
    enum { BAR = 24 };
    if (total < 1) total = 1;
    if (done < 0) done = 0;
    if (done > total) done = total;
    char bar[BAR + 1];
    int filled = (int)((long long)done * BAR / total);
    for (int i = 0; i < BAR; i++) bar[i] = i < filled ? '#' : '-';
    bar[BAR] = '\0';

    double fps = (done > 0 && elapsed_s > 0.0) ? done / elapsed_s : 0.0;
    char rate[32], when[48], clock_text[24];
    if (fps > 0.0) snprintf(rate, sizeof rate, "%.1f", fps);
    else snprintf(rate, sizeof rate, "--");
    if (done == total) {
        format_duration(clock_text, sizeof clock_text, elapsed_s);
        snprintf(when, sizeof when, "done in %s", clock_text);
    } else {
        format_duration(clock_text, sizeof clock_text, fps > 0.0 ? (total - done) / fps : NAN);
        snprintf(when, sizeof when, "ETA %s", clock_text);
    }
    int digits = snprintf(NULL, 0, "%d", total);
    int n = snprintf(out, size, "[%s] %*d/%d frames  %s fps  %s", bar, digits, done, total, rate, when);
    return n < 0 ? 0 : (size_t)n;
}

static double monotonic_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

size_t frame_progress_format_line(char* out, size_t size, int done, int total, double elapsed_s) {
    if (total < 1) total = 1;
    if (done < 0) done = 0;
    if (done > total) done = total;
    int percent = (int)((long long)done * 100 / total);
    char elapsed[24], left[24];
    format_duration(elapsed, sizeof elapsed, elapsed_s);
    int n;
    if (done == total) {
        n = snprintf(out, size, "frame %d/%d (100%%)  done in %s", done, total, elapsed);
    } else {
        format_duration(left, sizeof left, done > 0 && elapsed_s > 0.0 ? (total - done) * elapsed_s / done : NAN);
        n = snprintf(out, size, "frame %d/%d (%d%%)  %s elapsed  about %s left", done, total, percent, elapsed, left);
    }
    return n < 0 ? 0 : (size_t)n;
}

bool frame_progress_mode_parse(const char* text, frame_progress_mode* mode) {
    static const struct {
        const char* name;
        frame_progress_mode mode;
    } modes[] = {{"auto", FRAME_PROGRESS_AUTO}, {"bar", FRAME_PROGRESS_BAR}, {"lines", FRAME_PROGRESS_LINES},
                 {"none", FRAME_PROGRESS_NONE}};
    for (size_t i = 0; text && i < sizeof modes / sizeof modes[0]; i++)
        if (strcmp(text, modes[i].name) == 0) {
            *mode = modes[i].mode;
            return true;
        }
    return false;
}

static void progress_draw(frame_progress* p, int done, double now_s) {
    char line[160];
    size_t n = frame_progress_format(line, sizeof line, done, p->total, now_s - p->start_s);
    if (n >= sizeof line) n = sizeof line - 1;
    /* '\r' returns to the start of the line; spaces cover the end of a
       longer previous line. */
    fprintf(p->stream, "\r%s%*s", line, n < p->last_length ? (int)(p->last_length - n) : 0, "");
    fflush(p->stream);
    p->last_length = n;
    p->last_draw_s = now_s;
}

void frame_progress_begin(frame_progress* p, FILE* stream, int total, frame_progress_mode mode) {
    memset(p, 0, sizeof *p);
    if (mode == FRAME_PROGRESS_NONE || total <= 1 || !stream) return;
    if (mode == FRAME_PROGRESS_AUTO) mode = isatty(fileno(stream)) ? FRAME_PROGRESS_BAR : FRAME_PROGRESS_LINES;
    p->stream = stream;
    p->lines = mode == FRAME_PROGRESS_LINES;
    p->total = total;
    p->start_s = monotonic_s();
    if (!p->lines) progress_draw(p, 0, p->start_s);
}

void frame_progress_update(frame_progress* p, int done) {
    if (!p->stream) return;
    double now = monotonic_s();
    if (p->lines) {
        /* 20 steps of 5 %: step k is reached at done ≥ k · total / 20. */
        int step = done >= p->total ? 20 : (int)((long long)(done < 0 ? 0 : done) * 20 / p->total);
        if (step <= p->last_step) return;
        p->last_step = step;
        char line[160];
        frame_progress_format_line(line, sizeof line, done, p->total, now - p->start_s);
        fprintf(p->stream, "%s\n", line);
        fflush(p->stream);
        return;
    }
    if (done < p->total && now - p->last_draw_s < 0.1) return;
    progress_draw(p, done, now);
}

void frame_progress_end(frame_progress* p) {
    if (!p->stream) return;
    if (!p->lines) fputc('\n', p->stream);
    fflush(p->stream);
    p->stream = NULL;
}
