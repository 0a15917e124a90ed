/* Normalised-integer decoding (glTF 2.0 §3.11) against the formulas evaluated in double, for every u8 and u16 value. */
#include "harness.h"
#include "sinew/math.h"

/* (float)(c / 255) correctly rounded: computing in double and rounding once
   to float is exact here (53 ≥ 2·24 + 2 bits, so no double-rounding error). */
static void test_unorm8_every_value(void) {
    int mismatches = 0;
    for (int c = 0; c < 256; c++) {
        float expected = (float)((double)c / 255.0);
        if (sw_unorm8_to_float((uint8_t)c) != expected) mismatches++;
    }
    SW_CHECK_EQ_INT(mismatches, 0);
    SW_CHECK(sw_unorm8_to_float(0) == 0.0f);
    SW_CHECK(sw_unorm8_to_float(255) == 1.0f);
    SW_CHECK(sw_unorm8_to_float(51) == 0.2f);
}

static void test_unorm16_every_value(void) {
    int mismatches = 0;
    for (int c = 0; c < 65536; c++) {
        float expected = (float)((double)c / 65535.0);
        if (sw_unorm16_to_float((uint16_t)c) != expected) mismatches++;
    }
    SW_CHECK_EQ_INT(mismatches, 0);
    SW_CHECK(sw_unorm16_to_float(0) == 0.0f);
    SW_CHECK(sw_unorm16_to_float(65535) == 1.0f);
}

/* snorm: max(c / (2ⁿ⁻¹ − 1), −1), so the most negative code is −1 too. */
static void test_snorm8_every_value(void) {
    int mismatches = 0;
    for (int c = -128; c < 128; c++) {
        double v = (double)c / 127.0;
        float expected = v < -1.0 ? -1.0f : (float)v;
        if (sw_snorm8_to_float((int8_t)c) != expected) mismatches++;
    }
    SW_CHECK_EQ_INT(mismatches, 0);
    SW_CHECK(sw_snorm8_to_float(-128) == -1.0f);
    SW_CHECK(sw_snorm8_to_float(-127) == -1.0f);
    SW_CHECK(sw_snorm8_to_float(0) == 0.0f);
    SW_CHECK(sw_snorm8_to_float(127) == 1.0f);
}

static void test_snorm16_every_value(void) {
    int mismatches = 0;
    for (int c = -32768; c < 32768; c++) {
        double v = (double)c / 32767.0;
        float expected = v < -1.0 ? -1.0f : (float)v;
        if (sw_snorm16_to_float((int16_t)c) != expected) mismatches++;
    }
    SW_CHECK_EQ_INT(mismatches, 0);
    SW_CHECK(sw_snorm16_to_float(-32768) == -1.0f);
    SW_CHECK(sw_snorm16_to_float(-32767) == -1.0f);
    SW_CHECK(sw_snorm16_to_float(0) == 0.0f);
    SW_CHECK(sw_snorm16_to_float(32767) == 1.0f);
}

int main(void) {
    SW_RUN(test_unorm8_every_value);
    SW_RUN(test_unorm16_every_value);
    SW_RUN(test_snorm8_every_value);
    SW_RUN(test_snorm16_every_value);
    return sw_test_finish();
}
