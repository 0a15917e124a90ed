/* Line and marker charts through cairo (see plot.h). */
#include "plot.h"

#include <cairo-svg.h>
#include <cairo.h>
#include <math.h>
#include <string.h>

#define PLOT_FONT "DejaVu Sans"
#define DEFAULT_WIDTH 960
#define DEFAULT_HEIGHT 600
#define MAX_TICKS 200
#define PLOT_PI 3.14159265358979323846

#define TITLE_SIZE 20.0
#define SUBTITLE_SIZE 13.0
#define LABEL_SIZE 15.0
#define TICK_SIZE 13.0
#define LEGEND_SIZE 14.0
#define PAD 16.0
#define TICK_LENGTH 5.0
#define LEGEND_ROW 22.0
#define LEGEND_SAMPLE 40.0
#define MARKER_RADIUS 4.0

static const plot_rgb ink = {0.15, 0.15, 0.15};
static const plot_rgb grid_ink = {0.87, 0.87, 0.87};

typedef struct box {
    double left, top, right, bottom;
} box;

/* Where everything goes, worked out once from the text sizes. */
typedef struct layout {
    double width, height;
    box axes;
    double x_step, y_step;
    int x_decimals, y_decimals;
    box legend; /* all zero when there is no legend */
    size_t legend_rows;
} layout;

plot_format plot_format_from_path(const char* path) {
    if (tool_has_extension(path, ".svg")) return PLOT_FORMAT_SVG;
    if (tool_has_extension(path, ".png")) return PLOT_FORMAT_PNG;
    return PLOT_FORMAT_UNKNOWN;
}

/* ---- ticks ---------------------------------------------------------------- */

/* About ten steps of 1, 2, 2.5 or 5 × 10^k over the range. */
static double nice_step(double range) {
    double raw = range / 10.0;
    double magnitude = pow(10.0, floor(log10(raw)));
    double norm = raw / magnitude;
    double nice = norm <= 1.0 ? 1.0 : norm <= 2.0 ? 2.0 : norm <= 2.5 ? 2.5 : norm <= 5.0 ? 5.0 : 10.0;
    return nice * magnitude;
}

/* Fewest decimals that write every multiple of `step` exactly. */
static int step_decimals(double step) {
    for (int d = 0; d < 8; d++) {
        double scaled = step * pow(10.0, d);
        if (fabs(scaled - round(scaled)) < 1e-6 * fmax(1.0, scaled)) return d;
    }
    return 8;
}

static double axis_step(const plot_axis* axis) {
    return axis->tick_step > 0.0 ? axis->tick_step : nice_step(axis->max - axis->min);
}

/* Ticks are k·step for k in [first, last]; k, not an accumulated sum, so
   the last tick is not lost to rounding. */
static void tick_range(const plot_axis* axis, double step, long* first, long* last) {
    *first = (long)ceil(axis->min / step - 1e-9);
    *last = (long)floor(axis->max / step + 1e-9);
}

static void tick_label(char* out, size_t size, double value, double step, int decimals) {
    if (fabs(value) < 1e-9 * step) value = 0.0; /* no "-0.0" */
    snprintf(out, size, "%.*f", decimals, value);
}

/* ---- text ------------------------------------------------------------------- */

static void set_font(cairo_t* cr, double size, bool bold) {
    cairo_select_font_face(cr, PLOT_FONT, CAIRO_FONT_SLANT_NORMAL,
                           bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, size);
}

static double text_width(cairo_t* cr, const char* text) {
    cairo_text_extents_t e;
    cairo_text_extents(cr, text, &e);
    return e.x_advance;
}

/* Draws `text` anchored at (x, y): halign 0 puts its left end there, 0.5
   its centre, 1 its right end; vertically it is centred on y. */
static void draw_text(cairo_t* cr, const char* text, double x, double y, double halign) {
    cairo_font_extents_t fe;
    cairo_font_extents(cr, &fe);
    cairo_move_to(cr, x - halign * text_width(cr, text), y + (fe.ascent - fe.descent) / 2.0);
    cairo_show_text(cr, text);
}

