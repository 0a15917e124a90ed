/* tools/tool_common.h — what the `sinew` subcommands share: the command
   table entry, argument walking, option-value parsing, error values and an
   atomic file writer.

   A command is a function `int cmd_x(tool_args* args)` that walks its own
   arguments with tool_args_next() and returns an exit status (TOOL_EXIT_*).
   Messages go to stderr as "sinew <command>: <what went wrong>"; helpers that
   can fail fill a tool_error instead of printing, so the caller decides how
   to report (usage error or failure).

   Nothing here keeps global state but one thing, which the command-line
   process needs and the library never has: the list of files to remove
   and children to stop when a signal ends the process (see "cleanup on
   signals" below). */
#ifndef SINEW_TOOL_COMMON_H
#define SINEW_TOOL_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "sinew/gltf.h"
#include "sinew/import.h"
#include "sinew/pose.h"

enum {
    TOOL_EXIT_OK = 0,
    TOOL_EXIT_FAILURE = 1, /* the command ran and failed (I/O, library error) */
    TOOL_EXIT_USAGE = 2,   /* bad command line; nothing was done */
};

#if defined(__GNUC__)
#define TOOL_PRINTF(fmt_index, first_arg) __attribute__((format(printf, fmt_index, first_arg)))
#else
#define TOOL_PRINTF(fmt_index, first_arg)
#endif

/* What went wrong, in one line (no trailing newline, no program name). */
typedef struct tool_error {
    char message[1024];
} tool_error;

/* Fills `err` (if not NULL) with a printf-style message; returns false so
   that failures read `return tool_error_set(err, "...");`. */
bool tool_error_set(tool_error* err, const char* format, ...) TOOL_PRINTF(2, 3);

/* Loads a model of any format sinew reads (sw_import_file: glTF, or
   Assimp's formats by name) with the command's glTF options, whose shared
   fields (outside paths, influences, raw influences) the Assimp importer
   gets too. Messages are one line naming the file, as sw_import_file's. */
sw_result tool_load_model(const char* path, const sw_gltf_options* options, sw_model** out_model, sw_diag* diag);

/* The importers name a file by its base name ("avatar.vrm: cannot
   open"); messages repeat the path the user typed: a message that starts
   with `path`'s base name and ':' gets `path` instead. tool_load_model
   does it; callers of sw_import_file call it themselves. */
void tool_diag_path_as_typed(const char* path, sw_diag* diag);

/* ---- commands and their arguments -------------------------------------- */

typedef struct tool_args tool_args;
typedef int (*tool_command_fn)(tool_args* args);

/* One row of the command table in sinew.c. */
typedef struct tool_command {
    const char* name;    /* "retention" */
    const char* summary; /* one line for `sinew --help` */
    tool_command_fn run;
    const char* help;    /* full text for `sinew <name> --help`, ends with '\n' */
} tool_command;

/* The arguments after the command name, walked front to back. */
struct tool_args {
    const tool_command* command;
    int count;
    char** items;
    int next;          /* index of the next unread item */
    const char* value; /* "=VALUE" part of the option last matched by tool_args_option, or NULL */
    const char* context; /* messages say "sinew CONTEXT: ..." instead of "sinew COMMAND: ..." (NULL: the
                            command's name); `sinew batch` points render's messages at a manifest line */
};

/* The next argument, or NULL when all are read. */
const char* tool_args_next(tool_args* args);
/* `arg` is "-h" or "--help". */
bool tool_args_is_help(const char* arg);
/* `arg` is exactly the flag `name` (flags take no value). */
bool tool_args_flag(const char* arg, const char* name);
/* `arg` is option `name` given as "NAME" or "NAME=VALUE"; remembers VALUE
   for tool_args_value(). */
bool tool_args_option(tool_args* args, const char* arg, const char* name);
/* The value of the option just matched: its "=VALUE" part, else the next
   argument. NULL (and `err` filled) when there is none or it is empty. */
