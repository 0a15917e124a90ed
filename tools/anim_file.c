/* tools/anim_file.c — another file's clips on the character (anim_file.h). */
#include "anim_file.h"

#include "sinew/compress.h"
#include "sinew/import.h"
#include "sinew/swa.h"
#include "sinew/vrm.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

/* A bone map is a few dozen names; anything this large is not one. */
#define BONE_MAP_MAX_BYTES (1u << 20)

int anim_file_option_take(anim_file_options* o, tool_args* args, const char* arg, tool_error* err) {
    if (tool_args_flag(arg, "--retarget")) {
        o->retarget = true;
        return 1;
    }
    if (tool_args_option(args, arg, "--anim-file")) return (o->path = tool_args_value(args, "--anim-file", err)) ? 1 : -1;
    if (tool_args_option(args, arg, "--bone-map-out"))
        return (o->bone_map_out = tool_args_value(args, "--bone-map-out", err)) ? 1 : -1;
    if (tool_args_option(args, arg, "--bone-map")) return (o->bone_map = tool_args_value(args, "--bone-map", err)) ? 1 : -1;
    return 0;
}

bool anim_file_options_check(const anim_file_options* o, tool_error* err) {
    if (o->bone_map && !o->path) return tool_error_set(err, "--bone-map: needs --anim-file");
    if (o->bone_map_out && !o->path) return tool_error_set(err, "--bone-map-out: needs --anim-file");
    if (o->retarget && !o->path) return tool_error_set(err, "--retarget: needs --anim-file");
    return true;
}

/* The bone map file, read (sw_bone_map_read); NULL with err set. */
static sw_bone_map* read_bone_map(const char* path, tool_error* err) {
    struct stat st;
    if (stat(path, &st) != 0) {
        tool_error_set(err, "--bone-map: cannot open '%s'", path);
        return NULL;
    }
    if (!S_ISREG(st.st_mode) || (unsigned long long)st.st_size > BONE_MAP_MAX_BYTES) {
        tool_error_set(err, "--bone-map: '%s' is not a regular file of at most %u bytes", path, BONE_MAP_MAX_BYTES);
        return NULL;
    }
    FILE* f = fopen(path, "rb");
    char* text = f ? malloc((size_t)st.st_size + 1) : NULL;
    size_t n = text ? fread(text, 1, (size_t)st.st_size, f) : 0;
    bool ok = text && !ferror(f);
    if (f) fclose(f);
    if (!ok) {
        free(text);
        tool_error_set(err, "--bone-map: cannot read '%s'", path);
        return NULL;
    }
    text[n] = 0;
    if (strlen(text) != n) {
        free(text);
        tool_error_set(err, "--bone-map: '%s' holds a NUL byte; it is not JSON text", path);
        return NULL;
    }
    sw_bone_map* map = NULL;
    sw_diag diag;
    if (sw_bone_map_read(text, n, path, &map, &diag) != SW_OK) tool_error_set(err, "--bone-map: %s", diag.message);
    free(text);
    return map;
}

/* The file's name without folder and extension. */
static void file_stem(const char* path, char* out, size_t size) {
    const char* base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char* dot = strrchr(base, '.');
    size_t len = dot && dot != base ? (size_t)(dot - base) : strlen(base);
    snprintf(out, size, "%.*s", (int)len, base);
}

/* One rig's humanoid map and how it was found. */
typedef struct rig_map {
    sw_humanoid_map map;
    sw_humanoid_guess guess; /* how[] and counts (for a VRM: its humanoid, every bone "name") */
    bool vrm;
    char what[96]; /* for the summary: "VRM humanoid, 55 bones" */
} rig_map;

/* The humanoid map of a model: its VRM humanoid when it is a VRM, else its
   joint names and hierarchy (sw_humanoid_map_guess, with the user's bone map). */
