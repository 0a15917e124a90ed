/* The file system sinew hands Assimp (assimp_io.h): the model from memory,
   every side file through sinew's file rules, each one recorded. */
#define _XOPEN_SOURCE 700 /* stat */

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#ifdef SW_HAVE_ASSIMP

#include "assimp_io.h"
#include "../base/base_internal.h"
#include "../import/file_internal.h"

/* Assimp's name for a file read from memory (MemoryIOWrapper.h): kept so
   that what Assimp derives from the name (an OBJ's root node) stays as it
   was when sinew read models through aiImportFileFromMemory. */
#define SW__AI_MEMORY_NAME "$$$___magic___$$$"

/* One open file: the model's bytes (borrowed) or a side file's (owned). */
typedef struct sw__ai_stream {
    struct aiFile file; /* first: Assimp hands this pointer back */
    sw__ai_io* io;
    const uint8_t* bytes;
    uint8_t* owned;
    size_t size, position;
} sw__ai_stream;

static sw__ai_stream* sw__ai_stream_of(struct aiFile* file) { return (sw__ai_stream*)(void*)file->UserData; }

static size_t sw__ai_read(struct aiFile* file, char* buffer, size_t size, size_t count) {
    sw__ai_stream* s = sw__ai_stream_of(file);
    if (size == 0 || count == 0) return 0;
    size_t items = (s->size - s->position) / size; /* whole items only, as fread */
    if (items > count) items = count;
    memcpy(buffer, s->bytes + s->position, items * size);
    s->position += items * size;
    return items;
}

static size_t sw__ai_write(struct aiFile* file, const char* buffer, size_t size, size_t count) {
    (void)file, (void)buffer, (void)size, (void)count;
    return 0; /* nothing is written through an importer */
}

static size_t sw__ai_tell(struct aiFile* file) { return sw__ai_stream_of(file)->position; }

static size_t sw__ai_size(struct aiFile* file) { return sw__ai_stream_of(file)->size; }

static enum aiReturn sw__ai_seek(struct aiFile* file, size_t offset, enum aiOrigin origin) {
    sw__ai_stream* s = sw__ai_stream_of(file);
    size_t base = origin == aiOrigin_SET ? 0 : origin == aiOrigin_CUR ? s->position : s->size;
    /* offsets are unsigned: a step back arrives wrapped around, as size_t */
    size_t target = base + offset;
    if (origin != aiOrigin_SET && origin != aiOrigin_CUR && origin != aiOrigin_END) return aiReturn_FAILURE;
    if (target > s->size) return aiReturn_FAILURE;
    s->position = target;
    return aiReturn_SUCCESS;
}

static void sw__ai_flush(struct aiFile* file) { (void)file; }

static struct aiFile* sw__ai_stream_new(sw__ai_io* io, const uint8_t* bytes, uint8_t* owned, size_t size) {
    sw__ai_stream* s = sw__calloc(1, sizeof *s);
    if (!s) {
        io->out_of_memory = true;
        sw__free(owned);
        return NULL;
    }
    s->io = io;
    s->bytes = bytes;
    s->owned = owned;
    s->size = size;
    s->file.ReadProc = sw__ai_read;
    s->file.WriteProc = sw__ai_write;
    s->file.TellProc = sw__ai_tell;
    s->file.FileSizeProc = sw__ai_size;
    s->file.SeekProc = sw__ai_seek;
    s->file.FlushProc = sw__ai_flush;
    s->file.UserData = (aiUserData)(void*)s;
    if (owned) io->open_bytes += size;
    return &s->file;
}

/* A side file refused for a reason that ends the load (the first wins). */
static struct aiFile* sw__ai_refuse(sw__ai_io* io, const sw_diag* why) {
    if (!io->failed) {
        io->failed = true;
        io->error = *why;
    }
    return NULL;
}

/* A side file not read because it lies outside the folder: a warning. */
static struct aiFile* sw__ai_skip(sw__ai_io* io, const char* message) {
    for (size_t i = 0; i < io->warning_count; i++)
        if (strcmp(io->warnings[i], message) == 0) return NULL; /* Assimp may ask twice */
    if (io->warning_count == SW__AI_IO_MAX_WARNINGS) {
        io->warnings_dropped++;
        return NULL;
    }
    char* copy = sw__string_copy(message);
    if (!copy) io->out_of_memory = true;
    else io->warnings[io->warning_count++] = copy;
    return NULL;
}

static void sw__ai_record(sw__ai_io* io, const char* path) {
    for (size_t i = 0; i < io->read_count; i++)
        if (strcmp(io->read_paths[i], path) == 0) return;
    if (io->read_count == io->read_capacity) {
        size_t capacity = io->read_capacity ? 2 * io->read_capacity : 8;
        char** grown = sw__realloc(io->read_paths, capacity * sizeof *grown);
        if (!grown) {
            io->out_of_memory = true;
            return;
        }
        io->read_paths = grown;
        io->read_capacity = capacity;
    }
    char* copy = sw__string_copy(path);
    if (!copy) io->out_of_memory = true;
    else io->read_paths[io->read_count++] = copy;
}

