/* tools/plot.h — simple 2-D charts (lines, dashed lines, markers) written
   as SVG or PNG through cairo.

   Fill a plot_desc with axes and series, then call plot_write(path, &desc,
   &err): the file's extension (.svg or .png, any case) picks the format,
   and the file is written atomically (tool_atomic_*), so a failed plot
   leaves nothing behind. Series are drawn in order, lines first and markers
   on top, clipped to the axes; the legend sits to the right of the axes and
   lists every series with a label, in order. A series with no points and a
   label is a legend-only entry (to explain a style shared by several
   series).

   Text uses "DejaVu Sans" (Debian fonts-dejavu-core; fontconfig substitutes
   another sans face when it is missing). Pure apart from the file written;
   thread-safe as far as cairo is. */
#ifndef SINEW_TOOLS_PLOT_H
#define SINEW_TOOLS_PLOT_H

#include "tool_common.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct plot_rgb {
    double r, g, b; /* 0..1 */
} plot_rgb;

/* Style bits of a series; 0 means PLOT_LINE. */
enum {
    PLOT_LINE = 1u << 0,    /* solid polyline through the points */
    PLOT_DASHED = 1u << 1,  /* dashed polyline (implies a line) */
    PLOT_MARKERS = 1u << 2, /* a hollow marker at every point */
};

typedef enum plot_marker {
    PLOT_MARKER_CIRCLE = 0,
    PLOT_MARKER_SQUARE,
    PLOT_MARKER_DIAMOND,
} plot_marker;

typedef struct plot_series {
    const double* x; /* count values each; may be NULL when count is 0 */
    const double* y;
    size_t count;
    plot_rgb color;
    unsigned style;     /* PLOT_* bits */
    plot_marker marker; /* with PLOT_MARKERS */
    const char* label;  /* legend text (UTF-8); NULL = not in the legend */
} plot_series;

typedef struct plot_axis {
    double min, max;   /* shown range, min < max */
    double tick_step;  /* distance between ticks and grid lines; 0 = about 10 "nice" steps */
    const char* label; /* UTF-8; NULL = none */
} plot_axis;

/* Defaults (zero fields): 960 × 600 canvas, no title or subtitle. */
typedef struct plot_desc {
    const char* title;    /* bold, above the axes */
    const char* subtitle; /* smaller, under the title */
    plot_axis x, y;
    const plot_series* series;
    size_t series_count;
    int width, height; /* canvas: pixels for PNG, SVG user units (px) for SVG; 200..8000 */
} plot_desc;

typedef enum plot_format {
    PLOT_FORMAT_UNKNOWN = 0,
    PLOT_FORMAT_SVG,
    PLOT_FORMAT_PNG,
} plot_format;

/* The format a path's extension asks for. */
plot_format plot_format_from_path(const char* path);

/* Draws the chart and writes it to `path`. On failure returns false, `err`
   says why (naming the file for I/O errors) and no file is left: neither
   `path` (untouched if it existed) nor a temporary. */
bool plot_write(const char* path, const plot_desc* desc, tool_error* err);

#endif
