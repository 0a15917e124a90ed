/* sinew — real-time character animation: the core's public API (the demo
   character, GPU skinning and the renderer have headers and libraries of
   their own: demo.h, gpu.h, render.h). Each module's header opens with its
   own manual. */
#ifndef SINEW_SINEW_H
#define SINEW_SINEW_H

#include "sinew/base.h"
#include "sinew/math.h"
#include "sinew/anim.h"
#include "sinew/skin.h"
#include "sinew/model.h"
#include "sinew/pose.h"
#include "sinew/playback.h"
#include "sinew/blend_space.h"
#include "sinew/inertialize.h"
#include "sinew/graph.h"
#include "sinew/root_motion.h"
#include "sinew/ik.h"
#include "sinew/fbik.h"
#include "sinew/spring.h"
#include "sinew/constraint.h"
#include "sinew/humanoid.h"
#include "sinew/vrm.h"
#include "sinew/vrma.h"
#include "sinew/retarget.h"
#include "sinew/crowd.h"
#include "sinew/compress.h"
#include "sinew/gltf.h"
#include "sinew/iqm.h"
#include "sinew/import.h"
#include "sinew/graph_read.h"
#include "sinew/swa.h"
#include "sinew/check.h"
#include "sinew/toon.h"

#endif
