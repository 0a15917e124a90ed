// Falling snow (docs/weather.md): a soft round flake, white lit by the sun
// (through its shadow) and the hemisphere ambient, passed through the fog
// volume at its own depth (sw_air), blended over the HDR target with
// src alpha / one minus src alpha. Mirrors sw__weather_disc_alpha and
// sw__weather_flake_light (src/render/weather.c).
in vec2 v_corner;
flat in vec3 v_centre;
flat in float v_fade;

layout(location = SW_GBUFFER_MOTION) out vec4 out_motion;  // alpha 0: the motion stays
layout(location = SW_GBUFFER_EMISSION) out vec4 out_emission;

float sw_weather_disc_alpha(float r, float fade) {
    float x = clamp((r - 0.5) / 0.5, 0.0, 1.0);
    return float(SW_WEATHER_CORE_ALPHA_PERCENT) / 100.0 * (1.0 - x * x * (3.0 - 2.0 * x)) * fade;
}

void main() {
    float alpha = sw_weather_disc_alpha(length(v_corner), v_fade);
    if (alpha <= 0.0) discard;
    vec3 l = normalize(u_light_direction);
    float visibility = sw_shadow(v_centre, l);
    vec3 light = float(SW_WEATHER_ALBEDO_PERCENT) / 100.0 *
                 (u_light_color * visibility / PI + 0.5 * (u_sky_color + u_ground_color));
    out_emission = vec4(sw_air(light, v_centre), alpha);
    out_motion = vec4(0.0);
}
