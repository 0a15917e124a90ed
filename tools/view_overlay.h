/* tools/view_overlay.h — 2D drawing over `sinew view`'s window: filled
   rectangles and text in the generated bitmap font (view_font.h), in
   framebuffer pixels with the origin at the top left.

       view_overlay_begin(o, fb_width, fb_height, scale);
       view_overlay_rect(o, x, y, w, h, rgba);
       view_overlay_text(o, x, y, "12.3 ms", rgba);
       view_overlay_end(o);          // draws everything, blended, into the bound framebuffer

   Needs the window's GL context current. The GL state it changes (program,
   vertex array, buffer, texture unit 0, blending) is put back to what the
   renderer expects: blending off, nothing bound. */
#ifndef SINEW_TOOLS_VIEW_OVERLAY_H
#define SINEW_TOOLS_VIEW_OVERLAY_H

#include "tool_common.h"

typedef struct view_overlay view_overlay;

bool view_overlay_create(view_overlay** out, tool_error* err);
void view_overlay_destroy(view_overlay* overlay);

/* Starts a batch for a framebuffer of width × height pixels; text is drawn
   `scale` pixels per font pixel (1 and up: high-DPI screens get 2). */
void view_overlay_begin(view_overlay* overlay, int width, int height, int scale);
void view_overlay_rect(view_overlay* overlay, float x, float y, float w, float h, const float rgba[4]);
/* Draws one line of text with its top left at (x, y); returns its width in
   pixels. Characters outside printable ASCII are drawn as a box. */
float view_overlay_text(view_overlay* overlay, float x, float y, const char* text, const float rgba[4]);
/* Width and line height of text at the batch's scale, in pixels. */
float view_overlay_text_width(const view_overlay* overlay, const char* text);
float view_overlay_line_height(const view_overlay* overlay);
/* Draws the batch. */
void view_overlay_end(view_overlay* overlay);

#endif
