/* sinew bake probes — environment probes of a stage (docs/probes.md): a
   grid of probes over the stage's bounds, each captured as six cube faces
   by the renderer (sw_renderer_capture_probe_faces) and kept as SH9
   irradiance with its grid cell as its box and, for the specular, as the
   faces prefiltered by roughness (sw_render_probe_prefilter); one more cube
   captured at the stage's centre is the global cube. Written as a version 2
   probe file (sw_render_probe_file_write_specular). */
#include "bake_probes.h"

#include "scene_options.h"

#include "sinew/demo.h"
#include "sinew/gltf.h"
#include "sinew/gpu.h"
#include "sinew/import.h"
#include "sinew/pose.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROBES_DEFAULT_GRID 6
#define PROBES_DEFAULT_SIZE 32
#define PROBES_DEFAULT_HEIGHT 1.0

typedef struct probes_options {
    scene_stage stage;
    const char* out;
    long grid[2];
    bool grid_given;              /* --grid or --height */
    long size;
    double height;
    bool has_time;
    double hours;
    bool quiet;
    sw_gltf_options load;
} probes_options;

/* The demo character, posed at rest: the renderer draws a character every
   frame, so she stands far off while the probes are captured. */
typedef struct probes_scene {
    sw_model* character;
    sw_material_set materials;
    sw_pose pose;
    void* pose_memory;
} probes_scene;

static bool probes_scene_load(probes_scene* s, tool_error* err) {
    uint8_t* glb = NULL;
    size_t size = 0;
    sw_diag d;
    bool ok = sw_demo_character_glb(&glb, &size, &d) == SW_OK &&
              sw_gltf_load_memory(glb, size, SW_DEMO_CHARACTER_NAME, NULL, NULL, &s->character, &d) == SW_OK &&
              sw_material_set_read(s->character, &s->materials, &d) == SW_OK;
    sw_demo_character_glb_free(glb);
    if (!ok) return tool_error_set(err, "the capture's character: %s", d.message);
    sw_pose_sizes sizes = sw_pose_sizes_of(s->character);
    size_t bytes = (sw_pose_memory_size(&sizes) + 15) / 16 * 16;
    if (!(s->pose_memory = aligned_alloc(16, bytes))) return tool_error_set(err, "out of memory");
    sw_pose_bind(&s->pose, &sizes, s->pose_memory);
    if (sw_pose_evaluate(s->character, NULL, 0.0f, false, &s->pose, &d) != SW_OK)
        return tool_error_set(err, "the capture's character: %s", d.message);
    return true;
}

static void probes_scene_free(probes_scene* s) {
    sw_material_set_free(&s->materials);
    sw_model_free(s->character);
    free(s->pose_memory);
}

/* The grid: nx × nz probes at `height` above the stage's bottom, each at
   its cell's centre; its box the cell (x, z) and the stage's height (y),
   its fade half the smaller cell width. */
static size_t place_probes(const probes_options* o, const float lo[3], const float hi[3], sw_render_probe* out) {
    size_t n = 0;
    float cell[2] = {(hi[0] - lo[0]) / (float)o->grid[0], (hi[2] - lo[2]) / (float)o->grid[1]};
    float fade = 0.5f * (cell[0] < cell[1] ? cell[0] : cell[1]);
    for (long j = 0; j < o->grid[1]; j++)
        for (long i = 0; i < o->grid[0]; i++) {
            sw_render_probe* p = &out[n++];
            memset(p, 0, sizeof *p);
            p->box_min[0] = lo[0] + cell[0] * (float)i, p->box_max[0] = p->box_min[0] + cell[0];
            p->box_min[2] = lo[2] + cell[1] * (float)j, p->box_max[2] = p->box_min[2] + cell[1];
            p->box_min[1] = lo[1], p->box_max[1] = hi[1] > lo[1] + 2.0f * (float)o->height ? hi[1] : lo[1] + 2.0f * (float)o->height;
            p->position[0] = 0.5f * (p->box_min[0] + p->box_max[0]);
            p->position[1] = lo[1] + (float)o->height;
            p->position[2] = 0.5f * (p->box_min[2] + p->box_max[2]);
            p->fade = fade;
        }
    return n;
}

