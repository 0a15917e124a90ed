/* sinew — real-time character animation: the whole public API.
   Each module's header opens with its own manual. */
#ifndef SINEW_SINEW_H
#define SINEW_SINEW_H

#include "sinew/base.h"
#include "sinew/math.h"
#include "sinew/anim.h"
#include "sinew/skin.h"
#include "sinew/model.h"
#include "sinew/pose.h"
#include "sinew/gltf.h"
#include "sinew/demo.h"

#endif
