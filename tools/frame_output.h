/* tools/frame_output.h — where `sinew render` writes its frames: one PNG, a
   numbered PNG sequence, or an H.264 MP4 / looping GIF encoded by ffmpeg,
   plus the progress bar drawn while frames are rendered.

     frame_output* out;
     if (!frame_output_open(&out, "clip.mp4", w, h, 30.0, n, &err)) fail;   // before rendering anything
     for (int i = 0; i < n; i++) {
         render(rgba, i);
         if (!frame_output_write(out, rgba, &err)) { frame_output_abort(out); fail; }
     }
     if (!frame_output_finish(out, &err)) fail;                            // commits, or removes everything

   The path picks the kind (frame_output_kind_of): ".png" is one image,
   ".mp4" and ".gif" are videos, and a name with a frame-number conversion
   ("dir/%04d.png", "shot_%d.png") is an image sequence whose frames are
   numbered from 0 (%% is a literal %). Extensions match in any case.

   Frames are RGBA8: rows top to bottom, width × height × 4 bytes of sRGB
   colour with straight (not premultiplied) alpha, no padding between rows.
   PNG keeps the alpha; MP4 (yuv420p) and GIF drop it.

   Nothing is ever left half-written. A PNG, and each frame of a sequence,
   is written to "<name>.tmp.<pid>" beside it (tool_atomic_*: a symbolic
   link is followed and its target replaced; a device, FIFO, socket or
   folder under the name is refused) and renamed: a single PNG by
   frame_output_finish, a sequence frame as soon as it is written (the next
   frame's temporary is opened then). ffmpeg writes a video to
   "<name>.tmp.<pid>", which is renamed once ffmpeg has exited with status
   0 and the file is verified whole (frame_output_verify: ffmpeg 5.1 exits
   0 on a full disk). A failed write, a failed finish or an abort removes
   the temporary files, the frames of a sequence that this run had already
   written, and the folders it created. The same things are recorded in
   the signal cleanup table (tool_common.h), ffmpeg included, so that a
   signal that ends the process removes them and kills ffmpeg too.

   MP4 and GIF need the `ffmpeg` program (Debian package ffmpeg) on PATH;
   frame_output_open starts it, so a missing ffmpeg is reported before any
   frame is rendered. ffmpeg runs in its own process group, so a Ctrl-C on
   the terminal reaches only the caller, which should then call
   frame_output_abort. SIGPIPE is blocked in the calling thread while
   frames are piped to ffmpeg (never changed process-wide); an ffmpeg that
   stops reading is an error whose message ends with ffmpeg's last line.

   An object is used by one thread at a time, the main thread (the one
   that called tool_signals_install, if any). Nothing here keeps global
   state of its own: what a signal must clean up goes into tool_common's
   cleanup table. */
#ifndef SINEW_TOOLS_FRAME_OUTPUT_H
#define SINEW_TOOLS_FRAME_OUTPUT_H

#include "tool_common.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Largest width or height accepted (16384² RGBA is 1 GiB a frame). */
#define FRAME_OUTPUT_MAX_SIZE 16384
/* Frame rates accepted for MP4 and GIF (ffmpeg rejects far-out ones with
   a less helpful message). */
#define FRAME_OUTPUT_MIN_FPS 0.01
#define FRAME_OUTPUT_MAX_FPS 1000.0

typedef enum frame_output_kind {
    FRAME_OUTPUT_PNG = 0,  /* "out.png": exactly one frame */
    FRAME_OUTPUT_SEQUENCE, /* "dir/%04d.png": one PNG per frame, numbered from 0 */
    FRAME_OUTPUT_MP4,      /* "out.mp4": H.264, yuv420p, CRF 18; odd sizes padded to even with black */
    FRAME_OUTPUT_GIF,      /* "out.gif": one palette for the whole clip, loops forever; ffmpeg holds
                              every frame in memory until the last (width × height × 4 × frames
                              bytes), so GIF suits short, small clips */
} frame_output_kind;

/* The kind `path` names. A '%' anywhere in the name makes it a sequence
   pattern, checked strictly: exactly one "%d" or "%0Nd" (N = 1..99, no
   leading zero) in the file name (not in a directory), every other '%'
   doubled ("%%"), and a ".png" extension. On failure `*out` is
   FRAME_OUTPUT_PNG and `err` names the path and what is accepted. */
bool frame_output_kind_of(const char* path, frame_output_kind* out, tool_error* err);

/* The file name of frame `number` (≥ 0) of the sequence pattern `pattern`
   ("dir/%04d.png", 7 → "dir/0007.png"; "%%" becomes '%'). False when
   `pattern` is not a valid pattern or `size` (NUL included) is too small. */
bool frame_output_frame_path(const char* pattern, int number, char* out, size_t size);

/* Checks, before any work, every file `path` will write for `frame_count`
   frames (each frame's name for a sequence) with tool_output_check:
   regular files or new ones only, none of them one of `inputs` (may be
   NULL). frame_output_open checks the same (without inputs). */
bool frame_output_check(const char* path, int frame_count, const tool_inputs* inputs, tool_error* err);

