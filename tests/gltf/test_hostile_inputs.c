/* Hostile inputs, one table: files that are not files (FIFOs, devices,
   folders, sockets), links out of the model's folder, strings that C would
   cut short or that break a line, JSON nested past cJSON's limit, and
   declarations of gigabytes in a few hundred bytes. Each row names the
   input, the result code and a piece of the message it must get.

   Every row runs in a child process (fork), so that a protection that
   fails shows as a failed row, not as a hung or swapping test:
   - an alarm ends a child that blocks (a FIFO opened without O_NONBLOCK
     waits for a writer forever);
   - the memory rows ("bounded") run under RLIMIT_AS (current size +
     512 MiB; not under ASan, which reserves terabytes of address space),
     so an allocation of what the file declares fails the row instead of
     the machine, and their time and the growth of their peak resident
     size (VmHWM, reset through /proc/self/clear_refs; getrusage where
     that is not there) are bounded;
   - under ASan, LeakSanitizer runs in the child after the row (the child
     leaves through _exit, which skips the check at exit).

   The FIFOs, links, device node and socket are made in a temporary folder
   by the test; the plain files are in tests/data/hostile/ (written by
   make_hostile_files.py there). */
#define _XOPEN_SOURCE 700 /* mkdtemp, mkfifo, mknod, symlink */

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "sinew/gltf.h"
#include "sinew/import.h"

#if defined(__SANITIZE_ADDRESS__)
#define SW_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SW_TEST_ASAN 1
#endif
#endif
#ifndef SW_TEST_ASAN
#define SW_TEST_ASAN 0
#endif
#if SW_TEST_ASAN
#include <sanitizer/lsan_interface.h>
#endif

enum {
    ROW_SECONDS = 5,              /* a child still running after this blocked */
    BOUND_GROWTH_KIB = 64 << 10,  /* memory rows: peak resident growth (64 MiB) */
    LIMIT_HEADROOM = 512 << 20,   /* memory rows: RLIMIT_AS above the current size */
};
static const double bound_seconds = 2.0; /* memory rows: wall time (milliseconds expected) */

/* ---- the table ---------------------------------------------------------------------- */

typedef enum { AT_LOAD, AT_DECODE } stage;

typedef struct row {
    const char* what;
    const char* model;      /* "tmp:NAME" in the temporary folder, "data:NAME" in tests/data/hostile/ */
    bool allow_outside;
    size_t max_memory;      /* 0: the default (4 GiB) */
    stage stage;            /* AT_DECODE: the load succeeds, then images[0] is decoded */
    sw_result expect;
    const char* text;       /* a piece of the message ("" for SW_OK) */
    bool bounded;           /* a memory row: time and peak memory bounded */
    const char* needs;      /* a file in the temporary folder the row needs (else skipped), or NULL */
} row;

#define OUTSIDE_HINT "(allowed only with allow_outside_paths, --allow-outside-paths on the command line)"

