/* The renderer's materials (renderer_internal.h): textures from the
   material set's decoded images, toon ramps, and per material one uniform
   block holding every value the G-buffer and toon passes read
   (shaders/material_block.glsl), so that a draw binds a block and its
   textures instead of setting dozens of uniforms. Which toon data a draw
   gets, and its head joint. */
#include "renderer_internal.h"

#include <stddef.h>
#include <string.h>

#include "../base/base_internal.h"

/* The block's layout is std140's for shaders/material_block.glsl: vec3
   and vec4 on 16 bytes, a float after a vec3 in its fourth component,
   mat3 as three vec4 columns, scalar arrays on a vec4 stride. */
_Static_assert(SW_MATERIAL_UV_COUNT == 12, "the offsets below are those of 12 UV entries");
_Static_assert(offsetof(sw__material_block, normal_scale) == 28 && offsetof(sw__material_block, class_id) == 48 &&
                   offsetof(sw__material_block, uv_transform) == 64 && offsetof(sw__material_block, uv_set) == 640 &&
                   offsetof(sw__material_block, shadow_area) == 832 &&
                   offsetof(sw__material_block, toon_normal_scale) == 876 &&
                   offsetof(sw__material_block, glint_color) == 944 && offsetof(sw__material_block, rim) == 1056 &&
                   offsetof(sw__material_block, iris) == 1088 && offsetof(sw__material_block, face) == 1104 &&
                   offsetof(sw__material_block, outline) == 1120 && offsetof(sw__material_block, fold_uv_set) == 1140 &&
                   offsetof(sw__material_block, outline_world) == 1144 &&
                   offsetof(sw__material_block, shade_color) == 1152 && offsetof(sw__material_block, mtoon) == 1168 &&
                   offsetof(sw__material_block, matcap_color) == 1184 &&
                   offsetof(sw__material_block, transmission) == 1200 &&
                   offsetof(sw__material_block, snow) == 1232 && sizeof(sw__material_block) == 1264,
               "sw__material_block must be the std140 layout of shaders/material_block.glsl");
_Static_assert(SW_MATERIAL_UV_TOON_NORMAL == SW_MATERIAL_SLOT_COUNT && SW_MATERIAL_UV_MATCAP + 1 == SW_MATERIAL_UV_COUNT,
               "the toon normal's UV entry follows the material slots, the toon maps' follow it");
_Static_assert(SW_TOON_UNIT_RAMP >= SW_MATERIAL_SLOT_COUNT, "the toon units follow the material slots");

/* What a draw without a material of its own gets. */
static const sw_model_material sw__fallback_material = {
    .base_color_factor = {1, 1, 1, 1},
    .metallic_factor = 0.0f,
    .roughness_factor = 0.6f,
    .base_color_texture = {.texture = -1},
    .metallic_roughness_texture = {.texture = -1},
    .normal_texture = {.texture = -1},
    .occlusion_texture = {.texture = -1},
    .emissive_texture = {.texture = -1},
    .alpha_cutoff = 0.5f,
};

/* The set's image behind model texture `index`, NULL when there is none;
   *failed says whether it failed to decode. */
static const sw_material_image* sw__image_of(const sw_renderer* r, int32_t index, bool* failed) {
    const sw_model* a = r->asset;
    const sw_material_set* set = r->material_set;
    *failed = false;
    if (!set || index < 0 || (size_t)index >= a->texture_count) return NULL;
    const int32_t image = a->textures[index].image;
    if (image < 0 || (size_t)image >= set->image_count) return NULL;
    const sw_material_image* m = &set->images[image];
    *failed = m->failed;
    return m->pixels && m->width > 0 && m->height > 0 ? m : NULL;
}

/* A texture of the model: its decoded image, mipmapped, its sampler's
   filters and wraps. Returns 0 when there is no image. */
