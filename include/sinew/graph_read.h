/* sinew/graph_read.h — animation graphs from JSON (sinew-import; the
   format is docs/graph.md, its schema docs/graph.schema.json).

       sw_graph_file* file = NULL;
       if (sw_graph_read(text, size, "walk.graph.json", model, &humanoid, &file, &diag) != SW_OK)
           fprintf(stderr, "%s\n", diag.message);   // "walk.graph.json: transitions[0].when: column 7: ..."
       sw_graph_memory_size(&file->graph, model);   // then sw_graph_bind (sinew/graph.h)
       sw_graph_file_free(file);                     // after the instances bound to it are done

   Names are resolved against `model` at read time: clips against its
   animations (file->graph.clips are pointers into model->animations, so
   the model must outlive the file), mask joints against its node names,
   then against humanoid bone names through `humanoid` (may be NULL); so is
   the root-motion joint, whose parent space is the model's rest pose. An
   "ik" node's rig (sw_fbik_rig_build) is built on `humanoid`, which it
   then needs, in memory the file owns.
   Conditions ("when") are parsed by a recursive-descent parser:

       expr  := or;  or := and ("or" and)*;  and := unary ("and" unary)*
       unary := "not" unary | "(" expr ")" | NAME [op NUMBER]
       op    := < <= > >= == !=       (NUMBER: a number, true or false)

   so "not" binds tightest, then comparisons, then "and", then "or";
   `&&`, `||` and `!` are accepted for and, or, not. A bare NAME is "NAME
   is not 0" (a bool or trigger that is set).

   Errors: SW_ERR_INVALID_DATA with one line "name: json.path: problem"
   (an expression's problem names the 1-based column); *out stays NULL.
   Out of memory: SW_ERR_OUT_OF_MEMORY. Thread-safe; no state kept. */
#ifndef SINEW_GRAPH_READ_H
#define SINEW_GRAPH_READ_H

#include "sinew/base.h"
#include "sinew/graph.h"
#include "sinew/humanoid.h"
#include "sinew/model.h"

SW_EXTERN_C_BEGIN

/* A graph read from a file: `graph` is ready for sw_graph_bind with the
   model it was read against; everything it points to lives in the file. */
typedef struct sw_graph_file {
    sw_graph graph;
    size_t state_count; /* states of every machine, for tools */
} sw_graph_file;

sw_result sw_graph_read(const char* json, size_t size, const char* name, const sw_model* model,
                        const sw_humanoid_map* humanoid, sw_graph_file** out, sw_diag* diag);
/* NULL is allowed. */
void sw_graph_file_free(sw_graph_file* file);

SW_EXTERN_C_END

#endif
