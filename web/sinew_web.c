/* sinew in the browser: the C side of web/sinew.js. One character at a
   time: load it from GLB/VRM bytes, play its clips through the runtime
   (clip instances, crossfades, spring bones), deform its meshes on the CPU
   and hand the vertex arrays to JavaScript, which uploads them to WebGL2.
   pose() evaluates a clip at a time without the runtime, for comparisons
   with the native library (tests/web).

   Everything lives in one static `web` record (the page has one
   character); the functions are exported by name (web/CMakeLists.txt) and
   wrapped by sinew.js. Pointers returned point into WebAssembly memory and
   stay valid until the next load. */
#include "sinew/sinew.h"
#include "sinew/gltf.h"
#include "sinew/import.h"
#include "sinew/spring.h"

#include <emscripten/emscripten.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One drawn (node, primitive): its deformed vertices, in world space. */
typedef struct web_instance {
    uint32_t node, primitive;
    uint32_t vertex_count, index_count;
    float* positions; /* vertex_count × 3 */
    float* normals;   /* vertex_count × 3 */
    uint32_t* indices; /* index_count (0..vertex_count-1; generated when the primitive has none) */
    void* scratch;    /* morph scratch, or NULL */
    float color[4];   /* base colour factor */
    int32_t image;    /* base colour texture's image, -1 none */
} web_instance;

typedef struct web_state {
    sw_model* model;
    void* bytes; /* the file's bytes: the model's images point into them */
    sw_pose pose, from, to; /* the drawn pose and the two crossfaded clips' samples */
    void* pose_memory[3];
    sw_blend_layer layers[2];
    /* playback: the clip playing (to) and the one fading out (from) */
    int32_t clip_to, clip_from;
    sw_clip_instance play_to, play_from;
    sw_crossfade fade;
    float clock;
    /* springs */
    sw_spring_set* springs;
    sw_spring_state spring;
    void* spring_memory;
    bool springs_on, springs_reset; /* springs_on: the model has springs that read */
    bool springs_enabled;           /* the page wants them (sw_web_springs) */
    /* drawing */
    uint32_t instance_count;
    web_instance* instances;
    float bounds[6];  /* rest pose: min xyz, max xyz */
    float frame_bounds[6]; /* the last deformed frame's: the camera follows it */
    float* nodes_out; /* node_count × 12, glTF node order (pose()) */
    float* positions_out;    /* every instance's vertices × 3, instances in glTF node order (pose()) */
    uint32_t position_count; /* floats in positions_out */
    uint32_t* file_order;    /* instance_count: the instances in glTF node order, then primitive order */
    uint8_t* pixels;  /* the last decoded image */
    int pixels_size[2];
    char error[512];
} web_state;

static web_state web;

static void web_set_error(const char* message) {
    snprintf(web.error, sizeof web.error, "%s", message);
}

EMSCRIPTEN_KEEPALIVE const char* sw_web_error(void) {
    return web.error;
}

static void web_unload(void) {
    for (uint32_t i = 0; i < web.instance_count; i++) {
        free(web.instances[i].positions);
        free(web.instances[i].normals);
        free(web.instances[i].indices);
        free(web.instances[i].scratch);
    }
    free(web.instances);
    for (int i = 0; i < 3; i++) free(web.pose_memory[i]);
    sw_spring_set_free(web.springs);
    free(web.spring_memory);
    free(web.nodes_out);
    free(web.positions_out);
    free(web.file_order);
    sw_model_image_free(web.pixels);
    sw_model_free(web.model);
    free(web.bytes);
    web = (web_state){0};
}

static bool web_bind_pose(sw_pose* pose, void** memory) {
    sw_pose_sizes sizes = sw_pose_sizes_of(web.model);
    *memory = aligned_alloc(16, sw_pose_memory_size(&sizes));
    if (!*memory) return false;
    sw_pose_bind(pose, &sizes, *memory);
    return true;
}