static GLuint sw__upload_texture(sw_renderer* r, size_t index, bool srgb) {
    const sw_model* a = r->asset;
    const sw_model_texture* t = &a->textures[index];
    bool failed;
    const sw_material_image* image = sw__image_of(r, (int32_t)index, &failed);
    if (failed) r->stats.texture_failures++;
    if (!image) return 0;
    GLuint tex;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, srgb ? GL_SRGB8_ALPHA8 : GL_RGBA8, image->width, image->height, 0, GL_RGBA,
                 GL_UNSIGNED_BYTE, image->pixels);
    glGenerateMipmap(GL_TEXTURE_2D);
    GLint min_filter = GL_LINEAR_MIPMAP_LINEAR, mag_filter = GL_LINEAR, wrap_s = GL_REPEAT, wrap_t = GL_REPEAT;
    if (t->sampler >= 0 && (size_t)t->sampler < a->sampler_count) {
        const sw_model_sampler* s = &a->samplers[t->sampler];
        if (s->min_filter) min_filter = s->min_filter;
        if (s->mag_filter) mag_filter = s->mag_filter;
        if (s->wrap_s) wrap_s = s->wrap_s;
        if (s->wrap_t) wrap_t = s->wrap_t;
    }
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, min_filter);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, mag_filter);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, wrap_s);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, wrap_t);
    r->stats.textures++;
    return tex;
}

/* Every texture of the model: base colour and emissive are sRGB, the
   others linear. */
static sw_result sw__upload_textures(sw_renderer* r, sw_diag* diag) {
    const sw_model* a = r->asset;
    r->textures = (GLuint*)sw__calloc(a->texture_count + 1, sizeof(GLuint));
    bool* srgb = (bool*)sw__calloc(a->texture_count + 1, sizeof(bool));
    if (!r->textures || !srgb) {
        sw__free(srgb);
        return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for %zu textures", a->texture_count);
    }
    for (size_t m = 0; m < a->material_count; m++) {
        const sw_model_material* mat = &a->materials[m];
        if (mat->base_color_texture.texture >= 0) srgb[mat->base_color_texture.texture] = true;
        if (mat->emissive_texture.texture >= 0) srgb[mat->emissive_texture.texture] = true;
        /* MToon's colour textures: shade multiply, matcap, rim multiply. */
        const sw_toon_material* t = r->material_set ? &r->material_set->toon[m] : NULL;
        if (t && t->present && (t->source == SW_TOON_SOURCE_MTOON || t->source == SW_TOON_SOURCE_MTOON_VRM0)) {
            const int32_t colours[3] = {t->shade_multiply_texture.texture, t->matcap_texture.texture,
                                        t->rim_mask_texture.texture};
            for (int k = 0; k < 3; k++)
                if (colours[k] >= 0 && (size_t)colours[k] < a->texture_count) srgb[colours[k]] = true;
        }
    }
    for (size_t t = 0; t < a->texture_count; t++) r->textures[t] = sw__upload_texture(r, t, srgb[t]);
    sw__free(srgb);
    return SW_OK;
}

/* The ramp texture of one toon material: its own (sRGB, 256 × 20, rows
   as sw_toon_ramp_row), else made from its shade colour. Linear filtering
   without mipmaps and clamped, so a row is read as it is. */
static GLuint sw__ramp_texture(sw_renderer* r, const sw_toon_material* t) {
    uint8_t* made = NULL;
    const uint8_t* rgba = NULL;
    int w = SW_TOON_RAMP_WIDTH, h = SW_TOON_RAMP_HEIGHT;
    bool failed;
    const sw_material_image* image = sw__image_of(r, t->ramp_texture.texture, &failed);
    if (failed) r->stats.texture_failures++;
    if (image) rgba = image->pixels, w = image->width, h = image->height;
    if (!rgba) {
        made = (uint8_t*)sw__malloc((size_t)w * (size_t)h * 4);
        if (!made) return 0; /* the blank texture then: white, a lit dark side */
        sw_toon_ramp_from_shade(t->shade_color, t->shading_shift, t->shading_toony, made);
        rgba = made;
    }
    GLuint tex;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_SRGB8_ALPHA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    sw__free(made);
    return tex;
}

/* The GL texture of a texture reference, 0 for none. */
static GLuint sw__texture_of(const sw_renderer* r, const sw_model_texture_ref* ref) {
    const sw_model* a = r->asset;
    return ref->texture >= 0 && (size_t)ref->texture < a->texture_count ? r->textures[ref->texture] : 0;
}

/* One UV entry of the block: KHR_texture_transform T · R · S as a
   column-major 3×3 (each column a vec4), and the TEXCOORD set. */
static void sw__uv_entry(const sw_model_texture_ref* ref, sw__material_block* b, int entry) {
    float c = 1.0f, sn = 0.0f, sx = 1.0f, sy = 1.0f, ox = 0.0f, oy = 0.0f;
    if (ref->has_transform) {
        c = cosf(ref->rotation), sn = sinf(ref->rotation);
        sx = ref->uv_scale[0], sy = ref->uv_scale[1], ox = ref->offset[0], oy = ref->offset[1];
    }
    const float t[9] = {c * sx, -sn * sx, 0, sn * sy, c * sy, 0, ox, oy, 1};
    for (int column = 0; column < 3; column++)
        for (int row = 0; row < 3; row++) b->uv_transform[entry][column][row] = t[3 * column + row];
    b->uv_set[entry][0] = ref->texcoord == 1 ? 1 : 0;
}

