/*
 * Cast between element types other than float64 (cast_f64.c has those):
 * float32, float16, the integers and bool. Floats to integers truncate
 * toward zero and saturate (NaN gives 0); integers to narrower integers wrap;
 * anything to bool is (v != 0). y must not overlap x.
 */
#include "onnx_to_c/oc_tensor.h"

static void cast_from_float_(int32_t to, float v, void *y, int32_t i) {
  switch (to) {
    case OC_F32: ((float *)y)[i] = v; break;
    case OC_F16: ((uint16_t *)y)[i] = oc_f2h(v); break;
    case OC_I8: ((int8_t *)y)[i] = OC_SATURATE(int8_t, v, INT8_MIN, INT8_MAX, -128.0f, 127.0f); break;
    case OC_U8: ((uint8_t *)y)[i] = OC_SATURATE(uint8_t, v, 0, UINT8_MAX, 0.0f, 255.0f); break;
    case OC_I16: ((int16_t *)y)[i] = OC_SATURATE(int16_t, v, INT16_MIN, INT16_MAX, -32768.0f, 32767.0f); break;
    case OC_U16: ((uint16_t *)y)[i] = OC_SATURATE(uint16_t, v, 0, UINT16_MAX, 0.0f, 65535.0f); break;
    case OC_I32: ((int32_t *)y)[i] = OC_SATURATE(int32_t, v, INT32_MIN, INT32_MAX, -2147483648.0f, 2147483648.0f); break;
    case OC_U32: ((uint32_t *)y)[i] = OC_SATURATE(uint32_t, v, 0, UINT32_MAX, 0.0f, 4294967296.0f); break;
    case OC_I64: ((int64_t *)y)[i] = OC_SATURATE(int64_t, v, INT64_MIN, INT64_MAX, -9223372036854775808.0f, 9223372036854775808.0f); break;
    case OC_U64: ((uint64_t *)y)[i] = OC_SATURATE(uint64_t, v, 0, UINT64_MAX, 0.0f, 18446744073709551616.0f); break;
    default: ((uint8_t *)y)[i] = (uint8_t)(v != 0.0f); break; /* bool; NaN is true */
  }
}

/* Integers, as their value in int64 (signed sources) or uint64 (unsigned). */
#define CAST_FROM_INT_(v, y, i, to)                                  \
  switch (to) {                                                      \
    case OC_F32: ((float *)y)[i] = (float)(v); break;                \
    case OC_F16: ((uint16_t *)y)[i] = oc_f2h((float)(v)); break;     \
    case OC_I8: ((int8_t *)y)[i] = (int8_t)(v); break;               \
    case OC_U8: ((uint8_t *)y)[i] = (uint8_t)(v); break;             \
    case OC_I16: ((int16_t *)y)[i] = (int16_t)(v); break;            \
    case OC_U16: ((uint16_t *)y)[i] = (uint16_t)(v); break;          \
    case OC_I32: ((int32_t *)y)[i] = (int32_t)(v); break;            \
    case OC_U32: ((uint32_t *)y)[i] = (uint32_t)(v); break;          \
    case OC_I64: ((int64_t *)y)[i] = (int64_t)(v); break;            \
    case OC_U64: ((uint64_t *)y)[i] = (uint64_t)(v); break;          \
    default: ((uint8_t *)y)[i] = (uint8_t)((v) != 0); break;         \
  }

static void cast_from_signed_(int32_t to, int64_t v, void *y, int32_t i) {
  CAST_FROM_INT_(v, y, i, to)
}

static void cast_from_unsigned_(int32_t to, uint64_t v, void *y, int32_t i) {
  CAST_FROM_INT_(v, y, i, to)
}

#undef CAST_FROM_INT_

OC_API void oc_cast(int32_t from, int32_t to, const void *x, void *y, int32_t n) {
  int32_t i;
  for (i = 0; i < n; i++) {
    switch (from) {
      case OC_F32: cast_from_float_(to, ((const float *)x)[i], y, i); break;
      case OC_F16: cast_from_float_(to, oc_h2f(((const uint16_t *)x)[i]), y, i); break;
      case OC_I8: cast_from_signed_(to, ((const int8_t *)x)[i], y, i); break;
      case OC_I16: cast_from_signed_(to, ((const int16_t *)x)[i], y, i); break;
      case OC_I32: cast_from_signed_(to, ((const int32_t *)x)[i], y, i); break;
      case OC_I64: cast_from_signed_(to, ((const int64_t *)x)[i], y, i); break;
      case OC_U16: cast_from_unsigned_(to, ((const uint16_t *)x)[i], y, i); break;
      case OC_U32: cast_from_unsigned_(to, ((const uint32_t *)x)[i], y, i); break;
      case OC_U64: cast_from_unsigned_(to, ((const uint64_t *)x)[i], y, i); break;
      default: cast_from_unsigned_(to, ((const uint8_t *)x)[i], y, i); break; /* u8, bool */
    }
  }
}
