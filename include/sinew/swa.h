/* sinew/swa.h — reading compressed clip files (.swa, sinew/compress.h)
   from untrusted bytes: the import library's reader.

       uint8_t* bytes; size_t size;
       sw_compressed_clip clip;
       if (sw_swa_load("walk.swa", &bytes, &size, &clip, &diag) != SW_OK)
           fprintf(stderr, "%s\n", diag.message);    // "walk.swa: segment 3: component 5's bit count 31 is over 24"
       ...sw_compressed_sample_job on &clip...
       sw_swa_free(bytes);

   Every count, offset, kind, bit count and float of the header is checked
   against the size before the view is made, so sampling the clip reads
   only inside the bytes whatever they hold; a failure is one line naming
   the file and the problem. No state: any number may run at once. */
#ifndef SINEW_SWA_H
#define SINEW_SWA_H

#include "sinew/base.h"
#include "sinew/compress.h"

SW_EXTERN_C_BEGIN

/* Validates `size` bytes (4-byte aligned, as any allocator gives) and
   makes *out a view of them (the bytes must outlive it). `name` (the file
   name, may be NULL) starts every message. */
sw_result sw_swa_read(const uint8_t* bytes, size_t size, const char* name, sw_compressed_clip* out, sw_diag* diag);

/* Reads the file at `path` (at most 1 GiB) and validates it: *out_bytes
   (sw_swa_free it) holds what *out points into. */
sw_result sw_swa_load(const char* path, uint8_t** out_bytes, size_t* out_size, sw_compressed_clip* out,
                      sw_diag* diag);
void sw_swa_free(uint8_t* bytes);

/* True when the bytes start like a .swa file (its magic). */
bool sw_swa_sniff(const uint8_t* bytes, size_t size);

SW_EXTERN_C_END

#endif
