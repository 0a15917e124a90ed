/* sinew — the command-line tool: `sinew <command> [options]`.

   Each command lives in its own tools/cmd_<name>.c and is one row of the
   table below; adding a command is adding a row (and its file to
   CMakeLists.txt). Exit status: 0 ok, 1 failure, 2 usage error; a signal
   (SIGINT, SIGTERM, SIGHUP, SIGPIPE) ends the process killed by that
   signal (a shell shows 128 + N) once temporary files are removed and
   child processes stopped (tool_signals_install). */
#include "tool_common.h"

#include "sinew/base.h"
#include "sinew/skin.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static const tool_command commands[] = {
    {"info", "what a glTF file holds: scenes, meshes, skins, animations, materials, warnings", cmd_info,
     cmd_info_help},
    {"check", "what an importer must catch: weights, joints, bind matrices, scale, LBS volume loss", cmd_check,
     cmd_check_help},
    {"export", "skinned and morphed world-space positions at chosen times, as JSON", cmd_export,
     cmd_export_help},
    {"bench", "CPU skinning throughput against memcpy, and pose evaluation per character", cmd_bench,
     cmd_bench_help},
    {"retention", "LBS radius loss under twist: closed-form tables, a measured twist tube, a plot",
     cmd_retention, cmd_retention_help},
    {"render", "draw a character (default: the built-in demo) headless to PNG, MP4, GIF or PNG frames", cmd_render,
     cmd_render_help},
    {"batch", "render line N of a JSON Lines manifest (one job of a Slurm or Kubernetes array)", cmd_batch,
     cmd_batch_help},
    {"view", "a window on the renderer: orbit, scrub clips, compare LBS and DQS, weights, retention",
     cmd_view, cmd_view_help},
    {"demo-asset", "write the built-in demo character (43 joints, spring ponytail and skirt, 7 clips) as a GLB file",
     cmd_demo_asset, cmd_demo_asset_help},
    {"bake", "bake a texture from a model: face-sdf, the toon face shadow threshold map", cmd_bake, cmd_bake_help},
    {"compress", "a clip as a compressed clip (.swa) within a virtual-vertex error: ratio and error", cmd_compress,
     cmd_compress_help},
};

static const size_t command_count = sizeof commands / sizeof commands[0];

/* Under AddressSanitizer (SW_SANITIZE builds): fontconfig, which cairo loads
   for the plots' text, keeps caches for the life of the process that only
   FcFini() frees, and sinew does not link fontconfig to call it. Those
   blocks are not ours, so LeakSanitizer is told to skip that library only;
   every leak of our own still fails the run. Likewise glibc's bookkeeping
   of the libraries a window's GL driver loads (sinew view), which only
   thread-local storage points at: the command-line tests scan without TLS
   (tests/lsan.supp says why). */
#if defined(__SANITIZE_ADDRESS__)
#define SINEW_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SINEW_ASAN 1
#endif
#endif
#ifdef SINEW_ASAN
const char* __lsan_default_suppressions(void);
const char* __lsan_default_options(void);
__attribute__((used)) const char* __lsan_default_suppressions(void) {
    return "leak:libfontconfig.so\n"
           "leak:_dl_map_object_deps\n";
}
/* No "Suppressions used" table on stderr after every plot. */
__attribute__((used)) const char* __lsan_default_options(void) {
    return "print_suppressions=0";
}
#endif

static const tool_command* find_command(const char* name) {
    for (size_t i = 0; i < command_count; i++)
        if (strcmp(commands[i].name, name) == 0) return &commands[i];
    return NULL;
}

