/* Check a glTF asset from code: what `sinew check` reports, as data
   (sinew/check.h). The importer is asked to keep the raw influences, every
   skin is posed at rest and over every animation, and each finding comes
   back as a struct: a stable id, a severity, where, how many, the worst.

     check_asset MODEL [MAX_INFLUENCES]

   Build against the installed package:
     cc check_asset.c $(pkg-config --cflags --libs sinew) -o check_asset

   Prints one line per finding ("error: mesh 0 primitive 0: ... [weights_negative]")
   then "MODEL: E errors, W warnings, N notes". Exits with 1 when the report
   has errors, 0 when it has none, 2 when the check itself could not run. */
#include "sinew/check.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: check_asset MODEL [MAX_INFLUENCES]\n");
        return 2;
    }

    /* Zero means default for every option: 4 influences, retention 0.7,
       animations sampled at 30 Hz and at every key. */
    sw_check_options options = {.max_influences = argc > 2 ? atoi(argv[2]) : 0};

    /* One call loads (keep_raw_influences forced on) and checks. A file the
       importer refuses is a finding ("load"), not a failure; failures are
       bad options, out of memory, or a clip that cannot be sampled. */
    sw_check_report* report = NULL;
    sw_diag diag;
    if (sw_check_file(argv[1], NULL, &options, &report, &diag) != SW_OK) {
        fprintf(stderr, "%s: %s\n", argv[1], diag.message);
        return 2;
    }

    /* Findings come in a fixed order, so the same file prints the same lines. */
    for (size_t i = 0; i < report->finding_count; i++) {
        const sw_check_finding* f = &report->findings[i];
        printf("%s: %s [%s]\n", sw_check_severity_str(f->severity), f->message, f->id);
        /* The measured codes also say where in time it was worst: the rest
           pose, then each animation (report->animation_names). */
        if (f->poses)
            for (size_t a = 0; a < report->animation_count; a++) {
                const sw_check_pose_stat* s = &f->poses[1 + a];
                if (s->count == 0) continue;
                const char* name = report->animation_names[a];
                printf("    animation %zu \"%s\": %zu flagged, worst %.4g at %.3f s\n", a, name ? name : "", s->count,
                       s->value, s->time_s);
            }
    }
    printf("%s: %zu errors, %zu warnings, %zu notes\n", argv[1], report->error_count, report->warning_count,
           report->note_count);

    int status = report->error_count > 0 ? 1 : 0;
    sw_check_report_free(report); /* the report owns everything it points to */
    return status;
}
