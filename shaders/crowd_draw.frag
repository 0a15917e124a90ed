// A plain normal-shaded colour: the crowd bench measures the draws, not shading.
in vec3 v_normal;
out vec4 o_colour;

void main() {
    float light = 0.35 + 0.65 * max(dot(normalize(v_normal), normalize(vec3(0.3, 1.0, 0.5))), 0.0);
    o_colour = vec4(vec3(light), 1.0);
}
