/* An OpenGL 4.3+ core context without a window, through EGL (see sinew/gpu.h).
   Functions come from libepoxy, which resolves them for whichever EGL
   driver answers: Mesa's llvmpipe on a machine without a GPU, the vendor's
   driver on one with a GPU. */
#include "sinew/gpu.h"

#include <dlfcn.h>
#include <epoxy/egl.h>
#include <epoxy/gl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../base/base_internal.h"

struct sw_gl_context {
    EGLDisplay display;
    EGLContext context;
    const char* platform;
    int gl_major, gl_minor;
};

static const char* sw__egl_error_name(EGLint error) {
    switch (error) {
    case EGL_SUCCESS: return "EGL_SUCCESS";
    case EGL_NOT_INITIALIZED: return "EGL_NOT_INITIALIZED";
    case EGL_BAD_ACCESS: return "EGL_BAD_ACCESS";
    case EGL_BAD_ALLOC: return "EGL_BAD_ALLOC";
    case EGL_BAD_ATTRIBUTE: return "EGL_BAD_ATTRIBUTE";
    case EGL_BAD_CONFIG: return "EGL_BAD_CONFIG";
    case EGL_BAD_CONTEXT: return "EGL_BAD_CONTEXT";
    case EGL_BAD_DISPLAY: return "EGL_BAD_DISPLAY";
    case EGL_BAD_MATCH: return "EGL_BAD_MATCH";
    case EGL_BAD_PARAMETER: return "EGL_BAD_PARAMETER";
    case EGL_BAD_SURFACE: return "EGL_BAD_SURFACE";
    default: return "EGL error";
    }
}

/* The log of what was tried, for the message when nothing works. */
typedef struct sw__attempts {
    char text[768];
    size_t length;
    bool any_display; /* some platform gave a display (a driver exists) */
} sw__attempts;

static void sw__note(sw__attempts* log, const char* platform, const char* what) {
    int n = snprintf(log->text + log->length, sizeof log->text - log->length, "%s%s: %s",
                     log->length ? "; " : "", platform, what);
    if (n > 0) log->length += (size_t)n < sizeof log->text - log->length ? (size_t)n : sizeof log->text - log->length - 1;
}

static void sw__note_egl(sw__attempts* log, const char* platform, const char* step) {
    char what[128];
    snprintf(what, sizeof what, "%s failed (%s)", step, sw__egl_error_name(eglGetError()));
    sw__note(log, platform, what);
}

static void APIENTRY sw__debug_message(GLenum source, GLenum type, GLuint id, GLenum severity, GLsizei length,
                                       const GLchar* message, const void* user) {
    (void)source, (void)id, (void)length, (void)user;
    if (severity == GL_DEBUG_SEVERITY_NOTIFICATION) return;
    fprintf(stderr, "sinew: GL %s: %s\n", type == GL_DEBUG_TYPE_ERROR ? "error" : "debug", message);
}

/* Initialises `display`, then makes a 4.3 (or newer) core context current on
   it. Returns false (with a note) when any step fails. */
static bool sw__try_display(sw_gl_context* ctx, EGLDisplay display, const char* platform, bool debug,
                            sw__attempts* log) {
    if (display == EGL_NO_DISPLAY) {
        sw__note_egl(log, platform, "no display");
        return false;
    }
    log->any_display = true;
    EGLint major = 0, minor = 0;
    if (!eglInitialize(display, &major, &minor)) {
        sw__note_egl(log, platform, "eglInitialize");
        return false;
    }
    if (!eglBindAPI(EGL_OPENGL_API)) {
        sw__note_egl(log, platform, "eglBindAPI(EGL_OPENGL_API)");
        eglTerminate(display);
        return false;
    }
    /* No surface: everything renders into framebuffer objects. A config is
       chosen only where the display has one; EGL_KHR_no_config_context
       allows none. */
    EGLConfig config = EGL_NO_CONFIG_KHR;
    const EGLint config_attributes[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_SURFACE_TYPE, 0, EGL_NONE};
    EGLint config_count = 0;
    if (!eglChooseConfig(display, config_attributes, &config, 1, &config_count) || config_count < 1) {
        if (!epoxy_has_egl_extension(display, "EGL_KHR_no_config_context")) {
            sw__note(log, platform, "no OpenGL config and no EGL_KHR_no_config_context");
            eglTerminate(display);
            return false;
        }
        config = EGL_NO_CONFIG_KHR;
    }
    const EGLint context_attributes[] = {
        EGL_CONTEXT_MAJOR_VERSION, 4,
        EGL_CONTEXT_MINOR_VERSION, 3,
        EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
        EGL_CONTEXT_OPENGL_DEBUG, debug ? EGL_TRUE : EGL_FALSE,
        EGL_NONE,
    };
    EGLContext context = eglCreateContext(display, config, EGL_NO_CONTEXT, context_attributes);
    if (context == EGL_NO_CONTEXT) {
        sw__note_egl(log, platform, "eglCreateContext(OpenGL 4.3 core)");
        eglTerminate(display);
        return false;
    }
    if (!eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context)) {
        sw__note_egl(log, platform, "eglMakeCurrent without a surface");
        eglDestroyContext(display, context);
        eglTerminate(display);
        return false;
    }
    int gl_version = epoxy_gl_version();
    if (gl_version < 43) {
        char what[96];
        snprintf(what, sizeof what, "OpenGL %d.%d is below 4.3", gl_version / 10, gl_version % 10);
        sw__note(log, platform, what);
        eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        eglDestroyContext(display, context);
        eglTerminate(display);
        return false;
    }
    ctx->display = display;
    ctx->context = context;
    ctx->platform = platform;
    ctx->gl_major = gl_version / 10;
    ctx->gl_minor = gl_version % 10;
    if (debug) {
        glEnable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
        glDebugMessageCallback(sw__debug_message, NULL);
    }
    return true;
}

