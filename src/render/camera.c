/* Camera and light matrices (sinew/render.h, renderer_internal.h), as
   column-major sw_mat4 the way GL takes them. CPU only. */
#include "renderer_internal.h"

#include "depth_convention.h"

#include <float.h>
#include <string.h>

/* The look-at basis: s (right), u (up), f (forward). */
static void sw__look_basis(sw_vec3 eye, sw_vec3 target, sw_vec3 up, sw_vec3* s, sw_vec3* u, sw_vec3* f) {
    *f = sw_vec3_normalize(sw_vec3_sub(target, eye));
    *s = sw_vec3_normalize(sw_vec3_cross(*f, up));
    *u = sw_vec3_cross(*s, *f);
}

sw_mat4 sw__look_at(sw_vec3 eye, sw_vec3 target, sw_vec3 up) {
    sw_vec3 s, u, f;
    sw__look_basis(eye, target, up, &s, &u, &f);
    sw_mat4 r = {{s.x, u.x, -f.x, 0, s.y, u.y, -f.y, 0, s.z, u.z, -f.z, 0, -sw_vec3_dot(s, eye),
                  -sw_vec3_dot(u, eye), sw_vec3_dot(f, eye), 1}};
    return r;
}

/* The look-at matrix's inverse, exactly: rotation transposed, eye as the
   translation (a general inverse loses digits to the translation when the
   scene is far from the origin). */
static sw_mat4 sw__look_at_inverse(sw_vec3 eye, sw_vec3 target, sw_vec3 up) {
    sw_vec3 s, u, f;
    sw__look_basis(eye, target, up, &s, &u, &f);
    sw_mat4 r = {{s.x, s.y, s.z, 0, u.x, u.y, u.z, 0, -f.x, -f.y, -f.z, 0, eye.x, eye.y, eye.z, 1}};
    return r;
}

/* The perspective projection: OpenGL's, or reversed for GL_ZERO_TO_ONE
   clip control (depth_convention.h); an infinite z_far takes the limit. */
static sw_mat4 sw__perspective(float fov_y, float aspect, float n, float f, bool reverse) {
    float t = 1.0f / tanf(0.5f * fov_y);
    const bool infinite = isinf(f);
    float a, b; /* clip z = a · z_view + b */
    if (reverse) a = infinite ? 0.0f : n / (f - n), b = infinite ? n : f * n / (f - n);
    else a = infinite ? -1.0f : (f + n) / (n - f), b = infinite ? -2.0f * n : 2 * f * n / (n - f);
    sw_mat4 r = {{t / aspect, 0, 0, 0, 0, t, 0, 0, 0, 0, a, -1, 0, 0, b, 0}};
    return r;
}

static sw_mat4 sw__ortho(float l, float r, float b, float t, float n, float f) {
    sw_mat4 m = {{2 / (r - l), 0, 0, 0, 0, 2 / (t - b), 0, 0, 0, 0, -2 / (f - n), 0, -(r + l) / (r - l),
                  -(t + b) / (t - b), -(f + n) / (f - n), 1}};
    return m;
}

sw_mat4 sw__inverse_view_projection(const sw_camera* camera, float aspect, bool reverse) {
    sw_mat4 projection = sw__perspective(camera->fov_y, aspect, camera->z_near, camera->z_far, reverse);
    sw_mat4 inverse_projection;
    sw_mat4_inverse(&inverse_projection, &projection);
    sw_mat4 inverse_view = sw__look_at_inverse(sw__v3(camera->eye), sw__v3(camera->target), sw__v3(camera->up));
    return sw_mat4_mul(&inverse_view, &inverse_projection);
}

void sw__camera_matrix(const sw_camera* camera, float aspect, bool reverse, float out_matrix[16]) {
    sw_mat4 view = sw__look_at(sw__v3(camera->eye), sw__v3(camera->target), sw__v3(camera->up));
    sw_mat4 projection = sw__perspective(camera->fov_y, aspect, camera->z_near, camera->z_far, reverse);
    sw_mat4 vp = sw_mat4_mul(&projection, &view);
    memcpy(out_matrix, vp.m, sizeof vp.m);
}

void sw_camera_view_projection(const sw_camera* camera, float aspect, float out_matrix[16]) {
    sw__camera_matrix(camera, aspect, false, out_matrix);
}

