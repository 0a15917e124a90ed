/* The JSON layer of sinew-import (src/import/json_internal.h) on
   hand-written JSON: typed getters, range checks and defaults, and the
   exact one-line messages with the JSON path ("file: a.b[2].c: text"),
   every expected text written out by hand. */
#include <string.h>

#include "../../src/import/json_internal.h"
#include "harness.h"

/* diag's message is `want` (both printed when not). */
static bool message_is(const char* got, const char* want) {
    if (strcmp(got, want) == 0) return true;
    fprintf(stderr, "  message: %s\n  wanted:  %s\n", got, want);
    return false;
}

/* A reader on "f.gltf" at path "ext", over a parsed document. */
typedef struct fixture {
    sw__json J;
    sw__json_owned owned;
    sw_diag diag;
    cJSON* root;
} fixture;

static void fixture_open(fixture* f, const char* json) {
    memset(f, 0, sizeof *f);
    sw__json_begin(&f->J, "f.gltf", "test", &f->diag, &f->owned);
    sw__json_set_path(&f->J, "ext");
    f->root = sw__json_parse(&f->J, json, NULL);
    SW_CHECK(f->root != NULL);
}

static void fixture_close(fixture* f) {
    sw__json_delete(f->root);
    sw__json_owned_free(&f->owned);
}

static void test_parse(void) {
    size_t at = 99;
    sw_diag diag;
    sw__json Jp;
    sw__json_begin(&Jp, "p.json", "test", &diag, NULL);
    sw__json* J = &Jp;
    cJSON* root = sw__json_parse(J, "{\"a\": [1, 2]}", &at);
    SW_CHECK(root && sw__json_is_object(root) && sw__json_count(root) == 1);
    SW_CHECK_EQ_INT(sw__json_count(sw__json_member(root, "a")), 2);
    SW_CHECK(sw__json_member(root, "A") == NULL); /* case-sensitive */
    sw__json_delete(root);
    SW_CHECK(sw__json_parse(J, "{\"a\": [1, 2}", &at) == NULL);
    SW_CHECK_EQ_INT(at, 11); /* the '}' where ']' or ',' belongs */
    SW_CHECK(sw__json_parse(J, "{} {}", &at) == NULL); /* only white space may follow */
    SW_CHECK_EQ_INT(at, 3);
    root = sw__json_parse(J, "  {}\n\t ", &at);
    SW_CHECK(root != NULL);
    sw__json_delete(root);
    SW_CHECK(sw__json_parse(J, NULL, &at) == NULL);
}

static void test_path(void) {
    sw__json J;
    sw__json_begin(&J, "f", "test", NULL, NULL);
    SW_CHECK(message_is(J.path, ""));
    size_t a = sw__json_push(&J, "extensions"); /* no leading dot at the start */
    size_t b = sw__json_push(&J, "VRM");
    size_t c = sw__json_push_index(&J, 12);
    sw__json_push(&J, "x");
    SW_CHECK(message_is(J.path, "extensions.VRM[12].x"));
    sw__json_pop(&J, c);
    SW_CHECK(message_is(J.path, "extensions.VRM"));
    sw__json_pop(&J, b);
    sw__json_pop(&J, a);
    SW_CHECK(message_is(J.path, ""));

    /* Too long: the first SIZE - 4 bytes and "..."; later keys are dropped,
       and popping restores what was there before. */
    char key[300];
    memset(key, 'k', sizeof key - 1);
    key[sizeof key - 1] = '\0';
    sw__json_set_path(&J, "root");
    size_t mark = sw__json_push(&J, key);
    SW_CHECK_EQ_INT(strlen(J.path), SW__JSON_PATH_SIZE - 1);
    SW_CHECK(strncmp(J.path, "root.kkk", 8) == 0);
    SW_CHECK(strcmp(J.path + SW__JSON_PATH_SIZE - 4, "...") == 0);
    SW_CHECK_EQ_INT(J.path[SW__JSON_PATH_SIZE - 5], 'k');
    size_t inner = sw__json_push(&J, "more");
    SW_CHECK_EQ_INT(strlen(J.path), SW__JSON_PATH_SIZE - 1);
    SW_CHECK(strcmp(J.path + SW__JSON_PATH_SIZE - 4, "...") == 0);
    sw__json_pop(&J, inner);
    sw__json_pop(&J, mark);
    SW_CHECK(message_is(J.path, "root"));
}