/* The stage's own probes: nodes whose name starts with "probe" (any case),
   at their rest world position; the box is where the node's rest world
   transform puts the cube [−1, 1]³ (its axis-aligned bounds: a node scaled
   by 2 has a box 4 m wide), fading over PROBES_NODE_FADE metres. Returns
   how many (0: none, the grid is used); more than out can hold: -1. */
#define PROBES_NODE_FADE 0.5f
static long node_probes(const scene_stage* stage, sw_render_probe* out) {
    long n = 0;
    for (size_t i = 0; i < stage->model->node_count; i++) {
        const char* name = stage->model->nodes[i].name;
        if (!name || strlen(name) < 5) continue;
        bool match = true;
        for (int k = 0; k < 5 && match; k++) match = (name[k] | 0x20) == "probe"[k];
        if (!match) continue;
        if (n == SW_RENDER_PROBE_MAX) return -1;
        const sw_mat34* w = &stage->rest.world[i];
        sw_render_probe* p = &out[n++];
        memset(p, 0, sizeof *p);
        for (int r = 0; r < 3; r++) {
            float half = fabsf(w->m[r][0]) + fabsf(w->m[r][1]) + fabsf(w->m[r][2]);
            p->position[r] = w->m[r][3];
            p->box_min[r] = w->m[r][3] - half, p->box_max[r] = w->m[r][3] + half;
        }
        p->fade = PROBES_NODE_FADE;
    }
    return n;
}

static bool write_probes(const char* path, const sw_render_probe* probes, size_t count, int cube_size,
                         const float* cubes, tool_error* err) {
    size_t size = sw_render_probe_file_specular_size(count, cube_size);
    uint8_t* bytes = malloc(size);
    if (!bytes) return tool_error_set(err, "out of memory");
    sw_diag d;
    bool ok = sw_render_probe_file_write_specular(probes, count, cube_size, cubes, bytes, size, &d) == SW_OK;
    if (!ok) tool_error_set(err, "%s", d.message);
    tool_atomic_file file;
    if (ok) ok = tool_atomic_open(&file, path, err);
    if (ok && !tool_atomic_write(&file, bytes, size)) {
        tool_atomic_abort(&file);
        ok = tool_error_set(err, "cannot write '%s'", path);
    } else if (ok) {
        ok = tool_atomic_commit(&file, err);
    }
    free(bytes);
    return ok;
}

static int parse(tool_args* args, probes_options* o) {
    tool_error err;
    for (const char* arg; (arg = tool_args_next(args));) {
        const char *v, *name;
        if (tool_args_is_help(arg)) return tool_print_help(args);
        if (tool_args_flag(arg, "--quiet")) {
            o->quiet = true;
        } else if (tool_args_flag(arg, "--allow-outside-paths")) {
            o->load.allow_outside_paths = true;
        } else if (tool_args_option(args, arg, "--grid")) {
            char* end = NULL;
            if (!(v = tool_args_value(args, "--grid", &err))) return tool_usage(args, "%s", err.message);
            o->grid_given = true;
            o->grid[0] = strtol(v, &end, 10);
            if (*end == ',') o->grid[1] = strtol(end + 1, &end, 10);
            if (*end || o->grid[0] < 1 || o->grid[1] < 1 || o->grid[0] * o->grid[1] > SW_RENDER_PROBE_MAX)
                return tool_usage(args, "--grid '%s': give NX,NZ, each at least 1, at most %d probes in all", v,
                                  SW_RENDER_PROBE_MAX);
        } else if (tool_args_option(args, arg, "--size")) {
            if (!(v = tool_args_value(args, "--size", &err)) || !tool_parse_int("--size", v, 8, 256, &o->size, &err))
                return tool_usage(args, "%s", err.message);
        } else if (tool_args_option(args, arg, "--height")) {
            if (!(v = tool_args_value(args, "--height", &err)) ||
                !tool_parse_double("--height", v, 0.0, 1000.0, &o->height, &err))
                return tool_usage(args, "%s", err.message);
            o->grid_given = true;
        } else if (tool_args_option(args, arg, "--time")) {
            if (!(v = tool_args_value(args, "--time", &err)) || !tool_parse_double("--time", v, 0.0, 24.0, &o->hours, &err))
                return tool_usage(args, "%s", err.message);
            o->has_time = true;
        } else if ((name = tool_args_output(args, arg, NULL))) {
            if (o->out) return tool_usage(args, "one output file only");
            if (!(o->out = tool_args_value(args, name, &err))) return tool_usage(args, "%s", err.message);
        } else if (arg[0] == '-' && arg[1]) {
            return tool_unknown_option(args, arg);
        } else if (o->stage.file) {
            return tool_usage(args, "one STAGE only ('%s' and '%s')", o->stage.file, arg);
        } else {
            o->stage.file = arg;
        }
    }
    if (!o->stage.file) return tool_usage(args, "no STAGE given (a model file, or 'demo')");
    if (!o->out) return tool_usage(args, "no output file given (-o FILE)");
    if (tool_is_stdout(o->out)) return tool_usage(args, "the probes go to a file, not to standard output");
    return -1;
}

