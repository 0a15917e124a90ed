/* file_internal.h — files and URIs, shared by the importers (glTF today)
   and the model module (image decoding). Not a public header.

   Nothing here knows a file format: an importer resolves a URI written in
   its file with sw__uri_to_path or sw__decode_data_uri and reads the file
   with sw__read_file into memory it allocates. Messages name no file (the
   caller prefixes); every output is written on failure too (NULL / 0). */
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

/* File path of a relative URI reference under `base_dir`: percent-decodes
   it and refuses other schemes, and, unless `allow_outside`, absolute paths
   and ".." that climbs out of base_dir. *out_path is malloc'd (free()). */
sw_result sw__uri_to_path(const char* uri, const char* base_dir, bool allow_outside, char** out_path,
                          sw_diag* diag);

/* Decodes a data: URI ("data:[<mime>][;base64],<data>") into `out`
   (capacity `capacity`); *out_size is the decoded size, and with out = NULL
   only the size is computed. Base64 is strict (whole quanta, no
   whitespace); other data: URIs are percent-decoded. */
sw_result sw__decode_data_uri(const char* uri, size_t uri_length, void* out, size_t capacity, size_t* out_size,
                              sw_diag* diag);

/* Reads a whole file (at most `max_size` bytes, else SW_ERR_OUT_OF_MEMORY)
   into memory from `alloc` (which returns NULL on failure). Messages start
   with `label`. */
sw_result sw__read_file(const char* path, const char* label, size_t max_size, void* (*alloc)(void* user, size_t size),
                        void* user, uint8_t** out_data, size_t* out_size, sw_diag* diag);

#endif