/* The glTF half of a block and the G-buffer pass's textures and flags. */
static void sw__gbuffer_values(const sw_renderer* r, sw__material* m, sw__material_block* b) {
    const sw_model_material* core = m->core;
    const sw_model_texture_ref* refs[SW_MATERIAL_SLOT_COUNT] = {
        [SW_MATERIAL_SLOT_BASE_COLOR] = &core->base_color_texture,
        [SW_MATERIAL_SLOT_NORMAL] = &core->normal_texture,
        [SW_MATERIAL_SLOT_METALLIC_ROUGHNESS] = &core->metallic_roughness_texture,
        [SW_MATERIAL_SLOT_OCCLUSION] = &core->occlusion_texture,
        [SW_MATERIAL_SLOT_EMISSIVE] = &core->emissive_texture,
    };
    for (int s = 0; s < SW_MATERIAL_SLOT_COUNT; s++) {
        sw__uv_entry(refs[s], b, s);
        m->gbuffer_textures[s] = sw__texture_of(r, refs[s]);
    }
    memcpy(b->base_color, core->base_color_factor, sizeof b->base_color);
    const float strength = core->has_emissive_strength ? core->emissive_strength : 1.0f;
    for (int k = 0; k < 3; k++) b->emissive[k] = core->emissive_factor[k] * strength;
    b->normal_scale = core->normal_texture.scale;
    b->metallic_roughness[0] = core->metallic_factor, b->metallic_roughness[1] = core->roughness_factor;
    b->occlusion_strength = core->occlusion_texture.texture >= 0 ? core->occlusion_texture.scale : 0.0f;
    b->alpha_cutoff = core->alpha_mode == SW_MODEL_ALPHA_OPAQUE ? -1.0f
                      : core->alpha_mode == SW_MODEL_ALPHA_MASK ? core->alpha_cutoff
                                                                : 0.5f;
    b->class_id = core->unlit ? SW_CLASS_UNLIT : SW_CLASS_LIT;
    /* Transmission and volume, factors only (docs/transparency.md). */
    b->transmission[0] = core->unlit ? 0.0f : fminf(fmaxf(core->transmission_factor, 0.0f), 1.0f);
    b->transmission[1] = fmaxf(core->thickness_factor, 0.0f);
    b->transmission[2] = fmaxf(core->attenuation_distance, 0.0f);
    b->transmission[3] = core->alpha_mode == SW_MODEL_ALPHA_OPAQUE ? 1.0f : 0.0f;
    for (int k = 0; k < 3; k++) b->attenuation_color[k] = core->attenuation_color[k];
    /* SW_materials_snow (docs/snow.md): the cover over COLOR_0's alpha. */
    if (core->snow && !core->unlit) {
        b->snow[0] = core->snow_threshold, b->snow[1] = core->snow_width, b->snow[2] = core->snow_sparkle;
        b->snow[3] = 1.0f;
        for (int k = 0; k < 3; k++) b->snow_color[k] = core->snow_cover_color[k];
        b->snow_color[3] = core->snow_roughness;
    }
    const int double_sided = core->double_sided ? SW_GBUFFER_FLAG_DOUBLE_SIDED : 0;
    m->gbuffer_flags = (m->gbuffer_textures[SW_MATERIAL_SLOT_NORMAL] ? SW_GBUFFER_FLAG_NORMAL_TEXTURE : 0) | double_sided;
}

bool sw__transmissive(const sw_renderer* r, const sw__draw* d, sw_render_style style) {
    const sw__material* m = &r->materials[d->material];
    return m->values.transmission[0] > 0.0f && !sw__toon_of(r, d, style);
}

bool sw__blended(const sw_renderer* r, const sw_render_frame* f, const sw__draw* d, sw_render_style style) {
    const sw__material* m = &r->materials[d->material];
    if (m->core->alpha_mode != SW_MODEL_ALPHA_BLEND && !sw__transmissive(r, d, style)) return false;
    const sw_render_view view = f->debug.view;
    (void)style;
    return !(view == SW_RENDER_VIEW_UV || view == SW_RENDER_VIEW_WEIGHTS || view == SW_RENDER_VIEW_RETENTION);
}