float sw__depth_at_distance(float d, float n, float f, bool reverse) {
    if (reverse) return isinf(f) ? n / d : n * (f - d) / (d * (f - n));
    return isinf(f) ? 1.0f - n / d : f * (d - n) / (d * (f - n));
}

void sw_camera_frame_bounds(const float bounds_min[3], const float bounds_max[3], float azimuth_degrees,
                            float elevation_degrees, float aspect, sw_camera* out) {
    sw_camera_framing framing = {.azimuth_degrees = azimuth_degrees, .elevation_degrees = elevation_degrees};
    sw_camera_frame(bounds_min, bounds_max, &framing, aspect, out);
}

/* The distance at which every point, seen along `dir` (eye
   side) from `target`, lies inside the view: for a corner at r from the
   target, x = r·s, y = r·u and depth d + r·f, so |x| ≤ tan_x (d + r·f)
   and |y| ≤ tan_y (d + r·f) give d ≥ |x| / tan_x − r·f (and y alike). */
static float sw__fit_distance(const float* points, size_t count, sw_vec3 target, sw_vec3 dir, float tan_x,
                              float tan_y) {
    sw_vec3 s, u, f;
    sw__look_basis(sw_vec3_add(target, dir), target, sw_vec3_make(0, 1, 0), &s, &u, &f);
    float distance = 0.0f;
    for (size_t i = 0; i < count; i++) {
        sw_vec3 r = sw_vec3_sub(sw__v3(&points[3 * i]), target);
        float need = fmaxf(fabsf(sw_vec3_dot(r, s)) / tan_x, fabsf(sw_vec3_dot(r, u)) / tan_y) - sw_vec3_dot(r, f);
        distance = fmaxf(distance, need);
    }
    return distance;
}

/* Moves `target` across the view (along the look-at basis's s and u) so
   that the points' projected extent, seen from `distance` along `dir`, is
   centred: the shift is the middle of the extent in view-plane units at
   the target's depth. */
static void sw__center_view(const float* points, size_t count, float target[3], const float dir[3], float distance) {
    sw_vec3 s, u, f, t = sw__v3(target);
    sw__look_basis(sw_vec3_add(t, sw__v3(dir)), t, sw_vec3_make(0, 1, 0), &s, &u, &f);
    float lo_x = FLT_MAX, hi_x = -FLT_MAX, lo_y = FLT_MAX, hi_y = -FLT_MAX;
    for (size_t i = 0; i < count; i++) {
        sw_vec3 r = sw_vec3_sub(sw__v3(&points[3 * i]), t);
        float depth = distance + sw_vec3_dot(r, f);
        if (!(depth > 1e-6f)) return;
        float x = sw_vec3_dot(r, s) / depth, y = sw_vec3_dot(r, u) / depth;
        lo_x = fminf(lo_x, x), hi_x = fmaxf(hi_x, x), lo_y = fminf(lo_y, y), hi_y = fmaxf(hi_y, y);
    }
    const float dx = 0.5f * (lo_x + hi_x) * distance, dy = 0.5f * (lo_y + hi_y) * distance;
    for (int k = 0; k < 3; k++) target[k] += (&s.x)[k] * dx + (&u.x)[k] * dy;
}

/* The camera for box [bounds_min, bounds_max]; with points, they are
   what the fit shows (else the box's corners, or its sphere). */
