/* QuantizeLinear (oc_quant_params): float32 to uint8 / int8 with rounding
 * half to even and saturation. */
#include "onnx_to_c/oc_tensor.h"

OC_API void oc_quantize_f32(const oc_quant_params *p, const float *x, const float *scale,
                            const void *zp, void *y) {
  const int32_t is_signed = p->q_type == OC_I8;
  int32_t o, a, i;
  ptrdiff_t at = 0;
  for (o = 0; o < p->outer; o++) {
    for (a = 0; a < p->axis_len; a++) {
      const int32_t q = p->per_axis ? a : 0;
      const float s = scale[q], z = (float)oc_q8_at(zp, is_signed, q);
      for (i = 0; i < p->inner; i++, at++) oc_quantize_put_f32(x[at], s, z, is_signed, y, at);
    }
  }
}