static const row rows[] = {
    /* files that are not regular files: refused at once, naming what they are */
    {.what = "FIFO as the model", .model = "tmp:fifo.glb", .expect = SW_ERR_IO,
     .text = "fifo.glb: not a regular file (a FIFO)"},
    {.what = "FIFO as a buffer", .model = "tmp:fifo_bin.gltf", .expect = SW_ERR_IO,
     .text = "fifo_bin.gltf: buffers[0]: 'fifo.bin': not a regular file (a FIFO)"},
    {.what = "FIFO as an image (decoded)", .model = "tmp:fifo_png.gltf", .stage = AT_DECODE, .expect = SW_ERR_IO,
     .text = "images[0]: 'fifo.png': not a regular file (a FIFO)"},
    {.what = "character device (mknod 1,5: /dev/zero) as a buffer", .model = "tmp:zero_bin.gltf",
     .expect = SW_ERR_IO, .text = "buffers[0]: 'zero.bin': not a regular file (a character device)",
     .needs = "zero.bin"},
    {.what = "/dev/zero through a link, outside paths allowed", .model = "tmp:devzero.gltf", .allow_outside = true,
     .expect = SW_ERR_IO, .text = "buffers[0]: 'devzero.bin': not a regular file (a character device)"},
    {.what = "directory as a buffer", .model = "tmp:dir_bin.gltf", .expect = SW_ERR_IO,
     .text = "buffers[0]: 'dir.bin': not a regular file (a directory)"},
    {.what = "socket as a buffer", .model = "tmp:sock_bin.gltf", .expect = SW_ERR_IO,
     .text = "buffers[0]: 'sock.bin': not a regular file (a socket)", .needs = "sock.bin"},
    {.what = "missing buffer file", .model = "tmp:missing.gltf", .expect = SW_ERR_IO,
     .text = "missing.gltf: buffers[0]: 'nothere.bin': cannot open (No such file or directory)"},

    /* where a URI leads: realpath inside the model's folder */
    {.what = "symlink out of the folder", .model = "tmp:escape.gltf", .expect = SW_ERR_INVALID_DATA,
     .text = "escape.gltf: buffers[0].uri: 'escape.bin' leads outside the asset's folder through a symbolic link "
             OUTSIDE_HINT},
    {.what = "/dev/zero through a link", .model = "tmp:devzero.gltf", .expect = SW_ERR_INVALID_DATA,
     .text = "'devzero.bin' leads outside the asset's folder through a symbolic link"},
    {.what = "linked folder leading out", .model = "tmp:subdir.gltf", .expect = SW_ERR_INVALID_DATA,
     .text = "'sub/secret.bin' leads outside the asset's folder through a symbolic link"},
    {.what = "'..' climbing out", .model = "tmp:updot.gltf", .expect = SW_ERR_INVALID_DATA,
     .text = "buffers[0].uri: '../out/secret.bin' leaves the asset's folder " OUTSIDE_HINT},
    {.what = "symlink inside the folder", .model = "tmp:inside.gltf", .expect = SW_OK, .text = ""},
    {.what = "allow_outside_paths lets the link out", .model = "tmp:escape.gltf", .allow_outside = true,
     .expect = SW_OK, .text = ""},
    {.what = "image linked out of the folder (decoded)", .model = "tmp:escape_png.gltf", .stage = AT_DECODE,
     .expect = SW_ERR_INVALID_DATA,
     .text = "images[0]: 'escape.png' leads outside the asset's folder through a symbolic link"},

    /* strings: NUL (cJSON would cut them short) and control characters */
    {.what = "uri with \\u0000", .model = "data:uri_nul.gltf", .expect = SW_ERR_INVALID_DATA,
     .text = "uri_nul.gltf: buffers[0].uri: holds a NUL character (\\u0000 at byte 288 of the JSON)"},
    {.what = "uri with a raw 0 byte", .model = "data:uri_raw_nul.gltf", .expect = SW_ERR_INVALID_DATA,
     .text = "uri_raw_nul.gltf: buffers[0].uri: holds a NUL character (a 0 byte at byte 288 of the JSON)"},
    {.what = "key with \\u0000 (read as \"uri\")", .model = "data:key_nul.gltf", .expect = SW_ERR_INVALID_DATA,
     .text = "key_nul.gltf: buffers[0]: the key \"uri\\u0000 (not the uri)\" holds a NUL character"},
    {.what = "name with \\u0000", .model = "data:name_nul.gltf", .expect = SW_ERR_INVALID_DATA,
     .text = "buffers[0].name: holds a NUL character"},
    {.what = "an escaped backslash before u0000 is no NUL", .model = "data:not_nul.gltf", .expect = SW_OK,
     .text = ""},
    {.what = "uri with \\n", .model = "data:uri_newline.gltf", .expect = SW_ERR_INVALID_DATA,
     .text = "buffers[0].uri: contains a control character (0x0a at byte 1)"},
    {.what = "uri with %0A", .model = "data:uri_escaped_newline.gltf", .expect = SW_ERR_INVALID_DATA,
     .text = "buffers[0].uri: 'x%0A.bin' contains a control character (0x0a at byte 1) once %-escapes are decoded"},
    {.what = "data: uri with DEL", .model = "data:uri_delete.gltf", .expect = SW_ERR_INVALID_DATA,
     .text = "buffers[0].uri: contains a control character (0x7f at byte 37)"},

    /* nesting */
    {.what = "JSON nested 1001 deep", .model = "data:deep_1001.gltf", .expect = SW_ERR_INVALID_DATA,
     .text = "deep_1001.gltf: JSON nested deeper than 1000 levels (at byte 1035)"},

    /* declared counts: refused from the declarations, in milliseconds */
    {.what = "300M zero positions (no bufferView) in 300 bytes", .model = "data:position_300m_no_view.glb",
     .expect = SW_ERR_UNSUPPORTED, .bounded = true,
     .text = "meshes[0].primitives[0].attributes.POSITION: accessors[0]: 300000000 vertices (3600000000 bytes "
             "decoded), but no attribute of that count has a bufferView"},
    {.what = "3e8 zero key times (no bufferView)", .model = "data:keys_300m_no_view.glb",
     .expect = SW_ERR_INVALID_DATA, .bounded = true,
     .text = "animations[0].samplers[0].input: accessors[0]: 300000000 key times (1200000000 bytes decoded) "
             "without a bufferView: zeros but for 0 sparse values, so at most 1 can increase strictly"},
    {.what = "3e8 zero indices (no bufferView)", .model = "data:indices_300m_no_view.gltf",
     .expect = SW_ERR_UNSUPPORTED, .bounded = true,
     .text = "meshes[0].primitives[0].indices: accessors[1]: 300000000 indices (1200000000 bytes decoded)"},
    {.what = "5e7 inverse bind matrices for 1 joint: 1 decoded", .model = "data:ibm_50m_no_view.gltf",
     .expect = SW_ERR_INVALID_DATA, .bounded = true, .text = "skins[0].inverseBindMatrices[0]: not an affine matrix"},
    {.what = "zero positions backed by their sparse values", .model = "tmp:sparse_ok.gltf", .expect = SW_OK,
     .text = "", .bounded = true},
    {.what = "one vertex more than the sparse values back", .model = "tmp:sparse_over.gltf",
     .expect = SW_ERR_UNSUPPORTED, .bounded = true,
     .text = "accessors[0]: 7 vertices (84 bytes decoded), but no attribute of that count has a bufferView, and "
             "their sparse values back at most 6 of them"},
    {.what = "one accessor in 20000 primitives, over max_memory", .model = "tmp:fanout.gltf",
     .max_memory = (size_t)1 << 30, .expect = SW_ERR_OUT_OF_MEMORY, .bounded = true,
     .text = "accessors[0] decodes to 120000 bytes, all arrays to 2400000000: more than options.max_memory allows ("},
    {.what = "4M JSON values, over max_memory before cJSON runs", .model = "tmp:json_items.gltf",
     .max_memory = (size_t)32 << 20, .expect = SW_ERR_OUT_OF_MEMORY, .bounded = true,
     .text = "json_items.gltf: needs more memory than options.max_memory allows ("},
    {.what = "1 GiB buffer file, byteLength 12: 12 bytes read", .model = "tmp:big.gltf", .expect = SW_OK,
     .text = "", .bounded = true, .needs = "big.bin"},
};

