/* The Assimp import in a child process (assimp_isolate.h).

   libassimp is a large C++ parser that crashes, aborts, hangs and
   allocates gigabytes on small hostile files; sinew cannot fix it, so it
   runs it where its failure cannot take the caller down. The parent
   forks; the child caps its address space and CPU time, closes every
   descriptor but the pipe's, runs the in-process import, writes the
   finished model as a model stream (model_stream.h) or an error record
   and _exits. The parent reads at most a bounded number of bytes until a
   wall-clock deadline, reaps the child, and rebuilds the model from a
   stream it checks byte by byte. docs/import.md has the protocol.

   Threads: fork copies only the calling thread. With glibc, malloc is
   usable in the child (its locks are reset at fork); a lock of another
   library held by another thread at that moment would hang the child,
   which the deadline then kills. */
#define _GNU_SOURCE /* pipe2, syscall */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "assimp_isolate.h"
#include "model_stream.h"
#include "../base/base_internal.h"
#include "../import/file_internal.h"

void (*sw__assimp_child_hook)(int fd) = NULL;

#define SW__ISO_DEFAULT_MAX_FILE ((size_t)256 << 20)
#define SW__ISO_DEFAULT_SECONDS 8.0
/* The error record a child sends instead of a model: magic, result, length, text. */
static const uint8_t sw__iso_error_magic[8] = {'S', 'W', 'E', 'R', 'R', 'O', 'R', 0};

size_t sw__assimp_child_memory(const sw_assimp_options* options) {
    size_t max_file = options && options->max_memory ? options->max_memory : SW__ISO_DEFAULT_MAX_FILE;
    /* Assimp's scene and sinew's model are a few times the file; the
       headroom covers libassimp's own start and small files. */
    size_t headroom = (size_t)512 << 20;
    if (max_file > (SIZE_MAX - headroom) / 4) return SIZE_MAX;
    return max_file * 4 + headroom;
}

double sw__assimp_child_seconds(const sw_assimp_options* options) {
    double s = options ? options->time_limit_s : 0.0;
    if (!(s > 0.0) || !isfinite(s)) return SW__ISO_DEFAULT_SECONDS;
    return s < 1e6 ? s : 1e6; /* about 11 days: the CPU limit stays representable */
}

static double sw__iso_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* ---- the child ---------------------------------------------------------------------------------- */

/* Bytes the process has mapped now (0 when /proc is not there). */
static size_t sw__iso_mapped_bytes(void) {
    int fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    char text[128];
    ssize_t n = read(fd, text, sizeof text - 1);
    close(fd);
    if (n <= 0) return 0;
    text[n] = '\0';
    unsigned long long pages = 0;
    if (sscanf(text, "%llu", &pages) != 1) return 0;
    long page = sysconf(_SC_PAGESIZE);
    return page > 0 && pages < SIZE_MAX / (size_t)page ? (size_t)pages * (size_t)page : 0;
}

static bool sw__iso_write_all(int fd, const void* data, size_t size) {
    const uint8_t* p = data;
    while (size) {
        ssize_t n = write(fd, p, size > ((size_t)1 << 30) ? ((size_t)1 << 30) : size);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        p += n;
        size -= (size_t)n;
    }
    return true;
}

static void sw__iso_send_error(int fd, sw_result result, const char* message) {
    uint32_t code = (uint32_t)result;
    size_t length = strlen(message);
    uint32_t n = (uint32_t)(length < 4096 ? length : 4096);
    uint8_t head[16];
    memcpy(head, sw__iso_error_magic, 8);
    memcpy(head + 8, &code, 4);
    memcpy(head + 12, &n, 4);
    if (sw__iso_write_all(fd, head, sizeof head)) sw__iso_write_all(fd, message, n);
}

/* Everything but the pipe (moved to descriptor 3) closed; stdin and
   stdout on /dev/null so that nothing in the child reads the caller's
   input or writes into its output. stderr stays for sanitizer reports. */
static int sw__iso_child_descriptors(int fd) {
    if (fd != 3) {
        if (dup2(fd, 3) < 0) return -1;
        close(fd);
    }
    int null = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (null >= 0) {
        dup2(null, 0);
        dup2(null, 1);
        if (null > 3) close(null);
    }
#ifdef SYS_close_range
    if (syscall(SYS_close_range, 4u, ~0u, 0u) == 0) return 3;
#endif
    struct rlimit files;
    long last = getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur != RLIM_INFINITY ? (long)files.rlim_cur : 65536;
    if (last > 65536) last = 65536;
    for (long d = 4; d < last; d++) close((int)d);
    return 3;
}

