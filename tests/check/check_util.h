/* Helpers shared by the check API tests: the data folder, loading, and
   finding look-ups. Each failure is a failed SW_CHECK with a line saying
   why, and the helper returns NULL. */
#ifndef SINEW_TEST_CHECK_UTIL_H
#define SINEW_TEST_CHECK_UTIL_H

#include <stdio.h>

#include "harness.h"
#include "sinew/check.h"
#include "sinew/gltf.h"

/* tests/data/check/<file> (SW_TEST_DATA_DIR is set by tests/CMakeLists.txt). */
static inline void check_data_path(char* out, size_t size, const char* file) {
    snprintf(out, size, "%s/check/%s", SW_TEST_DATA_DIR, file);
}

/* The importer on tests/data/check/<file>, raw influences kept or not. */
static inline sw_model* check_load(const char* file, bool raw) {
    char path[1200];
    check_data_path(path, sizeof path, file);
    sw_model* model = NULL;
    sw_diag diag;
    sw_gltf_options options = {.keep_raw_influences = raw};
    if (sw_gltf_load_file(path, &options, &model, &diag) != SW_OK) fprintf(stderr, "  %s\n", diag.message);
    SW_CHECK(model);
    return model;
}

/* sw_check_model on a model. */
static inline sw_check_report* check_model(const sw_model* model, const sw_check_options* options) {
    sw_check_report* report = NULL;
    sw_diag diag;
    sw_result r = sw_check_model(model, options, &report, &diag);
    if (r != SW_OK) fprintf(stderr, "  check: %s\n", diag.message);
    SW_CHECK(r == SW_OK && report);
    return report;
}

/* sw_check_file on tests/data/check/<file>. */
static inline sw_check_report* check_file(const char* file, const sw_check_options* options) {
    char path[1200];
    check_data_path(path, sizeof path, file);
    sw_check_report* report = NULL;
    sw_diag diag;
    sw_result r = sw_check_file(path, NULL, options, &report, &diag);
    if (r != SW_OK) fprintf(stderr, "  %s: %s\n", path, diag.message);
    SW_CHECK(r == SW_OK && report);
    return report;
}

static inline size_t count_code(const sw_check_report* r, sw_check_code code) {
    size_t n = 0;
    for (size_t i = 0; i < r->finding_count; i++) n += r->findings[i].code == code;
    return n;
}

/* The only finding with `code`, or NULL when there is not exactly one. */
static inline const sw_check_finding* only(const sw_check_report* r, sw_check_code code) {
    const sw_check_finding* found = NULL;
    size_t n = 0;
    for (size_t i = 0; i < r->finding_count; i++)
        if (r->findings[i].code == code) found = &r->findings[i], n++;
    if (n != 1) fprintf(stderr, "  %zu findings %s, one expected\n", n, sw_check_code_str(code));
    SW_CHECK(n == 1);
    return n == 1 ? found : NULL;
}

#endif