/* Checks that the finished video at `path` is whole, by its structure:
   FRAME_OUTPUT_MP4: not empty; its top-level boxes (32-bit big-endian
   size, 4-character type; size 1: a 64-bit size follows; size 0: to the
   end of the file) tile the file exactly, the first is 'ftyp', one is
   'mdat' and one 'moov'; FRAME_OUTPUT_GIF: a GIF87a/GIF89a header and the trailer byte
   0x3B at the end. Other kinds: not empty. On failure `err` says what is
   wrong, in words that follow "but" ("the MP4 has no 'moov' box ...");
   it does not name the file. */
bool frame_output_verify(const char* path, frame_output_kind kind, tool_error* err);

typedef struct frame_output frame_output; /* opaque */

/* Prepares to write `frame_count` frames of `width` × `height` pixels
   (1..FRAME_OUTPUT_MAX_SIZE each) to `path` (copied). `fps`
   (FRAME_OUTPUT_MIN_FPS..FRAME_OUTPUT_MAX_FPS) is used, and checked, by
   MP4 and GIF only. A single .png takes exactly one frame.
   Checks every file it will write (frame_output_check), creates the
   folders missing above `path` (tool_make_parent_dirs) and the temporary
   file of the first output now, so a read-only directory, a file where a
   folder should be or a device under the name is reported here, and
   starts ffmpeg for MP4 and GIF.
   On failure `*out` is NULL, nothing is left on disk and `err` says why,
   naming `path`. */
bool frame_output_open(frame_output** out, const char* path, int width, int height, double fps, int frame_count,
                       tool_error* err);

/* Writes the next frame (`rgba`: width × height × 4 bytes, see above).
   After a failure, or once frame_count frames are written, every call
   fails; call frame_output_abort (or frame_output_finish, which then fails
   and cleans up too). */
bool frame_output_write(frame_output* output, const uint8_t* rgba, tool_error* err);

/* Completes the output: checks that all frame_count frames were written,
   waits for ffmpeg, checks its exit status and the file it wrote
   (frame_output_verify; a failure quotes ffmpeg's last line of messages)
   and renames the result into place. On failure removes
   everything this run wrote and `err` says why. Always frees `output`. */
bool frame_output_finish(frame_output* output, tool_error* err);

/* Stops ffmpeg (killed, not drained), removes every file this run wrote,
   and frees `output`. NULL is allowed. */
void frame_output_abort(frame_output* output);

/* ---- progress bar --------------------------------------------------------- */

/* Writes one line (no '\r', no '\n') for `done` of `total` frames after
   `elapsed_s` seconds into `out` (truncated to `size` bytes, NUL included):

     [######------------------]  25/100 frames  5.0 fps  ETA 0:15
     [########################] 100/100 frames  5.0 fps  done in 0:20

   fps = done / elapsed_s; ETA = (total − done) / fps, rounded to whole
   seconds, as m:ss or h:mm:ss; "--" and "--:--" while no rate is known.
   Pure. Returns the length of the full line (as snprintf does). */
size_t frame_progress_format(char* out, size_t size, int done, int total, double elapsed_s);

/* Writes one progress line for a log (no '\r', no '\n'):

     frame 18/90 (20%)  0:04 elapsed  about 0:16 left
     frame 90/90 (100%)  done in 0:20

   The time left is (total − done) · elapsed / done, as in the bar; "--:--"
   while nothing is done. Counts are clamped to 0..total. Pure. Returns the
   length of the full line (as snprintf does). */
size_t frame_progress_format_line(char* out, size_t size, int done, int total, double elapsed_s);

/* How progress is shown (render's --progress):
     AUTO   a bar on a terminal, lines otherwise (a log, a pipe, CI)
     BAR    the bar, redrawn in place with '\r' (even if not a terminal)
     LINES  one line per 5 % of the frames (and the last), each ending in '\n'
     NONE   nothing */
typedef enum frame_progress_mode {
    FRAME_PROGRESS_AUTO,
    FRAME_PROGRESS_BAR,
    FRAME_PROGRESS_LINES,
    FRAME_PROGRESS_NONE,
} frame_progress_mode;

/* "auto", "bar", "lines" or "none" into *mode; false for anything else. */
bool frame_progress_mode_parse(const char* text, frame_progress_mode* mode);

/* The progress being shown. Zero-initialised, or after begin decided not
   to show any, every call does nothing. */
typedef struct frame_progress {
    FILE* stream;       /* where it goes; NULL when nothing is shown */
    bool lines;         /* LINES (else the bar) */
    int total;          /* frames in the render */
    int last_step;      /* LINES: the last 5 % step written (0..20) */
    double start_s;     /* monotonic clock when begun */
    double last_draw_s; /* when the bar was last redrawn */
    size_t last_length; /* length of that line, to blank what a shorter one leaves */
} frame_progress;

/* Starts the clock. Shows nothing when `total` ≤ 1 or `mode` is NONE;
   AUTO picks the bar when `stream` is a terminal (isatty), else lines. The
   bar draws "0/total" at once; lines start at the first 5 %. */
void frame_progress_begin(frame_progress* progress, FILE* stream, int total, frame_progress_mode mode);
/* `done` frames are complete. The bar is redrawn in place ('\r') at most
   ten times a second, and always for the last frame; a line is written
   when `done` reaches a new multiple of 5 % of the total (rounded down),
   and for the last frame. */
void frame_progress_update(frame_progress* progress, int done);
/* Ends the bar's line ('\n') so that what follows (a summary, an error)
   starts on a line of its own. Call it on success and failure alike. */
void frame_progress_end(frame_progress* progress);

#endif
