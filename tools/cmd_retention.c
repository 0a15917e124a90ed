/* sinew retention — how much of a limb's radius linear blend skinning keeps
   under twist (Kavan et al. 2008; RTR4 §4.4), from the closed form and
   measured on the library's skinned twist tube, with an optional plot. */
#include "plot.h"
#include "tool_common.h"

#include "sinew/skin.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PHI_STEP_DEG 10
#define PHI_COUNT 18 /* φ = 0, 10, …, 170°; 180° is the degenerate w = ½ pinch */
#define MIN_RINGS 7
#define MAX_RINGS 2401
#define MIN_SEGMENTS 3
#define MAX_SEGMENTS 512
#define FORMULA_SAMPLES 201

/* The weights of the φ = 120° table. */
static const double phi120_weights[] = {0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0};
#define PHI120_COUNT (sizeof phi120_weights / sizeof phi120_weights[0])

static const int plot_phis_deg[] = {60, 90, 120, 150, 170};
#define PLOT_PHI_COUNT (sizeof plot_phis_deg / sizeof plot_phis_deg[0])
static const plot_rgb plot_colors[PLOT_PHI_COUNT] = {
    {0.12, 0.47, 0.71}, {0.17, 0.63, 0.17}, {0.89, 0.47, 0.06}, {0.84, 0.15, 0.16}, {0.58, 0.40, 0.74},
};
static const char* const plot_labels[PLOT_PHI_COUNT] = {"φ = 60°", "φ = 90°", "φ = 120°", "φ = 150°",
                                                        "φ = 170°"};
static const plot_rgb plot_grey = {0.35, 0.35, 0.35};

const char cmd_retention_help[] =
    "usage: sinew retention [-o FILE.svg|FILE.png] [--rings N] [--segments N]\n"
    "                       [--quiet | --json]\n"
    "\n"
    "How much of a limb's radius linear blend skinning (LBS) keeps when two\n"
    "joints differ by a twist φ and a vertex is weighted w and 1 − w between\n"
    "them (the closed form for two joints):\n"
    "\n"
    "    retention(w, φ) = sqrt(1 − 2w(1 − w)(1 − cos φ)),  |cos(φ/2)| at w = 0.5\n"
    "\n"
    "Prints three tables:\n"
    "  1. the formula at w = 0.5 next to |cos(φ/2)|, φ = 0, 10, …, 170°;\n"
    "  2. the formula at φ = 120° for w = 0, 0.1, 0.25, 0.5, 0.75, 0.9, 1;\n"
    "  3. the radius measured on a skinned twist tube (3 m long, radius 0.5 m,\n"
    "     two joints, weights rising linearly over the middle third) at the ring\n"
    "     with w = 0.5, with LBS and with dual quaternion skinning (DQS),\n"
    "     φ = 0, 10, …, 170°, and the LBS error against the formula.\n"
    "\n"
    "options:\n"
    "  -o, --output FILE\n"
    "                  also plot retention against w for φ = 60, 90, 120, 150,\n"
    "                  170°: the formula, and the LBS and DQS measurements on the\n"
    "                  tube's rings. FILE ends in .svg or .png (this picks the\n"
    "                  format); missing folders are created; FILE is replaced\n"
    "                  only once fully written. A regular file or a new one (a\n"
    "                  link is followed); not '-': standard output carries the\n"
    "                  tables.\n"
    "  --rings N       rings along the tube, 7..2401 (default 61: weight steps of\n"
    "                  0.05). With N − 1 even a ring sits at w = 0.5; otherwise\n"
    "                  table 3 uses the nearest ring and prints its w.\n"
    "  --segments N    vertices around each ring, 3..512 (default 32)\n"
    "  --quiet         print nothing but errors: no tables, no \"wrote FILE\"\n"
    "                  line (for writing a plot)\n"
    "  --json          print the three tables as one JSON object on stdout, with\n"
    "                  keys \"tube\", \"table_w05\", \"table_phi120\" and \"measured\"\n"
    "  -h, --help      show this help\n"
    "\n"
    "exit status: 0 ok, 1 failure (measurement or file output), 2 usage error\n";

typedef struct retention_options {
    const char* plot_path; /* NULL: no plot */
    int rings;             /* 0: the library's default */
    int segments;
    bool quiet;
    bool json;
} retention_options;