static void set_color(cairo_t* cr, plot_rgb c) {
    cairo_set_source_rgb(cr, c.r, c.g, c.b);
}

/* ---- layout --------------------------------------------------------------------- */

static double max_tick_label_width(cairo_t* cr, const plot_axis* axis, double step, int decimals) {
    long first, last;
    tick_range(axis, step, &first, &last);
    double width = 0.0;
    char text[64];
    for (long k = first; k <= last; k++) {
        tick_label(text, sizeof text, (double)k * step, step, decimals);
        width = fmax(width, text_width(cr, text));
    }
    return width;
}

static bool make_layout(cairo_t* cr, const plot_desc* desc, double width, double height, layout* out,
                        tool_error* err) {
    memset(out, 0, sizeof *out);
    out->width = width;
    out->height = height;
    out->x_step = axis_step(&desc->x);
    out->y_step = axis_step(&desc->y);
    out->x_decimals = step_decimals(out->x_step);
    out->y_decimals = step_decimals(out->y_step);

    double top = PAD;
    if (desc->title) top += TITLE_SIZE * 1.4;
    if (desc->subtitle) top += SUBTITLE_SIZE * 1.5;
    top += 10.0;

    set_font(cr, TICK_SIZE, false);
    double y_ticks = max_tick_label_width(cr, &desc->y, out->y_step, out->y_decimals);
    double left = PAD + (desc->y.label ? LABEL_SIZE * 1.6 : 0.0) + y_ticks + TICK_LENGTH + 6.0;
    double bottom = height - PAD - (desc->x.label ? LABEL_SIZE * 1.6 : 0.0) - TICK_SIZE * 1.4 - TICK_LENGTH - 4.0;

    set_font(cr, LEGEND_SIZE, false);
    double label_width = 0.0;
    for (size_t i = 0; i < desc->series_count; i++) {
        if (!desc->series[i].label) continue;
        label_width = fmax(label_width, text_width(cr, desc->series[i].label));
        out->legend_rows++;
    }
    /* Room for half of the last x tick label past the right end of the axes. */
    double right = width - PAD - 12.0;
    if (out->legend_rows) {
        double legend_width = 12.0 + LEGEND_SAMPLE + 10.0 + label_width + 12.0;
        out->legend = (box){width - PAD - legend_width, top, width - PAD,
                            top + 8.0 + (double)out->legend_rows * LEGEND_ROW + 6.0};
        right = out->legend.left - 24.0;
    }
    out->axes = (box){left, top, right, bottom};
    if (right - left < 60.0 || bottom - top < 60.0)
        return tool_error_set(err, "plot: a %.0f × %.0f canvas leaves no room for the axes", width, height);
    return true;
}

static double map_x(const plot_desc* desc, const layout* lay, double x) {
    return lay->axes.left + (x - desc->x.min) / (desc->x.max - desc->x.min) * (lay->axes.right - lay->axes.left);
}

static double map_y(const plot_desc* desc, const layout* lay, double y) {
    return lay->axes.bottom - (y - desc->y.min) / (desc->y.max - desc->y.min) * (lay->axes.bottom - lay->axes.top);
}

/* Half-pixel offset so 1-unit lines land on whole pixels in PNGs. */
static double crisp(double v) {
    return floor(v) + 0.5;
}

/* ---- drawing ------------------------------------------------------------------------ */

static void draw_grid(cairo_t* cr, const plot_desc* desc, const layout* lay) {
    long first, last;
    set_color(cr, grid_ink);
    cairo_set_line_width(cr, 1.0);
    tick_range(&desc->x, lay->x_step, &first, &last);
    for (long k = first; k <= last; k++) {
        double x = crisp(map_x(desc, lay, (double)k * lay->x_step));
        cairo_move_to(cr, x, lay->axes.top);
        cairo_line_to(cr, x, lay->axes.bottom);
    }
    tick_range(&desc->y, lay->y_step, &first, &last);
    for (long k = first; k <= last; k++) {
        double y = crisp(map_y(desc, lay, (double)k * lay->y_step));
        cairo_move_to(cr, lay->axes.left, y);
        cairo_line_to(cr, lay->axes.right, y);
    }
    cairo_stroke(cr);
}

