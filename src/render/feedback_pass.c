/* The character environment feedback pass (feedback_pass.h). */
#include "feedback_pass.h"

#include "sinew/gpu.h"
#include "gl_objects.h"


static void sw__feedback_upload_reset(GLuint texture) {
    sw__feedback_state reset;
    sw__feedback_reset(&reset);
    glBindTexture(GL_TEXTURE_2D, texture);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, SW_FEEDBACK_COLUMNS, 1, GL_RGBA, GL_FLOAT, reset.column);
}

sw_result sw__feedback_pass_create(sw__feedback_pass* pass, sw_diag* diag) {
    *pass = (sw__feedback_pass){0};
    const char* sources[4] = {"#version 430 core\n#line 1 1\n", sw_shader_render_interface_h, "\n#line 1 2\n",
                              sw_shader_feedback_comp};
    GLuint shader = 0;
    sw_result res = sw_gl_compile_shader(GL_COMPUTE_SHADER, 4, sources, "feedback", &shader, diag);
    if (res != SW_OK) return res;
    pass->program = glCreateProgram();
    glAttachShader(pass->program, shader);
    res = sw_gl_link_program(pass->program, "feedback", diag);
    glDeleteShader(shader);
    if (res != SW_OK) {
        glDeleteProgram(pass->program);
        pass->program = 0;
        return res;
    }
    for (int i = 0; i < 2; i++) pass->state[i] = sw__texture2d(GL_RGBA16F, SW_FEEDBACK_COLUMNS, 1, GL_NEAREST);
    pass->samples = sw__texture2d(GL_RGBA16F, SW_FEEDBACK_COLUMNS, SW_FEEDBACK_SAMPLES, GL_NEAREST);
    sw__feedback_pass_reset(pass);
    return sw_gl_check("creating the feedback pass", diag);
}

void sw__feedback_pass_destroy(sw__feedback_pass* pass) {
    if (pass->program) glDeleteProgram(pass->program);
    glDeleteTextures(2, pass->state);
    glDeleteTextures(1, &pass->samples);
    *pass = (sw__feedback_pass){0};
}

void sw__feedback_pass_reset(sw__feedback_pass* pass) {
    /* Both, so that whichever is read first holds the reset state. */
    for (int i = 0; i < 2; i++)
        if (pass->state[i]) sw__feedback_upload_reset(pass->state[i]);
    pass->current = 0;
}

GLuint sw__feedback_pass_state(const sw__feedback_pass* pass) { return pass->state[pass->current]; }

void sw__feedback_pass_update(sw__feedback_pass* pass, const sw__feedback_body* body, const float view_projection[16],
                              const float light_direction[3], GLuint albedo, GLuint class_target, GLuint shadow_atlas,
                              const sw__shadow_cache* cascades) {
    glUseProgram(pass->program);
    glUniform4f(SW_FEEDBACK_LOC_BODY, body->feet[0], body->feet[1], body->feet[2], body->height);
    glUniform1f(SW_FEEDBACK_LOC_RADIUS, body->radius);
    glUniformMatrix4fv(SW_FEEDBACK_LOC_VIEW_PROJECTION, 1, GL_FALSE, view_projection);
    glUniform3fv(SW_FEEDBACK_LOC_LIGHT_DIRECTION, 1, light_direction);
    sw__shadow_cascade_uniforms(cascades, SW_FEEDBACK_LOC_CASCADE_COUNT, SW_FEEDBACK_LOC_CASCADE_VIEW_PROJECTION,
                                SW_FEEDBACK_LOC_CASCADE_RECT);
    glActiveTexture(GL_TEXTURE0 + SW_FEEDBACK_UNIT_ALBEDO);
    glBindTexture(GL_TEXTURE_2D, albedo);
    glActiveTexture(GL_TEXTURE0 + SW_FEEDBACK_UNIT_CLASS);
    glBindTexture(GL_TEXTURE_2D, class_target);
    glActiveTexture(GL_TEXTURE0 + SW_FEEDBACK_UNIT_SHADOW);
    glBindTexture(GL_TEXTURE_2D, shadow_atlas);
    const int next = 1 - pass->current;
    glBindImageTexture(SW_FEEDBACK_IMAGE_PREVIOUS, pass->state[pass->current], 0, GL_FALSE, 0, GL_READ_ONLY, GL_RGBA16F);
    glBindImageTexture(SW_FEEDBACK_IMAGE_NEXT, pass->state[next], 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA16F);
    glBindImageTexture(SW_FEEDBACK_IMAGE_SAMPLES, pass->samples, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA16F);
    glDispatchCompute(SW_FEEDBACK_COLUMNS, 1, 1);
    /* The next frame's lighting reads the new state through a sampler. */
    glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
    pass->current = next;
}