/* The specular cubes' base size: the faces' when a power of two (at most
   SW_RENDER_PROBE_CUBE_MAX: larger faces are averaged down), else 0 (none). */
static int cube_size_of(long size) {
    if (size & (size - 1)) return 0;
    return size > SW_RENDER_PROBE_CUBE_MAX ? SW_RENDER_PROBE_CUBE_MAX : (int)size;
}

/* Six faces of `size` averaged down to `to` (both powers of two), in place. */
static void shrink_faces(float* faces, int size, int to) {
    const int step = size / to;
    for (int f = 0; f < 6; f++)
        for (int y = 0; y < to; y++)
            for (int x = 0; x < to; x++)
                for (int c = 0; c < 3; c++) {
                    double sum = 0.0;
                    for (int j = 0; j < step; j++)
                        for (int i = 0; i < step; i++)
                            sum += faces[(((size_t)f * size + (size_t)(y * step + j)) * size + (size_t)(x * step + i)) * 3 + c];
                    faces[(((size_t)f * to + y) * to + x) * 3 + c] = (float)(sum / (step * step));
                }
}

/* One capture: its SH9 (when sh9) and its prefiltered cube (when cube). */
static sw_result capture_one(sw_renderer* r, const sw_render_frame* frame, const float position[3], int size,
                             int cube_size, float* faces, float sh9[9][3], float* cube, sw_diag* d) {
    sw_result res = sw_renderer_capture_probe_faces(r, frame, position, faces, d);
    if (res != SW_OK) return res;
    if (sh9) sw_render_probe_project_sh9(faces, size, sh9);
    if (!cube) return SW_OK;
    if (cube_size < size) shrink_faces(faces, size, cube_size);
    return sw_render_probe_prefilter(faces, cube_size, cube, d);
}

