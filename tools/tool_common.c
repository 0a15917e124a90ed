/* Helpers shared by the sinew subcommands (see tool_common.h). */

/* getpid, open, fdopen, fsync, mkdir, rmdir, stat, lstat, readlink,
   fchmod, fchown, sigaction, pthread_sigmask, pthread_kill, kill, waitpid:
   POSIX, not C11. */
#define _POSIX_C_SOURCE 200809L

#include "tool_common.h"
#include "text_escape.h"
#include "sinew/humanoid.h"
#include "sinew/retarget.h"
#include "sinew/vrm.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* The importers name a file by its base name ("avatar.vrm: cannot open");
   the user typed a path ("nosuchdir/avatar.vrm"), which the message
   repeats. */
void tool_diag_path_as_typed(const char* path, sw_diag* diag) {
    const char* slash = strrchr(path, '/');
    const char* base = slash ? slash + 1 : path;
    size_t n = strlen(base);
    if (base == path || !n || strncmp(diag->message, base, n) != 0 || diag->message[n] != ':') return;
    char message[sizeof diag->message];
    snprintf(message, sizeof message, "%s%s", path, diag->message + n);
    memcpy(diag->message, message, sizeof message);
}

sw_result tool_load_model(const char* path, const sw_gltf_options* options, sw_model** out_model, sw_diag* diag) {
    sw_import_options o = sw_import_options_from_gltf(options);
    sw_result r = sw_import_file(path, &o, out_model, diag);
    if (r != SW_OK && diag) tool_diag_path_as_typed(path, diag);
    if (r == SW_OK && !tool_note_model_read(*out_model)) {
        sw_model_free(*out_model);
        *out_model = NULL;
        return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "%s: out of memory", path);
    }
    return r;
}

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

/* Status lines quote names, paths and messages taken from files: the
   text is escaped as a whole (text_escape.h), so nothing in it can start a
   line or reach the terminal as a control sequence. */
static void tool_say(const char* prefix, const char* name, const char* middle, const char* format, va_list ap,
                     const char* suffix) {
    char text[8192];
    vsnprintf(text, sizeof text, format, ap);
    fputs(prefix, stderr);
    if (name) fputs(name, stderr);
    fputs(middle, stderr);
    text_escape_print(stderr, text);
    fputs(suffix, stderr);
}

/* Who a message is from: the command, or the context it runs in. */
static const char* tool_args_speaker(const tool_args* args) {
    return args->context ? args->context : args->command->name;
}

int tool_usage(const tool_args* args, const char* format, ...) {
    char suffix[96];
    snprintf(suffix, sizeof suffix, " (see sinew %s --help)\n", args->command->name);
    va_list ap;
    va_start(ap, format);
    tool_say("sinew ", tool_args_speaker(args), ": ", format, ap, suffix);
    va_end(ap);
    return TOOL_EXIT_USAGE;
}

int tool_fail(const tool_args* args, const char* format, ...) {
    va_list ap;
    va_start(ap, format);
    tool_say("sinew ", tool_args_speaker(args), ": ", format, ap, "\n");
    va_end(ap);
    return TOOL_EXIT_FAILURE;
}

void tool_warn(const tool_args* args, const char* format, ...) {
    va_list ap;
    va_start(ap, format);
    tool_say("sinew ", tool_args_speaker(args), ": warning: ", format, ap, "\n");
    va_end(ap);
}

