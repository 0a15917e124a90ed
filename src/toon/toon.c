/* Toon materials (sinew/toon.h): the defaults of each kind, the material
   derived from a metallic-roughness one, the ramp made from a shade colour,
   and the shading rules as plain C. The renderer's GLSL follows these
   functions line by line; docs/toon.md gives every formula with the source
   of its numbers (the frame analysis of an anime-style game; "recon" marks
   a reconstruction where the analysis lost the formula). */
#include "sinew/toon.h"

#include <math.h>
#include <string.h>

static float sw__sat(float x) { return x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : x); }

static void sw__rgb(float out[3], float r, float g, float b) {
    out[0] = r;
    out[1] = g;
    out[2] = b;
}

static sw_model_texture_ref sw__no_texture(void) {
    sw_model_texture_ref t;
    memset(&t, 0, sizeof t);
    t.texture = -1;
    t.texcoord = 0;
    t.scale = 1.0f;
    t.uv_scale[0] = t.uv_scale[1] = 1.0f;
    return t;
}

/* ---- defaults ---------------------------------------------------------------------------------- */

void sw_toon_defaults(sw_toon_kind kind, sw_toon_material* out) {
    SW_ASSERT(out);
    memset(out, 0, sizeof *out);
    out->present = false;
    out->source = SW_TOON_SOURCE_NONE;
    out->kind = kind;

    out->control_texture = sw__no_texture();
    out->ramp_texture = sw__no_texture();
    /* Shade colour, shift and toony: what sw_toon_ramp_from_shade makes
       the ramp from when there is no ramp texture (MToon's shadingToony
       default 0.9). */
    sw__rgb(out->shade_color, 0.6f, 0.6f, 0.6f);
    out->shading_shift = 0.0f;
    out->shading_toony = 0.9f;
    for (int i = 0; i < SW_TOON_REGION_COUNT; i++) out->region_enabled[i] = true;
    out->light_area = 0.55f; /* lost in the analysis; the public reconstruction's default */
    out->ramp_width = 1.0f;
    out->vertex_color_threshold = false;
    out->vertex_color_width = false;
    out->back_uv1 = false;
    out->back_force_dark = false;

    out->normal_texture = sw__no_texture();
    out->detail_normal_texture = sw__no_texture();
    out->detail_gate = 0.95f; /* detail normals only where control B <= ~0.95 */

    if (kind == SW_TOON_BODY) {
        /* The two skirt glint sets of the analysis' table. */
        out->glint_count = 2;
        out->glints[0] = (sw_toon_glint){.grid = 100.0f,
                                         .spot_scale = 0.015f,
                                         .phase_rate = 0.5f,
                                         .active_width = 0.2f,
                                         .intensity = 1.68f,
                                         .luma_lerp = 1.0f,
                                         .color = {1.472f, 1.211f, 0.944f},
                                         .camera_scale = 2.0f};
        out->glints[1] = (sw_toon_glint){.grid = 107.69f,
                                         .spot_scale = 0.05f,
                                         .phase_rate = 0.87f,
                                         .active_width = 0.4f,
                                         .intensity = 1.68f,
                                         .luma_lerp = 0.0f,
                                         .color = {1.052f, 0.0068f, 0.0497f},
                                         .camera_scale = 3.0f};
    } else if (kind == SW_TOON_HAIR) {
        /* The hair set: grid 100, spot 0.03, time multiplier 0.25, pulse
           on for 0.243 of the cycle, intensity 1.5. Colour, luma lerp and
           the camera scale are lost: white, random colours, 1. The tiers
           picked by normal map A (grids 500 / 350.1 / 120) are not a
           material parameter (docs/toon.md). */
        out->glint_count = 1;
        out->glints[0] = (sw_toon_glint){.grid = 100.0f,
                                         .spot_scale = 0.03f,
                                         .phase_rate = 0.25f,
                                         .active_width = 0.243f,
                                         .intensity = 1.5f,
                                         .luma_lerp = 0.0f,
                                         .color = {1.0f, 1.0f, 1.0f},
                                         .camera_scale = 1.0f};
    } else {
        out->glint_count = 0;
    }

    /* Hair bands: view lift −0.06; exponents 6.4 / 5, upper bounds 0.844 /
       0.773, intensities 0.099 / 0.399; lower bounds and colours lost (0, white). */
    out->view_lift = -0.06f;
    out->band_exponent[0] = 6.4f;
    out->band_exponent[1] = 5.0f;
    out->band_lower[0] = out->band_lower[1] = 0.0f;
    out->band_upper[0] = 0.844f;
    out->band_upper[1] = 0.773f;
    out->band_intensity[0] = 0.099f;
    out->band_intensity[1] = 0.399f;
    sw__rgb(out->band_color[0], 1.0f, 1.0f, 1.0f);
    sw__rgb(out->band_color[1], 1.0f, 1.0f, 1.0f);

    /* Rim: a faint white rim on the outer 30 % of the N·V range for body
       and hair (the analysis' numbers are lost); none on face and eyes. */
    if (kind == SW_TOON_BODY || kind == SW_TOON_HAIR)
        sw__rgb(out->rim_color, 0.2f, 0.2f, 0.2f);
    else
        sw__rgb(out->rim_color, 0.0f, 0.0f, 0.0f);
    out->rim_width = 0.3f;
    out->rim_power = 2.0f;
    out->rim_lift = 0.0f;
    out->rim_mask_texture = sw__no_texture();

    out->face_sdf_texture = sw__no_texture();
    out->head_node = -1;
    out->sdf_steepness = 100.0f; /* the analysis' constant; 3460 gives its quoted 10–90 % width */
    out->sdf_offset = 0.0f;
    out->sdf_mirror = false;
    out->fold_tag_mask = 0;
    out->fold_uv_set = 1;
    out->fade = 1.0f;

    out->matcap_texture = sw__no_texture();
    out->matcap_mix = 0.3f;      /* matcap normal mixed with the surface normal at ≈ 0.3 */
    out->parallax_height = 0.3f; /* iris parallax amplitude ≈ 0.3 */
    out->iris_radius = 0.5f;

    /* Outline: a dark brown-grey hull 2 px wide at 1080 lines; eyes have none. */
    out->outline = kind != SW_TOON_EYE;
    out->outline_width = 2.0f;
    sw__rgb(out->outline_color, 0.08f, 0.06f, 0.06f);
    out->outline_max_distance = 10.0f;

    out->uv_scroll[0] = out->uv_scroll[1] = 0.0f;
    out->uv_rotation = 0.0f;
    out->uv_animation_mask_texture = sw__no_texture();
    out->shade_multiply_texture = sw__no_texture();
    out->shading_shift_texture = sw__no_texture();
    out->outline_width_texture = sw__no_texture();
    out->gi_equalization = 0.9f;
    out->matcap_color[0] = out->matcap_color[1] = out->matcap_color[2] = 1.0f;
    out->rim_lighting_mix = 1.0f;
    out->outline_lighting_mix = 1.0f;
    out->outline_world = false;
    out->outline_world_width = 0.0f;
    out->render_queue_offset = 0;
    out->transparent_with_z_write = false;
}

