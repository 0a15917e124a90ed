/* assimp_io.h — the file system sinew hands Assimp (assimp_io.c). Not a
   public header; only built with Assimp.

   Assimp opens more than the model: an OBJ's mtllib, MD5 animation files,
   FBX and MD3 side files, ... Through this file system the model itself
   is served from the bytes sinew already read (under its rules), and
   every other name Assimp asks for is taken as a path under the model's
   folder and read with sinew's rules (file_internal.h): a regular file
   only (a FIFO fails at once instead of hanging), within max_memory, no
   control characters, not outside the folder (absolute, "..", or through
   a symbolic link) unless allow_outside_paths. What was read is recorded.

   - a name that does not exist: Assimp is told so, as its own file system
     would (it decides whether that matters);
   - a name outside the folder: not read, and the model gets a warning;
   - anything else refused (not a regular file, too large, control
     characters, unreadable): the whole load fails with that one line. */
#ifndef SINEW_ASSIMP_IO_H
#define SINEW_ASSIMP_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <assimp/cfileio.h>

#include "../import/importer_internal.h"

#define SW__AI_IO_MAX_WARNINGS 8

typedef struct sw__ai_io {
    struct aiFileIO io; /* handed to Assimp; its UserData leads back here */
    char main_name[48]; /* the name the model is opened under (Assimp's memory name: outputs stay as they were) */
    const uint8_t* data;
    size_t size;
    const char* base_dir; /* NULL: side files refused */
    bool allow_outside;
    size_t max_memory, open_bytes; /* side-file bytes held at once stay within max_memory */
    char** read_paths;             /* side files read, resolved (sw__malloc'd, no repeats) */
    size_t read_count, read_capacity;
    char* warnings[SW__AI_IO_MAX_WARNINGS];
    size_t warning_count, warnings_dropped;
    bool failed; /* a side file was refused: the load fails with `error` */
    bool out_of_memory;
    sw_diag error;
} sw__ai_io;

/* Sets up io for the model's bytes (borrowed until sw__ai_io_free), opened
   as Assimp's memory name with the extension `hint` (lower case, may be ""). */
void sw__ai_io_init(sw__ai_io* io, const void* data, size_t size, const char* hint, const char* base_dir,
                    bool allow_outside, size_t max_memory);
/* Gives the model the side files read (model->side_files, in its arena)
   and the warnings about names refused. Sets im's error when out of memory. */
sw_result sw__ai_io_finish(sw__ai_io* io, sw__importer* im, sw_model* model);
/* Frees what io holds (every file Assimp opened is closed by then). */
void sw__ai_io_free(sw__ai_io* io);

#endif