/* Every measurement the tables and the plot need, taken once. */
typedef struct tube_measurements {
    sw_twist_tube_desc tube; /* resolved */
    int mid_ring;            /* the ring whose weight is nearest ½ */
    double mid_weight;
    float* lbs; /* PHI_COUNT rows of tube.rings retentions, row k for φ = 10k° */
    float* dqs;
} tube_measurements;

static double radians(double degrees) {
    return degrees * SW_PI / 180.0;
}

/* ---- measuring ------------------------------------------------------------------ */

static bool measure_tube(tube_measurements* m, const retention_options* opt, tool_error* err) {
    memset(m, 0, sizeof *m);
    sw_twist_tube_desc desc = {.rings = opt->rings, .segments = opt->segments};
    sw_result r = sw_twist_tube_resolve(&m->tube, &desc);
    if (r != SW_OK) return tool_error_set(err, "twist tube (%d rings, %d segments): %s", desc.rings, desc.segments,
                                          sw_result_str(r));
    int rings = m->tube.rings;
    double best = INFINITY;
    for (int ring = 0; ring < rings; ring++) {
        double w = sw_twist_tube_ring_weight(&m->tube, ring);
        if (fabs(w - 0.5) < best) {
            best = fabs(w - 0.5);
            m->mid_ring = ring;
            m->mid_weight = w;
        }
    }

    m->lbs = calloc((size_t)PHI_COUNT * (size_t)rings, sizeof *m->lbs);
    m->dqs = calloc((size_t)PHI_COUNT * (size_t)rings, sizeof *m->dqs);
    if (!m->lbs || !m->dqs) return tool_error_set(err, "out of memory for %d rings", rings);

    size_t scratch_size = sw_twist_tube_measure_scratch_size(&m->tube);
    void* scratch = aligned_alloc(16, (scratch_size + 15) / 16 * 16);
    if (!scratch) return tool_error_set(err, "out of memory for %d rings", rings);
    for (int k = 0; k < PHI_COUNT && r == SW_OK; k++) {
        float twist = (float)radians(k * PHI_STEP_DEG);
        r = sw_twist_tube_measure(&m->tube, twist, SW_SKIN_LBS, scratch, scratch_size, m->lbs + (size_t)k * (size_t)rings);
        if (r != SW_OK) {
            tool_error_set(err, "measuring the twist tube with LBS at φ = %d°: %s", k * PHI_STEP_DEG, sw_result_str(r));
            break;
        }
        r = sw_twist_tube_measure(&m->tube, twist, SW_SKIN_DQS, scratch, scratch_size, m->dqs + (size_t)k * (size_t)rings);
        if (r != SW_OK)
            tool_error_set(err, "measuring the twist tube with DQS at φ = %d°: %s", k * PHI_STEP_DEG, sw_result_str(r));
    }
    free(scratch);
    return r == SW_OK;
}

static void free_measurements(tube_measurements* m) {
    free(m->lbs);
    free(m->dqs);
    m->lbs = m->dqs = NULL;
}

static double lbs_at(const tube_measurements* m, int phi_index, int ring) {
    return m->lbs[(size_t)phi_index * (size_t)m->tube.rings + (size_t)ring];
}

static double dqs_at(const tube_measurements* m, int phi_index, int ring) {
    return m->dqs[(size_t)phi_index * (size_t)m->tube.rings + (size_t)ring];
}

/* (measured − formula) / formula in percent. */
static double relative_error_percent(double measured, double formula) {
    return formula != 0.0 ? (measured - formula) / formula * 100.0 : NAN;
}

/* ---- text tables ------------------------------------------------------------------ */

/* Right-aligns UTF-8 `text` in `width` columns (printf counts bytes, and
   "φ" or "°" are two). */
static void print_cell(const char* text, int width) {
    int columns = 0;
    for (const char* p = text; *p; p++)
        if (((unsigned char)*p & 0xC0) != 0x80) columns++;
    printf("%*s%s", width > columns ? width - columns : 0, "", text);
}

static void print_number(const char* format, double value, int width) {
    char text[64];
    snprintf(text, sizeof text, format, value);
    print_cell(text, width);
}

static void print_degrees(int degrees, int width) {
    char text[32];
    snprintf(text, sizeof text, "%d°", degrees);
    print_cell(text, width);
}

