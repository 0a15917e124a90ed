/* Writes every GPU skinning program variant and every renderer stage,
   exactly as they are compiled, into a folder (name.comp / .vert / .frag),
   for offline validation with glslangValidator
   (tests/gpu/validate_shaders.sh). */
#include <stdio.h>

#include "sinew/gpu_crowd.h"
#include "sinew/render.h"

typedef struct dump_state {
    const char* dir;
    int written, failed;
} dump_state;

static void write_variant(const char* name, const char* stage, const char* source, void* user) {
    dump_state* state = (dump_state*)user;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.%s", state->dir, name, stage);
    FILE* f = fopen(path, "wb");
    if (!f || fputs(source, f) < 0) {
        fprintf(stderr, "dump_shaders: cannot write %s\n", path);
        state->failed++;
    } else {
        state->written++;
    }
    if (f) fclose(f);
}

int main(int argc, char** argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: dump_shaders DIR\n");
        return 2;
    }
    dump_state state = {argv[1], 0, 0};
    sw_gpu_shader_sources(write_variant, &state);
    sw_render_shader_sources(write_variant, &state);
    sw_gpu_crowd_shader_sources(write_variant, &state);
    printf("%d shaders written\n", state.written);
    return state.failed || state.written == 0 ? 1 : 0;
}