static bool humanoid_of(const sw_model* m, const sw_bone_map* bone_map, rig_map* r, tool_error* err) {
    sw_vrm* vrm = NULL;
    sw_diag diag;
    memset(r, 0, sizeof *r);
    if (sw_vrm_read(m, &vrm, &diag) == SW_OK && vrm && vrm->humanoid_mapped > 0) {
        r->map = vrm->humanoid;
        r->vrm = true;
        sw_humanoid_map_coverage(&r->map, &r->guess.mapped, &r->guess.required_missing);
        for (int b = 0; b < SW_HUMANOID_BONE_COUNT; ++b)
            r->guess.how[b] = r->map.node[b] >= 0 ? SW_HUMANOID_MATCH_NAME : SW_HUMANOID_MATCH_NONE;
        snprintf(r->what, sizeof r->what, "VRM humanoid, %u bones", vrm->humanoid_mapped);
        sw_vrm_free(vrm);
        return true;
    }
    sw_vrm_free(vrm);
    if (sw_humanoid_map_guess(m, bone_map, &r->map, &r->guess, &diag) != SW_OK)
        return tool_error_set(err, "%s", diag.message);
    const sw_humanoid_guess* g = &r->guess;
    /* The table is named when it found most of the bones. */
    bool by_table = g->table != SW_BONE_NAMING_NONE && 2 * g->table_bones >= g->mapped;
    uint32_t extra = 0; /* bones not from the table */
    for (int b = 0; b < SW_HUMANOID_BONE_COUNT; ++b)
        extra += g->how[b] != SW_HUMANOID_MATCH_NONE && g->how[b] != SW_HUMANOID_MATCH_TABLE &&
                 g->how[b] != SW_HUMANOID_MATCH_USER;
    if (by_table)
        snprintf(r->what, sizeof r->what, "%s names%s, %u bones%s", sw_bone_naming_name(g->table),
                 extra ? " and hierarchy" : "", g->mapped, g->user_bones ? " with the bone map's" : "");
    else
        snprintf(r->what, sizeof r->what, "names and hierarchy, %u bones%s", g->mapped,
                 g->user_bones ? " with the bone map's" : "");
    return true;
}

/* Bone names, comma-separated, into out. */
static void bone_list(const sw_humanoid_bone* bones, size_t count, char* out, size_t size) {
    size_t at = 0;
    out[0] = 0;
    for (size_t i = 0; i < count && at + 1 < size; ++i) {
        int n = snprintf(out + at, size - at, "%s%s", i ? ", " : "", sw_humanoid_bone_name(bones[i]));
        if (n < 0) break;
        at += (size_t)n;
    }
}

/* The required bones a map lacks, as text; how many. */
static uint32_t required_missing(const sw_humanoid_map* map, char* out, size_t size) {
    sw_humanoid_bone missing[SW_HUMANOID_BONE_COUNT];
    uint32_t count = 0;
    for (int b = 0; b < SW_HUMANOID_BONE_COUNT; ++b)
        if (sw_humanoid_bone_required((sw_humanoid_bone)b) && map->node[b] < 0) missing[count++] = (sw_humanoid_bone)b;
    bone_list(missing, count, out, size);
    return count;
}

static void json_string(FILE* f, const char* s) {
    fputc('"', f);
    for (const unsigned char* p = (const unsigned char*)s; *p; ++p) {
        if (*p == '"' || *p == '\\') fprintf(f, "\\%c", *p);
        else if (*p < 0x20) fprintf(f, "\\u%04x", *p);
        else fputc(*p, f);
    }
    fputc('"', f);
}

/* --bone-map-out: the anim file's rig's bones, then the character's where
   it names another node (one bone map serves both rigs: an entry whose node
   a rig lacks is skipped there; a VRM character has its own humanoid). */
static bool write_bone_map(const char* path, const sw_model* src, const rig_map* sm, const sw_model* dst,
                           const rig_map* dm, tool_error* err) {
    FILE* f = fopen(path, "w");
    if (!f) return tool_error_set(err, "--bone-map-out: cannot write '%s'", path);
    fputs("{", f);
    bool first = true;
    for (int pass = 0; pass < 2; ++pass) {
        const sw_model* m = pass ? dst : src;
        const rig_map* r = pass ? dm : sm;
        if (r->vrm) continue;
        for (int b = 0; b < SW_HUMANOID_BONE_COUNT; ++b) {
            int32_t node = r->map.node[b];
            if (node < 0 || !m->nodes[node].name) continue;
            if (pass && sm->map.node[b] >= 0 && !sm->vrm && src->nodes[sm->map.node[b]].name &&
                strcmp(src->nodes[sm->map.node[b]].name, m->nodes[node].name) == 0)
                continue;
            fprintf(f, "%s\n  \"%s\": ", first ? "" : ",", sw_humanoid_bone_name((sw_humanoid_bone)b));
            json_string(f, m->nodes[node].name);
            first = false;
        }
    }
    fputs("\n}\n", f);
    bool ok = !ferror(f);
    if (fclose(f) != 0) ok = false;
    return ok ? true : tool_error_set(err, "--bone-map-out: cannot write '%s'", path);
}