static void set_line_style(cairo_t* cr, const plot_series* s) {
    static const double dashes[] = {7.0, 5.0};
    cairo_set_line_width(cr, 2.2);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    cairo_set_dash(cr, dashes, (s->style & PLOT_DASHED) ? 2 : 0, 0.0);
    set_color(cr, s->color);
}

static bool has_line(const plot_series* s) {
    return s->style == 0 || (s->style & (PLOT_LINE | PLOT_DASHED));
}

static void draw_series_line(cairo_t* cr, const plot_desc* desc, const layout* lay, const plot_series* s) {
    set_line_style(cr, s);
    bool pen_down = false;
    for (size_t i = 0; i < s->count; i++) {
        if (!isfinite(s->x[i]) || !isfinite(s->y[i])) {
            pen_down = false; /* a gap, not a line through garbage */
            continue;
        }
        double x = map_x(desc, lay, s->x[i]), y = map_y(desc, lay, s->y[i]);
        if (pen_down)
            cairo_line_to(cr, x, y);
        else
            cairo_move_to(cr, x, y);
        pen_down = true;
    }
    cairo_stroke(cr);
    cairo_set_dash(cr, NULL, 0, 0.0);
}

static void draw_marker(cairo_t* cr, plot_marker marker, plot_rgb color, double x, double y) {
    double r = MARKER_RADIUS;
    cairo_new_sub_path(cr);
    switch (marker) {
    case PLOT_MARKER_SQUARE:
        cairo_rectangle(cr, x - r * 0.9, y - r * 0.9, r * 1.8, r * 1.8);
        break;
    case PLOT_MARKER_DIAMOND:
        cairo_move_to(cr, x, y - r * 1.25);
        cairo_line_to(cr, x + r * 1.25, y);
        cairo_line_to(cr, x, y + r * 1.25);
        cairo_line_to(cr, x - r * 1.25, y);
        cairo_close_path(cr);
        break;
    case PLOT_MARKER_CIRCLE:
    default:
        cairo_arc(cr, x, y, r, 0.0, 2.0 * PLOT_PI);
        break;
    }
    /* Hollow: the series' own line stays readable through its markers. */
    cairo_set_source_rgb(cr, 1.0, 1.0, 1.0);
    cairo_fill_preserve(cr);
    set_color(cr, color);
    cairo_set_line_width(cr, 1.6);
    cairo_set_dash(cr, NULL, 0, 0.0);
    cairo_stroke(cr);
}

static void draw_series_markers(cairo_t* cr, const plot_desc* desc, const layout* lay, const plot_series* s) {
    for (size_t i = 0; i < s->count; i++) {
        if (!isfinite(s->x[i]) || !isfinite(s->y[i])) continue;
        draw_marker(cr, s->marker, s->color, map_x(desc, lay, s->x[i]), map_y(desc, lay, s->y[i]));
    }
}

static void clip_to(cairo_t* cr, box b, double margin) {
    cairo_reset_clip(cr);
    cairo_rectangle(cr, b.left - margin, b.top - margin, b.right - b.left + 2.0 * margin,
                    b.bottom - b.top + 2.0 * margin);
    cairo_clip(cr);
}

