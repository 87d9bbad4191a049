/*
 * onnx-to-c runtime: element helpers shared by the kernels that handle more
 * than float32: IEEE half <-> float conversion, integer power and remainder,
 * and reading run-time index tensors (int32 or int64).
 */
#ifndef ONNX_TO_C_OC_TENSOR_H_
#define ONNX_TO_C_OC_TENSOR_H_

#include <stdint.h>
#include <string.h>

#include "onnx_to_c/oc_common.h"
#include "onnx_to_c/oc_math.h"

/* IEEE half (bits) to float: exact. */
OC_INLINE float oc_h2f(uint16_t h) {
  const uint32_t sign = ((uint32_t)h & 0x8000u) << 16, e = ((uint32_t)h >> 10) & 0x1Fu,
                 m = (uint32_t)h & 0x3FFu;
  if (e == 0u) { /* zero or subnormal: m * 2^-24, exact */
    return oc_u2f(oc_f2u((float)m * 5.96046448e-08f) | sign);
  }
  if (e == 31u) return oc_u2f(sign | 0x7F800000u | (m << 13));
  return oc_u2f(sign | ((e + 112u) << 23) | (m << 13));
}

/* Float to IEEE half, rounding to nearest even; NaN stays a (quiet) NaN. */
OC_INLINE uint16_t oc_f2h(float f) {
  const uint32_t x = oc_f2u(f), sign = (x >> 16) & 0x8000u, ax = x & 0x7FFFFFFFu;
  uint32_t h, rest;
  if (ax >= 0x7F800000u) return (uint16_t)(sign | (ax > 0x7F800000u ? 0x7E00u : 0x7C00u));
  if (ax >= 0x477FF000u) return (uint16_t)(sign | 0x7C00u); /* >= 65520 rounds to inf */
  if (ax < 0x38800000u) { /* below 2^-14: a subnormal half, round(|f| * 2^24) */
    return (uint16_t)(sign | (uint32_t)oc_roundf_even(oc_u2f(ax) * 16777216.0f));
  }
  h = ((((ax >> 23) - 112u) << 10) | ((ax & 0x7FFFFFu) >> 13));
  rest = ax & 0x1FFFu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) h++; /* may carry into the exponent */
  return (uint16_t)(sign | h);
}

/* base^e with wrap-around (integer Pow); negative e gives 1/base^|e| truncated. */
OC_INLINE int64_t oc_ipow_i64(int64_t base, int64_t e) {
  uint64_t r = 1u, b = (uint64_t)base;
  if (e < 0) return base == 1 ? 1 : (base == -1 ? ((e & 1) ? -1 : 1) : 0);
  while (e > 0) {
    if (e & 1) r *= b;
    b *= b;
    e >>= 1;
  }
  return (int64_t)r;
}

OC_INLINE uint64_t oc_ipow_u64(uint64_t b, uint64_t e) {
  uint64_t r = 1u;
  while (e > 0u) {
    if (e & 1u) r *= b;
    b *= b;
    e >>= 1;
  }
  return r;
}

/* Remainder with the sign of the divisor (Python's %); 0 for b == 0 or -1. */
OC_INLINE int64_t oc_pymod_i64(int64_t a, int64_t b) {
  int64_t r;
  if (b == 0 || b == -1) return 0;
  r = a % b;
  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}

/* Element i of an index tensor of int32 (is64 == 0) or int64. */
OC_INLINE int64_t oc_index_at(const void *idx, int32_t is64, int32_t i) {
  return is64 ? ((const int64_t *)idx)[i] : (int64_t)((const int32_t *)idx)[i];
}

/* Element i of an integer or float32 tensor (dtype: oc_dtype) as an int64;
 * floats truncate toward zero (saturating, NaN gives 0). */
OC_INLINE int64_t oc_int_at(const void *t, int32_t dtype, int32_t i) {
  switch (dtype) {
    case OC_F32: {
      const float v = ((const float *)t)[i];
      return v != v ? 0 : (v <= -9223372036854775808.0f ? INT64_MIN
                           : (v >= 9223372036854775808.0f ? INT64_MAX : (int64_t)v));
    }
    case OC_I8: return ((const int8_t *)t)[i];
    case OC_I16: return ((const int16_t *)t)[i];
    case OC_I32: return ((const int32_t *)t)[i];
    case OC_I64: return ((const int64_t *)t)[i];
    case OC_U16: return ((const uint16_t *)t)[i];
    case OC_U32: return ((const uint32_t *)t)[i];
    case OC_U64: return (int64_t)((const uint64_t *)t)[i];
    default: return ((const uint8_t *)t)[i]; /* u8, bool */
  }
}

/* An index into a dim of n elements, negative counting from the end; -1
 * when it is out of range (kernels then skip the element or write 0). */
OC_INLINE int32_t oc_wrap_index(int64_t v, int32_t n) {
  if (v < 0) v += n;
  return (v < 0 || v >= n) ? -1 : (int32_t)v;
}

/* Element i of an 8-bit tensor, int8 (is_signed) or uint8; 0 for NULL. */
OC_INLINE int32_t oc_q8_at(const void *q, int32_t is_signed, int32_t i) {
  if (q == NULL) return 0;
  return is_signed ? (int32_t)((const int8_t *)q)[i] : (int32_t)((const uint8_t *)q)[i];
}

/* QuantizeLinear of one float32 x into element `at` of y (int8 when
 * is_signed, else uint8): round(x / s) half to even, plus the zero point z,
 * saturated; NaN gives the zero point. */
OC_INLINE void oc_quantize_put_f32(float x, float s, float z, int32_t is_signed, void *y, ptrdiff_t at) {
  const float lo = is_signed ? -128.0f : 0.0f, hi = is_signed ? 127.0f : 255.0f;
  float v = oc_roundf_even(x / s) + z;
  v = v != v ? z : (v < lo ? lo : (v > hi ? hi : v));
  if (is_signed) {
    ((int8_t *)y)[at] = (int8_t)v;
  } else {
    ((uint8_t *)y)[at] = (uint8_t)v;
  }
}

/* A float or double v converted to the integer type T, saturating to LO
 * (v <= FLO) and HI (v >= FHI) instead of the undefined behaviour of C; NaN
 * gives 0. FLO and FHI are v's type's exact bounds. */
#define OC_SATURATE(T, v, LO, HI, FLO, FHI) \
  ((v) != (v) ? (T)0 : ((v) <= (FLO) ? (T)(LO) : ((v) >= (FHI) ? (T)(HI) : (T)(v))))

#endif /* ONNX_TO_C_OC_TENSOR_H_ */