/* The clip names already on the character: an open-addressing set of
   borrowed strings (FNV-1a, linear probing, at most half full), so that
   naming n clips costs O(n) expected rather than O(n^2). */
typedef struct name_set {
    const char** slots;
    size_t capacity; /* a power of two */
} name_set;

static size_t name_hash(const char* s) {
    uint64_t h = 14695981039346656037ull;
    for (const unsigned char* p = (const unsigned char*)s; *p; ++p) h = (h ^ *p) * 1099511628211ull;
    return (size_t)h;
}

/* Room for `count` names; false when out of memory. */
static bool name_set_init(name_set* set, size_t count) {
    set->capacity = 16;
    while (set->capacity / 2 < count) set->capacity *= 2;
    set->slots = calloc(set->capacity, sizeof *set->slots);
    return set->slots != NULL;
}

/* Is name in the set? Adds it when `add` (the set is never filled past half). */
static bool name_set_has(name_set* set, const char* name, bool add) {
    size_t mask = set->capacity - 1;
    for (size_t i = name_hash(name) & mask;; i = (i + 1) & mask) {
        if (!set->slots[i]) {
            if (add) set->slots[i] = name;
            return false;
        }
        if (strcmp(set->slots[i], name) == 0) return true;
    }
}

static void release(anim_file* f) {
    for (size_t i = 0; i < f->made_count; ++i) {
        sw_clip_free(f->made[i]);
        if (f->names) free(f->names[i]);
    }
    if (f->vrma) /* the later clips' share the first one's extension data: released first */
        for (size_t i = f->source ? f->source->animation_count : 0; i-- > 0;) sw_vrma_free(f->vrma[i]);
    free(f->vrma);
    if (f->swa_clip && f->names) free(f->names[0]); /* its renamed name (made_count is 0) */
    free(f->made), free(f->names), free(f->clips), free(f->view), free(f->swa_clip);
    sw_model_free(f->source);
    memset(f, 0, sizeof *f);
}

bool anim_file_humanoid_map(const sw_model* model, const sw_bone_map* bone_map, sw_humanoid_map* out, tool_error* err) {
    rig_map r;
    if (!humanoid_of(model, bone_map, &r, err)) return false;
    *out = r.map;
    return true;
}

void anim_file_detach(anim_file* f, sw_model** model) {
    if (f->loaded && model && *model == f->view) *model = f->loaded;
    release(f);
}

static bool fail(anim_file* f, sw_bone_map* bone_map, tool_error* err, const char* format, const char* a,
                 const char* b) {
    tool_error_set(err, format, a, b);
    sw_bone_map_free(bone_map);
    release(f);
    return false;
}

static bool finish(anim_file* f, sw_model** model, const anim_file_options* o, const char* how, tool_error* err);
static bool finish_clips(anim_file* f, sw_model** model, const anim_file_options* o, const char* how,
                         sw_clip* const* made, size_t n, tool_error* err);

/* A compressed clip (.swa, sinew/compress.h) as a clip of the character:
   its samples decompressed (sw_compressed_sample_job over the rest pose)
   into LINEAR keys at the sample times, one track per stored property,
   in one block (f->swa_clip). The .swa must come from a model with the
   character's node count: its tracks target node indices. */
