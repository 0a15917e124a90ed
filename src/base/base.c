/* Results, diagnostics, allocation helpers (see sinew/base.h). */
#include "sinew/base.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef SW_BUILD_FLAVOUR
#define SW_BUILD_FLAVOUR "unknown"
#endif

static const char* const sw__result_text[] = {
#define SW__RESULT_TEXT(name, text) text,
    SW_RESULT_LIST(SW__RESULT_TEXT)
#undef SW__RESULT_TEXT
};

const char* sw_result_str(sw_result result) {
    if ((unsigned)result >= (unsigned)SW_RESULT_COUNT) return "unknown result";
    return sw__result_text[result];
}

sw_result sw_diag_set(sw_diag* diag, sw_result result, int64_t index, const char* format, ...) {
    if (diag) {
        diag->result = result;
        diag->index = index;
        va_list args;
        va_start(args, format);
        vsnprintf(diag->message, sizeof diag->message, format, args);
        va_end(args);
    }
    return result;
}

bool sw_mul_size(size_t count, size_t size, size_t* out_bytes) {
    if (size != 0 && count > SIZE_MAX / size) {
        *out_bytes = 0;
        return false;
    }
    *out_bytes = count * size;
    return true;
}

const char* sw_build_info(void) {
#if defined(SW_NO_SIMD) || !(defined(__x86_64__) || defined(__i386__))
    return SW_BUILD_FLAVOUR ", scalar kernels";
#else
    return SW_BUILD_FLAVOUR ", scalar/sse2/avx2 kernels (chosen at run time)";
#endif
}
