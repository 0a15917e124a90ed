/* assimp_isolate.h — the Assimp import in a child process (assimp_isolate.c):
   fork, limits, the model back over a pipe (model_stream.h), and every way
   the child can fail turned into a one-line error. Not a public header. */
#ifndef SINEW_ASSIMP_ISOLATE_H
#define SINEW_ASSIMP_ISOLATE_H

#include "sinew/assimp.h"

/* The in-process import the child runs (sw_assimp_load_memory's work). */
typedef sw_result (*sw__assimp_loader)(const void* data, size_t size, const char* name, const char* base_dir,
                                       const sw_assimp_options* options, sw_model** out_model, sw_diag* diag);

/* What the child may use: address space on top of what the parent had
   mapped when it forked, and the most bytes the parent reads back. */
size_t sw__assimp_child_memory(const sw_assimp_options* options);
/* The wall-clock limit, seconds. */
double sw__assimp_child_seconds(const sw_assimp_options* options);

/* Runs `load` in a child process with limits and returns its model as if
   it had run here; a child that crashes, runs out of time or memory, or
   sends a malformed model gives a one-line error naming the file. */
sw_result sw__assimp_isolated_load(const void* data, size_t size, const char* name, const char* base_dir,
                                   const sw_assimp_options* options, sw__assimp_loader load, sw_model** out_model,
                                   sw_diag* diag);

/* For tests only: called in the child, with the pipe's descriptor, once the
   limits are set and before the import. It may crash, hang, write a
   stream of its own and _exit, or return (the import then runs). Not
   thread-safe; NULL outside tests. */
extern void (*sw__assimp_child_hook)(int fd);

#endif