static int capture_all(tool_args* args, probes_options* o, probes_scene* scene, sw_render_probe* probes,
                       size_t* count, int* cube_size, float** cubes) {
    tool_error err;
    sw_diag d;
    sw_gl_context* gl = NULL;
    sw_renderer* r = NULL;
    int status = TOOL_EXIT_OK;
    if (sw_gl_context_create(NULL, &gl, &d) != SW_OK) return tool_fail(args, "%s", d.message);
    sw_renderer_desc desc = {.width = (int)o->size, .height = (int)o->size, .shadow_map_size = 1024};
    if (sw_renderer_create(&desc, &r, &d) != SW_OK || sw_renderer_set_scene(r, scene->character, &scene->materials, &d) != SW_OK) {
        status = tool_fail(args, "%s", d.message);
        goto done;
    }
    if (!scene_stage_set(&o->stage, r, &err)) {
        status = tool_fail(args, "%s", err.message);
        goto done;
    }
    float lo[3], hi[3];
    if (!sw_renderer_stage_bounds(r, lo, hi)) {
        status = tool_fail(args, "%s: the stage has nothing to draw (no bounds)", o->stage.file);
        goto done;
    }
    long named = node_probes(&o->stage, probes);
    if (named < 0) {
        status = tool_fail(args, "%s: more than %d nodes named probe*", o->stage.file, SW_RENDER_PROBE_MAX);
        goto done;
    }
    *count = named ? (size_t)named : place_probes(o, lo, hi, probes);
    /* She stands beyond the stage's far corner, out of every probe's view. */
    sw_mat34 away = sw_mat34_identity();
    away.m[0][3] = hi[0] + 1000.0f, away.m[2][3] = hi[2] + 1000.0f;
    sw_render_frame frame = {.pose = &scene->pose, .first_frame = true, .placement = &away};
    frame.shading.time_of_day_given = o->has_time;
    frame.shading.time_of_day = (float)o->hours;
    *cube_size = cube_size_of(o->size);
    const size_t per_cube = sw_render_probe_cube_floats(*cube_size);
    float* faces = malloc(6 * (size_t)o->size * (size_t)o->size * 3 * sizeof(float));
    *cubes = per_cube ? malloc((*count + 1) * per_cube * sizeof(float)) : NULL;
    if (!faces || (per_cube && !*cubes)) {
        free(faces);
        status = tool_fail(args, "out of memory");
        goto done;
    }
    /* The global cube: the stage seen from its centre, at the probes' height. */
    const float centre[3] = {0.5f * (lo[0] + hi[0]), lo[1] + (float)o->height, 0.5f * (lo[2] + hi[2])};
    if (per_cube && capture_one(r, &frame, centre, (int)o->size, *cube_size, faces, NULL, *cubes, &d) != SW_OK) {
        status = tool_fail(args, "the global cube: %s", d.message);
    }
    for (size_t i = 0; i < *count && status == TOOL_EXIT_OK; i++)
        if (capture_one(r, &frame, probes[i].position, (int)o->size, *cube_size, faces, probes[i].sh9,
                        per_cube ? *cubes + (i + 1) * per_cube : NULL, &d) != SW_OK)
            status = tool_fail(args, "probe %zu: %s", i, d.message);
    free(faces);
done:
    sw_renderer_destroy(r);
    sw_gl_context_destroy(gl);
    return status;
}

int bake_probes(tool_args* args) {
    probes_options o = {.grid = {PROBES_DEFAULT_GRID, PROBES_DEFAULT_GRID}, .size = PROBES_DEFAULT_SIZE,
                        .height = PROBES_DEFAULT_HEIGHT};
    int status = parse(args, &o);
    if (status >= 0) return status;
    tool_error err;
    probes_scene scene = {0};
    static sw_render_probe probes[SW_RENDER_PROBE_MAX];
    size_t count = 0;
    int cube_size = 0;
    float* cubes = NULL;
    status = TOOL_EXIT_OK;
    if (!scene_stage_load(&o.stage, &o.load, &err) || !probes_scene_load(&scene, &err)) {
        status = tool_fail(args, "%s", err.message);
        goto done;
    }
    status = capture_all(args, &o, &scene, probes, &count, &cube_size, &cubes);
    if (status != TOOL_EXIT_OK) goto done;
    if (!cube_size) tool_warn(args, "--size %ld is not a power of two: no specular cubes", o.size);
    if (!write_probes(o.out, probes, count, cube_size, cubes, &err)) {
        status = tool_fail(args, "%s", err.message);
        goto done;
    }
    if (o.grid_given && count && node_probes(&o.stage, probes) > 0)
        tool_warn(args, "%s has nodes named probe*: --grid and --height are not used", o.stage.file);
    tool_wrote(o.quiet, "%s (%zu probes, %ldx%ld cube faces, specular cubes %dx%d)", o.out, count, o.size, o.size,
               cube_size, cube_size);
done:
    free(cubes);
    probes_scene_free(&scene);
    scene_stage_free(&o.stage);
    return status;
}