static bool attach_swa(anim_file* f, sw_model** model, const anim_file_options* o, tool_error* err) {
    const sw_model* dst = *model;
    uint8_t* bytes = NULL;
    size_t size = 0;
    sw_compressed_clip c;
    sw_diag diag;
    if (sw_swa_load(o->path, &bytes, &size, &c, &diag) != SW_OK) {
        tool_diag_path_as_typed(o->path, &diag);
        return tool_error_set(err, "--anim-file: %s", diag.message);
    }
    if (c.target_count != dst->node_count) {
        sw_swa_free(bytes);
        tool_error_set(err, "--anim-file: %s: made for a model of %u nodes; this one has %zu", o->path, c.target_count,
                       dst->node_count);
        return false;
    }
    size_t tracks = 0;
    for (uint32_t i = 0; i < c.track_count; i++)
        for (int path = 0; path < 3; path++) tracks += c.tracks[i * 8u + 4u + (unsigned)path] != SW_COMPRESSED_NONE;
    const size_t n = c.sample_count, name_size = strlen(c.name) + 1;
    /* one block: the clip, its tracks, times, values (4 floats a key at most), the name */
    const size_t block = sizeof(sw_clip) + tracks * sizeof(sw_track) + (n + tracks * n * 4) * sizeof(float) + name_size;
    uint8_t* memory = calloc(1, block);
    sw_transform* pose = malloc(dst->node_count * sizeof *pose);
    f->names = calloc(1, sizeof *f->names);
    if (!memory || !pose || !f->names) {
        free(memory), free(pose), sw_swa_free(bytes);
        return tool_error_set(err, "out of memory");
    }
    sw_clip* clip = (sw_clip*)(void*)memory;
    sw_track* track = (sw_track*)(void*)(clip + 1);
    float* times = (float*)(void*)(track + tracks);
    float* values = times + n;
    char* name = (char*)(values + tracks * n * 4);
    memcpy(name, c.name, name_size);
    for (size_t k = 0; k < n; k++) times[k] = sw_resample_time(c.start, c.duration, k, n);
    size_t t = 0;
    for (uint32_t i = 0; i < c.track_count; i++) {
        for (int path = 0; path < 3; path++) {
            if (c.tracks[i * 8u + 4u + (unsigned)path] == SW_COMPRESSED_NONE) continue;
            uint32_t target = (uint32_t)c.tracks[i * 8u] | (uint32_t)c.tracks[i * 8u + 1] << 8 |
                              (uint32_t)c.tracks[i * 8u + 2] << 16 | (uint32_t)c.tracks[i * 8u + 3] << 24;
            track[t] = (sw_track){.target = target, .path = path == 0 ? SW_PATH_TRANSLATION : path == 1 ? SW_PATH_ROTATION : SW_PATH_SCALE,
                                  .interpolation = SW_INTERP_LINEAR, .component_count = path == 1 ? 4 : 3,
                                  .key_count = n, .times = times, .values = values + t * n * 4};
            t++;
        }
    }
    /* every sample in order: a cache decodes each block once */
    const size_t capacity = sw_compressed_cache_capacity(&c);
    sw_compressed_cache cache = {.values = malloc(capacity * sizeof(float)), .capacity = capacity};
    for (size_t k = 0; k < n; k++) {
        memcpy(pose, dst->rest_local, dst->node_count * sizeof *pose);
        sw_compressed_sample_job job = {.clip = &c, .time = times[k], .target_count = dst->node_count, .out_local = pose,
                                        .cache = cache.values ? &cache : NULL};
        sw_compressed_sample_job_run(&job);
        for (size_t i = 0; i < tracks; i++) {
            const sw_transform* p = &pose[track[i].target];
            const float* v = track[i].path == SW_PATH_TRANSLATION ? &p->translation.x
                             : track[i].path == SW_PATH_ROTATION  ? &p->rotation.x
                                                                  : &p->scale.x;
            memcpy((float*)track[i].values + k * track[i].component_count, v, track[i].component_count * sizeof(float));
        }
    }
    free(pose), free(cache.values);
    sw_swa_free(bytes);
    *clip = (sw_clip){.name = name, .track_count = tracks, .tracks = track};
    if (sw_clip_finish(clip, &diag) != SW_OK) {
        free(memory);
        return tool_error_set(err, "--anim-file: %s: %s", o->path, diag.message);
    }
    f->swa_clip = clip;
    char how[160];
    snprintf(how, sizeof how, "a compressed clip of %zu samples (%zu bytes), decompressed", n, size);
    return finish_clips(f, model, o, how, &f->swa_clip, 1, err);
}

static bool is_swa_path(const char* path) {
    size_t len = strlen(path);
    return len > 4 && strcmp(path + len - 4, ".swa") == 0;
}

/* A .vrma's clips retargeted onto the character (f->made, f->vrma); false
   with err set. */