/* Whether toon data t is lit by MToon 1.0's model (read from MToon). */
static bool sw__is_mtoon(const sw_toon_material* t) {
    return t->source == SW_TOON_SOURCE_MTOON || t->source == SW_TOON_SOURCE_MTOON_VRM0;
}

/* The toon pass's textures (the slots, the toon normal map replacing the
   core one, the ramp and the maps) and its flags. */
static void sw__toon_textures(const sw_renderer* r, sw__material* m, const sw_toon_material* t) {
    memcpy(m->toon_textures, m->gbuffer_textures, sizeof m->gbuffer_textures);
    if (t->normal_texture.texture >= 0 && (size_t)t->normal_texture.texture < r->asset->texture_count)
        m->toon_textures[SW_MATERIAL_SLOT_NORMAL] = sw__texture_of(r, &t->normal_texture);
    const struct { int unit; GLuint texture; int flag; } maps[] = {
        {SW_TOON_UNIT_RAMP, m->ramp, 0},
        {SW_TOON_UNIT_CONTROL, sw__texture_of(r, &t->control_texture), SW_TOON_FLAG_CONTROL},
        {SW_TOON_UNIT_DETAIL_NORMAL, sw__texture_of(r, &t->detail_normal_texture), SW_TOON_FLAG_DETAIL},
        {SW_TOON_UNIT_FACE_SDF, sw__texture_of(r, &t->face_sdf_texture), SW_TOON_FLAG_FACE_SDF},
        {SW_TOON_UNIT_RIM_MASK, sw__texture_of(r, &t->rim_mask_texture), SW_TOON_FLAG_RIM_MASK},
        {SW_TOON_UNIT_MATCAP, sw__texture_of(r, &t->matcap_texture), SW_TOON_FLAG_MATCAP},
        {SW_TOON_UNIT_SHADE_MULTIPLY, sw__texture_of(r, &t->shade_multiply_texture), SW_TOON_FLAG_SHADE_MULTIPLY},
        {SW_TOON_UNIT_SHADING_SHIFT, sw__texture_of(r, &t->shading_shift_texture), SW_TOON_FLAG_SHADING_SHIFT},
        {SW_TOON_UNIT_ANIMATION_MASK, sw__texture_of(r, &t->uv_animation_mask_texture), SW_TOON_FLAG_ANIMATION_MASK},
        {SW_TOON_UNIT_OUTLINE_WIDTH, sw__texture_of(r, &t->outline_width_texture), 0},
    };
    int flags = 0;
    for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++) {
        m->toon_textures[maps[i].unit] = maps[i].texture;
        if (maps[i].texture) flags |= maps[i].flag;
    }
    static const int region_flags[SW_TOON_REGION_COUNT] = {0, SW_TOON_FLAG_REGION_2, SW_TOON_FLAG_REGION_3,
                                                           SW_TOON_FLAG_REGION_4, SW_TOON_FLAG_REGION_5};
    for (int g = 1; g < SW_TOON_REGION_COUNT; g++)
        if (t->region_enabled[g]) flags |= region_flags[g];
    flags |= (t->vertex_color_threshold ? SW_TOON_FLAG_VERTEX_THRESHOLD : 0) |
             (t->vertex_color_width ? SW_TOON_FLAG_VERTEX_WIDTH : 0) | (t->back_uv1 ? SW_TOON_FLAG_BACK_UV1 : 0) |
             (t->back_force_dark ? SW_TOON_FLAG_BACK_DARK : 0) | (t->sdf_mirror ? SW_TOON_FLAG_SDF_MIRROR : 0) |
             (sw__is_mtoon(t) ? SW_TOON_FLAG_MTOON : 0) | SW_TOON_FLAG_SHADOW;
    m->toon_flags = flags;
    m->toon_gbuffer_flags = (m->toon_textures[SW_MATERIAL_SLOT_NORMAL] ? SW_GBUFFER_FLAG_NORMAL_TEXTURE : 0) |
                            (m->core->double_sided ? SW_GBUFFER_FLAG_DOUBLE_SIDED : 0);
}

/* The toon half of a block: the values of the toon data t, the outline's
   width for this renderer's image height. */