/* ---- the inputs ------------------------------------------------------------------------- */

static char root[64], model_dir[96], data_dir[1024];

static void data_folder(void) {
#ifdef SW_TEST_DATA_DIR
    snprintf(data_dir, sizeof data_dir, "%s/hostile", SW_TEST_DATA_DIR);
#else
    /* tests/gltf/<this file> -> tests/data/hostile (CMake compiles with absolute paths) */
    const char* slash = strrchr(__FILE__, '/');
    int n = slash ? (int)(slash - __FILE__) : 1;
    snprintf(data_dir, sizeof data_dir, "%.*s/../data/hostile", n, slash ? __FILE__ : ".");
#endif
}

static void write_file(const char* name, const void* data, size_t size) {
    char path[256];
    snprintf(path, sizeof path, "%s/%s", model_dir, name);
    FILE* f = fopen(path, "wb");
    SW_CHECK(f != NULL);
    if (!f) return;
    SW_CHECK(fwrite(data, 1, size, f) == size);
    fclose(f);
}

static void write_text(const char* name, const char* format, ...) {
    va_list args;
    va_start(args, format);
    int n = vsnprintf(NULL, 0, format, args);
    va_end(args);
    char* text = malloc((size_t)n + 1);
    va_start(args, format);
    vsnprintf(text, (size_t)n + 1, format, args);
    va_end(args);
    write_file(name, text, (size_t)n);
    free(text);
}

