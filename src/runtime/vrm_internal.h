/* vrm_internal.h — the VRM expression rule the reader shares with the
   runtime (src/runtime/vrm.c). Not a public header. */
#ifndef SINEW_VRM_INTERNAL_H
#define SINEW_VRM_INTERNAL_H

#include "sinew/vrm.h"

/* The procedural kind a preset belongs to: 0 mouth (aa … oh), 1 blink,
   2 lookAt, -1 none. An expression's override of a kind acts on the
   expressions of that kind. */
int sw__vrm_kind(sw_vrm_preset preset);

#endif
