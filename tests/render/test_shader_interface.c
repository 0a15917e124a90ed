/* The shader interface: C and GLSL take every shared number from one header
   (src/gpu/skin_interface.h, src/render/render_interface.h), so they cannot
   disagree as long as both use the names. This test fails when they stop
   doing so:
     - every program source, exactly as compiled (sw_gpu_shader_sources,
       sw_render_shader_sources), holds its interface header byte for byte
       as it is on disk (a stale or missing copy fails);
     - every SW_ name a shader uses is defined in that source: by the
       interface header, or by the skinner's program builder (a name tested
       with #ifdef/#if must be defined by at least one variant);
     - no integer literal is left in a shader's layout(...) qualifiers, nor
       compared with the flag, class and view uniforms;
     - no integer literal is left where the renderer's C files and
       gpu_skin.c name a uniform location, attribute, binding point,
       texture unit or colour attachment in a GL call;
     - the public enums and limits equal the interface values.
   No GL context is needed: only the sources are read. */
#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "sinew/gpu.h"
#include "sinew/render.h"

#include "../../src/gpu/skin_interface.h"
#include "sinew/gpu_crowd.h"
#include "../../src/render/render_interface.h"

/* ---- helpers ------------------------------------------------------------------ */

/* The repository root, from this file's path (tests/render/<this file>). */
static const char* repo_path(const char* relative) {
    static char path[4096];
    const char* self = __FILE__;
    const char* tail = strstr(self, "tests/render/test_shader_interface.c");
    size_t root = tail ? (size_t)(tail - self) : 0;
    snprintf(path, sizeof path, "%.*s%s", (int)root, self, relative);
    return path;
}

static char* read_text(const char* path) {
    FILE* f = fopen(path, "rb");
    if (!f) return NULL;
    char* text = NULL;
    if (fseek(f, 0, SEEK_END) == 0) {
        long size = ftell(f);
        if (size >= 0 && fseek(f, 0, SEEK_SET) == 0 && (text = (char*)malloc((size_t)size + 1)) != NULL) {
            size_t got = fread(text, 1, (size_t)size, f);
            text[got] = '\0';
        }
    }
    fclose(f);
    return text;
}

/* A copy with comments blanked (line breaks kept). String and character
   literals (C) are kept as they are. */
static char* strip_comments(const char* text) {
    size_t n = strlen(text);
    char* out = (char*)malloc(n + 1);
    if (!out) return NULL;
    memcpy(out, text, n + 1);
    for (size_t i = 0; i < n; i++) {
        if (out[i] == '"' || out[i] == '\'') {
            char quote = out[i];
            for (i++; i < n && out[i] != quote; i++)
                if (out[i] == '\\') i++;
        } else if (out[i] == '/' && out[i + 1] == '/') {
            while (i < n && out[i] != '\n') out[i++] = ' ';
        } else if (out[i] == '/' && out[i + 1] == '*') {
            out[i] = out[i + 1] = ' ';
            for (i += 2; i < n && !(out[i] == '*' && out[i + 1] == '/'); i++)
                if (out[i] != '\n') out[i] = ' ';
            if (i < n) out[i] = out[i + 1] = ' ', i++;
        }
    }
    return out;
}

static bool ident_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* A set of names, small and linear. */
typedef struct name_set {
    char names[1024][64];
    int count;
} name_set;

static bool set_has(const name_set* s, const char* name, size_t length) {
    for (int i = 0; i < s->count; i++)
        if (strlen(s->names[i]) == length && strncmp(s->names[i], name, length) == 0) return true;
    return false;
}

static void set_add(name_set* s, const char* name, size_t length) {
    if (set_has(s, name, length) || s->count == 1024 || length >= 64) return;
    memcpy(s->names[s->count], name, length);
    s->names[s->count][length] = '\0';
    s->count++;
}

/* Problems are counted, and printed once each (the 300 skinning variants
   repeat them; the first program is named) unless g_quiet. */
static struct {
    char messages[128][256];
    int count;
} g_reported;
static int g_problems;
static bool g_quiet;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void problem(const char* program, const char* format, ...) {
    char message[256];
    va_list args;
    va_start(args, format);
    vsnprintf(message, sizeof message, format, args);
    va_end(args);
    g_problems++;
    if (g_quiet) return;
    for (int i = 0; i < g_reported.count; i++)
        if (strcmp(g_reported.messages[i], message) == 0) return;
    if (g_reported.count < 128) memcpy(g_reported.messages[g_reported.count++], message, sizeof message);
    if (program) fprintf(stderr, "  %s (program %s, and any others)\n", message, program);
    else fprintf(stderr, "  %s\n", message);
}