static void print_table_w05(void) {
    printf("LBS radius retention at w = 0.5 (closed form): the general formula reduces to |cos(φ/2)|.\n");
    print_cell("φ", 6);
    print_cell("formula", 12);
    print_cell("|cos(φ/2)|", 12);
    print_cell("difference", 12);
    printf("\n");
    for (int k = 0; k < PHI_COUNT; k++) {
        double phi = radians(k * PHI_STEP_DEG);
        double formula = sw_lbs_retention(0.5, phi), half = fabs(cos(phi / 2.0));
        print_degrees(k * PHI_STEP_DEG, 6);
        print_number("%.6f", formula, 12);
        print_number("%.6f", half, 12);
        print_number("%.1e", formula - half, 12);
        printf("\n");
    }
}

static void print_table_phi120(void) {
    printf("LBS radius retention at φ = 120° (closed form): no loss at w = 0 and 1, the most at w = 0.5.\n");
    print_cell("w", 6);
    print_cell("formula", 12);
    printf("\n");
    for (size_t i = 0; i < PHI120_COUNT; i++) {
        print_number("%.2f", phi120_weights[i], 6);
        print_number("%.6f", sw_lbs_retention(phi120_weights[i], radians(120.0)), 12);
        printf("\n");
    }
}

static void print_table_measured(const tube_measurements* m) {
    printf("Radius retention measured on the skinned twist tube at ring %d (w = %.4g): LBS follows the formula,\n"
           "DQS keeps the radius (tube %g m long, radius %g m, %d rings × %d segments; error = LBS vs formula).\n",
           m->mid_ring, m->mid_weight, m->tube.length, m->tube.radius, m->tube.rings, m->tube.segments);
    print_cell("φ", 6);
    print_cell("LBS", 12);
    print_cell("formula", 12);
    print_cell("error %", 12);
    print_cell("DQS", 12);
    printf("\n");
    for (int k = 0; k < PHI_COUNT; k++) {
        double formula = sw_lbs_retention(m->mid_weight, radians(k * PHI_STEP_DEG));
        double lbs = lbs_at(m, k, m->mid_ring);
        print_degrees(k * PHI_STEP_DEG, 6);
        print_number("%.6f", lbs, 12);
        print_number("%.6f", formula, 12);
        print_number("%+.1e", relative_error_percent(lbs, formula), 12);
        print_number("%.6f", dqs_at(m, k, m->mid_ring), 12);
        printf("\n");
    }
}

/* ---- JSON --------------------------------------------------------------------------- */

/* JSON has no NaN or infinity: those become null. */
static void json_number(double v) {
    if (isfinite(v))
        printf("%.9g", v);
    else
        printf("null");
}

static void print_json(const tube_measurements* m) {
    printf("{\n  \"tube\": {\"length_m\": ");
    json_number(m->tube.length);
    printf(", \"radius_m\": ");
    json_number(m->tube.radius);
    printf(", \"rings\": %d, \"segments\": %d, \"ring\": %d, \"w\": ", m->tube.rings, m->tube.segments,
           m->mid_ring);
    json_number(m->mid_weight);
    printf("},\n  \"table_w05\": [\n");
    for (int k = 0; k < PHI_COUNT; k++) {
        double phi = radians(k * PHI_STEP_DEG);
        double formula = sw_lbs_retention(0.5, phi), half = fabs(cos(phi / 2.0));
        printf("    {\"phi_deg\": %d, \"retention\": ", k * PHI_STEP_DEG);
        json_number(formula);
        printf(", \"cos_half\": ");
        json_number(half);
        printf(", \"difference\": ");
        json_number(formula - half);
        printf("}%s\n", k + 1 < PHI_COUNT ? "," : "");
    }
    printf("  ],\n  \"table_phi120\": [\n");
    for (size_t i = 0; i < PHI120_COUNT; i++) {
        printf("    {\"w\": ");
        json_number(phi120_weights[i]);
        printf(", \"retention\": ");
        json_number(sw_lbs_retention(phi120_weights[i], radians(120.0)));
        printf("}%s\n", i + 1 < PHI120_COUNT ? "," : "");
    }
    printf("  ],\n  \"measured\": [\n");
    for (int k = 0; k < PHI_COUNT; k++) {
        double formula = sw_lbs_retention(m->mid_weight, radians(k * PHI_STEP_DEG));
        double lbs = lbs_at(m, k, m->mid_ring);
        printf("    {\"phi_deg\": %d, \"w\": ", k * PHI_STEP_DEG);
        json_number(m->mid_weight);
        printf(", \"lbs\": ");
        json_number(lbs);
        printf(", \"formula\": ");
        json_number(formula);
        printf(", \"relative_error_percent\": ");
        json_number(relative_error_percent(lbs, formula));
        printf(", \"dqs\": ");
        json_number(dqs_at(m, k, m->mid_ring));
        printf("}%s\n", k + 1 < PHI_COUNT ? "," : "");
    }
    printf("  ]\n}\n");
}