/* ---- derived from metallic-roughness -------------------------------------------------------------- */

/* Whether `name` contains `word` (ASCII, case-insensitive). */
static bool sw__name_has(const char* name, const char* word) {
    if (!name) return false;
    size_t n = strlen(word);
    for (const char* s = name; *s; s++) {
        size_t i = 0;
        while (i < n && s[i]) {
            char c = s[i];
            if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
            if (c != word[i]) break;
            i++;
        }
        if (i == n) return true;
    }
    return false;
}

void sw_toon_derive(const sw_model_material* material, sw_toon_material* out) {
    SW_ASSERT(material && out);
    sw_toon_kind kind = SW_TOON_BODY;
    if (sw__name_has(material->name, "hair"))
        kind = SW_TOON_HAIR;
    else if (sw__name_has(material->name, "face"))
        kind = SW_TOON_FACE;
    sw_toon_defaults(kind, out);
    out->present = true;
    out->source = SW_TOON_SOURCE_DERIVED;
    /* No glints: their mask is the normal map's B, which in a plain normal
       map is Z (≈ 1 everywhere). */
    out->glint_count = 0;
    /* The dark side: the base colour at 60 %. */
    for (int i = 0; i < 3; i++) out->shade_color[i] = sw__sat(material->base_color_factor[i]) * 0.6f;
}

/* ---- the ramp from a shade colour ----------------------------------------------------------------- */

static uint8_t sw__srgb8(float linear) {
    float c = sw__sat(linear);
    float s = c <= 0.0031308f ? 12.92f * c : 1.055f * powf(c, 1.0f / 2.4f) - 0.055f;
    return (uint8_t)(s * 255.0f + 0.5f);
}