static void sw__toon_values(const sw_renderer* r, const sw_toon_material* t, sw__material_block* b) {
    b->kind = (int32_t)t->kind;
    const float shadow_area[4] = {t->light_area, t->ramp_width, t->detail_gate, t->fade};
    memcpy(b->shadow_area, shadow_area, sizeof shadow_area);
    const int32_t uv_sets[4] = {t->control_texture.texcoord == 1, t->detail_normal_texture.texcoord == 1,
                                t->face_sdf_texture.texcoord == 1, t->rim_mask_texture.texcoord == 1};
    memcpy(b->toon_uv_sets, uv_sets, sizeof uv_sets);
    const float uv_animation[3] = {t->uv_scroll[0], t->uv_scroll[1], t->uv_rotation};
    memcpy(b->uv_animation, uv_animation, sizeof uv_animation);
    const int glints = t->glint_count < 0 ? 0 : t->glint_count > 2 ? 2 : t->glint_count;
    for (int j = 0; j < glints; j++) {
        const sw_toon_glint* g = &t->glints[j];
        const float a[4] = {g->grid, g->spot_scale, g->phase_rate, g->active_width};
        const float p[4] = {g->intensity, g->luma_lerp, g->camera_scale, 0.0f};
        memcpy(b->glint[j], a, sizeof a), memcpy(b->glint_params[j], p, sizeof p);
        memcpy(b->glint_color[j], g->color, sizeof g->color);
    }
    b->glint_count = glints;
    for (int k = 0; k < 2; k++) {
        const float band[4] = {t->band_exponent[k], t->band_lower[k], t->band_upper[k], t->band_intensity[k]};
        memcpy(b->hair_band[k], band, sizeof band);
        memcpy(b->hair_band_color[k], t->band_color[k], sizeof t->band_color[k]);
    }
    b->view_lift = t->view_lift;
    memcpy(b->rim_color, t->rim_color, sizeof t->rim_color);
    const float rim[3] = {t->rim_width, t->rim_power, t->rim_lift};
    memcpy(b->rim, rim, sizeof rim);
    b->face[0] = t->sdf_steepness, b->face[1] = t->sdf_offset;
    memcpy(b->outline_color, t->outline_color, sizeof t->outline_color);
    const float iris[3] = {t->matcap_mix, t->parallax_height, t->iris_radius};
    memcpy(b->iris, iris, sizeof iris);
    b->outline_world = t->outline_world ? t->outline_world_width : 0.0f;
    b->gi_equalization = t->gi_equalization;
    const float shade[4] = {t->shade_color[0], t->shade_color[1], t->shade_color[2], t->shading_shift_texture.scale};
    memcpy(b->shade_color, shade, sizeof shade);
    const float mtoon[4] = {t->shading_shift, t->shading_toony, t->rim_lighting_mix, t->outline_lighting_mix};
    memcpy(b->mtoon, mtoon, sizeof mtoon);
    memcpy(b->matcap_color, t->matcap_color, sizeof t->matcap_color);
    const struct { const sw_model_texture_ref* ref; int entry; } maps[] = {
        {&t->rim_mask_texture, SW_MATERIAL_UV_RIM_MASK},
        {&t->shade_multiply_texture, SW_MATERIAL_UV_SHADE_MULTIPLY},
        {&t->shading_shift_texture, SW_MATERIAL_UV_SHADING_SHIFT},
        {&t->outline_width_texture, SW_MATERIAL_UV_OUTLINE_WIDTH},
        {&t->uv_animation_mask_texture, SW_MATERIAL_UV_ANIMATION_MASK},
        {&t->matcap_texture, SW_MATERIAL_UV_MATCAP},
    };
    for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++) sw__uv_entry(maps[i].ref, b, maps[i].entry);
    b->fold_mask = (int32_t)t->fold_tag_mask;
    b->fold_uv_set = t->fold_uv_set;
    /* Width in pixels at 1080 lines, scaled to this image's height, and
       never thinner than a pixel: below that the hull breaks into dots
       that edge AA and TAA can only smear. */
    const float outline_pixels = t->outline_width * (float)r->height / 1080.0f;
    const float outline[4] = {outline_pixels > 0.0f ? fmaxf(outline_pixels, 1.0f) : 0.0f, t->outline_max_distance,
                              (float)r->width, (float)r->height};
    memcpy(b->outline, outline, sizeof outline);
}

/* The toon data material m draws with when it draws toon. */
static const sw_toon_material* sw__drawn_toon(const sw__material* m) { return m->toon.present ? &m->toon : &m->derived; }