/* The drawn instances: every node with a mesh, triangle primitives only. */
static bool web_make_instances(void) {
    const sw_model* m = web.model;
    uint32_t count = 0;
    for (size_t n = 0; n < m->node_count; n++)
        if (m->nodes[n].mesh >= 0) count += (uint32_t)m->meshes[m->nodes[n].mesh].primitive_count;
    web.instances = calloc(count ? count : 1, sizeof *web.instances);
    if (!web.instances) return false;
    for (size_t n = 0; n < m->node_count; n++) {
        if (m->nodes[n].mesh < 0) continue;
        const sw_model_mesh* mesh = &m->meshes[m->nodes[n].mesh];
        for (size_t p = 0; p < mesh->primitive_count; p++) {
            const sw_model_primitive* prim = &mesh->primitives[p];
            if (prim->mode != SW_MODEL_TRIANGLES) continue;
            web_instance* it = &web.instances[web.instance_count++];
            it->node = (uint32_t)n;
            it->primitive = (uint32_t)p;
            it->vertex_count = (uint32_t)prim->vertex_count;
            it->positions = malloc(prim->vertex_count * 3 * sizeof(float) + 16);
            it->normals = malloc(prim->vertex_count * 3 * sizeof(float) + 16);
            it->index_count = (uint32_t)(prim->indices ? prim->index_count : prim->vertex_count);
            it->indices = malloc(it->index_count * sizeof(uint32_t) + 4);
            size_t scratch = sw_deform_scratch_size(m, n, p);
            it->scratch = scratch ? aligned_alloc(16, scratch) : NULL;
            if (!it->positions || !it->normals || !it->indices || (scratch && !it->scratch)) return false;
            for (uint32_t i = 0; i < it->index_count; i++) it->indices[i] = prim->indices ? prim->indices[i] : i;
            const sw_model_material* mat = prim->material >= 0 ? &m->materials[prim->material] : NULL;
            for (int c = 0; c < 4; c++) it->color[c] = mat ? mat->base_color_factor[c] : 1.0f;
            it->image = -1;
            if (mat && mat->base_color_texture.texture >= 0 && mat->base_color_texture.texcoord == 0 &&
                prim->texcoord_count > 0)
                it->image = m->textures[mat->base_color_texture.texture].image;
        }
    }
    return true;
}

/* The instances in glTF node order (as `sinew export` lists them) and room
   for all their vertices. */
static bool web_make_file_order(void) {
    web.file_order = malloc((web.instance_count + 1) * sizeof(uint32_t));
    if (!web.file_order) return false;
    for (uint32_t i = 0; i < web.instance_count; i++) web.file_order[i] = i;
    for (uint32_t i = 1; i < web.instance_count; i++) /* insertion sort: a handful of instances */
        for (uint32_t j = i; j > 0; j--) {
            const web_instance* a = &web.instances[web.file_order[j - 1]];
            const web_instance* b = &web.instances[web.file_order[j]];
            uint32_t sa = web.model->nodes[a->node].source_index, sb = web.model->nodes[b->node].source_index;
            if (sa < sb || (sa == sb && a->primitive <= b->primitive)) break;
            uint32_t t = web.file_order[j - 1];
            web.file_order[j - 1] = web.file_order[j];
            web.file_order[j] = t;
        }
    web.position_count = 0;
    for (uint32_t i = 0; i < web.instance_count; i++) web.position_count += 3 * web.instances[i].vertex_count;
    web.positions_out = malloc(web.position_count * sizeof(float) + 16);
    return web.positions_out != NULL;
}

static bool web_init_springs(void) {
    sw_diag diag;
    if (sw_spring_read(web.model, &web.springs, &diag) != SW_OK || !web.springs || !web.springs->chain_count)
        return true; /* no springs (or unreadable ones): drawn without */
    sw_spring_sizes sizes;
    if (sw_spring_sizes_of(web.model, web.springs, &sizes, &diag) != SW_OK) return true;
    web.spring_memory = aligned_alloc(16, (sw_spring_memory_size(&sizes) + 15) / 16 * 16 + 16);
    if (!web.spring_memory) return false;
    if (sw_spring_init(&web.spring, &sizes, web.spring_memory, web.model, web.springs, NULL, &diag) != SW_OK)
        return true;
    web.springs_on = true;
    web.springs_reset = true;
    return true;
}

/* Deforms every instance for web.pose, and measures the frame's bounds. */
static int web_deform(void) {
    sw_diag diag;
    for (int c = 0; c < 3; c++) web.frame_bounds[c] = INFINITY, web.frame_bounds[3 + c] = -INFINITY;
    for (uint32_t i = 0; i < web.instance_count; i++) {
        web_instance* it = &web.instances[i];
        sw_deform d = {.node = it->node, .primitive = it->primitive, .scratch = it->scratch,
                       .out_positions = it->positions, .out_normals = it->normals};
        if (sw_deform_primitive(web.model, &web.pose, &d, &diag) != SW_OK) {
            web_set_error(diag.message);
            return 1;
        }
        for (uint32_t v = 0; v < it->vertex_count; v++)
            for (int c = 0; c < 3; c++) {
                float x = it->positions[3 * v + (uint32_t)c];
                web.frame_bounds[c] = fminf(web.frame_bounds[c], x);
                web.frame_bounds[3 + c] = fmaxf(web.frame_bounds[3 + c], x);
            }
    }
    return 0;
}