/* A model whose one 12-byte buffer is the file `uri`. */
static void buffer_model(const char* name, const char* uri) {
    write_text(name,
               "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":12,\"uri\":\"%s\"}],"
               "\"bufferViews\":[{\"buffer\":0,\"byteLength\":12}],\"accessors\":[{\"bufferView\":0,"
               "\"componentType\":5126,\"count\":1,\"type\":\"VEC3\"}],"
               "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0}}]}]}",
               uri);
}

static void at(char* out, size_t size, const char* dir, const char* name) { snprintf(out, size, "%s/%s", dir, name); }

/* A model whose POSITION is `count` zeros without a bufferView, with one
   sparse value (backing 2 × 3 vertices). */
static void sparse_model(const char* name, int count) {
    write_text(name,
               "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":16,\"uri\":"
               "\"data:application/octet-stream;base64,AAAAAAAAgD8AAAAAAAAAAA==\"}],"
               "\"bufferViews\":[{\"buffer\":0,\"byteLength\":4},{\"buffer\":0,\"byteOffset\":4,\"byteLength\":12}],"
               "\"accessors\":[{\"componentType\":5126,\"count\":%d,\"type\":\"VEC3\",\"sparse\":{\"count\":1,"
               "\"indices\":{\"bufferView\":0,\"componentType\":5125},\"values\":{\"bufferView\":1}}}],"
               "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0},\"mode\":0}]}]}",
               count);
}

