/* DequantizeLinear (oc_quant_params): uint8 / int8 / int32 to float32,
 * (q - zp) * scale. */
#include "onnx_to_c/oc_tensor.h"

OC_API void oc_dequantize(const oc_quant_params *p, const void *x, const float *scale,
                          const void *zp, float *y) {
  int32_t o, a, i;
  ptrdiff_t at = 0;
  for (o = 0; o < p->outer; o++) {
    for (a = 0; a < p->axis_len; a++) {
      const int32_t q = p->per_axis ? a : 0;
      const float s = scale[q];
      int32_t z = 0;
      if (zp != NULL) {
        z = p->q_type == OC_I32 ? ((const int32_t *)zp)[q] : oc_q8_at(zp, p->q_type == OC_I8, q);
      }
      for (i = 0; i < p->inner; i++, at++) {
        const int32_t v = p->q_type == OC_I32 ? ((const int32_t *)x)[at]
                                              : oc_q8_at(x, p->q_type == OC_I8, (int32_t)at);
        y[at] = (float)((int64_t)v - z) * s;
      }
    }
  }
}