const char* tool_args_value(tool_args* args, const char* name, tool_error* err);

/* `arg` is the output option: "-o" or "--output" (as NAME or NAME=VALUE),
   or `alias` (an older spelling still accepted but no longer documented;
   NULL for none). Returns the spelling matched, for messages (then call
   tool_args_value), or NULL. */
const char* tool_args_output(tool_args* args, const char* arg, const char* alias);

/* Prints the command's help to stdout; returns TOOL_EXIT_OK. */
int tool_print_help(const tool_args* args);
/* Prints "sinew CMD: MESSAGE (see sinew CMD --help)" to stderr; returns TOOL_EXIT_USAGE. */
int tool_usage(const tool_args* args, const char* format, ...) TOOL_PRINTF(2, 3);
/* Prints "sinew CMD: MESSAGE" to stderr; returns TOOL_EXIT_FAILURE. */
int tool_fail(const tool_args* args, const char* format, ...) TOOL_PRINTF(2, 3);
/* Prints "sinew CMD: warning: MESSAGE" to stderr (never silenced by --quiet). */
void tool_warn(const tool_args* args, const char* format, ...) TOOL_PRINTF(2, 3);
/* The status line of a command that wrote a file: "wrote MESSAGE" on
   stderr (stdout stays for data), nothing when `quiet`. */
void tool_wrote(bool quiet, const char* format, ...) TOOL_PRINTF(2, 3);

/* ---- option values ------------------------------------------------------ */

/* Decimal integer in [min, max], the whole text (no spaces, no junk).
   On failure `err` names the option, the range and the text given. */
bool tool_parse_int(const char* option, const char* text, long min, long max, long* out, tool_error* err);
/* Finite number in [min, max] (strtod syntax, whole text). */
bool tool_parse_double(const char* option, const char* text, double min, double max, double* out,
                       tool_error* err);
/* `path` ends with `ext` (".svg"), ASCII case-insensitively. */
bool tool_has_extension(const char* path, const char* ext);

/* ---- output folders ------------------------------------------------------ */

/* Creates the folders missing above the file `path` ("out/frames/0000.png"
   creates out/ and out/frames/), each with mode 0777 & ~umask; folders
   that exist are left as they are. Fails, naming the path and the
   component, when a component exists but is not a folder or cannot be
   created (and removes what it made). On success *out_created (may be
   NULL) is the list of folders made, for tool_remove_created_dirs to take
   back, or NULL when none was; tool_keep_created_dirs keeps them. While
   listed, the folders are also recorded for removal on a signal. */
bool tool_make_parent_dirs(const char* path, char** out_created, tool_error* err);
/* Removes the folders of such a list again, deepest first, as long as they
   are empty (what a failed run made, it takes back), and frees the list.
   NULL is allowed. */
void tool_remove_created_dirs(char* created);
/* Keeps the folders of such a list (the output is complete): forgets them
   in the signal cleanup list and frees the list. NULL is allowed. */
void tool_keep_created_dirs(char* created);

/* ---- output paths ------------------------------------------------------------ */

/* Where a command may write, checked before any work is done:
   - "-" is standard output (tool_is_stdout); each command says whether it
     takes it;
   - a path that does not exist is a new file;
   - an existing path must be a regular file once symbolic links are
     followed: a device, a FIFO, a socket or a folder is refused (replacing
     /dev/null by rename would replace the device node itself);
   - a symbolic link is followed to its target, which is what gets
     replaced; the link stays a link (tool_atomic_open);
   - the output must not be one of the command's input files (same device
     and inode, so hard links and links count too): `sinew export g.glb
     -o g.glb` is refused and g.glb stays as it was. */

/* `path` names a folder: one that exists (links followed), or a path
   ending in '/'. For the messages of commands whose -o is a file. */
bool tool_is_folder(const char* path);

/* `path` is "-", standard output. */
bool tool_is_stdout(const char* path);

