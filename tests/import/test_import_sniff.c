/* Files that are no model (src/import/import.c): what sw_import_memory
   and sw_import_file say a file looks like by its first bytes, the list
   of formats they name (sw_import_format_list), and the files that still
   go to an importer (glTF text and GLB under any name, a glTF name with
   broken content, Assimp's extensions). */
#include "harness.h"

#include "sinew/import.h"

#include <stdio.h>
#include <string.h>

static const char formats[] =
    "glTF/GLB/VRM, IQM and, through Assimp, FBX, Collada, BVH, DirectX .x, SMD, MD5, MS3D, OBJ, 3DS, B3D";

static void test_format_list(void) {
    char out[200];
    SW_CHECK_EQ_INT(sw_import_format_list(out, sizeof out), strlen(formats));
    SW_CHECK(strcmp(out, formats) == 0);
    /* too small: the length still, and nothing written but "" */
    SW_CHECK_EQ_INT(sw_import_format_list(out, 20), strlen(formats));
    SW_CHECK(strcmp(out, "") == 0);
    SW_CHECK_EQ_INT(sw_import_format_list(NULL, 0), strlen(formats));
}

/* sw_import_memory of `size` bytes named `name`: the result, and the message in `message`. */
static sw_result import(const void* data, size_t size, const char* name, char* message) {
    sw_model* model = NULL;
    sw_diag diag = {0};
    sw_result r = sw_import_memory(data, size, name, NULL, NULL, &model, &diag);
    strcpy(message, diag.message);
    sw_model_free(model);
    return r;
}

static void test_looks_like(void) {
    static const struct {
        const char* bytes;
        size_t size;
        const char* name;
        const char* looks;
    } cases[] = {
        {"\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16, "face.png", "a PNG image"},
        {"\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16, "avatar.vrm", "a PNG image"}, /* a glTF name: still a PNG */
        {"\xFF\xD8\xFF\xE0\0\x10JFIF", 10, "photo.jpg", "a JPEG image"},
        {"GIF89a\x01\0", 8, "a.gif", "a GIF image"},
        {"PK\x03\x04\x14\0", 6, "avatar.glb", "a ZIP archive"},
        {"%PDF-1.7\n", 9, "manual.pdf", "a PDF document"},
        {"RIFF\x10\0\0\0WEBPVP8 ", 16, "t.webp", "a WebP image"},
        {"\x1f\x8b\x08\0", 4, "x.tar.gz", "a gzip archive"},
        {"Kaydara FBX Binary  \0", 21, "hero.bin", "an FBX file (name it .fbx)"},
        {"hello, world\n", 13, "notes.txt", "text, not glTF JSON"},
        {"", 0, "empty.dat", "an empty file"},
        {"\x01\x02\x03\x04", 4, "blob.dat", "data of no format sinew knows"},
        {"\x01\x02\x03\x04", 4, NULL, "data of no format sinew knows"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char message[256], want[256];
        sw_result r = import(cases[i].bytes, cases[i].size, cases[i].name, message);
        snprintf(want, sizeof want, "%s: not a model file (it looks like %s); sinew reads %s",
                 cases[i].name ? cases[i].name : "<memory>", cases[i].looks, formats);
        SW_CHECK_EQ_INT(r, SW_ERR_UNSUPPORTED);
        if (strcmp(message, want) != 0) fprintf(stderr, "  case %zu: got '%s'\n  want '%s'\n", i, message, want);
        SW_CHECK(strcmp(message, want) == 0);
    }
}

static void test_still_imported(void) {
    char message[256];
    /* text under a glTF name, and an empty .glb: the glTF reader says what is wrong */
    SW_CHECK(import("hello", 5, "avatar.gltf", message) != SW_OK);
    SW_CHECK(strstr(message, "not a model file") == NULL);
    SW_CHECK(import("", 0, "avatar.glb", message) != SW_OK);
    SW_CHECK(strstr(message, "not a model file") == NULL);
    /* JSON under any name is glTF's to judge */
    SW_CHECK(import("{\"a\": 1}", 8, "data.txt", message) != SW_OK);
    SW_CHECK(strstr(message, "not a model file") == NULL);
    /* an Assimp extension goes to Assimp (or the build's message without it) */
    SW_CHECK(import("\x89PNG\r\n\x1a\n", 8, "hero.obj", message) != SW_OK);
    SW_CHECK(strstr(message, "not a model file") == NULL);
    /* a file: the same message, the name as given to sw_import_file's base name */
    const char* path = "import_sniff_test.png";
    FILE* f = fopen(path, "wb");
    SW_CHECK(f != NULL);
    if (!f) return;
    fwrite("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 1, 16, f);
    fclose(f);
    sw_model* model = NULL;
    sw_diag diag = {0};
    SW_CHECK_EQ_INT(sw_import_file(path, NULL, &model, &diag), SW_ERR_UNSUPPORTED);
    SW_CHECK(strstr(diag.message, "import_sniff_test.png: not a model file (it looks like a PNG image)") == diag.message);
    SW_CHECK(strstr(diag.message, "FBX") != NULL);
    remove(path);
}

int main(void) {
    SW_RUN(test_format_list);
    SW_RUN(test_looks_like);
    SW_RUN(test_still_imported);
    return sw_test_finish();
}