/* Layout: 20 rows of 256 texels, stored top row first like an image file;
   v is measured from the bottom, so memory row r covers v in
   [1 − (r+1)/20, 1 − r/20]. Group g's day row is v = 1 − ((g−1)·0.1 + 0.05),
   the edge between memory rows 2(g−1) and 2(g−1)+1; its night row is
   v − 0.5, memory rows 10 + 2(g−1) and the next: rows 0–9 day, 10–19
   night. Sampled bilinearly on that edge a pair of equal rows gives the
   row's colour exactly. A GL upload of these bytes (first row at t = 0)
   samples at t = 1 − v.

   u runs from the deepest shadow (0) to the terminator (1). The ramp holds
   MToon's transition: with no control map (g = 0.5) and ramp width 1, the
   lit/dark rule gives u = c / light_area and c = (N·L + 2)/4, so for the
   light area a = (3 − toony − shift)/4 (where MToon becomes fully lit;
   clamped to 0.001..1) texel u stands for N·L = 4·a·u − 2, and
   shading = linearstep(−1 + toony, 1 − toony, N·L + shift),
   colour = lerp(shade, white, shading) in linear RGB. The MToon readers
   set light_area to that a, which makes the toon rule reproduce MToon's
   lighting exactly; with another light area the ramp still runs from the
   shade colour to white at the terminator. Night rows multiply the colour
   by (0.55, 0.6, 0.8): darker and bluer. All five groups get the same
   rows (a shade colour has no per-group data). */
void sw_toon_ramp_from_shade(const float shade_color[3], float shading_shift, float shading_toony,
                             uint8_t out_rgba[SW_TOON_RAMP_WIDTH * SW_TOON_RAMP_HEIGHT * 4]) {
    SW_ASSERT(shade_color && out_rgba);
    static const float night[3] = {0.55f, 0.6f, 0.8f};
    float shift = isfinite(shading_shift) ? shading_shift : 0.0f;
    float toony = isfinite(shading_toony) ? sw__sat(shading_toony) : 0.9f;
    float area = (3.0f - toony - shift) * 0.25f;
    area = area < 1e-3f ? 1e-3f : (area > 1.0f ? 1.0f : area);
    float lo = -1.0f + toony, hi = 1.0f - toony;
    uint8_t day_row[SW_TOON_RAMP_WIDTH * 4], night_row[SW_TOON_RAMP_WIDTH * 4];
    for (int x = 0; x < SW_TOON_RAMP_WIDTH; x++) {
        float u = ((float)x + 0.5f) / SW_TOON_RAMP_WIDTH; /* texel centre */
        float n_dot_l = 4.0f * area * u - 2.0f + shift;
        float t = hi > lo ? sw__sat((n_dot_l - lo) / (hi - lo)) : (n_dot_l >= lo ? 1.0f : 0.0f);
        for (int c = 0; c < 3; c++) {
            float shade = isfinite(shade_color[c]) ? sw__sat(shade_color[c]) : 0.0f;
            float lin = shade + (1.0f - shade) * t;
            day_row[x * 4 + c] = sw__srgb8(lin);
            night_row[x * 4 + c] = sw__srgb8(lin * night[c]);
        }
        day_row[x * 4 + 3] = night_row[x * 4 + 3] = 255;
    }
    for (int r = 0; r < SW_TOON_RAMP_HEIGHT; r++)
        memcpy(out_rgba + (size_t)r * SW_TOON_RAMP_WIDTH * 4, r < SW_TOON_RAMP_HEIGHT / 2 ? day_row : night_row,
               sizeof day_row);
}

/* ---- the shading rules ---------------------------------------------------------------------------- */

/* Control A is split at 0.2 / 0.4 / 0.6 / 0.8; group 1 unless an open
   gate's band holds a, tested in the order 2, 3, 4, 5. Not floor(5a) + 1:
   a = 0.9 is group 2 and a = 0.3 group 4. */
int sw_toon_region(float a, const bool enabled[SW_TOON_REGION_COUNT]) {
    SW_ASSERT(enabled);
    int group = 1;
    if (enabled[1] && a >= 0.8f) group = 2;
    if (enabled[2] && a >= 0.4f && a < 0.6f) group = 3;
    if (enabled[3] && a >= 0.2f && a < 0.4f) group = 4;
    if (enabled[4] && a >= 0.6f && a < 0.8f) group = 5;
    return group;
}

/* Keeps 0, 0.5 and 1, flattens the middle: 0.25 → 0.375, 0.75 → 0.625. */
float sw_toon_signed_square(float g) {
    float x = g - 0.5f;
    return 0.5f + 2.0f * x * fabsf(x);
}

/* Ten bands of two rows, 0.1 of v each; the day row of group g is the
   centre of band g−1 from the top, the night row five bands lower. */
float sw_toon_ramp_row(int group, bool night) {
    if (group < 1) group = 1;
    if (group > SW_TOON_REGION_COUNT) group = SW_TOON_REGION_COUNT;
    float day = 1.0f - ((float)(group - 1) * 0.1f + 0.05f);
    return night ? day - 0.5f : day;
}