static void print_usage(FILE* out) {
    fprintf(out,
            "usage: sinew <command> [options]\n"
            "       sinew <command> --help\n"
            "       sinew help [<command>]\n"
            "       sinew --version\n"
            "\n"
            "sinew %s: character animation and skinning, from the command line.\n"
            "\n"
            "commands:\n",
            SW_VERSION_STRING);
    size_t width = 0;
    for (size_t i = 0; i < command_count; i++)
        if (strlen(commands[i].name) > width) width = strlen(commands[i].name);
    for (size_t i = 0; i < command_count; i++)
        fprintf(out, "  %-*s  %s\n", (int)width, commands[i].name, commands[i].summary);
    fprintf(out, "\n"
                 "Commands that write a file take -o, --output FILE (missing folders are\n"
                 "created; a regular file or a new one, never an input) and --quiet; the\n"
                 "line saying what they wrote, warnings and errors go to standard error,\n"
                 "so standard output carries only data. Reference: docs/cli.md.\n"
                 "\n"
                 "exit status: 0 ok, 1 failure, 2 usage error, 128+N ended by signal N\n"
                 "(temporary files removed)\n");
}

static int usage_error(const char* what, const char* arg) {
    fprintf(stderr, "sinew: %s '%s' (see sinew --help)\n", what, arg);
    return TOOL_EXIT_USAGE;
}

/* "sinew: unknown command 'rendr' (did you mean 'render'?; see sinew --help)". */
static int unknown_command(const char* name) {
    tool_suggest s;
    tool_suggest_init(&s, name);
    for (size_t i = 0; i < command_count; i++) tool_suggest_add(&s, commands[i].name, strlen(commands[i].name));
    tool_suggest_add(&s, "help", 4);
    char hint[300];
    if (!tool_suggest_text(&s, hint, sizeof hint)[0]) return usage_error("unknown command", name);
    fprintf(stderr, "sinew: unknown command '%s' (%s; see sinew --help)\n", name, hint);
    return TOOL_EXIT_USAGE;
}

static int run(int argc, char** argv) {
    if (argc < 2) {
        /* No command is a usage error, but the list of commands is the help wanted. */
        print_usage(stderr);
        return TOOL_EXIT_USAGE;
    }
    const char* first = argv[1];
    if (tool_args_is_help(first) || strcmp(first, "help") == 0) {
        if (argc > 2 && strcmp(first, "help") == 0) {
            const tool_command* command = find_command(argv[2]);
            if (!command) return unknown_command(argv[2]);
            if (argc > 3) return usage_error("unexpected argument", argv[3]);
            fputs(command->help, stdout);
            return TOOL_EXIT_OK;
        }
        if (argc > 2) return usage_error("unexpected argument", argv[2]);
        print_usage(stdout);
        return TOOL_EXIT_OK;
    }
    if (strcmp(first, "--version") == 0) {
        if (argc > 2) return usage_error("unexpected argument", argv[2]);
        printf("sinew %s\nbuild: %s\nskinning kernel on this CPU: %s\n", SW_VERSION_STRING, sw_build_info(),
               sw_skin_kernel_name(sw_skin_kernel_best()));
        return TOOL_EXIT_OK;
    }
    if (first[0] == '-') {
        static const char* const options[] = {"--help", "--version", "-h"};
        tool_suggest s;
        tool_suggest_init(&s, first);
        for (size_t i = 0; i < 3; i++) tool_suggest_add(&s, options[i], strlen(options[i]));
        char hint[300];
        if (!tool_suggest_text(&s, hint, sizeof hint)[0]) return usage_error("unknown option", first);
        fprintf(stderr, "sinew: unknown option '%s' (%s; see sinew --help)\n", first, hint);
        return TOOL_EXIT_USAGE;
    }

    const tool_command* command = find_command(first);
    if (!command) return unknown_command(first);
    tool_args args = {.command = command, .count = argc - 2, .items = argv + 2};
    return command->run(&args);
}

int main(int argc, char** argv) {
    /* The one process-wide state of the tool: what a signal must clean up. */
    tool_signals_install();
    int status = run(argc, argv);
    /* A full disk or closed pipe must not pass for success. */
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "sinew: cannot write standard output: %s\n", errno ? strerror(errno) : "write error");
        if (status == TOOL_EXIT_OK) status = TOOL_EXIT_FAILURE;
    }
    return status;
}