/* Loads a glTF/GLB/VRM file from `size` bytes at `data` (the module's
   memory, given to the module: freed by the next load). 0, else 1 and
   sw_web_error() says why. */
EMSCRIPTEN_KEEPALIVE int sw_web_load(void* data, size_t size, const char* name) {
    web_unload();
    web.bytes = data;
    sw_diag diag;
    if (sw_gltf_load_memory(data, size, name, NULL, NULL, &web.model, &diag) != SW_OK) {
        web_set_error(diag.message);
        return 1;
    }
    bool ok = web_bind_pose(&web.pose, &web.pose_memory[0]) && web_bind_pose(&web.from, &web.pose_memory[1]) &&
              web_bind_pose(&web.to, &web.pose_memory[2]) && web_make_instances() && web_make_file_order() && web_init_springs();
    web.nodes_out = malloc(web.model->node_count * 12 * sizeof(float) + 16);
    if (!ok || !web.nodes_out) {
        web_set_error("out of memory");
        return 1;
    }
    web.springs_enabled = true;
    web.clip_to = web.model->animation_count ? 0 : -1;
    web.clip_from = -1;
    web.play_to = (sw_clip_instance){.speed = 1.0f, .wrap = SW_WRAP_LOOP};
    /* The rest pose's bounds frame the camera. */
    sw_pose_rest(web.model, &web.pose);
    sw_pose_update(web.model, &web.pose);
    if (web_deform()) return 1;
    memcpy(web.bounds, web.frame_bounds, sizeof web.bounds);
    return 0;
}

EMSCRIPTEN_KEEPALIVE int sw_web_clip_count(void) {
    return web.model ? (int)web.model->animation_count : 0;
}
EMSCRIPTEN_KEEPALIVE const char* sw_web_clip_name(int clip) {
    if (clip < 0 || clip >= sw_web_clip_count()) return "";
    const char* name = web.model->animations[clip].name;
    return name ? name : "";
}
EMSCRIPTEN_KEEPALIVE float sw_web_clip_duration(int clip) {
    if (clip < 0 || clip >= sw_web_clip_count()) return 0.0f;
    return web.model->animations[clip].duration;
}
EMSCRIPTEN_KEEPALIVE int sw_web_clip_playing(void) {
    return web.clip_to;
}

/* Plays `clip` (-1: the rest pose), fading from the clip playing over
   `fade_s` seconds (0: at once). */
EMSCRIPTEN_KEEPALIVE int sw_web_play(int clip, float fade_s) {
    if (!web.model || clip < -1 || clip >= sw_web_clip_count() || !(fade_s >= 0.0f)) return 1;
    web.clip_from = fade_s > 0.0f ? web.clip_to : -1;
    web.play_from = web.play_to;
    web.clip_to = clip;
    web.play_to = (sw_clip_instance){.speed = 1.0f, .wrap = SW_WRAP_LOOP};
    web.fade = (sw_crossfade){.start = web.clock, .duration = fade_s, .curve = SW_FADE_SMOOTH};
    return 0;
}

/* Springs on (1) or off (0: the animation's pose alone); turning them on
   starts them from the next frame's pose. */
EMSCRIPTEN_KEEPALIVE void sw_web_springs(int on) {
    web.springs_enabled = on != 0;
    web.springs_reset = true;
}

/* Puts the playing clip at time t (seconds from its start), ends a fade
   and restarts the springs from the pose there. */
EMSCRIPTEN_KEEPALIVE void sw_web_set_time(float t) {
    web.play_to.time = t;
    web.clip_from = -1;
    web.springs_reset = true;
}

static int web_sample(int32_t clip, float time, sw_pose* pose) {
    sw_diag diag;
    const sw_clip* c = clip >= 0 ? &web.model->animations[clip] : NULL;
    if (sw_pose_sample(web.model, c, time, true, pose, &diag) != SW_OK) {
        web_set_error(diag.message);
        return 1;
    }
    return 0;
}