static void test_messages(void) {
    fixture f;
    fixture_open(&f, "{}");
    /* The error: code, diag.index and one line naming file and path. */
    f.J.error_index = 7;
    SW_CHECK_EQ_INT(sw__json_fail(&f.J, "key", "bad %s\n", "value"), SW_ERR_INVALID_DATA);
    SW_CHECK(message_is(f.diag.message, "f.gltf: ext.key: bad value?"));
    SW_CHECK_EQ_INT(f.diag.index, 7);
    SW_CHECK(message_is(f.J.path, "ext")); /* left as it was */
    SW_CHECK_EQ_INT(sw__json_fail(&f.J, NULL, "at the path"), SW_ERR_INVALID_DATA);
    SW_CHECK(message_is(f.diag.message, "f.gltf: ext: at the path"));
    SW_CHECK_EQ_INT(sw__json_result(&f.J), SW_ERR_INVALID_DATA);

    /* Warnings: counted, the first kept, every line in the owner's list. */
    SW_CHECK(sw__json_warn(&f.J, "a", "one %d", 1));
    SW_CHECK(sw__json_warn(&f.J, NULL, "two"));
    SW_CHECK_EQ_INT(f.J.warning_count, 2);
    SW_CHECK(message_is(f.J.first_warning, "f.gltf: ext.a: one 1"));
    SW_CHECK_EQ_INT(f.owned.warning_count, 2);
    SW_CHECK(f.owned.warning_count == 2 && message_is(f.owned.warnings[1], "f.gltf: ext: two"));

    /* Out of memory is reported with what is read. */
    f.J.oom = true;
    SW_CHECK_EQ_INT(sw__json_result(&f.J), SW_ERR_OUT_OF_MEMORY);
    SW_CHECK(message_is(f.diag.message, "f.gltf: test: out of memory"));
    fixture_close(&f);

    /* Without a file the message starts at the path, or is the text alone. */
    sw__json J;
    sw_diag diag;
    sw__json_begin(&J, NULL, "bone map", &diag, NULL);
    sw__json_fail(&J, NULL, "just the text");
    SW_CHECK(message_is(diag.message, "just the text"));
    sw__json_fail(&J, "hips", "a key");
    SW_CHECK(message_is(diag.message, "hips: a key"));
    sw__json_warn(&J, NULL, "kept\x01");
    SW_CHECK(message_is(J.first_warning, "kept?"));
    SW_CHECK_EQ_INT(sw__json_out_of_memory(&J), SW_ERR_OUT_OF_MEMORY);
    SW_CHECK(message_is(diag.message, "bone map: out of memory"));
    /* No diag: the reader still sees its error. */
    sw__json_begin(&J, "f", "test", NULL, NULL);
    sw__json_fail(&J, NULL, "x");
    SW_CHECK_EQ_INT(sw__json_result(&J), SW_ERR_INVALID_DATA);
    SW_CHECK(message_is(J.diag->message, "f: x"));
}