/* Everything the tmp: rows load, in root/m, with root/out beside it. */
static bool make_inputs(void) {
    snprintf(root, sizeof root, "/tmp/sinew_hostile_inputs_XXXXXX");
    if (!mkdtemp(root)) return false;
    snprintf(model_dir, sizeof model_dir, "%s/m", root);
    char out_dir[128], path[256];
    snprintf(out_dir, sizeof out_dir, "%s/out", root);
    if (mkdir(model_dir, 0700) != 0 || mkdir(out_dir, 0700) != 0) return false;
    const float x[3] = {1, 2, 3};
    write_file("x.bin", x, sizeof x);
    snprintf(path, sizeof path, "%s/secret.bin", out_dir);
    FILE* f = fopen(path, "wb");
    if (f) {
        fwrite(x, 1, sizeof x, f);
        fclose(f);
    }

    const char* fifos[] = {"fifo.glb", "fifo.bin", "fifo.png"};
    for (size_t i = 0; i < 3; i++) {
        at(path, sizeof path, model_dir, fifos[i]);
        SW_CHECK(mkfifo(path, 0600) == 0);
    }
    at(path, sizeof path, model_dir, "dir.bin");
    SW_CHECK(mkdir(path, 0700) == 0);
    /* a device node needs privileges (and a file system that allows it) */
    at(path, sizeof path, model_dir, "zero.bin");
    if (mknod(path, S_IFCHR | 0600, makedev(1, 5)) != 0)
        fprintf(stderr, "  note: no device node (mknod: %s): its row is skipped\n", strerror(errno));
    /* a socket: bound, so that the file exists */
    at(path, sizeof path, model_dir, "sock.bin");
    int s = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    if (s >= 0 && strlen(path) < sizeof address.sun_path) {
        memcpy(address.sun_path, path, strlen(path) + 1);
        if (bind(s, (const struct sockaddr*)&address, sizeof address) != 0)
            fprintf(stderr, "  note: no socket (bind: %s): its row is skipped\n", strerror(errno));
    }
    if (s >= 0) close(s);

    const struct { const char* name; const char* target; } links[] = {
        {"inside.bin", "x.bin"},         {"escape.bin", "../out/secret.bin"}, {"devzero.bin", "/dev/zero"},
        {"sub", "../out"},               {"escape.png", "../out/secret.bin"},
    };
    for (size_t i = 0; i < sizeof links / sizeof links[0]; i++) {
        at(path, sizeof path, model_dir, links[i].name);
        SW_CHECK(symlink(links[i].target, path) == 0);
    }
    /* 1 GiB without a block on disk */
    at(path, sizeof path, model_dir, "big.bin");
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0 || ftruncate(fd, (off_t)1 << 30) != 0) {
        fprintf(stderr, "  note: no 1 GiB sparse file (%s): its row is skipped\n", strerror(errno));
        remove(path);
    }
    if (fd >= 0) close(fd);

    buffer_model("fifo_bin.gltf", "fifo.bin");
    buffer_model("dir_bin.gltf", "dir.bin");
    buffer_model("zero_bin.gltf", "zero.bin");
    buffer_model("devzero.gltf", "devzero.bin");
    buffer_model("sock_bin.gltf", "sock.bin");
    buffer_model("missing.gltf", "nothere.bin");
    buffer_model("escape.gltf", "escape.bin");
    buffer_model("inside.gltf", "inside.bin");
    buffer_model("subdir.gltf", "sub/secret.bin");
    buffer_model("updot.gltf", "../out/secret.bin");
    buffer_model("big.gltf", "big.bin");
    write_text("fifo_png.gltf", "{\"asset\":{\"version\":\"2.0\"},\"images\":[{\"uri\":\"fifo.png\"}]}");
    write_text("escape_png.gltf", "{\"asset\":{\"version\":\"2.0\"},\"images\":[{\"uri\":\"escape.png\"}]}");
    sparse_model("sparse_ok.gltf", 6);
    sparse_model("sparse_over.gltf", 7);

    /* 10 000 vertices (120 000 bytes) in one accessor that 20 000 primitives
       use: 2.4 GB of positions from 160 KB of buffer and 1 MB of JSON */
    enum { VERTICES = 10000, PRIMITIVES = 20000 };
    size_t bytes = (size_t)VERTICES * 12, size = 0;
    char* text = malloc(bytes * 2 + (size_t)PRIMITIVES * 48 + 512);
    size += (size_t)sprintf(text + size,
                            "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":%zu,\"uri\":"
                            "\"data:application/octet-stream;base64,",
                            bytes);
    for (size_t i = 0; i < bytes / 3 * 4; i++) text[size++] = 'A';
    size += (size_t)sprintf(text + size,
                            "\"}],\"bufferViews\":[{\"buffer\":0,\"byteLength\":%zu}],\"accessors\":[{\"bufferView\":0,"
                            "\"componentType\":5126,\"count\":%d,\"type\":\"VEC3\"}],\"meshes\":[{\"primitives\":[",
                            bytes, VERTICES);
    for (int i = 0; i < PRIMITIVES; i++)
        size += (size_t)sprintf(text + size, "%s{\"attributes\":{\"POSITION\":0},\"mode\":0}", i ? "," : "");
    size += (size_t)sprintf(text + size, "]}]}");
    write_file("fanout.gltf", text, size);
    free(text);

    /* 4 million numbers in extras: 8 MB of text, 256 MB or more of cJSON items */
    enum { VALUES = 4 << 20 };
    text = malloc((size_t)VALUES * 2 + 128);
    size = (size_t)sprintf(text, "{\"asset\":{\"version\":\"2.0\"},\"extras\":[");
    for (int i = 0; i < VALUES; i++) {
        text[size++] = '0';
        text[size++] = ',';
    }
    size--; /* the last ',' */
    size += (size_t)sprintf(text + size, "]}");
    write_file("json_items.gltf", text, size);
    free(text);
    return true;
}

