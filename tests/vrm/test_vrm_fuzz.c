/* Random damage to the VRM extension of the generated avatars (1.0 and 0.x):
   values replaced by other types, out-of-range or negative numbers, members
   deleted, arrays emptied; and raw byte flips in the GLB's JSON. Every
   variant must load or fail cleanly (one-line message naming the file),
   and a VRM that reads must give finite weights for random inputs. The
   asan configuration runs this under AddressSanitizer and UBSan. */
#include <math.h>
#include <string.h>

#include "harness.h"
#include "sinew/vrm.h"
#include "test_random.h"
#include "vrm/vrm_fixtures.h"

/* Every value node of the tree, in document order (up to max). */
static size_t collect(cJSON* node, cJSON** out, size_t count, size_t max) {
    for (cJSON* c = node->child; c; c = c->next) {
        if (count < max) out[count++] = c;
        count = collect(c, out, count, max);
    }
    return count;
}

static cJSON* random_value(rng* r) {
    switch (rng_below(r, 12)) {
    case 9: return cJSON_CreateNumber(VRM_FX_NODE_COUNT); /* one past the last node */
    case 10: return cJSON_CreateNumber(2);                 /* one past the last material */
    case 11: return cJSON_CreateNumber(3);                 /* one past the last morph target */
    case 0: return cJSON_CreateNumber(-1);
    case 1: return cJSON_CreateNumber(1e9);
    case 2: return cJSON_CreateNumber(0.5);
    case 3: return cJSON_CreateString("block");
    case 4: return cJSON_CreateString("");
    case 5: return cJSON_CreateArray();
    case 6: return cJSON_CreateObject();
    case 7: return cJSON_CreateNull();
    default: return cJSON_CreateNumber((double)rng_below(r, 30));
    }
}

/* One damage at a random place of the extension. */
static void mutate(cJSON* ext, rng* r) {
    cJSON* nodes[2048];
    size_t n = collect(ext, nodes, 0, 2048);
    if (n == 0) return;
    cJSON* target = nodes[rng_below(r, (uint32_t)n)];
    /* find its parent to replace or delete it */
    cJSON* all[2048];
    all[0] = ext;
    size_t m = 1 + collect(ext, all + 1, 0, 2047);
    cJSON* parent = NULL;
    for (size_t i = 0; i < m && !parent; i++)
        for (cJSON* c = all[i]->child; c; c = c->next)
            if (c == target) parent = all[i];
    if (!parent) return;
    if (rng_below(r, 4) == 0) {
        cJSON_Delete(cJSON_DetachItemViaPointer(parent, target));
        return;
    }
    /* in an object the value keeps its key (the pointer form would drop it) */
    if (cJSON_IsObject(parent) && target->string)
        cJSON_ReplaceItemInObjectCaseSensitive(parent, target->string, random_value(r));
    else
        cJSON_ReplaceItemViaPointer(parent, target, random_value(r));
}

/* Loads, reads and evaluates; false on a message that is not one clean line. */
static void exercise(const uint8_t* glb, size_t size, rng* r, int* read_ok, int* read_failed) {
    sw_model* model = NULL;
    sw_diag diag;
    if (vrm_fixture_load_bytes(glb, size, NULL, &model, &diag) != SW_OK) {
        SW_CHECK(strchr(diag.message, '\n') == NULL);
        return;
    }
    sw_vrm* vrm = NULL;
    sw_result res = sw_vrm_read(model, &vrm, &diag);
    if (res != SW_OK) {
        SW_CHECK(vrm == NULL);
        SW_CHECK(strstr(diag.message, "avatar.vrm: ") == diag.message);
        SW_CHECK(strchr(diag.message, '\n') == NULL);
        ++*read_failed;
    } else if (vrm) {
        ++*read_ok;
        size_t n = vrm->expression_count;
        float* in = calloc(n + 1, sizeof *in);
        float* w = calloc(n + 1, sizeof *w);
        float* morph = calloc(vrm->morph_slot_count + 1, sizeof *morph);
        sw_vrm_color_value* colors = calloc(vrm->color_slot_count + 1, sizeof *colors);
        sw_vrm_texture_value* textures = calloc(vrm->texture_slot_count + 1, sizeof *textures);
        SW_CHECK(in && w && morph && colors && textures);
        if (in && w && morph && colors && textures) {
            for (size_t i = 0; i < n; i++) in[i] = rng_range(r, -0.5, 1.5);
            sw_vrm_expression_result res2 = {w, morph, colors, textures};
            sw_vrm_expression_weights(vrm, in, &res2);
            for (size_t i = 0; i < n; i++) SW_CHECK(w[i] >= 0.0f && w[i] <= 1.0f);
            for (size_t i = 0; i < vrm->morph_slot_count; i++) SW_CHECK(isfinite(morph[i]));
            for (size_t i = 0; i < vrm->morph_slot_count; i++) SW_CHECK(vrm->morph_slots[i].node < model->node_count);
        }
        for (int b = 0; b < SW_HUMANOID_BONE_COUNT; b++)
            SW_CHECK(vrm->humanoid.node[b] < (int32_t)model->node_count);
        free(in), free(w), free(morph), free(colors), free(textures);
        sw_vrm_free(vrm);
    }
    sw_model_free(model);
}

