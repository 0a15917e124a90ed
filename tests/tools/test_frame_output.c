/* Where `sinew render` writes its frames (tools/frame_output.c): PNGs read
   back with stb_image pixel for pixel, numbered sequences, the name rules,
   the progress line against hand-computed numbers, and nothing left on disk
   after a failure or an abort. With ffmpeg installed, MP4 and GIF files are
   checked with ffprobe (codec, size, frame count) and decoded back to
   colours; fake `ffmpeg` scripts on PATH make it fail on purpose. Hostile
   targets (a FIFO, a folder, a socket, a device node of the test's own, a
   link to one) are refused before anything is written; the MP4 box reader
   and the GIF check reject hand-made broken files and every prefix of real
   ones; a signal in a child with the cleanup handler leaves nothing. */

/* mkdtemp, posix_spawnp, setenv, posix_openpt, ptsname, mknod, mkfifo,
   symlink, truncate, fork: POSIX/XSI, not C11. */
#define _XOPEN_SOURCE 700

#include "harness.h"

#include "frame_output.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <stb/stb_image.h>

extern char** environ;

/* ---- helpers ------------------------------------------------------------- */

/* A fresh directory whose name has a space, so every path below does too. */
static void make_temp_dir(char* out, size_t size) {
    const char* base = getenv("TMPDIR");
    snprintf(out, size, "%s/sinew frame output XXXXXX", base && base[0] ? base : "/tmp");
    if (!mkdtemp(out)) {
        perror("mkdtemp");
        exit(EXIT_FAILURE);
    }
}

static void join(char* out, size_t size, const char* dir, const char* name) {
    int n = snprintf(out, size, "%s/%s", dir, name);
    if (n < 0 || (size_t)n >= size) {
        fprintf(stderr, "test path too long: %s/%s\n", dir, name);
        exit(EXIT_FAILURE);
    }
}

/* The names in `dir`, sorted, joined by '|' ("" when empty). */
static void list_dir(const char* dir, char* out, size_t size) {
    char names[64][256];
    int count = 0;
    out[0] = '\0';
    DIR* d = opendir(dir);
    if (!d) {
        snprintf(out, size, "<cannot open: %s>", strerror(errno));
        return;
    }
    for (struct dirent* e; (e = readdir(d)) != NULL;) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 || count == 64) continue;
        snprintf(names[count++], sizeof names[0], "%s", e->d_name);
    }
    closedir(d);
    for (int i = 1; i < count; i++) /* insertion sort: a handful of names */
        for (int j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
            char t[256];
            memcpy(t, names[j], sizeof t);
            memcpy(names[j], names[j - 1], sizeof t);
            memcpy(names[j - 1], t, sizeof t);
        }
    size_t n = 0;
    for (int i = 0; i < count && n < size; i++) n += (size_t)snprintf(out + n, size - n, "%s%s", i ? "|" : "", names[i]);
}

#define CHECK_DIR(dir, expected)                                                                 \
    do {                                                                                         \
        char sw__listing[4096];                                                                  \
        list_dir(dir, sw__listing, sizeof sw__listing);                                          \
        if (strcmp(sw__listing, expected) != 0) {                                                \
            fprintf(stderr, "%s:%d: '%s' holds [%s], expected [%s]\n", __FILE__, __LINE__, dir, \
                    sw__listing, expected);                                                      \
            sw__current_failures++;                                                              \
        }                                                                                        \
    } while (0)

#define CHECK_CONTAINS(text, part)                                                                          \
    do {                                                                                                    \
        if (!strstr(text, part)) {                                                                          \
            fprintf(stderr, "%s:%d: '%s' does not contain '%s'\n", __FILE__, __LINE__, text, part);        \
            sw__current_failures++;                                                                         \
        }                                                                                                   \
    } while (0)

/* Removes `dir` and what it holds (files, and directories one level down). */
static void remove_dir(const char* dir) {
    DIR* d = opendir(dir);
    if (d) {
        for (struct dirent* e; (e = readdir(d)) != NULL;) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
            char path[1024];
            join(path, sizeof path, dir, e->d_name);
            struct stat st;
            if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode)) remove_dir(path);
            else unlink(path);
        }
        closedir(d);
    }
    rmdir(dir);
}

/* Pseudo-random RGBA (every alpha value occurs, 0 included). */
static void fill_random(uint8_t* rgba, size_t size, uint32_t seed) {
    uint32_t x = seed * 2654435761u + 1u;
    for (size_t i = 0; i < size; i++) {
        x = x * 1664525u + 1013904223u;
        rgba[i] = (uint8_t)(x >> 24);
    }
}

static void fill_flat(uint8_t* rgba, int width, int height, uint8_t r, uint8_t g, uint8_t b) {
    for (int i = 0; i < width * height; i++) {
        rgba[4 * i + 0] = r;
        rgba[4 * i + 1] = g;
        rgba[4 * i + 2] = b;
        rgba[4 * i + 3] = 255;
    }
}

/* Runs argv[0] from PATH with stdout captured into `out` (NUL-terminated,
   truncated); returns the exit status, or -1 when it could not run. */