static int remove_one(const char* path, const struct stat* st, int type, struct FTW* ftw) {
    (void)st, (void)type, (void)ftw;
    return remove(path);
}

static void remove_inputs(void) {
    /* depth first, links not followed */
    if (root[0] && nftw(root, remove_one, 16, FTW_DEPTH | FTW_PHYS) != 0)
        fprintf(stderr, "  note: could not remove %s\n", root);
}

/* ---- one row, in a child process ----------------------------------------------------------------- */

typedef struct outcome {
    sw_result result;
    char message[256];
    double seconds;
    long growth_kib;        /* peak resident size during the row minus the size before it */
    bool limited;           /* RLIMIT_AS was set */
    bool leaked;            /* ASan builds: LeakSanitizer found a leak after the row */
} outcome;

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* VmHWM and VmRSS (KiB) from /proc/self/status. */
static bool resident_kib(long* peak, long* current) {
    FILE* f = fopen("/proc/self/status", "r");
    if (!f) return false;
    char line[256];
    int found = 0;
    while (fgets(line, sizeof line, f)) {
        if (sscanf(line, "VmHWM: %ld kB", peak) == 1) found |= 1;
        if (sscanf(line, "VmRSS: %ld kB", current) == 1) found |= 2;
    }
    fclose(f);
    return found == 3;
}

static size_t address_space_bytes(void) {
    FILE* f = fopen("/proc/self/statm", "r");
    unsigned long pages = 0;
    if (f) {
        if (fscanf(f, "%lu", &pages) != 1) pages = 0;
        fclose(f);
    }
    return (size_t)pages * (size_t)sysconf(_SC_PAGESIZE);
}

static void run_row(const row* w, const char* path, outcome* o) {
    sw_model* model = NULL;
    sw_diag d = {0};
    sw_gltf_options options = {.allow_outside_paths = w->allow_outside, .max_memory = w->max_memory};
    o->result = sw_gltf_load_file(path, &options, &model, &d);
    if (o->result == SW_OK && w->stage == AT_DECODE) {
        uint8_t* pixels = NULL;
        int width, height;
        o->result = sw_model_decode_image(model, 0, &pixels, &width, &height, &d);
        sw_model_image_free(pixels);
    }
    snprintf(o->message, sizeof o->message, "%s", o->result == SW_OK ? "" : d.message);
    sw_model_free(model);
}