static void sw__iso_child_limits(size_t address_space, double seconds) {
    /* the caller's signal handlers are not the child's: a crash is a crash */
    static const int defaults[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGXCPU, SIGPIPE, SIGTERM, SIGINT};
    for (size_t i = 0; i < sizeof defaults / sizeof defaults[0]; i++) signal(defaults[i], SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    struct rlimit limit;
    if (address_space && getrlimit(RLIMIT_AS, &limit) == 0) {
        rlim_t want = (rlim_t)address_space;
        if (limit.rlim_max != RLIM_INFINITY && want > limit.rlim_max) want = limit.rlim_max;
        limit.rlim_cur = want;
        setrlimit(RLIMIT_AS, &limit);
    }
    if (getrlimit(RLIMIT_CPU, &limit) == 0) {
        rlim_t want = (rlim_t)ceil(seconds) + 1;
        if (limit.rlim_max != RLIM_INFINITY && want > limit.rlim_max) want = limit.rlim_max;
        limit.rlim_cur = want;
        setrlimit(RLIMIT_CPU, &limit);
    }
    struct rlimit no_core = {0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
}

static _Noreturn void sw__iso_child(int fd, size_t address_space, double seconds, const void* data, size_t size,
                                    const char* name, const char* base_dir, const sw_assimp_options* options,
                                    sw__assimp_loader load) {
    fd = sw__iso_child_descriptors(fd);
    sw__iso_child_limits(address_space, seconds);
    if (sw__assimp_child_hook) sw__assimp_child_hook(fd);
    sw_assimp_options inner = options ? *options : (sw_assimp_options){0};
    inner.in_process = true;
    sw_model* model = NULL;
    sw_diag diag;
    memset(&diag, 0, sizeof diag);
    sw_result r = load(data, size, name, base_dir, &inner, &model, &diag);
    if (r != SW_OK) {
        /* Assimp reports a failed C++ allocation as an error text */
        if (strstr(diag.message, "bad_alloc")) r = SW_ERR_OUT_OF_MEMORY;
        sw__iso_send_error(fd, r, diag.message);
        _exit(1);
    }
    uint8_t* stream = NULL;
    size_t stream_size = 0;
    if (sw__model_stream_write(model, &stream, &stream_size) != SW_OK) {
        sw__iso_send_error(fd, SW_ERR_OUT_OF_MEMORY, "out of memory");
        _exit(1);
    }
    _exit(sw__iso_write_all(fd, stream, stream_size) ? 0 : 1);
}

/* ---- the parent --------------------------------------------------------------------------------- */

static const char* sw__iso_signal_name(int sig) {
    switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGILL: return "SIGILL";
    case SIGFPE: return "SIGFPE";
    case SIGABRT: return "SIGABRT";
    case SIGKILL: return "SIGKILL";
    case SIGTERM: return "SIGTERM";
    case SIGPIPE: return "SIGPIPE";
    case SIGTRAP: return "SIGTRAP";
    case SIGXCPU: return "SIGXCPU";
    default: return NULL;
    }
}

/* Waits for the child until the deadline, then kills it. Returns the
   status, or -1 when it cannot be known (SIGCHLD ignored by the caller). */
static int sw__iso_reap(pid_t pid, double deadline, bool* killed, struct rusage* usage) {
    int status = 0;
    for (;;) {
        pid_t got = wait4(pid, &status, WNOHANG, usage);
        if (got == pid) return status;
        if (got < 0 && errno != EINTR) return -1;
        if (got == 0 && sw__iso_now() >= deadline) break;
        if (got == 0) {
            struct timespec pause = {0, 2 * 1000 * 1000};
            nanosleep(&pause, NULL);
        }
    }
    *killed = true;
    kill(pid, SIGKILL);
    for (;;) {
        pid_t got = wait4(pid, &status, 0, usage);
        if (got == pid) return status;
        if (got < 0 && errno != EINTR) return -1;
    }
}

/* The one-line error for a child's error record: its own text, made
   printable, or the memory limit named when it ran out. */
static sw_result sw__iso_child_error(const uint8_t* data, size_t size, const char* label, size_t memory_mb,
                                     sw_diag* diag) {
    uint32_t code = 0, n = 0;
    memcpy(&code, data + 8, 4);
    memcpy(&n, data + 12, 4);
    if (size != 16 + (size_t)n || code == SW_OK || code >= SW_RESULT_COUNT)
        return sw_diag_set(diag, SW_ERR_INVALID_DATA, -1,
                           "%s: the import process sent a malformed error (%zu bytes, code %u)", label, size, code);
    if (code == SW_ERR_OUT_OF_MEMORY)
        return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "%s: Assimp used more than %zu MB reading it", label,
                           memory_mb);
    char line[sizeof diag->message];
    size_t k = 0;
    for (size_t i = 0; i < n && k + 1 < sizeof line; i++)
        line[k++] = data[16 + i] < 0x20 || data[16 + i] == 0x7f ? ' ' : (char)data[16 + i];
    line[k] = '\0';
    return sw_diag_set(diag, (sw_result)code, -1, "%s", line);
}

