/* The loader on every prefix of real files, and on mutated files
   (meshoptimizer's *MemorySafe tests): ASan must see any read past the end
   of the input.

   - Truncation: every .gltf and .glb of tests/data/gltf (and, when
     SINEW_ASSETS is set, of $SINEW_ASSETS/gltf, invalid/ included) is cut
     at every length below 4 KiB; bigger files at the first and last 256
     lengths and 2000 evenly spaced ones. Each cut must be rejected with a
     code and a message naming the file, or (where a prefix happens to be
     a whole document) load into an asset that keeps every promise
     (fuzz/fuzz_check.h).
   - GLB cuts with a consistent container: the header's length and the
     length of the chunk being cut are rewritten to match, so the cut
     reaches the JSON parser and the buffer checks instead of stopping at
     the header.
   - Mutations: a few hundred deterministic mutants of each small file
     (bit flips, random bytes, digits changed or added in the JSON) must
     load cleanly or fail cleanly, never crash.

   Each cut of a file up to 256 KiB is a fresh heap block of exactly the
   cut's size. For bigger files that copying would dominate the run, so the
   file stays in one block of its own size and, in ASan builds, the bytes
   past the cut are poisoned: ASan reports a read there exactly as it
   reports a read past a heap block. Cuts whose cost grows with their
   length (JSON parsed, BIN copied) are thinned out evenly on big files to
   a budget of bytes per file, which keeps the ASan run within seconds. */
#define _POSIX_C_SOURCE 200809L /* opendir, stat */

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "fuzz_check.h"
#include "harness.h"
#include "sinew/gltf.h"
#include "test_random.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SW_TEST_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define SW_TEST_ASAN 1
#endif
#ifdef SW_TEST_ASAN
#include <sanitizer/asan_interface.h>
#define POISON(p, n) __asan_poison_memory_region((p), (n))
#define UNPOISON(p, n) __asan_unpoison_memory_region((p), (n))
#else
#define POISON(p, n) ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

#define DENSE_LIMIT 4096        /* files up to this size: every length */
#define EDGE_LENGTHS 256        /* bigger files: the first and last 256 lengths ... */
#define SPACED_LENGTHS 2000     /* ... and 2000 evenly spaced ones */
#define COPY_LIMIT (256 << 10)  /* files up to this size: each cut in a fresh block */
#define PARSE_BUDGET ((size_t)24 << 20) /* bytes per file of cuts that cost their length */
#define MUTATE_LIMIT (64 << 10) /* files up to this size are mutated */
#define MUTANTS 200

typedef struct file_list {
    char** paths;
    size_t count, capacity;
} file_list;

static void list_add(file_list* l, const char* path) {
    if (l->count == l->capacity) {
        l->capacity = l->capacity ? l->capacity * 2 : 64;
        l->paths = realloc(l->paths, l->capacity * sizeof *l->paths);
        SW_CHECK(l->paths != NULL);
        if (!l->paths) exit(1);
    }
    l->paths[l->count++] = strdup(path);
}

static bool has_suffix(const char* s, const char* suffix) {
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* Every .gltf and .glb under `dir`, recursively. */
static void find_files(const char* dir, file_list* out) {
    DIR* d = opendir(dir);
    if (!d) return;
    for (struct dirent* e; (e = readdir(d));) {
        if (e->d_name[0] == '.') continue;
        char path[2048];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(path, &st) != 0) continue;
        if (S_ISDIR(st.st_mode)) find_files(path, out);
        else if (has_suffix(e->d_name, ".gltf") || has_suffix(e->d_name, ".glb")) list_add(out, path);
    }
    closedir(d);
}

static int compare_paths(const void* a, const void* b) { return strcmp(*(char* const*)a, *(char* const*)b); }

static file_list all_files(void) {
    file_list l = {0};
    find_files(SW_TEST_DATA_DIR "/gltf", &l);
    const char* assets = getenv("SINEW_ASSETS");
    if (assets && *assets) {
        char dir[1024];
        snprintf(dir, sizeof dir, "%s/gltf", assets);
        find_files(dir, &l);
    }
    if (l.count) qsort(l.paths, l.count, sizeof *l.paths, compare_paths);
    return l;
}

static void free_files(file_list* l) {
    for (size_t i = 0; i < l->count; i++) free(l->paths[i]);
    free(l->paths);
}

static uint8_t* read_whole(const char* path, size_t* size) {
    FILE* f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t* data = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (data && fread(data, 1, (size_t)n, f) != (size_t)n) {
        free(data);
        data = NULL;
    }
    fclose(f);
    *size = data ? (size_t)n : 0;
    return data;
}

typedef struct loader_ctx {
    const char* name;     /* file name, for messages */
    const char* base_dir; /* the file's folder: external buffers resolve there */
    size_t ok, rejected, broken;
} loader_ctx;