/* ---- the GLSL side -------------------------------------------------------------- */

typedef struct family {
    const char* header_path;       /* the interface header, relative to the root */
    const char* const* files;      /* source string number -> file, for messages; */
    int file_count;                /* the last one is the stage's own file */
    char* header;                  /* its text, read from disk */
    name_set variant_defines;      /* every name any program's source defines */
    int programs;
    bool collecting;               /* first pass: only collect variant_defines */
} family;

/* The file and line a position in a joined source comes from, following
   its "#line L S" directives; `stage_file` names the last source string. */
static void where(const family* fam, const char* stage_file, const char* source, const char* at, const char** file,
                  int* line) {
    int string = 0, number = 1;
    for (const char* p = source; p < at; p++) {
        if (*p != '\n') continue;
        number++;
        int l, s;
        if (sscanf(p + 1, "#line %d %d", &l, &s) == 2 && p + 1 < at) {
            /* The directive's own line ends first; the next line is L. */
            number = l - 1;
            string = s;
        }
    }
    if (string == fam->file_count - 1) *file = stage_file;
    else *file = string >= 0 && string < fam->file_count ? fam->files[string] : "?";
    *line = number;
}

static void check_source(family* fam, const char* name, const char* stage_file, const char* source) {
    char* text = strip_comments(source);
    if (!text) {
        problem(name, "out of memory");
        return;
    }
    /* The names this source defines. */
    name_set defined = {.count = 0};
    for (const char* line = text; line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        const char* p = line;
        while (*p == ' ' || *p == '\t') p++;
        if (strncmp(p, "#define", 7) != 0) continue;
        p += 7;
        while (*p == ' ' || *p == '\t') p++;
        const char* e = p;
        while (ident_char(*e)) e++;
        set_add(&defined, p, (size_t)(e - p));
        if (fam->collecting) set_add(&fam->variant_defines, p, (size_t)(e - p));
    }
    if (fam->collecting) {
        free(text);
        return;
    }
    fam->programs++;
    if (fam->header && !strstr(source, fam->header))
        problem(name, "the source does not hold %s as it is on disk", fam->header_path);

    for (const char* line = text; line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        const char* end = strchr(line, '\n');
        if (!end) end = line + strlen(line);
        const char* p = line;
        while (*p == ' ' || *p == '\t') p++;
        const bool directive = *p == '#';
        if (strncmp(p, "#define", 7) == 0 || strncmp(p, "#line", 5) == 0 || strncmp(p, "#version", 8) == 0)
            continue;
        const bool conditional = directive && (strncmp(p, "#if", 3) == 0 || strncmp(p, "#elif", 5) == 0);
        for (const char* q = p; q < end; q++) {
            if (q > line && ident_char(q[-1])) continue;
            /* SW_NAME in upper case: an interface or builder define. */
            if (strncmp(q, "SW_", 3) == 0) {
                const char* e = q;
                while (ident_char(*e)) e++;
                bool upper = true;
                for (const char* c = q; c < e; c++) upper &= !islower((unsigned char)*c);
                size_t length = (size_t)(e - q);
                bool known = set_has(&defined, q, length) ||
                             (conditional && set_has(&fam->variant_defines, q, length));
                if (upper && !known) {
                    char token[64];
                    snprintf(token, sizeof token, "%.*s", (int)(length < 63 ? length : 63), q);
                    const char* file;
                    int number;
                    where(fam, stage_file, source, source + (q - text), &file, &number);
                    problem(name, "%s:%d: %s is defined neither by the interface header nor by the program builder",
                            file, number, token);
                }
                q = e - 1;
                continue;
            }
            /* layout(...): names only, no numbers. */
            if (strncmp(q, "layout", 6) == 0 && !ident_char(q[6])) {
                const char* open = q + 6;
                while (*open == ' ') open++;
                if (*open != '(') continue;
                for (const char* c = open + 1; *c && *c != ')'; c++) {
                    if (ident_char(c[-1]) || !isdigit((unsigned char)*c)) continue;
                    const char* file;
                    int number;
                    where(fam, stage_file, source, source + (c - text), &file, &number);
                    problem(name, "%s:%d: a number in layout(...); use a name from %s", file, number,
                            fam->header_path);
                    break;
                }
                continue;
            }
            /* Flags, classes and views compared with numbers. */
            static const char* const watched[] = {"u_flags", "u_class", "u_view", "cls"};
            for (size_t w = 0; w < sizeof watched / sizeof watched[0]; w++) {
                size_t length = strlen(watched[w]);
                if (strncmp(q, watched[w], length) != 0 || ident_char(q[length])) continue;
                const char* c = q + length;
                while (*c == ' ') c++;
                if ((c[0] == '&' && c[1] != '&') || (c[0] == '=' && c[1] == '=') || (c[0] == '!' && c[1] == '='))
                    c += c[0] == '&' ? 1 : 2;
                else
                    continue;
                while (*c == ' ' || *c == '(') c++;
                if (!isdigit((unsigned char)*c)) continue;
                const char* file;
                int number;
                where(fam, stage_file, source, source + (c - text), &file, &number);
                problem(name, "%s:%d: %s is compared with a number; use a name", file, number, watched[w]);
            }
        }
    }
    free(text);
}

