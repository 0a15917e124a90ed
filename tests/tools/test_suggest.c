/* The names the command line suggests for a misspelt one
   (tools/tool_common.c: tool_name_distance, tool_suggest_*): edit
   distances worked out by hand, the cut-off (a third of the name, dashes
   not counted, plus one), the order and ties, names in another case, and
   the sentence. */
#include "harness.h"

#include "tool_common.h"

#include <string.h>

static size_t distance(const char* a, const char* b) {
    return tool_name_distance(a, strlen(a), b, strlen(b), 100);
}

static void test_distance(void) {
    SW_CHECK_EQ_INT(distance("", ""), 0);
    SW_CHECK_EQ_INT(distance("", "abc"), 3);              /* three insertions */
    SW_CHECK_EQ_INT(distance("walk", "Walk"), 0);         /* case is not a difference */
    SW_CHECK_EQ_INT(distance("robot_walking", "Robot_Walking"), 0);
    SW_CHECK_EQ_INT(distance("rendr", "render"), 1);      /* insert 'e' */
    SW_CHECK_EQ_INT(distance("--styel", "--style"), 2);   /* e->l, l->e: no transpositions */
    SW_CHECK_EQ_INT(distance("kitten", "sitting"), 3);    /* k->s, e->i, +g */
    SW_CHECK_EQ_INT(distance("flaw", "lawn"), 2);         /* -f, +n */
    SW_CHECK_EQ_INT(distance("hapy", "happy"), 1);
    SW_CHECK_EQ_INT(distance("leftHnd", "leftHand"), 1);
    SW_CHECK_EQ_INT(distance("--styel", "--stats"), 3);   /* e->a, l->t, y... : s-t-y-e-l / s-t-a-t-s */
    /* past the limit it stops, saying limit + 1 */
    SW_CHECK_EQ_INT(tool_name_distance("kitten", 6, "sitting", 7, 1), 2);
    SW_CHECK_EQ_INT(tool_name_distance("a", 1, "abcdefgh", 8, 3), 4); /* the lengths alone */
    /* names are compared on their first TOOL_NAME_MAX bytes */
    char long_a[200], long_b[200];
    memset(long_a, 'x', 199), long_a[199] = 0;
    memset(long_b, 'x', 199), long_b[199] = 0;
    long_b[150] = 'y';
    SW_CHECK_EQ_INT(distance(long_a, long_b), 0);
}

static const char* suggest(const char* given, const char* const* names, size_t count, char* out, size_t size) {
    tool_suggest s;
    tool_suggest_init(&s, given);
    for (size_t i = 0; i < count; i++) tool_suggest_add(&s, names[i], names[i] ? strlen(names[i]) : 0);
    return tool_suggest_text(&s, out, size);
}

static void test_suggest(void) {
    char out[200];
    static const char* const commands[] = {"info", "check", "export", "bench", "retention", "render", "demo-asset",
                                           "bake", "view"};
    SW_CHECK(strcmp(suggest("rendr", commands, 9, out, sizeof out), "did you mean 'render'?") == 0);
    /* "frobnicate" is near nothing */
    SW_CHECK(strcmp(suggest("frobnicate", commands, 9, out, sizeof out), "") == 0);
    /* the limit: "--styel" counts 5 letters, 5 / 3 + 1 = 2; "--stats" (3) is too far */
    static const char* const options[] = {"--stats", "--sync", "--style", "--size"};
    SW_CHECK(strcmp(suggest("--styel", options, 4, out, sizeof out), "did you mean '--style'?") == 0);
    /* a name in another case is the only one said, though "Robot_Walk" is near too */
    static const char* const clips[] = {"Robot_Walk", "Robot_Walking", "Robot_Running"};
    SW_CHECK(strcmp(suggest("robot_walking", clips, 3, out, sizeof out), "did you mean 'Robot_Walking'?") == 0);
    /* ties: all at the nearest distance, in the order given */
    static const char* const nodes[] = {"hand_r", "hand_l", "foot_l", NULL};
    SW_CHECK(strcmp(suggest("hand_x", nodes, 4, out, sizeof out), "did you mean 'hand_r' or 'hand_l'?") == 0);
    static const char* const three[] = {"ab", "ac", "ad", "ae"};
    SW_CHECK(strcmp(suggest("aa", three, 4, out, sizeof out), "did you mean 'ab', 'ac' or 'ad'?") == 0);
    /* a nearer name found later takes the first place */
    static const char* const later[] = {"leftHandXY", "leftHand"}; /* 3, then 1 */
    SW_CHECK(strcmp(suggest("leftHnd", later, 2, out, sizeof out), "did you mean 'leftHand'?") == 0);
    /* the same name in another case is said once (the first given) */
    static const char* const twice[] = {"LeftHand", "leftHand"};
    SW_CHECK(strcmp(suggest("leftHnd", twice, 2, out, sizeof out), "did you mean 'LeftHand'?") == 0);
    /* a short buffer gets what fits, never half a name */
    SW_CHECK(strcmp(suggest("rendr", commands, 9, out, 10), "") == 0);
}

int main(void) {
    SW_RUN(test_distance);
    SW_RUN(test_suggest);
    return sw_test_finish();
}