static bool attach_vrma(anim_file* f, const sw_model* dst, const sw_bone_map* bone_map, const anim_file_options* o,
                        char* how, size_t how_size, tool_error* err) {
    const sw_model* src = f->source;
    size_t n = src->animation_count;
    sw_diag diag;
    if (!(f->vrma = calloc(n, sizeof *f->vrma))) return tool_error_set(err, "out of memory");
    /* The extension once, then each further clip's tracks. */
    for (size_t c = 0; c < n; ++c)
        if ((c == 0 ? sw_vrma_read(src, 0, &f->vrma[0], &diag) : sw_vrma_read_clip(f->vrma[0], c, &f->vrma[c], &diag)) !=
            SW_OK)
            return tool_error_set(err, "--anim-file: %s", diag.message);
    const sw_vrma* first = f->vrma[0];
    if (!first->has_humanoid)
        return tool_error_set(err,
                              "--anim-file: %s: extensions.VRMC_vrm_animation.humanoid: missing; a VRM animation "
                              "without humanoid bones has nothing to play on the character",
                              o->path);
    if (first->humanoid_mapped == 0)
        return tool_error_set(err, "--anim-file: %s: extensions.VRMC_vrm_animation.humanoid.humanBones: no bone",
                              o->path);
    rig_map dm;
    if (!humanoid_of(dst, bone_map, &dm, err)) {
        char inner[sizeof err->message];
        snprintf(inner, sizeof inner, "%s", err->message);
        return tool_error_set(err, "--anim-file: %s: %s", o->path, inner);
    }
    sw_vrma_retarget_info info = {0};
    for (size_t c = 0; c < n; ++c, ++f->made_count)
        if (sw_vrma_retarget(f->vrma[c], dst, &dm.map, &f->made[c], &info, &diag) != SW_OK)
            return tool_error_set(err, "--anim-file: %s", diag.message);
    size_t warnings = 0;
    const char* first_warning = NULL;
    for (size_t c = 0; c < n; ++c) {
        if (!first_warning && f->vrma[c]->warning_count) first_warning = f->vrma[c]->warnings[0];
        warnings += f->vrma[c]->warning_count;
    }
    char warned[200] = "";
    if (warnings)
        snprintf(warned, sizeof warned, "; %zu warning%s (first: %.120s)", warnings, warnings == 1 ? "" : "s",
                 first_warning);
    snprintf(how, how_size, "VRM animation, %u humanoid bones (onto %s; %u the character lacks), hips x%.3g%s",
             info.bones, dm.what, info.dropped, (double)info.hips_scale, warned);
    return true;
}

const sw_vrma* anim_file_vrma_of(const anim_file* f, const sw_clip* clip) {
    if (!f || !f->vrma || !clip) return NULL;
    for (size_t c = 0; c < f->made_count; ++c)
        if (f->made[c] && clip->tracks == f->made[c]->tracks) return f->vrma[c];
    return NULL;
}

size_t anim_file_expression_weights(const anim_file* f, const sw_clip* clip, float t, const char** names,
                                    float* weights, size_t capacity) {
    const sw_vrma* a = anim_file_vrma_of(f, clip);
    if (!a) return 0;
    size_t n = a->expression_track_count;
    for (size_t k = 0; k < n && k < capacity; ++k) {
        if (names) names[k] = a->expressions[a->expression_tracks[k].expression].name;
        if (weights) weights[k] = sw_vrma_expression_weight(a, k, t);
    }
    return n;
}

bool anim_file_gaze(const anim_file* f, const sw_clip* clip, float t, float* yaw_deg, float* pitch_deg,
                    float dir[3]) {
    return sw_vrma_look_at(anim_file_vrma_of(f, clip), t, yaw_deg, pitch_deg, dir);
}