bool sw_toon_shadow_area(float half_lambert, float g, float light_area, float width, float* out_depth,
                         float* out_ramp_u) {
    /* c: half-Lambert and the threshold averaged; a threshold below 0.05
       forces dark, above 0.95 forces lit. */
    float c = (half_lambert + g) * 0.5f;
    if (g < 0.05f) c = 0.0f;
    if (g > 0.95f) c = 1.0f;
    bool in_shadow = c < light_area;
    /* How deep into the dark side (0 at the terminator, 1 at c = 0). */
    float depth = light_area > 0.0f ? (light_area - c) / light_area : 0.0f;
    float w = width > 1e-4f ? width : 1e-4f;
    float u = in_shadow ? 1.0f - fminf(depth / w, 1.0f) : 1.0f;
    if (out_depth) *out_depth = depth;
    if (out_ramp_u) *out_ramp_u = u;
    return in_shadow;
}

/* The light's horizontal direction in the head frame (x right, z forward)
   with the length floored at 1e-4; from the front h → 0, from behind → 1,
   clamped to 0.03..0.97 so some texels stay lit / dark at the extremes. */
float sw_toon_face_threshold(const float light_head[3], float offset) {
    SW_ASSERT(light_head);
    float x = light_head[0], z = light_head[2];
    float len = sqrtf(x * x + z * z);
    if (len < 1e-4f) len = 1e-4f;
    float forward = z / len;
    float h = 0.5f - 0.5f * forward + offset;
    return h < 0.03f ? 0.03f : (h > 0.97f ? 0.97f : h);
}

/* R holds the lower half of the threshold range, A the upper half; a
   non-zero A selects the upper value (no blend): A = 0.4 → 0.7, R = 0.6 → 0.3. */
float sw_toon_face_texel(float sdf_r, float sdf_a) { return sdf_a > 0.0f ? 0.5f + 0.5f * sdf_a : 0.5f * sdf_r; }

/* The logistic 1 / (1 + e^(−s(t − h))): 0.5 at t = h, lit above; its
   10–90 % width is 2 ln 9 / s (0.0439 at s = 100). */
float sw_toon_face_lit(float texel, float threshold, float steepness) {
    return 1.0f / (1.0f + expf(-steepness * (texel - threshold)));
}

/* The analysis' table (the transpose of the usual 1-based 4×4 Bayer
   matrix), divided by 17; row y & 3, column x & 3. */
float sw_toon_dither(int x, int y) {
    static const uint8_t table[4][4] = {{1, 13, 4, 16}, {9, 5, 12, 8}, {3, 15, 2, 14}, {11, 7, 10, 6}};
    return (float)table[(unsigned)y & 3u][(unsigned)x & 3u] / 17.0f;
}

float sw_toon_hair_band(float n_dot_h, float exponent, float lower, float upper, float intensity) {
    float p = powf(sw__sat(n_dot_h), exponent);
    float t;
    if (upper > lower)
        t = sw__sat((p - lower) / (upper - lower));
    else
        t = p >= upper ? 1.0f : 0.0f; /* a degenerate band is a step */
    return intensity * t * t * (3.0f - 2.0f * t);
}

static float sw__fract(float x) { return x - floorf(x); }

/* "Hash without sine" (hash42): the cell coordinate times four constants,
   fractionalised, mixed with a dot product of itself permuted plus 33.33,
   then sums of pairs times a third permutation, fractionalised. */
void sw_toon_hash42(float x, float y, float out[4]) {
    SW_ASSERT(out);
    float p[4] = {sw__fract(x * 0.1031f), sw__fract(y * 0.1030f), sw__fract(x * 0.0973f), sw__fract(y * 0.1099f)};
    /* p += dot(p, p.wzxy + 33.33) */
    float d = p[0] * (p[3] + 33.33f) + p[1] * (p[2] + 33.33f) + p[2] * (p[0] + 33.33f) + p[3] * (p[1] + 33.33f);
    for (int i = 0; i < 4; i++) p[i] += d;
    /* fract((p.xxyz + p.yzzw) * p.zywx) */
    out[0] = sw__fract((p[0] + p[1]) * p[2]);
    out[1] = sw__fract((p[0] + p[2]) * p[1]);
    out[2] = sw__fract((p[1] + p[2]) * p[3]);
    out[3] = sw__fract((p[2] + p[3]) * p[0]);
    /* fract of a float can round up to 1 for tiny negative inputs. */
    for (int i = 0; i < 4; i++)
        if (!(out[i] < 1.0f) || !(out[i] >= 0.0f)) out[i] = 0.0f;
}