/* ---- plot ------------------------------------------------------------------------------ */

/* Rings of the blend zone: weights strictly between 0 and 1, plus the two
   rings where it starts and ends (weight 0 and 1 next to a changing one). */
static bool in_blend_zone(const sw_twist_tube_desc* tube, int ring) {
    float w = sw_twist_tube_ring_weight(tube, ring);
    if (w > 0.0f && w < 1.0f) return true;
    return (ring > 0 && sw_twist_tube_ring_weight(tube, ring - 1) != w) ||
           (ring + 1 < tube->rings && sw_twist_tube_ring_weight(tube, ring + 1) != w);
}

static bool write_plot(const char* path, const tube_measurements* m, tool_error* err) {
    const sw_twist_tube_desc* tube = &m->tube;
    size_t zone_count = 0;
    for (int ring = 0; ring < tube->rings; ring++)
        if (in_blend_zone(tube, ring)) zone_count++;

    /* Per φ, in xs: formula w, ring w; in ys: formula, LBS, DQS (the ring
       weights serve both measured series). */
    size_t per_phi = FORMULA_SAMPLES + 2 * zone_count;
    double* xs = calloc(PLOT_PHI_COUNT * per_phi, sizeof *xs);
    double* ys = calloc(PLOT_PHI_COUNT * per_phi, sizeof *ys);
    if (!xs || !ys) {
        free(xs);
        free(ys);
        return tool_error_set(err, "cannot plot to '%s': out of memory", path);
    }

    plot_series series[3 * PLOT_PHI_COUNT + 2];
    size_t count = 0;
    for (size_t i = 0; i < PLOT_PHI_COUNT; i++) {
        double phi = radians(plot_phis_deg[i]);
        int k = plot_phis_deg[i] / PHI_STEP_DEG;
        double* fx = xs + i * per_phi;
        double* fy = ys + i * per_phi;
        double* lx = fx + FORMULA_SAMPLES;
        double* ly = fy + FORMULA_SAMPLES;
        double* dy = ly + zone_count;
        for (int s = 0; s < FORMULA_SAMPLES; s++) {
            fx[s] = (double)s / (FORMULA_SAMPLES - 1);
            fy[s] = sw_lbs_retention(fx[s], phi);
        }
        size_t n = 0;
        for (int ring = 0; ring < tube->rings; ring++) {
            if (!in_blend_zone(tube, ring)) continue;
            lx[n] = sw_twist_tube_ring_weight(tube, ring);
            ly[n] = lbs_at(m, k, ring);
            dy[n] = dqs_at(m, k, ring);
            n++;
        }
        series[count++] = (plot_series){.x = fx, .y = fy, .count = FORMULA_SAMPLES, .color = plot_colors[i],
                                        .style = PLOT_LINE, .label = plot_labels[i]};
        series[count++] = (plot_series){.x = lx, .y = ly, .count = n, .color = plot_colors[i],
                                        .style = PLOT_MARKERS, .marker = PLOT_MARKER_CIRCLE};
    }
    /* Legend-only rows that explain the styles shared by every φ. */
    series[count++] = (plot_series){.color = plot_grey, .style = PLOT_LINE, .label = "LBS, formula"};
    series[count++] = (plot_series){.color = plot_grey, .style = PLOT_MARKERS, .marker = PLOT_MARKER_CIRCLE,
                                    .label = "LBS, measured"};
    /* DQS last, so its squares at 1.0 sit on top of the formula lines' ends. */
    for (size_t i = 0; i < PLOT_PHI_COUNT; i++) {
        double* lx = xs + i * per_phi + FORMULA_SAMPLES;
        double* dy = ys + i * per_phi + FORMULA_SAMPLES + zone_count;
        series[count++] = (plot_series){.x = lx, .y = dy, .count = zone_count, .color = plot_grey,
                                        .style = PLOT_DASHED | PLOT_MARKERS, .marker = PLOT_MARKER_SQUARE,
                                        .label = i == 0 ? "DQS, measured" : NULL};
    }

    char subtitle[256];
    snprintf(subtitle, sizeof subtitle,
             "lines: √(1 − 2w(1 − w)(1 − cos φ)); markers: rings of the skinned tube's blend zone "
             "(%d rings × %d segments)",
             tube->rings, tube->segments);
    plot_desc desc = {
        .title = "LBS radius retention vs weight — twist tube",
        .subtitle = subtitle,
        .x = {.min = 0.0, .max = 1.0, .tick_step = 0.1, .label = "weight w of the twisted joint"},
        .y = {.min = 0.0, .max = 1.05, .tick_step = 0.1, .label = "radius retention (skinned / rest radius)"},
        .series = series,
        .series_count = count,
    };
    bool ok = plot_write(path, &desc, err);
    free(xs);
    free(ys);
    return ok;
}