/* Advances playback by dt seconds (springs included) and deforms the
   meshes: the vertex arrays then hold the new frame. */
EMSCRIPTEN_KEEPALIVE int sw_web_update(float dt) {
    if (!web.model) return 1;
    sw_diag diag;
    if (!(dt >= 0.0f) || dt > 1.0f) dt = 0.0f;
    web.clock += dt;
    sw_clip_instance* playing[2] = {&web.play_to, &web.play_from};
    int32_t clips[2] = {web.clip_to, web.clip_from};
    for (int i = 0; i < 2; i++) {
        if (clips[i] < 0) continue;
        const sw_clip* c = &web.model->animations[clips[i]];
        if (sw_clip_instance_advance(playing[i], 0.0f, c->duration, dt, NULL, 0, NULL, &diag) != SW_OK) {
            web_set_error(diag.message);
            return 1;
        }
    }
    float w = web.clip_from >= 0 ? sw_crossfade_weight(&web.fade, web.clock) : 1.0f;
    if (w >= 1.0f) web.clip_from = -1;
    if (web_sample(web.clip_to, web.play_to.time, &web.to)) return 1;
    sw_pose* pose = &web.pose;
    size_t weight_count = web.model->weight_count;
    memcpy(pose->weights, web.to.weights, weight_count * sizeof(float));
    if (web.clip_from >= 0) {
        if (web_sample(web.clip_from, web.play_from.time, &web.from)) return 1;
        /* Morph weights: the two clips' by the fade's weights (both sum to 1). */
        for (size_t k = 0; k < weight_count; k++)
            pose->weights[k] = (1.0f - w) * web.from.weights[k] + w * web.to.weights[k];
        const sw_transform* poses[2] = {web.from.local, web.to.local};
        float weights[2] = {1.0f - w, w};
        if (sw_blend_poses(pose->local, web.model->node_count, web.model->rest_local, poses, weights, 2, web.layers,
                           &diag) != SW_OK) {
            web_set_error(diag.message);
            return 1;
        }
    } else {
        memcpy(pose->local, web.to.local, web.model->node_count * sizeof(sw_transform));
    }
    sw_pose_update_world(web.model, pose);
    if (web.springs_on && web.springs_enabled) {
        if (web.springs_reset) sw_spring_reset(&web.spring, pose);
        web.springs_reset = false;
        sw_spring_update(&web.spring, web.model, web.springs, pose, dt);
    }
    sw_pose_update(web.model, pose);
    return web_deform();
}

/* The pose of `clip` at clip time `time` (held at the ends, as sw_pose_evaluate
   with looping false and `sinew export`), without springs or fades: every
   node's world matrix, 3×4 rows, in glTF node order (sw_web_pose_nodes),
   and every instance's deformed vertices, instances in glTF node order
   (sw_web_pose_positions). It leaves the playing frame alone. */
EMSCRIPTEN_KEEPALIVE int sw_web_pose(int clip, float time) {
    if (!web.model || clip < -1 || clip >= sw_web_clip_count()) return 1;
    sw_diag diag;
    const sw_clip* c = clip >= 0 ? &web.model->animations[clip] : NULL;
    if (sw_pose_evaluate(web.model, c, time, false, &web.from, &diag) != SW_OK) {
        web_set_error(diag.message);
        return 1;
    }
    for (size_t n = 0; n < web.model->node_count; n++)
        memcpy(&web.nodes_out[12 * web.model->nodes[n].source_index], &web.from.world[n], 12 * sizeof(float));
    float* out = web.positions_out;
    for (uint32_t k = 0; k < web.instance_count; k++) {
        web_instance* it = &web.instances[web.file_order[k]];
        sw_deform d = {.node = it->node, .primitive = it->primitive, .scratch = it->scratch, .out_positions = out};
        if (sw_deform_primitive(web.model, &web.from, &d, &diag) != SW_OK) {
            web_set_error(diag.message);
            return 1;
        }
        out += 3 * it->vertex_count;
    }
    return 0;
}
/* The drawn frame's vertices into sw_web_pose_positions, in the order
   pose() writes them (instances in glTF node order). */
