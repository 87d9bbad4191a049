/*
 * Cast to or from float64 (the other casts are in cast.c, which needs no
 * double arithmetic). Same rules: truncation toward zero with saturation to
 * integers, wrap-around between integers, (v != 0) to bool. float64 to
 * float16 rounds once: through float with round-to-odd, which keeps the
 * final rounding to nearest even correct.
 */
#include "onnx_to_c/oc_tensor.h"

static float cast_f64_to_f32_odd_(double v) {
  float f = (float)v;
  if ((double)f != v && f == f) {
    uint32_t u = oc_f2u(f);
    if (fabs((double)f) > fabs(v)) u -= 1u; /* toward zero */
    f = oc_u2f(u | 1u);
  }
  return f;
}

static void cast_from_double_(int32_t to, double v, void *y, int32_t i) {
  switch (to) {
    case OC_F64: ((double *)y)[i] = v; break;
    case OC_F32: ((float *)y)[i] = (float)v; break;
    case OC_F16: ((uint16_t *)y)[i] = oc_f2h(cast_f64_to_f32_odd_(v)); break;
    case OC_I8: ((int8_t *)y)[i] = OC_SATURATE(int8_t, v, INT8_MIN, INT8_MAX, -128.0, 127.0); break;
    case OC_U8: ((uint8_t *)y)[i] = OC_SATURATE(uint8_t, v, 0, UINT8_MAX, 0.0, 255.0); break;
    case OC_I16: ((int16_t *)y)[i] = OC_SATURATE(int16_t, v, INT16_MIN, INT16_MAX, -32768.0, 32767.0); break;
    case OC_U16: ((uint16_t *)y)[i] = OC_SATURATE(uint16_t, v, 0, UINT16_MAX, 0.0, 65535.0); break;
    case OC_I32: ((int32_t *)y)[i] = OC_SATURATE(int32_t, v, INT32_MIN, INT32_MAX, -2147483648.0, 2147483648.0); break;
    case OC_U32: ((uint32_t *)y)[i] = OC_SATURATE(uint32_t, v, 0, UINT32_MAX, 0.0, 4294967296.0); break;
    case OC_I64: ((int64_t *)y)[i] = OC_SATURATE(int64_t, v, INT64_MIN, INT64_MAX, -9223372036854775808.0, 9223372036854775808.0); break;
    case OC_U64: ((uint64_t *)y)[i] = OC_SATURATE(uint64_t, v, 0, UINT64_MAX, 0.0, 18446744073709551616.0); break;
    default: ((uint8_t *)y)[i] = (uint8_t)(v != 0.0); break;
  }
}

/* Element i of x as a double (exact for every type but 64-bit integers). */
static double cast_load_(int32_t from, const void *x, int32_t i) {
  switch (from) {
    case OC_F64: return ((const double *)x)[i];
    case OC_F32: return (double)((const float *)x)[i];
    case OC_F16: return (double)oc_h2f(((const uint16_t *)x)[i]);
    case OC_I8: return (double)((const int8_t *)x)[i];
    case OC_I16: return (double)((const int16_t *)x)[i];
    case OC_U16: return (double)((const uint16_t *)x)[i];
    case OC_I32: return (double)((const int32_t *)x)[i];
    case OC_U32: return (double)((const uint32_t *)x)[i];
    case OC_I64: return (double)((const int64_t *)x)[i];
    case OC_U64: return (double)((const uint64_t *)x)[i];
    default: return (double)((const uint8_t *)x)[i]; /* u8, bool */
  }
}

OC_API void oc_cast_f64(int32_t from, int32_t to, const void *x, void *y, int32_t n) {
  int32_t i;
  for (i = 0; i < n; i++) {
    if (from == OC_F64) {
      cast_from_double_(to, ((const double *)x)[i], y, i);
    } else if (from == OC_I64 && to == OC_F64) { /* exact integers above 2^53 round once */
      ((double *)y)[i] = (double)((const int64_t *)x)[i];
    } else {
      ((double *)y)[i] = cast_load_(from, x, i);
    }
  }
}