static void* sw__ai_side_alloc(void* user, size_t size) {
    (void)user;
    return sw__malloc(size);
}

static void sw__ai_side_release(void* user, void* ptr) {
    (void)user;
    sw__free(ptr);
}

static struct aiFile* sw__ai_open(struct aiFileIO* fio, const char* name, const char* mode) {
    sw__ai_io* io = (sw__ai_io*)(void*)fio->UserData;
    if (!name || !mode || strpbrk(mode, "wa+")) return NULL;
    if (strncmp(name, SW__AI_MEMORY_NAME, sizeof SW__AI_MEMORY_NAME - 1) == 0)
        return sw__ai_stream_new(io, io->data, NULL, io->size);
    if (io->failed || io->out_of_memory) return NULL;
    sw_diag why;
    /* The name is the file's text: one with a control character is not
       quoted (it would end the message line). */
    if (sw__check_uri_text(name, strlen(name), &why) != SW_OK) {
        sw_diag_set(&why, SW_ERR_INVALID_DATA, -1, "a side file's name %s", why.message);
        return sw__ai_refuse(io, &why);
    }
    char label[160];
    snprintf(label, sizeof label, "side file '%.120s'", name);
    char* path;
    sw_result r = sw__side_path(name, io->base_dir, io->allow_outside, &path, &why);
    if (r == SW_ERR_OUT_OF_MEMORY) {
        io->out_of_memory = true;
        return NULL;
    }
    if (r != SW_OK) {
        char message[sizeof why.message + 32];
        snprintf(message, sizeof message, "side file not read: %s", why.message);
        return sw__ai_skip(io, message);
    }
    struct stat st;
    if (stat(path, &st) != 0) { /* not there: Assimp decides, as with its own file system */
        sw__free(path);
        return NULL;
    }
    char* real = NULL;
    if (!io->allow_outside) {
        r = sw__path_inside(path, io->base_dir, label, &real, &why);
        sw__free(path);
        if (r == SW_ERR_INVALID_DATA) {
            char message[sizeof why.message + 32];
            snprintf(message, sizeof message, "not read: %s", why.message);
            return sw__ai_skip(io, message);
        }
        if (r != SW_OK) return sw__ai_refuse(io, &why);
    } else {
        real = path;
    }
    uint8_t* data;
    size_t size;
    size_t budget = io->open_bytes < io->max_memory ? io->max_memory - io->open_bytes : 0;
    r = sw__read_file(real, label, budget, SIZE_MAX, sw__ai_side_alloc, sw__ai_side_release, NULL, &data, &size,
                      &why);
    if (r == SW_OK) sw__ai_record(io, real);
    sw__free(real);
    if (r != SW_OK) return sw__ai_refuse(io, &why);
    return sw__ai_stream_new(io, data, data, size);
}

static void sw__ai_close(struct aiFileIO* fio, struct aiFile* file) {
    (void)fio;
    if (!file) return;
    sw__ai_stream* s = sw__ai_stream_of(file);
    if (s->owned) {
        s->io->open_bytes -= s->size;
        sw__free(s->owned);
    }
    sw__free(s);
}

void sw__ai_io_init(sw__ai_io* io, const void* data, size_t size, const char* hint, const char* base_dir,
                    bool allow_outside, size_t max_memory) {
    memset(io, 0, sizeof *io);
    snprintf(io->main_name, sizeof io->main_name, "%s.%.16s", SW__AI_MEMORY_NAME, hint);
    io->data = data;
    io->size = size;
    io->base_dir = base_dir;
    io->allow_outside = allow_outside;
    io->max_memory = max_memory;
    io->io.OpenProc = sw__ai_open;
    io->io.CloseProc = sw__ai_close;
    io->io.UserData = (aiUserData)(void*)io;
}

sw_result sw__ai_io_finish(sw__ai_io* io, sw__importer* im, sw_model* model) {
    if (io->out_of_memory) return sw__importer_fail(im, SW_ERR_OUT_OF_MEMORY, "out of memory");
    for (size_t i = 0; i < io->warning_count; i++) sw__importer_warn(im, "%s", io->warnings[i]);
    if (io->warnings_dropped)
        sw__importer_warn(im, "%zu more side files not read (outside the model's folder)", io->warnings_dropped);
    if (io->read_count == 0) return SW_OK;
    const char** paths = sw__importer_array(im, im->arena, io->read_count, sizeof *paths);
    if (!paths) return im->diag.result;
    for (size_t i = 0; i < io->read_count; i++)
        if (!(paths[i] = sw__importer_strdup(im, io->read_paths[i], strlen(io->read_paths[i]))))
            return im->diag.result;
    model->side_files = paths;
    model->side_file_count = io->read_count;
    return SW_OK;
}

void sw__ai_io_free(sw__ai_io* io) {
    for (size_t i = 0; i < io->read_count; i++) sw__free(io->read_paths[i]);
    sw__free(io->read_paths);
    for (size_t i = 0; i < io->warning_count; i++) sw__free(io->warnings[i]);
    memset(io, 0, sizeof *io);
}

#else
typedef int sw__ai_io_unused; /* ISO C: a translation unit is not empty */
#endif