/* The files a command reads, by device and inode. */
typedef struct tool_input {
    unsigned long long device, inode;
    char* path;          /* owned copy, for messages */
    bool named_by_model; /* found through a model's "uri" (untrusted text: messages do not quote it) */
} tool_input;
typedef struct tool_inputs {
    tool_input* items;
    size_t count, capacity;
} tool_inputs;

/* Adds the file `path` (followed through links) when it exists; a path
   that does not exist adds nothing. False only when out of memory. */
bool tool_inputs_add(tool_inputs* inputs, const char* path);
/* Adds a glTF model and the external files it names: every "uri" string
   of its JSON (the .gltf text, or a GLB's JSON chunk), percent-decoded and
   taken relative to the model's folder; data: URIs and other schemes name
   no file. The model is read here only when it is a regular file (a FIFO
   given as the model is left whole for the loader). False only when out
   of memory. */
bool tool_inputs_add_model(tool_inputs* inputs, const char* model_path);
/* Frees the list; a zeroed list is allowed. */
void tool_inputs_free(tool_inputs* inputs);

/* What the process has read, which tool_atomic_open never replaces:
   tool_note_read adds a file (a bone map, a script), tool_note_model_read
   a loaded model's file, its side files (model->side_files) and the image
   files its images name under base_dir. tool_load_model notes its model
   itself. Main thread only. False only when out of memory. */
bool tool_note_read(const char* path);
bool tool_note_model_read(const sw_model* model);

/* Checks `path` (not "-") as above; `inputs` may be NULL. On failure
   `err` is one line naming the path and why ("cannot write 'x': it is a
   character device, not a regular file"). */
bool tool_output_check(const char* path, const tool_inputs* inputs, tool_error* err);

/* ---- atomic file output -------------------------------------------------- */

/* Writes go to "<target>.tmp.<pid>" in the target's folder (so the final
   rename stays on one file system and replaces the target in one step);
   only a successful commit renames it over the target. The target is
   `path`, or, when `path` is a symbolic link, the file the link leads to
   (links followed to the end): the link keeps pointing at the new file.
   Readers never see a partial file, and a failed run leaves neither a
   partial target nor the temporary.
   An existing target's permission bits (read, write, execute for user,
   group and others; setuid, setgid and sticky are not carried over) and,
   where the process may set them, its owner and group are given to the
   new file; a new file gets 0666 & ~umask. A target with several hard
   links gets a new inode: its other names keep the old data.
   Missing folders above the target are created by the open
   (tool_make_parent_dirs) and removed again by an abort or a failed
   commit. The temporary and those folders are recorded for removal should
   a signal end the process (tool_signals_install).

     tool_atomic_file f;
     if (!tool_atomic_open(&f, path, &err)) return ...;
     ok = tool_atomic_write(&f, data, size) && ...;
     if (!ok) { tool_atomic_abort(&f); ... }
     else if (!tool_atomic_commit(&f, &err)) ...;           */
typedef struct tool_atomic_file {
    const char* path;   /* the output, as given (caller-owned); messages name it */
    char* target_path;  /* owned: the file the commit replaces (`path`, links followed) */
    char* temp_path;    /* owned; NULL when closed */
    FILE* stream;       /* open on temp_path, binary */
    int write_errno;    /* errno of the first failed write, 0 if none */
    char* created_dirs; /* owned: folders the open made (tool_make_parent_dirs); an abort removes them */
    int cleanup;        /* the temporary's entry in the signal cleanup table, or -1 */
} tool_atomic_file;

/* Creates the temporary file. Refuses a target that exists and is not a
   regular file (tool_output_check without inputs). On failure `out` is
   zeroed and `err` names the output, the temporary and the reason
   (strerror). */