static void draw_axes(cairo_t* cr, const plot_desc* desc, const layout* lay) {
    const box* a = &lay->axes;
    char text[64];
    long first, last;

    set_color(cr, ink);
    cairo_set_line_width(cr, 1.2);
    cairo_rectangle(cr, crisp(a->left), crisp(a->top), floor(a->right) - floor(a->left),
                    floor(a->bottom) - floor(a->top));
    cairo_stroke(cr);

    set_font(cr, TICK_SIZE, false);
    cairo_set_line_width(cr, 1.0);
    tick_range(&desc->x, lay->x_step, &first, &last);
    for (long k = first; k <= last; k++) {
        double v = (double)k * lay->x_step, x = crisp(map_x(desc, lay, v));
        cairo_move_to(cr, x, a->bottom);
        cairo_line_to(cr, x, a->bottom + TICK_LENGTH);
        cairo_stroke(cr);
        tick_label(text, sizeof text, v, lay->x_step, lay->x_decimals);
        draw_text(cr, text, x, a->bottom + TICK_LENGTH + 4.0 + TICK_SIZE * 0.6, 0.5);
    }
    tick_range(&desc->y, lay->y_step, &first, &last);
    for (long k = first; k <= last; k++) {
        double v = (double)k * lay->y_step, y = crisp(map_y(desc, lay, v));
        cairo_move_to(cr, a->left, y);
        cairo_line_to(cr, a->left - TICK_LENGTH, y);
        cairo_stroke(cr);
        tick_label(text, sizeof text, v, lay->y_step, lay->y_decimals);
        draw_text(cr, text, a->left - TICK_LENGTH - 4.0, y, 1.0);
    }

    set_font(cr, LABEL_SIZE, false);
    if (desc->x.label)
        draw_text(cr, desc->x.label, (a->left + a->right) / 2.0, lay->height - PAD - LABEL_SIZE * 0.6, 0.5);
    if (desc->y.label) {
        cairo_save(cr);
        cairo_translate(cr, PAD + LABEL_SIZE * 0.6, (a->top + a->bottom) / 2.0);
        cairo_rotate(cr, -PLOT_PI / 2.0);
        draw_text(cr, desc->y.label, 0.0, 0.0, 0.5);
        cairo_restore(cr);
    }
}

static void draw_titles(cairo_t* cr, const plot_desc* desc, const layout* lay) {
    double centre = (lay->axes.left + lay->axes.right) / 2.0;
    double y = PAD;
    set_color(cr, ink);
    if (desc->title) {
        set_font(cr, TITLE_SIZE, true);
        draw_text(cr, desc->title, centre, y + TITLE_SIZE * 0.6, 0.5);
        y += TITLE_SIZE * 1.4;
    }
    if (desc->subtitle) {
        set_font(cr, SUBTITLE_SIZE, false);
        set_color(cr, (plot_rgb){0.35, 0.35, 0.35});
        draw_text(cr, desc->subtitle, centre, y + SUBTITLE_SIZE * 0.6, 0.5);
    }
}

static void draw_legend(cairo_t* cr, const plot_desc* desc, const layout* lay) {
    if (!lay->legend_rows) return;
    const box* b = &lay->legend;
    cairo_rectangle(cr, crisp(b->left), crisp(b->top), floor(b->right - b->left), floor(b->bottom - b->top));
    cairo_set_source_rgb(cr, 1.0, 1.0, 1.0);
    cairo_fill_preserve(cr);
    set_color(cr, (plot_rgb){0.7, 0.7, 0.7});
    cairo_set_line_width(cr, 1.0);
    cairo_stroke(cr);

    set_font(cr, LEGEND_SIZE, false);
    double y = b->top + 8.0 + LEGEND_ROW / 2.0;
    double sample_left = b->left + 12.0, sample_right = sample_left + LEGEND_SAMPLE;
    for (size_t i = 0; i < desc->series_count; i++) {
        const plot_series* s = &desc->series[i];
        if (!s->label) continue;
        if (has_line(s)) {
            set_line_style(cr, s);
            cairo_move_to(cr, sample_left, y);
            cairo_line_to(cr, sample_right, y);
            cairo_stroke(cr);
            cairo_set_dash(cr, NULL, 0, 0.0);
        }
        if (s->style & PLOT_MARKERS) draw_marker(cr, s->marker, s->color, (sample_left + sample_right) / 2.0, y);
        set_color(cr, ink);
        draw_text(cr, s->label, sample_right + 10.0, y, 0.0);
        y += LEGEND_ROW;
    }
}

static void draw(cairo_t* cr, const plot_desc* desc, const layout* lay) {
    cairo_set_source_rgb(cr, 1.0, 1.0, 1.0);
    cairo_paint(cr);
    draw_grid(cr, desc, lay);

    clip_to(cr, lay->axes, 0.0);
    for (size_t i = 0; i < desc->series_count; i++)
        if (has_line(&desc->series[i])) draw_series_line(cr, desc, lay, &desc->series[i]);
    /* Markers may overhang the axes by their radius: points at the ends stay whole. */
    clip_to(cr, lay->axes, MARKER_RADIUS + 2.0);
    for (size_t i = 0; i < desc->series_count; i++)
        if (desc->series[i].style & PLOT_MARKERS) draw_series_markers(cr, desc, lay, &desc->series[i]);
    cairo_reset_clip(cr);

    draw_axes(cr, desc, lay);
    draw_titles(cr, desc, lay);
    draw_legend(cr, desc, lay);
}