bool anim_file_attach(anim_file* f, sw_model** model, const anim_file_options* o, tool_error* err) {
    memset(f, 0, sizeof *f);
    if (!o->path) return true;
    if (is_swa_path(o->path)) {
        if (o->bone_map || o->retarget)
            return tool_error_set(err, "--anim-file: %s: a compressed clip targets the nodes it was made from; "
                                       "--bone-map and --retarget do not apply", o->path);
        return attach_swa(f, model, o, err);
    }
    sw_model* dst = *model;
    sw_diag diag;
    sw_bone_map* bone_map = NULL;
    /* An IQM animation file names no joints: the character's name its poses (iqm.h). */
    sw_import_options io = {0};
    io.iqm.skeleton = dst;
    if (sw_import_file(o->path, &io, &f->source, &diag) != SW_OK) {
        tool_diag_path_as_typed(o->path, &diag);
        tool_error_set(err, "--anim-file: %s", diag.message);
        return false;
    }
    const sw_model* src = f->source;
    if (!tool_note_model_read(src)) return fail(f, NULL, err, "out of memory%s%s", "", "");
    if (src->animation_count == 0) return fail(f, NULL, err, "--anim-file: %s has no clips%s", o->path, "");
    if (o->bone_map && !(bone_map = read_bone_map(o->bone_map, err))) {
        release(f);
        return false;
    }
    if (o->bone_map && !tool_note_read(o->bone_map)) return fail(f, bone_map, err, "out of memory%s%s", "", "");
    size_t n = src->animation_count;
    f->made = calloc(n, sizeof *f->made);
    f->names = calloc(n, sizeof *f->names);
    if (!f->made || !f->names) return fail(f, bone_map, err, "out of memory%s%s", "", "");

    char how[320];
    /* A VRM animation: always by the humanoids. */
    if (sw_model_find_extension(src, "VRMC_vrm_animation", SW_MODEL_OBJECT_MODEL, 0)) {
        if (!attach_vrma(f, dst, bone_map, o, how, sizeof how, err)) {
            sw_bone_map_free(bone_map);
            release(f);
            return false;
        }
        sw_bone_map_free(bone_map);
        return finish(f, model, o, how, err);
    }

    /* By name when most tracks find their joint by name. */
    size_t tracks = 0, found = 0;
    for (size_t c = 0; c < n; ++c) {
        uint32_t last = UINT32_MAX;
        bool last_found = false;
        for (size_t t = 0; t < src->animations[c].track_count; ++t) {
            uint32_t target = src->animations[c].tracks[t].target;
            /* Consecutive tracks usually share a joint: look it up once. */
            if (target != last)
                last_found = target < src->node_count && sw_model_find_node_by_name(dst, src->nodes[target].name) >= 0;
            last = target;
            tracks++;
            found += last_found;
        }
    }
    bool by_name = !o->retarget && !bone_map && 2 * found > tracks;
    size_t dropped = 0;
    if (by_name) {
        for (size_t c = 0; c < n; ++c, ++f->made_count) {
            size_t d = 0;
            if (sw_clip_merge_by_name(dst, src, &src->animations[c], &f->made[c], &d, &diag) != SW_OK)
                return fail(f, bone_map, err, "--anim-file: %s: %s", o->path, diag.message);
            dropped += d;
        }
        snprintf(how, sizeof how, "by joint name, %zu of %zu tracks kept", tracks - dropped, tracks);
        if (o->bone_map_out)
            fprintf(stderr, "sinew: warning: --bone-map-out: %s not written: the clips were merged by joint name, "
                            "not retargeted (give --retarget)\n",
                    o->bone_map_out);
    } else {
        rig_map sm, dm;
        tool_error inner;
        if (!humanoid_of(dst, bone_map, &dm, &inner) || !humanoid_of(src, bone_map, &sm, &inner))
            return fail(f, bone_map, err, "--anim-file: %s: %s", o->path, inner.message);
        if (bone_map && sm.guess.user_bones + dm.guess.user_bones == 0)
            return fail(f, bone_map, err, "--bone-map: %s names no node of %s or of the character", o->bone_map,
                        o->path);
        if (o->bone_map_out && !write_bone_map(o->bone_map_out, src, &sm, dst, &dm, &inner))
            return fail(f, bone_map, err, "%s%s", inner.message, "");
        /* Too few bones to move the body is an error, not a T-pose. */
        sw_humanoid_bone smiss[8], dmiss[8];
        uint32_t sn = sw_humanoid_map_body_missing(&sm.map, smiss, 8);
        uint32_t dn = sw_humanoid_map_body_missing(&dm.map, dmiss, 8);
        if (sn || dn) {
            char sl[200], dl[200], detail[600];
            bone_list(smiss, sn, sl, sizeof sl);
            bone_list(dmiss, dn, dl, sizeof dl);
            snprintf(detail, sizeof detail, "%s%s%s%s%s%s%s", sn ? "its rig has no " : "", sn ? sl : "",
                     sn ? " (" : "", sn ? sm.what : "", sn ? ")" : "", sn && dn ? "; " : "",
                     dn ? "the character has no " : "");
            if (dn)
                snprintf(detail + strlen(detail), sizeof detail - strlen(detail), "%s (%s)", dl, dm.what);
            return fail(f, bone_map, err,
                        "--anim-file: %s: cannot retarget: %s; name the nodes with --bone-map FILE "
                        "(--bone-map-out FILE writes the map found, to edit)",
                        o->path, detail);
        }
        /* Required bones left out (arms, head): they keep their rest; say so. */
        char miss[400];
        if (required_missing(&sm.map, miss, sizeof miss))
            fprintf(stderr, "sinew: warning: --anim-file: %s: its rig has no %s (%s), left at rest; "
                            "--bone-map-out FILE writes the map used, --bone-map FILE changes it\n",
                    o->path, miss, sm.what);
        if (required_missing(&dm.map, miss, sizeof miss))
            fprintf(stderr, "sinew: warning: --anim-file: %s: the character has no %s (%s), left at rest; "
                            "--bone-map-out FILE writes the map used, --bone-map FILE changes it\n",
                    o->path, miss, dm.what);
        sw_humanoid_map src_map = sm.map, dst_map = dm.map;
        sw_retarget_info info = {0};
        for (size_t c = 0; c < n; ++c, ++f->made_count)
            if (sw_retarget_clip(src, &src_map, &src->animations[c], dst, &dst_map, NULL, &f->made[c], &info, &diag) !=
                SW_OK)
                return fail(f, bone_map, err, "--anim-file: %s: %s", o->path, diag.message);
        snprintf(how, sizeof how, "retargeted, %u humanoid bones (from %s; onto %s), hips x%.3g", info.bones, sm.what,
                 dm.what, (double)info.hips_scale);
    }
    sw_bone_map_free(bone_map);
    return finish(f, model, o, how, err);
}