static bool run_isolated(const row* w, const char* path, outcome* o, char* failure, size_t failure_size) {
    int fds[2];
    if (pipe(fds) != 0) {
        snprintf(failure, failure_size, "pipe: %s", strerror(errno));
        return false;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(failure, failure_size, "fork: %s", strerror(errno));
        close(fds[0]);
        close(fds[1]);
        return false;
    }
    if (pid == 0) {
        close(fds[0]);
        outcome mine = {0};
        alarm(ROW_SECONDS);
        if (w->bounded && !SW_TEST_ASAN) {
            size_t limit = address_space_bytes() + (size_t)LIMIT_HEADROOM;
            struct rlimit l = {limit, limit};
            mine.limited = setrlimit(RLIMIT_AS, &l) == 0;
        }
        /* "5" resets VmHWM to the current size (Linux 4.0+) */
        int clear = open("/proc/self/clear_refs", O_WRONLY);
        bool reset = clear >= 0 && write(clear, "5", 1) == 1;
        if (clear >= 0) close(clear);
        long peak0 = 0, current0 = 0, peak1 = 0, current1 = 0;
        struct rusage before, after;
        getrusage(RUSAGE_SELF, &before);
        bool proc = resident_kib(&peak0, &current0);
        double t0 = now_s();
        run_row(w, path, &mine);
        mine.seconds = now_s() - t0;
        getrusage(RUSAGE_SELF, &after);
        if (reset && proc && resident_kib(&peak1, &current1)) mine.growth_kib = peak1 - current0;
        else mine.growth_kib = after.ru_maxrss - before.ru_maxrss;
#if SW_TEST_ASAN
        /* _exit skips the leak check at exit: run it here */
        mine.leaked = __lsan_do_recoverable_leak_check() != 0;
#endif
        ssize_t n = write(fds[1], &mine, sizeof mine);
        _exit(n == (ssize_t)sizeof mine ? 0 : 1);
    }
    close(fds[1]);
    size_t got = 0;
    while (got < sizeof *o) {
        ssize_t n = read(fds[0], (char*)o + got, sizeof *o - got);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        got += (size_t)n;
    }
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFSIGNALED(status)) {
        snprintf(failure, failure_size, "the child was killed by signal %d%s", WTERMSIG(status),
                 WTERMSIG(status) == SIGALRM ? " (blocked for more than 5 s)" : "");
        return false;
    }
    if (got != sizeof *o) {
        snprintf(failure, failure_size, "the child reported nothing (exit status %d)", WEXITSTATUS(status));
        return false;
    }
    return true;
}

static void test_rows(void) {
    data_folder();
    if (!make_inputs()) {
        remove_inputs();
        SW_SKIP("cannot make the temporary folder");
    }
    int skipped = 0;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const row* w = &rows[i];
        char path[1200], needed[256];
        bool tmp = strncmp(w->model, "tmp:", 4) == 0;
        snprintf(path, sizeof path, "%s/%s", tmp ? model_dir : data_dir, w->model + (tmp ? 4 : 5));
        struct stat st;
        if (w->needs && (snprintf(needed, sizeof needed, "%s/%s", model_dir, w->needs), lstat(needed, &st) != 0)) {
            fprintf(stderr, "  skip %-52s (no %s here)\n", w->what, w->needs);
            skipped++;
            continue;
        }
        outcome o = {0};
        char failure[160] = "";
        int before = sw__current_failures;
        if (!run_isolated(w, path, &o, failure, sizeof failure)) {
            fprintf(stderr, "  %s: %s\n", w->what, failure);
            SW_CHECK(!"the row ran to its end");
        } else {
            SW_CHECK_EQ_INT(o.result, w->expect);
            SW_CHECK(strstr(o.message, w->text) != NULL);
            SW_CHECK(!strchr(o.message, '\n'));
            SW_CHECK(!o.leaked);
            if (o.result != SW_OK && w->stage == AT_LOAD) {
                /* "<file name>: ..." */
                const char* name = strrchr(path, '/') + 1;
                SW_CHECK(strncmp(o.message, name, strlen(name)) == 0 && o.message[strlen(name)] == ':');
            }
            if (w->bounded) {
                SW_CHECK(o.seconds <= bound_seconds);
                SW_CHECK(o.growth_kib <= BOUND_GROWTH_KIB);
            }
        }
        if (sw__current_failures != before)
            fprintf(stderr, "  FAILED %s\n    expected %s '%s'\n    got      %s '%s'\n", w->what,
                    sw_result_str(w->expect), w->text, sw_result_str(o.result), o.message);
        else if (w->bounded)
            fprintf(stderr, "  ok   %-52s %7.3f ms, peak +%ld KiB%s\n", w->what, o.seconds * 1e3, o.growth_kib,
                    o.limited ? ", under RLIMIT_AS" : "");
        else
            fprintf(stderr, "  ok   %s\n", w->what);
    }
    if (skipped) fprintf(stderr, "  %d rows skipped\n", skipped);
    remove_inputs();
}

int main(void) {
    SW_RUN(test_rows);
    return sw_test_finish();
}
