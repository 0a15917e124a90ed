/* Skeleton validation and import-time joint ordering (see sinew/anim.h). */
#include "sinew/anim.h"

#include <string.h>

static bool sw__finite3(sw_vec3 v) { return isfinite(v.x) && isfinite(v.y) && isfinite(v.z); }

sw_result sw_skeleton_validate(const sw_skeleton* skeleton, sw_diag* diag) {
    if (!skeleton || !skeleton->parents)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "skeleton has no parent array");
    if (skeleton->joint_count == 0 || skeleton->joint_count > SW_MAX_JOINTS)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "skeleton has %zu joints (allowed 1..%d)",
                           skeleton->joint_count, SW_MAX_JOINTS);
    for (size_t i = 0; i < skeleton->joint_count; i++) {
        int parent = skeleton->parents[i];
        if (parent < SW_NO_PARENT || parent >= (int)i)
            return sw_diag_set(diag, SW_ERR_JOINT_ORDER, (int64_t)i,
                               "joint %zu has parent %d; parents must come before their children", i, parent);
        if (skeleton->rest_pose) {
            const sw_transform* t = &skeleton->rest_pose[i];
            sw_quat q = t->rotation;
            if (!sw__finite3(t->translation) || !sw__finite3(t->scale) || !isfinite(q.x) || !isfinite(q.y) ||
                !isfinite(q.z) || !isfinite(q.w))
                return sw_diag_set(diag, SW_ERR_INVALID_DATA, (int64_t)i, "joint %zu rest pose is not finite", i);
            float len = sqrtf(sw_quat_dot(q, q));
            if (fabsf(len - 1.0f) > 1e-3f)
                return sw_diag_set(diag, SW_ERR_INVALID_DATA, (int64_t)i,
                                   "joint %zu rest rotation has length %g (must be unit)", i, (double)len);
        }
    }
    return SW_OK;
}

int sw_skeleton_find(const sw_skeleton* skeleton, const char* name) {
    if (!skeleton->names || !name) return -1;
    for (size_t i = 0; i < skeleton->joint_count; i++)
        if (skeleton->names[i] && strcmp(skeleton->names[i], name) == 0) return (int)i;
    return -1;
}

/* The order is Kahn's algorithm that always emits the lowest-index joint
   whose parent is already out: the smallest parents-first order, so input
   that is already parents-first comes out unchanged and roots and siblings
   keep their input order. Ready joints wait in a min-heap stored in the
   unused tail of out_order (emitted + waiting ≤ joint_count), growing
   towards the front: heap slot i is out_order[joint_count − 1 − i]. */

#define SW__NONE 0x7fffffffu
#define SW__EMITTED 0x80000000u

static uint32_t* sw__heap_slot(uint32_t* out_order, size_t joint_count, size_t i) {
    return &out_order[joint_count - 1 - i];
}

static void sw__heap_push(uint32_t* out_order, size_t joint_count, size_t* size, uint32_t joint) {
    size_t i = (*size)++;
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        uint32_t above = *sw__heap_slot(out_order, joint_count, parent);
        if (above <= joint) break;
        *sw__heap_slot(out_order, joint_count, i) = above;
        i = parent;
    }
    *sw__heap_slot(out_order, joint_count, i) = joint;
}

static uint32_t sw__heap_pop(uint32_t* out_order, size_t joint_count, size_t* size) {
    uint32_t top = *sw__heap_slot(out_order, joint_count, 0);
    uint32_t last = *sw__heap_slot(out_order, joint_count, --*size);
    size_t i = 0;
    for (;;) {
        size_t child = 2 * i + 1;
        if (child >= *size) break;
        uint32_t smaller = *sw__heap_slot(out_order, joint_count, child);
        if (child + 1 < *size && *sw__heap_slot(out_order, joint_count, child + 1) < smaller)
            smaller = *sw__heap_slot(out_order, joint_count, ++child);
        if (last <= smaller) break;
        *sw__heap_slot(out_order, joint_count, i) = smaller;
        i = child;
    }
    if (*size > 0) *sw__heap_slot(out_order, joint_count, i) = last;
    return top;
}

sw_result sw_joint_order_parents_first(uint32_t* out_order, const int32_t* parents, size_t joint_count,
                                       uint32_t* scratch, sw_diag* diag) {
    if (joint_count > SW_MAX_ORDER_JOINTS)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "%zu joints (at most %ld)", joint_count,
                           (long)SW_MAX_ORDER_JOINTS);
    for (size_t i = 0; i < joint_count; i++)
        if (parents[i] < -1 || parents[i] >= (int64_t)joint_count)
            return sw_diag_set(diag, SW_ERR_INDEX_OUT_OF_RANGE, (int64_t)i, "joint %zu has parent %d, outside -1..%zu",
                               i, (int)parents[i], joint_count - 1);

    /* Children as linked lists in ascending order: first_child, then next_sibling. */
    uint32_t* first_child = scratch;
    uint32_t* next_sibling = scratch + joint_count;
    for (size_t i = 0; i < joint_count; i++) first_child[i] = SW__NONE;
    size_t waiting = 0;
    for (size_t k = joint_count; k-- > 0;) {
        if (parents[k] < 0) continue;
        next_sibling[k] = first_child[parents[k]];
        first_child[parents[k]] = (uint32_t)k;
    }
    for (size_t i = 0; i < joint_count; i++)
        if (parents[i] < 0) sw__heap_push(out_order, joint_count, &waiting, (uint32_t)i);

    size_t emitted = 0;
    while (waiting > 0) {
        uint32_t joint = sw__heap_pop(out_order, joint_count, &waiting);
        out_order[emitted++] = joint;
        for (uint32_t c = first_child[joint]; c != SW__NONE; c = next_sibling[c])
            sw__heap_push(out_order, joint_count, &waiting, (uint32_t)c);
        first_child[joint] |= SW__EMITTED;
    }
    if (emitted == joint_count) return SW_OK;

    /* What never became ready hangs below a cycle; walking up from it
       joint_count times lands on the cycle itself. */
    size_t stuck = 0;
    while (first_child[stuck] & SW__EMITTED) stuck++;
    for (size_t step = 0; step < joint_count; step++) stuck = (size_t)parents[stuck];
    return sw_diag_set(diag, SW_ERR_CYCLE, (int64_t)stuck, "joint %zu is its own ancestor", stuck);
}