static void test_tree_mutations(void) {
    rng r = {0x9E3779B97F4A7C15ull};
    int ok = 0, failed = 0;
    for (int i = 0; i < 100; i++) {
        vrm_fixture f;
        if (vrm_fixture_make(&f, i & 1) != 0) {
            SW_CHECK(!"fixture");
            return;
        }
        int damage = 1 + (int)rng_below(&r, 3);
        for (int k = 0; k < damage; k++) mutate(vrm_fixture_ext(&f), &r);
        size_t size = 0;
        uint8_t* glb = vrm_fixture_glb(&f, &size);
        if (glb) exercise(glb, size, &r, &ok, &failed);
        free(glb);
        vrm_fixture_free(&f);
    }
    fprintf(stderr, "  100 damaged extensions: %d read, %d refused\n", ok, failed);
    SW_CHECK(ok > 0 && failed > 0); /* both outcomes were exercised */
}

static void test_byte_flips(void) {
    rng r = {0xD1B54A32D192ED03ull};
    int ok = 0, failed = 0;
    for (int version = 0; version < 2; version++) {
        vrm_fixture f;
        if (vrm_fixture_make(&f, version) != 0) {
            SW_CHECK(!"fixture");
            return;
        }
        size_t size = 0;
        uint8_t* glb = vrm_fixture_glb(&f, &size);
        /* the JSON chunk: bytes 20 .. 20 + its length; flips land in the VRM part */
        const char* key = version ? "\"VRMC_vrm\"" : "\"VRM\"";
        uint8_t* copy = malloc(size);
        size_t json_length = glb ? (size_t)glb[12] | (size_t)glb[13] << 8 | (size_t)glb[14] << 16 : 0;
        const char* start = glb ? strstr((const char*)glb + 20, key) : NULL;
        SW_CHECK(glb && copy && start);
        if (glb && copy && start) {
            size_t from = (size_t)((const uint8_t*)start - glb), to = 20 + json_length;
            for (int i = 0; i < 10; i++) {
                memcpy(copy, glb, size);
                /* half the variants change digits only (the JSON stays valid:
                   indices and weights go wrong), half any byte */
                for (int k = 0; k < 3; k++) {
                    size_t at = from + rng_below(&r, (uint32_t)(to - from));
                    static const char chars[] = "0123456789-.eE\"{}[],:tfn x";
                    if (i % 2 == 0) {
                        for (size_t tries = 0; tries < to - from && !(copy[at] >= '0' && copy[at] <= '9'); tries++)
                            at = at + 1 < to ? at + 1 : from;
                        if (copy[at] >= '0' && copy[at] <= '9') copy[at] = (uint8_t)('0' + rng_below(&r, 10));
                    } else {
                        copy[at] = (uint8_t)chars[rng_below(&r, sizeof chars - 1)];
                    }
                }
                exercise(copy, size, &r, &ok, &failed);
            }
        }
        free(copy);
        free(glb);
        vrm_fixture_free(&f);
    }
    fprintf(stderr, "  20 byte-flipped files: %d read, %d refused by the VRM reader\n", ok, failed);
}

int main(void) {
    SW_RUN(test_tree_mutations);
    SW_RUN(test_byte_flips);
    return sw_test_finish();
}
