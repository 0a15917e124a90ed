/* What the GPU-driven crowd (gpu_crowd.c) needs of the skinner's objects
   (gpu_skin.c) beyond sinew/gpu.h: a palette's matrix buffer, which the
   crowd's compute passes write, and skinning dispatched indirectly over a
   list of instances. Internal to sinew-render. */
#ifndef SW_GPU_INTERNAL_H
#define SW_GPU_INTERNAL_H

#include "sinew/gpu.h"

/* The palette's LBS matrix buffer (3 vec4 rows per joint, instance after
   instance), for a compute pass to write; marks the palette as holding
   matrices and bumps its revision, as an upload would. */
uint32_t sw__gpu_palette_matrix_buffer(sw_gpu_palette* palette);
/* The same buffer, for reading back: nothing is marked. */
uint32_t sw__gpu_palette_matrix_name(const sw_gpu_palette* palette);

/* LBS skinning of the instances listed in `list_buffer` from entry
   `list_offset` on, as many as the indirect dispatch at `args_offset` of
   `args_buffer` has rows of work groups (its x: the mesh's vertices in
   groups of SW_SKIN_GROUP_SIZE; its y: the listed count, which the GPU
   writes). Always dispatches (no skin cache), writes the current output
   buffers in place (no previous positions: nothing here draws motion). */
sw_result sw__gpu_skin_listed(sw_gpu_skinner* skinner, sw_gpu_instance* instance, const sw_gpu_palette* palette,
                              uint32_t list_buffer, uint32_t list_offset, uint32_t args_buffer, size_t args_offset,
                              sw_diag* diag);

/* Work groups along x the skinner's GPU allows in one dispatch. */
size_t sw__gpu_max_groups_x(const sw_gpu_skinner* skinner);

#endif