static void visit(const char* name, const char* stage, const char* source, void* user) {
    family* fam = (family*)user;
    char label[160], stage_file[160];
    snprintf(label, sizeof label, "%s.%s", name, stage);
    /* The skinning variants share skin.comp / skin.vert; the renderer's
       programs are named after their files. */
    if (strncmp(name, "skin_", 5) == 0) snprintf(stage_file, sizeof stage_file, "shaders/skin.%s", stage);
    else if (strncmp(name, "crowd_", 6) == 0 && strcmp(stage, "comp") == 0) snprintf(stage_file, sizeof stage_file, "shaders/crowd.comp");
    else snprintf(stage_file, sizeof stage_file, "shaders/%s.%s", name, stage);
    check_source(fam, label, stage_file, source);
}

static void test_skin_sources(void) {
    static const char* const files[] = {"(defines)", "src/gpu/skin_interface.h", "shaders/skin_common.glsl",
                                        "(stage)"};
    static family fam;
    fam = (family){.header_path = "src/gpu/skin_interface.h", .files = files, .file_count = 4};
    fam.header = read_text(repo_path(fam.header_path));
    SW_CHECK(fam.header != NULL);
    int before = g_problems;
    fam.collecting = true;
    sw_gpu_shader_sources(visit, &fam);
    fam.collecting = false;
    sw_gpu_shader_sources(visit, &fam);
    SW_CHECK(fam.programs > 100);
    /* The builder's switches are among the names the sources define. */
    SW_CHECK(set_has(&fam.variant_defines, "SW_DQS", 6));
    SW_CHECK(set_has(&fam.variant_defines, "SW_SKIN_BUFFER_PALETTE", 22));
    SW_CHECK_EQ_INT(g_problems - before, 0);
    free(fam.header);
}

static void test_crowd_sources(void) {
    static const char* const files[] = {"(defines)", "src/gpu/crowd_interface.h", "(stage)"};
    static family fam;
    fam = (family){.header_path = "src/gpu/crowd_interface.h", .files = files, .file_count = 3};
    fam.header = read_text(repo_path(fam.header_path));
    SW_CHECK(fam.header != NULL);
    int before = g_problems;
    fam.collecting = true;
    sw_gpu_crowd_shader_sources(visit, &fam);
    fam.collecting = false;
    sw_gpu_crowd_shader_sources(visit, &fam);
    SW_CHECK_EQ_INT(fam.programs, 6);
    SW_CHECK_EQ_INT(g_problems - before, 0);
    free(fam.header);
}

static void test_render_sources(void) {
    static const char* const files[] = {"(version)", "src/render/render_interface.h", "shaders/depth.glsl",
                                        "shaders/material_block.glsl", "shaders/lighting_common.glsl", "(stage)"};
    static family fam;
    fam = (family){.header_path = "src/render/render_interface.h", .files = files, .file_count = 6};
    fam.header = read_text(repo_path(fam.header_path));
    SW_CHECK(fam.header != NULL);
    int before = g_problems;
    fam.collecting = true;
    sw_render_shader_sources(visit, &fam);
    fam.collecting = false;
    sw_render_shader_sources(visit, &fam);
    SW_CHECK_EQ_INT(fam.programs, 28); /* with sky, hiz, decal, ao, shadow_decode, shadow_mask, fog (comp + frag), feedback and weather (vert + frag) */
    SW_CHECK_EQ_INT(g_problems - before, 0);
    free(fam.header);
}