/* The character with both lists of clips. */
static bool finish(anim_file* f, sw_model** model, const anim_file_options* o, const char* how, tool_error* err) {
    return finish_clips(f, model, o, how, f->made, f->source->animation_count, err);
}

static bool finish_clips(anim_file* f, sw_model** model, const anim_file_options* o, const char* how,
                         sw_clip* const* made, size_t n, tool_error* err) {
    sw_model* dst = *model;
    char stem[128];
    file_stem(o->path, stem, sizeof stem);
    f->view = malloc(sizeof *f->view);
    f->clips = calloc(dst->animation_count + n, sizeof *f->clips);
    if (!f->view || !f->clips) return fail(f, NULL, err, "out of memory%s%s", "", "");
    if (dst->animation_count) memcpy(f->clips, dst->animations, dst->animation_count * sizeof *f->clips);
    /* A clip whose name an earlier one has (the character's, or one added
       before it, as named then) is called "stem/name". */
    name_set taken_names;
    if (!name_set_init(&taken_names, dst->animation_count + n)) return fail(f, NULL, err, "out of memory%s%s", "", "");
    for (size_t k = 0; k < dst->animation_count; ++k)
        if (f->clips[k].name) name_set_has(&taken_names, f->clips[k].name, true);
    for (size_t c = 0; c < n; ++c) {
        sw_clip* clip = &f->clips[dst->animation_count + c];
        *clip = *made[c];
        if (clip->name && name_set_has(&taken_names, clip->name, false)) {
            size_t len = strlen(stem) + strlen(clip->name) + 2;
            if (!(f->names[c] = malloc(len))) {
                free(taken_names.slots);
                return fail(f, NULL, err, "out of memory%s%s", "", "");
            }
            snprintf(f->names[c], len, "%s/%s", stem, clip->name);
            clip->name = f->names[c];
        }
        if (clip->name) name_set_has(&taken_names, clip->name, true);
    }
    free(taken_names.slots);
    *f->view = *dst;
    f->view->animations = f->clips;
    f->view->animation_count = dst->animation_count + n;
    f->loaded = dst;
    *model = f->view;
    snprintf(f->summary, sizeof f->summary, "%s: %zu clip%s added, %s", o->path, n, n == 1 ? "" : "s", how);
    return true;
}
