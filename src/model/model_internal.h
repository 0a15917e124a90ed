/* model_internal.h — how a model owns its memory, shared by the model
   module and the importers that build models. Not a public header.

   A model lives in an arena: a list of malloc'd blocks, freed together by
   sw_model_free. An importer allocates an sw__model_owner, fills `model`
   with arrays carved from `arena`, and hands out &owner->model. */
#ifndef SINEW_MODEL_INTERNAL_H
#define SINEW_MODEL_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "sinew/model.h"

typedef struct sw__block {
    struct sw__block* next;
    size_t size, used;
    max_align_t data[];
} sw__block;

typedef struct sw__arena {
    sw__block* head;
} sw__arena;

/* What sw_model_free receives: the model first, then what owns its memory. */
typedef struct sw__model_owner {
    sw_model model;
    sw__arena arena;
} sw__model_owner;

/* The rest pose of a model whose nodes and meshes are filled: each node's
   TRS (identity for matrix nodes) and its default morph weights (the
   node's own, else the mesh's, else 0). Importers store it in the model
   (rest_local, rest_weights) so that a pose starts from two copies. */
void sw__model_rest_pose(const sw_model* model, sw_transform* out_local, float* out_weights);

/* How well node name `node` matches `name` (sw_model_find_node_by_name's
   rule, which retargeting shares): 0 exact, 1 case-insensitive, 2 without
   namespace prefixes ("mixamorig:Hips", "Armature|Hips"), 3 not at all. */
int sw__node_name_level(const char* node, const char* name);
/* Whether `node` is a joint of one of the model's skins. */
bool sw__model_is_skin_joint(const sw_model* model, size_t node);

/* Frees every block of an arena and leaves it empty. */
void sw__arena_free(sw__arena* arena);

/* Zeroed, 16-byte aligned memory from an arena, in blocks of 64 KiB (a
   larger request gets a block of its own); NULL when out of memory. The
   IQM and Assimp importers build their models with it (the glTF importer
   has its own, which charges a memory budget). */
void* sw__arena_take(sw__arena* arena, size_t size);
/* count × size bytes; NULL also when the product overflows. */
void* sw__arena_take_array(sw__arena* arena, size_t count, size_t size);

#endif