/* ---- the C side ------------------------------------------------------------------- */

/* The start of argument `index` (0-based) of the call whose '(' is at `open`. */
static const char* argument(const char* open, int index) {
    int depth = 0;
    const char* p = open + 1;
    for (; *p && index > 0; p++) {
        if (*p == '(' || *p == '[' || *p == '{') depth++;
        else if (*p == ')' || *p == ']' || *p == '}') {
            if (depth-- == 0) return NULL;
        } else if (*p == ',' && depth == 0) index--;
    }
    while (*p == ' ' || *p == '\n') p++;
    /* A cast: (GLuint), (GLenum)... */
    if (*p == '(') {
        const char* c = p + 1;
        while (ident_char(*c) || *c == ' ') c++;
        if (*c == ')') p = c + 1;
        while (*p == ' ') p++;
    }
    return p;
}

static int line_of(const char* text, const char* at) {
    int line = 1;
    for (const char* p = text; p < at; p++) line += *p == '\n';
    return line;
}

static void lint_c_file(const char* relative) {
    char* raw = read_text(repo_path(relative));
    SW_CHECK(raw != NULL);
    if (!raw) return;
    char* text = strip_comments(raw);
    free(raw);
    SW_CHECK(text != NULL);
    if (!text) return;
    /* GL calls and which argument names a location, attribute, binding
       point or draw buffer; a prefix covers a family (glUniform4fv...). */
    static const struct { const char* name; bool prefix; int argument; } calls[] = {
        {"glUniform", true, 0},
        {"glVertexAttrib", true, 0},
        {"glVertexAttribBinding", false, 1},
        {"glEnableVertexAttribArray", false, 0},
        {"glDisableVertexAttribArray", false, 0},
        {"glBindVertexBuffer", false, 0},
        {"glBindBufferBase", false, 1},
        {"glBindBufferRange", false, 1},
        {"glClearBuffer", true, 1},
    };
    for (const char* p = text; *p; p++) {
        if (p > text && ident_char(p[-1])) continue;
        if (strncmp(p, "gl", 2) == 0 || strncmp(p, "GL_", 3) == 0) {
            const char* e = p;
            while (ident_char(*e)) e++;
            size_t length = (size_t)(e - p);
            char token[64];
            snprintf(token, sizeof token, "%.*s", (int)(length < 63 ? length : 63), p);
            /* GL_TEXTURE0 + unit and GL_COLOR_ATTACHMENT0 + output, never GL_TEXTUREn. */
            bool texture = strncmp(token, "GL_TEXTURE", 10) == 0 && isdigit((unsigned char)token[10]);
            bool attachment = strncmp(token, "GL_COLOR_ATTACHMENT", 19) == 0 && isdigit((unsigned char)token[19]);
            if (texture || attachment) {
                const char* c = e;
                while (*c == ' ') c++;
                if (strcmp(token + (texture ? 10 : 19), "0") != 0 || *c != '+')
                    problem(NULL, "%s:%d: %s: a unit or attachment by number; write %.*s0 + a name", relative,
                            line_of(text, p), token, texture ? 10 : 19, token);
            }
            for (size_t k = 0; k < sizeof calls / sizeof calls[0]; k++) {
                size_t n = strlen(calls[k].name);
                if (strncmp(token, calls[k].name, n) != 0 || (!calls[k].prefix && token[n] != '\0')) continue;
                const char* open = e;
                while (*open == ' ') open++;
                if (*open != '(') continue;
                const char* arg = argument(open, calls[k].argument);
                if (arg && isdigit((unsigned char)*arg))
                    problem(NULL, "%s:%d: %s with a number for a location, attribute or binding; use a name", relative,
                            line_of(text, p), token);
            }
            p = e - 1;
        }
    }
    free(text);
}