static void test_numbers(void) {
    fixture f;
    fixture_open(&f, "{\"n\": 2.5, \"s\": \"2\", \"big\": 1e39, \"neg\": -0.25, \"v3\": [1, \"x\", 3], \"v2\": [1, 2],"
                     " \"hot\": [0.5, 7, -1], \"xyz\": {\"y\": 4}, \"bad\": [1]}");
    sw__json* J = &f.J;
    float x = -1.0f, v[3] = {9, 9, 9};
    SW_CHECK_EQ_INT(sw__json_float(J, f.root, "n", true, &x), SW_OK);
    SW_CHECK(x == 2.5f);
    SW_CHECK_EQ_INT(sw__json_float(J, f.root, "absent", false, &x), SW_OK); /* default kept */
    SW_CHECK(x == 2.5f);
    SW_CHECK_EQ_INT(sw__json_float(J, f.root, "absent", true, &x), SW_ERR_INVALID_DATA);
    SW_CHECK(message_is(f.diag.message, "f.gltf: ext.absent: missing"));
    SW_CHECK_EQ_INT(sw__json_float(J, f.root, "s", false, &x), SW_ERR_INVALID_DATA);
    SW_CHECK(message_is(f.diag.message, "f.gltf: ext.s: expected a number"));
    SW_CHECK_EQ_INT(sw__json_float(J, f.root, "big", false, &x), SW_ERR_INVALID_DATA);
    SW_CHECK(message_is(f.diag.message, "f.gltf: ext.big: not a finite float"));
    SW_CHECK(x == 2.5f); /* untouched by a failure */

    /* In a range: clamped with a warning at the member. */
    SW_CHECK_EQ_INT(sw__json_float_in(J, f.root, "neg", 0.0f, 1.0f, &x), SW_OK);
    SW_CHECK(x == 0.0f);
    SW_CHECK(message_is(f.J.first_warning, "f.gltf: ext.neg: -0.25 is out of range [0, 1]; clamped to 0"));
    SW_CHECK_EQ_INT(sw__json_float_in(J, f.root, "n", 0.0f, 3.0f, &x), SW_OK);
    SW_CHECK(x == 2.5f);
    SW_CHECK_EQ_INT(f.J.warning_count, 1);

    /* Fixed-length arrays: the count, then each item at its own path. */
    SW_CHECK_EQ_INT(sw__json_floats(J, f.root, "v3", 3, false, v), SW_ERR_INVALID_DATA);
    SW_CHECK(message_is(f.diag.message, "f.gltf: ext.v3[1]: expected a number"));
    SW_CHECK(v[0] == 9 && v[1] == 9 && v[2] == 9);
    SW_CHECK_EQ_INT(sw__json_floats(J, f.root, "v2", 3, false, v), SW_ERR_INVALID_DATA);
    SW_CHECK(message_is(f.diag.message, "f.gltf: ext.v2: expected an array of 3 numbers"));
    SW_CHECK_EQ_INT(sw__json_floats(J, f.root, "v2", 2, true, v), SW_OK);
    SW_CHECK(v[0] == 1 && v[1] == 2 && v[2] == 9);
    SW_CHECK_EQ_INT(sw__json_floats_in(J, f.root, "hot", 3, 0.0f, 1.0f, v), SW_OK);
    SW_CHECK(v[0] == 0.5f && v[1] == 1.0f && v[2] == 0.0f);
    SW_CHECK_EQ_INT(f.J.warning_count, 3);
    SW_CHECK(message_is(f.owned.warnings[1], "f.gltf: ext.hot[1]: 7 is out of range [0, 1]; clamped to 1"));
    SW_CHECK(message_is(f.owned.warnings[2], "f.gltf: ext.hot[2]: -1 is out of range [0, 1]; clamped to 0"));

    /* {x, y, z}: absent components 0. */
    SW_CHECK_EQ_INT(sw__json_xyz(J, f.root, "xyz", v), SW_OK);
    SW_CHECK(v[0] == 0 && v[1] == 4 && v[2] == 0);
    SW_CHECK_EQ_INT(sw__json_xyz(J, f.root, "bad", v), SW_ERR_INVALID_DATA);
    SW_CHECK(message_is(f.diag.message, "f.gltf: ext.bad: expected an object {x, y, z}"));
    SW_CHECK(message_is(f.J.path, "ext"));
    fixture_close(&f);
}

static void test_integers(void) {
    fixture f;
    fixture_open(&f, "{\"i\": -3, \"half\": 1.5, \"huge\": 1e16, \"node\": 7, \"ok\": 2, \"s\": \"1\"}");
    sw__json* J = &f.J;
    int64_t i = 0;
    bool present = true;
    SW_CHECK_EQ_INT(sw__json_integer(J, f.root, "i", true, &present, &i), SW_OK);
    SW_CHECK(present && i == -3);
    SW_CHECK_EQ_INT(sw__json_integer(J, f.root, "absent", false, &present, &i), SW_OK);
    SW_CHECK(!present && i == -3);
    SW_CHECK_EQ_INT(sw__json_integer(J, f.root, "half", false, NULL, &i), SW_ERR_INVALID_DATA);
    SW_CHECK(message_is(f.diag.message, "f.gltf: ext.half: expected an integer"));
    SW_CHECK_EQ_INT(sw__json_index(J, f.root, "huge", false, NULL, &i), SW_ERR_INVALID_DATA); /* past ±9e15 */
    SW_CHECK(message_is(f.diag.message, "f.gltf: ext.huge: expected an integer index"));

    /* Bounded indices: the range message says what the model has. */
    uint32_t u = 0;
    SW_CHECK_EQ_INT(sw__json_index_below(J, f.root, "ok", 3, "nodes", &u), SW_OK);
    SW_CHECK_EQ_INT(u, 2);
    SW_CHECK_EQ_INT(sw__json_index_below(J, f.root, "node", 3, "nodes", &u), SW_ERR_INVALID_DATA);
    SW_CHECK(message_is(f.diag.message, "f.gltf: ext.node: 7 is out of range (the model has 3 nodes)"));
    SW_CHECK_EQ_INT(sw__json_index_below(J, f.root, "i", 3, "nodes", &u), SW_ERR_INVALID_DATA);
    SW_CHECK(message_is(f.diag.message, "f.gltf: ext.i: -3 is out of range (the model has 3 nodes)"));
    SW_CHECK_EQ_INT(sw__json_index_below(J, f.root, "huge", 3, "nodes", &u), SW_ERR_INVALID_DATA);
    SW_CHECK(message_is(f.diag.message, "f.gltf: ext.huge: 10000000000000000 is out of range (the model has 3 nodes)"));
    SW_CHECK_EQ_INT(sw__json_index_below(J, f.root, "s", 3, "nodes", &u), SW_ERR_INVALID_DATA);
    SW_CHECK(message_is(f.diag.message, "f.gltf: ext.s: expected an integer index"));
    SW_CHECK_EQ_INT(sw__json_index_below(J, f.root, "absent", 3, "nodes", &u), SW_ERR_INVALID_DATA);
    SW_CHECK(message_is(f.diag.message, "f.gltf: ext.absent: missing"));
    SW_CHECK_EQ_INT(u, 2);
    fixture_close(&f);
}

