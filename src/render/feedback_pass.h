/* feedback_pass.h — the character environment feedback pass on the GPU
   (feedback.comp; the maths in feedback.h; docs/feedback.md): its state
   textures (70×1 RGBA16F, two for ping-pong), the 70×5 samples and the
   compute program. Not a public header. */
#ifndef SINEW_RENDER_FEEDBACK_PASS_H
#define SINEW_RENDER_FEEDBACK_PASS_H

#include <epoxy/gl.h>

#include "sinew/base.h"
#include "feedback.h"
#include "shadow_cache.h"

typedef struct sw__feedback_pass {
    GLuint program;
    GLuint state[2];   /* state[current]: what this frame reads; the pass writes the other */
    GLuint samples;    /* 70×5 */
    int current;
} sw__feedback_pass;

sw_result sw__feedback_pass_create(sw__feedback_pass* pass, sw_diag* diag);
void sw__feedback_pass_destroy(sw__feedback_pass* pass);
/* Back to the reset state (a new scene, or feedback turned off). */
void sw__feedback_pass_reset(sw__feedback_pass* pass);
/* The state this frame's character shading reads (the previous frame's). */
GLuint sw__feedback_pass_state(const sw__feedback_pass* pass);

/* One update: samples around `body` with the camera's view-projection,
   the G-buffer's albedo and class, the shadow atlas and its cascades,
   then swaps (the new state is read from the next frame on). */
void sw__feedback_pass_update(sw__feedback_pass* pass, const sw__feedback_body* body, const float view_projection[16],
                              const float light_direction[3], GLuint albedo, GLuint class_target, GLuint shadow_atlas,
                              const sw__shadow_cache* cascades);

#endif
