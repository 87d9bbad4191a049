/* Requantization of int32 accumulators (oc_requant_params), the second
 * half of QLinearMatMul and QLinearConv. */
#include "onnx_to_c/oc_tensor.h"

OC_API void oc_requantize(const oc_requant_params *p, const int32_t *acc, const int32_t *bias,
                          const float *a_scale, const float *b_scale, const float *y_scale,
                          const void *y_zp, void *y) {
  const int32_t is_signed = p->y_type == OC_I8;
  const float lo = is_signed ? -128.0f : 0.0f, hi = is_signed ? 127.0f : 255.0f;
  const float z = (float)oc_q8_at(y_zp, is_signed, 0);
  int32_t o, c, i;
  ptrdiff_t at = 0;
  for (o = 0; o < p->outer; o++) {
    for (c = 0; c < p->channels; c++) {
      const float mult = (a_scale[0] * b_scale[p->b_per_channel ? c : 0]) / y_scale[0];
      const int32_t b = bias != NULL ? bias[c] : 0;
      for (i = 0; i < p->inner; i++, at++) {
        float v = oc_roundf_even((float)((int64_t)acc[at] + b) * mult) + z;
        v = v < lo ? lo : (v > hi ? hi : v);
        if (is_signed) {
          ((int8_t *)y)[at] = (int8_t)v;
        } else {
          ((uint8_t *)y)[at] = (uint8_t)v;
        }
      }
    }
  }
}