EMSCRIPTEN_KEEPALIVE void sw_web_frame(void) {
    float* out = web.positions_out;
    for (uint32_t k = 0; k < web.instance_count; k++) {
        const web_instance* it = &web.instances[web.file_order[k]];
        memcpy(out, it->positions, 3 * it->vertex_count * sizeof(float));
        out += 3 * it->vertex_count;
    }
}
EMSCRIPTEN_KEEPALIVE const float* sw_web_pose_positions(void) {
    return web.positions_out;
}
EMSCRIPTEN_KEEPALIVE int sw_web_pose_position_count(void) {
    return (int)web.position_count;
}
EMSCRIPTEN_KEEPALIVE const float* sw_web_pose_nodes(void) {
    return web.nodes_out;
}
EMSCRIPTEN_KEEPALIVE int sw_web_node_count(void) {
    return web.model ? (int)web.model->node_count : 0;
}
EMSCRIPTEN_KEEPALIVE const float* sw_web_bounds(void) {
    return web.bounds;
}
EMSCRIPTEN_KEEPALIVE const float* sw_web_frame_bounds(void) {
    return web.frame_bounds;
}

/* ---- the drawn instances ------------------------------------------------------------------ */

static const web_instance* web_instance_at(int i) {
    return i >= 0 && (uint32_t)i < web.instance_count ? &web.instances[i] : NULL;
}
EMSCRIPTEN_KEEPALIVE int sw_web_instance_count(void) {
    return (int)web.instance_count;
}
EMSCRIPTEN_KEEPALIVE int sw_web_instance_vertex_count(int i) {
    const web_instance* it = web_instance_at(i);
    return it ? (int)it->vertex_count : 0;
}
EMSCRIPTEN_KEEPALIVE int sw_web_instance_index_count(int i) {
    const web_instance* it = web_instance_at(i);
    return it ? (int)it->index_count : 0;
}
EMSCRIPTEN_KEEPALIVE const float* sw_web_instance_positions(int i) {
    const web_instance* it = web_instance_at(i);
    return it ? it->positions : NULL;
}
EMSCRIPTEN_KEEPALIVE const float* sw_web_instance_normals(int i) {
    const web_instance* it = web_instance_at(i);
    return it ? it->normals : NULL;
}
EMSCRIPTEN_KEEPALIVE const uint32_t* sw_web_instance_indices(int i) {
    const web_instance* it = web_instance_at(i);
    return it ? it->indices : NULL;
}
EMSCRIPTEN_KEEPALIVE const float* sw_web_instance_texcoords(int i) {
    const web_instance* it = web_instance_at(i);
    if (!it) return NULL;
    const sw_model_primitive* p = &web.model->meshes[web.model->nodes[it->node].mesh].primitives[it->primitive];
    return p->texcoord_count > 0 ? p->texcoords[0] : NULL;
}
EMSCRIPTEN_KEEPALIVE const float* sw_web_instance_color(int i) {
    const web_instance* it = web_instance_at(i);
    return it ? it->color : NULL;
}
EMSCRIPTEN_KEEPALIVE int sw_web_instance_image(int i) {
    const web_instance* it = web_instance_at(i);
    return it ? it->image : -1;
}

/* Decodes image `image` to RGBA8 (sw_web_image_pixels, _width, _height);
   valid until the next decode. */
EMSCRIPTEN_KEEPALIVE int sw_web_decode_image(int image) {
    if (!web.model || image < 0 || (size_t)image >= web.model->image_count) return 1;
    sw_model_image_free(web.pixels);
    web.pixels = NULL;
    sw_diag diag;
    if (sw_model_decode_image(web.model, (size_t)image, &web.pixels, &web.pixels_size[0], &web.pixels_size[1],
                              &diag) != SW_OK) {
        web_set_error(diag.message);
        return 1;
    }
    return 0;
}
EMSCRIPTEN_KEEPALIVE const uint8_t* sw_web_image_pixels(void) {
    return web.pixels;
}
EMSCRIPTEN_KEEPALIVE int sw_web_image_width(void) {
    return web.pixels_size[0];
}
EMSCRIPTEN_KEEPALIVE int sw_web_image_height(void) {
    return web.pixels_size[1];
}

/* Milliseconds per frame of `frames` runtime updates (pose, springs, CPU
   skinning of every instance): the cost the page pays each frame. */
EMSCRIPTEN_KEEPALIVE double sw_web_bench(int frames) {
    double start = emscripten_get_now();
    for (int f = 0; f < frames; f++)
        if (sw_web_update(1.0f / 60.0f)) return -1.0;
    return (emscripten_get_now() - start) / (frames > 0 ? frames : 1);
}
