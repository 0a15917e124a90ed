/* bake_probes.h — `sinew bake probes` (docs/probes.md)
   (render/view --probes read the file: scene_options.c). */
#ifndef SINEW_TOOLS_BAKE_PROBES_H
#define SINEW_TOOLS_BAKE_PROBES_H

#include <stddef.h>

#include "tool_common.h"

#include "sinew/render.h"

/* sinew bake probes STAGE ... (after the kind). */
int bake_probes(tool_args* args);

#endif