static bool sw__try_device(sw_gl_context* ctx, bool debug, sw__attempts* log) {
    if (!epoxy_has_egl_extension(EGL_NO_DISPLAY, "EGL_EXT_platform_device")) {
        sw__note(log, "device", "EGL_EXT_platform_device not offered");
        return false;
    }
    EGLDeviceEXT devices[16];
    EGLint count = 0;
    if (!eglQueryDevicesEXT(16, devices, &count) || count < 1) {
        sw__note_egl(log, "device", "eglQueryDevicesEXT found no device");
        return false;
    }
    /* A hardware device first: Mesa lists its software device too. */
    for (int pass = 0; pass < 2; pass++) {
        for (EGLint i = 0; i < count; i++) {
            const char* extensions = eglQueryDeviceStringEXT(devices[i], EGL_EXTENSIONS);
            bool software = extensions && strstr(extensions, "EGL_MESA_device_software");
            if (software != (pass == 1)) continue;
            EGLDisplay display = eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT, devices[i], NULL);
            if (sw__try_display(ctx, display, "device", debug, log)) return true;
        }
    }
    return false;
}

static bool sw__try_surfaceless(sw_gl_context* ctx, bool debug, sw__attempts* log) {
    if (!epoxy_has_egl_extension(EGL_NO_DISPLAY, "EGL_MESA_platform_surfaceless")) {
        sw__note(log, "surfaceless", "EGL_MESA_platform_surfaceless not offered");
        return false;
    }
    EGLDisplay display = eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    return sw__try_display(ctx, display, "surfaceless", debug, log);
}

static bool sw__try_default(sw_gl_context* ctx, bool debug, sw__attempts* log) {
    return sw__try_display(ctx, eglGetDisplay(EGL_DEFAULT_DISPLAY), "default", debug, log);
}

sw_result sw_gl_context_create(const sw_gl_context_desc* desc, sw_gl_context** out_context, sw_diag* diag) {
    if (!out_context) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "out_context is NULL");
    *out_context = NULL;
    sw_gl_context_desc d = desc ? *desc : (sw_gl_context_desc){0};
    /* libepoxy aborts the process when it cannot load libEGL; look first. */
    void* egl_library = dlopen("libEGL.so.1", RTLD_LAZY | RTLD_LOCAL);
    if (!egl_library)
        return sw_diag_set(diag, SW_ERR_UNSUPPORTED, -1,
                           "no EGL display on this machine (libEGL.so.1 not found: install libegl1 and a driver)");
    dlclose(egl_library);
    sw_gl_context* ctx = (sw_gl_context*)sw__calloc(1, sizeof *ctx);
    if (!ctx) return sw_diag_set(diag, SW_ERR_OUT_OF_MEMORY, -1, "out of memory for the GL context");

    sw__attempts log = {{0}, 0, false};
    bool ok = false;
    switch (d.platform) {
    case SW_GL_PLATFORM_DEVICE: ok = sw__try_device(ctx, d.debug, &log); break;
    case SW_GL_PLATFORM_SURFACELESS: ok = sw__try_surfaceless(ctx, d.debug, &log); break;
    case SW_GL_PLATFORM_DEFAULT: ok = sw__try_default(ctx, d.debug, &log); break;
    default:
        ok = sw__try_device(ctx, d.debug, &log) || sw__try_surfaceless(ctx, d.debug, &log) ||
             sw__try_default(ctx, d.debug, &log);
        break;
    }
    if (!ok) {
        sw__free(ctx);
        if (!log.any_display)
            return sw_diag_set(diag, SW_ERR_UNSUPPORTED, -1, "no EGL display on this machine (tried %s)", log.text);
        return sw_diag_set(diag, SW_ERR_IO, -1, "no OpenGL 4.3 core context through EGL (tried %s)", log.text);
    }
    *out_context = ctx;
    return SW_OK;
}