static int run_capture(const char* const* argv, char* out, size_t size, size_t* out_length) {
    int fds[2];
    if (pipe(fds) != 0) return -1;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
    posix_spawn_file_actions_addclose(&actions, fds[0]);
    posix_spawn_file_actions_addclose(&actions, fds[1]);
    pid_t pid;
    int e = posix_spawnp(&pid, argv[0], &actions, NULL, (char* const*)argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    close(fds[1]);
    size_t n = 0;
    if (e == 0) {
        for (;;) {
            char chunk[4096];
            ssize_t r = read(fds[0], chunk, sizeof chunk);
            if (r < 0 && errno == EINTR) continue;
            if (r <= 0) break;
            size_t keep = (size_t)r < size - 1 - n ? (size_t)r : size - 1 - n;
            memcpy(out + n, chunk, keep);
            n += keep;
        }
    }
    close(fds[0]);
    out[n] = '\0';
    if (out_length) *out_length = n;
    if (e != 0) return -1;
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static bool have_program(const char* name) {
    char out[256];
    const char* argv[] = {name, "-version", NULL};
    return run_capture(argv, out, sizeof out, NULL) == 0;
}

typedef struct probe {
    char codec[32];
    int width, height, frames;
} probe;

/* ffprobe's view of the first video stream; frames are counted by decoding. */
static bool probe_video(const char* path, probe* p) {
    memset(p, 0, sizeof *p);
    char out[1024];
    const char* argv[] = {"ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                          "stream=codec_name,width,height,nb_read_frames", "-of", "default=noprint_wrappers=1",
                          path, NULL};
    if (run_capture(argv, out, sizeof out, NULL) != 0) return false;
    for (char* line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
        if (strncmp(line, "codec_name=", 11) == 0) snprintf(p->codec, sizeof p->codec, "%s", line + 11);
        else if (strncmp(line, "width=", 6) == 0) p->width = atoi(line + 6);
        else if (strncmp(line, "height=", 7) == 0) p->height = atoi(line + 7);
        else if (strncmp(line, "nb_read_frames=", 15) == 0) p->frames = atoi(line + 15);
    }
    return true;
}

/* The colour of pixel (x, y) of the first frame, decoded by ffmpeg to RGB. */
static bool decode_pixel(const char* path, int width, int height, int x, int y, int rgb[3]) {
    static char out[1 << 16];
    size_t n = 0;
    const char* argv[] = {"ffmpeg", "-v", "error", "-nostdin", "-i", path, "-frames:v", "1",
                          "-f", "rawvideo", "-pix_fmt", "rgb24", "-", NULL};
    if (run_capture(argv, out, sizeof out, &n) != 0 || n != (size_t)width * (size_t)height * 3) return false;
    const unsigned char* px = (const unsigned char*)out + ((size_t)y * (size_t)width + (size_t)x) * 3;
    for (int c = 0; c < 3; c++) rgb[c] = px[c];
    return true;
}

/* Writes `count` frames; returns false at the first failed write (error in `err`). */
static bool write_frames(frame_output* out, const uint8_t* const* frames, int count, tool_error* err) {
    for (int i = 0; i < count; i++)
        if (!frame_output_write(out, frames[i], err)) return false;
    return true;
}

/* Puts an executable `ffmpeg` shell script in `bin` (created). */
static void make_fake_ffmpeg(const char* bin, const char* script) {
    mkdir(bin, 0755);
    char path[1024];
    join(path, sizeof path, bin, "ffmpeg");
    FILE* f = fopen(path, "w");
    if (!f) return;
    fputs(script, f);
    fclose(f);
    chmod(path, 0755);
}

/* ---- names ------------------------------------------------------------------ */

static void test_kind_of(void) {
    static const struct {
        const char* path;
        int kind; /* -1: rejected */
        const char* error_part;
    } cases[] = {
        {"out.png", FRAME_OUTPUT_PNG, NULL},
        {"OUT.PNG", FRAME_OUTPUT_PNG, NULL},
        {"a dir/it's.png", FRAME_OUTPUT_PNG, NULL},
        {"clip.mp4", FRAME_OUTPUT_MP4, NULL},
        {"x/Clip.MP4", FRAME_OUTPUT_MP4, NULL},
        {"loop.gif", FRAME_OUTPUT_GIF, NULL},
        {"dir/%04d.png", FRAME_OUTPUT_SEQUENCE, NULL},
        {"shot_%d.png", FRAME_OUTPUT_SEQUENCE, NULL},
        {"f%012d.PNG", FRAME_OUTPUT_SEQUENCE, NULL},
        {"100%%_%03d.png", FRAME_OUTPUT_SEQUENCE, NULL},
        {"%%%d%%.png", FRAME_OUTPUT_SEQUENCE, NULL},
        {"out.jpg", -1, ".png (one frame), .mp4, .gif"},
        {"out", -1, "unknown kind"},
        {"", -1, "unknown kind"},
        {"dir/.png", -1, "unknown kind"},
        {"100%.png", -1, "bad frame pattern"},
        {"%5d.png", -1, "bad frame pattern"},
        {"%0d.png", -1, "bad frame pattern"},
        {"%004d.png", -1, "bad frame pattern"},
        {"%0100d.png", -1, "bad frame pattern"},
        {"%04x.png", -1, "bad frame pattern"},
        {"%-4d.png", -1, "bad frame pattern"},
        {"%s.png", -1, "bad frame pattern"},
        {"frame%", -1, "bad frame pattern"},
        {"%d_%d.png", -1, "exactly one %d or %0Nd"},
        {"100%%.png", -1, "found 0"},
        {"%%d.png", -1, "found 0"},
        {"%04d.mp4", -1, "must end in .png"},
        {"%04d", -1, "must end in .png"},
        {"take%d/frame.png", -1, "not in a directory"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        frame_output_kind kind = FRAME_OUTPUT_MP4;
        tool_error err = {{0}};
        bool ok = frame_output_kind_of(cases[i].path, &kind, &err);
        if (ok != (cases[i].kind >= 0) || (ok && (int)kind != cases[i].kind))
            fprintf(stderr, "  case '%s': ok %d kind %d, expected %d\n", cases[i].path, ok, (int)kind,
                    cases[i].kind);
        SW_CHECK(ok == (cases[i].kind >= 0));
        if (ok) {
            SW_CHECK_EQ_INT(kind, cases[i].kind);
        } else {
            SW_CHECK_EQ_INT(kind, FRAME_OUTPUT_PNG);
            CHECK_CONTAINS(err.message, cases[i].error_part);
            char quoted[300];
            snprintf(quoted, sizeof quoted, "'%s'", cases[i].path);
            CHECK_CONTAINS(err.message, quoted);
        }
    }
}

/* ---- PNG ---------------------------------------------------------------------- */

static void test_png_round_trip(void) {
    enum { W = 37, H = 23 }; /* odd, not square: a stride mistake shows */
    char dir[512], path[1024];
    make_temp_dir(dir, sizeof dir);
    join(path, sizeof path, dir, "it's a \"frame\".png");
    uint8_t rgba[W * H * 4];
    fill_random(rgba, sizeof rgba, 7);

    tool_error err = {{0}};
    frame_output* out = NULL;
    SW_CHECK(frame_output_open(&out, path, W, H, 0.0, 1, &err)); /* fps unused for PNG */
    if (!out) {
        fprintf(stderr, "  %s\n", err.message);
        remove_dir(dir);
        return;
    }
    SW_CHECK(frame_output_write(out, rgba, &err));
    SW_CHECK(!frame_output_write(out, rgba, &err)); /* a second frame is refused */
    CHECK_CONTAINS(err.message, "all 1 frames are already written");
    char temp_only[128]; /* only the temporary before finish... */
    snprintf(temp_only, sizeof temp_only, "it's a \"frame\".png.tmp.%ld", (long)getpid());
    CHECK_DIR(dir, temp_only);
    SW_CHECK(frame_output_finish(out, &err));
    CHECK_DIR(dir, "it's a \"frame\".png"); /* ...and no temporary after */

    int w = 0, h = 0, channels = 0;
    unsigned char* back = stbi_load(path, &w, &h, &channels, 4);
    SW_CHECK(back != NULL);
    if (back) {
        SW_CHECK_EQ_INT(w, W);
        SW_CHECK_EQ_INT(h, H);
        SW_CHECK_EQ_INT(channels, 4);
        SW_CHECK(memcmp(back, rgba, sizeof rgba) == 0);
        stbi_image_free(back);
    }
    remove_dir(dir);
}

static void test_png_refuses_several_frames(void) {
    char dir[512], path[1024];
    make_temp_dir(dir, sizeof dir);
    join(path, sizeof path, dir, "out.png");
    tool_error err = {{0}};
    frame_output* out = (frame_output*)&err; /* must come back NULL */
    SW_CHECK(!frame_output_open(&out, path, 8, 8, 30.0, 2, &err));
    SW_CHECK(out == NULL);
    CHECK_CONTAINS(err.message, "use .mp4, .gif or a frame pattern");
    CHECK_CONTAINS(err.message, path);
    SW_CHECK(!frame_output_open(&out, path, 0, 8, 30.0, 1, &err));
    CHECK_CONTAINS(err.message, "frame size 0x8");
    SW_CHECK(!frame_output_open(&out, path, 8, FRAME_OUTPUT_MAX_SIZE + 1, 30.0, 1, &err));
    SW_CHECK(!frame_output_open(&out, path, 8, 8, 30.0, 0, &err));
    CHECK_CONTAINS(err.message, "no frames");
    join(path, sizeof path, dir, "out.mp4");
    SW_CHECK(!frame_output_open(&out, path, 8, 8, 0.0, 2, &err));
    CHECK_CONTAINS(err.message, "frame rate 0 is outside");
    SW_CHECK(!frame_output_open(&out, path, 8, 8, 1e300, 2, &err));
    CHECK_DIR(dir, "");
    remove_dir(dir);
}

static void test_sequence(void) {
    enum { W = 16, H = 9, N = 3 };
    char dir[512], pattern[1024];
    make_temp_dir(dir, sizeof dir);
    join(pattern, sizeof pattern, dir, "take %03d.png");
    static uint8_t frames[N][W * H * 4];
    for (int i = 0; i < N; i++) fill_random(frames[i], sizeof frames[i], 100u + (uint32_t)i);

    tool_error err = {{0}};
    frame_output* out = NULL;
    SW_CHECK(frame_output_open(&out, pattern, W, H, 24.0, N, &err));
    if (!out) {
        fprintf(stderr, "  %s\n", err.message);
        remove_dir(dir);
        return;
    }
    for (int i = 0; i < N; i++) SW_CHECK(frame_output_write(out, frames[i], &err));
    SW_CHECK(frame_output_finish(out, &err));
    CHECK_DIR(dir, "take 000.png|take 001.png|take 002.png");
    for (int i = 0; i < N; i++) {
        char name[64], path[1024];
        snprintf(name, sizeof name, "take %03d.png", i);
        join(path, sizeof path, dir, name);
        int w = 0, h = 0, channels = 0;
        unsigned char* back = stbi_load(path, &w, &h, &channels, 4);
        SW_CHECK(back != NULL && w == W && h == H);
        if (back) SW_CHECK(memcmp(back, frames[i], sizeof frames[i]) == 0);
        stbi_image_free(back);
    }

    /* "%%" is a literal '%'; %d has no padding. */
    join(pattern, sizeof pattern, dir, "100%%_%d.png");
    SW_CHECK(frame_output_open(&out, pattern, W, H, 24.0, 1, &err));
    if (out) {
        SW_CHECK(frame_output_write(out, frames[0], &err));
        SW_CHECK(frame_output_finish(out, &err));
    }
    CHECK_DIR(dir, "100%_0.png|take 000.png|take 001.png|take 002.png");
    remove_dir(dir);
}

/* An abort, a finish with frames missing, and a failure all leave the
   directory as it was: no output, no temporary, no frame of a sequence. */
static void test_abort_leaves_nothing(void) {
    enum { W = 12, H = 10 };
    char dir[512], path[1024];
    make_temp_dir(dir, sizeof dir);
    uint8_t rgba[W * H * 4];
    fill_random(rgba, sizeof rgba, 3);
    tool_error err = {{0}};
    frame_output* out = NULL;

    join(path, sizeof path, dir, "one.png");
    SW_CHECK(frame_output_open(&out, path, W, H, 30.0, 1, &err));
    if (out) {
        SW_CHECK(frame_output_write(out, rgba, &err));
        frame_output_abort(out);
    }
    CHECK_DIR(dir, "");

    join(path, sizeof path, dir, "seq_%02d.png");
    SW_CHECK(frame_output_open(&out, path, W, H, 30.0, 5, &err));
    if (out) {
        for (int i = 0; i < 3; i++) SW_CHECK(frame_output_write(out, rgba, &err));
        char expected[128]; /* the next frame's temporary is already open */
        snprintf(expected, sizeof expected, "seq_00.png|seq_01.png|seq_02.png|seq_03.png.tmp.%ld", (long)getpid());
        CHECK_DIR(dir, expected);
        frame_output_abort(out);
    }
    CHECK_DIR(dir, "");

    SW_CHECK(frame_output_open(&out, path, W, H, 30.0, 3, &err));
    if (out) {
        for (int i = 0; i < 2; i++) SW_CHECK(frame_output_write(out, rgba, &err));
        SW_CHECK(!frame_output_finish(out, &err));
        CHECK_CONTAINS(err.message, "only 2 of 3 frames were written");
    }
    CHECK_DIR(dir, "");
    frame_output_abort(NULL);
    remove_dir(dir);
}

/* A file where a folder should be, and a folder nobody may write to, fail
   before anything is rendered, naming the output and the reason. */
static void test_unwritable_directory(void) {
    char dir[512], path[1024], file_dir[1024];
    make_temp_dir(dir, sizeof dir);
    tool_error err = {{0}};
    frame_output* out = NULL;
    const char* names[] = {"plain file/out.png", "plain file/%04d.png", "plain file/out.mp4",
                           "plain file/deeper/out.gif"};
    join(file_dir, sizeof file_dir, dir, "plain file");
    FILE* f = fopen(file_dir, "w"); /* a file where a directory should be */
    if (f) fclose(f);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        join(path, sizeof path, dir, names[i]);
        SW_CHECK(!frame_output_open(&out, path, 4, 4, 30.0, 2 - (strstr(names[i], "out.png") != NULL), &err));
        SW_CHECK(out == NULL);
        char expected[1100];
        if (strstr(path, "%04d")) join(expected, sizeof expected, dir, "plain file/0000.png"); /* the first frame */
        else snprintf(expected, sizeof expected, "%s", path);
        CHECK_CONTAINS(err.message, expected);
        snprintf(expected, sizeof expected, "'%s' exists and is not a folder", file_dir);
        CHECK_CONTAINS(err.message, expected);
    }
    CHECK_DIR(dir, "plain file");

    /* Permissions stop everyone but root. */
    if (geteuid() != 0) {
        char locked[1024];
        join(locked, sizeof locked, dir, "locked");
        mkdir(locked, 0555);
        join(path, sizeof path, locked, "out.png");
        SW_CHECK(!frame_output_open(&out, path, 4, 4, 30.0, 1, &err));
        CHECK_CONTAINS(err.message, path);
        CHECK_CONTAINS(err.message, "Permission denied");
        join(path, sizeof path, locked, "sub/%d.png");
        SW_CHECK(!frame_output_open(&out, path, 4, 4, 30.0, 2, &err));
        CHECK_CONTAINS(err.message, "cannot create the folder");
        CHECK_CONTAINS(err.message, "Permission denied");
        chmod(locked, 0755);
    } else {
        fprintf(stderr, "  (running as root: the read-only directory case is not tried)\n");
    }
    remove_dir(dir);
}

/* The folders missing above an output are created (mode 0777 & ~umask),
   kept when the output is complete, and removed again when it is aborted
   or fails; folders that were there are never touched. */
static void test_missing_folders(void) {
    enum { W = 8, H = 6 };
    char dir[512], path[1024], sub[1024];
    make_temp_dir(dir, sizeof dir);
    uint8_t rgba[W * H * 4];
    fill_random(rgba, sizeof rgba, 5);
    tool_error err = {{0}};
    frame_output* out = NULL;
    mode_t old_umask = umask(002);

    /* Completed: the folders stay, with the umask applied. */
    join(path, sizeof path, dir, "a/b/%03d.png");
    SW_CHECK(frame_output_open(&out, path, W, H, 30.0, 2, &err));
    if (out) {
        for (int i = 0; i < 2; i++) SW_CHECK(frame_output_write(out, rgba, &err));
        SW_CHECK(frame_output_finish(out, &err));
    }
    join(sub, sizeof sub, dir, "a/b");
    CHECK_DIR(sub, "000.png|001.png");
    struct stat st;
    SW_CHECK(stat(sub, &st) == 0 && (st.st_mode & 0777) == 0775);
    join(sub, sizeof sub, dir, "a");
    SW_CHECK(stat(sub, &st) == 0 && (st.st_mode & 0777) == 0775);

    /* Aborted, after frames were committed: frames and new folders go, the
       folder that was there ("a") stays, with its mode. */
    chmod(sub, 0700);
    join(path, sizeof path, dir, "a/new/er/%03d.png");
    SW_CHECK(frame_output_open(&out, path, W, H, 30.0, 3, &err));
    if (out) {
        for (int i = 0; i < 2; i++) SW_CHECK(frame_output_write(out, rgba, &err));
        frame_output_abort(out);
    }
    CHECK_DIR(sub, "b");
    SW_CHECK(stat(sub, &st) == 0 && (st.st_mode & 0777) == 0700);

    /* A single PNG and a finish that fails (a frame short): nothing stays. */
    join(path, sizeof path, dir, "c/d/one.png");
    SW_CHECK(frame_output_open(&out, path, W, H, 30.0, 1, &err));
    if (out) SW_CHECK(!frame_output_finish(out, &err));
    join(path, sizeof path, dir, "100%%/x_%d.png"); /* "%%": the folder on disk is "100%" */
    SW_CHECK(frame_output_open(&out, path, W, H, 30.0, 2, &err));
    if (out) {
        SW_CHECK(frame_output_write(out, rgba, &err));
        SW_CHECK(!frame_output_finish(out, &err));
    }
    CHECK_DIR(dir, "a");

    /* The atomic writer alone: commit keeps the folders, abort removes them. */
    tool_atomic_file file;
    join(path, sizeof path, dir, "e/f/data.bin");
    SW_CHECK(tool_atomic_open(&file, path, &err));
    SW_CHECK(file.created_dirs != NULL);
    tool_atomic_abort(&file);
    CHECK_DIR(dir, "a");
    SW_CHECK(tool_atomic_open(&file, path, &err));
    SW_CHECK(tool_atomic_write(&file, "x", 1));
    SW_CHECK(tool_atomic_commit(&file, &err));
    join(sub, sizeof sub, dir, "e/f");
    CHECK_DIR(sub, "data.bin");

    /* tool_make_parent_dirs lists exactly what it made: "//", "." and ".."
       are no folders of their own, and "new/../a" is the folder that was
       there, which taking back must not touch. */
    char* created = NULL;
    join(path, sizeof path, dir, "g//h/./i/../j/file");
    SW_CHECK(tool_make_parent_dirs(path, &created, &err));
    SW_CHECK(created != NULL);
    join(sub, sizeof sub, dir, "g/h");
    CHECK_DIR(sub, "i|j");
    tool_remove_created_dirs(created);
    CHECK_DIR(dir, "a|e");
    join(path, sizeof path, dir, "new/../a/file");
    SW_CHECK(tool_make_parent_dirs(path, &created, &err));
    join(sub, sizeof sub, dir, "a");
    CHECK_DIR(sub, "b");
    CHECK_DIR(dir, "a|e|new");
    tool_remove_created_dirs(created); /* "new" only; "a" is not empty, but must not even be tried */
    CHECK_DIR(dir, "a|e");
    join(path, sizeof path, dir, "empty/../x");
    join(sub, sizeof sub, dir, "empty");
    mkdir(sub, 0755);
    SW_CHECK(tool_make_parent_dirs(path, &created, &err));
    SW_CHECK(created == NULL); /* nothing made */
    tool_remove_created_dirs(created);
    CHECK_DIR(dir, "a|e|empty"); /* the empty folder that was there stays */
    rmdir(sub);
    SW_CHECK(tool_make_parent_dirs("file-in-the-current-folder", &created, &err));
    SW_CHECK(created == NULL);
    join(path, sizeof path, dir, "a/b/000.png");
    SW_CHECK(tool_make_parent_dirs(path, &created, &err));
    SW_CHECK(created == NULL);
    /* A folder below a file fails, naming both, and takes back what it made. */
    join(path, sizeof path, dir, "z/../a/b/000.png/x/y.png");
    SW_CHECK(!tool_make_parent_dirs(path, &created, &err));
    SW_CHECK(created == NULL);
    CHECK_CONTAINS(err.message, "000.png' exists and is not a folder");
    join(sub, sizeof sub, dir, "a/b");
    CHECK_DIR(sub, "000.png|001.png");
    CHECK_DIR(dir, "a|e");

    umask(old_umask);
    remove_dir(dir);
}

/* The name of one frame of a pattern, as the files are named. */
static void test_frame_path(void) {
    char name[64];
    SW_CHECK(frame_output_frame_path("frames/%04d.png", 89, name, sizeof name));
    SW_CHECK(strcmp(name, "frames/0089.png") == 0);
    SW_CHECK(frame_output_frame_path("100%%/take %d.png", 12, name, sizeof name));
    SW_CHECK(strcmp(name, "100%/take 12.png") == 0);
    SW_CHECK(!frame_output_frame_path("out.png", 0, name, sizeof name));      /* not a pattern */
    SW_CHECK(!frame_output_frame_path("%d/x.png", 0, name, sizeof name));     /* number in a folder */
    SW_CHECK(!frame_output_frame_path("f_%d.png", -1, name, sizeof name));    /* no negative frames */
    SW_CHECK(!frame_output_frame_path("f_%060d.png", 1, name, sizeof name));  /* 60 digits do not fit in 64 */
}

/* ---- progress ----------------------------------------------------------------- */

static void test_progress_format(void) {
    static const struct {
        int done, total;
        double elapsed_s;
        const char* line;
    } cases[] = {
        /* nothing done yet: no rate, no ETA */
        {0, 100, 0.0, "[------------------------]   0/100 frames  -- fps  ETA --:--"},
        {0, 100, 3.0, "[------------------------]   0/100 frames  -- fps  ETA --:--"},
        /* 25 frames in 5 s: 5 fps; 75 left take 15 s; 25/100 of 24 cells = 6 */
        {25, 100, 5.0, "[######------------------]  25/100 frames  5.0 fps  ETA 0:15"},
        /* 2 in 1.4 s: 1.428 fps; 3 left: 2.1 s rounds to 2; 2/5 of 24 = 9.6, 9 cells */
        {2, 5, 1.4, "[#########---------------] 2/5 frames  1.4 fps  ETA 0:02"},
        /* 10 fps; 7190 left: 719 s = 11:59 */
        {10, 7200, 1.0, "[------------------------]   10/7200 frames  10.0 fps  ETA 11:59"},
        /* 1 fps; 3600 left: one hour */
        {1, 3601, 1.0, "[------------------------]    1/3601 frames  1.0 fps  ETA 1:00:00"},
        /* 0.2 fps: 5 s a frame; 99999 left = 499995 s, over 100 h */
        {1, 100000, 5.0, "[------------------------]      1/100000 frames  0.2 fps  ETA --:--"},
        /* all done: total time instead of ETA (20 s = 0:20) */
        {100, 100, 20.0, "[########################] 100/100 frames  5.0 fps  done in 0:20"},
        {3, 3, 125.4, "[########################] 3/3 frames  0.0 fps  done in 2:05"},
        /* out of range counts are clamped */
        {7, 5, 1.0, "[########################] 5/5 frames  5.0 fps  done in 0:01"},
        {-2, 5, 1.0, "[------------------------] 0/5 frames  -- fps  ETA --:--"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char line[160];
        size_t n = frame_progress_format(line, sizeof line, cases[i].done, cases[i].total, cases[i].elapsed_s);
        if (strcmp(line, cases[i].line) != 0) fprintf(stderr, "  got      '%s'\n  expected '%s'\n", line, cases[i].line);
        SW_CHECK(strcmp(line, cases[i].line) == 0);
        SW_CHECK_EQ_INT(n, strlen(cases[i].line));
    }
    /* A short buffer truncates, and the full length still comes back. */
    char small[11];
    size_t n = frame_progress_format(small, sizeof small, 25, 100, 5.0);
    SW_CHECK(strcmp(small, "[######---") == 0);
    SW_CHECK_EQ_INT(n, strlen(cases[2].line));
}

/* Reads what the terminal side shows until `part` appears or 2 s pass. */
static bool read_until(int fd, char* out, size_t size, const char* part) {
    size_t n = 0;
    out[0] = '\0';
    for (int tries = 0; tries < 20 && !strstr(out, part); tries++) {
        struct pollfd p = {fd, POLLIN, 0};
        if (poll(&p, 1, 100) <= 0) continue;
        ssize_t r = read(fd, out + n, size - 1 - n);
        if (r <= 0) break;
        n += (size_t)r;
        out[n] = '\0';
    }
    return strstr(out, part) != NULL;
}

static void test_progress_line_format(void) {
    static const struct {
        int done, total;
        double elapsed_s;
        const char* line;
    } cases[] = {
        /* nothing done: no estimate */
        {0, 90, 0.0, "frame 0/90 (0%)  0:00 elapsed  about --:-- left"},
        /* 18 of 90 in 4 s: 72 left at 4/18 s each = 16 s; 20 % */
        {18, 90, 4.0, "frame 18/90 (20%)  0:04 elapsed  about 0:16 left"},
        /* 5 of 90 in 3.7 s: 85 · 3.7 / 5 = 62.9 s → 1:03; 5.55 % shows 5 % */
        {5, 90, 3.7, "frame 5/90 (5%)  0:04 elapsed  about 1:03 left"},
        /* 1 of 7200 in 2 s: 7199 · 2 = 14398 s = 3:59:58 */
        {1, 7200, 2.0, "frame 1/7200 (0%)  0:02 elapsed  about 3:59:58 left"},
        /* the last: the total time */
        {90, 90, 74.4, "frame 90/90 (100%)  done in 1:14"},
        /* out of range: clamped */
        {95, 90, 10.0, "frame 90/90 (100%)  done in 0:10"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char line[160];
        size_t n = frame_progress_format_line(line, sizeof line, cases[i].done, cases[i].total, cases[i].elapsed_s);
        if (strcmp(line, cases[i].line) != 0) fprintf(stderr, "  got      '%s'\n  expected '%s'\n", line, cases[i].line);
        SW_CHECK(strcmp(line, cases[i].line) == 0);
        SW_CHECK_EQ_INT(n, strlen(cases[i].line));
    }
    frame_progress_mode mode = FRAME_PROGRESS_NONE;
    SW_CHECK(frame_progress_mode_parse("lines", &mode) && mode == FRAME_PROGRESS_LINES);
    SW_CHECK(frame_progress_mode_parse("bar", &mode) && mode == FRAME_PROGRESS_BAR);
    SW_CHECK(frame_progress_mode_parse("auto", &mode) && mode == FRAME_PROGRESS_AUTO);
    SW_CHECK(frame_progress_mode_parse("none", &mode) && mode == FRAME_PROGRESS_NONE);
    SW_CHECK(!frame_progress_mode_parse("Lines", &mode) && !frame_progress_mode_parse("", &mode));
    SW_CHECK(!frame_progress_mode_parse(NULL, &mode));
}

/* The lines `file` holds from its start, and the count. */
static int read_lines(FILE* file, char* out, size_t size) {
    long end = ftell(file);
    rewind(file);
    size_t n = fread(out, 1, size - 1, file);
    out[n] = '\0';
    fseek(file, end, SEEK_SET);
    int lines = 0;
    for (size_t i = 0; i < n; i++) lines += out[i] == '\n';
    return lines;
}

static void test_progress_bar(void) {
    /* Not a terminal (a file, as when stderr is redirected): auto gives
       lines, one per 5 % and no '\r'; none gives nothing. */
    FILE* file = tmpfile();
    SW_CHECK(file != NULL);
    if (!file) return;
    frame_progress p;
    frame_progress_begin(&p, file, 10, FRAME_PROGRESS_NONE);
    SW_CHECK(p.stream == NULL);
    for (int i = 1; i <= 10; i++) frame_progress_update(&p, i);
    frame_progress_end(&p);
    SW_CHECK_EQ_INT(ftell(file), 0);

    char text[8192];
    /* 90 frames: 5 % steps at 4.5 frames, so frames 5, 9, 14, 18, ... 90: 20 lines. */
    frame_progress_begin(&p, file, 90, FRAME_PROGRESS_AUTO);
    SW_CHECK(p.stream == file);
    for (int i = 1; i <= 90; i++) frame_progress_update(&p, i);
    frame_progress_end(&p);
    SW_CHECK_EQ_INT(read_lines(file, text, sizeof text), 20);
    SW_CHECK(strchr(text, '\r') == NULL);
    SW_CHECK(strncmp(text, "frame 5/90 (5%)  0:00 elapsed  about ", 37) == 0);
    CHECK_CONTAINS(text, "\nframe 9/90 (10%)  ");
    CHECK_CONTAINS(text, "\nframe 45/90 (50%)  ");
    SW_CHECK(strstr(text, "frame 4/90") == NULL && strstr(text, "frame 6/90") == NULL);
    CHECK_CONTAINS(text, "\nframe 90/90 (100%)  done in 0:00\n");
    /* 7 frames: every frame passes a step (each is 14 %); frames skipped by
       the caller (a jump from 2 to 7) give one line. */
    rewind(file);
    SW_CHECK(ftruncate(fileno(file), 0) == 0);
    frame_progress_begin(&p, file, 7, FRAME_PROGRESS_LINES);
    frame_progress_update(&p, 1);
    frame_progress_update(&p, 2);
    frame_progress_update(&p, 2);
    frame_progress_update(&p, 7);
    frame_progress_end(&p);
    SW_CHECK_EQ_INT(read_lines(file, text, sizeof text), 3);
    CHECK_CONTAINS(text, "frame 7/7 (100%)");
    fclose(file);

    /* On a terminal: '\r' redraws and a final newline; none when quiet or
       for a single frame. */
    int master = posix_openpt(O_RDWR | O_NOCTTY);
    if (master < 0 || grantpt(master) != 0 || unlockpt(master) != 0) {
        if (master >= 0) close(master);
        SW_SKIP("no pseudo-terminal to draw the bar on");
    }
    FILE* tty = fopen(ptsname(master), "w");
    SW_CHECK(tty != NULL);
    if (!tty) {
        close(master);
        return;
    }
    frame_progress_begin(&p, tty, 3, FRAME_PROGRESS_NONE);
    SW_CHECK(p.stream == NULL);
    frame_progress_begin(&p, tty, 1, FRAME_PROGRESS_AUTO);
    SW_CHECK(p.stream == NULL);

    frame_progress_begin(&p, tty, 3, FRAME_PROGRESS_AUTO);
    SW_CHECK(p.stream == tty);
    frame_progress_update(&p, 1); /* within 0.1 s of the first line: skipped */
    frame_progress_update(&p, 2);
    frame_progress_update(&p, 3); /* the last frame is always drawn */
    frame_progress_end(&p);
    SW_CHECK(p.stream == NULL);
    char shown[2048];
    SW_CHECK(read_until(master, shown, sizeof shown, "\n"));
    CHECK_CONTAINS(shown, "\r[------------------------] 0/3 frames  -- fps  ETA --:--");
    CHECK_CONTAINS(shown, "\r[########################] 3/3 frames  ");
    CHECK_CONTAINS(shown, "done in 0:00");
    SW_CHECK(strstr(shown, "1/3 frames") == NULL);
    SW_CHECK(strstr(shown, "2/3 frames") == NULL);
    fclose(tty);
    close(master);
}

/* ---- MP4 and GIF through ffmpeg ------------------------------------------------ */

static bool ffmpeg_present(void) {
    static int present = -1; /* asked once: each test would otherwise start two processes */
    if (present < 0) present = have_program("ffmpeg") && have_program("ffprobe");
    return present == 1;
}

/* 10 frames of flat colours (200, 10 + 20 i, 50) at 30 fps. */
static bool write_clip(const char* path, int width, int height, tool_error* err) {
    enum { N = 10 };
    uint8_t* frames[N];
    size_t size = (size_t)width * (size_t)height * 4;
    for (int i = 0; i < N; i++) {
        frames[i] = malloc(size);
        fill_flat(frames[i], width, height, 200, (uint8_t)(10 + 20 * i), 50);
    }
    frame_output* out = NULL;
    bool ok = frame_output_open(&out, path, width, height, 30.0, N, err);
    if (ok && !write_frames(out, (const uint8_t* const*)frames, N, err)) {
        frame_output_abort(out);
        ok = false;
    } else if (ok) {
        ok = frame_output_finish(out, err);
    }
    for (int i = 0; i < N; i++) free(frames[i]);
    return ok;
}

/* Writes `name` (relative: the current directory is the test's) and
   checks it with ffprobe and ffmpeg. */
static void check_clip(const char* name, const char* codec, int width, int height) {
    char probe_path[1024];
    snprintf(probe_path, sizeof probe_path, "./%s", name); /* "./": ffprobe must not read "a:b" as a protocol */
    tool_error err = {{0}};
    if (!write_clip(name, width, height, &err)) {
        fprintf(stderr, "  %s\n", err.message);
        SW_CHECK(!"clip written");
        return;
    }
    struct stat st;
    SW_CHECK(stat(name, &st) == 0 && st.st_size > 0);
    probe p;
    SW_CHECK(probe_video(probe_path, &p));
    SW_CHECK(strcmp(p.codec, codec) == 0);
    /* yuv420p needs even sizes: MP4 pads odd ones; GIF keeps them. */
    bool padded = strcmp(codec, "h264") == 0;
    SW_CHECK_EQ_INT(p.width, padded ? (width + 1) / 2 * 2 : width);
    SW_CHECK_EQ_INT(p.height, padded ? (height + 1) / 2 * 2 : height);
    SW_CHECK_EQ_INT(p.frames, 10);
    /* The first frame's colour survives the round trip (a BT.601 matrix
       tagged as BT.709 would be off by about 10 in red). */
    int rgb[3] = {-100, -100, -100};
    SW_CHECK(decode_pixel(probe_path, p.width, p.height, width / 2, height / 2, rgb));
    SW_CHECK_NEAR(rgb[0], 200, 4);
    SW_CHECK_NEAR(rgb[1], 10, 4);
    SW_CHECK_NEAR(rgb[2], 50, 4);
}

static void test_mp4_and_gif(void) {
    if (!ffmpeg_present()) SW_SKIP("ffmpeg/ffprobe not on PATH (Debian package ffmpeg): MP4 and GIF not tried");
    char dir[512], cwd[1024];
    make_temp_dir(dir, sizeof dir);
    if (!getcwd(cwd, sizeof cwd) || chdir(dir) != 0) {
        SW_CHECK(!"chdir into the test directory");
        remove_dir(dir);
        return;
    }
    check_clip("it's a \"clip\".mp4", "h264", 64, 48);
    check_clip("loop.gif", "gif", 64, 48);
    check_clip("odd:size.mp4", "h264", 63, 47); /* ffmpeg must not read "odd:" as a protocol */
    check_clip("-odd.gif", "gif", 63, 47);      /* nor "-odd.gif" as an option */
    CHECK_DIR(".", "-odd.gif|it's a \"clip\".mp4|loop.gif|odd:size.mp4");
    SW_CHECK(chdir(cwd) == 0);
    remove_dir(dir);
}

static void test_video_abort(void) {
    if (!ffmpeg_present()) SW_SKIP("ffmpeg not on PATH: aborting a video not tried");
    enum { W = 64, H = 48 };
    char dir[512], path[1024];
    make_temp_dir(dir, sizeof dir);
    static uint8_t rgba[W * H * 4];
    fill_random(rgba, sizeof rgba, 5);
    tool_error err = {{0}};
    frame_output* out = NULL;
    join(path, sizeof path, dir, "cut.mp4");
    SW_CHECK(frame_output_open(&out, path, W, H, 30.0, 10, &err));
    if (out) {
        for (int i = 0; i < 3; i++) SW_CHECK(frame_output_write(out, rgba, &err));
        frame_output_abort(out);
    }
    CHECK_DIR(dir, "");
    join(path, sizeof path, dir, "short.gif");
    SW_CHECK(frame_output_open(&out, path, W, H, 30.0, 10, &err));
    if (out) {
        for (int i = 0; i < 3; i++) SW_CHECK(frame_output_write(out, rgba, &err));
        SW_CHECK(!frame_output_finish(out, &err));
        CHECK_CONTAINS(err.message, "only 3 of 10 frames");
    }
    CHECK_DIR(dir, "");
    remove_dir(dir);
}

/* PATH is swapped for fake ffmpeg scripts (or none) and put back. */
static void test_ffmpeg_failures(void) {
    enum { W = 64, H = 48, N = 10 }; /* 120 KiB in all: more than a pipe holds */
    char dir[512], bin[1024], out_dir[1024], path[1024];
    make_temp_dir(dir, sizeof dir);
    join(bin, sizeof bin, dir, "bin");
    join(out_dir, sizeof out_dir, dir, "out");
    mkdir(bin, 0755);
    mkdir(out_dir, 0755);
    const char* old_path = getenv("PATH");
    char* saved_path = old_path ? strdup(old_path) : NULL;
    static uint8_t rgba[W * H * 4];
    fill_random(rgba, sizeof rgba, 9);
    const uint8_t* frames[N];
    for (int i = 0; i < N; i++) frames[i] = rgba;
    tool_error err = {{0}};
    frame_output* out = NULL;

    /* No ffmpeg at all: refused by open, before any frame. */
    setenv("PATH", bin, 1);
    join(path, sizeof path, out_dir, "clip.mp4");
    SW_CHECK(!frame_output_open(&out, path, W, H, 30.0, N, &err));
    SW_CHECK(out == NULL);
    CHECK_CONTAINS(err.message, "writing .mp4 needs ffmpeg (Debian package ffmpeg)");
    CHECK_CONTAINS(err.message, "-o dir/%04d.png");
    CHECK_CONTAINS(err.message, path);
    join(path, sizeof path, out_dir, "clip.gif");
    SW_CHECK(!frame_output_open(&out, path, W, H, 30.0, N, &err));
    CHECK_CONTAINS(err.message, "writing .gif needs ffmpeg");
    CHECK_DIR(out_dir, "");

    /* An ffmpeg that fails at once, with a message: writing hits a closed
       pipe (SIGPIPE must not kill us) or finish sees the exit status. */
    make_fake_ffmpeg(bin, "#!/bin/sh\necho 'some warning' >&2\necho 'fake ffmpeg: codec exploded' >&2\nexit 3\n");
    join(path, sizeof path, out_dir, "clip.mp4");
    SW_CHECK(frame_output_open(&out, path, W, H, 30.0, N, &err));
    if (out) {
        bool wrote = write_frames(out, frames, N, &err);
        if (wrote) SW_CHECK(!frame_output_finish(out, &err));
        else frame_output_abort(out);
        fprintf(stderr, "  (%s) %s\n", wrote ? "at finish" : "while writing", err.message);
        CHECK_CONTAINS(err.message, "exit status 3): fake ffmpeg: codec exploded");
        CHECK_CONTAINS(err.message, path);
    }
    CHECK_DIR(out_dir, "");

    /* An ffmpeg that reads everything, exits 0 and writes nothing. */
    make_fake_ffmpeg(bin, "#!/bin/sh\n/bin/cat >/dev/null\nexit 0\n");
    SW_CHECK(frame_output_open(&out, path, W, H, 30.0, N, &err));
    if (out) {
        SW_CHECK(write_frames(out, frames, N, &err));
        SW_CHECK(!frame_output_finish(out, &err));
        CHECK_CONTAINS(err.message, "wrote nothing");
    }
    CHECK_DIR(out_dir, "");

    /* An ffmpeg that exits 0 but leaves an MP4 without its index, as
       ffmpeg 5.1 does when the disk fills up while it writes the trailer:
       the box check refuses it, quoting ffmpeg's last line. */
    make_fake_ffmpeg(bin, "#!/bin/sh\nfor a; do out=$a; done\n"
                          "printf '\\000\\000\\000\\020ftypisom\\000\\000\\000\\000\\000\\000\\000\\010mdat' "
                          ">\"${out#file:}\"\n/bin/cat >/dev/null\necho 'No space left on device' >&2\nexit 0\n");
    SW_CHECK(frame_output_open(&out, path, W, H, 30.0, N, &err));
    if (out) {
        SW_CHECK(write_frames(out, frames, N, &err));
        SW_CHECK(!frame_output_finish(out, &err));
        CHECK_CONTAINS(err.message, "ffmpeg exited with status 0 but the MP4 has no 'moov' box");
        CHECK_CONTAINS(err.message, "ffmpeg said: No space left on device");
        CHECK_CONTAINS(err.message, path);
    }
    CHECK_DIR(out_dir, "");

    /* The real ffmpeg, dying mid-way as on a full disk (file size limit:
       SIGXFSZ). */
    if (ffmpeg_present()) {
        char real[64] = "";
        static const char* const candidates[] = {"/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"};
        for (size_t i = 0; i < 2 && !real[0]; i++)
            if (access(candidates[i], X_OK) == 0) snprintf(real, sizeof real, "%s", candidates[i]);
        if (real[0]) {
            char script[256];
            snprintf(script, sizeof script, "#!/bin/sh\nulimit -f 1\nexec %s \"$@\"\n", real);
            make_fake_ffmpeg(bin, script);
            SW_CHECK(frame_output_open(&out, path, W, H, 30.0, N, &err));
            if (out) {
                fill_random(rgba, sizeof rgba, 11); /* noise: far more than 512 bytes of H.264 */
                bool wrote = write_frames(out, frames, N, &err);
                if (wrote) SW_CHECK(!frame_output_finish(out, &err));
                else frame_output_abort(out);
                char signal_text[64];
                snprintf(signal_text, sizeof signal_text, "killed by signal %d", SIGXFSZ);
                fprintf(stderr, "  (%s) %s\n", wrote ? "at finish" : "while writing", err.message);
                CHECK_CONTAINS(err.message, signal_text);
            }
            CHECK_DIR(out_dir, "");
        }
    }

    if (saved_path) setenv("PATH", saved_path, 1);
    else unsetenv("PATH");
    free(saved_path);
    remove_dir(dir);
}

/* ---- hostile targets ------------------------------------------------------------- */

/* A device node, a FIFO, a socket, a folder, or a link to one of them
   under the output's name is refused by frame_output_open before anything
   is written, and left as it was; for a sequence every frame's name is
   checked first. A link to a regular file is written through (the link
   stays), and an existing file keeps its permission bits. */
static void test_hostile_targets(void) {
    enum { W = 8, H = 6 };
    char dir[512], path[1024], other[1024];
    make_temp_dir(dir, sizeof dir);
    uint8_t rgba[W * H * 4];
    fill_random(rgba, sizeof rgba, 21);
    tool_error err = {{0}};
    frame_output* out = NULL;
    struct stat st;

    join(path, sizeof path, dir, "fifo.png");
    SW_CHECK(mkfifo(path, 0644) == 0);
    SW_CHECK(!frame_output_open(&out, path, W, H, 30.0, 1, &err));
    CHECK_CONTAINS(err.message, "it is a FIFO (named pipe), not a regular file");
    SW_CHECK(lstat(path, &st) == 0 && S_ISFIFO(st.st_mode));

    join(path, sizeof path, dir, "folder.mp4");
    mkdir(path, 0755);
    SW_CHECK(!frame_output_open(&out, path, W, H, 30.0, 2, &err));
    CHECK_CONTAINS(err.message, "it is a folder, not a regular file");
    SW_CHECK(lstat(path, &st) == 0 && S_ISDIR(st.st_mode));

    join(path, sizeof path, dir, "sock.gif");
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    if (fd >= 0 && strlen(path) < sizeof address.sun_path) {
        memcpy(address.sun_path, path, strlen(path) + 1);
        SW_CHECK(bind(fd, (struct sockaddr*)&address, sizeof address) == 0);
        SW_CHECK(!frame_output_open(&out, path, W, H, 30.0, 2, &err));
        CHECK_CONTAINS(err.message, "it is a socket, not a regular file");
        SW_CHECK(lstat(path, &st) == 0 && S_ISSOCK(st.st_mode));
    }
    if (fd >= 0) close(fd);

    if (geteuid() == 0) { /* mknod needs root; the node is this test's own, never /dev/null */
        join(path, sizeof path, dir, "null.png");
        SW_CHECK(mknod(path, S_IFCHR | 0666, makedev(1, 3)) == 0);
        SW_CHECK(!frame_output_open(&out, path, W, H, 30.0, 1, &err));
        CHECK_CONTAINS(err.message, "it is a character device, not a regular file");
        SW_CHECK(lstat(path, &st) == 0 && S_ISCHR(st.st_mode));
        /* through a link */
        join(other, sizeof other, dir, "to-null.png");
        SW_CHECK(symlink("null.png", other) == 0);
        SW_CHECK(!frame_output_open(&out, other, W, H, 30.0, 1, &err));
        CHECK_CONTAINS(err.message, "which is a character device");
        SW_CHECK(lstat(path, &st) == 0 && S_ISCHR(st.st_mode));
        unlink(other);
        unlink(path);
    } else {
        fprintf(stderr, "  (not root: the device node case is not tried)\n");
    }

    /* A sequence whose third frame would land on a FIFO: refused before
       the first frame is written. */
    join(path, sizeof path, dir, "f_002.png");
    SW_CHECK(mkfifo(path, 0644) == 0);
    join(path, sizeof path, dir, "f_%03d.png");
    SW_CHECK(!frame_output_open(&out, path, W, H, 30.0, 5, &err));
    CHECK_CONTAINS(err.message, "f_002.png': it is a FIFO");
    CHECK_DIR(dir, "f_002.png|fifo.png|folder.mp4|sock.gif");

    /* Through a link: the target is replaced, the link stays, the mode is kept. */
    join(path, sizeof path, dir, "real.png");
    FILE* f = fopen(path, "w");
    if (f) {
        fputs("old", f);
        fclose(f);
    }
    chmod(path, 0640);
    join(other, sizeof other, dir, "link.png");
    SW_CHECK(symlink("real.png", other) == 0);
    SW_CHECK(frame_output_open(&out, other, W, H, 30.0, 1, &err));
    if (out) {
        SW_CHECK(frame_output_write(out, rgba, &err));
        SW_CHECK(frame_output_finish(out, &err));
    }
    SW_CHECK(lstat(other, &st) == 0 && S_ISLNK(st.st_mode));
    SW_CHECK(stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 8);
    SW_CHECK_EQ_INT(st.st_mode & 07777, 0640);
    int w = 0, h = 0, c = 0;
    stbi_uc* back = stbi_load(path, &w, &h, &c, 4);
    SW_CHECK(back && w == W && h == H && memcmp(back, rgba, sizeof rgba) == 0);
    stbi_image_free(back);
    remove_dir(dir);
}

/* ---- verifying videos ------------------------------------------------------------- */

static void write_bytes(const char* path, const void* data, size_t size) {
    FILE* f = fopen(path, "wb");
    if (!f) return;
    if (size) fwrite(data, 1, size, f);
    fclose(f);
}

/* A box: 32-bit big-endian size, type, payload of `payload` zero bytes
   (size_field overrides the size written when ≥ 0). Returns bytes added. */
static size_t put_box(uint8_t* out, const char* type, size_t payload, long long size_field) {
    uint32_t size = size_field >= 0 ? (uint32_t)size_field : (uint32_t)(8 + payload);
    out[0] = (uint8_t)(size >> 24), out[1] = (uint8_t)(size >> 16), out[2] = (uint8_t)(size >> 8);
    out[3] = (uint8_t)size;
    memcpy(out + 4, type, 4);
    memset(out + 8, 0, payload);
    return 8 + payload;
}

/* Hand-made MP4 box layouts: what tiles the file with ftyp first, mdat
   and moov passes; a missing moov or mdat, a box running past the end,
   bytes after the last box, an impossible size, or another first box
   fail, each with its own words. */
static void test_verify_mp4_boxes(void) {
    char dir[512], path[1024];
    make_temp_dir(dir, sizeof dir);
    join(path, sizeof path, dir, "v.mp4");
    uint8_t b[256];
    size_t n;
    tool_error err = {{0}};

    n = put_box(b, "ftyp", 8, -1);
    n += put_box(b + n, "mdat", 20, -1);
    n += put_box(b + n, "moov", 12, -1);
    write_bytes(path, b, n);
    SW_CHECK(frame_output_verify(path, FRAME_OUTPUT_MP4, &err));

    /* faststart order, a 64-bit size (size field 1) and a last box of size 0 (to the end) */
    n = put_box(b, "ftyp", 8, -1);
    n += put_box(b + n, "moov", 12, -1);
    n += put_box(b + n, "free", 0, 1); /* size 1: the 64-bit size follows */
    memset(b + n, 0, 8);
    b[n + 7] = 16 + 4;
    memset(b + n + 8, 0, 4);
    n += 12;
    n += put_box(b + n, "mdat", 30, 0);
    write_bytes(path, b, n);
    SW_CHECK(frame_output_verify(path, FRAME_OUTPUT_MP4, &err));
    if (err.message[0]) fprintf(stderr, "  %s\n", err.message);

    n = put_box(b, "ftyp", 8, -1);
    n += put_box(b + n, "mdat", 20, -1);
    write_bytes(path, b, n);
    SW_CHECK(!frame_output_verify(path, FRAME_OUTPUT_MP4, &err));
    CHECK_CONTAINS(err.message, "no 'moov' box");

    n = put_box(b, "ftyp", 8, -1);
    n += put_box(b + n, "moov", 8, -1);
    write_bytes(path, b, n);
    SW_CHECK(!frame_output_verify(path, FRAME_OUTPUT_MP4, &err));
    CHECK_CONTAINS(err.message, "no 'mdat' box");

    n = put_box(b, "ftyp", 8, -1);
    n += put_box(b + n, "moov", 8, -1);
    n += put_box(b + n, "mdat", 20, 1000); /* says 1000 bytes, has 28 */
    write_bytes(path, b, n);
    SW_CHECK(!frame_output_verify(path, FRAME_OUTPUT_MP4, &err));
    CHECK_CONTAINS(err.message, "the MP4 is truncated: the box 'mdat' at byte 32 should be 1000 bytes long");

    n = put_box(b, "ftyp", 8, -1);
    n += put_box(b + n, "mdat", 8, -1);
    n += put_box(b + n, "moov", 8, -1);
    memcpy(b + n, "\0\0\0", 3); /* three stray bytes: not even a box header */
    write_bytes(path, b, n + 3);
    SW_CHECK(!frame_output_verify(path, FRAME_OUTPUT_MP4, &err));
    CHECK_CONTAINS(err.message, "too few for a box header");

    n = put_box(b, "ftyp", 8, -1);
    n += put_box(b + n, "moov", 8, 4); /* size 4: smaller than its own header */
    write_bytes(path, b, n);
    SW_CHECK(!frame_output_verify(path, FRAME_OUTPUT_MP4, &err));
    CHECK_CONTAINS(err.message, "impossible size 4");

    n = put_box(b, "mdat", 8, -1);
    n += put_box(b + n, "moov", 8, -1);
    write_bytes(path, b, n);
    SW_CHECK(!frame_output_verify(path, FRAME_OUTPUT_MP4, &err));
    CHECK_CONTAINS(err.message, "not an MP4");

    write_bytes(path, "", 0);
    SW_CHECK(!frame_output_verify(path, FRAME_OUTPUT_MP4, &err));
    CHECK_CONTAINS(err.message, "wrote nothing");

    /* GIF: header and trailer. */
    join(path, sizeof path, dir, "v.gif");
    static const uint8_t gif[] = {'G', 'I', 'F', '8', '9', 'a', 1, 0, 1, 0, 0, 0, 0, 0x3B};
    write_bytes(path, gif, sizeof gif);
    SW_CHECK(frame_output_verify(path, FRAME_OUTPUT_GIF, &err));
    write_bytes(path, gif, sizeof gif - 1);
    SW_CHECK(!frame_output_verify(path, FRAME_OUTPUT_GIF, &err));
    CHECK_CONTAINS(err.message, "truncated");
    uint8_t bad[sizeof gif];
    memcpy(bad, gif, sizeof gif);
    bad[13] = 0;
    write_bytes(path, bad, sizeof bad);
    SW_CHECK(!frame_output_verify(path, FRAME_OUTPUT_GIF, &err));
    CHECK_CONTAINS(err.message, "trailer byte 0x3B");
    bad[0] = 'J';
    bad[13] = 0x3B;
    write_bytes(path, bad, sizeof bad);
    SW_CHECK(!frame_output_verify(path, FRAME_OUTPUT_GIF, &err));
    CHECK_CONTAINS(err.message, "not a GIF");
    remove_dir(dir);
}

/* What ffmpeg really writes passes, and no shorter prefix of it does
   (cut anywhere, as a full disk would): each is refused. (A GIF cut just
   after a 0x3B byte inside its image data looks whole to a header and
   trailer check; those cuts are not tried.) */
static void test_verify_real_videos(void) {
    if (!ffmpeg_present()) SW_SKIP("ffmpeg not on PATH: real MP4 and GIF files not checked");
    char dir[512], path[1024];
    make_temp_dir(dir, sizeof dir);
    const char* names[] = {"real.mp4", "real.gif"};
    const frame_output_kind kinds[] = {FRAME_OUTPUT_MP4, FRAME_OUTPUT_GIF};
    for (int k = 0; k < 2; k++) {
        join(path, sizeof path, dir, names[k]);
        tool_error err = {{0}};
        if (!write_clip(path, 32, 24, &err)) {
            fprintf(stderr, "  %s\n", err.message);
            SW_CHECK(!"clip written");
            continue;
        }
        SW_CHECK(frame_output_verify(path, kinds[k], &err));
        struct stat st;
        SW_CHECK(stat(path, &st) == 0);
        uint8_t* data = malloc((size_t)st.st_size);
        FILE* f = fopen(path, "rb");
        bool read_back = data && f && fread(data, 1, (size_t)st.st_size, f) == (size_t)st.st_size;
        if (f) fclose(f);
        SW_CHECK(read_back);
        int accepted = 0;
        for (off_t size = st.st_size - 1; size >= 0 && read_back; size--) {
            if (kinds[k] == FRAME_OUTPUT_GIF && size > 0 && data[size - 1] == 0x3B) continue;
            SW_CHECK(truncate(path, size) == 0);
            if (frame_output_verify(path, kinds[k], &err)) {
                if (accepted++ == 0) fprintf(stderr, "  %s cut to %lld bytes passed\n", names[k], (long long)size);
            }
        }
        SW_CHECK_EQ_INT(accepted, 0);
        free(data);
    }
    remove_dir(dir);
}

/* ---- signals ------------------------------------------------------------------------ */

/* In a child with the cleanup handler installed (as `sinew` does), a
   signal in the middle of a sequence written into folders that did not
   exist ends the child killed by that signal, and leaves no frame, no
   temporary and no folder. */
static void test_signal_cleanup(void) {
    enum { W = 8, H = 6 };
    char dir[512], path[1024];
    make_temp_dir(dir, sizeof dir);
    join(path, sizeof path, dir, "new/deeper/f_%02d.png");
    const int signals[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
    for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++) {
        fflush(NULL);
        pid_t pid = fork();
        if (pid == 0) {
            tool_signals_install();
            uint8_t rgba[W * H * 4];
            fill_random(rgba, sizeof rgba, 4);
            tool_error err;
            frame_output* out = NULL;
            if (!frame_output_open(&out, path, W, H, 30.0, 10, &err)) _exit(3);
            for (int f = 0; f < 4; f++)
                if (!frame_output_write(out, rgba, &err)) _exit(4);
            raise(signals[i]);
            _exit(5); /* not reached: the handler re-raises */
        }
        int status = 0;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        SW_CHECK(WIFSIGNALED(status) && WTERMSIG(status) == signals[i]);
        if (!WIFSIGNALED(status)) fprintf(stderr, "  exit status %d\n", WEXITSTATUS(status));
        CHECK_DIR(dir, "");
    }
    remove_dir(dir);
}

int main(void) {
    SW_RUN(test_kind_of);
    SW_RUN(test_png_round_trip);
    SW_RUN(test_png_refuses_several_frames);
    SW_RUN(test_sequence);
    SW_RUN(test_abort_leaves_nothing);
    SW_RUN(test_unwritable_directory);
    SW_RUN(test_missing_folders);
    SW_RUN(test_frame_path);
    SW_RUN(test_progress_format);
    SW_RUN(test_progress_line_format);
    SW_RUN(test_progress_bar);
    SW_RUN(test_mp4_and_gif);
    SW_RUN(test_video_abort);
    SW_RUN(test_ffmpeg_failures);
    SW_RUN(test_hostile_targets);
    SW_RUN(test_verify_mp4_boxes);
    SW_RUN(test_verify_real_videos);
    SW_RUN(test_signal_cleanup);
    return sw_test_finish();
}
