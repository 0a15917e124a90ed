/* file_internal.h — files and URIs, shared by the importers (glTF, Assimp's
   side files) and the model module (image decoding). Not a public header.

   Nothing here knows a file format: an importer resolves a URI written in
   its file with sw__uri_to_path (the lexical rules) and sw__path_inside
   (where the path really leads), or decodes it with sw__decode_data_uri,
   and reads the file with sw__read_file into memory it allocates. Messages
   name no file (the caller prefixes); every output is written on failure
   too (NULL / 0).

   Files are untrusted input too: sw__read_file reads regular files only
   and never waits (a FIFO, a device, a directory or a socket is refused at
   once, naming what it is), and reads no more than the caller asks. */
#ifndef SINEW_FILE_INTERNAL_H
#define SINEW_FILE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sinew/base.h"

/* Percent-decodes `length` bytes of `in` into `out` (room for `length`
   bytes; decoding never grows; NULL = only count). Returns false on a
   malformed escape. */
bool sw__percent_decode(const char* in, size_t length, char* out, size_t* out_length);

/* Refuses a URI (or a path) that holds a NUL or another control character
   (< 0x20, 0x7f): they name no file anyone meant, and would end a C
   string or a message line. diag->index is the offending byte. */
sw_result sw__check_uri_text(const char* uri, size_t length, sw_diag* diag);

/* File path of a relative URI reference under `base_dir`: refuses control
   characters (raw or %-escaped) and other schemes, percent-decodes it, and,
   unless `allow_outside`, refuses absolute paths and ".." that climbs out of
   base_dir. Lexical only: see sw__path_inside for symbolic links. *out_path
   is sw__free'd by the caller. */
sw_result sw__uri_to_path(const char* uri, const char* base_dir, bool allow_outside, char** out_path,
                          sw_diag* diag);

/* sw__uri_to_path for a name that is a plain path, not a URI (a side file
   a reader names, e.g. an OBJ's mtllib as Assimp asks for it): the same
   control-character, absolute-path and ".." rules, but no %-decoding and
   no schemes. Lexical only, as sw__uri_to_path. */
sw_result sw__side_path(const char* name, const char* base_dir, bool allow_outside, char** out_path,
                        sw_diag* diag);

/* Decodes a data: URI ("data:[<mime>][;base64],<data>") into `out`
   (capacity `capacity`); *out_size is the decoded size, and with out = NULL
   only the size is computed. Base64 is strict (whole quanta, no
   whitespace); other data: URIs are percent-decoded. */
sw_result sw__decode_data_uri(const char* uri, size_t uri_length, void* out, size_t capacity, size_t* out_size,
                              sw_diag* diag);

/* Where `path` (from sw__uri_to_path, under `base_dir`) really leads:
   realpath() of it must lie inside realpath(base_dir), so that a symbolic
   link in the folder cannot reach a file outside it (a link that stays
   inside is fine). *out_path is the resolved path (sw__free it): open
   that one. A file that does not exist is SW_ERR_IO "<label>: cannot open
   (…)", as sw__read_file says it; one outside is SW_ERR_INVALID_DATA. */
sw_result sw__path_inside(const char* path, const char* base_dir, const char* label, char** out_path,
                          sw_diag* diag);

/* Reads the first `read_size` bytes of a file (SIZE_MAX: all of it; fewer
   when the file is shorter, see *out_size) into memory from `alloc` (which
   returns NULL on failure); more than `max_size` bytes is
   SW_ERR_OUT_OF_MEMORY, said before anything is allocated. Only a regular
   file is read: anything else is SW_ERR_IO "<label>: not a regular file
   (a FIFO)", at once (opened with O_NONBLOCK, so a FIFO cannot block).
   `release` (may be NULL, for arenas) gives the memory back when the read
   fails after allocating. Messages start with `label`. */
sw_result sw__read_file(const char* path, const char* label, size_t max_size, size_t read_size,
                        void* (*alloc)(void* user, size_t size), void (*release)(void* user, void* ptr), void* user,
                        uint8_t** out_data, size_t* out_size, sw_diag* diag);

/* The part of a path after its last '/': how messages name a file. */
const char* sw__path_base_name(const char* path);

#endif