bool tool_atomic_open(tool_atomic_file* out, const char* path, tool_error* err);
/* Appends `size` bytes; false after any failed write (remembered in write_errno). */
bool tool_atomic_write(tool_atomic_file* file, const void* data, size_t size);
/* Flushes, syncs and closes the temporary (each step checked: a full disk
   or an I/O error is reported with strerror, naming the output), checks
   that the target is still a regular file or absent, and renames the
   temporary over it. On any failure (including an earlier failed write)
   the temporary is removed and `err` says why. Always releases `file`. */
bool tool_atomic_commit(tool_atomic_file* file, tool_error* err);
/* Closes and removes the temporary; safe on a released or zeroed file. */
void tool_atomic_abort(tool_atomic_file* file);

/* ---- cleanup on signals ---------------------------------------------------------- */

/* The command-line process's one piece of process-wide state, and the
   only one in the tools: a fixed table of what a signal must not leave
   behind (temporary files, folders made for an output, the frames of a
   PNG sequence) and of child processes to stop (ffmpeg). A signal handler
   can reach nothing else, so the table cannot travel in arguments.

   tool_signals_install(), called once by main() (never by the library,
   nor by the unit tests), catches SIGINT, SIGTERM, SIGHUP and SIGPIPE; a
   signal that was ignored when the process started (nohup, `&` in a
   script) stays ignored. The handler kills (SIGKILL) and reaps every
   recorded child, removes every recorded file and sequence frame, then the
   recorded folders that are empty, restores the signal's default action
   and raises it again: the process ends killed by that signal, which a
   shell reports as status 128 + N. It uses async-signal-safe calls only.
   A signal delivered to another thread (a driver's) is passed on to the
   thread that installed the handler.

   Entries are added and forgotten by the main thread only. A file is
   recorded before it is created, so a signal in between removes a name
   not there yet, which is harmless. The table holds TOOL_CLEANUP_SLOTS
   entries of paths shorter than TOOL_CLEANUP_PATH_MAX bytes; past that an
   entry is not recorded (-1) and a signal may leave that one thing
   behind. Without tool_signals_install the table is kept but never used. */
#define TOOL_CLEANUP_SLOTS 32
#define TOOL_CLEANUP_PATH_MAX 4096

void tool_signals_install(void);
/* Blocks (`block` true) the four signals above in the calling thread, or
   restores the mask saved by the matching block. For steps that must not
   be cut in two: starting a child and recording it, reaping a child and
   forgetting it. Not nested. */
void tool_cleanup_block(bool block);
/* Records a file to unlink. Returns the entry, or -1 when not recorded. */
int tool_cleanup_add_file(const char* path);
/* Records a child process to kill and reap. Keep it recorded until it is
   reaped (wait for it with WNOWAIT first), or its pid could be reused. */
int tool_cleanup_add_child(long pid);
/* Records the frames of a PNG sequence, "<prefix><number><suffix>" with
   the number zero-padded to `digits` (0..99), numbers 0 .. count − 1
   (count 0 at first; tool_cleanup_set_count). */
int tool_cleanup_add_sequence(const char* prefix, const char* suffix, int digits);
void tool_cleanup_set_count(int entry, int count);
/* Forgets an entry (-1 is allowed). */
void tool_cleanup_forget(int entry);

/* ---- names and suggestions ------------------------------------------------ */

/* Edit distance (insertions, deletions, substitutions, one each) between
   `a` and `b`, ASCII case-insensitive, each cut to its first
   TOOL_NAME_MAX bytes; past `limit` it stops early and returns limit + 1.
   ("walk", "Walk") is 0, ("rendr", "render") 1, ("--styel", "--style") 2. */
#define TOOL_NAME_MAX 64
size_t tool_name_distance(const char* a, size_t a_len, const char* b, size_t b_len, size_t limit);

/* The names nearest a misspelt one: give every name there is with
   tool_suggest_add, then tool_suggest_text. A name is kept when its
   distance is at most a third of the given name's length (leading dashes
   not counted) plus one (a name differing only in case always is), the nearest TOOL_SUGGEST_MAX of them,
   the first added winning ties. Names are not copied: they must outlive
   the accumulator. */