/* ---- the command ------------------------------------------------------------------------ */

static int parse_options(tool_args* args, retention_options* opt, bool* out_help) {
    tool_error err;
    const char *arg, *name;
    long n;
    *out_help = false;
    while ((arg = tool_args_next(args))) {
        if (tool_args_is_help(arg)) {
            *out_help = true;
            return TOOL_EXIT_OK;
        } else if ((name = tool_args_output(args, arg, "--plot"))) { /* --plot: before 0.2; kept through 0.2 */
            if (opt->plot_path) return tool_usage(args, "one output file only");
            if (!(opt->plot_path = tool_args_value(args, name, &err))) return tool_usage(args, "%s", err.message);
        } else if (tool_args_option(args, arg, "--rings")) {
            const char* v = tool_args_value(args, "--rings", &err);
            if (!v || !tool_parse_int("--rings", v, MIN_RINGS, MAX_RINGS, &n, &err))
                return tool_usage(args, "%s", err.message);
            opt->rings = (int)n;
        } else if (tool_args_option(args, arg, "--segments")) {
            const char* v = tool_args_value(args, "--segments", &err);
            if (!v || !tool_parse_int("--segments", v, MIN_SEGMENTS, MAX_SEGMENTS, &n, &err))
                return tool_usage(args, "%s", err.message);
            opt->segments = (int)n;
        } else if (tool_args_flag(arg, "--quiet")) {
            opt->quiet = true;
        } else if (tool_args_flag(arg, "--json")) {
            opt->json = true;
        } else if (arg[0] == '-') {
            return tool_unknown_option(args, arg);
        } else {
            return tool_usage(args, "unexpected argument '%s'", arg);
        }
    }
    if (opt->quiet && opt->json) return tool_usage(args, "--quiet and --json cannot be combined");
    if (tool_is_stdout(opt->plot_path))
        return tool_usage(args, "the plot cannot go to standard output ('-'), which carries the tables; give -o "
                                "FILE.svg or FILE.png");
    if (opt->plot_path && plot_format_from_path(opt->plot_path) == PLOT_FORMAT_UNKNOWN)
        return tool_usage(args, "output '%s': the file name must end in .svg or .png", opt->plot_path);
    return TOOL_EXIT_OK;
}

int cmd_retention(tool_args* args) {
    retention_options opt = {0};
    bool help;
    int status = parse_options(args, &opt, &help);
    if (status != TOOL_EXIT_OK) return status;
    if (help) return tool_print_help(args);

    tube_measurements m;
    tool_error err;
    /* Before the work: a device, a FIFO or a folder under the name is refused. */
    if (opt.plot_path && !tool_output_check(opt.plot_path, NULL, &err)) return tool_fail(args, "%s", err.message);
    if (!measure_tube(&m, &opt, &err)) {
        free_measurements(&m);
        return tool_fail(args, "%s", err.message);
    }
    /* Plot first: if the file cannot be written, stdout has nothing half-done on it. */
    if (opt.plot_path && !write_plot(opt.plot_path, &m, &err)) {
        free_measurements(&m);
        return tool_fail(args, "%s", err.message);
    }

    if (opt.json) {
        print_json(&m);
    } else if (!opt.quiet) {
        print_table_w05();
        printf("\n");
        print_table_phi120();
        printf("\n");
        print_table_measured(&m);
    }
    /* After the tables, so that the status line is the last thing shown. */
    if (opt.plot_path)
        tool_wrote(opt.quiet, "%s (%s plot, %zu twist angles, %d rings)", opt.plot_path,
                   plot_format_from_path(opt.plot_path) == PLOT_FORMAT_SVG ? "SVG" : "PNG", PLOT_PHI_COUNT,
                   m.tube.rings);
    free_measurements(&m);
    return TOOL_EXIT_OK;
}
