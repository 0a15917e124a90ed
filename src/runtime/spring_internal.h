/* spring_internal.h — what the spring-bone runtime (spring.c) and its VRM
   readers (spring_vrm.c) share: rest-pose geometry of a model's nodes, so
   that the readers drop exactly what sw_spring_sizes_of would refuse. Not
   a public header. */
#ifndef SINEW_ANIM_SPRING_INTERNAL_H
#define SINEW_ANIM_SPRING_INTERNAL_H

#include "sinew/spring.h"

/* The node's world matrix in the model's rest pose. */
sw_mat34 sw__spring_rest_world(const sw_model* model, uint32_t node);

/* Is `ancestor` a strict ancestor of `node`? */
bool sw__spring_is_ancestor(const sw_model* model, uint32_t ancestor, uint32_t node);

/* The position of node `tail` (a descendant of `head`) in head's space, at rest. */
sw_vec3 sw__spring_tail_local_of_node(const sw_model* model, uint32_t head, uint32_t tail);

/* The virtual tail of `head` in its own space: `length` beyond it along
   parent→head at rest. SW_ERR_INVALID_DATA and *out_problem (a phrase) when
   there is no direction (a root, or a head at its parent's place) or the
   head's rest matrix is singular. */
sw_result sw__spring_virtual_tail(const sw_model* model, uint32_t head, float length, sw_vec3* out_tail_local,
                                  const char** out_problem);

/* Does the bone from `head` to tail_local (head space) have a length at rest? */
bool sw__spring_bone_has_length(const sw_model* model, uint32_t head, sw_vec3 tail_local);

#endif