static void test_c_uses_names(void) {
    int before = g_problems;
    static const char* const files[] = {
        "src/render/renderer.c", "src/render/scene.c",       "src/render/material.c", "src/render/toon_pass.c",
        "src/render/crowd.c",    "src/render/debug_views.c", "src/render/gl_objects.c", "src/render/post_chain.c",
        "src/render/sky_pass.c", "src/gpu/gpu_skin.c", "src/gpu/gpu_crowd.c", "src/render/hiz.c", "src/render/decal.c", "src/render/ao.c", "src/render/shadow_cache.c",
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) lint_c_file(files[i]);
    SW_CHECK_EQ_INT(g_problems - before, 0);
}

/* The public values are the interface values (renderer.c and gpu_skin.c
   assert the same at compile time). */
static void test_public_values(void) {
    SW_CHECK_EQ_INT(SW_RENDER_CLASS_BACKGROUND, SW_CLASS_BACKGROUND);
    SW_CHECK_EQ_INT(SW_RENDER_CLASS_GROUND, SW_CLASS_GROUND);
    SW_CHECK_EQ_INT(SW_RENDER_CLASS_LIT, SW_CLASS_LIT);
    SW_CHECK_EQ_INT(SW_RENDER_CLASS_UNLIT, SW_CLASS_UNLIT);
    SW_CHECK_EQ_INT(SW_RENDER_CLASS_MASK, SW_CLASS_MASK);
    SW_CHECK_EQ_INT(SW_RENDER_VIEW_SHADED, SW_VIEW_SHADED);
    SW_CHECK_EQ_INT(SW_RENDER_VIEW_NORMALS, SW_VIEW_NORMALS);
    SW_CHECK_EQ_INT(SW_RENDER_VIEW_MOTION, SW_VIEW_MOTION);
    SW_CHECK_EQ_INT(SW_RENDER_VIEW_UV, SW_VIEW_UV);
    SW_CHECK_EQ_INT(SW_RENDER_VIEW_WEIGHTS, SW_VIEW_WEIGHTS);
    SW_CHECK_EQ_INT(SW_RENDER_VIEW_AO, SW_VIEW_AO);
    SW_CHECK_EQ_INT(SW_RENDER_VIEW_DEPTH, SW_VIEW_DEPTH);
    SW_CHECK_EQ_INT(SW_MAX_INFLUENCES, SW_SKIN_MAX_INFLUENCES);
    SW_CHECK_EQ_INT(SW_GPU_MAX_ACTIVE_TARGETS, SW_SKIN_MAX_ACTIVE_TARGETS);
}

/* The checks above catch what they claim: a shader that names an unknown
   define, a literal location, a literal class compare, a C call with a
   literal location. */
static void test_checks_catch_mistakes(void) {
    static const char* const files[] = {"(version)", "(stage)"};
    family fam = {.header_path = "(none)", .files = files, .file_count = 2};
    g_quiet = true;
    static const char* const bad[] = {
        "#version 430 core\n#line 1 1\nlayout(location = SW_GBUFFER_LOC_FLAG) uniform int u_flags;\n",
        "#version 430 core\n#line 1 1\nlayout(location = 3) uniform int u_flags;\n",
        "#version 430 core\n#line 1 1\nvoid main() { if (cls == 3u) return; }\n",
        "#version 430 core\n#line 1 1\nvoid main() { if ((u_flags & 8) != 0) return; }\n",
        "#version 430 core\n#line 1 1\n#ifdef SW_NORMAL\n#endif\n",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int before = g_problems;
        check_source(&fam, "mistake.frag", "mistake.frag", bad[i]);
        SW_CHECK(g_problems > before);
    }
    int before = g_problems;
    check_source(&fam, "fine.frag", "fine.frag",
                 "#version 430 core\n#define SW_X 3\n#line 1 1\n"
                 "layout(std430, binding = SW_X) buffer B { uint b[]; };\n"
                 "void main() { uint cls = b[0]; if (cls == uint(SW_X) && (1 & 2) == 0) return; }\n");
    SW_CHECK_EQ_INT(g_problems, before);
    g_quiet = false;
}

int main(void) {
    SW_RUN(test_checks_catch_mistakes);
    SW_RUN(test_public_values);
    SW_RUN(test_skin_sources);
    SW_RUN(test_render_sources);
    SW_RUN(test_crowd_sources);
    SW_RUN(test_c_uses_names);
    return sw_test_finish();
}