/* ---- checking and writing ---------------------------------------------------------- */

static bool check_axis(const plot_axis* axis, const char* name, tool_error* err) {
    if (!isfinite(axis->min) || !isfinite(axis->max) || !(axis->min < axis->max))
        return tool_error_set(err, "plot: the %s axis needs min < max (got %g, %g)", name, axis->min, axis->max);
    if (!isfinite(axis->tick_step) || axis->tick_step < 0.0 ||
        (axis->tick_step > 0.0 && (axis->max - axis->min) / axis->tick_step > MAX_TICKS))
        return tool_error_set(err, "plot: the %s axis tick step %g is out of range", name, axis->tick_step);
    return true;
}

static bool check_desc(const plot_desc* desc, tool_error* err) {
    if (!check_axis(&desc->x, "x", err) || !check_axis(&desc->y, "y", err)) return false;
    if ((desc->width && (desc->width < 200 || desc->width > 8000)) ||
        (desc->height && (desc->height < 200 || desc->height > 8000)))
        return tool_error_set(err, "plot: canvas %d × %d is outside 200..8000", desc->width, desc->height);
    if (desc->series_count && !desc->series) return tool_error_set(err, "plot: series is NULL");
    for (size_t i = 0; i < desc->series_count; i++)
        if (desc->series[i].count && (!desc->series[i].x || !desc->series[i].y))
            return tool_error_set(err, "plot: series %zu has points but no x or y values", i);
    return true;
}

static cairo_status_t write_to_file(void* closure, const unsigned char* data, unsigned int length) {
    return tool_atomic_write(closure, data, length) ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

bool plot_write(const char* path, const plot_desc* desc, tool_error* err) {
    plot_format format = plot_format_from_path(path);
    if (format == PLOT_FORMAT_UNKNOWN)
        return tool_error_set(err, "cannot plot to '%s': the name must end in .svg or .png", path);
    if (!check_desc(desc, err)) return false;
    int width = desc->width ? desc->width : DEFAULT_WIDTH;
    int height = desc->height ? desc->height : DEFAULT_HEIGHT;

    tool_atomic_file file;
    if (!tool_atomic_open(&file, path, err)) return false;

    cairo_surface_t* surface;
    if (format == PLOT_FORMAT_SVG) {
        surface = cairo_svg_surface_create_for_stream(write_to_file, &file, width, height);
#if CAIRO_VERSION >= CAIRO_VERSION_ENCODE(1, 16, 0)
        cairo_svg_surface_set_document_unit(surface, CAIRO_SVG_UNIT_PX);
#endif
    } else {
        surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height);
    }
    cairo_t* cr = cairo_create(surface);
    layout lay;
    bool ok = make_layout(cr, desc, width, height, &lay, err);
    if (ok) draw(cr, desc, &lay);
    cairo_status_t status = cairo_status(cr);
    cairo_destroy(cr);
    if (ok && status == CAIRO_STATUS_SUCCESS) {
        if (format == PLOT_FORMAT_PNG) {
            status = cairo_surface_write_to_png_stream(surface, write_to_file, &file);
        } else {
            cairo_surface_finish(surface); /* the SVG is written here */
            status = cairo_surface_status(surface);
        }
    }
    cairo_surface_destroy(surface);

    if (ok && status != CAIRO_STATUS_SUCCESS) {
        ok = false;
        if (file.write_errno)
            tool_error_set(err, "cannot write '%s': %s", path, strerror(file.write_errno));
        else
            tool_error_set(err, "cannot draw '%s': cairo: %s", path, cairo_status_to_string(status));
    }
    if (!ok) {
        tool_atomic_abort(&file);
        return false;
    }
    return tool_atomic_commit(&file, err);
}