/* cJSON reads 1e400 (past the largest double) as infinity: every number
   getter says it is out of range, not that it is no number or no integer. */
static void test_beyond_double(void) {
    fixture f;
    fixture_open(&f, "{\"up\": 1e400, \"down\": -1e400, \"v\": [1, 1e999]}");
    sw__json* J = &f.J;
    static const char* const beyond = "the number is out of range (beyond ±1.8e308, the largest a double holds)";
    char want[160];
    float x = 7.0f, v[2] = {9, 9};
    int64_t i = 5;
    uint32_t u = 3;
    SW_CHECK_EQ_INT(sw__json_float(J, f.root, "up", true, &x), SW_ERR_INVALID_DATA);
    snprintf(want, sizeof want, "f.gltf: ext.up: %s", beyond);
    SW_CHECK(message_is(f.diag.message, want));
    SW_CHECK_EQ_INT(sw__json_float(J, f.root, "down", true, &x), SW_ERR_INVALID_DATA);
    snprintf(want, sizeof want, "f.gltf: ext.down: %s", beyond);
    SW_CHECK(message_is(f.diag.message, want));
    SW_CHECK(x == 7.0f);
    SW_CHECK_EQ_INT(sw__json_floats(J, f.root, "v", 2, true, v), SW_ERR_INVALID_DATA);
    snprintf(want, sizeof want, "f.gltf: ext.v[1]: %s", beyond);
    SW_CHECK(message_is(f.diag.message, want));
    SW_CHECK_EQ_INT(sw__json_integer(J, f.root, "up", true, NULL, &i), SW_ERR_INVALID_DATA);
    snprintf(want, sizeof want, "f.gltf: ext.up: %s", beyond);
    SW_CHECK(message_is(f.diag.message, want));
    SW_CHECK_EQ_INT(sw__json_index(J, f.root, "down", true, NULL, &i), SW_ERR_INVALID_DATA);
    snprintf(want, sizeof want, "f.gltf: ext.down: %s", beyond);
    SW_CHECK(message_is(f.diag.message, want));
    SW_CHECK_EQ_INT(sw__json_index_below(J, f.root, "up", 3, "nodes", &u), SW_ERR_INVALID_DATA);
    snprintf(want, sizeof want, "f.gltf: ext.up: %s", beyond);
    SW_CHECK(message_is(f.diag.message, want));
    SW_CHECK(i == 5 && u == 3); /* untouched by a failure */
    fixture_close(&f);
}

static void test_kinds(void) {
    fixture f;
    fixture_open(&f, "{\"o\": {}, \"a\": [], \"s\": \"text\", \"b\": true, \"n\": null, \"e\": \"blend\","
                     " \"u\": \"zz\"}");
    sw__json* J = &f.J;
    const cJSON* node = NULL;
    const char* s = NULL;
    bool b = false;
    SW_CHECK(sw__json_object(J, f.root, "o", true, &node) == SW_OK && node);
    SW_CHECK(sw__json_object(J, f.root, "absent", false, &node) == SW_OK && !node);
    SW_CHECK_EQ_INT(sw__json_object(J, f.root, "a", false, &node), SW_ERR_INVALID_DATA);
    SW_CHECK(message_is(f.diag.message, "f.gltf: ext.a: expected an object"));
    SW_CHECK(sw__json_array(J, f.root, "a", true, &node) == SW_OK && node);
    SW_CHECK_EQ_INT(sw__json_array(J, f.root, "o", false, &node), SW_ERR_INVALID_DATA);
    SW_CHECK(message_is(f.diag.message, "f.gltf: ext.o: expected an array"));
    SW_CHECK(sw__json_string(J, f.root, "s", true, &s) == SW_OK && s && strcmp(s, "text") == 0);
    SW_CHECK_EQ_INT(sw__json_string(J, f.root, "n", false, &s), SW_ERR_INVALID_DATA);
    SW_CHECK(message_is(f.diag.message, "f.gltf: ext.n: expected a string"));
    SW_CHECK(sw__json_bool(J, f.root, "b", &b) == SW_OK && b);
    SW_CHECK_EQ_INT(sw__json_bool(J, f.root, "s", &b), SW_ERR_INVALID_DATA);
    SW_CHECK(message_is(f.diag.message, "f.gltf: ext.s: expected true or false"));
    SW_CHECK(sw__json_is_null(sw__json_member(f.root, "n")));
    SW_CHECK(sw__json_text(sw__json_member(f.root, "b")) == NULL);

    /* Enums: a known name gives its index, an unknown one warns and keeps the default. */
    static const char* const names[] = {"none", "block", "blend"};
    int value = 0;
    SW_CHECK(sw__json_enum(J, f.root, "e", names, 3, &value) == SW_OK && value == 2);
    value = 1;
    SW_CHECK(sw__json_enum(J, f.root, "u", names, 3, &value) == SW_OK && value == 1);
    SW_CHECK(message_is(f.J.first_warning, "f.gltf: ext.u: unknown value \"zz\"; block used"));
    SW_CHECK_EQ_INT(sw__json_enum(J, f.root, "b", names, 3, &value), SW_ERR_INVALID_DATA);
    SW_CHECK(message_is(f.diag.message, "f.gltf: ext.b: expected a string"));
    fixture_close(&f);
}

