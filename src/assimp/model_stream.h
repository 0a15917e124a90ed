/* model_stream.h — a finished model as one byte string and back: how the
   Assimp import child hands its model to the parent (assimp_isolate.c).
   The format is versioned and length-checked; docs/import.md has it byte
   by byte. Not a public header.

   BOUNDED WORK: reading is linear in the stream; every count is checked
   against the bytes left before anything is allocated for it, so memory
   is at most a small multiple of the stream's size. */
#ifndef SINEW_MODEL_STREAM_H
#define SINEW_MODEL_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include "sinew/model.h"

#define SW__MODEL_STREAM_VERSION 1u
#define SW__MODEL_STREAM_HEADER 24u

/* The model as a stream, in one sw__malloc'd buffer (sw__free it). Fails
   only when out of memory. */
sw_result sw__model_stream_write(const sw_model* model, uint8_t** out_data, size_t* out_size);

/* A model rebuilt from a stream, every count, offset and index checked
   (derived fields recomputed, not read). A stream that is short, long,
   of another version or inconsistent gives SW_ERR_INVALID_DATA and the
   one-line message "<label>: the import process sent a malformed model
   (byte N: what)". */
sw_result sw__model_stream_read(const uint8_t* data, size_t size, const char* label, sw_model** out_model,
                                sw_diag* diag);

#endif
