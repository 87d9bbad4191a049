/* DynamicQuantizeLinear: uint8 quantization of x with the range [min(0,
 * min x), max(0, max x)]: scale = range / 255, zero point =
 * saturate(round(-min / scale)), y = saturate(round(x / scale) + zero point);
 * rounding half to even. */
#include "onnx_to_c/oc_tensor.h"

static float dynamic_quantize_clamp_(float v) {
  return v != v ? 0.0f : (v < 0.0f ? 0.0f : (v > 255.0f ? 255.0f : v));
}

OC_API void oc_dynamic_quantize_f32(const float *x, int32_t n, uint8_t *y, float *scale_out,
                                    uint8_t *zp_out) {
  float lo = 0.0f, hi = 0.0f, scale, zp;
  int32_t i;
  for (i = 0; i < n; i++) {
    lo = x[i] < lo ? x[i] : lo;
    hi = x[i] > hi ? x[i] : hi;
  }
  scale = (hi - lo) / 255.0f;
  zp = scale > 0.0f ? dynamic_quantize_clamp_(oc_roundf_even((0.0f - lo) / scale)) : 0.0f;
  for (i = 0; i < n; i++) {
    const float q = scale > 0.0f ? oc_roundf_even(x[i] / scale) + zp : zp;
    y[i] = (uint8_t)dynamic_quantize_clamp_(q);
  }
  *scale_out = scale;
  *zp_out = (uint8_t)zp;
}