void sw_gl_context_destroy(sw_gl_context* context) {
    if (!context) return;
    eglMakeCurrent(context->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(context->display, context->context);
    /* No eglTerminate: an EGL display is one per process and device, shared
       by every context made on it, and terminating it would pull it from
       under the others (it also unloads the driver, whose last blocks then
       show up as leaks). */
    eglReleaseThread();
    sw__free(context);
}

sw_result sw_gl_context_make_current(sw_gl_context* context, sw_diag* diag) {
    if (!context) return sw_diag_set(diag, SW_ERR_INVALID_ARGUMENT, -1, "context is NULL");
    if (!eglMakeCurrent(context->display, EGL_NO_SURFACE, EGL_NO_SURFACE, context->context))
        return sw_diag_set(diag, SW_ERR_IO, -1, "eglMakeCurrent failed (%s)", sw__egl_error_name(eglGetError()));
    return SW_OK;
}

void sw_gl_context_get_info(const sw_gl_context* context, sw_gl_context_info* out_info) {
    *out_info = (sw_gl_context_info){0};
    if (!context) return;
    out_info->platform = context->platform;
    out_info->egl_vendor = eglQueryString(context->display, EGL_VENDOR);
    out_info->gl_version = (const char*)glGetString(GL_VERSION);
    out_info->gl_renderer = (const char*)glGetString(GL_RENDERER);
    out_info->gl_vendor = (const char*)glGetString(GL_VENDOR);
    out_info->gl_major = context->gl_major;
    out_info->gl_minor = context->gl_minor;
}

static const char* sw__gl_error_name(GLenum error) {
    switch (error) {
    case GL_INVALID_ENUM: return "GL_INVALID_ENUM";
    case GL_INVALID_VALUE: return "GL_INVALID_VALUE";
    case GL_INVALID_OPERATION: return "GL_INVALID_OPERATION";
    case GL_INVALID_FRAMEBUFFER_OPERATION: return "GL_INVALID_FRAMEBUFFER_OPERATION";
    case GL_OUT_OF_MEMORY: return "GL_OUT_OF_MEMORY";
    case GL_STACK_OVERFLOW: return "GL_STACK_OVERFLOW";
    case GL_STACK_UNDERFLOW: return "GL_STACK_UNDERFLOW";
    default: return "GL error";
    }
}

/* The info log of a shader or program, on one line. */
static void sw__gl_log(GLuint object, bool program, char* log, GLsizei size) {
    log[0] = '\0';
    if (program) glGetProgramInfoLog(object, size, NULL, log);
    else glGetShaderInfoLog(object, size, NULL, log);
    for (char* c = log; *c; c++)
        if (*c == '\n' || *c == '\r') *c = ' ';
}

sw_result sw_gl_compile_shader(unsigned stage, int count, const char* const* sources, const char* name,
                               uint32_t* out_shader, sw_diag* diag) {
    GLuint shader = glCreateShader((GLenum)stage);
    glShaderSource(shader, count, sources, NULL);
    glCompileShader(shader);
    GLint ok = 0;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[1024];
        sw__gl_log(shader, false, log, (GLsizei)sizeof log);
        glDeleteShader(shader);
        return sw_diag_set(diag, SW_ERR_IO, -1, "compiling %s failed: %s", name, log);
    }
    *out_shader = shader;
    return SW_OK;
}

sw_result sw_gl_link_program(uint32_t program, const char* name, sw_diag* diag) {
    glLinkProgram(program);
    GLint ok = 0;
    glGetProgramiv(program, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[1024];
        sw__gl_log(program, true, log, (GLsizei)sizeof log);
        glDeleteProgram(program);
        return sw_diag_set(diag, SW_ERR_IO, -1, "linking %s failed: %s", name, log);
    }
    return SW_OK;
}

sw_result sw_gl_check(const char* what, sw_diag* diag) {
    GLenum first = glGetError();
    if (first == GL_NO_ERROR) return SW_OK;
    /* Drain the flags so the next check starts clean. */
    for (int i = 0; i < 16 && glGetError() != GL_NO_ERROR; i++) {
    }
    return sw_diag_set(diag, first == GL_OUT_OF_MEMORY ? SW_ERR_OUT_OF_MEMORY : SW_ERR_IO, -1, "%s: %s", what,
                       sw__gl_error_name(first));
}