sw_result sw__assimp_isolated_load(const void* data, size_t size, const char* name, const char* base_dir,
                                   const sw_assimp_options* options, sw__assimp_loader load, sw_model** out_model,
                                   sw_diag* diag) {
    *out_model = NULL;
    const char* label = name ? sw__path_base_name(name) : "<memory>";
    size_t memory = sw__assimp_child_memory(options);
    size_t memory_mb = memory >> 20;
    double seconds = sw__assimp_child_seconds(options);
    size_t mapped = sw__iso_mapped_bytes();
    size_t address_space = mapped && memory < SIZE_MAX - mapped ? mapped + memory : 0;
    int pipe_fds[2];
    if (pipe2(pipe_fds, O_CLOEXEC) != 0)
        return sw_diag_set(diag, SW_ERR_IO, -1, "%s: cannot make a pipe for the import process: %s", label,
                           strerror(errno));
    double deadline = sw__iso_now() + seconds;
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        close(pipe_fds[0]);
        close(pipe_fds[1]);
        return sw_diag_set(diag, SW_ERR_IO, -1, "%s: cannot start the import process: %s", label, strerror(e));
    }
    if (pid == 0) {
        close(pipe_fds[0]);
        sw__iso_child(pipe_fds[1], address_space, seconds, data, size, name, base_dir, options, load);
    }
    close(pipe_fds[1]);

    /* Read until end of file, the deadline, or more than the child may
       hold: a flood is cut off, not buffered. */
    uint8_t* buffer = NULL;
    size_t used = 0, capacity = 0;
    bool timed_out = false, flooded = false, out_of_memory = false;
    for (;;) {
        double left = deadline - sw__iso_now();
        if (left <= 0) {
            timed_out = true;
            break;
        }
        struct pollfd p = {.fd = pipe_fds[0], .events = POLLIN};
        int ready = poll(&p, 1, (int)ceil(left * 1000.0 < 1e9 ? left * 1000.0 : 1e9));
        if (ready < 0 && errno == EINTR) continue;
        if (ready < 0) break;
        if (ready == 0) continue;
        if (capacity - used < 65536) {
            if (capacity >= memory) {
                flooded = true;
                break;
            }
            size_t grown = capacity ? (capacity < memory / 2 ? capacity * 2 : memory) : (size_t)1 << 20;
            uint8_t* b = sw__realloc(buffer, grown);
            if (!b) {
                out_of_memory = true;
                break;
            }
            buffer = b;
            capacity = grown;
        }
        ssize_t n = read(pipe_fds[0], buffer + used, capacity - used);
        if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (n <= 0) break;
        used += (size_t)n;
    }
    close(pipe_fds[0]);
    bool killed = false;
    struct rusage usage;
    memset(&usage, 0, sizeof usage);
    if (timed_out || flooded || out_of_memory) {
        killed = true;
        kill(pid, SIGKILL);
    }
    int status = sw__iso_reap(pid, killed ? 0.0 : deadline, &killed, &usage);
    if (killed && !flooded && !out_of_memory) timed_out = true;

    sw_result r;
    if (out_of_memory) {
        r = sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "%s: out of memory", label);
    } else if (flooded) {
        r = sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "%s: the import process sent more than %zu MB", label,
                        memory_mb);
    } else if (timed_out) {
        r = sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "%s: Assimp took longer than %g s reading it", label, seconds);
    } else if (status != -1 && WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        const char* sig_name = sw__iso_signal_name(sig);
        size_t peak = (size_t)usage.ru_maxrss << 10; /* Linux: KiB */
        if (sig == SIGXCPU)
            r = sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "%s: Assimp took longer than %g s reading it", label,
                            seconds);
        else if ((sig == SIGABRT || sig == SIGSEGV || sig == SIGKILL) && peak >= memory / 2)
            r = sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "%s: Assimp used more than %zu MB reading it", label,
                            memory_mb);
        else if (sig_name)
            r = sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "%s: Assimp crashed reading it (%s)", label, sig_name);
        else
            r = sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "%s: Assimp crashed reading it (signal %d)", label, sig);
    } else if (used >= 16 && memcmp(buffer, sw__iso_error_magic, 8) == 0) {
        r = sw__iso_child_error(buffer, used, label, memory_mb, diag);
    } else if (status != -1 && WEXITSTATUS(status) != 0 && ((size_t)usage.ru_maxrss << 10) >= memory / 2) {
        /* a sanitizer's allocator exits, rather than aborts, when the limit stops it */
        r = sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "%s: Assimp used more than %zu MB reading it", label,
                        memory_mb);
    } else if (status != -1 && WEXITSTATUS(status) != 0) {
        r = sw_diag_set(diag, SW_ERR_INVALID_DATA, -1, "%s: the import process ended with status %d and no model",
                        label, WEXITSTATUS(status));
    } else {
        r = sw__model_stream_read(buffer, used, label, out_model, diag);
    }
    sw__free(buffer);
    return r;
}