void tool_wrote(bool quiet, const char* format, ...) {
    if (quiet) return;
    va_list ap;
    va_start(ap, format);
    tool_say("wrote ", NULL, "", format, ap, "\n");
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

/* ---- cleanup on signals ------------------------------------------------------------ */

/* The table a signal handler reads (see tool_common.h). An entry is filled
   while its kind is SLOT_FREE and published by setting the kind last; it
   is forgotten by setting the kind back first. Only the main thread writes
   it, and the handler runs on that thread (it redirects itself there), so
   the compiler barrier of atomic_signal_fence is all the ordering needed. */
enum { SLOT_FREE = 0, SLOT_FILE, SLOT_DIR, SLOT_CHILD, SLOT_SEQUENCE };

typedef struct cleanup_slot {
    volatile sig_atomic_t kind;
    volatile sig_atomic_t pid;    /* SLOT_CHILD */
    volatile sig_atomic_t count;  /* SLOT_SEQUENCE: frames 0 .. count − 1 */
    int digits;                   /* SLOT_SEQUENCE */
    size_t prefix_length;         /* SLOT_SEQUENCE: path holds prefix, then suffix */
    char path[TOOL_CLEANUP_PATH_MAX];
} cleanup_slot;

static struct {
    cleanup_slot slots[TOOL_CLEANUP_SLOTS];
    pthread_t main_thread; /* where the handler runs (tool_signals_install) */
    sigset_t saved_mask;   /* tool_cleanup_block(true) saved it */
} cleanup_state;

static const int cleanup_signal_numbers[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
#define CLEANUP_SIGNAL_COUNT (sizeof cleanup_signal_numbers / sizeof cleanup_signal_numbers[0])

static void cleanup_signal_set(sigset_t* set) {
    sigemptyset(set);
    for (size_t i = 0; i < CLEANUP_SIGNAL_COUNT; i++) sigaddset(set, cleanup_signal_numbers[i]);
}

/* A free slot with `path` (and `extra` after its NUL, for sequences)
   copied in, not yet published; NULL when the table is full or the text
   too long. */
static cleanup_slot* cleanup_claim(const char* path, const char* extra) {
    size_t n = strlen(path), m = extra ? strlen(extra) + 1 : 0;
    if (n + 1 + m > TOOL_CLEANUP_PATH_MAX) return NULL;
    for (size_t i = 0; i < TOOL_CLEANUP_SLOTS; i++) {
        cleanup_slot* slot = &cleanup_state.slots[i];
        if (slot->kind != SLOT_FREE) continue;
        memcpy(slot->path, path, n + 1);
        if (extra) memcpy(slot->path + n + 1, extra, m);
        slot->prefix_length = n;
        slot->count = 0;
        slot->pid = 0;
        return slot;
    }
    return NULL;
}

static int cleanup_publish(cleanup_slot* slot, int kind) {
    if (!slot) return -1;
    atomic_signal_fence(memory_order_seq_cst);
    slot->kind = kind;
    atomic_signal_fence(memory_order_seq_cst);
    return (int)(slot - cleanup_state.slots);
}

int tool_cleanup_add_file(const char* path) {
    return cleanup_publish(cleanup_claim(path, NULL), SLOT_FILE);
}

static int cleanup_add_dir(const char* path) {
    return cleanup_publish(cleanup_claim(path, NULL), SLOT_DIR);
}

int tool_cleanup_add_child(long pid) {
    cleanup_slot* slot = cleanup_claim("", NULL);
    if (slot) slot->pid = (sig_atomic_t)pid;
    return cleanup_publish(slot, SLOT_CHILD);
}

int tool_cleanup_add_sequence(const char* prefix, const char* suffix, int digits) {
    if (digits < 0 || digits > 99) return -1;
    cleanup_slot* slot = cleanup_claim(prefix, suffix);
    if (slot) slot->digits = digits;
    return cleanup_publish(slot, SLOT_SEQUENCE);
}

void tool_cleanup_set_count(int entry, int count) {
    if (entry < 0 || entry >= TOOL_CLEANUP_SLOTS) return;
    atomic_signal_fence(memory_order_seq_cst);
    cleanup_state.slots[entry].count = count;
    atomic_signal_fence(memory_order_seq_cst);
}

void tool_cleanup_forget(int entry) {
    if (entry < 0 || entry >= TOOL_CLEANUP_SLOTS) return;
    atomic_signal_fence(memory_order_seq_cst);
    cleanup_state.slots[entry].kind = SLOT_FREE;
    atomic_signal_fence(memory_order_seq_cst);
}

/* Forgets the folder entry for `path`, if there is one. */
static void cleanup_forget_dir(const char* path) {
    for (int i = 0; i < TOOL_CLEANUP_SLOTS; i++)
        if (cleanup_state.slots[i].kind == SLOT_DIR && strcmp(cleanup_state.slots[i].path, path) == 0) {
            tool_cleanup_forget(i);
            return;
        }
}

void tool_cleanup_block(bool block) {
    if (block) {
        sigset_t set;
        cleanup_signal_set(&set);
        pthread_sigmask(SIG_BLOCK, &set, &cleanup_state.saved_mask);
    } else {
        pthread_sigmask(SIG_SETMASK, &cleanup_state.saved_mask, NULL);
    }
}

/* "<prefix><number, zero-padded to digits><suffix>" into `out` (at least
   TOOL_CLEANUP_PATH_MAX + 112 bytes), by hand: snprintf is not
   async-signal-safe. */
static void cleanup_frame_name(char* out, const cleanup_slot* slot, int number) {
    const char* prefix = slot->path;
    const char* suffix = slot->path + slot->prefix_length + 1;
    size_t n = slot->prefix_length;
    memcpy(out, prefix, n);
    char digits[112];
    int count = 0;
    unsigned value = (unsigned)number;
    do {
        digits[count++] = (char)('0' + value % 10);
        value /= 10;
    } while (value > 0 && count < 100);
    while (count < slot->digits) digits[count++] = '0';
    while (count > 0) out[n++] = digits[--count];
    size_t m = strlen(suffix);
    memcpy(out + n, suffix, m + 1);
}

static void cleanup_on_signal(int signal_number) {
    /* A thread of a driver (llvmpipe, EGL) may receive a process signal:
       the cleanup must run where the table is written, so pass it on. */
    if (!pthread_equal(pthread_self(), cleanup_state.main_thread)) {
        pthread_kill(cleanup_state.main_thread, signal_number);
        return;
    }
    cleanup_slot* slots = cleanup_state.slots;
    /* Children first, so that nothing writes into what is removed next. */
    for (int i = 0; i < TOOL_CLEANUP_SLOTS; i++)
        if (slots[i].kind == SLOT_CHILD && slots[i].pid > 0) kill((pid_t)slots[i].pid, SIGKILL);
    for (int i = 0; i < TOOL_CLEANUP_SLOTS; i++)
        if (slots[i].kind == SLOT_CHILD && slots[i].pid > 0)
            while (waitpid((pid_t)slots[i].pid, NULL, 0) < 0 && errno == EINTR) {
            }
    char name[TOOL_CLEANUP_PATH_MAX + 112];
    for (int i = 0; i < TOOL_CLEANUP_SLOTS; i++) {
        if (slots[i].kind == SLOT_FILE) unlink(slots[i].path);
        if (slots[i].kind == SLOT_SEQUENCE)
            for (int f = 0; f < slots[i].count; f++) {
                cleanup_frame_name(name, &slots[i], f);
                unlink(name);
            }
    }
    /* Folders deepest first whatever their order in the table: repeat
       while one more could be removed (a folder still holding something
       that is not ours stays). */
    for (bool removed = true; removed;) {
        removed = false;
        for (int i = 0; i < TOOL_CLEANUP_SLOTS; i++)
            if (slots[i].kind == SLOT_DIR && rmdir(slots[i].path) == 0) {
                slots[i].kind = SLOT_FREE;
                removed = true;
            }
    }
    /* End the way the signal would have: the parent sees WIFSIGNALED. */
    struct sigaction default_action;
    memset(&default_action, 0, sizeof default_action);
    default_action.sa_handler = SIG_DFL;
    sigemptyset(&default_action.sa_mask);
    sigaction(signal_number, &default_action, NULL);
    sigset_t only;
    sigemptyset(&only);
    sigaddset(&only, signal_number);
    pthread_sigmask(SIG_UNBLOCK, &only, NULL);
    raise(signal_number);
    _exit(128 + signal_number); /* not reached */
}

void tool_signals_install(void) {
    cleanup_state.main_thread = pthread_self();
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = cleanup_on_signal;
    cleanup_signal_set(&action.sa_mask); /* one cleanup at a time */
    action.sa_flags = SA_RESTART;        /* for the threads it returns to after passing a signal on */
    for (size_t i = 0; i < CLEANUP_SIGNAL_COUNT; i++) {
        struct sigaction old;
        if (sigaction(cleanup_signal_numbers[i], NULL, &old) != 0 || old.sa_handler == SIG_IGN) continue;
        sigaction(cleanup_signal_numbers[i], &action, NULL);
    }
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
        } else {
            /* Recorded before it exists, so that a signal cannot leave it behind. */
            int entry = out_created ? cleanup_add_dir(dir) : -1;
            if (mkdir(dir, 0777) == 0) { /* the kernel applies the umask */
                memcpy(created + used, dir, end + 1);
                used += end + 1;
            } else {
                e = errno;
                tool_cleanup_forget(entry);
                if (!(e == EEXIST && is_dir(dir))) /* EEXIST: made by someone else meanwhile */
                    ok = tool_error_set(err, "cannot write '%s': cannot create the folder '%s': %s", path, dir,
                                        strerror(e));
            }
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
        bool removed = rmdir(name) == 0;
        cleanup_forget_dir(name);
        if (!removed) break; /* not empty: something else is in it now */
        end = name;
    }
    /* The folders left (when one was not empty) are kept: forget them too. */
    for (char* name = created; name < end && *name; name += strlen(name) + 1) cleanup_forget_dir(name);
    free(created);
}

void tool_keep_created_dirs(char* created) {
    if (!created) return;
    for (char* name = created; *name; name += strlen(name) + 1) cleanup_forget_dir(name);
    free(created);
}

/* ---- output paths ---------------------------------------------------------------- */

bool tool_is_stdout(const char* path) {
    return path && strcmp(path, "-") == 0;
}

/* What a file that is not a regular one is, for messages. */
static const char* file_kind(mode_t mode) {
    if (S_ISDIR(mode)) return "a folder";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a regular file";
}

/* A new string: the folder part of `path` (up to its last '/', kept) and
   then `name`. */
static char* join_beside(const char* path, const char* name) {
    const char* slash = strrchr(path, '/');
    size_t head = slash ? (size_t)(slash - path) + 1 : 0, n = strlen(name);
    char* out = malloc(head + n + 1);
    if (!out) return NULL;
    memcpy(out, path, head);
    memcpy(out + head, name, n + 1);
    return out;
}

/* Follows `path` through symbolic links to the file a write replaces.
   *out_target (malloc'd) names it; *out_exists says whether it exists,
   and then *out_st is its stat. A path whose folders are missing (or not
   folders) does not exist: creating them reports that. */
static bool output_resolve(const char* path, char** out_target, struct stat* out_st, bool* out_exists,
                           tool_error* err) {
    *out_target = NULL;
    *out_exists = false;
    char* current = malloc(strlen(path) + 1);
    if (!current) return tool_error_set(err, "cannot write '%s': out of memory", path);
    strcpy(current, path);
    for (int links = 0;; links++) {
        if (lstat(current, out_st) != 0) {
            int e = errno;
            if (e == ENOENT || e == ENOTDIR) break;
            tool_error_set(err, "cannot write '%s': %s", path, strerror(e));
            free(current);
            return false;
        }
        if (!S_ISLNK(out_st->st_mode)) {
            *out_exists = true;
            break;
        }
        char link[4096];
        ssize_t n = links < 40 ? readlink(current, link, sizeof link) : -1;
        if (n < 0 || (size_t)n >= sizeof link) {
            int e = links >= 40 ? ELOOP : n < 0 ? errno : ENAMETOOLONG;
            tool_error_set(err, "cannot write '%s': cannot follow the link '%s': %s", path, current, strerror(e));
            free(current);
            return false;
        }
        link[n] = '\0';
        char* next = link[0] == '/' ? join_beside("", link) : join_beside(current, link);
        free(current);
        if (!next) return tool_error_set(err, "cannot write '%s': out of memory", path);
        current = next;
    }
    *out_target = current;
    return true;
}

/* Fails when an existing target is not a regular file. A link's target
   is text from the file system, not from the user: its control characters
   are shown as '?' so that it cannot act on the terminal. */
static bool output_regular(const char* path, const char* target, const struct stat* st, tool_error* err) {
    if (S_ISREG(st->st_mode)) return true;
    if (strcmp(path, target) == 0)
        return tool_error_set(err, "cannot write '%s': it is %s, not a regular file", path, file_kind(st->st_mode));
    char shown[512];
    size_t n = 0;
    for (const char* c = target; *c && n + 1 < sizeof shown; c++)
        shown[n++] = (unsigned char)*c < 0x20 || *c == 0x7f ? '?' : *c;
    shown[n] = '\0';
    return tool_error_set(err, "cannot write '%s': it leads to '%s', which is %s, not a regular file", path, shown,
                          file_kind(st->st_mode));
}

bool tool_output_check(const char* path, const tool_inputs* inputs, tool_error* err) {
    char* target;
    struct stat st;
    bool exists;
    if (!output_resolve(path, &target, &st, &exists, err)) return false;
    bool ok = !exists || output_regular(path, target, &st, err);
    for (size_t i = 0; ok && exists && inputs && i < inputs->count; i++) {
        const tool_input* in = &inputs->items[i];
        if (in->device != (unsigned long long)st.st_dev || in->inode != (unsigned long long)st.st_ino) continue;
        if (in->named_by_model)
            ok = tool_error_set(err,
                                "cannot write '%s': it is an input, a file the model reads (a side file, a buffer "
                                "or an image it names); write the output elsewhere",
                                path);
        else
            ok = tool_error_set(err, "cannot write '%s': it is the input file '%s'; write the output elsewhere", path,
                                in->path);
    }
    free(target);
    return ok;
}

/* ---- input files ------------------------------------------------------------------ */

static bool inputs_add(tool_inputs* inputs, const char* path, bool named_by_model) {
    struct stat st;
    if (stat(path, &st) != 0) return true; /* nothing there to overwrite */
    for (size_t i = 0; i < inputs->count; i++)
        if (inputs->items[i].device == (unsigned long long)st.st_dev &&
            inputs->items[i].inode == (unsigned long long)st.st_ino)
            return true;
    if (inputs->count == inputs->capacity) {
        size_t capacity = inputs->capacity ? 2 * inputs->capacity : 8;
        tool_input* items = realloc(inputs->items, capacity * sizeof *items);
        if (!items) return false;
        inputs->items = items;
        inputs->capacity = capacity;
    }
    char* copy = malloc(strlen(path) + 1);
    if (!copy) return false;
    strcpy(copy, path);
    inputs->items[inputs->count++] = (tool_input){.device = (unsigned long long)st.st_dev,
                                                  .inode = (unsigned long long)st.st_ino,
                                                  .path = copy,
                                                  .named_by_model = named_by_model};
    return true;
}

bool tool_inputs_add(tool_inputs* inputs, const char* path) {
    return inputs_add(inputs, path, false);
}

static int hex_value(char c);

/* Every file a load read or named, for tool_atomic_open. Loads happen on
   the main thread, as do output opens. */
static tool_inputs files_read;

bool tool_note_read(const char* path) { return inputs_add(&files_read, path, false); }

/* A URI of the model's (uri_to_path's rules, done loosely: more files
   protected is harmless): the file path it names under base_dir, or NULL
   (data: and other schemes, malformed escapes); *ok false when out of
   memory. */
static char* uri_file(const char* uri, const char* base_dir, bool* ok) {
    size_t s_end = 0;
    while ((uri[s_end] >= 'a' && uri[s_end] <= 'z') || (uri[s_end] >= 'A' && uri[s_end] <= 'Z') ||
           (s_end > 0 && ((uri[s_end] >= '0' && uri[s_end] <= '9') || uri[s_end] == '+' || uri[s_end] == '-' ||
                          uri[s_end] == '.')))
        s_end++;
    if (uri[0] == '\0' || (s_end > 1 && uri[s_end] == ':')) return NULL;
    size_t length = strlen(uri), base = base_dir ? strlen(base_dir) : 0;
    char* path = malloc(base + length + 2);
    if (!path) {
        *ok = false;
        return NULL;
    }
    size_t n = 0;
    if (uri[0] != '/' && base_dir) {
        memcpy(path, base_dir, base);
        n = base;
        path[n++] = '/';
    }
    for (size_t i = 0; uri[i]; i++) {
        if (uri[i] != '%') {
            path[n++] = uri[i];
            continue;
        }
        int high = hex_value(uri[i + 1]), low = high < 0 ? -1 : hex_value(uri[i + 2]);
        if (low < 0 || (high == 0 && low == 0)) { /* malformed, or a NUL: the loader refuses it */
            free(path);
            return NULL;
        }
        path[n++] = (char)(high * 16 + low);
        i += 2;
    }
    path[n] = '\0';
    return path;
}

bool tool_note_model_read(const sw_model* model) {
    if (model->path && !tool_note_read(model->path)) return false;
    for (size_t i = 0; i < model->side_file_count; i++)
        if (!inputs_add(&files_read, model->side_files[i], true)) return false;
    bool ok = true;
    for (size_t i = 0; ok && i < model->image_count; i++) {
        const char* uri = model->images[i].uri;
        char* path = uri && !model->images[i].data ? uri_file(uri, model->base_dir, &ok) : NULL;
        if (path && !inputs_add(&files_read, path, true)) ok = false;
        free(path);
    }
    return ok;
}

void tool_inputs_free(tool_inputs* inputs) {
    for (size_t i = 0; i < inputs->count; i++) free(inputs->items[i].path);
    free(inputs->items);
    memset(inputs, 0, sizeof *inputs);
}

/* A streaming scan of JSON text for the string values of "uri" keys: only
   strings are tokenised (so a "uri" inside another string never counts),
   and a string is a "uri" key when ':' follows it. */
typedef struct uri_scan {
    enum { SCAN_OUTSIDE, SCAN_STRING, SCAN_ESCAPE, SCAN_HEX } state;
    char text[4096];
    size_t length;
    bool too_long;
    int hex_left;
    unsigned hex;
    bool after_uri_key; /* the last string was "uri": a ':' makes the next string a URI */
    bool want_uri;      /* the next string is a URI */
    /* where found URIs go */
    tool_inputs* inputs;
    const char* model_path;
    bool ok;            /* false once out of memory */
} uri_scan;

static int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static void scan_append(uri_scan* s, char c) {
    if (s->length + 1 < sizeof s->text) s->text[s->length++] = c;
    else s->too_long = true;
}

/* A URI found: the file it names, if any, joins the inputs. */
static void scan_found(uri_scan* s) {
    const char* uri = s->text;
    size_t s_end = 0; /* a scheme ("data:", "http:"): no file of ours; one letter is a drive */
    while ((uri[s_end] >= 'a' && uri[s_end] <= 'z') || (uri[s_end] >= 'A' && uri[s_end] <= 'Z') ||
           (s_end > 0 && ((uri[s_end] >= '0' && uri[s_end] <= '9') || uri[s_end] == '+' || uri[s_end] == '-' ||
                          uri[s_end] == '.')))
        s_end++;
    if (uri[0] == '\0' || (s_end > 1 && uri[s_end] == ':')) return;
    char decoded[sizeof s->text];
    size_t n = 0;
    for (size_t i = 0; uri[i]; i++) {
        if (uri[i] != '%') {
            decoded[n++] = uri[i];
            continue;
        }
        int high = hex_value(uri[i + 1]), low = high < 0 ? -1 : hex_value(uri[i + 2]);
        if (low < 0 || (high == 0 && low == 0)) return; /* malformed, or a NUL: the loader refuses it */
        decoded[n++] = (char)(high * 16 + low);
        i += 2;
    }
    decoded[n] = '\0';
    char* path = decoded[0] == '/' ? NULL : join_beside(s->model_path, decoded);
    if (decoded[0] != '/' && !path) {
        s->ok = false;
        return;
    }
    if (!inputs_add(s->inputs, path ? path : decoded, true)) s->ok = false;
    free(path);
}

static void scan_string_end(uri_scan* s) {
    s->text[s->length] = '\0';
    if (s->want_uri) {
        s->want_uri = false;
        if (!s->too_long) scan_found(s);
    } else {
        s->after_uri_key = !s->too_long && strcmp(s->text, "uri") == 0;
    }
}

/* UTF-8 of a \uXXXX escape (a lone surrogate is kept as its 3 bytes: no
   file is named so, and nothing worse than a missed comparison follows). */
static void scan_code_point(uri_scan* s, unsigned c) {
    if (c < 0x80) {
        scan_append(s, (char)c);
    } else if (c < 0x800) {
        scan_append(s, (char)(0xC0 | c >> 6));
        scan_append(s, (char)(0x80 | (c & 0x3F)));
    } else {
        scan_append(s, (char)(0xE0 | c >> 12));
        scan_append(s, (char)(0x80 | ((c >> 6) & 0x3F)));
        scan_append(s, (char)(0x80 | (c & 0x3F)));
    }
}

static void scan_bytes(uri_scan* s, const char* data, size_t size) {
    for (size_t i = 0; i < size; i++) {
        char c = data[i];
        switch (s->state) {
        case SCAN_OUTSIDE:
            if (c == '"') {
                s->state = SCAN_STRING;
                s->length = 0;
                s->too_long = false;
            } else if (c == ':' && s->after_uri_key) {
                s->after_uri_key = false;
                s->want_uri = true;
            } else if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                s->after_uri_key = false;
                s->want_uri = false; /* "uri": null, a number…: no file */
            }
            break;
        case SCAN_STRING:
            if (c == '\\') s->state = SCAN_ESCAPE;
            else if (c == '"') {
                s->state = SCAN_OUTSIDE;
                scan_string_end(s);
            } else scan_append(s, c);
            break;
        case SCAN_ESCAPE: {
            static const char from[] = "nrtbf", to[] = "\n\r\t\b\f";
            const char* k = strchr(from, c);
            s->state = SCAN_STRING;
            if (c == 'u') {
                s->state = SCAN_HEX;
                s->hex_left = 4;
                s->hex = 0;
            } else {
                scan_append(s, k && c ? to[k - from] : c);
            }
            break;
        }
        case SCAN_HEX: {
            int v = hex_value(c);
            s->hex = s->hex * 16 + (unsigned)(v < 0 ? 0 : v);
            if (--s->hex_left == 0) {
                s->state = SCAN_STRING;
                scan_code_point(s, s->hex);
            }
            break;
        }
        }
    }
}