/* Material m's ramp, textures, flags and block, from its toon data. */
static sw_result sw__build_material(sw_renderer* r, sw__material* m, sw_diag* diag) {
    const sw_toon_material* t = sw__drawn_toon(m);
    glDeleteTextures(1, &m->ramp);
    m->ramp = sw__ramp_texture(r, t);
    sw__material_block b;
    memset(&b, 0, sizeof b);
    sw__gbuffer_values(r, m, &b);
    sw__toon_values(r, t, &b);
    /* The toon pass's normal map and its scale: the toon normal map (B glint
       mask, A hair tier) replaces the core one. */
    sw_model_texture_ref toon_normal = m->core->normal_texture;
    if (t->normal_texture.texture >= 0 && (size_t)t->normal_texture.texture < r->asset->texture_count)
        toon_normal = t->normal_texture;
    sw__uv_entry(&toon_normal, &b, SW_MATERIAL_UV_TOON_NORMAL);
    b.toon_normal_scale = toon_normal.scale;
    sw__toon_textures(r, m, t);
    m->values = b;
    if (!m->block) glGenBuffers(1, &m->block);
    glBindBuffer(GL_UNIFORM_BUFFER, m->block);
    glBufferData(GL_UNIFORM_BUFFER, sizeof b, &b, GL_STATIC_DRAW);
    glBindBuffer(GL_UNIFORM_BUFFER, 0);
    return sw_gl_check("making a material block", diag);
}

GLuint sw__ground_block(void) {
    sw__material_block b;
    memset(&b, 0, sizeof b);
    const sw_model_texture_ref none = {.texture = -1};
    for (int e = 0; e < SW_MATERIAL_UV_COUNT; e++) sw__uv_entry(&none, &b, e);
    const float base[4] = {0.42f, 0.43f, 0.45f, 1.0f};
    memcpy(b.base_color, base, sizeof base);
    b.metallic_roughness[0] = 0.0f, b.metallic_roughness[1] = 0.9f;
    b.normal_scale = b.toon_normal_scale = 1.0f;
    b.alpha_cutoff = -1.0f;
    b.class_id = SW_CLASS_GROUND;
    GLuint block;
    glGenBuffers(1, &block);
    glBindBuffer(GL_UNIFORM_BUFFER, block);
    glBufferData(GL_UNIFORM_BUFFER, sizeof b, &b, GL_STATIC_DRAW);
    glBindBuffer(GL_UNIFORM_BUFFER, 0);
    return block;
}

/* Whether `name` is `word`, or ends with it, ignoring ASCII case. */
static bool sw__name_ends_with(const char* name, const char* word, bool exact) {
    if (!name) return false;
    size_t n = strlen(name), w = strlen(word);
    if (n < w || (exact && n != w)) return false;
    for (size_t i = 0; i < w; i++) {
        char c = name[n - w + i];
        if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
        if (c != word[i]) return false;
    }
    return true;
}

/* The head joint for face materials whose head_node is -1: the node named
   "head" (any case), else the first whose name ends in "head". */
static int32_t sw__find_head(const sw_model* a) {
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < a->node_count; i++)
            if (sw__name_ends_with(a->nodes[i].name, "head", pass == 0)) return (int32_t)i;
    return -1;
}

sw_result sw__prepare_materials(sw_renderer* r, const sw_material_set* set, sw_diag* diag) {
    const sw_model* a = r->asset;
    const size_t count = a->material_count;
    r->material_set = set;
    sw_result res = sw__upload_textures(r, diag);
    if (res != SW_OK) return res;
    r->materials = (sw__material*)sw__calloc(count + 1, sizeof(sw__material));
    if (!r->materials) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for %zu materials", count);
    for (size_t i = 0; i <= count && res == SW_OK; i++) {
        sw__material* m = &r->materials[i];
        m->core = i < count ? &a->materials[i] : &sw__fallback_material;
        if (set && i < count) m->toon = set->toon[i];
        else sw_toon_defaults(SW_TOON_BODY, &m->toon);
        sw_toon_derive(m->core, &m->derived);
        res = sw__build_material(r, m, diag);
    }
    r->head_node = sw__find_head(a);
    return res;
}

/* The helpers above read the scene's model, set and textures from the
   renderer: a stage model's are put in their place while its materials
   are made, then the scene's are put back. */