/* Loads `data`, `size` bytes that are the whole of their heap block or
   are followed by poisoned bytes; counts the outcome and checks it: an
   asset that keeps every promise, or a code and a message that starts with
   the file's name. */
static sw_result load_checked(loader_ctx* c, const uint8_t* data, size_t size, const char* what, size_t at) {
    sw_model* asset = (sw_model*)1;
    sw_diag diag;
    sw_result r = sw_gltf_load_memory(data, size, c->name, c->base_dir, NULL, &asset, &diag);
    if (r == SW_OK) {
        c->ok++;
        fuzz_check_asset(asset);
        sw_model_free(asset);
        return r;
    }
    c->rejected++;
    size_t n = strlen(c->name);
    bool clean = asset == NULL && diag.result == r && strncmp(diag.message, c->name, n) == 0 &&
                 strncmp(diag.message + n, ": ", 2) == 0 && diag.message[n + 2] != '\0' && !strchr(diag.message, '\n');
    if (!clean && c->broken++ < 5)
        fprintf(stderr, "  %s, %s %zu: %s without a proper message: '%s'\n", c->name, what, at, sw_result_str(r),
                diag.message);
    return r;
}

/* Loads a copy of `size` bytes in a fresh block of exactly that size. */
static sw_result load_exact(loader_ctx* c, const uint8_t* data, size_t size, const char* what, size_t at) {
    uint8_t* copy = malloc(size ? size : 1);
    if (!copy) return SW_ERR_OUT_OF_MEMORY;
    if (size) memcpy(copy, data, size);
    sw_result r = load_checked(c, copy, size, what, at);
    free(copy);
    return r;
}