/* Loops put each item's place in the path, and end where they began. */
static void test_iteration(void) {
    fixture f;
    fixture_open(&f, "{\"list\": [{\"k\": 1}, {\"k\": 2}, {\"k\": \"three\"}], \"map\": {\"a\": 1, \"b\": 2}}");
    sw__json* J = &f.J;
    const cJSON *list, *map;
    SW_CHECK(sw__json_array(J, f.root, "list", true, &list) == SW_OK);
    SW_CHECK(sw__json_object(J, f.root, "map", true, &map) == SW_OK);
    size_t mark = sw__json_push(J, "list"), seen = 0;
    float sum = 0.0f;
    sw_result r = SW_OK;
    for (sw__json_each it = sw__json_each_of(J, list); r == SW_OK && sw__json_next(J, &it); seen++) {
        float k = 0.0f;
        SW_CHECK_EQ_INT(it.index, seen);
        r = sw__json_float(J, it.value, "k", true, &k);
        sum += k;
    }
    SW_CHECK_EQ_INT(r, SW_ERR_INVALID_DATA);
    SW_CHECK(message_is(f.diag.message, "f.gltf: ext.list[2].k: expected a number"));
    SW_CHECK(sum == 3.0f);
    sw__json_pop(J, mark);
    char keys[8] = "";
    mark = sw__json_push(J, "map");
    for (sw__json_each it = sw__json_each_of(J, map); sw__json_next(J, &it);) {
        strcat(keys, it.key);
        if (it.index == 1) sw__json_warn(J, NULL, "member %zu", it.index);
    }
    SW_CHECK(message_is(keys, "ab"));
    SW_CHECK(message_is(f.J.first_warning, "f.gltf: ext.map.b: member 1"));
    SW_CHECK(message_is(J->path, "ext.map")); /* the loop's end restores the path */
    sw__json_pop(J, mark);
    /* Scalars and absent containers have no items. */
    sw__json_each none = sw__json_each_of(J, NULL);
    SW_CHECK(!sw__json_next(J, &none));
    fixture_close(&f);
}

/* Blocks and copies belong to the owner and go with it (ASan checks). */
static void test_memory(void) {
    fixture f;
    fixture_open(&f, "{}");
    for (int i = 0; i < 100; i++) {
        int* p = sw__json_alloc(&f.J, 10, sizeof *p);
        SW_CHECK(p && p[9] == 0);
    }
    const char* copy = sw__json_copy(&f.J, "name");
    SW_CHECK(copy && strcmp(copy, "name") == 0);
    SW_CHECK_EQ_INT(f.owned.block_count, 101);
    SW_CHECK(sw__json_alloc(&f.J, SIZE_MAX, 2) == NULL && f.J.oom); /* count × size overflows */
    fixture_close(&f);
    SW_CHECK_EQ_INT(f.owned.block_count, 0);
}

int main(void) {
    SW_RUN(test_parse);
    SW_RUN(test_path);
    SW_RUN(test_messages);
    SW_RUN(test_numbers);
    SW_RUN(test_integers);
    SW_RUN(test_beyond_double);
    SW_RUN(test_kinds);
    SW_RUN(test_iteration);
    SW_RUN(test_memory);
    return sw_test_finish();
}