sw_result sw__prepare_model_materials(sw_renderer* r, const sw_model* model, const sw_material_set* set, size_t base,
                                      GLuint** out_textures, sw_diag* diag) {
    const sw_model* scene_asset = r->asset;
    const sw_material_set* scene_set = r->material_set;
    GLuint* scene_textures = r->textures;
    r->asset = model, r->material_set = set, r->textures = NULL;
    sw_result res = sw__upload_textures(r, diag);
    *out_textures = r->textures;
    for (size_t i = 0; i < model->material_count && res == SW_OK; i++) {
        sw__material* m = &r->materials[base + i];
        memset(m, 0, sizeof *m);
        m->core = &model->materials[i];
        if (set) m->toon = set->toon[i];
        else sw_toon_defaults(SW_TOON_BODY, &m->toon);
        sw_toon_derive(m->core, &m->derived);
        res = sw__build_material(r, m, diag);
        if (res == SW_OK && m->values.class_id == SW_CLASS_LIT) {
            /* A stage's lit surfaces: lit as LIT, and decals land on them. */
            m->values.class_id = SW_CLASS_STAGE;
            glBindBuffer(GL_UNIFORM_BUFFER, m->block);
            glBufferData(GL_UNIFORM_BUFFER, sizeof m->values, &m->values, GL_STATIC_DRAW);
            glBindBuffer(GL_UNIFORM_BUFFER, 0);
        }
    }
    r->asset = scene_asset, r->material_set = scene_set, r->textures = scene_textures;
    return res;
}

void sw__clear_model_materials(sw_renderer* r, const sw_model* model, size_t base, GLuint* textures) {
    for (size_t i = 0; textures && i < model->texture_count; i++)
        if (textures[i]) glDeleteTextures(1, &textures[i]), r->stats.textures--;
    sw__free(textures);
    for (size_t i = 0; r->materials && i < model->material_count; i++) {
        sw__material* m = &r->materials[base + i];
        glDeleteTextures(1, &m->ramp);
        glDeleteBuffers(1, &m->block);
        glDeleteBuffers(1, &m->override_block);
        memset(m, 0, sizeof *m);
    }
}

void sw__clear_materials(sw_renderer* r) {
    if (r->asset && r->textures) {
        for (size_t i = 0; i < r->asset->texture_count; i++)
            if (r->textures[i]) glDeleteTextures(1, &r->textures[i]);
    }
    sw__free(r->textures);
    r->textures = NULL;
    for (size_t i = 0; r->asset && r->materials && i <= r->asset->material_count; i++) {
        glDeleteTextures(1, &r->materials[i].ramp);
        glDeleteBuffers(1, &r->materials[i].block);
        glDeleteBuffers(1, &r->materials[i].override_block);
    }
    sw__free(r->materials);
    r->materials = NULL;
    r->material_set = NULL;
    r->head_node = -1;
}

sw_result sw__set_material_toon(sw_renderer* r, size_t m, const sw_toon_material* toon, sw_diag* diag) {
    r->materials[m].toon = *toon;
    return sw__build_material(r, &r->materials[m], diag);
}

/* uv' = uv · scale + offset after entry e's own transform: O · T, the
   column-major 3×3 T's rows 0 and 1 scaled and moved by its row 2. */
static void sw__uv_after(sw__material_block* b, int e, const float scale[2], const float offset[2]) {
    for (int column = 0; column < 3; column++) {
        float* c = b->uv_transform[e][column];
        c[0] = scale[0] * c[0] + offset[0] * c[2];
        c[1] = scale[1] * c[1] + offset[1] * c[2];
    }
}