static uint32_t get_u32(const uint8_t* p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put_u32(uint8_t* p, size_t v) {
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

/* Where a GLB cut at `length` needs its lengths rewritten to stay a
   consistent container: the offset of the chunk header being cut (the
   header's total is at 8). 0 when the cut falls inside the file header or
   a chunk header, or the file is not a well-formed GLB. */
static size_t cut_chunk(const uint8_t* glb, size_t size, size_t length) {
    if (length < 20) return 0;
    for (size_t offset = 12; offset + 8 <= size;) {
        size_t chunk = get_u32(glb + offset);
        if (length < offset + 8) return 0;
        if (length <= offset + 8 + chunk) return offset;
        offset += 8 + chunk;
    }
    return 0;
}

/* Loads the first `length` bytes of `block` (the whole file, `size` bytes,
   in a heap block of exactly that size), with the GLB lengths rewritten
   when `consistent`. Small files: a fresh exact copy; big ones: in place,
   with the bytes past the cut poisoned. */
static void load_cut(loader_ctx* c, uint8_t* block, size_t size, size_t length, bool consistent, const char* what) {
    size_t chunk = consistent ? cut_chunk(block, size, length) : 0;
    if (consistent && !chunk) return;
    uint8_t saved[8];
    memcpy(saved, block + 8, 4);
    if (chunk) memcpy(saved + 4, block + chunk, 4);
    if (chunk) {
        put_u32(block + 8, length);
        put_u32(block + chunk, length - chunk - 8);
    }
    if (size <= COPY_LIMIT) {
        load_exact(c, block, length, what, length);
    } else {
        POISON(block + length, size - length);
        load_checked(c, block, length, what, length);
        UNPOISON(block + length, size - length);
    }
    memcpy(block + 8, saved, 4);
    if (chunk) memcpy(block + chunk, saved + 4, 4);
}

/* The lengths a file of `size` bytes is cut at, ascending (duplicates allowed). */
static size_t cut_lengths(size_t size, size_t* out) {
    size_t n = 0;
    if (size <= DENSE_LIMIT) {
        for (size_t l = 0; l < size; l++) out[n++] = l;
        return n;
    }
    for (size_t l = 0; l < EDGE_LENGTHS; l++) out[n++] = l;
    for (size_t k = 0; k < SPACED_LENGTHS; k++) out[n++] = EDGE_LENGTHS + (size - 2 * EDGE_LENGTHS) * k / SPACED_LENGTHS;
    for (size_t l = size - EDGE_LENGTHS; l < size; l++) out[n++] = l;
    return n;
}

/* Every `step`-th of the lengths, with `step` such that their sum fits the budget. */
static size_t budget_step(const size_t* lengths, size_t n) {
    size_t total = 0;
    for (size_t i = 0; i < n; i++) total += lengths[i];
    return total / PARSE_BUDGET + 1;
}

static void check_file(const char* path, size_t* lengths, size_t* ok_prefixes) {
    size_t size;
    uint8_t* data = read_whole(path, &size);
    SW_CHECK(data != NULL);
    if (!data) return;
    char dir[2048];
    snprintf(dir, sizeof dir, "%s", path);
    char* slash = strrchr(dir, '/');
    if (slash) *slash = '\0';
    loader_ctx c = {.name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path, .base_dir = slash ? dir : "."};
    uint8_t* block = malloc(size ? size : 1); /* read_whole's block has a spare byte */
    memcpy(block, data, size);
    free(data);

    /* the whole file: loads, or fails cleanly (the invalid/ folder) */
    load_checked(&c, block, size, "whole file", size);

    /* A cut GLB stops at its header (cheap); a cut JSON is parsed up to the cut. */
    bool glb = size >= 12 && memcmp(block, "glTF", 4) == 0 && get_u32(block + 8) == size;
    size_t n = cut_lengths(size, lengths);
    size_t step = glb ? 1 : budget_step(lengths, n);
    for (size_t i = 0; i < n; i += step) load_cut(&c, block, size, lengths[i], false, "length");
    if (glb) {
        step = budget_step(lengths, n);
        for (size_t i = 0; i < n; i += step) load_cut(&c, block, size, lengths[i], true, "consistent GLB length");
    }
    if (c.broken) fprintf(stderr, "  %s: %zu loads failed without a proper message\n", c.name, c.broken);
    SW_CHECK_EQ_INT(c.broken, 0);
    *ok_prefixes += c.ok;
    free(block);
}

static void test_truncated_files(void) {
    file_list files = all_files();
    SW_CHECK(files.count >= 17); /* tests/data/gltf alone has 17 */
    size_t* lengths = malloc((DENSE_LIMIT + 2 * EDGE_LENGTHS + SPACED_LENGTHS) * sizeof *lengths);
    size_t ok = 0;
    clock_t start = clock();
    for (size_t i = 0; i < files.count; i++) check_file(files.paths[i], lengths, &ok);
    fprintf(stderr, "  %zu files, %zu loads succeeded (whole files and valid prefixes), %.1f s\n", files.count, ok,
            (double)(clock() - start) / CLOCKS_PER_SEC);
    free(lengths);
    free_files(&files);
}

/* One mutation of `data` (size may grow by one byte: `data` has room). */
static void mutate(rng* r, uint8_t* data, size_t* size, bool glb) {
    size_t n = *size;
    switch (rng_below(r, glb ? 3 : 4)) {
    case 0: data[rng_below(r, (uint32_t)n)] ^= (uint8_t)(1u << rng_below(r, 8)); break;
    case 1: {
        static const uint8_t interesting[] = {0, 1, 0x7f, 0x80, 0xff, '0', '9', '-', '"', '[', ']', '{', '}', ','};
        data[rng_below(r, (uint32_t)n)] = rng_below(r, 2) ? (uint8_t)rng_u32(r) : interesting[rng_below(r, 14)];
        break;
    }
    case 2: { /* a digit of the JSON becomes another digit */
        size_t at = rng_below(r, (uint32_t)n);
        while (at < n && !(data[at] >= '0' && data[at] <= '9')) at++;
        if (at < n) data[at] = (uint8_t)('0' + rng_below(r, 10));
        break;
    }
    default: { /* a digit is added to a number (the file grows by one byte) */
        size_t at = rng_below(r, (uint32_t)n);
        while (at < n && !(data[at] >= '0' && data[at] <= '9')) at++;
        if (at < n) {
            memmove(data + at + 1, data + at, n - at);
            data[at] = (uint8_t)('1' + rng_below(r, 9));
            *size = n + 1;
        }
        break;
    }
    }
}

static void test_mutated_files(void) {
    file_list files = all_files();
    size_t mutated = 0, ok = 0;
    for (size_t f = 0; f < files.count; f++) {
        size_t size;
        uint8_t* data = read_whole(files.paths[f], &size);
        if (!data || size == 0 || size > MUTATE_LIMIT) {
            free(data);
            continue;
        }
        const char* slash = strrchr(files.paths[f], '/');
        char dir[2048];
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - files.paths[f]), files.paths[f]);
        loader_ctx c = {.name = slash + 1, .base_dir = dir};
        bool glb = memcmp(data, "glTF", 4) == 0;
        uint8_t* mutant = malloc(size + 8);
        rng r = {0x9E3779B97F4A7C15ull ^ (uint64_t)f};
        for (int m = 0; m < MUTANTS; m++) {
            size_t n = size;
            memcpy(mutant, data, size);
            int edits = 1 + (int)rng_below(&r, 4);
            for (int e = 0; e < edits; e++) mutate(&r, mutant, &n, glb);
            load_exact(&c, mutant, n, "mutant", (size_t)m);
        }
        SW_CHECK_EQ_INT(c.broken, 0);
        mutated++;
        ok += c.ok;
        free(mutant);
        free(data);
    }
    fprintf(stderr, "  %zu files x %d mutants, %zu loaded\n", mutated, MUTANTS, ok);
    SW_CHECK(mutated >= 17);
    free_files(&files);
}

int main(void) {
    SW_RUN(test_truncated_files);
    SW_RUN(test_mutated_files);
    return sw_test_finish();
}
