/* post_chain.h — the renderer's post chain (docs/post.md): after the
   lighting pass, in the order of the frame analysis, motion blur and bloom
   on the HDR target, display mapping (ACES fit, sRGB), edge AA and TAA on
   display-referred values, into the renderer's RGBA8 image. renderer.c
   owns the G-buffer and hands its targets over; the chain owns its own
   targets, programs and the TAA history kept between frames, made with
   gl_objects.h (it calls nothing else of the renderer's). Not a public
   header; every function needs the GL context current. */
#ifndef SINEW_RENDER_POST_CHAIN_H
#define SINEW_RENDER_POST_CHAIN_H

#include <epoxy/gl.h>

#include "sinew/render.h"
#include "gl_objects.h"

/* Parameters, the one place they are written (docs/post.md says why). */
#define SW_POST_BLOOM_THRESHOLD 1.0f      /* linear HDR luminance where bloom starts */
#define SW_POST_BLOOM_KNEE 0.5f           /* soft knee: the ramp from threshold − knee */
#define SW_POST_BLOOM_STRENGTH 0.06f      /* how much of the blurred bright part is added */
#define SW_POST_BLUR_SHUTTER 0.5f         /* a 180° shutter: half a frame's motion */
#define SW_POST_EDGE_THRESHOLD 0.1f       /* luma step (Rec. 709 weights, display values) */
#define SW_POST_TAA_PHASES 8u             /* Halton(2,3) jitter phases */
#define SW_POST_TAA_SHARPNESS 0.45f       /* s of the 5-tap history filter */
#define SW_POST_TAA_CAP_STILL 12.0f       /* accumulated frames at most, still */
#define SW_POST_TAA_CAP_MOVING 2.0f       /* ... and at SW_POST_TAA_MOVING_PIXELS of motion */
#define SW_POST_TAA_MOVING_PIXELS 4.0f
#define SW_POST_TAA_RETENTION_STEP 0.125f /* retention lost per frame: 8 frames */

/* The renderer's targets the chain reads, and the image it writes. */
typedef struct sw__post_inputs {
    GLuint hdr, normal, albedo, classes, motion, depth; /* textures */
    GLuint image, image_fbo;                            /* RGBA8 result and its framebuffer */
    GLuint empty_vao;
    GLuint ao; /* the AO target (the AO view) */
} sw__post_inputs;

typedef struct sw__post_chain sw__post_chain;

sw_result sw__post_chain_create(int width, int height, sw__post_chain** out_chain, sw_diag* diag);
void sw__post_chain_destroy(sw__post_chain* chain);

/* Applies this frame's TAA jitter to the view-projection matrices the
   scene is drawn with (column-major, in place): the same clip-space shift
   on both, so motion vectors stay un-jittered. Nothing without TAA or for
   a debug view. */
void sw__post_chain_jitter(const sw__post_chain* chain, const sw_render_frame* frame, float view_projection[16],
                           float previous_view_projection[16]);

/* Runs the chain for a drawn frame into inputs->image. A debug view
   (frame->debug.view ≠ shaded) only maps the G-buffer to the image and makes the
   next TAA frame start over. */
sw_result sw__post_chain_run(sw__post_chain* chain, const sw_render_frame* frame, const sw__post_inputs* inputs,
                             sw_diag* diag);

/* The TAA state of the last frame: (retention, accumulation / 12) per
   pixel, rows bottom to top, width × height × 2 floats. */
sw_result sw__post_chain_read_state(const sw__post_chain* chain, float* out, sw_diag* diag);

#endif
