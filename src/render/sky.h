/* sky.h — the sky's numbers (sky.c, shaders/sky.frag; docs/sky.md): the
   time-of-day model (the sun's direction, the sky's colours), the tables
   the shader reads (a 1024×2 gradient, a 256² noise, a 16×1 star palette)
   and the colour of the sky in one direction after each of its three
   layers, with the layers' blend equations. No GL: the tests call these
   directly and the shader mirrors them line by line. Not a public header. */
#ifndef SINEW_RENDER_SKY_H
#define SINEW_RENDER_SKY_H

#include <stdbool.h>
#include <stdint.h>

#include "render_interface.h"

/* The observer's latitude of the time model (degrees north); the sun's
   declination is 0 (an equinox): it rises in the east at 6:00, stands
   90 − SW__SKY_LATITUDE degrees high in the south at 12:00 and sets in the
   west at 18:00. World axes: +x east, +y up, +z south. */
#define SW__SKY_LATITUDE 45.0f

/* Towards the sun at `hours` (0..24, wrapped): with the hour angle
   H = (hours − 12)·15°, latitude φ:
   (−sin H, cos H·cos φ, cos H·sin φ) = (east, up, south). */
void sw__sky_sun_direction(float hours, float out[3]);

/* Everything the sky of one frame depends on. */
typedef struct sw__sky_params {
    bool timed;              /* false: the default look (no sun, stars or tint) */
    float sun[3];            /* towards the sun (timed) */
    float zenith[3], horizon[3];
    float reach;             /* the sin(elevation) at which the zenith colour is reached */
    float below;             /* the horizon colour's factor far below the horizon */
    float sun_color[3];      /* the disc's radiance; the halo is a fraction of it */
    float moon_color[3];     /* the moon (opposite the sun) */
    float stars;             /* star visibility 0..1 */
    float nebula[3];         /* the nebula layer's gain colour at the band's centre */
    float tint[4];           /* the tint layer's colour and largest alpha */
} sw__sky_params;

/* The parameters at `hours`; a NaN or negative `hours`: the default look,
   the old flat gradient's colours (horizon 0.78, 0.8, 0.84; zenith 0.32,
   0.42, 0.58) along the elevation (smoothstep), the zenith's reached at
   17.5° (sin = 0.3). */
void sw__sky_params_at(float hours, sw__sky_params* out);

/* The scene light's direction (towards it) at `hours`: the sun while it is
   above the horizon, else the moon opposite it. */
void sw__sky_light_direction(float hours, float out[3]);

/* The gradient table, SW_SKY_GRADIENT_WIDTH × 2 texels of RGBA (alpha 1):
   row 0 the sky's colour against u = 0.5 + 0.5·sin(elevation); row 1 the
   sun's and the moon's light (disc and halo) against u = angle to the sun / π. */
void sw__sky_gradient(const sw__sky_params* p, float out[SW_SKY_GRADIENT_WIDTH * 2 * 4]);

/* The noise: SW_SKY_NOISE_SIZE² bytes, a hash of the texel index (the same
   on every machine). */
void sw__sky_noise(uint8_t out[SW_SKY_NOISE_SIZE * SW_SKY_NOISE_SIZE]);

/* The star palette: SW_SKY_PALETTE_SIZE colours (RGBA), blue-white to orange. */
void sw__sky_star_palette(float out[SW_SKY_PALETTE_SIZE * 4]);

/* The tables of one frame, as the shader sees them. */
typedef struct sw__sky_tables {
    float gradient[SW_SKY_GRADIENT_WIDTH * 2 * 4];
    uint8_t noise[SW_SKY_NOISE_SIZE * SW_SKY_NOISE_SIZE];
    float palette[SW_SKY_PALETTE_SIZE * 4];
} sw__sky_tables;

/* Row `row` of the gradient at u, filtered as GL_LINEAR with clamp to edge
   samples it at the row's centre. */
void sw__sky_gradient_sample(const float* gradient, int row, float u, float out[3]);

/* The noise texel a unit direction falls in (octahedral map onto the
   square): its byte; `offset` (may be NULL) receives where in the texel
   the direction falls, −0.5..0.5 on each axis. */
int sw__sky_noise_at(const uint8_t* noise, const float d[3], float offset[2]);

/* The light of the scene at `hours` (NaN or negative: 1, 1, 1 both): a
   factor on the light's colour (sunlight, reddened low, fading to a dim
   blue moonlight at night) and on the hemisphere ambient. */
void sw__sky_light_scale(float hours, float light[3], float ambient[3]);

/* Layer 1, the atmosphere background (overwrites): the gradient, the sun
   and moon, the stars. d: a unit direction. */
void sw__sky_background(const sw__sky_params* p, const sw__sky_tables* t, const float d[3], float out[3]);
/* Layer 2, the nebula's source colour (blended C = C_dst + C_src·C_dst). */
void sw__sky_nebula(const sw__sky_params* p, const float d[3], float out[3]);
/* Layer 3, the tint's colour and alpha (blended C = C_src·α + C_dst·(1 − α)). */
void sw__sky_tint(const sw__sky_params* p, const float d[3], float out[4]);
/* The three layers with their blend equations: the HDR colour of the sky
   in direction d (any length but zero). */
void sw__sky_color(const sw__sky_params* p, const sw__sky_tables* t, const float d[3], float out[3]);

#endif
