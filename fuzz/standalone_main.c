/* A plain main() for the fuzz targets (stb's fuzz_main.c): runs
   LLVMFuzzerTestOneInput over every file named on the command line and
   every file in the directories named there (recursively), each in a heap
   block of exactly its size so that ASan sees any over-read. ctest runs it
   over fuzz/corpus/ in every build configuration, and it replays a crash
   file without libFuzzer:

       fuzz_corpus_gltf_json crash-0123abcd
       fuzz_corpus_glb fuzz/corpus/glb

   Exits 1 when a path cannot be read or no input was found at all (an
   empty corpus is a broken test, not a pass). */
#define _POSIX_C_SOURCE 200809L /* opendir, stat */

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

static int run_file(const char* path, size_t* runs) {
    FILE* f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        return 1;
    }
    size_t capacity = 4096, size = 0;
    uint8_t* buffer = malloc(capacity);
    for (size_t got; buffer && (got = fread(buffer + size, 1, capacity - size, f)) > 0;) {
        size += got;
        if (size == capacity) {
            uint8_t* bigger = realloc(buffer, capacity *= 2);
            if (!bigger) free(buffer);
            buffer = bigger;
        }
    }
    int error = ferror(f);
    fclose(f);
    if (!buffer || error) {
        free(buffer);
        fprintf(stderr, "cannot read %s\n", path);
        return 1;
    }
    /* an exact-size copy: reading one byte past the input is an ASan error */
    uint8_t* exact = malloc(size ? size : 1);
    if (!exact) {
        free(buffer);
        return 1;
    }
    memcpy(exact, buffer, size);
    free(buffer);
    LLVMFuzzerTestOneInput(size ? exact : NULL, size);
    free(exact);
    ++*runs;
    return 0;
}

static int compare_names(const void* a, const void* b) { return strcmp(*(char* const*)a, *(char* const*)b); }

static int run_path(const char* path, size_t* runs) {
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "cannot stat %s\n", path);
        return 1;
    }
    if (!S_ISDIR(st.st_mode)) return run_file(path, runs);
    DIR* dir = opendir(path);
    if (!dir) {
        fprintf(stderr, "cannot open directory %s\n", path);
        return 1;
    }
    /* sorted, so a run is the same on every machine */
    char** names = NULL;
    size_t count = 0, capacity = 0;
    int failures = 0;
    for (struct dirent* e; (e = readdir(dir));) {
        if (e->d_name[0] == '.') continue;
        if (count == capacity) {
            capacity = capacity ? capacity * 2 : 64;
            char** bigger = realloc(names, capacity * sizeof *names);
            if (!bigger) {
                failures++;
                break;
            }
            names = bigger;
        }
        size_t length = strlen(path) + strlen(e->d_name) + 2;
        if (!(names[count] = malloc(length))) {
            failures++;
            break;
        }
        snprintf(names[count++], length, "%s/%s", path, e->d_name);
    }
    closedir(dir);
    if (count) qsort(names, count, sizeof *names, compare_names);
    for (size_t i = 0; i < count; i++) {
        failures += run_path(names[i], runs);
        free(names[i]);
    }
    free(names);
    return failures;
}

int main(int argc, char** argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s <file or directory>...\n", argv[0]);
        return 2;
    }
    size_t runs = 0;
    int failures = 0;
    for (int i = 1; i < argc; i++) failures += run_path(argv[i], &runs);
    printf("%s: %zu inputs run\n", argv[0], runs);
    if (runs == 0) fprintf(stderr, "no inputs found\n");
    return failures || runs == 0 ? 1 : 0;
}