static void sw__frame(const float bounds_min[3], const float bounds_max[3], const float* points, size_t point_count,
                      const sw_camera_framing* framing, float aspect, sw_camera* out) {
    const sw_camera_framing none = {0};
    const sw_camera_framing* g = framing ? framing : &none;
    float center[3], radius = 0.0f;
    for (int i = 0; i < 3; i++) {
        center[i] = 0.5f * (bounds_min[i] + bounds_max[i]);
        float h = 0.5f * (bounds_max[i] - bounds_min[i]);
        radius += h * h;
    }
    radius = sqrtf(radius);
    if (!(radius > 1e-6f)) radius = 1.0f;
    const float fov_y = (g->fov_y_degrees > 0.0f && g->fov_y_degrees < 179.0f ? g->fov_y_degrees : 35.0f) * SW__PI / 180.0f;
    const float margin = g->margin > 0.0f ? g->margin : 1.05f;
    if (!(aspect > 0.0f)) aspect = 1.0f;
    float target[3];
    for (int i = 0; i < 3; i++) target[i] = g->has_target ? g->target[i] : center[i];
    float az = g->azimuth_degrees * SW__PI / 180.0f, el = g->elevation_degrees * SW__PI / 180.0f;
    float dir[3] = {sinf(az) * cosf(el), sinf(el), cosf(az) * cosf(el)};
    /* How far the target is from the box's centre: the sphere fit and the
       far plane grow by it. */
    float offset = 0.0f;
    for (int i = 0; i < 3; i++) offset += (target[i] - center[i]) * (target[i] - center[i]);
    offset = sqrtf(offset);
    float distance = g->distance;
    if (!(distance > 0.0f)) {
        float half = 0.5f * fov_y;
        if (g->fit_corners || points) {
            const float tan_y = tanf(half) / margin, tan_x = tan_y * aspect;
            float corners[24];
            for (int c = 0; c < 8; c++)
                for (int k = 0; k < 3; k++) corners[3 * c + k] = c & (1 << k) ? bounds_max[k] : bounds_min[k];
            const float* fitted = points ? points : corners;
            const size_t count = points ? point_count : 8;
            distance = sw__fit_distance(fitted, count, sw__v3(target), sw__v3(dir), tan_x, tan_y);
            /* Perspective makes the near side look larger: with no target
               given, the target moves across the view until the picture's
               margins are even, then the distance is fitted again. */
            for (int pass = 0; pass < 4 && !g->has_target && distance > 0.0f; pass++) {
                sw__center_view(fitted, count, target, dir, distance);
                distance = sw__fit_distance(fitted, count, sw__v3(target), sw__v3(dir), tan_x, tan_y);
            }
            if (!(distance > radius * 0.05f)) distance = radius * 0.05f; /* a flat box seen edge-on */
        } else {
            /* The bounding sphere fits the narrower of the two fields of view. */
            if (aspect < 1.0f) half = atanf(tanf(half) * aspect);
            distance = (radius + offset) / sinf(half) * margin;
        }
    }
    *out = (sw_camera){.fov_y = fov_y, .z_near = distance * 0.05f, .z_far = distance + offset + radius * 4.0f};
    for (int i = 0; i < 3; i++) {
        out->target[i] = target[i];
        out->eye[i] = target[i] + dir[i] * distance;
    }
    out->up[1] = 1.0f;
}

void sw_camera_frame(const float bounds_min[3], const float bounds_max[3], const sw_camera_framing* framing,
                     float aspect, sw_camera* out) {
    sw__frame(bounds_min, bounds_max, NULL, 0, framing, aspect, out);
}

void sw_camera_frame_points(const float* points, size_t point_count, const sw_camera_framing* framing, float aspect,
                            sw_camera* out) {
    float lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
    for (size_t i = 0; i < point_count; i++)
        for (int k = 0; k < 3; k++) {
            const float x = points[3 * i + (size_t)k];
            lo[k] = i == 0 || x < lo[k] ? x : lo[k];
            hi[k] = i == 0 || x > hi[k] ? x : hi[k];
        }
    sw__frame(lo, hi, point_count ? points : NULL, point_count, framing, aspect, out);
}

void sw__light(const float lo[3], const float hi[3], const float towards[3], sw_vec3* direction,
               sw_mat4* view_projection) {
    /* The frame's direction when it gives one (sw_render_frame.shading.light_direction). */
    sw_vec3 given = sw__v3(towards);
    const sw_vec3 d = sw_vec3_length(given) > 1e-6f ? sw_vec3_normalize(given)
                                                    : sw_vec3_normalize(sw_vec3_make(-0.45f, 0.8f, 0.55f));
    *direction = d;
    sw_vec3 center = sw_vec3_scale(sw_vec3_add(sw__v3(lo), sw__v3(hi)), 0.5f);
    float radius = 0.0f;
    for (int i = 0; i < 3; i++) radius = fmaxf(radius, hi[i] - lo[i]);
    radius *= 1.5f;
    sw_vec3 eye = sw_vec3_add(center, sw_vec3_scale(d, radius * 2));
    sw_mat4 view = sw__look_at(eye, center, fabsf(d.y) > 0.999f ? sw_vec3_make(0, 0, 1) : sw_vec3_make(0, 1, 0));
    sw_mat4 proj = sw__ortho(-radius, radius, -radius, radius, 0.01f, radius * 4);
    *view_projection = sw_mat4_mul(&proj, &view);
}