#define TOOL_SUGGEST_MAX 3
typedef struct tool_suggest {
    const char* given;
    size_t limit;
    size_t count;
    const char* names[TOOL_SUGGEST_MAX];
    size_t lengths[TOOL_SUGGEST_MAX];
    size_t distances[TOOL_SUGGEST_MAX];
} tool_suggest;

void tool_suggest_init(tool_suggest* s, const char* given);
/* `name` (the first `length` bytes; NULL is skipped). */
void tool_suggest_add(tool_suggest* s, const char* name, size_t length);
/* "did you mean 'render'?", "did you mean 'a' or 'b'?", "did you mean
   'a', 'b' or 'c'?"; "" when no name was near. Returns `out`. */
const char* tool_suggest_text(const tool_suggest* s, char* out, size_t size);

/* "unknown option '--styel', did you mean '--style'?" as a usage error;
   the options are those the command's help text names. */
int tool_unknown_option(const tool_args* args, const char* arg);

/* ---- the commands (one file each) ----------------------------------------- */

/* An animation of `a` by name or index: *out = its index; "none", or no
   spec in a file without animations, gives -1 (the rest pose); no spec
   gives 0. An unknown name fails, listing the animations there are (the
   first 20) and the nearest names ("did you mean 'Robot_Walking'?": a name
   in another case is suggested, not taken); a file without animations
   says so and points to --anim-file. A usage error (TOOL_EXIT_USAGE). */
bool tool_find_clip(const sw_model* a, const char* spec, long* out, tool_error* err);

/* A node of `a` by name, else by humanoid bone name (VRM 1.0 names,
   "leftHand", ASCII case-insensitive: the VRM's humanoid, else the map
   sw_humanoid_map_guess finds from the node names and hierarchy), else by its
   index in the file: *out = its model index. A node name wins over a
   humanoid name. Otherwise fails with "option: FILE has no node 'spec'
   (did you mean 'x'?; it has N nodes)", or says that the humanoid bone
   has no node there. A usage error (TOOL_EXIT_USAGE). */
bool tool_find_node(const sw_model* a, const char* option, const char* spec, uint32_t* out, tool_error* err);

/* Binds `pose` to one new 16-aligned block sized for `model`; returns the
   block (release it with free()) or NULL when out of memory. */
void* tool_pose_alloc(const sw_model* model, sw_pose* pose);

/* Decodes images of `model` (sw_model_decode_image) and prints one warning
   per image that is missing or does not decode: "sinew CMD: warning:
   MODEL: images[I] (uri "URI"): REASON`suffix`" (a data: URI is cut after
   its media type, "data:image/png;base64,..."; an image stored in the file
   reads "(embedded, MIME)"). `only_textured`: only the images a texture
   uses (what a renderer loads), else every image. Returns the number of
   images that failed. */
size_t tool_warn_bad_images(const tool_args* args, const sw_model* model, bool only_textured, const char* suffix);

int cmd_info(tool_args* args);
extern const char cmd_info_help[];
int cmd_check(tool_args* args);
extern const char cmd_check_help[];
int cmd_export(tool_args* args);
extern const char cmd_export_help[];
int cmd_bench(tool_args* args);
extern const char cmd_bench_help[];
int cmd_retention(tool_args* args);
extern const char cmd_retention_help[];
int cmd_render(tool_args* args);
extern const char cmd_batch_help[];
int cmd_batch(tool_args* args);
extern const char cmd_render_help[];
int cmd_demo_asset(tool_args* args);
extern const char cmd_demo_asset_help[];
int cmd_bake(tool_args* args);
extern const char cmd_bake_help[];
int cmd_compress(tool_args* args);
extern const char cmd_compress_help[];
int cmd_view(tool_args* args);
extern const char cmd_view_help[];

#endif
