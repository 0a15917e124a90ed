/* weather.h — falling snow (weather.c; docs/weather.md): where every flake
   is at a given time, how transparent its soft disc is, how it is lit. No
   GL: the tests call these directly; the renderer (weather_pass.c) places
   the flakes with them on the CPU, sorts them back to front and draws
   them as camera-facing quads (shaders/weather.vert, weather.frag, which
   mirror the disc and the light). Not a public header.

   A flake's position is a pure function of (seed, index, time, wind, the
   camera's eye): no state is kept between frames, so any time renders the
   same flakes, forwards, backwards or alone. Each flake has a home point
   in a cube of side SW__WEATHER_BOX; it falls at its own speed, drifts with
   the wind and sways on a small horizontal circle; the point is wrapped
   modulo the cube into the cube centred on the eye, so the snow never runs
   out wherever the camera goes. */
#ifndef SINEW_RENDER_WEATHER_H
#define SINEW_RENDER_WEATHER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "render_interface.h"

#define SW__WEATHER_BOX 20.0f            /* metres: the cube of flakes around the eye */
#define SW__WEATHER_DEFAULT_DENSITY 3.0f /* flakes per m³: 24000 in the cube */
#define SW__WEATHER_MAX_DENSITY 8.0f     /* 64000 flakes */
#define SW__WEATHER_FALL_SPEED 1.0f      /* m/s, the middle speed of the three */
#define SW__WEATHER_SWAY_RADIUS 0.15f    /* metres */
#define SW__WEATHER_FLAKE_RADIUS 0.015f  /* metres: a flake is a disc 3 cm across */
#define SW__WEATHER_MIN_RADIUS_PX 1.0f   /* smaller flakes are drawn this big, fainter */
#define SW__WEATHER_CORE_ALPHA (SW_WEATHER_CORE_ALPHA_PERCENT / 100.0f) /* inside half the radius */
#define SW__WEATHER_ALBEDO (SW_WEATHER_ALBEDO_PERCENT / 100.0f) /* snow: white */
#define SW__WEATHER_SEED 0x5eed5u        /* the flakes every frame draws */

/* The three fall speeds (× SW__WEATHER_FALL_SPEED): flake i falls at
   speed[hash % 3], so neighbours do not move as one sheet. */
extern const float sw__weather_fall_factors[3];

typedef struct sw__weather {
    uint32_t seed;
    float time;      /* seconds */
    float wind[2];   /* m/s along world x and z */
    float eye[3];    /* the cube's centre */
} sw__weather;

/* The number of flakes in the cube for `density` flakes per m³ (clamped to
   0..SW__WEATHER_MAX_DENSITY; not finite: 0). */
size_t sw__weather_count(float density);

/* The four uniform numbers in [0, 1) of flake `index` (a hash of seed and
   index): home x, y, z in the cube and the sway's phase; and which of the
   three fall speeds it has (0..2). */
void sw__weather_flake_random(uint32_t seed, uint32_t index, float u[4], int* speed_class);

/* Where flake `index` is (world metres, in the cube centred on the eye):
     p = home·B + (wind_x·t + r·cos(ωt + φ), −v·t, wind_z·t + r·sin(ωt + φ))
     out = eye − B/2 + ((p − (eye − B/2)) mod B)        (per axis, mod into [0, B))
   with B the cube's side, home = u[0..2], φ = 2π·u[3], v the flake's fall
   speed, r = SW__WEATHER_SWAY_RADIUS, ω = 1.5 rad/s. */
void sw__weather_flake(const sw__weather* w, uint32_t index, float out[3]);

/* A flake's opacity at distance `r` from its centre in units of its drawn
   radius: SW__WEATHER_CORE_ALPHA inside r = 0.5, falling smoothly to 0 at 1
   (smoothstep), times `fade`. */
float sw__weather_disc_alpha(float r, float fade);

/* How big a flake at view depth `depth` is drawn and how faint, for a
   picture of `height` pixels and vertical field of view `fov_y`: the radius
   in pixels is the true one, at least SW__WEATHER_MIN_RADIUS_PX; a flake
   drawn bigger than it is keeps its light by fading with the area ratio
   (true/drawn)². Returns the drawn radius in metres; *fade the factor. */
float sw__weather_drawn_radius(float depth, float fov_y, int height, float* fade);

/* A flake's light (before the air in front of it): white snow lit as a
   tiny card turned to the sun (flakes tumble; their lit faces are what
   shows), with the lighting pass's Lambert and hemisphere terms:
     albedo·(sun·visibility/π + (sky + ground)/2)
   visibility 0..1 the sun's shadow test at the flake. */
void sw__weather_flake_light(const float sun[3], float sun_visibility, const float sky[3], const float ground[3],
                             float out[3]);

#endif