static uint32_t read_u32_le(const unsigned char* p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

bool tool_inputs_add_model(tool_inputs* inputs, const char* model_path) {
    if (!tool_inputs_add(inputs, model_path)) return false;
    struct stat st;
    if (stat(model_path, &st) != 0 || !S_ISREG(st.st_mode)) return true;
    FILE* f = fopen(model_path, "rb");
    if (!f) return true; /* the loader reports it */
    uri_scan* s = calloc(1, sizeof *s);
    if (!s) {
        fclose(f);
        return false;
    }
    s->inputs = inputs;
    s->model_path = model_path;
    s->ok = true;
    /* A GLB (glTF 2.0 §4.4): the JSON is the first chunk; a .gltf is JSON. */
    unsigned char head[20];
    size_t got = fread(head, 1, sizeof head, f);
    uint64_t left = UINT64_MAX;
    if (got == sizeof head && memcmp(head, "glTF", 4) == 0) {
        left = read_u32_le(head + 12);
        if (read_u32_le(head + 16) != 0x4E4F534Au) left = 0; /* not JSON: the loader says so */
    } else {
        scan_bytes(s, (const char*)head, got);
    }
    char buffer[65536];
    while (left > 0 && s->ok) {
        size_t want = left < sizeof buffer ? (size_t)left : sizeof buffer;
        size_t n = fread(buffer, 1, want, f);
        if (n == 0) break;
        scan_bytes(s, buffer, n);
        left -= n;
    }
    fclose(f);
    bool ok = s->ok;
    free(s);
    return ok;
}

/* ---- atomic file output --------------------------------------------------------- */

bool tool_atomic_open(tool_atomic_file* out, const char* path, tool_error* err) {
    memset(out, 0, sizeof *out);
    out->cleanup = -1;
    char* target = NULL;
    struct stat st;
    bool exists;
    if (!output_resolve(path, &target, &st, &exists, err)) return false;
    if (exists && !output_regular(path, target, &st, err)) {
        free(target);
        return false;
    }
    free(target);
    /* Checked again now that the loads have said what they read (side
       files, textures, a bone map), the moment before writing. */
    if (exists && !tool_output_check(path, &files_read, err)) return false;
    if (!output_resolve(path, &target, &st, &exists, err)) return false;
    char* created_dirs = NULL;
    if (!tool_make_parent_dirs(target, &created_dirs, err)) {
        free(target);
        return false;
    }
    size_t size = strlen(target) + 32;
    char* temp_path = malloc(size);
    if (!temp_path) {
        tool_remove_created_dirs(created_dirs);
        free(target);
        return tool_error_set(err, "cannot write '%s': out of memory", path);
    }
    snprintf(temp_path, size, "%s.tmp.%ld", target, (long)getpid());

    /* O_EXCL: never write through a link someone left under our name. A
       leftover from an earlier process with our pid is ours to replace.
       Recorded first, so that a signal cannot leave it behind. An existing
       target's data may be private: the temporary starts unreadable to
       others, and gets the target's bits below. */
    int cleanup = tool_cleanup_add_file(temp_path);
    mode_t mode = exists ? 0600 : 0666;
    int fd = open(temp_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
    if (fd < 0 && errno == EEXIST && unlink(temp_path) == 0)
        fd = open(temp_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
    if (fd < 0) {
        int e = errno;
        tool_cleanup_forget(cleanup);
        tool_error_set(err, "cannot write '%s': cannot create temporary file '%s': %s", path, temp_path,
                       strerror(e));
        free(temp_path);
        free(target);
        tool_remove_created_dirs(created_dirs);
        return false;
    }
    if (exists) {
        /* The owner where we may (root, or a group we are in); failures
           leave the file ours, which is all an unprivileged user can do. */
        bool other_owner = st.st_uid != geteuid() || st.st_gid != getegid();
        if (other_owner && fchown(fd, st.st_uid, st.st_gid) != 0 && fchown(fd, (uid_t)-1, st.st_gid) != 0)
            errno = 0; /* not allowed: the file stays ours */
        if (fchmod(fd, st.st_mode & 0777) != 0) {
            int e = errno;
            close(fd);
            unlink(temp_path);
            tool_cleanup_forget(cleanup);
            tool_error_set(err, "cannot write '%s': cannot set the mode of '%s': %s", path, temp_path, strerror(e));
            free(temp_path);
            free(target);
            tool_remove_created_dirs(created_dirs);
            return false;
        }
    }
    FILE* stream = fdopen(fd, "wb");
    if (!stream) {
        int e = errno;
        close(fd);
        unlink(temp_path);
        tool_cleanup_forget(cleanup);
        tool_error_set(err, "cannot write '%s': %s", path, strerror(e));
        free(temp_path);
        free(target);
        tool_remove_created_dirs(created_dirs);
        return false;
    }
    out->path = path;
    out->target_path = target;
    out->temp_path = temp_path;
    out->stream = stream;
    out->created_dirs = created_dirs;
    out->cleanup = cleanup;
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
    tool_cleanup_forget(file->cleanup);
    free(file->temp_path);
    free(file->target_path);
    tool_keep_created_dirs(file->created_dirs); /* committed: the folders stay */
    memset(file, 0, sizeof *file);
    file->cleanup = -1;
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
    errno = 0;
    if (fclose(file->stream) != 0 && !e) e = errno ? errno : EIO;
    file->stream = NULL;
    if (e) {
        tool_error_set(err, "cannot write '%s': %s", file->path, strerror(e));
        tool_atomic_abort(file);
        return false;
    }
    /* The target was checked when opened; something may have taken its
       name since (a FIFO, a device node): rename would replace it. */
    struct stat st;
    if (stat(file->target_path, &st) == 0 && !output_regular(file->path, file->target_path, &st, err)) {
        tool_atomic_abort(file);
        return false;
    }
    if (rename(file->temp_path, file->target_path) != 0) {
        e = errno;
        tool_error_set(err, "cannot write '%s': cannot rename '%s' over it: %s", file->path, file->temp_path,
                       strerror(e));
        tool_atomic_abort(file);
        return false;
    }
    atomic_release(file);
    return true;
}

/* ---- names and suggestions ------------------------------------------------ */

size_t tool_name_distance(const char* a, size_t a_len, const char* b, size_t b_len, size_t limit) {
    if (a_len > TOOL_NAME_MAX) a_len = TOOL_NAME_MAX;
    if (b_len > TOOL_NAME_MAX) b_len = TOOL_NAME_MAX;
    size_t gap = a_len > b_len ? a_len - b_len : b_len - a_len;
    if (gap > limit) return limit + 1;
    /* One row of the Levenshtein table; a row whose smallest entry is past
       the limit ends it, as every later row is at least that. */
    size_t row[TOOL_NAME_MAX + 1];
    for (size_t j = 0; j <= b_len; j++) row[j] = j;
    for (size_t i = 1; i <= a_len; i++) {
        size_t diagonal = row[0], smallest = row[0] = i;
        for (size_t j = 1; j <= b_len; j++) {
            size_t up = row[j];
            size_t cost = ascii_lower(a[i - 1]) == ascii_lower(b[j - 1]) ? 0 : 1;
            size_t best = diagonal + cost;
            if (up + 1 < best) best = up + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best;
            diagonal = up;
            if (best < smallest) smallest = best;
        }
        if (smallest > limit) return limit + 1;
    }
    return row[b_len] > limit ? limit + 1 : row[b_len];
}

void tool_suggest_init(tool_suggest* s, const char* given) {
    memset(s, 0, sizeof *s);
    s->given = given;
    size_t n = strlen(given);
    if (n > TOOL_NAME_MAX) n = TOOL_NAME_MAX;
    for (const char* p = given; *p == '-' && n > 1; p++) n--; /* an option's dashes are no letters to get wrong */
    s->limit = n / 3 + 1;
}

void tool_suggest_add(tool_suggest* s, const char* name, size_t length) {
    if (!name || !length) return;
    size_t d = tool_name_distance(s->given, strlen(s->given), name, length, s->limit);
    if (d > s->limit) return;
    /* a name given twice (a help text's options), or again in another case
       (a node "LeftHand" and the humanoid's "leftHand"), is kept once */
    for (size_t k = 0; k < s->count; k++)
        if (tool_name_distance(s->names[k], s->lengths[k], name, length, 0) == 0) return;
    size_t at = s->count;
    while (at > 0 && s->distances[at - 1] > d) at--; /* after the names as near: the first added wins ties */
    if (at >= TOOL_SUGGEST_MAX) return;
    size_t last = s->count < TOOL_SUGGEST_MAX ? s->count : TOOL_SUGGEST_MAX - 1;
    for (size_t k = last; k > at; k--) {
        s->names[k] = s->names[k - 1], s->lengths[k] = s->lengths[k - 1], s->distances[k] = s->distances[k - 1];
    }
    s->names[at] = name, s->lengths[at] = length, s->distances[at] = d;
    if (s->count < TOOL_SUGGEST_MAX) s->count++;
}

const char* tool_suggest_text(const tool_suggest* s, char* out, size_t size) {
    if (!size) return out;
    out[0] = '\0';
    /* Only the nearest: a name in another case (0) leaves out ones a letter off. */
    size_t used = 0;
    for (size_t k = 0; k < s->count && s->distances[k] == s->distances[0]; k++) {
        const char* sep = k == 0 ? "did you mean " : (k + 1 < s->count && s->distances[k + 1] == s->distances[0]) ? ", " : " or ";
        int len = s->lengths[k] > 80 ? 80 : (int)s->lengths[k];
        int n = snprintf(out + used, size - used, "%s'%.*s'", sep, len, s->names[k]);
        if (n < 0 || (size_t)n + 1 >= size - used) { /* room for the '?' too */
            out[used] = '\0';
            break;
        }
        used += (size_t)n;
    }
    if (used) out[used++] = '?', out[used] = '\0';
    return out;
}

int tool_unknown_option(const tool_args* args, const char* arg) {
    size_t given = strcspn(arg, "=");
    char name[TOOL_NAME_MAX + 1];
    snprintf(name, sizeof name, "%.*s", (int)(given > TOOL_NAME_MAX ? TOOL_NAME_MAX : given), arg);
    tool_suggest s;
    tool_suggest_init(&s, name);
    /* The options are the "--word" and "-x" the help text names. */
    const char* help = args->command->help;
    for (const char* p = help; (p = strchr(p, '-')); ) {
        bool starts = p == help || !(p[-1] == '-' || (p[-1] >= 'a' && p[-1] <= 'z') || (p[-1] >= 'A' && p[-1] <= 'Z') ||
                                     (p[-1] >= '0' && p[-1] <= '9'));
        size_t n = p[1] == '-' ? 2 : 1;
        while ((p[n] >= 'a' && p[n] <= 'z') || (p[n] >= '0' && p[n] <= '9') || (p[n] == '-' && n > 1 && p[n + 1] != '-'))
            n++;
        if (starts && n > (p[1] == '-' ? 2u : 1u) && (p[1] == '-' || n == 2)) tool_suggest_add(&s, p, n);
        p += n;
    }
    char hint[300];
    tool_suggest_text(&s, hint, sizeof hint);
    if (hint[0]) return tool_usage(args, "unknown option '%s', %s", arg, hint);
    return tool_usage(args, "unknown option '%s'", arg);
}

/* The node of humanoid bone `name` (VRM 1.0 name, any case): the VRM's
   humanoid, else the one found from node names. -1 when `name` is no
   bone; -2 when it is one but the model maps no node to it. */
static int64_t humanoid_node(const sw_model* a, const char* name, sw_humanoid_bone* out_bone) {
    sw_humanoid_bone bone = SW_HUMANOID_BONE_COUNT;
    for (int b = 0; b < SW_HUMANOID_BONE_COUNT && bone == SW_HUMANOID_BONE_COUNT; b++)
        if (tool_name_distance(name, strlen(name), sw_humanoid_bone_name((sw_humanoid_bone)b),
                               strlen(sw_humanoid_bone_name((sw_humanoid_bone)b)), 0) == 0 &&
            strlen(name) <= TOOL_NAME_MAX)
            bone = (sw_humanoid_bone)b;
    if (bone == SW_HUMANOID_BONE_COUNT) return -1;
    *out_bone = bone;
    sw_humanoid_map map;
    sw_humanoid_map_clear(&map);
    sw_vrm* vrm = NULL;
    sw_diag diag;
    if (sw_vrm_read(a, &vrm, &diag) == SW_OK && vrm && vrm->humanoid_mapped) map = vrm->humanoid;
    else if (sw_humanoid_map_guess(a, NULL, &map, NULL, &diag) != SW_OK) sw_humanoid_map_clear(&map); /* names and hierarchy */
    sw_vrm_free(vrm);
    int32_t node = map.node[bone];
    return node >= 0 && (size_t)node < a->node_count ? node : -2;
}

bool tool_is_folder(const char* path) {
    size_t n = strlen(path);
    struct stat st;
    return (n && path[n - 1] == '/') || (stat(path, &st) == 0 && S_ISDIR(st.st_mode));
}

bool tool_find_node(const sw_model* a, const char* option, const char* spec, uint32_t* out, tool_error* err) {
    for (size_t i = 0; i < a->node_count; ++i)
        if (a->nodes[i].name && strcmp(a->nodes[i].name, spec) == 0) {
            *out = (uint32_t)i;
            return true;
        }
    sw_humanoid_bone bone = SW_HUMANOID_BONE_COUNT;
    int64_t node = humanoid_node(a, spec, &bone);
    if (node >= 0) {
        *out = (uint32_t)node;
        return true;
    }
    char* end = NULL;
    errno = 0;
    long index = strtol(spec, &end, 10);
    if (*spec && end != spec && !*end && errno == 0 && index >= 0 && (size_t)index < a->node_count) {
        *out = a->node_from_source[index];
        return true;
    }
    if (node == -2)
        return tool_error_set(err, "%s: '%.80s' is a humanoid bone, but %s maps no node to it (give a node name)",
                              option, spec, a->path);
    tool_suggest s;
    tool_suggest_init(&s, spec);
    for (size_t i = 0; i < a->node_count; ++i)
        if (a->nodes[i].name) tool_suggest_add(&s, a->nodes[i].name, strlen(a->nodes[i].name));
    for (int b = 0; b < SW_HUMANOID_BONE_COUNT; b++) {
        const char* name = sw_humanoid_bone_name((sw_humanoid_bone)b);
        tool_suggest_add(&s, name, strlen(name));
    }
    char hint[300];
    tool_suggest_text(&s, hint, sizeof hint);
    return tool_error_set(err, "%s: %s has no node '%.80s' (%s%sit has %zu nodes)", option, a->path, spec, hint,
                          hint[0] ? "; " : "", a->node_count);
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
    if (!a->animation_count)
        return tool_error_set(err, "%s has no animation '%.80s': it has no animations (play a clip from another file "
                                   "with --anim-file FILE)", a->path, spec);
    tool_suggest s;
    tool_suggest_init(&s, spec);
    for (size_t i = 0; i < a->animation_count; ++i)
        if (a->animations[i].name) tool_suggest_add(&s, a->animations[i].name, strlen(a->animations[i].name));
    char hint[300];
    tool_suggest_text(&s, hint, sizeof hint);
    tool_error_set(err, "%s has no animation '%.80s' (%s%sit has %zu", a->path, spec, hint, hint[0] ? "; " : "",
                   a->animation_count);
    size_t len = strlen(err->message);
    for (size_t i = 0; i < a->animation_count && i < 20 && len + 40 < sizeof err->message; ++i) {
        snprintf(err->message + len, sizeof err->message - len, "%s%zu \"%.60s\"", i ? ", " : ": ", i,
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