sw_result sw__apply_overrides(sw_renderer* r, const sw_render_frame* f, sw_diag* diag) {
    const size_t count = r->asset->material_count;
    for (size_t i = 0; i <= count; i++) r->materials[i].overridden = false;
    const sw_render_frame_avatar* a = &f->avatar;
    if (a->material_override_count && !a->material_overrides)
        return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "%zu material overrides and no array",
                           a->material_override_count);
    /* The textures three-vrm's texture-transform bind moves: MToon's base
       colour, normal, emissive, shade, rim, outline width and animation
       mask; a standard material's base colour, emissive, normal and
       metallic-roughness. Not the occlusion, shading shift or matcap. */
    static const int moved[] = {SW_MATERIAL_SLOT_BASE_COLOR,    SW_MATERIAL_SLOT_NORMAL,
                                SW_MATERIAL_SLOT_METALLIC_ROUGHNESS, SW_MATERIAL_SLOT_EMISSIVE,
                                SW_MATERIAL_UV_TOON_NORMAL,     SW_MATERIAL_UV_RIM_MASK,
                                SW_MATERIAL_UV_SHADE_MULTIPLY,  SW_MATERIAL_UV_OUTLINE_WIDTH,
                                SW_MATERIAL_UV_ANIMATION_MASK};
    for (size_t k = 0; k < a->material_override_count; k++) {
        const sw_render_material_override* o = &a->material_overrides[k];
        if (o->material >= count)
            return sw_diag_set(diag, SW_ERR_INDEX_OUT_OF_RANGE, (int64_t)k,
                               "material override %zu: material %u (the model has %zu)", k, o->material, count);
        sw__material* m = &r->materials[o->material];
        if (m->overridden)
            return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, (int64_t)k,
                               "material override %zu: material %u has an override already", k, o->material);
        sw__material_block b = m->values;
        const uint32_t fl = o->fields;
        if (fl & SW_RENDER_OVERRIDE_BASE_COLOR) memcpy(b.base_color, o->base_color, sizeof b.base_color);
        if (fl & SW_RENDER_OVERRIDE_EMISSIVE) memcpy(b.emissive, o->emissive, sizeof b.emissive);
        if (fl & SW_RENDER_OVERRIDE_SHADE_COLOR) memcpy(b.shade_color, o->shade_color, sizeof o->shade_color);
        if (fl & SW_RENDER_OVERRIDE_MATCAP_COLOR) memcpy(b.matcap_color, o->matcap_color, sizeof o->matcap_color);
        if (fl & SW_RENDER_OVERRIDE_RIM_COLOR) memcpy(b.rim_color, o->rim_color, sizeof o->rim_color);
        if (fl & SW_RENDER_OVERRIDE_OUTLINE_COLOR) memcpy(b.outline_color, o->outline_color, sizeof o->outline_color);
        if (fl & SW_RENDER_OVERRIDE_UV_TRANSFORM)
            for (size_t e = 0; e < sizeof moved / sizeof moved[0]; e++) sw__uv_after(&b, moved[e], o->uv_scale, o->uv_offset);
        if (!m->override_block) glGenBuffers(1, &m->override_block);
        glBindBuffer(GL_UNIFORM_BUFFER, m->override_block);
        glBufferData(GL_UNIFORM_BUFFER, sizeof b, &b, GL_STREAM_DRAW);
        m->overridden = true;
    }
    glBindBuffer(GL_UNIFORM_BUFFER, 0);
    return sw_gl_check("overriding materials", diag);
}

const sw_toon_material* sw__toon_of(const sw_renderer* r, const sw__draw* d, sw_render_style style) {
    if (style == SW_RENDER_STYLE_PBR || !r->materials) return NULL;
    const sw__material* m = &r->materials[d->material];
    if (m->toon.present) return &m->toon;
    if (style == SW_RENDER_STYLE_TOON && !m->core->unlit) return &m->derived;
    return NULL;
}

bool sw__may_outline(const sw_renderer* r, const sw__draw* d) {
    const sw__material* m = &r->materials[d->material];
    return sw__drawn_toon(m)->outline;
}

/* The unit axes of a world matrix (right, up, forward) and its origin. */
static void sw__node_frame(const sw_mat34* m, float axes[3][3], float origin[3]) {
    for (int c = 0; c < 3; c++) {
        sw_vec3 a = sw_vec3_make(m->m[0][c], m->m[1][c], m->m[2][c]);
        float length = sw_vec3_length(a);
        a = length > 1e-12f ? sw_vec3_scale(a, 1.0f / length) : sw_vec3_make(c == 0, c == 1, c == 2);
        axes[c][0] = a.x, axes[c][1] = a.y, axes[c][2] = a.z;
        origin[c] = m->m[c][3];
    }
}

void sw__head_frame(const sw_renderer* r, const sw__draw* d, const sw_pose* pose, const sw_toon_material* t,
                    float axes[3][3], float origin[3]) {
    if (sw__draw_is_stage(d)) { /* a stage model has no head: the draw's own node */
        const sw_mat34 m = sw__stage_node_world(r, d);
        sw__node_frame(&m, axes, origin);
        return;
    }
    int32_t head = t->head_node >= 0 && (size_t)t->head_node < r->asset->node_count ? t->head_node : r->head_node;
    if (head < 0) head = (int32_t)d->node;
    const sw_mat34 m = r->placed ? sw_mat34_mul(&r->placement, &pose->world[head]) : pose->world[head];
    sw__node_frame(&m, axes, origin);
}

bool sw__folds(const sw__draw* d, const sw_toon_material* t) {
    return t->fold_tag_mask != 0 && t->fold_uv_set >= 0 && t->fold_uv_set < d->prim->texcoord_count &&
           t->fold_uv_set <= 1;
}
