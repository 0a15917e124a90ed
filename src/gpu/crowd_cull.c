/* The GPU-driven crowd's culling and level-of-detail test in C
   (sinew/gpu_crowd.h): the reference shaders/crowd.comp's cull stage
   follows operation for operation, tested against it. No GL. */
#include "sinew/gpu_crowd.h"

#include <math.h>

sw_gpu_crowd_view sw_gpu_crowd_view_make(const float m[16], float projection_scale, float lod_threshold) {
    sw_gpu_crowd_view v;
    /* Row r of the column-major matrix: m[r], m[4 + r], m[8 + r], m[12 + r]. */
    float rows[4][4];
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++) rows[r][c] = m[4 * c + r];
    for (int p = 0; p < 6; p++) {
        const float sign = p % 2 == 0 ? 1.0f : -1.0f; /* w + row, then w − row */
        float* plane = v.planes[p];
        for (int c = 0; c < 4; c++) plane[c] = rows[3][c] + sign * rows[p / 2][c];
        const float length = sqrtf(plane[0] * plane[0] + plane[1] * plane[1] + plane[2] * plane[2]);
        if (length > 0.0f) {
            for (int c = 0; c < 4; c++) plane[c] /= length;
        } else {
            plane[0] = plane[1] = plane[2] = 0.0f, plane[3] = 1.0f; /* an infinite far plane: always inside */
        }
    }
    for (int c = 0; c < 4; c++) v.depth_row[c] = rows[3][c];
    v.projection_scale = projection_scale;
    v.lod_threshold = lod_threshold > 0.0f ? lod_threshold : SW_GPU_CROWD_DEFAULT_LOD_THRESHOLD;
    return v;
}

int sw_gpu_crowd_classify(const sw_gpu_crowd_view* v, const float s[4]) {
    for (int p = 0; p < 6; p++) {
        const float* pl = v->planes[p];
        if (pl[0] * s[0] + pl[1] * s[1] + pl[2] * s[2] + pl[3] < -s[3]) return -1;
    }
    const float depth = v->depth_row[0] * s[0] + v->depth_row[1] * s[1] + v->depth_row[2] * s[2] + v->depth_row[3];
    if (depth <= s[3]) return 0; /* the eye inside the sphere's depth: as near as it gets */
    return s[3] * v->projection_scale / depth >= v->lod_threshold ? 0 : 1;
}
